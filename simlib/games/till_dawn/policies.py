"""Till Dawn policy registry: names, ids, parameters and seat specifications.

A seat plays a policy with parameters; a *seat spec* is written ``name`` or
``name:param=value:param=value`` (``threshold:t=8``, ``optimal``); its label in tables is
the name with the parameters that differ from the defaults, and always a threshold
player's ``t`` (``threshold(t=8)``).
The jitted policies are in ``kernels/policies_nb.py``.
"""
from __future__ import annotations

from ...core import seats
from ...core.params import PolicySpec
from ...core.seats import whole
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


class Seat(seats.Seat):
    """One seat's policy and full parameter vector (:class:`simlib.core.seats.Seat`)."""

    policies = POLICIES
    n_params = P.N_PARAMS
    always_shown = {"threshold": ("t",)}  # a threshold player is named by its threshold
    example = "threshold:t=8"

    @classmethod
    def check(cls, name, values):
        if name == "optimal":
            whole(name, "blood_span", values["blood_span"], 1, 200)


make_seat = Seat.make
parse_seat = Seat.parse
