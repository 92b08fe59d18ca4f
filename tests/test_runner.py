"""Batch runner, tables and statistics: arithmetic, determinism, resume, Dask backend.

Every simulation here goes through ``api.run_kernel`` with the same argument types, so
the whole suite compiles the game kernel at most once (then loads it from the cache).
Runs are small (a few hundred games): they test bookkeeping, not the game.
"""
from __future__ import annotations

import io
import math
import time

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st
from scipy.stats import binomtest

from simlib.core.runner import (BackendError, ChunkPlan, OutputExistsError, RunError, read_output,
                                run)
from simlib.core.stats import rate_columns, wilson_interval
from simlib.core.tables import Counts, TableSpec, count_records, make_tables, rate_matrix
from simlib.games.until_daylight import api, load_result, simulate
from simlib.games.until_daylight.study import TABLE_SPEC, default_games, make_adapter

# a lighter night than the reference (5 rounds, waves of `round` cards), where the baseline
# wins about 40 % of games: the tables' win columns are exercised, and a ruleset that is
# neither of the studies' defaults (calibrated preset, or play_games' reference) shows it
# travels through the runner, the chunks, the store and Dask
LIGHT = api.load_ruleset("reference").override({"constants.rounds": 5, "constants.wave_per_player": 0})
STUDY = dict(games=600, players=[3, 4, 5, 6], seed=11, progress=False, ruleset=LIGHT)


def scipy_ci(k, n, confidence=0.95):
    ci = binomtest(int(k), int(n)).proportion_ci(confidence_level=confidence, method="wilson")
    return ci.low, ci.high


def assert_same_run(a, b):
    assert a.tables.equals(b.tables)
    assert a.counts.equals(b.counts)
    if a.records is not None and b.records is not None:
        pd.testing.assert_frame_equal(a.records, b.records, check_exact=True)


# =========================================================================== statistics
@pytest.mark.parametrize("confidence", [0.8, 0.95, 0.99])
def test_wilson_equals_scipy(confidence):
    ks, ns, expect_lo, expect_hi = [], [], [], []
    for n in [1, 2, 3, 7, 10, 50, 333, 10_000]:
        for k in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            lo, hi = scipy_ci(k, n, confidence)
            ks.append(k), ns.append(n), expect_lo.append(lo), expect_hi.append(hi)
    lo, hi = wilson_interval(np.array(ks), np.array(ns), confidence)
    np.testing.assert_allclose(lo, expect_lo, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(hi, expect_hi, rtol=1e-12, atol=1e-15)


def test_wilson_edges():
    lo, hi = wilson_interval([0, 5], [0, 5])
    assert np.isnan(lo[0]) and np.isnan(hi[0])
    assert hi[1] == 1.0
    r = rate_columns([0], [0])
    assert np.isnan(r["rate"][0])
    with pytest.raises(ValueError):
        wilson_interval(3, 2)
    with pytest.raises(ValueError):
        wilson_interval(1, 2, confidence=1.0)


# =========================================================================== tables by hand
SEATS = [f"character_{s}" for s in range(6)]


def hand_frame() -> pd.DataFrame:
    """Six games of four characters a..d (wins: games 0 and 3)."""
    games = [  # players, win, loss cause, dead character, team in seat order, round reached
        (3, True, "none", None, ["a", "b", "c"], 10),
        (3, False, "character_died", "b", ["a", "b", "d"], 2),
        (4, False, "stalemate", None, ["a", "b", "c", "d"], 10),
        (4, True, "none", None, ["b", "c", "d", "a"], 10),
        (3, False, "character_died", "a", ["c", "d", "a"], 2),
        (4, False, "no_survivor_saved", None, ["a", "b", "c", "d"], 10),
    ]
    rows = []
    for i, (p, w, cause, dead, team, rnd) in enumerate(games):
        row = {"game": i, "players": p, "win": w, "loss_cause": cause, "dead_character": dead,
               "round_reached": rnd}
        for s in range(6):
            row[SEATS[s]] = team[s] if s < len(team) else None
        row["team"] = "+".join(sorted(team))
        rows.append(row)
    return pd.DataFrame(rows)


def check_rates(table, num):
    """Every row's rate and interval against scipy."""
    for (_, row) in table.iterrows():
        k, n = int(row[num]), int(row["games"])
        lo, hi = scipy_ci(k, n)
        rate = row["win_rate" if num == "wins" else "rate"]
        assert rate == pytest.approx(k / n, abs=1e-15)
        assert row["ci_low"] == pytest.approx(lo, abs=1e-12)
        assert row["ci_high"] == pytest.approx(hi, abs=1e-12)


def as_dict(table, num):
    return {k: (int(r["games"]), int(r[num])) for k, r in table.iterrows()}


def test_tables_by_hand():
    t = make_tables(count_records(hand_frame(), TABLE_SPEC))
    assert as_dict(t.overall, "wins") == {0: (6, 2)}
    assert as_dict(t.by_players, "wins") == {3: (3, 1), 4: (3, 1)}
    assert as_dict(t.by_character, "wins") == {"a": (6, 2), "b": (5, 2), "c": (5, 2), "d": (5, 1)}
    assert as_dict(t.by_character_players, "wins") == {
        ("a", 3): (3, 1), ("a", 4): (3, 1), ("b", 3): (2, 1), ("b", 4): (3, 1),
        ("c", 3): (2, 1), ("c", 4): (3, 1), ("d", 3): (2, 0), ("d", 4): (3, 1)}
    assert as_dict(t.by_team, "wins") == {"a+b+c": (1, 1), "a+b+d": (1, 0),
                                          "a+b+c+d": (3, 1), "a+c+d": (1, 0)}
    assert as_dict(t.loss_causes, "count") == {
        "character_died": (6, 2), "no_survivor_saved": (6, 1), "stalemate": (6, 1)}
    assert as_dict(t.loss_causes_by_players, "count") == {
        (3, "character_died"): (3, 2), (3, "no_survivor_saved"): (3, 0), (3, "stalemate"): (3, 0),
        (4, "character_died"): (3, 0), (4, "no_survivor_saved"): (3, 1), (4, "stalemate"): (3, 1)}
    assert as_dict(t.loss_causes_by_character, "count")[("d", "character_died")] == (5, 2)
    assert as_dict(t.loss_causes_by_team, "count")[("a+b+c+d", "stalemate")] == (3, 1)
    assert as_dict(t.by_players_round, "wins") == {(3, 2): (2, 0), (3, 10): (1, 1),
                                                   (4, 10): (3, 1)}
    assert as_dict(t.loss_causes_by_players_round, "count")[(3, 2, "character_died")] == (2, 2)
    assert as_dict(t.deaths, "count") == {"a": (6, 1), "b": (6, 1)}
    assert as_dict(t.deaths_by_players, "count") == {
        (3, "a"): (3, 1), (3, "b"): (3, 1), (4, "a"): (3, 0), (4, "b"): (3, 0)}
    # "which character died": per character, how often *that* character died
    assert as_dict(t.deaths_by_character, "count") == {"a": (6, 1), "b": (5, 1), "c": (5, 0),
                                                       "d": (5, 0)}
    assert as_dict(t.deaths_by_character_players, "count") == {
        ("a", 3): (3, 1), ("a", 4): (3, 0), ("b", 3): (2, 1), ("b", 4): (3, 0),
        ("c", 3): (2, 0), ("c", 4): (3, 0), ("d", 3): (2, 0), ("d", 4): (3, 0)}
    for table in t.values():
        check_rates(table, "wins" if "win_rate" in table.columns else "count")
    m = rate_matrix(t.by_character_players, "character", "players")
    assert m.loc["d", 3] == "0.0 [0.0, 65.8]"
    assert "by_character" in repr(t) and "deaths by character" in t.to_text()


def test_counts_add_and_store():
    df = hand_frame()
    whole = count_records(df, TABLE_SPEC)
    parts = Counts.empty(TABLE_SPEC)
    for i in range(len(df)):  # one game at a time, in an odd order
        parts = count_records(df.iloc[[(i * 5) % 6]], TABLE_SPEC) + parts
    assert whole.equals(parts)
    buf = io.BytesIO()
    whole.to_frame().to_parquet(buf)
    buf.seek(0)
    assert Counts.from_frame(TABLE_SPEC, pd.read_parquet(buf)).equals(whole)


def drawn_frame(games):
    """A records frame of hypothesis-drawn games ``(players, win, cause, team order, round)``."""
    rows = []
    for p, w, cause, perm, rnd in games:
        row = {"players": p, "win": w, "loss_cause": "none" if w else cause, "round_reached": rnd,
               "dead_character": None if w or cause != "x" else perm[0]}
        for s in range(6):
            row[SEATS[s]] = perm[s] if s < p else None
        row["team"] = "+".join(sorted(perm[:p]))
        rows.append(row)
    return pd.DataFrame(rows)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(3, 4), st.booleans(), st.sampled_from(["x", "y", "z"]),
                          st.permutations(["a", "b", "c", "d"]), st.integers(1, 10)),
                min_size=1, max_size=30),
       st.integers(1, 29))
def test_counts_are_additive(games, cut):
    df = drawn_frame(games)
    cut = min(cut, len(df))
    whole = count_records(df, TABLE_SPEC)
    split = count_records(df.iloc[:cut], TABLE_SPEC) + count_records(df.iloc[cut:], TABLE_SPEC)
    assert make_tables(whole).equals(make_tables(split))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(3, 4), st.booleans(), st.sampled_from(["x", "y", "z"]),
                          st.permutations(["a", "b", "c", "d"]), st.integers(1, 10)),
                min_size=1, max_size=30),
       st.permutations(["d", "a", "e", "c", "b"]), st.permutations(["z", "none", "y", "w", "x"]))
def test_categorical_columns_count_as_their_text(games, names, causes):
    """``count_records`` reads a ``pandas.Categorical`` column from its codes (a kernel's
    codes with their names, as Until Daylight's adapter passes them): in any category
    order, unused categories included, the counts equal those of the same text."""
    text = drawn_frame(games)
    coded = text.copy()
    for c in list(SEATS) + ["dead_character"]:
        coded[c] = pd.Categorical(text[c], categories=list(names))
    coded["loss_cause"] = pd.Categorical(text["loss_cause"], categories=list(causes))
    assert count_records(coded, TABLE_SPEC).equals(count_records(text, TABLE_SPEC))
    columns = {c: coded[c].array if isinstance(coded[c].dtype, pd.CategoricalDtype)
               else coded[c].to_numpy() for c in coded.columns}  # the counts-only path
    assert count_records(columns, TABLE_SPEC).equals(count_records(text, TABLE_SPEC))


def test_spec_errors():
    spec = TableSpec(groupings=(("all", ()),))
    with pytest.raises(KeyError):
        spec.keys_of("nope")
    with pytest.raises(ValueError):
        Counts.empty(spec) + Counts.empty(TABLE_SPEC)


# =========================================================================== plan and configs
def test_chunk_plan():
    plan = ChunkPlan(1003, 100)
    assert plan.n_chunks == 11
    spans = list(plan)
    assert spans[0] == (0, 100) and spans[-1] == (1000, 3)
    assert sum(c for _, c in spans) == 1003
    for bad in [(0, 10), (10, 0), (-1, 10)]:
        with pytest.raises(RunError):
            ChunkPlan(*bad)


@pytest.mark.parametrize("characters", [None, "all", [["pillar", "trigger", "psycho"],
                                                      ["hipster", "haggler", "drifter", "pillar"]]])
def test_configs_are_a_function_of_the_game_index(characters):
    ad = make_adapter(None, characters, seed=1)
    npl, chars = ad.configs(0, 500)
    for start, count in [(0, 7), (13, 100), (250, 250), (499, 1)]:
        p2, c2 = ad.configs(start, count)
        np.testing.assert_array_equal(p2, npl[start:start + count])
        np.testing.assert_array_equal(c2, chars[start:start + count])
    nc = len(ad.players)
    np.testing.assert_array_equal(npl, np.asarray(ad.players)[np.arange(500) % nc])
    if characters is None:
        assert (chars == -1).all()


def test_all_teams_cycle_evenly():
    ad = make_adapter([3, 4], "all")
    cycle = ad.cycle()
    assert cycle == 2 * math.lcm(20 * 3, 15 * 4)
    npl, chars = ad.configs(0, cycle)
    teams = pd.DataFrame({"players": npl,
                          "team": ["+".join(sorted(map(str, r[:p]))) for p, r in zip(npl, chars)]})
    counts = teams.value_counts()
    assert len(counts) == 20 + 15
    assert counts.groupby(level="players").nunique().eq(1).all()  # every team equally often
    seat0 = pd.Series(chars[npl == 3, 0]).value_counts()  # seats rotate: no fixed seat 0
    assert seat0.nunique() == 1 and len(seat0) == 6
    assert default_games(ad) % cycle == 0 and default_games(ad) >= 80_000


def test_fixed_teams_and_errors():
    ad = make_adapter(None, ["pillar", "trigger", "psycho"])
    assert ad.players == (3,) and ad.game_setup(5) == (3, ["pillar", "trigger", "psycho"])
    for bad in [dict(players=[2]), dict(players=[3, 3]), dict(players=[3, 7]),
                dict(characters=["pillar", "bob", "psycho"]),
                dict(characters=["pillar", "pillar", "psycho"]),
                dict(characters=["pillar", "trigger", "psycho"], players=[4]),
                dict(characters=[["pillar", "trigger", "psycho"]], players=[3, 4]),
                dict(characters="some"), dict(seed=-1), dict(policy="nope"),
                dict(policy_params={"nope": 1})]:
        kw = dict(players=None, characters=None)
        kw.update(bad)
        with pytest.raises(ValueError):
            make_adapter(kw.pop("players"), kw.pop("characters"), **kw)
    with pytest.raises(ValueError):
        simulate(games=0, progress=False)


# =========================================================================== determinism
@pytest.fixture(scope="module")
def reference():
    """The study with 2 numba threads, one chunk, records kept."""
    return simulate(**STUDY, chunk_size=600, threads=2)


def test_reference_study(reference):
    rec = reference.records
    assert reference.complete and reference.games == 600 and len(rec) == 600
    assert (rec["game"].to_numpy() == np.arange(600)).all()
    assert (rec["players"].to_numpy() == np.tile([3, 4, 5, 6], 150)).all()
    t = reference.tables
    assert t.by_players["games"].tolist() == [150] * 4
    assert t.by_character["games"].sum() == 150 * (3 + 4 + 5 + 6)
    assert t.loss_causes["games"].eq(600).all()
    p = reference.provenance
    for key in ["seed", "games", "ruleset_fingerprint", "policy", "policy_params", "players",
                "teams", "simlib_version", "numba_version", "backend", "chunk_size", "started",
                "elapsed_s"]:
        assert key in p
    assert p["ruleset_fingerprint"] == LIGHT.fingerprint() != api.load_ruleset("reference").fingerprint()
    assert p["teams"] == "random" and p["players"] == [3, 4, 5, 6]
    # the light ruleset was played: nights of 5 rounds, and games are won and lost
    assert rec["round_reached"].max() == 5
    assert 0.2 < rec["win"].mean() < 0.8
    assert 0 < t.overall["wins"].iloc[0] < 600
    assert (t.by_players["wins"] > 0).all() and (t.by_character["wins"] > 0).all()


def test_records_match_the_kernel_directly(reference):
    # game i of the study is play_games' game i with the same table
    # (2 games a call: with 1, play_games hands the kernel a read-only team array, a new
    # signature and a second compile)
    rec = api.records_frame(np.concatenate([api.play_games(2, players=4, seed=11, start=g,
                                                           ruleset=LIGHT)[:1]
                                            for g in (5, 9, 13, 17)]), LIGHT)
    rows = reference.records[reference.records["game"].isin([5, 9, 13, 17])]
    assert rows["players"].eq(4).all()
    for col in ["game", "win", "loss_cause", "round_reached", "team", "dead_character"]:
        assert rec[col].tolist() == rows[col].tolist()


@pytest.mark.parametrize("kw", [dict(chunk_size=600, threads=1), dict(chunk_size=97, threads=2),
                                dict(chunk_size=250, threads=1), dict(chunk_size=1000)])
def test_same_tables_any_threads_and_chunks(reference, kw):
    assert_same_run(reference, simulate(**STUDY, **kw))


def test_counts_only_run_gives_the_same_tables(reference):
    res = simulate(**STUDY, chunk_size=128, keep_records=False)
    assert res.records is None
    assert_same_run(reference, res)


def test_records_are_joined_on_first_access_in_game_order():
    """A run keeps its chunks' records (Until Daylight's still as the kernel's, deferred)
    and makes them one frame when ``records`` is first read: the tables and
    ``has_records`` do not, and the frame is every game in order, the frame ``run_chunk``
    gives, with the progress bar (a chunk a unit) or without it (units of chunks)."""
    from simlib.core.games import DeferredRecords

    for progress in (False, True):
        res = simulate(**{**STUDY, "progress": progress}, chunk_size=97)
        assert res.has_records and res._records._frame is None  # not joined yet
        assert all(isinstance(p, DeferredRecords) for p in res._records._parts)  # nor decoded
        assert res.tables.overall["games"].iloc[0] == 600 and res._records._frame is None
        rec = res.records
        assert rec["game"].tolist() == list(range(600)) and rec.index.tolist() == list(range(600))
        assert res.records is rec  # joined once
        whole = make_adapter(STUDY["players"], seed=STUDY["seed"], ruleset=LIGHT).run_chunk(0, 600)
        pd.testing.assert_frame_equal(rec, whole)
    assert not simulate(**STUDY, keep_records=False).has_records


def test_counts_only_path_equals_counting_the_records():
    ad = make_adapter([3, 4, 5, 6], seed=5)
    assert ad.run_chunk_counts(17, 300).equals(ad.aggregate(ad.run_chunk(17, 300)))
    fixed = make_adapter(None, [["pillar", "trigger", "psycho"], ["hipster", "haggler", "drifter"]],
                         seed=5)
    assert fixed.run_chunk_counts(0, 50).equals(fixed.aggregate(fixed.run_chunk(0, 50)))


def test_automatic_counts_only_above_the_record_limit(reference):
    ad = make_adapter([3, 4, 5, 6], seed=11, ruleset=LIGHT)
    res = run(ad, 600, chunk_size=200, record_limit=599, progress=False)
    assert res.records is None and res.provenance["stored"] == "counts"
    assert res.tables.equals(reference.tables)


def test_another_seed_gives_other_games(reference):
    other = simulate(**{**STUDY, "seed": 12}, chunk_size=600)
    assert not other.records["round_reached"].equals(reference.records["round_reached"])
    assert not other.tables.equals(reference.tables)


def test_trace_is_a_game_of_the_study(reference):
    ad = make_adapter([3, 4, 5, 6], seed=11, ruleset=LIGHT)
    p, names = ad.game_setup(6)
    rec, events = api.trace_game(seed=11, players=p, characters=names, game=6, ruleset=LIGHT)
    row = reference.records.iloc[6]
    assert int(rec["players"]) == row["players"] == 5 and len(events) > 0
    assert int(rec["round_reached"]) == row["round_reached"]
    assert int(rec["rubble_drawn"]) == row["rubble_drawn"]


# =========================================================================== store and resume
def test_resume_after_stop_equals_a_clean_run(reference, tmp_path):
    out = tmp_path / "study.parquet"
    part = simulate(**STUDY, chunk_size=100, out=out, max_chunks=2)
    assert not part.complete and not out.exists()
    parts = sorted(p.name for p in (tmp_path / "study.parquet.parts").iterdir())
    assert parts == ["chunk-000000.parquet", "chunk-000001.parquet", "manifest.json"]
    done = simulate(**STUDY, chunk_size=100, out=out)
    assert done.complete and done.provenance["chunks_resumed"] == 2
    assert_same_run(reference, done)
    assert out.exists() and not (tmp_path / "study.parquet.parts").exists()
    assert_same_run(reference, load_result(out))
    kind, _, meta = read_output(out)
    assert kind == "records" and meta["provenance"]["seed"] == 11


def test_resume_after_lost_chunks_counts_only(reference, tmp_path):
    out = tmp_path / "agg.parquet"
    simulate(**STUDY, chunk_size=100, out=out, keep_records=False, max_chunks=5)
    parts = tmp_path / "agg.parquet.parts"
    (parts / "chunk-000001.parquet").unlink()
    (parts / "chunk-000003.parquet").unlink()
    done = simulate(**STUDY, chunk_size=100, out=out, keep_records=False)
    assert done.provenance["chunks_resumed"] == 3
    assert done.tables.equals(reference.tables)
    saved = load_result(out)
    assert saved.records is None and saved.tables.equals(reference.tables)


def test_output_conflicts_are_refused(tmp_path):
    out = tmp_path / "r.parquet"
    simulate(**STUDY, chunk_size=300, out=out, max_chunks=1)
    with pytest.raises(OutputExistsError, match="different run"):
        simulate(**{**STUDY, "seed": 99}, chunk_size=300, out=out)
    with pytest.raises(OutputExistsError, match="different run"):
        simulate(**STUDY, chunk_size=200, out=out)  # chunk files would not line up
    first = simulate(**STUDY, chunk_size=300, out=out)
    stamp = out.stat().st_mtime_ns
    with pytest.raises(OutputExistsError, match="exists"):
        simulate(**STUDY, chunk_size=300, out=out)
    assert out.stat().st_mtime_ns == stamp
    again = simulate(**{**STUDY, "seed": 99}, chunk_size=300, out=out, overwrite=True)
    assert load_result(out).provenance["seed"] == 99
    assert not again.tables.equals(first.tables)
    with pytest.raises(RunError, match="does not exist"):
        simulate(**STUDY, out=tmp_path / "no" / "x.parquet")
    assert not (tmp_path / "no").exists()


def test_read_output_errors(tmp_path):
    with pytest.raises(RunError, match="no such file"):
        read_output(tmp_path / "none.parquet")
    bad = tmp_path / "bad.parquet"
    bad.write_text("not parquet")
    with pytest.raises(RunError, match="cannot read"):
        read_output(bad)
    plain = tmp_path / "plain.parquet"
    pd.DataFrame({"a": [1]}).to_parquet(plain)
    with pytest.raises(RunError, match="not a simlib output"):
        read_output(plain)
    # an instrument's table is a simlib output, but not a study's: said so, with what reads it
    from simlib.core.instruments import write_frame

    table = tmp_path / "c.parquet"
    write_frame(pd.DataFrame({"a": [1]}), table, {"game": "until_daylight"}, "compare", False)
    with pytest.raises(RunError, match="a `simlib compare` table, not a study's results"):
        read_output(table)


# =========================================================================== progress
def test_progress_silent_unless_asked(capfd):
    simulate(games=8, players=[4], seed=1)  # stderr is not a terminal under pytest
    assert capfd.readouterr().err == ""
    simulate(games=8, players=[4], seed=1, progress=False)
    assert capfd.readouterr().err == ""
    simulate(games=8, players=[4], seed=1, progress=True, chunk_size=4)
    err = capfd.readouterr().err
    assert "100%" in err and "8.00/8.00" in err and "game/s" in err


# =========================================================================== dask
@pytest.fixture(scope="module")
def dask_cluster():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       host="127.0.0.1", dashboard_address="127.0.0.1:0")
    yield cluster
    cluster.close()


def test_dask_backend_on_a_given_scheduler(reference, dask_cluster, tmp_path):
    addr = dask_cluster.scheduler_address
    assert addr.startswith("tcp://127.0.0.1:")
    res = simulate(**STUDY, chunk_size=70, backend="dask", scheduler=addr, out=tmp_path / "d.parquet")
    assert res.provenance["backend"] == "dask"
    assert_same_run(reference, res)
    assert_same_run(reference, load_result(tmp_path / "d.parquet"))
    part = simulate(**STUDY, chunk_size=70, backend="dask", scheduler=addr, keep_records=False,
                    out=tmp_path / "e.parquet", max_chunks=3)
    assert not part.complete
    done = simulate(**STUDY, chunk_size=70, keep_records=False, out=tmp_path / "e.parquet")
    assert done.tables.equals(reference.tables)


def test_dask_backend_starts_a_local_cluster(reference):
    res = simulate(**STUDY, chunk_size=150, backend="dask", workers=1)
    assert "LocalCluster" in res.provenance["backend_detail"]
    assert_same_run(reference, res)


def test_unreachable_scheduler_fails_fast_and_writes_nothing(tmp_path):
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t0 = time.perf_counter()
    with pytest.raises(BackendError, match="cannot reach the Dask scheduler"):
        simulate(**STUDY, backend="dask", scheduler=f"tcp://127.0.0.1:{port}",
                 connect_timeout=1.0, out=tmp_path / "x.parquet")
    assert time.perf_counter() - t0 < 15
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(BackendError, match="unknown backend"):
        simulate(**STUDY, backend="spark")


def test_no_compile_notice_once_the_kernel_is_loaded():
    """The 'compiling the game kernels' line is for a cold cache only."""
    adapter = make_adapter(players=4, seed=0)
    adapter.run_chunk(0, 4)
    assert adapter.compile_notice() is None


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 12).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.lists(st.integers(-1, n - 1), min_size=6, max_size=6),
                         min_size=0, max_size=40))))
def test_team_names_match_a_per_game_oracle(case):
    """The array decoder of teams (used by records_frame and the study's counts) names each
    game's team as a plain per-game loop would: sorted names joined by '+'."""
    from simlib.games.until_daylight.api import team_names

    n, rows = case
    names = [f"c{(7 * i) % 13}" for i in range(n)]  # names not in code order
    seats = np.array(rows, dtype=np.int64).reshape(len(rows), 6)
    want = ["+".join(sorted(names[c] for c in row if c >= 0)) for row in rows]
    assert list(team_names(seats, names)) == want


def test_local_backend_plays_the_next_chunk_while_one_is_counted():
    """Two chunks in flight: chunk 1 starts while chunk 0 is still running (its counting
    no longer leaves the cores idle), and results come back in chunk order."""
    import threading

    from simlib.core.runner import _LocalBackend

    started = [threading.Event() for _ in range(4)]

    class Adapter:
        def run_chunk_counts(self, start, count, threads):
            i = start // 10
            started[i].set()
            if i == 0:
                assert started[1].wait(20), "chunk 1 did not start while chunk 0 ran"
            return f"counts {i}"

    class Plan:
        def chunk(self, i):
            return i * 10, 10

    out = list(_LocalBackend(1).map(Adapter(), Plan(), [0, 1, 2, 3], keep_records=False))
    assert out == [(i, (None, f"counts {i}")) for i in range(4)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c", None]), st.integers(2, 4),
                          st.booleans(), st.integers(0, 50)), min_size=0, max_size=40),
       st.sampled_from([("k",), ("p",), ("k", "p"), ("p", "k")]))
def test_group_sum_equals_pandas_groupby(rows, keys):
    """The counting's array group-sum (factorised keys, sorted, ``np.add.reduceat``) gives
    pandas' ``groupby(keys, sort=True).sum()`` frame, rows with a missing key dropped."""
    from simlib.core.tables import _group_sum

    cols = {"k": np.array([r[0] for r in rows], dtype=object),
            "p": np.array([r[1] for r in rows], dtype=np.int64),
            "games": np.ones(len(rows), dtype=np.int64),
            "wins": np.array([r[2] for r in rows], dtype=np.int64),
            "sum": np.array([r[3] for r in rows], dtype=np.int64)}
    cols = {k: v for k, v in cols.items() if k in keys or k not in ("k", "p")}
    want = pd.DataFrame(cols).groupby(list(keys), sort=True).sum()
    got = _group_sum(cols, list(keys))
    pd.testing.assert_frame_equal(got, want[list(got.columns)] if len(want) else want)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["x", "y", "z", None]), st.sampled_from(["x", "y", None]),
                          st.integers(3, 4), st.booleans(), st.sampled_from(["fire", "bite", None])),
                min_size=0, max_size=30))
def test_count_records_by_member_equals_a_long_pandas_frame(rows):
    """A grouping keyed by the participant counts a game once per seated participant:
    the same frames as pandas' group-by of the long frame of (game, seat) rows built by
    hand (seats left empty dropped), with each category value's games as 0/1 columns."""
    spec = TableSpec(groupings=(("c", ("who",)), ("cp", ("who", "p")), ("p", ("p",))),
                     outcome="win", members=("m0", "m1"), member="who",
                     categories=(("cause", "causes"),), none_value="none")
    df = pd.DataFrame({"m0": [r[0] for r in rows], "m1": [r[1] for r in rows],
                       "p": np.array([r[2] for r in rows], dtype=np.int64),
                       "win": np.array([r[3] for r in rows], dtype=bool),
                       "cause": [r[4] for r in rows]}, dtype=object).astype(
        {"p": np.int64, "win": bool})
    got = count_records(df, spec).frames
    cause = df["cause"].fillna("none")
    game = pd.DataFrame({"games": 1, "wins": df["win"].astype(np.int64), "p": df["p"]})
    for v in sorted(cause.unique()):
        game[f"cause={v}"] = (cause == v).astype(np.int64)
    long = pd.concat([game.assign(who=df[m]) for m in ("m0", "m1")]).dropna(subset=["who"])
    for name, frame, keys in (("c", long, ["who"]), ("cp", long, ["who", "p"]), ("p", game, ["p"])):
        measures = ["games", "wins"] + sorted(c for c in game.columns if "=" in c)
        want = frame.groupby(keys, sort=True)[measures].sum().astype(np.int64)
        if len(rows):
            pd.testing.assert_frame_equal(got[name], want, check_index_type=False)
        else:
            assert got[name].empty


def test_the_counted_columns_are_the_frames_columns():
    """The columns the counts are taken from (the kernel's codes, the named ones as
    ``pd.Categorical`` over their names: ``_coded_columns``, both the records path and
    the counts-only path) hold the values of ``records_frame``'s columns, game for game."""
    from simlib.games.until_daylight.study import LEAN_COLUMNS

    ad = make_adapter([3, 4, 5, 6], seed=2)
    recs = api.play_games(300, players=4, seed=2)
    frame = api.records_frame(recs)
    assert list(frame.columns) == api.record_columns()
    coded = ad._coded_columns(recs)
    assert tuple(coded) == LEAN_COLUMNS

    def values(col):  # missing (nobody, no cause) as None
        return [None if pd.isna(x) else x for x in col]

    for c, v in coded.items():
        got = np.asarray(v, dtype=object) if isinstance(v, pd.Categorical) else v
        assert values(got) == values(frame[c].tolist()), c
