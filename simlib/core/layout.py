"""Packed int64 arrays (states, records, rules) as consecutive named parts: the offsets every
game's ``codes`` module declares its layouts with, and a record's column names.

Plain Python with no imports, so a game's codes (read by its kernels at compile time and by
``simlib games``) stay cheap to import.
"""
from __future__ import annotations

from typing import Sequence

__all__ = ["layout", "part_names"]


def layout(parts: Sequence[tuple[str, int]], prefix: str, start: int = 0) -> tuple[dict[str, int], int]:
    """Offsets ``{PREFIX_NAME: offset}`` of consecutive ``(name, size)`` parts from
    ``start``, and the offset just past the last (the total size when ``start`` is 0)."""
    out, off = {}, start
    for name, size in parts:
        out[f"{prefix}{name.upper()}"] = off
        off += size
    return out, off


def part_names(parts: Sequence[tuple[str, int]]) -> list[str]:
    """Column names of the parts: ``name`` for a part of size 1, ``name_0`` .. for the others."""
    out = []
    for name, size in parts:
        out += [name] if size == 1 else [f"{name}_{s}" for s in range(size)]
    return out
