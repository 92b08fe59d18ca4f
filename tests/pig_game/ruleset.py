"""Pig's ruleset: one file of source-tagged constants."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from simlib.core.ruleset import Field, FileSchema, TaggedRuleset, load_tagged, resolve_ruleset

from . import codes as K

SCHEMAS = (FileSchema("constants", fields={
    "die_faces": Field("int", 2, 100),
    "bust_face": Field("int", 1, 100),
    "target": Field("int", 1, 10_000),
    "max_turns": Field("int", 1, 100_000),
    "min_players": Field("int", 1, K.MAX_SEATS),
    "max_players": Field("int", 1, K.MAX_SEATS),
}),)


class PigRules(TaggedRuleset):
    SCHEMAS = SCHEMAS
    SOURCES = ("rulebook", "assumed")
    GAME = "Pig"
    DATA_FOLDER = "pig"

    def flat(self) -> np.ndarray:
        """The constants in ``codes.R_*`` order (the kernels' one int64 array)."""
        return np.array([self.get(f"constants.{n}") for n in K.RULE_NAMES], dtype=np.int64)

    def min_players(self) -> int:
        return self.get("constants.min_players")

    def max_players(self) -> int:
        return self.get("constants.max_players")


def reference_ruleset() -> PigRules:
    return load_tagged(Path(__file__).with_name("data") / "pig", PigRules)


def load_ruleset(spec=None) -> PigRules:
    """``None`` or ``"reference"``: the reference; a folder, a tweak ``.toml``, or a ruleset."""
    return resolve_ruleset(spec, PigRules, presets={"reference": reference_ruleset},
                           default="reference")
