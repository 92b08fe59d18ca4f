"""Until Daylight in the step model (:class:`simlib.core.step.StepGame`): the kernel's entry
points, the position and its choices in words, and the chance events of its trace.

The engine keeps a whole game in one int64 array, including where the game stands (the
step, the pending decision and the choices taken within the step), so a game can stop at
any decision, be copied, and continue (see ``kernels/game_nb.py``, "the engine").  A
decision's choices are its candidates ``(action, a, b, c)``; a choice's code is its index.

>>> g = Game(7, 0, players=4, seats=[{"character": "trigger"}, ...], policy="baseline")

The team is given as each seat's ``character`` (all seats or none; none: drawn as a study
draws it); Until Daylight is cooperative, so ``policy`` is the table's one player.  Odds
from a position and positions set up by hand: :mod:`.position`.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ...core.step import StepGame
from . import codes as K
from .api import apply_step, check_players, flat_rules, new_step_state, records_frame, team_codes
from .kernels.game_nb import invariant_violation_nb, write_record_nb
from .kernels.search_nb import policy_choice_nb, rollout_choice_nb
from .kernels.state_nb import char_mod_nb
from .policies import Seat
from .ruleset import load_ruleset
from .state import GameState

DECISION_NAMES = {K.D_SEARCH_ACTION: "search action", K.D_COMBAT_ACTION: "combat action",
                  K.D_AMMO: "ammo to spend", K.D_PRE_ROLL: "card before the roll",
                  K.D_POST_ROLL: "card after the roll", K.D_DISCARD: "card to discard",
                  K.D_KEEP: "card to keep", K.D_SACRIFICE: "sacrifice a saved survivor?",
                  K.D_PICKPOCKET: "card to pickpocket", K.D_EXTRA_ATTACK: "adrenaline attack",
                  K.D_AMOUNT: "cards of the stack"}
PHASE_NAMES = {K.PHASE_SETUP: "setup", K.PHASE_SEARCH: "search", K.PHASE_COMBAT: "combat",
               K.PHASE_ENEMIES: "enemies attack", K.PHASE_FINAL: "final fight"}
TOKEN_LABEL = {K.TOKEN_TRAP: "a trap", K.TOKEN_BARRICADE: "a barricade"}


class StepError(ValueError):
    """A step the game cannot take or tell (a full step script, unknowable chance events)."""


class Game(StepGame):
    """One game of Until Daylight, a decision at a time (the state: one int64 array)."""

    display_name, Seat, default_policy, seat_options = "Until Daylight", Seat, "baseline", ("character",)
    load_ruleset = staticmethod(load_ruleset)
    # check=True: the kernel checks the invariants at every step's end and keeps the first
    # broken one in the record (``result["violation"]``), as the batch games do
    check_each_step = False

    def check_players(self, players) -> int:
        return check_players(players, self.rules)

    def _deal(self, character=None) -> None:
        self.rs = flat_rules(self.rules)
        self._team = character  # what chance_events() needs to replay the game (with _actions)
        self._actions: list[int] | None = []
        self._chance_cache: tuple[int, list, tuple[int, int, int]] = (0, [], (0, 0, 0))
        cap = 100_000 if self.trace is True else int(self.trace)
        self.state = new_step_state(self.rs, self.seed, self.game, len(self.seats),
                                    team_codes(character, len(self.seats), self.rules), cap, self.check)

    # ------------------------------------------------------------------ reading
    view = property(lambda self: GameState(self.state, self.rules),
                    doc="Named numpy views of the state (``pl``, ``inv``, ``area``, ...).")
    over = property(lambda self: bool(self.state[K.G_OVER]))

    @property
    def to_move(self) -> int:
        return int(self.state[K.G_PENDING_SEAT]) if self.state[K.G_SUSPENDED] else -1

    @property
    def decision(self) -> str | None:
        """The pending decision's kind, ``None`` when the game is over."""
        return DECISION_NAMES[int(self.state[K.G_PENDING_D])] if self.state[K.G_SUSPENDED] else None

    def candidates(self) -> np.ndarray:
        """The pending decision's candidates as rows ``(action, a, b, c)`` (codes)."""
        m = int(self.state[K.G_PENDING_M]) if self.state[K.G_SUSPENDED] else 0
        o = int(self.state[K.G_O_CANDS])
        return self.state[o:o + m * K.N_CAND_COLS].reshape(m, K.N_CAND_COLS).copy()

    def legal_codes(self) -> list[int]:
        return list(range(len(self.candidates())))

    def legal_actions(self) -> list[str]:
        d = int(self.state[K.G_PENDING_D])
        return [describe_candidate(self, d, row) for row in self.candidates()]

    def action_words(self, code: int) -> str:
        return describe_candidate(self, int(self.state[K.G_PENDING_D]), self.candidates()[code])

    def record_array(self) -> np.ndarray:
        rec = np.zeros(K.N_REC, dtype=np.int64)
        write_record_nb(self.state, self.rs, np.int64(self.game), rec)
        return rec

    def _frame(self, rows):
        return records_frame(rows.view(K.record_dtype()).ravel(), self.rules)

    @property
    def result(self) -> dict[str, Any]:
        """The kernel's record fields (``outcome``, ``cause``, ... as codes) and ``win``;
        meaningful once :attr:`over` (:meth:`record` gives the study's named columns)."""
        out = dict(zip(K.REC_FIELDS, self.record_array().tolist()))
        out["win"] = bool(out["outcome"] == K.OUT_WIN) if self.over else None
        return out

    def situation(self) -> dict[str, Any]:
        """Where the game stands, as a dict of names."""
        v, r, g = self.view, self.rules, self.state
        seats = [{"seat": s, "character": r.character_names[int(v.pl[s, K.PL_CHAR])],
                  "health": int(v.pl[s, K.PL_HEALTH]), "max_health": int(v.pl[s, K.PL_MAX_HEALTH]),
                  "inventory": {r.card_names[c]: int(k) for c, k in enumerate(v.inv[s]) if k > 0},
                  "area": v.area_cards(s), "traps": int(v.pl[s, K.PL_TRAPS]),
                  "barricades": int(v.pl[s, K.PL_BARRICADES]),
                  "kept": {r.enemy_names[t]: int(k) for t, k in enumerate(v.kept[s]) if k > 0}}
                 for s in range(v.n_players)]
        return {"round": int(g[K.G_ROUND]), "rounds": int(self.rs[K.P_ROUNDS]),
                "phase": PHASE_NAMES.get(int(g[K.G_PHASE]), "?"), "decision": self.decision,
                "seat": self.to_move, "over": self.over, "leader": int(g[K.G_LEADER]),
                "horde_deck": int(g[K.G_HDECK_N]), "rubble_deck": int(g[K.G_RDECK_N]), "seats": seats}

    def _lines(self) -> list[str]:
        s = self.situation()
        lines = [f"Round {s['round']} of {s['rounds']}, {s['phase']} phase"
                 + (" - game over: " + ("won" if self.result["win"] else "lost") if s["over"] else "")]
        for p in s["seats"]:
            inv = ", ".join(f"{k} x{v}" if v > 1 else k for k, v in p["inventory"].items()) or "-"
            tokens = [f"{p[k]} {k[:-1]}(s)" for k in ("traps", "barricades") if p[k]]
            tokens += ["kept " + ", ".join(f"{k} x{v}" for k, v in p["kept"].items())] if p["kept"] else []
            lines.append(f"  seat {p['seat']} {p['character']:<9} health {p['health']}/"
                         f"{p['max_health']}  holds: {inv}  area: {', '.join(p['area']) or 'empty'}"
                         + (f"  [{'; '.join(tokens)}]" if tokens else ""))
        return lines

    def _chooser(self) -> str:
        return f"Seat {self.to_move} ({_char(self, self.to_move)}) chooses the {self.decision}:"

    # ------------------------------------------------------------------ acting
    def _step(self, code: int) -> bool:
        r = apply_step(self.state, self.rs, code)
        if r == -3:
            raise StepError(
                f"this step already holds {int(self.state[K.G_SCRIPT_CAP])} choices, the "
                "capacity of a step's script (codes.SCRIPT_CAP); the game is unchanged. "
                "The rules allow no fixed bound (see simlib/games/until_daylight/capacities.py)")
        if r >= 0 and self._actions is not None:
            self._actions.append(code)
        return r >= 0

    def _choose(self, seat) -> int:
        r = (seat or self.seats[self.to_move]).resolved()
        if len(r) == 3:  # a search player: (base id, base params, search params)
            return int(rollout_choice_nb(self.state, self.rs, np.int64(r[0]), r[1], r[2]))
        return int(policy_choice_nb(self.state, self.rs, np.int64(r[0]), r[1]))

    def _violation(self) -> str:
        """The kernel's invariants, read at a decision that stands mid-rule as the rule
        reads it: at a "card to keep" the looked-at cards are in no pile yet (they count
        as in play); at a "card to discard" the seat is over its inventory limit (that is
        the decision; its cards count as in play).  A discard or a sacrifice can also be
        asked *inside* a draw action whose player looks at several cards (a red card drawn
        among them): the cards looked at so far are in that player's hand, in no pile,
        and not counted in the state; up to the drawer's extra looked-at cards may then be
        missing from the piles (the other invariants are checked with them counted)."""
        st = self.state
        d = int(st[K.G_PENDING_D]) if st[K.G_SUSPENDED] else -1
        if d in (K.D_KEEP, K.D_DISCARD, K.D_SACRIFICE):
            st = st.copy()
            v = GameState(st, self.rules)
            if d == K.D_KEEP:
                for row in self.candidates():
                    v.rdisc[row[1]] += 1
            elif d == K.D_DISCARD:
                v.rdisc[:] += v.inv[self.to_move]
                v.inv[self.to_move] = 0
            if st[K.G_PHASE] == K.PHASE_SEARCH and d != K.D_KEEP:
                missing = int(self.rs[K.P_RUBBLE_TOTAL]) - v.rubble_total()
                extra = int(char_mod_nb(st, self.rs, np.int64(self.to_move), np.int64(K.MOD_DRAW_EXTRA)))
                if 0 < missing <= extra:
                    st[K.G_RDECK_N] += missing  # the looked-at cards, counted as in play
        return K.VIOL_NAMES[int(invariant_violation_nb(st, self.rs))]

    # ------------------------------------------------------------------ chance
    def chance_events(self) -> list[tuple[str, Any]]:
        """Every chance outcome since the game began, in the order the engine drew them.

        Each is ``(kind, value)`` in the kernel's codes:

        - ``("character", c)``: setup, one per seat in seat order, when the team is drawn
          (no ``character`` given): seat ``s`` gets character ``c`` among those not yet taken.
        - ``("timer", k)``: a search phase's number of actions ``K`` (the search timer's
          draw, after the ruleset's minimum).
        - ``("rubble", c)``: a rubble card of type ``c`` drawn (a draw action's looked-at
          cards, a kill's reward, the Die of Fate's draw), red events included.  An empty
          deck is refilled from its discards first (no chance: draws are uniform over what
          is left).
        - ``("horde", t)``: a horde card of type ``t`` drawn (a wave, a noise event).
        - ``("fate", f)``: the Die of Fate's effect (``codes.FATE_*``).
        - ``("attack_die", face)``: one die of a player's attack (``codes.FACE_X/B/H``),
          in rolling order; ``("lucky_die", face)``: one miss rerolled by a lucky card;
          ``("enemy_die", face)``: one die of an enemy batch.  A reroll and a batch give
          their dice heads first, then bodies, then misses: the engine resolves them by
          their counts alone and keeps only these.

        Read from the game's event trace (``trace=`` capacity).  Without a trace, or when it
        is full, the game is replayed from its setup and the choices taken, with a trace;
        that is impossible for a position set up by hand (a :class:`StepError` says so).
        """
        st = self.state
        n_ev, cap = int(st[K.G_EV_N]), int(st[K.G_EV_CAP])
        if cap == 0 or n_ev >= cap:
            return self._replayed().chance_events()
        n, events, roll = self._chance_cache
        if n > n_ev or n == 0:  # n > n_ev cannot happen in one game's life: start over
            n, roll = 0, (0, 0, 0)
            events = [] if self._team is not None else \
                [("character", int(c)) for c in self.view.pl[:len(self.seats), K.PL_CHAR]]
        events = list(events)
        roll = _chance_from_trace(self._trace_rows(n, n_ev), self.rules.pack().card_tab[:, K.C_KIND],
                                  events, roll)
        self._chance_cache = (n_ev, events, roll)
        return list(events)

    def _trace_rows(self, start: int, stop: int) -> np.ndarray:
        o = int(self.state[K.G_O_EV])
        return self.state[o + start * K.N_EV_COLS:o + stop * K.N_EV_COLS].reshape(-1, K.N_EV_COLS)

    def _replayed(self) -> "Game":
        """This game played again from its setup with every choice taken, with a trace
        large enough for all its events."""
        if self._actions is None:
            raise StepError("chance events of this game are unknown: it has no room in its "
                            "trace (Game(trace=...)) and cannot be replayed (a position)")
        seats = self.seats if self._team is None else \
            [{"player": s, "character": c} for s, c in zip(self.seats, self._team)]
        cap = max(4 * int(self.state[K.G_EV_CAP]), 4096)
        while True:
            g = type(self)(self.seed, self.game, seats=seats, ruleset=self.rules, check=self.check, trace=cap)
            for i in self._actions:
                g.apply(i)
            if int(g.state[K.G_EV_N]) < cap:
                return g
            cap *= 8


def _chance_from_trace(rows: np.ndarray, card_kind: np.ndarray, out: list,
                       roll: tuple[int, int, int]) -> tuple[int, int, int]:
    """Append the chance outcomes of trace ``rows`` to ``out`` (``card_kind``: each card
    type's ``C_KIND``); ``roll`` is the current attack's (heads, bodies, misses) before the
    rows (a lucky card rerolls the misses); return it after them."""
    h0, b0, x0 = roll
    simple = {K.EV_DRAW: "rubble", K.EV_HORDE: "horde", K.EV_FATE: "fate"}
    for kind, _r, _s, a, b, c, d in rows[:, :7].tolist():
        if kind == K.EV_ROUND:
            out.append(("timer", b))
        elif kind in simple:
            out.append((simple[kind], a))
        elif kind == K.EV_ROLL:  # a, b, c = heads, bodies, misses; d = faces, base 3
            out += [("attack_die", d // 3 ** i % 3) for i in range(a + b + c)]
            h0, b0, x0 = a, b, c
        elif kind == K.EV_CARD_PLAYED and b + c + d > 0:  # after the roll: b, c, d = H, B, X
            if card_kind[a] == K.CK_LUCKY:  # the x0 misses rerolled
                out += _counted_dice("lucky_die", b - h0, c - b0, d)
            h0, b0, x0 = b, c, d
        elif kind == K.EV_ENEMY_ROLL:  # b, c, d = heads, bodies, misses
            out += _counted_dice("enemy_die", b, c, d)
    return h0, b0, x0


def _counted_dice(kind: str, h: int, b: int, x: int) -> list[tuple[str, int]]:
    return [(kind, K.FACE_H)] * h + [(kind, K.FACE_B)] * b + [(kind, K.FACE_X)] * x


# =========================================================================== words
def _char(game: Game, seat: int) -> str:
    return game.rules.character_names[int(game.view.pl[seat, K.PL_CHAR])]


def describe_candidate(game: Game, decision: int, row: np.ndarray) -> str:
    """One candidate of a decision in words."""
    r = game.rules
    act, a, b = int(row[0]), int(row[1]), int(row[2])
    cards = r.card_names
    if act == K.A_NOTHING:
        return {K.D_PRE_ROLL: "roll the dice", K.D_POST_ROLL: "keep the roll",
                K.D_SACRIFICE: "take the damage", K.D_EXTRA_ATTACK: "no extra attack"}.get(
                    decision, "do nothing")
    if act == K.A_CRAFT:
        rec = r.pack().recipes[a]
        ings = [cards[int(c)] for c in rec[K.R_ING0:K.R_ING0 + int(rec[K.R_N])]]
        return f"craft {TOKEN_LABEL.get(int(rec[K.R_PRODUCT]), 'a token')} from {' + '.join(ings)}"
    if act in (K.A_GIVE, K.A_TAKE):
        how = "give {} to" if act == K.A_GIVE else "take {} from"
        return f"{how.format(cards[a])} {_char(game, b)} (seat {b})"
    if act == K.A_ATTACK:
        whose = "own" if a == game.to_move else f"{_char(game, a)}'s"
        extra = " (adrenaline)" if decision == K.D_EXTRA_ATTACK else ""
        return f"attack {whose} area ({', '.join(game.view.area_cards(a))}) with {cards[b]}{extra}"
    if act in (K.A_AMMO, K.A_COUNT):
        return f"spend {a} ammo card{'s' if a > 1 else ''}" if act == K.A_AMMO else \
            f"{a} card{'s' if a > 1 else ''} of the stack"
    verb = {K.A_DRAW: "draw a rubble card", K.A_USE: "use", K.A_PLAY: "play", K.A_DISCARD: "discard",
            K.A_KEEP: "keep"}.get(act)
    if verb:
        return verb if act == K.A_DRAW else f"{verb} {cards[a]}"
    if act == K.A_SACRIFICE:
        return f"sacrifice a saved {r.enemy_names[a]}"
    return f"{K.ACTION_NAMES[act]} {a} {b}"
