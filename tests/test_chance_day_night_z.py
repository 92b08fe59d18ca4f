"""Day Night Z's explicit chance (issue #40): ``step.Game.chance_events()`` lists every
outcome the kernel drew, and nothing else.

Checks on seeded games: the dice events are exactly the dice stream's draws and the picks
the choices stream's (counted from the streams' start to their end); each pile's draws,
cut into rounds of its size, are each a part of the pile's contents, and their number fits
the pile's final position and the decks stream's reshuffles; a clone carries the events;
``play()`` a decision at a time is still the batch's game."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from simlib.core import rng as R
from simlib.games.day_night_z import codes as K
from simlib.core.step import draws as _draws
from simlib.games.day_night_z.step import Game
from simlib.games.day_night_z.play import play_games

CASES = [(seed, game, team) for seed, game in ((0, 1), (3, 7), (11, 2)) for team in (1, 2, 4)]


def _contents(g: Game, kind: str) -> list:
    dice, _tr, spn, rl = g.packed
    if kind == "spawn":
        n = int(spn[K.X_PARAMS + K.SP_N_CARDS])
        return [int(x) for x in spn[K.X_DECK:K.X_DECK + n]]
    if kind == "threat":
        n = int(rl[K.R_PARAMS + K.RP_N_THREAT])
        cols = (K.R_T_SIDE, K.R_T_HOURS, K.R_T_HUNTER, K.R_T_INF, K.R_T_COND)
        return [tuple(int(rl[c + j]) for c in cols) for j in range(n)]
    src, par = {"search": (K.R_SDECK, K.RP_N_SEARCH), "encounter": (K.R_EDECK, K.RP_N_ENC),
                "surprise": (K.R_UDECK, K.RP_N_SUR), "exploration": (K.R_XDECK, K.RP_N_EXP),
                "corpse": (K.R_CDECK, K.RP_N_CORPSE)}[kind]
    n = int(rl[K.R_PARAMS + par])
    return [int(x) for x in rl[src:src + n]]


_POS = {"search": K.G_POS_SEARCH, "spawn": K.G_POS_SPAWN, "encounter": K.G_POS_ENC,
        "surprise": K.G_POS_SUR, "exploration": K.G_POS_EXP, "corpse": K.G_POS_CORPSE,
        "threat": K.G_POS_THREAT}


@pytest.fixture(scope="module")
def games():
    out = []
    for seed, game, team in CASES:
        g = Game(seed=seed, game=game, players=team, policy="random" if team == 2 else "baseline")
        g.play()
        out.append(g)
    return out


def test_dice_and_picks_are_the_streams_draws(games):
    for g in games:
        ev = g.chance_events()
        start = R.make_streams(g.seed, g.game)
        dice = [v for k, v in ev if k == "die"]
        nf = int(g.packed[0][K.D_PARAMS + K.DP_N_FACES])
        want = [(x * nf) >> 32 for x in _draws(int(start[K.STREAM_DICE]), int(g.rng[K.STREAM_DICE]))]
        assert dice == want and dice, (g, len(dice), len(want))
        assert all(0 <= f < nf for f in dice)
        picks = [v for k, v in ev if k == "choice"]
        assert picks == _draws(int(start[K.STREAM_CHOICES]), int(g.rng[K.STREAM_CHOICES]))
        # one struck location a threat card at least
        assert len(picks) >= sum(1 for k, _ in ev if k == "threat")


def test_pile_draws_are_rounds_of_the_pile(games):
    for g in games:
        ev = g.chance_events()
        start = R.make_streams(g.seed, g.game)
        shuffle_draws = 0
        for kind, gpos in _POS.items():
            deck = _contents(g, kind)
            n = len(deck)
            drawn = [v for k, v in ev if k == kind]
            # every round of n draws is the pile's contents (a part of them for the last)
            for i in range(0, len(drawn), n):
                if kind == "threat":   # each column a pile of its own, shuffled apart
                    for c in range(5):
                        part = Counter(x[c] for x in drawn[i:i + n])
                        assert not part - Counter(x[c] for x in deck), (g, kind, i, c)
                    continue
                part = Counter(drawn[i:i + n])
                assert not part - Counter(deck), (g, kind, i, part - Counter(deck))
            pos = int(g.state[K.S_GLOBALS + gpos])
            rounds = 1 + max(0, (len(drawn) - 1) // n) if drawn else 1
            if drawn and pos == n and len(drawn) % n == 0:
                rounds = len(drawn) // n
            assert len(drawn) == (rounds - 1) * n + pos, (g, kind, len(drawn), pos, n)
            cols = 5 if kind == "threat" else 1
            shuffle_draws += rounds * cols * max(n - 1, 0)
        total = len(_draws(int(start[K.STREAM_DECKS]), int(g.rng[K.STREAM_DECKS])))
        assert total == shuffle_draws, (g, total, shuffle_draws)


def test_the_events_match_what_the_game_shows(games):
    for g in games:
        ev = g.chance_events()
        # every spawn of the game came from a spawn card, every threat card made a turn
        assert sum(1 for k, _ in ev if k == "threat") in (g.record()["turns"] - 1, g.record()["turns"])
        found = sum(1 for k, _ in ev if k == "search")
        assert found >= g.record()["searches_done"]


def test_clone_carries_the_events_and_continues_alike():
    g = Game(seed=5, game=3, players=3)
    for _ in range(12):
        if g.over:
            break
        g.apply(g.policy_choice())
    h = g.clone()
    assert h.chance_events() == g.chance_events()
    g.play()
    h.play()
    assert h.chance_events() == g.chance_events()
    assert len(g.chance_events()) > len(Game(seed=5, game=3, players=3).chance_events())


def test_play_a_decision_at_a_time_is_the_batch_game():
    rows = play_games(4, seed=9, team_size=2)["records"]
    for i in range(4):
        g = Game(seed=9, game=i, players=2).play()
        assert g.record_array().tolist() == rows[i].tolist()


def test_a_changed_outcome_would_show():
    """The events depend on the game: two deals differ in their dice."""
    a = Game(seed=1, game=0, players=2).play().chance_events()
    b = Game(seed=1, game=1, players=2).play().chance_events()
    assert a != b
    assert np.all(np.array([v for k, v in a if k == "die"]) >= 0)
