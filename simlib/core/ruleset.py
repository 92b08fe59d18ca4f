"""Source-tagged TOML rulesets, game-agnostic: schema, loading, validation, overrides.

A game's numbers live in a folder of TOML files; every value is written
``{ value = ..., source = "..." }`` with a source tag from the game's list (``rulebook``,
``inferred``, ``assumed``...).  A game describes its files once, as data, with
:class:`FileSchema` objects: top-level fields, fixed sub-tables (``[variants]``; their
keys may be top-level, ``variants.<name>``), or lists of named entries (:class:`Entities`:
cards, characters, with fixed sub-tables of their own such as ``[pillar.advantage]``,
untagged free texts, restricted names) and further entry lists inside a file
(``sections``: ``rubble.basic_weapons.<card>``).  This module flattens the files to
dotted keys (``<file>.<field>``, ``<file>.<table>.<field>``, ``<file>.<entry>.<field>``...),
checks every value (type, range, vocabulary, missing and unknown keys) and builds an
immutable :class:`TaggedRuleset`.  Problems raise :class:`RulesetError` naming the file,
the dotted key and what is allowed; nothing half-loads.

>>> rules = load_tagged(folder, MyRules)                    # a full ruleset folder
>>> tweaked = rules.override({"hunt.werewolf.count": 2})    # a new, re-validated ruleset

A game subclasses :class:`TaggedRuleset` and declares ``SCHEMAS`` and ``SOURCES``; it adds
its cross-file checks in ``_validate``, its packing into kernel arrays, and, if it needs
them, value types of its own (``_check_value``) and its own fingerprint formula
(``_fingerprint_payload``).  Both games use it: Till Dawn
(``simlib/games/till_dawn/ruleset.py``) and Until Daylight
(``simlib/games/until_daylight/ruleset.py``, whose value types, error wording and
fingerprint formula, older than this module, come through those hooks).
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

__all__ = ["RulesetError", "Field", "FileSchema", "Entities", "TEXT", "TaggedRuleset", "load_tagged", "error",
           "check_value", "split_leaf", "read_toml", "toml_value", "NAME_RE", "OVERRIDE_SOURCE",
           "describe_changes"]

OVERRIDE_SOURCE = "override"
NAME_RE = re.compile(r"^[a-z][a-z0-9_]*$")


class RulesetError(ValueError):
    """A ruleset file or override is invalid; the message names file, key and what is allowed."""


def error(file: str, key: str, msg: str, allowed: Any = None) -> RulesetError:
    """``RulesetError("<file>: <key>: <msg>; allowed: ...")``; a key holding control
    characters (a TOML quoted key may) is shown escaped, so the message stays one line."""
    if key and not key.isprintable():
        key = key.encode("unicode_escape").decode("ascii")
    text = f"{file}: {key}: {msg}" if key else f"{file}: {msg}"
    if allowed is not None:
        text += "; allowed: " + ", ".join(str(a) for a in allowed)
    return RulesetError(text)


class Field(NamedTuple):
    """One value of a schema.

    ``type``: ``int``, ``bool``, ``str``, ``choice`` (one of ``choices``), ``names`` (a
    non-empty list of distinct snake_case names), ``counts`` (a table ``{name = int}``
    whose names are ``choices``) or ``text`` (an untagged free text, kept out of the
    values and the fingerprint: descriptions for reports).  A game may add types of its
    own by giving its ruleset class a ``_check_value``.  ``min``/``max`` bound ints and
    count entries.
    """

    type: str
    min: int | None = None
    max: int | None = None
    required: bool = True
    default: Any = None
    choices: tuple[str, ...] = ()
    doc: str = ""


TEXT = Field("text", required=False, default="")


@dataclass(frozen=True)
class Entities:
    """A list of named tables (cards, characters...), each with the same layout.

    ``fields``: the values of each entry; ``tables``: fixed sub-tables of each entry with
    their fields (``[pillar.advantage]``).  Names are snake_case, or, when ``allowed`` is
    set, one of those (``allowed_what`` names them in messages).  ``what`` names an entry
    in messages (``unknown character 'x'``); ``nonempty``: a file without entries is an
    error here (else the game's ``_validate`` decides).
    """

    fields: Mapping[str, Field]
    tables: Mapping[str, Mapping[str, Field]] = field(default_factory=dict)
    what: str = ""
    allowed: tuple[str, ...] = ()
    allowed_what: str = "name"
    nonempty: bool = True

    def field_of(self, parts: Sequence[str]) -> Field | None:
        """Field of ``<name>.<field>`` or ``<name>.<table>.<field>`` (``None``: no such key)."""
        if len(parts) == 2:
            return self.fields.get(parts[1])
        if len(parts) == 3 and parts[1] in self.tables:
            return self.tables[parts[1]].get(parts[2])
        return None


@dataclass(frozen=True)
class FileSchema:
    """The layout of one ruleset file.

    ``fields``: top-level values; ``tables``: fixed sub-tables (``[variants]``) with their
    fields; a table listed in ``top_level`` has dotted keys ``<table>.<field>`` instead of
    ``<file>.<table>.<field>`` (the file-prefixed form is accepted as an alias).
    ``entities``: when set, the file is a list of named tables (cards, characters), in
    file order (the order gives the ids): an :class:`Entities`, or a plain mapping of
    fields (plus the free texts ``texts``).  ``sections``: further entity lists in named
    sub-tables of an entity file (``[basic_weapons.bow]``: keys
    ``<file>.<section>.<name>.<field>``).
    """

    stem: str
    fields: Mapping[str, Field] = field(default_factory=dict)
    tables: Mapping[str, Mapping[str, Field]] = field(default_factory=dict)
    entities: Mapping[str, Field] | Entities | None = None
    texts: tuple[str, ...] = ("text",)
    sections: Mapping[str, Entities] = field(default_factory=dict)
    top_level: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.entities is not None and not isinstance(self.entities, Entities):
            fields = dict(self.entities)
            fields.update({t: TEXT for t in self.texts if t not in fields})
            object.__setattr__(self, "entities", Entities(fields))

    def prefix(self, table: str = "") -> str:
        """Dotted prefix of the file (``table`` empty) or of one of its fixed tables."""
        if not table:
            return self.stem
        return table if table in self.top_level else f"{self.stem}.{table}"

    def field_of(self, parts: Sequence[str]) -> Field | None:
        """Schema field of a dotted key's parts after the stem (``None``: no such key)."""
        if self.entities is not None:
            if parts and parts[0] in self.sections:
                return self.sections[parts[0]].field_of(parts[1:])
            return self.entities.field_of(parts)
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
    if t in ("str", "choice", "text"):
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
    """Ordered dotted key -> value, source; free texts; entity order per entity list."""

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


Check = Callable[[str, str, Any, Any], Any]


def _not_a_table(file: str, key: str, node: Any) -> RulesetError:
    return error(file, key, f"expected a table, got {type(node).__name__} {node!r}")


def _fields(flat: _Flat, file: str, prefix: str, node: Any, fields: Mapping[str, Field],
            sources: tuple[str, ...], check: Check, extra: Sequence[str] = ()) -> None:
    """Flatten one table of fields (text fields go to the texts, untagged)."""
    if not isinstance(node, Mapping):
        raise _not_a_table(file, prefix, node)
    for k in node:
        if k not in fields and k not in extra:
            raise error(file, f"{prefix}.{k}", "unknown key", list(fields) + list(extra))
    for k, f in fields.items():
        key = f"{prefix}.{k}"
        if k not in node:
            if f.required:
                raise error(file, key, "missing required key")
            continue
        if f.type == "text":
            flat.texts[key] = check(file, key, f, node[k])
        else:
            flat.values[key], flat.sources[key] = split_leaf(file, key, node[k], f, sources, check)


def _entity_list(flat: _Flat, file: str, prefix: str, doc: Any, ent: Entities,
                 sources: tuple[str, ...], check: Check, skip: Sequence[str] = ()) -> None:
    if not isinstance(doc, Mapping):
        raise _not_a_table(file, prefix, doc)
    names = []
    for name, node in doc.items():
        if name in skip:
            continue
        key = f"{prefix}.{name}"
        if ent.allowed:
            if name not in ent.allowed:
                raise error(file, key, f"unknown {ent.allowed_what} {name!r}", ent.allowed)
        elif not NAME_RE.match(name):
            what = f"{ent.what} name" if ent.what else "name"
            raise error(file, key, f"{what} {name!r} is not snake_case (a-z, 0-9, _)")
        if not isinstance(node, Mapping):
            raise _not_a_table(file, key, node)
        top = {k: v for k, v in node.items() if k not in ent.tables}
        _fields(flat, file, key, top, ent.fields, sources, check, tuple(ent.tables))
        for t, fields in ent.tables.items():
            if t not in node:
                raise error(file, f"{key}.{t}", f"missing table [{name}.{t}]")
            _fields(flat, file, f"{key}.{t}", node[t], fields, sources, check)
        names.append(name)
    if ent.nonempty and not names:
        raise error(file, prefix, "no entries")
    flat.entities[prefix] = names


def _flatten_file(flat: _Flat, file: str, schema: FileSchema, doc: Mapping,
                  sources: tuple[str, ...], check: Check = check_value) -> None:
    s = schema.stem
    if schema.entities is not None:
        _entity_list(flat, file, s, doc, schema.entities, sources, check, tuple(schema.sections))
        for sec, ent in schema.sections.items():
            _entity_list(flat, file, f"{s}.{sec}", doc.get(sec, {}), ent, sources, check)
        return
    top = {k: v for k, v in doc.items() if k not in schema.tables}
    _fields(flat, file, s, top, schema.fields, sources, check, tuple(schema.tables))
    for t, fields in schema.tables.items():
        if t not in doc:
            raise error(file, schema.prefix(t), f"missing table [{t}]")
        _fields(flat, file, schema.prefix(t), doc[t], fields, sources, check)


def jsonable(value: Any) -> Any:
    """Tuples as lists, mappings as dicts (recursively): a value as JSON sees it."""
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Mapping):
        return {k: jsonable(x) for k, x in value.items()}
    return value


# =========================================================================== ruleset
def _rebuild(cls: type, flat: _Flat, origin: str, files: Mapping[str, str]) -> "TaggedRuleset":
    return cls._build(flat, origin, files)


class TaggedRuleset:
    """An immutable, validated ruleset: dotted keys with values and source tags.

    Subclasses set ``SCHEMAS`` (tuple of :class:`FileSchema`), ``SOURCES`` (allowed tags),
    ``GAME`` (a display name for written files) and may override ``_validate``
    (cross-file checks, raising :class:`RulesetError`; it may set attributes of its own
    with ``object.__setattr__``), ``_check_value`` (value types of the game's own) and
    ``_fingerprint_payload`` (what the fingerprint hashes).
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
        for name, value in (("_flat", flat), ("origin", origin), ("_files", dict(files)),
                            ("_cache", {})):
            object.__setattr__(obj, name, value)
        obj._validate()  # raises before the object is handed out
        return obj

    def _validate(self) -> None:
        """Cross-file checks of a subclass (raise :class:`RulesetError`)."""

    @classmethod
    def _check_value(cls, file: str, key: str, f: Field, value: Any) -> Any:
        """Type and range check of one value (a game with types of its own overrides it)."""
        return check_value(file, key, f, value)

    def __setattr__(self, name, value):
        raise AttributeError("a ruleset is immutable: use override()")

    def __delattr__(self, name):
        raise AttributeError("a ruleset is immutable")

    def __reduce__(self):  # pickled as its values, re-validated when unpickled
        return (_rebuild, (type(self), self._flat, self.origin, self._files))

    def __copy__(self):
        return self

    @property
    def lineage(self) -> str:
        """How this ruleset was made, as a designer names it: ``reference``,
        ``calibrated``, ``calibrated+tweak.toml``, ``reference+override`` (the shipped
        folder reads ``reference``, a preset its name, a file its name)."""
        out = []
        for i, part in enumerate(str(self.origin).split("+")):
            path = Path(part)
            if i == 0 and path.name == _data_folder_name(type(self)):
                out.append("reference")
            elif i == 0:
                out.append(str(path))
            elif path.parent.name == "presets":
                out.append(path.stem)
            else:
                out.append(path.name)
        if len(out) > 1 and out[0] == "reference" and out[1] in _PRESET_NAMES.get(type(self), ()):
            out = out[1:]  # "calibrated" rather than "reference+calibrated"
        return "+".join(out)

    @classmethod
    def reference(cls):
        """The game's shipped reference ruleset: the ``reference`` preset its
        ``load_ruleset`` declares (through :func:`resolve_ruleset`), else the folder
        ``DATA_FOLDER`` shipped with simlib (cached)."""
        make = _REFERENCE_MAKERS.get(cls)
        if make is not None:
            return make()
        return cls.shipped()

    @classmethod
    def shipped_dir(cls) -> Path:
        """The folder ``DATA_FOLDER`` shipped with simlib (``simlib._data``, or <repo>/data)."""
        folder = _data_folder_name(cls)
        if not folder or not cls.SCHEMAS:
            raise RulesetError(f"{cls.__name__}: no reference ruleset (set DATA_FOLDER or "
                               "load it through resolve_ruleset with a 'reference' preset)")
        return shipped_ruleset_dir(folder, f"{cls.SCHEMAS[0].stem}.toml", cls.GAME)

    @classmethod
    def shipped(cls):
        """The ruleset of :meth:`shipped_dir` (cached)."""
        if cls not in _REFERENCE_CACHE:
            _REFERENCE_CACHE[cls] = load_tagged(cls.shipped_dir(), cls)
        return _REFERENCE_CACHE[cls]

    @classmethod
    def load(cls, spec=None):
        """``spec`` through :func:`resolve_ruleset` for a game whose one preset is the
        shipped ``reference`` (:meth:`shipped`), the default."""
        return resolve_ruleset(spec, cls, presets={"reference": cls.shipped},
                               default="reference")

    def changes(self, base: "TaggedRuleset | None" = None) -> list[dict]:
        """Every value that differs from ``base`` (default: the game's shipped reference
        ruleset, :meth:`reference`).

        Returns
        -------
        list of dict
            ``{"key", "value", "reference", "source"}`` per differing key, in canonical key
            order (keys only one side has come with ``None`` on the other side); JSON-able.
        """
        base = type(self).reference() if base is None else base
        mine, theirs = self._flat.values, base._flat.values
        keys = list(mine) + [k for k in theirs if k not in mine]
        out = []
        for key in keys:
            a = jsonable(mine[key]) if key in mine else None
            b = jsonable(theirs[key]) if key in theirs else None
            if a != b:
                out.append({"key": key, "value": a, "reference": b,
                            "source": self._flat.sources.get(key) if key in mine else None})
        return out

    def __deepcopy__(self, memo: dict):
        return self

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.fingerprint() == self.fingerprint()

    def __hash__(self) -> int:
        return hash(self.fingerprint())

    # ------------------------------------------------------------------ schema and keys
    @classmethod
    def schema(cls, stem: str) -> FileSchema | None:
        for s in cls.SCHEMAS:
            if s.stem == stem:
                return s
        return None

    @classmethod
    def canonical(cls, key: str) -> str:
        """The public form of a dotted key (``<file>.<top-level table>.x`` -> ``<table>.x``)."""
        parts = key.split(".")
        if len(parts) >= 2:
            sch = cls.schema(parts[0])
            if sch is not None and parts[1] in sch.top_level:
                return ".".join(parts[1:])
        return key

    @classmethod
    def _locate(cls, key: str) -> tuple[FileSchema, list[str]] | None:
        """(schema, parts inside the file) of a canonical dotted key (``None``: no such file)."""
        parts = key.split(".")
        for sch in cls.SCHEMAS:
            if parts[0] == sch.stem:
                return sch, parts[1:]
            if parts[0] in sch.top_level:
                return sch, parts
        return None

    @classmethod
    def _heads(cls) -> list[str]:
        return [h for s in cls.SCHEMAS for h in (s.stem, *s.top_level)]

    def file_of(self, key: str) -> str:
        """The file a dotted key (or a file stem) was read from (or the override that set it)."""
        loc = self._locate(self.canonical(key))
        stem = loc[0].stem if loc else key.split(".", 1)[0]
        return self._files.get(stem, stem + ".toml")

    def names(self, stem: str) -> tuple[str, ...]:
        """Entity names of an entity list (``hunt``, ``rubble.basic_weapons``), in file order."""
        return tuple(self._flat.entities.get(stem, ()))

    def _field(self, key: str) -> tuple[str, Field]:
        """(canonical key, schema field) of a dotted key; an unknown key raises, naming what
        is allowed (messages start with ``override:``)."""
        key = self.canonical(key)
        loc = self._locate(key)
        if loc is None:
            raise error("override", key, "unknown key", self._heads())
        sch, parts = loc
        if sch.entities is None:
            f = sch.field_of(parts)
            if f is None:
                head = key.split(".")[0]
                raise error("override", key, "unknown key",
                            [k for k in self._flat.values if k.split(".")[0] == head])
            return key, f
        ent, prefix, rest = sch.entities, sch.stem, parts
        if rest and rest[0] in sch.sections:
            ent, prefix, rest = sch.sections[rest[0]], f"{sch.stem}.{rest[0]}", rest[1:]
        names = self.names(prefix)
        name = rest[0] if rest else ""
        if name not in names:
            for sec, other in sch.sections.items():
                if name in self.names(f"{sch.stem}.{sec}"):
                    raise error("override", key, f"{name!r} is a {other.what or sec + ' entry'}: "
                                f"use {sch.stem}.{sec}.{name}.<field>")
            what = f"unknown {ent.what} {name!r}" if ent.what else \
                f"unknown entry {name!r} of {sch.stem}.toml"
            raise error("override", key, what, names)
        f = ent.field_of(rest)
        if f is None:
            if len(rest) >= 2 and rest[1] in ent.tables:
                allowed = [f"{prefix}.{name}.{rest[1]}.{k}" for k in ent.tables[rest[1]]]
            else:
                allowed = [f"{prefix}.{name}.{k}" for k in (*ent.fields, *ent.tables)]
            raise error("override", key, "unknown key", allowed)
        return key, f

    def field(self, key: str) -> Field:
        """The schema field (type, range, default) of a dotted key; an unknown key raises
        :class:`RulesetError` naming what is allowed."""
        return self._field(key)[1]

    # ------------------------------------------------------------------ values
    def keys(self) -> list[str]:
        """Every dotted key holding a value, in file order (texts excluded)."""
        return list(self._flat.values)

    def get(self, key: str) -> Any:
        """Value of a dotted key (lists come back as tuples; an omitted optional field: its
        default; a text key: its text)."""
        key = self.canonical(key)
        if key in self._flat.values:
            return copy.deepcopy(self._flat.values[key])
        if key in self._flat.texts:
            return self._flat.texts[key]
        return self._field(key)[1].default

    def source(self, key: str) -> str:
        """Source tag of a dotted key (omitted optional fields: ``assumed``; texts: ``text``)."""
        key = self.canonical(key)
        if key in self._flat.sources:
            return self._flat.sources[key]
        return "text" if self._field(key)[1].type == "text" else "assumed"

    def text(self, key: str) -> str:
        """A free text: ``text("hunt.werewolf.text")`` or of its table,
        ``text("characters.pillar.advantage")``; ``""`` if none."""
        key = self.canonical(key)
        if key in self._flat.texts:
            return self._flat.texts[key]
        return self._flat.texts.get(key + ".text", "")

    def describe(self):
        """A DataFrame: one row per value with its key, file, value, source tag and note
        (the free text of the value's table, if any)."""
        import pandas as pd

        rows = [{"key": k, "file": self._locate(k)[0].stem + ".toml", "value": jsonable(v),
                 "source": self._flat.sources[k],
                 "note": self._flat.texts.get(k.rsplit(".", 1)[0] + ".text", "")}
                for k, v in self._flat.values.items()]
        return pd.DataFrame(rows, columns=["key", "file", "value", "source", "note"])

    def _fingerprint_payload(self) -> Any:
        """What :meth:`fingerprint` hashes (as compact ASCII JSON)."""
        return [self.GAME, self.FORMAT_VERSION, [[k, v] for k, v in self._flat.values.items()]]

    def fingerprint(self) -> str:
        """sha256 of a canonical JSON of every value (sources and texts excluded)."""
        if "fp" not in self._cache:
            blob = json.dumps(self._fingerprint_payload(), separators=(",", ":"), default=list,
                              ensure_ascii=True)
            self._cache["fp"] = hashlib.sha256(blob.encode()).hexdigest()
        return self._cache["fp"]

    # ------------------------------------------------------------------ overrides
    def override(self, mapping: Mapping[str, Any] | None = None, *, file: str = "override"):
        """A NEW validated ruleset with dotted keys replaced; this one is unchanged.

        Values are bare (source ``"override"``) or ``{"value": v, "source": tag}``.
        """
        flat = self._flat.copy()
        files = dict(self._files)
        tags = self.SOURCES + (OVERRIDE_SOURCE,)
        for raw, node in (mapping or {}).items():
            if not isinstance(raw, str):
                raise error(file, repr(raw), "override keys must be dotted strings")
            try:
                key, f = self._field(raw)
            except RulesetError as exc:
                raise RulesetError(str(exc).replace("override:", f"{file}:", 1)) from None
            if f.type == "text":
                flat.texts[key] = self._check_value(file, key, f, node)
            else:
                src = OVERRIDE_SOURCE
                if isinstance(node, Mapping) and "value" in node:  # { value, source } form
                    extra = [k for k in node if k not in ("value", "source")]
                    if extra:
                        raise error(file, f"{key}.{extra[0]}", "unknown key", ("value", "source"))
                    src = node.get("source", OVERRIDE_SOURCE)
                    if src not in tags:
                        raise error(file, key, f"unknown source tag {src!r}", tags)
                    node = node["value"]
                flat.values[key] = self._check_value(file, key, f, node)
                flat.sources[key] = src
            files[self._locate(key)[0].stem] = file
        origin = self.origin if not mapping else f"{self.origin}+{file}"
        try:
            return type(self)._build(flat, origin, files)
        except RulesetError as exc:
            raise RulesetError(str(exc)) from None

    # ------------------------------------------------------------------ writing
    def to_toml_dir(self, path: str | Path) -> Path:
        """Write the whole ruleset as its TOML files into ``path`` (created if needed); they
        load back to the same fingerprint.

        Values set by an override are written with the tag ``assumed`` and a comment.
        """
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        tables: dict[str, dict[str, list[str]]] = {s.stem: {} for s in self.SCHEMAS}
        for items, is_text in ((self._flat.values, False), (self._flat.texts, True)):
            for k in items:
                sch, parts = self._locate(k)
                leaf = f"{parts[-1]} = " + (json.dumps(items[k]) if is_text else self._toml_leaf(k))
                tables[sch.stem].setdefault(".".join(parts[:-1]), []).append(leaf)
        for sch in self.SCHEMAS:
            lines = [f"# {self.GAME} ruleset: {sch.stem}.toml (written by simlib; fingerprint "
                     f"{self.fingerprint()[:16]})", ""]
            for table, leaves in tables[sch.stem].items():
                lines += ([f"[{table}]"] if table else []) + leaves + [""]
            (path / f"{sch.stem}.toml").write_text("\n".join(lines), encoding="utf-8")
        return path

    def _toml_leaf(self, key: str) -> str:
        src, note = self._flat.sources[key], ""
        if src not in self.SOURCES:  # the files hold the game's tags; an override is an assumption
            src, note = "assumed", f"  # set by {src}"
        return f'{{ value = {toml_value(self._flat.values[key])}, source = "{src}" }}{note}'


def describe_changes(changes: Sequence[Mapping] | None, limit: int = 8) -> str:
    """One line of :meth:`TaggedRuleset.changes`: ``key reference -> value, ...`` (at most
    ``limit`` keys, then how many more); ``""`` when nothing changed or nothing was
    recorded."""
    if not changes:
        return ""

    def show(v: Any) -> str:
        return "-" if v is None else json.dumps(v, separators=(",", ":"), ensure_ascii=False)

    parts = [f"{c['key']} {show(c.get('reference'))} -> {show(c.get('value'))}"
             for c in changes[:limit]]
    if len(changes) > limit:
        parts.append(f"and {len(changes) - limit} more")
    return ", ".join(parts)


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
def shipped_ruleset_dir(folder: str, probe: str, display_name: str) -> Path:
    """The reference ruleset of a game shipped with simlib: ``<folder>`` of the package
    ``simlib._data`` (an installed wheel, an editable install), else ``<repo>/data/<folder>``
    of the checkout this module lives in; ``probe`` is a file the folder must hold."""
    try:
        from importlib.resources import files

        cand = Path(str(files("simlib._data") / folder))
        if (cand / probe).is_file():
            return cand
    except (ImportError, TypeError, NotImplementedError, ModuleNotFoundError):
        pass
    cand = Path(__file__).resolve().parents[2] / "data" / folder
    if (cand / probe).is_file():
        return cand
    raise RulesetError(f"cannot find the default {display_name} ruleset (package simlib._data "
                       f"or {cand})")


_PRESET_NAMES: dict[type, tuple[str, ...]] = {}
_REFERENCE_MAKERS: dict[type, Callable[[], TaggedRuleset]] = {}  # each game's "reference" preset
_REFERENCE_CACHE: dict[type, TaggedRuleset] = {}


def _data_folder_name(cls: type) -> str:
    return getattr(cls, "DATA_FOLDER", "") or ""


BASE_KEY = "base"  # a tweak file's top-level `base = "calibrated"` names the ruleset it changes


def resolve_ruleset(spec: Any, cls: type[TaggedRuleset], *,
                    presets: Mapping[str, Callable[[], TaggedRuleset]], default: str):
    """The ruleset a designer's ``spec`` names, the same way for every game.

    * a ruleset of class ``cls``: itself;
    * ``None``: the game's declared default (``presets[default]``);
    * a preset name (``reference``, ``calibrated``), unless a file of that name exists;
    * a folder: a whole ruleset (every file, every value tagged);
    * a ``.toml`` tweak: applied over the ruleset its top-level ``base = "..."`` names
      (a preset or a path), or over the default when it names none;
    * ``"base+tweak.toml"`` (``calibrated+tweak.toml``, ``a.toml+b.toml``): tweaks applied
      in order over the base (a file that names another base is refused).

    The result's :attr:`TaggedRuleset.lineage` says how it was made.
    """
    _PRESET_NAMES[cls] = tuple(presets)
    if "reference" in presets:
        _REFERENCE_MAKERS[cls] = presets["reference"]
    if isinstance(spec, cls):
        return spec
    if spec is None:
        return presets[default]()
    if isinstance(spec, Path):
        spec = str(spec)
    if not isinstance(spec, str):
        raise TypeError(f"ruleset must be a {cls.__name__}, a preset name, a path or None; got "
                        f"{type(spec).__name__}")
    path = Path(spec)
    if spec in presets and not path.exists():
        return presets[spec]()
    if path.is_dir():
        return load_tagged(path, cls)
    if path.is_file():
        named = _named_base(path)
        base = resolve_ruleset(named if named is not None else default, cls, presets=presets,
                               default=default)
        return load_tagged(path, cls, base=base)
    if "+" in spec:
        head, _, tail = spec.rpartition("+")
        tweak = Path(tail)
        if not tweak.is_file():
            raise RulesetError(f"{tail}: no such tweak file (in {spec!r}, each part after a '+' "
                               "is a .toml file of changes)")
        named = _named_base(tweak)
        if named is not None and named != head:
            raise RulesetError(f"{tweak}: {BASE_KEY}: the file names base {named!r}, but "
                               f"{spec!r} applies it over {head!r}; drop one of the two")
        base = resolve_ruleset(head, cls, presets=presets, default=default)
        return load_tagged(tweak, cls, base=base)
    raise RulesetError(f"{spec}: no such ruleset directory or .toml file (or a preset name: "
                       f"{', '.join(presets)}; or base+tweak.toml)")


def _named_base(path: Path) -> str | None:
    doc = read_toml(path)
    base = doc.get(BASE_KEY)
    if base is None:
        return None
    if not isinstance(base, str) or not base.strip():
        raise error(str(path), BASE_KEY, f"must be a preset name or a path; got {base!r}")
    return base.strip()


def load_tagged(path: str | Path, cls: type[TaggedRuleset], base: TaggedRuleset | None = None):
    """Load a ruleset of class ``cls``.

    * a directory: the full ruleset (one file per schema, every value source-tagged);
    * a ``.toml`` file: ``base`` with that file's values overriding.  A file named like a
      ruleset file (``hunt.toml``) uses that file's layout; any other file uses top-level
      tables named after the files (``[hunt.werewolf]``, ``[constants]``) or the top-level
      tables (``[variants]``).  Values are bare (source ``override``) or ``{ value, source }``.
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
            _flatten_file(flat, str(fpath), sch, read_toml(fpath), cls.SOURCES, cls._check_value)
        return cls._build(flat, str(path), files)
    if path.is_file():
        if base is None:
            raise RulesetError(f"{path}: an override file needs a base ruleset")
        doc = read_toml(path)
        if isinstance(doc.get(BASE_KEY), str):
            doc.pop(BASE_KEY)  # the base it names was resolved by resolve_ruleset
        if cls.schema(path.stem) is not None:
            doc = {path.stem: doc}
        out: dict[str, Any] = {}
        _walk(str(path), base, doc, "", out)
        try:
            return base.override(out, file=str(path))
        except RulesetError as exc:
            msg = str(exc)
            if msg.startswith("override:"):
                msg = f"{path}:" + msg[len("override:"):]
            raise RulesetError(msg) from None
    raise RulesetError(f"{path}: no such ruleset directory or .toml file")


def _walk(file: str, base: TaggedRuleset, node: Mapping, prefix: str, out: dict) -> None:
    """An override file's tables -> dotted key: value or { value, source }."""
    for k, x in node.items():
        key = base.canonical(f"{prefix}.{k}" if prefix else k)
        loc = base._locate(key)
        f = loc[0].field_of(loc[1]) if loc else None
        if f is not None:
            if isinstance(x, Mapping) and "value" in x and "source" not in x:
                raise error(file, key, "missing source tag (or give a bare value)", base.SOURCES)
            if isinstance(x, Mapping) and "source" in x and x["source"] not in base.SOURCES:
                raise error(file, key, f"unknown source tag {x['source']!r}", base.SOURCES)
            out[key] = x
        elif isinstance(x, Mapping) and (_is_table(loc) or not ("value" in x or "source" in x)):
            _walk(file, base, x, key, out)
        else:
            try:
                base._field(key)
            except RulesetError as exc:
                raise RulesetError(str(exc).replace("override:", f"{file}:", 1)) from None
            out[key] = x  # pragma: no cover - every known key has a field


def _is_table(loc: tuple[FileSchema, list[str]] | None) -> bool:
    """Whether a located key names a table of the schema (a file, entry, fixed table)."""
    if loc is None:
        return False
    sch, parts = loc
    if not parts:
        return True
    if sch.entities is None:
        return len(parts) == 1 and parts[0] in sch.tables
    ent = sch.entities
    if parts[0] in sch.sections:
        ent, parts = sch.sections[parts[0]], parts[1:]
        if not parts:
            return True
    return len(parts) == 1 or (len(parts) == 2 and parts[1] in ent.tables)
