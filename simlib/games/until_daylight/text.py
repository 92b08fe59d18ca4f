"""The text ``simlib simulate`` and ``simlib report`` print for an Until Daylight study."""
from __future__ import annotations

from ...core.effects import pointer
from ...core.tables import format_tables, rate_matrix, run_label

__all__ = ["render", "header"]


def header(result) -> str:
    """The study's first lines: what was played, on which ruleset, by which bot."""
    p = result.provenance
    teams = p.get("teams")
    teams_txt = teams if isinstance(teams, str) else "; ".join("+".join(t) for t in teams)
    lineage = p.get("ruleset_lineage") or str(p.get("ruleset_origin", ""))
    what = {"calibrated": "calibrated preset (a chosen difficulty: the reference with one "
                          "assumed number moved)",
            "box": "box preset (a chosen difficulty within the box's 95 horde cards: "
                   "survivors in place of enemies)",
            "reference": "reference (the rulebook and the assumptions as they stand)"}
    lines = [
        f"Until Daylight: {result.games} games, seed {p.get('seed')}, players "
        f"{','.join(map(str, p.get('players', [])))}, teams {teams_txt}, policy {p.get('policy')}, "
        f"{run_label(p)}",
        f"Ruleset: {what.get(lineage, lineage)}",
        f"Note: these are win rates of the {p.get('policy')!r} bot, not of human players; "
        "intervals are 95 % Wilson intervals.",
    ]
    if not result.complete:
        lines.insert(1, f"Unfinished run: {result.games} of {p.get('games')} games are done "
                        "(the verified chunks so far); run the same command to finish it.")
    return "\n".join(lines)


def render(result, all_tables: bool = False) -> str:
    """The text ``simlib simulate`` and ``simlib report`` print."""
    t = result.tables
    parts = [header(result)]
    if all_tables:
        parts.append(format_tables(t, max_rows=10_000))
        return "\n\n".join(parts) + "\n"
    parts.append(format_tables(t, ["overall", "by_players", "by_character"]))
    if len(t.by_players) > 1:
        m = rate_matrix(t.by_character_players, "character", "players")
        parts.append("== win % by character and players [95% CI] ==\n" + m.to_string())
    # a designer reads the teams from the best down, not alphabetically (ties: more games first)
    teams = t.by_team.sort_values(["win_rate", "games"], ascending=False, kind="stable")
    parts.append(format_tables({"by_team": teams}, max_rows=50))
    parts.append(format_tables(t, ["loss_causes_by_players", "deaths_by_character"]))
    parts.append(pointer("cooperative", len(t.by_character)))
    return "\n\n".join(parts) + "\n"
