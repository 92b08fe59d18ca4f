"""Until the World Ends' declaration in the game registry (:mod:`simlib.core.games`)."""
from __future__ import annotations

from ...core.games import GameInfo

_P = "simlib.games.until_the_world_ends"

class _UntilTheWorldEndsInfo(GameInfo):
    """The declaration, with a saved study counted by the seat columns of its largest table
    (``table_spec`` is the tables of up to 8 players; ``study.load_result`` reads the saved
    players)."""

    def load_result(self, path):
        from .study import load_result

        return load_result(path)


GAME = _UntilTheWorldEndsInfo(
    name="until_the_world_ends",
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
                      ("strategy", "a seat playing that strategy wins or shares the win")),
    seats_example="greedy,random,random",
    position=2,  # in `simlib games`
)
