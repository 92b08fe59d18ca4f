"""Until the World Ends' declaration in the game registry (:mod:`simlib.core.games`)."""
from __future__ import annotations

from ...core.games import GameInfo


GAME = GameInfo(
    name="until_the_world_ends",
    package=__package__,
    display_name="Until the World Ends",
    summary="competitive card game of timelines scored over rounds like Rummy: draw or play, "
            "snipe, escalate, end the round or challenge an ending, hoard endings (2-17 players)",
    kind="competitive",
    presets=("reference",),
    default_ruleset="reference",
    default_policy="greedy",
    success="the focal player (table seat 0) wins or shares the win",
    measure="focal_total",
    measure_short="total",
    measure_unit="points",
    grouping_success=(("seat", "that seat wins or shares the win (every seat, not only the "
                               "focal player's)"),
                      ("strategy", "a seat playing that strategy wins or shares the win")),
    seats_example="greedy,random,random",
    # a saved study is counted by the seat columns of its largest table (TABLE_SPEC is the
    # tables of up to 8 players)
    result_reader=".study:load_result",
    position=2,  # in `simlib games`
)
