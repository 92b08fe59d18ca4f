"""Python face of the Until Daylight game kernel: play games, get records, trace one game.

>>> from simlib.games.until_daylight import play_games, records_frame
>>> rec = play_games(1000, players=4, seed=7, policy="baseline")   # structured array
>>> df = records_frame(rec)                                         # names, not codes
"""
from __future__ import annotations

import warnings

from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from ...core.seats import check_games, team_row
from ...core.parallel import BLOCK_GAMES, TAIL_GAMES, default_threads, range_edges, run_ranges  # noqa: F401
from . import codes as K
from .kernels.game_nb import (advance_nb, apply_action_nb, new_game_nb, play_game_nb,
                              play_range_nb, write_record_nb)
from .kernels.search_nb import play_range_search_nb, rollout_choice_nb
from .kernels.state_nb import flatten_rules
from .policies import check_policy_ruleset, resolve_policy, resolve_search
from .ruleset import Ruleset, load_ruleset


def _rules(ruleset: Ruleset | None) -> Ruleset:
    return load_ruleset(ruleset)  # None: the declared default


_FLAT_CACHE: dict[str, np.ndarray] = {}


def flat_rules(rules: Ruleset) -> np.ndarray:
    """The ruleset as the one int64 array the kernels read (cached by fingerprint)."""
    key = rules.fingerprint()
    arr = _FLAT_CACHE.get(key)
    if arr is None:
        arr = flatten_rules(rules.pack())
        arr.setflags(write=False)
        if len(_FLAT_CACHE) > 64:
            _FLAT_CACHE.clear()
        _FLAT_CACHE[key] = arr
    return arr


def check_players(players: int, ruleset: Ruleset) -> int:
    params = ruleset.pack().params
    lo, hi = int(params[K.P_MIN_PLAYERS]), int(params[K.P_MAX_PLAYERS])
    p = int(players)
    if p != players or not lo <= p <= hi:
        raise ValueError(f"players must be an integer from {lo} to {hi}; got {players!r}")
    return p


def team_codes(characters: Sequence[str] | None, players: int, ruleset: Ruleset) -> np.ndarray:
    """Character ids of a team (row of MAX_PLAYERS, -1 padded); ``None``: a random team."""
    return team_row(characters, players, ruleset, K.MAX_PLAYERS)


def play_games(n_games: int, players: int = 4, characters: Sequence[str] | None = None,
               seed: int = 0, policy: str = "baseline",
               policy_params: Mapping[str, float] | Sequence[float] | None = None,
               ruleset: Ruleset | None = None, start: int = 0,
               threads: int | None = None, check: bool = False) -> np.ndarray:
    """Play ``n_games`` whole games and return their records.

    Parameters
    ----------
    n_games : int
        Games to play: game indices ``start .. start + n_games - 1``.
    players : int
        Players at the table (3-6 in the reference ruleset).
    characters : sequence of str, optional
        The team (one name per seat); ``None`` draws a random team per game.
    seed : int
        Root seed; game ``i``'s randomness is a pure function of ``(seed, i)``.
    policy, policy_params :
        Policy name (``random``, ``baseline``) and parameters (names or full vector).
    ruleset : Ruleset, optional
        ``None``: the declared default, the calibrated preset (``"reference"`` for the
        raw assumptions; a preset name or a path as in ``load_ruleset``).
    threads : int, optional
        threads for this call (default: ``NUMBA_NUM_THREADS``, i.e. the cores).
    check : bool
        Check the game's invariants after every step (slower; record field ``violation``).

    Returns
    -------
    numpy.ndarray, structured, shape (n_games,)
        Record dtype ``codes.record_dtype()``; see ``records_frame`` for names.
    """
    rules = _rules(ruleset)
    check_games(n_games)
    if int(seed) < 0:
        raise ValueError(f"seed must be >= 0; got {seed}")
    p = check_players(players, rules)
    row = team_codes(characters, p, rules)
    pid, pp = resolve_policy(policy, policy_params)
    check_policy_ruleset(policy, policy_params, rules)
    search = resolve_search(policy, policy_params)
    n = int(n_games)
    out = np.zeros(n, dtype=K.record_dtype())
    flat = out.view(np.int64).reshape(n, K.N_REC)
    npl = np.full(n, p, dtype=np.int64)
    chars = np.tile(row, (n, 1))  # writable C array: the one signature the kernel has
    run_kernel(rules, int(seed), int(start), npl, chars, pid, pp, flat, threads, check, search)
    return out


def run_kernel(rules: Ruleset, seed: int, start: int, npl: np.ndarray, chars: np.ndarray,
               pid: int, pp: np.ndarray, flat: np.ndarray, threads: int | None = None,
               check: bool = False, search=None) -> None:
    """Low-level call of the batch kernel (arrays already validated and allocated).

    The games are split into contiguous ranges run on ``threads`` Python threads (the
    kernel releases the GIL); game ``start + i`` always writes row ``i`` from its own
    streams, so the records do not depend on the split."""
    packed = flat_rules(rules)
    kernel = play_range_nb
    args = (packed, np.int64(seed), np.int64(start), npl, chars, np.int64(pid), pp,
            np.int64(1 if check else 0), flat)
    tail = TAIL_GAMES
    if search is not None:  # a search player: the step driver over the baseline
        bid, bpp, rp = search
        kernel = play_range_search_nb
        args = (packed, np.int64(seed), np.int64(start), npl, chars, np.int64(bid), bpp, rp,
                np.int64(1 if check else 0), flat)
        tail = 1  # its games are long: the threads finish within one game of each other
    run_ranges(kernel, args, flat.shape[0], threads, tail)


def team_names(seats: np.ndarray, names: Sequence[str]) -> np.ndarray:
    """Each game's team as its sorted character names joined by ``+``, from the seats'
    character codes (shape ``(games, seats)``, -1 for an empty seat), without a Python
    pass per game: each game's sorted codes become one integer (mixed radix), and each
    distinct team is named once."""
    seats = np.asarray(seats, dtype=np.int64)
    if seats.size == 0:
        return np.empty(len(seats), dtype=object)
    rows = np.sort(seats, axis=1) + 1  # 0: an empty seat
    radix = len(names) + 1
    if radix ** rows.shape[1] < 2 ** 62:
        key = rows @ (radix ** np.arange(rows.shape[1], dtype=np.int64))
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        uniq = rows[first]
    else:  # pragma: no cover - more characters than any ruleset has
        uniq, inverse = np.unique(rows, axis=0, return_inverse=True)
    teams = np.array(["+".join(sorted(names[c - 1] for c in row if c > 0)) for row in uniq],
                     dtype=object)
    return teams[inverse.reshape(-1)]


_PLAIN_GAME = ["dead_round", "survivors_saved", "survivors_saved_total", "leader",
               "rubble_drawn", "horde_drawn", "exchanges", "search_actions", "attacks",
               "horde_reshuffles", "violation"]
_SEAT_FIELDS = ("damage", "xp", "kills", "health")


def record_columns(ruleset: Ruleset | None = None) -> list[str]:
    """The columns of :func:`records_frame` (and of :func:`decode_records`), in order."""
    rules = _rules(ruleset)
    cols = ["game", "players", "win", "loss_cause", "round_reached", "dead_seat",
            "dead_character"] + _PLAIN_GAME
    for s in range(K.MAX_PLAYERS):
        cols += [f"character_{s}"] + [f"{f}_{s}" for f in _SEAT_FIELDS]
    cols += ["leader_character", "team"]
    return cols + [f"killed_{name}" for name in rules.enemy_names[:K.MAX_ENEMY_TYPES]]


def decode_records(records: np.ndarray, ruleset: Ruleset | None = None,
                   columns: Sequence[str] | None = None) -> dict[str, np.ndarray]:
    """The one decoder of records: kernel records (``codes.record_dtype()``) to named
    columns, codes mapped to names with array lookups (no pass in Python per game).

    ``columns``: the columns wanted (default: all of :func:`record_columns`, in order);
    the study's counts-only path asks for the few its tables read."""
    rules = _rules(ruleset)
    names = rules.character_names
    chars = np.array(list(names) + [None], dtype=object)  # code -1 (nobody) -> None
    causes = np.array([K.CAUSE_NAMES.get(i) for i in range(max(K.CAUSE_NAMES) + 1)], dtype=object)
    enemy = {f"killed_{n}": f"killed_{t}" for t, n in enumerate(rules.enemy_names[:K.MAX_ENEMY_TYPES])}
    cache: dict[str, np.ndarray] = {}

    def seats() -> np.ndarray:
        if "seats" not in cache:
            cache["seats"] = np.stack([records[f"character_{s}"] for s in range(K.MAX_PLAYERS)], axis=1)
        return cache["seats"]

    def one(c: str) -> np.ndarray:
        if c == "win":
            return records["outcome"] == K.OUT_WIN
        if c == "loss_cause":
            return causes[records["cause"]]
        if c == "dead_character" or c.startswith("character_"):
            return chars[records[c]]
        if c == "leader_character":
            lead = records["leader"]
            return chars[np.where(lead >= 0, seats()[np.arange(len(records)), np.maximum(lead, 0)], -1)]
        if c == "team":
            return team_names(seats(), names)
        return records[enemy.get(c, c)]

    return {c: one(c) for c in (record_columns(rules) if columns is None else columns)}


def records_frame(records: np.ndarray, ruleset: Ruleset | None = None) -> pd.DataFrame:
    """Per-game records as a DataFrame with codes mapped to names (:func:`decode_records`).

    Columns: game, players, win (bool), loss_cause, round_reached, dead_character,
    dead_round, survivors_saved, ..., ``character_<seat>``, ``damage_<seat>``, ``xp_<seat>``,
    ``kills_<seat>``, ``health_<seat>``, ``team`` (sorted names joined by ``+``),
    ``killed_<enemy>``.
    """
    return pd.DataFrame(decode_records(records, ruleset))


# =========================================================================== step states
STEP_PID, STEP_PP = resolve_policy("random")  # a step state's own policy: never asked


def new_step_state(rs: np.ndarray, seed: int, game: int, players: int, chars: np.ndarray,
                   trace: int = 0, check: bool = False) -> np.ndarray:
    """Game ``game`` of seed ``seed`` as a step-mode state, played to its first decision
    (``rs``: :func:`flat_rules`; ``chars``: :func:`team_codes`)."""
    state = new_game_nb(rs, np.int64(seed), np.int64(game), np.int64(players), chars,
                        np.int64(trace), np.int64(bool(check)), np.int64(K.MODE_STEP))
    advance_nb(state, rs, np.int64(STEP_PID), STEP_PP)
    return state


def apply_step(state: np.ndarray, rs: np.ndarray, i: int) -> int:
    """Take candidate ``i`` of a step state's pending decision (the kernel's code)."""
    return int(apply_action_nb(state, rs, np.int64(STEP_PID), STEP_PP, np.int64(i)))


def play_search_state(state: np.ndarray, rs: np.ndarray, search) -> None:
    """Play a step state to its end with a search player (``resolve_search``'s triple)."""
    bid, bpp, rp = search
    while not state[K.G_OVER]:
        code = apply_step(state, rs, int(rollout_choice_nb(state, rs, np.int64(bid), bpp, rp)))
        if code < 0:
            raise ValueError(f"the engine refused the search player's action (code {code})")


class TraceTruncatedWarning(UserWarning):
    """``trace_game`` with an explicit ``capacity`` filled its event buffer: the trace may
    miss the game's later events (the record is whole)."""


TRACE_START_CAPACITY = 4096  # events; the whole-game trace grows it by replaying the game


def trace_game(seed: int = 0, players: int = 4, characters: Sequence[str] | None = None,
               policy: str = "baseline", policy_params=None, ruleset: Ruleset | None = None,
               game: int = 0, capacity: int | None = None, check: bool = False):
    """Play one game with the event buffer on; return ``(record, events)``.

    The game is the very game ``play_games(..., seed=seed, start=game)`` plays (same
    kernel, same streams): the trace shows what the simulator does.

    ``capacity=None`` (the default) returns every event of the game: when the buffer fills
    up, the game (a pure function of seed and game index) is played again with a buffer
    eight times larger.  An explicit ``capacity`` keeps at most that many events; if the
    buffer fills up, a :class:`TraceTruncatedWarning` says the trace may be cut there.
    """
    if capacity is not None and (isinstance(capacity, bool) or
                                 not isinstance(capacity, (int, np.integer)) or capacity < 1):
        raise ValueError(f"capacity must be a positive integer or None; got {capacity!r}")
    cap = TRACE_START_CAPACITY if capacity is None else int(capacity)
    while True:
        rec, events = _trace_once(seed, players, characters, policy, policy_params, ruleset,
                                  game, cap, check)
        if len(events) < cap:
            return rec, events
        if capacity is not None:
            warnings.warn(f"trace_game: the event buffer is full at capacity={cap} events; the "
                          "trace may miss the game's later events (capacity=None keeps them all)",
                          TraceTruncatedWarning, stacklevel=2)
            return rec, events
        cap *= 8


def _trace_once(seed, players, characters, policy, policy_params, ruleset, game, capacity,
                check):
    rules = _rules(ruleset)
    p = check_players(players, rules)
    row = team_codes(characters, p, rules)
    pid, pp = resolve_policy(policy, policy_params)
    check_policy_ruleset(policy, policy_params, rules)
    rec = np.zeros(1, dtype=K.record_dtype())
    flat = rec.view(np.int64).reshape(1, K.N_REC)
    search = resolve_search(policy, policy_params)
    if search is not None:  # a search player: the step loop
        rs = flat_rules(rules)
        st = new_step_state(rs, seed, game, p, row, capacity, check)
        play_search_state(st, rs, search)
        write_record_nb(st, rs, np.int64(game), flat[0])
    else:
        st = play_game_nb(flat_rules(rules), np.int64(seed), np.int64(game), np.int64(p), row,
                          np.int64(pid), pp, np.int64(capacity), np.int64(1 if check else 0),
                          flat[0])
    o = int(st[K.G_O_EV])
    n_ev = int(st[K.G_EV_N])
    return rec[0], st[o:o + n_ev * K.N_EV_COLS].reshape(n_ev, K.N_EV_COLS).copy()
