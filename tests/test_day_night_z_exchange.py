"""Day Night Z: reorganising the inventory with another survivor (§4.6 "Exchange object
cards and backpack elements (supplies, battery and ammo) with other survivors ... The AP
is only spent when the survivor declares the action, no matter if more than one survivor
takes part"), as the engine plays it: a give (or take) between the active survivor and a
teammate on his place; the first one declares the exchange and costs ``combat.exchange_ap``,
the next ``combat.exchange_items`` - 1 are free until he does anything else; and the
baseline's sharing.  Crafted states on the engine's kernels."""
from __future__ import annotations

import pytest

from simlib.games.day_night_z import codes as K
from tests.test_day_night_z_engine import RS, START, code, new_game, si

AP = RS.get("survivor.ap_green")
XAP = RS.get("combat.exchange_ap")
ITEMS = RS.get("combat.exchange_items")


def give(b, good, take=False):
    return code(K.AC_GIVE, (b * 2 + (1 if take else 0)) * K.N_GOODS + K.GOODS.index(good))


def two_at_start(team=2, **kw):
    """Swift and Lebeu on exit A; Swift activated."""
    g = new_game(team=team, **kw)
    g.apply_code(code(K.AC_ACTIVATE, 0))
    assert g.surv(0, K.U_PLACE) == g.surv(1, K.U_PLACE) == START
    return g


def test_the_reference_values():
    assert (XAP, ITEMS) == (1, 4)


def test_an_exchange_costs_its_ap_once_then_its_gives_are_free():
    g = two_at_start()
    s0, s1 = g.surv(0, K.U_SUPPLIES), g.surv(1, K.U_SUPPLIES)
    g.apply_code(give(1, "supplies"))
    assert g.surv(0, K.U_AP) == AP - XAP and g.surv(0, K.U_EXCHANGE) == ITEMS - 1
    assert (g.surv(0, K.U_SUPPLIES), g.surv(1, K.U_SUPPLIES)) == (s0 - 1, s1 + 1)
    g.apply_code(give(1, "supplies", take=True))      # back again: free
    g.apply_code(give(1, "supplies", take=True))
    assert g.surv(0, K.U_AP) == AP - XAP and (g.surv(0, K.U_SUPPLIES), g.surv(1, K.U_SUPPLIES)) == (s0 + 1, s1 - 1)
    g.apply_code(give(1, "supplies"))                 # the exchange's last transfer
    assert g.surv(0, K.U_EXCHANGE) == 0 and g.surv(0, K.U_AP) == AP - XAP
    g.apply_code(give(1, "supplies"))                 # a new exchange: its AP again
    assert g.surv(0, K.U_AP) == AP - 2 * XAP


def test_another_action_closes_the_exchange():
    g = two_at_start()
    g.apply_code(give(1, "supplies"))
    g.apply_code(code(K.AC_DEFEND))
    assert g.surv(0, K.U_EXCHANGE) == 0
    ap = g.surv(0, K.U_AP)
    g.apply_code(give(1, "supplies"))
    assert g.surv(0, K.U_AP) == ap - XAP


def test_no_exchange_apart_or_without_the_ap():
    g = two_at_start()
    g.state[si(1, K.U_PLACE)] = 1                     # Lebeu on the next zone
    assert not [c for c in g.legal_codes() if c // K.ACT_KIND == K.AC_GIVE]
    g = two_at_start()
    g.state[si(0, K.U_AP)] = XAP - 1
    assert not [c for c in g.legal_codes() if c // K.ACT_KIND == K.AC_GIVE]


def test_what_can_be_given():
    g = two_at_start()
    st = g.state
    for f in (K.U_SUPPLIES, K.U_AMMO, K.U_BATTERY, K.U_PAINKILLERS, K.U_FIRST_AID, K.U_VACCINES):
        st[si(0, f)], st[si(1, f)] = 1, 0
    st[si(0, K.U_FLASHLIGHT)], st[si(0, K.U_LIGHT_TURNS)], st[si(0, K.U_LIGHT)] = 1, 3, 2
    st[si(0, K.U_SUPPRESSOR)] = 1
    legal = set(g.legal_codes())
    gives = {K.GOODS[(c % K.ACT_KIND) // K.ACT_ARG % K.N_GOODS] for c in legal
             if c // K.ACT_KIND == K.AC_GIVE and ((c % K.ACT_KIND) // K.ACT_ARG // K.N_GOODS) % 2 == 0}
    # Swift's Colt is ranged; his melee is his fists, which stay his
    assert gives == {"supplies", "ammo", "battery", "painkillers", "first_aid", "vaccine",
                     "flashlight", "suppressor", "ranged"}
    g.apply_code(give(1, "flashlight"))
    assert (g.surv(1, K.U_FLASHLIGHT), g.surv(1, K.U_LIGHT_TURNS), g.surv(1, K.U_LIGHT)) == (1, 3, 2)
    assert (g.surv(0, K.U_FLASHLIGHT), g.surv(0, K.U_LIGHT_TURNS), g.surv(0, K.U_LIGHT)) == (0, 0, 0)
    assert give(1, "flashlight") not in g.legal_codes()   # Swift has none left to give


def test_weapons_are_swapped_and_fists_stay():
    g = two_at_start()
    colt = RS.weapon_names.index("colt")
    fists = RS.weapon_names.index("fists")
    w1m, w1r = g.surv(1, K.U_MELEE), g.surv(1, K.U_RANGED)
    assert g.surv(0, K.U_RANGED) == colt and g.surv(0, K.U_MELEE) == fists
    assert w1m == RS.weapon_names.index("knife") and w1r == -1       # Lebeu: a knife, no gun
    assert give(1, "melee") not in g.legal_codes()                  # fists are not given
    g.apply_code(give(1, "ranged"))
    assert g.surv(1, K.U_RANGED) == colt and g.surv(0, K.U_RANGED) == -1
    g.apply_code(give(1, "melee", take=True))
    assert g.surv(0, K.U_MELEE) == w1m and g.surv(1, K.U_MELEE) == fists


def waiting_at_the_exit(hour=None):
    """Swift and Lebeu on exit A with the searches done, Kenji a zone away (the adventure
    goes on): the baseline would end Swift's activation with his AP unspent."""
    g = two_at_start(team=3, hour=hour)
    g.state[K.S_GLOBALS + K.G_SEARCHES] = RS.get("scenario.searches_needed")
    g.state[si(2, K.U_PLACE)] = 1
    return g


@pytest.mark.parametrize("share", [1, 0])
def test_the_baseline_gives_a_supply_for_a_meal_a_teammate_lacks(share):
    """An AP it would leave unspent goes on the exchange; the exchange's next give is free
    and taken while still worth it."""
    g = waiting_at_the_exit()
    st = g.state
    st[si(0, K.U_SUPPLIES)] = st[si(0, K.U_EATS)] + 2
    st[si(1, K.U_SUPPLIES)] = st[si(1, K.U_EATS)] - 2
    a = g.legal_codes()[g.policy_choice("baseline", {"share": share})]
    assert (a == give(1, "supplies")) == (share == 1)
    assert (a == code(K.AC_END)) == (share == 0)
    if share:
        g.apply_code(a)
        assert g.legal_codes()[g.policy_choice("baseline")] == give(1, "supplies")


def test_the_baseline_keeps_its_reserve_at_night_and_moves_rather_than_share():
    g = waiting_at_the_exit(hour=22)
    st = g.state
    st[si(0, K.U_SUPPLIES)] = st[si(0, K.U_EATS)] + 2
    st[si(1, K.U_SUPPLIES)] = 0
    assert g.legal_codes()[g.policy_choice("baseline")] == code(K.AC_END)
    g = two_at_start()                                  # searches to do: it walks on
    st = g.state
    st[si(0, K.U_SUPPLIES)] = st[si(0, K.U_EATS)] + 2
    st[si(1, K.U_SUPPLIES)] = 0
    assert g.legal_codes()[g.policy_choice("baseline")] // K.ACT_KIND == K.AC_MOVE


def test_the_baseline_takes_ammunition_it_needs_and_keeps_its_meal():
    g = waiting_at_the_exit()
    st = g.state
    colt = RS.weapon_names.index("colt")
    assert g.surv(0, K.U_RANGED) == colt and RS.get("weapons.colt.ammo") > 0
    st[si(0, K.U_AMMO)], st[si(1, K.U_AMMO)] = 0, 5
    st[si(1, K.U_RANGED)] = -1                        # Lebeu has no gun
    st[si(0, K.U_SUPPLIES)] = st[si(0, K.U_EATS)]      # nothing to spare
    st[si(1, K.U_SUPPLIES)] = 0
    a = g.legal_codes()[g.policy_choice("baseline")]
    assert a == give(1, "ammo", take=True)


def test_a_slow_gun_takes_its_shot_of_the_turn_with_it():
    """§5 SLOW ("you can only shoot this weapon once per turn") and §4.6: Swift shot his
    shotgun this turn and swaps it for Lebeu's rifle: the rifle may still shoot, the
    shotgun may not (the mark goes with the weapon, found by the differential test)."""
    g = two_at_start()
    st = g.state
    shotgun, rifle = RS.weapon_names.index("shotgun"), RS.weapon_names.index("rifle")
    assert RS.get("weapons.shotgun.slow") and RS.get("weapons.rifle.slow")
    st[si(0, K.U_RANGED)], st[si(1, K.U_RANGED)] = shotgun, rifle
    st[si(0, K.U_SLOW_USED)], st[si(1, K.U_SLOW_USED)] = 1, 0
    g.apply_code(give(1, "ranged"))
    assert (g.surv(0, K.U_RANGED), g.surv(0, K.U_SLOW_USED)) == (rifle, 0)
    assert (g.surv(1, K.U_RANGED), g.surv(1, K.U_SLOW_USED)) == (shotgun, 1)
