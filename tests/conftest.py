"""Fixtures shared by test modules."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from simlib.core import games as registry

HERE = Path(__file__).resolve().parent
PIG = "pig=pig_game.game:GAME"  # the test-only game written from docs/adding-a-game.md alone


def pytest_addoption(parser):
    parser.addoption("--long", action="store_true", default=False,
                     help="also run the long tests (marked long): the bigger differential runs, "
                          "cold compiles in subprocesses; SIMLIB_LONG=1 does the same")


def long_run(config) -> bool:
    return bool(config.getoption("--long")) or os.environ.get("SIMLIB_LONG", "") not in ("", "0")


def pytest_collection_modifyitems(config, items):
    # the default test command stays within CI's time budget; the long tier runs on demand
    if long_run(config):
        return
    skip = pytest.mark.skip(reason="long test: run with `python -m pytest --long` (or SIMLIB_LONG=1)")
    for item in items:
        if "long" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="module")
def pig_registered():
    """Pig joins the registry for a module (and for its subprocesses, through the
    environment), the way a game outside the package is added without packaging it; then
    leaves it."""
    old = os.environ.get(registry.GAMES_ENV)
    os.environ[registry.GAMES_ENV] = PIG
    sys.path.insert(0, str(HERE))
    registry._DISCOVERED = False
    yield
    registry.unregister("pig")
    if old is None:
        os.environ.pop(registry.GAMES_ENV)
    else:
        os.environ[registry.GAMES_ENV] = old
    sys.path.remove(str(HERE))
