"""What the designer's instruments (:mod:`simlib.core.instruments`) measure in Day Night
Z, a co-operative game.

* The headline outcome is **the adventure succeeds** (the searches done and every living
  survivor at an exit within the turn limit).
* ``match`` (what two variants compare game by game): the team size and the start hour,
  so that a paired comparison sets each game against the same cell of the other arm.
* Paired grouping: **start hour** (one row a game).
* The measure is the game's victory points (0 on a failure); the shares are the end
  causes (``all_dead``, ``out_of_turns``), ``lost_a_survivor`` (someone died),
  ``hunter_came`` and ``hunter_killed``, and ``threat_red`` (the threat ended in red).

``compare(policies=[a, b])``'s arms are :func:`simlib.games.day_night_z.study.policy_arm`
(the study builds the adapter; this module stays below it).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...core.instruments import Outcomes

__all__ = ["outcomes"]


def outcomes(df: pd.DataFrame, adapter) -> Outcomes:
    """The instruments' view of a records frame of a ``DayNightZAdapter``."""
    players = df["players"].to_numpy(np.int64)
    hours = df["start_hour"].to_numpy(np.int64)
    labels = tuple(int(h) for h in adapter.start_hours)
    index = {h: i for i, h in enumerate(labels)}
    success = df["success"].to_numpy(bool)
    rows = np.arange(len(df))
    groupings = {"start_hour": (labels, rows, np.array([index[int(h)] for h in hours], dtype=np.int64),
                                success)}
    cause = df["end_cause"].astype(str).to_numpy()
    shares = {"all_dead": cause == "all_dead", "out_of_turns": cause == "out_of_turns",
              "lost_a_survivor": df["alive"].to_numpy(np.int64) < players,
              "hunter_came": df["hunter_spawns"].to_numpy(np.int64) > 0,
              "hunter_killed": df["hunter_kills"].to_numpy(np.int64) > 0,
              "threat_red": df["threat_level_final"].astype(str).to_numpy() == "red"}
    return Outcomes(success=success, players=players, match=np.stack([players, hours], axis=1),
                    groupings=groupings, measure=df["vp"].to_numpy(np.float64), shares=shares)

