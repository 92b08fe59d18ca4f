"""Till Dawn drivers: play whole games with a policy per seat (the driver owns the loop).

``play_game_nb(state, rules, seat_policy, seat_params, legal, work, cls_kind, cls_val,
cls_moon, cls_prob, inv_pay, log)``
    Plays a game from ``state`` to its end (int64 ``seat_policy`` (MAX_SEATS,), float64
    ``seat_params`` (MAX_SEATS, N_PARAMS); the rest is scratch, see ``new_scratch``).
``play_game_nb`` first advances the state (a state from ``init_state_nb`` has not drawn).

``play_batch_nb(rules, seed, start, players, chars, seat_policy, seat_params, work_size, out)``
    Games ``start .. start + count - 1`` over numba threads (``prange``); game ``i`` is
    keyed by ``game_key(seed, start + i)`` only, so results do not depend on the thread
    count or the chunking.  ``players`` int64 (count,), ``chars`` int64 (count,
    MAX_SEATS) (row starting with -1: a random team), ``seat_policy`` int64 (count,
    MAX_SEATS), ``seat_params`` float64 (count, MAX_SEATS, N_PARAMS), ``out`` int64
    (count, REC_SIZE).
"""
from __future__ import annotations

import numpy as np
from numba import prange

from ....core.jit import njit_nb, njit_parallel_nb
from ....core.rng import game_key_nb
from .. import codes as K
from .engine_nb import advance_nb, apply_action_nb, init_state_nb, legal_actions_nb, record_nb
from .policies_nb import choose_nb


@njit_nb
def play_game_nb(state, rules, seat_policy, seat_params, legal, work, cls_kind, cls_val,
                 cls_moon, cls_prob, inv_pay, log):
    advance_nb(state, rules, log)  # a new state: up to its first decision
    while state[K.S_OVER] == 0:
        n = legal_actions_nb(state, rules, legal)
        s = state[K.S_DECIDER]
        a = choose_nb(state, rules, seat_policy[s], seat_params[s], legal, n, work, cls_kind,
                      cls_val, cls_moon, cls_prob, inv_pay)
        apply_action_nb(state, rules, a, log)


@njit_nb
def play_into_nb(rules, seed, game, players, chars, seat_policy, seat_params, state, legal,
                 work, cls_kind, cls_val, cls_moon, cls_prob, inv_pay, log, rec):
    """Game ``game`` of a study from start to record (all arrays preallocated)."""
    init_state_nb(state, rules, players, chars, game_key_nb(seed, game), log)
    play_game_nb(state, rules, seat_policy, seat_params, legal, work, cls_kind, cls_val,
                 cls_moon, cls_prob, inv_pay, log)
    record_nb(state, rules, game, rec)


@njit_parallel_nb
def play_batch_nb(rules, seed, start, players, chars, seat_policy, seat_params, work_size, out):
    count = players.shape[0]
    for i in prange(count):  # a small loop body: the parallel lowering stays cheap
        play_into_nb(rules, seed, start + i, players[i], chars[i], seat_policy[i], seat_params[i],
                     np.zeros(K.S_SIZE, dtype=np.int64), np.zeros(K.N_ACTIONS, dtype=np.int64),
                     np.zeros(work_size, dtype=np.float64), np.zeros(K.MAX_TYPES, dtype=np.int64),
                     np.zeros(K.MAX_TYPES, dtype=np.int64), np.zeros(K.MAX_TYPES, dtype=np.int64),
                     np.zeros(K.MAX_TYPES, dtype=np.float64),
                     np.zeros((K.MAX_INVITES, 3), dtype=np.int64),
                     np.zeros((1, K.LOG_W), dtype=np.int64), out[i])
