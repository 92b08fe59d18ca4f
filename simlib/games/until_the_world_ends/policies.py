"""Until the World Ends policy registry: names, ids, parameters and seat specifications.

A seat plays a policy with parameters; a *seat spec* is written ``name`` or
``name:param=value:param=value`` (``greedy:end_margin=10``, ``rollout:rollouts=16``); its
label in tables is the name with the parameters that differ from the defaults.
The jitted policies are in ``kernels/policies_nb.py``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

from ...core.params import PolicySpec, param_vector
from .kernels import policies_nb as P


GREEDY_DOC = ("plays the card that most raises its round score minus the best rival's; "
              "draws when nothing gains and the hand has room; ends the round when it leads "
              "every rival by >= end_margin or the round would win it the game; challenges an "
              "ending that leaves it >= challenge_margin behind (or ends the game with a rival "
              "ahead); snipes the round leader's most valuable card")
POLICIES: dict[str, PolicySpec] = {
    "random": PolicySpec("random", P.POLICY_RANDOM, (), (),
                         "a uniformly random legal action at every decision (the floor)"),
    "greedy": PolicySpec("greedy", P.POLICY_GREEDY, ("end_margin", "challenge_margin"),
                         (5.0, 5.0), GREEDY_DOC),
    "rollout": PolicySpec(
        "rollout", P.POLICY_ROLLOUT, ("rollouts", "end_margin", "challenge_margin", "z"),
        (8.0, 5.0, 5.0, 2.0),
        "flat Monte Carlo over greedy: tries each legal action in `rollouts` worlds, greedy "
        "(end_margin, challenge_margin) to the end of the game, the others' hands, the draw "
        "pile and the future shuffles re-dealt from the unseen cards (no peeking; the same "
        "worlds for every action); greedy's choice stands unless another action's mean gain "
        "in the share of the game won exceeds z standard errors"),
    "clairvoyant": PolicySpec(
        "clairvoyant", P.POLICY_CLAIRVOYANT, ("rollouts", "end_margin", "challenge_margin", "z"),
        (1.0, 5.0, 5.0, 0.0),
        "rollout's upper bound: sees every hand, the draw pile's order and the future deals "
        "(one deterministic greedy continuation per action)"),
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


_ALWAYS_SHOWN: dict[str, tuple[str, ...]] = {}


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
    if name in ("rollout", "clairvoyant") and not (1 <= vec[0] <= 256 and float(vec[0]).is_integer()):
        raise ValueError(f"policy {name!r}: rollouts must be an integer from 1 to 256; got {vec[0]:g}")
    return Seat(name, tuple(vec))


def parse_seat(text: str) -> Seat:
    """``"greedy:end_margin=10:challenge_margin=3"`` -> Seat (``ValueError`` with one clear line)."""
    parts = [p.strip() for p in str(text).split(":")]
    name, params = parts[0], {}
    for p in parts[1:]:
        k, sep, v = p.partition("=")
        if not sep or not k.strip():
            raise ValueError(f"seat {text!r}: expected policy[:name=value...], e.g. greedy:end_margin=10")
        try:
            params[k.strip()] = float(v)
        except ValueError:
            raise ValueError(f"seat {text!r}: {v!r} is not a number") from None
    return make_seat(name, params)
