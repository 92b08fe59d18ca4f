"""The engines play today exactly the games they played when the goldens were written.

``tests/golden/records.npz`` holds 64,000 Until Daylight game records (reference and
light rulesets, random and baseline policies, 3-6 players, two seeds);
``tests/golden/till_dawn_records.npz`` 25,000 Till Dawn records (reference and tight
rulesets, four tables from 3 to 8 players, two seeds); see ``golden/make_goldens.py``.
A kernel restructure must leave every field of every record unchanged; a deliberate
rules fix regenerates the game's file in its own commit.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

_HERE = Path(__file__).parent / "golden"
_spec = importlib.util.spec_from_file_location("make_goldens", _HERE / "make_goldens.py")
G = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(G)
STORED = np.load(G.PATH)


@pytest.mark.parametrize("combo", list(G.combos()), ids=lambda c: G.key(*c))
def test_records_equal_the_goldens(combo):
    fields = [str(f) for f in STORED["fields"]]
    want = STORED[G.key(*combo)].astype(np.int64)
    got = G.records(*combo)
    assert got.shape[0] == want.shape[0] == G.GAMES
    got = got[:, : len(fields)]  # fields added after the goldens were written are not compared
    bad = np.argwhere(got != want)
    assert bad.size == 0, (f"{len(np.unique(bad[:, 0]))} games differ; first: game "
                           f"{bad[0, 0]} field {fields[bad[0, 1]]}: {got[tuple(bad[0])]} != "
                           f"{want[tuple(bad[0])]}")


def test_goldens_cover_wins_and_the_final_fight():
    fields = [str(f) for f in STORED["fields"]]
    light = np.concatenate([STORED[G.key("light", p, n, s)] for _, p, n, s in G.combos()
                            if _ == "light"])
    assert (light[:, fields.index("outcome")] == 1).mean() > 0.05
    assert (light[:, fields.index("exchanges")] > 0).any()


# --------------------------------------------------------------------------- Till Dawn
TD_STORED = np.load(G.TD_PATH)


@pytest.mark.parametrize("combo", list(G.td_combos()), ids=lambda c: G.td_key(*c))
def test_till_dawn_records_equal_the_goldens(combo):
    fields = [str(f) for f in TD_STORED["fields"]]
    want = TD_STORED[G.td_key(*combo)].astype(np.int64)
    got = G.td_records(*combo)
    assert got.shape[0] == want.shape[0] == G.td_games(combo[1])
    got = got[:, : len(fields)]
    bad = np.argwhere(got != want)
    assert bad.size == 0, (f"{len(np.unique(bad[:, 0]))} games differ; first: game "
                           f"{bad[0, 0]} field {fields[bad[0, 1]]}: {got[tuple(bad[0])]} != "
                           f"{want[tuple(bad[0])]}")


def test_till_dawn_goldens_cover_ties_deaths_sunrise_and_the_supply_end():
    fields = [str(f) for f in TD_STORED["fields"]]
    recs = {c: TD_STORED[G.td_key(*c)] for c in G.td_combos()}
    every = np.concatenate(list(recs.values()))
    col = fields.index
    assert (every[:, col("winners")] > 1).any()                      # shared victories
    assert every[:, col("deaths_0"):col("deaths_0") + 8].sum() > 0
    assert every[:, col("lost_sunrise_0"):col("lost_sunrise_0") + 8].sum() > 0
    tight = np.concatenate([v for c, v in recs.items() if c[0] == "tight"])
    assert (tight[:, col("end_cause")] == 1).mean() > 0.05          # the blood supply ran out
    assert set(every[:, col("players")]) == {3, 4, 5, 8}
