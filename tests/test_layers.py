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
