"""Till Dawn, the reference engine: the rules written a second time in plain Python, from
``docs/games/till-dawn.md`` (primary), ``/work/shared/rules/till-dawn.md`` and the rulebook,
by a reader who has not seen simlib's Till Dawn kernels.  Slow and obvious on purpose.

STATUS: skeleton (the interface and this docstring are final; the engine is being written)

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

Flow (one night)
----------------
Night start: every vampire active, health = its character's ``max_health``, bead at 0
(dusk), the whole hunt deck in the draw pile, all power cards gathered and one dealt to each
seat (seat 0 first), the event deck = every event card not held by a player.

Turn of the current player (the drawer):

1. Draw a hunt card (chance ``hunt_deck``).  An empty draw pile takes the discards back
   (``variants.reshuffle_when_empty``); with the variant off, or nothing to take back, the sun
   rises instead (see 4.).
2. A pending invitation resolves first, against the drawn card's moon: refusers pay
   ``refuse_cost`` blood back to the supply; then, seat by seat from the drawer, a right vote
   gains ``payoff`` (``payoff_hunting`` on a hunting moon), a wrong vote loses ``penalty``
   health.  A vampire at 0 health dies (below).
3. Feeding and vampire-slayer cards open a *play window*: each active vampire in seat order
   from the drawer, holding a card that fits (feeding: a ``double_feeding`` power or event,
   or a ``copy`` power when a ``double_feeding`` power was played face up this night;
   slayer: the same with ``protection``), plays it or passes.  After a play every *other*
   active vampire, in seat order from the player's left, holding an unplayed ``cancel``
   power (or a ``copy`` power when a ``cancel`` power was played face up this night) may
   cancel it; the first who does voids the play (both cards stay spent).  A cancel cannot be
   cancelled.
4. The card resolves.
   - feeding: every active vampire gains ``value`` (``2*value`` when its double stands)
     ``+ favourite_bonus`` if the card's ground is its character's ground; paid seat by seat
     from the drawer.
   - invitation: it becomes pending (its payoff / penalty); every active vampire votes, in
     seat order from the drawer; ``refuse`` needs ``blood >= refuse_cost``.
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
   the next active vampire on the left, who becomes the drawer.  Unless an invitation is
   pending, every active vampire, in seat order from the new drawer, decides: ``stay``,
   ``retire`` (bank all unbanked blood as ``blood * points_per_blood`` coffin points; out for
   the night) or ``heal`` (play a held heal event: ``+amount`` health, capped at the
   maximum; then decide again).  If the new drawer retired, the deck passes on to the next
   active vampire; if none is left, the night ends.

Between nights: the seat to the left of the last drawer starts the next night.  After
``constants.nights`` nights the game ends; the most points wins, ties share the victory.

Supplies: ``blood_supply`` blood tokens and ``coffin_supply`` coffin points.  Unless
``variants.unlimited_tokens``, a payment the supply cannot make in full ends the game at
once: the payee takes what is left, and everyone scores ``coffin + blood * points_per_blood``.

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
``current`` (the drawer), ``card`` (the last hunt card drawn, ``[group, moon, icon]``, or
None), ``draw_pile`` and ``discards`` (card counts), ``invitation`` (None or
``{"payoff", "payoff_hunting", "penalty"}`` when one is pending), ``my_vote`` (or None),
``blood_supply``, ``coffin_supply`` (left), ``played_kinds`` (sorted power kinds played
face up this night), ``power`` (my unplayed power card's name, or None), ``event`` (my event
card's name, or None), ``drawn_event`` (the new event in a ``keep_event`` decision, else
None), ``play`` (in a cancel decision: ``{"seat", "source", "as"}`` of the play answered;
else None), ``window`` (``"double_feeding"`` / ``"protection"`` in a play window, else None),
``players``: one dict per seat: ``character``, ``health``, ``max_health``, ``blood``
(unbanked), ``coffin``, ``status`` (``"active"``, ``"retired"``, ``"dead"``),
``has_power`` (an unplayed power), ``powers_played`` (names of the power cards it played
face up this night), ``has_event``.

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
   cancelled play is spent.  Cancel answers only plays in a window (doubling / protection),
   not heal ("any other vampire may then cancel the play": docs, Defaults).  Heal cannot be
   cancelled and may be played at full health (it then does nothing).
4. ``copy`` acts as any power kind played face up this night by anyone, cancelled plays
   included ("can be used on any power that has been played that night"), ``cancel``
   included.
5. The invitation's votes are taken right after the invitation card resolves, before its
   event icon (if any).  Refusing is paid when the invitation resolves.
6. The event icon gives the drawer an event even if the card killed it, or the sun rose on
   it (the rulebook ties the draw to the card, and events are kept between nights).  An
   empty event deck gives nothing.  Events played or discarded return to the event deck
   between nights ("Shuffle the Events Deck").
7. Running out: a payment (blood to a vampire, coffin points to a retiring one) the supply
   cannot make in full ends the game at once; a supply left at exactly 0 ends it only at
   the next payment.  A blood payee takes the tokens left; a retiring vampire whose points
   the coffin supply cannot cover keeps its blood in hand (it scores the same).
8. With ``reshuffle_when_empty`` off the sun rises when a draw finds the pile empty.
9. The next night's starter is the seat to the left of the last drawer ("the player who
   would have drawn next"); all vampires are active again at the new night.
10. A pending invitation dies with its night.
"""
from __future__ import annotations

from typing import Any, Mapping

MOONS = ("blood", "blue", "hunting")


class Reference:
    def __init__(self, rules: Mapping[str, Any], setup: Mapping[str, Any], chance) -> None:
        raise NotImplementedError("skeleton")

    def to_move(self) -> int | None:
        raise NotImplementedError

    def legal_actions(self) -> list[tuple]:
        raise NotImplementedError

    def apply(self, action: tuple) -> None:
        raise NotImplementedError

    def observation(self) -> dict:
        raise NotImplementedError

    def is_over(self) -> bool:
        raise NotImplementedError

    def record(self) -> dict:
        raise NotImplementedError
