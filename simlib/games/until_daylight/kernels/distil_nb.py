"""Teacher games for the distilled policy: the rollout search plays, and at every decision
where it searches, the features of the baseline's best candidates and the one it took are
written down (``simlib train-policy``, ``distil.py``).

The features are read through ``policies_nb.distilled_value_nb`` itself, called with unit
weight vectors (the score is linear in its weights): the features the fit sees are those
the policy scores, with no second copy of their code to drift.
"""
from __future__ import annotations

import numpy as np

from simlib.core.jit import njit_alloc_nb
from simlib.games.until_daylight.codes import (
    G_DECISIONS,
    G_GAME_KEY,
    G_PENDING_D,
    G_PENDING_M,
    G_PENDING_SEAT,
    G_ROUND,
    MAX_CANDS,
    MODE_STEP,
    N_REC,
)
from simlib.games.until_daylight.kernels.game_nb import (
    advance_nb,
    apply_action_nb,
    init_state_nb,
    new_state_nb,
    start_game_nb,
    write_record_nb,
)
from simlib.games.until_daylight.kernels.policies_nb import (
    DP_TOP_K,
    MAX_TOP_K,
    N_FEATURES,
    baseline_top_nb,
    distilled_choose_nb,
    distilled_gap_nb,
    distilled_gate_nb,
    distilled_value_nb,
)
from simlib.games.until_daylight.kernels.search_nb import (
    N_STATS,
    RP_BUDGET,
    _rollout_value_of_nb,
    policy_choice_nb,
    rollout_choose_nb,
)
from simlib.games.until_daylight.kernels.state_nb import cands_of

# the columns of a recorded decision's ``meta`` row
M_COUNT = 0  # candidates ranked (2..MAX_TOP_K)
M_LABEL = 1  # rank of the teacher's choice among them (-1: another candidate)
M_DECISION = 2  # decision kind (``codes.D_*``)
M_ROUND = 3
M_DISTILLED = 4  # rank the distilled policy (``dpp``'s weights) would take
M_SHARED = 5  # 4 (MAX_TOP_K): continuations rank r shared with the baseline's choice (0:
# not evaluated, or dropped before any; the baseline's own: all it played)
N_META = M_SHARED + MAX_TOP_K


@njit_alloc_nb(entry=True)
def teacher_game_nb(rs, seed, game, n_players, chars, bpid, bpp, rp, dpp, feats, meta, gains,
                    rec):
    """Play game ``game`` of ``seed`` with the rollout player (``bpid``, ``bpp``, ``rp``:
    ``resolve_search``'s triple) and record its searched decisions: ``feats[j, r]`` the
    ``N_FEATURES`` features of rank ``r`` among the baseline's best ``dpp[DP_TOP_K]``
    (``dpp``: the distilled policy's vector, whose gate must be the teacher's), ``meta[j]``
    the ``M_*`` columns, ``gains[j, r]`` the search's mean paired gain of rank ``r`` over
    the baseline's choice on the continuations they shared (the search's own values of
    them: a win 1, a loss its small shaped score).  Decisions past ``feats.shape[0]`` are played, not recorded.
    ``rec``: the game's record.  Returns the number of decisions recorded."""
    st = new_state_nb(rs, 0)
    work = np.empty(st.shape[0], dtype=np.int64)
    wrec = np.zeros(N_REC, dtype=np.int64)
    cand = np.zeros(MAX_CANDS, dtype=np.int64)
    total = np.zeros(MAX_CANDS, dtype=np.float64)
    count = np.zeros(MAX_CANDS, dtype=np.int64)
    sq = np.zeros(MAX_CANDS, dtype=np.float64)
    basev = np.zeros(np.int64(rp[RP_BUDGET]) + MAX_CANDS, dtype=np.float64)
    stats = np.zeros(N_STATS, dtype=np.int64)
    unit = np.zeros(N_FEATURES, dtype=np.float64)
    init_state_nb(rs, 0, st)
    start_game_nb(st, rs, seed, game, n_players, chars, 0, MODE_STEP)
    k = min(np.int64(dpp[DP_TOP_K]), MAX_TOP_K)
    rows = 0
    live = advance_nb(st, rs, bpid, bpp)
    while live == 1:
        d = st[G_PENDING_D]
        seat = st[G_PENDING_SEAT]
        m = st[G_PENDING_M]
        if rows < feats.shape[0] and distilled_gate_nb(st, rs, dpp, d, m):
            cnt, i0, i1, i2, i3, s0, s1, s2, s3 = baseline_top_nb(st, rs, dpp, d, seat, m, k)
            if cnt >= 2:
                cands = cands_of(st)
                for r in range(cnt):
                    i = i0 if r == 0 else (i1 if r == 1 else (i2 if r == 2 else i3))
                    s = s0 if r == 0 else (s1 if r == 1 else (s2 if r == 2 else s3))
                    gap = distilled_gap_nb(s, s0)
                    for j in range(N_FEATURES):
                        unit[j] = 1.0
                        feats[rows, r, j] = distilled_value_nb(st, rs, unit, 0, d, seat,
                                                               cands[i, 0], cands[i, 1],
                                                               cands[i, 2], r, gap,
                                                               cands[i0, 0])
                        unit[j] = 0.0
                for r in range(cnt):  # the search's counts of these, fresh (see below)
                    i = i0 if r == 0 else (i1 if r == 1 else (i2 if r == 2 else i3))
                    count[i] = 0
                    total[i] = 0.0
                dc = distilled_choose_nb(st, rs, dpp, d, seat, m)
                c = rollout_choose_nb(st, rs, bpid, bpp, rp, work, wrec, cand, total, count, sq,
                                      basev, stats)
                meta[rows, M_COUNT] = cnt
                meta[rows, M_LABEL] = -1
                meta[rows, M_DISTILLED] = -1
                for r in range(cnt):
                    i = i0 if r == 0 else (i1 if r == 1 else (i2 if r == 2 else i3))
                    if i == c:
                        meta[rows, M_LABEL] = r
                    if i == dc:
                        meta[rows, M_DISTILLED] = r
                for r in range(cnt):
                    i = i0 if r == 0 else (i1 if r == 1 else (i2 if r == 2 else i3))
                    n_sh = count[i] if count[i] > 0 else 0
                    meta[rows, M_SHARED + r] = n_sh
                    gains[rows, r] = 0.0
                    if r > 0 and n_sh > 0:
                        # continuation q of every candidate has the same key: the first
                        # n_sh of the baseline's choice are the ones this one shared
                        base_sum = 0.0
                        for q in range(n_sh):
                            base_sum += basev[q]
                        gains[rows, r] = (total[i] - base_sum) / n_sh
                meta[rows, M_DECISION] = d
                meta[rows, M_ROUND] = st[G_ROUND]
                rows += 1
                live = apply_action_nb(st, rs, bpid, bpp, c)
                continue
        c = rollout_choose_nb(st, rs, bpid, bpp, rp, work, wrec, cand, total, count, sq, basev,
                              stats)
        live = apply_action_nb(st, rs, bpid, bpp, c)
    write_record_nb(st, rs, game, rec)
    return rows


@njit_alloc_nb(entry=True)
def value_game_nb(rs, seed, game, n_players, chars, bpid, bpp, rp, dpp, n_cont, feats, meta,
                  gains, rec):
    """Play game ``game`` of ``seed`` with the baseline and, at every decision where the
    teacher (``rp``: the rollout player's vector) would search (``dpp``'s gate), value the
    baseline's best candidates the teacher's way with no early stop: each of them on the
    same ``n_cont`` continuations (continuation ``q`` has one key for every candidate:
    common random numbers; re-keyed, no peeking; the teacher's horizon and values), so
    ``gains[j, r]``, rank ``r``'s mean paired gain over the baseline's choice, is an
    unbiased estimate (the search's own means are not: it drops a challenger when its
    first continuations go badly).  ``feats``, ``meta`` as in ``teacher_game_nb``
    (``M_LABEL``: the rank of the highest gain, 0 on a tie; ``M_SHARED + r``: ``n_cont``).
    Returns the number of decisions recorded."""
    st = new_state_nb(rs, 0)
    work = np.empty(st.shape[0], dtype=np.int64)
    wrec = np.zeros(N_REC, dtype=np.int64)
    basev = np.zeros(n_cont, dtype=np.float64)
    unit = np.zeros(N_FEATURES, dtype=np.float64)
    init_state_nb(rs, 0, st)
    start_game_nb(st, rs, seed, game, n_players, chars, 0, MODE_STEP)
    k = min(np.int64(dpp[DP_TOP_K]), MAX_TOP_K)
    rows = 0
    live = advance_nb(st, rs, bpid, bpp)
    while live == 1:
        d = st[G_PENDING_D]
        seat = st[G_PENDING_SEAT]
        m = st[G_PENDING_M]
        base = policy_choice_nb(st, rs, bpid, bpp)
        if rows < feats.shape[0] and distilled_gate_nb(st, rs, dpp, d, m):
            cnt, i0, i1, i2, i3, s0, s1, s2, s3 = baseline_top_nb(st, rs, dpp, d, seat, m, k)
            if cnt >= 2:
                cands = cands_of(st)
                game_key = st[G_GAME_KEY]
                dec = st[G_DECISIONS]
                for q in range(n_cont):
                    basev[q] = _rollout_value_of_nb(st, rs, bpid, bpp, rp, work, wrec, i0, q,
                                                    game_key, dec)
                best = 0
                best_g = 0.0
                for r in range(cnt):
                    i = i0 if r == 0 else (i1 if r == 1 else (i2 if r == 2 else i3))
                    s = s0 if r == 0 else (s1 if r == 1 else (s2 if r == 2 else s3))
                    gap = distilled_gap_nb(s, s0)
                    for j in range(N_FEATURES):
                        unit[j] = 1.0
                        feats[rows, r, j] = distilled_value_nb(st, rs, unit, 0, d, seat,
                                                               cands[i, 0], cands[i, 1],
                                                               cands[i, 2], r, gap,
                                                               cands[i0, 0])
                        unit[j] = 0.0
                    meta[rows, M_SHARED + r] = n_cont
                    g = 0.0
                    if r > 0:
                        for q in range(n_cont):
                            g += _rollout_value_of_nb(st, rs, bpid, bpp, rp, work, wrec, i, q,
                                                      game_key, dec) - basev[q]
                        g /= n_cont
                    gains[rows, r] = g
                    if g > best_g:
                        best_g = g
                        best = r
                meta[rows, M_COUNT] = cnt
                meta[rows, M_LABEL] = best
                meta[rows, M_DISTILLED] = -1
                dc = distilled_choose_nb(st, rs, dpp, d, seat, m)
                for r in range(cnt):
                    i = i0 if r == 0 else (i1 if r == 1 else (i2 if r == 2 else i3))
                    if i == dc:
                        meta[rows, M_DISTILLED] = r
                meta[rows, M_DECISION] = d
                meta[rows, M_ROUND] = st[G_ROUND]
                rows += 1
        live = apply_action_nb(st, rs, bpid, bpp, base)
    write_record_nb(st, rs, game, rec)
    return rows
