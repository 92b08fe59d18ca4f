"""Till Dawn's declaration in the game registry (:mod:`simlib.core.games`)."""
from __future__ import annotations

from ...core.games import FOCAL_WINS, SEAT_WINS, GameInfo, train_policy_command

COMMANDS = {
    "train-policy": train_policy_command("the optimal player"),
}

GAME = GameInfo(
    name="till_dawn",
    package=__package__,
    display_name="Till Dawn",
    summary="competitive push-your-luck for vampires: hunt for blood over 3 nights, "
            "retire to your coffin before the sun rises (2-8 players)",
    kind="competitive",
    default_policy="threshold",
    success=FOCAL_WINS,
    measure="focal_points",
    measure_short="points",
    measure_unit="coffin points",
    grouping_success=(SEAT_WINS,
                      ("character", "the seat holding that character wins or shares the win")),
    seats_example="optimal,threshold,threshold",
    commands=COMMANDS,
    position=1,  # in `simlib games`
)
