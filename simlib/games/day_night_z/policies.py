"""Day Night Z's players: names, ids and named parameters (the kernels are
``kernels/policies_nb.py``, which documents what each player does).

>>> POLICIES["baseline"].param_names
('heal_at', 'sp_gain', 'sp_reserve', 'noisy_below')
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import numpy as np

from ...core.params import param_vector
from .kernels import policies_nb as P

__all__ = ["PolicySpec", "POLICIES", "param_array", "BASELINE_DOC"]


@dataclass(frozen=True)
class PolicySpec:
    name: str
    id: int
    param_names: tuple[str, ...]
    defaults: tuple[float, ...]
    doc: str


BASELINE_DOC = ("searches the location tiles then walks to an exit; heals below heal_at health; "
                "lowers the threat with SP while holding sp_gain SP or more; spends 1 SP on a roll "
                "while holding more than sp_reserve; hits the engaged enemy likeliest to die; "
                "noisy weapons only while the threat is below noisy_below units; flees at red health")
POLICIES: dict[str, PolicySpec] = {
    "random": PolicySpec("random", P.POLICY_RANDOM, (), (),
                         "a uniformly random legal action at every decision (the floor)"),
    # defaults: heal in yellow health's lower half; lower threat only with a cap's worth of
    # SP in hand; keep 2 SP (a lowering's green cost); noisy weapons in green threat only
    "baseline": PolicySpec("baseline", P.POLICY_BASELINE, ("heal_at", "sp_gain", "sp_reserve", "noisy_below"),
                           (5.0, 8.0, 2.0, 16.0), BASELINE_DOC),
}


def param_array(name: str, params: Mapping[str, float] | None = None) -> np.ndarray:
    """Policy ``name``'s full parameter vector (float64, ``N_PARAMS``); unknown names and
    non-finite values raise ``ValueError`` naming the allowed ones."""
    if name not in POLICIES:
        raise ValueError(f"unknown policy {name!r}; allowed: {', '.join(POLICIES)}")
    spec = POLICIES[name]
    vec = [float(v) for v in param_vector(name, spec.param_names, spec.defaults, params)]
    for n, v in zip(spec.param_names, vec):
        if not np.isfinite(v):
            raise ValueError(f"policy {name!r}: parameter {n} must be a finite number; got {v}")
    out = np.zeros(P.N_PARAMS, dtype=np.float64)
    out[:len(vec)] = vec
    return out
