"""What the designer's instruments (:mod:`simlib.core.instruments`) measure in Till Dawn,
a competitive game with no team to win or lose.

* The headline outcome is **the focal player wins** (alone, or sharing a tie): the player
  in seat 0 of the study's table, who rotates through the seats game by game like every
  other player.  With every seat playing one policy (the default) its win rate is that
  player's share of victories, about ``1/players`` plus the ties; it says most when the
  table is mixed, above all in ``compare(policies=[A, B])``, where the focal player plays
  ``A`` in one arm and ``B`` in the other against a field of ``policy`` (default
  ``threshold``): "does A beat the field more often than B?"
* Paired groupings: player count; **seat** (did seat ``s`` win: first-player advantage)
  and **character** (did the seat with this character win), one row per seat of a game;
  in a compare of two players, **focal_seat** and **focal_character** instead (did the
  focal player win, by the seat and the character it held), one row per game.
* The measure is the focal player's coffin points; the shares are ``tie`` (a shared
  victory) and ``seat_<s>_wins`` (the seat's win share, for seat balance in sweeps).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...core.instruments import Outcomes
from . import codes as K

__all__ = ["outcomes"]


def _matrix(df: pd.DataFrame, stem: str, fill, dtype) -> np.ndarray:
    return np.stack([df[f"{stem}_{s}"].astype(object).where(df[f"{stem}_{s}"].notna(), fill)
                     .to_numpy(dtype) for s in range(K.MAX_SEATS)], axis=1)


def outcomes(df: pd.DataFrame, adapter) -> Outcomes:
    """The instruments' view of a records frame of a ``TillDawnAdapter``."""
    n = len(df)
    players = df["players"].to_numpy(np.int64)
    wins = _matrix(df, "win", False, bool)
    score = _matrix(df, "score", 0, np.float64)
    names = _matrix(df, "character", "", object)
    code = {c: i for i, c in enumerate(adapter.rules.character_names)}
    chars = np.vectorize(lambda x: code.get(x, -1), otypes=[np.int64])(names) if n else \
        np.zeros((0, K.MAX_SEATS), np.int64)
    focal = adapter.focal_seats(df["game"].to_numpy(np.int64))
    at = np.arange(n)
    success = wins[at, focal]
    present = np.arange(K.MAX_SEATS)[None, :] < players[:, None]
    rows = np.nonzero(present)[0]
    seat_idx = np.nonzero(present)[1]
    most = max(adapter.players)
    groupings = {
        "seat": (tuple(range(most)), rows, seat_idx, wins[present]),
        "character": (tuple(adapter.rules.character_names), rows, chars[present], wins[present]),
        # a compare of two players reads the focal player's win by its own seat and character
        "focal_seat": (tuple(range(most)), at, focal, success),
        "focal_character": (tuple(adapter.rules.character_names), at, chars[at, focal], success),
    }
    shares = {"tie": df["tie"].astype(bool).to_numpy()}
    for s in range(most):
        shares[f"seat_{s}_wins"] = wins[:, s]
    return Outcomes(success=success, players=players, match=chars, groupings=groupings,
                    measure=score[at, focal], shares=shares)
