"""The core's study tables (simlib.core.seats.player_counts, seat_tables): what every
competitive game's make_adapter reads its players and seats with."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from simlib.core.seats import check_seed, player_counts, seat_tables


def _check(p: int) -> int:
    if not 2 <= p <= 5:
        raise ValueError(f"players must be 2-5; got {p}")
    return int(p)


def _seat(spec: str):
    return SimpleNamespace(label=spec.upper())


def test_player_counts_checks_each_and_refuses_repeats():
    assert player_counts(None, _check) is None
    assert player_counts(3, _check) == [3]
    assert player_counts([2, 4], _check) == [2, 4]
    with pytest.raises(ValueError, match="duplicate"):
        player_counts([3, 3], _check)
    with pytest.raises(ValueError, match="at least one"):
        player_counts([], _check)
    with pytest.raises(ValueError, match="2-5"):
        player_counts(7, _check)


def test_one_table_or_several_in_any_spelling():
    labels = lambda ts: [[s.label for s in t] for t in ts]  # noqa: E731
    assert labels(seat_tables("a,b", None, _seat, _check)) == [["A", "B"]]
    assert labels(seat_tables(["a", "b", "c"], None, _seat, _check)) == [["A", "B", "C"]]
    assert labels(seat_tables([["a", "b"], "c, d, e"], None, _seat, _check)) == \
        [["A", "B"], ["C", "D", "E"]]


def test_a_table_off_the_named_counts_or_the_game_s_limits_is_refused():
    with pytest.raises(ValueError, match="A\\+B has 2 seats, not one of the player counts"):
        seat_tables("a,b", [3], _seat, _check)
    with pytest.raises(ValueError, match="2-5"):
        seat_tables("a", None, _seat, _check)


@pytest.mark.parametrize("seed", [-1, 2 ** 63, True, 1.5])
def test_a_seed_off_its_range_is_refused(seed):
    with pytest.raises(ValueError, match="seed must be"):
        check_seed(seed)
