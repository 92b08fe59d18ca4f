"""Mort de la lumière du jour's HTML report (``simlib simulate --game mort --html``,
``simlib report``): an asymmetric game's questions — is it fair to both sides, by how many
kills and escapes, and how the race between repairs and kills runs round by round."""
from __future__ import annotations

from ...core.tables import ruleset_label
from ...core import plots
from ...core.report import Note, Report, Section, figure_block, frame_table, game_report
from .study import (FAIR_RULE, killer_win_sentence, distribution_table, means_table, fairness_table, headline_pairing, headline_text,
                    reference_tables, timeline)

__all__ = ["study_report", "draw_race"]


def draw_race(tl, ax, ceiling=None):
    """Generators repaired (solid) and survivors killed (dashed) by the end of each round,
    one colour per pairing: the race this game is about; ``ceiling`` (generators repaired
    by round r without a killer, the exact ``no_killer`` ceiling) in dotted black."""
    if not len(tl):
        raise plots.PlotUnavailable("no timeline in this result")
    for i, (pairing, f) in enumerate(tl.groupby("pairing", sort=False)):
        c = plots.PALETTE[i % len(plots.PALETTE)]
        ax.plot(f["round"], f["repaired"], color=c, lw=2, label=f"{pairing}: repaired")
        ax.plot(f["round"], f["killed"], color=c, lw=2, ls="--", label=f"{pairing}: killed")
    if ceiling:
        ax.plot(range(1, len(ceiling) + 1), ceiling, color="black", lw=1.5, ls=":",
                label="no killer: repaired (exact ceiling)")
    ax.set_xlabel("round")
    ax.set_ylabel("mean count by the end of the round")
    ax.grid(alpha=0.3)
    # the counts rise from the left: its top left is empty, and a fixed place spares
    # matplotlib's search for the "best" one (which warns when it takes long on a busy machine)
    ax.legend(fontsize=7, loc="upper left")
    return ax


def study_report(result, *, title: str | None = None, command: str | None = None) -> Report:
    """The standard report of a Mort de la lumière du jour study."""
    t = result.tables
    p = dict(result.provenance)
    sub = (f"seed {p.get('seed')}, tables {'; '.join(p.get('table_labels') or [])}, ruleset "
           f"{ruleset_label(p)}")
    notes = ["These are results of computer players, not of people. " + killer_win_sentence(p)
             + " Every rate comes with its 95 % Wilson interval."]
    sections = []
    s = Section("Is it fair?", intro="The killer's win rate for each pairing of a killer "
                "strategy against the survivors' strategy, and its distance from 50 %. "
                + FAIR_RULE,
                id="fairness")
    sections.append(s)
    by = t["by_pairing"]
    s.add(figure_block(lambda ax: plots.rate_bars(by, ax, xlabel="killer win rate"),
                       alt="killer win rate by pairing", figsize=(7.0, 0.5 * len(by) + 1.4)))
    s.add(frame_table(fairness_table(t), index=True, id="table-fairness"))
    s = Section("The race", intro="Generators repaired (solid) and survivors killed (dashed) by "
                "the end of each round, averaged over the games (a finished game keeps its "
                "final counts).", id="race")
    sections.append(s)
    tl = timeline(result.counts)
    ceiling = ((p.get("reference_points") or {}).get("no_killer") or {}).get("repaired_by_round")
    s.add(figure_block(lambda ax: draw_race(tl, ax, ceiling), alt="repairs against kills by round",
                       figsize=(7.5, 4.5)))
    refs = reference_tables(result)
    if refs:
        s = Section("Reference points", intro="Exact answers that no game played: the survivors' "
                    "best race when nobody hunts them (a ceiling: free moves, no hand limit, "
                    "shared toolboxes), against the share of games with a survivor out through a "
                    "gate; and the strike subgame.", id="reference")
        sections.append(s)
        for (cap, table), rows in zip(refs, ("pairing", "survivor holding")):
            if len(table):
                s.add(frame_table(table.rename_axis(rows), index=True, caption=cap))
            else:
                s.add(Note(cap))
    s = Section("Kills, escapes, repairs", intro="Share of games by count.", id="counts")
    sections.append(s)
    for name, cap in (("kills", "survivors killed"), ("escapes", "survivors escaped"),
                      ("hatch_escapes", "escapes through the hatch"), ("repaired", "generators repaired"),
                      ("end_causes", "what ended the game")):
        d = distribution_table(t, name)
        if len(d):
            s.add(frame_table(d, index=True, caption=f"{cap} (% of games)", id=f"table-{name}"))
    s = Section("Means per game", id="means")
    sections.append(s)
    s.add(frame_table(means_table(t), index=True, id="table-means",
                      caption="rounds, kills, escapes, repairs, the killer's energy from failed "
                              "repairs and spent on pallets, landed hits, decisions"))
    if len(t["by_length"]):
        s.add(figure_block(lambda ax: plots.game_length(t["by_length"], "pairing", "rounds", ax),
                           alt="game length by pairing", figsize=(7.0, 4.0)))
    else:
        s.add(Note("No game lengths in this result."))
    return game_report(result, title=title or f"Mort de la lumière du jour: {result.games:,} games",
                       subtitle=sub, headline=headline_text(result) if len(t["by_pairing"]) else "",
                       notes=notes, sections=sections, command=command,
                       played=provenance_rows(result))


def provenance_rows(result) -> list[tuple[str, object]]:
    """What a Mort study played, for its provenance: its tables (pairings, each game at
    one in turn), the headline pairing, the players at a table; not the generic player
    counts, teams and single policy, which Mort's run does not have."""
    p = result.provenance
    labels = list(p.get("table_labels") or [])
    size = (p.get("players") or [None])[0]
    return [("tables (pairings)", f"{len(labels)}: " + "; ".join(labels) if labels else None),
            ("headline pairing", headline_pairing(result)),
            ("players at a table", None if size is None
             else f"{size}: the killer and {int(size) - 1} survivors"),
            ("focal side", p.get("side"))]
