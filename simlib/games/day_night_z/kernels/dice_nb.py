"""Day Night Z's rolls as numba kernels: a check, a survivor's attack, an enemy's attack.

They read the packed dice rules (``DayNightZRules.pack_dice()``, layout ``codes``) and
draw every die from the game's dice stream (``codes.STREAM_DICE`` of a
``simlib.core.rng`` stream array).  A roll always draws all of its dice, whatever the
outcome, so the stream's position after a roll depends only on the pool.  The exact laws
of these rolls are ``simlib.games.day_night_z.exact``; the tests compare the two.

Colours and levels are the indices of ``codes.LEVELS`` (stress, health), face columns
``codes.F_*``.
"""
from __future__ import annotations

import numpy as np

from ....core.jit import njit_nb
from ....core.rng import game_key_nb, init_streams_nb, randint_nb
from .. import codes as K

_N3 = len(K.STAR_COLOURS)


@njit_nb
def roll_face_nb(dice, streams):
    """One die: a face index, uniform over the die's faces."""
    return randint_nb(streams, K.STREAM_DICE, dice[K.D_PARAMS + K.DP_N_FACES])


@njit_nb
def pool_nb(dice, base, sp):
    """Dice of a roll: ``base`` (attribute and modifiers) + ``sp``, at least the minimum
    pool (applied after the survival points)."""
    n = base + sp
    m = dice[K.D_PARAMS + K.DP_MIN_POOL]
    return n if n > m else m


@njit_nb
def check_nb(dice, streams, pool, stress):
    """A check of ``pool`` dice at stress level ``stress``: 1 if a star of an accepted colour
    shows, else 0."""
    ok = 0
    for _ in range(pool):
        f = roll_face_nb(dice, streams)
        c = dice[K.D_FACES + f * K.F_N + K.F_STAR]
        if c >= 0 and dice[K.D_CHECK_OK + stress * _N3 + c] == 1:
            ok = 1
    return ok


@njit_nb
def attack_nb(dice, streams, pool, health, stress):
    """A survivor's attack roll: (hit, star).  A hit is a target of a colour accepted at
    health level ``health``; star: the roll fires the weapon's star trait (any star, or a
    star the check rule accepts at ``stress``, per ``DP_STAR_ANY``)."""
    hit = 0
    star = 0
    any_star = dice[K.D_PARAMS + K.DP_STAR_ANY] == 1
    for _ in range(pool):
        f = roll_face_nb(dice, streams)
        t = dice[K.D_FACES + f * K.F_N + K.F_TARGET]
        if t >= 0 and dice[K.D_ATTACK_OK + health * _N3 + t] == 1:
            hit = 1
        c = dice[K.D_FACES + f * K.F_N + K.F_STAR]
        if c >= 0 and (any_star or dice[K.D_CHECK_OK + stress * _N3 + c] == 1):
            star = 1
    return hit, star


@njit_nb
def enemy_attack_nb(dice, streams, pool, infected, damage):
    """An enemy's attack roll on a survivor: (hit, stress gained, infection levels gained,
    noise counters).  A skull hits; a damaging hit gives stress and, with an infection icon
    on any die, infection level 1 unless already infected; any noise icon, one counter."""
    skull = 0
    inf = 0
    noise = 0
    for _ in range(pool):
        f = roll_face_nb(dice, streams)
        row = K.D_FACES + f * K.F_N
        if dice[row + K.F_SKULL] == 1:
            skull = 1
        if dice[row + K.F_INFECTION] == 1:
            inf = 1
        if dice[row + K.F_NOISE] == 1:
            noise = 1
    damaged = skull == 1 and damage > 0
    stress = dice[K.D_PARAMS + K.DP_STRESS_PER_HIT] if damaged else 0
    infection = 1 if (damaged and inf == 1 and infected == 0) else 0
    return skull, stress, infection, noise


# ------------------------------------------------------------------ batches (one roll a game)
@njit_nb
def sample_checks_nb(dice, seed, first, pool, stress, streams, out):
    """``out[i]``: the first check of game ``first + i`` (its own key and streams)."""
    for i in range(out.shape[0]):
        init_streams_nb(streams, game_key_nb(np.int64(seed), np.int64(first + i)))
        out[i] = check_nb(dice, streams, pool, stress)


@njit_nb
def sample_attacks_nb(dice, seed, first, pool, health, stress, streams, out):
    """``out[i] = (hit, star)`` of the first attack of game ``first + i``."""
    for i in range(out.shape[0]):
        init_streams_nb(streams, game_key_nb(np.int64(seed), np.int64(first + i)))
        out[i, 0], out[i, 1] = attack_nb(dice, streams, pool, health, stress)


@njit_nb
def sample_enemy_attacks_nb(dice, seed, first, pool, infected, damage, streams, out):
    """``out[i] = (hit, stress, infection, noise)`` of the first enemy attack of game ``first + i``."""
    for i in range(out.shape[0]):
        init_streams_nb(streams, game_key_nb(np.int64(seed), np.int64(first + i)))
        out[i, 0], out[i, 1], out[i, 2], out[i, 3] = enemy_attack_nb(dice, streams, pool, infected, damage)
