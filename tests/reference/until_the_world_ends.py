"""Reference engine of Until the World Ends, written from the rules only (issue #40).

STATUS: complete

Sources: ``docs/games/until-the-world-ends.md`` (primary: the game as simlib plays it, its
defaults 1-9), the game's engine specification and the publisher's rulebook. Every number comes from ``rules``
(the flat ``{key: value}`` of a loaded ruleset); the deck is the ``cards.<name>.effect`` /
``cards.<name>.count`` entries, parsed here from the effect vocabulary.

Seats, directions
-----------------
Seats are ``0 .. players-1``; the left of seat ``s`` is ``s + 1`` (mod players) and
"clockwise" walks to the left. Seat 0 deals round 1; round ``r``'s dealer is
``(r - 1) % players``; the dealer's left plays first.

Setup keys (``setup``)
----------------------
- ``players`` (int, required): the number of seats, ``constants.min_players`` to
  ``constants.max_players``.
- ``auto_forced`` (bool, default False): when True, a decision with exactly one legal
  action is taken automatically (never shown by ``to_move``). When False (default), every
  decision is asked, even with one legal action, EXCEPT these forced steps, which are
  always automatic: a seat with no ending in hand is not asked about a challenge; a player
  with no legal action on his turn passes; a snipe with no card to take does nothing.

Action forms (tuples)
---------------------
- ``("draw",)``: draw one card (legal on a turn when the hand is under
  ``constants.hand_limit`` and the draw pile is not empty, and no marked ending is held).
- ``("play", card)``: play a card of the hand, by its data name (one action per distinct
  name). With a marked ending in hand, the only turn actions are ``("play", e)`` for the
  distinct names of the marked endings.
- ``("snipe", seat, index)``: a ``remove_one(chosen)`` card's user takes the card at
  position ``index`` (0 = the left, oldest end) of ``seat``'s timeline (``seat`` is not
  the user). Asked right after the snipe is played or drawn.
- ``("challenge", card)``: while an ending stands, the asked seat plays the ending ``card``
  to cancel it. ``("no_challenge",)``: he lets it stand.
- ``("pick", card)``: in a hoard, the asked seat takes a shown ending (by name) that still
  has room.

Phases (``observation()["phase"]``): ``"turn"``, ``"snipe"``, ``"challenge"``, ``"hoard"``.

Observation keys
----------------
``seat`` (who decides), ``phase``, ``round`` (1-based), ``dealer``, ``turn`` (turns done in
this round), ``totals`` (list per seat, before this round), ``timelines`` (list per seat of
card names, left to right), ``common`` (card names in the common area, in play order),
``discards`` (sorted card names: the discard pile is face up; a standing ending lies on it), ``pile_size``,
``hand_sizes`` (list per seat), ``hand`` (sorted names of the deciding seat's hand),
``marked`` (sorted names of the deciding seat's marked endings, a sub-multiset of
``hand``), ``pending_ending`` (the standing ending's name in phase ``challenge``, else
None), ``ender`` (its player, else None), ``hoard`` (in phase ``hoard``: ``{name: room}``
of the shown endings, room = picks left; else None).

Chance kinds (``chance.draw(kind, options)``)
---------------------------------------------
- ``"deal"``: one card dealt at a round's start; options = the undealt cards (the whole
  gathered deck at first), by data name with repeats. Dealt one at a time, round-robin from
  the dealer's left, ``constants.deal`` passes.
- ``"draw"``: one card drawn from the draw pile, on a turn or by a scavenge; options = the
  draw pile's cards with repeats.
- ``"redeal"``: one discard dealt in a redeal; options = the discards not yet dealt (the
  rest becomes the draw pile). Dealt one at a time, round-robin from the dealer's left.
Options are listed in the data's card order, repeats adjacent. Nothing else is random.

Record keys (``record()``)
--------------------------
``players``, ``winners`` (sorted seats with the highest total), ``totals`` (list per
seat), ``rounds`` (rounds played), ``end_cause`` (``"target"`` or ``"round_cap"``),
``round_causes`` (per round: ``"ending"``, ``"hoard"``, ``"exhausted"``, ``"turn_cap"``),
``round_scores`` (per round, list per seat), ``round_turns`` (turns per round, counting
the turn in which a standing ending or a hoard from a draw ended it; a hoard found after
a deal or a redeal adds no turn),
``round_enders`` (per round: the seat whose ending stood, else None),
``round_endings`` (per round: the standing ending's name, else None),
``hoard_picks`` (per round: list per seat of the picked ending name or None, for hoard
rounds; None otherwise), ``endings_played`` (endings played in the game, challenges not
counted), ``endings_challenged``, ``hoards`` (rounds ended by a hoard), ``turns`` (total),
``redeals`` (redeals made: the pile empty at a turn's end with discards to deal),
``decisions`` (actions applied through ``apply``), ``plays`` (``{kind: cards played from
hand}``, kinds ``event``, ``good``, ``escalation``, ``instant``, ``ending``; a challenge's
card is not a play), ``effects`` (``{op: instantaneous cards resolved, played or drawn}``,
ops ``discard_last``, ``remove_one``, ``pass_last``, ``clear``, ``draw_each``).

Rules as played (from the docs page)
------------------------------------
A turn is a draw or a play. A drawn instantaneous goes on the discards and resolves at once
with the drawer as "you" (then the turn ends; variant ``draw_again_after_instant``: the
drawer acts again in the same turn). A drawn ending is marked: on its owner's next turn
playing a marked one is his only action. An ending played is asked for challenges clockwise
from the ender's left; the first challenge discards both and play goes on; unchallenged,
the round is scored with its modifier for everyone. A hand with ``hoard_size`` endings ends
the round at once (hoard). Scavenges draw depth-first. Empty pile: redeal. Scoring:
product (or additive variant) of the escalations, then the ending's modifier, then good
things, then ``bonus_most``.

Readings (where the docs page is silent)
----------------------------------------
1. Challenge card: "he may use any ending, marked or not, and plays a marked one first" is
   read as: a seat holding marked endings challenges with one of its marked endings (one
   ``("challenge", name)`` per distinct marked name); a seat with none marked offers every
   distinct ending name it holds.
2. Redeal trigger: checked at the end of every turn: when the draw pile is empty and there
   are discards, the discards are redealt ("the redeal happens at the end of the turn in
   which the pile ran out"; a pile emptied by a redeal that deals everything is refilled at
   the end of the next turn that makes discards). Play goes on at the left of the player
   who drew the pile's last card if it ran out in this turn, else at the turn player's left.
3. Next player when the pile ran out this turn and nothing could be redealt: also the last
   drawer's left (the rule is tied to the pile running out).
4. A pass counts as a turn (for ``turn_cap``). When the turn that completes a cycle of
   passes is also the ``turn_cap``-th, the cause is ``exhausted``. A challenge, a snipe
   choice, a hoard pick and a scavenge's draws are parts of the turn they happen in.
5. Hoard room is per card: a name shown c times takes c * ceil(players / hoard_share)
   picks. A seat finding no room left (only possible with tweaked constants) gets no
   ending. The hoarder's shown endings are every ending in his hand. A hand is checked for
   a hoard whenever a card enters it (deal, draw, redeal); hoards found after a deal or a
   redeal are resolved together (picks clockwise from the dealer's left), a hoard from a
   draw alone (the hoarder first, then clockwise from his left).
6. ``bonus_most`` in a hoard pick: the most is counted over the whole table; the picker
   gets the bonus if he is tied for it (and has at least one such event).
7. ``pass_last``: every last card is lifted first, then each goes to the right end of the
   neighbour's timeline. ``discard_last(self|others|all)`` is relative to "you".
8. ``draw_each(n)``: clockwise from the user (the user first), each player draws up to n
   cards one at a time while under the hand limit and the pile is not empty.
9. Variant ``draw_again_after_instant``: only a turn's own draw gives the extra action
   (not a scavenge's), repeatedly; a marked ending drawn in this turn is not playable in it
   (it waits for the next turn); with no action left the turn ends.
10. A marked ending played by its owner removes that marked copy; a play or challenge of a
   name held both marked and unmarked (outside reading 1) takes an unmarked copy first.
11. Ending modifiers in the additive variant still multiply on top: (1 + sum(m - 1)) * m.
12. A round's scores are added to the totals when it ends; the game ends after a round in
   which some total reaches ``constants.target``, or after ``constants.round_cap`` rounds.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from tests.reference.chance import Chance

# --------------------------------------------------------------------------- effects


def _split_args(text: str) -> list[str]:
    """Top-level comma split of an argument list: "multiply(personal, 2)" stays whole."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _call(text: str) -> tuple[str, list[str]]:
    """'name(a, b)' -> ('name', ['a', 'b']); a bare word -> (word, [])."""
    text = text.strip()
    if "(" not in text:
        return text, []
    head = text[: text.index("(")].strip()
    assert text.endswith(")"), f"bad effect {text!r}"
    return head, _split_args(text[text.index("(") + 1: -1])


class Card:
    """One distinct card of the deck, its effect parsed."""

    def __init__(self, name: str, effect: str, colours, disasters):
        self.name = name
        self.effect = effect
        head, args = _call(effect)
        self.op = head
        self.colours = tuple(colours)
        self.disasters = tuple(disasters)
        if head == "points":
            self.kind = "event"
            self.colour, self.points = args[0], int(args[1])
        elif head == "add_all":
            self.kind = "good"
            self.value = int(args[0])
        elif head == "multiply":
            self.kind = "escalation"
            self.target, self.factor = self.target_set(args[0]), int(args[1])
        elif head in ("discard_last", "remove_one", "pass_last", "clear", "draw_each"):
            self.kind = "instant"
            self.arg = args[0] if args else None
        elif head == "end":
            self.kind = "ending"
            mhead, margs = _call(args[0]) if args else ("none", [])
            self.mod = mhead
            if mhead == "multiply":
                self.mod_target, self.mod_value = self.target_set(margs[0]), int(margs[1])
            elif mhead == "zero":
                self.mod_target, self.mod_value = self.target_set(margs[0]), 0
            elif mhead == "bonus_most":
                self.mod_target, self.mod_value = frozenset([margs[0]]), int(margs[1])
            elif mhead == "none":
                self.mod_target, self.mod_value = frozenset(), 0
            else:
                raise ValueError(f"card {name}: unknown ending modifier {args[0]!r}")
        else:
            raise ValueError(f"card {name}: unknown effect {effect!r}")

    def target_set(self, t: str) -> frozenset:
        t = t.strip()
        if t == "disaster":
            return frozenset(self.disasters)
        if t in ("every", "all"):
            return frozenset(self.colours)
        if t in self.colours:
            return frozenset([t])
        raise ValueError(f"card {self.name}: unknown target {t!r}")


class _RoundOver(Exception):
    """Unwinds a round from wherever it ends (a standing ending, a hoard mid-scavenge)."""

    def __init__(self, cause: str, mods: list, ender=None, ending=None, picks=None):
        super().__init__(cause)
        self.cause, self.mods, self.ender, self.ending, self.picks = cause, mods, ender, ending, picks


# --------------------------------------------------------------------------- engine


class Reference:
    def __init__(self, rules: Mapping[str, Any], setup: Mapping[str, Any], chance: Chance):
        self.rules = dict(rules)
        self.chance = chance
        g = self.rules.get
        self.n = int(setup["players"])
        self.auto_forced = bool(setup.get("auto_forced", False))
        lo, hi = int(g("constants.min_players")), int(g("constants.max_players"))
        if not lo <= self.n <= hi:
            raise ValueError(f"players {self.n} outside {lo}..{hi}")
        self.deal_n = int(g("constants.deal"))
        self.hand_limit = int(g("constants.hand_limit"))
        self.target = int(g("constants.target"))
        self.hoard_size = int(g("constants.hoard_size"))
        self.hoard_share = int(g("constants.hoard_share"))
        self.turn_cap = int(g("constants.turn_cap"))
        self.round_cap = int(g("constants.round_cap"))
        colours = tuple(g("constants.colours"))
        disasters = tuple(g("constants.disasters"))
        self.draw_again = bool(g("constants.variants.draw_again_after_instant"))
        self.additive = bool(g("constants.variants.additive_escalation"))
        self.deal_all = bool(g("constants.variants.deal_all"))
        # The deck, in the data's card order (the order of the ruleset's keys).
        self.cards: dict[str, Card] = {}
        self.order: dict[str, int] = {}
        self.deck: list[str] = []
        for key in self.rules:
            if key.startswith("cards.") and key.endswith(".effect"):
                name = key[len("cards."): -len(".effect")]
                self.order[name] = len(self.order)
                self.cards[name] = Card(name, self.rules[key], colours, disasters)
                self.deck += [name] * int(self.rules[f"cards.{name}.count"])
        # Game state.
        self.totals = [0] * self.n
        self.round = 0
        self.dealer = 0
        self.turn_no = 0
        self.pile: list[str] = []
        self.discards: list[str] = []
        self.hands: list[list[str]] = [[] for _ in range(self.n)]
        self.marked: list[list[str]] = [[] for _ in range(self.n)]
        self.timelines: list[list[str]] = [[] for _ in range(self.n)]
        self.common: list[str] = []
        self.pending_ending = None
        self.ender = None
        self.hoard_room = None
        self.last_drawer = None
        self.ran_out = False
        self._in_turn = False
        self._rec = {"round_causes": [], "round_scores": [], "round_turns": [],
                     "round_enders": [], "round_endings": [], "hoard_picks": [],
                     "endings_played": 0, "endings_challenged": 0, "hoards": 0, "turns": 0,
                     "redeals": 0, "decisions": 0, "plays": {}, "effects": {}}
        self.end_cause = None
        # what happened, in order: one tuple per event the kernel's game log rows name
        # (round deal, redeal, challenge, hoard, pick, score, round end, game end)
        self.history: list[tuple] = []
        self._pending = None  # (seat, phase, actions) of the decision asked now
        self._gen = self._game()
        self._advance(None)

    # ----------------------------------------------------------------- interface

    def to_move(self) -> int | None:
        return None if self._pending is None else self._pending[0]

    def legal_actions(self) -> list[tuple]:
        return [] if self._pending is None else list(self._pending[2])

    def apply(self, action: tuple) -> None:
        if self._pending is None:
            raise ValueError("the game is over")
        action = tuple(action)
        if action not in self._pending[2]:
            raise ValueError(f"illegal action {action!r}; legal: {self._pending[2]!r}")
        self._rec["decisions"] += 1
        self._advance(action)

    def is_over(self) -> bool:
        return self._pending is None

    def observation(self) -> dict:
        seat = self.to_move()
        phase = self._pending[1] if self._pending else "over"
        return {
            "seat": seat,
            "phase": phase,
            "round": self.round,
            "dealer": self.dealer,
            "turn": self.turn_no,
            "totals": list(self.totals),
            "timelines": [list(t) for t in self.timelines],
            "common": list(self.common),
            "discards": self._sorted(self.discards),
            "pile_size": len(self.pile),
            "hand_sizes": [len(h) for h in self.hands],
            "hand": self._sorted(self.hands[seat]) if seat is not None else [],
            "marked": self._sorted(self.marked[seat]) if seat is not None else [],
            "pending_ending": self.pending_ending if phase == "challenge" else None,
            "ender": self.ender if phase == "challenge" else None,
            "hoard": dict(self.hoard_room) if phase == "hoard" else None,
        }

    def record(self) -> dict:
        best = max(self.totals)
        r = {k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v)
             for k, v in self._rec.items()}
        r.update({
            "players": self.n,
            "winners": [s for s in range(self.n) if self.totals[s] == best],
            "totals": list(self.totals),
            "rounds": self.round,
            "end_cause": self.end_cause,
        })
        return r

    # ----------------------------------------------------------------- driving

    def _advance(self, action) -> None:
        try:
            self._pending = self._gen.send(action) if action is not None else next(self._gen)
        except StopIteration:
            self._pending = None

    def _ask(self, seat: int, phase: str, actions: list):
        """A decision: yields it out to the caller of apply(), returns the chosen action."""
        assert actions, "a decision needs at least one action"
        if self.auto_forced and len(actions) == 1:
            return actions[0]
        return (yield (seat, phase, actions))

    def _sorted(self, cards) -> list[str]:
        return sorted(cards, key=lambda c: (self.order[c], c))

    def _distinct(self, cards) -> list[str]:
        return sorted(set(cards), key=lambda c: self.order[c])

    def _left(self, s: int, k: int = 1) -> int:
        return (s + k) % self.n

    # ----------------------------------------------------------------- game / round

    def _game(self):
        while True:
            self.round += 1
            yield from self._play_round()
            if max(self.totals) >= self.target:
                self.end_cause = "target"
                self.history.append(("game_end", self.round, "target"))
                return
            if self.round >= self.round_cap:
                self.end_cause = "round_cap"
                self.history.append(("game_end", self.round, "round_cap"))
                return

    def _play_round(self):
        n = self.n
        self.dealer = (self.round - 1) % n
        self.pile = self._sorted(self.deck)
        self.discards, self.common = [], []
        self.hands = [[] for _ in range(n)]
        self.marked = [[] for _ in range(n)]
        self.timelines = [[] for _ in range(n)]
        self.turn_no = 0
        self._in_turn = False
        self.pending_ending = self.ender = self.hoard_room = None
        try:
            # The deal: one card at a time, round-robin from the dealer's left.
            for _ in range(self.deal_n):
                for i in range(1, n + 1):
                    s = self._left(self.dealer, i)
                    if self.pile:
                        c = self.chance.draw("deal", list(self.pile))
                        self.pile.remove(c)
                        self.hands[s].append(c)
            self.history.append(("round", self.round, self.dealer, len(self.pile)))
            yield from self._check_hoards_all()
            cur = self._left(self.dealer)
            passes = 0
            while True:
                self.ran_out = False
                self._in_turn = True
                passed = yield from self._turn(cur)
                self._in_turn = False
                self.turn_no += 1
                passes = passes + 1 if passed else 0
                nxt = self._left(self.last_drawer) if self.ran_out else self._left(cur)
                if not self.pile and self.discards:
                    self._redeal()
                    yield from self._check_hoards_all()
                if passes >= n:
                    raise _RoundOver("exhausted", [None] * n)
                if self.turn_no >= self.turn_cap:
                    raise _RoundOver("turn_cap", [None] * n)
                cur = nxt
        except _RoundOver as over:
            self._end_round(over)

    def _end_round(self, over: _RoundOver) -> None:
        scores = [self._score(s, over.mods[s]) for s in range(self.n)]
        for s in range(self.n):
            self.totals[s] += scores[s]
            self.history.append(("score", self.round, s, scores[s], self.totals[s], over.mods[s]))
        self.history.append(("round_end", self.round, over.cause, over.ender, over.ending, max(scores)))
        rec = self._rec
        rec["round_causes"].append(over.cause)
        rec["round_scores"].append(scores)
        # A round that ends inside a turn (a standing ending, a hoard from a draw) counts
        # that turn too.
        rec["round_turns"].append(self.turn_no + (1 if self._in_turn else 0))
        self._in_turn = False
        rec["turns"] += rec["round_turns"][-1]
        rec["round_enders"].append(over.ender)
        rec["round_endings"].append(over.ending)
        rec["hoard_picks"].append(over.picks)
        if over.cause == "hoard":
            rec["hoards"] += 1
        self.pending_ending = self.ender = self.hoard_room = None

    # ----------------------------------------------------------------- turns

    def _turn(self, p: int):
        """One turn of seat p. Returns True when p passed."""
        if self.marked[p]:
            a = yield from self._ask(p, "turn", [("play", c) for c in self._distinct(self.marked[p])])
            self._take(p, a[1], marked_first=True)
            yield from self._play(p, a[1])
            return False
        acted = False
        drawn_this_turn: list[str] = []
        while True:
            actions = []
            if len(self.hands[p]) < self.hand_limit and self.pile:
                actions.append(("draw",))
            playable = Counter(self.hands[p])
            playable.subtract(Counter(drawn_this_turn))  # marked this turn: waits (reading 9)
            actions += [("play", c) for c in self._distinct(self.hands[p]) if playable[c] > 0]
            if not actions:
                if not acted:
                    self.history.append(("pass", self.round, p))
                return not acted
            a = yield from self._ask(p, "turn", actions)
            acted = True
            if a[0] == "play":
                self._take(p, a[1], marked_first=False)
                yield from self._play(p, a[1])
                return False
            before = len(self.marked[p])
            card = yield from self._draw(p)
            drawn_this_turn += self.marked[p][before:]
            if not (self.draw_again and self.cards[card].kind == "instant"):
                return False

    def _take(self, p: int, name: str, marked_first: bool) -> None:
        """Removes one copy of name from p's hand, and its mark (reading 10)."""
        self.hands[p].remove(name)
        held = self.hands[p].count(name) + 1
        marks = self.marked[p].count(name)
        if marks and (marked_first or marks == held):
            self.marked[p].remove(name)

    def _play(self, p: int, name: str):
        self.history.append(("play", self.round, p, name))
        card = self.cards[name]
        plays = self._rec["plays"]
        plays[card.kind] = plays.get(card.kind, 0) + 1
        if card.kind == "event":
            self.timelines[p].append(name)
        elif card.kind in ("good", "escalation"):
            self.common.append(name)
        elif card.kind == "instant":
            self.discards.append(name)
            yield from self._resolve(p, name, drawn=False)
        else:
            yield from self._ending(p, name)

    def _draw(self, p: int, scavenge: bool = False):
        """p draws one card from the pile; returns its name (None when the pile is empty)."""
        if not self.pile:
            return None
        c = self.chance.draw("draw", list(self.pile))
        self.pile.remove(c)
        self.last_drawer = p
        self.history.append(("draw", self.round, p, c, scavenge))
        if not self.pile:
            self.ran_out = True
        card = self.cards[c]
        if card.kind == "instant":
            self.discards.append(c)
            yield from self._resolve(p, c, drawn=True)
            return c
        self.hands[p].append(c)
        if card.kind == "ending":
            self.marked[p].append(c)
            if self._endings(p) >= self.hoard_size:
                yield from self._hoard([p], lone=True)
        return c

    def _endings(self, s: int) -> int:
        return sum(1 for c in self.hands[s] if self.cards[c].kind == "ending")

    # ----------------------------------------------------------------- instantaneous

    def _resolve(self, you: int, name: str, drawn: bool):
        card = self.cards[name]
        self.history.append(("instant", self.round, you, name, drawn))
        effects = self._rec["effects"]
        effects[card.op] = effects.get(card.op, 0) + 1
        n = self.n
        if card.op == "discard_last":
            scope = card.arg
            seats = [s for s in range(n) if scope == "all" or (scope == "self" and s == you)
                     or (scope == "others" and s != you)]
            for s in seats:
                if self.timelines[s]:
                    self.discards.append(self.timelines[s].pop())
        elif card.op == "remove_one":
            options = [("snipe", s, i) for s in range(n) if s != you
                       for i in range(len(self.timelines[s]))]
            if options:
                a = yield from self._ask(you, "snipe", options)
                self.history.append(("snipe", self.round, you, a[1], self.timelines[a[1]][a[2]]))
                self.discards.append(self.timelines[a[1]].pop(a[2]))
        elif card.op == "pass_last":
            step = 1 if card.arg == "left" else -1
            lifted = [(s, self.timelines[s].pop()) for s in range(n) if self.timelines[s]]
            for s, c in lifted:
                self.timelines[(s + step) % n].append(c)
        elif card.op == "clear":
            kinds = {"good": ("good",), "escalation": ("escalation",),
                     "all": ("good", "escalation")}[card.arg]
            keep = [c for c in self.common if self.cards[c].kind not in kinds]
            self.discards += [c for c in self.common if self.cards[c].kind in kinds]
            self.common = keep
        elif card.op == "draw_each":
            k = int(card.arg)
            for i in range(n):
                s = self._left(you, i)
                for _ in range(k):
                    if len(self.hands[s]) < self.hand_limit and self.pile:
                        yield from self._draw(s, scavenge=True)
        else:  # pragma: no cover - Card() rejects other effects
            raise ValueError(name)

    # ----------------------------------------------------------------- endings, hoards

    def _ending(self, p: int, name: str):
        self._rec["endings_played"] += 1
        self.pending_ending, self.ender = name, p
        # rulebook: "an ending card is played by placing it face up at the top of the
        # discard pile and declaring that the game is over" (found by the differential test)
        self.discards.append(name)
        for i in range(1, self.n):
            s = self._left(p, i)
            held = [c for c in self.hands[s] if self.cards[c].kind == "ending"]
            if not held:
                continue
            names = self._distinct(self.marked[s]) if self.marked[s] else self._distinct(held)
            a = yield from self._ask(s, "challenge",
                                     [("challenge", c) for c in names] + [("no_challenge",)])
            if a[0] == "challenge":
                self._take(s, a[1], marked_first=True)
                self.discards.append(a[1])
                self._rec["endings_challenged"] += 1
                self.history.append(("challenge", self.round, s, p, name, a[1]))
                self.pending_ending = self.ender = None
                return
        raise _RoundOver("ending", [name] * self.n, ender=p, ending=name)

    def _check_hoards_all(self):
        hoarders = [self._left(self.dealer, i) for i in range(1, self.n + 1)
                    if self._endings(self._left(self.dealer, i)) >= self.hoard_size]
        if hoarders:
            yield from self._hoard(hoarders, lone=len(hoarders) == 1)

    def _hoard(self, hoarders: list, lone: bool):
        k = -(-self.n // self.hoard_share)
        shown = Counter(c for h in hoarders for c in self.hands[h] if self.cards[c].kind == "ending")
        self.hoard_room = {c: shown[c] * k for c in self._distinct(shown)}
        start = hoarders[0] if lone else self._left(self.dealer)
        self.history.append(("hoard", self.round, hoarders[0], len(hoarders), dict(shown), k))
        picks = [None] * self.n
        for i in range(self.n):
            s = self._left(start, i)
            names = [c for c in self.hoard_room if self.hoard_room[c] > 0]
            if not names:
                continue
            a = yield from self._ask(s, "hoard", [("pick", c) for c in names])
            self.hoard_room[a[1]] -= 1
            picks[s] = a[1]
            self.history.append(("pick", self.round, s, a[1]))
        raise _RoundOver("hoard", picks, picks=picks)

    # ----------------------------------------------------------------- redeal, scoring

    def _redeal(self) -> None:
        n, d = self.n, len(self.discards)
        self._rec["redeals"] += 1
        dealt = d if self.deal_all else (d // n) * n
        rest = self._sorted(self.discards)
        self.discards = []
        for j in range(dealt):
            s = self._left(self.dealer, 1 + j % n)
            c = self.chance.draw("redeal", list(rest))
            rest.remove(c)
            self.hands[s].append(c)
        self.pile = rest
        # the seat: who drew the pile's last card in this turn (None: it ran out earlier)
        self.history.append(("redeal", self.round, self.last_drawer if self.ran_out else None, d, len(rest)))

    def _escalation(self, colour: str) -> int:
        ms = [self.cards[c].factor for c in self.common
              if self.cards[c].kind == "escalation" and colour in self.cards[c].target]
        if self.additive:
            return 1 + sum(m - 1 for m in ms)
        f = 1
        for m in ms:
            f *= m
        return f

    def _score(self, s: int, mod_name) -> int:
        mod = self.cards[mod_name] if mod_name else None
        total = 0
        for c in self.timelines[s]:
            ev = self.cards[c]
            f = self._escalation(ev.colour)
            if mod is not None and mod.mod in ("multiply", "zero") and ev.colour in mod.mod_target:
                f *= mod.mod_value
            total += ev.points * f
        total += sum(self.cards[c].value for c in self.common if self.cards[c].kind == "good")
        if mod is not None and mod.mod == "bonus_most":
            (colour,) = tuple(mod.mod_target)
            counts = [sum(1 for c in t if self.cards[c].colour == colour) for t in self.timelines]
            if counts[s] > 0 and counts[s] == max(counts):
                total += mod.mod_value
        return total
