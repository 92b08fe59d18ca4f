"""Python face of the Until the World Ends kernels: play games, records as DataFrames, the
step model.

>>> from simlib.games.until_the_world_ends.api import play_games
>>> df = play_games(1000, seats=["greedy", "greedy:end_margin=15", "random"], seed=7)
>>> df.groupby("strategy_0").win_0.mean()

The step model (one game, a decision at a time) is
:class:`simlib.games.until_the_world_ends.step.Game`.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from ...core import seats
from ...core.seats import check_games, one_table
from ...core.seats import seat_arrays as core_seat_arrays
from ...core.parallel import run_prange
from . import codes as K
from .kernels import play_nb as PL
from .kernels.play_nb import kernel_nb
from .policies import Seat, check_seats_ruleset
from .records import GAME_VALUES, records_frame
from .ruleset import UntilTheWorldEndsRules, load_ruleset

__all__ = ["play_games", "run_kernel", "records_frame", "trace_game", "check_players",
           "as_seat", "new_scratch", "action_words", "card_name", "GAME_VALUES"]



def _rules(ruleset) -> UntilTheWorldEndsRules:
    """``None``: the game's declared default ruleset, the reference."""
    return load_ruleset(ruleset)


check_players = seats.check_players  # (players, rules) -> players, or ValueError


as_seat = Seat.of  # a Seat from a Seat, a spec string or (name, params)


def new_scratch(players: int = 1):
    """The policies' scratch arrays for a game of ``players``: (legal, work, slog)."""
    return (np.zeros(K.SCRATCH_LEGAL, np.int64), np.zeros((3, K.state_size(players)), np.int64),
            np.zeros((1, K.LOG_W), np.int64))


class Engine:
    """One game's arrays for the single kernel entry (``kernels.play_nb.kernel_nb``): the
    state, the log, the policies' scratch and one-row seat tables; ``call(op, a, b)``.
    The state, the scratch and the record are sized to the players by :meth:`init`."""

    def __init__(self, rules: UntilTheWorldEndsRules, seats: Sequence[Seat] = (), trace: bool = False):
        self.flat = rules.flat()
        self.seats = tuple(seats)
        self.log = np.zeros((100_000 if trace else 1, K.LOG_W), dtype=np.int64)
        self.players = np.zeros(1, dtype=np.int64)
        self._size(max(len(self.seats), 1))

    def _size(self, players: int) -> None:
        self.state = np.zeros(K.state_size(players), dtype=np.int64)
        self.pol, self.par = seat_arrays(self.seats, 1, width=max(players, len(self.seats)))
        self.out = np.zeros((1, K.rec_size(K.record_seats(players))), dtype=np.int64)
        self.legal, self.work, self.slog = new_scratch(players)

    def copy(self) -> "Engine":
        e = Engine.__new__(Engine)
        e.__dict__.update({k: (v.copy() if isinstance(v, np.ndarray) and k != "flat" else v)
                           for k, v in self.__dict__.items()})
        return e

    def call(self, op: int, a: int = 0, b: int = 0, seed: int = 0) -> int:
        return int(kernel_nb(np.int64(op), self.flat, np.int64(seed), np.int64(0), self.players,
                             self.pol, self.par, self.out, self.state, np.int64(a), np.int64(b),
                             self.legal, self.work, self.slog, self.log))

    def init(self, seed: int, game: int, players: int) -> None:
        if K.state_size(players) != len(self.state):
            self._size(players)
        self.players[0] = players
        self.call(PL.OP_INIT, a=game, seed=seed)

    def record(self, game: int) -> np.ndarray:
        self.call(PL.OP_RECORD, a=game)
        return self.out[0].copy()


def seat_arrays(seat_list: Sequence[Seat], n: int, width: int | None = None):
    """Each of ``n`` games' seat policies and parameters, ``width`` seats (default: the
    seats given)."""
    return core_seat_arrays(seat_list, n, width, Seat.n_params)


def run_kernel(rules: UntilTheWorldEndsRules, seed: int, start: int, players: np.ndarray,
               seat_policy: np.ndarray, seat_params: np.ndarray, threads: int | None = None) -> np.ndarray:
    """Play games ``start .. start + len(players) - 1``; int64 records (count,
    ``codes.rec_size(seats)``), ``seats = codes.record_seats(the largest table)``."""
    players = np.ascontiguousarray(players, np.int64)
    most = int(players.max()) if len(players) else 1
    if seat_policy.shape[1] < most or seat_params.shape[1] < most:
        raise ValueError(f"seat_policy and seat_params need a column per seat: {most} players, "
                         f"{seat_policy.shape[1]} columns")
    out = np.zeros((len(players), K.rec_size(K.record_seats(most))), dtype=np.int64)
    legal, work, slog = new_scratch()
    args = (np.int64(PL.OP_BATCH), rules.flat(), np.int64(seed), np.int64(start),
            players, np.ascontiguousarray(seat_policy, np.int64),
            np.ascontiguousarray(seat_params, np.float64), out, np.zeros(1, np.int64),
            np.int64(0), np.int64(0), legal, work, slog, slog)
    run_prange(kernel_nb, args, threads)
    return out


def play_games(n_games: int, players: int | None = None, seats=None, seed: int = 0,
               ruleset: UntilTheWorldEndsRules | None = None, start: int = 0,
               threads: int | None = None) -> pd.DataFrame:
    """Play ``n_games`` games of one table and return their records (names, not codes).

    ``seats``: one seat spec per seat (``["greedy", "random"]``); default ``greedy`` for
    ``players`` seats (default 4).  ``ruleset=None``: the reference ruleset.
    """
    rules = _rules(ruleset)
    seats = one_table(seats, players, "greedy", as_seat, lambda q: check_players(q, rules))
    check_seats_ruleset(seats, rules)
    p = len(seats)
    n = check_games(n_games)
    pol, par = seat_arrays(seats, n)
    out = run_kernel(rules, seed, start, np.full(n, p, np.int64), pol, par, threads)
    labels = np.full((n, K.record_seats(p)), None, dtype=object)
    labels[:, :p] = [s.label for s in seats]
    return records_frame(out, rules, labels)


def trace_game(seed: int, game: int, players: int, seats: Sequence, ruleset=None,
               capacity: int = 100_000):
    """Replay game ``game`` of a study with a trace: ``(record row, log rows, state)``;
    the same kernels and key as the study: the very game it played."""
    rules = _rules(ruleset)
    seats = [as_seat(x) for x in seats]
    eng = Engine(rules, seats, trace=True)
    if capacity != eng.log.shape[0]:
        eng.log = np.zeros((capacity, K.LOG_W), dtype=np.int64)
    eng.init(seed, game, players)
    eng.call(PL.OP_PLAY)
    return eng.record(game), eng.log[1:1 + eng.log[0, 0]].copy(), eng.state


# =========================================================================== words
def card_name(rules: UntilTheWorldEndsRules, c: int) -> str:
    """A physical card's name (its entry in cards.toml)."""
    return rules.card_names[int(rules.flat()[K.R_CARDS + c * K.CC_N + K.CC_ENTRY])]


def action_words(state: np.ndarray, rules: UntilTheWorldEndsRules, a: int) -> str:
    """An action code in words (``play outbreak_8``, ``snipe seat 2's cosmic_10``...)."""
    s = int(state[K.S_DECIDER])
    if a == K.A_DRAW:
        return "draw"
    if a == K.A_PASS:
        return "pass"
    if a == K.A_CHALLENGE:
        return f"challenge {card_name(rules, int(state[K.S_END_CARD]))}"
    if a == K.A_DECLINE:
        return "let the ending stand"
    if K.A_PLAY <= a < K.A_PICK:
        c = int(state[K.S_HAND + s * K.SEAT_W + a - K.A_PLAY])
        return f"play {card_name(rules, c)}"
    if K.A_PICK <= a < K.A_SNIPE:
        return f"pick {card_name(rules, int(state[K.S_SHOWN + a - K.A_PICK]))}"
    t, pos = divmod(a - K.A_SNIPE, K.MAX_DECK)
    return f"snipe seat {t}'s {card_name(rules, int(state[K.S_TL + t * K.SEAT_W + pos]))}"
