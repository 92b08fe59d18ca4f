"""Until Daylight: a second transcription of the reference values, from the rulebook and the
game's rules as simlib documents them (the reference ruleset: characters, horde deck,
rubble deck, dice, constants).  Every value below was typed from that text, not copied from
the data files; the test compares it key by key with the shipped ``reference`` ruleset.  A
disagreement is a data error or a transcription error, to be settled against the rulebook.

Only the ``reference`` ruleset is checked: the default ``calibrated`` preset deliberately
moves some assumed values.  Every key of the reference ruleset is transcribed
(``test_every_shipped_key_is_transcribed``); a key the rules did not state would be listed
in ``UNTRANSCRIBED`` with the reason (none today).
"""
from __future__ import annotations

from tests.transcription import transcription_tests

EXPECTED = {
    # --- constants: rulebook "Goal & How to Play" (10 rounds), "The 6-Dice Rule",
    # "Rules of Protection Token" (2 tokens), "What's in the Box?" (6 traps, 12
    # barricades), "Barricades" (1 head or 2 bodies), "Traps" (1 head damage), "Resolution
    # of Damage" (1 collateral per X; 2 bodies = 1 damage), the rules' turn structure
    # (wave = players + round, +1 XP per saved survivor, 3-6 players), round 10
    # (50 exchanges before a stalemate)
    "constants.rounds": 10,
    "constants.dice_cap": 6,
    "constants.token_limit": 2,
    "constants.trap_supply": 6,
    "constants.barricade_supply": 12,
    "constants.barricade_heads": 1,
    "constants.barricade_bodies": 2,
    "constants.trap_heads": 1,
    "constants.collateral_per_x": 1,
    "constants.wave_per_player": 1,
    "constants.survivor_xp": 1,
    "constants.min_players": 3,
    "constants.max_players": 6,
    "constants.stalemate_cap": 50,
    "constants.bodies_per_damage": 2,
    # search timer (the game's reference ruleset): K = 2 * players + U{-2..2}, at least 1
    "constants.search_timer.per_player": 2,
    "constants.search_timer.offset": 0,
    "constants.search_timer.spread": 2,
    "constants.search_timer.min": 1,
    # variants: the rules' defaults (survivors do not block attacks, raiders then infected
    # area by area, the horde discard pile is reshuffled when the deck runs out)
    "variants.survivors_block_attacks": False,
    "variants.all_raiders_first": False,
    "variants.horde_reshuffle": True,
    # docs page "Traps and barricades" and "Variants": by default the trap's owner gets the
    # kill's rewards
    "variants.trap_rewards": True,
    # --- dice: rulebook "Icons Index" (combat die: head, body, miss; Die of Fate: six
    # faces, one each); the combat die's split 1 H / 3 B / 2 X is the reference ruleset's
    # fit to the rulebook's examples
    "dice.combat.size": 6,
    "dice.combat.faces": {"H": 1, "B": 3, "X": 2},
    "dice.fate.size": 6,
    "dice.fate.faces": {"remove_enemy": 1, "add_enemy": 1, "discard_card": 1, "draw_card": 1,
                        "heal": 1, "damage": 1},
    # --- characters: the reference ruleset's character table; rulebook "Game Setup"
    # (10 rubble cards each, except the Haggler) and "Experience Points" (the Psycho's
    # +1 melee die)
    "characters.pillar.health": 7,
    "characters.pillar.slots": 10,
    "characters.pillar.basic_weapon": "crowbar",
    "characters.pillar.advantage.kind": "absorb_adjacent",
    "characters.pillar.advantage.amount": 1,
    "characters.pillar.drawback.kind": "distance_dice",
    "characters.pillar.drawback.amount": -1,
    "characters.hipster.health": 5,
    "characters.hipster.slots": 10,
    "characters.hipster.basic_weapon": "bow",
    "characters.hipster.advantage.kind": "draw_extra",  # draws 2, keeps 1: one extra card
    "characters.hipster.advantage.amount": 1,
    "characters.hipster.drawback.kind": "no_firearms",
    # a drawback of a kind that forbids (no firearms, no barricades, no give) is in force:
    # its amount is the flag, 1 (the engine reads any non-zero amount as "on"; 0 would lift
    # the drawback the docs page's table states)
    "characters.hipster.drawback.amount": 1,
    "characters.trigger.health": 5,
    "characters.trigger.slots": 10,
    "characters.trigger.basic_weapon": "trigger_pistol",
    "characters.trigger.advantage.kind": "distance_dice",
    "characters.trigger.advantage.amount": 1,
    "characters.trigger.drawback.kind": "extra_collateral",  # 2 collateral per X, not 1
    "characters.trigger.drawback.amount": 1,
    "characters.haggler.health": 4,
    "characters.haggler.slots": 14,
    "characters.haggler.basic_weapon": "knife",
    "characters.haggler.advantage.kind": "free_trades",  # once per turn
    "characters.haggler.advantage.amount": 1,
    "characters.haggler.drawback.kind": "none",  # the drawback is the low health
    "characters.haggler.drawback.amount": 0,  # a drawback of kind none carries no amount
    "characters.drifter.health": 6,
    "characters.drifter.slots": 10,
    "characters.drifter.basic_weapon": "drifter_machete",
    "characters.drifter.advantage.kind": "ignore_damage",  # the first damage each round
    "characters.drifter.advantage.amount": 1,
    "characters.drifter.drawback.kind": "no_barricades",
    "characters.drifter.drawback.amount": 1,  # the flag: in force (see the Hipster's)
    "characters.psycho.health": 6,
    "characters.psycho.slots": 10,
    "characters.psycho.basic_weapon": "baseball_bat",
    "characters.psycho.advantage.kind": "melee_dice",
    "characters.psycho.advantage.amount": 1,
    "characters.psycho.drawback.kind": "no_give",
    "characters.psycho.drawback.amount": 1,  # the flag: in force (see the Hipster's)
    # --- horde deck (95): counts from the reference ruleset; rulebook "Resolution of Damage
    # During the Characters' Attacks" (1 head or 2 bodies for a wanderer or raider, 1 head for
    # a brute, 2 heads for a monster), "Begin the Enemies' Attack" / "The Infected Are
    # Attacking Next" (raider 2 dice, wanderer 1, brute 2, monster 3), "At the End of an
    # Attack" (monsters are kept, +1 XP; the others are discarded); rewards per the rules
    # (raider +1 card, brute +1, monster +2, wanderer nothing); a survivor dies to any damage
    "horde.wanderer.kind": "infected",
    "horde.wanderer.count": 45,
    "horde.wanderer.kill_heads": 1,
    "horde.wanderer.kill_bodies": 2,
    "horde.wanderer.attack_dice": 1,
    "horde.wanderer.reward_cards": 0,
    "horde.wanderer.reward_xp": 0,
    "horde.wanderer.kept": False,
    "horde.raider.kind": "raider",
    "horde.raider.count": 20,
    "horde.raider.kill_heads": 1,
    "horde.raider.kill_bodies": 2,
    "horde.raider.attack_dice": 2,
    "horde.raider.reward_cards": 1,
    "horde.raider.reward_xp": 0,
    "horde.raider.kept": False,
    "horde.brute.kind": "infected",
    "horde.brute.count": 12,
    "horde.brute.kill_heads": 1,
    "horde.brute.kill_bodies": 0,  # bodies never kill a brute
    "horde.brute.attack_dice": 2,
    "horde.brute.reward_cards": 1,
    "horde.brute.reward_xp": 0,
    "horde.brute.kept": False,
    "horde.monster.kind": "infected",
    "horde.monster.count": 8,
    "horde.monster.kill_heads": 2,
    "horde.monster.kill_bodies": 0,  # bodies never kill a monster
    "horde.monster.attack_dice": 3,
    "horde.monster.reward_cards": 2,
    "horde.monster.reward_xp": 1,
    "horde.monster.kept": True,
    "horde.survivor.kind": "survivor",
    "horde.survivor.count": 10,
    "horde.survivor.kill_heads": 1,
    "horde.survivor.kill_bodies": 1,
    "horde.survivor.attack_dice": 0,
    # rulebook "The Different Types of Hordes": the rewards are printed for the raider, the
    # brute and the monster only, XP comes from saving a survivor ("Experience Points":
    # "Saving a survivor"), not from eliminating one; "The Infected Are Attacking Next":
    # eliminated survivors' cards are "discarded in the hordes discard pile" (not kept).
    # The docs page: "Rewards: a Raider or a Brute gives 1 rubble card, a Monster 2 cards
    # and 1 XP (its card is kept); a Wanderer nothing" -- none for a survivor
    "horde.survivor.reward_cards": 0,
    "horde.survivor.reward_xp": 0,
    "horde.survivor.kept": False,
    # --- rubble deck (185): the reference ruleset's card table.  Ammo: same-type ammo
    # stacks in one slot (rulebook "Icons Index": similar ammunition can be combined)
    "rubble.gun_ammo.kind": "ammo",
    "rubble.gun_ammo.count": 30,
    "rubble.gun_ammo.dice": 1,
    "rubble.gun_ammo.stacks": True,
    "rubble.shotgun_shells.kind": "ammo",
    "rubble.shotgun_shells.count": 10,
    "rubble.shotgun_shells.dice": 2,
    "rubble.shotgun_shells.stacks": True,
    "rubble.arrows.kind": "ammo",
    "rubble.arrows.count": 10,
    "rubble.arrows.dice": 1,
    "rubble.arrows.stacks": True,
    # weapons (a pistol fires gun ammo: rulebook "a gun and 6 gun ammo")
    "rubble.pistol.kind": "weapon",
    "rubble.pistol.count": 3,
    "rubble.pistol.ammo": "gun_ammo",
    "rubble.pistol.melee": False,
    "rubble.pistol.firearm": True,
    "rubble.shotgun.kind": "weapon",
    "rubble.shotgun.count": 2,
    "rubble.shotgun.ammo": "shotgun_shells",
    "rubble.shotgun.melee": False,
    "rubble.shotgun.firearm": True,
    "rubble.rifle.kind": "weapon",
    "rubble.rifle.count": 2,
    "rubble.rifle.ammo": "gun_ammo",
    "rubble.rifle.weapon_bonus": 1,
    "rubble.rifle.melee": False,
    "rubble.rifle.firearm": True,
    "rubble.machete.kind": "weapon",
    "rubble.machete.count": 3,
    "rubble.machete.dice": 2,
    "rubble.machete.melee": True,
    "rubble.axe.kind": "weapon",
    "rubble.axe.count": 2,
    "rubble.axe.dice": 3,
    "rubble.axe.melee": True,
    "rubble.chainsaw.kind": "weapon",
    "rubble.chainsaw.count": 1,
    "rubble.chainsaw.dice": 4,
    "rubble.chainsaw.melee": True,
    # heal (rulebook "Actions": consuming food takes an action)
    "rubble.canned_food.kind": "heal",
    "rubble.canned_food.count": 14,
    "rubble.canned_food.amount": 1,
    "rubble.canned_food.needs_action": True,
    "rubble.medkit.kind": "heal",
    "rubble.medkit.count": 6,
    "rubble.medkit.amount": 2,
    "rubble.medkit.needs_action": True,
    "rubble.bandage.kind": "heal",
    "rubble.bandage.count": 4,
    "rubble.bandage.amount": 1,
    "rubble.bandage.needs_action": False,
    # craft materials
    "rubble.wire.kind": "material",
    "rubble.wire.count": 8,
    "rubble.blade.kind": "material",
    "rubble.blade.count": 8,
    "rubble.planks.kind": "material",
    "rubble.planks.count": 10,
    "rubble.nails.kind": "material",
    "rubble.nails.count": 10,
    # protection (absorb 1, then discarded)
    "rubble.helmet.kind": "protection",
    "rubble.helmet.count": 4,
    "rubble.helmet.amount": 1,
    "rubble.vest.kind": "protection",
    "rubble.vest.count": 4,
    "rubble.vest.amount": 1,
    # combat, before the roll
    "rubble.vitality.kind": "dice_bonus",
    "rubble.vitality.count": 4,
    "rubble.vitality.dice": 1,
    "rubble.bloodlust.kind": "dice_bonus",
    "rubble.bloodlust.count": 4,
    "rubble.bloodlust.dice": 2,
    "rubble.bloodlust.melee": True,
    # combat, after the roll, and the extra attack
    "rubble.focus.kind": "focus",
    "rubble.focus.count": 6,
    "rubble.lucky.kind": "lucky",
    "rubble.lucky.count": 5,
    "rubble.energy_shot.kind": "energy_shot",
    "rubble.energy_shot.count": 5,
    "rubble.adrenaline.kind": "adrenaline",
    "rubble.adrenaline.count": 3,
    # XP (rulebook "Experience Points": a symbol card gives 1 XP while held)
    "rubble.symbol.kind": "symbol",
    "rubble.symbol.count": 10,
    "rubble.symbol.amount": 1,
    "rubble.pickpocket.kind": "pickpocket",
    "rubble.pickpocket.count": 3,
    "rubble.pickpocket.amount": 1,
    # using a pickpocket takes an action: rulebook "Search Phase" (taking a card from another
    # player is an action; "Use a rubble card requiring an action"), and the docs page's
    # cards played without an action (energy shot, vitality!, focus, lucky; the bandage)
    # do not include it
    "rubble.pickpocket.needs_action": True,
    # events (red, resolved at once): noise draws 1 horde card, injury 1 damage, lost item
    # discards 1
    "rubble.noise.kind": "event_noise",
    "rubble.noise.count": 7,
    "rubble.noise.amount": 1,
    "rubble.injury.kind": "event_injury",
    "rubble.injury.count": 4,
    "rubble.injury.amount": 1,
    "rubble.lost_item.kind": "event_lost_item",
    "rubble.lost_item.count": 3,
    "rubble.lost_item.amount": 1,
    # --- basic weapons (the reference ruleset's character table: crowbar melee 2 dice, bow
    # distance with arrows and silent, pistol with gun ammo, knife melee 1 die, machete
    # melee 2 dice, baseball bat melee 2 dice)
    "rubble.basic_weapons.crowbar.kind": "weapon",
    "rubble.basic_weapons.crowbar.dice": 2,
    "rubble.basic_weapons.crowbar.melee": True,
    "rubble.basic_weapons.bow.kind": "weapon",
    "rubble.basic_weapons.bow.ammo": "arrows",
    "rubble.basic_weapons.bow.melee": False,
    "rubble.basic_weapons.bow.silent": True,
    "rubble.basic_weapons.trigger_pistol.kind": "weapon",
    "rubble.basic_weapons.trigger_pistol.ammo": "gun_ammo",
    "rubble.basic_weapons.trigger_pistol.melee": False,
    "rubble.basic_weapons.trigger_pistol.firearm": True,
    "rubble.basic_weapons.knife.kind": "weapon",
    "rubble.basic_weapons.knife.dice": 1,
    "rubble.basic_weapons.knife.melee": True,
    "rubble.basic_weapons.drifter_machete.kind": "weapon",
    "rubble.basic_weapons.drifter_machete.dice": 2,
    "rubble.basic_weapons.drifter_machete.melee": True,
    "rubble.basic_weapons.baseball_bat.kind": "weapon",
    "rubble.basic_weapons.baseball_bat.dice": 2,
    "rubble.basic_weapons.baseball_bat.melee": True,
    # --- recipes (trap: wire + blade; barricade: planks + nails)
    "recipes.trap.ingredients": ("wire", "blade"),
    "recipes.barricade.ingredients": ("planks", "nails"),
}

# Deck sizes and the names of every entry (rulebook "What's in the Box?": 185 rubble
# cards, 95 horde cards, 6 characters; the reference ruleset's tables).
RUBBLE_TOTAL = 185
HORDE_TOTAL = 95
CHARACTERS = {"pillar", "hipster", "trigger", "haggler", "drifter", "psycho"}
ENEMIES = {"wanderer", "raider", "brute", "monster", "survivor"}
RUBBLE_CARDS = {
    "gun_ammo", "shotgun_shells", "arrows", "pistol", "shotgun", "rifle", "machete", "axe",
    "chainsaw", "canned_food", "medkit", "bandage", "wire", "blade", "planks", "nails",
    "helmet", "vest", "vitality", "bloodlust", "focus", "lucky", "energy_shot", "adrenaline",
    "symbol", "pickpocket", "noise", "injury", "lost_item",
}
BASIC_WEAPONS = {"crowbar", "bow", "trigger_pistol", "knife", "drifter_machete", "baseball_bat"}


def _same(got, want, rules=None):
    """Lists come back as tuples; ingredient lists compare in any order."""
    def norm(v):
        return sorted(v) if isinstance(v, (list, tuple)) else v
    return norm(got) == norm(want)


# Keys of the reference ruleset that neither the rulebook nor the docs page states, with the
# reason (none: every key is transcribed).
UNTRANSCRIBED: dict[str, str] = {}

rules, test_reference_value, test_every_key_exists, test_every_shipped_key_is_transcribed = \
    transcription_tests("until_daylight", "reference", EXPECTED, same=_same,
                        untranscribed=UNTRANSCRIBED)


def test_entries_and_deck_sizes(rules):
    assert set(rules.character_names) == CHARACTERS
    assert set(rules.enemy_names) == ENEMIES
    assert set(rules.basic_weapon_names) == BASIC_WEAPONS
    assert set(rules.card_names) - BASIC_WEAPONS == RUBBLE_CARDS
    assert sum(rules.get(f"rubble.{n}.count") for n in RUBBLE_CARDS) == RUBBLE_TOTAL
    assert sum(rules.get(f"horde.{n}.count") for n in ENEMIES) == HORDE_TOTAL
    assert sum(rules.get("dice.combat.faces").values()) == rules.get("dice.combat.size")
    assert sum(rules.get("dice.fate.faces").values()) == rules.get("dice.fate.size")
