"""A game's records as a declarative schema, and the one decoder of every game's records.

A kernel writes one integer row per game; a study, ``play_games`` and the step model's
``Game.record()`` give that row as one frame row with names rather than codes.  A game
says *what* its columns are (:class:`Schema`: a tuple of columns, in the frame's order)
and :func:`decode` makes the frame, so every game's frame is made the same way (the same
dtypes for the same kinds of values, an empty seat's values null).

The convention: a game's ``records.py`` declares its ``SCHEMA`` (or a function of the
record's width or the ruleset that returns it) and ``records_frame(out, rules, ...)``,
a call of :func:`decode` that passes the game's own inputs (seat labels, study indices).

Columns (each ``name`` may hold ``{s}``, the seat from 0, and ``{s1}``, from 1, inside
:class:`Seats`; ``src`` is the record field read, by default the name):

- :class:`Field`: the record's integer as it is;
- :class:`Flag`: a bool (``field == equals``, or ``field != 0``);
- :class:`Names`: a code named from a vocabulary (a tuple, or a function of the ruleset);
  a negative code is ``missing``;
- :class:`Label`: a per-seat label given by the caller (``labels``, shape ``(n, seats)``);
- :class:`Computed`: anything else, a function of the :class:`Context` (the record's
  fields, the columns made so far, the rules, the caller's inputs) returning one column,
  or a mapping of several;
- :class:`Seats`: columns repeated for each seat, seat-major; with ``nullable`` (on a
  :class:`Field` or :class:`Flag`) a seat beyond the table's ``players`` is null
  (``Int64`` / ``boolean``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np
import pandas as pd

__all__ = ["Schema", "Field", "Flag", "Names", "Label", "Computed", "Seats", "Context",
           "decode", "labels_table", "STR_DTYPE"]

STR_DTYPE = pd.Series(["a"]).dtype  # pandas >= 3: "str"; pandas 2: object


class Context:
    """What a column reads while a frame is made: ``field(name)`` (the record's integers),
    ``ctx[col]`` (a column made before it), ``rules``, ``inputs`` (the caller's keywords),
    ``n`` (games), ``width`` (an integer record's length), ``seats`` (the schema's)."""

    def __init__(self, records: np.ndarray, schema: "Schema", rules, inputs: Mapping[str, Any]):
        self.records = records
        self.rules = rules
        self.inputs = inputs
        self.cols: dict[str, Any] = {}
        self.structured = records.dtype.names is not None
        self.n = len(records)
        self.width = None if self.structured else records.shape[1]
        if not self.structured:
            names = schema.fields(self.width) if callable(schema.fields) else schema.fields
            if len(names) != self.width:
                raise ValueError(f"a record of {self.width} columns, the schema names {len(names)}")
            self._index = {f: j for j, f in enumerate(names)}
        self.seats = schema.seats(self.width) if callable(schema.seats) else schema.seats
        self._tables: dict[int, np.ndarray] = {}

    def field(self, name: str) -> np.ndarray:
        if self.structured:
            return self.records[name]
        return self.records[:, self._index[name]]

    def __getitem__(self, col: str):
        return self.cols[col]

    def present(self, s: int) -> np.ndarray:
        """Games whose table has a seat ``s``."""
        return self.field("players") > s

    def labels(self, key: str = "labels") -> np.ndarray:
        """The caller's per-seat labels (object ``(n, seats)``; none given: all ``None``)."""
        x = self.inputs.get(key)
        return np.full((self.n, self.seats), None, dtype=object) if x is None else x

    def vocabulary(self, col: "Names") -> np.ndarray:
        """A :class:`Names` column's names as an array, its ``missing`` last (code -1)."""
        t = self._tables.get(id(col))
        if t is None:
            names = col.names(self.rules) if callable(col.names) else col.names
            t = self._tables[id(col)] = np.array(list(names) + [col.missing], dtype=object)
        return t


def _at(template: str | None, s: int | None) -> str | None:
    return template if template is None or s is None else template.format(s=s, s1=s + 1)


@dataclass(frozen=True)
class Field:
    """The record's integer ``src`` (default: ``name``) as it is; ``nullable`` in a
    :class:`Seats` group: null at an empty seat (``Int64``)."""
    name: str
    src: str | None = None
    nullable: bool = False

    def emit(self, ctx: Context, s: int | None):
        v = ctx.field(_at(self.src or self.name, s))
        if self.nullable:
            v = pd.Series(v, dtype="Int64").where(ctx.present(s)).array
        yield _at(self.name, s), v


@dataclass(frozen=True)
class Flag:
    """A bool: ``src == equals`` (``equals=None``: ``src != 0``); ``nullable`` as in
    :class:`Field` (``boolean``)."""
    name: str
    src: str | None = None
    equals: int | None = 1
    nullable: bool = False

    def emit(self, ctx: Context, s: int | None):
        v = ctx.field(_at(self.src or self.name, s))
        v = v.astype(bool) if self.equals is None else v == self.equals
        if self.nullable:
            v = pd.Series(v, dtype="boolean").where(ctx.present(s)).array
        yield _at(self.name, s), v


@dataclass(frozen=True)
class Names:
    """The code ``src`` named from ``names`` (a sequence, ``None`` for a code without a
    name, or a function of the rules returning one); a negative code is ``missing``."""
    name: str
    names: Sequence[str | None] | Callable[[Any], Sequence[str | None]]
    src: str | None = None
    missing: str | None = None

    def emit(self, ctx: Context, s: int | None):
        table = ctx.vocabulary(self)
        code = ctx.field(_at(self.src or self.name, s))
        yield _at(self.name, s), table[np.where(code < 0, len(table) - 1, code)]


@dataclass(frozen=True)
class Label:
    """A seat's label from the caller's ``input`` (object ``(n, seats)``); ``None`` at an
    empty seat or where none was given."""
    name: str
    input: str = "labels"

    def emit(self, ctx: Context, s: int | None):
        yield _at(self.name, s), np.where(ctx.present(s), ctx.labels(self.input)[:, s], None)


@dataclass(frozen=True)
class Computed:
    """``fn(ctx)`` (``fn(ctx, s)`` in a :class:`Seats` group): one column ``name``, or
    with ``name=None`` a mapping of columns, in order."""
    name: str | None
    fn: Callable[..., Any]

    def emit(self, ctx: Context, s: int | None):
        v = self.fn(ctx) if s is None else self.fn(ctx, s)
        if self.name is None:
            yield from v.items()
        else:
            yield _at(self.name, s), v


@dataclass(frozen=True)
class Seats:
    """``columns`` for each seat ``s`` in turn (seat-major); ``count``: seats (default
    the schema's ``seats``), an int or a function of the :class:`Context`."""
    columns: tuple
    count: int | Callable[[Context], int] | None = None

    def emit(self, ctx: Context, s: int | None):
        count = ctx.seats if self.count is None else (
            self.count(ctx) if callable(self.count) else self.count)
        for seat in range(int(count)):
            for col in self.columns:
                yield from col.emit(ctx, seat)


@dataclass(frozen=True)
class Schema:
    """A game's records: ``columns`` in the frame's order; ``fields``: the names of an
    integer record's columns (a sequence, or a function of the record's width; unused for a
    structured record array); ``seats``: the seat columns of a record (an int or a function
    of the width); ``strings``: text columns in pandas' string dtype rather than object."""
    columns: tuple
    fields: Sequence[str] | Callable[[int], Sequence[str]] = ()
    seats: int | Callable[[int | None], int] = 0
    strings: bool = False


def decode(records: np.ndarray, schema: Schema, rules=None, *, strings: bool | None = None,
           **inputs) -> pd.DataFrame:
    """The frame of ``records`` (int64 ``(n, width)`` or a structured array): one row a
    game, the schema's columns in order.  ``inputs`` are the caller's, for :class:`Label`
    and :class:`Computed` columns; ``strings`` overrides the schema's."""
    ctx = Context(records, schema, rules, inputs)
    for col in schema.columns:
        for name, values in col.emit(ctx, None):
            ctx.cols[name] = values
    df = pd.DataFrame(ctx.cols)
    if (schema.strings if strings is None else strings) and STR_DTYPE is not object:
        for c in df.columns:
            if df[c].dtype == object:
                df[c] = df[c].astype(STR_DTYPE)
    return df


def labels_table(ctx: Context, key: str = "labels") -> np.ndarray:
    """Each game's table: its seats' labels sorted and joined by ``+`` (who plays where
    does not name a table)."""
    labels, npl = ctx.labels(key), ctx.field("players")
    return np.array(["+".join(sorted(str(x) for x in labels[i, :npl[i]])) for i in range(ctx.n)],
                    dtype=object)
