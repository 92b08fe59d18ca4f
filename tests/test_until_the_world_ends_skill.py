"""Until the World Ends in ``simlib skill``: the records declare each seat's strategy
(``TableSpec.member_attrs``), so the competitive skill measure finds the focal seat, and
the measure means what it says (the focal seat's share of the wins, a stronger focal
player above the floor's own share)."""
from __future__ import annotations

import numpy as np

import simlib
from simlib.games.until_the_world_ends.study import policy_arm
from simlib.games.until_the_world_ends.study import TABLE_SPEC


def test_records_declare_the_strategy_of_every_seat():
    attrs = dict(TABLE_SPEC.member_attrs)
    assert attrs["strategy"] == tuple(f"strategy_{s}" for s in range(len(TABLE_SPEC.members)))


def test_skill_command_runs(capsys):
    from simlib.cli import main

    assert main(["skill", "--game", "until-the-world-ends", "--players", "3", "--games", "300",
                 "--bootstrap", "100", "--ladder", "random,greedy"]) == 0
    out = capsys.readouterr().out
    assert "K_n greedy" in out


def test_focal_share_is_the_greedy_seats_share_and_beats_the_floor():
    """The skill measure's per-game share is the share of the wins of the one seat playing
    greedy against two random players (recomputed here from the arm's records and its focal
    seats), and greedy's mean share is above 1/3, what a random player's seat gets by
    symmetry, by more than 4 standard errors."""
    games, n = 300, 3
    res = simlib.skill("until_the_world_ends", games=games, players=n, ladder=["random", "greedy"],
                       bootstrap=200, metrics=False)
    share = np.asarray(res.per_game["shares"]["greedy"], float)
    ad = policy_arm("greedy", None, field_policy="random", field_params=None, players=n, seed=0)
    rec = ad.run_chunk(0, games)
    focal = ad.focal_seats(rec["game"].to_numpy())
    assert all(rec[f"strategy_{f}"].iloc[i] == "greedy" for i, f in enumerate(focal))
    won = np.array([bool(rec[f"win_{f}"].iloc[i]) for i, f in enumerate(focal)])
    want = won / rec["winners"].to_numpy()
    assert np.array_equal(share, want)
    se = share.std(ddof=1) / np.sqrt(games)
    assert share.mean() - 1 / n > 4 * se, (share.mean(), se)
    row = res.table.loc[("K_n greedy", "all")]
    assert row["ci_low"] > 0
