"""Day Night Z studies: the generic runner's adapter (``simlib.simulate(game=...)`` plays it), tables and text.

A study crosses two axes, **team size** (``players``: 1-4 survivors, the scenario's
``team`` taken in order) and **start hour** (``start_hours``; on the command line
``--characters 8,14,20``, the game having no characters to choose: the team is the
scenario's), every cell played by one policy.  With ``C`` the cells in order (team sizes
outer, hours inner), game ``i`` of a study plays cell ``C[i % len(C)]`` on the deal of the
engine's game ``i // len(C)`` (:func:`simlib.games.day_night_z.play.play_games`): the
cells of one round of ``len(C)`` games share a deal (the same seed streams), so cells are
compared on common random numbers, and any number of games spreads evenly over them.

Records (one row a game, :func:`records_frame`): the engine's record
(``codes.RECORD_FIELDS``) with names for codes (``end_cause``, ``threat_level_final``),
``players`` for the team size, the study's game index in ``game``, ``hunter`` (what the
Hunter did: ``absent``, ``came`` without harm, ``wounded``, ``killed``) and, per turn ``k``
from 0 (the start) to ``PER_TURN``, the survivors alive (``alive_t<k>``) and the threat
(``threat_t<k>``, units 1-45) at the end of turn ``k``; a finished game keeps its final
values (a game of 24 turns fills turns 25 .. ``PER_TURN`` with its end).

Tables (``res.tables``): success (``overall``, ``by_players``, ``by_start_hour``,
``by_players_hour``, ``by_cell``), ``end_causes``, ``survivors_alive``, ``threat_levels``
and ``hunter`` (each by every grouping), ``by_length`` (games by team size and turns
played), and ``mean_<value>_by_cell`` for every summed value (VP, deaths by cause, threat
and its sources, SP, the Hunter's toll, the per-turn paths); :func:`cell_means` gives any
of them by team size, start hour or both, with 95 % intervals.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import pandas as pd

from ...core.runner import RunResult
from ...core.tables import Counts, TableSpec, count_records, format_tables, rate_matrix, run_label
from ...core.adapter import StudyAdapter
from . import codes as K
from .records import (ENGINE_FIELDS, HUNTER, PER_TURN, SUM_VALUES, TEAM, TURN_VALUES,  # noqa: F401  (the study's names)
                      records_frame)
from .ruleset import DEFAULT_HOURS, DEFAULT_RULESET, PRESETS, DayNightZRules, load_rules, parse_hours  # noqa: F401  (the study's names)

__all__ = ["make_adapter", "DayNightZAdapter", "TABLE_SPEC",
           "default_games", "render", "trace_text", "policy_arm", "records_frame", "cell_sums", "cell_means",
           "GAME", "load_rules", "DEFAULT_HOURS", "parse_hours", "GAMES_PER_CELL", "PER_TURN", "SUM_VALUES", "ENGINE_FIELDS"]

GAME = "day_night_z"
GAMES_PER_CELL = 2_000        # a cell's success rate within about +-2 points

TABLE_SPEC = TableSpec(
    groupings=(("overall", ()), ("players", ("players",)), ("start_hour", ("start_hour",)),
               ("players_hour", ("players", "start_hour")),
               ("cell", ("players", "start_hour", "team")),
               ("length", ("players", "turns"))),
    outcome="success",
    members=("team",),
    member="team",
    member_values=tuple((v, (v,)) for v in SUM_VALUES + TURN_VALUES),
    categories=(("end_cause", "end_causes"), ("alive", "survivors_alive"),
                ("threat_level_final", "threat_levels"), ("hunter", "hunter")),
    none_value="none",
    primary="players",
    round="turns",
)


# =========================================================================== the adapter
@dataclass(frozen=True, eq=False)
class DayNightZAdapter(StudyAdapter):
    """Everything that fixes the games of a study; picklable (sent to Dask workers)."""

    rules: DayNightZRules
    seed: int
    team_sizes: tuple[int, ...]
    start_hours: tuple[int, ...]
    policy: str = "baseline"
    params: tuple[tuple[str, float], ...] = ()
    game: str = GAME
    spec: TableSpec = field(default=TABLE_SPEC)

    @property
    def players(self) -> tuple[int, ...]:
        return self.team_sizes

    @property
    def cells(self) -> tuple[tuple[int, int], ...]:
        """(team size, start hour) of each cell, in the order games cycle through them."""
        return tuple((t, h) for t in self.team_sizes for h in self.start_hours)

    def configs(self, start: int, count: int):
        """Team size, start hour and the engine's deal of games ``start .. start+count-1``."""
        idx = np.arange(start, start + count, dtype=np.int64)
        cells = np.array(self.cells, dtype=np.int64).reshape(-1, 2)
        c = idx % len(cells)
        return cells[c, 0], cells[c, 1], idx // len(cells)

    def _params(self) -> dict:
        return dict(self.params)

    def play(self, start: int, count: int, threads: int | None = None):
        """``play_games``' output for games ``start .. start + count - 1`` (one call per
        cell: the cell's deals are consecutive), rows in the study's order."""
        from . import play

        ncell = len(self.cells)
        parts, where = [], []
        for c, (t, h) in enumerate(self.cells):
            first = start + (c - start) % ncell
            if first >= start + count:
                continue
            pos = np.arange(first, start + count, ncell) - start
            out = play.play_games(len(pos), ruleset=self.rules, seed=self.seed, start=first // ncell,
                                  team_size=t, start_hour=h, policy=self.policy,
                                  params=self._params() or None, threads=threads)
            parts.append(out)
            where.append(pos)
        order = np.concatenate(where)
        merged = {}
        for key in ("records", "threat_by_turn", "alive_by_turn"):
            arrays = [np.asarray(p[key]) for p in parts]
            width = max(a.shape[1] for a in arrays)
            full = np.full((count, width), -1, dtype=arrays[0].dtype)
            for a, pos in zip(arrays, where):
                full[pos, :a.shape[1]] = a
            merged[key] = full
        assert len(order) == count
        return merged

    # ------------------------------------------------------------------ adapter protocol
    def run_chunk(self, start: int, count: int, threads: int | None = None) -> pd.DataFrame:
        out = self.play(start, count, threads)
        return records_frame(out, np.arange(start, start + count, dtype=np.int64))

    def run_chunk_counts(self, start: int, count: int, threads: int | None = None) -> Counts:
        return self.aggregate(self.run_chunk(start, count, threads))

    def aggregate(self, records: pd.DataFrame) -> Counts:
        return count_records(records, self.spec)

    def outcomes(self, start: int, count: int, threads: int | None = None):
        """The instruments' view of games ``start .. start + count - 1``."""
        from .instruments import outcomes

        return outcomes(self.run_chunk(start, count, threads), self)

    def step_game(self, game: int):
        """Game ``game`` of this study in the step model: its cell's team and start hour (the
        ruleset's, overridden), its deal; its record is the study's row (the study's index)."""
        from .step import Game  # deferred: the step game imports the numba kernels

        t, h, deal = (int(x[0]) for x in self.configs(int(game), 1))
        g = Game(self.seed, deal, players=t, ruleset=at_hour(self.rules, h),
                 policy=(self.policy, self._params() or None))
        g.study_index = int(game)
        return g

    def identity(self) -> dict:
        return {"seed": int(self.seed), "ruleset_fingerprint": self.rules.fingerprint(),
                "players": [int(t) for t in self.team_sizes],
                "start_hours": [int(h) for h in self.start_hours],
                "policy": self.policy, "policy_params": {k: float(v) for k, v in self.params}}

    def provenance(self) -> dict:
        return {"game": self.game, **self.identity(), "ruleset_origin": self.rules.origin,
                "ruleset_lineage": getattr(self.rules, "lineage", self.rules.origin),
                "scenario": str(self.rules.get("scenario.name")),
                "turn_limit": int(self.rules.get("scenario.turn_limit")),
                "team": list(self.rules.get("scenario.team"))}


@lru_cache(maxsize=64)
def at_hour(rules: DayNightZRules, hour: int) -> DayNightZRules:
    """``rules`` with the adventure starting at ``hour`` (the start hour axis of a study)."""
    return rules if rules.get("scenario.start_hour") == hour else \
        rules.override({"scenario.start_hour": int(hour)})


def default_games(adapter: DayNightZAdapter) -> int:
    return GAMES_PER_CELL * len(adapter.cells)


def make_adapter(players=None, characters=None, *, seed: int = 0, policy: str = "baseline",
                 policy_params=None, ruleset=None, seats=None, start_hours=None) -> DayNightZAdapter:
    """Validate a study's parameters and build its adapter (raises ``ValueError``).

    ``players``: team sizes (default every size the scenario allows, 1-4); ``start_hours``
    (or ``characters``, as the command line passes them): hours 0-23 (default 8, 14 and
    20); ``policy``/``policy_params``: the team's player; ``ruleset``: ``None`` the
    reference ruleset, a preset, a folder or a tweak ``.toml``.
    """
    from .policies import POLICIES, require_available

    if seats is not None:
        raise ValueError("Day Night Z is cooperative: every seat plays the one policy "
                         "(seats are for competitive games)")
    rules = load_rules(ruleset)
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2 ** 63:
        raise ValueError(f"seed must be an integer from 0 to 2**63 - 1; got {seed!r}")
    lo, hi = int(rules.get("scenario.min_team")), int(rules.get("scenario.max_team"))
    hi = min(hi, len(rules.get("scenario.team")), K.MAX_SURV if hasattr(K, "MAX_SURV") else 4)
    if players is None:
        sizes = tuple(range(lo, hi + 1))
    else:
        seq = [players] if isinstance(players, (int, np.integer)) else list(players)
        if not seq:
            raise ValueError("players must name at least one team size")
        sizes = []
        for p in seq:
            if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or not lo <= p <= hi:
                raise ValueError(f"a team of {p!r} survivors: the scenario allows {lo}-{hi}")
            sizes.append(int(p))
        if len(set(sizes)) != len(sizes):
            raise ValueError(f"duplicate team size in {sizes}")
        sizes = tuple(sizes)
    if start_hours is not None and characters is not None:
        raise ValueError("give the start hours once (start_hours or characters)")
    hours = parse_hours(start_hours if start_hours is not None else characters)
    require_available(policy)
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r} for Day Night Z; allowed: "
                         f"{', '.join(POLICIES)}")
    spec = POLICIES[policy]
    given = dict(policy_params or {})
    bad = [k for k in given if k not in spec.param_names]
    if bad:
        raise ValueError(f"policy {policy!r} has no parameter {bad[0]!r}; its parameters: "
                         f"{', '.join(spec.param_names) or 'none'}")
    params = tuple((n, float(given.get(n, d))) for n, d in zip(spec.param_names, spec.defaults))
    from .policies import check_ruleset, param_array

    check_ruleset(policy, param_array(policy, dict(params)), rules)
    return DayNightZAdapter(rules=rules, seed=int(seed), team_sizes=sizes, start_hours=hours,
                            policy=policy, params=params)


def policy_arm(policy, params, *, field_policy=None, field_params=None, **kw):
    """One arm of ``compare(policies=[a, b])``: co-operative, so the whole team plays the
    compared policy (the field is not used)."""
    return make_adapter(policy=policy, policy_params=params, **kw)


# =========================================================================== derived tables
def cell_sums(counts: Counts) -> pd.DataFrame:
    """Per cell (team size, start hour): games, successes and ``<v>`` / ``<v>_sq`` (sum
    and sum of squares) of every summed value."""
    f = counts.frames["cell"]
    if len(f) == 0:
        return pd.DataFrame()
    f = f.droplevel("team")
    cols = {"games": f["games"], "successes": f["wins"]}
    zero = pd.Series(0, index=f.index, dtype=np.int64)
    for v in SUM_VALUES + TURN_VALUES:
        cols[v] = f.get(f"sum={v}", zero)
        cols[f"{v}_sq"] = f.get(f"sumsq={v}", zero)
    return pd.DataFrame(cols, index=f.index)


def cell_means(counts: Counts, values, by=("players", "start_hour"), confidence: float = 0.95
               ) -> pd.DataFrame:
    """Means a game of ``values`` by ``by`` (keys among players and start_hour; ``()``: the
    whole study), with ``<v>_low`` / ``<v>_high`` (normal 95 % interval of the mean, its
    lower end clipped at 0: every value summed is a count, never negative, and a normal
    interval of a mean near 0 would reach below it)."""
    from scipy.special import ndtri

    s = cell_sums(counts)
    if not len(s):
        return pd.DataFrame()
    by = list(by)
    g = s.groupby(level=by).sum() if by else s.sum().to_frame().T
    n = g["games"].astype(float)
    z = ndtri(0.5 + confidence / 2)
    cols = {"games": g["games"].astype(np.int64)}
    for v in values:
        m = g[v] / n
        var = ((g[f"{v}_sq"] - n * m * m) / (n - 1).clip(lower=1)).clip(lower=0)
        half = z * np.sqrt(var / n)
        cols[v], cols[f"{v}_low"], cols[f"{v}_high"] = m, (m - half).clip(lower=0), m + half
    return pd.DataFrame(cols, index=g.index)


def hour_label(h) -> str:
    """A start hour as every table writes it: ``08:00``."""
    return f"{int(h):02d}:00"


def hour_labels(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with its ``start_hour`` index level written as ``08:00`` (one format in every
    table); a frame without that level is returned as it is."""
    if "start_hour" not in (df.index.names or []):
        return df
    if df.index.nlevels == 1:
        return df.set_axis(pd.Index([hour_label(h) for h in df.index], name="start_hour"))
    level = df.index.names.index("start_hour")
    return df.set_axis(df.index.set_levels(
        [hour_label(h) for h in df.index.levels[level]], level=level))


def ci_text(df: pd.DataFrame, values, digits: int = 2) -> pd.DataFrame:
    out = {"games": df["games"]}
    for v in values:
        out[v] = [f"{m:.{digits}f} [{a:.{digits}f}, {b:.{digits}f}]"
                  for m, a, b in zip(df[v], df[f"{v}_low"], df[f"{v}_high"])]
    return pd.DataFrame(out, index=df.index)


def mean_matrix(counts: Counts, value: str, digits: int = 2) -> pd.DataFrame:
    """``value``'s mean [95 % interval] by team size (rows) and start hour (columns)."""
    m = cell_means(counts, [value])
    if not len(m):
        return pd.DataFrame()
    cells = pd.Series([f"{a:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]" for a, lo, hi in
                       zip(m[value], m[f"{value}_low"], m[f"{value}_high"])], index=m.index)
    return cells.unstack("start_hour").rename(columns=hour_label)


THREAT_SOURCES = ("threat_from_noise", "threat_from_leaving", "threat_from_clock",
                  "threat_from_cards", "threat_lowered_by_sp")
DEATHS = ("dead_damage", "dead_infection", "dead_hunger")
HUNTER_VALUES = ("hunter_spawns", "hunter_damage", "hunter_kills")
SP_VALUES = ("sp_on_rolls", "sp_on_threat")


def turn_paths(counts: Counts, by=("players",), last: int = PER_TURN) -> pd.DataFrame:
    """Mean survivors alive and threat after each turn 0 .. ``last`` (a finished game keeps
    its final values), long format: keys, ``turn``, ``alive``, ``threat`` with intervals."""
    last = max(0, min(int(last), PER_TURN))
    vals = [f"alive_t{k}" for k in range(last + 1)] + [f"threat_t{k}" for k in range(last + 1)]
    m = cell_means(counts, vals, by)
    if not len(m):
        return pd.DataFrame()
    rows = []
    for key, r in m.iterrows():
        key = key if isinstance(key, tuple) else (key,)
        for k in range(last + 1):
            row = dict(zip(by, key))
            row.update(turn=k, games=int(r["games"]))
            for name in ("alive", "threat"):
                v = f"{name}_t{k}"
                row[name], row[f"{name}_low"], row[f"{name}_high"] = r[v], r[f"{v}_low"], r[f"{v}_high"]
            rows.append(row)
    return pd.DataFrame(rows)


# =========================================================================== text
def _hour_cols(m: pd.DataFrame) -> pd.DataFrame:
    return m.rename(columns=lambda h: f"{int(h):02d}:00" if str(h).isdigit() else h)


def render(result: RunResult, all_tables: bool = False) -> str:
    """The text ``simlib simulate --game day-night-z`` and ``simlib report`` print."""
    p = result.provenance
    t = result.tables
    c = result.counts
    hours = ", ".join(f"{int(h):02d}:00" for h in p.get("start_hours", []))
    head = (f"Day Night Z ({p.get('scenario', 'supply_run')}): {result.games} games, seed "
            f"{p.get('seed')}, teams of {', '.join(map(str, p.get('players', [])))}, start "
            f"{hours}, policy {p.get('policy')}, {run_label(p)}")
    note = ("Note: results of computer players, not of people; the map is abstracted (see the "
            "docs); success = the searches done and every living survivor at an exit within "
            f"{p.get('turn_limit', 24)} turns; 95 % intervals (Wilson for rates, normal for "
            "means, clipped at 0: every mean is of a count); cells of one round of games share "
            "a deal.")
    parts = [head, note]
    if all_tables:
        parts.append(format_tables(t, [n for n in t if not any(
            n.startswith(f"mean_{x}_t") for x in ("alive", "threat"))], max_rows=10_000))
        return "\n\n".join(parts) + "\n"
    parts.append(format_tables(t, ["overall", "by_players"]))
    if len(t["by_players_hour"]):
        m = _hour_cols(rate_matrix(t["by_players_hour"], "players", "start_hour"))
        parts.append("== success % by team size (rows) and start hour (columns) [95% CI] ==\n"
                     + m.to_string())
        parts.append("== victory points a game by team size and start hour (mean [95% CI]; "
                     "0 on a failure) ==\n" + mean_matrix(c, "vp").to_string())
        parts.append("== survivors alive at the end by team size and start hour (mean [95% "
                     "CI]) ==\n" + mean_matrix(c, "alive").to_string())
    parts.append(format_tables(t, ["end_causes_by_players"], max_rows=40))
    if len(cell_sums(c)):
        parts.append("== deaths a game by cause and team size (mean [95% CI]; hunger: at "
                     "15:00's meal) ==\n" + ci_text(cell_means(c, DEATHS, ["players"]), DEATHS).to_string())
        parts.append("== threat a game by team size: final units (1-45) and where it came from "
                     "(units raised by noise, by leaving enemies behind, by the clock, by threat "
                     "cards; units lowered by SP) ==\n"
                     + ci_text(cell_means(c, ("threat_final",) + THREAT_SOURCES, ["players"]),
                                ("threat_final",) + THREAT_SOURCES).to_string())
        parts.append(format_tables(t, ["threat_levels_by_players"], max_rows=40))
        parts.append("== the Hunter's toll a game by team size and start hour (times he came, "
                     "damage he dealt, survivors he killed) ==\n"
                     + hour_labels(ci_text(cell_means(c, HUNTER_VALUES), HUNTER_VALUES)).to_string())
        parts.append(format_tables(t, ["hunter_by_players"], max_rows=40))
        parts.append("== survival points a game by team size: spent on rolls against spent on "
                     "the threat track (mean [95% CI]) ==\n"
                     + ci_text(cell_means(c, SP_VALUES + ("kills", "searches_done", "turns", "decisions"),
                                           ["players"]),
                                SP_VALUES + ("kills", "searches_done", "turns", "decisions")).to_string())
    return "\n\n".join(parts) + "\n"


def trace_text(adapter: DayNightZAdapter, game: int) -> str:
    """Game ``game`` of the study, decision by decision (see :mod:`.trace`)."""
    from .trace import trace_game

    return trace_game(adapter, game)

