"""What the runner asks of a game's study: :class:`StudyAdapter`, and the records a chunk
may hand over undecoded (:class:`DeferredRecords`).

Below both the runner and the game contract (:mod:`simlib.core.games`), which import it:
the runner plays adapters, the contract declares how a game makes one.
"""
from __future__ import annotations

from typing import Any, Callable, Protocol, runtime_checkable

__all__ = ["DeferredRecords", "StudyAdapter", "records_frame_of"]


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
