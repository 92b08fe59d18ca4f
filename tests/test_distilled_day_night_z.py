"""The `distilled` player of Day Night Z (issue 43): its weights file, its refusal on another
ruleset, the kernel's context and choices against a pure-Python recomputation, choices
that ignore what the players cannot see, training reproducible from its seed (and through
`simlib train-policy --game day-night-z`), and the player beating the baseline on fixed
games."""
from __future__ import annotations

import numpy as np
import pytest

from simlib.games.day_night_z import codes as K
from simlib.games.day_night_z import distil as D
from simlib.games.day_night_z import policies as PP
from simlib.games.day_night_z.kernels import play_nb as PL
from simlib.games.day_night_z.kernels import policies_nb as P
from simlib.games.day_night_z.play import play_games
from simlib.games.day_night_z.ruleset import load_rules
from simlib.games.day_night_z.step import Game

REF = load_rules()
OTHER = REF.override({"survivor.sp_start": 2})  # another ruleset: another fingerprint
_G = K.S_GLOBALS


# --------------------------------------------------------------------------- the oracle
def _su(g, s, f):
    return int(g.state[K.S_SURV + s * K.U_W + f])


def _place(g, p, f):
    return int(g.state[K.S_PLACES + p * K.P_W + f])


def _enemies(g):
    st = g.state
    return [(int(st[K.S_ENEMIES + e * K.EN_W + K.EN_PLACE]), int(st[K.S_ENEMIES + e * K.EN_W + K.EN_ENG]))
            for e in range(K.MAX_ENEMIES) if st[K.S_ENEMIES + e * K.EN_W + K.EN_KIND] >= 0]


def _goal(g, p):
    """``policies_nb.goal_dist_nb`` from its docstring."""
    rl, r = g.packed[3], g.rules
    if g.g(K.G_SEARCHES) >= r.get("scenario.searches_needed"):
        return int(rl[K.R_EXIT_DIST + p])
    left = [K.MAX_ZONES + loc * K.MAX_TILES + t for loc in range(int(rl[K.R_PARAMS + K.RP_N_LOCS]))
            for t in range(int(rl[K.R_LOCS + loc * K.LK_W + K.LK_TILES]))]
    left = [q for q in left if _place(g, q, K.P_SEARCHED) == 0 or _place(g, q, K.P_MARKERS) > 0]
    return min(int(rl[K.R_DIST + p * K.MAX_PLACES + q]) for q in left) if left else int(rl[K.R_EXIT_DIST + p])


def oracle_context(g, base: int) -> list[float]:
    """``policies_nb.context_nb`` from its docstring and the rules' values."""
    r, rl = g.rules, g.packed[3]
    s = g.g(K.G_CUR)
    p, h = _su(g, s, K.U_PLACE), _su(g, s, K.U_HEALTH)
    red, yellow = r.get("survivor.health_red_at"), r.get("survivor.health_yellow_at")
    stress = _su(g, s, K.U_STRESS)
    sl = 2 if stress >= r.get("survivor.stress_red_from") else 1 if stress >= r.get("survivor.stress_yellow_from") else 0
    tr = g.packed[1]
    ns, ds = int(tr[K.T_PARAMS + K.TP_NIGHT_START]), int(tr[K.T_PARAMS + K.TP_DAY_START])
    hour = g.g(K.G_HOUR)
    night = (hour >= ns or hour < ds) if ns > ds else ns <= hour < ds
    en = _enemies(g)
    here = sum(q == p for q, _ in en)
    mates = sum(1 for b in range(g.team) if b != s and _su(g, b, K.U_ALIVE) and _su(g, b, K.U_PLACE) == p)
    card = 0.0
    if p < K.MAX_ZONES and _su(g, s, K.U_MOVED) == 1 and _su(g, s, K.U_ENCOUNTER) < 0 and here == 0 \
            and mates == 0 and _place(g, p, K.P_DEPLOYED) == 0:
        zk = int(rl[K.R_ZONES + p])
        card = float(zk != K.Z_ALLEY and (zk != K.Z_SURPRISE or _place(g, p, K.P_SURPRISED) == 1))
    bk = base // K.ACT_KIND
    return [1.0, h, float(red < h <= yellow), float(h <= red), sl, _su(g, s, K.U_SP), _su(g, s, K.U_AP),
            float(night), ((ds if night else ns) - hour) % 24, sum(e == s for _, e in en), here,
            g.g(K.G_THREAT) // r.get("threat_track.units_per_level"),
            float(g.g(K.G_SEARCHES) >= r.get("scenario.searches_needed")), _goal(g, p),
            r.get("scenario.turn_limit") - g.g(K.G_TURN), float(p >= K.MAX_ZONES), _su(g, s, K.U_MOVED),
            _su(g, s, K.U_SUPPLIES) - _su(g, s, K.U_EATS), card,
            sum(_su(g, b, K.U_ALIVE) for b in range(g.team)), mates, _su(g, s, K.U_INFECTION),
            float(g.g(K.G_HUNTER) == K.HUNTER_BOARD), float(g.g(K.G_PHASE) == K.PH_RESERVE),
            float(bk in (K.AC_MELEE, K.AC_SHOOT)), float(bk == K.AC_MOVE)]


def oracle_order(g, a: int, base: int) -> list[float]:
    b = (a % K.ACT_KIND) // K.ACT_ARG
    q = _su(g, b, K.U_PLACE)
    en = _enemies(g)
    eng, here = sum(e == b for _, e in en), sum(x == q for x, _ in en)
    r, stress = g.rules, _su(g, b, K.U_STRESS)
    sl = 2 if stress >= r.get("survivor.stress_red_from") else 1 if stress >= r.get("survivor.stress_yellow_from") else 0
    return [float(a == base), eng, here, _su(g, b, K.U_HEALTH), _goal(g, q), float(q >= K.MAX_ZONES),
            _su(g, b, K.U_SP), sl, here - eng]


def oracle_alternatives(g, codes: list[int], base: int) -> list[int]:
    """``policies_nb.alternative_nb`` from its docstring (the baseline's step towards its
    goal, ``step_towards``, is the baseline's own move, taken from the kernel)."""
    bk, barg, bsp = base // K.ACT_KIND, (base % K.ACT_KIND) // K.ACT_ARG, base % K.ACT_ARG

    def first(k, arg=None, sp=None):
        for c in codes:
            if c // K.ACT_KIND == k and (arg is None or (c % K.ACT_KIND) // K.ACT_ARG == arg) \
                    and (sp is None or c % K.ACT_ARG == sp):
                return c
        return -1

    legal = np.zeros(K.MAX_LEGAL, dtype=np.int64)
    legal[:len(codes)] = codes
    par = PP.param_array("baseline")
    s = g.g(K.G_CUR)

    def step():
        return int(P.step_towards(g.state, g.packed[3], np.int64(s), legal, np.int64(len(codes)),
                                  np.int64(0), par))

    out = [first(K.AC_END) if bk != K.AC_END else -1,
           (first(bk, barg, 0) if bsp > 0 else first(bk, barg, 1) if bk != K.AC_END else -1),
           first(K.AC_EAT) if bk != K.AC_EAT else -1,
           first(K.AC_LOWER_THREAT) if bk != K.AC_LOWER_THREAT else -1,
           first(K.AC_REST) if bk != K.AC_REST else -1,
           first(K.AC_HIDE) if bk != K.AC_HIDE else -1, -1, -1]
    if bk in (K.AC_MELEE, K.AC_SHOOT) and any(e == s for _, e in _enemies(g)):
        a = step()
        out[P.ALT_FLEE] = a if a >= 0 else first(K.AC_MOVE, sp=0)
    if bk in (K.AC_DEFEND, K.AC_SEARCH_CORPSE, K.AC_END):
        out[P.ALT_PRESS] = step()
    return [-1 if a == base else a for a in out]


def oracle_choice(g, vec: np.ndarray, ctx: list[float], codes: list[int], base: int) -> int:
    """The distilled choice from the oracle's context and the policy's documented rule."""
    w = vec[P.DP_W:P.DP_W_ORDER].reshape(P.N_ALT, P.N_CONTEXT)
    wo = vec[P.DP_W_ORDER:]
    if g.g(K.G_PHASE) == K.PH_ORDER:
        scores = [float(np.dot(wo, oracle_order(g, c, base))) for c in codes]
        return codes[int(np.argmax(scores))]
    if g.g(K.G_PHASE) not in (K.PH_ACT, K.PH_RESERVE):
        return base
    best, bv = base, 0.0
    for k, a in enumerate(oracle_alternatives(g, codes, base)):
        if a >= 0 and float(np.dot(w[k], ctx)) > bv:
            best, bv = a, float(np.dot(w[k], ctx))
    return best


def test_the_kernels_context_and_choices_are_the_pure_python_ones():
    """At every decision of a few step games played by the distilled player (the shipped
    weights, then random ones that switch often), the kernel's context is the oracle's and
    its choice is the oracle's; every choice is legal (the step API refuses others)."""
    rng = np.random.default_rng(7)
    shipped = PP.param_array("distilled")
    noisy = shipped.copy()
    noisy[P.DP_W:] = rng.normal(0, 0.3, len(noisy) - P.DP_W)
    seen = {"order": 0, "act": 0, "switch": 0}
    for game, (team, vec) in enumerate(((2, shipped), (4, shipped), (4, noisy))):
        own = dict(zip(PP.DISTILLED_PARAMS, vec[P.N_PARAMS:]))
        g = Game(5, game, players=team, policy=("distilled", own))
        while not g.over:
            codes = g.legal_codes()
            base = codes[g.policy_choice("baseline")]
            pick = codes[g.policy_choice()]
            ctx = oracle_context(g, base)
            if g.g(K.G_PHASE) in (K.PH_ACT, K.PH_RESERVE):
                got = P.context_nb(g.state, g.packed[1], g.packed[3], np.int64(base))
                assert np.allclose(got, ctx, rtol=0, atol=1e-12), (game, list(zip(P.CONTEXT, got, ctx)))
                seen["act"] += 1
            elif g.g(K.G_PHASE) == K.PH_ORDER:
                for c in codes:
                    got = P.order_features_nb(g.state, g.packed[3], np.int64(c), np.int64(base))
                    assert np.allclose(got, oracle_order(g, c, base), rtol=0, atol=1e-12)
                seen["order"] += 1
            assert pick == oracle_choice(g, vec, ctx, codes, base), (game, g.action_words(pick))
            seen["switch"] += pick != base
            g.apply_code(pick)
    assert seen["act"] > 200 and seen["order"] > 20 and seen["switch"] > 20, seen


def test_the_choice_ignores_what_the_players_cannot_see():
    """Re-ordering every deck's unseen part and changing the streams (the dice to come)
    never changes the distilled player's choice (random weights: it switches often)."""
    from simlib.games.day_night_z.kernels.search_nb import rekey_nb

    rng = np.random.default_rng(3)
    vec = PP.param_array("distilled")
    vec[P.DP_W:] = rng.normal(0, 0.3, len(vec) - P.DP_W)
    own = dict(zip(PP.DISTILLED_PARAMS, vec[P.N_PARAMS:]))
    checked = 0
    for game in range(3):
        g = Game(9, game, players=3, policy=("distilled", own))
        while not g.over:
            pick = g.legal_codes()[g.policy_choice()]
            for k in range(2):
                st, strm = g.state.copy(), g.rng.copy()
                rekey_nb(st, strm, g.packed[2], g.packed[3], np.uint64(1000 * game + k + 1),
                         np.zeros(K.MAX_SURV, dtype=np.int64))
                legal = np.zeros(K.MAX_LEGAL, dtype=np.int64)
                got = PL.step_nb(np.int64(PL.OP_CHOOSE), st, strm, *g.packed, np.int64(9), np.int64(game),
                                 np.int64(3), np.int64(g.hour), np.int64(0), np.int64(P.POLICY_DISTILLED),
                                 vec, legal, np.zeros(K.REC_SIZE, dtype=np.int64))
                assert got == pick
                checked += 1
            g.apply_code(pick)
    assert checked > 100


# --------------------------------------------------------------------------- the weights' file
def _fake_result(fp: str) -> D.DistilResult:
    params = {n: (i - 9) / 7 for i, n in enumerate(PP.DISTILLED_PARAMS)}
    params["any_ruleset"] = 0.0
    return D.DistilResult(params, {"teacher": "rollout", "ruleset_fingerprint": fp, "seed": 3},
                          {"train_games": 2, "kept": "eat,flee"}, {"games": 1})


def test_the_weights_file_round_trips(tmp_path):
    res = _fake_result(REF.fingerprint())
    path = D.write_distilled(res, tmp_path / "w.toml", command="simlib train-policy --game day-night-z")
    back = PP.read_distilled(path)
    assert back["params"] == res.params
    assert back["provenance"]["ruleset_fingerprint"] == REF.fingerprint()
    assert back["provenance"]["command"] == "simlib train-policy --game day-night-z"
    assert back["provenance"]["teacher"] == "rollout"
    assert back["training"]["kept"] == "eat,flee" and back["check"]["games"] == 1
    text = path.read_text()
    assert 'w_eat_bias = { value = ' in text and 'source = "fit" }' in text
    assert 'w_end_bias = { value = -1.1428571428571428, source = "fit, switched off" }' in text


@pytest.mark.parametrize("text, why", [
    ("[params]\nw_end_bias = { value = 1 }\n", r"must hold exactly the 217 names.*missing: "),
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
            play_games(3, policy="distilled")
        with pytest.raises(ValueError, match="distilled' is not available"):
            Game(1, 0, players=2, policy="distilled")
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

    play_games(5, policy="distilled", ruleset=REF)
    msg = (r"policies/distilled.toml\) were fitted on the ruleset of fingerprint "
           + REF.fingerprint()[:12] + r".*not this one \(" + OTHER.fingerprint()[:12]
           + r".*train-policy --game day-night-z.*any_ruleset=1")
    with pytest.raises(ValueError, match=msg):
        play_games(5, policy="distilled", ruleset=OTHER)
    with pytest.raises(ValueError, match=msg):
        simlib.simulate(12, game="day_night_z", players=2, policy="distilled", ruleset=OTHER,
                        progress=False)
    with pytest.raises(ValueError, match=msg):
        Game(1, 0, players=2, policy="distilled", ruleset=OTHER)
    with pytest.raises(ValueError, match=msg):
        Game(1, 0, players=2, ruleset=OTHER).policy_choice("distilled")
    out = play_games(5, policy="distilled", params={"any_ruleset": 1}, ruleset=OTHER)
    assert len(out["records"]) == 5
    with pytest.raises(ValueError, match="any_ruleset must be 0 or 1"):
        PP.Seat.parse("distilled:any_ruleset=2")


# --------------------------------------------------------------------------- training
def test_training_is_reproducible_from_its_seed(tmp_path, capsys):
    """A tiny run twice (once through ``simlib train-policy --game day-night-z``): the same
    weights, the file's ``[params]`` byte for byte; another seed, other fitted weights (a
    tiny selection switches every score off).  Another game's options are refused, and so
    is the clairvoyant teacher."""
    from simlib.cli import main

    kw = dict(teams=(2,), hours=(14,), games=4, heldout=2, select_games=40, check_games=40,
              threads=2)
    a = D.train_distilled(seed=4, **kw)
    args = ["train-policy", "--game", "day-night-z", "--players", "2", "--start-hours", "14",
            "--games", "4", "--heldout", "2", "--select-games", "40", "--check-games", "40",
            "--threads", "2", "--seed", "4", "--no-progress"]
    out1 = tmp_path / "d1.toml"
    assert main(args + ["--out", str(out1)]) == 0
    assert "selection (40 games a score" in capsys.readouterr().out
    back = PP.read_distilled(out1)
    assert back["params"] == a.params
    # the fitted weights (before the selection) decide the held-out figures
    assert {k: back["training"][k] for k in ("heldout_gain", "heldout_switches")} == \
        {k: a.training[k] for k in ("heldout_gain", "heldout_switches")}

    def params_text(p):
        t = p.read_text()
        return t[t.index("[params]"):t.index("[provenance]")]

    assert params_text(out1) == params_text(D.write_distilled(a, tmp_path / "d2.toml"))
    c = D.train_distilled(seed=5, **kw)
    assert a.training["train_decisions"] > 50
    assert a.fitted != c.fitted and any(v != 0 for v in a.fitted.values())
    assert a.settings["ruleset_fingerprint"] == REF.fingerprint()
    assert a.settings["teacher"] == "rollout" and a.settings["games"] == 4
    assert main(["train-policy", "--game", "day-night-z", "--horizon", "1", "--out",
                 str(tmp_path / "x.toml")]) == 2
    assert "--horizon is an option of until-daylight's distillation" in capsys.readouterr().err
    with pytest.raises(ValueError, match="teacher must be an honest search player"):
        D.train_distilled(teacher="clairvoyant", **kw)


def test_the_fits_recover_a_known_rule():
    """An alternative worth taking below 6 health is learnt from gains that say so; the
    activation of the highest linear value is learnt from values that say so."""
    rng = np.random.default_rng(0)
    x = np.column_stack([np.ones(400), rng.integers(1, 10, 400)])
    gain = (5.5 - x[:, 1]) * 0.01 + rng.normal(0, 0.001, 400)
    w = D.fit_alternative(x, gain, 1e-6)
    assert ((x @ w > 0) == (x[:, 1] <= 5)).all()
    xo = rng.normal(size=(300, 3, 2))
    values = xo @ np.array([1.0, -2.0])
    values[::3, 2] = -np.inf  # two survivors left to activate
    wo = D.fit_order(xo, values, 1e-6)
    u = np.where(np.isfinite(values), xo @ wo, -np.inf)
    assert (np.argmax(u, axis=1) == np.argmax(values, axis=1)).mean() > 0.95


# --------------------------------------------------------------------------- strength
def test_the_distilled_player_beats_the_baseline_on_fixed_games():
    """Paired (the games of ``simlib compare --game day-night-z --policy baseline --policy
    distilled``), seed 11, the default study's twelve cells: the shipped weights succeed
    more often, beyond the interval (measured: about +6 points), and far more often than
    the random player."""
    import simlib

    res = simlib.compare(6000, game="day_night_z", policies=["baseline", "distilled"], seed=11,
                         progress=False)
    row = res.overall.iloc[0]
    assert row["diff_low"] > 0.02, row
    rnd = simlib.compare(1200, game="day_night_z", policies=["random", "distilled"], seed=11,
                         progress=False).overall.iloc[0]
    assert rnd["rate_a"] < 0.02 and rnd["rate_b"] > 0.4, rnd
