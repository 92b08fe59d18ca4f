"""The survivors' ceiling without a killer (``exact.no_killer_race``): checked against an
exhaustive search over every play on small decks, against a card-by-card simulation of
the reference ruleset, and against the games the engine plays.

The search and the simulation are written apart from ``exact.py``: they hold the cards
as lists (the draw pile, the discards, each survivor's hand) and share no code with it.
"""
from __future__ import annotations

import random
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest

from simlib.games.mort import exact
from simlib.games.mort.api import play_games
from simlib.games.mort.ruleset import load_ruleset

R = load_ruleset()


# =========================================================================== exhaustive search
def best_play(energy: dict, survivors: int, hand: int, draw: int, lamps: int, gate: int,
              cost: int, p: Fraction, rounds: int, toolboxes: dict, limit: int | None = None):
    """The best chance of a gate open by the end of round ``rounds``, over every play: on
    its turn a survivor may spend any card paying an act (a toolbox while the team has
    one and lamps remain, a repair roll, a lever roll once the lamps are lit), throw any
    card away, keep the rest, then draw any number up to ``draw`` (``limit`` given: the
    rules' draw, ``min(draw, limit - hand)``, forced).  Free moves, shared toolboxes, a
    free escape, as in the model; everything else is searched."""
    q = 1 - p

    @lru_cache(maxsize=None)
    def draw_to(pile, disc, hands, seat, n, t, lm, gt, rnd):
        """Draw ``n`` more cards into ``seat``'s hand, then the next turn."""
        if n == 0:
            nseat, nrnd = (seat + 1, rnd) if seat + 1 < survivors else (0, rnd + 1)
            if nrnd > rounds:
                return Fraction(0)
            return turn(pile, disc, hands, nseat, t, lm, gt, nrnd)
        if not pile:
            if not disc:
                return draw_to(pile, disc, hands, seat, 0, t, lm, gt, rnd)
            pile, disc = disc, ()
        tot = Fraction(0)
        for v in sorted(set(pile)):
            i = pile.index(v)
            np_ = pile[:i] + pile[i + 1:]
            h = list(hands)
            h[seat] = tuple(sorted(h[seat] + (v,)))
            tot += Fraction(pile.count(v), len(pile)) * draw_to(np_, disc, tuple(h), seat, n - 1,
                                                                 t, lm, gt, rnd)
        return tot

    @lru_cache(maxsize=None)
    def turn(pile, disc, hands, seat, t, lm, gt, rnd):
        if gt == 0:
            return Fraction(1)
        mine = hands[seat]
        # end the turn, then draw
        if limit is None:
            best = max(draw_to(pile, disc, hands, seat, k, t, lm, gt, rnd) for k in range(draw + 1))
        else:
            best = draw_to(pile, disc, hands, seat, max(0, min(draw, limit - len(mine))), t, lm, gt, rnd)
        for v in sorted(set(mine)):
            i = mine.index(v)
            rest = mine[:i] + mine[i + 1:]
            h = list(hands)
            h[seat] = rest
            h = tuple(h)
            nd = tuple(sorted(disc + (v,)))
            best = max(best, turn(pile, nd, h, seat, t, lm, gt, rnd))  # thrown away
            if v < cost:
                continue
            if lm > 0 and t > 0:
                best = max(best, turn(pile, nd, h, seat, t - 1, lm - 1, gt, rnd))
            if lm > 0:
                best = max(best, p * turn(pile, nd, h, seat, t, lm - 1, gt, rnd)
                           + q * turn(pile, nd, h, seat, t, lm, gt, rnd))
            else:
                best = max(best, p * turn(pile, nd, h, seat, t, lm, gt - 1, rnd)
                           + q * turn(pile, nd, h, seat, t, lm, gt, rnd))
        return best

    @lru_cache(maxsize=None)
    def deal(pile, hands, t):
        if len(hands) == survivors:
            return turn(pile, (), hands, 0, t, lamps, gate, 1)
        return deal_one(pile, hands, (), hand, t)

    @lru_cache(maxsize=None)
    def deal_one(pile, hands, cur, n, t):
        if n == 0:
            return deal(pile, hands + (tuple(sorted(cur)),), t)
        tot = Fraction(0)
        for v in sorted(set(pile)):
            i = pile.index(v)
            tot += Fraction(pile.count(v), len(pile)) * deal_one(pile[:i] + pile[i + 1:], hands,
                                                                 cur + (v,), n - 1, t)
        return tot

    full = tuple(sorted(v for v, c in energy.items() for _ in range(c)))
    return sum(w * deal(full, (), t) for t, w in toolboxes.items())


CASES = [
    # energy, survivors, hand, draw, lamps (per generator, generators), gate, rounds, toolboxes
    ({1: 2, 2: 3}, 2, 1, 1, (1, 2), 1, 4, {0: Fraction(1, 2), 1: Fraction(1, 2)}),
    ({1: 1, 2: 2, 3: 1}, 1, 2, 1, (3, 1), 1, 5, {0: Fraction(1)}),    # reshuffles within the race
    ({1: 2, 3: 2}, 2, 2, 1, (2, 1), 1, 3, {0: Fraction(2, 3), 1: Fraction(1, 3)}),
]


@pytest.mark.parametrize("case", CASES)
def test_the_model_s_play_is_the_best_play(case):
    energy, ns, hand, draw, (lpg, gens), gate, rounds, tools = case
    nk = exact.no_killer_race(energy, ns, hand, draw, lpg, gens, gate, 2, Fraction(1, 2),
                              rounds, tools)
    for r in range(1, rounds + 1):
        best = best_play(energy, ns, hand, draw, lpg * gens, gate, 2, Fraction(1, 2), r, tools)
        assert nk.open_by_round[r - 1] == best, r
        # the rules' own hand limit and forced draws can only do worse
        ruled = best_play(energy, ns, hand, draw, lpg * gens, gate, 2, Fraction(1, 2), r, tools,
                          limit=hand)
        assert ruled <= best


def test_one_card_one_roll_closed_form():
    # one survivor, one paying card a turn, one lamp: P(lit by round r) = 1 - (1/2)^r
    nk = exact.no_killer_race({2: 3}, 1, 1, 1, 1, 1, 0, 2, Fraction(1, 2), 3)
    # gate_successes 0: the gate is open once the lamp is lit
    assert nk.open_by_round == (Fraction(1, 2), Fraction(3, 4), Fraction(7, 8))
    assert nk.repaired_by_round == nk.open_by_round


# =========================================================================== card by card
def simulate_race(rules, games: int, rounds: int, seed: int = 5):
    """The model's play, card by card: lists for the pile, the discards and the hands."""
    g = rules.get
    cost = g("rules.repair_cost")
    deck = [g(f"energy.{n}.value") for n in rules.names("energy") for _ in range(g(f"energy.{n}.count"))]
    scards = [n for n in rules.names("survivor_cards") for _ in range(g(f"survivor_cards.{n}.count"))]
    ns, lpg, gens = g("board.survivors"), g("board.lamps"), g("board.generators_needed")
    rng = random.Random(seed)
    opened = np.zeros(rounds)
    repaired = np.zeros(rounds)
    for _ in range(games):
        pile = deck[:]
        rng.shuffle(pile)
        disc: list = []
        hands = [[pile.pop() for _ in range(g("rules.survivor_energy_hand"))] for _ in range(ns)]
        sc = scards[:]
        rng.shuffle(sc)
        tools = sum(1 for c in sc[:ns * g("rules.survivor_start_cards")]
                    if g(f"survivor_cards.{c}.effect") == "repair")
        lamps, gate, done = lpg * gens, g("board.gate_successes"), None
        for rnd in range(1, rounds + 1):
            for s in range(ns):
                keep = []
                for v in hands[s]:
                    if v < cost or done:
                        keep.append(v)
                        continue
                    disc.append(v)
                    if lamps and tools:
                        tools, lamps = tools - 1, lamps - 1
                    elif lamps:
                        lamps -= rng.random() < 0.5
                    else:
                        gate -= rng.random() < 0.5
                        if gate == 0:
                            done = rnd
                hands[s] = keep
                if done:
                    break
                if not pile:
                    rng.shuffle(disc)
                    pile, disc = disc, []
                hands[s].append(pile.pop())
            if done:
                opened[rnd - 1:] += 1
                repaired[rnd - 1:] += gens
                break
            repaired[rnd - 1] += min((lpg * gens - lamps) // lpg, gens)
    return opened / games, repaired / games


def test_reference_ceiling_against_a_card_by_card_simulation():
    assert R.get("dice.white").count(1) * 2 == len(R.get("dice.white"))  # the simulation's 1/2
    nk = exact.no_killer(R, rounds=16)
    n = 20_000
    opened, repaired = simulate_race(R, n, 16)
    for r in range(16):
        c = nk.open_by_round[r]
        assert abs(opened[r] - c) <= 4.5 * (c * (1 - c) / n) ** 0.5 + 1e-9, r
        assert abs(repaired[r] - nk.repaired_by_round[r]) <= 0.03, r
    # the reference figures the docs quote
    assert nk.round_reaching(0.5) == 9
    assert 0.60 < nk.open_by_round[8] < 0.62 and 0.95 < nk.open_by_round[11] < 0.96


def test_ceiling_is_monotone_and_not_covered_rulesets_say_why():
    nk = exact.no_killer(R)
    a = nk.open_by_round
    assert all(0 <= x <= y + 1e-12 <= 1 + 2e-12 for x, y in zip(a, a[1:])) and a[-1] > 0.999999
    b = nk.repaired_by_round
    assert all(x <= y + 1e-12 for x, y in zip(b, b[1:])) and b[-1] == pytest.approx(4)
    # drawing more, or an easier die, only raises the ceiling
    more = exact.no_killer(R.override({"rules.survivor_draw": 2}), rounds=20)
    assert all(x >= y - 1e-12 for x, y in zip(more.open_by_round, a[:20]))
    with pytest.raises(exact.NotCovered, match="pooled"):
        exact.no_killer(R.override({"rules.variants.pooled_energy": True}))
    with pytest.raises(exact.NotCovered, match="costs differ"):
        exact.no_killer(R.override({"rules.gate_cost": 3}))


def test_ceiling_is_above_the_engine_s_games():
    """Games the engine plays (random killer, heuristic survivors; the killer there
    also draws from the shared deck, which the model leaves out): the share with a
    survivor out through a gate by round r stays under the ceiling."""
    nk = exact.no_killer(R, rounds=40)
    rec = play_games(400, seats="killer=random,survivors=heuristic", seed=2, ruleset=R)
    first_gate = []
    for row in rec.itertuples():
        rounds = [getattr(row, f"end_round_{i}") for i in range(1, 5)
                  if getattr(row, f"outcome_{i}") == "gate"]
        first_gate.append(min(rounds) if rounds else 10 ** 6)
    first_gate = np.array(first_gate)
    n = len(first_gate)
    assert (first_gate < 10 ** 6).any()  # some games do go out through a gate
    for r in range(1, 41):
        share = (first_gate <= r).mean()
        assert share <= nk.open_by_round[r - 1] + 4.5 * (0.25 / n) ** 0.5, r


# =========================================================================== in the study
def test_study_prints_both_bounds_beside_the_games():
    import simlib
    from simlib.games.mort.study import reference_points, render

    res = simlib.simulate(300, game="mort_de_la_lumiere_du_jour", seed=4, progress=False)
    ref = res.provenance["reference_points"]
    assert ref == reference_points(R)
    nk = exact.no_killer(R, rounds=30)
    assert ref["no_killer"]["open_by_round"] == [float(x) for x in nk.open_by_round]
    assert ref["strike"]["0"]["killed"] == float(exact.strike_hand(
        {R.get(f"energy.{n}.value"): R.get(f"energy.{n}.count") for n in R.names("energy")},
        5, 2, Fraction(1, 2))["killed"])
    text = render(res)
    assert "no killer: ceiling (exact)" in text and "the strike subgame (exact)" in text
    assert "no killer: the survivors' ceiling (exact)" in text
    # every pairing's share out through a gate by round r is under the ceiling (noise aside)
    from simlib.games.mort.study import timeline

    tl = timeline(res.counts)
    for _, row in tl.iterrows():
        assert row["gate"] <= ref["no_killer"]["open_by_round"][int(row["round"]) - 1] + 0.15
    # a ruleset the model does not cover says so instead
    pooled = simlib.simulate(30, game="mort_de_la_lumiere_du_jour", progress=False,
                             ruleset=R.override({"rules.variants.pooled_energy": True}))
    assert "not computed for this ruleset (pooled_energy" in render(pooled)


def test_strike_hand_against_enumeration():
    # every ordered hand of 3 cards from a 5-card deck, every roll: independent of exact.py
    from itertools import permutations, product

    deck = [1, 2, 2, 3, 3]
    tot = Fraction(0)
    n = 0
    for hand in permutations(range(5), 3):
        n += 1
        strikes = sum(deck[i] // 2 for i in hand)
        for roll in product((0, 1), repeat=strikes):
            landed = max(0, sum(roll) - 1)  # one reflex answers the first hit
            tot += Fraction(landed >= 2, 2 ** strikes)
    got = exact.strike_hand({1: 1, 2: 2, 3: 2}, 3, 2, Fraction(1, 2), reflexes=1)
    assert got["killed"] == tot / n
