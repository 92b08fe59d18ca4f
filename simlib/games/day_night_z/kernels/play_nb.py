"""Day Night Z's drivers: a batch of games over a range, and the one kernel the step API
calls.

``batch_nb(dice, tr, spn, rl, seed, start, team, hour, pid, par, out, tbt, abt, lo, hi)``
    Games ``start + lo .. start + hi - 1`` (rows ``lo .. hi - 1`` of ``out`` (records),
    ``tbt`` (threat by turn), ``abt`` (alive by turn)); game ``g`` keyed by
    ``game_key(seed, g)`` only, so a game does not depend on the range or the thread that
    plays it (``simlib.core.parallel.run_ranges`` calls it).
``step_nb(op, st, rng, dice, tr, spn, rl, seed, game, team, hour, a, pid, par, legal, out)``
    One game's operations for ``step.Game``: ``OP_INIT`` (game ``game`` of ``seed``),
    ``OP_LEGAL`` (codes into ``legal``; their number), ``OP_APPLY`` (action ``a``; 0 if not
    legal), ``OP_CHOOSE`` (policy ``pid``'s choice now), ``OP_RECORD`` (into ``out``),
    ``OP_PLAY`` (policy ``pid`` to the end).
"""
from __future__ import annotations

import numpy as np

from ....core.jit import njit_alloc_nb, njit_nb
from ....core.rng import game_key_nb
from .. import codes as K
from .engine_nb import apply_action_nb, init_state_nb, legal_actions_nb, record_nb
from .policies_nb import choose_nb

OP_INIT, OP_LEGAL, OP_APPLY, OP_CHOOSE, OP_RECORD, OP_PLAY = range(6)


@njit_nb
def play_game_nb(st, rng, dice, tr, spn, rl, pid, par, legal):
    """Plays from a decision to the end with policy ``pid``."""
    while st[K.S_GLOBALS + K.G_OVER] == 0:
        n = legal_actions_nb(st, tr, rl, legal)
        a = choose_nb(st, rng, tr, rl, pid, par, legal, n)
        apply_action_nb(st, rng, dice, tr, spn, rl, a, legal)


@njit_alloc_nb
def batch_nb(dice, tr, spn, rl, seed, start, team, hour, pid, par, out, tbt, abt, lo, hi):
    st = np.zeros(K.S_SIZE, dtype=np.int64)
    rng = np.zeros(K.N_STREAMS, dtype=np.uint64)
    legal = np.zeros(K.MAX_LEGAL, dtype=np.int64)
    m = tbt.shape[1]
    for i in range(lo, hi):
        g = start + i
        init_state_nb(st, rng, dice, tr, spn, rl, game_key_nb(seed, g), team, hour, g, legal)
        play_game_nb(st, rng, dice, tr, spn, rl, pid, par, legal)
        record_nb(st, tr, rl, out[i])
        for t in range(m):
            tbt[i, t] = st[K.S_THREAT_BY_TURN + t]
            abt[i, t] = st[K.S_ALIVE_BY_TURN + t]
    return hi - lo


@njit_nb
def step_nb(op, st, rng, dice, tr, spn, rl, seed, game, team, hour, a, pid, par, legal, out):
    if op == OP_INIT:
        init_state_nb(st, rng, dice, tr, spn, rl, game_key_nb(seed, game), team, hour, game, legal)
        return np.int64(0)
    if op == OP_LEGAL:
        return np.int64(legal_actions_nb(st, tr, rl, legal))
    if op == OP_APPLY:
        n = legal_actions_nb(st, tr, rl, legal)
        for i in range(n):
            if legal[i] == a:
                apply_action_nb(st, rng, dice, tr, spn, rl, a, legal)
                return np.int64(1)
        return np.int64(0)
    if op == OP_CHOOSE:
        n = legal_actions_nb(st, tr, rl, legal)
        return np.int64(choose_nb(st, rng, tr, rl, pid, par, legal, n))
    if op == OP_RECORD:
        record_nb(st, tr, rl, out)
        return np.int64(0)
    play_game_nb(st, rng, dice, tr, spn, rl, pid, par, legal)
    return np.int64(0)
