"""Until Daylight rulesets: load, validate, override and pack the game's numbers.

The numbers of the game live in six human-editable TOML files (``data/until_daylight``):
``constants.toml``, ``dice.toml``, ``characters.toml``, ``horde.toml``, ``rubble.toml`` and
``recipes.toml``.  Every value is written ``{ value = ..., source = "..." }`` with a source
tag among ``rulebook``, ``dized``, ``fit`` and ``assumed`` (values set by an override carry
``override`` unless the override gives its own tag).

Every value has a dotted key: ``<file stem>.<table>...<field>`` (``horde.monster.count``,
``characters.pillar.advantage.kind``, ``dice.combat.faces``, ``constants.rounds``,
``constants.search_timer.spread``, ``rubble.basic_weapons.bow.ammo``); the variant
switches of ``constants.toml`` are ``variants.<name>``.

>>> rs = load_ruleset()
>>> rs2 = rs.override({"characters.pillar.health": 8, "variants.trap_rewards": False})
>>> packed = rs2.pack()          # int64 arrays in the layouts of simlib.games.until_daylight.codes

Everything is validated before a :class:`Ruleset` exists; any problem raises
:class:`RulesetError` naming the file, the dotted key and what is allowed.

The generic machinery (flattening, overrides and override files, writing, describing,
fingerprinting) is the core's (:mod:`simlib.core.ruleset`); this module declares the six
files' schemas as data, the game's value types and their messages (``_check_value``),
the cross-file checks that build the model used for packing (``_model``), the packing
(:class:`PackedRules`) and the fingerprint formula stored studies are keyed by.
"""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any, Iterator, Mapping, NamedTuple

import numpy as np

from . import codes as K
from ...core.ruleset import shipped_ruleset_dir
from ...core.ruleset import TEXT, Entities, Field, FileSchema, RulesetError, TaggedRuleset, \
    jsonable, load_tagged, resolve_ruleset
from ...core.ruleset import error as _err
from .capacities import check_capacities, check_range

__all__ = [
    "RulesetError",
    "Ruleset",
    "PackedRules",
    "load_ruleset",
    "default_ruleset_dir",
    "SOURCES",
    "FILES",
    "PRESETS",
    "DEFAULT_RULESET",
    "reference_ruleset",
    "preset_path",
]

# allowed in ruleset files; "calibrated": an assumed value moved by simlib's calibration
# toward a stated target difficulty (presets/calibrated.toml says which target and how)
SOURCES = ("rulebook", "dized", "fit", "assumed", "calibrated")
PRESETS = ("reference", "calibrated", "box")  # names load_ruleset() accepts besides paths
OVERRIDE_SOURCE = "override"  # given to values changed by an override without a tag
FILES = ("constants", "dice", "characters", "horde", "rubble", "recipes")
FORMAT_VERSION = 1
_BASIC = "basic_weapons"


# =========================================================================== schema
# Field types of this game besides the core's int/bool/str/text: card (a card name),
# cards (a list of ingredients), mod, enemy_kind, card_kind (names of codes.py),
# faces, fate_faces (tables of face counts); checked by _check_value below.
def _int(lo: int | None = None, default: Any = None, required: bool = True) -> Field:
    return Field("int", lo, required=required, default=default)


def _opt(type_: str, default: Any, lo: int | None = None) -> Field:
    return Field(type_, lo, required=False, default=default)


CONSTANT_FIELDS: dict[str, tuple[Field, int]] = {
    "rounds": (_int(1), K.P_ROUNDS),
    "dice_cap": (_int(1), K.P_DICE_CAP),
    "token_limit": (_int(0), K.P_TOKEN_LIMIT),
    "trap_supply": (_int(0), K.P_TRAP_SUPPLY),
    "barricade_supply": (_int(0), K.P_BARRICADE_SUPPLY),
    "barricade_heads": (_int(1), K.P_BARRICADE_HEADS),
    "barricade_bodies": (_int(0), K.P_BARRICADE_BODIES),
    "trap_heads": (_int(0), K.P_TRAP_HEADS),
    "collateral_per_x": (_int(0), K.P_COLLATERAL_PER_X),
    "wave_per_player": (_int(0), K.P_WAVE_PER_PLAYER),
    "survivor_xp": (_int(0), K.P_SURVIVOR_XP),
    "min_players": (_int(1), K.P_MIN_PLAYERS),
    "max_players": (_int(1), K.P_MAX_PLAYERS),
    "stalemate_cap": (_int(1), K.P_STALEMATE_CAP),
    # packed only when codes.py has the column (P_BODIES_PER_DAMAGE, added after N_PARAMS)
    "bodies_per_damage": (_int(1), getattr(K, "P_BODIES_PER_DAMAGE", None)),
}
_N_PARAMS = max(getattr(K, "N_PARAMS_FULL", K.N_PARAMS), K.N_PARAMS)
TIMER_FIELDS: dict[str, tuple[Field, int]] = {
    "per_player": (_int(0), K.P_TIMER_PER_PLAYER),
    "offset": (_int(), K.P_TIMER_OFFSET),
    "spread": (_int(0), K.P_TIMER_SPREAD),
    "min": (_int(0), K.P_TIMER_MIN),
}
VARIANT_FIELDS: dict[str, tuple[Field, int]] = {
    "survivors_block_attacks": (Field("bool"), K.P_V_SURVIVORS_BLOCK),
    "all_raiders_first": (Field("bool"), K.P_V_ALL_RAIDERS_FIRST),
    "horde_reshuffle": (Field("bool"), K.P_V_HORDE_RESHUFFLE),
    "trap_rewards": (Field("bool"), K.P_V_TRAP_REWARDS),
}
DIE_FIELDS = {
    "combat": {"size": _int(1), "faces": Field("faces")},
    "fate": {"size": _int(1), "faces": Field("fate_faces")},
}
CHAR_FIELDS = {
    "health": _int(1),
    "slots": _int(1),
    "basic_weapon": Field("card"),
}
MOD_FIELDS = {"kind": Field("mod"), "amount": _int(), "text": TEXT}
ENEMY_FIELDS = {
    "kind": Field("enemy_kind"),
    "count": _int(0),
    "kill_heads": _int(1),
    "kill_bodies": _int(0),
    "attack_dice": _int(0),
    "reward_cards": _opt("int", 0, 0),
    "reward_xp": _opt("int", 0, 0),
    "kept": _opt("bool", False),
}
CARD_FIELDS = {
    "kind": Field("card_kind"),
    "count": _int(0),
    "dice": _opt("int", 0, 0),
    "ammo": _opt("card", None),
    "weapon_bonus": _opt("int", 0, 0),
    "melee": _opt("bool", False),
    "firearm": _opt("bool", False),
    "silent": _opt("bool", False),
    "amount": _opt("int", 0, 0),
    "needs_action": _opt("bool", False),
    "stacks": _opt("bool", False),
}
BASIC_FIELDS = {k: v for k, v in CARD_FIELDS.items() if k != "count"}
RECIPE_FIELDS = {"ingredients": Field("cards")}

# The six files.  Entity lists may be empty here: _model says what is missing.
SCHEMAS = (
    FileSchema("constants", fields={k: f for k, (f, _) in CONSTANT_FIELDS.items()},
               tables={"search_timer": {k: f for k, (f, _) in TIMER_FIELDS.items()},
                       "variants": {k: f for k, (f, _) in VARIANT_FIELDS.items()}},
               top_level=("variants",)),  # variants.<name> (constants.variants.<name>: alias)
    FileSchema("dice", tables=DIE_FIELDS),
    FileSchema("characters", entities=Entities(
        CHAR_FIELDS, {"advantage": MOD_FIELDS, "drawback": MOD_FIELDS}, what="character",
        nonempty=False)),
    FileSchema("horde", entities=Entities(ENEMY_FIELDS, what="enemy", nonempty=False)),
    FileSchema("rubble", entities=Entities(CARD_FIELDS, what="card", nonempty=False),
               sections={_BASIC: Entities(BASIC_FIELDS, what="basic weapon", nonempty=False)}),
    FileSchema("recipes", entities=Entities(RECIPE_FIELDS, what="recipe", allowed=tuple(K.TOKEN_NAMES),
                                            allowed_what="token", nonempty=False)),
)

_CARD_COLS = {
    "kind": K.C_KIND, "count": K.C_COUNT, "dice": K.C_DICE, "ammo": K.C_AMMO,
    "weapon_bonus": K.C_WEAPON_BONUS, "melee": K.C_MELEE, "firearm": K.C_FIREARM,
    "silent": K.C_SILENT, "amount": K.C_AMOUNT, "needs_action": K.C_NEEDS_ACTION,
    "stacks": K.C_STACKS,
}
_ENEMY_COLS = {
    "kind": K.E_KIND, "count": K.E_COUNT, "kill_heads": K.E_KILL_HEADS,
    "kill_bodies": K.E_KILL_BODIES, "attack_dice": K.E_ATTACK_DICE,
    "reward_cards": K.E_REWARD_CARDS, "reward_xp": K.E_REWARD_XP, "kept": K.E_KEPT,
}

# Names a value of each field type may take (for fixed vocabularies).
_VOCAB = {
    "mod": K.MOD_NAMES,
    "enemy_kind": K.ENEMY_KIND_NAMES,
    "card_kind": K.CARD_KIND_NAMES,
    "faces": K.FACE_NAMES,
    "fate_faces": K.FATE_NAMES,
}
_VOCAB_LABEL = {
    "mod": "advantage/drawback kind",
    "enemy_kind": "enemy kind",
    "card_kind": "card kind",
    "faces": "combat die face",
    "fate_faces": "Die of Fate face",
}


def _field_for_key(key: str) -> Field | None:
    """Schema field of a dotted key (shape only; entity names are not checked here)."""
    loc = Ruleset._locate(Ruleset.canonical(key))
    return loc[0].field_of(loc[1]) if loc else None


# =========================================================================== value checks
def _check_value(file: str, key: str, field: Field, value: Any) -> Any:
    """Type/range check of one value; returns it in canonical (immutable) form."""
    t = field.type
    if t in ("int",):
        if isinstance(value, bool) or not isinstance(value, int):
            raise _err(file, key, f"expected an integer, got {type(value).__name__} {value!r}")
        if field.min is not None and value < field.min:
            what = "negative count" if field.min == 0 else "value too small"
            raise _err(file, key, f"{what}: {value}; must be >= {field.min}")
        check_range(file, key, value, _err)
        return value
    if t == "bool":
        if not isinstance(value, bool):
            raise _err(file, key, f"expected true or false, got {type(value).__name__} {value!r}")
        return value
    if t in ("str", "card", "text"):
        if not isinstance(value, str):
            raise _err(file, key, f"expected a string, got {type(value).__name__} {value!r}")
        return value
    if t in ("mod", "enemy_kind", "card_kind"):
        if not isinstance(value, str):
            raise _err(file, key, f"expected a name (string), got {type(value).__name__} {value!r}")
        if value not in _VOCAB[t]:
            raise _err(file, key, f"unknown {_VOCAB_LABEL[t]} {value!r}", _VOCAB[t])
        return value
    if t == "cards":
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise _err(file, key, f"expected a list of card names, got {value!r}")
        if not 1 <= len(value) <= K.MAX_INGREDIENTS:
            raise _err(file, key, f"expected 1 to {K.MAX_INGREDIENTS} ingredients, got {len(value)}")
        return tuple(value)
    if t in ("faces", "fate_faces"):
        if not isinstance(value, Mapping):
            raise _err(file, key, "expected a table of face counts, e.g. { H = 1, B = 3, X = 2 }",
                       _VOCAB[t])
        out = {}
        for face, n in value.items():
            if face not in _VOCAB[t]:
                raise _err(file, key, f"unknown {_VOCAB_LABEL[t]} {face!r}", _VOCAB[t])
            out[face] = _check_value(file, f"{key}.{face}", Field("int", 0), n)
        return out
    raise AssertionError(t)  # pragma: no cover


# =========================================================================== semantic model
def _model(rs: "Ruleset") -> dict:
    """Cross-file checks; returns the structured model used for packing."""
    v = rs._flat.values
    fname = rs.file_of

    def get(key: str) -> Any:
        if key in v:
            return v[key]
        return _field_for_key(key).default

    # ---- constants
    fc = fname("constants")
    if v["constants.max_players"] > K.MAX_PLAYERS:
        raise _err(fc, "constants.max_players",
                   f"{v['constants.max_players']} exceeds the engine's capacity",
                   [f"1..{K.MAX_PLAYERS} (codes.MAX_PLAYERS)"])
    if v["constants.min_players"] > v["constants.max_players"]:
        raise _err(fc, "constants.min_players",
                   f"min_players {v['constants.min_players']} > max_players {v['constants.max_players']}",
                   ["1..max_players"])

    if v["constants.dice_cap"] > K.MAX_DICE_CAP:
        raise _err(fc, "constants.dice_cap",
                   f"{v['constants.dice_cap']} exceeds the engine's capacity",
                   [f"1..{K.MAX_DICE_CAP} (codes.MAX_DICE_CAP)"])

    # ---- dice
    fd = fname("dice")
    for die in DIE_FIELDS:
        size, faces = v[f"dice.{die}.size"], v[f"dice.{die}.faces"]
        total = sum(faces.values())
        if total != size:
            raise _err(fd, f"dice.{die}.faces",
                       f"face counts add up to {total}, not to the die's size {size}",
                       [f"counts adding up to dice.{die}.size = {size}"])

    # ---- rubble
    fr = fname("rubble")
    deck = rs.names("rubble")
    basics = rs.names(f"rubble.{_BASIC}")
    card_keys = {n: f"rubble.{n}" for n in deck}
    for n in basics:
        if n in card_keys:
            raise _err(fr, f"rubble.{_BASIC}.{n}", f"card name {n!r} is already a deck card")
        card_keys[n] = f"rubble.{_BASIC}.{n}"
    card_names = list(card_keys)
    if _BASIC in deck:  # pragma: no cover - flattening keeps it out
        raise _err(fr, f"rubble.{_BASIC}", "reserved name")
    for n, pre in card_keys.items():
        kind = v[f"{pre}.kind"]
        ammo = get(f"{pre}.ammo")
        if n in basics and kind != "weapon":
            raise _err(fr, f"{pre}.kind", f"a basic weapon must be of kind 'weapon', not {kind!r}",
                       ["weapon"])
        if kind == "weapon":
            if not get(f"{pre}.melee"):
                ammo_cards = [c for c, p in card_keys.items() if v[f"{p}.kind"] == "ammo"]
                if ammo is None:
                    raise _err(fr, f"{pre}.ammo", "a distance weapon (melee = false) needs an ammo card",
                               ammo_cards)
                if ammo not in card_keys or v[f"{card_keys[ammo]}.kind"] != "ammo":
                    raise _err(fr, f"{pre}.ammo", f"{ammo!r} is not an ammo card", ammo_cards)
            else:
                if ammo is not None:
                    raise _err(fr, f"{pre}.ammo", "a melee weapon takes no ammo (remove the key)")
                if get(f"{pre}.dice") < 1:
                    raise _err(fr, f"{pre}.dice", "a melee weapon needs at least 1 die", [">= 1"])
        elif ammo is not None:
            raise _err(fr, f"{pre}.ammo", f"only distance weapons take ammo, this card is {kind!r}")
        if kind in ("ammo", "dice_bonus") and get(f"{pre}.dice") < 1:
            raise _err(fr, f"{pre}.dice", f"a {kind} card needs dice >= 1", [">= 1"])
    deck_total = sum(v[f"rubble.{n}.count"] for n in deck)

    # ---- horde
    fh = fname("horde")
    enemies = rs.names("horde")
    if not enemies or sum(v[f"horde.{e}.count"] for e in enemies) == 0:
        raise _err(fh, "horde", "the horde deck is empty", ["at least one enemy type with count >= 1"])
    horde_total = sum(v[f"horde.{e}.count"] for e in enemies)

    # ---- characters
    fch = fname("characters")
    chars = rs.names("characters")
    if not chars:
        raise _err(fch, "characters", "no character defined")
    basic_of: dict[str, str] = {}
    for c in chars:
        key = f"characters.{c}.basic_weapon"
        w = v.get(key)
        if w is None:  # pragma: no cover - flattening requires it
            raise _err(fch, key, "a character needs a basic weapon", basics)
        if w not in card_keys:
            raise _err(fch, key, f"unknown card {w!r}", basics)
        if w not in basics:
            kind = v[f"{card_keys[w]}.kind"]
            if kind != "weapon":
                raise _err(fch, key, f"{w!r} is not a weapon (kind {kind!r})", basics)
            raise _err(fch, key, f"{w!r} is a deck card, not a basic weapon", basics)
        if w in basic_of:
            raise _err(fch, key, f"{w!r} is already the basic weapon of {basic_of[w]}",
                       [b for b in basics if b not in basic_of])
        basic_of[w] = c
    for b in basics:
        if b not in basic_of:
            raise _err(fr, f"rubble.{_BASIC}.{b}", "basic weapon of no character (set a character's "
                       "basic_weapon to it or remove it)", chars)

    # ---- recipes
    frc = fname("recipes")
    recipes = rs.names("recipes")
    for r in recipes:
        for ing in v[f"recipes.{r}.ingredients"]:
            if ing not in card_keys:
                raise _err(frc, f"recipes.{r}.ingredients", f"unknown card {ing!r}", card_names)

    model = {
        "card_names": tuple(card_names),
        "card_keys": card_keys,
        "basics": tuple(basics),
        "basic_of": basic_of,
        "deck_total": deck_total,
        "enemy_names": tuple(enemies),
        "horde_total": horde_total,
        "character_names": tuple(chars),
        "recipe_names": tuple(recipes),
    }
    check_capacities(v, model, fname, _err)  # what the kernels' fixed arrays can hold
    return model


# =========================================================================== packing
class PackedRules(NamedTuple):
    """The ruleset as the kernels read it (read-only C-contiguous int64 arrays, codes.py layouts)."""

    params: np.ndarray
    card_tab: np.ndarray
    enemy_tab: np.ndarray
    char_tab: np.ndarray
    die_faces: np.ndarray
    fate_faces: np.ndarray
    recipes: np.ndarray


def _freeze(a: np.ndarray) -> np.ndarray:
    a = np.ascontiguousarray(a, dtype=np.int64)
    a.setflags(write=False)
    return a


def _pack(v: Mapping[str, Any], model: dict) -> PackedRules:

    def get(key: str) -> Any:
        return v[key] if key in v else _field_for_key(key).default

    params = np.zeros(_N_PARAMS, dtype=np.int64)
    for name, (_, col) in CONSTANT_FIELDS.items():
        if col is not None:
            params[col] = v[f"constants.{name}"]
    for name, (_, col) in TIMER_FIELDS.items():
        params[col] = v[f"constants.search_timer.{name}"]
    for name, (_, col) in VARIANT_FIELDS.items():
        params[col] = int(v[f"variants.{name}"])
    card_names = model["card_names"]
    card_id = {n: i for i, n in enumerate(card_names)}
    char_id = {n: i for i, n in enumerate(model["character_names"])}
    params[K.P_N_CARD_TYPES] = len(card_names)
    params[K.P_N_ENEMY_TYPES] = len(model["enemy_names"])
    params[K.P_N_CHARS] = len(model["character_names"])
    params[K.P_HORDE_TOTAL] = model["horde_total"]
    params[K.P_RUBBLE_TOTAL] = model["deck_total"] + len(model["basics"])

    card_tab = np.zeros((len(card_names), K.N_CARD_COLS), dtype=np.int64)
    for i, n in enumerate(card_names):
        pre = model["card_keys"][n]
        for field, col in _CARD_COLS.items():
            if field == "count" and n in model["basics"]:
                card_tab[i, col] = 0
                continue
            val = get(f"{pre}.{field}")
            if field == "kind":
                val = K.CARD_KIND_NAMES[val]
            elif field == "ammo":
                val = -1 if val is None else card_id[val]
            card_tab[i, col] = int(val)
        owner = model["basic_of"].get(n)
        card_tab[i, K.C_BASIC_OF] = -1 if owner is None else char_id[owner]

    enemy_tab = np.zeros((len(model["enemy_names"]), K.N_ENEMY_COLS), dtype=np.int64)
    for i, e in enumerate(model["enemy_names"]):
        for field, col in _ENEMY_COLS.items():
            val = get(f"horde.{e}.{field}")
            enemy_tab[i, col] = K.ENEMY_KIND_NAMES[val] if field == "kind" else int(val)

    char_tab = np.zeros((len(model["character_names"]), K.N_CHAR_COLS), dtype=np.int64)
    for i, c in enumerate(model["character_names"]):
        pre = f"characters.{c}"
        char_tab[i, K.CH_HEALTH] = v[f"{pre}.health"]
        char_tab[i, K.CH_SLOTS] = v[f"{pre}.slots"]
        char_tab[i, K.CH_WEAPON] = card_id[v[f"{pre}.basic_weapon"]]
        char_tab[i, K.CH_ADV_KIND] = K.MOD_NAMES[v[f"{pre}.advantage.kind"]]
        char_tab[i, K.CH_ADV_AMOUNT] = v[f"{pre}.advantage.amount"]
        char_tab[i, K.CH_DRAW_KIND] = K.MOD_NAMES[v[f"{pre}.drawback.kind"]]
        char_tab[i, K.CH_DRAW_AMOUNT] = v[f"{pre}.drawback.amount"]

    def expand(faces: Mapping[str, int], codes: Mapping[str, int]) -> np.ndarray:
        return np.array([codes[f] for f, n in faces.items() for _ in range(n)], dtype=np.int64)

    die_faces = expand(v["dice.combat.faces"], K.FACE_NAMES)
    fate_faces = expand(v["dice.fate.faces"], K.FATE_NAMES)

    recipes = np.full((len(model["recipe_names"]), K.N_RECIPE_COLS), -1, dtype=np.int64)
    for i, r in enumerate(model["recipe_names"]):
        ings = v[f"recipes.{r}.ingredients"]
        recipes[i, K.R_PRODUCT] = K.TOKEN_NAMES[r]
        recipes[i, K.R_N] = len(ings)
        for j, ing in enumerate(ings):
            recipes[i, K.R_ING0 + j] = card_id[ing]

    return PackedRules(*(_freeze(a) for a in (params, card_tab, enemy_tab, char_tab,
                                              die_faces, fate_faces, recipes)))


# =========================================================================== Ruleset
class Ruleset(TaggedRuleset):
    """An immutable, validated Until Daylight ruleset.  Build it with :func:`load_ruleset`.

    Keys, values, sources, overrides, writing and the fingerprint come from
    :class:`simlib.core.ruleset.TaggedRuleset`; this class adds the cross-file model, the
    packing into the kernels' arrays and the names and ids of cards, enemies, characters.
    """

    SCHEMAS = SCHEMAS
    SOURCES = SOURCES
    GAME = "Until Daylight"
    DATA_FOLDER = "until_daylight"
    FORMAT_VERSION = FORMAT_VERSION
    _check_value = staticmethod(_check_value)

    def __init__(self, *_: Any, **__: Any) -> None:
        raise TypeError("use load_ruleset() or Ruleset.override() to build a Ruleset")

    def _validate(self) -> None:
        object.__setattr__(self, "_model", _model(self))  # raises before any Ruleset exists

    def _fingerprint_payload(self) -> Any:
        # the fingerprint keys stored studies: this formula (no game name) stays as it is
        return [FORMAT_VERSION, [[k, jsonable(v)] for k, v in self._flat.values.items()]]

    def __repr__(self) -> str:
        return (f"<Ruleset {self.origin!r} {len(self._model['character_names'])} characters, "
                f"{len(self._model['enemy_names'])} enemy types, {len(self._model['card_names'])} "
                f"card types, fingerprint {self.fingerprint()[:12]}>")

    # ------------------------------------------------------------------ names and ids
    @property
    def card_names(self) -> tuple[str, ...]:
        return self._model["card_names"]

    @property
    def enemy_names(self) -> tuple[str, ...]:
        return self._model["enemy_names"]

    @property
    def character_names(self) -> tuple[str, ...]:
        return self._model["character_names"]

    @property
    def basic_weapon_names(self) -> tuple[str, ...]:
        return self._model["basics"]

    @staticmethod
    def _id(names: tuple[str, ...], name: str, what: str) -> int:
        try:
            return names.index(name)
        except ValueError:
            raise RulesetError(f"unknown {what} {name!r}; allowed: {', '.join(names)}") from None

    def card_id(self, name: str) -> int:
        return self._id(self.card_names, name, "card")

    def enemy_id(self, name: str) -> int:
        return self._id(self.enemy_names, name, "enemy")

    def character_id(self, name: str) -> int:
        return self._id(self.character_names, name, "character")

    # ------------------------------------------------------------------ values
    def to_dict(self, with_sources: bool = False) -> dict:
        """Nested dict of every value ({value, source} leaves if ``with_sources``)."""
        out: dict = {}
        for key, val in self._flat.values.items():
            leaf = ({"value": jsonable(val), "source": self._flat.sources[key]}
                    if with_sources else jsonable(val))
            _set_nested(out, key.split("."), leaf)
        for key, txt in self._flat.texts.items():
            _set_nested(out, key.split("."), txt)
        return copy.deepcopy(out)

    def changes(self, base: "Ruleset | None" = None) -> list[dict]:
        """Every value that differs from ``base`` (default: the reference ruleset).

        Returns
        -------
        list of dict
            ``{"key", "value", "reference", "source"}`` per differing key, in canonical key
            order (keys only one side has come with ``None`` on the other side); JSON-able.
        """
        return super().changes(reference_ruleset() if base is None else base)

    def pack(self) -> PackedRules:
        """The kernels' arrays (cached; read-only int64, C-contiguous, codes.py layouts)."""
        if "packed" not in self._cache:
            self._cache["packed"] = _pack(self._flat.values, self._model)
        return self._cache["packed"]


def _set_nested(d: dict, parts: list[str], leaf: Any) -> None:
    for p in parts[:-1]:
        d = d.setdefault(p, {})
    d[parts[-1]] = leaf


# =========================================================================== loading
def default_ruleset_dir() -> Path:
    """The reference ruleset shipped with simlib (package ``simlib._data``, or <repo>/data)."""
    return shipped_ruleset_dir("until_daylight", "constants.toml", "Until Daylight")


_DEFAULT: Ruleset | None = None
_PRESET_CACHE: dict[str, Ruleset] = {}


def preset_path(name: str) -> Path:
    """The file of a named preset (``calibrated``) shipped with simlib."""
    # the checkout this module lives in first (a development tree), then the package data
    local = Path(__file__).resolve().parents[3] / "data" / "until_daylight" / "presets" / f"{name}.toml"
    path = local if local.is_file() else default_ruleset_dir() / "presets" / f"{name}.toml"
    if not path.is_file():
        raise RulesetError(f"{path}: missing preset file of ruleset {name!r}")
    return path


DEFAULT_RULESET = "calibrated"  # what ruleset=None means everywhere (studies, play_games, Game)


def reference_ruleset() -> Ruleset:
    """The reference ruleset: every value as the rulebook and the assumptions give it."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_tagged(default_ruleset_dir(), Ruleset)
    return _DEFAULT


def _preset(name: str) -> Ruleset:
    if name not in _PRESET_CACHE:
        _PRESET_CACHE[name] = load_tagged(preset_path(name), Ruleset, base=reference_ruleset())
    return _PRESET_CACHE[name]


_PRESETS = {"reference": reference_ruleset, "calibrated": lambda: _preset("calibrated"),
            "box": lambda: _preset("box")}


def load_ruleset(spec: "str | Path | Ruleset | None" = None) -> Ruleset:
    """The Until Daylight ruleset ``spec`` names.

    * ``None``: the declared default, the **calibrated** preset (a chosen difficulty: the
      reference with one assumed number moved, ``presets/calibrated.toml``);
    * ``"reference"``: the reference ruleset shipped with simlib; ``"calibrated"``: the
      preset (a file or folder of that name in the working directory takes precedence);
    * a directory: a full ruleset (the six files, every value with a source tag);
    * a ``.toml`` tweak: the values it changes, over the ruleset its top-level
      ``base = "reference"`` names, or over the default (calibrated) when it names none.
      A file named like a ruleset file (``horde.toml``...) uses that file's layout; any
      other file uses top-level tables named after the files (``[horde.monster]``,
      ``[variants]``, ``[characters.pillar]``...).  Values are bare (source
      ``"override"``) or ``{ value, source }``;
    * ``"calibrated+tweak.toml"``: the tweak over a named base;
    * a :class:`Ruleset`: itself.

    ``ruleset.lineage`` names how it was made (``calibrated+tweak.toml``).
    """
    return resolve_ruleset(spec, Ruleset, presets=_PRESETS, default=DEFAULT_RULESET)


def iter_sources(rs: Ruleset) -> Iterator[tuple[str, str]]:
    """(dotted key, source) pairs of every value."""
    for key in rs.keys():
        yield key, rs.source(key)
