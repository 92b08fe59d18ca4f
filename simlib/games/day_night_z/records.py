"""Day Night Z's records: the schema of a kernel record's frame (:mod:`simlib.core.records`).

Columns: the study's game index ``game``, ``players`` (the team size), ``start_hour``,
``team`` (the one participant, a member column so that values are summed), ``success``,
``end_cause`` and ``threat_level_final`` named, the summed values (``SUM_VALUES``),
``hunter`` (what the Hunter did: ``absent``, ``came`` without harm, ``wounded``,
``killed``) and, per turn ``k`` from 0 (the start) to ``PER_TURN``, the survivors alive
(``alive_t<k>``) and the threat (``threat_t<k>``, units 1-45) at the end of turn ``k``; a
finished game keeps its final values.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...core.records import Computed, Field, Flag, Names, Schema, decode
from . import codes as K

__all__ = ["SCHEMA", "records_frame", "ENGINE_FIELDS", "SUM_VALUES", "TURN_VALUES", "PER_TURN",
           "HUNTER", "TEAM"]

ENGINE_FIELDS = K.RECORD_FIELDS  # the kernel's record columns, in order
PER_TURN = 40                    # turns of the per-turn paths (the reference limit is 24)
# summed per cell (means with intervals): every number of a game
SUM_VALUES = ("vp", "alive", "turns", "searches_done", "kills", "dead_damage",
              "dead_infection", "dead_hunger", "threat_final", "threat_from_noise",
              "threat_from_leaving", "threat_from_clock", "threat_from_cards",
              "threat_lowered_by_sp", "sp_on_rolls", "sp_on_threat", "hunter_spawns",
              "hunter_damage", "hunter_kills", "decisions", "traps_set", "trap_kills",
              "cards_combined")
TURN_VALUES = tuple(f"alive_t{k}" for k in range(PER_TURN + 1)) + \
    tuple(f"threat_t{k}" for k in range(PER_TURN + 1))
HUNTER = ("absent", "came", "wounded", "killed")
TEAM = "team"


def _hunter(c):
    hk, hd, hs = (c.field(f"hunter_{f}") for f in ("kills", "damage", "spawns"))
    return np.asarray(HUNTER, dtype=object)[np.where(hk > 0, 3, np.where(hd > 0, 2, np.where(hs > 0, 1, 0)))]


def _paths(c) -> dict:
    out = {}
    for name, key, final in (("alive", "alive_by_turn", "alive"), ("threat", "threat_by_turn", "threat_final")):
        path = _carried(np.asarray(c.inputs[key]).reshape(c.n, -1), c.field(final))
        out.update((f"{name}_t{k}", path[:, k]) for k in range(PER_TURN + 1))
    return out


SCHEMA = Schema(
    fields=ENGINE_FIELDS,
    columns=(
        Computed("game", lambda c: c.field("game") if c.inputs["games"] is None
                 else np.asarray(c.inputs["games"], dtype=np.int64)),
        Field("players", src="team_size"), Field("start_hour"),
        Computed("team", lambda c: np.full(c.n, TEAM, dtype=object)),
        Flag("success", equals=None),
        Names("end_cause", K.END_CAUSES), Names("threat_level_final", K.LEVELS),
        *(Field(f) for f in SUM_VALUES),
        Computed("hunter", _hunter),
        Computed(None, _paths),
    ))


def records_frame(out: dict, games: np.ndarray | None = None) -> pd.DataFrame:
    """The records frame of ``play_games``' output (``records``, ``threat_by_turn``,
    ``alive_by_turn``); ``games`` (the study's indices) replaces the engine's game column."""
    rec = np.asarray(out["records"], dtype=np.int64).reshape(-1, len(ENGINE_FIELDS))
    return decode(rec, SCHEMA, games=games, alive_by_turn=out["alive_by_turn"],
                  threat_by_turn=out["threat_by_turn"])


def _carried(path: np.ndarray, final: np.ndarray) -> np.ndarray:
    """A per-turn array (-1 once the game ended) as ``PER_TURN + 1`` columns, the last value
    carried forward (a column past the array's end: the last one; none valid: ``final``)."""
    n, width = path.shape
    p = path.astype(np.int16, copy=True)
    out = np.empty((n, PER_TURN + 1), dtype=np.int16)
    last = np.where(p[:, 0] >= 0, p[:, 0], final).astype(np.int16) if width else \
        final.astype(np.int16)
    for k in range(PER_TURN + 1):
        if k < width:
            last = np.where(p[:, k] >= 0, p[:, k], last)
        out[:, k] = last
    return out
