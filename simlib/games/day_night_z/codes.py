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


# ------------------------------------------------------------------ packed dice rules
# ``ruleset.DayNightZRules.pack_dice()``: one int64 array the dice kernels read
# (``dice_nb``): parameters ``DP_*`` at ``D_PARAMS``, the face table (``MAX_FACES`` rows of
# ``F_N`` columns) at ``D_FACES``, and 0/1 masks of the symbol colours that succeed, one
# row a level: stars for checks at ``D_CHECK_OK``, targets for attacks at ``D_ATTACK_OK``
# (``LEVELS`` rows of 3 columns).
def _layout(parts: tuple[tuple[str, int], ...], prefix: str) -> tuple[dict, int]:
    """Offsets ``{PREFIX_NAME: offset}`` of consecutive parts, and the total size."""
    out, off = {}, 0
    for name, size in parts:
        out[f"{prefix}{name.upper()}"] = off
        off += size
    return out, off


DICE_PARAMS = ("n_faces", "min_pool", "max_sp", "star_any", "stress_per_hit")
DP_N_FACES, DP_MIN_POOL, DP_MAX_SP, DP_STAR_ANY, DP_STRESS_PER_HIT = range(len(DICE_PARAMS))
DICE_PARTS = (("params", len(DICE_PARAMS)), ("faces", MAX_FACES * F_N),
              ("check_ok", len(LEVELS) * len(STAR_COLOURS)), ("attack_ok", len(LEVELS) * len(TARGET_COLOURS)))
_DICE, D_SIZE = _layout(DICE_PARTS, "D_")
D_PARAMS = _DICE["D_PARAMS"]
D_FACES = _DICE["D_FACES"]
D_CHECK_OK = _DICE["D_CHECK_OK"]
D_ATTACK_OK = _DICE["D_ATTACK_OK"]

# ------------------------------------------------------------------ random streams
# A game's streams are keyed by ``simlib.core.rng.game_key_nb(seed, game index)`` and
# drawn with ``simlib.core.rng`` (a uint64 array of N_STREAMS entries): one a purpose, so
# a change in how often one is drawn never shifts another.
STREAM_DICE = 0      # every die of every roll
STREAM_DECKS = 1     # shuffles of the decks
STREAM_CHOICES = 2   # the rules' random choices (struck location, the Hunter's survivor)
STREAM_POLICY = 3    # players' own randomness
N_STREAMS = 4

# ------------------------------------------------------------------ packed track rules
# ``ruleset.DayNightZRules.pack_tracks()``: the threat track, noise, the clock, the SP cap
# and eating, read by ``tracks_nb``.  The threat is one index ``t`` from 0 (green unit 1)
# to 3 * units - 1 (red's last unit): level ``t // units``, unit ``t % units + 1``.
MAX_UNITS = 32                                     # units a threat level may have (layout bound)
TRACK_PARAMS = ("units", "start", "cost_green", "cost_yellow", "red_capped", "noise_rise",
                "band_1", "band_2", "band_3", "band_4", "block_entry", "night_start", "day_start",
                "dawn_sp", "threat_hour_rise", "sp_cap", "supply_heals", "eat_only_prevents",
                "health_max")
(TP_UNITS, TP_START, TP_COST_GREEN, TP_COST_YELLOW, TP_RED_CAPPED, TP_NOISE_RISE, TP_BAND_1,
 TP_BAND_2, TP_BAND_3, TP_BAND_4, TP_BLOCK_ENTRY, TP_NIGHT_START, TP_DAY_START, TP_DAWN_SP,
 TP_THREAT_HOUR_RISE, TP_SP_CAP, TP_SUPPLY_HEALS, TP_EAT_ONLY_PREVENTS, TP_HEALTH_MAX) = range(len(TRACK_PARAMS))
# What an hour of the clock fires (bits of ``T_HOURS[h]``).
EV_DAWN = 1           # +dawn_sp SP each, the Hunter leaves
EV_INFECTION = 2      # infected survivors test Strength
EV_EAT = 4            # survivors eat
EV_THREAT = 8         # threat +threat_hour_rise
TRACK_PARTS = (("params", len(TRACK_PARAMS)), ("locked", len(LEVELS) * MAX_UNITS), ("hours", 24))
_TRACKS, T_SIZE = _layout(TRACK_PARTS, "T_")
T_PARAMS = _TRACKS["T_PARAMS"]
T_LOCKED = _TRACKS["T_LOCKED"]      # 0/1: level row, unit - 1 column (red's row is all locked)
T_HOURS = _TRACKS["T_HOURS"]

# ------------------------------------------------------------------ packed spawn rules
# ``ruleset.DayNightZRules.pack_spawn()``: the spawn deck (card kind of each physical card,
# in file order), each kind's enemies by threat colour, the placement order of the enemy
# kinds (initiative, highest first; ties in ``ENEMIES`` order) by day and by night, and
# the miniatures in the box.  Read by ``spawn_nb``.
MAX_SPAWN_KINDS = 16
MAX_SPAWN_CARDS = 64
N_ENEMIES = len(ENEMIES)
SPAWN_PARAMS = ("n_kinds", "n_cards", "unlimited", "tile_capacity")
SP_N_KINDS, SP_N_CARDS, SP_UNLIMITED, SP_TILE_CAPACITY = range(len(SPAWN_PARAMS))
SPAWN_PARTS = (("params", len(SPAWN_PARAMS)), ("deck", MAX_SPAWN_CARDS),
               ("rows", MAX_SPAWN_KINDS * len(LEVELS) * N_ENEMIES), ("order", 2 * N_ENEMIES),
               ("minis", N_ENEMIES))
_SPAWN, X_SIZE = _layout(SPAWN_PARTS, "X_")
X_PARAMS = _SPAWN["X_PARAMS"]
X_DECK = _SPAWN["X_DECK"]
X_ROWS = _SPAWN["X_ROWS"]          # [kind, level, enemy] -> count
X_ORDER = _SPAWN["X_ORDER"]        # [night, rank] -> enemy
X_MINIS = _SPAWN["X_MINIS"]
SPAWN_PLACED, SPAWN_NO_MINI, SPAWN_NO_ROOM = range(3)   # what became of one enemy of a card
