"""Python face of the Mort de la lumière du jour kernels: play games, records as
DataFrames.

>>> from simlib.games.mort.api import play_games
>>> df = play_games(1000, seats="killer=heuristic,survivors=random", seed=7)
>>> df.killer_win.mean()

The step model (one game, a decision at a time) is :class:`simlib.games.mort.step.Game`.

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
from ...core.seats import check_games
from ...core.seats import seat_arrays as core_seat_arrays
from . import codes as K
from .kernels import play_nb as PN
from .kernels.policies_nb import N_PARAMS, POLICY_ROLLOUT, WORK_SIZE
from .policies import Seat, check_seats_ruleset
from .records import TIMELINE_ROUNDS, records_frame
from .ruleset import MortRules, load_ruleset

__all__ = ["play_games", "run_kernel", "records_frame", "trace_game", "parse_seats",
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


def kernel_call(op: int, flat: np.ndarray, *, seed: int = 0, pol=_NO_POL,
       par=_NO_PAR, out=_NO_OUT, state=_NO_STATE, a: int = 0, legal=_NO_LEGAL, work=_NO_WORK,
       log=_NO_LOG, nolog=_NO_LOG) -> int:
    """One call of the step model's compiled entry (``kernels.play_nb.kernel_nb``, the
    search player included)."""
    return int(PN.kernel_nb(np.int64(op), flat, np.int64(seed), pol, par, out, state, np.int64(a),
                            legal, work, log, nolog))


def _searches(pol: np.ndarray) -> bool:
    return bool((np.asarray(pol) == POLICY_ROLLOUT).any())


_as_seat = Seat.of  # a Seat from a Seat, a spec string or (name, params)


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


def seat_arrays(table: Sequence[Seat], n: int) -> tuple[np.ndarray, np.ndarray]:
    return core_seat_arrays(table, n, K.MAX_SEATS)


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
    check_seats_ruleset(table, rules)
    n = check_games(n_games)
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
    kernel_call(PN.OP_INIT, flat, seed=seed, state=state, a=game, log=log)
    kernel_call(PN.OP_PLAY, flat, pol=pol, par=par, state=state,
       legal=np.zeros(K.MAX_LEGAL, np.int64), work=np.zeros(WORK_SIZE, np.int64), log=log)
    out = np.zeros((1, K.REC_SIZE), dtype=np.int64)
    kernel_call(PN.OP_RECORD, flat, state=state, a=game, out=out)
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

