"""Benchmarks of whole games: one game (``play_game_nb``), games through the runner
(``api.play_games``, 1 and 2 threads), the JIT speed-up, cached load and cold compile."""
from __future__ import annotations

import numba
import pytest

from simlib.core import bench
from simlib.games.until_daylight import benches as ud
from until_daylight_speed import continuation_bench, rollout_bench  # benchmarks/ (pytest's rootdir)


def test_game(run_bench):
    """One full game (4 players, baseline policy, random team) called from Python."""
    run_bench(bench.make_benches(["game"])[0], rounds=20, group="games")  # 64 games a round


def test_runner_1_thread(run_bench, benchmark):
    """The headline: full games per second per core through ``api.play_games``."""
    m = run_bench(bench.make_benches(["runner"])[0], rounds=20, group="games")  # 64 games a round
    benchmark.extra_info["games_per_s_per_core"] = benchmark.extra_info["ops_per_s"]
    benchmark.extra_info["guard_games_per_s"] = m.ops_per_s


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="numba has one thread")
def test_runner_2_threads(run_bench, benchmark):
    """``api.play_games`` with 2 threads; ``extra_info`` has the speed-up over 1 thread
    (measured interleaved; a shared machine makes it noisy)."""
    b2 = ud.play_games_bench(2)
    run_bench(b2, rounds=20, group="games")  # 128 games a round
    benchmark.extra_info["speedup_vs_1_thread"] = ud.two_thread_speedup()  # wall time


def test_jit_speedup(benchmark, calibrator):
    """Every benchmark with ``NUMBA_DISABLE_JIT=1`` (plain Python, a subprocess, small
    counts); ``extra_info`` has each kernel's speed-up of the JIT over plain Python."""
    benchmark.group = "jit disabled"
    pure = benchmark.pedantic(bench.pure_python_rates, rounds=1, iterations=1)
    ms = bench.measure_all(bench.make_benches(), cal=calibrator)
    for m in ms:
        benchmark.extra_info[f"{m.name}_python_ops_per_s"] = pure[m.name]
        benchmark.extra_info[f"{m.name}_jit_speedup"] = m.ops_per_s / pure[m.name]


def test_cached_load(benchmark):
    """First call of every kernel in a fresh process reading numba's disk cache
    (``extra_info``: seconds per kernel, cache hits and misses of the game kernels)."""
    benchmark.group = "compile"
    res = benchmark.pedantic(bench.cached_load_times, rounds=1, iterations=1)
    benchmark.extra_info.update(res)


def test_cold_compile(benchmark, full_mode):
    """First call of every kernel in a fresh process with an empty numba cache: the game
    kernel's full compile (minutes).  Only with ``--bench-full`` / ``SIMLIB_BENCH_FULL=1``."""
    if not full_mode:
        pytest.skip("cold compile: run with --bench-full (several minutes)")
    benchmark.group = "compile"
    res = benchmark.pedantic(bench.cold_compile_times, rounds=1, iterations=1)
    benchmark.extra_info.update(res)


def test_rollout_100(run_bench, benchmark):
    """rollout-100 full games (reference ruleset, 4 players, 1 thread; issue #10's bar:
    5 games/s per core)."""
    run_bench(rollout_bench(), rounds=3, group="search")  # 8 games a round


def test_rollout_overhead(benchmark, calibrator):
    """The rollout player's own work per continuation (clone, re-key, record, value) as a
    share of a whole continuation (``extra_info``; issue #10's bar: under 5 %)."""
    benchmark.group = "search"
    full, setup = benchmark.pedantic(
        lambda: bench.measure_all([continuation_bench(), continuation_bench(setup_only=True)],
                                  0.05, cal=calibrator), rounds=1, iterations=1)
    benchmark.extra_info["continuations_per_s"] = full.ops_per_s
    benchmark.extra_info["overhead_share"] = full.ops_per_s / setup.ops_per_s
