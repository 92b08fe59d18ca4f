"""Reference engine of Mort de la lumière du jour (package ``mort``), written from the rules only.

STATUS: complete

Sources, in order: ``docs/games/mort-de-la-lumiere-du-jour.md`` (the game as simlib plays it),
the game's engine specification, the French rulebook, ``tests/RULES_mort.md`` (rule
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
  another purpose, without a card (only while the pool holds points).
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
  - ``("detour", x, y)``: killer walks round a dropped pallet that guards a survivor within
    his reach: it guards no one for the rest of his turn (purpose ``detour``,
    ``detour_cost``; reading 10).
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
``killer_bonus`` and ``killer_deficit`` (this turn's bonus not yet added to a card and
exhaustion not yet paid; 0 outside his turn), ``next_bonus`` and ``next_deficit`` (what
failed repairs and landed hits have piled up for his next turn), ``purpose`` (None or the current purpose), ``points``
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
applied, setup decisions included; forced steps are not counted), ``repaired_by_round`` and ``killed_by_round`` (lists, index r-1 = end of round r),
``scores`` (list by seat 0..S: 1 for the winning side's seats, else 0).

Readings (choices where the texts are silent)
---------------------------------------------
Setup

1. The order is the docs page's sentence order: pieces, then the killer's gates, then the
   pallets, then the deal. The rulebook has the killer close phase 2 with the gates, after
   the survivors' pallets ("le tueur clôt en posant les deux portes"); only the order of
   the decisions differs.
2. Survivor 1 places all its pallets, then survivor 2, ... A pallet goes next to any token
   without a generator (docs) whose pallet square is still empty; the rulebook's "ni contre
   une porte" is not applied (the docs page names only generators; on the reference board
   the east gate (14, 7) is the pallet square of token (13, 7)). A survivor that finds no
   free square places nothing ("il est simplement retiré du jeu").
3. A placement with one kind of piece left is taken without asking (the killer's 4th
   piece always; a survivor's 3rd).

Energy and purposes

4. A purpose is one kind of act (spec default 1: "repeated acts of one kind"): the killer's
   strike, break and detour are three purposes, the survivors' repair, chest, lever, drop
   and escape five. Moving includes the killer's shortcut jump; "cards" is one purpose
   (any number of plays while the points last; killer cards cost ``killer_card_cost``, 0).
5. A purpose ends by itself as soon as its points pay for no act possible now (its points
   lost, or left in the pool under ``pooled_energy``); a card is offered only for a
   purpose it can pay an act of, now.
6. The killer's bonus (failed repairs) and exhaustion (landed hits) for a turn are netted
   into one number; a positive one is added to his first card, a negative one is paid by
   his first cards (a card worth no more than what is left is swallowed whole:
   ``("spend", v, "exhaustion")``; a bigger one pays it and keeps the rest). Bonus or
   deficit left at the end of his turn is forgotten.
7. A survivor draws ``min(survivor_draw, survivor_energy_limit - held)`` energy cards at the
   end of its turn (never over the limit); one who left the game draws nothing. The killer
   draws back to his two hand sizes at the end of his turn.
8. Sprint squares are an action of their own (``("sprint", x, y)``), usable at any time of
   the killer's turn and lost at its end. They are squares of movement (docs: "3 squares
   of movement"), so they also pay the jump between his shortcuts (``shortcut_cost``
   squares), as the move purpose does (the kernel's reading; the texts are silent).

The board

9. "Within reach" (``board.reach``) includes the same square. Pieces never block a square
   and pawns may share squares; only a dropped pallet matters: the killer never steps on
   it, a survivor stepping onto it pays ``move_cost + vault_cost`` for that step.
10. Acts need their target within reach of the actor: repair, chest, lever, drop, gate
    escape, toolbox, medkit (the injured survivor), key (the shut hatch), strike, break,
    "casse palette". Blocage targets any unrepaired, unblocked generator, anywhere. A
    hatch escape needs the survivor on the hatch's square. A detour's target is the
    guard, not the pallet's square: the docs list "a roll to break an adjacent dropped
    pallet" but "walking round a pallet", whose only effect is that it "guards no one";
    so the killer walks round a pallet guarding a survivor within his reach (the
    survivor he could then strike), wherever the pallet is (the kernel's reading).
11. A dropped pallet guards every survivor within reach of its square, unless the killer
    walked round it this turn; a pallet cannot be dropped while the killer is on its
    square; broken pallets leave the board.

Strikes

12. Answering is a decision (``("answer", card)`` or ``("pass",)``): the target first, then
    every other survivor in play within ``help_range`` (Manhattan, from the target) in seat
    order; the first answer cancels the hit. Survivors holding no reflex are skipped.
13. ``one_strike_per_target`` counts strikes rolled (a miss uses it up), as in the spec's
    case 6 (never killed in one turn, injured with 1/2).
14. A landed hit adds one wound; ``hits_to_kill`` wounds kill. A medkit sets the wounds
    back to 0.

Chests, the hatch, gates

15. A chest success: the card is drawn, the discard asked (the survivor chooses among all
    its cards, the new one included), then the chest moves to a token drawn among those
    holding no generator, chest (its own old one included), shortcut or hatch (a redraw is
    a draw among the others); with no such token it stays where it stood (the docs: a full
    board moves nothing). A survivor deck empty even after its reshuffle gives no card.
16. The hatch's token (map card or last survivor) is drawn among the tokens holding no
    generator, chest or shortcut. "Carte" is offered only while the hatch is not shown;
    once open (key or last survivor) the hatch lets any survivor standing on it out, free,
    at any time of its own turn (an action, not automatic); it stays open.
17. With exactly one survivor left in play (after a kill or an escape, or at the start of
    play) the hatch appears open, or a shut one opens.
18. A gate escape ends the survivor's turn, as does a hatch escape (docs: "a survivor who
    escapes ends its turn").
19. Under ``any_card_repairs`` every survivor card may light a lamp on a generator within
    reach (1 lamp, the toolbox its ``amount``), besides its own use.

The end

20. The game ends the moment no survivor is in play (that round counts as played), or
    when round ``rules.timeout`` is over. ``killer_win`` is ``kills >=
    rules.killer_win_kills`` (the reference: all 4 killed); any other end is the
    survivors' win.
21. A deck whose draw pile is empty at a draw takes its discards as the new pile (one
    ``*_deck`` draw at a time: the order of the discards never matters).
"""
from __future__ import annotations

from typing import Any, Mapping

from .chance import Chance

KILLER = 0
SIDES = 4
KILLER_PURPOSES = ("move", "cards", "strike", "break", "detour")
SURVIVOR_PURPOSES = ("move", "cards", "repair", "chest", "lever", "drop", "escape")
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _dist(a, b) -> int:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def _deck_names(rules: Mapping[str, Any], deck: str) -> list[str]:
    """Entity names of a deck file in the ruleset's key order (``energy.one.value`` -> one)."""
    names: list[str] = []
    for k in rules:
        parts = k.split(".")
        if len(parts) == 3 and parts[0] == deck and parts[1] not in names:
            names.append(parts[1])
    return names


class Reference:
    """One game of Mort de la lumière du jour; see the module docstring."""

    # ------------------------------------------------------------------ construction
    def __init__(self, rules: Mapping[str, Any], setup: Mapping[str, Any], chance: Chance):
        self.R = dict(rules)
        self.chance = chance
        g = self.R.get
        self.S = int(setup.get("survivors", g("board.survivors")))
        unknown = set(setup) - {"survivors"}
        if unknown:
            raise ValueError(f"unknown setup keys {sorted(unknown)}")
        self.w, self.h = g("board.board_w"), g("board.board_h")
        self.lair = (g("board.lair_x"), g("board.lair_y"))
        lines = list(g("board.token_lines"))
        self.tokens = [(x, y) for y in lines for x in lines if (x, y) != self.lair]
        w, h = self.w, self.h
        self.gate_sites = [(w // 2, 0), (w - 1, h // 2), (w // 2, h - 1), (0, h // 2)]
        self.reach = g("board.reach")
        self.help_range = g("board.help_range")
        self.pdx, self.pdy = g("board.pallet_dx"), g("board.pallet_dy")
        self.pooled = bool(g("rules.variants.pooled_energy"))
        self.one_strike = bool(g("rules.variants.one_strike_per_target"))
        self.any_card_repairs = bool(g("rules.variants.any_card_repairs"))

        self.evalue = {n: g(f"energy.{n}.value") for n in _deck_names(self.R, "energy")}
        self.keffect = {n: g(f"killer_cards.{n}.effect") for n in _deck_names(self.R, "killer_cards")}
        self.kamount = {n: g(f"killer_cards.{n}.amount") or 0 for n in self.keffect}
        self.seffect = {n: g(f"survivor_cards.{n}.effect") for n in _deck_names(self.R, "survivor_cards")}
        self.samount = {n: g(f"survivor_cards.{n}.amount") or 0 for n in self.seffect}
        self.pile = {
            "energy": [n for n in self.evalue for _ in range(g(f"energy.{n}.count"))],
            "killer": [n for n in self.keffect for _ in range(g(f"killer_cards.{n}.count"))],
            "survivor": [n for n in self.seffect for _ in range(g(f"survivor_cards.{n}.count"))],
        }
        self.discard: dict[str, list[str]] = {"energy": [], "killer": [], "survivor": []}

        seats = range(self.S + 1)
        self.energy: dict[int, list[str]] = {s: [] for s in seats}
        self.cards: dict[int, list[str]] = {s: [] for s in seats}
        self.pos: dict[int, tuple | None] = {s: None for s in seats}
        self.pos[KILLER] = self.lair
        self.wounds = {s: 0 for s in seats if s}
        self.status = {s: "in_play" for s in seats if s}

        self.gens: dict[tuple, dict] = {}
        self.chests: set[tuple] = set()
        self.shortcuts: list[tuple] = []
        self.pallets: dict[tuple, str] = {}
        self.gates: dict[tuple, dict] = {}
        self.hatch: dict | None = None

        # the killer's adjustments: accumulated for his next turn, and this turn's unpaid part
        self.next_bonus = self.next_deficit = 0
        self.bonus = self.deficit = 0
        self.purpose: str | None = None
        self.points = 0
        self.opened = False          # a card was spent this turn (pooled_energy's pool exists)
        self.sprint = 0
        self.detoured: set[tuple] = set()
        self.struck: set[int] = set()
        self.pending: dict | None = None

        self.phase = "setup"
        self.round = 0
        self.turn_seat: int | None = None
        self.turn_queue: list[int] = []
        self.bag = list(self.tokens)
        self.pieces = {KILLER: {"generator": g("board.killer_generators"),
                                "shortcut": g("board.killer_shortcuts")}}
        for s in seats:
            if s:
                self.pieces[s] = {"generator": g("board.survivor_generators"),
                                  "chest": g("board.survivor_chests"), "pawn": 1}
        self.setup_queue = [s for _ in range(g("board.setup_rounds")) for s in seats] + [KILLER]
        self.pallet_queue = [s for s in seats if s for _ in range(g("board.pallets_per_survivor"))]

        self.cause: str | None = None
        self.kills = self.gate_escapes = self.hatch_escapes = 0
        self.landed_hits = self.killer_gain = self.pallet_energy = 0
        self.decisions = 0
        self.repaired_by_round: list[int] = []
        self.killed_by_round: list[int] = []
        # the game's history: one entry a rule event, ``(kind, round, ...)`` (see "History")
        self.history: list[tuple] = []
        self.strikes = self.rolls = self.cards_played = 0
        self.first_hit = 0
        self.end_round = {s: 0 for s in seats if s}
        self.gen_round: dict[tuple, int] = {}
        self.placed_pallets = 0
        self._advance()

    def _log(self, kind: str, *fields) -> None:
        self.history.append((kind, self.round) + fields)

    # ------------------------------------------------------------------ small helpers
    def _in_play(self) -> list[int]:
        return [s for s in range(1, self.S + 1) if self.status[s] == "in_play"]

    def _repaired(self) -> int:
        return sum(1 for gen in self.gens.values() if gen["repaired"])

    def _powered(self) -> bool:
        return self._repaired() >= self.R["board.generators_needed"]

    def _near(self, a, b) -> bool:
        return _dist(a, b) <= self.reach

    def _on_board(self, sq) -> bool:
        return 0 <= sq[0] < self.w and 0 <= sq[1] < self.h

    def _draw(self, deck: str) -> str | None:
        if not self.pile[deck]:
            self.pile[deck], self.discard[deck] = self.discard[deck], []
        if not self.pile[deck]:
            return None
        name = self.chance.draw(f"{deck}_deck", list(self.pile[deck]))
        self.pile[deck].remove(name)
        return name

    def _roll(self, kind: str) -> bool:
        die = "dice.white" if kind in ("repair_roll", "chest_roll", "lever_roll") else "dice.black"
        self.rolls += 1
        return bool(self.chance.draw(kind, list(self.R[die])))

    def _guarded(self, seat: int) -> bool:
        return any(state == "dropped" and sq not in self.detoured and self._near(sq, self.pos[seat])
                   for sq, state in self.pallets.items())

    def _free_tokens(self, *, chests: bool) -> list[tuple]:
        """Tokens holding no generator, shortcut, hatch (and no chest, for ``chests``)."""
        busy = set(self.gens) | set(self.shortcuts)
        if chests:
            busy |= self.chests
        if self.hatch is not None:
            busy.add(self.hatch["pos"])
        return [t for t in self.tokens if t not in busy]

    # ------------------------------------------------------------------ costs and acts
    def _cost(self, act: tuple) -> int:
        R, kind = self.R, act[0]
        if kind == "move":
            if self.turn_seat != KILLER and self.pallets.get((act[1], act[2])) == "dropped":
                return R["rules.move_cost"] + R["rules.vault_cost"]
            return R["rules.move_cost"]
        if kind == "play":
            return R["rules.killer_card_cost"] if self.turn_seat == KILLER else R["rules.survivor_card_cost"]
        return R[{"shortcut": "rules.shortcut_cost", "strike": "rules.strike_cost",
                  "break": "rules.break_cost", "detour": "rules.detour_cost",
                  "repair": "rules.repair_cost", "chest": "rules.chest_cost",
                  "lever": "rules.gate_cost", "drop": "rules.drop_cost",
                  "escape": "rules.escape_gate_cost"}[kind]]

    def _steps(self, seat: int) -> list[tuple]:
        x, y = self.pos[seat]
        out = []
        for dx, dy in STEPS:
            sq = (x + dx, y + dy)
            if not self._on_board(sq):
                continue
            if seat == KILLER and self.pallets.get(sq) == "dropped":
                continue
            out.append(("move",) + sq)
        return out

    def _acts(self, purpose: str) -> list[tuple]:
        """Every act of ``purpose`` the player to move could take now, whatever its cost."""
        seat = self.turn_seat
        me = self.pos[seat]
        acts: list[tuple] = []
        if purpose == "move":
            acts = self._steps(seat)
            jump = self._shortcut_jump() if seat == KILLER else None
            if jump is not None:
                acts.append(("shortcut",) + jump)
        elif purpose == "strike":
            for s in self._in_play():
                if self._near(me, self.pos[s]) and not self._guarded(s) and \
                        not (self.one_strike and s in self.struck):
                    acts.append(("strike", s))
        elif purpose == "break":
            acts = [("break",) + sq for sq, st in sorted(self.pallets.items())
                    if st == "dropped" and self._near(me, sq)]
        elif purpose == "detour":
            acts = [("detour",) + sq for sq, st in sorted(self.pallets.items())
                    if st == "dropped" and sq not in self.detoured and
                    any(self._near(me, self.pos[s]) and self._near(sq, self.pos[s])
                        for s in self._in_play())]
        elif purpose == "repair":
            acts = [("repair",) + sq for sq in sorted(self.gens) if self._repairable(sq)]
        elif purpose == "chest":
            acts = [("chest",) + sq for sq in sorted(self.chests) if self._near(me, sq)]
        elif purpose == "lever":
            if self._powered():
                acts = [("lever",) + sq for sq in sorted(self.gates)
                        if not self.gates[sq]["open"] and self._near(me, sq)]
        elif purpose == "drop":
            acts = [("drop",) + sq for sq, st in sorted(self.pallets.items())
                    if st == "standing" and self._near(me, sq) and sq != self.pos[KILLER]]
        elif purpose == "escape":
            acts = [("escape",) + sq for sq in sorted(self.gates)
                    if self.gates[sq]["open"] and self._near(me, sq)]
        elif purpose == "cards":
            acts = self._card_plays(seat)
        return acts

    def _shortcut_jump(self) -> tuple | None:
        """The other shortcut's square when the killer stands on one (None: no jump)."""
        me = self.pos[KILLER]
        if len(self.shortcuts) == 2 and me in self.shortcuts:
            other = self.shortcuts[1] if me == self.shortcuts[0] else self.shortcuts[0]
            if other != me and self.pallets.get(other) != "dropped":
                return other
        return None

    def _repairable(self, sq) -> bool:
        gen = self.gens[sq]
        return not gen["repaired"] and not gen["blocked"] and self._near(self.pos[self.turn_seat], sq)

    def _card_plays(self, seat: int) -> list[tuple]:
        out: set[tuple] = set()
        me = self.pos[seat]
        for name in set(self.cards[seat]):
            if seat == KILLER:
                eff = self.keffect[name]
                if eff == "break_pallet":
                    out |= {("play", name, sq) for sq, st in self.pallets.items()
                            if st == "dropped" and self._near(me, sq)}
                elif eff == "sprint":
                    out.add(("play", name, None))
                elif eff == "block":
                    out |= {("play", name, sq) for sq, gen in self.gens.items()
                            if not gen["repaired"] and not gen["blocked"]}
                continue
            eff = self.seffect[name]
            if eff == "repair" or self.any_card_repairs:
                out |= {("play", name, sq) for sq in self.gens if self._repairable(sq)}
            if eff == "heal":
                out |= {("play", name, s) for s in self._in_play()
                        if self.wounds[s] > 0 and self._near(me, self.pos[s])}
            elif eff == "map" and self.hatch is None:
                out.add(("play", name, None))
            elif eff == "key" and self.hatch is not None and not self.hatch["open"] \
                    and self._near(me, self.hatch["pos"]):
                out.add(("play", name, None))
        return sorted(out, key=repr)

    def _affordable(self, purpose: str, points: int) -> list[tuple]:
        return [a for a in self._acts(purpose) if self._cost(a) <= points]

    def _card_points(self, value: int) -> int | None:
        """Points a card of ``value`` would bring now (None: swallowed by the deficit)."""
        if self.turn_seat == KILLER and self.deficit > 0:
            if value <= self.deficit:
                return None
            return value - self.deficit
        return value + (self.bonus if self.turn_seat == KILLER else 0)

    # ------------------------------------------------------------------ the interface
    def to_move(self) -> int | None:
        if self.phase == "over":
            return None
        if self.pending is not None and self.pending["kind"] == "answer":
            return self.pending["asked"][0]
        if self.phase == "setup":
            return self.pending["seat"]
        if self.phase == "gates":
            return KILLER
        if self.phase == "pallets":
            return self.pallet_queue[0]
        return self.turn_seat

    def is_over(self) -> bool:
        return self.phase == "over"

    def legal_actions(self) -> list[tuple]:
        if self.phase == "over":
            return []
        p = self.pending
        if self.phase == "setup":
            left = self.pieces[p["seat"]]
            return [("place", k) for k in left if left[k] > 0]
        if self.phase == "gates":
            return [("gates", a, b) for a in range(SIDES) for b in range(a + 1, SIDES)]
        if self.phase == "pallets":
            return [("pallet",) + sq for sq in self._pallet_squares()]
        if p is not None and p["kind"] == "answer":
            seat = p["asked"][0]
            return [("answer", n) for n in sorted(set(self.cards[seat]))
                    if self.seffect[n] == "reflex"] + [("pass",)]
        if p is not None and p["kind"] == "discard":
            return [("discard", n) for n in sorted(set(self.cards[self.turn_seat]))]
        return self._turn_actions()

    def _pallet_squares(self) -> list[tuple]:
        out = []
        for t in self.tokens:
            sq = (t[0] + self.pdx, t[1] + self.pdy)
            if t not in self.gens and sq not in self.pallets and self._on_board(sq):
                out.append(sq)
        return sorted(set(out))

    def _turn_actions(self) -> list[tuple]:
        seat = self.turn_seat
        acts: list[tuple] = []
        if self.purpose is not None:
            acts += self._affordable(self.purpose, self.points)
        if seat == KILLER and self.sprint > 0:
            acts += [("sprint",) + a[1:] for a in self._steps(KILLER)]
            jump = self._shortcut_jump()
            if jump is not None and self.sprint >= self.R["rules.shortcut_cost"]:
                acts.append(("sprint",) + jump)
        if seat != KILLER and self.hatch is not None and self.hatch["open"] \
                and self.pos[seat] == self.hatch["pos"]:
            acts.append(("hatch",))
        purposes = KILLER_PURPOSES if seat == KILLER else SURVIVOR_PURPOSES
        cheapest = {}                # the cheapest act of each purpose possible now
        for pu in purposes:
            costs = [self._cost(a) for a in self._acts(pu)]
            if costs:
                cheapest[pu] = min(costs)
        for v in sorted({self.evalue[n] for n in self.energy[seat]}):
            pts = self._card_points(v)
            if pts is None:
                acts.append(("spend", v, "exhaustion"))
                continue
            if self.pooled:
                pts += self.points
            acts += [("spend", v, pu) for pu in purposes if cheapest.get(pu, pts + 1) <= pts]
        # the pool turns to another purpose only while it holds points: the killer's free
        # cards still need an energy card ("one energy card pays for any number of killer
        # cards"); an empty pool is no card (the kernel's reading; the variant is silent)
        if self.pooled and self.opened and self.points > 0:
            acts += [("purpose", pu) for pu in purposes
                     if pu != self.purpose and cheapest.get(pu, self.points + 1) <= self.points]
        acts.append(("end",))
        return acts

    def apply(self, action: tuple) -> None:
        action = tuple(action)
        if action not in self.legal_actions():
            raise ValueError(f"illegal action {action!r}; legal: {self.legal_actions()!r}")
        self.decisions += 1
        kind = action[0]
        if kind == "place":
            self._place(self.pending["seat"], action[1], self.pending["token"])
            self.pending = None
        elif kind == "gates":
            for side in action[1:]:
                self.gates[self.gate_sites[side]] = {"successes": 0, "open": False}
            self._log("gates", *action[1:])
            self.phase = "pallets"
        elif kind == "pallet":
            self.pallets[(action[1], action[2])] = "standing"
            self.placed_pallets += 1
            self._log("pallet", self.pallet_queue.pop(0), (action[1], action[2]))
        elif kind in ("answer", "pass"):
            self._answer(action)
        elif kind == "discard":
            self.cards[self.turn_seat].remove(action[1])
            self.discard["survivor"].append(action[1])
            self._log("discard", self.turn_seat, action[1])
            self._after_chest()
        elif kind == "end":
            self._end_turn()
        elif kind == "spend":
            self._spend(action[1], action[2])
        elif kind == "purpose":
            self.purpose = action[1]
        elif kind == "sprint":
            jump = _dist(self.pos[KILLER], action[1:3]) > 1
            self.sprint -= self.R["rules.shortcut_cost"] if jump else 1
            self.pos[KILLER] = (action[1], action[2])
            self._log("move", KILLER, (action[1], action[2]), jump)
        elif kind == "hatch":
            self._escape(self.turn_seat, "hatch")
        else:
            self.points -= self._cost(action)
            self._act(action)
        self._advance()

    # ------------------------------------------------------------------ setup
    def _place(self, seat: int, piece: str, token: tuple) -> None:
        self.pieces[seat][piece] -= 1
        self._log("place", seat, piece, token)
        if piece == "generator":
            self.gens[token] = {"lamps": 0, "repaired": False, "blocked": False}
        elif piece == "shortcut":
            self.shortcuts.append(token)
        elif piece == "chest":
            self.chests.add(token)
        else:
            self.pos[seat] = token

    def _deal(self) -> None:
        R = self.R
        for s in range(self.S + 1):
            n = R["rules.killer_energy_hand"] if s == KILLER else R["rules.survivor_energy_hand"]
            self._draw_into(s, "energy", n)
        self._draw_into(KILLER, "killer", R["rules.killer_card_hand"])
        for s in range(1, self.S + 1):
            self._draw_into(s, "survivor", R["rules.survivor_start_cards"])

    def _draw_into(self, seat: int, deck: str, n: int) -> None:
        hand = self.energy[seat] if deck == "energy" else self.cards[seat]
        for _ in range(max(0, n)):
            card = self._draw(deck)
            if card is None:
                return
            self._log("draw", seat, deck, card)
            hand.append(card)

    # ------------------------------------------------------------------ the turn machinery
    def _advance(self) -> None:
        """Run chance and forced steps until a player must decide (or the game is over)."""
        while True:
            if self.phase == "over":
                return
            if self.phase == "setup":
                if self.pending is None:
                    if not self.setup_queue:
                        self.phase = "gates"
                        continue
                    seat = self.setup_queue.pop(0)
                    token = self.chance.draw("setup_token", list(self.bag))
                    self.bag.remove(token)
                    self.pending = {"kind": "place", "seat": seat, "token": token}
                left = [k for k, n in self.pieces[self.pending["seat"]].items() if n > 0]
                if len(left) == 1:
                    self._place(self.pending["seat"], left[0], self.pending["token"])
                    self.pending = None
                    continue
                return
            if self.phase == "gates":
                return
            if self.phase == "pallets":
                if self.pallet_queue and self._pallet_squares():
                    return
                self.pallet_queue = []
                self._deal()
                self.phase = "play"
                self._check_last_survivor()
                if self._check_end():
                    return
                continue
            # play
            p = self.pending
            if p is not None and p["kind"] == "answer":
                while p["asked"] and not any(self.seffect[n] == "reflex" for n in self.cards[p["asked"][0]]):
                    p["asked"].pop(0)
                if p["asked"]:
                    return
                self.pending = None
                self._land_hit(p["target"])
                if self._check_end():
                    return
                self._close_if_stuck()
                continue
            if p is not None:
                return
            if self.turn_seat is None:
                if not self._next_turn():
                    return
                continue
            if self._turn_actions() == [("end",)]:
                self._end_turn()
                continue
            return

    def _next_turn(self) -> bool:
        """Start the next player's turn (a new round when needed); False when the game ended."""
        while True:
            if not self.turn_queue:
                if self.round:
                    self._end_round()
                    if self.phase == "over":
                        return False
                self.round += 1
                self.turn_queue = list(range(self.S + 1))
            seat = self.turn_queue.pop(0)
            if seat == KILLER or self.status[seat] == "in_play":
                break
        self.turn_seat = seat
        self.purpose, self.points, self.opened = None, 0, False
        net = 0
        if seat == KILLER:
            for gen in self.gens.values():
                gen["blocked"] = False
            net = self.next_bonus - self.next_deficit
            self.bonus, self.deficit = max(net, 0), max(-net, 0)
            self.next_bonus = self.next_deficit = 0
            self.sprint = 0
            self.detoured = set()
            self.struck = set()
        self._log("turn", seat, len(self.energy[seat]), net)
        return True

    def _end_round(self) -> None:
        self.repaired_by_round.append(self._repaired())
        self.killed_by_round.append(self.kills)
        if self.round >= self.R["rules.timeout"]:
            self._finish("timeout")

    def _end_turn(self) -> None:
        seat = self.turn_seat
        R = self.R
        if seat == KILLER:
            self._draw_into(KILLER, "energy", R["rules.killer_energy_hand"] - len(self.energy[KILLER]))
            self._draw_into(KILLER, "killer", R["rules.killer_card_hand"] - len(self.cards[KILLER]))
            self.bonus = self.deficit = 0
            self.sprint = 0
            self.detoured = set()
            self.struck = set()
        elif self.status[seat] == "in_play":
            room = R["rules.survivor_energy_limit"] - len(self.energy[seat])
            self._draw_into(seat, "energy", min(R["rules.survivor_draw"], room))
        self.purpose, self.points, self.opened = None, 0, False
        self.turn_seat = None

    def _spend(self, value: int, purpose: str) -> None:
        seat = self.turn_seat
        name = next(n for n in self.energy[seat] if self.evalue[n] == value)
        self.energy[seat].remove(name)
        self.discard["energy"].append(name)
        pts = self._card_points(value)
        if pts is None:
            self.deficit -= value
            self._log("commit", seat, "exhaustion", value, 0)
            return
        self.deficit = 0
        self.bonus = 0
        self.opened = True
        self.points = self.points + pts if self.pooled else pts
        self.purpose = purpose
        self._log("commit", seat, purpose, value, self.points)
        self._close_if_stuck()

    def _close_if_stuck(self) -> None:
        """A purpose whose points pay no act now is over (points lost, or left in the pool)."""
        if self.purpose is not None and self.turn_seat is not None \
                and not self._affordable(self.purpose, self.points):
            self.purpose = None
            if not self.pooled:
                self.points = 0

    # ------------------------------------------------------------------ acts
    def _act(self, action: tuple) -> None:
        kind, seat = action[0], self.turn_seat
        sq = tuple(action[1:3]) if len(action) >= 3 and kind != "play" else None
        R = self.R
        if kind in ("move", "shortcut"):
            self.pos[seat] = sq
            self._log("move", seat, sq, kind == "shortcut")
        elif kind == "strike":
            target = action[1]
            self.struck.add(target)
            self.strikes += 1
            landed = self._roll("strike_roll")
            self._log("strike", target, landed)
            if landed:
                asked = [target] + [s for s in self._in_play() if s != target
                                    and _dist(self.pos[s], self.pos[target]) <= self.help_range]
                self.pending = {"kind": "answer", "target": target, "asked": asked}
                return          # _advance asks the answers, then lands the hit
        elif kind == "break":
            self.pallet_energy += R["rules.break_cost"]
            broken = self._roll("break_roll")
            self._log("break", sq, broken)
            if broken:
                self._remove_pallet(sq)
        elif kind == "detour":
            self.pallet_energy += R["rules.detour_cost"]
            self.detoured.add(sq)
            self._log("detour", sq)
        elif kind == "repair":
            ok = self._roll("repair_roll")
            self._log("roll", seat, "repair", sq, ok)
            if ok:
                self._light(sq, 1)
            else:
                self.next_bonus += R["rules.failed_repair_gain"]
                self.killer_gain += R["rules.failed_repair_gain"]
                self._log("gain", seat, R["rules.failed_repair_gain"], self.next_bonus - self.next_deficit)
        elif kind == "chest":
            ok = self._roll("chest_roll")
            self._log("roll", seat, "chest", sq, ok)
            if ok:
                n = len(self.cards[seat])
                self.pending = {"kind": "discard", "chest": sq, "at": len(self.history)}
                self._draw_into(seat, "survivor", 1)
                self.pending["card"] = self.cards[seat][-1] if len(self.cards[seat]) > n else None
                del self.history[self.pending["at"]:]    # the chest's entry names its card
                if len(self.cards[seat]) <= R["rules.survivor_card_limit"]:
                    self._after_chest()
                return
        elif kind == "lever":
            gate = self.gates[sq]
            ok = self._roll("lever_roll")
            self._log("roll", seat, "lever", sq, ok)
            if ok:
                gate["successes"] += 1
                if gate["successes"] >= R["board.gate_successes"]:
                    gate["open"] = True
                    self._log("gate_open", seat, sq)
        elif kind == "drop":
            self.pallets[sq] = "dropped"
            self._log("drop", seat, sq)
        elif kind == "escape":
            self._escape(seat, "gate")
            return
        elif kind == "play":
            self._play_card(seat, action[1], action[2])
        self._close_if_stuck()

    def _play_card(self, seat: int, name: str, target) -> None:
        self.cards_played += 1
        self._log("card", seat, name, target)
        at = len(self.history) - 1
        if seat == KILLER:
            self.cards[KILLER].remove(name)
            self.discard["killer"].append(name)
            eff = self.keffect[name]
            if eff == "break_pallet":
                self._remove_pallet(target)
            elif eff == "sprint":
                self.sprint += self.kamount[name]
            else:
                self.gens[target]["blocked"] = True
            return
        self.cards[seat].remove(name)
        self.discard["survivor"].append(name)
        eff = self.seffect[name]
        if isinstance(target, tuple):          # a lamp (toolbox, or any card under the variant)
            self._light(target, self.samount[name] if eff == "repair" else 1)
        elif eff == "heal":
            self.wounds[target] = 0
        elif eff == "map":
            self._show_hatch(opened=False)
            if self.hatch is not None:        # the card's entry names where the hatch appeared
                self.history[at] = self.history[at][:4] + (self.hatch["pos"],)
        elif eff == "key":
            self.hatch["open"] = True

    def _light(self, sq: tuple, lamps: int) -> None:
        gen = self.gens[sq]
        gen["lamps"] = min(self.R["board.lamps"], gen["lamps"] + lamps)
        self._log("lamp", self.turn_seat, sq, gen["lamps"])
        if gen["lamps"] >= self.R["board.lamps"]:
            gen["repaired"] = True
            self.gen_round[sq] = self.round
            self._log("repaired", self.turn_seat, sq, self._repaired())
            if self._repaired() == self.R["board.generators_needed"]:
                self._log("powered", self.turn_seat)

    def _remove_pallet(self, sq: tuple) -> None:
        del self.pallets[sq]
        self.detoured.discard(sq)

    def _after_chest(self) -> None:
        old, at, card = self.pending["chest"], self.pending["at"], self.pending["card"]
        self.pending = None
        self.chests.discard(old)
        options = [t for t in self._free_tokens(chests=True) if t != old]
        new = old      # no free token: the chest stays where it stood (docs)
        if options:
            new = self.chance.draw("chest_token", options)
        self.chests.add(new)
        # the history keeps the opening where the chest was opened (before its card's draw
        # and the discard)
        self.history.insert(at, ("chest", self.round, self.turn_seat, card, new))
        self._close_if_stuck()

    def _answer(self, action: tuple) -> None:
        p = self.pending
        seat = p["asked"].pop(0)
        if action[0] == "answer":
            self.cards[seat].remove(action[1])
            self.discard["survivor"].append(action[1])
            self._log("reflex" if seat == p["target"] else "help", seat, p["target"], action[1])
            self.cards_played += 1      # a reflex card answering a strike is a card played
            self.pending = None
            self._close_if_stuck()

    def _land_hit(self, target: int) -> None:
        self.landed_hits += 1
        self.next_deficit += self.R["rules.hit_exhaustion"]
        self.wounds[target] += 1
        self.first_hit = self.first_hit or self.round
        self._log("hit", target, self.wounds[target])
        if self.wounds[target] >= self.R["rules.hits_to_kill"]:
            self.status[target] = "killed"
            self.kills += 1
            self._log("kill", target, self.kills)
            self._leave(target)

    def _escape(self, seat: int, how: str) -> None:
        self.status[seat] = "escaped"
        if how == "gate":
            self.gate_escapes += 1
        else:
            self.hatch_escapes += 1
        self._log("escape", seat, how == "hatch", self.gate_escapes + self.hatch_escapes)
        self._leave(seat)
        if not self._check_end():
            self._end_turn()

    def _leave(self, seat: int) -> None:
        self.end_round[seat] = self.round
        self.discard["energy"] += self.energy[seat]
        self.discard["survivor"] += self.cards[seat]
        self.energy[seat], self.cards[seat] = [], []
        self._check_last_survivor()

    def _check_last_survivor(self) -> None:
        if len(self._in_play()) != 1:
            return
        if self.hatch is None:
            self._show_hatch(opened=True)
        else:
            self.hatch["open"] = True
        if self.hatch is not None:
            self._log("hatch", self.hatch["pos"], True)

    def _show_hatch(self, opened: bool) -> None:
        options = self._free_tokens(chests=True)
        if options:                 # no free token: the piece cannot be placed (rulebook)
            self.hatch = {"pos": self.chance.draw("hatch_token", options), "open": opened}

    def _check_end(self) -> bool:
        if self.phase != "over" and not self._in_play():
            self.repaired_by_round.append(self._repaired())
            self.killed_by_round.append(self.kills)
            self._finish("all_out")
        return self.phase == "over"

    def _finish(self, cause: str) -> None:
        self.phase, self.cause = "over", cause
        self._log("end", cause, self.kills, self.gate_escapes + self.hatch_escapes)
        self.pending = None
        self.turn_seat = None

    # ------------------------------------------------------------------ views
    def observation(self) -> dict:
        seat = self.to_move()
        pend = None
        if self.pending is not None:
            if self.pending["kind"] == "answer":
                pend = {"kind": "answer", "target": self.pending["target"]}
            elif self.pending["kind"] == "discard":
                pend = {"kind": "discard"}
            else:
                pend = {"kind": "place", "token": self.pending["token"]}
        return {
            "seat": seat, "phase": self.phase, "round": self.round, "turn_seat": self.turn_seat,
            "killer": self.pos[KILLER],
            "survivors": [{"seat": s, "pos": self.pos[s], "wounds": self.wounds[s],
                           "status": self.status[s], "energy_count": len(self.energy[s]),
                           "card_count": len(self.cards[s])} for s in range(1, self.S + 1)],
            "generators": [{"pos": sq, "lamps": gen["lamps"], "repaired": gen["repaired"],
                            "blocked": gen["blocked"]} for sq, gen in sorted(self.gens.items())],
            "repaired": self._repaired(), "powered": self._powered(),
            "chests": sorted(self.chests), "shortcuts": sorted(self.shortcuts),
            "gates": [{"pos": sq, "successes": g["successes"], "open": g["open"]}
                      for sq, g in sorted(self.gates.items())],
            "pallets": [{"pos": sq, "state": st, "detoured": sq in self.detoured}
                        for sq, st in sorted(self.pallets.items())],
            "hatch": None if self.hatch is None else dict(self.hatch),
            "energy_pile": len(self.pile["energy"]), "energy_discard": len(self.discard["energy"]),
            "killer_pile": len(self.pile["killer"]), "killer_discard": len(self.discard["killer"]),
            "survivor_pile": len(self.pile["survivor"]),
            "survivor_discard": len(self.discard["survivor"]),
            "killer_energy_count": len(self.energy[KILLER]),
            "killer_card_count": len(self.cards[KILLER]),
            "killer_bonus": self.bonus, "killer_deficit": self.deficit,
            "next_bonus": self.next_bonus, "next_deficit": self.next_deficit,
            "purpose": self.purpose, "points": self.points, "sprint": self.sprint,
            "struck": sorted(self.struck), "pending": pend,
            "hand_energy": sorted(self.evalue[n] for n in self.energy[seat]) if seat is not None else [],
            "hand_cards": sorted(self.cards[seat]) if seat is not None else [],
        }

    def record(self) -> dict:
        win = self.kills >= self.R["rules.killer_win_kills"]
        return {
            "killer_win": win, "winner": "killer" if win else "survivors", "cause": self.cause,
            "rounds": self.round, "kills": self.kills,
            "escapes": self.gate_escapes + self.hatch_escapes,
            "gate_escapes": self.gate_escapes, "hatch_escapes": self.hatch_escapes,
            "repaired": self._repaired(), "status": [self.status[s] for s in range(1, self.S + 1)],
            "landed_hits": self.landed_hits, "killer_gain": self.killer_gain,
            "pallet_energy": self.pallet_energy, "decisions": self.decisions,
            "repaired_by_round": list(self.repaired_by_round),
            "killed_by_round": list(self.killed_by_round),
            "scores": [int(win)] + [int(not win)] * self.S,
            "gates_open": sum(1 for g in self.gates.values() if g["open"]),
            "strikes": self.strikes, "rolls": self.rolls, "cards_played": self.cards_played,
            "pallets_dropped": self.placed_pallets - sum(1 for st in self.pallets.values()
                                                          if st == "standing"),
            "first_hit": self.first_hit,
            "end_cause": self.cause if self.cause == "timeout" else
            "all_killed" if self.kills == self.S else
            "all_escaped" if self.gate_escapes + self.hatch_escapes == self.S else "killed_and_escaped",
            "end_rounds": [self.end_round[s] for s in range(1, self.S + 1)],
            "repaired_rounds": dict(sorted(self.gen_round.items())),
        }
