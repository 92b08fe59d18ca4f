"""Till Dawn's HTML report (``simlib simulate --game till-dawn --html``, ``simlib report``):
a competitive game's questions, built from the core report's blocks
(:mod:`simlib.core.report`) — is any seat, character or strategy favoured, how often is the
victory shared, how many coffin points, how do games end."""
from __future__ import annotations

from ...core.tables import ruleset_label
from ...core import plots
from ...core.report import (Note, Report, Section, effects_section, figure_block, frame_table,
                            game_report, mean_points_section, rate_table, seat_section,
                            strategy_section, tie_headline)

__all__ = ["study_report"]


def study_report(result, *, title: str | None = None, command: str | None = None) -> Report:
    """The standard report of a Till Dawn study (a :class:`~simlib.core.runner.RunResult`)."""
    t = result.tables
    p = dict(result.provenance)
    labels = p.get("table_labels") or []
    sub = (f"seed {p.get('seed')}, players {', '.join(map(str, p.get('players') or []))}, "
           f"tables {'; '.join(labels)}, ruleset {ruleset_label(p)}")
    notes = ["These are results of computer players (bots), not of human players. A seat wins "
             "when it has the most coffin points; tied seats each count a win, so a game's win "
             "shares add up to 1 plus its ties. A fair seat, character or strategy at a table "
             "of n wins about 1/n of its games (plus its share of ties). Every rate comes with "
             "its 95 % Wilson interval."]

    by_char = t["by_character"]
    chars = Section("Win share by character", intro="Summed over player counts and seats; "
                    "click a column title to sort.", id="characters")
    chars.add(figure_block(lambda ax: plots.rate_bars(by_char, ax, xlabel="win share"),
                           alt="win share by character", figsize=(7.0, 0.4 * len(by_char) + 1.3)))
    chars.add(rate_table(by_char, sortable=True, sort=True, id="table-by-character"))

    endings = Section("How games end", intro="Ties by player count, and games ended before "
                      "the third night's sunrise (end causes).", id="endings")
    endings.add(frame_table(t["by_players"], index=True, percent=["tie_rate", "ci_low", "ci_high"],
                            caption="shared victories by player count", id="table-ties"))
    if len(t["end_causes"]):
        endings.add(rate_table(t["end_causes"], id="table-end-causes",
                               caption="share of all games ended that way"))
    else:  # an empty table said nothing: say it
        endings.add(Note("No game ended before the third night's sunrise (no blood or coffin "
                         "supply ran out)."))
    return game_report(
        result, title=title or f"Till Dawn: {result.games:,} games", subtitle=sub,
        headline=tie_headline(result), notes=notes, command=command, sections=[
            seat_section(result, "Seat 0 draws first."),
            chars,
            strategy_section(result, "(heads-up tables give strategy against strategy)"),
            effects_section(result),  # table composition and seat held fixed
            mean_points_section(result, "Coffin points", (
                ("mean_points_by_seat", "by player count and seat"),
                ("mean_points_by_character", "by character"),
                ("mean_points_by_strategy", "by strategy"))),
            endings])
