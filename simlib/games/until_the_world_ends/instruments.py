"""What the designer's instruments (:mod:`simlib.core.instruments`) measure in Until the
World Ends, a competitive game.

* The headline outcome is **the focal player wins** (alone, or sharing a tie): the player
  in seat 0 of the study's table, who rotates through the seats game by game like every
  other player.  With every seat playing one policy its rate is about ``1/players`` plus
  the ties; it says most at a mixed table, above all in ``compare(policies=[A, B])``,
  where the focal player plays ``A`` in one arm and ``B`` in the other against a field of
  ``policy`` (default ``greedy``).
* Paired grouping: **seat** (did seat ``s`` win: the dealer's and first player's edge).
* The measure is the focal player's final total; the shares are ``tie``, ``hoard`` (a
  round of the game ended in a hoard), ``turn_cap`` (a round hit the turn cap) and
  ``seat_<s>_wins``.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...core.instruments import Outcomes

__all__ = ["outcomes"]


def _matrix(df: pd.DataFrame, stem: str, fill, dtype) -> np.ndarray:
    seats = sum(1 for c in df.columns if c.startswith("win_") and c[4:].isdigit())  # the records' seats
    return np.stack([df[f"{stem}_{s}"].astype(object).where(df[f"{stem}_{s}"].notna(), fill)
                     .to_numpy(dtype) for s in range(seats)], axis=1)


def outcomes(df: pd.DataFrame, adapter) -> Outcomes:
    """The instruments' view of a records frame of an ``UntilTheWorldEndsAdapter``."""
    n = len(df)
    players = df["players"].to_numpy(np.int64)
    wins = _matrix(df, "win", False, bool)
    total = _matrix(df, "total", 0, np.float64)
    focal = adapter.focal_seats(df["game"].to_numpy(np.int64))
    at = np.arange(n)
    present = np.arange(wins.shape[1])[None, :] < players[:, None]
    rows, seat_idx = np.nonzero(present)
    most = max(adapter.players)
    groupings = {"seat": (tuple(range(most)), rows, seat_idx, wins[present]),
                 # a compare of two players reads the focal player's win by its own seat
                 "focal_seat": (tuple(range(most)), at, focal, wins[at, focal])}
    shares = {"tie": df["tie"].astype(bool).to_numpy(),
              "hoard": df["ends_hoard"].to_numpy(np.int64) > 0,
              "turn_cap": df["ends_cap"].to_numpy(np.int64) > 0}
    for s in range(most):
        shares[f"seat_{s}_wins"] = wins[:, s]
    return Outcomes(success=wins[at, focal], players=players, match=players[:, None].copy(),
                    groupings=groupings, measure=total[at, focal], shares=shares)
