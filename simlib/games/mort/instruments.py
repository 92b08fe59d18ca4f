"""What the designer's instruments (:mod:`simlib.core.instruments`) measure in Mort de la
lumière du jour, an asymmetric game.

* The headline outcome is **the named side wins**: the survivors by default (any escape
  is their win), the killer when the study names him (``characters="killer"``, on the
  command line ``--characters killer``: the game has no characters, and this is the one
  study parameter every instrument passes through).  ``compare(policies=[A, B])`` puts
  ``A`` or ``B`` on that side against ``policy`` (default ``heuristic``) on the other.
* Paired grouping: **survivor** (seat 1-4 escaped).
* The measure: the named side's count (escapes for the survivors, kills for the killer);
  the shares: ``hatch`` (an escape through the hatch), ``gate_open``, ``all_killed``,
  ``timeout``.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...core.instruments import Outcomes
from . import codes as K

__all__ = ["outcomes", "SIDES"]

SIDES = ("survivors", "killer")


def outcomes(df: pd.DataFrame, adapter) -> Outcomes:
    """The instruments' view of a records frame of a ``MortAdapter``."""
    n = len(df)
    side = getattr(adapter, "side", "survivors")
    kw = df["killer_win"].to_numpy(bool)
    success = kw if side == "killer" else ~kw
    measure = df["kills" if side == "killer" else "escapes"].to_numpy(np.float64)
    ns = int(adapter.rules.get("board.survivors"))
    esc = np.stack([df[f"outcome_{i}"].isin(["gate", "hatch"]).to_numpy() for i in range(1, ns + 1)],
                   axis=1)
    rows = np.repeat(np.arange(n), ns)
    idx = np.tile(np.arange(ns), n)
    groupings = {"survivor": (tuple(range(1, ns + 1)), rows, idx, esc.reshape(-1))}
    end = df["end_cause"].astype(str).to_numpy()
    shares = {"hatch": df["hatch_escapes"].to_numpy() > 0, "gate_open": df["gates_open"].to_numpy() > 0,
              "all_killed": end == K.END_NAMES[K.END_KILLED], "timeout": end == K.END_NAMES[K.END_TIMEOUT]}
    players = np.full(n, ns + 1, dtype=np.int64)
    return Outcomes(success=success, players=players, match=players[:, None].copy(),
                    groupings=groupings, measure=measure, shares=shares)
