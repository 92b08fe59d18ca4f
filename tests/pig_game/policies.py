"""Pig's players: the kernel's policy ids, their parameters and the seat spec."""
from simlib.core import seats
from simlib.core.params import PolicySpec

from . import codes as K

POLICIES = {
    "random": PolicySpec("random", K.POLICY_RANDOM, (), (), "a fair coin between rolling and holding"),
    "hold_at": PolicySpec("hold_at", K.POLICY_HOLD_AT, ("t",), (20.0,),
                          "holds at a turn total of t, or when holding wins"),
}


class Seat(seats.Seat):
    policies, n_params, example = POLICIES, 1, "hold_at:t=15"
