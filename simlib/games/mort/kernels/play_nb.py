"""Mort de la lumière du jour drivers, and the one kernel Python calls.

``play_game_nb(state, rules, seat_policy, seat_params, legal, work, log, nolog)``
    Plays from ``state`` to the end with a policy per seat (int64 ``seat_policy``
    (MAX_SEATS,), float64 ``seat_params`` (MAX_SEATS, N_PARAMS)); ``legal`` (MAX_LEGAL,)
    and ``work`` (WORK_SIZE,) are scratch, ``log`` the trace, ``nolog`` a (1, LOG_W)
    buffer for the search's playouts.  A state from ``init_state_nb`` is advanced first.

``play_batch_nb(rules, seed, start, seat_policy, seat_params, out, lo, hi)``
    Games ``start + lo .. start + hi - 1`` into rows ``lo .. hi - 1``; game ``i`` is keyed
    by ``game_key(seed, start + i)`` only, so results do not depend on the range, the
    thread that plays it or the chunking (``simlib.core.parallel.run_ranges`` calls it on
    threads: a serial kernel compiles in about two thirds of the time of a ``prange``
    one).  ``seat_policy`` int64 (count, MAX_SEATS), ``seat_params`` float64 (count,
    MAX_SEATS, N_PARAMS); ``out`` int64 (count, REC_SIZE) receives the records.  It plays
    ``random`` and ``heuristic`` (what a study's cold compile needs);
    ``play_batch_search_nb`` is the same with the search player, compiled only when a
    seat searches; the two play the same games wherever no seat searches.

``kernel_nb(op, rules, seed, seat_policy, seat_params, out, state, a, legal, work, log,
nolog) -> int64``
    Every operation of the step model, in one compiled entry (a cold compile links and
    optimises the engine once, not once per operation), the search player included:

    * ``OP_INIT``: ``state`` becomes game ``a`` of seed ``seed``, at its first decision.
    * ``OP_LEGAL``: the legal codes into ``legal``; returns their number.
    * ``OP_APPLY``: applies action code ``a`` if legal; returns 1 (0: not legal, nothing
      changed).  ``OP_STEP``: the same without the check.
    * ``OP_CHOOSE``: the action the policy ``seat_policy[0, 0]`` (parameters
      ``seat_params[0, 0]``) takes now for the seat to move.
    * ``OP_RECORD``: the record of game number ``a`` into ``out[0]``.
    * ``OP_PLAY``: plays to the end with the seats' policies (``seat_policy[0]``).
    * ``OP_ADVANCE``: runs the forced steps up to the next decision (a crafted state).
"""
from __future__ import annotations

import numpy as np

from ....core.jit import njit_alloc_nb, njit_nb
from ....core.rng import game_key_nb
from .. import codes as K
from .engine_nb import (advance_nb, apply_action_nb, init_state_nb, legal_actions_nb, record_nb,
                        step_nb)
from .policies_nb import WORK_SIZE, choose_nb, choose_search_nb

OP_INIT, OP_LEGAL, OP_APPLY, OP_STEP, OP_CHOOSE, OP_RECORD, OP_PLAY, OP_ADVANCE = range(8)


@njit_nb
def play_game_nb(state, rules, seat_policy, seat_params, legal, work, log, nolog):
    advance_nb(state, rules, log)
    while state[K.S_OVER] == 0:
        n = legal_actions_nb(state, rules, legal)
        s = state[K.S_DECIDER]
        a = choose_nb(state, rules, seat_policy[s], seat_params[s], legal, n, work, nolog)
        step_nb(state, rules, a, log)


@njit_nb
def play_game_search_nb(state, rules, seat_policy, seat_params, legal, work, log, nolog):
    advance_nb(state, rules, log)
    while state[K.S_OVER] == 0:
        n = legal_actions_nb(state, rules, legal)
        s = state[K.S_DECIDER]
        a = choose_search_nb(state, rules, seat_policy[s], seat_params[s], legal, n, work, nolog)
        step_nb(state, rules, a, log)


@njit_alloc_nb
def play_batch_nb(rules, seed, start, seat_policy, seat_params, out, lo, hi):
    state = np.zeros(K.S_SIZE, dtype=np.int64)
    nolog = np.zeros((1, K.LOG_W), dtype=np.int64)
    legal = np.zeros(K.MAX_LEGAL, dtype=np.int64)
    work = np.zeros(1, dtype=np.int64)
    for i in range(lo, hi):
        init_state_nb(state, rules, game_key_nb(seed, start + i), nolog)
        play_game_nb(state, rules, seat_policy[i], seat_params[i], legal, work, nolog, nolog)
        record_nb(state, rules, start + i, out[i])


@njit_alloc_nb
def play_batch_search_nb(rules, seed, start, seat_policy, seat_params, out, lo, hi):
    state = np.zeros(K.S_SIZE, dtype=np.int64)
    nolog = np.zeros((1, K.LOG_W), dtype=np.int64)
    legal = np.zeros(K.MAX_LEGAL, dtype=np.int64)
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    for i in range(lo, hi):
        init_state_nb(state, rules, game_key_nb(seed, start + i), nolog)
        play_game_search_nb(state, rules, seat_policy[i], seat_params[i], legal, work, nolog, nolog)
        record_nb(state, rules, start + i, out[i])


@njit_nb
def kernel_nb(op, rules, seed, seat_policy, seat_params, out, state, a, legal, work, log, nolog):
    if op == OP_INIT:
        init_state_nb(state, rules, game_key_nb(seed, a), log)
        advance_nb(state, rules, log)
        return np.int64(0)
    if op == OP_LEGAL:
        return np.int64(legal_actions_nb(state, rules, legal))
    if op == OP_APPLY:
        return np.int64(1) if apply_action_nb(state, rules, a, log) else np.int64(0)
    if op == OP_STEP:
        step_nb(state, rules, a, log)
        return np.int64(0)
    if op == OP_CHOOSE:
        n = legal_actions_nb(state, rules, legal)
        return np.int64(choose_search_nb(state, rules, seat_policy[0, 0], seat_params[0, 0], legal,
                                         n, work, nolog))
    if op == OP_RECORD:
        record_nb(state, rules, a, out[0])
        return np.int64(0)
    if op == OP_ADVANCE:
        advance_nb(state, rules, log)
        return np.int64(0)
    play_game_search_nb(state, rules, seat_policy[0], seat_params[0], legal, work, log, nolog)
    return np.int64(0)


__all__ = ["play_game_nb", "play_game_search_nb", "play_batch_nb", "play_batch_search_nb",
           "kernel_nb", "OP_INIT", "OP_LEGAL", "OP_APPLY", "OP_STEP", "OP_CHOOSE", "OP_RECORD",
           "OP_PLAY", "OP_ADVANCE"]
