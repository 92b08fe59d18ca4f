"""Until Daylight: the engine's contracts that the rule and differential tests did not read,
found by the sampled mutants of seed 5 (issue #40, docs/reliability.md).

- The batch kernel plays game ``start + i`` at its own table (a study mixes table sizes in
  one batch): each row is the very game a one-game call plays.
- A choice with a single candidate is no decision: a step game never stops there, and the
  record's ``decisions`` counts exactly the choices of two or more candidates taken.
- A continuation's re-key replaces the game's streams by the key's own and leaves the
  unseen decks in card order (what a continuation draws depends only on which cards are
  unseen and on its key).

Runs through the batch API, the step states of ``api`` and the kernels, so it does not
depend on the step ``Game`` class's constructor.
"""
from __future__ import annotations

from collections import Counter

import numpy as np

from simlib.core.rng import init_streams_nb
from simlib.games.until_daylight import codes as K
from simlib.games.until_daylight.api import (apply_step, flat_rules, new_step_state,
                                             play_games, run_kernel, team_codes)
from simlib.games.until_daylight.kernels.game_nb import set_rekey_nb, write_record_nb
from simlib.games.until_daylight.policies import resolve_policy
from simlib.games.until_daylight.ruleset import load_ruleset
from simlib.games.until_daylight.state import GameState

RULES = load_ruleset("reference")
SEED = 2024


def test_each_game_of_a_mixed_batch_is_played_at_its_own_table():
    """A batch whose games have different table sizes (as a study's do): row ``i`` is game
    ``start + i`` with ``npl[i]`` players, the same record a one-game batch of it gives."""
    npl = np.array([6, 3, 4, 5, 3, 6], dtype=np.int64)  # first and last differ on purpose
    n, start = len(npl), 10
    chars = np.full((n, K.MAX_PLAYERS), -1, dtype=np.int64)  # a random team per game
    pid, pp = resolve_policy("baseline")
    out = np.zeros(n, dtype=K.record_dtype())
    run_kernel(RULES, SEED, start, npl, chars, pid, pp, out.view(np.int64).reshape(n, K.N_REC),
               threads=1)
    assert out["players"].tolist() == npl.tolist()
    assert out["game"].tolist() == list(range(start, start + n))
    for i, p in enumerate(npl):
        one = play_games(1, players=int(p), seed=SEED, start=start + i, ruleset=RULES,
                         policy="baseline", threads=1)
        assert one[0].tobytes() == out[i].tobytes(), f"game {start + i} ({p} players)"


def _play_step_game(rs, game: int, players: int, rng) -> tuple[np.ndarray, int]:
    """A step state played to its end by uniformly random choices; every pending decision
    has two or more candidates.  Returns the final state and the decisions taken."""
    st = new_step_state(rs, SEED, game, players, team_codes(None, players, RULES))
    taken = 0
    while not st[K.G_OVER]:
        m = int(st[K.G_PENDING_M])
        assert m >= 2, (f"game {game}: the step game stopped at a choice of {m} candidate(s) "
                        f"(decision {int(st[K.G_PENDING_D])}, round {int(st[K.G_ROUND])})")
        assert apply_step(st, rs, int(rng.integers(m))) >= 0
        taken += 1
    return st, taken


def test_a_single_candidate_is_no_decision_and_the_record_counts_the_decisions_taken():
    rs = flat_rules(RULES)
    rng = np.random.default_rng(5)
    rec = np.zeros(K.N_REC, dtype=np.int64)
    for game, players in enumerate((3, 4, 5, 6)):
        st, taken = _play_step_game(rs, game, players, rng)
        write_record_nb(st, rs, np.int64(game), rec)
        assert taken > 0 and rec[K.REC_DECISIONS] == taken, (game, taken)


def test_a_rekey_replaces_the_streams_by_the_keys_and_orders_the_unseen_decks():
    gs = GameState.new(RULES, players=4, seed=SEED, game=3)
    gs.run(K.PC_ROUND_BEGIN, K.PC_EXCHANGE)  # a round's search and horde: decks half drawn
    hdeck = Counter(gs.hdeck[:int(gs.array[K.G_HDECK_N])].tolist())
    rdeck = Counter(gs.rdeck[:int(gs.array[K.G_RDECK_N])].tolist())
    before = gs.rng.copy()
    for key in (0x5DEECE66D, 0x1234_5678_9ABC):
        set_rekey_nb(gs.array, np.int64(key))
        want = np.zeros_like(gs.rng)
        init_streams_nb(want, np.uint64(key))
        assert gs.rng.tolist() == want.tolist() != before.tolist(), hex(key)
        assert gs.array[K.G_REKEY_AT] == -1  # at once: no decision pending
        h = gs.hdeck[:int(gs.array[K.G_HDECK_N])].tolist()
        r = gs.rdeck[:int(gs.array[K.G_RDECK_N])].tolist()
        assert h == sorted(h) and Counter(h) == hdeck
        assert r == sorted(r) and Counter(r) == rdeck
