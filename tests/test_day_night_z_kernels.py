"""Day Night Z's roll kernels (``dice_nb``) against the exact laws (``exact``).

Each kernel rolls once in each of many games (game ``i`` has its own key,
``simlib.core.rng.game_key_nb(seed, i)``); the outcomes are compared with the exact law
by a chi-square goodness-of-fit test (fixed seeds, so deterministic; cells with expected
count < 5 pooled).  The same samples must reject the law of a pool one die smaller, so
each test can fail.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from scipy.stats import chisquare

from simlib.games.day_night_z import codes as K
from simlib.games.day_night_z.kernels import dice_nb as D
from simlib.games.day_night_z import exact as X
from simlib.games.day_night_z.ruleset import load_ruleset

RS = load_ruleset()
DICE = RS.pack_dice()
N = 12_000
SEED = 20261201


def chisq_p(observed: Counter, probs: dict, n: int) -> float:
    """p-value of ``observed`` against ``probs``; 0 if an impossible outcome was seen."""
    if any(probs.get(k, 0.0) <= 0.0 for k in observed):
        return 0.0
    keys = sorted((k for k, p in probs.items() if p > 0.0), key=lambda k: probs[k])
    exp = np.array([probs[k] * n for k in keys])
    obs = np.array([observed.get(k, 0) for k in keys], dtype=np.float64)
    small = exp < 5.0
    e, o = list(exp[~small]), list(obs[~small])
    if small.any():
        e.append(exp[small].sum())
        o.append(obs[small].sum())
    assert len(e) >= 2
    return float(chisquare(np.array(o), np.array(e) * (n / sum(e))).pvalue)


def streams():
    return np.zeros(K.N_STREAMS, dtype=np.uint64)


@pytest.mark.parametrize("pool,stress", [(1, "green"), (3, "yellow"), (5, "red")])
def test_check_kernel(pool, stress):
    out = np.zeros(N, dtype=np.int64)
    D.sample_checks_nb(DICE, SEED, 0, pool, K.LEVELS.index(stress), streams(), out)
    obs = Counter(out.tolist())
    law = {1: X.check_success(pool, stress), 0: 1 - X.check_success(pool, stress)}
    assert chisq_p(obs, law, N) > 1e-3
    wrong = max(pool - 1, 0) if pool > 1 else 2
    bad = {1: X.check_success(wrong, stress), 0: 1 - X.check_success(wrong, stress)}
    assert chisq_p(obs, bad, N) < 1e-6


@pytest.mark.parametrize("pool,health", [(2, "green"), (4, "yellow"), (3, "red")])
def test_attack_kernel(pool, health):
    out = np.zeros((N, 2), dtype=np.int64)
    D.sample_attacks_nb(DICE, SEED + 1, 0, pool, K.LEVELS.index(health), 0, streams(), out)
    obs = Counter((bool(h), bool(s)) for h, s in out.tolist())
    law = dict(X.attack_outcome(pool, health).items())
    assert chisq_p(obs, law, N) > 1e-3
    assert chisq_p(obs, dict(X.attack_outcome(pool - 1, health).items()), N) < 1e-6


@pytest.mark.parametrize("pool,infected", [(1, 0), (3, 0), (3, 1)])
def test_enemy_attack_kernel(pool, infected):
    out = np.zeros((N, 4), dtype=np.int64)
    D.sample_enemy_attacks_nb(DICE, SEED + 2, 0, pool, infected, 2, streams(), out)
    obs = Counter(tuple(r) for r in out.tolist())
    law = dict(X.enemy_attack_outcome(pool, bool(infected), 2).items())
    assert chisq_p(obs, law, N) > 1e-3
    wrong = pool - 1 if pool > 1 else 2
    assert chisq_p(obs, dict(X.enemy_attack_outcome(wrong, bool(infected), 2).items()), N) < 1e-6


def test_kernels_follow_the_data():
    # a nested yellow rule (green stars pass too) must move the kernel with the data
    nested = RS.override({"colours.check.yellow": ["green", "gold", "red"]}).pack_dice()
    out = np.zeros(N, dtype=np.int64)
    D.sample_checks_nb(nested, SEED, 0, 1, K.LEVELS.index("yellow"), streams(), out)
    p = X.check_success(1, "yellow", RS.override({"colours.check.yellow": ["green", "gold", "red"]}))
    assert chisq_p(Counter(out.tolist()), {1: p, 0: 1 - p}, N) > 1e-3
    assert abs(out.mean() - 2 / 3) < 0.02


def test_reproducible_per_game():
    a, b = np.zeros(64, dtype=np.int64), np.zeros(64, dtype=np.int64)
    D.sample_checks_nb(DICE, SEED, 0, 2, 1, streams(), a)
    D.sample_checks_nb(DICE, SEED, 32, 2, 1, streams(), b[:32])
    assert (a[32:] == b[:32]).all()         # game i's roll does not depend on the batch
    c = np.zeros(64, dtype=np.int64)
    D.sample_checks_nb(DICE, SEED + 1, 0, 2, 1, streams(), c)
    assert (a != c).any()                    # another seed, other rolls


def test_pool_minimum_after_sp():
    assert D.pool_nb(DICE, 2 - 2, 1) == 1 and D.pool_nb(DICE, 2 - 2, 0) == 1
    assert D.pool_nb(DICE, 2, 1) == 3 and D.pool_nb(DICE, -3, 1) == 1
