"""Till Dawn policy registry: names, ids, parameters and seat specifications.

A seat plays a policy with parameters; a *seat spec* is written ``name`` or
``name:param=value:param=value`` (``threshold:t=8``, ``optimal``); its label in tables is
the name with the parameters that differ from the defaults, and always a threshold
player's ``t`` (``threshold(t=8)``).
The jitted policies are in ``kernels/policies_nb.py``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from ...core.params import PolicySpec, param_vector
from .kernels import policies_nb as P


POLICIES: dict[str, PolicySpec] = {
    "random": PolicySpec("random", P.POLICY_RANDOM, (), (),
                         "a uniformly random legal action at every decision (the floor)"),
    "threshold": PolicySpec(
        "threshold", P.POLICY_THRESHOLD, ("t", "sun_margin", "injury_cost"), (10.0, 2.0, 2.0),
        "retires when its unbanked blood reaches t, or with blood when the night-track bead "
        "is within sun_margin spaces of sunrise; votes by one-draw expected value "
        "(injury_cost blood per health lost)"),
    "optimal": PolicySpec(
        "optimal", P.POLICY_OPTIMAL, ("blood_span",), (25.0,),
        "retires by optimal stopping (exact DP over night-track position, unbanked blood and "
        "health given the cards left in the deck; blood capped at current + blood_span) and "
        "votes by the same expected value"),
}


@dataclass(frozen=True)
class Seat:
    """One seat's policy and full parameter vector."""

    policy: str
    params: tuple[float, ...]

    @property
    def label(self) -> str:
        spec = POLICIES[self.policy]
        shown = _ALWAYS_SHOWN.get(self.policy, ())
        diff = [f"{n}={_fmt(v)}" for n, v, d in zip(spec.param_names, self.params, spec.defaults)
                if v != d or n in shown]
        return self.policy + (f"({','.join(diff)})" if diff else "")

    def vector(self) -> np.ndarray:
        out = np.zeros(P.N_PARAMS, dtype=np.float64)
        out[:len(self.params)] = self.params
        return out


_ALWAYS_SHOWN = {"threshold": ("t",)}  # a threshold player is named by its threshold


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def make_seat(name: str, params: Mapping[str, float] | Sequence[float] | None = None) -> Seat:
    """A :class:`Seat` from a policy name and parameters (a mapping of names or a full
    sequence); unknown names and bad values raise ``ValueError`` naming the allowed ones."""
    if name not in POLICIES:
        raise ValueError(f"unknown policy {name!r}; allowed: {', '.join(POLICIES)}")
    spec = POLICIES[name]
    vec = [float(v) for v in param_vector(name, spec.param_names, spec.defaults, params)]
    for n, v in zip(spec.param_names, vec):
        if not np.isfinite(v):
            raise ValueError(f"policy {name!r}: parameter {n} must be a finite number; got {v}")
    if name == "optimal" and not (1 <= vec[0] <= 200 and float(vec[0]).is_integer()):
        raise ValueError(f"policy 'optimal': blood_span must be an integer from 1 to 200; got {vec[0]:g}")
    return Seat(name, tuple(vec))


def parse_seat(text: str) -> Seat:
    """``"threshold:t=8:sun_margin=1"`` -> Seat (``ValueError`` with one clear line)."""
    parts = [p.strip() for p in str(text).split(":")]
    name, params = parts[0], {}
    for p in parts[1:]:
        k, sep, v = p.partition("=")
        if not sep or not k.strip():
            raise ValueError(f"seat {text!r}: expected policy[:name=value...], e.g. threshold:t=8")
        try:
            params[k.strip()] = float(v)
        except ValueError:
            raise ValueError(f"seat {text!r}: {v!r} is not a number") from None
    return make_seat(name, params)
