"""The game contract, checked the same way for every registered game (in the spirit of
OpenSpiel's random-simulation test): a new game gets these tests by registering.

Pig (``tests/pig_game``), a test-only game written from ``docs/adding-a-game.md`` alone,
runs with them: it is registered here through ``$SIMLIB_GAMES``, the way a game outside
the package is added without packaging it.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simlib.core import games as registry
from simlib.core.games import GameInfo, StepGame, StudyAdapter, game_names, get_game

HERE = Path(__file__).resolve().parent
PIG = "pig=pig_game.game:GAME"
SHIPPED = [n for n in game_names()]
GAMES = SHIPPED + ["pig"]

# small studies: a few hundred games of each game's own default player
GAMES_PER_TEST = 120
RANDOM_GAMES = 6  # games played to the end by random choices, per seed
SEEDS = (0, 1, 2)
STEP_CAP = 200_000  # decisions: a game that does not end within it is a bug


# Pig joins the registry for this module (conftest.py's pig_registered)
pytestmark = pytest.mark.usefixtures("pig_registered")


def _env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(HERE), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def _small_players(info: GameInfo):
    """The smallest table the game's default study plays (fast games)."""
    return min(info.adapter().players)


def _same(a, b) -> bool:
    """Equal record values, nulls equal to nulls."""
    if (a is None or a is pd.NA or (isinstance(a, float) and np.isnan(a))) and \
            (b is None or b is pd.NA or (isinstance(b, float) and np.isnan(b))):
        return True
    return bool(a == b)


def _assert_same_record(step: dict, row: dict, what: str) -> None:
    assert set(step) == set(row), f"{what}: the step record's columns differ from run_chunk's"
    bad = {k: (step[k], row[k]) for k in row if not _same(step[k], row[k])}
    assert not bad, f"{what}: {bad}"


def _tables_equal(a, b) -> None:
    names = list(a.tables)
    assert names == list(b.tables)
    for n in names:
        pd.testing.assert_frame_equal(a.tables[n], b.tables[n], check_exact=True, obj=n)


# =========================================================================== declaration
@pytest.mark.parametrize("name", GAMES)
def test_the_declaration_is_whole(name):
    info = get_game(name)
    assert isinstance(info, GameInfo) and info.kind in registry.KINDS
    assert info.default_policy in info.policies, "the default policy is one of its policies"
    for p in info.policy_names():
        spec = info.policy_spec(p)
        assert len(spec.param_names) == len(spec.defaults) and isinstance(spec.doc, str)
    for preset in info.presets:
        rules = info.load_ruleset(preset)
        assert rules.lineage == preset and rules.fingerprint()
    assert info.load_ruleset(None).fingerprint() == info.load_ruleset(info.default_ruleset).fingerprint()
    ad = info.adapter()
    assert isinstance(ad, StudyAdapter) and ad.game == info.name
    assert ad.rules.fingerprint() == info.load_ruleset(None).fingerprint(), \
        "ruleset=None is the declared default"
    assert info.default_games(ad) > 0
    assert isinstance(ad.step_game(0), StepGame) and isinstance(ad.step_game(0), info.step)
    if not info.competitive:
        with pytest.raises(ValueError, match="cooperative"):
            info.adapter(seats=[[info.default_policy] * 2])


# =========================================================================== random play
@pytest.mark.parametrize("name", GAMES)
def test_random_play_ends_with_every_invariant_kept(name):
    info = get_game(name)
    rng = np.random.default_rng(7)
    for seed in SEEDS:
        ad = info.adapter(seed=seed)
        for i in range(RANDOM_GAMES):
            g = ad.step_game(i)
            steps = 0
            while not g.over:
                acts = g.legal_actions()
                assert acts and all(isinstance(a, str) and a for a in acts), g.describe()
                assert g.violation() == "none", (seed, i, g.violation(), g.describe())
                g.apply(int(rng.integers(len(acts))))
                steps += 1
                assert steps < STEP_CAP, f"game {i} of seed {seed} does not end"
            assert g.violation() == "none", (seed, i, g.violation())
            assert g.legal_actions() == []
            with pytest.raises(ValueError):
                g.apply(0)
            assert isinstance(g.describe(), str) and g.describe()
            assert set(g.result) and set(g.record()) == set(ad.run_chunk(i, 1).columns)


@pytest.mark.parametrize("name", GAMES)
def test_a_bad_action_index_is_refused_and_changes_nothing(name):
    g = get_game(name).adapter().step_game(3)
    before = g.describe()
    n = len(g.legal_actions())
    for bad in (-1, n, 1.5, "0"):
        with pytest.raises(ValueError):
            g.apply(bad)
    assert g.describe() == before


# =========================================================================== step == batch
@pytest.mark.parametrize("name", GAMES)
def test_the_step_api_plays_the_batch_games(name):
    """Game i driven decision by decision with each seat's own player is the very game the
    batch kernel plays (same record, field by field)."""
    info = get_game(name)
    ad = info.adapter(seed=5)
    n = 16
    rows = ad.run_chunk(0, n).to_dict("records")
    for i in range(n):
        g = ad.step_game(i)
        while not g.over:
            g.apply(g.policy_choice())
        _assert_same_record(g.record(), rows[i], f"{name} game {i}")
        h = ad.step_game(i).play()
        _assert_same_record(h.record(), rows[i], f"{name} game {i} (play)")


@pytest.mark.parametrize("name", GAMES)
def test_a_clone_and_its_original_given_the_same_actions_end_identically(name):
    info = get_game(name)
    rng = np.random.default_rng(3)
    ad = info.adapter(seed=2)
    for i in range(4):
        g = ad.step_game(i)
        for _ in range(int(rng.integers(0, 12))):
            if g.over:
                break
            g.apply(int(rng.integers(len(g.legal_actions()))))
        c = g.clone()
        before = g.describe()
        if not c.over:
            c.apply(int(rng.integers(len(c.legal_actions()))))
        assert g.describe() == before, "acting on a clone changed its original"
        c = g.clone()
        seq = np.random.default_rng(i)
        while not g.over:
            k = int(seq.integers(len(g.legal_actions())))
            assert g.legal_actions() == c.legal_actions()
            g.apply(k)
            c.apply(k)
        assert c.over
        _assert_same_record(c.record(), g.record(), f"{name} clone of game {i}")


# =========================================================================== studies
@pytest.mark.parametrize("name", GAMES)
def test_tables_do_not_depend_on_threads_or_chunks(name):
    info = get_game(name)
    p = _small_players(info)
    a = info.simulate(GAMES_PER_TEST, p, seed=4, threads=1, chunk_size=GAMES_PER_TEST,
                      progress=False)
    b = info.simulate(GAMES_PER_TEST, p, seed=4, threads=2, chunk_size=37, progress=False)
    _tables_equal(a, b)
    pd.testing.assert_frame_equal(a.records, b.records)
    c = info.simulate(GAMES_PER_TEST, p, seed=4, threads=1, chunk_size=50, keep_records=False,
                      progress=False)
    _tables_equal(a, c)


@pytest.mark.parametrize("name", GAMES)
def test_the_dask_backend_gives_the_same_tables(name):
    pytest.importorskip("distributed")
    info = get_game(name)
    p = _small_players(info)
    local = info.simulate(60, p, seed=9, chunk_size=20, progress=False)
    dask = info.simulate(60, p, seed=9, chunk_size=20, backend="dask", workers=1,
                         progress=False)
    _tables_equal(local, dask)


@pytest.mark.parametrize("name", GAMES)
def test_a_killed_study_resumes_to_the_same_tables(name, tmp_path):
    """``simlib simulate --game G --out`` SIGKILLed after its second chunk, then run again:
    the tables of an uninterrupted run."""
    info = get_game(name)
    p = _small_players(info)
    out = tmp_path / "r.parquet"
    cmd = [sys.executable, "-m", "simlib.cli", "simulate", "--game", info.cli_name, "--games",
           "90", "--players", str(p), "--seed", "3", "--chunk-size", "30", "--out", str(out),
           "--no-progress"]
    env = _env()
    killed = subprocess.run(cmd, env=dict(env, SIMLIB_FAULT="chunk-renamed:1"),
                            capture_output=True, text=True, timeout=600)
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert not out.exists() and (tmp_path / "r.parquet.parts").is_dir()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    whole = info.simulate(90, p, seed=3, chunk_size=30, progress=False)
    _tables_equal(info.load_result(out), whole)


BAD_INPUTS = [
    ("simulate", ["--players", "99"]),
    ("simulate", ["--rules", "no-such-ruleset.toml"]),
    ("simulate", ["--policy", "no-such-policy"]),
    ("trace", ["--players", "99"]),
    ("compare", ["--set", "no.such.key=1"]),
    ("sweep", ["--set", "no.such.key=1:3"]),
    ("calibrate", ["--param", "no.such.key", "--target", "0.3", "--range", "1:3"]),
    ("sensitivity", ["--games", "0"]),
]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("command, args", BAD_INPUTS, ids=[f"{c} {' '.join(a)}" for c, a in BAD_INPUTS])
def test_every_command_refuses_bad_input_in_one_line(name, command, args, tmp_path, capsys,
                                                     monkeypatch):
    from simlib.cli import main

    monkeypatch.chdir(tmp_path)
    code = main([command, "--game", get_game(name).cli_name, *args])
    cap = capsys.readouterr()
    assert code == 2, cap.err
    assert cap.err.count("\n") == 1 and cap.err.startswith(f"simlib {command}"), cap.err
    assert cap.out == "" and list(tmp_path.iterdir()) == []


# =========================================================================== report, trace
@pytest.mark.parametrize("name", GAMES)
def test_the_html_report_and_the_text_render(name, tmp_path):
    info = get_game(name)
    res = info.simulate(GAMES_PER_TEST, _small_players(info), seed=1, progress=False)
    text = info.render(res, False)
    assert info.display_name in text and str(res.games) in text
    path = info.report(res, title="conformance", command="simlib simulate").write(tmp_path / "r.html")
    page = Path(path).read_text()
    assert page.startswith("<!DOCTYPE html>") or "<html" in page[:200]
    assert "conformance" in page and "<table" in page


@pytest.mark.parametrize("name", GAMES)
def test_the_trace_is_the_record_s_game(name):
    """A trace is a pure function of the game: the same game gives the same text, and two
    games with different records give different traces."""
    info = get_game(name)
    ad = info.adapter(seed=6)
    rows = ad.run_chunk(0, 6).to_dict("records")
    traces = [info.trace(ad, i) for i in range(6)]
    assert all(isinstance(t, str) and t.strip() for t in traces)
    assert info.trace(ad, 2) == traces[2]
    for i in range(6):
        for j in range(i):
            differ = any(not _same(rows[i][k], rows[j][k]) for k in rows[i] if k != "game")
            if differ:
                assert traces[i] != traces[j], (i, j)


@pytest.mark.parametrize("name", GAMES)
def test_sensitivity_ranges_stay_within_what_the_ruleset_allows(name):
    """The sensitivity's default ranges of every assumed number can be loaded: each within
    its field's bounds, and a number the ruleset pins to one value is left out."""
    from simlib.core.instruments import assumed_params

    info = get_game(name)
    rules = info.load_ruleset(info.sensitivity_ruleset)
    table = assumed_params(rules, game=info)
    for row in table.itertuples():
        fld = rules.field(row.key)
        assert row.lo < row.hi, row
        assert fld.min is None or row.lo >= fld.min, row
        assert fld.max is None or row.hi <= fld.max, row
        for v in (row.lo, row.hi):
            rules.override({row.key: v})  # loads: the validator agrees


@pytest.mark.parametrize("name", SHIPPED)
def test_the_game_s_benches_are_guarded(name):
    """Every shipped game declares speed benches, and the guard has a floor for each."""
    from simlib.core.bench import DEFAULT_FLOORS, load_floors

    benches = get_game(name).bench_factories()
    assert benches, f"{name} declares no speed bench"
    if DEFAULT_FLOORS is None:
        pytest.skip("no benchmarks/ folder (an installed simlib)")
    _, floors = load_floors(DEFAULT_FLOORS)
    missing = [b for b in benches if b not in floors]
    assert not missing, f"benches without a floor in benchmarks/floors.toml: {missing}"
