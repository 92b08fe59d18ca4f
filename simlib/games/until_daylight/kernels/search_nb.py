"""Continuations of a game from a decision: clones, re-keyed streams, odds.

A state in step mode (``game_nb.MODE_STEP``) stands at a pending decision.  A
*continuation* copies it, gives the copy fresh random streams from a continuation key
(a pure function of the game's key, the number of decisions taken and the continuation's
number) with the unseen decks in canonical order, optionally takes one candidate, and
plays on with a policy to the end.  It cannot see the real future: what it draws depends
only on which cards are unseen, never on their real order (``game_nb.rekey_now_nb``).
"""
from __future__ import annotations

import numpy as np

from simlib.core.jit import njit_alloc_nb, njit_nb
from simlib.core.rng import GOLDEN, STREAM_SALT, mix64_nb
from simlib.games.until_daylight.codes import (
    CH_HEALTH,
    G_DECISIONS,
    G_EV_CAP,
    G_GAME_KEY,
    G_OVER,
    G_O_EV,
    G_O_SCRIPT,
    G_O_SNAP,
    G_PENDING_D,
    G_PENDING_M,
    G_PENDING_SEAT,
    G_ROUND,
    G_SCRIPT_CAP,
    G_SCRIPT_N,
    G_SIZE,
    G_SNAP_N,
    G_SUSPENDED,
    MAX_CANDS,
    MODE_STEP,
    N_CHAR_COLS,
    N_EV_COLS,
    N_REC,
    OUT_WIN,
    PC_OVER,
    PC_ROUND_BEGIN,
    P_ROUNDS,
    REC_CHARACTER,
    REC_HEALTH,
    REC_OUTCOME,
    REC_PLAYERS,
    REC_ROUND_REACHED,
    REC_SURVIVORS_SAVED,
    RH_O_CHAR,
)
from simlib.games.until_daylight.kernels.game_nb import (
    advance_nb,
    apply_action_nb,
    finish_nb,
    init_state_nb,
    new_state_nb,
    run_nb,
    set_rekey_nb,
    start_game_nb,
    step_nb,
    write_record_nb,
)
from simlib.games.until_daylight.kernels.policies_nb import baseline_score_nb, choose_nb
from simlib.games.until_daylight.kernels.state_nb import card_tab_of, cands_of, inv_of, pl_of

CONTINUATION_SALT = np.uint64(0x8CB92BA72F3D8DD7)


@njit_nb
def continuation_key_nb(game_key, decision, r):
    """Key of continuation ``r`` from the position after ``decision`` decisions."""
    d = mix64_nb(np.uint64(decision + 1) * GOLDEN ^ CONTINUATION_SALT)
    return mix64_nb(np.uint64(game_key) ^ d ^ (np.uint64(r + 1) * STREAM_SALT))


@njit_nb
def clone_into_nb(dst, src):
    """Copy the parts of ``src`` a continuation needs into ``dst`` (same layout): the
    position, the step's snapshot and script, and the trace when it has one."""
    n = src[G_O_EV]  # head and persistent parts come first
    for i in range(n):
        dst[i] = src[i]
    if src[G_EV_CAP] > 0:
        o = src[G_O_EV]
        for i in range(o, o + src[G_EV_CAP] * N_EV_COLS):
            dst[i] = src[i]
    o = src[G_O_SNAP]
    for i in range(o, o + src[G_SNAP_N]):
        dst[i] = src[i]
    o = src[G_O_SCRIPT]
    for i in range(o, o + src[G_SCRIPT_N]):
        dst[i] = src[i]


@njit_nb
def take_then_finish_nb(st, rs, pid, pp, action, key, stop_pc):
    """Re-key ``st`` with ``key`` at its pending decision, take ``action`` there (-1: the
    policy chooses), and play on with policy ``pid`` until the end or ``stop_pc``."""
    set_rekey_nb(st, key)
    if action >= 0 and st[G_SUSPENDED] != 0:
        k = st[G_SCRIPT_N]
        if k < st[G_SCRIPT_CAP]:
            st[st[G_O_SCRIPT] + k] = action
            st[G_SCRIPT_N] = k + 1
    finish_nb(st, rs, pid, pp, stop_pc)


@njit_alloc_nb(entry=True)
def continuations_nb(st, rs, pid, pp, action, first, n, peek, out):
    """Play continuations ``first .. first + n - 1`` of ``st`` and write their records.

    ``action``: the candidate taken at the pending decision (-1: the policy chooses).
    ``peek`` = 1 keeps the game's real streams (a clairvoyant bound, never a default).
    ``out``: int64 (n, N_REC).  ``st`` is not changed.
    """
    work = np.empty(st[G_SIZE], dtype=np.int64)
    base = st[G_GAME_KEY]
    dec = st[G_DECISIONS]
    for r in range(n):
        clone_into_nb(work, st)
        if peek != 0:
            if action >= 0 and work[G_SUSPENDED] != 0:
                k = work[G_SCRIPT_N]
                work[work[G_O_SCRIPT] + k] = action
                work[G_SCRIPT_N] = k + 1
            finish_nb(work, rs, pid, pp, PC_OVER)
        else:
            key = continuation_key_nb(base, dec, first + r)
            take_then_finish_nb(work, rs, pid, pp, action, np.int64(key), PC_OVER)
        write_record_nb(work, rs, -1, out[r])


@njit_nb
def policy_choice_nb(st, rs, pid, pp):
    """The candidate policy ``pid`` would take at the pending decision (-1: none pending)."""
    if st[G_SUSPENDED] == 0:
        return -1
    return choose_nb(st, rs, pid, pp, st[G_PENDING_D], st[G_PENDING_SEAT], st[G_PENDING_M])


# =========================================================================== rollout player
# parameter vector of the rollout player (float64), names in ``policies.py``
RP_BUDGET = 0  # continuations per decision, in total over the candidates
RP_TOP_K = 1  # candidates evaluated: the baseline's best k (0: all)
RP_THRESHOLD = 2  # keep the baseline's choice unless another beats it by this much
RP_W_ROUND = 3  # value of a lost continuation: weight of the share of rounds survived
RP_W_HEALTH = 4  # ... of the share of health left
RP_W_SAVED = 5  # ... per survivor held at the end (capped at 1 in total)
RP_PEEK = 6  # 1: continuations keep the real streams (clairvoyant bound)
RP_Z = 7  # a challenger must beat the baseline's choice by z paired standard errors too
RP_HORIZON = 8  # 0: continuations play to the end; h >= 1: to the end of the h-th round
# that ends (the current one first), then the position is valued (rollout_value_nb)
RP_FIRST_CHECK = 9  # the first check for hopeless challengers after this many shared
# continuations (where a continuation can reach the night's end)
RP_CHECK_EVERY = 10  # ... then one every this many
RP_FUTILITY_Z = 11  # from FUTILITY_FROM shared continuations on, a challenger is dropped
# unless its gain + this many standard errors reaches the threshold (z: no futility bound)
RP_SKIP_KINDS = 12  # decision kinds (bit d for kind ``codes.D_*`` d) where the baseline's
# choice stands without a search
RP_SHORT = 13  # 1: also search where no continuation reaches the night's last round (a
# horizon that ends earlier: every value is the shaped score); 0: the baseline's stands
N_ROLLOUT_PARAMS = 14
FUTILITY_FROM = 8  # shared continuations from which the futility bound applies
# At a decision whose continuations all stop before the night's last round (``short`` = 1),
# no continuation can win: every value is the small shaped score.  There the checks come
# sooner (rollout-100 with horizon 2, 60 calibrated games: the search changed no choice at
# the 7,128 of 9,954 decisions of rounds 1-8, where it spent more than half of its
# continuations; ``short`` = 0 now skips them):
SHORT_CHECK_EVERY = 2  # ... every 2 continuations
SHORT_MIN_CHECK = 2  # ... from the 2nd on (8 continuations for 4 candidates)
MIN_PAIRED = 16  # a challenger needs this many shared continuations before it can win:
# a paired standard error from fewer is too often 0 (all differences alike)

# counters of the search's work (``rollout_choose_nb``'s ``stats``, summed over its calls):
# where a search game's time goes (``benchmarks/strong_players.py search``)
ST_DECISIONS = 0  # decisions the rollout player took
ST_SEARCHED = 1  # ... of them with 2+ candidates evaluated (the others: the baseline's choice)
ST_CONTINUATIONS = 2  # continuations played
ST_EARLY = 3  # searches stopped early: every challenger dropped as hopeless
ST_CHANGED = 4  # decisions where the search took another candidate than the baseline's
N_STATS = 5


@njit_nb
def rollout_value_nb(rec, rs, rp):
    """A continuation's value: 1 for a win; a loss scores the weighted shares of rounds
    survived, of health left and of survivors held (3 or more count fully), with small
    weights (``rp``, 0.02 each by default) so that wins decide whenever a candidate's
    continuations win, and the shaping still orders candidates on a night nobody wins.
    A continuation stopped at its horizon (the game not over) is valued by the same
    shaped score: the round it stands in, the health and the survivors it holds."""
    if rec[REC_OUTCOME] == OUT_WIN:
        return 1.0
    rounds = max(1, rs[P_ROUNDS])
    v = rp[RP_W_ROUND] * min(1.0, (rec[REC_ROUND_REACHED] - 1) / rounds)
    hl = 0.0
    hm = 0.0
    for s in range(rec[REC_PLAYERS]):
        hl += max(0, rec[REC_HEALTH + s])
        hm += max(1, rs[rs[RH_O_CHAR] + rec[REC_CHARACTER + s] * N_CHAR_COLS + CH_HEALTH])
    v += rp[RP_W_HEALTH] * hl / hm
    v += rp[RP_W_SAVED] * min(1.0, rec[REC_SURVIVORS_SAVED] / 3.0)
    return v


@njit_nb
def _rollout_value_of_nb(st, rs, bpid, bpp, rp, work, rec, c, r, game_key, dec):
    """Value of continuation ``r`` after taking candidate ``c`` at ``st``'s decision,
    played to the end or to the end of its ``horizon``-th round."""
    h = np.int64(rp[RP_HORIZON])
    stop = PC_OVER if h <= 0 else PC_ROUND_BEGIN
    clone_into_nb(work, st)
    if rp[RP_PEEK] != 0:
        kk = work[G_SCRIPT_N]
        work[work[G_O_SCRIPT] + kk] = c
        work[G_SCRIPT_N] = kk + 1
        finish_nb(work, rs, bpid, bpp, stop)
    else:
        key = continuation_key_nb(game_key, dec, r)
        take_then_finish_nb(work, rs, bpid, bpp, c, np.int64(key), stop)
    for _ in range(h - 1):  # the next rounds: each from its beginning to the next's
        if work[G_OVER] != 0:
            break
        step_nb(work, rs, bpid, bpp)
        run_nb(work, rs, bpid, bpp, PC_ROUND_BEGIN)
    write_record_nb(work, rs, -1, rec)
    return rollout_value_nb(rec, rs, rp)


@njit_nb
def _paired_gain_nb(c, total, sq, basev, n):
    """Mean paired gain of candidate ``c`` over the baseline's choice on their first ``n``
    shared continuations, and its standard error (infinite from one continuation)."""
    base_sum = 0.0
    for r in range(n):
        base_sum += basev[r]
    gain = (total[c] - base_sum) / n
    if n < 2:
        return gain, np.inf
    var = max(0.0, (sq[c] / n - gain * gain)) * n / (n - 1)
    return gain, np.sqrt(var / n)


@njit_nb
def _drop_hopeless_nb(rp, cand, alive, total, sq, basev, n):
    """Drop the challengers (``cand[1:alive]``, each with ``n`` continuations shared with
    the baseline's choice) whose paired gain cannot plausibly reach the threshold: mean
    gain + z standard errors below it (with every difference alike the error is 0, so a
    challenger that changes nothing goes at once).  Returns the new ``alive``."""
    if n < 2:
        return alive
    z = rp[RP_Z]
    if n >= FUTILITY_FROM:
        z = min(z, rp[RP_FUTILITY_Z])
    j = 1
    while j < alive:
        c = cand[j]
        gain, se = _paired_gain_nb(c, total, sq, basev, n)
        if gain + z * se < rp[RP_THRESHOLD]:
            alive -= 1
            cand[j] = cand[alive]
            cand[alive] = c
        else:
            j += 1
    return alive


@njit_nb
def rollout_choose_nb(st, rs, bpid, bpp, rp, work, rec, cand, total, count, sq, basev, stats):
    """The rollout player's choice at ``st``'s pending decision.

    No search (the baseline's choice) at a forced decision, at a decision of a kind in
    ``skip_kinds``, and, unless ``short`` is 1, where no continuation reaches the night's
    last round.  Candidates: the baseline's choice and the baseline's next best
    ``top_k - 1`` (all when ``top_k`` is 0).  Successive halving spends the budget: each
    round plays every surviving challenger and the baseline's choice on the same
    continuations (common random numbers: continuation ``r`` has the same key for every
    candidate), then keeps the better half of the challengers; the baseline's choice is
    never dropped.  Every ``check_every`` continuations (from ``first_check`` on;
    ``SHORT_*`` where the horizon ends before the night's last round), a challenger whose
    paired gain + ``z`` standard errors (``futility_z`` from ``FUTILITY_FROM`` shared
    continuations on) stays below the threshold is dropped, and when none is left the
    search stops early with the baseline's choice (the budget is a maximum).  The best
    challenger replaces the baseline's choice only if it shares at least ``MIN_PAIRED``
    continuations with it and its paired mean gain exceeds the threshold and ``z``
    standard errors.  Scratch: ``work`` (a state), ``rec`` (N_REC),
    ``cand``/``total``/``count``/``sq`` (>= MAX_CANDS), ``basev`` (>= budget + MAX_CANDS).
    ``stats`` (int64, ``N_STATS``): the ``ST_*`` counters, incremented.
    """
    m = st[G_PENDING_M]
    d = st[G_PENDING_D]
    seat = st[G_PENDING_SEAT]
    base = choose_nb(st, rs, bpid, bpp, d, seat, m)
    stats[ST_DECISIONS] += 1
    if rp[RP_THRESHOLD] == np.inf or m <= 1:
        return base
    if (np.int64(rp[RP_SKIP_KINDS]) >> d) & 1:
        return base
    h = np.int64(rp[RP_HORIZON])
    short = h >= 1 and st[G_ROUND] + h - 1 < rs[P_ROUNDS]  # no continuation reaches the last round
    if short and rp[RP_SHORT] == 0:
        return base
    k = m
    if rp[RP_TOP_K] >= 1 and rp[RP_TOP_K] < m:
        k = np.int64(rp[RP_TOP_K])
    if k < 2:
        return base
    stats[ST_SEARCHED] += 1
    scores = total  # scratch: the baseline's scores first
    pl = pl_of(st)
    inv = inv_of(st)
    card_tab = card_tab_of(rs)
    cands = cands_of(st)
    for i in range(m):
        scores[i] = baseline_score_nb(st, rs, bpp, d, seat, cands[i, 0], cands[i, 1], cands[i, 2],
                                      pl, inv, card_tab)
        cand[i] = i
    scores[base] = np.inf
    for i in range(1, m):  # insertion sort by score, best first: cand[0] is the baseline's
        j = i
        while j > 0 and scores[cand[j]] > scores[cand[j - 1]]:
            t = cand[j]
            cand[j] = cand[j - 1]
            cand[j - 1] = t
            j -= 1
    for i in range(k):
        total[cand[i]] = 0.0
        count[cand[i]] = 0
        sq[cand[i]] = 0.0
    budget = max(np.int64(rp[RP_BUDGET]), 2)
    every = max(1, np.int64(rp[RP_CHECK_EVERY]))
    first_check = max(2, np.int64(rp[RP_FIRST_CHECK]))
    if short:
        every = SHORT_CHECK_EVERY
        first_check = SHORT_MIN_CHECK
    rounds = 1
    while (1 << rounds) < k - 1:
        rounds += 1
    alive = k  # cand[0] (the baseline's) and cand[1:alive] (challengers)
    game_key = st[G_GAME_KEY]
    dec = st[G_DECISIONS]
    r0 = 0
    for rnd in range(rounds):
        end = r0 + max(1, budget // (rounds * alive))
        while r0 < end:  # in batches, dropping hopeless challengers between them
            r1 = min(end, r0 + every)
            stats[ST_CONTINUATIONS] += (r1 - r0) * alive
            for r in range(r0, r1):
                v = _rollout_value_of_nb(st, rs, bpid, bpp, rp, work, rec, base, r, game_key, dec)
                basev[r] = v
                total[base] += v
                count[base] += 1
            for j in range(1, alive):
                c = cand[j]
                for r in range(r0, r1):
                    v = _rollout_value_of_nb(st, rs, bpid, bpp, rp, work, rec, c, r, game_key, dec)
                    total[c] += v
                    count[c] += 1
                    sq[c] += (v - basev[r]) ** 2
            r0 = r1
            if r0 >= first_check:
                alive = _drop_hopeless_nb(rp, cand, alive, total, sq, basev, r0)
                if alive <= 1:
                    stats[ST_EARLY] += 1
                    return base  # no challenger can plausibly beat the baseline's: stop early
        if alive <= 2 or rnd == rounds - 1:
            break
        for i in range(2, alive):  # challengers by mean value, best first
            j = i
            while j > 1 and total[cand[j]] / count[cand[j]] > total[cand[j - 1]] / count[cand[j - 1]]:
                t = cand[j]
                cand[j] = cand[j - 1]
                cand[j - 1] = t
                j -= 1
        alive = 1 + (alive - 1 + 1) // 2
    best = cand[1]
    for j in range(2, alive):
        if total[cand[j]] / count[cand[j]] > total[best] / count[best]:
            best = cand[j]
    n = count[best]  # continuations 0 .. n-1, shared with the baseline's choice
    gain, se = _paired_gain_nb(best, total, sq, basev, n)
    if n >= MIN_PAIRED and gain > rp[RP_THRESHOLD] and gain > rp[RP_Z] * se:
        stats[ST_CHANGED] += 1
        return best
    return base


@njit_alloc_nb
def _play_search_range_nb(rs, seed, start, n_players, chars, bpid, bpp, rp, check, out, stats,
                          lo, hi):
    """Games ``lo .. hi - 1`` with the rollout player; ``stats``: one row of ``ST_*``
    counters per game (rows ``lo .. hi - 1``), or no rows (not kept)."""
    st = new_state_nb(rs, 0)
    work = np.empty(st.shape[0], dtype=np.int64)
    rec = np.zeros(N_REC, dtype=np.int64)
    cand = np.zeros(MAX_CANDS, dtype=np.int64)
    total = np.zeros(MAX_CANDS, dtype=np.float64)
    count = np.zeros(MAX_CANDS, dtype=np.int64)
    sq = np.zeros(MAX_CANDS, dtype=np.float64)
    basev = np.zeros(np.int64(rp[RP_BUDGET]) + MAX_CANDS, dtype=np.float64)
    game_stats = np.zeros(N_STATS, dtype=np.int64)
    for i in range(lo, hi):
        init_state_nb(rs, 0, st)
        start_game_nb(st, rs, seed, start + i, n_players[i], chars[i], check, MODE_STEP)
        game_stats[:] = 0
        live = advance_nb(st, rs, bpid, bpp)
        while live == 1:
            c = rollout_choose_nb(st, rs, bpid, bpp, rp, work, rec, cand, total, count, sq, basev,
                                  game_stats)
            live = apply_action_nb(st, rs, bpid, bpp, c)
        write_record_nb(st, rs, start + i, out[i])
        if stats.shape[0] > 0:
            stats[i, :] = game_stats


@njit_alloc_nb(entry=True)
def play_range_search_nb(rs, seed, start, n_players, chars, bpid, bpp, rp, check, out, lo, hi):
    """``play_range_nb`` for the rollout player: each game runs in step mode and the
    rollout player takes every decision ("the policy picks, the engine applies")."""
    if hi <= lo:
        return
    _play_search_range_nb(rs, seed, start, n_players, chars, bpid, bpp, rp, check, out,
                          np.zeros((0, N_STATS), dtype=np.int64), lo, hi)


@njit_alloc_nb(entry=True)
def play_range_search_stats_nb(rs, seed, start, n_players, chars, bpid, bpp, rp, check, out,
                               stats, lo, hi):
    """``play_range_search_nb`` that also writes each game's ``ST_*`` counters
    (``stats``: int64 (games, N_STATS)); the same games and records."""
    if hi <= lo:
        return
    _play_search_range_nb(rs, seed, start, n_players, chars, bpid, bpp, rp, check, out, stats,
                          lo, hi)


@njit_alloc_nb
def rollout_choice_nb(st, rs, bpid, bpp, rp):
    """``rollout_choose_nb`` with its scratch allocated (one decision, from Python)."""
    if st[G_SUSPENDED] == 0:
        return -1
    work = np.empty(st.shape[0], dtype=np.int64)
    rec = np.zeros(N_REC, dtype=np.int64)
    cand = np.zeros(MAX_CANDS, dtype=np.int64)
    total = np.zeros(MAX_CANDS, dtype=np.float64)
    count = np.zeros(MAX_CANDS, dtype=np.int64)
    sq = np.zeros(MAX_CANDS, dtype=np.float64)
    basev = np.zeros(np.int64(rp[RP_BUDGET]) + MAX_CANDS, dtype=np.float64)
    stats = np.zeros(N_STATS, dtype=np.int64)
    return rollout_choose_nb(st, rs, bpid, bpp, rp, work, rec, cand, total, count, sq, basev,
                             stats)
