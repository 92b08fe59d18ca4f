"""The what-if page's interval for a paired difference that stays valid while it is watched.

The page adds chunks of games and redraws its interval after each one; a designer stops
when the picture looks settled.  A fixed-n interval (Newcombe's, which ``simlib compare``
prints) looked at after every chunk covers the true difference less often than it says,
so the page shows an anytime-valid one built from the confidence sequence
:func:`simlib.core.sequential.beta_binomial_cs` (the one ``simulate --precision`` uses):

* of ``n`` games, ``k = b + c`` are *discordant* (one variant won, the other lost); the
  discordant rate ``delta = P(discordant)`` has a confidence sequence from ``(k, n)``;
* among discordant games the share won by the changed ruleset, ``q``, has one from
  ``(c, k)`` (the discordant games are themselves independent draws, so a sequence
  indexed by their count is valid at whatever count the stopping time leaves);
* the difference is ``changed - base = delta * (2 q - 1)``; each sequence is taken at
  ``1 - alpha / 2``, so both hold at every look with probability ``>= 1 - alpha`` (union
  bound), and the interval is the range of ``delta (2 q - 1)`` over the two (a product of
  intervals: its extremes are at the corners).

Splitting on discordance keeps the width proportional to ``sqrt(delta)``, the reason a
paired comparison needs few games: when most games end the same way in both rulesets the
difference is known far better than either rate.
"""
from __future__ import annotations

import numpy as np

from ..core.sequential import beta_binomial_cs

__all__ = ["paired_difference_cs"]


def paired_difference_cs(only_changed, only_base, games, confidence: float = 0.95):
    """Anytime-valid interval of ``P(changed wins) - P(base wins)`` from paired counts.

    Parameters
    ----------
    only_changed, only_base, games : array_like of int
        Games only the changed ruleset won (``c`` of the paired table), games only the
        base won (``b``), and games played (``n``), of one shape.
    confidence : float
        The probability that the interval covers the difference at every look at once.

    Returns
    -------
    diff, low, high : numpy.ndarray of float64
        ``(c - b) / n`` and the interval (``nan``, ``-1``, ``1`` where ``n == 0``).
    """
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1); got {confidence}")
    c, b, n = np.broadcast_arrays(*(np.asarray(x, dtype=np.int64) for x in (only_changed, only_base, games)))
    k = b + c
    if np.any(n < 0) or np.any(b < 0) or np.any(c < 0) or np.any(k > n):
        raise ValueError("need only_changed, only_base >= 0 and only_changed + only_base <= games")
    half = 1.0 - (1.0 - confidence) / 2.0
    d_lo, d_hi = beta_binomial_cs(k, n, half)
    q_lo, q_hi = beta_binomial_cs(c, k, half)  # k == 0: [0, 1]
    s_lo, s_hi = 2.0 * q_lo - 1.0, 2.0 * q_hi - 1.0
    low = np.where(s_lo >= 0, d_lo * s_lo, d_hi * s_lo)
    high = np.where(s_hi >= 0, d_hi * s_hi, d_lo * s_hi)
    with np.errstate(invalid="ignore", divide="ignore"):
        diff = np.where(n > 0, (c - b) / np.where(n > 0, n, 1), np.nan)
    empty = n == 0
    return diff, np.where(empty, -1.0, low), np.where(empty, 1.0, high)
