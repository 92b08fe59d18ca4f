"""Until the World Ends' declaration in the game registry (:mod:`simlib.core.games`)."""
from __future__ import annotations

from ...core.games import FOCAL_WINS, SEAT_WINS, GameInfo, train_policy_command

COMMANDS = {
    "train-policy": train_policy_command("the rollout player"),
}


GAME = GameInfo(
    name="until_the_world_ends",
    package=__package__,
    display_name="Until the World Ends",
    summary="competitive card game of timelines scored over rounds like Rummy: draw or play, "
            "snipe, escalate, end the round or challenge an ending, hoard endings (2-17 players)",
    kind="competitive",
    default_policy="greedy",
    success=FOCAL_WINS,
    measure="focal_total",
    measure_short="total",
    measure_unit="points",
    grouping_success=(SEAT_WINS,
                      ("strategy", "a seat playing that strategy wins or shares the win")),
    seats_example="greedy,random,random",
    # a saved study is counted by the seat columns of its largest table (TABLE_SPEC is the
    # tables of up to 8 players)
    result_reader=".study:load_result",
    commands=COMMANDS,
    position=2,  # in `simlib games`
)
