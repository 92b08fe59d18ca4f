"""Day Night Z: a second transcription of the reference values, from the rulebook and the
game's rules as simlib documents them (the game's reference ruleset: die faces, tracks,
clock, survivors day and night, enemies day and night, weapons, the search, spawn, threat,
encounter, surprise and exploration decks, the city and the "Supply run" scenario, the
campaign's shelter at its start).  Every
value below was typed from that text, not copied from the data files; the test compares it
key by key with the shipped ruleset.  A disagreement is a data error or a transcription
error, to be settled against the rulebook.

Values neither the rulebook nor the docs page states are listed in ``UNTRANSCRIBED`` with
the reason (``test_every_shipped_key_is_transcribed``): the Hunter's day side, the
corpse-marker and armour counts, which body location the other armours cover, which
firearms take a suppressor, the locations' search modifiers, and the campaign's cards the
docs page calls assumed without printing them (facility costs and effects, skills' costs
and attributes, allies' bonuses, the shelter events table, the travel cards and routes).
Where the docs page states part of such a value (a facility's basic level, a skill's +1 on
one attribute, an ally's single effect, the routes' length and dice), a test below checks
that part.
"""
from __future__ import annotations

from tests.transcription import transcription_tests


def _spawn(**enemies):
    """A spawn row: enemy name -> miniatures (absent names: 0)."""
    return enemies


EXPECTED = {
    # --- survivor tracks: reference ruleset "Tracks" (health 9: 9-7 green 3 AP, 6-4 yellow
    # 2 AP, 3-1 red 1 AP; rulebook §2 "health 5 -> 2 AP's", §3.3 "3 health points -> 1 AP";
    # stress 0-8, yellow from 3, red from 6, §3.6 "7 stress points (red)"; infection 0-3, 4
    # kills; start SP 3; 2 supplies each); rulebook §3.5 (SP capped at 15, at most 1 SP a
    # roll, +1 SP per passed check, "minimum 1 die"), §3.6 (+1 stress per damaging attack),
    # §4.2/§2 (a supply heals 1), §4.3 (Rest: -1 stress)
    "survivor.health_max": 9,
    "survivor.health_yellow_at": 6,
    "survivor.health_red_at": 3,
    "survivor.ap_green": 3,
    "survivor.ap_yellow": 2,
    "survivor.ap_red": 1,
    "survivor.stress_max": 8,
    "survivor.stress_yellow_from": 3,
    "survivor.stress_red_from": 6,
    "survivor.infection_death": 4,
    "survivor.sp_start": 3,
    "survivor.sp_cap": 15,
    "survivor.max_sp_per_roll": 1,
    "survivor.min_pool": 1,
    "survivor.sp_per_passed_check": 1,
    "survivor.stress_per_damaging_attack": 1,
    "survivor.supply_heals": 1,
    "survivor.rest_stress": 1,
    "survivor.start_supplies": 2,
    "survivor.start_battery": 1,        # assumed: one battery unit in each backpack (§4.2)
    # --- threat track: reference ruleset "Tracks" (start green 1; a unit costs 2 SP in green,
    # 3 in yellow) and rules "Noise and threat": 15 units a level (rulebook §3.2: green 14
    # + 2 = yellow 1), red capped, red units green 5, 10, 15 and yellow 3, 6, 9, 12, 15
    # (§3.2), any noise counter +1 once (§3.9), leaving enemies: SP 1-4 +1, 5-9 +2 (§3.2),
    # 10-14 +3 (§3.2: 13 -> +3), >= 15 +4
    "threat_track.units_per_level": 15,
    "threat_track.start_level": "green",
    "threat_track.start_unit": 1,
    "threat_track.cost_green": 2,
    "threat_track.cost_yellow": 3,
    "threat_track.red_capped": True,
    "threat_track.locked_green": [5, 10, 15],
    "threat_track.locked_yellow": [3, 6, 9, 12, 15],
    "threat_track.noise_rise": 1,
    "threat_track.leave_band_1_from": 1,
    "threat_track.leave_band_2_from": 5,
    "threat_track.leave_band_3_from": 10,
    "threat_track.leave_band_4_from": 15,
    # --- clock: rulebook §3.1 (07:00 +1 SP each; 00:00 and 12:00 infected survivors test
    # Strength; 15:00 eat; 21:00 and 06:00 threat +1); rules "Clock": night 21:00-05:59
    "clock.night_start": 21,
    "clock.day_start": 6,
    "clock.dawn_hour": 7,
    "clock.dawn_sp": 1,
    "clock.infection_hours": [0, 12],
    "clock.eat_hour": 15,
    "clock.threat_hours": [21, 6],
    "clock.threat_hour_rise": 1,
    # --- combat: rulebook §3.10 (high ground +1, cover 1 die), §4.12 (armour -1 die on its
    # location; 1 AP an attack), §4.14 (Defensive Position +1 Defense, 1 AP), §4.13 (hiding:
    # 3 dice, 1 AP), §4.8 (corpse markers x1-x3; search corpse/item 1 AP); reference ruleset
    # "Weapons" (melee damage at strength <= 2 / 3 / >= 4); rules "Pools" (any star fires
    # the star trait) and "Spawns, Hunter, zombies" (noisiest survivor, then the weakest)
    "combat.high_ground_bonus": 1,
    "combat.defend_bonus": 1,
    "combat.cover_penalty": 1,
    "combat.armour_penalty": 1,
    "combat.strength_mid": 3,
    "combat.strength_high": 4,
    "combat.star_trait_rule": "any_star",
    "combat.hide_dice": 3,
    "combat.corpse_dice_max": 3,
    "combat.target_priority": "noisiest_then_weakest",
    "combat.attack_ap": 1,
    "combat.defend_ap": 1,
    "combat.search_item_ap": 1,
    "combat.hide_ap": 1,
    "combat.exchange_ap": 1,            # rulebook §4.6: reorganize inventory, 1 AP
    "combat.exchange_items": 4,         # assumed: the rulebook sets no bound
    # rulebook §4.4 "Set Traps (1 AP)", §4.5 "Combine Card (1 AP)"
    "combat.trap_ap": 1,
    "combat.combine_ap": 1,
    # --- map: rules "Scope" (16 enemies a tile, excess discarded, §3.12; 3 engaged with a
    # survivor, 4 miniatures a subzone, §3.0; leaving a tile 2 AP, §4.9; ranged attacks
    # reach the whole tile; cover and high ground tile flags off)
    "map.tile_capacity": 16,
    "map.engaged_cap": 3,
    "map.subzone_capacity": 4,
    "map.leave_tile_ap": 2,
    "map.ranged_reaches_tile": True,
    "map.high_ground_tiles": False,
    "map.cover_tiles": False,
    # terrain and jumps: the docs page's "Tile terrain (§3.10) and jumps (§4.10)": fire costs
    # 1 health on a skull (rulebook §3.10: "loses 1 health point"), a flooded or hollow tile
    # 1 AP more (§3.10: "1 additional AP"), a jump 1 AP (§4.10 "Jump (1 AP)") with 2 dice
    # fewer (§4.10: "a penalty of -2")
    "map.fire_damage": 1,
    "map.flooded_extra_ap": 1,
    "map.jump_ap": 1,
    "map.jump_penalty": 2,
    # --- variants: the rules' named variants, off by default
    "variants.attacks_earn_sp": False,
    "variants.red_units_block_entry": False,
    "variants.eating_only_prevents_loss": False,
    "variants.unlimited_miniatures": False,
    # --- die: reference ruleset "Die" (1 green star; 2 green star, green target, skull;
    # 3 gold star, skull, infection; 4 green target, noise; 5 red star, yellow target,
    # skull, noise; 6 red target); rulebook §4.12 (skull+infection, skull+noise, red target)
    "dice.f1.star": "green",
    "dice.f1.target": "none",
    "dice.f1.skull": False,
    "dice.f1.infection": False,
    "dice.f1.noise": False,
    "dice.f2.star": "green",
    "dice.f2.target": "green",
    "dice.f2.skull": True,
    "dice.f2.infection": False,
    "dice.f2.noise": False,
    "dice.f3.star": "gold",
    "dice.f3.target": "none",
    "dice.f3.skull": True,
    "dice.f3.infection": True,
    "dice.f3.noise": False,
    "dice.f4.star": "none",
    "dice.f4.target": "green",
    "dice.f4.skull": False,
    "dice.f4.infection": False,
    "dice.f4.noise": True,
    "dice.f5.star": "red",
    "dice.f5.target": "yellow",
    "dice.f5.skull": True,
    "dice.f5.infection": False,
    "dice.f5.noise": True,
    "dice.f6.star": "none",
    "dice.f6.target": "red",
    "dice.f6.skull": False,
    "dice.f6.infection": False,
    "dice.f6.noise": False,
    # --- colours: rulebook §3.6 (a check at green stress takes a green or gold star, at
    # yellow gold or red, at red only red); rules "Pools": an attack's target colour by
    # health, same scheme (green or yellow, yellow or red, red)
    "colours.check.green": ["green", "gold"],
    "colours.check.yellow": ["gold", "red"],
    "colours.check.red": ["red"],
    "colours.attack.green": ["green", "yellow"],
    "colours.attack.yellow": ["yellow", "red"],
    "colours.attack.red": ["red"],
    # --- survivors: reference ruleset "Survivors" (day HtH / ranged / Defense / agility /
    # strength / perception / will / aid / mechanisms; supplies eaten; kit): Swift
    # 2/4/0/2/2/2/2/2/2, 1, Colt + 4 ammo; Lebeu 2/2/1/3/2/3/3/3/2, 1, knife; Kenji
    # 4/2/1/3/3/2/3/1/2, 1, bat; Olsson 3/3/0/1/4/2/2/2/4, 2, axe (no ammo in the three
    # melee kits).  Night: -1 on HtH, ranged, agility and perception (rulebook §3.1 for
    # Swift; §4.12: Swift's night ranged 3; §4.9.2: Swift's agility 2 by day)
    "survivors.swift.eats": 1,
    "survivors.swift.weapon": "colt",
    "survivors.swift.ammo": 4,
    "survivors.lebeu.eats": 1,
    "survivors.lebeu.weapon": "knife",
    "survivors.lebeu.ammo": 0,
    "survivors.kenji.eats": 1,
    "survivors.kenji.weapon": "bat",
    "survivors.kenji.ammo": 0,
    "survivors.olsson.eats": 2,
    "survivors.olsson.weapon": "axe",
    "survivors.olsson.ammo": 0,
    # Swift, day then night
    "survivors.swift.day.hth": 2,
    "survivors.swift.day.ranged": 4,
    "survivors.swift.day.defense": 0,
    "survivors.swift.day.agility": 2,
    "survivors.swift.day.strength": 2,
    "survivors.swift.day.perception": 2,
    "survivors.swift.day.will": 2,
    "survivors.swift.day.aid": 2,
    "survivors.swift.day.mechanisms": 2,
    "survivors.swift.night.hth": 1,
    "survivors.swift.night.ranged": 3,
    "survivors.swift.night.defense": 0,
    "survivors.swift.night.agility": 1,
    "survivors.swift.night.strength": 2,
    "survivors.swift.night.perception": 1,
    "survivors.swift.night.will": 2,
    "survivors.swift.night.aid": 2,
    "survivors.swift.night.mechanisms": 2,
    # Lebeu, day then night
    "survivors.lebeu.day.hth": 2,
    "survivors.lebeu.day.ranged": 2,
    "survivors.lebeu.day.defense": 1,
    "survivors.lebeu.day.agility": 3,
    "survivors.lebeu.day.strength": 2,
    "survivors.lebeu.day.perception": 3,
    "survivors.lebeu.day.will": 3,
    "survivors.lebeu.day.aid": 3,
    "survivors.lebeu.day.mechanisms": 2,
    "survivors.lebeu.night.hth": 1,
    "survivors.lebeu.night.ranged": 1,
    "survivors.lebeu.night.defense": 1,
    "survivors.lebeu.night.agility": 2,
    "survivors.lebeu.night.strength": 2,
    "survivors.lebeu.night.perception": 2,
    "survivors.lebeu.night.will": 3,
    "survivors.lebeu.night.aid": 3,
    "survivors.lebeu.night.mechanisms": 2,
    # Kenji, day then night
    "survivors.kenji.day.hth": 4,
    "survivors.kenji.day.ranged": 2,
    "survivors.kenji.day.defense": 1,
    "survivors.kenji.day.agility": 3,
    "survivors.kenji.day.strength": 3,
    "survivors.kenji.day.perception": 2,
    "survivors.kenji.day.will": 3,
    "survivors.kenji.day.aid": 1,
    "survivors.kenji.day.mechanisms": 2,
    "survivors.kenji.night.hth": 3,
    "survivors.kenji.night.ranged": 1,
    "survivors.kenji.night.defense": 1,
    "survivors.kenji.night.agility": 2,
    "survivors.kenji.night.strength": 3,
    "survivors.kenji.night.perception": 1,
    "survivors.kenji.night.will": 3,
    "survivors.kenji.night.aid": 1,
    "survivors.kenji.night.mechanisms": 2,
    # Olsson, day then night
    "survivors.olsson.day.hth": 3,
    "survivors.olsson.day.ranged": 3,
    "survivors.olsson.day.defense": 0,
    "survivors.olsson.day.agility": 1,
    "survivors.olsson.day.strength": 4,
    "survivors.olsson.day.perception": 2,
    "survivors.olsson.day.will": 2,
    "survivors.olsson.day.aid": 2,
    "survivors.olsson.day.mechanisms": 4,
    "survivors.olsson.night.hth": 2,
    "survivors.olsson.night.ranged": 2,
    "survivors.olsson.night.defense": 0,
    "survivors.olsson.night.agility": 0,
    "survivors.olsson.night.strength": 4,
    "survivors.olsson.night.perception": 1,
    "survivors.olsson.night.will": 2,
    "survivors.olsson.night.aid": 2,
    "survivors.olsson.night.mechanisms": 4,
    # --- enemies: rulebook §1 (17 Walkers, 4 Howlers, 4 Crawlers, 3 Leaders, 2 Bulkers,
    # 1 Hunter), §3.13 (the Hunter: city zones, by night); reference ruleset enemy table,
    # day/night: init, actions, health, attack, damage, Defense, evasion, resistance, SP --
    # Walker 2*, 1/2, 1/2, 2, 1, 0*, 0*/-1, 0, 1*; Howler 4*, 2*/3, 2, 2/3, 1, 0, 0/-1, 0,
    # 2; Crawler 5*, 1/2, 2/3, 3, 2, 0, -1*/-2, 0, 2*; Leader 3, 2, 3/4, 3, 2, 1, -1/-2, 1,
    # 3; Bulker ("Hulk") 1, 1, 5/6, 2/3*, 3/5*, 1, 0, 1, 4; Hunter, night only: 6, 3, 8, 4,
    # 3, 1, -2, 1, 6 (rulebook §3.2: 5 Walkers = 5 SP, 13 SP = 4 Walkers + Howler 2 +
    # 2 Crawlers 4 + Leader 3; §3.12: Crawler initiative 5, Walker 2; §3.14: Howler 4, two
    # actions by day; §4.9.2: by day Crawler evasion -1, Walker 0; §4.12: the Hulk at night
    # attacks with 3 dice for 5 damage)
    "enemies.walker.miniatures": 17,
    "enemies.howler.miniatures": 4,
    "enemies.crawler.miniatures": 4,
    "enemies.leader.miniatures": 3,
    "enemies.bulker.miniatures": 2,
    "enemies.hunter.miniatures": 1,
    "enemies.walker.night_only": False,
    "enemies.walker.city_only": False,
    "enemies.howler.night_only": False,
    "enemies.howler.city_only": False,
    "enemies.crawler.night_only": False,
    "enemies.crawler.city_only": False,
    "enemies.leader.night_only": False,
    "enemies.leader.city_only": False,
    "enemies.bulker.night_only": False,
    "enemies.bulker.city_only": False,
    "enemies.hunter.night_only": True,
    "enemies.hunter.city_only": True,
    # Walker, day then night
    "enemies.walker.day.initiative": 2,
    "enemies.walker.day.actions": 1,
    "enemies.walker.day.health": 1,
    "enemies.walker.day.attack": 2,
    "enemies.walker.day.damage": 1,
    "enemies.walker.day.defense": 0,
    "enemies.walker.day.evasion": 0,
    "enemies.walker.day.resistance": 0,
    "enemies.walker.day.sp": 1,
    "enemies.walker.night.initiative": 2,
    "enemies.walker.night.actions": 2,
    "enemies.walker.night.health": 2,
    "enemies.walker.night.attack": 2,
    "enemies.walker.night.damage": 1,
    "enemies.walker.night.defense": 0,
    "enemies.walker.night.evasion": -1,
    "enemies.walker.night.resistance": 0,
    "enemies.walker.night.sp": 1,
    # Howler, day then night
    "enemies.howler.day.initiative": 4,
    "enemies.howler.day.actions": 2,
    "enemies.howler.day.health": 2,
    "enemies.howler.day.attack": 2,
    "enemies.howler.day.damage": 1,
    "enemies.howler.day.defense": 0,
    "enemies.howler.day.evasion": 0,
    "enemies.howler.day.resistance": 0,
    "enemies.howler.day.sp": 2,
    "enemies.howler.night.initiative": 4,
    "enemies.howler.night.actions": 3,
    "enemies.howler.night.health": 2,
    "enemies.howler.night.attack": 3,
    "enemies.howler.night.damage": 1,
    "enemies.howler.night.defense": 0,
    "enemies.howler.night.evasion": -1,
    "enemies.howler.night.resistance": 0,
    "enemies.howler.night.sp": 2,
    # Crawler, day then night
    "enemies.crawler.day.initiative": 5,
    "enemies.crawler.day.actions": 1,
    "enemies.crawler.day.health": 2,
    "enemies.crawler.day.attack": 3,
    "enemies.crawler.day.damage": 2,
    "enemies.crawler.day.defense": 0,
    "enemies.crawler.day.evasion": -1,
    "enemies.crawler.day.resistance": 0,
    "enemies.crawler.day.sp": 2,
    "enemies.crawler.night.initiative": 5,
    "enemies.crawler.night.actions": 2,
    "enemies.crawler.night.health": 3,
    "enemies.crawler.night.attack": 3,
    "enemies.crawler.night.damage": 2,
    "enemies.crawler.night.defense": 0,
    "enemies.crawler.night.evasion": -2,
    "enemies.crawler.night.resistance": 0,
    "enemies.crawler.night.sp": 2,
    # Leader, day then night
    "enemies.leader.day.initiative": 3,
    "enemies.leader.day.actions": 2,
    "enemies.leader.day.health": 3,
    "enemies.leader.day.attack": 3,
    "enemies.leader.day.damage": 2,
    "enemies.leader.day.defense": 1,
    "enemies.leader.day.evasion": -1,
    "enemies.leader.day.resistance": 1,
    "enemies.leader.day.sp": 3,
    "enemies.leader.night.initiative": 3,
    "enemies.leader.night.actions": 2,
    "enemies.leader.night.health": 4,
    "enemies.leader.night.attack": 3,
    "enemies.leader.night.damage": 2,
    "enemies.leader.night.defense": 1,
    "enemies.leader.night.evasion": -2,
    "enemies.leader.night.resistance": 1,
    "enemies.leader.night.sp": 3,
    # Bulker, day then night
    "enemies.bulker.day.initiative": 1,
    "enemies.bulker.day.actions": 1,
    "enemies.bulker.day.health": 5,
    "enemies.bulker.day.attack": 2,
    "enemies.bulker.day.damage": 3,
    "enemies.bulker.day.defense": 1,
    "enemies.bulker.day.evasion": 0,
    "enemies.bulker.day.resistance": 1,
    "enemies.bulker.day.sp": 4,
    "enemies.bulker.night.initiative": 1,
    "enemies.bulker.night.actions": 1,
    "enemies.bulker.night.health": 6,
    "enemies.bulker.night.attack": 3,
    "enemies.bulker.night.damage": 5,
    "enemies.bulker.night.defense": 1,
    "enemies.bulker.night.evasion": 0,
    "enemies.bulker.night.resistance": 1,
    "enemies.bulker.night.sp": 4,
    # Hunter, night only (its day side is not stated)
    "enemies.hunter.night.initiative": 6,
    "enemies.hunter.night.actions": 3,
    "enemies.hunter.night.health": 8,
    "enemies.hunter.night.attack": 4,
    "enemies.hunter.night.damage": 3,
    "enemies.hunter.night.defense": 1,
    "enemies.hunter.night.evasion": -2,
    "enemies.hunter.night.resistance": 1,
    "enemies.hunter.night.sp": 6,
    # --- weapons: reference ruleset "Weapons" (silent melee, no ammo, damage at strength
    # <= 2 / 3 / >= 4: fists 1; knife 1/1/2; bat 1/2/2; axe 2/2/3, sweep on a star; noisy
    # firearms, 1 ammo an attack: Colt 1911 1, rapid fire, pierce on a star; shotgun 2,
    # slow; rifle 3, slow, pierce); rulebook §5 (rapid fire: 2 attacks for 1 AP), §3.9 (the
    # Colt is noisy, the knife silent), §4.12 (the Colt's damage 1; "Gun Butt, Rapid Fire"
    # (Pierce) on a star).  A firearm's damage does not depend on strength.
    "weapons.fists.kind": "melee",
    "weapons.fists.damage_weak": 1,
    "weapons.fists.damage_mid": 1,
    "weapons.fists.damage_strong": 1,
    "weapons.fists.noisy": False,
    "weapons.fists.ammo": 0,
    "weapons.fists.attacks_per_ap": 1,
    "weapons.fists.slow": False,
    "weapons.fists.pierce": False,
    "weapons.fists.star_trait": "none",
    "weapons.knife.kind": "melee",
    "weapons.knife.damage_weak": 1,
    "weapons.knife.damage_mid": 1,
    "weapons.knife.damage_strong": 2,
    "weapons.knife.noisy": False,
    "weapons.knife.ammo": 0,
    "weapons.knife.attacks_per_ap": 1,
    "weapons.knife.slow": False,
    "weapons.knife.pierce": False,
    "weapons.knife.star_trait": "none",
    "weapons.bat.kind": "melee",
    "weapons.bat.damage_weak": 1,
    "weapons.bat.damage_mid": 2,
    "weapons.bat.damage_strong": 2,
    "weapons.bat.noisy": False,
    "weapons.bat.ammo": 0,
    "weapons.bat.attacks_per_ap": 1,
    "weapons.bat.slow": False,
    "weapons.bat.pierce": False,
    "weapons.bat.star_trait": "none",
    "weapons.axe.kind": "melee",
    "weapons.axe.damage_weak": 2,
    "weapons.axe.damage_mid": 2,
    "weapons.axe.damage_strong": 3,
    "weapons.axe.noisy": False,
    "weapons.axe.ammo": 0,
    "weapons.axe.attacks_per_ap": 1,
    "weapons.axe.slow": False,
    "weapons.axe.pierce": False,
    "weapons.axe.star_trait": "sweep",
    "weapons.colt.kind": "ranged",
    "weapons.colt.damage_weak": 1,
    "weapons.colt.damage_mid": 1,
    "weapons.colt.damage_strong": 1,
    "weapons.colt.noisy": True,
    "weapons.colt.ammo": 1,
    "weapons.colt.attacks_per_ap": 2,
    "weapons.colt.slow": False,
    "weapons.colt.pierce": False,
    "weapons.colt.star_trait": "pierce",
    "weapons.shotgun.kind": "ranged",
    "weapons.shotgun.damage_weak": 2,
    "weapons.shotgun.damage_mid": 2,
    "weapons.shotgun.damage_strong": 2,
    "weapons.shotgun.noisy": True,
    "weapons.shotgun.ammo": 1,
    "weapons.shotgun.attacks_per_ap": 1,
    "weapons.shotgun.slow": True,
    "weapons.shotgun.pierce": False,
    "weapons.shotgun.star_trait": "none",
    "weapons.rifle.kind": "ranged",
    "weapons.rifle.damage_weak": 3,
    "weapons.rifle.damage_mid": 3,
    "weapons.rifle.damage_strong": 3,
    "weapons.rifle.noisy": True,
    "weapons.rifle.ammo": 1,
    "weapons.rifle.attacks_per_ap": 1,
    "weapons.rifle.slow": True,
    "weapons.rifle.pierce": True,
    "weapons.rifle.star_trait": "none",
    # rulebook §3.9 ("Eliminating noise from weapons: suppressors"): "some noisy weapons" take
    # a suppressor; a silent weapon has no noise to suppress (which firearms take one is not
    # stated: UNTRANSCRIBED)
    "weapons.fists.suppressible": False,
    "weapons.knife.suppressible": False,
    "weapons.bat.suppressible": False,
    "weapons.axe.suppressible": False,
    # --- search deck (75, rulebook §1): reference ruleset "Search" (supplies 18, +2; ammo
    # 10, +3; weapons 16: knife 4, bat 4, axe 2, Colt 3, shotgun 2, rifle 1; armour 8, -1
    # enemy die on its location, biker gloves 2 also cancel an arms attack (rulebook
    # §4.12); painkillers 4, +1 health; first-aid kit 4, Aid check, +3; vaccine 3, Aid
    # check, infection -1 (rulebook §3.5); suppressor 3; flashlight 9; modifier 0 for
    # supplies and ammo, -2 for firearms, else -1; but the knife's 0 is the rulebook's:
    # §4.7's example searches for the knife with "Search card modifier: 0 dice")
    "search.supplies.kind": "supplies",
    "search.supplies.count": 18,
    "search.supplies.modifier": 0,
    "search.supplies.amount": 2,
    "search.ammo.kind": "ammo",
    "search.ammo.count": 10,
    "search.ammo.modifier": 0,
    "search.ammo.amount": 3,
    "search.knife.kind": "weapon",
    "search.knife.count": 4,
    "search.knife.modifier": 0,
    "search.knife.weapon": "knife",
    "search.bat.kind": "weapon",
    "search.bat.count": 4,
    "search.bat.modifier": -1,
    "search.bat.weapon": "bat",
    "search.axe.kind": "weapon",
    "search.axe.count": 2,
    "search.axe.modifier": -1,
    "search.axe.weapon": "axe",
    "search.colt.kind": "weapon",
    "search.colt.count": 3,
    "search.colt.modifier": -2,
    "search.colt.weapon": "colt",
    "search.shotgun.kind": "weapon",
    "search.shotgun.count": 2,
    "search.shotgun.modifier": -2,
    "search.shotgun.weapon": "shotgun",
    "search.rifle.kind": "weapon",
    "search.rifle.count": 1,
    "search.rifle.modifier": -2,
    "search.rifle.weapon": "rifle",
    "search.biker_gloves.kind": "armour",
    "search.biker_gloves.count": 2,
    "search.biker_gloves.modifier": -1,
    "search.biker_gloves.location": "arms",
    "search.biker_gloves.cancels_attack": True,
    "search.helmet.kind": "armour",
    "search.helmet.modifier": -1,
    "search.jacket.kind": "armour",
    "search.jacket.modifier": -1,
    "search.boots.kind": "armour",
    "search.boots.modifier": -1,
    "search.painkillers.kind": "painkillers",
    "search.painkillers.count": 4,
    "search.painkillers.modifier": -1,
    "search.painkillers.amount": 1,
    "search.first_aid_kit.kind": "first_aid",
    "search.first_aid_kit.count": 4,
    "search.first_aid_kit.modifier": -1,
    "search.first_aid_kit.amount": 3,
    "search.first_aid_kit.check": "aid",
    "search.vaccine.kind": "vaccine",
    "search.vaccine.count": 3,
    "search.vaccine.modifier": -1,
    "search.vaccine.amount": 1,
    "search.vaccine.check": "aid",
    "search.suppressor.kind": "suppressor",
    "search.suppressor.count": 3,
    "search.suppressor.modifier": -1,
    "search.flashlight.kind": "flashlight",
    "search.flashlight.count": 9,
    "search.flashlight.modifier": -1,
    "search.flashlight.turns": 3,       # assumed: a battery unit's duration (card key 18, §4.2)
    # --- traps and combined cards (rulebook §4.4, §4.5; docs page "Traps and combined
    # cards"): not in the reference deck (count 0; the preset `traps` deals 3 stuff for traps
    # and 3 nails); stuff for traps: capacity 2, base damage 1, search modifier -1 (assumed);
    # nails a component, -1; the nailed bat (bat + nails, §4.5's example) a weapon card made
    # by combining, never drawn; knife and fireman axe combine with traps (§4.4's example):
    # trap damage 1 and 2 (assumed); the nailed bat deals 2 / 3 / 3 by strength, silent,
    # no ammo, one attack an AP, no trait (assumed: one more than the bat's weak and mid)
    "search.stuff_for_traps.kind": "trap_stuff",
    "search.stuff_for_traps.count": 0,
    "search.stuff_for_traps.modifier": -1,
    "search.stuff_for_traps.amount": 1,
    "search.stuff_for_traps.capacity": 2,
    "search.nails.kind": "component",
    "search.nails.count": 0,
    "search.nails.modifier": -1,
    "search.nailed_bat.kind": "weapon",
    "search.nailed_bat.count": 0,
    "search.nailed_bat.modifier": -1,
    "search.nailed_bat.weapon": "nailed_bat",
    "search.nailed_bat.components": ["bat", "nails"],
    "weapons.knife.trap_damage": 1,
    "weapons.axe.trap_damage": 2,
    "weapons.nailed_bat.kind": "melee",
    "weapons.nailed_bat.damage_weak": 2,
    "weapons.nailed_bat.damage_mid": 3,
    "weapons.nailed_bat.damage_strong": 3,
    "weapons.nailed_bat.noisy": False,
    "weapons.nailed_bat.ammo": 0,
    "weapons.nailed_bat.attacks_per_ap": 1,
    "weapons.nailed_bat.slow": False,
    "weapons.nailed_bat.pierce": False,
    "weapons.nailed_bat.star_trait": "none",
    "weapons.nailed_bat.suppressible": False,
    # --- spawn deck (20, rulebook §1): reference ruleset "Spawn", rows green / yellow / red
    # (W = Walker): 6 x W / 2W / 3W; 4 x 2W / W + Howler / 2W + Howler (rulebook §3.12's
    # card); 4 x W / W + Crawler / 2W + Crawler; 3 x Crawler / Howler + Crawler / Leader +
    # 2W; 2 x 2W / Leader + W / Bulker + 2W; 1 x Howler / Bulker / Bulker + Leader + W
    "spawn.walkers.count": 6,
    "spawn.walkers.green": _spawn(walker=1),
    "spawn.walkers.yellow": _spawn(walker=2),
    "spawn.walkers.red": _spawn(walker=3),
    "spawn.howler_pack.count": 4,
    "spawn.howler_pack.green": _spawn(walker=2),
    "spawn.howler_pack.yellow": _spawn(walker=1, howler=1),
    "spawn.howler_pack.red": _spawn(walker=2, howler=1),
    "spawn.crawler_pack.count": 4,
    "spawn.crawler_pack.green": _spawn(walker=1),
    "spawn.crawler_pack.yellow": _spawn(walker=1, crawler=1),
    "spawn.crawler_pack.red": _spawn(walker=2, crawler=1),
    "spawn.mixed.count": 3,
    "spawn.mixed.green": _spawn(crawler=1),
    "spawn.mixed.yellow": _spawn(howler=1, crawler=1),
    "spawn.mixed.red": _spawn(leader=1, walker=2),
    "spawn.leader_pack.count": 2,
    "spawn.leader_pack.green": _spawn(walker=2),
    "spawn.leader_pack.yellow": _spawn(leader=1, walker=1),
    "spawn.leader_pack.red": _spawn(bulker=1, walker=2),
    "spawn.bulker_pack.count": 1,
    "spawn.bulker_pack.green": _spawn(howler=1),
    "spawn.bulker_pack.yellow": _spawn(bulker=1),
    "spawn.bulker_pack.red": _spawn(bulker=1, leader=1, walker=1),
    # --- threat deck (50, rulebook §1): reference ruleset "Threat" (A: normal 30, fury 8
    # with +1 action, excitement 12; B: hourglasses 1 x 40, 2 x 5, 0 x 5; Hunter icon 10,
    # infection icon 10, so 40 of each without; infection card levels 1-3: +1 stress, -1,
    # -2 health; conditions: noisy weapon used -> threat +1 (16), survivor in a city zone ->
    # ambush, a spawn card per survivor (8), red stress -> -1 health (6), nothing (20))
    "threat.cards": 50,
    # the docs page, "What is abstracted": "A threat card's sides are paired independently"
    "threat.combination": "independent",
    "threat.side_a.normal": 30,
    "threat.side_a.fury": 8,
    "threat.side_a.excitement": 12,
    "threat.side_a.fury_actions": 1,
    "threat.hourglasses.zero": 5,
    "threat.hourglasses.one": 40,
    "threat.hourglasses.two": 5,
    "threat.icons.hunter": 10,
    "threat.icons.infection": 10,
    "threat.icons.no_hunter": 40,
    "threat.icons.no_infection": 40,
    "threat.conditions.noisy_weapon": 16,
    "threat.conditions.ambush": 8,
    "threat.conditions.red_stress": 6,
    "threat.conditions.nothing": 20,
    "threat.effects.noisy_weapon_threat": 1,
    "threat.effects.ambush_spawn_per_survivor": 1,
    "threat.effects.red_stress_health": 1,
    "threat.infection_card.level_1_stress": 1,
    "threat.infection_card.level_2_health": 1,
    "threat.infection_card.level_3_health": 2,
    # --- encounters (20): reference ruleset "Other decks" (quiet 8; ambush 6, spawn cards
    # = survivors, +1 at red; Will or +2 stress 3; Agility or 2 damage 3)
    "encounters.quiet.kind": "quiet",
    "encounters.quiet.count": 8,
    "encounters.ambush.kind": "ambush",
    "encounters.ambush.count": 6,
    "encounters.ambush.spawn_per_survivor": 1,
    "encounters.ambush.spawn_extra_red": 1,
    "encounters.nerves.kind": "check",
    "encounters.nerves.count": 3,
    "encounters.nerves.attribute": "will",
    "encounters.nerves.fail_stress": 2,
    "encounters.fall.kind": "check",
    "encounters.fall.count": 3,
    "encounters.fall.attribute": "agility",
    "encounters.fall.fail_damage": 2,
    # --- surprises (5, rulebook §1): reference ruleset "Other decks" (horde 2 with 3 spawn
    # cards; Crawler ambush 1, rulebook §3.12 "The crawler makes an immediate attack";
    # supplies 2)
    "surprises.horde.kind": "horde",
    "surprises.horde.count": 2,
    "surprises.horde.spawn_cards": 3,
    "surprises.crawler_ambush.kind": "enemy_ambush",
    "surprises.crawler_ambush.count": 1,
    "surprises.crawler_ambush.enemy": "crawler",
    "surprises.stash.kind": "supplies",
    "surprises.stash.count": 2,
    # --- exploration (20): reference ruleset "Other decks" (spawn 12, spawn and search 4,
    # search 4; rulebook §4.11's example card spawns and places a search marker)
    "exploration.spawn.kind": "spawn",
    "exploration.spawn.count": 12,
    "exploration.spawn_and_search.kind": "spawn_and_search",
    "exploration.spawn_and_search.count": 4,
    "exploration.search.kind": "search",
    "exploration.search.count": 4,
    # --- corpse markers: rulebook §4.8 (nothing; ammo +1; battery +1; supplies +1;
    # infection: roll the marker's x1, x2 or x3 dice); the counts are not stated
    "corpses.nothing.kind": "nothing",
    "corpses.ammo.kind": "ammo",
    "corpses.ammo.amount": 1,
    "corpses.battery.kind": "battery",
    "corpses.battery.amount": 1,
    "corpses.supplies.kind": "supplies",
    "corpses.supplies.amount": 1,
    "corpses.infected_1.kind": "infection",
    "corpses.infected_1.dice": 1,
    "corpses.infected_2.kind": "infection",
    "corpses.infected_2.dice": 2,
    "corpses.infected_3.kind": "infection",
    "corpses.infected_3.dice": 3,
    # --- city: reference ruleset "City" (3 x 4 grid; exits A (0,0), B (2,0), C (1,3);
    # alleys (0,2), (1,1); surprises (1,2), (2,2)); rulebook §4.9 (1 AP a street zone,
    # 1 AP into a location's access subzone)
    "city.rows": 3,
    "city.cols": 4,
    "city.exit_a": [0, 0],
    "city.exit_b": [2, 0],
    "city.exit_c": [1, 3],
    "city.alleys": [[0, 2], [1, 1]],
    "city.surprises": [[1, 2], [2, 2]],
    "city.move_ap": 1,
    "city.enter_location_ap": 1,
    # --- locations: reference ruleset "City" (the Fire Station off (0,3), 3 tiles, rulebook
    # §4.9/§4.11; 2 spawn cards a tile for 1-2 survivors, rulebook §4.11, 3 for 3-4); the
    # other two locations: see test_unnamed_locations
    "locations.fire_station.access": [0, 3],
    "locations.fire_station.tiles": 3,
    "locations.fire_station.spawn_small": 2,
    "locations.fire_station.spawn_large": 3,
    "locations.fire_station.small_team": 2,
    "locations.garage.spawn_small": 2,
    "locations.garage.spawn_large": 3,
    "locations.garage.small_team": 2,
    "locations.pharmacy.spawn_small": 2,
    "locations.pharmacy.spawn_large": 3,
    "locations.pharmacy.small_team": 2,
    # the docs page's "Tile terrain": the reference ruleset has no terrain (one "none" a
    # tile) and no subzone to jump from (the `tiles` preset adds both; its table compares
    # "every tile a jump tile" against the reference's none).  The same section names the
    # two other locations by their tiles: the garage 2 (hollow, noisy), the pharmacy 3
    # (cover, flooded, fire); with the reference ruleset's "City" (UNNAMED_LOCATIONS: (2,1)
    # with 2 tiles, (2,3) with 3) the garage is off (2,1), the pharmacy off (2,3)
    "locations.fire_station.terrain": ["none"] * 3,
    "locations.fire_station.jump_tiles": [],
    "locations.garage.access": [2, 1],
    "locations.garage.tiles": 2,
    "locations.garage.terrain": ["none"] * 2,
    "locations.garage.jump_tiles": [],
    "locations.pharmacy.access": [2, 3],
    "locations.pharmacy.tiles": 3,
    "locations.pharmacy.terrain": ["none"] * 3,
    "locations.pharmacy.jump_tiles": [],
    # --- scenario: reference ruleset "Supply run" (start 14:00 at exit A; 3 successful
    # searches, then every living survivor at an exit, within 24 turns); rulebook §7 (4 VP,
    # -1 per dead survivor); the publisher's 1-4 survivors
    "scenario.name": "supply_run",
    "scenario.start_hour": 14,
    "scenario.start_exit": "a",
    "scenario.searches_needed": 3,
    "scenario.turn_limit": 24,
    "scenario.vp_base": 4,
    "scenario.vp_per_dead": 1,
    "scenario.min_team": 1,
    "scenario.max_team": 4,
    # the docs page, "Running it": a team is "the scenario's team taken in order, Swift,
    # Lebeu, Kenji, Olsson"
    "scenario.team": ["swift", "lebeu", "kenji", "olsson"],
    # --- the campaign: rulebook §6 (the survivors travel from the shelter to the city
    # before an adventure), §7 (a campaign's shelter starts with the basic Warehouse and
    # Rest zone only; a facility has 2 levels; each survivor makes a feeding check)
    "campaign.travel_before_first": True,
    "campaign.shelter.feeding": True,
    # the docs page's campaign table: "campaign.shelter_days (1) between two adventures"
    "campaign.shelter_days": 1,
    "facilities.rest_zone.start_level": 1,
    "facilities.warehouse.start_level": 1,
    "facilities.workshop.start_level": 0,
    "facilities.infirmary.start_level": 0,
    "facilities.training_zone.start_level": 0,
    "facilities.supply_zone.start_level": 0,
    "facilities.fence.start_level": 0,
    # §7: "a perimeter fence" beside the 6 facilities; the docs page: "the fence turns away"
    # the shelter events marked fence_blocks.  The docs page (the shelter player): the
    # infirmary takes "an Aid check for +2 health"
    "facilities.fence.fence": True,
    "facilities.infirmary.check": "aid",
    # the docs page (allies): "the shelter event stranger (1 in 6) brings the next card of
    # the ally deck"; §7: "roll once in the Shelter events table" (one die: six rows, the
    # stranger's one of them, test_campaign_partly_stated)
    "shelter_events.stranger.ally": True,
    "shelter_events.stranger.count": 1,
    # §3.8's example: the Teenager, Physiotherapist and War Veteran each grant 1 leadership point
    "allies.teenager.leadership": 1,
    "allies.physiotherapist.leadership": 1,
    "allies.war_veteran.leadership": 1,
    # the docs page (allies): an ally "heals 1 or brings a supply each shelter day": the
    # physiotherapist's heal, the cook's supplies
    "allies.physiotherapist.heal": 1,
    "allies.cook.supplies": 1,
}

# Skills: the docs page's campaign table ("the 12 skills of 2 copies assumed": 24 cards,
# §1); rulebook §3.5 ("The level indicates the ability rank. All the abilities of lower level
# must be bought (1) to gain access to the next level (2)"), the docs page ("its level-1
# skill owned first"): <name>_2 is <name>'s level 2
SKILLS_1 = ("brawler", "marksman", "medic", "nimble", "scavenger", "steady", "strong", "tough")
SKILLS_2 = ("brawler", "marksman", "nimble", "scavenger")  # those with a level 2
for _name in SKILLS_1:
    EXPECTED[f"skills.{_name}.count"] = 2
    EXPECTED[f"skills.{_name}.level"] = 1
for _name in SKILLS_2:
    EXPECTED[f"skills.{_name}_2.count"] = 2
    EXPECTED[f"skills.{_name}_2.level"] = 2
    EXPECTED[f"skills.{_name}_2.requires"] = _name

# Keys of the shipped ruleset that neither the rulebook nor the docs page states, with the
# reason.
ALLIES = ("bodyguard", "cook", "hunter", "mechanic", "nurse", "physiotherapist", "preacher",
          "runner", "teenager", "war_veteran")
FACILITIES = ("rest_zone", "warehouse", "workshop", "infirmary", "training_zone",
              "supply_zone", "fence")
_ASSUMED_FACILITY = ("the facility cards are not printed: the docs page says 'costs and "
                     "effects assumed' (facilities.toml)")
UNTRANSCRIBED: dict[str, str] = {
    **{f"enemies.hunter.day.{k}": "the Hunter comes only by night (rulebook §3.13): no rule "
       "states, or plays, his day side"
       for k in ("initiative", "actions", "health", "attack", "damage", "defense", "evasion",
                 "resistance", "sp")},
    **{f"corpses.{k}.count": "rulebook §4.8 names the corpse markers, not how many of each "
       "(the docs page: 'the mix in corpses.toml')"
       for k in ("nothing", "ammo", "battery", "supplies", "infected_1", "infected_2",
                 "infected_3")},
    **{f"search.{k}.count": "8 armour cards, 2 of them biker gloves (reference ruleset "
       "'Search'); how the other 6 split is not stated (their total: test_deck_sizes)"
       for k in ("helmet", "jacket", "boots")},
    **{f"search.{k}.location": "the rulebook names the body locations (§1: head, body, arms, "
       "legs), not which one this armour covers (only the biker gloves': arms, §4.12)"
       for k in ("helmet", "jacket", "boots")},
    **{f"weapons.{k}.suppressible": "rulebook §3.9: 'some noisy weapons' take a suppressor "
       "(those with a blue strip); which firearms is not stated"
       for k in ("colt", "shotgun", "rifle")},
    **{f"locations.{k}.search_modifier": "the rulebook prints a zone's search modifier on "
       "its tile (§4.7's example: -1 for one zone); the one modifier a location of simlib's "
       "is not stated" for k in ("fire_station", "garage", "pharmacy")},
    "surprises.stash.amount": "the supplies a stash surprise gives are not stated (rulebook "
    "§1: 5 surprise cards; reference ruleset 'Other decks': supplies 2, the card count)",
    # the campaign (issue 42): the docs page states its rules and calls its cards assumed
    "campaign.shelter.build_order": "the docs page states the rule (every basic level first, "
    "then the advanced ones; the fence has one level), not the order of the facilities",
    **{f"campaign.travel.{k}": "the route is assumed (the docs page's campaign table: "
       "'route assumed'); its length and dice are checked in test_travel_routes"
       for k in ("known_route", "unknown_route", "unknown_dice")},
    **{f"facilities.{n}.build_cost": _ASSUMED_FACILITY for n in FACILITIES},
    **{f"facilities.{n}.upgrade_cost": _ASSUMED_FACILITY for n in FACILITIES if n != "fence"},
    "facilities.fence.upgrade_cost": "the fence has one level (the docs page): no rule "
    "states, or pays, an upgrade of it",
    **{f"facilities.{n}.advanced_dice": "the docs page: '+advanced_dice at the advanced "
       "level'; the number is assumed, not stated" for n in ("infirmary", "supply_zone",
                                                            "workshop")},
    **{f"facilities.{n}.check": _ASSUMED_FACILITY + "; only the infirmary's Aid check is "
       "stated" for n in ("supply_zone", "workshop")},
    **{f"facilities.{k}": "only the basic level is stated (the docs page: the infirmary's "
       "Aid check 'for +2 health', the rest zone's '+1 health and -2 stress'): checked in "
       "test_campaign_partly_stated"
       for k in ("infirmary.health", "rest_zone.health", "rest_zone.stress")},
    "facilities.infirmary.infection": "the docs page: 'the infirmary cures infections'; by "
    "how much at each level is assumed, not stated",
    **{f"facilities.{k}": _ASSUMED_FACILITY
       for k in ("supply_zone.supplies", "training_zone.sp", "warehouse.supplies",
                 "workshop.ammo")},
    **{f"skills.{k}.bonus": "the docs page: a skill is '+1 die on one attribute' (checked in "
       "test_campaign_partly_stated); which attribute is not stated"
       for k in (*SKILLS_1, *(f"{n}_2" for n in SKILLS_2))},
    **{f"skills.{k}.cost": "rulebook §3.5: each card prints its cost in survival points; "
       "the docs page: the skills are assumed, the costs not stated"
       for k in (*SKILLS_1, *(f"{n}_2" for n in SKILLS_2))},
    **{f"allies.{n}.count": "rulebook §1: 10 ally cards, not how many of each type (the "
       "total: test_campaign_names)" for n in ALLIES},
    **{f"allies.{n}.bonus": "the docs page: an ally 'adds to an attribute, or heals 1 or "
       "brings a supply' (one effect each: test_campaign_partly_stated); which attribute "
       "and how much is assumed, not stated" for n in ALLIES},
    **{f"allies.{n}.leadership": "rulebook §3.8 gives the leadership of the teenager, the "
       "physiotherapist and the war veteran only; the docs page: 'the rest assumed'"
       for n in ("bodyguard", "cook", "hunter", "mechanic", "nurse", "preacher", "runner")},
    **{f"shelter_events.{k}": "the shelter events table is assumed (the docs page's campaign "
       "table); only the stranger's share (1 in 6) is stated"
       for k in ("bad_night.count", "bad_night.stress", "quiet_day.count", "sabotage.count",
                 "sabotage.supplies", "zombie_attack.count", "zombie_attack.damage",
                 "zombie_attack.fence_blocks")},
}
# the travel cards: assumed (the docs page's campaign table: "the cards assumed"); their three
# terrain sections are checked in test_campaign_names
_TRAVEL = ("the travel cards are assumed (the docs page: 'the cards assumed'); only their "
           "sections, one a terrain, are stated (test_campaign_names)")
for _key in ("looters.count", "looters.mountain.attribute", "looters.mountain.fail_supplies",
             "looters.plain.attribute", "looters.plain.fail_supplies", "looters.wood.attribute",
             "looters.wood.fail_stress", "looters.wood.fail_supplies", "quiet_road.count",
             "quiet_road.mountain.attribute", "quiet_road.plain.attribute",
             "quiet_road.wood.attribute", "rough_going.count", "rough_going.mountain.attribute",
             "rough_going.mountain.fail_damage", "rough_going.plain.attribute",
             "rough_going.plain.fail_stress", "rough_going.wood.attribute",
             "rough_going.wood.fail_damage", "stragglers.count", "stragglers.mountain.attribute",
             "stragglers.plain.attribute", "stragglers.plain.fail_damage",
             "stragglers.plain.fail_infection", "stragglers.wood.attribute",
             "stragglers.wood.fail_damage", "stragglers.wood.fail_infection"):
    UNTRANSCRIBED[f"travel.{_key}"] = _TRAVEL

# The two locations the rulebook leaves unnamed: (access cell, tiles), reference ruleset
# "City" (the docs page names them by their tiles: the garage and the pharmacy, above).
UNNAMED_LOCATIONS = {((2, 1), 2), ((2, 3), 3)}
# Deck sizes: rulebook §1 (75 search cards, 20 spawn cards, 50 threat cards, 5 surprise
# cards); reference ruleset (20 encounters, 20 exploration cards, 8 armour cards).
DECKS = {"search": 75, "spawn": 20, "encounters": 20, "surprises": 5, "exploration": 20}
ARMOUR_CARDS = 8
# Rulebook §1: 31 zombie miniatures.
MINIATURES = 31


def _normal(value):
    """Lists and tuples compare alike; a spawn row ignores its zero entries."""
    if isinstance(value, (list, tuple)):
        return [_normal(v) for v in value]
    if isinstance(value, dict):
        return {k: v for k, v in value.items() if v != 0}
    return value


rules, test_reference_value, test_every_key_exists, test_every_shipped_key_is_transcribed = \
    transcription_tests("day_night_z", None, EXPECTED,
                        same=lambda got, want, rules: _normal(got) == _normal(want),
                        untranscribed=UNTRANSCRIBED)


def _entries(rules, head):
    return {k.split(".")[1] for k in rules.keys() if k.startswith(head + ".")}


def test_unnamed_locations(rules):
    pairs = {(tuple(rules.get(f"locations.{n}.access")), rules.get(f"locations.{n}.tiles"))
             for n in _entries(rules, "locations") - {"fire_station"}}
    assert pairs == UNNAMED_LOCATIONS


def test_deck_sizes(rules):
    for deck, size in DECKS.items():
        total = sum(rules.get(f"{deck}.{n}.count") for n in _entries(rules, deck))
        assert total == size, deck
    armour = [n for n in _entries(rules, "search") if rules.get(f"search.{n}.kind") == "armour"]
    assert sum(rules.get(f"search.{n}.count") for n in armour) == ARMOUR_CARDS
    assert sum(rules.get(f"enemies.{n}.miniatures") for n in _entries(rules, "enemies")) \
        == MINIATURES


def test_campaign_names(rules):
    """Rulebook §7: 6 facilities (Rest zone, Warehouse, Workshop, Infirmary, Training zone,
    Supply zone) and a perimeter fence; §1: 24 skill cards; §6: 3 terrain types (mountain, plain, wood), each
    travel card with a section for each."""
    assert set(rules.names("facilities")) == {"rest_zone", "warehouse", "workshop", "infirmary",
                                              "training_zone", "supply_zone", "fence"}
    # §1: 24 skill cards
    assert sum(rules.get(f"skills.{n}.count") for n in rules.names("skills")) == 24
    # §1: 10 ally cards
    assert sum(rules.get(f"allies.{n}.count") for n in rules.names("allies")) == 10
    for card in rules.names("travel"):
        assert {k.split(".")[2] for k in rules.keys() if k.startswith(f"travel.{card}.")} \
            >= {"mountain", "plain", "wood"}


def test_travel_routes(rules):
    """The docs page's campaign section: the known path draws a card at each icon of its
    route, 3 in all; the unknown path rolls its dice at each icon, a card a skull, 1.5 cards
    on average (the die's skull share: 1/2)."""
    assert len(rules.get("campaign.travel.known_route")) == 3
    dice, route = rules.get("campaign.travel.unknown_dice"), rules.get("campaign.travel.unknown_route")
    assert len(dice) == len(route)
    skull = sum(rules.get(f"dice.f{i}.skull") for i in range(1, 7)) / 6
    assert sum(dice) * skull == 1.5


def test_campaign_partly_stated(rules):
    """What the docs page states of the campaign's assumed cards: the basic level of the
    infirmary (an Aid check for +2 health) and of the rest zone (+1 health and -2 stress); a
    skill is +1 die on one attribute; an ally adds to an attribute, or heals, or brings a
    supply; the stranger is 1 shelter event in 6 (§7: one roll on the table)."""
    assert rules.get("facilities.infirmary.health")[0] == 2
    assert rules.get("facilities.rest_zone.health")[0] == 1
    assert rules.get("facilities.rest_zone.stress")[0] == 2
    for n in rules.names("skills"):
        bonus = {a: v for a, v in rules.get(f"skills.{n}.bonus").items() if v}
        assert list(bonus.values()) == [1], n
    for n in rules.names("allies"):
        attributes = sum(1 for v in rules.get(f"allies.{n}.bonus").values() if v)
        effects = [attributes == 1, rules.get(f"allies.{n}.heal") > 0,
                   rules.get(f"allies.{n}.supplies") > 0]
        assert attributes <= 1 and sum(effects) == 1, n
    assert sum(rules.get(f"shelter_events.{n}.count") for n in rules.names("shelter_events")) == 6
