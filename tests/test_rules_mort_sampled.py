"""Mort de la lumière du jour: checks that close the gaps sampled mutants showed (issue #40,
``python -m benchmarks.mutants.sample --game mort_de_la_lumiere_du_jour --seed 5``).

A card's rule is its ``effect`` (docs: "the card effects are read from the ruleset"), not
its place in the deck file: the kernel looks a card up by effect (``card_of_nb``,
``kcard_of_nb``, -1 for none held), so an effect held in kind 0 must work like one held in
kind 2.  On the shipped data no effect sits where a kind-order slip shows (the sprint is
kind 1, the repair card kind 2), so the differential games are also played with the
effects dealt to other kinds.  The reference engine reads effects by card name, the
kernel by kind index; both must agree.
"""
from __future__ import annotations

import pytest

from tests.test_differential_mort import _check, _ruleset


def _effects(killer: dict, survivor: dict) -> dict:
    """Overrides giving each card kind (by its name in the deck files) another effect;
    ``amount`` goes with the effects that read one (sprint squares, lamps of a repair)."""
    over = {}
    for deck, table in (("killer_cards", killer), ("survivor_cards", survivor)):
        for name, (effect, amount) in table.items():
            over[f"{deck}.{name}.effect"] = effect
            if amount is not None:
                over[f"{deck}.{name}.amount"] = amount
    return over


# the sprint, the repair card and the healing kit first in their decks
SPRINT_FIRST = _effects(
    {"casse_palette": ("sprint", 3), "sprint": ("block", None), "blocage": ("break_pallet", None)},
    {"lampe": ("repair", 1), "feux_d_artifice": ("heal", None), "boite_a_outils": ("map", None),
     "trousse_de_soins": ("key", None), "carte": ("reflex", None), "cle": ("reflex", None)})
# the blocage, the key and the map first
BLOCK_FIRST = _effects(
    {"casse_palette": ("block", None), "sprint": ("break_pallet", None), "blocage": ("sprint", 3)},
    {"lampe": ("key", None), "feux_d_artifice": ("map", None), "boite_a_outils": ("heal", None),
     "trousse_de_soins": ("reflex", None), "carte": ("repair", 1), "cle": ("reflex", None)})


@pytest.mark.parametrize("over,seats,n", [
    (SPRINT_FIRST, "killer=heuristic,survivors=heuristic", 4),
    (SPRINT_FIRST, "killer=random,survivors=random", 4),
    (BLOCK_FIRST, "killer=heuristic,survivors=heuristic", 4),
    (BLOCK_FIRST, "killer=random,survivors=random", 4),
], ids=["sprint_first_heuristic", "sprint_first_random", "block_first_heuristic",
        "block_first_random"])
def test_card_effects_in_any_kind_agree(over, seats, n):
    _check(13, n, seats, _ruleset(over))


def test_the_pool_pays_for_any_purpose_a_walk_round_included():
    """``pooled_energy``: "a turn's energy cards form one pool: points left after one
    purpose pay for the next" (docs, variants) -- every purpose, the walk round a pallet
    (detour, 3 energy) as well as a move; the pool alone is offered for each purpose it can
    pay, before any card.  Set up by hand: the killer with 3 points pooled, a survivor
    next to him behind a dropped pallet that he cannot reach to break."""
    from simlib.games.mort import codes as K
    from simlib.games.mort.step import Game

    rules = _ruleset({"rules.variants.pooled_energy": True})
    detour = int(rules.get("rules.detour_cost"))
    g = Game(seed=3, game=1, seats="killer=heuristic,survivors=heuristic", ruleset=rules)
    while not (g.phase == "turn" and g.to_move == 0):
        g.apply(g.policy_choice())
    S = g.state
    x, y = int(S[K.S_S_X]), int(S[K.S_S_Y])
    w = int(rules.get("board.board_w"))
    dx = 1 if x + 1 < w else -1
    # the survivors beside the killer, pallet 0 dropped beside them, two squares from the
    # killer (out of reach 1: no break); the other pallets standing
    for t in range(1, int(rules.get("board.survivors")) + 1):
        S[K.S_S_STATUS + t] = K.ST_IN
        S[K.S_S_X + t], S[K.S_S_Y + t] = x + dx, y
    for p in range(int(S[K.S_N_PALLETS])):
        S[K.S_PALLET_STATE + p] = K.PAL_STANDING
    S[K.S_PALLET_STATE + 0] = K.PAL_DROPPED
    S[K.S_PALLET_X + 0], S[K.S_PALLET_Y + 0] = x + dx, y + (1 if y + 1 < int(rules.get("board.board_h")) else -1)
    S[K.S_PALLET_DETOUR + 0] = 0
    S[K.S_POOL] = detour
    legal = g.legal_codes()
    assert K.A_POOL + K.Q_DETOUR in legal
    assert K.A_POOL + K.Q_MOVE in legal
    assert K.A_POOL + K.Q_BREAK not in legal          # out of reach
    g.apply_code(K.A_POOL + K.Q_DETOUR)
    assert K.A_DETOUR + 0 in g.legal_codes()


@pytest.mark.parametrize("seats,variant", [
    ("killer=random,survivors=random", None),
    ("killer=heuristic,survivors=heuristic", None),
    ("killer=random,survivors=random", "pooled"),
    ("killer=heuristic,survivors=heuristic", "high"),
], ids=["random", "heuristic", "random_pooled", "heuristic_high_values"])
def test_every_card_stays_in_play_by_value_and_kind(seats, variant):
    """"The decks keep every card in play" (docs): after every decision each energy value's
    cards in the deck, the discards and the hands add up to the ruleset's count, and each
    killer and survivor card kind's likewise -- a hand emptied into the discard when a
    survivor dies or escapes included (a sampled mutant moved it one value over).  The
    shipped energy cards are worth 1 to 3; ``high`` deals them as the highest values the
    engine holds (``codes.MAX_V`` and below), where an off-by-one at a hand's last slot shows."""
    import numpy as np

    from simlib.games.mort import codes as K
    from simlib.games.mort.ruleset import load_ruleset
    from simlib.games.mort.step import Game

    rules = load_ruleset()
    if variant == "pooled":
        rules = rules.override({"rules.variants.pooled_energy": True})
    elif variant == "high":
        rules = rules.override({f"energy.{n}.value": K.MAX_V - i for i, n in enumerate(rules.names("energy"))})
    energy = np.zeros(K.HAND_W, np.int64)
    for n in rules.names("energy"):
        energy[rules.get(f"energy.{n}.value")] += rules.get(f"energy.{n}.count")
    kinds = {deck: [rules.get(f"{deck}.{n}.count") for n in rules.names(deck)]
             for deck in ("killer_cards", "survivor_cards")}
    rng = np.random.default_rng(8)
    for game in range(6):
        g = Game(29, game, seats=seats, ruleset=rules)
        while True:
            st = g.state
            hands = st[K.S_HAND:K.S_HAND + K.MAX_SEATS * K.HAND_W].reshape(K.MAX_SEATS, K.HAND_W)
            held = (st[K.S_ENERGY_DECK:K.S_ENERGY_DECK + K.HAND_W]
                    + st[K.S_ENERGY_DISCARD:K.S_ENERGY_DISCARD + K.HAND_W] + hands.sum(axis=0))
            assert held.tolist() == energy.tolist(), (game, g.phase)
            cards = st[K.S_CARDS:K.S_CARDS + K.MAX_SEATS * K.MAX_K].reshape(K.MAX_SEATS, K.MAX_K)
            for deck, who, pile, discard in (("killer_cards", slice(0, 1), K.S_KDECK, K.S_KDISCARD),
                                             ("survivor_cards", slice(1, None), K.S_SDECK, K.S_SDISCARD)):
                n = len(kinds[deck])
                got = st[pile:pile + n] + st[discard:discard + n] + cards[who, :n].sum(axis=0)
                assert got.tolist() == kinds[deck], (game, deck, g.phase)
            if g.over:
                break
            g.apply(int(rng.integers(len(g.legal_actions()))) if "random" in seats else g.policy_choice())
