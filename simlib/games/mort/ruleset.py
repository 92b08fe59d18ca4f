"""Mort de la lumière du jour rulesets: the source-tagged TOML files of ``data/mort`` as a
validated, immutable :class:`MortRules`, packed into the kernels' int64 array.

Files and dotted keys:

* ``board.toml``: ``board.board_w``, ``board.token_lines``, ``board.lamps``, ...;
* ``rules.toml``: costs, hands, the end (``rules.strike_cost``, ``rules.timeout``, ...)
  and ``rules.variants.<name>`` (``pooled_energy``, ``one_strike_per_target``,
  ``any_card_repairs``);
* ``dice.toml``: ``dice.white``, ``dice.black`` (1 per succeeding face);
* ``energy.toml``: ``energy.<name>.value|count``;
* ``killer_cards.toml`` / ``survivor_cards.toml``: ``<file>.<name>.effect|amount|count``.

>>> rules = load_ruleset()
>>> rules.override({"rules.variants.pooled_energy": True}).get("rules.variants.pooled_energy")
True
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ...core.ruleset import Field, FileSchema, RulesetError, TaggedRuleset, check_value, error
from . import codes as K

__all__ = ["MortRules", "RulesetError", "load_ruleset", "default_ruleset_dir"]

_N = lambda lo=0, hi=None: Field("int", lo, hi)  # noqa: E731

BOARD_FIELDS = {
    "board_w": _N(3, 64), "board_h": _N(3, 64), "token_lines": Field("ints"),
    "lair_x": _N(0, 63), "lair_y": _N(0, 63), "pallet_dx": _N(-3, 3), "pallet_dy": _N(-3, 3),
    "reach": _N(0, 10), "help_range": _N(0, 100), "survivors": _N(1, K.MAX_SURV),
    "setup_rounds": _N(1, 10), "killer_generators": _N(0, K.MAX_GENS),
    "killer_shortcuts": _N(0, K.N_SHORTCUTS), "survivor_generators": _N(0, K.MAX_GENS),
    "survivor_chests": _N(0, K.MAX_CHESTS), "pallets_per_survivor": _N(0, K.MAX_PALLETS),
    "lamps": _N(1, 100), "generators_needed": _N(0, K.MAX_GENS), "gate_successes": _N(1, 20),
}
RULE_FIELDS = {
    "move_cost": _N(1, 10), "survivor_card_cost": _N(0, 20), "killer_card_cost": _N(0, 20),
    "repair_cost": _N(0, 20), "chest_cost": _N(0, 20), "gate_cost": _N(0, 20),
    "drop_cost": _N(0, 20), "vault_cost": _N(0, 20), "strike_cost": _N(0, 20),
    "break_cost": _N(0, 20), "detour_cost": _N(0, 20), "shortcut_cost": _N(0, 20),
    "escape_gate_cost": _N(0, 20),
    "failed_repair_gain": _N(0, 20), "hit_exhaustion": _N(0, 20),
    "killer_energy_hand": _N(0, 20), "killer_card_hand": _N(0, 20),
    "survivor_energy_hand": _N(0, 20), "survivor_start_cards": _N(0, 20),
    "survivor_card_limit": _N(0, 20), "survivor_draw": _N(0, 20),
    "survivor_energy_limit": _N(0, 20), "hits_to_kill": _N(1, 10), "timeout": _N(1, 1000),
    "killer_win_kills": _N(1, K.MAX_SURV),
}
VARIANTS = ("pooled_energy", "one_strike_per_target", "any_card_repairs")

SCHEMAS = (
    FileSchema("board", fields=BOARD_FIELDS),
    FileSchema("rules", fields=RULE_FIELDS, tables={"variants": {v: Field("bool") for v in VARIANTS}}),
    FileSchema("dice", fields={"white": Field("ints"), "black": Field("ints")}),
    FileSchema("energy", entities={"value": _N(1, K.MAX_V), "count": _N(0, 1000)}),
    FileSchema("killer_cards", entities={
        "effect": Field("choice", choices=K.KILLER_EFFECTS),
        "amount": Field("int", 0, 20, False, 0), "count": _N(0, 1000)}),
    FileSchema("survivor_cards", entities={
        "effect": Field("choice", choices=K.SURVIVOR_EFFECTS),
        "amount": Field("int", 0, 20, False, 0), "count": _N(0, 1000)}),
)


class MortRules(TaggedRuleset):
    """A validated Mort de la lumière du jour ruleset (immutable; ``override`` returns a new one)."""

    SCHEMAS = SCHEMAS
    SOURCES = ("rulebook", "inferred", "assumed")
    GAME = "Mort de la lumière du jour"
    DATA_FOLDER = "mort"  # the shipped folder's name: its lineage reads "reference"

    @classmethod
    def _check_value(cls, file: str, key: str, f: Field, value: Any) -> Any:
        if f.type == "ints":
            if not isinstance(value, (list, tuple)) or not value or \
                    not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value):
                raise error(file, key, f"expected a non-empty list of integers >= 0, got {value!r}")
            return tuple(value)
        return check_value(file, key, f, value)

    # ------------------------------------------------------------------ derived
    def tokens(self) -> list[tuple[int, int]]:
        """The location tokens' squares: the token grid less the lair, row by row."""
        lines = self.get("board.token_lines")
        lair = (self.get("board.lair_x"), self.get("board.lair_y"))
        return [(x, y) for y in lines for x in lines if (x, y) != lair]

    def gate_sites(self) -> list[tuple[int, int]]:
        """The middle square of each side: north, east, south, west."""
        w, h = self.get("board.board_w"), self.get("board.board_h")
        return [(w // 2, 0), (w - 1, h // 2), (w // 2, h - 1), (0, h // 2)]

    def card_names(self, deck: str) -> tuple[str, ...]:
        return self.names(deck)

    # ------------------------------------------------------------------ checks
    def _validate(self) -> None:
        b = self.file_of("board")
        w, h = self.get("board.board_w"), self.get("board.board_h")
        lines = self.get("board.token_lines")
        if len(lines) > K.MAX_LINES or len(set(lines)) != len(lines):
            raise error(b, "board.token_lines", f"at most {K.MAX_LINES} distinct lines; got {list(lines)}")
        for v in lines:
            if v >= min(w, h):
                raise error(b, "board.token_lines", f"line {v} is off the {w} x {h} board")
        lx, ly = self.get("board.lair_x"), self.get("board.lair_y")
        if not (0 <= lx < w and 0 <= ly < h):
            raise error(b, "board.lair_x", f"the lair ({lx}, {ly}) is off the board")
        toks = self.tokens()
        if len(toks) > K.MAX_TOKENS:
            raise error(b, "board.token_lines", f"at most {K.MAX_TOKENS} tokens (layout bound); got {len(toks)}")
        dx, dy = self.get("board.pallet_dx"), self.get("board.pallet_dy")
        for (x, y) in toks:
            if not (0 <= x + dx < w and 0 <= y + dy < h):
                raise error(b, "board.pallet_dx", f"a pallet next to token ({x}, {y}) is off the board")
        s = self.get("board.survivors")
        r = self.get("board.setup_rounds")
        kg, ks = self.get("board.killer_generators"), self.get("board.killer_shortcuts")
        sg, sc = self.get("board.survivor_generators"), self.get("board.survivor_chests")
        if kg + ks != r + 1:
            raise error(b, "board.killer_generators", f"the killer places one piece a setup round "
                        f"and one after them: {r + 1} pieces, got {kg} generators + {ks} shortcuts")
        if sg + sc + 1 != r:
            raise error(b, "board.survivor_generators", f"a survivor places one piece a setup round: "
                        f"{r} pieces (generators, chests and its pawn), got {sg} + {sc} + 1")
        gens = kg + s * sg
        if gens > K.MAX_GENS or s * sc > K.MAX_CHESTS:
            raise error(b, "board.survivor_generators", f"at most {K.MAX_GENS} generators and "
                        f"{K.MAX_CHESTS} chests (layout bound)")
        if (r + 1) + s * r > len(toks):
            raise error(b, "board.token_lines", f"setup draws {(r + 1) + s * r} tokens; there are {len(toks)}")
        if self.get("board.generators_needed") > gens:
            raise error(b, "board.generators_needed", f"{self.get('board.generators_needed')} repairs "
                        f"needed but only {gens} generators")
        if s * self.get("board.pallets_per_survivor") > K.MAX_PALLETS:
            raise error(b, "board.pallets_per_survivor", f"at most {K.MAX_PALLETS} pallets (layout bound)")
        if s * self.get("board.pallets_per_survivor") > len(toks) - gens:
            raise error(b, "board.pallets_per_survivor", "more pallets than tokens without a generator")
        d = self.file_of("dice")
        for die in ("white", "black"):
            f = self.get(f"dice.{die}")
            if len(f) > K.MAX_FACES or any(v > 1 for v in f):
                raise error(d, f"dice.{die}", f"at most {K.MAX_FACES} faces, each 0 or 1; got {list(f)}")
        e = self.file_of("energy")
        vals = [self.get(f"energy.{n}.value") for n in self.names("energy")]
        if len(set(vals)) != len(vals):
            raise error(e, "energy", "two entries with the same value")
        total = sum(self.get(f"energy.{n}.count") for n in self.names("energy"))
        need = self.get("rules.killer_energy_hand") + s * max(self.get("rules.survivor_energy_hand"),
                                                              self.get("rules.survivor_energy_limit"))
        if total <= need:
            raise error(e, "energy", f"{total} energy cards; the hands hold up to {need}")
        for deck, hand in (("killer_cards", "rules.killer_card_hand"),
                           ("survivor_cards", "rules.survivor_start_cards")):
            names = self.names(deck)
            if len(names) > K.MAX_K:
                raise error(self.file_of(deck), deck, f"at most {K.MAX_K} kinds (layout bound)")
            n = sum(self.get(f"{deck}.{c}.count") for c in names)
            held = self.get(hand) * (s if deck == "survivor_cards" else 1)
            if n < held:
                raise error(self.file_of(deck), deck, f"{n} cards; the starting hands need {held}")
        if self.get("rules.survivor_card_limit") < self.get("rules.survivor_start_cards"):
            raise error(self.file_of("rules"), "rules.survivor_card_limit",
                        "below the starting survivor cards")
        if self.get("rules.killer_win_kills") > s:
            raise error(self.file_of("rules"), "rules.killer_win_kills", f"more kills than the {s} survivors")

    # ------------------------------------------------------------------ packing
    def flat(self) -> np.ndarray:
        """The ruleset as the kernels' int64 array (layout ``codes.RULES``; read-only, cached)."""
        if "flat" in self._cache:
            return self._cache["flat"]
        r = np.zeros(K.R_SIZE, dtype=np.int64)
        p = r[K.R_PARAMS:K.R_PARAMS + len(K.PARAMS)]
        for name in BOARD_FIELDS:
            if name != "token_lines":
                p[K.PARAMS.index(name)] = self.get(f"board.{name}")
        for name in RULE_FIELDS:
            p[K.PARAMS.index(name)] = self.get(f"rules.{name}")
        p[K.P_POOLED] = int(self.get("rules.variants.pooled_energy"))
        p[K.P_ONE_STRIKE] = int(self.get("rules.variants.one_strike_per_target"))
        p[K.P_ANY_CARD_REPAIRS] = int(self.get("rules.variants.any_card_repairs"))
        toks = self.tokens()
        p[K.P_N_TOKENS] = len(toks)
        for i, (x, y) in enumerate(toks):
            r[K.R_TOKEN_X + i], r[K.R_TOKEN_Y + i] = x, y
        for i, (x, y) in enumerate(self.gate_sites()):
            r[K.R_GATE_X + i], r[K.R_GATE_Y + i] = x, y
        for die, off, par in (("white", K.R_WHITE, K.P_WHITE_FACES), ("black", K.R_BLACK, K.P_BLACK_FACES)):
            f = self.get(f"dice.{die}")
            p[par] = len(f)
            r[off:off + len(f)] = f
        for n in self.names("energy"):
            r[K.R_ENERGY + self.get(f"energy.{n}.value")] += self.get(f"energy.{n}.count")
        for deck, eff, amt, cnt, par, vocab in (
                ("killer_cards", K.R_KK_EFFECT, K.R_KK_AMOUNT, K.R_KK_COUNT, K.P_N_KILLER_KINDS, K.KILLER_EFFECTS),
                ("survivor_cards", K.R_SK_EFFECT, K.R_SK_AMOUNT, K.R_SK_COUNT, K.P_N_SURVIVOR_KINDS, K.SURVIVOR_EFFECTS)):
            names = self.names(deck)
            p[par] = len(names)
            for i, c in enumerate(names):
                r[eff + i] = vocab.index(self.get(f"{deck}.{c}.effect"))
                r[amt + i] = self.get(f"{deck}.{c}.amount")
                r[cnt + i] = self.get(f"{deck}.{c}.count")
        r.setflags(write=False)
        self._cache["flat"] = r
        return r


def default_ruleset_dir() -> Path:
    """The reference ruleset shipped with simlib (package ``simlib._data``, or <repo>/data)."""
    return MortRules.shipped_dir()


DEFAULT_RULESET = "reference"  # what ruleset=None means everywhere


def load_ruleset(spec=None) -> MortRules:
    """The ruleset ``spec`` names: ``None`` or ``"reference"`` (the declared default and
    only preset), a ruleset folder, a ``.toml`` tweak over the ruleset its ``base = "..."``
    names (default: the reference; tables named after the files, ``[rules.variants]``,
    ``[energy.two]``), ``"reference+tweak.toml"``, or a :class:`MortRules` (itself)."""
    return MortRules.load(spec)
