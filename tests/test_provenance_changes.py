"""The core, not each game, records what a run changed from the game's reference ruleset:
``ruleset_lineage`` and ``ruleset_changes`` in every game's provenance, the report's
provenance table, and the header line of ``simulate``, ``compare`` and ``sweep``.

Pig (``tests/pig_game``) runs with the shipped games: its adapter records neither key.
"""
from __future__ import annotations

import html
import re

import pytest

from simlib import cli
from simlib.core.games import game_names, get_game

pytestmark = pytest.mark.usefixtures("pig_registered")  # conftest.py: Pig joins the registry


GAMES = [n for n in game_names()] + ["pig"]


def _a_change(info):
    """(key, old, new): the first integer value of the game's reference ruleset (not a
    player count) that the ruleset still accepts one higher."""
    rules = info.resolve_ruleset("reference")
    for key in rules.keys():
        v = rules.get(key)
        if isinstance(v, bool) or not isinstance(v, int) or "players" in key:
            continue
        try:
            rules.override({key: v + 1})
        except ValueError:
            continue
        return key, v, v + 1
    pytest.skip(f"{info.name}: no integer value to change")  # pragma: no cover


def _run(capsys, argv):
    code = cli.main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


def _smallest(info) -> str:
    return str(min(info.adapter().players))


def _provenance_rows(page: str) -> str:
    """The report's ruleset-changes table as text (tags dropped, entities decoded)."""
    m = re.search(r'id="ruleset-changes".*?</table>', page, re.S)
    assert m, "the report has no ruleset-changes table"
    return html.unescape(re.sub(r"<[^>]+>", " ", m.group(0)))


@pytest.mark.parametrize("name", GAMES)
def test_a_set_change_is_recorded_for_every_game(name, tmp_path, capsys):
    info = get_game(name)
    key, old, new = _a_change(info)
    page = tmp_path / "r.html"
    out = _run(capsys, ["simulate", "--game", name, "--rules", "reference", "--set",
                        f"{key}={new}", "--players", _smallest(info), "--games", "12",
                        "--no-progress", "--html", str(page)])
    head = out.split("\n\n", 1)[0]
    assert f"{key} {old} -> {new}" in head
    res = info.simulate(12, int(_smallest(info)), ruleset=info.resolve_ruleset("reference")
                        .override({key: new}), progress=False)
    changes = res.provenance["ruleset_changes"]
    assert [(c["key"], c["reference"], c["value"]) for c in changes] == [(key, old, new)]
    assert res.provenance["ruleset_lineage"].startswith("reference+")
    rows = _provenance_rows(page.read_text(encoding="utf-8")).split()
    i = rows.index(key)
    assert rows[i + 1:i + 3] == [str(old), str(new)]


@pytest.mark.parametrize("name", GAMES)
def test_a_fresh_reference_run_says_no_value_changed(name, tmp_path, capsys):
    info = get_game(name)
    page = tmp_path / "r.html"
    out = _run(capsys, ["simulate", "--game", name, "--rules", "reference", "--players",
                        _smallest(info), "--games", "12", "--no-progress", "--html", str(page)])
    assert "Changed from the reference" not in out
    text = page.read_text(encoding="utf-8")
    assert "no value changed" in text
    assert "not recorded in this run" not in text


def test_compare_and_sweep_headers_name_the_changes(tmp_path, capsys):
    info = get_game("till_dawn")
    key, old, new = _a_change(info)
    tweak = tmp_path / "tweak.toml"
    section, _, leaf = key.rpartition(".")
    tweak.write_text(f"[{section}]\n{leaf} = {new}\n", encoding="utf-8")
    out = _run(capsys, ["compare", "--game", "till-dawn", "--rules", str(tweak), "--set",
                        f"{key}={old}", "--players", "3", "--games", "20", "--no-progress"])
    assert f"Changed from the reference ruleset: {key} {old} -> {new}" in out  # A, the tweak
    assert f"B changes from A: {key} {new} -> {old}" in out
    key2 = next(k for k in info.resolve_ruleset("reference").keys() if k != key and isinstance(
        info.resolve_ruleset("reference").get(k), int) and "players" not in k)
    v2 = info.resolve_ruleset("reference").get(key2)
    out = _run(capsys, ["sweep", "--game", "till-dawn", "--rules", str(tweak), "--set",
                        f"{key2}={v2}:{v2}:1", "--players", "3", "--games", "20",
                        "--no-progress"])
    assert f"Changed from the reference ruleset: {key} {old} -> {new}" in out


def test_until_daylight_provenance_is_its_own():
    """Until Daylight's study still records its changes itself, as before (the core only
    fills in what a game leaves out): calibrated lists the preset's moved value."""
    res = get_game("until_daylight").simulate(12, 4, progress=False)
    rules = get_game("until_daylight").resolve_ruleset(None)
    assert res.provenance["ruleset_lineage"] == "calibrated"
    assert res.provenance["ruleset_changes"] == rules.changes() != []
