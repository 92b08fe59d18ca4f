"""Strong players and the study layer: the ratios of issue #33, measured in one run.

    python benchmarks/strong_players.py search --games 40         # where a search game's time goes
    python benchmarks/strong_players.py till-dawn --rounds 3     # optimal vs threshold
    python benchmarks/strong_players.py study --games 200000     # simulate vs play_games

``search``: Until Daylight's search player (``rollout-100`` with a two-round horizon by
default; ``--policy rollout-1000``) on the calibrated ruleset, 4 players, games
``start .. start + n - 1`` of seed 1, 2 threads, through the same kernel as ``play_games``
with the search's counters kept: decisions searched, continuations per decision,
searches stopped early, choices changed; the games per second beside the baseline's on
the same games in the same run, and the engine's decisions per second with the baseline
choosing beside the random policy choosing (what the rollout policy's scoring costs a
continuation).

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


def search(games: int, start: int, policy: str, horizon: int, threads: int) -> None:
    from simlib.core.parallel import run_ranges
    from simlib.games.until_daylight import api
    from simlib.games.until_daylight import codes as K
    from simlib.games.until_daylight.kernels import search_nb as S
    from simlib.games.until_daylight.policies import resolve_search
    from simlib.games.until_daylight.ruleset import load_ruleset

    rules = load_ruleset(None)  # the calibrated default
    bid, bpp, rp = resolve_search(policy, {"horizon": horizon})

    def run_search(n, first):
        out = np.zeros((n, K.N_REC), dtype=np.int64)
        stats = np.zeros((n, S.N_STATS), dtype=np.int64)
        npl = np.full(n, 4, dtype=np.int64)
        chars = np.full((n, K.MAX_PLAYERS), -1, dtype=np.int64)
        args = (api.flat_rules(rules), np.int64(1), np.int64(first), npl, chars, np.int64(bid),
                bpp, rp, np.int64(0), out, stats)
        t = time.perf_counter()
        run_ranges(S.play_range_search_stats_nb, args, n, threads)
        return time.perf_counter() - t, out, stats

    def run_plain(pol, n, first):
        t = time.perf_counter()
        rec = api.play_games(n, players=4, seed=1, start=first, policy=pol, ruleset=rules,
                             threads=threads)
        return time.perf_counter() - t, rec

    run_search(2, 0)  # compile or load, outside the timing
    run_plain("baseline", 64, 0)
    run_plain("random", 64, 0)
    many = max(400, 50 * games)
    tb, _ = run_plain("baseline", many, start)
    ts, out, stats = run_search(games, start)
    tb2, base = run_plain("baseline", many, start)
    tr, rnd = run_plain("random", many, start)
    tb = min(tb, tb2)
    tot = stats.sum(axis=0)
    dec, srch, cont = tot[S.ST_DECISIONS], tot[S.ST_SEARCHED], tot[S.ST_CONTINUATIONS]
    print(f"{policy} (horizon {horizon}), calibrated, 4 players, games {start}-{start + games - 1} "
          f"of seed 1, {threads} threads")
    print(f"  decisions a game {dec / games:.1f}, searched {srch / games:.1f}; continuations a "
          f"game {cont / games:,.0f} ({cont / max(srch, 1):.1f} a searched decision)")
    print(f"  searches stopped early (every challenger dropped): {tot[S.ST_EARLY]:,} of {srch:,} "
          f"({100 * tot[S.ST_EARLY] / max(srch, 1):.0f} %); choices changed from the "
          f"baseline's: {tot[S.ST_CHANGED]:,} ({100 * tot[S.ST_CHANGED] / max(srch, 1):.2f} %)")
    gs, gb = games / ts, many / tb
    print(f"  {gs:.2f} games/s; the baseline {gb:,.0f} games/s on games {start}-{start + many - 1} "
          f"in the same run: the search at 1/{gb / gs:,.0f} of it; {cont / ts:,.0f} "
          f"continuations/s")
    db = base["decisions"].sum() / tb
    dr = rnd["decisions"].sum() / tr
    print(f"  engine: {db:,.0f} decisions/s with the baseline choosing, {dr:,.0f} with the "
          f"random policy (the baseline's scoring: about {100 * (1 - db / dr):.0f} % of a "
          "decision's time)")


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
    s = sub.add_parser("search")
    s.add_argument("--games", type=int, default=40)
    s.add_argument("--start", type=int, default=100)
    s.add_argument("--policy", default="rollout-100")
    s.add_argument("--horizon", type=int, default=2)
    s.add_argument("--threads", type=int, default=2)
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
    if args.what == "search":
        search(args.games, args.start, args.policy, args.horizon, args.threads)
    elif args.what == "till-dawn":
        till_dawn(args.rounds, args.games, args.optimal_games, args.threads)
    else:
        study(args.rounds, args.games, args.threads)


if __name__ == "__main__":
    main()
