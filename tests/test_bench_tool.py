"""``simlib bench`` apart from the source tree: the table works wherever simlib is
installed; the guard and ``--update-floors``, which need the checkout's ``benchmarks/``,
say so in one line and exit with status 2."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from simlib.core import bench

ROOT = Path(__file__).resolve().parents[1]
CLI = "import sys; from simlib.cli import main; sys.exit(main())"


def _simlib(args, cwd: Path, env_extra: dict[str, str]):
    """``simlib <args>`` in a fresh process run from ``cwd``."""
    env = dict(os.environ, **env_extra)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run([sys.executable, "-c", CLI, *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=1800)


def test_the_source_tree_is_found_only_where_there_is_one(tmp_path):
    assert bench.source_tree() == ROOT
    fake = tmp_path / "site-packages" / "simlib"
    fake.mkdir(parents=True)
    (tmp_path / "site-packages" / "benchmarks").mkdir()  # some other package's folder
    assert bench.source_tree(fake) is None  # no pyproject.toml beside it: installed


# every benchmark of every game, compiled cold on a fresh machine (about 2 min): on demand;
# tests/test_wheel.py runs the same situation (an empty folder, no floors or frozen copies)
# on two kernels in the default command
@pytest.mark.long
def test_bench_measures_and_prints_from_a_folder_outside_the_tree(tmp_path):
    """``simlib bench --quick`` from an empty folder, with no floors or frozen copies to be
    found (``$SIMLIB_FLOORS`` pointing nowhere: what an installed simlib sees): every
    declared benchmark measured, every game's headline printed, exit status 0."""
    nowhere = tmp_path / "nowhere" / "floors.toml"
    p = _simlib(["bench", "--quick", "--no-subprocess"], tmp_path, {bench.FLOORS_ENV: str(nowhere)})
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr[-3000:]
    out = p.stdout
    assert "no frozen kernel copies here" in out
    rows = {line.split()[0].rstrip("*"): line.split() for line in out.splitlines()
            if line.split() and line.split()[0].rstrip("*") in bench.GUARDED}
    assert set(rows) == set(bench.GUARDED), out
    for cells in rows.values():
        assert not cells[0].endswith("*"), cells  # no frozen copy to be measured against
    assert "Until Daylight:" in out and "Till Dawn:" in out
    assert out.count("full games per second per core") >= 2
    assert not any(tmp_path.iterdir())  # nothing written in the current folder


@pytest.mark.parametrize("flag", ["--guard", "--update-floors"])
def test_the_guard_outside_the_tree_says_so_in_one_line(tmp_path, flag):
    p = _simlib(["bench", flag], tmp_path, {bench.FLOORS_ENV: str(tmp_path / "no" / "floors.toml")})
    assert p.returncode == 2, p.stdout + p.stderr
    assert p.stdout == ""
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and flag in lines[0] and "benchmarks/" in lines[0], p.stderr
    assert "Traceback" not in p.stderr


def test_an_installed_simlib_has_no_default_floors(monkeypatch, capsys):
    """Without a source tree (and no ``$SIMLIB_FLOORS``) there is no default floors file:
    the guard refuses in one line, before measuring anything."""
    monkeypatch.setattr(bench, "DEFAULT_FLOORS", None)
    assert bench.main(["--guard"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1
    assert "not found beside this installed simlib" in err


def test_the_guard_refuses_an_unknown_kernel_in_one_line(capsys):
    assert bench.main(["--guard", "--only", "game,no_such_kernel"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "no_such_kernel" in err


def test_a_self_kernel_without_a_frozen_folder_is_refused_in_words():
    """An installed simlib has no ``frozen/`` folder at all (``None``, not a missing file)."""
    b = bench.BENCH_FACTORIES["player_attack"]()
    assert b.calibration == "self"
    with pytest.raises(bench.FrozenMissing, match="installed simlib has no benchmarks/frozen/"):
        bench.frozen_bench(b, None)


def test_the_anchor_needs_no_frozen_copies(monkeypatch):
    """What an installed simlib sees (no floors, no frozen folder): the anchor measures our
    headline game against the mixed loop; it ended in a TypeError in ``frozen_path``."""
    pytest.importorskip("pyspiel")
    monkeypatch.setattr(bench, "DEFAULT_FLOORS", None)
    monkeypatch.delenv(bench.FROZEN_ENV, raising=False)
    assert bench.default_frozen_dir() is None
    r = bench.measure_anchor(target=0.002, windows=1, blocks=1)
    assert r["simlib_games_per_s"] > 0 and r["anchor_games_per_s"] > 0
    assert r["ratio"] == pytest.approx(r["simlib_games_per_s"] / r["anchor_games_per_s"])


@pytest.mark.parametrize("game, name", [("till_dawn", "till_dawn_game"),
                                        ("until_the_world_ends", "until_the_world_ends_game"),
                                        ("mort", "mort_game"),
                                        ("day_night_z", "day_night_z_game")])
def test_a_headline_note_times_the_distilled_player(game, name):
    """Issue 43's speed target is read in ``simlib bench``: the game's headline benchmark
    adds a line timing its distilled player beside its default player (a ratio of two
    measured speeds, not a fixed figure)."""
    import re

    from simlib.core.benchkit import ReportContext

    b = bench.game_bench_factories()[name]()
    m = type("M", (), {"ops_per_s": 1.0})()  # the headline line's figure is not under test
    b.run(8)
    lines = b.note(m, ReportContext({}, None, 0.01, quick=True))
    line = next(ln for ln in lines if " distilled: " in ln)
    got = re.search(r"([\d,]+) games per CPU-second.*beside ([\d,]+) .*: 1/([\d.,]+) of their",
                    line)
    assert got, line
    d, t, inv = (float(x.replace(",", "")) for x in got.groups())
    assert d > 0 and t > 0 and inv == pytest.approx(t / d, rel=0.5)  # medians of rounds
