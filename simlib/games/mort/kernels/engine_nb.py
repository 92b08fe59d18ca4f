"""Mort de la lumière du jour step model: a game is one int64 ``state`` (``codes.STATE``).

``init_state_nb(state, rules, key, log)`` then ``advance_nb(state, rules, log)``
    A new game (setup not yet played), advanced to its first decision.
``legal_actions_nb(state, rules, out) -> n``
    The legal actions (``codes.A_*``) of the seat to move (``state[S_DECIDER]``).
``apply_action_nb(state, rules, action, log) -> bool``
    Checks and applies one action, then runs every forced and chance step (draws, dice,
    turn changes) up to the next decision.  A decision with one legal action is taken
    automatically (ending a turn with nothing left to do, passing without a reflex card).
``step_nb(state, rules, action, log)``
    The same without the check (the drivers' players choose among the legal actions).
``record_nb(state, rules, game, rec)``
    The finished game as a record row (``codes.RECORD``).

The rules are those of docs/games/mort-de-la-lumiere-du-jour.md: an energy card pays for
one purpose (a move, a set of card plays, or acts of one kind) and its leftover points
are lost; seat 0 is the killer, seats 1..survivors the survivors.
Randomness comes from the state's own streams (``simlib.core.rng``'s splitmix64, kept
bit for bit in the state), one per purpose: tokens, decks, dice, the players' own.
"""
from __future__ import annotations

import numpy as np

from ....core.jit import njit_nb
from ....core.gamelog_nb import log_nb
from ....core.rng import key_streams_at_nb, randint_at_nb
from .. import codes as K

BIG = 1 << 30
# which side a purpose serves: 0 the killer, 1 the survivors, 2 both (rest: none here)
Q_SIDE = (2, 2, 1, 1, 1, 1, 1, 0, 0, 0, 3)


# =========================================================================== randomness
@njit_nb
def roll_nb(state, rules, black):
    """One roll of the white (``black`` False) or black die: 1 on a success."""
    if black:
        return rules[K.R_BLACK + randint_at_nb(state, K.S_STREAMS + K.STREAM_DICE, rules[K.R_PARAMS + K.P_BLACK_FACES])]
    return rules[K.R_WHITE + randint_at_nb(state, K.S_STREAMS + K.STREAM_DICE, rules[K.R_PARAMS + K.P_WHITE_FACES])]


# =========================================================================== small helpers


@njit_nb
def on_board_nb(state, rules):
    """Survivors still in play (neither killed nor escaped)."""
    c = 0
    for s in range(1, rules[K.R_PARAMS + K.P_SURVIVORS] + 1):
        if state[K.S_S_STATUS + s] == K.ST_IN:
            c += 1
    return c


@njit_nb
def hand_size_nb(state, s):
    c = 0
    for v in range(K.HAND_W):
        c += state[K.S_HAND + s * K.HAND_W + v]
    return c


@njit_nb
def cards_held_nb(state, s):
    c = 0
    for k in range(K.MAX_K):
        c += state[K.S_CARDS + s * K.MAX_K + k]
    return c


@njit_nb
def card_of_nb(state, rules, s, effect):
    """The first kind of survivor card with ``effect`` that seat ``s`` holds (-1: none)."""
    for k in range(rules[K.R_PARAMS + K.P_N_SURVIVOR_KINDS]):
        if state[K.S_CARDS + s * K.MAX_K + k] > 0 and rules[K.R_SK_EFFECT + k] == effect:
            return k
    return -1


@njit_nb
def kcard_of_nb(state, rules, effect):
    for k in range(rules[K.R_PARAMS + K.P_N_KILLER_KINDS]):
        if state[K.S_CARDS + k] > 0 and rules[K.R_KK_EFFECT + k] == effect:
            return k
    return -1


@njit_nb
def repair_card_nb(state, rules, s):
    """The survivor card that lights a lamp: a repair card, or (``any_card_repairs``)
    any card, the repair kind first."""
    k = card_of_nb(state, rules, s, K.FX_REPAIR)
    if k >= 0 or rules[K.R_PARAMS + K.P_ANY_CARD_REPAIRS] == 0:
        return k
    for j in range(rules[K.R_PARAMS + K.P_N_SURVIVOR_KINDS]):
        if state[K.S_CARDS + s * K.MAX_K + j] > 0:
            return j
    return -1


@njit_nb
def guarded_nb(state, rules, t):
    """A dropped pallet within ``board.reach`` guards survivor ``t`` (unless the killer
    walked round it this turn)."""
    x = state[K.S_S_X + t]
    y = state[K.S_S_Y + t]
    for p in range(state[K.S_N_PALLETS]):
        if state[K.S_PALLET_STATE + p] == K.PAL_DROPPED and state[K.S_PALLET_DETOUR + p] == 0 and \
                (abs(x - state[K.S_PALLET_X + p]) + abs(y - state[K.S_PALLET_Y + p])) <= rules[K.R_PARAMS + K.P_REACH]:
            return True
    return False


@njit_nb
def blocked_nb(state, g):
    """Generator ``g`` blocked until the killer's next turn (``S_BLOCKED`` holds one bit
    per generator: each blocage card blocks the one it names)."""
    return (state[K.S_BLOCKED] >> g) & 1 == 1


@njit_nb
def dropped_at_nb(state, x, y):
    for p in range(state[K.S_N_PALLETS]):
        if state[K.S_PALLET_STATE + p] == K.PAL_DROPPED and state[K.S_PALLET_X + p] == x and \
                state[K.S_PALLET_Y + p] == y:
            return True
    return False


@njit_nb
def token_free_nb(state, t):
    """No generator, chest, shortcut or hatch on token ``t`` (pawns do not count)."""
    for g in range(state[K.S_N_GENS]):
        if state[K.S_GEN_TOKEN + g] == t:
            return False
    for c in range(state[K.S_N_CHESTS]):
        if state[K.S_CHEST_TOKEN + c] == t:
            return False
    for c in range(state[K.S_N_SHORTCUTS]):
        if state[K.S_SHORTCUT_TOKEN + c] == t:
            return False
    if state[K.S_HATCH] != K.HATCH_HIDDEN and state[K.S_HATCH_TOKEN] == t:
        return False
    return True


@njit_nb
def draw_free_token_nb(state, rules):
    """A location token drawn from the refilled bag, an occupied square redrawn: uniform
    over the free tokens (-1: none free)."""
    nt = rules[K.R_PARAMS + K.P_N_TOKENS]
    free = 0
    for t in range(nt):
        if token_free_nb(state, t):
            free += 1
    if free == 0:
        return -1
    r = randint_at_nb(state, K.S_STREAMS + K.STREAM_TOKENS, free)
    for t in range(nt):
        if token_free_nb(state, t):
            if r == 0:
                return t
            r -= 1
    return -1


# =========================================================================== decks
@njit_nb
def draw_energy_nb(state, seat):
    """One energy card into ``seat``'s hand (the discards reshuffled when the deck is
    empty); its value, -1 when both are empty."""
    tot = 0
    for v in range(K.HAND_W):
        tot += state[K.S_ENERGY_DECK + v]
    if tot == 0:
        for v in range(K.HAND_W):
            state[K.S_ENERGY_DECK + v] += state[K.S_ENERGY_DISCARD + v]
            tot += state[K.S_ENERGY_DISCARD + v]
            state[K.S_ENERGY_DISCARD + v] = 0
        if tot == 0:
            return -1
    r = randint_at_nb(state, K.S_STREAMS + K.STREAM_DECKS, tot)
    for v in range(K.HAND_W):
        c = state[K.S_ENERGY_DECK + v]
        if r < c:
            state[K.S_ENERGY_DECK + v] -= 1
            state[K.S_HAND + seat * K.HAND_W + v] += 1
            return v
        r -= c
    return -1


@njit_nb
def log_draw_nb(state, log, seat, deck, card):
    """A deck draw into the trace (deck 0 energy, 1 killer, 2 survivor; ``card`` the value
    or kind, -1: nothing drawn): the step model reads its chance events from these rows."""
    if card >= 0:
        log_nb(log, K.LG_DRAW, state[K.S_ROUND], seat, deck, card, 0, 0)


@njit_nb
def draw_card_nb(state, seat, deck, discard):
    """One card of the killer deck (``deck`` = S_KDECK) or survivor deck (S_SDECK) into
    ``seat``'s cards; -1 when deck and discards are empty, else the kind drawn."""
    tot = 0
    for k in range(K.MAX_K):
        tot += state[deck + k]
    if tot == 0:
        for k in range(K.MAX_K):
            state[deck + k] += state[discard + k]
            tot += state[discard + k]
            state[discard + k] = 0
        if tot == 0:
            return -1
    r = randint_at_nb(state, K.S_STREAMS + K.STREAM_DECKS, tot)
    for k in range(K.MAX_K):
        c = state[deck + k]
        if r < c:
            state[deck + k] -= 1
            state[K.S_CARDS + seat * K.MAX_K + k] += 1
            return k
        r -= c
    return -1


@njit_nb
def discard_card_nb(state, seat, k):
    state[K.S_CARDS + seat * K.MAX_K + k] -= 1
    if seat == 0:
        state[K.S_KDISCARD + k] += 1
    else:
        state[K.S_SDISCARD + k] += 1
    state[K.S_CARDS_PLAYED] += 1


# =========================================================================== setup
@njit_nb
def init_state_nb(state, rules, key, log):
    """A new game keyed by ``key`` (``simlib.core.rng.game_key_nb(seed, game)``): pieces
    in the players' supplies, the decks full, the first setup token drawn."""
    for i in range(K.S_SIZE):
        state[i] = 0
    state[K.S_KEY] = np.int64(key)
    key_streams_at_nb(state, K.S_STREAMS, K.N_STREAMS, key)
    ns = rules[K.R_PARAMS + K.P_SURVIVORS]
    for s in range(K.MAX_SEATS):
        state[K.S_S_STATUS + s] = K.ST_KILLED if s > ns else K.ST_IN
    state[K.S_S_GENS_LEFT] = rules[K.R_PARAMS + K.P_KILLER_GENERATORS]
    state[K.S_S_SHORTCUTS_LEFT] = rules[K.R_PARAMS + K.P_KILLER_SHORTCUTS]
    for s in range(1, ns + 1):
        state[K.S_S_GENS_LEFT + s] = rules[K.R_PARAMS + K.P_SURVIVOR_GENERATORS]
        state[K.S_S_CHESTS_LEFT + s] = rules[K.R_PARAMS + K.P_SURVIVOR_CHESTS]
        state[K.S_S_PAWN_LEFT + s] = 1
    for v in range(K.HAND_W):
        state[K.S_ENERGY_DECK + v] = rules[K.R_ENERGY + v]
    for k in range(K.MAX_K):
        state[K.S_KDECK + k] = rules[K.R_KK_COUNT + k]
        state[K.S_SDECK + k] = rules[K.R_SK_COUNT + k]
    state[K.S_BLOCKED] = 0
    state[K.S_HATCH_TOKEN] = -1
    state[K.S_TARGET] = -1
    state[K.S_S_X] = rules[K.R_PARAMS + K.P_LAIR_X]
    state[K.S_S_Y] = rules[K.R_PARAMS + K.P_LAIR_Y]
    state[K.S_SETUP_ROUND] = 0
    state[K.S_CURRENT] = 0
    _setup_draw_nb(state, rules, log)


@njit_nb
def _setup_draw_nb(state, rules, log):
    """The placer ``S_CURRENT`` draws a location token (without replacement)."""
    nt = rules[K.R_PARAMS + K.P_N_TOKENS]
    left = 0
    for t in range(nt):
        if state[K.S_TOKEN_USED + t] == 0:
            left += 1
    r = randint_at_nb(state, K.S_STREAMS + K.STREAM_TOKENS, left)
    for t in range(nt):
        if state[K.S_TOKEN_USED + t] == 0:
            if r == 0:
                state[K.S_TOKEN_USED + t] = 1
                state[K.S_TOKEN] = t
                break
            r -= 1
    state[K.S_PHASE] = K.PH_PLACE
    state[K.S_DECIDER] = state[K.S_CURRENT]


@njit_nb
def _after_place_nb(state, rules, log):
    """Next placer: 3 rounds of the killer then each survivor, then the killer's last
    piece; then the gates."""
    ns = rules[K.R_PARAMS + K.P_SURVIVORS]
    rounds = rules[K.R_PARAMS + K.P_SETUP_ROUNDS]
    c = state[K.S_CURRENT] + 1
    if state[K.S_SETUP_ROUND] >= rounds or c > ns:
        state[K.S_SETUP_ROUND] += 1
        c = 0
        if state[K.S_SETUP_ROUND] > rounds:
            state[K.S_CURRENT] = 0
            state[K.S_PHASE] = K.PH_GATES
            state[K.S_DECIDER] = 0
            return
    state[K.S_CURRENT] = c
    _setup_draw_nb(state, rules, log)


@njit_nb
def _deal_nb(state, rules, log):
    """Setup's end: pallets placed, the killer in his lair, the hands dealt."""
    ns = rules[K.R_PARAMS + K.P_SURVIVORS]
    for _ in range(rules[K.R_PARAMS + K.P_KILLER_ENERGY_HAND]):
        log_draw_nb(state, log, 0, 0, draw_energy_nb(state, 0))
    for _ in range(rules[K.R_PARAMS + K.P_KILLER_CARD_HAND]):
        log_draw_nb(state, log, 0, 1, draw_card_nb(state, 0, K.S_KDECK, K.S_KDISCARD))
    for s in range(1, ns + 1):
        for _ in range(rules[K.R_PARAMS + K.P_SURVIVOR_ENERGY_HAND]):
            log_draw_nb(state, log, s, 0, draw_energy_nb(state, s))
        for _ in range(rules[K.R_PARAMS + K.P_SURVIVOR_START_CARDS]):
            log_draw_nb(state, log, s, 2, draw_card_nb(state, s, K.S_SDECK, K.S_SDISCARD))
    state[K.S_CURRENT] = 0
    state[K.S_PHASE] = K.PH_START_TURN
    _check_end_nb(state, rules, log)  # a table of one survivor: the hatch is open from the start


# =========================================================================== turns
@njit_nb
def _end_game_nb(state, rules, cause, log):
    state[K.S_OVER] = 1
    state[K.S_PHASE] = K.PH_OVER
    state[K.S_END_CAUSE] = cause
    log_nb(log, K.LG_END, state[K.S_ROUND], 0, cause, state[K.S_KILLS], state[K.S_ESCAPES], 0)


@njit_nb
def _check_end_nb(state, rules, log):
    """Every survivor killed or escaped ends the game; one left opens the hatch."""
    left = on_board_nb(state, rules)
    if left == 0:
        ns = rules[K.R_PARAMS + K.P_SURVIVORS]
        if state[K.S_KILLS] == ns:
            _end_game_nb(state, rules, K.END_KILLED, log)
        elif state[K.S_ESCAPES] == ns:
            _end_game_nb(state, rules, K.END_ESCAPED, log)
        else:
            _end_game_nb(state, rules, K.END_MIXED, log)
        return True
    if left == 1 and state[K.S_HATCH] != K.HATCH_OPEN:
        if state[K.S_HATCH] == K.HATCH_HIDDEN:
            state[K.S_HATCH_TOKEN] = draw_free_token_nb(state, rules)
        state[K.S_HATCH] = K.HATCH_OPEN
        log_nb(log, K.LG_HATCH, state[K.S_ROUND], 0, state[K.S_HATCH_TOKEN], K.HATCH_OPEN, 0, 0)
    return False


@njit_nb
def _start_turn_nb(state, rules, log):
    c = state[K.S_CURRENT]
    if c == 0:
        state[K.S_ROUND] += 1
        if state[K.S_ROUND] > rules[K.R_PARAMS + K.P_TIMEOUT]:
            state[K.S_ROUND] -= 1
            _end_game_nb(state, rules, K.END_TIMEOUT, log)
            return
        state[K.S_ADJ_NOW] = state[K.S_ADJ_NEXT]
        state[K.S_ADJ_NEXT] = 0
        state[K.S_BLOCKED] = 0
        for s in range(K.MAX_SEATS):
            state[K.S_S_STRUCK + s] = 0
        for p in range(K.MAX_PALLETS):
            state[K.S_PALLET_DETOUR + p] = 0
    elif state[K.S_S_STATUS + c] != K.ST_IN:
        state[K.S_PHASE] = K.PH_NEXT
        return
    state[K.S_BUDGET] = 0
    state[K.S_POOL] = 0
    state[K.S_PHASE] = K.PH_TURN
    state[K.S_DECIDER] = c
    log_nb(log, K.LG_TURN, state[K.S_ROUND], c, hand_size_nb(state, c), state[K.S_ADJ_NOW], 0, 0)


@njit_nb
def _end_turn_nb(state, rules, log):
    c = state[K.S_CURRENT]
    if c == 0:
        for _ in range(rules[K.R_PARAMS + K.P_KILLER_ENERGY_HAND] - hand_size_nb(state, 0)):
            log_draw_nb(state, log, 0, 0, draw_energy_nb(state, 0))
        for _ in range(rules[K.R_PARAMS + K.P_KILLER_CARD_HAND] - cards_held_nb(state, 0)):
            log_draw_nb(state, log, 0, 1, draw_card_nb(state, 0, K.S_KDECK, K.S_KDISCARD))
        state[K.S_ADJ_NOW] = 0
        state[K.S_SPRINT] = 0
    elif state[K.S_S_STATUS + c] == K.ST_IN:
        room = rules[K.R_PARAMS + K.P_SURVIVOR_ENERGY_LIMIT] - hand_size_nb(state, c)
        for _ in range(min(room, rules[K.R_PARAMS + K.P_SURVIVOR_DRAW])):
            log_draw_nb(state, log, c, 0, draw_energy_nb(state, c))
    state[K.S_BUDGET] = 0
    state[K.S_POOL] = 0
    state[K.S_PHASE] = K.PH_NEXT


# =========================================================================== acts


@njit_nb
def acts_nb(state, rules, s, q, b, out, n, first):
    """Append to ``out[n:]`` the acts of purpose ``q`` that seat ``s`` can pay with ``b``
    points now; returns the new count (``first``: stop after one)."""
    P = K.R_PARAMS
    x = state[K.S_S_X + s]
    y = state[K.S_S_Y + s]
    reach = rules[P + K.P_REACH]
    if q == K.Q_MOVE:
        mc = rules[P + K.P_MOVE_COST]
        w = rules[P + K.P_BOARD_W]
        h = rules[P + K.P_BOARD_H]
        for d in range(4):
            nx = x + (1 if d == 1 else (-1 if d == 3 else 0))
            ny = y + (-1 if d == 0 else (1 if d == 2 else 0))
            if nx < 0 or ny < 0 or nx >= w or ny >= h:
                continue
            c = mc
            if dropped_at_nb(state, nx, ny):
                if s == 0:
                    continue  # the killer breaks or walks round a dropped pallet
                c += rules[P + K.P_VAULT_COST]
            if c <= b:
                out[n] = K.A_NORTH + d
                n += 1
                if first:
                    return n
        if s == 0 and state[K.S_N_SHORTCUTS] == 2 and rules[P + K.P_SHORTCUT_COST] <= b:
            for c in range(2):
                t = state[K.S_SHORTCUT_TOKEN + c]
                if rules[K.R_TOKEN_X + t] == x and rules[K.R_TOKEN_Y + t] == y:
                    out[n] = K.A_SHORTCUT
                    return n + 1
        return n
    if q == K.Q_CARDS:
        if s == 0:
            if rules[P + K.P_KILLER_CARD_COST] > b:
                return n
            if kcard_of_nb(state, rules, K.FX_BREAK) >= 0:
                for p in range(state[K.S_N_PALLETS]):
                    if state[K.S_PALLET_STATE + p] == K.PAL_DROPPED and \
                            (abs(x - state[K.S_PALLET_X + p]) + abs(y - state[K.S_PALLET_Y + p])) <= reach:
                        out[n] = K.A_CASSE + p
                        n += 1
                        if first:
                            return n
            if kcard_of_nb(state, rules, K.FX_SPRINT) >= 0:
                out[n] = K.A_PLAY_SPRINT
                n += 1
                if first:
                    return n
            if kcard_of_nb(state, rules, K.FX_BLOCK) >= 0:
                lamps = rules[P + K.P_LAMPS]
                for g in range(state[K.S_N_GENS]):
                    if state[K.S_GEN_LAMPS + g] < lamps and not blocked_nb(state, g):
                        out[n] = K.A_BLOCK + g
                        n += 1
                        if first:
                            return n
            return n
        if rules[P + K.P_SURVIVOR_CARD_COST] > b:
            return n
        if repair_card_nb(state, rules, s) >= 0:
            lamps = rules[P + K.P_LAMPS]
            for g in range(state[K.S_N_GENS]):
                if state[K.S_GEN_LAMPS + g] < lamps and not blocked_nb(state, g) and \
                        (abs(x - rules[K.R_TOKEN_X + state[K.S_GEN_TOKEN + g]]) + abs(y - rules[K.R_TOKEN_Y + state[K.S_GEN_TOKEN + g]])) <= reach:
                    out[n] = K.A_TOOLBOX + g
                    n += 1
                    if first:
                        return n
        if card_of_nb(state, rules, s, K.FX_HEAL) >= 0:
            for t in range(1, rules[K.R_PARAMS + K.P_SURVIVORS] + 1):
                if state[K.S_S_STATUS + t] == K.ST_IN and state[K.S_S_WOUNDS + t] > 0 and \
                        (abs(x - state[K.S_S_X + t]) + abs(y - state[K.S_S_Y + t])) <= reach:
                    out[n] = K.A_MEDKIT + t
                    n += 1
                    if first:
                        return n
        if state[K.S_HATCH] == K.HATCH_HIDDEN and card_of_nb(state, rules, s, K.FX_MAP) >= 0:
            out[n] = K.A_PLAY_MAP
            n += 1
            if first:
                return n
        if state[K.S_HATCH] == K.HATCH_SHUT and card_of_nb(state, rules, s, K.FX_KEY) >= 0:
            t = state[K.S_HATCH_TOKEN]
            if (abs(x - rules[K.R_TOKEN_X + t]) + abs(y - rules[K.R_TOKEN_Y + t])) <= reach:
                out[n] = K.A_PLAY_KEY
                n += 1
        return n
    if s == 0:
        if q == K.Q_STRIKE:
            if rules[P + K.P_STRIKE_COST] > b:
                return n
            one = rules[P + K.P_ONE_STRIKE]
            for t in range(1, rules[K.R_PARAMS + K.P_SURVIVORS] + 1):
                if state[K.S_S_STATUS + t] == K.ST_IN and \
                        (abs(x - state[K.S_S_X + t]) + abs(y - state[K.S_S_Y + t])) <= reach and \
                        not (one == 1 and state[K.S_S_STRUCK + t] > 0) and not guarded_nb(state, rules, t):
                    out[n] = K.A_STRIKE + t
                    n += 1
                    if first:
                        return n
            return n
        if q == K.Q_BREAK or q == K.Q_DETOUR:
            cost = rules[P + (K.P_BREAK_COST if q == K.Q_BREAK else K.P_DETOUR_COST)]
            if cost > b:
                return n
            for p in range(state[K.S_N_PALLETS]):
                if state[K.S_PALLET_STATE + p] != K.PAL_DROPPED:
                    continue
                px = state[K.S_PALLET_X + p]
                py = state[K.S_PALLET_Y + p]
                if q == K.Q_BREAK:
                    ok = (abs(x - px) + abs(y - py)) <= reach
                else:
                    ok = False
                    if state[K.S_PALLET_DETOUR + p] == 0:
                        for t in range(1, rules[K.R_PARAMS + K.P_SURVIVORS] + 1):
                            if state[K.S_S_STATUS + t] == K.ST_IN and \
                                    (abs(x - state[K.S_S_X + t]) + abs(y - state[K.S_S_Y + t])) <= reach and \
                                    (abs(px - state[K.S_S_X + t]) + abs(py - state[K.S_S_Y + t])) <= reach:
                                ok = True
                if ok:
                    out[n] = (K.A_BREAK if q == K.Q_BREAK else K.A_DETOUR) + p
                    n += 1
                    if first:
                        return n
        return n
    # survivors' acts
    if q == K.Q_REPAIR:
        if rules[P + K.P_REPAIR_COST] > b:
            return n
        lamps = rules[P + K.P_LAMPS]
        for g in range(state[K.S_N_GENS]):
            if state[K.S_GEN_LAMPS + g] < lamps and not blocked_nb(state, g) and \
                    (abs(x - rules[K.R_TOKEN_X + state[K.S_GEN_TOKEN + g]]) + abs(y - rules[K.R_TOKEN_Y + state[K.S_GEN_TOKEN + g]])) <= reach:
                out[n] = K.A_REPAIR + g
                n += 1
                if first:
                    return n
    elif q == K.Q_CHEST:
        if rules[P + K.P_CHEST_COST] > b:
            return n
        for c in range(state[K.S_N_CHESTS]):
            t = state[K.S_CHEST_TOKEN + c]
            if (abs(x - rules[K.R_TOKEN_X + t]) + abs(y - rules[K.R_TOKEN_Y + t])) <= reach:
                out[n] = K.A_CHEST + c
                n += 1
                if first:
                    return n
    elif q == K.Q_GATE or q == K.Q_ESCAPE:
        if not (state[K.S_REPAIRED] >= rules[K.R_PARAMS + K.P_GENERATORS_NEEDED]):
            return n
        need = rules[P + K.P_GATE_SUCCESSES]
        cost = rules[P + (K.P_GATE_COST if q == K.Q_GATE else K.P_ESCAPE_GATE_COST)]
        if cost > b:
            return n
        for k in range(K.N_GATES):
            side = state[K.S_GATE_SIDE + k]
            gx = rules[K.R_GATE_X + side]
            gy = rules[K.R_GATE_Y + side]
            if (abs(x - gx) + abs(y - gy)) > reach:
                continue
            opened = state[K.S_GATE_PROGRESS + k] >= need
            if (q == K.Q_GATE and not opened) or (q == K.Q_ESCAPE and opened):
                out[n] = (K.A_GATE if q == K.Q_GATE else K.A_ESCAPE) + k
                n += 1
                if first:
                    return n
    elif q == K.Q_PALLET:
        if rules[P + K.P_DROP_COST] > b:
            return n
        for p in range(state[K.S_N_PALLETS]):
            px = state[K.S_PALLET_X + p]
            py = state[K.S_PALLET_Y + p]
            # never dropped onto the killer's square (he could not stand on a dropped pallet)
            if state[K.S_PALLET_STATE + p] == K.PAL_STANDING and (abs(x - px) + abs(y - py)) <= reach and \
                    not (px == state[K.S_S_X] and py == state[K.S_S_Y]):
                out[n] = K.A_DROP + p
                n += 1
                if first:
                    return n
    return n


@njit_nb
def legal_actions_nb(state, rules, out):
    """Write the legal actions of the seat to move into ``out`` (room for MAX_LEGAL);
    return their number (0 when the game is over)."""
    if state[K.S_OVER] == 1:
        return 0
    ph = state[K.S_PHASE]
    s = state[K.S_DECIDER]
    n = 0
    if ph == K.PH_TURN:
        out[n] = K.A_END_TURN
        n += 1
        pooled = rules[K.R_PARAMS + K.P_POOLED] == 1
        pool = state[K.S_POOL] if pooled else 0
        if s > 0 and state[K.S_HATCH] == K.HATCH_OPEN:
            t = state[K.S_HATCH_TOKEN]
            if state[K.S_S_X + s] == rules[K.R_TOKEN_X + t] and state[K.S_S_Y + s] == rules[K.R_TOKEN_Y + t]:
                out[n] = K.A_HATCH
                n += 1
        if s == 0 and state[K.S_SPRINT] > 0:
            out[n] = K.A_SPRINT_MOVE
            n += 1
        if pool > 0:
            for q in range(K.NQ - 1):
                if (Q_SIDE[q] == 2 or Q_SIDE[q] == (0 if s == 0 else 1)) and acts_nb(state, rules, s, q, pool, out, n, True) > n:
                    out[n] = K.A_POOL + q
                    n += 1
        adj = state[K.S_ADJ_NOW] if s == 0 else 0
        for v in range(1, K.MAX_V + 1):
            if state[K.S_HAND + s * K.HAND_W + v] == 0:
                continue
            eff = v + adj
            if eff <= 0:
                out[n] = K.A_COMMIT + K.Q_REST * K.MAX_V + v - 1
                n += 1
                continue
            for q in range(K.NQ - 1):
                if (Q_SIDE[q] == 2 or Q_SIDE[q] == (0 if s == 0 else 1)) and acts_nb(state, rules, s, q, eff + pool, out, n, True) > n:
                    out[n] = K.A_COMMIT + q * K.MAX_V + v - 1
                    n += 1
        return n
    if ph == K.PH_COMMIT:
        out[n] = K.A_STOP
        n += 1
        q = state[K.S_PURPOSE]
        if q != K.Q_REST:
            n = acts_nb(state, rules, s, q, state[K.S_BUDGET], out, n, False)
        return n
    if ph == K.PH_REFLEX or ph == K.PH_HELP:
        out[n] = K.A_PASS
        n += 1
        if card_of_nb(state, rules, s, K.FX_REFLEX) >= 0:
            out[n] = K.A_REFLEX if ph == K.PH_REFLEX else K.A_HELP
            n += 1
        return n
    if ph == K.PH_DISCARD:
        for k in range(rules[K.R_PARAMS + K.P_N_SURVIVOR_KINDS]):
            if state[K.S_CARDS + s * K.MAX_K + k] > 0:
                out[n] = K.A_DISCARD + k
                n += 1
        return n
    if ph == K.PH_PLACE:
        if state[K.S_S_GENS_LEFT + s] > 0:
            out[n] = K.A_PLACE_GEN
            n += 1
        if state[K.S_S_SHORTCUTS_LEFT + s] > 0:
            out[n] = K.A_PLACE_SHORTCUT
            n += 1
        if state[K.S_S_CHESTS_LEFT + s] > 0:
            out[n] = K.A_PLACE_CHEST
            n += 1
        if state[K.S_S_PAWN_LEFT + s] > 0:
            out[n] = K.A_PLACE_PAWN
            n += 1
        return n
    if ph == K.PH_GATES:
        for i in range(len(K.GATE_PAIRS)):
            out[n] = K.A_GATES + i
            n += 1
        return n
    if ph == K.PH_PALLET:
        for t in range(rules[K.R_PARAMS + K.P_N_TOKENS]):
            if _pallet_site_ok(state, rules, t):
                out[n] = K.A_PALLET_AT + t
                n += 1
        return n
    return 0


@njit_nb
def _pallet_site_ok(state, rules, t):
    """A pallet goes next to a token without a generator (never against a generator),
    one pallet a token."""
    for g in range(state[K.S_N_GENS]):
        if state[K.S_GEN_TOKEN + g] == t:
            return False
    px = rules[K.R_TOKEN_X + t] + rules[K.R_PARAMS + K.P_PALLET_DX]
    py = rules[K.R_TOKEN_Y + t] + rules[K.R_PARAMS + K.P_PALLET_DY]
    for p in range(state[K.S_N_PALLETS]):
        if state[K.S_PALLET_X + p] == px and state[K.S_PALLET_Y + p] == py:
            return False
    return True


# =========================================================================== effects
@njit_nb
def _lamp_nb(state, rules, g, s, log):
    """A lamp on generator ``g``; the last one repairs it (and may power the gates)."""
    state[K.S_GEN_LAMPS + g] += 1
    rnd = state[K.S_ROUND]
    log_nb(log, K.LG_LAMP, rnd, s, g, state[K.S_GEN_LAMPS + g], 0, 0)
    if state[K.S_GEN_LAMPS + g] == rules[K.R_PARAMS + K.P_LAMPS]:
        state[K.S_REPAIRED] += 1
        state[K.S_GEN_ROUND + g] = rnd
        log_nb(log, K.LG_REPAIRED, rnd, s, g, state[K.S_REPAIRED], 0, 0)
        if state[K.S_REPAIRED] == rules[K.R_PARAMS + K.P_GENERATORS_NEEDED]:
            log_nb(log, K.LG_POWERED, rnd, s, 0, 0, 0, 0)


@njit_nb
def _leave_nb(state, s):
    """A survivor leaves the game (killed or escaped): its hands go to the discards, so
    the decks keep every card in play."""
    for v in range(K.HAND_W):
        state[K.S_ENERGY_DISCARD + v] += state[K.S_HAND + s * K.HAND_W + v]
        state[K.S_HAND + s * K.HAND_W + v] = 0
    for k in range(K.MAX_K):
        state[K.S_SDISCARD + k] += state[K.S_CARDS + s * K.MAX_K + k]
        state[K.S_CARDS + s * K.MAX_K + k] = 0


@njit_nb
def _land_hit_nb(state, rules, t, log):
    rnd = state[K.S_ROUND]
    state[K.S_S_WOUNDS + t] += 1
    state[K.S_HITS] += 1
    if state[K.S_FIRST_HIT] == 0:
        state[K.S_FIRST_HIT] = rnd
    state[K.S_ADJ_NEXT] -= rules[K.R_PARAMS + K.P_HIT_EXHAUSTION]
    log_nb(log, K.LG_HIT, rnd, 0, t, state[K.S_S_WOUNDS + t], 0, 0)
    if state[K.S_S_WOUNDS + t] >= rules[K.R_PARAMS + K.P_HITS_TO_KILL]:
        state[K.S_S_STATUS + t] = K.ST_KILLED
        state[K.S_S_END_ROUND + t] = rnd
        state[K.S_KILLS] += 1
        log_nb(log, K.LG_KILL, rnd, 0, t, state[K.S_KILLS], 0, 0)
        _leave_nb(state, t)
        _check_end_nb(state, rules, log)


@njit_nb
def _help_scan_nb(state, rules, log):
    """After a landed strike the target did not answer: the next survivor within help
    range holding a reflex card may answer for it; nobody left: the hit lands."""
    t = state[K.S_TARGET]
    tx = state[K.S_S_X + t]
    ty = state[K.S_S_Y + t]
    hr = rules[K.R_PARAMS + K.P_HELP_RANGE]
    for h in range(state[K.S_SCAN] + 1, rules[K.R_PARAMS + K.P_SURVIVORS] + 1):
        if h == t or state[K.S_S_STATUS + h] != K.ST_IN:
            continue
        if (abs(tx - state[K.S_S_X + h]) + abs(ty - state[K.S_S_Y + h])) <= hr and \
                card_of_nb(state, rules, h, K.FX_REFLEX) >= 0:
            state[K.S_SCAN] = h
            state[K.S_PHASE] = K.PH_HELP
            state[K.S_DECIDER] = h
            return
    state[K.S_PHASE] = K.PH_COMMIT
    state[K.S_DECIDER] = state[K.S_CURRENT]
    state[K.S_TARGET] = -1
    _land_hit_nb(state, rules, t, log)


@njit_nb
def _escape_nb(state, rules, s, hatch, log):
    state[K.S_S_STATUS + s] = K.ST_ESCAPED
    state[K.S_S_END_ROUND + s] = state[K.S_ROUND]
    state[K.S_ESCAPES] += 1
    state[K.S_S_VIA + s] = hatch
    if hatch:
        state[K.S_HATCH_ESCAPES] += 1
    log_nb(log, K.LG_ESCAPE, state[K.S_ROUND], s, hatch, state[K.S_ESCAPES], 0, 0)
    _leave_nb(state, s)
    if not _check_end_nb(state, rules, log):
        _end_turn_nb(state, rules, log)


@njit_nb
def step_nb(state, rules, a, log):
    """Apply the legal action ``a`` of the seat to move (no check), then advance."""
    state[K.S_STEPS] += 1
    _do_nb(state, rules, a, log)
    if state[K.S_STEPS] > K.STEP_CAP:
        _end_game_nb(state, rules, K.END_STEP_CAP, log)
        return
    advance_nb(state, rules, log)


@njit_nb
def _do_nb(state, rules, a, log):
    P = K.R_PARAMS
    s = state[K.S_DECIDER]
    rnd = state[K.S_ROUND]
    ph = state[K.S_PHASE]
    if ph == K.PH_PLACE:
        t = state[K.S_TOKEN]
        if a == K.A_PLACE_GEN:
            state[K.S_GEN_TOKEN + state[K.S_N_GENS]] = t
            state[K.S_N_GENS] += 1
            state[K.S_S_GENS_LEFT + s] -= 1
        elif a == K.A_PLACE_SHORTCUT:
            state[K.S_SHORTCUT_TOKEN + state[K.S_N_SHORTCUTS]] = t
            state[K.S_N_SHORTCUTS] += 1
            state[K.S_S_SHORTCUTS_LEFT + s] -= 1
        elif a == K.A_PLACE_CHEST:
            state[K.S_CHEST_TOKEN + state[K.S_N_CHESTS]] = t
            state[K.S_N_CHESTS] += 1
            state[K.S_S_CHESTS_LEFT + s] -= 1
        else:
            state[K.S_S_X + s] = rules[K.R_TOKEN_X + t]
            state[K.S_S_Y + s] = rules[K.R_TOKEN_Y + t]
            state[K.S_S_PAWN_LEFT + s] -= 1
        log_nb(log, K.LG_PLACE, 0, s, a, t, 0, 0)
        _after_place_nb(state, rules, log)
        return
    if ph == K.PH_GATES:
        pair = a - K.A_GATES
        i0 = 0 if pair < 3 else (1 if pair < 5 else 2)
        i1 = (pair + 1) if pair < 3 else ((pair - 1) if pair < 5 else 3)
        state[K.S_GATE_SIDE] = i0
        state[K.S_GATE_SIDE + 1] = i1
        log_nb(log, K.LG_GATES, 0, 0, i0, i1, 0, 0)
        state[K.S_PALLET_SEAT] = 1
        state[K.S_PALLET_LEFT] = rules[P + K.P_PALLETS_PER_SURVIVOR]
        if state[K.S_PALLET_LEFT] == 0:
            _deal_nb(state, rules, log)
        else:
            state[K.S_PHASE] = K.PH_PALLET
            state[K.S_DECIDER] = 1
        return
    if ph == K.PH_PALLET:
        t = a - K.A_PALLET_AT
        p = state[K.S_N_PALLETS]
        state[K.S_PALLET_X + p] = rules[K.R_TOKEN_X + t] + rules[P + K.P_PALLET_DX]
        state[K.S_PALLET_Y + p] = rules[K.R_TOKEN_Y + t] + rules[P + K.P_PALLET_DY]
        state[K.S_N_PALLETS] = p + 1
        log_nb(log, K.LG_PALLET, 0, s, t, p, 0, 0)
        state[K.S_PALLET_LEFT] -= 1
        if state[K.S_PALLET_LEFT] == 0:
            state[K.S_PALLET_SEAT] += 1
            state[K.S_PALLET_LEFT] = rules[P + K.P_PALLETS_PER_SURVIVOR]
            if state[K.S_PALLET_SEAT] > rules[K.R_PARAMS + K.P_SURVIVORS]:
                _deal_nb(state, rules, log)
                return
        state[K.S_DECIDER] = state[K.S_PALLET_SEAT]
        return
    if ph == K.PH_REFLEX or ph == K.PH_HELP:
        t = state[K.S_TARGET]
        if a == K.A_PASS:
            if ph == K.PH_REFLEX:
                state[K.S_SCAN] = 0
            _help_scan_nb(state, rules, log)
            return
        k = card_of_nb(state, rules, s, K.FX_REFLEX)
        discard_card_nb(state, s, k)
        log_nb(log, K.LG_REFLEX if ph == K.PH_REFLEX else K.LG_HELP, rnd, s, t, k, 0, 0)
        state[K.S_PHASE] = K.PH_COMMIT  # back to the striker's (or chest opener's) commitment
        state[K.S_DECIDER] = state[K.S_CURRENT]
        state[K.S_TARGET] = -1
        return
    if ph == K.PH_DISCARD:
        k = a - K.A_DISCARD
        state[K.S_CARDS + s * K.MAX_K + k] -= 1
        state[K.S_SDISCARD + k] += 1
        log_nb(log, K.LG_DISCARD, rnd, s, k, 0, 0, 0)
        state[K.S_PHASE] = K.PH_COMMIT  # back to the striker's (or chest opener's) commitment
        state[K.S_DECIDER] = state[K.S_CURRENT]
        state[K.S_TARGET] = -1
        return
    if ph == K.PH_TURN:
        if a == K.A_END_TURN:
            _end_turn_nb(state, rules, log)
        elif a == K.A_HATCH:
            _escape_nb(state, rules, s, 1, log)
        elif a == K.A_SPRINT_MOVE:
            state[K.S_BUDGET] = state[K.S_SPRINT]
            state[K.S_SPRINT] = 0
            state[K.S_SPRINTING] = 1
            state[K.S_PURPOSE] = K.Q_MOVE
            state[K.S_PHASE] = K.PH_COMMIT
            log_nb(log, K.LG_COMMIT, rnd, s, K.Q_MOVE, 0, state[K.S_BUDGET], 1)
        elif a < K.A_COMMIT:
            state[K.S_BUDGET] = state[K.S_POOL]
            state[K.S_POOL] = 0
            state[K.S_PURPOSE] = a - K.A_POOL
            state[K.S_PHASE] = K.PH_COMMIT
            log_nb(log, K.LG_COMMIT, rnd, s, a - K.A_POOL, 0, state[K.S_BUDGET], 2)
        else:
            i = a - K.A_COMMIT
            q = i // K.MAX_V
            v = i % K.MAX_V + 1
            state[K.S_HAND + s * K.HAND_W + v] -= 1
            state[K.S_ENERGY_DISCARD + v] += 1
            eff = v
            if s == 0:
                eff = v + state[K.S_ADJ_NOW]
                if eff < 0:
                    state[K.S_ADJ_NOW] = eff
                    eff = 0
                else:
                    state[K.S_ADJ_NOW] = 0
            state[K.S_BUDGET] = eff + state[K.S_POOL]
            state[K.S_POOL] = 0
            state[K.S_PURPOSE] = q
            state[K.S_PHASE] = K.PH_COMMIT
            log_nb(log, K.LG_COMMIT, rnd, s, q, v, state[K.S_BUDGET], 0)
        return
    # ------------------------------------------------------------ PH_COMMIT: one act
    if a == K.A_STOP:
        # a sprint's squares are no energy: the pool keeps only a card's points
        if rules[P + K.P_POOLED] == 1 and state[K.S_SPRINTING] == 0:
            state[K.S_POOL] += state[K.S_BUDGET]
        state[K.S_SPRINTING] = 0
        state[K.S_BUDGET] = 0
        state[K.S_PHASE] = K.PH_TURN
        return
    x = state[K.S_S_X + s]
    y = state[K.S_S_Y + s]
    if a >= K.A_NORTH and a <= K.A_WEST:
        d = a - K.A_NORTH
        nx = x + (1 if d == 1 else (-1 if d == 3 else 0))
        ny = y + (-1 if d == 0 else (1 if d == 2 else 0))
        c = rules[P + K.P_MOVE_COST]
        if s > 0 and dropped_at_nb(state, nx, ny):
            c += rules[P + K.P_VAULT_COST]
        state[K.S_BUDGET] -= c
        state[K.S_S_X + s] = nx
        state[K.S_S_Y + s] = ny
        log_nb(log, K.LG_MOVE, rnd, s, nx, ny, c, 0)
        return
    if a == K.A_SHORTCUT:
        state[K.S_BUDGET] -= rules[P + K.P_SHORTCUT_COST]
        for c in range(2):
            t = state[K.S_SHORTCUT_TOKEN + c]
            if not (rules[K.R_TOKEN_X + t] == x and rules[K.R_TOKEN_Y + t] == y):
                state[K.S_S_X] = rules[K.R_TOKEN_X + t]
                state[K.S_S_Y] = rules[K.R_TOKEN_Y + t]
                break
        log_nb(log, K.LG_MOVE, rnd, s, state[K.S_S_X], state[K.S_S_Y], rules[P + K.P_SHORTCUT_COST], 1)
        return
    if a >= K.A_REPAIR and a < K.A_REPAIR + K.MAX_GENS:
        g = a - K.A_REPAIR
        state[K.S_BUDGET] -= rules[P + K.P_REPAIR_COST]
        state[K.S_ROLLS] += 1
        ok = roll_nb(state, rules, False)
        log_nb(log, K.LG_ROLL, rnd, s, K.Q_REPAIR, g, ok, 0)
        if ok == 1:
            _lamp_nb(state, rules, g, s, log)
        else:
            gain = rules[P + K.P_FAILED_REPAIR_GAIN]
            state[K.S_ADJ_NEXT] += gain
            state[K.S_KILLER_GAIN] += gain
            log_nb(log, K.LG_GAIN, rnd, s, gain, state[K.S_ADJ_NEXT], 0, 0)
        return
    if a >= K.A_CHEST and a < K.A_CHEST + K.MAX_CHESTS:
        c = a - K.A_CHEST
        state[K.S_BUDGET] -= rules[P + K.P_CHEST_COST]
        state[K.S_ROLLS] += 1
        ok = roll_nb(state, rules, False)
        log_nb(log, K.LG_ROLL, rnd, s, K.Q_CHEST, c, ok, 0)
        if ok == 1:
            k = draw_card_nb(state, s, K.S_SDECK, K.S_SDISCARD)
            old = state[K.S_CHEST_TOKEN + c]
            # the chest stays on its token for the draw: it moves to a new token (docs:
            # "a token holding a generator, a chest, ... is drawn again")
            # (no free token: it stays; the log's last field says whether a token was drawn)
            t = draw_free_token_nb(state, rules)
            state[K.S_CHEST_TOKEN + c] = old if t < 0 else t
            log_nb(log, K.LG_CHEST, rnd, s, c, k, state[K.S_CHEST_TOKEN + c], 1 if t >= 0 else 0)
            if cards_held_nb(state, s) > rules[P + K.P_SURVIVOR_CARD_LIMIT]:
                state[K.S_PHASE] = K.PH_DISCARD
        return
    if a >= K.A_GATE and a < K.A_GATE + K.N_GATES:
        k = a - K.A_GATE
        state[K.S_BUDGET] -= rules[P + K.P_GATE_COST]
        state[K.S_ROLLS] += 1
        ok = roll_nb(state, rules, False)
        log_nb(log, K.LG_ROLL, rnd, s, K.Q_GATE, k, ok, 0)
        if ok == 1:
            state[K.S_GATE_PROGRESS + k] += 1
            if state[K.S_GATE_PROGRESS + k] == rules[P + K.P_GATE_SUCCESSES]:
                log_nb(log, K.LG_GATE_OPEN, rnd, s, k, 0, 0, 0)
        return
    if a >= K.A_ESCAPE and a < K.A_ESCAPE + K.N_GATES:
        state[K.S_BUDGET] -= rules[P + K.P_ESCAPE_GATE_COST]
        _escape_nb(state, rules, s, 0, log)
        return
    if a >= K.A_DROP and a < K.A_DROP + K.MAX_PALLETS:
        p = a - K.A_DROP
        state[K.S_BUDGET] -= rules[P + K.P_DROP_COST]
        state[K.S_PALLET_STATE + p] = K.PAL_DROPPED
        log_nb(log, K.LG_DROP, rnd, s, p, 0, 0, 0)
        return
    if a >= K.A_TOOLBOX and a < K.A_TOOLBOX + K.MAX_GENS:
        g = a - K.A_TOOLBOX
        state[K.S_BUDGET] -= rules[P + K.P_SURVIVOR_CARD_COST]
        k = repair_card_nb(state, rules, s)
        discard_card_nb(state, s, k)
        log_nb(log, K.LG_CARD, rnd, s, a, k, g, 0)
        amount = rules[K.R_SK_AMOUNT + k] if rules[K.R_SK_EFFECT + k] == K.FX_REPAIR else 1
        for _ in range(max(amount, 1)):
            if state[K.S_GEN_LAMPS + g] < rules[P + K.P_LAMPS]:
                _lamp_nb(state, rules, g, s, log)
        return
    if a >= K.A_MEDKIT and a < K.A_MEDKIT + K.MAX_SEATS:
        t = a - K.A_MEDKIT
        state[K.S_BUDGET] -= rules[P + K.P_SURVIVOR_CARD_COST]
        k = card_of_nb(state, rules, s, K.FX_HEAL)
        discard_card_nb(state, s, k)
        state[K.S_S_WOUNDS + t] -= 1
        log_nb(log, K.LG_CARD, rnd, s, a, k, t, 0)
        return
    if a == K.A_PLAY_MAP or a == K.A_PLAY_KEY:
        state[K.S_BUDGET] -= rules[P + K.P_SURVIVOR_CARD_COST]
        k = card_of_nb(state, rules, s, K.FX_MAP if a == K.A_PLAY_MAP else K.FX_KEY)
        discard_card_nb(state, s, k)
        if a == K.A_PLAY_MAP:
            state[K.S_HATCH_TOKEN] = draw_free_token_nb(state, rules)
            state[K.S_HATCH] = K.HATCH_SHUT
        else:
            state[K.S_HATCH] = K.HATCH_OPEN
        log_nb(log, K.LG_CARD, rnd, s, a, k, state[K.S_HATCH_TOKEN], state[K.S_HATCH])
        return
    # ------------------------------------------------------------ the killer's acts
    if a == K.A_PLAY_SPRINT or (a >= K.A_BLOCK and a < K.A_BLOCK + K.MAX_GENS) or \
            (a >= K.A_CASSE and a < K.A_CASSE + K.MAX_PALLETS):
        state[K.S_BUDGET] -= rules[P + K.P_KILLER_CARD_COST]
        if a == K.A_PLAY_SPRINT:
            k = kcard_of_nb(state, rules, K.FX_SPRINT)
            state[K.S_SPRINT] += rules[K.R_KK_AMOUNT + k]
            tgt = state[K.S_SPRINT]
        elif a < K.A_BLOCK + K.MAX_GENS:
            k = kcard_of_nb(state, rules, K.FX_BLOCK)
            tgt = a - K.A_BLOCK
            state[K.S_BLOCKED] |= 1 << tgt
        else:
            k = kcard_of_nb(state, rules, K.FX_BREAK)
            tgt = a - K.A_CASSE
            state[K.S_PALLET_STATE + tgt] = K.PAL_BROKEN
        discard_card_nb(state, 0, k)
        log_nb(log, K.LG_CARD, rnd, 0, a, k, tgt, 0)
        return
    if a >= K.A_BREAK and a < K.A_BREAK + K.MAX_PALLETS:
        p = a - K.A_BREAK
        c = rules[P + K.P_BREAK_COST]
        state[K.S_BUDGET] -= c
        state[K.S_PALLET_SPEND] += c
        state[K.S_ROLLS] += 1
        ok = roll_nb(state, rules, True)
        if ok == 1:
            state[K.S_PALLET_STATE + p] = K.PAL_BROKEN
        log_nb(log, K.LG_BREAK, rnd, 0, p, ok, 0, 0)
        return
    if a >= K.A_DETOUR and a < K.A_DETOUR + K.MAX_PALLETS:
        p = a - K.A_DETOUR
        c = rules[P + K.P_DETOUR_COST]
        state[K.S_BUDGET] -= c
        state[K.S_PALLET_SPEND] += c
        state[K.S_PALLET_DETOUR + p] = 1
        log_nb(log, K.LG_DETOUR, rnd, 0, p, 0, 0, 0)
        return
    if a >= K.A_STRIKE and a < K.A_STRIKE + K.MAX_SEATS:
        t = a - K.A_STRIKE
        state[K.S_BUDGET] -= rules[P + K.P_STRIKE_COST]
        state[K.S_STRIKES] += 1
        state[K.S_S_STRUCK + t] += 1
        state[K.S_ROLLS] += 1
        ok = roll_nb(state, rules, True)
        log_nb(log, K.LG_STRIKE, rnd, 0, t, ok, 0, 0)
        if ok == 1:
            state[K.S_TARGET] = t
            state[K.S_SCAN] = 0
            if card_of_nb(state, rules, t, K.FX_REFLEX) >= 0:
                state[K.S_PHASE] = K.PH_REFLEX
                state[K.S_DECIDER] = t
            else:
                _help_scan_nb(state, rules, log)
        return


@njit_nb
def advance_nb(state, rules, log):
    """Run the forced steps up to the next decision with two or more legal actions (a
    decision with one is taken here), or the end."""
    out = state[K.S_SCRATCH:K.S_SCRATCH + K.MAX_LEGAL]
    while state[K.S_OVER] == 0:
        ph = state[K.S_PHASE]
        if ph == K.PH_START_TURN:
            _start_turn_nb(state, rules, log)
            continue
        if ph == K.PH_NEXT:
            c = state[K.S_CURRENT] + 1
            state[K.S_CURRENT] = 0 if c > rules[K.R_PARAMS + K.P_SURVIVORS] else c
            state[K.S_PHASE] = K.PH_START_TURN
            continue
        n = legal_actions_nb(state, rules, out)
        if n == 1:
            _do_nb(state, rules, out[0], log)
            continue
        return


@njit_nb
def apply_action_nb(state, rules, action, log):
    """Apply ``action`` if it is legal now (else return False and change nothing), then
    advance to the next decision."""
    if state[K.S_OVER] == 1:
        return False
    out = state[K.S_SCRATCH:K.S_SCRATCH + K.MAX_LEGAL]
    n = legal_actions_nb(state, rules, out)
    ok = False
    for i in range(n):
        if out[i] == action:
            ok = True
    if not ok:
        return False
    step_nb(state, rules, action, log)
    return True


# =========================================================================== records
@njit_nb
def record_nb(state, rules, game, rec):
    """Write the finished game to ``rec`` (int64, (REC_SIZE,))."""
    for i in range(K.REC_SIZE):
        rec[i] = 0
    rec[K.REC_GAME] = game
    rec[K.REC_ROUNDS] = state[K.S_ROUND]
    rec[K.REC_END_CAUSE] = state[K.S_END_CAUSE]
    rec[K.REC_KILLS] = state[K.S_KILLS]
    rec[K.REC_KILLER_WIN] = 1 if state[K.S_KILLS] >= rules[K.R_PARAMS + K.P_KILLER_WIN_KILLS] else 0
    rec[K.REC_ESCAPES] = state[K.S_ESCAPES]
    rec[K.REC_HATCH_ESCAPES] = state[K.S_HATCH_ESCAPES]
    rec[K.REC_REPAIRED] = state[K.S_REPAIRED]
    need = rules[K.R_PARAMS + K.P_GATE_SUCCESSES]
    for k in range(K.N_GATES):
        if state[K.S_GATE_PROGRESS + k] >= need:
            rec[K.REC_GATES_OPEN] += 1
    rec[K.REC_FIRST_HIT] = state[K.S_FIRST_HIT]
    rec[K.REC_HITS] = state[K.S_HITS]
    rec[K.REC_STRIKES] = state[K.S_STRIKES]
    rec[K.REC_KILLER_GAIN] = state[K.S_KILLER_GAIN]
    rec[K.REC_PALLET_SPEND] = state[K.S_PALLET_SPEND]
    for p in range(state[K.S_N_PALLETS]):
        if state[K.S_PALLET_STATE + p] != K.PAL_STANDING:
            rec[K.REC_PALLETS_DROPPED] += 1
    rec[K.REC_CARDS_PLAYED] = state[K.S_CARDS_PLAYED]
    rec[K.REC_DECISIONS] = state[K.S_STEPS]
    rec[K.REC_ROLLS] = state[K.S_ROLLS]
    ns = rules[K.R_PARAMS + K.P_SURVIVORS]
    for i in range(K.MAX_SURV):
        s = i + 1
        if s > ns:
            rec[K.REC_OUTCOME + i] = -1
            continue
        st = state[K.S_S_STATUS + s]
        if st == K.ST_KILLED:
            rec[K.REC_OUTCOME + i] = K.OUT_KILLED
        elif st == K.ST_ESCAPED:
            rec[K.REC_OUTCOME + i] = K.OUT_HATCH if state[K.S_S_VIA + s] == 1 else K.OUT_GATE
        else:
            rec[K.REC_OUTCOME + i] = K.OUT_ALIVE
        rec[K.REC_END_ROUND + i] = state[K.S_S_END_ROUND + s]
    for g in range(K.MAX_GENS):
        rec[K.REC_GEN_ROUND + g] = state[K.S_GEN_ROUND + g]
