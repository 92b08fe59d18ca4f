"""The games a change alters (``compare``'s and ``sweep``'s ``games_changed``) and the one
line both print when it is none: a game differs when its headline outcome, its measure, a
share or a member's result differs (a measure missing on both sides is the same)."""
from __future__ import annotations

import numpy as np

from simlib.core.instruments import Outcomes, change_notice, games_differ


def _out(success, measure, share, member_wins):
    n = len(success)
    return Outcomes(success=np.array(success, bool), players=np.full(n, 2), match=np.zeros((n, 1)),
                    groupings={"seat": (("a", "b"), np.repeat(np.arange(n), 2),
                                        np.tile([0, 1], n), np.array(member_wins, bool))},
                    measure=np.array(measure, float), shares={"tie": np.array(share, bool)})


def test_each_part_of_a_result_counts():
    a = _out([1, 0, 0, 1, 0], [3, np.nan, 1, 2, 0], [0, 0, 1, 0, 0], [1, 0, 0, 0, 0, 0, 1, 0, 0, 1])
    b = _out([1, 0, 0, 0, 0], [3, np.nan, 2, 2, 0], [0, 1, 1, 0, 0], [1, 0, 0, 0, 0, 0, 1, 0, 1, 1])
    # game 0 the same; 1 a share; 2 the measure; 3 the headline; 4 a member's result
    assert games_differ(a, b).tolist() == [False, True, True, True, True]
    assert not games_differ(a, a).any()


def test_the_notice_is_one_line_only_when_nothing_changed():
    assert change_notice(0, 2000, "compare") == (
        "Note: the change altered 0 of 2,000 games: every game ends the same under A and B "
        "(the change never comes into play here).")
    assert "\n" not in change_notice(0, 50, "sweep") and "0 of 50 games" in change_notice(0, 50, "sweep")
    assert change_notice(3, 2000, "compare") == "" and change_notice(None, 10, "sweep") == ""
