"""The designer's instruments on the second game: every instrument runs on Till Dawn through
the same core (simlib.core.instruments) as on Until Daylight, and what it counts agrees
with the engine's own records of the same games."""
import numpy as np
import pytest

import simlib
from simlib.cli import main
from simlib.core.instruments import InstrumentError, resolve_param
from simlib.games.till_dawn.ruleset import load_ruleset
from simlib.games.till_dawn.study import make_adapter


def _records(games, seats, players=None):
    return simlib.simulate(games, game="till_dawn", seats=seats, players=players,
                           keep_records=True, progress=False).records


def test_policy_compare_counts_the_focal_players_wins_as_the_engine_records_them():
    """Arm A: optimal in table seat 0 against threshold; arm B: threshold everywhere.  The
    focal player's wins must be the games the recorded 'optimal' seat won."""
    games = 240
    res = simlib.compare(games, game="till_dawn", players=[3, 4],
                         policies=["optimal", "threshold"], policy="threshold", seed=5,
                         progress=False)
    rec = simlib.simulate(games, game="till_dawn", seed=5, progress=False, keep_records=True,
                          seats=["optimal,threshold,threshold",
                                 "optimal,threshold,threshold,threshold"]).records
    won = np.zeros(len(rec), bool)
    for s in range(4):
        won |= (rec[f"strategy_{s}"] == "optimal").fillna(False).to_numpy(bool) & \
            rec[f"win_{s}"].fillna(False).to_numpy(bool)
    assert (rec[[f"strategy_{s}" for s in range(4)]] == "optimal").sum(axis=1).eq(1).all()
    assert res.overall["wins_a"].iloc[0] == int(won.sum())
    assert res.overall["games"].iloc[0] == games
    # a compare of two players reads the focal player by the seat (and character) it held,
    # each game once; the every-seat tables, where the compared player is one seat in
    # three or four, belong to a compare of rules
    assert "seat" not in res.tables and "character" not in res.tables
    assert res.by_focal_seat["games"].sum() == games == res.by_focal_character["games"].sum()
    # it rotates: 120 games of 3 seats (40 a seat) and 120 of 4 (30 a seat)
    assert res.by_focal_seat["games"].tolist() == [70, 70, 70, 30]
    for s in range(4):
        at_s = (rec[f"strategy_{s}"] == "optimal").fillna(False).to_numpy(bool)
        assert res.by_focal_seat.loc[s, "wins_a"] == int(
            (at_s & rec[f"win_{s}"].fillna(False).to_numpy(bool)).sum())
    # the strongest player beats the field far more often than a threshold player does
    assert res.overall["diff_high"].iloc[0] < -0.3  # B - A: threshold minus optimal


def test_identical_rulesets_give_zero_differences_in_every_grouping():
    res = simlib.compare(200, game="till_dawn", players=3, rulesets=[None, None],
                         progress=False)
    assert "seat" in res.tables and "focal_seat" not in res.tables  # a compare of rules
    t = res.table
    assert set(t["grouping"]) == {"overall", "players", "seat", "character"}
    assert (t["diff"] == 0).all() and (t["only_a"] == 0).all()


def test_sweep_reports_ties_and_seat_shares_of_the_same_games():
    games = 300
    res = simlib.sweep({"constants.track_length": [8, 10]}, games, game="till_dawn",
                       players=4, seed=2, progress=False)
    t = res.table
    assert t["constants.track_length"].tolist() == [8, 10]
    for col in ("tie", "seat_0_wins", "seat_3_wins", "points_mean", "win_rate"):
        assert col in t.columns
    # the row at the reference value: the study's own tables of the same games
    ref = simlib.simulate(games, game="till_dawn", players=4, seed=2, progress=False)
    row = t[t["constants.track_length"] == 10].iloc[0]
    # shares are counts / games: compared as counts (0.3666... * 300 is 109.99999999999999)
    assert round(row["tie"] * games) == ref.tables.overall["ties"].iloc[0]
    seat = ref.tables.by_seat.loc[4]
    for s in range(4):
        assert round(row[f"seat_{s}_wins"] * games) == seat.loc[s, "wins"]


def test_sensitivity_and_precision_run_on_till_dawn():
    m = simlib.sensitivity(["constants.track_length"], game="till_dawn", games=60,
                           trajectories=2, progress=False)
    assert set(m.table["output"]) == {"win_rate", "focal_points"}
    assert m.outputs == ("win_rate", "focal_points")
    p = simlib.simulate_precise(0.2, 1000, game="till_dawn", players=3, table="by_seat",
                                chunk_size=100, progress=False)
    assert p.provenance["stopped_by"] == "precision" and p.games % 100 == 0
    with pytest.raises(InstrumentError, match="by_seat"):
        simlib.simulate_precise(0.2, 100, game="till_dawn", table="by_team", progress=False)


def test_till_dawn_parameters_are_validated_against_its_own_rules_and_policies():
    rules = load_ruleset()
    assert resolve_param("policy.t", rules, "threshold", "till_dawn").value == 10.0
    assert resolve_param("constants.track_length", rules, None, "till_dawn").integer
    with pytest.raises(InstrumentError, match="policy 'threshold' has parameters policy.t"):
        resolve_param("policy.draw_score", rules, "threshold", "till_dawn")
    with pytest.raises(InstrumentError, match="unknown key"):
        resolve_param("horde.monster.count", rules, None, "till_dawn")
    with pytest.raises(InstrumentError, match="unknown policy 'baseline'"):
        simlib.compare(10, game="till_dawn", policies=["baseline", "threshold"], progress=False)
    with pytest.raises(InstrumentError, match="unknown game"):
        simlib.compare(10, game="nope", sets={"a": 1}, progress=False)


def test_focal_seat_follows_the_table_rotation():
    ad = make_adapter(seats=["optimal,threshold,threshold"])
    games = np.arange(12)
    _, _, _, _, labels = ad.configs(0, 12)
    focal = ad.focal_seats(games)
    assert all(labels[i, focal[i]] == "optimal" for i in range(12))


def test_the_instrument_commands_take_a_game(capsys, tmp_path):
    out = tmp_path / "c.csv"
    assert main(["compare", "--game", "till-dawn", "--policy", "optimal", "--policy",
                 "threshold", "--players", "3", "--games", "60", "--no-progress",
                 "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Till Dawn compare") and "== by focal_seat (each game once" in text
    assert out.exists() and '"game": "till_dawn"' in (tmp_path / "c.csv.json").read_text()
    assert main(["sweep", "--game", "till-dawn", "--set", "constants.track_length=9,10",
                 "--players", "3", "--games", "50", "--no-progress"]) == 0
    assert "tie %" in capsys.readouterr().out
    assert main(["compare", "--game", "till-dawn", "--set", "horde.monster.count=3",
                 "--games", "10", "--no-progress"]) == 2
    assert "unknown key" in capsys.readouterr().err
    assert main(["simulate", "--game", "till-dawn", "--precision", "0.2", "--max-games",
                 "300", "--players", "3", "--precision-table", "by_seat", "--no-progress"]) == 0
    assert "precision run: stopped" in capsys.readouterr().out


def test_instruments_take_a_mixed_table_whose_first_seat_is_the_focal_player():
    games = 200
    seats = ["optimal,threshold,threshold"]
    res = simlib.sweep({"constants.track_length": [10]}, games, game="till_dawn", seats=seats,
                       seed=4, progress=False)
    rec = simlib.simulate(games, game="till_dawn", seats=seats, seed=4, keep_records=True,
                          progress=False).records
    won = sum(((rec[f"strategy_{s}"] == "optimal") & rec[f"win_{s}"].astype(bool)).sum()
              for s in range(3))
    assert res.table["wins"].iloc[0] == won
    assert res.table["players"].tolist() == [3]
    with pytest.raises(InstrumentError, match="seat spec"):
        simlib.sweep({"policy.t": [8, 9]}, 10, game="till_dawn", seats=seats, progress=False)
    with pytest.raises(InstrumentError, match="no seats table"):
        simlib.compare(10, game="till_dawn", seats=seats, policies=["optimal", "threshold"],
                       progress=False)
    with pytest.raises(InstrumentError, match="cooperative"):
        simlib.sweep({"horde.monster.count": [4]}, 10, seats=seats, progress=False)


def test_a_bad_team_is_named_for_what_is_wrong_with_it():
    """``--characters banana`` once answered "players must be an integer from 2 to 8; got
    1": the unknown name is the error, and a one-name team is named as a team."""
    with pytest.raises(ValueError, match="unknown character 'banana'; allowed: vlad"):
        simlib.simulate(10, game="till_dawn", characters=["banana"], progress=False)
    with pytest.raises(ValueError, match=r"a team names one character a seat, 2 to 8 of "
                                         r"them; got 1 \(vlad\)"):
        simlib.simulate(10, game="till_dawn", characters=["vlad"], progress=False)
    res = simlib.simulate(10, game="till_dawn", characters=["vlad", "carmilla"], progress=False)
    assert res.provenance["players"] == [2]
