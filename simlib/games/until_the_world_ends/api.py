"""Python face of the Until the World Ends kernels: play games, records as DataFrames, the
step model.

>>> from simlib.games.until_the_world_ends.api import play_games
>>> df = play_games(1000, seats=["greedy", "greedy:end_margin=15", "random"], seed=7)
>>> df.groupby("strategy_0").win_0.mean()

The step model (one game, a decision at a time)::

    game = Game(seed=1, game=0, players=3)     # game 0 of seed 1, dealt, at its first decision
    while not game.over:
        game.apply(0)                           # an index into game.legal_actions()
    game.result
"""
from __future__ import annotations

from typing import Sequence

import numba
import numpy as np
import pandas as pd

from ...core.rng import game_key_nb
from . import codes as K
from .kernels import engine_nb as E
from .kernels.play_nb import play_batch_nb, play_game_nb
from .kernels.policies_nb import N_PARAMS, choose_nb
from .policies import POLICIES, Seat, make_seat, parse_seat
from .ruleset import UntilTheWorldEndsRules, load_ruleset

__all__ = ["play_games", "run_kernel", "records_frame", "trace_game", "Game", "check_players",
           "as_seat", "new_scratch", "action_words", "card_name"]


def _rules(ruleset) -> UntilTheWorldEndsRules:
    """``None``: the reference ruleset (the game's only and default ruleset)."""
    return load_ruleset() if ruleset is None else ruleset


def check_players(players: int, rules: UntilTheWorldEndsRules) -> int:
    lo, hi = rules.min_players(), rules.max_players()
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or not lo <= players <= hi:
        raise ValueError(f"players must be an integer from {lo} to {hi}; got {players!r}")
    return int(players)


def as_seat(x) -> Seat:
    """A Seat from a Seat, a seat spec string (``greedy:end_margin=10``) or ``(name, params)``."""
    if isinstance(x, Seat):
        return x
    if isinstance(x, str):
        return parse_seat(x)
    name, params = x
    return make_seat(name, params)


def new_scratch():
    """The policies' scratch arrays: (legal, work, slog)."""
    return (np.zeros(2 * K.MAX_LEGAL, np.int64), np.zeros((3, K.S_SIZE), np.int64),
            np.zeros((1, K.LOG_W), np.int64))


def seat_arrays(seats: Sequence[Seat], n: int):
    pol = np.zeros((n, K.MAX_SEATS), dtype=np.int64)
    par = np.zeros((n, K.MAX_SEATS, N_PARAMS), dtype=np.float64)
    for s, seat in enumerate(seats):
        pol[:, s] = POLICIES[seat.policy].id
        par[:, s, :] = seat.vector()
    return pol, par


def run_kernel(rules: UntilTheWorldEndsRules, seed: int, start: int, players: np.ndarray,
               seat_policy: np.ndarray, seat_params: np.ndarray, threads: int | None = None) -> np.ndarray:
    """Play games ``start .. start + len(players) - 1``; int64 records (count, REC_SIZE)."""
    out = np.zeros((len(players), K.REC_SIZE), dtype=np.int64)
    args = (rules.flat(), np.int64(seed), np.int64(start), np.ascontiguousarray(players, np.int64),
            np.ascontiguousarray(seat_policy, np.int64), np.ascontiguousarray(seat_params, np.float64), out)
    if threads is None:
        play_batch_nb(*args)
    else:
        old = numba.get_num_threads()
        numba.set_num_threads(int(threads))
        try:
            play_batch_nb(*args)
        finally:
            numba.set_num_threads(old)
    return out


def records_frame(out: np.ndarray, rules: UntilTheWorldEndsRules, labels: np.ndarray | None = None) -> pd.DataFrame:
    """Records (int64 (n, REC_SIZE)) as a DataFrame with names instead of codes.

    ``labels`` (object (n, MAX_SEATS)): each seat's strategy label.  Columns: the record's
    (``codes.record_names()``; ``pts_colour_i`` renamed ``pts_<colour>``), ``end_cause`` as
    a name, ``tie``, ``table``, and per seat ``strategy_s``; an empty seat's values are null.
    """
    df = pd.DataFrame(out, columns=K.record_names())
    n = len(df)
    cols = {c: df[c].to_numpy() for c in df.columns
            if not any(c.startswith(p + "_") and c[len(p) + 1:].isdigit()
                       for p in ("pts_colour", "total", "win", "rounds_won", "ended", "challenged", "hoarded"))}
    cols["end_cause"] = np.array([K.END_NAMES[c] for c in df["end_cause"]], dtype=object)
    cols["tie"] = (df["winners"] > 1).to_numpy()
    for i, c in enumerate(rules.colours):
        cols[f"pts_{c}"] = df[f"pts_colour_{i}"].to_numpy()
    if labels is None:
        labels = np.full((n, K.MAX_SEATS), None, dtype=object)
    npl = df["players"].to_numpy()
    cols["table"] = np.array(["+".join(sorted(str(x) for x in labels[i, :npl[i]])) for i in range(n)],
                             dtype=object)
    for s in range(K.MAX_SEATS):
        present = npl > s
        cols[f"strategy_{s}"] = np.where(present, labels[:, s], None)
        for f in ("total", "win", "rounds_won", "ended", "challenged", "hoarded"):
            v = df[f"{f}_{s}"].to_numpy()
            if f == "win":
                cols[f"{f}_{s}"] = pd.Series(v == 1, dtype="boolean").where(present).array
            else:
                cols[f"{f}_{s}"] = pd.Series(v, dtype="Int64").where(present).array
    return pd.DataFrame(cols)


def play_games(n_games: int, players: int | None = None, seats=None, seed: int = 0,
               ruleset: UntilTheWorldEndsRules | None = None, start: int = 0,
               threads: int | None = None) -> pd.DataFrame:
    """Play ``n_games`` games of one table and return their records (names, not codes).

    ``seats``: one seat spec per seat (``["greedy", "random"]``); default ``greedy`` for
    ``players`` seats (default 4).  ``ruleset=None``: the reference ruleset.
    """
    rules = _rules(ruleset)
    if seats is None:
        seats = ["greedy"] * (4 if players is None else int(players))
    seats = [as_seat(x) for x in seats]
    p = check_players(len(seats) if players is None else players, rules)
    if p != len(seats):
        raise ValueError(f"{len(seats)} seats given for {p} players")
    n = int(n_games)
    if n <= 0:
        raise ValueError(f"n_games must be positive; got {n_games}")
    pol, par = seat_arrays(seats, n)
    out = run_kernel(rules, seed, start, np.full(n, p, np.int64), pol, par, threads)
    labels = np.full((n, K.MAX_SEATS), None, dtype=object)
    labels[:, :p] = [s.label for s in seats]
    return records_frame(out, rules, labels)


def trace_game(seed: int, game: int, players: int, seats: Sequence, ruleset=None,
               capacity: int = 100_000):
    """Replay game ``game`` of a study with a trace: ``(record row, log rows, state)``;
    the same kernels and key as the study: the very game it played."""
    rules = _rules(ruleset)
    seats = [as_seat(x) for x in seats]
    pol, par = seat_arrays(seats, 1)
    log = np.zeros((capacity, K.LOG_W), dtype=np.int64)
    state = np.zeros(K.S_SIZE, dtype=np.int64)
    flat = rules.flat()
    E.init_state_nb(state, flat, np.int64(players), np.uint64(game_key_nb(np.int64(seed), np.int64(game))), log)
    play_game_nb(state, flat, pol[0], par[0], *new_scratch(), log)
    rec = np.zeros(K.REC_SIZE, dtype=np.int64)
    E.record_nb(state, flat, np.int64(game), rec)
    return rec, log[1:1 + log[0, 0]].copy(), state


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
    if K.A_PLAY <= a < K.A_SNIPE:
        c = int(state[K.S_HAND + s * K.MAX_HAND + a - K.A_PLAY])
        return f"play {card_name(rules, c)}"
    if K.A_SNIPE <= a < K.A_PICK:
        t, pos = divmod(a - K.A_SNIPE, K.MAX_DECK)
        return f"snipe seat {t}'s {card_name(rules, int(state[K.S_TL + t * K.MAX_DECK + pos]))}"
    return f"pick {card_name(rules, int(state[K.S_SHOWN + a - K.A_PICK]))}"


class Game:
    """One game in the step model: game ``game`` of a study of seed ``seed``, dealt and at
    its first decision; the state is one int64 array (``clone`` copies it).

    ``seats``: each seat's policy (seat specs; default ``greedy``), used by ``play()`` and
    ``policy_choice()`` without a name.  ``ruleset=None``: the reference ruleset.
    ``trace=True`` keeps the log of what happened (``log_rows``).
    """

    def __init__(self, seed: int = 0, game: int = 0, players: int = 4, *, ruleset=None,
                 seats: Sequence | None = None, trace: bool = False, _state=None, _log=None):
        self.rules = _rules(ruleset)
        self.seed, self.game = int(seed), int(game)
        p = check_players(players, self.rules)
        seats = ["greedy"] * p if seats is None else list(seats)
        if len(seats) != p:
            raise ValueError(f"{len(seats)} seats given for {p} players")
        self.seats = [as_seat(x) for x in seats]
        pol, par = seat_arrays(self.seats, 1)
        self._pol, self._par = pol[0], par[0]
        self._scratch = new_scratch()
        self._flat = self.rules.flat()
        if _state is not None:
            self.state, self.log = _state, _log
            return
        self.log = np.zeros((100_000 if trace else 1, K.LOG_W), dtype=np.int64)
        self.state = np.zeros(K.S_SIZE, dtype=np.int64)
        E.init_state_nb(self.state, self._flat, np.int64(p),
                        np.uint64(game_key_nb(np.int64(seed), np.int64(game))), self.log)

    # ------------------------------------------------------------------ the contract
    @property
    def over(self) -> bool:
        return bool(self.state[K.S_OVER])

    @property
    def players(self) -> int:
        return int(self.state[K.S_PLAYERS])

    @property
    def to_move(self) -> int:
        """The seat to decide (-1 when the game is over)."""
        return int(self.state[K.S_DECIDER])

    @property
    def phase(self) -> str:
        return K.PHASE_NAMES[int(self.state[K.S_PHASE])]

    def legal_codes(self) -> list[int]:
        if self.over:
            return []
        out = self._scratch[0]
        n = E.legal_actions_nb(self.state, self._flat, out)
        return [int(a) for a in out[:n]]

    def legal_actions(self) -> list[str]:
        """The legal actions of the seat to decide, in words (``apply(i)`` takes an index)."""
        return [action_words(self.state, self.rules, a) for a in self.legal_codes()]

    def apply(self, i: int) -> None:
        codes = self.legal_codes()
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < len(codes):
            raise ValueError(f"action index must be an integer from 0 to {len(codes) - 1}; got {i!r}"
                             if codes else "the game is over: no action is legal")
        self.apply_code(codes[i])

    def apply_code(self, a: int) -> None:
        if not E.apply_action_nb(self.state, self._flat, np.int64(a), self.log):
            raise ValueError(f"action code {a} is not legal now")

    def clone(self) -> "Game":
        return Game(self.seed, self.game, self.players, ruleset=self.rules, seats=self.seats,
                    _state=self.state.copy(), _log=self.log.copy())

    def policy_choice(self, name: str | None = None) -> int:
        """The index (into ``legal_actions()``) that policy ``name`` (a seat spec; ``None``:
        the deciding seat's own) chooses.  A policy's own random stream moves on, as in
        the batch, so a game driven by ``apply(policy_choice())`` is the batch's game."""
        codes = self.legal_codes()
        if not codes:
            raise ValueError("the game is over: no action is legal")
        s = self.to_move
        if name is None:
            pol, par = self._pol[s], self._par[s]
        else:
            seat = as_seat(name)
            pol, par = np.int64(POLICIES[seat.policy].id), seat.vector()
        legal, work, slog = self._scratch
        n = E.legal_actions_nb(self.state, self._flat, legal)
        a = int(choose_nb(self.state, self._flat, np.int64(pol), par, legal, np.int64(n), work, slog))
        return codes.index(a)

    def play(self, name: str | None = None) -> dict:
        """Plays to the end (every seat policy ``name``; ``None``: each seat its own); the result."""
        if name is None:
            play_game_nb(self.state, self._flat, self._pol, self._par, *self._scratch, self.log)
        else:
            while not self.over:
                self.apply(self.policy_choice(name))
        return self.result

    def record(self) -> np.ndarray:
        """The record row (int64, layout ``codes.RECORD``) of the game so far."""
        rec = np.zeros(K.REC_SIZE, dtype=np.int64)
        E.record_nb(self.state, self._flat, np.int64(self.game), rec)
        return rec

    @property
    def result(self) -> dict | None:
        """The finished game's record as ``{column: value}`` (``None`` while it runs)."""
        if not self.over:
            return None
        return dict(zip(K.record_names(), (int(v) for v in self.record())))

    # ------------------------------------------------------------------ reading the state
    def hand(self, s: int) -> list[str]:
        return [card_name(self.rules, int(c)) for c in
                self.state[K.S_HAND + s * K.MAX_HAND:K.S_HAND + s * K.MAX_HAND + self.state[K.S_S_HAND_N + s]]]

    def timeline(self, s: int) -> list[str]:
        return [card_name(self.rules, int(c)) for c in
                self.state[K.S_TL + s * K.MAX_DECK:K.S_TL + s * K.MAX_DECK + self.state[K.S_S_TL_N + s]]]

    def common(self) -> list[str]:
        return [card_name(self.rules, int(c)) for c in self.state[K.S_COMMON:K.S_COMMON + self.state[K.S_N_COMMON]]]

    def totals(self) -> list[int]:
        return [int(v) for v in self.state[K.S_S_TOTAL:K.S_S_TOTAL + self.players]]

    def round_scores(self) -> list[int]:
        """Each seat's round score if the round ended now without an ending."""
        return [int(E.score_player_nb(self.state.copy(), self._flat, np.int64(p), np.int64(-1), False))
                for p in range(self.players)]

    def describe(self) -> str:
        st = self.state
        lines = [f"round {int(st[K.S_ROUND])}, dealer seat {int(st[K.S_DEALER])}, "
                 f"draw pile {int(st[K.S_N_PILE])}, discards {int(st[K.S_N_DISCARD])}"
                 + (" -- game over" if self.over else
                    f"; seat {self.to_move} to decide ({self.phase})")]
        lines.append("common: " + (", ".join(self.common()) or "-"))
        scores = self.round_scores()
        for s in range(self.players):
            lines.append(f"seat {s} ({self.seats[s].label}): total {self.totals()[s]}, round {scores[s]}; "
                         f"timeline [{', '.join(self.timeline(s))}]; hand [{', '.join(self.hand(s))}]")
        if not self.over:
            lines.append("legal: " + "; ".join(f"{i}: {w}" for i, w in enumerate(self.legal_actions())))
        return "\n".join(lines)

    def log_rows(self) -> np.ndarray:
        return self.log[1:1 + self.log[0, 0]].copy()
