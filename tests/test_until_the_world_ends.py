"""Until the World Ends: the specification's verification cases, the rules, exact
probabilities against an independent computation, invariants.

Positions are built card by card:

``arrange(game, hands=..., timelines=..., common=..., pile=..., discard=...)`` puts named
cards (entries of cards.toml) where the test wants them; every other card of the deck goes
to the bottom of the draw pile (``rest="pile"``) or to the discards (``rest="discard"``), so
the deck stays whole.  ``pile`` lists the pile from the top down.
"""
from __future__ import annotations

from fractions import Fraction

import numpy as np

from simlib.games.until_the_world_ends import codes as K


def card_ids(rules) -> dict[str, list[int]]:
    flat = rules.flat()
    out: dict[str, list[int]] = {}
    for c in range(int(flat[K.R_PARAMS + K.P_N_CARDS])):
        out.setdefault(rules.card_names[int(flat[K.R_CARDS + c * K.CC_N + K.CC_ENTRY])], []).append(c)
    return out


def arrange(game, hands=None, timelines=None, common=(), pile=(), discard=(), marked=None,
            rest="pile", totals=None, to_move=None, dealer=None):
    st, rules = game.state, game.rules
    pool = {k: list(v) for k, v in card_ids(rules).items()}

    def take(name):
        return pool[name].pop(0)

    n = game.players
    hands = hands or {}
    timelines = timelines or {}
    marked = marked or {}
    for s in range(n):
        st[K.S_S_HAND_N + s * K.SEAT_W] = 0
        st[K.S_S_TL_N + s * K.SEAT_W] = 0
        st[K.S_S_PICK + s * K.SEAT_W] = -1
    for s, names in hands.items():
        for i, nm in enumerate(names):
            st[K.S_HAND + s * K.SEAT_W + i] = take(nm)
            st[K.S_MARKED + s * K.SEAT_W + i] = 1 if i in marked.get(s, ()) else 0
        st[K.S_S_HAND_N + s * K.SEAT_W] = len(names)
    for s, names in timelines.items():
        for i, nm in enumerate(names):
            st[K.S_TL + s * K.SEAT_W + i] = take(nm)
        st[K.S_S_TL_N + s * K.SEAT_W] = len(names)
    st[K.S_N_COMMON] = len(common)
    for i, nm in enumerate(common):
        st[K.S_COMMON + i] = take(nm)
    disc = [take(nm) for nm in discard]
    top = [take(nm) for nm in pile]
    left = [c for v in pool.values() for c in v]
    if rest == "discard":
        disc += left
        left = []
    # the pile is stored bottom-up: the last entry is the top card
    pile_ids = left + top[::-1]
    st[K.S_N_PILE] = len(pile_ids)
    st[K.S_PILE:K.S_PILE + len(pile_ids)] = pile_ids
    st[K.S_N_DISCARD] = len(disc)
    st[K.S_DISCARD:K.S_DISCARD + len(disc)] = disc
    if totals is not None:
        st[K.S_S_TOTAL:K.S_S_TOTAL + n * K.SEAT_W:K.SEAT_W] = totals
    if dealer is not None:
        st[K.S_DEALER] = dealer
    if to_move is not None:
        st[K.S_TURN] = to_move
        st[K.S_DECIDER] = to_move
        st[K.S_PHASE] = K.PH_TURN
    return game


def all_cards(game) -> list[int]:
    """Every card id found in the state's places (a hoard's shown endings included)."""
    st = game.state
    out = list(st[K.S_PILE:K.S_PILE + st[K.S_N_PILE]]) + list(st[K.S_DISCARD:K.S_DISCARD + st[K.S_N_DISCARD]])
    out += list(st[K.S_COMMON:K.S_COMMON + st[K.S_N_COMMON]])
    for s in range(game.players):
        out += list(st[K.S_HAND + s * K.SEAT_W:K.S_HAND + s * K.SEAT_W + st[K.S_S_HAND_N + s * K.SEAT_W]])
        out += list(st[K.S_TL + s * K.SEAT_W:K.S_TL + s * K.SEAT_W + st[K.S_S_TL_N + s * K.SEAT_W]])
    if st[K.S_PHASE] == K.PH_PICK:
        out += list(st[K.S_SHOWN:K.S_SHOWN + st[K.S_N_SHOWN]])
    return [int(c) for c in out]


def index_of(game, words: str) -> int:
    return game.legal_actions().index(words)


# --------------------------------------------------------------------------- an independent scorer
def reference_score(rules, timeline, common, ending=None, others=(), additive=False):
    """A seat's round score computed from card names and the effect phrases alone (apart
    from the kernels): events times the escalations on their colour (product, or 1 + sum of
    (m - 1)), times / zeroed by the ending's modifier, plus the good things, plus a
    bonus_most bonus (``others``: the other seats' timelines)."""
    cols = rules.colours
    dis = rules.get("constants.disasters")

    def parse(name):
        eff = rules.get(f"cards.{name}.effect")
        word, _, args = eff.partition("(")
        return word, [a.strip() for a in args.rstrip(")").split(",")]

    def hits(target, colour):
        return target == colour or (target == "disaster" and colour in dis) or target == "every"

    mod = None
    if ending is not None:
        word, args = parse(ending)
        inner = rules.get(f"cards.{ending}.effect")[4:-1]
        if inner != "none":
            mw, _, margs = inner.partition("(")
            mod = (mw, [a.strip() for a in margs.rstrip(")").split(",")])
    total = Fraction(0)
    for name in timeline:
        word, (colour, pts) = parse(name)
        assert colour in cols
        fs = [int(parse(c)[1][1]) for c in common if parse(c)[0] == "multiply" and hits(parse(c)[1][0], colour)]
        f = (1 + sum(m - 1 for m in fs)) if additive else int(np.prod(fs)) if fs else 1
        v = int(pts) * f
        if mod and mod[0] == "multiply" and hits(mod[1][0], colour):
            v *= int(mod[1][1])
        if mod and mod[0] == "zero" and hits(mod[1][0], colour):
            v = 0
        total += v
    total += sum(int(parse(c)[1][0]) for c in common if parse(c)[0] == "add_all")
    if mod and mod[0] == "bonus_most":
        colour = mod[1][0]
        count = lambda tl: sum(1 for nm in tl if parse(nm)[1][0] == colour)  # noqa: E731
        mine = count(timeline)
        if mine > 0 and all(mine >= count(o) for o in others):
            total += int(mod[1][1])
    return int(total)


# =========================================================================== tests
import math  # noqa: E402

import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from simlib.games.until_the_world_ends.api import play_games  # noqa: E402
from simlib.games.until_the_world_ends.step import Game  # noqa: E402
from simlib.games.until_the_world_ends.api import Engine  # noqa: E402
from simlib.games.until_the_world_ends.ruleset import RulesetError, load_ruleset, parse_effect  # noqa: E402

RULES = load_ruleset()
ENDINGS = ["the_end", "the_end", "the_end", "last_stand", "nuclear_winter"]


def new(players=4, seed=3, game=0, ruleset=None, seats=None):
    return Game(seed=seed, game=game, players=players, ruleset=ruleset, seats=seats)


# --------------------------------------------------------------------------- spec 6.1
def test_case1_setup_four_players_deal_pile_first_player_next_dealer():
    g = new(4)
    st = g.state
    assert [int(st[K.S_S_HAND_N + s * K.SEAT_W]) for s in range(4)] == [3, 3, 3, 3]
    assert int(st[K.S_N_PILE]) == 42 and int(st[K.S_N_DISCARD]) == 0
    assert sorted(all_cards(g)) == list(range(54))
    assert int(st[K.S_DEALER]) == 0 and g.to_move == 1 and int(st[K.S_ROUND]) == 1
    # the round ends: the dealer's left deals round 2 and its left plays first
    arrange(g, hands={1: ["the_end"]}, to_move=1, dealer=0)
    g.apply(index_of(g, "play the_end"))
    assert int(st[K.S_ROUND]) == 2 and int(st[K.S_DEALER]) == 1 and g.to_move == 2
    assert [int(st[K.S_S_HAND_N + s * K.SEAT_W]) for s in range(4)] == [3, 3, 3, 3]


# --------------------------------------------------------------------------- spec 6.2
def test_case2_no_draw_with_five_cards_and_must_play():
    g = arrange(new(4), hands={1: ["outbreak_2", "natural_2", "cosmic_3", "personal_1", "good_plus_3"]},
                to_move=1)
    acts = g.legal_actions()
    assert "draw" not in acts and all(a.startswith("play ") for a in acts) and len(acts) == 5
    g2 = arrange(new(4), hands={1: ["outbreak_2", "natural_2", "cosmic_3", "personal_1"]}, to_move=1)
    assert "draw" in g2.legal_actions()


def test_case2_five_endings_in_hand_end_the_round_at_once():
    g = arrange(new(4), hands={1: ENDINGS[:4], 2: ["outbreak_2"]}, pile=["rescue"], to_move=1)
    turns = int(g.state[K.S_ROUND_TURNS])
    g.apply(index_of(g, "draw"))
    assert g.phase == "pick" and int(g.state[K.S_HOARDS]) == 1
    assert int(g.state[K.S_ROUND_TURNS]) == turns  # no further turn: the round is over
    assert g.to_move == 1 and int(g.state[K.S_N_SHOWN]) == 5 and g.hand(1) == []


# --------------------------------------------------------------------------- spec 6.3
def test_case3_drawn_wipe_out_resolves_and_ends_the_turn():
    g = arrange(new(2), hands={0: ["personal_1"], 1: ["natural_2"]},
                timelines={0: ["outbreak_3", "outbreak_5"], 1: ["outbreak_4"]}, pile=["wipe_out"], to_move=0)
    g.apply(index_of(g, "draw"))
    assert g.timeline(0) == ["outbreak_3"] and g.timeline(1) == []
    assert g.hand(0) == ["personal_1"] and g.to_move == 1
    disc = g.state[K.S_DISCARD:K.S_DISCARD + g.state[K.S_N_DISCARD]]
    names = sorted(card_name_of(g, c) for c in disc)
    assert names == ["outbreak_4", "outbreak_5", "wipe_out"]


def card_name_of(g, c):
    return g.rules.card_names[int(g.rules.flat()[K.R_CARDS + int(c) * K.CC_N + K.CC_ENTRY])]


def test_case3_dealt_wipe_out_stays_in_hand_until_played():
    g = arrange(new(2), hands={0: ["wipe_out"], 1: ["natural_2"]},
                timelines={0: ["outbreak_3", "outbreak_5"], 1: ["outbreak_4"]}, pile=["personal_2"], to_move=0)
    g.apply(index_of(g, "draw"))
    assert g.hand(0) == ["wipe_out", "personal_2"] and g.timeline(1) == ["outbreak_4"]
    g.apply(index_of(g, "play natural_2"))  # seat 1
    g.apply(index_of(g, "play wipe_out"))   # seat 0, when it chooses
    assert g.timeline(0) == ["outbreak_3"] and g.timeline(1) == ["outbreak_4"]


# --------------------------------------------------------------------------- spec 6.4
def test_case4_challenge_discards_both_and_left_of_the_ender_plays():
    g = arrange(new(4), hands={1: ["the_end", "outbreak_2"], 2: ["natural_2"], 3: ["last_stand"],
                               0: ["it_spreads"]}, to_move=1)
    disc0 = int(g.state[K.S_N_DISCARD])
    g.apply(index_of(g, "play the_end"))
    assert g.phase == "challenge" and g.to_move == 3  # seat 2 holds no ending: not asked
    g.apply(index_of(g, "challenge the_end"))
    assert int(g.state[K.S_N_DISCARD]) == disc0 + 2 and g.hand(3) == []
    assert g.phase == "turn" and g.to_move == 2 and int(g.state[K.S_ROUND]) == 1
    assert int(g.state[K.S_CHALLENGES]) == 1


def test_case4_unchallenged_ending_scores_the_round_at_once():
    g = arrange(new(3), hands={1: ["the_end"], 2: ["last_stand"], 0: ["nuclear_winter"]},
                timelines={1: ["outbreak_8"], 2: ["personal_6"]}, to_move=1)
    g.apply(index_of(g, "play the_end"))
    assert g.to_move == 2 and g.phase == "challenge"
    g.apply(index_of(g, "let the ending stand"))
    assert g.to_move == 0 and g.phase == "challenge"
    g.apply(index_of(g, "let the ending stand"))
    assert int(g.state[K.S_ROUND]) == 2 and g.totals() == [0, 8, 6]


def test_a_challenge_cannot_be_challenged_and_the_round_goes_on():
    g = arrange(new(3), hands={1: ["the_end"], 2: ["last_stand"], 0: ["nuclear_winter"]}, to_move=1)
    g.apply(index_of(g, "play the_end"))
    g.apply(index_of(g, "challenge the_end"))  # seat 2
    assert g.phase == "turn" and g.to_move == 2 and g.hand(0) == ["nuclear_winter"]


# --------------------------------------------------------------------------- spec 6.5
def test_case5_a_drawn_ending_is_the_only_legal_action_next_turn():
    g = arrange(new(2), hands={0: ["outbreak_2"], 1: ["natural_2", "cosmic_3"]}, pile=["the_end", "personal_1"],
                to_move=0)
    g.apply(index_of(g, "draw"))
    assert g.to_move == 1
    g.apply(index_of(g, "draw"))
    assert g.to_move == 0 and g.legal_actions() == ["play the_end"]


def test_dealt_endings_are_unmarked_and_a_second_drawn_ending_waits():
    g = arrange(new(2), hands={0: ["the_end", "rescue", "personal_1"], 1: ["natural_2"]},
                marked={0: (0, 1)}, to_move=0)
    assert g.legal_actions() == ["play the_end"]  # one a turn: the first marked ending
    g2 = arrange(new(2), hands={0: ["the_end", "personal_1"], 1: ["natural_2"]}, to_move=0)
    assert set(g2.legal_actions()) == {"draw", "play the_end", "play personal_1"}


# --------------------------------------------------------------------------- spec 6.6
CASE6_TL = ["cosmic_5", "outbreak_3", "personal_4"]
CASE6_COMMON = ["cosmic_x2", "disaster_x2", "good_plus_5", "good_minus_3"]


@pytest.mark.parametrize("ending, additive, want", [(None, False, 32), ("last_stand", False, 36),
                                                     (None, True, 27)])
def test_case6_scoring_escalations_good_things_and_endings(ending, additive, want):
    rules = RULES.override({"constants.variants.additive_escalation": additive})
    g = arrange(new(2, ruleset=rules), timelines={0: CASE6_TL}, common=CASE6_COMMON)
    got = g.score(0, ending)
    assert got == want == reference_score(rules, CASE6_TL, CASE6_COMMON, ending, additive=additive)


def test_scores_agree_with_the_independent_scorer_on_random_positions():
    rng = np.random.default_rng(5)
    events = [n for n in RULES.card_names if RULES.get(f"cards.{n}.effect").startswith("points")]
    commons = [n for n in RULES.card_names if RULES.get(f"cards.{n}.effect").startswith(("add_all", "multiply"))]
    ends = [n for n in RULES.card_names if RULES.get(f"cards.{n}.effect").startswith("end")]
    for additive in (False, True):
        rules = RULES.override({"constants.variants.additive_escalation": additive})
        for _ in range(60):
            tl = [list(rng.choice(events, size=rng.integers(0, 5), replace=False)) for _ in range(3)]
            if len(set(sum(tl, []))) < len(sum(tl, [])):
                continue
            com = list(rng.choice(commons, size=rng.integers(0, 5), replace=False))
            end = None if rng.random() < 0.3 else str(rng.choice(ends))
            g = arrange(new(3, ruleset=rules), timelines=dict(enumerate(tl)), common=com)
            for p in range(3):
                want = reference_score(rules, tl[p], com, end, others=[tl[q] for q in range(3) if q != p],
                                       additive=additive)
                assert g.score(p, end) == want


# --------------------------------------------------------------------------- spec 6.7
def test_case7_hoard_at_seven_players_two_may_share_each_ending():
    g = arrange(Game(seed=3, game=0, players=7, trace=True), hands={2: ENDINGS[:4]}, pile=["rescue"], to_move=2)
    g.apply(index_of(g, "draw"))
    assert g.phase == "pick" and g.to_move == 2
    st = g.state
    assert int(st[K.S_N_SHOWN]) == 5
    assert [int(v) for v in st[K.S_SHOWN_LEFT:K.S_SHOWN_LEFT + 5]] == [2] * 5
    order = []
    # every player picks the first the_end while it lasts: two share it, then it is gone
    while g.phase == "pick":
        order.append(g.to_move)
        acts = g.legal_actions()
        g.apply(acts.index("pick the_end") if "pick the_end" in acts else 0)
    assert order == [2, 3, 4, 5, 6, 0, 1]  # the hoarder first, then clockwise from his left
    picks = {int(r[2]): card_name_of(g, r[3]) for r in g.log_rows() if r[0] == K.LG_PICK}
    assert sorted(picks) == list(range(7))  # all get one
    assert list(picks.values()).count("the_end") == 6  # three the_end shown, two players each
    assert int(st[K.S_ROUND]) == 2 and int(st[K.S_ENDS_HOARD]) == 1


def test_hoard_picks_apply_each_to_its_picker():
    g = arrange(new(2), hands={0: ["the_end", "the_end", "the_end", "last_stand"]},
                timelines={0: ["personal_6"], 1: ["personal_4"]}, pile=["it_spreads"], to_move=0)
    g.apply(index_of(g, "draw"))
    g.apply(index_of(g, "pick last_stand"))   # seat 0: personal x2 -> 12
    g.apply(index_of(g, "pick the_end"))      # seat 1: no modifier -> 4
    assert g.totals() == [12, 4]


def test_hoard_share_is_ceil_players_over_five():
    for n, share in [(2, 1), (5, 1), (6, 2), (8, 2)]:
        g = arrange(new(n), hands={0: ENDINGS[:4]}, pile=["rescue"], to_move=0)
        g.apply(index_of(g, "draw"))
        assert int(g.state[K.S_SHOWN_LEFT]) == share == math.ceil(n / 5)


# --------------------------------------------------------------------------- spec 6.8
def test_case8_redeal_floor_each_rest_to_pile_hand_limit_ignored():
    disc = ["outbreak_2", "outbreak_3", "outbreak_3", "outbreak_4", "outbreak_4", "outbreak_5", "outbreak_6",
            "natural_2", "natural_3", "natural_4", "natural_5"]
    full = ["personal_1", "personal_2", "personal_2", "personal_3", "personal_3"]
    g = arrange(new(4), hands={2: full, 1: ["cosmic_3"]}, discard=disc, pile=["cosmic_5"], to_move=1,
                rest="pile")
    # only cosmic_5 may be in the pile: the rest of the deck goes to the players' timelines
    st = g.state
    rest = [int(c) for c in st[K.S_PILE:K.S_PILE + st[K.S_N_PILE] - 1]]
    for i, c in enumerate(rest):
        s = i % 4
        st[K.S_TL + s * K.SEAT_W + st[K.S_S_TL_N + s * K.SEAT_W]] = c
        st[K.S_S_TL_N + s * K.SEAT_W] += 1
    st[K.S_PILE] = st[K.S_PILE + st[K.S_N_PILE] - 1]
    st[K.S_N_PILE] = 1
    assert sorted(all_cards(g)) == list(range(54))
    g.apply(index_of(g, "draw"))  # seat 1 draws the last card
    assert [int(st[K.S_S_HAND_N + s * K.SEAT_W]) for s in range(4)] == [2, 4, 7, 2]
    assert int(st[K.S_N_PILE]) == 3 and int(st[K.S_N_DISCARD]) == 0 and int(st[K.S_REDEALS]) == 1
    assert g.to_move == 2 and "draw" not in g.legal_actions()  # left of the last drawer; 7 cards
    assert sorted(all_cards(g)) == list(range(54))


def test_redeal_deal_all_variant_deals_every_discard():
    rules = RULES.override({"constants.variants.deal_all": True})
    g = arrange(new(4, ruleset=rules), hands={1: ["cosmic_3"]}, pile=["cosmic_5"], rest="discard", to_move=1)
    d = int(g.state[K.S_N_DISCARD])
    g.apply(index_of(g, "draw"))
    assert int(g.state[K.S_N_PILE]) == 0
    assert sum(int(g.state[K.S_S_HAND_N + s * K.SEAT_W]) for s in range(4)) == 2 + d


def test_scavenge_emptying_the_pile_redeals_and_play_goes_on_left_of_the_last_drawer():
    g = arrange(new(4), hands={0: ["scavenge"]}, pile=["personal_1", "personal_2"], rest="discard", to_move=0)
    g.apply(index_of(g, "play scavenge"))  # seats 0 and 1 draw the last two cards
    assert int(g.state[K.S_REDEALS]) == 1 and g.to_move == 2


# --------------------------------------------------------------------------- spec 6.9
@pytest.mark.parametrize("totals, over, winners", [([98, 104, 104], True, [1, 2]), ([60, 99, 0], False, []),
                                                   ([100, 40, 0], True, [0])])
def test_case9_target_reached_highest_total_wins_ties_share(totals, over, winners):
    g = arrange(new(3), hands={1: ["the_end"]}, totals=totals, to_move=1)
    g.apply(index_of(g, "play the_end"))
    assert g.over == over
    if over:
        r = g.result
        assert [s for s in range(3) if r[f"win_{s}"]] == winners and r["winners"] == len(winners)
        assert r["tie"] == (len(winners) > 1)
        assert r["end_cause"] == "target"
    else:
        assert int(g.state[K.S_ROUND]) == 2


# --------------------------------------------------------------------------- spec 6.10
def test_case10_exact_probabilities_first_draw_instant_and_dealt_an_ending():
    # independent: counting cards from the effect phrases, fractions and binomials
    kinds = {}
    for n in RULES.card_names:
        word = RULES.get(f"cards.{n}.effect").split("(")[0]
        kinds[word] = kinds.get(word, 0) + RULES.get(f"cards.{n}.count")
    n_inst = sum(kinds[w] for w in ("discard_last", "remove_one", "pass_last", "clear", "draw_each"))
    n_end, n_all = kinds["end"], sum(kinds.values())
    p_inst = Fraction(n_inst, n_all)
    p_end = 1 - Fraction(math.comb(n_all - n_end, 3), math.comb(n_all, 3))
    assert p_inst == Fraction(9, 54) and p_end == Fraction(2863, 8268)
    # the engine's deals
    N = 100_000
    flat = RULES.flat()
    eng = Engine(RULES)
    eng.init(11, 0, 4)  # sizes the state to 4 seats; later inits of 4 players reuse it
    st = eng.state
    inst = ends = 0
    for i in range(N):
        eng.init(11, i, 4)
        top = int(st[K.S_PILE + st[K.S_N_PILE] - 1])
        inst += int(flat[K.R_CARDS + top * K.CC_N + K.CC_KIND]) == K.KIND_INSTANT
        hand = st[K.S_HAND + 1 * K.SEAT_W:K.S_HAND + 1 * K.SEAT_W + 3]
        ends += any(int(flat[K.R_CARDS + int(c) * K.CC_N + K.CC_KIND]) == K.KIND_ENDING for c in hand)
    for hits, p in ((inst, p_inst), (ends, p_end)):
        p = float(p)
        half = 2.576 * math.sqrt(p * (1 - p) / N)
        assert abs(hits / N - p) < half, (hits / N, p, half)


# --------------------------------------------------------------------------- other rules
def test_snipe_removes_the_chosen_card_of_another_player():
    g = arrange(new(3), hands={0: ["snipe"]}, to_move=0,
                timelines={0: ["personal_1"], 1: ["outbreak_8", "natural_2"], 2: ["cosmic_10"]})
    g.apply(index_of(g, "play snipe"))
    assert g.phase == "snipe" and g.to_move == 0  # the user's own timeline is no target
    assert set(g.legal_actions()) == {"snipe seat 1's outbreak_8", "snipe seat 1's natural_2",
                                      "snipe seat 2's cosmic_10"}
    g.apply(index_of(g, "snipe seat 2's cosmic_10"))
    assert g.timeline(2) == [] and g.to_move == 1


def test_snipe_without_targets_has_no_effect():
    g = arrange(new(3), hands={0: ["snipe"]}, timelines={0: ["outbreak_8"]}, to_move=0)
    g.apply(index_of(g, "play snipe"))
    assert g.phase == "turn" and g.to_move == 1 and g.timeline(0) == ["outbreak_8"]


def test_shift_passes_each_last_card_to_the_left_neighbour():
    g = arrange(new(3), hands={0: ["shift"]}, timelines={0: ["outbreak_8", "natural_2"], 1: ["cosmic_10"]},
                to_move=0)
    g.apply(index_of(g, "play shift"))
    assert g.timeline(0) == ["outbreak_8"] and g.timeline(1) == ["natural_2"] and g.timeline(2) == ["cosmic_10"]


@pytest.mark.parametrize("card, left", [("clear_good_things", ["cosmic_x2"]), ("clear_escalations", ["good_plus_5"])])
def test_clear_discards_one_type_of_common_card(card, left):
    g = arrange(new(2), hands={0: [card]}, common=["cosmic_x2", "good_plus_5"], to_move=0)
    g.apply(index_of(g, f"play {card}"))
    assert g.common() == left


def test_scavenge_each_player_clockwise_from_the_user_draws_under_the_limit():
    full = ["personal_1", "personal_2", "personal_2", "personal_3", "personal_3"]
    g = arrange(new(3), hands={0: ["scavenge"], 1: full}, pile=["outbreak_2", "outbreak_3", "the_end"], to_move=0)
    g.apply(index_of(g, "play scavenge"))
    assert g.hand(0) == ["outbreak_2"] and len(g.hand(1)) == 5 and g.hand(2) == ["outbreak_3"]


def test_scavenge_drawn_instantaneous_resolves_at_once_and_the_scavenge_goes_on():
    """The rulebook: an instantaneous "is played the instant it is drawn"; only a dealt one
    is held.  A scavenge draws, so seat 1's wipe-out goes face up on the discards and wipes
    every timeline's last card before seat 2 draws; the turn then passes left of the user."""
    g = arrange(new(3), hands={0: ["scavenge"], 2: ["natural_2"]},
                timelines={0: ["outbreak_3", "outbreak_5"], 1: ["cosmic_3"], 2: ["personal_4"]},
                pile=["outbreak_2", "wipe_out", "natural_3"], to_move=0)
    g.apply(index_of(g, "play scavenge"))
    assert g.hand(0) == ["outbreak_2"] and g.hand(1) == [] and g.hand(2) == ["natural_2", "natural_3"]
    assert g.timeline(0) == ["outbreak_3"] and g.timeline(1) == [] and g.timeline(2) == []
    disc = sorted(card_name_of(g, c) for c in g.state[K.S_DISCARD:K.S_DISCARD + g.state[K.S_N_DISCARD]])
    assert disc == ["cosmic_3", "outbreak_5", "personal_4", "scavenge", "wipe_out"]
    assert g.phase == "turn" and g.to_move == 1


def test_scavenge_drawn_snipe_is_its_drawers_choice_then_the_scavenge_goes_on():
    g = arrange(new(3), hands={0: ["scavenge"]},
                timelines={0: ["outbreak_8"], 2: ["cosmic_10"]},
                pile=["outbreak_2", "snipe", "natural_3"], to_move=0)
    g.apply(index_of(g, "play scavenge"))
    assert g.phase == "snipe" and g.to_move == 1  # seat 1 drew it: its "you"
    assert set(g.legal_actions()) == {"snipe seat 0's outbreak_8", "snipe seat 2's cosmic_10"}
    g.apply(index_of(g, "snipe seat 2's cosmic_10"))
    assert g.timeline(2) == [] and g.hand(1) == [] and g.hand(2) == ["natural_3"]
    assert g.phase == "turn" and g.to_move == 1  # seat 0's turn is over


def test_scavenge_drawn_scavenge_draws_at_once_before_the_outer_one_goes_on():
    g = arrange(new(3), hands={0: ["scavenge"]},
                pile=["outbreak_2", "scavenge", "natural_2", "natural_3", "natural_4", "cosmic_3"], to_move=0)
    g.apply(index_of(g, "play scavenge"))
    # seat 0 draws outbreak_2; seat 1 draws the other scavenge: seats 1, 2, 0 draw from it;
    # then the first scavenge's last draw, seat 2's
    assert g.hand(0) == ["outbreak_2", "natural_4"] and g.hand(1) == ["natural_2"]
    assert g.hand(2) == ["natural_3", "cosmic_3"] and g.to_move == 1


def test_an_ending_drawn_by_a_scavenge_is_marked():
    """The rulebook: a player may play an ending from his hand "but not if they draw it
    they must play it the next time it is their turn"; a scavenge draws."""
    g = arrange(new(3), hands={0: ["scavenge"], 1: ["natural_2", "cosmic_3"], 2: ["personal_1"]},
                pile=["outbreak_2", "the_end", "natural_3"], to_move=0)
    g.apply(index_of(g, "play scavenge"))
    assert g.to_move == 1 and g.legal_actions() == ["play the_end"]



def test_an_ending_drawn_by_a_scavenge_that_makes_a_hoard_ends_the_round_at_once():
    """The docs: a hand holding 5 endings "ends the round at once" (the rulebook: "the
    round immediately ends"), a scavenge's draw included: the scavenge's later draws are
    not made, and the drawer, a lone hoarder, picks first (found by the differential test,
    seed 69, game 1, 4 greedy players with hoards of 3: the kernel had made every draw
    first)."""
    g = arrange(new(3), hands={0: ["scavenge"], 1: ENDINGS[:4], 2: ["personal_1"]},
                pile=["outbreak_2", "rescue", "natural_3"], to_move=0)
    turns = int(g.state[K.S_ROUND_TURNS])
    g.apply(index_of(g, "play scavenge"))
    assert g.phase == "pick" and int(g.state[K.S_HOARDS]) == 1 and g.to_move == 1
    assert int(g.state[K.S_N_SHOWN]) == 5 and g.hand(1) == []
    assert g.hand(0) == ["outbreak_2"] and g.hand(2) == ["personal_1"]  # seat 2 never drew
    top = g.state[K.S_PILE + g.state[K.S_N_PILE] - 1]
    assert card_name_of(g, top) == "natural_3" and int(g.state[K.S_SCAV_N]) == 0  # still on the pile
    assert int(g.state[K.S_ROUND_TURNS]) == turns

def test_events_go_to_the_players_own_timeline_and_common_cards_to_the_common_area():
    g = arrange(new(2), hands={0: ["outbreak_8", "good_plus_10"], 1: ["cosmic_x2"]}, to_move=0)
    g.apply(index_of(g, "play outbreak_8"))
    g.apply(index_of(g, "play cosmic_x2"))
    g.apply(index_of(g, "play good_plus_10"))
    assert g.timeline(0) == ["outbreak_8"] and g.timeline(1) == [] and g.common() == ["cosmic_x2", "good_plus_10"]


def test_draw_again_variant_gives_the_drawer_another_action():
    for again, nxt in ((False, 1), (True, 0)):
        rules = RULES.override({"constants.variants.draw_again_after_instant": again})
        g = arrange(new(2, ruleset=rules), hands={0: ["personal_1"], 1: ["natural_2"]}, pile=["clear_good_things"],
                    to_move=0)
        g.apply(index_of(g, "draw"))
        assert g.to_move == nxt


def test_draw_again_variant_holds_through_a_snipe_drawn_by_the_drawn_scavenge():
    """The drawer's instantaneous was drawn (not played): when its scavenge pauses for a
    snipe drawn by another seat, the drawer still acts again once it is resolved (the
    variant on), or the turn passes on (off)."""
    for again, nxt in ((False, 1), (True, 0)):
        rules = RULES.override({"constants.variants.draw_again_after_instant": again})
        g = arrange(new(3, ruleset=rules), hands={0: ["personal_1"]},
                    timelines={0: ["outbreak_8"], 2: ["cosmic_10"]},
                    pile=["scavenge", "outbreak_2", "snipe", "natural_3"], to_move=0)
        g.apply(index_of(g, "draw"))
        assert g.phase == "snipe" and g.to_move == 1     # seat 1 drew the snipe
        g.apply(index_of(g, "snipe seat 2's cosmic_10"))
        assert g.hand(2) == ["natural_3"] and g.phase == "turn" and g.to_move == nxt


def test_passes_round_the_table_end_the_round_exhausted():
    g = arrange(new(2), hands={}, rest="discard", to_move=0)
    g.state[K.S_N_DISCARD] = 0  # cards nowhere: nothing to draw, nothing to play
    assert g.legal_actions() == ["pass"]
    g.apply(0)
    assert g.legal_actions() == ["pass"]
    g.apply(0)
    assert int(g.state[K.S_ENDS_EXHAUSTED]) == 1 and int(g.state[K.S_ROUND]) == 2


def test_turn_cap_ends_a_round_and_round_cap_ends_the_game():
    rules = RULES.override({"constants.turn_cap": 3, "constants.round_cap": 2})
    g = new(2, ruleset=rules, seats=["random", "random"])
    r = g.play().result
    assert r["rounds"] <= 2 and (r["end_cause"] == "round_cap" or max(r["total_0"], r["total_1"]) >= 100)
    assert r["ends_cap"] + r["ends_ending"] + r["ends_hoard"] + r["ends_exhausted"] == r["rounds"]


# --------------------------------------------------------------------------- ruleset
def test_ruleset_reference_deck_matches_the_spec():
    assert RULES.n_cards == 54
    assert RULES.kind_counts() == {"event": 26, "good": 6, "escalation": 6, "instant": 9, "ending": 7}
    pts = sum(parse_effect(RULES.get(f"cards.{n}.effect"), RULES.colours, RULES.get("constants.disasters"))["value"]
              * RULES.get(f"cards.{n}.count") for n in RULES.card_names
              if RULES.get(f"cards.{n}.effect").startswith("points"))
    assert pts == 114
    for key in RULES.keys():
        assert RULES.source(key) in ("rulebook", "inferred", "publisher", "assumed")


@pytest.mark.parametrize("override, words", [
    ({"cards.the_end.effect": "end(explode)"}, ["cards.the_end.effect", "allowed"]),
    ({"cards.snipe.effect": "remove_one(random)"}, ["cards.snipe.effect", "chosen"]),
    ({"cards.outbreak_2.effect": "points(purple, 2)"}, ["cards.outbreak_2.effect", "outbreak"]),
    ({"constants.disasters": ["ice"]}, ["constants.disasters", "ice"]),
    ({"constants.min_players": 18}, ["constants.min_players", "max_players 17"]),
    ({"constants.max_players": 43}, ["constants.max_players", "42"]),
    ({"cards.outbreak_2.count": 200}, ["cards.outbreak_2.count"]),
    # 4 endings, one picker each, cannot go round a table of 5 (the kernel would wait for a
    # pick nobody can make)
    ({"constants.hoard_size": 4}, ["constants.hoard_size", "table of 5", "max_players below 5"]),
    ({"constants.hoard_size": 2, "constants.hoard_share": 3}, ["constants.hoard_size", "table of 3"]),
])
def test_ruleset_errors_name_file_key_and_allowed_values(override, words):
    with pytest.raises(RulesetError) as exc:
        RULES.override(override)
    for w in words:
        assert w in str(exc.value)


def test_every_table_the_ruleset_allows_can_finish_a_hoard():
    """hoard_size endings shown, each taken by ceil(players / hoard_share) players: every
    player of every allowed table gets one (so a hoard always ends) -- the tweaks the check
    lets through play to the end with hoards at every table size."""
    from simlib.games.until_the_world_ends.step import Game

    for over in ({"constants.hoard_size": 2, "constants.max_players": 2},
                 {"constants.hoard_size": 2, "constants.hoard_share": 2},
                 {"constants.hoard_size": 1, "constants.hoard_share": 1, "constants.max_players": 6}):
        r = RULES.override(over)
        hoards = 0
        for p in range(r.min_players(), r.max_players() + 1):
            for gi in range(4):
                g = Game(5, gi, players=p, ruleset=r, seats=["random"] * p)
                while not g.over:
                    assert g.legal_actions(), (over, p, gi)
                    g.apply(g.policy_choice())
                hoards += g.record()["ends_hoard"]
        assert hoards > 0, over


def test_combined_decks(tmp_path):
    from simlib.games.until_the_world_ends.ruleset import combine
    f = tmp_path / "zombies.toml"
    f.write_text('[the_end]\neffect = "end(none)"\ncount = 2\n[horde]\neffect = "points(outbreak, 9)"\ncount = 3\n')
    r = combine(RULES, f)
    assert r.n_cards == 59 and r.get("cards.the_end.count") == 5 and "horde" in r.card_names
    df = play_games(20, seats=["greedy", "random"], seed=1, ruleset=r)
    assert len(df) == 20


# --------------------------------------------------------------------------- invariants
def test_invariants_random_play_cards_conserved_scores_consistent():
    for gi in range(21):
        n = 2 + gi % 7
        g = new(n, seed=9, game=gi, seats=["random"] * n)
        rounds = 1
        totals = [0] * n
        while not g.over:
            assert sorted(all_cards(g)) == list(range(54)) and g.violation() == "none"
            rules_limit = RULES.get("constants.hand_limit")
            if g.phase == "turn" and "draw" in g.legal_actions():
                assert len(g.hand(g.to_move)) < rules_limit
            g.apply(g.policy_choice())
            if int(g.state[K.S_ROUND]) != rounds and not g.over:
                rounds = int(g.state[K.S_ROUND])
                sc = [int(g.state[K.S_S_ROUND_SCORE + s * K.SEAT_W]) for s in range(n)]
                totals = [t + s for t, s in zip(totals, sc)]
                assert totals == g.totals()
        r = g.result
        assert r["rounds"] == r["ends_ending"] + r["ends_hoard"] + r["ends_exhausted"] + r["ends_cap"]
        assert max(g.totals()) == r["top_total"] and r["winners"] == sum(r[f"win_{s}"] for s in range(n))


def test_step_api_equals_the_batch_and_clones_replay_identically():
    seats = ["greedy", "random", "greedy:end_margin=12"]
    df = play_games(6, seats=seats, seed=21)
    for gi in range(6):
        g = Game(seed=21, game=gi, players=3, seats=seats)
        c = g.clone()
        while not g.over:
            i = g.policy_choice()
            g.apply(i)
            c.apply(i)
        assert g.result["total_0"] == df.total_0[gi] and g.result["decisions"] == df.decisions[gi]
        assert g.result == c.result
        assert Game(seed=21, game=gi, players=3, seats=seats).play().result == g.result
        row, rec = df.iloc[gi].to_dict(), g.record()
        assert set(row) == set(rec)
        assert all(pd.isna(v) and pd.isna(rec[k]) or v == rec[k] for k, v in row.items())


def test_describe_and_words():
    g = new(3)
    text = g.describe()
    assert "round 1" in text and "Seat 1 chooses:" in text
    assert all(isinstance(a, str) for a in g.legal_actions())
    with pytest.raises(ValueError):
        g.apply(99)


def test_rules_table_names_existing_tests():
    import re
    from pathlib import Path

    here = Path(__file__).parent
    table = (here / "RULES_until_the_world_ends.md").read_text()
    named = re.findall(r"\b(test_until_the_world_ends\w*\.py)::(test_\w+)", table)
    assert len(named) > 40
    for fname, name in named:
        src = (here / fname).read_text()
        assert re.search(rf"^def {name}\(", src, re.M), f"{fname}::{name} does not exist"


@pytest.mark.parametrize("colour", ["outbreak", "cosmic"])
def test_points_by_colour_go_to_their_own_colour(colour):
    """The record's points by colour (``pts_<colour>``: the base values of the events
    scored): with only one colour's events in the deck, every point is that colour's and
    the others stay 0 (a column counted one bit off would move them)."""
    from simlib.games.until_the_world_ends.api import play_games
    from simlib.games.until_the_world_ends.ruleset import load_ruleset

    base = load_ruleset()
    other = {f"cards.{n}.count": 0 for n in base.card_names
             if base.get(f"cards.{n}.effect").startswith("points(")
             and not base.get(f"cards.{n}.effect").startswith(f"points({colour},")}
    rules = base.override({**other, f"cards.{colour}_3.count": 6})
    df = play_games(40, players=2, ruleset=rules, seed=3)
    assert df[f"pts_{colour}"].sum() > 0
    for c in base.colours:
        if c != colour:
            assert (df[f"pts_{c}"] == 0).all(), c


def test_the_kernels_own_apply_refuses_an_illegal_code_and_changes_nothing():
    """``OP_APPLY`` (``apply_action_nb``'s own check) returns 1 for a legal code and 0 for
    one that is not legal now, the state then unchanged (the step API checks in Python
    first, so only this test reads the kernel's own refusal)."""
    from simlib.games.until_the_world_ends.kernels import play_nb as PL

    refused = 0
    for game in range(3):
        g = Game(2, game, players=4, policy="random")
        for _ in range(30):
            if g.over:
                break
            codes = g.legal_codes()
            bad = [c for c in (max(codes) + 1, min(codes) - 1 if min(codes) > 0 else max(codes) + 2)
                   if c not in codes]
            for code in bad:
                c = g.clone()
                assert c._eng.call(PL.OP_APPLY, a=code) == 0
                assert np.array_equal(c.state, g.state)
                refused += 1
            ok = g.clone()
            assert ok._eng.call(PL.OP_APPLY, a=codes[0]) == 1
            g.apply(int(np.random.default_rng(game).integers(len(codes))))
    assert refused > 50
