"""The `distilled` policy of Until Daylight (issue 43): its weights file, its refusal on
another ruleset, training reproducible from a seed, the kernel's choice against a
pure-Python recomputation of its linear score, and the baseline as its special case."""
from __future__ import annotations

import numpy as np
import pytest

from simlib.games.until_daylight import codes as K
from simlib.games.until_daylight import policies as PP
from simlib.games.until_daylight.api import (apply_step, flat_rules, new_step_state, play_games,
                                             run_kernel, team_codes)
from simlib.games.until_daylight.kernels import policies_nb as P
from simlib.games.until_daylight.ruleset import load_ruleset

LIGHT = load_ruleset("reference").override({"constants.rounds": 5, "constants.wave_per_player": 0})
CAL = load_ruleset("calibrated")
BASE_PP = np.asarray(PP.POLICIES["baseline"].defaults, dtype=np.float64)


def gate_only(top_k=4, skip=1772, horizon=2):
    """A distilled vector with every weight 0 and the default teacher's gate."""
    v = np.zeros(P.DP_W + P.N_FEATURES)
    v[:P.N_BASELINE_PARAMS] = BASE_PP
    v[P.DP_TOP_K], v[P.DP_SKIP_KINDS], v[P.DP_HORIZON] = top_k, skip, horizon
    return v


def play(pid, pp, rules, n, seed):
    out = np.zeros(n, dtype=K.record_dtype())
    npl = np.full(n, 4, dtype=np.int64)
    chars = np.tile(team_codes(None, 4, rules), (n, 1))
    run_kernel(rules, seed, 0, npl, chars, pid, pp, out.view(np.int64).reshape(n, K.N_REC), 2)
    return out


# --------------------------------------------------------------------------- the baseline's case
def test_only_the_gap_weight_plays_the_baselines_games():
    """With every weight 0 but the baseline-score gap's, the distilled policy takes the
    baseline's choice at every decision: the same records, game for game."""
    pp = gate_only()
    pp[P.DP_W + P.F_GAP] = 1.0
    base = play(P.POLICY_BASELINE, BASE_PP, CAL, 400, 5)
    dist = play(P.POLICY_DISTILLED, pp, CAL, 400, 5)
    assert np.array_equal(base, dist)


def test_a_weight_against_the_baselines_choice_changes_the_games():
    """The weights matter: a large weight on rank 1 (the baseline's second best) wherever
    the gate opens changes games and costs wins."""
    pp = gate_only()
    pp[P.DP_W + P.F_RANK] = 5.0
    base = play(P.POLICY_BASELINE, BASE_PP, CAL, 1000, 5)
    dist = play(P.POLICY_DISTILLED, pp, CAL, 1000, 5)
    assert (base["decisions"] != dist["decisions"]).any()
    assert (dist["outcome"] == K.OUT_WIN).sum() < (base["outcome"] == K.OUT_WIN).sum()


# --------------------------------------------------------------------------- the oracle
def _oracle_choice(st, rs, pp, rules):
    """The distilled choice recomputed in Python from the state's arrays: the baseline's
    scores (its own function: the oracle checks what is built on them), the gate, the
    ranking and the linear score of ``distilled_value_nb``'s documented features."""
    from simlib.games.until_daylight.kernels import state_nb as S
    from simlib.games.until_daylight.state import GameState

    view, pk = GameState(st, rules), rules.pack()
    d, seat, m = int(st[K.G_PENDING_D]), int(st[K.G_PENDING_SEAT]), int(st[K.G_PENDING_M])
    cands = view.part("cands")[:m]
    pl, inv, card_tab, rnd = view.part("pl"), view.part("inv"), pk.card_tab, int(st[K.G_ROUND])
    scores = [P.baseline_score_nb(st, rs, pp, d, seat, c[0], c[1], c[2], pl, inv, card_tab)
              for c in cands]
    base = int(np.argmax(scores))  # the first of the highest
    rounds = int(rs[K.P_ROUNDS])
    h = int(pp[P.DP_HORIZON])
    if m <= 1 or (int(pp[P.DP_SKIP_KINDS]) >> d) & 1 or (h >= 1 and rnd + h - 1 < rounds):
        return base
    trade_kinds = d in (K.D_SEARCH_ACTION, K.D_COMBAT_ACTION)
    kept = [i for i in range(m)
            if not (trade_kinds and cands[i][0] in (K.A_GIVE, K.A_TAKE)
                    and P.ignores_trade_nb(rs, P.POLICY_BASELINE, cands[i][0], cands[i][1]))]
    ranked = sorted(kept, key=lambda i: -scores[i])[:int(pp[P.DP_TOP_K])]  # stable: ties by index
    w = pp[P.DP_W:]
    names = PP.distilled_feature_names()
    col = {n: j for j, n in enumerate(names)}
    act_name = K.ACTION_NAMES
    share = [pl[q, K.PL_HEALTH] / max(1, pl[q, K.PL_MAX_HEALTH]) for q in range(int(st[K.G_N_PLAYERS]))]
    hr = share[seat]
    team = min([1.0] + [s for q, s in enumerate(share) if q != seat])
    last = 1.0 if rnd >= rounds else 0.0
    thr = min(int(S.area_threat_nb(st, rs, seat)), 20) / 10

    def value(rank, i):
        act, a, b = (int(x) for x in cands[i][:3])
        f = dict.fromkeys(names, 0.0)
        f["gap"] = max(-5.0, min(0.0, (scores[i] - scores[ranked[0]]) / 100))
        f[f"rank_{rank}" if rank else f"base_{K.DECISION_NAMES[d]}"] = 1.0
        an = act_name[act]
        f[f"gap_{an}"] = f["gap"]
        if rank and d in (K.D_SEARCH_ACTION, K.D_COMBAT_ACTION):
            block = ("search" if d == K.D_SEARCH_ACTION else "combat") + ("_last" if last else "")
            f[f"pair_{block}_{act_name[int(cands[ranked[0]][0])]}_{an}"] = 1.0
        f[f"act_{an}"], f[f"act_health_{an}"], f[f"act_team_{an}"] = 1.0, hr, team
        f[f"act_last_{an}"], f[f"act_threat_{an}"] = last, thr
        if act == K.A_ATTACK and d in (K.D_COMBAT_ACTION, K.D_EXTRA_ATTACK):
            f["att_self"] = float(a == seat)
            f["att_melee"] = float(card_tab[b, K.C_MELEE] != 0)
            f["att_dice"] = min(int(S.max_attack_dice_nb(st, rs, seat, b)), 10) / 10
            f["att_target_health"] = share[a]
            f["att_target_threat"] = min(int(S.area_threat_nb(st, rs, a)), 20) / 10
            f["att_target_enemies"] = min(int(pl[a, K.PL_AREA_N]), 20) / 10
            # the kill expectation is the baseline's own machinery (its code is shared, its
            # use here is not): expected kills and the damage they prevent, collateral
            ph, pb, px = (P.outcome_prob_nb(rs, 1, h, bb) for h, bb in ((1, 0), (0, 1), (0, 0)))
            row = np.zeros(4096, dtype=np.int64)
            line_n = P.target_line_nb(view.part("area")[a], pl[a, K.PL_AREA_N], pk.enemy_tab,
                                      rs[K.P_V_SURVIVORS_BLOCK], row)
            dice = int(S.max_attack_dice_nb(st, rs, seat, b))
            ek, prevented = P.kill_expectation_nb(rs, row, line_n, pk.enemy_tab, dice,
                                                  ph + pb / rs[K.P_BODIES_PER_DAMAGE])
            coll = 0.0
            if card_tab[b, K.C_MELEE] == 0 and a != seat:
                coll = dice * px * (rs[K.P_COLLATERAL_PER_X]
                                    + S.char_mod_nb(st, rs, seat, K.MOD_EXTRA_COLLATERAL))
            f["att_kills"], f["att_prevented"] = min(ek / 3, 2.0), min(prevented / 3, 2.0)
            f["att_collateral"] = min(coll / 3, 2.0)
        elif act in (K.A_GIVE, K.A_TAKE) and d != K.D_AMOUNT:
            giver, receiver = (seat, b) if act == K.A_GIVE else (b, seat)
            side = "give" if act == K.A_GIVE else "take"
            kind = int(card_tab[a, K.C_KIND])
            names_of = {K.CK_AMMO: "ammo", K.CK_WEAPON: "weapon", K.CK_HEAL: "heal"}
            if kind in names_of:
                f[f"{side}_{names_of[kind]}"] = 1.0
            if kind == K.CK_AMMO:
                f["trade_receiver_armed"] = float(S.has_weapon_for_ammo_nb(st, rs, receiver, a))
                f["trade_giver_armed"] = float(S.has_weapon_for_ammo_nb(st, rs, giver, a))
            f["trade_receiver_health"] = share[receiver]
            f["trade_receiver_full"] = float(S.slots_used_nb(st, rs, receiver)
                                             >= S.slots_nb(st, rs, receiver))
        elif act == K.A_USE and card_tab[a, K.C_KIND] == K.CK_HEAL:
            f["heal_missing"] = 1 - hr
        elif act == K.A_DRAW:
            f["draw_full"] = float(S.slots_used_nb(st, rs, seat) >= S.slots_nb(st, rs, seat))
        elif act == K.A_CRAFT:
            f["craft_trap"] = float(pk.recipes[a, K.R_PRODUCT] != K.TOKEN_BARRICADE)
        return sum(w[col[n]] * v for n, v in f.items())

    vals = [value(r, i) for r, i in enumerate(ranked)]
    return ranked[int(np.argmax(vals))]


def test_the_kernels_choice_is_the_pure_python_linear_score():
    """At the decisions of two step games (random weights: the policy leaves the baseline
    often), the kernel's choice is the oracle's; the games follow the kernel's choices."""
    from simlib.games.until_daylight.kernels.search_nb import policy_choice_nb

    rs = flat_rules(LIGHT)
    pp = gate_only(horizon=2)
    pp[P.DP_W:] = np.random.default_rng(3).normal(0, 1, P.N_FEATURES)
    gated = changed = 0
    for game in (0, 1):
        st = new_step_state(rs, 9, game, 4, team_codes(None, 4, LIGHT))
        while not st[K.G_OVER]:
            c = int(policy_choice_nb(st, rs, np.int64(P.POLICY_DISTILLED), pp))
            assert c == _oracle_choice(st, rs, pp, LIGHT), (game, int(st[K.G_DECISIONS]))
            base = int(policy_choice_nb(st, rs, np.int64(P.POLICY_BASELINE), BASE_PP))
            gated += int(st[K.G_ROUND]) + 1 >= int(rs[K.P_ROUNDS])
            changed += c != base
            apply_step(st, rs, c)
    assert gated > 10 and changed > 0, (gated, changed)


# --------------------------------------------------------------------------- the weights' file
def _fake_result(fp):
    from simlib.games.until_daylight.distil import DistilResult

    params = {n: float(i) / 7 for i, n in enumerate(PP.DISTILLED_PARAMS) if n != "any_ruleset"}
    params["top_k"] = 4.0
    return DistilResult(params, {"teacher": "rollout-100", "ruleset_fingerprint": fp, "seed": 3},
                        {"train_games": 2}, {"games": 1})


def test_the_weights_file_round_trips(tmp_path):
    from simlib.games.until_daylight.distil import write_distilled

    res = _fake_result(CAL.fingerprint())
    path = write_distilled(res, tmp_path / "w.toml", command="simlib train-policy")
    back = PP.read_distilled(path)
    assert back["params"] == {**res.params, "any_ruleset": 0.0}
    assert back["provenance"]["ruleset_fingerprint"] == CAL.fingerprint()
    assert back["provenance"]["command"] == "simlib train-policy"
    assert 'source = "fit"' in path.read_text()


def test_a_broken_weights_file_makes_the_name_an_error_that_says_why(tmp_path, monkeypatch):
    bad = tmp_path / "distilled.toml"
    bad.write_text("[params]\ngap = 1\n")
    monkeypatch.setattr(PP, "distilled_path", lambda: bad)
    try:
        PP._register_distilled()
        with pytest.raises(ValueError, match=r"distilled' is not available: .*distilled.toml"):
            PP.resolve_policy("distilled")
    finally:
        monkeypatch.undo()
        PP._register_distilled()
    assert "distilled" in PP.POLICIES


def test_the_weights_are_refused_on_another_ruleset_unless_asked(tmp_path, monkeypatch):
    """Weights fitted on one ruleset are refused on another (the message names the file
    and says how to override); ``any_ruleset=1`` plays them anyway."""
    from simlib.games.until_daylight.distil import write_distilled

    path = write_distilled(_fake_result(CAL.fingerprint()), tmp_path / "distilled.toml")
    monkeypatch.setattr(PP, "distilled_path", lambda: path)
    try:
        PP._register_distilled()
        play_games(5, players=4, seed=1, policy="distilled", ruleset=CAL)
        with pytest.raises(ValueError, match=r"distilled.toml.*fitted on the ruleset.*any_ruleset=1"):
            play_games(5, players=4, seed=1, policy="distilled", ruleset=LIGHT)
        rec = play_games(5, players=4, seed=1, policy="distilled",
                         policy_params={"any_ruleset": 1}, ruleset=LIGHT)
        assert len(rec) == 5
    finally:
        monkeypatch.undo()
        PP._register_distilled()


# --------------------------------------------------------------------------- training
def test_training_is_reproducible_from_its_seed():
    """A tiny run twice: the same weights, agreement and check; another seed, other data."""
    from simlib.games.until_daylight.distil import train_distilled

    kw = dict(ruleset=LIGHT, games=3, heldout=1, teacher="rollout-100", horizon=1,
              check_games=200, tune_games=300, threads=2)  # tuning: 6 thresholds x 300 games
    a = train_distilled(seed=4, **kw)
    b = train_distilled(seed=4, **kw)
    c = train_distilled(seed=5, **kw)
    assert a.training["train_decisions"] > 0
    assert a.params == b.params and a.training == {**b.training, "teacher_seconds":
                                                   a.training["teacher_seconds"], "fit_seconds":
                                                   a.training["fit_seconds"]}
    assert a.check["wins_distilled"] == b.check["wins_distilled"]
    assert a.params != c.params
    assert a.settings["ruleset_fingerprint"] == LIGHT.fingerprint()
