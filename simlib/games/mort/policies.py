"""Mort de la lumière du jour players: names, ids, parameters and seat specifications.

A seat spec is ``name`` or ``name:param=value:...`` (``heuristic:work_radius=8``,
``rollout:rollouts=8``).  Every player can sit on either side: ``heuristic`` plays the
killer's heuristic on seat 0 and the survivors' on the others (each reads its own
parameters).  ``baseline`` is another name for ``heuristic`` with its defaults.
The jitted players are in ``kernels/policies_nb.py``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from ...core.params import PolicySpec, param_vector
from .kernels import policies_nb as P

__all__ = ["PolicySpec", "POLICIES", "Seat", "make_seat", "parse_seat", "PARAM_INDEX"]

# where each parameter sits in the kernels' one parameter vector
PARAM_INDEX = {"guard_lamps": P.PR_GUARD_LAMPS, "flee_radius": P.PR_FLEE_RADIUS,
               "work_radius": P.PR_WORK_RADIUS, "rollouts": P.PR_ROLLOUTS, "horizon": P.PR_HORIZON,
               "margin": P.PR_MARGIN}
_HEUR = ("guard_lamps", "flee_radius", "work_radius")
_HEUR_DEFAULTS = (2.0, 4.0, 6.0)


POLICIES: dict[str, PolicySpec] = {
    "random": PolicySpec("random", P.POLICY_RANDOM, (), (),
                         "a uniformly random legal action at every decision (the floor)"),
    "heuristic": PolicySpec(
        "heuristic", P.POLICY_HEURISTIC, _HEUR, _HEUR_DEFAULTS,
        "killer: chases the nearest survivor (injured first) and strikes whenever able, guards "
        "the generator with the most lamps (>= guard_lamps) when no survivor is within reach of "
        "his hand, breaks pallets with cards, else detours or rolls, sprints and blocks; "
        "survivors: repair the nearest generator while the killer is at least work_radius away, "
        "else flee to a pallet within flee_radius (dropping it), open chests below the card "
        "limit, heal, open a powered gate, escape by a gate or the hatch"),
    "baseline": PolicySpec("baseline", P.POLICY_HEURISTIC, _HEUR, _HEUR_DEFAULTS,
                           "the heuristic with its default parameters (another name)"),
    "rollout": PolicySpec(
        "rollout", P.POLICY_ROLLOUT, ("rollouts", "horizon", "margin") + _HEUR, (8.0, 0.0, 0.2) + _HEUR_DEFAULTS,
        "flat Monte Carlo for either side: each legal action tried in `rollouts` playouts of "
        "`horizon` rounds (0: to the end) by the heuristics, the unseen hands dealt again "
        "from the unseen cards (no peeking at decks or hands); keeps the heuristic's action "
        "unless another wins a `margin` share of the playouts more"),
}
POLICY_BY_ID = {0: "random", 1: "heuristic", 2: "rollout"}


@dataclass(frozen=True)
class Seat:
    """One seat's policy and its parameters (in ``POLICIES[policy].param_names`` order)."""

    policy: str
    params: tuple[float, ...]

    @property
    def label(self) -> str:
        spec = POLICIES[self.policy]
        diff = [f"{n}={_fmt(v)}" for n, v, d in zip(spec.param_names, self.params, spec.defaults)
                if v != d]
        return self.policy + (f"({','.join(diff)})" if diff else "")

    def vector(self) -> np.ndarray:
        out = np.zeros(P.N_PARAMS, dtype=np.float64)
        out[[PARAM_INDEX[n] for n in _HEUR]] = _HEUR_DEFAULTS
        for n, v in zip(POLICIES[self.policy].param_names, self.params):
            out[PARAM_INDEX[n]] = v
        return out


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def make_seat(name: str, params: Mapping[str, float] | Sequence[float] | None = None) -> Seat:
    """A :class:`Seat` from a policy name and parameters (a mapping or a full sequence);
    unknown names and bad values raise ``ValueError`` naming the allowed ones."""
    if name not in POLICIES:
        raise ValueError(f"unknown policy {name!r}; allowed: {', '.join(POLICIES)}")
    spec = POLICIES[name]
    vec = [float(v) for v in param_vector(name, spec.param_names, spec.defaults, params)]
    for n, v in zip(spec.param_names, vec):
        if not np.isfinite(v) or v < 0 or v > 1000:
            raise ValueError(f"policy {name!r}: parameter {n} must be a number from 0 to 1000; got {v:g}")
    if name == "rollout":
        if not (1 <= vec[0] <= 256 and float(vec[0]).is_integer()):
            raise ValueError(f"policy 'rollout': rollouts must be an integer from 1 to 256; got {vec[0]:g}")
        if not float(vec[1]).is_integer():
            raise ValueError(f"policy 'rollout': horizon must be an integer (0: to the end); got {vec[1]:g}")
    return Seat(name, tuple(vec))


def parse_seat(text: str) -> Seat:
    """``"heuristic:work_radius=8"`` -> Seat (``ValueError`` with one clear line)."""
    parts = [p.strip() for p in str(text).split(":")]
    name, params = parts[0], {}
    for p in parts[1:]:
        k, sep, v = p.partition("=")
        if not sep or not k.strip():
            raise ValueError(f"seat {text!r}: expected policy[:name=value...], e.g. heuristic:work_radius=8")
        try:
            params[k.strip()] = float(v)
        except ValueError:
            raise ValueError(f"seat {text!r}: {v!r} is not a number") from None
    return make_seat(name, params)
