"""The designer's instruments, for every registered game: compare, sweep, calibrate,
sensitivity, and precision-driven studies.

Every instrument plays games through the game's own study adapter (``outcomes``), with
the same rule for game ``i`` as :func:`simlib.simulate` (players, team, randomness: a pure
function of the root seed and ``i``), so two variants played on one seed share their card
order, dice and timer draws (common random numbers).  The statistics are game-agnostic and
live in :mod:`simlib.core.paired`, :mod:`simlib.core.sequential` and
:mod:`simlib.core.calibrate`.

What an instrument measures is declared by the game (its
:class:`simlib.core.games.GameInfo`: ``success``, ``measure``, the adapter's ``outcomes``): the headline outcome of a game (Until Daylight:
the team wins; Till Dawn: the focal player, the one in the table's first seat, wins or
shares the win), its member-level groupings, one numeric measure and a few shares.

>>> import simlib
>>> c = simlib.compare(20_000, players=4, sets={"horde.survivor.count": 200})
>>> c.by_players[["rate_a", "rate_b", "diff", "diff_low", "diff_high"]]
>>> s = simlib.sweep({"horde.survivor.count": range(100, 260, 40)}, 5000, players=4)
>>> k = simlib.calibrate("horde.survivor.count", 0.30, players=4, lo=100, hi=300)
>>> m = simlib.sensitivity(games=500)          # Morris over every assumed number
>>> simlib.compare(4000, game="till_dawn", policies=["optimal", "threshold"], players=4)

A *parameter* is a dotted ruleset key holding an integer (``horde.monster.count``,
``constants.search_timer.per_player``) or ``policy.<name>`` for a (real) policy parameter
(``policy.draw_score``).
"""
from __future__ import annotations

import math
import sys
import textwrap
import time
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np
import pandas as pd

from .calibrate import Calibration, CalibrationError, calibrate_integer, calibrate_real
from .paired import paired_counts, paired_summary
from .plots import integer_ticks
from .runner import (DEFAULT_CHUNK_SIZE, FORMAT, RECORD_LIMIT, RunError, RunResult,
                     progress_bar, ruleset_provenance, show_progress, utc_now, write_parquet)
from .ranges import calibrate_range, contiguous_range, joint_ranges
from .ruleset import RulesetError
from .seats import split_spec
from .sequential import beta_binomial_cs
from .stats import rate_columns
from .tables import Counts

__all__ = ["Param", "resolve_param", "parse_value", "parse_range", "compare", "sweep",
           "calibrate", "sensitivity", "simulate_precise", "CompareResult", "SweepResult",
           "CalibrationResult", "SensitivityResult", "assumed_params", "write_frame",
           "InstrumentError", "Outcomes", "games_differ", "change_notice"]

POLICY_PREFIX = "policy."
DUMMY = "dummy.seed"


class InstrumentError(ValueError):
    """Bad input to an instrument (one line naming the key, the value and what is allowed)."""


# =========================================================================== the game's part
@dataclass(frozen=True, eq=False)
class Outcomes:
    """A chunk of games as the instruments read them (arrays of one row per game unless
    said otherwise).

    success : bool
        The headline outcome (the "win" of ``win_rate``).
    players : int
        Player count.
    match : array (games, k)
        What two variants must share to be compared game by game (the seats' characters).
    groupings : mapping name -> (labels, game, idx, success)
        Member-level groupings of the paired comparison (``character``, ``seat``): one row
        per member, the game it belongs to (position in the chunk), its group (index into
        ``labels``) and its success.  A name starting ``focal_`` (``focal_seat``) is read
        instead of the others by a compare of two players: one row per game, the focal
        player's group and its success.
    measure : float
        The game's one numeric measure (Until Daylight: round reached).
    shares : mapping name -> bool
        Per-game events whose share the sweep reports (loss causes, ties...).
    """

    success: np.ndarray
    players: np.ndarray
    match: np.ndarray
    groupings: Mapping[str, tuple]
    measure: np.ndarray
    shares: Mapping[str, np.ndarray]


def game_spec(game):
    """The declaration (:class:`simlib.core.games.GameInfo`) of a registered game, or the
    declaration itself; an unknown name is an :class:`InstrumentError`."""
    from .games import GameInfo, get_game

    if isinstance(game, GameInfo):
        return game
    try:
        return get_game(game)
    except ValueError as exc:
        raise InstrumentError(str(exc)) from None


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


def resolve_param(key: str, rules, policy: str | None = None, game=None) -> Param:
    """Describe a parameter (raises :class:`InstrumentError` for unknown or non-numeric keys)."""
    spec = game_spec(game)
    policy = policy or spec.default_policy
    if key.startswith(POLICY_PREFIX):
        name = key[len(POLICY_PREFIX):]
        try:
            pspec = spec.policy_spec(policy)
        except (KeyError, ValueError):
            raise InstrumentError(f"unknown policy {policy!r}; allowed: "
                                  f"{', '.join(spec.policy_names())}") from None
        if name not in pspec.param_names:
            raise InstrumentError(f"unknown key {key!r}: policy {policy!r} has parameters "
                                  f"{', '.join(POLICY_PREFIX + n for n in pspec.param_names) or '(none)'}")
        return Param(key, "policy", float(pspec.defaults[pspec.param_names.index(name)]), None, False)
    try:
        value = rules.get(key)
        fld = rules.field(key)
    except RulesetError as exc:
        raise InstrumentError(str(exc).replace("override: ", "", 1)) from None
    if fld.type != "int" or isinstance(value, bool):
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


def _apply(rules, policy_params: Mapping[str, float] | None,
           values: Mapping[str, Any]) -> tuple[Any, dict]:
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


def base_rules(ruleset, game=None):
    """The game's ruleset for ``ruleset`` (``None``: the instruments' default)."""
    try:
        return game_spec(game).resolve_ruleset(ruleset)
    except (RulesetError, TypeError) as exc:
        raise InstrumentError(str(exc)) from None


def _adapter(spec, seats=None, **kw):
    if seats is not None:
        if kw.get("policy_params"):
            raise InstrumentError("with seats, each seat's policy and parameters come from its "
                                  "seat spec (threshold:t=8): drop the policy parameters and "
                                  "policy.* keys")
        kw["seats"] = seats
    try:
        return spec.adapter(**kw)
    except ValueError as exc:
        raise InstrumentError(str(exc)) from None


# =========================================================================== playing
def _versions() -> dict:
    import numba

    from .version import __version__

    return {"simlib_version": __version__, "numba_version": numba.__version__,
            "python_version": sys.version.split()[0]}


def _provenance(adapter, instrument: str, t0: float, started: str,
                **extra) -> dict:
    from .games import get_game

    return {**ruleset_provenance(adapter), "display_name": get_game(adapter.game).display_name,
            "instrument": instrument, **extra, **_versions(),
            "backend": "local", "started": started, "finished": utc_now(),
            "elapsed_s": round(time.perf_counter() - t0, 3)}


def _chunks(n: int, size: int):
    for start in range(0, n, size):
        yield start, min(size, n - start)


def write_frame(df: pd.DataFrame, out: str | Path, provenance: Mapping, kind: str,
                overwrite: bool = False) -> Path:
    """Write a result frame to ``.parquet`` (provenance in the file's metadata) or ``.csv``
    (provenance in ``<out>.json`` next to it).  An existing file needs ``overwrite``."""
    import json

    check_out(out, overwrite)
    path = Path(out)
    meta = {"format": FORMAT, "kind": kind, "identity": {"game": provenance.get("game")},
            "provenance": dict(provenance)}
    flat = df.reset_index() if not isinstance(df.index, pd.RangeIndex) else df
    if path.suffix == ".parquet":
        write_parquet(path, flat, meta)
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
        raise InstrumentError(f"{path} exists; pass overwrite=True to replace it")
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
    tables : dict of pandas.DataFrame
        ``overall``, ``players`` and the game's member groupings (Until Daylight
        ``character``; Till Dawn ``seat`` and ``character``), also as attributes
        ``overall``, ``by_players``, ``by_character``, ``by_seat``.  Paired statistics
        (:func:`simlib.core.paired.paired_summary`): ``rate_a``, ``rate_b``, ``diff`` =
        B - A (changed minus base: ``rate_b - rate_a``) with Newcombe's 95 % paired
        interval (``diff_low``, ``diff_high``),
        ``mcnemar_p``, ``discordant_share`` and ``unpaired_games`` (games per variant two
        independent runs would need for the same precision).  In a member grouping a game
        counts once for each member (character, seat) in it.
    speed : pandas.DataFrame
        Per variant: games, seconds in the kernel, games per second.
    provenance : dict
    """

    labels: tuple[str, str]
    tables: Mapping[str, pd.DataFrame]
    speed: pd.DataFrame
    provenance: Mapping[str, Any] = field(repr=False)
    #: games whose result differs between A and B (:func:`games_differ`); 0: the change
    #: alters no game, and :attr:`notice` says so
    games_changed: int | None = None

    @property
    def notice(self) -> str:
        """One line when the change alters no game (else "")."""
        return change_notice(self.games_changed, int(self.provenance.get("games", 0)), "compare")

    @property
    def overall(self) -> pd.DataFrame:
        return self.tables["overall"]

    def __getattr__(self, name):
        if name.startswith("by_") and name[3:] in self.tables:
            return self.tables[name[3:]]
        raise AttributeError(name)

    @property
    def table(self) -> pd.DataFrame:
        """The tables stacked (column ``grouping``: overall / players / character ...)."""
        parts = []
        for name, df in self.tables.items():
            f = df.reset_index()
            key = f.columns[0]
            col = f.pop(key)
            keys = col.astype(str) if name != "overall" else "all"
            f.insert(0, "key", keys)
            f.insert(0, "grouping", name)
            parts.append(f)
        out = pd.concat(parts, ignore_index=True)
        out.insert(2, "variant_a", self.labels[0])
        out.insert(3, "variant_b", self.labels[1])
        return out


def games_differ(oa: Outcomes, ob: Outcomes) -> np.ndarray:
    """Per game of one chunk played two ways: whether its result differs (the headline
    outcome, the measure, a share or a member's result)."""
    d = np.asarray(oa.success) != np.asarray(ob.success)
    ma, mb = np.asarray(oa.measure, dtype=np.float64), np.asarray(ob.measure, dtype=np.float64)
    d |= ~((ma == mb) | (np.isnan(ma) & np.isnan(mb)))
    for name, hit in oa.shares.items():
        d |= np.asarray(hit) != np.asarray(ob.shares[name])
    for name, (_, rows, _, wa) in oa.groupings.items():
        d[np.asarray(rows)[np.asarray(wa) != np.asarray(ob.groupings[name][3])]] = True
    return d


def change_notice(changed: int | None, games: int, instrument: str) -> str:
    """The one line ``compare`` and ``sweep`` print when the change altered no game: their
    A = B (or flat curve) is then no measured effect but a value that never came into play
    for this player, count and ruleset.  "" otherwise."""
    if changed != 0:
        return ""
    if instrument == "sweep":
        return (f"Note: the values altered 0 of {games:,} games: every game ends the same at "
                "every value (the parameter never comes into play here).")
    return (f"Note: the change altered 0 of {games:,} games: every game ends the same under A "
            "and B (the change never comes into play here).")


def _label_rules(r, default: str) -> str:
    """A ruleset's name in tables: its lineage (``calibrated+tweak.toml``)."""
    return getattr(r, "lineage", None) or default


def compare(games: int, players=None, characters=None, *, seed: int = 0,
            rulesets: Sequence | None = None, sets: Mapping[str, Any] | None = None,
            policies: Sequence[str] | None = None, policy: str | None = None,
            policy_params=None, ruleset=None, threads: int | None = None,
            chunk_size: int = DEFAULT_CHUNK_SIZE, progress: bool | None = None,
            confidence: float = 0.95, game: str | None = None, seats=None) -> CompareResult:
    """Play the same games under two variants and compare their win rates, paired.

    Exactly one axis varies:

    * ``rulesets=[A, B]`` — two rulesets (paths, preset names or ruleset objects);
    * ``sets={"key": value, ...}`` — B is ``ruleset`` (A) with these values changed;
    * ``policies=["baseline", "random"]`` — two policies on ``ruleset`` (in a competitive
      game, such as Till Dawn, the focal seat plays each against a field of ``policy``).

    Parameters
    ----------
    games : int
        Games per variant (the same game indices ``0 .. games - 1`` in both).
    players : int or list of int, optional
        Player counts, as in :func:`simlib.simulate` (default: the game's).
    characters : optional
        The characters to deal from, as in :func:`simlib.simulate`.
    seed : int, default 0
        Root seed: game ``i`` is dealt the same in both variants.
    rulesets : sequence of two, optional
        A and B: paths, preset names or ruleset objects.
    sets : mapping, optional
        ``{"key": value, ...}``: B is ``ruleset`` with these values changed (a string
        value is read as ``--set key=value`` reads it).
    policies : sequence of two str, optional
        Two policy names, each played on ``ruleset``.
    policy : str, optional
        The policy of both variants (default: the game's); in a compare of two policies,
        the field the focal seat plays against.
    policy_params : mapping, optional
        Parameters of ``policy``, as in :func:`simlib.simulate`.
    ruleset : optional
        A of a ``sets`` compare, the rules of a ``policies`` compare: a preset name, a
        folder, a tweak file or a ruleset object (default: the game's declared default,
        the calibrated preset for Until Daylight).
    threads : int, optional
        Threads of the kernels (execution only: never changes the results).
    chunk_size : int
        Games per chunk (execution only).
    progress : bool, optional
        A progress bar (default: on a terminal or in a notebook).
    confidence : float, default 0.95
        Level of the paired intervals (``diff_low``, ``diff_high``).
    game : str, optional
        A registered game (default Until Daylight).
    seats : optional
        A competitive game's table(s), as in its ``simulate`` (``["optimal,threshold"]``);
        the focal player is the one in table seat 0.  Also taken by :func:`sweep`,
        :func:`calibrate` and :func:`sensitivity`.

    Returns
    -------
    CompareResult
    """
    spec = game_spec(game)
    policy = policy or spec.default_policy
    games = _check_games(games)
    axes = [x is not None for x in (rulesets, sets, policies)]
    if sum(axes) != 1:
        raise InstrumentError("compare needs exactly one of: two rulesets, --set overrides, "
                              "or two policies")
    base = base_rules(ruleset, spec)
    pp = policy_params
    common = dict(players=players, characters=characters, seed=seed)
    if seats is not None and policies is not None:
        raise InstrumentError("compare of two policies seats each in the focal seat against a "
                              "field of `policy`; it takes no seats table")
    if rulesets is not None:
        rs = list(rulesets)
        if len(rs) != 2:
            raise InstrumentError(f"compare needs exactly two rulesets; got {len(rs)}")
        resolved = [base_rules(r, spec) for r in rs]
        adapters = [_adapter(spec, seats, **common, policy=policy, policy_params=pp, ruleset=r)
                    for r in resolved]
        labels = (_label_rules(resolved[0], "A"), _label_rules(resolved[1], "B"))
        if labels[0] == labels[1]:
            labels = (labels[0] + " (A)", labels[1] + " (B)")
    elif sets is not None:
        if not sets:
            raise InstrumentError("compare --set: no value given")
        vals = {}
        for k, v in sets.items():
            prm = resolve_param(k, base, policy, spec)
            vals[k] = parse_value(v, prm) if isinstance(v, str) else v
            prm.check(vals[k])
        rb, ppb = _apply(base, pp, vals)
        adapters = [_adapter(spec, seats, **common, policy=policy, policy_params=q, ruleset=r)
                    for r, q in ((base, pp), (rb, ppb))]
        labels = (_label_rules(base, "default"),
                  ", ".join(f"{k}={v}" for k, v in vals.items()))
    else:
        ps = list(policies)
        if len(ps) != 2:
            raise InstrumentError(f"compare needs exactly two policies; got {len(ps)}")
        # a policy may carry its own parameters ("distilled:any_ruleset=1"); one without
        # takes policy_params when it is `policy` (the field's player), as before
        try:
            arms = [split_spec(p) for p in ps]
        except ValueError as exc:
            raise InstrumentError(str(exc)) from None
        for name, _ in arms:
            if name not in spec.policy_names():
                raise InstrumentError(f"unknown policy {name!r}; allowed: {', '.join(spec.policy_names())}")
        try:
            adapters = [spec.policy_arm(name, own or (pp if name == policy else None),
                                        field_policy=policy, field_params=pp, ruleset=base,
                                        **common) for name, own in arms]
        except ValueError as exc:  # a ruleset or a policy parameter the game refuses
            raise InstrumentError(str(exc)) from None
        labels = (ps[0], ps[1])
    a0, a1 = adapters
    if a0.players != a1.players:
        raise InstrumentError("the two rulesets allow different player counts; pass --players")
    t0, started = time.perf_counter(), utc_now()
    bar = progress_bar(2 * games, 0, show_progress(progress), "compare")
    n_pl = len(a0.players)
    counts: dict[str, np.ndarray] = {"players": np.zeros((n_pl, 4), np.int64)}
    labels_of: dict[str, Sequence] = {}
    once: dict[str, bool] = {}  # groupings that count each game once (DNZ's start hour)
    kernel_s = [0.0, 0.0]
    changed = 0
    # one untimed game each first: the first call compiles the kernels (or loads them from
    # numba's cache), which would otherwise be charged to variant A's speed alone
    first = [ad.outcomes(0, 1, threads) for ad in adapters][0]
    # a compare of two players asks about the focal player: a game's groupings "focal_seat"
    # ("focal_character", ...) count each game once, by what the focal player held; every
    # other compare reads the seat and member groupings (a game once per seat)
    focal_view = policies is not None and any(n.startswith("focal_") for n in first.groupings)
    try:
        for start, count in _chunks(games, chunk_size):
            outs = []
            for k, ad in enumerate(adapters):
                t = time.perf_counter()
                out = ad.outcomes(start, count, threads)
                kernel_s[k] += time.perf_counter() - t
                outs.append(out)
                if bar is not None:
                    bar.update(count)
            oa, ob = outs
            if not (np.array_equal(oa.match, ob.match) and np.array_equal(oa.players, ob.players)):
                raise RunError("the two variants dealt different teams to the same games; "
                               "they cannot be compared game by game")
            pidx = np.searchsorted(np.asarray(a0.players), oa.players)
            counts["players"] += paired_counts(oa.success, ob.success, pidx, n_pl)
            changed += int(games_differ(oa, ob).sum())
            for name, (labs, rows, idx, wa) in oa.groupings.items():
                if focal_view != name.startswith("focal_"):
                    continue
                _, rows_b, idx_b, wb = ob.groupings[name]
                if not (np.array_equal(rows, rows_b) and np.array_equal(idx, idx_b)):
                    raise RunError(f"the two variants disagree on the {name} of the same games")
                labels_of[name] = labs
                once[name] = once.get(name, True) and len(np.unique(rows)) == len(rows)
                c = paired_counts(wa, wb, idx, len(labs))
                counts[name] = counts[name] + c if name in counts else c
    finally:
        if bar is not None:
            bar.close()
    tables = {"overall": paired_summary(counts["players"].sum(axis=0), confidence,
                                        pd.RangeIndex(1, name="all")),
              "players": paired_summary(counts["players"], confidence,
                                        pd.Index(list(a0.players), name="players"))}
    for name, labs in labels_of.items():
        tables[name] = paired_summary(counts[name], confidence, pd.Index(list(labs), name=name))
    speed = pd.DataFrame({"variant": list(labels),
                          "policy": [a.provenance().get("policy", "") for a in adapters],
                          "games": [games, games], "kernel_s": [round(s, 3) for s in kernel_s],
                          "games_per_s": [games / s if s > 0 else np.nan for s in kernel_s]})
    prov = _provenance(a0, "compare", t0, started, games=games,
                       variants={k: {"label": lab, **ad.identity(), "ruleset_origin": ad.rules.origin,
                                     "ruleset_lineage": ad.rules.lineage,
                                     "ruleset_changes": ad.rules.changes(),
                                     # who sits where in each arm (a compare of players
                                     # seats the compared player differently in each)
                                     "table_labels": ad.provenance().get("table_labels")}
                                 for k, lab, ad in (("a", labels[0], a0), ("b", labels[1], a1))},
                       chunk_size=int(chunk_size), threads=threads, success=spec.success,
                       games_changed=changed,
                       groupings_once=[n for n, v in once.items() if v])
    return CompareResult(labels, tables, speed, prov, changed)


# =========================================================================== sweep
def _outcome_rows(out: Outcomes, players: Sequence[int], spec,
                  z: float = 1.959963984540054) -> list[dict]:
    rows = []
    win = out.success
    m = np.asarray(out.measure, dtype=np.float64)
    short = spec.measure_short
    for p in players:
        sel = out.players == p
        n = int(sel.sum())
        w = int(win[sel].sum())
        rc = rate_columns(w, n)
        r = m[sel]
        mean = float(r.mean()) if n else np.nan
        half = z * float(r.std(ddof=1)) / math.sqrt(n) if n > 1 else np.nan
        row = {"players": int(p), "games": n, "wins": w, "win_rate": float(rc["rate"]),
               "ci_low": float(rc["ci_low"]), "ci_high": float(rc["ci_high"]),
               f"{short}_mean": mean, f"{short}_low": mean - half, f"{short}_high": mean + half}
        for name, hit in out.shares.items():
            row[name] = float(hit[sel].sum() / n) if n else np.nan
        rows.append(row)
    return rows


def _concat_outcomes(parts: Sequence[Outcomes]) -> Outcomes:
    if len(parts) == 1:
        return parts[0]
    return Outcomes(np.concatenate([o.success for o in parts]),
                    np.concatenate([o.players for o in parts]),
                    np.concatenate([o.match for o in parts]), {},
                    np.concatenate([o.measure for o in parts]),
                    {k: np.concatenate([o.shares[k] for o in parts]) for k in parts[0].shares})


@dataclass(frozen=True, eq=False)
class SweepResult:
    """Win rate, the game's measure and shares per parameter value (same seeds).

    ``table`` has one row per value (or pair of values) and player count: the parameter
    column(s), ``players``, ``games``, ``wins``, ``win_rate``, ``ci_low``, ``ci_high``
    (95 % Wilson), the game's measure with a 95 % normal interval of its mean (Until
    Daylight: ``round_mean``, ``round_low``, ``round_high``, the round reached; Till Dawn:
    ``points_*``, the focal player's coffin points) and the game's shares (Until Daylight
    ``loss_<cause>``: share of games lost that way; Till Dawn ``tie`` and
    ``seat_<s>_wins``).
    """

    params: tuple[str, ...]
    table: pd.DataFrame
    provenance: Mapping[str, Any] = field(repr=False)
    #: games (indices) whose result differs between some two values of the sweep
    #: (:func:`games_differ`); 0: no value alters any game, and :attr:`notice` says so
    games_changed: int | None = None

    @property
    def notice(self) -> str:
        """One line when no value of the sweep alters any game (else "")."""
        return change_notice(self.games_changed, int(self.provenance.get("games", 0)), "sweep")

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
        integer_ticks(ax, "x", self.table[x])
        who = self.provenance.get("policy") or ", ".join(self.provenance.get("table_labels", []))
        # a game's long name and its tables of players do not fit one line of the figure
        ax.set_title(textwrap.fill(f"{self.provenance.get('display_name', '')}: win rate "
                                   f"against {x} ({who})", 70), fontsize=10)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        if fig is not None:
            fig.tight_layout()
            if path is not None:
                fig.savefig(path, dpi=110)
                plt.close(fig)
        return ax


def sweep(params: Mapping[str, Sequence], games: int, players=None, characters=None, *,
          seed: int = 0, policy: str | None = None, policy_params=None, ruleset=None,
          threads: int | None = None, chunk_size: int = DEFAULT_CHUNK_SIZE,
          progress: bool | None = None, game: str | None = None, seats=None) -> SweepResult:
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
    spec = game_spec(game)
    policy = policy or spec.default_policy
    games = _check_games(games)
    if not params or len(params) > 2:
        raise InstrumentError(f"sweep takes one or two parameters; got {len(params or {})}")
    base = base_rules(ruleset, spec)
    grids = {}
    for key, values in params.items():
        prm = resolve_param(key, base, policy, spec)
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
        adapters.append(_adapter(spec, seats, players=players, characters=characters, seed=seed,
                                 policy=policy, policy_params=pp, ruleset=r))
    t0, started = time.perf_counter(), utc_now()
    bar = progress_bar(games * len(points), 0, show_progress(progress), "sweep")
    rows = []
    first: list = []  # the first value's chunks: every other value's games are set against them
    changed = np.zeros(games, dtype=bool)
    try:
        for pt, ad in zip(points, adapters):
            outs = []
            for j, (start, count) in enumerate(_chunks(games, chunk_size)):
                outs.append(ad.outcomes(start, count, threads))
                if first:
                    changed[start:start + count] |= games_differ(first[j], outs[-1])
                if bar is not None:
                    bar.update(count)
            first = first or outs
            for row in _outcome_rows(_concat_outcomes(outs), ad.players, spec):
                rows.append({**pt, **row})
    finally:
        if bar is not None:
            bar.close()
    table = pd.DataFrame(rows)
    prov = _provenance(adapters[0], "sweep", t0, started, games=games,
                       params={k: list(v) for k, v in grids.items()},
                       ruleset_fingerprint=base.fingerprint(), ruleset_origin=base.origin,
                       ruleset_lineage=base.lineage, ruleset_changes=base.changes(),
                       chunk_size=int(chunk_size), threads=threads, success=spec.success,
                       measure=spec.measure)
    # one value has nothing to differ from
    prov["games_changed"] = int(changed.sum()) if len(points) > 1 else None
    return SweepResult(tuple(grids), table, prov, prov["games_changed"])


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


def calibrate(param: str, target: float, players=None, characters=None, *, lo=None, hi=None,
              tolerance: float = 0.01, games: int = 2000, growth: int = 4,
              max_games: int = 128_000, seed: int = 0, policy: str | None = None,
              policy_params=None, ruleset=None, threads: int | None = None,
              chunk_size: int = DEFAULT_CHUNK_SIZE, progress: bool | None = None,
              game: str | None = None, seats=None) -> CalibrationResult:
    """Find the value of ``param`` whose win rate is closest to ``target``.

    Integer (ruleset) parameters: bisection on the nested seed blocks, ``games`` games in
    the first stage and ``growth`` times more per stage until the 95 % interval at the
    answer has half-width ``<= tolerance`` (or ``max_games``).  Real (``policy.*``)
    parameters: :func:`scipy.optimize.brentq` with ``games`` fixed games per evaluation.

    ``lo``/``hi`` default to the allowed minimum (or half the value) and four times the
    current value plus ten (ruleset) / twice the value (policy); a ruleset value's default
    ends keep to the values around the current one that the ruleset accepts
    (:func:`simlib.core.ranges.calibrate_range`).
    """
    try:
        t = float(target)
    except (TypeError, ValueError):
        raise InstrumentError(f"target must be a number in (0, 1); got {target!r}") from None
    if not (0.0 < t < 1.0):
        raise InstrumentError(f"target must be strictly between 0 and 1; got {target!r}")
    if not (isinstance(tolerance, (int, float)) and 0 < tolerance < 0.5):
        raise InstrumentError(f"tolerance must be in (0, 0.5); got {tolerance!r}")
    spec = game_spec(game)
    policy = policy or spec.default_policy
    if players is None and seats is None:
        players = _default_players(spec)
    games = _check_games(games)
    max_games = _check_games(max_games, "max_games")
    base = base_rules(ruleset, spec)
    prm = resolve_param(param, base, policy, spec)
    if prm.kind == "rules" and (lo is None or hi is None):
        # within what the validator accepts: the field's bounds and the other values' checks
        a, b = calibrate_range(base, param, int(prm.value))
        if a == b:
            raise InstrumentError(f"{param}: the ruleset accepts no value but {a} with the other "
                                  "values unchanged; nothing to calibrate")
        lo, hi = (a if lo is None else lo), (b if hi is None else hi)
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

    def adapter_for(v):
        if v not in ads:
            r, pp = _apply(base, policy_params, {param: v})
            ads[v] = _adapter(spec, seats, players=players, characters=characters, seed=seed,
                              policy=policy, policy_params=pp, ruleset=r)
        return ads[v]

    adapter_for(lo)
    adapter_for(hi)  # both ends valid before playing
    bar = progress_bar(None, 0, show_progress(progress), "calibrate")

    def evaluate(v, start, count):
        ad = adapter_for(int(v) if prm.integer else float(v))
        w = 0
        for s, c in _chunks(count, chunk_size):
            w += int(ad.outcomes(start + s, c, threads).success.sum())
        return w, count

    def tick(n):
        if bar is not None:
            bar.update(n)

    t0, started = time.perf_counter(), utc_now()
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
                       base_ruleset_fingerprint=base.fingerprint(), base_ruleset_origin=base.origin,
                       base_ruleset_lineage=base.lineage, base_ruleset_changes=base.changes(),
                       success=spec.success)
    return CalibrationResult(param, t, cal, prov)


# =========================================================================== sensitivity
def _default_players(spec) -> int:
    """The player count calibrate and sensitivity study by default: 4 where the game's
    default study plays 4, else its first count (Mort: 5)."""
    counts = tuple(spec.adapter().players)
    return 4 if 4 in counts else counts[0]


def assumed_params(rules, spread: float = 0.3, game=None) -> pd.DataFrame:
    """Every ``assumed`` integer value with its default range (``+-spread``, at least
    ``+-1``, clipped to the values the ruleset allows; dice and slots keep at least 1).
    A value the ruleset pins (its allowed range is one value) has nothing to vary and is
    left out.

    Returns
    -------
    pandas.DataFrame
        ``key``, ``value``, ``lo``, ``hi`` (integers).
    """
    positive = game_spec(game).positive_suffixes
    rows = []
    for key in rules.keys():
        if rules.source(key) != "assumed":
            continue
        fld = rules.field(key)
        v = rules.get(key)
        if fld is None or fld.type != "int" or isinstance(v, bool):
            continue
        d = max(abs(v) * spread, 1.0)
        lo, hi = int(math.floor(v - d)), int(math.ceil(v + d))
        floor = fld.min if fld.min is not None else None
        if v >= 1 and key.rsplit(".", 1)[-1] in positive:
            floor = max(floor or 0, 1)
        if floor is not None:
            lo = max(lo, floor)
        if fld.max is not None:
            hi = min(hi, fld.max)
        # checks across values (a card kind's least value, a board's size) may refuse a
        # value the field allows: keep the run of values around v that load
        lo, hi = contiguous_range(rules, key, int(v), lo, hi)
        if lo >= hi:
            continue
        rows.append({"key": key, "value": int(v), "lo": lo, "hi": hi})
    # and values that load one by one may not load together (a track's thresholds, a
    # board's size against its tokens): narrow the ranges until every combination loads
    joint = joint_ranges(rules, {r["key"]: (r["value"], r["lo"], r["hi"]) for r in rows})
    rows = [{**r, "lo": joint[r["key"]][0], "hi": joint[r["key"]][1]} for r in rows
            if joint[r["key"]][0] < joint[r["key"]][1]]
    return pd.DataFrame(rows, columns=["key", "value", "lo", "hi"])


@dataclass(frozen=True, eq=False)
class SensitivityResult:
    """Ranked sensitivity of the win rate (and of the game's measure) to each value.

    ``table``: one row per output and parameter — ``output`` (``win_rate`` or the game's
    measure: Until Daylight ``round_reached``, Till Dawn ``focal_points``), ``key``, ``lo``, ``hi`` and, for Morris, ``mu_star`` with its
    bootstrap 95 % interval (``mu_star_low``, ``mu_star_high``), ``sigma`` with a
    normal-theory 95 % interval, ``mu`` and ``rank`` (1 = moves the output most);
    for Sobol ``ST``, ``ST_conf``, ``S1``, ``S1_conf``.  ``dummy.seed`` changes only the
    root seed: its row is the noise floor.
    """

    method: str
    table: pd.DataFrame
    samples: pd.DataFrame = field(repr=False)
    provenance: Mapping[str, Any] = field(repr=False)

    @property
    def outputs(self) -> tuple[str, str]:
        """``("win_rate", <the game's measure>)``."""
        return ("win_rate", str(self.provenance.get("measure", "round_reached")))

    def plot(self, path: str | Path | None = None, output: str | None = None, top: int = 20):
        """Ranked bar plot of ``output`` (default: the win rate, or the game's measure
        when the win rate never moved); the dummy's bar (grey) is always shown."""
        import matplotlib

        if path is not None:
            matplotlib.use("Agg", force=False)
        import matplotlib.pyplot as plt

        col, err = ("mu_star", "mu_star_conf") if self.method == "morris" else ("ST", "ST_conf")
        if output is None:
            win = self.table[self.table["output"] == "win_rate"]
            output = self.outputs[1] if (win[col] == 0).all() else "win_rate"
        full = self.table[self.table["output"] == output]
        t = full.head(top)
        if DUMMY not in set(t["key"]):
            t = pd.concat([t, full[full["key"] == DUMMY]])
        fig, ax = plt.subplots(figsize=(7, 0.3 * len(t) + 1.5))
        scale = 100 if output == "win_rate" else 1
        y = np.arange(len(t))[::-1]
        colors = ["tab:gray" if k == DUMMY else "tab:blue" for k in t["key"]]
        # mu* and the total index are not negative: the bar's interval stops at 0
        value, conf = scale * t[col].to_numpy(float), scale * t[err].to_numpy(float)
        low = np.minimum(conf, np.maximum(value, 0.0))
        ax.barh(y, value, xerr=np.vstack([low, conf]), color=colors, alpha=0.85)
        ax.set_yticks(y, t["key"], fontsize=8)
        unit = ("points of win rate" if output == "win_rate"
                else self.provenance.get("measure_unit", "rounds"))
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
                method: str = "morris", games: int = 1000, players=None, characters=None,
                trajectories: int = 6, levels: int = 4, spread: float = 0.3,
                sobol_samples: int = 32, top: int | None = None, seed: int = 0,
                sample_seed: int = 0, policy: str | None = None, policy_params=None,
                ruleset=None, threads: int | None = None,
                progress: bool | None = None, game: str | None = None,
                seats=None) -> SensitivityResult:
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
        Base ruleset (default: the game's reference, whose numbers the analysis is about).
    game : str
        A registered game (default Until Daylight).

    Values that load one by one may be refused together (a board size against its token
    lines): a trajectory or sample holding such a point is left out whole, and
    ``provenance`` says how many (``dropped`` of ``designed``) and why (``refused``).

    Returns
    -------
    SensitivityResult
    """
    spec = game_spec(game)
    policy = policy or spec.default_policy
    if players is None and seats is None:
        players = _default_players(spec)
    if ruleset is None:
        ruleset = spec.sensitivity_ruleset
    if method not in ("morris", "sobol"):
        raise InstrumentError(f"unknown method {method!r}; allowed: morris, sobol")
    games = _check_games(games)
    if not (isinstance(spread, (int, float)) and 0 < spread < 1):
        raise InstrumentError(f"spread must be in (0, 1); got {spread!r}")
    base = base_rules(ruleset, spec)
    if params is None:
        rng = assumed_params(base, spread, spec)
    else:
        rows, defaulted = [], {}
        items = params.items() if isinstance(params, Mapping) else [(k, None) for k in params]
        for key, bounds in items:
            prm = resolve_param(key, base, policy, spec)
            if bounds is None:
                d = max(abs(prm.value) * spread, 1.0)
                lo, hi = math.floor(prm.value - d), math.ceil(prm.value + d)
                if prm.minimum is not None:
                    lo = max(lo, prm.minimum)
                if prm.kind == "rules":
                    # the values the validator accepts alone, then together (below)
                    fmax = base.field(key).max
                    lo, hi = contiguous_range(base, key, int(prm.value), int(lo),
                                              int(hi) if fmax is None else min(int(hi), fmax))
                    defaulted[key] = (int(prm.value), lo, hi)
            else:
                lo, hi = bounds
                lo = parse_value(lo, prm) if isinstance(lo, str) else lo
                hi = parse_value(hi, prm) if isinstance(hi, str) else hi
                prm.check(lo)
                prm.check(hi)
            rows.append({"key": key, "value": prm.value, "lo": lo, "hi": hi})
        joint = joint_ranges(base, defaulted)
        for r in rows:
            r["lo"], r["hi"] = joint.get(r["key"], (r["lo"], r["hi"]))
            if not r["lo"] < r["hi"]:
                raise InstrumentError(f"{r['key']}: empty range {r['lo']}:{r['hi']}")
        rng = pd.DataFrame(rows, columns=["key", "value", "lo", "hi"])
    if rng.empty:
        raise InstrumentError("no parameter to analyse")
    if method == "sobol" and top is not None:
        screen = sensitivity(dict(zip(rng["key"], zip(rng["lo"], rng["hi"]))), method="morris",
                             games=games, players=players, characters=characters,
                             trajectories=trajectories, levels=levels, seed=seed,
                             sample_seed=sample_seed, policy=policy,
                             policy_params=policy_params, ruleset=ruleset, threads=threads,
                             progress=progress, game=spec, seats=seats)
        t = screen.table[(screen.table.output == "win_rate") & (screen.table.key != DUMMY)]
        keep = list(t.sort_values(["mu_star", "key"], ascending=[False, True])["key"].head(int(top)))
        rng = rng[rng["key"].isin(keep)].reset_index(drop=True)
    integer = {k: resolve_param(k, base, policy, spec).integer for k in rng["key"]}
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
    # validate every distinct point before playing.  Values that each load alone may be
    # refused together (a board size against its token lines): a trajectory (Morris) or
    # a Saltelli block (Sobol) holding such a point is dropped whole, so the analysis
    # keeps its design, and the result reports what was dropped and why
    block = len(names) + (1 if method == "morris" else 2)
    refused: dict = {}
    bad_blocks: set = set()
    cache: dict = {}
    keys = []
    for i, row in enumerate(X):
        vals = {}
        for j, k in enumerate(names[:-1]):
            v = row[j]
            vals[k] = int(round(v)) if integer[k] else float(v)
        dummy_seed = int(seed) + int(round(row[-1] * 1000))
        key = (tuple(sorted(vals.items())), dummy_seed)
        if key not in cache and key[0] not in refused:
            try:
                r, pp = _apply(base, policy_params, vals)
            except InstrumentError as exc:
                refused[key[0]] = str(exc)
            else:
                ad = _adapter(spec, seats, players=players, characters=characters,
                              seed=dummy_seed, policy=policy, policy_params=pp, ruleset=r)
                cache[key] = [ad, None]
        if key[0] in refused:
            bad_blocks.add(i // block)
        keys.append(key)
    n_blocks = len(X) // block
    if len(bad_blocks) == n_blocks:
        raise InstrumentError(f"the ruleset refuses a point of every {'trajectory' if method == 'morris' else 'sample'}"
                              f" (e.g. {next(iter(refused.values()))}); narrow the ranges (--param KEY=LO:HI)")
    keep = np.array([i // block not in bad_blocks for i in range(len(X))])
    X = X[keep]
    points = [k for k, ok in zip(keys, keep) if ok]
    cache = {k: v for k, v in cache.items() if k in set(points)}
    reasons = sorted(set(refused.values()))
    t0, started = time.perf_counter(), utc_now()
    bar = progress_bar(len(X), 0, show_progress(progress), f"sensitivity ({method})")
    y_win = np.zeros(len(X))
    y_round = np.zeros(len(X))
    try:
        for i, key in enumerate(points):
            slot = cache[key]
            if slot[1] is None:
                out = _concat_outcomes([slot[0].outcomes(s, c, threads)
                                        for s, c in _chunks(games, DEFAULT_CHUNK_SIZE)])
                slot[1] = (float(out.success.mean()), float(np.mean(out.measure)))
            y_win[i], y_round[i] = slot[1]
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    tables = []
    for output, Y in (("win_rate", y_win), (spec.measure, y_round)):
        if method == "morris":
            from SALib.analyze import morris as morris_analyze

            res = morris_analyze.analyze(problem, X, Y, num_resamples=1000, conf_level=0.95,
                                         num_levels=int(levels), seed=int(sample_seed))
            r = len(X) // block  # the trajectories kept
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
                # a Generator, not the int: SALib seeds the bootstrap only `if seed:`, so
                # seed 0 gave other intervals on every run (the same Generator for any other
                # seed: the intervals of seeds > 0 are unchanged)
                res = sobol_analyze.analyze(problem, Y, calc_second_order=False,
                                            num_resamples=500, conf_level=0.95,
                                            seed=np.random.default_rng(int(sample_seed)))
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
    samples[spec.measure] = y_round
    any_ad = cache[points[0]][0]
    prov = _provenance(any_ad, "sensitivity", t0, started, method=method,
                       games_per_evaluation=games, evaluations=len(X),
                       distinct_evaluations=len(cache), games=games * len(cache),
                       trajectories=trajectories, levels=levels, sobol_samples=sobol_samples,
                       dropped=len(bad_blocks), designed=n_blocks, refused=reasons,
                       spread=spread, sample_seed=sample_seed,
                       base_ruleset_fingerprint=base.fingerprint(), base_ruleset_origin=base.origin,
                       base_ruleset_lineage=base.lineage, base_ruleset_changes=base.changes(),
                       success=spec.success, measure=spec.measure, measure_unit=spec.measure_unit)
    prov["seed"] = int(seed)
    return SensitivityResult(method, table, samples, prov)


# =========================================================================== precision
def _table_rows(counts: Counts, table: str) -> pd.DataFrame:
    """Rows of ``table`` (``overall`` or ``by_<grouping>`` of the game's table spec)."""
    names = list(counts.frames)
    allowed = ["overall" if g == "overall" else f"by_{g}" for g in names]
    if table not in allowed:
        raise InstrumentError(f"unknown table {table!r}; allowed: {', '.join(allowed)}")
    return counts.frames["overall" if table == "overall" else table[3:]]


def simulate_precise(precision: float, max_games: int, players=None, characters=None, *,
                     table: str | None = None, seed: int = 0, policy: str | None = None,
                     policy_params=None, ruleset=None, threads: int | None = None,
                     chunk_size: int = DEFAULT_CHUNK_SIZE, keep_records: bool | None = None,
                     out: str | Path | None = None, overwrite: bool = False,
                     progress: bool | None = None, confidence: float = 0.95,
                     game: str | None = None, seats=None) -> RunResult:
    """Add chunks of games until every row of ``table`` is known to ``+- precision``.

    After each chunk (``chunk_size`` games, the same chunks at any thread count) the
    anytime-valid 95 % confidence sequence (Robbins' beta-binomial mixture,
    :func:`simlib.core.sequential.beta_binomial_cs`) of every row's win rate is computed;
    the run stops when the widest half-width is ``<= precision`` or after ``max_games``
    games.  The games played are therefore a pure function of (seed, precision, cap,
    chunk size).  The returned :class:`RunResult` is that of ``simulate`` of those games
    (its tables carry the usual fixed-n Wilson intervals); ``provenance["sequence"]``
    holds the confidence-sequence rows at the stop.  ``table`` is ``overall`` or
    ``by_<grouping>`` of the game's tables (default: the game's ``precision_table``,
    ``overall`` except Mort's ``by_pairing``, whose overall pools its pairings; Till Dawn's ``overall`` rows count ties, its
    ``by_seat`` rows the seats' wins); ``seats`` as in Till Dawn's ``simulate``.
    """
    if isinstance(precision, bool) or not isinstance(precision, (int, float)) or not 0 < precision < 0.5:
        raise InstrumentError(f"precision must be a number in (0, 0.5); got {precision!r}")
    max_games = _check_games(max_games, "max_games")
    check_out_parquet(out, overwrite)
    from .games import get_game

    info = get_game(game)
    table = info.precision_table if table is None else table
    try:
        adapter = info.adapter(players, characters, seed=seed, policy=policy,
                               policy_params=policy_params, ruleset=ruleset, seats=seats)
    except RulesetError as exc:
        raise InstrumentError(str(exc)) from None
    _table_rows(Counts.empty(adapter.spec), table)
    keep = (max_games <= RECORD_LIMIT) if keep_records is None else bool(keep_records)
    t0, started = time.perf_counter(), utc_now()
    bar = progress_bar(max_games, 0, show_progress(progress), "simulate to precision")
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
    from .runner import ruleset_provenance

    prov = {**ruleset_provenance(adapter), "games": played, "games_done": played, "complete": True,
            **_versions(), "backend": "local", "backend_detail": "local", "threads": threads,
            "chunk_size": int(chunk_size), "chunks": -(-played // chunk_size), "chunks_resumed": 0,
            "stored": "records" if keep else "counts", "started": started, "finished": utc_now(),
            "elapsed_s": round(time.perf_counter() - t0, 3), "out": None if out is None else str(out),
            "precision": float(precision), "max_games": max_games, "precision_table": table,
            "stopped_by": reason, "widest_half_width": widest,
            "sequence": "Robbins beta-binomial mixture, Beta(1/2, 1/2), 95 %",
            "sequence_rows": seq_out.to_dict(orient="records")}
    result = RunResult(total, records, prov, True)
    if out is not None:
        identity = {"format": FORMAT, "game": adapter.game, **adapter.identity(), "games": played,
                    "chunk_size": int(chunk_size), "stored": prov["stored"],
                    "precision": float(precision), "max_games": max_games}
        meta = {"format": FORMAT, "kind": prov["stored"], "identity": identity, "provenance": prov}
        write_parquet(Path(out), records if keep else total.to_frame(), meta)
    return result


def check_out_parquet(out, overwrite: bool) -> None:
    if out is None:
        return
    path = Path(out)
    if path.suffix != ".parquet":
        raise InstrumentError(f"--out {out}: expected a .parquet file name")
    if path.exists() and not overwrite:
        raise InstrumentError(f"{path} exists; pass overwrite=True to replace it")
    if not path.parent.is_dir():
        raise InstrumentError(f"{path}: no such directory {path.parent}")
