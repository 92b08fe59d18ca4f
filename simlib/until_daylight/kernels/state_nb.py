"""Game-state layout and read-only helpers shared by the game kernel and the policies.

A game's whole state is the tuple ``st`` and the packed ruleset is the tuple ``rs``;
both are passed to every kernel so that a policy sees exactly what the game kernel sees.

``st`` (index: array, dtype, shape)
    0 g       int64  (N_G,)                   scalars, ``G_*``
    1 pl      int64  (MAX_PLAYERS, N_PL)      per seat, ``PL_*``
    2 inv     int64  (MAX_PLAYERS, n_cards)   cards held per seat and card type
    3 area    int64  (MAX_PLAYERS, cap)       horde cards in each seat's area, left to right
    4 kept    int64  (MAX_PLAYERS, n_enemies) horde cards kept (Monsters killed, survivors saved)
    5 hdeck   int64  (cap,)                   horde deck; ``hdeck[:g[G_HDECK_N]]`` undrawn
    6 hdisc   int64  (n_enemies,)             horde discard pile, counts per type
    7 rdeck   int64  (rubble_total,)          rubble deck; ``rdeck[:g[G_RDECK_N]]`` undrawn
    8 rdisc   int64  (n_cards,)               rubble discard pile, counts per type
    9 rng     uint64 (N_STREAMS,)             per-game random streams
    10 ev     int64  (ev_cap, N_EV_COLS)      trace events (capacity 0: tracing off)
    11 cands  int64  (MAX_CANDS, N_CAND_COLS) candidates of the decision being taken
    12 buf    int64  (5, cap)                 scratch rows: target line, killed, faces, misc, policy
    13 killed int64  (n_enemies,)             enemies eliminated this game, per type

``rs`` = ``(params, card_tab, enemy_tab, char_tab, die_faces, fate_faces, recipes)`` as
packed by ``simlib.until_daylight.ruleset`` (layouts in ``codes``).
"""
from __future__ import annotations

from simlib.core.jit import njit_nb
from simlib.until_daylight.codes import (
    C_AMMO,
    C_AMOUNT,
    C_BASIC_OF,
    C_DICE,
    C_FIREARM,
    C_KIND,
    C_MELEE,
    C_STACKS,
    C_WEAPON_BONUS,
    CH_ADV_AMOUNT,
    CH_ADV_KIND,
    CH_DRAW_AMOUNT,
    CH_DRAW_KIND,
    CH_SLOTS,
    CK_SYMBOL,
    CK_WEAPON,
    E_ATTACK_DICE,
    E_KIND,
    E_REWARD_XP,
    ENEMY_SURVIVOR,
    EV_LEADER,
    G_EV_N,
    G_LEADER,
    G_N_PLAYERS,
    G_ROUND,
    MOD_DISTANCE_DICE,
    MOD_MELEE_DICE,
    MOD_NO_FIREARMS,
    P_DICE_CAP,
    P_SURVIVOR_XP,
    P_V_SURVIVORS_BLOCK,
    PL_AREA_N,
    PL_BARRICADES,
    PL_TRAPS,
    PL_CHAR,
    PL_MAX_XP,
    PL_XP_BONUS,
)


@njit_nb
def emit_nb(st, kind, seat, a, b, c, d, e):
    """Append one trace event (no-op when the trace buffer has capacity 0 or is full)."""
    ev = st[10]
    if ev.shape[0] == 0:
        return
    g = st[0]
    i = g[G_EV_N]
    if i >= ev.shape[0]:
        return
    ev[i, 0] = kind
    ev[i, 1] = g[G_ROUND]
    ev[i, 2] = seat
    ev[i, 3] = a
    ev[i, 4] = b
    ev[i, 5] = c
    ev[i, 6] = d
    ev[i, 7] = e
    g[G_EV_N] = i + 1


@njit_nb
def char_mod_nb(st, rs, seat, mod):
    """Value of modifier ``mod`` for the character in ``seat``: advantage (doubled while
    leader) plus drawback."""
    g = st[0]
    pl = st[1]
    char_tab = rs[3]
    c = pl[seat, PL_CHAR]
    v = 0
    if char_tab[c, CH_ADV_KIND] == mod:
        a = char_tab[c, CH_ADV_AMOUNT]
        if g[G_LEADER] == seat:
            a *= 2
        v += a
    if char_tab[c, CH_DRAW_KIND] == mod:
        v += char_tab[c, CH_DRAW_AMOUNT]
    return v


@njit_nb
def slots_used_nb(st, rs, seat):
    """Inventory slots used: one per card, one per stack for stacking cards (ammo)."""
    inv = st[2]
    card_tab = rs[1]
    n = 0
    for c in range(inv.shape[1]):
        k = inv[seat, c]
        if k > 0:
            if card_tab[c, C_STACKS] != 0:
                n += 1
            else:
                n += k
    return n


@njit_nb
def slots_nb(st, rs, seat):
    return rs[3][st[1][seat, PL_CHAR], CH_SLOTS]


@njit_nb
def cards_held_nb(st, seat):
    inv = st[2]
    n = 0
    for c in range(inv.shape[1]):
        n += inv[seat, c]
    return n


@njit_nb
def xp_nb(st, rs, seat):
    """XP of a seat: symbols held, kept horde cards (Monsters, survivors), permanent bonus."""
    pl = st[1]
    inv = st[2]
    kept = st[4]
    params = rs[0]
    card_tab = rs[1]
    enemy_tab = rs[2]
    x = pl[seat, PL_XP_BONUS]
    for c in range(inv.shape[1]):
        if card_tab[c, C_KIND] == CK_SYMBOL:
            x += inv[seat, c] * card_tab[c, C_AMOUNT]
    for t in range(kept.shape[1]):
        if enemy_tab[t, E_KIND] == ENEMY_SURVIVOR:
            x += kept[seat, t] * params[P_SURVIVOR_XP]
        else:
            x += kept[seat, t] * enemy_tab[t, E_REWARD_XP]
    return x


@njit_nb
def update_leader_nb(st, rs):
    """The leader changes only to a seat with strictly more XP than the current leader."""
    g = st[0]
    pl = st[1]
    n = g[G_N_PLAYERS]
    cur = g[G_LEADER]
    best = 0
    if cur >= 0:
        best = xp_nb(st, rs, cur)
    new = -1
    for s in range(n):
        x = xp_nb(st, rs, s)
        if x > pl[s, PL_MAX_XP]:
            pl[s, PL_MAX_XP] = x
        if x > best:
            best = x
            new = s
    if new >= 0 and new != cur:
        g[G_LEADER] = new
        emit_nb(st, EV_LEADER, new, new, best, 0, 0, 0)


@njit_nb
def survivors_in_area_nb(st, rs, seat):
    area = st[3]
    pl = st[1]
    enemy_tab = rs[2]
    n = 0
    for i in range(pl[seat, PL_AREA_N]):
        if enemy_tab[area[seat, i], E_KIND] == ENEMY_SURVIVOR:
            n += 1
    return n


@njit_nb
def enemies_in_area_nb(st, rs, seat):
    """Horde cards in the area that are enemies (not survivors)."""
    return st[1][seat, PL_AREA_N] - survivors_in_area_nb(st, rs, seat)


@njit_nb
def targets_in_area_nb(st, rs, seat):
    """Cards a player attack can hit: enemies, plus survivors in the blocking variant."""
    if rs[0][P_V_SURVIVORS_BLOCK] != 0:
        return st[1][seat, PL_AREA_N]
    return enemies_in_area_nb(st, rs, seat)


@njit_nb
def area_threat_nb(st, rs, seat):
    """Attack dice of the enemies in an area (a policy's measure of danger)."""
    area = st[3]
    enemy_tab = rs[2]
    d = 0
    for i in range(st[1][seat, PL_AREA_N]):
        d += enemy_tab[area[seat, i], E_ATTACK_DICE]
    return d


@njit_nb
def weapon_usable_nb(st, rs, seat, w):
    """Whether ``seat`` may attack with card type ``w`` (held, a weapon, not refused)."""
    card_tab = rs[1]
    if st[2][seat, w] <= 0 or card_tab[w, C_KIND] != CK_WEAPON:
        return False
    if card_tab[w, C_FIREARM] != 0 and char_mod_nb(st, rs, seat, MOD_NO_FIREARMS) != 0:
        return False
    if card_tab[w, C_MELEE] == 0 and st[2][seat, card_tab[w, C_AMMO]] <= 0:
        return False
    return True


@njit_nb
def free_dice_nb(st, rs, seat, w):
    """Dice of weapon ``w`` before ammo and cards: melee dice or distance bonus, plus the
    character's modifier for that class of weapon."""
    card_tab = rs[1]
    if card_tab[w, C_MELEE] != 0:
        return card_tab[w, C_DICE] + char_mod_nb(st, rs, seat, MOD_MELEE_DICE)
    return card_tab[w, C_WEAPON_BONUS] + char_mod_nb(st, rs, seat, MOD_DISTANCE_DICE)


@njit_nb
def useful_ammo_nb(st, rs, seat, w):
    """Most ammo cards worth spending with distance weapon ``w``: those that reach the cap."""
    card_tab = rs[1]
    cap = rs[0][P_DICE_CAP]
    a = card_tab[w, C_AMMO]
    per = card_tab[a, C_DICE]
    held = st[2][seat, a]
    d = free_dice_nb(st, rs, seat, w)
    n = 0
    while n < held and d < cap:
        n += 1
        d += per
    return n


@njit_nb
def max_attack_dice_nb(st, rs, seat, w):
    """Dice of the strongest attack with ``w`` from what is held (ammo, not cards), capped."""
    card_tab = rs[1]
    cap = rs[0][P_DICE_CAP]
    d = free_dice_nb(st, rs, seat, w)
    if card_tab[w, C_MELEE] == 0:
        d += useful_ammo_nb(st, rs, seat, w) * card_tab[card_tab[w, C_AMMO], C_DICE]
    return max(0, min(cap, d))


@njit_nb
def has_weapon_for_ammo_nb(st, rs, seat, ammo):
    card_tab = rs[1]
    inv = st[2]
    for w in range(inv.shape[1]):
        if inv[seat, w] > 0 and card_tab[w, C_KIND] == CK_WEAPON and card_tab[w, C_MELEE] == 0 \
                and card_tab[w, C_AMMO] == ammo:
            if card_tab[w, C_FIREARM] == 0 or char_mod_nb(st, rs, seat, MOD_NO_FIREARMS) == 0:
                return True
    return False


@njit_nb
def tokens_nb(st, seat):
    return st[1][seat, PL_TRAPS] + st[1][seat, PL_BARRICADES]


@njit_nb
def is_basic_weapon_nb(rs, c):
    return rs[1][c, C_BASIC_OF] >= 0
