"""Mort de la lumière du jour under the sensitivity instrument.

Mort's board values (its size, the token lines, the pallets' offset, the lair) load one
by one but not in every combination: a pallet east of the last token line falls off a
narrower board.  The default ranges keep out of such combinations
(:func:`simlib.core.ranges.joint_ranges`); ranges given by the user may not, and the
instrument then leaves out a trajectory holding a refused point (whole, so the Morris
design stays intact) and says so.
"""
from __future__ import annotations

import simlib
from simlib.cli_instruments import render_sensitivity
from simlib.core.instruments import DUMMY, assumed_params, game_spec, base_rules
from simlib.games.mort.ruleset import RulesetError, load_ruleset

GAME = "mort_de_la_lumiere_du_jour"


def _refused(rules, values: dict) -> bool:
    try:
        rules.override(values)
    except RulesetError:
        return True
    return False


def test_default_ranges_keep_out_of_combinations_the_board_refuses():
    # the fact the ranges have to handle: each value loads alone, some pairs do not: the
    # board one row shorter, and the pallets one square south of their tokens: the
    # pallet of a token on the last line (y = 13) is off a 14-row board
    base = base_rules(None, GAME)
    assert not _refused(base, {"board.board_h": 14}) and not _refused(base, {"board.pallet_dy": 1})
    assert _refused(base, {"board.board_h": 14, "board.pallet_dy": 1})
    rng = assumed_params(base, 0.3, game_spec(GAME)).set_index("key")
    for key, row in rng.iterrows():
        assert not _refused(base, {key: int(row.lo)}) and not _refused(base, {key: int(row.hi)})
    # the defaults keep the pallets' offset and give up the shorter board (the wider range)
    assert rng.loc["board.pallet_dy", "hi"] == 1 and rng.loc["board.board_h", "lo"] == 15
    assert not _refused(base, {"board.board_h": 15, "board.pallet_dy": 1})


def test_small_default_sensitivity_runs_end_to_end():
    """``simlib sensitivity --game mort-de-la-lumiere-du-jour`` with its default ranges,
    small: it runs, drops only the trajectories the ruleset refuses, and reports them."""
    res = simlib.sensitivity(game=GAME, games=8, trajectories=4, levels=4, progress=False,
                             sample_seed=3)
    p = res.provenance
    assert p["designed"] == 4 and 0 <= p["dropped"] < 4
    n_keys = len(assumed_params(load_ruleset(), 0.3, game_spec(GAME)))
    assert p["evaluations"] == (p["designed"] - p["dropped"]) * (n_keys + 2)
    assert len(res.samples) == p["evaluations"]
    t = res.table[res.table["output"] == "win_rate"]
    assert len(t) == n_keys + 1 and DUMMY in set(t["key"])
    assert set(res.table["output"]) == {"win_rate", "kills"}
    text = render_sensitivity(res)
    assert "== win_rate ==" in text
    assert ("dropped" in text) == (p["dropped"] > 0)


def test_refused_points_drop_their_trajectories_and_are_reported():
    # board 14 wide with the pallets one square east of the token at x = 13: refused;
    # every trajectory moving board_w to 14 while pallet_dx is 1 is left out
    params = {"board.board_w": (14, 17), "board.pallet_dx": (0, 1)}
    res = simlib.sensitivity(params, game=GAME, games=8, trajectories=8, levels=4,
                             progress=False, sample_seed=1)
    p = res.provenance
    assert 0 < p["dropped"] < p["designed"] == 8
    assert any("pallet" in r and "off the board" in r for r in p["refused"])
    assert p["evaluations"] == (8 - p["dropped"]) * 4
    # no evaluation kept is a refused point
    for _, row in res.samples.iterrows():
        assert not (round(row["board.board_w"]) < 15 and round(row["board.pallet_dx"]) == 1)
    text = render_sensitivity(res)
    assert f"{p['dropped']} of 8 trajectories dropped" in text and "off the board" in text


def test_sobol_drops_whole_samples_too():
    params = {"board.board_w": (14, 17), "board.pallet_dx": (0, 1)}
    res = simlib.sensitivity(params, method="sobol", sobol_samples=8, game=GAME, games=8,
                             progress=False, sample_seed=2)
    p = res.provenance
    # Saltelli's samples come in blocks of (parameters + dummy) + 2 rows
    assert 0 < p["dropped"] < p["designed"] == 8
    assert p["evaluations"] == (8 - p["dropped"]) * 5 == len(res.samples)
    assert set(res.table["key"]) == {"board.board_w", "board.pallet_dx", DUMMY}
    assert f"{p['dropped']} of 8 samples dropped" in render_sensitivity(res)
