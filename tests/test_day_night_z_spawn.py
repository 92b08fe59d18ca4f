"""Day Night Z's spawn kernel (``spawn_nb``): the specification's case 9 (draw order,
initiative order within a card, the tile's room), finite miniatures and the deck's
reference means, against the data read here directly."""
from __future__ import annotations

import numpy as np
import pytest

from simlib.games.day_night_z import codes as K
from simlib.games.day_night_z.kernels import spawn_nb as S
from simlib.games.day_night_z.ruleset import load_ruleset

RS = load_ruleset()
SP = RS.pack_spawn()
W, C = K.ENEMIES.index("walker"), K.ENEMIES.index("crawler")
YELLOW = K.LEVELS.index("yellow")


def kind(name, rs=RS):
    return rs.names("spawn").index(name)


def fresh(sp=SP):
    minis = np.zeros(K.N_ENEMIES, dtype=np.int64)
    S.reset_minis_nb(sp, minis)
    return minis, np.zeros(64, dtype=np.int64)


def test_case9_draw_order_then_initiative():
    minis, placed = fresh()
    n, on_tile, lost_m, lost_r = S.place_card_nb(SP, kind("walkers"), YELLOW, 0, minis, 0, placed, 0)
    n, on_tile, lost_m, lost_r = S.place_card_nb(SP, kind("crawler_pack"), YELLOW, 0, minis, on_tile, placed, n)
    assert list(placed[:n]) == [W, W, C, W] and on_tile == 4 and lost_m == lost_r == 0
    assert minis[W] == RS.get("enemies.walker.miniatures") - 3 and minis[C] == RS.get("enemies.crawler.miniatures") - 1


def test_case9_room_for_three():
    minis, placed = fresh()
    cap = RS.get("map.tile_capacity")
    red = K.LEVELS.index("red")
    # 3 Walkers (the walkers card at red), then 2 (at yellow): 5 enemies into room for 3
    n, on_tile, _, lost1 = S.place_card_nb(SP, kind("walkers"), red, 0, minis, cap - 3, placed, 0)
    n, on_tile, _, lost2 = S.place_card_nb(SP, kind("walkers"), YELLOW, 0, minis, on_tile, placed, n)
    assert (n, on_tile, lost1 + lost2) == (3, cap, 2)


def test_finite_miniatures():
    minis, placed = fresh()
    minis[:] = 0
    minis[W] = 1
    n, on_tile, lost_m, lost_r = S.place_card_nb(SP, kind("walkers"), K.LEVELS.index("red"), 0, minis, 0, placed, 0)
    assert (n, lost_m, lost_r) == (1, 2, 0) and minis[W] == 0
    unl = RS.override({"variants.unlimited_miniatures": True}).pack_spawn()
    n, *_ = S.place_card_nb(unl, kind("walkers"), K.LEVELS.index("red"), 0, minis, 0, placed, 0)
    assert n == 3 and minis[W] == 0


@pytest.mark.parametrize("level,mean", [("green", 1.3), ("yellow", 1.95), ("red", 3.0)])
def test_deck_means(level, mean):
    li = K.LEVELS.index(level)
    deck = SP[K.X_DECK:K.X_DECK + SP[K.X_PARAMS + K.SP_N_CARDS]]
    total = 0
    for card in deck:
        minis, placed = fresh()
        n, *_ = S.place_card_nb(SP, card, li, 0, minis, 0, placed, 0)
        assert n == sum(RS.get(f"spawn.{RS.names('spawn')[card]}.{level}").values())
        total += n
    assert total / len(deck) == pytest.approx(mean, abs=1e-12)
    assert len(deck) == 20


def test_initiative_order_follows_the_data():
    # a Walker faster than a Crawler is placed first
    rs = RS.override({"enemies.walker.day.initiative": 9})
    sp = rs.pack_spawn()
    minis, placed = fresh(sp)
    n, *_ = S.place_card_nb(sp, kind("crawler_pack", rs), YELLOW, 0, minis, 0, placed, 0)
    assert list(placed[:n]) == [W, C]
    # by night the night side's initiative rules
    minis, placed = fresh(sp)
    n, *_ = S.place_card_nb(sp, kind("crawler_pack", rs), YELLOW, 1, minis, 0, placed, 0)
    assert list(placed[:n]) == [C, W]
