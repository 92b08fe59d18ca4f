"""Day Night Z's HTML report (``simlib simulate --game day-night-z --html``, ``simlib
report``): success and victory points by team size and start hour, survivors alive turn
by turn, the threat's path and its sources, loss causes, the Hunter's toll, survival
points on rolls against the threat track."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...core import plots
from ...core.report import (Note, Report, Section, figure_block, frame_table, game_report,
                            rate_interval, rate_table)
from ...core.tables import rate_matrix, ruleset_label
from .study import (DEATHS, HUNTER_VALUES, SP_VALUES, THREAT_SOURCES, ci_text, cell_means,
                    hour_label, hour_labels, mean_matrix, turn_paths)

__all__ = ["study_report"]

# Every mean's interval: normal, clipped at 0 (each value is a count; see cell_means).
_MEAN_CI = "mean [95 % interval, normal, clipped at 0]"
# Short column titles, so that the threat's table fits its card.
_TITLES = {"threat_final": "final threat", "threat_from_noise": "from noise",
           "threat_from_leaving": "from leaving", "threat_from_clock": "from the clock",
           "threat_from_cards": "from cards", "threat_lowered_by_sp": "lowered by SP",
           "dead_damage": "dead: damage", "dead_infection": "dead: infection",
           "dead_hunger": "dead: hunger", "hunter_spawns": "Hunter came",
           "hunter_damage": "Hunter's damage", "hunter_kills": "Hunter's kills",
           "sp_on_rolls": "SP on rolls", "sp_on_threat": "SP on threat",
           "searches_done": "searches done"}

_SOURCE_LABELS = {"threat_from_noise": "noise", "threat_from_leaving": "leaving enemies",
                  "threat_from_clock": "the clock", "threat_from_cards": "threat cards",
                  "threat_lowered_by_sp": "lowered by SP"}


def _sources_bars(means: pd.DataFrame):
    """Threat units a game by source (stacked) and lowered by SP (below 0), by team size."""
    def draw(ax):
        if not len(means):
            raise plots.PlotUnavailable("no games")
        x = np.arange(len(means))
        bottom = np.zeros(len(means))
        for k, src in enumerate(THREAT_SOURCES[:-1]):
            v = means[src].to_numpy(float)
            ax.bar(x, v, bottom=bottom, color=plots.PALETTE[k % len(plots.PALETTE)],
                   label=_SOURCE_LABELS[src])
            bottom += v
        low = means["threat_lowered_by_sp"].to_numpy(float)
        ax.bar(x, -low, color="grey", label=_SOURCE_LABELS["threat_lowered_by_sp"])
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_xticks(x, [f"team of {p}" for p in means.index])
        ax.set_ylabel("threat units a game")
        ax.legend(fontsize=8, frameon=False)
        ax.grid(alpha=0.3, axis="y")
    return draw


def study_report(result, *, title: str | None = None, command: str | None = None) -> Report:
    """The standard report of a Day Night Z study (a ``RunResult``)."""
    t = result.tables
    c = result.counts
    p = dict(result.provenance)
    headline = ""
    if len(t["overall"]):
        ov = t["overall"].iloc[0]
        headline = (f"{int(ov['wins']):,} of {result.games:,} adventures succeeded: "
                    f"{rate_interval(ov, 'win_rate')}.")
    hours = ", ".join(hour_label(h) for h in p.get("start_hours") or [])
    sub = (f"scenario {p.get('scenario')}, seed {p.get('seed')}, teams of "
           f"{', '.join(map(str, p.get('players') or []))}, start {hours}, policy "
           f"{p.get('policy')}, ruleset {ruleset_label(p)}")
    notes = ["These are results of computer players (bots), not of human players. The city "
             "is abstracted (zones, tiles, engaged and far enemies; see the game's page). "
             "Success: the scenario's searches done, then every living survivor on an exit, "
             f"within {p.get('turn_limit', 24)} turns. Every rate comes with its 95 % Wilson "
             "interval, every mean with a normal 95 % interval. The cells of one round of "
             "games share a deal (common random numbers)."]
    sections = []

    s = Section("Success by team size and start hour", intro="The share of adventures "
                "won in each cell, and the victory points a game (4 less 1 a dead "
                "survivor on a success, 0 on a failure).", id="success")
    sections.append(s)
    by_ph = t["by_players_hour"]
    if len(by_ph):
        ph = by_ph.reset_index()
        s.add(figure_block(lambda ax: plots.curve_band(
            ph, ax, x="start_hour", y="win_rate", group="players", xlabel="start hour",
            ylabel="success", title="success against start hour"),
            alt="success against start hour, one line per team size", figsize=(7.0, 4.0)))
        s.add(frame_table(rate_matrix(by_ph, "players", "start_hour").rename(columns=hour_label),
                          index=True,
                          caption="success % [95 % interval]: team size (rows) x start hour",
                          id="table-success"))
        s.add(frame_table(mean_matrix(c, "vp"), index=True,
                          caption=f"victory points a game, {_MEAN_CI}", id="table-vp"))
    s.add(rate_table(t["by_players"], id="table-by-players", caption="by team size"))

    s = Section("Survivors", intro="Survivors alive after each turn (a finished "
                "adventure keeps its final count), at the end, and how they died.",
                id="survivors")
    sections.append(s)
    paths = turn_paths(c, ("players",), int(p.get("turn_limit") or 24))
    if len(paths):
        s.add(figure_block(lambda ax: plots.curve_band(
            paths, ax, x="turn", y="alive", low="alive_low", high="alive_high", group="players",
            ylabel="survivors alive", scale=1.0, title="survival by turn"),
            alt="survivors alive by turn, one line per team size", figsize=(7.0, 4.0)))
        s.add(frame_table(mean_matrix(c, "alive"), index=True,
                          caption=f"survivors alive at the end, {_MEAN_CI}", id="table-alive"))
        s.add(frame_table(ci_text(cell_means(c, DEATHS, ["players"]), DEATHS), index=True,
                          caption=f"deaths a game by cause (hunger: at 15:00's meal), {_MEAN_CI}",
                          id="table-deaths", titles=_TITLES))
    s.add(rate_table(t["end_causes_by_players"], id="table-end-causes",
                     caption="how adventures ended, by team size"))
    s.add(rate_table(t["survivors_alive_by_players"], id="table-alive-dist",
                     caption="survivors alive at the end, by team size"))

    s = Section("Threat", intro="The threat track's units (green 1-15, yellow 16-30, "
                "red 31-45) after each turn, and where the units came from: noise, "
                "leaving enemies behind, the clock, threat cards; and the units survival "
                "points bought back.", id="threat")
    sections.append(s)
    if len(paths):
        s.add(figure_block(lambda ax: plots.curve_band(
            paths, ax, x="turn", y="threat", low="threat_low", high="threat_high",
            group="players", ylabel="threat (units)", scale=1.0, title="threat's path"),
            alt="mean threat by turn, one line per team size", figsize=(7.0, 4.0)))
        src = cell_means(c, ("threat_final",) + THREAT_SOURCES, ["players"])
        s.add(figure_block(_sources_bars(src), alt="threat units a game by source and team size",
                           figsize=(7.0, 4.0)))
        s.add(frame_table(ci_text(src, ("threat_final",) + THREAT_SOURCES), index=True,
                          caption=f"threat a game: final units and its sources (units), {_MEAN_CI}",
                          id="table-threat", titles=_TITLES))
    s.add(rate_table(t["threat_levels_by_players"], id="table-threat-levels",
                     caption="the threat's colour at the end, by team size"))

    s = Section("The Hunter", intro="How often the Hunter came at night, the damage "
                "he dealt and the survivors he killed, by team size and start hour.",
                id="hunter")
    sections.append(s)
    if len(paths):
        s.add(frame_table(hour_labels(ci_text(cell_means(c, HUNTER_VALUES), HUNTER_VALUES)),
                          index=True, caption=f"a game, {_MEAN_CI}", id="table-hunter",
                          titles=_TITLES))
    s.add(rate_table(hour_labels(t["hunter_by_players_hour"]), id="table-hunter-dist", sortable=True,
                     caption="what the Hunter did (absent, came without harm, wounded, killed)"))

    s = Section("Survival points", intro="Survival points spent on rolls (a die more) "
                "against points spent lowering the threat track.", id="sp")
    sections.append(s)
    if len(paths):
        vals = SP_VALUES + ("kills", "searches_done", "turns", "decisions")
        s.add(frame_table(ci_text(cell_means(c, vals, ["players"]), vals), index=True,
                          caption=f"a game by team size, {_MEAN_CI}", id="table-sp",
                          titles=_TITLES))
    else:
        s.add(Note("No games."))
    return game_report(result, title=title or f"Day Night Z: {result.games:,} adventures",
                       subtitle=sub, headline=headline, notes=notes, sections=sections,
                       command=command)
