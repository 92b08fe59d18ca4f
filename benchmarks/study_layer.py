"""The study layer's cost over the kernel, per chunk of games (issues #15 and #33).

    python benchmarks/study_layer.py reference 10000     # ruleset (name or path), games per chunk

Plays chunks of 4-player baseline games through the kernel alone (one thread) and, for
each chunk, times what a study adds to it, in CPU time of the same thread: the
counts-only path (count the kernel's codes) and the records path (the records frame, then
the same counting).  Prints the best of 5 of each and its share of the kernel's time
(``simlib bench`` prints the same figures on the reference ruleset under the game
benchmark, beside ``simulate`` over ``play_games``: ``until_daylight_speed.layer_share``).
"""
from __future__ import annotations

import sys

from until_daylight_speed import layer_share  # beside this script


def main(ruleset: str = "reference", n: int = 10_000, repeats: int = 5) -> str:
    k, rec, cnt = layer_share(n, repeats, ruleset)
    return (f"{ruleset}: kernel {k * 1e3:.1f} ms CPU / {n} games (1 thread); counts path "
            f"{cnt * 1e3:.1f} ms ({100 * cnt / k:.1f} %); records path {rec * 1e3:.1f} ms "
            f"({100 * rec / k:.1f} %) (best of {repeats})")


if __name__ == "__main__":
    print(main(sys.argv[1] if len(sys.argv) > 1 else "reference",
               int(sys.argv[2]) if len(sys.argv) > 2 else 10_000))
