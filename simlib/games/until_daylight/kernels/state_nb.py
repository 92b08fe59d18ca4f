"""Game-state layout and read-only helpers shared by the game kernel and the policies.

A game's whole state is ONE int64 array ``st`` and the packed ruleset is ONE int64 array
``rs``; both are passed to every kernel, so a policy sees exactly what the game kernel
sees, and a call costs two array arguments (numba passes arrays as structs by value: a
tuple of 14 arrays made every call move ~100 scalars).  The accessors below return views
(no copies, no reference counting: the kernels run without NRT).

``st`` parts (accessor: dtype, shape); the one layout table is ``codes.STATE_PARTS``
(``tests/test_state_layout.py`` checks every accessor against it)
    ``st`` itself          int64  (N_G,) head: scalars ``G_*`` (``st[G_ROUND]``), offsets
    ``pl_of(st)``          int64  (MAX_PLAYERS, N_PL)      per seat, ``PL_*``
    ``inv_of(st)``         int64  (MAX_PLAYERS, n_cards)   cards held per seat and card type
    ``area_of(st)``        int64  (MAX_PLAYERS, cap)       horde cards in each area, left to right
    ``kept_of(st)``        int64  (MAX_PLAYERS, n_enemies) horde cards kept (Monsters, survivors)
    ``hdeck_of(st)``       int64  (cap,)                   horde deck; ``[:st[G_HDECK_N]]`` undrawn
    ``hdisc_of(st)``       int64  (n_enemies,)             horde discard pile, counts per type
    ``rdeck_of(st)``       int64  (rubble_total + 1,)      rubble deck; ``[:st[G_RDECK_N]]`` undrawn
    ``rdisc_of(st)``       int64  (n_cards,)               rubble discard pile, counts per type
    ``rng_of(st)``         uint64 (N_STREAMS,)             per-game random streams
    ``ev_of(st)``          int64  (ev_cap, N_EV_COLS)      trace events (capacity 0: off)
    ``cands_of(st)``       int64  (MAX_CANDS, N_CAND_COLS) candidates of the current decision
    ``buf_of(st)``         int64  (5, cap)                 scratch rows: line, killed, faces, misc, policy
    ``killed_of(st)``      int64  (n_enemies,)             enemies eliminated this game, per type

``rs`` parts: ``rs[P_*]`` are the params; ``card_tab_of(rs)``, ``enemy_tab_of(rs)``,
``char_tab_of(rs)``, ``die_of(rs)``, ``fate_of(rs)``, ``recipes_of(rs)`` are the packed
tables of ``simlib.games.until_daylight.ruleset`` (layouts in ``codes``); ``flatten_rules``
builds ``rs`` from a ``PackedRules``.
"""
from __future__ import annotations

import numpy as np

from simlib.core.jit import at, njit_nb, packed_part
from simlib.games.until_daylight import codes as K
from simlib.games.until_daylight.codes import (
    C_AMMO,
    C_AMOUNT,
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


# =========================================================================== accessors
# Views of the parts (``simlib.core.jit.packed_part``: one typed call a site, the pointer
# arithmetic as code; a part that does not fit raises IndexError).  The state's come from
# the one layout table, ``codes.STATE_PARTS``.
def _state_part(name: str, dtype=None):
    """The accessor ``<name>_of(st)`` of part ``name`` of ``codes.STATE_PARTS``: a head
    slot dimension is read from the state, ``const(k)`` is ``k``; a part of one row is
    1-D."""
    _, slot, rows, cols, _role = K.STATE_PART[name]
    dims = [at(d) if d >= 0 else -d for d in (rows, cols)]
    if rows == K.const(1):
        dims = dims[1:]
    return packed_part(name + "_of", slot, *dims, dtype=dtype)


pl_of = _state_part("pl")
inv_of = _state_part("inv")
area_of = _state_part("area")
kept_of = _state_part("kept")
hdeck_of = _state_part("hdeck")
hdisc_of = _state_part("hdisc")
rdeck_of = _state_part("rdeck")
rdisc_of = _state_part("rdisc")
rng_of = _state_part("rng", dtype=np.uint64)
ev_of = _state_part("ev")
cands_of = _state_part("cands")
buf_of = _state_part("buf")
killed_of = _state_part("killed")
card_tab_of = packed_part("card_tab_of", K.RH_O_CARD, at(K.RH_N_CARDS), K.N_CARD_COLS)
enemy_tab_of = packed_part("enemy_tab_of", K.RH_O_ENEMY, at(K.RH_N_ENEMIES), K.N_ENEMY_COLS)
char_tab_of = packed_part("char_tab_of", K.RH_O_CHAR, at(K.RH_N_CHARS), K.N_CHAR_COLS)
die_of = packed_part("die_of", K.RH_O_DIE, at(K.RH_DIE_SIZE))
fate_of = packed_part("fate_of", K.RH_O_FATE, at(K.RH_FATE_SIZE))
recipes_of = packed_part("recipes_of", K.RH_O_RECIPES, at(K.RH_N_RECIPES), K.N_RECIPE_COLS)


def flatten_rules(packed) -> np.ndarray:
    """One C-contiguous int64 array holding a ``PackedRules`` (params first, see ``codes.RH_*``)."""
    parts = [packed.card_tab, packed.enemy_tab, packed.char_tab, packed.die_faces,
             packed.fate_faces, packed.recipes]
    head = np.zeros(K.N_RH, dtype=np.int64)
    head[:len(packed.params)] = packed.params
    o = K.N_RH
    for key, part in zip((K.RH_O_CARD, K.RH_O_ENEMY, K.RH_O_CHAR, K.RH_O_DIE, K.RH_O_FATE,
                          K.RH_O_RECIPES), parts):
        head[key] = o
        o += part.size
    head[K.RH_N_CARDS] = packed.card_tab.shape[0]
    head[K.RH_N_ENEMIES] = packed.enemy_tab.shape[0]
    head[K.RH_N_CHARS] = packed.char_tab.shape[0]
    head[K.RH_DIE_SIZE] = packed.die_faces.shape[0]
    head[K.RH_FATE_SIZE] = packed.fate_faces.shape[0]
    head[K.RH_N_RECIPES] = packed.recipes.shape[0]
    head[K.RH_O_OUTCOMES] = o
    parts.append(outcome_table(packed.die_faces, int(packed.params[K.P_DICE_CAP])))
    return np.ascontiguousarray(np.concatenate([head] + [np.asarray(p, dtype=np.int64).ravel()
                                                         for p in parts]))


def outcome_table(die_faces: np.ndarray, cap: int) -> np.ndarray:
    """``T[d, h, b]`` = P(h heads and b bodies among d combat dice) * ``OUTCOME_SCALE``
    (int64), for 0 <= d <= cap: the multinomial the policies weigh attacks with."""
    faces = np.asarray(die_faces)
    ph, pb = np.mean(faces == K.FACE_H), np.mean(faces == K.FACE_B)
    px = 1.0 - ph - pb
    t = np.zeros((cap + 1, cap + 1, cap + 1), dtype=np.float64)
    t[0, 0, 0] = 1.0
    for d in range(1, cap + 1):  # add one die at a time
        t[d, :, :] += t[d - 1] * px
        t[d, 1:, :] += t[d - 1, :-1, :] * ph
        t[d, :, 1:] += t[d - 1, :, :-1] * pb
    return np.rint(t * K.OUTCOME_SCALE).astype(np.int64)


@njit_nb
def outcome_prob_nb(rs, d, h, b):
    """P(h heads and b bodies among d combat dice) (see ``outcome_table``)."""
    c = rs[P_DICE_CAP] + 1
    return rs[rs[K.RH_O_OUTCOMES] + (d * c + h) * c + b] * (1.0 / K.OUTCOME_SCALE)


# Element readers for the hottest helpers: plain index arithmetic, no view (a view costs
# ~10 ns to build; these are called tens of thousands of times per game).
@njit_nb
def pl_get(st, seat, f):
    return st[st[K.G_O_PL] + seat * K.N_PL + f]


@njit_nb
def inv_get(st, seat, c):
    return st[st[K.G_O_INV] + seat * st[K.G_N_CARDS] + c]


@njit_nb
def area_get(st, seat, i):
    return st[st[K.G_O_AREA] + seat * st[K.G_AREA_CAP] + i]


@njit_nb
def card_get(rs, c, col):
    return rs[rs[K.RH_O_CARD] + c * K.N_CARD_COLS + col]


@njit_nb
def enemy_get(rs, t, col):
    return rs[rs[K.RH_O_ENEMY] + t * K.N_ENEMY_COLS + col]


@njit_nb
def char_get(rs, c, col):
    return rs[rs[K.RH_O_CHAR] + c * K.N_CHAR_COLS + col]


@njit_nb
def emit_nb(st, kind, seat, a, b, c, d, e):
    """Append one trace event (no-op when the trace buffer has capacity 0 or is full)."""
    i = st[G_EV_N]
    if i >= st[K.G_EV_CAP]:
        return
    ev = ev_of(st)
    ev[i, 0] = kind
    ev[i, 1] = st[G_ROUND]
    ev[i, 2] = seat
    ev[i, 3] = a
    ev[i, 4] = b
    ev[i, 5] = c
    ev[i, 6] = d
    ev[i, 7] = e
    st[G_EV_N] = i + 1


@njit_nb
def char_mod_nb(st, rs, seat, mod):
    """Value of modifier ``mod`` for the character in ``seat``: advantage (doubled while
    leader) plus drawback."""
    c = pl_get(st, seat, PL_CHAR)
    v = 0
    if char_get(rs, c, CH_ADV_KIND) == mod:
        a = char_get(rs, c, CH_ADV_AMOUNT)
        if st[G_LEADER] == seat:
            a *= 2
        v += a
    if char_get(rs, c, CH_DRAW_KIND) == mod:
        v += char_get(rs, c, CH_DRAW_AMOUNT)
    return v


@njit_nb
def slots_used_nb(st, rs, seat):
    """Inventory slots used: one per card, one per stack for stacking cards (ammo)."""
    n = 0
    for c in range(st[K.G_N_CARDS]):
        k = inv_get(st, seat, c)
        if k > 0:
            if card_get(rs, c, C_STACKS) != 0:
                n += 1
            else:
                n += k
    return n


@njit_nb
def slots_nb(st, rs, seat):
    return char_get(rs, pl_get(st, seat, PL_CHAR), CH_SLOTS)


@njit_nb
def xp_nb(st, rs, seat):
    """XP of a seat: symbols held, kept horde cards (Monsters, survivors), permanent bonus."""
    x = pl_get(st, seat, PL_XP_BONUS)
    for c in range(st[K.G_N_CARDS]):
        if card_get(rs, c, C_KIND) == CK_SYMBOL:
            x += inv_get(st, seat, c) * card_get(rs, c, C_AMOUNT)
    ok = st[K.G_O_KEPT] + seat * st[K.G_N_ENEMIES]
    for t in range(st[K.G_N_ENEMIES]):
        k = st[ok + t]
        if k != 0:
            if enemy_get(rs, t, E_KIND) == ENEMY_SURVIVOR:
                x += k * rs[P_SURVIVOR_XP]
            else:
                x += k * enemy_get(rs, t, E_REWARD_XP)
    return x


@njit_nb
def update_leader_nb(st, rs):
    """The leader changes only to a seat with strictly more XP than the current leader."""
    g = st
    n = g[G_N_PLAYERS]
    cur = g[G_LEADER]
    best = 0
    if cur >= 0:
        best = xp_nb(st, rs, cur)
    new = -1
    for s in range(n):
        x = xp_nb(st, rs, s)
        if x > pl_get(st, s, PL_MAX_XP):
            st[st[K.G_O_PL] + s * K.N_PL + PL_MAX_XP] = x
        if x > best:
            best = x
            new = s
    if new >= 0 and new != cur:
        g[G_LEADER] = new
        emit_nb(st, EV_LEADER, new, new, best, 0, 0, 0)


@njit_nb
def survivors_in_area_nb(st, rs, seat):
    n = 0
    for i in range(pl_get(st, seat, PL_AREA_N)):
        if enemy_get(rs, area_get(st, seat, i), E_KIND) == ENEMY_SURVIVOR:
            n += 1
    return n


@njit_nb
def enemies_in_area_nb(st, rs, seat):
    """Horde cards in the area that are enemies (not survivors)."""
    return pl_get(st, seat, PL_AREA_N) - survivors_in_area_nb(st, rs, seat)


@njit_nb
def targets_in_area_nb(st, rs, seat):
    """Cards a player attack can hit: enemies, plus survivors in the blocking variant."""
    if rs[P_V_SURVIVORS_BLOCK] != 0:
        return pl_get(st, seat, PL_AREA_N)
    return enemies_in_area_nb(st, rs, seat)


@njit_nb
def area_threat_nb(st, rs, seat):
    """Attack dice of the enemies in an area (a policy's measure of danger)."""
    d = 0
    for i in range(pl_get(st, seat, PL_AREA_N)):
        d += enemy_get(rs, area_get(st, seat, i), E_ATTACK_DICE)
    return d


@njit_nb
def weapon_usable_nb(st, rs, seat, w):
    """Whether ``seat`` may attack with card type ``w`` (held, a weapon, not refused)."""
    if inv_get(st, seat, w) <= 0 or card_get(rs, w, C_KIND) != CK_WEAPON:
        return False
    if card_get(rs, w, C_FIREARM) != 0 and char_mod_nb(st, rs, seat, MOD_NO_FIREARMS) != 0:
        return False
    if card_get(rs, w, C_MELEE) == 0 and inv_get(st, seat, card_get(rs, w, C_AMMO)) <= 0:
        return False
    return True


@njit_nb
def free_dice_nb(st, rs, seat, w):
    """Dice of weapon ``w`` before ammo and cards: melee dice or distance bonus, plus the
    character's modifier for that class of weapon."""
    if card_get(rs, w, C_MELEE) != 0:
        return card_get(rs, w, C_DICE) + char_mod_nb(st, rs, seat, MOD_MELEE_DICE)
    return card_get(rs, w, C_WEAPON_BONUS) + char_mod_nb(st, rs, seat, MOD_DISTANCE_DICE)


@njit_nb
def useful_ammo_nb(st, rs, seat, w):
    """Most ammo cards worth spending with distance weapon ``w``: those that reach the cap."""
    cap = rs[P_DICE_CAP]
    a = card_get(rs, w, C_AMMO)
    per = card_get(rs, a, C_DICE)
    held = inv_get(st, seat, a)
    d = free_dice_nb(st, rs, seat, w)
    n = 0
    while n < held and d < cap:
        n += 1
        d += per
    return n


@njit_nb
def max_attack_dice_nb(st, rs, seat, w):
    """Dice of the strongest attack with ``w`` from what is held (ammo, not cards), capped."""
    cap = rs[P_DICE_CAP]
    d = free_dice_nb(st, rs, seat, w)
    if card_get(rs, w, C_MELEE) == 0:
        d += useful_ammo_nb(st, rs, seat, w) * card_get(rs, card_get(rs, w, C_AMMO), C_DICE)
    return max(0, min(cap, d))


@njit_nb
def has_weapon_for_ammo_nb(st, rs, seat, ammo):
    for w in range(st[K.G_N_CARDS]):
        if inv_get(st, seat, w) > 0 and card_get(rs, w, C_KIND) == CK_WEAPON \
                and card_get(rs, w, C_MELEE) == 0 and card_get(rs, w, C_AMMO) == ammo:
            if card_get(rs, w, C_FIREARM) == 0 or char_mod_nb(st, rs, seat, MOD_NO_FIREARMS) == 0:
                return True
    return False


@njit_nb
def tokens_nb(st, seat):
    return pl_get(st, seat, PL_TRAPS) + pl_get(st, seat, PL_BARRICADES)
