"""Day Night Z plays today exactly the adventures it played when its goldens were written
(``tests/golden/day_night_z.npz``, made by ``tests/golden/make_day_night_z.py``: five
tables, the baseline and random players, teams of 1-4, day and night starts, the variants
on).  A deliberate rules fix regenerates the file in its own commit.
"""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

_HERE = Path(__file__).parent / "golden"
_spec = importlib.util.spec_from_file_location("make_day_night_z", _HERE / "make_day_night_z.py")
G = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(G)
STORED = np.load(G.PATH)


@pytest.mark.parametrize("name", list(G.TABLES))
def test_records_equal_the_goldens(name):
    fields = [str(f) for f in STORED["fields"]]
    want = STORED[name].astype(np.int64)
    out = G.arrays(name)
    got = out["records"][:, :len(fields)]
    assert got.shape == want.shape == (G.GAMES, len(fields))
    bad = np.argwhere(got != want)
    assert bad.size == 0, (f"{len(np.unique(bad[:, 0]))} games differ; first: game {bad[0, 0]} field "
                           f"{fields[bad[0, 1]]}: {got[tuple(bad[0])]} != {want[tuple(bad[0])]}")
    np.testing.assert_array_equal(out["threat_by_turn"], STORED[name + "__threat"])
    np.testing.assert_array_equal(out["alive_by_turn"], STORED[name + "__alive"])


def test_goldens_cover_the_ways_an_adventure_ends():
    fields = [str(f) for f in STORED["fields"]]
    allrec = np.concatenate([STORED[n] for n in G.TABLES])
    causes = set(allrec[:, fields.index("end_cause")].tolist())
    assert causes == {0, 1, 2}
    for f in ("dead_damage", "dead_hunger", "kills", "hunter_spawns", "threat_from_leaving",
              "threat_from_noise", "threat_from_clock", "threat_from_cards", "threat_lowered_by_sp"):
        assert allrec[:, fields.index(f)].sum() > 0, f


# ------------------------------------------------------------------ campaigns
_cspec = importlib.util.spec_from_file_location("make_day_night_z_campaign",
                                                _HERE / "make_day_night_z_campaign.py")
GC = importlib.util.module_from_spec(_cspec)
_cspec.loader.exec_module(GC)
CSTORED = np.load(GC.PATH)


@pytest.mark.parametrize("name", list(GC.TABLES))
def test_campaigns_equal_the_goldens(name):
    """Campaigns (travel, adventures, shelter) play today exactly what they played when
    ``tests/golden/day_night_z_campaign.npz`` was written."""
    out = GC.arrays(name)
    for part in ("campaigns", "adventures"):
        want = CSTORED[f"{name}__{part}"].astype(np.int64)
        got = out[part]
        assert got.shape == want.shape, part
        bad = np.argwhere(got != want)
        fields = [str(f) for f in CSTORED[part[:-1] + "_fields"]]
        assert bad.size == 0, (f"{part}: {len(np.unique(bad[:, 0]))} rows differ; first: row {bad[0, 0]} "
                               f"field {fields[bad[0, 1]]}: {got[tuple(bad[0])]} != {want[tuple(bad[0])]}")


def test_campaign_goldens_cover_what_a_campaign_does():
    fields = [str(f) for f in CSTORED["campaign_fields"]]
    camps = np.concatenate([CSTORED[f"{n}__campaigns"] for n in GC.TABLES])
    for f in ("accomplished", "vp_spent", "facilities_built", "skills_bought", "allies_joined",
              "dead_travel", "dead_shelter"):
        assert camps[:, fields.index(f)].max() > 0, f
    assert camps[:, fields.index("alive")].min() == 0      # some campaigns end with nobody
