"""Pig's kernels: a game is one int64 state array; the rules one int64 array.

``init_nb(state, rules, players, key)``, ``legal_nb(state, out) -> n``,
``apply_nb(state, rules, action)``, ``choose_nb(state, rules, policy, param) -> action``,
``record_nb(state, game, rec)``, ``play_range_nb(rules, seed, start, players, policy,
param, out, lo, hi)`` (games ``start + lo .. start + hi - 1`` into rows ``lo .. hi - 1``;
``policy`` int64 and ``param`` float64, both (games, MAX_SEATS)).
"""
import numpy as np

from simlib.core.jit import njit_alloc_nb, njit_nb
from simlib.core.rng import game_key_nb, init_streams_nb, randint_nb

from . import codes as K


@njit_nb
def init_nb(state, rules, players, key):
    state[:] = 0
    state[K.S_PLAYERS] = players
    state[K.S_WINNER] = -1
    init_streams_nb(state[K.S_RNG:K.S_RNG + K.N_STREAMS].view(np.uint64), key)


@njit_nb
def legal_nb(state, out):
    if state[K.S_OVER]:
        return 0
    out[0] = K.A_ROLL
    if state[K.S_TURN_TOTAL] == 0:
        return 1  # nothing to bank yet: holding would only pass the turn
    out[1] = K.A_HOLD
    return 2


@njit_nb
def _next_turn_nb(state, rules):
    state[K.S_TURN_TOTAL] = 0
    state[K.S_TURNS] += 1
    state[K.S_SEAT] = (state[K.S_SEAT] + 1) % state[K.S_PLAYERS]
    if state[K.S_TURNS] >= rules[K.R_MAX_TURNS]:
        state[K.S_OVER] = 1


@njit_nb
def apply_nb(state, rules, action):
    s = state[K.S_SEAT]
    if action == K.A_ROLL:
        face = 1 + randint_nb(state[K.S_RNG:K.S_RNG + K.N_STREAMS].view(np.uint64),
                              K.STREAM_DICE, rules[K.R_FACES])
        state[K.S_ROLLS] += 1
        if face == rules[K.R_BUST]:
            _next_turn_nb(state, rules)
        else:
            state[K.S_TURN_TOTAL] += face
        return
    state[K.S_SCORE + s] += state[K.S_TURN_TOTAL]
    if state[K.S_SCORE + s] >= rules[K.R_TARGET]:
        state[K.S_OVER] = 1
        state[K.S_WINNER] = s
        state[K.S_TURN_TOTAL] = 0
        return
    _next_turn_nb(state, rules)


@njit_nb
def choose_nb(state, rules, policy, param):
    """The action of the seat to move: ``random`` (a fair coin once holding is legal) or
    ``hold_at`` (hold at a turn total of ``param`` or when holding wins)."""
    if state[K.S_TURN_TOTAL] == 0:
        return K.A_ROLL
    if policy == K.POLICY_RANDOM:
        return randint_nb(state[K.S_RNG:K.S_RNG + K.N_STREAMS].view(np.uint64), K.STREAM_POLICY, 2)
    total = state[K.S_TURN_TOTAL]
    if total >= param or state[K.S_SCORE + state[K.S_SEAT]] + total >= rules[K.R_TARGET]:
        return K.A_HOLD
    return K.A_ROLL


@njit_nb
def record_nb(state, game, rec):
    rec[:] = -1
    rec[K.REC_GAME] = game
    rec[K.REC_PLAYERS] = state[K.S_PLAYERS]
    rec[K.REC_WINNER] = state[K.S_WINNER]
    rec[K.REC_TURNS] = state[K.S_TURNS]
    rec[K.REC_ROLLS] = state[K.S_ROLLS]
    for s in range(state[K.S_PLAYERS]):
        rec[K.REC_SCORE + s] = state[K.S_SCORE + s]


@njit_alloc_nb
def play_range_nb(rules, seed, start, players, policy, param, out, lo, hi):
    state = np.zeros(K.S_SIZE, dtype=np.int64)
    for i in range(lo, hi):
        init_nb(state, rules, players[i], game_key_nb(seed, start + i))
        while state[K.S_OVER] == 0:
            s = state[K.S_SEAT]
            apply_nb(state, rules, choose_nb(state, rules, policy[i, s], param[i, s]))
        record_nb(state, start + i, out[i])
