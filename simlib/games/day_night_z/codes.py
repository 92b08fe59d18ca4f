"""Day Night Z: vocabularies and integer codes (one source of truth for every name the
code and the kernels share).

The names here are the game's structure (which icons a die face may carry, which enemy
kinds the rules single out, which colours the tracks have); every number of the game is
data (``data/day_night_z``).  Kernels import the integer codes as module constants.
"""
from __future__ import annotations

# ------------------------------------------------------------------ colours
STAR_COLOURS = ("green", "gold", "red")        # a face's star (attribute checks)
TARGET_COLOURS = ("green", "yellow", "red")    # a face's target (survivors' attacks)
LEVELS = ("green", "yellow", "red")            # the stress, health and threat colours
L_GREEN, L_YELLOW, L_RED = range(3)
NONE = "none"                                   # a face without a star or a target

# ------------------------------------------------------------------ die faces (packed)
# One row a face: star colour (-1 none), target colour (-1 none), skull, infection, noise.
F_STAR, F_TARGET, F_SKULL, F_INFECTION, F_NOISE = range(5)
F_N = 5
MAX_FACES = 12

# ------------------------------------------------------------------ enemies
ENEMIES = ("walker", "howler", "crawler", "leader", "bulker", "hunter")
E_WALKER, E_HOWLER, E_CRAWLER, E_LEADER, E_BULKER, E_HUNTER = range(6)
ENEMY_STATS = ("initiative", "actions", "health", "attack", "damage", "defense", "evasion",
               "resistance", "sp")

# ------------------------------------------------------------------ survivors
ATTRIBUTES = ("hth", "ranged", "defense", "agility", "strength", "perception", "will", "aid",
              "mechanisms")
CHECK_ATTRIBUTES = ("agility", "strength", "perception", "will", "aid", "mechanisms")

# ------------------------------------------------------------------ weapons and cards
WEAPON_KINDS = ("melee", "ranged")
STAR_TRAITS = ("none", "pierce", "sweep")
BODY_LOCATIONS = ("head", "body", "arms", "legs")  # §1, the survivor sheet
SEARCH_KINDS = ("supplies", "ammo", "weapon", "armour", "painkillers", "first_aid", "vaccine",
                "suppressor", "flashlight")
SIDE_A = ("normal", "fury", "excitement")
ENCOUNTER_KINDS = ("quiet", "ambush", "check")
SURPRISE_KINDS = ("horde", "enemy_ambush", "supplies")
EXPLORATION_KINDS = ("spawn", "spawn_and_search", "search")
EXITS = ("a", "b", "c")

# ------------------------------------------------------------------ rule choices
STAR_TRAIT_RULES = ("any_star", "stress_star")  # which star fires a weapon's star trait
THREAT_COMBINATIONS = ("independent",)            # how a threat card's sides are paired
TARGET_PRIORITIES = ("noisiest_then_weakest", "weakest_then_noisiest")
