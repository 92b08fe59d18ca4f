"""Teacher games for the distilled player (``simlib train-policy --game day-night-z``,
``distil.py``): the rollout search's values of the baseline's choice and of each
alternative to it, written down with what the distilled player scores.

At every action decision the candidates are the baseline's choice and each legal
alternative (``policies_nb.alternative_nb``); at the activation order, every survivor who
may activate.  Each candidate is played out ``m`` times by the baseline
(``search_nb.continuation_nb``: the rollout player's continuations, re-keyed from (seed,
game, decision, index) with every deck's unseen part re-shuffled, to the end or the
rollout's horizon; common random numbers: continuation ``r`` has the same key whichever
candidate it follows), and its mean value (``search_nb.value_nb``) is written with the
decision's context (``policies_nb.context_nb``) or the activation's features
(``order_features_nb``): the very functions the distilled player scores with, so the fit
sees what the player scores.  The game goes on with the teacher's choice: the rollout's
rule on those means (the baseline's choice stands unless another candidate's mean paired
gain exceeds the rollout's ``threshold`` and ``z`` paired standard errors; the largest gain
wins), every candidate played out ``m`` times (the rollout drops the hopeless ones early).
"""
from __future__ import annotations

import numpy as np

from ....core.jit import njit_alloc_nb
from ....core.rng import game_key_nb
from .. import codes as K
from .engine_nb import apply_action_nb, init_state_nb, legal_actions_nb, record_nb
from .policies_nb import (N_ALT, N_CONTEXT, N_ORDER, N_PARAMS, POLICY_BASELINE, alternative_nb, choose_nb,
                          context_nb, order_features_nb)
from .search_nb import SP_THRESHOLD, SP_Z, continuation_key_nb, continuation_nb

_G = K.S_GLOBALS
# the columns of a recorded decision's ``dec`` row
D_FIRST = 0  # its first candidate row
D_N = 1  # its candidates
D_BASE = 2  # the baseline's choice's row (absolute)
D_TEACH = 3  # the teacher's choice's row
D_PHASE = 4  # the decision's phase (PH_*)
D_TEAM = 5
D_ALT = 6  # then each alternative's row (ALTERNATIVES order; -1: none)
N_D = D_ALT + N_ALT


@njit_alloc_nb(entry=True)
def teacher_game_nb(dice, tr, spn, rl, seed, game, team, hour, par, m, ctx_out, ord_out, v, codes,
                    dec, rec):
    """Play game ``game`` of ``seed`` (``team`` survivors from ``hour``) with the teacher
    (``par``: a search player's vector, the baseline's parameters then the search's) and
    write down its decisions: at an action decision the baseline's choice and each legal
    alternative (``policies_nb.alternative_nb``), at the activation order every survivor
    who may activate; each candidate's mean value over ``m`` continuations (``v``) and
    code (``codes``), its activation features (``ord_out``, rows of ``ORDER_FEATURES``; 0
    at an action decision), the decision's context (``ctx_out``, one row a decision,
    ``CONTEXT``; 0 at the order) and its ``dec`` row (``D_*``).  The game goes on with the
    teacher's choice among the candidates (the module docstring); a decision that does not
    fit is played, not written.  ``rec``: the game's record.  Returns ``(candidate rows,
    decisions)``."""
    st = np.zeros(K.S_SIZE, dtype=np.int64)
    rng = np.zeros(K.N_STREAMS, dtype=np.uint64)
    legal = np.zeros(K.MAX_LEGAL, dtype=np.int64)
    work = np.zeros(K.S_SIZE, dtype=np.int64)
    wrng = np.zeros(K.N_STREAMS, dtype=np.uint64)
    wlegal = np.zeros(K.MAX_LEGAL, dtype=np.int64)
    held = np.zeros(K.MAX_SURV, dtype=np.int64)
    cand = np.zeros(K.MAX_LEGAL, dtype=np.int64)
    alt_of = np.zeros(N_ALT, dtype=np.int64)
    vals = np.zeros((K.MAX_LEGAL, m), dtype=np.float64)
    bpar = par[:N_PARAMS]
    sp = par[N_PARAMS:]
    init_state_nb(st, rng, dice, tr, spn, rl, game_key_nb(seed, game), team, hour, game, legal)
    nr = 0
    nd = 0
    while st[_G + K.G_OVER] == 0:
        n = legal_actions_nb(st, tr, rl, legal)
        base = choose_nb(st, rng, tr, rl, POLICY_BASELINE, bpar, legal, n)
        ph = st[_G + K.G_PHASE]
        k = 0
        if ph == K.PH_ORDER:
            cand[0] = base
            k = 1
            for i in range(n):
                if legal[i] != base:
                    cand[k] = legal[i]
                    k += 1
        elif ph == K.PH_ACT or ph == K.PH_RESERVE:
            cand[0] = base
            k = 1
            for j in range(N_ALT):
                a = alternative_nb(st, tr, rl, bpar, legal, n, base, j)
                alt_of[j] = -1
                if a < 0:
                    continue
                for i in range(k):
                    if cand[i] == a:
                        alt_of[j] = i
                if alt_of[j] < 0:
                    alt_of[j] = k
                    cand[k] = a
                    k += 1
        if k < 2:
            apply_action_nb(st, rng, dice, tr, spn, rl, base, legal)
            continue
        d = st[_G + K.G_DECISIONS]
        for i in range(k):
            for r in range(m):
                vals[i, r] = continuation_nb(st, rng, dice, tr, spn, rl, bpar, sp, cand[i],
                                             continuation_key_nb(seed, game, d, r), 0, work,
                                             wrng, wlegal, held)
        best = 0
        best_gain = 0.0
        for i in range(1, k):
            tot = 0.0
            sq = 0.0
            for r in range(m):
                g = vals[i, r] - vals[0, r]
                tot += g
                sq += g * g
            gain = tot / m
            if gain <= sp[SP_THRESHOLD] or gain <= best_gain or m < 2:
                continue
            var = max(0.0, sq / m - gain * gain) * m / (m - 1)
            if gain <= sp[SP_Z] * np.sqrt(var / m):
                continue
            best = i
            best_gain = gain
        if nr + k <= v.shape[0] and nd < dec.shape[0]:
            dec[nd, D_FIRST] = nr
            dec[nd, D_N] = k
            dec[nd, D_BASE] = nr
            dec[nd, D_TEACH] = nr + best
            dec[nd, D_PHASE] = ph
            dec[nd, D_TEAM] = team
            for j in range(N_ALT):
                dec[nd, D_ALT + j] = -1
            if ph == K.PH_ORDER:
                for j in range(N_CONTEXT):
                    ctx_out[nd, j] = 0.0
                for i in range(k):
                    f = order_features_nb(st, rl, cand[i], base)
                    for j in range(N_ORDER):
                        ord_out[nr + i, j] = f[j]
            else:
                c = context_nb(st, tr, rl, base)
                for j in range(N_CONTEXT):
                    ctx_out[nd, j] = c[j]
                for j in range(N_ALT):
                    if alt_of[j] >= 0:
                        dec[nd, D_ALT + j] = nr + alt_of[j]
                for i in range(k):
                    for j in range(N_ORDER):
                        ord_out[nr + i, j] = 0.0
            for i in range(k):
                t = 0.0
                for r in range(m):
                    t += vals[i, r]
                v[nr + i] = t / m
                codes[nr + i] = cand[i]
            nr += k
            nd += 1
        apply_action_nb(st, rng, dice, tr, spn, rl, cand[best], legal)
    record_nb(st, tr, rl, rec)
    return nr, nd
