"""Does the speed guard cry wolf, and does it catch a 2x slowdown?  Fresh-process guard
runs while other processes keep cores busy: unchanged code must pass every time, a kernel
doing k times the work (``SIMLIB_BENCH_SLOWDOWN``, measured through the guard's own path:
each block runs the same operations k times) must fail every time.

    python benchmarks/guard_study.py --runs 20 --busy 1 --slowdowns 3,2
    python benchmarks/guard_study.py --runs 6 --busy 1 --slowdowns 2 --kernels game,runner --only

prints one line per guard run, then per condition and kernel the range of its ratio as a
multiple of its floor ("x floor": 1.00 is the floor; a slowed kernel caught with a clear
margin sits well below 1, unchanged code well above), plus the load average before and
after.  Used for the figures in benchmarks/README.md ("Does the guard cry wolf?").
"""
from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time

from simlib.core.bench import GUARDED  # the kernels the guard watches, every game

BUSY = "import time\nwhile True:\n    pass\n"


def guard_once(env_extra: dict[str, str], only: list[str] | None) -> tuple[int, str, float]:
    env = dict(os.environ, **env_extra)
    t0 = time.monotonic()
    cmd = [sys.executable, "-m", "simlib.core.bench", "--guard"]
    if only:
        cmd += ["--only", ",".join(only)]
    p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=3600)
    return p.returncode, p.stdout + p.stderr, time.monotonic() - t0


def x_floor(out: str) -> dict[str, float]:
    """``{kernel: ratio / floor}`` from the guard's table."""
    res = {}
    for line in out.splitlines():
        parts = line.split()
        if "x floor" in line and parts and parts[0] in GUARDED:
            res[parts[0]] = float(parts[5].rstrip("x"))
    return res


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=20, help="guard runs per condition")
    ap.add_argument("--busy", type=int, default=1, help="busy-loop processes to start")
    ap.add_argument("--slowdowns", default="3,2", help="work factors of the slowed runs")
    ap.add_argument("--kernels", default=",".join(GUARDED),
                    help="the kernels slowed in turn (default: every guarded kernel)")
    ap.add_argument("--only", action="store_true",
                    help="each guard run measures only --kernels (simlib bench --guard --only)")
    a = ap.parse_args(argv)
    kernels = [k for k in a.kernels.split(",") if k]
    unknown = sorted(set(kernels) - set(GUARDED))
    if unknown:
        ap.error(f"unknown kernels {unknown}; guarded: {', '.join(GUARDED)}")
    # a SIGTERM ends the study through ``finally`` below, so its busy loops end with it
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    busy = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(a.busy)]
    rows = []
    conditions = [("unchanged", 1)] + [(f"x{k}", int(k)) for k in a.slowdowns.split(",") if k]
    try:
        print(f"load average before: {os.getloadavg()}", flush=True)
        for r in range(a.runs):
            for label, k in conditions:
                kernel = kernels[r % len(kernels)]
                extra = {} if k == 1 else {"SIMLIB_BENCH_SLOWDOWN": f"{kernel}={k}"}
                rc, out, dt = guard_once(extra, kernels if a.only else None)
                failed = [n for n in GUARDED if f"kernel '{n}' is too slow" in out]
                xf = x_floor(out)
                ok = (rc == 0) if k == 1 else (rc == 1 and failed == [kernel])
                rows.append((label, kernel if k != 1 else "-", ok, failed, xf))
                print(f"run {r + 1:>2} {label:<9} slowed {kernel if k != 1 else '-':<14} "
                      f"exit {rc} failed {','.join(failed) or '-':<28} "
                      f"{'as expected' if ok else 'WRONG'}  ({dt:.0f} s; x floor: "
                      + " ".join(f"{n}={xf.get(n, float('nan')):.2f}" for n in GUARDED) + ")",
                      flush=True)
        print(f"load average after: {os.getloadavg()}")
    finally:
        for p in busy:
            p.kill()
            p.wait()
    print("\ncondition  runs  as expected")
    for label, _k in conditions:
        sel = [r for r in rows if r[0] == label]
        print(f"{label:<9} {len(sel):>5}  {sum(r[2] for r in sel):>5}")
    print("\nx floor (ratio / floor; below 1.00 fails), min-max over the runs")
    print(f"{'kernel':<15} {'unchanged':>12} " + " ".join(f"{c[0] + ' (slowed)':>14}" for c in conditions[1:]))
    for n in GUARDED:
        cells = []
        for label, k in conditions:
            vals = [r[4][n] for r in rows if r[0] == label and n in r[4]
                    and (k == 1 or r[1] == n)]
            cells.append(f"{min(vals):.2f}-{max(vals):.2f}" if vals else "-")
        print(f"{n:<15} {cells[0]:>12} " + " ".join(f"{c:>14}" for c in cells[1:]))
    return 0 if all(r[2] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
