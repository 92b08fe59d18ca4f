"""Mort de la lumière du jour's explicit chance (issue #40): ``Game.chance_events()`` lists
every chance outcome of a game (the setup tokens, every card drawn, every die rolled, the
chests' and the hatch's tokens) and agrees with the kernel's trace log, its state and the
number of draws its three random streams made."""
from __future__ import annotations

from collections import Counter

import pytest

from simlib.core.rng import GOLDEN
from simlib.games.mort import codes as K
from simlib.core.step import stream_seed as _stream_seed
from simlib.games.mort.step import Game
from simlib.games.mort.ruleset import load_ruleset

KINDS = {"setup_token", "chest_token", "hatch_token", "energy", "killer_card", "survivor_card",
         "repair_die", "chest_die", "gate_die", "strike_die", "break_die"}
_M64 = (1 << 64) - 1


def _rows(g: Game, kind: int) -> list[tuple]:
    return [tuple(int(x) for x in r) for r in g.log[1:1 + g.log[0, 0]] if r[0] == kind]


def _draws(g: Game, stream: int) -> int:
    """How many numbers the state's stream ``stream`` gave since the game began (each draw
    adds GOLDEN to the stream: splitmix64)."""
    start = _stream_seed(int(g.state[K.S_KEY]), stream) & _M64
    now = int(g.state[K.S_STREAMS + stream]) & _M64
    return ((now - start) * pow(int(GOLDEN), -1, 1 << 64)) & _M64


def _check(g: Game) -> None:
    rules, flat, st = g.rules, g.rules.flat(), g.state
    ev = g.chance_events()
    assert {k for k, _ in ev} <= KINDS
    count = Counter(k for k, _ in ev)
    # complete: one event per number each stream gave (tokens, decks, dice)
    assert count["setup_token"] + count["chest_token"] + count["hatch_token"] == \
        _draws(g, K.STREAM_TOKENS)
    assert count["energy"] + count["killer_card"] + count["survivor_card"] == _draws(g, K.STREAM_DECKS)
    dice = [k for k in count if k.endswith("_die")]
    assert sum(count[k] for k in dice) == _draws(g, K.STREAM_DICE) == g.record()["rolls"]
    # the setup: the tokens of the placements, in order, without replacement
    setup = [v for k, v in ev if k == "setup_token"]
    assert setup == [r[4] for r in _rows(g, K.LG_PLACE)]
    assert len(set(setup)) == len(setup) and all(0 <= t < len(rules.tokens()) for t in setup)
    # chests: each opened chest's card and new token, as the log has them
    chests = _rows(g, K.LG_CHEST)
    assert [v for k, v in ev if k == "chest_token"] == [r[5] for r in chests]
    # the hatch: drawn at most once, where the state has it
    hatch = [v for k, v in ev if k == "hatch_token"]
    assert len(hatch) <= 1
    if hatch:
        assert hatch[0] == st[K.S_HATCH_TOKEN] and st[K.S_HATCH] != K.HATCH_HIDDEN
    # dice: faces in range; the successes are the log's
    white = int(flat[K.R_PARAMS + K.P_WHITE_FACES])
    black = int(flat[K.R_PARAMS + K.P_BLACK_FACES])
    for k, v in ev:
        if k in ("repair_die", "chest_die", "gate_die"):
            assert 0 <= v < white
        elif k in ("strike_die", "break_die"):
            assert 0 <= v < black
    strikes = [int(flat[K.R_BLACK + v]) for k, v in ev if k == "strike_die"]
    assert strikes == [r[4] for r in _rows(g, K.LG_STRIKE)]
    assert len(strikes) == g.record()["strikes"]
    repairs = [int(flat[K.R_WHITE + v]) for k, v in ev if k == "repair_die"]
    assert repairs == [r[5] for r in _rows(g, K.LG_ROLL) if r[3] == K.Q_REPAIR]
    # decks: up to the first reshuffle the draws are the deck's contents (a permutation of
    # the whole deck once every card was drawn)
    for kind, names, field in (("energy", None, None), ("killer_card", "killer_cards", "killer_cards"),
                               ("survivor_card", "survivor_cards", "survivor_cards")):
        if names is None:
            deck = Counter({int(rules.get(f"energy.{n}.value")): int(rules.get(f"energy.{n}.count"))
                            for n in rules.names("energy")})
        else:
            deck = Counter({i: int(rules.get(f"{field}.{n}.count")) for i, n in enumerate(rules.names(names))})
        size = sum(deck.values())
        drawn = [v for k, v in ev if k == kind]
        first = Counter(drawn[:size])
        assert not first - deck, (kind, first - deck)
        if len(drawn) >= size:
            assert first == deck


@pytest.mark.parametrize("seed,game,seats,ruleset", [
    (1, 0, "killer=random,survivors=random", None),
    (1, 1, "killer=heuristic,survivors=heuristic", None),
    (2, 3, "killer=heuristic,survivors=random", None),
    (3, 5, "killer=random,survivors=heuristic", {"rules.variants.pooled_energy": True,
                                                 "rules.variants.any_card_repairs": True}),
    (4, 2, "killer=random,survivors=random", {"board.survivors": 2, "rules.killer_win_kills": 2}),
])
def test_chance_events_are_complete(seed, game, seats, ruleset):
    rs = load_ruleset().override(ruleset) if ruleset else None
    for i in range(4):
        g = Game(seed=seed, game=game + i, seats=seats, ruleset=rs, trace=True)
        g.play()
        _check(g)


def test_chance_events_cover_chests_and_the_hatch():
    """Over a few games every kind of chance event shows up (no kind silently missing)."""
    seen: Counter = Counter()
    for i in range(12):
        g = Game(seed=7, game=i, seats="killer=heuristic,survivors=heuristic", trace=True)
        g.play()
        _check(g)
        seen.update(k for k, _ in g.chance_events())
    for k in ("setup_token", "chest_token", "hatch_token", "energy", "killer_card",
              "survivor_card", "repair_die", "chest_die", "strike_die"):
        assert seen[k] > 0, k


def test_chance_events_without_a_trace_and_through_clone():
    g = Game(seed=5, game=2, seats="killer=random,survivors=random")
    traced = Game(seed=5, game=2, seats="killer=random,survivors=random", trace=True)
    for _ in range(60):
        i = g.policy_choice()
        assert traced.policy_choice() == i
        g.apply(i)
        traced.apply(i)
    c = g.clone()
    assert c.chance_events() == g.chance_events() == traced.chance_events()
    g.play()
    c.play()
    traced.play()
    assert c.chance_events() == g.chance_events() == traced.chance_events()
    assert len(g.chance_events()) > len(Game(seed=5, game=2).chance_events())
