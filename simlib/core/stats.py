"""Confidence intervals for rates estimated by simulation (game-agnostic).

Every rate simlib prints comes with an interval: a win rate of 3 % from 200 games and
from 200 000 games are different findings.  The Wilson score interval is used because
it stays inside [0, 1] and behaves well at rates near 0 or 1, where the normal
("Wald") interval collapses to a point.

Array convention: ``k`` (successes) and ``n`` (trials) are integer arrays of one shape
(scalars broadcast); results are float64 arrays of that shape, NaN where ``n == 0``.
"""
from __future__ import annotations

import numpy as np
from scipy.special import ndtri

__all__ = ["wilson_interval", "rate_columns"]


def wilson_interval(k, n, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Two-sided Wilson score interval of a binomial proportion (no continuity correction).

    Equals ``scipy.stats.binomtest(k, n).proportion_ci(confidence, method="wilson")``
    element by element (same formula, Newcombe 1998), vectorized.

    Parameters
    ----------
    k : array_like of int
        Successes, ``0 <= k <= n``.
    n : array_like of int
        Trials, ``n >= 0``.
    confidence : float
        Confidence level in (0, 1).

    Returns
    -------
    low, high : numpy.ndarray of float64, broadcast shape of ``k`` and ``n``
        Interval bounds; NaN where ``n == 0``.
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1); got {confidence}")
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    if np.any(n < 0) or np.any(k < 0) or np.any(k > n):
        raise ValueError("need 0 <= k <= n for every rate")
    z = ndtri(0.5 + 0.5 * confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        q = 1.0 - p
        denom = 2.0 * (n + z * z)
        center = (2.0 * n * p + z * z) / denom
        delta = z / denom * np.sqrt(4.0 * n * p * q + z * z)
        low = np.where(k == 0, 0.0, center - delta)
        high = np.where(k == n, 1.0, center + delta)
    empty = n == 0
    low = np.where(empty, np.nan, low)
    high = np.where(empty, np.nan, high)
    return low, high


def rate_columns(k, n, confidence: float = 0.95) -> dict[str, np.ndarray]:
    """``rate``, ``ci_low`` and ``ci_high`` columns for counts ``k`` out of ``n``.

    Returns
    -------
    dict of str to numpy.ndarray of float64
        ``rate = k / n`` (NaN where ``n == 0``) and the Wilson interval bounds.
    """
    k = np.asarray(k, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    low, high = wilson_interval(k, n, confidence)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(n > 0, k / np.where(n > 0, n, 1.0), np.nan)
    return {"rate": rate, "ci_low": low, "ci_high": high}
