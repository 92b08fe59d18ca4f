"""Teacher games for the distilled player (``simlib train-policy --game
mort-de-la-lumiere-du-jour``, ``distil.py``): the teacher's side plays the rollout player,
the other side its own policy, and at every decision of a teacher seat that the distilled
player judges (a turn's or a committed card's choice among two actions or more) the
distilled player's features of every legal action are written down with the rollout's
playout values of each (``policies_nb.rollout_values_nb``: the very playouts the teacher
chooses by).

The features are read through ``policies_nb.context_nb`` and ``action_spec_nb``, the
functions the player scores with: the fit sees what the player scores.
"""
from __future__ import annotations

import numpy as np

from ....core.jit import njit_alloc_nb
from ....core.rng import game_key_nb
from .. import codes as K
from .engine_nb import advance_nb, init_state_nb, legal_actions_nb, record_nb, step_nb
from .policies_nb import (N_CTX, N_SPEC, POLICY_ROLLOUT, PR_ROLLOUTS, WORK_SIZE, action_spec_nb,
                          choose_search_nb, context_nb, goal_nb, heuristic_nb, rollout_values_nb)

# the columns of a recorded decision's ``dec`` row
DC_FIRST = 0  # its first candidate row
DC_N = 1  # its legal actions (candidate rows)
DC_TEACHER = 2  # the teacher's action: its index among them
DC_HEURISTIC = 3  # the heuristic's action: its index
DC_SEAT = 4
DC_ROUND = 5
N_DC = 6


@njit_alloc_nb(entry=True)
def teacher_game_nb(rules, seed, game, side, seat_policy, seat_params, teacher_params, dec,
                    ctx, kind, spec, val, rec):
    """Play game ``game`` of ``seed`` with the rollout player (``teacher_params``) on the
    teacher's ``side`` (0: the killer, 1: the survivors) and ``seat_policy`` /
    ``seat_params`` (int64 (MAX_SEATS,), float64 (MAX_SEATS, k)) on the other; write down
    each labelled decision: ``dec`` (``DC_*`` columns), ``ctx`` its context, and per legal
    action (a candidate row) ``kind``, ``spec`` and ``val`` (its playouts' mean value for
    the teacher's side).  Decisions past the arrays' room are played, not written.
    ``rec``: the game's record.  Returns ``(decisions, candidate rows)``."""
    state = np.zeros(K.S_SIZE, dtype=np.int64)
    legal = np.zeros(K.MAX_LEGAL, dtype=np.int64)
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    vals = np.zeros(K.MAX_LEGAL, dtype=np.float64)
    log = np.zeros((1, K.LOG_W), dtype=np.int64)
    init_state_nb(state, rules, game_key_nb(seed, game), log)
    advance_nb(state, rules, log)
    m = teacher_params[PR_ROLLOUTS]
    nd = 0
    nc = 0
    while state[K.S_OVER] == 0:
        n = legal_actions_nb(state, rules, legal)
        s = state[K.S_DECIDER]
        ph = state[K.S_PHASE]
        if (s == 0) != (side == 0):
            a = choose_search_nb(state, rules, seat_policy[s], seat_params[s], legal, n, work, log)
        elif n > 1 and (ph == K.PH_TURN or ph == K.PH_COMMIT) and nd < dec.shape[0] and \
                nc + n <= kind.shape[0]:
            a = rollout_values_nb(state, rules, teacher_params, legal, n, work, log, vals)
            h = heuristic_nb(state, rules, teacher_params, legal, n)
            c = context_nb(state, rules, s)
            gx, gy = goal_nb(state, rules, s, teacher_params)
            dec[nd, DC_FIRST] = nc
            dec[nd, DC_N] = n
            dec[nd, DC_SEAT] = s
            dec[nd, DC_ROUND] = state[K.S_ROUND]
            for i in range(N_CTX):
                ctx[nd, i] = c[i]
            for i in range(n):
                kd, sp = action_spec_nb(state, rules, s, legal[i], h, gx, gy)
                kind[nc + i] = kd
                for j in range(N_SPEC):
                    spec[nc + i, j] = sp[j]
                val[nc + i] = vals[i] / m
                if legal[i] == a:
                    dec[nd, DC_TEACHER] = i
                if legal[i] == h:
                    dec[nd, DC_HEURISTIC] = i
            nd += 1
            nc += n
        else:
            a = choose_search_nb(state, rules, POLICY_ROLLOUT, teacher_params, legal, n, work, log)
        step_nb(state, rules, a, log)
    record_nb(state, rules, game, rec)
    return nd, nc
