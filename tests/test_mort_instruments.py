"""Mort de la lumière du jour's instruments mean what they say (issue 38).

One outcome everywhere, the killer's win, counted in the study's headline pairing (the
same player on both sides by default), never pooled with a pairing that seats a random
player on one side.  The expected numbers come from ``api.play_games`` (the records of one
table, written apart from the instruments' view of them), never from the instruments'
own code path."""
from __future__ import annotations

import numpy as np
import pytest

import simlib
from simlib.core.calibrate import CalibrationError, calibrate_integer
from simlib.core.games import get_game
from simlib.core.instruments import InstrumentError
from simlib.games.mort.api import play_games
from simlib.games.mort.ruleset import load_ruleset
from simlib.serve.report import comparison_report

GAME = "mort_de_la_lumiere_du_jour"
EQUAL = "killer=heuristic,survivors=heuristic"


def test_the_outcome_is_the_killers_win_in_every_declaration():
    info = get_game(GAME)
    assert info.success.startswith("the killer wins")
    assert info.measure == "kills"
    assert "seat 0 the killer wins" in info.success_of("seat")
    assert info.success_of("players") == info.success


def test_the_instruments_count_the_killers_win_at_the_headline_pairing():
    """The default study plays three pairings; the instruments play the first (heuristic
    on both sides) for every game and count the killer's win, as ``simulate`` does."""
    ad = get_game(GAME).adapter()
    assert len(ad.tables) == 3  # the study still lists the floors below the headline
    out = ad.outcomes(0, 120)
    ref = play_games(120, seats=EQUAL, seed=0)
    assert np.array_equal(out.success, ref["killer_win"].to_numpy(bool))
    assert np.array_equal(out.measure, ref["kills"].to_numpy(float))
    # the seat grouping: seat 0 the killer's win, seat s survivor s escaped
    labels, rows, idx, won = out.groupings["seat"]
    assert labels == (0, 1, 2, 3, 4)
    seat = won.reshape(120, 5)
    assert np.array_equal(seat[:, 0], ref["killer_win"].to_numpy(bool))
    assert np.array_equal(seat[:, 3], ref["outcome_3"].isin(["gate", "hatch"]).to_numpy())


def test_sweep_of_generators_needed_is_the_headline_pairings_curve():
    """The sweep used to print 47.33 % at every value: it pooled the heuristic pairing
    with a random killer (who never kills: the survivors' win whatever the rules) and a
    random side of survivors (whom the killer kills whatever the rules), and counted the
    survivors' win.  Now each value's wins are the headline pairing's killer wins."""
    base = load_ruleset()
    res = simlib.sweep({"board.generators_needed": [0, 2, 4]}, 150, game=GAME, progress=False)
    t = res.table.set_index("board.generators_needed")
    for v in (0, 2, 4):
        ref = play_games(150, seats=EQUAL, seed=0,
                         ruleset=base.override({"board.generators_needed": v}))
        assert int(t.loc[v, "wins"]) == int(ref["killer_win"].sum())
    assert t["wins"].nunique() > 1  # the key is read by the kernel: the curve moves
    assert res.provenance["measured_tables"] == ["killer heuristic vs survivors heuristic"]


def test_compare_sets_is_the_paired_killer_win_difference():
    c = simlib.compare(150, game=GAME, sets={"rules.hits_to_kill": 3}, progress=False)
    a = play_games(150, seats=EQUAL, seed=0)["killer_win"].to_numpy(bool)
    b = play_games(150, seats=EQUAL, seed=0, ruleset=load_ruleset().override(
        {"rules.hits_to_kill": 3}))["killer_win"].to_numpy(bool)
    row = c.overall.iloc[0]
    assert (row["wins_a"], row["wins_b"], row["only_a"], row["only_b"]) == \
        (a.sum(), b.sum(), (a & ~b).sum(), (b & ~a).sum())
    assert int(c.by_seat.loc[0, "wins_a"]) == int(a.sum())


def test_compare_policies_puts_the_focal_player_in_the_killers_seat_by_default():
    c = simlib.compare(60, game=GAME, policies=["heuristic", "random"], progress=False)
    rnd = play_games(60, seats="killer=random,survivors=heuristic", seed=0)
    assert int(c.overall.iloc[0]["wins_b"]) == int(rnd["killer_win"].sum())
    c = simlib.compare(60, game=GAME, policies=["heuristic", "random"], characters="survivors",
                       progress=False)
    rnd = play_games(60, seats="killer=heuristic,survivors=random", seed=0)
    assert int(c.overall.iloc[0]["wins_b"]) == int(rnd["killer_win"].sum())


# =========================================================================== simulate
def test_simulate_leads_with_the_equal_pairing_never_the_pool():
    info = get_game(GAME)
    res = info.simulate(150, progress=False)
    eq = play_games(50, seats=EQUAL, seed=0)  # games 0, 3, 6, ... are the headline's
    by = res.tables["by_pairing"].loc["heuristic vs heuristic"]
    text = info.render(res)
    line = text.split("\n\n")[1]
    assert line.startswith(f"The killer won {int(by['wins'])} of {int(by['games'])} games "
                           "between equal players (heuristic on both sides)")
    assert "never pooled" in line
    pooled = res.tables["overall"].iloc[0]
    assert int(pooled["killer_wins"]) != int(by["wins"])
    assert "by_killer" not in text and "by_survivors" not in text  # pooled over random sides
    assert int(by["games"]) == 50 and len(eq) == 50
    rep = info.report(res)
    assert rep.headline == line


# =========================================================================== calibrate
def test_calibrate_refuses_a_curve_that_does_not_move():
    with pytest.raises(CalibrationError, match="does not move"):
        calibrate_integer(lambda v, s, c: (c // 2, c), 0, 10, 0.5, n0=400)
    # a curve that moves less than its noise: never claimed as calibrated
    res = calibrate_integer(lambda v, s, c: (round(c * (0.49 + v / 500)), c),
                            0, 10, 0.5, tolerance=0.05, n0=400, max_games=1600)
    assert not res.converged and "intervals at the two ends overlap" in res.note
    # Mort: the heuristic survivors repair about 0.3 generators a game, so the number
    # needed stops mattering from 4 on: the same games are won at 4 and 5
    with pytest.raises(InstrumentError, match="does not move"):
        simlib.calibrate("board.generators_needed", 0.6, game=GAME, lo=4, hi=5, games=150,
                         progress=False)
    at = play_games(150, seats=EQUAL, seed=0)["killer_win"].mean()  # the target on the flat
    with pytest.raises(InstrumentError, match="does not move"):
        simlib.calibrate("board.generators_needed", float(at), game=GAME, lo=4, hi=5, games=150,
                         progress=False)


# =========================================================================== compare's tables
def test_compare_sub_tables_name_their_own_outcome():
    """The seat table of Mort counts each seat's own result (not the killer's win of the
    headline), and Till Dawn's seat and character tables count that seat's win (not the
    focal player's): each table says so."""
    from simlib.cli_instruments import render_compare

    text = render_compare(simlib.compare(60, game=GAME, sets={"rules.hits_to_kill": 3},
                                         progress=False))
    assert ("== by seat (a game counts for each seat in it; 'win' in this table: each seat's "
            "own result: seat 0 the killer wins, seat s (1-4) survivor s escaped) ==") in text
    assert "'win': the killer wins" in text
    text = render_compare(simlib.compare(60, game="till_dawn", players=3,
                                         sets={"constants.track_length": 12}, progress=False))
    assert "'win' in this table: that place at the table wins or shares the win, whoever sits there" in text
    assert "'win' in this table: the seat holding that character wins" in text
    assert "'win': the focal player (the table's first seat as given, who rotates round the table game by game) wins or shares the win" in text


# =========================================================================== the page
def _render(template: str, **kw) -> str:
    from simlib.serve.app import COLORS, _env

    return _env().get_template(template).render(colors=COLORS, token="t", **kw)


def test_what_if_page_runs_mort_with_its_own_seat_rows(tmp_path):
    """Mort, rules.hits_to_kill 2 -> 3: the run used to end in "KeyError: 'seat'" (the
    page reads each seat's result from the game's seat grouping, which Mort lacked)."""
    from simlib.serve.session import Page

    page = Page("t", tmp_path, cap=200)
    page.setup(game=GAME)
    assert page.set_value("rules.hits_to_kill", "3") is None
    page.run.join(600)
    snap = page.run.snapshot()
    assert snap["state"] == "done", snap["message"]
    rows = {(r["group"], r["key"]): r for r in snap["rows"]}
    assert set(rows) == {("players", 5)} | {("seat", s) for s in range(5)}
    c = simlib.compare(200, game=GAME, sets={"rules.hits_to_kill": 3}, progress=False)
    assert rows[("players", 5)]["base_wins"] == int(c.overall.iloc[0]["wins_a"])
    assert rows[("seat", 2)]["changed_wins"] == int(c.by_seat.loc[2, "wins_b"])
    html = _render("results.html.j2", s=snap, page=page, plot="",
                   labels=[str(r["key"]) for r in snap["rows"]])
    assert "the killer wins (at the game" in html and "killer_win_kills" in html
    assert "On the seat rows: each seat&#39;s own result: seat 0 the killer wins" in html
    assert "On the seat rows: each seat's own result" in comparison_report(page).headline


def test_what_if_page_seats_example_is_the_games_own(tmp_path):
    from simlib.serve.session import Page

    for game, example in ((GAME, "killer=heuristic,survivors=random"),
                          ("till_dawn", "optimal,threshold,threshold")):
        info = get_game(game)
        assert info.seats_example == example
        page = Page("t", tmp_path, cap=200)
        page.setup(game=game)
        html = _render("editor.html.j2", page=page, info=info, games=[], bases=[],
                       policies=info.policy_names(), rows=[], error="", tweak_file="whatif.toml")
        assert f'placeholder="{example}"' in html


# =========================================================================== skill
def test_records_declare_each_sides_strategy_and_win():
    from simlib.games.mort.study import TABLE_SPEC

    attrs = dict(TABLE_SPEC.member_attrs)
    assert TABLE_SPEC.members == ("killer", "survivors")
    assert attrs["strategy"] == ("killer", "survivors")
    assert TABLE_SPEC.member_outcomes == ("killer_win", "survivors_win")


def test_skill_command_runs(capsys):
    """``simlib skill --game mort-de-la-lumiere-du-jour`` exited 2: "a competitive skill
    measure needs the records' strategy per seat"."""
    from simlib.cli import main

    assert main(["skill", "--game", "mort-de-la-lumiere-du-jour", "--games", "60",
                 "--bootstrap", "100", "--ladder", "random,heuristic"]) == 0
    out = capsys.readouterr().out
    assert "K_n heuristic" in out
    assert out.startswith("Skill versus luck: Mort de la lumière du jour, ")  # as every header


def test_skill_is_the_focal_sides_win_share_against_the_floor():
    """The focal side (the killer's, by default) plays the rung against random survivors:
    its win share is the killer's win rate of that pairing (from ``play_games``), and with
    two sides the even share is 1/2, so K_n = 2 w - 1."""
    games = 200
    res = simlib.skill(GAME, games=games, ladder=["random", "heuristic"], bootstrap=200,
                       metrics=False)
    share = np.asarray(res.per_game["shares"]["heuristic"], float)
    ref = play_games(games, seats="killer=heuristic,survivors=random", seed=0)
    assert np.array_equal(share, ref["killer_win"].to_numpy(float))
    assert set(res.per_game["players"].tolist()) == {2}  # two sides, not five seats
    w = res.table.loc[("heuristic win share", "all"), "estimate"]
    assert res.table.loc[("K_n heuristic", "all"), "estimate"] == pytest.approx(2 * w - 1)
    assert res.table.loc[("K_n heuristic", "all"), "ci_low"] > 0


def test_skill_on_the_survivors_side_is_their_win_share_against_a_random_killer(capsys):
    """``--characters survivors`` seats each rung on the survivors' side against a random
    killer (the docs promised it; skill once refused the option): the rung's win share is
    the survivors' win rate of that pairing, from ``play_games``."""
    from simlib.cli import main

    games = 200
    res = simlib.skill(GAME, games=games, ladder=["random", "heuristic"], bootstrap=200,
                       metrics=False, characters="survivors")
    share = np.asarray(res.per_game["shares"]["heuristic"], float)
    ref = play_games(games, seats="killer=random,survivors=heuristic", seed=0)
    assert np.array_equal(share, 1.0 - ref["killer_win"].to_numpy(float))
    assert main(["skill", "--game", "mort-de-la-lumiere-du-jour", "--games", "60",
                 "--bootstrap", "100", "--ladder", "random,heuristic",
                 "--characters", "survivors"]) == 0
    assert "; the rungs play: survivors" in capsys.readouterr().out.splitlines()[0]
    with pytest.raises(ValueError, match="takes no characters"):
        simlib.skill("until_daylight", games=2, characters=["pillar"])


def test_skill_metrics_are_of_equal_players_not_the_default_pool():
    """The seat spread of "every seat heuristic" is the killer's and the survivors' shares
    of heuristic against heuristic (``play_games``): |2 w - 1|, no tie.  It pooled the three
    default pairings, two with a random side (5.3 points where the equal pairing gives 21)."""
    games = 200
    res = simlib.skill(GAME, games=games, ladder=["random", "heuristic"], bootstrap=100)
    w = play_games(games, seats=EQUAL, seed=0)["killer_win"].to_numpy(bool).mean()
    row = res.metrics.loc[2]
    assert row["games"] == games and row["tie_rate"] == 0
    assert row["seat_spread_points"] == pytest.approx(100 * abs(2 * w - 1))
    # the rows count sides and name them (not "players 2", "best seat 0")
    assert res.metrics.index.name == "sides"
    assert row["best_side"] == ("killer" if w > 0.5 else "survivors")
    assert "sides" in res.to_text() and "players" not in res.to_text().split("Ludii")[1]


def test_simulate_to_a_precision_makes_each_pairing_precise():
    """``simulate --precision`` stopped on the pooled ``overall`` table by default; Mort's
    default is ``by_pairing``: the headline pairing itself reaches the precision."""
    res = simlib.simulate_precise(0.1, 3000, game=GAME, progress=False)
    p = res.provenance
    assert p["precision_table"] == "by_pairing" and p["stopped_by"] == "precision"
    rows = {r["pairing"]: r for r in p["sequence_rows"]}
    assert "heuristic vs heuristic" in rows and len(rows) == 3
    assert max(r["cs_high"] - r["cs_low"] for r in rows.values()) <= 2 * 0.1
    fixed = simlib.simulate(res.games, game=GAME, seed=0, progress=False)  # the same games
    assert rows["heuristic vs heuristic"]["wins"] == \
        fixed.tables["by_pairing"].loc["heuristic vs heuristic", "wins"]


def test_a_compare_of_players_on_the_survivors_side_says_which_way_is_better(capsys):
    """``compare --policy heuristic --policy random --characters survivors`` measures the
    killer's win (+38 points: random survivors lose); the output once read "A = heuristic,
    B = random ... positive when B wins more" with the header's tables those of A alone.
    Each arm's table is spelled out, and the survivors' side is named with the direction."""
    from simlib.cli import main

    assert main(["compare", "--game", "mort-de-la-lumiere-du-jour", "--policy", "heuristic",
                 "--policy", "random", "--characters", "survivors", "--games", "200",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "A = heuristic (tables killer heuristic vs survivors heuristic)" in out
    assert "B = random (tables killer heuristic vs survivors random)" in out
    assert "A and B play the survivors' side; 'win' stays the killer's" in out
    assert "positive when B wins more" not in out
    c = simlib.compare(200, game=GAME, policies=["heuristic", "random"],
                       characters="survivors", progress=False)
    assert c.overall.iloc[0]["diff"] > 0  # the killer wins more against random survivors


def test_the_win_line_follows_killer_win_kills():
    """``rules.killer_win_kills`` is a threshold on the kills at the game's end (the game
    still ends when every survivor is killed or out): at 2 the killer wins games in which
    survivors escaped, and the simulate note says 2 kills, not every survivor."""
    from simlib.games.mort.study import render

    rules = load_ruleset("reference").override({"rules.killer_win_kills": 2})
    res = simlib.simulate(300, game=GAME, ruleset=rules, progress=False)
    text = render(res)
    assert "The killer wins with 2 kills or more when the game ends" in text
    base = simlib.simulate(300, game=GAME, progress=False)
    assert "The killer wins with every survivor killed when the game ends" in render(base)
    assert "killer_win_kills" in get_game(GAME).success


def test_fair_means_within_five_points_of_even_and_a_wide_interval_cannot_tell():
    """100 games at 59 % (interval 49-68 %) were called fair because 50 % lay inside the
    interval; fair is now a rate within 50 % +- 5 points: an interval inside that band says
    yes, one wholly outside it no, one across its edge cannot tell."""
    import pandas as pd

    from simlib.games.mort.study import fairness_table

    t = pd.DataFrame({"games": [100, 20000, 20000, 20000], "win_rate": [0.59, 0.51, 0.593, 0.54],
                      "ci_low": [0.492, 0.503, 0.586, 0.533], "ci_high": [0.681, 0.517, 0.600, 0.547]},
                     index=["small", "even", "killer", "edge"])
    assert fairness_table({"by_pairing": t})["fair?"].tolist() == ["can't tell", "yes", "no",
                                                                 "yes"]
    t.loc["edge", ["ci_low", "ci_high"]] = [0.535, 0.556]
    assert fairness_table({"by_pairing": t}).loc["edge", "fair?"] == "can't tell"
