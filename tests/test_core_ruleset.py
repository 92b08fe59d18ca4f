"""The game-agnostic ruleset machinery (simlib.core.ruleset) on a tiny made-up game:
fixed tables with top-level keys, entity lists with nested sub-tables and free texts,
a second entity list inside a file (a section), restricted entity names, a game value
type through the check hook, a fingerprint hook, overrides, override files, writing and
pickling."""
from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from simlib.core.ruleset import (
    TEXT,
    Entities,
    Field,
    FileSchema,
    RulesetError,
    TaggedRuleset,
    check_value,
    error,
    load_tagged,
)

SCHEMAS = (
    FileSchema("setup", fields={"rounds": Field("int", 1, 9)},
               tables={"timer": {"start": Field("int", 0)}, "variants": {"fast": Field("bool")}},
               top_level=("variants",)),
    FileSchema("heroes", entities=Entities(
        {"health": Field("int", 1), "colour": Field("colour")},
        tables={"power": {"kind": Field("choice", choices=("none", "heal")), "text": TEXT}},
        what="hero")),
    FileSchema("items", entities=Entities({"count": Field("int", 0),
                                           "weight": Field("int", 0, required=False, default=1)},
                                          what="item"),
               sections={"starting": Entities({"weight": Field("int", 0)}, what="starting item",
                                               nonempty=False)}),
    FileSchema("spells", entities=Entities({"cost": Field("int", 0)}, allowed=("fire", "ice"),
                                           allowed_what="element")),
)

FILES = {
    "setup": """rounds = { value = 3, source = "rulebook" }
[timer]
start = { value = 2, source = "assumed" }
[variants]
fast = { value = false, source = "assumed" }
""",
    "heroes": """[ann]
health = { value = 5, source = "rulebook" }
colour = { value = "red", source = "rulebook" }
[ann.power]
kind = { value = "heal", source = "rulebook" }
text = "heals a friend"
[bob]
health = { value = 4, source = "assumed" }
colour = { value = "blue", source = "assumed" }
[bob.power]
kind = { value = "none", source = "assumed" }
""",
    "items": """[rope]
count = { value = 2, source = "rulebook" }
[lamp]
count = { value = 1, source = "rulebook" }
weight = { value = 3, source = "assumed" }
[starting.stick]
weight = { value = 1, source = "assumed" }
""",
    "spells": """[fire]
cost = { value = 2, source = "rulebook" }
""",
}


class MiniRules(TaggedRuleset):
    SCHEMAS = SCHEMAS
    SOURCES = ("rulebook", "assumed")
    GAME = "Mini"

    @classmethod
    def _check_value(cls, file, key, f, value):
        if f.type == "colour":  # a value type of this game
            if value not in ("red", "blue"):
                raise error(file, key, f"unknown colour {value!r}", ("red", "blue"))
            return value
        return check_value(file, key, f, value)

    def _validate(self):
        if "stick" in self.names("items"):
            raise error(self.file_of("items"), "items.stick", "already a starting item")


class MiniRulesOwnFingerprint(MiniRules):
    def _fingerprint_payload(self):
        return [self.FORMAT_VERSION, [[k, v] for k, v in self._flat.values.items()]]


def write(d: Path, **changes: str) -> Path:
    d.mkdir(parents=True, exist_ok=True)
    for stem, text in FILES.items():
        (d / f"{stem}.toml").write_text(changes.get(stem, text))
    return d


@pytest.fixture
def rules(tmp_path) -> MiniRules:
    return load_tagged(write(tmp_path / "mini"), MiniRules)


def load_error(d: Path) -> str:
    with pytest.raises(RulesetError) as info:
        load_tagged(d, MiniRules)
    return str(info.value)


def test_keys_in_file_order_with_top_level_tables_sub_tables_and_sections(rules):
    assert rules.keys() == [
        "setup.rounds", "setup.timer.start", "variants.fast",
        "heroes.ann.health", "heroes.ann.colour", "heroes.ann.power.kind",
        "heroes.bob.health", "heroes.bob.colour", "heroes.bob.power.kind",
        "items.rope.count", "items.lamp.count", "items.lamp.weight", "items.starting.stick.weight",
        "spells.fire.cost"]
    assert rules.names("heroes") == ("ann", "bob")
    assert rules.names("items") == ("rope", "lamp")  # the section is not an item
    assert rules.names("items.starting") == ("stick",)


def test_get_source_text_and_aliases(rules):
    assert rules.get("variants.fast") is False
    assert rules.get("setup.variants.fast") is False  # <file>.<top-level table>: an alias
    assert rules.source("setup.variants.fast") == "assumed"
    assert rules.get("items.rope.weight") == 1 and rules.source("items.rope.weight") == "assumed"
    assert rules.text("heroes.ann.power") == "heals a friend"
    assert rules.get("heroes.ann.power.text") == "heals a friend"
    assert rules.source("heroes.ann.power.text") == "text"
    assert rules.get("heroes.bob.power.text") == ""  # an omitted text
    df = rules.describe()
    assert list(df.columns) == ["key", "file", "value", "source", "note"]
    assert df.set_index("key").loc["variants.fast", "file"] == "setup.toml"
    assert df.set_index("key").loc["heroes.ann.power.kind", "note"] == "heals a friend"


def test_override_errors_name_what_is_allowed(rules):
    cases = [
        ("heroes.cid.health", "unknown hero 'cid'; allowed: ann, bob"),
        ("heroes.ann.speed", "unknown key; allowed: heroes.ann.health, heroes.ann.colour, heroes.ann.power"),
        ("heroes.ann.power.x", "unknown key; allowed: heroes.ann.power.kind, heroes.ann.power.text"),
        ("items.stick.weight", "'stick' is a starting item: use items.starting.stick.<field>"),
        ("items.starting.rope.weight", "unknown starting item 'rope'; allowed: stick"),
        ("variants.slow", "unknown key; allowed: variants.fast"),
        ("nope.x", "unknown key; allowed: setup, variants, heroes, items, spells"),
    ]
    for key, msg in cases:
        with pytest.raises(RulesetError) as info:
            rules.override({key: 1})
        assert str(info.value) == f"override: {key}: {msg}"
    with pytest.raises(RulesetError, match=r"heroes\.ann\.colour: unknown colour 'green'"):
        rules.override({"heroes.ann.colour": "green"})


def test_override_values_texts_and_files(rules, tmp_path):
    new = rules.override({"setup.variants.fast": True, "heroes.ann.power.text": "x",
                          "items.starting.stick.weight": {"value": 2, "source": "rulebook"}})
    assert new.get("variants.fast") is True and new.source("variants.fast") == "override"
    assert new.text("heroes.ann.power") == "x" and new.fingerprint() != rules.fingerprint()
    assert new.source("items.starting.stick.weight") == "rulebook"
    assert rules.get("variants.fast") is False  # unchanged
    assert rules.override({"heroes.ann.power.text": "y"}).fingerprint() == rules.fingerprint()
    # an override file in the generic layout, and one named like a ruleset file
    f = tmp_path / "tweak.toml"
    f.write_text("[variants]\nfast = true\n[heroes.ann.power]\nkind = 'none'\n"
                 "[items.starting.stick]\nweight = 4\n")
    t = load_tagged(f, MiniRules, base=rules)
    assert (t.get("variants.fast"), t.get("heroes.ann.power.kind"),
            t.get("items.starting.stick.weight")) == (True, "none", 4)
    assert t.file_of("variants.fast") == str(f) and t.file_of("heroes") == str(f)
    g = tmp_path / "setup.toml"
    g.write_text("[variants]\nfast = { value = true, source = 'rulebook' }\n")
    assert load_tagged(g, MiniRules, base=rules).source("variants.fast") == "rulebook"
    g.write_text("[variants]\nfast = { value = true }\n")
    with pytest.raises(RulesetError, match=r"setup\.toml: variants\.fast: missing source tag"):
        load_tagged(g, MiniRules, base=rules)
    g.write_text("[variants]\nslow = true\n")
    with pytest.raises(RulesetError, match=r"setup\.toml: variants\.slow: unknown key"):
        load_tagged(g, MiniRules, base=rules)


@pytest.mark.parametrize("stem, old, new, message", [
    ("heroes", "[ann.power]", "[ann.powr]", "heroes.ann.powr: unknown key; allowed: health, colour, power"),
    ("heroes", '[bob.power]\nkind = { value = "none", source = "assumed" }\n', "",
     "heroes.bob.power: missing table [bob.power]"),
    ("heroes", "[bob]", "[Bob]", "heroes.Bob: hero name 'Bob' is not snake_case"),
    ("heroes", '"blue"', '"green"', "heroes.bob.colour: unknown colour 'green'; allowed: red, blue"),
    ("heroes", 'text = "heals a friend"', "text = 3", "heroes.ann.power.text: expected a string"),
    ("items", "[starting.stick]", "[starting.Stick]", "items.starting.Stick: starting item name"),
    ("items", "[starting.stick]\nweight", "[starting.stick]\ncount = { value = 1, source = 'assumed' }\nweight",
     "items.starting.stick.count: unknown key; allowed: weight"),
    ("items", "[starting.stick]", "[stick]\ncount = { value = 1, source = 'assumed' }",
     "items.stick: already a starting item"),
    ("spells", "[fire]", "[wind]", "spells.wind: unknown element 'wind'; allowed: fire, ice"),
    ("spells", FILES["spells"], "", "spells: no entries"),
    ("setup", "[variants]", "[variantz]", "setup.variantz: unknown key"),
    ("setup", "[variants]\nfast = { value = false, source = \"assumed\" }\n", "", "variants: missing table [variants]"),
])
def test_bad_files_name_file_key_and_allowed(tmp_path, stem, old, new, message):
    assert old in FILES[stem]
    d = write(tmp_path / "bad", **{stem: FILES[stem].replace(old, new)})
    msg = load_error(d)
    assert msg.startswith(str(d / f"{stem}.toml") + ": ") and message in msg, msg


def test_write_round_trip_pickle_and_equality(rules, tmp_path):
    new = rules.override({"items.rope.weight": 5, "variants.fast": True, "heroes.bob.power.text": "é"})
    back = load_tagged(new.to_toml_dir(tmp_path / "out"), MiniRules)
    assert back.get("variants.fast") is True and back.source("variants.fast") == "assumed"
    assert "[variants]" in (tmp_path / "out" / "setup.toml").read_text()
    assert "[starting.stick]" in (tmp_path / "out" / "items.toml").read_text()
    assert back.text("heroes.bob.power") == "é"
    assert back.get("items.rope.weight") == 5
    same = rules.override({"variants.fast": True})
    assert load_tagged(same.to_toml_dir(tmp_path / "out2"), MiniRules).fingerprint() == same.fingerprint()
    p = pickle.loads(pickle.dumps(new))
    assert type(p) is MiniRules and p == new and hash(p) == hash(new) and p is not new
    assert p.text("heroes.bob.power") == "é"
    with pytest.raises(AttributeError):
        rules.x = 1
    with pytest.raises(TypeError):
        MiniRules()


def test_fingerprint_hook(tmp_path):
    a = load_tagged(write(tmp_path / "a"), MiniRules)
    b = load_tagged(write(tmp_path / "b"), MiniRulesOwnFingerprint)
    assert a.keys() == b.keys() and a.fingerprint() != b.fingerprint()
    c = load_tagged(write(tmp_path / "c", spells=FILES["spells"] + "  # a comment\n"),
                    MiniRulesOwnFingerprint)
    assert c.fingerprint() == b.fingerprint()
