"""Until the World Ends drivers, and the one kernel Python calls.

``play_game_nb(state, rules, seat_policy, seat_params, legal, work, slog, log)``
    Plays from ``state`` (at a decision) to the end (int64 ``seat_policy`` (seats,),
    float64 ``seat_params`` (seats, N_PARAMS), seats >= players; the rest is scratch, see
    ``api.new_scratch``).
``kernel_nb(op, rules, seed, start, players, seat_policy, seat_params, out, state, a, b,
legal, work, slog, log) -> int64``
    Every operation Python asks of the engine, in one compiled entry (a cold compile links
    and optimises the engine once, not once per operation):

    * ``OP_BATCH``: games ``start .. start + count - 1`` over numba threads (``prange``);
      game ``i`` is keyed by ``game_key(seed, start + i)`` only, so results do not depend
      on the thread count or the chunking.  ``players`` int64 (count,), ``seat_policy``
      int64 (count, seats), ``seat_params`` float64 (count, seats, N_PARAMS), ``out``
      int64 (count, codes.rec_size(seats)) receives the records (seats >= every game's
      players); each game's state is sized to its own players.
    * ``OP_INIT``: ``state`` becomes game ``a`` of seed ``seed`` with ``players[0]`` seats.
    * ``OP_LEGAL``: the legal codes into ``legal``; returns their number.
    * ``OP_APPLY``: applies action code ``a``; returns 1 (0: not legal, nothing changed).
    * ``OP_CHOOSE``: the action seat ``a``'s policy (``seat_policy[0, a]``,
      ``seat_params[0, a]``) takes now.
    * ``OP_RECORD``: the record of game number ``a`` into ``out[0]``.
    * ``OP_SCORE``: seat ``a``'s round score with ending card ``b``'s modifier (-1: none).
    * ``OP_PLAY``: plays to the end with the seats' policies (``seat_policy[0]``).
"""
from __future__ import annotations

import numpy as np
from numba import prange

from ....core.jit import njit_nb, njit_parallel_nb
from ....core.rng import game_key_nb
from .. import codes as K
from .engine_nb import (apply_action_nb, init_state_nb, legal_actions_nb, record_nb,
                        score_player_nb)
from .policies_nb import N_PARAMS, choose_nb

OP_BATCH, OP_INIT, OP_LEGAL, OP_APPLY, OP_CHOOSE, OP_RECORD, OP_SCORE, OP_PLAY = range(8)


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
def kernel_nb(op, rules, seed, start, players, seat_policy, seat_params, out, state, a, b,
              legal, work, slog, log):
    if op == OP_BATCH:
        count = players.shape[0]
        for i in prange(count):  # a small loop body: the parallel lowering stays cheap
            size = K.S_SEATS + players[i] * K.SEAT_W  # codes.state_size: this game's seats
            play_into_nb(rules, seed, start + i, players[i], seat_policy[i], seat_params[i],
                         np.zeros(size, dtype=np.int64), np.zeros(K.SCRATCH_LEGAL, dtype=np.int64),
                         np.zeros((3, size), dtype=np.int64), np.zeros((1, K.LOG_W), dtype=np.int64),
                         out[i])
        return np.int64(count)
    if op == OP_INIT:
        if state.shape[0] < K.S_SEATS + players[0] * K.SEAT_W or work.shape[1] < state.shape[0]:
            raise ValueError("the state (or the policies' work rows) hold fewer seats than the players")
        init_state_nb(state, rules, players[0], game_key_nb(seed, a), log)
        return np.int64(0)
    if op == OP_LEGAL:
        return np.int64(legal_actions_nb(state, rules, legal))
    if op == OP_APPLY:
        return np.int64(1) if apply_action_nb(state, rules, a, log) else np.int64(0)
    if op == OP_CHOOSE:
        n = legal_actions_nb(state, rules, legal)
        return np.int64(choose_nb(state, rules, seat_policy[0, a], seat_params[0, a], legal, n, work, slog))
    if op == OP_RECORD:
        record_nb(state, rules, a, out[0])
        return np.int64(0)
    if op == OP_SCORE:
        return np.int64(score_player_nb(state, rules, a, b, False))
    play_game_nb(state, rules, seat_policy[0], seat_params[0], legal, work, slog, log)
    return np.int64(0)


__all__ = ["play_game_nb", "play_into_nb", "kernel_nb", "N_PARAMS", "OP_BATCH", "OP_INIT",
           "OP_LEGAL", "OP_APPLY", "OP_CHOOSE", "OP_RECORD", "OP_SCORE", "OP_PLAY"]
