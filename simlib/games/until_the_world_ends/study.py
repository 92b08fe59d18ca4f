"""Until the World Ends studies: the generic runner's adapter (``simlib.simulate(game=...)`` plays it), tables and text.

Game ``i`` of a study is fixed by ``i`` and the study's parameters only: with ``T`` the
tables given (each a list of seats; default one table per player count, every seat playing
``policy``), game ``i`` plays ``T[i % len(T)]`` with its seats rotated by
``(i // len(T)) % players`` (every strategy plays every seat equally often over whole
cycles; seat 0 deals the first round, seat 1 plays first); the cards and the players' own
randomness are streams of game ``i``'s key.

Tables (``res.tables``): ``overall`` and ``by_players`` (shared victories: ``ties``,
``tie_rate``), ``by_seat`` (players x seat: the seat's distance from the first dealer),
``by_strategy``, ``by_strategy_table``, ``length_by_players`` (games by player count and
rounds played), ``mean_points_by_*`` (final totals), ``mean_rounds_won_by_*``,
``mean_ended_by_*``, ``mean_challenged_by_*``, ``mean_hoarded_by_*`` (per player and game)
and ``end_causes``.  A seat wins with the highest total; tied seats share the victory and
each counts a win.

Game-level sums (turns, how rounds ended, the ender's gain, points by card kind,
instantaneous cards resolved) ride in the counts as per-seat values that are the game's
value on seat 0 and 0 elsewhere (``game_<x>_<s>``, made by ``api.records_frame``): their sums per
player count are seat 0's row of the ``seat`` counts, so runs that keep no records still
have them.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...core.runner import RunResult, result_from_output
from ...core.tables import Counts, TableSpec, pct, format_tables, rate_matrix, run_label
from ...core.adapter import RotatingTables, whole_cycles
from ...core.seats import check_seed, focal_arm, study_tables, table_seats
from . import api
from . import codes as K
from .instruments import outcomes as _outcomes
from .policies import POLICIES, Seat, check_seats_ruleset
from .ruleset import UntilTheWorldEndsRules, load_ruleset
from .step import Game

__all__ = ["load_result", "make_adapter", "UntilTheWorldEndsAdapter", "TABLE_SPEC",
           "default_games", "render", "GAMES_PER_TABLE", "GAME", "GAME_VALUES", "trace_text", "policy_arm"]

GAME = "until_the_world_ends"
GAMES_PER_TABLE = 4_000  # per table: seat win shares within about +-1.5 points
DEFAULT_PLAYERS = (2, 3, 4, 5, 6)

GAME_VALUES = api.GAME_VALUES


@functools.lru_cache(maxsize=None)
def table_spec(seats: int = K.RECORD_SEATS) -> TableSpec:
    """How records with ``seats`` seat columns are counted (``codes.record_seats``: 8 for
    tables of up to 8 players, the players above that)."""
    seat_ids = tuple(range(int(seats)))
    return TableSpec(
        groupings=(("overall", ()), ("players", ("players",)), ("seat", ("players", "seat")),
                   ("strategy", ("strategy",)), ("strategy_table", ("table", "strategy")),
                   ("length", ("players", "rounds"))),
        outcome="tie",
        outcome_label="tie",
        members=tuple(f"strategy_{s}" for s in seat_ids),
        member="strategy",
        # the member is the seat's strategy already; naming it as the "strategy" attribute too
        # is what the competitive instruments (skill's focal seat, strategy effects) read
        member_attrs=(("seat", ()), ("strategy", tuple(f"strategy_{s}" for s in seat_ids))),
        member_outcomes=tuple(f"win_{s}" for s in seat_ids),
        member_values=(("points", tuple(f"total_{s}" for s in seat_ids)),
                       ("rounds_won", tuple(f"rounds_won_{s}" for s in seat_ids)),
                       ("ended", tuple(f"ended_{s}" for s in seat_ids)),
                       ("challenged", tuple(f"challenged_{s}" for s in seat_ids)),
                       ("hoarded", tuple(f"hoarded_{s}" for s in seat_ids)))
        + tuple((f"game_{v}", tuple(f"game_{v}_{s}" for s in seat_ids)) for v in GAME_VALUES),
        categories=(("end_cause", "end_causes"),),
        none_value="target",
        primary="players",
        round="rounds",
    )


TABLE_SPEC = table_spec(K.RECORD_SEATS)  # every study of tables of up to 8 players

@dataclass(frozen=True, eq=False)
class UntilTheWorldEndsAdapter(RotatingTables):
    """Everything that fixes the games of a study; picklable (sent to Dask workers)."""

    game: str = GAME
    spec: TableSpec = field(default=TABLE_SPEC)

    @property
    def seats(self) -> int:
        """The records' seat columns (``codes.record_seats`` of the largest table)."""
        return K.record_seats(max(len(t) for t in self.tables))

    def configs(self, start: int, count: int):
        """Players (count,), seat policies, seat parameters and labels of games
        ``start .. start + count - 1``."""
        # the kernels' seat columns: the largest table; the records': ``self.seats``
        most = max(len(t) for t in self.tables)
        npl, pol, par, labels = table_seats(self.tables, start, count, POLICIES, seats=most,
                                            n_params=Seat.n_params, label_seats=self.seats)
        return npl, pol, par, labels

    def game_setup(self, game: int):
        seats = list(self.seats_of(game))
        return len(seats), seats

    # ------------------------------------------------------------------ adapter protocol
    def run_chunk(self, start: int, count: int, threads: int | None = None) -> pd.DataFrame:
        npl, pol, par, labels = self.configs(start, count)
        out = api.run_kernel(self.rules, self.seed, start, npl, pol, par, threads)
        return api.records_frame(out, self.rules, labels)

    def outcomes(self, start: int, count: int, threads: int | None = None):
        """The instruments' view of games ``start .. start + count - 1``."""
        return _outcomes(self.run_chunk(start, count, threads), self)

    def step_game(self, game: int) -> Game:
        """Game ``game`` of this study in the step model, with the study's seats."""
        p, seats = self.game_setup(game)
        return Game(self.seed, int(game), players=p, seats=seats, ruleset=self.rules)

    def provenance_extra(self) -> dict:
        return {"target": int(self.rules.get("constants.target"))}


def default_games(adapter: UntilTheWorldEndsAdapter) -> int:
    return whole_cycles(GAMES_PER_TABLE * len(adapter.tables), adapter.cycle())


def make_adapter(players=None, characters=None, *, seed: int = 0, policy: str = "greedy",
                 policy_params=None, ruleset=None, seats=None) -> UntilTheWorldEndsAdapter:
    """Validate a study's parameters and build its adapter (raises ``ValueError``).

    ``seats``: a table (list of seat specs, one per seat) or a list of tables; default:
    every seat plays ``policy`` with ``policy_params``, one table per player count
    (``players``, default 2-6).  ``characters``: the game has none (``None``/``"random"``).
    ``ruleset``: ``None`` the reference ruleset, a folder or an override ``.toml``.
    """
    rules = ruleset if isinstance(ruleset, UntilTheWorldEndsRules) else load_ruleset(ruleset)
    check_seed(seed)
    if characters is not None and characters != "random":
        raise ValueError(f"Until the World Ends has no characters; got {characters!r}")
    default = [p for p in DEFAULT_PLAYERS if rules.min_players() <= p <= rules.max_players()] \
        or [rules.min_players()]
    tables = study_tables(players, seats, policy, policy_params, seat_type=Seat,
                          check_players=lambda p: api.check_players(p, rules),
                          default_counts=default)
    check_seats_ruleset([s for t in tables for s in t], rules)
    most = max(len(t) for t in tables)
    return UntilTheWorldEndsAdapter(rules=rules, seed=int(seed), tables=tuple(tables),
                                    spec=table_spec(K.record_seats(most)))


def load_result(path) -> RunResult:
    """A saved study, counted with the seat columns of its largest table."""
    from ...core.runner import read_output

    players = read_output(path)[2].get("provenance", {}).get("players") or [K.RECORD_SEATS]
    return result_from_output(path, table_spec(K.record_seats(max(players))))


# =========================================================================== derived tables
def game_sums(counts: Counts) -> pd.DataFrame:
    """Per player count: games and the sums of every game-level value (seat 0's row)."""
    f = counts.frames["seat"]
    if len(f) == 0:
        return pd.DataFrame()
    f = f.xs(0, level="seat")
    out = pd.DataFrame({"games": f["games"]}, index=f.index)
    for v in GAME_VALUES:
        out[v] = f.get(f"sum=game_{v}", 0)
        out[f"{v}_sq"] = f.get(f"sumsq=game_{v}", 0)
    return out


def _mean_ci(s, sq, n):
    from scipy.special import ndtri

    mean = s / n
    var = (sq - n * mean * mean) / max(n - 1, 1)
    half = ndtri(0.975) * np.sqrt(max(var, 0.0) / n)
    return f"{mean:7.2f} [{mean - half:.2f}, {mean + half:.2f}]"


def length_table(counts: Counts) -> pd.DataFrame:
    """Rounds and turns per game, turns per round, by player count (95 % intervals)."""
    g = game_sums(counts)
    rows = {}
    for p, r in g.iterrows():
        n = r["games"]
        rows[p] = {"games": int(n), "rounds/game": _mean_ci(r["rounds"], r["rounds_sq"], n),
                   "turns/game": _mean_ci(r["turns"], r["turns_sq"], n),
                   "turns/round": f"{r['turns'] / max(r['rounds'], 1):7.2f}",
                   "decisions/game": f"{r['decisions'] / n:7.1f}"}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("players")


def rounds_table(counts: Counts) -> pd.DataFrame:
    """How rounds end (shares of rounds), challenges, hoards, redeals, the ender's round."""
    g = game_sums(counts)
    rows = {}
    for p, r in g.iterrows():
        rounds = max(r["rounds"], 1)
        played = r["ends_ending"] + r["challenges"]
        rows[p] = {"rounds": int(r["rounds"]),
                   "ending %": pct(r['ends_ending'] / rounds),
                   "hoard %": pct(r['ends_hoard'] / rounds),
                   "exhausted %": pct(r['ends_exhausted'] / rounds),
                   "turn cap %": pct(r['ends_cap'] / rounds),
                   "challenged %": pct(r['challenges'] / max(played, 1)),
                   "ender tops %": pct(r['ender_top'] / max(r['ends_ending'], 1)),
                   "ender gain": f"{r['ender_gain'] / max(r['ends_ending'], 1):+6.2f}",
                   "redeals/game": f"{r['redeals'] / r['games']:5.2f}"}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("players")


def card_table(counts: Counts, rules: UntilTheWorldEndsRules | None = None) -> pd.DataFrame:
    """Points per player and round by card kind (events' printed points, what escalations
    add, good things, ending modifiers), and cards played per game by kind."""
    g = game_sums(counts)
    rows = {}
    for p, r in g.iterrows():
        pr = max(r["player_rounds"], 1)
        row = {"events": f"{r['pts_events'] / pr:6.2f}", "escalations": f"{r['pts_escalation'] / pr:+6.2f}",
               "good things": f"{r['pts_good'] / pr:+6.2f}", "endings": f"{r['pts_ending'] / pr:+6.2f}",
               "round score": f"{(r['pts_events'] + r['pts_escalation'] + r['pts_good'] + r['pts_ending']) / pr:6.2f}"}
        rows[p] = row
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("players")


def plays_table(counts: Counts) -> pd.DataFrame:
    """Cards played from hand per game by kind, and instantaneous effects resolved (played
    or drawn) per game."""
    g = game_sums(counts)
    rows = {}
    for p, r in g.iterrows():
        rows[p] = {k: f"{r[f'plays_{k}'] / r['games']:6.2f}" for k in K.PLAY_NAMES}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("players")


# =========================================================================== text
def render(result: RunResult, all_tables: bool = False) -> str:
    """The text ``simlib simulate --game until-the-world-ends`` and ``simlib report`` print."""
    p = result.provenance
    t = result.tables
    head = (f"Until the World Ends: {result.games} games, seed {p.get('seed')}, target "
            f"{p.get('target')}, tables {'; '.join(p.get('table_labels', []))}, {run_label(p)}")
    note = ("Note: results of computer players, not of people; a seat wins with the highest total "
            "once a total reaches the target, tied seats share the victory (each counts a win); "
            "seat 0 deals the first round, seat 1 plays first; 95 % intervals (Wilson for rates, "
            "normal for means).")
    parts = [head, note]
    if all_tables:
        parts.append(format_tables(t, [n for n in t if "game_" not in n], max_rows=10_000))
    else:
        parts.append(format_tables(t, ["overall", "by_players"]))
        if len(t.by_seat):
            m = rate_matrix(t.by_seat, "seat", "players")
            parts.append("== win % by seat (rows; distance from the first dealer) and players "
                         "(columns) [95% CI] ==\n" + m.to_string())
        parts.append(format_tables(t, ["by_strategy"]))
        if len(t.by_strategy) > 1:
            parts.append(format_tables(t, ["by_strategy_table"], max_rows=40))
        parts.append(format_tables(t, ["mean_points_by_strategy", "mean_rounds_won_by_strategy"]))
    c = result.counts
    if len(game_sums(c)):
        parts.append("== game length by players (mean [95% CI]) ==\n" + length_table(c).to_string())
        parts.append("== how rounds end, by players (shares of rounds; challenged: of endings "
                     "played; ender tops: the ender's round score is the highest; ender gain: his "
                     "round score minus the best rival's) ==\n" + rounds_table(c).to_string())
        parts.append("== points per player and round by card kind (events at face value; what "
                     "escalations, good things and ending modifiers add) ==\n" + card_table(c).to_string())
        parts.append("== cards played from hand per game by kind; instantaneous effects resolved "
                     "per game (played or drawn) ==\n" + plays_table(c).to_string())
    parts.append(format_tables(t, ["mean_hoarded_by_strategy", "mean_challenged_by_strategy",
                                   "mean_ended_by_strategy"]))
    if len(t.end_causes):
        parts.append(format_tables(t, ["end_causes"]))
    return "\n\n".join(parts) + "\n"


def trace_text(adapter: UntilTheWorldEndsAdapter, game: int) -> str:
    """Game ``game`` of the study, action by action (from the kernel's trace log)."""
    from .trace import format_trace

    p, seats = adapter.game_setup(game)
    rec, log, _ = api.trace_game(adapter.seed, game, p, seats, adapter.rules)
    return format_trace(rec, log, adapter.rules, [s.label for s in seats])


def policy_arm(policy, params, *, field_policy, field_params, **kw):
    """The focal seat (table seat 0) plays ``policy``; every other seat ``field_policy``."""
    return focal_arm(make_adapter, Seat, policy, params, field_policy=field_policy,
                     field_params=field_params, **kw)
