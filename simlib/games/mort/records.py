"""Mort de la lumière du jour's records: the schema of a kernel record's frame
(:mod:`simlib.core.records`).

Columns: ``game, killer, survivors`` (the sides' strategy labels), ``pairing``
(``"<killer> vs <survivors>"``), ``no_pairing`` (empty: the survivors' side has no
pairing of its own in the tables), ``killer_win``, ``survivors_win`` (bools),
``end_cause`` (``all_killed``, ``all_escaped``, ``killed_and_escaped``, ``timeout``,
``step_cap``), ``rounds, kills, escapes, hatch_escapes, repaired, gates_open,
first_hit`` (round of the first landed hit, 0: none), ``hits, strikes, killer_gain``
(energy from failed repairs), ``pallet_spend`` (energy the killer spent on pallets),
``pallets_dropped, cards_played, decisions, rolls``; per survivor ``i`` (1-based
seats): ``outcome_i`` (``killed``, ``gate``, ``hatch``, ``alive``) and ``end_round_i``;
per generator ``g``: ``gen_round_g`` (round it was repaired, 0: never); the timeline
``rep_r<r>`` and ``kill_r<r>`` (generators repaired and survivors killed by the end of
round r, r = 1 .. TIMELINE_ROUNDS) and ``gate_r<r>`` (1: a survivor out through a gate
by then; against the ``no_killer`` ceiling).
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd

from ...core.records import Computed, Field, Flag, Names, Schema, Seats, decode
from . import codes as K

__all__ = ["SCHEMA", "TIMELINE_ROUNDS", "records_frame"]

TIMELINE_ROUNDS = 30  # rounds of the repairs-against-kills timeline columns
_SCALARS = ("rounds", "kills", "escapes", "hatch_escapes", "repaired", "gates_open",
            "first_hit", "hits", "strikes", "killer_gain", "pallet_spend", "pallets_dropped",
            "cards_played", "decisions", "rolls")


def _side(key: str):
    def label(c) -> np.ndarray:
        x = c.inputs.get(key, "")
        return np.array(list(x) if not isinstance(x, str) else [x] * c.n, dtype=object)
    return label


def _timeline(c) -> dict:
    out = c.records
    gr = out[:, K.REC_GEN_ROUND:K.REC_GEN_ROUND + K.MAX_GENS]
    oc = out[:, K.REC_OUTCOME:K.REC_OUTCOME + K.MAX_SURV]
    er = out[:, K.REC_END_ROUND:K.REC_END_ROUND + K.MAX_SURV]
    cols = {}
    for r in range(1, TIMELINE_ROUNDS + 1):
        cols[f"rep_r{r}"] = ((gr > 0) & (gr <= r)).sum(axis=1)
        cols[f"kill_r{r}"] = ((oc == K.OUT_KILLED) & (er <= r)).sum(axis=1)
        cols[f"gate_r{r}"] = ((oc == K.OUT_GATE) & (er <= r)).any(axis=1).astype(np.int64)
    return cols


SCHEMA = Schema(
    fields=tuple(K.record_names()),
    columns=(
        Field("game"),
        Computed("killer", _side("killer")), Computed("survivors", _side("survivors")),
        Computed("pairing", lambda c: np.array([f"{a} vs {b}" for a, b in zip(c["killer"], c["survivors"])],
                                               dtype=object)),
        Computed("no_pairing", lambda c: np.full(c.n, None, dtype=object)),  # the survivors' side's (study.TABLE_SPEC)
        Flag("killer_win"),
        Computed("survivors_win", lambda c: ~c["killer_win"]),
        Names("end_cause", K.END_NAMES),
        *(Field(f) for f in _SCALARS),
        Seats((Names("outcome_{s1}", K.OUTCOME_NAMES, src="outcome_{s}", missing="none"),
               Field("end_round_{s1}", "end_round_{s}")), count=K.MAX_SURV),
        Seats((Field("gen_round_{s}"),), count=K.MAX_GENS),
        Computed(None, _timeline),
    ))


def records_frame(out: np.ndarray, rules, killer: Sequence[str] | str = "",
                  survivors: Sequence[str] | str = "") -> pd.DataFrame:
    """Records (int64 (n, REC_SIZE)) as a DataFrame with names instead of codes (columns:
    the module's docstring); ``killer``, ``survivors``: the sides' labels, one or a game's each."""
    return decode(out, SCHEMA, rules, killer=killer, survivors=survivors)
