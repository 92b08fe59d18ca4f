"""Plots of study results (game-agnostic): rates with their intervals, never bare points.

Every function draws on the matplotlib ``Axes`` given as ``ax=`` (or on a new figure when
``ax`` is None) and returns that Axes, so analysts can compose figures and the HTML
report (:mod:`simlib.core.report`) draws the very same pictures.

Inputs are the frames of :class:`simlib.core.tables.Tables` (rates in ``[0, 1]`` with
``ci_low``/``ci_high`` columns), or plain DataFrames with named columns for the generic
figures of comparisons, sweeps and sensitivity studies.  Rates are drawn in percent.

``RunResult.plot`` (:class:`ResultPlots`) picks the right tables of a result::

    res.plot.win_rates()     # per player count, 95 % interval bars
    res.plot.heatmap()       # character x player count, interval in each cell
    res.plot.survival()      # share of games still going after each round
    res.plot.loss_causes()   # how games are lost, by round
    res.plot.deaths()        # how often each character is the one who dies
    res.plot.game_length()   # distribution of the round a game ends in
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .stats import wilson_interval

__all__ = ["PlotUnavailable", "integer_ticks", "win_rates", "heatmap", "survival", "survival_frame", "loss_causes",
           "rate_bars", "game_length", "paired_differences", "curve_band", "ranked_bars",
           "ResultPlots"]

PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
           "#e377c2", "#7f7f7f", "#bcbd22"]


class PlotUnavailable(ValueError):
    """The result does not hold what a figure needs (the message says what is missing)."""


def _axes(ax, figsize=(6.4, 4.0)):
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=figsize, layout="constrained")
    return ax


def _rate_col(table: pd.DataFrame) -> str:
    if "win_rate" in table.columns:
        return "win_rate"
    if "rate" in table.columns:
        return "rate"
    raise ValueError("expected a rate table (column 'win_rate' or 'rate', with 'ci_low' and "
                     "'ci_high')")


# More round labels than this overlap on a report's figure (Mort's games last up to 40
# rounds): beyond it, matplotlib picks a few whole rounds.
MAX_ROUND_TICKS = 15


def integer_ticks(ax, axis: str = "x", values=None) -> None:
    """Whole-number ticks on ``axis`` (no 8.5 for a parameter that takes whole values);
    with ``values``, only when every one of them is a whole number."""
    from matplotlib.ticker import MaxNLocator

    if values is not None:
        v = np.asarray(values, dtype=float)
        if not (np.isfinite(v).all() and (v == np.round(v)).all()):
            return
    (ax.xaxis if axis == "x" else ax.yaxis).set_major_locator(MaxNLocator(integer=True))


def _rounds_axis(ax, rounds, xlabel: str, ylabel: str, title: str | None):
    """Finish a bar chart of shares by round: ticks, labels, percent axis, grid, legend."""
    rounds = list(rounds)
    if len(rounds) <= MAX_ROUND_TICKS:
        ax.set_xticks(rounds)
    else:
        integer_ticks(ax)
        ax.set_xlim(rounds[0] - 0.6, rounds[-1] + 0.6)  # no tick at round 0
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    _pct_axis(ax)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8, frameon=False)
    if title:
        ax.set_title(title)
    return ax


def _pct_axis(ax, axis: str = "y") -> None:
    from matplotlib.ticker import FuncFormatter

    fmt = FuncFormatter(lambda v, _: f"{v:g} %")
    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(fmt)


def _err(rate, low, high) -> np.ndarray:
    """Asymmetric error bars (2, n) in percent; NaN intervals draw no bar."""
    r, lo, hi = (100 * np.asarray(v, dtype=float) for v in (rate, low, high))
    return np.nan_to_num(np.vstack([r - lo, hi - r]), nan=0.0).clip(min=0)


# =========================================================================== result figures
def win_rates(table: pd.DataFrame, ax=None, *, title: str | None = None,
              xlabel: str | None = None, color: str = PALETTE[0]):
    """Rate per group (one index level) as points with interval bars.

    Parameters
    ----------
    table : DataFrame indexed by one key (e.g. ``tables.by_players``)
        Columns ``win_rate`` (or ``rate``), ``ci_low``, ``ci_high`` in [0, 1].
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
        One errorbar container with ``len(table)`` points.
    """
    ax = _axes(ax)
    rate = _rate_col(table)
    labels = [str(v) for v in table.index]
    x = np.arange(len(table))
    y = 100 * table[rate].to_numpy(dtype=float)
    ax.errorbar(x, y, yerr=_err(table[rate], table["ci_low"], table["ci_high"]), fmt="o",
                color=color, ecolor=color, capsize=5, markersize=6, linewidth=1.5)
    for xi, yi in zip(x, y):
        if np.isfinite(yi):
            ax.annotate(f"{yi:.1f} %", (xi, yi), textcoords="offset points", xytext=(9, 0),
                        va="center", fontsize=8)
    ax.set_xticks(x, labels)
    ax.set_xlim(-0.6, len(table) - 0.4)
    ax.set_xlabel(xlabel if xlabel is not None else (table.index.name or ""))
    ax.set_ylabel("win rate" if rate == "win_rate" else "rate")
    ax.set_ylim(bottom=0, top=max(1.0, 1.15 * float(np.nanmax(100 * table["ci_high"].to_numpy(
        dtype=float), initial=0.0))))
    _pct_axis(ax)
    ax.grid(axis="y", alpha=0.3)
    if title:
        ax.set_title(title)
    return ax


def heatmap(table: pd.DataFrame, rows: str, cols: str, ax=None, *, title: str | None = None,
            cmap: str = "viridis"):
    """A two-key rate table as a colour grid with ``rate [low, high]`` written in each cell.

    Parameters
    ----------
    table : DataFrame indexed by (at least) ``rows`` and ``cols``
        e.g. ``tables.by_character_players``.
    rows, cols : str
        Index levels drawn as rows and columns.

    Returns
    -------
    matplotlib.axes.Axes
        One image and one text per non-empty cell.
    """
    ax = _axes(ax, figsize=(6.4, 0.55 * 8 + 1.2))
    rate = _rate_col(table)
    names = list(table.index.names)
    if sorted(n for n in names) != sorted([rows, cols]):
        raise ValueError(f"heatmap needs a table keyed by exactly {rows!r} and {cols!r}; "
                         f"got {names}")
    flat = table[[rate, "ci_low", "ci_high"]]
    grid = {c: flat[c].unstack(cols) for c in flat.columns}
    m = 100 * grid[rate].to_numpy(dtype=float)
    lo = 100 * grid["ci_low"].to_numpy(dtype=float)
    hi = 100 * grid["ci_high"].to_numpy(dtype=float)
    finite = m[np.isfinite(m)]
    vmax = max(float(finite.max()) if finite.size else 0.0, 1.0)  # at least 1 %: all-zero grids
    im = ax.imshow(np.ma.masked_invalid(m), cmap=cmap, vmin=0.0, vmax=vmax, aspect="auto")
    import matplotlib as mpl

    norm_cmap = mpl.colormaps[cmap]
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if not np.isfinite(m[i, j]):
                continue
            rgba = norm_cmap(m[i, j] / vmax if vmax > 0 else 0.0)
            light = 0.299 * rgba[0] + 0.587 * rgba[1] + 0.114 * rgba[2] > 0.55
            ax.text(j, i, f"{_fmt(m[i, j])} %\n[{_fmt(lo[i, j])}, {_fmt(hi[i, j])}]",
                    ha="center", va="center", fontsize=7.5, color="black" if light else "white")
    ax.set_xticks(range(m.shape[1]), [str(c) for c in grid[rate].columns])
    ax.set_yticks(range(m.shape[0]), [str(r) for r in grid[rate].index])
    ax.set_xlabel(cols)
    ax.set_ylabel(rows)
    cb = ax.figure.colorbar(im, ax=ax, fraction=0.05, pad=0.02)
    cb.set_label("win rate, %" if rate == "win_rate" else "rate, %")
    if title:
        ax.set_title(title)
    return ax


def _fmt(v: float) -> str:
    """A percent number as the text tables print it (one decimal, ``<0.1`` near 0)."""
    from .tables import pct

    return pct(v / 100).strip()


def survival_frame(table: pd.DataFrame, group: str, round_: str,
                   confidence: float = 0.95, rounds: int | None = None) -> pd.DataFrame:
    """Share of games still going after each round, per group, with Wilson intervals.

    Parameters
    ----------
    table : DataFrame indexed by (``group``, ``round_``) with columns ``games`` and ``wins``
        Games that ended in each round (e.g. ``tables.by_players_round``).  A lost game
        stops in its round; a won game survives it.
    rounds : int, optional
        Rounds of the game (the curve goes on to it even if no game got that far).

    Returns
    -------
    DataFrame
        Columns ``group``, ``round`` (0 = before the first round .. last round),
        ``games``, ``going`` (games still going after that round), ``share``,
        ``ci_low``, ``ci_high``.
    """
    if table is None or len(table) == 0:
        raise PlotUnavailable("no round counts in this result")
    f = table[["games", "wins"]].reset_index()
    last = max(int(f[round_].max()), int(rounds or 0))
    rows = []
    for g, sub in f.groupby(group, sort=True):
        n = int(sub["games"].sum())
        lost = (sub["games"] - sub["wins"]).groupby(sub[round_]).sum()
        lost = lost.reindex(range(0, last + 1), fill_value=0)
        going = n - np.cumsum(lost.to_numpy())
        lo, hi = wilson_interval(going, np.full_like(going, n), confidence)
        for r in range(last + 1):
            rows.append({"group": g, "round": r, "games": n, "going": int(going[r]),
                         "share": going[r] / n if n else np.nan, "ci_low": lo[r], "ci_high": hi[r]})
    return pd.DataFrame(rows)


def survival(table: pd.DataFrame, group: str, round_: str, ax=None, *,
             title: str | None = None, rounds: int | None = None):
    """Survival curves: the share of games still going after each round, one line per group,
    with its 95 % interval as a band.

    Returns
    -------
    matplotlib.axes.Axes
        One line (and one band) per group.
    """
    ax = _axes(ax)
    s = survival_frame(table, group, round_, rounds=rounds)
    for k, (g, sub) in enumerate(s.groupby("group", sort=True)):
        c = PALETTE[k % len(PALETTE)]
        ax.plot(sub["round"], 100 * sub["share"], marker="o", markersize=3.5, color=c,
                label=f"{g} {group}")
        ax.fill_between(sub["round"], 100 * sub["ci_low"], 100 * sub["ci_high"], color=c,
                        alpha=0.18, linewidth=0)
    last = int(s["round"].max())
    ax.set_xticks(range(last + 1), ["start"] + [str(r) for r in range(1, last + 1)])
    ax.set_xlabel("after round")
    ax.set_ylabel("games still going")
    ax.set_ylim(0, 102)
    _pct_axis(ax)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, frameon=False)
    if title:
        ax.set_title(title)
    return ax


def loss_causes(table: pd.DataFrame, round_: str, cause: str, ax=None, *,
                title: str | None = None, rounds: int | None = None):
    """How games are lost, by round: stacked bars of the share of all games lost in each
    round, one colour per cause.

    Parameters
    ----------
    table : category table indexed by (..., ``round_``, ``cause``) with ``games``, ``count``
        e.g. ``tables.loss_causes_by_players_round``; other index levels are summed over.

    Returns
    -------
    matplotlib.axes.Axes
        ``n_rounds * n_causes`` bar patches.
    """
    if table is None or len(table) == 0:
        raise PlotUnavailable("no loss causes by round in this result")
    ax = _axes(ax)
    counts = table["count"].groupby(level=[round_, cause]).sum().unstack(cause, fill_value=0)
    # every game counts once per round row it ended in: total games = sum of per-row games
    games = table["games"].groupby(level=[lv for lv in table.index.names if lv != cause]).first().sum()
    last = max(int(max(counts.index)), int(rounds or 0))
    counts = counts.reindex(range(1, last + 1), fill_value=0)
    bottom = np.zeros(len(counts))
    for k, c in enumerate(counts.columns):
        h = 100 * counts[c].to_numpy(dtype=float) / games
        ax.bar(counts.index, h, bottom=bottom, color=PALETTE[k % len(PALETTE)], label=str(c),
               width=0.75)
        bottom += h
    return _rounds_axis(ax, counts.index, "round in which the game was lost",
                        "share of all games", title)


def rate_bars(table: pd.DataFrame, ax=None, *, title: str | None = None,
              xlabel: str = "rate", sort: bool = True, color: str = PALETTE[1]):
    """One horizontal bar per row (one index level) with its interval, highest on top
    (e.g. ``tables.deaths_by_character``: how often each character is the one who dies).

    Returns
    -------
    matplotlib.axes.Axes
        ``len(table)`` bar patches.
    """
    ax = _axes(ax)
    rate = _rate_col(table)
    t = table.sort_values(rate, ascending=True) if sort else table.iloc[::-1]
    y = np.arange(len(t))
    ax.barh(y, 100 * t[rate].to_numpy(dtype=float), xerr=_err(t[rate], t["ci_low"], t["ci_high"]),
            color=color, alpha=0.8, capsize=3, error_kw={"elinewidth": 1})
    ax.set_yticks(y, [str(v) for v in t.index])
    ax.set_xlabel(xlabel)
    _pct_axis(ax, "x")
    ax.grid(axis="x", alpha=0.3)
    if title:
        ax.set_title(title)
    return ax


def game_length(table: pd.DataFrame, group: str, round_: str, ax=None, *,
                title: str | None = None, rounds: int | None = None):
    """Distribution of the round a game ends in (won games end in the last round), grouped
    bars per group.

    Parameters
    ----------
    table : DataFrame indexed by (``group``, ``round_``) with column ``games``

    Returns
    -------
    matplotlib.axes.Axes
        ``n_groups * n_rounds`` bar patches.
    """
    if table is None or len(table) == 0:
        raise PlotUnavailable("no round counts in this result")
    ax = _axes(ax)
    g = table["games"].unstack(group, fill_value=0)
    last = max(int(max(g.index)), int(rounds or 0))
    g = g.reindex(range(1, last + 1), fill_value=0)
    share = 100 * g / g.sum(axis=0)
    k = len(share.columns)
    width = 0.8 / max(k, 1)
    for j, c in enumerate(share.columns):
        ax.bar(share.index + (j - (k - 1) / 2) * width, share[c].to_numpy(dtype=float), width=width,
               color=PALETTE[j % len(PALETTE)], label=f"{c} {group}")
    return _rounds_axis(ax, share.index, "round in which the game ended", "share of games", title)


# =========================================================================== generic figures
def _need(df: pd.DataFrame, cols) -> None:
    missing = [c for c in cols if c is not None and c not in df.columns]
    if missing:
        raise ValueError(f"missing column(s) {', '.join(map(repr, missing))}; have "
                         f"{', '.join(map(str, df.columns))}")


def paired_differences(df: pd.DataFrame, ax=None, *, label: str = "label", diff: str = "diff",
                       low: str = "ci_low", high: str = "ci_high", title: str | None = None,
                       xlabel: str = "difference in win rate (percentage points)",
                       scale: float = 100.0):
    """Paired differences (variant minus base) as points with intervals, a line at zero.

    Intervals that exclude zero are drawn in colour, the others in grey.

    Parameters
    ----------
    df : DataFrame, one row per comparison
        Columns ``label``, ``diff``, ``low``, ``high`` (fractions; ``scale`` turns them
        into the unit of ``xlabel``, 100 = percentage points).

    Returns
    -------
    matplotlib.axes.Axes
        One errorbar container per row.
    """
    _need(df, [label, diff, low, high])
    ax = _axes(ax, figsize=(6.4, 0.45 * len(df) + 1.4))
    y = np.arange(len(df))[::-1]
    for yi, (_, row) in zip(y, df.iterrows()):
        d, lo, hi = (scale * float(row[c]) for c in (diff, low, high))
        sig = lo > 0 or hi < 0
        c = (PALETTE[2] if d > 0 else PALETTE[1]) if sig else "#777777"
        ax.errorbar([d], [yi], xerr=[[max(d - lo, 0)], [max(hi - d, 0)]], fmt="o", color=c,
                    capsize=4)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(y, [str(v) for v in df[label]])
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    if title:
        ax.set_title(title)
    return ax


def curve_band(df: pd.DataFrame, ax=None, *, x: str = "x", y: str = "y", low: str | None = "ci_low",
               high: str | None = "ci_high", group: str | None = None,
               target: float | None = None, title: str | None = None, xlabel: str | None = None,
               ylabel: str = "win rate", scale: float = 100.0):
    """A curve with its interval band (sweeps, calibration), one line per ``group``;
    ``target`` draws a dashed horizontal line (a calibration target, same unit as ``y``).

    Returns
    -------
    matplotlib.axes.Axes
        One line per group (plus the target line).
    """
    _need(df, [x, y, low, high, group])
    ax = _axes(ax)
    groups = [(None, df)] if group is None else list(df.groupby(group, sort=True))
    for k, (g, sub) in enumerate(groups):
        sub = sub.sort_values(x)
        c = PALETTE[k % len(PALETTE)]
        ax.plot(sub[x], scale * sub[y], marker="o", markersize=4, color=c,
                label=None if g is None else f"{group} {g}")
        if low is not None and high is not None:
            ax.fill_between(sub[x], scale * sub[low], scale * sub[high], color=c, alpha=0.2,
                            linewidth=0)
    if target is not None:
        ax.axhline(scale * target, color="black", linestyle="--", linewidth=1, label="target")
    ax.set_xlabel(xlabel or x)
    ax.set_ylabel(ylabel)
    integer_ticks(ax, "x", df[x])
    if scale == 100.0:
        _pct_axis(ax)
    ax.grid(alpha=0.3)
    if group is not None or target is not None:
        ax.legend(fontsize=8, frameon=False)
    if title:
        ax.set_title(title)
    return ax


def ranked_bars(df: pd.DataFrame, ax=None, *, label: str = "label", value: str = "value",
                low: str | None = None, high: str | None = None, top: int | None = None,
                title: str | None = None, xlabel: str = "effect on win rate (percentage points)",
                scale: float = 100.0):
    """Ranked horizontal bars (sensitivity): largest ``|value|`` on top, optional intervals.

    Returns
    -------
    matplotlib.axes.Axes
        One bar patch per row shown (``top`` rows at most).
    """
    _need(df, [label, value, low, high])
    ax = _axes(ax, figsize=(6.4, 0.4 * min(len(df), top or len(df)) + 1.4))
    t = df.reindex(df[value].abs().sort_values(ascending=False, kind="stable").index)
    if top is not None:
        t = t.head(top)
    t = t.iloc[::-1]
    v = scale * t[value].to_numpy(dtype=float)
    err = None
    if low is not None and high is not None:
        err = _err(t[value] * scale / 100, t[low] * scale / 100, t[high] * scale / 100)
    colors = [PALETTE[2] if e >= 0 else PALETTE[1] for e in v]
    ax.barh(np.arange(len(t)), v, xerr=err, color=colors, alpha=0.85, capsize=3)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(np.arange(len(t)), [str(s) for s in t[label]])
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    if title:
        ax.set_title(title)
    return ax


# =========================================================================== result accessor
class ResultPlots:
    """``result.plot``: the standard figures of a study (each returns the Axes; ``ax=``)."""

    def __init__(self, result):
        self._result = result

    # -- which tables: named by the result's table spec
    @property
    def _spec(self):
        return self._result.counts.spec

    def _table(self, keys: tuple[str, ...], prefix: str | None = None) -> pd.DataFrame:
        name = self._spec.grouping_of(keys)
        if name is None:
            raise PlotUnavailable(f"this result has no table keyed by {', '.join(keys)}")
        t = self._result.tables[f"by_{name}" if prefix is None else f"{prefix}_by_{name}"]
        if len(t) == 0:
            raise PlotUnavailable(
                f"this result holds no counts by {' x '.join(keys)} (a run saved before simlib "
                "counted them; re-run it or keep the per-game records)")
        if self._spec.member not in keys:
            counted = int(self._result.counts.frames[name]["games"].sum())
            if counted != self._result.games:  # chunks resumed from an older simlib
                raise PlotUnavailable(
                    f"the counts by {' x '.join(keys)} cover {counted:,} of the "
                    f"{self._result.games:,} games (part of the run was saved before simlib "
                    "counted them); re-run it to draw this figure")
        return t

    def _primary(self) -> str:
        if not self._spec.primary:
            raise PlotUnavailable("the result's table spec names no primary key")
        return self._spec.primary

    def _round(self) -> str:
        if not self._spec.round:
            raise PlotUnavailable("the result's table spec names no round column")
        return self._spec.round

    def _rounds(self) -> int | None:
        """Rounds of the game, when the run recorded them (``provenance["rounds"]``)."""
        r = self._result.provenance.get("rounds")
        return int(r) if isinstance(r, (int, np.integer)) and r > 0 else None

    def _category(self, member_valued: bool) -> tuple[str, str]:
        for col, prefix in self._spec.categories:
            if (col in self._spec.member_valued) == member_valued:
                return col, prefix
        raise PlotUnavailable("no such category in this result")

    # -- the figures
    def win_rates(self, ax=None, **kw):
        """Win rate per player count (the primary key) with interval bars."""
        p = self._primary()
        kw.setdefault("title", f"win rate by {p} (95 % intervals)")
        return win_rates(self._table((p,)), ax, **kw)

    def heatmap(self, ax=None, **kw):
        """Win rate per character x player count, the interval written in each cell."""
        p, m = self._primary(), self._spec.member
        kw.setdefault("title", f"win rate by {m} and {p}")
        return heatmap(self._table((m, p)), m, p, ax, **kw)

    def survival(self, ax=None, **kw):
        """Share of games still going after each round, per player count."""
        p, r = self._primary(), self._round()
        kw.setdefault("title", "games still going after each round")
        kw.setdefault("rounds", self._rounds())
        return survival(self._table((p, r)), p, r, ax, **kw)

    def loss_causes(self, ax=None, **kw):
        """How games are lost, by round (stacked shares of all games)."""
        p, r = self._primary(), self._round()
        col, prefix = self._category(member_valued=False)
        kw.setdefault("title", "when and how games are lost")
        kw.setdefault("rounds", self._rounds())
        return loss_causes(self._table((p, r), prefix), r, col, ax, **kw)

    def deaths(self, ax=None, **kw):
        """How often each character is the one who dies (of the games it played)."""
        m = self._spec.member
        _, prefix = self._category(member_valued=True)
        t = self._result.tables[f"{prefix}_by_{self._spec.grouping_of((m,))}"]
        kw.setdefault("title", f"games in which the {m} died")
        kw.setdefault("xlabel", f"share of the {m}'s games")
        return rate_bars(t, ax, **kw)

    def game_length(self, ax=None, **kw):
        """Distribution of the round in which games end, per player count."""
        p, r = self._primary(), self._round()
        kw.setdefault("title", "game length")
        kw.setdefault("rounds", self._rounds())
        return game_length(self._table((p, r)), p, r, ax, **kw)

    FIGURES: tuple[str, ...] = ("win_rates", "heatmap", "survival", "loss_causes", "deaths",
                                "game_length")

    def __repr__(self) -> str:
        return f"<ResultPlots: {', '.join(f'.{f}()' for f in self.FIGURES)}>"

