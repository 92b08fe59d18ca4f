"""What two cores give: two threads of one process against two independent processes.

    python benchmarks/two_cores.py --games 20000 --rounds 5

Each round, alternated: (1) ``play_games`` on one thread; (2) the same number of games on
two threads of one process (``api.run_kernel``'s ranges); (3) two independent processes,
each playing those games on one thread, started together.  Reference-ruleset 4-player
baseline games.  Two independent processes share nothing but the machine, so (3) over (1)
is what this machine gives to a second core; (2) over (1) is what the runner gets of it.
CPU microseconds a game (process time over games) tell contention (more CPU a game) from
idle time (the same CPU a game, less wall-clock speed-up).  The headline of each line is
the median of the rounds' ratios (each against the one-thread run of its own round: this
VM's speed drifts between rounds); the ratio of the medians is printed beside it.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

_CHILD = r"""
import sys, time
from simlib.games.until_daylight import api
n, threads, go = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
api.play_games(64, players=4, threads=threads)  # load the kernels before the clock
while time.time() < go:
    time.sleep(0.001)
t, c = time.time(), time.process_time()
api.play_games(n, players=4, threads=threads, seed=11)
print(t, time.time(), time.process_time() - c)
"""


def _run(n: int, threads: int, procs: int) -> tuple[float, float]:
    """(games per wall second, CPU microseconds per game) over the processes: all their games
    over the time from the first start to the last end (not the sum of each process's
    rate, which counts the time a process runs alone after the other ended as shared)."""
    go = time.time() + 3.0  # every process loaded before the start
    ps = [subprocess.Popen([sys.executable, "-c", _CHILD, str(n), str(threads), str(go)],
                           stdout=subprocess.PIPE, text=True) for _ in range(procs)]
    out = [p.communicate()[0].split() for p in ps]
    span = max(float(o[1]) for o in out) - min(float(o[0]) for o in out)
    return n * procs / span, 1e6 * sum(float(o[2]) for o in out) / (n * procs)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=20_000)
    p.add_argument("--rounds", type=int, default=5)
    a = p.parse_args(argv)
    rows: dict[str, list[float]] = {"1 thread": [], "2 threads, 1 process": [], "2 processes": []}
    cpu: dict[str, list[float]] = {k: [] for k in rows}
    for r in range(a.rounds):
        for k, (threads, procs) in zip(rows, ((1, 1), (2, 1), (1, 2))):
            rate, us = _run(a.games, threads, procs)
            rows[k].append(rate)
            cpu[k].append(us)
        print(f"round {r + 1}: " + ", ".join(f"{k} {v[-1]:,.0f} games/s ({cpu[k][-1]:.0f} CPU us a game)"
                                             for k, v in rows.items()), flush=True)
    base = statistics.median(rows["1 thread"])
    for k, v in rows.items():
        m = statistics.median(v)
        paired = [x / y for x, y in zip(v, rows["1 thread"])]
        print(f"{k}: {statistics.median(paired):.2f}x one thread (median of the rounds' "
              f"ratios); median {m:,.0f} games/s = {m / base:.2f}x the median one-thread "
              f"rate; {statistics.median(cpu[k]):.0f} CPU us a game "
              f"(per round: {', '.join(f'{x:.2f}' for x in paired)})")


if __name__ == "__main__":
    main()
