"""Until the World Ends' HTML report (``simlib simulate --game until-the-world-ends --html``,
``simlib report``): is any seat or strategy favoured, how often is the victory shared, how
long do games last, how do rounds end, what is each card kind worth."""
from __future__ import annotations

from ...core import plots
from ...core.report import (Note, Report, Section, _provenance_section, figure_block,
                            frame_table, incomplete_warnings, rate_table)
from ...core.tables import _pct
from .study import card_table, length_table, plays_table, rounds_table

__all__ = ["study_report"]


def _interval(row, rate: str) -> str:
    return (f"{_pct(row[rate]).strip()} % (95 % interval {_pct(row['ci_low']).strip()} – "
            f"{_pct(row['ci_high']).strip()} %)")


def study_report(result, *, title: str | None = None, command: str | None = None) -> Report:
    """The standard report of an Until the World Ends study (a ``RunResult``)."""
    t = result.tables
    p = dict(result.provenance)
    title = title or f"Until the World Ends: {result.games:,} games"
    headline = ""
    if len(t["overall"]):
        ov = t["overall"].iloc[0]
        headline = (f"{int(ov['ties']):,} of {result.games:,} games ended in a shared victory: "
                    f"a tie rate of {_interval(ov, 'tie_rate')}.")
    labels = p.get("table_labels") or []
    sub = (f"seed {p.get('seed')}, target {p.get('target')}, players "
           f"{', '.join(map(str, p.get('players') or []))}, tables {'; '.join(labels)}, ruleset "
           f"{str(p.get('ruleset_fingerprint', ''))[:12]}")
    notes = ["These are results of computer players (bots), not of human players. A seat wins "
             "with the highest total once a total reaches the target; tied seats each count a "
             "win, so a game's win shares add up to 1 plus its ties. Seat 0 deals the first "
             "round and seat 1 plays first. Every rate comes with its 95 % Wilson interval."]
    rep = Report(title, subtitle=sub, headline=headline, notes=notes,
                 warnings=incomplete_warnings(result))

    by_seat = t["by_seat"]
    s = rep.add(Section("Win share by seat", intro="Seat s sits s places left of the first "
                        "dealer. Each cell: the share of games that seat won at that many "
                        "players, with its 95 % interval.", id="seats"))
    n_seats = by_seat.index.get_level_values("seat").nunique() if len(by_seat) else 4
    s.add(figure_block(lambda ax: plots.heatmap(by_seat, "seat", "players", ax,
                                                title="win share by seat and players"),
                       alt="win share by seat and players", figsize=(7.0, 0.5 * n_seats + 1.6)))
    s.add(rate_table(by_seat, id="table-by-seat"))

    by_strat = t["by_strategy"]
    s = rep.add(Section("Strategy against strategy", intro="A strategy's win share over all "
                        "its seats, then at each table.", id="strategies"))
    if len(by_strat) > 1:
        s.add(figure_block(lambda ax: plots.rate_bars(by_strat, ax, xlabel="win share"),
                           alt="win share by strategy", figsize=(7.0, 0.4 * len(by_strat) + 1.3)))
    else:
        s.add(Note("Every seat played the same strategy: its win share is the fair share by "
                   "construction. Give a mixed table (`--seats`) to compare strategies."))
    s.add(rate_table(by_strat, sortable=True, sort=True, id="table-by-strategy"))
    s.add(rate_table(t["by_strategy_table"], sortable=True, id="table-by-strategy-table",
                     caption="by table (named by its strategies, sorted)"))

    c = result.counts
    s = rep.add(Section("Game length", intro="Rounds and turns per game by player count, with "
                        "the distribution of rounds.", id="length"))
    s.add(frame_table(length_table(c), index=True, caption="mean [95 % interval]", id="table-length"))
    if len(t["by_length"]):
        s.add(figure_block(lambda ax: plots.game_length(t["by_length"], "players", "rounds", ax),
                           alt="rounds per game", figsize=(7.0, 4.0)))
    s = rep.add(Section("How rounds end", intro="Shares of rounds by how they ended; "
                        "challenged: share of endings played that were challenged; ender tops: "
                        "the ender's round score was the highest; ender gain: the ender's round "
                        "score minus the best rival's.", id="rounds"))
    s.add(frame_table(rounds_table(c), index=True, id="table-rounds"))
    s = rep.add(Section("Card kinds", intro="Points per player and round by card kind, and "
                        "cards played per game.", id="cards"))
    s.add(frame_table(card_table(c), index=True, id="table-cards"))
    s.add(frame_table(plays_table(c), index=True, id="table-plays"))

    s = rep.add(Section("Totals", intro="Mean final totals with the 95 % interval of the mean.",
                        id="points"))
    for name, cap in (("mean_points_by_seat", "by player count and seat"),
                      ("mean_points_by_strategy", "by strategy")):
        s.add(frame_table(t[name], index=True, caption=cap, id=f"table-{name.replace('_', '-')}"))
    rep.add(_provenance_section(result, command))
    return rep
