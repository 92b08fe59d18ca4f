"""Overhead of the designer's instruments over plain ``simulate`` of the same games.

    python benchmarks/bench_instruments.py [--games 20000] [--repeats 3]

Measured as ratios in one run (the machine may be shared and noisy): each repeat times,
back to back, the instrument and the ``simulate`` calls that play exactly its games;
the ratio of the medians is reported.

* compare: ``compare(N, sets=...)`` plays N games of variant A and N of variant B;
  the baseline is ``simulate(N, ruleset=A)`` + ``simulate(N, ruleset=B)`` (counts only).
* sweep: ``sweep({key: [v1, v2, v3]}, N)`` against three ``simulate(N, ruleset=key=v)``.

Both sides warm up first (kernel load, ruleset packing) outside the timed region.
"""
from __future__ import annotations

import argparse
import statistics
import time

import simlib
from simlib.games.until_daylight.ruleset import load_ruleset

KEY = "horde.survivor.count"


def _time(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def measure(games: int = 20_000, repeats: int = 3, players: int = 4, threads: int | None = None):
    base = load_ruleset("calibrated")
    other = base.override({KEY: 150})
    sweep_values = [150, 175, 200]
    sweep_rules = [base.override({KEY: v}) for v in sweep_values]
    kw = dict(players=players, seed=1, progress=False, threads=threads)

    def plain_compare():
        simlib.simulate(games, ruleset=base, keep_records=False, **kw)
        simlib.simulate(games, ruleset=other, keep_records=False, **kw)

    def inst_compare():
        simlib.compare(games, ruleset=base, sets={KEY: 150}, **kw)

    def plain_sweep():
        for r in sweep_rules:
            simlib.simulate(games, ruleset=r, keep_records=False, **kw)

    def inst_sweep():
        simlib.sweep({KEY: sweep_values}, games, ruleset=base, **kw)

    # warm-up: kernel load, packing of every ruleset
    for f in (plain_compare, inst_compare, plain_sweep, inst_sweep):
        small = games
        games = 200
        f()
        games = small
    rows = {"compare": ([], []), "sweep": ([], [])}
    for _ in range(repeats):
        rows["compare"][0].append(_time(plain_compare))
        rows["compare"][1].append(_time(inst_compare))
        rows["sweep"][0].append(_time(plain_sweep))
        rows["sweep"][1].append(_time(inst_sweep))
    out = []
    for name, (plain, inst) in rows.items():
        p, i = statistics.median(plain), statistics.median(inst)
        n = 2 * games if name == "compare" else len(sweep_values) * games
        out.append({"instrument": name, "games": n, "simulate_s": round(p, 3),
                    "instrument_s": round(i, 3), "ratio": round(i / p, 3),
                    "overhead_pct": round(100 * (i / p - 1), 1)})
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--threads", type=int, default=None)
    a = ap.parse_args(argv)
    import pandas as pd

    df = pd.DataFrame(measure(a.games, a.repeats, threads=a.threads))
    print(f"instrument overhead over simulate of the same games (4 players, baseline, "
          f"calibrated preset; median of {a.repeats} interleaved repeats)")
    print(df.to_string(index=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
