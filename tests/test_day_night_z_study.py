"""Day Night Z around the engine: ``simlib exact --game day-night-z`` (the designers' exact
tables) against the exact module and against a brute-force count written here from the
data files alone; the command's bad inputs.

The brute force reads ``data/day_night_z/dice.toml`` and ``colours.toml`` with ``tomllib``
and enumerates every roll (6**n outcomes): it shares no code with ``exact.py``.
"""
from __future__ import annotations

import itertools
import tomllib
from fractions import Fraction
from pathlib import Path

import pandas as pd
import pytest

from simlib.core import games as registry

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "day_night_z"


@pytest.fixture(scope="module", autouse=True)
def registered():
    """The game in the registry for these tests (registered already once the engine is)."""
    added = "day_night_z" not in registry.game_names()
    if added:
        registry.register("simlib.games.day_night_z.game:GAME", name="day_night_z")
    yield
    if added:
        registry.unregister("day_night_z")


# =========================================================================== brute force
def _die():
    raw = tomllib.loads((DATA / "dice.toml").read_text())
    faces = []
    for f in raw.values():
        if isinstance(f, dict) and "star" in f:
            faces.append({k: v["value"] for k, v in f.items() if isinstance(v, dict)})
    return faces


def _colours():
    raw = tomllib.loads((DATA / "colours.toml").read_text())
    return {roll: {lvl: set(v["value"]) for lvl, v in t.items()} for roll, t in raw.items()}


def brute_check(n: int, stress: str) -> Fraction:
    """P(>= 1 star of a colour ``stress`` accepts) by counting all 6**n rolls."""
    die, ok = _die(), _colours()["check"][stress]
    good = sum(any(f["star"] in ok for f in roll) for roll in itertools.product(die, repeat=n))
    return Fraction(good, len(die) ** n)


def brute_enemy(n: int) -> tuple[Fraction, Fraction, Fraction]:
    """(hit, infection of an uninfected survivor, noise counter) by counting all rolls."""
    die = _die()
    hit = inf = noise = 0
    for roll in itertools.product(die, repeat=n):
        h = any(f["skull"] for f in roll)
        hit += h
        inf += h and any(f["infection"] for f in roll)
        noise += any(f["noise"] for f in roll)
    total = len(die) ** n
    return Fraction(hit, total), Fraction(inf, total), Fraction(noise, total)


def _run(args, capsys):
    from simlib.cli import main

    code = main(["exact", *args])
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def _csv(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str).set_index(pd.read_csv(path, dtype=str).columns[0])


# =========================================================================== the command
def test_spec_case_three_dice_at_yellow(capsys):
    """The spec's case 2: 3 dice at yellow stress pass with 19/27, counted by brute force
    and printed by the command."""
    assert brute_check(3, "yellow") == Fraction(19, 27)
    code, out, err = _run(["--exact", "--table", "check"], capsys)
    assert code == 0, err
    rows = {ln.split()[0]: ln.split()[1:] for ln in out.splitlines() if ln[:1].isdigit()}
    assert rows["3"][2] == "19/27"  # columns: green 0, green 1, yellow 0, ...


def test_exact_csv_equals_the_module_and_brute_force(tmp_path, capsys):
    from simlib.games.day_night_z import exact as X

    code, out, err = _run(["--exact", "--csv", str(tmp_path / "t")], capsys)
    assert code == 0, err
    assert "wrote" in out
    check = _csv(tmp_path / "t" / "check.csv")
    assert list(check.index) == [str(n) for n in range(1, 9)]
    for n in range(1, 9):
        for stress in ("green", "yellow", "red"):
            for sp in (0, 1):
                got = Fraction(check.loc[str(n), f"{stress} {sp}"])
                assert got == X.check_probability(n, stress, sp, exact=True)
                if n + sp <= 5:  # brute force up to 6**5 rolls
                    assert got == brute_check(n + sp, stress), (n, stress, sp)
    enemy = _csv(tmp_path / "t" / "enemy_attack.csv")
    for n in range(1, 9):
        row = enemy.loc[str(n)]
        want = X.enemy_attack_table([n], exact=True).loc[n]
        for col in ("hit", "infection", "noise", "hit_no_infection"):
            assert Fraction(row[col]) == want[col]
        if n <= 5:
            hit, inf, noise = brute_enemy(n)
            assert (Fraction(row["hit"]), Fraction(row["infection"]), Fraction(row["noise"])) \
                == (hit, inf, noise)
    # the spec's case 5: 3 dice, damage 7/8, with infection 91/216, a counter 19/27
    assert (enemy.loc["3", "hit"], enemy.loc["3", "infection"], enemy.loc["3", "noise"]) \
        == ("7/8", "91/216", "19/27")
    kill = pd.read_csv(tmp_path / "t" / "kill_1ap.csv", dtype=str).set_index(["survivor", "weapon"])
    want = X.kill_table("green", aps=1, exact=True)
    assert len(kill) == len(want) > 0
    for (s, w), row in want.iterrows():
        for (side, e), p in row.items():
            assert Fraction(kill.loc[(s, w), f"{side} {e}"]) == p
    corpse = _csv(tmp_path / "t" / "corpse.csv")
    assert Fraction(corpse.loc["corpse x1", "infection"]) == brute_enemy(1)[1] == Fraction(1, 6)


def test_designer_tables_follow_the_ruleset():
    """A tweak (three SP a roll) shows in the tables: the SP columns are 0 and 3."""
    from simlib.games.day_night_z.commands import designer_tables
    from simlib.games.day_night_z.ruleset import load_ruleset

    rules = load_ruleset().override({"survivor.max_sp_per_roll": 3})
    t = designer_tables(rules, exact=True, max_pool=4, names=["check"])["check"]
    assert list(t.columns.get_level_values("sp").unique()) == [0, 3]
    assert t.loc[2, ("yellow", 3)] == brute_check(5, "yellow")
    assert list(t.index) == [1, 2, 3, 4]


@pytest.mark.parametrize("args, msg", [
    (["--max-pool", "0"], "--max-pool"),
    (["--max-pool", "x"], "--max-pool"),
    (["--table", "nope"], "unknown table"),
    (["--game", "till-dawn"], "only day-night-z"),
    (["--rules", "no-such-ruleset.toml"], "no-such-ruleset"),
    (["--csv", "/no/such/folder/x"], "no such folder"),
    (["--bogus"], "unrecognized"),
])
def test_bad_input_is_one_line_and_exit_2(args, msg, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = _run(args, capsys)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("simlib") and msg in err, err
    assert out == "" and list(tmp_path.iterdir()) == []


def test_csv_files_are_not_overwritten_without_force(tmp_path, capsys):
    d = tmp_path / "t"
    assert _run(["--table", "corpse", "--csv", str(d)], capsys)[0] == 0
    code, out, err = _run(["--table", "corpse", "--csv", str(d)], capsys)
    assert code == 2 and "--force" in err and out == ""
    assert _run(["--table", "corpse", "--csv", str(d), "--force"], capsys)[0] == 0
