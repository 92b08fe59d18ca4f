"""Till Dawn's records: the schema of a kernel record's frame (:mod:`simlib.core.records`).

Columns: ``game, players, nights, end_cause, draws, winners, tie, top_score, table``, then
per seat ``s``: ``character_s, strategy_s, score_s, win_s, deaths_s, retires_s,
lost_sunrise_s, lost_death_s`` (an empty seat's values null).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...core.records import Computed, Field, Flag, Label, Names, Schema, Seats, decode, labels_table
from . import codes as K

__all__ = ["SCHEMA", "records_frame"]

SCHEMA = Schema(
    fields=tuple(K.record_names()), seats=K.MAX_SEATS,
    columns=(
        Field("game"), Field("players"), Field("nights"),
        # a game that ran its nights out ended normally: no cause
        Names("end_cause", tuple(None if i == K.END_NIGHTS else n for i, n in enumerate(K.END_NAMES))),
        Field("draws"), Field("winners"),
        Computed("tie", lambda c: c.field("winners") > 1),
        Field("top_score"),
        Computed("table", labels_table),
        Seats((Names("character_{s}", lambda rules: rules.character_names),
               Label("strategy_{s}"),
               Field("score_{s}", nullable=True), Flag("win_{s}", nullable=True),
               *(Field(f"{f}_{{s}}", nullable=True)
                 for f in ("deaths", "retires", "lost_sunrise", "lost_death")))),
    ))


def records_frame(out: np.ndarray, rules, labels: np.ndarray | None = None,
                  strings: bool = False) -> pd.DataFrame:
    """Records (int64 (n, REC_SIZE)) as a DataFrame with names instead of codes;
    ``labels`` (object (n, MAX_SEATS)): each seat's strategy label (None: empty seat);
    ``strings``: text in pandas' string dtype (a study's chunks)."""
    return decode(out, SCHEMA, rules, labels=labels, strings=strings)
