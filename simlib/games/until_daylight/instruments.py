"""The designer's instruments for Until Daylight: compare, sweep, calibrate, sensitivity,
and precision-driven studies.

Every instrument plays games through the same batch kernel as :func:`simulate`, with the
same rule for game ``i`` (players, team, randomness: a pure function of the root seed and
``i``), so two variants played on one seed share their card order, dice and timer draws
(common random numbers).  The statistics are game-agnostic and live in
:mod:`simlib.core.paired`, :mod:`simlib.core.sequential` and :mod:`simlib.core.calibrate`.

>>> import simlib
>>> c = simlib.compare(20_000, players=4, sets={"horde.survivor.count": 200})
>>> c.by_players[["rate_a", "rate_b", "diff", "diff_low", "diff_high"]]
>>> s = simlib.sweep({"horde.survivor.count": range(100, 260, 40)}, 5000, players=4)
>>> k = simlib.calibrate("horde.survivor.count", 0.30, players=4, lo=100, hi=300)
>>> m = simlib.sensitivity(games=500)          # Morris over every assumed number

A *parameter* is a dotted ruleset key holding an integer (``horde.monster.count``,
``constants.search_timer.per_player``) or ``policy.<name>`` for a (real) policy parameter
(``policy.draw_score``).
"""
from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from ...core.calibrate import Calibration, CalibrationError, calibrate_integer, calibrate_real
from ...core.paired import paired_counts, paired_summary
from ...core.runner import (DEFAULT_CHUNK_SIZE, FORMAT, RECORD_LIMIT, RunError, RunResult,
                           _progress_bar, _show_progress, _write_parquet)
from ...core.sequential import beta_binomial_cs
from ...core.stats import rate_columns
from ...core.tables import Counts
from . import codes as K
from .policies import POLICIES, policy_names
from .ruleset import Ruleset, RulesetError, _field_for_key
from .study import GAME, UntilDaylightAdapter, make_adapter

__all__ = ["Param", "resolve_param", "parse_value", "parse_range", "compare", "sweep",
           "calibrate", "sensitivity", "simulate_precise", "CompareResult", "SweepResult",
           "CalibrationResult", "SensitivityResult", "assumed_params", "write_frame",
           "InstrumentError"]

POLICY_PREFIX = "policy."
DUMMY = "dummy.seed"
CAUSES = ("character_died", "no_survivor_saved", "stalemate")


class InstrumentError(ValueError):
    """Bad input to an instrument (one line naming the key, the value and what is allowed)."""


# =========================================================================== parameters
@dataclass(frozen=True)
class Param:
    """A number an instrument may vary: an integer ruleset value or a real policy parameter."""

    key: str
    kind: str            # "rules" or "policy"
    value: float         # current value
    minimum: float | None
    integer: bool

    def check(self, v) -> None:
        if self.minimum is not None and v < self.minimum:
            raise InstrumentError(f"{self.key} = {v}: outside the allowed range (must be >= "
                                  f"{self.minimum:g})")


def resolve_param(key: str, rules: Ruleset, policy: str = "baseline") -> Param:
    """Describe a parameter (raises :class:`InstrumentError` for unknown or non-numeric keys)."""
    if key.startswith(POLICY_PREFIX):
        name = key[len(POLICY_PREFIX):]
        spec = POLICIES[policy]
        if name not in spec.param_names:
            raise InstrumentError(f"unknown key {key!r}: policy {policy!r} has parameters "
                                  f"{', '.join(POLICY_PREFIX + n for n in spec.param_names) or '(none)'}")
        return Param(key, "policy", float(spec.defaults[spec.param_names.index(name)]), None, False)
    try:
        value = rules.get(key)
    except RulesetError as exc:
        raise InstrumentError(str(exc).replace("override: ", "", 1)) from None
    fld = _field_for_key(key if not key.startswith("constants.variants.") else key[10:])
    if fld is None or fld.type != "int" or isinstance(value, bool):
        raise InstrumentError(f"{key} is not a number (it holds {value!r}); instruments vary "
                              "integer ruleset values or policy.<parameter>")
    return Param(key, "rules", int(value), fld.min, True)


def parse_value(text: str, param: Param):
    """A number from the command line for ``param`` (int for ruleset values)."""
    t = str(text).strip()
    try:
        v = float(t)
    except ValueError:
        raise InstrumentError(f"{param.key}: {t!r} is not a number") from None
    if not math.isfinite(v):
        raise InstrumentError(f"{param.key}: {t!r} is not a finite number")
    if param.integer:
        if v != int(v):
            raise InstrumentError(f"{param.key}: {t!r} is not an integer (it counts something)")
        v = int(v)
    param.check(v)
    return v


def parse_range(text: str, param: Param) -> list:
    """``lo:hi:step`` (``hi`` included when the steps land on it) or a list ``a,b,c``."""
    t = str(text).strip()
    if ":" not in t:
        vals = [parse_value(x, param) for x in t.split(",") if x.strip()]
        if not vals:
            raise InstrumentError(f"{param.key}: empty range {t!r}")
        return vals
    parts = t.split(":")
    if len(parts) not in (2, 3):
        raise InstrumentError(f"{param.key}: range {t!r} is not lo:hi or lo:hi:step")
    lo, hi = parse_value(parts[0], param), parse_value(parts[1], param)
    if len(parts) == 3:
        step = parse_value(parts[2], Param(param.key, param.kind, 1, None, param.integer))
    else:
        step = 1 if param.integer else (hi - lo) / 4
    if step <= 0:
        raise InstrumentError(f"{param.key}: range {t!r}: the step must be positive")
    if hi < lo:
        raise InstrumentError(f"{param.key}: empty range {t!r} (hi < lo)")
    n = int(math.floor((hi - lo) / step + 1e-9)) + 1
    vals = [lo + i * step for i in range(n)]
    if param.integer:
        vals = [int(v) for v in vals]
    else:
        vals = [float(round(v, 12)) for v in vals]
    return vals


def _apply(rules: Ruleset, policy_params: Mapping[str, float] | None,
           values: Mapping[str, Any]) -> tuple[Ruleset, dict]:
    """Rules and policy parameters with ``values`` set (rules keys via ``override``)."""
    rule_vals = {k: v for k, v in values.items() if not k.startswith(POLICY_PREFIX)}
    pp = dict(policy_params or {})
    for k, v in values.items():
        if k.startswith(POLICY_PREFIX):
            pp[k[len(POLICY_PREFIX):]] = float(v)
    if rule_vals:
        try:
            rules = rules.override({k: {"value": v, "source": "override"} for k, v in rule_vals.items()})
        except RulesetError as exc:
            raise InstrumentError(str(exc).replace("override: ", "", 1)) from None
    return rules, pp


def _base_rules(ruleset) -> Ruleset:
    from .study import _ruleset

    try:
        return _ruleset(ruleset)
    except RulesetError as exc:
        raise InstrumentError(str(exc)) from None


# =========================================================================== playing
def _seats(rec: np.ndarray) -> np.ndarray:
    return np.stack([rec[f"character_{s}"] for s in range(K.MAX_PLAYERS)], axis=1)


def _versions() -> dict:
    import numba

    from ... import __version__

    return {"simlib_version": __version__, "numba_version": numba.__version__,
            "python_version": sys.version.split()[0]}


def _provenance(adapter: UntilDaylightAdapter, instrument: str, t0: float, started: str,
                **extra) -> dict:
    from ...core.runner import _now

    return {**adapter.provenance(), "instrument": instrument, **extra, **_versions(),
            "backend": "local", "started": started, "finished": _now(),
            "elapsed_s": round(time.perf_counter() - t0, 3)}


def _now() -> str:
    from ...core.runner import _now as now

    return now()


def _chunks(n: int, size: int):
    for start in range(0, n, size):
        yield start, min(size, n - start)


def write_frame(df: pd.DataFrame, out: str | Path, provenance: Mapping, kind: str,
                overwrite: bool = False) -> Path:
    """Write a result frame to ``.parquet`` (provenance in the file's metadata) or ``.csv``
    (provenance in ``<out>.json`` next to it).  An existing file needs ``overwrite``."""
    import json

    path = Path(out)
    if path.suffix not in (".parquet", ".csv"):
        raise InstrumentError(f"--out {out}: expected a .parquet or .csv file name")
    if path.exists() and not overwrite:
        raise InstrumentError(f"{path} exists; pass --force (overwrite=True) to replace it")
    if not path.parent.is_dir():
        raise InstrumentError(f"{path}: no such directory {path.parent}")
    meta = {"format": FORMAT, "kind": kind, "identity": {"game": GAME}, "provenance": dict(provenance)}
    flat = df.reset_index() if not isinstance(df.index, pd.RangeIndex) else df
    if path.suffix == ".parquet":
        _write_parquet(path, flat, meta)
    else:
        flat.to_csv(path, index=False)
        Path(str(path) + ".json").write_text(json.dumps(meta, indent=1, sort_keys=True, default=str))
    return path


def check_out(out: str | Path | None, overwrite: bool) -> None:
    """Refuse a bad ``out`` before any game is played."""
    if out is None:
        return
    path = Path(out)
    if path.suffix not in (".parquet", ".csv"):
        raise InstrumentError(f"--out {out}: expected a .parquet or .csv file name")
    if path.exists() and not overwrite:
        raise InstrumentError(f"{path} exists; pass --force (overwrite=True) to replace it")
    if not path.parent.is_dir():
        raise InstrumentError(f"{path}: no such directory {path.parent}")


def _check_games(games, what: str = "games") -> int:
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games <= 0:
        raise InstrumentError(f"{what} must be a positive integer; got {games!r}")
    return int(games)


# =========================================================================== compare
@dataclass(frozen=True, eq=False)
class CompareResult:
    """Two variants on the same games.

    Attributes
    ----------
    labels : (str, str)
        Variant A and variant B.
    overall, by_players, by_character : pandas.DataFrame
        Paired statistics (:func:`simlib.core.paired.paired_summary`): ``rate_a``,
        ``rate_b``, ``diff`` = A - B with Newcombe's 95 % paired interval
        (``diff_low``, ``diff_high``), ``mcnemar_p``, ``discordant_share`` and
        ``unpaired_games`` (games per variant two independent runs would need for the
        same precision).  In ``by_character`` a game counts once for each character in it.
    speed : pandas.DataFrame
        Per variant: games, seconds in the kernel, games per second.
    provenance : dict
    """

    labels: tuple[str, str]
    overall: pd.DataFrame
    by_players: pd.DataFrame
    by_character: pd.DataFrame
    speed: pd.DataFrame
    provenance: Mapping[str, Any] = field(repr=False)

    @property
    def table(self) -> pd.DataFrame:
        """The three tables stacked (column ``grouping``: overall / players / character)."""
        parts = []
        for name, df in (("overall", self.overall), ("players", self.by_players),
                         ("character", self.by_character)):
            f = df.reset_index()
            key = f.columns[0]
            keys = f.pop(key).astype(str) if name != "overall" else "all"
            f.insert(0, "key", keys)
            f.insert(0, "grouping", name)
            parts.append(f)
        out = pd.concat(parts, ignore_index=True)
        out.insert(2, "variant_a", self.labels[0])
        out.insert(3, "variant_b", self.labels[1])
        return out


def _label_rules(r, default: str) -> str:
    if r is None:
        return default
    return str(r) if isinstance(r, (str, Path)) else getattr(r, "origin", default)


def compare(games: int, players=None, characters=None, *, seed: int = 0,
            rulesets: Sequence | None = None, sets: Mapping[str, Any] | None = None,
            policies: Sequence[str] | None = None, policy: str = "baseline",
            policy_params=None, ruleset=None, threads: int | None = None,
            chunk_size: int = DEFAULT_CHUNK_SIZE, progress: bool | None = None,
            confidence: float = 0.95) -> CompareResult:
    """Play the same games under two variants and compare their win rates, paired.

    Exactly one axis varies:

    * ``rulesets=[A, B]`` — two rulesets (paths, preset names or :class:`Ruleset`);
    * ``sets={"key": value, ...}`` — B is ``ruleset`` (A) with these values changed;
    * ``policies=["baseline", "random"]`` — two policies on ``ruleset``.

    Parameters
    ----------
    games : int
        Games per variant (the same game indices ``0 .. games - 1`` in both).
    players, characters, seed, policy, policy_params, ruleset :
        As in :func:`simlib.simulate` (the default ruleset is the calibrated preset).
    threads, chunk_size, progress :
        Execution (never change the results).

    Returns
    -------
    CompareResult
    """
    games = _check_games(games)
    axes = [x is not None for x in (rulesets, sets, policies)]
    if sum(axes) != 1:
        raise InstrumentError("compare needs exactly one of: two rulesets, --set overrides, "
                              "or two policies")
    base = _base_rules(ruleset)
    pp = policy_params
    if rulesets is not None:
        rs = list(rulesets)
        if len(rs) != 2:
            raise InstrumentError(f"compare needs exactly two rulesets; got {len(rs)}")
        arms = [(_base_rules(r), policy, pp) for r in rs]
        labels = (_label_rules(rs[0], "A"), _label_rules(rs[1], "B"))
    elif sets is not None:
        if not sets:
            raise InstrumentError("compare --set: no value given")
        vals = {}
        for k, v in sets.items():
            prm = resolve_param(k, base, policy)
            vals[k] = parse_value(v, prm) if isinstance(v, str) else v
            prm.check(vals[k])
        rb, ppb = _apply(base, pp, vals)
        arms = [(base, policy, pp), (rb, policy, ppb)]
        labels = (_label_rules(ruleset, "calibrated"),
                  ", ".join(f"{k}={v}" for k, v in vals.items()))
    else:
        ps = list(policies)
        if len(ps) != 2:
            raise InstrumentError(f"compare needs exactly two policies; got {len(ps)}")
        for p in ps:
            if p not in policy_names():
                raise InstrumentError(f"unknown policy {p!r}; allowed: {', '.join(policy_names())}")
        arms = [(base, p, pp if p == policy else None) for p in ps]
        labels = (ps[0], ps[1])
    try:
        adapters = [make_adapter(players, characters, seed=seed, policy=p, policy_params=q,
                                 ruleset=r) for r, p, q in arms]
    except RulesetError as exc:
        raise InstrumentError(str(exc)) from None
    a0, a1 = adapters
    if a0.players != a1.players:
        raise InstrumentError("the two rulesets allow different player counts; pass --players")
    t0, started = time.perf_counter(), _now()
    bar = _progress_bar(2 * games, 0, _show_progress(progress), "compare")
    n_pl = len(a0.players)
    n_ch = len(a0.rules.character_names)
    by_p = np.zeros((n_pl, 4), np.int64)
    by_c = np.zeros((n_ch, 4), np.int64)
    kernel_s = [0.0, 0.0]
    try:
        for start, count in _chunks(games, chunk_size):
            recs = []
            for k, ad in enumerate(adapters):
                t = time.perf_counter()
                recs.append(ad.play_records(start, count, threads))
                kernel_s[k] += time.perf_counter() - t
                if bar is not None:
                    bar.update(count)
            ra, rb = recs
            seats = _seats(ra)
            if not (np.array_equal(seats, _seats(rb)) and np.array_equal(ra["players"], rb["players"])):
                raise RunError("the two variants dealt different teams to the same games; "
                               "they cannot be compared game by game")
            wa, wb = ra["outcome"] == K.OUT_WIN, rb["outcome"] == K.OUT_WIN
            pidx = np.searchsorted(np.asarray(a0.players), ra["players"])
            by_p += paired_counts(wa, wb, pidx, n_pl)
            present = seats >= 0
            rows = np.nonzero(present)[0]
            by_c += paired_counts(wa[rows], wb[rows], seats[present], n_ch)
    finally:
        if bar is not None:
            bar.close()
    idx_p = pd.Index(list(a0.players), name="players")
    idx_c = pd.Index(list(a0.rules.character_names), name="character")
    overall = paired_summary(by_p.sum(axis=0), confidence, pd.RangeIndex(1, name="all"))
    speed = pd.DataFrame({"variant": list(labels), "policy": [a.policy for a in adapters],
                          "games": [games, games], "kernel_s": [round(s, 3) for s in kernel_s],
                          "games_per_s": [games / s if s > 0 else np.nan for s in kernel_s]})
    prov = _provenance(a0, "compare", t0, started, games=games,
                       variants={"a": {"label": labels[0], **a0.identity(), "ruleset_origin": a0.rules.origin},
                                 "b": {"label": labels[1], **a1.identity(), "ruleset_origin": a1.rules.origin}},
                       chunk_size=int(chunk_size), threads=threads)
    return CompareResult(labels, overall, paired_summary(by_p, confidence, idx_p),
                         paired_summary(by_c, confidence, idx_c), speed, prov)


# =========================================================================== sweep
def _outcome_rows(rec: np.ndarray, players: Sequence[int], z: float = 1.959963984540054) -> list[dict]:
    rows = []
    win = rec["outcome"] == K.OUT_WIN
    rnd = rec["round_reached"].astype(np.float64)
    for p in players:
        sel = rec["players"] == p
        n = int(sel.sum())
        w = int(win[sel].sum())
        rc = rate_columns(w, n)
        r = rnd[sel]
        mean = float(r.mean()) if n else np.nan
        half = z * float(r.std(ddof=1)) / math.sqrt(n) if n > 1 else np.nan
        row = {"players": int(p), "games": n, "wins": w, "win_rate": float(rc["rate"]),
               "ci_low": float(rc["ci_low"]), "ci_high": float(rc["ci_high"]),
               "round_mean": mean, "round_low": mean - half, "round_high": mean + half}
        cause = rec["cause"][sel]
        for code, name in K.CAUSE_NAMES.items():
            if name == "none":
                continue
            row[f"loss_{name}"] = float((cause == code).sum() / n) if n else np.nan
        rows.append(row)
    return rows


@dataclass(frozen=True, eq=False)
class SweepResult:
    """Win rate, loss causes and mean round reached per parameter value (same seeds).

    ``table`` has one row per value (or pair of values) and player count: the parameter
    column(s), ``players``, ``games``, ``wins``, ``win_rate``, ``ci_low``, ``ci_high``
    (95 % Wilson), ``round_mean``, ``round_low``, ``round_high`` (95 % normal interval of
    the mean round reached) and ``loss_<cause>`` (share of games lost that way).
    """

    params: tuple[str, ...]
    table: pd.DataFrame
    provenance: Mapping[str, Any] = field(repr=False)

    def plot(self, path: str | Path | None = None, ax=None):
        """The win-rate curve against the first parameter with its 95 % band (one line per
        player count, and per value of the second parameter); saved to ``path`` if given."""
        import matplotlib

        if path is not None and ax is None:
            matplotlib.use("Agg", force=False)
        import matplotlib.pyplot as plt

        fig = None
        if ax is None:
            fig, ax = plt.subplots(figsize=(7, 4.2))
        x = self.params[0]
        keys = ["players"] + list(self.params[1:])
        for key, g in self.table.groupby(keys, sort=True):
            key = key if isinstance(key, tuple) else (key,)
            label = f"{key[0]} players" + "".join(f", {p}={v}" for p, v in zip(self.params[1:], key[1:]))
            g = g.sort_values(x)
            ax.plot(g[x], 100 * g["win_rate"], marker="o", label=label)
            ax.fill_between(g[x], 100 * g["ci_low"], 100 * g["ci_high"], alpha=0.25)
        ax.set_xlabel(x)
        ax.set_ylabel("win rate, % (95 % interval)")
        ax.set_title(f"Until Daylight: win rate against {x} "
                     f"({self.provenance.get('policy')} bot)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        if fig is not None:
            fig.tight_layout()
            if path is not None:
                fig.savefig(path, dpi=110)
                plt.close(fig)
        return ax


def sweep(params: Mapping[str, Sequence], games: int, players=None, characters=None, *,
          seed: int = 0, policy: str = "baseline", policy_params=None, ruleset=None,
          threads: int | None = None, chunk_size: int = DEFAULT_CHUNK_SIZE,
          progress: bool | None = None) -> SweepResult:
    """Play the same ``games`` games at every value (grid) of one or two parameters.

    Parameters
    ----------
    params : mapping of str to sequence
        One or two parameters and their values, e.g.
        ``{"horde.monster.count": range(0, 13, 2)}``.
    games : int
        Games per value (indices ``0 .. games - 1`` of ``seed`` at every value).

    Returns
    -------
    SweepResult
    """
    games = _check_games(games)
    if not params or len(params) > 2:
        raise InstrumentError(f"sweep takes one or two parameters; got {len(params or {})}")
    base = _base_rules(ruleset)
    grids = {}
    for key, values in params.items():
        prm = resolve_param(key, base, policy)
        vals = list(values)
        if not vals:
            raise InstrumentError(f"{key}: empty range")
        vals = [parse_value(v, prm) if isinstance(v, str) else v for v in vals]
        for v in vals:
            if prm.integer and (isinstance(v, bool) or int(v) != v):
                raise InstrumentError(f"{key}: {v!r} is not an integer")
            prm.check(v)
        grids[key] = [int(v) if prm.integer else float(v) for v in vals]
    points = [dict(zip(grids, combo)) for combo in product(*grids.values())]
    adapters = []
    for pt in points:  # validate every point before playing anything
        r, pp = _apply(base, policy_params, pt)
        try:
            adapters.append(make_adapter(players, characters, seed=seed, policy=policy,
                                         policy_params=pp, ruleset=r))
        except RulesetError as exc:
            raise InstrumentError(str(exc)) from None
    t0, started = time.perf_counter(), _now()
    bar = _progress_bar(games * len(points), 0, _show_progress(progress), "sweep")
    rows = []
    try:
        for pt, ad in zip(points, adapters):
            recs = []
            for start, count in _chunks(games, chunk_size):
                recs.append(ad.play_records(start, count, threads))
                if bar is not None:
                    bar.update(count)
            rec = np.concatenate(recs)
            for row in _outcome_rows(rec, ad.players):
                rows.append({**pt, **row})
    finally:
        if bar is not None:
            bar.close()
    table = pd.DataFrame(rows)
    prov = _provenance(adapters[0], "sweep", t0, started, games=games,
                       params={k: list(v) for k, v in grids.items()},
                       ruleset_fingerprint=base.fingerprint(), ruleset_origin=base.origin,
                       chunk_size=int(chunk_size), threads=threads)
    return SweepResult(tuple(grids), table, prov)


# =========================================================================== calibrate
@dataclass(frozen=True, eq=False)
class CalibrationResult:
    """The value of ``param`` whose win rate is closest to ``target``.

    ``value``, ``win_rate``, ``ci_low``, ``ci_high``, ``games`` and ``converged`` come from
    :class:`simlib.core.calibrate.Calibration`; ``tried`` lists every evaluation.
    """

    param: str
    target: float
    calibration: Calibration
    provenance: Mapping[str, Any] = field(repr=False)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.calibration, name)

    @property
    def table(self) -> pd.DataFrame:
        c = self.calibration
        return pd.DataFrame([{"param": self.param, "target": self.target, "value": c.value,
                              "win_rate": c.win_rate, "ci_low": c.ci_low, "ci_high": c.ci_high,
                              "games": c.games, "converged": c.converged}])


def calibrate(param: str, target: float, players=4, characters=None, *, lo=None, hi=None,
              tolerance: float = 0.01, games: int = 2000, growth: int = 4,
              max_games: int = 128_000, seed: int = 0, policy: str = "baseline",
              policy_params=None, ruleset=None, threads: int | None = None,
              chunk_size: int = DEFAULT_CHUNK_SIZE, progress: bool | None = None) -> CalibrationResult:
    """Find the value of ``param`` whose win rate is closest to ``target``.

    Integer (ruleset) parameters: bisection on the nested seed blocks, ``games`` games in
    the first stage and ``growth`` times more per stage until the 95 % interval at the
    answer has half-width ``<= tolerance`` (or ``max_games``).  Real (``policy.*``)
    parameters: :func:`scipy.optimize.brentq` with ``games`` fixed games per evaluation.

    ``lo``/``hi`` default to the allowed minimum (or half the value) and four times the
    current value plus ten (ruleset) / twice the value (policy).
    """
    try:
        t = float(target)
    except (TypeError, ValueError):
        raise InstrumentError(f"target must be a number in (0, 1); got {target!r}") from None
    if not (0.0 < t < 1.0):
        raise InstrumentError(f"target must be strictly between 0 and 1; got {target!r}")
    if not (isinstance(tolerance, (int, float)) and 0 < tolerance < 0.5):
        raise InstrumentError(f"tolerance must be in (0, 0.5); got {tolerance!r}")
    games = _check_games(games)
    max_games = _check_games(max_games, "max_games")
    base = _base_rules(ruleset)
    prm = resolve_param(param, base, policy)
    if lo is None:
        lo = prm.minimum if prm.minimum is not None else (prm.value / 2 if not prm.integer else 0)
    if hi is None:
        hi = 4 * prm.value + 10 if prm.integer else 2 * prm.value
    lo = parse_value(lo, prm) if isinstance(lo, str) else lo
    hi = parse_value(hi, prm) if isinstance(hi, str) else hi
    prm.check(lo)
    prm.check(hi)
    if not lo < hi:
        raise InstrumentError(f"{param}: empty range {lo}:{hi} (need lo < hi)")
    ads: dict = {}

    def adapter_for(v) -> UntilDaylightAdapter:
        if v not in ads:
            r, pp = _apply(base, policy_params, {param: v})
            try:
                ads[v] = make_adapter(players, characters, seed=seed, policy=policy,
                                      policy_params=pp, ruleset=r)
            except RulesetError as exc:
                raise InstrumentError(str(exc)) from None
        return ads[v]

    adapter_for(lo)
    adapter_for(hi)  # both ends valid before playing
    bar = _progress_bar(None, 0, _show_progress(progress), "calibrate")

    def evaluate(v, start, count):
        ad = adapter_for(int(v) if prm.integer else float(v))
        w = 0
        for s, c in _chunks(count, chunk_size):
            rec = ad.play_records(start + s, c, threads)
            w += int((rec["outcome"] == K.OUT_WIN).sum())
        return w, count

    def tick(n):
        if bar is not None:
            bar.update(n)

    t0, started = time.perf_counter(), _now()
    try:
        if prm.integer:
            cal = calibrate_integer(evaluate, int(lo), int(hi), t, tolerance=tolerance, n0=games,
                                    growth=growth, max_games=max_games, on_games=tick)
        else:
            cal = calibrate_real(evaluate, float(lo), float(hi), t, games=games, on_games=tick)
    except CalibrationError as exc:
        raise InstrumentError(f"{param}: {exc}") from None
    finally:
        if bar is not None:
            bar.close()
    prov = _provenance(adapter_for(cal.value), "calibrate", t0, started, param=param,
                       target=t, range=[lo, hi], tolerance=tolerance, first_stage_games=games,
                       growth=growth, max_games=max_games, games=int(cal.tried["games"].sum()),
                       base_ruleset_fingerprint=base.fingerprint(), base_ruleset_origin=base.origin)
    return CalibrationResult(param, t, cal, prov)


# =========================================================================== sensitivity
def assumed_params(rules: Ruleset, spread: float = 0.3) -> pd.DataFrame:
    """Every ``assumed`` integer value with its default range (``+-spread``, at least
    ``+-1``, clipped to the allowed minimum; dice and slots keep at least 1).

    Returns
    -------
    pandas.DataFrame
        ``key``, ``value``, ``lo``, ``hi`` (integers).
    """
    rows = []
    for key in rules.keys():
        if rules.source(key) != "assumed":
            continue
        fld = _field_for_key(key)
        v = rules.get(key)
        if fld is None or fld.type != "int" or isinstance(v, bool):
            continue
        d = max(abs(v) * spread, 1.0)
        lo, hi = int(math.floor(v - d)), int(math.ceil(v + d))
        floor = fld.min if fld.min is not None else None
        if v >= 1 and key.rsplit(".", 1)[-1] in ("dice", "health", "slots", "stalemate_cap", "min"):
            floor = max(floor or 0, 1)
        if floor is not None:
            lo = max(lo, floor)
        rows.append({"key": key, "value": int(v), "lo": lo, "hi": hi})
    return pd.DataFrame(rows, columns=["key", "value", "lo", "hi"])


@dataclass(frozen=True, eq=False)
class SensitivityResult:
    """Ranked sensitivity of the win rate (and of the mean round reached) to each value.

    ``table``: one row per output and parameter — ``output`` (``win_rate`` or
    ``round_reached``), ``key``, ``lo``, ``hi`` and, for Morris, ``mu_star`` with its
    bootstrap 95 % interval (``mu_star_low``, ``mu_star_high``), ``sigma`` with a
    normal-theory 95 % interval, ``mu`` and ``rank`` (1 = moves the output most);
    for Sobol ``ST``, ``ST_conf``, ``S1``, ``S1_conf``.  ``dummy.seed`` changes only the
    root seed: its row is the noise floor.
    """

    method: str
    table: pd.DataFrame
    samples: pd.DataFrame = field(repr=False)
    provenance: Mapping[str, Any] = field(repr=False)

    def plot(self, path: str | Path | None = None, output: str | None = None, top: int = 20):
        """Ranked bar plot of ``output`` (default: the win rate, or the mean round reached
        when the win rate never moved); the dummy's bar (grey) is always shown."""
        import matplotlib

        if path is not None:
            matplotlib.use("Agg", force=False)
        import matplotlib.pyplot as plt

        col, err = ("mu_star", "mu_star_conf") if self.method == "morris" else ("ST", "ST_conf")
        if output is None:
            win = self.table[self.table["output"] == "win_rate"]
            output = "round_reached" if (win[col] == 0).all() else "win_rate"
        full = self.table[self.table["output"] == output]
        t = full.head(top)
        if DUMMY not in set(t["key"]):
            t = pd.concat([t, full[full["key"] == DUMMY]])
        fig, ax = plt.subplots(figsize=(7, 0.3 * len(t) + 1.5))
        scale = 100 if output == "win_rate" else 1
        y = np.arange(len(t))[::-1]
        colors = ["tab:gray" if k == DUMMY else "tab:blue" for k in t["key"]]
        ax.barh(y, scale * t[col], xerr=scale * t[err], color=colors, alpha=0.85)
        ax.set_yticks(y, t["key"], fontsize=8)
        unit = "points of win rate" if output == "win_rate" else "rounds"
        ax.set_xlabel(f"{'Morris mu*' if self.method == 'morris' else 'Sobol total index'}"
                      f" ({unit if self.method == 'morris' else output}); grey: dummy (noise)")
        ax.set_title(f"Which assumed numbers move {output}?")
        ax.grid(axis="x", alpha=0.3)
        fig.tight_layout()
        if path is not None:
            fig.savefig(path, dpi=110)
            plt.close(fig)
        return ax


def sensitivity(params: Sequence[str] | Mapping[str, tuple] | None = None, *,
                method: str = "morris", games: int = 1000, players=4, characters=None,
                trajectories: int = 6, levels: int = 4, spread: float = 0.3,
                sobol_samples: int = 32, top: int | None = None, seed: int = 0,
                sample_seed: int = 0, policy: str = "baseline", policy_params=None,
                ruleset="reference", threads: int | None = None,
                progress: bool | None = None) -> SensitivityResult:
    """Global sensitivity analysis (SALib) of the win rate over ruleset values.

    Parameters
    ----------
    params : sequence of keys, or mapping key -> (lo, hi), optional
        Default: every ``assumed`` integer value, ranges from :func:`assumed_params`.
        A dummy parameter ``dummy.seed`` (it only changes the root seed) is always added.
    method : {"morris", "sobol"}
        Morris screening (``trajectories`` x (k + 1) evaluations), or Sobol indices
        (Saltelli sampling, ``sobol_samples`` x (2k + 2) evaluations) — with ``top``
        given, on the ``top`` parameters of a Morris screening run first.
    games : int
        Games per evaluation (same seed everywhere except along the dummy).
    ruleset :
        Base ruleset (default: the reference, whose numbers the analysis is about).

    Returns
    -------
    SensitivityResult
    """
    if method not in ("morris", "sobol"):
        raise InstrumentError(f"unknown method {method!r}; allowed: morris, sobol")
    games = _check_games(games)
    if not (isinstance(spread, (int, float)) and 0 < spread < 1):
        raise InstrumentError(f"spread must be in (0, 1); got {spread!r}")
    base = _base_rules(ruleset)
    if params is None:
        rng = assumed_params(base, spread)
    else:
        rows = []
        items = params.items() if isinstance(params, Mapping) else [(k, None) for k in params]
        for key, bounds in items:
            prm = resolve_param(key, base, policy)
            if bounds is None:
                d = max(abs(prm.value) * spread, 1.0)
                lo, hi = math.floor(prm.value - d), math.ceil(prm.value + d)
                if prm.minimum is not None:
                    lo = max(lo, prm.minimum)
            else:
                lo, hi = bounds
                lo = parse_value(lo, prm) if isinstance(lo, str) else lo
                hi = parse_value(hi, prm) if isinstance(hi, str) else hi
                prm.check(lo)
                prm.check(hi)
            if not lo < hi:
                raise InstrumentError(f"{key}: empty range {lo}:{hi}")
            rows.append({"key": key, "value": prm.value, "lo": lo, "hi": hi})
        rng = pd.DataFrame(rows, columns=["key", "value", "lo", "hi"])
    if rng.empty:
        raise InstrumentError("no parameter to analyse")
    if method == "sobol" and top is not None:
        screen = sensitivity(dict(zip(rng["key"], zip(rng["lo"], rng["hi"]))), method="morris",
                             games=games, players=players, characters=characters,
                             trajectories=trajectories, levels=levels, seed=seed,
                             sample_seed=sample_seed, policy=policy,
                             policy_params=policy_params, ruleset=ruleset, threads=threads,
                             progress=progress)
        t = screen.table[(screen.table.output == "win_rate") & (screen.table.key != DUMMY)]
        keep = list(t.sort_values(["mu_star", "key"], ascending=[False, True])["key"].head(int(top)))
        rng = rng[rng["key"].isin(keep)].reset_index(drop=True)
    integer = {k: resolve_param(k, base, policy).integer for k in rng["key"]}
    names = list(rng["key"]) + [DUMMY]
    bounds = [[float(a), float(b)] for a, b in zip(rng["lo"], rng["hi"])] + [[0.0, 1.0]]
    problem = {"num_vars": len(names), "names": names, "bounds": bounds}
    if method == "morris":
        from SALib.sample import morris as morris_sample

        X = morris_sample.sample(problem, N=int(trajectories), num_levels=int(levels),
                                 seed=int(sample_seed))
    else:
        from SALib.sample import sobol as sobol_sample

        X = sobol_sample.sample(problem, int(sobol_samples), calc_second_order=False,
                                seed=int(sample_seed))
    # validate every distinct point before playing
    cache: dict = {}
    points = []
    for row in X:
        vals = {}
        for j, k in enumerate(names[:-1]):
            v = row[j]
            vals[k] = int(round(v)) if integer[k] else float(v)
        dummy_seed = int(seed) + int(round(row[-1] * 1000))
        key = (tuple(sorted(vals.items())), dummy_seed)
        if key not in cache:
            r, pp = _apply(base, policy_params, vals)
            try:
                ad = make_adapter(players, characters, seed=dummy_seed, policy=policy,
                                  policy_params=pp, ruleset=r)
            except RulesetError as exc:
                raise InstrumentError(str(exc)) from None
            cache[key] = [ad, None]
        points.append(key)
    t0, started = time.perf_counter(), _now()
    bar = _progress_bar(len(X), 0, _show_progress(progress), f"sensitivity ({method})")
    y_win = np.zeros(len(X))
    y_round = np.zeros(len(X))
    try:
        for i, key in enumerate(points):
            slot = cache[key]
            if slot[1] is None:
                rec = np.concatenate([slot[0].play_records(s, c, threads)
                                      for s, c in _chunks(games, DEFAULT_CHUNK_SIZE)])
                slot[1] = (float((rec["outcome"] == K.OUT_WIN).mean()),
                           float(rec["round_reached"].mean()))
            y_win[i], y_round[i] = slot[1]
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    tables = []
    for output, Y in (("win_rate", y_win), ("round_reached", y_round)):
        if method == "morris":
            from SALib.analyze import morris as morris_analyze

            res = morris_analyze.analyze(problem, X, Y, num_resamples=1000, conf_level=0.95,
                                         num_levels=int(levels), seed=int(sample_seed))
            r = int(trajectories)
            sigma = np.asarray(res["sigma"], dtype=float)
            from scipy.stats import chi2

            s_low = sigma * np.sqrt((r - 1) / chi2.ppf(0.975, r - 1)) if r > 1 else np.full_like(sigma, np.nan)
            s_high = sigma * np.sqrt((r - 1) / chi2.ppf(0.025, r - 1)) if r > 1 else np.full_like(sigma, np.nan)
            mu_star = np.asarray(res["mu_star"], dtype=float)
            conf = np.asarray(res["mu_star_conf"], dtype=float)
            t = pd.DataFrame({"output": output, "key": names, "mu_star": mu_star,
                              "mu_star_conf": conf,
                              "mu_star_low": np.maximum(mu_star - conf, 0.0),
                              "mu_star_high": mu_star + conf, "sigma": sigma,
                              "sigma_low": s_low, "sigma_high": s_high,
                              "mu": np.asarray(res["mu"], dtype=float)})
            t.insert(2, "lo", [b[0] for b in bounds])
            t.insert(3, "hi", [b[1] for b in bounds])
            t = t.sort_values(["mu_star", "key"], ascending=[False, True])
        else:
            from SALib.analyze import sobol as sobol_analyze

            if np.ptp(Y) == 0:
                st = s1 = np.zeros(len(names))
                stc = s1c = np.zeros(len(names))
            else:
                res = sobol_analyze.analyze(problem, Y, calc_second_order=False,
                                            num_resamples=500, conf_level=0.95, seed=int(sample_seed))
                st, stc, s1, s1c = res["ST"], res["ST_conf"], res["S1"], res["S1_conf"]
            t = pd.DataFrame({"output": output, "key": names, "ST": st, "ST_conf": stc,
                              "S1": s1, "S1_conf": s1c})
            t.insert(2, "lo", [b[0] for b in bounds])
            t.insert(3, "hi", [b[1] for b in bounds])
            t = t.sort_values(["ST", "key"], ascending=[False, True])
        t["rank"] = np.arange(1, len(t) + 1)
        tables.append(t)
    table = pd.concat(tables, ignore_index=True)
    samples = pd.DataFrame(X, columns=names)
    samples["win_rate"] = y_win
    samples["round_reached"] = y_round
    any_ad = cache[points[0]][0]
    prov = _provenance(any_ad, "sensitivity", t0, started, method=method,
                       games_per_evaluation=games, evaluations=len(X),
                       distinct_evaluations=len(cache), games=games * len(cache),
                       trajectories=trajectories, levels=levels, sobol_samples=sobol_samples,
                       spread=spread, sample_seed=sample_seed,
                       base_ruleset_fingerprint=base.fingerprint(), base_ruleset_origin=base.origin)
    prov["seed"] = int(seed)
    return SensitivityResult(method, table, samples, prov)


# =========================================================================== precision
def _table_rows(counts: Counts, table: str) -> pd.DataFrame:
    grouping = {"overall": "overall", "by_players": "players", "by_character": "character",
                "by_character_players": "character_players", "by_team": "team"}
    if table not in grouping:
        raise InstrumentError(f"unknown table {table!r}; allowed: {', '.join(grouping)}")
    return counts.frames[grouping[table]]


def simulate_precise(precision: float, max_games: int, players=None, characters=None, *,
                     table: str = "overall", seed: int = 0, policy: str = "baseline",
                     policy_params=None, ruleset=None, threads: int | None = None,
                     chunk_size: int = DEFAULT_CHUNK_SIZE, keep_records: bool | None = None,
                     out: str | Path | None = None, overwrite: bool = False,
                     progress: bool | None = None, confidence: float = 0.95) -> RunResult:
    """Add chunks of games until every row of ``table`` is known to ``+- precision``.

    After each chunk (``chunk_size`` games, the same chunks at any thread count) the
    anytime-valid 95 % confidence sequence (Robbins' beta-binomial mixture,
    :func:`simlib.core.sequential.beta_binomial_cs`) of every row's win rate is computed;
    the run stops when the widest half-width is ``<= precision`` or after ``max_games``
    games.  The games played are therefore a pure function of (seed, precision, cap,
    chunk size).  The returned :class:`RunResult` is that of ``simulate`` of those games
    (its tables carry the usual fixed-n Wilson intervals); ``provenance["sequence"]``
    holds the confidence-sequence rows at the stop.
    """
    if isinstance(precision, bool) or not isinstance(precision, (int, float)) or not 0 < precision < 0.5:
        raise InstrumentError(f"precision must be a number in (0, 0.5); got {precision!r}")
    max_games = _check_games(max_games, "max_games")
    check_out_parquet(out, overwrite)
    adapter = make_adapter(players, characters, seed=seed, policy=policy,
                           policy_params=policy_params, ruleset=ruleset)
    _table_rows(Counts.empty(adapter.spec), table)
    keep = (max_games <= RECORD_LIMIT) if keep_records is None else bool(keep_records)
    t0, started = time.perf_counter(), _now()
    bar = _progress_bar(max_games, 0, _show_progress(progress), "simulate to precision")
    total = Counts.empty(adapter.spec)
    parts = []
    played, widest, reason = 0, float("nan"), "max_games"
    seq = pd.DataFrame()
    try:
        while played < max_games:
            count = min(chunk_size, max_games - played)
            if keep:
                rec = adapter.run_chunk(played, count, threads)
                parts.append(rec)
                counts = adapter.aggregate(rec)
            else:
                counts = adapter.run_chunk_counts(played, count, threads)
            total = total + counts
            played += count
            if bar is not None:
                bar.update(count)
            rows = _table_rows(total, table)
            low, high = beta_binomial_cs(rows["wins"].to_numpy(), rows["games"].to_numpy(), confidence)
            seq = pd.DataFrame({"games": rows["games"].to_numpy(), "wins": rows["wins"].to_numpy(),
                                "cs_low": low, "cs_high": high}, index=rows.index)
            widest = float(np.max((high - low) / 2))
            if widest <= precision:
                reason = "precision"
                break
    finally:
        if bar is not None:
            bar.close()
    records = pd.concat(parts, ignore_index=True) if keep else None
    seq_out = seq.reset_index()
    seq_out = seq_out.astype({c: str for c in seq_out.columns if seq_out[c].dtype == object})
    prov = {**adapter.provenance(), "games": played, "games_done": played, "complete": True,
            **_versions(), "backend": "local", "backend_detail": "local", "threads": threads,
            "chunk_size": int(chunk_size), "chunks": -(-played // chunk_size), "chunks_resumed": 0,
            "stored": "records" if keep else "counts", "started": started, "finished": _now(),
            "elapsed_s": round(time.perf_counter() - t0, 3), "out": None if out is None else str(out),
            "precision": float(precision), "max_games": max_games, "precision_table": table,
            "stopped_by": reason, "widest_half_width": widest,
            "sequence": "Robbins beta-binomial mixture, Beta(1/2, 1/2), 95 %",
            "sequence_rows": seq_out.to_dict(orient="records")}
    result = RunResult(total, records, prov, True)
    if out is not None:
        identity = {"format": FORMAT, "game": GAME, **adapter.identity(), "games": played,
                    "chunk_size": int(chunk_size), "stored": prov["stored"],
                    "precision": float(precision), "max_games": max_games}
        meta = {"format": FORMAT, "kind": prov["stored"], "identity": identity, "provenance": prov}
        _write_parquet(Path(out), records if keep else total.to_frame(), meta)
    return result


def check_out_parquet(out, overwrite: bool) -> None:
    if out is None:
        return
    path = Path(out)
    if path.suffix != ".parquet":
        raise InstrumentError(f"--out {out}: expected a .parquet file name")
    if path.exists() and not overwrite:
        raise InstrumentError(f"{path} exists; pass --force to replace it")
    if not path.parent.is_dir():
        raise InstrumentError(f"{path}: no such directory {path.parent}")
