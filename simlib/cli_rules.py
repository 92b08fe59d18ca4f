"""``simlib rules``: every key of a game's ruleset, one command away.

One row per value: the key (what ``--set KEY=VALUE`` and a tweak file name), its value, the
reference ruleset's value where it differs, the source tag, what the ruleset's validator
allows and one line of meaning (:func:`simlib.core.keys.key_table`; ``--csv`` writes the
whole table).  Bad input: one line on stderr, exit status 2.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import textwrap

from .cli_args import UsageError, game_arg

__all__ = ["add_parser", "run", "games_lines"]

EXAMPLES = """\
examples:
  simlib rules                                        # Until Daylight's default ruleset
  simlib rules --game mort-de-la-lumiere-du-jour --grep cost
  simlib rules --game day-night-z --source rulebook
  simlib rules --rules calibrated --changed           # what the preset changes
  simlib rules --game till-dawn --csv > till-dawn-keys.csv
"""


def add_parser(sub) -> argparse.ArgumentParser:
    """Add ``simlib rules`` to the ``simlib`` subcommands."""
    p = sub.add_parser(
        "rules", help="every key of a game's ruleset: value, source tag, allowed range, meaning",
        description="Every key of a game's ruleset with its value, the reference value where "
                    "it differs, its source tag, what the ruleset allows and one line of "
                    "meaning (read from the shipped data files). The keys are what --set "
                    "KEY=VALUE and a tweak file take.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    game_arg(p)
    p.add_argument("--rules", default=None, metavar="RULESET",
                   help="a preset, a ruleset folder or a tweak .toml (default: the game's "
                        "declared default)")
    p.add_argument("--set", dest="sets", action="append", default=None, metavar="KEY=VALUE",
                   help="change a value first (repeatable)")
    p.add_argument("--grep", default=None, metavar="TEXT",
                   help="only the keys whose name or meaning holds TEXT (case-insensitive)")
    p.add_argument("--source", default=None, metavar="TAG",
                   help="only the values of this source tag (rulebook, assumed, ...)")
    p.add_argument("--changed", action="store_true",
                   help="only the values that differ from the reference ruleset")
    p.add_argument("--csv", action="store_true", help="the whole table as CSV on stdout")
    return p


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[:max(width - 1, 0)] + "…"


def run(a) -> int:
    from .cli_args import ruleset_arg as _ruleset_arg
    from .core.games import get_game
    from .core.keys import key_table

    game = get_game(a.game_name)
    rules = game.resolve_ruleset(_ruleset_arg(game, a))
    tags = tuple(getattr(type(rules), "SOURCES", ())) + ("override",)
    if a.source is not None and a.source not in tags:
        raise UsageError(f"--source {a.source!r}: not a source tag of {game.display_name}; "
                         f"allowed: {', '.join(tags)}")
    df = key_table(rules, contains=a.grep, source=a.source, changed=a.changed)
    if a.csv:
        df.to_csv(sys.stdout, index=False)
        return 0
    differ = (df["reference"] != df["value"]).sum()
    head = (f"{game.display_name}, ruleset {rules.lineage}: {len(df)} of {len(rules.keys())} "
            f"keys" + (" (filtered)" if len(df) != len(rules.keys()) else "")
            + (f"; {differ} differ from the reference (shown as value <- reference)"
               if differ else ""))
    lines = [head, ""]
    if df.empty:
        lines.append("no key matches")
        sys.stdout.write("\n".join(lines) + "\n")
        return 0
    width = max(shutil.get_terminal_size((120, 24)).columns, 100)
    kw = min(max(df["key"].str.len().max(), 3), 44)
    vals = [v if v == r or not r else f"{v} <- {r}" for v, r in zip(df["value"], df["reference"])]
    vw = min(max(max(len(v) for v in vals), 5), 28)
    sw = max(df["source"].str.len().max(), 6)
    aw = min(max(df["allowed"].str.len().max(), 7), 26)
    mw = max(width - (kw + vw + sw + aw + 8), 30)
    lines.append(f"{'key':<{kw}}  {'value':<{vw}}  {'source':<{sw}}  {'allowed':<{aw}}  meaning")
    lines.append("")  # the rule under the titles, as wide as the widest row (below)
    rule = len(lines) - 1
    for row, v in zip(df.itertuples(index=False), vals):
        meaning = textwrap.wrap(row.meaning, mw) or [""]
        lines.append(f"{_cut(row.key, kw):<{kw}}  {_cut(v, vw):<{vw}}  {row.source:<{sw}}  "
                     f"{_cut(row.allowed, aw):<{aw}}  {meaning[0]}")
        pad = " " * (kw + vw + sw + aw + 8)
        lines.extend(pad + m for m in meaning[1:2])  # at most two lines of meaning
    lines[rule] = "-" * max(len(ln) for ln in lines[rule - 1:])
    lines.append("")
    lines.append("--csv prints every column uncut; change a value with --set KEY=VALUE or a "
                 "tweak file (docs: Rulesets, source tags and presets).")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def games_lines(verbose: bool) -> list[str]:
    """``simlib games``: one line per game; ``verbose``: its players and their parameters."""
    from .core.games import default_game, game_names, get_game

    width = max(shutil.get_terminal_size((100, 24)).columns, 80)
    lines = []
    names = game_names()
    labels = {n: n.replace("_", "-") + (" (default)" if n == default_game() else "")
              for n in names}
    nw = max(len(v) for v in labels.values())  # as wide as the widest label, no wider
    for n in names:
        g = get_game(n)
        label = labels[n]
        pols = ", ".join(p + ("*" if p == g.default_policy else "") for p in g.policies)
        line = f"{label:<{nw}}  {g.display_name} ({g.kind}); players: {pols}"
        lines.append(line)
        if not verbose:
            continue
        lines.extend(textwrap.wrap(g.summary, width, initial_indent="    ",
                                   subsequent_indent="    "))
        lines.append("    rulesets (--rules): " + ", ".join(
            r + ("*" if r == g.default_ruleset else "") for r in g.presets))
        if g.campaign is not None:
            lines.append(f"    campaigns: simlib simulate --game {g.cli_name} --campaign N "
                         f"(and simlib compare ... --campaign N)")
        for pname, spec in g.policies.items():
            mark = " [default]" if pname == g.default_policy else ""
            lines.append(f"    policy {pname}{mark}")
            lines.extend(textwrap.wrap(spec.doc, width, initial_indent="        ",
                                       subsequent_indent="        "))
            if spec.param_names:
                params = ", ".join(f"{k}={v:g}" for k, v in zip(spec.param_names, spec.defaults))
                lines.extend(textwrap.wrap("parameters: " + params, width,
                                           initial_indent="        ",
                                           subsequent_indent="            "))
        lines.append("")
    if not verbose:
        lines.append("")
        lines.append("* the default player. simlib games --verbose: each game's players and "
                     "their parameters; simlib rules --game NAME: its ruleset's keys.")
    return lines
