"""Character and strategy effects (simlib.core.effects) on synthetic games with planted
effects: the oracles are the planted values and identities derived by hand, not the code."""
from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pandas as pd
import pytest

from simlib.core.effects import (competitive_effects, cooperative_effects, effects, holm,
                                 pair_synergy, swap_gaps, team_cells)
from simlib.core.tables import TableSpec, count_records

CHARS = ("a", "b", "c", "d", "e", "f")
BETA = np.array([0.6, 0.3, 0.0, -0.1, -0.3, -0.5])  # planted, sums to zero
ALPHA = {3: -0.5, 4: -0.7, 5: -0.9}


def _expit(x):
    return 1 / (1 + np.exp(-x))


def _cells(games_per_team: int, seed: int, players=(3, 4, 5), synergy=None) -> pd.DataFrame:
    """Every team of each player count played ``games_per_team`` times; the team wins with
    probability expit(alpha_p + sum of its members' planted effects [+ pair terms])."""
    rng = np.random.default_rng(seed)
    rows = []
    for p in players:
        for t in itertools.combinations(range(6), p):
            eta = ALPHA.get(p, -1.0) + BETA[list(t)].sum()
            if synergy:
                eta += sum(v for (x, y), v in synergy.items() if x in t and y in t)
            rows.append((p, tuple(CHARS[i] for i in t), games_per_team,
                         int(rng.binomial(games_per_team, _expit(eta)))))
    return pd.DataFrame(rows, columns=["players", "team", "games", "wins"])


def test_glm_recovers_planted_effects():
    eff = cooperative_effects(_cells(3000, seed=11))
    for p in (3, 4, 5, "all"):
        t = eff.loc[p].loc[list(CHARS)]
        assert t["identified"].all()
        err = np.abs(t["log_odds"].to_numpy() - BETA)
        assert (err < 4 * t["se"].to_numpy()).all(), (p, err)
        assert err.max() < 0.12
        # the interval of the odds ratio covers the planted one for (nearly) every character
        cover = (t["or_low"] <= np.exp(BETA)) & (np.exp(BETA) <= t["or_high"])
        assert cover.sum() >= 5
        # win points against the average character: same sign and order as the planted effects
        assert list(t["effect_points"].sort_values().index) == list(np.array(CHARS)[np.argsort(BETA)])


def test_six_of_six_is_not_identified():
    cells = _cells(500, seed=1, players=(5, 6))
    eff = cooperative_effects(cells)
    six = eff.loc[6]
    assert not six["identified"].any()
    assert six["effect_points"].isna().all()
    assert "every team is the same" in six["note"].iloc[0]
    assert eff.loc[5]["identified"].all()


def test_win_points_match_the_planted_model():
    """Win points against the average character, computed by hand from the planted logits."""
    cells = _cells(200_000, seed=5, players=(3,))
    eff = cooperative_effects(cells).loc[3]
    for i, c in enumerate(CHARS):
        teams = [t for t in itertools.combinations(range(6), 3) if i in t]
        want = np.mean([_expit(ALPHA[3] + BETA[list(t)].sum())
                        - _expit(ALPHA[3] + BETA[list(t)].sum() - BETA[i]) for t in teams])
        assert eff.loc[c, "effect_points"] == pytest.approx(100 * want, abs=0.35)


@pytest.mark.parametrize("p", [3, 4, 5])
def test_raw_gap_is_a_fraction_of_the_swap_gap(p):
    """With every team played equally often, raw rate(a) - raw rate(b) equals
    (6 - p) / 5 times the mean swap gap of a for b (exact on the data, not only in
    expectation)."""
    cells = _cells(700, seed=3 + p, players=(p,))
    gaps = swap_gaps(cells).loc[p]
    raw = {}
    for c in CHARS:
        sub = cells[[c in t for t in cells["team"]]]
        raw[c] = sub["wins"].sum() / sub["games"].sum()
    for a, b in itertools.permutations(CHARS, 2):
        g = gaps.loc[(a, b)]
        assert g["matched_teams"] == comb(4, p - 1)
        assert 100 * (raw[a] - raw[b]) == pytest.approx((6 - p) / 5 * g["gap_points"], abs=1e-9)
    # the per-character swap points are the mean gap against the others, over 6
    eff = cooperative_effects(cells).loc[p]
    for a in CHARS:
        want = sum(gaps.loc[(a, b), "gap_points"] for b in CHARS if b != a) / 6
        assert eff.loc[a, "swap_points"] == pytest.approx(want, abs=1e-9)


def _records(n: int, seed: int) -> tuple[pd.DataFrame, TableSpec]:
    """Per-game rows of a toy co-operative game: a random team of 3-5, planted effects."""
    rng = np.random.default_rng(seed)
    players = rng.integers(3, 6, n)
    cols = {f"character_{s}": np.full(n, None, dtype=object) for s in range(6)}
    teams, win = [], np.zeros(n, bool)
    for i in range(n):
        t = np.sort(rng.choice(6, players[i], replace=False))
        for s, c in enumerate(rng.permutation(t)):
            cols[f"character_{s}"][i] = CHARS[c]
        teams.append("+".join(CHARS[c] for c in t))
        win[i] = rng.random() < _expit(ALPHA[int(players[i])] + BETA[t].sum())
    df = pd.DataFrame({"players": players, "win": win, **cols, "team": teams})
    spec = TableSpec(groupings=(("overall", ()), ("players", ("players",)),
                                ("character", ("character",)), ("team", ("team",))),
                     members=tuple(f"character_{s}" for s in range(6)), member="character")
    return df, spec


def test_counts_fit_equals_per_game_fit():
    """The aggregated binomial fit from the study's counts gives the estimates and standard
    errors of a Bernoulli GLM on one row per game (design built here, independently)."""
    import statsmodels.api as sm

    df, spec = _records(6000, seed=2)
    counts = count_records(df, spec)
    from_counts = cooperative_effects(team_cells(counts))
    from_records = cooperative_effects(team_cells((df, spec)))
    pd.testing.assert_frame_equal(from_counts, from_records)
    for p in (3, 4, 5):
        sub = df[df["players"] == p]
        x = np.zeros((len(sub), 6))
        for j, c in enumerate(CHARS):
            x[:, j] = (sub[[f"character_{s}" for s in range(6)]] == c).any(axis=1)
        design = np.column_stack([np.ones(len(sub)), x[:, :5] - x[:, [5]]])
        fit = sm.GLM(sub["win"].to_numpy(float), design, family=sm.families.Binomial()).fit()
        b = np.append(fit.params[1:], -fit.params[1:].sum())
        got = from_counts.loc[p].loc[list(CHARS)]
        np.testing.assert_allclose(got["log_odds"].to_numpy(), b, atol=1e-7)
        np.testing.assert_allclose(got["se"].iloc[:5].to_numpy(), fit.bse[1:], rtol=1e-5)


def test_pair_synergy_planted_and_absent():
    pairs, tests = pair_synergy(_cells(3000, seed=8, synergy={(0, 1): 0.8}))
    assert tests.loc[3, "p_value"] < 1e-6 and tests.loc[3, "df"] == 9
    assert tests.loc[4, "df"] == 9
    assert tests.loc[5, "df"] == 0  # teams of five of six: one missing, no pair term identified
    top = pairs.loc[3].sort_values("p_holm").index[0]
    assert top == ("a", "b")
    assert pairs.loc[(3, "a", "b"), "synergy"] > 0.3
    _, none = pair_synergy(_cells(3000, seed=9))
    assert none.loc[3, "p_value"] > 0.001 and none.loc[4, "p_value"] > 0.001


def test_holm_by_hand():
    got = holm(np.array([0.01, 0.04, 0.03, np.nan, 0.005]))
    np.testing.assert_allclose(got[[4, 0, 2, 1]], [0.02, 0.03, 0.06, 0.06])
    assert np.isnan(got[3])


def test_competitive_effects_hold_table_and_seat_fixed():
    """Seats win independently with logit = table-seat term + strategy + character; the
    table composition correlates with strategy, so raw rates mislead but the fit does not."""
    rng = np.random.default_rng(4)
    strat_eff = {"x": 0.7, "y": 0.0, "z": -0.7}
    char_eff = dict(zip(CHARS, BETA))
    tables = [("x", "y", "y"), ("x", "z", "z"), ("y", "z", "z", "z")]
    table_level = [-1.5, 0.8, -0.2]
    n = 9000
    rows = []
    for i in range(n):
        w = i % 3
        tab = list(tables[w])
        rot = (i // 3) % len(tab)
        tab = tab[rot:] + tab[:rot]
        chars = rng.choice(CHARS, len(tab), replace=False)
        r = {"players": len(tab)}
        for s in range(4):
            if s < len(tab):
                eta = table_level[w] + 0.2 * s + strat_eff[tab[s]] + char_eff[chars[s]]
                r.update({f"character_{s}": chars[s], f"strategy_{s}": tab[s],
                          f"win_{s}": bool(rng.random() < _expit(eta))})
            else:
                r.update({f"character_{s}": None, f"strategy_{s}": None, f"win_{s}": None})
        r["tie"] = False
        rows.append(r)
    df = pd.DataFrame(rows)
    spec = TableSpec(groupings=(("overall", ()), ("strategy", ("strategy",))), outcome="tie",
                     members=tuple(f"character_{s}" for s in range(4)), member="character",
                     member_attrs=(("seat", ()), ("strategy", tuple(f"strategy_{s}" for s in range(4)))),
                     member_outcomes=tuple(f"win_{s}" for s in range(4)))
    out = competitive_effects((df, spec))
    st = out["strategy_effects"]
    np.testing.assert_allclose(st.loc[["x", "y", "z"], "log_odds"], [0.7, 0.0, -0.7], atol=0.12)
    assert (st["held_fixed"] == "table composition and seat").all()
    ch = out["character_effects"]
    np.testing.assert_allclose(ch.loc[list(CHARS), "log_odds"], BETA, atol=0.15)
    # the whole-result entry point picks the competitive branch from the spec
    assert effects((df, spec)).kind == "competitive"


def test_one_strategy_everywhere_is_not_identified():
    rng = np.random.default_rng(0)
    n = 600
    df = pd.DataFrame({"players": 3, "tie": False,
                       **{f"character_{s}": rng.choice(CHARS[:3], n) for s in range(3)},
                       **{f"strategy_{s}": "only" for s in range(3)},
                       **{f"win_{s}": rng.random(n) < 0.4 for s in range(3)}})
    spec = TableSpec(groupings=(("overall", ()),), outcome="tie",
                     members=tuple(f"character_{s}" for s in range(3)), member="character",
                     member_attrs=(("seat", ()), ("strategy", tuple(f"strategy_{s}" for s in range(3)))),
                     member_outcomes=tuple(f"win_{s}" for s in range(3)))
    st = competitive_effects((df, spec))["strategy_effects"]
    assert not st["identified"].any() and "one strategy" in st["note"].iloc[0]
