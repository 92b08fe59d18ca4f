"""Frozen copy of ``simlib.games.until_daylight.kernels.combat_nb.enemy_batch_nb`` and the kernels it calls,
written by `simlib bench --update-floors` (2026-12-01, commit 9555c76).

The speed guard measures the kernel against this copy (see simlib.core.bench, "frozen copies"): do not edit; re-measure the floors instead.
"""
from simlib.core.jit import njit_with
from simlib.games.until_daylight.kernels.combat_nb import ENEMY_RAIDER


@njit_with(_nrt=False, cache=False, entry=False, error_model='numpy', nogil=True)
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


KERNEL = enemy_batch_nb
