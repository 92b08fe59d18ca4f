"""Find the parameter value whose win rate is closest to a target (game-agnostic).

The estimate of a win rate at a parameter value comes from *fixed seed blocks*: games
``0 .. n - 1`` of one root seed, the same games for every value.  The estimated curve is
then a deterministic function of the value (common random numbers), so a root finder
sees a monotone-looking step curve rather than fresh noise at every point.

* :func:`calibrate_integer` — bisection over an integer range, in stages of growing
  games (``n0``, ``n0 * growth``, ...).  Blocks are nested (a stage's games extend the
  previous stage's), so a value's counts are extended, never replayed.  A stage stops
  bisecting when the bracket is two neighbours; the answer is the neighbour closer to
  the target; stages grow until the 95 % interval at the answer is within
  ``tolerance`` (half-width) or ``max_games`` is reached.
* :func:`calibrate_real` — :func:`scipy.optimize.brentq` on ``rate(x) - target`` over a
  bracket, with ``n`` fixed games per evaluation.

An ``evaluate(value, start, count)`` callable plays games ``start .. start + count - 1``
at ``value`` and returns ``(wins, games)``.  A target the range cannot reach raises
:class:`CalibrationError` naming the win rates at both ends; so does a range over which
the win rate does not move (the same wins at both ends of the same games: the value
changes no result there, and any "answer" would be arbitrary).  A calibration is
``converged`` only when the target is bracketed beyond noise: the 95 % intervals at the
two ends do not overlap (an integer calibration plays more stages until they separate),
and ``note`` says why when it is not.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd

from .stats import wilson_interval

__all__ = ["CalibrationError", "Calibration", "calibrate_integer", "calibrate_real",
           "BlockCache"]

Evaluate = Callable[[float, int, int], tuple[int, int]]


class CalibrationError(ValueError):
    """The target is out of reach, or the inputs are unusable (message names why)."""


@dataclass
class BlockCache:
    """Wins over the nested seed block ``0 .. games - 1`` per value, extended on demand."""

    evaluate: Evaluate
    wins: dict = field(default_factory=dict)
    games: dict = field(default_factory=dict)
    log: list = field(default_factory=list)
    on_games: Callable[[int], None] | None = None

    def rate(self, value, n: int, stage: int = 0) -> float:
        have = self.games.get(value, 0)
        if have == n:  # already evaluated on this block: no new row in the log
            return self.count_wins(value, n) / n
        if have < n:
            w, g = self.evaluate(value, have, n - have)
            if g != n - have:
                raise RuntimeError(f"evaluate returned {g} games, asked for {n - have}")
            self.wins[value] = self.wins.get(value, 0) + int(w)
            self.games[value] = n
            if self.on_games is not None:
                self.on_games(n - have)
        w = self.count_wins(value, n)
        lo, hi = wilson_interval(w, n)
        self.log.append({"stage": stage, "value": value, "games": n, "wins": w,
                         "win_rate": w / n, "ci_low": float(lo), "ci_high": float(hi)})
        return w / n

    def count_wins(self, value, n: int) -> int:
        if self.games.get(value) != n:
            raise RuntimeError("blocks are only read at their full length")
        return self.wins[value]


@dataclass(frozen=True)
class Calibration:
    """Result of a calibration.

    Attributes
    ----------
    value : int or float
        The value whose estimated win rate is closest to the target.
    win_rate, ci_low, ci_high : float
        Its estimate and 95 % Wilson interval over ``games`` games.
    games : int
        Games behind the estimate at ``value``.
    converged : bool
        The curve moves across the target beyond noise (the 95 % intervals at the range's
        ends do not overlap) and the interval's half-width is within the tolerance
        (integer), or brentq converged (real).
    note : str
        Why it did not converge ("" when it did).
    tried : pandas.DataFrame
        Every evaluation: ``stage``, ``value``, ``games``, ``wins``, ``win_rate``,
        ``ci_low``, ``ci_high`` (in the order they were made).
    """

    value: float
    win_rate: float
    ci_low: float
    ci_high: float
    games: int
    converged: bool
    tried: pd.DataFrame
    note: str = ""


def _check_target(target: float) -> float:
    try:
        t = float(target)
    except (TypeError, ValueError):
        raise CalibrationError(f"target must be a number in (0, 1); got {target!r}") from None
    if not 0.0 < t < 1.0 or not np.isfinite(t):
        raise CalibrationError(f"target must be strictly between 0 and 1; got {target!r}")
    return t


def _unreachable(target, lo, hi, r_lo, r_hi, n) -> CalibrationError:
    flat = ("; it does not move over the range (the value changes no result there)"
            if r_lo == r_hi else "")
    return CalibrationError(
        f"target win rate {target:.3f} is out of reach on [{lo}, {hi}]: the win rate is "
        f"{r_lo:.4f} at {lo} and {r_hi:.4f} at {hi} ({n} games each){flat}")


def _flat(lo, hi, rate, n) -> CalibrationError:
    return CalibrationError(
        f"the win rate does not move over [{lo}, {hi}]: {rate:.4f} at both ends on the same "
        f"{n} games (the value changes no result there); nothing to calibrate")


def _separated(w_lo: int, w_hi: int, n: int) -> bool:
    """The 95 % intervals of the rates at the two ends do not overlap."""
    a, b = wilson_interval(w_lo, n), wilson_interval(w_hi, n)
    return float(a[1]) < float(b[0]) or float(b[1]) < float(a[0])


_NOT_SEPARATED = ("the win rate barely moves over the range: its 95 % intervals at the two ends "
                  "overlap, so the target is not bracketed beyond noise")


def calibrate_integer(evaluate: Evaluate, lo: int, hi: int, target: float, *,
                      tolerance: float = 0.01, n0: int = 2000, growth: int = 4,
                      max_games: int = 200_000,
                      on_games: Callable[[int], None] | None = None) -> Calibration:
    """Integer value in ``[lo, hi]`` whose win rate is closest to ``target``.

    The win rate is assumed monotone in the value (either direction).  See the module
    docstring for the stages.
    """
    target = _check_target(target)
    lo, hi = int(lo), int(hi)
    if lo >= hi:
        raise CalibrationError(f"empty range: need lo < hi; got {lo}:{hi}")
    if tolerance <= 0 or n0 <= 0 or growth < 2 or max_games < n0:
        raise CalibrationError("need tolerance > 0, n0 > 0, growth >= 2 and max_games >= n0")
    cache = BlockCache(evaluate, on_games=on_games)
    n, stage = int(n0), 0
    while True:
        r_lo, r_hi = cache.rate(lo, n, stage), cache.rate(hi, n, stage)
        if not min(r_lo, r_hi) <= target <= max(r_lo, r_hi):
            raise _unreachable(target, lo, hi, r_lo, r_hi, n)
        if cache.count_wins(lo, n) == cache.count_wins(hi, n):
            raise _flat(lo, hi, r_lo, n)
        moved = _separated(cache.count_wins(lo, n), cache.count_wins(hi, n), n)
        up = r_hi >= r_lo  # the rate grows with the value
        a, b = lo, hi
        while b - a > 1:
            mid = (a + b) // 2
            r = cache.rate(mid, n, stage)
            if (r < target) == up:
                a = mid
            else:
                b = mid
        ra, rb = cache.rate(a, n, stage), cache.rate(b, n, stage)
        best = a if abs(ra - target) <= abs(rb - target) else b
        w = cache.count_wins(best, n)
        low, high = (float(x) for x in wilson_interval(w, n))
        half = (high - low) / 2
        nxt = n * growth
        ok = half <= tolerance and moved
        if ok or nxt > max_games:
            note = "" if ok else (_NOT_SEPARATED if not moved else
                                  "the --max-games cap was reached before the tolerance")
            return Calibration(best, w / n, low, high, n, ok, pd.DataFrame(cache.log), note)
        n, stage = nxt, stage + 1


def calibrate_real(evaluate: Evaluate, lo: float, hi: float, target: float, *,
                   games: int = 20_000, xtol: float = 1e-3, maxiter: int = 60,
                   on_games: Callable[[int], None] | None = None) -> Calibration:
    """Real value in ``[lo, hi]`` where the fixed-seed win rate crosses ``target``
    (:func:`scipy.optimize.brentq`), each evaluation over games ``0 .. games - 1``."""
    from scipy.optimize import brentq

    target = _check_target(target)
    lo, hi = float(lo), float(hi)
    if not lo < hi:
        raise CalibrationError(f"empty range: need lo < hi; got {lo}:{hi}")
    cache = BlockCache(evaluate, on_games=on_games)

    def f(x: float) -> float:
        return cache.rate(float(x), games) - target

    f_lo, f_hi = f(lo), f(hi)
    if cache.count_wins(lo, games) == cache.count_wins(hi, games) and f_lo == 0:
        raise _flat(lo, hi, f_lo + target, games)  # (else out of reach, said below)
    moved = _separated(cache.count_wins(lo, games), cache.count_wins(hi, games), games)
    if f_lo == 0:
        x = lo
    elif f_hi == 0:
        x = hi
    elif np.sign(f_lo) == np.sign(f_hi):
        raise _unreachable(target, lo, hi, f_lo + target, f_hi + target, games)
    else:
        x, info = brentq(f, lo, hi, xtol=xtol, maxiter=maxiter, full_output=True, disp=False)
    # report the tried value closest to the target (the step curve may never hit it exactly)
    tried = pd.DataFrame(cache.log)
    best = tried.iloc[int(np.argmin(np.abs(tried["win_rate"].to_numpy() - target)))]
    if abs(cache.rate(float(x), games) - target) <= abs(best["win_rate"] - target):
        value = float(x)
    else:
        value = float(best["value"])
    w = cache.count_wins(value, games)
    low, high = (float(v) for v in wilson_interval(w, games))
    return Calibration(value, w / games, low, high, games, moved, pd.DataFrame(cache.log),
                       "" if moved else _NOT_SEPARATED)
