"""Exact answers of Mort de la lumière du jour's small subgames (fractions), used as
oracles by the tests and as reference points by the studies.

``p_at_least(k, n, p)``
    P(at least ``k`` successes in ``n`` rolls of success chance ``p``).
``die_p(faces)``
    A die's chance of success (faces: 1 succeeds, 0 fails).
``repair_this_turn(cards, lamps_left, cost, p)``
    A survivor beside a generator spends energy cards (their points, one purpose each)
    on rolls: P(the generator is repaired this turn).
``strike_subgame(cards, cost, p, reflexes, helper_reflexes, hits_to_kill, one_strike)``
    A killer beside a survivor spends his energy cards on strikes; every landed strike is
    first answered by the target's reflex cards, then by helpers' within range; a hit
    that nobody answers wounds.  Returns ``{"killed": P, "injured": P, "unhurt": P}`` for a
    healthy target (``hits_to_kill`` landed hits kill it).
``p_reflex_in_hand(deck, reflex_kinds, hand)``
    P(a hand of ``hand`` cards drawn from ``deck`` (counts by kind) holds a reflex card).
``mean_rolls(lamps, p)``
    Mean rolls to light ``lamps`` lamps (each roll lights one with chance ``p``).
``no_killer(...)``
    The survivors' ceiling: the exact distribution of the rounds a team needs to power
    the gates and open one when nobody hunts them (see its docstring).
"""
from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Mapping, Sequence

__all__ = ["p_at_least", "die_p", "repair_this_turn", "strike_subgame", "p_reflex_in_hand",
           "mean_rolls", "no_killer"]


def die_p(faces: Sequence[int]) -> Fraction:
    return Fraction(sum(faces), len(faces))


def p_at_least(k: int, n: int, p: Fraction) -> Fraction:
    p = Fraction(p)
    return sum((comb(n, j) * p ** j * (1 - p) ** (n - j) for j in range(max(k, 0), n + 1)),
               Fraction(0))


def repair_this_turn(cards: Sequence[int], lamps_left: int, cost: int, p: Fraction) -> Fraction:
    """Each card pays ``value // cost`` rolls (one card, one purpose; leftovers lost)."""
    rolls = sum(v // cost for v in cards)
    return p_at_least(lamps_left, rolls, p)


def strike_subgame(cards: Sequence[int], cost: int, p: Fraction, reflexes: int = 0,
                   helper_reflexes: int = 0, hits_to_kill: int = 2,
                   one_strike: bool = False) -> dict:
    strikes = sum(v // cost for v in cards)
    if one_strike:
        strikes = min(strikes, 1)
    shield = reflexes + helper_reflexes
    p = Fraction(p)
    dist = {j: comb(strikes, j) * p ** j * (1 - p) ** (strikes - j) for j in range(strikes + 1)}
    out = {"killed": Fraction(0), "injured": Fraction(0), "unhurt": Fraction(0)}
    for j, q in dist.items():
        landed = max(0, j - shield)
        key = "killed" if landed >= hits_to_kill else ("injured" if landed >= 1 else "unhurt")
        out[key] += q
    return out


def p_reflex_in_hand(deck: Mapping[str, int], reflex_kinds: Sequence[str], hand: int) -> Fraction:
    n = sum(deck.values())
    r = sum(deck[k] for k in reflex_kinds)
    return 1 - Fraction(comb(n - r, hand), comb(n, hand))


def mean_rolls(lamps: int, p: Fraction) -> Fraction:
    return Fraction(lamps) / Fraction(p)


def no_killer(energy: Mapping[int, int], survivors: int, hand: int, draw: int, limit: int,
              lamps: int, gate_successes: int, cost: int, p: Fraction, rounds: int) -> list[Fraction]:
    """P(the team has lit every lamp needed and opened a gate by the end of round r), for
    r = 1 .. ``rounds``, when no killer hunts: the survivors' ceiling.

    The model (exact under it): the survivors stand at their work (no moves); a card pays
    ``value // cost`` rolls; each survivor starts with ``hand`` cards and draws ``draw`` a
    turn up to ``limit``, cards drawn independently with the deck's shares (the deck is
    large against a round's draws); ``lamps`` lamps (every generator needed) then
    ``gate_successes`` successes at a gate, in that order, each roll succeeding with
    ``p``.  A survivor spends every card that pays a roll each turn.  The distribution of
    rolls a team gets by round r is convolved exactly; the chance that ``lamps +
    gate_successes`` successes come within those rolls is a binomial tail.
    """
    total = sum(energy.values())
    share = {v: Fraction(c, total) for v, c in energy.items()}
    rolls_of = {v: v // cost for v in energy}
    need = lamps + gate_successes
    p = Fraction(p)

    def card_rolls_dist(k: int) -> dict:
        d = {0: Fraction(1)}
        for _ in range(k):
            nd: dict = {}
            for r0, q0 in d.items():
                for v, s in share.items():
                    r1 = r0 + rolls_of[v]
                    nd[r1] = nd.get(r1, 0) + q0 * s
            d = nd
        return d

    # every card is spent the turn it is held (cards paying no roll are kept only if they
    # could pay one: with value // cost == 0 they never pay), so a survivor's rolls in
    # round 1 come from ``hand`` cards and afterwards from ``min(draw, limit)`` cards a round
    first = card_rolls_dist(hand)
    later = card_rolls_dist(min(draw, limit))

    def conv(a: dict, b: dict) -> dict:
        out: dict = {}
        for x, qx in a.items():
            for y, qy in b.items():
                out[x + y] = out.get(x + y, 0) + qx * qy
        return out

    team_first = {0: Fraction(1)}
    for _ in range(survivors):
        team_first = conv(team_first, first)
    team_later = {0: Fraction(1)}
    for _ in range(survivors):
        team_later = conv(team_later, later)
    out = []
    d = team_first
    for r in range(1, rounds + 1):
        if r > 1:
            d = conv(d, team_later)
        out.append(sum((q * p_at_least(need, n, p) for n, q in d.items()), Fraction(0)))
    return out
