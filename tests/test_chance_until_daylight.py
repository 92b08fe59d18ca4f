"""Until Daylight's explicit chance: ``Game.chance_events()`` lists every chance outcome of a
game (issue #40), complete and in the kernel's terms.

Completeness is checked against what the trace cannot fake: the game's own random streams.
Every deck draw, team draw, die and Die of Fate takes exactly one number from its stream, so
replaying the streams from the game's key by the listed events must land on the state's
final streams; the dice faces drawn that way are the listed faces (in rolling order for a
player's roll, as a multiset for the whole game); the decks' draws plus what is left are the
decks' contents.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from simlib.core.rng import make_streams, randint_nb
from simlib.games.until_daylight.codes import STREAM_CARDS, STREAM_DICE, STREAM_TIMER
from simlib.games.until_daylight import codes as K
from simlib.games.until_daylight.ladder import ruleset_named
from simlib.games.until_daylight.ruleset import load_ruleset
from simlib.games.until_daylight.position import position
from simlib.games.until_daylight.step import Game, StepError

RULES = load_ruleset("reference")
CALIBRATED = ruleset_named("calibrated")
KINDS = {"character", "timer", "rubble", "horde", "fate", "attack_die", "lucky_die", "enemy_die"}
DICE = ("attack_die", "lucky_die", "enemy_die")


def _drive(g: Game, policy: str, stop: int | None = None) -> Game:
    n = 0
    while not g.over and (stop is None or n < stop):
        g.apply(g.policy_choice(policy))
        n += 1
    return g


def _streams(g: Game) -> np.ndarray:
    o = int(g.state[K.G_O_RNG])
    return g.state[o:o + 4].view(np.uint64).copy()


def _replay_streams(g: Game, events) -> tuple[np.ndarray, list[int]]:
    """The game's streams from its key, advanced once per listed outcome; the dice faces
    those draws give."""
    packed = g.rules.pack()
    die = np.asarray(packed.die_faces)
    n_fate = len(packed.fate_faces)
    rs = g.rs
    st = make_streams(g.seed, g.game)
    faces = []
    spread = int(rs[K.P_TIMER_SPREAD])
    for kind, _ in events:
        if kind in ("character", "rubble", "horde"):
            randint_nb(st, STREAM_CARDS, 2)  # one number a draw, whatever the pile's size
        elif kind in DICE:
            faces.append(int(die[randint_nb(st, STREAM_DICE, len(die))]))
        elif kind == "fate":
            randint_nb(st, STREAM_DICE, n_fate)
        elif kind == "timer" and spread > 0:
            randint_nb(st, STREAM_TIMER, 2 * spread + 1)
    return st, faces


@pytest.mark.parametrize("ruleset", [RULES, CALIBRATED], ids=["reference", "calibrated"])
@pytest.mark.parametrize("policy", ["random", "baseline"])
def test_chance_events_are_the_games_whole_randomness(ruleset, policy):
    seen = Counter()
    for game in range(8):
        players = 3 + game % 4
        g = _drive(Game(seed=11, game=game, players=players, ruleset=ruleset, trace=50_000,
                        policy=policy), policy)
        ev = g.chance_events()
        assert {k for k, _ in ev} <= KINDS
        counts = Counter(k for k, _ in ev)
        rec = g.result
        # the streams: one number per listed outcome, none missing, none extra
        st, faces = _replay_streams(g, ev)
        assert np.array_equal(st[:3], _streams(g)[:3]), (game, counts)
        assert sorted(faces) == sorted(v for k, v in ev if k in DICE)
        assert counts["character"] == players  # the team is drawn
        assert counts["rubble"] == rec["rubble_drawn"]
        assert counts["horde"] == rec["horde_drawn"]
        assert counts["timer"] == rec["round_reached"]  # every round begins with its timer
        assert counts["fate"] in (rec["round_reached"], rec["round_reached"] - 1)
        assert all(v in (K.FACE_X, K.FACE_B, K.FACE_H) for k, v in ev if k in DICE)
        assert all(0 <= v < 6 for k, v in ev if k == "fate")
        chars = [v for k, v in ev if k == "character"]
        assert chars == [rec[f"character_{s}"] for s in range(players)]
        seen += counts
    assert all(seen[k] > 0 for k in ("timer", "rubble", "horde", "fate", "attack_die", "enemy_die"))


def test_a_game_without_enemy_batches_lists_its_dice_in_rolling_order():
    """Before the first enemy attack or lucky reroll, the listed dice are the stream's
    dice in order (the faces of a player's roll are read from the trace's codes)."""
    checked = 0
    for game in range(40):
        g = Game(seed=3, game=game, players=4, ruleset=CALIBRATED, trace=50_000, policy="random")
        while not g.over:
            o = int(g.state[K.G_O_EV])
            rows = g.state[o:o + int(g.state[K.G_EV_N]) * K.N_EV_COLS].reshape(-1, K.N_EV_COLS)
            if (rows[:, 0] == K.EV_ENEMY_ROLL).any():
                break
            g.apply(g.policy_choice("random"))
        o = int(g.state[K.G_O_EV])
        rows = g.state[o:o + int(g.state[K.G_EV_N]) * K.N_EV_COLS].reshape(-1, K.N_EV_COLS)
        first = np.flatnonzero(rows[:, 0] == K.EV_ENEMY_ROLL)
        cut = int(first[0]) if len(first) else len(rows)
        if (rows[:cut, 0] == K.EV_ROLL).sum() == 0:
            continue
        played = rows[:cut][rows[:cut, 0] == K.EV_CARD_PLAYED]
        kinds = g.rules.pack().card_tab[:, K.C_KIND]
        if any(kinds[int(r[3])] == K.CK_LUCKY for r in played):
            continue
        ev = g.chance_events()
        _, faces = _replay_streams(g, ev)
        n_before = sum(int(r[3] + r[4] + r[5]) for r in rows[:cut] if r[0] == K.EV_ROLL)
        assert [v for k, v in ev if k in DICE][:n_before] == faces[:n_before]
        checked += 1
    assert checked >= 3


def test_decks_draws_are_their_contents():
    """Without a reshuffle, the cards drawn plus the cards left are the deck's contents."""
    checked = 0
    for game in range(10):
        g = _drive(Game(seed=2, game=game, players=4, ruleset=RULES, trace=50_000,
                        policy="random"), "random")
        if g.state[K.G_RUBBLE_RESHUFFLES] or g.state[K.G_HORDE_RESHUFFLES]:
            continue
        ev = g.chance_events()
        v = g.view
        packed = g.rules.pack()
        enemies = Counter({t: int(packed.enemy_tab[t, K.E_COUNT]) for t in range(packed.enemy_tab.shape[0])})
        drawn = Counter(v_ for k, v_ in ev if k == "horde")
        left = Counter(int(t) for t in v.hdeck[:int(g.state[K.G_HDECK_N])])
        assert drawn + left == +enemies
        team = {int(v.pl[s, K.PL_CHAR]) for s in range(4)}
        cards = Counter()
        for c in range(packed.card_tab.shape[0]):
            owner = int(packed.card_tab[c, K.C_BASIC_OF])
            cards[c] = (0 if owner in team else 1) if owner >= 0 else int(packed.card_tab[c, K.C_COUNT])
        drawn = Counter(v_ for k, v_ in ev if k == "rubble")
        left = Counter(int(c) for c in v.rdeck[:int(g.state[K.G_RDECK_N])])
        assert drawn + left == +cards
        checked += 1
    assert checked >= 3


def test_clone_replay_and_trace_agree():
    g = Game(seed=4, game=2, players=5, ruleset=CALIBRATED, trace=50_000, policy="random")
    plain = Game(seed=4, game=2, players=5, ruleset=CALIBRATED, policy="random")  # no trace
    small = Game(seed=4, game=2, players=5, ruleset=CALIBRATED, trace=8, policy="random")
    mid = None
    n = 0
    while not g.over:
        i = g.policy_choice("random")
        for x in (g, plain, small):
            x.apply(i)
        n += 1
        if n == 20:
            mid = g.clone()
            mid_ev = g.chance_events()
    assert mid is not None
    ev = g.chance_events()
    assert plain.chance_events() == ev  # replayed from the choices taken
    assert small.chance_events() == ev  # the trace was full: replayed too
    assert mid.chance_events() == mid_ev  # a clone carries them
    assert ev[:len(mid_ev)] == mid_ev  # a prefix, never rewritten
    _drive(mid, "random")
    assert mid.chance_events()[:len(mid_ev)] == mid_ev


def test_given_team_draws_no_character_and_unknowable_games_say_so():
    g = Game(1, 0, seats=[{"character": c} for c in ("pillar", "hipster", "trigger")],
             ruleset=RULES, trace=50_000)
    assert all(k != "character" for k, _ in g.chance_events())
    assert g.chance_events()[0][0] == "timer"
    h = Game(seed=1, game=0, players=3, ruleset=RULES).play("random")  # no trace: replayed
    assert h.chance_events() == Game(seed=1, game=0, players=3, ruleset=RULES,
                                     trace=50_000).play("random").chance_events()
    pos = position([{"character": c} for c in ("pillar", "hipster", "trigger")], round=3,
                   ruleset=RULES)  # no trace and no history
    with pytest.raises(StepError, match="cannot be replayed"):
        pos.chance_events()
