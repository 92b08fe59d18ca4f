"""Pig's declaration (registered by ``tests/conftest.py``)."""
from simlib.core.games import GameInfo

_P = "pig_game"

GAME = GameInfo(
    name="pig", display_name="Pig", summary="roll until you hold or bust (a test-only game)",
    kind="competitive", presets=("reference",), default_ruleset="reference",
    default_policy="hold_at", success="seat 0 wins", measure="turns", measure_short="turns",
    measure_unit="turns",
    load_ruleset=f"{_P}.ruleset:load_ruleset", policies=f"{_P}.study:POLICIES",
    make_adapter=f"{_P}.study:make_adapter", default_games=f"{_P}.study:default_games",
    table_spec=f"{_P}.study:TABLE_SPEC", render=f"{_P}.study:render",
    report=f"{_P}.study:report", trace=f"{_P}.study:trace",
    policy_arm=f"{_P}.study:policy_arm", step=f"{_P}.study:Game", benches=f"{_P}.game:BENCHES",
)

BENCHES: dict = {}  # a test-only game is not guarded
