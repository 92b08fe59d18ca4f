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

from . import codes as K
from .kernels import play_nb as PL
from .kernels.engine_nb import shuffle_nb
from .kernels.play_nb import kernel_nb
from .kernels.policies_nb import N_PARAMS
from .policies import POLICIES, Seat, make_seat, parse_seat
from .records import GAME_VALUES, records_frame
from .ruleset import UntilTheWorldEndsRules, load_ruleset

__all__ = ["play_games", "run_kernel", "records_frame", "trace_game", "Game", "check_players",
           "as_seat", "new_scratch", "action_words", "card_name", "GAME_VALUES"]



def _rules(ruleset) -> UntilTheWorldEndsRules:
    """``None``: the game's declared default ruleset, the reference."""
    return load_ruleset(ruleset)


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


def seat_arrays(seats: Sequence[Seat], n: int, width: int | None = None):
    """Each of ``n`` games' seat policies and parameters, ``width`` seats (default: the
    seats given)."""
    width = len(seats) if width is None else int(width)
    pol = np.zeros((n, width), dtype=np.int64)
    par = np.zeros((n, width, N_PARAMS), dtype=np.float64)
    for s, seat in enumerate(seats):
        pol[:, s] = POLICIES[seat.policy].id
        par[:, s, :] = seat.vector()
    return pol, par


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
    if threads is None:
        kernel_nb(*args)
    else:
        old = numba.get_num_threads()
        numba.set_num_threads(int(threads))
        try:
            kernel_nb(*args)
        finally:
            numba.set_num_threads(old)
    return out


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


class Game:
    """One game of Until the World Ends, a decision at a time (the contract's step API; the
    state is one int64 array, OpenSpiel style).

    Parameters
    ----------
    seed, game : int
        ``Game(seed=s, game=i)`` deals exactly game ``i`` of a study with root seed ``s``.
    players : int
        Players at the table (default: the number of ``seats``, else 4).
    ruleset : ruleset, path or preset name, optional
        Default (``None``): the declared default ruleset, the reference.
    seats : sequence of seat specs, optional
        Each seat's player (``["rollout", "greedy:end_margin=10", ...]``), used by
        :meth:`policy_choice` and :meth:`play` when no policy is named; default ``greedy``.
    trace : bool
        Keep the action log (:meth:`log_rows`).

    >>> g = Game(seed=1, game=5, players=3)
    >>> g.legal_actions()            # the pending decision, in words
    >>> g.apply(0)                   # take choice 0; play on to the next decision
    >>> g.play()                     # every seat's own player to the end
    >>> g.result["winners"]
    """

    def __init__(self, seed: int = 0, game: int = 0, players: int | None = None, ruleset=None,
                 seats: Sequence | None = None, trace: bool = False, _copy: "Game | None" = None):
        if _copy is not None:
            self.__dict__.update(_copy.__dict__)
            self._eng = _copy._eng.copy()
            self._chance = list(_copy._chance)
            return
        self.rules = _rules(ruleset)
        seats = None if seats is None else [as_seat(x) for x in seats]
        if players is None:
            players = len(seats) if seats is not None else 4
        p = check_players(players, self.rules)
        if seats is None:
            seats = [as_seat("greedy")] * p
        if len(seats) != p:
            raise ValueError(f"{len(seats)} seats given for {p} players")
        self.seats = tuple(seats)
        self.seed, self.game = int(seed), int(game)
        self._flat = self.rules.flat()
        self._eng = Engine(self.rules, self.seats, trace)
        self._eng.init(self.seed, self.game, p)
        self._chance: list[tuple[str, tuple[int, ...]]] = [("deal", self._leave_order(self._n_cards()))]

    @property
    def state(self) -> np.ndarray:
        """The state array (layout ``codes.STATE``)."""
        return self._eng.state

    @property
    def log(self) -> np.ndarray:
        return self._eng.log

    # ------------------------------------------------------------------ reading
    @property
    def over(self) -> bool:
        return bool(self.state[K.S_OVER])

    @property
    def players(self) -> int:
        return int(self.state[K.S_PLAYERS])

    @property
    def to_move(self) -> int:
        """The seat that decides now (-1 once the game is over)."""
        return -1 if self.over else int(self.state[K.S_DECIDER])

    @property
    def phase(self) -> str:
        return K.PHASE_NAMES[int(self.state[K.S_PHASE])]

    def legal_codes(self) -> list[int]:
        """The legal actions as codes (``codes.A_*``), in :meth:`legal_actions` order."""
        if self.over:
            return []
        n = self._eng.call(PL.OP_LEGAL)
        return [int(a) for a in self._eng.legal[:n]]

    def legal_actions(self) -> list[str]:
        """The pending decision's choices in words (index ``i`` is ``apply(i)``'s)."""
        return [action_words(self.state, self.rules, a) for a in self.legal_codes()]

    def record_array(self) -> np.ndarray:
        """The kernel's record row (int64, layout ``codes.RECORD``)."""
        return self._eng.record(self.game)

    def record(self) -> dict:
        """This game's record as a study's ``run_chunk`` gives it (same columns)."""
        labels = np.full((1, K.record_seats(self.players)), None, dtype=object)
        labels[0, :self.players] = [s.label for s in self.seats]
        return records_frame(self.record_array()[None, :], self.rules, labels).iloc[0].to_dict()

    @property
    def result(self) -> dict:
        """The record (``winners``, ``tie``, each seat's ``total_s`` and ``win_s``, ...;
        meaningful once :attr:`over`)."""
        return self.record()

    # ------------------------------------------------------------------ acting
    def apply(self, i: int) -> "Game":
        """Take choice ``i`` of :meth:`legal_actions`; the game plays on to the next
        decision or the end.  Returns ``self``."""
        codes = self.legal_codes()
        if not codes:
            raise ValueError("the game is over: no decision to take")
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < len(codes):
            raise ValueError(f"action index must be an integer from 0 to {len(codes) - 1}; got {i!r}")
        return self.apply_code(codes[int(i)])

    def apply_code(self, a: int) -> "Game":
        """Take the action of code ``a`` (``codes.A_*``; raises if it is not legal)."""
        st = self.state
        before = (int(st[K.S_ROUND]), int(st[K.S_REDEALS]), int(st[K.S_STREAMS + K.STREAM_DEAL]))
        if self.over or not self._eng.call(PL.OP_APPLY, a=int(a)):
            raise ValueError(f"action code {a} is not legal now; legal: {self.legal_actions()}")
        self._note_chance(*before)
        return self

    # ------------------------------------------------------------------ chance
    def chance_events(self) -> list[tuple[str, tuple[int, ...]]]:
        """Every chance outcome since the game began, in order: the game replays from its
        actions and these alone.  Each is ``(kind, order)``, ``order`` a tuple of physical
        card ids (``card_name``) in the order the cards leave the draw pile:

        ``("deal", order)``
            A round's shuffled deck (the first round's included): the first ``deal`` x
            players cards are dealt one at a time from the dealer's left, the rest are
            drawn in this order, on turns and by scavenges.
        ``("redeal", order)``
            The shuffled discards of a redeal: dealt from the dealer's left
            (``floor(D / players)`` each, or all of them round-robin under ``deal_all``),
            the rest drawn in this order.

        Nothing else in the game is random (the policies' own randomness is not the game's).
        """
        return list(self._chance)

    def _n_cards(self) -> int:
        return int(self._flat[K.R_PARAMS + K.P_N_CARDS])

    def _leave_order(self, n: int) -> tuple[int, ...]:
        # a pile is drawn from its end (state[S_PILE + n_pile - 1] first); draws only lower
        # n_pile, so the shuffled order stays in the array until the next shuffle
        return tuple(int(c) for c in self.state[K.S_PILE:K.S_PILE + n][::-1])

    def _note_chance(self, rnd: int, redeals: int, stream: int) -> None:
        """The shuffles of the action just applied, read from the state (at most one redeal
        and one new round an action: either ends at a decision, or a redeal's turn reaches
        the turn cap and the next round is dealt at once)."""
        st = self.state
        new_round = int(st[K.S_ROUND]) != rnd
        if int(st[K.S_REDEALS]) != redeals:
            d = int(st[K.S_REDEAL_SIZE])
            if not new_round:
                order = self._leave_order(d)
            else:
                # the new round's shuffle overwrote the redeal's pile: shuffle the redeal's
                # discards (still in the discard array) again with the deal stream as it
                # stood before the action, by the kernel's own shuffle
                scratch = np.zeros(K.S_SEATS, np.int64)
                scratch[K.S_PILE:K.S_PILE + d] = st[K.S_DISCARD:K.S_DISCARD + d]
                scratch[K.S_STREAMS + K.STREAM_DEAL] = stream
                shuffle_nb(scratch, K.S_PILE, d, K.STREAM_DEAL)
                order = tuple(int(c) for c in scratch[K.S_PILE:K.S_PILE + d][::-1])
            self._chance.append(("redeal", order))
        if new_round:
            self._chance.append(("deal", self._leave_order(self._n_cards())))

    def clone(self) -> "Game":
        """An independent copy (the state array copied)."""
        return Game(_copy=self)

    def policy_choice(self, name: str | None = None, params=None) -> int:
        """The index (into :meth:`legal_actions`) of the choice policy ``name`` (a name or a
        seat spec; default: the deciding seat's own player) takes now; its random stream
        advances as in a study, so a game driven by ``apply(policy_choice())`` is the
        study's game."""
        codes = self.legal_codes()
        if not codes:
            raise ValueError("the game is over: no decision to take")
        s = self.to_move
        eng = self._eng
        if name is None:
            return codes.index(eng.call(PL.OP_CHOOSE, a=s))
        seat = as_seat(name) if params is None else make_seat(name, params)
        own = eng.pol[0, s], eng.par[0, s].copy()
        eng.pol[0, s], eng.par[0, s] = POLICIES[seat.policy].id, seat.vector()
        try:
            return codes.index(eng.call(PL.OP_CHOOSE, a=s))
        finally:
            eng.pol[0, s], eng.par[0, s] = own

    def play(self, name: str | None = None, params=None) -> "Game":
        """Let policy ``name`` (default: each seat's own player) take every remaining
        decision.  Returns ``self``."""
        if self.over:
            return self
        if name is None:
            # a decision at a time (the kernel's own loop, OP_PLAY, takes the same choices)
            # so that every shuffle is seen: chance_events()
            while not self.over:
                self.apply_code(self._eng.call(PL.OP_CHOOSE, a=self.to_move))
        else:
            while not self.over:
                self.apply(self.policy_choice(name, params))
        return self

    # ------------------------------------------------------------------ the position
    def hand(self, s: int) -> list[str]:
        return [card_name(self.rules, int(c)) for c in
                self.state[K.S_HAND + s * K.SEAT_W:K.S_HAND + s * K.SEAT_W + self.state[K.S_S_HAND_N + s * K.SEAT_W]]]

    def timeline(self, s: int) -> list[str]:
        return [card_name(self.rules, int(c)) for c in
                self.state[K.S_TL + s * K.SEAT_W:K.S_TL + s * K.SEAT_W + self.state[K.S_S_TL_N + s * K.SEAT_W]]]

    def common(self) -> list[str]:
        return [card_name(self.rules, int(c)) for c in self.state[K.S_COMMON:K.S_COMMON + self.state[K.S_N_COMMON]]]

    def totals(self) -> list[int]:
        return [int(v) for v in self.state[K.S_S_TOTAL:K.S_S_TOTAL + self.players * K.SEAT_W:K.SEAT_W]]

    def round_scores(self) -> list[int]:
        """Each seat's round score if the round ended now without an ending."""
        return [self.score(p) for p in range(self.players)]

    def score(self, p: int, ending: str | int | None = None) -> int:
        """Seat ``p``'s round score now, with an ending's modifier (a card name or id)."""
        e = -1
        if isinstance(ending, str):
            e = [c for c in range(int(self._flat[K.R_PARAMS + K.P_N_CARDS]))
                 if card_name(self.rules, c) == ending][0]
        elif ending is not None:
            e = int(ending)
        return self._eng.call(PL.OP_SCORE, a=p, b=e)

    def cards(self) -> list[int]:
        """Every card id in the position's places (a hoard's shown endings included)."""
        st = self.state
        out = list(st[K.S_PILE:K.S_PILE + st[K.S_N_PILE]]) + list(st[K.S_DISCARD:K.S_DISCARD + st[K.S_N_DISCARD]])
        out += list(st[K.S_COMMON:K.S_COMMON + st[K.S_N_COMMON]])
        for s in range(self.players):
            out += list(st[K.S_HAND + s * K.SEAT_W:K.S_HAND + s * K.SEAT_W + st[K.S_S_HAND_N + s * K.SEAT_W]])
            out += list(st[K.S_TL + s * K.SEAT_W:K.S_TL + s * K.SEAT_W + st[K.S_S_TL_N + s * K.SEAT_W]])
        if st[K.S_PHASE] == K.PH_PICK:
            out += list(st[K.S_SHOWN:K.S_SHOWN + st[K.S_N_SHOWN]])
        return [int(c) for c in out]

    def violation(self) -> str:
        """The first invariant the position breaks (``"none"`` when every one holds): every
        card of the deck in exactly one place, a drawn-ending mark only on an ending, the
        totals the sum of the round scores so far is checked by the tests, a decision to
        take while the game runs."""
        n_cards = int(self._flat[K.R_PARAMS + K.P_N_CARDS])
        if sorted(self.cards()) != list(range(n_cards)):
            return "the cards in play are not the deck, each card once"
        st = self.state
        for s in range(self.players):
            for i in range(int(st[K.S_S_HAND_N + s * K.SEAT_W])):
                c = int(st[K.S_HAND + s * K.SEAT_W + i])
                if st[K.S_MARKED + s * K.SEAT_W + i] and \
                        self._flat[K.R_CARDS + c * K.CC_N + K.CC_KIND] != K.KIND_ENDING:
                    return f"seat {s}: a drawn-ending mark on a card that is not an ending"
        if not self.over and not self.legal_codes():
            return "the game is not over but nobody can act"
        return "none"

    def describe(self) -> str:
        """Round, dealer, piles, the common area, each seat's total, round score, timeline
        and hand; the pending decision."""
        st = self.state
        lines = [f"round {int(st[K.S_ROUND])}, dealer seat {int(st[K.S_DEALER])}, "
                 f"draw pile {int(st[K.S_N_PILE])}, discards {int(st[K.S_N_DISCARD])}"
                 + (" - game over" if self.over else f"; seat {self.to_move} decides ({self.phase})")]
        lines.append("common: " + (", ".join(self.common()) or "-"))
        scores = self.round_scores()
        totals = self.totals()
        for s in range(self.players):
            lines.append(f"  seat {s} ({self.seats[s].label}): total {totals[s]}, round {scores[s]}; "
                         f"timeline [{', '.join(self.timeline(s))}]; hand [{', '.join(self.hand(s))}]")
        if not self.over:
            lines.append(f"Seat {self.to_move} chooses:")
            lines += [f"  {i}: {w}" for i, w in enumerate(self.legal_actions())]
        return "\n".join(lines)

    def __repr__(self) -> str:
        if self.over:
            return f"<Until the World Ends game {self.game} over: totals {self.totals()}>"
        return f"<Until the World Ends game {self.game}: seat {self.to_move} to {self.phase}>"

    def log_rows(self) -> np.ndarray:
        return self.log[1:1 + self.log[0, 0]].copy()
