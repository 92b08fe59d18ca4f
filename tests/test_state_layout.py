"""The state layout has one source, ``codes.STATE_PARTS``: a laid-out state follows it
(parts in order, contiguous, the snapshot covering exactly the position), and every
kernel accessor of ``kernels/state_nb.py`` and every Python view of ``GameState`` agree
with it."""
from __future__ import annotations

import numba
import numpy as np
import pytest

from simlib.games.until_daylight import codes as K
from simlib.games.until_daylight.api import flat_rules
from simlib.games.until_daylight.kernels import state_nb as S
from simlib.games.until_daylight.kernels.game_nb import new_state_nb
from simlib.games.until_daylight.ruleset import load_ruleset
from simlib.games.until_daylight.state import GameState

RULESETS = {
    "reference": load_ruleset("reference"),
    "bigger decks": load_ruleset("reference").override({"horde.survivor.count": 172,
                                             "rubble.gun_ammo.count": 40}),
    # a horde longer than the candidate rows (codes.MAX_CANDS), which size the scratch
    # rows of the decks the shipped rulesets deal
    "huge horde": load_ruleset("reference").override({"horde.survivor.count": 600}),
}


def _state(rules, ev_cap=7):
    return new_state_nb(flat_rules(rules), np.int64(ev_cap))


@pytest.mark.parametrize("name", list(RULESETS))
def test_a_state_is_laid_out_as_the_table_says(name):
    st = _state(RULESETS[name])
    o = K.N_G
    for part, slot, rows, cols, _role in K.STATE_PARTS:
        assert st[slot] == o, part
        o += K.part_dim(st, rows) * K.part_dim(st, cols)
    assert o == len(st) == st[K.G_SIZE]
    # the position is the head and the position parts, and nothing else
    first_other = next(p for p in K.STATE_PARTS if p[4] != K.ROLE_POSITION)
    assert st[K.G_SNAP_N] == st[first_other[1]]
    assert all(p[4] == K.ROLE_POSITION for p in K.STATE_PARTS[:K.STATE_PARTS.index(first_other)])
    # a fresh state is zero outside the scratch parts (and the head's set fields)
    for part, slot, rows, cols, role in K.STATE_PARTS:
        if role != K.ROLE_SCRATCH:
            n = K.part_dim(st, rows) * K.part_dim(st, cols)
            assert not st[st[slot]:st[slot] + n].any(), part


@numba.njit
def _probe(st):
    """(first element, rows, cols, last element) of every kernel accessor's view."""
    pl, inv, area, kept = S.pl_of(st), S.inv_of(st), S.area_of(st), S.kept_of(st)
    ev, cands, buf = S.ev_of(st), S.cands_of(st), S.buf_of(st)
    hdeck, hdisc, rdeck, rdisc = S.hdeck_of(st), S.hdisc_of(st), S.rdeck_of(st), S.rdisc_of(st)
    rng, killed = S.rng_of(st), S.killed_of(st)
    out = np.zeros((12, 4), dtype=np.int64)
    for k, a in enumerate((pl, inv, area, kept, ev, cands, buf)):
        out[k] = a[0, 0], a.shape[0], a.shape[1], a[-1, -1]
    for k, a in enumerate((hdeck, hdisc, rdeck, rdisc, killed)):
        out[7 + k] = a[0], 1, a.shape[0], a[-1]
    return out, np.int64(rng[0]), rng.shape[0]


ACCESSORS = ("pl", "inv", "area", "kept", "ev", "cands", "buf", "hdeck", "hdisc", "rdeck",
             "rdisc", "killed")


@pytest.mark.parametrize("name", list(RULESETS))
def test_every_accessor_and_view_agrees_with_the_table(name):
    rules = RULESETS[name]
    st = _state(rules)
    st[K.N_G:] = np.arange(K.N_G, len(st))  # each entry holds its own index
    out, rng0, n_rng = _probe(st)
    view = GameState(st, rules)
    for k, part in enumerate(ACCESSORS):
        _, slot, rows, cols, _ = K.STATE_PART[part]
        r, c = K.part_dim(st, rows), K.part_dim(st, cols)
        assert tuple(out[k]) == (st[slot], r, c, st[slot] + r * c - 1), part
        v = view.part(part)
        assert v.shape == ((c,) if rows == K.const(1) else (r, c)), part
        assert v.flat[0] == st[slot] and v.flat[-1] == st[slot] + r * c - 1, part
    _, slot, rows, cols, _ = K.STATE_PART["rng"]
    assert (rng0, n_rng) == (st[slot], K.part_dim(st, cols))
    assert view.rng.shape == (K.part_dim(st, cols),) and view.rng.dtype == np.uint64
    assert set(ACCESSORS) | {"rng", "snap", "script"} == set(K.STATE_PART)


@pytest.mark.parametrize("name", list(RULESETS))
def test_an_area_and_the_horde_deck_hold_the_whole_horde(name):
    """Every horde card can end up in one survivor's area (a long game's pile-up) and the
    horde deck holds the whole horde: their parts are longer than the horde's card count
    (summed here from the ruleset's counts), whichever deck is the larger; so are the
    scratch rows that work on an area or on the rubble looked at."""
    rules = RULESETS[name]
    horde = sum(rules.get(f"horde.{n}.count") for n in rules.names("horde"))
    st = _state(rules)
    assert st[K.G_AREA_CAP] > horde
    rows, cols = K.STATE_PARTS[[p[0] for p in K.STATE_PARTS].index("area")][2:4]
    assert K.part_dim(st, cols) > horde and K.part_dim(st, rows) == K.MAX_PLAYERS
    hcols = K.STATE_PARTS[[p[0] for p in K.STATE_PARTS].index("hdeck")][3]
    assert K.part_dim(st, hcols) > horde
    # the scratch rows hold an area's enemies (its line of targets, the killed) and the
    # rubble cards a search looks at: longer than either deck
    rubble = sum(rules.get(f"rubble.{n}.count") for n in rules.names("rubble"))
    bcols = K.STATE_PARTS[[p[0] for p in K.STATE_PARTS].index("buf")][3]
    assert K.part_dim(st, bcols) > max(horde, rubble)
