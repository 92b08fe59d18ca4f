"""Until the World Ends policy registry: names, ids, parameters and seat specifications.

A seat plays a policy with parameters; a *seat spec* is written ``name`` or
``name:param=value:param=value`` (``greedy:end_margin=10``, ``rollout:rollouts=16``); its
label in tables is the name with the parameters that differ from the defaults.
The jitted policies are in ``kernels/policies_nb.py``.
"""
from __future__ import annotations

from ...core import seats
from ...core.params import PolicySpec
from ...core.seats import whole
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


class Seat(seats.Seat):
    """One seat's policy and full parameter vector (:class:`simlib.core.seats.Seat`)."""

    policies = POLICIES
    n_params = P.N_PARAMS
    example = "greedy:end_margin=10"

    @classmethod
    def check(cls, name, values):
        if name in ("rollout", "clairvoyant"):
            whole(name, "rollouts", values["rollouts"], 1, 256)


make_seat = Seat.make
parse_seat = Seat.parse
