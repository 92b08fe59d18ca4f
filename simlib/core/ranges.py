"""Default ranges of the instruments that the game's ruleset validator accepts.

``calibrate`` and ``sensitivity`` vary integer ruleset values over ranges they choose
when the user gives none.  A field's own bounds are not enough: a game's validator also
checks values against each other (Day Night Z: ``health_red_at < health_yellow_at <
health_max``; Mort: a pallet must stay on the board), and a bisection or a Morris design
may ask for any integer of a range, or any combination of the ranges.  The helpers here
ask the validator itself (``rules.override``), so the limits come from the one place that
states them:

* :func:`contiguous_range` keeps one key's range to the run of values around its current
  value that each load (the other values unchanged): every integer between its ends loads.
* :func:`joint_ranges` then narrows several keys' ranges until their combinations load:
  all ends low, all ends high, the points that hold each pair of keys at opposite ends
  (two a bit of the keys' indices), plus a fixed sample of interior points.  A refused point is reduced to the
  few keys that refuse it together (QuickXplain), and the widest of those ranges gives up
  the refused value; the sweep repeats until it finds nothing.

For validators made of orderings, sums and bounds of pairs or triples of values (every
check of the shipped games), the pair-of-ends points hold every corner of each pair of
ranges, so the whole box loads.
"""
from __future__ import annotations

from typing import Callable, Mapping, Sequence

import numpy as np

from .ruleset import RulesetError

__all__ = ["loads", "contiguous_range", "joint_ranges", "calibrate_range"]

#: interior points of the joint sweep (seeded: the same ranges on every call)
INTERIOR_POINTS = 32
#: sweeps of the joint check before giving up on narrowing (each narrows or stops)
MAX_SWEEPS = 50


def loads(rules, values: Mapping[str, int]) -> bool:
    """Whether ``rules`` accepts every value of ``values`` at once."""
    if not values:
        return True
    try:
        rules.override(dict(values))
    except RulesetError:
        return False
    return True


def contiguous_range(rules, key: str, value: int, lo: int, hi: int) -> tuple[int, int]:
    """The widest ``[a, b]`` within ``[lo, hi]`` around ``value`` whose every integer loads
    alone (``a == b == value`` when no neighbour does)."""
    a = value
    while a - 1 >= lo and loads(rules, {key: a - 1}):
        a -= 1
    b = value
    while b + 1 <= hi and loads(rules, {key: b + 1}):
        b += 1
    return a, b


def _quickxplain(refused: Callable[[Sequence[str]], bool], keys: list[str]) -> list[str]:
    """A minimal subset of ``keys`` (refused as a whole) that is refused on its own."""

    def qx(background: list[str], added: bool, candidates: list[str]) -> list[str]:
        if added and refused(background):
            return []
        if len(candidates) == 1:
            return candidates
        half = len(candidates) // 2
        c1, c2 = candidates[:half], candidates[half:]
        d2 = qx(background + c1, bool(c1), c2)
        d1 = qx(background + d2, bool(d2), c1)
        return d1 + d2

    return qx([], False, keys)


def joint_ranges(rules, ranges: Mapping[str, tuple[int, int, int]], *,
                 seed: int = 0) -> dict[str, tuple[int, int]]:
    """Narrow ``{key: (value, lo, hi)}`` (each range loading alone, ``lo <= value <= hi``)
    so that the ranges load together; returns ``{key: (lo, hi)}``, possibly with
    ``lo == hi`` (the key cannot vary with the others)."""
    keys = list(ranges)
    value = {k: int(ranges[k][0]) for k in keys}
    box = {k: [int(ranges[k][1]), int(ranges[k][2])] for k in keys}
    if len(keys) < 2:
        return {k: (box[k][0], box[k][1]) for k in keys}
    rng = np.random.default_rng(seed)
    interior = rng.random((INTERIOR_POINTS, len(keys)))

    def points():
        # each a function of the current box, so a narrowed end is re-tried at once
        yield lambda: {k: box[k][0] for k in keys}
        yield lambda: {k: box[k][1] for k in keys}
        # two keys' indices differ in some bit: the point with the keys whose index has
        # that bit set high and the others low, and its mirror, hold them at opposite ends
        for bit in range(max(1, (len(keys) - 1).bit_length())):
            for side in (0, 1):
                yield lambda bit=bit, side=side: {
                    k: box[k][((i >> bit) & 1) ^ side] for i, k in enumerate(keys)}
        for u in interior:
            yield lambda u=u: {k: box[k][0] + int(round(x * (box[k][1] - box[k][0])))
                               for k, x in zip(keys, u)}

    def room(c: str, refused_value: int) -> tuple[int, int]:
        """How far ``c``'s range reaches past its value on the refused value's side, then
        its width."""
        side = value[c] - box[c][0] if refused_value < value[c] else box[c][1] - value[c]
        return side, box[c][1] - box[c][0]

    def narrow(point) -> bool:
        """Narrow the box until ``point`` (re-made from it) loads; whether it narrowed."""
        narrowed = False
        while True:
            vals = {k: v for k, v in point().items() if v != value[k]}
            if loads(rules, vals):
                return narrowed
            culprits = _quickxplain(lambda ks, vals=vals: not loads(rules, {k: vals[k] for k in ks}),
                                    sorted(vals))
            # the key reaching furthest on the refused side gives up the refused value
            # (ties: the widest, then the first in order), so two ranges that meet share
            # the narrowing; a culprit differs from its value: it has room
            k = max(culprits, key=lambda c, vals=vals: (*room(c, vals[c]), -sorted(vals).index(c)))
            if vals[k] < value[k]:
                box[k][0] = vals[k] + 1
            else:
                box[k][1] = vals[k] - 1
            narrowed = True

    for _ in range(MAX_SWEEPS):
        if not any([narrow(point) for point in points()]):
            return {k: (box[k][0], box[k][1]) for k in keys}
    raise RulesetError(f"the ranges of {', '.join(keys)} could not be narrowed to values "
                       "the ruleset accepts together")


def calibrate_range(rules, key: str, value: int) -> tuple[int, int]:
    """``calibrate``'s default range of an integer ruleset value: from its field's minimum
    (0 without one) to four times the value plus ten, within the field's maximum, kept to
    the run of values around ``value`` that load (the other values unchanged), so that the
    bisection may try any integer between the ends."""
    fld = rules.field(key)
    floor = fld.min if fld.min is not None else 0
    top = 4 * value + 10
    if fld.max is not None:
        top = min(top, fld.max)
    return contiguous_range(rules, key, value, min(int(floor), value), max(int(top), value))
