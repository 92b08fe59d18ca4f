"""Till Dawn, the reference engine: the rules written a second time in plain Python, from
``docs/games/till-dawn.md`` (primary), the game's engine specification and the rulebook,
by a reader who has not seen simlib's Till Dawn kernels.  Slow and obvious on purpose.

STATUS: complete

Construction
------------
``Reference(rules, setup, chance)``

* ``rules``: flat dict, dotted key -> value, as ``{k: r.get(k) for k in r.keys()}`` of a
  loaded Till Dawn ruleset.  Every number is read from it: nights, track length, favourite
  bonus, refuse cost, points per blood, both supplies, the variants, the hunt card groups
  (kind, value, ground, moons, event icons, payoffs, penalty, returns), the characters, the
  power and event cards.  Group / character / card order is the order of the keys.
* ``setup`` keys:
    - ``players`` (int, required): seats 0..players-1; seat s+1 sits to the left of seat s.
    - ``characters`` (optional list of character names, one per seat): when absent, each
      seat in order 0, 1, ... is dealt one at random (chance ``character_deal``).
    - ``first_player`` (optional int, default 0): the seat that draws first in night 1;
      the string ``"random"`` draws it (chance ``first_player``).
    - ``supply_rule`` (optional, default ``"partial"``): how a blood payment the supply
      cannot cover ends the game (reading 7): ``"partial"`` the payee takes the tokens
      left; ``"all_or_nothing"`` the payee takes nothing; ``"whole_card"`` a card's (or an
      invitation's) blood payments are summed first, and if the supply cannot cover the sum
      nobody is paid.  In every rule the game then ends at once.

Flow (one night)
----------------
Night start: every vampire active, health = its character's ``max_health``, bead at 0
(dusk), the whole hunt deck in the draw pile, all power cards gathered and one dealt to each
seat (seat 0 first), the event deck = every event card not held by a player.

Turn of the current player (the drawer):

1. Draw a hunt card (chance ``hunt_deck``).  An empty draw pile takes the discards back
   (``variants.reshuffle_when_empty``); with the variant off, or nothing to take back, the sun
   rises instead (see 4.).
2. A pending invitation resolves first, against the drawn card's moon (refusers paid
   ``refuse_cost`` blood back to the supply as they voted): seat by seat from the drawer, a right vote
   gains ``payoff`` (``payoff_hunting`` on a hunting moon), a wrong vote loses ``penalty``
   health.  A vampire at 0 health dies (below).
3. Feeding and vampire-slayer cards open a *play window*: each active vampire in seat order
   from the drawer, holding a card that fits (feeding: a ``double_feeding`` power or event,
   or a ``copy`` power when a ``double_feeding`` power was played face up this night;
   slayer: the same with ``protection``), plays it or passes.  After a play every *other*
   active vampire, in seat order from the current player, holding an unplayed ``cancel``
   power (or a ``copy`` power when a ``cancel`` power was played face up this night) may
   cancel it; the first who does voids the play (both cards stay spent).  A cancel cannot be
   cancelled.
4. The card resolves.
   - feeding: every active vampire gains ``value`` (``2*value`` when its double stands)
     ``+ favourite_bonus`` if the card's ground is its character's ground; paid seat by seat
     from the drawer.
   - invitation: it becomes pending (its payoff / penalty); every active vampire votes, in
     seat order from the drawer; ``refuse`` needs ``blood >= max(1, refuse_cost)`` and pays
     ``refuse_cost`` at once.
   - night_lingers: the bead moves back ``value`` (not below 0).
   - sun_rising: the bead moves forward ``value``; at ``>= track_length`` the sun rises:
     every active vampire loses its unbanked blood (back to the supply) and the night ends.
   - vampire_slayer: every active vampire without a standing protection loses ``value``.
   - werewolf: the drawer (if active) loses ``value`` health; the card goes back into the
     draw pile (``returns``), not to the discards.
   - A vampire at 0 health dies: it loses its unbanked blood (back to the supply) and is out
     for the night.
5. Event icon: the drawer draws an event (chance ``event_deck``) if the event deck holds
   one.  Holding one already, it keeps one of the two (action ``keep_event``); the other is
   discarded.
6. The night ends when no vampire is active (or the sun rose).  Otherwise the deck passes to
   the next active vampire on the left, who becomes the current player (the drawer to be).
   Unless an invitation is pending, every active vampire, in seat order from the new drawer,
   decides: ``stay``, ``retire`` (bank all unbanked blood as ``blood * points_per_blood``
   coffin points; out for the night) or ``heal`` (below its maximum health, play a held heal
   event: other vampires may cancel it as in 3.; if not cancelled ``+amount`` health, capped
   at the maximum; then decide again).  If the new drawer retired, the deck passes on to the
   next active vampire; if none is left, the night ends.

Between nights: the seat to the left of the last drawer starts the next night, or, when
every vampire retired in the decisions, the seat the deck had passed to.  After
``constants.nights`` nights the game ends; the most points wins, ties share the victory.

Supplies: ``blood_supply`` blood tokens and ``coffin_supply`` coffin points.  Unless
``variants.unlimited_tokens``, a payment the supply cannot make in full ends the game at
once (``setup["supply_rule"]`` says who is paid first), and everyone scores
``coffin + blood * points_per_blood``.

Actions (tuples)
----------------
* ``("play", "power")`` / ``("play", "event")``: in a play window, play the held power
  (``double_feeding`` / ``protection``, or ``copy`` acting as one) or the held event.
* ``("cancel",)``: answer a play with the held ``cancel`` power (or ``copy`` acting as one).
* ``("pass",)``: decline a play window or a cancel.
* ``("vote", m)``: ``m`` in ``"blood"``, ``"blue"``, ``"hunting"``, ``"refuse"``.
* ``("keep_event", name)``: keep the event card ``name`` (an ``events.toml`` entry name);
  the one not kept is discarded.
* ``("stay",)``, ``("retire",)``, ``("heal",)``: the decision phase.

Forced steps, taken without asking: any decision with exactly one legal action (a play
window or cancel for a seat holding nothing that fits is skipped; ``keep_event`` between two
cards of one name).

Observation keys (the seat to move's view)
------------------------------------------
``seat`` (to move, or None), ``decision`` (``"play"``, ``"cancel"``, ``"vote"``,
``"keep_event"``, ``"decide"`` or None), ``night`` (1-based), ``track``, ``track_length``,
``current`` (the holder of the hunt deck: the drawer, then the next drawer once the deck
has passed), ``card`` (the last hunt card drawn, ``[group, moon, icon]``, or
None), ``draw_pile`` and ``discards`` (card counts), ``hunt_left`` (the draw pile's
``{(group, moon, icon): count}``), ``invitation`` (None or
``{"payoff", "payoff_hunting", "penalty"}`` when one is pending), ``my_vote`` (or None),
``blood_supply``, ``coffin_supply`` (left; under ``unlimited_tokens`` they count on below
0, as substitute tokens), ``played_kinds`` (sorted power kinds played
face up this night), ``power`` (my unplayed power card's name, or None), ``event`` (my event
card's name, or None), ``drawn_event`` (the new event in a ``keep_event`` decision, else
None), ``play`` (in a cancel decision: ``{"seat", "source", "as"}`` of the play answered;
else None), ``window`` (``"double_feeding"`` / ``"protection"`` in a play window, else None),
``players``: one dict per seat: ``character``, ``health``, ``max_health``, ``blood``
(unbanked), ``coffin``, ``status`` (``"active"``, ``"retired"``, ``"dead"``, or ``"caught"``: caught
active by the sunrise),
``has_power`` (an unplayed power), ``powers_played`` (names of the power cards it played
face up this night), ``has_event``.

History
-------
``history``: what happened, in order, one tuple ``(what, night, seat, ...)`` each:
``("night", n, first drawer)``, ``("draw", n, s, card)``, ``("reshuffle", n, s, cards)``,
``("track", n, s, track after, +/-value)``, ``("werewolf", n, s, value)``,
``("gain", n, s, blood, blood after, doubled 0/1)``, ``("damage", n, s, amount, health after)``,
``("death", n, s, blood lost)``, ``("sunrise", n, s, blood lost)``,
``("retire", n, s, blood, points)``, ``("vote", n, s, moon or "refuse")``,
``("invite", n, s, vote, moon drawn, blood won, penalty)``,
``("play", n, s, "power"/"event", card, card kind, as)``, ``("play", n, s, "heal", card)``,
``("cancel", n, s, seat answered, as, power card)``, ``("heal", n, s, amount, health after)``,
``("event_draw", n, s, drawn, held or None)``, ``("supply", n, s or -1, "blood"/"coffin",
needed, left)``, ``("end", n, -1, cause)``.

Chance kinds
------------
* ``character_deal``: the character names not yet dealt (only without ``setup["characters"]``).
* ``first_player``: the seats (only with ``first_player="random"``).
* ``power_deal``: every night, seat 0 first: the power card names still in the power deck
  (repeats as the counts give).
* ``hunt_deck``: the cards in the draw pile, each ``(group, moon, icon)``: group name,
  ``"blood"``/``"blue"``/``"hunting"``, ``1`` if it carries the event icon else ``0``.
* ``event_deck``: the event card names in the event deck.

Record keys
-----------
``winners`` (seats), ``scores`` (per seat: coffin points, plus blood in hand times
``points_per_blood`` when the supplies ended the game), ``coffin``, ``blood_in_hand`` (per
seat, at the end), ``characters``, ``nights`` (nights played, the one cut short included),
``cause`` (``"nights"``, ``"blood_supply"``, ``"coffin_supply"``), ``cards_drawn``,
``sunrises`` (nights the sun ended), ``deaths``, ``retirements`` (per seat, over the game),
``blood_lost_death``, ``blood_lost_sunrise`` (per seat, over the game).

Readings (the docs page and the rulebook are silent; our choice)
----------------------------------------------------------------
1. Who starts night 1: seat 0 by default (the rulebook does not say).
2. Power deal and character deal go in seat order from seat 0.
3. A play window gives each seat one play per card (a power or an event, not both); a
   cancelled play is spent.  Cancel answers the plays of a window and a heal: "Power cards
   that cancel a played card can only be played on the card most recently played"
   (rulebook, Powers); cancellers are asked in seat order from the current player (the
   order of the play window; the rulebook gives none).  Heal is offered only below the
   maximum health (at full health it would only spend the card).  These follow simlib's
   kernels, checked by tests/test_differential_till_dawn.py.
4. ``copy`` acts as any power kind played face up this night by anyone, cancelled plays
   included ("can be used on any power that has been played that night"), ``cancel``
   included.
5. The invitation's votes are taken right after the invitation card resolves, before its
   event icon (if any).  Refusing is paid as the vote is cast (simlib's kernels; the votes
   are secret, so a table may rather pay it at the reveal: it changes only what the others
   see of the refuser's blood, and the charge when the night ends before the reveal).
6. The event icon gives the drawer an event even if the card killed it, or the sun rose on
   it (the rulebook ties the draw to the card, and events are kept between nights).  An
   empty event deck gives nothing.  Events played or discarded return to the event deck
   between nights ("Shuffle the Events Deck").
7. Running out: a payment (blood to a vampire, coffin points to a retiring one) the supply
   cannot make in full ends the game at once; a supply left at exactly 0 ends it only at
   the next payment.  A blood payee takes the tokens left (``supply_rule="partial"``, the
   FAQ read literally: the tokens run out in the payer's hand); the other two rules are
   offered for comparison (simlib's kernels pay a card whole or not at all: ``whole_card``,
   which the differential test plays).  Payments go seat by seat from the drawer.  A retiring vampire
   whose points the coffin supply cannot cover keeps its blood in hand (it scores the
   same either way).
8. With ``reshuffle_when_empty`` off the sun rises when a draw finds the pile empty.
9. The next night's starter is "the player who would have drawn next": the seat to the left
   of the last drawer after a sunrise or when the card left nobody active; when everyone
   retired in the decisions, the seat the deck had been passed to (Decision Phase 1: the
   deck passes to the next active player before anyone decides).  All vampires are active
   again at the new night.
10. A pending invitation dies with its night.
"""
from __future__ import annotations

from typing import Any, Iterator, Mapping

MOONS = ("blood", "blue", "hunting")
FEEDING, INVITATION, LINGERS, SUN, SLAYER, WEREWOLF = (
    "feeding", "invitation", "night_lingers", "sun_rising", "vampire_slayer", "werewolf")
ACTIVE, RETIRED, DEAD, CAUGHT = "active", "retired", "dead", "caught"


class _SupplyOut(Exception):
    """A supply could not make a payment in full: the game ends at once."""

    def __init__(self, cause: str):
        super().__init__(cause)
        self.cause = cause


def _entries(rules: Mapping[str, Any], section: str, field: str) -> list[str]:
    """Entry names of ``section`` in key order (``<section>.<name>.<field>`` keys)."""
    out = []
    for k in rules:
        parts = k.split(".")
        if len(parts) == 3 and parts[0] == section and parts[2] == field and parts[1] not in out:
            out.append(parts[1])
    return out


class Reference:
    """One game of Till Dawn; see the module docstring."""

    # ------------------------------------------------------------------ setup
    def __init__(self, rules: Mapping[str, Any], setup: Mapping[str, Any], chance) -> None:
        r = dict(rules)
        self.chance = chance
        c = "constants."
        self.n_nights = int(r[c + "nights"])
        self.track_length = int(r[c + "track_length"])
        self.fav_bonus = int(r[c + "favourite_bonus"])
        self.refuse_cost = int(r[c + "refuse_cost"])
        self.ppb = int(r[c + "points_per_blood"])
        self.unlimited = bool(r[c + "variants.unlimited_tokens"])
        self.reshuffle = bool(r[c + "variants.reshuffle_when_empty"])

        # hunt deck: one entry per card, (group, moon, icon)
        self.groups: dict[str, dict] = {}
        self.full_deck: list[tuple] = []
        for g in _entries(r, "hunt", "kind"):
            h = f"hunt.{g}."
            self.groups[g] = {
                "kind": r[h + "kind"], "value": int(r.get(h + "value", 0) or 0),
                "ground": r.get(h + "ground", "") or "",
                "payoff": int(r.get(h + "payoff", 0) or 0),
                "payoff_hunting": int(r.get(h + "payoff_hunting", 0) or 0),
                "penalty": int(r.get(h + "penalty", 0) or 0),
                "returns": bool(r.get(h + "returns", False)),
            }
            moons, icons = r[h + "moons"], r[h + "event_icons"]
            for m in MOONS:
                n_icon = int(icons.get(m, 0))
                n_all = int(moons.get(m, 0))
                self.full_deck += [(g, m, 0)] * (n_all - n_icon) + [(g, m, 1)] * n_icon

        self.char_names = _entries(r, "characters", "max_health")
        self.char_health = {ch: int(r[f"characters.{ch}.max_health"]) for ch in self.char_names}
        self.char_ground = {ch: r[f"characters.{ch}.ground"] for ch in self.char_names}

        self.power_kind: dict[str, str] = {}
        self.full_powers: list[str] = []
        for p in _entries(r, "powers", "kind"):
            self.power_kind[p] = r[f"powers.{p}.kind"]
            self.full_powers += [p] * int(r[f"powers.{p}.count"])
        self.event_kind: dict[str, str] = {}
        self.event_amount: dict[str, int] = {}
        self.full_events: list[str] = []
        for e in _entries(r, "events", "kind"):
            self.event_kind[e] = r[f"events.{e}.kind"]
            self.event_amount[e] = int(r.get(f"events.{e}.amount", 0) or 0)
            self.full_events += [e] * int(r[f"events.{e}.count"])

        n = int(setup["players"])
        if not 1 <= n <= len(self.char_names):
            raise ValueError(f"{n} players; the ruleset has {len(self.char_names)} characters")
        if len(self.full_powers) < n:
            raise ValueError(f"{n} players need {n} power cards; there are {len(self.full_powers)}")
        self.n = n
        if setup.get("characters") is not None:
            chars = list(setup["characters"])
            if len(chars) != n or any(ch not in self.char_names for ch in chars):
                raise ValueError(f"characters {chars!r}: one per seat among {self.char_names}")
        else:
            left = list(self.char_names)
            chars = []
            for _ in range(n):
                ch = chance.draw("character_deal", list(left))
                left.remove(ch)
                chars.append(ch)
        self.characters = chars
        first = setup.get("first_player", 0)
        if first == "random":
            first = chance.draw("first_player", list(range(n)))
        if not 0 <= int(first) < n:
            raise ValueError(f"first_player {first!r} is not a seat")
        self.starter = int(first)
        self.supply_rule = setup.get("supply_rule", "partial")
        if self.supply_rule not in ("partial", "all_or_nothing", "whole_card"):
            raise ValueError(f"supply_rule {self.supply_rule!r}")

        # game state
        self.blood_left = int(r[c + "blood_supply"])
        self.coffin_left = int(r[c + "coffin_supply"])
        self.blood = [0] * n
        self.coffin = [0] * n
        self.health = [self.char_health[ch] for ch in chars]
        self.status = [ACTIVE] * n
        self.power: list[str | None] = [None] * n          # unplayed power card
        self.powers_played: list[list[str]] = [[] for _ in range(n)]
        self.event: list[str | None] = [None] * n
        self.played_kinds: set[str] = set()
        self.pile: list[tuple] = []
        self.discards: list[tuple] = []
        self.event_deck: list[str] = []
        self.event_discards: list[str] = []
        self.invitation: dict | None = None
        self.votes: dict[int, str] = {}
        self.night = 0
        self.track = 0
        self.current = self.starter
        self.card: tuple | None = None
        self.cause: str | None = None
        self.over = False
        # counts for the record
        self.cards_drawn = 0
        self.sunrises = 0
        self.deaths = [0] * n
        self.retirements = [0] * n
        self.blood_lost_death = [0] * n
        self.blood_lost_sunrise = [0] * n
        # what happened, in order: (what, night, seat, details...) tuples, for a game log
        self.history: list[tuple] = []
        # the pending decision: (seat, kind, actions, context)
        self._pending: tuple | None = None
        self._gen = self._game()
        self._advance(None)

    # ------------------------------------------------------------------ interface
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
        self._advance(action)

    def is_over(self) -> bool:
        return self.over

    def observation(self) -> dict:
        seat = self.to_move()
        kind = ctx = None
        if self._pending is not None:
            kind, ctx = self._pending[1], self._pending[3]
        ctx = ctx or {}
        inv = None
        if self.invitation is not None:
            inv = {k: self.invitation[k] for k in ("payoff", "payoff_hunting", "penalty")}
        players = []
        for s in range(self.n):
            ch = self.characters[s]
            players.append({
                "character": ch, "health": self.health[s], "max_health": self.char_health[ch],
                "blood": self.blood[s], "coffin": self.coffin[s], "status": self.status[s],
                "has_power": self.power[s] is not None,
                "powers_played": list(self.powers_played[s]),
                "has_event": self.event[s] is not None,
            })
        mine = seat is not None
        return {
            "seat": seat, "decision": kind, "night": self.night, "track": self.track,
            "track_length": self.track_length, "current": self.current,
            "card": list(self.card) if self.card is not None else None,
            "draw_pile": len(self.pile), "discards": len(self.discards),
            "hunt_left": {c: self.pile.count(c) for c in set(self.pile)},
            "invitation": inv,
            "my_vote": self.votes.get(seat) if mine else None,
            "blood_supply": self.blood_left, "coffin_supply": self.coffin_left,
            "played_kinds": sorted(self.played_kinds),
            "power": self.power[seat] if mine else None,
            "event": self.event[seat] if mine else None,
            "drawn_event": ctx.get("drawn_event"),
            "play": dict(ctx["play"]) if ctx.get("play") else None,
            "window": ctx.get("window"),
            "players": players,
        }

    def record(self) -> dict:
        scores = [self.coffin[s] + self.blood[s] * self.ppb for s in range(self.n)]
        best = max(scores)
        return {
            "winners": [s for s in range(self.n) if scores[s] == best],
            "scores": scores,
            "coffin": list(self.coffin),
            "blood_in_hand": list(self.blood),
            "characters": list(self.characters),
            "nights": self.night,
            "cause": self.cause,
            "cards_drawn": self.cards_drawn,
            "sunrises": self.sunrises,
            "deaths": list(self.deaths),
            "retirements": list(self.retirements),
            "blood_lost_death": list(self.blood_lost_death),
            "blood_lost_sunrise": list(self.blood_lost_sunrise),
        }

    # ------------------------------------------------------------------ driver
    def _advance(self, value) -> None:
        """Run the game on to its next real decision (one legal action is taken at once)."""
        while True:
            try:
                req = self._gen.send(value)
            except StopIteration:
                self._pending = None
                return
            if len(req[2]) == 1:
                value = req[2][0]
                continue
            self._pending = req
            return

    def _game(self) -> Iterator:
        try:
            for night in range(1, self.n_nights + 1):
                self.night = night
                yield from self._night()
            self.cause = "nights"
        except _SupplyOut as out:
            self.cause = out.cause
        self.history.append(("end", self.night, -1, self.cause))
        self.over = True

    # ------------------------------------------------------------------ helpers
    def _seats_from(self, first: int) -> list[int]:
        return [(first + k) % self.n for k in range(self.n)]

    def _next_active(self, s: int) -> int | None:
        """The first active seat on ``s``'s left (``s`` itself last)."""
        for t in self._seats_from(s + 1):
            if self.status[t] == ACTIVE:
                return t
        return None

    def _anyone_active(self) -> bool:
        return ACTIVE in self.status

    def _gain(self, s: int, amount: int) -> None:
        if self.unlimited:             # substitute tokens: the count may go below 0
            self.blood[s] += amount
            self.blood_left -= amount
            return
        if amount > self.blood_left:
            self.history.append(("supply", self.night, -1, "blood", amount, self.blood_left))
            if self.supply_rule == "partial":
                self.blood[s] += self.blood_left
                self.blood_left = 0
            raise _SupplyOut("blood_supply")
        self.blood[s] += amount
        self.blood_left -= amount

    def _check_whole(self, gains: list[tuple[int, int]]) -> None:
        """Under ``supply_rule="whole_card"`` a card's payments are made all or none."""
        if (self.supply_rule == "whole_card" and not self.unlimited
                and sum(a for _, a in gains) > self.blood_left):
            self.history.append(("supply", self.night, -1, "blood",
                                 sum(a for _, a in gains), self.blood_left))
            raise _SupplyOut("blood_supply")

    def _pay_back(self, s: int, amount: int) -> None:
        """Blood from a vampire's hand back to the supply."""
        self.blood[s] -= amount
        self.blood_left += amount

    def _hurt(self, s: int, amount: int) -> None:
        if self.status[s] != ACTIVE or amount <= 0:
            return
        self.health[s] = max(0, self.health[s] - amount)
        self.history.append(("damage", self.night, s, amount, self.health[s]))
        if self.health[s] == 0:
            self.history.append(("death", self.night, s, self.blood[s]))
            self.status[s] = DEAD
            self.deaths[s] += 1
            self.blood_lost_death[s] += self.blood[s]
            self._pay_back(s, self.blood[s])

    def _retire(self, s: int) -> None:
        points = self.blood[s] * self.ppb
        self.history.append(("retire", self.night, s, self.blood[s], points))
        if not self.unlimited and points > self.coffin_left:
            self.history.append(("supply", self.night, s, "coffin", points, self.coffin_left))
            # it did go back to its coffin (a retirement) but cannot bank: blood in hand
            self.status[s] = RETIRED
            self.retirements[s] += 1
            raise _SupplyOut("coffin_supply")
        self.coffin[s] += points
        self.coffin_left -= points
        self._pay_back(s, self.blood[s])
        self.status[s] = RETIRED
        self.retirements[s] += 1

    def _sunrise(self) -> None:
        self.sunrises += 1
        for s in range(self.n):
            if self.status[s] == ACTIVE:
                self.history.append(("sunrise", self.night, s, self.blood[s]))
                self.blood_lost_sunrise[s] += self.blood[s]
                self._pay_back(s, self.blood[s])
                self.status[s] = CAUGHT

    # ------------------------------------------------------------------ a night
    def _start_night(self) -> None:
        self.track = 0
        self.status = [ACTIVE] * self.n
        self.health = [self.char_health[ch] for ch in self.characters]
        self.pile = list(self.full_deck)
        self.discards = []
        self.card = None
        self.invitation = None
        self.votes = {}
        self.played_kinds = set()
        self.powers_played = [[] for _ in range(self.n)]
        deck = list(self.full_powers)
        self.power = [None] * self.n
        for s in range(self.n):
            p = self.chance.draw("power_deal", list(deck))
            deck.remove(p)
            self.power[s] = p
        self.event_deck = list(self.full_events)
        for e in self.event:
            if e is not None:
                self.event_deck.remove(e)
        self.event_discards = []

    def _draw(self) -> tuple | None:
        if not self.pile:
            if self.reshuffle and self.discards:
                self.history.append(("reshuffle", self.night, self.current, len(self.discards)))
                self.pile, self.discards = self.discards, []
            else:
                return None
        card = self.chance.draw("hunt_deck", list(self.pile))
        self.pile.remove(card)
        self.cards_drawn += 1
        self.history.append(("draw", self.night, self.current, card))
        return card

    def _night(self) -> Iterator:
        self._start_night()
        drawer = self.starter
        self.history.append(("night", self.night, drawer))
        ends_with = None
        while True:
            self.current = drawer
            card = self._draw()
            if card is None:          # the deck ran out and is not reshuffled: sunrise
                self._sunrise()
                break
            self.card = card
            group, moon, icon = card
            info = self.groups[group]
            kind = info["kind"]
            if self.invitation is not None:
                self._resolve_invitation(drawer, moon)
            standing: set[int] = set()
            if kind == FEEDING:
                standing = yield from self._window(drawer, "double_feeding")
            elif kind == SLAYER:
                standing = yield from self._window(drawer, "protection")
            sun_rose = False
            if kind == FEEDING:
                gains = []
                for s in self._seats_from(drawer):
                    if self.status[s] == ACTIVE:
                        gain = info["value"] * (2 if s in standing else 1)
                        if info["ground"] == self.char_ground[self.characters[s]]:
                            gain += self.fav_bonus
                        gains.append((s, gain))
                self._check_whole(gains)
                for s, gain in gains:
                    self._gain(s, gain)
                    self.history.append(("gain", self.night, s, gain, self.blood[s],
                                         int(s in standing)))
            elif kind == INVITATION:
                self.invitation = dict(info)
                yield from self._votes(drawer)
            elif kind == LINGERS:
                self.track = max(0, self.track - info["value"])
                self.history.append(("track", self.night, drawer, self.track, -info["value"]))
            elif kind == SUN:
                self.track = min(self.track_length, self.track + info["value"])
                self.history.append(("track", self.night, drawer, self.track, info["value"]))
                if self.track >= self.track_length:
                    sun_rose = True
                    self._sunrise()
            elif kind == SLAYER:
                for s in self._seats_from(drawer):
                    if s not in standing:
                        self._hurt(s, info["value"])
            elif kind == WEREWOLF:
                self.history.append(("werewolf", self.night, drawer, info["value"]))
                self._hurt(drawer, info["value"])
            if info["returns"]:
                self.pile.append(card)
            else:
                self.discards.append(card)
            if icon:
                yield from self._event_icon(drawer)
            if sun_rose or not self._anyone_active():
                break
            nxt = self._next_active(drawer)
            if self.invitation is None:
                self.current = nxt  # the deck is passed before the decisions
                yield from self._decisions(nxt)
                if self.status[nxt] != ACTIVE:
                    if self._next_active(nxt) is None:
                        # everyone retired: the deck went left to nxt before the decisions
                        # ("The player with the Hunt Deck passes it to their left to the
                        # next active player", Decision Phase 1), so nxt is "the player who
                        # would have drawn next" (Interlude 4)
                        ends_with = nxt
                        break
                    nxt = self._next_active(nxt)
            drawer = nxt
        self.invitation = None
        self.votes = {}
        self.starter = (self.current + 1) % self.n if ends_with is None else ends_with

    def _window(self, drawer: int, want: str) -> Iterator:
        """Each active seat from the drawer may play a card of kind ``want``; others may
        cancel it.  Returns the seats whose play stands."""
        standing: set[int] = set()
        for s in self._seats_from(drawer):
            if self.status[s] != ACTIVE:
                continue
            acts = []
            p = self.power[s]
            if p is not None and (self.power_kind[p] == want
                                  or (self.power_kind[p] == "copy" and want in self.played_kinds)):
                acts.append(("play", "power"))
            e = self.event[s]
            if e is not None and self.event_kind[e] == want:
                acts.append(("play", "event"))
            if not acts:
                continue
            acts.append(("pass",))
            a = yield (s, "play", acts, {"window": want})
            if a == ("pass",):
                continue
            card = p if a[1] == "power" else e
            kind_played = (self.power_kind if a[1] == "power" else self.event_kind)[card]
            self.history.append(("play", self.night, s, a[1], card, kind_played, want))
            if a[1] == "power":
                self.power[s] = None
                self.powers_played[s].append(p)
                self.played_kinds.add(self.power_kind[p])
            else:
                self.event[s] = None
                self.event_discards.append(e)
            cancelled = yield from self._cancels(s, a[1], want)
            if not cancelled:
                standing.add(s)
        return standing

    def _cancels(self, player: int, source: str, want: str) -> Iterator:
        play = {"seat": player, "source": source, "as": want}
        # asked in seat order from the current player, as the play window is (the rulebook
        # gives no order; simlib's default, docs/games/till-dawn.md)
        for t in self._seats_from(self.current):
            if t == player or self.status[t] != ACTIVE:
                continue
            p = self.power[t]
            if p is None:
                continue
            if not (self.power_kind[p] == "cancel"
                    or (self.power_kind[p] == "copy" and "cancel" in self.played_kinds)):
                continue
            a = yield (t, "cancel", [("cancel",), ("pass",)], {"play": play})
            if a == ("cancel",):
                self.history.append(("cancel", self.night, t, player, want, p))
                self.power[t] = None
                self.powers_played[t].append(p)
                self.played_kinds.add(self.power_kind[p])
                return True
        return False

    def _votes(self, drawer: int) -> Iterator:
        self.votes = {}
        for s in self._seats_from(drawer):
            if self.status[s] != ACTIVE:
                continue
            acts = [("vote", m) for m in MOONS]
            # "You may defy the Elders only if you have at least 1 acrylic Blood Token to
            # spend" (rulebook, Voting Cards): 1 even when refusing costs nothing
            if self.blood[s] >= max(1, self.refuse_cost):
                acts.append(("vote", "refuse"))
            a = yield (s, "vote", acts, {})
            self.history.append(("vote", self.night, s, a[1]))
            self.votes[s] = a[1]
            if a[1] == "refuse":  # paid as the vote is cast (simlib's default)
                self._pay_back(s, self.refuse_cost)

    def _resolve_invitation(self, drawer: int, moon: str) -> None:
        inv, votes = self.invitation, self.votes
        self.invitation, self.votes = None, {}
        pay = inv["payoff_hunting"] if moon == "hunting" else inv["payoff"]
        self._check_whole([(s, pay) for s in self._seats_from(drawer)
                           if votes.get(s) == moon and self.status[s] == ACTIVE])
        for s in self._seats_from(drawer):
            v = votes.get(s)
            if v is None or self.status[s] != ACTIVE:
                continue
            self.history.append(("invite", self.night, s, v, moon, pay if v == moon else 0,
                                 inv["penalty"] if v not in (moon, "refuse") else 0))
            if v == "refuse":
                continue
            if v == moon:
                self._gain(s, pay)
            else:
                self._hurt(s, inv["penalty"])

    def _event_icon(self, s: int) -> Iterator:
        if not self.event_deck:
            return
        drawn = self.chance.draw("event_deck", list(self.event_deck))
        self.event_deck.remove(drawn)
        held = self.event[s]
        self.history.append(("event_draw", self.night, s, drawn, held))
        if held is None:
            self.event[s] = drawn
            return
        acts = [("keep_event", held)]
        if drawn != held:
            acts.append(("keep_event", drawn))
        a = yield (s, "keep_event", acts, {"drawn_event": drawn})
        kept = a[1]
        self.event[s] = kept
        self.event_discards.append(drawn if kept == held else held)

    def _decisions(self, first: int) -> Iterator:
        for s in self._seats_from(first):
            while self.status[s] == ACTIVE:
                acts = [("stay",), ("retire",)]
                e = self.event[s]
                cap = self.char_health[self.characters[s]]
                # a heal at full health would only spend the card: not offered
                if e is not None and self.event_kind[e] == "heal" and self.health[s] < cap:
                    acts.append(("heal",))
                a = yield (s, "decide", acts, {})
                if a == ("heal",):
                    self.history.append(("play", self.night, s, "heal", e))
                    self.event[s] = None
                    self.event_discards.append(e)
                    # a heal is a played card: "Power cards that cancel a played card can
                    # only be played on the card most recently played" (rulebook, Powers)
                    cancelled = yield from self._cancels(s, "event", "heal")
                    if not cancelled:
                        self.health[s] = min(cap, self.health[s] + self.event_amount[e])
                        self.history.append(("heal", self.night, s, self.event_amount[e],
                                             self.health[s]))
                    continue
                if a == ("retire",):
                    self._retire(s)
                break
