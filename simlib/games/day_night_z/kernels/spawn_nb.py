"""Day Night Z's spawns as numba kernels (rulebook §3.12): a spawn card's enemies at the
threat colour are placed in initiative order (highest first), onto a tile holding at
most ``map.tile_capacity`` enemies (the excess is discarded) and only while a miniature
of that kind is left in the box (variant ``unlimited_miniatures``: always).  Cards are
placed in the order drawn.  Packed rules: ``DayNightZRules.pack_spawn()``.
"""
from __future__ import annotations

from ....core.jit import njit_nb
from .. import codes as K


@njit_nb
def place_card_nb(sp, kind, level, night, minis, on_tile, placed, n_placed):
    """Place the enemies of spawn-card kind ``kind`` at threat level ``level``.

    ``minis``: miniatures left per enemy kind (decremented); ``on_tile``: enemies on the
    tile already; ``placed[n_placed:]`` receives the enemy kinds placed, in order.
    Returns (enemies placed so far, enemies on the tile, lost for want of a miniature,
    lost for want of room).
    """
    no_mini = 0
    no_room = 0
    cap = sp[K.X_PARAMS + K.SP_TILE_CAPACITY]
    unlimited = sp[K.X_PARAMS + K.SP_UNLIMITED] == 1
    row = K.X_ROWS + (kind * 3 + level) * K.N_ENEMIES
    for r in range(K.N_ENEMIES):
        e = sp[K.X_ORDER + night * K.N_ENEMIES + r]
        for _ in range(sp[row + e]):
            if not unlimited and minis[e] <= 0:
                no_mini += 1
            elif on_tile >= cap:
                no_room += 1
            else:
                if not unlimited:
                    minis[e] -= 1
                on_tile += 1
                placed[n_placed] = e
                n_placed += 1
    return n_placed, on_tile, no_mini, no_room


@njit_nb
def reset_minis_nb(sp, minis):
    """``minis`` = the box's miniatures of each enemy kind."""
    for e in range(K.N_ENEMIES):
        minis[e] = sp[K.X_MINIS + e]
