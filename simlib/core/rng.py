"""Counter-based per-game random streams (splitmix64), usable inside numba kernels.

Every game owns a key that is a pure function of ``(root seed, game index)``; from it
derive independent *streams* (a game's codes name them: cards, dice, policy...).  A
stream's state is one ``uint64`` in a small array; each draw advances it.  Results therefore do not depend on
thread count, chunking, worker count or machine.

Array convention: ``state`` is a ``uint64`` array, one entry a stream; functions
take the array and the stream index so that several streams live in one allocation.
"""
from __future__ import annotations

import numpy as np

from .jit import njit_nb

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
STREAM_SALT = np.uint64(0xD1B54A32D192ED03)

# make_streams' size when its caller names none; a game names its own streams and their
# count in its codes (``STREAM_*``, ``N_STREAMS``)
DEFAULT_STREAMS = 4


@njit_nb
def mix64_nb(z):
    """splitmix64 finaliser: a bijective avalanche of a ``uint64``."""
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@njit_nb
def game_key_nb(seed, game_index):
    """Key of one game: a pure function of (root seed, game index), both ``int64`` >= 0."""
    s = mix64_nb(np.uint64(seed) * GOLDEN + np.uint64(0x632BE59BD9B4E019))
    return mix64_nb(s ^ (np.uint64(game_index) * GOLDEN + GOLDEN))


@njit_nb
def init_streams_nb(state, key):
    """Fill ``state`` (uint64, one entry per stream) with independent streams of ``key``."""
    for i in range(state.shape[0]):
        state[i] = mix64_nb(key ^ (np.uint64(i + 1) * STREAM_SALT))


@njit_nb
def next_u64_nb(state, stream):
    """Next raw 64-bit output of ``stream``."""
    s = state[stream] + GOLDEN
    state[stream] = s
    return mix64_nb(s)


@njit_nb
def randint_nb(state, stream, n):
    """Uniform integer in ``[0, n)`` for ``1 <= n < 2**31`` (multiply-shift on the top 32 bits)."""
    x = next_u64_nb(state, stream) >> np.uint64(32)
    return np.int64((x * np.uint64(n)) >> np.uint64(32))


@njit_nb
def uniform_nb(state, stream):
    """Uniform float in ``[0, 1)`` with 53 random bits."""
    return np.float64(next_u64_nb(state, stream) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


# The step-model games (Mort, Till Dawn, Until the World Ends) keep their streams bit for
# bit inside the game's int64 state array, at slots of its layout: the same streams as
# above, addressed by slot.
@njit_nb
def key_streams_at_nb(state, first, n_streams, key):
    """:func:`init_streams_nb` into ``state[first:first + n_streams]`` of an int64 array:
    stream ``i`` of ``key`` (uint64) at slot ``first + i``, its bits as int64."""
    for i in range(n_streams):
        state[first + i] = np.int64(mix64_nb(key ^ (np.uint64(i + 1) * STREAM_SALT)))


@njit_nb
def randint_at_nb(state, slot, n):
    """:func:`randint_nb` (``1 <= n < 2**31``) from the stream kept at ``state[slot]`` of
    an int64 array: the splitmix64 step and the multiply-shift written out in one function
    (one compile instead of three)."""
    z = np.uint64(state[slot]) + GOLDEN
    state[slot] = np.int64(z)
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    z = z ^ (z >> np.uint64(31))
    return np.int64(((z >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


def make_streams(seed: int, game_index: int, n_streams: int = DEFAULT_STREAMS) -> np.ndarray:
    """Python helper: the ``n_streams`` stream states of one game (for tests and traces)."""
    st = np.zeros(n_streams, dtype=np.uint64)
    init_streams_nb(st, np.uint64(game_key_nb(np.int64(seed), np.int64(game_index))))
    return st
