"""The resumable engine: step API, clones, continuations that cannot peek, positions."""
from __future__ import annotations

import numpy as np
import pytest

from simlib.core.rng import make_streams  # noqa: F401  (the streams' layout is uint64)
from simlib.games.until_daylight import codes as K
from simlib.games.until_daylight.api import play_games
from simlib.games.until_daylight.kernels.game_nb import invariant_violation_nb
from simlib.games.until_daylight.ladder import ruleset_named
from simlib.games.until_daylight.ruleset import load_ruleset
from simlib.games.until_daylight.position import action_odds, continuation_records, odds, position
from simlib.games.until_daylight.step import Game, StepError

from positions import permute_unseen

RULES = load_ruleset("reference")
LIGHT = RULES.override({"constants.rounds": 5, "constants.wave_per_player": 0})
CALIBRATED = ruleset_named("calibrated")


def _record(seed, game, players, policy, ruleset):
    rec = play_games(1, players=players, seed=seed, policy=policy, ruleset=ruleset, start=game)
    return {f: int(rec[f][0]) for f in rec.dtype.names}


def _drive(g: Game, policy: str) -> Game:
    while not g.over:
        g.apply(g.policy_choice(policy))
    return g


@pytest.mark.parametrize("policy", ["baseline", "random"])
@pytest.mark.parametrize("ruleset", [RULES, LIGHT, CALIBRATED],
                         ids=["reference", "light", "calibrated"])
def test_step_mode_driven_by_a_policy_plays_the_batch_game(policy, ruleset):
    """The step loop ("the policy picks, the engine applies") and the batch kernel play
    the same games, record for record (decisions counted alike).  The batch kernel lists
    no trade the baseline never wants (``ignores_trade_nb``), the step loop lists every
    legal action: the same choices all the same (the calibrated default's long games
    hold many cards)."""
    for game in range(12):
        g = _drive(Game(seed=5, game=game, players=3 + game % 4, ruleset=ruleset), policy)
        want = _record(5, game, 3 + game % 4, policy, ruleset)
        got = g.result
        assert {k: got[k] for k in want} == want
        assert want["decisions"] > 0


# decisions that can come in the middle of a draw (a red event, a card over the limit, a
# raider's discard): cards being looked at are in hand then, counted nowhere yet, and an
# inventory may stand over its slots until the discard
MID_DRAW = (K.D_KEEP, K.D_DISCARD, K.D_SACRIFICE, K.D_PICKPOCKET)


def _check_position(g: Game) -> None:
    """The invariants at a decision (the engine checks them all at every step's end)."""
    v = invariant_violation_nb(g.state, g.rs)
    d = int(g.state[K.G_PENDING_D])
    if d in MID_DRAW and v in (K.VIOL_RUBBLE_CONSERVATION, K.VIOL_INVENTORY):
        in_hand = g.rs[K.P_RUBBLE_TOTAL] - g.view.rubble_total()
        assert 0 <= in_hand <= 1 + max(0, int(g.rules.pack().char_tab[:, K.CH_ADV_AMOUNT].max()))
        return
    assert v == K.VIOL_NONE, (K.VIOL_NAMES[int(v)], g.decision)


def test_random_play_fuzz_invariants_after_every_step():
    """Random legal actions (OpenSpiel-style random simulation): every listed action
    applies, and the invariants hold at every decision and at the end."""
    rng = np.random.default_rng(2026)
    steps = 0
    for game in range(40):
        ruleset = LIGHT if game % 2 else RULES
        g = Game(seed=99, game=game, players=3 + game % 4, ruleset=ruleset, check=True)
        while not g.over:
            m = len(g.legal_actions())
            assert m >= 2  # one-candidate decisions are not asked
            _check_position(g)
            g.apply(int(rng.integers(m)))
            steps += 1
        assert g.result["violation"] == K.VIOL_NONE
        assert g.result["outcome"] in (K.OUT_WIN, K.OUT_LOSS)
    assert steps > 1000


def test_clone_then_apply_equals_apply_and_clones_are_independent():
    g = Game(seed=3, game=1, players=4, ruleset=LIGHT)
    for _ in range(15):
        g.apply(g.policy_choice("baseline"))
    c = g.clone()
    assert np.array_equal(c.state, g.state)
    i = len(g.legal_actions()) - 1
    c.apply(i)
    assert not np.array_equal(c.state, g.state)  # the original did not move
    g.apply(i)
    assert np.array_equal(c.state, g.state)


def test_a_game_cloned_midway_and_finished_equals_the_uncloned_game():
    ref = _drive(Game(seed=8, game=4, players=5, ruleset=LIGHT), "baseline").result
    g = Game(seed=8, game=4, players=5, ruleset=LIGHT)
    for _ in range(30):
        g.apply(g.policy_choice("baseline"))
    half = g.clone()
    del g
    assert _drive(half, "baseline").result == ref
    # and play() finishes it the same way
    g2 = Game(seed=8, game=4, players=5, ruleset=LIGHT)
    for _ in range(30):
        g2.apply(g2.policy_choice("baseline"))
    assert g2.play("baseline").result == ref


def test_continuations_cannot_peek_at_the_real_deck_order():
    """At turn-start decisions (nothing drawn since the step began), permuting the unseen
    cards changes no continuation; with the real streams (peek) it does."""
    rng = np.random.default_rng(1)
    checked = differs_when_peeking = 0
    g = Game(seed=21, game=0, players=4, ruleset=LIGHT)
    while not g.over and checked < 12:
        if g.state[K.G_SCRIPT_N] == 0 and g.state[K.G_HDECK_N] > 3:
            p = g.clone()
            permute_unseen(p.state, rng)
            assert np.array_equal(continuation_records(g, 20), continuation_records(p, 20))
            a = continuation_records(g, 1, peek=True)
            b = continuation_records(p, 1, peek=True)
            differs_when_peeking += int(not np.array_equal(a, b))
            checked += 1
        g.apply(g.policy_choice("baseline"))
    assert checked >= 8
    assert differs_when_peeking >= 1


def test_continuations_are_reproducible_and_distinct():
    g = Game(seed=2, game=3, players=4, ruleset=LIGHT)
    for _ in range(10):
        g.apply(g.policy_choice("baseline"))
    a = continuation_records(g, 50)
    assert np.array_equal(a, continuation_records(g, 50))
    assert np.array_equal(a[10:], continuation_records(g, 40, first=10))
    assert len({tuple(r) for r in a}) > 5  # fresh streams per continuation


def test_odds_of_a_finished_game_are_0_or_1():
    g = _drive(Game(seed=1, game=0, players=4, ruleset=LIGHT), "baseline")
    o = odds(g, n=25)
    assert o.p == (1.0 if g.result["win"] else 0.0)
    assert o.n == 25


def test_odds_and_action_odds_from_a_position():
    pos = position([
        {"character": "trigger", "inventory": {"shotgun": 1, "shotgun_shells": 3}, "area": ["monster", "monster"]},
        {"character": "pillar"}, {"character": "hipster"}, {"character": "psycho"},
    ], round=4, phase="combat", ruleset=LIGHT)
    assert pos.to_move == 0 and pos.decision == "combat action"
    texts = pos.legal_actions()
    assert any("attack own area (monster, monster) with shotgun" in t for t in texts)
    table = action_odds(pos, n=60)
    assert list(table.columns[:2]) == ["action", "wins"]
    assert len(table) == len(texts)
    assert ((table.ci_low <= table.win_rate) & (table.win_rate <= table.ci_high)).all()
    o = odds(pos, n=60)
    assert 0.0 <= o.ci_low <= o.p <= o.ci_high <= 1.0


@pytest.mark.parametrize("players, kwargs, match", [
    ([{"character": "nobody"}, {"character": "pillar"}, {"character": "hipster"}], {},
     "unknown character"),
    ([{"character": "trigger", "inventory": {"laser": 1}}, {"character": "pillar"},
      {"character": "hipster"}], {}, "unknown card"),
    ([{"character": "trigger", "inventory": {"shotgun": 99}}, {"character": "pillar"},
      {"character": "hipster"}], {}, "more shotgun in play"),
    ([{"character": "trigger", "health": 99}, {"character": "pillar"},
      {"character": "hipster"}], {}, "health must be from 1"),
    ([{"character": "trigger", "area": ["dragon"]}, {"character": "pillar"},
      {"character": "hipster"}], {}, "unknown enemy"),
    ([{"character": "trigger"}, {"character": "pillar"}, {"character": "hipster"}],
     {"round": 11}, "round must be an integer from 1 to 10"),
    ([{"character": "trigger"}, {"character": "pillar"}, {"character": "hipster"}],
     {"phase": "dusk"}, "phase must be one of"),
    ([{"character": "trigger", "traps": 9}, {"character": "pillar"}, {"character": "hipster"}],
     {}, "token limit"),
])
def test_position_validation(players, kwargs, match):
    args = dict(round=3)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        position(players, **args)


def test_step_errors():
    g = Game(seed=0, game=0, players=4)
    with pytest.raises(ValueError, match="integer from 0"):
        g.apply(len(g.legal_actions()))
    g.play("baseline")
    with pytest.raises(ValueError, match="over"):
        g.apply(0)


def test_a_full_step_script_is_refused_and_the_game_is_unchanged():
    """A step's script (the choices already taken in the current turn, replayed when the
    step resumes) has a fixed capacity that the rules cannot bound (see capacities.py):
    when it is full, ``apply`` raises a StepError naming the capacity and the game is left
    exactly as it was; with room again, the same choice plays on as usual."""
    g = Game(seed=3, game=1, players=4)
    while not g.over and int(g.state[K.G_SCRIPT_N]) == 0:  # a decision mid-step
        g.apply(g.policy_choice("baseline"))
    assert not g.over
    n = int(g.state[K.G_SCRIPT_N])
    ref = g.clone()
    g.state[K.G_SCRIPT_CAP] = n  # full
    i = g.policy_choice("baseline")
    assert i == ref.policy_choice("baseline")
    before = g.state.copy()
    with pytest.raises(StepError, match=f"already holds {n} choices"):
        g.apply(i)
    assert np.array_equal(g.state, before)
    g.state[K.G_SCRIPT_CAP] = K.SCRIPT_CAP
    g.apply(i)
    ref.apply(i)
    pos = int(g.state[K.G_O_EV])  # the position: head and persistent parts
    assert np.array_equal(g.state[:pos], ref.state[:pos])


def test_describe_reads_like_the_table():
    g = Game(0, 0, seats=[{"character": c} for c in ("trigger", "pillar", "hipster", "psycho")])
    text = g.describe()
    assert text.startswith("Round 1 of 10, search phase")
    assert "seat 0 trigger" in text and "chooses the search action" in text
    s = g.situation()
    assert [p["character"] for p in s["seats"]] == ["trigger", "pillar", "hipster", "psycho"]


def test_violation_reads_a_pending_keep_or_discard_as_the_rule_does():
    """At "card to keep" the looked-at cards are in no pile yet, at "card to discard" the
    seat is over its limit by rule: Game.violation() says "none" there (it used to report
    "rubble cards not conserved" and "an inventory over its slots"), and still reports a
    real fault at those decisions."""
    rng = np.random.default_rng(1)
    seen = set()
    broken = None
    for gi in range(30):
        g = Game(seed=7, game=gi, players=4, check=True, ruleset=RULES)
        while not g.over:
            assert g.violation() == "none", (gi, g.decision)
            if g.decision in ("card to keep", "card to discard"):
                seen.add(g.decision)
                if broken is None:
                    broken = g.clone()
            acts = g.legal_actions()
            g.apply(int(rng.integers(len(acts))) if gi % 2 else g.policy_choice("baseline"))
    assert seen == {"card to keep", "card to discard"}
    broken.view.pl[broken.to_move, K.PL_HEALTH] = -1
    assert broken.violation() == K.VIOL_NAMES[K.VIOL_HEALTH]


def test_a_peeking_continuation_by_the_games_own_player_is_the_game_itself():
    """From any decision of a game the baseline has played so far, a continuation with the
    game's real streams (``peek``) by the baseline plays to the end exactly as the game
    does: the same final record (a continuation must leave step mode for the policy's,
    not stop at its next decision)."""
    ref = Game(seed=31, game=2, players=4, ruleset=LIGHT)
    ref.play("baseline")
    want = ref.record_array()
    g = Game(seed=31, game=2, players=4, ruleset=LIGHT)
    checked = 0
    while not g.over:
        if checked < 6 and g.state[K.G_DECISIONS] % 5 == 0:
            got = continuation_records(g, 1, peek=True)[0]
            assert got[K.REC_OUTCOME] == want[K.REC_OUTCOME]
            assert got[K.REC_ROUND_REACHED] == want[K.REC_ROUND_REACHED]
            assert np.array_equal(got[1:], want[1:]), [(K.REC_FIELDS[i], got[i], want[i])
                                                      for i in np.flatnonzero(got != want)]
            checked += 1
        g.apply(g.policy_choice("baseline"))
    assert checked >= 3


def test_a_continuation_that_takes_a_trade_its_player_never_takes_plays_that_trade():
    """The baseline's candidates leave out the trades it never chooses (a faster decision),
    but only when it chooses: a continuation that first takes such a trade replays the
    step's choices by their index in the whole list, so it must play exactly the game that
    takes the trade and then lets the baseline play on (with the real streams, ``peek``).
    Every trade candidate of two decisions of the third round is tried (by then the hands
    hold cards the baseline never trades: planks, symbols, armour...)."""
    g = Game(seed=31, game=2, players=4, ruleset=LIGHT)
    tried = 0
    while not g.over and tried < 30:
        cands = g.candidates()
        trades = [i for i, row in enumerate(cands) if row[0] in (K.A_GIVE, K.A_TAKE)]
        for i in (trades if g.state[K.G_ROUND] >= 2 else []):
            want = g.clone().apply(i).play("baseline").record_array()
            got = continuation_records(g, 1, action=i, peek=True)[0]
            assert np.array_equal(got[1:], want[1:]), (i, [(K.REC_FIELDS[j], got[j], want[j])
                                                          for j in np.flatnonzero(got != want)])
            tried += 1
        g.apply(g.policy_choice("baseline"))
    assert tried >= 30


def test_the_kernel_refuses_a_step_with_no_decision_pending_or_out_of_range():
    """The step kernel's own refusals (the Python layer checks first, the kernel must not
    rely on it): a finished game takes no step (-1) and an index past the pending
    decision's candidates is refused (-2); either leaves the state as it was."""
    from simlib.games.until_daylight.api import apply_step

    g = Game(seed=4, game=2, players=3)
    m = len(g.legal_actions())
    before = g.state.copy()
    assert apply_step(g.state, g.rs, m) == -2 and np.array_equal(g.state, before)
    assert apply_step(g.state, g.rs, -1) == -2 and np.array_equal(g.state, before)
    g.play()
    assert g.over
    before = g.state.copy()
    assert apply_step(g.state, g.rs, 0) == -1 and np.array_equal(g.state, before)
