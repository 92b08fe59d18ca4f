"""Day Night Z's campaign (§6 travel, §7 shelter): the rules of the phases between
adventures on crafted states (exact values, and a check's failure rate against the
die's exact law), what is carried from one adventure to the next, the campaign's
accounting, its randomness and the command.

The oracles here are written from the rules as the game page states them, not from the
kernels: a check fails when no die shows a star the stress colour accepts (the faces in
``dice.toml``, the colours in ``colours.toml``)."""
from __future__ import annotations

import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from simlib.core.rng import game_key_nb, init_streams_nb, randint_nb
from simlib.games.day_night_z import codes as K
from simlib.games.day_night_z.campaign import play_campaigns, shelter_array
from simlib.games.day_night_z.kernels import campaign_nb as C
from simlib.games.day_night_z.kernels.engine_nb import setup_state_nb
from simlib.games.day_night_z.play import packed, play_games
from simlib.games.day_night_z.ruleset import load_ruleset


@pytest.fixture(scope="module")
def rules():
    return load_ruleset()


def _state(rules, team=2, hour=14, key=1):
    dice, tr, spn, rl = packed(rules)
    st = np.zeros(K.S_SIZE, dtype=np.int64)
    rng = np.zeros(K.N_STREAMS, dtype=np.uint64)
    setup_state_nb(st, rng, tr, spn, rl, np.uint64(game_key_nb(np.int64(1), np.int64(key))), np.int64(team),
                   np.int64(hour), np.int64(0))
    return st


def _su(s, f):
    return K.S_SURV + s * K.U_W + f


def _crng(i):
    r = np.zeros(K.N_STREAMS, dtype=np.uint64)
    init_streams_nb(r, np.uint64(game_key_nb(np.int64(99), np.int64(i))))
    return r


# ------------------------------------------------------------------ the travel (§6)
def test_known_path_check_fails_at_the_dice_exact_rate(rules):
    """One card (Will check, else +1 stress each) at one plain icon: the best Will of the
    group rolls; failures over 4,000 trips match (1 - p)^n, p the share of faces with a
    star green stress accepts (exact binomial test, fixed seeds)."""
    r = rules.override({"campaign.travel.known_route": ["plain"], "travel.quiet_road.count": 0,
                        "travel.stragglers.count": 0, "travel.looters.count": 0})
    dice, tr, _, rl = packed(r)
    cp = r.pack_campaign()
    faces = r.face_names
    ok = set(r.get("colours.check.green"))
    p = Fraction(sum(r.get(f"dice.{f}.star") in ok for f in faces), len(faces))
    team = 2
    will = max(r.get(f"survivors.{n}.day.will") for n in r.get("scenario.team")[:team])
    q = (1 - p) ** will
    tdeck = np.zeros(K.MAX_TRAVEL_CARDS, dtype=np.int64)
    tpos = np.zeros(1, dtype=np.int64)
    fails, n = 0, 4000
    for i in range(n):
        st = _state(r, team)
        crng = _crng(i)
        C.shuffle_deck(cp, crng, tdeck, K.C_TDECK, cp[K.C_PARAMS + K.CP_N_TRAVEL])
        tpos[0] = 0
        C.travel_nb(st, crng, dice, tr, rl, cp, 0, tdeck, tpos)
        stress = [st[_su(s, K.U_STRESS)] for s in range(team)]
        assert stress[0] == stress[1] in (0, 1)  # the group: all or none
        fails += stress[0]
    assert stats.binomtest(fails, n, float(q)).pvalue > 1e-3


def test_unknown_path_draws_a_card_per_skull(rules):
    """The unknown path's dice: no dice, no event, whatever the deck; a deck of one
    always-failing card (1 damage) then costs a survivor exactly the skulls rolled."""
    r = rules.override({"campaign.travel.unknown_route": ["wood"], "campaign.travel.unknown_dice": [0]})
    dice, tr, _, rl = packed(r)
    cp = r.pack_campaign()
    tdeck = np.zeros(K.MAX_TRAVEL_CARDS, dtype=np.int64)
    tpos = np.zeros(1, dtype=np.int64)
    st = _state(r, 1)
    assert C.travel_nb(st, _crng(0), dice, tr, rl, cp, 1, tdeck, tpos) == 0
    assert st[_su(0, K.U_HEALTH)] == r.get("survivor.health_max")
    # the wood section of "rough_going" is an Agility check; with attribute none it always hits
    r2 = rules.override({"campaign.travel.unknown_route": ["wood"], "campaign.travel.unknown_dice": [3],
                         "travel.quiet_road.count": 0, "travel.stragglers.count": 0,
                         "travel.looters.count": 0, "travel.rough_going.wood.attribute": "none"})
    dice, tr, _, rl = packed(r2)
    cp = r2.pack_campaign()
    skull_faces = {i for i, f in enumerate(r2.face_names) if r2.get(f"dice.{f}.skull")}
    for i in range(50):
        st = _state(r2, 1)
        crng = _crng(i)
        probe = crng.copy()
        skulls = sum(randint_nb(probe, K.STREAM_DICE, len(r2.face_names)) in skull_faces for _ in range(3))
        C.shuffle_deck(cp, crng, tdeck, K.C_TDECK, cp[K.C_PARAMS + K.CP_N_TRAVEL])  # the decks' stream
        tpos[0] = 0
        C.travel_nb(st, crng, dice, tr, rl, cp, 1, tdeck, tpos)
        assert st[_su(0, K.U_HEALTH)] == r2.get("survivor.health_max") - skulls


# ------------------------------------------------------------------ the shelter (§7)
def _no_allies():
    """No ally left to join, no skill copy left to buy (the scratch arrays of shelter_nb)."""
    return (np.zeros(K.MAX_ALLIES, np.int64), np.full(1, 99, np.int64), np.zeros(1, np.int64),
            np.zeros(K.MAX_SKILLS, np.int64), np.zeros(2, np.int64))


def test_feeding_check_is_the_clock_meal(rules):
    """§7 feeding as §3.1's 15:00 meal (verification case 8): health 5, 1 of 2 supplies:
    -1 for the missing one, +1 for the one eaten: 5 stays 5, no supply left."""
    r = rules.override({f"shelter_events.{n}.count": 0 for n in ("zombie_attack", "sabotage", "bad_night", "stranger")})
    dice, tr, _, rl = packed(r)
    cp = r.pack_campaign()
    st = _state(r, 1)
    st[_su(0, K.U_HEALTH)], st[_su(0, K.U_SUPPLIES)] = 5, 1
    st[_su(0, K.U_EATS)] = 2  # a survivor whose sheet eats 2 (Olsson's)
    levels = np.zeros(K.N_FAC, dtype=np.int64)  # nothing to visit
    C.shelter_nb(st, _crng(0), dice, tr, rl, cp, levels, shelter_array(), *_no_allies())
    assert (st[_su(0, K.U_HEALTH)], st[_su(0, K.U_SUPPLIES)]) == (5, 0)


def test_rest_zone_visits_by_day_and_night(rules):
    """Basic rest zone twice (a day visit, a night visit): +1 health and -2 stress each."""
    r = rules.override({"campaign.shelter.feeding": False,
                        **{f"shelter_events.{n}.count": 0 for n in ("zombie_attack", "sabotage", "bad_night", "stranger")}})
    dice, tr, _, rl = packed(r)
    cp = r.pack_campaign()
    st = _state(r, 1)
    st[_su(0, K.U_HEALTH)], st[_su(0, K.U_STRESS)] = 4, 5
    levels = np.zeros(K.N_FAC, dtype=np.int64)
    levels[K.F_REST_ZONE] = 1
    C.shelter_nb(st, _crng(0), dice, tr, rl, cp, levels, shelter_array(), *_no_allies())
    assert (st[_su(0, K.U_HEALTH)], st[_su(0, K.U_STRESS)]) == (6, 1)


def test_shelter_player_sends_wounds_and_infections_where_its_parameters_say(rules):
    _, _, _, rl = packed(rules)
    cp = rules.pack_campaign()
    levels = np.zeros(K.N_FAC, dtype=np.int64)
    levels[K.F_REST_ZONE] = levels[K.F_INFIRMARY] = levels[K.F_TRAINING_ZONE] = 1
    st = _state(rules, 1)
    st[_su(0, K.U_HEALTH)] = rules.get("survivor.health_max") - 2          # heal_missing 2
    assert C.pick_facility(st, rl, cp, levels, 0, shelter_array()) == K.F_REST_ZONE
    assert C.pick_facility(st, rl, cp, levels, 0, shelter_array({"infirmary_wounds": 1})) == K.F_INFIRMARY
    assert C.pick_facility(st, rl, cp, levels, 0, shelter_array({"heal_missing": 3})) == K.F_TRAINING_ZONE
    st[_su(0, K.U_INFECTION)] = 1
    assert C.pick_facility(st, rl, cp, levels, 0, shelter_array()) == K.F_INFIRMARY
    levels[K.F_REST_ZONE] = 0
    st[_su(0, K.U_INFECTION)] = 0
    assert C.pick_facility(st, rl, cp, levels, 0, shelter_array()) == K.F_INFIRMARY  # no rest zone


def test_build_order_basic_first_and_saving_up(rules):
    """The build order (infirmary 3, fence 2, ...): 5 VP build both; 4 build the infirmary
    and save the 1 left (the fence costs 2)."""
    cp = rules.pack_campaign()
    for vp, spent, built in ((5, 5, {K.F_INFIRMARY, K.F_FENCE}), (4, 3, {K.F_INFIRMARY})):
        levels = np.zeros(K.N_FAC, dtype=np.int64)
        levels[K.F_REST_ZONE] = levels[K.F_WAREHOUSE] = 1
        assert C.build_nb(cp, levels, vp, shelter_array()) == spent
        assert {f for f in range(K.N_FAC) if levels[f] and f not in (K.F_REST_ZONE, K.F_WAREHOUSE)} == built
    levels = np.zeros(K.N_FAC, dtype=np.int64)
    assert C.build_nb(cp, levels, 50, shelter_array({"build": 0})) == 0


def test_fence_turns_away_the_zombie_attack(rules):
    r = rules.override({"campaign.shelter.feeding": False,
                        **{f"shelter_events.{n}.count": 0 for n in ("quiet_day", "sabotage", "bad_night", "stranger")}})
    dice, tr, _, rl = packed(r)
    cp = r.pack_campaign()
    for fence, health in ((0, 8), (1, 9)):
        st = _state(r, 1)
        levels = np.zeros(K.N_FAC, dtype=np.int64)
        levels[K.F_FENCE] = fence
        C.shelter_nb(st, _crng(0), dice, tr, rl, cp, levels, shelter_array(), *_no_allies())
        assert st[_su(0, K.U_HEALTH)] == health


def test_skills_bought_with_sp_build_on_the_strongest_attribute(rules):
    """Kenji (hth 4, agility 3, will 3, perception 2 by day) with 10 SP, keeping 3: brawler
    (4 SP, +1 hth: the most to his strongest attribute), then nimble (3 SP, +1 agility;
    steady adds as much to will and comes later in skills.toml), then nothing (3 left);
    the bonus is in his attribute from then on, day and night."""
    from simlib.games.day_night_z.kernels.engine_nb import attr_of

    team = list(rules.get("scenario.team"))
    s = team.index("kenji")
    st = _state(rules, s + 1)
    dice, tr, _, rl = packed(rules)
    cp = rules.pack_campaign()
    names = rules.names("skills")
    copies = np.array([rules.get(f"skills.{n}.count") for n in names] + [0] * (K.MAX_SKILLS - len(names)))
    bought = np.zeros(2, dtype=np.int64)
    st[_su(s, K.U_SP)] = 10
    hth0 = attr_of(st, tr, rl, s, K.A_HTH)
    C.buy_skills_nb(st, rl, cp, copies, s, shelter_array({"sp_keep": 3}), bought)
    owned = {n for i, n in enumerate(names) if (st[_su(s, K.U_SKILLS)] >> i) & 1}
    assert owned == {"brawler", "nimble"}
    assert st[_su(s, K.U_SP)] == 3 and list(bought) == [2, 7]
    assert attr_of(st, tr, rl, s, K.A_HTH) == hth0 + 1
    assert copies[names.index("brawler")] == rules.get("skills.brawler.count") - 1
    st[K.S_GLOBALS + K.G_HOUR] = 23  # night: the night value, plus the same bonus
    assert attr_of(st, tr, rl, s, K.A_HTH) == rules.get("survivors.kenji.night.hth") + 1
    # never, when the shelter player does not buy
    st2 = _state(rules, s + 1)
    st2[_su(s, K.U_SP)] = 10
    C.buy_skills_nb(st2, rl, cp, copies, s, shelter_array({"skills": 0}), bought)
    assert st2[_su(s, K.U_SKILLS)] == 0 and st2[_su(s, K.U_SP)] == 10


def test_allies_join_the_survivor_with_the_fewest_and_help_him(rules):
    """§3.8/§1 ally cards: each joins the living survivor with the fewest allies (ties: the
    first); his bonus is in that survivor's attribute; a physiotherapist heals 1 and a cook
    brings a supply each shelter day; an empty deck brings nobody."""
    from simlib.games.day_night_z.kernels.engine_nb import attr_of

    dice, tr, _, rl = packed(rules)
    cp = rules.pack_campaign()
    names = [n for n in rules.names("allies") for _ in range(rules.get(f"allies.{n}.count"))]
    order = [names.index(n) for n in ("war_veteran", "physiotherapist", "cook")]
    adeck = np.array(order + [0] * (K.MAX_ALLIES - 3), dtype=np.int64)
    apos = np.zeros(1, dtype=np.int64)
    st = _state(rules, 2)
    hth0 = attr_of(st, tr, rl, 0, K.A_HTH)
    assert [C.ally_joins_nb(st, cp, adeck, apos) for _ in range(3)] == [1, 1, 1]
    bits = [int(st[_su(s, K.U_ALLIES)]) for s in range(2)]
    assert bits == [(1 << order[0]) | (1 << order[2]), 1 << order[1]]   # 0, 1, then 0 again
    assert attr_of(st, tr, rl, 0, K.A_HTH) == hth0 + 1
    st[_su(1, K.U_HEALTH)], st[_su(0, K.U_SUPPLIES)] = 5, 0
    C.allies_help_nb(st, rl, cp, 1)
    C.allies_help_nb(st, rl, cp, 0)
    assert st[_su(1, K.U_HEALTH)] == 6 and st[_su(0, K.U_SUPPLIES)] == 1
    apos[0] = len(names)
    assert C.ally_joins_nb(st, cp, adeck, apos) == 0


# ------------------------------------------------------------------ the campaign
def test_first_adventure_is_the_engines_game_when_nothing_comes_before(rules):
    """With no travel before the first adventure, campaign g's adventure 1 is exactly
    ``play_games``' game g (same key, same streams)."""
    r = rules.override({"campaign.travel_before_first": False})
    for team in (1, 3):
        c = play_campaigns(120, adventures=2, team_size=team, seed=5, ruleset=r)
        a = c["adventures"]
        first = a[a.adventure == 1].drop(columns=["adventure", "alive_start"]).to_numpy()
        # (a campaign's adventure row keeps the record's fields before the traps': REC_CAMPAIGN)
        want = play_games(120, team_size=team, seed=5, ruleset=r)["records"]
        assert np.array_equal(first, want[:, :K.REC_CAMPAIGN])
        assert not want[:, K.REC_CAMPAIGN:].any()


def test_survivors_carry_over_and_the_dead_stay_dead(rules):
    """With nothing between adventures (no travel, no shelter days), adventure k+1 starts
    with the living of adventure k's end; every death is counted once, by its cause."""
    r = rules.override({"campaign.travel.known_route": [], "campaign.shelter_days": 0,
                        "campaign.travel_before_first": False})
    res = play_campaigns(400, adventures=3, team_size=3, seed=2, ruleset=r, shelter={"unknown_path": 0})
    c, a = res["campaigns"], res["adventures"]
    for _, rows in a.groupby("game"):
        rows = rows.sort_values("adventure")
        assert list(rows.adventure) == list(range(1, len(rows) + 1))
        assert list(rows.alive_start.iloc[1:]) == list(rows.alive.iloc[:-1])
    assert (c.dead_travel == 0).all() and (c.dead_shelter == 0).all()
    per = a.groupby("game")[["dead_damage", "dead_infection", "dead_hunger"]].sum().sum(axis=1)
    assert np.array_equal(per.reindex(c.game).to_numpy(), c.dead_adventures.to_numpy())
    assert np.array_equal(c.alive.to_numpy(), 3 - c.dead_adventures.to_numpy())
    # a campaign ends when nobody is left, else plays every adventure
    assert ((c.played == 3) | (c.alive == 0)).all()


def test_accounting_and_reproducibility(rules):
    res = play_campaigns(300, adventures=3, team_size=4, seed=7)
    c, a = res["campaigns"], res["adventures"]
    assert np.array_equal(c.alive, 4 - c.dead_adventures - c.dead_travel - c.dead_shelter)
    assert np.array_equal(a.groupby("game").vp.sum().reindex(c.game, fill_value=0), c.vp_earned)
    assert np.array_equal(a.groupby("game").success.sum().reindex(c.game, fill_value=0), c.accomplished)
    assert (c.vp_spent <= c.vp_earned).all()
    assert (c.skills_bought > 0).any() and (c.sp_on_skills >= 3 * c.skills_bought).all()
    assert (c.allies_joined > 0).any() and (c.allies_joined <= 10).all()
    assert np.array_equal(c.success, (c.accomplished == 3).astype(int))
    # VP of an adventure: 4 less 1 a death of its own team, on a success only
    won = a[a.success == 1]
    assert np.array_equal(won.vp, np.maximum(0, 4 - (won.alive_start - won.alive)))
    assert (a[a.success == 0].vp == 0).all()
    # a pure function of (seed, campaign index): ranges and threads change nothing
    again = play_campaigns(100, adventures=3, team_size=4, seed=7, start=200, threads=1)["campaigns"]
    tail = c.iloc[200:].reset_index(drop=True)
    assert again.drop(columns="game").equals(tail.drop(columns="game"))
    assert np.array_equal(again.game, tail.game)


def test_bad_input_names_the_allowed_values(rules):
    with pytest.raises(ValueError, match="allowed: heal_missing, supplies_reserve, unknown_path, build"):
        play_campaigns(10, shelter={"heel": 1})
    with pytest.raises(ValueError, match="adventures must be a whole number from 1 to 20"):
        play_campaigns(10, adventures=0)
    with pytest.raises(ValueError, match="unknown policy 'rollin'; allowed: .*baseline.*rollout"):
        play_campaigns(10, policy="rollin")
    with pytest.raises(Exception, match="unknown_dice"):
        rules.override({"campaign.travel.unknown_dice": [1]})
    with pytest.raises(Exception, match="unknown facility 'kitchen'"):
        rules.override({"campaign.shelter.build_order": ["kitchen"]})


def _cli(*args):
    return subprocess.run([sys.executable, "-c", "import sys; from simlib.cli import main; "
                           "sys.exit(main(sys.argv[1:]))", *args], capture_output=True, text=True)


def test_command_prints_campaign_tables():
    p = _cli("simulate", "--game", "day-night-z", "--campaign", "2", "--games", "200",
             "--players", "1,2", "--no-progress")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert "Campaigns of 2 adventures, 200 a cell" in out
    assert "ruleset reference (" in out
    # a row per team size in each of the four tables, and per team size and adventure
    rows = [ln.split() for ln in out.splitlines() if ln[:4].strip() in ("1", "2") and "14:00" in ln]
    assert len(rows) == 2 + 4 + 2 + 2
    assert "k=2: won / alive" in out
    p = _cli("simulate", "--game", "until-daylight", "--campaign", "2")
    assert p.returncode != 0 and "games with one: day-night-z" in p.stderr
    p = _cli("simulate", "--game", "day-night-z", "--campaign", "2", "--shelter", "heel=1")
    assert p.returncode != 0 and "allowed: heal_missing" in p.stderr


def test_html_report_has_the_race_across_the_campaign(tmp_path):
    out = tmp_path / "campaign.html"
    p = _cli("simulate", "--game", "day-night-z", "--campaign", "3", "--games", "100",
             "--players", "2", "--characters", "8,20", "--no-progress", "--html", str(out))
    assert p.returncode == 0, p.stderr
    html = out.read_text()
    assert "The race across the campaign" in html and html.count("data:image/svg+xml") == 2
    assert "Deaths a campaign, by cause" in html and "seed 0" in html
    # the race starts with every campaign unbeaten and the whole team, and never climbs
    from simlib.games.day_night_z.campaign import campaign_tables

    race = campaign_tables([play_campaigns(200, adventures=3, team_size=2, seed=4)])["race"]
    assert race.perfect.iloc[0] == 1.0 and race.alive_mean.iloc[0] == 2
    assert (race.perfect.diff().dropna() <= 0).all() and (race.alive_mean.diff().dropna() <= 0).all()


def test_campaign_compare_pairs_the_same_campaigns():
    """compare --campaign: variants A and B on the same campaigns; its rates and mean
    differences are those of the two runs it pairs, and the CLI names what B changes."""
    from simlib.games.day_night_z.campaign import compare_campaigns

    df = compare_campaigns(300, adventures=2, players=[2], seed=6, shelters=({}, {"build": 0}))
    x = play_campaigns(300, adventures=2, team_size=2, seed=6)["campaigns"]
    y = play_campaigns(300, adventures=2, team_size=2, seed=6, shelter={"build": 0})["campaigns"]
    r = df.iloc[0]
    assert r.success_a == x.success.mean() and r.success_b == y.success.mean()
    assert abs(r.b_minus_a - (r.success_b - r.success_a)) < 1e-12 and r.low <= r.b_minus_a <= r.high
    assert abs(r.accomplished_diff - (y.accomplished - x.accomplished).mean()) < 1e-12
    same = compare_campaigns(300, adventures=2, players=[2], seed=6)   # A against itself
    assert same.b_minus_a.iloc[0] == 0 and same.accomplished_diff.iloc[0] == 0
    p = _cli("compare", "--game", "day-night-z", "--campaign", "2", "--shelter-b", "build=0",
             "--players", "2", "--games", "300", "--seed", "6")
    assert p.returncode == 0, p.stderr
    assert "B changes from A: shelter build default -> 0" in p.stdout
    assert f"{100 * r.success_a:.1f} %" in p.stdout and f"{100 * r.b_minus_a:+.2f}" in p.stdout
    p = _cli("compare", "--game", "day-night-z", "--campaign", "2")
    assert p.returncode != 0 and "compare two things on campaigns" in p.stderr


# ------------------------------------------------------------------ the search players' campaign
# a tiny budget (3 continuations, 2 turns ahead): the properties do not depend on it
TINY = {"n": 3, "horizon": 2}


def test_a_search_campaigns_first_adventure_is_the_search_players_game(rules):
    """With no travel before the first adventure, a search player's campaign g starts with
    exactly the search player's single game g (the same key, the same continuations); its
    later adventures are played too, by the search (they are not the baseline's)."""
    r = rules.override({"campaign.travel_before_first": False})
    for policy, params in (("rollout", TINY), ("clairvoyant", {"horizon": 2})):
        c = play_campaigns(3, adventures=2, team_size=2, seed=5, ruleset=r, policy=policy, params=params)
        a = c["adventures"]
        first = a[a.adventure == 1].drop(columns=["adventure", "alive_start"]).to_numpy()
        want = play_games(3, team_size=2, seed=5, ruleset=r, policy=policy, params=params)["records"]
        assert np.array_equal(first, want[:, :K.REC_CAMPAIGN])
        base = play_campaigns(3, adventures=2, team_size=2, seed=5, ruleset=r)["adventures"]
        assert not np.array_equal(a.to_numpy(), base.to_numpy())


def test_a_search_campaign_is_a_function_of_seed_and_campaign_only():
    """Same seed, same tables: whatever the threads or the campaigns around it; another
    seed, other campaigns; adventure 2's continuations are keyed apart from adventure 1's."""
    from simlib.games.day_night_z.campaign import campaign_tables

    seen = []
    kw = dict(adventures=2, team_size=2, seed=3, policy="rollout", params=TINY)
    one = play_campaigns(4, threads=1, progress=lambda d, n: seen.append((d, n)), **kw)
    two = play_campaigns(4, threads=2, **kw)
    tail = play_campaigns(2, start=2, threads=1, **kw)
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4)]
    for k in one:
        assert one[k].equals(two[k])
    assert one["campaigns"].iloc[2:].reset_index(drop=True).equals(tail["campaigns"])
    t1, t2 = campaign_tables([one]), campaign_tables([two])
    for k in t1:
        assert t1[k].equals(t2[k])
    other = play_campaigns(4, threads=1, **dict(kw, seed=4))
    assert not one["adventures"].drop(columns="game").equals(other["adventures"].drop(columns="game"))
    key0 = game_key_nb(np.int64(3), np.int64(0))
    assert C.search_seed_nb(key0) >= 0 and C.search_seed_nb(key0) != C.search_seed_nb(key0 ^ np.uint64(1))


def test_command_plays_a_campaign_with_the_search_player():
    p = _cli("simulate", "--game", "day-night-z", "--campaign", "2", "--games", "2", "--players", "2",
             "--policy", "rollout", "--policy-param", "n=3", "--policy-param", "horizon=2")
    assert p.returncode == 0, p.stderr
    assert "Campaigns of 2 adventures, 2 a cell" in p.stdout and "policy rollout" in p.stdout
    assert "k=2: won / alive" in p.stdout
    assert "campaigns: team 2, 14:00: 2/2" in p.stderr  # progress as the campaigns finish
    p = _cli("simulate", "--game", "day-night-z", "--campaign", "2", "--policy", "rollin")
    assert p.returncode != 0 and "allowed:" in p.stderr and "rollout-100" in p.stderr
    # the paired compare of a search player's campaigns says how far it is, side by side
    p = _cli("compare", "--game", "day-night-z", "--campaign", "1", "--games", "2", "--players", "2",
             "--policy", "rollout", "--policy-param", "n=3", "--policy-param", "horizon=2",
             "--shelter-b", "build=0")
    assert p.returncode == 0, p.stderr
    assert "campaign compare" in p.stdout and "policy rollout" in p.stdout
    for side in "AB":
        assert f"campaigns: team 2, 14:00, {side}: 2/2" in p.stderr, p.stderr
        assert f"campaigns: team 2, 14:00, {side} done (2 campaigns" in p.stderr, p.stderr


def test_travel_deck_shuffle_deals_every_order_alike():
    """The travel deck is shuffled (a campaign's start, and when it runs out) into every
    order of its cards with the same chance: 4 cards shuffled 4,800 times from fixed seeds
    give each of the 24 orders about 200 times (chi-square); a shuffle that leaves a card
    where it was or swaps only some positions reaches a few orders only."""
    n, src = 4, 10
    cp = np.zeros(src + n, dtype=np.int64)
    cp[src:] = np.arange(n) + 100  # the deck's cards, read from the packed campaign
    seen: dict[tuple, int] = {}
    for i in range(4800):
        deck = np.full(n, -1, dtype=np.int64)
        C.shuffle_deck(cp, _crng(i), deck, src, n)
        seen[tuple(deck)] = seen.get(tuple(deck), 0) + 1
    assert all(sorted(order) == [100, 101, 102, 103] for order in seen)
    assert len(seen) == 24
    assert stats.chisquare(list(seen.values())).pvalue > 1e-3


def test_group_effect_takes_supplies_to_zero_at_most_and_stress_to_its_top(rules):
    """A travel card's failure or a shelter event takes supplies from every living
    survivor down to 0, never below (one left stays one left), and adds stress up to the
    track's top."""
    _, _, _, rl = packed(rules)
    top = int(rules.get("constants.survivor.stress_max"))
    st = _state(rules, team=3)
    for s, (sup, stress) in enumerate([(1, top - 1), (3, 0), (2, top)]):
        st[_su(s, K.U_SUPPLIES)] = sup
        st[_su(s, K.U_STRESS)] = stress
    st[_su(2, K.U_ALIVE)] = 0  # the dead keep what they had
    dead = C.group_effect(st, rl, 0, 2, 2, 0, K.DEAD_TRAVEL)
    assert dead == 0
    assert [int(st[_su(s, K.U_SUPPLIES)]) for s in range(3)] == [0, 1, 2]
    assert [int(st[_su(s, K.U_STRESS)]) for s in range(3)] == [top, 2, top]


def test_a_shelter_event_does_each_of_its_own_effects(rules, tmp_path):
    """The day's event (§7), one kind in the table with every effect a different number:
    1 damage, 2 stress, 3 supplies and 1 infection level to every living survivor (a
    field read from its neighbour would swap two of them)."""
    import shutil

    from simlib.games.day_night_z.ruleset import default_ruleset_dir, load_ruleset

    folder = tmp_path / "rules"
    shutil.copytree(default_ruleset_dir(), folder, ignore=shutil.ignore_patterns("presets", "policies", "__*"))
    (folder / "shelter_events.toml").write_text(
        '[ordeal]\ncount = { value = 1, source = "assumed" }\n'
        'damage = { value = 1, source = "assumed" }\nstress = { value = 2, source = "assumed" }\n'
        'supplies = { value = 3, source = "assumed" }\ninfection = { value = 1, source = "assumed" }\n')
    r = load_ruleset(folder).override({"campaign.shelter.feeding": False})
    dice, tr, _, rl = packed(r)
    cp = r.pack_campaign()
    st = _state(r, 2)
    before = [[int(st[_su(s, f)]) for f in (K.U_HEALTH, K.U_STRESS, K.U_INFECTION)] for s in range(2)]
    for s in range(2):
        st[_su(s, K.U_SUPPLIES)] = 5
    levels = np.zeros(K.N_FAC, dtype=np.int64)  # nothing to visit
    C.shelter_nb(st, _crng(0), dice, tr, rl, cp, levels, shelter_array(), *_no_allies())
    for s in range(2):
        h, stress, inf = before[s]
        assert [int(st[_su(s, f)]) for f in (K.U_HEALTH, K.U_STRESS, K.U_SUPPLIES, K.U_INFECTION)] \
            == [h - 1, stress + 2, 2, inf + 1]


def test_a_campaign_refuses_distilled_weights_on_another_ruleset(rules):
    """The distilled player's weights were fitted on the reference ruleset: a campaign on
    another is refused as a single adventure is (naming any_ruleset), and plays with
    any_ruleset=1."""
    other = rules.override({"survivor.sp_start": 4})
    with pytest.raises(ValueError, match="any_ruleset=1"):
        play_campaigns(2, adventures=2, team_size=2, ruleset=other, policy="distilled")
    got = play_campaigns(2, adventures=2, team_size=2, ruleset=other, policy="distilled",
                         params={"any_ruleset": 1})
    assert got is not None


def test_an_exhausted_travel_deck_is_shuffled_anew(rules):
    """The travel deck runs out after its n cards: the n-th draw shuffles it anew (the
    position back at the top, the deck again a permutation of its cards), and every n
    draws after it again."""
    dice, tr, _, rl = packed(rules)
    cp = rules.pack_campaign()
    n = int(cp[K.C_PARAMS + K.CP_N_TRAVEL])
    cards = sorted(int(c) for c in cp[K.C_TDECK:K.C_TDECK + n])
    tdeck = np.zeros(K.MAX_TRAVEL_CARDS, dtype=np.int64)
    tpos = np.zeros(1, dtype=np.int64)
    crng = _crng(7)
    C.shuffle_deck(cp, crng, tdeck, K.C_TDECK, n)
    orders = []
    for draw in range(1, 3 * n + 1):
        st = _state(rules, 2)
        C.travel_event(st, crng, dice, tr, rl, cp, 0, tdeck, tpos)
        assert tpos[0] == draw % n
        if draw % n == 0:
            assert sorted(int(c) for c in tdeck[:n]) == cards
            orders.append(tuple(int(c) for c in tdeck[:n]))
    assert len(set(orders)) > 1 or n < 3  # shuffled anew, not the same order again


def test_the_shelter_player_stocks_supplies_when_short_and_trains_when_not(rules):
    """Healthy and calm, a survivor short of his meal plus the reserve (supplies_reserve)
    visits the supply zone; with enough he trains."""
    _, _, _, rl = packed(rules)
    cp = rules.pack_campaign()
    levels = np.zeros(K.N_FAC, dtype=np.int64)
    levels[K.F_SUPPLY_ZONE] = levels[K.F_TRAINING_ZONE] = 1
    st = _state(rules, 1)
    st[_su(0, K.U_HEALTH)] = rules.get("survivor.health_max")
    st[_su(0, K.U_STRESS)], st[_su(0, K.U_INFECTION)], st[_su(0, K.U_EATS)] = 0, 0, 1
    sh = shelter_array({"supplies_reserve": 2})
    st[_su(0, K.U_SUPPLIES)] = 2  # short: fewer than 1 + 2
    assert C.pick_facility(st, rl, cp, levels, 0, sh) == K.F_SUPPLY_ZONE
    st[_su(0, K.U_SUPPLIES)] = 3  # enough
    assert C.pick_facility(st, rl, cp, levels, 0, sh) == K.F_TRAINING_ZONE
