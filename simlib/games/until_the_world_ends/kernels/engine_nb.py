"""Until the World Ends step model: a game is one int64 ``state`` array (layout ``codes.STATE``).

``init_state_nb(state, rules, players, key, log)``
    A new game: round 1 dealt, at its first decision (the dealer's left to play).
``legal_actions_nb(state, rules, out) -> n``
    The legal action codes (``codes.A_*``) of the player to decide (``state[S_DECIDER]``)
    into ``out[:n]``.
``apply_action_nb(state, rules, action, log) -> ok``
    Applies one action (``False``: not legal, nothing changed), then every forced step
    (effects, redeals, scoring, the next round's deal) up to the next decision or the end.
``record_nb(state, rules, game, rec)``
    The finished game as a record row (layout ``codes.RECORD``).
``score_player_nb(state, rules, p, ending, acc)``
    Seat ``p``'s round score now, with the modifier of ending card ``ending`` (-1: none).

Arrays: ``rules`` int64 (R_SIZE,) from ``UntilTheWorldEndsRules.flat()``; ``state`` int64
(``codes.state_size(players)``,: one block per seat, as many as the game has players);
``rec`` int64 (``codes.rec_size(seats)``,) for ``seats >= players``; ``log`` int64 (n, LOG_W) trace buffer (row 0 counts the rows; a (1, LOG_W)
buffer records nothing).  Randomness: the state's own counter-based streams
(``simlib.core.rng``'s splitmix64), the deal stream re-keyed every round from the game's
key, so each round's deal depends on (seed, game, round) only.  The rules where the text
is silent are the defaults on the game's page (docs/games/until-the-world-ends.md).
"""
from __future__ import annotations

import numpy as np

from ....core.jit import njit_nb
from ....core.gamelog_nb import log_nb
from ....core.rng import key_streams_at_nb, mix64_nb, randint_at_nb
from .. import codes as K

ROUND_SALT = np.uint64(0x8EBC6AF09C88C6E3)


# =========================================================================== randomness
@njit_nb
def shuffle_nb(state, off, n, stream):
    """Fisher-Yates over ``state[off:off + n]``."""
    for i in range(n - 1, 0, -1):
        j = randint_at_nb(state, K.S_STREAMS + stream, i + 1)
        t = state[off + i]
        state[off + i] = state[off + j]
        state[off + j] = t


# =========================================================================== cards and piles
@njit_nb
def card_nb(rules, c, col):
    return rules[K.R_CARDS + c * K.CC_N + col]


@njit_nb
def hand_add_nb(state, s, c, marked):
    n = state[K.S_S_HAND_N + s * K.SEAT_W]
    state[K.S_HAND + s * K.SEAT_W + n] = c
    state[K.S_MARKED + s * K.SEAT_W + n] = marked
    state[K.S_S_HAND_N + s * K.SEAT_W] = n + 1


@njit_nb
def hand_remove_nb(state, s, slot):
    """Removes slot ``slot`` of seat ``s``'s hand (the rest keep their order); the card."""
    n = state[K.S_S_HAND_N + s * K.SEAT_W]
    base = K.S_HAND + s * K.SEAT_W
    mb = K.S_MARKED + s * K.SEAT_W
    c = state[base + slot]
    for i in range(slot, n - 1):
        state[base + i] = state[base + i + 1]
        state[mb + i] = state[mb + i + 1]
    state[K.S_S_HAND_N + s * K.SEAT_W] = n - 1
    return c


@njit_nb
def tl_remove_nb(state, s, pos):
    n = state[K.S_S_TL_N + s * K.SEAT_W]
    base = K.S_TL + s * K.SEAT_W
    c = state[base + pos]
    for i in range(pos, n - 1):
        state[base + i] = state[base + i + 1]
    state[K.S_S_TL_N + s * K.SEAT_W] = n - 1
    return c


@njit_nb
def tl_add_nb(state, s, c):
    n = state[K.S_S_TL_N + s * K.SEAT_W]
    state[K.S_TL + s * K.SEAT_W + n] = c
    state[K.S_S_TL_N + s * K.SEAT_W] = n + 1


@njit_nb
def discard_nb(state, c):
    n = state[K.S_N_DISCARD]
    state[K.S_DISCARD + n] = c
    state[K.S_N_DISCARD] = n + 1


@njit_nb
def endings_in_hand_nb(state, rules, s):
    k = 0
    base = K.S_HAND + s * K.SEAT_W
    for i in range(state[K.S_S_HAND_N + s * K.SEAT_W]):
        if card_nb(rules, state[base + i], K.CC_KIND) == K.KIND_ENDING:
            k += 1
    return k


# =========================================================================== scoring
@njit_nb
def multiplier_nb(state, rules, colour_bit):
    """The escalations' factor on events of one colour (product, or 1 + sum(m - 1))."""
    additive = rules[K.R_PARAMS + K.P_ADDITIVE]
    f = 1
    for i in range(state[K.S_N_COMMON]):
        c = state[K.S_COMMON + i]
        if card_nb(rules, c, K.CC_KIND) == K.KIND_ESCALATION and (card_nb(rules, c, K.CC_MASK) & colour_bit):
            m = card_nb(rules, c, K.CC_VALUE)
            if additive:
                f += m - 1
            else:
                f *= m
    return f


@njit_nb
def colour_count_nb(state, rules, p, mask):
    k = 0
    base = K.S_TL + p * K.SEAT_W
    for i in range(state[K.S_S_TL_N + p * K.SEAT_W]):
        if card_nb(rules, state[base + i], K.CC_MASK) & mask:
            k += 1
    return k


@njit_nb
def score_player_nb(state, rules, p, ending, acc):
    """Seat ``p``'s round score: each timeline event's points times the escalations on its
    colour, times an ending's multiplier (or 0 under zero(target)), then the good things,
    then a bonus_most ending's bonus.  ``acc``: add the parts to the game's statistics."""
    mod = K.MOD_NONE
    emask = 0
    evalue = 0
    if ending >= 0:
        mod = card_nb(rules, ending, K.CC_EFFECT)
        emask = card_nb(rules, ending, K.CC_MASK)
        evalue = card_nb(rules, ending, K.CC_VALUE)
    total = 0
    base = K.S_TL + p * K.SEAT_W
    for i in range(state[K.S_S_TL_N + p * K.SEAT_W]):
        c = state[base + i]
        bit = card_nb(rules, c, K.CC_MASK)
        v = card_nb(rules, c, K.CC_VALUE)
        esc = v * multiplier_nb(state, rules, bit)
        fin = esc
        if mod == K.MOD_MULTIPLY and (emask & bit):
            fin = esc * evalue
        elif mod == K.MOD_ZERO and (emask & bit):
            fin = 0
        total += fin
        if acc:
            col = 0
            while (1 << col) != bit:
                col += 1
            state[K.S_PTS_COLOUR + col] += v
            state[K.S_PTS_ESCALATION] += esc - v
            state[K.S_PTS_ENDING] += fin - esc
    good = 0
    for i in range(state[K.S_N_COMMON]):
        c = state[K.S_COMMON + i]
        if card_nb(rules, c, K.CC_KIND) == K.KIND_GOOD:
            good += card_nb(rules, c, K.CC_VALUE)
    total += good
    if acc:
        state[K.S_PTS_GOOD] += good
    if mod == K.MOD_BONUS_MOST:
        mine = colour_count_nb(state, rules, p, emask)
        most = 0
        for q in range(state[K.S_PLAYERS]):
            most = max(most, colour_count_nb(state, rules, q, emask))
        if mine > 0 and mine == most:
            total += evalue
            if acc:
                state[K.S_PTS_ENDING] += evalue
    return total


# =========================================================================== rounds
@njit_nb
def start_round_nb(state, rules, log):
    """Every card gathered and shuffled; ``deal`` cards each, one at a time from the
    dealer's left; the dealer's left to play."""
    n = state[K.S_PLAYERS]
    state[K.S_ROUND] += 1
    rnd = state[K.S_ROUND]
    key = np.uint64(state[K.S_KEY])
    state[K.S_STREAMS + K.STREAM_DEAL] = np.int64(mix64_nb(key ^ (np.uint64(rnd) * ROUND_SALT)))
    nc = rules[K.R_PARAMS + K.P_N_CARDS]
    for i in range(nc):
        state[K.S_PILE + i] = i
    shuffle_nb(state, K.S_PILE, nc, K.STREAM_DEAL)
    state[K.S_N_PILE] = nc
    state[K.S_N_DISCARD] = 0
    state[K.S_N_COMMON] = 0
    state[K.S_N_SHOWN] = 0
    for s in range(n):
        state[K.S_S_HAND_N + s * K.SEAT_W] = 0
        state[K.S_S_TL_N + s * K.SEAT_W] = 0
        state[K.S_S_PICK + s * K.SEAT_W] = -1
    dealer = state[K.S_DEALER]
    for _ in range(rules[K.R_PARAMS + K.P_DEAL]):
        for k in range(1, n + 1):
            s = (dealer + k) % n
            state[K.S_N_PILE] -= 1
            hand_add_nb(state, s, state[K.S_PILE + state[K.S_N_PILE]], 0)
    state[K.S_PASSES] = 0
    state[K.S_ROUND_TURNS] = 0
    state[K.S_EXTRA_TURN] = 0
    state[K.S_TURN] = (dealer + 1) % n
    state[K.S_LAST_DRAWER] = -1
    state[K.S_PHASE] = K.PH_TURN
    state[K.S_DECIDER] = state[K.S_TURN]
    log_nb(log, K.LG_ROUND, rnd, dealer, state[K.S_N_PILE], 0, 0, 0)
    hoard_check_nb(state, rules, log)


@njit_nb
def end_round_nb(state, rules, cause, ending, log):
    """Scores the round (``ending``: the card whose modifier applies to all; a hoard: each
    seat's pick), then ends the game or deals the next round."""
    n = state[K.S_PLAYERS]
    rnd = state[K.S_ROUND]
    top = -(1 << 40)
    for p in range(n):
        e = ending
        if cause == K.RC_HOARD:
            e = state[K.S_S_PICK + p * K.SEAT_W]
        sc = score_player_nb(state, rules, p, e, True)
        state[K.S_S_ROUND_SCORE + p * K.SEAT_W] = sc
        state[K.S_S_TOTAL + p * K.SEAT_W] += sc
        top = max(top, sc)
        log_nb(log, K.LG_SCORE, rnd, p, sc, state[K.S_S_TOTAL + p * K.SEAT_W], e, 0)
    for p in range(n):
        if state[K.S_S_ROUND_SCORE + p * K.SEAT_W] == top:
            state[K.S_S_ROUNDS_WON + p * K.SEAT_W] += 1
    state[K.S_ROUND_CAUSE] = cause
    if cause == K.RC_ENDING:
        state[K.S_ENDS_ENDING] += 1
        e = state[K.S_ENDER]
        state[K.S_S_ENDED + e * K.SEAT_W] += 1
        best = -(1 << 40)
        for p in range(n):
            if p != e:
                best = max(best, state[K.S_S_ROUND_SCORE + p * K.SEAT_W])
        state[K.S_ENDER_GAIN] += state[K.S_S_ROUND_SCORE + e * K.SEAT_W] - best
        if state[K.S_S_ROUND_SCORE + e * K.SEAT_W] == top:
            state[K.S_ENDER_TOP] += 1
    elif cause == K.RC_HOARD:
        state[K.S_ENDS_HOARD] += 1
    elif cause == K.RC_EXHAUSTED:
        state[K.S_ENDS_EXHAUSTED] += 1
    else:
        state[K.S_ENDS_CAP] += 1
    log_nb(log, K.LG_ROUND_END, rnd, state[K.S_ENDER], cause, ending, top, 0)
    reached = False
    for p in range(n):
        if state[K.S_S_TOTAL + p * K.SEAT_W] >= rules[K.R_PARAMS + K.P_TARGET]:
            reached = True
    if reached or rnd >= rules[K.R_PARAMS + K.P_ROUND_CAP]:
        state[K.S_END_CAUSE] = K.END_TARGET if reached else K.END_ROUND_CAP
        state[K.S_OVER] = 1
        state[K.S_PHASE] = K.PH_OVER
        state[K.S_DECIDER] = -1
        log_nb(log, K.LG_GAME_END, rnd, -1, state[K.S_END_CAUSE], 0, 0, 0)
        return
    state[K.S_DEALER] = (state[K.S_DEALER] + 1) % n
    start_round_nb(state, rules, log)


@njit_nb
def hoard_check_nb(state, rules, log):
    """A hand holding ``hoard_size`` endings ends the round at once: the hoarders' endings
    are shown, each may be picked by ceil(players / hoard_share) players; a lone hoarder
    picks first, then the others clockwise from his left; several hoarders: everyone picks
    clockwise from the dealer's left.  True when a hoard began."""
    n = state[K.S_PLAYERS]
    size = rules[K.R_PARAMS + K.P_HOARD_SIZE]
    share = (n + rules[K.R_PARAMS + K.P_HOARD_SHARE] - 1) // rules[K.R_PARAMS + K.P_HOARD_SHARE]
    hoarders = 0
    first = -1
    dealer = state[K.S_DEALER]
    for k in range(1, n + 1):
        s = (dealer + k) % n
        if endings_in_hand_nb(state, rules, s) >= size:
            hoarders += 1
            if first < 0:
                first = s
    if hoarders == 0:
        return False
    ns = 0
    for k in range(1, n + 1):
        s = (dealer + k) % n
        if endings_in_hand_nb(state, rules, s) >= size:
            state[K.S_S_HOARDED + s * K.SEAT_W] += 1
            i = 0
            while i < state[K.S_S_HAND_N + s * K.SEAT_W]:
                c = state[K.S_HAND + s * K.SEAT_W + i]
                if card_nb(rules, c, K.CC_KIND) == K.KIND_ENDING:
                    hand_remove_nb(state, s, i)
                    state[K.S_SHOWN + ns] = c
                    state[K.S_SHOWN_LEFT + ns] = share
                    ns += 1
                else:
                    i += 1
    state[K.S_N_SHOWN] = ns
    state[K.S_HOARDS] += 1
    state[K.S_HOARDERS] = hoarders
    state[K.S_PICK_FIRST] = first if hoarders == 1 else (dealer + 1) % n
    state[K.S_PICK_K] = 0
    state[K.S_ENDER] = first
    state[K.S_PHASE] = K.PH_PICK
    state[K.S_DECIDER] = state[K.S_PICK_FIRST]
    log_nb(log, K.LG_HOARD, state[K.S_ROUND], first, hoarders, ns, share, 0)
    return True


@njit_nb
def redeal_nb(state, rules, log):
    """The discards shuffled and dealt: floor(D / n) each from the dealer's left (variant
    ``deal_all``: every card round-robin), ignoring the hand limit; the rest is the pile."""
    n = state[K.S_PLAYERS]
    d = state[K.S_N_DISCARD]
    state[K.S_REDEAL_SIZE] = d
    for i in range(d):
        state[K.S_PILE + i] = state[K.S_DISCARD + i]
    state[K.S_N_DISCARD] = 0
    shuffle_nb(state, K.S_PILE, d, K.STREAM_DEAL)
    state[K.S_N_PILE] = d
    dealer = state[K.S_DEALER]
    if rules[K.R_PARAMS + K.P_DEAL_ALL]:
        k = 1
        while state[K.S_N_PILE] > 0:
            state[K.S_N_PILE] -= 1
            hand_add_nb(state, (dealer + k) % n, state[K.S_PILE + state[K.S_N_PILE]], 0)
            k += 1
    else:
        for _ in range(d // n):
            for k in range(1, n + 1):
                state[K.S_N_PILE] -= 1
                hand_add_nb(state, (dealer + k) % n, state[K.S_PILE + state[K.S_N_PILE]], 0)
    state[K.S_REDEALS] += 1
    log_nb(log, K.LG_REDEAL, state[K.S_ROUND], state[K.S_LAST_DRAWER], d, state[K.S_N_PILE], 0, 0)


# =========================================================================== turns
@njit_nb
def next_turn_nb(state, rules, seat, log):
    """The end of ``seat``'s turn: a redeal when the pile is empty and there are discards
    (play then goes on left of the player who drew the pile's last card if it ran out in
    this turn, else in turn order), the turn cap, then the next turn."""
    n = state[K.S_PLAYERS]
    state[K.S_ROUND_TURNS] += 1
    state[K.S_TURNS] += 1
    nxt = (seat + 1) % n
    if state[K.S_EXTRA_TURN]:
        state[K.S_EXTRA_TURN] = 0
        nxt = seat
    # S_LAST_DRAWER holds this turn's last drawer (-1: nobody drew in it).  A pile that ran
    # out with no discards is redealt at the end of a later turn that makes some: play
    # then goes on in turn order, not back at the old drawer's left (players would play
    # twice or be skipped)
    if state[K.S_N_PILE] == 0 and state[K.S_N_DISCARD] > 0:
        redeal_nb(state, rules, log)
        if state[K.S_LAST_DRAWER] >= 0:
            nxt = (state[K.S_LAST_DRAWER] + 1) % n
        state[K.S_LAST_DRAWER] = -1
        if hoard_check_nb(state, rules, log):
            return
    state[K.S_LAST_DRAWER] = -1
    if state[K.S_ROUND_TURNS] >= rules[K.R_PARAMS + K.P_TURN_CAP]:
        state[K.S_ENDER] = -1
        end_round_nb(state, rules, K.RC_CAP, -1, log)
        return
    state[K.S_TURN] = nxt
    state[K.S_PHASE] = K.PH_TURN
    state[K.S_DECIDER] = nxt


@njit_nb
def snipe_targets_nb(state, user):
    """Timeline cards the user may remove (other seats')."""
    k = 0
    for t in range(state[K.S_PLAYERS]):
        if t != user:
            k += state[K.S_S_TL_N + t * K.SEAT_W]
    return k


@njit_nb
def resolve_instant_nb(state, rules, c, user, drawn, log):
    """An instantaneous card's effect (the card already on the discard pile).  A snipe with
    targets waits for the user's choice (phase ``snipe``); True when the effect is done."""
    n = state[K.S_PLAYERS]
    fx = card_nb(rules, c, K.CC_EFFECT)
    arg = card_nb(rules, c, K.CC_ARG)
    state[K.S_PLAYS + len(K.CARD_KINDS) + fx] += 1
    log_nb(log, K.LG_INSTANT, state[K.S_ROUND], user, c, drawn, 0, 0)
    if fx == K.FX_DISCARD_LAST:
        for s in range(n):
            if (arg == K.SC_ALL or (arg == K.SC_OTHERS and s != user) or (arg == K.SC_SELF and s == user)) \
                    and state[K.S_S_TL_N + s * K.SEAT_W] > 0:
                discard_nb(state, tl_remove_nb(state, s, state[K.S_S_TL_N + s * K.SEAT_W] - 1))
    elif fx == K.FX_REMOVE_ONE:
        if snipe_targets_nb(state, user) > 0:
            state[K.S_PENDING] = c
            state[K.S_PENDING_DRAWN] = drawn
            state[K.S_PHASE] = K.PH_SNIPE
            state[K.S_DECIDER] = user
            return False
    elif fx == K.FX_PASS_LAST:
        # simultaneous: everyone's last card is taken first, then each lands on the neighbour's end
        step = 1 if arg == K.DIR_LEFT else n - 1
        for s in range(n):
            state[K.S_S_PICK + s * K.SEAT_W] = -1  # scratch: the card each seat passes
            if state[K.S_S_TL_N + s * K.SEAT_W] > 0:
                state[K.S_S_PICK + s * K.SEAT_W] = tl_remove_nb(state, s, state[K.S_S_TL_N + s * K.SEAT_W] - 1)
        for s in range(n):
            if state[K.S_S_PICK + s * K.SEAT_W] >= 0:
                tl_add_nb(state, (s + step) % n, state[K.S_S_PICK + s * K.SEAT_W])
                state[K.S_S_PICK + s * K.SEAT_W] = -1
    elif fx == K.FX_CLEAR:
        k = 0
        for i in range(state[K.S_N_COMMON]):
            cc = state[K.S_COMMON + i]
            kind = card_nb(rules, cc, K.CC_KIND)
            if arg == K.CL_ALL or (arg == K.CL_GOOD and kind == K.KIND_GOOD) or \
                    (arg == K.CL_ESCALATION and kind == K.KIND_ESCALATION):
                discard_nb(state, cc)
            else:
                state[K.S_COMMON + k] = cc
                k += 1
        state[K.S_N_COMMON] = k
    else:  # draw_each(n): a scavenge frame; scavenge_nb makes its draws
        f = K.S_SCAV + K.SCAV_W * state[K.S_SCAV_N]
        state[f] = user
        state[f + 1] = 0
        state[f + 2] = arg * n
        state[K.S_SCAV_N] += 1
    return True


@njit_nb
def scavenge_nb(state, rules, log):
    """Runs the scavenges in progress (innermost first): each player clockwise from the
    user draws one card at a time while under the hand limit.  A drawn card is a drawn card
    (the rulebook): an instantaneous goes face up on the discards and resolves at once, its
    drawer its "you" (a scavenge drawn so runs before the outer one goes on); an ending is
    marked, and an ending that makes a hoard ends the round at once (docs: "a hand holding
    5 endings ends the round at once"; the rulebook: "the round immediately ends"): the
    scavenges' later draws are not made.  False: a drawn snipe waits for its drawer's
    choice (the frames stay), or a hoard began (the frames are dropped; phase ``pick``)."""
    n = state[K.S_PLAYERS]
    limit = rules[K.R_PARAMS + K.P_HAND_LIMIT]
    while state[K.S_SCAV_N] > 0:
        f = K.S_SCAV + K.SCAV_W * (state[K.S_SCAV_N] - 1)
        k = state[f + 1]
        if k >= state[f + 2]:
            state[K.S_SCAV_N] -= 1
            continue
        state[f + 1] = k + 1
        s = (state[f] + k % n) % n
        if state[K.S_N_PILE] > 0 and state[K.S_S_HAND_N + s * K.SEAT_W] < limit:
            state[K.S_N_PILE] -= 1
            d = state[K.S_PILE + state[K.S_N_PILE]]
            state[K.S_LAST_DRAWER] = s
            log_nb(log, K.LG_DRAW, state[K.S_ROUND], s, d, 1, 0, 0)
            kind = card_nb(rules, d, K.CC_KIND)
            if kind == K.KIND_INSTANT:
                discard_nb(state, d)
                if not resolve_instant_nb(state, rules, d, s, 1, log):
                    return False
            else:
                hand_add_nb(state, s, d, 1 if kind == K.KIND_ENDING else 0)
                if kind == K.KIND_ENDING and hoard_check_nb(state, rules, log):
                    state[K.S_SCAV_N] = 0
                    return False
    return True


@njit_nb
def after_instant_nb(state, rules, user, drawn, log):
    """The turn of an instantaneous ends (a hoard a scavenge's draw made has ended the
    round already, in ``scavenge_nb``); variant ``draw_again_after_instant``: the drawer
    acts again."""
    if drawn and rules[K.R_PARAMS + K.P_DRAW_AGAIN]:
        state[K.S_EXTRA_TURN] = 1
    next_turn_nb(state, rules, user, log)


@njit_nb
def ask_challenge_nb(state, rules, log):
    """Asks the next seat clockwise from the ender's left that holds an ending; nobody
    left: the round ends with the ending."""
    n = state[K.S_PLAYERS]
    e = state[K.S_ENDER]
    while state[K.S_ASK] < n:
        s = (e + state[K.S_ASK]) % n
        if endings_in_hand_nb(state, rules, s) > 0:
            state[K.S_PHASE] = K.PH_CHALLENGE
            state[K.S_DECIDER] = s
            return
        state[K.S_ASK] += 1
    state[K.S_ROUND_ENDERS] += 1
    end_round_nb(state, rules, K.RC_ENDING, state[K.S_END_CARD], log)


@njit_nb
def first_marked_nb(state, s):
    for i in range(state[K.S_S_HAND_N + s * K.SEAT_W]):
        if state[K.S_MARKED + s * K.SEAT_W + i]:
            return i
    return -1


@njit_nb
def legal_actions_nb(state, rules, out):
    """The legal action codes of the seat to decide into ``out[:n]``; n."""
    ph = state[K.S_PHASE]
    s = state[K.S_DECIDER]
    if ph == K.PH_TURN:
        m = first_marked_nb(state, s)
        if m >= 0:  # a drawn ending: playing it is the only legal action
            out[0] = K.A_PLAY + m
            return 1
        k = 0
        hn = state[K.S_S_HAND_N + s * K.SEAT_W]
        if hn < rules[K.R_PARAMS + K.P_HAND_LIMIT] and state[K.S_N_PILE] > 0:
            out[k] = K.A_DRAW
            k += 1
        base = K.S_HAND + s * K.SEAT_W
        for i in range(hn):
            # one action per distinct card (copies of a card are the same move)
            dup = False
            e = card_nb(rules, state[base + i], K.CC_ENTRY)
            for j in range(i):
                if card_nb(rules, state[base + j], K.CC_ENTRY) == e:
                    dup = True
                    break
            if not dup:
                out[k] = K.A_PLAY + i
                k += 1
        if k == 0:
            out[0] = K.A_PASS
            k = 1
        return k
    if ph == K.PH_SNIPE:
        k = 0
        for t in range(state[K.S_PLAYERS]):
            if t != s:
                for i in range(state[K.S_S_TL_N + t * K.SEAT_W]):
                    out[k] = K.A_SNIPE + t * K.MAX_DECK + i
                    k += 1
        return k
    if ph == K.PH_CHALLENGE:
        out[0] = K.A_CHALLENGE
        out[1] = K.A_DECLINE
        return 2
    if ph == K.PH_PICK:
        k = 0
        for i in range(state[K.S_N_SHOWN]):
            if state[K.S_SHOWN_LEFT + i] > 0:
                # one action per distinct ending shown
                dup = False
                e = card_nb(rules, state[K.S_SHOWN + i], K.CC_ENTRY)
                for j in range(i):
                    if state[K.S_SHOWN_LEFT + j] > 0 and card_nb(rules, state[K.S_SHOWN + j], K.CC_ENTRY) == e:
                        dup = True
                        break
                if not dup:
                    out[k] = K.A_PICK + i
                    k += 1
        return k
    return 0


@njit_nb
def apply_action_nb(state, rules, action, log):
    """One action of the seat to decide, then every forced step to the next decision.
    False: not legal now (``legal_scan_nb``), nothing changed."""
    if state[K.S_OVER] or not legal_scan_nb(state, rules, action):
        return False
    state[K.S_DECISIONS] += 1
    n = state[K.S_PLAYERS]
    ph = state[K.S_PHASE]
    s = state[K.S_DECIDER]
    rnd = state[K.S_ROUND]
    if ph == K.PH_TURN:
        if action == K.A_PASS:
            state[K.S_PASSES] += 1
            log_nb(log, K.LG_PASS, rnd, s, 0, 0, 0, 0)
            if state[K.S_PASSES] >= n:
                state[K.S_ENDER] = -1
                end_round_nb(state, rules, K.RC_EXHAUSTED, -1, log)
                return True
            next_turn_nb(state, rules, s, log)
            return True
        state[K.S_PASSES] = 0
        if action == K.A_DRAW:
            state[K.S_N_PILE] -= 1
            c = state[K.S_PILE + state[K.S_N_PILE]]
            state[K.S_LAST_DRAWER] = s
            kind = card_nb(rules, c, K.CC_KIND)
            log_nb(log, K.LG_DRAW, rnd, s, c, 0, 0, 0)
            if kind == K.KIND_INSTANT:  # face up on the discards, resolves now
                discard_nb(state, c)
                state[K.S_TURN_DRAWN] = 1
                if resolve_instant_nb(state, rules, c, s, 1, log) and scavenge_nb(state, rules, log):
                    after_instant_nb(state, rules, s, 1, log)
                return True
            hand_add_nb(state, s, c, 1 if kind == K.KIND_ENDING else 0)
            if hoard_check_nb(state, rules, log):
                return True
            next_turn_nb(state, rules, s, log)
            return True
        slot = action - K.A_PLAY
        c = hand_remove_nb(state, s, slot)
        kind = card_nb(rules, c, K.CC_KIND)
        state[K.S_PLAYS + kind] += 1
        log_nb(log, K.LG_PLAY, rnd, s, c, 0, 0, 0)
        if kind == K.KIND_EVENT:
            tl_add_nb(state, s, c)
        elif kind == K.KIND_GOOD or kind == K.KIND_ESCALATION:
            state[K.S_COMMON + state[K.S_N_COMMON]] = c
            state[K.S_N_COMMON] += 1
        elif kind == K.KIND_INSTANT:
            discard_nb(state, c)
            state[K.S_TURN_DRAWN] = 0
            if resolve_instant_nb(state, rules, c, s, 0, log) and scavenge_nb(state, rules, log):
                after_instant_nb(state, rules, s, 0, log)
            return True
        else:  # an ending: on the discards; the others may challenge, clockwise from the left
            discard_nb(state, c)
            state[K.S_ENDER] = s
            state[K.S_END_CARD] = c
            state[K.S_ASK] = 1
            ask_challenge_nb(state, rules, log)
            return True
        next_turn_nb(state, rules, s, log)
        return True
    if ph == K.PH_SNIPE:
        code = action - K.A_SNIPE
        t = code // K.MAX_DECK
        c = tl_remove_nb(state, t, code % K.MAX_DECK)
        discard_nb(state, c)
        log_nb(log, K.LG_SNIPE, rnd, s, t, c, 0, 0)
        state[K.S_PENDING] = -1
        # a snipe drawn by a scavenge: the scavenge goes on; then the turn's player's
        # instantaneous is over
        if scavenge_nb(state, rules, log):
            after_instant_nb(state, rules, state[K.S_TURN], state[K.S_TURN_DRAWN], log)
        return True
    if ph == K.PH_CHALLENGE:
        if action == K.A_CHALLENGE:
            # the challenger plays a drawn (marked) ending first, else his first ending
            slot = first_marked_nb(state, s)
            if slot < 0:
                for i in range(state[K.S_S_HAND_N + s * K.SEAT_W]):
                    if card_nb(rules, state[K.S_HAND + s * K.SEAT_W + i], K.CC_KIND) == K.KIND_ENDING:
                        slot = i
                        break
            c = hand_remove_nb(state, s, slot)
            discard_nb(state, c)
            state[K.S_CHALLENGES] += 1
            state[K.S_S_CHALLENGED + s * K.SEAT_W] += 1
            log_nb(log, K.LG_CHALLENGE, rnd, s, state[K.S_ENDER], state[K.S_END_CARD], c, 0)
            next_turn_nb(state, rules, state[K.S_ENDER], log)
            return True
        state[K.S_ASK] += 1
        ask_challenge_nb(state, rules, log)
        return True
    # PH_PICK
    i = action - K.A_PICK
    state[K.S_SHOWN_LEFT + i] -= 1
    state[K.S_S_PICK + s * K.SEAT_W] = state[K.S_SHOWN + i]
    log_nb(log, K.LG_PICK, rnd, s, state[K.S_SHOWN + i], 0, 0, 0)
    state[K.S_PICK_K] += 1
    if state[K.S_PICK_K] >= n:
        end_round_nb(state, rules, K.RC_HOARD, -1, log)
        return True
    state[K.S_DECIDER] = (state[K.S_PICK_FIRST] + state[K.S_PICK_K]) % n
    return True


@njit_nb
def legal_scan_nb(state, rules, action):
    """Whether ``action`` is legal now, without a buffer (the same conditions as
    ``legal_actions_nb``, duplicates of a card included)."""
    ph = state[K.S_PHASE]
    s = state[K.S_DECIDER]
    if ph == K.PH_TURN:
        m = first_marked_nb(state, s)
        if m >= 0:
            return action == K.A_PLAY + m
        hn = state[K.S_S_HAND_N + s * K.SEAT_W]
        can_draw = hn < rules[K.R_PARAMS + K.P_HAND_LIMIT] and state[K.S_N_PILE] > 0
        if action == K.A_DRAW:
            return can_draw
        if action == K.A_PASS:
            return hn == 0 and not can_draw
        return K.A_PLAY <= action < K.A_PLAY + hn
    if ph == K.PH_SNIPE:
        code = action - K.A_SNIPE
        if code < 0:
            return False
        t = code // K.MAX_DECK
        return t != s and t < state[K.S_PLAYERS] and code % K.MAX_DECK < state[K.S_S_TL_N + t * K.SEAT_W]
    if ph == K.PH_CHALLENGE:
        return action == K.A_CHALLENGE or action == K.A_DECLINE
    if ph == K.PH_PICK:
        i = action - K.A_PICK
        return 0 <= i < state[K.S_N_SHOWN] and state[K.S_SHOWN_LEFT + i] > 0
    return False


@njit_nb
def init_state_nb(state, rules, players, key, log):
    """A new game of ``players`` seats keyed by ``key`` (uint64): seat 0 deals round 1
    (``state`` holds at least ``codes.state_size(players)`` values)."""
    for i in range(K.S_SEATS + players * K.SEAT_W):
        state[i] = 0
    state[K.S_KEY] = np.int64(key)
    key_streams_at_nb(state, K.S_STREAMS, K.N_STREAMS, key)
    state[K.S_PLAYERS] = players
    state[K.S_DEALER] = 0
    state[K.S_PENDING] = -1
    state[K.S_ENDER] = -1
    state[K.S_END_CARD] = -1
    start_round_nb(state, rules, log)


@njit_nb
def record_nb(state, rules, game, rec):
    """The game as a record row (winners: the highest total, ties share)."""
    for i in range(rec.shape[0]):
        rec[i] = 0
    n = state[K.S_PLAYERS]
    rec[K.REC_GAME] = game
    rec[K.REC_PLAYERS] = n
    rec[K.REC_ROUNDS] = state[K.S_ROUND]
    rec[K.REC_TURNS] = state[K.S_TURNS]
    rec[K.REC_DECISIONS] = state[K.S_DECISIONS]
    rec[K.REC_END_CAUSE] = state[K.S_END_CAUSE]
    top = state[K.S_S_TOTAL]
    for p in range(n):
        top = max(top, state[K.S_S_TOTAL + p * K.SEAT_W])
    w = 0
    seats = (rec.shape[0] - K.REC_SEATS) // len(K.REC_SEAT_PARTS)  # the record's seat columns
    for p in range(n):
        if state[K.S_S_TOTAL + p * K.SEAT_W] == top:
            rec[K.REC_SEATS + K.RS_WIN * seats + p] = 1
            w += 1
    rec[K.REC_WINNERS] = w
    rec[K.REC_TOP_TOTAL] = top
    rec[K.REC_ENDS_ENDING] = state[K.S_ENDS_ENDING]
    rec[K.REC_ENDS_HOARD] = state[K.S_ENDS_HOARD]
    rec[K.REC_ENDS_EXHAUSTED] = state[K.S_ENDS_EXHAUSTED]
    rec[K.REC_ENDS_CAP] = state[K.S_ENDS_CAP]
    rec[K.REC_CHALLENGES] = state[K.S_CHALLENGES]
    rec[K.REC_REDEALS] = state[K.S_REDEALS]
    rec[K.REC_ENDER_TOP] = state[K.S_ENDER_TOP]
    rec[K.REC_ENDER_GAIN] = state[K.S_ENDER_GAIN]
    rec[K.REC_PTS_ESCALATION] = state[K.S_PTS_ESCALATION]
    rec[K.REC_PTS_GOOD] = state[K.S_PTS_GOOD]
    rec[K.REC_PTS_ENDING] = state[K.S_PTS_ENDING]
    for i in range(K.MAX_COLOURS):
        rec[K.REC_PTS_COLOUR + i] = state[K.S_PTS_COLOUR + i]
    for i in range(len(K.PLAY_NAMES)):
        rec[K.REC_PLAYS + i] = state[K.S_PLAYS + i]
    for p in range(n):
        b = K.REC_SEATS + p
        rec[b + K.RS_TOTAL * seats] = state[K.S_S_TOTAL + p * K.SEAT_W]
        rec[b + K.RS_ROUNDS_WON * seats] = state[K.S_S_ROUNDS_WON + p * K.SEAT_W]
        rec[b + K.RS_ENDED * seats] = state[K.S_S_ENDED + p * K.SEAT_W]
        rec[b + K.RS_CHALLENGED * seats] = state[K.S_S_CHALLENGED + p * K.SEAT_W]
        rec[b + K.RS_HOARDED * seats] = state[K.S_S_HOARDED + p * K.SEAT_W]
