"""Until the World Ends at any number of players ("you can play with two to any number of
players"): the kernels' seat arrays are sized from the table, the hoard's sharing rule as
the rulebook gives it ("6 to 10 players means that two players can choose one ending 11 to
15 means three and so on"), and large tables through the batch, the step model and the CLI.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from simlib.games.until_the_world_ends import codes as K
from simlib.games.until_the_world_ends.api import check_players, play_games
from simlib.games.until_the_world_ends.step import Game
from simlib.games.until_the_world_ends.kernels.play_nb import kernel_nb
from simlib.games.until_the_world_ends.ruleset import load_ruleset

from test_until_the_world_ends import ENDINGS, all_cards, arrange, card_name_of, index_of
from simlib.core.games import get_game

_SIM = get_game("until_the_world_ends").simulate  # a study through the game contract

RULES = load_ruleset()


@pytest.mark.parametrize("players, share", [(10, 2), (11, 3), (12, 3), (15, 3), (16, 4)])
def test_hoard_sharing_rule_the_rulebooks_numbers(players, share):
    """A hoard at ``players``: each of the five shown endings may be chosen by ``share``
    players (the rulebook's 6-10: two, 11-15: three, and so on: 16 is four); every player
    gets one, the hoarder first, then clockwise from his left."""
    g = arrange(Game(seed=3, game=0, players=players, trace=True), hands={2: ENDINGS[:4]},
                pile=["rescue"], to_move=2)
    g.apply(index_of(g, "draw"))
    st = g.state
    assert g.phase == "pick" and int(st[K.S_N_SHOWN]) == 5
    assert [int(v) for v in st[K.S_SHOWN_LEFT:K.S_SHOWN_LEFT + 5]] == [share] * 5
    order = []
    while g.phase == "pick":  # every player takes the first the_end while one is left
        order.append(g.to_move)
        acts = g.legal_actions()
        g.apply(acts.index("pick the_end") if "pick the_end" in acts else 0)
    assert order == [(2 + k) % players for k in range(players)]
    picks = {int(r[2]): card_name_of(g, r[3]) for r in g.log_rows() if r[0] == K.LG_PICK}
    assert sorted(picks) == list(range(players))
    assert list(picks.values()).count("the_end") == 3 * share  # three the_end shown
    assert int(st[K.S_ROUND]) == 2 and int(st[K.S_ENDS_HOARD]) == 1


@pytest.mark.parametrize("players", [12, 15])
def test_large_tables_play_whole_games(players):
    df = play_games(40, players=players, seed=4)
    assert len(df) == 40 and (df["players"] == players).all()
    wins = np.column_stack([df[f"win_{s}"].astype(bool).to_numpy() for s in range(players)])
    totals = np.column_stack([df[f"total_{s}"].astype(int).to_numpy() for s in range(players)])
    assert (wins.sum(1) == df["winners"].to_numpy()).all() and (wins.sum(1) >= 1).all()
    assert (totals.max(1) == df["top_total"].to_numpy()).all()
    assert (totals[wins] == np.repeat(df["top_total"].to_numpy(), wins.sum(1))).all()
    assert ((df["end_cause"] == "round_cap") | (df["top_total"] >= 100)).all()
    assert f"win_{players}" not in df.columns


def test_fifteen_random_players_keep_every_card_and_the_step_model_equals_the_batch():
    seats = ["random"] * 15
    g = Game(seed=9, game=2, players=15, seats=seats)
    assert len(g.state) == K.state_size(15)
    steps = 0
    while not g.over:
        assert sorted(all_cards(g)) == list(range(54)) and g.violation() == "none"
        g.apply(g.policy_choice())
        steps += 1
    df = play_games(3, seats=seats, seed=9)
    assert g.result["decisions"] == steps == df["decisions"][2]
    assert [g.result[f"total_{s}"] for s in range(15)] == [int(df[f"total_{s}"][2]) for s in range(15)]


def test_more_players_change_shapes_not_the_compiled_kernel():
    """One compiled signature serves every table: the arrays' shapes vary, their dtypes
    do not."""
    play_games(2, players=4, seed=1)
    before = len(kernel_nb.signatures)
    play_games(2, players=13, seed=1)
    Game(seed=1, game=0, players=17).play()
    assert len(kernel_nb.signatures) == before


def test_the_largest_table_is_the_decks():
    """17 players: the 54 cards deal 3 each with one card left to draw, (54 - 1) // 3."""
    assert RULES.max_players() == 17 == (RULES.n_cards - 1) // RULES.get("constants.deal")
    assert check_players(17, RULES) == 17
    with pytest.raises(ValueError, match="from 2 to 17; got 18"):
        check_players(18, RULES)
    four = RULES.override({"constants.deal": 4})
    assert four.max_players() == 13
    with pytest.raises(ValueError, match="from 2 to 13"):
        Game(players=14, ruleset=four)


def test_simulate_command_at_twelve_players(capsys):
    from simlib.cli import main

    assert main(["simulate", "--game", "until-the-world-ends", "--players", "12", "--games", "24"]) == 0
    out = capsys.readouterr().out
    assert "greedy x12" in out


def test_study_of_mixed_table_sizes_counts_every_seat():

    res = _SIM(26, players=[3, 12], seed=2, progress=False)
    seat = res.tables.by_seat
    assert sorted(seat.loc[12].index.tolist()) == list(range(12))
    assert sorted(seat.loc[3].index.tolist()) == list(range(3))
    assert int(seat.loc[12]["games"].sum()) == 13 * 12
    assert math.isclose(seat.loc[12]["wins"].sum() / 13, res.records.loc[res.records.players == 12,
                                                                          "winners"].mean())


def test_a_saved_study_of_twelve_players_reports_every_seat(tmp_path):
    """``simlib report`` (the registry's load_result) counts all 12 seats of a saved study's
    records, not the first 8."""
    from simlib.core.games import get_game

    out = tmp_path / "s12.parquet"
    _SIM(24, players=12, seed=3, out=out, keep_records=True, progress=False)
    res = get_game("until_the_world_ends").load_result(out)
    seat = res.tables.by_seat
    assert sorted(seat.loc[12].index.tolist()) == list(range(12))
    assert int(res.tables.by_strategy["games"].sum()) == 24 * 12
