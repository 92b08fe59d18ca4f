"""Anytime-valid confidence sequences for a binomial rate (game-agnostic).

A run that "adds games until the interval is narrow enough" looks at its interval after
every chunk.  With an ordinary (fixed-n) interval each look is another chance to stop on
an unlucky excursion, and the stopped interval covers the true rate less often than
promised.  A *confidence sequence* ``C_t`` covers the true rate at every ``t``
simultaneously with probability ``1 - alpha``, so any data-dependent stopping time keeps
the promise.

Robbins' beta-binomial mixture (Robbins 1970; see Howard, Ramdas, McAuliffe & Sekhon
2021, "Time-uniform, nonparametric, nonasymptotic confidence sequences", Ann. Stat.)
in closed form: after ``t`` games with ``S`` wins, for a rate ``p``

    M_t(p) = B(a + S, b + t - S) / B(a, b) / (p^S (1 - p)^(t - S))

(the marginal likelihood of the data under a Beta(a, b) prior on the rate, divided by
their likelihood under ``p``) is a non-negative martingale with mean 1 when ``p`` is the
true rate, so by Ville's inequality ``P(exists t: M_t(p) >= 1/alpha) <= alpha``, and

    C_t = { p : M_t(p) < 1 / alpha }

is a ``1 - alpha`` confidence sequence.  ``log M_t(p)`` is convex in ``p`` with its
minimum (``<= 0``) at ``S / t``, so ``C_t`` is an interval; its ends are found by
bisection (vectorized, to 1e-12).

Array convention: ``wins`` and ``games`` are integer arrays of one shape (scalars
broadcast); results are float64 arrays of that shape (``[0, 1]`` where ``games == 0``).
"""
from __future__ import annotations

import numpy as np
from scipy.special import betaln, xlog1py, xlogy

__all__ = ["log_mixture_martingale", "beta_binomial_cs", "DEFAULT_PRIOR"]

DEFAULT_PRIOR = (0.5, 0.5)  # Jeffreys' Beta(1/2, 1/2): no preferred rate


def log_mixture_martingale(p, wins, games, prior: tuple[float, float] = DEFAULT_PRIOR):
    """``log M_t(p)`` of the beta-binomial mixture (see the module docstring).

    Parameters
    ----------
    p : array_like of float
        Candidate rates in [0, 1].
    wins, games : array_like of int
        Successes ``S`` and trials ``t``.
    prior : (float, float)
        Beta prior parameters ``(a, b)``, both > 0.

    Returns
    -------
    numpy.ndarray of float64
        ``log M_t(p)`` (``+inf`` where ``p`` is impossible given the data).
    """
    a, b = prior
    p = np.asarray(p, dtype=np.float64)
    s = np.asarray(wins, dtype=np.float64)
    t = np.asarray(games, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        loglik = xlogy(s, p) + xlog1py(t - s, -p)
        out = betaln(a + s, b + t - s) - betaln(a, b) - loglik
    return out


def beta_binomial_cs(wins, games, confidence: float = 0.95,
                     prior: tuple[float, float] = DEFAULT_PRIOR, tol: float = 1e-12):
    """Robbins' beta-binomial confidence sequence for a rate, at one look.

    Parameters
    ----------
    wins, games : array_like of int
        Successes and trials so far (``0 <= wins <= games``).
    confidence : float
        ``1 - alpha``; the sequence covers the true rate at *every* look with at least
        this probability.
    prior : (float, float)
        Beta mixing distribution ``(a, b)``.
    tol : float
        Width of the final bisection bracket.

    Returns
    -------
    low, high : numpy.ndarray of float64
        The interval ``{p : M_t(p) < 1/alpha}``.
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1); got {confidence}")
    a, b = prior
    if not (a > 0 and b > 0):
        raise ValueError(f"prior parameters must be > 0; got {prior}")
    s, t = np.broadcast_arrays(np.asarray(wins, dtype=np.float64), np.asarray(games, dtype=np.float64))
    if np.any(t < 0) or np.any(s < 0) or np.any(s > t):
        raise ValueError("need 0 <= wins <= games for every rate")
    level = np.log(1.0 / (1.0 - confidence))
    with np.errstate(invalid="ignore", divide="ignore"):
        phat = np.where(t > 0, s / np.where(t > 0, t, 1.0), 0.5)

    def inside(p):
        return log_mixture_martingale(p, s, t, prior) < level

    def edge(lo, hi, lo_inside: bool):
        # invariant: exactly one of lo / hi is inside; shrink to the boundary
        lo, hi = lo.copy(), hi.copy()
        for _ in range(200):
            if np.all(hi - lo <= tol):
                break
            mid = 0.5 * (lo + hi)
            ins = inside(mid)
            if lo_inside:
                lo = np.where(ins, mid, lo)
                hi = np.where(ins, hi, mid)
            else:
                hi = np.where(ins, mid, hi)
                lo = np.where(ins, lo, mid)
        return lo, hi

    zeros = np.zeros_like(phat)
    ones = np.ones_like(phat)
    # lower end: in [0, phat]; 0 itself may be inside (no win yet)
    low_in0 = inside(zeros)
    lo_out, lo_in = edge(zeros, phat, lo_inside=False)
    low = np.where(low_in0, 0.0, lo_in)
    high_in1 = inside(ones)
    hi_in, hi_out = edge(phat, ones, lo_inside=True)
    high = np.where(high_in1, 1.0, hi_in)
    empty = t == 0
    return np.where(empty, 0.0, low), np.where(empty, 1.0, high)
