"""The `distilled` player of Till Dawn (issue 43): its weights file, its refusal on another
ruleset, the kernel's scores against a pure-Python recomputation of its features, training
reproducible from its seed (and through `simlib train-policy --game till-dawn`), and the
player beating the threshold player on fixed games."""
from __future__ import annotations

import numpy as np
import pytest

from simlib.games.till_dawn import codes as K
from simlib.games.till_dawn import distil as D
from simlib.games.till_dawn import policies as PP
from simlib.games.till_dawn.api import play_games
from simlib.games.till_dawn.kernels import policies_nb as P
from simlib.games.till_dawn.ruleset import load_ruleset
from simlib.games.till_dawn.step import Game

REF = load_ruleset()
OTHER = REF.override({"constants.refuse_cost": 2})  # another ruleset: another fingerprint


# --------------------------------------------------------------------------- the oracle
def _outlook(g: Game, s: int):
    """``policies_nb.outlook_nb`` from its docstring, on the ruleset's card list."""
    rules, st = g.rules, g.state
    L = rules.get("constants.track_length")
    d = L - int(st[K.S_TRACK])
    h, fav = g.seat(s, "health"), g.seat(s, "ground")
    active = sum(g.seat(i, "active") for i in range(len(g.seats)))
    q = 1 / active if active else 1.0
    tot = feed = lose = pace = hurt = inv = 0.0
    for t, ct in enumerate(rules.card_types()):
        n = int(st[K.S_TYPE_LEFT + t])
        kind, v = K.KINDS[ct["kind"]], ct["value"]
        tot += n
        if kind == "feeding":
            feed += n * (v + (rules.get("constants.favourite_bonus") if ct["ground"] == fav else 0))
        elif kind == "sun_rising":
            pace += n * v
            lose += n * (v >= d)
        elif kind == "night_lingers":
            pace -= n * v
        elif kind == "vampire_slayer":
            hurt += n * v
            lose += n * (v >= h)
        elif kind == "werewolf":
            hurt += n * v * q
            lose += n * q * (v >= h)
        else:
            inv += n
    tot = tot or 1.0
    pace /= tot
    draws = d / pace if pace > 0 and d / pace < P.FUTURE_CAP else P.FUTURE_CAP
    return feed / tot, lose / tot, pace, hurt / tot, inv / tot, draws, q, d


def oracle_decide(g: Game, s: int) -> dict:
    feed, lose, pace, hurt, inv, draws, q, d = _outlook(g, s)
    b, h = g.seat(s, "blood"), g.seat(s, "health")
    return {"bias": 1.0, "blood": b, "feed": feed, "risk": b * lose, "health": h,
            "track_left": d, "sun_pace": b * pace / max(d, 1), "future": feed * draws,
            "hurt_pace": b * hurt / max(h, 1), "invite": inv, "one_active": q}


def oracle_vote(g: Game, s: int, option: int) -> dict:
    f = dict.fromkeys(P.VOTE_FEATURES, 0.0)
    if option == 3:
        f["gain"], f["refuse"] = -g.rules.get("constants.refuse_cost"), 1.0
        return f
    cards = g.rules.card_types()
    inv = cards[int(g.state[K.S_CARD])]
    pay = inv["payoff_hunting"] if option == 2 else inv["payoff"]
    left = [int(g.state[K.S_TYPE_LEFT + t]) for t in range(len(cards))]
    tot = sum(left)
    p = sum(n for n, ct in zip(left, cards) if ct["moon"] == option) / tot if tot else 0.0
    feed, lose, _pace, _hurt, _inv, draws, _q, d = _outlook(g, s)
    b, h, pen = g.seat(s, "blood"), g.seat(s, "health"), inv["penalty"]
    f["gain"], f["injury"] = p * pay, (1 - p) * pen
    f["death"] = (1 - p) * b if pen >= h else 0.0
    f["injury_share"] = f["injury"] / max(h, 1)
    f["injury_night"] = f["injury"] * d / g.rules.get("constants.track_length")
    f["injury_future"] = f["injury_share"] * feed * draws
    f["injury_blood"] = f["injury_share"] * b
    f["gain_safe"] = f["gain"] * (1 - lose)
    f["gain_health"] = f["gain"] * h
    f["injury_last"] = f["injury"] if h == pen + 1 else 0.0
    f["injury_health"] = f["injury"] * h
    return f


def oracle_choice(g: Game, s: int, vec: np.ndarray) -> str:
    """The distilled choice from the oracle's features and the policy's documented rule."""
    legal = [K.ACTIONS[c] for c in g.legal_codes()]
    wd = dict(zip(P.DECIDE_FEATURES, vec[P.DP_W_DECIDE:P.DP_W_VOTE]))
    wv = dict(zip(P.VOTE_FEATURES, vec[P.DP_W_VOTE:]))
    if g.phase == "decide":
        if "retire" not in legal or g.seat(s, "blood") == 0:
            return "stay"
        score = sum(wd[k] * v for k, v in oracle_decide(g, s).items())
        return "stay" if score > 0 else "retire"
    scores = [sum(wv[k] * v for k, v in oracle_vote(g, s, o).items()) for o in range(4)]
    best = int(np.argmax(scores[:3]))
    if "refuse" in legal and scores[3] > scores[best]:
        return "refuse"
    return ("vote_blood", "vote_blue", "vote_hunting")[best]


def test_the_kernels_features_and_choices_are_the_pure_python_ones():
    """At every stop-or-stay decision (with blood to bank, no card to play) and every vote
    of distilled seats in a few step games (the shipped weights, then random weights), the
    kernel's features are the oracle's and its choice is the oracle's."""
    from simlib.games.till_dawn.kernels.policies_nb import decide_features_nb, vote_features_nb

    rng = np.random.default_rng(7)
    shipped = np.asarray(PP.POLICIES["distilled"].defaults)
    noisy = shipped.copy()
    noisy[1:] = rng.normal(0, 1, len(noisy) - 1) * np.abs(shipped[1:])
    buf = np.zeros(64)
    seen = {"decide": 0, "vote": 0}
    for game, vec in ((0, shipped), (1, shipped), (2, noisy), (3, noisy)):
        seat = ("distilled", tuple(vec))
        g = Game(5, game, seats=[seat, "threshold", seat, "optimal"])
        while not g.over:
            s = g.to_move
            pick = g.policy_choice()
            if s in (0, 2) and g.phase in ("decide", "vote") and len(g.legal_codes()) > 1 \
                    and not (g.phase == "decide" and "heal" in [K.ACTIONS[c] for c in g.legal_codes()]
                             and g.seat(s, "max_health") - g.seat(s, "health") >= 2):
                flat = g.rules.flat()
                if g.phase == "decide" and g.seat(s, "blood") > 0:
                    decide_features_nb(g.state, flat, np.int64(s), buf)
                    want = oracle_decide(g, s)
                    assert np.allclose(buf[:P.N_DECIDE], [want[k] for k in P.DECIDE_FEATURES],
                                       rtol=1e-12, atol=1e-12), (game, s)
                if g.phase == "vote":
                    for o in range(4):
                        vote_features_nb(g.state, flat, np.int64(s), np.int64(o), buf)
                        want = oracle_vote(g, s, o)
                        assert np.allclose(buf[:P.N_VOTE], [want[k] for k in P.VOTE_FEATURES],
                                           rtol=1e-12, atol=1e-12), (game, s, o)
                assert K.ACTIONS[g.legal_codes()[pick]] == oracle_choice(g, s, vec), (game, s)
                seen[g.phase] += 1
            g.apply(pick)
    assert seen["decide"] > 50 and seen["vote"] > 3, seen


def test_a_mixed_table_plays_the_same_games_in_the_step_api_and_the_study():
    """A study table mixing distilled, threshold and optimal seats (the distilled player's
    longer parameter vector widens every seat's): each game decision by decision in the
    step API is the study's, record for record (the goldens keep the tables without one)."""
    import simlib

    table = ["distilled", "threshold:t=8", "optimal", "threshold"]
    res = simlib.simulate(12, game="till_dawn", seats=table, seed=9, progress=False)
    rows = res.records.to_dict("records")
    from simlib.games.till_dawn.study import make_adapter

    ad = make_adapter(seats=table, seed=9)
    for i in range(12):
        g = ad.step_game(i).play()
        rec = g.record()
        assert {k: rec[k] for k in ("score_0", "score_1", "score_2", "score_3", "draws")} == \
            {k: rows[i][k] for k in ("score_0", "score_1", "score_2", "score_3", "draws")}, i


# --------------------------------------------------------------------------- the weights' file
def _fake_result(fp: str) -> D.DistilResult:
    params = {n: (i - 9) / 7 for i, n in enumerate(PP.DISTILLED_PARAMS)}
    params["any_ruleset"] = 0.0
    return D.DistilResult(params, {"teacher": "optimal", "ruleset_fingerprint": fp, "seed": 3},
                          {"train_games": 2, "agree_decide": 0.5}, {"games": 1})


def test_the_weights_file_round_trips(tmp_path):
    res = _fake_result(REF.fingerprint())
    path = D.write_distilled(res, tmp_path / "w.toml", command="simlib train-policy --game till-dawn")
    back = PP.read_distilled(path)
    assert back["params"] == res.params
    assert back["provenance"]["ruleset_fingerprint"] == REF.fingerprint()
    assert back["provenance"]["command"] == "simlib train-policy --game till-dawn"
    assert back["provenance"]["teacher"] == "optimal"
    assert back["training"]["agree_decide"] == 0.5 and back["check"]["games"] == 1
    assert 'source = "fit"' in path.read_text()


@pytest.mark.parametrize("text, why", [
    ("[params]\nw_bias = { value = 1 }\n", r"must hold exactly the 23 names.*missing: "),
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
            play_games(3, seats=["distilled", "threshold"])
    finally:
        monkeypatch.undo()
        PP._register_distilled()
    assert "distilled" in PP.POLICIES


def test_a_file_without_its_fingerprint_is_refused(tmp_path):
    res = _fake_result("")
    path = D.write_distilled(res, tmp_path / "w.toml")
    with pytest.raises(ValueError, match=r"w.toml: \[provenance\] must give the ruleset_fingerprint"):
        PP.read_distilled(path)


def test_the_weights_are_refused_on_another_ruleset_unless_asked():
    """The shipped weights play on their ruleset, are refused on another (the message names
    the file, both fingerprints and the way out) in every entry point, and play there with
    ``any_ruleset=1``."""
    import simlib

    play_games(5, seats=["distilled", "threshold"], ruleset=REF)
    msg = (r"policies/distilled.toml\) were fitted on the ruleset of fingerprint "
           + REF.fingerprint()[:12] + r".*not this one \(" + OTHER.fingerprint()[:12]
           + r".*train-policy --game till-dawn.*any_ruleset=1")
    with pytest.raises(ValueError, match=msg):
        play_games(5, seats=["distilled", "threshold"], ruleset=OTHER)
    with pytest.raises(ValueError, match=msg):
        simlib.simulate(12, game="till_dawn", players=3, policy="distilled", ruleset=OTHER,
                        progress=False)
    with pytest.raises(ValueError, match=msg):
        Game(1, 0, seats=["distilled", "threshold"], ruleset=OTHER)
    with pytest.raises(ValueError, match=msg):
        Game(1, 0, seats=["threshold", "threshold"], ruleset=OTHER).policy_choice("distilled")
    rec = play_games(5, seats=["distilled:any_ruleset=1", "threshold"], ruleset=OTHER)
    assert len(rec) == 5
    with pytest.raises(ValueError, match="any_ruleset must be 0 or 1"):
        PP.Seat.parse("distilled:any_ruleset=2")


# --------------------------------------------------------------------------- training
def test_training_is_reproducible_from_its_seed(tmp_path, capsys):
    """A tiny run twice (once through ``simlib train-policy --game till-dawn``): the same
    weights; another seed, other weights.  Another game's options are refused."""
    from simlib.cli import main

    kw = dict(players=(3, 5), games=24, heldout=6, check_games=300, threads=2)
    a = D.train_distilled(seed=4, **kw)
    out = tmp_path / "d.toml"
    assert main(["train-policy", "--game", "till-dawn", "--players", "3,5", "--games", "24",
                 "--heldout", "6", "--check-games", "300", "--threads", "2", "--seed", "4",
                 "--out", str(out), "--no-progress"]) == 0
    said = capsys.readouterr().out
    assert "held-out stop-or-stay" in said
    # Till Dawn's default player is the threshold player: it has no "baseline"
    assert "(threshold " in said and "baseline" not in said
    assert PP.read_distilled(out)["params"] == a.params
    c = D.train_distilled(seed=5, **kw)
    assert a.training["train_decisions"] > 100 and a.training["train_votes"] > 0
    assert a.params != c.params
    assert a.settings["ruleset_fingerprint"] == REF.fingerprint()
    assert a.settings["teacher"] == "optimal" and a.settings["games"] == 24
    assert main(["train-policy", "--game", "till-dawn", "--horizon", "1", "--out",
                 str(tmp_path / "x.toml")]) == 2
    assert "--horizon is an option of until-daylight's distillation" in capsys.readouterr().err
    with pytest.raises(ValueError, match="teacher must be the optimal player"):
        D.train_distilled(teacher="threshold", **kw)


def test_the_fits_recover_a_known_rule():
    """Stop or stay: a rule that stays up to 6 blood is learnt from gains that say so;
    the vote: the option of the highest linear value is learnt from values that say so."""
    rng = np.random.default_rng(0)
    x = np.column_stack([np.ones(400), rng.integers(1, 12, 400)])
    gain = 6.5 - x[:, 1] + rng.normal(0, 0.1, 400)
    w = D.fit_decide(x, gain, 1e-6)
    assert (D.decide_stays(x, w) == (x[:, 1] <= 6)).all()
    xv = rng.normal(size=(300, 4, 2))
    values = xv @ np.array([1.0, -2.0])
    values[::3, 3] = -np.inf  # refusing not legal
    wv = D.fit_vote(xv, values, 1e-6)
    assert (D.vote_choice(xv, values, wv) == D.best_option(values)).mean() > 0.95


# --------------------------------------------------------------------------- strength
def test_the_distilled_player_beats_the_threshold_player_on_fixed_games():
    """Paired, in the focal seat against threshold players (the games of ``simlib compare
    --game till-dawn --policy threshold --policy distilled``), seed 11, 3-8 players: the
    shipped weights win far more often (measured: about 95 % against 28 %)."""
    import simlib

    res = simlib.compare(1200, game="till_dawn", policies=["threshold", "distilled"], seed=11,
                         progress=False)
    row = res.overall.iloc[0]
    assert row["rate_b"] > 0.85 and row["diff_low"] > 0.5, row
