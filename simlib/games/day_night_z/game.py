"""Day Night Z's declaration in the game registry (:mod:`simlib.core.games`)."""
from __future__ import annotations

from ...core.games import GameCommand, GameInfo

_P = "simlib.games.day_night_z"


def _exact_arguments(parser) -> None:
    from .commands import add_exact_arguments

    add_exact_arguments(parser)


def _exact_run(args) -> int:
    from .commands import run_exact

    return run_exact(args)


COMMANDS = {
    "exact": GameCommand(
        help="exact dice tables: checks, enemy attacks, kills, corpses (no simulation)",
        add_arguments=_exact_arguments, run=_exact_run),
}

GAME = GameInfo(
    name="day_night_z",
    display_name="Day Night Z",
    summary="co-operative zombie survival (1-4 survivors): coloured dice checks, survival "
            "points, noise and threat, spawns by threat colour, a day/night clock and the "
            "Hunter; one city adventure, the map abstracted",
    kind="cooperative",
    presets=("reference",),
    default_ruleset="reference",
    default_policy="baseline",
    success="the team completes the adventure (the searches done, every living survivor at "
            "an exit, within the turn limit)",
    measure="vp",
    measure_short="vp",
    measure_unit="victory points",
    load_ruleset=f"{_P}.study:load_rules",
    policies=f"{_P}.policies:POLICIES",
    make_adapter=f"{_P}.study:make_adapter",
    default_games=f"{_P}.study:default_games",
    table_spec=f"{_P}.study:TABLE_SPEC",
    render=f"{_P}.study:render",
    report=f"{_P}.report:study_report",
    trace=f"{_P}.study:trace_text",
    policy_arm=f"{_P}.study:policy_arm",
    step=f"{_P}.api:Game",
    benches=f"{_P}.benches:BENCH_FACTORIES",
    commands=f"{_P}.game:COMMANDS",
    position=4,  # in `simlib games`
)
