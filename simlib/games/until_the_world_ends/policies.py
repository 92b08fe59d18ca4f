"""Until the World Ends policy registry: names, ids, parameters and seat specifications.

A seat plays a policy with parameters; a *seat spec* is written ``name`` or
``name:param=value:param=value`` (``greedy:end_margin=10``, ``rollout:rollouts=16``); its
label in tables is the name with the parameters that differ from the defaults.
The jitted policies are in ``kernels/policies_nb.py``.  ``distilled`` is registered from
its weights file, ``data/until_the_world_ends/policies/distilled.toml`` (``simlib
train-policy --game until-the-world-ends``, ``distil.py``); a missing or broken file makes
the name an error that says why, and the weights are refused on a ruleset other than the
one they were fitted on unless ``any_ruleset`` = 1 (:func:`check_seats_ruleset`).
"""
from __future__ import annotations


from ...core import seats
from ...core.params import PolicySpec
from ...core.seats import whole
from ...core.weights import DistilledFile
from .kernels import policies_nb as P
from .ruleset import default_ruleset_dir


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


# `distilled`: the rollout player's values in two linear scores (``policies_nb``,
# ``distilled_nb``), its weights from data/until_the_world_ends/policies/distilled.toml
DISTILLED_PARAMS = (("any_ruleset", "end_margin", "challenge_margin")
                    + tuple(f"greedy_bonus_{p}" for p in P.BONUS_PLAYERS)
                    + tuple(f"w_{n}" for n in P.TURN_FEATURES)
                    + tuple(f"w_{n}" if n.startswith("challenge") else f"w_challenge_{n}"
                            for n in P.CHALLENGE_FEATURES))
assert len(DISTILLED_PARAMS) == P.N_DISTILLED_PARAMS
DISTILLED_DOC = ("the rollout player's judgement at kernel speed: on its turn takes the action "
                 "(draw, or play a card) of the highest linear score of what it sees (the "
                 "card's gain in round margin, the ending's margin and what it does to the "
                 "game, the chance a rival holds an ending, greedy's own choice...), "
                 "challenges when a linear score is positive, snipes and picks as greedy; "
                 "weights fitted to the rollout player's values by `simlib train-policy --game "
                 "until-the-world-ends` (data/until_the_world_ends/policies/distilled.toml), "
                 "refused on another ruleset unless any_ruleset = 1; end_margin and "
                 "challenge_margin are those of the greedy choice it weighs")


DISTILLED = DistilledFile.shipped("until-the-world-ends", POLICIES, default_ruleset_dir, DISTILLED_PARAMS,
                                  P.POLICY_DISTILLED, DISTILLED_DOC, any_index=P.DP_ANY_RULESET)
distilled_path, read_distilled = DISTILLED.path, DISTILLED.read
_register_distilled = DISTILLED.register
check_seats_ruleset = DISTILLED.check  # a distilled seat on another ruleset is refused


class Seat(seats.Seat):
    """One seat's policy and full parameter vector (:class:`simlib.core.seats.Seat`)."""

    policies = POLICIES
    n_params = P.N_PARAMS
    distilled = DISTILLED
    example = "greedy:end_margin=10"

    @classmethod
    def check(cls, name, values):
        if name in ("rollout", "clairvoyant"):
            whole(name, "rollouts", values["rollouts"], 1, 256)


make_seat = Seat.make
parse_seat = Seat.parse
