"""Python face of the Mort de la lumière du jour kernels: play games, records as
DataFrames, the step model (:class:`Game`).

>>> from simlib.games.mort.api import play_games
>>> df = play_games(1000, seats="killer=heuristic,survivors=random", seed=7)
>>> df.killer_win.mean()

The step model (one game, a decision at a time)::

    game = Game(seed=1, game=0)                  # game 0 of seed 1, at its first decision
    while not game.over:
        game.apply(game.policy_choice())         # or any choice of yours
    game.result["killer_win"]

Seats: seat 0 is the killer, seats 1-4 the survivors.  ``seats`` is
``"killer=rollout,survivors=heuristic"`` (either key may be left out: ``heuristic``), one
spec per seat (``["heuristic", "random", "random", "random", "random"]`` or the same
comma-separated), or a mapping ``{"killer": ..., "survivors": ...}``.
``ruleset=None`` is the reference ruleset (the game's only preset) everywhere.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from ...core.parallel import run_ranges
from ...core.rng import GOLDEN, MIX1, MIX2, STREAM_SALT
from . import codes as K
from .kernels import play_nb as PN
from .kernels.policies_nb import N_PARAMS, POLICY_ROLLOUT, WORK_SIZE
from .policies import POLICIES, Seat, make_seat, parse_seat
from .records import TIMELINE_ROUNDS, records_frame
from .ruleset import MortRules, load_ruleset

__all__ = ["play_games", "run_kernel", "records_frame", "trace_game", "Game", "parse_seats",
           "seats_label", "action_text", "TIMELINE_ROUNDS"]


def _rules(ruleset) -> MortRules:
    if ruleset is None:
        return load_ruleset()
    if isinstance(ruleset, MortRules):
        return ruleset
    return load_ruleset(ruleset)


_NO_POL = np.zeros((1, K.MAX_SEATS), dtype=np.int64)
_NO_PAR = np.zeros((1, K.MAX_SEATS, N_PARAMS), dtype=np.float64)
_NO_OUT = np.zeros((1, K.REC_SIZE), dtype=np.int64)
_NO_STATE = np.zeros(K.S_SIZE, dtype=np.int64)
_NO_LEGAL = np.zeros(K.MAX_LEGAL, dtype=np.int64)
_NO_WORK = np.zeros(1, dtype=np.int64)
_NO_LOG = np.zeros((1, K.LOG_W), dtype=np.int64)


def _k(op: int, flat: np.ndarray, *, seed: int = 0, pol=_NO_POL,
       par=_NO_PAR, out=_NO_OUT, state=_NO_STATE, a: int = 0, legal=_NO_LEGAL, work=_NO_WORK,
       log=_NO_LOG, nolog=_NO_LOG) -> int:
    """One call of the step model's compiled entry (``kernels.play_nb.kernel_nb``, the
    search player included)."""
    return int(PN.kernel_nb(np.int64(op), flat, np.int64(seed), pol, par, out, state, np.int64(a),
                            legal, work, log, nolog))


def _searches(pol: np.ndarray) -> bool:
    return bool((np.asarray(pol) == POLICY_ROLLOUT).any())


def _as_seat(x) -> Seat:
    if isinstance(x, Seat):
        return x
    if isinstance(x, str):
        return parse_seat(x)
    name, params = x
    return make_seat(name, params)


def parse_seats(seats, rules: MortRules, default: str = "heuristic") -> tuple[Seat, ...]:
    """The seats of a table: ``(killer, survivor 1, ..., survivor n)``.

    ``seats``: ``None`` (every seat ``default``); ``"killer=A,survivors=B"`` (keys
    ``killer``, ``survivors``, ``survivor1`` .. ``survivorN``; a key left out plays
    ``default``); a mapping with those keys; or one spec per seat (a list, or the same
    comma-separated), the killer first.
    """
    n = int(rules.get("board.survivors"))
    if seats is None:
        return tuple([_as_seat(default)] * (n + 1))
    if isinstance(seats, str):
        seats = [p.strip() for p in seats.split(",") if p.strip()]
    if not isinstance(seats, dict):
        seats = list(seats)
        named = [isinstance(x, str) and "=" in x.split(":")[0] for x in seats]
        if seats and all(named):  # "killer=A", "survivors=B"
            seats = {k.strip(): v.strip() for k, v in (x.split("=", 1) for x in seats)}
        elif any(named):
            raise ValueError(f"seats {seats!r}: name every seat (killer=..., survivors=...) or none")
    if isinstance(seats, dict):
        allowed = ["killer", "survivors"] + [f"survivor{i}" for i in range(1, n + 1)]
        for k in seats:
            if k not in allowed:
                raise ValueError(f"unknown seat {k!r}; allowed: {', '.join(allowed)}")
        killer = _as_seat(seats.get("killer", default))
        surv = _as_seat(seats.get("survivors", default))
        out = [killer] + [_as_seat(seats[f"survivor{i}"]) if f"survivor{i}" in seats else surv
                          for i in range(1, n + 1)]
        return tuple(out)
    seats = list(seats)
    if len(seats) != n + 1:
        raise ValueError(f"a table has {n + 1} seats (the killer, then {n} survivors); got "
                         f"{len(seats)}")
    return tuple(_as_seat(x) for x in seats)


def seats_label(seats: Sequence[Seat]) -> tuple[str, str]:
    """(the killer's label, the survivors' label: one name, or each seat's joined by +)."""
    surv = [s.label for s in seats[1:]]
    return seats[0].label, surv[0] if len(set(surv)) == 1 else "+".join(surv)


def seat_arrays(seats: Sequence[Seat], n: int) -> tuple[np.ndarray, np.ndarray]:
    pol = np.zeros((n, K.MAX_SEATS), dtype=np.int64)
    par = np.zeros((n, K.MAX_SEATS, N_PARAMS), dtype=np.float64)
    for s, seat in enumerate(seats):
        pol[:, s] = POLICIES[seat.policy].id
        par[:, s, :] = seat.vector()
    return pol, par


def run_kernel(rules: MortRules, seed: int, start: int, seat_policy: np.ndarray,
               seat_params: np.ndarray, threads: int | None = None) -> np.ndarray:
    """Play games ``start .. start + len(seat_policy) - 1``; int64 records (count, REC_SIZE)."""
    out = np.zeros((len(seat_policy), K.REC_SIZE), dtype=np.int64)
    args = (rules.flat(), np.int64(seed), np.int64(start), np.ascontiguousarray(seat_policy, np.int64),
            np.ascontiguousarray(seat_params, np.float64), out)
    batch = PN.play_batch_search_nb if _searches(seat_policy) else PN.play_batch_nb
    run_ranges(batch, args, len(seat_policy), threads)
    return out


def play_games(n_games: int, seats=None, seed: int = 0, ruleset=None, start: int = 0,
               threads: int | None = None) -> pd.DataFrame:
    """Play ``n_games`` games of one table; their records (see :func:`records_frame`).

    ``seats``: see :func:`parse_seats` (default: ``heuristic`` everywhere); ``ruleset``:
    ``None`` (the reference ruleset), a ruleset, a folder or a tweak file.
    """
    rules = _rules(ruleset)
    table = parse_seats(seats, rules)
    n = int(n_games)
    if n <= 0:
        raise ValueError(f"n_games must be positive; got {n_games}")
    pol, par = seat_arrays(table, n)
    out = run_kernel(rules, seed, start, pol, par, threads)
    k, s = seats_label(table)
    return records_frame(out, rules, k, s)


def trace_game(seed: int, game: int, seats: Sequence[Seat], ruleset=None, capacity: int = 200_000):
    """Replay game ``game`` of a study with a trace: ``(record row, log rows, state)`` (the
    same kernel and key as the study: the very game the study played)."""
    rules = _rules(ruleset)
    pol, par = seat_arrays(seats, 1)
    log = np.zeros((capacity, K.LOG_W), dtype=np.int64)
    state = np.zeros(K.S_SIZE, dtype=np.int64)
    flat = rules.flat()
    _k(PN.OP_INIT, flat, seed=seed, state=state, a=game, log=log)
    _k(PN.OP_PLAY, flat, pol=pol, par=par, state=state,
       legal=np.zeros(K.MAX_LEGAL, np.int64), work=np.zeros(WORK_SIZE, np.int64), log=log)
    out = np.zeros((1, K.REC_SIZE), dtype=np.int64)
    _k(PN.OP_RECORD, flat, state=state, a=game, out=out)
    return out[0], log[1:1 + log[0, 0]].copy(), state


# =========================================================================== words
_SIDES = ("north", "east", "south", "west")


def action_text(a: int, rules: MortRules) -> str:
    """An action code in words."""
    a = int(a)
    simple = {K.A_END_TURN: "end the turn", K.A_STOP: "stop (the card's points left are lost)",
              K.A_HATCH: "escape through the open hatch", K.A_SPRINT_MOVE: "move with the sprint's points",
              K.A_PASS: "pass", K.A_REFLEX: "answer the strike with a reflex card",
              K.A_HELP: "help: answer the strike with a reflex card",
              K.A_NORTH: "move north", K.A_EAST: "move east", K.A_SOUTH: "move south",
              K.A_WEST: "move west", K.A_SHORTCUT: "take the shortcut",
              K.A_PLACE_GEN: "place a generator here", K.A_PLACE_SHORTCUT: "place a shortcut here",
              K.A_PLACE_CHEST: "place a chest here", K.A_PLACE_PAWN: "place the pawn here",
              K.A_PLAY_MAP: "play the map (reveal the hatch)", K.A_PLAY_KEY: "play the key (open the hatch)",
              K.A_PLAY_SPRINT: "play a sprint"}
    if a in simple:
        return simple[a]
    name = K.action_name(a)
    kind, _, rest = name.partition(":")
    if kind == "commit":
        q, v = rest.split(":")
        return f"spend a {v}-point energy card on: {q}"
    if kind == "pool":
        return f"spend the pooled points on: {rest}"
    if kind == "gates":
        return f"put the gates on the {rest.replace('+', ' and ')} sides"
    if kind == "pallet_at":
        x, y = rules.tokens()[int(rest)]
        return f"place a pallet next to the token at ({x}, {y})"
    if kind == "discard":
        return f"discard a {rules.names('survivor_cards')[int(rest)]} card"
    words = {"repair": "roll to repair generator", "toolbox": "light a lamp of generator (toolbox)",
             "block": "block generator", "chest": "roll to open chest", "gate": "roll at the lever of gate",
             "escape": "escape through gate", "drop": "drop pallet", "break": "roll to break pallet",
             "casse": "break pallet with a card", "detour": "walk round pallet",
             "strike": "strike survivor", "medkit": "heal survivor"}
    return f"{words[kind]} {rest}"


# =========================================================================== the step model
_STEP_LOG_ROWS = 1024   # log rows one kernel call can write (a step, or the setup's deal: ~60)
_DECK_KINDS = ("energy", "killer_card", "survivor_card")   # codes of engine_nb.log_draw_nb
_M64 = (1 << 64) - 1


def _mix(z: int) -> int:
    """``core.rng.mix64_nb`` on Python ints."""
    z = ((z ^ (z >> 30)) * int(MIX1)) & _M64
    z = ((z ^ (z >> 27)) * int(MIX2)) & _M64
    return z ^ (z >> 31)


def _stream_seed(key: int, stream: int) -> int:
    """A stream's first value, as ``engine_nb.init_state_nb`` writes it (signed int64)."""
    z = _mix((key & _M64) ^ (((stream + 1) * int(STREAM_SALT)) & _M64))
    return z - (1 << 64) if z >> 63 else z


def _randint(stream: int, n: int) -> tuple[int, int]:
    """``engine_nb.randint_nb`` on Python ints: (the stream after, the draw in [0, n))."""
    z = ((stream & _M64) + int(GOLDEN)) & _M64
    after = z - (1 << 64) if z >> 63 else z
    return after, ((_mix(z) >> 32) * int(n)) >> 32


class Game:
    """One game in the step model: the state is one int64 array.

    ``Game(seed, game)`` is game ``game`` of a study with root seed ``seed`` (the same
    deal, dice and players' randomness as the study's game), played up to its first
    decision.  ``players``: ``None`` or the number of seats (1 + the ruleset's
    survivors); ``seats``: each seat's player (see :func:`parse_seats`; default
    ``heuristic``), used by ``policy_choice()`` and ``play()``; ``ruleset``: ``None`` (the
    reference ruleset), a ruleset, a folder or a tweak file.
    """

    def __init__(self, seed: int = 0, game: int = 0, players: int | None = None, *,
                 ruleset=None, seats=None, trace: bool = False):
        self.rules = _rules(ruleset)
        n = int(self.rules.get("board.survivors")) + 1
        if players is not None and (isinstance(players, bool) or players != n):
            raise ValueError(f"players must be {n} (the killer and {n - 1} survivors); got {players!r}")
        self.seed, self.game = int(seed), int(game)
        self.seats = parse_seats(seats, self.rules)
        self._pol, self._par = seat_arrays(self.seats, 1)
        self._flat = self.rules.flat()
        # the chance events are read from the log's rows, so a game without a trace still
        # logs: a small buffer emptied after every call
        self.trace = bool(trace)
        self.log = np.zeros((200_000 if trace else _STEP_LOG_ROWS, K.LOG_W), dtype=np.int64)
        self._nolog = np.zeros((1, K.LOG_W), dtype=np.int64)
        self._work = np.zeros(WORK_SIZE, dtype=np.int64)
        self.state = np.zeros(K.S_SIZE, dtype=np.int64)
        self._legal = np.zeros(K.MAX_LEGAL, dtype=np.int64)
        self._chance: list[tuple[str, int]] = []
        self._read = 0          # log rows already read for chance events
        _k(PN.OP_INIT, self._flat, seed=self.seed, state=self.state,
           a=self.game, log=self.log)
        self._collect(None)

    # ------------------------------------------------------------------ state
    @property
    def over(self) -> bool:
        return bool(self.state[K.S_OVER])

    @property
    def to_move(self) -> int:
        """The deciding seat (0: the killer)."""
        return int(self.state[K.S_DECIDER])

    @property
    def phase(self) -> str:
        return K.PHASE_NAMES[int(self.state[K.S_PHASE])]

    def legal_codes(self) -> list[int]:
        n = _k(PN.OP_LEGAL, self._flat, state=self.state, legal=self._legal)
        return [int(a) for a in self._legal[:n]]

    def legal_actions(self) -> list[str]:
        """The pending decision's choices in words (index ``i`` is ``apply(i)``'s)."""
        return [action_text(a, self.rules) for a in self.legal_codes()]

    def apply(self, i: int) -> "Game":
        """Take choice ``i`` of :meth:`legal_actions`; play on to the next decision."""
        legal = self.legal_codes()
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < len(legal):
            raise ValueError(f"choice {i!r} is not one of 0..{len(legal) - 1}" if legal
                             else "the game is over")
        before = self._before()
        _k(PN.OP_STEP, self._flat, state=self.state, a=legal[i], log=self.log)
        self._collect(before)
        return self

    def apply_code(self, a: int) -> "Game":
        """Take the action of code ``a`` (``codes.A_*``)."""
        before = self._before()
        if not _k(PN.OP_APPLY, self._flat, state=self.state, a=a, log=self.log):
            raise ValueError(f"action {K.action_name(a)} is not legal now")
        self._collect(before)
        return self

    def advance(self) -> "Game":
        """Run the forced steps up to the next decision (after the state was written by
        hand: the tests' crafted positions)."""
        before = self._before()
        _k(PN.OP_ADVANCE, self._flat, state=self.state, log=self.log)
        self._collect(before)
        return self

    def clone(self) -> "Game":
        g = object.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.state = self.state.copy()
        g.log = self.log.copy()
        g._legal = self._legal.copy()
        g._work = self._work.copy()
        g._chance = list(self._chance)
        return g

    # ------------------------------------------------------------------ chance
    def chance_events(self) -> list[tuple[str, int]]:
        """Every chance outcome since the game began (the setup and the deal included), in
        the order the kernel drew them, as ``(kind, value)``; replaying a game needs its
        choices and these alone.  Kinds (token: an index of ``rules.tokens()``; face: an
        index into the die's faces, ``dice.white`` or ``dice.black``):

        * ``"setup_token"``: the token a placer draws in the setup (the pending one included);
        * ``"chest_token"``: the token an opened chest moves to;
        * ``"hatch_token"``: the token where the hatch appears (map card or last survivor);
        * ``"energy"``: an energy card drawn (its value); ``"killer_card"``,
          ``"survivor_card"``: a card of that deck drawn (its kind; a chest's card included);
        * ``"repair_die"``, ``"chest_die"``, ``"gate_die"``: the white die's face at a repair,
          a chest or a gate's lever; ``"strike_die"``, ``"break_die"``: the black die's face
          at a strike or a pallet break.

        A deck draws from its discards once empty: the events are the cards drawn, the
        reshuffle itself has no outcome of its own (the draw is uniform over the cards).
        """
        return list(self._chance)

    def _before(self) -> tuple:
        st = self.state
        return (int(st[K.S_PHASE]) == K.PH_PLACE and not st[K.S_OVER], int(st[K.S_TOKEN]),
                int(st[K.S_HATCH]), int(st[K.S_STREAMS + K.STREAM_DICE]))

    def _collect(self, before: tuple | None) -> None:
        """Append the chance events of the kernel call just made, read from its log rows
        (deck draws, rolls, placements, chests, the hatch) and from the state (the token
        now pending a placement; the dice faces replayed from the dice stream)."""
        st, rules = self.state, self.flat_rules
        pending, token, hatch, dice = before if before is not None else (False, -1, K.HATCH_HIDDEN,
                                                                           None)
        if dice is None:   # a new game: the stream as init_state_nb seeded it
            dice = _stream_seed(int(st[K.S_KEY]), K.STREAM_DICE)
        n = int(self.log[0, 0])
        if n >= self.log.shape[0] - 1:
            raise RuntimeError("the log is full: chance events would be lost")
        rows = self.log[1 + self._read:1 + n].tolist()
        out = self._chance
        for kind, _rnd, _s, a, b, c, _d in rows:
            if kind == K.LG_PLACE:
                if pending and b == token:
                    pending = False       # the placement of the token drawn before this call
                else:
                    out.append(("setup_token", b))
            elif kind == K.LG_DRAW:
                out.append((_DECK_KINDS[a], b))
            elif kind in (K.LG_ROLL, K.LG_STRIKE, K.LG_BREAK):
                black = kind != K.LG_ROLL
                dice, face = _randint(dice, rules[K.R_PARAMS + (K.P_BLACK_FACES if black
                                                                else K.P_WHITE_FACES)])
                what = "strike" if kind == K.LG_STRIKE else "break" if black else K.PURPOSES[a]
                ok = b if black else c
                if rules[(K.R_BLACK if black else K.R_WHITE) + face] != ok:
                    raise RuntimeError(f"the dice stream replayed gives face {face} at a {what} "
                                       f"roll; the kernel logged {ok}")
                out.append((f"{what}_die", face))
            elif kind == K.LG_CHEST:
                if b >= 0:
                    out.append(("survivor_card", b))
                out.append(("chest_token", c))
            elif (kind == K.LG_HATCH or (kind == K.LG_CARD and a == K.A_PLAY_MAP)) and \
                    hatch == K.HATCH_HIDDEN:
                t = a if kind == K.LG_HATCH else c
                if t >= 0:
                    out.append(("hatch_token", t))
                hatch = K.HATCH_SHUT
        if int(st[K.S_PHASE]) == K.PH_PLACE and not st[K.S_OVER]:
            out.append(("setup_token", int(st[K.S_TOKEN])))
        if dice != int(st[K.S_STREAMS + K.STREAM_DICE]):
            raise RuntimeError("the dice rolls read from the log do not account for the dice "
                               "stream's draws")
        if self.trace:
            self._read = n
        else:
            self.log[0, 0] = 0

    @property
    def flat_rules(self) -> np.ndarray:
        return self._flat

    def policy_choice(self, name: str | None = None) -> int:
        """The index of the choice policy ``name`` takes now (default: the deciding seat's
        own player); the policy stream advances as it would in a study."""
        legal = self.legal_codes()
        if not legal:
            raise ValueError("the game is over")
        s = self.to_move
        pol = np.zeros((1, K.MAX_SEATS), dtype=np.int64)
        par = np.zeros((1, K.MAX_SEATS, N_PARAMS), dtype=np.float64)
        if name is None:
            pol[0, 0], par[0, 0] = self._pol[0, s], self._par[0, s]
        else:
            seat = _as_seat(name)
            pol[0, 0], par[0, 0] = POLICIES[seat.policy].id, seat.vector()
        a = _k(PN.OP_CHOOSE, self._flat, pol=pol, par=par,
               state=self.state, legal=self._legal, work=self._work, nolog=self._nolog)
        n = len(legal)
        return [int(x) for x in self._legal[:n]].index(int(a))

    def play(self, name: str | None = None) -> "Game":
        """Let policy ``name`` (default: each seat's own) take every remaining decision."""
        while not self.over:
            self.apply(self.policy_choice(name))
        return self

    def violation(self) -> str:
        """The first broken invariant of the state in words (``"none"``: every one holds):
        cards conserved in each deck, lamps and repairs agree, kills and escapes match the
        survivors' states, pieces on the board, hands within their limits."""
        st, r = self.state, self.rules
        ns = int(r.get("board.survivors"))
        w, h = int(r.get("board.board_w")), int(r.get("board.board_h"))
        lamps = int(r.get("board.lamps"))
        held = sum(int(st[K.S_HAND + s * K.HAND_W + v]) for s in range(K.MAX_SEATS) for v in range(K.HAND_W))
        deck = int(st[K.S_ENERGY_DECK:K.S_ENERGY_DECK + K.HAND_W].sum() +
                   st[K.S_ENERGY_DISCARD:K.S_ENERGY_DISCARD + K.HAND_W].sum())
        total = sum(r.get(f"energy.{n}.count") for n in r.names("energy"))
        if held + deck != total:
            return f"energy cards: {held} held + {deck} in deck and discards != {total}"
        for d0, d1, f, seats in ((K.S_KDECK, K.S_KDISCARD, "killer_cards", [0]),
                                 (K.S_SDECK, K.S_SDISCARD, "survivor_cards", range(1, ns + 1))):
            total = sum(r.get(f"{f}.{n}.count") for n in r.names(f))
            held = sum(int(st[K.S_CARDS + s * K.MAX_K + k]) for s in seats for k in range(K.MAX_K))
            rest = int(st[d0:d0 + K.MAX_K].sum() + st[d1:d1 + K.MAX_K].sum())
            if held + rest != total or (st[d0:d0 + K.MAX_K] < 0).any():
                return f"{f}: {held} held + {rest} in deck and discards != {total}"
        gl = st[K.S_GEN_LAMPS:K.S_GEN_LAMPS + int(st[K.S_N_GENS])]
        if (gl < 0).any() or (gl > lamps).any() or int((gl == lamps).sum()) != int(st[K.S_REPAIRED]):
            return f"lamps {list(gl)} disagree with {int(st[K.S_REPAIRED])} repaired"
        status = [int(st[K.S_S_STATUS + s]) for s in range(1, ns + 1)]
        if status.count(K.ST_KILLED) != st[K.S_KILLS] or status.count(K.ST_ESCAPED) != st[K.S_ESCAPES]:
            return f"kills {int(st[K.S_KILLS])} / escapes {int(st[K.S_ESCAPES])} disagree with {status}"
        for s in range(ns + 1):
            if not (0 <= st[K.S_S_X + s] < w and 0 <= st[K.S_S_Y + s] < h):
                return f"seat {s} off the board at ({st[K.S_S_X + s]}, {st[K.S_S_Y + s]})"
        for s in range(1, ns + 1):
            if not 0 <= st[K.S_S_WOUNDS + s] <= int(r.get("rules.hits_to_kill")):
                return f"survivor {s} has {int(st[K.S_S_WOUNDS + s])} wounds"
            if sum(int(st[K.S_HAND + s * K.HAND_W + v]) for v in range(K.HAND_W)) > \
                    max(int(r.get("rules.survivor_energy_limit")), int(r.get("rules.survivor_energy_hand"))):
                return f"survivor {s} holds too many energy cards"
            if st[K.S_PHASE] != K.PH_DISCARD and \
                    sum(int(st[K.S_CARDS + s * K.MAX_K + k]) for k in range(K.MAX_K)) > int(r.get("rules.survivor_card_limit")):
                return f"survivor {s} holds too many survivor cards"
        if st[K.S_BUDGET] < 0:
            return f"a negative budget ({int(st[K.S_BUDGET])})"
        for p in range(int(st[K.S_N_PALLETS])):
            if st[K.S_PALLET_STATE + p] == K.PAL_DROPPED and st[K.S_PALLET_X + p] == st[K.S_S_X] and \
                    st[K.S_PALLET_Y + p] == st[K.S_S_Y]:
                return f"the killer stands on dropped pallet {p}"
        return "none"

    def record_array(self) -> np.ndarray:
        out = np.zeros((1, K.REC_SIZE), dtype=np.int64)
        _k(PN.OP_RECORD, self._flat, state=self.state, a=self.game, out=out)
        return out[0]

    def record(self) -> dict:
        """The record row a study gives for this game (same columns)."""
        k, s = seats_label(self.seats)
        row = records_frame(self.record_array()[None, :], self.rules, k, s).iloc[0]
        return {c: (v.item() if hasattr(v, "item") else v) for c, v in row.items()}

    @property
    def result(self) -> dict:
        return self.record()

    def describe(self) -> str:
        """Where the game stands, as text."""
        st = self.state
        r = self.rules
        ns = int(r.get("board.survivors"))
        lines = [f"round {st[K.S_ROUND]}, phase {self.phase}, "
                 + ("over (" + K.END_NAMES[st[K.S_END_CAUSE]] + ")" if self.over
                    else f"seat {self.to_move} ({'killer' if self.to_move == 0 else 'survivor'}) to move")]
        toks = r.tokens()
        hand = lambda s: " ".join(f"{v}x{st[K.S_HAND + s * K.HAND_W + v]}"  # noqa: E731
                                  for v in range(1, K.MAX_V + 1) if st[K.S_HAND + s * K.HAND_W + v])
        cards = lambda s, names: ", ".join(f"{names[k]} x{st[K.S_CARDS + s * K.MAX_K + k]}"  # noqa: E731
                                           for k in range(len(names)) if st[K.S_CARDS + s * K.MAX_K + k])
        lines.append(f"killer at ({st[K.S_S_X]}, {st[K.S_S_Y]}); energy [{hand(0)}]; cards "
                     f"[{cards(0, r.names('killer_cards'))}]; adjustment {st[K.S_ADJ_NOW]:+d} now, "
                     f"{st[K.S_ADJ_NEXT]:+d} next turn")
        for s in range(1, ns + 1):
            status = K.STATUS_NAMES[st[K.S_S_STATUS + s]]
            if status == "in_play":
                status = "injured" if st[K.S_S_WOUNDS + s] else "healthy"
            lines.append(f"survivor {s}: {status} at ({st[K.S_S_X + s]}, {st[K.S_S_Y + s]}); energy "
                         f"[{hand(s)}]; cards [{cards(s, r.names('survivor_cards'))}]")
        lamps = int(r.get("board.lamps"))
        gens = [f"{g}@{toks[st[K.S_GEN_TOKEN + g]]}:{st[K.S_GEN_LAMPS + g]}/{lamps}"
                for g in range(st[K.S_N_GENS])]
        lines.append(f"generators {', '.join(gens)}; repaired {st[K.S_REPAIRED]}")
        if st[K.S_PHASE] == K.PH_COMMIT:
            lines.append(f"committed: {K.PURPOSES[st[K.S_PURPOSE]]}, {st[K.S_BUDGET]} points left")
        return "\n".join(lines)
