"""Benchmarks of the combat kernels: dice, one player attack, one enemy attack batch,
and the compile time of each (a fresh, non-cached copy compiled in this process)."""
from __future__ import annotations

import pytest

from simlib.core import bench
from simlib.games.until_daylight import benches as ud

SMALL = ["roll_dice", "player_attack", "enemy_batch"]


def test_roll_dice(run_bench):
    """A roll of 6 combat dice (``roll_faces_nb``) in a jitted loop."""
    run_bench(ud.roll_dice_bench())


def test_player_attack(run_bench):
    """One player attack on an area (``player_attack_area_nb``), 256 fixed cases."""
    run_bench(bench.make_benches(["player_attack"])[0])


def test_enemy_batch(run_bench):
    """One enemy attack batch (``enemy_batch_nb``), 256 fixed cases."""
    run_bench(bench.make_benches(["enemy_batch"])[0])


@pytest.mark.parametrize("name", SMALL)
def test_compile(benchmark, name):
    """First call of a fresh non-cached copy of the kernel (callees already compiled)."""
    b = bench.BENCH_FACTORIES[name]()
    b.run(b.min_n)  # compiles the callees once, outside the timed rounds
    kernel, args = b.compile_case

    def setup():
        return (bench.fresh_copy(kernel),), {}

    def first_call(fresh):
        fresh(*args)

    benchmark.group = "compile"
    benchmark.extra_info["what"] = f"fresh numba compile of {kernel.__name__}"
    benchmark.pedantic(first_call, setup=setup, rounds=3, iterations=1)
