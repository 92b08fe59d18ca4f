"""Until the World Ends' HTML report (``simlib simulate --game until-the-world-ends --html``,
``simlib report``): is any seat or strategy favoured, how often is the victory shared, how
long do games last, how do rounds end, what is each card kind worth."""
from __future__ import annotations

from ...core.tables import ruleset_label
from ...core import plots
from ...core.report import (Report, Section, figure_block, frame_table, game_report,
                            mean_points_section, seat_section, strategy_section, tie_headline)
from .study import card_table, length_table, plays_table, rounds_table

__all__ = ["study_report"]


def study_report(result, *, title: str | None = None, command: str | None = None) -> Report:
    """The standard report of an Until the World Ends study (a ``RunResult``)."""
    t = result.tables
    c = result.counts
    p = dict(result.provenance)
    labels = p.get("table_labels") or []
    sub = (f"seed {p.get('seed')}, target {p.get('target')}, players "
           f"{', '.join(map(str, p.get('players') or []))}, tables {'; '.join(labels)}, ruleset "
           f"{ruleset_label(p)}")
    notes = ["These are results of computer players (bots), not of human players. A seat wins "
             "with the highest total once a total reaches the target; tied seats each count a "
             "win, so a game's win shares add up to 1 plus its ties. Seat 0 deals the first "
             "round and seat 1 plays first. Every rate comes with its 95 % Wilson interval."]

    length = Section("Game length", intro="Rounds and turns per game by player count, with "
                     "the distribution of rounds.", id="length")
    length.add(frame_table(length_table(c), index=True, caption="mean [95 % interval]",
                           id="table-length"))
    if len(t["by_length"]):
        length.add(figure_block(lambda ax: plots.game_length(t["by_length"], "players", "rounds", ax),
                                alt="rounds per game", figsize=(7.0, 4.0)))
    rounds = Section("How rounds end", intro="Shares of rounds by how they ended; challenged: "
                     "share of endings played that were challenged; ender tops: the ender's "
                     "round score was the highest; ender gain: the ender's round score minus "
                     "the best rival's.", id="rounds")
    rounds.add(frame_table(rounds_table(c), index=True, id="table-rounds"))
    cards = Section("Card kinds", intro="Points per player and round by card kind, and cards "
                    "played per game.", id="cards")
    cards.add(frame_table(card_table(c), index=True, id="table-cards"))
    cards.add(frame_table(plays_table(c), index=True, id="table-plays"))
    return game_report(
        result, title=title or f"Until the World Ends: {result.games:,} games", subtitle=sub,
        headline=tie_headline(result), notes=notes, command=command, sections=[
            seat_section(result, "Seat s sits s places left of the first dealer."),
            strategy_section(result),
            length, rounds, cards,
            mean_points_section(result, "Totals", (
                ("mean_points_by_seat", "by player count and seat"),
                ("mean_points_by_strategy", "by strategy")), what="final totals")])
