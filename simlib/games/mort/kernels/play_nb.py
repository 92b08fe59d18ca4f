"""Mort de la lumière du jour drivers: whole games with a policy per seat.

``play_game_nb(state, rules, seat_policy, seat_params, legal, work, log, nolog)``
    Plays a game from a new ``state`` (from ``init_state_nb``) to its end: int64
    ``seat_policy`` (MAX_SEATS,), float64 ``seat_params`` (MAX_SEATS, N_PARAMS); ``legal``
    (MAX_LEGAL,) and ``work`` (WORK_SIZE,) are scratch; ``log`` the trace, ``nolog`` a
    (1, LOG_W) buffer for the search's playouts.

``play_batch_nb(rules, seed, start, seat_policy, seat_params, out)``
    Games ``start .. start + count - 1`` over numba threads (``prange``); game ``i`` is
    keyed by ``game_key(seed, start + i)`` only, so results do not depend on the thread
    count or the chunking.  ``seat_policy`` int64 (count, MAX_SEATS), ``seat_params``
    float64 (count, MAX_SEATS, N_PARAMS), ``out`` int64 (count, REC_SIZE).

Each comes twice: without the search player (``random`` and ``heuristic`` only: what a
default study needs, and a third less to compile) and with it (``*_search_nb``).  The
two play the same games wherever no seat searches.
"""
from __future__ import annotations

import numpy as np
from numba import prange

from ....core.jit import njit_nb, njit_parallel_nb
from ....core.rng import game_key_nb
from .. import codes as K
from .engine_nb import advance_nb, init_state_nb, legal_actions_nb, record_nb, step_nb
from .policies_nb import WORK_SIZE, choose_nb, choose_search_nb


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


@njit_parallel_nb
def play_batch_nb(rules, seed, start, seat_policy, seat_params, out):
    count = seat_policy.shape[0]
    for i in prange(count):  # a small loop body: the parallel lowering stays cheap
        state = np.zeros(K.S_SIZE, dtype=np.int64)
        nolog = np.zeros((1, K.LOG_W), dtype=np.int64)
        init_state_nb(state, rules, game_key_nb(seed, start + i), nolog)
        play_game_nb(state, rules, seat_policy[i], seat_params[i], np.zeros(K.MAX_LEGAL, dtype=np.int64),
                     np.zeros(1, dtype=np.int64), nolog, nolog)
        record_nb(state, rules, start + i, out[i])


@njit_parallel_nb
def play_batch_search_nb(rules, seed, start, seat_policy, seat_params, out):
    count = seat_policy.shape[0]
    for i in prange(count):
        state = np.zeros(K.S_SIZE, dtype=np.int64)
        nolog = np.zeros((1, K.LOG_W), dtype=np.int64)
        init_state_nb(state, rules, game_key_nb(seed, start + i), nolog)
        play_game_search_nb(state, rules, seat_policy[i], seat_params[i],
                            np.zeros(K.MAX_LEGAL, dtype=np.int64), np.zeros(WORK_SIZE, dtype=np.int64),
                            nolog, nolog)
        record_nb(state, rules, start + i, out[i])
