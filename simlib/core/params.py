"""Named parameter vectors of the players (policies) of every game."""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np

__all__ = ["param_vector"]


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
