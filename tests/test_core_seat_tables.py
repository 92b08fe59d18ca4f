"""The core's study tables (simlib.core.seats.player_counts, seat_tables): what every
competitive game's make_adapter reads its players and seats with."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from simlib.core.params import PolicySpec
from simlib.core.seats import (Seat, check_games, check_seed, one_table, player_counts, seat_arrays,
                               seat_tables, team_row)


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


class _Seat(Seat):
    policies = {"a": PolicySpec("a", 1, ("x",), (0.5,), "one"), "b": PolicySpec("b", 2, (), (), "two")}
    n_params = 3


def test_one_table_default_seats_size_and_mismatch():
    t = one_table(None, 3, "a", _Seat.of, _check)
    assert [s.policy for s in t] == ["a", "a", "a"]
    assert len(one_table(None, None, "b", _Seat.of, _check)) == 4
    assert [s.policy for s in one_table(["b", "a:x=2"], None, "a", _Seat.of, _check)] == ["b", "a"]
    with pytest.raises(ValueError, match="2 seats given for 3 players"):
        one_table(["a", "b"], 3, "a", _Seat.of, _check)
    with pytest.raises(ValueError, match="2-5"):
        one_table(None, 6, "a", _Seat.of, _check)
    assert check_games(5) == 5
    with pytest.raises(ValueError, match="n_games must be positive"):
        check_games(0)


def test_seat_arrays_fill_every_game_and_pad_the_width():
    pol, par = seat_arrays([_Seat.parse("a:x=2"), _Seat.parse("b")], 3, width=4)
    assert pol.tolist() == [[1, 2, 0, 0]] * 3
    assert par.shape == (3, 4, 3)
    assert par[:, 0].tolist() == [[2.0, 0.0, 0.0]] * 3 and not par[:, 1:].any()
    pol, par = seat_arrays([], 1, width=2, n_params=3)
    assert pol.shape == (1, 2) and par.shape == (1, 2, 3)


def test_team_row_ids_in_seat_order_and_clear_errors():
    rules = SimpleNamespace(character_names=["ann", "bob", "cy"],
                            character_id=lambda n: ["ann", "bob", "cy"].index(n))
    assert team_row(["cy", "ann"], 2, rules, 4).tolist() == [2, 0, -1, -1]
    assert team_row(None, 2, rules, 3).tolist() == [-1, -1, -1]
    with pytest.raises(ValueError, match="needs 3 characters; got 2"):
        team_row(["cy", "ann"], 3, rules, 4)
    with pytest.raises(ValueError, match="duplicate characters"):
        team_row(["cy", "cy"], 2, rules, 4)
    with pytest.raises(ValueError, match="unknown character 'dan'; allowed: ann, bob, cy"):
        team_row(["dan", "cy"], 2, rules, 4)


def test_layout_offsets_and_part_names():
    from simlib.core.layout import layout, part_names

    parts = (("game", 1), ("score", 3), ("end", 1))
    assert layout(parts, "REC_") == ({"REC_GAME": 0, "REC_SCORE": 1, "REC_END": 4}, 5)
    assert layout(parts, "S_", start=10)[0]["S_END"] == 14
    assert part_names(parts) == ["game", "score_0", "score_1", "score_2", "end"]
