"""Day Night Z's ruleset: the reference data (counts, tags, the spec's numbers that are
data) and the loader's errors (each names the file, the dotted key and what is allowed)."""
from __future__ import annotations

import shutil

import pytest

from simlib.games.day_night_z import codes as K
from simlib.games.day_night_z.ruleset import (DayNightZRules, RulesetError, default_ruleset_dir,
                                              load_ruleset)

RS = load_ruleset()


def test_every_value_is_tagged():
    d = RS.describe()
    assert len(d) > 400
    assert set(d.source) <= set(DayNightZRules.SOURCES)
    assert {"rulebook", "inferred", "publisher", "assumed"} <= set(d.source)


def test_deck_sizes():
    def total(stem):
        return sum(RS.get(f"{stem}.{n}.count") for n in RS.names(stem))
    assert total("search") == 75        # §1
    assert total("spawn") == 20         # §1
    assert total("surprises") == 5      # §1
    assert RS.get("threat.cards") == 50  # §1
    assert total("encounters") == 20 and total("exploration") == 20
    minis = {e: RS.get(f"enemies.{e}.miniatures") for e in K.ENEMIES}
    assert minis == {"walker": 17, "howler": 4, "crawler": 4, "leader": 3, "bulker": 2, "hunter": 1}


def test_spawn_means_case9():
    assert [RS.spawn_mean(c) for c in K.LEVELS] == pytest.approx([1.3, 1.95, 3.0], abs=1e-12)
    # the card of §3.12's example
    assert RS.get("spawn.howler_pack.yellow") == {**{e: 0 for e in K.ENEMIES}, "walker": 1, "howler": 1}


def test_die_rates():
    from fractions import Fraction
    n = len(RS.face_names)
    rates = {lvl: Fraction(int(RS.success_faces("check", lvl).sum()), n) for lvl in K.LEVELS}
    assert rates == {"green": Fraction(1, 2), "yellow": Fraction(1, 3), "red": Fraction(1, 6)}
    f = RS.faces()
    assert Fraction(int(f[:, K.F_SKULL].sum()), n) == Fraction(1, 2)
    assert Fraction(int(f[:, K.F_INFECTION].sum()), n) == Fraction(1, 6)
    assert Fraction(int(f[:, K.F_NOISE].sum()), n) == Fraction(1, 3)


def test_tracks():
    assert [RS.action_points(h) for h in (9, 7, 6, 5, 4, 3, 1, 0)] == [3, 3, 2, 2, 2, 1, 1, 0]
    assert [RS.stress_level(s) for s in (0, 2, 3, 5, 6, 7, 8)] == \
        ["green", "green", "yellow", "yellow", "red", "red", "red"]
    # §3.2: 5 Walkers (5 SP) -> +2; 13 SP -> +3
    assert RS.leave_threat_rise(5 * RS.enemy("walker")["sp"]) == 2
    assert RS.leave_threat_rise(13) == 3
    assert [RS.leave_threat_rise(s) for s in (0, 1, 4, 9, 10, 14, 15, 40)] == [0, 1, 1, 2, 3, 3, 4, 4]


def test_survivors_and_weapons():
    assert RS.attribute("swift", "ranged", night=True) == 3       # §4.12 example
    assert RS.attribute("lebeu", "defense", night=True) == 1      # §4.12 example
    for s in RS.survivor_names:
        for a in ("hth", "ranged", "agility", "perception"):
            assert RS.attribute(s, a, True) == max(0, RS.attribute(s, a) - 1)
    assert RS.weapon_damage("axe", 2) == 2 and RS.weapon_damage("axe", 4) == 3
    assert RS.weapon_damage("knife", 3) == 1 and RS.weapon_damage("knife", 5) == 2
    assert RS.get("weapons.colt.attacks_per_ap") == 2 and RS.get("weapons.colt.star_trait") == "pierce"


def test_override_and_short_keys():
    r = RS.override({"map.tile_capacity": 8, "variants.unlimited_miniatures": True})
    assert r.get("map.tile_capacity") == 8 and r.source("map.tile_capacity") == "override"
    assert r.get("constants.map.tile_capacity") == 8
    assert RS.get("map.tile_capacity") == 16 and r.fingerprint() != RS.fingerprint()


@pytest.mark.parametrize("key,value,match", [
    ("colours.check.yellow", ["gold", "blue"], r"override: colours.check.yellow: unknown colour 'blue'; "
                                               r"allowed: green, gold, red"),
    ("survivors.swift.weapon", "spear", r"survivors.swift.weapon: unknown weapon 'spear'; allowed: fists"),
    ("threat.side_a.fury", 9, r"threat.side_a.normal: .*= 51; each column of the threat deck counts its 50"),
    ("city.exit_c", [5, 0], r"city.exit_c: cell \[5, 0\] is off the 3 x 4 grid"),
    ("city.exit_b", [0, 0], r"city.exit_b: cell \[0, 0\] is already city.exit_a"),
    ("threat_track.locked_yellow", [3, 3], r"locked_yellow: expected distinct increasing units"),
    ("survivor.health_red_at", 7, r"health_yellow_at: need health_red_at < health_yellow_at"),
    ("scenario.team", ["swift", "bob"], r"scenario.team: unknown survivor 'bob'; allowed: swift"),
    ("search.axe.weapon", "", r"search.axe.weapon: a weapon card needs a weapon"),
    ("combat.star_trait_rule", "no", r"combat.star_trait_rule: unknown value 'no'; allowed: any_star, stress_star"),
    ("dice.f1.star", "blue", r"dice.f1.star: unknown value 'blue'; allowed: none, green, gold, red"),
    ("enemies.walker.day.evasion", 1, r"enemies.walker.day.evasion: value 1 out of range; must be <= 0"),
    ("nothing.here", 1, r"unknown key"),
])
def test_errors_name_file_key_and_allowed(key, value, match):
    with pytest.raises(RulesetError, match=match):
        RS.override({key: value})


def test_folder_errors(tmp_path):
    src = default_ruleset_dir()
    dst = tmp_path / "rules"
    shutil.copytree(src, dst)
    (dst / "enemies.toml").write_text((dst / "enemies.toml").read_text().replace("[walker]", "[zombie]")
                                      .replace("[walker.", "[zombie."))
    with pytest.raises(RulesetError, match=r"enemies.toml: enemies.zombie: unknown enemy 'zombie'; "
                                           r"allowed: walker, howler"):
        load_ruleset(dst)
    shutil.copy(src / "enemies.toml", dst / "enemies.toml")
    text = (dst / "constants.toml").read_text()
    (dst / "constants.toml").write_text(text.replace('sp_cap = { value = 15, source = "rulebook" }',
                                                     'sp_cap = { value = 15, source = "folklore" }'))
    with pytest.raises(RulesetError, match=r"constants.toml: survivor.sp_cap: unknown source tag 'folklore'; "
                                           r"allowed: rulebook, inferred, publisher, assumed"):
        load_ruleset(dst)
    (dst / "constants.toml").write_text(text.replace('sp_cap = { value = 15, source = "rulebook" }', "sp_cap = 15"))
    with pytest.raises(RulesetError, match=r"survivor.sp_cap: missing source tag"):
        load_ruleset(dst)
    (dst / "constants.toml").write_text(text)
    (dst / "city.toml").write_text((dst / "city.toml").read_text().replace("[[0, 2], [1, 1]]", "[[0, 2], [1]]"))
    with pytest.raises(RulesetError, match=r"city.toml: city.alleys\[1\]: expected a cell"):
        load_ruleset(dst)


def test_override_file(tmp_path):
    f = tmp_path / "more_sp.toml"
    f.write_text('[survivor]\nmax_sp_per_roll = { value = 3, source = "assumed" }\n'
                 '[enemies.walker.night]\nhealth = 3\n')
    r = load_ruleset(f)
    assert r.get("survivor.max_sp_per_roll") == 3 and r.get("enemies.walker.night.health") == 3
    assert r.source("enemies.walker.night.health") == "override"


def test_registered_as_a_game_with_this_ruleset():
    from simlib.core.games import get_game
    info = get_game("day-night-z")
    assert info.name == "day_night_z" and info.load_ruleset(None).fingerprint() == load_ruleset().fingerprint()


def test_load_ruleset_names_presets_as_every_game_does(tmp_path):
    """``load_ruleset`` reads a preset name, a tweak file and ``base+tweak`` as the other
    games' do (it once read paths only: ``load_ruleset("tiles")`` failed while the command
    line's ``--rules tiles`` worked)."""
    from simlib.core.games import get_game
    from simlib.games.day_night_z.ruleset import load_rules, load_ruleset, reference_ruleset

    info = get_game("day-night-z")
    for name in ("reference", "tiles", "traps"):
        r = load_ruleset(name)
        assert r.lineage == name
        assert r.fingerprint() == info.resolve_ruleset(name).fingerprint()
    assert load_ruleset() is reference_ruleset() and load_rules is load_ruleset
    tweak = tmp_path / "t.toml"
    tweak.write_text("[survivor]\nsp_start = 4\n")
    assert load_ruleset(str(tweak)).get("survivor.sp_start") == 4
    both = load_ruleset(f"tiles+{tweak}")
    assert both.get("survivor.sp_start") == 4
    assert both.get("locations.garage.terrain") == load_ruleset("tiles").get("locations.garage.terrain")
