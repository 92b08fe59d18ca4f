"""Teacher games for the distilled policy (``simlib train-policy --game
until-the-world-ends``, ``distil.py``): the seats play their own policies but the labelled
seats, which play the teacher (the ``rollout`` player); at each of their turns and
challenges with a choice, the distilled policy's features of every legal action are
written down with the teacher's value of that action: its mean share of the game's win
over the teacher's re-dealt worlds (the same worlds for every action, greedy to the end).

The teacher's choice is made here from those very values by ``policies_nb.rollout_nb``'s
rule (greedy's choice stands unless another action's mean paired gain is positive and
exceeds ``z`` standard errors), with the search stream drawn as it draws it, so a labelled
seat plays exactly the rollout player's game (tested).  The features are read through
``policies_nb.context_nb``, ``turn_features_nb`` and ``challenge_features_nb``, the very
functions the policy scores with.
"""
from __future__ import annotations

import numpy as np

from ....core.jit import njit_alloc_nb
from ....core.rng import game_key_nb, randint_at_nb
from .. import codes as K
from .engine_nb import apply_action_nb, init_state_nb, legal_actions_nb, record_nb
from .policies_nb import (
    DP_BONUS,
    DP_END_MARGIN,
    N_CHALLENGE,
    N_CX,
    N_TURN,
    challenge_features_nb,
    choose_nb,
    context_nb,
    greedy_nb,
    rollout_value_nb,
    tie_unit_nb,
    turn_features_nb,
)

# a recorded decision's ``dec`` row
D_PHASE = 0  # codes.PH_TURN or PH_CHALLENGE
D_FIRST = 1  # its first action row
D_N = 2  # its legal actions
D_TEACHER = 3  # the action (index among them) the teacher took
D_GREEDY = 4  # greedy's (the features' greedy parameters)
D_SEAT = 5
D_PLAYERS = 6
N_D = 7


@njit_alloc_nb(entry=True)
def teacher_game_nb(rules, seed, game, players, seat_policy, seat_params, label_mask, tparams,
                    fparams, xt, xc, val, dec, rec):
    """Play game ``game`` of ``seed`` (``seat_policy`` int64 (players,), ``seat_params``
    float64 (players, k)); the seats with ``label_mask[s]`` = 1 play the rollout player of
    parameters ``tparams`` (rollouts, end_margin, challenge_margin, z) and their turns and
    challenges with more than one legal action are written down: row ``r`` of action rows
    holds its turn features (``xt[r]``) or challenge features (``xc[r]``), with the greedy
    choice of the distilled parameters ``fparams``, and the teacher's value (``val[r]``, a
    share of the win); ``dec[j]`` describes decision ``j`` (``D_*``).  Decisions past the
    arrays' room are played, not written.  ``rec``: the game's record.  Returns
    ``(action rows, decisions)``."""
    size = K.S_SEATS + players * K.SEAT_W
    state = np.zeros(size, dtype=np.int64)
    legal = np.zeros(K.SCRATCH_LEGAL, dtype=np.int64)
    work = np.zeros((3, size), dtype=np.int64)
    slog = np.zeros((1, K.LOG_W), dtype=np.int64)
    tries = min(K.MAX_TRIES, max(1, int(tparams[0])))
    vals = np.zeros((K.MAX_LEGAL, tries), dtype=np.int64)
    buf = np.zeros(N_CX + max(N_TURN, N_CHALLENGE), dtype=np.float64)
    cx = buf[:N_CX]
    x = buf[N_CX:]
    gp = tparams[1:3]
    z = tparams[3]
    w = work[1]
    inner = work[2:]
    init_state_nb(state, rules, players, game_key_nb(seed, game), slog)
    nr = 0
    nd = 0
    while state[K.S_OVER] == 0:
        n = legal_actions_nb(state, rules, legal)
        s = state[K.S_DECIDER]
        ph = state[K.S_PHASE]
        if label_mask[s] == 0 or n == 1:
            a = choose_nb(state, rules, seat_policy[s], seat_params[s], legal, n, work, slog)
            apply_action_nb(state, rules, a, slog)
            continue
        # the rollout player's values (policies_nb.rollout_nb, the same draws of the stream)
        g_choice = greedy_nb(state, rules, gp, legal, n, inner, slog)
        randint_at_nb(state, K.S_STREAMS + K.STREAM_SEARCH, 2)
        base = state[K.S_STREAMS + K.STREAM_SEARCH]
        for i in range(n):
            for t in range(tries):
                vals[i, t] = rollout_value_nb(state, rules, w, inner, legal, n, gp, legal[i], s,
                                              base ^ ((t + 1) * 0x2545F4914F6CDD1D), False, slog)
        gi = 0
        for i in range(n):
            if legal[i] == g_choice:
                gi = i
        best = g_choice
        best_mean = 0.0
        for i in range(n):
            if legal[i] == g_choice:
                continue
            s1 = 0.0
            s2 = 0.0
            for t in range(tries):
                d = float(vals[i, t] - vals[gi, t])
                s1 += d
                s2 += d * d
            mean = s1 / tries
            if mean <= best_mean:
                continue
            if tries > 1:
                var = (s2 - tries * mean * mean) / (tries - 1)
                se = np.sqrt(max(var, 0.0) / tries)
                if mean <= z * se:
                    continue
            best_mean = mean
            best = legal[i]
        if (ph == K.PH_TURN or ph == K.PH_CHALLENGE) and nd < dec.shape[0] \
                and nr + n <= val.shape[0]:
            fg = greedy_nb(state, rules, fparams[DP_END_MARGIN:DP_BONUS], legal, n, work, slog)
            context_nb(state, rules, s, cx)
            unit = float(tie_unit_nb(players)) * tries
            dec[nd, D_PHASE] = ph
            dec[nd, D_FIRST] = nr
            dec[nd, D_N] = n
            dec[nd, D_SEAT] = s
            dec[nd, D_PLAYERS] = players
            for i in range(n):
                if legal[i] == best:
                    dec[nd, D_TEACHER] = i
                if legal[i] == fg:
                    dec[nd, D_GREEDY] = i
                if ph == K.PH_TURN:
                    turn_features_nb(state, rules, s, legal[i], fg, cx, work, slog, x)
                    for j in range(N_TURN):
                        xt[nr, j] = x[j]
                else:
                    challenge_features_nb(state, rules, s, legal[i], fg, cx, x)
                    for j in range(N_CHALLENGE):
                        xc[nr, j] = x[j]
                tot = 0
                for t in range(tries):
                    tot += vals[i, t]
                val[nr] = tot / unit
                nr += 1
            nd += 1
        apply_action_nb(state, rules, best, slog)
    record_nb(state, rules, game, rec)
    return nr, nd
