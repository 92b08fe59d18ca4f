"""The designer's instruments on real games: compare, sweep, calibrate, sensitivity,
precision-driven studies, the calibrated preset, and every bad input of their commands.

Game counts are small (a few thousand 4-player games per test); the statistics
themselves are checked against exact oracles in test_paired_sequential.py."""
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import simlib
from simlib.cli import main
from simlib.core.instruments import (DUMMY, InstrumentError, assumed_params,
                                               simulate_precise)
from simlib.games.until_daylight.ruleset import SOURCES, load_ruleset, preset_path


# =========================================================================== compare
def test_identical_rulesets_give_exactly_zero_differences():
    res = simlib.compare(600, players=[3, 4], rulesets=["reference", "reference"], seed=3,
                         progress=False)
    t = res.table
    assert (t["diff"] == 0).all()
    assert (t["only_a"] == 0).all() and (t["only_b"] == 0).all()
    assert (t["discordant_share"] == 0).all()
    assert (t["wins_a"] == t["wins_b"]).all()
    assert (t["mcnemar_p"] == 1).all()
    assert res.by_players["games"].tolist() == [300, 300]
    # a game counts once per character in it: 3 + 4 seats per pair of games
    assert res.by_character["games"].sum() == 300 * 3 + 300 * 4


def test_compare_a_change_with_common_random_numbers():
    res = simlib.compare(1000, players=4, sets={"horde.survivor.count": 120},
                         ruleset="calibrated", seed=1, progress=False)
    row = res.by_players.loc[4]
    assert row["rate_a"] > row["rate_b"]  # fewer survivors: harder
    assert row["diff_high"] < 0  # B - A, changed minus base: the change lowered the rate
    assert row["diff"] == pytest.approx(row["rate_b"] - row["rate_a"])
    # pairing makes the comparison sharper than two independent runs of the same size
    assert row["unpaired_games"] > 1000
    assert res.labels[1] == "horde.survivor.count=120"
    assert res.provenance["variants"]["b"]["ruleset_fingerprint"] != \
        res.provenance["variants"]["a"]["ruleset_fingerprint"]


def test_compare_two_policies_reports_speed_per_policy():
    res = simlib.compare(400, players=4, policies=["baseline", "random"], seed=2, progress=False)
    assert res.labels == ("baseline", "random")
    assert res.speed["policy"].tolist() == ["baseline", "random"]
    assert (res.speed["games_per_s"] > 0).all()
    assert res.overall["rate_a"].iloc[0] >= res.overall["rate_b"].iloc[0]


def test_compare_gives_each_policy_its_own_parameters():
    """``--policy NAME:P=V`` parameters go to that arm only: the distilled player's weights
    play off their ruleset with ``any_ruleset=1`` beside a baseline that has no such
    parameter (``--policy-param`` would go to both), and each arm plays exactly the games
    ``play_games`` gives it with those parameters."""
    from simlib.games.until_daylight import codes as K
    from simlib.games.until_daylight.api import play_games

    box, n = load_ruleset("box"), 300
    with pytest.raises(InstrumentError, match="distilled:any_ruleset=1"):
        simlib.compare(10, players=4, policies=["baseline", "distilled"], ruleset=box,
                       progress=False)
    with pytest.raises(InstrumentError, match="baseline"):
        simlib.compare(10, players=4, policies=["baseline", "distilled"], ruleset=box,
                       policy_params={"any_ruleset": 1}, progress=False)
    res = simlib.compare(n, players=4, policies=["baseline", "distilled:any_ruleset=1"],
                         ruleset=box, seed=3, progress=False)
    assert res.labels == ("baseline", "distilled:any_ruleset=1")
    for policy, params, col in (("baseline", None, "rate_a"),
                                ("distilled", {"any_ruleset": 1}, "rate_b")):
        wins = int((play_games(n, players=4, seed=3, policy=policy, policy_params=params,
                               ruleset=box)["outcome"] == K.OUT_WIN).sum())
        assert round(res.overall[col].iloc[0] * n) == wins
    with pytest.raises(InstrumentError, match="not a number"):
        simlib.compare(10, players=4, policies=["baseline", "distilled:any_ruleset=yes"],
                       progress=False)


def test_compare_plays_a_search_player_and_its_named_budgets():
    """A search player's arm plays the search (its step driver), not the baseline it
    searches over: the compare of ``clairvoyant`` (a named budget of ``rollout``) wins the
    very games ``play_games`` gives it.  (Until this test the instruments' own kernel
    call dropped the search, so such an arm silently played the baseline's games.)"""
    from simlib.games.until_daylight import codes as K
    from simlib.games.until_daylight.api import play_games

    light = load_ruleset("reference").override({"constants.rounds": 5, "constants.wave_per_player": 0})
    n = 24
    res = simlib.compare(n, players=4, policies=["baseline", "clairvoyant"], ruleset=light,
                         seed=6, progress=False)
    assert res.labels == ("baseline", "clairvoyant")
    wins = {p: int((play_games(n, players=4, seed=6, policy=p, ruleset=light)["outcome"]
                    == K.OUT_WIN).sum()) for p in res.labels}
    assert wins["clairvoyant"] > wins["baseline"], wins
    assert round(res.overall["rate_a"].iloc[0] * n) == wins["baseline"]
    assert round(res.overall["rate_b"].iloc[0] * n) == wins["clairvoyant"]


def test_compare_needs_one_axis():
    with pytest.raises(InstrumentError, match="exactly one"):
        simlib.compare(10, rulesets=["reference", "calibrated"], policies=["baseline", "random"])
    with pytest.raises(InstrumentError, match="unknown policy"):
        simlib.compare(10, policies=["baseline", "genius"])


# =========================================================================== sweep
def test_sweep_same_seeds_every_value(tmp_path):
    res = simlib.sweep({"horde.survivor.count": [100, 200]}, 600, players=4, seed=5,
                       ruleset="reference", progress=False)
    t = res.table.set_index("horde.survivor.count")
    assert t["games"].tolist() == [600, 600]
    assert t.loc[200, "win_rate"] > t.loc[100, "win_rate"]
    assert (t["round_low"] <= t["round_mean"]).all() and (t["round_mean"] <= t["round_high"]).all()
    losses = t[[c for c in t.columns if c.startswith("loss_")]].sum(axis=1)
    np.testing.assert_allclose(losses + t["win_rate"], 1.0)
    # the value 200 row is the very study simulate plays with that value
    one = simlib.simulate(600, 4, seed=5, ruleset=load_ruleset("reference").override(
        {"horde.survivor.count": 200}), progress=False)
    assert int(one.tables.overall["wins"].iloc[0]) == int(t.loc[200, "wins"])
    res.plot(tmp_path / "s.png")
    assert (tmp_path / "s.png").stat().st_size > 1000


def test_sweep_two_parameters_grid():
    res = simlib.sweep({"horde.survivor.count": [150, 200], "horde.monster.count": [0, 8]}, 200,
                       players=4, ruleset="reference", progress=False)
    assert len(res.table) == 4
    assert set(res.table.columns) >= {"horde.survivor.count", "horde.monster.count", "win_rate"}


# =========================================================================== calibrate
def test_calibrate_a_real_parameter_within_tolerance():
    res = simlib.calibrate("horde.survivor.count", 0.30, players=4, lo=100, hi=300,
                           tolerance=0.03, games=1000, ruleset="reference", progress=False)
    assert res.converged
    assert (res.ci_high - res.ci_low) / 2 <= 0.03
    assert abs(res.win_rate - 0.30) <= 0.03
    assert 100 < res.value < 300
    # the tried points bracket the answer and were all played on the same seed block
    tried = res.tried[res.tried["stage"] == res.tried["stage"].max()]
    assert tried["win_rate"].min() <= 0.30 <= tried["win_rate"].max()


def test_calibrate_unreachable_target_names_the_ends():
    with pytest.raises(InstrumentError, match=r"out of reach on \[0, 2\].*at 0 and .* at 2"):
        simlib.calibrate("horde.monster.count", 0.5, players=4, lo=0, hi=2, games=100,
                         ruleset="reference", progress=False)


# =========================================================================== sensitivity
def test_sensitivity_ranks_the_dummy_below_a_parameter_that_matters(tmp_path):
    res = simlib.sensitivity({"horde.survivor.count": (100, 250), "constants.stalemate_cap": (45, 55)},
                             games=300, trajectories=4, players=4, progress=False)
    t = res.table[res.table["output"] == "win_rate"].set_index("key")
    assert t.loc["horde.survivor.count", "mu_star"] > t.loc[DUMMY, "mu_star"]
    assert t.loc["horde.survivor.count", "rank"] == 1
    assert t.loc["horde.survivor.count", ["lo", "hi"]].tolist() == [100, 250]  # ranges follow keys
    assert t.loc["constants.stalemate_cap", ["lo", "hi"]].tolist() == [45, 55]
    assert {"mu_star_low", "mu_star_high", "sigma", "sigma_low", "sigma_high"} <= set(t.columns)
    r = res.table[res.table["output"] == "round_reached"].set_index("key")
    assert r.loc["horde.survivor.count", "mu_star"] > r.loc[DUMMY, "mu_star"]
    res.plot(tmp_path / "m.png")
    assert (tmp_path / "m.png").is_file()


def test_default_sensitivity_ranges_cover_every_assumed_integer():
    rules = load_ruleset("reference")
    rng = assumed_params(rules).set_index("key")
    assumed_ints = [k for k in rules.keys() if rules.source(k) == "assumed"
                    and isinstance(rules.get(k), int) and not isinstance(rules.get(k), bool)]
    assert sorted(rng.index) == sorted(assumed_ints)
    assert rng.loc["horde.monster.count"].tolist() == [8, 5, 11]       # +-30 %
    assert rng.loc["characters.haggler.health"].tolist() == [4, 2, 6]  # +-1.2 -> 2..6
    assert rng.loc["constants.search_timer.offset"].tolist() == [0, -1, 1]  # at least +-1
    assert (rng["lo"] < rng["hi"]).all()
    for key, row in rng.iterrows():  # every end is a valid ruleset
        rules.override({key: int(row.lo)})
        rules.override({key: int(row.hi)})


# =========================================================================== precision
def test_precision_run_is_a_pure_function_of_seed_precision_and_cap():
    kw = dict(players=4, seed=4, chunk_size=250, ruleset="calibrated", progress=False)
    one = simulate_precise(0.04, 5000, threads=1, **kw)
    two = simulate_precise(0.04, 5000, threads=2, **kw)
    assert one.games == two.games
    assert one.tables.equals(two.tables)
    assert one.provenance["stopped_by"] == "precision"
    assert one.provenance["widest_half_width"] <= 0.04
    assert one.games % 250 == 0 and one.games < 5000
    capped = simulate_precise(0.001, 750, threads=2, **kw)
    assert capped.games == 750 and capped.provenance["stopped_by"] == "max_games"
    # the games played are those of simulate with that many games
    plain = simlib.simulate(one.games, 4, seed=4, ruleset="calibrated", progress=False)
    assert plain.tables.equals(one.tables)


# =========================================================================== presets
def test_calibrated_preset_tags_every_change():
    ref, cal = load_ruleset("reference"), load_ruleset("calibrated")
    assert ref is load_ruleset("reference")
    changed = [k for k in ref.keys() if ref.get(k) != cal.get(k)]
    assert changed, "the preset changes something"
    for k in changed:
        assert cal.source(k) == "calibrated"
        assert ref.source(k) == "assumed"  # only assumed numbers were moved
    assert "calibrated" in SOURCES
    text = preset_path("calibrated").read_text()
    assert "simlib calibrate" in text  # the command that found it


def test_box_preset_stays_within_the_box():
    """The box preset moves only assumed horde counts (tagged calibrated), keeps the horde
    deck at the reference's (the box's) total, with Monsters in it, and the rubble deck
    untouched; its file says how it was found."""
    ref, box = load_ruleset("reference"), load_ruleset("box")
    changed = [k for k in ref.keys() if ref.get(k) != box.get(k)]
    assert changed and all(k.startswith("horde.") and k.endswith(".count") for k in changed)
    for k in changed:
        assert box.source(k) == "calibrated" and ref.source(k) == "assumed"
    horde = [k for k in ref.keys() if k.startswith("horde.") and k.endswith(".count")]
    rubble = [k for k in ref.keys() if k.startswith("rubble.") and k.endswith(".count")]
    assert sum(box.get(k) for k in horde) == sum(ref.get(k) for k in horde)
    assert [box.get(k) for k in rubble] == [ref.get(k) for k in rubble]
    assert box.get("horde.monster.count") >= 1
    assert box.get("horde.survivor.count") > ref.get("horde.survivor.count")
    assert box.lineage == "box"
    assert "distilled" in preset_path("box").read_text()


def test_default_study_uses_the_calibrated_preset(capsys):
    res = simlib.simulate(8, 4, progress=False)
    assert res.provenance["ruleset_fingerprint"] == load_ruleset("calibrated").fingerprint()
    assert main(["simulate", "--games", "8", "--players", "4", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Ruleset: calibrated preset" in out
    assert main(["simulate", "--games", "8", "--players", "4", "--no-progress",
                 "--rules", "reference"]) == 0
    assert "Ruleset: reference" in capsys.readouterr().out


def test_preset_ships_in_the_package_data():
    import tomllib

    cfg = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    data = cfg["tool"]["setuptools"]["package-data"]
    assert any("presets/*.toml" in pats for pats in data.values())
    deps = " ".join(cfg["project"]["dependencies"])
    assert "statsmodels" in deps and "SALib" in deps


# =========================================================================== CLI
def test_cli_compare_writes_csv_with_provenance(tmp_path, capsys):
    out = tmp_path / "c.csv"
    assert main(["compare", "--rules", "reference", "--set", "horde.survivor.count=200",
                 "--players", "4", "--games", "200", "--no-progress", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Newcombe" in text and "McNemar" in text and "games_per_s" in text
    df = pd.read_csv(out)
    assert set(df["grouping"]) == {"overall", "players", "character"}
    meta = json.loads(Path(str(out) + ".json").read_text())
    assert meta["provenance"]["instrument"] == "compare" and meta["provenance"]["seed"] == 0
    # an existing output is not replaced without --force
    assert main(["compare", "--rules", "reference", "--set", "horde.survivor.count=200",
                 "--players", "4", "--games", "200", "--no-progress", "--out", str(out)]) == 2


def test_cli_sweep_parquet_and_plot(tmp_path, capsys):
    out, png = tmp_path / "s.parquet", tmp_path / "s.png"
    assert main(["sweep", "--set", "horde.survivor.count=100:200:100", "--players", "4",
                 "--games", "100", "--rules", "reference", "--no-progress", "--out", str(out),
                 "--plot", str(png)]) == 0
    assert "horde.survivor.count" in capsys.readouterr().out
    import pyarrow.parquet as pq

    t = pq.read_table(out)
    assert t.num_rows == 2
    meta = json.loads(t.schema.metadata[b"simlib"])
    assert meta["provenance"]["instrument"] == "sweep"
    assert png.stat().st_size > 1000


BAD = [
    (["compare", "--set", "horde.nonsense.count=3"], "unknown enemy"),
    (["compare", "--set", "horde.monster.kill_hedas=3"], "unknown key"),
    (["compare", "--set", "horde.monster.count=-1"], "outside the allowed range"),
    (["compare", "--set", "horde.monster.count=many"], "is not a number"),
    (["compare", "--set", "horde.monster.count=2.5"], "not an integer"),
    (["compare", "--rules", "reference"], "compare two things"),
    (["compare", "--policy", "baseline", "--policy", "genius"], "unknown policy"),
    (["compare", "--set", "horde.monster.count=2", "--games", "0"], "positive integer"),
    (["sweep", "--set", "horde.monster.count=5:2:1"], "empty range"),
    (["sweep", "--set", "horde.monster.count=0:4:0"], "step must be positive"),
    (["sweep", "--set", "horde.monster.count=-2:4:2"], "outside the allowed range"),
    (["sweep", "--set", "horde.monster.count=a:4:2"], "is not a number"),
    (["sweep", "--set", "variants.trap_rewards=0:1:1"], "is not a number"),
    (["sweep"], "one or two --set"),
    (["sweep", "--set", "horde.monster.count=0:4:2", "--out", "{tmp}/x.txt"], "expected a .parquet or .csv"),
    (["sweep", "--set", "horde.monster.count=0:4:2", "--plot", "{tmp}/x.txt"], "expected a .png"),
    (["calibrate", "--param", "horde.survivor.count", "--target", "1.5"], "strictly between 0 and 1"),
    (["calibrate", "--param", "horde.survivor.count", "--target", "0"], "strictly between 0 and 1"),
    (["calibrate", "--param", "horde.survivor.count", "--target", "lots"], "is not a number"),
    (["calibrate", "--param", "horde.survivor.count"], "needs --target"),
    (["calibrate", "--param", "horde.gremlin.count", "--target", "0.3"], "unknown enemy"),
    (["calibrate", "--param", "horde.survivor.count", "--target", "0.3", "--range", "9:3"], "empty range"),
    (["calibrate", "--param", "horde.survivor.count", "--target", "0.3", "--range=-3:9"], "outside the allowed range"),
    (["calibrate", "--param", "policy.nerve", "--target", "0.3"], "unknown key"),
    (["sensitivity", "--param", "horde.monster.colour"], "unknown key"),
    (["sensitivity", "--param", "horde.monster.count=9:1"], "empty range"),
    (["sensitivity", "--top", "3"], "--top goes with --method sobol"),
    (["sensitivity", "--games", "-5"], "positive integer"),
    (["simulate", "--precision", "0"], "--precision must be in"),
    (["simulate", "--precision", "tight"], "is not a number"),
    (["simulate", "--max-games", "100"], "--max-games goes with --precision"),
    (["simulate", "--precision", "0.01", "--games", "100"], "use --max-games"),
    (["simulate", "--precision", "0.01", "--max-games", "0"], "positive integer"),
]


@pytest.mark.parametrize("argv,message", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_bad_input_one_line_exit_2_nothing_written(argv, message, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    out = tmp_path / "result.parquet"
    extra = [] if "--out" in argv else ["--out", str(out)]
    if argv[0] == "simulate" and "--out" not in argv:
        extra = ["--out", str(out)]
    code = main(argv + extra + ["--no-progress"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1, err
    assert message in err, err
    assert list(tmp_path.iterdir()) == []


def test_sobol_on_request():
    res = simlib.sensitivity({"horde.survivor.count": (100, 250), "constants.stalemate_cap": (45, 55)},
                             method="sobol", sobol_samples=8, games=100, players=4, progress=False)
    t = res.table[res.table["output"] == "win_rate"].set_index("key")
    assert res.provenance["evaluations"] == 8 * (3 + 2)  # Saltelli, first and total order
    assert t.loc["horde.survivor.count", "rank"] == 1
    assert {"ST", "ST_conf", "S1", "S1_conf"} <= set(t.columns)


def test_sobol_intervals_repeat_with_seed_zero():
    """The same seed gives the same Sobol table, intervals included, for seed 0 too (SALib
    leaves its bootstrap unseeded for a seed that is 0)."""
    kw = dict(method="sobol", sobol_samples=8, games=40, players=4, progress=False, seed=0)
    params = {"horde.survivor.count": (100, 250), "constants.stalemate_cap": (45, 55)}
    a, b = (simlib.sensitivity(params, **kw).table for _ in range(2))
    assert a["ST_conf"].notna().all() and (a["ST_conf"] > 0).any()
    pd.testing.assert_frame_equal(a, b)


def test_sobol_text_explains_its_own_indices(capsys):
    """The printed Sobol table shows each value's range and explains ST and S1, not the
    Morris screening's mu* and sigma."""
    assert main(["sensitivity", "--method", "sobol", "--samples", "4", "--games", "20",
                 "--players", "4", "--param", "horde.survivor.count=100:250",
                 "--param", "constants.stalemate_cap=45:55", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "ST: total Sobol index" in out and "mu*" not in out
    row = next(ln for ln in out.splitlines() if "horde.survivor.count" in ln)
    assert "100..250" in row
