"""What the designer's instruments (:mod:`simlib.core.instruments`) measure in Until
Daylight: the team wins; grouped by player count and by character (a game counts once for
each character in it); the measure is the round reached; the shares are the loss causes.
The instruments' default ruleset is the calibrated preset (sensitivity: the reference,
whose assumed numbers it is about)."""
from __future__ import annotations

import numpy as np

from ...core.instruments import InstrumentSpec, Outcomes
from . import codes as K

__all__ = ["INSTRUMENTS", "outcomes"]


def outcomes(rec: np.ndarray, adapter) -> Outcomes:
    """The instruments' view of records from ``UntilDaylightAdapter.play_records``."""
    success = rec["outcome"] == K.OUT_WIN
    seats = np.stack([rec[f"character_{s}"] for s in range(K.MAX_PLAYERS)], axis=1)
    present = seats >= 0
    rows = np.nonzero(present)[0]
    character = (tuple(adapter.rules.character_names), rows, seats[present], success[rows])
    shares = {f"loss_{name}": rec["cause"] == code
              for code, name in K.CAUSE_NAMES.items() if name != "none"}
    return Outcomes(success=success, players=rec["players"], match=seats,
                    groupings={"character": character}, measure=rec["round_reached"],
                    shares=shares)


def _resolve_ruleset(ruleset):
    from .study import _ruleset

    return _ruleset(ruleset)


def _make_adapter(**kw):
    from .game import _make_adapter as make_adapter  # refuses seats (a co-operative game)

    return make_adapter(**kw)


def _policy_arm(policy, params, *, field_policy=None, field_params=None, **kw):
    # co-operative: every seat plays the compared policy
    return _make_adapter(policy=policy, policy_params=params, **kw)


def _policy_names():
    from .policies import policy_names

    return policy_names()


def _policy_spec(name):
    from .policies import ALIASES, POLICIES

    return POLICIES[ALIASES.get(name, (name,))[0]]


INSTRUMENTS = InstrumentSpec(
    display_name="Until Daylight",
    success="the team wins",
    measure="round_reached",
    measure_short="round",
    measure_unit="rounds",
    resolve_ruleset=_resolve_ruleset,
    make_adapter=_make_adapter,
    policy_arm=_policy_arm,
    outcomes=outcomes,
    policy_names=_policy_names,
    policy_spec=_policy_spec,
    default_policy="baseline",
    sensitivity_ruleset="reference",
    positive_suffixes=("dice", "health", "slots", "stalemate_cap", "min"),
)
