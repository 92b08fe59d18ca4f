"""What the runner asks of a game's study: :class:`StudyAdapter`, and the records a chunk
may hand over undecoded (:class:`DeferredRecords`).

Below both the runner and the game contract (:mod:`simlib.core.games`), which import it:
the runner plays adapters, the contract declares how a game makes one.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol, runtime_checkable

import numpy as np

from .seats import table_focal_seats, tables_cycle
from .tables import count_records

__all__ = ["DeferredRecords", "StudyAdapter", "records_frame_of", "TableAdapter",
           "RotatingTables", "table_label", "whole_cycles"]


class DeferredRecords:
    """A chunk's records, made into their frame only when someone reads them: a study
    keeps its records by default, and most never read them (the tables come from the
    counts), so decoding a kernel's records into names is left to the first read of
    ``RunResult.records``.  ``make`` returns the frame ``run_chunk`` would (the same one)."""

    __slots__ = ("_make",)

    def __init__(self, make: Callable[[], Any]):
        self._make = make

    def frame(self):
        return self._make()


def records_frame_of(records):
    """The frame of a chunk's records, whether given as a frame or :class:`DeferredRecords`."""
    return records.frame() if isinstance(records, DeferredRecords) else records


@runtime_checkable
class StudyAdapter(Protocol):
    """A study's games, as the runner and the instruments play them (picklable: sent to
    Dask workers).  Game ``i`` is a pure function of the study's parameters and ``i``.
    A game's adapter subclasses it (``class MyAdapter(StudyAdapter)``) and so inherits
    the defaults (``run_chunk_with_counts``).

    Attributes: ``game`` (the registry name), ``spec`` (its ``TableSpec``), ``rules`` (the
    ruleset object), ``players`` (the player counts, a tuple).
    """

    game: str

    def run_chunk(self, start: int, count: int, threads: int | None = None):
        """Records of games ``start .. start + count - 1``: a DataFrame, one row per game in
        order, names rather than codes (the one type of a game's records)."""

    def run_chunk_counts(self, start: int, count: int, threads: int | None = None):
        """``aggregate(run_chunk(start, count))``, possibly cheaper (no full records)."""

    def run_chunk_with_counts(self, start: int, count: int, threads: int | None = None):
        """``(records, aggregate(records))`` of those games, ``records`` being
        ``run_chunk(start, count)`` or a :class:`DeferredRecords` that makes it: what a
        study keeping its records asks for.  An adapter that subclasses this protocol
        inherits this default; a game may count from its kernel's codes instead of the
        frame's text and defer the frame (Until Daylight)."""
        records = self.run_chunk(start, count, threads)
        return records, self.aggregate(records)

    def aggregate(self, records):
        """Additive :class:`simlib.core.tables.Counts` of a records frame."""

    def outcomes(self, start: int, count: int, threads: int | None = None):
        """The instruments' view of games ``start .. start + count - 1``
        (:class:`simlib.core.instruments.Outcomes`)."""

    def identity(self) -> dict:
        """JSON-able parameters that fix every game's result (seed, ruleset, players)."""

    def provenance(self) -> dict:
        """``identity()`` plus what a reader needs (names, the ruleset's lineage)."""

    def compile_notice(self) -> str | None:
        """A line to show before the first chunk when the kernels still have to compile
        (:func:`simlib.core.jit.compile_notice` of the adapter's game package)."""
        from .jit import compile_notice  # deferred: importing the contract imports no numba

        parts = type(self).__module__.split(".")
        if parts[:2] != ["simlib", "games"] or len(parts) < 3:
            return None  # a game outside simlib says it itself (or nothing)
        return compile_notice(parts[2], self.game.replace("_", " "))


def table_label(table) -> str:
    """``greedy x4`` when every seat plays the same, else ``rollout + greedy + random``
    (the seats' labels in seat order)."""
    labels = [s.label for s in table]
    if len(set(labels)) == 1:
        return f"{labels[0]} x{len(labels)}"
    return " + ".join(labels)


def whole_cycles(games: int, cycle: int) -> int:
    """``games`` rounded up to whole cycles of ``cycle`` games (a study's default size:
    every table in every seat rotation equally often)."""
    return -(-int(games) // int(cycle)) * int(cycle)


@dataclass(frozen=True, eq=False)
class TableAdapter(StudyAdapter):
    """A competitive study: the ruleset, the root seed and the tables of seats (each a tuple
    of a game's :class:`simlib.core.seats.Seat`) fix every game.  What every such adapter
    does alike is here: counts, ``identity`` and ``provenance``; a game adds its fields
    (after these three), ``game``, ``spec``, ``run_chunk``, ``outcomes``, ``step_game``, and
    its extra identity or provenance keys through :meth:`identity_extra` and
    :meth:`provenance_extra`, and its tables' names through :meth:`label_of`."""

    rules: Any
    seed: int
    tables: tuple

    def run_chunk_counts(self, start: int, count: int, threads: int | None = None):
        return self.aggregate(self.run_chunk(start, count, threads))

    def aggregate(self, records):
        return count_records(records, self.spec)

    def label_of(self, table) -> str:
        """A table's name in the provenance and the text (:func:`table_label` by default)."""
        return table_label(table)

    def identity_extra(self) -> dict:
        """A game's own parameters that fix its games (beyond seed, ruleset and tables)."""
        return {}

    def provenance_extra(self) -> dict:
        """What a reader of this game's results needs beyond the common keys."""
        return {}

    def identity(self) -> dict:
        return {"seed": int(self.seed), "ruleset_fingerprint": self.rules.fingerprint(),
                "tables": [[[s.policy, list(s.params)] for s in t] for t in self.tables],
                **self.identity_extra()}

    def provenance(self) -> dict:
        return {"game": self.game, **self.identity(), "ruleset_origin": self.rules.origin,
                "ruleset_lineage": getattr(self.rules, "lineage", self.rules.origin),
                "players": list(self.players),
                "table_labels": [self.label_of(t) for t in self.tables],
                **self.provenance_extra()}


@dataclass(frozen=True, eq=False)
class RotatingTables(TableAdapter):
    """Tables of equal seats played in turn, each table's seats turned one place a round
    (:func:`simlib.core.seats.table_seats`): game ``g`` plays table ``g % T`` with seat
    ``s`` taking table seat ``(s + r) % p``, ``r = (g // T) % p``."""

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(sorted({len(t) for t in self.tables}))

    def cycle(self) -> int:
        """Games after which every table has been played in every seat rotation."""
        return tables_cycle(self.tables)

    def seats_of(self, game: int) -> tuple:
        """The seats of game ``game`` in seat order (its table, rotated)."""
        g = int(game)
        table = self.tables[g % len(self.tables)]
        r = (g // len(self.tables)) % len(table)
        return tuple(table[(s + r) % len(table)] for s in range(len(table)))

    def focal_seats(self, games: np.ndarray) -> np.ndarray:
        """Seat of the player of table seat 0 (its table's first player) in each game."""
        return table_focal_seats(self.tables, games)
