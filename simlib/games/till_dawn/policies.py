"""Till Dawn policy registry: names, ids, parameters and seat specifications.

A seat plays a policy with parameters; a *seat spec* is written ``name`` or
``name:param=value:param=value`` (``threshold:t=8``, ``optimal``); its label in tables is
the name with the parameters that differ from the defaults, and always a threshold
player's ``t`` (``threshold(t=8)``).
The jitted policies are in ``kernels/policies_nb.py``.  ``distilled`` is registered from
its weights file, ``data/till_dawn/policies/distilled.toml`` (``simlib train-policy --game
till-dawn``, ``distil.py``); a missing or broken file makes the name an error that says
why, and the weights are refused on a ruleset other than the one they were fitted on
unless ``any_ruleset`` = 1 (:func:`check_seats_ruleset`).
"""
from __future__ import annotations


from ...core import seats
from ...core.params import PolicySpec
from ...core.seats import whole
from ...core.weights import DistilledFile
from .kernels import policies_nb as P
from .ruleset import default_ruleset_dir


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


# `distilled`: the optimal player's judgement in two linear scores (``policies_nb``,
# ``distilled_nb``), its weights from data/till_dawn/policies/distilled.toml
DISTILLED_PARAMS = (("any_ruleset",) + tuple(f"w_{n}" for n in P.DECIDE_FEATURES)
                    + tuple(f"w_vote_{n}" for n in P.VOTE_FEATURES))
assert len(DISTILLED_PARAMS) == P.N_DISTILLED_PARAMS
DISTILLED_DOC = ("the optimal player's judgement at kernel speed: stays while a linear score "
                 "of what it sees (its blood and health, the track left, the cards left in the "
                 "deck, the active players) is positive, votes by a linear score of each "
                 "moon's chance, payoff and risk; weights fitted to the optimal player's "
                 "values by `simlib train-policy --game till-dawn` "
                 "(data/till_dawn/policies/distilled.toml), refused on another ruleset unless "
                 "any_ruleset = 1")


DISTILLED = DistilledFile.shipped("till-dawn", POLICIES, default_ruleset_dir, DISTILLED_PARAMS,
                                  P.POLICY_DISTILLED, DISTILLED_DOC, any_index=P.DP_ANY_RULESET)
distilled_path, read_distilled = DISTILLED.path, DISTILLED.read
_register_distilled = DISTILLED.register
check_seats_ruleset = DISTILLED.check  # a distilled seat on another ruleset is refused


class Seat(seats.Seat):
    """One seat's policy and full parameter vector (:class:`simlib.core.seats.Seat`)."""

    policies = POLICIES
    n_params = P.N_PARAMS
    distilled = DISTILLED
    always_shown = {"threshold": ("t",)}  # a threshold player is named by its threshold
    example = "threshold:t=8"

    @classmethod
    def check(cls, name, values):
        if name == "optimal":
            whole(name, "blood_span", values["blood_span"], 1, 200)


make_seat = Seat.make
parse_seat = Seat.parse
