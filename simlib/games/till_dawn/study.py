"""Till Dawn studies: the generic runner's adapter (``simlib.simulate(game=...)`` plays it), tables and their text.

Game ``i`` of a study is fixed by ``i`` and the study's parameters only:

* the table: with ``T`` the tables given (each a list of seats; default: one table per
  player count with every seat playing ``policy``), ``T[i % len(T)]``; its seats are
  rotated by ``(i // len(T)) % players`` so that every strategy plays every seat equally
  often over whole cycles (seat 0 draws first);
* the characters: a random team per game (distinct, in random seat order, drawn inside
  the kernel from game ``i``'s stream) or the team given (which keeps its seats);
* the cards and the players' own randomness: streams of game ``i``'s key.

Tables (``res.tables``): ``overall`` and ``by_players`` (games with a shared victory:
``ties``, ``tie_rate``), ``by_seat`` (players x seat), ``by_character``, ``by_strategy``,
``by_strategy_table`` (a strategy's win rate at each table, the table named by its
strategies sorted: heads-up tables give strategy against strategy), ``mean_points_by_*``
(coffin points) and ``end_causes`` (games ended by running out of tokens).  A seat "wins"
when it has the most coffin points; tied seats share the victory and each counts a win.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...core.runner import RunResult
from ...core.effects import pointer
from ...core.tables import TableSpec, format_tables, rate_matrix, run_label
from ...core.adapter import RotatingTables, whole_cycles
from ...core.seats import check_seed, focal_arm, study_tables, table_seats
from . import api
from . import codes as K
from .instruments import outcomes
from .policies import POLICIES, Seat, check_seats_ruleset
from .ruleset import load_ruleset
from .step import Game

__all__ = ["make_adapter", "TillDawnAdapter", "TABLE_SPEC",
           "default_games", "render", "GAMES_PER_TABLE", "GAME"]

GAME = "till_dawn"
GAMES_PER_TABLE = 20_000  # per table (player count): seat win rates within about +-0.7 points

_SEATS = tuple(range(K.MAX_SEATS))
TABLE_SPEC = TableSpec(
    groupings=(("overall", ()), ("players", ("players",)), ("seat", ("players", "seat")),
               ("character", ("character",)), ("strategy", ("strategy",)),
               ("strategy_table", ("table", "strategy"))),
    outcome="tie",
    outcome_label="tie",
    members=tuple(f"character_{s}" for s in _SEATS),
    member="character",
    member_attrs=(("seat", ()), ("strategy", tuple(f"strategy_{s}" for s in _SEATS))),
    member_outcomes=tuple(f"win_{s}" for s in _SEATS),
    member_values=(("points", tuple(f"score_{s}" for s in _SEATS)),),
    categories=(("end_cause", "end_causes"),),
    none_value="none",
)

@dataclass(frozen=True, eq=False)
class TillDawnAdapter(RotatingTables):
    """Everything that fixes the games of a study; picklable (sent to Dask workers)."""

    team: tuple[str, ...] | None  # None: a random team per game
    game: str = GAME
    spec: TableSpec = field(default=TABLE_SPEC)

    def configs(self, start: int, count: int):
        """Players (count,), characters (count, MAX_SEATS), seat policies, seat parameters
        and seat labels of games ``start .. start + count - 1``."""
        npl, pol, par, labels = table_seats(self.tables, start, count, POLICIES,
                                            seats=K.MAX_SEATS, n_params=3)
        chars = np.full((count, K.MAX_SEATS), -1, dtype=np.int64)
        if self.team is not None:
            chars[:] = api.team_codes(self.team, len(self.team), self.rules)
        return npl, chars, pol, par, labels

    def game_setup(self, game: int):
        """Players, the characters row (-1: drawn in the kernel) and the seats of game ``game``."""
        seats = list(self.seats_of(game))
        return len(seats), api.team_codes(self.team, len(seats), self.rules), seats

    def _play(self, start: int, count: int, threads: int | None):
        npl, chars, pol, par, labels = self.configs(start, count)
        seats = [s for t in self.tables for s in t]
        out = api.run_kernel(self.rules, self.seed, start, npl, chars, pol, par,
                             api.work_size(self.rules, seats), threads)
        return out, labels

    # ------------------------------------------------------------------ adapter protocol
    def run_chunk(self, start: int, count: int, threads: int | None = None) -> pd.DataFrame:
        out, labels = self._play(start, count, threads)
        return api.records_frame(out, self.rules, labels, strings=True)

    def outcomes(self, start: int, count: int, threads: int | None = None):
        """The instruments' view of games ``start .. start + count - 1``."""
        return outcomes(self.run_chunk(start, count, threads), self)

    def step_game(self, game: int) -> Game:
        """Game ``game`` of this study in the step model, with the study's seats."""
        p, chars, seats = self.game_setup(game)
        if chars[0] >= 0:  # the study's team, as the seats' characters
            seats = [{"player": s, "character": self.rules.character_names[c]}
                     for s, c in zip(seats, chars)]
        return Game(self.seed, int(game), players=p, seats=seats, ruleset=self.rules)

    def identity_extra(self) -> dict:
        return {"team": None if self.team is None else list(self.team)}

    def provenance_extra(self) -> dict:
        return {"characters": list(self.rules.character_names)}


def default_games(adapter: TillDawnAdapter) -> int:
    return whole_cycles(GAMES_PER_TABLE * len(adapter.tables), adapter.cycle())


def make_adapter(players=None, characters=None, *, seed: int = 0, policy: str = "threshold",
                 policy_params=None, ruleset=None, seats=None) -> TillDawnAdapter:
    """Validate a study's parameters and build its adapter (raises ``ValueError``).

    ``seats``: a table (list of seat specs, one per seat) or a list of tables; default:
    every seat plays ``policy`` with ``policy_params``, one table per player count
    (``players``, default 3-8 within the ruleset's bounds).  ``characters``: ``None`` /
    ``"random"`` or a team (list of names, one per seat).
    """
    rules = load_ruleset(ruleset)
    check_seed(seed)
    default = [p for p in range(3, 9) if rules.min_players() <= p <= rules.max_players()] \
        or [rules.min_players()]
    team = None
    if characters is not None and not (isinstance(characters, str) and characters == "random"):
        if isinstance(characters, str):
            raise ValueError(f"characters must be 'random' or a team (list of names); got "
                             f"{characters!r} (Till Dawn enumerates no teams)")
        team = tuple(characters)
        if not all(isinstance(c, str) for c in team):
            raise ValueError(f"a team is a list of character names; got {characters!r}")
        # a team names every seat: its names first (an unknown one is the error to report),
        # then its size, which is the table's
        if len(team) <= K.MAX_SEATS:
            api.team_codes(list(team), len(team), rules)
        if not rules.min_players() <= len(team) <= rules.max_players():
            raise ValueError(f"a team names one character a seat, {rules.min_players()} to "
                             f"{rules.max_players()} of them; got {len(team)} ({', '.join(team)})")
        if players is None and seats is None:
            players = len(team)
    tables = study_tables(players, seats, policy, policy_params, seat_type=Seat,
                          check_players=lambda p: api.check_players(p, rules),
                          default_counts=default)
    check_seats_ruleset([s for t in tables for s in t], rules)
    if team is not None:
        sizes = {len(t) for t in tables}
        if sizes != {len(team)}:
            raise ValueError(f"team {'+'.join(team)} has {len(team)} characters, but the tables "
                             f"have {', '.join(map(str, sorted(sizes)))} seats")
    return TillDawnAdapter(rules=rules, seed=int(seed), tables=tuple(tables), team=team)


# =========================================================================== text
def render(result: RunResult, all_tables: bool = False) -> str:
    """The text ``simlib simulate --game till-dawn`` and ``simlib report`` print."""
    p = result.provenance
    t = result.tables
    head = (f"Till Dawn: {result.games} games, seed {p.get('seed')}, tables "
            f"{'; '.join(p.get('table_labels', []))}, characters "
            f"{'random' if not p.get('team') else '+'.join(p['team'])}, {run_label(p)}")
    note = ("Note: win rates of bots, not of human players; a seat wins with the most coffin "
            "points, tied seats share the victory (each counts a win); 95 % intervals "
            "(Wilson for rates, normal for mean points).")
    parts = [head, note]
    if all_tables:
        parts.append(format_tables(t, max_rows=10_000))
        return "\n\n".join(parts) + "\n"
    parts.append(format_tables(t, ["overall", "by_players"]))
    if len(t.by_players) > 1 or len(t.by_seat) > 1:
        m = rate_matrix(t.by_seat, "seat", "players")
        parts.append("== win % by seat (rows) and players (columns) [95% CI] ==\n" + m.to_string())
    parts.append(format_tables(t, ["by_character", "by_strategy"]))
    if len(t.by_strategy) > 1:
        parts.append(format_tables(t, ["by_strategy_table"], max_rows=40))
    parts.append(format_tables(t, ["mean_points_by_strategy", "mean_points_by_character"]))
    if len(t.end_causes):
        parts.append(format_tables(t, ["end_causes"]))
    parts.append(pointer("competitive"))
    return "\n\n".join(parts) + "\n"


def trace_text(adapter: TillDawnAdapter, game: int) -> str:
    """Game ``game`` of the study, action by action (from the kernel's trace log)."""
    from .trace import format_trace

    p, chars, seats = adapter.game_setup(game)
    rec, log, _ = api.trace_game(adapter.seed, game, p, seats, chars, adapter.rules)
    return format_trace(rec, log, adapter.rules, [s.label for s in seats])


def policy_arm(policy, params, *, field_policy, field_params, **kw):
    """The focal seat (table seat 0) plays ``policy``; every other seat ``field_policy``."""
    return focal_arm(make_adapter, Seat, policy, params, field_policy=field_policy,
                     field_params=field_params, **kw)
