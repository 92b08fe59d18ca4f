"""A game's trace (api.trace_game events) agrees with its record, field by field.

Each record field (codes.REC_FIELDS) that the trace also shows is recounted from the
events: attacks, the death, the end, damage and health per seat, kills per seat and per
enemy type, survivors saved, the leader, cards drawn, reshuffles, exchanges and search
actions.  The record is also the one play_games writes for the same game.  And a trace
buffer too small for the game must say so.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

from simlib.games.until_daylight import codes as K
from simlib.games.until_daylight import api
from simlib.games.until_daylight.api import play_games, trace_game
from simlib.games.until_daylight.ruleset import load_ruleset

RULES = load_ruleset("reference")
TRAP_REWARDS = RULES.override({"variants.trap_rewards": not RULES.get("variants.trap_rewards")})
SHORT = RULES.override({"constants.rounds": 2})  # nights short enough to be won
STALE = RULES.override({"constants.rounds": 2, "constants.stalemate_cap": 1})
SMALL_HORDE = RULES.override({"variants.horde_reshuffle": True, "horde.wanderer.count": 12,
                              "horde.raider.count": 4, "horde.brute.count": 3,
                              "horde.monster.count": 1, "horde.survivor.count": 6})
CHAR_TAB = RULES.pack().char_tab


def _of(ev, kind, seat=None):
    rows = ev[ev[:, 0] == kind]
    return rows if seat is None else rows[rows[:, 2] == seat]


def check_trace_against_record(rec, ev, rules):
    trap_kills_count = int(rules.pack().params[K.P_V_TRAP_REWARDS]) != 0
    n = int(rec["players"])
    assert len(ev) > 0 and int(ev[-1, 0]) == K.EV_END
    # the end
    end = _of(ev, K.EV_END)
    assert len(end) == 1
    assert (int(end[0, 3]), int(end[0, 4])) == (int(rec["outcome"]), int(rec["cause"]))
    assert int(end[0, 1]) == int(rec["round_reached"]) == int(ev[:, 1].max())
    # the death
    death = _of(ev, K.EV_DEATH)
    if int(rec["cause"]) == K.CAUSE_CHARACTER_DIED:
        assert len(death) == 1
        s = int(death[0, 2])
        assert s == int(rec["dead_seat"]) and int(death[0, 1]) == int(rec["dead_round"])
        assert int(rec["dead_character"]) == int(rec[f"character_{s}"])
        assert int(rec[f"health_{s}"]) == 0
        last_damage = _of(ev, K.EV_DAMAGE, s)[-1]
        assert int(last_damage[4]) == 0 and int(last_damage[1]) == int(rec["dead_round"])
    else:
        assert len(death) == 0
        assert int(rec["dead_seat"]) == int(rec["dead_round"]) == int(rec["dead_character"]) == -1
    # attacks, draws, horde, reshuffles, exchanges
    assert len(_of(ev, K.EV_ATTACK)) == int(rec["attacks"])
    assert len(_of(ev, K.EV_ROLL)) == int(rec["attacks"])
    assert len(_of(ev, K.EV_DRAW)) == int(rec["rubble_drawn"])
    assert len(_of(ev, K.EV_HORDE)) == int(rec["horde_drawn"])
    resh = _of(ev, K.EV_RESHUFFLE)
    assert int((resh[:, 3] == 0).sum()) == int(rec["horde_reshuffles"])
    exch = _of(ev, K.EV_EXCHANGE)
    assert len(exch) == int(rec["exchanges"])
    assert exch[:, 3].tolist() == list(range(1, len(exch) + 1))
    # search actions: the timer's K of every round whose search phase was completed
    rounds = np.flatnonzero(ev[:, 0] == K.EV_ROUND)
    allowed = ev[rounds, 4]
    caught_after_last = (ev[rounds[-1]:, 0] == K.EV_CAUGHT).any() if len(rounds) else True
    if caught_after_last:
        assert int(allowed.sum()) == int(rec["search_actions"])
    else:  # the game ended during a search phase
        assert int(allowed[:-1].sum()) <= int(rec["search_actions"]) < int(allowed.sum())
    # per seat: damage, health, kills
    kills = _of(ev, K.EV_KILL)
    for s in range(K.MAX_PLAYERS):
        if s >= n:
            for f in K.REC_PER_SEAT:
                assert int(rec[f"{f}_{s}"]) == -1
            continue
        dmg = _of(ev, K.EV_DAMAGE, s)
        assert int(dmg[:, 3].sum()) == int(rec[f"damage_{s}"])
        hp = ev[((ev[:, 0] == K.EV_DAMAGE) | (ev[:, 0] == K.EV_HEAL)) & (ev[:, 2] == s)]
        start = int(CHAR_TAB[int(rec[f"character_{s}"]), K.CH_HEALTH])
        assert int(rec[f"health_{s}"]) == (int(hp[-1, 4]) if len(hp) else start)
        mine = kills[kills[:, 2] == s]
        if not trap_kills_count:
            mine = mine[mine[:, 5] == 0]  # trap kills without rewards are nobody's
        assert len(mine) == int(rec[f"kills_{s}"])
    # per enemy type
    for t in range(K.MAX_ENEMY_TYPES):
        assert int((kills[:, 3] == t).sum()) == int(rec[f"killed_{t}"])
    # survivors: saved over the game, and kept at the end (saved minus sacrificed)
    saved = int(_of(ev, K.EV_SAVED)[:, 3].sum())
    assert saved == int(rec["survivors_saved_total"])
    assert saved - len(_of(ev, K.EV_SACRIFICE)) == int(rec["survivors_saved"])
    # the leader
    lead = _of(ev, K.EV_LEADER)
    assert int(rec["leader"]) == (int(lead[-1, 3]) if len(lead) else -1)
    # invariants (checked after every step)
    assert int(rec["violation"]) == 0 and len(_of(ev, K.EV_VIOLATION)) == 0


CASES = [(players, policy, game) for players in (3, 4, 5, 6) for policy in ("baseline", "random")
         for game in range(5)]


@pytest.mark.parametrize("players,policy", sorted({(p, q) for p, q, _ in CASES}))
def test_trace_agrees_with_its_record(players, policy):
    games = [g for p, q, g in CASES if (p, q) == (players, policy)]
    batch = play_games(len(games), players=players, seed=21, policy=policy, check=True, threads=1)
    deaths = 0
    for i, game in enumerate(games):
        rec, ev = trace_game(seed=21, players=players, game=game, policy=policy, check=True)
        assert rec.tolist() == batch[i].tolist()  # the traced game is the batch's game
        check_trace_against_record(rec, ev, RULES)
        deaths += int(rec["cause"]) == K.CAUSE_CHARACTER_DIED
    assert deaths > 0


def test_trace_agrees_with_its_record_with_trap_rewards():
    for game in range(8):
        rec, ev = trace_game(seed=4, players=5, game=game, policy="random", check=True,
                             ruleset=TRAP_REWARDS)
        check_trace_against_record(rec, ev, TRAP_REWARDS)


def test_horde_reshuffles_are_traced_as_recorded():
    """A small horde deck (reshuffle variant on) is reshuffled within a game."""
    seen = 0
    for game in range(12):
        rec, ev = trace_game(seed=21, players=3, game=game, policy="random", check=True,
                             ruleset=SMALL_HORDE)
        check_trace_against_record(rec, ev, SMALL_HORDE)
        seen += int(rec["horde_reshuffles"])
    assert seen >= 2


def test_every_ending_is_traced_as_recorded():
    """Wins, deaths, no survivor and stalemates (short nights make them common)."""
    causes = set()
    for rules in (SHORT, STALE):
        for players in (3, 5):
            batch = play_games(60, players=players, seed=21, policy="baseline", ruleset=rules,
                               threads=1)
            for cause in range(len(K.CAUSE_NAMES)):
                idx = np.flatnonzero(batch["cause"] == cause)
                if len(idx) == 0:
                    continue
                game = int(idx[0])
                rec, ev = trace_game(seed=21, players=players, game=game, policy="baseline",
                                     ruleset=rules, check=True)
                assert rec.tolist() == batch[game].tolist()
                check_trace_against_record(rec, ev, rules)
                causes.add(cause)
    assert causes == set(K.CAUSE_NAMES), causes


def test_the_checks_bite():
    """The cases meet the events the checks count, and a record off by one is caught."""
    saw = dict(trap_kill=False, heal=False, leader=False, saved=False)
    for players, policy, game in CASES:
        rec, ev = trace_game(seed=21, players=players, game=game, policy=policy)
        saw["trap_kill"] |= bool((_of(ev, K.EV_KILL)[:, 5] == 1).any())
        saw["heal"] |= len(_of(ev, K.EV_HEAL)) > 0
        saw["leader"] |= len(_of(ev, K.EV_LEADER)) > 0
        saw["saved"] |= len(_of(ev, K.EV_SAVED)) > 0
    assert all(saw.values()), saw
    rec, ev = trace_game(seed=21, players=4, game=0, policy="baseline")
    check_trace_against_record(rec, ev, RULES)
    for field in ["attacks", "rubble_drawn", "horde_drawn", "survivors_saved_total", "damage_0",
                  "kills_1", "killed_0", "round_reached", "search_actions", "exchanges",
                  "leader", "health_2", "outcome"]:
        bad = rec.copy()
        bad[field] += 1
        with pytest.raises(AssertionError):
            check_trace_against_record(bad, ev, RULES)


# --------------------------------------------------------------------------- full buffer
def _long_game():
    rec, ev = trace_game(seed=3, players=6, game=1, policy="baseline")
    assert len(ev) > 100
    return rec, ev


def test_a_small_buffer_keeps_the_first_events_and_the_whole_record_and_says_so():
    """An explicit capacity too small for the game: the game is played to its end (same
    record), the events stop at the capacity, and a TraceTruncatedWarning says so."""
    rec, ev = _long_game()
    with pytest.warns(api.TraceTruncatedWarning, match="capacity=10"):
        rec10, ev10 = trace_game(seed=3, players=6, game=1, policy="baseline", capacity=10)
    assert rec10.tolist() == rec.tolist()
    assert len(ev10) == 10
    np.testing.assert_array_equal(ev10, ev[:10])


def test_a_buffer_large_enough_gives_no_warning():
    rec, ev = _long_game()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rec2, ev2 = trace_game(seed=3, players=6, game=1, policy="baseline", capacity=len(ev) + 1)
    np.testing.assert_array_equal(ev2, ev)


def test_the_default_trace_grows_its_buffer_to_the_whole_game(monkeypatch):
    """capacity=None: a game longer than the starting buffer is replayed with a larger one,
    and the trace is the whole game (the same events as one large enough buffer gives)."""
    rec, ev = _long_game()
    monkeypatch.setattr(api, "TRACE_START_CAPACITY", 7)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        rec2, ev2 = trace_game(seed=3, players=6, game=1, policy="baseline")
    assert rec2.tolist() == rec.tolist()
    np.testing.assert_array_equal(ev2, ev)
    with pytest.raises(ValueError, match="capacity"):
        trace_game(seed=3, players=6, game=1, capacity=0)
