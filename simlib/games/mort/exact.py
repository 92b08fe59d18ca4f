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
``strike_hand(energy, hand, cost, p, ...)``
    The strike subgame for a killer's dealt hand: ``strike_subgame`` averaged over the
    hands of ``hand`` energy cards the deck deals (the killer's best single turn).
``p_reflex_in_hand(deck, reflex_kinds, hand)``
    P(a hand of ``hand`` cards drawn from ``deck`` (counts by kind) holds a reflex card).
``mean_rolls(lamps, p)``
    Mean rolls to light ``lamps`` lamps (each roll lights one with chance ``p``).
``no_killer_race(...)`` / ``no_killer(rules)``
    The survivors' ceiling: with nobody hunting them, their best chance of having a gate
    open by the end of each round, and the most generators they can have repaired by
    then on average (an exact computation over the energy draws and the dice; see
    ``no_killer_race``).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Mapping, Sequence

__all__ = ["p_at_least", "die_p", "repair_this_turn", "strike_subgame", "p_reflex_in_hand",
           "mean_rolls", "strike_hand", "no_killer_race", "no_killer", "NoKiller", "NotCovered",
           "lamp_cards_dist"]


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


def strike_hand(energy: Mapping[int, int], hand: int, cost: int, p, reflexes: int = 0,
                hits_to_kill: int = 2, one_strike: bool = False, pooled: bool = False) -> dict:
    """``strike_subgame`` of a killer beside a healthy survivor, holding a hand of
    ``hand`` energy cards dealt from ``energy`` {value: count} and spending all of it on
    strikes (``pooled``: the hand's points form one pool); averaged exactly over the
    hands (multivariate hypergeometric).  No movement, no exhaustion carried in: the
    killer's best single turn against ``reflexes`` answers."""
    values = sorted(energy)
    total = sum(energy.values())
    out = {"killed": Fraction(0), "injured": Fraction(0), "unhurt": Fraction(0)}

    def rec(i: int, left: int, cards: tuple, ways: int) -> None:
        if i == len(values) - 1:
            c = energy[values[i]]
            if left > c:
                return
            cards = cards + (values[i],) * left
            w = Fraction(ways * comb(c, left), comb(total, hand))
            pay = [sum(cards)] if pooled else list(cards)
            sub = strike_subgame(pay, cost, p, reflexes, 0, hits_to_kill, one_strike)
            for k in out:
                out[k] += w * sub[k]
            return
        for k in range(0, min(left, energy[values[i]]) + 1):
            rec(i + 1, left - k, cards + (values[i],) * k, ways * comb(energy[values[i]], k))

    rec(0, hand, (), 1)
    return out


def p_reflex_in_hand(deck: Mapping[str, int], reflex_kinds: Sequence[str], hand: int) -> Fraction:
    n = sum(deck.values())
    r = sum(deck[k] for k in reflex_kinds)
    return 1 - Fraction(comb(n - r, hand), comb(n, hand))


def mean_rolls(lamps: int, p: Fraction) -> Fraction:
    return Fraction(lamps) / Fraction(p)


class NotCovered(ValueError):
    """The ruleset is outside what ``no_killer`` computes exactly (the reason is the text)."""


@dataclass(frozen=True)
class NoKiller:
    """The survivors' ceiling, round by round (index ``r - 1`` for round ``r``).

    ``open_by_round``: the best chance of a gate open by the end of round r (the first
    escape, the opener walking out free); ``repaired_by_round``: the most generators
    repaired by then on average (lamps lit one generator at a time).
    """

    open_by_round: tuple
    repaired_by_round: tuple

    def round_reaching(self, q) -> int | None:
        """The first round by whose end a gate is open with chance at least ``q``."""
        return next((r for r, c in enumerate(self.open_by_round, start=1) if c >= q), None)


def lamp_cards_dist(deck: Mapping[str, int], lamp_kinds: Sequence[str], drawn: int) -> dict:
    """{k: P(k lamp-lighting cards among ``drawn`` cards dealt from ``deck``)} (the
    team's starting survivor cards: a hypergeometric count, in fractions)."""
    n = sum(deck.values())
    r = sum(deck[k] for k in lamp_kinds)
    return {k: Fraction(comb(r, k) * comb(n - r, drawn - k), comb(n, drawn))
            for k in range(0, min(r, drawn) + 1) if drawn - k <= n - r}


def no_killer_race(energy: Mapping[int, int], survivors: int, hand: int, draw: int,
                   lamps_per_generator: int, generators: int, gate_successes: int, cost: int,
                   p, rounds: int, toolboxes: Mapping[int, object] | None = None,
                   exact: bool = True) -> NoKiller:
    """The survivors' best race when nobody hunts them: an exact computation over the
    energy draws (the shared deck without replacement, its discards reshuffled) and the
    white dice, round by round.

    The game it solves keeps of the rules what decides the race and relaxes the rest in
    the survivors' favour, so its value is a ceiling on their play without a killer:

    * **In the state:** the draw pile (cards paying an act, cards paying none), each
      survivor's paying cards waiting for its next turn (drawn at the end of its last
      one), the lamp-lighting cards the team holds, the lamps still to light and the
      gate successes still to roll.  Cards are classed by what they pay: every act of
      the race (a repair roll, a lever roll, playing a toolbox) costs ``cost`` points and
      a card pays one act or none (``value // cost`` is 0 or 1; ``no_killer`` checks).
    * **Relaxed (each only adds options, so the value can only rise):** moving is free
      (every survivor is beside every generator and gate: positions drop out); a hand
      has no limit and a draw may be declined; the team's toolboxes are shared by all
      its survivors; the survivor who opens a gate walks out at once (the game's 1
      energy for the escape is waived); the hatch is left out (without a killer it
      opens only by "carte" then "clé": this is the ceiling of the generators' race).
    * **Dropped as dominated:** chests (a card spent on a chest lights a lamp only if
      the roll succeeds and then the drawn survivor card lights one, for a second card:
      the same card on a repair roll does at least as well, whatever the dice) and the
      other survivor cards (no use without a killer).
    * **The best play, then:** on its turn a survivor spends every paying card at once,
      a toolbox first while lamps remain (a sure lamp now is never worth less than one
      later, and may be lost once the lamps are done), then repair rolls, then lever
      rolls; it keeps every card that pays nothing (so it never returns to the deck and
      the reshuffled deck holds paying cards only), and it always draws.  Holding a
      paying card only delays its roll and its return to the deck; declining a draw
      only delays the same cards.  ``tests/test_mort_no_killer.py`` checks this play
      against an exhaustive search over every play (hold, spend, dump, draw or not) on
      small decks, and the computation against a card-by-card simulation.

    ``energy`` {value: count}; ``hand`` cards dealt to each survivor (in seat order),
    ``draw`` drawn at the end of each of its turns; ``lamps_per_generator`` x
    ``generators`` lamps to light, then ``gate_successes`` at one lever, each roll a
    success with chance ``p``; ``toolboxes`` {k: P(the team's starting survivor cards
    light k lamps)} (default none).  ``exact``: fractions (else floats, for the study:
    states whose chance falls below 1e-15 are dropped, so the chances may fall short by
    far less than a printed digit).
    Returns :class:`NoKiller` over rounds 1 .. ``rounds``.
    """
    one = Fraction(1) if exact else 1.0
    p = Fraction(p) if exact else float(p)
    q = one - p
    pay_total = sum(c for v, c in energy.items() if v // cost >= 1)
    dud_total = sum(energy.values()) - pay_total
    lamps_total = lamps_per_generator * generators
    toolboxes = {0: one} if toolboxes is None else toolboxes

    def frac(a: int, b: int):
        return Fraction(a, b) if exact else a / b

    @lru_cache(maxsize=None)
    def spend(t: int, lamps: int, gate: int, m: int) -> tuple:
        """{(t, lamps, gate): P} after ``m`` paying cards (lamps and gate 0: open)."""
        if m == 0 or lamps == gate == 0:
            return (((t, lamps, gate), one),)
        out: dict = {}
        if lamps > 0 and t > 0:
            nxt = (((t - 1, lamps - 1, gate), one),)
        elif lamps > 0:
            nxt = (((t, lamps - 1, gate), p), ((t, lamps, gate), q))
        else:
            nxt = (((t, 0, gate - 1), p), ((t, 0, gate), q))
        for (t1, l1, g1), w in nxt:
            for key, w2 in spend(t1, l1, g1, m - 1):
                out[key] = out.get(key, 0) + w * w2
        return tuple(out.items())

    @lru_cache(maxsize=None)
    def draws(dud: int, pay: int, held_pay: int, n: int) -> tuple:
        """{(dud, pay, paying cards drawn): P} drawing ``n`` cards from a pile of ``dud``
        + ``pay`` cards; ``held_pay`` paying cards are in hands, so the discards hold the
        other paying cards (never a dud: duds are kept), reshuffled when the pile is out."""
        if n == 0:
            return (((dud, pay, 0), one),)
        if dud + pay == 0:
            pay = pay_total - held_pay  # the discards, reshuffled
            if pay == 0:
                return (((0, 0, 0), one),)  # every card is held: nothing to draw
        out: dict = {}
        size = dud + pay
        for is_pay, cnt in ((1, pay), (0, dud)):
            if cnt == 0:
                continue
            w = frac(cnt, size)
            for (d1, p1, k), w2 in draws(dud - (1 - is_pay), pay - is_pay, held_pay + is_pay, n - 1):
                key = (d1, p1, k + is_pay)
                out[key] = out.get(key, 0) + w * w2
        return tuple(out.items())

    # the deal, seat by seat: state (dud pile, paying pile, paying cards of each seat, t,
    # lamps left, gate left)
    states: dict = {}
    for t0, wt in toolboxes.items():
        states[(dud_total, pay_total, (), int(t0), lamps_total, gate_successes)] = one * wt
    for _ in range(survivors):
        nxt: dict = {}
        for (d, pp, pend, t, lamps, gate), w in states.items():
            for (d1, p1, k), w2 in draws(d, pp, sum(pend), hand):
                key = (d1, p1, pend + (k,), t, lamps, gate)
                nxt[key] = nxt.get(key, 0) + w * w2
        states = nxt
    opened = 0 * one
    open_by, repaired_by = [], []
    for _ in range(rounds):
        if not exact and not states:  # floats: the race is over in every deal kept
            open_by.append(opened)
            repaired_by.append(opened * generators)
            continue
        for s in range(survivors):
            nxt = {}
            for (d, pp, pend, t, lamps, gate), w in states.items():
                rest = sum(pend) - pend[s]
                for (t1, l1, g1), w1 in spend(t, lamps, gate, pend[s]):
                    if l1 == g1 == 0:
                        opened += w * w1
                        continue
                    for (d1, p1, k), w2 in draws(d, pp, rest, draw):
                        key = (d1, p1, pend[:s] + (k,) + pend[s + 1:], t1, l1, g1)
                        nxt[key] = nxt.get(key, 0) + w * w1 * w2
            states = nxt
            if not exact:  # floats: drop what is below any printed digit
                states = {k: w for k, w in states.items() if w > 1e-15}
        open_by.append(opened)
        rep = opened * generators
        for (_, _, _, _, lamps, _), w in states.items():
            rep += w * min((lamps_total - lamps) // lamps_per_generator, generators)
        repaired_by.append(rep)
    return NoKiller(tuple(open_by), tuple(repaired_by))


def no_killer(rules, rounds: int | None = None, exact: bool = False) -> NoKiller:
    """:func:`no_killer_race` for a Mort ruleset (``rounds``: its ``rules.timeout``).

    Raises :class:`NotCovered` where the exact model does not hold: pooled energy (a
    card's leftover points would pay part of the next act), acts of different costs or
    a card paying two (the play above would no longer be the best by a simple
    argument), a chest cheaper than a repair roll, a toolbox lighting more than one
    lamp."""
    g = rules.get
    if g("rules.variants.pooled_energy"):
        raise NotCovered("pooled_energy: cards pay acts together")
    cost = g("rules.repair_cost")
    if cost < 1 or g("rules.gate_cost") != cost or g("rules.survivor_card_cost") != cost:
        raise NotCovered("repair, lever and survivor-card costs differ (or are 0)")
    if g("rules.chest_cost") < cost:
        raise NotCovered("a chest costs less than a repair roll")
    energy = {g(f"energy.{n}.value"): g(f"energy.{n}.count") for n in rules.names("energy")}
    if any(v // cost > 1 for v, c in energy.items() if c):
        raise NotCovered("an energy card pays two acts")
    kinds = rules.names("survivor_cards")
    deck = {k: g(f"survivor_cards.{k}.count") for k in kinds}
    any_card = g("rules.variants.any_card_repairs")
    lamp_kinds = [k for k in kinds if any_card or g(f"survivor_cards.{k}.effect") == "repair"]
    if any(g(f"survivor_cards.{k}.effect") == "repair" and g(f"survivor_cards.{k}.amount") > 1
           and deck[k] for k in lamp_kinds):
        raise NotCovered("a toolbox lights more than one lamp")
    s = g("board.survivors")
    tools = lamp_cards_dist(deck, lamp_kinds, s * g("rules.survivor_start_cards"))
    if not exact:
        tools = {k: float(v) for k, v in tools.items()}
    faces = g("dice.white")
    return no_killer_race(energy, s, g("rules.survivor_energy_hand"), g("rules.survivor_draw"),
                          g("board.lamps"), g("board.generators_needed"),
                          g("board.gate_successes"), cost, die_p(faces),
                          g("rules.timeout") if rounds is None else rounds, tools, exact=exact)
