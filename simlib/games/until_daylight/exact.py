"""Exact (enumerated, never sampled) distributions of Until Daylight combat.

Two layers:

* **Plain numbers** — no ruleset needed.  A die is a sequence of face codes
  (``FACE_X``/``FACE_B``/``FACE_H`` from ``simlib.games.until_daylight.codes``), an enemy
  line is a sequence of ``(kill_heads, kill_bodies)`` pairs (``kill_bodies == 0``: bodies
  cannot kill it), attackers are ``(kind, attack_dice)`` pairs.  These functions are the
  oracle the numba kernels are tested against; their deterministic cores are
  :func:`kills_for_counts`, :func:`best_kills_with_focus`, :func:`resolve_batch`,
  :func:`batch_sizes` and :func:`trap_step`.
* **Names** — :func:`attack_kills`, :func:`prob_clear`, :func:`enemy_attack_damage`,
  :func:`enemy_attack_outcome`, :func:`trap_kills` and :func:`dice_faces` take enemy
  names and read every game number (die faces, kill needs, attack dice, dice cap,
  barricade and trap needs, bodies per damage, variant switches) from a ruleset
  (``simlib.games.until_daylight.ruleset.load_ruleset()`` by default, loaded on each call).

Every distribution is a :class:`pandas.Series` indexed by outcome with probabilities as
values.  Arithmetic is done in :class:`fractions.Fraction`; ``exact=True`` keeps the
Fractions (``object`` dtype, sums to exactly 1), the default converts to ``float64``.

Rules implemented (the engine rules of Until Daylight, docs/games/until-daylight.md, sections 3-5):

* player attack: at most ``dice_cap`` dice; ordered assignment to the line, an enemy
  dies to ``>= kill_heads`` heads or (``kill_bodies > 0`` and) ``>= kill_bodies``
  bodies, heads and bodies are never mixed on one enemy and body pairs never make a
  head; the player picks the split giving the longest killed prefix (exhaustive search,
  not a greedy rule); each focus card may turn one B into one H after the roll.
* enemies' attack (one area): raiders' dice, then infected dice, each pooled and rolled
  in batches of at most ``dice_cap``; in a batch heads are placed before bodies and
  damage goes survivors -> barricades -> protection cards -> character (see
  :func:`resolve_batch`).  Character abilities, sacrificing saved survivors and death
  are not modelled here.
* traps: one at a time, ``trap_heads`` heads each to the current first enemy.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import factorial
from typing import Iterable, Sequence

import numpy as np
import pandas as pd

from . import codes as _codes
from .codes import (
    E_ATTACK_DICE,
    E_KILL_BODIES,
    E_KILL_HEADS,
    E_KIND,
    ENEMY_INFECTED,
    ENEMY_RAIDER,
    ENEMY_SURVIVOR,
    FACE_B,
    FACE_H,
    FACE_X,
    P_BARRICADE_BODIES,
    P_BARRICADE_HEADS,
    P_DICE_CAP,
    P_TRAP_HEADS,
    P_V_SURVIVORS_BLOCK,
)

__all__ = [
    # plain-number layer
    "face_probabilities",
    "face_count_dist",
    "kills_for_counts",
    "best_kills_with_focus",
    "kills_dist",
    "batch_sizes",
    "resolve_batch",
    "enemy_attack_dist",
    "enemy_attack_damage_dist",
    "trap_step",
    # name layer
    "dice_faces",
    "attack_kills",
    "prob_clear",
    "enemy_attack_outcome",
    "enemy_attack_damage",
    "trap_kills",
]

ATTACK_OUTCOME_NAMES = ("damage", "barricades_left", "survivors_left", "protection_left")


# =========================================================================== helpers
def _finish(probs: dict, index: pd.Index, name: str, exact: bool) -> pd.Series:
    values = [probs.get(key, Fraction(0)) for key in index]
    if exact:
        return pd.Series(values, index=index, name=name, dtype=object)
    return pd.Series(np.array([float(v) for v in values], dtype=np.float64), index=index, name=name)


def face_probabilities(faces: Sequence[int]) -> tuple[Fraction, Fraction, Fraction]:
    """Exact probability of each face kind on one die.

    Parameters
    ----------
    faces : sequence of int, shape (die_size,)
        Face code (``FACE_X``, ``FACE_B`` or ``FACE_H``) of each side; any die size.

    Returns
    -------
    (p_head, p_body, p_miss) : tuple of Fraction

    Examples
    --------
    >>> face_probabilities([2, 1, 1, 1, 0, 0])   # reference die: 1 H, 3 B, 2 X
    (Fraction(1, 6), Fraction(1, 2), Fraction(1, 3))
    """
    codes = [int(f) for f in np.asarray(faces).ravel()]
    if not codes:
        raise ValueError("a die needs at least one face")
    bad = set(codes) - {FACE_X, FACE_B, FACE_H}
    if bad:
        raise ValueError(f"unknown face codes {sorted(bad)}; expected FACE_X/FACE_B/FACE_H")
    n = len(codes)
    return (Fraction(codes.count(FACE_H), n), Fraction(codes.count(FACE_B), n),
            Fraction(codes.count(FACE_X), n))


@lru_cache(maxsize=None)
def _face_counts(k: int, p: tuple[Fraction, Fraction, Fraction]) -> tuple:
    """((h, b, x), probability) for every count triple of k dice with nonzero probability."""
    ph, pb, px = p
    out = []
    for h in range(k + 1):
        for b in range(k - h + 1):
            x = k - h - b
            prob = (Fraction(factorial(k), factorial(h) * factorial(b) * factorial(x))
                    * ph ** h * pb ** b * px ** x)
            if prob:
                out.append(((h, b, x), prob))
    return tuple(out)


def face_count_dist(k: int, faces: Sequence[int], exact: bool = False) -> pd.Series:
    """Distribution of the (heads, bodies, misses) counts of ``k`` combat dice.

    Multinomial over the die's face frequencies.  No cap is applied here.

    Parameters
    ----------
    k : int
        Number of dice rolled (>= 0).
    faces : sequence of int, shape (die_size,)
        Face codes of one die.
    exact : bool, default False
        Keep :class:`~fractions.Fraction` values (``object`` dtype) instead of float64.

    Returns
    -------
    pandas.Series
        Indexed by a MultiIndex ``(heads, bodies, misses)`` over every triple summing to
        ``k`` (impossible triples have probability 0), name ``"P(heads, bodies, misses)"``.

    Examples
    --------
    >>> d = face_count_dist(2, [2, 1, 1, 1, 0, 0], exact=True)
    >>> d[(1, 1, 0)]
    Fraction(1, 6)
    """
    if k < 0:
        raise ValueError("k must be >= 0")
    probs = dict(_face_counts(int(k), face_probabilities(faces)))
    keys = [(h, b, k - h - b) for h in range(k + 1) for b in range(k - h + 1)]
    index = pd.MultiIndex.from_tuples(keys, names=["heads", "bodies", "misses"])
    return _finish(probs, index, "P(heads, bodies, misses)", exact)


# =========================================================================== player attack
def _normalise_line(line: Iterable) -> tuple[tuple[int, int], ...]:
    out = []
    for entry in line:
        kh, kb = (int(v) for v in entry)
        if kh < 0 or kb < 0:
            raise ValueError(f"kill needs must be >= 0, got {entry!r}")
        out.append((kh, kb))
    return tuple(out)


@lru_cache(maxsize=None)
def _best_prefix(line: tuple[tuple[int, int], ...], h: int, b: int) -> int:
    if not line:
        return 0
    kh, kb = line[0]
    best = 0
    if h >= kh:  # kill it with heads
        best = 1 + _best_prefix(line[1:], h - kh, b)
    if kb > 0 and b >= kb and best < len(line):  # or with bodies
        best = max(best, 1 + _best_prefix(line[1:], h, b - kb))
    return best


def kills_for_counts(heads: int, bodies: int, line: Sequence[Sequence[int]]) -> int:
    """Longest prefix of ``line`` that ``heads`` H and ``bodies`` B can kill (deterministic).

    Ordered assignment: enemy *i* must die before damage passes to *i+1*.  An enemy dies
    to ``>= kill_heads`` heads, or to ``>= kill_bodies`` bodies when ``kill_bodies > 0``;
    heads and bodies are not mixed on one enemy and body pairs never make a head.  The
    optimum is found by exhaustive search over which enemies take heads and which take
    bodies (memoised), so it holds for arbitrary kill needs.

    Parameters
    ----------
    heads, bodies : int
        Head and body results available.
    line : sequence of (int, int)
        ``(kill_heads, kill_bodies)`` of each enemy, left to right.

    Returns
    -------
    int
        Number of enemies killed (they are always the first ones of the line).

    Examples
    --------
    >>> kills_for_counts(2, 3, [(1, 2), (1, 2), (1, 2), (2, 0)])  # rulebook example
    3
    """
    if heads < 0 or bodies < 0:
        raise ValueError("heads and bodies must be >= 0")
    return _best_prefix(_normalise_line(line), int(heads), int(bodies))


def best_kills_with_focus(heads: int, bodies: int, line: Sequence[Sequence[int]],
                          focus: int = 0) -> int:
    """:func:`kills_for_counts` when up to ``focus`` B may each be turned into one H.

    The player uses the focus cards optimally (any number from 0 to ``focus``, never
    more than the bodies rolled).

    Examples
    --------
    >>> best_kills_with_focus(0, 3, [(2, 0)], focus=2)  # two focus cards make 2 H
    1
    """
    line = _normalise_line(line)
    usable = min(int(focus), int(bodies))
    return max(_best_prefix(line, heads + f, bodies - f) for f in range(max(usable, 0) + 1))


def kills_dist(k: int, line: Sequence[Sequence[int]], faces: Sequence[int], focus: int = 0,
               dice_cap: int = 6, exact: bool = False) -> pd.Series:
    """Distribution of the number of enemies killed by one player attack of ``k`` dice.

    Parameters
    ----------
    k : int
        Dice the attack would roll; ``min(k, dice_cap)`` are rolled (the 6-dice rule).
    line : sequence of (int, int)
        ``(kill_heads, kill_bodies)`` of each enemy, left to right; e.g. Raider/Wanderer
        ``(1, 2)``, Brute ``(1, 0)``, Monster ``(2, 0)``.
    faces : sequence of int, shape (die_size,)
        Face codes of the combat die.
    focus : int, default 0
        Focus cards (each turns one B into one H after the roll, used optimally).
    dice_cap : int, default 6
        Most dice one attack may roll.
    exact : bool, default False
        Keep Fractions.

    Returns
    -------
    pandas.Series
        Index ``kills`` = 0 .. len(line), name ``"P(kills)"``.

    Examples
    --------
    >>> die = [2, 1, 1, 1, 0, 0]
    >>> float(kills_dist(4, [(1, 0), (1, 2), (1, 2)], die).iloc[-1])  # P(clear)
    0.05787037037037037
    """
    line = _normalise_line(line)
    n_dice = max(0, min(int(k), int(dice_cap)))
    probs: dict[int, Fraction] = {}
    for (h, b, _x), p in _face_counts(n_dice, face_probabilities(faces)):
        kills = best_kills_with_focus(h, b, line, focus)
        probs[kills] = probs.get(kills, Fraction(0)) + p
    index = pd.RangeIndex(len(line) + 1, name="kills")
    return _finish(probs, index, "P(kills)", exact)


# =========================================================================== traps
def trap_step(line: Sequence[Sequence[int]], traps: int, trap_heads: int = 1,
              kinds: Sequence[int] | None = None) -> tuple[int, int]:
    """Resolve the trap step of one area (deterministic).

    Traps fire one at a time, each dealing ``trap_heads`` heads to the *current* first
    enemy; hits on the same enemy add up; a trap fires only while an enemy is left.

    Parameters
    ----------
    line : sequence of (int, int)
        ``(kill_heads, kill_bodies)`` of each card, left to right.
    traps : int
        Traps in the area.
    trap_heads : int, default 1
        Heads dealt by one trap.
    kinds : sequence of int, optional
        ``ENEMY_*`` kind of each card; ``ENEMY_SURVIVOR`` cards are skipped.  Default:
        every card is an enemy.

    Returns
    -------
    (kills, traps_used) : tuple of int
        Enemies killed (the first ``kills`` enemies of the line) and traps spent.

    Examples
    --------
    >>> trap_step([(2, 0)], 1)   # one trap on a Monster: hit, no kill
    (0, 1)
    >>> trap_step([(2, 0)], 2)
    (1, 2)
    """
    line = _normalise_line(line)
    if kinds is not None:
        if len(kinds) != len(line):
            raise ValueError("kinds and line must have the same length")
        line = tuple(e for e, kind in zip(line, kinds) if int(kind) != ENEMY_SURVIVOR)
    if trap_heads <= 0:
        raise ValueError("trap_heads must be > 0")
    kills = used = 0
    left = int(traps)
    for kh, _kb in line:
        need = max(1, -(-kh // trap_heads))  # traps to kill this enemy
        if left >= need:
            kills += 1
            used += need
            left -= need
        else:
            used += left  # the rest hit this enemy without killing it
            break
    return kills, used


# =========================================================================== enemies' attack
def batch_sizes(n_dice: int, dice_cap: int = 6) -> list[int]:
    """Sizes of the batches ``n_dice`` pooled dice are rolled in (e.g. 13 -> [6, 6, 1]).

    Examples
    --------
    >>> batch_sizes(13)
    [6, 6, 1]
    """
    if dice_cap <= 0:
        raise ValueError("dice_cap must be > 0")
    full, rest = divmod(int(n_dice), int(dice_cap))
    return [int(dice_cap)] * full + ([rest] if rest else [])


def resolve_batch(heads: int, bodies: int, misses: int, kind: int, barricades: int = 0,
                  survivors: int = 0, protection: int = 0, barricade_heads: int = 1,
                  barricade_bodies: int = 2, bodies_per_damage: int = 2
                  ) -> tuple[int, int, int, int]:
    """Resolve one batch of enemy dice against one area (deterministic).

    Heads are placed before bodies, each going survivors -> barricades -> protection
    cards -> character:

    * survivors: an infected H or B kills one survivor each; raiders' H/B skip survivors,
      but each raider X kills one survivor;
    * barricades: each is destroyed by ``barricade_heads`` H or by ``barricade_bodies``
      B; while a barricade stands it absorbs what is too little to destroy it;
    * protection cards: each absorbs 1 damage (1 H or ``bodies_per_damage`` B) and is
      discarded;
    * character: 1 damage per H and per ``bodies_per_damage`` B; bodies left over at the
      end of the batch (an odd B with the reference 2) are lost.

    Parameters
    ----------
    heads, bodies, misses : int
        Face counts of the batch.
    kind : int
        ``ENEMY_RAIDER`` or ``ENEMY_INFECTED``.
    barricades, survivors, protection : int
        What stands in the area before the batch.
    barricade_heads, barricade_bodies : int
        Heads / bodies destroying one barricade.
    bodies_per_damage : int, default 2
        Bodies making one damage to a protection card or the character.

    Returns
    -------
    (damage, barricades_left, survivors_left, protection_left) : tuple of int

    Examples
    --------
    >>> resolve_batch(2, 2, 2, ENEMY_INFECTED, survivors=2)  # rulebook infected example
    (1, 0, 0, 0)
    >>> resolve_batch(0, 3, 3, ENEMY_RAIDER, survivors=2)     # rulebook raider example
    (1, 0, 0, 0)
    """
    if kind not in (ENEMY_RAIDER, ENEMY_INFECTED):
        raise ValueError(f"kind must be ENEMY_RAIDER or ENEMY_INFECTED, got {kind!r}")
    if min(heads, bodies, misses, barricades, survivors, protection) < 0:
        raise ValueError("counts must be >= 0")
    if barricade_heads <= 0 or barricade_bodies <= 0 or bodies_per_damage <= 0:
        raise ValueError("barricade needs and bodies_per_damage must be > 0")
    h, b = int(heads), int(bodies)
    if kind == ENEMY_RAIDER:
        survivors -= min(survivors, int(misses))
    else:
        killed = min(survivors, h)
        survivors -= killed
        h -= killed
        killed = min(survivors, b)
        survivors -= killed
        b -= killed
    # barricades: heads first, then bodies; a standing barricade swallows the remainder
    broken = min(barricades, h // barricade_heads)
    barricades -= broken
    h = 0 if barricades else h - broken * barricade_heads
    broken = min(barricades, b // barricade_bodies)
    barricades -= broken
    b = 0 if barricades else b - broken * barricade_bodies
    # protection cards then character, 1 damage per H then per body pair
    damage = h + b // bodies_per_damage
    absorbed = min(protection, damage)
    return damage - absorbed, barricades, survivors, protection - absorbed


def enemy_attack_dist(attackers: Sequence[Sequence[int]], faces: Sequence[int],
                      barricades: int = 0, survivors: int = 0, protection: int = 0,
                      dice_cap: int = 6, barricade_heads: int = 1, barricade_bodies: int = 2,
                      bodies_per_damage: int = 2, exact: bool = False) -> pd.Series:
    """Joint distribution of the outcome of one area's enemies' attack.

    Raiders attack first, then infected; each group's dice are pooled in card order and
    rolled in batches of at most ``dice_cap`` (:func:`batch_sizes`), each batch resolved
    by :func:`resolve_batch`; what a batch destroys stays destroyed.

    Parameters
    ----------
    attackers : sequence of (int, int)
        ``(kind, attack_dice)`` per enemy card in card order, kind ``ENEMY_RAIDER`` or
        ``ENEMY_INFECTED`` (``ENEMY_SURVIVOR`` entries are ignored: pass survivors as
        ``survivors``).
    faces : sequence of int, shape (die_size,)
        Face codes of the combat die.
    barricades, survivors, protection : int
        Barricade tokens, unsaved survivors and protection cards in the area.
    dice_cap : int, default 6
        Batch size.
    barricade_heads, barricade_bodies : int
        Heads / bodies that destroy one barricade.
    bodies_per_damage : int, default 2
        Bodies making one damage to a protection card or the character.
    exact : bool, default False
        Keep Fractions.

    Returns
    -------
    pandas.Series
        MultiIndex ``(damage, barricades_left, survivors_left, protection_left)`` over the
        outcomes with nonzero probability, sorted; name ``"P(outcome)"``.

    Examples
    --------
    >>> die = [2, 1, 1, 1, 0, 0]
    >>> d = enemy_attack_dist([(ENEMY_INFECTED, 3)], die, barricades=1)
    >>> float(d.groupby(level="damage").sum()[0])
    0.8009259259259259
    """
    p = face_probabilities(faces)
    dice = {ENEMY_RAIDER: 0, ENEMY_INFECTED: 0}
    for kind, n in attackers:
        kind, n = int(kind), int(n)
        if n < 0:
            raise ValueError("attack dice must be >= 0")
        if kind == ENEMY_SURVIVOR:
            continue
        if kind not in dice:
            raise ValueError(f"unknown attacker kind {kind!r}")
        dice[kind] += n
    state = {(0, int(barricades), int(survivors), int(protection)): Fraction(1)}
    for kind in (ENEMY_RAIDER, ENEMY_INFECTED):
        for size in batch_sizes(dice[kind], dice_cap):
            new: dict[tuple, Fraction] = {}
            for (dmg, bar, sur, pro), ps in state.items():
                for (h, b, x), pc in _face_counts(size, p):
                    d, bar2, sur2, pro2 = resolve_batch(h, b, x, kind, bar, sur, pro,
                                                        barricade_heads, barricade_bodies,
                                                        bodies_per_damage)
                    key = (dmg + d, bar2, sur2, pro2)
                    new[key] = new.get(key, Fraction(0)) + ps * pc
            state = new
    index = pd.MultiIndex.from_tuples(sorted(state), names=list(ATTACK_OUTCOME_NAMES))
    return _finish(state, index, "P(outcome)", exact)


def enemy_attack_damage_dist(attackers: Sequence[Sequence[int]], faces: Sequence[int],
                             barricades: int = 0, survivors: int = 0, protection: int = 0,
                             dice_cap: int = 6, barricade_heads: int = 1,
                             barricade_bodies: int = 2, bodies_per_damage: int = 2,
                             exact: bool = False) -> pd.Series:
    """Distribution of the damage the character takes (marginal of :func:`enemy_attack_dist`).

    Returns
    -------
    pandas.Series
        Index ``damage`` = 0 .. max possible, name ``"P(damage)"``.

    Examples
    --------
    >>> die = [2, 1, 1, 1, 0, 0]
    >>> float(enemy_attack_damage_dist([(ENEMY_RAIDER, 2)], die)[0])
    0.4444444444444444
    """
    joint = enemy_attack_dist(attackers, faces, barricades, survivors, protection, dice_cap,
                              barricade_heads, barricade_bodies, bodies_per_damage,
                              exact=True)
    probs: dict[int, Fraction] = {}
    for key, pr in joint.items():
        probs[key[0]] = probs.get(key[0], Fraction(0)) + pr
    index = pd.RangeIndex(max(probs) + 1, name="damage")
    return _finish(probs, index, "P(damage)", exact)


# =========================================================================== name layer
def _ruleset(ruleset):
    if ruleset is None:
        from .ruleset import load_ruleset  # lazy: the designer layer only

        ruleset = load_ruleset()  # the declared default (calibrated)
    return ruleset


def _packed(ruleset):
    rs = _ruleset(ruleset)
    return rs, rs.pack()


def _enemy_ids(rs, enemies: Sequence[str]) -> list[int]:
    names = [str(n).lower() for n in rs.enemy_names]
    ids = []
    for name in enemies:
        key = str(name).strip().lower()
        if key not in names:
            raise KeyError(f"unknown enemy {name!r}; known: {', '.join(names)}")
        ids.append(names.index(key))
    return ids


def dice_faces(k: int, ruleset=None, exact: bool = False) -> pd.Series:
    """Distribution of (heads, bodies, misses) of ``k`` combat dice of the ruleset's die.

    Examples
    --------
    >>> float(dice_faces(6).loc[(2, 3, 1)])  # the rulebook example roll  # doctest: +SKIP
    0.0694...
    """
    _, packed = _packed(ruleset)
    return face_count_dist(k, packed.die_faces, exact=exact)


def _attack_line(rs, packed, enemies: Sequence[str]) -> list[tuple[int, int]]:
    tab = packed.enemy_tab
    survivors_block = int(packed.params[P_V_SURVIVORS_BLOCK]) == 1
    line = []
    for i in _enemy_ids(rs, enemies):
        if int(tab[i, E_KIND]) == ENEMY_SURVIVOR:
            if survivors_block:
                line.append((1, 1))  # variant: a target killed by any damage
            continue
        line.append((int(tab[i, E_KILL_HEADS]), int(tab[i, E_KILL_BODIES])))
    return line


def attack_kills(dice: int, enemies: Sequence[str], ruleset=None, focus: int = 0,
                 exact: bool = False) -> pd.Series:
    """Distribution of how many of ``enemies`` one attack of ``dice`` dice kills.

    Die faces, kill needs and the dice cap come from the ruleset.  Survivors in
    ``enemies`` are skipped, unless the ruleset's ``survivors_block_attacks`` variant is
    on: then each is a target killed by one H or one B, and counts as a kill.

    Parameters
    ----------
    dice : int
        Dice of the attack before the cap.
    enemies : sequence of str
        Enemy names left to right (e.g. ``"brute"``, ``"wanderer"``), case-insensitive.
    ruleset : Ruleset, optional
        Default ``load_ruleset()``.
    focus : int, default 0
        Focus cards played.
    exact : bool, default False
        Keep Fractions.

    Returns
    -------
    pandas.Series
        Index ``kills`` = 0 .. number of targets, name ``"P(kills)"``.

    Examples
    --------
    >>> attack_kills(4, ["brute", "wanderer", "wanderer"])          # doctest: +SKIP
    """
    rs, packed = _packed(ruleset)
    line = _attack_line(rs, packed, enemies)
    return kills_dist(dice, line, packed.die_faces, focus=focus,
                      dice_cap=int(packed.params[P_DICE_CAP]), exact=exact)


def prob_clear(dice: int, enemies: Sequence[str], ruleset=None, focus: int = 0):
    """Probability that one attack of ``dice`` dice kills every enemy in ``enemies``.

    Same conventions as :func:`attack_kills`; returns a float.

    Examples
    --------
    >>> prob_clear(4, ["brute", "wanderer", "wanderer"])             # doctest: +SKIP
    0.0578...
    """
    dist = attack_kills(dice, enemies, ruleset=ruleset, focus=focus)
    return float(dist.iloc[-1])


def _attack_rules(params) -> dict:
    """Keyword arguments of :func:`enemy_attack_dist` read from a packed ``params``."""
    rules = dict(dice_cap=int(params[P_DICE_CAP]),
                 barricade_heads=int(params[P_BARRICADE_HEADS]),
                 barricade_bodies=int(params[P_BARRICADE_BODIES]))
    # P_BODIES_PER_DAMAGE is a newer slot: older packs stop at N_PARAMS and mean 2
    slot = getattr(_codes, "P_BODIES_PER_DAMAGE", None)
    if slot is not None and len(params) > slot and int(params[slot]) > 0:
        rules["bodies_per_damage"] = int(params[slot])
    return rules


def _area(rs, packed, enemies):
    tab = packed.enemy_tab
    attackers, survivors = [], 0
    for i in _enemy_ids(rs, enemies):
        kind = int(tab[i, E_KIND])
        if kind == ENEMY_SURVIVOR:
            survivors += 1
        else:
            attackers.append((kind, int(tab[i, E_ATTACK_DICE])))
    return attackers, survivors


def enemy_attack_outcome(enemies: Sequence[str], barricades: int = 0, protection: int = 0,
                         ruleset=None, exact: bool = False) -> pd.Series:
    """Joint distribution (damage, barricades_left, survivors_left, protection_left).

    ``enemies`` are the names of the cards in the area in card order; survivor names
    count as the area's unsaved survivors.  Attack dice, die faces, batch size and
    barricade needs come from the ruleset.

    Examples
    --------
    >>> enemy_attack_outcome(["wanderer", "survivor", "brute"], barricades=1)  # doctest: +SKIP
    """
    rs, packed = _packed(ruleset)
    attackers, survivors = _area(rs, packed, enemies)
    return enemy_attack_dist(attackers, packed.die_faces, barricades=barricades,
                             survivors=survivors, protection=protection, exact=exact,
                             **_attack_rules(packed.params))


def enemy_attack_damage(enemies: Sequence[str], barricades: int = 0, protection: int = 0,
                        ruleset=None, exact: bool = False) -> pd.Series:
    """Distribution of the damage the character in an area with ``enemies`` takes.

    Marginal of :func:`enemy_attack_outcome` (character abilities, sacrificing saved
    survivors and death are not modelled).

    Examples
    --------
    >>> enemy_attack_damage(["monster", "brute"], barricades=2)     # doctest: +SKIP
    """
    rs, packed = _packed(ruleset)
    attackers, survivors = _area(rs, packed, enemies)
    return enemy_attack_damage_dist(attackers, packed.die_faces, barricades=barricades,
                                    survivors=survivors, protection=protection, exact=exact,
                                    **_attack_rules(packed.params))


def trap_kills(enemies: Sequence[str], traps: int, ruleset=None) -> tuple[int, int]:
    """(kills, traps_used) of the trap step in an area with ``enemies`` (deterministic).

    Examples
    --------
    >>> trap_kills(["brute", "wanderer"], 1)                        # doctest: +SKIP
    (1, 1)
    """
    rs, packed = _packed(ruleset)
    tab = packed.enemy_tab
    ids = _enemy_ids(rs, enemies)
    line = [(int(tab[i, E_KILL_HEADS]), int(tab[i, E_KILL_BODIES])) for i in ids]
    kinds = [int(tab[i, E_KIND]) for i in ids]
    return trap_step(line, traps, trap_heads=int(packed.params[P_TRAP_HEADS]), kinds=kinds)
