"""``simlib rules`` and ``simlib games``: the knobs of every game one command away."""
from __future__ import annotations

import io

import pandas as pd
import pytest

import simlib
from simlib.cli import main
from simlib.core.games import game_names, get_game
from simlib.core.keys import allowed_text
from simlib.core.ruleset import Field


def _run(capsys, *args):
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


@pytest.mark.parametrize("name", game_names())
def test_every_key_of_every_game_with_its_value_source_and_range(capsys, name):
    info = get_game(name)
    rules = info.load_ruleset(None)
    code, out, err = _run(capsys, "rules", "--game", info.cli_name, "--csv")
    assert code == 0, err
    df = pd.read_csv(io.StringIO(out), keep_default_na=False, dtype=str)
    assert list(df.columns) == ["key", "value", "reference", "source", "allowed", "meaning"]
    assert df["key"].tolist() == rules.keys()  # every key, in file order, once
    for row in df.sample(min(len(df), 25), random_state=0).itertuples():
        assert row.source == rules.source(row.key)
        assert row.allowed == allowed_text(rules.field(row.key))
        v = rules.get(row.key)
        if isinstance(v, int) and not isinstance(v, bool):
            assert int(row.value) == v
    code, text, _ = _run(capsys, "rules", "--game", info.cli_name)
    assert code == 0 and text.startswith(f"{info.display_name}, ruleset {rules.lineage}: ")


def test_a_value_its_range_and_its_meaning_from_the_data_file(capsys):
    """Mort's move cost: 1 in the rulebook, the schema allows 1 to 10, and the data file's
    comment says what it is."""
    df = simlib.ruleset_keys("mort-de-la-lumiere-du-jour", contains="move_cost")
    row = df.set_index("key").loc["rules.move_cost"]
    assert (row["value"], row["source"], row["allowed"]) == ("1", "rulebook", "1 to 10")
    assert "énergie" in row["meaning"]
    # an entity file's glossary: the count of a horde card
    ud = simlib.ruleset_keys("until_daylight", contains="horde.monster.count").set_index("key")
    assert "cards in the horde deck" in ud.loc["horde.monster.count", "meaning"]


def test_changed_values_and_filters(capsys):
    code, out, _ = _run(capsys, "rules", "--game", "till-dawn", "--set",
                        "constants.nights=4", "--changed")
    assert code == 0
    rows = [line for line in out.splitlines() if line.startswith("constants.")]
    assert len(rows) == 1 and rows[0].split()[:4] == ["constants.nights", "4", "<-", "3"]
    assert "1 differ from the reference" in out
    df = simlib.ruleset_keys("till_dawn", source="rulebook")
    assert len(df) and (df["source"] == "rulebook").all()
    code, out, _ = _run(capsys, "rules", "--game", "till-dawn", "--grep", "no-such-words")
    assert code == 0 and "no key matches" in out


@pytest.mark.parametrize("args, words", [
    (["--source", "nope"], ["--source", "allowed", "rulebook"]),
    (["--set", "no.such.key=1"], ["no.such.key"]),
    (["--game", "til-dawn"], ["til-dawn", "till-dawn"]),
])
def test_bad_input_is_one_line(capsys, args, words):
    code, out, err = _run(capsys, "rules", *args)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert err.startswith("simlib rules: error:") and all(w in err for w in words), err


def test_allowed_text_of_each_kind_of_field():
    assert allowed_text(Field("int", 0, 20)) == "0 to 20"
    assert allowed_text(Field("int", 1)) == ">= 1"
    assert allowed_text(Field("int", 0, 0)) == "0 only"
    assert allowed_text(Field("bool")) == "true or false"
    assert allowed_text(Field("choice", choices=("a", "b"))) == "a | b"


def test_games_is_one_line_a_game_and_verbose_wraps(capsys):
    code, out, _ = _run(capsys, "games")
    lines = out.splitlines()
    assert code == 0 and len(lines) == len(game_names()) + 2  # a blank line and the footnote
    for n, line in zip(game_names(), lines):
        info = get_game(n)
        assert line.startswith(info.cli_name) and info.display_name in line
        assert f"{info.default_policy}*" in line and len(line) < 160
    code, out, _ = _run(capsys, "games", "--verbose")
    assert code == 0 and "parameters: budget=100" in out
    assert max(len(line) for line in out.splitlines()) < 200
