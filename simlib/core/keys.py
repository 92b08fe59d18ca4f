"""Every key of a game's ruleset as a designer looks it up (``simlib rules --game G``).

:func:`key_table` gives one row per value: its key, value, the reference ruleset's value,
source tag, the range the ruleset's validator allows and one line of what it means.  The
meaning is read from the shipped reference files themselves, where the data's authors
wrote it: a comment at the end of the value's line, else the file's glossary of field names
(the ``#   count   cards in the deck`` lines at the top of an entity file), else the free
text of the value's table.  Cross-key rules (a minimum that must stay below a maximum) are
the validator's and are not listed; a value outside them is refused with its reason.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pandas as pd

from .ruleset import Field, TaggedRuleset

__all__ = ["key_table", "allowed_text", "COLUMNS"]

COLUMNS = ["key", "value", "reference", "source", "allowed", "meaning"]

_TABLE = re.compile(r"^\s*\[\s*([A-Za-z0-9_.\-\"]+)\s*\]")
_VALUE = re.compile(r"^\s*([A-Za-z0-9_\-]+)\s*=.*?#\s*(.+?)\s*$")
# "#   count   cards in the deck" and "# attacks_per_ap: rapid fire 2, burst 3"
_GLOSSARY = re.compile(r"^#\s{1,8}([a-z][a-z0-9_]*)(?:\s{2,}|:\s+)(\S.*?)\s*$")


def allowed_text(fld: Field) -> str:
    """What the validator allows for one field, in a few words."""
    if fld.type == "int":
        if fld.min is not None and fld.max is not None:
            return f"{fld.min} to {fld.max}" if fld.min != fld.max else f"{fld.min} only"
        if fld.min is not None:
            return f">= {fld.min}"
        return f"<= {fld.max}" if fld.max is not None else "an integer"
    if fld.type == "bool":
        return "true or false"
    if fld.type == "choice":
        return " | ".join(fld.choices)
    if fld.type == "counts":
        lo = "" if fld.min is None else f" >= {fld.min}"
        return "{name = count" + lo + "}, names: " + ", ".join(fld.choices)
    if fld.type == "names":
        return "a list of distinct snake_case names"
    if fld.type == "str":
        return "text"
    if fld.choices:
        return " | ".join(fld.choices)
    return f"a {fld.type.replace('_', ' ')} (the game checks it)"  # a game's own type


def _file_notes(path: Path) -> tuple[dict[str, str], dict[str, str]]:
    """``({dotted key inside the file: end-of-line comment}, {field name: glossary line})``."""
    inline: dict[str, str] = {}
    glossary: dict[str, str] = {}
    table: list[str] = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError:
        return inline, glossary
    for line in lines:
        m = _TABLE.match(line)
        if m:
            table = [p.strip('"') for p in m.group(1).split(".")]
            continue
        if line.lstrip().startswith("#"):
            g = _GLOSSARY.match(line)
            if g and g.group(1) not in glossary:
                glossary[g.group(1)] = g.group(2)
            continue
        v = _VALUE.match(line)
        if v:
            inline[".".join(table + [v.group(1)])] = v.group(2)
    return inline, glossary


def _notes(ref: TaggedRuleset) -> dict[str, str]:
    """Meaning of each canonical key of ``ref``'s files (see the module docstring)."""
    out: dict[str, str] = {}
    files = getattr(ref, "_files", {}) or {}
    for stem, path in files.items():
        inline, glossary = _file_notes(Path(path))
        for inner, text in inline.items():
            out.setdefault(ref.canonical(f"{stem}.{inner}"), text)
            out.setdefault(ref.canonical(inner), text)
        for name, text in glossary.items():
            out.setdefault(f"\0{stem}\0{name}", text)
    return out


def _shown(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k} = {_shown(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_shown(x) for x in v) + "]"
    return str(v)


def key_table(rules: TaggedRuleset, *, contains: str | None = None,
              source: str | None = None, changed: bool = False) -> pd.DataFrame:
    """One row per value of ``rules``: ``key, value, reference, source, allowed, meaning``.

    Parameters
    ----------
    rules : TaggedRuleset
        A game's ruleset (``GameInfo.load_ruleset(...)``, any preset or tweak).
    contains : str, optional
        Keep the rows whose key or meaning holds this text (case-insensitive).
    source : str, optional
        Keep the rows of this source tag (``assumed``, ``rulebook``, ...).
    changed : bool
        Keep only the values that differ from the game's reference ruleset.

    Returns
    -------
    DataFrame
        ``value`` and ``reference`` as text (lists and tables written as in TOML);
        ``reference`` is the shipped reference ruleset's value of the key.
    """
    ref = type(rules).reference()
    notes = _notes(ref)
    rows = []
    for key in rules.keys():
        fld = rules.field(key)
        parent = key.rsplit(".", 1)[0]
        meaning = (fld.doc or notes.get(key)
                   or notes.get(f"\0{Path(ref.file_of(key)).stem}\0{key.rsplit('.', 1)[-1]}")
                   # the text of a sub-table describes its values (characters.x.advantage);
                   # an entry's text describes the entry, not each of its values
                   or (rules.text(parent) if parent.count(".") >= 2 else "") or "")
        value = rules.get(key)
        try:
            refv = ref.get(key)
        except ValueError:  # a key the reference does not have (a game's own extra entry)
            refv = None
        rows.append({"key": key, "value": _shown(value),
                     "reference": "" if refv is None else _shown(refv),
                     "source": rules.source(key), "allowed": allowed_text(fld),
                     "meaning": " ".join(str(meaning).split())})
    df = pd.DataFrame(rows, columns=COLUMNS)
    if changed:
        df = df[df["value"] != df["reference"]]
    if source:
        df = df[df["source"] == source]
    if contains:
        c = contains.lower()
        df = df[df["key"].str.lower().str.contains(c, regex=False)
                | df["meaning"].str.lower().str.contains(c, regex=False)]
    return df.reset_index(drop=True)
