"""Pig's records: one row a game, the schema the core decodes."""
import pandas as pd

from simlib.core.records import Computed, Field, Label, Schema, Seats, decode

from . import codes as K

SCHEMA = Schema(fields=K.REC_NAMES, seats=K.MAX_SEATS, strings=True, columns=(
    Field("game"), Field("players"), Field("turns"), Field("rolls"), Field("winner"),
    Computed("decided", lambda c: c.field("winner") >= 0),
    Seats((Label("strategy_{s}"), Field("score_{s}", nullable=True),
           Computed("win_{s}", lambda c, s: pd.Series(c.field("winner") == s, dtype="boolean")
                    .where(c.present(s)).array))),
))


def records_frame(out, rules=None, labels=None):
    return decode(out, SCHEMA, rules, labels=labels)
