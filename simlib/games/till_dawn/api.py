"""Python face of the Till Dawn kernels: play games, records as DataFrames, the step model.

>>> from simlib.games.till_dawn.api import play_games
>>> df = play_games(1000, seats=["optimal", "threshold:t=8", "threshold:t=12"], seed=7)
>>> df.groupby("strategy_0").win_0.mean()

The step model from Python (one game, a decision at a time)::

    game = Game(seed=1, game=0, players=3)    # at its first decision
    while not game.over:
        game.apply(0)                         # index into game.legal_actions()
"""
from __future__ import annotations

from typing import Sequence

import numba
import numpy as np
import pandas as pd

from ...core.rng import GOLDEN, MIX1, MIX2, STREAM_SALT, game_key_nb
from . import codes as K
from .kernels import engine_nb as E
from .kernels.play_nb import play_batch_nb, play_game_nb
from .kernels.policies_nb import N_PARAMS, choose_nb, dp_scratch_floats_nb
from .policies import POLICIES, Seat, make_seat, parse_seat
from .records import records_frame
from .ruleset import TillDawnRules, load_ruleset

__all__ = ["play_games", "run_kernel", "records_frame", "trace_game", "Game", "work_size",
           "check_players", "team_codes", "as_seat", "records_frame"]


def _rules(ruleset) -> TillDawnRules:
    return load_ruleset(ruleset)  # None: the declared default


def check_players(players: int, rules: TillDawnRules) -> int:
    lo, hi = rules.min_players(), rules.max_players()
    if isinstance(players, bool) or int(players) != players or not lo <= players <= hi:
        raise ValueError(f"players must be an integer from {lo} to {hi}; got {players!r}")
    return int(players)


def team_codes(names: Sequence[str] | None, players: int, rules: TillDawnRules) -> np.ndarray:
    """Character ids of a team (row of MAX_SEATS, -1 padded); ``None``: a random team."""
    row = np.full(K.MAX_SEATS, -1, dtype=np.int64)
    if names is None:
        return row
    names = list(names)
    if len(names) != players:
        raise ValueError(f"a table of {players} players needs {players} characters; got "
                         f"{len(names)} ({', '.join(names)})")
    if len(set(names)) != len(names):
        raise ValueError(f"duplicate characters in {', '.join(names)}; each character plays "
                         "at most once")
    for i, n in enumerate(names):
        row[i] = rules.character_id(n)
    return row


def as_seat(x) -> Seat:
    """A Seat from a Seat, a seat spec string (``threshold:t=8``) or ``(name, params)``."""
    if isinstance(x, Seat):
        return x
    if isinstance(x, str):
        return parse_seat(x)
    name, params = x
    return make_seat(name, params)


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


def _seat_arrays(seats: Sequence[Seat], n: int):
    pol = np.zeros((n, K.MAX_SEATS), dtype=np.int64)
    par = np.zeros((n, K.MAX_SEATS, N_PARAMS), dtype=np.float64)
    for s, seat in enumerate(seats):
        pol[:, s] = POLICIES[seat.policy].id
        par[:, s, :] = seat.vector()
    return pol, par


def play_games(n_games: int, players: int | None = None, seats=None, characters=None,
               seed: int = 0, ruleset: TillDawnRules | None = None, start: int = 0,
               threads: int | None = None) -> pd.DataFrame:
    """Play ``n_games`` games of one table and return their records (names, not codes).

    ``seats``: one seat spec per seat (``["optimal", "threshold:t=8", "random"]``); default
    ``threshold`` for ``players`` seats (default 4).  ``characters``: a team (names in seat
    order) or ``None`` for a random team per game.
    """
    rules = _rules(ruleset)
    if seats is None:
        seats = ["threshold"] * (4 if players is None else int(players))
    seats = [as_seat(x) for x in seats]
    p = check_players(len(seats) if players is None else players, rules)
    if p != len(seats):
        raise ValueError(f"{len(seats)} seats given for {p} players")
    n = int(n_games)
    if n <= 0:
        raise ValueError(f"n_games must be positive; got {n_games}")
    chars = np.tile(team_codes(characters, p, rules), (n, 1))
    pol, par = _seat_arrays(seats, n)
    out = run_kernel(rules, seed, start, np.full(n, p, np.int64), chars, pol, par,
                     work_size(rules, seats), threads)
    labels = np.full((n, K.MAX_SEATS), None, dtype=object)
    labels[:, :p] = [s.label for s in seats]
    return records_frame(out, rules, labels)


def _scratch(wsize: int):
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
    play_game_nb(state, flat, pol[0], par[0], *_scratch(work_size(rules, seats)), log)
    rec = np.zeros(K.REC_SIZE, dtype=np.int64)
    E.record_nb(state, flat, np.int64(game), rec)
    return rec, log[1:1 + log[0, 0]].copy(), state


_M64 = (1 << 64) - 1
_GOLDEN, _MIX1, _MIX2 = int(GOLDEN), int(MIX1), int(MIX2)
_STEP_LOG = 1024  # rows one kernel call may log (a step: tens; 20 nights ended by their first card: ~250)


def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * _MIX1) & _M64
    z = ((z ^ (z >> 27)) * _MIX2) & _M64
    return z ^ (z >> 31)


class Game:
    """One game of Till Dawn, played a decision at a time (the contract's step API; the
    state is one int64 array, OpenSpiel style).

    Parameters
    ----------
    seed, game : int
        ``Game(seed=s, game=i)`` deals exactly game ``i`` of a study with root seed ``s``.
    players : int
        Players at the table (default: the number of ``seats``, else 4).
    characters : sequence of str, optional
        The team in seat order; ``None`` draws it as a study does.
    ruleset : ruleset, path or preset name, optional
        Default (``None``): Till Dawn's declared default ruleset, the reference.
    seats : sequence of seat specs, optional
        Each seat's player (``["optimal", "threshold:t=8", ...]``), used by
        :meth:`policy_choice` and :meth:`play` when no policy is named; default: every seat
        plays ``threshold``.
    trace : bool
        Keep the action log (``log``).

    >>> g = Game(seed=1, game=5, players=3)
    >>> g.legal_actions()            # the pending decision, in words
    >>> g.apply(0)                   # take choice 0; play on to the next decision
    >>> g.play()                     # every seat's own player to the end
    >>> g.result["winners"]
    """

    def __init__(self, seed: int = 0, game: int = 0, players: int | None = None,
                 characters=None, ruleset=None, seats=None, trace: bool = False,
                 _copy: "Game | None" = None):
        if _copy is not None:
            self.__dict__.update(_copy.__dict__)
            self.state = _copy.state.copy()
            self.log = _copy.log.copy()
            self._chance = list(_copy._chance)
            self._steplog = np.zeros_like(_copy._steplog)
            self._scratch = tuple(a.copy() for a in _copy._scratch)
            return
        self.rules = _rules(ruleset)
        seats = None if seats is None else [as_seat(x) for x in seats]
        if players is None:
            players = len(seats) if seats is not None else 4
        p = check_players(players, self.rules)
        if seats is None:
            seats = [as_seat("threshold")] * p
        if len(seats) != p:
            raise ValueError(f"{len(seats)} seats given for {p} players")
        self.seats = tuple(seats)
        self.seed, self.game = int(seed), int(game)
        row = characters if isinstance(characters, np.ndarray) else team_codes(characters, p, self.rules)
        self.log = np.zeros((100_000 if trace else 1, K.LOG_W), dtype=np.int64)
        self.state = np.zeros(K.S_SIZE, dtype=np.int64)
        self._flat = self.rules.flat()
        key = int(game_key_nb(np.int64(seed), np.int64(game)))
        self._chance: list[tuple[str, int]] = []
        self._steplog = np.zeros((_STEP_LOG, K.LOG_W), dtype=np.int64)
        # the decks stream and the power pile before the deal, as init_state_nb makes them
        self._decks = _mix64(key ^ (((K.STREAM_DECKS + 1) * int(STREAM_SALT)) & _M64))
        self._powers = list(range(int(self._flat[K.R_PARAMS + K.P_N_POWERS])))
        self._steplog[0, 0] = 0
        E.init_state_nb(self.state, self._flat, np.int64(p), np.ascontiguousarray(row, np.int64),
                        np.uint64(key), self._steplog)
        if row[0] < 0:  # a random team: the partial Fisher-Yates of init_state_nb
            perm = list(range(int(self._flat[K.R_PARAMS + K.P_N_CHARS])))
            for s in range(p):
                j = s + self._randint_decks(len(perm) - s)
                perm[s], perm[j] = perm[j], perm[s]
                self._chance.append(("character", perm[s]))
        E.advance_nb(self.state, self._flat, self._steplog)
        self._take_steplog()
        # the policies' scratch lives as long as the game, as in the batch kernel (the
        # optimal player's tables are one array per game, shared by every seat)
        self._scratch = _scratch(work_size(self.rules, self.seats))

    # ------------------------------------------------------------------ reading
    @property
    def over(self) -> bool:
        return bool(self.state[K.S_OVER])

    @property
    def to_move(self) -> int:
        """The seat that decides now (-1 once the game is over)."""
        return -1 if self.over else int(self.state[K.S_DECIDER])

    @property
    def phase(self) -> str:
        return K.PHASE_NAMES[int(self.state[K.S_PHASE])]

    def legal_codes(self) -> list[int]:
        """The legal actions as codes (``codes.A_*``), in :meth:`legal_actions` order."""
        return self._legal_codes()

    def _legal_codes(self) -> list[int]:
        if self.over:
            return []
        out = np.zeros(K.N_ACTIONS, dtype=np.int64)
        n = E.legal_actions_nb(self.state, self._flat, out)
        return [int(a) for a in out[:n]]

    def legal_actions(self) -> list[str]:
        """The pending decision's choices in words (index ``i`` is ``apply(i)``'s)."""
        return [K.ACTIONS[a].replace("_", " ") for a in self._legal_codes()]

    def seat(self, s: int, part: str) -> int:
        """A per-seat value, e.g. ``seat(0, "blood")`` (parts: ``codes.SEAT_PARTS``)."""
        return int(self.state[getattr(K, f"S_S_{part.upper()}") + s])

    def _record_row(self) -> np.ndarray:
        rec = np.zeros(K.REC_SIZE, dtype=np.int64)
        E.record_nb(self.state, self._flat, np.int64(self.game), rec)
        return rec

    def record_array(self) -> np.ndarray:
        """The kernel's record row (int64, ``codes.REC_SIZE``)."""
        return self._record_row()

    def violation(self) -> str:
        """The first invariant the position breaks (``"none"`` when every one holds):
        health within its bounds and positive for an active vampire, no negative blood or
        coffin points, cards left never negative, the track on the board, an active
        vampire to decide (or the drawer choosing an event card to keep)."""
        st = self.state
        p = int(st[K.S_PLAYERS])
        for s in range(p):
            h, hmax = int(st[K.S_S_HEALTH + s]), int(st[K.S_S_MAX_HEALTH + s])
            if not 0 <= h <= hmax:
                return f"seat {s}: health {h} outside 0..{hmax}"
            if st[K.S_S_ACTIVE + s] == 1 and h <= 0:
                return f"seat {s}: active with no health"
            if st[K.S_S_BLOOD + s] < 0 or st[K.S_S_COFFIN + s] < 0:
                return f"seat {s}: negative blood or coffin points"
        if (st[K.S_TYPE_LEFT:K.S_TYPE_LEFT + K.MAX_TYPES] < 0).any():
            return "a card type has a negative count left"
        if not 0 <= st[K.S_TRACK] <= self.rules.get("constants.track_length"):
            return "the night track is off the board"
        # the one decision of a vampire out for the night: which event card it keeps when
        # the card that put it out carried the event icon
        out_ok = st[K.S_PHASE] == K.PH_KEEP
        if not self.over and (not self._legal_codes()
                              or (st[K.S_S_ACTIVE + st[K.S_DECIDER]] != 1 and not out_ok)):
            return "the game is not over but no active vampire can act"
        return "none"

    def apply_code(self, code: int) -> "Game":
        """Take the action of code ``code`` (``codes.A_*``; raises if it is not legal)."""
        codes = self._legal_codes()
        if int(code) not in codes:
            raise ValueError(f"action {K.ACTIONS[int(code)] if 0 <= int(code) < K.N_ACTIONS else code!r} "
                             f"is not legal now; legal: {self.legal_actions()}")
        return self.apply(codes.index(int(code)))

    def record(self) -> dict:
        """This game's record as a study's ``run_chunk`` gives it (same columns)."""
        p = int(self.state[K.S_PLAYERS])
        labels = np.full((1, K.MAX_SEATS), None, dtype=object)
        labels[0, :p] = [s.label for s in self.seats]
        return records_frame(self._record_row()[None, :], self.rules, labels).iloc[0].to_dict()

    @property
    def result(self) -> dict:
        """The record's headline: ``winners``, ``tie``, ``top_score``, each seat's
        ``score_s`` and ``win_s`` (meaningful once :attr:`over`)."""
        return self.record()

    def describe(self) -> str:
        """Night, track and each seat's blood, coffin and health; the pending decision."""
        st = self.state
        p = int(st[K.S_PLAYERS])
        lines = [f"Night {int(st[K.S_NIGHT]) + 1}, {self.phase}"
                 + (" - game over" if self.over else "")]
        for s in range(p):
            lines.append(f"  seat {s} ({self.seats[s].label}): "
                         + ", ".join(f"{part} {self.seat(s, part)}" for part in K.SEAT_PARTS))
        if not self.over:
            lines.append(f"Seat {self.to_move} chooses:")
            lines += [f"  {i}: {a}" for i, a in enumerate(self.legal_actions())]
        return "\n".join(lines)

    def __repr__(self) -> str:
        if self.over:
            return f"<Till Dawn game {self.game} over: winners {self.result['winners']}>"
        return f"<Till Dawn game {self.game}: seat {self.to_move} to {self.phase}>"

    # ------------------------------------------------------------------ acting
    def apply(self, i: int) -> "Game":
        """Take choice ``i`` of :meth:`legal_actions`; the game plays on to the next
        decision or the end.  Returns ``self``."""
        codes = self._legal_codes()
        if not codes:
            raise ValueError("the game is over: no decision to take")
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < len(codes):
            raise ValueError(f"action index must be an integer from 0 to {len(codes) - 1}; got {i!r}")
        self._before_step()
        ok = E.apply_action_nb(self.state, self._flat, np.int64(codes[int(i)]), self._steplog)
        self._take_steplog()
        if not ok:
            raise ValueError(f"the engine refused {K.ACTIONS[codes[int(i)]]}")  # pragma: no cover
        return self

    # ------------------------------------------------------------------ chance
    def chance_events(self) -> list[tuple[str, int]]:
        """Every chance outcome since the game began, in the order the kernel drew them, as
        ``(kind, value)``; the game is replayed from its actions and these alone.

        Kinds (values in the kernel's own codes):

        - ``("character", c)``: a random team's character of the next seat (seat 0 first;
          only when no team was given), ``c`` an index of ``rules.character_names``.
        - ``("power", c)``: at the start of every night, the power card dealt to each seat in
          seat order, ``c`` a physical power card (``rules.flat()[R_POWER_KIND + c]`` is its
          kind).
        - ``("hunt", t)``: each hunt card drawn, ``t`` its card type
          (``rules.card_types()[t]``); a reshuffle is no chance event itself, the draws after
          it are.
        - ``("event", e)``: each event card drawn for an event icon, ``e`` a physical event
          card (``rules.flat()[R_EVENT_KIND + e]``).
        """
        return list(self._chance)

    def _randint_decks(self, n: int) -> int:
        """``engine_nb.randint_nb`` on the decks stream (Python ints, mod 2**64)."""
        z = (self._decks + _GOLDEN) & _M64
        self._decks = z
        z = ((z ^ (z >> 30)) * _MIX1) & _M64
        z = ((z ^ (z >> 27)) * _MIX2) & _M64
        z ^= z >> 31
        return ((z >> 32) * n) >> 32

    def _before_step(self) -> None:
        # read from the state, not carried over: a state set by hand between steps (the
        # crafted positions of the tests) still lists the chance of the steps after it
        self._steplog[0, 0] = 0
        self._decks = int(np.uint64(self.state[K.S_STREAMS + K.STREAM_DECKS]))
        self._powers = [int(x) for x in self.state[K.S_POWERS:K.S_POWERS + len(self._powers)]]

    def _take_steplog(self) -> None:
        """The chance outcomes of the kernel call just made, from its log rows: hunt and
        event cards are logged; the powers dealt at a night's start are not, so the deal's
        Fisher-Yates is redone on the decks stream, then checked against the state (a
        kernel drawing differently fails here, not silently)."""
        lg = self._steplog
        m = int(lg[0, 0])
        if m + 1 >= lg.shape[0]:  # pragma: no cover - a step never logs that much
            raise RuntimeError("one step filled the step log: its chance events are incomplete")
        rows = lg[1:1 + m]
        p = int(self.state[K.S_PLAYERS])
        for r in rows:
            kind = int(r[0])
            if kind == K.LG_NIGHT:
                perm = self._powers
                for s in range(p):
                    j = s + self._randint_decks(len(perm) - s)
                    perm[s], perm[j] = perm[j], perm[s]
                    self._chance.append(("power", perm[s]))
            elif kind == K.LG_DRAW:
                self._chance.append(("hunt", int(r[3])))
            elif kind == K.LG_EVENT_DRAW:
                self._randint_decks(1)  # the draw's index is logged as its card
                self._chance.append(("event", int(r[3])))
        st = self.state
        if (self._decks != int(np.uint64(st[K.S_STREAMS + K.STREAM_DECKS]))
                or self._powers != [int(x) for x in st[K.S_POWERS:K.S_POWERS + len(self._powers)]]):
            raise RuntimeError("the decks stream or the power pile differs from the kernel's: "
                               "chance_events no longer mirrors engine_nb's draws")
        if self.log.shape[0] > 1 and m:  # a traced game keeps every row, as the kernel would
            n0 = int(self.log[0, 0])
            k = min(m, self.log.shape[0] - 1 - n0)
            self.log[1 + n0:1 + n0 + k] = rows[:k]
            self.log[0, 0] = n0 + k

    def policy_choice(self, name: str | None = None, params=None) -> int:
        """The index of the choice ``name`` (default: the deciding seat's own player) takes
        now; its random stream advances as it would in a study."""
        codes = self._legal_codes()
        if not codes:
            raise ValueError("the game is over: no decision to take")
        seat = self.seats[self.to_move] if name is None else make_seat(name, params) \
            if ":" not in name else as_seat(name)
        legal = np.zeros(K.N_ACTIONS, dtype=np.int64)
        legal[:len(codes)] = codes
        need = work_size(self.rules, [seat])
        if need > self._scratch[1].shape[0]:
            work = np.zeros(need, np.float64)
            work[:self._scratch[1].shape[0]] = self._scratch[1]
            self._scratch = (self._scratch[0], work) + self._scratch[2:]
        a = choose_nb(self.state, self._flat, np.int64(POLICIES[seat.policy].id), seat.vector(),
                      legal, np.int64(len(codes)), *self._scratch[1:])
        return codes.index(int(a))

    def play(self, name: str | None = None, params=None) -> "Game":
        """Let policy ``name`` (default: each seat's own player) take every remaining
        decision."""
        while not self.over:
            self.apply(self.policy_choice(name, params))
        return self

    def clone(self) -> "Game":
        """An independent copy (the state array copied)."""
        return Game(_copy=self)
