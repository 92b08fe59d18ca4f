"""The `distilled` player of Until the World Ends (issue 43): the kernel's features and
choices against a pure-Python recomputation, choices that do not move when hidden cards
do, teacher games that are the rollout player's games, its weights file and its refusal
on another ruleset, training reproducible from its seed (and through `simlib train-policy
--game until-the-world-ends`), and the player beating random and greedy players on fixed
games."""
from __future__ import annotations

import numpy as np
import pytest

from simlib.games.until_the_world_ends import codes as K
from simlib.games.until_the_world_ends import distil as D
from simlib.games.until_the_world_ends import policies as PP
from simlib.games.until_the_world_ends.api import play_games
from simlib.games.until_the_world_ends.kernels import policies_nb as P
from simlib.games.until_the_world_ends.ruleset import load_ruleset
from simlib.games.until_the_world_ends.step import Game

REF = load_ruleset()
OTHER = REF.override({"constants.target": 150})  # another ruleset: another fingerprint
SW = K.SEAT_W


# --------------------------------------------------------------------------- the oracle
def _card(g, c, col):
    return int(g.rules.flat()[K.R_CARDS + c * K.CC_N + col])


def _margin(g, me, ending=None):
    sc = [g.score(p, ending) for p in range(g.players)]
    return sc[me] - max(sc[p] for p in range(g.players) if p != me)


def _finals(g, ending):
    tot = g.totals()
    return [tot[p] + g.score(p, ending) for p in range(g.players)]


def _standing(g, me, ending):
    f = _finals(g, ending)
    return f[me] - max(f[p] for p in range(g.players) if p != me)


def _ends_game(g, me, ending):
    f = _finals(g, ending)
    return max(f) >= g.rules.get("constants.target"), f[me] == max(f)


def _wins_outright(g, me, ending):
    f = _finals(g, ending)
    return f[me] >= g.rules.get("constants.target") and all(
        f[p] < f[me] for p in range(g.players) if p != me)


def _hand(g, s):
    st = g.state
    return [int(c) for c in st[K.S_HAND + s * SW:K.S_HAND + s * SW + st[K.S_S_HAND_N + s * SW]]]


def _p_ending(g, me, holders):
    """The hypergeometric chance from the docstring of ``policies_nb.p_ending_nb``."""
    st, n = g.state, g.players
    deck = int(g.rules.flat()[K.R_PARAMS + K.P_N_CARDS])
    is_end = [_card(g, c, K.CC_KIND) == K.KIND_ENDING for c in range(deck)]
    discard = [int(c) for c in st[K.S_DISCARD:K.S_DISCARD + st[K.S_N_DISCARD]]]
    seen = len(discard) + int(st[K.S_N_COMMON]) + len(_hand(g, me)) + \
        sum(int(st[K.S_S_TL_N + p * SW]) for p in range(n))
    unseen = deck - seen
    ends = sum(is_end) - sum(is_end[c] for c in discard) - sum(is_end[c] for c in _hand(g, me))
    h = sum(len(_hand(g, p)) for p in holders)
    none = 1.0
    for j in range(h):
        if unseen - j <= 0:
            break
        none *= max(0.0, (unseen - ends - j) / (unseen - j))
    return 1.0 - none


def _after(g, fn):
    """The margin of the seat to move after ``fn`` changes a copy's state."""
    c = g.clone()
    fn(c.state)
    return _margin(c, g.to_move)


def _play_gain(g, me, slot):
    """Greedy's gain of playing a hand slot, rule by rule on a copy (the effect words)."""
    c = _hand(g, me)[slot]
    kind, fx, arg = (_card(g, c, k) for k in (K.CC_KIND, K.CC_EFFECT, K.CC_ARG))
    now = _margin(g, me)
    n = g.players

    def tl(st, s):
        return [int(x) for x in st[K.S_TL + s * SW:K.S_TL + s * SW + st[K.S_S_TL_N + s * SW]]]

    def set_tl(st, s, cards):
        st[K.S_S_TL_N + s * SW] = len(cards)
        st[K.S_TL + s * SW:K.S_TL + s * SW + len(cards)] = cards

    if kind == K.KIND_EVENT:
        return _after(g, lambda st: set_tl(st, me, tl(st, me) + [c])) - now
    if kind in (K.KIND_GOOD, K.KIND_ESCALATION):
        def common(st):
            st[K.S_COMMON + st[K.S_N_COMMON]] = c
            st[K.S_N_COMMON] += 1
        return _after(g, common) - now
    if fx == K.FX_DRAW_EACH:
        return 0
    if fx == K.FX_DISCARD_LAST:
        def wipe(st):
            for s in range(n):
                if arg == K.SC_ALL or (arg == K.SC_OTHERS and s != me) or (arg == K.SC_SELF and s == me):
                    set_tl(st, s, tl(st, s)[:-1])
        return _after(g, wipe) - now
    if fx == K.FX_PASS_LAST:
        def shift(st):
            lasts = {s: tl(st, s)[-1] for s in range(n) if tl(st, s)}
            for s in lasts:
                set_tl(st, s, tl(st, s)[:-1])
            step = 1 if arg == K.DIR_LEFT else n - 1
            for s, x in lasts.items():
                set_tl(st, (s + step) % n, tl(st, (s + step) % n) + [x])
        return _after(g, shift) - now
    if fx == K.FX_CLEAR:
        def clear(st):
            keep = [int(x) for x in st[K.S_COMMON:K.S_COMMON + st[K.S_N_COMMON]]
                    if not (arg == K.CL_ALL or (arg == K.CL_GOOD and _card(g, x, K.CC_KIND) == K.KIND_GOOD)
                            or (arg == K.CL_ESCALATION and _card(g, x, K.CC_KIND) == K.KIND_ESCALATION))]
            st[K.S_N_COMMON] = len(keep)
            st[K.S_COMMON:K.S_COMMON + len(keep)] = keep
        return _after(g, clear) - now
    # a snipe: the round leader among the others with a timeline card, its most valuable
    st = g.state
    cands = [p for p in range(n) if p != me and st[K.S_S_TL_N + p * SW] > 0]
    if not cands:
        return 0
    lead = max(cands, key=lambda p: (g.score(p), -p))
    cards = tl(st, lead)

    def worth(x):
        m = 1
        for y in st[K.S_COMMON:K.S_COMMON + st[K.S_N_COMMON]]:
            if _card(g, int(y), K.CC_KIND) == K.KIND_ESCALATION and \
                    _card(g, int(y), K.CC_MASK) & _card(g, x, K.CC_MASK):
                m *= _card(g, int(y), K.CC_VALUE)
        return _card(g, x, K.CC_VALUE) * m
    pos = max(range(len(cards)), key=lambda i: (worth(cards[i]), -i))
    return _after(g, lambda s2: set_tl(s2, lead, cards[:pos] + cards[pos + 1:])) - now


def oracle_turn(g, a, greedy_code) -> np.ndarray:
    st, me, n = g.state, g.to_move, g.players
    f = dict.fromkeys(P.TURN_FEATURES, 0.0)
    f["greedy"] = 1.0 if a == greedy_code else 0.0
    m0 = _margin(g, me)
    hand = _hand(g, me)
    late = int(st[K.S_ROUND_TURNS]) / g.rules.get("constants.turn_cap")
    p_other = _p_ending(g, me, [p for p in range(n) if p != me])
    if a == K.A_DRAW:
        f.update(draw=1.0, draw_hand=len(hand) / g.rules.get("constants.hand_limit"),
                 draw_pile=int(st[K.S_N_PILE]) / len(g.cards()), draw_margin=m0 / 10,
                 draw_endings=sum(_card(g, c, K.CC_KIND) == K.KIND_ENDING for c in hand),
                 draw_players=n / 10, draw_late=late)
        if K.A_PLAY <= greedy_code < K.A_PICK and \
                _card(g, hand[greedy_code - K.A_PLAY], K.CC_KIND) != K.KIND_ENDING:
            f["draw_forgone"] = _play_gain(g, me, greedy_code - K.A_PLAY) / 10
            f["draw_forgone_players"] = f["draw_forgone"] * n / 10
        return np.array([f[k] for k in P.TURN_FEATURES])
    slot = a - K.A_PLAY
    c = hand[slot]
    kind = _card(g, c, K.CC_KIND)
    if kind != K.KIND_ENDING:
        gain = _play_gain(g, me, slot) / 10
        f.update(play=1.0, play_gain=gain, play_gains=float(gain > 0),
                 play_event=float(kind == K.KIND_EVENT), play_good=float(kind == K.KIND_GOOD),
                 play_escalation=float(kind == K.KIND_ESCALATION))
        if kind == K.KIND_INSTANT:
            f.update(play_instant=1.0, play_instant_gain=gain)
        return np.array([f[k] for k in P.TURN_FEATURES])
    m = _margin(g, me, c)
    reached, among = _ends_game(g, me, c)
    f.update(end=1.0, end_margin=m / 10, end_lead=float(m >= 5),
             end_wins=float(_wins_outright(g, me, c)), end_loses_game=float(reached and not among),
             end_ties_game=float(reached and among), end_standing=_standing(g, me, c) / 10,
             end_challenge=p_other, end_challenge_margin=p_other * m / 10, end_late=late,
             end_players=n / 10, end_margin_now=m0 / 10)
    return np.array([f[k] for k in P.TURN_FEATURES])


def oracle_challenge(g, a, greedy_code) -> np.ndarray:
    st, me, n = g.state, g.to_move, g.players
    f = dict.fromkeys(P.CHALLENGE_FEATURES, 0.0)
    f["greedy"] = 1.0 if a == greedy_code else 0.0
    if a == K.A_CHALLENGE:
        e = int(st[K.S_END_CARD])
        reached, among = _ends_game(g, me, e)
        ender, ask = int(st[K.S_ENDER]), int(st[K.S_ASK])
        later = [(ender + k) % n for k in range(ask + 1, n) if (ender + k) % n != me]
        f.update(challenge=1.0, challenge_margin=_margin(g, me, e) / 10,
                 challenge_loses_game=float(reached and not among),
                 challenge_ties_game=float(reached and among),
                 challenge_margin_now=_margin(g, me) / 10,
                 challenge_standing=_standing(g, me, e) / 10,
                 challenge_endings=sum(_card(g, c, K.CC_KIND) == K.KIND_ENDING for c in _hand(g, me)),
                 challenge_late=int(st[K.S_ROUND_TURNS]) / g.rules.get("constants.turn_cap"),
                 challenge_players=n / 10, challenge_others=_p_ending(g, me, later))
    return np.array([f[k] for k in P.CHALLENGE_FEATURES])


def oracle_choice(g, vec, greedy_index):
    """The distilled choice (an index of the legal actions) from the oracle's features and
    the policy's documented rule."""
    codes = g.legal_codes()
    if len(codes) == 1 or g.phase not in ("turn", "challenge"):
        return greedy_index
    gc = codes[greedy_index]
    bonus = vec[P.DP_BONUS + min(max(g.players, 2), 6) - 2]
    if g.phase == "challenge":
        w = vec[P.DP_W_CHALLENGE:]
        sc = [float(w @ oracle_challenge(g, a, gc)) + (bonus if a == gc else 0.0) for a in codes]
        return 0 if sc[0] > sc[1] else 1
    w = vec[P.DP_W_TURN:P.DP_W_CHALLENGE]
    sc = [float(w @ oracle_turn(g, a, gc)) + (bonus if a == gc else 0.0) for a in codes]
    return int(np.argmax(sc))


def _vec(seed=None):
    vec = np.asarray(PP.POLICIES["distilled"].defaults, dtype=np.float64).copy()
    if seed is not None:
        rng = np.random.default_rng(seed)
        w = vec[P.DP_W_TURN:]
        vec[P.DP_W_TURN:] = rng.normal(0, 1, len(w)) * (np.abs(w) + 1e-3)
        vec[P.DP_BONUS:P.DP_W_TURN] = rng.uniform(0, 0.01, P.DP_W_TURN - P.DP_BONUS)
    return vec


def test_the_kernels_features_and_choices_are_the_pure_python_ones():
    """At every turn and challenge with a choice of distilled seats in a few step games
    (the shipped weights, then random weights), the kernel's features are the oracle's and
    its choice is the oracle's."""
    from simlib.games.until_the_world_ends.kernels.policies_nb import (
        challenge_features_nb, context_nb, turn_features_nb)

    cx = np.zeros(P.N_CX)
    x = np.zeros(64)
    seen = {"turn": 0, "challenge": 0}
    for game, vec, players in ((0, _vec(), 3), (1, _vec(), 5), (2, _vec(1), 4), (3, _vec(2), 2)):
        seat = ("distilled", tuple(vec))
        g = Game(5, game, seats=[seat] + ["greedy"] * (players - 2) + [seat])
        while not g.over and g.state[K.S_ROUND] <= 3:
            s, codes = g.to_move, g.legal_codes()
            pick = g.policy_choice()
            if s in (0, players - 1) and len(codes) > 1 and g.phase in ("turn", "challenge"):
                gi = g.policy_choice("greedy")
                eng = g._eng
                flat = g.rules.flat()
                context_nb(g.state, flat, np.int64(s), cx)
                for a in codes:
                    if g.phase == "turn":
                        turn_features_nb(g.state, flat, np.int64(s), np.int64(a),
                                         np.int64(codes[gi]), cx, eng.work, eng.slog, x)
                        want = oracle_turn(g, a, codes[gi])
                    else:
                        challenge_features_nb(g.state, flat, np.int64(s), np.int64(a),
                                              np.int64(codes[gi]), cx, x)
                        want = oracle_challenge(g, a, codes[gi])
                    assert np.allclose(x[:len(want)], want, rtol=1e-12, atol=1e-12), \
                        (game, g.phase, g.action_words(a), x[:len(want)] - want)
                assert pick == oracle_choice(g, vec, gi), (game, s)
                seen[g.phase] += 1
            g.apply(pick)
    assert seen["turn"] > 60 and seen["challenge"] > 0, seen


def test_its_choices_do_not_move_when_the_hidden_cards_do():
    """At the distilled seat's decisions of a few games, the cards it cannot see (the
    others' hands and the draw pile) are shuffled among themselves, sizes kept: its choice
    is the same (and greedy's, the feature it weighs, too)."""
    rng = np.random.default_rng(3)
    checked = 0
    for game in range(4):
        g = Game(8, game, seats=["distilled", "greedy", "greedy"])
        while not g.over and checked < 400:
            if g.to_move == 0 and len(g.legal_codes()) > 1:
                want = g.policy_choice()
                c = g.clone()
                st, n = c.state, c.players
                where = [K.S_PILE + i for i in range(int(st[K.S_N_PILE]))]
                for p in range(1, n):
                    where += [K.S_HAND + p * SW + i for i in range(int(st[K.S_S_HAND_N + p * SW]))]
                    st[K.S_MARKED + p * SW:K.S_MARKED + p * SW + K.MAX_HAND] = 0
                st[where] = rng.permutation(st[where])
                assert c.policy_choice() == want
                checked += 1
            g.apply(g.policy_choice())
    assert checked > 100


def test_a_mixed_table_plays_the_same_games_in_the_step_api_and_the_study():
    """A study table mixing distilled, greedy and random seats (the distilled player's
    longer parameter vector widens every seat's): each game decision by decision in the
    step API is the study's, record for record."""
    import simlib
    from simlib.games.until_the_world_ends.study import make_adapter

    table = ["distilled", "greedy:end_margin=8", "random", "greedy"]
    res = simlib.simulate(8, game="until_the_world_ends", seats=table, seed=9, progress=False)
    rows = res.records.to_dict("records")
    ad = make_adapter(seats=table, seed=9)
    keys = ["rounds", "turns"] + [f"total_{s}" for s in range(4)]
    for i in range(8):
        rec = ad.step_game(i).play().record()
        assert {k: rec[k] for k in keys} == {k: rows[i][k] for k in keys}, i


def test_a_teacher_game_is_the_rollout_players_game():
    """The teacher kernel chooses from the values it writes down by the rollout player's
    rule: the labelled seat plays the game a rollout seat plays."""
    from simlib.games.until_the_world_ends.api import run_kernel, seat_arrays
    from simlib.games.until_the_world_ends.kernels.distil_nb import N_D, teacher_game_nb

    flat = REF.flat()
    t = PP.Seat.make("rollout", {"rollouts": 3})
    for game, seat in ((0, 1), (1, 0)):
        seats = [PP.Seat.make("greedy")] * 2
        seats[seat] = t
        pol, par = seat_arrays(seats, 1)
        want = run_kernel(REF, 4, game, np.array([2]), pol, par, threads=1)[0]
        rec = np.zeros_like(want)
        mask = np.zeros(2, dtype=np.int64)
        mask[seat] = 1
        nr, nd = teacher_game_nb(flat, np.int64(4), np.int64(game), np.int64(2), pol[0], par[0],
                                 mask, np.asarray(t.vector()), D.feature_vector(),
                                 np.zeros((4000, P.N_TURN)), np.zeros((4000, P.N_CHALLENGE)),
                                 np.zeros(4000), np.zeros((1000, N_D), dtype=np.int64), rec)
        assert nd > 10 and nr > 2 * nd
        assert np.array_equal(rec, want)


# --------------------------------------------------------------------------- the weights' file
def _fake_result(fp: str) -> D.DistilResult:
    params = {n: (i - 9) / 7 for i, n in enumerate(PP.DISTILLED_PARAMS)}
    params["any_ruleset"] = 0.0
    return D.DistilResult(params, {"teacher": "rollout", "ruleset_fingerprint": fp, "seed": 3},
                          {"train_games": 2, "agree_turn": 0.5}, {"games": 1})


def test_the_weights_file_round_trips(tmp_path):
    res = _fake_result(REF.fingerprint())
    path = D.write_distilled(res, tmp_path / "w.toml",
                             command="simlib train-policy --game until-the-world-ends")
    back = PP.read_distilled(path)
    assert back["params"] == res.params
    assert back["provenance"]["ruleset_fingerprint"] == REF.fingerprint()
    assert back["provenance"]["command"] == "simlib train-policy --game until-the-world-ends"
    assert back["provenance"]["teacher"] == "rollout"
    assert back["training"]["agree_turn"] == 0.5 and back["check"]["games"] == 1
    text = path.read_text()
    assert 'w_draw = { value = ' in text and 'source = "fit"' in text
    assert 'greedy_bonus_2 = { value = ' in text and 'source = "tuned"' in text


@pytest.mark.parametrize("text, why", [
    ("[params]\nw_draw = { value = 1 }\n", r"must hold exactly the \d+ names.*missing: "),
    ("not toml [", r"cannot read the distilled weights"),
])
def test_a_broken_weights_file_makes_the_name_an_error_that_says_why(tmp_path, monkeypatch, text, why):
    bad = tmp_path / "distilled.toml"
    bad.write_text(text)
    monkeypatch.setattr(PP.DISTILLED, "path", lambda: bad)
    try:
        PP._register_distilled()
        with pytest.raises(ValueError, match=r"distilled' is not available: .*distilled.toml.*" + why):
            PP.Seat.make("distilled")
        with pytest.raises(ValueError, match="distilled' is not available"):
            play_games(3, seats=["distilled", "greedy"])
    finally:
        monkeypatch.undo()
        PP._register_distilled()
    assert "distilled" in PP.POLICIES


def test_a_file_without_its_fingerprint_is_refused(tmp_path):
    path = D.write_distilled(_fake_result(""), tmp_path / "w.toml")
    with pytest.raises(ValueError, match=r"w.toml: \[provenance\] must give the ruleset_fingerprint"):
        PP.read_distilled(path)


def test_the_weights_are_refused_on_another_ruleset_unless_asked():
    """The shipped weights play on their ruleset, are refused on another (the message names
    the file, both fingerprints and the way out) in every entry point, and play there with
    ``any_ruleset=1``."""
    import simlib

    play_games(5, seats=["distilled", "greedy"], ruleset=REF)
    msg = (r"policies/distilled.toml\) were fitted on the ruleset of fingerprint "
           + REF.fingerprint()[:12] + r".*not this one \(" + OTHER.fingerprint()[:12]
           + r".*train-policy --game until-the-world-ends.*any_ruleset=1")
    with pytest.raises(ValueError, match=msg):
        play_games(5, seats=["distilled", "greedy"], ruleset=OTHER)
    with pytest.raises(ValueError, match=msg):
        simlib.simulate(10, game="until_the_world_ends", players=2, policy="distilled",
                        ruleset=OTHER, progress=False)
    with pytest.raises(ValueError, match=msg):
        Game(1, 0, seats=["distilled", "greedy"], ruleset=OTHER)
    with pytest.raises(ValueError, match=msg):
        Game(1, 0, seats=["greedy", "greedy"], ruleset=OTHER).policy_choice("distilled")
    assert len(play_games(5, seats=["distilled:any_ruleset=1", "greedy"], ruleset=OTHER)) == 5
    with pytest.raises(ValueError, match="any_ruleset must be 0 or 1"):
        PP.Seat.parse("distilled:any_ruleset=2")


# --------------------------------------------------------------------------- training
def test_training_is_reproducible_from_its_seed(tmp_path, capsys):
    """A tiny run twice (once through ``simlib train-policy --game until-the-world-ends``):
    the same weights; another seed, other weights.  Another game's options are refused, and
    a teacher that peeks."""
    from simlib.cli import main

    kw = dict(players=(2, 3), games=6, heldout=2, check_games=200, tune_games=60, threads=2)
    a = D.train_distilled(seed=4, **kw)
    out = tmp_path / "d.toml"
    assert main(["train-policy", "--game", "until-the-world-ends", "--players", "2,3",
                 "--games", "6", "--heldout", "2", "--check-games", "200", "--bonus-games",
                 "60", "--threads", "2", "--seed", "4", "--out", str(out), "--no-progress"]) == 0
    assert "held-out turns" in capsys.readouterr().out
    assert PP.read_distilled(out)["params"] == a.params
    c = D.train_distilled(seed=5, **kw)
    assert a.training["train_turns"] > 100 and a.training["train_challenges"] > 0
    assert a.params != c.params
    assert a.settings["ruleset_fingerprint"] == REF.fingerprint()
    assert a.settings["teacher"] == "rollout" and a.settings["games"] == 6
    assert main(["train-policy", "--game", "until-the-world-ends", "--horizon", "1", "--out",
                 str(tmp_path / "x.toml")]) == 2
    assert "--horizon is an option of until-daylight's distillation" in capsys.readouterr().err
    with pytest.raises(ValueError, match="teacher must be the rollout player"):
        D.train_distilled(teacher="clairvoyant", **kw)


def test_the_fit_recovers_a_known_score():
    """Values that are a linear score of the features plus noise, centred or not on their
    decision: the fit ranks each decision's actions as the score does."""
    rng = np.random.default_rng(0)
    k, n = 3000, 4
    which = np.repeat(np.arange(k), n)
    x = rng.normal(size=(k * n, 3))
    x[:, 2] = np.repeat(rng.normal(size=k), n)  # constant within each decision: no weight
    true = np.array([1.0, -0.5, 0.0])
    val = x @ true + np.repeat(rng.normal(size=k), n) + rng.normal(0, 0.3, k * n)
    w = D.fit_block(x, val, which, k, 1e-6)
    assert w[2] == 0.0
    best = (x @ w).reshape(k, n).argmax(axis=1)
    assert (best == (x @ true).reshape(k, n).argmax(axis=1)).mean() > 0.95


# --------------------------------------------------------------------------- strength
def test_the_distilled_player_beats_random_and_greedy_players_on_fixed_games():
    """Paired, in the focal seat (the games of ``simlib compare --game until-the-world-ends
    --policy X --policy distilled``), seed 11: against random players it wins far more than a
    random player; against greedy players at 5 and 6 players, where the shipped weights
    leave greedy's choice most, it wins more than greedy does."""
    import simlib

    res = simlib.compare(400, game="until_the_world_ends", policies=["random", "distilled"],
                         policy="random", players=[2, 3, 4], seed=11, progress=False)
    row = res.overall.iloc[0]
    assert row["rate_b"] > 0.8 and row["diff_low"] > 0.4, row
    res = simlib.compare(4000, game="until_the_world_ends", policies=["greedy", "distilled"],
                         players=[5, 6], seed=11, progress=False)
    row = res.overall.iloc[0]
    assert row["diff"] > 0.01, row
