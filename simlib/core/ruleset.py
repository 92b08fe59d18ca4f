"""Source-tagged TOML rulesets, game-agnostic: schema, loading, validation, overrides.

A game's numbers live in a folder of TOML files; every value is written
``{ value = ..., source = "..." }`` with a source tag from the game's list (``rulebook``,
``inferred``, ``assumed``...).  A game describes its files once with :class:`FileSchema`
objects; this module flattens them to dotted keys (``<file>.<field>``,
``<file>.<table>.<field>``), checks every value (type, range, vocabulary, missing and
unknown keys) and builds an immutable :class:`TaggedRuleset`.  Problems raise
:class:`RulesetError` naming the file, the dotted key and what is allowed; nothing
half-loads.

>>> rules = load_tagged(folder, SCHEMAS, MyRules)           # a full ruleset folder
>>> tweaked = rules.override({"hunt.werewolf.count": 2})    # a new, re-validated ruleset

A game subclasses :class:`TaggedRuleset` and adds its cross-file checks in
``_validate`` and its packing into kernel arrays.

Until Daylight's ruleset (``simlib/games/until_daylight/ruleset.py``, written before this
module) shares its error type and value checks from here and keeps its own flattening
and packing, with its special cases (characters' advantages, recipes, the dice).
"""
from __future__ import annotations

import copy
import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, NamedTuple, Sequence

import tomllib

__all__ = ["RulesetError", "Field", "FileSchema", "TaggedRuleset", "load_tagged", "error",
           "check_value", "split_leaf", "read_toml", "toml_value", "NAME_RE", "OVERRIDE_SOURCE"]

OVERRIDE_SOURCE = "override"
NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")


class RulesetError(ValueError):
    """A ruleset file or override is invalid; the message names file, key and what is allowed."""


def error(file: str, key: str, msg: str, allowed: Any = None) -> RulesetError:
    """``RulesetError("<file>: <key>: <msg>; allowed: ...")``."""
    text = f"{file}: {key}: {msg}" if key else f"{file}: {msg}"
    if allowed is not None:
        text += "; allowed: " + ", ".join(str(a) for a in allowed)
    return RulesetError(text)


class Field(NamedTuple):
    """One value of a schema.

    ``type``: ``int``, ``bool``, ``str``, ``choice`` (one of ``choices``), ``names`` (a
    non-empty list of distinct snake_case names) or ``counts`` (a table ``{name = int}``
    whose names are ``choices``).  ``min``/``max`` bound ints and count entries.
    """

    type: str
    min: int | None = None
    max: int | None = None
    required: bool = True
    default: Any = None
    choices: tuple[str, ...] = ()
    doc: str = ""


@dataclass(frozen=True)
class FileSchema:
    """The layout of one ruleset file.

    ``fields``: top-level values; ``tables``: fixed sub-tables (``[variants]``) with their
    fields; ``entities``: when set, the file is a list of named tables (cards, characters)
    each with these fields, in file order (the order gives the ids).  ``texts``: untagged
    free-text keys an entity may carry (descriptions for reports).
    """

    stem: str
    fields: Mapping[str, Field] = field(default_factory=dict)
    tables: Mapping[str, Mapping[str, Field]] = field(default_factory=dict)
    entities: Mapping[str, Field] | None = None
    texts: tuple[str, ...] = ("text",)

    def field_of(self, parts: Sequence[str]) -> Field | None:
        """Schema field of a dotted key's parts after the stem (``None``: no such key)."""
        if self.entities is not None:
            return self.entities.get(parts[1]) if len(parts) == 2 else None
        if len(parts) == 1:
            return self.fields.get(parts[0])
        if len(parts) == 2 and parts[0] in self.tables:
            return self.tables[parts[0]].get(parts[1])
        return None


# =========================================================================== values
def check_value(file: str, key: str, f: Field, value: Any) -> Any:
    """Type and range check of one value; returns it in canonical (immutable) form."""
    t = f.type
    if t == "int":
        if isinstance(value, bool) or not isinstance(value, int):
            raise error(file, key, f"expected an integer, got {type(value).__name__} {value!r}")
        if f.min is not None and value < f.min:
            raise error(file, key, f"value {value} out of range; must be >= {f.min}")
        if f.max is not None and value > f.max:
            raise error(file, key, f"value {value} out of range; must be <= {f.max}")
        return value
    if t == "bool":
        if not isinstance(value, bool):
            raise error(file, key, f"expected true or false, got {type(value).__name__} {value!r}")
        return value
    if t in ("str", "choice"):
        if not isinstance(value, str):
            raise error(file, key, f"expected a string, got {type(value).__name__} {value!r}")
        if t == "choice" and value not in f.choices:
            raise error(file, key, f"unknown value {value!r}", f.choices)
        return value
    if t == "names":
        if not isinstance(value, (list, tuple)) or not value or \
                not all(isinstance(v, str) and NAME_RE.match(v) for v in value):
            raise error(file, key, f"expected a non-empty list of snake_case names, got {value!r}")
        if len(set(value)) != len(value):
            raise error(file, key, f"duplicate names in {list(value)}")
        return tuple(value)
    if t == "counts":
        if not isinstance(value, Mapping):
            raise error(file, key, "expected a table of counts, e.g. { a = 1, b = 2 }", f.choices)
        out = {}
        for k, n in value.items():
            if k not in f.choices:
                raise error(file, f"{key}.{k}", "unknown name", f.choices)
            out[k] = check_value(file, f"{key}.{k}", Field("int", f.min if f.min is not None
                                                             else 0, f.max), n)
        return {k: out.get(k, 0) for k in f.choices}
    raise AssertionError(t)  # pragma: no cover


def split_leaf(file: str, key: str, node: Any, f: Any, sources: tuple[str, ...],
               check: Callable[[str, str, Any, Any], Any] = check_value):
    """``{value, source}`` -> (value checked by ``check``, source); bare values are refused.
    (A game with value types of its own passes its ``check``.)"""
    if not isinstance(node, Mapping) or "value" not in node:
        raise error(file, key, 'missing source tag: write { value = ..., source = "..." }', sources)
    extra = [k for k in node if k not in ("value", "source")]
    if extra:
        raise error(file, f"{key}.{extra[0]}", "unknown key", ("value", "source"))
    if "source" not in node:
        raise error(file, key, "missing source tag", sources)
    if node["source"] not in sources:
        raise error(file, key, f"unknown source tag {node['source']!r}", sources)
    return check(file, key, f, node["value"]), node["source"]


def read_toml(path: Path) -> dict:
    """Parse a TOML file; unreadable or malformed files raise :class:`RulesetError`."""
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{path}: malformed TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise RulesetError(f"{path}: not UTF-8 text (byte {exc.start}: "
                           f"{exc.object[exc.start:exc.start + 1]!r}); TOML files are UTF-8") from None
    except OSError as exc:
        raise RulesetError(f"{path}: cannot read ruleset file: {exc.strerror}") from None


# =========================================================================== flat form
class _Flat:
    """Ordered dotted key -> value, source; free texts; entity order per file."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.sources: dict[str, str] = {}
        self.texts: dict[str, str] = {}
        self.entities: dict[str, list[str]] = {}

    def copy(self) -> "_Flat":
        new = _Flat()
        new.values = copy.deepcopy(self.values)
        new.sources = dict(self.sources)
        new.texts = dict(self.texts)
        new.entities = {k: list(v) for k, v in self.entities.items()}
        return new


def _fields(flat: _Flat, file: str, prefix: str, node: Mapping, fields: Mapping[str, Field],
            sources, extra: Sequence[str] = ()) -> None:
    if not isinstance(node, Mapping):
        raise error(file, prefix, f"expected a table, got {type(node).__name__} {node!r}")
    for k in node:
        if k not in fields and k not in extra:
            raise error(file, f"{prefix}.{k}", "unknown key", list(fields) + list(extra))
    for k, f in fields.items():
        key = f"{prefix}.{k}"
        if k not in node:
            if f.required:
                raise error(file, key, "missing required key")
            continue
        flat.values[key], flat.sources[key] = split_leaf(file, key, node[k], f, sources)


def _flatten_file(flat: _Flat, file: str, schema: FileSchema, doc: Mapping, sources) -> None:
    s = schema.stem
    if schema.entities is not None:
        names = []
        for name, node in doc.items():
            key = f"{s}.{name}"
            if not NAME_RE.match(name):
                raise error(file, key, f"name {name!r} is not snake_case (a-z, 0-9, _)")
            _fields(flat, file, key, node, schema.entities, sources, schema.texts)
            for t in schema.texts:
                if t in node:
                    if not isinstance(node[t], str):
                        raise error(file, f"{key}.{t}", "expected a string")
                    flat.texts[f"{key}.{t}"] = node[t]
            names.append(name)
        if not names:
            raise error(file, s, "no entries")
        flat.entities[s] = names
        return
    top = {k: v for k, v in doc.items() if k not in schema.tables}
    _fields(flat, file, s, top, schema.fields, sources, tuple(schema.tables))
    for t, fields in schema.tables.items():
        if t not in doc:
            raise error(file, f"{s}.{t}", f"missing table [{t}]")
        _fields(flat, file, f"{s}.{t}", doc[t], fields, sources)


# =========================================================================== ruleset
class TaggedRuleset:
    """An immutable, validated ruleset: dotted keys with values and source tags.

    Subclasses set ``SCHEMAS`` (tuple of :class:`FileSchema`), ``SOURCES`` (allowed tags),
    ``GAME`` (a display name for written files) and may override ``_validate``
    (cross-file checks, raising :class:`RulesetError`).
    """

    SCHEMAS: tuple[FileSchema, ...] = ()
    SOURCES: tuple[str, ...] = ("rulebook", "inferred", "assumed")
    GAME = "game"
    FORMAT_VERSION = 1

    def __init__(self, *_: Any, **__: Any):
        raise TypeError("use load_tagged() or override() to make a ruleset")

    @classmethod
    def _build(cls, flat: _Flat, origin: str, files: Mapping[str, str]):
        obj = object.__new__(cls)
        obj._flat = flat
        obj.origin = origin
        obj._files = dict(files)
        obj._cache = {}
        obj._validate()
        return obj

    def _validate(self) -> None:
        """Cross-file checks of a subclass (raise :class:`RulesetError`)."""

    def __setattr__(self, name, value):
        if name in ("_flat", "origin", "_files", "_cache") and name not in self.__dict__:
            object.__setattr__(self, name, value)
            return
        raise AttributeError("a ruleset is immutable: use override()")

    # ------------------------------------------------------------------ schema
    @classmethod
    def schema(cls, stem: str) -> FileSchema | None:
        for s in cls.SCHEMAS:
            if s.stem == stem:
                return s
        return None

    def file_of(self, key: str) -> str:
        """The file a dotted key was read from (or the override that set it)."""
        return self._files.get(key.split(".", 1)[0], key.split(".", 1)[0] + ".toml")

    def names(self, stem: str) -> tuple[str, ...]:
        """Entity names of an entity file, in file order (their ids)."""
        return tuple(self._flat.entities.get(stem, ()))

    def _field(self, key: str) -> Field:
        parts = key.split(".")
        sch = self.schema(parts[0])
        if sch is None:
            raise error("override", key, "unknown file", [s.stem for s in self.SCHEMAS])
        f = sch.field_of(parts[1:])
        if sch.entities is not None and len(parts) >= 2 and parts[1] not in self.names(parts[0]):
            raise error("override", key, f"unknown entry {parts[1]!r} of {parts[0]}.toml",
                        self.names(parts[0]))
        if f is None:
            if sch.entities is not None and len(parts) == 3 and parts[2] in sch.texts:
                return Field("text")
            if sch.entities is not None:
                allowed = [f"{parts[0]}.{parts[1]}.{k}" for k in sch.entities]
            else:
                allowed = [k for k in self._flat.values if k.startswith(parts[0] + ".")]
            raise error("override", key, "unknown key", allowed)
        return f

    # ------------------------------------------------------------------ values
    def keys(self) -> list[str]:
        """Every dotted key holding a value, in file order."""
        return list(self._flat.values)

    def get(self, key: str) -> Any:
        """Value of a dotted key (an omitted optional field: its default)."""
        if key in self._flat.values:
            return copy.deepcopy(self._flat.values[key])
        if key in self._flat.texts:
            return self._flat.texts[key]
        f = self._field(key)
        return f.default

    def source(self, key: str) -> str:
        """Source tag of a dotted key (omitted optional fields: ``assumed``)."""
        if key in self._flat.sources:
            return self._flat.sources[key]
        self._field(key)
        return "assumed"

    def text(self, key: str) -> str:
        return self._flat.texts.get(key, "")

    def describe(self):
        """A DataFrame: one row per value with its key, file, value and source tag."""
        import pandas as pd

        rows = [{"key": k, "file": self.file_of(k), "value": v, "source": self._flat.sources[k]}
                for k, v in self._flat.values.items()]
        return pd.DataFrame(rows, columns=["key", "file", "value", "source"])

    def fingerprint(self) -> str:
        """sha256 of a canonical JSON of every value (sources and texts excluded)."""
        if "fp" not in self._cache:
            payload = [self.GAME, self.FORMAT_VERSION, [[k, v] for k, v in self._flat.values.items()]]
            blob = json.dumps(payload, separators=(",", ":"), default=list)
            self._cache["fp"] = hashlib.sha256(blob.encode()).hexdigest()
        return self._cache["fp"]

    # ------------------------------------------------------------------ overrides
    def override(self, mapping: Mapping[str, Any] | None = None, *, file: str = "override"):
        """A NEW validated ruleset with dotted keys replaced; this one is unchanged.

        Values are bare (source ``"override"``) or ``{"value": v, "source": tag}``.
        """
        flat = self._flat.copy()
        files = dict(self._files)
        for key, node in (mapping or {}).items():
            if not isinstance(key, str):
                raise error(file, repr(key), "override keys must be dotted strings")
            try:
                f = self._field(key)
            except RulesetError as exc:
                raise RulesetError(str(exc).replace("override:", f"{file}:", 1)) from None
            if f.type == "text":
                if not isinstance(node, str):
                    raise error(file, key, "expected a string")
                flat.texts[key] = node
                continue
            src = OVERRIDE_SOURCE
            if isinstance(node, Mapping) and "value" in node:  # { value, source } form
                extra = [k for k in node if k not in ("value", "source")]
                if extra:
                    raise error(file, f"{key}.{extra[0]}", "unknown key", ("value", "source"))
                src = node.get("source", OVERRIDE_SOURCE)
                if src not in self.SOURCES + (OVERRIDE_SOURCE,):
                    raise error(file, key, f"unknown source tag {src!r}", self.SOURCES)
                node = node["value"]
            flat.values[key] = check_value(file, key, f, node)
            flat.sources[key] = src
            files[key.split(".", 1)[0]] = file
        origin = self.origin if not mapping else f"{self.origin}+{file}"
        try:
            return type(self)._build(flat, origin, files)
        except RulesetError as exc:
            raise RulesetError(str(exc)) from None

    # ------------------------------------------------------------------ writing
    def to_toml_dir(self, path: str | Path) -> Path:
        """Write the whole ruleset as its TOML files into ``path`` (created if needed).

        Values set by an override are written with the tag ``assumed`` and a comment.
        """
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        for sch in self.SCHEMAS:
            lines = [f"# {self.GAME} ruleset: {sch.stem}.toml (written by simlib; fingerprint "
                     f"{self.fingerprint()[:16]})", ""]
            groups: dict[str, list[str]] = {}
            for k in self._flat.values:
                parts = k.split(".")
                if parts[0] != sch.stem:
                    continue
                table = ".".join(parts[1:-1])
                groups.setdefault(table, []).append(k)
            for table, keys in groups.items():
                if table:
                    lines.append(f"[{table}]")
                for k in keys:
                    src = self._flat.sources[k]
                    note = ""
                    if src not in self.SOURCES:
                        src, note = "assumed", f"  # set by {src}"
                    lines.append(f'{k.rsplit(".", 1)[1]} = {{ value = {toml_value(self._flat.values[k])}, '
                                 f'source = "{src}" }}{note}')
                for t, txt in self._flat.texts.items():
                    if t.rsplit(".", 1)[0] == f"{sch.stem}.{table}":
                        lines.append(f"{t.rsplit('.', 1)[1]} = {json.dumps(txt)}")
                lines.append("")
            (path / f"{sch.stem}.toml").write_text("\n".join(lines), encoding="utf-8")
        return path


def toml_value(v: Any) -> str:
    """A value as TOML (inline tables for mappings)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, str)):
        return json.dumps(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, Mapping):
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(v)  # pragma: no cover


# =========================================================================== loading
def load_tagged(path: str | Path, cls: type[TaggedRuleset], base: TaggedRuleset | None = None):
    """Load a ruleset of class ``cls``.

    * a directory: the full ruleset (one file per schema, every value source-tagged);
    * a ``.toml`` file: ``base`` with that file's values overriding.  A file named like a
      ruleset file (``hunt.toml``) uses that file's layout; any other file uses top-level
      tables named after the files (``[hunt.werewolf]``, ``[constants]``).  Values are
      bare (source ``override``) or ``{ value, source }``.
    """
    path = Path(path)
    if path.is_dir():
        flat = _Flat()
        files = {}
        for sch in cls.SCHEMAS:
            fpath = path / f"{sch.stem}.toml"
            if not fpath.is_file():
                raise RulesetError(f"{fpath}: missing ruleset file; a ruleset directory holds "
                                   + ", ".join(f"{s.stem}.toml" for s in cls.SCHEMAS))
            files[sch.stem] = str(fpath)
            _flatten_file(flat, str(fpath), sch, read_toml(fpath), cls.SOURCES)
        return cls._build(flat, str(path), files)
    if path.is_file():
        if base is None:
            raise RulesetError(f"{path}: an override file needs a base ruleset")
        doc = read_toml(path)
        if cls.schema(path.stem) is not None:
            doc = {path.stem: doc}
        out: dict[str, Any] = {}
        _walk(str(path), base, doc, "", out)
        return base.override(out, file=str(path))
    raise RulesetError(f"{path}: no such ruleset directory or .toml file")


def _walk(file: str, base: TaggedRuleset, node: Mapping, prefix: str, out: dict) -> None:
    for k, x in node.items():
        key = f"{prefix}.{k}" if prefix else k
        parts = key.split(".")
        sch = base.schema(parts[0])
        if sch is None:
            raise error(file, key, "unknown file", [s.stem for s in base.SCHEMAS])
        f = sch.field_of(parts[1:]) if len(parts) > 1 else None
        table_level = len(parts) == 1 or (sch.entities is not None and len(parts) == 2) or \
            (sch.entities is None and len(parts) == 2 and parts[1] in sch.tables)
        is_leaf = f is not None or not isinstance(x, Mapping) or \
            (not table_level and "value" in x)
        if is_leaf:
            out[key] = x
        else:
            _walk(file, base, x, key, out)
