"""Until the World Ends players as kernels: ``choose_nb`` picks one legal action.

``random``
    A uniformly random legal action (the policy stream).
``greedy(end_margin, challenge_margin)``
    Plays the card that most raises its round score minus the best rival's (effects
    evaluated on the state: events, common cards, instantaneous cards on a scratch copy);
    draws when nothing gains and the hand has room; ends the round when it leads every
    rival this round by >= ``end_margin`` or the round would win it the game; challenges an
    ending that leaves it >= ``challenge_margin`` behind this round or would end the game
    with a rival ahead; snipes the round leader's most valuable card; in a hoard picks the
    ending best for itself.
``rollout(rollouts)`` / ``clairvoyant(rollouts)``
    Flat Monte Carlo over greedy continuations to the end of the game: each legal action
    is tried ``rollouts`` times; before each try the cards the player cannot see (the
    others' hands and the draw pile) and the future shuffles are re-dealt at random from
    what is unseen (``rollout``, no peeking; try t deals the same world for every action:
    common random numbers) or left as they are (``clairvoyant``, the upper bound).  The
    value of a try is the player's share of the game's win (1/k among k tied winners).
    Greedy's own choice stands unless another action's mean paired gain over the same
    worlds is positive and exceeds ``z`` standard errors (``clairvoyant``: one world,
    any positive gain).

Scratch (``new_scratch`` in ``api``): ``legal`` int64 (2 MAX_LEGAL + MAX_TRIES,), ``work`` int64
(3, codes.state_size(players)) state copies, ``slog`` int64 (1, LOG_W) a log that records nothing.
"""
from __future__ import annotations

import numpy as np

from ....core.jit import njit_nb
from ....core.rng import randint_at_nb
from .. import codes as K
from .engine_nb import (apply_action_nb, card_nb, legal_actions_nb, multiplier_nb,
                        resolve_instant_nb, score_player_nb, tl_remove_nb)

POLICY_RANDOM, POLICY_GREEDY, POLICY_ROLLOUT, POLICY_CLAIRVOYANT = range(4)
N_PARAMS = 4
NEG = -(1 << 40)


@njit_nb
def margin_nb(state, rules, me, ending):
    """My round score minus the best rival's, with ending ``ending``'s modifier (-1: none)."""
    mine = score_player_nb(state, rules, me, ending, False)
    best = NEG
    for p in range(state[K.S_PLAYERS]):
        if p != me:
            best = max(best, score_player_nb(state, rules, p, ending, False))
    return mine - best


@njit_nb
def ends_game_against_nb(state, rules, me, ending):
    """(the round would end the game, I would be among its winners) if it ended now."""
    target = rules[K.R_PARAMS + K.P_TARGET]
    reached = False
    mine = state[K.S_S_TOTAL + me * K.SEAT_W] + score_player_nb(state, rules, me, ending, False)
    top = mine
    for p in range(state[K.S_PLAYERS]):
        t = state[K.S_S_TOTAL + p * K.SEAT_W] + score_player_nb(state, rules, p, ending, False)
        if t >= target:
            reached = True
        top = max(top, t)
    return reached, mine == top


@njit_nb
def wins_outright_nb(state, rules, me, ending):
    """The round would end the game with me the only winner."""
    target = rules[K.R_PARAMS + K.P_TARGET]
    mine = state[K.S_S_TOTAL + me * K.SEAT_W] + score_player_nb(state, rules, me, ending, False)
    if mine < target:
        return False
    for p in range(state[K.S_PLAYERS]):
        if p != me and state[K.S_S_TOTAL + p * K.SEAT_W] + score_player_nb(state, rules, p, ending, False) >= mine:
            return False
    return True


@njit_nb
def snipe_choice_nb(state, rules, me):
    """The round leader among the others with a timeline card; its most valuable card."""
    lead = -1
    best = NEG
    for p in range(state[K.S_PLAYERS]):
        if p != me and state[K.S_S_TL_N + p * K.SEAT_W] > 0:
            sc = score_player_nb(state, rules, p, -1, False)
            if sc > best:
                best = sc
                lead = p
    if lead < 0:
        return -1
    pos = 0
    bestv = NEG
    base = K.S_TL + lead * K.SEAT_W
    for i in range(state[K.S_S_TL_N + lead * K.SEAT_W]):
        c = state[base + i]
        v = card_nb(rules, c, K.CC_VALUE) * multiplier_nb(state, rules, card_nb(rules, c, K.CC_MASK))
        if v > bestv:
            bestv = v
            pos = i
    return K.A_SNIPE + lead * K.MAX_DECK + pos


@njit_nb
def play_gain_nb(state, rules, me, slot, work, slog):
    """The margin after playing hand slot ``slot`` (not an ending) minus the margin now."""
    c = state[K.S_HAND + me * K.SEAT_W + slot]
    kind = card_nb(rules, c, K.CC_KIND)
    now = margin_nb(state, rules, me, -1)
    if kind == K.KIND_EVENT:
        n = state[K.S_S_TL_N + me * K.SEAT_W]
        state[K.S_TL + me * K.SEAT_W + n] = c
        state[K.S_S_TL_N + me * K.SEAT_W] = n + 1
        after = margin_nb(state, rules, me, -1)
        state[K.S_S_TL_N + me * K.SEAT_W] = n
        return after - now
    if kind == K.KIND_GOOD or kind == K.KIND_ESCALATION:
        n = state[K.S_N_COMMON]
        state[K.S_COMMON + n] = c
        state[K.S_N_COMMON] = n + 1
        after = margin_nb(state, rules, me, -1)
        state[K.S_N_COMMON] = n
        return after - now
    # an instantaneous: its effect on a copy (a scavenge changes no score)
    if card_nb(rules, c, K.CC_EFFECT) == K.FX_DRAW_EACH:
        return 0
    w = work[0]
    for i in range(K.S_SEATS + state[K.S_PLAYERS] * K.SEAT_W):
        w[i] = state[i]
    if card_nb(rules, c, K.CC_EFFECT) == K.FX_REMOVE_ONE:
        a = snipe_choice_nb(w, rules, me)
        if a < 0:
            return 0
        code = a - K.A_SNIPE
        tl_remove_nb(w, code // K.MAX_DECK, code % K.MAX_DECK)
    else:
        resolve_instant_nb(w, rules, c, me, 0, slog)
    return margin_nb(w, rules, me, -1) - now


@njit_nb
def greedy_nb(state, rules, params, legal, n, work, slog):
    me = state[K.S_DECIDER]
    ph = state[K.S_PHASE]
    if n == 1:
        return legal[0]
    if ph == K.PH_TURN:
        end_margin = params[0]
        can_draw = False
        best_gain = NEG
        best_play = -1
        best_end = -1
        best_end_m = NEG
        fallback_end = -1
        for i in range(n):
            a = legal[i]
            if a == K.A_DRAW:
                can_draw = True
                continue
            slot = a - K.A_PLAY
            c = state[K.S_HAND + me * K.SEAT_W + slot]
            if card_nb(rules, c, K.CC_KIND) == K.KIND_ENDING:
                m = margin_nb(state, rules, me, c)
                if fallback_end < 0 or m > best_end_m:
                    best_end_m = m
                    fallback_end = a
                if m >= end_margin or wins_outright_nb(state, rules, me, c):
                    if best_end < 0 or m > margin_nb(state, rules, me, state[K.S_HAND + me * K.SEAT_W + best_end - K.A_PLAY]):
                        best_end = a
                continue
            g = play_gain_nb(state, rules, me, slot, work, slog)
            if g > best_gain:
                best_gain = g
                best_play = a
        if best_end >= 0:
            return best_end
        if best_play >= 0 and best_gain > 0:
            return best_play
        if can_draw:
            return K.A_DRAW
        if best_play >= 0:
            return best_play
        return fallback_end
    if ph == K.PH_SNIPE:
        a = snipe_choice_nb(state, rules, me)
        return a if a >= 0 else legal[0]
    if ph == K.PH_CHALLENGE:
        e = state[K.S_END_CARD]
        reached, among = ends_game_against_nb(state, rules, me, e)
        if reached and not among:
            return K.A_CHALLENGE
        if -margin_nb(state, rules, me, e) >= params[1]:
            return K.A_CHALLENGE
        return K.A_DECLINE
    # a hoard's pick: the ending best for itself
    best = legal[0]
    bs = NEG
    for i in range(n):
        e = state[K.S_SHOWN + legal[i] - K.A_PICK]
        sc = score_player_nb(state, rules, me, e, False)
        if sc > bs:
            bs = sc
            best = legal[i]
    return best


@njit_nb
def resample_nb(state, rules, me):
    """Re-deals what ``me`` cannot see (the others' hands and the draw pile) at random from
    those same cards, sizes kept (the search stream).  A re-dealt hand's drawn-ending marks
    are cleared: which card was drawn is not seen either."""
    n = state[K.S_PLAYERS]
    # the unseen cards, gathered after the pile in the pile part's free tail
    k = state[K.S_N_PILE]
    for p in range(n):
        if p != me:
            for i in range(state[K.S_S_HAND_N + p * K.SEAT_W]):
                state[K.S_PILE + k] = state[K.S_HAND + p * K.SEAT_W + i]
                k += 1
    # sorted first: the re-deal depends on which cards are unseen, never on where they lie
    for i in range(1, k):
        c = state[K.S_PILE + i]
        j = i - 1
        while j >= 0 and state[K.S_PILE + j] > c:
            state[K.S_PILE + j + 1] = state[K.S_PILE + j]
            j -= 1
        state[K.S_PILE + j + 1] = c
    for i in range(k - 1, 0, -1):
        j = randint_at_nb(state, K.S_STREAMS + K.STREAM_SEARCH, i + 1)
        t = state[K.S_PILE + i]
        state[K.S_PILE + i] = state[K.S_PILE + j]
        state[K.S_PILE + j] = t
    m = state[K.S_N_PILE]
    for p in range(n):
        if p != me:
            for i in range(state[K.S_S_HAND_N + p * K.SEAT_W]):
                state[K.S_HAND + p * K.SEAT_W + i] = state[K.S_PILE + m]
                state[K.S_MARKED + p * K.SEAT_W + i] = 0
                m += 1


@njit_nb
def tie_unit_nb(players):
    """lcm(1 .. max(8, players)): a share of the win 1/k is an integer for every k winners
    (840 up to 8 players; codes.MAX_PLAYERS keeps it within int64)."""
    u = 1
    for k in range(2, max(8, players) + 1):
        a = u
        b = k
        while b:
            a, b = b, a % b
        u = u // a * k
    return u


@njit_nb
def rollout_value_nb(state, rules, w, inner, legal, n, gp, a0, me, seedv, peek, slog):
    """One try of action ``a0``: the world of ``seedv`` (not ``peek``: the unseen cards and
    the future shuffles re-dealt), greedy to the end; my share of the win times
    ``tie_unit_nb`` (an integer for every tie)."""
    for j in range(K.S_SEATS + state[K.S_PLAYERS] * K.SEAT_W):
        w[j] = state[j]
    if not peek:
        w[K.S_STREAMS + K.STREAM_SEARCH] = seedv
        w[K.S_STREAMS + K.STREAM_DEAL] = seedv ^ 0x5DEECE66D
        w[K.S_KEY] = seedv ^ 0x1B873593
        resample_nb(w, rules, me)
    apply_action_nb(w, rules, a0, slog)
    while w[K.S_OVER] == 0:
        m = legal_actions_nb(w, rules, legal[n:])
        a = greedy_nb(w, rules, gp, legal[n:], m, inner, slog)
        apply_action_nb(w, rules, a, slog)
    top = w[K.S_S_TOTAL]
    for p in range(w[K.S_PLAYERS]):
        top = max(top, w[K.S_S_TOTAL + p * K.SEAT_W])
    if w[K.S_S_TOTAL + me * K.SEAT_W] != top:
        return 0
    k = 0
    for p in range(w[K.S_PLAYERS]):
        if w[K.S_S_TOTAL + p * K.SEAT_W] == top:
            k += 1
    return tie_unit_nb(w[K.S_PLAYERS]) // k


@njit_nb
def rollout_nb(state, rules, params, legal, n, work, slog, peek):
    """Greedy's choice stands unless another action's mean paired gain over the same
    worlds (common random numbers) is positive and exceeds ``z`` standard errors."""
    me = state[K.S_DECIDER]
    if n == 1:
        return legal[0]
    tries = 1 if peek else min(K.MAX_TRIES, max(1, int(params[0])))  # a clairvoyant try is deterministic
    gp = params[1:3]  # the continuation's greedy parameters (end_margin, challenge_margin)
    z = params[3]
    w = work[1]
    inner = work[2:]
    g_choice = greedy_nb(state, rules, gp, legal, n, inner, slog)
    randint_at_nb(state, K.S_STREAMS + K.STREAM_SEARCH, 2)
    base = state[K.S_STREAMS + K.STREAM_SEARCH]
    gvals = legal[n + K.MAX_LEGAL:]  # greedy's value in each world
    for t in range(tries):
        gvals[t] = rollout_value_nb(state, rules, w, inner, legal, n, gp, g_choice, me,
                                    base ^ ((t + 1) * 0x2545F4914F6CDD1D), peek, slog)
    best = g_choice
    best_mean = 0.0
    for i in range(n):
        if legal[i] == g_choice:
            continue
        s1 = 0.0
        s2 = 0.0
        for t in range(tries):
            d = float(rollout_value_nb(state, rules, w, inner, legal, n, gp, legal[i], me,
                                       base ^ ((t + 1) * 0x2545F4914F6CDD1D), peek, slog) - gvals[t])
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
    return best


@njit_nb
def choose_nb(state, rules, policy, params, legal, n, work, slog):
    """The action of the seat to decide (``legal[:n]``; ``legal`` has room for a
    continuation's own list after them)."""
    if policy == POLICY_RANDOM:
        return legal[randint_at_nb(state, K.S_STREAMS + K.STREAM_POLICY, n)]
    if policy == POLICY_GREEDY:
        return greedy_nb(state, rules, params, legal, n, work, slog)
    return rollout_nb(state, rules, params, legal, n, work, slog, policy == POLICY_CLAIRVOYANT)
