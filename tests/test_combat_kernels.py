"""Tests of the jitted combat kernels (simlib.games.until_daylight.kernels.combat_nb).

Three layers:

1. the rulebook's worked examples, with the dice faces fixed by hand;
2. the kernels against the exact oracle (:mod:`simlib.games.until_daylight.exact`):
   exhaustive / hypothesis comparisons of the deterministic cores, and chi-square
   goodness of fit of the sampled dice and kill counts (fixed seeds: deterministic);
3. structural properties (hypothesis): kills are a prefix of the target line, cards are
   conserved, more heads never kill fewer, roll buffers are written only up to ``k``.

Hypothesis runs derandomized, so every run draws the same examples.
"""
from __future__ import annotations

import warnings
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from simlib.core.rng import make_streams
from simlib.games.until_daylight.codes import STREAM_CARDS, STREAM_DICE
from simlib.games.until_daylight import codes as C
from simlib.games.until_daylight import exact
from simlib.games.until_daylight.kernels.combat_nb import (
    enemy_batch_nb,
    kills_for_counts_nb,
    player_attack_area_nb,
    roll_faces_nb,
    trap_step_nb,
)
from simlib.games.until_daylight.ruleset import load_ruleset

# Hypothesis imports its patch writer (libcst -> mypy_extensions) only when a test fails;
# that import emits a DeprecationWarning which the project's ``filterwarnings = error``
# turns into a pytest INTERNALERROR hiding the failure.  Import it once here, quietly.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    try:
        import hypothesis.extra._patching  # noqa: F401
    except ImportError:  # libcst missing: hypothesis skips the patch file
        pass

RS = load_ruleset("reference")
PK = RS.pack()
TAB = PK.enemy_tab
DIE = PK.die_faces
PARAMS = PK.params
CAP = int(PARAMS[C.P_DICE_CAP])
BAR_H = int(PARAMS[C.P_BARRICADE_HEADS])
BAR_B = int(PARAMS[C.P_BARRICADE_BODIES])
BPD = int(PARAMS[C.P_BODIES_PER_DAMAGE])
TRAP_H = int(PARAMS[C.P_TRAP_HEADS])
SB_DEFAULT = int(PARAMS[C.P_V_SURVIVORS_BLOCK])

W = RS.enemy_id("wanderer")
R = RS.enemy_id("raider")
BR = RS.enemy_id("brute")
M = RS.enemy_id("monster")
S = RS.enemy_id("survivor")
REF_TYPES = [W, R, BR, M, S]
X, B, H = C.FACE_X, C.FACE_B, C.FACE_H

FAST = settings(max_examples=150, deadline=None, derandomize=True, database=None)


# --------------------------------------------------------------------------- helpers
def make_streams_u64(seed: int, game: int) -> np.ndarray:
    """The stream state of one game as the game kernel builds it (``make_streams``)."""
    return make_streams(seed, game)


def counts(faces) -> tuple[int, int, int]:
    """(heads, bodies, misses) of a hand-written face list."""
    faces = list(faces)
    return faces.count(H), faces.count(B), faces.count(X)


def needs(line, tab=TAB) -> list[tuple[int, int]]:
    return [(int(tab[t, C.E_KILL_HEADS]), int(tab[t, C.E_KILL_BODIES])) for t in line]


def kinds(line, tab=TAB) -> list[int]:
    return [int(tab[t, C.E_KIND]) for t in line]


def is_target(t, tab, sb) -> bool:
    return sb != 0 or int(tab[t, C.E_KIND]) != C.ENEMY_SURVIVOR


def area_row(line, pad=3) -> np.ndarray:
    """An int64 area row holding ``line`` followed by ``pad`` sentinel slots (-1)."""
    row = np.full(len(line) + pad, -1, dtype=np.int64)
    row[: len(line)] = line
    return row


def attack(line, h, b, sb=SB_DEFAULT, tab=TAB):
    """Run player_attack_area_nb; return (kills, remaining list, killed list, row)."""
    row = area_row(line)
    cap = len(row)
    line_buf = np.full(cap, -1, dtype=np.int64)
    killed = np.full(cap, -1, dtype=np.int64)
    kills, new_n = player_attack_area_nb(row, len(line), tab, h, b, sb, line_buf, killed)
    return int(kills), [int(v) for v in row[:new_n]], [int(v) for v in killed[:kills]], row


def traps(line, n_traps, trap_heads=TRAP_H, tab=TAB):
    """Run trap_step_nb; return (kills, fired, remaining list, killed list)."""
    row = area_row(line)
    killed = np.full(len(row), -1, dtype=np.int64)
    kills, fired, new_n = trap_step_nb(row, len(line), tab, n_traps, trap_heads, killed)
    return int(kills), int(fired), [int(v) for v in row[:new_n]], [int(v) for v in killed[:kills]]


def expected_after_kills(line, kills, tab, sb):
    """The line minus its first ``kills`` targets (order kept), and those targets."""
    rest, dead = [], []
    for t in line:
        if len(dead) < kills and is_target(t, tab, sb):
            dead.append(t)
        else:
            rest.append(t)
    return rest, dead


def kills_nb(line, h, b, tab=TAB) -> int:
    return int(kills_for_counts_nb(np.asarray(line, dtype=np.int64), len(line), tab, h, b))


def counts_hb(limit=CAP):
    return [(h, b) for h in range(limit + 1) for b in range(limit + 1 - h)]


def chisq_pvalue(observed: Counter, probs: dict, n: int) -> float:
    """Chi-square p-value of ``observed`` against ``probs`` (cells with expected < 5 merged)."""
    for key in observed:
        assert probs.get(key, 0.0) > 0.0, f"impossible outcome {key} observed"
    keys = [k for k, p in probs.items() if p > 0.0]
    exp = np.array([probs[k] * n for k in keys], dtype=np.float64)
    obs = np.array([observed.get(k, 0) for k in keys], dtype=np.float64)
    assert obs.sum() == n
    big = exp >= 5.0
    e_cells, o_cells = list(exp[big]), list(obs[big])
    if (~big).any():
        pe, po = exp[~big].sum(), obs[~big].sum()
        if pe >= 5.0 or not e_cells:
            e_cells.append(pe)
            o_cells.append(po)
        else:  # too small even pooled: fold into the smallest kept cell
            j = int(np.argmin(e_cells))
            e_cells[j] += pe
            o_cells[j] += po
    e_arr, o_arr = np.array(e_cells), np.array(o_cells)
    if len(e_arr) < 2:
        return 1.0
    e_arr *= o_arr.sum() / e_arr.sum()  # float rounding of the probabilities
    return float(chisquare(o_arr, e_arr).pvalue)


# =========================================================================== 1. rulebook examples
def test_reference_pack_matches_rulebook_numbers():
    """The numbers the examples below rely on (guards against a silent data change)."""
    assert needs([R, W, BR, M, S]) == [(1, 2), (1, 2), (1, 0), (2, 0), (1, 1)]
    assert (CAP, BAR_H, BAR_B, BPD, TRAP_H, SB_DEFAULT) == (6, 1, 2, 2, 1, 0)
    assert kinds([R, W, S]) == [C.ENEMY_RAIDER, C.ENEMY_INFECTED, C.ENEMY_SURVIVOR]
    assert not TAB.flags.writeable  # the kernels are fed the read-only packed arrays


def test_rulebook_attack_example_1():
    """6 dice 1X 2H 3B on Raider, Wanderer, Wanderer, Monster: 3 kills, Monster stays."""
    h, b, x = counts([X, H, H, B, B, B])
    assert (h, b, x) == (2, 3, 1)
    line = [R, W, W, M]
    kills, rest, dead, row = attack(line, h, b)
    assert kills == 3
    assert rest == [M]
    assert dead == [R, W, W]
    assert kills_nb(line, h, b) == 3
    assert exact.kills_for_counts(h, b, needs(line)) == 3


def test_rulebook_attack_example_2():
    """5 B on a 10-card line starting Raider, Brute: the Raider dies, the Brute stops it."""
    line = [R, BR, W, W, M, R, R, W, M, BR]
    h, b, x = counts([B] * 5)
    kills, rest, dead, _ = attack(line, h, b)
    assert kills == 1
    assert dead == [R]
    assert rest == line[1:]


def test_rulebook_raider_example():
    """4 Raiders = 8 dice in batches 6 + 2; 2 survivors in the area."""
    assert sum(int(TAB[R, C.E_ATTACK_DICE]) for _ in range(4)) == 8
    assert exact.batch_sizes(8, CAP) == [6, 2]
    survivors = 2
    h, b, x = counts([X, X, X, B, B, B])
    sk, bd, dmg = enemy_batch_nb(h, b, x, C.ENEMY_RAIDER, survivors, 0, BAR_H, BAR_B, BPD)
    assert (sk, bd, dmg) == (2, 0, 1)  # the X kill both survivors; 3 B = 1 damage
    survivors -= sk
    h, b, x = counts([H, B])
    sk, bd, dmg = enemy_batch_nb(h, b, x, C.ENEMY_RAIDER, survivors, 0, BAR_H, BAR_B, BPD)
    assert (sk, bd, dmg) == (0, 0, 1)  # the lone B is lost at the end of the batch


def test_raider_heads_and_bodies_skip_survivors():
    sk, bd, dmg = enemy_batch_nb(2, 2, 0, C.ENEMY_RAIDER, 3, 0, BAR_H, BAR_B, BPD)
    assert (sk, bd, dmg) == (0, 0, 3)


def test_rulebook_infected_example():
    """6 Wanderers, 2 Survivors, 1 Monster, 2 Brutes: 13 dice, batches 6 + 6 + 1."""
    attackers = [W] * 6 + [M] + [BR] * 2
    dice = sum(int(TAB[t, C.E_ATTACK_DICE]) for t in attackers)
    assert dice == 13 and exact.batch_sizes(dice, CAP) == [6, 6, 1]
    survivors = 2
    total = 0
    expected = [((2, 2, 2), (2, 0, 1)), ((0, 4, 2), (0, 0, 2)), ((0, 0, 1), (0, 0, 0))]
    for (h, b, x), want in expected:
        got = enemy_batch_nb(h, b, x, C.ENEMY_INFECTED, survivors, 0, BAR_H, BAR_B, BPD)
        assert tuple(got) == want
        survivors -= got[0]
        total += got[2]
    assert survivors == 0 and total == 3


def test_rulebook_barricade_example():
    """Monster + Brute (5 dice) roll 1X 4B against 2 barricades: both destroyed, no damage."""
    assert int(TAB[M, C.E_ATTACK_DICE]) + int(TAB[BR, C.E_ATTACK_DICE]) == 5
    h, b, x = counts([X, B, B, B, B])
    assert enemy_batch_nb(h, b, x, C.ENEMY_INFECTED, 0, 2, BAR_H, BAR_B, BPD) == (0, 2, 0)


def test_barricade_swallows_what_cannot_destroy_it():
    # 1 B cannot destroy the barricade: it lands there and nothing passes
    assert enemy_batch_nb(0, 1, 0, C.ENEMY_INFECTED, 0, 1, BAR_H, BAR_B, BPD) == (0, 0, 0)
    # 1 H destroys the first, 3 B destroy the second and the third B is lost
    assert enemy_batch_nb(1, 3, 0, C.ENEMY_INFECTED, 0, 2, BAR_H, BAR_B, BPD) == (0, 2, 0)
    # 2 H: one barricade, one damage
    assert enemy_batch_nb(2, 0, 0, C.ENEMY_RAIDER, 0, 1, BAR_H, BAR_B, BPD) == (0, 1, 1)


def test_rulebook_trap_example_brute():
    line = [BR, W, W, R, M]
    kills, fired, rest, dead = traps(line, 1)
    assert (kills, fired) == (1, 1)
    assert dead == [BR] and rest == [W, W, R, M]


def test_rulebook_trap_example_monster():
    line = [M, W, W, R, BR]
    kills, fired, rest, dead = traps(line, 1)
    assert (kills, fired) == (0, 1)  # the trap fires and is spent, the Monster survives
    assert rest == line and dead == []


def test_faq_two_traps_kill_a_monster():
    assert traps([M], 2) == (1, 2, [], [M])
    assert traps([M, BR], 2) == (1, 2, [BR], [M])
    assert traps([M, BR], 3) == (2, 3, [], [M, BR])


def test_traps_skip_survivors():
    kills, fired, rest, dead = traps([S, BR, S, W], 1)
    assert (kills, fired) == (1, 1)
    assert dead == [BR] and rest == [S, S, W]
    kills, fired, rest, dead = traps([S, BR, S, W], 2)
    assert (kills, fired, rest, dead) == (2, 2, [S, S], [BR, W])


def test_trap_without_enemy_does_not_fire():
    assert traps([], 2) == (0, 0, [], [])
    assert traps([S, S], 2) == (0, 0, [S, S], [])
    # traps beyond the last enemy stay unfired
    assert traps([BR], 2) == (1, 1, [], [BR])
    assert traps([S, W, S], 2) == (1, 1, [S, S], [W])
    assert traps([W], 0) == (0, 0, [W], [])


def test_player_attack_skips_survivors_by_default():
    kills, rest, dead, _ = attack([S, W], 1, 0)
    assert kills == 1 and dead == [W] and rest == [S]


def test_survivors_block_variant_makes_the_survivor_the_first_target():
    kills, rest, dead, _ = attack([S, W], 1, 0, sb=1)
    assert kills == 1 and dead == [S] and rest == [W]
    # a survivor dies to any damage: 1 B on it, 1 H on the Wanderer
    kills, rest, dead, _ = attack([S, W], 1, 1, sb=1)
    assert kills == 2 and dead == [S, W] and rest == []
    # with nothing rolled the survivor still blocks
    kills, rest, dead, _ = attack([S, W], 0, 0, sb=1)
    assert kills == 0 and rest == [S, W]


# =========================================================================== 2. kernels vs exact
ref_lines = st.lists(st.sampled_from(REF_TYPES), min_size=0, max_size=8)


@FAST
@given(line=ref_lines)
def test_kills_for_counts_matches_exact_reference_types(line):
    nd = needs(line)
    for h, b in counts_hb():
        assert kills_nb(line, h, b) == exact.kills_for_counts(h, b, nd), (line, h, b)


@st.composite
def custom_tab_and_line(draw):
    n_types = draw(st.integers(1, 5))
    tab = np.zeros((n_types, C.N_ENEMY_COLS), dtype=np.int64)
    for t in range(n_types):
        tab[t, C.E_KIND] = C.ENEMY_INFECTED
        tab[t, C.E_KILL_HEADS] = draw(st.integers(1, 3))
        tab[t, C.E_KILL_BODIES] = draw(st.integers(0, 4))
    line = draw(st.lists(st.integers(0, n_types - 1), min_size=0, max_size=8))
    return tab, line


@FAST
@given(data=custom_tab_and_line())
def test_kills_for_counts_matches_exact_custom_kill_needs(data):
    """Any kill needs a designer writes: the kernel's split stays optimal (no greedy rule)."""
    tab, line = data
    nd = needs(line, tab)
    for h, b in counts_hb():
        assert kills_nb(line, h, b, tab) == exact.kills_for_counts(h, b, nd), (nd, h, b)


def test_kills_for_counts_beats_body_first_greed():
    """A line where body-first greed loses: (1,2) then (1,3) with 1 H 3 B kills 2."""
    tab = np.zeros((2, C.N_ENEMY_COLS), dtype=np.int64)
    tab[:, C.E_KILL_HEADS] = 1
    tab[0, C.E_KILL_BODIES] = 2
    tab[1, C.E_KILL_BODIES] = 3
    assert exact.kills_for_counts(1, 3, [(1, 2), (1, 3)]) == 2
    assert kills_nb([0, 1], 1, 3, tab) == 2


@pytest.mark.parametrize("kind", [C.ENEMY_RAIDER, C.ENEMY_INFECTED])
def test_enemy_batch_matches_exact_exhaustive(kind):
    n = 0
    for h in range(CAP + 1):
        for b in range(CAP + 1 - h):
            for x in range(CAP + 1 - h - b):
                for sur in range(4):
                    for bar in range(4):
                        sk, bd, dmg = enemy_batch_nb(h, b, x, kind, sur, bar, BAR_H, BAR_B, BPD)
                        d, bar_left, sur_left, pro_left = exact.resolve_batch(
                            h, b, x, kind, barricades=bar, survivors=sur, protection=0,
                            barricade_heads=BAR_H, barricade_bodies=BAR_B,
                            bodies_per_damage=BPD)
                        assert (sk, bd, dmg) == (sur - sur_left, bar - bar_left, d), (
                            h, b, x, kind, sur, bar)
                        assert pro_left == 0
                        n += 1
    assert n == 84 * 16


@pytest.mark.parametrize("kind", [C.ENEMY_RAIDER, C.ENEMY_INFECTED])
@pytest.mark.parametrize("bar_h,bar_b,bpd", [(1, 1, 1), (2, 3, 2), (1, 3, 3), (2, 1, 1)])
def test_enemy_batch_matches_exact_other_constants(kind, bar_h, bar_b, bpd):
    """Barricade needs and bodies-per-damage are data: the kernel follows them like exact."""
    for h in range(CAP + 1):
        for b in range(CAP + 1 - h):
            x = CAP - h - b
            for sur in range(3):
                for bar in range(3):
                    sk, bd, dmg = enemy_batch_nb(h, b, x, kind, sur, bar, bar_h, bar_b, bpd)
                    d, bar_left, sur_left, _ = exact.resolve_batch(
                        h, b, x, kind, barricades=bar, survivors=sur, barricade_heads=bar_h,
                        barricade_bodies=bar_b, bodies_per_damage=bpd)
                    assert (sk, bd, dmg) == (sur - sur_left, bar - bar_left, d)


@FAST
@given(line=ref_lines, n_traps=st.integers(0, 5))
def test_trap_step_matches_exact_reference(line, n_traps):
    kills, fired, rest, dead = traps(line, n_traps)
    assert (kills, fired) == exact.trap_step(needs(line), n_traps, TRAP_H, kinds(line))
    want_rest, want_dead = expected_after_kills(line, kills, TAB, 0)
    assert rest == want_rest and dead == want_dead


@st.composite
def custom_trap_case(draw):
    n_types = draw(st.integers(1, 4))
    tab = np.zeros((n_types, C.N_ENEMY_COLS), dtype=np.int64)
    for t in range(n_types):
        tab[t, C.E_KIND] = draw(st.sampled_from(
            [C.ENEMY_RAIDER, C.ENEMY_INFECTED, C.ENEMY_SURVIVOR]))
        tab[t, C.E_KILL_HEADS] = draw(st.integers(1, 4))
        tab[t, C.E_KILL_BODIES] = draw(st.integers(0, 3))
    line = draw(st.lists(st.integers(0, n_types - 1), max_size=8))
    return tab, line, draw(st.integers(0, 6)), draw(st.integers(1, 3))


@FAST
@given(case=custom_trap_case())
def test_trap_step_matches_exact_custom(case):
    tab, line, n_traps, trap_heads = case
    kills, fired, rest, dead = traps(line, n_traps, trap_heads, tab)
    assert (kills, fired) == exact.trap_step(needs(line, tab), n_traps, trap_heads,
                                             kinds(line, tab))
    want_rest, want_dead = expected_after_kills(line, kills, tab, 0)
    assert rest == want_rest and dead == want_dead


N_ROLLS = 20000


@pytest.mark.parametrize("k", range(1, CAP + 1))
def test_roll_faces_goodness_of_fit(k):
    rng = make_streams_u64(20240601, k)
    faces = np.zeros(CAP, dtype=np.int64)
    obs = Counter()
    for _ in range(N_ROLLS):
        obs[tuple(int(v) for v in roll_faces_nb(rng, STREAM_DICE, k, DIE, faces))] += 1
    dist = exact.face_count_dist(k, DIE)
    probs = {tuple(int(v) for v in key): float(p) for key, p in dist.items()}
    p = chisq_pvalue(obs, probs, N_ROLLS)
    assert p > 1e-4, (k, p)


KILL_LINE = [BR, S, W, R, M, W]  # the survivor is skipped by default


@pytest.mark.parametrize("k", range(1, CAP + 1))
def test_sampled_attack_kills_goodness_of_fit(k):
    rng = make_streams_u64(777, 100 + k)
    faces = np.zeros(CAP, dtype=np.int64)
    base = area_row(KILL_LINE)
    n = len(KILL_LINE)
    line_buf = np.zeros(len(base), dtype=np.int64)
    killed = np.zeros(len(base), dtype=np.int64)
    obs = Counter()
    for _ in range(N_ROLLS):
        h, b, _x = roll_faces_nb(rng, STREAM_DICE, k, DIE, faces)
        row = base.copy()
        kills, new_n = player_attack_area_nb(row, n, TAB, h, b, SB_DEFAULT, line_buf, killed)
        assert kills + new_n == n
        obs[int(kills)] += 1
    targets = [t for t in KILL_LINE if t != S]
    dist = exact.kills_dist(k, needs(targets), DIE, dice_cap=CAP)
    probs = {int(key): float(p) for key, p in dist.items()}
    p = chisq_pvalue(obs, probs, N_ROLLS)
    assert p > 1e-4, (k, p)


def roll_sequence(rng, stream, n, die=DIE):
    faces = np.full(n, -1, dtype=np.int64)
    roll_faces_nb(rng, stream, n, die, faces)
    return faces


# The stream helper and the kernels' streams are checked against published splitmix64
# outputs and an independent Python model in tests/test_rng_reference.py.


def test_rolls_deterministic_for_a_seed():
    a = roll_sequence(make_streams_u64(42, 3), STREAM_DICE, 40)
    b = roll_sequence(make_streams_u64(42, 3), STREAM_DICE, 40)
    np.testing.assert_array_equal(a, b)


def test_rolls_differ_across_seeds_games_and_streams():
    base = roll_sequence(make_streams_u64(42, 3), STREAM_DICE, 40)
    others = [
        roll_sequence(make_streams_u64(43, 3), STREAM_DICE, 40),
        roll_sequence(make_streams_u64(42, 4), STREAM_DICE, 40),
        roll_sequence(make_streams_u64(42, 3), STREAM_CARDS, 40),
    ]
    for o in others:
        assert not np.array_equal(base, o)
    assert not np.array_equal(others[0], others[1])


def test_roll_touches_only_its_stream_and_draws_once_per_die():
    rng = make_streams_u64(5, 0)
    before = rng.copy()
    first = roll_sequence(rng, STREAM_DICE, 3)
    second = roll_sequence(rng, STREAM_DICE, 2)
    changed = np.flatnonzero(rng != before)
    assert changed.tolist() == [STREAM_DICE]
    # rolling 3 then 2 dice is rolling 5 dice at once: one draw per die, none wasted
    whole = roll_sequence(make_streams_u64(5, 0), STREAM_DICE, 5)
    np.testing.assert_array_equal(np.concatenate([first, second]), whole)


def test_zero_dice_roll_is_empty_and_draws_nothing():
    rng = make_streams_u64(9, 9)
    before = rng.copy()
    faces = np.full(4, -5, dtype=np.int64)
    assert roll_faces_nb(rng, STREAM_DICE, 0, DIE, faces) == (0, 0, 0)
    assert (faces == -5).all()
    np.testing.assert_array_equal(rng, before)


# =========================================================================== 3. properties
@FAST
@given(seed=st.integers(0, 2**31 - 1), game=st.integers(0, 10**6), k=st.integers(0, CAP),
       die=st.lists(st.sampled_from([X, B, H]), min_size=1, max_size=12))
def test_roll_writes_k_faces_and_counts_add_up(seed, game, k, die):
    die = np.asarray(die, dtype=np.int64)
    faces = np.full(CAP + 4, -9, dtype=np.int64)
    h, b, x = roll_faces_nb(make_streams_u64(seed, game), STREAM_DICE, k, die, faces)
    assert (faces[k:] == -9).all()
    written = faces[:k].tolist()
    assert set(written) <= set(die.tolist())
    assert (h, b, x) == counts(written)
    assert h + b + x == k and min(h, b, x) >= 0


hb_pairs = st.integers(0, CAP).flatmap(
    lambda h: st.tuples(st.just(h), st.integers(0, CAP - h)))


@FAST
@given(line=ref_lines, hb=hb_pairs, sb=st.sampled_from([0, 1]))
def test_attack_kills_a_prefix_of_the_targets(line, hb, sb):
    h, b = hb
    kills, rest, dead, row = attack(line, h, b, sb)
    n_targets = sum(is_target(t, TAB, sb) for t in line)
    assert 0 <= kills <= n_targets
    assert len(rest) + kills == len(line)  # cards conserved
    want_rest, want_dead = expected_after_kills(line, kills, TAB, sb)
    assert rest == want_rest and dead == want_dead
    assert (row[len(line):] == -1).all()  # nothing written past the live cards
    if sb == 0:
        assert S not in dead
        assert [t for t in rest if t == S] == [t for t in line if t == S]
    # it is also the optimum the exact module finds on the target line
    targets = [t for t in line if is_target(t, TAB, sb)]
    assert kills == exact.kills_for_counts(h, b, needs(targets))


@FAST
@given(line=ref_lines, hb=hb_pairs, sb=st.sampled_from([0, 1]))
def test_more_dice_never_kill_fewer(line, hb, sb):
    h, b = hb
    k0 = attack(line, h, b, sb)[0]
    assert attack(line, h + 1, b, sb)[0] >= k0  # one more head
    assert attack(line, h, b + 1, sb)[0] >= k0  # one more body
    if b > 0:  # a focus card (B -> H) never hurts with the reference kill needs
        assert attack(line, h + 1, b - 1, sb)[0] >= k0


@FAST
@given(data=custom_tab_and_line(), hb=hb_pairs)
def test_more_dice_never_kill_fewer_custom_needs(data, hb):
    tab, line = data
    h, b = hb
    k0 = kills_nb(line, h, b, tab)
    assert k0 <= len(line)
    assert kills_nb(line, h + 1, b, tab) >= k0
    assert kills_nb(line, h, b + 1, tab) >= k0


@FAST
@given(line=ref_lines, n_traps=st.integers(0, 6))
def test_traps_conserve_cards_and_fire_at_most_their_number(line, n_traps):
    kills, fired, rest, dead = traps(line, n_traps)
    n_enemies = sum(t != S for t in line)
    assert 0 <= kills <= min(fired, n_enemies)
    assert 0 <= fired <= n_traps
    assert len(rest) + kills == len(line)
    assert S not in dead
    if n_enemies == 0:
        assert fired == 0
    if kills < n_enemies:  # an enemy is left: every trap fired
        assert fired == n_traps
