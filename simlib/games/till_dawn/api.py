"""Python face of the Till Dawn kernels: play games, records as DataFrames, the step model.

>>> from simlib.games.till_dawn.api import play_games
>>> df = play_games(1000, seats=["optimal", "threshold:t=8", "threshold:t=12"], seed=7)
>>> df.groupby("strategy_0").win_0.mean()

The step model (one game, a decision at a time) is :class:`simlib.games.till_dawn.step.Game`.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from ...core import seats
from ...core.seats import check_games, one_table
from ...core.parallel import run_prange
from ...core.rng import game_key_nb
from . import codes as K
from .kernels import engine_nb as E
from .kernels.play_nb import play_batch_nb, play_game_nb
from .kernels.policies_nb import dp_scratch_floats_nb
from .policies import Seat, check_seats_ruleset
from .records import records_frame
from .ruleset import TillDawnRules, load_ruleset

__all__ = ["play_games", "run_kernel", "records_frame", "trace_game", "work_size",
           "check_players", "team_codes", "as_seat", "records_frame"]


def _rules(ruleset) -> TillDawnRules:
    return load_ruleset(ruleset)  # None: the declared default


check_players = seats.check_players  # (players, rules) -> players, or ValueError


def team_codes(names: Sequence[str] | None, players: int, rules: TillDawnRules) -> np.ndarray:
    """Character ids of a team (row of MAX_SEATS, -1 padded); ``None``: a random team."""
    return seats.team_row(names, players, rules, K.MAX_SEATS)


as_seat = Seat.of  # a Seat from a Seat, a spec string or (name, params)


def work_size(rules: TillDawnRules, seats: Sequence[Seat]) -> int:
    """Size of the optimal-stopping player's float64 tables (see ``policies_nb``)."""
    span = max([int(s.params[0]) for s in seats if s.policy == "optimal"] or [0])
    if span == 0:
        return 1
    rc = int(rules.get("constants.refuse_cost"))
    h = max(rules.get(f"characters.{c}.max_health") for c in rules.character_names)
    L = int(rules.get("constants.track_length"))
    return (4 + K.MAX_INVITES) * (span + rc + 2) * (h + 1) * L + int(dp_scratch_floats_nb(L))


def run_kernel(rules: TillDawnRules, seed: int, start: int, players: np.ndarray,
               chars: np.ndarray, seat_policy: np.ndarray, seat_params: np.ndarray, wsize: int,
               threads: int | None = None) -> np.ndarray:
    """Play games ``start .. start + len(players) - 1``; int64 records (count, REC_SIZE)."""
    out = np.zeros((len(players), K.REC_SIZE), dtype=np.int64)
    args = (rules.flat(), np.int64(seed), np.int64(start), np.ascontiguousarray(players, np.int64),
            np.ascontiguousarray(chars, np.int64), np.ascontiguousarray(seat_policy, np.int64),
            np.ascontiguousarray(seat_params, np.float64), np.int64(wsize), out)
    run_prange(play_batch_nb, args, threads)
    return out


def _seat_arrays(seat_list: Sequence[Seat], n: int):
    return seats.seat_arrays(seat_list, n, K.MAX_SEATS)


def play_games(n_games: int, players: int | None = None, seats=None, characters=None,
               seed: int = 0, ruleset: TillDawnRules | None = None, start: int = 0,
               threads: int | None = None) -> pd.DataFrame:
    """Play ``n_games`` games of one table and return their records (names, not codes).

    ``seats``: one seat spec per seat (``["optimal", "threshold:t=8", "random"]``); default
    ``threshold`` for ``players`` seats (default 4).  ``characters``: a team (names in seat
    order) or ``None`` for a random team per game.
    """
    rules = _rules(ruleset)
    seats = one_table(seats, players, "threshold", as_seat, lambda q: check_players(q, rules))
    check_seats_ruleset(seats, rules)
    p = len(seats)
    n = check_games(n_games)
    chars = np.tile(team_codes(characters, p, rules), (n, 1))
    pol, par = _seat_arrays(seats, n)
    out = run_kernel(rules, seed, start, np.full(n, p, np.int64), chars, pol, par,
                     work_size(rules, seats), threads)
    labels = np.full((n, K.MAX_SEATS), None, dtype=object)
    labels[:, :p] = [s.label for s in seats]
    return records_frame(out, rules, labels)


def scratch_arrays(wsize: int):
    return (np.zeros(K.N_ACTIONS, np.int64), np.zeros(wsize, np.float64),
            np.zeros(K.MAX_TYPES, np.int64), np.zeros(K.MAX_TYPES, np.int64),
            np.zeros(K.MAX_TYPES, np.int64), np.zeros(K.MAX_TYPES, np.float64),
            np.zeros((K.MAX_INVITES, 3), np.int64))


def trace_game(seed: int, game: int, players: int, seats: Sequence[Seat], characters=None,
               ruleset: TillDawnRules | None = None, capacity: int = 100_000):
    """Replay game ``game`` of a study with a trace: ``(record row, log rows, state)``.

    The same kernel and the same key as the study: the very game the study played.
    """
    rules = _rules(ruleset)
    seats = [as_seat(x) for x in seats]
    row = characters if isinstance(characters, np.ndarray) else team_codes(characters, players, rules)
    pol, par = _seat_arrays(seats, 1)
    log = np.zeros((capacity, K.LOG_W), dtype=np.int64)
    state = np.zeros(K.S_SIZE, dtype=np.int64)
    flat = rules.flat()
    E.init_state_nb(state, flat, np.int64(players), np.ascontiguousarray(row, np.int64),
                    np.uint64(game_key_nb(np.int64(seed), np.int64(game))), log)
    play_game_nb(state, flat, pol[0], par[0], *scratch_arrays(work_size(rules, seats)), log)
    rec = np.zeros(K.REC_SIZE, dtype=np.int64)
    E.record_nb(state, flat, np.int64(game), rec)
    return rec, log[1:1 + log[0, 0]].copy(), state

