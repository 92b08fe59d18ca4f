"""The game log the step-model engines (Mort, Till Dawn, Until the World Ends) write.

``log`` is an int64 ``(n, LOG_W)`` buffer, ``LOG_W >= 7``: row 0 counts the rows written
(``log[0, 0]``), rows ``1..n-1`` hold one event each (its kind, the round or night, the
seat, then four values whose meaning the kind gives in the game's codes).  A
``(1, LOG_W)`` buffer records nothing (the batch kernels pass one).
"""
from __future__ import annotations

from .jit import njit_nb


@njit_nb
def log_nb(log, kind, rnd, seat, a, b, c, d):
    """Append one event row to ``log`` (a full buffer drops it)."""
    n = log[0, 0]
    if n + 1 < log.shape[0]:
        r = n + 1
        log[r, 0] = kind
        log[r, 1] = rnd
        log[r, 2] = seat
        log[r, 3] = a
        log[r, 4] = b
        log[r, 5] = c
        log[r, 6] = d
        log[0, 0] = n + 1
