"""Plays rulesets with numba's bounds checks on; run as a subprocess by tests/test_bounds.py.

The parent sets ``NUMBA_BOUNDSCHECK=1`` and a ``NUMBA_CACHE_DIR`` of its own (the
bounds-checked kernels are a different compilation from the normal ones).  Modes:

``python boundscheck_worker.py cases``
    stdin: a JSON list of cases ``{"name", "override", "players", "games", "policy",
    "trace_capacity"}``; each case's ruleset is the reference one with ``override``
    applied; every player count plays ``games`` games with the invariant checks on, and
    one game is traced with an event buffer of ``trace_capacity`` rows.  stdout: one JSON
    line per case and player count.
``python boundscheck_worker.py property N SEED``
    hypothesis draws ``N`` random valid overrides of the numeric fields (each within its
    allowed range, ``simlib.games.until_daylight.capacities.int_range``) and plays a few games
    of each the same way.

Exit status 0 when every game kept within bounds, wrote one record with no invariant
violation; otherwise a traceback (an ``IndexError`` names the out-of-bounds access) or
the first failing case, and status 1.
"""
from __future__ import annotations

import json
import sys
import time

import numpy as np


def play_case(rules, players, games, policy, seed, trace_capacity):
    from simlib.games.until_daylight import codes as K
    from simlib.games.until_daylight.api import play_games, trace_game

    out = []
    for p in players:
        rec = play_games(games, players=p, seed=seed, policy=policy, ruleset=rules, check=True)
        problems = []
        if len(rec) != games:
            problems.append(f"{len(rec)} records for {games} games")
        if not np.array_equal(rec["game"], np.arange(games)):
            problems.append("record game indices are not 0..n-1")
        if not np.all(rec["players"] == p):
            problems.append("a record with the wrong player count")
        bad = np.flatnonzero(rec["violation"] != 0)
        if bad.size:
            v = int(rec["violation"][bad[0]])
            problems.append(f"{bad.size} games violate an invariant, first game {int(bad[0])}: "
                            f"{K.VIOL_NAMES.get(v, v)}")
        if not np.all(np.isin(rec["outcome"], [K.OUT_WIN, K.OUT_LOSS])):
            problems.append("an outcome that is neither win nor loss")
        record, events = trace_game(seed=seed, players=p, policy=policy, ruleset=rules, game=0,
                                    capacity=trace_capacity, check=True)
        if len(events) > trace_capacity:
            problems.append(f"{len(events)} events in a buffer of {trace_capacity}")
        if int(record["violation"]) != 0:
            problems.append("the traced game violates an invariant")
        out.append({"players": p, "games": int(len(rec)), "wins": int(rec["outcome"].sum()),
                    "max_round": int(rec["round_reached"].max()), "problems": problems})
    return out


def numeric_fields(rules):
    """``[(key, lo, hi)]`` of every integer value of the ruleset (die faces: per face)."""
    from simlib.games.until_daylight.capacities import int_range

    fields = []
    for key in rules.keys():
        value = rules.get(key)
        if isinstance(value, bool):
            continue
        if isinstance(value, int):
            r = int_range(key)
            assert r is not None, f"no allowed range for {key}"
            fields.append((key, *r))
        elif isinstance(value, dict) and key.startswith("dice.") and key.endswith(".faces"):
            for face in value:
                fields.append((f"{key}.{face}", *int_range(f"{key}.{face}")))
    return fields


def property_mode(n_examples: int, seed: int) -> int:
    from hypothesis import HealthCheck, given, settings, strategies as st
    from hypothesis import seed as hseed

    from simlib.games.until_daylight.ruleset import RulesetError, load_ruleset

    base = load_ruleset("reference")
    fields = numeric_fields(base)
    stats = {"valid": 0, "refused": 0, "games": 0}

    @st.composite
    def overrides(draw):
        chosen = draw(st.lists(st.sampled_from(fields), min_size=1, max_size=8,
                               unique_by=lambda f: f[0]))
        ov: dict = {}
        for key, lo, hi in chosen:
            # mostly small values (where games are played), sometimes the extremes
            v = draw(st.one_of(st.integers(lo, min(hi, lo + 20)), st.integers(lo, hi)))
            if ".faces." in key:
                die = key.rsplit(".", 2)[0]
                faces = dict(ov.get(die + ".faces", base.get(die + ".faces")))
                faces[key.rsplit(".", 1)[1]] = v
                if sum(faces.values()) == 0:
                    faces[key.rsplit(".", 1)[1]] = 1
                ov[die + ".faces"] = faces
                ov[die + ".size"] = sum(faces.values())
            else:
                ov[key] = v
        return ov

    @hseed(seed)
    @settings(max_examples=n_examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(ov=overrides(), players=st.integers(3, 6), policy=st.sampled_from(["random", "baseline"]))
    def prop(ov, players, policy):
        try:
            rules = base.override(ov)
        except RulesetError as exc:
            # a refused combination must name one of the keys drawn (or its file's table)
            msg = str(exc)
            assert msg.startswith("override: "), msg
            stats["refused"] += 1
            return
        lo = rules.get("constants.min_players")
        hi = rules.get("constants.max_players")
        p = min(max(players, lo), hi)
        t0 = time.perf_counter()
        res = play_case(rules, [p], 3, policy, 11, 50)
        stats["valid"] += 1
        stats["games"] += 3
        assert not res[0]["problems"], (ov, res)
        dt = time.perf_counter() - t0
        if dt > 20:
            print(json.dumps({"slow_example": ov, "seconds": round(dt, 1)}), flush=True)

    prop()
    print(json.dumps({"property": stats}), flush=True)
    return 0


def cases_mode() -> int:
    from simlib.games.until_daylight.ruleset import load_ruleset

    cases = json.load(sys.stdin)
    base = load_ruleset("reference")
    bad = 0
    for case in cases:
        rules = base.override(case.get("override", {}))
        t0 = time.perf_counter()
        for r in play_case(rules, case["players"], case["games"], case.get("policy", "baseline"),
                           case.get("seed", 3), case.get("trace_capacity", 64)):
            r["name"] = case["name"]
            r["seconds"] = round(time.perf_counter() - t0, 3)
            bad += bool(r["problems"])
            print(json.dumps(r), flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    import numba

    assert numba.config.BOUNDSCHECK, "run with NUMBA_BOUNDSCHECK=1"
    if sys.argv[1] == "cases":
        sys.exit(cases_mode())
    sys.exit(property_mode(int(sys.argv[2]), int(sys.argv[3])))
