"""Pig's declaration (registered by ``tests/conftest.py``): its modules are found by role."""
from simlib.core.games import GameInfo

GAME = GameInfo(
    name="pig", display_name="Pig", summary="roll until you hold or bust (a test-only game)",
    kind="competitive", default_policy="hold_at", success="the focal player wins", measure="turns",
    measure_short="turns", measure_unit="turns", package=__package__, report=".study:report",
    benches={},  # a test-only game is not guarded
)
