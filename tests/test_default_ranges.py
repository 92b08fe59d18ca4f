"""The ranges ``sensitivity`` and ``calibrate`` choose when given none stay inside what
each game's ruleset validator accepts (``override``), for every registered game.

A field's own bounds are not enough: validators also check values against each other
(Day Night Z's health and stress thresholds, Mort's pallets on the board, Until the World
Ends' deck against the seats).  Before the ranges asked the validator about combinations,
``simlib sensitivity --game day-night-z`` stopped because the ruleset refused a point of
every Morris trajectory, and ``simlib calibrate --game day-night-z --param
survivor.health_max`` stopped on its own default range (health 1, below the yellow
threshold) with an error naming ``survivor.health_yellow_at``.

The checks below are written apart from the code that narrows the ranges: every value of
a range alone, the Morris design ``sensitivity`` plays by default (drawn as the instrument
draws it), random corners of the whole box, and every corner of every pair of keys of one
table.
"""
from __future__ import annotations

from collections import defaultdict
from itertools import combinations, product

import numpy as np
import pytest

import simlib
from simlib.core.games import game_names, get_game
from simlib.core.instruments import DUMMY, InstrumentError, assumed_params, resolve_param
from simlib.core.ranges import calibrate_range
from simlib.core.ruleset import RulesetError

GAMES = game_names()
RANDOM_CORNERS = 64


def _refusal(rules, values: dict) -> str | None:
    try:
        rules.override(values)
    except RulesetError as exc:
        return str(exc)
    return None


def _sensitivity_box(name):
    info = get_game(name)
    rules = info.resolve_ruleset(info.sensitivity_ruleset)
    return rules, assumed_params(rules, game=info)


@pytest.mark.parametrize("name", GAMES)
def test_every_value_of_a_default_sensitivity_range_loads_alone(name):
    rules, box = _sensitivity_box(name)
    assert len(box) > 0
    for row in box.itertuples():
        assert row.lo <= row.value <= row.hi and row.lo < row.hi, row
        for v in range(int(row.lo), int(row.hi) + 1):
            assert _refusal(rules, {row.key: v}) is None, (row.key, v)


@pytest.mark.parametrize("name", GAMES)
def test_the_default_morris_design_loads_at_every_point(name):
    """The points ``simlib sensitivity --game <name>`` plays with its defaults (6
    trajectories, 4 levels, sample seed 0), rounded as the instrument rounds them."""
    from SALib.sample import morris as morris_sample

    rules, box = _sensitivity_box(name)
    names = list(box["key"]) + [DUMMY]
    bounds = [[float(a), float(b)] for a, b in zip(box["lo"], box["hi"])] + [[0.0, 1.0]]
    X = morris_sample.sample({"num_vars": len(names), "names": names, "bounds": bounds},
                             N=6, num_levels=4, seed=0)
    refused = set()
    for row in X:
        why = _refusal(rules, {k: int(round(v)) for k, v in zip(names[:-1], row[:-1])})
        if why is not None:
            refused.add(why)
    assert not refused, sorted(refused)[:3]


@pytest.mark.parametrize("name", GAMES)
def test_corners_of_the_default_sensitivity_box_load(name):
    """All ends low, all ends high, random corners of the whole box, and every corner of
    every pair of keys of one table or entry (``survivor.*``, ``board.*``,
    ``enemies.walker.day.*``; the other keys at their values)."""
    rules, box = _sensitivity_box(name)
    lo = dict(zip(box["key"], box["lo"].astype(int)))
    hi = dict(zip(box["key"], box["hi"].astype(int)))
    keys = list(lo)
    points = [lo, hi]
    rng = np.random.default_rng(12345)
    for _ in range(RANDOM_CORNERS):
        points.append({k: (hi[k] if up else lo[k]) for k, up in zip(keys, rng.random(len(keys)) < 0.5)})
    tables = defaultdict(list)
    for k in keys:
        tables[k.rsplit(".", 1)[0]].append(k)
    for members in tables.values():
        for a, b in combinations(members, 2):
            for va, vb in product((lo[a], hi[a]), (lo[b], hi[b])):
                points.append({a: va, b: vb})
    refused = {why for p in points if (why := _refusal(rules, p)) is not None}
    assert not refused, sorted(refused)[:3]


def _calibratable(rules, info):
    for key in rules.keys():
        try:
            prm = resolve_param(key, rules, None, info)
        except InstrumentError:
            continue  # not an integer: calibrate refuses it with its own message
        yield key, int(prm.value)


@pytest.mark.parametrize("name", GAMES)
def test_every_value_of_a_default_calibrate_range_loads(name, monkeypatch):
    """calibrate bisects on integers: any value between the default ends may be played.
    The validator's answers are asked once a value and shared with ``calibrate_range``
    (Day Night Z has 401 integer keys and thousands of values to check)."""
    from simlib.core import ranges

    info = get_game(name)
    rules = info.resolve_ruleset(None)
    answers: dict = {}

    def accepted(key, v) -> bool:
        if (key, v) not in answers:
            answers[(key, v)] = _refusal(rules, {key: v}) is None
        return answers[(key, v)]

    real = ranges.loads
    monkeypatch.setattr(ranges, "loads", lambda r, vals: accepted(*next(iter(vals.items())))
                        if r is rules and len(vals) == 1 else real(r, vals))
    n = 0
    for key, value in _calibratable(rules, info):
        lo, hi = calibrate_range(rules, key, value)
        assert lo <= value <= hi, (key, lo, value, hi)
        fld = rules.field(key)
        floor = min(fld.min if fld.min is not None else 0, value)
        top = max(min(4 * value + 10, fld.max if fld.max is not None else 4 * value + 10), value)
        assert floor <= lo and hi <= top, (key, lo, hi)
        assert all(accepted(key, v) for v in range(lo, hi + 1)), key
        # as wide as the validator allows: the next value out is refused or past the bound
        assert lo == floor or not accepted(key, lo - 1), (key, lo)
        assert hi == top or not accepted(key, hi + 1), (key, hi)
        n += 1
    assert n > 0


def test_day_night_z_calibrate_runs_on_its_default_range():
    """The issue's command, small: the default range of survivor.health_max starts above
    the yellow threshold (6), where it used to start at the field's 1."""
    res = simlib.calibrate("survivor.health_max", 0.5, players=2, game="day_night_z", games=40,
                           max_games=80, tolerance=0.3, progress=False)
    lo, hi = res.provenance["range"]
    rules = get_game("day_night_z").resolve_ruleset(None)
    assert rules.get("survivor.health_yellow_at") < lo <= rules.get("survivor.health_max") < hi
    assert lo <= res.value <= hi


def test_a_pinned_value_is_told_not_calibrated():
    """A value the validator accepts only as it is (the deck of Until the World Ends
    against its seats would be one example) has nothing to calibrate: a clear error."""
    info = get_game("day_night_z")
    rules = info.resolve_ruleset(None)
    # health_red_at 3 < health_yellow_at 6 < health_max 9: with red at 5 and max at 7,
    # the yellow threshold can only be 6
    pinned = rules.override({"survivor.health_red_at": 5, "survivor.health_max": 7})
    assert calibrate_range(pinned, "survivor.health_yellow_at", 6) == (6, 6)
    with pytest.raises(InstrumentError, match="health_yellow_at.*no value but 6"):
        simlib.calibrate("survivor.health_yellow_at", 0.5, players=2, game="day_night_z",
                         ruleset=pinned, games=10, progress=False)
