"""Games over threads, the same way for every game: a batch kernel that plays a *range* of
games (``kernel(*args, lo, hi)`` writes rows ``lo .. hi - 1``, game ``start + i`` from its
own key) is called on Python threads, each taking the next range in turn.  The kernels
release the GIL (``nogil=True``, :mod:`simlib.core.jit`), so the threads run in parallel;
a game's record never depends on which thread played it, so the tables do not depend on
the thread count."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Callable

import numba
import numpy as np

__all__ = ["BLOCK_GAMES", "TAIL_GAMES", "range_edges", "default_threads", "run_ranges",
           "run_prange"]

BLOCK_GAMES = 128  # games a thread takes at a time
TAIL_GAMES = 8  # the smallest range: the last ranges shrink to this


def range_edges(n: int, threads: int, tail: int = TAIL_GAMES) -> np.ndarray:
    """Edges of the ranges ``threads`` threads take in turn to play ``n`` games: ranges of
    ``BLOCK_GAMES`` games, shrinking near the end (a quarter of what is left per thread,
    down to ``tail`` games) so the threads finish together: games differ in length, and
    a thread left alone with a long last range is lost time.  One range with 1 thread.
    A search player's game takes a tenth of a second or more: its ranges shrink to one
    game (``tail=1``)."""
    tail = max(1, int(tail))
    if threads <= 1 or n <= tail:
        return np.array([0, n], dtype=np.int64)
    edges = [0]
    lo = 0
    while lo < n:
        size = max(tail, min(BLOCK_GAMES, (n - lo) // (2 * threads)))
        lo = min(n, lo + size)
        edges.append(lo)
    return np.array(edges, dtype=np.int64)


def default_threads() -> int:
    """Threads a batch uses by default: ``NUMBA_NUM_THREADS`` (numba's default: the cores)."""
    return max(1, int(numba.config.NUMBA_NUM_THREADS))


def run_ranges(kernel: Callable, args: tuple, n: int, threads: int | None = None,
               tail: int = TAIL_GAMES) -> None:
    """Play ``n`` games with ``kernel(*args, lo, hi)`` over ``threads`` threads (default
    :func:`default_threads`), in the ranges of :func:`range_edges`."""
    t = default_threads() if threads is None else max(1, int(threads))
    edges = range_edges(n, t, tail)
    if len(edges) <= 2:
        kernel(*args, np.int64(0), np.int64(n))
        return
    with ThreadPoolExecutor(max_workers=t) as pool:
        for f in [pool.submit(kernel, *args, edges[i], edges[i + 1])
                  for i in range(len(edges) - 1)]:
            f.result()


def run_prange(kernel: Callable, args: tuple, threads: int | None = None):
    """``kernel(*args)`` for a kernel that spreads its games itself (numba's ``prange``),
    on ``threads`` of numba's threads (default: numba's setting), restored after."""
    if threads is None:
        return kernel(*args)
    old = numba.get_num_threads()
    numba.set_num_threads(int(threads))
    try:
        return kernel(*args)
    finally:
        numba.set_num_threads(old)
