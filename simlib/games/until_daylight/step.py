"""Play Until Daylight one decision at a time from Python, and ask "what are our odds?".

The engine keeps a whole game in one int64 array, including where the game stands (the
step, the pending decision and the choices taken within the step), so a game can stop at
any decision, be copied, and continue (see ``kernels/game_nb.py``, "the engine").

>>> from simlib.games.until_daylight.step import Game, odds
>>> g = Game(seed=7, players=4)
>>> g.legal_actions()[:2]                      # the pending decision, in words
>>> g.apply(1)                                 # take candidate 1; play to the next decision
>>> odds(g, policy="baseline", n=1000)         # win probability from here (Wilson 95 %)
>>> g2 = g.clone()                             # an independent copy

A designer's position ("round 7, two Monsters in my area, I hold a shotgun and 3 shells")
is built with :func:`position`; :func:`action_odds` gives the odds of every legal action.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from simlib.core.stats import wilson_interval

from . import codes as K
from .api import (STEP_PID, STEP_PP, apply_step, check_players, flat_rules, new_step_state,
                  records_frame, team_codes)
from .kernels.game_nb import (
    advance_nb,
    finish_nb,
    invariant_violation_nb,
    new_state_nb,
    setup_nb,
    snapshot_nb,
    write_record_nb,
)
from .kernels.state_nb import char_mod_nb, update_leader_nb
from .kernels.search_nb import continuations_nb, policy_choice_nb, rollout_choice_nb
from .policies import resolve_policy, resolve_search
from .ruleset import Ruleset, load_ruleset
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
    """A step API call the game cannot take (no decision pending, index out of range)."""


@dataclass(frozen=True)
class Odds:
    """Win probability from a position: ``wins`` of ``n`` continuations, Wilson 95 %."""
    wins: int
    n: int
    p: float
    ci_low: float
    ci_high: float

    def __str__(self) -> str:
        return f"{self.p:.1%} [{self.ci_low:.1%}, {self.ci_high:.1%}] ({self.wins}/{self.n})"


class Game:
    """One game of Until Daylight, played a decision at a time.

    Parameters
    ----------
    seed, game : int
        The game's randomness is a pure function of ``(seed, game)``: ``Game(seed=s,
        game=i)`` deals exactly game ``i`` of a study with seed ``s``.
    players : int
    characters : sequence of str, optional
        The team in seat order; ``None`` draws it as a study does.
    ruleset : Ruleset, optional
        ``None``: the declared default, the calibrated preset (``"reference"``, a preset
        name, a path or a Ruleset as ``load_ruleset`` takes them).
    check : bool
        Check the invariants after every step (``violation`` in :attr:`result`).
    trace : int
        Capacity of the event buffer (0: no trace).
    """

    def __init__(self, seed: int = 0, game: int = 0, players: int = 4,
                 characters: Sequence[str] | None = None, ruleset: Ruleset | None = None,
                 check: bool = False, trace: int = 0, policy: str = "baseline",
                 policy_params=None, _state: np.ndarray | None = None):
        self.ruleset = load_ruleset(ruleset)
        self.rs = flat_rules(self.ruleset)
        self.seed, self.game = int(seed), int(game)
        self.policy, self.policy_params = policy, policy_params
        # what chance_events() needs to replay the game when the trace cannot tell it:
        # the table as set up, and every choice taken since (None: not replayable)
        self._table: tuple[int, np.ndarray, bool] | None = None
        self._actions: list[int] | None = None
        self._chance_cache: tuple[int, list, tuple[int, int, int]] = (0, [], (0, 0, 0))
        if _state is not None:
            self.state = _state
            return
        p = check_players(players, self.ruleset)
        chars = characters if isinstance(characters, np.ndarray) else \
            team_codes(characters, p, self.ruleset)
        self._table = (p, np.array(chars, dtype=np.int64), bool(check))
        self._actions = []
        self.state = new_step_state(self.rs, seed, game, p, chars, trace, check)

    # ------------------------------------------------------------------ reading
    @property
    def view(self) -> GameState:
        """Named numpy views of the state (``pl``, ``inv``, ``area``, ...)."""
        return GameState(self.state, self.ruleset)

    @property
    def over(self) -> bool:
        return bool(self.state[K.G_OVER])

    @property
    def decision(self) -> str | None:
        """The pending decision's kind, ``None`` when the game is over."""
        if not self.state[K.G_SUSPENDED]:
            return None
        return DECISION_NAMES[int(self.state[K.G_PENDING_D])]

    @property
    def seat(self) -> int:
        """The seat that decides now (-1 when the game is over)."""
        return int(self.state[K.G_PENDING_SEAT]) if self.state[K.G_SUSPENDED] else -1

    def candidates(self) -> np.ndarray:
        """The pending decision's candidates as rows ``(action, a, b, c)`` (codes)."""
        if not self.state[K.G_SUSPENDED]:
            return np.zeros((0, K.N_CAND_COLS), dtype=np.int64)
        m = int(self.state[K.G_PENDING_M])
        o = int(self.state[K.G_O_CANDS])
        return self.state[o:o + m * K.N_CAND_COLS].reshape(m, K.N_CAND_COLS).copy()

    def legal_actions(self) -> list[str]:
        """The pending decision's candidates in words (index i is ``apply(i)``'s)."""
        d = int(self.state[K.G_PENDING_D])
        return [describe_candidate(self, d, row) for row in self.candidates()]

    @property
    def result(self) -> dict[str, Any]:
        """The game's record (``outcome``, ``cause``, ``round_reached`` ...) as a dict;
        meaningful once :attr:`over`."""
        rec = np.zeros(K.N_REC, dtype=np.int64)
        write_record_nb(self.state, self.rs, np.int64(self.game), rec)
        out = dict(zip(K.REC_FIELDS, rec.tolist()))
        out["win"] = bool(out["outcome"] == K.OUT_WIN) if self.over else None
        return out

    def situation(self) -> dict[str, Any]:
        """Where the game stands, as a dict of names."""
        v = self.view
        r = self.ruleset
        n = v.n_players
        seats = []
        for s in range(n):
            inv = {r.card_names[c]: int(k) for c, k in enumerate(v.inv[s]) if k > 0}
            kept = {r.enemy_names[t]: int(k) for t, k in enumerate(v.kept[s]) if k > 0}
            seats.append({
                "seat": s, "character": r.character_names[int(v.pl[s, K.PL_CHAR])],
                "health": int(v.pl[s, K.PL_HEALTH]), "max_health": int(v.pl[s, K.PL_MAX_HEALTH]),
                "inventory": inv, "area": v.area_cards(s), "traps": int(v.pl[s, K.PL_TRAPS]),
                "barricades": int(v.pl[s, K.PL_BARRICADES]), "kept": kept,
            })
        g = self.state
        return {"round": int(g[K.G_ROUND]), "rounds": int(self.rs[K.P_ROUNDS]),
                "phase": PHASE_NAMES.get(int(g[K.G_PHASE]), "?"),
                "decision": self.decision, "seat": self.seat,
                "over": self.over, "leader": int(g[K.G_LEADER]),
                "horde_deck": int(g[K.G_HDECK_N]), "rubble_deck": int(g[K.G_RDECK_N]),
                "seats": seats}

    def describe(self) -> str:
        """The situation as text: round and phase, each seat, the pending decision."""
        s = self.situation()
        lines = [f"Round {s['round']} of {s['rounds']}, {s['phase']} phase"
                 + (" - game over: " + ("won" if self.result["win"] else "lost") if s["over"] else "")]
        for p in s["seats"]:
            inv = ", ".join(f"{k} x{v}" if v > 1 else k for k, v in p["inventory"].items()) or "-"
            area = ", ".join(p["area"]) or "empty"
            tokens = []
            if p["traps"]:
                tokens.append(f"{p['traps']} trap(s)")
            if p["barricades"]:
                tokens.append(f"{p['barricades']} barricade(s)")
            if p["kept"]:
                tokens.append("kept " + ", ".join(f"{k} x{v}" for k, v in p["kept"].items()))
            lines.append(f"  seat {p['seat']} {p['character']:<9} health {p['health']}/"
                         f"{p['max_health']}  holds: {inv}  area: {area}"
                         + (f"  [{'; '.join(tokens)}]" if tokens else ""))
        if not s["over"]:
            lines.append(f"Seat {s['seat']} ({s['seats'][s['seat']]['character']}) chooses "
                         f"the {s['decision']}:")
            lines += [f"  {i}: {a}" for i, a in enumerate(self.legal_actions())]
        return "\n".join(lines)

    def __repr__(self) -> str:
        if self.over:
            return f"<Game over: {'won' if self.result['win'] else 'lost'} in round {int(self.state[K.G_ROUND])}>"
        return (f"<Game round {int(self.state[K.G_ROUND])}, seat {self.seat} to choose the "
                f"{self.decision} ({int(self.state[K.G_PENDING_M])} candidates)>")

    # ------------------------------------------------------------------ acting
    def apply(self, i: int) -> "Game":
        """Take candidate ``i`` of the pending decision; the game plays on (chance and
        forced steps) to the next decision or the end.  Returns ``self``."""
        if self.over:
            raise StepError("the game is over: no decision to take")
        m = int(self.state[K.G_PENDING_M])
        if not (isinstance(i, (int, np.integer)) and 0 <= int(i) < m):
            raise StepError(f"action index must be an integer from 0 to {m - 1}; got {i!r}")
        code = apply_step(self.state, self.rs, int(i))
        if code == -3:
            raise StepError(
                f"this step already holds {int(self.state[K.G_SCRIPT_CAP])} choices, the "
                "capacity of a step's script (codes.SCRIPT_CAP); the game is unchanged. "
                "The rules allow no fixed bound (see simlib/games/until_daylight/capacities.py)")
        if code < 0:
            raise StepError(f"the engine refused the action (code {code})")
        if self._actions is not None:
            self._actions.append(int(i))
        return self

    def policy_choice(self, policy: str | None = None, params=None) -> int:
        """The candidate ``policy`` (default: the game's own player, ``policy`` of the
        constructor) would take now (its own random stream advances, as it would in a
        study)."""
        if policy is None:
            policy, params = self.policy, self.policy_params if params is None else params
        if self.over:
            raise StepError("the game is over: no decision to take")
        search = resolve_search(policy, params)
        if search is not None:
            bid, bpp, rp = search
            return int(rollout_choice_nb(self.state, self.rs, np.int64(bid), bpp, rp))
        pid, pp = resolve_policy(policy, params)
        return int(policy_choice_nb(self.state, self.rs, np.int64(pid), pp))

    def play(self, policy: str | None = None, params=None) -> "Game":
        """Let ``policy`` (default: the game's own player) take every remaining decision
        (the game's own streams)."""
        if policy is None:
            policy, params = self.policy, self.policy_params if params is None else params
        if resolve_search(policy, params) is not None:
            while not self.over:
                self.apply(self.policy_choice(policy, params))
            return self
        pid, pp = resolve_policy(policy, params)
        finish_nb(self.state, self.rs, np.int64(pid), pp, np.int64(K.PC_OVER))
        self._actions = None  # the policy chose inline: the choices are not known one by one
        return self

    def clone(self) -> "Game":
        """An independent copy (the state array copied; the chance events carried)."""
        g = Game(seed=self.seed, game=self.game, ruleset=self.ruleset, policy=self.policy,
                 policy_params=self.policy_params, _state=self.state.copy())
        g._table = self._table
        g._actions = None if self._actions is None else list(self._actions)
        n, events, roll = self._chance_cache
        g._chance_cache = (n, list(events), roll)
        return g

    def chance_events(self) -> list[tuple[str, Any]]:
        """Every chance outcome since the game began, in the order the engine drew them.

        Each is ``(kind, value)`` in the kernel's codes:

        - ``("character", c)``: setup, one per seat in seat order, when the team is drawn
          (``characters=None``): seat ``s`` gets character ``c`` among those not yet taken.
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
        that is impossible after :meth:`play` or for a :func:`position` (a
        :class:`StepError` says so).
        """
        st = self.state
        n_ev = int(st[K.G_EV_N])
        if int(st[K.G_EV_CAP]) > 0 and n_ev < int(st[K.G_EV_CAP]):
            n, events, roll = self._chance_cache
            if n > n_ev:  # cannot happen in one game's life; start over rather than guess
                n, events, roll = 0, [], (0, 0, 0)
            if n == 0:
                events = self._setup_chance()
            events = list(events)
            roll = _chance_from_trace(self._trace_rows(n, n_ev), self._card_kinds(),
                                      events, roll)
            self._chance_cache = (n_ev, events, roll)
            return list(events)
        return self._replayed().chance_events()

    def _card_kinds(self) -> np.ndarray:
        kinds = getattr(self, "_kinds", None)
        if kinds is None:
            kinds = self._kinds = self.ruleset.pack().card_tab[:, K.C_KIND].copy()
        return kinds

    def _trace_rows(self, start: int, stop: int) -> np.ndarray:
        o = int(self.state[K.G_O_EV])
        return self.state[o + start * K.N_EV_COLS:o + stop * K.N_EV_COLS].reshape(-1, K.N_EV_COLS)

    def _setup_chance(self) -> list[tuple[str, Any]]:
        if self._table is None or self._table[1][0] >= 0:
            return []  # the team was given: setup draws nothing
        pl = self.view.pl
        return [("character", int(pl[s, K.PL_CHAR])) for s in range(int(self.state[K.G_N_PLAYERS]))]

    def _replayed(self) -> "Game":
        """This game played again from its setup with every choice taken, with a trace
        large enough for all its events."""
        if self._table is None or self._actions is None:
            raise StepError("chance events of this game are unknown: it has no room in its "
                            "trace (Game(trace=...)) and cannot be replayed (a position, or "
                            "a game whose policy played inline with play())")
        players, team, check = self._table
        cap = max(4 * int(self.state[K.G_EV_CAP]), 4096)
        while True:
            g = Game(seed=self.seed, game=self.game, players=players, characters=team,
                     ruleset=self.ruleset, check=check, trace=cap, policy=self.policy,
                     policy_params=self.policy_params)
            g._table = self._table
            for i in self._actions:
                g.apply(i)
            if int(g.state[K.G_EV_N]) < cap:
                return g
            cap *= 8

    def record(self) -> dict:
        """This game's record as a study's ``run_chunk`` gives it (same columns, names)."""
        rec = np.zeros(1, dtype=K.record_dtype())
        write_record_nb(self.state, self.rs, np.int64(self.game), rec.view(np.int64)[:K.N_REC])
        return records_frame(rec, self.ruleset).iloc[0].to_dict()

    def violation(self) -> str:
        """The first invariant the current position breaks ("none" if it holds).

        Some decisions stand mid-rule, and the check reads them as the rule does: at a
        "card to keep" the looked-at cards are in no pile yet (they count as in play); at a
        "card to discard" the seat is over its inventory limit (that is the decision; its
        cards count as in play, the other invariants are checked).  A discard or a
        sacrifice can also be asked *inside* a draw action whose player looks at several
        cards (a red card drawn among them: a lost item, an injury): the cards looked at
        so far are in that player's hand, in no pile, and the engine does not count them
        in the state; up to the drawer's extra looked-at cards may then be missing from
        the piles (the other invariants are checked with them counted)."""
        st = self.state
        d = int(st[K.G_PENDING_D]) if st[K.G_SUSPENDED] else -1
        if d in (K.D_KEEP, K.D_DISCARD, K.D_SACRIFICE):
            st = st.copy()
            v = GameState(st, self.ruleset)
            if d == K.D_KEEP:
                for row in self.candidates():
                    v.rdisc[row[1]] += 1
            elif d == K.D_DISCARD:
                seat = self.seat
                v.rdisc[:] += v.inv[seat]
                v.inv[seat] = 0
            if st[K.G_PHASE] == K.PHASE_SEARCH and d != K.D_KEEP:
                missing = int(self.rs[K.P_RUBBLE_TOTAL]) - v.rubble_total()
                extra = int(char_mod_nb(st, self.rs, np.int64(self.seat), np.int64(K.MOD_DRAW_EXTRA)))
                if 0 < missing <= extra:
                    st[K.G_RDECK_N] += missing  # the looked-at cards, counted as in play
        return K.VIOL_NAMES[int(invariant_violation_nb(st, self.rs))]


def _chance_from_trace(rows: np.ndarray, card_kind: np.ndarray, out: list,
                       roll: tuple[int, int, int]) -> tuple[int, int, int]:
    """Append the chance outcomes of trace ``rows`` to ``out`` (``card_kind``: each card
    type's ``C_KIND``); ``roll`` is the current attack's (heads, bodies, misses) before the
    rows (a lucky card rerolls the misses); return it after them."""
    h0, b0, x0 = roll
    for row in rows:
        kind, a, b, c, d = int(row[0]), int(row[3]), int(row[4]), int(row[5]), int(row[6])
        if kind == K.EV_ROUND:
            out.append(("timer", b))
        elif kind == K.EV_DRAW:
            out.append(("rubble", a))
        elif kind == K.EV_HORDE:
            out.append(("horde", a))
        elif kind == K.EV_FATE:
            out.append(("fate", a))
        elif kind == K.EV_ROLL:  # a, b, c = heads, bodies, misses; d = faces, base 3
            code = d
            for _ in range(a + b + c):
                out.append(("attack_die", code % 3))
                code //= 3
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
    return game.ruleset.character_names[int(game.view.pl[seat, K.PL_CHAR])]


def describe_candidate(game: Game, decision: int, row: np.ndarray) -> str:
    """One candidate of a decision in words."""
    r = game.ruleset
    act, a, b = int(row[0]), int(row[1]), int(row[2])
    cards = r.card_names
    if act == K.A_NOTHING:
        return {K.D_PRE_ROLL: "roll the dice", K.D_POST_ROLL: "keep the roll",
                K.D_SACRIFICE: "take the damage", K.D_EXTRA_ATTACK: "no extra attack"}.get(
                    decision, "do nothing")
    if act == K.A_DRAW:
        return "draw a rubble card"
    if act == K.A_CRAFT:
        rec = game.ruleset.pack().recipes[a]
        ings = [cards[int(c)] for c in rec[K.R_ING0:K.R_ING0 + int(rec[K.R_N])]]
        return f"craft {TOKEN_LABEL.get(int(rec[K.R_PRODUCT]), 'a token')} from {' + '.join(ings)}"
    if act == K.A_GIVE:
        return f"give {cards[a]} to {_char(game, b)} (seat {b})"
    if act == K.A_TAKE:
        return f"take {cards[a]} from {_char(game, b)} (seat {b})"
    if act == K.A_USE:
        return f"use {cards[a]}"
    if act == K.A_ATTACK:
        whose = "own" if a == game.seat else f"{_char(game, a)}'s"
        line = ", ".join(game.view.area_cards(a))
        extra = " (adrenaline)" if decision == K.D_EXTRA_ATTACK else ""
        return f"attack {whose} area ({line}) with {cards[b]}{extra}"
    if act == K.A_AMMO:
        return f"spend {a} ammo card{'s' if a > 1 else ''}"
    if act == K.A_PLAY:
        return f"play {cards[a]}"
    if act == K.A_DISCARD:
        return f"discard {cards[a]}"
    if act == K.A_KEEP:
        return f"keep {cards[a]}"
    if act == K.A_SACRIFICE:
        return f"sacrifice a saved {r.enemy_names[a]}"
    if act == K.A_COUNT:
        return f"{a} card{'s' if a > 1 else ''} of the stack"
    return f"{K.ACTION_NAMES[act]} {a} {b}"


# =========================================================================== odds
def continuation_records(game: Game, n: int, policy: str = "baseline", params=None,
                         action: int = -1, first: int = 0, peek: bool = False) -> np.ndarray:
    """Records (int64, (n, N_REC)) of ``n`` continuations of ``game`` played by
    ``policy``, each with its own re-keyed streams (continuation ``first + r``)."""
    pid, pp = resolve_policy(policy, params)
    out = np.zeros((int(n), K.N_REC), dtype=np.int64)
    continuations_nb(game.state, game.rs, np.int64(pid), pp, np.int64(action), np.int64(first),
                     np.int64(n), np.int64(bool(peek)), out)
    return out


def odds(game: Game, policy: str = "baseline", n: int = 1000, params=None,
         action: int | None = None) -> Odds:
    """Win probability from ``game``'s position when ``policy`` plays every decision
    (after taking candidate ``action`` of the pending decision, if given): ``n``
    continuations, each re-keyed, with a Wilson 95 % interval.  A finished game gives 0
    or 1 exactly."""
    if int(n) < 1:
        raise ValueError(f"n must be a positive number of continuations; got {n!r}")
    if game.over:
        w = int(game.result["win"]) * int(n)
    else:
        if action is not None:
            m = int(game.state[K.G_PENDING_M])
            if not 0 <= int(action) < m:
                raise StepError(f"action index must be from 0 to {m - 1}; got {action!r}")
        rec = continuation_records(game, n, policy, params, -1 if action is None else int(action))
        w = int((rec[:, K.REC_OUTCOME] == K.OUT_WIN).sum())
    lo, hi = wilson_interval(w, int(n))
    return Odds(w, int(n), w / int(n), float(lo), float(hi))


def action_odds(game: Game, policy: str = "baseline", n: int = 1000, params=None) -> pd.DataFrame:
    """Odds of each legal action of the pending decision: take it, then ``policy`` plays
    on.  The same continuation keys for every action (common random numbers).  Columns:
    action, wins, n, win_rate, ci_low, ci_high, mean_round (round reached)."""
    rows = []
    for i, text in enumerate(game.legal_actions()):
        rec = continuation_records(game, n, policy, params, i)
        w = int((rec[:, K.REC_OUTCOME] == K.OUT_WIN).sum())
        lo, hi = wilson_interval(w, int(n))
        rows.append({"index": i, "action": text, "wins": w, "n": int(n), "win_rate": w / n,
                     "ci_low": float(lo), "ci_high": float(hi),
                     "mean_round": float(rec[:, K.REC_ROUND_REACHED].mean())})
    return pd.DataFrame(rows).set_index("index")


# =========================================================================== positions
PHASES = ("search", "combat")


def position(players: Sequence[Mapping[str, Any]], round: int, phase: str = "combat",
             ruleset: Ruleset | None = None, seed: int = 0, first: int = 0,
             check: bool = True) -> Game:
    """A game set up from a description, stopped at its first decision.

    Parameters
    ----------
    players : list of dict, one per seat
        ``character`` (name, required); optional ``health``, ``inventory`` (card name ->
        count; replaces the basic weapon, so list it), ``area`` (enemy names, left to
        right), ``traps``, ``barricades``, ``saved`` (survivor name -> count kept).
    round : int
        1 .. rounds.
    phase : "combat" or "search"
        ``combat``: the combat phase of ``round`` starts with seat ``first`` (the
        caught player); ``search``: the round starts, seat ``first`` searches first.
    seed : int
        The randomness of the rest of the game.  The decks hold every card not in play,
        discard piles are empty.

    Raises ``ValueError`` naming what is wrong: an unknown card, enemy or character, more
    copies in play than the ruleset has, health outside 1..max, a round outside the
    night, a token count over the limit.
    """
    rules = load_ruleset(ruleset)
    packed = rules.pack()
    params = packed.params
    n = check_players(len(players), rules)
    rounds = int(params[K.P_ROUNDS])
    if not (isinstance(round, (int, np.integer)) and 1 <= round <= rounds):
        raise ValueError(f"round must be an integer from 1 to {rounds}; got {round!r}")
    if phase not in PHASES:
        raise ValueError(f"phase must be one of {', '.join(PHASES)}; got {phase!r}")
    if not 0 <= int(first) < n:
        raise ValueError(f"first must be a seat from 0 to {n - 1}; got {first!r}")
    names = []
    for s, p in enumerate(players):
        if not isinstance(p, Mapping) or "character" not in p:
            raise ValueError(f"seat {s}: a mapping with at least a 'character' is needed")
        unknown = set(p) - {"character", "health", "inventory", "area", "traps", "barricades", "saved"}
        if unknown:
            raise ValueError(f"seat {s}: unknown keys {sorted(unknown)}; allowed: character, "
                             "health, inventory, area, traps, barricades, saved")
        names.append(str(p["character"]))
    chars = team_codes(names, n, rules)
    rs = flat_rules(rules)
    st = new_state_nb(rs, np.int64(0))
    st[K.G_CHECK] = int(bool(check))
    st[K.G_MODE] = K.MODE_STEP
    setup_nb(st, rs, np.int64(seed), np.int64(0), np.int64(n), chars)
    gs = GameState(st, rules)
    # every card back in its deck, then deal the described position from the decks
    gs.inv[:] = 0
    card_tab = packed.card_tab
    deck = []
    for c in range(card_tab.shape[0]):
        k = int(card_tab[c, K.C_COUNT])
        owner = int(card_tab[c, K.C_BASIC_OF])
        if owner >= 0:
            k = 1  # each basic weapon exists once (its character's)
        deck += [c] * k
    gs.rdeck[:len(deck)] = deck
    st[K.G_RDECK_N] = len(deck)
    token_limit = int(params[K.P_TOKEN_LIMIT])
    for s, p in enumerate(players):
        c = int(chars[s])
        hmax = int(gs.pl[s, K.PL_MAX_HEALTH])
        h = p.get("health", hmax)
        if not (isinstance(h, (int, np.integer)) and 1 <= h <= hmax):
            raise ValueError(f"seat {s} ({names[s]}): health must be from 1 to {hmax}; got {h!r}")
        gs.pl[s, K.PL_HEALTH] = h
        inv = p.get("inventory")
        if inv is None:
            inv = {rules.card_names[int(packed.char_tab[c, K.CH_WEAPON])]: 1}
        for card, k in dict(inv).items():
            if card not in rules.card_names:
                raise ValueError(f"seat {s}: unknown card {card!r}; allowed: {', '.join(rules.card_names)}")
            try:
                gs.give(s, card, int(k))
            except ValueError:
                raise ValueError(f"seat {s}: more {card} in play than the rubble deck has "
                                 f"({int(sum(1 for x in deck if x == rules.card_id(card)))})") from None
        for enemy in p.get("area", ()):
            if enemy not in rules.enemy_names:
                raise ValueError(f"seat {s}: unknown enemy {enemy!r}; allowed: {', '.join(rules.enemy_names)}")
            try:
                gs.add_to_area(s, enemy)
            except ValueError:
                raise ValueError(f"seat {s}: more {enemy} in play than the horde deck has") from None
        for name, k in dict(p.get("saved", {})).items():
            if name not in rules.enemy_names:
                raise ValueError(f"seat {s}: unknown survivor {name!r}")
            t = rules.enemy_id(name)
            for _ in range(int(k)):
                try:
                    gs._take_from_deck(t)
                except ValueError:
                    raise ValueError(f"seat {s}: more {name} in play than the horde deck has") from None
                gs.kept[s, t] += 1
        traps, barrs = int(p.get("traps", 0)), int(p.get("barricades", 0))
        if traps < 0 or barrs < 0 or traps + barrs > token_limit:
            raise ValueError(f"seat {s}: traps + barricades must be from 0 to the token limit "
                             f"{token_limit}; got {traps} + {barrs}")
        gs.pl[s, K.PL_TRAPS] = traps
        gs.pl[s, K.PL_BARRICADES] = barrs
        st[K.G_TRAP_SUPPLY] -= traps
        st[K.G_BARR_SUPPLY] -= barrs
    if st[K.G_TRAP_SUPPLY] < 0 or st[K.G_BARR_SUPPLY] < 0:
        raise ValueError(f"more traps or barricades in play than the supply "
                         f"({int(params[K.P_TRAP_SUPPLY])} traps, {int(params[K.P_BARRICADE_SUPPLY])} barricades)")
    update_leader_nb(st, rs)
    if phase == "search":
        st[K.G_ROUND] = round - 1
        st[K.G_FIRST] = first
        st[K.G_PC] = K.PC_ROUND_BEGIN
    else:
        st[K.G_ROUND] = round
        st[K.G_CAUGHT] = first
        st[K.G_FIRST] = (first + 1) % n
        if round >= rounds:
            st[K.G_PHASE] = K.PHASE_FINAL
            st[K.G_FINAL_E] = 0
        st[K.G_PC] = K.PC_EXCHANGE
    st[K.G_PC_I] = 0
    v = int(invariant_violation_nb(st, rs))
    if v != K.VIOL_NONE:
        raise ValueError(f"the position breaks an invariant: {K.VIOL_NAMES[v]}")
    snapshot_nb(st)
    advance_nb(st, rs, np.int64(STEP_PID), STEP_PP)
    return Game(seed=seed, game=0, ruleset=rules, _state=st)
