"""A competitive game's seats: one player (a policy with its parameters) per seat.

A *seat spec* is written ``name`` or ``name:param=value:param=value`` (``threshold:t=8``,
``greedy:end_margin=10``); its label in tables is the name with the parameters that differ
from the defaults (and any a game always shows, as Till Dawn's threshold ``t``).

A game subclasses :class:`Seat` once, naming its players and where their parameters go in
the kernels' vector; parsing, checking and labelling are the same for every game::

    class Seat(seats.Seat):
        policies = POLICIES            # {name: PolicySpec}
        n_params = P.N_PARAMS          # length of the kernels' parameter vector
        example = "threshold:t=8"      # shown in the error of a malformed spec
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Mapping, Sequence

import numpy as np

from .params import PolicySpec, param_vector

__all__ = ["Seat", "checked_params", "focal_arm"]


def checked_params(policies: Mapping[str, PolicySpec], name: str,
                   params: Mapping[str, float] | Sequence[float] | None = None) -> list[float]:
    """Policy ``name``'s parameters in ``param_names`` order: the defaults with ``params``
    applied; an unknown policy or parameter, or a value that is not a finite number, raises
    ``ValueError`` naming what is allowed."""
    if name not in policies:
        raise ValueError(f"unknown policy {name!r}; allowed: {', '.join(policies)}")
    spec = policies[name]
    vec = [float(v) for v in param_vector(name, spec.param_names, spec.defaults, params)]
    for n, v in zip(spec.param_names, vec):
        if not np.isfinite(v):
            raise ValueError(f"policy {name!r}: parameter {n} must be a finite number; got {v}")
    return vec


def whole(name: str, param: str, v: float, lo: float, hi: float, note: str = "") -> None:
    """Refuse ``v`` unless it is a whole number from ``lo`` to ``hi`` (a count of rollouts,
    a horizon): the kernels read it as an integer."""
    if not (lo <= v <= hi and float(v).is_integer()):
        raise ValueError(f"policy {name!r}: {param} must be an integer from {lo:g} to {hi:g}"
                         f"{note}; got {v:g}")


@dataclass(frozen=True)
class Seat:
    """One seat's policy and its parameters (in ``policies[policy].param_names`` order)."""

    policy: str
    params: tuple[float, ...]

    policies: ClassVar[Mapping[str, PolicySpec]] = {}
    n_params: ClassVar[int] = 0
    always_shown: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    example: ClassVar[str] = "policy:name=value"

    @property
    def label(self) -> str:
        spec = self.policies[self.policy]
        shown = self.always_shown.get(self.policy, ())
        diff = [f"{n}={_fmt(v)}" for n, v, d in zip(spec.param_names, self.params, spec.defaults)
                if v != d or n in shown]
        return self.policy + (f"({','.join(diff)})" if diff else "")

    def vector(self) -> np.ndarray:
        """The kernels' parameter vector (float64, ``n_params``): the parameters first."""
        out = np.zeros(self.n_params, dtype=np.float64)
        out[:len(self.params)] = self.params
        return out

    @classmethod
    def check(cls, name: str, values: Mapping[str, float]) -> None:
        """A game's own limits on its players' parameters (``ValueError``); none by default."""

    @classmethod
    def make(cls, name: str, params: Mapping[str, float] | Sequence[float] | None = None) -> "Seat":
        """A seat from a policy name and parameters (a mapping of names or a full
        sequence); unknown names and bad values raise ``ValueError`` naming the allowed ones."""
        vec = checked_params(cls.policies, name, params)
        cls.check(name, dict(zip(cls.policies[name].param_names, vec)))
        return cls(name, tuple(vec))

    @classmethod
    def parse(cls, text: Any) -> "Seat":
        """``"name:param=value:..."`` -> a seat (``ValueError`` with one clear line)."""
        parts = [p.strip() for p in str(text).split(":")]
        name, params = parts[0], {}
        for p in parts[1:]:
            k, sep, v = p.partition("=")
            if not sep or not k.strip():
                raise ValueError(f"seat {text!r}: expected policy[:name=value...], e.g. {cls.example}")
            try:
                params[k.strip()] = float(v)
            except ValueError:
                raise ValueError(f"seat {text!r}: {v!r} is not a number") from None
        return cls.make(name, params)


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def focal_arm(make_adapter: Callable, seat_type: type[Seat], policy, params, *, field_policy,
              field_params, players=None, characters=None, seed=0, ruleset=None):
    """One arm of ``compare(policies=[a, b])`` in a competitive game of equal seats: the focal
    seat (table seat 0) plays ``policy``, every other seat ``field_policy``, at each player
    count the study with the field alone would play (``make_adapter``: the game's)."""
    base = make_adapter(players, characters, seed=seed, policy=field_policy,
                        policy_params=field_params, ruleset=ruleset)
    focal = seat_type.make(policy, params)
    other = seat_type.make(field_policy, field_params)
    tables = [[focal] + [other] * (p - 1) for p in base.players]
    return make_adapter(None, characters, seed=seed, seats=tables, ruleset=ruleset)
