"""Till Dawn step model: a game is one int64 ``state`` array (layout ``codes.STATE``).

``init_state_nb(state, rules, players, chars, key, log)`` then ``advance_nb(state, rules, log)``
    A new game at the start of night 1, advanced to the first decision.
``legal_actions_nb(state, rules, out) -> n``
    Writes the legal actions (``codes.A_*``) of the player to move (``state[S_DECIDER]``)
    into ``out[:n]``.
``apply_action_nb(state, rules, action, log)``
    Applies one action, then runs every forced and chance step (draws, card effects,
    scans over the seats) until the next decision or the end of the game.
``is_over_nb(state)``, ``record_nb(state, rules, game, rec)``
    The end, and the finished game as a record row (layout ``codes.RECORD``).

Arrays: ``rules`` int64 (R_SIZE,) from ``TillDawnRules.flat()``; ``state`` int64
(S_SIZE,); ``log`` int64 (n, LOG_W) trace buffer (row 0 counts the rows; a (1, LOG_W)
buffer records nothing).  Randomness comes from the state's own streams (counter-based
splitmix64, ``simlib.core.rng``): the hunt deck's stream is re-keyed every night from
the game key, so two policies see the same first draws of every night.

Rules where the rulebook is silent are the defaults of docs/games/till-dawn.md.
"""
from __future__ import annotations

import numpy as np

from ....core.jit import njit_nb
from ....core.gamelog_nb import log_nb
from ....core.rng import key_streams_at_nb, mix64_nb, randint_at_nb
from .. import codes as K

NIGHT_SALT = np.uint64(0xA0761D6478BD642F)


# =========================================================================== randomness
@njit_nb
def _rekey_hunt_nb(state, night):
    key = np.uint64(state[K.S_KEY])
    state[K.S_STREAMS + K.STREAM_HUNT] = np.int64(mix64_nb(key ^ (np.uint64(night + 1) * NIGHT_SALT)))


# =========================================================================== small helpers
@njit_nb
def next_active_nb(state, seat):
    """The first active seat to the left of ``seat`` (``-1``: nobody is active)."""
    n = state[K.S_PLAYERS]
    for k in range(1, n + 1):
        s = (seat + k) % n
        if state[K.S_S_ACTIVE + s] == 1:
            return s
    return -1


@njit_nb
def n_active_nb(state):
    c = 0
    for s in range(state[K.S_PLAYERS]):
        c += state[K.S_S_ACTIVE + s]
    return c


@njit_nb
def is_over_nb(state):
    return state[K.S_OVER] == 1


# =========================================================================== setup
@njit_nb
def _start_night_nb(state, rules, log):
    n = state[K.S_PLAYERS]
    night = state[K.S_NIGHT]
    _rekey_hunt_nb(state, night)
    nh = rules[K.R_PARAMS + K.P_N_HUNT]
    state[K.S_N_HUNT] = nh
    for t in range(K.MAX_TYPES):
        state[K.S_TYPE_LEFT + t] = 0
    for i in range(nh):
        state[K.S_TYPE_LEFT + state[K.S_HUNT + i]] += 1
    state[K.S_TRACK] = 0
    state[K.S_PENDING] = -1
    state[K.S_PLAYED_MASK] = 0
    state[K.S_SUNRISE] = 0
    for s in range(n):
        state[K.S_S_ACTIVE + s] = 1
        state[K.S_S_HEALTH + s] = state[K.S_S_MAX_HEALTH + s]
        state[K.S_S_BLOOD + s] = 0
        state[K.S_S_VOTE + s] = K.VOTE_NONE
        state[K.S_S_DOUBLED + s] = 0
        state[K.S_S_PROTECTED + s] = 0
    # powers: all gathered, one dealt to each player (partial Fisher-Yates on the pile)
    npw = rules[K.R_PARAMS + K.P_N_POWERS]
    for s in range(n):
        j = s + randint_at_nb(state, K.S_STREAMS + K.STREAM_DECKS, npw - s)
        tmp = state[K.S_POWERS + s]
        state[K.S_POWERS + s] = state[K.S_POWERS + j]
        state[K.S_POWERS + j] = tmp
        state[K.S_S_POWER + s] = state[K.S_POWERS + s]
    # events: the deck is every event card nobody holds
    ne = rules[K.R_PARAMS + K.P_N_EVENTS]
    k = 0
    for e in range(ne):
        held = False
        for s in range(n):
            if state[K.S_S_EVENT + s] == e:
                held = True
        if not held:
            state[K.S_EVENTS + k] = e
            k += 1
    m = k
    for s in range(n):
        if state[K.S_S_EVENT + s] >= 0:
            state[K.S_EVENTS + m] = state[K.S_S_EVENT + s]
            m += 1
    state[K.S_N_EVENTS] = k
    log_nb(log, K.LG_NIGHT, night, state[K.S_CURRENT], 0, 0, 0, 0)


@njit_nb
def init_state_nb(state, rules, players, chars, key, log):
    """A new game of ``players`` seats with characters ``chars[:players]`` (``chars[0] < 0``:
    a random team, distinct characters, drawn from the game's stream), randomness keyed by
    ``key`` (uint64), before its first draw: ``advance_nb`` takes it to the first decision
    (kept apart so that only the few entry points compile the whole engine)."""
    for i in range(K.S_SIZE):
        state[i] = 0
    state[K.S_KEY] = np.int64(key)
    key_streams_at_nb(state, K.S_STREAMS, K.N_STREAMS, key)
    state[K.S_PLAYERS] = players
    nch = rules[K.R_PARAMS + K.P_N_CHARS]
    if chars[0] < 0:  # random team: partial Fisher-Yates over the characters
        for c in range(nch):
            state[K.S_HUNT + c] = c  # the hunt pile is filled below: borrow it as scratch
        for s in range(players):
            j = s + randint_at_nb(state, K.S_STREAMS + K.STREAM_DECKS, nch - s)
            tmp = state[K.S_HUNT + s]
            state[K.S_HUNT + s] = state[K.S_HUNT + j]
            state[K.S_HUNT + j] = tmp
            state[K.S_S_CHARACTER + s] = state[K.S_HUNT + s]
    else:
        for s in range(players):
            state[K.S_S_CHARACTER + s] = chars[s]
    for s in range(K.MAX_SEATS):
        state[K.S_S_POWER + s] = -1
        state[K.S_S_EVENT + s] = -1
        state[K.S_S_VOTE + s] = K.VOTE_NONE
        if s >= players:
            state[K.S_S_CHARACTER + s] = -1
    for s in range(players):
        c = state[K.S_S_CHARACTER + s]
        state[K.S_S_MAX_HEALTH + s] = rules[K.R_CHAR_HEALTH + c]
        state[K.S_S_GROUND + s] = rules[K.R_CHAR_GROUND + c]
    nh = rules[K.R_PARAMS + K.P_N_HUNT]
    for i in range(nh):
        state[K.S_HUNT + i] = rules[K.R_DECK + i]
    for i in range(rules[K.R_PARAMS + K.P_N_POWERS]):
        state[K.S_POWERS + i] = i
    for i in range(rules[K.R_PARAMS + K.P_N_EVENTS]):
        state[K.S_EVENTS + i] = i
    state[K.S_BLOOD_SUPPLY] = rules[K.R_PARAMS + K.P_BLOOD_SUPPLY]
    state[K.S_COFFIN_SUPPLY] = rules[K.R_PARAMS + K.P_COFFIN_SUPPLY]
    state[K.S_CURRENT] = 0
    state[K.S_NIGHT] = 0
    state[K.S_PENDING] = -1
    state[K.S_CANDIDATE] = -1
    _start_night_nb(state, rules, log)
    state[K.S_PHASE] = K.PH_DRAW


# =========================================================================== effects
@njit_nb
def _end_game_nb(state, cause, log):
    state[K.S_OVER] = 1
    state[K.S_END_CAUSE] = cause
    state[K.S_PHASE] = K.PH_OVER
    log_nb(log, K.LG_END, state[K.S_NIGHT], -1, cause, 0, 0, 0)


@njit_nb
def _take_blood_nb(state, rules, total, log):
    """Take ``total`` blood tokens from the supply; False (and the game ends at once, FAQ)
    when the supply cannot pay them."""
    if rules[K.R_PARAMS + K.P_UNLIMITED] == 0 and total > state[K.S_BLOOD_SUPPLY]:
        log_nb(log, K.LG_SUPPLY, state[K.S_NIGHT], -1, 0, total, state[K.S_BLOOD_SUPPLY], 0)
        _end_game_nb(state, K.END_BLOOD_SUPPLY, log)
        return False
    state[K.S_BLOOD_SUPPLY] -= total
    return True


@njit_nb
def _lose_blood_nb(state, s):
    b = state[K.S_S_BLOOD + s]
    state[K.S_BLOOD_SUPPLY] += b
    state[K.S_S_BLOOD + s] = 0
    return b


@njit_nb
def damage_nb(state, s, d, log):
    """Seat ``s`` loses ``d`` health; at zero it goes to its coffin without its blood."""
    h = state[K.S_S_HEALTH + s] - d
    if h < 0:
        h = 0
    state[K.S_S_HEALTH + s] = h
    log_nb(log, K.LG_DAMAGE, state[K.S_NIGHT], s, d, h, 0, 0)
    if h == 0:
        lost = _lose_blood_nb(state, s)
        state[K.S_S_LOST_DEATH + s] += lost
        state[K.S_S_DEATHS + s] += 1
        state[K.S_S_ACTIVE + s] = 0
        log_nb(log, K.LG_DEATH, state[K.S_NIGHT], s, lost, 0, 0, 0)


@njit_nb
def _sunrise_nb(state, log):
    state[K.S_SUNRISE] = 1
    for s in range(state[K.S_PLAYERS]):
        if state[K.S_S_ACTIVE + s] == 1:
            lost = _lose_blood_nb(state, s)
            state[K.S_S_LOST_SUNRISE + s] += lost
            state[K.S_S_ACTIVE + s] = 0
            log_nb(log, K.LG_SUNRISE, state[K.S_NIGHT], s, lost, 0, 0, 0)


@njit_nb
def retire_nb(state, rules, s, log):
    """Seat ``s`` returns to its coffin and banks its blood as coffin points."""
    b = state[K.S_S_BLOOD + s]
    pts = b * rules[K.R_PARAMS + K.P_POINTS_PER_BLOOD]
    state[K.S_S_ACTIVE + s] = 0
    state[K.S_S_RETIRES + s] += 1
    log_nb(log, K.LG_RETIRE, state[K.S_NIGHT], s, b, pts, 0, 0)
    if rules[K.R_PARAMS + K.P_UNLIMITED] == 0 and pts > state[K.S_COFFIN_SUPPLY]:
        log_nb(log, K.LG_SUPPLY, state[K.S_NIGHT], s, 1, pts, state[K.S_COFFIN_SUPPLY], 0)
        _end_game_nb(state, K.END_COFFIN_SUPPLY, log)  # the blood still counts at the end
        return
    _lose_blood_nb(state, s)
    state[K.S_S_COFFIN + s] += pts
    state[K.S_COFFIN_SUPPLY] -= pts


@njit_nb
def _resolve_invitation_nb(state, rules, inv, moon, log):
    """Votes on the pending invitation (card type ``inv``) against the drawn ``moon``."""
    n = state[K.S_PLAYERS]
    pay = rules[K.R_TYPES + inv * K.CT_N + (K.CT_PAYOFF_HUNTING)] if moon == K.MOON_HUNTING else \
        rules[K.R_TYPES + inv * K.CT_N + (K.CT_PAYOFF)]
    total = 0
    for s in range(n):
        if state[K.S_S_ACTIVE + s] == 1 and state[K.S_S_VOTE + s] == moon:
            total += pay
    if not _take_blood_nb(state, rules, total, log):
        return
    pen = rules[K.R_TYPES + inv * K.CT_N + (K.CT_PENALTY)]
    for s in range(n):
        v = state[K.S_S_VOTE + s]
        state[K.S_S_VOTE + s] = K.VOTE_NONE
        if state[K.S_S_ACTIVE + s] == 0 or v == K.VOTE_NONE:
            continue
        if v == moon:
            state[K.S_S_BLOOD + s] += pay
            log_nb(log, K.LG_INVITE, state[K.S_NIGHT], s, v, moon, pay, 0)
        elif v == K.VOTE_REFUSED:
            log_nb(log, K.LG_INVITE, state[K.S_NIGHT], s, v, moon, 0, 0)
        else:
            log_nb(log, K.LG_INVITE, state[K.S_NIGHT], s, v, moon, 0, pen)
            if pen > 0:
                damage_nb(state, s, pen, log)


@njit_nb
def _feed_nb(state, rules, card, log):
    n = state[K.S_PLAYERS]
    v = rules[K.R_TYPES + card * K.CT_N + (K.CT_VALUE)]
    g = rules[K.R_TYPES + card * K.CT_N + (K.CT_GROUND)]
    bonus = rules[K.R_PARAMS + K.P_FAV_BONUS]
    total = 0
    for s in range(n):
        if state[K.S_S_ACTIVE + s] == 1:
            total += v * (1 + state[K.S_S_DOUBLED + s]) + (bonus if state[K.S_S_GROUND + s] == g else 0)
    if not _take_blood_nb(state, rules, total, log):
        return
    for s in range(n):
        if state[K.S_S_ACTIVE + s] == 1:
            gain = v * (1 + state[K.S_S_DOUBLED + s]) + (bonus if state[K.S_S_GROUND + s] == g else 0)
            state[K.S_S_BLOOD + s] += gain
            log_nb(log, K.LG_GAIN, state[K.S_NIGHT], s, gain, state[K.S_S_BLOOD + s],
                   state[K.S_S_DOUBLED + s], 0)
        state[K.S_S_DOUBLED + s] = 0


@njit_nb
def _slay_nb(state, rules, card, log):
    d = rules[K.R_TYPES + card * K.CT_N + (K.CT_VALUE)]
    for s in range(state[K.S_PLAYERS]):
        if state[K.S_S_ACTIVE + s] == 1 and state[K.S_S_PROTECTED + s] == 0:
            damage_nb(state, s, d, log)
        state[K.S_S_PROTECTED + s] = 0


# =========================================================================== what a seat may play
@njit_nb
def power_use_nb(state, rules, s, want):
    """True when seat ``s``'s power card acts as power kind ``want`` now (the card itself,
    or a copy of a power of that kind played face up this night)."""
    c = state[K.S_S_POWER + s]
    if c < 0:
        return False
    k = rules[K.R_POWER_KIND + c]
    if k == want:
        return True
    return k == K.PW_COPY and (state[K.S_PLAYED_MASK] >> want) & 1 == 1


@njit_nb
def event_kind_nb(state, rules, s):
    e = state[K.S_S_EVENT + s]
    return -1 if e < 0 else rules[K.R_EVENT_KIND + e]


@njit_nb
def can_react_nb(state, rules, s):
    """Seat ``s`` holds a card it may play on the card being resolved (doubling a feeding,
    protection from a slayer) and has not played one on it yet."""
    if state[K.S_S_ACTIVE + s] == 0:
        return False
    if state[K.S_REACT] == K.K_FEEDING:
        if state[K.S_S_DOUBLED + s] == 1:
            return False
        return power_use_nb(state, rules, s, K.PW_DOUBLE) or event_kind_nb(state, rules, s) == K.EV_DOUBLE
    if state[K.S_S_PROTECTED + s] == 1:
        return False
    return power_use_nb(state, rules, s, K.PW_PROTECT) or event_kind_nb(state, rules, s) == K.EV_PROTECT


@njit_nb
def can_cancel_nb(state, rules, s):
    return state[K.S_S_ACTIVE + s] == 1 and s != state[K.S_LAST_SEAT] and \
        power_use_nb(state, rules, s, K.PW_CANCEL)


@njit_nb
def can_heal_nb(state, rules, s):
    return event_kind_nb(state, rules, s) == K.EV_HEAL and \
        state[K.S_S_HEALTH + s] < state[K.S_S_MAX_HEALTH + s]


# =========================================================================== the advance loop
@njit_nb
def _draw_nb(state, rules, log):
    """The current player draws the top hunt card (lazy Fisher-Yates) and resolves it."""
    cur = state[K.S_CURRENT]
    night = state[K.S_NIGHT]
    n = state[K.S_N_HUNT]
    if n == 0:
        if rules[K.R_PARAMS + K.P_RESHUFFLE] == 1:
            n = rules[K.R_PARAMS + K.P_N_HUNT]
            for t in range(K.MAX_TYPES):
                state[K.S_TYPE_LEFT + t] = 0
            for i in range(n):
                state[K.S_TYPE_LEFT + state[K.S_HUNT + i]] += 1
            log_nb(log, K.LG_RESHUFFLE, night, cur, n, 0, 0, 0)
        else:  # variant: an empty deck means the sun rises
            _sunrise_nb(state, log)
            state[K.S_PHASE] = K.PH_END_TURN
            return
    j = randint_at_nb(state, K.S_STREAMS + K.STREAM_HUNT, n)
    card = state[K.S_HUNT + j]
    state[K.S_HUNT + j] = state[K.S_HUNT + n - 1]
    state[K.S_HUNT + n - 1] = card
    state[K.S_N_HUNT] = n - 1
    state[K.S_TYPE_LEFT + card] -= 1
    state[K.S_CARD] = card
    state[K.S_DRAWS] += 1
    log_nb(log, K.LG_DRAW, night, cur, card, 0, 0, 0)
    inv = state[K.S_PENDING]
    if inv >= 0:
        state[K.S_PENDING] = -1
        _resolve_invitation_nb(state, rules, inv, rules[K.R_TYPES + card * K.CT_N + (K.CT_MOON)], log)
        if state[K.S_OVER] == 1:
            return
    kind = rules[K.R_TYPES + card * K.CT_N + (K.CT_KIND)]
    v = rules[K.R_TYPES + card * K.CT_N + (K.CT_VALUE)]
    state[K.S_PHASE] = K.PH_AFTER_CARD
    if kind == K.K_FEEDING or kind == K.K_SLAYER:
        state[K.S_REACT] = kind
        state[K.S_SCAN] = 0
        state[K.S_PHASE] = K.PH_REACT_SCAN
    elif kind == K.K_INVITATION:
        state[K.S_SCAN] = 0
        state[K.S_PHASE] = K.PH_VOTE_SCAN
    elif kind == K.K_LINGERS:
        t = state[K.S_TRACK] - v
        state[K.S_TRACK] = t if t > 0 else 0
        log_nb(log, K.LG_TRACK, night, cur, state[K.S_TRACK], -v, 0, 0)
    elif kind == K.K_SUN:
        state[K.S_TRACK] += v
        # the bead stops on the last space: the log shows where it stands, not the sum
        log_nb(log, K.LG_TRACK, night, cur, min(state[K.S_TRACK], rules[K.R_PARAMS + K.P_TRACK]), v, 0, 0)
        if state[K.S_TRACK] >= rules[K.R_PARAMS + K.P_TRACK]:
            state[K.S_TRACK] = rules[K.R_PARAMS + K.P_TRACK]
            _sunrise_nb(state, log)
    elif kind == K.K_WEREWOLF:
        log_nb(log, K.LG_WEREWOLF, night, cur, v, 0, 0, 0)
        if state[K.S_S_ACTIVE + cur] == 1:
            damage_nb(state, cur, v, log)


@njit_nb
def _after_card_nb(state, rules, log):
    """The card is discarded (a returning card goes back into the deck); its event icon gives
    the current player an event card, even one the card put out (rulebook: Hunt Cards)."""
    card = state[K.S_CARD]
    cur = state[K.S_CURRENT]
    if rules[K.R_TYPES + card * K.CT_N + (K.CT_RETURNS)] == 1:
        state[K.S_N_HUNT] += 1  # the card sits just past the remaining cards
        state[K.S_TYPE_LEFT + card] += 1
    state[K.S_PHASE] = K.PH_END_TURN
    if rules[K.R_TYPES + card * K.CT_N + (K.CT_ICON)] == 1:
        ne = state[K.S_N_EVENTS]
        if ne > 0:
            j = randint_at_nb(state, K.S_STREAMS + K.STREAM_DECKS, ne)
            e = state[K.S_EVENTS + j]
            state[K.S_EVENTS + j] = state[K.S_EVENTS + ne - 1]
            state[K.S_EVENTS + ne - 1] = e
            state[K.S_N_EVENTS] = ne - 1
            log_nb(log, K.LG_EVENT_DRAW, state[K.S_NIGHT], cur, e, state[K.S_S_EVENT + cur], 0, 0)
            if state[K.S_S_EVENT + cur] < 0:
                state[K.S_S_EVENT + cur] = e
            else:
                state[K.S_CANDIDATE] = e
                state[K.S_DECIDER] = cur
                state[K.S_PHASE] = K.PH_KEEP


@njit_nb
def _finish_nb(state, rules, log):
    _end_game_nb(state, K.END_NIGHTS, log)


@njit_nb
def advance_nb(state, rules, log):
    """Run forced and chance steps until a player must decide or the game is over."""
    while True:
        ph = state[K.S_PHASE]
        if state[K.S_OVER] == 1 or ph < K.N_DECISION_PHASES:
            return
        n = state[K.S_PLAYERS]
        cur = state[K.S_CURRENT]
        if ph == K.PH_DRAW:
            _draw_nb(state, rules, log)
        elif ph == K.PH_REACT_SCAN:
            k = state[K.S_SCAN]
            while k < n and not can_react_nb(state, rules, (cur + k) % n):
                k += 1
            state[K.S_SCAN] = k
            if k < n:
                state[K.S_DECIDER] = (cur + k) % n
                state[K.S_PHASE] = K.PH_REACT
            else:
                if state[K.S_REACT] == K.K_FEEDING:
                    _feed_nb(state, rules, state[K.S_CARD], log)
                else:
                    _slay_nb(state, rules, state[K.S_CARD], log)
                if state[K.S_OVER] == 0:
                    state[K.S_PHASE] = K.PH_AFTER_CARD
        elif ph == K.PH_CANCEL_SCAN:
            k = state[K.S_CANCEL_SCAN]
            while k < n and not can_cancel_nb(state, rules, (cur + k) % n):
                k += 1
            state[K.S_CANCEL_SCAN] = k
            if k < n:
                state[K.S_DECIDER] = (cur + k) % n
                state[K.S_PHASE] = K.PH_CANCEL
            else:
                _close_play_nb(state, rules, log)
        elif ph == K.PH_VOTE_SCAN:
            k = state[K.S_SCAN]
            while k < n and state[K.S_S_ACTIVE + (cur + k) % n] == 0:
                k += 1
            state[K.S_SCAN] = k
            if k < n:
                state[K.S_DECIDER] = (cur + k) % n
                state[K.S_PHASE] = K.PH_VOTE
            else:
                state[K.S_PENDING] = state[K.S_CARD]
                state[K.S_PHASE] = K.PH_AFTER_CARD
        elif ph == K.PH_AFTER_CARD:
            _after_card_nb(state, rules, log)
        elif ph == K.PH_END_TURN:
            if state[K.S_SUNRISE] == 1 or n_active_nb(state) == 0:
                state[K.S_CURRENT] = (cur + 1) % n
                state[K.S_PHASE] = K.PH_NIGHT_END
            else:
                state[K.S_CURRENT] = next_active_nb(state, cur)  # the deck passes left
                state[K.S_SCAN] = 0
                state[K.S_PHASE] = K.PH_DECIDE_SCAN
        elif ph == K.PH_DECIDE_SCAN:
            k = state[K.S_SCAN]
            if state[K.S_PENDING] >= 0:  # nobody may retire before the invitation resolves
                k = n
            while k < n and state[K.S_S_ACTIVE + (cur + k) % n] == 0:
                k += 1
            state[K.S_SCAN] = k
            if k < n:
                state[K.S_DECIDER] = (cur + k) % n
                state[K.S_PHASE] = K.PH_DECIDE
            elif n_active_nb(state) == 0:
                state[K.S_PHASE] = K.PH_NIGHT_END
            else:
                if state[K.S_S_ACTIVE + cur] == 0:
                    state[K.S_CURRENT] = next_active_nb(state, cur)
                state[K.S_PHASE] = K.PH_DRAW
        elif ph == K.PH_NIGHT_END:
            state[K.S_NIGHT] += 1
            if state[K.S_NIGHT] >= rules[K.R_PARAMS + K.P_NIGHTS]:
                _finish_nb(state, rules, log)
            else:
                _start_night_nb(state, rules, log)
                state[K.S_PHASE] = K.PH_DRAW
        else:  # pragma: no cover - unknown phase
            _end_game_nb(state, K.END_STEP_CAP, log)


@njit_nb
def _open_play_nb(state, s, what, amount, ret, log):
    """Seat ``s`` played a card (``what``): other players may cancel it."""
    state[K.S_LAST_SEAT] = s
    state[K.S_LAST_WHAT] = what
    state[K.S_LAST_AMOUNT] = amount
    state[K.S_CANCEL_RETURN] = ret
    state[K.S_CANCEL_SCAN] = 0
    state[K.S_PHASE] = K.PH_CANCEL_SCAN


@njit_nb
def _close_play_nb(state, rules, log):
    """The cancel window is over: a heal that stands takes effect; back to the scan."""
    s = state[K.S_LAST_SEAT]
    if state[K.S_LAST_WHAT] == K.WHAT_HEAL:
        h = state[K.S_S_HEALTH + s] + state[K.S_LAST_AMOUNT]
        mh = state[K.S_S_MAX_HEALTH + s]
        state[K.S_S_HEALTH + s] = h if h < mh else mh
        log_nb(log, K.LG_HEAL, state[K.S_NIGHT], s, state[K.S_LAST_AMOUNT], state[K.S_S_HEALTH + s], 0, 0)
    state[K.S_LAST_WHAT] = 0
    ret = state[K.S_CANCEL_RETURN]
    state[K.S_PHASE] = ret
    if ret == K.PH_DECIDE:
        state[K.S_DECIDER] = s


# =========================================================================== decisions
@njit_nb
def legal_actions_nb(state, rules, out):
    """Legal actions of the player to move, written to ``out`` (int64, >= N_ACTIONS)."""
    if state[K.S_OVER] == 1:
        return 0
    ph = state[K.S_PHASE]
    s = state[K.S_DECIDER]
    n = 0
    if ph == K.PH_DECIDE:
        out[0] = K.A_STAY
        n = 1
        if state[K.S_PENDING] < 0:
            out[n] = K.A_RETIRE
            n += 1
        if can_heal_nb(state, rules, s):
            out[n] = K.A_HEAL
            n += 1
    elif ph == K.PH_REACT:
        out[0] = K.A_PASS
        n = 1
        want_p = K.PW_DOUBLE if state[K.S_REACT] == K.K_FEEDING else K.PW_PROTECT
        want_e = K.EV_DOUBLE if state[K.S_REACT] == K.K_FEEDING else K.EV_PROTECT
        if power_use_nb(state, rules, s, want_p):
            out[n] = K.A_PLAY_POWER
            n += 1
        if event_kind_nb(state, rules, s) == want_e:
            out[n] = K.A_PLAY_EVENT
            n += 1
    elif ph == K.PH_CANCEL:
        out[0] = K.A_PASS
        out[1] = K.A_CANCEL
        n = 2
    elif ph == K.PH_VOTE:
        out[0] = K.A_VOTE_BLOOD
        out[1] = K.A_VOTE_BLUE
        out[2] = K.A_VOTE_HUNTING
        n = 3
        rc = rules[K.R_PARAMS + K.P_REFUSE_COST]
        if state[K.S_S_BLOOD + s] >= rc and state[K.S_S_BLOOD + s] >= 1:
            out[3] = K.A_REFUSE
            n = 4
    elif ph == K.PH_KEEP:
        out[0] = K.A_KEEP_OLD
        out[1] = K.A_KEEP_NEW
        n = 2
    return n


@njit_nb
def is_legal_nb(state, rules, action):
    """True when ``action`` is among ``legal_actions_nb`` now (no allocation)."""
    if state[K.S_OVER] == 1:
        return False
    ph = state[K.S_PHASE]
    s = state[K.S_DECIDER]
    if ph == K.PH_DECIDE:
        return action == K.A_STAY or (action == K.A_RETIRE and state[K.S_PENDING] < 0) or \
            (action == K.A_HEAL and can_heal_nb(state, rules, s))
    if ph == K.PH_REACT:
        feeding = state[K.S_REACT] == K.K_FEEDING
        if action == K.A_PLAY_POWER:
            return power_use_nb(state, rules, s, K.PW_DOUBLE if feeding else K.PW_PROTECT)
        if action == K.A_PLAY_EVENT:
            return event_kind_nb(state, rules, s) == (K.EV_DOUBLE if feeding else K.EV_PROTECT)
        return action == K.A_PASS
    if ph == K.PH_CANCEL:
        return action == K.A_PASS or action == K.A_CANCEL
    if ph == K.PH_VOTE:
        if action == K.A_REFUSE:
            b = state[K.S_S_BLOOD + s]
            return b >= rules[K.R_PARAMS + K.P_REFUSE_COST] and b >= 1
        return action == K.A_VOTE_BLOOD or action == K.A_VOTE_BLUE or action == K.A_VOTE_HUNTING
    if ph == K.PH_KEEP:
        return action == K.A_KEEP_OLD or action == K.A_KEEP_NEW
    return False


@njit_nb
def apply_action_nb(state, rules, action, log):
    """Apply a legal ``action`` of the player to move, then advance to the next decision.

    Returns False (and changes nothing) when the action is not legal now.
    """
    if not is_legal_nb(state, rules, action):
        return False
    ph = state[K.S_PHASE]
    s = state[K.S_DECIDER]
    night = state[K.S_NIGHT]
    state[K.S_STEPS] += 1
    if ph == K.PH_DECIDE:
        if action == K.A_HEAL:
            e = state[K.S_S_EVENT + s]
            state[K.S_S_EVENT + s] = -1
            log_nb(log, K.LG_PLAY, night, s, K.A_HEAL, e, 0, 0)
            _open_play_nb(state, s, K.WHAT_HEAL, rules[K.R_EVENT_AMOUNT + e], K.PH_DECIDE, log)
        else:
            if action == K.A_RETIRE:
                retire_nb(state, rules, s, log)
            state[K.S_SCAN] += 1
            state[K.S_PHASE] = K.PH_DECIDE_SCAN
    elif ph == K.PH_REACT:
        state[K.S_SCAN] += 1
        state[K.S_PHASE] = K.PH_REACT_SCAN
        if action != K.A_PASS:
            what = K.WHAT_DOUBLE if state[K.S_REACT] == K.K_FEEDING else K.WHAT_PROTECT
            if what == K.WHAT_DOUBLE:
                state[K.S_S_DOUBLED + s] = 1
            else:
                state[K.S_S_PROTECTED + s] = 1
            if action == K.A_PLAY_POWER:
                c = state[K.S_S_POWER + s]
                state[K.S_S_POWER + s] = -1
                k = rules[K.R_POWER_KIND + c]
                state[K.S_PLAYED_MASK] |= np.int64(1) << k
                log_nb(log, K.LG_PLAY, night, s, action, c, k, what)
            else:
                e = state[K.S_S_EVENT + s]
                state[K.S_S_EVENT + s] = -1
                log_nb(log, K.LG_PLAY, night, s, action, e, rules[K.R_EVENT_KIND + e], what)
            _open_play_nb(state, s, what, 0, K.PH_REACT_SCAN, log)
    elif ph == K.PH_CANCEL:
        if action == K.A_PASS:
            state[K.S_CANCEL_SCAN] += 1
            state[K.S_PHASE] = K.PH_CANCEL_SCAN
        else:
            c = state[K.S_S_POWER + s]
            state[K.S_S_POWER + s] = -1
            state[K.S_PLAYED_MASK] |= np.int64(1) << rules[K.R_POWER_KIND + c]
            t = state[K.S_LAST_SEAT]
            what = state[K.S_LAST_WHAT]
            if what == K.WHAT_DOUBLE:
                state[K.S_S_DOUBLED + t] = 0
            elif what == K.WHAT_PROTECT:
                state[K.S_S_PROTECTED + t] = 0
            log_nb(log, K.LG_CANCEL, night, s, t, what, c, 0)
            state[K.S_LAST_WHAT] = 0  # void: a cancelled heal heals nothing
            _close_play_nb(state, rules, log)
    elif ph == K.PH_VOTE:
        if action == K.A_REFUSE:
            rc = rules[K.R_PARAMS + K.P_REFUSE_COST]
            state[K.S_S_BLOOD + s] -= rc
            state[K.S_BLOOD_SUPPLY] += rc
            state[K.S_S_VOTE + s] = K.VOTE_REFUSED
        else:
            state[K.S_S_VOTE + s] = action - K.A_VOTE_BLOOD
        log_nb(log, K.LG_VOTE, night, s, state[K.S_S_VOTE + s], 0, 0, 0)
        state[K.S_SCAN] += 1
        state[K.S_PHASE] = K.PH_VOTE_SCAN
    elif ph == K.PH_KEEP:
        if action == K.A_KEEP_NEW:
            state[K.S_S_EVENT + s] = state[K.S_CANDIDATE]
        state[K.S_CANDIDATE] = -1
        state[K.S_PHASE] = K.PH_END_TURN
    if state[K.S_STEPS] > K.STEP_CAP:
        _end_game_nb(state, K.END_STEP_CAP, log)
        return True
    advance_nb(state, rules, log)
    return True


# =========================================================================== records
@njit_nb
def score_nb(state, rules, s):
    """Coffin points; when the tokens ran out, blood in hand counts too (FAQ)."""
    sc = state[K.S_S_COFFIN + s]
    if state[K.S_END_CAUSE] == K.END_BLOOD_SUPPLY or state[K.S_END_CAUSE] == K.END_COFFIN_SUPPLY:
        sc += state[K.S_S_BLOOD + s] * rules[K.R_PARAMS + K.P_POINTS_PER_BLOOD]
    return sc


@njit_nb
def record_nb(state, rules, game, rec):
    """Write the finished game to ``rec`` (int64, (REC_SIZE,))."""
    n = state[K.S_PLAYERS]
    for i in range(K.REC_SIZE):
        rec[i] = 0
    rec[K.REC_GAME] = game
    rec[K.REC_PLAYERS] = n
    rec[K.REC_NIGHTS] = state[K.S_NIGHT] if state[K.S_END_CAUSE] == K.END_NIGHTS else state[K.S_NIGHT] + 1
    rec[K.REC_END_CAUSE] = state[K.S_END_CAUSE]
    rec[K.REC_DRAWS] = state[K.S_DRAWS]
    top = -1
    for s in range(n):
        sc = score_nb(state, rules, s)
        if sc > top:
            top = sc
    winners = 0
    for s in range(K.MAX_SEATS):
        if s >= n:
            rec[K.REC_CHARACTER + s] = -1
            rec[K.REC_SCORE + s] = -1
            rec[K.REC_WIN + s] = -1
            continue
        sc = score_nb(state, rules, s)
        rec[K.REC_CHARACTER + s] = state[K.S_S_CHARACTER + s]
        rec[K.REC_SCORE + s] = sc
        rec[K.REC_WIN + s] = 1 if sc == top else 0
        winners += rec[K.REC_WIN + s]
        rec[K.REC_DEATHS + s] = state[K.S_S_DEATHS + s]
        rec[K.REC_RETIRES + s] = state[K.S_S_RETIRES + s]
        rec[K.REC_LOST_SUNRISE + s] = state[K.S_S_LOST_SUNRISE + s]
        rec[K.REC_LOST_DEATH + s] = state[K.S_S_LOST_DEATH + s]
    rec[K.REC_WINNERS] = winners
    rec[K.REC_TOP_SCORE] = top
