"""pytest-benchmark suites of the Until Daylight kernels (see benchmarks/README.md).

    python -m pytest benchmarks/ --benchmark-only               # on demand (~15 s)
    python -m pytest benchmarks/ --benchmark-only --bench-full  # + cold compile (minutes)

Every benchmark sizes its block (``simlib.core.bench.block_size``: the first call is the
warm-up, compile or cache load included) and calls it once more before the timed rounds,
so no timed round contains JIT compilation; compile times are separate benchmarks.  Each
kernel benchmark also records, in ``extra_info``, its operations per second and its ratio
to the calibration loop measured the way the speed guard measures it, next to the
committed floor.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from simlib.core import bench

_HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    """Without the pytest-benchmark plugin (it is not in the `test` extra) the benchmarks
    are skipped with a reason, not errors."""
    if config.pluginmanager.hasplugin("benchmark"):
        return
    skip = pytest.mark.skip(reason="the pytest-benchmark plugin is not installed or is "
                                   "disabled (pip install pytest-benchmark)")
    for item in items:
        if _HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(skip)


def pytest_addoption(parser):
    parser.addoption("--bench-full", action="store_true", default=False,
                     help="simlib benchmarks: also the cold compile of every kernel in a "
                          "subprocess with an empty numba cache (several minutes); "
                          "or set SIMLIB_BENCH_FULL=1")


_SUMMARY: list[str] = []


def pytest_terminal_summary(terminalreporter):
    """A readable summary: per benchmark, operations per second and the guard's ratio."""
    if not _SUMMARY:
        return
    tr = terminalreporter
    tr.section("simlib kernels: operations per second (best round) and speed-guard ratio")
    tr.write_line(f"{'benchmark':<24} {'operation':<40} {'ops/s':>12} {'ratio':>10} "
                  f"{'floor':>10}")
    for line in _SUMMARY:
        tr.write_line(line)


@pytest.fixture(scope="session")
def full_mode(request) -> bool:
    return bool(request.config.getoption("--bench-full", default=False)) or \
        os.environ.get("SIMLIB_BENCH_FULL") == "1"


@pytest.fixture(scope="session")
def calibrator() -> bench.Calibrator:
    return bench.Calibrator(0.005)


@pytest.fixture(scope="session")
def floors() -> dict:
    try:
        return bench.load_floors(bench.DEFAULT_FLOORS)[1] if bench.DEFAULT_FLOORS else {}
    except FileNotFoundError:
        return {}


@pytest.fixture
def run_bench(benchmark, calibrator, floors):
    """``run_bench(b, target, rounds)``: pytest-benchmark rounds of ``n`` operations of
    the ``simlib.core.bench.Bench`` ``b`` (``n`` sized to ~``target`` s), plus its guard ratio."""

    def _run(b: bench.Bench, target: float = 0.02, rounds: int = 15, group: str = "kernels"):
        n = bench.block_size(b, target)  # its first call warms up (compile / cache load)
        b.run(n)  # one more warm-up, outside the timed rounds
        benchmark.group = group
        benchmark.pedantic(b.run, args=(n,), rounds=rounds, iterations=1, warmup_rounds=1)
        m = bench.measure(b, calibrator, target / 2, n=n)
        best = benchmark.stats.stats.min
        info = benchmark.extra_info
        info["operation"] = b.title
        info["ops_per_round"] = n
        info["ops_per_s"] = n / best
        info["ratio_to_calibration"] = m.ratio
        if b.name in floors:
            info["floor"] = floors[b.name]["floor"]
            info["above_floor"] = m.ratio >= floors[b.name]["floor"]
        fl = f"{floors[b.name]['floor']:.4g}" if b.name in floors else "-"
        _SUMMARY.append(f"{b.name:<24} {b.title:<40} {n / best:>12,.0f} {m.ratio:>10.4g} "
                        f"{fl:>10}")
        return m

    return _run
