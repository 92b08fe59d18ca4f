"""Day Night Z's search players (``kernels/search_nb.py``): ``rollout`` (flat Monte Carlo
over the baseline, no peeking) and ``clairvoyant`` (the same search on the true future).

Small budgets (n = 3-8 continuations, short horizons) keep the file fast; the properties
checked do not depend on the budget.
"""
from __future__ import annotations

import numpy as np
import pytest

from simlib.games.day_night_z import codes as K
from simlib.games.day_night_z.step import Game
from simlib.games.day_night_z.play import play_games
from simlib.games.day_night_z.policies import POLICIES, param_array

_G = K.S_GLOBALS
SMALL = {"n": 3, "horizon": 2}


def _success(out):
    return out["records"][:, K.RECORD_FIELDS.index("success")].astype(float)


# ------------------------------------------------------------------ reproducibility
@pytest.mark.parametrize("policy,params", [("rollout", SMALL), ("clairvoyant", {"horizon": 2})])
def test_a_search_game_is_a_function_of_seed_and_game_only(policy, params):
    one = play_games(6, seed=2, policy=policy, params=params, threads=1)
    two = play_games(6, seed=2, policy=policy, params=params, threads=2)
    tail = play_games(3, seed=2, start=3, policy=policy, params=params, threads=1)
    for k in one:
        np.testing.assert_array_equal(one[k], two[k])
        np.testing.assert_array_equal(one[k][3:], tail[k])
    other = play_games(6, seed=3, policy=policy, params=params, threads=1)
    assert not np.array_equal(one["records"][:, 1:], other["records"][:, 1:])


def test_the_step_game_plays_the_batch_games_with_the_rollout_player():
    rows = play_games(2, seed=5, policy="rollout", params=SMALL)["records"]
    for i in range(2):
        g = Game(5, i, policy=("rollout", SMALL))
        while not g.over:
            g.apply(g.policy_choice())
        assert g.record_array().tolist() == rows[i].tolist(), i
        h = Game(5, i, policy=("rollout", SMALL)).play()
        assert h.record_array().tolist() == rows[i].tolist(), i


# ------------------------------------------------------------------ no peeking
def _decks(g):
    """(first index in the state, cards, position global) of every deck: written from the
    state layout, apart from the search kernel's list."""
    _, _, spn, rl = g.packed
    P = K.R_PARAMS
    nt = rl[P + K.RP_N_THREAT]
    return [(K.S_SDECK, rl[P + K.RP_N_SEARCH], K.G_POS_SEARCH),
            (K.S_XSPAWN, spn[K.X_PARAMS + K.SP_N_CARDS], K.G_POS_SPAWN),
            (K.S_T_SIDE, nt, K.G_POS_THREAT), (K.S_T_HOURS, nt, K.G_POS_THREAT),
            (K.S_T_HUNTER, nt, K.G_POS_THREAT), (K.S_T_INF, nt, K.G_POS_THREAT),
            (K.S_T_COND, nt, K.G_POS_THREAT),
            (K.S_EDECK, rl[P + K.RP_N_ENC], K.G_POS_ENC), (K.S_UDECK, rl[P + K.RP_N_SUR], K.G_POS_SUR),
            (K.S_XDECK, rl[P + K.RP_N_EXP], K.G_POS_EXP), (K.S_CDECK, rl[P + K.RP_N_CORPSE], K.G_POS_CORPSE)]


def _hide_the_future(g, rng):
    """A copy of ``g`` whose unseen cards are permuted (each deck's undrawn part; an
    encounter card drawn and not yet resolved swapped with an undrawn one) and whose dice
    and rule streams to come are others: what the players cannot know, changed."""
    h = g.clone()
    st = h.state
    changed = False
    for lo, n, gpos in _decks(h):
        pos = int(st[_G + gpos])
        if n - pos >= 2:
            tail = st[lo + pos:lo + n].copy()
            st[lo + pos:lo + n] = rng.permutation(tail)
            changed |= not np.array_equal(tail, st[lo + pos:lo + n])
    lo, n, gpos = _decks(h)[7]
    pos = int(st[_G + K.G_POS_ENC])
    for s in range(int(st[_G + K.G_TEAM])):
        i = K.S_SURV + s * K.U_W + K.U_ENCOUNTER
        if st[i] >= 0 and pos < n:
            j = lo + int(rng.integers(pos, n))
            st[i], st[j] = st[j], st[i]
    h.rng[:] = rng.integers(1, 2 ** 63, size=h.rng.shape[0]).astype(np.uint64)
    assert changed
    return h


def _mid_game_states(n_games=6, every=9):
    """Games of the baseline stopped every ``every`` decisions (seed 4)."""
    for i in range(n_games):
        g = Game(4, i, policy=("rollout", SMALL))
        k = 0
        while not g.over:
            if k % every == every - 1 and len(g.legal_codes()) >= 2:
                yield g.clone()
            g.apply(g.policy_choice("baseline"))
            k += 1


def test_a_rollout_choice_does_not_see_the_unseen_cards_or_the_dice_to_come():
    rng = np.random.default_rng(8)
    seen = searched = clair_moved = 0
    for g in _mid_game_states():
        choice = g.policy_choice()
        base = g.policy_choice("baseline")
        clair = g.policy_choice("clairvoyant", {"horizon": 2})
        for _ in range(2):
            h = _hide_the_future(g, rng)
            assert h.legal_codes() == g.legal_codes()
            assert h.policy_choice() == choice, g.describe()
            clair_moved += h.policy_choice("clairvoyant", {"horizon": 2}) != clair
        seen += 1
        searched += choice != base
    assert seen >= 40
    # the property is not empty: the search often departs from the baseline, and a
    # player that does see the future (clairvoyant) changes its mind with it
    assert searched >= 3, searched
    assert clair_moved >= 3, clair_moved


def test_re_keying_redraws_the_unseen_cards_only_and_forgets_their_order():
    """``rekey_nb`` on a mid-game state: every deck keeps its drawn part and the cards of
    its unseen part (with the encounter cards held), nothing else in the state moves, and
    the result is the same whatever the unseen part's order was."""
    from simlib.games.day_night_z.kernels.search_nb import continuation_key_nb, rekey_nb
    rng = np.random.default_rng(5)
    held = np.zeros(K.MAX_SURV, np.int64)
    enc = [K.S_SURV + s * K.U_W + K.U_ENCOUNTER for s in range(K.MAX_SURV)]
    checked = 0
    for g in list(_mid_game_states(n_games=2, every=25)):
        _, _, spn, rl = g.packed
        key = np.uint64(continuation_key_nb(np.int64(4), np.int64(g.game), np.int64(g.state[_G + K.G_DECISIONS]),
                                            np.int64(0)))
        outs = []
        for h in (g, _hide_the_future(g, rng)):
            st = h.state.copy()
            wr = np.zeros(K.N_STREAMS, np.uint64)
            rekey_nb(st, wr, spn, rl, key, held)
            outs.append(st)
            touched = np.zeros(st.size, bool)
            for lo, n, gpos in _decks(h):
                pos = int(h.state[_G + gpos])
                np.testing.assert_array_equal(st[lo:lo + min(pos, n)], h.state[lo:lo + min(pos, n)])
                extra = [i for i in enc if h.state[i] >= 0] if lo == K.S_EDECK else []
                before = sorted(list(h.state[lo + pos:lo + n]) + [h.state[i] for i in extra])
                after = sorted(list(st[lo + pos:lo + n]) + [st[i] for i in extra])
                assert before == after
                touched[lo:lo + n] = True
                touched[extra] = True
            np.testing.assert_array_equal(st[~touched], h.state[~touched])
        np.testing.assert_array_equal(outs[0], outs[1])
        checked += 1
    assert checked >= 5


# ------------------------------------------------------------------ strength
def test_clairvoyant_beats_rollout_beats_the_baseline():
    """100 adventures of a team of 4 (seed 11), paired by game: each step up the ladder
    raises the success rate by more than two paired standard errors."""
    n = 100
    base = _success(play_games(n, seed=11))
    roll = _success(play_games(n, seed=11, policy="rollout", params={"n": 8, "horizon": 2}))
    clair = _success(play_games(n, seed=11, policy="clairvoyant", params={"horizon": 3}))
    for hi, lo, what in ((roll, base, "rollout - baseline"), (clair, roll, "clairvoyant - rollout")):
        d = hi - lo
        se = d.std(ddof=1) / np.sqrt(n)
        assert d.mean() - 2 * se > 0, (what, d.mean(), se)


# ------------------------------------------------------------------ parameters
def test_the_search_parameters_are_checked_and_placed():
    par = param_array("rollout", {"n": 7, "heal_at": 4})
    names = POLICIES["rollout"].param_names
    assert "n" in names and "heal_at" in names
    base = param_array("baseline", {"heal_at": 4})
    assert list(par[:base.size]) == list(base)  # the baseline's part, as the baseline reads it
    assert par[base.size] == 7
    for bad in ({"n": 0}, {"n": 2.5}, {"top_k": -1}, {"horizon": 1.5}):
        with pytest.raises(ValueError):
            param_array("rollout", bad)
    with pytest.raises(ValueError):
        param_array("rollout", {"no_such": 1})
