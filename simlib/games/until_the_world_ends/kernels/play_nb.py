"""Until the World Ends drivers: whole games with a policy per seat.

``play_game_nb(state, rules, seat_policy, seat_params, legal, work, slog, log)``
    Plays from ``state`` (at a decision) to the end (int64 ``seat_policy`` (MAX_SEATS,),
    float64 ``seat_params`` (MAX_SEATS, N_PARAMS); the rest is scratch, see
    ``api.new_scratch``).
``play_batch_nb(rules, seed, start, players, seat_policy, seat_params, out)``
    Games ``start .. start + count - 1`` over numba threads (``prange``); game ``i`` is
    keyed by ``game_key(seed, start + i)`` only, so results do not depend on the thread
    count or the chunking.  ``players`` int64 (count,), ``seat_policy`` int64 (count,
    MAX_SEATS), ``seat_params`` float64 (count, MAX_SEATS, N_PARAMS), ``out`` int64
    (count, REC_SIZE).
"""
from __future__ import annotations

import numpy as np
from numba import prange

from ....core.jit import njit_nb, njit_parallel_nb
from ....core.rng import game_key_nb
from .. import codes as K
from .engine_nb import apply_action_nb, init_state_nb, legal_actions_nb, record_nb
from .policies_nb import N_PARAMS, choose_nb


@njit_nb
def play_game_nb(state, rules, seat_policy, seat_params, legal, work, slog, log):
    while state[K.S_OVER] == 0:
        n = legal_actions_nb(state, rules, legal)
        s = state[K.S_DECIDER]
        a = choose_nb(state, rules, seat_policy[s], seat_params[s], legal, n, work, slog)
        apply_action_nb(state, rules, a, log)


@njit_nb
def play_into_nb(rules, seed, game, players, seat_policy, seat_params, state, legal, work,
                 slog, rec):
    """Game ``game`` of a study from its deal to its record (arrays preallocated)."""
    init_state_nb(state, rules, players, game_key_nb(seed, game), slog)
    play_game_nb(state, rules, seat_policy, seat_params, legal, work, slog, slog)
    record_nb(state, rules, game, rec)


@njit_parallel_nb
def play_batch_nb(rules, seed, start, players, seat_policy, seat_params, out):
    count = players.shape[0]
    for i in prange(count):  # a small loop body: the parallel lowering stays cheap
        play_into_nb(rules, seed, start + i, players[i], seat_policy[i], seat_params[i],
                     np.zeros(K.S_SIZE, dtype=np.int64), np.zeros(2 * K.MAX_LEGAL, dtype=np.int64),
                     np.zeros((3, K.S_SIZE), dtype=np.int64), np.zeros((1, K.LOG_W), dtype=np.int64),
                     out[i])


__all__ = ["play_game_nb", "play_into_nb", "play_batch_nb", "N_PARAMS"]
