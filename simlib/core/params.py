"""Named parameter vectors of the players (policies) of every game."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

__all__ = ["PolicySpec", "param_vector", "count", "count_list", "number", "add_run_options"]


def add_run_options(p, out_default, out_metavar: str, out_help: str,
                    progress_help: str = "no progress lines") -> None:
    """The options every long command shares, declared once: ``--threads``, ``--out`` (its
    default, placeholder and help the command's), ``--force`` and ``--no-progress``."""
    p.add_argument("--threads", default=None, metavar="N", help="numba threads")
    p.add_argument("--out", default=out_default, metavar=out_metavar, help=out_help)
    p.add_argument("--force", action="store_true", help="overwrite an existing --out file")
    p.add_argument("--no-progress", action="store_true", help=progress_help)


def count(text, what: str, lo: int = 1) -> int:
    """A whole-number option of at least ``lo`` (``"2000"``, ``"2e3"``; not ``"2.5"``); a
    ``ValueError`` naming the option (``what``) otherwise.  Every command's counts, seeds
    and thread numbers are read here."""
    try:
        v = float(str(text))
    except ValueError:
        raise ValueError(f"{what}: {text!r} is not a number") from None
    if not math.isfinite(v) or v != int(v) or v < lo:
        bound = "a positive integer" if lo == 1 else f"an integer >= {lo}"
        raise ValueError(f"{what} must be {bound}; got {text!r}")
    return int(v)


def count_list(text, what: str, default: Sequence[int], lo: int = 1) -> list[int]:
    """A comma-separated list of :func:`count` options (``"3,4,5"``); ``default`` when not given."""
    return list(default) if text is None else [count(x, what, lo) for x in str(text).split(",")]


def number(text, what: str) -> float:
    """A finite number option; a ``ValueError`` naming the option otherwise."""
    try:
        v = float(str(text))
    except ValueError:
        raise ValueError(f"{what}: {text!r} is not a number") from None
    if not math.isfinite(v):
        raise ValueError(f"{what}: {text!r} is not a finite number")
    return v


@dataclass(frozen=True)
class PolicySpec:
    """A named player of a game: the kernel's policy ``id``, its parameters' names and
    default values (the vector :func:`param_vector` fills), and the one-line ``doc`` that
    ``simlib policies`` prints.  ``search``: played by a game's search kernel over its
    baseline (Until Daylight's and Day Night Z's rollout players) rather than by the
    batch kernel's policy switch."""
    name: str
    id: int
    param_names: tuple[str, ...]
    defaults: tuple[float, ...]
    doc: str
    search: bool = False


def param_vector(policy: str, names: Sequence[str], defaults: Sequence[float],
                 params: Mapping[str, float] | Sequence[float] | None = None) -> np.ndarray:
    """The float64 parameter vector of ``policy``: its ``defaults``, with ``params`` (a
    mapping of parameter names, the others keeping their defaults, or a full sequence)
    applied.  An unknown name or a sequence of the wrong length raises ``ValueError``
    naming the allowed parameters."""
    vec = np.array(defaults, dtype=np.float64)
    if params is None:
        return vec
    if isinstance(params, Mapping):
        for k, v in params.items():
            if k not in names:
                raise ValueError(f"policy {policy!r} has no parameter {k!r}; allowed: "
                                 f"{', '.join(names) or '(none)'}")
            vec[list(names).index(k)] = float(v)
        return vec
    vals = np.asarray(params, dtype=np.float64)
    if vals.shape != vec.shape:
        raise ValueError(f"policy {policy!r} takes {len(vec)} parameters "
                         f"({', '.join(names)}), got {vals.size}")
    return vals.copy()
