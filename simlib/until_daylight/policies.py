"""Policy registry: names, ids and parameter vectors of the jitted policies.

A policy is chosen by name from Python; its parameters are a float64 vector whose names
and defaults live here.  The jitted code is in ``kernels/policies_nb.py``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from .kernels import policies_nb as P


@dataclass(frozen=True)
class PolicySpec:
    name: str
    id: int
    param_names: tuple[str, ...]
    defaults: tuple[float, ...]
    doc: str


POLICIES: dict[str, PolicySpec] = {
    "random": PolicySpec("random", P.POLICY_RANDOM, (), (),
                         "uniformly random legal choice at every decision (the floor)"),
    "baseline": PolicySpec(
        "baseline", P.POLICY_BASELINE,
        ("draw_score", "craft_score", "heal_missing", "collateral_penalty", "sacrifice_at_health"),
        (50.0, 100.0, 1.0, 1.5, 1.0),
        "cooperative heuristic: craft barricades/traps, search, heal when hurt, share ammo "
        "with the matching weapon, attack the most valuable line, avoid collateral, "
        "sacrifice a saved survivor only to avoid dying",
    ),
}


def resolve_policy(name: str, params: Mapping[str, float] | Sequence[float] | None = None):
    """Return ``(policy id, float64 parameter vector)`` for a policy name and parameters.

    ``params`` may be a mapping of parameter names (others keep their defaults) or a full
    sequence.  Unknown names raise ``ValueError`` naming the allowed ones.
    """
    if name not in POLICIES:
        raise ValueError(f"unknown policy {name!r}; allowed: {', '.join(POLICIES)}")
    spec = POLICIES[name]
    vec = np.array(spec.defaults, dtype=np.float64)
    if params is not None:
        if isinstance(params, Mapping):
            for k, v in params.items():
                if k not in spec.param_names:
                    raise ValueError(f"policy {name!r} has no parameter {k!r}; allowed: "
                                     f"{', '.join(spec.param_names) or '(none)'}")
                vec[spec.param_names.index(k)] = float(v)
        else:
            vals = np.asarray(params, dtype=np.float64)
            if vals.shape != vec.shape:
                raise ValueError(f"policy {name!r} takes {len(vec)} parameters "
                                 f"({', '.join(spec.param_names)}), got {vals.size}")
            vec = vals.copy()
    if vec.size == 0:
        vec = np.zeros(1, dtype=np.float64)  # one array type for every policy: one compile
    return spec.id, vec
