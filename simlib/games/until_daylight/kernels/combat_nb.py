"""Combat kernels of Until Daylight (spec sections 3-5): dice, ordered damage, traps, enemy batches.

Every function here is jitted (``*_nb``) and works on integers and ``int64`` arrays only.

Array conventions
-----------------
rng : uint64 (N_STREAMS,)
    Per-game stream states (``simlib.core.rng``); dice use ``STREAM_DICE``.
die_faces : int64 (die_size,)
    Face code (``FACE_X/B/H``) of each side of the combat die.
enemy_tab : int64 (n_enemy_types, N_ENEMY_COLS)
    Kill needs, attack dice, kind of each horde card type (``E_*`` columns).
area_row : int64 (capacity,)
    Horde card types in one player's area, left to right; only ``area_row[:n]`` is live.
killed_out : int64 (capacity,)
    Receives the types of the cards eliminated, in line order.
"""
from __future__ import annotations

import numpy as np

from simlib.core.jit import njit_nb
from simlib.core.rng import randint_nb
from simlib.games.until_daylight.codes import (
    E_KILL_BODIES,
    E_KILL_HEADS,
    E_KIND,
    ENEMY_RAIDER,
    ENEMY_SURVIVOR,
    FACE_B,
    FACE_H,
)


@njit_nb
def roll_faces_nb(rng, stream, k, die_faces, faces_out):
    """Roll ``k`` combat dice into ``faces_out[:k]``; return ``(heads, bodies, misses)``."""
    h = 0
    b = 0
    size = die_faces.shape[0]
    for i in range(k):
        f = die_faces[randint_nb(rng, stream, size)]
        faces_out[i] = f
        if f == FACE_H:
            h += 1
        elif f == FACE_B:
            b += 1
    return h, b, k - h - b


@njit_nb
def kills_for_counts_nb(line, n, enemy_tab, h, b):
    """Longest killed prefix of ``line[:n]`` (enemy type ids) with ``h`` heads and ``b`` bodies.

    Ordered assignment: an enemy must die before damage passes to the next one.  An enemy
    of type ``t`` dies to ``E_KILL_HEADS`` heads, or to ``E_KILL_BODIES`` bodies when that is
    positive; body pairs never make heads.  The split is chosen optimally by tracking every
    reachable (heads left, bodies left) pair, so it stays optimal for any kill needs a
    designer writes in the data (body-first greed is not, in general).  The set of pairs is
    a 64-bit mask, so ``(h + 1) * (b + 1) <= 64`` (any roll of at most 14 dice; the ruleset
    caps the dice rule at 14).
    """
    if n == 0 or (h == 0 and b == 0):
        return 0
    w = b + 1
    one = np.uint64(1)
    reach = one << np.uint64(h * w + b)
    for i in range(n):
        t = line[i]
        kh = enemy_tab[t, E_KILL_HEADS]
        kb = enemy_tab[t, E_KILL_BODIES]
        nxt = np.uint64(0)
        for hh in range(h + 1):
            for bb in range(b + 1):
                if (reach >> np.uint64(hh * w + bb)) & one:
                    if hh >= kh:
                        nxt |= one << np.uint64((hh - kh) * w + bb)
                    if kb > 0 and bb >= kb:
                        nxt |= one << np.uint64(hh * w + bb - kb)
        if nxt == 0:
            return i
        reach = nxt
    return n


# a threshold of ``kill_thresholds_nb`` no roll reaches (rolls have at most 14 dice)
NO_KILL = 1 << 40


@njit_nb
def kill_thresholds_nb(line, n, enemy_tab, hmax, tab):
    """Fewest bodies that kill ``line[:n]``'s prefixes: ``tab[j * (hmax + 1) + hh]`` for the
    prefix ``line[:j + 1]`` with at most ``hh <= hmax`` heads (``NO_KILL``: none do).

    The same ordered assignment as ``kills_for_counts_nb``, as a 0/1 choice per enemy
    (heads or bodies) over the prefix: with ``T`` nondecreasing in ``j``,
    ``kills_for_counts_nb(line, n, enemy_tab, h, b)`` is the number of ``j`` with
    ``T[j, h] <= b`` (except ``h = b = 0``: 0).  One table of ``n * (hmax + 1)`` entries
    answers every (heads, bodies) of a roll of ``hmax`` dice, where the bit-set search
    costs ``n * (h + 1) * (b + 1)`` per count - the baseline weighs every outcome of every
    attack it considers (``policies_nb.kill_expectation_nb``)."""
    w = hmax + 1
    for j in range(n):
        t = line[j]
        kh = enemy_tab[t, E_KILL_HEADS]
        kb = enemy_tab[t, E_KILL_BODIES]
        o = j * w
        for hh in range(w):
            best = NO_KILL
            if hh >= kh:  # heads kill it: the prefix before with the heads left
                best = 0 if j == 0 else tab[o - w + hh - kh]
            if kb > 0:  # bodies kill it
                prev = 0 if j == 0 else tab[o - w + hh]
                if prev + kb < best:
                    best = prev + kb
            tab[o + hh] = best
    return w


@njit_nb
def is_target_nb(enemy_tab, t, survivors_block):
    """Whether a card of type ``t`` is a target of player attacks (survivors only in the variant)."""
    return survivors_block != 0 or enemy_tab[t, E_KIND] != ENEMY_SURVIVOR


@njit_nb
def target_line_nb(area_row, n, enemy_tab, survivors_block, line_buf):
    """Copy the targets of ``area_row[:n]`` (in order) to ``line_buf``; return how many."""
    m = 0
    for i in range(n):
        t = area_row[i]
        if is_target_nb(enemy_tab, t, survivors_block):
            line_buf[m] = t
            m += 1
    return m


@njit_nb
def remove_first_targets_nb(area_row, n, enemy_tab, count, survivors_block, killed_out):
    """Remove the first ``count`` targets of ``area_row[:n]`` keeping the order of the rest.

    Writes their types to ``killed_out[:count]``; returns the new length.
    """
    w = 0
    removed = 0
    for i in range(n):
        t = area_row[i]
        if removed < count and is_target_nb(enemy_tab, t, survivors_block):
            killed_out[removed] = t
            removed += 1
        else:
            area_row[w] = t
            w += 1
    return w


@njit_nb
def player_attack_area_nb(area_row, n, enemy_tab, h, b, survivors_block, line_buf, killed_out):
    """Resolve one player attack of ``h`` heads and ``b`` bodies on an area.

    Survivors are skipped unless ``survivors_block`` (then they are targets that die to any
    damage, as their kill needs in the data say).  Returns ``(kills, new_n)``; the killed
    cards' types are in ``killed_out[:kills]``, in line order.
    """
    m = target_line_nb(area_row, n, enemy_tab, survivors_block, line_buf)
    kills = kills_for_counts_nb(line_buf, m, enemy_tab, h, b)
    new_n = remove_first_targets_nb(area_row, n, enemy_tab, kills, survivors_block, killed_out)
    return kills, new_n


@njit_nb
def trap_step_nb(area_row, n, enemy_tab, traps, trap_heads, killed_out):
    """Fire up to ``traps`` traps into an area; return ``(kills, traps_fired, new_n)``.

    Traps fire one at a time, each dealing ``trap_heads`` heads to the current first enemy
    (never a survivor); hits on the same enemy add up, so two traps kill a Monster.  A trap
    with no enemy left in the area does not fire.
    """
    fired = 0
    kills = 0
    acc = 0
    i = 0  # scan position of the current first enemy
    while fired < traps:
        while i < n and enemy_tab[area_row[i], E_KIND] == ENEMY_SURVIVOR:
            i += 1
        if i >= n:
            break
        fired += 1
        acc += trap_heads
        if acc >= enemy_tab[area_row[i], E_KILL_HEADS]:
            kills += 1
            acc = 0
            i += 1
    new_n = remove_first_targets_nb(area_row, n, enemy_tab, kills, 0, killed_out)
    return kills, fired, new_n


@njit_nb
def enemy_batch_nb(h, b, x, kind, survivors, barricades, barricade_heads, barricade_bodies,
                   bodies_per_damage):
    """Resolve one batch (at most the dice cap) of enemy dice on an area.

    Damage order: survivors, then barricades; what passes is returned as damage units for
    the caller to send through abilities, protection cards and the character.  Heads are
    placed before bodies.  Infected hit survivors (one per H or B); raiders' X each kill a
    survivor, their H and B skip survivors.  Odd bodies are lost at the end of the batch.

    Returns ``(survivors_killed, barricades_destroyed, damage)``.
    """
    sk = 0
    if kind == ENEMY_RAIDER:
        sk = min(x, survivors)
    else:
        t = min(h, survivors)
        h -= t
        sk += t
        t = min(b, survivors - sk)
        b -= t
        sk += t
    bd = 0
    while bd < barricades and h >= barricade_heads:
        h -= barricade_heads
        bd += 1
    if bd < barricades:
        h = 0  # heads short of a whole barricade land on it without passing
        while bd < barricades and b >= barricade_bodies:
            b -= barricade_bodies
            bd += 1
        if bd < barricades:
            b = 0
    return sk, bd, h + b // bodies_per_damage
