"""An exact oracle for a reduced game: two players, open hands, a small deck (at most 12
cards, no scavenge, fewer endings than a hoard needs), one round.

``solve(game, objective)`` is the expectiminimax value of the round for seat 0 (seat 0
maximises, seat 1 minimises): every decision of either seat is searched; every draw is a
chance node over the cards left in the draw pile (each card equally likely: the pile is
shuffled, the players see the hands but not the pile's order), and a redeal is a chance node
over every way the shuffled discards can be dealt.  The moves and the scores are the
engine's own (each step is the step model's ``apply`` on a copy); only the chance is
enumerated here.  ``objective``: ``"margin"`` (seat 0's round score minus seat 1's) or
``"win"`` (1 when seat 0 scores more, 1/2 on a tie, 0 otherwise).

``policy_value(game, policy, objective)``: the same value when seat 0 plays ``policy``
(``greedy``, ``rollout``, ``random``...) and seat 1 plays the best reply: the gap to
``solve`` is what the policy leaves on the table against a perfect opponent.

>>> rules = reduced_ruleset()
>>> g = Game(seed=5, game=1, players=2, ruleset=rules)
>>> solve(g, "margin") >= policy_value(g, "greedy", "margin")
True
"""
from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import comb, factorial

from . import codes as K
from .step import Game
from .ruleset import UntilTheWorldEndsRules, load_ruleset

__all__ = ["reduced_ruleset", "REDUCED_DECK", "solve", "policy_value", "Solver"]

# the reduced deck: 8 cards of every kind but scavenge (a deal of 3 each leaves 2 to draw)
REDUCED_DECK = {"outbreak_3": 1, "outbreak_5": 1, "cosmic_5": 1, "personal_3": 1,
                "good_plus_5": 1, "outbreak_x2": 1, "snipe": 1, "the_end": 1}


def reduced_ruleset(deck: dict[str, int] | None = None, turn_cap: int = 12) -> UntilTheWorldEndsRules:
    """The reference rules with the reduced deck, one round (``round_cap`` 1) and a short
    turn cap (the search's depth bound)."""
    base = load_ruleset()
    deck = REDUCED_DECK if deck is None else deck
    over = {f"cards.{n}.count": deck.get(n, 0) for n in base.card_names}
    over.update({"constants.round_cap": 1, "constants.turn_cap": turn_cap,
                 "constants.min_players": 2, "constants.max_players": 2})
    rules = base.override(over)
    kinds = rules.kind_counts()
    if rules.n_cards > 12 or kinds["ending"] >= rules.get("constants.hoard_size"):
        raise ValueError("the exact oracle takes at most 12 cards and fewer endings than a hoard")
    if any(r["count"] and r["kind"] == K.KIND_INSTANT and r["effect"] == K.FX_DRAW_EACH
           for r in rules.card_rows()):
        raise ValueError("the exact oracle's deck has no draw_each card")
    return rules


class Solver:
    """Expectiminimax over one round (see the module docstring); ``policy`` fixes seat 0's
    decisions (``None``: seat 0 searches too)."""

    def __init__(self, objective: str = "margin", policy: str | None = None):
        if objective not in ("margin", "win"):
            raise ValueError(f"objective must be 'margin' or 'win'; got {objective!r}")
        self.objective = objective
        self.policy = policy
        self.memo: dict[bytes, Fraction] = {}
        self.nodes = 0

    # ------------------------------------------------------------------ helpers
    def _entry(self, g: Game, c: int) -> int:
        return int(g._flat[K.R_CARDS + int(c) * K.CC_N + K.CC_ENTRY])

    def _key(self, g: Game) -> bytes:
        """What decides the rest of the round: piles as multisets (the pile's order is
        chance), hands as multisets with their drawn-ending marks, timelines in order."""
        st = g.state
        ent = lambda cs: tuple(sorted(self._entry(g, c) for c in cs))  # noqa: E731
        parts = [tuple(int(st[i]) for i in (K.S_PHASE, K.S_DECIDER, K.S_TURN, K.S_PASSES,
                                            K.S_ROUND_TURNS, K.S_ENDER, K.S_ASK, K.S_PENDING_DRAWN,
                                            K.S_EXTRA_TURN, K.S_LAST_DRAWER, K.S_OVER)),
                 self._entry(g, st[K.S_END_CARD]) if st[K.S_END_CARD] >= 0 else -1,
                 ent(st[K.S_PILE:K.S_PILE + st[K.S_N_PILE]]),
                 ent(st[K.S_DISCARD:K.S_DISCARD + st[K.S_N_DISCARD]]),
                 ent(st[K.S_COMMON:K.S_COMMON + st[K.S_N_COMMON]])]
        for s in range(2):
            h = st[K.S_HAND + s * K.SEAT_W:K.S_HAND + s * K.SEAT_W + st[K.S_S_HAND_N + s * K.SEAT_W]]
            m = st[K.S_MARKED + s * K.SEAT_W:K.S_MARKED + s * K.SEAT_W + st[K.S_S_HAND_N + s * K.SEAT_W]]
            parts.append(tuple(sorted((self._entry(g, c), int(x)) for c, x in zip(h, m))))
            parts.append(tuple(self._entry(g, c) for c in
                               st[K.S_TL + s * K.SEAT_W:K.S_TL + s * K.SEAT_W + st[K.S_S_TL_N + s * K.SEAT_W]]))
            parts.append(int(st[K.S_S_TOTAL + s * K.SEAT_W]))
        return repr(parts).encode()

    def _terminal(self, g: Game) -> Fraction:
        a, b = g.totals()
        if self.objective == "margin":
            return Fraction(a - b)
        return Fraction(1) if a > b else Fraction(1, 2) if a == b else Fraction(0)

    # ------------------------------------------------------------------ chance
    def _after(self, g: Game, code: int) -> Fraction:
        """The value after action ``code``: a draw is a chance node over the pile's cards;
        an action followed by a redeal is a chance node over the redeal's deals."""
        st = g.state
        if code == K.A_DRAW:
            n = int(st[K.S_N_PILE])
            pile = [int(c) for c in st[K.S_PILE:K.S_PILE + n]]
            by_entry: dict[int, list[int]] = {}
            for i, c in enumerate(pile):
                by_entry.setdefault(self._entry(g, c), []).append(i)
            total = Fraction(0)
            for _, idx in sorted(by_entry.items()):
                h = g.clone()
                top = n - 1
                i = idx[0]
                hs = h.state
                hs[K.S_PILE + i], hs[K.S_PILE + top] = hs[K.S_PILE + top], hs[K.S_PILE + i]
                total += Fraction(len(idx), n) * self._stepped(h, code)
            return total
        h = g.clone()
        return self._stepped(h, code)

    def _stepped(self, h: Game, code: int) -> Fraction:
        before = int(h.state[K.S_REDEALS])
        h.apply_code(code)
        if int(h.state[K.S_REDEALS]) == before or h.over:
            return self.value(h)
        return self._redeal(h)

    def _redeal(self, h: Game) -> Fraction:
        """Every deal of the redealt cards (the tails of both hands and the pile), each
        with its probability under a uniform shuffle."""
        st = h.state
        n_pile = int(st[K.S_N_PILE])
        hn = [int(st[K.S_S_HAND_N + s * K.SEAT_W]) for s in range(2)]
        d = int(st[K.S_REDEAL_SIZE])
        k = (d - n_pile) // 2
        cards = []
        for s in range(2):
            cards += [int(c) for c in st[K.S_HAND + s * K.SEAT_W + hn[s] - k:K.S_HAND + s * K.SEAT_W + hn[s]]]
        cards += [int(c) for c in st[K.S_PILE:K.S_PILE + n_pile]]
        assert len(cards) == d
        ents = [self._entry(h, c) for c in cards]
        cnt = Counter(ents)
        out = Fraction(0)
        seen = set()
        for a in _multisubsets(cnt, k):
            rest = cnt - Counter(a)
            for b in _multisubsets(rest, k):
                pile = rest - Counter(b)
                key = (a, b)
                if key in seen:
                    continue
                seen.add(key)
                # multivariate hypergeometric: k cards to seat 0, then k to seat 1
                w = Fraction(1, comb(d, k) * comb(d - k, k))
                for e, m in cnt.items():
                    w *= comb(m, a.count(e)) * comb(m - a.count(e), b.count(e))
                x = h.clone()
                xs = x.state
                ids = {e: [c for c, ee in zip(cards, ents) if ee == e] for e in cnt}
                pools = {e: list(v) for e, v in ids.items()}
                for s, part in ((0, a), (1, b)):
                    for j, e in enumerate(part):
                        xs[K.S_HAND + s * K.SEAT_W + hn[s] - k + j] = pools[e].pop()
                        xs[K.S_MARKED + s * K.SEAT_W + hn[s] - k + j] = 0
                j = 0
                for e, m in sorted(pile.items()):
                    for _ in range(m):
                        xs[K.S_PILE + j] = pools[e].pop()
                        j += 1
                out += w * self.value(x)
        return out

    # ------------------------------------------------------------------ search
    def value(self, g: Game) -> Fraction:
        if g.over:
            return self._terminal(g)
        key = self._key(g)
        if key in self.memo:
            return self.memo[key]
        self.nodes += 1
        codes = g.legal_codes()
        s = g.to_move
        if s == 0 and self.policy is not None:
            pick = g.clone().policy_choice(self.policy)
            v = self._after(g, codes[pick])
        else:
            vals = [self._after(g, c) for c in codes]
            v = max(vals) if s == 0 else min(vals)
        self.memo[key] = v
        return v

    def best_actions(self, g: Game) -> list[int]:
        """The indices of ``g.legal_actions()`` that reach the position's value."""
        codes = g.legal_codes()
        vals = [self._after(g, c) for c in codes]
        best = max(vals) if g.to_move == 0 else min(vals)
        return [i for i, v in enumerate(vals) if v == best]


def multinomial(cnt: Counter) -> int:
    n = sum(cnt.values())
    out = factorial(n)
    for m in cnt.values():
        out //= factorial(m)
    return out


def _multisubsets(cnt: Counter, k: int):
    """Every multiset of size ``k`` drawn from ``cnt`` (as sorted tuples)."""
    items = sorted(cnt.items())
    ranges = [range(min(m, k) + 1) for _, m in items]
    for take in itertools.product(*ranges):
        if sum(take) == k:
            yield tuple(e for (e, _), t in zip(items, take) for _ in range(t))


def solve(game: Game, objective: str = "margin") -> Fraction:
    """The round's exact value for seat 0 from ``game``'s position (both seats perfect)."""
    return Solver(objective).value(game.clone())


def policy_value(game: Game, policy: str, objective: str = "margin") -> Fraction:
    """The round's exact value when seat 0 plays ``policy`` against a perfect seat 1."""
    return Solver(objective, policy).value(game.clone())
