"""What the command line's modules share: a parser with one-line errors, the error of a bad
argument found after parsing, and the parsers of lists of player counts, teams, policy
parameters and seat tables."""
from __future__ import annotations

import argparse
import json
import sys

__all__ = ["Parser", "UsageError", "game_arg", "int_list", "characters", "policy_params", "positive",
           "seats", "changes_line", "progress", "ruleset_arg", "set_value", "with_changes"]


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors (no usage dump) and exit status 2."""

    def error(self, message: str):  # noqa: D401 - argparse API
        self.exit(2, f"{self.prog}: error: {message}\n")


class UsageError(ValueError):
    """A bad argument found after parsing (message is the one line shown)."""


# =========================================================================== parsing
def game_arg(p) -> None:
    """``--game NAME``, as every command that plays or reads one game takes it."""
    p.add_argument("--game", dest="game_name", default=None, metavar="NAME",
                   help="a registered game (default until-daylight; `simlib games` lists them)")


def int_list(text: str, what: str) -> list[int]:
    out = []
    for part in text.split(","):
        part = part.strip()
        try:
            out.append(int(part))
        except ValueError:
            raise UsageError(f"{what}: {part!r} is not an integer (expected e.g. 3,4,5,6)") from None
    return out


def characters(values: list[str] | None):
    if not values:
        return None
    if len(values) == 1 and values[0].strip() in ("all", "random"):
        return values[0].strip()
    teams = []
    for v in values:
        if v.strip() in ("all", "random"):
            raise UsageError(f"--characters {v.strip()} cannot be combined with teams")
        names = [n.strip() for n in v.split(",") if n.strip()]
        if not names:
            raise UsageError(f"--characters: empty team {v!r}")
        teams.append(names)
    return teams[0] if len(teams) == 1 else teams


def policy_params(values: list[str] | None, flag: str = "--policy-param"):
    if not values:
        return None
    out = {}
    for v in values:
        name, sep, val = v.partition("=")
        if not sep or not name.strip():
            raise UsageError(f"{flag} {v!r}: expected name=value")
        try:
            out[name.strip()] = float(val)
        except ValueError:
            raise UsageError(f"{flag} {v!r}: {val!r} is not a number") from None
    return out


def progress(no_progress: bool):
    """The runner's ``progress`` of a command: none with ``--no-progress``; else a bar on a
    terminal, and a line at most every 10 s when stderr is a file or a pipe (a log, CI), so
    a long run is never silent."""
    if no_progress:
        return False
    try:
        terminal = sys.stderr.isatty()
    except (AttributeError, ValueError):
        terminal = False
    return None if terminal else "lines"


def positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if n <= 0:
        raise argparse.ArgumentTypeError(f"must be positive, got {n}")
    return n


def seats(values: list[str] | None):
    if not values:
        return None
    tables = []
    for v in values:
        seats = [x.strip() for x in v.split(",") if x.strip()]
        if not seats:
            raise UsageError(f"--seats: empty table {v!r}")
        tables.append(seats)
    return tables


# =========================================================================== headers
def changes_line(prov, lineage_key: str = "ruleset_lineage",
                 changes_key: str = "ruleset_changes") -> str:
    """The header's line of the values a run changed from the game's reference ruleset
    (``""`` for a preset of the game as shipped, or when nothing was recorded)."""
    from .core.games import UnknownGameError, get_game
    from .core.ruleset import describe_changes

    changes = prov.get(changes_key)
    if not changes:
        return ""
    try:
        presets = get_game(prov.get("game")).presets
    except UnknownGameError:
        presets = ()
    if str(prov.get(lineage_key, "")) in presets:
        return ""  # a shipped preset (calibrated): its name says what it is
    return f"Changed from the reference ruleset: {describe_changes(changes)}"


def ruleset_arg(game, a):
    """``--rules`` with the ``--set`` changes applied (a new ruleset), or ``--rules`` as given."""
    if not getattr(a, "sets", None):
        return a.rules
    base = game.resolve_ruleset(a.rules)
    values = {}
    for item in a.sets:
        key, sep, text = item.partition("=")
        key, text = key.strip(), text.strip()
        if not sep or not key or not text:
            raise UsageError(f"--set {item!r}: expected key=value")
        try:
            values[key] = set_value(key, base.field(key), text)
        except ValueError as exc:  # a RulesetError names the key "override: <key>: ..."
            raise UsageError(str(exc).replace("override:", "--set", 1)) from None
    return base.override(values, file="--set")


def set_value(key: str, fld, text: str):
    """A ``--set`` value in the type of its field (the ruleset then checks its range)."""
    if fld.type == "int":
        try:
            return int(text)
        except ValueError:
            raise UsageError(f"--set {key}={text}: expected an integer") from None
    if fld.type == "bool":
        if text.lower() not in ("true", "false"):
            raise UsageError(f"--set {key}={text}: expected true or false")
        return text.lower() == "true"
    if fld.type in ("str", "choice", "text"):
        return text
    if fld.type == "names":
        return [n.strip() for n in text.split(",") if n.strip()]
    try:  # a game's own value type: JSON (a list, a table), else the text itself
        return json.loads(text)
    except ValueError:
        return text


def with_changes(text: str, prov, success: str | None = None) -> str:
    """The game's tables with, under their first (header) line, the values the run changed
    from the reference ruleset and (``success``) the outcome the instruments count, so
    that the same "win" is named in simulate as in compare, sweep, calibrate and the page."""
    lines = [ln for ln in (changes_line(prov),
                           success and f"'win' in compare, sweep, calibrate, skill and the what-if "
                                       f"page: {success}.") if ln]
    if not lines:
        return text
    head, nl, rest = text.partition("\n")
    add = "\n".join(lines)
    return f"{head}\n{add}{nl}{rest}" if nl else f"{head}\n{add}\n"
