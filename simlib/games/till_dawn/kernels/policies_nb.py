"""Till Dawn players: ``choose_nb(state, rules, policy, params, legal, n_legal, work)``.

Policies (``codes`` of ``policies.py``):

``random`` (0)
    a uniformly random legal action (policy stream of the game).
``threshold`` (1), params ``(threshold, sun_margin, injury_cost)``
    retires when its unbanked blood reaches ``threshold`` or, holding blood, when the
    night-track bead is within ``sun_margin`` spaces of sunrise; votes the moon of the
    best one-draw expected value (blood won minus ``injury_cost`` per health lost) over
    the cards left in the deck, refusing when every vote is worse than the refusal fee.
``optimal`` (2), params ``(blood_span,)``
    retires by optimal stopping: the exact expected blood banked this night under a
    single-vampire model (below), computed by dynamic programming over night-track
    position, unbanked blood and health from the cards left in the deck, recomputed at
    every decision; it votes the vote (or refusal) of the highest expected value under
    the same model.
``distilled`` (3), params ``DISTILLED_PARAMS`` (``any_ruleset``, then the weights)
    the optimal player's judgement fitted into two linear scores of what a player sees
    (its blood, health, the track, the cards left in the deck, the active players; never
    the deck's order): it stays when the stop-or-stay score ``w . decide_features`` is
    positive, and votes the option (each moon, or refusing) of the highest vote score
    ``w . vote_features``; the weights are fitted by ``simlib train-policy --game
    till-dawn`` (``distil.py``) and read from ``data/till_dawn/policies/distilled.toml``.

Shared play of cards (``threshold``, ``optimal`` and ``distilled``): a power that doubles
a feeding or protects from a slayer is always played (powers are lost at dawn); an event
double only on feedings worth 3 or more, an event protection only when the slayer would
kill; every cancel is spent on an opponent's play; a heal event is used when 2 or more
health are missing; of two events the player keeps protection, then heal, then double.

The optimal-stopping model (one vampire's view)
-----------------------------------------------
State ``(p, b, h)``: bead position ``p`` in ``0 .. L-1`` (``L`` = track length), unbanked
blood ``b``, health ``h`` >= 1; and whether an invitation is pending.  Every draw is a
card from the current remaining deck composition (the deck is treated as fixed for the
look-ahead: "given what is left in the deck").  Feeding adds its value (+ the ground
bonus); sun rising moves the bead (at ``L`` the blood is lost: value 0); night lingers
moves it back; a slayer takes health (at 0: value 0); the werewolf hits this vampire
with probability ``1 / active players``; an invitation is pending until the next draw,
whose moon pays or injures.  Powers, events and other players' choices are outside the
model.  Before solving, the player checks a cheap lower bound (draw once more, then stop
as soon as allowed): when it beats stopping, the optimum does too and the DP is skipped.
``V(p,b,h) = max(b, sum_c P(c) V(after c))``, solved in decreasing ``b`` and increasing
``h`` (other cards only raise ``b`` or lower ``h``); within a layer of equal ``(b, h)``
the bead's moves and the werewolf's misses loop back, and the layer is solved exactly
(``dp_solve_nb``: continuing is optimal on a prefix of the track, one linear system
per layer).  A stop-or-stay decision solves only the layers from its own blood up.
Actions within ``TIE`` (1e-9) of each other are tied: the player retires rather than
stays, votes the first moon (blood, blue, hunting) and refuses only when refusing is
better by more than that.  A vote reads the payoffs of the invitation drawn.
Blood above ``b + blood_span`` is capped (a documented truncation).

Array ``work`` (float64): the DP tables, ``(4 + MAX_INVITES) * NB * (H + 1) * L`` values
with ``NB = blood_span + refuse_cost + 2`` and ``H`` the largest maximum health, then
``dp_scratch_floats_nb(L)`` of scratch (``work_size``).
"""
from __future__ import annotations

import numpy as np

from ....core.jit import njit_nb
from ....core.rng import randint_at_nb
from .. import codes as K
from .engine_nb import event_kind_nb, n_active_nb

POLICY_RANDOM = 0
POLICY_THRESHOLD = 1
POLICY_OPTIMAL = 2
POLICY_DISTILLED = 3
# the shortest parameter vector of a seat (unused entries are 0); a table with a distilled
# seat carries the distilled policy's longer vector (``N_DISTILLED_PARAMS``) in every seat
N_PARAMS = 3

MAX_CLASSES = K.MAX_TYPES
TOL = 1e-10
# values closer than this are a tie, broken by a fixed rule (retire rather than stay, the
# first moon in blood, blue, hunting order, a vote rather than refusing): exact ties are
# common (a deck with as many blood as blue moons left) and the last bits of the tables
# must not pick the action
TIE = 1e-9


# =========================================================================== helpers
@njit_nb
def _has(legal, n, a):
    for i in range(n):
        if legal[i] == a:
            return True
    return False


@njit_nb
def moon_left_nb(state, rules, moon):
    """Cards left in the deck showing ``moon``, and all cards left: ``(k, n)``."""
    k = 0
    tot = 0
    for t in range(rules[K.R_PARAMS + K.P_N_TYPES]):
        c = state[K.S_TYPE_LEFT + t]
        if rules[K.R_TYPES + t * K.CT_N + (K.CT_MOON)] == moon:
            k += c
        tot += c
    return k, tot


@njit_nb
def _event_rank(kind):
    if kind == K.EV_PROTECT:
        return 3
    if kind == K.EV_HEAL:
        return 2
    return 1


@njit_nb
def _card_play_nb(state, rules, s, legal, n):
    """The shared heuristics for react, cancel, keep and heal decisions (-1: not one)."""
    ph = state[K.S_PHASE]
    if ph == K.PH_REACT:
        if _has(legal, n, K.A_PLAY_POWER):
            return K.A_PLAY_POWER
        if _has(legal, n, K.A_PLAY_EVENT):
            v = rules[K.R_TYPES + state[K.S_CARD] * K.CT_N + (K.CT_VALUE)]
            if state[K.S_REACT] == K.K_FEEDING:
                return K.A_PLAY_EVENT if v >= 3 else K.A_PASS
            return K.A_PLAY_EVENT if state[K.S_S_HEALTH + s] <= v else K.A_PASS
        return K.A_PASS
    if ph == K.PH_CANCEL:
        return K.A_CANCEL
    if ph == K.PH_KEEP:
        old = event_kind_nb(state, rules, s)
        new = rules[K.R_EVENT_KIND + state[K.S_CANDIDATE]]
        return K.A_KEEP_NEW if _event_rank(new) > _event_rank(old) else K.A_KEEP_OLD
    if ph == K.PH_DECIDE and _has(legal, n, K.A_HEAL):
        if state[K.S_S_MAX_HEALTH + s] - state[K.S_S_HEALTH + s] >= 2:
            return K.A_HEAL
    return -1


# =========================================================================== threshold
@njit_nb
def _vote_one_step_nb(state, rules, s, injury_cost):
    inv = state[K.S_CARD]
    pen = rules[K.R_TYPES + inv * K.CT_N + (K.CT_PENALTY)]
    best = K.A_VOTE_BLOOD
    best_v = -1e300
    for m in range(3):
        pay = rules[K.R_TYPES + inv * K.CT_N + (K.CT_PAYOFF_HUNTING if m == K.MOON_HUNTING else K.CT_PAYOFF)]
        k, tot = moon_left_nb(state, rules, m)
        p = k / tot if tot > 0 else 0.0
        ev = p * pay - (1.0 - p) * pen * injury_cost
        if ev > best_v:
            best_v = ev
            best = K.A_VOTE_BLOOD + m
    rc = rules[K.R_PARAMS + K.P_REFUSE_COST]
    if state[K.S_S_BLOOD + s] >= rc and state[K.S_S_BLOOD + s] >= 1 and -rc > best_v:
        return K.A_REFUSE
    return best


@njit_nb
def threshold_nb(state, rules, s, params, legal, n):
    a = _card_play_nb(state, rules, s, legal, n)
    if a >= 0:
        return a
    ph = state[K.S_PHASE]
    if ph == K.PH_VOTE:
        return _vote_one_step_nb(state, rules, s, params[2])
    if ph == K.PH_DECIDE:
        b = state[K.S_S_BLOOD + s]
        if _has(legal, n, K.A_RETIRE) and b > 0:
            if b >= params[0] or state[K.S_TRACK] >= rules[K.R_PARAMS + K.P_TRACK] - params[1]:
                return K.A_RETIRE
        return K.A_STAY
    return legal[0]


# =========================================================================== distilled
# The distilled policy's parameter vector: ``any_ruleset`` (1: play the weights on a ruleset
# other than the one they were fitted on; read in Python only), then the weights of the
# stop-or-stay features, then those of the vote features (names: ``policies.py``).
DECIDE_FEATURES = ("bias", "blood", "feed", "risk", "health", "track_left", "sun_pace",
                   "future", "hurt_pace", "invite", "one_active")
VOTE_FEATURES = ("gain", "injury", "death", "injury_share", "injury_night", "injury_future",
                 "injury_blood", "gain_safe", "gain_health", "injury_last", "injury_health",
                 "refuse")
N_DECIDE = len(DECIDE_FEATURES)
N_VOTE = len(VOTE_FEATURES)
DP_ANY_RULESET = 0
DP_W_DECIDE = 1
DP_W_VOTE = DP_W_DECIDE + N_DECIDE
N_DISTILLED_PARAMS = DP_W_VOTE + N_VOTE
FUTURE_CAP = 20.0  # draws counted at most in the ``future`` feature
OPT_REFUSE = 3  # the vote options: 0-2 the moons (blood, blue, hunting), 3 refusing


@njit_nb
def outlook_nb(state, rules, s):
    """What seat ``s`` sees of the rest of its night, from the cards left in the deck:
    ``(feed, lose, pace, hurt, invite, draws, q)``: the mean blood a draw feeds it (its
    ground's bonus included), the chance that the next draw ends its night (a sun rising
    of the spaces left or more, a slayer of its health or more, the werewolf's with
    chance ``q`` = 1 / active vampires), the bead's mean move a draw (sun rising minus
    night lingers), the mean health a draw takes (the werewolf's times ``q``), the share
    of invitations, and the draws the bead's pace leaves before sunrise (at most
    ``FUTURE_CAP``).  An empty deck counts as one card of nothing."""
    L = rules[K.R_PARAMS + K.P_TRACK]
    d = L - state[K.S_TRACK]
    h = state[K.S_S_HEALTH + s]
    fav = state[K.S_S_GROUND + s]
    bonus = rules[K.R_PARAMS + K.P_FAV_BONUS]
    act = n_active_nb(state)
    q = 1.0 / act if act > 0 else 1.0
    tot = 0
    feed = 0.0
    lose = 0.0
    pace = 0.0
    hurt = 0.0
    inv = 0.0
    for t in range(rules[K.R_PARAMS + K.P_N_TYPES]):
        cnt = state[K.S_TYPE_LEFT + t]
        if cnt == 0:
            continue
        tot += cnt
        base = K.R_TYPES + t * K.CT_N
        kind = rules[base + K.CT_KIND]
        v = rules[base + K.CT_VALUE]
        if kind == K.K_FEEDING:
            feed += cnt * (v + (bonus if rules[base + K.CT_GROUND] == fav else 0))
        elif kind == K.K_SUN:
            pace += cnt * v
            if v >= d:
                lose += cnt
        elif kind == K.K_LINGERS:
            pace -= cnt * v
        elif kind == K.K_SLAYER:
            hurt += cnt * v
            if v >= h:
                lose += cnt
        elif kind == K.K_WEREWOLF:
            hurt += cnt * v * q
            if v >= h:
                lose += cnt * q
        else:
            inv += cnt
    n = float(tot) if tot > 0 else 1.0
    pace /= n
    draws = FUTURE_CAP
    if pace > 0.0 and d / pace < FUTURE_CAP:
        draws = d / pace
    return feed / n, lose / n, pace, hurt / n, inv / n, draws, q


@njit_nb
def decide_features_nb(state, rules, s, out):
    """The stop-or-stay features of seat ``s`` into ``out[:N_DECIDE]`` (float64), from what
    the player sees: its unbanked blood ``b``, health ``h``, the spaces ``d`` the bead still
    has before sunrise, and the night's outlook (``outlook_nb``): ``bias`` 1, ``blood``
    ``b``, ``feed`` the mean blood a draw feeds it, ``risk`` = ``b`` x the chance that the
    next draw ends its night, ``health`` ``h``, ``track_left`` ``d``, ``sun_pace`` = ``b`` x
    the bead's mean move a draw / ``d``, ``future`` = ``feed`` x the draws left before
    sunrise, ``hurt_pace`` = ``b`` x the mean health a draw takes / ``h``, ``invite`` the
    share of invitations left, ``one_active`` 1 / the active vampires."""
    feed, lose, pace, hurt, inv, draws, q = outlook_nb(state, rules, s)
    d = rules[K.R_PARAMS + K.P_TRACK] - state[K.S_TRACK]
    b = state[K.S_S_BLOOD + s]
    h = state[K.S_S_HEALTH + s]
    out[0] = 1.0
    out[1] = b
    out[2] = feed
    out[3] = b * lose
    out[4] = h
    out[5] = d
    out[6] = b * pace / (d if d > 0 else 1)
    out[7] = feed * draws
    out[8] = b * hurt / (h if h > 0 else 1)
    out[9] = inv
    out[10] = q


@njit_nb
def vote_features_nb(state, rules, s, option, out):
    """The vote features of ``option`` (0-2: vote the blood, blue or hunting moon; 3:
    refuse) for seat ``s`` on the invitation drawn, into ``out[:N_VOTE]``: with ``p`` the
    share of the cards left showing that moon, ``h`` the health, ``b`` the unbanked blood
    and the night's outlook (``outlook_nb``), ``gain`` = ``p`` x its payoff (a refusal:
    minus its cost), ``injury`` = (1 - ``p``) x the penalty, ``death`` = (1 - ``p``) x ``b``
    when the penalty would take the last health, ``injury_share`` = ``injury`` / ``h``,
    ``injury_night`` = ``injury`` x the share of the track still before sunrise,
    ``injury_future`` = ``injury_share`` x the blood the rest of the night may feed
    (``decide_features_nb``'s ``future``), ``injury_blood`` = ``injury_share`` x ``b``,
    ``gain_safe`` = ``gain`` x the chance that the next draw does not end its night,
    ``gain_health`` = ``gain`` x ``h``, ``injury_last`` = ``injury`` when the penalty would
    leave one health, ``injury_health`` = ``injury`` x ``h``, and ``refuse`` 1 for a
    refusal (a refusal's other features are 0)."""
    for i in range(N_VOTE):
        out[i] = 0.0
    if option == OPT_REFUSE:
        out[0] = -rules[K.R_PARAMS + K.P_REFUSE_COST]
        out[11] = 1.0
        return
    base = K.R_TYPES + state[K.S_CARD] * K.CT_N
    pay = rules[base + (K.CT_PAYOFF_HUNTING if option == K.MOON_HUNTING else K.CT_PAYOFF)]
    pen = rules[base + K.CT_PENALTY]
    k, tot = moon_left_nb(state, rules, option)
    p = k / tot if tot > 0 else 0.0
    h = state[K.S_S_HEALTH + s]
    b = state[K.S_S_BLOOD + s]
    L = rules[K.R_PARAMS + K.P_TRACK]
    feed, lose, pace, hurt, inv, draws, q = outlook_nb(state, rules, s)
    out[0] = p * pay
    out[1] = (1.0 - p) * pen
    if pen >= h:
        out[2] = (1.0 - p) * b
    out[3] = out[1] / (h if h > 0 else 1)
    out[4] = out[1] * (L - state[K.S_TRACK]) / L
    out[5] = out[3] * feed * draws
    out[6] = out[3] * b
    out[7] = out[0] * (1.0 - lose)
    out[8] = out[0] * h
    if h == pen + 1:
        out[9] = out[1]
    out[10] = out[1] * h


@njit_nb
def decide_score_nb(state, rules, s, params, buf):
    """``w . decide_features`` with the weights of ``params`` (``buf``: float64 scratch)."""
    decide_features_nb(state, rules, s, buf)
    x = 0.0
    for i in range(N_DECIDE):
        x += params[DP_W_DECIDE + i] * buf[i]
    return x


@njit_nb
def vote_score_nb(state, rules, s, params, option, buf):
    """``w . vote_features`` of ``option`` with the weights of ``params``."""
    vote_features_nb(state, rules, s, option, buf)
    x = 0.0
    for i in range(N_VOTE):
        x += params[DP_W_VOTE + i] * buf[i]
    return x


@njit_nb
def distilled_nb(state, rules, s, params, legal, n, buf):
    """The shared play of cards; then it stays when its stop-or-stay score is positive
    (nothing to bank: it stays), and votes the first option of the highest vote score
    (a moon in blood, blue, hunting order; refusing only when strictly better)."""
    a = _card_play_nb(state, rules, s, legal, n)
    if a >= 0:
        return a
    ph = state[K.S_PHASE]
    if ph == K.PH_DECIDE:
        if not _has(legal, n, K.A_RETIRE) or state[K.S_S_BLOOD + s] == 0:
            return K.A_STAY
        return K.A_STAY if decide_score_nb(state, rules, s, params, buf) > 0.0 else K.A_RETIRE
    if ph == K.PH_VOTE:
        best = K.A_VOTE_BLOOD
        best_v = -1e300
        for v in range(3):
            x = vote_score_nb(state, rules, s, params, v, buf)
            if x > best_v:
                best_v = x
                best = K.A_VOTE_BLOOD + v
        if _has(legal, n, K.A_REFUSE) and vote_score_nb(state, rules, s, params, OPT_REFUSE,
                                                         buf) > best_v:
            return K.A_REFUSE
        return best
    return legal[0]


# =========================================================================== optimal stopping
@njit_nb
def dp_dims_nb(state, rules, s, span):
    """``(b_lo, NB, H1, L)`` of the DP tables for seat ``s``."""
    rc = rules[K.R_PARAMS + K.P_REFUSE_COST]
    b0 = state[K.S_S_BLOOD + s]
    b_lo = b0 - rc if b0 - rc > 0 else 0
    nb = b0 + span - b_lo + 1
    return b_lo, nb, state[K.S_S_HEALTH + s] + 1, rules[K.R_PARAMS + K.P_TRACK]


@njit_nb
def _ix(bi, h, p, h1, L):
    return (bi * h1 + h) * L + p


# effects: what a card does to one vampire's (track, blood, health), whatever its moon
E_FEED, E_STILL, E_SUN, E_LINGERS, E_SLAYER, E_WEREWOLF, E_INVITE = range(7)
DIRECT_MAX_L = 16  # longest track solved by prefix inverses (their scratch grows as L^3)


@njit_nb
def dp_scratch_floats_nb(L):
    """Floats ``dp_solve_nb`` needs after its tables (offsets in ``_scratch_offsets_nb``)."""
    n = 6 * L + 1 + 4 * L * L + 4 * (L + 1) * L + 7 * MAX_CLASSES
    return n + L * L * L if L <= DIRECT_MAX_L else n


@njit_nb
def _scratch_offsets_nb(ext, L):
    """``(tv, flags, tt, rem, pr, wl, inv)``: after the sums leaving a layer per moon and
    their total (``ext``, 4 L), the in-layer sums (L), the prefix-inverse flags (L + 1),
    the in-layer transitions transposed, all moons then per moon (4 L x L), their sums
    beyond each prefix (4 (L + 1) L), the effect probabilities (4 x MAX_CLASSES), a
    layer's weights (3 x MAX_CLASSES) and the prefix inverses (L x L x L, transposed)."""
    tv = ext + 4 * L
    flags = tv + L
    tt = flags + L + 1
    rem = tt + 4 * L * L
    pr = rem + 4 * (L + 1) * L
    wl = pr + 4 * MAX_CLASSES
    inv = wl + 3 * MAX_CLASSES
    return tv, flags, tt, rem, pr, wl, inv


@njit_nb
def dp_solve_nb(state, rules, s, span, work, eff_kind, eff_val, eff_src, eff_prob, inv_pay,
                bi_from):
    """Fill ``work`` with V (block 0), A_moon (blocks 1-3) and Y_invitation (blocks 4..)
    for seat ``s`` at blood layers ``bi_from ..`` (a stop-or-stay decision needs none
    below its own blood); returns the number of card effects (module docstring).

    The cards left are summed into *effects* (kind and value, one probability per moon:
    a card's moon only splits the continuation value by moon, blocks 1-3).  A (blood,
    health) layer is computed along the whole track at once: what leaves the layer (more
    blood, less health, a pending invitation) is a weighted sum of rows already solved;
    what stays in it (the bead's moves, the werewolf's misses) is a linear system, the same
    in every layer.  Along the track a layer continues on a prefix ``0 .. k-1`` and stops
    after it (a bead further back is never worse), so a layer is solved exactly by the
    inverse of its prefix system (computed once per solve and prefix length) and a policy
    iteration over ``k`` started from the layer above; a layer where that does not settle
    (or a track longer than ``DIRECT_MAX_L``) falls back to Gauss-Seidel sweeps to 1e-10."""
    b_lo, nb, h1, L = dp_dims_nb(state, rules, s, span)
    blk = nb * h1 * L
    ext = (4 + K.MAX_INVITES) * blk  # scratch after the tables
    if ext + dp_scratch_floats_nb(L) > work.shape[0]:
        return -1  # work too small (the Python face sizes it; never in practice)
    tv, flags, tt, rem, pr, wl, inv = _scratch_offsets_nb(ext, L)
    fav = state[K.S_S_GROUND + s]
    bonus = rules[K.R_PARAMS + K.P_FAV_BONUS]
    act = n_active_nb(state)
    q = 1.0 / act if act > 0 else 1.0
    nt = rules[K.R_PARAMS + K.P_N_TYPES]
    tot = 0.0
    for t in range(nt):
        tot += state[K.S_TYPE_LEFT + t]
    ne = 0
    ninv = 0
    for t in range(nt):
        cnt = state[K.S_TYPE_LEFT + t]
        if cnt == 0:
            continue
        base = K.R_TYPES + t * K.CT_N
        kind = rules[base + K.CT_KIND]
        val = rules[base + K.CT_VALUE]
        if kind == K.K_FEEDING:
            if rules[base + K.CT_GROUND] == fav:
                val += bonus
            ek = E_FEED if val > 0 else E_STILL
        elif kind == K.K_INVITATION:  # value = index of its (payoff, payoff_hunting, penalty)
            pay = rules[base + K.CT_PAYOFF]
            payh = rules[base + K.CT_PAYOFF_HUNTING]
            pen = rules[base + K.CT_PENALTY]
            sig = -1
            for i in range(ninv):
                if inv_pay[i, 0] == pay and inv_pay[i, 1] == payh and inv_pay[i, 2] == pen:
                    sig = i
            if sig < 0:
                sig = ninv
                inv_pay[sig, 0] = pay
                inv_pay[sig, 1] = payh
                inv_pay[sig, 2] = pen
                ninv += 1
            val = sig
            ek = E_INVITE
        elif kind == K.K_SUN:
            ek = E_SUN
        elif kind == K.K_LINGERS:
            ek = E_LINGERS
        elif kind == K.K_SLAYER:
            ek = E_SLAYER
        else:
            ek = E_WEREWOLF
        e = -1
        for i in range(ne):
            if eff_kind[i] == ek and eff_val[i] == val:
                e = i
        if e < 0:
            e = ne
            eff_kind[e] = ek
            eff_val[e] = val
            for m in range(3):
                work[pr + m * MAX_CLASSES + e] = 0.0
            ne += 1
        work[pr + rules[base + K.CT_MOON] * MAX_CLASSES + e] += cnt / tot
    # effects that stay in a layer first (the bead's moves, the werewolf's misses, feedings
    # worth 0), then those that leave it
    n_in = 0
    for e in range(ne):
        k = eff_kind[e]
        if k == E_SUN or k == E_LINGERS or k == E_WEREWOLF or k == E_STILL:
            if e != n_in:
                eff_kind[e], eff_kind[n_in] = eff_kind[n_in], eff_kind[e]
                eff_val[e], eff_val[n_in] = eff_val[n_in], eff_val[e]
                for m in range(3):
                    j = pr + m * MAX_CLASSES
                    work[j + e], work[j + n_in] = work[j + n_in], work[j + e]
            n_in += 1
    for e in range(ne):
        work[pr + 3 * MAX_CLASSES + e] = work[pr + e] + work[pr + MAX_CLASSES + e] + \
            work[pr + 2 * MAX_CLASSES + e]
    # the in-layer transitions, the same in every layer: tt + (m + 1) L L + j L + p holds
    # moon m's weight of the value at position j in the sum at position p (m = -1: all)
    for i in range(4 * L * L):
        work[tt + i] = 0.0
    for e in range(n_in):
        kind = eff_kind[e]
        for p in range(L):
            j = _inside_to_nb(p, L, kind, eff_val[e])
            if j >= 0:
                c = 1.0 - q if kind == E_WEREWOLF else 1.0
                for m in range(-1, 3):
                    work[tt + (m + 1) * L * L + j * L + p] += c * work[pr + ((m + 4) % 4) * MAX_CLASSES + e]
    # rem + (m + 1) (L + 1) L + k L + p: the weight of positions k.. in the sum at p
    for m in range(4):
        r = rem + m * (L + 1) * L
        for p in range(L):
            work[r + L * L + p] = 0.0
        for k in range(L - 1, -1, -1):
            for p in range(L):
                work[r + k * L + p] = work[r + (k + 1) * L + p] + work[tt + m * L * L + k * L + p]
    for k in range(L + 1):
        work[flags + k] = 0.0
    direct = L <= DIRECT_MAX_L
    min_gain = 1
    for i in range(ninv):
        for j in range(3):
            if inv_pay[i, j] < min_gain:
                min_gain = inv_pay[i, j]
    for bi in range(nb - 1, bi_from - 1, -1):
        b = b_lo + bi
        # invitations leave the layer (a right vote pays, a wrong one injures) unless a
        # payoff or penalty is 0 or the blood cap folds the payoff back into this layer
        if min_gain == 0 or (bi == nb - 1 and ninv > 0 and not (
                ninv == 1 and _top_layer_nb(work, blk, bi, b, nb, h1, L, q, ne, eff_kind,
                                            eff_val, pr, ext, inv_pay))):
            _layer_with_invitations_nb(work, blk, bi, b, nb, h1, L, q, ne, n_in, eff_kind,
                                       eff_val, pr, ext, ninv, inv_pay)
            continue
        if bi == nb - 1 and ninv == 1:
            continue
        for h in range(1, h1):
            row = _ix(bi, h, 0, h1, L)
            for i in range(ninv):
                _invitation_row_nb(work, blk, bi, h, h1, L, nb, inv_pay, i, (4 + i) * blk + row)
            # what leaves the layer: rows already solved, weighted per moon (a feeding
            # capped at the top layer reads this layer's "stop now", as the sweeps do)
            for p in range(L):
                work[row + p] = b
            n_ext = 0
            for e in range(ne):
                k = eff_kind[e]
                v = eff_val[e]
                c = 1.0
                if k == E_FEED:
                    src = _ix(bi + v if bi + v < nb else nb - 1, h, 0, h1, L)
                elif k == E_SLAYER or k == E_WEREWOLF:
                    if h - v <= 0:
                        continue
                    src = _ix(bi, h - v, 0, h1, L)
                    if k == E_WEREWOLF:
                        c = q
                elif k == E_INVITE:
                    src = (4 + v) * blk + row
                else:
                    continue
                eff_src[n_ext] = src
                for m in range(3):
                    work[wl + m * MAX_CLASSES + n_ext] = c * work[pr + m * MAX_CLASSES + e]
                n_ext += 1
            e0 = work[ext:ext + L]  # views: plain loops over them compile tighter
            e1 = work[ext + L:ext + 2 * L]
            e2 = work[ext + 2 * L:ext + 3 * L]
            for p in range(L):
                e0[p] = 0.0
                e1[p] = 0.0
                e2[p] = 0.0
            for j in range(n_ext):
                x = work[eff_src[j]:eff_src[j] + L]
                w0 = work[wl + j]
                w1 = work[wl + MAX_CLASSES + j]
                w2 = work[wl + 2 * MAX_CLASSES + j]
                for p in range(L):
                    xp = x[p]
                    e0[p] += w0 * xp
                    e1[p] += w1 * xp
                    e2[p] += w2 * xp
            for p in range(L):
                work[ext + 3 * L + p] = e0[p] + e1[p] + e2[p]
            k = _layer_direct_nb(work, row, b, bi, nb, h1, L, ext, tv, flags, tt, rem, inv) \
                if direct else -1
            if k < 0:
                _layer_sweeps_nb(work, row, b, L, q, n_in, eff_kind, eff_val, pr, ext)
                k = L
            for m in range(3):  # positions k.. stop: their values are b
                a = (1 + m) * blk + row
                r = rem + (m + 1) * (L + 1) * L + k * L
                d = work[a:a + L]
                x = work[ext + m * L:ext + (m + 1) * L]
                y = work[r:r + L]
                for p in range(L):
                    d[p] = x[p] + b * y[p]
                _add_product_nb(work, a, tt + (m + 1) * L * L, row, k, L)
    return ne


@njit_nb
def _inside_to_nb(p, L, k, v):
    """Track position after an effect that stays in the layer (-1: the sun has risen)."""
    if k == E_SUN:
        return -1 if p + v >= L else p + v
    if k == E_LINGERS:
        return p - v if p > v else 0
    return p  # the werewolf's miss, a feeding worth 0


@njit_nb
def _add_product_nb(work, dst, mt, x, k, L):
    """``work[dst + p] += sum_{j < k} work[mt + j L + p] * work[x + j]`` (a transposed
    matrix)."""
    d = work[dst:dst + L]
    for j in range(k):
        c = work[x + j]
        col = work[mt + j * L:mt + j * L + L]
        for p in range(L):
            d[p] += col[p] * c


@njit_nb
def _invitation_row_nb(work, blk, bi, h, h1, L, nb, inv_pay, i, dst):
    """``_vote_values_nb`` (best vote) along the track of layer (bi, h), into ``dst``."""
    pen = inv_pay[i, 2]
    low = _ix(bi, h - pen, 0, h1, L)
    for v in range(3):
        pay = inv_pay[i, 1] if v == K.MOON_HUNTING else inv_pay[i, 0]
        b2 = bi + pay if bi + pay < nb else nb - 1
        s1 = (1 + v) * blk + _ix(b2, h, 0, h1, L)
        m1 = 1 if v == 0 else 0
        m2 = 1 if v == 2 else 2
        d = work[dst:dst + L]
        x1 = work[s1:s1 + L]
        if h - pen > 0:
            u1 = work[(1 + m1) * blk + low:(1 + m1) * blk + low + L]
            u2 = work[(1 + m2) * blk + low:(1 + m2) * blk + low + L]
            if v == 0:
                for p in range(L):
                    d[p] = x1[p] + u1[p] + u2[p]
            else:
                for p in range(L):
                    tot = x1[p] + u1[p] + u2[p]
                    d[p] = tot if tot > d[p] else d[p]
        else:
            if v == 0:
                for p in range(L):
                    d[p] = x1[p]
            else:
                for p in range(L):
                    tot = x1[p]
                    d[p] = tot if tot > d[p] else d[p]


@njit_nb
def _layer_direct_nb(work, row, b, bi, nb, h1, L, ext, tv, flags, tt, rem, inv):
    """Solve layer ``row`` exactly (see ``dp_solve_nb``): the prefix length where it
    continues (-1: not settled)."""
    et = ext + 3 * L
    k = L
    if bi + 1 < nb:  # the layer above continues on a prefix no longer: start from it
        up = row + h1 * L
        k = 0
        while k < L and work[up + k] > b + 1:
            k += 1
    for _it in range(L + 2):
        for p in range(L):
            work[row + p] = b
        if k > 0:
            if work[flags + k] == 0.0:
                if not _prefix_inverse_nb(work, tt, inv, L, k):
                    return -1
                work[flags + k] = 1.0
            m = inv + (k - 1) * L * L
            r = rem + k * L
            v = work[row:row + k]
            for i in range(k):
                v[i] = 0.0
            for j in range(k):
                c = work[et + j] + b * work[r + j]
                col = work[m + j * L:m + j * L + k]
                for i in range(k):
                    v[i] += col[i] * c
        d = work[tv:tv + L]
        x = work[et:et + L]
        y = work[rem + k * L:rem + (k + 1) * L]
        for p in range(L):
            d[p] = x[p] + b * y[p]
        _add_product_nb(work, tv, tt, row, k, L)
        kn = 0
        while kn < L and work[tv + kn] > b:
            kn += 1
        for p in range(kn, L):
            if work[tv + p] > b:
                return -1  # continuing is not a prefix: leave it to the sweeps
        if kn == k:
            return k
        k = kn
    return -1


@njit_nb
def _prefix_inverse_nb(work, tt, inv, L, k):
    """``(I - T[:k, :k])^-1`` transposed at ``inv + (k-1) L L`` (``j L + i`` holds row i,
    column j).  False when the system is singular or nearly so (then the layers are
    swept)."""
    m = inv + (k - 1) * L * L
    for i in range(k):  # row i, column j at m + i L + j while eliminating
        for j in range(k):
            work[m + i * L + j] = (1.0 if i == j else 0.0) - work[tt + j * L + i]
    # Gauss-Jordan in place (I - T is diagonally dominant: no pivoting needed)
    for c in range(k):
        piv = work[m + c * L + c]
        if piv < 1e-9:
            return False
        work[m + c * L + c] = 1.0
        for j in range(k):
            work[m + c * L + j] /= piv
        for i in range(k):
            if i != c:
                f = work[m + i * L + c]
                if f != 0.0:
                    work[m + i * L + c] = 0.0
                    for j in range(k):
                        work[m + i * L + j] -= f * work[m + c * L + j]
    for i in range(k):  # transpose
        for j in range(i + 1, k):
            work[m + i * L + j], work[m + j * L + i] = work[m + j * L + i], work[m + i * L + j]
    return True


@njit_nb
def _layer_sweeps_nb(work, row, b, L, q, n_in, eff_kind, eff_val, pr, ext):
    """Gauss-Seidel sweeps along the track to 1e-10, from "stop now"."""
    for p in range(L):
        work[row + p] = b
    for _sweep in range(1000):
        delta = 0.0
        for p in range(L - 1, -1, -1):
            cont = work[ext + 3 * L + p]
            for e in range(n_in):
                j = _inside_to_nb(p, L, eff_kind[e], eff_val[e])
                if j >= 0:
                    x = work[row + j]
                    if eff_kind[e] == E_WEREWOLF:
                        x *= 1.0 - q
                    cont += work[pr + 3 * MAX_CLASSES + e] * x
            nv = cont if cont > b else float(b)
            d = abs(nv - work[row + p])
            if d > delta:
                delta = d
            work[row + p] = nv
        if delta < TOL:
            break


@njit_nb
def _add_row3_nb(work, ext, src, L, w0, w1, w2):
    for p in range(L):
        x = work[src + p]
        work[ext + p] += w0 * x
        work[ext + L + p] += w1 * x
        work[ext + 2 * L + p] += w2 * x


@njit_nb
def _top_layer_nb(work, blk, bi, b, nb, h1, L, q, ne, eff_kind, eff_val, pr, ext, inv_pay):
    """The top blood layer with one kind of invitation, in closed form: at the cap no card
    gains, so the vampire stops everywhere (V = b); a pending invitation's value there
    solves ``Y = max_v (c_v + P(invitation, moon v) Y)``, i.e. ``max_v c_v / (1 - P_v)``.
    False (the sweeps then do it) when stopping is not the answer everywhere."""
    pen = inv_pay[0, 2]
    for h in range(1, h1):
        row = _ix(bi, h, 0, h1, L)
        for p in range(L):
            work[row + p] = b
        for m in range(3):
            for p in range(L):
                work[ext + m * L + p] = 0.0
        pinv0 = 0.0
        pinv1 = 0.0
        pinv2 = 0.0
        for e in range(ne):
            k = eff_kind[e]
            v = eff_val[e]
            w0 = work[pr + e]
            w1 = work[pr + MAX_CLASSES + e]
            w2 = work[pr + 2 * MAX_CLASSES + e]
            if k == E_INVITE:
                pinv0 += w0
                pinv1 += w1
                pinv2 += w2
                continue
            for p in range(L):
                if k == E_SUN:
                    x = 0.0 if p + v >= L else float(b)
                elif k == E_SLAYER:
                    x = 0.0 if h - v <= 0 else float(b)
                elif k == E_WEREWOLF:
                    x = (q * b if h - v > 0 else 0.0) + (1.0 - q) * b
                else:  # a feeding (capped), the bead moving back, a feeding worth 0
                    x = float(b)
                work[ext + p] += w0 * x
                work[ext + L + p] += w1 * x
                work[ext + 2 * L + p] += w2 * x
        if pinv0 > 1.0 - 1e-9 or pinv1 > 1.0 - 1e-9 or pinv2 > 1.0 - 1e-9:
            return False  # nothing but invitations of one moon left: no closed form
        low = _ix(bi, h - pen, 0, h1, L)
        y = (4 * blk) + row
        for p in range(L):
            best = -1.0
            for v in range(3):
                c = work[ext + v * L + p]
                if h - pen > 0:
                    for m in range(3):
                        if m != v:
                            c += work[(1 + m) * blk + low + p]
                pv = pinv0 if v == 0 else (pinv1 if v == 1 else pinv2)
                x = c / (1.0 - pv)
                if x > best:
                    best = x
            work[y + p] = best
            a0 = work[ext + p] + pinv0 * best
            a1 = work[ext + L + p] + pinv1 * best
            a2 = work[ext + 2 * L + p] + pinv2 * best
            work[blk + row + p] = a0
            work[2 * blk + row + p] = a1
            work[3 * blk + row + p] = a2
            if a0 + a1 + a2 > b + 1e-9:
                return False
    return True


@njit_nb
def _layer_with_invitations_nb(work, blk, bi, b, nb, h1, L, q, ne, n_in, eff_kind, eff_val, pr,
                               ext, ninv, inv_pay):
    """One blood layer where a pending invitation loops back into the layer (a payoff or
    penalty of 0, or the blood cap): the invitation tables are swept with the values."""
    for h in range(1, h1):
        row = _ix(bi, h, 0, h1, L)
        for p in range(3 * L):
            work[ext + p] = 0.0
        for p in range(L):
            work[row + p] = b
            for i in range(ninv):
                work[(4 + i) * blk + row + p] = 0.0
        for e in range(ne):
            k = eff_kind[e]
            v = eff_val[e]
            if k == E_FEED:
                src = _ix(bi + v if bi + v < nb else nb - 1, h, 0, h1, L)
                w = 1.0
            elif k == E_SLAYER or k == E_WEREWOLF:
                if h - v <= 0:
                    continue
                src = _ix(bi, h - v, 0, h1, L)
                w = 1.0 if k == E_SLAYER else q
            else:
                continue
            _add_row3_nb(work, ext, src, L, w * work[pr + e], w * work[pr + MAX_CLASSES + e],
                         w * work[pr + 2 * MAX_CLASSES + e])
        for _sweep in range(1000):
            delta = 0.0
            for p in range(L - 1, -1, -1):
                a0 = work[ext + p]
                a1 = work[ext + L + p]
                a2 = work[ext + 2 * L + p]
                for e in range(ne):
                    k = eff_kind[e]
                    if k == E_INVITE:
                        x = work[(4 + eff_val[e]) * blk + row + p]
                    elif e < n_in:
                        j = _inside_to_nb(p, L, k, eff_val[e])
                        if j < 0:
                            continue
                        x = work[row + j]
                        if k == E_WEREWOLF:
                            x *= 1.0 - q
                    else:
                        continue
                    a0 += work[pr + e] * x
                    a1 += work[pr + MAX_CLASSES + e] * x
                    a2 += work[pr + 2 * MAX_CLASSES + e] * x
                work[blk + row + p] = a0
                work[2 * blk + row + p] = a1
                work[3 * blk + row + p] = a2
                cont = a0 + a1 + a2
                nv = cont if cont > b else float(b)
                d = abs(nv - work[row + p])
                if d > delta:
                    delta = d
                work[row + p] = nv
                for i in range(ninv):
                    y = _vote_values_nb(work, blk, bi, h, p, h1, L, nb, inv_pay, i, -1)
                    j = (4 + i) * blk + row + p
                    d = abs(y - work[j])
                    if d > delta:
                        delta = d
                    work[j] = y
            if delta < TOL:
                break


@njit_nb
def _vote_values_nb(work, blk, bi, h, p, h1, L, nb, inv_pay, i, only):
    """Value of the pending invitation ``i`` at (bi, h, p): the best vote's (``only`` < 0),
    or vote ``only``'s (0 blood, 1 blue, 2 hunting moon)."""
    return _vote_value_nb(work, blk, bi, h, p, h1, L, nb, inv_pay[i, 0], inv_pay[i, 1],
                          inv_pay[i, 2], only)


@njit_nb
def _vote_value_nb(work, blk, bi, h, p, h1, L, nb, payoff, payoff_hunting, pen, only):
    """``_vote_values_nb`` for an invitation of these payoffs and penalty."""
    best = -1.0
    for v in range(3):
        if only >= 0 and v != only:
            continue
        pay = payoff_hunting if v == K.MOON_HUNTING else payoff
        b2 = bi + pay if bi + pay < nb else nb - 1
        tot = work[(1 + v) * blk + _ix(b2, h, p, h1, L)]
        for m in range(3):
            if m != v and h - pen > 0:
                tot += work[(1 + m) * blk + _ix(bi, h - pen, p, h1, L)]
        if tot > best:
            best = tot
    return best


@njit_nb
def _after_one_nb(rules, t, p, b, h, L, q, fav, bonus, b_hi):
    """Blood banked when card type ``t`` is drawn at (p, b, h) and the vampire then stops
    (an invitation counts 0: a lower bound).  Part of ``one_draw_bound_nb``."""
    base = K.R_TYPES + t * K.CT_N
    kind = rules[base + K.CT_KIND]
    v = rules[base + K.CT_VALUE]
    if kind == K.K_FEEDING:
        g = v + (bonus if rules[base + K.CT_GROUND] == fav else 0)
        return float(b + g if b + g < b_hi else b_hi)
    if kind == K.K_SUN:
        return 0.0 if p + v >= L else float(b)
    if kind == K.K_SLAYER:
        return 0.0 if h - v <= 0 else float(b)
    if kind == K.K_WEREWOLF:
        return (1.0 - q) * b if h - v <= 0 else float(b)
    if kind == K.K_LINGERS:
        return float(b)
    return 0.0  # a further invitation: counted as nothing


@njit_nb
def one_draw_bound_nb(state, rules, s, span):
    """A lower bound of the optimal player's continuation value at its state: the value of
    drawing once more and stopping as soon as allowed (the vote of a drawn invitation
    chosen by expectation).  When it beats stopping, the DP would say "stay" too."""
    L = rules[K.R_PARAMS + K.P_TRACK]
    p = state[K.S_TRACK]
    b = state[K.S_S_BLOOD + s]
    h = state[K.S_S_HEALTH + s]
    fav = state[K.S_S_GROUND + s]
    bonus = rules[K.R_PARAMS + K.P_FAV_BONUS]
    act = n_active_nb(state)
    q = 1.0 / act if act > 0 else 1.0
    b_hi = b + span
    nt = rules[K.R_PARAMS + K.P_N_TYPES]
    tot = 0.0
    for t in range(nt):
        tot += state[K.S_TYPE_LEFT + t]
    if tot == 0:
        return 0.0
    lb = 0.0
    for t in range(nt):
        cnt = state[K.S_TYPE_LEFT + t]
        if cnt == 0:
            continue
        base = K.R_TYPES + t * K.CT_N
        if rules[base + K.CT_KIND] != K.K_INVITATION:
            lb += cnt / tot * _after_one_nb(rules, t, p, b, h, L, q, fav, bonus, b_hi)
            continue
        pen = rules[base + K.CT_PENALTY]
        best = 0.0
        for vote in range(3):
            pay = rules[base + (K.CT_PAYOFF_HUNTING if vote == K.MOON_HUNTING else K.CT_PAYOFF)]
            x = 0.0
            for t2 in range(nt):
                c2 = state[K.S_TYPE_LEFT + t2]
                if c2 == 0:
                    continue
                if rules[K.R_TYPES + t2 * K.CT_N + K.CT_MOON] == vote:
                    b2 = b + pay if b + pay < b_hi else b_hi
                    x += c2 / tot * _after_one_nb(rules, t2, p, b2, h, L, q, fav, bonus, b_hi)
                elif h - pen > 0:
                    x += c2 / tot * _after_one_nb(rules, t2, p, b, h - pen, L, q, fav, bonus, b_hi)
            if x > best:
                best = x
        lb += cnt / tot * best
    return lb


@njit_nb
def optimal_nb(state, rules, s, params, legal, n, work, cls_kind, cls_val, cls_moon, cls_prob,
               inv_pay):
    a = _card_play_nb(state, rules, s, legal, n)
    if a >= 0:
        return a
    ph = state[K.S_PHASE]
    span = np.int64(params[0])
    if ph == K.PH_DECIDE:
        b = state[K.S_S_BLOOD + s]
        if not _has(legal, n, K.A_RETIRE) or b == 0:
            return K.A_STAY  # nothing to bank: continuing can only gain
        if one_draw_bound_nb(state, rules, s, span) > b + TIE:
            return K.A_STAY  # one more draw already beats stopping: so does the optimum
        b_lo, nb, h1, L = dp_dims_nb(state, rules, s, span)
        if dp_solve_nb(state, rules, s, span, work, cls_kind, cls_val, cls_moon, cls_prob, inv_pay,
                       b - b_lo) < 0:
            return K.A_STAY
        blk = nb * h1 * L
        i0 = _ix(b - b_lo, state[K.S_S_HEALTH + s], state[K.S_TRACK], h1, L)
        cont = work[blk + i0] + work[2 * blk + i0] + work[3 * blk + i0]
        return K.A_STAY if cont > b + TIE else K.A_RETIRE
    if ph == K.PH_VOTE:
        if dp_solve_nb(state, rules, s, span, work, cls_kind, cls_val, cls_moon, cls_prob, inv_pay,
                       0) < 0:
            return K.A_VOTE_BLOOD
        b_lo, nb, h1, L = dp_dims_nb(state, rules, s, span)
        blk = nb * h1 * L
        base = K.R_TYPES + state[K.S_CARD] * K.CT_N  # the invitation drawn: its own payoffs
        b = state[K.S_S_BLOOD + s]
        h = state[K.S_S_HEALTH + s]
        p = state[K.S_TRACK]
        best = K.A_VOTE_BLOOD
        best_v = -1.0
        for v in range(3):
            x = _vote_value_nb(work, blk, b - b_lo, h, p, h1, L, nb, rules[base + K.CT_PAYOFF],
                               rules[base + K.CT_PAYOFF_HUNTING], rules[base + K.CT_PENALTY], v)
            if x > best_v + TIE:
                best_v = x
                best = K.A_VOTE_BLOOD + v
        if _has(legal, n, K.A_REFUSE):
            bi = b - rules[K.R_PARAMS + K.P_REFUSE_COST] - b_lo
            i0 = _ix(bi, h, p, h1, L)
            x = work[blk + i0] + work[2 * blk + i0] + work[3 * blk + i0]
            if x > best_v + TIE:
                best = K.A_REFUSE
        return best
    return legal[0]


# =========================================================================== dispatch
@njit_nb
def choose_nb(state, rules, policy, params, legal, n, work, cls_kind, cls_val, cls_moon,
              cls_prob, inv_pay):
    """The action of the player to move under ``policy`` with ``params`` (float64)."""
    if n == 1:
        return legal[0]
    s = state[K.S_DECIDER]
    if policy == POLICY_THRESHOLD:
        return threshold_nb(state, rules, s, params, legal, n)
    if policy == POLICY_OPTIMAL:
        return optimal_nb(state, rules, s, params, legal, n, work, cls_kind, cls_val, cls_moon,
                          cls_prob, inv_pay)
    if policy == POLICY_DISTILLED:
        return distilled_nb(state, rules, s, params, legal, n, cls_prob)
    return legal[randint_at_nb(state, K.S_STREAMS + K.STREAM_POLICY, n)]
