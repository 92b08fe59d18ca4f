"""Reference engine of Mort de la lumière du jour (package ``mort``), written from the rules only.

STATUS: skeleton

Sources, in order: ``docs/games/mort-de-la-lumiere-du-jour.md`` (the game as simlib plays it),
``/work/shared/rules/mort-de-la-lumiere-du-jour.md`` (engine spec), the French rulebook
``/work/shared/seeds/mort-de-la-lumiere-du-jour-regles.txt``, ``tests/RULES_mort.md`` (rule
table) and ``data/mort/*.toml``. The game's kernels were not read. Plain Python, slow and
obvious; every number comes from ``rules``.

Seats: 0 is the killer, 1..S the survivors (S = ``board.survivors``). Squares are ``(x, y)``
tuples, distance is Manhattan, "within reach" means distance <= ``board.reach`` (0 included).
Every piece is named by its square in actions and observations: a generator, chest, shortcut
or the hatch by its token's square, a pallet by its own square (token + (pallet_dx, pallet_dy)),
a gate by its site (the middle of a side; sides are numbered 0 north (w//2, 0), 1 east
(w-1, h//2), 2 south (w//2, h-1), 3 west (0, h//2)). Tokens are every (x, y) with x, y in
``board.token_lines`` less the lair, listed row by row (y outer, x inner).

Constructor
-----------
``Reference(rules, setup, chance)``: ``rules`` the flat dotted-key dict of a loaded ruleset
(``{k: r.get(k) for k in r.keys()}``); ``setup`` keys (all optional):

* ``"survivors"``: number of survivors (default ``board.survivors``); seats are 0..survivors.

Nothing else: the table is fixed by the rules (one killer, S survivors); everything else is
dealt through ``chance``.

Phases and who decides (``observation()["phase"]``)
---------------------------------------------------
1. ``"setup"``: for ``board.setup_rounds`` rounds the killer, then each survivor in seat
   order, draws a token (chance ``setup_token``) and places a piece of its own there. The
   killer then draws one more token and places his last piece (forced).
2. ``"gates"``: the killer picks two different sides for the gates.
3. ``"pallets"``: survivor 1 places its ``board.pallets_per_survivor`` pallets one by one,
   then survivor 2, ...; then the hands are dealt.
4. ``"play"``: rounds; in a round the killer plays his turn, then each survivor still in
   the game in seat order. Answers to a landed strike (``"answer"`` decisions) interrupt
   the killer's turn: ``to_move()`` is then the answering survivor.
5. ``"over"``.

Action forms (tuples)
---------------------
Setup:

* ``("place", piece)``: put a piece on the token just drawn. Killer: ``"generator"`` or
  ``"shortcut"``; survivor: ``"generator"``, ``"chest"`` or ``"pawn"``. Offered only while
  the player has that piece left; when only one kind is left the piece is placed without
  asking (forced).
* ``("gates", a, b)``: the killer's two gate sides, ``0 <= a < b <= 3``.
* ``("pallet", x, y)``: a survivor puts a standing pallet on square (x, y), which must be
  token + (pallet_dx, pallet_dy) for a token holding no generator and no pallet yet.

Play (the player to move, in its own turn):

* ``("end",)``: end the turn (leftover points lost). When it is the only legal action the
  turn ends without asking (forced).
* ``("spend", value, purpose)``: play one energy card of that point value from the hand on
  a purpose. Killer purposes: ``"move"``, ``"cards"``, ``"strike"``, ``"break"``,
  ``"detour"``; survivor purposes: ``"move"``, ``"cards"``, ``"repair"``, ``"chest"``,
  ``"lever"``, ``"drop"``, ``"escape"``. Offered only when at least one act of that purpose
  is possible now with the points the card gives (so a card never goes to a purpose it
  cannot pay). A purpose left with points is abandoned (points lost; kept in the pool
  under ``pooled_energy``) when the player spends another card or ends the turn. The
  killer while an exhaustion deficit is unpaid: a card worth no more than the deficit is
  offered only as ``("spend", value, "exhaustion")`` (swallowed whole, spent on nothing);
  a bigger card pays the deficit and gives the rest to its purpose.
* ``("purpose", purpose)`` (only under ``pooled_energy``): turn the pool's points to
  another purpose, without a card.
* Acts, each paid from the current purpose's points (offered only while that purpose is
  current and the points cover the act):

  - ``("move", x, y)``: one orthogonal step to (x, y) (purpose ``move``, ``move_cost``; a
    survivor stepping onto a dropped pallet pays ``vault_cost`` more; the killer never
    steps onto a dropped pallet).
  - ``("shortcut", x, y)``: killer on one shortcut's square jumps to the other's (x, y)
    (purpose ``move``, ``shortcut_cost``).
  - ``("strike", seat)``: killer strikes a survivor within reach not guarded by a dropped
    pallet (purpose ``strike``, ``strike_cost``; chance ``strike_roll``).
  - ``("break", x, y)``: killer rolls to break a dropped pallet within reach (purpose
    ``break``, ``break_cost``; chance ``break_roll``).
  - ``("detour", x, y)``: killer walks round a dropped pallet within reach: it guards no one
    for the rest of his turn (purpose ``detour``, ``detour_cost``).
  - ``("repair", x, y)``: survivor rolls at a generator within reach, not repaired, not
    blocked (purpose ``repair``, ``repair_cost``; chance ``repair_roll``).
  - ``("chest", x, y)``: survivor rolls at a chest within reach (purpose ``chest``,
    ``chest_cost``; chance ``chest_roll``).
  - ``("lever", x, y)``: survivor rolls at a powered, shut gate within reach (purpose
    ``lever``, ``gate_cost``; chance ``lever_roll``).
  - ``("drop", x, y)``: survivor drops a standing pallet within reach, not on the killer's
    square (purpose ``drop``, ``drop_cost``).
  - ``("escape", x, y)``: survivor leaves through an open gate within reach (purpose
    ``escape``, ``escape_gate_cost``); its turn ends.
  - ``("play", name, target)``: play a card of one's deck (purpose ``cards``; survivor card
    ``survivor_card_cost``, killer card ``killer_card_cost``). Targets: killer
    ``casse_palette``-like (effect break_pallet): ``(x, y)`` of a dropped pallet within reach;
    sprint: ``None``; block: ``(x, y)`` of an unrepaired, unblocked generator. Survivor
    repair (toolbox): ``(x, y)`` of a generator within reach, not repaired, not blocked;
    heal: the ``seat`` of an injured survivor within reach (itself included); map:
    ``None`` (only while the hatch is not shown); key: ``None`` (a shut hatch within
    reach). Reflex cards have no play of their own. Under ``any_card_repairs`` every
    survivor card may also be played as ``("play", name, (x, y))`` on a generator.

* ``("sprint", x, y)``: killer's orthogonal step paid by sprint squares (from a sprint
  card), any time in his turn, whatever the purpose; needs no energy.
* ``("hatch",)``: survivor standing on an open hatch escapes, free, any time in its turn.
* ``("discard", name)``: a survivor over ``survivor_card_limit`` after a chest picks the
  card to discard (its own decision, inside its turn).

Answers to a landed strike (``to_move()`` is the survivor asked):

* ``("answer", name)``: play a reflex card (free) to cancel the hit; ``("pass",)``: do not.
  The target is asked first, then each other survivor in play within ``help_range`` of the
  target, in seat order; a survivor holding no reflex card is skipped without asking.

Forced steps taken automatically: the killer's last setup piece, a piece when only one kind
is left, skipping a survivor with no reflex, ending a turn when ``("end",)`` is the only
legal action, the hands' deal and every refill.

Observation keys (``observation()``, for the player to move)
------------------------------------------------------------
``seat`` (to move), ``phase``, ``round`` (1-based in play, 0 before), ``turn_seat`` (whose
turn it is), ``killer`` ((x, y)), ``survivors`` (list by seat 1..S of dicts: ``seat``,
``pos`` ((x, y) or None before its pawn is placed), ``wounds``, ``status``
("in_play" | "killed" | "escaped"), ``energy_count``, ``card_count``), ``generators``
(list of dicts ``pos``, ``lamps``, ``repaired``, ``blocked``, sorted by pos),
``repaired``, ``powered``, ``chests`` (sorted list of squares), ``shortcuts`` (sorted
list), ``gates`` (list of dicts ``pos``, ``successes``, ``open``, sorted by pos),
``pallets`` (list of dicts ``pos``, ``state`` "standing" | "dropped", ``detoured``;
broken pallets are gone), ``hatch`` (None or dict ``pos``, ``open``), ``energy_pile``,
``energy_discard``, ``killer_pile``, ``killer_discard``, ``survivor_pile``,
``survivor_discard`` (sizes), ``killer_energy_count``, ``killer_card_count``,
``killer_bonus`` (energy he gains on his next turn's first card, so far),
``killer_deficit`` (exhaustion still unpaid: next turn's while the survivors play, this
turn's during his turn), ``purpose`` (None or the current purpose), ``points``
(the current purpose's points; the pool under ``pooled_energy``), ``sprint`` (sprint
squares left), ``struck`` (sorted seats struck this turn), ``pending`` (None or a dict
describing an open question: ``{"kind": "answer", "target": seat}``,
``{"kind": "discard"}``, ``{"kind": "place", "token": (x, y)}``), and the private part:
``hand_energy`` (sorted point values), ``hand_cards`` (sorted card names) of ``seat``.

Chance kinds (``chance.draw(kind, options)``)
---------------------------------------------
* ``"setup_token"``: the tokens still in the bag (squares), without replacement.
* ``"chest_token"``: a moved chest's new token: every token holding no generator, chest
  (its own old one included), shortcut or hatch (the rulebook's refilled bag with redraws).
* ``"hatch_token"``: the hatch's token (map card or last survivor): every token holding no
  generator, chest or shortcut.
* ``"energy_deck"``: one energy card: the draw pile by card names (``"one"``, ...) with
  repeats; when it is empty the discards become the pile first.
* ``"killer_deck"``, ``"survivor_deck"``: the same for those decks (names from the data).
* ``"repair_roll"``, ``"chest_roll"``, ``"lever_roll"``: the white die, options
  ``dice.white`` as listed (an outcome 1 succeeds, 0 fails).
* ``"strike_roll"``, ``"break_roll"``: the black die, options ``dice.black``.

Deal order (one card at a time): energy ``survivor_energy_hand`` cards to the killer
(``killer_energy_hand`` for him), then each survivor in seat order; then the killer's
``killer_card_hand`` killer cards; then each survivor's ``survivor_start_cards``.

Record keys (``record()``)
--------------------------
``killer_win`` (bool), ``winner`` ("killer" | "survivors"), ``cause`` ("all_out" |
``"timeout"``), ``rounds`` (rounds played), ``kills``, ``escapes``, ``gate_escapes``,
``hatch_escapes``, ``repaired`` (generators), ``status`` (list by seat 1..S),
``landed_hits``, ``killer_gain`` (energy the killer gained from failed repairs),
``pallet_energy`` (energy he spent on break rolls and detours), ``decisions`` (actions
applied), ``repaired_by_round`` and ``killed_by_round`` (lists, index r-1 = end of round r),
``scores`` (list by seat 0..S: 1 for the winning side's seats, else 0).

Readings (choices where the texts are silent)
---------------------------------------------
(filled in with the engine)
"""
from __future__ import annotations

from typing import Any, Mapping

from .chance import Chance


class Reference:
    def __init__(self, rules: Mapping[str, Any], setup: Mapping[str, Any], chance: Chance):
        raise NotImplementedError

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
