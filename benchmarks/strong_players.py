"""Strong players and the study layer: the ratios of issue #33, measured in one run.

    python benchmarks/strong_players.py till-dawn --rounds 3     # optimal vs threshold
    python benchmarks/strong_players.py study --games 200000     # simulate vs play_games

``till-dawn``: heads-up Till Dawn games per second on 2 threads of an ``optimal`` player
against a ``threshold`` player, beside two ``threshold`` players, interleaved round by
round (games 0 .. n-1 of seed 1, random characters); prints each round and the ratio.

``study``: the same Until Daylight games (reference ruleset, 4 players, baseline, 2
threads) through ``play_games`` (one kernel call), ``simlib.simulate`` (records kept, the
default up to 10^6 games) and ``simlib.simulate(keep_records=False)``, interleaved round by
round (the order reversed every other round); prints each round's times and the
overheads over ``play_games``.

Only the ratios mean something on a shared machine: a busy neighbour slows the variants
of a round alike (single runs on the project's 2-core VM vary by up to 1.6x).
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np


def till_dawn(rounds: int, games: int, optimal_games: int, threads: int) -> None:
    from simlib.games.till_dawn import api
    from simlib.games.till_dawn.policies import POLICIES, make_seat
    from simlib.games.till_dawn.ruleset import load_ruleset

    rules = load_ruleset()

    def run(seats, n):
        ss = [make_seat(s) for s in seats]
        npl = np.full(n, len(ss), dtype=np.int64)
        chars = np.full((n, api.K.MAX_SEATS), -1, dtype=np.int64)
        pol = np.zeros((n, api.K.MAX_SEATS), dtype=np.int64)
        par = np.zeros((n, api.K.MAX_SEATS, 3))
        for i, s in enumerate(ss):
            pol[:, i] = POLICIES[s.policy].id
            par[:, i, :len(s.params)] = s.params
        t = time.perf_counter()
        api.run_kernel(rules, 1, 0, npl, chars, pol, par, api.work_size(rules, ss),
                       threads=threads)
        return n / (time.perf_counter() - t)

    run(["optimal", "threshold"], 8)  # compile or load, outside the timing
    run(["threshold", "threshold"], 8)
    ratios = []
    for r in range(rounds):
        a = run(["threshold", "threshold"], games)
        b = run(["optimal", "threshold"], optimal_games)
        ratios.append(b / a)
        print(f"round {r + 1}: threshold x2 {a:,.0f} games/s; optimal vs threshold {b:,.0f} "
              f"games/s (1/{a / b:,.0f})", flush=True)
    print(f"median: optimal vs threshold at 1/{1 / statistics.median(ratios):,.0f} of two "
          f"threshold players ({threads} threads)")


def study(rounds: int, games: int, threads: int) -> None:
    import simlib
    from simlib.games.until_daylight import api

    kw = dict(players=4, ruleset="reference", threads=threads)
    api.play_games(64, **kw)  # compile or load, outside the timing
    simlib.simulate(2000, progress=False, **kw)
    over, over_counts = [], []

    def timed(f, r):
        t = time.perf_counter()
        f(r)
        return time.perf_counter() - t

    variants = [
        lambda r: api.play_games(games, seed=r, **kw),
        lambda r: simlib.simulate(games, seed=r, progress=False, **kw),
        lambda r: simlib.simulate(games, seed=r, progress=False, keep_records=False, **kw),
    ]
    for r in range(rounds):
        order = [0, 1, 2] if r % 2 == 0 else [2, 1, 0]  # a drifting load hits each alike
        t = {}
        for v in order:
            t[v] = timed(variants[v], r)
        tk, ts, tn = t[0], t[1], t[2]
        over.append(ts / tk - 1)
        over_counts.append(tn / tk - 1)
        print(f"round {r + 1}: play_games {tk:.2f} s; simulate {ts:.2f} s ({100 * over[-1]:+.1f} %); "
              f"simulate without records {tn:.2f} s ({100 * over_counts[-1]:+.1f} %)", flush=True)
    print(f"median overhead over play_games: simulate {100 * statistics.median(over):+.1f} %, "
          f"without records {100 * statistics.median(over_counts):+.1f} % ({games:,} games, "
          f"{threads} threads)")


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    a = sub.add_parser("till-dawn")
    a.add_argument("--rounds", type=int, default=3)
    a.add_argument("--games", type=int, default=40_000)
    a.add_argument("--optimal-games", type=int, default=1_000)
    a.add_argument("--threads", type=int, default=2)
    b = sub.add_parser("study")
    b.add_argument("--rounds", type=int, default=3)
    b.add_argument("--games", type=int, default=200_000)
    b.add_argument("--threads", type=int, default=2)
    args = p.parse_args(argv)
    if args.what == "till-dawn":
        till_dawn(args.rounds, args.games, args.optimal_games, args.threads)
    else:
        study(args.rounds, args.games, args.threads)


if __name__ == "__main__":
    main()
