"""Frozen copy of ``simlib.games.until_daylight.kernels.combat_nb.player_attack_area_nb`` and the kernels it calls,
written by `simlib bench --update-floors` (2026-12-01, commit 9555c76).

The speed guard measures the kernel against this copy (see simlib.core.bench, "frozen copies"): do not edit; re-measure the floors instead.
"""
from simlib.core.jit import njit_with
from simlib.games.until_daylight.kernels.combat_nb import ENEMY_SURVIVOR, E_KILL_BODIES, E_KILL_HEADS, E_KIND, np


@njit_with(_nrt=False, cache=False, entry=False, error_model='numpy', nogil=True)
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


@njit_with(_nrt=False, cache=False, entry=False, error_model='numpy', nogil=True)
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


@njit_with(_nrt=False, cache=False, entry=False, error_model='numpy', nogil=True)
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


@njit_with(_nrt=False, cache=False, entry=False, error_model='numpy', nogil=True)
def is_target_nb(enemy_tab, t, survivors_block):
    """Whether a card of type ``t`` is a target of player attacks (survivors only in the variant)."""
    return survivors_block != 0 or enemy_tab[t, E_KIND] != ENEMY_SURVIVOR


@njit_with(_nrt=False, cache=False, entry=False, error_model='numpy', nogil=True)
def target_line_nb(area_row, n, enemy_tab, survivors_block, line_buf):
    """Copy the targets of ``area_row[:n]`` (in order) to ``line_buf``; return how many."""
    m = 0
    for i in range(n):
        t = area_row[i]
        if is_target_nb(enemy_tab, t, survivors_block):
            line_buf[m] = t
            m += 1
    return m


KERNEL = player_attack_area_nb
