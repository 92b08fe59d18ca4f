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
"""
from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any, Iterator, Mapping, NamedTuple

import numpy as np

from . import codes as K
from ...core.ruleset import NAME_RE, RulesetError, read_toml, split_leaf, toml_value
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
    "preset_path",
]

# allowed in ruleset files; "calibrated": an assumed value moved by simlib's calibration
# toward a stated target difficulty (presets/calibrated.toml says which target and how)
SOURCES = ("rulebook", "dized", "fit", "assumed", "calibrated")
PRESETS = ("reference", "calibrated")  # names load_ruleset() accepts besides paths
OVERRIDE_SOURCE = "override"  # given to values changed by an override without a tag
FILES = ("constants", "dice", "characters", "horde", "rubble", "recipes")
FORMAT_VERSION = 1
_BASIC = "basic_weapons"


# =========================================================================== schema
class Field(NamedTuple):
    type: str  # int, bool, str, card, cards, mod, enemy_kind, card_kind, faces, fate_faces
    min: int | None = None
    required: bool = True
    default: Any = None
    doc: str = ""


CONSTANT_FIELDS: dict[str, tuple[Field, int]] = {
    "rounds": (Field("int", 1), K.P_ROUNDS),
    "dice_cap": (Field("int", 1), K.P_DICE_CAP),
    "token_limit": (Field("int", 0), K.P_TOKEN_LIMIT),
    "trap_supply": (Field("int", 0), K.P_TRAP_SUPPLY),
    "barricade_supply": (Field("int", 0), K.P_BARRICADE_SUPPLY),
    "barricade_heads": (Field("int", 1), K.P_BARRICADE_HEADS),
    "barricade_bodies": (Field("int", 0), K.P_BARRICADE_BODIES),
    "trap_heads": (Field("int", 0), K.P_TRAP_HEADS),
    "collateral_per_x": (Field("int", 0), K.P_COLLATERAL_PER_X),
    "wave_per_player": (Field("int", 0), K.P_WAVE_PER_PLAYER),
    "survivor_xp": (Field("int", 0), K.P_SURVIVOR_XP),
    "min_players": (Field("int", 1), K.P_MIN_PLAYERS),
    "max_players": (Field("int", 1), K.P_MAX_PLAYERS),
    "stalemate_cap": (Field("int", 1), K.P_STALEMATE_CAP),
    # packed only when codes.py has the column (P_BODIES_PER_DAMAGE, added after N_PARAMS)
    "bodies_per_damage": (Field("int", 1), getattr(K, "P_BODIES_PER_DAMAGE", None)),
}
_N_PARAMS = max(getattr(K, "N_PARAMS_FULL", K.N_PARAMS), K.N_PARAMS)
TIMER_FIELDS: dict[str, tuple[Field, int]] = {
    "per_player": (Field("int", 0), K.P_TIMER_PER_PLAYER),
    "offset": (Field("int"), K.P_TIMER_OFFSET),
    "spread": (Field("int", 0), K.P_TIMER_SPREAD),
    "min": (Field("int", 0), K.P_TIMER_MIN),
}
VARIANT_FIELDS: dict[str, tuple[Field, int]] = {
    "survivors_block_attacks": (Field("bool"), K.P_V_SURVIVORS_BLOCK),
    "all_raiders_first": (Field("bool"), K.P_V_ALL_RAIDERS_FIRST),
    "horde_reshuffle": (Field("bool"), K.P_V_HORDE_RESHUFFLE),
    "trap_rewards": (Field("bool"), K.P_V_TRAP_REWARDS),
}
DIE_FIELDS = {
    "combat": {"size": Field("int", 1), "faces": Field("faces")},
    "fate": {"size": Field("int", 1), "faces": Field("fate_faces")},
}
CHAR_FIELDS = {
    "health": Field("int", 1),
    "slots": Field("int", 1),
    "basic_weapon": Field("card"),
}
MOD_FIELDS = {"kind": Field("mod"), "amount": Field("int")}  # + optional plain `text`
ENEMY_FIELDS = {
    "kind": Field("enemy_kind"),
    "count": Field("int", 0),
    "kill_heads": Field("int", 1),
    "kill_bodies": Field("int", 0),
    "attack_dice": Field("int", 0),
    "reward_cards": Field("int", 0, False, 0),
    "reward_xp": Field("int", 0, False, 0),
    "kept": Field("bool", None, False, False),
}
CARD_FIELDS = {
    "kind": Field("card_kind"),
    "count": Field("int", 0),
    "dice": Field("int", 0, False, 0),
    "ammo": Field("card", None, False, None),
    "weapon_bonus": Field("int", 0, False, 0),
    "melee": Field("bool", None, False, False),
    "firearm": Field("bool", None, False, False),
    "silent": Field("bool", None, False, False),
    "amount": Field("int", 0, False, 0),
    "needs_action": Field("bool", None, False, False),
    "stacks": Field("bool", None, False, False),
}
BASIC_FIELDS = {k: v for k, v in CARD_FIELDS.items() if k != "count"}
RECIPE_FIELDS = {"ingredients": Field("cards")}

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


def _section_of(key: str) -> str:
    """File stem a dotted key lives in."""
    head = key.split(".", 1)[0]
    return "constants" if head == "variants" else head


def _file_of(key: str) -> str:
    return _section_of(key) + ".toml"


def _normalize_key(key: str) -> str:
    if key.startswith("constants.variants."):
        return "variants." + key[len("constants.variants."):]
    return key


def _field_for_key(key: str) -> Field | None:
    """Schema field of a dotted key (shape only; entity names are not checked here)."""
    p = key.split(".")
    sec = p[0]
    if sec == "constants":
        if len(p) == 2 and p[1] in CONSTANT_FIELDS:
            return CONSTANT_FIELDS[p[1]][0]
        if len(p) == 3 and p[1] == "search_timer" and p[2] in TIMER_FIELDS:
            return TIMER_FIELDS[p[2]][0]
    elif sec == "variants":
        if len(p) == 2 and p[1] in VARIANT_FIELDS:
            return VARIANT_FIELDS[p[1]][0]
    elif sec == "dice":
        if len(p) == 3 and p[1] in DIE_FIELDS:
            return DIE_FIELDS[p[1]].get(p[2])
    elif sec == "characters":
        if len(p) == 3:
            return CHAR_FIELDS.get(p[2])
        if len(p) == 4 and p[2] in ("advantage", "drawback"):
            if p[3] == "text":
                return Field("text", None, False, "")
            return MOD_FIELDS.get(p[3])
    elif sec == "horde":
        if len(p) == 3:
            return ENEMY_FIELDS.get(p[2])
    elif sec == "rubble":
        if len(p) == 3 and p[1] != _BASIC:
            return CARD_FIELDS.get(p[2])
        if len(p) == 4 and p[1] == _BASIC:
            return BASIC_FIELDS.get(p[3])
    elif sec == "recipes":
        if len(p) == 3:
            return RECIPE_FIELDS.get(p[2])
    return None


# =========================================================================== leaf checks
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


def _split_leaf(file: str, key: str, node: Any, field: Field) -> tuple[Any, str]:
    """``{value, source}`` → (checked value, source); bare values are refused."""
    return split_leaf(file, key, node, field, SOURCES, _check_value)


def _check_name(file: str, key: str, name: str, what: str) -> None:
    if not NAME_RE.match(name):
        raise _err(file, key, f"{what} name {name!r} is not snake_case (a-z, 0-9, _)")


# =========================================================================== flattening
class _Flat:
    """Ordered dotted key → (value, source), plus descriptive texts (no source)."""

    def __init__(self) -> None:
        self.values: dict[str, Any] = {}
        self.sources: dict[str, str] = {}
        self.texts: dict[str, str] = {}
        self.files: dict[str, str] = {}  # section → file label used in messages

    def put(self, key: str, value: Any, source: str) -> None:
        self.values[key] = value
        self.sources[key] = source

    def copy(self) -> "_Flat":
        new = _Flat()
        new.values = copy.deepcopy(self.values)
        new.sources = dict(self.sources)
        new.texts = dict(self.texts)
        new.files = dict(self.files)
        return new


def _table(file: str, key: str, node: Any) -> Mapping:
    if not isinstance(node, Mapping):
        raise _err(file, key, f"expected a table, got {type(node).__name__} {node!r}")
    return node


def _flatten_fields(flat: _Flat, file: str, prefix: str, node: Mapping,
                    fields: Mapping[str, Field], extra_allowed: tuple[str, ...] = ()) -> None:
    for k in node:
        if k not in fields and k not in extra_allowed:
            raise _err(file, f"{prefix}.{k}", "unknown key", list(fields) + list(extra_allowed))
    for k, f in fields.items():
        if k not in node:
            if f.required:
                raise _err(file, f"{prefix}.{k}", "missing required key")
            continue
        value, src = _split_leaf(file, f"{prefix}.{k}", node[k], f)
        flat.put(f"{prefix}.{k}", value, src)


def _flatten_constants(flat: _Flat, file: str, doc: Mapping) -> None:
    fields = {k: f for k, (f, _) in CONSTANT_FIELDS.items()}
    top = {k: v for k, v in doc.items() if k not in ("search_timer", "variants")}
    _flatten_fields(flat, file, "constants", top, fields, ("search_timer", "variants"))
    for sub, spec, prefix in (("search_timer", TIMER_FIELDS, "constants.search_timer"),
                              ("variants", VARIANT_FIELDS, "variants")):
        if sub not in doc:
            raise _err(file, prefix, f"missing table [{sub}]")
        _flatten_fields(flat, file, prefix, _table(file, prefix, doc[sub]),
                        {k: f for k, (f, _) in spec.items()})


def _flatten_dice(flat: _Flat, file: str, doc: Mapping) -> None:
    for k in doc:
        if k not in DIE_FIELDS:
            raise _err(file, f"dice.{k}", "unknown die", DIE_FIELDS)
    for die, fields in DIE_FIELDS.items():
        if die not in doc:
            raise _err(file, f"dice.{die}", f"missing table [{die}]")
        _flatten_fields(flat, file, f"dice.{die}", _table(file, f"dice.{die}", doc[die]), fields)


def _flatten_characters(flat: _Flat, file: str, doc: Mapping) -> None:
    for name, node in doc.items():
        prefix = f"characters.{name}"
        _check_name(file, prefix, name, "character")
        node = _table(file, prefix, node)
        top = {k: v for k, v in node.items() if k not in ("advantage", "drawback")}
        _flatten_fields(flat, file, prefix, top, CHAR_FIELDS, ("advantage", "drawback"))
        for part in ("advantage", "drawback"):
            if part not in node:
                raise _err(file, f"{prefix}.{part}", f"missing table [{name}.{part}]")
            sub = _table(file, f"{prefix}.{part}", node[part])
            _flatten_fields(flat, file, f"{prefix}.{part}", sub, MOD_FIELDS, ("text",))
            if "text" in sub:
                flat.texts[f"{prefix}.{part}.text"] = _check_value(
                    file, f"{prefix}.{part}.text", Field("text"), sub["text"])


def _flatten_entities(flat: _Flat, file: str, sec: str, doc: Mapping,
                      fields: Mapping[str, Field], what: str) -> None:
    for name, node in doc.items():
        prefix = f"{sec}.{name}"
        _check_name(file, prefix, name, what)
        _flatten_fields(flat, file, prefix, _table(file, prefix, node), fields)


def _flatten_rubble(flat: _Flat, file: str, doc: Mapping) -> None:
    deck = {k: v for k, v in doc.items() if k != _BASIC}
    _flatten_entities(flat, file, "rubble", deck, CARD_FIELDS, "card")
    basics = _table(file, f"rubble.{_BASIC}", doc.get(_BASIC, {}))
    _flatten_entities(flat, file, f"rubble.{_BASIC}", basics, BASIC_FIELDS, "card")


def _flatten_recipes(flat: _Flat, file: str, doc: Mapping) -> None:
    for name in doc:
        if name not in K.TOKEN_NAMES:
            raise _err(file, f"recipes.{name}", f"unknown token {name!r}", K.TOKEN_NAMES)
    _flatten_entities(flat, file, "recipes", doc, RECIPE_FIELDS, "recipe")


_FLATTENERS = {
    "constants": _flatten_constants,
    "dice": _flatten_dice,
    "characters": _flatten_characters,
    "horde": lambda flat, file, doc: _flatten_entities(flat, file, "horde", doc, ENEMY_FIELDS, "enemy"),
    "rubble": _flatten_rubble,
    "recipes": _flatten_recipes,
}


# =========================================================================== semantic model
def _entities(flat: _Flat, prefix: str) -> list[str]:
    """Entity names directly under ``prefix`` in file order."""
    n = prefix.count(".") + 1
    seen: dict[str, None] = {}
    for key in flat.values:
        if key.startswith(prefix + "."):
            p = key.split(".")
            if len(p) > n + 1 and not (prefix == "rubble" and p[1] == _BASIC):
                seen.setdefault(p[n], None)
    return list(seen)


def _validate(flat: _Flat) -> dict:
    """Cross-field checks; returns the structured model used for packing."""
    v = flat.values

    def fname(sec: str) -> str:
        return flat.files.get(sec, sec + ".toml")

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
    deck = _entities(flat, "rubble")
    basics = _entities(flat, f"rubble.{_BASIC}")
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
    enemies = _entities(flat, "horde")
    if not enemies or sum(v[f"horde.{e}.count"] for e in enemies) == 0:
        raise _err(fh, "horde", "the horde deck is empty", ["at least one enemy type with count >= 1"])
    horde_total = sum(v[f"horde.{e}.count"] for e in enemies)

    # ---- characters
    fch = fname("characters")
    chars = _entities(flat, "characters")
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
    recipes = _entities(flat, "recipes")
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


def _pack(flat: _Flat, model: dict) -> PackedRules:
    v = flat.values

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
def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Mapping):
        return {k: _jsonable(x) for k, x in value.items()}
    return value


class Ruleset:
    """An immutable, validated Until Daylight ruleset.  Build it with :func:`load_ruleset`."""

    __slots__ = ("_flat", "_model", "_origin", "_packed", "_fingerprint")

    def __init__(self, *_: Any, **__: Any) -> None:
        raise TypeError("use load_ruleset() or Ruleset.override() to build a Ruleset")

    @classmethod
    def _build(cls, flat: _Flat, origin: str) -> "Ruleset":
        model = _validate(flat)  # raises before any object exists
        self = object.__new__(cls)
        object.__setattr__(self, "_flat", flat)
        object.__setattr__(self, "_model", model)
        object.__setattr__(self, "_origin", origin)
        object.__setattr__(self, "_packed", None)
        object.__setattr__(self, "_fingerprint", None)
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Ruleset is immutable; use .override() to get a changed copy")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("Ruleset is immutable")

    def __repr__(self) -> str:
        return (f"<Ruleset {self._origin!r} {len(self._model['character_names'])} characters, "
                f"{len(self._model['enemy_names'])} enemy types, {len(self._model['card_names'])} "
                f"card types, fingerprint {self.fingerprint()[:12]}>")

    def __reduce__(self):
        return (_rebuild, (self._flat, self._origin))

    def __copy__(self) -> "Ruleset":
        return self

    def __deepcopy__(self, memo: dict) -> "Ruleset":
        return self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ruleset) and other.fingerprint() == self.fingerprint()

    def __hash__(self) -> int:
        return hash(self.fingerprint())

    # ------------------------------------------------------------------ names and ids
    @property
    def origin(self) -> str:
        """Where the ruleset came from (directory, file, and '+override' marks)."""
        return self._origin

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
    def keys(self) -> list[str]:
        """Every dotted key holding a value, in canonical order (texts excluded)."""
        return list(self._flat.values)

    def _known(self, key: str) -> tuple[str, Field | None]:
        key = _normalize_key(key)
        if key in self._flat.values or key in self._flat.texts:
            return key, _field_for_key(key)
        field = _field_for_key(key)
        if field is not None and not field.required and self._entity_exists(key):
            return key, field
        raise _unknown_key(key, self)

    def _entity_exists(self, key: str) -> bool:
        p = key.split(".")
        depth = 3 if (p[0] == "rubble" and p[1] == _BASIC) or (p[0] == "characters" and len(p) == 4) else 2
        prefix = ".".join(p[:depth]) + "."
        return any(k.startswith(prefix) for k in self._flat.values)

    def get(self, key: str) -> Any:
        """Value of a dotted key (lists come back as tuples; omitted optional fields: default)."""
        key, field = self._known(key)
        if key in self._flat.texts:
            return self._flat.texts[key]
        if key in self._flat.values:
            return copy.deepcopy(self._flat.values[key])
        return field.default

    def source(self, key: str) -> str:
        """Source tag of a dotted key (an omitted optional field takes its default: 'assumed')."""
        key, _ = self._known(key)
        if key in self._flat.texts:
            return "text"
        return self._flat.sources.get(key, "assumed")

    def text(self, key: str) -> str:
        """Description of an advantage/drawback, e.g. ``text("characters.pillar.advantage")``."""
        return self._flat.texts.get(_normalize_key(key) + ".text", "")

    def to_dict(self, with_sources: bool = False) -> dict:
        """Nested dict of every value ({value, source} leaves if ``with_sources``)."""
        out: dict = {}
        for key, val in self._flat.values.items():
            leaf = ({"value": _jsonable(val), "source": self._flat.sources[key]}
                    if with_sources else _jsonable(val))
            _set_nested(out, key.split("."), leaf)
        for key, txt in self._flat.texts.items():
            _set_nested(out, key.split("."), txt)
        return copy.deepcopy(out)

    def describe(self):
        """A pandas DataFrame: one row per value with its key, file, value and source."""
        import pandas as pd

        rows = []
        for key, val in self._flat.values.items():
            parent = key.rsplit(".", 1)[0]
            rows.append({
                "key": key,
                "file": _file_of(key),
                "value": _jsonable(val),
                "source": self._flat.sources[key],
                "note": self._flat.texts.get(parent + ".text", ""),
            })
        return pd.DataFrame(rows, columns=["key", "file", "value", "source", "note"])

    def fingerprint(self) -> str:
        """sha256 hex of a canonical JSON of every value (in id order; sources and texts excluded)."""
        if self._fingerprint is None:
            payload = [FORMAT_VERSION, [[k, _jsonable(v)] for k, v in self._flat.values.items()]]
            blob = json.dumps(payload, separators=(",", ":"), ensure_ascii=True)
            object.__setattr__(self, "_fingerprint", hashlib.sha256(blob.encode()).hexdigest())
        return self._fingerprint

    def changes(self, base: "Ruleset | None" = None) -> list[dict]:
        """Every value that differs from ``base`` (default: the reference ruleset).

        Returns
        -------
        list of dict
            ``{"key", "value", "reference", "source"}`` per differing key, in canonical key
            order (keys only one side has come with ``None`` on the other side); JSON-able.
        """
        base = load_ruleset() if base is None else base
        mine, theirs = self._flat.values, base._flat.values
        keys = list(mine) + [k for k in theirs if k not in mine]
        out = []
        for key in keys:
            a = _jsonable(mine[key]) if key in mine else None
            b = _jsonable(theirs[key]) if key in theirs else None
            if a != b:
                out.append({"key": key, "value": a, "reference": b,
                            "source": self._flat.sources.get(key) if key in mine else None})
        return out

    def pack(self) -> PackedRules:
        """The kernels' arrays (cached; read-only int64, C-contiguous, codes.py layouts)."""
        if self._packed is None:
            object.__setattr__(self, "_packed", _pack(self._flat, self._model))
        return self._packed

    # ------------------------------------------------------------------ overrides
    def override(self, mapping: Mapping[str, Any] | None = None, /, **_: Any) -> "Ruleset":
        """A NEW validated Ruleset with dotted keys replaced; this one is unchanged.

        Values are bare (source becomes ``"override"``) or ``{"value": v, "source": tag}``.
        """
        if _:
            raise TypeError("override() takes one mapping of dotted keys")
        return self._override(mapping or {}, "override")

    def _override(self, mapping: Mapping[str, Any], file: str) -> "Ruleset":
        flat = self._flat.copy()
        for raw_key, node in mapping.items():
            if not isinstance(raw_key, str):
                raise _err(file, repr(raw_key), "override keys must be dotted strings")
            key, field = self._known(raw_key)
            if field is None or field.type == "text":
                flat.texts[key] = _check_value(file, key, Field("text"), node)
                continue
            if isinstance(node, Mapping) and "value" in node:
                extra = [k for k in node if k not in ("value", "source")]
                if extra:
                    raise _err(file, f"{key}.{extra[0]}", "unknown key", ("value", "source"))
                src = node.get("source", OVERRIDE_SOURCE)
                if src not in SOURCES + (OVERRIDE_SOURCE,):
                    raise _err(file, key, f"unknown source tag {src!r}", SOURCES + (OVERRIDE_SOURCE,))
                value = node["value"]
            else:
                src, value = OVERRIDE_SOURCE, node
            value = _check_value(file, key, field, value)
            flat.put(key, value, src)
        for sec in FILES:
            flat.files[sec] = file if any(_section_of(_normalize_key(k)) == sec for k in mapping) \
                else self._flat.files.get(sec, sec + ".toml")
        origin = self._origin if not mapping else f"{self._origin}+{file}"
        return Ruleset._build(flat, origin)

    # ------------------------------------------------------------------ writing
    def to_toml_dir(self, path: str | Path) -> Path:
        """Write the full ruleset as the six TOML files into ``path`` (created if needed).

        Values whose source is ``override`` are written as ``assumed`` with a comment.
        """
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        tree = self.to_dict(with_sources=True)
        for sec in FILES:
            lines = [f"# Until Daylight ruleset: {sec}.toml (written by simlib; fingerprint "
                     f"{self.fingerprint()[:16]})", ""]
            node = dict(tree.get(sec, {}))
            if sec == "constants":
                node["variants"] = tree["variants"]
            _emit_toml(lines, node, [])
            (path / f"{sec}.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path


def _rebuild(flat: _Flat, origin: str) -> Ruleset:
    return Ruleset._build(flat, origin)


def _set_nested(d: dict, parts: list[str], leaf: Any) -> None:
    for p in parts[:-1]:
        d = d.setdefault(p, {})
    d[parts[-1]] = leaf


def _is_leaf(node: Any) -> bool:
    return not isinstance(node, dict) or "value" in node


def _emit_toml(lines: list[str], node: dict, path: list[str]) -> None:
    leaves = [(k, x) for k, x in node.items() if _is_leaf(x)]
    tables = [(k, x) for k, x in node.items() if not _is_leaf(x)]
    if path and leaves:
        lines.append(f"[{'.'.join(path)}]")
    for k, x in leaves:
        if isinstance(x, dict):
            src = x["source"]
            note = ""
            if src not in SOURCES:  # files hold the four tags; an override is our assumption
                src, note = "assumed", f"  # set by {x['source']}"
            lines.append(f'{k} = {{ value = {toml_value(x["value"])}, source = "{src}" }}{note}')
        else:
            lines.append(f"{k} = {toml_value(x)}")
    if leaves:
        lines.append("")
    for k, x in tables:
        _emit_toml(lines, x, path + [k])


def _unknown_key(key: str, rs: Ruleset) -> RulesetError:
    """An informative error for an override of a key that does not exist."""
    p = key.split(".")
    file = "override"
    sections = ["constants", "variants", "dice", "characters", "horde", "rubble", "recipes"]
    if p[0] not in sections:
        return _err(file, key, "unknown key", sections)
    entity_lists = {
        "characters": ("character", rs.character_names, CHAR_FIELDS.keys() | {"advantage", "drawback"}),
        "horde": ("enemy", rs.enemy_names, ENEMY_FIELDS.keys()),
        "recipes": ("recipe", rs._model["recipe_names"], RECIPE_FIELDS.keys()),
    }
    if p[0] in entity_lists:
        what, names, fields = entity_lists[p[0]]
        if len(p) < 2 or p[1] not in names:
            return _err(file, key, f"unknown {what} {p[1] if len(p) > 1 else ''!r}", names)
        if p[0] == "characters" and len(p) >= 3 and p[2] in ("advantage", "drawback"):
            return _err(file, key, "unknown key", [f"characters.{p[1]}.{p[2]}.{f}"
                                                   for f in ("kind", "amount", "text")])
        return _err(file, key, "unknown key", [f"{p[0]}.{p[1]}.{f}" for f in fields])
    if p[0] == "rubble":
        if len(p) >= 2 and p[1] == _BASIC:
            if len(p) < 3 or p[2] not in rs.basic_weapon_names:
                return _err(file, key, "unknown basic weapon", rs.basic_weapon_names)
            return _err(file, key, "unknown key", [f"rubble.{_BASIC}.{p[2]}.{f}" for f in BASIC_FIELDS])
        deck = [n for n in rs.card_names if n not in rs.basic_weapon_names]
        if len(p) < 2 or p[1] not in deck:
            if len(p) >= 2 and p[1] in rs.basic_weapon_names:
                return _err(file, key, f"{p[1]!r} is a basic weapon: use rubble.{_BASIC}.{p[1]}.<field>")
            return _err(file, key, f"unknown card {p[1] if len(p) > 1 else ''!r}", deck)
        return _err(file, key, "unknown key", [f"rubble.{p[1]}.{f}" for f in CARD_FIELDS])
    if p[0] == "dice":
        return _err(file, key, "unknown key", [f"dice.{d}.{f}" for d in DIE_FIELDS for f in DIE_FIELDS[d]])
    allowed = [k for k in rs._flat.values if k.split(".")[0] == p[0]]
    return _err(file, key, "unknown key", allowed)


# =========================================================================== loading
def default_ruleset_dir() -> Path:
    """The reference ruleset shipped with simlib (package simlib._data, or <repo>/data)."""
    try:
        from importlib.resources import files

        import simlib._data  # noqa: F401  (installed wheel / editable install)

        cand = Path(str(files("simlib._data") / "until_daylight"))
        if (cand / "constants.toml").is_file():
            return cand
    except (ImportError, TypeError, NotImplementedError):
        pass
    cand = Path(__file__).resolve().parents[3] / "data" / "until_daylight"
    if (cand / "constants.toml").is_file():
        return cand
    raise RulesetError("cannot find the default Until Daylight ruleset (package simlib._data "
                       f"or {cand})")


def _load_dir(path: Path) -> Ruleset:
    flat = _Flat()
    for sec in FILES:
        fpath = path / f"{sec}.toml"
        if not fpath.is_file():
            raise RulesetError(f"{fpath}: missing ruleset file; a ruleset directory holds "
                               + ", ".join(f"{s}.toml" for s in FILES))
        label = str(fpath)
        flat.files[sec] = label
        _FLATTENERS[sec](flat, label, read_toml(fpath))
    return Ruleset._build(flat, str(path))


def _walk_override(file: str, base: Ruleset, node: Mapping, prefix: str, out: dict) -> None:
    for k, x in node.items():
        key = _normalize_key(f"{prefix}.{k}" if prefix else k)
        field = _field_for_key(key)
        if field is not None:
            if isinstance(x, Mapping) and "value" in x and "source" not in x:
                raise _err(file, key, "missing source tag (or give a bare value)", SOURCES)
            if isinstance(x, Mapping) and "source" in x and x["source"] not in SOURCES:
                raise _err(file, key, f"unknown source tag {x['source']!r}", SOURCES)
            out[key] = x
        elif isinstance(x, Mapping) and not ("value" in x or "source" in x):
            _walk_override(file, base, x, key, out)
        else:
            try:
                base._known(key)
            except RulesetError as exc:
                raise RulesetError(str(exc).replace("override:", f"{file}:", 1)) from None
            out[key] = x  # pragma: no cover - every known key has a field


def _load_override_file(path: Path, base: Ruleset) -> Ruleset:
    doc = read_toml(path)
    stem = path.stem
    prefix = stem if stem in FILES else ""
    if stem == "constants":
        doc = dict(doc)
        variants = doc.pop("variants", None)
        doc = {"constants": doc}
        if variants is not None:
            doc["variants"] = variants
        prefix = ""
    out: dict = {}
    _walk_override(str(path), base, doc, prefix, out)
    try:
        return base._override(out, str(path))
    except RulesetError as exc:
        msg = str(exc)
        if msg.startswith("override:"):
            msg = f"{path}:" + msg[len("override:"):]
        raise RulesetError(msg) from None


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


def load_ruleset(path: str | Path | None = None) -> Ruleset:
    """Load a ruleset.

    * ``None``: the reference ruleset shipped with simlib;
    * a directory: a full ruleset (the six files, every value with a source tag);
    * ``"reference"``: the same; ``"calibrated"``: the calibrated preset
      (``presets/calibrated.toml`` over the reference; a file or folder of that name in
      the working directory takes precedence);
    * a ``.toml`` file: the reference ruleset with that file's values overriding.  A file
      named like a ruleset file (``horde.toml``...) uses that file's layout; any other
      file uses top-level tables named after the files (``[horde.monster]``,
      ``[variants]``, ``[characters.pillar]``...).  Values are bare (source
      ``"override"``) or ``{ value, source }``.
    """
    global _DEFAULT
    if path is None:
        if _DEFAULT is None:
            _DEFAULT = _load_dir(default_ruleset_dir())
        return _DEFAULT
    if isinstance(path, str) and path in PRESETS and not Path(path).exists():
        if path == "reference":
            return load_ruleset()
        if path not in _PRESET_CACHE:
            _PRESET_CACHE[path] = _load_override_file(preset_path(path), load_ruleset())
        return _PRESET_CACHE[path]
    path = Path(path)
    if path.is_dir():
        return _load_dir(path)
    if path.is_file():
        return _load_override_file(path, load_ruleset())
    raise RulesetError(f"{path}: no such ruleset directory or .toml file (or a preset name: "
                       f"{', '.join(PRESETS)})")


def iter_sources(rs: Ruleset) -> Iterator[tuple[str, str]]:
    """(dotted key, source) pairs of every value."""
    for key in rs.keys():
        yield key, rs.source(key)
