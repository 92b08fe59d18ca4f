"""Games per second of two (or more) checkouts of simlib, measured in one sitting.

    git worktree add /tmp/old 6767e03                  # the code to compare against
    python benchmarks/ab_speed.py /tmp/old . --rounds 6

Each round runs every checkout once, in turn, in a fresh process with the checkout first
on ``PYTHONPATH`` and its own numba cache (``<checkout>/.ab-numba-cache``, compiled on the
first round, outside the timing): reference-ruleset 4-player baseline games through
``play_games`` on one thread, best of ``--blocks`` blocks of ``--games`` games.  Rounds
interleave the checkouts, so a busy neighbour slows them alike (this VM's single runs vary
by up to 1.6x).  Prints each checkout's games/s per round, then the ratio of the medians.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

_CHILD = r"""
import sys, time
try:
    from simlib.games.until_daylight import api
except ImportError:  # the layout before the game registry
    from simlib.until_daylight import api
blocks, n = int(sys.argv[1]), int(sys.argv[2])
api.play_games(64, players=4, threads=1)  # compile or load, outside the timing
best = 0.0
for b in range(blocks):
    t = time.perf_counter()
    api.play_games(n, players=4, threads=1, seed=1, start=b * n)
    best = max(best, n / (time.perf_counter() - t))
print(best)
"""


def games_per_second(checkout: Path, blocks: int, games: int) -> float:
    env = dict(os.environ, PYTHONPATH=str(checkout), NUMBA_CACHE_DIR=str(checkout / ".ab-numba-cache"))
    out = subprocess.run([sys.executable, "-c", _CHILD, str(blocks), str(games)], env=env,
                         cwd=checkout, capture_output=True, text=True, check=True)
    return float(out.stdout.split()[-1])


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("checkouts", nargs="+", type=Path)
    p.add_argument("--rounds", type=int, default=6)
    p.add_argument("--blocks", type=int, default=6)
    p.add_argument("--games", type=int, default=4000)
    a = p.parse_args(argv)
    dirs = [c.resolve() for c in a.checkouts]
    for d in dirs:  # compile each checkout's kernels into its cache (untimed)
        games_per_second(d, 1, 64)
    runs: dict[Path, list[float]] = {d: [] for d in dirs}
    for r in range(a.rounds):
        for d in dirs:
            runs[d].append(games_per_second(d, a.blocks, a.games))
            print(f"round {r + 1}: {d}: {runs[d][-1]:,.0f} games/s", flush=True)
    med = {d: statistics.median(v) for d, v in runs.items()}
    for d in dirs:
        print(f"{d}: median {med[d]:,.0f} games/s (best {max(runs[d]):,.0f}, worst {min(runs[d]):,.0f}); "
              f"{med[d] / med[dirs[0]]:.2f}x the first")


if __name__ == "__main__":
    main()
