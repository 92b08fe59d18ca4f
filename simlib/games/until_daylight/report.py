"""Until Daylight's HTML report (``simlib simulate --html``, ``simlib report``): a
co-operative game's questions — the group's win rate by player count and character,
each character's effect with teammates held fixed, when and how the night is lost, who
dies, which teams win."""
from __future__ import annotations

from ...core.report import (Note, Report, Section, effects_section, figure_block,
                            format_value, game_report, rate_table)
from ...core.tables import pct, ruleset_label

__all__ = ["study_report"]


def study_report(result, *, title: str | None = None, command: str | None = None) -> Report:
    """The report of an Until Daylight study: the team's win rate
    by player count and member, survival by round, loss causes, deaths, teams, provenance.

    Figures the result cannot draw (e.g. round counts missing in an old saved run) are
    replaced by a line saying why.
    """
    t = result.tables
    spec = result.counts.spec
    p = dict(result.provenance)
    fig = result.plot
    game = str(p.get("game", "study")).replace("_", " ").title()
    title = title or f"{game}: {result.games:,} games"
    primary, member = spec.primary, spec.member
    overall = t["overall"].iloc[0] if len(t["overall"]) else None
    headline = ""
    if overall is not None:
        headline = (f"The group won {pct(overall['win_rate']).strip()} % of {result.games:,} "
                    f"games (95 % interval {pct(overall['ci_low']).strip()} – "
                    f"{pct(overall['ci_high']).strip()} %).")
    teams = p.get("teams")
    sub = (f"seed {p.get('seed')}, {primary or 'groups'} {format_value(p.get('players'))}, teams "
           f"{format_value(teams)}, policy {p.get('policy')}, ruleset {ruleset_label(p)}")
    notes = [f"These are win rates of the {p.get('policy', '?')!r} bot (computer players), not of "
             "human players. Every rate comes with its 95 % Wilson interval: where two "
             "intervals overlap widely, the study cannot tell the two apart."]
    sections = []

    by_primary = f"by_{spec.grouping_of((primary,))}" if primary else None
    s = Section(f"Win rate by {primary}", intro=f"Share of games won, by {primary}; bars are "
                "95 % intervals.", id="win-rates")
    sections.append(s)
    s.add(figure_block(fig.win_rates, alt="win rate by " + str(primary), figsize=(7.0, 3.6)))
    if by_primary in t:
        s.add(rate_table(t[by_primary], id="table-by-primary"))

    by_member = f"by_{spec.grouping_of((member,))}"
    death_prefix = next((pre for col, pre in spec.categories if col in spec.member_valued), None)
    n_members = len(t[by_member]) if by_member in t else 6
    s = Section(f"Win rate by {member}", intro=f"Each cell: the win rate of the games a "
                f"{member} played with that many {primary}, and its 95 % interval.",
                id="heatmap")
    sections.append(s)
    s.add(figure_block(fig.heatmap, alt=f"win rate by {member} and {primary}",
                       figsize=(7.5, 0.55 * n_members + 1.4)))
    if by_member in t:
        extra = {"died": t[f"{death_prefix}_{by_member}"]} if death_prefix else None
        s.add(rate_table(t[by_member], sortable=True, sort=True, extra=extra,
                         id="table-by-member",
                         caption=f"summed over {primary}; 'died': share of its games in which "
                                 f"this {member} was the one who died"))

    sections.append(effects_section(result))

    s = Section("When the night is lost", intro="Survival: the share of games still "
                "going after each round (the last point is the win rate); then how and "
                "when games are lost, and how long they last.", id="survival")
    sections.append(s)
    s.add(figure_block(fig.survival, alt="survival curve", figsize=(7.0, 3.8)))
    s.add(figure_block(fig.loss_causes, alt="loss causes by round", figsize=(7.0, 3.6)))
    s.add(figure_block(fig.game_length, alt="distribution of game length", figsize=(7.0, 3.4)))
    round_name = spec.grouping_of((primary, spec.round)) if spec.round else None
    if round_name and len(t[f"by_{round_name}"]):
        g = t[f"by_{round_name}"]["games"]
        r = g.index.get_level_values(spec.round).to_numpy(dtype=float)
        mean = (g * r).groupby(level=primary).sum() / g.groupby(level=primary).sum()
        s.add(Note("Average round in which a game ends: " + ", ".join(
            f"{k} {primary}: {v:.2f}" for k, v in mean.items()) + "."))
    loss_prefix = next((pre for col, pre in spec.categories if col not in spec.member_valued), None)
    if loss_prefix and loss_prefix in t:
        s.add(rate_table(t[loss_prefix], id="table-loss-causes",
                         caption="how games are lost (share of all games)"))

    s = Section(f"Deaths by {member}", intro=f"How often each {member} is the one who "
                f"dies, out of the games it played.", id="deaths")
    sections.append(s)
    s.add(figure_block(fig.deaths, alt=f"deaths by {member}",
                       figsize=(7.0, 0.4 * n_members + 1.3)))

    team_name = spec.grouping_of(("team",))
    if team_name:
        teams_t = t[f"by_{team_name}"]
        s = Section("Teams", intro=f"Every team played ({len(teams_t):,}); click a column "
                    "title to sort.", id="teams")
        sections.append(s)
        s.add(rate_table(teams_t, sortable=True, sort=True, id="table-teams"))

    return game_report(result, title=title, subtitle=sub, headline=headline, notes=notes,
                       sections=sections, command=command)
