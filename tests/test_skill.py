"""Skill versus luck (simlib.core.skill): a toy game simulated in numpy whose skill share
is known in closed form, then the command on the real games with tiny game counts."""
from __future__ import annotations

import re

import numpy as np
import pytest

from simlib.core.skill import (PARTS, bootstrap_patterns, k_index, kn_index,
                               share_from_outcomes, split_from_outcomes)

# The toy: each game has a hidden difficulty u ~ U(0, 1); a rung of strength s wins iff
# u < s.  Floor 0.1, realistic 0.4, bound 0.7: the parts are 0.1, 0.3, 0.3, 0.3 and
# K = (0.4 - 0.1) / (0.7 - 0.1) = 0.5 exactly.
A, B, C = 0.1, 0.4, 0.7
K_TRUE = (B - A) / (C - A)


def _toy(n: int, rng):
    u = rng.random(n)
    return u < A, u < B, u < C


def test_toy_estimates_the_closed_form():
    n = 20_000
    r, b, c = _toy(n, np.random.default_rng(0))
    t = split_from_outcomes(r, b, c, bootstrap=2000, seed=1)
    want = {"won by anyone": A, "decided by play": B - A, "decided by information": C - B,
            "lost even with foresight": 1 - C}
    for q, v in want.items():
        row = t.loc[(q, "all")]
        se = np.sqrt(v * (1 - v) / n)  # a part is a binomial share
        assert abs(row["estimate"] - v) < 4 * se, (q, row.to_dict())
        # the bootstrap interval has the closed-form binomial width
        assert (row["ci_high"] - row["ci_low"]) / (2 * 1.96) == pytest.approx(se, rel=0.1)
    # K's standard error by the delta method on the multinomial of the three bands
    # (x = realistic - floor, y = bound - floor; K = x / y)
    x, y = B - A, C - A
    var_x, var_y, cov = x * (1 - x) / n, y * (1 - y) / n, x * (1 - y) / n
    se_k = np.sqrt((var_x - 2 * K_TRUE * cov + K_TRUE ** 2 * var_y)) / y
    row = t.loc[("K", "all")]
    assert abs(row["estimate"] - K_TRUE) < 4 * se_k
    assert (row["ci_high"] - row["ci_low"]) / (2 * 1.96) == pytest.approx(se_k, rel=0.1)
    # the estimates are the sample's own fractions
    assert t.loc[("decided by play", "all"), "estimate"] == pytest.approx((b & ~r).mean())
    assert row["estimate"] == pytest.approx((b.mean() - r.mean()) / (c.mean() - r.mean()))
    parts = sum(t.loc[(q, "all"), "estimate"] for q in PARTS)
    assert parts == pytest.approx(1.0)


def test_toy_interval_covers_k_at_its_level():
    """Over 120 independent toy studies of 400 games, the 90 % interval of K covers the
    true K about 90 % of the time (binomial bounds on 120 trials)."""
    rng = np.random.default_rng(7)
    hits = 0
    reps = 120
    for i in range(reps):
        r, b, c = _toy(400, rng)
        t = split_from_outcomes(r, b, c, bootstrap=1000, confidence=0.90, seed=i)
        row = t.loc[("K", "all")]
        hits += row["ci_low"] <= K_TRUE <= row["ci_high"]
    assert 0.82 * reps <= hits <= 0.97 * reps, hits


def test_paired_bootstrap_is_a_resample_of_games():
    """The multinomial over outcome patterns equals drawing game indices: same mean and
    spread of the floor's win rate as an index bootstrap, and exact on a constant."""
    rng = np.random.default_rng(3)
    x = (rng.random(500) < 0.3).astype(np.int64)
    mult = bootstrap_patterns(x[:, None], lambda cnt, lab: cnt @ lab[:, 0] / cnt.sum(-1), 4000, 5)
    idx = rng.integers(0, 500, (4000, 500))
    direct = x[idx].mean(1)
    assert mult.mean() == pytest.approx(direct.mean(), abs=0.003)
    assert mult.std() == pytest.approx(direct.std(), rel=0.08)
    const = bootstrap_patterns(np.ones((50, 1)), lambda cnt, lab: cnt @ lab[:, 0] / cnt.sum(-1), 10, 0)
    assert (const == 1).all()


def test_k_and_kn_by_hand():
    assert k_index(0.1, 0.4, 0.7) == pytest.approx(0.5)
    assert np.isnan(k_index(0.2, 0.3, 0.2))
    # n = 4: a share of 1/4 is fair (K_n = 0), a share of 1 is 1
    assert kn_index(np.full(10, 0.25), np.full(10, 4)) == pytest.approx(0.0)
    assert kn_index(np.ones(10), np.full(10, 4)) == pytest.approx(1.0)


def test_competitive_toy_kn():
    """The focal seat wins alone with probability q, else a field seat wins: its expected
    share is q and K_n = (q - 1/n) / (1 - 1/n)."""
    rng = np.random.default_rng(2)
    n_games, q = 20_000, 0.55
    players = rng.choice([3, 5], n_games)
    share = (rng.random(n_games) < q).astype(float)
    t = share_from_outcomes({"good": share}, players, bootstrap=400, seed=0)
    for p in (3, 5):
        row = t.loc[("K_n good", p)]
        want = (q - 1 / p) / (1 - 1 / p)
        assert row["ci_low"] <= want <= row["ci_high"]
    pooled = np.sum(q - 1 / players) / np.sum(1 - 1 / players)
    row = t.loc[("K_n good", "all")]
    assert row["ci_low"] <= pooled <= row["ci_high"]


def test_skill_command_till_dawn(capsys):
    from simlib.cli import main

    assert main(["skill", "--game", "till-dawn", "--players", "3", "--games", "300",
                 "--bootstrap", "100", "--ladder", "random,threshold"]) == 0
    out = capsys.readouterr().out
    assert "K_n threshold" in out and "tie %" in out
    # the metrics print as every rate does: percent, one decimal (not a fraction "0.211")
    row = next(ln for ln in out.split("tie %", 1)[1].splitlines() if ln.startswith("3 "))
    spread, tie = row.split()[2], row.split()[-1]
    assert re.fullmatch(r"\d+\.\d", spread) and re.fullmatch(r"(\d+\.\d|<0\.1)", tie), row


def test_skill_same_rung_twice_gives_k_one():
    """With the realistic player as its own bound, nothing is decided by information and
    K is 1 whenever the player beats the floor: the rungs play the same games."""
    import simlib

    res = simlib.skill("until_daylight", games=120, players=4, ruleset="reference",
                       ladder=["random", "baseline", "baseline"], bootstrap=100)
    t = res.table
    assert t.loc[("decided by information", "all"), "estimate"] == 0
    if t.loc[("realistic win rate", "all"), "estimate"] > t.loc[("floor win rate", "all"), "estimate"]:
        assert res.K == pytest.approx(1.0)


def test_skill_bad_input(capsys):
    from simlib.cli import main

    assert main(["skill", "--games", "0"]) == 2
    assert main(["skill", "--ladder", "random,nobody,clairvoyant", "--games", "5"]) == 2
    err = capsys.readouterr().err
    assert "nobody" in err


# =========================================================================== proper intervals
Z95 = 1.959963984540054


def _wilson_by_hand(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval, written out (Wilson 1927): the oracle of the tests below."""
    centre = (k + z * z / 2) / (n + z * z)
    half = z / (n + z * z) * np.sqrt(k * (n - k) / n + z * z / 4)
    return max(0.0, centre - half), min(1.0, centre + half)


def test_a_floor_of_zero_wins_has_a_wilson_interval_not_a_point():
    """0 wins in 200 games: [0, 1.9 %], not the bootstrap's [0, 0]; every rate and part is
    Wilson's interval of its count."""
    n = 200
    rng = np.random.default_rng(4)
    floor = np.zeros(n, bool)
    realistic = rng.random(n) < 0.2
    bound = realistic | (rng.random(n) < 0.3)
    t = split_from_outcomes(floor, realistic, bound, bootstrap=200, seed=0)
    row = t.loc[("floor win rate", "all")]
    assert row["estimate"] == 0.0 and row["ci_low"] == 0.0
    assert row["ci_high"] == pytest.approx(Z95 ** 2 / (n + Z95 ** 2), rel=1e-9)
    assert row["ci_high"] == pytest.approx(0.0188, abs=5e-4)
    counts = {"realistic win rate": realistic.sum(), "bound win rate": bound.sum(),
              "won by anyone": 0, "decided by play": realistic.sum(),
              "decided by information": (bound & ~realistic).sum(),
              "lost even with foresight": (~bound).sum()}
    for q, k in counts.items():
        lo, hi = _wilson_by_hand(int(k), n)
        assert t.loc[(q, "all"), "ci_low"] == pytest.approx(lo, abs=1e-12), q
        assert t.loc[(q, "all"), "ci_high"] == pytest.approx(hi, abs=1e-12), q


def test_a_competitive_win_share_is_wilson_and_kn_its_affine_image():
    rng = np.random.default_rng(5)
    players = np.array([3] * 150 + [4] * 50)
    share = (rng.random(200) < 0.45).astype(float)
    t = share_from_outcomes({"good": share, "never": np.zeros(200)}, players, bootstrap=50)
    lo, hi = _wilson_by_hand(int(share.sum()), 200)
    row = t.loc[("good win share", "all")]
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((lo, hi), abs=1e-12)
    fair = 150 / 3 + 50 / 4
    kn = t.loc[("K_n good", "all")]
    assert kn["ci_low"] == pytest.approx((lo * 200 - fair) / (200 - fair), abs=1e-12)
    assert kn["ci_high"] == pytest.approx((hi * 200 - fair) / (200 - fair), abs=1e-12)
    never = t.loc[("never win share", "all")]
    assert never["ci_low"] == 0.0
    assert never["ci_high"] == pytest.approx(_wilson_by_hand(0, 200)[1], abs=1e-12)
    assert never["ci_high"] > 0.018


def test_a_paired_difference_of_zero_rates_is_not_a_point():
    """Two rulesets whose floor never wins: B - A of the floor's rate is Newcombe's
    [-u, u] (u the Wilson upper bound of 0 of n: no discordant game, no correlation term),
    not [0, 0]."""
    from simlib.core.skill import SkillResult, _paired_closed_form

    n = 200
    rng = np.random.default_rng(6)

    def result(p):
        wins = {"floor": np.zeros(n, bool), "realistic": rng.random(n) < p,
                "bound": rng.random(n) < 0.9}
        return SkillResult("g", "cooperative", "r", {}, n, 0, 0.95, None, None,
                           per_game={"wins": wins, "players": None})

    out = _paired_closed_form(result(0.2), result(0.3), [], 0.95)
    u = _wilson_by_hand(0, n)[1]
    assert out[0] == pytest.approx((-u, u), abs=1e-12)
