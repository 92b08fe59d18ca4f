"""Mort de la lumière du jour: a second transcription of the reference values, from the
rulebook ("Règle du jeu", French) and the game's rules as simlib documents them (the
game's reference ruleset: board, costs, hands, dice, the energy, killer and survivor
decks, variants).  Every value below was typed from that text, not copied from the data
files; the test compares it key by key with the shipped ruleset.  A disagreement is a data
error or a transcription error, to be settled against the rulebook.

Every key of the shipped ruleset is transcribed (``test_every_shipped_key_is_transcribed``);
a key the rules did not state would be listed in ``UNTRANSCRIBED`` with the reason (none
today).
"""
from __future__ import annotations

from tests.transcription import transcription_tests

EXPECTED = {
    # --- board: reference ruleset (15 x 15 squares, lair at (7, 7), location tokens on
    # the lines x, y in {1, 4, 7, 10, 13}, each survivor places 2 pallets); the rules'
    # abstraction ("adjacent" = distance 1)
    "board.board_w": 15,
    "board.board_h": 15,
    "board.token_lines": [1, 4, 7, 10, 13],
    "board.lair_x": 7,
    "board.lair_y": 7,
    "board.reach": 1,
    "board.pallets_per_survivor": 2,
    # docs page "Setup" and "Reference ruleset" (board): each pallet stands "one square east
    # of their token", east being +x of the (x, y) squares
    "board.pallet_dx": 1,
    "board.pallet_dy": 0,
    # rulebook "Descriptif" (a killer against four survivors, four generators repaired),
    # "Mise en place" (3 setup rounds; the killer: 2 generators, 2 shortcuts; a survivor:
    # 1 generator, 1 chest), "Les générateurs" (four lamps), "Les portes" (two successful
    # white rolls), "Rencontre Tueur/survivant" (a helper within four squares)
    "board.help_range": 4,
    "board.survivors": 4,
    "board.setup_rounds": 3,
    "board.killer_generators": 2,
    "board.killer_shortcuts": 2,
    "board.survivor_generators": 1,
    "board.survivor_chests": 1,
    "board.lamps": 4,
    "board.generators_needed": 4,
    "board.gate_successes": 2,
    # --- costs, in energy: rulebook "Le déplacement" (1 a square), "Les cartes survivant"
    # (2), "Les générateurs" (2 a roll; a failed roll gives the killer 1), "Les coffres"
    # (2), "Les portes" (2 a roll), "Les palettes" (drop 1, cross a dropped one 1, break 3
    # and a black roll), "Rencontre Tueur/survivant" (strike 2; a landed hit: -2 next
    # turn); the rules' defaults (a detour round a pallet 3, between shortcuts 1, out by an
    # open gate 1)
    "rules.move_cost": 1,
    "rules.survivor_card_cost": 2,
    # docs page "A round" (cards): "one energy card pays for any number of killer cards":
    # a killer card costs no points of the card that pays for it
    "rules.killer_card_cost": 0,
    "rules.repair_cost": 2,
    "rules.chest_cost": 2,
    "rules.gate_cost": 2,
    "rules.drop_cost": 1,
    "rules.vault_cost": 1,
    "rules.strike_cost": 2,
    "rules.break_cost": 3,
    "rules.detour_cost": 3,
    "rules.shortcut_cost": 1,
    "rules.escape_gate_cost": 1,
    "rules.failed_repair_gain": 1,
    "rules.hit_exhaustion": 2,
    # --- hands: rulebook "Mise en place" (five energy cards each, five killer cards, two
    # survivor cards), "Tour de jeu" (the killer draws back to five and five, a survivor
    # draws one energy card), "Les coffres" (at most two survivor cards); the rules'
    # defaults (a survivor keeps at most 5 energy cards; healthy -> injured -> killed by a
    # second hit; 40 rounds at most); rulebook "Fin de partie" (the killer has killed
    # everyone: 4 kills)
    "rules.killer_energy_hand": 5,
    "rules.killer_card_hand": 5,
    "rules.survivor_energy_hand": 5,
    "rules.survivor_start_cards": 2,
    "rules.survivor_card_limit": 2,
    "rules.survivor_draw": 1,
    "rules.survivor_energy_limit": 5,
    "rules.hits_to_kill": 2,
    "rules.timeout": 40,
    "rules.killer_win_kills": 4,
    # --- variants: the rules' named variants, off by default
    "rules.variants.pooled_energy": False,
    "rules.variants.one_strike_per_target": False,
    "rules.variants.any_card_repairs": False,
    # --- dice: reference ruleset (white and black succeed on 4-6)
    "dice.white": [0, 0, 0, 1, 1, 1],
    "dice.black": [0, 0, 0, 1, 1, 1],
    # --- energy deck (60): reference ruleset (value 1 x 20, 2 x 25, 3 x 15)
    "energy.one.value": 1,
    "energy.one.count": 20,
    "energy.two.value": 2,
    "energy.two.count": 25,
    "energy.three.value": 3,
    "energy.three.count": 15,
    # --- killer deck (20): reference ruleset (casse palette 8, rulebook "Les palettes";
    # sprint 6, +3 squares of movement; blocage 6, a generator gains no lamp)
    "killer_cards.casse_palette.effect": "break_pallet",
    "killer_cards.casse_palette.count": 8,
    "killer_cards.sprint.effect": "sprint",
    "killer_cards.sprint.amount": 3,
    "killer_cards.sprint.count": 6,
    "killer_cards.blocage.effect": "block",
    "killer_cards.blocage.count": 6,
    # --- survivor deck (20): reference ruleset (lampe 5, feux d'artifice 4: the reflexes of
    # rulebook "Rencontre Tueur/survivant"; boîte à outils 5, one lamp without a roll;
    # trousse de soins 3, heals; carte 1 and clé 2: rulebook "La trappe")
    "survivor_cards.lampe.effect": "reflex",
    "survivor_cards.lampe.count": 5,
    "survivor_cards.feux_d_artifice.effect": "reflex",
    "survivor_cards.feux_d_artifice.count": 4,
    "survivor_cards.boite_a_outils.effect": "repair",
    "survivor_cards.boite_a_outils.amount": 1,
    "survivor_cards.boite_a_outils.count": 5,
    "survivor_cards.trousse_de_soins.effect": "heal",
    "survivor_cards.trousse_de_soins.count": 3,
    "survivor_cards.carte.effect": "map",
    "survivor_cards.carte.count": 1,
    "survivor_cards.cle.effect": "key",
    "survivor_cards.cle.count": 2,
}

# Deck sizes (reference ruleset) and the rulebook's components ("Matériel": 6 generators,
# 24 lamps = 6 x 4, 8 pallets = 4 survivors x 2).
DECKS = {"energy": 60, "killer_cards": 20, "survivor_cards": 20}
GENERATORS = 6
LAMPS_IN_BOX = 24
PALLETS = 8


# Keys of the shipped ruleset that neither the rulebook nor the docs page states, with the
# reason (none: every key is transcribed).
UNTRANSCRIBED: dict[str, str] = {}

rules, test_reference_value, test_every_key_exists, test_every_shipped_key_is_transcribed = \
    transcription_tests("mort-de-la-lumiere-du-jour", None, EXPECTED, untranscribed=UNTRANSCRIBED)


def test_deck_sizes_and_components(rules):
    for deck, size in DECKS.items():
        names = {k.split(".")[1] for k in rules.keys() if k.startswith(deck + ".")}
        assert sum(rules.get(f"{deck}.{n}.count") for n in names) == size, deck
    generators = (rules.get("board.killer_generators")
                  + rules.get("board.survivors") * rules.get("board.survivor_generators"))
    assert generators == GENERATORS
    assert generators * rules.get("board.lamps") == LAMPS_IN_BOX
    assert rules.get("board.survivors") * rules.get("board.pallets_per_survivor") == PALLETS
