"""Lint: ``ruff check`` with the project's configuration (``[tool.ruff]`` in pyproject.toml)
finds nothing in the package, tests, benchmarks and notebooks, and the package's
``requires-python`` agrees with the standard-library modules it imports."""
from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    pytest.importorskip("ruff", reason="ruff is installed by the test extra (.[test])")
    p = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr


def test_requires_python_allows_no_version_without_tomllib():
    meta = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert meta["requires-python"].replace(" ", "") == ">=3.11"
    assert not any(d.startswith("tomli") for d in meta["dependencies"])
    assert sys.version_info >= (3, 11)
