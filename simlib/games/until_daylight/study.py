"""Until Daylight studies: the batch runner's adapter for this game (``simlib.simulate`` plays it).

>>> from simlib import simulate
>>> res = simulate(games=8000, players=[3, 4, 5, 6], seed=7)     # random teams
>>> res.tables.by_character          # games, wins, win_rate, ci_low, ci_high
>>> res.records                      # one row per game (names, not codes)
>>> res.provenance["ruleset_fingerprint"]

Game ``i`` of a study is fully fixed by ``i`` and the study's parameters:

* players ``= players[i % len(players)]``;
* random teams (default): drawn inside the kernel from game ``i``'s own stream, uniformly
  without duplicates, in random seat order;
* enumerated (``"all"``) or fixed teams: with ``T_p`` the teams of ``p`` players (in the
  order given; ``"all"``: every combination in ruleset order) and ``j = i // len(players)``,
  the team is ``T_p[j % len(T_p)]``; for ``"all"`` the seats rotate by one from one cycle
  of ``T_p`` to the next (``(j // len(T_p)) % p``) so that no character keeps seat 0.

So every backend, thread count and chunk size plays the very same games.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from ...core.tables import Counts, TableSpec, count_records
from ...core.adapter import DeferredRecords, StudyAdapter
from . import api
from . import codes as K
from .instruments import outcomes
from .policies import ALIASES, POLICIES, check_policy_ruleset, resolve_policy, resolve_search
from .ruleset import Ruleset, load_ruleset
from .trace import format_trace

__all__ = ["UntilDaylightAdapter", "TABLE_SPEC",
           "GAMES_PER_PLAYER_COUNT", "default_games", "make_adapter"]

GAMES_PER_PLAYER_COUNT = 40_000  # 95 % intervals within about +-1 point per character x players
GAME = "until_daylight"

# the record columns the tables read (the counts-only path decodes only these)
LEAN_COLUMNS = ("players", "round_reached", "win", "loss_cause", "dead_character") + \
    tuple(f"character_{s}" for s in range(K.MAX_PLAYERS)) + ("team",)
TABLE_SPEC = TableSpec(
    groupings=(("overall", ()), ("players", ("players",)), ("character", ("character",)),
               ("character_players", ("character", "players")), ("team", ("team",)),
               ("players_round", ("players", "round_reached"))),
    outcome="win",
    members=tuple(f"character_{s}" for s in range(K.MAX_PLAYERS)),
    member="character",
    categories=(("loss_cause", "loss_causes"), ("dead_character", "deaths")),
    member_valued=("dead_character",),
    none_value="none",
    primary="players",
    round="round_reached",
)

_STR_DTYPE = pd.Series(["a"]).dtype  # pandas >= 3: "str"; pandas 2: object


def default_games(adapter: "UntilDaylightAdapter") -> int:
    """Games of the default study: ``GAMES_PER_PLAYER_COUNT`` per player count, rounded up
    to whole cycles of the teams (and seat rotations) when teams are enumerated or given."""
    n = GAMES_PER_PLAYER_COUNT * len(adapter.players)
    cycle = adapter.cycle()
    return -(-n // cycle) * cycle


@dataclass(frozen=True, eq=False)
class UntilDaylightAdapter(StudyAdapter):
    """Everything that fixes the games of a study; picklable (sent to Dask workers).

    ``teams[k]`` (int64, (n_teams, MAX_PLAYERS), -1 padded) lists the teams of
    ``players[k]`` players, or ``teams is None`` for random teams.
    """

    rules: Ruleset
    seed: int
    players: tuple[int, ...]
    teams: tuple[np.ndarray, ...] | None
    teams_spec: Any  # "random", "all" or a list of teams (lists of names)
    policy: str
    policy_id: int
    policy_params: np.ndarray
    rotate_seats: bool = False
    search: tuple | None = None  # (base id, base params, search params) of a search player
    game: str = GAME
    spec: TableSpec = field(default=TABLE_SPEC)

    # ------------------------------------------------------------------ game configs
    def configs(self, start: int, count: int) -> tuple[np.ndarray, np.ndarray]:
        """Player counts (int64, (count,)) and seat characters (int64, (count, MAX_PLAYERS))
        of games ``start .. start + count - 1`` (row of -1: random team)."""
        idx = np.arange(start, start + count, dtype=np.int64)
        counts = np.asarray(self.players, dtype=np.int64)
        nc = len(counts)
        which = idx % nc
        npl = counts[which]
        chars = np.full((count, K.MAX_PLAYERS), -1, dtype=np.int64)
        if self.teams is not None:
            j = idx // nc
            for k, p in enumerate(self.players):
                sel = which == k
                tp = self.teams[k]
                rows = tp[j[sel] % len(tp)].copy()
                if self.rotate_seats:
                    r = (j[sel] // len(tp)) % p
                    seat = (np.arange(p)[None, :] + r[:, None]) % p
                    rows[:, :p] = np.take_along_axis(rows[:, :p], seat, axis=1)
                chars[sel] = rows
        return npl, chars

    def cycle(self) -> int:
        """Games after which every team (and seat rotation) has been played equally often."""
        if self.teams is None:
            return len(self.players)
        per = 1
        for p, tp in zip(self.players, self.teams):
            per = math.lcm(per, len(tp) * (p if self.rotate_seats else 1))
        return len(self.players) * per

    def game_setup(self, game: int) -> tuple[int, list[str] | None]:
        """``(players, team names in seat order or None for a random team)`` of one game."""
        npl, chars = self.configs(int(game), 1)
        p = int(npl[0])
        if chars[0, 0] < 0:
            return p, None
        return p, [self.rules.character_names[int(c)] for c in chars[0, :p]]

    # ------------------------------------------------------------------ adapter protocol
    def play_array(self, start: int, count: int, threads: int | None = None) -> np.ndarray:
        """The kernel's records (structured, ``codes.record_dtype()``) of games
        ``start .. start+count-1`` under this study's player (a search player through its
        step driver); :meth:`run_chunk` gives them as a DataFrame."""
        npl, chars = self.configs(start, count)
        out = np.zeros(count, dtype=K.record_dtype())
        flat = out.view(np.int64).reshape(count, K.N_REC)
        api.run_kernel(self.rules, self.seed, start, npl, chars, self.policy_id,
                       self.policy_params, flat, threads, search=self.search)
        return out

    def run_chunk(self, start: int, count: int, threads: int | None = None) -> pd.DataFrame:
        return self._records_frame(self.play_array(start, count, threads))

    def run_chunk_with_counts(self, start: int, count: int,
                              threads: int | None = None) -> tuple[DeferredRecords, Counts]:
        """``(run_chunk(...), aggregate(run_chunk(...)))``, the counts taken from the
        kernel's integer codes rather than from the frame's text (the same counts), and
        the frame deferred: the kernel's records are decoded only if someone reads them."""
        out = self.play_array(start, count, threads)
        return DeferredRecords(lambda: self._records_frame(out)), self._counts(out)

    def aggregate(self, records: pd.DataFrame) -> Counts:
        return count_records(records, self.spec)

    def run_chunk_counts(self, start: int, count: int, threads: int | None = None) -> Counts:
        """``aggregate(run_chunk(start, count))`` without building the records frame: the
        columns the tables read, the named ones as the kernel's codes with their names."""
        return self._counts(self.play_array(start, count, threads))

    def outcomes(self, start: int, count: int, threads: int | None = None):
        """The instruments' view of games ``start .. start + count - 1``."""
        return outcomes(self.play_array(start, count, threads), self)

    def step_game(self, game: int):
        """Game ``game`` of this study in the step model, with the study's player."""
        from .step import Game

        npl, chars = self.configs(int(game), 1)
        team = [{"character": self.rules.character_names[c]} for c in chars[0][:int(npl[0])]
                if c >= 0] or None  # a study's team is given whole or drawn by the kernel
        return Game(self.seed, int(game), players=int(npl[0]), seats=team, ruleset=self.rules,
                    policy=(self.policy, self.policy_param_dict()))

    def _policy_spec(self):
        return POLICIES[ALIASES.get(self.policy, (self.policy,))[0]]

    def policy_param_dict(self) -> dict[str, float]:
        """The player's parameters by name (its full vector)."""
        return dict(zip(self._policy_spec().param_names, self.policy_params.tolist()))

    def _records_and_counts(self, out: np.ndarray) -> tuple[pd.DataFrame, Counts]:
        """The records frame and the counts of the kernel's records ``out``."""
        return self._records_frame(out), self._counts(out)

    def _records_frame(self, out: np.ndarray) -> pd.DataFrame:
        """``run_chunk``'s frame of the kernel's records ``out``."""
        return _normalize(api.records_frame(out, self.rules))

    def _counts(self, out: np.ndarray) -> Counts:
        """The counts of the kernel's records ``out``, from its codes."""
        return count_records(self._coded_columns(out), self.spec)

    def _coded_columns(self, out: np.ndarray) -> dict[str, Any]:
        """The columns of :data:`LEAN_COLUMNS`, each named one as a ``pd.Categorical`` of
        the kernel's codes (-1: nobody / none) over the names :func:`api.decode_records`
        gives them: ``count_records`` counts these without factorising text, which was
        most of a chunk's counting time."""
        names = np.asarray(self.rules.character_names, dtype=object)
        chars = pd.Index(names)

        def cat(codes: np.ndarray, levels: pd.Index) -> pd.Categorical:
            return pd.Categorical.from_codes(codes, dtype=pd.CategoricalDtype(levels),
                                             validate=False)

        cols: dict[str, Any] = {"players": out["players"], "round_reached": out["round_reached"],
                                "win": out["outcome"] == K.OUT_WIN}
        cause = np.full(max(K.CAUSE_NAMES) + 1, -1, dtype=np.int64)
        cause_names = []
        for code, name in sorted(K.CAUSE_NAMES.items()):
            if name is not None:
                cause[code] = len(cause_names)
                cause_names.append(name)
        cols["loss_cause"] = cat(cause[out["cause"]], pd.Index(np.asarray(cause_names, dtype=object)))
        cols["dead_character"] = cat(out["dead_character"], chars)
        seats = np.stack([out[f"character_{s}"] for s in range(K.MAX_PLAYERS)], axis=1)
        for s in range(K.MAX_PLAYERS):
            cols[f"character_{s}"] = cat(seats[:, s], chars)
        # a team is its sorted characters: one integer per game (mixed radix), named once
        # per distinct team by the decoder's own naming (api.team_names)
        rows = np.sort(seats, axis=1) + 1
        radix = len(names) + 1
        if len(rows) and radix ** rows.shape[1] < 2 ** 62:
            key = rows @ (radix ** np.arange(rows.shape[1], dtype=np.int64))
            _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
            teams = api.team_names(seats[first], names)
            cols["team"] = cat(inverse.reshape(-1).astype(np.int64),
                               pd.Index(np.asarray(teams, dtype=object)))
        else:  # pragma: no cover - no games, or more characters than any ruleset has
            cols["team"] = api.team_names(seats, names)
        return cols

    def identity(self) -> dict:
        spec = self._policy_spec()
        return {
            "seed": int(self.seed),
            "ruleset_fingerprint": self.rules.fingerprint(),
            "policy": self.policy,
            "policy_params": {n: float(v) for n, v in zip(spec.param_names, self.policy_params)},
            "players": [int(p) for p in self.players],
            "teams": self.teams_spec,
        }

    def provenance(self) -> dict:
        return {"game": self.game, **self.identity(), "ruleset_origin": self.rules.origin,
                "ruleset_lineage": self.rules.lineage,
                "ruleset_changes": self.rules.changes(),
                "rounds": int(self.rules.get("constants.rounds")),
                "characters": list(self.rules.character_names)}


def _normalize(df: pd.DataFrame) -> pd.DataFrame:
    """One string dtype for every text column, whatever the chunk held (all-empty seats
    come out as object columns), so chunks concatenate to the same frame."""
    if _STR_DTYPE is not object:
        for c in df.columns:
            if df[c].dtype == object:
                df[c] = df[c].astype(_STR_DTYPE)
    return df


# =========================================================================== parameters
def _players(players, rules: Ruleset) -> tuple[int, ...] | None:
    if players is None:
        return None
    seq = [players] if isinstance(players, (int, np.integer)) else list(players)
    if not seq:
        raise ValueError("players must name at least one player count")
    out = []
    for p in seq:
        if isinstance(p, bool) or not isinstance(p, (int, np.integer)):
            raise ValueError(f"player counts must be integers; got {p!r}")
        out.append(api.check_players(int(p), rules))
    if len(set(out)) != len(out):
        raise ValueError(f"duplicate player count in {out}")
    return tuple(out)


def make_adapter(players=None, characters=None, *, seed: int = 0, policy: str = "baseline",
                 policy_params=None, ruleset=None) -> UntilDaylightAdapter:
    """Validate a study's parameters and build its adapter (raises ``ValueError``)."""
    rules = load_ruleset(ruleset)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2 ** 63:
        raise ValueError(f"seed must be an integer from 0 to 2**63 - 1; got {seed!r}")
    counts = _players(players, rules)
    pid, pp = resolve_policy(policy, policy_params)
    check_policy_ruleset(policy, policy_params, rules)
    search = resolve_search(policy, policy_params)
    lo = int(rules.pack().params[K.P_MIN_PLAYERS])
    hi = int(rules.pack().params[K.P_MAX_PLAYERS])
    rotate = False
    if characters is None or (isinstance(characters, str) and characters == "random"):
        counts = counts or tuple(range(lo, hi + 1))
        teams, spec = None, "random"
    elif isinstance(characters, str) and characters == "all":
        counts = counts or tuple(range(lo, hi + 1))
        names = rules.character_names
        teams = []
        for p in counts:
            combos = list(combinations(range(len(names)), p))
            if not combos:
                raise ValueError(f"no team of {p} players: the ruleset has {len(names)} characters")
            arr = np.full((len(combos), K.MAX_PLAYERS), -1, dtype=np.int64)
            arr[:, :p] = np.array(combos, dtype=np.int64)
            teams.append(arr)
        teams, spec, rotate = tuple(teams), "all", True
    else:
        if isinstance(characters, str):
            raise ValueError(f"characters must be 'random', 'all', a team (list of names) or a "
                             f"list of teams; got {characters!r}")
        given = list(characters)
        if given and all(isinstance(c, str) for c in given):
            given = [given]
        if not given:
            raise ValueError("characters: no team given")
        team_lists = []
        for t in given:
            if isinstance(t, str) or not all(isinstance(c, str) for c in t):
                raise ValueError(f"a team is a list of character names; got {t!r}")
            team_lists.append(list(t))
        names = rules.character_names
        for t in team_lists:  # names first: a misspelt name is the error, not the team's size
            for n in t:
                if n not in names:
                    raise ValueError(f"characters: {n!r} is no character; allowed: "
                                     f"{', '.join(names)}")
        for t in team_lists:
            if not lo <= len(t) <= hi:
                raise ValueError(f"characters: team {','.join(t)} has {len(t)} characters; a "
                                 f"team has {lo} to {hi}")
        sizes = sorted({len(t) for t in team_lists})
        for s in sizes:
            api.check_players(s, rules)
        if counts is None:
            counts = tuple(sizes)
        for t in team_lists:
            if len(t) not in counts:
                raise ValueError(f"team {'+'.join(t)} has {len(t)} players, not one of the player "
                                 f"counts {list(counts)}")
        for p in counts:
            if p not in sizes:
                raise ValueError(f"no team of {p} players given (teams have "
                                 f"{', '.join(map(str, sizes))} players)")
        teams = tuple(np.stack([api.team_codes(t, p, rules) for t in team_lists if len(t) == p])
                      for p in counts)
        spec = team_lists
    return UntilDaylightAdapter(rules=rules, seed=int(seed), players=tuple(counts), teams=teams,
                                teams_spec=spec, policy=policy, policy_id=int(pid),
                                policy_params=pp, rotate_seats=rotate, search=search)


def policy_arm(policy, params, *, field_policy=None, field_params=None, **kw):
    """One arm of ``compare(policies=[a, b])``: co-operative, so every seat plays the
    compared policy (the field is not used)."""
    return make_adapter(policy=policy, policy_params=params, **kw)


def trace_text(adapter: UntilDaylightAdapter, game: int) -> str:
    """Game ``game`` of a study, event by event (the very game the study played)."""
    npl, chars = adapter.configs(int(game), 1)
    p = int(npl[0])
    names = None if chars[0, 0] < 0 else [adapter.rules.character_names[int(c)]
                                           for c in chars[0, :p]]
    record, events = api.trace_game(seed=adapter.seed, players=p, characters=names,
                                    policy=adapter.policy,
                                    policy_params=adapter.policy_param_dict(),
                                    ruleset=adapter.rules, game=game)
    return format_trace(record, events, adapter.rules)
