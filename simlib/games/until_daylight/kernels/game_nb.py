"""The whole-game kernel: one jitted function plays a night of Until Daylight.

Follows the rules of ``docs/games/until-daylight.md`` (a round to the end).  State layout: see ``state_nb``.
Every decision goes through ``policies_nb.choose_nb``; every random draw comes from the
game's own streams (cards, dice, timer, policy), so a game is a pure function of
``(seed, game index, players, characters, policy, parameters, ruleset)``.

Batch entry point: ``play_range_nb`` (a range of games, one record row per game; threads
run ranges in parallel from Python).  Step-by-step play: ``advance_nb``, ``apply_action_nb``.
"""
from __future__ import annotations

import numpy as np

from simlib.core.jit import njit_alloc_nb, njit_nb
from simlib.core.rng import game_key_nb, init_streams_nb, randint_nb
from simlib.games.until_daylight.codes import (  # layout constants
    STREAM_CARDS, STREAM_DICE, STREAM_POLICY, STREAM_TIMER,
    G_RDECK_CAP, N_PARTS, PART_COLS, PART_ROLE, PART_ROWS, PART_SLOT, ROLE_POSITION, ROLE_SCRATCH,
    A_AMMO, A_ATTACK, A_COUNT, A_CRAFT, A_DISCARD, A_DRAW, A_GIVE, A_KEEP, A_NOTHING, A_PLAY,
    A_SACRIFICE, A_TAKE, A_USE, CAUSE_CHARACTER_DIED, CAUSE_NONE, CAUSE_NO_SURVIVOR,
    CAUSE_STALEMATE, CH_HEALTH, CH_WEAPON, CK_ADRENALINE, CK_DICE_BONUS, CK_ENERGY_SHOT,
    CK_EVENT_INJURY, CK_EVENT_LOST_ITEM, CK_EVENT_NOISE, CK_FOCUS, CK_HEAL, CK_LUCKY,
    CK_PICKPOCKET, CK_PROTECTION, CK_SYMBOL, C_AMMO, C_AMOUNT, C_BASIC_OF, C_COUNT, C_DICE,
    C_FIREARM, C_KIND, C_MELEE, C_NEEDS_ACTION, C_SILENT, C_STACKS, D_AMMO, D_AMOUNT, D_COMBAT_ACTION,
    D_DISCARD, D_EXTRA_ATTACK, D_KEEP, D_PICKPOCKET, D_POST_ROLL, D_PRE_ROLL, D_SACRIFICE,
    D_SEARCH_ACTION, ENEMY_INFECTED, ENEMY_RAIDER, ENEMY_SURVIVOR, EV_ATTACK, EV_BARRICADE_DOWN,
    EV_CARD_PLAYED, EV_CAUGHT, EV_COLLATERAL, EV_CRAFT, EV_DAMAGE, EV_DEATH, EV_DISCARD,
    EV_DRAW, EV_END, EV_ENEMY_ROLL, EV_EVENT, EV_EXCHANGE, EV_FATE, EV_GIVE, EV_HEAL, EV_HORDE,
    EV_IGNORED, EV_KILL, EV_NOTHING, EV_NO_CARD, EV_PROTECTION, EV_RESHUFFLE, EV_ROLL, EV_ROUND,
    EV_SACRIFICE, EV_SAVED, EV_SURVIVOR_KILLED, EV_TAKE, EV_TAME, EV_TRAP, EV_USE, EV_VIOLATION,
    E_ATTACK_DICE, E_COUNT, E_KEPT, E_KIND, E_REWARD_CARDS, E_REWARD_XP, FATE_ADD_ENEMY,
    FATE_DAMAGE, FATE_DISCARD, FATE_DRAW, FATE_HEAL, FATE_REMOVE_ENEMY, G_AREA_CAP, G_ATTACKS,
    G_BARR_SUPPLY, G_BUF_CAP, G_CAUGHT, G_CAUSE, G_CHECK, G_CUR_AREA, G_CUR_B, G_CUR_DICE,
    G_CUR_H, G_CUR_WEAPON, G_CUR_X, G_DEAD_ROUND, G_DEAD_SEAT, G_DECISIONS, G_EV_CAP,
    G_EXCHANGES, G_FINAL_E, G_FIRST, G_GAME_KEY, G_HDECK_N, G_HORDE_DRAWN, G_HORDE_RESHUFFLES,
    G_LEADER, G_LUCKY_USED, G_MODE, G_N_CARDS, G_N_ENEMIES, G_N_PLAYERS, G_OUTCOME, G_OVER,
    G_O_RNG, G_O_SCRIPT, G_O_SNAP, G_PC, G_PC_I, G_PENDING_D,
    G_PENDING_M, G_PENDING_SEAT, G_PHASE, G_RDECK_N, G_REKEY_AT, G_REKEY_KEY, G_ROUND,
    G_RUBBLE_DRAWN, G_RUBBLE_RESHUFFLES, G_SCRIPT_CAP, G_SCRIPT_N, G_SCRIPT_POS,
    G_SEARCH_ACTIONS, G_SEARCH_K, G_SIZE, G_SNAP_N, G_SUSPENDED, G_TRAP_SUPPLY, G_TURN_SEAT,
    G_VIOLATION, MAX_CANDS, MAX_ENEMY_TYPES, MAX_PLAYERS, MODE_INLINE, MODE_STEP,
    MOD_ABSORB_ADJACENT, MOD_DRAW_EXTRA, MOD_EXTRA_COLLATERAL, MOD_FREE_TRADES,
    MOD_IGNORE_DAMAGE, MOD_NO_BARRICADES, MOD_NO_GIVE, N_G, OUT_LOSS, OUT_WIN, PC_COMBAT_TURN, PC_ENEMIES, PC_EXCHANGE, PC_FINAL_END, PC_HORDE, PC_OVER,
    PC_ROUND_BEGIN, PC_SAVE, PC_SEARCH_BEGIN, PC_SEARCH_TURN, PC_TRAPS, PHASE_COMBAT,
    PHASE_ENEMIES, PHASE_FINAL, PHASE_SEARCH, PL_ABSORBED, PL_AREA_N, PL_BARRICADES, PL_CHAR,
    PL_COLLATERAL, PL_DAMAGE_TAKEN, PL_FREE_TRADES, PL_HEALTH, PL_IGNORED, PL_KILLS,
    PL_MAX_HEALTH, PL_SACRIFICED, PL_SAVED_TOTAL, PL_TRAPS, PL_XP_BONUS, P_BARRICADE_BODIES,
    P_BARRICADE_HEADS, P_BARRICADE_SUPPLY, P_BODIES_PER_DAMAGE, P_COLLATERAL_PER_X, P_DICE_CAP,
    P_HORDE_TOTAL, P_ROUNDS, P_RUBBLE_TOTAL, P_STALEMATE_CAP, P_TIMER_MIN, P_TIMER_OFFSET,
    P_TIMER_PER_PLAYER, P_TIMER_SPREAD, P_TOKEN_LIMIT, P_TRAP_HEADS, P_TRAP_SUPPLY,
    P_V_ALL_RAIDERS_FIRST, P_V_HORDE_RESHUFFLE, P_V_SURVIVORS_BLOCK, P_V_TRAP_REWARDS,
    P_WAVE_PER_PLAYER, REC_ATTACKS, REC_CAUSE, REC_CHARACTER, REC_DAMAGE, REC_DEAD_CHARACTER,
    REC_DEAD_ROUND, REC_DEAD_SEAT, REC_DECISIONS, REC_EXCHANGES, REC_GAME, REC_HEALTH,
    REC_HORDE_DRAWN, REC_HORDE_RESHUFFLES, REC_KILLED, REC_KILLS, REC_LEADER, REC_OUTCOME,
    REC_PLAYERS, REC_ROUND_REACHED, REC_RUBBLE_DRAWN, REC_SEARCH_ACTIONS, REC_SURVIVORS_SAVED,
    REC_SURVIVORS_SAVED_TOTAL, REC_VIOLATION, REC_XP, RH_N_CARDS, RH_N_ENEMIES, R_ING0, R_N,
    R_PRODUCT, SCRIPT_CAP, TOKEN_BARRICADE, TOKEN_TRAP, VIOL_AREA, VIOL_HEALTH,
    VIOL_HORDE_CONSERVATION, VIOL_INVENTORY, VIOL_NEGATIVE, VIOL_NONE, VIOL_RUBBLE_CONSERVATION,
    VIOL_TOKEN_LIMIT, VIOL_TOKEN_SUPPLY,
)
from simlib.games.until_daylight.kernels.combat_nb import (
    enemy_batch_nb,
    player_attack_area_nb,
    roll_faces_nb,
    trap_step_nb,
)
from simlib.games.until_daylight.kernels.policies_nb import choose_nb, ignores_trade_nb
from simlib.games.until_daylight.kernels.state_nb import (
    area_of, buf_of, cands_of, card_tab_of, char_tab_of, die_of, enemy_tab_of, fate_of,
    hdeck_of, hdisc_of, inv_of, kept_of, killed_of, pl_of, rdeck_of, rdisc_of, recipes_of,
    rng_of,
    char_mod_nb,
    emit_nb,
    enemies_in_area_nb,
    free_dice_nb,
    slots_nb,
    slots_used_nb,
    survivors_in_area_nb,
    targets_in_area_nb,
    tokens_nb,
    update_leader_nb,
    useful_ammo_nb,
    weapon_usable_nb,
    xp_nb,
)

MAX_FREE_ACTIONS = 16  # bound on no-action plays per turn (each consumes a card or a trade)


# =========================================================================== decks
@njit_nb
def refill_deck_nb(deck, disc):
    """Shuffle a discard pile (counts per type) back into an empty deck; return its size.

    The deck array is filled in type order: draws pick uniformly from it, so this is a
    shuffle."""
    m = 0
    for t in range(disc.shape[0]):
        for _ in range(disc[t]):
            deck[m] = t
            m += 1
        disc[t] = 0
    return m


@njit_nb
def deck_draw_nb(st, deck, n):
    """One lazy Fisher-Yates step: a uniform card of ``deck[:n]``, moved to ``deck[n-1]``."""
    j = randint_nb(rng_of(st), STREAM_CARDS, n)
    card = deck[j]
    deck[j] = deck[n - 1]
    deck[n - 1] = card
    return card


@njit_nb
def draw_horde_nb(st, rs):
    """Draw one horde card; -1 when deck and discard are empty (or reshuffling is off)."""
    if st[G_HDECK_N] == 0:
        if rs[P_V_HORDE_RESHUFFLE] == 0:
            return -1
        m = refill_deck_nb(hdeck_of(st), hdisc_of(st))
        st[G_HDECK_N] = m
        if m == 0:
            return -1
        st[G_HORDE_RESHUFFLES] += 1
        emit_nb(st, EV_RESHUFFLE, -1, 0, m, 0, 0, 0)
    card = deck_draw_nb(st, hdeck_of(st), st[G_HDECK_N])
    st[G_HDECK_N] -= 1
    st[G_HORDE_DRAWN] += 1
    return card


@njit_nb
def draw_rubble_nb(st, rs):
    """Draw one rubble card; reshuffles the discard pile when the deck is empty; -1 if none."""
    if st[G_RDECK_N] == 0:
        m = refill_deck_nb(rdeck_of(st), rdisc_of(st))
        st[G_RDECK_N] = m
        if m == 0:
            emit_nb(st, EV_NO_CARD, -1, 0, 0, 0, 0, 0)
            return -1
        st[G_RUBBLE_RESHUFFLES] += 1
        emit_nb(st, EV_RESHUFFLE, -1, 1, m, 0, 0, 0)
    card = deck_draw_nb(st, rdeck_of(st), st[G_RDECK_N])
    st[G_RDECK_N] -= 1
    st[G_RUBBLE_DRAWN] += 1
    return card


@njit_nb
def spend_card_nb(st, seat, c):
    """One card of type ``c`` leaves ``seat``'s inventory for the rubble discard pile."""
    inv_of(st)[seat, c] -= 1
    rdisc_of(st)[c] += 1


@njit_nb
def add_to_area_nb(st, seat, t):
    pl = pl_of(st)
    area_of(st)[seat, pl[seat, PL_AREA_N]] = t
    pl[seat, PL_AREA_N] += 1


# =========================================================================== damage
@njit_nb
def end_game_nb(st, outcome, cause, seat):
    g = st
    if g[G_OVER] != 0:
        return
    g[G_OVER] = 1
    g[G_OUTCOME] = outcome
    g[G_CAUSE] = cause
    if cause == CAUSE_CHARACTER_DIED:
        g[G_DEAD_SEAT] = seat
        g[G_DEAD_ROUND] = g[G_ROUND]
        emit_nb(st, EV_DEATH, seat, 0, 0, 0, 0, 0)
    emit_nb(st, EV_END, -1, outcome, cause, 0, 0, 0)


@njit_nb
def survivor_type_kept_nb(st, rs, seat):
    """A survivor type the seat keeps (-1 if none)."""
    kept = kept_of(st)
    enemy_tab = enemy_tab_of(rs)
    for t in range(kept.shape[1]):
        if kept[seat, t] > 0 and enemy_tab[t, E_KIND] == ENEMY_SURVIVOR:
            return t
    return -1


@njit_nb
def hurt_nb(st, rs, pid, pp, seat, amount, protection, from_raider):
    """Send ``amount`` damage units to ``seat``'s character, one unit at a time.

    Order per unit (rulebook: special capacities before rubble cards): the character's own
    ignore-damage ability, an adjacent player's absorb ability, a protection card (only in
    the enemies' attack, ``protection``), a saved survivor sacrificed (policy), health.
    Each unit of a raider's damage that reaches health also discards a card (policy).
    """
    g = st
    pl = pl_of(st)
    inv = inv_of(st)
    card_tab = card_tab_of(rs)
    n = g[G_N_PLAYERS]
    prot_left = 0
    for _ in range(amount):
        if g[G_OVER] != 0:
            return
        if pl[seat, PL_IGNORED] < char_mod_nb(st, rs, seat, MOD_IGNORE_DAMAGE):
            pl[seat, PL_IGNORED] += 1
            emit_nb(st, EV_IGNORED, seat, -1, 0, 0, 0, 0)
            continue
        absorbed = False
        for k in range(2):
            q = (seat + n - 1) % n if k == 0 else (seat + 1) % n
            if q != seat and pl[q, PL_ABSORBED] < char_mod_nb(st, rs, q, MOD_ABSORB_ADJACENT):
                pl[q, PL_ABSORBED] += 1
                emit_nb(st, EV_IGNORED, seat, q, 0, 0, 0, 0)
                absorbed = True
                break
        if absorbed:
            continue
        if protection:
            if prot_left > 0:
                prot_left -= 1
                continue
            used = -1
            for c in range(inv.shape[1]):
                if inv[seat, c] > 0 and card_tab[c, C_KIND] == CK_PROTECTION:
                    used = c
                    break
            if used >= 0:
                spend_card_nb(st, seat, used)
                prot_left = card_tab[used, C_AMOUNT] - 1
                emit_nb(st, EV_PROTECTION, seat, used, 0, 0, 0, 0)
                continue
        ts = survivor_type_kept_nb(st, rs, seat)
        if ts >= 0:
            cands = cands_of(st)
            cands[0, 0] = A_NOTHING
            cands[1, 0] = A_SACRIFICE
            cands[1, 1] = ts
            if decide_nb(st, rs, pid, pp, D_SACRIFICE, seat, 2) == 1:
                kept_of(st)[seat, ts] -= 1
                hdisc_of(st)[ts] += 1
                pl[seat, PL_SACRIFICED] += 1
                emit_nb(st, EV_SACRIFICE, seat, ts, 0, 0, 0, 0)
                update_leader_nb(st, rs)
                continue
        if lose_health_nb(st, seat, from_raider):
            return
        if from_raider:
            discard_choice_nb(st, rs, pid, pp, seat)


@njit_nb
def lose_health_nb(st, seat, from_raider):
    """One damage unit reaches ``seat``'s health; True when the character dies of it (the
    game is then lost)."""
    pl = pl_of(st)
    pl[seat, PL_HEALTH] -= 1
    pl[seat, PL_DAMAGE_TAKEN] += 1
    emit_nb(st, EV_DAMAGE, seat, 1, pl[seat, PL_HEALTH], from_raider, 0, 0)
    if pl[seat, PL_HEALTH] <= 0:
        end_game_nb(st, OUT_LOSS, CAUSE_CHARACTER_DIED, seat)
        return True
    return False


@njit_nb
def heal_nb(st, seat, amount):
    pl = pl_of(st)
    pl[seat, PL_HEALTH] = min(pl[seat, PL_MAX_HEALTH], pl[seat, PL_HEALTH] + amount)
    emit_nb(st, EV_HEAL, seat, amount, pl[seat, PL_HEALTH], 0, 0, 0)


# =========================================================================== cards
@njit_nb
def discard_card_nb(st, rs, seat, c):
    spend_card_nb(st, seat, c)
    emit_nb(st, EV_DISCARD, seat, c, 0, 0, 0, 0)
    if card_tab_of(rs)[c, C_KIND] == CK_SYMBOL:
        update_leader_nb(st, rs)


@njit_nb
def discard_choice_nb(st, rs, pid, pp, seat):
    """The seat discards one card of its choice (policy); nothing if it holds none."""
    inv = inv_of(st)
    cands = cands_of(st)
    m = 0
    for c in range(inv.shape[1]):
        if inv[seat, c] > 0:
            cands[m, 0] = A_DISCARD
            cands[m, 1] = c
            m += 1
    if m == 0:
        return
    i = decide_nb(st, rs, pid, pp, D_DISCARD, seat, m)
    discard_card_nb(st, rs, seat, cands[i, 1])


@njit_nb
def enforce_limit_nb(st, rs, pid, pp, seat):
    """Over the inventory limit, discard at once (not an action) until within it."""
    while slots_used_nb(st, rs, seat) > slots_nb(st, rs, seat):
        discard_choice_nb(st, rs, pid, pp, seat)


@njit_nb
def resolve_event_nb(st, rs, pid, pp, seat, c):
    """A red card resolves at once, then goes to the discard pile."""
    card_tab = card_tab_of(rs)
    k = card_tab[c, C_KIND]
    amt = card_tab[c, C_AMOUNT]
    emit_nb(st, EV_EVENT, seat, c, amt, 0, 0, 0)
    rdisc_of(st)[c] += 1
    if k == CK_EVENT_NOISE:
        for _ in range(amt):
            t = draw_horde_nb(st, rs)
            if t >= 0:
                add_to_area_nb(st, seat, t)
                emit_nb(st, EV_HORDE, seat, t, seat, 0, 0, 0)
    elif k == CK_EVENT_INJURY:
        hurt_nb(st, rs, pid, pp, seat, amt, False, False)
    elif k == CK_EVENT_LOST_ITEM:
        for _ in range(amt):
            discard_choice_nb(st, rs, pid, pp, seat)


@njit_nb
def is_event_nb(rs, c):
    k = card_tab_of(rs)[c, C_KIND]
    return k == CK_EVENT_NOISE or k == CK_EVENT_INJURY or k == CK_EVENT_LOST_ITEM


@njit_nb
def gain_card_nb(st, rs, pid, pp, seat, c):
    """A card arrives in ``seat``'s hands: events resolve, others join the inventory."""
    if c < 0:
        return
    if is_event_nb(rs, c):
        resolve_event_nb(st, rs, pid, pp, seat, c)
        return
    inv_of(st)[seat, c] += 1
    if card_tab_of(rs)[c, C_KIND] == CK_SYMBOL:
        update_leader_nb(st, rs)
    enforce_limit_nb(st, rs, pid, pp, seat)


@njit_nb
def draw_action_nb(st, rs, pid, pp, seat):
    """A draw action: look at 1 + draw_extra cards (events resolve), keep one."""
    extra = char_mod_nb(st, rs, seat, MOD_DRAW_EXTRA)
    g = st
    keep_buf = buf_of(st)[3]
    m = 0
    for _ in range(1 + max(0, extra)):
        c = draw_rubble_nb(st, rs)
        if c < 0:
            break
        emit_nb(st, EV_DRAW, seat, c, 0, 0, 0, 0)
        if is_event_nb(rs, c):
            resolve_event_nb(st, rs, pid, pp, seat, c)
            if g[G_OVER] != 0:
                for i in range(m):  # the game ended while holding looked-at cards
                    rdisc_of(st)[keep_buf[i]] += 1
                return
        else:
            keep_buf[m] = c
            m += 1
    if m == 0:
        return
    keep = 0
    if m > 1:
        cands = cands_of(st)
        for i in range(m):
            cands[i, 0] = A_KEEP
            cands[i, 1] = keep_buf[i]
        keep = decide_nb(st, rs, pid, pp, D_KEEP, seat, m)
        # the candidates' copy survives the choice; discard the others
        for i in range(m):
            if i != keep:
                rdisc_of(st)[cands[i, 1]] += 1
                emit_nb(st, EV_DISCARD, seat, cands[i, 1], 1, 0, 0, 0)
        gain_card_nb(st, rs, pid, pp, seat, cands[keep, 1])
        return
    gain_card_nb(st, rs, pid, pp, seat, keep_buf[0])


# =========================================================================== actions
@njit_nb
def can_craft_nb(st, rs, seat, r):
    recipes = recipes_of(rs)
    params = rs
    g = st
    inv = inv_of(st)
    if tokens_nb(st, seat) >= params[P_TOKEN_LIMIT]:
        return False
    prod = recipes[r, R_PRODUCT]
    if prod == TOKEN_TRAP and g[G_TRAP_SUPPLY] <= 0:
        return False
    if prod == TOKEN_BARRICADE:
        if g[G_BARR_SUPPLY] <= 0 or char_mod_nb(st, rs, seat, MOD_NO_BARRICADES) != 0:
            return False
    for j in range(recipes[r, R_N]):
        c = recipes[r, R_ING0 + j]
        need = 0
        for j2 in range(recipes[r, R_N]):
            if recipes[r, R_ING0 + j2] == c:
                need += 1
        if inv[seat, c] < need:
            return False
    return True


@njit_nb
def craft_nb(st, rs, seat, r):
    recipes = recipes_of(rs)
    g = st
    pl = pl_of(st)
    for j in range(recipes[r, R_N]):
        c = recipes[r, R_ING0 + j]
        inv_of(st)[seat, c] -= 1
        rdisc_of(st)[c] += 1
    if recipes[r, R_PRODUCT] == TOKEN_TRAP:
        g[G_TRAP_SUPPLY] -= 1
        pl[seat, PL_TRAPS] += 1
    else:
        g[G_BARR_SUPPLY] -= 1
        pl[seat, PL_BARRICADES] += 1
    emit_nb(st, EV_CRAFT, seat, recipes[r, R_PRODUCT], 0, 0, 0, 0)


@njit_nb
def transfer_nb(st, rs, pid, pp, src, dst, c, actor):
    """Move one card from ``src`` to ``dst``; of a stack (ammo), ``actor`` chooses how many
    cards (rulebook: 'he may give the amount of ammunition cards he wishes, as long as they
    are of the same nature and in the same slot'); ``actor`` -1: the whole stack."""
    inv = inv_of(st)
    k = 1
    if card_tab_of(rs)[c, C_STACKS] != 0:
        k = inv[src, c]
        if actor >= 0 and k > 1:
            cands = cands_of(st)
            m = 0
            for j in range(1, k + 1):
                if m < MAX_CANDS - 1 or j == k:  # a huge stack: 1 .. MAX_CANDS-1, and all
                    cands[m, 0] = A_COUNT
                    cands[m, 1] = j
                    m += 1
            k = cands[decide_nb(st, rs, pid, pp, D_AMOUNT, actor, m), 1]
    inv[src, c] -= k
    inv[dst, c] += k
    if card_tab_of(rs)[c, C_KIND] == CK_SYMBOL:
        update_leader_nb(st, rs)
    enforce_limit_nb(st, rs, pid, pp, dst)
    return k


@njit_nb
def attack_candidates_nb(st, rs, seat, m):
    """Append every legal attack (target area, weapon) of ``seat`` to the candidates."""
    g = st
    inv = inv_of(st)
    card_tab = card_tab_of(rs)
    cands = cands_of(st)
    n = g[G_N_PLAYERS]
    own_busy = enemies_in_area_nb(st, rs, seat) > 0
    for w in range(inv.shape[1]):
        if not weapon_usable_nb(st, rs, seat, w):
            continue
        melee = card_tab[w, C_MELEE] != 0
        if melee and free_dice_nb(st, rs, seat, w) <= 0:
            continue
        for a in range(n):
            if targets_in_area_nb(st, rs, a) == 0:
                continue
            if melee and a != seat and own_busy:
                continue
            cands[m, 0] = A_ATTACK
            cands[m, 1] = a
            cands[m, 2] = w
            m += 1
    return m


@njit_nb
def turn_candidates_nb(st, rs, seat, combat, free_only, prune_pid):
    """Legal actions of ``seat``'s turn; ``free_only`` keeps those that use no action.

    Returns ``(m, skipped)``: ``m`` candidates written; with ``prune_pid >= 0``, the
    ``skipped`` trades that policy never chooses (``policies_nb.ignores_trade_nb``) are
    counted but not written, so the policy scores fewer candidates and chooses the same
    action (``m + skipped`` is the decision's true size)."""
    g = st
    pl = pl_of(st)
    inv = inv_of(st)
    card_tab = card_tab_of(rs)
    cands = cands_of(st)
    n = g[G_N_PLAYERS]
    nc = inv.shape[1]
    free_trade = pl[seat, PL_FREE_TRADES] < char_mod_nb(st, rs, seat, MOD_FREE_TRADES)
    cands[0, 0] = A_NOTHING
    m = 1
    if not free_only:
        if combat:
            m = attack_candidates_nb(st, rs, seat, m)
        elif g[G_RDECK_N] > 0 or _rubble_left_nb(st):
            cands[m, 0] = A_DRAW
            m += 1
        for r in range(recipes_of(rs).shape[0]):
            if can_craft_nb(st, rs, seat, r):
                cands[m, 0] = A_CRAFT
                cands[m, 1] = r
                m += 1
    for c in range(nc):
        if inv[seat, c] <= 0:
            continue
        k = card_tab[c, C_KIND]
        needs = card_tab[c, C_NEEDS_ACTION] != 0
        if free_only and needs:
            continue
        if k == CK_HEAL and pl[seat, PL_HEALTH] < pl[seat, PL_MAX_HEALTH]:
            cands[m, 0] = A_USE
            cands[m, 1] = c
            m += 1
        elif k == CK_PICKPOCKET and _others_hold_cards_nb(st, seat):
            cands[m, 0] = A_USE
            cands[m, 1] = c
            m += 1
    skipped = 0
    if (not free_only) or free_trade:
        can_give = char_mod_nb(st, rs, seat, MOD_NO_GIVE) == 0
        for q in range(n):
            if q == seat:
                continue
            for c in range(nc):
                if can_give and inv[seat, c] > 0:
                    if prune_pid >= 0 and ignores_trade_nb(rs, prune_pid, A_GIVE, c):
                        skipped += 1
                    else:
                        cands[m, 0] = A_GIVE
                        cands[m, 1] = c
                        cands[m, 2] = q
                        m += 1
                if inv[q, c] > 0:
                    if prune_pid >= 0 and ignores_trade_nb(rs, prune_pid, A_TAKE, c):
                        skipped += 1
                    else:
                        cands[m, 0] = A_TAKE
                        cands[m, 1] = c
                        cands[m, 2] = q
                        m += 1
    return m, skipped


@njit_nb
def _rubble_left_nb(st):
    rdisc = rdisc_of(st)
    for c in range(rdisc.shape[0]):
        if rdisc[c] > 0:
            return True
    return False


@njit_nb
def _others_hold_cards_nb(st, seat):
    inv = inv_of(st)
    for q in range(st[G_N_PLAYERS]):
        if q != seat:
            for c in range(inv.shape[1]):
                if inv[q, c] > 0:
                    return True
    return False


@njit_nb
def is_free_nb(st, rs, seat, act, a):
    """Whether an action uses no action: a no-action card, or a free trade (Haggler)."""
    if act == A_USE:
        return card_tab_of(rs)[a, C_NEEDS_ACTION] == 0
    if act == A_GIVE or act == A_TAKE:
        return pl_of(st)[seat, PL_FREE_TRADES] < char_mod_nb(st, rs, seat, MOD_FREE_TRADES)
    return False


@njit_nb
def use_card_nb(st, rs, pid, pp, seat, c):
    card_tab = card_tab_of(rs)
    inv = inv_of(st)
    pl = pl_of(st)
    k = card_tab[c, C_KIND]
    spend_card_nb(st, seat, c)
    if k == CK_HEAL:
        emit_nb(st, EV_USE, seat, c, card_tab[c, C_AMOUNT], 0, 0, 0)
        heal_nb(st, seat, card_tab[c, C_AMOUNT])
    elif k == CK_PICKPOCKET:
        cands = cands_of(st)
        m = 0
        for q in range(st[G_N_PLAYERS]):
            if q != seat:
                for c2 in range(inv.shape[1]):
                    if inv[q, c2] > 0:
                        cands[m, 0] = A_TAKE
                        cands[m, 1] = c2
                        cands[m, 2] = q
                        m += 1
        emit_nb(st, EV_USE, seat, c, card_tab[c, C_AMOUNT], 0, 0, 0)
        pl[seat, PL_XP_BONUS] += card_tab[c, C_AMOUNT]
        if m > 0:
            i = decide_nb(st, rs, pid, pp, D_PICKPOCKET, seat, m)
            c2 = cands[i, 1]
            q = cands[i, 2]
            k2 = transfer_nb(st, rs, pid, pp, q, seat, c2, -1)  # a pickpocket takes the whole stack
            emit_nb(st, EV_TAKE, seat, c2, q, k2, 1, 0)
        update_leader_nb(st, rs)


@njit_nb
def do_action_nb(st, rs, pid, pp, seat, act, a, b):
    """Carry out one chosen turn action."""
    if act == A_DRAW:
        draw_action_nb(st, rs, pid, pp, seat)
    elif act == A_CRAFT:
        craft_nb(st, rs, seat, a)
    elif act == A_GIVE:
        k = transfer_nb(st, rs, pid, pp, seat, b, a, seat)
        emit_nb(st, EV_GIVE, seat, a, b, k, 0, 0)
    elif act == A_TAKE:
        k = transfer_nb(st, rs, pid, pp, b, seat, a, seat)
        emit_nb(st, EV_TAKE, seat, a, b, k, 0, 0)
    elif act == A_USE:
        use_card_nb(st, rs, pid, pp, seat, a)
    elif act == A_ATTACK:
        attack_nb(st, rs, pid, pp, seat, a, b)
    else:
        emit_nb(st, EV_NOTHING, seat, 0, 0, 0, 0, 0)


@njit_nb
def take_turn_nb(st, rs, pid, pp, seat, combat):
    """One player's turn: free plays (no-action cards, free trades), then one action."""
    g = st
    pl = pl_of(st)
    g[G_TURN_SEAT] = seat
    pl[seat, PL_FREE_TRADES] = 0
    decision = D_COMBAT_ACTION if combat else D_SEARCH_ACTION
    for _ in range(MAX_FREE_ACTIONS + 1):
        if g[G_OVER] != 0:
            return
        # the policy chooses here (no replayed script, no stop for a step): it need not
        # score the trades it never wants
        prune = st[G_MODE] == MODE_INLINE and st[G_SCRIPT_POS] >= st[G_SCRIPT_N]
        m, skipped = turn_candidates_nb(st, rs, seat, combat, False, pid if prune else -1)
        i = decide_of_nb(st, rs, pid, pp, decision, seat, m, m + skipped)
        cands = cands_of(st)
        act = cands[i, 0]
        a = cands[i, 1]
        b = cands[i, 2]
        free = is_free_nb(st, rs, seat, act, a)
        if free and (act == A_GIVE or act == A_TAKE):
            pl[seat, PL_FREE_TRADES] += 1
        do_action_nb(st, rs, pid, pp, seat, act, a, b)
        checkpoint_nb(st, rs)
        if not free:
            return
    # bound reached: the turn's action is spent doing nothing


# =========================================================================== attacks
@njit_nb
def kill_rewards_nb(st, rs, pid, pp, seat, area_seat, killed, k, by_trap):
    """Kills' consequences: kept cards or discard, XP, rubble draws, counts, trace."""
    enemy_tab = enemy_tab_of(rs)
    pl = pl_of(st)
    for i in range(k):
        t = killed[i]
        killed_of(st)[t] += 1
        pl[seat, PL_KILLS] += 1
        emit_nb(st, EV_KILL, seat, t, area_seat, by_trap, 0, 0)
        if enemy_tab[t, E_KIND] == ENEMY_SURVIVOR:
            hdisc_of(st)[t] += 1
            continue
        if enemy_tab[t, E_KEPT] != 0:
            kept_of(st)[seat, t] += 1
        else:
            hdisc_of(st)[t] += 1
            pl[seat, PL_XP_BONUS] += enemy_tab[t, E_REWARD_XP]
    update_leader_nb(st, rs)
    for i in range(k):
        t = killed[i]
        if enemy_tab[t, E_KIND] == ENEMY_SURVIVOR:
            continue
        for _ in range(enemy_tab[t, E_REWARD_CARDS]):
            if st[G_OVER] != 0:
                return
            c = draw_rubble_nb(st, rs)
            if c >= 0:
                emit_nb(st, EV_DRAW, seat, c, 1, 0, 0, 0)
            gain_card_nb(st, rs, pid, pp, seat, c)


@njit_nb
def tame_nb(st, rs, seat, area_seat, moved):
    """Move ``moved`` infected from the front of ``area_seat``'s area to the end of ``seat``'s."""
    area = area_of(st)
    pl = pl_of(st)
    enemy_tab = enemy_tab_of(rs)
    n = pl[area_seat, PL_AREA_N]
    w = 0
    done = 0
    for i in range(n):
        t = area[area_seat, i]
        if done < moved and enemy_tab[t, E_KIND] == ENEMY_INFECTED:
            add_to_area_nb(st, seat, t)
            done += 1
        else:
            area[area_seat, w] = t
            w += 1
    pl[area_seat, PL_AREA_N] = w
    if done > 0:
        emit_nb(st, EV_TAME, seat, area_seat, done, 0, 0, 0)


@njit_nb
def attack_nb(st, rs, pid, pp, seat, area_seat, w):
    """One attack of ``seat`` on ``area_seat``'s area with weapon ``w``, then adrenaline."""
    g = st
    pl = pl_of(st)
    inv = inv_of(st)
    params = rs
    card_tab = card_tab_of(rs)
    enemy_tab = enemy_tab_of(rs)
    cands = cands_of(st)
    cap = params[P_DICE_CAP]
    while True:
        melee = card_tab[w, C_MELEE] != 0
        dice = free_dice_nb(st, rs, seat, w)
        spent = 0
        if not melee:
            a = card_tab[w, C_AMMO]
            most = useful_ammo_nb(st, rs, seat, w)
            for i in range(most):
                cands[i, 0] = A_AMMO
                cands[i, 1] = i + 1
            # no useful ammo (none held, or the weapon's own dice reach the cap): nothing
            # to spend and no decision (cands[0] would be a stale row)
            spent = 0 if most == 0 else cands[decide_nb(st, rs, pid, pp, D_AMMO, seat, most), 1]
            inv[seat, a] -= spent
            rdisc_of(st)[a] += spent
            dice += spent * card_tab[a, C_DICE]
        # cards before the roll, while they add dice under the cap
        while dice < cap:
            cands[0, 0] = A_NOTHING
            m = 1
            for c in range(inv.shape[1]):
                if inv[seat, c] > 0 and card_tab[c, C_KIND] == CK_DICE_BONUS \
                        and (card_tab[c, C_MELEE] == 0 or melee):
                    cands[m, 0] = A_PLAY
                    cands[m, 1] = c
                    m += 1
            if m == 1:
                break
            i = decide_nb(st, rs, pid, pp, D_PRE_ROLL, seat, m)
            if cands[i, 0] != A_PLAY:
                break
            c = cands[i, 1]
            spend_card_nb(st, seat, c)
            dice += card_tab[c, C_DICE]
            emit_nb(st, EV_CARD_PLAYED, seat, c, 0, 0, 0, 0)
        dice = max(0, min(cap, dice))
        faces = buf_of(st)[2]
        h, b, x = roll_faces_nb(rng_of(st), STREAM_DICE, dice, die_of(rs), faces)
        g[G_ATTACKS] += 1
        emit_nb(st, EV_ATTACK, seat, area_seat, w, dice, spent, 0)
        emit_nb(st, EV_ROLL, seat, h, b, x, _faces_code_nb(faces, dice), 0)
        # cards after the roll
        g[G_LUCKY_USED] = 0
        while True:
            g[G_CUR_AREA] = area_seat
            g[G_CUR_WEAPON] = w
            g[G_CUR_H] = h
            g[G_CUR_B] = b
            g[G_CUR_X] = x
            g[G_CUR_DICE] = dice
            cands[0, 0] = A_NOTHING
            m = 1
            for c in range(inv.shape[1]):
                if inv[seat, c] <= 0:
                    continue
                k = card_tab[c, C_KIND]
                if (k == CK_FOCUS and b > 0) or (k == CK_ENERGY_SHOT and x > 0) \
                        or (k == CK_LUCKY and x > 0 and g[G_LUCKY_USED] == 0):
                    cands[m, 0] = A_PLAY
                    cands[m, 1] = c
                    m += 1
            if m == 1:
                break
            i = decide_nb(st, rs, pid, pp, D_POST_ROLL, seat, m)
            if cands[i, 0] != A_PLAY:
                break
            c = cands[i, 1]
            spend_card_nb(st, seat, c)
            k = card_tab[c, C_KIND]
            if k == CK_FOCUS:
                b -= 1
                h += 1
            elif k == CK_ENERGY_SHOT:
                x -= 1
                b += 1
            else:
                g[G_LUCKY_USED] = 1
                h2, b2, x2 = roll_faces_nb(rng_of(st), STREAM_DICE, x, die_of(rs), faces)
                h += h2
                b += b2
                x = x2
            emit_nb(st, EV_CARD_PLAYED, seat, c, h, b, x, 0)
        # damage
        killed = buf_of(st)[1]
        k, new_n = player_attack_area_nb(area_of(st)[area_seat], pl[area_seat, PL_AREA_N], enemy_tab,
                                         h, b, params[P_V_SURVIVORS_BLOCK], buf_of(st)[0], killed)
        pl[area_seat, PL_AREA_N] = new_n
        infected = 0
        for i in range(k):
            if enemy_tab[killed[i], E_KIND] == ENEMY_INFECTED:
                infected += 1
        # collateral before rewards: the rewards' draws reuse the scratch rows
        if not melee and area_seat != seat and x > 0:
            dmg = x * (params[P_COLLATERAL_PER_X] + char_mod_nb(st, rs, seat, MOD_EXTRA_COLLATERAL))
            pl[seat, PL_COLLATERAL] += dmg
            emit_nb(st, EV_COLLATERAL, seat, area_seat, dmg, 0, 0, 0)
        kbuf = buf_of(st)[3]
        for i in range(k):
            kbuf[i] = killed[i]
        kill_rewards_nb(st, rs, pid, pp, seat, area_seat, kbuf, k, 0)
        if g[G_OVER] != 0:
            return
        if not melee and area_seat != seat and x > 0:
            dmg = x * (params[P_COLLATERAL_PER_X] + char_mod_nb(st, rs, seat, MOD_EXTRA_COLLATERAL))
            # spec 3, default: collateral goes straight to health (no ability, protection
            # card or saved survivor stands in the way)
            for _ in range(dmg):
                if lose_health_nb(st, area_seat, False):
                    break
            if g[G_OVER] != 0:
                return
        if area_seat != seat and infected > 0 and (melee or card_tab[w, C_FIREARM] != 0) \
                and card_tab[w, C_SILENT] == 0:
            tame_nb(st, rs, seat, area_seat, infected)
        # adrenaline: one more attack with new cards
        adr = -1
        for c in range(inv.shape[1]):
            if inv[seat, c] > 0 and card_tab[c, C_KIND] == CK_ADRENALINE:
                adr = c
                break
        if adr < 0:
            return
        cands[0, 0] = A_NOTHING
        m = attack_candidates_nb(st, rs, seat, 1)
        if m == 1:
            return
        i = decide_nb(st, rs, pid, pp, D_EXTRA_ATTACK, seat, m)
        if cands[i, 0] != A_ATTACK:
            return
        area_seat = cands[i, 1]
        w = cands[i, 2]
        spend_card_nb(st, seat, adr)
        emit_nb(st, EV_CARD_PLAYED, seat, adr, 0, 0, 0, 0)


@njit_nb
def _faces_code_nb(faces, k):
    code = 0
    mult = 1
    for i in range(k):
        code += faces[i] * mult
        mult *= 3
    return code


# =========================================================================== phases
@njit_nb
def horde_release_nb(st, rs, pid, pp):
    g = st
    params = rs
    seat = g[G_CAUGHT]
    wave = params[P_WAVE_PER_PLAYER] * g[G_N_PLAYERS] + g[G_ROUND]
    fate = fate_of(rs)[randint_nb(rng_of(st), STREAM_DICE, fate_of(rs).shape[0])]
    if fate == FATE_REMOVE_ENEMY:
        wave = max(0, wave - 1)
    elif fate == FATE_ADD_ENEMY:
        wave += 1
    emit_nb(st, EV_FATE, seat, fate, wave, 0, 0, 0)
    if fate == FATE_DISCARD:
        discard_choice_nb(st, rs, pid, pp, seat)
    elif fate == FATE_DRAW:
        c = draw_rubble_nb(st, rs)
        if c >= 0:
            emit_nb(st, EV_DRAW, seat, c, 2, 0, 0, 0)
        gain_card_nb(st, rs, pid, pp, seat, c)
    elif fate == FATE_HEAL:
        heal_nb(st, seat, 1)
    elif fate == FATE_DAMAGE:
        hurt_nb(st, rs, pid, pp, seat, 1, False, False)
    if g[G_OVER] != 0:
        return
    for _ in range(wave):
        t = draw_horde_nb(st, rs)
        if t < 0:
            break
        add_to_area_nb(st, seat, t)
        emit_nb(st, EV_HORDE, seat, t, seat, 0, 0, 0)


@njit_nb
def traps_nb(st, rs, pid, pp):
    g = st
    pl = pl_of(st)
    n = g[G_N_PLAYERS]
    for i in range(n):
        s = (g[G_CAUGHT] + i) % n
        if pl[s, PL_TRAPS] <= 0 or pl[s, PL_AREA_N] == 0:
            continue
        killed = buf_of(st)[1]
        k, fired, new_n = trap_step_nb(area_of(st)[s], pl[s, PL_AREA_N], enemy_tab_of(rs), pl[s, PL_TRAPS],
                                       rs[P_TRAP_HEADS], killed)
        if fired == 0:
            continue
        pl[s, PL_AREA_N] = new_n
        pl[s, PL_TRAPS] -= fired
        g[G_TRAP_SUPPLY] += fired
        emit_nb(st, EV_TRAP, s, fired, k, 0, 0, 0)
        if k > 0:
            kbuf = buf_of(st)[3]
            for j in range(k):
                kbuf[j] = killed[j]
            if rs[P_V_TRAP_REWARDS] != 0:
                kill_rewards_nb(st, rs, pid, pp, s, s, kbuf, k, 1)
            else:
                for j in range(k):
                    killed_of(st)[kbuf[j]] += 1
                    hdisc_of(st)[kbuf[j]] += 1
                    emit_nb(st, EV_KILL, s, kbuf[j], s, 1, 0, 0)
            if g[G_OVER] != 0:
                return


@njit_nb
def remove_survivors_nb(st, rs, seat, count):
    """The first ``count`` survivors of an area die (to the horde discard pile)."""
    area = area_of(st)
    pl = pl_of(st)
    enemy_tab = enemy_tab_of(rs)
    w = 0
    done = 0
    for i in range(pl[seat, PL_AREA_N]):
        t = area[seat, i]
        if done < count and enemy_tab[t, E_KIND] == ENEMY_SURVIVOR:
            hdisc_of(st)[t] += 1
            done += 1
            emit_nb(st, EV_SURVIVOR_KILLED, seat, seat, 0, 0, 0, 0)
        else:
            area[seat, w] = t
            w += 1
    pl[seat, PL_AREA_N] = w


@njit_nb
def area_attack_nb(st, rs, pid, pp, seat, kind):
    """Enemies of ``kind`` in ``seat``'s area attack: dice pooled in card order, batches."""
    g = st
    pl = pl_of(st)
    params = rs
    enemy_tab = enemy_tab_of(rs)
    area = area_of(st)
    total = 0
    for i in range(pl[seat, PL_AREA_N]):
        t = area[seat, i]
        if enemy_tab[t, E_KIND] == kind:
            total += enemy_tab[t, E_ATTACK_DICE]
    cap = params[P_DICE_CAP]
    faces = buf_of(st)[2]
    while total > 0:
        k = min(cap, total)
        total -= k
        h, b, x = roll_faces_nb(rng_of(st), STREAM_DICE, k, die_of(rs), faces)
        emit_nb(st, EV_ENEMY_ROLL, seat, kind, h, b, x, seat)
        sk, bd, dmg = enemy_batch_nb(h, b, x, kind, survivors_in_area_nb(st, rs, seat),
                                     pl[seat, PL_BARRICADES], params[P_BARRICADE_HEADS],
                                     params[P_BARRICADE_BODIES], params[P_BODIES_PER_DAMAGE])
        if sk > 0:
            remove_survivors_nb(st, rs, seat, sk)
        if bd > 0:
            pl[seat, PL_BARRICADES] -= bd
            g[G_BARR_SUPPLY] += bd
            for _ in range(bd):
                emit_nb(st, EV_BARRICADE_DOWN, seat, 0, 0, 0, 0, 0)
        if dmg > 0:
            hurt_nb(st, rs, pid, pp, seat, dmg, True, kind == ENEMY_RAIDER)
        if g[G_OVER] != 0:
            return


@njit_nb
def save_survivors_nb(st, rs):
    """End of round: survivors alone in an area with no enemy are saved by its player."""
    g = st
    pl = pl_of(st)
    area = area_of(st)
    changed = False
    for s in range(g[G_N_PLAYERS]):
        n = pl[s, PL_AREA_N]
        if n == 0 or enemies_in_area_nb(st, rs, s) > 0:
            continue
        for i in range(n):
            kept_of(st)[s, area[s, i]] += 1
        pl[s, PL_SAVED_TOTAL] += n
        pl[s, PL_AREA_N] = 0
        emit_nb(st, EV_SAVED, s, n, 0, 0, 0, 0)
        changed = True
    if changed:
        update_leader_nb(st, rs)


@njit_nb
def enemies_on_table_nb(st, rs):
    n = 0
    for s in range(st[G_N_PLAYERS]):
        n += enemies_in_area_nb(st, rs, s)
    return n


@njit_nb
def kept_survivors_nb(st, rs):
    kept = kept_of(st)
    n = 0
    for s in range(st[G_N_PLAYERS]):
        for t in range(kept.shape[1]):
            if enemy_tab_of(rs)[t, E_KIND] == ENEMY_SURVIVOR:
                n += kept[s, t]
    return n



# =========================================================================== the engine
class Suspended(Exception):
    """Raised by ``decide_nb`` in step mode: the game stops at a decision (caught by
    ``advance_nb``; the state at that moment is the decision's position)."""


@njit_nb
def decide_nb(st, rs, pid, pp, decision, seat, m):
    """Index in ``cands_of(st)[:m]`` of the choice taken at a decision.

    One candidate: 0 at once (not a decision).  Otherwise, in order: a pending re-key
    takes effect here (a continuation sees fresh streams from this decision on); a
    choice replayed from the step's script; in step mode the game stops (``Suspended``)
    with the decision pending; else the policy chooses.
    """
    return decide_of_nb(st, rs, pid, pp, decision, seat, m, m)


@njit_nb
def decide_of_nb(st, rs, pid, pp, decision, seat, m, m_all):
    """``decide_nb`` for a decision of ``m_all`` candidates of which only the first ``m``
    were written: the others are ones policy ``pid`` never chooses (``turn_candidates_nb``
    prunes only when the policy chooses, never for a script or a step).  The decision
    counts, and a re-key takes effect, by its true size."""
    if m_all <= 1:
        return 0
    pos = st[G_SCRIPT_POS]
    if pos == st[G_REKEY_AT]:
        rekey_now_nb(st)
    if pos < st[G_SCRIPT_N]:
        st[G_SCRIPT_POS] = pos + 1
        st[G_DECISIONS] += 1
        return st[st[G_O_SCRIPT] + pos]
    if st[G_MODE] == MODE_STEP:
        st[G_PENDING_D] = decision
        st[G_PENDING_SEAT] = seat
        st[G_PENDING_M] = m
        st[G_SUSPENDED] = 1
        raise Suspended()
    st[G_DECISIONS] += 1
    return choose_nb(st, rs, pid, pp, decision, seat, m)


@njit_nb
def canonical_deck_nb(deck, n, counts):
    """Rewrite ``deck[:n]`` in card-type order (``counts``: scratch, one per type): what a
    continuation draws then depends on which cards are unseen, not on their order."""
    for t in range(counts.shape[0]):
        counts[t] = 0
    for j in range(n):
        counts[deck[j]] += 1
    j = 0
    for t in range(counts.shape[0]):
        for _ in range(counts[t]):
            deck[j] = t
            j += 1


@njit_nb
def rekey_now_nb(st):
    """Replace the game's random streams by the continuation key's; canonical unseen decks."""
    init_streams_nb(rng_of(st), np.uint64(st[G_REKEY_KEY]))
    tmp = buf_of(st)[4]  # the policies' scratch row: free between decisions
    canonical_deck_nb(hdeck_of(st), st[G_HDECK_N], tmp[:st[G_N_ENEMIES]])
    canonical_deck_nb(rdeck_of(st), st[G_RDECK_N], tmp[:st[G_N_CARDS]])
    st[G_REKEY_AT] = -1


@njit_nb
def snapshot_nb(st):
    """Step mode: the position at the start of a step; the step's script starts empty."""
    n = st[G_SNAP_N]
    o = st[G_O_SNAP]
    for i in range(n):
        st[o + i] = st[i]
    st[G_SCRIPT_N] = 0
    st[G_SCRIPT_POS] = 0


@njit_nb
def restore_nb(st):
    """Back to the step's snapshot, keeping the engine's control fields (the script is
    replayed from its first choice)."""
    mode = st[G_MODE]
    o_snap = st[G_O_SNAP]
    snap_n = st[G_SNAP_N]
    o_script = st[G_O_SCRIPT]
    script_cap = st[G_SCRIPT_CAP]
    script_n = st[G_SCRIPT_N]
    rekey_at = st[G_REKEY_AT]
    rekey_key = st[G_REKEY_KEY]
    o_policy = st[G_O_RNG] + STREAM_POLICY  # the policy's own stream is the policy's, not
    policy_stream = st[o_policy]            # the game's: choices taken since stay taken
    for i in range(snap_n):
        st[i] = st[o_snap + i]
    st[o_policy] = policy_stream
    st[G_MODE] = mode
    st[G_O_SNAP] = o_snap
    st[G_SNAP_N] = snap_n
    st[G_O_SCRIPT] = o_script
    st[G_SCRIPT_CAP] = script_cap
    st[G_SCRIPT_N] = script_n
    st[G_SCRIPT_POS] = 0
    st[G_REKEY_AT] = rekey_at
    st[G_REKEY_KEY] = rekey_key
    st[G_PENDING_D] = -1
    st[G_PENDING_SEAT] = -1
    st[G_PENDING_M] = 0
    st[G_SUSPENDED] = 0


@njit_nb
def goto_nb(st, pc, i):
    """The game moves to step ``pc`` (loop index ``i``); step mode snapshots it."""
    st[G_PC] = pc
    st[G_PC_I] = i
    if st[G_MODE] == MODE_STEP:
        snapshot_nb(st)


@njit_nb
def area_attack_order_nb(st, rs, j):
    """Seat and enemy kind of the ``j``-th of the ``2n`` area attacks of an exchange."""
    n = st[G_N_PLAYERS]
    if rs[P_V_ALL_RAIDERS_FIRST] != 0:
        return (st[G_CAUGHT] + j % n) % n, ENEMY_RAIDER if j < n else ENEMY_INFECTED
    return (st[G_CAUGHT] + j // 2) % n, ENEMY_RAIDER if j % 2 == 0 else ENEMY_INFECTED


@njit_nb
def step_nb(st, rs, pid, pp):
    """Play the step the game stands at (``st[G_PC]``) and move to the next one.

    A round: ROUND_BEGIN (abilities reset) -> SEARCH_BEGIN (timer) -> SEARCH_TURN x K -> HORDE ->
    EXCHANGE -> COMBAT_TURN x n -> TRAPS -> ENEMIES x 2n -> SAVE -> next round.  Round
    ``rounds`` is the final fight: EXCHANGE repeats until no enemy is left (or the
    stalemate cap), then FINAL_END decides the game.
    """
    pc = st[G_PC]
    i = st[G_PC_I]
    n = st[G_N_PLAYERS]
    final = st[G_ROUND] >= rs[P_ROUNDS]
    if pc == PC_ROUND_BEGIN:
        st[G_ROUND] += 1
        reset_round_abilities_nb(st)
        goto_nb(st, PC_SEARCH_BEGIN, 0)
    elif pc == PC_SEARCH_BEGIN:
        spread = rs[P_TIMER_SPREAD]
        k = rs[P_TIMER_PER_PLAYER] * n + rs[P_TIMER_OFFSET]
        if spread > 0:
            k += randint_nb(rng_of(st), STREAM_TIMER, 2 * spread + 1) - spread
        k = max(rs[P_TIMER_MIN], k)
        st[G_SEARCH_K] = k
        st[G_PHASE] = PHASE_SEARCH
        emit_nb(st, EV_ROUND, st[G_FIRST], st[G_FIRST], k, 0, 0, 0)
        goto_nb(st, PC_SEARCH_TURN, 0)
    elif pc == PC_SEARCH_TURN:
        if i < st[G_SEARCH_K]:
            take_turn_nb(st, rs, pid, pp, (st[G_FIRST] + i) % n, False)
            st[G_SEARCH_ACTIONS] += 1
            goto_nb(st, PC_SEARCH_TURN, i + 1)
        else:
            st[G_CAUGHT] = (st[G_FIRST] + i) % n
            emit_nb(st, EV_CAUGHT, st[G_CAUGHT], 0, 0, 0, 0, 0)
            goto_nb(st, PC_HORDE, 0)
    elif pc == PC_HORDE:
        horde_release_nb(st, rs, pid, pp)
        checkpoint_nb(st, rs)
        if final:
            st[G_PHASE] = PHASE_FINAL
            st[G_FINAL_E] = 0
        goto_nb(st, PC_EXCHANGE, 0)
    elif pc == PC_EXCHANGE:
        if final:
            e = st[G_FINAL_E]
            if e >= rs[P_STALEMATE_CAP] or enemies_on_table_nb(st, rs) == 0:
                goto_nb(st, PC_FINAL_END, 0)
                return
            st[G_EXCHANGES] = e + 1
            emit_nb(st, EV_EXCHANGE, -1, e + 1, 0, 0, 0, 0)
            if e > 0:
                reset_round_abilities_nb(st)  # each exchange is a round for per-round abilities
        st[G_PHASE] = PHASE_COMBAT
        goto_nb(st, PC_COMBAT_TURN, 0)
    elif pc == PC_COMBAT_TURN:
        take_turn_nb(st, rs, pid, pp, (st[G_CAUGHT] + i) % n, True)
        if i + 1 < n:
            goto_nb(st, PC_COMBAT_TURN, i + 1)
        else:
            goto_nb(st, PC_TRAPS, 0)
    elif pc == PC_TRAPS:
        traps_nb(st, rs, pid, pp)
        checkpoint_nb(st, rs)
        st[G_PHASE] = PHASE_ENEMIES
        goto_nb(st, PC_ENEMIES, 0)
    elif pc == PC_ENEMIES:
        seat, kind = area_attack_order_nb(st, rs, i)
        area_attack_nb(st, rs, pid, pp, seat, kind)
        if i + 1 < 2 * n:
            goto_nb(st, PC_ENEMIES, i + 1)
        else:
            checkpoint_nb(st, rs)
            goto_nb(st, PC_SAVE, 0)
    elif pc == PC_SAVE:
        save_survivors_nb(st, rs)
        checkpoint_nb(st, rs)
        if final:
            st[G_FINAL_E] += 1
            goto_nb(st, PC_EXCHANGE, 0)
        else:
            st[G_FIRST] = (st[G_CAUGHT] + 1) % n
            goto_nb(st, PC_ROUND_BEGIN, 0)
    elif pc == PC_FINAL_END:
        if enemies_on_table_nb(st, rs) > 0:
            end_game_nb(st, OUT_LOSS, CAUSE_STALEMATE, -1)
        else:
            save_survivors_nb(st, rs)
            if kept_survivors_nb(st, rs) > 0:
                end_game_nb(st, OUT_WIN, CAUSE_NONE, -1)
            else:
                end_game_nb(st, OUT_LOSS, CAUSE_NO_SURVIVOR, -1)


@njit_nb
def run_nb(st, rs, pid, pp, stop_pc):
    """Play steps until the game ends or reaches step ``stop_pc`` (``PC_OVER``: the end)."""
    while st[G_OVER] == 0 and st[G_PC] != stop_pc:
        step_nb(st, rs, pid, pp)
    if st[G_OVER] != 0:
        st[G_PC] = PC_OVER


@njit_nb
def run_steps_nb(st, rs, pid, pp, pc, stop_pc):
    """From step ``pc`` (loop index 0), play until step ``stop_pc`` or the end (scenario
    tests: one phase of a hand-made position)."""
    st[G_PC] = pc
    st[G_PC_I] = 0
    run_nb(st, rs, pid, pp, stop_pc)


@njit_nb
def advance_nb(st, rs, pid, pp):
    """Step mode: play until the next decision; 1 if one is pending, 0 if the game is over."""
    try:
        run_nb(st, rs, pid, pp, PC_OVER)
    except Exception:  # Suspended: the only exception the engine raises
        pass
    return st[G_SUSPENDED]


@njit_nb
def apply_action_nb(st, rs, pid, pp, i):
    """Take candidate ``i`` of the pending decision and play on to the next decision.

    Returns 1 (a decision is pending), 0 (the game is over), or a negative error: -1 no
    decision pending, -2 ``i`` out of range, -3 the step's script is full.
    """
    if st[G_SUSPENDED] == 0:
        return -1
    if i < 0 or i >= st[G_PENDING_M]:
        return -2
    k = st[G_SCRIPT_N]
    if k >= st[G_SCRIPT_CAP]:
        return -3
    st[st[G_O_SCRIPT] + k] = i
    st[G_SCRIPT_N] = k + 1
    restore_nb(st)
    return advance_nb(st, rs, pid, pp)


@njit_nb
def finish_nb(st, rs, pid, pp, stop_pc):
    """Play on with the policy choosing (from the pending decision, if any) until the
    game ends or reaches ``stop_pc``."""
    st[G_MODE] = MODE_INLINE
    if st[G_SUSPENDED] != 0:
        restore_nb(st)
    run_nb(st, rs, pid, pp, stop_pc)


@njit_nb
def set_rekey_nb(st, key):
    """A continuation of this state draws from ``key``'s streams from the pending decision
    on (at once if none is pending), with the unseen decks in canonical order."""
    st[G_REKEY_KEY] = key
    if st[G_SUSPENDED] != 0:
        st[G_REKEY_AT] = st[G_SCRIPT_N]
    else:
        st[G_REKEY_AT] = -1
        rekey_now_nb(st)


# =========================================================================== invariants
@njit_nb
def invariant_violation_nb(st, rs):
    """First invariant the state breaks (``VIOL_*``), or ``VIOL_NONE``."""
    pl = pl_of(st)
    inv = inv_of(st)
    n = st[G_N_PLAYERS]
    rub = st[G_RDECK_N]
    rdisc = rdisc_of(st)
    neg = st[G_RDECK_N] < 0 or st[G_HDECK_N] < 0
    for c in range(rdisc.shape[0]):
        rub += rdisc[c]
        neg = neg or rdisc[c] < 0
    hor = st[G_HDECK_N]
    hdisc = hdisc_of(st)
    kept = kept_of(st)
    for t in range(hdisc.shape[0]):
        hor += hdisc[t]
        neg = neg or hdisc[t] < 0
    traps = 0
    barrs = 0
    for s in range(n):
        for c in range(inv.shape[1]):
            rub += inv[s, c]
            neg = neg or inv[s, c] < 0
        hor += pl[s, PL_AREA_N]
        neg = neg or pl[s, PL_AREA_N] < 0
        for t in range(kept.shape[1]):
            hor += kept[s, t]
            neg = neg or kept[s, t] < 0
        traps += pl[s, PL_TRAPS]
        barrs += pl[s, PL_BARRICADES]
        if pl[s, PL_TRAPS] < 0 or pl[s, PL_BARRICADES] < 0 or tokens_nb(st, s) > rs[P_TOKEN_LIMIT]:
            return VIOL_TOKEN_LIMIT
        if slots_used_nb(st, rs, s) > slots_nb(st, rs, s):
            return VIOL_INVENTORY
        h = pl[s, PL_HEALTH]
        if h < 0 or h > pl[s, PL_MAX_HEALTH] or (h == 0 and st[G_OVER] == 0):
            return VIOL_HEALTH
        if pl[s, PL_AREA_N] > st[G_AREA_CAP]:
            return VIOL_AREA
    if neg:  # before the sums: a negative count can balance a card from nowhere
        return VIOL_NEGATIVE
    if rub != rs[P_RUBBLE_TOTAL]:
        return VIOL_RUBBLE_CONSERVATION
    if hor != rs[P_HORDE_TOTAL]:
        return VIOL_HORDE_CONSERVATION
    if traps + st[G_TRAP_SUPPLY] != rs[P_TRAP_SUPPLY] or st[G_TRAP_SUPPLY] < 0 \
            or barrs + st[G_BARR_SUPPLY] != rs[P_BARRICADE_SUPPLY] or st[G_BARR_SUPPLY] < 0:
        return VIOL_TOKEN_SUPPLY
    return VIOL_NONE


@njit_nb
def checkpoint_nb(st, rs):
    """With checks on, record the first invariant violation (tests run games this way)."""
    if st[G_CHECK] == 0 or st[G_VIOLATION] != 0:
        return
    v = invariant_violation_nb(st, rs)
    if v != VIOL_NONE:
        st[G_VIOLATION] = v
        emit_nb(st, EV_VIOLATION, -1, v, 0, 0, 0, 0)


# =========================================================================== a game
@njit_nb
def reset_round_abilities_nb(st):
    """Per-round abilities (ignore the first damage, absorb for a neighbour) are fresh."""
    pl = pl_of(st)
    for s in range(st[G_N_PLAYERS]):
        pl[s, PL_IGNORED] = 0
        pl[s, PL_ABSORBED] = 0


@njit_alloc_nb
def new_state_nb(rs, ev_cap):
    """A zeroed game state (one int64 array, layout in ``state_nb``) with ``ev_cap`` trace rows."""
    st = np.empty(init_state_nb(rs, ev_cap, np.empty(0, dtype=np.int64)), dtype=np.int64)
    init_state_nb(rs, ev_cap, st)
    return st


@njit_nb
def _layout_dim_nb(d, nc, ne, area_cap, ev_cap, buf_cap, rdeck_cap, snap_n):
    """Value of a ``codes.STATE_PARTS`` dimension for a state being laid out: a constant,
    or the size a head slot will hold."""
    if d < 0:
        return -d
    if d == G_N_CARDS:
        return nc
    if d == G_N_ENEMIES:
        return ne
    if d == G_AREA_CAP:
        return area_cap
    if d == G_EV_CAP:
        return ev_cap
    if d == G_BUF_CAP:
        return buf_cap
    if d == G_RDECK_CAP:
        return rdeck_cap
    if d == G_SNAP_N:
        return snap_n
    if d == G_SCRIPT_CAP:
        return SCRIPT_CAP
    raise ValueError("codes.STATE_PARTS names a dimension init_state_nb does not set")


@njit_nb
def _part_size_nb(k, nc, ne, area_cap, ev_cap, buf_cap, rdeck_cap, snap_n):
    """Entries of part ``k`` of ``codes.STATE_PARTS`` (rows x columns)."""
    return _layout_dim_nb(PART_ROWS[k], nc, ne, area_cap, ev_cap, buf_cap, rdeck_cap, snap_n) \
        * _layout_dim_nb(PART_COLS[k], nc, ne, area_cap, ev_cap, buf_cap, rdeck_cap, snap_n)


@njit_nb
def init_state_nb(rs, ev_cap, st):
    """Lay out and zero a game state in ``st`` from ``codes.STATE_PARTS`` (any length when
    it is empty: then only the length is returned).  Returns the state's length."""
    nc = rs[RH_N_CARDS]
    ne = rs[RH_N_ENEMIES]
    area_cap = rs[P_HORDE_TOTAL] + 1
    buf_cap = max(rs[P_HORDE_TOTAL], rs[P_RUBBLE_TOTAL], MAX_CANDS) + 8
    rdeck_cap = rs[P_RUBBLE_TOTAL] + 1
    # the position (the head and the parts before the first non-position part) is what a
    # step snapshots and a continuation clones
    snap_n = N_G
    for k in range(N_PARTS):
        if PART_ROLE[k] != ROLE_POSITION:
            break
        snap_n += _part_size_nb(k, nc, ne, area_cap, ev_cap, buf_cap, rdeck_cap, 0)
    total = N_G
    for k in range(N_PARTS):
        total += _part_size_nb(k, nc, ne, area_cap, ev_cap, buf_cap, rdeck_cap, snap_n)
    if st.shape[0] == 0:
        return total
    # scratch parts (candidates, buffers, snapshot, script) are always written before they
    # are read: only the rest is zeroed (a game's state is ~60 kB, mostly scratch)
    st[:N_G] = 0
    o = N_G
    for k in range(N_PARTS):
        n = _part_size_nb(k, nc, ne, area_cap, ev_cap, buf_cap, rdeck_cap, snap_n)
        st[PART_SLOT[k]] = o
        if PART_ROLE[k] != ROLE_SCRATCH:
            st[o:o + n] = 0
        o += n
    st[G_SNAP_N] = snap_n
    st[G_SCRIPT_CAP] = SCRIPT_CAP
    st[G_REKEY_AT] = -1
    st[G_PENDING_D] = -1
    st[G_PENDING_SEAT] = -1
    st[G_N_CARDS] = nc
    st[G_N_ENEMIES] = ne
    st[G_AREA_CAP] = area_cap
    st[G_EV_CAP] = ev_cap
    st[G_BUF_CAP] = buf_cap
    st[G_RDECK_CAP] = rdeck_cap
    st[G_SIZE] = total
    return total


@njit_nb
def setup_nb(st, rs, seed, game, n_players, chars):
    """Seats, characters (given, or drawn without duplicates when ``chars[0] < 0``), basic
    weapons, decks with the unpicked basic weapons shuffled into the rubble deck."""
    g = st
    pl = pl_of(st)
    inv = inv_of(st)
    params = rs
    card_tab = card_tab_of(rs)
    enemy_tab = enemy_tab_of(rs)
    char_tab = char_tab_of(rs)
    key = game_key_nb(seed, game)
    init_streams_nb(rng_of(st), key)
    st[G_GAME_KEY] = np.int64(key)
    g[G_N_PLAYERS] = n_players
    g[G_LEADER] = -1
    g[G_DEAD_SEAT] = -1
    g[G_DEAD_ROUND] = -1
    g[G_TRAP_SUPPLY] = params[P_TRAP_SUPPLY]
    g[G_BARR_SUPPLY] = params[P_BARRICADE_SUPPLY]
    nch = char_tab.shape[0]
    pool = buf_of(st)[0]
    for c in range(nch):
        pool[c] = c
    for s in range(n_players):
        if chars[0] < 0:
            j = s + randint_nb(rng_of(st), STREAM_CARDS, nch - s)
            tmp = pool[s]
            pool[s] = pool[j]
            pool[j] = tmp
            c = pool[s]
        else:
            c = chars[s]
        pl[s, PL_CHAR] = c
        pl[s, PL_HEALTH] = char_tab[c, CH_HEALTH]
        pl[s, PL_MAX_HEALTH] = char_tab[c, CH_HEALTH]
        inv[s, char_tab[c, CH_WEAPON]] += 1
    for s in range(n_players, MAX_PLAYERS):
        pl[s, PL_CHAR] = -1
    m = 0
    rdeck = rdeck_of(st)
    for c in range(card_tab.shape[0]):
        k = card_tab[c, C_COUNT]
        owner = card_tab[c, C_BASIC_OF]
        if owner >= 0:
            picked = False
            for s in range(n_players):
                if pl[s, PL_CHAR] == owner:
                    picked = True
            k = 0 if picked else 1
        for _ in range(k):
            rdeck[m] = c
            m += 1
    g[G_RDECK_N] = m
    m = 0
    hdeck = hdeck_of(st)
    for t in range(enemy_tab.shape[0]):
        for _ in range(enemy_tab[t, E_COUNT]):
            hdeck[m] = t
            m += 1
    g[G_HDECK_N] = m


@njit_alloc_nb(entry=True)
def play_game_nb(rs, seed, game, n_players, chars, pid, pp, ev_cap, check, rec):
    """Play one whole game; write its record into ``rec`` (int64, N_REC); return its state
    (``ev_of(state)[:state[G_EV_N]]`` are the trace events when ``ev_cap > 0``).  With
    ``check`` the invariants are checked after every step (record field ``violation``)."""
    st = new_game_nb(rs, seed, game, n_players, chars, ev_cap, check, MODE_INLINE)
    run_nb(st, rs, pid, pp, PC_OVER)
    write_record_nb(st, rs, game, rec)
    return st


@njit_alloc_nb
def new_game_nb(rs, seed, game, n_players, chars, ev_cap, check, mode):
    """A new game at its first step (round 1 begins), in ``mode`` (``MODE_*``)."""
    st = new_state_nb(rs, ev_cap)
    start_game_nb(st, rs, seed, game, n_players, chars, check, mode)
    return st


@njit_nb
def start_game_nb(st, rs, seed, game, n_players, chars, check, mode):
    """Set up game ``game`` in an allocated state ``st`` (laid out by ``init_state_nb``)."""
    st[G_CHECK] = check
    st[G_MODE] = mode
    setup_nb(st, rs, seed, game, n_players, chars)
    checkpoint_nb(st, rs)
    goto_nb(st, PC_ROUND_BEGIN, 0)


@njit_nb
def write_record_nb(st, rs, game, rec):
    g = st
    pl = pl_of(st)
    n = g[G_N_PLAYERS]
    rec[:] = 0
    rec[REC_GAME] = game
    rec[REC_PLAYERS] = n
    rec[REC_OUTCOME] = g[G_OUTCOME]
    rec[REC_CAUSE] = g[G_CAUSE]
    rec[REC_ROUND_REACHED] = g[G_ROUND]
    rec[REC_DEAD_SEAT] = g[G_DEAD_SEAT]
    rec[REC_DEAD_CHARACTER] = pl[g[G_DEAD_SEAT], PL_CHAR] if g[G_DEAD_SEAT] >= 0 else -1
    rec[REC_DEAD_ROUND] = g[G_DEAD_ROUND]
    rec[REC_SURVIVORS_SAVED] = kept_survivors_nb(st, rs)
    tot = 0
    for s in range(n):
        tot += pl[s, PL_SAVED_TOTAL]
    rec[REC_SURVIVORS_SAVED_TOTAL] = tot
    rec[REC_LEADER] = g[G_LEADER]
    rec[REC_RUBBLE_DRAWN] = g[G_RUBBLE_DRAWN]
    rec[REC_HORDE_DRAWN] = g[G_HORDE_DRAWN]
    rec[REC_EXCHANGES] = g[G_EXCHANGES]
    rec[REC_SEARCH_ACTIONS] = g[G_SEARCH_ACTIONS]
    rec[REC_ATTACKS] = g[G_ATTACKS]
    rec[REC_HORDE_RESHUFFLES] = g[G_HORDE_RESHUFFLES]
    checkpoint_nb(st, rs)
    rec[REC_VIOLATION] = g[G_VIOLATION]
    rec[REC_DECISIONS] = g[G_DECISIONS]
    for s in range(MAX_PLAYERS):
        if s < n:
            rec[REC_CHARACTER + s] = pl[s, PL_CHAR]
            rec[REC_DAMAGE + s] = pl[s, PL_DAMAGE_TAKEN]
            rec[REC_XP + s] = xp_nb(st, rs, s)
            rec[REC_KILLS + s] = pl[s, PL_KILLS]
            rec[REC_HEALTH + s] = pl[s, PL_HEALTH]
        else:
            rec[REC_CHARACTER + s] = -1
            rec[REC_DAMAGE + s] = -1
            rec[REC_XP + s] = -1
            rec[REC_KILLS + s] = -1
            rec[REC_HEALTH + s] = -1
    killed = killed_of(st)
    for t in range(min(killed.shape[0], MAX_ENEMY_TYPES)):
        rec[REC_KILLED + t] = killed[t]


@njit_alloc_nb(entry=True)
def play_range_nb(rs, seed, start, n_players, chars, pid, pp, check, out, lo, hi):
    """Play games ``start + lo .. start + hi - 1``; game ``start + i`` writes ``out[i]``.

    ``n_players`` (int64, (n,)) and ``chars`` (int64, (n, MAX_PLAYERS); row ``[-1, ...]``
    draws a random team) give each game's table.  Each game's randomness depends only on
    ``(seed, start + i)``, so results do not depend on how a batch is split over threads
    (``api.run_kernel`` runs ranges on threads: the kernel releases the GIL).  One state
    is allocated per call and laid out anew for each game.  ``check`` turns the
    invariant checks on (tests).
    """
    if hi <= lo:
        return
    st = new_state_nb(rs, 0)
    for i in range(lo, hi):
        init_state_nb(rs, 0, st)
        start_game_nb(st, rs, seed, start + i, n_players[i], chars[i], check, MODE_INLINE)
        run_nb(st, rs, pid, pp, PC_OVER)
        write_record_nb(st, rs, start + i, out[i])
