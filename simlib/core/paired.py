"""Paired comparisons of two win rates measured on the same games (game-agnostic).

Two variants (rulesets, policies) played on the same seeds give, per game, a pair of
outcomes.  Over ``n`` games the pairs form a 2 x 2 table::

                  B won   B lost
        A won       a       b
        A lost      c       d

The rates are ``p_A = (a + b) / n`` and ``p_B = (a + c) / n``; their difference
``p_B - p_A = (c - b) / n`` depends only on the *discordant* games (``b + c``), which is
why common random numbers make comparisons sharp: when most games end the same way in
both variants, the difference is known far better than either rate.

Sign: simlib reports **B − A, "changed minus base"** everywhere (``simlib compare``,
:func:`simlib.compare`, the what-if page, ``simlib skill --compare``): A is the base, B
the changed variant, and a positive difference means the change raised the rate.
:func:`newcombe_paired_interval` keeps the paper's ``p_A - p_B`` of its arguments (its
tests are the published examples); swapping ``b`` and ``c`` gives ``p_B - p_A``.

* :func:`newcombe_paired_interval` — Newcombe's score-based square-and-add interval for
  the paired difference (method 10 of Newcombe, R. G. (1998), "Improved confidence
  intervals for the difference between binomial proportions based on paired data",
  *Statistics in Medicine* 17: 2635-2650), vectorized.  statsmodels has no paired
  interval, so it is written here and tested against the published worked examples.
* :func:`mcnemar_exact` — McNemar's exact test (statsmodels), per row.
* :func:`unpaired_equivalent_games` — how many games *per variant* two independent runs
  would need for the same precision of the difference.
* :func:`paired_summary` — all of the above as the columns of one tidy frame, the
  difference as B − A.

Array convention: ``a, b, c, d`` are integer arrays of one shape (scalars broadcast);
results are float64 arrays of that shape (NaN where ``n == 0``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.special import ndtri

from .stats import wilson_interval

__all__ = ["paired_counts", "newcombe_paired_interval", "mcnemar_exact",
           "unpaired_equivalent_games", "paired_summary"]


def paired_counts(win_a, win_b, groups=None, n_groups: int | None = None) -> np.ndarray:
    """The 2 x 2 paired table of two boolean outcome vectors, optionally per group.

    Parameters
    ----------
    win_a, win_b : array_like of bool, shape (n,)
        Outcome of each game under variant A and under variant B (same games).
    groups : array_like of int, shape (n,), optional
        Group id ``0 .. n_groups - 1`` of each game (e.g. player count index).
    n_groups : int, optional
        Number of groups (default ``groups.max() + 1``).

    Returns
    -------
    numpy.ndarray of int64, shape (4,) or (n_groups, 4)
        Columns ``a`` (both won), ``b`` (only A won), ``c`` (only B won), ``d`` (neither).
    """
    wa = np.asarray(win_a, dtype=bool)
    wb = np.asarray(win_b, dtype=bool)
    if wa.shape != wb.shape:
        raise ValueError(f"outcome vectors differ in shape: {wa.shape} vs {wb.shape}")
    cell = np.where(wa, np.where(wb, 0, 1), np.where(wb, 2, 3)).astype(np.int64)
    if groups is None:
        return np.bincount(cell, minlength=4).astype(np.int64)
    g = np.asarray(groups, dtype=np.int64)
    k = int(g.max()) + 1 if n_groups is None else int(n_groups)
    flat = np.bincount(g * 4 + cell, minlength=4 * k)
    return flat.reshape(k, 4).astype(np.int64)


def newcombe_paired_interval(a, b, c, d, confidence: float = 0.95):
    """Newcombe's paired score interval (1998, method 10) for ``p_A - p_B``.

    The Wilson score intervals ``(l1, u1)`` of ``p_A`` and ``(l2, u2)`` of ``p_B`` are
    combined with the correlation of the pairs::

        L = D - sqrt((p_A - l1)^2 - 2 phi (p_A - l1)(u2 - p_B) + (u2 - p_B)^2)
        U = D + sqrt((p_B - l2)^2 - 2 phi (p_B - l2)(u1 - p_A) + (u1 - p_A)^2)

    with ``phi = C / sqrt((a+b)(c+d)(a+c)(b+d))`` where ``C = ad - bc - n/2`` if
    ``ad - bc > n/2``, ``0`` if ``0 <= ad - bc <= n/2``, ``ad - bc`` if negative, and
    ``phi = 0`` when a margin is empty (Newcombe's definition).

    Parameters
    ----------
    a, b, c, d : array_like of int
        Cells of the paired table (see the module docstring).
    confidence : float
        Confidence level in (0, 1).

    Returns
    -------
    diff, low, high : numpy.ndarray of float64
        ``(b - c) / n`` and the interval bounds; NaN where ``n == 0``.  When ``b = c = 0``
        and both rates are 0 or 1 the interval is ``[0, 0]``.
    """
    a, b, c, d = (np.asarray(x, dtype=np.float64) for x in (a, b, c, d))
    n = a + b + c + d
    if np.any(np.stack(np.broadcast_arrays(a, b, c, d)) < 0):
        raise ValueError("paired counts must be >= 0")
    with np.errstate(invalid="ignore", divide="ignore"):
        p1 = (a + b) / n
        p2 = (a + c) / n
        l1, u1 = wilson_interval(a + b, n, confidence)
        l2, u2 = wilson_interval(a + c, n, confidence)
        margins = (a + b) * (c + d) * (a + c) * (b + d)
        cross = a * d - b * c
        num = np.where(cross > n / 2, cross - n / 2, np.where(cross >= 0, 0.0, cross))
        phi = np.where(margins > 0, num / np.sqrt(np.where(margins > 0, margins, 1.0)), 0.0)
        diff = p1 - p2
        dl = np.sqrt(np.maximum((p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2, 0.0))
        du = np.sqrt(np.maximum((p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2, 0.0))
        low = diff - dl
        high = diff + du
    empty = n == 0
    return (np.where(empty, np.nan, diff), np.where(empty, np.nan, low),
            np.where(empty, np.nan, high))


def mcnemar_exact(b, c) -> np.ndarray:
    """Two-sided exact McNemar p-values (statsmodels' ``mcnemar(..., exact=True)``).

    Parameters
    ----------
    b, c : array_like of int
        Discordant counts (only A won, only B won).

    Returns
    -------
    numpy.ndarray of float64
        p-value per element; 1.0 where there is no discordant game.
    """
    from statsmodels.stats.contingency_tables import mcnemar

    b_arr, c_arr = np.broadcast_arrays(np.asarray(b, dtype=np.int64), np.asarray(c, dtype=np.int64))
    out = np.ones(b_arr.shape, dtype=np.float64)
    for idx in np.ndindex(b_arr.shape):
        bi, ci = int(b_arr[idx]), int(c_arr[idx])
        if bi + ci > 0:
            out[idx] = float(mcnemar([[0, bi], [ci, 0]], exact=True).pvalue)
    return out


def unpaired_equivalent_games(a, b, c, d) -> np.ndarray:
    """Games per variant that two *independent* runs would need for the same precision.

    The variance of the paired difference over ``n`` games is
    ``((b + c)/n - D^2) / n``; two independent runs of ``m`` games each give
    ``(p_A q_A + p_B q_B) / m``.  Equal variances give
    ``m = n (p_A q_A + p_B q_B) / ((b + c)/n - D^2)``.

    Returns
    -------
    numpy.ndarray of float64
        ``m`` (rounded up); ``inf`` when the paired difference has no variance (no
        discordant game) but the rates do; NaN where ``n == 0`` or both rates are 0 or 1.
    """
    a, b, c, d = (np.asarray(x, dtype=np.float64) for x in (a, b, c, d))
    n = a + b + c + d
    with np.errstate(invalid="ignore", divide="ignore"):
        p1 = (a + b) / n
        p2 = (a + c) / n
        var_unpaired = p1 * (1 - p1) + p2 * (1 - p2)
        var_paired = (b + c) / n - ((b - c) / n) ** 2
        m = np.ceil(n * var_unpaired / var_paired)
        m = np.where(var_paired > 0, m, np.where(var_unpaired > 0, np.inf, np.nan))
    return np.where(n > 0, m, np.nan)


def paired_summary(table, confidence: float = 0.95, index=None) -> pd.DataFrame:
    """Every paired statistic of one or more 2 x 2 tables as a tidy frame.

    Parameters
    ----------
    table : array_like of int, shape (4,) or (k, 4)
        Columns ``a, b, c, d`` (see :func:`paired_counts`).
    index : pandas.Index, optional
        Row labels.

    Returns
    -------
    pandas.DataFrame, shape (k, 14)
        ``games``, ``wins_a``, ``wins_b``, ``rate_a``, ``rate_b``, ``diff`` (B - A,
        changed minus base), ``diff_low``, ``diff_high`` (Newcombe), ``both``, ``only_a``,
        ``only_b``, ``discordant_share``, ``mcnemar_p`` (exact) and ``unpaired_games``
        (per variant).
    """
    t = np.atleast_2d(np.asarray(table, dtype=np.int64))
    a, b, c, d = t[:, 0], t[:, 1], t[:, 2], t[:, 3]
    n = a + b + c + d
    diff, low, high = newcombe_paired_interval(a, c, b, d, confidence)  # B - A: b, c swapped
    with np.errstate(invalid="ignore", divide="ignore"):
        out = pd.DataFrame({
            "games": n, "wins_a": a + b, "wins_b": a + c,
            "rate_a": np.where(n > 0, (a + b) / np.maximum(n, 1), np.nan),
            "rate_b": np.where(n > 0, (a + c) / np.maximum(n, 1), np.nan),
            "diff": diff, "diff_low": low, "diff_high": high,
            "both": a, "only_a": b, "only_b": c,
            "discordant_share": np.where(n > 0, (b + c) / np.maximum(n, 1), np.nan),
            "mcnemar_p": mcnemar_exact(b, c),
            "unpaired_games": unpaired_equivalent_games(a, b, c, d),
        }, index=index)
    return out


def z_value(confidence: float) -> float:
    """Two-sided normal quantile of a confidence level."""
    return float(ndtri(0.5 + 0.5 * confidence))
