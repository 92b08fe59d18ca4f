"""Mort de la lumière du jour players: names, ids, parameters and seat specifications.

A seat spec is ``name`` or ``name:param=value:...`` (``heuristic:work_radius=8``,
``rollout:rollouts=8``).  Every player can sit on either side: ``heuristic`` plays the
killer's heuristic on seat 0 and the survivors' on the others (each reads its own
parameters).  ``baseline`` is another name for ``heuristic`` with its defaults.
The jitted players are in ``kernels/policies_nb.py``.  ``distilled`` is registered from
its weights file, ``data/mort/policies/distilled.toml`` (``simlib train-policy --game
mort-de-la-lumiere-du-jour``, ``distil.py``); a missing or broken file makes the name an
error that says why, and the weights are refused on a ruleset other than the one they
were fitted on unless ``any_ruleset`` = 1 (:func:`check_seats_ruleset`).
"""
from __future__ import annotations


import numpy as np

from ...core import seats
from ...core.params import PolicySpec
from ...core.seats import whole
from ...core.weights import DistilledFile
from .kernels import policies_nb as P
from .ruleset import default_ruleset_dir

__all__ = ["PolicySpec", "POLICIES", "Seat", "make_seat", "parse_seat", "PARAM_INDEX",
           "DISTILLED_PARAMS", "distilled_path", "read_distilled", "check_seats_ruleset"]

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
POLICY_BY_ID = {0: "random", 1: "heuristic", 2: "rollout", 3: "distilled"}

# `distilled`: the rollout player's judgement in a linear score of each action
# (``policies_nb.distilled_nb``), its weights from data/mort/policies/distilled.toml; the
# parameters after the heuristic's (``N_PARAMS``): any_ruleset, the killer's weights, the
# survivors' weights
_FEATURES = tuple(f"{k}_{c}" for k in P.KINDS for c in P.CTX_FEATURES) + P.ACTION_FEATURES
DISTILLED_PARAMS = (("any_ruleset",) + tuple(f"w_killer_{f}" for f in _FEATURES)
                    + tuple(f"w_survivor_{f}" for f in _FEATURES))
assert len(DISTILLED_PARAMS) == P.N_DISTILLED_PARAMS - P.N_PARAMS
DISTILLED_DOC = ("the rollout player's judgement at kernel speed, on either side: the "
                 "heuristic's action unless a linear score of each legal action (its kind "
                 "with what the seat sees: its cards, the distances, kills, wounds, lamps, "
                 "the hatch; and the action's own effect on them) prefers another; weights "
                 "fitted to the rollout's playout values by `simlib train-policy --game "
                 "mort-de-la-lumiere-du-jour` (data/mort/policies/distilled.toml), refused "
                 "on another ruleset unless any_ruleset = 1")


DISTILLED = DistilledFile.shipped("mort-de-la-lumiere-du-jour", POLICIES, default_ruleset_dir, DISTILLED_PARAMS,
                                  P.POLICY_DISTILLED, DISTILLED_DOC, any_index=0)
distilled_path, read_distilled = DISTILLED.path, DISTILLED.read
_register_distilled = DISTILLED.register
check_seats_ruleset = DISTILLED.check  # a distilled seat on another ruleset is refused


class Seat(seats.Seat):
    """One seat's policy and its parameters (:class:`simlib.core.seats.Seat`)."""

    policies = POLICIES
    n_params = P.N_PARAMS
    distilled = DISTILLED
    example = "heuristic:work_radius=8"

    def vector(self) -> np.ndarray:
        # the parameters sit by name (PARAM_INDEX): a rollout plays the heuristic's too;
        # the distilled player's (any_ruleset, weights) follow them
        distilled = self.policy == "distilled"
        out = np.zeros(P.N_DISTILLED_PARAMS if distilled else P.N_PARAMS, dtype=np.float64)
        out[[PARAM_INDEX[n] for n in _HEUR]] = _HEUR_DEFAULTS
        if distilled:
            out[P.DP_ANY_RULESET:] = self.params
            return out
        for n, v in zip(POLICIES[self.policy].param_names, self.params):
            out[PARAM_INDEX[n]] = v
        return out

    @classmethod
    def check(cls, name, values):
        if name == "distilled":
            return
        for n, v in values.items():
            if v < 0 or v > 1000:
                raise ValueError(f"policy {name!r}: parameter {n} must be a number from 0 to 1000; got {v:g}")
        if name == "rollout":
            whole(name, "rollouts", values["rollouts"], 1, 256)
            whole(name, "horizon", values["horizon"], 0, 1000, " (0: to the end)")


make_seat = Seat.make
parse_seat = Seat.parse
