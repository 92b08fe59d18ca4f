"""Till Dawn's declaration in the game registry (:mod:`simlib.core.games`)."""
from __future__ import annotations

from ...core.games import GameInfo

GAME = GameInfo(
    name="till_dawn",
    package=__package__,
    display_name="Till Dawn",
    summary="competitive push-your-luck for vampires: hunt for blood over 3 nights, "
            "retire to your coffin before the sun rises (2-8 players)",
    kind="competitive",
    presets=("reference",),
    default_ruleset="reference",
    default_policy="threshold",
    success="the focal player (table seat 0) wins or shares the win",
    measure="focal_points",
    measure_short="points",
    measure_unit="coffin points",
    grouping_success=(("seat", "that seat wins or shares the win (every seat, not only the "
                               "focal player's)"),
                      ("character", "the seat holding that character wins or shares the win")),
    seats_example="optimal,threshold,threshold",
    position=1,  # in `simlib games`
)
