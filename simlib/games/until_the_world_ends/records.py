"""Until the World Ends' records: the schema of a kernel record's frame
(:mod:`simlib.core.records`).

Columns: the record's (``codes.record_names()``; ``pts_colour_i`` renamed ``pts_<colour>``),
``end_cause`` as a name, ``tie``, ``table``, per seat ``strategy_s`` (an empty seat's values
null), then ``game_<x>_<s>`` for ``x`` in ``GAME_VALUES``.  The one type of a game's
records: a study's chunks and the step model's ``Game.record()`` alike.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...core.records import Computed, Field, Flag, Label, Names, Schema, Seats, decode, labels_table
from . import codes as K

__all__ = ["SCHEMA", "GAME_VALUES", "records_frame"]

# game-level values also carried per seat, as the game's value on seat 0 and 0 elsewhere
# (``game_<x>_<s>``), so that a study's additive counts hold their sums (see ``study``)
GAME_VALUES = ("turns", "decisions", "rounds", "player_rounds", "challenges", "redeals",
               "ends_ending", "ends_hoard", "ends_exhausted", "ends_cap", "ender_top",
               "ender_gain", "pts_events", "pts_escalation", "pts_good", "pts_ending") + \
    tuple(f"plays_{k}" for k in K.PLAY_NAMES)


def _colour_points(c) -> dict:
    return {f"pts_{name}": c.field(f"pts_colour_{i}") for i, name in enumerate(c.rules.colours)}


def _game_values(c) -> dict:
    npl = c.field("players")
    vals = {"rounds": c["rounds"], "player_rounds": c["rounds"] * npl,
            "pts_events": sum(c[f"pts_{name}"] for name in c.rules.colours)}
    out = {}
    for v in GAME_VALUES:
        x = np.asarray(vals[v] if v in vals else c[v], dtype=np.int64)
        for s in range(c.seats):
            col = x if s == 0 else np.zeros(c.n, np.int64)
            out[f"game_{v}_{s}"] = pd.Series(col, dtype="Int64").where(npl > s).array
    return out


SCHEMA = Schema(
    fields=lambda width: K.record_names(K.seats_of_record(width)), seats=K.seats_of_record,
    strings=True,
    columns=(
        *(Names(n, K.END_NAMES) if n == "end_cause" else Field(n) for n, size in K.RECORD if size == 1),
        *(Field(f"plays_{k}") for k in K.PLAY_NAMES),
        Computed("tie", lambda c: c.field("winners") > 1),
        Computed(None, _colour_points),
        Computed("table", labels_table),
        Seats((Label("strategy_{s}"), Field("total_{s}", nullable=True), Flag("win_{s}", nullable=True),
               *(Field(f"{f}_{{s}}", nullable=True) for f in ("rounds_won", "ended", "challenged", "hoarded")))),
        Computed(None, _game_values),
    ))


def records_frame(out: np.ndarray, rules, labels: np.ndarray | None = None) -> pd.DataFrame:
    """Records (int64 (n, ``codes.rec_size(seats)``)) as a DataFrame with names instead of
    codes; ``labels`` (object (n, seats)): each seat's strategy label."""
    return decode(out, SCHEMA, rules, labels=labels)
