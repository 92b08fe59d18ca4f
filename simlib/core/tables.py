"""Win-rate tables from per-game records or from additive counts (game-agnostic).

A game package describes its records frame once with a :class:`TableSpec`: the boolean
outcome column (``win``), the columns naming a game's participants (``character_0`` ..
``character_5``, empty seats null), the groupings to tabulate (``players``,
``character``, ``character`` x ``players``, ``team``) and the categorical columns to break
games down by (``loss_cause``, ``dead_character``).

The pipeline has two steps so that runs of any size give the same tables:

1. :func:`count_records` turns a records frame into :class:`Counts`: per grouping, a
   frame indexed by the grouping's keys with int64 columns ``games``, ``wins`` and one
   ``<column>=<value>`` per category value.  Counts of disjoint sets of games **add**
   (``a + b``), so chunks are counted as they come and the rows can be dropped.
2. :func:`make_tables` turns counts into :class:`Tables` with rates and 95 % Wilson
   intervals (:mod:`simlib.core.stats`).

A game counts once in every group it belongs to; in a grouping keyed by the participant
(``character``) a game counts once for each of its participants.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Mapping

import numpy as np
import pandas as pd

from .stats import rate_columns

__all__ = ["TableSpec", "Counts", "Tables", "count_records", "make_tables", "format_tables",
           "rate_matrix", "ruleset_label", "run_label"]

GAMES = "games"
WINS = "wins"
_SEP = "="


@dataclass(frozen=True)
class TableSpec:
    """How to tabulate a game's records frame.

    Parameters
    ----------
    groupings : tuple of (str, tuple of str)
        Ordered ``(name, keys)``; ``keys == ()`` is the whole run.  A key is a column of
        the records frame, or ``member`` (a participant, read from ``members``).
    outcome : str
        Boolean column: the game was won.
    members : tuple of str
        Columns naming each game's participants (null: empty seat).
    member : str
        Key name of a participant in ``groupings`` (e.g. ``"character"``).
    categories : tuple of (str, str)
        ``(column, table prefix)``: categorical columns broken down per group.
    member_valued : tuple of str
        Category columns whose values are participants (``dead_character``): in groupings
        keyed by ``member`` their table gives, per participant, how often *that*
        participant was the value (e.g. "this character died").
    none_value : str
        Category value meaning "nothing happened" (also used for nulls); counted in
        ``games`` but not shown as a row.
    primary : str, optional
        The key most results are split by (e.g. ``"players"``); reports and plots draw
        one series per value of it.
    round : str, optional
        Integer column holding the round in which a game ended (e.g. ``"round_reached"``);
        a grouping keyed by ``(primary, round)`` gives survival curves and game lengths
        from counts alone (runs that keep no records).
    member_attrs : tuple of (str, tuple of str)
        Further keys of a participant (competitive games: ``seat``, ``strategy``), each
        with its columns parallel to ``members`` (an empty tuple: the member's index).
        A grouping using any of them counts a game once per participant, like ``member``.
    member_outcomes : tuple of str
        Per-participant outcome columns parallel to ``members`` (competitive games: this
        seat won).  When given, groupings by participant count the participant's own
        outcome; game-level groupings still count ``outcome``.
    member_values : tuple of (str, tuple of str)
        Per-participant numbers (``points``) with their columns: groupings by participant
        also sum them (and their squares), giving ``mean_<name>_by_<grouping>`` tables.
    outcome_label : str
        Name of the game-level outcome in tables (``win``: columns ``wins``/``win_rate``;
        e.g. ``tie`` gives ``ties``/``tie_rate`` when ``outcome`` marks shared victories).
    """

    groupings: tuple[tuple[str, tuple[str, ...]], ...]
    outcome: str = "win"
    members: tuple[str, ...] = ()
    member: str = "member"
    categories: tuple[tuple[str, str], ...] = ()
    member_valued: tuple[str, ...] = ()
    none_value: str = "none"
    primary: str | None = None
    round: str | None = None
    member_attrs: tuple[tuple[str, tuple[str, ...]], ...] = ()
    member_outcomes: tuple[str, ...] = ()
    member_values: tuple[tuple[str, tuple[str, ...]], ...] = ()
    outcome_label: str = "win"

    def member_keys(self) -> set[str]:
        """Keys that make a grouping count participants rather than games."""
        return {self.member} | {n for n, _ in self.member_attrs}

    def by_member(self, keys: tuple[str, ...]) -> bool:
        return any(k in self.member_keys() for k in keys)

    def keys_of(self, grouping: str) -> tuple[str, ...]:
        for name, keys in self.groupings:
            if name == grouping:
                return keys
        raise KeyError(f"unknown grouping {grouping!r}; known: {', '.join(n for n, _ in self.groupings)}")

    def grouping_of(self, keys: tuple[str, ...]) -> str | None:
        """Name of the grouping with exactly these keys, or None."""
        for name, k in self.groupings:
            if tuple(k) == tuple(keys):
                return name
        return None

    def measure_columns(self) -> set[str]:
        return {c for c, _ in self.categories}


# =========================================================================== counts
@dataclass(frozen=True, eq=False)
class Counts:
    """Additive game counts per grouping (see the module docstring).

    ``frames[name]`` is indexed by the grouping's keys (a one-row RangeIndex for the
    whole run) with int64 columns ``games``, ``wins`` and ``<column>=<value>``.
    """

    spec: TableSpec
    frames: Mapping[str, pd.DataFrame] = field(repr=False)

    @classmethod
    def empty(cls, spec: TableSpec) -> "Counts":
        frames = {}
        for name, keys in spec.groupings:
            if keys:
                idx = pd.MultiIndex.from_arrays([[] for _ in keys], names=list(keys)) \
                    if len(keys) > 1 else pd.Index([], name=keys[0])
            else:
                idx = pd.RangeIndex(0)
            frames[name] = pd.DataFrame({GAMES: np.zeros(0, np.int64), WINS: np.zeros(0, np.int64)},
                                        index=idx)
        return cls(spec, frames)

    @property
    def games(self) -> int:
        """Games counted (from the whole-run grouping, or the first one without members)."""
        for name, keys in self.spec.groupings:
            if not self.spec.by_member(keys):
                return int(self.frames[name][GAMES].sum())
        return 0

    def __add__(self, other: "Counts") -> "Counts":
        if not isinstance(other, Counts):
            return NotImplemented
        if other.spec != self.spec:
            raise ValueError("cannot add counts of different table specs")
        out = {}
        for name, keys in self.spec.groupings:
            a, b = self.frames[name], other.frames[name]
            if len(a) == 0:
                out[name] = b
                continue
            if len(b) == 0:
                out[name] = a
                continue
            if not keys:  # the whole run: one row each
                s = a.reset_index(drop=True).add(b.reset_index(drop=True), fill_value=0)
            else:
                s = a.add(b, fill_value=0).sort_index()
            out[name] = _tidy(s.fillna(0))
        return Counts(self.spec, out)

    def equals(self, other: "Counts") -> bool:
        try:
            for name, _ in self.spec.groupings:
                pd.testing.assert_frame_equal(self.frames[name], other.frames[name])
        except AssertionError:
            return False
        return True

    # ------------------------------------------------------------------ storage
    def to_frame(self) -> pd.DataFrame:
        """One flat frame (column ``grouping``, key columns, counts) for parquet."""
        parts = []
        for name, keys in self.spec.groupings:
            f = self.frames[name]
            f = f.reset_index(drop=not keys)
            for k in keys:
                if pd.api.types.is_integer_dtype(f[k]):
                    f[k] = f[k].astype("Int64")  # stays integer next to other groupings' nulls
            f.insert(0, "grouping", name)
            parts.append(f)
        out = pd.concat(parts, ignore_index=True, sort=False)
        for c in out.columns:
            if c == GAMES or c == WINS or _SEP in c:
                out[c] = out[c].fillna(0).astype(np.int64)
        return out

    @classmethod
    def from_frame(cls, spec: TableSpec, df: pd.DataFrame) -> "Counts":
        """Inverse of :meth:`to_frame`."""
        frames = {}
        measures = [c for c in df.columns if c == GAMES or c == WINS or _SEP in c]
        for name, keys in spec.groupings:
            sub = df[df["grouping"] == name]
            if sub.empty or any(k not in sub.columns for k in keys):
                # a file saved before this grouping existed: nothing counted for it
                frames[name] = cls.empty(spec).frames[name]
                continue
            cols = [GAMES, WINS] + sorted(c for c in measures
                                          if c not in (GAMES, WINS) and (sub[c] != 0).any())
            f = sub[list(keys) + cols].copy()
            for k in keys:
                if isinstance(f[k].dtype, pd.Int64Dtype) or pd.api.types.is_integer_dtype(f[k]):
                    f[k] = f[k].astype(np.int64)
            f = f.set_index(list(keys)) if keys else f.reset_index(drop=True)
            frames[name] = _tidy(f.sort_index() if keys else f)
        return cls(spec, frames)


def _tidy(f: pd.DataFrame) -> pd.DataFrame:
    """int64 counts, columns ``games``, ``wins`` then the categories in sorted order."""
    have = list(f.columns)
    cols = [GAMES, WINS] + sorted(c for c in have if c not in (GAMES, WINS))
    if have == cols and all(d == np.int64 for d in f.dtypes):
        return f  # already tidy (every frame count_records builds): pandas' copies cost a
        # study more than its counting does
    return f[cols].astype(np.int64)


def count_records(records: pd.DataFrame, spec: TableSpec) -> Counts:
    """Count a records frame (one row per game) into additive :class:`Counts`.

    Parameters
    ----------
    records : pandas.DataFrame, shape (n_games, ...), or a mapping of column name to array
        Must hold ``spec.outcome`` (bool), the member columns, every grouping key and
        every category column (a mapping of numpy arrays skips building a frame: the
        counts-only path of a study; a ``pandas.Categorical`` value, e.g. built with
        ``Categorical.from_codes`` from a kernel's integer codes, is counted from its
        codes without factorising text, and gives the counts its decoded values give).
    spec : TableSpec

    Returns
    -------
    Counts

    Array operations only, no pass in Python per game: each column is read into numpy and
    factorised once, and each grouping's sums are ``np.bincount`` over its keys' combined
    codes (:func:`_sum_groups`); a grouping keyed by the participant adds one block of
    rows per seat, without building the long frame of (game, participant) rows.
    """
    cache: dict[str, np.ndarray] = {}
    coded: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def col(name: str) -> np.ndarray:
        a = cache.get(name)
        if a is None:
            a = records[name]
            a = cache[name] = a.to_numpy() if hasattr(a, "to_numpy") else np.asarray(a)
        return a

    def codes(name: str) -> tuple[np.ndarray, np.ndarray]:
        """(codes, sorted distinct values) of a column; a missing value has code -1."""
        r = coded.get(name)
        if r is None:
            a = records[name]
            if isinstance(a, pd.Categorical):
                # a game's own integer codes, named once: no text to factorise (the
                # counts then equal those of the decoded column; unused levels drop out)
                r = coded[name] = _sorted_codes(a)
                return r
            if isinstance(a, pd.Series) and isinstance(a.dtype, pd.StringDtype):
                # pyarrow strings factorise in arrow; via numpy they would first become
                # an object array of Python strings (half of a study's counting time)
                c, u = pd.factorize(a, sort=True)
            else:
                c, u = pd.factorize(col(name), sort=True)
            r = coded[name] = (c.astype(np.int64, copy=False), np.asarray(u))
        return r

    n = len(col(spec.outcome))
    values: dict[str, np.ndarray | None] = {GAMES: None,  # None: a row counts 1
                                            WINS: col(spec.outcome).astype(bool)}
    # each category column as one code per game into its values present (as text, missing
    # as none_value, merged when two values print alike): a grouping then sums all of a
    # category's ``<column>=<value>`` columns in one bincount (one per value cost most of
    # a study's counting)
    multi: list[tuple[np.ndarray, list[str]]] = []
    for c, _ in spec.categories:
        cc, u = codes(c)
        labels = [str(v) for v in u] + [spec.none_value]
        lab = np.where(cc >= 0, cc, len(u))
        present = np.flatnonzero(np.bincount(lab, minlength=len(labels)))
        names = sorted({labels[i] for i in present})
        to_col = np.full(len(labels), -1, dtype=np.int64)
        for i in present:
            to_col[i] = names.index(labels[i])
        multi.append((to_col[lab], [f"{c}{_SEP}{v}" for v in names]))
    frames = {}
    for name, keys in spec.groupings:
        if not keys:
            row = {k: np.array([n if v is None else int(v.sum())], dtype=np.int64)
                   for k, v in values.items()}
            for lab, cols in multi:
                tot = np.bincount(lab, minlength=len(cols))
                row.update({cn: tot[j:j + 1].astype(np.int64) for j, cn in enumerate(cols)})
            frames[name] = _tidy(pd.DataFrame(row))
            continue
        if not spec.by_member(keys):
            parts = [codes(k) for k in keys]
            block = ([c for c, _ in parts], dict(values), None, multi)
            frames[name] = _tidy(_sum_groups([block], [u for _, u in parts], list(keys)))
            continue
        attrs = dict(spec.member_attrs)
        seats = range(len(spec.members))
        per_key: dict[str, tuple[list[np.ndarray], np.ndarray]] = {}
        for k in keys:
            if k == spec.member:
                per_key[k] = _union([codes(m) for m in spec.members])
            elif k in attrs and attrs[k]:
                per_key[k] = _union([codes(a) for a in attrs[k]])
            elif k in attrs:  # the participant's index
                per_key[k] = ([np.full(n, i, dtype=np.int64) for i in seats],
                              np.arange(len(spec.members), dtype=np.int64))
            else:
                per_key[k] = ([codes(k)[0]] * len(spec.members), codes(k)[1])
        blocks = []
        for i, m in enumerate(spec.members):
            present = codes(m)[0] >= 0
            vals = dict(values)
            if spec.member_outcomes:
                vals[WINS] = np.where(present, col(spec.member_outcomes[i]), False).astype(bool)
            for vname, vcols in spec.member_values:
                x = np.where(present, col(vcols[i]), 0).astype(np.int64)
                vals[f"sum{_SEP}{vname}"] = x
                vals[f"sumsq{_SEP}{vname}"] = x * x
            blocks.append(([per_key[k][0][i] for k in keys], vals, present, multi))
        frames[name] = _tidy(_sum_groups(blocks, [per_key[k][1] for k in keys], list(keys)))
    return Counts(spec, frames)


def _sorted_codes(cat: pd.Categorical) -> tuple[np.ndarray, np.ndarray]:
    """``pd.factorize(values, sort=True)``'s view of a categorical's levels: int64 codes
    into its categories in sorted order (-1 missing), the categories as an object array
    (as factorising the decoded text gives them)."""
    c = np.asarray(cat.codes, dtype=np.int64)
    levels = np.asarray(cat.categories, dtype=object)
    order = np.argsort(levels, kind="stable")
    if np.any(order != np.arange(len(order))):
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order), dtype=np.int64)
        c = np.where(c >= 0, rank[np.maximum(c, 0)], -1)
        levels = levels[order]
    return c, levels


def _union(parts: list[tuple[np.ndarray, np.ndarray]]) -> tuple[list[np.ndarray], np.ndarray]:
    """Codes of several columns over their common sorted values (as if concatenated)."""
    if len(parts) == 1:
        return [parts[0][0]], parts[0][1]
    joint, levels = pd.factorize(np.concatenate([u for _, u in parts]), sort=True)
    out, at = [], 0
    for c, u in parts:
        m = joint[at:at + len(u)]
        at += len(u)
        out.append(np.where(c >= 0, m[np.maximum(c, 0)], -1) if len(u) else np.full(len(c), -1))
    return out, np.asarray(levels)


def _bincount(f: np.ndarray, w: np.ndarray | None, size: int) -> np.ndarray:
    """Exact int64 sums of ``w`` (None: ones) per code ``f`` in ``[0, size)``."""
    if w is None:
        return np.bincount(f, minlength=size).astype(np.int64, copy=False)
    if w.dtype == bool:
        return np.bincount(f[w], minlength=size).astype(np.int64, copy=False)
    w = w.astype(np.int64, copy=False)
    if len(w) and int(np.abs(w).max()) * len(w) >= 2 ** 53:  # beyond float64's exact integers
        out = np.zeros(size, dtype=np.int64)
        np.add.at(out, f, w)
        return out
    return np.bincount(f, weights=w, minlength=size).astype(np.int64)


def _sum_groups(blocks, levels: list[np.ndarray], keys: list[str]) -> pd.DataFrame:
    """The frame of ``groupby(keys, sort=True).sum()`` over the rows of ``blocks``, its
    columns in :func:`_tidy`'s order (``games``, ``wins``, then sorted).

    A block is ``(codes, values, present[, multi])``: one code array per key (into
    ``levels[j]``, the key's sorted values; -1 missing), a mapping of value name to array
    (``None``: a row counts 1), a row mask (``None``: all) and optionally a list of
    ``(label, names)``: one code per row into ``names``, the 0/1 columns of a category
    given at once (column ``names[j]`` counts the rows whose code is ``j``; every block
    lists the same names).  A row with a missing key is dropped, as pandas does.  The key
    codes combine into one integer (mixed radix) and each value is summed by
    ``np.bincount`` (exact integers); groups come out in sorted key order."""
    shape = tuple(max(len(u), 1) for u in levels)
    flats, sels = [], []
    for cs, _, present, *_ in blocks:
        keep = np.logical_and.reduce([c >= 0 for c in cs])
        if present is not None:
            keep &= present
        sel = np.flatnonzero(keep)
        flats.append(np.ravel_multi_index([c[sel] for c in cs], shape) if len(cs) > 1
                     else cs[0][sel])
        sels.append(sel)
    multi = blocks[0][3] if len(blocks[0]) > 3 else []
    names = list(blocks[0][1]) + [cn for _, cols in multi for cn in cols]
    names = [v for v in (GAMES, WINS) if v in names] + sorted(v for v in names if v not in (GAMES, WINS))
    if sum(len(s) for s in sels) == 0:  # no rows: pandas' own empty frame
        empty = {k: np.asarray(levels[j]).take(np.empty(0, dtype=np.int64)) for j, k in enumerate(keys)}
        empty.update({v: np.empty(0, dtype=np.int64) for v in names})
        return pd.DataFrame(empty).groupby(keys, sort=True).sum()
    size = int(np.prod(shape))
    ids = None
    if size > max(1 << 20, 4 * sum(len(s) for s in sels)):  # sparse keys: number the groups
        ids, inv = np.unique(np.concatenate(flats), return_inverse=True)
        flats = np.split(inv.reshape(-1), np.cumsum([len(f) for f in flats])[:-1])
        size = len(ids)
    data = {}
    for v in blocks[0][1]:
        tot = np.zeros(size, dtype=np.int64)
        for (_, vals, *_), f, sel in zip(blocks, flats, sels):
            w = vals[v]
            tot += _bincount(f, None if w is None else np.asarray(w)[sel], size)
        data[v] = tot
    for m, (_, cols) in enumerate(multi):
        k = len(cols)
        if size * k > max(1 << 22, 4 * sum(len(s) for s in sels)):  # too many cells at once
            for j, cn in enumerate(cols):
                data[cn] = sum(_bincount(f, block[3][m][0][sel] == j, size)
                               for block, f, sel in zip(blocks, flats, sels))
            continue
        tot = np.zeros(size * k, dtype=np.int64)
        for block, f, sel in zip(blocks, flats, sels):
            tot += _bincount(f * k + block[3][m][0][sel], None, size * k)
        tot = tot.reshape(size, k)
        for j, cn in enumerate(cols):
            data[cn] = tot[:, j]
    rows = sum(_bincount(f, None, size) for f in flats)
    nz = np.flatnonzero(rows)
    at = np.unravel_index(nz if ids is None else ids[nz], shape)
    arrays = [pd.Index(levels[i]).take(at[i]) for i in range(len(keys))]
    index = pd.MultiIndex.from_arrays(arrays, names=keys) if len(keys) > 1 else \
        pd.Index(arrays[0], name=keys[0])
    return pd.DataFrame({v: np.ascontiguousarray(data[v][nz]) for v in names}, index=index)


def _group_sum(cols: dict[str, np.ndarray], keys: list[str]) -> pd.DataFrame:
    """``pd.DataFrame(cols).groupby(keys, sort=True).sum()`` (rows with a missing key
    dropped, as pandas does) with array operations (:func:`_sum_groups`)."""
    parts = [pd.factorize(cols[k], sort=True) for k in keys]
    block = ([np.asarray(c, dtype=np.int64) for c, _ in parts],
             {k: v for k, v in cols.items() if k not in keys}, None)
    return _sum_groups([block], [np.asarray(u) for _, u in parts], keys)


# =========================================================================== tables
class Tables(Mapping[str, pd.DataFrame]):
    """Immutable mapping of table name to DataFrame; names also work as attributes.

    Win-rate tables (``overall``, ``by_<grouping>``) have columns ``games``, ``wins``,
    ``win_rate``, ``ci_low``, ``ci_high``.  Category tables (``<prefix>`` and
    ``<prefix>_by_<grouping>``) are indexed by the grouping's keys and the category value
    and have columns ``games``, ``count``, ``rate``, ``ci_low``, ``ci_high``; for a
    member-valued category in a grouping keyed by the member, the row of a member counts
    the games in which the value was that member.
    """

    def __init__(self, tables: Mapping[str, pd.DataFrame], confidence: float):
        self._tables = dict(tables)
        self.confidence = confidence

    def __getitem__(self, name: str) -> pd.DataFrame:
        return self._tables[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)

    def __getattr__(self, name: str) -> pd.DataFrame:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._tables[name]
        except KeyError:
            raise AttributeError(f"no table {name!r}; tables: {', '.join(self._tables)}") from None

    def __repr__(self) -> str:
        return f"<Tables {', '.join(f'{k} ({len(v)} rows)' for k, v in self._tables.items())}>"

    def equals(self, other: "Tables") -> bool:
        """Same table names and identical contents (exact, NaN equal to NaN)."""
        if list(self) != list(other):
            return False
        try:
            for name in self:
                pd.testing.assert_frame_equal(self[name], other[name], check_exact=True)
        except AssertionError:
            return False
        return True

    def to_text(self, names=None, max_rows: int = 60) -> str:
        return format_tables(self, names, max_rows)


def _win_table(f: pd.DataFrame, confidence: float, label: str = "win") -> pd.DataFrame:
    wins = f"{label}s"
    out = pd.DataFrame({GAMES: f[GAMES].to_numpy(), wins: f[WINS].to_numpy()}, index=f.index)
    r = rate_columns(out[wins], out[GAMES], confidence)
    out[f"{label}_rate"], out["ci_low"], out["ci_high"] = r["rate"], r["ci_low"], r["ci_high"]
    return out


def _mean_table(f: pd.DataFrame, name: str, confidence: float) -> pd.DataFrame:
    """Mean of a per-participant number with a normal-approximation interval."""
    from scipy.special import ndtri

    n = f[GAMES].to_numpy().astype(np.float64)
    s1 = f.get(f"sum{_SEP}{name}", pd.Series(0, index=f.index)).to_numpy().astype(np.float64)
    s2 = f.get(f"sumsq{_SEP}{name}", pd.Series(0, index=f.index)).to_numpy().astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(n > 0, s1 / np.where(n > 0, n, 1), np.nan)
        var = np.where(n > 1, (s2 - n * mean * mean) / np.where(n > 1, n - 1, 1), np.nan)
        half = ndtri(0.5 + 0.5 * confidence) * np.sqrt(np.maximum(var, 0.0) / n)
    return pd.DataFrame({GAMES: f[GAMES].to_numpy(), "mean": mean, "sd": np.sqrt(np.maximum(var, 0)),
                         "ci_low": mean - half, "ci_high": mean + half}, index=f.index)


def _category_table(f: pd.DataFrame, col: str, spec: TableSpec, keys: tuple[str, ...],
                    confidence: float) -> pd.DataFrame:
    prefix = f"{col}{_SEP}"
    value_cols = [c for c in f.columns if c.startswith(prefix)
                  and c[len(prefix):] != spec.none_value]
    if col in spec.member_valued and spec.member in keys:
        members = f.index.get_level_values(spec.member).astype(str)
        count = np.zeros(len(f), dtype=np.int64)
        for c in value_cols:
            hit = members == c[len(prefix):]
            count[hit] = f[c].to_numpy()[hit]
        out = pd.DataFrame({GAMES: f[GAMES].to_numpy(), "count": count}, index=f.index)
    else:
        values = [c[len(prefix):] for c in value_cols]
        n_v = len(values)
        base = f.index if keys else pd.RangeIndex(len(f))
        rows = np.repeat(np.arange(len(f)), n_v)
        counts = f[value_cols].to_numpy().reshape(-1) if n_v else np.zeros(0, np.int64)
        vals = np.tile(np.array(values, dtype=object), len(f))
        if keys:
            key_arrays = [base.get_level_values(i)[rows] for i in range(base.nlevels)]
            idx = pd.MultiIndex.from_arrays(key_arrays + [vals], names=list(keys) + [col])
        else:
            idx = pd.Index(vals, name=col)
        out = pd.DataFrame({GAMES: f[GAMES].to_numpy()[rows], "count": counts.astype(np.int64)},
                           index=idx)
    r = rate_columns(out["count"], out[GAMES], confidence)
    out["rate"], out["ci_low"], out["ci_high"] = r["rate"], r["ci_low"], r["ci_high"]
    return out


def make_tables(counts: Counts, confidence: float = 0.95) -> Tables:
    """Rates and Wilson intervals for every grouping and category of ``counts``."""
    spec = counts.spec
    tables: dict[str, pd.DataFrame] = {}
    for name, keys in spec.groupings:
        label = "win" if spec.by_member(keys) else spec.outcome_label
        tables["overall" if not keys else f"by_{name}"] = _win_table(counts.frames[name], confidence,
                                                                     label)
    for vname, _ in spec.member_values:
        for name, keys in spec.groupings:
            if spec.by_member(keys):
                tables[f"mean_{vname}_by_{name}"] = _mean_table(counts.frames[name], vname, confidence)
    for col, prefix in spec.categories:
        for name, keys in spec.groupings:
            tables[prefix if not keys else f"{prefix}_by_{name}"] = _category_table(
                counts.frames[name], col, spec, keys, confidence)
    return Tables(tables, confidence)


# =========================================================================== text
def ruleset_label(p: Mapping) -> str:
    """A run's ruleset as every game's header and report name it, from its provenance: the
    lineage (a preset, or a preset and the tweak files on it), the fingerprint's first 12
    characters and how many values a tweak changed."""
    lineage = p.get("ruleset_lineage") or str(p.get("ruleset_origin") or "reference")
    changes = p.get("ruleset_changes")
    return (f"{lineage} ({str(p.get('ruleset_fingerprint', ''))[:12]})"
            + (f", {len(changes)} value(s) changed" if changes else ""))


def run_label(p: Mapping) -> str:
    """``ruleset ..., backend ...[, seconds]``: the end of every game's text header."""
    return (f"ruleset {ruleset_label(p)}, backend {p.get('backend')}"
            + (f", {p['elapsed_s']:.1f} s" if p.get("elapsed_s") else ""))


def pct(x: float) -> str:
    """A rate (a fraction) in percent with one decimal: the one precision of every rate
    and interval bound that simlib prints.  A rate above 0 that would round to 0.0 prints
    as ``<0.1``, one below 1 that would round to 100.0 as ``>99.9``: a flat 0.0 or 100.0
    is kept for the rates that are exactly that."""
    if not np.isfinite(x):
        return "   -"
    v = 100 * x
    if 0 < v < 0.05:
        return f"{'<0.1':>5}"
    if 99.95 <= v < 100:
        return f"{'>99.9':>5}"
    return f"{v:5.1f}"


def _display(df: pd.DataFrame, kind: str) -> pd.DataFrame:
    if kind == "mean":
        out = pd.DataFrame({GAMES: df[GAMES], "mean": [f"{x:7.2f}" for x in df["mean"]]},
                           index=df.index)
        out["95% CI"] = [f"[{a:.2f}, {b:.2f}]" for a, b in zip(df["ci_low"], df["ci_high"])]
        return out
    rate = next((c for c in df.columns if c.endswith("_rate")), "rate")
    label = rate[:-len("_rate")] if rate != "rate" else ""
    num = f"{label}s" if label else "count"
    head = f"{label} %" if label else "rate %"
    out = pd.DataFrame({GAMES: df[GAMES], num: df[num]}, index=df.index)
    out[head] = [pct(x) for x in df[rate]]
    out["95% CI"] = [f"[{pct(a).strip()}, {pct(b).strip()}]" for a, b in zip(df["ci_low"], df["ci_high"])]
    return out


def format_tables(tables: Tables, names=None, max_rows: int = 60) -> str:
    """Plain-text rendering (rates in percent with their intervals)."""
    blocks = []
    for name in names or list(tables):
        df = tables[name]
        kind = "mean" if "mean" in df.columns else \
            ("win" if any(c.endswith("_rate") for c in df.columns) else "cat")
        shown = _display(df, kind)
        title = name.replace("_", " ")
        note = ""
        if len(shown) > max_rows:
            note = f"\n  ... {len(shown) - max_rows} more rows (see the saved tables)"
            shown = shown.head(max_rows)
        if isinstance(shown.index, pd.RangeIndex):
            shown.index = ["all"] * len(shown)
        blocks.append(f"== {title} ==\n{shown.to_string()}{note}")
    return "\n\n".join(blocks)


def rate_matrix(table: pd.DataFrame, rows: str, cols: str) -> pd.DataFrame:
    """A two-key rate table as text cells ``"rate [low, high]"`` (percent), ``rows`` x ``cols``.

    Works on win-rate tables (``win_rate``) and category tables (``rate``).
    """
    rate = next((c for c in table.columns if c.endswith("_rate")), "rate")
    if "mean" in table.columns:
        cells = [f"{m:.1f} [{a:.1f}, {b:.1f}]" for m, a, b in
                 zip(table["mean"], table["ci_low"], table["ci_high"])]
        flat = pd.Series(cells, index=table.index)
        return flat.unstack(cols).fillna("")
    cells = [f"{pct(r).strip()} [{pct(a).strip()}, {pct(b).strip()}]"
             for r, a, b in zip(table[rate], table["ci_low"], table["ci_high"])]
    flat = pd.Series(cells, index=table.index)
    other = [n for n in table.index.names if n not in (rows, cols)]
    if other:
        raise ValueError(f"rate_matrix needs a table keyed by exactly {rows!r} and {cols!r}")
    return flat.unstack(cols).reindex(columns=sorted(flat.index.get_level_values(cols).unique())).fillna("")
