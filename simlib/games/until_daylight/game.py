"""Until Daylight's declaration in the game registry (:mod:`simlib.core.games`).

Every reference is ``"module:attribute"``: nothing here imports numba, so listing the games
or ``import simlib`` stays cheap.  The package's modules are found by the core's convention
(:data:`simlib.core.games.CONVENTION`); only those that differ are named.
"""
from __future__ import annotations

from ...core.games import GameCommand, GameInfo, train_policy_command


COMMANDS = {
    "tune-policy": GameCommand(
        help="tune the baseline's weights (the `tuned` policy's data file)",
        add_arguments=".commands:add_tune_arguments", run=".commands:run_tune"),
    "train-policy": train_policy_command("the rollout search"),
}

GAME = GameInfo(
    name="until_daylight",
    package=__package__,
    display_name="Until Daylight",
    summary="co-operative survival: 3-6 players survive 10 rounds of hordes (search, "
            "craft, fight with the 6-dice rule)",
    kind="cooperative",
    presets=("reference", "calibrated", "box"),
    default_ruleset="calibrated",
    default_policy="baseline",
    success="the team wins",
    measure="round_reached",
    measure_short="round",
    measure_unit="rounds",
    policies=".policies:SEAT_POLICIES",
    render=".text:render",
    commands=COMMANDS,
    sensitivity_ruleset="reference",
    positive_suffixes=("dice", "health", "slots", "stalemate_cap", "min"),
    position=0,  # in `simlib games`; 0: the default game
)
