"""Till Dawn's HTML report (``simlib simulate --game till-dawn --html``, ``simlib report``):
a competitive game's questions, built from the core report's blocks
(:mod:`simlib.core.report`) — is any seat, character or strategy favoured, how often is the
victory shared, how many coffin points, how do games end."""
from __future__ import annotations

from ...core import plots
from ...core.report import (Note, Report, Section, _provenance_section, effects_section, figure_block,
                            frame_table, incomplete_warnings, rate_table)
from ...core.tables import _pct

__all__ = ["study_report"]


def _interval(row, rate: str) -> str:
    return (f"{_pct(row[rate]).strip()} % (95 % interval {_pct(row['ci_low']).strip()} – "
            f"{_pct(row['ci_high']).strip()} %)")


def study_report(result, *, title: str | None = None, command: str | None = None) -> Report:
    """The standard report of a Till Dawn study (a :class:`~simlib.core.runner.RunResult`)."""
    t = result.tables
    p = dict(result.provenance)
    title = title or f"Till Dawn: {result.games:,} games"
    headline = ""
    if len(t["overall"]):
        ov = t["overall"].iloc[0]
        headline = (f"{int(ov['ties']):,} of {result.games:,} games ended in a shared victory: "
                    f"a tie rate of {_interval(ov, 'tie_rate')}.")
    labels = p.get("table_labels") or []
    sub = (f"seed {p.get('seed')}, players {', '.join(map(str, p.get('players') or []))}, "
           f"tables {'; '.join(labels)}, ruleset {str(p.get('ruleset_fingerprint', ''))[:12]}")
    warnings = incomplete_warnings(result)
    notes = ["These are results of computer players (bots), not of human players. A seat wins "
             "when it has the most coffin points; tied seats each count a win, so a game's win "
             "shares add up to 1 plus its ties. A fair seat, character or strategy at a table "
             "of n wins about 1/n of its games (plus its share of ties). Every rate comes with "
             "its 95 % Wilson interval."]
    rep = Report(title, subtitle=sub, headline=headline, notes=notes, warnings=warnings)

    by_seat = t["by_seat"]
    s = rep.add(Section("Win share by seat", intro="Seat 0 draws first. Each cell: the share of "
                        "games that seat won at that many players, with its 95 % interval.",
                        id="seats"))
    n_seats = by_seat.index.get_level_values("seat").nunique() if len(by_seat) else 4
    s.add(figure_block(lambda ax: plots.heatmap(by_seat, "seat", "players", ax,
                                                title="win share by seat and players"),
                       alt="win share by seat and players", figsize=(7.0, 0.5 * n_seats + 1.6)))
    s.add(rate_table(by_seat, id="table-by-seat"))

    by_char = t["by_character"]
    s = rep.add(Section("Win share by character", intro="Summed over player counts and seats; "
                        "click a column title to sort.", id="characters"))
    s.add(figure_block(lambda ax: plots.rate_bars(by_char, ax, xlabel="win share"),
                       alt="win share by character", figsize=(7.0, 0.4 * len(by_char) + 1.3)))
    s.add(rate_table(by_char, sortable=True, sort=True, id="table-by-character"))

    by_strat = t["by_strategy"]
    s = rep.add(Section("Strategy against strategy", intro="A strategy's win share over all "
                        "its seats, then at each table (heads-up tables give strategy against "
                        "strategy).", id="strategies"))
    if len(by_strat) > 1:
        s.add(figure_block(lambda ax: plots.rate_bars(by_strat, ax, xlabel="win share"),
                           alt="win share by strategy", figsize=(7.0, 0.4 * len(by_strat) + 1.3)))
    else:
        s.add(Note("Every seat played the same strategy: its win share is the fair share by "
                   "construction. Give a mixed table (`--seats`) to compare strategies."))
    s.add(rate_table(by_strat, sortable=True, sort=True, id="table-by-strategy"))
    s.add(rate_table(t["by_strategy_table"], sortable=True, id="table-by-strategy-table",
                     caption="by table (named by its strategies, sorted)"))

    rep.add(effects_section(result))  # table composition and seat held fixed

    s = rep.add(Section("Coffin points", intro="Mean coffin points with the 95 % interval of "
                        "the mean.", id="points"))
    for name, cap in (("mean_points_by_seat", "by player count and seat"),
                      ("mean_points_by_character", "by character"),
                      ("mean_points_by_strategy", "by strategy")):
        s.add(frame_table(t[name], index=True, caption=cap, id=f"table-{name.replace('_', '-')}"))

    s = rep.add(Section("How games end", intro="Ties by player count, and games ended before "
                        "the third night's sunrise (end causes).", id="endings"))
    s.add(frame_table(t["by_players"], index=True, percent=["tie_rate", "ci_low", "ci_high"],
                      caption="shared victories by player count", id="table-ties"))
    s.add(rate_table(t["end_causes"], id="table-end-causes",
                     caption="share of all games ended that way"))
    rep.add(_provenance_section(result, command))
    return rep
