"""Mort de la lumière du jour: the numba kernels against the reference engine written apart
from them (``tests/reference/mort.py``), decision by decision (issue #40).

Seeded games are driven through both engines with the same actions (the kernel policies'
choices) and the same chance outcomes (the step Game's ``chance_events()``: setup tokens,
cards drawn, die faces, chest and hatch tokens, fed to the reference as its
``setup_token``, ``*_deck``, ``*_roll``, ``chest_token`` and ``hatch_token`` draws).  After
every decision the legal actions and the observation agree; at the end the records agree
field by field and no scripted outcome is left unused.

Compared observation keys (read from the kernel's state): ``seat``, ``phase``, ``round``,
``turn_seat`` (in play), ``killer``, ``survivors`` (pos once placed, wounds, status,
energy and card counts), ``generators`` (pos, lamps, repaired, blocked), ``repaired``,
``powered``, ``chests``, ``shortcuts``, ``gates``, ``pallets`` (pos and state; ``detoured``
in the killer's turn), ``hatch``, the six pile and discard sizes, the killer's hand sizes,
``next_bonus - next_deficit`` (the kernel keeps one net number), ``killer_bonus -
killer_deficit`` in the killer's turn, ``struck`` in the killer's turn, ``sprint``,
``purpose`` and ``points`` while the kernel spends a card's points, ``pending``,
``hand_energy`` and ``hand_cards`` of the seat to move.  Compared record fields:
``killer_win``, ``rounds``, ``kills``, ``escapes``, ``gate_escapes``, ``hatch_escapes``,
``repaired``, ``status`` (from the kernel's outcomes), ``landed_hits``, ``killer_gain``,
``pallet_energy``, ``cause``, ``repaired_by_round``, ``killed_by_round``.  Not compared:
``decisions`` (the kernel counts its ``stop`` and sprint decisions, which the reference
has not, see below).

The two engines cut a turn into decisions differently; mapped here and nowhere looser:

- the kernel spends a card in two kinds of decisions: in its turn phase it picks a card and
  a purpose (``commit``), then in the commit phase each act or ``stop``.  The reference
  offers the acts of the current purpose beside the next card, the end of the turn, the
  sprint and the hatch in one decision.  In the kernel's turn phase the legal sets are
  compared on the cards, the end, the hatch, the sprint and the pool's purposes; in its
  commit phase on the acts.  The kernel's ``stop`` is no action of the reference (its
  purpose lapses at the next card or the end).
- the sprint: the kernel turns the sprint squares into a move purpose (``sprint_move``),
  then steps; the reference steps ``("sprint", x, y)``.  The kernel's ``sprint_move`` is
  compared with the reference offering a sprint step, its steps with those.
- a card of one effect: the kernel plays the first kind it holds with that effect (a reflex,
  a toolbox); the reference offers one action per kind.  The legal sets are compared with
  the reflex's and the lamp card's name left out; the reference then plays the kernel's.
- a decision with one legal action (a discard when the cards are all of one kind, a last
  pallet square) is taken by the kernel without asking; the driver takes it in the
  reference.  Likewise a kernel ``stop`` that leaves nothing but the end of the turn:
  the kernel ends it without asking, the reference (whose stopped purpose still has
  acts) is ended by the driver.
- the sprint's squares left when the kernel stops sprinting are lost (the kernel spends
  them as one purpose, like a card's points; docs: "spent when he chooses"); the
  reference keeps them for the turn: the driver sets the reference's ``sprint`` to 0
  there (a reading where the texts are silent, in the report).
- an opened chest: the kernel moves it before the discard decision, the reference after
  (the rulebook's order); ``chests`` is not compared during that decision.

Not compared, by the two forms: the reference also offers a sprint step and the hatch
while a purpose is current, the kernel only between purposes (its ``stop`` first); under
``any_card_repairs`` the reference lets the survivor pick the card that lights a lamp,
the kernel burns the toolbox, else its first card.

``SIMLIB_DIFF_GAMES=<n>`` multiplies the number of games (a long run).
"""
from __future__ import annotations

import os

import numpy as np
import pytest

from simlib.games.mort import codes as K
from simlib.games.mort.step import Game
from simlib.games.mort.ruleset import load_ruleset
from tests.reference.chance import ScriptedChance
from tests.reference.mort import Reference

SCALE = max(1, int(os.environ.get("SIMLIB_DIFF_GAMES", "1")))
REF_PURPOSE = {K.Q_MOVE: "move", K.Q_CARDS: "cards", K.Q_REPAIR: "repair", K.Q_CHEST: "chest",
               K.Q_GATE: "lever", K.Q_PALLET: "drop", K.Q_ESCAPE: "escape", K.Q_STRIKE: "strike",
               K.Q_BREAK: "break", K.Q_DETOUR: "detour", K.Q_REST: "exhaustion"}
PIECES = {K.A_PLACE_GEN: "generator", K.A_PLACE_SHORTCUT: "shortcut", K.A_PLACE_CHEST: "chest",
          K.A_PLACE_PAWN: "pawn"}
DICE = {"repair_die": ("repair_roll", "white"), "chest_die": ("chest_roll", "white"),
        "gate_die": ("lever_roll", "white"), "strike_die": ("strike_roll", "black"),
        "break_die": ("break_roll", "black")}
TURN_KINDS = {"end", "hatch", "spend", "purpose"}
STEPS = {K.A_NORTH: (0, -1), K.A_EAST: (1, 0), K.A_SOUTH: (0, 1), K.A_WEST: (-1, 0)}



# the fields of a game log row (``kind, round, seat, a, b, c, d``) a kind leaves empty, as
# ``mort/trace.py`` reads the rows: they must be 0
_EMPTY = {
    K.LG_PLACE: "cd", K.LG_GATES: ("seat", "c", "d"), K.LG_PALLET: "cd", K.LG_TURN: "cd",
    K.LG_ROLL: "d", K.LG_LAMP: "cd", K.LG_REPAIRED: "cd",
    K.LG_POWERED: "abcd", K.LG_GAIN: "cd", K.LG_STRIKE: ("seat", "c", "d"),
    K.LG_REFLEX: "cd", K.LG_HELP: "cd", K.LG_HIT: ("seat", "c", "d"), K.LG_KILL: ("seat", "c", "d"),
    K.LG_ESCAPE: "cd", K.LG_HATCH: ("seat", "c", "d"), K.LG_GATE_OPEN: "bcd", K.LG_DROP: "bcd",
    K.LG_BREAK: ("seat", "c", "d"), K.LG_DETOUR: ("seat", "b", "c", "d"), K.LG_DISCARD: "bcd",
    K.LG_DRAW: "cd", K.LG_END: ("seat", "d"),
}

class Mismatch(AssertionError):
    pass


def _rules_dict(rules) -> dict:
    return {k: rules.get(k) for k in rules.keys()}


# --------------------------------------------------------------------------- adapter
class Driver:
    """One game in both engines: the kernel's step Game, the reference fed by a
    ScriptedChance from the kernel's chance events."""

    def __init__(self, seed: int, game: int, seats: str, rules):
        self.seed, self.game, self.seats = seed, game, seats
        # a traced game keeps every log row (the chance events are read from them alike)
        self.g = Game(seed=seed, game=game, seats=seats, ruleset=rules, trace=True)
        self._S: list | None = None
        self.rules = self.g.rules
        self.flat = self.rules.flat()
        R = _rules_dict(self.rules)
        self.toks = [tuple(int(c) for c in t) for t in self.rules.tokens()]
        self.knames = list(self.rules.names("killer_cards"))
        self.snames = list(self.rules.names("survivor_cards"))
        self.ename = {int(R[f"energy.{n}.value"]): n for n in self.rules.names("energy")}
        self.dice = {"white": list(R["dice.white"]), "black": list(R["dice.black"])}
        self.ns = int(R["board.survivors"])
        self.lamps = int(R["board.lamps"])
        self.dx, self.dy = int(R["board.pallet_dx"]), int(R["board.pallet_dy"])
        self.pooled = bool(R["rules.variants.pooled_energy"])
        self.chance = ScriptedChance()
        self.fed = 0
        self._feed()
        self.ref = Reference(R, {}, self.chance)
        self.sprinting = False           # the kernel spends its sprint squares now
        self.sprinting_before = False
        self.abandoned = False           # the kernel stopped a purpose the reference keeps open
        self.history: list[str] = []
        self.decision = 0
        self.events: list[tuple] = []    # the kernel's log rows as reference history entries
        self._rows = 0
        self._log_rows(self._chest_squares())
        self._auto()

    # ------------------------------------------------------------------ chance
    def _feed(self) -> None:
        ev = self.g.chance_events()
        for kind, v in ev[self.fed:]:
            if kind in ("setup_token", "chest_token", "hatch_token"):
                self.chance.push(kind, self.toks[v])
            elif kind == "energy":
                self.chance.push("energy_deck", self.ename[v])
            elif kind == "killer_card":
                self.chance.push("killer_deck", self.knames[v])
            elif kind == "survivor_card":
                self.chance.push("survivor_deck", self.snames[v])
            else:
                rk, die = DICE[kind]
                self.chance.push(rk, self.dice[die][v])
        self.fed = len(ev)

    # ------------------------------------------------------------------ kernel -> reference
    def st(self, i: int) -> int:
        if self._S is None:       # the kernel's state as Python ints, read once a decision
            self._S = self.g.state.tolist()
        return self._S[i]

    def tok(self, t: int) -> tuple:
        return self.toks[t]

    def gen_sq(self, g: int) -> tuple:
        return self.tok(self.st(K.S_GEN_TOKEN + g))

    def gate_sq(self, k: int) -> tuple:
        side = self.st(K.S_GATE_SIDE + k)
        return (int(self.flat[K.R_GATE_X + side]), int(self.flat[K.R_GATE_Y + side]))

    def pallet_sq(self, p: int) -> tuple:
        return (self.st(K.S_PALLET_X + p), self.st(K.S_PALLET_Y + p))

    def pos(self, s: int) -> tuple:
        return (self.st(K.S_S_X + s), self.st(K.S_S_Y + s))

    def scard(self, s: int, effect: int, any_card: bool = False) -> str:
        """The survivor card the kernel plays for ``effect`` (``card_of_nb``; a lamp under
        ``any_card_repairs``: ``repair_card_nb``)."""
        n = int(self.flat[K.R_PARAMS + K.P_N_SURVIVOR_KINDS])
        held = [k for k in range(n) if self.st(K.S_CARDS + s * K.MAX_K + k) > 0]
        for k in held:
            if int(self.flat[K.R_SK_EFFECT + k]) == effect:
                return self.snames[k]
        if any_card and held:
            return self.snames[held[0]]
        raise Mismatch(f"seat {s} holds no survivor card of effect {effect}")

    def kcard(self, effect: int) -> str:
        for k in range(int(self.flat[K.R_PARAMS + K.P_N_KILLER_KINDS])):
            if self.st(K.S_CARDS + k) > 0 and int(self.flat[K.R_KK_EFFECT + k]) == effect:
                return self.knames[k]
        raise Mismatch(f"the killer holds no killer card of effect {effect}")

    def action(self, a: int) -> tuple:
        """The kernel's action code as a reference action (``None``: none; ``("sprint_move",)``
        and ``("stop",)`` are kernel-only)."""
        ph, s = self.st(K.S_PHASE), self.st(K.S_DECIDER)
        x, y = self.pos(s)
        if a in PIECES:
            return ("place", PIECES[a])
        if K.A_GATES <= a < K.A_GATES + len(K.GATE_PAIRS):
            return ("gates",) + tuple(K.GATE_PAIRS[a - K.A_GATES])
        if K.A_PALLET_AT <= a < K.A_PALLET_AT + K.MAX_TOKENS:
            tx, ty = self.tok(a - K.A_PALLET_AT)
            return ("pallet", tx + self.dx, ty + self.dy)
        if a == K.A_PASS:
            return ("pass",)
        if a in (K.A_REFLEX, K.A_HELP):
            return ("answer", self.scard(s, K.FX_REFLEX))
        if K.A_DISCARD <= a < K.A_DISCARD + K.MAX_K:
            return ("discard", self.snames[a - K.A_DISCARD])
        if a == K.A_END_TURN:
            return ("end",)
        if a == K.A_HATCH:
            return ("hatch",)
        if a == K.A_SPRINT_MOVE:
            return ("sprint_move",)
        if a == K.A_STOP:
            return ("stop",)
        if K.A_POOL <= a < K.A_POOL + K.NQ:
            return ("purpose", REF_PURPOSE[a - K.A_POOL])
        if K.A_COMMIT <= a < K.A_COMMIT + K.NQ * K.MAX_V:
            i = a - K.A_COMMIT
            return ("spend", i % K.MAX_V + 1, REF_PURPOSE[i // K.MAX_V])
        if a in STEPS:
            dx, dy = STEPS[a]
            return ("sprint" if self.sprinting else "move", x + dx, y + dy)
        if a == K.A_SHORTCUT:
            other = [self.tok(self.st(K.S_SHORTCUT_TOKEN + c)) for c in range(2)]
            return ("sprint" if self.sprinting else "shortcut",) + (other[1] if other[0] == (x, y) else other[0])
        for base, size, f in ((K.A_REPAIR, K.MAX_GENS, lambda i: ("repair",) + self.gen_sq(i)),
                              (K.A_TOOLBOX, K.MAX_GENS, lambda i: ("play", self.scard(
                                  s, K.FX_REPAIR, bool(self.flat[K.R_PARAMS + K.P_ANY_CARD_REPAIRS])),
                                  self.gen_sq(i))),
                              (K.A_BLOCK, K.MAX_GENS, lambda i: ("play", self.kcard(K.FX_BLOCK), self.gen_sq(i))),
                              (K.A_CHEST, K.MAX_CHESTS, lambda i: ("chest",) + self.tok(self.st(K.S_CHEST_TOKEN + i))),
                              (K.A_GATE, K.N_GATES, lambda i: ("lever",) + self.gate_sq(i)),
                              (K.A_ESCAPE, K.N_GATES, lambda i: ("escape",) + self.gate_sq(i)),
                              (K.A_DROP, K.MAX_PALLETS, lambda i: ("drop",) + self.pallet_sq(i)),
                              (K.A_BREAK, K.MAX_PALLETS, lambda i: ("break",) + self.pallet_sq(i)),
                              (K.A_CASSE, K.MAX_PALLETS, lambda i: ("play", self.kcard(K.FX_BREAK), self.pallet_sq(i))),
                              (K.A_DETOUR, K.MAX_PALLETS, lambda i: ("detour",) + self.pallet_sq(i)),
                              (K.A_STRIKE, K.MAX_SEATS, lambda i: ("strike", i)),
                              (K.A_MEDKIT, K.MAX_SEATS, lambda i: ("play", self.scard(s, K.FX_HEAL), i))):
            if base <= a < base + size:
                return f(a - base)
        if a == K.A_PLAY_MAP:
            return ("play", self.scard(s, K.FX_MAP), None)
        if a == K.A_PLAY_KEY:
            return ("play", self.scard(s, K.FX_KEY), None)
        if a == K.A_PLAY_SPRINT:
            return ("play", self.kcard(K.FX_SPRINT), None)
        raise Mismatch(f"unmapped kernel action {K.action_name(a)} in phase {K.PHASE_NAMES[ph]}")

    # ------------------------------------------------------------------ legal sets
    def _key(self, a: tuple) -> tuple:
        """An action with the card's name left out where the kernel picks the card itself."""
        if a[0] == "answer":
            return ("answer",)
        if a[0] == "play" and isinstance(a[2], tuple) and self.ref.turn_seat != 0:
            return ("lamp", a[2])
        return a

    def kernel_keys(self) -> set:
        out = set()
        for a in self.g.legal_codes():
            m = self.action(a)
            if m[0] == "stop":
                continue
            if m[0] == "sprint_move":
                m = ("sprint_avail",)
            elif m[0] == "purpose" and m[1] == self.ref.purpose:
                continue          # the reference's purpose is still current: nothing to switch
            out.add(self._key(m))
        return out

    def ref_keys(self) -> set:
        ph = self.st(K.S_PHASE)
        legal = self.ref.legal_actions()
        if ph == K.PH_TURN:
            out = {self._key(a) for a in legal if a[0] in TURN_KINDS}
            if any(a[0] == "sprint" for a in legal):
                out.add(("sprint_avail",))
            return out
        if ph == K.PH_COMMIT:
            if self.sprinting:
                return {a for a in legal if a[0] == "sprint"}
            return {self._key(a) for a in legal if a[0] not in TURN_KINDS and a[0] != "sprint"}
        return {self._key(a) for a in legal}

    # ------------------------------------------------------------------ observations
    def observation(self) -> dict:
        """The reference's observation keys the kernel's state defines now."""
        st = self.st
        ph = st(K.S_PHASE)
        over = bool(st(K.S_OVER))
        phase = "over" if over else {K.PH_PLACE: "setup", K.PH_GATES: "gates",
                                     K.PH_PALLET: "pallets"}.get(ph, "play")
        killer_turn = phase == "play" and st(K.S_CURRENT) == 0
        o: dict = {"phase": phase, "seat": None if over else st(K.S_DECIDER),
                   "killer": self.pos(0)}
        if phase in ("play", "over"):
            o["round"] = st(K.S_ROUND)
        if phase == "play":
            o["turn_seat"] = st(K.S_CURRENT)
        surv = []
        for s in range(1, self.ns + 1):
            placed = st(K.S_S_PAWN_LEFT + s) == 0
            surv.append({"seat": s, "pos": self.pos(s) if placed else None,
                         "wounds": st(K.S_S_WOUNDS + s),
                         "status": K.STATUS_NAMES[st(K.S_S_STATUS + s)],
                         "energy_count": sum(st(K.S_HAND + s * K.HAND_W + v) for v in range(K.HAND_W)),
                         "card_count": sum(st(K.S_CARDS + s * K.MAX_K + k) for k in range(K.MAX_K))})
        o["survivors"] = surv
        gens = [{"pos": self.gen_sq(g), "lamps": st(K.S_GEN_LAMPS + g),
                 "repaired": st(K.S_GEN_LAMPS + g) >= self.lamps,
                 "blocked": (st(K.S_BLOCKED) >> g) & 1 == 1} for g in range(st(K.S_N_GENS))]
        o["generators"] = sorted(gens, key=lambda d: d["pos"])
        o["repaired"] = st(K.S_REPAIRED)
        o["powered"] = st(K.S_REPAIRED) >= int(self.flat[K.R_PARAMS + K.P_GENERATORS_NEEDED])
        if ph != K.PH_DISCARD or over:
            # the kernel moves an opened chest before the discard, the reference after it
            # (the rulebook's order); the token's draw is the same either way
            o["chests"] = sorted(self.tok(st(K.S_CHEST_TOKEN + c)) for c in range(st(K.S_N_CHESTS)))
        o["shortcuts"] = sorted(self.tok(st(K.S_SHORTCUT_TOKEN + c)) for c in range(st(K.S_N_SHORTCUTS)))
        if phase not in ("setup", "gates"):
            need = int(self.flat[K.R_PARAMS + K.P_GATE_SUCCESSES])
            o["gates"] = sorted(({"pos": self.gate_sq(k), "successes": st(K.S_GATE_PROGRESS + k),
                                  "open": st(K.S_GATE_PROGRESS + k) >= need} for k in range(K.N_GATES)),
                                key=lambda d: d["pos"])
        pallets = []
        for p in range(st(K.S_N_PALLETS)):
            state = st(K.S_PALLET_STATE + p)
            if state == K.PAL_BROKEN:
                continue
            d = {"pos": self.pallet_sq(p), "state": "standing" if state == K.PAL_STANDING else "dropped"}
            if killer_turn:
                d["detoured"] = st(K.S_PALLET_DETOUR + p) == 1
            pallets.append(d)
        o["pallets"] = sorted(pallets, key=lambda d: d["pos"])
        h = st(K.S_HATCH)
        o["hatch"] = None if h == K.HATCH_HIDDEN else {"pos": self.tok(st(K.S_HATCH_TOKEN)),
                                                       "open": h == K.HATCH_OPEN}
        for key, part in (("energy_pile", K.S_ENERGY_DECK), ("energy_discard", K.S_ENERGY_DISCARD)):
            o[key] = sum(st(part + v) for v in range(K.HAND_W))
        for key, part in (("killer_pile", K.S_KDECK), ("killer_discard", K.S_KDISCARD),
                          ("survivor_pile", K.S_SDECK), ("survivor_discard", K.S_SDISCARD)):
            o[key] = sum(st(part + k) for k in range(K.MAX_K))
        o["killer_energy_count"] = sum(st(K.S_HAND + v) for v in range(K.HAND_W))
        o["killer_card_count"] = sum(st(K.S_CARDS + k) for k in range(K.MAX_K))
        o["next_net"] = st(K.S_ADJ_NEXT)
        if killer_turn:
            o["now_net"] = st(K.S_ADJ_NOW)
            o["struck"] = [s for s in range(1, self.ns + 1) if st(K.S_S_STRUCK + s) > 0]
            o["sprint"] = st(K.S_BUDGET) if self.sprinting else st(K.S_SPRINT)
        if ph == K.PH_COMMIT and not self.sprinting and not over:
            o["purpose"] = REF_PURPOSE[st(K.S_PURPOSE)]
            o["points"] = st(K.S_BUDGET)
        elif ph == K.PH_TURN and self.pooled and not over:
            o["points"] = st(K.S_POOL)
        pend = None
        if not over:
            if ph in (K.PH_REFLEX, K.PH_HELP):
                pend = {"kind": "answer", "target": st(K.S_TARGET)}
            elif ph == K.PH_DISCARD:
                pend = {"kind": "discard"}
            elif ph == K.PH_PLACE:
                pend = {"kind": "place", "token": self.tok(st(K.S_TOKEN))}
        o["pending"] = pend
        if not over:
            s = st(K.S_DECIDER)
            o["hand_energy"] = sorted(v for v in range(K.HAND_W) for _ in range(st(K.S_HAND + s * K.HAND_W + v)))
            names = self.knames if s == 0 else self.snames
            o["hand_cards"] = sorted(names[k] for k in range(len(names))
                                     for _ in range(st(K.S_CARDS + s * K.MAX_K + k)))
        return o

    def ref_observation(self, mine: dict) -> dict:
        r = self.ref.observation()
        r["next_net"] = r["next_bonus"] - r["next_deficit"]
        r["now_net"] = r["killer_bonus"] - r["killer_deficit"]
        r["generators"] = [dict(g) for g in r["generators"]]
        if "now_net" not in mine:       # the detours last the killer's turn (the kernel
            for p in r["pallets"]:      # clears them at the next round)
                p.pop("detoured", None)
        return {k: r[k] for k in mine}

    def compare_observation(self) -> None:
        mine = self.observation()
        theirs = self.ref_observation(mine)
        diff = {k: (mine[k], theirs[k]) for k in mine
                if mine[k] != theirs[k] and _norm(mine[k]) != _norm(theirs[k])}
        if diff:
            self.fail("observations differ", **{k: f"kernel {a!r} / reference {b!r}" for k, (a, b) in diff.items()})

    # ------------------------------------------------------------------ the loop
    def fail(self, what: str, **fields) -> None:
        lines = [f"{what}: seed {self.seed}, game {self.game}, seats {self.seats!r}, decision "
                 f"{self.decision}, kernel phase {K.PHASE_NAMES[self.st(K.S_PHASE)]}, round "
                 f"{self.st(K.S_ROUND)}"]
        lines += [f"  {k}: {v}" for k, v in fields.items()]
        lines.append("  last actions: " + " | ".join(self.history[-8:]))
        raise Mismatch("\n".join(lines))

    def _auto(self) -> None:
        """Take the reference's decisions with one legal action (the kernel takes those
        without asking)."""
        while not self.ref.is_over():
            legal = self.ref.legal_actions()
            if len(legal) != 1:
                return
            self.ref.apply(legal[0])
            self.history.append(f"(ref forced {legal[0]})")

    def step(self) -> bool:
        """One kernel decision through both engines; False when the game is over."""
        g = self.g
        if g.over or self.ref.is_over():
            if g.over != self.ref.is_over():
                self.fail("one engine is over", kernel=g.over, reference=self.ref.is_over())
            return False
        self.decision += 1
        self.compare_observation()
        mine, theirs = self.kernel_keys(), self.ref_keys()
        if mine != theirs:
            self.fail("legal actions differ", kernel_only=sorted(mine - theirs, key=repr),
                      reference_only=sorted(theirs - mine, key=repr))
        i = g.policy_choice()
        code = g.legal_codes()[i]
        m = self.action(code)
        self.history.append(f"{K.action_name(code)} -> {m}")
        ref_acts: list[tuple] = []
        if m[0] == "sprint_move":
            self.sprinting = True
        elif m[0] == "stop":
            pass
        elif m[0] == "purpose" and m[1] == self.ref.purpose:
            pass
        elif m[0] in ("answer", "play") and self._key(m) != m:
            ref_acts.append(m)      # the kernel's card: one the reference offers (keys agree)
        else:
            ref_acts.append(m)
        turn = (self.st(K.S_ROUND), self.st(K.S_CURRENT))
        self.sprinting_before = self.sprinting
        if m[0] == "stop" and self.sprinting:
            # the kernel spends the sprint squares as one purpose, its leftover lost like a
            # card's (docs: "spent when he chooses"); the reference keeps them for the turn
            self.ref.sprint = 0
        chests = self._chest_squares()
        g.apply(i)
        self._S = None
        self._log_rows(chests)
        if g.state[K.S_PHASE] != K.PH_COMMIT or g.over:
            self.sprinting = False
        if m[0] == "stop" and not self.sprinting_before:
            self.abandoned = True
        elif m[0] in ("spend", "purpose"):
            self.abandoned = False
        left = g.over or (self.st(K.S_ROUND), self.st(K.S_CURRENT)) != turn
        self._feed()
        for a in ref_acts:
            try:
                self.ref.apply(a)
            except AssertionError as exc:
                self.fail("the reference rejects a scripted outcome", action=repr(a), error=str(exc))
            except ValueError as exc:
                self.fail("the reference rejects the kernel's action", action=repr(a), error=str(exc)[:600])
        self._auto()
        if left and self.abandoned and not self.ref.is_over() and \
                (self.ref.round, self.ref.turn_seat) == turn:
            # the kernel stopped a purpose and then had nothing but the end of its turn,
            # taken without asking; the reference's purpose was still open: it ends the
            # turn now
            self.ref.apply(("end",))
            self.history.append("(ref: end, the kernel's stop left nothing else)")
            self._auto()
        if left:
            self.abandoned = False
        return True

    # ------------------------------------------------------------------ the game log
    def _chest_squares(self) -> list[tuple]:
        return [self.tok(self.st(K.S_CHEST_TOKEN + c)) for c in range(K.MAX_CHESTS)]

    def _log_rows(self, chests: list[tuple]) -> None:
        """The kernel's new log rows as reference history entries (``chests``: the chests'
        squares before the call, where a chest roll's chest stood)."""
        log = self.g.log
        n = int(log[0, 0])
        for kind, rnd, s, a, b, c, d in log[1 + self._rows:1 + n].tolist():
            e = self._event(kind, rnd, s, a, b, c, d, chests)
            if e is not None:
                self.events.append(e)
        self._rows = n

    def _event(self, kind, rnd, s, a, b, c, d, chests) -> tuple | None:
        # the fields a row of this kind leaves empty are 0 (a trace shows the row as it is)
        row = {"seat": s, "a": a, "b": b, "c": c, "d": d}
        for f in _EMPTY.get(kind, ()):
            if row[f] != 0:
                self.fail("a game log row's empty field is not 0", field=f, row=(kind, rnd, s, a, b, c, d))
        cname = (lambda k: self.knames[k]) if s == 0 else (lambda k: self.snames[k])
        if kind == K.LG_PLACE:
            return ("place", rnd, s, PIECES[a], self.tok(b))
        if kind == K.LG_GATES:
            return ("gates", rnd, a, b)
        if kind == K.LG_PALLET:
            tx, ty = self.tok(a)
            return ("pallet", rnd, s, (tx + self.dx, ty + self.dy))
        if kind == K.LG_TURN:
            # the adjustment is the killer's (a survivor's turn has none)
            return ("turn", rnd, s, a, b if s == 0 else 0)
        if kind == K.LG_COMMIT:
            if d != 0:      # the sprint's squares and the pool's purpose: kernel-only decisions
                return None
            return ("commit", rnd, s, REF_PURPOSE[a], b, c)
        if kind == K.LG_MOVE:
            return ("move", rnd, s, (a, b), bool(d))
        if kind == K.LG_ROLL:
            if a == K.Q_REPAIR:
                return ("roll", rnd, s, "repair", self.gen_sq(b), bool(c))
            if a == K.Q_CHEST:
                return ("roll", rnd, s, "chest", chests[b], bool(c))
            return ("roll", rnd, s, "lever", self.gate_sq(b), bool(c))
        if kind == K.LG_LAMP:
            return ("lamp", rnd, s, self.gen_sq(a), b)
        if kind == K.LG_REPAIRED:
            return ("repaired", rnd, s, self.gen_sq(a), b)
        if kind == K.LG_POWERED:
            return ("powered", rnd, s)
        if kind == K.LG_GAIN:
            return ("gain", rnd, s, a, b)
        if kind == K.LG_CHEST:
            return ("chest", rnd, s, self.snames[b] if b >= 0 else None, self.tok(c))
        if kind == K.LG_CARD:
            if K.A_TOOLBOX <= a < K.A_TOOLBOX + K.MAX_GENS or K.A_BLOCK <= a < K.A_BLOCK + K.MAX_GENS:
                target = self.gen_sq(c)
            elif K.A_MEDKIT <= a < K.A_MEDKIT + K.MAX_SEATS:
                target = c
            elif K.A_CASSE <= a < K.A_CASSE + K.MAX_PALLETS:
                target = self.pallet_sq(c)
            elif a == K.A_PLAY_MAP and c >= 0:
                target = self.tok(c)
            else:
                target = None
            return ("card", rnd, s, cname(b), target)
        if kind == K.LG_STRIKE:
            return ("strike", rnd, a, bool(b))
        if kind in (K.LG_REFLEX, K.LG_HELP):
            return ("reflex" if kind == K.LG_REFLEX else "help", rnd, s, a, self.snames[b])
        if kind == K.LG_HIT:
            return ("hit", rnd, a, b)
        if kind == K.LG_KILL:
            return ("kill", rnd, a, b)
        if kind == K.LG_ESCAPE:
            return ("escape", rnd, s, bool(a), b)
        if kind == K.LG_HATCH:
            return ("hatch", rnd, self.tok(a), b == K.HATCH_OPEN)
        if kind == K.LG_GATE_OPEN:
            return ("gate_open", rnd, s, self.gate_sq(a))
        if kind == K.LG_DROP:
            return ("drop", rnd, s, self.pallet_sq(a))
        if kind == K.LG_BREAK:
            return ("break", rnd, self.pallet_sq(a), bool(b))
        if kind == K.LG_DETOUR:
            return ("detour", rnd, self.pallet_sq(a))
        if kind == K.LG_DISCARD:
            return ("discard", rnd, s, self.snames[a])
        if kind == K.LG_DRAW:
            deck = ("energy", "killer", "survivor")[a]
            card = self.ename[b] if a == 0 else self.knames[b] if a == 1 else self.snames[b]
            return ("draw", rnd, s, deck, card)
        if kind == K.LG_END:
            return ("end", rnd, "timeout" if K.END_NAMES[a] == "timeout" else "all_out", b, c)
        self.fail("unknown log row", row=(kind, rnd, s, a, b, c, d))
        return None

    def compare_log(self) -> None:
        """The kernel's game log against the reference's history, entry by entry."""
        got, want = _draws_sorted(self.events), _draws_sorted(self.ref.history)
        for i, (k, r) in enumerate(zip(got, want)):
            if _norm(k) != _norm(r):
                self.fail("game log and reference history differ", at=i, kernel=k, reference=r,
                          before=got[max(0, i - 4):i])
        if len(got) != len(want):
            i = min(len(got), len(want))
            self.fail("game log and reference history differ in length", kernel=len(got),
                      reference=len(want), kernel_next=got[i:i + 3], reference_next=want[i:i + 3])

    def run(self) -> None:
        while self.step():
            pass
        self.compare_log()
        self.compare_records()
        left = self.chance.left()
        if left:
            self.fail("scripted outcomes left unused", left=left)

    def compare_records(self) -> None:
        rec, ref = self.g.record(), self.ref.record()
        n = self.ns
        status = {"killed": "killed", "gate": "escaped", "hatch": "escaped", "alive": "in_play"}
        rounds = rec["rounds"]
        gen_rounds = [rec[f"gen_round_{g}"] for g in range(K.MAX_GENS)]
        mine = {
            "killer_win": bool(rec["killer_win"]), "rounds": rounds, "kills": rec["kills"],
            "escapes": rec["escapes"], "hatch_escapes": rec["hatch_escapes"],
            "gate_escapes": rec["escapes"] - rec["hatch_escapes"], "repaired": rec["repaired"],
            "status": [status[rec[f"outcome_{i}"]] for i in range(1, n + 1)],
            "landed_hits": rec["hits"], "killer_gain": rec["killer_gain"],
            "pallet_energy": rec["pallet_spend"],
            "cause": "timeout" if rec["end_cause"] == "timeout" else "all_out",
            "repaired_by_round": [sum(1 for x in gen_rounds if 0 < x <= r) for r in range(1, rounds + 1)],
            "killed_by_round": [sum(1 for i in range(1, n + 1) if rec[f"outcome_{i}"] == "killed"
                                    and rec[f"end_round_{i}"] <= r) for r in range(1, rounds + 1)],
            "gates_open": rec["gates_open"], "strikes": rec["strikes"], "rolls": rec["rolls"],
            "cards_played": rec["cards_played"], "pallets_dropped": rec["pallets_dropped"],
            "first_hit": rec["first_hit"], "end_cause": rec["end_cause"],
            "end_rounds": [rec[f"end_round_{i}"] if rec[f"outcome_{i}"] != "alive" else 0
                           for i in range(1, n + 1)],
            "repaired_rounds": dict(sorted((self.gen_sq(g), rec[f"gen_round_{g}"])
                                           for g in range(self.st(K.S_N_GENS)) if rec[f"gen_round_{g}"] > 0)),
        }
        if rec["end_cause"] == "step_cap":
            self.fail("the kernel hit its step cap")
        diff = {k: f"kernel {v!r} / reference {ref[k]!r}" for k, v in mine.items() if v != ref[k]}
        if diff:
            self.fail("records differ", **diff)


def _draws_sorted(events: list[tuple]) -> list[tuple]:
    """The history with each run of consecutive draws in one order: the deal's order of
    seats and decks is no rule (each deck's cards come from the script alike)."""
    out: list[tuple] = []
    run: list[tuple] = []
    for e in list(events) + [("",)]:
        if e[0] == "draw":
            run.append(e)
            continue
        out += sorted(run, key=repr)
        run = []
        if e[0]:
            out.append(e)
    return out


def _norm(v):
    """Tuples and lists compare alike (the reference keeps squares as tuples, lists of
    dicts sorted)."""
    if isinstance(v, dict):
        return {k: _norm(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_norm(x) for x in v]
    return v


def run_games(seed: int, games: range, seats: str, rules=None) -> int:
    n = 0
    for game in games:
        Driver(seed, game, seats, rules).run()
        n += 1
    return n


def _check(seed: int, n: int, seats: str, rules=None) -> None:
    assert run_games(seed, range(n * SCALE), seats, rules) == n * SCALE


def _ruleset(over: dict):
    return load_ruleset().override(over)


# --------------------------------------------------------------------------- the tests
@pytest.mark.parametrize("seed,n", [(1, 24), (11, 16)])
def test_random_policy_agrees(seed, n):
    _check(seed, n, "killer=random,survivors=random")


@pytest.mark.parametrize("seats,n", [("killer=heuristic,survivors=heuristic", 20),
                                     ("killer=heuristic,survivors=random", 8),
                                     ("killer=random,survivors=heuristic", 6)])
def test_default_policy_agrees(seats, n):
    _check(2, n, seats)


# the tweaked rulesets the differential test plays beside the shipped one: (changes, seats, games)
TWEAKS = [
    ({"board.survivors": 2, "rules.killer_win_kills": 2}, "killer=heuristic,survivors=random", 6),
    ({"board.survivors": 3, "rules.killer_win_kills": 3}, "killer=random,survivors=heuristic", 4),
    ({"rules.variants.pooled_energy": True}, "killer=random,survivors=random", 10),
    ({"rules.variants.one_strike_per_target": True, "rules.variants.any_card_repairs": True},
     "killer=random,survivors=random", 10),
    ({"board.lamps": 3, "board.generators_needed": 3, "rules.strike_cost": 3, "board.help_range": 2,
      "rules.survivor_draw": 2}, "killer=heuristic,survivors=heuristic", 4),
    ({"board.survivors": 1, "rules.killer_win_kills": 1, "board.generators_needed": 3},
     "killer=heuristic,survivors=heuristic", 3),
    # a longer reach: a dropped pallet guards every survivor within it, as it guards the
    # adjacent ones (the kernel had the guard's 1 square written in)
    ({"board.reach": 2}, "killer=random,survivors=random", 12),
    # costs that differ from their neighbours in the kernel's parameter row (the shipped
    # drop and vault costs are both 1: a cost read from the key before it would not show)
    # (vault 2 against drop 1: about 0.75 vaults a game under random players; vault 3 is
    # never affordable)
    ({"rules.vault_cost": 2, "rules.escape_gate_cost": 2, "rules.shortcut_cost": 2},
     "killer=random,survivors=random", 12),
    # the hands, limits and gains made to differ from their neighbours in the kernel's
    # parameter row (the shipped killer_energy_hand, killer_card_hand and
    # survivor_energy_hand are all 5, survivor_start_cards and survivor_card_limit both 2):
    # a value read from the key beside it would not show on the shipped data
    ({"rules.killer_energy_hand": 6, "rules.killer_card_hand": 4, "rules.survivor_energy_hand": 3,
      "rules.survivor_start_cards": 1, "rules.survivor_card_limit": 3, "rules.survivor_draw": 2,
      "rules.survivor_energy_limit": 4, "rules.hits_to_kill": 3, "rules.failed_repair_gain": 2,
      "rules.hit_exhaustion": 1}, "killer=random,survivors=random", 10),
    # as many tokens as setup draws, one survivor: once the hatch is out no token is free,
    # and an opened chest stays where it stood (about one opening in eight games)
    ({"board.setup_rounds": 4, "board.token_lines": [1, 4, 10], "board.survivors": 1,
      "rules.killer_win_kills": 1, "board.killer_generators": 3, "board.killer_shortcuts": 2,
      "board.survivor_generators": 1, "board.survivor_chests": 2, "board.generators_needed": 4},
     "killer=random,survivors=random", 40),
    # a board taller than wide, the lair off the middle and the pallets below their tokens:
    # the shipped board is square and its neighbouring keys equal (board_w and board_h,
    # lair_x and lair_y), so a height read as the width would not show
    ({"board.board_h": 17, "board.lair_y": 8, "board.pallet_dx": 0, "board.pallet_dy": 1},
     "killer=random,survivors=random", 10),
    # the neighbouring costs the other tweaks leave equal (repair, chest and gate 2; break and
    # detour 3; shortcut and escape gate 1), a black die of 8 faces beside the white's 6
    ({"rules.repair_cost": 3, "rules.chest_cost": 2, "rules.gate_cost": 1, "rules.break_cost": 4,
      "rules.detour_cost": 3, "rules.shortcut_cost": 2, "rules.escape_gate_cost": 1,
      "dice.black": [0, 0, 0, 1, 1, 1, 1, 1]}, "killer=random,survivors=random", 10),
    # one variant alone (the other tweak turns both on together)
    ({"rules.variants.one_strike_per_target": True}, "killer=random,survivors=heuristic", 6),
    # decks of a few cards: draws find the deck and its discards empty (nothing drawn)
    # (just the starting hands: the killer's 5, two a survivor)
    ({"killer_cards.casse_palette.count": 3, "killer_cards.sprint.count": 1, "killer_cards.blocage.count": 1,
      "survivor_cards.lampe.count": 2, "survivor_cards.feux_d_artifice.count": 2,
      "survivor_cards.boite_a_outils.count": 2, "survivor_cards.trousse_de_soins.count": 1,
      "survivor_cards.carte.count": 1, "survivor_cards.cle.count": 0, "rules.survivor_draw": 2},
     "killer=random,survivors=random", 24),  # (4 chests of the 24 games find nothing to draw)
]
TWEAK_IDS = ["two_survivors", "three_survivors", "pooled", "one_strike_any_card", "numbers", "one_survivor",
             "reach_two", "distinct_costs", "distinct_hands", "no_free_token", "tall_board",
             "distinct_neighbours", "one_strike", "small_decks"]


@pytest.mark.parametrize("over,seats,n", TWEAKS, ids=TWEAK_IDS)
def test_tweaked_ruleset_agrees(over, seats, n):
    _check(3, n, seats, _ruleset(over))


def test_the_rulesets_played_tell_every_parameter_from_its_neighbours():
    """A value read from the key beside it in the kernel's parameter row shows only on a
    ruleset where the two differ: for every pair of neighbouring parameters, the shipped
    ruleset or one of the tweaks above gives them different values (a new parameter equal
    to its neighbour everywhere fails here until a tweak tells them apart)."""
    rows = [load_ruleset().flat()] + [_ruleset(over).flat() for over, _, _ in TWEAKS]
    p = np.array([r[K.R_PARAMS:K.R_PARAMS + len(K.PARAMS)] for r in rows])
    same = [(K.PARAMS[i], K.PARAMS[i + 1]) for i in range(len(K.PARAMS) - 1)
            if (p[:, i] == p[:, i + 1]).all()]
    assert same == [], f"neighbouring parameters equal in every ruleset played: {same}"


def test_search_player_agrees():
    _check(4, 2, "killer=rollout:rollouts=2,survivors=heuristic")


def test_a_wrong_chance_outcome_is_caught():
    """The comparison can fail: a die face changed on the reference's side is reported."""
    d = Driver(5, 0, "killer=heuristic,survivors=heuristic", None)
    white = d.dice["white"]
    flipped = {0: white.index(1), 1: white.index(0)}
    original = d._feed

    def feed_flipped():
        ev = d.g.chance_events()
        for i in range(d.fed, len(ev)):
            k, v = ev[i]
            if k == "repair_die":
                ev[i] = (k, flipped[white[v]])
        d.g._chance[:] = ev
        original()

    d._feed = feed_flipped
    with pytest.raises(Mismatch):
        d.run()


# --------------------------------------------------------------------------- kernel fixes
def test_an_opened_chest_moves_to_a_new_token():
    """Kernel fix found by this test: the chest moves to a new token (docs: "the bag is
    refilled and a token holding a generator, a chest, a shortcut or the hatch is drawn
    again"); the kernel lifted the chest before the draw, so it could land on its own
    token (1 time in 13 on the reference board)."""
    opened = 0
    for game in range(40):
        g = Game(seed=9, game=game, seats="killer=random,survivors=heuristic")
        while not g.over and opened < 80:
            code = g.legal_codes()[g.policy_choice()]
            old = None
            if K.A_CHEST <= code < K.A_CHEST + K.MAX_CHESTS:
                old = int(g.state[K.S_CHEST_TOKEN + code - K.A_CHEST])
            before = len(g.chance_events())
            g.apply(g.legal_codes().index(code))
            moved = [v for k, v in g.chance_events()[before:] if k == "chest_token"]
            if old is not None and moved:
                opened += 1
                assert moved == [int(g.state[K.S_CHEST_TOKEN + code - K.A_CHEST])] and moved[0] != old
    assert opened >= 40


def test_two_blocage_cards_block_two_generators():
    """Kernel fix found by this test: each blocage card blocks the generator chosen (docs:
    "blocage (a chosen generator gains no lamp until his next turn)"); the kernel kept one
    blocked generator, so a second card unblocked the first."""
    g = Game(seed=3, game=1, seats="killer=heuristic,survivors=heuristic")
    while not (g.phase == "turn" and g.to_move == 0):
        g.apply(g.policy_choice())
    kb = list(g.rules.names("killer_cards")).index("blocage")
    g.state[K.S_CARDS + kb] = 2
    v = next(v for v in range(1, K.MAX_V + 1) if g.state[K.S_HAND + v] > 0)
    g.apply_code(K.A_COMMIT + K.Q_CARDS * K.MAX_V + v - 1)
    g.apply_code(K.A_BLOCK + 0)
    assert K.A_BLOCK + 0 not in g.legal_codes() and K.A_BLOCK + 1 in g.legal_codes()
    g.apply_code(K.A_BLOCK + 1)
    assert K.A_BLOCK + 0 not in g.legal_codes()      # still blocked
    g.apply_code(K.A_STOP)
    g.apply_code(K.A_END_TURN)
    # no survivor may light a lamp on either generator this round
    for s in range(1, 5):
        for gen in (0, 1):
            assert not (g.to_move == s and K.A_REPAIR + gen in g.legal_codes())


def test_pooled_energy_does_not_pool_sprint_squares():
    """Kernel fix found by this test: under ``pooled_energy`` "a turn's energy cards form
    one pool"; a sprint's squares are no energy card's points (docs: "sprint (3 squares
    of movement, spent when he chooses)"), so those left when the killer stops sprinting
    do not join the pool (the kernel added them, to pay strikes and breaks)."""
    rules = _ruleset({"rules.variants.pooled_energy": True})
    g = Game(seed=3, game=1, seats="killer=heuristic,survivors=heuristic", ruleset=rules)
    while not (g.phase == "turn" and g.to_move == 0):
        g.apply(g.policy_choice())
    ks = list(rules.names("killer_cards")).index("sprint")
    g.state[K.S_CARDS + ks] = 1
    v = next(v for v in range(1, K.MAX_V + 1) if g.state[K.S_HAND + v] > 0)
    g.apply_code(K.A_COMMIT + K.Q_CARDS * K.MAX_V + v - 1)
    g.apply_code(K.A_PLAY_SPRINT)
    g.apply_code(K.A_STOP)
    pool = int(g.state[K.S_POOL])
    assert pool == v          # the card's points (no adjustment in the first round)
    g.apply_code(K.A_SPRINT_MOVE)
    step = next(a for a in (K.A_NORTH, K.A_EAST, K.A_SOUTH, K.A_WEST) if a in g.legal_codes())
    g.apply_code(step)
    assert g.phase == "commit" and g.state[K.S_BUDGET] > 0     # squares left
    g.apply_code(K.A_STOP)
    assert int(g.state[K.S_POOL]) == pool


def test_a_lone_survivor_finds_the_hatch_open_from_the_start():
    """Kernel fix found by this test (a table of one survivor): "when one survivor is left
    in the game, the hatch appears, open" (docs; rulebook: "Lorsqu'il reste plus qu'un
    survivant"); the kernel looked only after a kill or an escape."""
    rules = _ruleset({"board.survivors": 1, "rules.killer_win_kills": 1, "board.generators_needed": 3})
    g = Game(seed=7, game=1, seats="killer=heuristic,survivors=heuristic", ruleset=rules)
    while g.phase in ("place", "gates", "pallet"):
        g.apply(g.policy_choice())
    assert g.state[K.S_HATCH] == K.HATCH_OPEN
    assert [k for k, _ in g.chance_events()].count("hatch_token") == 1
