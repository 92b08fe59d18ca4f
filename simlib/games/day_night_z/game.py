"""Day Night Z's declaration in the game registry (:mod:`simlib.core.games`)."""
from __future__ import annotations

from ...core.games import GameCommand, GameInfo, train_policy_command


# the commands' module imports pandas: named, imported only when the command runs
COMMANDS = {
    "exact": GameCommand(
        help="exact dice tables: checks, enemy attacks, kills, corpses (no simulation)",
        add_arguments=".commands:add_exact_arguments", run=".commands:run_exact"),
    "train-policy": train_policy_command("the rollout player"),
}

GAME = GameInfo(
    name="day_night_z",
    package=__package__,
    display_name="Day Night Z",
    summary="co-operative zombie survival (1-4 survivors): coloured dice checks, survival "
            "points, noise and threat, spawns by threat colour, a day/night clock and the "
            "Hunter; one city adventure (the map abstracted to zones, tile terrain) or a "
            "campaign of adventures with travel and shelter",
    kind="cooperative",
    default_policy="baseline",
    success="the team completes the adventure (the searches done, every living survivor at "
            "an exit, within the turn limit)",
    measure="vp",
    measure_short="vp",
    measure_unit="victory points",
    load_ruleset=".ruleset:load_rules",
    presets=("reference", "tiles", "traps"),
    commands=COMMANDS,
    campaign=".campaign:run_cli",  # simlib simulate --campaign N
    campaign_compare=".campaign:compare_cli",  # simlib compare --campaign N
    position=4,  # in `simlib games`
)
