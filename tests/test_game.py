"""Whole-game kernel: scenarios the rulebook decides, invariants, determinism, policies."""
from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from simlib.games.until_daylight import codes as K
from simlib.games.until_daylight.api import play_games, records_frame, trace_game
from simlib.games.until_daylight.kernels.game_nb import horde_release_nb, save_survivors_nb
from simlib.games.until_daylight.kernels.state_nb import char_mod_nb, free_dice_nb, update_leader_nb
from simlib.games.until_daylight.ruleset import load_ruleset
from simlib.games.until_daylight.state import GameState
from simlib.games.until_daylight.trace import format_trace

TEAM = ["pillar", "hipster", "haggler", "psycho"]


@pytest.fixture(scope="module")
def rules():
    return load_ruleset("reference")


def new_game(rules, team=TEAM, **kw):
    return GameState.new(rules, players=len(team), characters=team, **kw)


# =========================================================================== scenarios
def test_caught_player_receives_the_wave_and_next_round_starts_after_them(rules):
    """The timer allows K actions; the (K+1)-th actor is caught and gets the whole wave;
    the next round's first player is the one after the caught player.  K = 6 from seat 1
    catches seat 3: the next round starts with seat 0, neither the caught player, nor this
    round's first player, nor the one after it.  All-miss dice keep everyone alive."""
    fixed = rules.override({"constants.search_timer.spread": 0, "constants.search_timer.offset": -2,
                            "dice.fate.faces": {"add_enemy": 6}, "dice.combat.faces": {"X": 6}})
    gs = new_game(fixed)
    gs.g[K.G_ROUND] = 3
    gs.g[K.G_FIRST] = 1
    gs.run(K.PC_SEARCH_BEGIN, K.PC_HORDE)
    k = 2 * 4 - 2  # per_player * players + offset, spread 0
    assert gs.g[K.G_SEARCH_ACTIONS] == k
    caught = (1 + k) % 4
    assert gs.g[K.G_CAUGHT] == caught == 3
    before = gs.horde_total()
    areas_before = gs.pl[:4, K.PL_AREA_N].copy()
    horde_release_nb(gs.array, gs.rs, np.int64(gs.pid), gs.pp)
    wave = 4 + 3 + 1  # players + round, Die of Fate adds one enemy
    grown = gs.pl[:4, K.PL_AREA_N] - areas_before
    assert grown[caught] == wave
    assert grown.sum() == wave  # only the caught player's area received cards
    assert gs.horde_total() == before
    gs.run(K.PC_EXCHANGE, K.PC_SEARCH_BEGIN)  # the rest of round 3, the start of round 4
    assert gs.g[K.G_OVER] == 0 and gs.g[K.G_ROUND] == 4
    assert gs.g[K.G_FIRST] == (caught + 1) % 4 == 0


def test_wave_size_follows_die_of_fate_remove(rules):
    fixed = rules.override({"dice.fate.faces": {"remove_enemy": 6}})
    gs = new_game(fixed)
    gs.g[K.G_ROUND] = 5
    gs.g[K.G_CAUGHT] = 2
    horde_release_nb(gs.array, gs.rs, np.int64(gs.pid), gs.pp)
    assert gs.pl[2, K.PL_AREA_N] == 4 + 5 - 1


def test_character_dying_ends_the_game_at_once(rules):
    gs = new_game(rules)
    gs.g[K.G_ROUND] = 4
    gs.g[K.G_CAUGHT] = 2  # the haggler's area attacks first
    gs.pl[2, K.PL_HEALTH] = 1
    gs.set_area(2, ["raider"] * 6)  # 12 dice: certain to kill a 1-health character
    gs.set_area(3, ["wanderer"] * 6)  # attacks after the haggler's area
    psycho_health = int(gs.pl[3, K.PL_HEALTH])
    gs.run(K.PC_ENEMIES, K.PC_SAVE)
    assert gs.g[K.G_OVER] == 1
    assert gs.g[K.G_OUTCOME] == K.OUT_LOSS
    assert gs.g[K.G_CAUSE] == K.CAUSE_CHARACTER_DIED
    assert gs.g[K.G_DEAD_SEAT] == 2 and gs.g[K.G_DEAD_ROUND] == 4
    assert gs.pl[2, K.PL_HEALTH] == 0
    assert gs.pl[3, K.PL_HEALTH] == psycho_health  # later areas never attacked


def test_survivor_alone_is_saved_at_end_of_round_and_gives_xp(rules):
    gs = new_game(rules)
    gs.set_area(1, ["survivor", "survivor"])
    gs.set_area(2, ["survivor", "wanderer"])  # not alone: stays
    save_survivors_nb(gs.array, gs.rs)
    surv = rules.enemy_id("survivor")
    assert gs.kept[1, surv] == 2 and gs.pl[1, K.PL_AREA_N] == 0
    assert gs.area_cards(2) == ["survivor", "wanderer"]
    assert gs.g[K.G_LEADER] == 1  # 2 XP: strictly more than anyone
    assert gs.pl[1, K.PL_SAVED_TOTAL] == 2


def test_final_round_ends_in_a_win_when_no_enemy_is_left(rules):
    gs = new_game(rules)
    gs.g[K.G_ROUND] = 10
    gs.set_area(0, ["survivor"])
    gs.run(K.PC_EXCHANGE, K.PC_OVER)
    assert gs.g[K.G_OVER] == 1 and gs.g[K.G_OUTCOME] == K.OUT_WIN
    assert gs.g[K.G_CAUSE] == K.CAUSE_NONE


def test_final_round_without_survivor_is_lost(rules):
    gs = new_game(rules)
    gs.g[K.G_ROUND] = 10
    gs.run(K.PC_EXCHANGE, K.PC_OVER)
    assert gs.g[K.G_OUTCOME] == K.OUT_LOSS and gs.g[K.G_CAUSE] == K.CAUSE_NO_SURVIVOR


def test_final_fight_is_capped_by_a_stalemate(rules):
    """Nobody can hurt a Monster without weapons; harmless monsters never end the fight."""
    harmless = rules.override({"horde.monster.attack_dice": 0, "constants.stalemate_cap": 3})
    gs = new_game(harmless)
    for s in range(4):
        gs.inv[s, :] = 0  # no weapon at all
    gs.rdisc[:] = 0
    gs.g[K.G_ROUND] = 10
    gs.set_area(0, ["monster"])
    gs.g[K.G_CHECK] = 0
    gs.run(K.PC_EXCHANGE, K.PC_OVER)
    assert gs.g[K.G_CAUSE] == K.CAUSE_STALEMATE and gs.g[K.G_EXCHANGES] == 3


def test_leader_changes_only_on_strictly_more_xp(rules):
    gs = new_game(rules)
    monster = rules.enemy_id("monster")
    update_leader_nb(gs.array, gs.rs)
    assert gs.g[K.G_LEADER] == -1  # nobody has XP: no leader yet
    gs.kept[1, monster] = 1
    update_leader_nb(gs.array, gs.rs)
    assert gs.g[K.G_LEADER] == 1
    gs.kept[3, monster] = 1  # equal XP does not take the token
    update_leader_nb(gs.array, gs.rs)
    assert gs.g[K.G_LEADER] == 1
    gs.kept[3, monster] = 2
    update_leader_nb(gs.array, gs.rs)
    assert gs.g[K.G_LEADER] == 3
    gs.kept[0, monster] = 2  # a tie from a seat before the leader's does not take it either
    update_leader_nb(gs.array, gs.rs)
    assert gs.g[K.G_LEADER] == 3
    gs.kept[0, monster] = 3
    update_leader_nb(gs.array, gs.rs)
    assert gs.g[K.G_LEADER] == 0


def test_leader_advantage_is_doubled(rules):
    gs = new_game(rules)
    bat = rules.card_id("baseball_bat")
    bat_dice = rules.get("rubble.basic_weapons.baseball_bat.dice")
    bonus = rules.get("characters.psycho.advantage.amount")
    assert free_dice_nb(gs.array, gs.rs, 3, bat) == bat_dice + bonus
    gs.g[K.G_LEADER] = 3
    assert free_dice_nb(gs.array, gs.rs, 3, bat) == bat_dice + 2 * bonus
    absorb = rules.get("characters.pillar.advantage.amount")
    assert char_mod_nb(gs.array, gs.rs, 0, K.MOD_ABSORB_ADJACENT) == absorb
    gs.g[K.G_LEADER] = 0
    assert char_mod_nb(gs.array, gs.rs, 0, K.MOD_ABSORB_ADJACENT) == 2 * absorb
    # drawbacks are not doubled
    assert char_mod_nb(gs.array, gs.rs, 0, K.MOD_DISTANCE_DICE) == \
        2 * 0 + rules.get("characters.pillar.drawback.amount")


def test_barricades_and_protection_take_damage_before_the_character(rules):
    """Damage order: barricades, then a protection card, then health (4 wanderers, 4 heads).
    Seat 2 (the Haggler) has no Pillar beside it to absorb a damage."""
    always_head = rules.override({"dice.combat.faces": {"H": 6}})
    gs = new_game(always_head)
    gs.g[K.G_CAUGHT] = 2
    gs.pl[2, K.PL_BARRICADES] = 2
    gs.g[K.G_BARR_SUPPLY] -= 2
    gs.give(2, "helmet")
    gs.set_area(2, ["wanderer", "wanderer", "wanderer", "wanderer"])
    health = int(gs.pl[2, K.PL_HEALTH])
    gs.run(K.PC_ENEMIES, K.PC_SAVE)
    assert gs.pl[2, K.PL_BARRICADES] == 0  # 2 heads on 2 barricades
    assert gs.inv[2, rules.card_id("helmet")] == 0  # 1 head on the helmet
    assert gs.pl[2, K.PL_HEALTH] == health - 1  # the last head on the character
    assert gs.g[K.G_BARR_SUPPLY] == 12  # both barricades back in the rulebook's supply of 12


def test_pillar_absorbs_a_damage_for_a_neighbour(rules):
    always_head = rules.override({"dice.combat.faces": {"H": 6}})
    gs = new_game(always_head)
    gs.g[K.G_CAUGHT] = 1  # the Hipster sits next to the Pillar (seat 0)
    gs.set_area(1, ["wanderer", "wanderer"])
    health = int(gs.pl[1, K.PL_HEALTH])
    gs.run(K.PC_ENEMIES, K.PC_SAVE)
    assert gs.pl[1, K.PL_HEALTH] == health - 2 + 1  # the rulebook's Pillar absorbs 1 damage a round
    assert gs.pl[0, K.PL_ABSORBED] == 1


# =========================================================================== invariants
@pytest.mark.parametrize("policy", ["random", "baseline"])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_invariants_hold_over_many_games(rules, policy, players):
    """Cards conserved, tokens within limit and supply, inventories within slots, health in
    range: checked after every step of 1500 games per table; every game ends, every loss
    has a cause."""
    rec = play_games(1500, players=players, seed=11, policy=policy, check=True)
    assert (rec["violation"] == 0).all(), np.unique(rec["violation"])
    assert set(np.unique(rec["outcome"])) <= {K.OUT_LOSS, K.OUT_WIN}
    losses = rec["outcome"] == K.OUT_LOSS
    assert (rec["cause"][losses] != K.CAUSE_NONE).all()
    assert (rec["cause"][~losses] == K.CAUSE_NONE).all()
    assert (rec["round_reached"] >= 1).all() and (rec["round_reached"] <= 10).all()
    assert (rec["exchanges"] <= rules.get("constants.stalemate_cap")).all()
    died = rec["cause"] == K.CAUSE_CHARACTER_DIED
    assert (rec["dead_seat"][died] >= 0).all() and (rec["dead_seat"][~died] == -1).all()
    for s in range(players):
        assert (rec[f"health_{s}"] >= 0).all()
        assert (rec[f"character_{s}"] >= 0).all()
    for s in range(players, K.MAX_PLAYERS):
        assert (rec[f"character_{s}"] == -1).all()
    # random teams never repeat a character
    chars = np.stack([rec[f"character_{s}"] for s in range(players)], axis=1)
    assert all(len(set(row)) == players for row in chars)


def test_a_fixed_team_is_seated_in_order(rules):
    rec = play_games(50, players=4, characters=TEAM, seed=3)
    for s, name in enumerate(TEAM):
        assert (rec[f"character_{s}"] == rules.character_id(name)).all()


# =========================================================================== determinism
def test_same_seed_same_records_different_seed_different_games():
    a = play_games(400, players=5, seed=21)
    b = play_games(400, players=5, seed=21)
    c = play_games(400, players=5, seed=22)
    np.testing.assert_array_equal(a, b)
    assert (a != c).any()
    # within one run, games differ from each other
    assert len(np.unique(a[["round_reached", "rubble_drawn", "horde_drawn", "attacks"]])) > 20


def test_records_do_not_depend_on_threads_or_chunking():
    whole = play_games(600, players=4, seed=5, threads=2)
    one = play_games(600, players=4, seed=5, threads=1)
    parts = np.concatenate([play_games(250, players=4, seed=5, start=0, threads=1),
                            play_games(350, players=4, seed=5, start=250, threads=2)])
    np.testing.assert_array_equal(whole, one)
    np.testing.assert_array_equal(whole, parts)
    three = play_games(600, players=4, seed=5, threads=3)
    np.testing.assert_array_equal(whole, three)


@pytest.mark.parametrize("n", [0, 1, 2, 7, 8, 9, 16, 100, 600, 4096, 100_003])
@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("tail", [None, 1])
def test_ranges_cover_the_games_and_shrink_at_the_end(n, threads, tail):
    from simlib.games.until_daylight.api import BLOCK_GAMES, TAIL_GAMES, range_edges

    e = range_edges(n, threads) if tail is None else range_edges(n, threads, tail)
    tail = TAIL_GAMES if tail is None else tail
    assert e[0] == 0 and e[-1] == n
    sizes = np.diff(e)
    if threads == 1 or n <= tail:
        assert len(sizes) == 1  # one range, the whole batch
        return
    assert (sizes > 0).all() and (sizes <= BLOCK_GAMES).all()
    assert (np.diff(sizes[:-1]) <= 0).all()  # never longer than the range before it
    assert sizes[:-1].min() >= tail  # the last range takes what is left
    if tail == 1 and n >= 2:
        assert sizes[-1] == 1  # a search's threads finish within one game of each other
    if n >= 4 * BLOCK_GAMES * threads:
        assert sizes[0] == BLOCK_GAMES and sizes[-2] == tail  # long first, short last


# =========================================================================== policies
def test_baseline_survives_longer_than_random_on_the_reference_ruleset():
    base = play_games(4000, players=4, seed=31, policy="baseline")["round_reached"]
    rand = play_games(4000, players=4, seed=31, policy="random")["round_reached"]
    t = stats.ttest_ind(base, rand, equal_var=False)
    assert base.mean() > rand.mean() + 0.3 and t.pvalue < 1e-12


# measured 2026-11-30 (the test's games: 4000, seed 41, 4 players, 3-round light night):
# baseline 1526 wins (38.2 %), random 118 (3.0 %)
BASELINE_LIGHT_WIN_RATE = 0.382


def test_baseline_wins_clearly_more_often_than_random(rules):
    """On a short, lighter night (3 rounds, waves of `round` cards) both policies can win;
    the baseline's 95% Wilson interval lies well above random's, and above half the
    baseline's measured win rate (so a change that halves it fails here, not only in the
    goldens, which a deliberate rules fix regenerates)."""
    light = rules.override({"constants.rounds": 3, "constants.wave_per_player": 0})
    n = 4000
    wins = {}
    for pol in ("baseline", "random"):
        rec = play_games(n, players=4, seed=41, policy=pol, ruleset=light)
        wins[pol] = int((rec["outcome"] == K.OUT_WIN).sum())
    lo_base = stats.binomtest(wins["baseline"], n).proportion_ci(method="wilson").low
    hi_rand = stats.binomtest(wins["random"], n).proportion_ci(method="wilson").high
    assert lo_base > 2 * hi_rand, wins
    assert lo_base > BASELINE_LIGHT_WIN_RATE / 2, wins


# =========================================================================== trace
def test_trace_is_the_simulated_game_in_words(rules):
    rec, ev = trace_game(seed=9, players=4, game=17)
    batch = play_games(1, players=4, seed=9, start=17)
    assert rec.tobytes() == batch[0].tobytes()  # same kernel, same game
    text = format_trace(rec, ev, rules)
    assert "=== Round 1 ===" in text and "RESULT:" in text
    assert "is caught and receives the horde" in text
    assert "Die of Fate" in text and "roll:" in text
    last = int(rec["round_reached"])
    assert f"=== Round {last} ===" in text and f"=== Round {last + 1} ===" not in text
    cause = K.CAUSE_NAMES[int(rec["cause"])]
    assert ("WINS" in text) if rec["outcome"] == K.OUT_WIN else (cause in text)


def test_records_frame_maps_codes_to_names(rules):
    rec = play_games(200, players=3, seed=2, characters=["drifter", "trigger", "pillar"])
    df = records_frame(rec, rules)
    assert set(df["character_0"]) == {"drifter"} and df["character_5"].isna().all()
    assert set(df["team"]) == {"drifter+pillar+trigger"}
    assert set(df["loss_cause"]) <= {"none", "character_died", "no_survivor_saved", "stalemate"}
    assert (df.loc[df.loss_cause == "character_died", "dead_character"].isin(
        ["drifter", "trigger", "pillar"])).all()
    assert "killed_monster" in df.columns


# =========================================================================== variants
def _enemy_roll_kinds(gs):
    ev = gs.events
    return [int(r[3]) for r in ev if r[0] == K.EV_ENEMY_ROLL]


@pytest.mark.parametrize("all_first", [False, True])
def test_all_raiders_first_variant_orders_the_enemies_attack(rules, all_first):
    harmless = rules.override({"dice.combat.faces": {"X": 6},
                               "variants.all_raiders_first": all_first})
    gs = new_game(harmless)
    gs.g[K.G_CAUGHT] = 0
    gs.set_area(0, ["wanderer", "raider"])
    gs.set_area(1, ["raider", "wanderer"])
    gs.run(K.PC_ENEMIES, K.PC_SAVE)
    kinds = _enemy_roll_kinds(gs)
    R, INF = K.ENEMY_RAIDER, K.ENEMY_INFECTED
    assert kinds == ([R, R, INF, INF] if all_first else [R, INF, R, INF])


@pytest.mark.parametrize("reshuffle", [False, True])
def test_horde_reshuffle_variant(rules, reshuffle):
    r = rules.override({"variants.horde_reshuffle": reshuffle,
                        "dice.fate.faces": {"heal": 6}})
    gs = new_game(r)
    n = int(gs.g[K.G_HDECK_N])
    for t in gs.hdeck[:n]:  # the whole deck to the discard pile
        gs.hdisc[int(t)] += 1
    gs.g[K.G_HDECK_N] = 0
    gs.g[K.G_ROUND] = 2
    gs.g[K.G_CAUGHT] = 1
    horde_release_nb(gs.array, gs.rs, np.int64(gs.pid), gs.pp)
    assert gs.pl[1, K.PL_AREA_N] == (4 + 2 if reshuffle else 0)
    assert gs.horde_total() == rules.get("horde.wanderer.count") + sum(
        rules.get(f"horde.{e}.count") for e in rules.enemy_names if e != "wanderer")


@pytest.mark.parametrize("rewards", [False, True])
def test_trap_rewards_variant(rules, rewards):
    from simlib.games.until_daylight.kernels.game_nb import traps_nb

    r = rules.override({"variants.trap_rewards": rewards})
    gs = new_game(r)
    gs.g[K.G_CAUGHT] = 0
    gs.pl[2, K.PL_TRAPS] = 1
    gs.g[K.G_TRAP_SUPPLY] -= 1
    gs.set_area(2, ["brute"])
    drawn = int(gs.g[K.G_RUBBLE_DRAWN])
    traps_nb(gs.array, gs.rs, np.int64(gs.pid), gs.pp)
    assert gs.pl[2, K.PL_AREA_N] == 0 and gs.pl[2, K.PL_TRAPS] == 0
    assert gs.killed[rules.enemy_id("brute")] == 1
    reward = rules.get("horde.brute.reward_cards")
    assert int(gs.g[K.G_RUBBLE_DRAWN]) - drawn == (reward if rewards else 0)


@pytest.mark.parametrize("variant", ["survivors_block_attacks", "all_raiders_first",
                                     "horde_reshuffle", "trap_rewards"])
def test_invariants_hold_under_each_variant(rules, variant):
    flipped = rules.override({f"variants.{variant}": not rules.get(f"variants.{variant}")})
    rec = play_games(800, players=5, seed=13, policy="random", ruleset=flipped, check=True)
    assert (rec["violation"] == 0).all()


MELEE = ["machete", "axe", "chainsaw", "basic_weapons.crowbar", "basic_weapons.knife",
         "basic_weapons.drifter_machete", "basic_weapons.baseball_bat"]


def _rolled(ev):
    """Dice rolled by each player attack: the faces of the EV_ROLL after each EV_ATTACK."""
    out = []
    for i in np.flatnonzero(ev[:, 0] == K.EV_ATTACK):
        roll = ev[i + 1]
        assert roll[0] == K.EV_ROLL and roll[2] == ev[i, 2]
        out.append((int(ev[i, 4]), int(roll[3] + roll[4] + roll[5]), int(roll[6])))
    return out  # (weapon, dice rolled, faces code)


def _enemy_attacks(ev):
    """Batch sizes of each area's enemies' attack (consecutive EV_ENEMY_ROLL of one area
    and kind, with only that attack's consequences in between)."""
    between = {K.EV_SURVIVOR_KILLED, K.EV_BARRICADE_DOWN, K.EV_PROTECTION, K.EV_DAMAGE,
               K.EV_IGNORED, K.EV_SACRIFICE, K.EV_DISCARD, K.EV_LEADER}
    groups, cur, key = [], [], None
    for row in ev:
        kind = int(row[0])
        if kind == K.EV_ENEMY_ROLL:
            k = (int(row[1]), int(row[2]), int(row[3]))
            if k != key and cur:
                groups.append(cur)
                cur = []
            key = k
            cur.append(int(row[4] + row[5] + row[6]))
        elif kind not in between:
            if cur:
                groups.append(cur)
            cur, key = [], None
    if cur:
        groups.append(cur)
    return groups


def test_whole_games_never_roll_more_than_the_dice_cap(rules):
    """The 6-dice rule in whole games, read from the dice the trace shows rolled.

    Every melee weapon is given ``cap + 3`` dice and Monsters and Brutes ``cap + 3``
    attack dice (Raiders ``cap + 1``): without the cap these attacks would roll more than
    ``cap`` dice, so each such roll must show exactly ``cap`` faces, and each area's
    attack must come in batches of ``cap`` (the last one smaller or equal)."""
    cap = int(rules.get("constants.dice_cap"))
    big = {f"rubble.{w}.dice": cap + 3 for w in MELEE}
    big.update({"horde.monster.attack_dice": cap + 3, "horde.brute.attack_dice": cap + 3,
                "horde.raider.attack_dice": cap + 1})
    strong = rules.override(big)
    melee_ids = {strong.card_id(w.split(".")[-1]) for w in MELEE}
    capped_attacks = split_attacks = 0
    for game in range(30):
        for policy in ("baseline", "random"):
            _, ev = trace_game(seed=5, players=6, game=game, policy=policy, ruleset=strong)
            assert int(ev[-1, 0]) == K.EV_END  # the whole game is in the trace
            for w, dice, code in _rolled(ev):
                assert 0 <= dice <= cap and code < 3 ** cap
                if w in melee_ids:  # would be >= cap + 3 uncapped
                    assert dice == cap
                    capped_attacks += 1
            for sizes in _enemy_attacks(ev):
                assert all(0 < k <= cap for k in sizes), sizes
                assert all(k == cap for k in sizes[:-1]), sizes
                split_attacks += len(sizes) > 1
    assert capped_attacks >= 20 and split_attacks >= 20  # the cap was put to work


def test_reference_games_roll_the_dice_their_attack_announces(rules):
    """On the reference ruleset the rolled faces never exceed the cap, and the cap is
    reached (the dice an EV_ATTACK announces are the dice rolled)."""
    cap = int(rules.get("constants.dice_cap"))
    most = 0
    for game in range(20):
        _, ev = trace_game(seed=5, players=6, game=game, policy="baseline")
        attacks = ev[ev[:, 0] == K.EV_ATTACK]
        rolled = _rolled(ev)
        assert [d for _, d, _ in rolled] == attacks[:, 5].tolist()
        most = max([most] + [d for _, d, _ in rolled])
        assert all(d <= cap for _, d, _ in rolled)
        for sizes in _enemy_attacks(ev):
            assert all(0 < k <= cap for k in sizes) and all(k == cap for k in sizes[:-1])
    assert most == cap


def test_record_column_names_follow_the_record_layout():
    """codes.REC_* (written out for linters) agree with REC_FIELDS, the layout's one source:
    a scalar field added without its constant, or a block out of order, fails here."""
    for name in K.REC_SCALARS:
        assert getattr(K, "REC_" + name.upper()) == K.REC_INDEX[name], name
    for name in K.REC_PER_SEAT:
        first = getattr(K, "REC_" + name.upper())
        assert [first + s for s in range(K.MAX_PLAYERS)] == \
            [K.REC_INDEX[f"{name}_{s}"] for s in range(K.MAX_PLAYERS)]
    assert [K.REC_KILLED + t for t in range(K.MAX_ENEMY_TYPES)] == \
        [K.REC_INDEX[f"killed_{t}"] for t in range(K.MAX_ENEMY_TYPES)]
    assert K.REC_DECISIONS == K.N_REC - 1 and len(K.record_dtype()) == K.N_REC
