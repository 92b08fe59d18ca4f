"""The layering, enforced with import-linter (contracts in pyproject.toml): the command
line above the games above the core, games independent of each other, and each game's
modules pointing one way (no import cycles)."""
from __future__ import annotations

import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _contracts() -> list[dict]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]


def test_import_linter_contracts_hold():
    exe = shutil.which("lint-imports") or pytest.fail("import-linter is a test dependency")
    r = subprocess.run([exe, "--config", str(ROOT / "pyproject.toml")], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    assert "0 broken" in r.stdout


def test_every_game_package_is_in_the_independence_contract():
    games = sorted(p.name for p in (ROOT / "simlib" / "games").iterdir()
                   if (p / "__init__.py").is_file())
    named = next(c for c in _contracts() if c["type"] == "independence")["modules"]
    assert sorted(m.rsplit(".", 1)[1] for m in named) == games


def test_a_game_importing_the_cli_breaks_a_contract(tmp_path):
    """The contracts bite: a copy of the package where a game imports the command line
    fails them."""
    exe = shutil.which("lint-imports") or pytest.fail("import-linter is a test dependency")
    shutil.copytree(ROOT / "simlib", tmp_path / "simlib",
                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    text = tmp_path / "simlib" / "games" / "till_dawn" / "trace.py"
    text.write_text(text.read_text() + "\nfrom ...cli_args import UsageError  # noqa\n")
    r = subprocess.run([exe, "--config", str(tmp_path / "pyproject.toml")], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300,
                       env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert r.returncode != 0 and "Games do not depend on the command line BROKEN" in r.stdout, \
        r.stdout[-3000:] + r.stderr[-2000:]


def test_every_game_and_the_core_have_a_one_way_layers_contract():
    """A package without its layers contract is where a circle grows unnoticed (Until the
    World Ends' study and instruments closed one through an import inside a function)."""
    games = sorted(p.name for p in (ROOT / "simlib" / "games").iterdir()
                   if (p / "__init__.py").is_file())
    layered = {m for c in _contracts() if c["type"] == "layers" for m in c.get("containers", ())}
    assert {f"simlib.games.{g}" for g in games} | {"simlib.core"} <= layered


def test_a_circle_through_an_import_inside_a_function_breaks_a_contract(tmp_path):
    """The acyclic contract bites on the very kind of circle it replaced: the what-if page's
    session importing its report (which imports the session) inside a method."""
    exe = shutil.which("lint-imports") or pytest.fail("import-linter is a test dependency")
    shutil.copytree(ROOT / "simlib", tmp_path / "simlib",
                    ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    session = tmp_path / "simlib" / "serve" / "session.py"
    session.write_text(session.read_text() + "\n\ndef _report(page):\n"
                       "    from .report import comparison_report\n\n"
                       "    return comparison_report(page)\n")
    r = subprocess.run([exe, "--config", str(tmp_path / "pyproject.toml")], cwd=tmp_path,
                       capture_output=True, text=True, timeout=300,
                       env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert r.returncode != 0 and "No import circles anywhere in simlib BROKEN" in r.stdout, \
        r.stdout[-3000:] + r.stderr[-2000:]


def test_every_game_shares_one_floor_plan():
    """The same role sits on the same floor in every game: one layers contract holds all
    the games (a game with its own plan is where a role drifts to another floor)."""
    games = sorted(p.name for p in (ROOT / "simlib" / "games").iterdir()
                   if (p / "__init__.py").is_file())
    plans = [c for c in _contracts() if c["type"] == "layers"
             and any(m.startswith("simlib.games.") for m in c.get("containers", ()))]
    assert len(plans) == 1
    assert sorted(m.rsplit(".", 1)[1] for m in plans[0]["containers"]) == games
