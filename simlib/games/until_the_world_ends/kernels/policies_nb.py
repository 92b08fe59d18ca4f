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
``distilled`` (4), params ``DISTILLED_PARAMS`` (``any_ruleset``, then the weights)
    The rollout player's values fitted into two linear scores of what a player sees (the
    timelines, the common area, the totals, its own hand, the counts of the others' hands,
    the draw pile and the face-up discards; never a hidden card): on its turn it takes
    the action (draw, or play a card of its hand) of the highest ``w . turn_features``,
    and it challenges an ending when ``w . challenge_features`` is positive.  Greedy's
    own choice is one of the features.  It snipes and picks in a hoard as greedy does.
    The weights are fitted by ``simlib train-policy --game until-the-world-ends``
    (``distil.py``) and read from ``data/until_the_world_ends/policies/distilled.toml``.

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

POLICY_RANDOM, POLICY_GREEDY, POLICY_ROLLOUT, POLICY_CLAIRVOYANT, POLICY_DISTILLED = range(5)
# the shortest parameter vector of a seat (unused entries are 0); a table with a distilled
# seat carries the distilled policy's longer vector (``N_DISTILLED_PARAMS``) in every seat
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


# =========================================================================== distilled
# The distilled policy's parameter vector: ``any_ruleset`` (1: play the weights on a ruleset
# other than the one they were fitted on; read in Python only), greedy's ``end_margin`` and
# ``challenge_margin`` (the greedy choice the ``greedy`` features name), the bonus of greedy's
# choice by table size, then the weights of the turn features, then those of the challenge
# features (names: ``policies.py``).
TURN_FEATURES = (
    "draw", "draw_hand", "draw_pile", "draw_margin", "draw_endings", "draw_players",
    "draw_late", "draw_forgone", "draw_forgone_players",
    "play", "play_gain", "play_gains", "play_event", "play_good", "play_escalation",
    "play_instant", "play_instant_gain",
    "end", "end_margin", "end_lead", "end_wins", "end_loses_game", "end_ties_game",
    "end_standing", "end_challenge", "end_challenge_margin", "end_late", "end_players",
    "end_margin_now", "greedy")
CHALLENGE_FEATURES = (
    "challenge", "challenge_margin", "challenge_loses_game", "challenge_ties_game",
    "challenge_margin_now", "challenge_standing", "challenge_endings", "challenge_late",
    "challenge_players", "challenge_others", "greedy")
N_TURN = len(TURN_FEATURES)
N_CHALLENGE = len(CHALLENGE_FEATURES)
DP_ANY_RULESET = 0
DP_END_MARGIN = 1  # the parameters of the greedy choice the ``greedy`` features name
DP_CHALLENGE_MARGIN = 2
# greedy's choice's bonus in both scores by table size (2, 3, 4, 5, 6 or more players):
# tuned, not fitted (``distil.py``)
BONUS_PLAYERS = (2, 3, 4, 5, 6)
DP_BONUS = 3
DP_W_TURN = DP_BONUS + len(BONUS_PLAYERS)
DP_W_CHALLENGE = DP_W_TURN + N_TURN
N_DISTILLED_PARAMS = DP_W_CHALLENGE + N_CHALLENGE
# the context of a decision (``context_nb``), read by the features
CX_M0, CX_ME_TOTAL, CX_HAND, CX_PILE, CX_LATE, CX_ENDINGS, CX_P_OTHER, CX_PLAYERS = range(8)
N_CX = 8
SCALE = 10.0  # points are divided by this in the features
LEAD = 5  # greedy's default end margin: "leads every rival by 5" is a feature


@njit_nb
def p_ending_nb(state, rules, me, holders):
    """The chance that at least one of the hands of ``holders`` (a seat bit mask, never
    ``me``) holds an ending, as ``me`` sees it: their cards drawn at random from the cards
    ``me`` cannot see (the deck less its own hand, the timelines, the common area and the
    discards), which hold the deck's endings less those in its hand and the discards."""
    n = state[K.S_PLAYERS]
    nc = rules[K.R_PARAMS + K.P_N_CARDS]
    ends = 0
    for c in range(nc):
        if card_nb(rules, c, K.CC_KIND) == K.KIND_ENDING:
            ends += 1
    unseen = nc - state[K.S_N_COMMON] - state[K.S_N_DISCARD]
    for i in range(state[K.S_N_DISCARD]):
        if card_nb(rules, state[K.S_DISCARD + i], K.CC_KIND) == K.KIND_ENDING:
            ends -= 1
    h = 0
    for p in range(n):
        unseen -= state[K.S_S_TL_N + p * K.SEAT_W]
        if p == me:
            unseen -= state[K.S_S_HAND_N + p * K.SEAT_W]
            for i in range(state[K.S_S_HAND_N + p * K.SEAT_W]):
                if card_nb(rules, state[K.S_HAND + p * K.SEAT_W + i], K.CC_KIND) == K.KIND_ENDING:
                    ends -= 1
        elif (holders >> p) & 1:
            h += state[K.S_S_HAND_N + p * K.SEAT_W]
    none = 1.0
    for j in range(h):
        if unseen - j <= 0:
            break
        none *= max(0.0, (unseen - ends - j) / (unseen - j))
    return 1.0 - none


@njit_nb
def context_nb(state, rules, me, cx):
    """What every feature of ``me``'s decision shares, into ``cx[:N_CX]``: its round margin
    now (no ending), its total, its hand's size over the hand limit, the draw pile over the
    deck, the round's turns over the turn cap, the endings in its hand, the chance that a
    rival holds an ending (``p_ending_nb``), the players."""
    n = state[K.S_PLAYERS]
    cx[CX_M0] = margin_nb(state, rules, me, -1)
    cx[CX_ME_TOTAL] = state[K.S_S_TOTAL + me * K.SEAT_W]
    cx[CX_HAND] = state[K.S_S_HAND_N + me * K.SEAT_W] / rules[K.R_PARAMS + K.P_HAND_LIMIT]
    cx[CX_PILE] = state[K.S_N_PILE] / rules[K.R_PARAMS + K.P_N_CARDS]
    cx[CX_LATE] = state[K.S_ROUND_TURNS] / rules[K.R_PARAMS + K.P_TURN_CAP]
    e = 0
    for i in range(state[K.S_S_HAND_N + me * K.SEAT_W]):
        if card_nb(rules, state[K.S_HAND + me * K.SEAT_W + i], K.CC_KIND) == K.KIND_ENDING:
            e += 1
    cx[CX_ENDINGS] = e
    cx[CX_P_OTHER] = p_ending_nb(state, rules, me, ((1 << n) - 1) ^ (1 << me))
    cx[CX_PLAYERS] = n


@njit_nb
def standing_nb(state, rules, me, ending):
    """My total minus the best rival's if the round ended now with ``ending``."""
    mine = state[K.S_S_TOTAL + me * K.SEAT_W] + score_player_nb(state, rules, me, ending, False)
    best = NEG
    for p in range(state[K.S_PLAYERS]):
        if p != me:
            best = max(best, state[K.S_S_TOTAL + p * K.SEAT_W]
                       + score_player_nb(state, rules, p, ending, False))
    return mine - best


@njit_nb
def turn_features_nb(state, rules, me, a, g, cx, work, slog, out):
    """The turn features of action ``a`` (draw, or play a hand slot) into ``out[:N_TURN]``
    (float64), with ``g`` greedy's choice and ``cx`` the decision's context
    (``context_nb``); points are divided by ``SCALE``.  A draw: ``draw`` 1, its hand's size,
    the pile, its margin now, its endings, the players over 10, the round's turns, the
    margin gain of the card greedy would play instead (0 when greedy draws or ends) and
    that times the players over 10.  A card that is not an ending: ``play`` 1, its margin
    gain (greedy's ``play_gain_nb``), whether it gains, its kind, an instantaneous's gain.
    An ending: ``end`` 1, the round margin with it, whether that leads every rival by
    ``LEAD``, whether the round would win it the game outright, end the game with a rival
    ahead, or end it with me among the winners, the game standing after it
    (``standing_nb``), the chance a rival holds an ending and that times the margin, the
    round's turns, the players over 10, the margin now.  ``greedy`` 1 on greedy's choice."""
    for i in range(N_TURN):
        out[i] = 0.0
    out[N_TURN - 1] = 1.0 if a == g else 0.0
    if a == K.A_DRAW:
        out[0] = 1.0
        out[1] = cx[CX_HAND]
        out[2] = cx[CX_PILE]
        out[3] = cx[CX_M0] / SCALE
        out[4] = cx[CX_ENDINGS]
        out[5] = cx[CX_PLAYERS] / 10.0
        out[6] = cx[CX_LATE]
        if g >= K.A_PLAY and g < K.A_PICK:
            gs = g - K.A_PLAY
            if card_nb(rules, state[K.S_HAND + me * K.SEAT_W + gs], K.CC_KIND) != K.KIND_ENDING:
                out[7] = play_gain_nb(state, rules, me, gs, work, slog) / SCALE
                out[8] = out[7] * cx[CX_PLAYERS] / 10.0
        return
    slot = a - K.A_PLAY
    c = state[K.S_HAND + me * K.SEAT_W + slot]
    kind = card_nb(rules, c, K.CC_KIND)
    if kind != K.KIND_ENDING:
        gain = play_gain_nb(state, rules, me, slot, work, slog) / SCALE
        out[9] = 1.0
        out[10] = gain
        out[11] = 1.0 if gain > 0 else 0.0
        out[12] = 1.0 if kind == K.KIND_EVENT else 0.0
        out[13] = 1.0 if kind == K.KIND_GOOD else 0.0
        out[14] = 1.0 if kind == K.KIND_ESCALATION else 0.0
        if kind == K.KIND_INSTANT:
            out[15] = 1.0
            out[16] = gain
        return
    m = margin_nb(state, rules, me, c)
    reached, among = ends_game_against_nb(state, rules, me, c)
    out[17] = 1.0
    out[18] = m / SCALE
    out[19] = 1.0 if m >= LEAD else 0.0
    out[20] = 1.0 if wins_outright_nb(state, rules, me, c) else 0.0
    out[21] = 1.0 if reached and not among else 0.0
    out[22] = 1.0 if reached and among else 0.0
    out[23] = standing_nb(state, rules, me, c) / SCALE
    out[24] = cx[CX_P_OTHER]
    out[25] = cx[CX_P_OTHER] * m / SCALE
    out[26] = cx[CX_LATE]
    out[27] = cx[CX_PLAYERS] / 10.0
    out[28] = cx[CX_M0] / SCALE


@njit_nb
def challenge_features_nb(state, rules, me, a, g, cx, out):
    """The challenge features of ``a`` (challenge or let the ending stand) into
    ``out[:N_CHALLENGE]``: letting it stand is 0 but for ``greedy``; a challenge: 1, my round
    margin under the standing ending, whether the ending would end the game with a rival
    ahead, or with me among the winners, my margin now without it, the game standing under
    it, the endings in my hand, the round's turns, the players over 10, the chance that a
    seat still to be asked after me holds an ending; ``greedy`` 1 on greedy's choice."""
    for i in range(N_CHALLENGE):
        out[i] = 0.0
    out[10] = 1.0 if a == g else 0.0
    if a != K.A_CHALLENGE:
        return
    e = state[K.S_END_CARD]
    reached, among = ends_game_against_nb(state, rules, me, e)
    n = state[K.S_PLAYERS]
    later = 0
    for k in range(state[K.S_ASK] + 1, n):
        p = (state[K.S_ENDER] + k) % n
        if p != me:
            later |= 1 << p
    out[0] = 1.0
    out[1] = margin_nb(state, rules, me, e) / SCALE
    out[2] = 1.0 if reached and not among else 0.0
    out[3] = 1.0 if reached and among else 0.0
    out[4] = cx[CX_M0] / SCALE
    out[5] = standing_nb(state, rules, me, e) / SCALE
    out[6] = cx[CX_ENDINGS]
    out[7] = cx[CX_LATE]
    out[8] = cx[CX_PLAYERS] / 10.0
    out[9] = p_ending_nb(state, rules, me, later)


@njit_nb
def distilled_nb(state, rules, params, legal, n, work, slog, buf):
    """Greedy's choice when it is the only action, a snipe or a hoard's pick; on a turn the
    action of the highest turn score (the first of equal scores), at a challenge the
    challenge when its score is higher than letting the ending stand; greedy's choice's
    score has the table size's bonus added.  ``buf``: float64
    scratch (N_CX + N_TURN values)."""
    if n == 1:
        return legal[0]
    me = state[K.S_DECIDER]
    ph = state[K.S_PHASE]
    g = greedy_nb(state, rules, params[DP_END_MARGIN:DP_BONUS], legal, n, work, slog)
    if ph != K.PH_TURN and ph != K.PH_CHALLENGE:
        return g
    cx = buf[:N_CX]
    x = buf[N_CX:]
    context_nb(state, rules, me, cx)
    bonus = params[DP_BONUS + min(max(state[K.S_PLAYERS], BONUS_PLAYERS[0]), BONUS_PLAYERS[-1])
                   - BONUS_PLAYERS[0]]
    if ph == K.PH_CHALLENGE:
        challenge_features_nb(state, rules, me, K.A_CHALLENGE, g, cx, x)
        sc = 0.0
        for i in range(N_CHALLENGE):
            sc += params[DP_W_CHALLENGE + i] * x[i]
        sd = 0.0
        if g == K.A_DECLINE:
            sd = params[DP_W_CHALLENGE + N_CHALLENGE - 1] + bonus
        else:
            sc += bonus
        return K.A_CHALLENGE if sc > sd else K.A_DECLINE
    best = legal[0]
    best_v = -1e300
    for i in range(n):
        turn_features_nb(state, rules, me, legal[i], g, cx, work, slog, x)
        sc = 0.0
        for j in range(N_TURN):
            sc += params[DP_W_TURN + j] * x[j]
        if legal[i] == g:
            sc += bonus
        if sc > best_v:
            best_v = sc
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
    if policy == POLICY_DISTILLED:
        # its float scratch: work's second row (a rollout's world; free outside a search)
        return distilled_nb(state, rules, params, legal, n, work, slog, work[1].view(np.float64))
    return rollout_nb(state, rules, params, legal, n, work, slog, policy == POLICY_CLAIRVOYANT)
