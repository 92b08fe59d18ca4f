"""The plain-Python reference engine of Until the World Ends (tests/reference/until_the_world_ends.py):
random games to the end with their invariants, and the verification cases of the docs page and
of the game's engine specification §6 as scripted positions."""
from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from math import comb

import pytest

from simlib.games.until_the_world_ends.ruleset import load_ruleset
from tests.reference.chance import RandomChance, ScriptedChance
from tests.reference.until_the_world_ends import Reference

RULES = (lambda r: {k: r.get(k) for k in r.keys()})(load_ruleset("reference"))


def rules(**tweaks):
    """The reference rules with dotted keys tweaked (``constants__deal=4`` -> constants.deal)."""
    out = dict(RULES)
    for k, v in tweaks.items():
        key = k.replace("__", ".")
        assert key in out, key
        out[key] = v
    return out


def deck(r=RULES) -> Counter:
    return Counter({k[len("cards."):-len(".count")]: v for k, v in r.items()
                    if k.startswith("cards.") and k.endswith(".count") and v})


def kinds(g: Reference, name: str) -> str:
    return g.cards[name].kind


def deal_queue(n: int, hands: dict[int, list[str]], r=RULES) -> list[str]:
    """The 'deal' outcomes giving each seat its hand (dealt round-robin from the dealer's
    left; round 1, dealer seat 0). Seats not in ``hands`` get timeline events the given
    hands leave in the deck, in the data's order."""
    deal = r["constants.deal"]
    left = deck(r) - Counter(c for h in hands.values() for c in h)
    fillers = [c for c in left.elements() if r[f"cards.{c}.effect"].startswith("points(")]
    full = {}
    for s in range(n):
        full[s] = list(hands[s]) if s in hands else [fillers.pop(0) for _ in range(deal)]
        assert len(full[s]) == deal
    return [full[(0 + i) % n][k] for k in range(deal) for i in range(1, n + 1)]


def scripted(n, hands, draws=(), redeals=(), r=RULES, **setup):
    chance = ScriptedChance({"deal": deal_queue(n, hands, r), "draw": list(draws),
                             "redeal": list(redeals)}, fallback=RandomChance(99))
    return Reference(r, {"players": n, **setup}, chance), chance


# ------------------------------------------------------------------ random games, invariants


def check_position(g: Reference, full: Counter) -> None:
    obs = g.observation()
    seat, phase = obs["seat"], obs["phase"]
    held = Counter(g.pile) + Counter(g.discards) + Counter(g.common)
    for s in range(g.n):
        held += Counter(g.hands[s]) + Counter(g.timelines[s])
    assert held == full, "cards not conserved"
    for s in range(g.n):
        assert not Counter(g.marked[s]) - Counter(g.hands[s]), "a mark without its card"
        assert all(kinds(g, c) == "event" for c in g.timelines[s])
        assert all(kinds(g, c) == "ending" for c in g.marked[s])
        assert sum(kinds(g, c) == "ending" for c in g.hands[s]) < g.hoard_size or phase == "hoard"
    assert all(kinds(g, c) in ("good", "escalation") for c in g.common)
    acts = g.legal_actions()
    assert acts and len(set(acts)) == len(acts)
    assert obs["hand"] == sorted(g.hands[seat], key=lambda c: g.order[c])
    if phase == "turn":
        if g.marked[seat] and not g.draw_again:  # (acting again, a fresh mark waits)
            assert all(a[0] == "play" and a[1] in g.marked[seat] for a in acts)
        if ("draw",) in acts:
            assert len(g.hands[seat]) < g.hand_limit and g.pile
        else:
            assert len(g.hands[seat]) >= g.hand_limit or not g.pile or g.marked[seat] \
                or g.draw_again
        assert all(a[1] in g.hands[seat] for a in acts if a[0] == "play")
    elif phase == "snipe":
        assert all(a[1] != seat and 0 <= a[2] < len(g.timelines[a[1]]) for a in acts)
    elif phase == "challenge":
        assert seat != obs["ender"] and acts[-1] == ("no_challenge",)
        assert all(kinds(g, a[1]) == "ending" and a[1] in g.hands[seat] for a in acts[:-1])
    elif phase == "hoard":
        assert all(obs["hoard"][a[1]] > 0 for a in acts)
    assert obs["turn"] < g.turn_cap


def check_record(g: Reference, r) -> dict:
    rec = g.record()
    n = rec["players"]
    assert rec["rounds"] == len(rec["round_causes"]) == len(rec["round_scores"]) <= r["constants.round_cap"]
    running = [0] * n
    for i, scores in enumerate(rec["round_scores"]):
        running = [a + b for a, b in zip(running, scores)]
        if i < rec["rounds"] - 1:
            assert max(running) < r["constants.target"], "the game went on past the target"
    assert running == rec["totals"]
    best = max(rec["totals"])
    assert rec["winners"] == [s for s in range(n) if rec["totals"][s] == best] and rec["winners"]
    if rec["end_cause"] == "target":
        assert best >= r["constants.target"]
    else:
        assert rec["end_cause"] == "round_cap" and rec["rounds"] == r["constants.round_cap"]
    causes = Counter(rec["round_causes"])
    assert set(causes) <= {"ending", "hoard", "exhausted", "turn_cap"}
    assert rec["endings_played"] == rec["endings_challenged"] + causes["ending"]
    assert rec["hoards"] == causes["hoard"]
    assert rec["plays"].get("ending", 0) == rec["endings_played"]
    assert set(rec["plays"]) <= {"event", "good", "escalation", "instant", "ending"}
    assert sum(rec["effects"].values()) >= rec["plays"].get("instant", 0)
    assert all(t <= r["constants.turn_cap"] for t in rec["round_turns"])
    assert sum(rec["round_turns"]) == rec["turns"]
    for cause, ender, ending, picks in zip(rec["round_causes"], rec["round_enders"],
                                           rec["round_endings"], rec["hoard_picks"]):
        assert (ender is not None) == (ending is not None) == (cause == "ending")
        assert (picks is not None) == (cause == "hoard")
    return rec


def play_random(r, n, seed, check=True, **setup):
    g = Reference(r, {"players": n, **setup}, RandomChance(seed))
    rng = random.Random(seed * 7 + 1)
    full = deck(r)
    steps = 0
    while not g.is_over():
        assert g.to_move() is not None
        if check:
            check_position(g, full)
        g.apply(rng.choice(g.legal_actions()))
        steps += 1
        assert steps < 200000
    assert g.to_move() is None and g.legal_actions() == []
    rec = check_record(g, r)
    assert rec["decisions"] == steps
    return rec


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_random_games_keep_the_invariants(n):
    causes = Counter()
    for seed in range(6):
        rec = play_random(RULES, n, 1000 * n + seed)
        causes.update(rec["round_causes"])
    assert causes["ending"] > 0


@pytest.mark.parametrize("tweaks", [
    {"constants__variants__additive_escalation": True},
    {"constants__variants__deal_all": True},
    {"constants__variants__draw_again_after_instant": True},
    {"constants__hoard_size": 2, "constants__target": 60},            # hoards happen
    {"constants__turn_cap": 12, "constants__round_cap": 4},             # the caps bite
    {"constants__deal": 5, "constants__hoard_size": 3, "constants__max_players": 10},
])
def test_random_games_under_variants_and_tweaks(tweaks):
    r = rules(**tweaks)
    causes = Counter()
    for seed in range(8):
        rec = play_random(r, 2 + seed % 4, seed)
        causes.update(rec["round_causes"])
    if "constants__hoard_size" in tweaks:
        assert causes["hoard"] > 0
    if "constants__turn_cap" in tweaks:
        assert causes["turn_cap"] > 0


def test_large_tables_and_auto_forced():
    for n, seed in [(12, 1), (17, 2)]:
        play_random(RULES, n, seed, check=False)
    rec = play_random(RULES, 3, 5, auto_forced=True)
    assert rec["rounds"] >= 1
    with pytest.raises(ValueError):
        Reference(RULES, {"players": 18}, RandomChance(0))


def test_same_chance_and_actions_replay_identically():
    a = play_random(RULES, 4, 77, check=False)
    b = play_random(RULES, 4, 77, check=False)
    assert a == b


# ------------------------------------------------------------------ verification cases (§6)


def test_case1_setup_four_players():
    g = Reference(RULES, {"players": 4}, RandomChance(1))
    assert sum(deck().values()) == 54
    assert [len(h) for h in g.hands] == [3, 3, 3, 3] and len(g.pile) == 42
    assert g.to_move() == 1 and g.dealer == 0 and g.round == 1
    # Seat 1 ends at once, nobody challenges: round 2 is dealt by seat 1, seat 2 plays first.
    g, _ = scripted(4, {1: ["the_end", "outbreak_2", "natural_2"]})
    g.apply(("play", "the_end"))
    assert g.round == 2 and g.dealer == 1 and g.to_move() == 2


def test_case2_full_hand_may_not_draw_and_hoard_ends_the_round():
    g, _ = scripted(2, {1: ["outbreak_2", "outbreak_3", "outbreak_3"], 0: ["natural_2", "natural_3", "natural_4"]},
                    draws=["personal_1", "personal_2", "personal_2"])
    g.apply(("draw",))          # seat 1: 4 cards
    g.apply(("draw",))          # seat 0
    g.apply(("draw",))          # seat 1: 5 cards
    g.apply(("play", "natural_2"))
    assert g.to_move() == 1 and len(g.hands[1]) == 5
    assert ("draw",) not in g.legal_actions()
    assert {a[1] for a in g.legal_actions()} == {"outbreak_2", "outbreak_3", "personal_1", "personal_2"}
    # A hand reaching hoard_size endings ends the round at once (the deal of 4 lets it happen
    # from a draw, the 5th ending not being a marked one yet to play).
    r = rules(constants__deal=4)
    g, _ = scripted(2, {1: ["the_end", "the_end", "the_end", "rescue"],
                        0: ["outbreak_4", "natural_4", "cosmic_3", "snipe"]}, draws=["it_spreads"], r=r)
    g.timelines[1] = ["personal_3"]
    g.timelines[0] = ["outbreak_4"]
    g.common = ["outbreak_x2"]
    g.apply(("draw",))
    obs = g.observation()
    assert obs["phase"] == "hoard" and g.to_move() == 1            # the hoarder picks first
    assert obs["hoard"] == {"the_end": 3, "rescue": 1, "it_spreads": 1}
    g.apply(("pick", "rescue"))
    assert g.to_move() == 0 and g.legal_actions() == [("pick", "the_end"), ("pick", "it_spreads")]
    g.apply(("pick", "it_spreads"))
    rec = g.record()
    assert rec["round_causes"] == ["hoard"] and rec["hoards"] == 1
    assert rec["hoard_picks"] == [["it_spreads", "rescue"]]
    # Each pick is its picker's only: seat 1 personal 3 + rescue 10; seat 0 outbreak 4 x2 x2.
    assert rec["round_scores"] == [[16, 13]] and rec["round_turns"] == [1]


def test_case3_drawn_wipe_out_resolves_at_once_dealt_one_waits():
    g, _ = scripted(2, {1: ["outbreak_3", "outbreak_5", "personal_1"],
                        0: ["natural_4", "wipe_out", "cosmic_3"]}, draws=["wipe_out"])
    g.apply(("play", "outbreak_3"))
    g.apply(("play", "natural_4"))
    g.apply(("play", "outbreak_5"))
    assert g.timelines == [["natural_4"], ["outbreak_3", "outbreak_5"]]
    hand0 = sorted(g.hands[0])
    assert ("play", "wipe_out") in g.legal_actions()   # the dealt wipe-out is held
    g.apply(("draw",))
    assert g.timelines == [[], ["outbreak_3"]]
    assert sorted(g.hands[0]) == hand0 and "wipe_out" in g.hands[0]
    assert sorted(g.discards) == ["natural_4", "outbreak_5", "wipe_out"]
    assert g.to_move() == 1 and g.observation()["phase"] == "turn"


def test_case4_challenge_cancels_both_and_play_goes_on_left_of_the_ender():
    hands = {1: ["the_end", "outbreak_2", "outbreak_3"], 2: ["rescue", "natural_2", "natural_3"],
             0: ["last_stand", "cosmic_3", "cosmic_5"]}
    g, _ = scripted(3, hands)
    g.apply(("play", "the_end"))
    obs = g.observation()
    assert obs["phase"] == "challenge" and g.to_move() == 2 and obs["pending_ending"] == "the_end"
    assert g.legal_actions() == [("challenge", "rescue"), ("no_challenge",)]
    g.apply(("challenge", "rescue"))
    assert sorted(g.discards) == ["rescue", "the_end"]
    assert g.to_move() == 2 and g.observation()["phase"] == "turn" and g.round == 1
    rec = g.record()
    assert rec["endings_played"] == 1 and rec["endings_challenged"] == 1
    # Nobody challenges: the round is scored at once.
    g, _ = scripted(3, hands)
    g.apply(("play", "the_end"))
    g.apply(("no_challenge",))
    assert g.to_move() == 0 and g.observation()["phase"] == "challenge"
    g.apply(("no_challenge",))
    rec = g.record()
    assert rec["round_causes"] == ["ending"] and rec["round_enders"] == [1] and g.round == 2
    # A seat holding no ending is not asked.
    g, _ = scripted(3, {**hands, 2: ["natural_4", "natural_2", "natural_3"]})
    g.apply(("play", "the_end"))
    assert g.to_move() == 0 and g.observation()["ender"] == 1


def test_case5_a_drawn_ending_is_the_only_action_next_turn():
    g, _ = scripted(2, {1: ["outbreak_2", "outbreak_3", "rescue"], 0: ["natural_2", "natural_3", "natural_4"]},
                    draws=["the_end"])
    g.apply(("draw",))
    assert g.marked[1] == ["the_end"]
    g.apply(("play", "natural_2"))
    assert g.legal_actions() == [("play", "the_end")]
    # Dealt endings are not marked: seat 1 may play rescue (dealt) on any turn.
    g2, _ = scripted(2, {1: ["outbreak_2", "outbreak_3", "rescue"], 0: ["natural_2", "natural_3", "natural_4"]})
    assert ("play", "rescue") in g2.legal_actions() and ("draw",) in g2.legal_actions()


def test_marked_endings_one_a_turn_and_challenges_use_a_marked_one_first():
    g, _ = scripted(2, {1: ["outbreak_2", "scavenge", "rescue"], 0: ["the_end", "natural_3", "natural_4"]},
                    draws=["last_stand", "it_spreads"])
    g.apply(("play", "scavenge"))        # seat 1 draws last_stand, seat 0 draws it_spreads
    assert g.marked == [["it_spreads"], ["last_stand"]]
    g.apply(("play", "it_spreads"))      # seat 0's only action
    assert g.to_move() == 1 and g.observation()["phase"] == "challenge"
    # Seat 1 holds rescue (dealt) and last_stand (marked): it challenges with the marked one.
    assert g.legal_actions() == [("challenge", "last_stand"), ("no_challenge",)]
    g.apply(("challenge", "last_stand"))
    assert g.marked == [[], []] and g.to_move() == 1
    assert ("play", "rescue") in g.legal_actions() and ("draw",) in g.legal_actions()


def test_case6_scoring():
    def score(ending, **tweaks):
        g, _ = scripted(2, {1: [ending, "outbreak_2", "outbreak_3"],
                            0: ["natural_2", "natural_3", "natural_4"]}, r=rules(**tweaks))
        g.timelines[1] = ["cosmic_5", "outbreak_3", "personal_4"]
        g.common = ["cosmic_x2", "disaster_x2", "good_plus_5", "good_minus_3"]
        g.apply(("play", ending))
        rec = g.record()
        assert rec["round_causes"] == ["ending"]
        return rec["round_scores"][0]
    assert score("the_end") == [2, 32]
    assert score("last_stand") == [2, 36]
    assert score("the_end", constants__variants__additive_escalation=True) == [2, 27]
    # Reading 11: an ending's multiplier goes on top of the additive factor.
    assert score("last_stand", constants__variants__additive_escalation=True) == [2, 31]
    assert score("nuclear_winter") == [2, 32]
    assert score("it_spreads") == [2, 38]
    assert score("rescue") == [2, 42]              # seat 1 alone has the most personal events


def test_rescue_goes_to_everyone_tied_for_the_most_and_never_to_none():
    g, _ = scripted(3, {1: ["rescue", "outbreak_2", "outbreak_3"]})
    g.timelines = [["personal_1"], ["personal_2", "outbreak_4"], ["natural_5"]]
    g.apply(("play", "rescue"))
    assert g.record()["round_scores"] == [[11, 16, 5]]
    g, _ = scripted(3, {1: ["rescue", "outbreak_2", "outbreak_3"]})
    g.timelines = [[], ["outbreak_4"], ["natural_5"]]
    g.apply(("play", "rescue"))
    assert g.record()["round_scores"] == [[0, 4, 5]]


def test_case7_hoard_at_seven_players_two_picks_a_card():
    r = rules(constants__deal=4)
    hands = {1: ["the_end", "last_stand", "nuclear_winter", "rescue"]}
    g, _ = scripted(7, hands, draws=["it_spreads"], r=r)
    g.apply(("draw",))
    assert g.observation()["hoard"] == {n: 2 for n in
                                        ["the_end", "last_stand", "nuclear_winter", "rescue", "it_spreads"]}
    order = []
    while not g.observation()["phase"] == "turn":
        order.append(g.to_move())
        g.apply(g.legal_actions()[0])
    assert order == [1, 2, 3, 4, 5, 6, 0]
    picks = g.record()["hoard_picks"][0]
    assert Counter(picks) == {"the_end": 2, "last_stand": 2, "nuclear_winter": 2, "rescue": 1}


def test_several_hoards_after_a_redeal_pick_from_the_dealers_left():
    g, _ = scripted(3, {1: ["outbreak_2", "outbreak_3", "outbreak_4"]}, draws=["personal_1"],
                    redeals=["the_end", "last_stand", "it_spreads", "the_end", "rescue", "nuclear_winter"])
    g.hands = [["the_end"] * 3, ["outbreak_2"], ["the_end"] * 3]
    g.pile = ["personal_1"]
    g.discards = ["last_stand", "rescue", "it_spreads", "nuclear_winter", "the_end", "the_end"]
    g.apply(("draw",))                    # seat 1 draws the last card: redeal at the turn's end
    assert g.hands[1] == ["outbreak_2", "personal_1", "the_end", "the_end"]
    obs = g.observation()
    assert obs["phase"] == "hoard" and g.to_move() == 1
    assert obs["hoard"] == {"the_end": 6, "last_stand": 1, "nuclear_winter": 1, "rescue": 1, "it_spreads": 1}
    order = []
    while not g.is_over() and g.round == 1:
        order.append(g.to_move())
        g.apply(g.legal_actions()[-1])
    assert order == [1, 2, 0]
    assert g.record()["round_turns"] == [1]


def test_case8_redeal():
    hands = {1: ["scavenge", "outbreak_2", "outbreak_3"], 2: ["natural_2", "natural_3", "natural_4"],
             3: ["cosmic_3", "cosmic_5", "cosmic_8"], 0: ["personal_1", "personal_2", "personal_3"]}
    g, chance = scripted(4, hands, draws=["outbreak_4", "natural_5"])
    g.pile = ["outbreak_4", "natural_5"]
    g.discards = ["good_plus_5", "good_plus_3", "good_minus_3", "good_minus_5", "outbreak_x2",
                  "natural_x2", "cosmic_x2", "personal_x2", "disaster_x2", "outbreak_x3"]
    g.hands[3] = ["cosmic_3", "cosmic_5", "cosmic_8", "cosmic_10", "outbreak_8"]
    g.apply(("play", "scavenge"))   # seat 1 draws, seat 2 draws the last card; 3 is full
    # 11 discards (with the scavenge) -> 2 each, 3 left to draw; play goes on left of seat 2.
    assert [len(h) for h in g.hands] == [5, 5, 6, 7] and len(g.pile) == 3 and g.discards == []
    assert sum(1 for k, _ in chance.history if k == "redeal") == 8
    assert g.record()["redeals"] == 1 and g.record()["effects"] == {"draw_each": 1}
    assert g.to_move() == 3 and ("draw",) not in g.legal_actions()
    # deal_all: every discard dealt round-robin from the dealer's left, nothing to draw.
    g, _ = scripted(4, hands, draws=["outbreak_4", "natural_5"], r=rules(constants__variants__deal_all=True))
    g.pile = ["outbreak_4", "natural_5"]
    g.discards = ["good_plus_5", "good_plus_3", "good_minus_3", "good_minus_5", "outbreak_x2",
                  "natural_x2", "cosmic_x2", "personal_x2", "disaster_x2", "outbreak_x3"]
    g.hands[3] = ["cosmic_3", "cosmic_5", "cosmic_8", "cosmic_10", "outbreak_8"]
    g.apply(("play", "scavenge"))
    assert [len(h) for h in g.hands] == [5, 6, 7, 8]
    assert g.pile == [] and g.to_move() == 3


def test_case9_highest_total_wins_ties_share():
    hands = {1: ["the_end", "outbreak_2", "outbreak_3"], 2: ["natural_2", "natural_3", "natural_4"],
             0: ["cosmic_3", "cosmic_5", "cosmic_8"]}
    g, _ = scripted(3, hands)
    g.totals = [98, 104, 104]
    g.apply(("play", "the_end"))
    rec = g.record()
    assert g.is_over() and rec["winners"] == [1, 2] and rec["end_cause"] == "target"
    g, _ = scripted(2, {1: ["the_end", "outbreak_2", "outbreak_3"], 0: ["cosmic_3", "cosmic_5", "cosmic_8"]})
    g.totals = [60, 99]
    g.apply(("play", "the_end"))
    assert not g.is_over() and g.round == 2 and g.totals == [60, 99]


def test_case10_chances_of_the_deck():
    d = deck()
    n_cards = sum(d.values())
    g = Reference(RULES, {"players": 2}, RandomChance(0))
    instants = sum(c for name, c in d.items() if g.cards[name].kind == "instant")
    endings = sum(c for name, c in d.items() if g.cards[name].kind == "ending")
    assert Fraction(instants, n_cards) == Fraction(9, 54)
    assert 1 - Fraction(comb(n_cards - endings, 3), comb(n_cards, 3)) == Fraction(2863, 8268)
    # The engine's first deal is asked over the whole deck.
    chance = ScriptedChance({}, fallback=RandomChance(3))
    seen = []
    orig = chance.draw
    chance.draw = lambda kind, options: (seen.append((kind, list(options))), orig(kind, options))[1]
    Reference(RULES, {"players": 2}, chance)
    assert seen[0][0] == "deal" and Counter(seen[0][1]) == d


def test_snipe_choice_shift_and_clears():
    g, _ = scripted(3, {1: ["snipe", "shift", "clear_escalations"],
                        2: ["natural_2", "natural_3", "natural_4"], 0: ["cosmic_3", "cosmic_5", "cosmic_8"]})
    g.timelines = [["cosmic_10", "outbreak_8"], ["outbreak_6"], []]
    g.common = ["outbreak_x2", "good_plus_5", "disaster_x2"]
    g.apply(("play", "snipe"))
    assert g.observation()["phase"] == "snipe" and g.to_move() == 1
    assert g.legal_actions() == [("snipe", 0, 0), ("snipe", 0, 1)]
    g.apply(("snipe", 0, 0))
    assert g.timelines == [["outbreak_8"], ["outbreak_6"], []] and "cosmic_10" in g.discards
    assert g.to_move() == 2
    g.apply(("play", "natural_2"))     # seat 2
    g.apply(("play", "cosmic_3"))      # seat 0
    assert g.timelines == [["outbreak_8", "cosmic_3"], ["outbreak_6"], ["natural_2"]]
    g.apply(("play", "shift"))         # every last card moves to the left neighbour's end
    assert g.timelines == [["outbreak_8", "natural_2"], ["cosmic_3"], ["outbreak_6"]]
    g.apply(("play", "natural_3"))
    g.apply(("play", "cosmic_5"))
    g.apply(("play", "clear_escalations"))
    assert g.common == ["good_plus_5"]


def test_a_snipe_with_no_card_to_take_does_nothing():
    g, _ = scripted(2, {1: ["snipe", "outbreak_2", "outbreak_3"]})
    g.timelines[1] = ["outbreak_4"]           # only the user's own card: nothing to take
    g.apply(("play", "snipe"))
    assert g.to_move() == 0 and g.observation()["phase"] == "turn" and g.timelines[1] == ["outbreak_4"]


def test_scavenge_draws_clockwise_nested_first_and_a_drawn_snipe_is_its_drawers_choice():
    g, chance = scripted(3, {1: ["scavenge", "outbreak_2", "outbreak_3"]},
                         draws=["scavenge", "personal_1", "snipe", "personal_2", "personal_3", "personal_4"])
    g.timelines = [["cosmic_5"], [], []]
    g.apply(("play", "scavenge"))
    # seat 1 draws a scavenge: it draws for 1, 2 (a snipe: seat 2 chooses now), 0 first ...
    assert g.to_move() == 2 and g.observation()["phase"] == "snipe"
    assert g.legal_actions() == [("snipe", 0, 0)]
    assert [h.count("personal_1") for h in g.hands] == [0, 1, 0]
    g.apply(("snipe", 0, 0))
    # ... then seat 0 draws personal_2, and the first scavenge goes on: 2 then 0.
    assert g.hands[0][-2:] == ["personal_2", "personal_4"] and g.hands[2][-1] == "personal_3"
    assert g.to_move() == 2 and g.observation()["phase"] == "turn"
    assert chance.left() == {}


def test_draw_again_after_instant_variant():
    r = rules(constants__variants__draw_again_after_instant=True)
    g, _ = scripted(2, {1: ["outbreak_2", "outbreak_3", "outbreak_4"], 0: ["natural_2", "natural_3", "natural_4"]},
                    draws=["clear_good_things", "the_end"], r=r)
    g.apply(("draw",))
    assert g.to_move() == 1 and g.observation()["phase"] == "turn"
    g.apply(("draw",))                    # an ending: the turn ends, it waits for next turn
    assert g.to_move() == 0
    g.apply(("play", "natural_2"))
    assert g.legal_actions() == [("play", "the_end")]
    g, _ = scripted(2, {1: ["outbreak_2", "outbreak_3", "outbreak_4"], 0: ["natural_2", "natural_3", "natural_4"]},
                    draws=["clear_good_things"])
    g.apply(("draw",))
    assert g.to_move() == 0              # default: drawing an instantaneous ends the turn


def test_round_stops_turn_cap_exhausted_round_cap():
    hands = {1: ["outbreak_2", "outbreak_3", "outbreak_4"], 0: ["natural_2", "natural_3", "natural_4"]}
    g, _ = scripted(2, hands, r=rules(constants__turn_cap=3))
    for a in [("play", "outbreak_2"), ("play", "natural_2"), ("play", "outbreak_3")]:
        g.apply(a)
    rec = g.record()
    assert rec["round_causes"] == ["turn_cap"] and rec["round_scores"] == [[2, 5]] and rec["round_turns"] == [3]
    # round_cap: the game stops after that many rounds, the highest total winning.
    g, _ = scripted(2, {1: ["the_end", "outbreak_3", "outbreak_4"], 0: ["natural_2", "natural_3", "natural_4"]},
                    r=rules(constants__round_cap=1))
    g.timelines[0] = ["natural_5"]
    g.apply(("play", "the_end"))
    rec = g.record()
    assert g.is_over() and rec["end_cause"] == "round_cap" and rec["winners"] == [0]


def test_exhausted_round():
    g, _ = scripted(2, {1: ["outbreak_2", "outbreak_3", "outbreak_4"], 0: ["natural_2", "natural_3", "natural_4"]})
    g.hands = [[], ["outbreak_2"]]
    g.pile, g.discards = [], []
    g.apply(("play", "outbreak_2"))       # then seat 0 and seat 1 pass
    rec = g.record()
    assert rec["round_causes"] == ["exhausted"] and rec["round_turns"] == [3]
    assert rec["round_scores"] == [[0, 2]]


def test_illegal_action_is_refused():
    g = Reference(RULES, {"players": 2}, RandomChance(0))
    with pytest.raises(ValueError):
        g.apply(("snipe", 0, 0))


def test_other_phrases_of_the_effect_vocabulary():
    r = rules(cards__wipe_out__effect="discard_last(others)", cards__shift__effect="pass_last(right)",
              cards__clear_good_things__effect="clear(all)", cards__the_end__effect="end(zero(disaster))")
    g, _ = scripted(3, {1: ["wipe_out", "shift", "clear_good_things"], 2: ["natural_2", "natural_3", "natural_4"],
                        0: ["the_end", "cosmic_5", "cosmic_8"]}, r=r)
    g.timelines = [["cosmic_10", "outbreak_8"], ["outbreak_6", "personal_5"], ["natural_7"]]
    g.common = ["outbreak_x2", "good_plus_5"]
    g.apply(("play", "wipe_out"))          # the others lose their last card, seat 1 keeps his
    assert g.timelines == [["cosmic_10"], ["outbreak_6", "personal_5"], []]
    g.apply(("play", "natural_2"))
    g.apply(("play", "cosmic_5"))
    g.apply(("play", "shift"))             # to the right: seat s's last card goes to seat s - 1
    assert g.timelines == [["cosmic_10", "personal_5"], ["outbreak_6", "natural_2"], ["cosmic_5"]]
    g.apply(("play", "natural_3"))
    g.apply(("play", "cosmic_8"))
    g.apply(("play", "clear_good_things"))
    assert g.common == []
    g.apply(("play", "natural_4"))
    g.apply(("play", "the_end"))           # nobody holds an ending to challenge: it stands
    assert g.round == 2                    # and disasters score 0 for everyone
    assert g.record()["round_scores"][0] == [5, 0, 0]
