"""What the designer's instruments (:mod:`simlib.core.instruments`) measure in Mort de la
lumière du jour, an asymmetric game.

* One outcome everywhere: **the killer wins** (every survivor killed), as in ``simulate``'s
  tables and report; the survivors' win is its complement (an escape, or the round
  limit).  ``characters`` (``--characters killer|survivors``; the game has no characters)
  names only the side the focal player sits on: ``compare(policies=[A, B])`` and
  ``skill`` put ``A`` or ``B`` on that side (default: the killer's seat, seat 0) against
  ``policy`` (default ``heuristic``) on the other.  The outcome stays the killer's win:
  with the focal player on the survivors' side, lower is better for it.
* The games: the study's **headline table** only (its first: by default ``policy`` on both
  sides, the pairing a designer calls fair).  The default study's other tables put a
  random player on one side, where the result hardly depends on the rules (a random
  killer never kills); pooled with them a change is diluted or hidden.
* Paired grouping: **seat**, each seat's own result: seat 0 the killer wins, seat ``s``
  (1-4) survivor ``s`` escaped (gate or hatch).
* The measure: the kills; the shares: ``hatch`` (an escape through the hatch),
  ``gate_open``, ``all_killed``, ``timeout``.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...core.instruments import Outcomes
from . import codes as K

__all__ = ["outcomes", "SIDES", "SEAT_SUCCESS"]

SIDES = ("killer", "survivors")
SEAT_SUCCESS = "each seat's own result: seat 0 the killer wins, seat s (1-4) survivor s escaped"


def outcomes(df: pd.DataFrame, adapter) -> Outcomes:
    """The instruments' view of a records frame of a ``MortAdapter``."""
    n = len(df)
    kw = df["killer_win"].to_numpy(bool)
    ns = int(adapter.rules.get("board.survivors"))
    esc = np.stack([df[f"outcome_{i}"].isin(["gate", "hatch"]).to_numpy() for i in range(1, ns + 1)],
                   axis=1)
    seat_win = np.concatenate([kw[:, None], esc], axis=1)
    rows = np.repeat(np.arange(n), ns + 1)
    idx = np.tile(np.arange(ns + 1), n)
    groupings = {"seat": (tuple(range(ns + 1)), rows, idx, seat_win.reshape(-1))}
    end = df["end_cause"].astype(str).to_numpy()
    shares = {"hatch": df["hatch_escapes"].to_numpy() > 0, "gate_open": df["gates_open"].to_numpy() > 0,
              "all_killed": end == K.END_NAMES[K.END_KILLED], "timeout": end == K.END_NAMES[K.END_TIMEOUT]}
    players = np.full(n, ns + 1, dtype=np.int64)
    return Outcomes(success=kw, players=players, match=players[:, None].copy(),
                    groupings=groupings, measure=df["kills"].to_numpy(np.float64), shares=shares)
