"""Game-agnostic statistics of the instruments: Newcombe's paired interval, McNemar, the
unpaired-equivalent game count, Robbins' confidence sequence (coverage by simulation) and
the calibration root finders on synthetic monotone curves.  No game is played here."""
import numpy as np
import pytest
from scipy.stats import binomtest

from simlib.core.calibrate import CalibrationError, calibrate_integer, calibrate_real
from simlib.core.paired import (mcnemar_exact, newcombe_paired_interval, paired_counts,
                                paired_summary, unpaired_equivalent_games)
from simlib.core.sequential import beta_binomial_cs, log_mixture_martingale
from simlib.core.stats import wilson_interval


# =========================================================================== Newcombe
def test_newcombe_published_example_a():
    # Newcombe (1998), "Improved confidence intervals for the difference between binomial
    # proportions based on paired data", Stat Med 17:2635-2650, Table II, example (a):
    # e = 36, f = 12, g = 2, h = 0 (n = 50): difference +0.2000, method 10: +0.0569 to +0.3404
    d, lo, hi = newcombe_paired_interval(36, 12, 2, 0)
    assert float(d) == pytest.approx(0.2, abs=1e-12)
    assert round(float(lo), 4) == 0.0569
    assert round(float(hi), 4) == 0.3404


def test_newcombe_published_example_cavo():
    # Fagerland, Lydersen & Laake, "Statistical Analysis of Contingency Tables" (2017),
    # chapter 8, complete response before/after consolidation therapy (Cavo et al. 2012):
    # table [[59, 6], [16, 80]]: -0.0621 (95 % CI -0.1186 to -0.0046), Newcombe square-and-add
    d, lo, hi = newcombe_paired_interval(59, 6, 16, 80)
    assert round(float(d), 4) == -0.0621
    assert round(float(lo), 4) == -0.1186
    assert round(float(hi), 4) == -0.0046


def test_newcombe_vectorized_and_symmetric():
    t = np.array([[36, 12, 2, 0], [59, 6, 16, 80], [10, 3, 3, 4], [0, 0, 0, 0]])
    d, lo, hi = newcombe_paired_interval(t[:, 0], t[:, 1], t[:, 2], t[:, 3])
    assert np.isnan(d[3]) and np.isnan(lo[3])
    # swapping the variants mirrors the interval
    d2, lo2, hi2 = newcombe_paired_interval(t[:3, 0], t[:3, 2], t[:3, 1], t[:3, 3])
    np.testing.assert_allclose(d2, -d[:3])
    np.testing.assert_allclose(lo2, -hi[:3])
    np.testing.assert_allclose(hi2, -lo[:3])
    assert lo[2] < 0 < hi[2] and d[2] == 0


def test_paired_counts_and_summary():
    wa = np.array([1, 1, 0, 0, 1, 0], bool)
    wb = np.array([1, 0, 1, 0, 0, 0], bool)
    assert paired_counts(wa, wb).tolist() == [1, 2, 1, 2]
    g = np.array([0, 0, 0, 1, 1, 1])
    assert paired_counts(wa, wb, g, 2).tolist() == [[1, 1, 1, 0], [0, 1, 0, 2]]
    s = paired_summary([[36, 12, 2, 0]])
    assert s.loc[0, "games"] == 50 and s.loc[0, "discordant_share"] == pytest.approx(14 / 50)


def test_paired_summary_reports_b_minus_a():
    """One sign everywhere: the summary's difference is B - A (changed minus base), with
    Newcombe's interval of the published example mirrored: example (a) has A = 48/50 and
    B = 38/50 (p_A - p_B = +0.2000, [+0.0569, +0.3404]), so B - A is -0.2000 in
    [-0.3404, -0.0569]."""
    s = paired_summary([[36, 12, 2, 0]]).iloc[0]
    assert s["rate_a"] == pytest.approx(48 / 50) and s["rate_b"] == pytest.approx(38 / 50)
    assert s["diff"] == pytest.approx(-0.2, abs=1e-12)
    assert round(float(s["diff_low"]), 4) == -0.3404
    assert round(float(s["diff_high"]), 4) == -0.0569


def test_mcnemar_exact_is_the_binomial_test_of_the_discordant_games():
    for b, c in [(12, 2), (6, 16), (0, 5), (7, 7), (30, 41)]:
        assert mcnemar_exact(b, c) == pytest.approx(binomtest(b, b + c, 0.5).pvalue, rel=1e-9)
    assert mcnemar_exact(0, 0) == 1.0


def test_unpaired_equivalent_games():
    # 1000 games, p_A = 0.3, p_B = 0.25, 60 discordant: variance ratio by hand
    a, b, c, d = 220, 80, 30, 670
    n = 1000
    pa, pb = 0.3, 0.25
    want = np.ceil(n * (pa * (1 - pa) + pb * (1 - pb)) / ((b + c) / n - ((b - c) / n) ** 2))
    assert unpaired_equivalent_games(a, b, c, d) == want
    assert unpaired_equivalent_games(10, 0, 0, 5) == np.inf  # identical variants
    assert np.isnan(unpaired_equivalent_games(0, 0, 0, 7))  # nothing ever wins


# =========================================================================== sequences
def test_confidence_sequence_is_an_interval_around_the_estimate():
    s, t = np.array([0, 3, 300, 3000, 50]), np.array([0, 10, 1000, 10000, 50])
    lo, hi = beta_binomial_cs(s, t)
    assert lo[0] == 0 and hi[0] == 1
    assert hi[4] == 1.0 and lo[4] > 0.8  # all won
    wl, wh = wilson_interval(s[1:4], t[1:4])
    assert np.all(lo[1:4] < wl) and np.all(hi[1:4] > wh)  # anytime validity costs width
    level = np.log(1 / 0.05)
    inside = log_mixture_martingale(np.array([0.3]), 3000, 10000) < level
    assert inside[0]
    # the bounds are the boundary of {p : M_t(p) < 1/alpha}
    m = log_mixture_martingale(np.array([lo[3] - 1e-6, hi[3] + 1e-6]), 3000, 10000)
    assert np.all(m >= level)


@pytest.mark.parametrize("p", [0.05, 0.3, 0.5])
def test_confidence_sequence_coverage_under_continuous_monitoring(p):
    """Look after every 50 games up to 5 000: the fraction of runs whose sequence ever
    excludes the true rate must stay below 5 % (fixed seed: deterministic)."""
    reps, looks, step = 400, 100, 50
    rng = np.random.default_rng(20261130 + int(1000 * p))
    wins = rng.binomial(step, p, size=(reps, looks)).cumsum(axis=1)
    games = np.broadcast_to(step * np.arange(1, looks + 1), wins.shape)
    lo, hi = beta_binomial_cs(wins, games)
    ever_missed = ((lo > p) | (hi < p)).any(axis=1)
    coverage = 1 - ever_missed.mean()
    assert coverage >= 0.95, coverage
    # and the naive repeated Wilson interval does not keep that promise (why we need it)
    wl, wh = wilson_interval(wins, games)
    naive = 1 - ((wl > p) | (wh < p)).any(axis=1).mean()
    assert naive < coverage


# =========================================================================== calibration
def _curve(rate_of):
    """Synthetic game: game i is won at value v when u_i < rate_of(v), u_i fixed per game
    (common random numbers, like the real seeds)."""
    u = np.random.default_rng(7).random(1_000_000)

    def evaluate(v, start, count):
        return int((u[start:start + count] < rate_of(v)).sum()), count

    return evaluate


def test_integer_calibration_finds_the_root_of_a_monotone_curve():
    res = calibrate_integer(_curve(lambda v: v / 100), 0, 100, 0.30, tolerance=0.005, n0=1000)
    assert abs(res.value - 30) <= 1
    assert (res.ci_high - res.ci_low) / 2 <= 0.005 and res.converged
    assert res.tried["stage"].max() >= 1  # grew the games
    # a decreasing curve works the same way
    res = calibrate_integer(_curve(lambda v: 1 - v / 100), 0, 100, 0.30, tolerance=0.01)
    assert abs(res.value - 70) <= 1


def test_real_calibration_finds_the_root_with_brentq():
    res = calibrate_real(_curve(lambda x: x ** 2), 0.0, 1.0, 0.25, games=200_000)
    assert res.value == pytest.approx(0.5, abs=0.01)
    assert res.ci_low <= 0.25 <= res.ci_high


def test_unreachable_target_names_both_ends():
    with pytest.raises(CalibrationError, match=r"0\.900 is out of reach on \[0, 40\].*0\.1030 at 0 and 0\.5020 at 40"):
        calibrate_integer(_curve(lambda v: 0.1 + v / 100), 0, 40, 0.9, n0=1000)
    with pytest.raises(CalibrationError, match="strictly between 0 and 1"):
        calibrate_integer(_curve(lambda v: v / 100), 0, 40, 1.2)
    with pytest.raises(CalibrationError, match="empty range"):
        calibrate_integer(_curve(lambda v: v / 100), 5, 5, 0.3)
