"""The engine plays today exactly the games it played when the goldens were written.

``tests/golden/records.npz`` holds 64,000 game records (reference and light rulesets,
random and baseline policies, 3-6 players, two seeds; see ``golden/make_goldens.py``).
A kernel restructure must leave every field of every record unchanged; a deliberate
rules fix regenerates the file in its own commit.
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
