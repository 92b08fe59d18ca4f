"""Tests of the Until Daylight ruleset loader, validation, overrides and packing."""
from __future__ import annotations

import pickle
import re
import shutil
from pathlib import Path

import numpy as np
import pytest

from simlib.games.until_daylight import codes as K
from simlib.games.until_daylight.ruleset import (
    SOURCES,
    PackedRules,
    Ruleset,
    RulesetError,
    default_ruleset_dir,
    load_ruleset,
)

FILES = ("constants", "dice", "characters", "horde", "rubble", "recipes")


@pytest.fixture(scope="module")
def rs() -> Ruleset:
    return load_ruleset("reference")


@pytest.fixture
def rdir(tmp_path: Path) -> Path:
    """A writable copy of the default ruleset directory."""
    dst = tmp_path / "rules"
    dst.mkdir()
    for f in FILES:
        shutil.copy(default_ruleset_dir() / f"{f}.toml", dst / f"{f}.toml")
    return dst


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text()
    assert old in text, f"test setup: {old!r} not in {path.name}"
    path.write_text(text.replace(old, new, count))


def load_error(path: Path) -> str:
    with pytest.raises(RulesetError) as info:
        load_ruleset(path)
    return str(info.value)


# =========================================================================== default ruleset
def test_default_loads_and_packs_with_contract_shapes(rs):
    p = rs.pack()
    assert isinstance(p, PackedRules)
    n_params = max(getattr(K, "N_PARAMS_FULL", K.N_PARAMS), K.N_PARAMS)
    assert p.params.shape == (n_params,)
    assert p.card_tab.shape == (len(rs.card_names), K.N_CARD_COLS)
    assert p.enemy_tab.shape == (5, K.N_ENEMY_COLS)
    assert p.char_tab.shape == (6, K.N_CHAR_COLS)
    assert p.die_faces.shape == (6,)
    assert p.fate_faces.shape == (6,)
    assert p.recipes.shape == (2, K.N_RECIPE_COLS)
    for name, arr in p._asdict().items():
        assert arr.dtype == np.int64, name
        assert arr.flags.c_contiguous, name
        assert not arr.flags.writeable, name
    assert rs.pack() is p  # cached


def test_default_counts_add_up(rs):
    p = rs.pack()
    assert p.enemy_tab[:, K.E_COUNT].sum() == 95
    assert p.params[K.P_HORDE_TOTAL] == 95
    assert p.card_tab[:, K.C_COUNT].sum() == 185
    assert p.params[K.P_RUBBLE_TOTAL] == 185 + 6
    assert p.params[K.P_N_CARD_TYPES] == len(rs.card_names) == 35
    assert p.params[K.P_N_ENEMY_TYPES] == 5
    assert p.params[K.P_N_CHARS] == 6
    assert rs.enemy_names == ("wanderer", "raider", "brute", "monster", "survivor")
    assert rs.character_names == ("pillar", "hipster", "trigger", "haggler", "drifter", "psycho")


def test_every_value_has_one_of_four_sources(rs):
    keys = rs.keys()
    assert len(keys) > 150
    assert {rs.source(k) for k in keys} <= set(SOURCES)
    df = rs.describe()
    assert list(df.columns[:4]) == ["key", "file", "value", "source"]
    assert len(df) == len(keys)
    # the four raw tags are all used; "calibrated" only appears in presets/calibrated.toml
    assert set(df["source"]) == set(SOURCES) - {"calibrated"}


@pytest.mark.parametrize("key, source", [
    ("dice.combat.faces", "fit"),
    ("characters.psycho.advantage.kind", "rulebook"),
    ("characters.psycho.advantage.amount", "rulebook"),
    ("characters.hipster.drawback.kind", "dized"),
    ("horde.wanderer.count", "assumed"),
    ("horde.monster.kill_heads", "rulebook"),
    ("constants.rounds", "rulebook"),
    ("constants.stalemate_cap", "assumed"),
    ("variants.survivors_block_attacks", "assumed"),
    ("recipes.trap.ingredients", "assumed"),
])
def test_source_tags_match_spec(rs, key, source):
    assert rs.source(key) == source


def test_spot_values(rs):
    assert rs.get("dice.combat.faces") == {"H": 1, "B": 3, "X": 2}
    assert rs.get("characters.haggler.slots") == 14
    assert rs.get("constants.variants.horde_reshuffle") is True  # alias of variants.*
    assert rs.get("rubble.pistol.weapon_bonus") == 0  # omitted optional field: default
    assert rs.get("recipes.barricade.ingredients") == ("planks", "nails")
    assert "adjacent" in rs.text("characters.pillar.advantage")


# =========================================================================== packing columns
def test_packing_enemy_columns(rs):
    e = rs.pack().enemy_tab
    m, b, w = rs.enemy_id("monster"), rs.enemy_id("brute"), rs.enemy_id("wanderer")
    assert e[m, K.E_KILL_HEADS] == 2 and e[m, K.E_KILL_BODIES] == 0
    assert e[m, K.E_ATTACK_DICE] == 3 and e[m, K.E_REWARD_CARDS] == 2
    assert e[m, K.E_REWARD_XP] == 1 and e[m, K.E_KEPT] == 1
    assert e[b, K.E_KILL_BODIES] == 0 and e[b, K.E_REWARD_CARDS] == 1
    assert e[w, K.E_KILL_BODIES] == 2 and e[w, K.E_KIND] == K.ENEMY_INFECTED
    assert e[rs.enemy_id("raider"), K.E_KIND] == K.ENEMY_RAIDER
    assert e[rs.enemy_id("survivor"), K.E_KIND] == K.ENEMY_SURVIVOR
    assert e[rs.enemy_id("survivor"), K.E_ATTACK_DICE] == 0


def test_packing_character_columns(rs):
    c = rs.pack().char_tab
    ps, pi, hi = rs.character_id("psycho"), rs.character_id("pillar"), rs.character_id("hipster")
    assert c[ps, K.CH_ADV_KIND] == K.MOD_MELEE_DICE and c[ps, K.CH_ADV_AMOUNT] == 1
    assert c[ps, K.CH_DRAW_KIND] == K.MOD_NO_GIVE
    assert c[pi, K.CH_HEALTH] == 7 and c[pi, K.CH_SLOTS] == 10
    assert c[pi, K.CH_DRAW_KIND] == K.MOD_DISTANCE_DICE and c[pi, K.CH_DRAW_AMOUNT] == -1
    assert c[hi, K.CH_DRAW_KIND] == K.MOD_NO_FIREARMS
    assert c[rs.character_id("haggler"), K.CH_DRAW_KIND] == K.MOD_NONE
    assert c[pi, K.CH_WEAPON] == rs.card_id("crowbar")


def test_packing_card_columns(rs):
    t = rs.pack().card_tab
    bow, rifle = rs.card_id("bow"), rs.card_id("rifle")
    assert t[bow, K.C_AMMO] == rs.card_id("arrows") and t[bow, K.C_SILENT] == 1
    assert t[bow, K.C_MELEE] == 0 and t[bow, K.C_COUNT] == 0
    assert t[bow, K.C_BASIC_OF] == rs.character_id("hipster")
    assert t[rifle, K.C_AMMO] == rs.card_id("gun_ammo") and t[rifle, K.C_WEAPON_BONUS] == 1
    assert t[rifle, K.C_FIREARM] == 1 and t[rifle, K.C_BASIC_OF] == -1
    assert t[rs.card_id("chainsaw"), K.C_DICE] == 4 and t[rs.card_id("chainsaw"), K.C_MELEE] == 1
    assert t[rs.card_id("shotgun_shells"), K.C_DICE] == 2
    assert t[rs.card_id("shotgun_shells"), K.C_STACKS] == 1
    assert t[rs.card_id("medkit"), K.C_AMOUNT] == 2 and t[rs.card_id("medkit"), K.C_NEEDS_ACTION] == 1
    assert t[rs.card_id("bandage"), K.C_NEEDS_ACTION] == 0
    assert t[rs.card_id("bloodlust"), K.C_KIND] == K.CK_DICE_BONUS
    assert t[rs.card_id("bloodlust"), K.C_MELEE] == 1
    assert t[rs.card_id("noise"), K.C_KIND] == K.CK_EVENT_NOISE
    assert t[rs.card_id("machete"), K.C_AMMO] == -1
    # each basic weapon belongs to the character that names it
    for ch in rs.character_names:
        w = rs.card_id(rs.get(f"characters.{ch}.basic_weapon"))
        assert t[w, K.C_BASIC_OF] == rs.character_id(ch)


def test_packing_params_dice_recipes(rs):
    p = rs.pack()
    assert p.params[K.P_ROUNDS] == 10 and p.params[K.P_DICE_CAP] == 6
    assert p.params[K.P_BARRICADE_SUPPLY] == 12 and p.params[K.P_TRAP_SUPPLY] == 6
    assert p.params[K.P_MAX_PLAYERS] == 6 and p.params[K.P_MIN_PLAYERS] == 3
    assert p.params[K.P_TIMER_PER_PLAYER] == 2 and p.params[K.P_TIMER_SPREAD] == 2
    assert p.params[K.P_V_HORDE_RESHUFFLE] == 1 and p.params[K.P_V_SURVIVORS_BLOCK] == 0
    if hasattr(K, "P_BODIES_PER_DAMAGE"):
        assert p.params[K.P_BODIES_PER_DAMAGE] == 2
    assert sorted(p.die_faces.tolist()) == sorted([K.FACE_H] + [K.FACE_B] * 3 + [K.FACE_X] * 2)
    assert sorted(p.fate_faces.tolist()) == list(range(6))
    trap = p.recipes[list(p.recipes[:, K.R_PRODUCT]).index(K.TOKEN_TRAP)]
    assert trap[K.R_N] == 2
    assert set(trap[K.R_ING0:K.R_ING0 + 2]) == {rs.card_id("wire"), rs.card_id("blade")}
    assert (trap[K.R_ING0 + 2:] == -1).all()


def test_ids_and_unknown_names(rs):
    assert rs.card_names[rs.card_id("axe")] == "axe"
    with pytest.raises(RulesetError, match="unknown enemy 'zombie'.*wanderer"):
        rs.enemy_id("zombie")


# =========================================================================== overrides
def test_override_returns_new_ruleset(rs):
    fp = rs.fingerprint()
    new = rs.override({
        "characters.pillar.health": 8,
        "horde.monster.count": 10,
        "dice.combat.faces": {"H": 2, "B": 2, "X": 2},
        "variants.survivors_block_attacks": True,
    })
    assert new is not rs
    assert rs.fingerprint() == fp and rs.get("characters.pillar.health") == 7
    assert new.fingerprint() != fp
    assert new.get("characters.pillar.health") == 8
    assert new.source("characters.pillar.health") == "override"
    assert new.source("horde.wanderer.count") == "assumed"
    assert new.pack().enemy_tab[new.enemy_id("monster"), K.E_COUNT] == 10
    assert new.pack().params[K.P_HORDE_TOTAL] == 97
    assert new.pack().params[K.P_V_SURVIVORS_BLOCK] == 1
    assert (new.pack().die_faces == K.FACE_H).sum() == 2
    assert rs.pack().params[K.P_HORDE_TOTAL] == 95


def test_override_with_tag_optional_field_and_immutability(rs):
    new = rs.override({"rubble.pistol.weapon_bonus": {"value": 1, "source": "dized"}})
    assert new.source("rubble.pistol.weapon_bonus") == "dized"
    assert new.pack().card_tab[new.card_id("pistol"), K.C_WEAPON_BONUS] == 1
    with pytest.raises(AttributeError):
        rs.foo = 1
    d = rs.to_dict()
    d["horde"]["monster"]["count"] = 99
    assert rs.get("horde.monster.count") == 8
    with pytest.raises(ValueError):
        rs.pack().params[0] = 5


@pytest.mark.parametrize("key, value, pattern", [
    ("characters.pilar.health", 8, r"override: characters\.pilar\.health: unknown character .*pillar"),
    ("horde.monster.colour", 1, r"override: horde\.monster\.colour: unknown key.*horde\.monster\.count"),
    ("bogus.x", 1, r"unknown key.*constants.*variants"),
    ("variants.nope", True, r"variants\.nope: unknown key.*variants\.trap_rewards"),
    ("characters.pillar.health", "eight", r"characters\.pillar\.health: expected an integer"),
    ("horde.monster.count", -1, r"horde\.monster\.count: negative count"),
    ("variants.trap_rewards", 1, r"expected true or false"),
    ("dice.combat.faces", {"H": 1, "B": 3, "X": 3}, r"add up to 7, not to the die's size 6"),
    ("characters.pillar.basic_weapon", "canned_food", r"not a weapon.*crowbar"),
    ("constants.max_players", 7, r"constants\.max_players: 7 exceeds"),
])
def test_override_errors(rs, key, value, pattern):
    with pytest.raises(RulesetError, match=pattern):
        rs.override({key: value})
    assert rs.get("characters.pillar.health") == 7


def test_single_file_override_named_like_a_ruleset_file(rs, tmp_path):
    f = tmp_path / "horde.toml"
    f.write_text('[monster]\ncount = 10\n[brute]\ncount = { value = 14, source = "dized" }\n')
    new = load_ruleset(f)
    assert new.get("horde.monster.count") == 10 and new.source("horde.monster.count") == "override"
    assert new.source("horde.brute.count") == "dized"
    assert new.get("horde.wanderer.count") == 45
    assert new.fingerprint() != rs.fingerprint()


def test_single_file_override_generic_layout(tmp_path):
    f = tmp_path / "tweaks.toml"
    f.write_text('[characters.pillar]\nhealth = 8\n[variants]\ntrap_rewards = false\n'
                 '[constants]\nrounds = 12\n[constants.search_timer]\nspread = 3\n'
                 '[dice.combat]\nfaces = { H = 2, B = 2, X = 2 }\n')
    new = load_ruleset(f)
    assert new.get("characters.pillar.health") == 8
    assert new.get("variants.trap_rewards") is False
    assert new.pack().params[K.P_ROUNDS] == 12
    assert new.pack().params[K.P_TIMER_SPREAD] == 3
    assert new.get("dice.combat.faces") == {"H": 2, "B": 2, "X": 2}


def test_single_file_override_errors(tmp_path):
    f = tmp_path / "constants.toml"
    f.write_text("roundz = 3\n")
    msg = load_error(f)
    assert "constants.toml" in msg and "constants.roundz" in msg and "constants.rounds" in msg
    f2 = tmp_path / "tweaks.toml"
    f2.write_text("[horde.monster]\ncount = -2\n")
    msg = load_error(f2)
    assert "tweaks.toml" in msg and "horde.monster.count" in msg and "negative" in msg


def test_round_trip_to_toml_dir_and_pickle(rs, tmp_path):
    new = rs.override({"characters.pillar.health": 8})
    out = new.to_toml_dir(tmp_path / "out")
    again = load_ruleset(out)
    assert again.fingerprint() == new.fingerprint()
    assert again.get("characters.pillar.health") == 8
    assert again.source("characters.pillar.health") == "assumed"  # files hold the four tags only
    assert again.source("characters.psycho.advantage.kind") == "rulebook"
    assert "set by override" in (out / "characters.toml").read_text()
    assert again.text("characters.pillar.advantage") == rs.text("characters.pillar.advantage")
    assert pickle.loads(pickle.dumps(new)).fingerprint() == new.fingerprint()


def test_default_dir_loads_like_default(rs):
    assert load_ruleset(default_ruleset_dir()).fingerprint() == rs.fingerprint()


# =========================================================================== bad files
def _msg_has(msg: str, *parts: str) -> None:
    for part in parts:
        assert part in msg, f"{part!r} not in message: {msg}"


def test_malformed_toml_names_file_and_line(rdir):
    edit(rdir / "horde.toml", "count = { value = 45", "count = { value = 45 45")
    msg = load_error(rdir)
    _msg_has(msg, "horde.toml", "malformed TOML")
    assert re.search(r"line \d+", msg)


def test_unknown_key_lists_allowed(rdir):
    edit(rdir / "horde.toml", "[brute]\n", "[brute]\nspeed = { value = 3, source = \"assumed\" }\n")
    _msg_has(load_error(rdir), "horde.toml", "horde.brute.speed", "unknown key", "kill_heads", "kept")


def test_unknown_enemy_kind(rdir):
    edit(rdir / "horde.toml", 'kind = { value = "raider"', 'kind = { value = "bandit"')
    _msg_has(load_error(rdir), "horde.toml", "horde.raider.kind", "'bandit'", "raider, infected, survivor")


def test_unknown_card_kind(rdir):
    edit(rdir / "rubble.toml", 'kind = { value = "protection"', 'kind = { value = "armour"')
    _msg_has(load_error(rdir), "rubble.toml", "rubble.helmet.kind", "'armour'", "protection")


def test_unknown_mod_name(rdir):
    edit(rdir / "characters.toml", '"absorb_adjacent"', '"absorb"')
    _msg_has(load_error(rdir), "characters.toml", "characters.pillar.advantage.kind", "'absorb'",
             "absorb_adjacent", "free_trades")


def test_unknown_face_name(rdir):
    edit(rdir / "dice.toml", "{ H = 1, B = 3, X = 2 }", "{ H = 1, B = 3, Q = 2 }")
    _msg_has(load_error(rdir), "dice.toml", "dice.combat.faces", "'Q'", "X, B, H")


def test_unknown_fate_face_name(rdir):
    edit(rdir / "dice.toml", "heal = 1", "hug = 1")
    _msg_has(load_error(rdir), "dice.toml", "dice.fate.faces", "'hug'", "remove_enemy")


def test_faces_not_adding_up(rdir):
    edit(rdir / "dice.toml", "{ H = 1, B = 3, X = 2 }", "{ H = 1, B = 3, X = 1 }")
    _msg_has(load_error(rdir), "dice.toml", "dice.combat.faces", "add up to 5", "size 6")


def test_negative_count(rdir):
    edit(rdir / "rubble.toml", "count = { value = 30,", "count = { value = -30,")
    _msg_has(load_error(rdir), "rubble.toml", "rubble.gun_ammo.count", "negative count", ">= 0")


def test_wrong_type(rdir):
    edit(rdir / "characters.toml", "health = { value = 7,", 'health = { value = "seven",')
    _msg_has(load_error(rdir), "characters.toml", "characters.pillar.health", "expected an integer")


def test_wrong_type_bool(rdir):
    edit(rdir / "constants.toml", "horde_reshuffle = { value = true", "horde_reshuffle = { value = 1")
    _msg_has(load_error(rdir), "constants.toml", "variants.horde_reshuffle", "true or false")


def test_recipe_missing_card(rdir):
    edit(rdir / "recipes.toml", '["wire", "blade"]', '["wire", "razor"]')
    _msg_has(load_error(rdir), "recipes.toml", "recipes.trap.ingredients", "'razor'", "wire", "nails")


def test_recipe_unknown_token(rdir):
    edit(rdir / "recipes.toml", "[barricade]", "[wall]")
    _msg_has(load_error(rdir), "recipes.toml", "recipes.wall", "trap, barricade")


def test_character_without_basic_weapon(rdir):
    edit(rdir / "characters.toml", 'basic_weapon = { value = "knife", source = "assumed" }\n', "")
    _msg_has(load_error(rdir), "characters.toml", "characters.haggler.basic_weapon", "missing")


def test_character_weapon_not_a_weapon(rdir):
    edit(rdir / "characters.toml", 'value = "knife"', 'value = "medkit"')
    _msg_has(load_error(rdir), "characters.toml", "characters.haggler.basic_weapon",
             "not a weapon", "knife")


def test_character_weapon_unknown_card(rdir):
    edit(rdir / "characters.toml", 'value = "knife"', 'value = "spoon"')
    _msg_has(load_error(rdir), "characters.toml", "characters.haggler.basic_weapon",
             "unknown card 'spoon'", "crowbar")


def test_distance_weapon_ammo_not_ammo(rdir):
    edit(rdir / "rubble.toml", 'value = "shotgun_shells"', 'value = "nails"')
    _msg_has(load_error(rdir), "rubble.toml", "rubble.shotgun.ammo", "'nails' is not an ammo card",
             "gun_ammo, shotgun_shells, arrows")


def test_distance_weapon_without_ammo(rdir):
    edit(rdir / "rubble.toml", 'ammo = { value = "arrows", source = "assumed" }\n', "")
    _msg_has(load_error(rdir), "rubble.toml", "rubble.basic_weapons.bow.ammo", "needs an ammo card")


def test_missing_source_tag(rdir):
    edit(rdir / "horde.toml", 'count = { value = 12, source = "assumed" }', "count = 12")
    _msg_has(load_error(rdir), "horde.toml", "horde.brute.count", "missing source tag",
             "rulebook, dized, fit, assumed")


def test_missing_source_key(rdir):
    edit(rdir / "horde.toml", 'count = { value = 12, source = "assumed" }', "count = { value = 12 }")
    _msg_has(load_error(rdir), "horde.toml", "horde.brute.count", "missing source tag")


def test_bad_source_tag(rdir):
    edit(rdir / "horde.toml", 'count = { value = 12, source = "assumed" }',
         'count = { value = 12, source = "guess" }')
    _msg_has(load_error(rdir), "horde.toml", "horde.brute.count", "'guess'",
             "rulebook, dized, fit, assumed")


def test_max_players_above_capacity(rdir):
    edit(rdir / "constants.toml", "max_players = { value = 6,", "max_players = { value = 8,")
    _msg_has(load_error(rdir), "constants.toml", "constants.max_players", "exceeds", str(K.MAX_PLAYERS))


def test_min_players_above_max(rdir):
    edit(rdir / "constants.toml", "min_players = { value = 3,", "min_players = { value = 5,")
    edit(rdir / "constants.toml", "max_players = { value = 6,", "max_players = { value = 4,")
    _msg_has(load_error(rdir), "constants.toml", "constants.min_players", "> max_players")


def test_empty_horde(rdir):
    text = (rdir / "horde.toml").read_text()
    (rdir / "horde.toml").write_text(re.sub(r"count = \{ value = \d+", "count = { value = 0", text))
    _msg_has(load_error(rdir), "horde.toml", "horde deck is empty")


def test_missing_file(rdir):
    (rdir / "recipes.toml").unlink()
    _msg_has(load_error(rdir), "recipes.toml", "missing ruleset file")


def test_nothing_half_loaded_after_error(rdir, rs):
    edit(rdir / "horde.toml", "count = { value = 45", "count = { value = -1")
    load_error(rdir)
    assert load_ruleset("reference").fingerprint() == rs.fingerprint()
    with pytest.raises(TypeError):
        Ruleset()


def test_edited_copy_loads_and_changes_fingerprint(rdir, rs):
    edit(rdir / "horde.toml", "count = { value = 45", "count = { value = 40")
    new = load_ruleset(rdir)
    assert new.pack().params[K.P_HORDE_TOTAL] == 90
    assert new.fingerprint() != rs.fingerprint()
    # sources and comments do not change the fingerprint
    edit(rdir / "horde.toml", 'count = { value = 40, source = "assumed" }',
         'count = { value = 40, source = "dized" }  # a comment')
    assert load_ruleset(rdir).fingerprint() == new.fingerprint()


def test_changes_lists_exactly_the_values_that_differ_from_the_reference():
    ref = load_ruleset("reference")
    assert ref.changes() == []
    rs = ref.override({"horde.monster.count": 4,
                       "characters.pillar.health": {"value": 9, "source": "fit"},
                       "constants.rounds": ref.get("constants.rounds")})  # same value: no change
    assert rs.changes() == [  # canonical key order, reference values from the files
        {"key": "characters.pillar.health", "value": 9,
         "reference": ref.get("characters.pillar.health"), "source": "fit"},
        {"key": "horde.monster.count", "value": 4, "reference": ref.get("horde.monster.count"),
         "source": "override"},
    ]
    assert rs.changes()[0]["reference"] != 9 and rs.changes()[1]["reference"] != 4
    assert {c["key"] for c in ref.changes(rs)} == {"characters.pillar.health", "horde.monster.count"}


def test_both_games_raise_the_one_ruleset_error_of_the_core():
    """Until Daylight's ruleset shares the core's error type, value checks, TOML reading and
    writing (simlib.core.ruleset): one ``except RulesetError`` catches either game's."""
    from simlib.core.ruleset import RulesetError as CoreError
    from simlib.games.till_dawn.ruleset import RulesetError as TDError

    assert RulesetError is CoreError is TDError
    with pytest.raises(CoreError, match="constants.rounds"):
        load_ruleset("reference").override({"constants.rounds": 0})


def test_a_key_with_a_control_character_is_named_on_one_line(rdir):
    """A TOML quoted key may hold a newline; the error names it escaped, on one line
    (found by the structural fuzz)."""
    edit(rdir / "constants.toml", "rounds = { value = 10,", 'rounds = { "\\n" = 0, value = 10,')
    msg = load_error(rdir)
    assert "\n" not in msg
    assert msg.endswith("constants.toml: constants.rounds.\\n: unknown key; allowed: value, source"), msg
