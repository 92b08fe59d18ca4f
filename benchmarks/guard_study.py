"""Does the speed guard cry wolf?  Fresh-process guard runs while other processes keep
cores busy: unchanged code must pass every time, a kernel doing k times the work
(``SIMLIB_BENCH_SLOWDOWN``, measured through the guard's own path) must fail every time.

    python benchmarks/guard_study.py --runs 20 --busy 1 --slowdowns 3,2

prints one line per guard run and a summary table (runs, passes, failures naming the
slowed kernel), plus the load average before and after.  Used for the figures in
docs/ci-and-speed.md ("Does the guard cry wolf?").
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

from simlib.bench import GUARDED  # noqa: E402  (the kernels the guard watches, every game)
BUSY = "import time\nwhile True:\n    pass\n"


def guard_once(env_extra: dict[str, str]) -> tuple[int, str, float]:
    env = dict(os.environ, **env_extra)
    t0 = time.monotonic()
    p = subprocess.run([sys.executable, "-m", "simlib.bench", "--guard"], env=env,
                       capture_output=True, text=True, timeout=3600)
    return p.returncode, p.stdout, time.monotonic() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=20, help="guard runs per condition")
    ap.add_argument("--busy", type=int, default=1, help="busy-loop processes to start")
    ap.add_argument("--slowdowns", default="3,2", help="work factors of the slowed runs")
    a = ap.parse_args(argv)
    busy = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(a.busy)]
    rows = []
    try:
        print(f"load average before: {os.getloadavg()}", flush=True)
        conditions = [("unchanged", 1)] + [(f"x{k}", int(k)) for k in a.slowdowns.split(",") if k]
        for r in range(a.runs):
            for label, k in conditions:
                kernel = GUARDED[r % len(GUARDED)]
                extra = {} if k == 1 else {"SIMLIB_BENCH_SLOWDOWN": f"{kernel}={k}"}
                rc, out, dt = guard_once(extra)
                failed = [n for n in GUARDED if f"kernel '{n}' is too slow" in out]
                ratios = {line.split()[0]: line.split()[5] for line in out.splitlines()
                          if "x floor" in line}
                ok = (rc == 0) if k == 1 else (rc == 1 and kernel in failed)
                rows.append((label, kernel if k != 1 else "-", ok, failed))
                print(f"run {r + 1:>2} {label:<9} slowed {kernel if k != 1 else '-':<13} "
                      f"exit {rc} failed {','.join(failed) or '-':<28} "
                      f"{'as expected' if ok else 'WRONG'}  ({dt:.0f} s; x floor: "
                      + " ".join(f"{n}={ratios.get(n, '?')}" for n in GUARDED) + ")", flush=True)
        print(f"load average after: {os.getloadavg()}")
    finally:
        for p in busy:
            p.kill()
            p.wait()
    print("\ncondition  runs  as expected")
    for label, _k in conditions:
        sel = [r for r in rows if r[0] == label]
        print(f"{label:<9} {len(sel):>5}  {sum(r[2] for r in sel):>5}")
    return 0 if all(r[2] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
