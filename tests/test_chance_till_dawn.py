"""Till Dawn's explicit chance (issue #40): ``Game.chance_events()`` lists every chance
outcome of a game (the team, each night's power deal, every hunt and event card drawn) and
agrees with the kernel's own trace log and state."""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from simlib.games.till_dawn import codes as K
from simlib.games.till_dawn.step import Game
from simlib.games.till_dawn.ruleset import load_ruleset


def _play(seed, game, players, policy="random", ruleset=None, characters=None) -> Game:
    seats = [policy] * players if characters is None else \
        [{"player": policy, "character": c} for c in characters]
    g = Game(seed, game, players=players, seats=seats, trace=True, ruleset=ruleset)
    g.play()
    return g


def _rows(g: Game, kind: int) -> list[tuple]:
    return [tuple(int(x) for x in r) for r in g.log[1:1 + g.log[0, 0]] if r[0] == kind]


def _check(g: Game) -> None:
    rules, flat = g.rules, g.rules.flat()
    p = int(g.state[K.S_PLAYERS])
    ev = g.chance_events()
    assert {k for k, _ in ev} <= {"character", "power", "hunt", "event"}
    # every hunt and event card of the trace, in order, and nothing else
    assert [v for k, v in ev if k == "hunt"] == [r[3] for r in _rows(g, K.LG_DRAW)]
    assert [v for k, v in ev if k == "event"] == [r[3] for r in _rows(g, K.LG_EVENT_DRAW)]
    assert len([1 for k, _ in ev if k == "hunt"]) == g.record()["draws"]
    # one power per seat per night started, distinct cards of the pile each night
    npw = int(flat[K.R_PARAMS + K.P_N_POWERS])
    powers = [v for k, v in ev if k == "power"]
    nights = len(_rows(g, K.LG_NIGHT))
    assert len(powers) == nights * p
    for i in range(nights):
        deal = powers[i * p:(i + 1) * p]
        assert len(set(deal)) == p and all(0 <= c < npw for c in deal)
    # the last deal is the pile's top as the state keeps it
    assert powers[-p:] == [int(x) for x in g.state[K.S_POWERS:K.S_POWERS + p]]
    # hunt draws between two (re)shuffles are drawn from the deck's contents: a card type
    # never drawn more often than the deck holds it (the returning card comes back)
    deck = Counter(int(flat[K.R_DECK + i]) for i in range(int(flat[K.R_PARAMS + K.P_N_HUNT])))
    types = rules.card_types()
    rows = [tuple(int(x) for x in r) for r in g.log[1:1 + g.log[0, 0]]]
    seen: Counter = Counter()
    for r in rows:
        if r[0] in (K.LG_NIGHT, K.LG_RESHUFFLE):
            seen = Counter()
        elif r[0] == K.LG_DRAW:
            t = r[3]
            assert 0 <= t < len(types)
            if not types[t]["returns"]:
                seen[t] += 1
                assert seen[t] <= deck[t], (t, seen[t], deck[t])
    # event cards: physical cards, each drawn at most once a night
    ne = int(flat[K.R_PARAMS + K.P_N_EVENTS])
    night_events: list[int] = []
    for r in rows:
        if r[0] == K.LG_NIGHT:
            night_events = []
        elif r[0] == K.LG_EVENT_DRAW:
            assert 0 <= r[3] < ne and r[3] not in night_events
            night_events.append(r[3])


@pytest.mark.parametrize("players", [2, 3, 5, 8])
@pytest.mark.parametrize("policy", ["random", "threshold"])
def test_chance_events_are_the_games_draws(players, policy):
    for game in range(8):
        g = _play(11, game, players, policy)
        _check(g)
        chars = [v for k, v in g.chance_events() if k == "character"]
        assert chars == [int(c) for c in g.state[K.S_S_CHARACTER:K.S_S_CHARACTER + players]]
        assert len(set(chars)) == players
        # the setup comes first: the team, then the first night's deal
        kinds = [k for k, _ in g.chance_events()]
        assert kinds[:2 * players] == ["character"] * players + ["power"] * players


def test_a_given_team_is_no_chance_event():
    rules = load_ruleset()
    team = list(rules.character_names)[:3]
    g = _play(3, 0, 3, characters=team)
    _check(g)
    assert "character" not in {k for k, _ in g.chance_events()}


def test_nights_without_a_decision_are_each_dealt():
    # a one-space track: a sun card on a night's first draw ends the night inside one
    # kernel call, so several deals can fall between two decisions
    rules = load_ruleset().override({"constants.track_length": 1, "constants.nights": 6})
    chained = 0
    for game in range(40):
        g = _play(5, game, 3, ruleset=rules)
        _check(g)
        draws, sun = -1, False
        for r in g.log[1:1 + g.log[0, 0]]:
            if r[0] in (K.LG_NIGHT, K.LG_END):
                chained += draws == 1 and sun  # sunrise on the first card: no decision
                draws, sun = 0, False
            draws += r[0] == K.LG_DRAW
            sun |= r[0] == K.LG_SUNRISE
    assert chained > 0


def test_an_empty_deck_reshuffles_and_draws_on():
    base = load_ruleset()
    tough = {f"characters.{c}.max_health": 100 for c in base.character_names}
    rules = base.override({"constants.track_length": 100, "constants.nights": 1,
                           "constants.variants.unlimited_tokens": True,
                           # a returning card keeps a deck from ever running out
                           "hunt.werewolf.returns": False, **tough})
    reshuffled = 0
    for game in range(6):
        g = Game(seed=2, game=game, players=2, seats=["threshold:t=1000"] * 2, trace=True,
                 ruleset=rules)
        g.play()
        _check(g)
        reshuffled += len(_rows(g, K.LG_RESHUFFLE))
    assert reshuffled > 0


def test_clone_carries_the_chance_events_and_plays_on_alike():
    g = Game(seed=4, game=1, players=4, seats=["random"] * 4)
    for _ in range(10):
        g.apply(g.policy_choice())
    c = g.clone()
    assert c.chance_events() == g.chance_events()
    g.play()
    c.play()
    assert c.chance_events() == g.chance_events()
    assert np.array_equal(c.state, g.state)


def test_chance_events_of_a_study_game_are_its_own():
    # the same seed and game deal the same first night whatever the policy
    a = _play(9, 3, 4, "random").chance_events()
    b = _play(9, 3, 4, "threshold").chance_events()
    assert a[:8] == b[:8]
    assert a != _play(9, 4, 4, "random").chance_events()
