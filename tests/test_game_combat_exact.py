"""Whole-game combat against the exact distributions (simlib.games.until_daylight.exact).

tests/test_combat_kernels.py compares the isolated combat kernels with ``exact``.  Here
the same distributions are met as the *game* plays them:

* the enemies' attack on an area: ``GameState.run(PC_ENEMIES, PC_SAVE)``, i.e. the
  engine's step loop over the 2n area attacks, with dice pooled in batches, barricades,
  survivors and protection cards carried between batches, raiders before infected, and
  damage through ``hurt_nb`` (the character may die: exact's outcomes with damage >=
  health are pooled into one "dead" cell);
* a player's attack: a ``step.position`` in the combat phase, the attack candidate
  applied (``Game.apply``), the kills read from the seat's kill count.

Each is sampled from one fixed position many times (the dice stream varies with the
game's seed) and compared by a chi-square goodness-of-fit test (fixed seeds, so the
result is deterministic; cells with expected count < 5 pooled).  The same samples must
reject a deliberately wrong distribution (exact for one die less), so the test can fail.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from scipy.stats import chisquare

from simlib.core.rng import make_streams
from simlib.games.until_daylight import codes as K
from simlib.games.until_daylight import exact
from simlib.games.until_daylight.ruleset import load_ruleset
from simlib.games.until_daylight.state import GameState
from simlib.games.until_daylight.position import position

RULES = load_ruleset("reference")
PACK = RULES.pack()
CAP = int(PACK.params[K.P_DICE_CAP])
SURVIVOR = RULES.enemy_id("survivor")
PROTECTION = [RULES.card_id(c) for c in RULES.card_names
              if PACK.card_tab[RULES.card_id(c), K.C_KIND] == K.CK_PROTECTION]
DEAD = ("dead",)


def chisq_p(observed: Counter, probs: dict, n: int) -> float:
    """Chi-square p-value of ``observed`` against ``probs``; 0 if an outcome of
    probability 0 was observed.  Cells with expected count < 5 are pooled."""
    if any(probs.get(k, 0.0) <= 0.0 for k in observed):
        return 0.0
    keys = sorted((k for k, p in probs.items() if p > 0.0), key=lambda k: probs[k])
    exp = np.array([probs[k] * n for k in keys])
    obs = np.array([observed.get(k, 0) for k in keys], dtype=np.float64)
    assert obs.sum() == n
    small = exp < 5.0
    e_cells, o_cells = list(exp[~small]), list(obs[~small])
    if small.any():
        if exp[small].sum() >= 5.0 or not e_cells:
            e_cells.append(exp[small].sum())
            o_cells.append(obs[small].sum())
        else:  # still too small pooled: into the smallest kept cell
            e_cells[0] += exp[small].sum()
            o_cells[0] += obs[small].sum()
    assert len(e_cells) >= 2, "too few cells for a test"
    e = np.array(e_cells) * (n / sum(e_cells))
    return float(chisquare(np.array(o_cells), e).pvalue)


# =========================================================================== enemies' attack
TEAM = ["hipster", "trigger", "haggler"]  # no ignore-damage or absorb-adjacent ability
N_ENEMY = 4000

ENEMY_CASES = {
    # infected only: 7 dice (batches 6 + 1), survivors and a barricade in the way
    "infected": dict(area=["wanderer", "survivor", "monster", "brute", "wanderer", "survivor"],
                     barricades=1, protection=["helmet"]),
    # raiders first (6 dice: one batch; their X kill survivors), then 5 infected dice
    "raiders_then_infected": dict(area=["raider", "survivor", "raider", "monster", "raider",
                                        "brute", "survivor"], barricades=2, protection=[]),
    # 8 raider dice: batches 6 + 2, protection before the character
    "raider_batches": dict(area=["raider"] * 4 + ["survivor", "survivor"], barricades=1,
                           protection=["vest", "helmet"]),
    # a wounded character: the attack often kills (the engine stops at the death)
    "wounded": dict(area=["monster", "raider", "brute", "survivor", "wanderer"], barricades=1,
                    protection=["helmet"], health=2),
}


def enemy_position(area, barricades, protection, health=None) -> GameState:
    gs = GameState.new(RULES, players=len(TEAM), characters=TEAM, seed=0, ev_cap=0)
    if health is not None:
        gs.pl[0, K.PL_HEALTH] = health
    gs.set_area(0, area)
    gs.pl[0, K.PL_BARRICADES] = barricades
    gs.array[K.G_BARR_SUPPLY] -= barricades
    for card in protection:
        gs.give(0, card)
    gs.array[K.G_CAUGHT] = 0
    return gs


def enemy_outcome(gs: GameState, health: int):
    if gs.array[K.G_OVER] != 0:
        assert gs.pl[0, K.PL_HEALTH] == 0
        return DEAD
    n = int(gs.pl[0, K.PL_AREA_N])
    survivors = int((gs.area[0, :n] == SURVIVOR).sum())
    protection = int(gs.inv[0, PROTECTION].sum())
    return (health - int(gs.pl[0, K.PL_HEALTH]), int(gs.pl[0, K.PL_BARRICADES]), survivors,
            protection)


def enemy_exact(area, barricades, n_protection, health) -> dict:
    joint = exact.enemy_attack_outcome(area, barricades=barricades, protection=n_protection,
                                       ruleset=RULES, exact=True)
    out: dict = {}
    for key, p in joint.items():
        key = DEAD if key[0] >= health else tuple(int(v) for v in key)
        out[key] = out.get(key, 0) + p
    assert sum(out.values()) == 1
    return {k: float(v) for k, v in out.items()}


def sample_enemy_attack(name: str):
    case = ENEMY_CASES[name]
    base = enemy_position(case["area"], case["barricades"], case["protection"],
                              case.get("health"))
    health = int(base.pl[0, K.PL_HEALTH])
    obs: Counter = Counter()
    for i in range(N_ENEMY):
        gs = GameState(base.array.copy(), RULES)
        gs.rng[:] = make_streams(20261130, 1000 * len(name) + i)  # the game's dice differ
        gs.run(K.PC_ENEMIES, K.PC_SAVE)
        obs[enemy_outcome(gs, health)] += 1
    return case, health, obs


@pytest.mark.parametrize("name", sorted(ENEMY_CASES))
def test_enemies_attack_in_the_game_follows_exact(name):
    case, health, obs = sample_enemy_attack(name)
    want = enemy_exact(case["area"], case["barricades"], len(case["protection"]), health)
    p = chisq_p(obs, want, N_ENEMY)
    assert p > 1e-3, (name, p, obs.most_common(8))
    # the same samples reject exact for one attack die less (a wanderer or a raider's die)
    area = list(case["area"])
    weaker = area.copy()
    weaker.remove("wanderer" if "wanderer" in area else "raider")
    if "wanderer" not in area:
        weaker.append("wanderer")  # a raider (2 dice) swapped for a wanderer (1 die)
    wrong = enemy_exact(weaker, case["barricades"], len(case["protection"]), health)
    assert chisq_p(obs, wrong, N_ENEMY) < 1e-3, name
    # and the batches really mattered: a larger batch (no cap) is rejected too when the
    # area rolls more than the cap
    kinds = {K.ENEMY_RAIDER: 0, K.ENEMY_INFECTED: 0}
    for e in area:
        t = RULES.enemy_id(e)
        if PACK.enemy_tab[t, K.E_KIND] in kinds:
            kinds[PACK.enemy_tab[t, K.E_KIND]] += int(PACK.enemy_tab[t, K.E_ATTACK_DICE])
    if max(kinds.values()) > CAP:
        attackers = [(int(PACK.enemy_tab[RULES.enemy_id(e), K.E_KIND]),
                      int(PACK.enemy_tab[RULES.enemy_id(e), K.E_ATTACK_DICE])) for e in area
                     if e != "survivor"]
        rules = exact._attack_rules(PACK.params)
        rules["dice_cap"] = 64
        joint = exact.enemy_attack_dist(attackers, PACK.die_faces,
                                        barricades=case["barricades"],
                                        survivors=area.count("survivor"),
                                        protection=len(case["protection"]), exact=True, **rules)
        uncapped: dict = {}
        for key, pr in joint.items():
            key = DEAD if key[0] >= health else tuple(int(v) for v in key)
            uncapped[key] = uncapped.get(key, 0) + float(pr)
        assert chisq_p(obs, uncapped, N_ENEMY) < 1e-3, name


def test_enemy_cases_reach_every_kind_of_outcome():
    """The positions are not degenerate: deaths (in some case), broken and standing
    barricades, killed and surviving survivors, used and unused protection all occur in
    the exact law."""
    deadly = 0
    for name, case in ENEMY_CASES.items():
        base = enemy_position(case["area"], case["barricades"], case["protection"],
                              case.get("health"))
        want = enemy_exact(case["area"], case["barricades"], len(case["protection"]),
                           int(base.pl[0, K.PL_HEALTH]))
        deadly += want.get(DEAD, 0) > 0.1
        alive = [k for k in want if k != DEAD]
        assert len({k[1] for k in alive}) >= 2 and len({k[2] for k in alive}) >= 2, name
        if case["protection"]:
            assert len({k[3] for k in alive}) >= 2, name
    assert deadly >= 1


# =========================================================================== player's attack
N_PLAYER = 3000
LINE = ["brute", "wanderer", "survivor", "raider", "monster", "wanderer"]
PLAYER_CASES = {
    "hipster_machete": ("hipster", "machete", 2),  # 2 dice
    "psycho_chainsaw": ("psycho", "chainsaw", 5),  # 4 dice + 1 (melee advantage)
}


def player_attack_once(character: str, weapon: str, seed: int):
    seats = [{"character": character, "inventory": {weapon: 1}, "area": LINE},
             {"character": "trigger", "inventory": {}},
             {"character": "haggler", "inventory": {}}]
    g = position(seats, round=1, phase="combat", ruleset=RULES, seed=seed, first=0,
                 check=False)
    st = g.state
    assert st[K.G_PENDING_D] == K.D_COMBAT_ACTION and st[K.G_PENDING_SEAT] == 0
    w = RULES.card_id(weapon)
    cands = g.candidates()
    pick = [i for i, row in enumerate(cands)
            if row[0] == K.A_ATTACK and row[1] == 0 and row[2] == w]
    assert len(pick) == 1
    g.apply(pick[0])
    return int(st[K.G_CUR_DICE]), int(g.view.pl[0, K.PL_KILLS])


@pytest.mark.parametrize("name", sorted(PLAYER_CASES))
def test_player_attack_in_the_game_follows_exact(name):
    character, weapon, dice = PLAYER_CASES[name]
    obs: Counter = Counter()
    for i in range(N_PLAYER):
        rolled, kills = player_attack_once(character, weapon, seed=50_000 + i)
        assert rolled == dice
        obs[kills] += 1
    want = {int(k): float(p) for k, p in exact.attack_kills(dice, LINE, ruleset=RULES).items()}
    p = chisq_p(obs, want, N_PLAYER)
    assert p > 1e-3, (name, p, sorted(obs.items()), want)
    wrong = {int(k): float(p)
             for k, p in exact.attack_kills(dice - 1, LINE, ruleset=RULES).items()}
    assert chisq_p(obs, wrong, N_PLAYER) < 1e-3, name


def test_chisq_helper_rejects_and_accepts():
    probs = {0: 0.5, 1: 0.3, 2: 0.2, 3: 0.0}
    assert chisq_p(Counter({0: 500, 1: 300, 2: 200}), probs, 1000) > 0.5
    assert chisq_p(Counter({0: 600, 1: 250, 2: 150}), probs, 1000) < 1e-3
    assert chisq_p(Counter({0: 499, 1: 300, 2: 200, 3: 1}), probs, 1000) == 0.0
