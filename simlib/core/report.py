"""One self-contained HTML report of a study (game-agnostic).

A :class:`Report` is a title, a headline and a list of :class:`Section` s; a section holds
blocks: figures (matplotlib, embedded as SVG ``data:`` URIs), tables (optionally sortable
by a few lines of inline script), notes.  :meth:`Report.write` renders the jinja2 template
shipped in ``simlib/core/templates/`` and writes the file atomically.  The page needs no
network: no external script, style sheet, font or image.

* :func:`study_report` builds the standard report of a :class:`~simlib.core.runner.RunResult`
  (win rates, characters, survival, loss causes, deaths, game length, teams, provenance).
* Section builders for other studies, each a figure and its table from a plain DataFrame:
  :func:`paired_differences_section` (comparisons), :func:`curve_section` (sweeps,
  calibration), :func:`ranked_bars_section` (sensitivity); add them with
  ``report.add(...)``.

>>> rep = study_report(res, command="simlib simulate --html r.html")
>>> rep.add(paired_differences_section(diffs, title="Variant minus reference"))
>>> rep.write("r.html")
"""
from __future__ import annotations

import base64
import datetime as _dt
import io
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import pandas as pd

from . import plots
from .plots import PlotUnavailable
from .tables import pct

__all__ = ["Report", "Section", "ReportError", "Column", "Cell", "TableBlock", "FigureBlock",
           "Unavailable", "Note", "figure_block", "rate_table", "frame_table",
           "paired_differences_section", "curve_section", "ranked_bars_section",
           "study_report", "incomplete_warnings", "provenance_section",
           "game_report", "rate_interval", "tie_headline", "seat_section", "strategy_section",
           "mean_points_section", "effects_section", "format_value", "write_study_report",
           "check_output_path"]

TEMPLATE = "report.html.j2"
TEMPLATE_DIR = Path(__file__).with_name("templates")


class ReportError(ValueError):
    """The report cannot be written as asked (bad path...); nothing was written."""


# =========================================================================== blocks
@dataclass(frozen=True)
class Column:
    key: str
    title: str
    numeric: bool = False


@dataclass(frozen=True)
class Cell:
    """``text`` is shown; ``value`` (full precision) is what the table sorts by."""

    text: str
    value: str
    numeric: bool = False


@dataclass(frozen=True)
class TableBlock:
    columns: tuple[Column, ...]
    rows: tuple[tuple[Cell, ...], ...]
    caption: str = ""
    sortable: bool = False
    id: str = ""
    kind: str = "table"


@dataclass(frozen=True)
class FigureBlock:
    src: str  # data: URI
    alt: str
    width: int
    height: int
    caption: str = ""
    kind: str = "figure"


@dataclass(frozen=True)
class Unavailable:
    """A figure the result cannot draw, with the reason shown in its place."""

    alt: str
    message: str
    kind: str = "unavailable"


@dataclass(frozen=True)
class Note:
    text: str
    kind: str = "note"


@dataclass
class Section:
    """A titled part of the report; ``id`` is its anchor (made from the title if empty)."""

    title: str
    blocks: list = field(default_factory=list)
    intro: str = ""
    id: str = ""

    def __post_init__(self) -> None:
        if not self.id:
            self.id = re.sub(r"[^a-z0-9]+", "-", self.title.lower()).strip("-") or "section"

    def add(self, block) -> "Section":
        self.blocks.append(block)
        return self


# =========================================================================== figures
_SVG_RC = {"svg.hashsalt": "simlib", "svg.fonttype": "path", "font.size": 9}


def figure_block(draw: Callable, *, alt: str, figsize: tuple[float, float] = (7.0, 4.0),
                 caption: str = ""):
    """Draw ``draw(ax)`` on a new figure and embed it as an SVG ``data:`` URI.

    A :class:`~simlib.core.plots.PlotUnavailable` raised by ``draw`` gives an
    :class:`Unavailable` block saying why (the rest of the report still renders).
    """
    import matplotlib
    from matplotlib.figure import Figure

    with matplotlib.rc_context(_SVG_RC):
        fig = Figure(figsize=figsize, layout="constrained")
        ax = fig.add_subplot()
        try:
            draw(ax)
        except PlotUnavailable as exc:
            return Unavailable(alt, str(exc))
        buf = io.BytesIO()
        fig.savefig(buf, format="svg", metadata={"Date": None})
    data = base64.b64encode(buf.getvalue()).decode("ascii")
    return FigureBlock(src=f"data:image/svg+xml;base64,{data}", alt=alt,
                       width=int(round(figsize[0] * 96)), height=int(round(figsize[1] * 96)),
                       caption=caption)


# =========================================================================== tables
def _value(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v)).lower()
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if isinstance(v, (float, np.floating)):
        return "" if not np.isfinite(v) else repr(float(v))
    return str(v)


def _text(v: Any, decimals: int | None = None) -> str:
    if v is None or (isinstance(v, (float, np.floating)) and not np.isfinite(v)):
        return "–"
    if isinstance(v, (float, np.floating)):
        return f"{float(v):.4g}" if decimals is None else f"{float(v):,.{decimals}f}"
    if isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_)):
        return f"{int(v):,}"
    return str(v)


def _decimals(values) -> int | None:
    """One number of decimals for a float column (the most that 4 significant digits of
    any of its values need, at most 4), so that 33 and 33.15 print as 33.00 and 33.15."""
    most = None
    for v in values:
        if isinstance(v, (float, np.floating)) and np.isfinite(v):
            t = f"{float(v):.4g}"
            d = 0 if "e" in t or "." not in t else len(t.split(".")[1])
            most = d if most is None else max(most, d)
    return None if most is None else min(most, 4)


# A number as the tables print one: 1,234 / -0.84 / +8.2 / 58.2 % / <0.1 / 7.24 [6.99, 7.49]
_NUMBER = re.compile(r"^[+\-−<>]?\d[\d,]*(\.\d+)?( ?%)?( \[[^\]]*\])?$")


def _looks_numeric(text: str) -> bool:
    return bool(_NUMBER.match(text.strip()))


def _cell(v: Any, text: str | None = None, decimals: int | None = None) -> Cell:
    numeric = isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, (bool, np.bool_))
    return Cell(_text(v, decimals) if text is None else text, _value(v), numeric)


def _pct_cell(x: float) -> Cell:
    return Cell(pct(x).strip() if np.isfinite(x) else "–", _value(x), True)


def rate_table(table: pd.DataFrame, *, caption: str = "", sortable: bool = False, id: str = "",
               sort: bool = False, extra: Mapping[str, pd.DataFrame] | None = None) -> TableBlock:
    """A rate table of :class:`~simlib.core.tables.Tables` as an HTML table block.

    Columns: the index levels, ``games``, ``wins`` (or ``count``), the rate in percent and
    its interval bounds; ``extra`` adds, per title, the rate and interval of another table
    with the same index (e.g. ``{"died": tables.deaths_by_character}``).  Each cell's
    ``data-value`` holds the full-precision number (the shown text rounds as the text
    tables do).
    """
    rate = "win_rate" if "win_rate" in table.columns else "rate"
    num = "wins" if rate == "win_rate" else "count"
    t = table.sort_values([rate, "games"], ascending=False) if sort else table
    whole_run = t.index.nlevels == 1 and t.index.name is None  # e.g. ``overall``
    names = [] if whole_run else [n or "group" for n in t.index.names]
    cols = [Column(n, n) for n in names] + [
        Column("games", "games", True), Column(num, num, True),
        Column(rate, "win %" if rate == "win_rate" else "rate %", True),
        Column("ci_low", "95 % CI low", True), Column("ci_high", "95 % CI high", True)]
    extra = dict(extra or {})
    for title in extra:
        cols += [Column(f"{title}_rate", f"{title} %", True),
                 Column(f"{title}_ci_low", f"{title}: 95 % CI low", True),
                 Column(f"{title}_ci_high", f"{title}: 95 % CI high", True)]
    rows = []
    for idx, r in zip(t.index, t.itertuples(index=False)):
        keys = [] if not names else (list(idx) if isinstance(idx, tuple) else [idx])
        row = [_cell(k) for k in keys]
        d = r._asdict()
        row += [_cell(int(d["games"])), _cell(int(d[num])), _pct_cell(d[rate]),
                _pct_cell(d["ci_low"]), _pct_cell(d["ci_high"])]
        for other in extra.values():
            o = other.loc[idx] if idx in other.index else None
            orate = "win_rate" if "win_rate" in other.columns else "rate"
            row += ([_pct_cell(float(o[orate])), _pct_cell(float(o["ci_low"])),
                     _pct_cell(float(o["ci_high"]))] if o is not None
                    else [_cell(None), _cell(None), _cell(None)])
        rows.append(tuple(row))
    return TableBlock(*_aligned(cols, rows), caption, sortable, id)


def frame_table(df: pd.DataFrame, *, percent: Sequence[str] = (), caption: str = "",
                sortable: bool = True, id: str = "", titles: Mapping[str, str] | None = None,
                index: bool = False) -> TableBlock:
    """Any DataFrame as a table block; ``percent`` columns (fractions) shown in percent."""
    if index:  # an unnamed index level gets an empty title, not pandas' "index"
        f = df.rename_axis([n if n is not None else "" for n in df.index.names]).reset_index()
    else:
        f = df
    titles = dict(titles or {})
    decimals = {c: _decimals(f[c]) for c in f.columns if c not in percent}
    rows = []
    for r in f.itertuples(index=False):
        row = []
        for c, v in zip(f.columns, r):
            if c in percent:
                row.append(_pct_cell(float(v)))
            elif isinstance(v, str):  # text made by the caller: numbers stay numbers
                row.append(Cell(v.strip(), v.strip(), _looks_numeric(v)))
            else:
                row.append(_cell(v, decimals=decimals[c]))
        rows.append(tuple(row))
    cols = [Column(str(c), titles.get(c, str(c)) + (" %" if c in percent and c not in titles
                                                     else "")) for c in f.columns]
    return TableBlock(*_aligned(cols, rows), caption, sortable, id)


def _aligned(cols, rows) -> tuple[tuple[Column, ...], tuple[tuple[Cell, ...], ...]]:
    """A column is numeric or text as a whole: numeric (right-aligned, title too) when
    every cell it shows is a number, e.g. the survivors alive "0" .. "4" of a category,
    or a player count with its pooled row "all"; its cells then align with its title."""
    out = []
    for k, c in enumerate(cols):
        shown = [row[k] for row in rows if row[k].text not in ("", "–", "all")]
        numeric = bool(shown) and all(cell.numeric or _looks_numeric(cell.text) for cell in shown)
        out.append(Column(c.key, c.title, numeric))
    rows = tuple(tuple(Cell(cell.text, cell.value, col.numeric) for cell, col in zip(row, out))
                 for row in rows)
    return tuple(out), rows


# =========================================================================== generic sections
def paired_differences_section(df: pd.DataFrame, *, title: str = "Paired differences",
                               label: str = "label", diff: str = "diff", low: str = "ci_low",
                               high: str = "ci_high", intro: str = "", id: str = "",
                               xlabel: str = "difference in win rate (percentage points)") -> Section:
    """Comparisons: each row a paired difference (fraction) with its interval; a figure
    (points, intervals, zero line) and the table of every column of ``df``."""
    if len(df) == 0:
        raise ReportError("paired_differences_section: no rows")
    intro = intro or ("Each line is a difference between two variants played on the same games "
                      "(common random numbers), with its 95 % interval; an interval that "
                      "crosses zero means the study cannot tell the two apart.")
    fig = figure_block(lambda ax: plots.paired_differences(df, ax, label=label, diff=diff, low=low,
                                                           high=high, xlabel=xlabel),
                       alt=title, figsize=(7.0, 0.45 * len(df) + 1.5))
    pct_cols = [c for c in (diff, low, high)]
    return Section(title, [fig, frame_table(df, percent=pct_cols, titles={
        diff: "difference (points)", low: "95 % CI low", high: "95 % CI high"})], intro, id)


def curve_section(df: pd.DataFrame, *, title: str = "Sweep", x: str = "x", y: str = "y",
                  low: str | None = "ci_low", high: str | None = "ci_high",
                  group: str | None = None, target: float | None = None, intro: str = "",
                  id: str = "", ylabel: str = "win rate") -> Section:
    """Sweeps and calibration: ``y`` (a rate) against ``x`` with its interval band, one
    line per ``group``, an optional ``target`` line; then the table of ``df``."""
    if len(df) == 0:
        raise ReportError("curve_section: no rows")
    fig = figure_block(lambda ax: plots.curve_band(df, ax, x=x, y=y, low=low, high=high,
                                                   group=group, target=target, ylabel=ylabel),
                       alt=title)
    pct_cols = [c for c in (y, low, high) if c is not None]
    return Section(title, [fig, frame_table(df, percent=pct_cols)], intro, id)


def ranked_bars_section(df: pd.DataFrame, *, title: str = "Sensitivity", label: str = "label",
                        value: str = "value", low: str | None = None, high: str | None = None,
                        top: int | None = 20, intro: str = "", id: str = "",
                        xlabel: str = "effect on win rate (percentage points)") -> Section:
    """Sensitivity: one bar per parameter, ranked by ``|value|`` (a fraction), optional
    intervals; then the table (sorted the same way)."""
    if len(df) == 0:
        raise ReportError("ranked_bars_section: no rows")
    shown = min(len(df), top or len(df))
    fig = figure_block(lambda ax: plots.ranked_bars(df, ax, label=label, value=value, low=low,
                                                    high=high, top=top, xlabel=xlabel),
                       alt=title, figsize=(7.0, 0.4 * shown + 1.5))
    ranked = df.reindex(df[value].abs().sort_values(ascending=False, kind="stable").index)
    pct_cols = [c for c in (value, low, high) if c is not None]
    return Section(title, [fig, frame_table(ranked, percent=pct_cols)], intro, id)


# =========================================================================== report
_CODE = re.compile(r"`([^`]+)`")


def inline_markup(text: Any):
    """Text for the page, escaped: ```x``` becomes ``<code>x</code>`` (no literal backticks
    on the page), and a long name joined by ``+`` (a team, a table of strategies) may
    break after each ``+`` instead of widening its table past its card."""
    from markupsafe import Markup, escape

    html = str(escape(str(text)))
    html = _CODE.sub(lambda m: f"<code>{m.group(1)}</code>", html)
    return Markup(html.replace("+", "+<wbr>") if "+" in html else html)


def number_markup(text: Any):
    """A number's cell for the page: it breaks only between a value and its interval
    (``7.24`` / ``[6.99, 7.49]``), never inside either, so a wide table wraps those cells
    before it outgrows its card."""
    from markupsafe import Markup, escape

    value, sep, interval = str(text).partition(" [")
    nb = "\u00a0"
    html = str(escape(value.replace(" ", nb)))
    if sep:
        html += " [" + str(escape(interval.replace(" ", nb)))
    return Markup(html)


class Report:
    """An HTML report: title, headline, warnings, notes and sections (see module doc)."""

    def __init__(self, title: str, *, subtitle: str = "", headline: str = "",
                 notes: Sequence[str] = (), warnings: Sequence[str] = ()):
        self.title = title
        self.subtitle = subtitle
        self.headline = headline
        self.notes = list(notes)
        self.warnings = list(warnings)
        self.sections: list[Section] = []

    def add(self, section: Section) -> Section:
        """Append a section (its id made unique) and return it."""
        ids = {s.id for s in self.sections}
        base, k = section.id, 2
        while section.id in ids:
            section.id = f"{base}-{k}"
            k += 1
        self.sections.append(section)
        return section

    def render(self) -> str:
        """The whole page as one string."""
        import jinja2

        from .version import __version__

        env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATE_DIR)),
                                 autoescape=True, undefined=jinja2.StrictUndefined,
                                 trim_blocks=True, lstrip_blocks=True)
        env.filters["inline"] = inline_markup
        env.filters["number"] = number_markup
        return env.get_template(TEMPLATE).render(
            title=self.title, subtitle=self.subtitle, headline=self.headline, notes=self.notes,
            warnings=self.warnings, sections=self.sections, version=__version__,
            date=_dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"))

    def write(self, path: str | os.PathLike) -> Path:
        """Render and write atomically (temporary file, then rename); returns the path."""
        path = check_output_path(path)
        html = self.render()
        tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
        try:
            tmp.write_text(html, encoding="utf-8")
            os.replace(tmp, path)
        finally:
            if tmp.exists():
                tmp.unlink()
        return path


def check_output_path(path: str | os.PathLike) -> Path:
    """The report's path, if it can be written (raises :class:`ReportError` otherwise)."""
    p = Path(path)
    if p.is_dir():
        raise ReportError(f"{p} is a directory; give a file name such as report.html")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise ReportError(f"{p}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK):
        raise ReportError(f"{p}: directory {parent} is not writable")
    return p


# =========================================================================== the study report
def format_value(v: Any) -> str:
    if isinstance(v, Mapping):
        return ", ".join(f"{k}={format_value(x)}" for k, x in v.items()) or "–"
    if isinstance(v, (list, tuple)):
        if v and all(isinstance(x, (list, tuple)) for x in v):
            return "; ".join("+".join(map(str, x)) for x in v)
        return ", ".join(map(str, v))
    if isinstance(v, float):
        return f"{v:g}"
    return "–" if v is None else str(v)


def provenance_section(result, command: str | None,
                        played: Sequence[tuple[str, Any]] | None = None) -> Section:
    """The provenance table; ``played``: the rows that say what was played (a game whose
    run is not players, teams and one policy, e.g. Mort's tables of pairings), in place of
    the generic ones.  A row with nothing recorded is left out, not shown as a dash."""
    import matplotlib

    p = dict(result.provenance)
    if played is None:
        tables = p.get("table_labels")  # a competitive game's seats, one table a player count
        played = [(f"{result.counts.spec.primary or 'groups'}", p.get("players")),
                  ("teams", p.get("teams")), ("policy", p.get("policy")),
                  ("tables", "; ".join(tables) if tables else None),
                  ("policy parameters", p.get("policy_params") or None)]
    rows = [
        ("game", p.get("game")), ("games", f"{result.games:,}" + (
            "" if result.complete else f" of {p.get('games', '?'):,} planned (incomplete run)")),
        ("seed", p.get("seed")), *[(k, v) for k, v in played if v is not None],
        ("ruleset fingerprint", p.get("ruleset_fingerprint")),
        ("ruleset", p.get("ruleset_lineage")),
        ("ruleset origin", p.get("ruleset_origin")),
        ("records", "one row per game kept" if result.has_records
         else "counts only (no per-game records)"),
        ("backend", p.get("backend_detail") or p.get("backend")),
        ("chunk size", p.get("chunk_size")),
        ("run started", p.get("started")), ("run finished", p.get("finished")),
        ("elapsed", None if p.get("elapsed_s") is None else f"{p['elapsed_s']:.1f} s"),
        ("run command", p.get("command", "not recorded")),
        ("report command", command or "not given (made from Python)"),
        ("versions (run)", f"simlib {p.get('simlib_version', '?')}, numba "
                           f"{p.get('numba_version', '?')}, Python {p.get('python_version', '?')}"),
        ("versions (report)", f"numpy {np.__version__}, pandas {pd.__version__}, "
                              f"matplotlib {matplotlib.__version__}"),
        ("report date", _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")),
    ]
    kv = TableBlock((Column("what", "what"), Column("value", "value")),
                    tuple((Cell(k, k), Cell(format_value(v), format_value(v))) for k, v in rows),
                    id="provenance-table")
    sec = Section("Provenance", [kv], "Everything needed to reproduce these numbers: the same "
                  "command with the same ruleset gives the same tables on any machine.",
                  "provenance")
    changes = p.get("ruleset_changes")
    if changes is None:
        sec.add(Note("Ruleset changes: not recorded in this run (saved by an older simlib); the "
                     "fingerprint above identifies the ruleset."))
    elif not changes:
        sec.add(Note("Ruleset: the reference ruleset, no value changed."))
    else:
        df = pd.DataFrame([{"key": c["key"], "reference": format_value(c.get("reference")),
                            "value": format_value(c.get("value")), "source": c.get("source") or "–"}
                           for c in changes])
        sec.add(frame_table(df, caption=f"{len(df)} value(s) differ from the reference ruleset",
                            id="ruleset-changes"))
    return sec


def incomplete_warnings(result) -> list[str]:
    """The report's warning for a run that has not played all its games (else none)."""
    if result.complete:
        return []
    return [f"Incomplete run: {result.games:,} of {result.provenance.get('games', '?')} games "
            "played. Resume it with the same command before drawing conclusions."]


# =========================================================================== game reports
def rate_interval(row, rate: str) -> str:
    """``row[rate]`` with its 95 % interval (``ci_low``, ``ci_high``), as a sentence says it:
    ``12.3 % (95 % interval 10.1 – 14.6 %)``."""
    return (f"{pct(row[rate]).strip()} % (95 % interval {pct(row['ci_low']).strip()} – "
            f"{pct(row['ci_high']).strip()} %)")


def tie_headline(result) -> str:
    """The headline of a game whose victory may be shared: how many games ended in a tie."""
    overall = result.tables["overall"]
    if not len(overall):
        return ""
    ov = overall.iloc[0]
    return (f"{int(ov['ties']):,} of {result.games:,} games ended in a shared victory: "
            f"a tie rate of {rate_interval(ov, 'tie_rate')}.")


def seat_section(result, intro: str) -> Section:
    """Win share by seat and player count (``by_seat``): a heatmap and its table; ``intro``
    says where seat 0 sits, which only the game knows."""
    by_seat = result.tables["by_seat"]
    s = Section("Win share by seat", intro=intro + " Each cell: the share of games that seat "
                "won at that many players, with its 95 % interval.", id="seats")
    n_seats = by_seat.index.get_level_values("seat").nunique() if len(by_seat) else 4
    s.add(figure_block(lambda ax: plots.heatmap(by_seat, "seat", "players", ax,
                                                title="win share by seat and players"),
                       alt="win share by seat and players", figsize=(7.0, 0.5 * n_seats + 1.6)))
    s.add(rate_table(by_seat, id="table-by-seat"))
    return s


def strategy_section(result, intro: str = "") -> Section:
    """A strategy's win share over all its seats (``by_strategy``), then by table
    (``by_strategy_table``)."""
    t = result.tables
    by_strat = t["by_strategy"]
    s = Section("Strategy against strategy", intro="A strategy's win share over all its seats, "
                "then at each table" + (f" {intro}" if intro else "") + ".", id="strategies")
    if len(by_strat) > 1:
        s.add(figure_block(lambda ax: plots.rate_bars(by_strat, ax, xlabel="win share"),
                           alt="win share by strategy", figsize=(7.0, 0.4 * len(by_strat) + 1.3)))
    else:
        s.add(Note("Every seat played the same strategy: its win share is the fair share by "
                   "construction. Give a mixed table (`--seats`) to compare strategies."))
    s.add(rate_table(by_strat, sortable=True, sort=True, id="table-by-strategy"))
    s.add(rate_table(t["by_strategy_table"], sortable=True, id="table-by-strategy-table",
                     caption="by table (named by its strategies, sorted)"))
    return s


def mean_points_section(result, title: str, tables: Sequence[tuple[str, str]],
                        what: str | None = None) -> Section:
    """Mean final points (``mean_points_by_*`` tables, each with its caption) with the 95 %
    interval of the mean; ``what``: the points' name in the intro (default: the title)."""
    s = Section(title, intro=f"Mean {what or title.lower()} with the 95 % interval of the mean.",
                id="points")
    for name, cap in tables:
        s.add(frame_table(result.tables[name], index=True, caption=cap,
                          id=f"table-{name.replace('_', '-')}"))
    return s


def game_report(result, *, title: str, subtitle: str, headline: str, notes: Sequence[str],
                sections: Sequence[Section], command: str | None = None,
                played: Sequence[tuple[str, Any]] | None = None) -> Report:
    """The frame of every game's report: the game's title, subtitle, headline and notes,
    the incomplete-run warning, the game's own sections in order, then the provenance
    (``played``: as in :func:`provenance_section`)."""
    rep = Report(title, subtitle=subtitle, headline=headline, notes=list(notes),
                 warnings=incomplete_warnings(result))
    for s in sections:
        rep.add(s)
    rep.add(provenance_section(result, command, played=played))
    return rep


def study_report(result, *, title: str | None = None, command: str | None = None) -> Report:
    """The standard report of a study (a :class:`~simlib.core.runner.RunResult`): the
    game's declared report builder (``GameInfo.report``), with the provenance section
    (ruleset, its changes, seed, versions) added when the game's report has none."""
    from .games import UnknownGameError, get_game

    try:
        builder = get_game(result.provenance.get("game")).report
    except UnknownGameError as exc:  # a saved run of a game not installed here
        return game_report(result, title=title or f"{result.games:,} games", subtitle="",
                           headline="", notes=[f"No report of this game's own: {exc}."],
                           sections=[], command=command)
    rep = builder(result, title=title, command=command)
    if not any(s.id == "provenance" for s in rep.sections):
        rep.add(provenance_section(result, command))
    return rep


# =========================================================================== effects
_SHOWN = ["games", "raw_win_rate", "effect_points", "effect_low", "effect_high", "odds_ratio",
          "or_low", "or_high"]
_TITLES = {"raw_win_rate": "raw win", "effect_points": "effect (points)",
           "effect_low": "low", "effect_high": "high", "odds_ratio": "odds ratio",
           "or_low": "OR low", "or_high": "OR high", "swap_points": "swap check (points)",
           "swap_low": "swap low", "swap_high": "swap high", "held_fixed": "held fixed"}


def _report_frame(t: pd.DataFrame, extra=()) -> pd.DataFrame:
    cols = _SHOWN + [c for c in extra if c in t.columns] + ["note"]
    f = t.reindex(columns=cols).copy()
    for c in f.columns:
        if c in ("odds_ratio", "or_low", "or_high"):
            f[c] = f[c].astype(float).round(3)
        elif c not in ("games", "raw_win_rate", "note", "held_fixed"):
            f[c] = f[c].astype(float).round(2)
    return f


def effects_section(result):
    """The HTML report's section of :func:`simlib.core.effects.effects`;
    a result the effects cannot be computed from gets a note saying why."""
    competitive = bool(result.counts.spec.member_outcomes)  # as effects() decides
    title = "Effects" if competitive else "Character effects"
    if competitive:
        intro = ("A raw win share mixes a strategy or character with the tables it sat at. "
                 "Here a binomial GLM of 'this seat won (or shared the win)' holds the table "
                 "composition and the seat fixed: each row is the win points against the "
                 "average strategy (character) and the odds ratio, with 95 % intervals.")
    else:
        intro = ("The raw win rate of a character is that of the games it played, with "
                 "teammates that are never itself: with random teams of p of K characters the "
                 "raw gap between two characters is (K - p)/(K - 1) of the gap a swap in the "
                 "same team makes (3/5 at 3 of 6 players, 1/5 at 5, nothing at 6). A binomial "
                 "GLM per player count (sum-to-zero) holds the teammates fixed: win points "
                 "against the average character and odds ratios with 95 % intervals; the swap "
                 "check compares teams that differ by this character only (no model).")
    s = Section(title, intro=intro, id="effects")
    try:
        eff = result.effects
    except (ValueError, KeyError, np.linalg.LinAlgError) as exc:
        s.add(Note(f"No effects for this result: {exc}"))
        return s
    if competitive:
        for name, cap in (("strategy_effects", "strategies"), ("character_effects", "characters")):
            if name in eff.tables:
                s.add(frame_table(_report_frame(eff[name], ["held_fixed"]), index=True,
                                  percent=("raw_win_rate",), titles=_TITLES, caption=cap,
                                  id=f"table-{name.replace('_', '-')}"))
        return s
    s.add(frame_table(_report_frame(eff.character_effects, ["swap_points", "swap_low",
                                                            "swap_high"]),
                      index=True, percent=("raw_win_rate",), titles=_TITLES,
                      caption="by player count ('all': pooled, player count held fixed)",
                      id="table-character-effects"))
    tests = eff.pair_synergy_test
    if len(tests):
        s.add(Note("Pairs: a synergy term per pair present together, on the logit scale (a "
                   "pair that merely adds win points looks synergistic in logits near 0 % or "
                   "100 %: synergy depends on the scale). All pairs are tested together by a "
                   "likelihood-ratio test per player count, then one by one with Holm's "
                   "correction within the player count."))
        s.add(frame_table(tests.round(4), index=True, caption="all pairs together",
                          id="table-pair-test"))
        pairs = eff.pair_synergy
        if len(pairs):
            top = pairs.sort_values("p_value").head(15)[["synergy", "odds_ratio", "or_low",
                                                         "or_high", "p_value", "p_holm"]]
            s.add(frame_table(top.round(4), index=True, caption="the 15 pairs with the "
                              "smallest p-values", id="table-pair-synergy"))
    return s



def write_study_report(result, path: str | os.PathLike, *, command: str | None = None,
                       title: str | None = None) -> Path:
    """``study_report(result, ...).write(path)``."""
    check_output_path(path)  # fail before drawing anything
    return study_report(result, title=title, command=command).write(path)
