"""The `distilled` player of Mort de la lumière du jour (issue 43): its features against a
pure-Python recomputation from their documentation, its choices legal and blind to what
its seat cannot see, its weights file and its refusal on another ruleset, training
reproducible from its seed (and through `simlib train-policy`), and the player beating
the random and the heuristic player on each side on fixed games."""
from __future__ import annotations

import numpy as np
import pytest

from simlib.games.mort import codes as K
from simlib.games.mort import distil as D
from simlib.games.mort import policies as PP
from simlib.games.mort.api import play_games
from simlib.games.mort.kernels import policies_nb as P
from simlib.games.mort.ruleset import load_ruleset
from simlib.games.mort.step import Game

REF = load_ruleset()
OTHER = REF.override({"rules.strike_cost": 3})  # another ruleset: another fingerprint
SHIPPED = np.asarray(PP.Seat.make("distilled").vector())


# --------------------------------------------------------------------------- the oracle
def _dist(ax, ay, bx, by):
    return abs(ax - bx) + abs(ay - by)


def _in_play(st, ns):
    return [t for t in range(1, ns + 1) if st[K.S_S_STATUS + t] == K.ST_IN]


def _nearest(st, ns, s, x, y, injured=False):
    if s != 0 and not injured:
        return _dist(x, y, st[K.S_S_X], st[K.S_S_Y])
    ds = [_dist(x, y, st[K.S_S_X + t], st[K.S_S_Y + t]) for t in _in_play(st, ns)
          if t != s and (not injured or st[K.S_S_WOUNDS + t] > 0)]
    return min(ds + [30])


def oracle_context(g: Game, s: int) -> list[float]:
    st, r = g.state, g.rules
    ns = int(r.get("board.survivors"))
    hand = {v: int(st[K.S_HAND + s * K.HAND_W + v]) for v in range(1, K.HAND_W)}
    d = _nearest(st, ns, s, st[K.S_S_X + s], st[K.S_S_Y + s])
    inp = _in_play(st, ns)
    need = max(r.get("board.generators_needed") * r.get("board.lamps"), 1)
    lit = sum(int(st[K.S_GEN_LAMPS + i]) for i in range(int(st[K.S_N_GENS])))
    return [1.0, sum(v * c for v, c in hand.items()) / 10, sum(hand.values()) / 5,
            (st[K.S_BUDGET] if g.phase == "commit" else 0) / 5, d / 10, st[K.S_ROUND] / 20,
            len(inp) / 4, st[K.S_KILLS] / 4 if s == 0 else float(st[K.S_S_WOUNDS + s]),
            sum(1 for t in inp if st[K.S_S_WOUNDS + t] > 0) / 4, min(lit, need) / need,
            float(st[K.S_HATCH] != K.HATCH_HIDDEN), float(d <= r.get("board.reach")),
            sum(int(st[K.S_CARDS + s * K.MAX_K + k]) for k in range(K.MAX_K)) / 5]


def oracle_spec(g: Game, s: int, a: int, h: int, goal) -> tuple[str, list[float]]:
    """(kind, action features) of code ``a`` from ``policies_nb``'s documentation."""
    st, r = g.state, g.rules
    ns, reach = int(r.get("board.survivors")), int(r.get("board.reach"))
    name = K.action_name(a)
    f = dict.fromkeys(P.ACTION_FEATURES, 0.0)
    f["heuristic"] = float(a == h)
    x, y = int(st[K.S_S_X + s]), int(st[K.S_S_Y + s])
    gx, gy = goal
    costs = {"repair": "repair_cost", "chest": "chest_cost", "gate": "gate_cost",
             "pallet": "drop_cost", "escape": "escape_gate_cost", "strike": "strike_cost",
             "break": "break_cost", "detour": "detour_cost"}
    kind = "other"
    if name == "end_turn":
        kind = "end_turn"
    elif name == "stop":
        kind = "stop"
    elif name.startswith(("commit:", "pool:")):
        parts = name.split(":")
        q, v = parts[1], int(parts[2]) if len(parts) > 2 else 0
        adj = int(st[K.S_ADJ_NOW]) if s == 0 else 0
        f["value"] = v / 3
        if q == "move":
            kind = "commit_move"
            f["excess"] = (v + adj - max(_dist(x, y, gx, gy) - reach, 0)) / 3
        else:
            kind = {"strike": "commit_act", "repair": "commit_act", "cards": "commit_cards"}.get(
                q, "commit_other")
            f["excess"] = (v + adj - (r.get(f"rules.{costs[q]}") if q in costs else 0)) / 3
    elif name in ("north", "east", "south", "west", "shortcut"):
        kind = "step" if name != "shortcut" else "jump"
        dx, dy = {"north": (0, -1), "south": (0, 1), "east": (1, 0), "west": (-1, 0)}.get(name, (0, 0))
        nx, ny = x + dx, y + dy
        if name == "shortcut":
            toks = r.tokens()
            other = [toks[int(st[K.S_SHORTCUT_TOKEN + c])] for c in range(2)
                     if tuple(toks[int(st[K.S_SHORTCUT_TOKEN + c])]) != (x, y)]
            nx, ny = other[-1]
        lamps = r.get("board.lamps")
        toks = r.tokens()

        def gen(px, py):
            return min([_dist(px, py, *toks[int(st[K.S_GEN_TOKEN + i])])
                        for i in range(int(st[K.S_N_GENS])) if st[K.S_GEN_LAMPS + i] < lamps] + [30])
        d1 = _nearest(st, ns, s, nx, ny)
        f["enemy_step"] = d1 - _nearest(st, ns, s, x, y)
        f["goal_step"] = _dist(nx, ny, gx, gy) - _dist(x, y, gx, gy)
        f["gen_step"] = gen(nx, ny) - gen(x, y)
        f["injured_step"] = _nearest(st, ns, s, nx, ny, True) - _nearest(st, ns, s, x, y, True)
        f["adjacent_after"] = float(d1 <= reach)
        f["pallet_near"] = float(any(
            st[K.S_PALLET_STATE + p] != K.PAL_BROKEN
            and _dist(nx, ny, st[K.S_PALLET_X + p], st[K.S_PALLET_Y + p]) <= reach
            for p in range(int(st[K.S_N_PALLETS]))))
    elif name in ("sprint_move", "hatch"):
        kind = "jump"
    elif name in ("play_map", "play_key", "play_sprint"):
        kind = "play_card"
    elif ":" in name and name.split(":")[0] in (
            "repair", "toolbox", "block", "chest", "gate", "escape", "drop", "break", "casse",
            "detour", "strike", "medkit"):
        kind = "target"
        if name.startswith("strike:"):
            t = int(name.split(":")[1])
            if st[K.S_S_WOUNDS + t] + 1 >= r.get("rules.hits_to_kill"):
                f["kills"] = 1.0
                f["opens_hatch"] = float(len(_in_play(st, ns)) == 2)
    return kind, [f[k] for k in P.ACTION_FEATURES]


def oracle_choice(g: Game, s: int, vec: np.ndarray, h: int, goal) -> int:
    """The distilled choice from the oracle's features and the documented rule."""
    w = vec[P.DP_W_KILLER:P.DP_W_SURVIVOR] if s == 0 else vec[P.DP_W_SURVIVOR:]
    ctx = oracle_context(g, s)

    def score(a):
        kind, spec = oracle_spec(g, s, a, h, goal)
        k = P.KINDS.index(kind)
        return float(np.dot(w[k * P.N_CTX:(k + 1) * P.N_CTX], ctx)
                     + np.dot(w[P.N_KINDS * P.N_CTX:], spec))
    best, bv = h, score(h)
    for a in g.legal_codes():
        if a != h and score(a) > bv:
            best, bv = a, score(a)
    return best


def _heuristic_code(g: Game) -> int:
    return g.legal_codes()[g.policy_choice("heuristic")]


def test_the_kernels_features_scores_and_choices_are_the_pure_python_ones():
    """At every turn and committed-card decision of distilled seats on both sides in a
    few step games (the shipped weights, then random ones), the kernel's context and
    action features are the oracle's, its score is the dot product of its features with
    the weights, and its choice is the oracle's."""
    rng = np.random.default_rng(3)
    noisy = SHIPPED.copy()
    noisy[P.DP_W_KILLER:] = rng.normal(0, 0.05, len(noisy) - P.DP_W_KILLER)
    flat = REF.flat()
    out = np.zeros(P.N_FEAT)
    seen = {0: 0, 1: 0}
    for game, vec in ((0, SHIPPED), (1, SHIPPED), (2, noisy)):
        seat = ("distilled", tuple(vec[P.DP_ANY_RULESET:]))
        g = Game(4, game, seats=[seat, seat, "heuristic", seat, "heuristic"])
        while not g.over:
            s = g.to_move
            pick = g.policy_choice()
            if s in (0, 1, 3) and g.phase in ("turn", "commit") and len(g.legal_codes()) > 1:
                h = _heuristic_code(g)
                gx, gy = P.goal_nb(g.state, flat, np.int64(s), vec)
                ctx = P.context_nb(g.state, flat, np.int64(s))
                assert np.allclose(ctx, oracle_context(g, s), rtol=1e-12, atol=1e-12)
                off = P.DP_W_KILLER if s == 0 else P.DP_W_SURVIVOR
                for a in g.legal_codes():
                    kind = P.action_features_nb(g.state, flat, np.int64(s), np.int64(a),
                                                np.int64(h), gx, gy, ctx, out)
                    want_kind, want_spec = oracle_spec(g, s, a, h, (gx, gy))
                    assert P.KINDS[kind] == want_kind, K.action_name(a)
                    assert np.allclose(out[P.N_KINDS * P.N_CTX:], want_spec, atol=1e-12), K.action_name(a)
                    score = P.action_score_nb(g.state, flat, np.int64(s), np.int64(a), np.int64(h),
                                              gx, gy, ctx, vec, np.int64(off))
                    assert score == pytest.approx(float(out @ vec[off:off + P.N_FEAT]), abs=1e-12)
                assert g.legal_codes()[pick] == oracle_choice(g, s, vec, h, (gx, gy))
                seen[min(s, 1)] += 1
            g.apply(pick)
    assert seen[0] > 100 and seen[1] > 100, seen


def test_its_choices_are_legal_and_blind_to_what_its_seat_cannot_see():
    """In games with distilled players on both sides every choice is legal; and at each
    decision, dealing the other seats' hands again from the unseen cards, and changing
    the dice and deck streams, never changes the distilled seat's choice (the
    heuristic's neither: it is one of the features)."""
    from simlib.games.mort.kernels.policies_nb import _redeal_nb

    changed = 0
    for game in range(4):
        g = Game(7, game, seats="killer=distilled,survivors=distilled")
        i = 0
        while not g.over:
            codes = g.legal_codes()
            pick = g.policy_choice()
            assert 0 <= pick < len(codes)
            if g.phase in ("turn", "commit") and len(codes) > 1 and i % 3 == 0:
                s = g.to_move
                other = g.clone()
                before = other.state.copy()
                _redeal_nb(other.state, np.int64(s), np.uint64(1234567 + i))
                other.state[K.S_STREAMS + K.STREAM_DICE] ^= 0x5DEECE66D
                changed += int(not np.array_equal(before, other.state))
                st = g.state.copy()
                g.state[:] = other.state
                try:
                    assert g.legal_codes() == codes
                    assert g.legal_codes()[g.policy_choice()] == codes[pick], (game, i)
                finally:
                    g.state[:] = st
            g.apply(pick)
            i += 1
    assert changed > 100


def test_a_mixed_table_plays_the_same_games_in_the_step_api_and_the_study():
    """A study table mixing distilled, heuristic and random seats (the distilled player's
    longer parameter vector widens every seat's): each game in the step API is the
    study's, record for record."""
    import simlib
    from simlib.games.mort.study import make_adapter

    table = ["distilled", "heuristic", "distilled", "random", "heuristic:work_radius=8"]
    res = simlib.simulate(8, game="mort_de_la_lumiere_du_jour", seats=[table], seed=9,
                          progress=False)
    rows = res.records.to_dict("records")
    ad = make_adapter(seats=[table], seed=9)
    for i in range(8):
        rec = ad.step_game(i).play().record()
        keys = ("killer_win", "kills", "escapes", "rounds", "decisions", "repaired")
        assert {k: rec[k] for k in keys} == {k: rows[i][k] for k in keys}, i


# --------------------------------------------------------------------------- the weights' file
def _fake_result(fp: str) -> D.DistilResult:
    params = {n: (i % 17 - 8) / 9 for i, n in enumerate(PP.DISTILLED_PARAMS)}
    params["any_ruleset"] = 0.0
    return D.DistilResult(params, {"teacher": "rollout", "ruleset_fingerprint": fp, "seed": 3},
                          {"killer_agree": 0.5}, {"games": 1})


def test_the_weights_file_round_trips(tmp_path):
    res = _fake_result(REF.fingerprint())
    path = D.write_distilled(res, tmp_path / "w.toml",
                             command="simlib train-policy --game mort-de-la-lumiere-du-jour")
    back = PP.read_distilled(path)
    assert back["params"] == res.params
    assert back["provenance"]["ruleset_fingerprint"] == REF.fingerprint()
    assert back["provenance"]["command"] == "simlib train-policy --game mort-de-la-lumiere-du-jour"
    assert back["provenance"]["teacher"] == "rollout"
    assert back["training"]["killer_agree"] == 0.5 and back["check"]["games"] == 1
    assert 'source = "fit"' in path.read_text()


@pytest.mark.parametrize("text, why", [
    ("[params]\nw_killer_end_turn_bias = { value = 1 }\n",
     rf"must hold exactly the {len(PP.DISTILLED_PARAMS) - 1} names.*missing: "),
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
            play_games(3, seats="killer=distilled")
    finally:
        monkeypatch.undo()
        PP._register_distilled()
    assert "distilled" in PP.POLICIES


def test_a_file_without_its_fingerprint_is_refused(tmp_path):
    path = D.write_distilled(_fake_result(""), tmp_path / "w.toml")
    with pytest.raises(ValueError, match=r"w.toml: \[provenance\] must give the ruleset_fingerprint"):
        PP.read_distilled(path)


def test_the_weights_are_refused_on_another_ruleset_unless_asked():
    """The shipped weights play on their ruleset, are refused on another (the message
    names the file, both fingerprints and the way out) in every entry point, and play
    there with ``any_ruleset=1``."""
    import simlib

    play_games(4, seats="killer=distilled,survivors=distilled", ruleset=REF)
    msg = (r"policies/distilled.toml\) were fitted on the ruleset of fingerprint "
           + REF.fingerprint()[:12] + r".*not this one \(" + OTHER.fingerprint()[:12]
           + r".*train-policy --game mort-de-la-lumiere-du-jour.*any_ruleset=1")
    with pytest.raises(ValueError, match=msg):
        play_games(4, seats="survivors=distilled", ruleset=OTHER)
    with pytest.raises(ValueError, match=msg):
        simlib.simulate(10, game="mort_de_la_lumiere_du_jour", policy="distilled", ruleset=OTHER,
                        progress=False)
    with pytest.raises(ValueError, match=msg):
        Game(1, 0, seats="killer=distilled", ruleset=OTHER)
    with pytest.raises(ValueError, match=msg):
        Game(1, 0, ruleset=OTHER).policy_choice("distilled")
    rec = play_games(4, seats="killer=distilled:any_ruleset=1", ruleset=OTHER)
    assert len(rec) == 4
    with pytest.raises(ValueError, match="any_ruleset must be 0 or 1"):
        PP.Seat.parse("distilled:any_ruleset=2")


# --------------------------------------------------------------------------- training
def test_training_is_reproducible_from_its_seed(tmp_path, capsys):
    """A tiny run twice (once through ``simlib train-policy``): the same weights; another
    seed, other weights.  Another game's options and another player count are refused."""
    from simlib.cli import main

    kw = dict(games=3, heldout=1, check_games=200, tune_games=100, threads=2)
    a = D.train_distilled(seed=4, **kw)
    out = tmp_path / "d.toml"
    argv = ["train-policy", "--game", "mort-de-la-lumiere-du-jour", "--games", "3",
            "--heldout", "1", "--check-games", "200", "--margin-games", "100", "--seed", "4",
            "--out", str(out), "--no-progress", "--force", "--threads", "1"]
    assert main(argv) == 0
    assert "fresh seeds, survivors" in capsys.readouterr().out
    first = out.read_bytes()
    assert PP.read_distilled(out)["params"] == a.params
    assert main(argv) == 0  # again: the same file, byte for byte
    assert out.read_bytes() == first
    assert a.training["killer_train_decisions"] > 200 and a.training["survivors_train_decisions"] > 100
    assert a.training["killer_margin"] in D.MARGINS
    assert a.settings["ruleset_fingerprint"] == REF.fingerprint()
    assert a.settings["teacher"] == "rollout" and a.settings["games"] == 3
    c = D.train_distilled(seed=5, **kw)
    assert a.params != c.params
    assert main(["train-policy", "--game", "mort-de-la-lumiere-du-jour", "--horizon", "1",
                 "--out", str(tmp_path / "x.toml")]) == 2
    assert "--horizon is an option of until-daylight's distillation" in capsys.readouterr().err
    assert main(["train-policy", "--game", "mort-de-la-lumiere-du-jour", "--players", "4",
                 "--out", str(tmp_path / "x.toml")]) == 2
    with pytest.raises(ValueError, match="teacher must be the rollout player"):
        D.train_distilled(teacher="heuristic", **kw)


def test_the_fit_recovers_a_known_advantage():
    """Actions whose advantage over the heuristic's is a linear function of their
    features: the fit finds the best action of nearly every decision."""
    rng = np.random.default_rng(0)
    nd = 600
    n = rng.integers(2, 7, nd)
    first = np.concatenate([[0], np.cumsum(n)[:-1]])
    c = int(n.sum())
    kind = rng.integers(0, P.N_KINDS, c)
    spec = rng.normal(size=(c, P.N_SPEC))
    heur = np.array([rng.integers(0, k) for k in n])
    spec[:, 0] = 0.0
    spec[first + heur, 0] = 1.0
    ctx = rng.normal(size=(nd, P.N_CTX))
    true = rng.normal(size=P.N_FEAT)
    data = D.TeacherData(ctx, first, n, np.zeros(nd, dtype=np.int64), heur, np.zeros(nd, dtype=np.int64),
                         kind, spec, np.zeros(c), 0, 0.0)
    x, _ = D.design(data)
    data.val = x @ true
    data.teacher = np.array([int(np.argmax(data.val[f:f + k])) for f, k in zip(first, n)])
    w = D.fit_advantage(data, 1e-8)
    assert (D.choose(data, w) == data.teacher).mean() > 0.97


# --------------------------------------------------------------------------- strength
@pytest.mark.parametrize("side", ["killer", "survivors"])
def test_the_distilled_player_beats_the_random_and_the_heuristic_player_on_each_side(side):
    """Paired, the distilled player on one side against heuristic players (the games of
    ``simlib compare --policy heuristic --policy distilled``, ``--characters survivors``
    for the survivors), seed 11: it wins far more than a random player on that side and
    more than the heuristic (the rate is the killer's win: the survivors win when it
    falls)."""
    import simlib

    res = simlib.compare(3000, game="mort_de_la_lumiere_du_jour",
                         policies=["heuristic", "distilled"], characters=side, seed=11,
                         progress=False)
    row = res.overall.iloc[0]
    sign = 1 if side == "killer" else -1
    assert (row["diff_low"] > 0) if side == "killer" else (row["diff_high"] < 0), row
    rnd = simlib.compare(600, game="mort_de_la_lumiere_du_jour", policies=["random", "distilled"],
                         characters=side, seed=11, progress=False).overall.iloc[0]
    assert sign * rnd["diff"] > 0.3, rnd
