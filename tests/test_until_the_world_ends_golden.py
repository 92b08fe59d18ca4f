"""Until the World Ends plays today exactly the games it played when its goldens were
written (``tests/golden/until_the_world_ends.npz``, made by
``tests/golden/make_until_the_world_ends.py``: five tables, random and greedy players,
2-7 players, the variants on).  A deliberate rules fix regenerates the file in its own commit.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

_HERE = Path(__file__).parent / "golden"
_spec = importlib.util.spec_from_file_location("make_until_the_world_ends", _HERE / "make_until_the_world_ends.py")
G = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(G)
STORED = np.load(G.PATH)


@pytest.mark.parametrize("name", list(G.TABLES))
def test_records_equal_the_goldens(name):
    fields = [str(f) for f in STORED["fields"]]
    want = STORED[name].astype(np.int64)
    got = G.records(name)[:, :len(fields)]
    assert got.shape == want.shape == (G.GAMES, len(fields))
    bad = np.argwhere(got != want)
    assert bad.size == 0, (f"{len(np.unique(bad[:, 0]))} games differ; first: game {bad[0, 0]} field "
                           f"{fields[bad[0, 1]]}: {got[tuple(bad[0])]} != {want[tuple(bad[0])]}")


def test_goldens_cover_every_way_a_round_ends():
    fields = [str(f) for f in STORED["fields"]]
    allrec = np.concatenate([STORED[n] for n in G.TABLES])
    for f in ("ends_ending", "ends_hoard", "challenges", "redeals"):
        assert allrec[:, fields.index(f)].sum() > 0, f
    assert (allrec[:, fields.index("winners")] > 1).any()  # ties
