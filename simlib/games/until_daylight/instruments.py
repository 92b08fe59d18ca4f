"""What the designer's instruments (:mod:`simlib.core.instruments`) measure in Until
Daylight: the team wins; grouped by player count and by character (a game counts once for
each character in it); the measure is the round reached; the shares are the loss causes.
The instruments' default ruleset is the game's declared default, the calibrated preset
(sensitivity: the reference, whose assumed numbers it is about)."""
from __future__ import annotations

import numpy as np

from ...core.instruments import Outcomes
from . import codes as K

__all__ = ["outcomes"]


def outcomes(rec: np.ndarray, adapter) -> Outcomes:
    """The instruments' view of records from ``UntilDaylightAdapter.play_array``."""
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
