"""Fixtures shared by test modules."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from simlib.core import games as registry

HERE = Path(__file__).resolve().parent
PIG = "pig=pig_game.game:GAME"  # the test-only game written from docs/adding-a-game.md alone


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
