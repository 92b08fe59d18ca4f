"""Every game, every instrument, every page: what each command *means*, for every
registered game and Pig (issue 38).

The conformance test checks that a game plugs into the contract and runs; a command that
runs can still answer another question than the one it prints (a headline pooled over a
random side, an instrument counting the other side's win, a change that changes nothing
shown as a flat A = B).  Here each game goes through simulate, compare, sweep, calibrate,
sensitivity, simulate_precise, skill and the what-if page's session at tiny counts, and
each cell checks a meaning:

* one outcome: compare's A, the sweep's point at the same value and the page's base row
  count the same wins on the same games, all named by the game's declared ``success``,
  which simulate's text and the page name too;
* one sign: B - A, changed minus base, in Python, the CLI and the page;
* a tweak's changed value in the headers and the report's provenance (the core records it);
* a change that alters no game says so in one line (compare, sweep, the page);
* default ranges that the game's ruleset accepts (sensitivity and calibrate run on them);
* rate intervals inside [0, 1] around their estimate, never a bare point at 0 or 1.
"""
from __future__ import annotations

from html import unescape

import numpy as np
import pandas as pd
import pytest

import simlib
from simlib.cli import main
from simlib.core.games import game_names, get_game
from simlib.serve.report import comparison_report

pytestmark = pytest.mark.usefixtures("pig_registered")

GAMES = game_names() + ["pig"]
N = 120  # games per cell: each figure below is an identity of counts, not an estimate
SEED = 3
# a value of each game's ruleset whose change alters results (B), from its reference value
CHANGES = {
    "until_daylight": ("horde.monster.count", 2),
    "till_dawn": ("constants.nights", 1),
    "until_the_world_ends": ("constants.target", 40),
    "mort_de_la_lumiere_du_jour": ("rules.hits_to_kill", 1),
    "day_night_z": ("survivor.sp_start", 0),
    "pig": ("constants.target", 60),
}


def test_every_game_has_its_change_here():
    assert set(CHANGES) == set(GAMES), "a new game needs a value whose change matters here"


def _cli(capsys, *args):
    code = main(list(args))
    cap = capsys.readouterr()
    assert code == 0, cap.err[-2000:]
    return cap.out


def _proper(low, est, high, what):
    low, est, high = (np.asarray(x, float) for x in (low, est, high))
    assert ((0 <= low) & (low <= est) & (est <= high) & (high <= 1)).all(), (what, low, est, high)
    assert (high[est == 0] > 0).all() and (low[est == 1] < 1).all(), f"{what}: a bare point"


def _page(tmp_path, name, key, text):
    from simlib.serve.session import Page

    page = Page("t", tmp_path, cap=N)
    page.setup(game=name, seed=str(SEED))
    assert page.set_value(key, text) is None, page.errors
    if page.run is None:
        return page, None
    page.run.join(900)
    snap = page.run.snapshot()
    assert snap["state"] == "done", snap["message"]
    return page, snap


# =========================================================================== one outcome
@pytest.mark.parametrize("name", GAMES)
def test_one_outcome_and_one_sign_in_compare_sweep_and_the_page(name, tmp_path, capsys):
    info = get_game(name)
    key, new = CHANGES[name]
    ref = info.load_ruleset(None).get(key)
    assert new != ref
    c = simlib.compare(N, game=name, sets={key: new}, seed=SEED, progress=False)
    row = c.overall.iloc[0]
    assert c.provenance["success"] == info.success
    assert row["rate_a"] == pytest.approx(row["wins_a"] / row["games"])
    assert row["diff"] == pytest.approx(row["rate_b"] - row["rate_a"])  # B - A
    assert row["diff_low"] <= row["diff"] <= row["diff_high"]
    assert c.games_changed > 0 and c.notice == ""
    # the sweep's points are the same games: its count at the reference value is A's, at
    # the changed value B's
    s = simlib.sweep({key: sorted([ref, new])}, N, game=name, seed=SEED, progress=False)
    assert s.provenance["success"] == info.success
    wins = s.table.groupby(key)[["wins", "games"]].sum()
    assert wins.loc[ref].tolist() == [row["wins_a"], row["games"]]
    assert wins.loc[new].tolist() == [row["wins_b"], row["games"]]
    _proper(s.table["ci_low"], s.table["win_rate"], s.table["ci_high"], f"{name} sweep")
    # the what-if page: base = A, changed = B, its difference changed - base
    page, snap = _page(tmp_path, name, key, str(new))
    rows = [r for r in snap["rows"] if r["group"] == "players"]
    assert sum(r["games"] for r in rows) == row["games"]
    assert sum(r["base_wins"] for r in rows) == row["wins_a"]
    assert sum(r["changed_wins"] for r in rows) == row["wins_b"]
    for r in rows:
        assert r["diff"] == pytest.approx(r["changed_rate"] - r["base_rate"])
    assert snap["notice"] == "" and snap["altered"] == c.games_changed
    # every instrument names the one outcome: the CLI's compare and sweep, simulate, the page
    out = _cli(capsys, "compare", "--game", info.cli_name, "--set", f"{key}={new}", "--games",
               str(N), "--seed", str(SEED), "--no-progress")
    assert info.success in " ".join(out.split()) and "B-A" in out
    out = _cli(capsys, "simulate", "--game", info.cli_name, "--games", str(N), "--no-progress")
    assert info.success in " ".join(out.split())
    assert info.success in " ".join(unescape(comparison_report(page).render()).split())  # its report


@pytest.mark.parametrize("name", GAMES)
def test_a_change_that_alters_no_game_says_so(name, tmp_path, capsys):
    """The reference value set again (B is A): 0 of N games altered, in one line, in
    compare, sweep and the page, never a silent A = B."""
    info = get_game(name)
    key, _ = CHANGES[name]
    ref = info.load_ruleset(None).get(key)
    c = simlib.compare(N, game=name, sets={key: ref}, seed=SEED, progress=False)
    assert c.games_changed == 0
    assert c.notice.startswith(f"Note: the change altered 0 of {N:,} games")
    out = _cli(capsys, "compare", "--game", info.cli_name, "--set", f"{key}={ref}", "--games",
               str(N), "--seed", str(SEED), "--no-progress")
    assert f"the change altered 0 of {N:,} games" in out
    s = simlib.sweep({key: [ref, ref]}, N, game=name, seed=SEED, progress=False)
    assert s.games_changed == 0
    assert s.notice.startswith(f"Note: the values altered 0 of {N:,} games")
    out = _cli(capsys, "sweep", "--game", info.cli_name, "--set", f"{key}={ref}:{ref}:1",
               "--games", str(N), "--seed", str(SEED), "--no-progress")
    assert "altered 0 of" not in out  # one value: nothing to compare it with, no notice


@pytest.mark.parametrize("name", GAMES)
def test_the_page_says_when_its_change_alters_no_game(name, tmp_path, monkeypatch):
    """A page whose change never comes into play (its players never reach it) shows the
    same one line as compare: here a change forced to be a no-op by comparing the same
    ruleset twice."""
    from simlib.serve import session

    info = get_game(name)
    key, new = CHANGES[name]
    real = session.Page.changed_rules
    monkeypatch.setattr(session.Page, "changed_rules", lambda self: self.base)  # B is A
    page, snap = _page(tmp_path, name, key, str(new))
    monkeypatch.setattr(session.Page, "changed_rules", real)
    assert snap["altered"] == 0
    assert snap["notice"].startswith(f"Note: the change altered 0 of {N:,} games")
    from simlib.serve.app import COLORS, _env  # the page's own template

    html = _env().get_template("results.html.j2").render(
        colors=COLORS, token="t", s=snap, page=page, plot="",
        labels=[str(r["key"]) for r in snap["rows"]])
    assert 'id="no-change"' in html and info.success in unescape(html)


# =========================================================================== provenance
@pytest.mark.parametrize("name", GAMES)
def test_a_tweak_is_named_in_the_header_and_the_report(name, tmp_path, capsys):
    info = get_game(name)
    key, new = CHANGES[name]
    ref = info.load_ruleset(None).get(key)
    tweak = tmp_path / "tweak.toml"
    head, _, leaf = key.rpartition(".")
    tweak.write_text(f"[{head}]\n{leaf} = {new}\n")
    html = tmp_path / "r.html"
    out = _cli(capsys, "simulate", "--game", info.cli_name, "--rules", str(tweak), "--games",
               str(N), "--no-progress", "--html", str(html))
    assert f"{key} {ref} -> {new}" in out.splitlines()[1], out[:600]
    # the header's ruleset: the tweak's lineage, its fingerprint and how many values it changed
    assert "tweak.toml" in out.splitlines()[0] and "value(s) changed" in out.splitlines()[0], out[:600]
    page = html.read_text()
    assert key in page and "not recorded in this run" not in page


# =========================================================================== ranges, intervals
@pytest.mark.parametrize("name", GAMES)
def test_calibrate_and_sensitivity_run_on_their_default_ranges(name):
    info = get_game(name)
    key, _ = CHANGES[name]
    from simlib.core.instruments import InstrumentError

    try:
        cal = simlib.calibrate(key, 0.5, game=name, games=60, max_games=240, tolerance=0.2,
                               seed=SEED, progress=False)
    except InstrumentError as exc:  # a target out of reach is named, with the ends' rates
        assert key in str(exc) and ("out of reach" in str(exc) or "does not move" in str(exc))
    else:
        assert cal.provenance["success"] == info.success
    sens = simlib.sensitivity([key], game=name, games=30, trajectories=2, seed=SEED,
                              progress=False)
    assert len(sens.table) and np.isfinite(sens.table.select_dtypes("number").to_numpy()).any()


@pytest.mark.parametrize("name", GAMES)
def test_simulate_to_a_precision_and_skill_give_proper_intervals(name):
    info = get_game(name)
    res = simlib.simulate_precise(0.2, 600, game=name, seed=SEED, progress=False)
    rows = pd.DataFrame(res.provenance["sequence_rows"])
    _proper(rows["cs_low"], rows["wins"] / rows["games"], rows["cs_high"], f"{name} precision")
    ladder = (["random", info.default_policy, "clairvoyant"] if not info.competitive
              else ["random", info.default_policy])
    if not info.competitive and "clairvoyant" not in info.policy_names():
        pytest.fail(f"{name}: a co-operative game's skill needs its clairvoyant bound")
    sk = simlib.skill(name, games=6 if not info.competitive else 60, ladder=ladder,
                      bootstrap=50, metrics=False)
    t = sk.table
    rates = t[[not str(q).startswith(("K", "K_n")) for q, _ in t.index]]
    _proper(rates["ci_low"], rates["estimate"], rates["ci_high"], f"{name} skill")


def test_compare_speed_leaves_the_compile_out(monkeypatch):
    """The first call of a game's kernels compiles them (seconds): compare warms both
    variants up before timing, so the speed table compares the variants, not a compile
    with a run (the page's Mort compare once read 159 against 15,088 games/s)."""
    import time as _time

    from pig_game.study import PigAdapter  # the module the registry loads (conftest: PIG)

    played = PigAdapter.outcomes
    first = []

    def outcomes(self, start, count, threads=None):
        if not first:
            first.append(True)
            _time.sleep(1.0)  # what a cold compile costs the first call, at the least
        return played(self, start, count, threads)

    monkeypatch.setattr(PigAdapter, "outcomes", outcomes)
    c = simlib.compare(200, game="pig", sets={"constants.target": 60}, seed=SEED, progress=False)
    a, b = c.speed["kernel_s"].tolist()
    assert first and a < 0.5 and b < 0.5, c.speed
