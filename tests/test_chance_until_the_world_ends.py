"""Until the World Ends: the step Game's chance events (issue #40) are complete and mean what
their docstring says: every round's deck order, every redeal's order, and nothing else.

Each test checks them against the kernel's own trace log and positions, so a shuffle the
events miss, or an order read the wrong way round, fails here.
"""
from __future__ import annotations

import pytest

from simlib.games.until_the_world_ends import codes as K
from simlib.games.until_the_world_ends.step import Game
from simlib.games.until_the_world_ends.ruleset import load_ruleset

RULES = load_ruleset()
N_CARDS = RULES.n_cards
DEAL = int(RULES.flat()[K.R_PARAMS + K.P_DEAL])


def _seat_lists(g: Game):
    st = g.state
    hands = [[int(c) for c in st[K.S_HAND + s * K.SEAT_W:K.S_HAND + s * K.SEAT_W + st[K.S_S_HAND_N + s * K.SEAT_W]]]
             for s in range(g.players)]
    tls = [[int(c) for c in st[K.S_TL + s * K.SEAT_W:K.S_TL + s * K.SEAT_W + st[K.S_S_TL_N + s * K.SEAT_W]]]
           for s in range(g.players)]
    return hands, tls


def _pile(g: Game) -> list[int]:
    """The draw pile in the order its cards will leave it."""
    st = g.state
    return [int(c) for c in st[K.S_PILE:K.S_PILE + st[K.S_N_PILE]][::-1]]


def _step(g: Game, code: int) -> list:
    n = len(g.chance_events())
    g.apply_code(code)
    return g.chance_events()[n:]


def test_first_deal_is_the_deck_dealt_one_at_a_time_from_the_dealers_left():
    for players in (2, 4, 7, 17):
        for gi in range(3):
            g = Game(seed=11, game=gi, players=players)
            ev = g.chance_events()
            assert len(ev) == 1 and ev[0][0] == "deal"
            order = ev[0][1]
            assert sorted(order) == list(range(N_CARDS))
            hands, _ = _seat_lists(g)
            dealer = int(g.state[K.S_DEALER])
            for k in range(1, players + 1):
                s = (dealer + k) % players
                assert hands[s] == [order[r * players + k - 1] for r in range(DEAL)]
            assert _pile(g) == list(order[DEAL * players:])


@pytest.mark.parametrize("players,seat", [(3, "random"), (4, "greedy"), (6, "greedy")])
def test_every_draw_is_the_next_card_of_the_last_shuffle(players, seat):
    """Walk the trace log: each round's deal and each redeal has its event, in order, and
    every card drawn (on a turn or by a scavenge) is the next card of the last shuffle."""
    shuffles = draws = 0
    for gi in range(6):
        g = Game(seed=12, game=gi, players=players, seats=[seat] * players, trace=True)
        g.play()
        events = iter(g.chance_events())
        order, ptr = None, 0
        for row in g.log_rows():
            kind = int(row[0])
            if kind == K.LG_ROUND:
                ev = next(events)
                assert ev[0] == "deal" and sorted(ev[1]) == list(range(N_CARDS))
                order, ptr = ev[1], N_CARDS - int(row[3])
                assert ptr == DEAL * players
                shuffles += 1
            elif kind == K.LG_REDEAL:
                ev = next(events)
                d, left = int(row[3]), int(row[4])
                assert ev[0] == "redeal" and len(ev[1]) == d
                order, ptr = ev[1], d - left
                shuffles += 1
            elif kind == K.LG_DRAW:
                assert int(row[3]) == order[ptr], (gi, ptr)
                ptr += 1
                draws += 1
        assert next(events, None) is None, "a chance event with no shuffle in the log"
    assert shuffles > 6 and draws > 50


@pytest.mark.parametrize("deal_all", [False, True])
def test_a_redeal_deals_its_order_and_leaves_the_rest_as_the_pile(deal_all):
    """After a redeal (the same action dealing no new round) each hand ends with the cards
    the order deals it, from the dealer's left, the pile is the order's rest, and the order
    holds exactly the cards outside the hands' old parts, the timelines and the common area."""
    rules = RULES.override({"constants.variants.deal_all": deal_all})
    seen = 0
    for gi in range(8):
        n = 5
        g = Game(seed=13, game=gi, players=n, ruleset=rules)
        while not g.over and seen < 12:
            ev = _step(g, g.legal_codes()[g.policy_choice()])
            if [e[0] for e in ev] != ["redeal"] or g.phase == "pick":
                continue
            seen += 1
            order = list(ev[0][1])
            d = len(order)
            dealt = d if deal_all else (d // n) * n
            hands, tls = _seat_lists(g)
            dealer = int(g.state[K.S_DEALER])
            got = {s: [] for s in range(n)}
            for i in range(dealt):
                got[(dealer + 1 + i) % n].append(order[i])
            for s in range(n):
                k = len(got[s])
                assert hands[s][len(hands[s]) - k:] == got[s]
            assert _pile(g) == order[dealt:]
            kept = [c for s in range(n) for c in hands[s][:len(hands[s]) - len(got[s])]]
            rest = kept + [c for t in tls for c in t] + [int(c) for c in g.state[K.S_COMMON:K.S_COMMON + g.state[K.S_N_COMMON]]]
            assert sorted(rest + order) == list(range(N_CARDS))
    assert seen >= 10


def test_a_redeal_whose_turn_reaches_the_cap_keeps_its_order():
    """A redeal's turn that reaches the turn cap deals the next round in the same action,
    which shuffles over the redeal's pile: its order is then shuffled again from the
    deal stream as it stood.  It must be the order the same action gives when the cap is
    out of reach (the same position, the same stream)."""
    far = RULES.override({"constants.turn_cap": 100_000})
    found = 0
    for gi in range(60):
        g = Game(seed=3, game=gi, players=6)
        while not g.over:
            code = g.legal_codes()[g.policy_choice()]
            before = g.clone()
            ev = _step(g, code)
            if [e[0] for e in ev] == ["redeal", "deal"]:
                twin = Game(seed=3, game=gi, players=6, ruleset=far)
                twin._eng.state[:] = before.state
                assert _step(twin, code) == ev[:1]
                assert sorted(ev[1][1]) == list(range(N_CARDS))
                found += 1
        if found >= 1:
            break
    assert found >= 1


def test_clone_carries_the_events_and_play_matches_stepping():
    g = Game(seed=14, game=2, players=4)
    for _ in range(40):
        g.apply(g.policy_choice())
    c = g.clone()
    assert c.chance_events() == g.chance_events()
    c.play()
    assert len(c.chance_events()) > len(g.chance_events())
    assert c.chance_events()[:len(g.chance_events())] == g.chance_events()
    stepped = g.clone()
    while not stepped.over:
        stepped.apply(stepped.policy_choice())
    assert stepped.chance_events() == c.chance_events()
    assert stepped.result == c.result
    rounds = int(c.state[K.S_ROUND])
    assert [k for k, _ in c.chance_events()].count("deal") == rounds
    assert [k for k, _ in c.chance_events()].count("redeal") == int(c.state[K.S_REDEALS])
