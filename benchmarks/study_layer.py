"""The study layer's cost over the kernel, per chunk of games (issue #15, item 1).

    python benchmarks/study_layer.py reference 10000     # ruleset (name or path), games per chunk

Plays chunks of 4-player baseline games through the kernel alone (one thread) and, for
each chunk, times what a study adds to it: the counts-only path (decode the columns the
tables read, count them) and the records path (the full records frame, then counting
it).  Prints the best of 5 of each and their share of the kernel's time.
"""
from __future__ import annotations

import sys
import time

import numpy as np

from simlib.core.tables import count_records
from simlib.games.until_daylight import api
from simlib.games.until_daylight import codes as K
from simlib.games.until_daylight.study import _normalize, make_adapter


def main(ruleset: str = "reference", n: int = 10_000, repeats: int = 5) -> str:
    ad = make_adapter(players=[4], seed=0, ruleset=ruleset)

    def kernel(start: int) -> np.ndarray:
        npl, chars = ad.configs(start, n)
        out = np.zeros(n, dtype=K.record_dtype())
        flat = out.view(np.int64).reshape(n, K.N_REC)
        api.run_kernel(ad.rules, ad.seed, start, npl, chars, ad.policy_id, ad.policy_params,
                       flat, 1, search=ad.search)
        return out

    kernel(0)  # compile or load, outside the timing
    tk, tc, tf = [], [], []
    for r in range(repeats):
        t = time.perf_counter()
        out = kernel(n * (r + 1))
        tk.append(time.perf_counter() - t)
        t = time.perf_counter()
        count_records(ad._lean_columns(out), ad.spec)
        tc.append(time.perf_counter() - t)
        t = time.perf_counter()
        count_records(_normalize(api.records_frame(out, ad.rules)), ad.spec)
        tf.append(time.perf_counter() - t)
    k, c, f = min(tk), min(tc), min(tf)
    return (f"{ruleset}: kernel {k * 1e3:.1f} ms / {n} games; counts path {c * 1e3:.1f} ms "
            f"({100 * c / k:.1f} %); records path {f * 1e3:.1f} ms ({100 * f / k:.1f} %)")


if __name__ == "__main__":
    print(main(sys.argv[1] if len(sys.argv) > 1 else "reference",
               int(sys.argv[2]) if len(sys.argv) > 2 else 10_000))
