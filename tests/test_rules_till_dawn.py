"""Till Dawn: one scenario test per rule of the engine rules (sections 1-3) that
``test_till_dawn.py`` does not already prove; ``tests/RULES_till_dawn.md`` maps every rule
to its test.

Each test crafts a position on the engine's kernels (``Table``: no powers or events, full
health, no blood), stacks the hunt deck so that the next card is known, draws it, and
asserts what the rule says, with numbers chosen so that the nearest wrong rule gives a
different answer.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simlib.games.till_dawn import codes as K
from simlib.games.till_dawn.kernels import engine_nb as E
from simlib.games.till_dawn.ruleset import load_ruleset
from simlib.games.till_dawn.api import play_games
from simlib.games.till_dawn.step import Game


# seconds for a child process to import, load the compiled kernels (cached by this
# process's earlier tests) and play out a game's end; generous for a loaded machine
CHILD_BUDGET_S = 300


@pytest.fixture(scope="module")
def rules():
    return load_ruleset()


class Table:
    """A game on the engine's kernels, crafted at the start of a draw: no powers or events,
    full health, no blood, every vampire active, the track at dusk, seat 0 to draw."""

    def __init__(self, players: int, rules, seed: int = 0):
        self.rules, self.flat = rules, rules.flat()
        self.state = st = np.zeros(K.S_SIZE, dtype=np.int64)
        self.log = np.zeros((10_000, K.LOG_W), dtype=np.int64)
        team = np.full(K.MAX_SEATS, -1, dtype=np.int64)  # a random team
        E.init_state_nb(st, self.flat, np.int64(players), team, np.uint64(seed + 1), self.log)
        for s in range(players):
            st[K.S_S_POWER + s] = -1
            st[K.S_S_EVENT + s] = -1
        st[K.S_PHASE] = K.PH_DRAW
        self.log[0, 0] = 0

    def seat(self, s: int, part: str) -> int:
        return int(self.state[getattr(K, f"S_S_{part.upper()}") + s])

    def ground(self, s: int) -> str:
        return self.rules.grounds[self.seat(s, "ground")]

    @property
    def phase(self) -> str:
        return K.PHASE_NAMES[int(self.state[K.S_PHASE])]

    @property
    def to_move(self) -> int:
        return int(self.state[K.S_DECIDER])

    @property
    def over(self) -> bool:
        return bool(E.is_over_nb(self.state))

    def legal(self) -> list[int]:
        out = np.zeros(K.N_ACTIONS, dtype=np.int64)
        return [int(a) for a in out[:E.legal_actions_nb(self.state, self.flat, out)]]

    def act(self, code: int) -> None:
        """The player to move takes action ``code`` (``codes.A_*``), which must be legal."""
        assert code in self.legal(), (K.ACTIONS[code], [K.ACTIONS[a] for a in self.legal()])
        assert E.apply_action_nb(self.state, self.flat, np.int64(code), self.log)

    def stack(self, t: int) -> None:
        """Card type ``t`` is the only card left in the hunt deck: it is drawn next."""
        st = self.state
        n = int(self.flat[K.R_PARAMS + K.P_N_HUNT])
        j = [i for i in range(n) if st[K.S_HUNT + i] == t][0]
        st[K.S_HUNT + j], st[K.S_HUNT] = st[K.S_HUNT], st[K.S_HUNT + j]
        st[K.S_N_HUNT] = 1
        st[K.S_TYPE_LEFT:K.S_TYPE_LEFT + K.MAX_TYPES] = 0
        st[K.S_TYPE_LEFT + t] = 1

    def draw(self, t: int) -> None:
        """The current player draws card type ``t``; play on to the next decision."""
        self.stack(t)
        self.state[K.S_PHASE] = K.PH_DRAW
        E.advance_nb(self.state, self.flat, self.log)

    def rows(self, kind: int | None = None) -> list[tuple]:
        rows = [tuple(int(x) for x in r) for r in self.log[1:1 + self.log[0, 0]]]
        return rows if kind is None else [r for r in rows if r[0] == kind]

    def record(self) -> np.ndarray:
        rec = np.zeros(K.REC_SIZE, dtype=np.int64)
        E.record_nb(self.state, self.flat, np.int64(0), rec)
        return rec


def type_of(rules, name: str, moon: str = "blood", icon: int = 0) -> int:
    for t, ct in enumerate(rules.card_types()):
        if ct["name"] == name and K.MOONS[ct["moon"]] == moon and ct["icon"] == icon:
            return t
    raise KeyError((name, moon, icon))


# =========================================================================== 2.1 hunt
def test_feeding_gives_each_active_player_the_card_blood_plus_one_on_its_ground(rules):
    """2.1 'Feeding time: every active player gains the card's blood; +1 for a player whose
    favourite ground is the card's ground.'  A retired vampire gains nothing."""
    g = Table(3, rules)
    g.state[K.S_S_ACTIVE + 1] = 0  # back in its coffin
    fav = g.ground(0)
    g.draw(type_of(rules, f"feed_2_{fav}", "blood"))
    bonus = rules.get("constants.favourite_bonus")
    assert bonus == 1
    assert g.seat(0, "blood") == 2 + bonus
    assert g.seat(1, "blood") == 0
    assert g.seat(2, "blood") == 2 + bonus * (g.ground(2) == fav)
    supply = rules.get("constants.blood_supply")
    assert g.state[K.S_BLOOD_SUPPLY] == supply - g.seat(0, "blood") - g.seat(2, "blood")


@pytest.mark.parametrize("card, start, end", [("night_lingers_1", 5, 4), ("night_lingers_2", 5, 3),
                                              ("night_lingers_2", 1, 0)])
def test_night_lingers_moves_the_track_back_by_the_card_value_not_below_dusk(rules, card, start, end):
    """2.1 'Night lingers: the night-track bead moves back N (not below the start).'"""
    g = Table(3, rules)
    g.state[K.S_TRACK] = start
    g.draw(type_of(rules, card, "blood"))
    assert g.state[K.S_TRACK] == end
    assert [r[3] for r in g.rows(K.LG_TRACK)] == [end]


@pytest.mark.parametrize("card, start", [("sun_rising_1", 3), ("sun_rising_2", 3), ("sun_rising_1", 8)])
def test_sun_rising_moves_the_track_forward_by_the_card_value(rules, card, start):
    """2.1 'Sun rising: the bead moves forward N' - short of the last space the night goes on."""
    g = Table(3, rules)
    g.state[K.S_TRACK] = start
    value = int(card[-1])
    g.draw(type_of(rules, card, "blood"))
    assert g.state[K.S_TRACK] == start + value < rules.get("constants.track_length")
    assert g.state[K.S_SUNRISE] == 0 and g.state[K.S_NIGHT] == 0
    assert [g.seat(s, "active") for s in range(3)] == [1, 1, 1]


@pytest.mark.parametrize("card", ["sun_rising_1", "sun_rising_2"])
def test_the_sun_rises_on_the_last_space_even_when_the_card_overshoots(rules, card):
    """2.1 'at the last space the sun rises: the night ends for everyone, and every active
    player loses all unbanked blood' - one space from one before the end reaches it
    exactly, two overshoot it."""
    g = Table(3, rules)
    g.state[K.S_TRACK] = rules.get("constants.track_length") - 1
    g.state[K.S_S_BLOOD + 2] = 5
    g.draw(type_of(rules, card, "blood"))
    assert g.seat(2, "lost_sunrise") == 5 and g.state[K.S_NIGHT] == 1
    assert g.rows(K.LG_TRACK)[0][3] == rules.get("constants.track_length")  # the bead stops there


def test_the_vampire_slayer_hurts_every_active_player_by_its_value(rules):
    """2.1 'Vampire slayer: every active player loses N health unless protected'."""
    g = Table(4, rules)
    g.state[K.S_S_ACTIVE + 2] = 0
    g.draw(type_of(rules, "vampire_slayer_2", "blood"))
    assert [g.seat(s, "health") for s in range(4)] == [3, 3, 5, 3]


def test_an_event_icon_gives_the_current_player_an_event_card(rules):
    """2.1 'Event icon: the current player draws an event card' (the others draw none)."""
    g = Table(3, rules)
    g.state[K.S_CURRENT] = 1
    events = int(g.state[K.S_N_EVENTS])
    g.draw(type_of(rules, "night_lingers_1", "hunting", icon=1))
    assert [g.seat(s, "event") >= 0 for s in range(3)] == [False, True, False]
    assert g.state[K.S_N_EVENTS] == events - 1


@pytest.mark.parametrize("how", ["slain", "sunrise"])
def test_an_event_icon_gives_its_event_to_a_drawer_the_card_put_out(rules, how):
    """Rulebook, Hunt Cards with the Event Icon: 'If the Hunt card has an Event icon, the
    current player draws an Event card' - also when the card itself sent the drawer to its
    coffin (slayer) or brought the sunrise: out for the night, it keeps the card for the
    next ('may keep their Event card to play in the next round')."""
    g = Table(3, rules)
    g.state[K.S_CURRENT] = 1
    events = int(g.state[K.S_N_EVENTS])
    if how == "slain":
        g.state[K.S_S_HEALTH + 1] = 2
        g.draw(type_of(rules, "vampire_slayer_2", "blue", icon=1))
        assert g.seat(1, "active") == 0 and g.seat(1, "health") == 0
    else:
        g.state[K.S_TRACK] = rules.get("constants.track_length") - 1
        g.draw(type_of(rules, "sun_rising_1", "blue", icon=1))
        assert g.rows(K.LG_SUNRISE)
    assert [g.seat(s, "event") >= 0 for s in range(3)] == [False, True, False]
    assert [r[2] for r in g.rows(K.LG_EVENT_DRAW)] == [1]
    assert g.rows(K.LG_EVENT_DRAW)[0][1] == 0  # drawn in the night of the card
    if how == "slain":
        assert g.state[K.S_N_EVENTS] == events - 1


@pytest.mark.parametrize("vote, blood, health", [(K.A_VOTE_HUNTING, 6, 5), (K.A_VOTE_BLOOD, 0, 4)])
def test_an_invitation_pays_more_on_a_hunting_moon(rules, vote, blood, health):
    """2.1 'A matching vote gains the card's payoff (blood); a wrong moon takes its penalty
    (injuries = health).  A hunting-moon payoff is higher'; 3: payoff 3 blood, 6 on a
    hunting moon, penalty 1 injury."""
    g = Table(3, rules)
    g.draw(type_of(rules, "invitation", "blue"))
    g.stack(type_of(rules, "vampire_slayer_1", "hunting"))  # next card: a hunting moon
    g.act(vote)
    g.act(K.A_VOTE_BLUE)
    g.act(K.A_VOTE_BLUE)
    # seat 0's vote resolved, then the slayer hit everyone for 1
    assert g.seat(0, "blood") == blood and g.seat(0, "health") == health - 1
    assert [g.seat(s, "health") for s in (1, 2)] == [5 - 1 - 1, 5 - 1 - 1]


# =========================================================================== 2.2 decision
def test_the_deck_passes_left_to_the_next_active_player_who_draws_next(rules):
    """2.2 'the deck passes left to the next active player, who asks who retires' - seat
    2 is in its coffin, so after seat 1's draw the deck goes to seat 3, which decides first
    and draws the next card."""
    g = Table(4, rules)
    st = g.state
    st[K.S_S_ACTIVE + 2] = 0
    st[K.S_CURRENT] = 1
    g.draw(type_of(rules, "feed_1_forest", "blue"))
    assert st[K.S_CURRENT] == 3 and g.phase == "decide" and g.to_move == 3
    g.stack(type_of(rules, "feed_1_village", "blood"))
    asked = []
    for _ in range(3):
        asked.append(g.to_move)
        g.act(K.A_STAY)
    assert asked == [3, 0, 1]
    assert [r[2] for r in g.rows(K.LG_DRAW)] == [1, 3]
    assert st[K.S_CURRENT] == 0  # and on to the left again


def test_retiring_banks_blood_and_sits_out_the_rest_of_the_night(rules):
    """2.2 'Retiring banks all unbanked blood as coffin points (1 blood = 1 point), and
    the vampire is inactive for the rest of the night.'  Seat 0 draws; seats 1, 2, 0 are
    asked; seat 0 retires; seat 1 draws a feeding that seat 0 does not share."""
    g = Table(3, rules)
    st = g.state
    st[K.S_S_BLOOD + 0], st[K.S_S_COFFIN + 0] = 4, 2
    g.draw(type_of(rules, "feed_1_forest", "blue"))
    blood0 = g.seat(0, "blood")
    assert blood0 >= 5
    g.stack(type_of(rules, "feed_3_castle", "blood"))
    for seat in (1, 2, 0):
        assert g.to_move == seat
        g.act(K.A_RETIRE if seat == 0 else K.A_STAY)
    assert rules.get("constants.points_per_blood") == 1
    assert g.seat(0, "coffin") == 2 + blood0 and g.seat(0, "blood") == 0
    assert g.seat(0, "active") == 0 and st[K.S_NIGHT] == 0
    assert [r[2] for r in g.rows(K.LG_GAIN)] == [0, 1, 2, 1, 2]  # two feedings
    assert g.phase == "decide" and g.to_move == 2  # the deck passed from seat 1 to seat 2
    g.act(K.A_STAY)
    assert g.to_move == 1  # seat 0 is not asked any more


# =========================================================================== 2.3 interlude
def test_after_sunrise_the_next_night_starts_with_the_player_after_the_last_drawer(rules):
    """2.3 'Interlude: power cards are gathered and one dealt to each player; events are
    kept; health resets; the hunt deck is reshuffled whole; the player who would have drawn
    next starts the next night.'"""
    g = Table(3, rules)
    st = g.state
    st[K.S_CURRENT] = 1
    st[K.S_S_HEALTH + 0] = 2
    st[K.S_S_EVENT + 2] = 0
    st[K.S_TRACK] = rules.get("constants.track_length") - 1
    g.draw(type_of(rules, "sun_rising_1", "blood"))  # drawn by seat 1: seat 2 was next
    assert st[K.S_NIGHT] == 1
    rows = g.rows()
    start = max(i for i, r in enumerate(rows) if r[0] == K.LG_NIGHT)
    assert rows[start][2] == 2  # the night begins with seat 2 ...
    night = rows[start + 1:]
    assert night[0][0] == K.LG_DRAW and night[0][2] == 2  # ... who draws its first card
    hurt = sum(r[3] for r in night if r[0] == K.LG_DAMAGE and r[2] == 0)
    assert g.seat(0, "health") == max(0, 5 - hurt)  # health reset to 5 for the night
    assert g.seat(2, "event") == 0  # events are kept
    assert all(g.seat(s, "power") >= 0 for s in range(3))  # a power dealt to each
    assert st[K.S_N_HUNT] >= 58 - 1  # the hunt deck whole again, one card drawn


def test_the_night_ends_when_every_vampire_has_retired(rules):
    """2.3 'The night ends when no vampire is active'; seat 0 drew, so seat 1 - who would
    have drawn next - starts the next night."""
    g = Table(3, rules)
    g.draw(type_of(rules, "feed_1_forest", "blue"))
    for seat in (1, 2, 0):
        assert g.to_move == seat and g.state[K.S_NIGHT] == 0
        g.act(K.A_RETIRE)
    assert g.state[K.S_NIGHT] == 1 and [r[2] for r in g.rows(K.LG_NIGHT)][-1] == 1
    assert all(g.seat(s, "coffin") >= 1 for s in range(3))


def test_an_empty_hunt_deck_is_reshuffled_from_its_discards(rules):
    """2.4 'If the hunt deck runs out mid-night: the discards are reshuffled.'"""
    g = Table(3, rules)
    g.state[K.S_N_HUNT] = 0
    g.state[K.S_TYPE_LEFT:K.S_TYPE_LEFT + K.MAX_TYPES] = 0
    g.state[K.S_PHASE] = K.PH_DRAW
    E.advance_nb(g.state, g.flat, g.log)
    assert len(g.rows(K.LG_RESHUFFLE)) == 1 and len(g.rows(K.LG_DRAW)) == 1
    assert g.state[K.S_N_HUNT] >= 58 - 1 and g.state[K.S_SUNRISE] == 0


# =========================================================================== 1 supplies
def test_running_out_of_blood_tokens_ends_the_game_and_blood_in_hand_counts(rules):
    """1 'Supplies: 120 blood tokens ... running out ends the game at once and everyone
    totals blood and coffin tokens (FAQ).'  4 blood wanted, 3 left in the box."""
    g = Table(2, rules)
    st = g.state
    st[K.S_S_BLOOD + 0], st[K.S_S_COFFIN + 0] = 3, 1
    st[K.S_S_COFFIN + 1] = 5
    st[K.S_BLOOD_SUPPLY] = 3
    other = next(x for x in rules.grounds if x not in {g.ground(0), g.ground(1)})
    g.draw(type_of(rules, f"feed_2_{other}", "blood"))
    assert g.over and st[K.S_END_CAUSE] == K.END_BLOOD_SUPPLY
    assert g.seat(0, "blood") == 3 and st[K.S_BLOOD_SUPPLY] == 3  # nothing was paid
    rec = g.record()
    assert list(rec[K.REC_SCORE:K.REC_SCORE + 2]) == [1 + 3, 5]
    assert list(rec[K.REC_WIN:K.REC_WIN + 2]) == [0, 1]


# =========================================================================== cards in hand
def _power(rules, kind: int) -> int:
    flat = rules.flat()
    return [i for i in range(int(flat[K.R_PARAMS + K.P_N_POWERS])) if flat[K.R_POWER_KIND + i] == kind][0]


def _event(rules, kind: int) -> int:
    flat = rules.flat()
    return [i for i in range(int(flat[K.R_PARAMS + K.P_N_EVENTS])) if flat[K.R_EVENT_KIND + i] == kind][0]


def test_a_doubling_doubles_the_card_not_the_ground_bonus(rules):
    """2.1 'Doubling powers double the card's number, not the +1' (the rulebook's example:
    3 blood on one's favourite ground, doubled, is 7)."""
    g = Table(3, rules)
    g.state[K.S_S_POWER + 0] = _power(rules, K.PW_DOUBLE)
    fav = g.ground(0)
    t = next(t for t, ct in enumerate(rules.card_types()) if ct["name"] == f"feed_3_{fav}")
    g.draw(t)
    assert g.phase == "react" and g.to_move == 0
    g.act(K.A_PLAY_POWER)
    while g.phase == "cancel":  # nobody holds a cancel power
        g.act(K.A_PASS)
    assert g.seat(0, "blood") == 3 * 2 + 1


def test_protection_spares_its_holder_from_the_vampire_slayer(rules):
    """2.1 'Vampire slayer: every active player loses N health unless protected by a power
    or event card.'"""
    g = Table(3, rules)
    g.state[K.S_S_EVENT + 1] = _event(rules, K.EV_PROTECT)
    g.draw(type_of(rules, "vampire_slayer_2", "blood"))
    assert g.phase == "react" and g.to_move == 1
    g.act(K.A_PLAY_EVENT)
    assert [g.seat(s, "health") for s in range(3)] == [3, 5, 3]


def test_the_werewolf_hurts_the_current_player_only_and_returns_to_the_deck(rules):
    """2.1 'Werewolf attack: the current player loses 3 health; the card is shuffled back
    into the remaining deck (the discards are not).'"""
    g = Table(3, rules)
    wolf = type_of(rules, "werewolf", "blood")
    g.state[K.S_CURRENT] = 1
    g.draw(wolf)
    assert [g.seat(s, "health") for s in range(3)] == [5, 5 - 3, 5]
    assert g.state[K.S_N_HUNT] == 1 and g.state[K.S_HUNT] == wolf
    assert g.state[K.S_TYPE_LEFT + wolf] == 1


def test_zero_health_sends_a_vampire_to_its_coffin_without_its_blood(rules):
    """1 'at zero a vampire goes to its coffin for the night, loses all blood gained that
    night, and is inactive'; its coffin points stay."""
    g = Table(3, rules)
    st = g.state
    st[K.S_S_HEALTH + 0], st[K.S_S_BLOOD + 0], st[K.S_S_COFFIN + 0] = 1, 6, 9
    supply = int(st[K.S_BLOOD_SUPPLY])
    g.draw(type_of(rules, "vampire_slayer_1", "blood"))
    assert (g.seat(0, "active"), g.seat(0, "health"), g.seat(0, "blood")) == (0, 0, 0)
    assert g.seat(0, "lost_death") == 6 and g.seat(0, "coffin") == 9
    assert st[K.S_BLOOD_SUPPLY] == supply + 6


def test_nobody_may_retire_while_an_invitation_is_pending(rules):
    """2.1 'Invitation: ... Nobody may retire until it resolves.'"""
    g = Table(3, rules)
    st = g.state
    st[K.S_PENDING] = type_of(rules, "invitation", "blue")
    st[K.S_PHASE], st[K.S_DECIDER] = K.PH_DECIDE, 0
    assert K.A_RETIRE not in g.legal() and K.A_STAY in g.legal()
    assert not E.apply_action_nb(st, g.flat, np.int64(K.A_RETIRE), g.log)
    st[K.S_PENDING] = -1
    assert K.A_RETIRE in g.legal()


END_OF_THE_LAST_NIGHT = """
import sys
sys.path.insert(0, sys.argv[1])
from test_rules_till_dawn import K, Table, load_ruleset
rules = load_ruleset()
g = Table(3, rules)
st = g.state
st[K.S_NIGHT] = rules.get("constants.nights") - 1
st[K.S_PHASE], st[K.S_SCAN], st[K.S_CURRENT], st[K.S_DECIDER] = K.PH_DECIDE, 0, 0, 0
for _ in range(3):
    g.act(K.A_RETIRE)
print(int(st[K.S_OVER]), int(st[K.S_END_CAUSE]), int(st[K.S_NIGHT]))
"""


def test_the_game_ends_when_the_last_night_ends(rules):
    """1 'The game lasts 3 nights': once the last night is over the game is, at once.  The
    forced steps after a decision run in one compiled loop that no signal interrupts, so a
    kernel that never ends the game would hang the suite: the game is played in a child
    process with a time budget, and a hang fails here (before the next test plays the
    same end in this process)."""
    here = Path(__file__).resolve().parent
    try:
        p = subprocess.run([sys.executable, "-c", END_OF_THE_LAST_NIGHT, str(here)], cwd=here.parent,
                           capture_output=True, text=True, timeout=CHILD_BUDGET_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the game did not end within {CHILD_BUDGET_S} s after the last night's "
                    "last vampire retired (the kernel loops)", pytrace=False)
    assert p.returncode == 0, p.stderr[-2000:]
    over, cause, night = map(int, p.stdout.split()[-3:])
    assert over == 1 and cause == K.END_NIGHTS and night == rules.get("constants.nights")


def test_after_the_last_night_tied_players_share_the_victory(rules):
    """1 'The player with the most coffin points wins; tied players share the victory.'"""
    g = Table(3, rules)
    st = g.state
    st[K.S_NIGHT] = rules.get("constants.nights") - 1
    for s, c in enumerate((10, 10, 3)):
        st[K.S_S_COFFIN + s] = c
    st[K.S_PHASE], st[K.S_SCAN], st[K.S_CURRENT], st[K.S_DECIDER] = K.PH_DECIDE, 0, 0, 0
    for _ in range(3):
        g.act(K.A_RETIRE)
    assert g.over and st[K.S_END_CAUSE] == K.END_NIGHTS
    rec = g.record()
    assert list(rec[K.REC_WIN:K.REC_WIN + 3]) == [1, 1, 0] and rec[K.REC_WINNERS] == 2
    assert list(rec[K.REC_SCORE:K.REC_SCORE + 3]) == [10, 10, 3]


def test_running_out_of_coffin_points_ends_the_game_and_the_blood_still_counts(rules):
    """1 '78 coffin tokens; running out ends the game at once and everyone totals blood and
    coffin tokens (FAQ)'.  Banking 5 points with 3 left in the box ends the game."""
    g = Table(3, rules)
    st = g.state
    st[K.S_S_BLOOD + 0], st[K.S_S_COFFIN + 0] = 5, 2
    st[K.S_S_COFFIN + 1] = 6
    st[K.S_COFFIN_SUPPLY] = 3
    st[K.S_PHASE], st[K.S_SCAN], st[K.S_CURRENT], st[K.S_DECIDER] = K.PH_DECIDE, 0, 0, 0
    g.act(K.A_RETIRE)
    assert g.over and st[K.S_END_CAUSE] == K.END_COFFIN_SUPPLY
    rec = g.record()
    assert list(rec[K.REC_SCORE:K.REC_SCORE + 3]) == [2 + 5, 6, 0]
    assert list(rec[K.REC_WIN:K.REC_WIN + 3]) == [1, 0, 0]


def test_the_batch_kernel_plays_each_game_with_its_own_row(rules):
    """The study's batch kernel gives game ``start + i`` row ``i`` of every per-game array
    (table size, characters, seat policies and their parameters): each record equals the
    one game replayed alone with its row (``trace_game``, the same kernel and key)."""
    from simlib.games.till_dawn import api

    names = rules.character_names
    seats = [["threshold:t=6", "random", "threshold:t=9"], ["random", "threshold:t=4"],
             ["threshold:t=8", "threshold:t=5", "random", "threshold:t=7"]]
    n = 6
    players = np.array([len(seats[i % 3]) for i in range(n)], dtype=np.int64)
    chars = np.full((n, K.MAX_SEATS), -1, dtype=np.int64)
    pol = np.zeros((n, K.MAX_SEATS), dtype=np.int64)
    par = None
    rows = []
    for i in range(n):
        team = [names[(i + k * 3) % len(names)] for k in range(players[i])]
        chars[i] = api.team_codes(team, int(players[i]), rules)
        sp, pp = api._seat_arrays([api.as_seat(s) for s in seats[i % 3]], 1)
        pol[i] = sp[0]
        par = np.zeros((n,) + pp.shape[1:], dtype=np.float64) if par is None else par
        par[i] = pp[0]
        rows.append(team)
    out = api.run_kernel(rules, 11, 40, players, chars, pol, par, 1, threads=1)
    from simlib.games.till_dawn.step import Game

    for i in range(n):
        rec, _log, _state = api.trace_game(11, 40 + i, int(players[i]),
                                           [api.as_seat(s) for s in seats[i % 3]],
                                           characters=rows[i], ruleset=rules)
        assert out[i].tolist() == rec.tolist(), i
        # and the game the step API plays, each seat choosing with its own parameters
        g = Game(11, 40 + i, ruleset=rules,
                 seats=[{"player": p, "character": c} for p, c in zip(seats[i % 3], rows[i])])
        assert g.play().record_array().tolist() == rec.tolist(), i


# ---------------------------------------------------------------- found by sampled mutants
def _tiny_hunt_deck():
    """Only the first three hunt groups keep their cards: a deck of 6, fewer cards than
    characters (the random team's draw uses the pile's slots as scratch first)."""
    r, none = load_ruleset(), {"blood": 0, "blue": 0, "hunting": 0}
    return {f"hunt.{g}.{part}": none for g in r.group_names[3:] for part in ("moons", "event_icons")}


@pytest.mark.parametrize("over", [{}, _tiny_hunt_deck()], ids=["shipped", "tiny_deck"])
def test_the_first_night_deals_the_whole_hunt_deck_and_nothing_else(over):
    """The hunt pile at the first decision holds the ruleset's deck, card for card, and the
    cards left by type are counted from it (on a deck shorter than the characters' list
    too, where a pile filled one slot off would keep a character drawn for the team)."""
    rules = load_ruleset().override(over) if over else load_ruleset()
    flat = rules.flat()
    nh = int(flat[K.R_PARAMS + K.P_N_HUNT])
    deck = sorted(int(x) for x in flat[K.R_DECK:K.R_DECK + nh])
    g = Game(3, 0, players=3, ruleset=rules)
    n_left = int(g.state[K.S_N_HUNT])
    drawn = [c for k, c in g.chance_events() if k == "hunt"]
    pile = sorted([int(x) for x in g.state[K.S_HUNT:K.S_HUNT + n_left]] + drawn)
    assert pile == deck
    assert [int(x) for x in g.state[K.S_TYPE_LEFT:K.S_TYPE_LEFT + K.MAX_TYPES]] == \
        [sum(1 for c in g.state[K.S_HUNT:K.S_HUNT + n_left] if c == t) for t in range(K.MAX_TYPES)]
    assert nh < int(flat[K.R_PARAMS + K.P_N_CHARS]) if over else nh > 8


def test_each_seat_wins_exactly_when_its_score_is_the_top_one():
    """The record's win of every seat at the table (the last one too) is its score's being
    the top score, and the winners count them; an empty seat has none."""
    for players in (2, 3, 5, 8):
        df = play_games(60, players=players, seed=7)
        for s in range(K.MAX_SEATS):
            if s < players:
                want = (df[f"score_{s}"] == df["top_score"]).to_numpy()
                assert (df[f"win_{s}"].astype(bool).to_numpy() == want).all(), (players, s)
            else:
                assert df[f"win_{s}"].isna().all() or (df[f"win_{s}"] <= 0).all(), (players, s)
        wins = sum(df[f"win_{s}"].astype(bool).astype(int) for s in range(players))
        assert (wins == df["winners"]).all()


def test_the_kernel_lists_no_legal_action_once_the_game_is_over():
    """``legal_actions_nb`` on a finished game: none (the step API checks ``over`` first, so
    only this test reads the kernel's own answer)."""
    g = Game(2, 1, players=4).play()
    assert g.over
    out = np.full(K.N_ACTIONS + 8, -7, dtype=np.int64)
    assert E.legal_actions_nb(g.state, g.rules.flat(), out) == 0


def test_an_invitation_without_penalty_deals_no_damage():
    """An invitation whose penalty is 0 hurts nobody who voted wrong: the game's trace holds
    no damage row of 0 (a damage row always takes at least 1 health), while the shipped
    penalty of 1 does hurt."""
    zero = load_ruleset().override({"hunt.invitation.penalty": 0})
    for rules, want_hurt in ((load_ruleset(), True), (zero, False)):
        hurt = 0
        for game in range(40):
            g = Game(11, game, players=5, ruleset=rules, policy="random", trace=True).play()
            rows = g.log[1:1 + int(g.log[0, 0])]
            dmg = rows[rows[:, 0] == K.LG_DAMAGE]
            assert (dmg[:, 3] > 0).all(), dmg[dmg[:, 3] <= 0][:3]
            invite = rows[rows[:, 0] == K.LG_INVITE]
            hurt += int((invite[:, 6] > 0).sum())
        assert (hurt > 0) == want_hurt, hurt


# =========================================================================== invariants
# (here, not in test_till_dawn.py: the sampled-mutant harness runs this file; the event
# conservation below caught a held event card written one slot past its place)
def check_invariants(g: Game, rules, flat) -> None:
    st = g.state
    n = int(st[K.S_PLAYERS])
    nh = int(flat[K.R_PARAMS + K.P_N_HUNT])
    deck = np.sort(flat[K.R_DECK:K.R_DECK + nh])
    pile = st[K.S_HUNT:K.S_HUNT + nh]
    assert (np.sort(pile) == deck).all(), "hunt cards are conserved"
    left = np.bincount(pile[:st[K.S_N_HUNT]], minlength=K.MAX_TYPES)
    assert (left == st[K.S_TYPE_LEFT:K.S_TYPE_LEFT + K.MAX_TYPES]).all()
    ne = int(flat[K.R_PARAMS + K.P_N_EVENTS])
    ev = st[K.S_EVENTS:K.S_EVENTS + ne]
    assert sorted(ev) == list(range(ne)), "event cards are conserved"
    held = [int(st[K.S_S_EVENT + s]) for s in range(n) if st[K.S_S_EVENT + s] >= 0]
    assert len(set(held)) == len(held) and not set(held) & set(ev[:st[K.S_N_EVENTS]].tolist())
    powers = [int(st[K.S_S_POWER + s]) for s in range(n) if st[K.S_S_POWER + s] >= 0]
    assert len(set(powers)) == len(powers)
    blood = st[K.S_S_BLOOD:K.S_S_BLOOD + n]
    assert (blood >= 0).all()
    if st[K.S_END_CAUSE] == 0:
        assert st[K.S_BLOOD_SUPPLY] + blood.sum() == rules.get("constants.blood_supply")
        assert st[K.S_COFFIN_SUPPLY] + st[K.S_S_COFFIN:K.S_S_COFFIN + n].sum() == \
            rules.get("constants.coffin_supply")
    for s in range(n):
        h = st[K.S_S_HEALTH + s]
        assert 0 <= h <= st[K.S_S_MAX_HEALTH + s]
        if st[K.S_S_ACTIVE + s] == 1:
            assert h > 0
        else:
            assert blood[s] == 0 or st[K.S_OVER] == 1
    assert 0 <= st[K.S_TRACK] <= rules.get("constants.track_length")
    if not g.over:
        assert g.legal_codes(), "a game that is not over has a legal action"
        assert st[K.S_S_ACTIVE + st[K.S_DECIDER]] == 1


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_random_play_keeps_every_invariant_after_every_step(players):
    rules = load_ruleset()
    flat = rules.flat()
    rng = np.random.default_rng(players)
    for game in range(40):
        g = Game(seed=11, game=game, players=players)
        check_invariants(g, rules, flat)
        steps = 0
        while not g.over:
            g.apply_code(int(rng.choice(g.legal_codes())))
            check_invariants(g, rules, flat)
            steps += 1
            assert steps < 5000
        rec = g.record_array()
        assert rec[K.REC_WINNERS] >= 1
        assert rec[K.REC_NIGHTS] == rules.get("constants.nights") or rec[K.REC_END_CAUSE] != 0
