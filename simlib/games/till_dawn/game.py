"""Till Dawn's declaration in the game registry (:mod:`simlib.core.games`)."""
from __future__ import annotations

from ...core.games import GameInfo

_P = "simlib.games.till_dawn"

GAME = GameInfo(
    name="till_dawn",
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
    load_ruleset=f"{_P}.ruleset:load_ruleset",
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
    grouping_success=(("seat", "that seat wins or shares the win (every seat, not only the "
                               "focal player's)"),
                      ("character", "the seat holding that character wins or shares the win")),
    seats_example="optimal,threshold,threshold",
    position=1,  # in `simlib games`
)
