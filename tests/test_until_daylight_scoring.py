"""The baseline's fast scoring equals the straightforward one, to the last bit.

``policies_nb.kill_expectation_nb`` reads every outcome's kills from a table of kill
thresholds (``combat_nb.kill_thresholds_nb``) instead of searching them one outcome at a
time; the search players rank candidates by these scores and the golden records come from
the choices they make, so the oracles here are the bit-set search (``kills_for_counts_nb``)
and a plain Python transcription of the expectation, on random lines and kill needs the
data never has (heads or bodies of 0 to 3, bodies that cannot kill).  ``choose_nb`` finds
the ammo trades' bit sets once per decision; the search ranks candidates by
``baseline_score_nb``, which finds them per candidate: the same scores.
"""
from __future__ import annotations

import numba
import numpy as np
import pytest

from simlib.games.until_daylight import codes as K
from simlib.games.until_daylight.api import flat_rules
from simlib.games.until_daylight.kernels.combat_nb import (
    kill_thresholds_nb,
    kills_for_counts_nb,
)
from simlib.games.until_daylight.kernels.policies_nb import (
    NOT_KNOWN,
    POLICY_BASELINE,
    ammo_weapons_nb,
    baseline_score_nb,
    choose_nb,
    kill_expectation_nb,
    kill_expectation_slow_nb,
    score_nb,
)
from simlib.games.until_daylight.kernels.state_nb import (
    cands_of,
    card_tab_of,
    inv_of,
    outcome_prob_nb,
    pl_of,
)
from simlib.games.until_daylight.policies import resolve_policy
from simlib.games.until_daylight.ruleset import load_ruleset
from simlib.games.until_daylight.step import Game


def random_enemy_tab(rng, n_types):
    tab = np.zeros((n_types, K.N_ENEMY_COLS), dtype=np.int64)
    tab[:, K.E_KILL_HEADS] = rng.integers(0, 4, n_types)
    tab[:, K.E_KILL_BODIES] = rng.integers(0, 4, n_types)
    tab[:, K.E_ATTACK_DICE] = rng.integers(0, 4, n_types)
    return tab


def test_thresholds_give_the_kills_of_the_bit_set_search():
    rng = np.random.default_rng(7)
    for _ in range(400):
        tab = random_enemy_tab(rng, 5)
        n = int(rng.integers(0, 9))
        line = rng.integers(0, 5, n).astype(np.int64)
        hmax = int(rng.integers(0, 15))
        t = np.full(n * (hmax + 1), -7, dtype=np.int64)
        w = kill_thresholds_nb(line, n, tab, hmax, t)
        t = t.reshape(n, w)
        for h in range(hmax + 1):
            assert (np.diff(t[:, h]) >= 0).all()  # a longer prefix needs no fewer bodies
            for b in range(hmax + 1 - h):
                want = kills_for_counts_nb(line, n, tab, h, b)
                got = 0 if (h == 0 and b == 0) else int((t[:, h] <= b).sum())
                assert got == want, (line, tab, h, b)


def expectation_py(rs, line, enemy_tab, d, per_die):
    """The expectation as the baseline defined it: kills searched for each outcome."""
    ek = prevented = 0.0
    for h in range(d + 1):
        for b in range(d - h + 1):
            p = outcome_prob_nb(rs, d, h, b)
            if p < 1e-4:
                continue
            k = kills_for_counts_nb(line, len(line), enemy_tab, h, b)
            if k == 0:
                continue
            ek += p * k
            for i in range(k):
                prevented += p * (0.25 + per_die * enemy_tab[line[i], K.E_ATTACK_DICE])
    return ek, prevented


@pytest.mark.parametrize("faces", [None, {"H": 2, "B": 2, "X": 2}, {"H": 6}])
def test_fast_expectation_is_bit_identical(faces):
    r = load_ruleset("reference")
    if faces is not None:
        r = r.override({"dice.combat.faces": faces})
    rs = flat_rules(r)
    cap = int(rs[K.P_DICE_CAP])
    rng = np.random.default_rng(11)
    for _ in range(300):
        tab = random_enemy_tab(rng, 6)
        m = int(rng.integers(0, 10))
        line = rng.integers(0, 6, m).astype(np.int64)
        d = int(rng.integers(0, cap + 1))
        per_die = float(rng.uniform(0.1, 2.0))
        row = np.full(m * (d + 2) + 3, -1, dtype=np.int64)
        row[:m] = line
        got = kill_expectation_nb(rs, row, m, tab, d, per_die)
        assert (row[:m] == line).all()  # the line is kept
        slow = kill_expectation_slow_nb(rs, line, m, tab, d, per_die)
        want = expectation_py(rs, line, tab, d, per_die)
        assert got == slow == want, (line, d)
        # a row too short for the table: the slow path, same numbers
        short = line.copy()
        assert kill_expectation_nb(rs, short, m, tab, d, per_die) == want


@numba.njit(cache=False)
def _scores_both_ways(st, rs, pp, out):
    """Every candidate's ``baseline_score_nb`` (the search's ranking: nothing known) and
    ``score_nb`` given both ammo bit sets, and ``choose_nb``'s choice."""
    d, seat, n = st[K.G_PENDING_D], st[K.G_PENDING_SEAT], st[K.G_PENDING_M]
    cands, pl, inv, card_tab = cands_of(st), pl_of(st), inv_of(st), card_tab_of(rs)
    for i in range(n):
        act, a, b = cands[i, 0], cands[i, 1], cands[i, 2]
        out[i, 0] = baseline_score_nb(st, rs, pp, d, seat, act, a, b, pl, inv, card_tab)
        bm = ammo_weapons_nb(st, rs, b) if act == K.A_GIVE or act == K.A_TAKE else NOT_KNOWN
        out[i, 1] = score_nb(st, rs, pp, d, seat, act, a, b, pl, inv, card_tab,
                             ammo_weapons_nb(st, rs, seat), bm)
    return choose_nb(st, rs, POLICY_BASELINE, pp, d, seat, n)


def test_choose_takes_the_first_best_of_the_searchs_scores():
    """At every decision of a few baseline games (every trade listed: step games do not
    leave out the trades the baseline never wants), the scores with the per-decision bit
    sets equal the search's ``baseline_score_nb`` to the bit, and ``choose_nb`` takes the
    first candidate of the highest score."""
    _, pp = resolve_policy("baseline", None)
    seen = set()
    for game in range(6):
        g = Game(seed=3, game=game, players=4 + game % 3)
        while not g.over:
            n = int(g.state[K.G_PENDING_M])
            out = np.zeros((max(n, 1), 2))
            c = _scores_both_ways(g.state, g.rs, pp, out)
            if n > 1:
                assert (out[:n, 0] == out[:n, 1]).all()
                assert c == int(np.argmax(out[:n, 0]))
                seen.update(int(a) for a in g.candidates()[:, 0])
            g.apply(g.policy_choice("baseline"))
    assert {K.A_ATTACK, K.A_GIVE, K.A_TAKE, K.A_DRAW} <= seen
