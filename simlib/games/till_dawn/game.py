"""Till Dawn's registration in the game registry (``simlib.core.games``)."""
from __future__ import annotations

from ...core.games import GameInfo
from . import study
from .policies import POLICIES
from .ruleset import load_ruleset

GAME = GameInfo(
    name="till_dawn",
    display_name="Till Dawn",
    summary="competitive push-your-luck for vampires: hunt for blood over 3 nights, "
            "retire to your coffin before the sun rises (2-8 players)",
    load_ruleset=load_ruleset,
    make_adapter=study.make_adapter,
    simulate=study.simulate,
    load_result=study.load_result,
    policies=POLICIES,
    table_spec=study.TABLE_SPEC,
    render=study.render,
    trace=study.trace_text,
    default_policy="threshold",
    accepts_seats=True,
    instruments="simlib.games.till_dawn.instruments:INSTRUMENTS",
    benches="simlib.games.till_dawn.benches:BENCH_FACTORIES",
    report="simlib.games.till_dawn.report:study_report",
)
