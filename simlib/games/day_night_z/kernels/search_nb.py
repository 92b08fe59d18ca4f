"""Day Night Z's search players: flat Monte Carlo over the baseline (``rollout``) and the
same search on the true future (``clairvoyant``, an upper bound, spec §4).

At a decision with two or more legal actions the candidates are the baseline's choice
and, after it, the other legal actions in the engine's order (``top_k`` of them in all;
0: every legal action).  Each candidate is played out ``n`` times: a *continuation*
copies the state, takes the candidate, and lets the baseline play on until the game
ends or ``horizon`` turns have begun since the decision (0: to the end).  Candidates
share their continuations (common random numbers: continuation ``r`` has the same key
whichever candidate it follows).  The baseline's choice stands unless a challenger's mean
paired gain over it exceeds ``threshold`` and ``z`` paired standard errors; of those that
do, the largest gain wins.  Continuations are played in batches of ``CHECK_EVERY``; from
``MIN_CHECK`` on, a challenger whose gain plus ``z`` standard errors is no more than the
threshold is dropped (``n`` is a maximum).

No peeking (``rollout``): a continuation's randomness is a pure function of (seed, game,
decisions taken, continuation index) and of what the players can know.  It gets fresh
streams (dice, decks, the rules' random choices) from that key, and every deck's unseen
part (search, spawn, each of the threat deck's five piles, encounters, surprises,
exploration, corpse markers; with the encounter cards drawn but not yet resolved) is
first put in a canonical order (sorted) and then shuffled from the continuation's own
stream: the real order of a deck, and the real dice to come, never reach a decision.

``clairvoyant`` keeps the game's real streams and deck order in its continuations: one
continuation a candidate is the candidate's true future under the baseline (``n`` is not
used), and the best candidate wins outright when it gains more than ``threshold``.

A continuation's value (the search's objective): a success scores 1 plus ``w_vp`` times
the VP share (the tie-break: VP, the shelter's 4 - 1 a dead survivor); a lost game
(all dead, out of turns) scores 0; a continuation stopped at its horizon scores a shaped
value below any success: ``w_alive`` x the share of the team alive, ``w_search`` x the
share of the needed searches done, ``w_health`` x the team's share of health, and, once
the searches are done, ``w_exit`` x the living survivors' mean 1 / (1 + moves to an exit).

Python calls one kernel, ``search_run_nb`` (a choice, the rest of a game, or a whole
game), through ``search_batch`` (``play_nb.batch_nb``'s signature, for ``run_ranges``)
and the step Game.  The parameter vector ``par`` of a search player is the
baseline's (``policies_nb.N_PARAMS`` entries) followed by ``SEARCH_PARAMS``.
"""
from __future__ import annotations

import numpy as np

from ....core.jit import njit_alloc_nb, njit_nb
from ....core.rng import GOLDEN, STREAM_SALT, game_key_nb, init_streams_nb, mix64_nb, randint_nb
from .. import codes as K
from .engine_nb import apply_action_nb, init_state_nb, legal_actions_nb, record_nb, su
from .play_nb import OP_CHOOSE
from .policies_nb import N_PARAMS, POLICY_BASELINE, choose_nb

POLICY_ROLLOUT, POLICY_CLAIRVOYANT = 2, 3
SEARCH_PARAMS = ("n", "top_k", "horizon", "threshold", "z", "w_vp", "w_alive", "w_search", "w_health",
                 "w_exit")
(SP_N, SP_TOP_K, SP_HORIZON, SP_THRESHOLD, SP_Z, SP_W_VP, SP_W_ALIVE, SP_W_SEARCH, SP_W_HEALTH,
 SP_W_EXIT) = range(len(SEARCH_PARAMS))
N_SEARCH_PARAMS = len(SEARCH_PARAMS)
MAX_CANDIDATES = K.MAX_LEGAL  # top_k's bound: a decision's legal actions
# A challenger is dropped, from the MIN_CHECK-th continuation on and every CHECK_EVERY,
# when its mean paired gain plus z standard errors is no more than the threshold: it can
# no longer plausibly win (one that plays out like the baseline's choice, every
# difference 0, goes at once); when none is left the baseline's choice stands
CHECK_EVERY = 4
MIN_CHECK = 8
CONTINUATION_SALT = np.uint64(0x5DEECE66DA3B1F27)
_G = K.S_GLOBALS
_P = K.R_PARAMS


@njit_nb
def continuation_key_nb(seed, game, decision, r):
    """Key of continuation ``r`` at the decision taken after ``decision`` decisions of game
    ``game`` of ``seed``: a pure function of the four."""
    d = mix64_nb(np.uint64(decision + 1) * GOLDEN ^ CONTINUATION_SALT)
    return mix64_nb(np.uint64(game_key_nb(seed, game)) ^ d ^ (np.uint64(r + 1) * STREAM_SALT))


# ================================================================== the unseen cards
@njit_nb
def _vget(st, lo, n_tail, held, i):
    """Entry ``i`` of a virtual pile: the deck's tail ``st[lo:lo+n_tail]``, then the
    encounter cards held by the survivors listed in ``held`` (survivor indices)."""
    if i < n_tail:
        return st[lo + i]
    return st[su(held[i - n_tail], K.U_ENCOUNTER)]


@njit_nb
def _vset(st, lo, n_tail, held, i, v):
    if i < n_tail:
        st[lo + i] = v
    else:
        st[su(held[i - n_tail], K.U_ENCOUNTER)] = v


@njit_nb
def _reshuffle(st, rng, lo, n_tail, held, n_held):
    """Sort the virtual pile (canonical: its order no longer tells anything), then shuffle
    it from the decks stream of ``rng``: the result depends on the pile's cards only."""
    m = n_tail + n_held
    for i in range(1, m):
        v = _vget(st, lo, n_tail, held, i)
        j = i - 1
        while j >= 0 and _vget(st, lo, n_tail, held, j) > v:
            _vset(st, lo, n_tail, held, j + 1, _vget(st, lo, n_tail, held, j))
            j -= 1
        _vset(st, lo, n_tail, held, j + 1, v)
    for i in range(m - 1, 0, -1):
        j = randint_nb(rng, K.STREAM_DECKS, i + 1)
        t = _vget(st, lo, n_tail, held, i)
        _vset(st, lo, n_tail, held, i, _vget(st, lo, n_tail, held, j))
        _vset(st, lo, n_tail, held, j, t)


@njit_nb
def _reshuffle_deck(st, rng, dst, n, gpos, held, n_held):
    tail = max(0, n - st[_G + gpos])
    _reshuffle(st, rng, dst + n - tail, tail, held, n_held)


@njit_nb
def rekey_nb(st, rng, spn, rl, key, held):
    """Give the continuation state ``st`` fresh streams from ``key`` and re-draw what its
    players cannot know: each deck's unseen part, and the encounter cards drawn and not
    yet resolved (mixed back with the encounter deck's unseen part).  ``held``: an int64
    scratch of ``MAX_SURV`` entries."""
    init_streams_nb(rng, key)
    _reshuffle_deck(st, rng, K.S_SDECK, rl[_P + K.RP_N_SEARCH], K.G_POS_SEARCH, held, 0)
    _reshuffle_deck(st, rng, K.S_XSPAWN, spn[K.X_PARAMS + K.SP_N_CARDS], K.G_POS_SPAWN, held, 0)
    nt = rl[_P + K.RP_N_THREAT]
    _reshuffle_deck(st, rng, K.S_T_SIDE, nt, K.G_POS_THREAT, held, 0)
    _reshuffle_deck(st, rng, K.S_T_HOURS, nt, K.G_POS_THREAT, held, 0)
    _reshuffle_deck(st, rng, K.S_T_HUNTER, nt, K.G_POS_THREAT, held, 0)
    _reshuffle_deck(st, rng, K.S_T_INF, nt, K.G_POS_THREAT, held, 0)
    _reshuffle_deck(st, rng, K.S_T_COND, nt, K.G_POS_THREAT, held, 0)
    n_held = 0
    for s in range(st[_G + K.G_TEAM]):
        if st[su(s, K.U_ENCOUNTER)] >= 0:
            held[n_held] = s
            n_held += 1
    _reshuffle_deck(st, rng, K.S_EDECK, rl[_P + K.RP_N_ENC], K.G_POS_ENC, held, n_held)
    _reshuffle_deck(st, rng, K.S_UDECK, rl[_P + K.RP_N_SUR], K.G_POS_SUR, held, 0)
    _reshuffle_deck(st, rng, K.S_XDECK, rl[_P + K.RP_N_EXP], K.G_POS_EXP, held, 0)
    _reshuffle_deck(st, rng, K.S_CDECK, rl[_P + K.RP_N_CORPSE], K.G_POS_CORPSE, held, 0)


# ================================================================== a continuation's value
@njit_nb
def value_nb(st, rl, sp):
    """The search's value of a continuation's end (module docstring)."""
    team = st[_G + K.G_TEAM]
    alive = 0
    health = 0
    near = 0.0
    for s in range(team):
        if st[su(s, K.U_ALIVE)] == 1:
            alive += 1
            health += st[su(s, K.U_HEALTH)]
            near += 1.0 / (1.0 + rl[K.R_EXIT_DIST + st[su(s, K.U_PLACE)]])
    if st[_G + K.G_OVER] == 1:
        if st[_G + K.G_END_CAUSE] != K.END_SUCCESS:
            return 0.0
        base = rl[_P + K.RP_VP_BASE]
        vp = max(0, base - rl[_P + K.RP_VP_PER_DEAD] * (team - alive))
        return 1.0 + sp[SP_W_VP] * vp / max(1, base)
    need = rl[_P + K.RP_SEARCHES_NEEDED]
    done = min(st[_G + K.G_SEARCHES], need)
    v = sp[SP_W_ALIVE] * alive / team + sp[SP_W_HEALTH] * health / (team * rl[_P + K.RP_HEALTH_MAX])
    v += sp[SP_W_SEARCH] * (done / need if need > 0 else 1.0)
    if done >= need and alive > 0:
        v += sp[SP_W_EXIT] * near / alive
    return v


@njit_nb
def continuation_nb(st, rng, dice, tr, spn, rl, bpar, sp, a, key, peek, work, wrng, wlegal, held):
    """Value of taking ``a`` at ``st``'s decision and letting the baseline (``bpar``) play on
    to the end or the horizon, on a copy (``work``, ``wrng``): re-keyed with ``key`` and
    the unseen cards re-drawn, or (``peek``) the real streams and decks."""
    for i in range(K.S_SIZE):
        work[i] = st[i]
    if peek != 0:
        for i in range(K.N_STREAMS):
            wrng[i] = rng[i]
    else:
        rekey_nb(work, wrng, spn, rl, key, held)
    h = np.int64(sp[SP_HORIZON])
    stop = st[_G + K.G_TURN] + h if h > 0 else np.int64(1) << 40
    apply_action_nb(work, wrng, dice, tr, spn, rl, a, wlegal)
    while work[_G + K.G_OVER] == 0 and work[_G + K.G_TURN] < stop:
        n = legal_actions_nb(work, tr, rl, wlegal)
        b = choose_nb(work, wrng, tr, rl, POLICY_BASELINE, bpar, wlegal, n)
        apply_action_nb(work, wrng, dice, tr, spn, rl, b, wlegal)
    return value_nb(work, rl, sp)


# ================================================================== the choice
@njit_nb
def search_choose_nb(st, rng, dice, tr, spn, rl, seed, pid, par, legal, n, work, wrng, wlegal, held, cand, vals):
    """The search player's action among ``legal[:n]`` (module docstring); ``st`` and ``rng``
    are not changed.  Scratch: ``work`` (S_SIZE), ``wrng`` (N_STREAMS), ``wlegal``
    (MAX_LEGAL), ``held`` (MAX_SURV), ``cand`` (MAX_LEGAL), ``vals`` (the parameter n + 2 MAX_LEGAL or more)."""
    bpar = par[:N_PARAMS]
    sp = par[N_PARAMS:]
    base = choose_nb(st, rng, tr, rl, POLICY_BASELINE, bpar, legal, n)
    cap = n
    if sp[SP_TOP_K] >= 1 and sp[SP_TOP_K] < n:
        cap = np.int64(sp[SP_TOP_K])
    cand[0] = base
    k = 1
    for i in range(n):
        if k >= cap:
            break
        if legal[i] != base:
            cand[k] = legal[i]
            k += 1
    if k < 2:
        return base
    peek = 1 if pid == POLICY_CLAIRVOYANT else 0
    m = 1 if peek == 1 else max(np.int64(1), np.int64(sp[SP_N]))
    game = st[_G + K.G_GAME]
    dec = st[_G + K.G_DECISIONS]
    tot = vals[m:m + k]  # challenger j's sum of paired differences, and of their squares
    sq = vals[m + k:m + 2 * k]
    for j in range(k):
        tot[j] = 0.0
        sq[j] = 0.0
    alive = k  # cand[1:alive]: the challengers still in the running
    r0 = 0
    while r0 < m:  # in batches; a challenger that cannot plausibly win is dropped between them
        r1 = min(m, r0 + CHECK_EVERY)
        for r in range(r0, r1):
            key = continuation_key_nb(seed, game, dec, r)
            vals[r] = continuation_nb(st, rng, dice, tr, spn, rl, bpar, sp, base, key, peek, work, wrng, wlegal,
                                      held)
        for j in range(1, alive):
            for r in range(r0, r1):
                key = continuation_key_nb(seed, game, dec, r)
                d = continuation_nb(st, rng, dice, tr, spn, rl, bpar, sp, cand[j], key, peek, work, wrng,
                                    wlegal, held) - vals[r]
                tot[j] += d
                sq[j] += d * d
        r0 = r1
        if r0 >= MIN_CHECK and r0 < m:
            j = 1
            while j < alive:
                gain = tot[j] / r0
                var = max(0.0, sq[j] / r0 - gain * gain) * r0 / (r0 - 1)
                if gain + sp[SP_Z] * np.sqrt(var / r0) <= sp[SP_THRESHOLD]:
                    alive -= 1  # swap the last challenger in; this one's sums go with it
                    cand[j], cand[alive] = cand[alive], cand[j]
                    tot[j], tot[alive] = tot[alive], tot[j]
                    sq[j], sq[alive] = sq[alive], sq[j]
                else:
                    j += 1
            if alive <= 1:
                return base
    best = base
    best_gain = 0.0
    for j in range(1, alive):
        gain = tot[j] / m
        if gain <= sp[SP_THRESHOLD] or gain <= best_gain:
            continue
        if peek == 0:
            if m < 2:
                continue
            var = max(0.0, sq[j] / m - gain * gain) * m / (m - 1)
            if gain <= sp[SP_Z] * np.sqrt(var / m):
                continue
        best = cand[j]
        best_gain = gain
    return best


@njit_nb
def search_play_nb(st, rng, dice, tr, spn, rl, seed, pid, par, legal, work, wrng, wlegal, held, cand, vals):
    """Plays from a decision to the end with the search player."""
    while st[_G + K.G_OVER] == 0:
        n = legal_actions_nb(st, tr, rl, legal)
        a = search_choose_nb(st, rng, dice, tr, spn, rl, seed, pid, par, legal, n, work, wrng, wlegal, held,
                             cand, vals)
        apply_action_nb(st, rng, dice, tr, spn, rl, a, legal)


OP_GAME = 100  # search_run_nb: play game ``game`` of ``seed`` from its start, write its rows


@njit_alloc_nb
def search_run_nb(op, st, rng, dice, tr, spn, rl, seed, game, team, hour, pid, par, legal, out, tbt, abt):
    """The one search kernel Python calls (one compile serves the batch and the step API):
    ``OP_CHOOSE`` the search player's choice at ``st``'s decision; ``OP_PLAY`` it plays to
    the end; ``OP_GAME`` game ``game`` of ``seed`` (a pure function of the two) from its
    start to its end, its record into ``out``, its threat and living survivors by turn
    into ``tbt`` and ``abt``."""
    work = np.zeros(K.S_SIZE, dtype=np.int64)
    wrng = np.zeros(K.N_STREAMS, dtype=np.uint64)
    wlegal = np.zeros(K.MAX_LEGAL, dtype=np.int64)
    held = np.zeros(K.MAX_SURV, dtype=np.int64)
    cand = np.zeros(K.MAX_LEGAL, dtype=np.int64)
    vals = np.zeros(max(np.int64(1), np.int64(par[N_PARAMS + SP_N])) + 2 * K.MAX_LEGAL, dtype=np.float64)
    if op == OP_CHOOSE:
        n = legal_actions_nb(st, tr, rl, legal)
        return np.int64(search_choose_nb(st, rng, dice, tr, spn, rl, seed, pid, par, legal, n, work, wrng,
                                         wlegal, held, cand, vals))
    if op == OP_GAME:
        init_state_nb(st, rng, dice, tr, spn, rl, game_key_nb(seed, game), team, hour, game, legal)
    search_play_nb(st, rng, dice, tr, spn, rl, seed, pid, par, legal, work, wrng, wlegal, held, cand, vals)
    if op == OP_GAME:
        record_nb(st, tr, rl, out)
        for t in range(tbt.shape[0]):
            tbt[t] = st[K.S_THREAT_BY_TURN + t]
            abt[t] = st[K.S_ALIVE_BY_TURN + t]
    return np.int64(0)


def search_batch(dice, tr, spn, rl, seed, start, team, hour, pid, par, out, tbt, abt, lo, hi):
    """``play_nb.batch_nb`` for a search player (``run_ranges`` calls it on its threads):
    a Python loop over the games, each played by ``search_run_nb`` (which releases the
    GIL); a search game takes long enough that the loop costs nothing."""
    st = np.zeros(K.S_SIZE, dtype=np.int64)
    rng = np.zeros(K.N_STREAMS, dtype=np.uint64)
    legal = np.zeros(K.MAX_LEGAL, dtype=np.int64)
    for i in range(int(lo), int(hi)):
        search_run_nb(np.int64(OP_GAME), st, rng, dice, tr, spn, rl, seed, np.int64(start + i), team, hour, pid,
                      par, legal, out[i], tbt[i], abt[i])
    return hi - lo
