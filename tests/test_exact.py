"""Tests of the exact combat distributions (simlib.games.until_daylight.exact).

Brute-force oracles here are written independently of the module: they enumerate
every face *sequence* and every die-to-enemy *assignment*, never the count formulas.
"""
from __future__ import annotations

import re
from collections import namedtuple
from fractions import Fraction
from functools import lru_cache
from itertools import combinations, product

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import multinomial

from simlib.games.until_daylight import codes as C
from simlib.games.until_daylight.exact import (
    attack_kills,
    batch_sizes,
    best_kills_with_focus,
    dice_faces,
    enemy_attack_damage,
    enemy_attack_damage_dist,
    enemy_attack_dist,
    enemy_attack_outcome,
    face_count_dist,
    kills_dist,
    kills_for_counts,
    prob_clear,
    resolve_batch,
    trap_kills,
    trap_step,
)

X, B, H = C.FACE_X, C.FACE_B, C.FACE_H
DIE = [H, B, B, B, X, X]  # reference die: 1 H, 3 B, 2 X
RAIDER = WANDERER = (1, 2)
BRUTE = (1, 0)
MONSTER = (2, 0)
INF, RAI = C.ENEMY_INFECTED, C.ENEMY_RAIDER


# --------------------------------------------------------------------------- oracles
@lru_cache(maxsize=None)
def brute_kills_for_faces(rolled: tuple, line: tuple, focus: int) -> int:
    """Best killed prefix over every focus choice and every die -> enemy assignment."""
    b_pos = [i for i, f in enumerate(rolled) if f == B]
    best = 0
    for n_focus in range(min(focus, len(b_pos)) + 1):
        for turned in combinations(b_pos, n_focus):
            faces = [H if i in turned else f for i, f in enumerate(rolled)]
            live = [f for f in faces if f != X]
            for assign in product(range(len(line) + 1), repeat=len(live)):
                kills = 0
                for e, (kh, kb) in enumerate(line):
                    hs = sum(1 for f, a in zip(live, assign, strict=True) if a == e and f == H)
                    bs = sum(1 for f, a in zip(live, assign, strict=True) if a == e and f == B)
                    if hs >= kh or (kb > 0 and bs >= kb):
                        kills += 1
                    else:
                        break
                best = max(best, kills)
    return best


def brute_kills_dist(k: int, line, faces, focus=0) -> dict:
    out: dict[int, Fraction] = {}
    w = Fraction(1, len(faces) ** k)
    for seq in product(faces, repeat=k):
        kills = brute_kills_for_faces(tuple(sorted(seq)), tuple(line), focus)
        out[kills] = out.get(kills, Fraction(0)) + w
    return out


def greedy_body_first(h: int, b: int, line) -> int:
    kills = 0
    for kh, kb in line:
        if kb > 0 and b >= kb:
            b -= kb
        elif h >= kh:
            h -= kh
        else:
            break
        kills += 1
    return kills


def die_by_die_batch(seq, kind, bar, sur, pro, bh=1, bb=2, bpd=2):
    """Independent enemy-batch resolver: place the H dice one by one, then the B dice."""
    dmg = 0
    h_on_bar = b_on_bar = 0
    loose_b = 0
    if kind == RAI:
        sur = max(0, sur - sum(1 for f in seq if f == X))
    for face in sorted((f for f in seq if f != X), reverse=True):  # H (2) before B (1)
        if kind == INF and sur > 0:
            sur -= 1
            continue
        if bar > 0:
            if face == H:
                h_on_bar += 1
            else:
                b_on_bar += 1
            if h_on_bar >= bh or b_on_bar >= bb:
                bar -= 1
                h_on_bar = b_on_bar = 0
            continue
        if face == B:
            loose_b += 1
            if loose_b < bpd:
                continue
            loose_b = 0
        if pro > 0:
            pro -= 1
        else:
            dmg += 1
    return dmg, bar, sur, pro


# --------------------------------------------------------------------------- face counts
@pytest.mark.parametrize("k", [0, 1, 3, 6])
def test_face_count_dist_matches_scipy_multinomial_and_sums_to_one(k):
    exact = face_count_dist(k, DIE, exact=True)
    assert sum(exact) == 1
    approx = face_count_dist(k, DIE)
    for (h, b, x), p in approx.items():
        assert p == pytest.approx(multinomial.pmf([h, b, x], k, [1 / 6, 3 / 6, 2 / 6]), abs=1e-15)
        assert float(exact[(h, b, x)]) == pytest.approx(p, abs=0, rel=1e-15)


def test_face_count_dist_any_die_size():
    d = face_count_dist(2, [H, X, X, X], exact=True)  # a d4 with one head
    assert d[(2, 0, 0)] == Fraction(1, 16)
    assert d[(0, 0, 2)] == Fraction(9, 16)
    assert d.xs(1, level="bodies").sum() == 0  # no body face: no body counts
    with pytest.raises(ValueError):
        face_count_dist(1, [H, 7])


# --------------------------------------------------------------------------- kills
def test_rulebook_example_six_dice_kills_three():
    # 1 X, 2 H, 3 B on [Raider, Wanderer, Wanderer, Monster]: 2B raider, H, H, 1B on monster
    assert kills_for_counts(2, 3, [RAIDER, WANDERER, WANDERER, MONSTER]) == 3


def test_rulebook_example_five_bodies_stop_at_brute():
    line = [RAIDER, BRUTE, WANDERER, WANDERER, MONSTER, RAIDER, RAIDER, WANDERER, MONSTER, BRUTE]
    assert kills_for_counts(0, 5, line) == 1


def test_body_pairs_never_make_heads():
    assert kills_for_counts(1, 6, [MONSTER]) == 0
    assert kills_for_counts(0, 6, [BRUTE]) == 0
    assert kills_for_counts(2, 0, [MONSTER, BRUTE]) == 1


def test_greedy_body_first_is_not_optimal_for_custom_needs():
    # an enemy that dies to 1 H or 4 B, then two that die to 1 H or 2 B; roll 1 H 4 B
    line = [(1, 4), (1, 2), (1, 2)]
    assert greedy_body_first(1, 4, line) == 2  # greedy pours the 4 B into the first
    assert kills_for_counts(1, 4, line) == 3  # optimum: H first, then 2 B + 2 B
    # and the distribution reflects the optimum, not the greedy rule
    d = kills_dist(5, line, DIE, exact=True)
    want = brute_kills_dist(5, line, DIE)
    assert all(d[j] == want.get(j, 0) for j in d.index)
    greedy: dict[int, Fraction] = {}
    for (h, b, _x), p in face_count_dist(5, DIE, exact=True).items():
        j = greedy_body_first(h, b, line)
        greedy[j] = greedy.get(j, Fraction(0)) + p
    assert d[3] > greedy.get(3, 0)  # e.g. 1 H 4 B clears only with the optimum


def test_greedy_matches_optimum_on_reference_needs():
    # the spec's greedy rule is optimal for the reference needs: check every small case
    kinds = [RAIDER, BRUTE, MONSTER]
    for n in range(1, 5):
        for line in product(kinds, repeat=n):
            for h in range(5):
                for b in range(7):
                    assert greedy_body_first(h, b, line) == kills_for_counts(h, b, line)


def test_focus_turns_bodies_into_heads():
    assert best_kills_with_focus(0, 3, [MONSTER], focus=1) == 0
    assert best_kills_with_focus(0, 3, [MONSTER], focus=2) == 1
    # focus is only used when it helps: 2 B kill a wanderer, turning one would not
    assert best_kills_with_focus(0, 2, [WANDERER], focus=1) == 1
    assert best_kills_with_focus(1, 1, [BRUTE, MONSTER], focus=5) == 1


@pytest.mark.parametrize("k", [1, 2, 3, 4])
@pytest.mark.parametrize(
    "line",
    [[RAIDER, BRUTE], [BRUTE, WANDERER, WANDERER], [MONSTER, RAIDER], [(1, 4), (1, 2), (1, 2)]],
)
@pytest.mark.parametrize("focus", [0, 1])
def test_kills_dist_matches_brute_force(k, line, focus):
    got = kills_dist(k, line, DIE, focus=focus, exact=True)
    want = brute_kills_dist(k, line, DIE, focus)
    assert sum(got) == 1
    assert list(got.index) == list(range(len(line) + 1))
    for kills in got.index:
        assert got[kills] == want.get(kills, 0)


def test_kills_dist_applies_the_dice_cap():
    line = [WANDERER] * 8
    capped = kills_dist(9, line, DIE, exact=True)
    assert capped.equals(kills_dist(6, line, DIE, exact=True))
    assert (capped.loc[7:] == 0).all()  # 6 dice kill at most 6 wanderers...
    assert kills_dist(9, line, DIE, dice_cap=9, exact=True)[7] > 0  # ...9 dice can kill 7
    assert capped[6] == Fraction(1, 6**6)  # only 6 H clear six
    assert capped[8] == 0 and sum(capped) == 1


@settings(max_examples=40, deadline=None)
@given(
    line=st.lists(st.tuples(st.integers(1, 3), st.integers(0, 4)), min_size=1, max_size=3),
    k=st.integers(0, 4),
    focus=st.integers(0, 2),
    faces=st.lists(st.sampled_from([X, B, H]), min_size=1, max_size=4),
)
def test_kills_dist_property_random_lines(line, k, focus, faces):
    got = kills_dist(k, line, faces, focus=focus, exact=True)
    want = brute_kills_dist(k, line, faces, focus)
    assert sum(got) == 1
    for kills in got.index:
        assert got[kills] == want.get(kills, 0)


# --------------------------------------------------------------------------- traps
def test_trap_rulebook_examples():
    assert trap_step([BRUTE, WANDERER, MONSTER], 1) == (1, 1)  # Brute first: dies
    assert trap_step([MONSTER, BRUTE], 1) == (0, 1)  # Monster: hit, not killed
    assert trap_step([MONSTER, BRUTE], 2) == (1, 2)  # two traps add up
    assert trap_step([MONSTER, BRUTE], 3) == (2, 3)


def test_trap_does_not_fire_without_enemy_and_skips_survivors():
    assert trap_step([BRUTE], 2) == (1, 1)
    assert trap_step([], 2) == (0, 0)
    kinds = [C.ENEMY_SURVIVOR, C.ENEMY_INFECTED]
    assert trap_step([(1, 1), BRUTE], 1, kinds=kinds) == (1, 1)
    assert trap_step([(1, 1)], 1, kinds=[C.ENEMY_SURVIVOR]) == (0, 0)
    assert trap_step([MONSTER], 1, trap_heads=2) == (1, 1)


# --------------------------------------------------------------------------- enemies' attack
def test_batch_sizes():
    assert batch_sizes(13) == [6, 6, 1]
    assert batch_sizes(12) == [6, 6]
    assert batch_sizes(0) == []
    assert batch_sizes(5, dice_cap=2) == [2, 2, 1]


def test_rulebook_infected_example_batch_by_batch():
    # 6 wanderers, 2 survivors, 1 monster, 2 brutes: 13 dice -> batches 6, 6, 1
    dmg, bar, sur, pro = resolve_batch(2, 2, 2, INF, barricades=0, survivors=2, protection=0)
    assert (dmg, bar, sur, pro) == (1, 0, 0, 0)  # heads kill both survivors, 2 B -> 1 damage
    assert resolve_batch(0, 4, 2, INF, bar, sur, pro) == (2, 0, 0, 0)
    assert resolve_batch(0, 0, 1, INF, bar, sur, pro) == (0, 0, 0, 0)


def test_rulebook_raider_example():
    # 4 raiders, 2 survivors: first batch 3 X 3 B -> survivors die, 1 damage (odd B lost)
    assert resolve_batch(0, 3, 3, RAI, survivors=2) == (1, 0, 0, 0)
    # second batch (last raider) 1 H 1 B -> 1 more damage
    assert resolve_batch(1, 1, 0, RAI) == (1, 0, 0, 0)
    # raiders' H/B never touch survivors
    assert resolve_batch(2, 0, 0, RAI, survivors=2) == (2, 0, 2, 0)


def test_rulebook_barricade_example():
    assert resolve_batch(0, 4, 1, INF, barricades=2) == (0, 0, 0, 0)
    assert resolve_batch(1, 3, 1, INF, barricades=2) == (0, 0, 0, 0)  # H, then 2 B; 1 B lost
    assert resolve_batch(1, 1, 0, INF, barricades=1) == (0, 0, 0, 0)


def test_damage_order_protection_then_character():
    assert resolve_batch(2, 2, 0, INF, protection=1) == (2, 0, 0, 0)
    assert resolve_batch(3, 0, 0, INF, barricades=1, survivors=1, protection=1) == (0, 0, 0, 0)
    assert resolve_batch(3, 3, 0, INF, barricades=1, survivors=1, protection=1) == (1, 0, 0, 0)
    assert resolve_batch(0, 1, 0, INF, survivors=2) == (0, 0, 1, 0)


@pytest.mark.parametrize(
    "kind,bar,sur,pro,bh,bb,bpd",
    [(INF, 0, 2, 0, 1, 2, 2), (INF, 2, 1, 1, 1, 2, 2), (RAI, 1, 2, 1, 1, 2, 2),
     (INF, 2, 0, 1, 2, 3, 2), (RAI, 2, 3, 0, 2, 2, 2), (INF, 1, 1, 2, 1, 2, 3)],
)
def test_resolve_batch_matches_die_by_die(kind, bar, sur, pro, bh, bb, bpd):
    for n in range(0, 7):
        for seq in product([X, B, H], repeat=n):
            h, b, x = seq.count(H), seq.count(B), seq.count(X)
            assert resolve_batch(h, b, x, kind, bar, sur, pro, bh, bb, bpd) == die_by_die_batch(
                seq, kind, bar, sur, pro, bh, bb, bpd
            )


def brute_attack_dist(attackers, faces, bar, sur, pro, cap):
    """Enumerate every face sequence of all dice (raider dice first)."""
    raider = sum(n for k, n in attackers if k == RAI)
    infected = sum(n for k, n in attackers if k == INF)
    out: dict[tuple, Fraction] = {}
    w = Fraction(1, len(faces) ** (raider + infected))
    for seq in product(faces, repeat=raider + infected):
        state = (0, bar, sur, pro)
        for kind, dice in ((RAI, seq[:raider]), (INF, seq[raider:])):
            for start in range(0, len(dice), cap):
                d, b2, s2, p2 = die_by_die_batch(dice[start:start + cap], kind, *state[1:])
                state = (state[0] + d, b2, s2, p2)
        out[state] = out.get(state, Fraction(0)) + w
    return out


@pytest.mark.parametrize(
    "attackers,bar,sur,pro,cap",
    [
        ([(INF, 1), (INF, 3), (INF, 2)], 1, 2, 0, 4),  # 6 infected dice -> batches 4, 2
        ([(RAI, 2), (INF, 1), (RAI, 2), (INF, 2)], 1, 2, 1, 3),  # raiders first
        ([(RAI, 2), (RAI, 2), (RAI, 2)], 0, 2, 0, 6),
    ],
)
def test_enemy_attack_dist_matches_enumeration(attackers, bar, sur, pro, cap):
    faces = [X, B, H]  # a 3-sided die keeps the enumeration small
    got = enemy_attack_dist(attackers, faces, bar, sur, pro, dice_cap=cap, exact=True)
    want = brute_attack_dist(attackers, faces, bar, sur, pro, cap)
    assert sum(got) == 1
    assert dict(got.items()) == {k: v for k, v in want.items() if v}


def test_enemy_attack_rulebook_infected_area_distribution():
    attackers = [(INF, 1)] * 6 + [(INF, 3), (INF, 2), (INF, 2)]
    joint = enemy_attack_dist(attackers, DIE, survivors=2, exact=True)
    assert sum(joint) == 1
    assert list(joint.index.names) == ["damage", "barricades_left", "survivors_left",
                                       "protection_left"]
    dmg = enemy_attack_damage_dist(attackers, DIE, survivors=2, exact=True)
    assert sum(dmg) == 1
    assert dmg.index.max() == 11  # 13 heads: 2 on survivors, 11 damage
    assert dmg[11] == Fraction(1, 6 ** 13)
    # the rulebook's three batches have positive probability and give 3 damage
    assert dmg[3] > 0
    # the float marginal agrees with the exact one
    assert np.allclose(enemy_attack_damage_dist(attackers, DIE, survivors=2).to_numpy(),
                       [float(v) for v in dmg])


def test_barricades_and_protection_only_reduce_damage():
    attackers = [(INF, 3), (INF, 2)]
    base = enemy_attack_damage_dist(attackers, DIE)
    guarded = enemy_attack_damage_dist(attackers, DIE, barricades=2, protection=1)
    mean = lambda s: float((s.index.to_numpy() * s.to_numpy()).sum())  # noqa: E731
    assert mean(guarded) < mean(base)
    assert guarded[0] > base[0]


# --------------------------------------------------------------------------- name layer
Packed = namedtuple("Packed", "params card_tab enemy_tab char_tab die_faces fate_faces recipes")


class FakeRuleset:
    """Reference numbers in codes.py layouts, written here so the name layer is tested
    without depending on the TOML loader."""

    enemy_names = ["wanderer", "raider", "brute", "monster", "survivor"]

    def __init__(self, survivors_block=0, dice_cap=6, die=DIE, bodies_per_damage=None):
        slots = getattr(C, "N_PARAMS_FULL", C.N_PARAMS) if bodies_per_damage else C.N_PARAMS
        self.params = np.zeros(slots, dtype=np.int64)
        if bodies_per_damage:
            self.params[C.P_BODIES_PER_DAMAGE] = bodies_per_damage
        self.params[C.P_DICE_CAP] = dice_cap
        self.params[C.P_BARRICADE_HEADS] = 1
        self.params[C.P_BARRICADE_BODIES] = 2
        self.params[C.P_TRAP_HEADS] = 1
        self.params[C.P_V_SURVIVORS_BLOCK] = survivors_block
        tab = np.zeros((5, C.N_ENEMY_COLS), dtype=np.int64)
        rows = {  # kind, kill heads, kill bodies, attack dice
            0: (C.ENEMY_INFECTED, 1, 2, 1),
            1: (C.ENEMY_RAIDER, 1, 2, 2),
            2: (C.ENEMY_INFECTED, 1, 0, 2),
            3: (C.ENEMY_INFECTED, 2, 0, 3),
            4: (C.ENEMY_SURVIVOR, 0, 0, 0),
        }
        for i, (kind, kh, kb, dice) in rows.items():
            tab[i, [C.E_KIND, C.E_KILL_HEADS, C.E_KILL_BODIES, C.E_ATTACK_DICE]] = (kind, kh, kb,
                                                                                  dice)
        self.enemy_tab = tab
        self.die = np.asarray(die, dtype=np.int64)

    def pack(self):
        empty = np.zeros((0, 0), dtype=np.int64)
        return Packed(self.params, empty, self.enemy_tab, empty, self.die,
                      np.zeros(6, dtype=np.int64), empty)


def test_attack_kills_by_name():
    rs = FakeRuleset()
    got = attack_kills(4, ["brute", "wanderer", "wanderer"], ruleset=rs, exact=True)
    assert got.equals(kills_dist(4, [BRUTE, WANDERER, WANDERER], DIE, exact=True))
    assert prob_clear(4, ["Brute", "wanderer", "wanderer"], ruleset=rs) == pytest.approx(
        float(got[3]))
    # survivors are skipped by default...
    skip = attack_kills(4, ["brute", "survivor", "wanderer", "wanderer"], ruleset=rs, exact=True)
    assert skip.equals(got)
    # ...and are targets killed by any damage in the survivors_block_attacks variant
    block = attack_kills(2, ["survivor", "brute"], ruleset=FakeRuleset(survivors_block=1),
                         exact=True)
    assert block.equals(kills_dist(2, [(1, 1), BRUTE], DIE, exact=True))
    # dice cap read from the ruleset
    capped = attack_kills(6, ["wanderer"] * 6, ruleset=FakeRuleset(dice_cap=2), exact=True)
    assert (capped.loc[3:] == 0).all()
    with pytest.raises(KeyError):
        attack_kills(3, ["zombie"], ruleset=rs)


def test_focus_by_name():
    rs = FakeRuleset()
    assert prob_clear(3, ["monster"], ruleset=rs, focus=2) > prob_clear(3, ["monster"], ruleset=rs)


def test_enemy_attack_by_name():
    rs = FakeRuleset()
    names = ["wanderer"] * 6 + ["survivor", "survivor", "monster", "brute", "brute"]
    got = enemy_attack_damage(names, ruleset=rs, exact=True)
    attackers = [(INF, 1)] * 6 + [(INF, 3), (INF, 2), (INF, 2)]
    assert got.equals(enemy_attack_damage_dist(attackers, DIE, survivors=2, exact=True))
    joint = enemy_attack_outcome(["raider", "monster"], barricades=1, protection=1, ruleset=rs,
                                 exact=True)
    assert joint.equals(enemy_attack_dist([(RAI, 2), (INF, 3)], DIE, barricades=1, protection=1,
                                          exact=True))


def test_bodies_per_damage_read_from_ruleset():
    if not hasattr(C, "P_BODIES_PER_DAMAGE"):
        pytest.skip("codes.P_BODIES_PER_DAMAGE not defined")
    rs = FakeRuleset(bodies_per_damage=3)
    got = enemy_attack_damage(["monster", "brute"], ruleset=rs, exact=True)
    assert got.equals(enemy_attack_damage_dist([(INF, 3), (INF, 2)], DIE, bodies_per_damage=3,
                                               exact=True))
    assert not got.equals(enemy_attack_damage(["monster", "brute"], ruleset=FakeRuleset(),
                                              exact=True))


def test_trap_kills_and_dice_faces_by_name():
    rs = FakeRuleset()
    assert trap_kills(["survivor", "brute", "wanderer"], 1, ruleset=rs) == (1, 1)
    assert trap_kills(["monster"], 1, ruleset=rs) == (0, 1)
    assert dice_faces(3, ruleset=rs, exact=True).equals(face_count_dist(3, DIE, exact=True))


def _optional_dependencies() -> set[str]:
    """Top-level module names of the project's optional dependencies (pyproject extras)."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib
    from pathlib import Path

    with open(Path(__file__).resolve().parents[1] / "pyproject.toml", "rb") as f:
        extras = tomllib.load(f)["project"].get("optional-dependencies", {})
    names = set()
    for reqs in extras.values():
        for req in reqs:
            names.add(re.split(r"[\[<>=!~; ]", req, maxsplit=1)[0].strip().lower().replace("-", "_"))
    return names


def test_default_ruleset_reference_numbers():
    # the loader and the default data ship with the package: any error of theirs fails
    # the test; only a missing *optional* dependency (a pyproject extra) skips it
    try:
        from simlib.games.until_daylight import ruleset

        rs = ruleset.load_ruleset("reference")
    except ModuleNotFoundError as exc:
        top = (exc.name or "").split(".")[0].lower()
        if top and top in _optional_dependencies():
            pytest.skip(f"optional dependency {exc.name} is not installed")
        raise
    ref = attack_kills(4, ["brute", "wanderer", "wanderer"], exact=True)
    assert ref.equals(attack_kills(4, ["brute", "wanderer", "wanderer"], ruleset=FakeRuleset(),
                                   exact=True))
    assert prob_clear(4, ["brute", "wanderer", "wanderer"], ruleset=rs) == pytest.approx(
        float(ref.iloc[-1]))


@pytest.mark.parametrize("faces", [(2, 1, 1, 1, 0, 0), (1, 1, 2, 2, 2, 0), (0, 0, 0, 0, 0, 1)])
def test_the_players_attack_table_is_the_exact_multinomial(faces):
    """``outcome_table``: P(h heads and b bodies among d dice) * OUTCOME_SCALE, what the
    players weigh their attacks with, against the multinomial counted exactly here from
    the die's faces (the shipped die first, then two others)."""
    from math import factorial

    from simlib.games.until_daylight.kernels.state_nb import outcome_table

    cap = 6
    n = len(faces)
    ph = Fraction(sum(f == C.FACE_H for f in faces), n)
    pb = Fraction(sum(f == C.FACE_B for f in faces), n)
    px = 1 - ph - pb
    t = outcome_table(np.array(faces, np.int64), cap)
    for d in range(cap + 1):
        for h in range(cap + 1):
            for b in range(cap + 1):
                if h + b > d:
                    assert t[d, h, b] == 0
                    continue
                p = (Fraction(factorial(d), factorial(h) * factorial(b) * factorial(d - h - b))
                     * ph ** h * pb ** b * px ** (d - h - b))
                assert abs(int(t[d, h, b]) - p * C.OUTCOME_SCALE) <= 2, (d, h, b)
