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

import numpy as np
import pandas as pd
import pytest

from simlib.core import games as registry
from simlib.core.games import get_game

_SIM = get_game("day_night_z").simulate  # a study through the game contract

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


# =========================================================================== the study
def _study():
    from simlib.games.day_night_z import study as S

    return S


def test_a_study_game_is_its_cells_deal():
    """Game i plays cell i % C on the engine's game i // C: its row is play_games' row."""
    from simlib.games.day_night_z.play import play_games

    S = _study()
    ad = S.make_adapter(players=[1, 3], characters="9,21", seed=11)
    assert ad.cells == ((1, 9), (1, 21), (3, 9), (3, 21))
    df = ad.run_chunk(3, 9)  # games 3 .. 11: a chunk starting mid-round
    assert list(df["game"]) == list(range(3, 12))
    for i in (3, 4, 6, 11):
        t, h = ad.cells[i % 4]
        one = S.records_frame(play_games(1, seed=11, start=i // 4, team_size=t, start_hour=h),
                              np.array([i]))
        row = df[df["game"] == i].iloc[0]
        for c in one.columns:
            assert one.iloc[0][c] == row[c], (i, c)
    whole = ad.run_chunk(0, 12)
    pd.testing.assert_frame_equal(whole.iloc[3:].reset_index(drop=True), df.reset_index(drop=True))


def test_tables_add_up_to_the_records():
    S = _study()
    res = _SIM(288, seed=2, chunk_size=100, keep_records=True, progress=False)
    rec, t = res.records, res.tables
    assert len(rec) == 288 and int(t["overall"]["games"].iloc[0]) == 288
    assert int(t["overall"]["wins"].iloc[0]) == int(rec["success"].sum())
    by = rec.groupby(["players", "start_hour"])
    assert t["by_players_hour"]["games"].to_dict() == by.size().to_dict()
    assert t["by_players_hour"]["wins"].to_dict() == by["success"].sum().astype(int).to_dict()
    sums = S.cell_sums(res.counts)
    for v in ("vp", "alive", "dead_damage", "threat_from_noise", "sp_on_rolls", "hunter_damage",
              "alive_t5", "threat_t12"):
        assert sums[v].to_dict() == by[v].sum().astype(int).to_dict(), v
    m = S.cell_means(res.counts, ["vp", "threat_final"], ["players"])
    for v in ("vp", "threat_final"):
        want = rec.groupby("players")[v].mean()
        assert np.allclose(m[v].to_numpy(), want.to_numpy())
        assert (m[f"{v}_low"] <= m[v]).all() and (m[v] <= m[f"{v}_high"]).all()
    ec = t["end_causes_by_players"]["count"]
    want = rec.groupby(["players", "end_cause"]).size()
    assert {k: v for k, v in ec.to_dict().items() if v} == want.to_dict()
    alive = t["survivors_alive_by_players"]["count"]
    assert sum(alive) == 288
    # every game counts once in each category table
    for name in ("end_causes", "survivors_alive", "threat_levels", "hunter"):
        assert int(t[name]["count"].sum()) == 288, name


def test_records_keep_the_rules_between_columns():
    S = _study()
    df = S.make_adapter(seed=4).run_chunk(0, 240)
    assert (df["success"] == (df["end_cause"] == "success")).all()
    assert (df.loc[~df["success"], "vp"] == 0).all()
    assert (df["alive_t0"] == df["players"]).all()
    assert (df[f"alive_t{S.PER_TURN}"] == df["alive"]).all()
    assert (df[f"threat_t{S.PER_TURN}"] == df["threat_final"]).all()
    assert (df["alive"] + df["dead_damage"] + df["dead_infection"] + df["dead_hunger"]
            == df["players"]).all()
    steps = np.diff(df[[f"alive_t{k}" for k in range(S.PER_TURN + 1)]].to_numpy(), axis=1)
    assert (steps <= 0).all(), "nobody comes back to life"


def test_render_and_paths():
    S = _study()
    res = _SIM(120, players=[1, 4], characters=[14], seed=1, progress=False)
    text = S.render(res)
    assert "success % by team size (rows) and start hour" in text and "14:00" in text
    paths = S.turn_paths(res.counts)
    assert set(paths["players"]) == {1, 4} and len(paths) == 2 * (S.PER_TURN + 1)
    assert (paths.loc[paths["turn"] == 0, "alive"].to_numpy() == [1.0, 4.0]).all()


@pytest.mark.parametrize("kw, msg", [
    ({"players": 5}, "allows 1-4"),
    ({"players": [2, 2]}, "duplicate team size"),
    ({"characters": "24"}, "0-23"),
    ({"characters": "swift"}, "no characters"),
    ({"characters": "14,14"}, "duplicate start hour"),
    ({"policy": "nope"}, "unknown policy"),
    ({"policy_params": {"nope": 1}}, "no parameter"),
    ({"seats": [["baseline"]]}, "cooperative"),
    ({"seed": -1}, "seed"),
])
def test_bad_study_parameters_are_refused(kw, msg):
    with pytest.raises(ValueError, match=msg):
        _study().make_adapter(**kw)


def test_start_hours_are_read_from_characters():
    S = _study()
    assert S.make_adapter(characters="8,14:00").start_hours == (8, 14)
    assert S.make_adapter(characters=["20"]).start_hours == (20,)
    assert S.make_adapter(characters="all").start_hours == tuple(range(24))
    assert S.make_adapter().start_hours == S.DEFAULT_HOURS


def test_the_fight_module_s_kill_chance_table_is_printed(tmp_path, capsys):
    """``--table kill_chance`` is the fight module's table, and its one-AP kill chance at
    green health without SP is the exact module's kill probability (two modules, one law)."""
    from simlib.games.day_night_z import exact as X
    from simlib.games.day_night_z import fight as F

    code, out, err = _run(["--exact", "--table", "kill_chance", "--csv", str(tmp_path)], capsys)
    assert code == 0, err
    got = pd.read_csv(tmp_path / "kill_chance.csv", dtype=str)
    want = F.kit_kill_chance_table(exact=True).reset_index()
    assert len(got) == len(want) > 0
    for g, w in zip(got.itertuples(), want.itertuples()):
        assert (g.survivor, g.enemy, g.time, g.health) == (w.survivor, w.enemy, w.time, w.health)
        assert Fraction(g.p_kill_1ap) == w.p_kill_1ap
        if w.health == "green" and int(w.sp) == 0:
            assert w.p_kill_1ap == X.kill_probability(w.survivor, w.weapon, w.enemy, w.time == "night",
                                                      aps=1, exact=True)


def test_simulate_refuses_a_bad_start_hour_in_one_line(capsys, tmp_path, monkeypatch):
    from simlib.cli import main

    monkeypatch.chdir(tmp_path)
    for bad in ("25", "noon"):
        code = main(["simulate", "--game", "day-night-z", "--characters", bad, "--games", "12"])
        cap = capsys.readouterr()
        assert code == 2 and cap.err.count("\n") == 1 and cap.err.startswith("simlib simulate"), cap.err
        assert cap.out == "" and list(tmp_path.iterdir()) == []


def test_instrument_outcomes_are_the_records():
    S = _study()
    ad = S.make_adapter(players=[2, 4], characters="10,22", seed=8)
    df = ad.run_chunk(0, 80)
    o = ad.outcomes(0, 80)
    assert (o.success == df["success"].to_numpy()).all()
    assert (o.measure == df["vp"].to_numpy()).all()
    assert (o.match == df[["players", "start_hour"]].to_numpy()).all()
    labels, rows, idx, succ = o.groupings["start_hour"]
    assert labels == (10, 22) and (np.asarray(labels)[idx] == df["start_hour"].to_numpy()).all()
    assert (o.shares["all_dead"] == (df["end_cause"] == "all_dead").to_numpy()).all()
    assert (o.shares["lost_a_survivor"] == (df["alive"] < df["players"]).to_numpy()).all()


def test_trace_ends_with_the_game_s_record_and_the_report_has_its_sections(tmp_path):
    from simlib.core.games import get_game

    info = get_game("day-night-z")
    ad = info.adapter(players=[3], seed=2)
    text = info.trace(ad, 5)
    row = ad.run_chunk(5, 1).iloc[0]
    assert text.startswith("game 5: a team of 3")
    last = text.strip().splitlines()[-1]
    assert last.startswith("record: ")
    for key in ("vp", "turns", "alive", "threat_final", "hunter_spawns", "decisions"):
        assert f"{key} {row[key]}," in last + ",", key
    res = info.simulate(96, [1, 2], seed=3, progress=False)
    page = info.report(res, title="dnz", command="simlib simulate").write(tmp_path / "r.html")
    html = page.read_text() if hasattr(page, "read_text") else open(page).read()
    for sec in ('id="success"', 'id="survivors"', 'id="threat"', 'id="hunter"', 'id="sp"'):
        assert sec in html, sec
    assert html.count("data:image/svg+xml;base64,") >= 4  # success, survival, threat path, sources


def test_the_step_model_and_the_batch_take_a_preset_name(tmp_path):
    """``step.Game(ruleset="reference")`` and ``play_games(ruleset="reference")`` name the
    preset as the other games' step models do (it was read as a path and refused); a tweak
    over the preset and a ruleset object give the same game as through the study."""
    from simlib.games.day_night_z.step import Game
    from simlib.games.day_night_z.play import play_games
    from simlib.games.day_night_z.ruleset import RulesetError
    from simlib.games.day_night_z.study import load_rules

    def played(**kw):
        g = Game(seed=3, game=1, players=2, **kw)
        while not g.over:
            g.apply(g.policy_choice())
        return g.record()

    assert Game(ruleset="reference").rules is load_rules(None)
    assert played(ruleset="reference") == played()
    rows = play_games(2, ruleset="reference", seed=3, team_size=2)["records"]
    assert (rows == play_games(2, seed=3, team_size=2)["records"]).all()
    tweak = tmp_path / "tweak.toml"
    tweak.write_text('[survivor]\nhealth_max = { value = 7, source = "assumed" }\n')
    g = Game(ruleset=f"reference+{tweak}")
    assert g.rules.get("survivor.health_max") == 7
    with pytest.raises(RulesetError, match="calibrated"):
        Game(ruleset="calibrated")


def _records(n, players, sets=None):
    from simlib.core.games import get_game

    dnz = get_game("day_night_z")
    rules = dnz.resolve_ruleset(None)
    rules = rules.override(sets) if sets else rules
    return dnz.simulate(n, players=[players], seed=0, ruleset=rules, progress=False).records


def _results_differ(a, b) -> int:
    """Games whose result differs, from the records: success, VP, end cause, a survivor
    lost, the Hunter came or killed, the threat ended red."""
    def result(df):
        return pd.DataFrame({"success": df["success"], "vp": df["vp"],
                             "cause": df["end_cause"].astype(str),
                             "lost": df["alive"] < df["players"],
                             "hunter_came": df["hunter_spawns"] > 0,
                             "hunter_killed": df["hunter_kills"] > 0,
                             "red": df["threat_level_final"].astype(str) == "red"}).reset_index(drop=True)
    return int((result(a) != result(b)).any(axis=1).sum())


def test_compare_says_when_the_change_alters_no_game():
    """The game page's old example: the baseline spends one SP a roll whatever the cap, so
    ``survivor.max_sp_per_roll=3`` leaves every record as it was; compare says so in one
    line instead of a silent A = B."""
    import simlib
    from simlib.cli_instruments import render_compare

    same = _records(300, 2)
    assert same.equals(_records(300, 2, {"survivor.max_sp_per_roll": 3}))
    res = simlib.compare(300, players=2, sets={"survivor.max_sp_per_roll": 3}, game="day_night_z",
                         progress=False)
    assert res.games_changed == 0 == res.provenance["games_changed"]
    assert "the change altered 0 of 300 games" in res.notice
    assert res.notice in render_compare(res).splitlines()


def test_compare_counts_the_games_a_change_alters():
    """One health point less alters some games (counted from the records, written
    apart), and no notice is printed."""
    import simlib
    from simlib.cli_instruments import render_compare

    sets = {"survivor.health_max": 8}
    expected = _results_differ(_records(300, 2), _records(300, 2, sets))
    assert expected > 0
    res = simlib.compare(300, players=2, sets=sets, game="day_night_z", progress=False)
    assert res.games_changed == expected
    assert res.notice == "" and "altered 0 of" not in render_compare(res)


def test_sweep_says_when_no_value_alters_a_game():
    """The page's old sweep, ``threat_track.cost_green=1:4`` at 2 survivors: the baseline
    never holds the 8 SP it lowers the threat with, so no value changes a game's result
    (3 and 4 change only how many decisions are offered)."""
    import simlib
    from simlib.cli_instruments import render_sweep

    base = _records(300, 2)
    for v in (1, 3, 4):
        assert _results_differ(base, _records(300, 2, {"threat_track.cost_green": v})) == 0
    res = simlib.sweep({"threat_track.cost_green": [1, 2, 3, 4]}, 300, players=2,
                       game="day_night_z", progress=False)
    assert res.games_changed == 0
    assert "the values altered 0 of 300 games" in render_sweep(res)
    moved = simlib.sweep({"survivor.health_max": [8, 9]}, 300, players=2,
                         game="day_night_z", progress=False)
    assert moved.games_changed == _results_differ(
        _records(300, 2, {"survivor.health_max": 8}), _records(300, 2)) > 0
    assert "altered 0 of" not in render_sweep(moved)
    one = simlib.sweep({"threat_track.cost_green": [2]}, 50, players=2, game="day_night_z",
                       progress=False)
    assert one.games_changed is None and one.notice == ""
