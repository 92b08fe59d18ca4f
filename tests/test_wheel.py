"""simlib as its users get it: the wheel built from this tree, installed into a fresh virtual
environment, its ``simlib`` command run from an empty folder.

An editable install or a checkout finds ``benchmarks/`` (floors and frozen kernel copies)
beside the package; an installed wheel does not, and every path that assumed it (``simlib
bench --anchor`` ended in a ``TypeError`` in ``frozen_path``) shows up only here.  The
virtual environment sees this interpreter's packages (``--system-site-packages``: numpy,
numba, open_spiel ... are not downloaded again), but simlib itself comes from the wheel, which
the first test checks.  The kernels compile once into a numba cache of this module's own.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# what the wheel is built from (pyproject's package-dir and package-data): copied apart, so
# that building writes no build/ or *.egg-info into the checkout
WHEEL_SOURCES = ("pyproject.toml", "README.md", "LICENSE", "simlib", "data")
# two kernels of Until Daylight that compile in seconds, one measured against a frozen copy
# of itself ("self") and one against a calibration loop ("chain"): --only keeps the bench
# runs short, the flags' paths are the same for every kernel
KERNELS = "roll_dice,player_attack"


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """``(run, venv)``: ``run(*args)`` runs the venv's ``simlib`` from an empty folder."""
    base = tmp_path_factory.mktemp("wheel")
    src = base / "src"
    src.mkdir()
    for name in WHEEL_SOURCES:
        p = ROOT / name
        if p.is_dir():
            shutil.copytree(p, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        elif p.is_file():
            shutil.copy2(p, src / name)
    dist = base / "dist"
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                            str(dist), str(src)], capture_output=True, text=True, timeout=900)
    assert build.returncode == 0, build.stdout[-2000:] + build.stderr[-3000:]
    wheels = list(dist.glob("simlib-*.whl"))
    assert len(wheels) == 1, wheels
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True,
                   timeout=300)
    py = venv / "bin" / "python"
    inst = subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall",
                           str(wheels[0])], capture_output=True, text=True, timeout=900)
    assert inst.returncode == 0, inst.stdout[-2000:] + inst.stderr[-3000:]
    empty = base / "empty"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "SIMLIB_FLOORS", "SIMLIB_FROZEN_DIR", "VIRTUAL_ENV")}
    env["NUMBA_CACHE_DIR"] = str(base / "numba-cache")
    env["PATH"] = str(venv / "bin") + os.pathsep + env.get("PATH", "")

    def run(*args: str, timeout: float = 1800) -> subprocess.CompletedProcess:
        return subprocess.run([str(venv / "bin" / "simlib"), *args], capture_output=True,
                              text=True, cwd=empty, env=env, timeout=timeout)

    run.python = py
    run.env = env
    run.cwd = empty
    return run


def _ok(p: subprocess.CompletedProcess) -> str:
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    assert "Traceback" not in p.stderr, p.stderr[-3000:]
    return p.stdout


def _refused(p: subprocess.CompletedProcess, *words: str) -> str:
    assert p.returncode == 2, p.stdout[-2000:] + p.stderr[-2000:]
    assert "Traceback" not in p.stderr, p.stderr[-3000:]
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and all(w in lines[0] for w in words), p.stderr
    return lines[0]


def test_simlib_comes_from_the_wheel_and_knows_no_source_tree(installed):
    code = ("import simlib, simlib.core.bench as b; "
            "print(simlib.__file__); print(b.source_tree()); print(b.DEFAULT_FLOORS)")
    p = subprocess.run([str(installed.python), "-c", code], capture_output=True, text=True,
                       cwd=installed.cwd, env=installed.env, timeout=300)
    where, tree, floors = _ok(p).strip().splitlines()
    assert Path(where).is_relative_to(installed.python.parents[1]), where
    assert tree == "None" and floors == "None"
    # the source's version (pyproject.toml reads it from simlib/core/version.py)
    text = (ROOT / "simlib" / "core" / "version.py").read_text()
    version = re.search(r'^__version__ = "([^"]+)"', text, re.M).group(1)
    assert _ok(installed("--version")).strip() == f"simlib {version}"
    assert "simlib bench" in _ok(installed("bench", "--help"))


def test_the_wheel_carries_the_license(installed):
    code = ("import importlib.metadata as m; d = m.distribution('simlib'); "
            "print(d.metadata['License-Expression']); print(d.read_text('licenses/LICENSE'))")
    p = subprocess.run([str(installed.python), "-c", code], capture_output=True, text=True,
                       cwd=installed.cwd, env=installed.env, timeout=300)
    expression, text = _ok(p).split("\n", 1)
    assert expression == "MIT"
    assert text.startswith("MIT License") and "the simlib authors" in text
    assert text.strip() == (ROOT / "LICENSE").read_text(encoding="utf-8").strip()


@pytest.mark.parametrize("args", [("--guard",), ("--update-floors",),
                                  ("--guard", "--only", KERNELS)])
def test_the_guard_of_an_installed_simlib_refuses_in_one_line(installed, args):
    _refused(installed("bench", *args), args[0], "not found beside this installed simlib")


def test_a_floors_file_that_does_not_exist_is_named(installed):
    _refused(installed("bench", "--guard", "--floors", "mine/floors.toml"), "mine/floors.toml",
             "does not exist")
    _refused(installed("bench", "--guard", "--floors", "mine.toml", "--only", "no_such_kernel"),
             "mine.toml")
    assert not any(installed.cwd.iterdir())


def test_the_table_of_some_kernels_without_frozen_copies(installed):
    out = _ok(installed("bench", "--quick", "--no-subprocess", "--only", KERNELS))
    assert "no frozen kernel copies here" in out
    rows = {line.split()[0] for line in out.splitlines() if line.split()
            and line.split()[0].rstrip("*") in KERNELS.split(",")}
    assert rows == set(KERNELS.split(",")), out  # measured, no star: no frozen copy
    assert not any(installed.cwd.iterdir())


def test_the_full_table_times_loads_plain_python_and_cold_compiles(installed):
    """--full with the subprocess figures: a cached load, the JIT disabled and a cold
    compile, each in a fresh process of the installed simlib."""
    out = _ok(installed("bench", "--full", "--only", KERNELS))
    assert "cold compile of until_daylight's" in out and "import of until_daylight" in out
    for name in KERNELS.split(","):
        row = next(line for line in out.splitlines() if line.split()[:1] == [name])
        assert "(--full)" not in row and re.search(r" \d+x ", row), row  # cold; JIT speed-up


def test_floors_of_ones_own_then_the_guard_against_them(installed):
    """A designer's own floors file (``--floors``): ``--update-floors`` measures in fresh
    processes and writes it with the frozen copies beside it; the guard then passes."""
    floors = installed.cwd.parent / "own" / "floors.toml"
    floors.parent.mkdir()
    out = _ok(installed("bench", "--update-floors", "--floors", str(floors), "--only", KERNELS,
                        "--sessions", "1", "--margin", "3"))
    assert f"wrote {floors}" in out
    assert (floors.parent / "frozen" / "player_attack.py").is_file()  # the "self" kernel's copy
    _ok(installed("bench", "--guard", "--floors", str(floors), "--only", KERNELS))


def test_the_anchor_runs_from_the_wheel(installed):
    have = subprocess.run([str(installed.python), "-c", "import pyspiel"], capture_output=True,
                          env=installed.env, timeout=300).returncode == 0
    p = installed("bench", "--anchor", "--quick")
    if not have:  # without OpenSpiel: one line naming what to install
        _refused(p, "open_spiel")
        return
    out = _ok(p)
    assert "ratio simlib / anchor:" in out and "OpenSpiel" in out


def test_the_keys_of_every_game_from_the_wheel(installed):
    """``simlib rules --game G``: the shipped data files (their values, tags and comments)
    are read from the installed package, for every game; ``simlib games`` lists them."""
    games = [ln.split()[0] for ln in _ok(installed("games")).splitlines()
             if ln and not ln.startswith(("*", " "))]
    assert len(games) >= 5, games
    from simlib.core.games import get_game

    for name in games:
        out = _ok(installed("rules", "--game", name, "--csv"))
        lines = out.splitlines()
        assert lines[0] == "key,value,reference,source,allowed,meaning", name
        assert len(lines) - 1 == len(get_game(name).load_ruleset(None).keys()), name
    mort = _ok(installed("rules", "--game", "mort-de-la-lumiere-du-jour", "--grep", "move_cost"))
    assert "rules.move_cost" in mort and "1 to 10" in mort and "énergie" in mort
