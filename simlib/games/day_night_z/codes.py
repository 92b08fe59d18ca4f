"""Day Night Z: vocabularies and integer codes (one source of truth for every name the
code and the kernels share).

The names here are the game's structure (which icons a die face may carry, which enemy
kinds the rules single out, which colours the tracks have); every number of the game is
data (``data/day_night_z``).  Kernels import the integer codes as module constants.
"""
from __future__ import annotations

from ...core.layout import layout

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
N_BODY = len(BODY_LOCATIONS)
# trap_stuff: a "stuff for traps" card (§4.4: its capacity, the trap-combinable cards it
# takes, and a base damage); component: a card combined with others into a combined card
# (§4.5; a combined card is a weapon card that names its components)
SEARCH_KINDS = ("supplies", "ammo", "weapon", "armour", "painkillers", "first_aid", "vaccine",
                "suppressor", "flashlight", "trap_stuff", "component")
SIDE_A = ("normal", "fury", "excitement")
ENCOUNTER_KINDS = ("quiet", "ambush", "check")
SURPRISE_KINDS = ("horde", "enemy_ambush", "supplies")
EXPLORATION_KINDS = ("spawn", "spawn_and_search", "search")
EXITS = ("a", "b", "c")
CORPSE_KINDS = ("nothing", "ammo", "battery", "supplies", "infection")

# ------------------------------------------------------------------ tile terrain (§3.10)
# What a location tile holds, at the engine's tile level: cover (+defence against the
# enemies' attacks), high (+ranged), flooded and hollow (+AP to enter), noisy (a noise
# counter on entering), fire (a die for every miniature on the tile after the threat
# phase, a skull costs health).  Blocked and impassable terrain and walls shape subzones,
# which the engine does not model.
TILE_TERRAINS = ("none", "cover", "high", "flooded", "hollow", "noisy", "fire")
TT_NONE, TT_COVER, TT_HIGH, TT_FLOODED, TT_HOLLOW, TT_NOISY, TT_FIRE = range(len(TILE_TERRAINS))

# ------------------------------------------------------------------ the campaign (§6, §7)
TERRAINS = ("mountain", "plain", "wood")          # the travel map's terrain icons
FACILITIES = ("rest_zone", "warehouse", "workshop", "infirmary", "training_zone", "supply_zone",
              "fence")                            # §7: 6 facilities and the perimeter fence
FACILITY_EFFECTS = ("health", "stress", "infection", "supplies", "ammo", "sp")

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
DICE_PARAMS = ("n_faces", "min_pool", "max_sp", "star_any", "stress_per_hit")
DP_N_FACES, DP_MIN_POOL, DP_MAX_SP, DP_STAR_ANY, DP_STRESS_PER_HIT = range(len(DICE_PARAMS))
DICE_PARTS = (("params", len(DICE_PARAMS)), ("faces", MAX_FACES * F_N),
              ("check_ok", len(LEVELS) * len(STAR_COLOURS)), ("attack_ok", len(LEVELS) * len(TARGET_COLOURS)))
_DICE, D_SIZE = layout(DICE_PARTS, "D_")
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
_TRACKS, T_SIZE = layout(TRACK_PARTS, "T_")
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
_SPAWN, X_SIZE = layout(SPAWN_PARTS, "X_")
X_PARAMS = _SPAWN["X_PARAMS"]
X_DECK = _SPAWN["X_DECK"]
X_ROWS = _SPAWN["X_ROWS"]          # [kind, level, enemy] -> count
X_ORDER = _SPAWN["X_ORDER"]        # [night, rank] -> enemy
X_MINIS = _SPAWN["X_MINIS"]
SPAWN_PLACED, SPAWN_NO_MINI, SPAWN_NO_ROOM = range(3)   # what became of one enemy of a card


# ================================================================== the engine
# ``ruleset.DayNightZRules.pack_engine()``: everything the turn engine reads besides the
# dice, tracks and spawn arrays (survivors, enemies, weapons, the decks, the city graph,
# the scenario), one int64 array; layout below.  The kernels are in ``kernels/``.
MAX_SURV = 4           # survivors in a team (the scenario's max_team is at most this)
MAX_WEAPONS = 16
MAX_SEARCH_KINDS = 32
MAX_SEARCH_CARDS = 128
MAX_THREAT_CARDS = 200
MAX_ENC_KINDS = 16
MAX_ENC_CARDS = 64
MAX_SUR_KINDS = 16
MAX_SUR_CARDS = 32
MAX_EXP_CARDS = 64
MAX_ZONES = 32         # city zones (rows x cols)
MAX_LOCS = 4           # locations of the city
MAX_TILES = 4          # tiles a location
MAX_PLACES = MAX_ZONES + MAX_LOCS * MAX_TILES   # a place: a city zone or a location tile
MAX_NB = 6             # neighbours a place
MAX_ENEMIES = 64       # enemy slots on the board (the box holds 31; see play.py)
MAX_PICK = 16          # search cards drawn for one search (a Perception value)
MAX_TURNS = 200        # turn_limit's schema bound
N_ATTR = len(ATTRIBUTES)
A_HTH, A_RANGED, A_DEFENSE, A_AGILITY, A_STRENGTH, A_PERCEPTION, A_WILL, A_AID, A_MECH = range(N_ATTR)
N_ESTAT = len(ENEMY_STATS)
ES_INIT, ES_ACTIONS, ES_HEALTH, ES_ATTACK, ES_DAMAGE, ES_DEFENSE, ES_EVASION, ES_RESIST, ES_SP = range(N_ESTAT)

ENGINE_PARAMS = (
    "health_max", "health_yellow_at", "health_red_at", "ap_green", "ap_yellow", "ap_red",
    "stress_max", "stress_yellow_from", "stress_red_from", "infection_death", "sp_start",
    "sp_cap", "max_sp", "sp_per_check", "rest_stress", "start_supplies", "supply_heals",
    "high_ground", "defend_bonus", "cover_penalty", "armour_penalty", "strength_mid",
    "strength_high", "target_priority", "tile_capacity", "engaged_cap", "leave_tile_ap",
    "ranged_reaches_tile", "high_ground_tiles", "cover_tiles", "attacks_earn_sp",
    "fury_actions", "noisy_weapon_threat", "ambush_per_survivor", "red_stress_health",
    "inf_l1_stress", "inf_l2_health", "inf_l3_health", "rows", "cols", "move_ap",
    "enter_location_ap", "n_locs", "start_hour", "start_zone", "searches_needed", "turn_limit",
    "vp_base", "vp_per_dead", "min_team", "max_team", "n_search", "n_threat", "n_enc", "n_sur",
    "n_exp", "fists", "unlimited", "attack_ap", "defend_ap", "search_item_ap", "n_corpse", "hide_ap",
    "hide_dice", "cancel_location", "flooded_ap", "fire_damage", "jump_ap", "jump_penalty",
    "start_battery", "exchange_ap", "exchange_items", "trap_ap", "combine_ap")
(RP_HEALTH_MAX, RP_HEALTH_YELLOW_AT, RP_HEALTH_RED_AT, RP_AP_GREEN, RP_AP_YELLOW, RP_AP_RED,
 RP_STRESS_MAX, RP_STRESS_YELLOW_FROM, RP_STRESS_RED_FROM, RP_INFECTION_DEATH, RP_SP_START,
 RP_SP_CAP, RP_MAX_SP, RP_SP_PER_CHECK, RP_REST_STRESS, RP_START_SUPPLIES, RP_SUPPLY_HEALS,
 RP_HIGH_GROUND, RP_DEFEND_BONUS, RP_COVER_PENALTY, RP_ARMOUR_PENALTY, RP_STRENGTH_MID,
 RP_STRENGTH_HIGH, RP_TARGET_PRIORITY, RP_TILE_CAPACITY, RP_ENGAGED_CAP, RP_LEAVE_TILE_AP,
 RP_RANGED_REACHES_TILE, RP_HIGH_GROUND_TILES, RP_COVER_TILES, RP_ATTACKS_EARN_SP,
 RP_FURY_ACTIONS, RP_NOISY_WEAPON_THREAT, RP_AMBUSH_PER_SURVIVOR, RP_RED_STRESS_HEALTH,
 RP_INF_L1_STRESS, RP_INF_L2_HEALTH, RP_INF_L3_HEALTH, RP_ROWS, RP_COLS, RP_MOVE_AP,
 RP_ENTER_LOCATION_AP, RP_N_LOCS, RP_START_HOUR, RP_START_ZONE, RP_SEARCHES_NEEDED,
 RP_TURN_LIMIT, RP_VP_BASE, RP_VP_PER_DEAD, RP_MIN_TEAM, RP_MAX_TEAM, RP_N_SEARCH,
 RP_N_THREAT, RP_N_ENC, RP_N_SUR, RP_N_EXP, RP_FISTS, RP_UNLIMITED, RP_ATTACK_AP, RP_DEFEND_AP,
 RP_SEARCH_ITEM_AP, RP_N_CORPSE, RP_HIDE_AP, RP_HIDE_DICE, RP_CANCEL_LOCATION, RP_FLOODED_AP,
 RP_FIRE_DAMAGE, RP_JUMP_AP, RP_JUMP_PENALTY, RP_START_BATTERY, RP_EXCHANGE_AP,
 RP_EXCHANGE_ITEMS, RP_TRAP_AP, RP_COMBINE_AP) = range(len(ENGINE_PARAMS))

# a team slot's survivor: attributes by day then by night, supplies eaten, weapon, ammo
SV_DAY, SV_NIGHT, SV_EATS, SV_WEAPON, SV_AMMO = 0, N_ATTR, 2 * N_ATTR, 2 * N_ATTR + 1, 2 * N_ATTR + 2
SV_W = 2 * N_ATTR + 3
# a weapon
# (W_TRAP: the damage it adds to a trap when combined with a "stuff for traps" card, §4.4;
# 0: it does not combine with traps)
W_RANGED, W_DMG_WEAK, W_DMG_MID, W_DMG_STRONG, W_NOISY, W_AMMO, W_PER_AP, W_SLOW, W_PIERCE, \
    W_STAR, W_SUPPRESSIBLE, W_TRAP = range(12)
W_W = 12
STAR_NONE, STAR_PIERCE, STAR_SWEEP = range(3)          # STAR_TRAITS
# a search card kind
# (SK_CAPACITY: a stuff-for-traps card's capacity; SK_PARTS: a combined card's component
# cards, a bit a search-card kind; SK_PART_WEAPON: the weapon a combined card's weapon
# component is, -1 none)
SK_KIND, SK_MOD, SK_AMOUNT, SK_WEAPON, SK_LOCATION, SK_CHECK, SK_CANCELS, SK_TURNS, SK_CAPACITY, \
    SK_PARTS, SK_PART_WEAPON = range(11)
SK_W = 11
(SC_SUPPLIES, SC_AMMO, SC_WEAPON, SC_ARMOUR, SC_PAINKILLERS, SC_FIRST_AID, SC_VACCINE,
 SC_SUPPRESSOR, SC_FLASHLIGHT, SC_TRAP_STUFF, SC_COMPONENT) = range(len(SEARCH_KINDS))
# threat deck columns: side A, hourglasses, Hunter icon, infection icon, condition
SIDE_NORMAL, SIDE_FURY, SIDE_EXCITEMENT = range(3)
COND_NOISY, COND_AMBUSH, COND_RED_STRESS, COND_NOTHING = range(4)
# encounter card kinds: kind, spawn per survivor, extra at red, attribute, fail stress, fail damage
EK_KIND, EK_SPAWN, EK_EXTRA_RED, EK_ATTR, EK_STRESS, EK_DAMAGE = range(6)
EK_W = 6
ENC_QUIET, ENC_AMBUSH, ENC_CHECK = range(3)
# surprise card kinds: kind, spawn cards, enemy, amount
UK_KIND, UK_SPAWN, UK_ENEMY, UK_AMOUNT = range(4)
UK_W = 4
SUR_HORDE, SUR_ENEMY_AMBUSH, SUR_SUPPLIES = range(3)
EXP_SPAWN, EXP_SPAWN_SEARCH, EXP_SEARCH = range(3)
# corpse marker kinds: kind, amount, dice
CK_KIND, CK_AMOUNT, CK_DICE = range(3)
CK_W = 3
CORPSE_NOTHING, CORPSE_AMMO, CORPSE_BATTERY, CORPSE_SUPPLIES, CORPSE_INFECTION = range(len(CORPSE_KINDS))
MAX_CORPSE_KINDS = 16
MAX_CORPSE_CARDS = 64
# city zones
Z_STREET, Z_ALLEY, Z_SURPRISE, Z_EXIT = range(4)
# a location: access zone, tiles, search modifier, spawn cards small/large team, small team
LK_ACCESS, LK_TILES, LK_SEARCH_MOD, LK_SPAWN_SMALL, LK_SPAWN_LARGE, LK_SMALL_TEAM = range(6)
LK_W = 6

ENGINE_PARTS = (("params", len(ENGINE_PARAMS)), ("surv", MAX_SURV * SV_W),
                ("enemy", N_ENEMIES * 2 * N_ESTAT), ("weapons", MAX_WEAPONS * W_W),
                ("skinds", MAX_SEARCH_KINDS * SK_W), ("sdeck", MAX_SEARCH_CARDS),
                ("t_side", MAX_THREAT_CARDS), ("t_hours", MAX_THREAT_CARDS),
                ("t_hunter", MAX_THREAT_CARDS), ("t_inf", MAX_THREAT_CARDS),
                ("t_cond", MAX_THREAT_CARDS), ("ekinds", MAX_ENC_KINDS * EK_W),
                ("edeck", MAX_ENC_CARDS), ("ukinds", MAX_SUR_KINDS * UK_W), ("udeck", MAX_SUR_CARDS),
                ("xdeck", MAX_EXP_CARDS), ("zones", MAX_ZONES), ("zone_loc", MAX_ZONES),
                ("locs", MAX_LOCS * LK_W), ("nb", MAX_PLACES * MAX_NB),
                ("dist", MAX_PLACES * MAX_PLACES), ("exit_dist", MAX_PLACES),
                ("ckinds", MAX_CORPSE_KINDS * CK_W), ("cdeck", MAX_CORPSE_CARDS),
                ("terrain", MAX_PLACES), ("jump", MAX_PLACES))
_ENGINE, R_SIZE = layout(ENGINE_PARTS, "R_")
R_PARAMS = _ENGINE["R_PARAMS"]
R_SURV = _ENGINE["R_SURV"]
R_ENEMY = _ENGINE["R_ENEMY"]          # [kind, night, stat]
R_WEAPONS = _ENGINE["R_WEAPONS"]
R_SKINDS = _ENGINE["R_SKINDS"]
R_SDECK = _ENGINE["R_SDECK"]
R_T_SIDE = _ENGINE["R_T_SIDE"]
R_T_HOURS = _ENGINE["R_T_HOURS"]
R_T_HUNTER = _ENGINE["R_T_HUNTER"]
R_T_INF = _ENGINE["R_T_INF"]
R_T_COND = _ENGINE["R_T_COND"]
R_EKINDS = _ENGINE["R_EKINDS"]
R_EDECK = _ENGINE["R_EDECK"]
R_UKINDS = _ENGINE["R_UKINDS"]
R_UDECK = _ENGINE["R_UDECK"]
R_XDECK = _ENGINE["R_XDECK"]
R_ZONES = _ENGINE["R_ZONES"]          # zone kind (Z_*)
R_ZONE_LOC = _ENGINE["R_ZONE_LOC"]    # location a zone gives access to, -1 none
R_LOCS = _ENGINE["R_LOCS"]
R_NB = _ENGINE["R_NB"]                # neighbours of a place (-1 pads)
R_DIST = _ENGINE["R_DIST"]            # moves between places (the players' map knowledge)
R_EXIT_DIST = _ENGINE["R_EXIT_DIST"]  # moves to the nearest exit zone
R_CKINDS = _ENGINE["R_CKINDS"]        # corpse marker kinds
R_CDECK = _ENGINE["R_CDECK"]          # the corpse markers, one entry a marker
R_TERRAIN = _ENGINE["R_TERRAIN"]      # a place's terrain (TT_*; city zones: none)
R_JUMP = _ENGINE["R_JUMP"]            # 1: the tile has a subzone to jump from (§4.10)

# ------------------------------------------------------------------ the game state
# One int64 array (``S_*``) and the game's uint64 random streams (``N_STREAMS``).
PH_ORDER, PH_ACT, PH_PICK, PH_RESERVE = range(4)   # what the pending decision is
END_CAUSES = ("success", "all_dead", "out_of_turns")
END_SUCCESS, END_ALL_DEAD, END_OUT_OF_TURNS = range(3)
HUNTER_BOX, HUNTER_STALK, HUNTER_BOARD, HUNTER_DEAD = range(4)
GLOBALS = ("over", "end_cause", "turn", "hour", "threat", "phase", "cur", "team", "searches",
           "red_noise", "yellow_noise", "hunter", "hunter_dmg", "hunter_icon_seen", "decisions",
           "kills", "thr_noise", "thr_leaving", "thr_clock", "thr_cards", "thr_lowered",
           "sp_rolls", "sp_threat", "hunter_spawns", "hunter_damage", "hunter_kills",
           "dead_damage", "dead_infection", "dead_hunger", "start_hour", "game", "n_picks",
           "pos_search", "pos_spawn", "pos_threat", "pos_enc", "pos_sur", "pos_exp",
           "reserve_next", "cause_ctx", "last_night", "pos_corpse", "traps_set", "trap_hits",
           "trap_kills", "combined")
(G_OVER, G_END_CAUSE, G_TURN, G_HOUR, G_THREAT, G_PHASE, G_CUR, G_TEAM, G_SEARCHES,
 G_RED_NOISE, G_YELLOW_NOISE, G_HUNTER, G_HUNTER_DMG, G_HUNTER_ICON_SEEN, G_DECISIONS,
 G_KILLS, G_THR_NOISE, G_THR_LEAVING, G_THR_CLOCK, G_THR_CARDS, G_THR_LOWERED, G_SP_ROLLS,
 G_SP_THREAT, G_HUNTER_SPAWNS, G_HUNTER_DAMAGE, G_HUNTER_KILLS, G_DEAD_DAMAGE,
 G_DEAD_INFECTION, G_DEAD_HUNGER, G_START_HOUR, G_GAME, G_N_PICKS, G_POS_SEARCH, G_POS_SPAWN,
 G_POS_THREAT, G_POS_ENC, G_POS_SUR, G_POS_EXP, G_RESERVE_NEXT, G_CAUSE_CTX, G_LAST_NIGHT,
 G_POS_CORPSE, G_TRAPS_SET, G_TRAP_HITS, G_TRAP_KILLS, G_COMBINED) = range(len(GLOBALS))
# a survivor
SURV_FIELDS = ("alive", "place", "health", "stress", "infection", "sp", "ap", "supplies", "ammo",
               "melee", "ranged", "armour_head", "armour_body", "armour_arms", "armour_legs",
               "gloves", "painkillers", "first_aid", "vaccines", "suppressor", "flashlight",
               "activated", "acted", "defending", "slow_used", "noisy_used", "noise_made",
               "encounter", "eats", "dead_cause", "hidden", "skills", "allies", "moved",
               "battery", "light", "light_turns", "exchange", "trap_stuff", "parts") \
    + tuple(f"bonus_{a}" for a in ATTRIBUTES)
(U_ALIVE, U_PLACE, U_HEALTH, U_STRESS, U_INFECTION, U_SP, U_AP, U_SUPPLIES, U_AMMO, U_MELEE,
 U_RANGED, U_ARMOUR, _U_ARMOUR_BODY, _U_ARMOUR_ARMS, _U_ARMOUR_LEGS, U_GLOVES, U_PAINKILLERS,
 U_FIRST_AID, U_VACCINES, U_SUPPRESSOR, U_FLASHLIGHT, U_ACTIVATED, U_ACTED, U_DEFENDING,
 U_SLOW_USED, U_NOISY_USED, U_NOISE_MADE, U_ENCOUNTER, U_EATS, U_DEAD_CAUSE, U_HIDDEN,
 U_SKILLS, U_ALLIES, U_MOVED, U_BATTERY, U_LIGHT, U_LIGHT_TURNS,
 U_EXCHANGE, U_TRAP_STUFF, U_PARTS) = range(SURV_FIELDS.index("parts") + 1)
# ``trap_stuff``: the "stuff for traps" cards he carries (§4.4); ``parts``: the component
# cards he carries (§4.5), a bit a search-card kind (one of each kept)
# ``battery``: the battery units in his backpack (§4.2); ``light``: the turns of light his
# flashlight has left from the unit it runs on; ``light_turns``: the turns a unit gives his
# flashlight (its card's ``turns``; 0: it needs no battery)
# ``exchange``: the transfers left in the exchange he declared (§4.6; 0: none open)
# ``moved``: he moved (or jumped) during this activation, for the street zone's encounter
# card at its end (§4.9)
# the skills a survivor bought in the shelter (a bit a skill of ``skills.toml``), the
# allies who joined him (a bit an ally of ``allies.toml``) and what both add to each
# attribute (``attr_of`` adds it, day and night); 0 outside a campaign
U_BONUS = SURV_FIELDS.index("bonus_hth")
U_W = len(SURV_FIELDS)
# an enemy slot: kind (-1 empty), place, engaged survivor (-1 far), damage taken
EN_KIND, EN_PLACE, EN_ENG, EN_DMG = range(4)
EN_W = 4
# a place: tile on the table, explored (its exploration card drawn), searched, search markers,
# surprise card resolved, corpse markers, the damage of the trap marker on it (§4.4; 0 none)
P_DEPLOYED, P_EXPLORED, P_SEARCHED, P_MARKERS, P_SURPRISED, P_CORPSES, P_TRAP = range(7)
P_W = 7
STATE_PARTS = (("globals", len(GLOBALS)), ("surv", MAX_SURV * U_W), ("enemies", MAX_ENEMIES * EN_W),
               ("places", MAX_PLACES * P_W), ("minis", N_ENEMIES), ("sdeck", MAX_SEARCH_CARDS),
               ("xspawn", MAX_SPAWN_CARDS), ("t_side", MAX_THREAT_CARDS), ("t_hours", MAX_THREAT_CARDS),
               ("t_hunter", MAX_THREAT_CARDS), ("t_inf", MAX_THREAT_CARDS), ("t_cond", MAX_THREAT_CARDS),
               ("edeck", MAX_ENC_CARDS), ("udeck", MAX_SUR_CARDS), ("xdeck", MAX_EXP_CARDS),
               ("cdeck", MAX_CORPSE_CARDS), ("placed", 64), ("fired", 8), ("picks", MAX_PICK),
               ("threat_by_turn", MAX_TURNS + 1), ("alive_by_turn", MAX_TURNS + 1))
_STATE, S_SIZE = layout(STATE_PARTS, "S_")
S_GLOBALS = _STATE["S_GLOBALS"]
S_SURV = _STATE["S_SURV"]
S_ENEMIES = _STATE["S_ENEMIES"]
S_PLACES = _STATE["S_PLACES"]
S_MINIS = _STATE["S_MINIS"]
S_SDECK = _STATE["S_SDECK"]
S_XSPAWN = _STATE["S_XSPAWN"]
S_T_SIDE = _STATE["S_T_SIDE"]
S_T_HOURS = _STATE["S_T_HOURS"]
S_T_HUNTER = _STATE["S_T_HUNTER"]
S_T_INF = _STATE["S_T_INF"]
S_T_COND = _STATE["S_T_COND"]
S_EDECK = _STATE["S_EDECK"]
S_UDECK = _STATE["S_UDECK"]
S_XDECK = _STATE["S_XDECK"]
S_CDECK = _STATE["S_CDECK"]
S_PLACED = _STATE["S_PLACED"]
S_FIRED = _STATE["S_FIRED"]
S_PICKS = _STATE["S_PICKS"]
S_THREAT_BY_TURN = _STATE["S_THREAT_BY_TURN"]
S_ALIVE_BY_TURN = _STATE["S_ALIVE_BY_TURN"]

# ------------------------------------------------------------------ actions
# An action code: kind * ACT_KIND + argument * ACT_ARG + survival points spent on its roll.
ACT_KIND = 1 << 16
ACT_ARG = 1 << 4
ACTIONS = ("end", "activate", "move", "melee", "shoot", "search", "pick", "search_item", "eat",
           "painkiller", "first_aid", "vaccine", "defend", "rest", "lower_threat", "search_corpse", "hide",
           "stop_hiding", "jump", "give", "set_trap", "combine")
(AC_END, AC_ACTIVATE, AC_MOVE, AC_MELEE, AC_SHOOT, AC_SEARCH, AC_PICK, AC_SEARCH_ITEM, AC_EAT,
 AC_PAINKILLER, AC_FIRST_AID, AC_VACCINE, AC_DEFEND, AC_REST, AC_LOWER_THREAT, AC_SEARCH_CORPSE, AC_HIDE,
 AC_STOP_HIDING, AC_JUMP, AC_GIVE, AC_SET_TRAP, AC_COMBINE) = range(len(ACTIONS))
# set_trap's argument: the carried weapons combined with the stuff for traps, a bit each
# (TRAP_MELEE, TRAP_RANGED); combine's: the combined card's search-card kind
TRAP_MELEE, TRAP_RANGED = 1, 2
# what an exchange hands over (§4.6, "object cards and backpack elements"): one unit of a
# backpack counter or of a kit, the flashlight or the suppressor to a survivor without one,
# or a weapon, swapped for the other survivor's of its kind (melee: a survivor's fists stay
# his).  A give's argument: (partner * 2 + direction) * N_GOODS + good; direction 0: the
# active survivor gives, 1: he takes.
GOODS = ("supplies", "ammo", "battery", "painkillers", "first_aid", "vaccine", "flashlight",
         "suppressor", "ranged", "melee")
(G_SUPPLIES, G_AMMO, G_BATTERY, G_PAINKILLERS, G_FIRST_AID, G_VACCINE, G_FLASHLIGHT,
 G_SUPPRESSOR, G_RANGED, G_MELEE) = range(len(GOODS))
N_GOODS = len(GOODS)
MAX_LEGAL = 4096      # action codes of one decision (tile_capacity x 2 attacks x SP choices, bounded)

# ------------------------------------------------------------------ records
RECORD_FIELDS = ("game", "team_size", "start_hour", "success", "vp", "end_cause", "turns", "alive",
                 "dead_damage", "dead_infection", "dead_hunger", "searches_done", "kills",
                 "threat_final", "threat_level_final", "threat_from_noise", "threat_from_leaving",
                 "threat_from_clock", "threat_from_cards", "threat_lowered_by_sp", "sp_on_rolls",
                 "sp_on_threat", "hunter_spawns", "hunter_damage", "hunter_kills", "decisions",
                 "traps_set", "trap_kills", "cards_combined")
REC_SIZE = len(RECORD_FIELDS)
# a campaign's adventure record keeps the fields before the traps' (its table and goldens
# predate them)
REC_CAMPAIGN = RECORD_FIELDS.index("decisions") + 1
DEAD_DAMAGE, DEAD_INFECTION, DEAD_HUNGER = 1, 2, 3     # U_DEAD_CAUSE

# ================================================================== the campaign (§6, §7)
# ``campaign.pack_campaign(rules)``: the travel route, the travel deck, the facilities, the
# shelter events and the build order as one int64 array, read by ``kernels/campaign_nb.py``.
MAX_ROUTE = 16             # terrain icons a route
MAX_TRAVEL_KINDS = 16
MAX_TRAVEL_CARDS = 64
MAX_SHELTER_KINDS = 16
MAX_SHELTER_CARDS = 64
N_FAC = len(FACILITIES)
(F_REST_ZONE, F_WAREHOUSE, F_WORKSHOP, F_INFIRMARY, F_TRAINING_ZONE, F_SUPPLY_ZONE,
 F_FENCE) = range(N_FAC)
CAMPAIGN_PARAMS = ("travel_first", "days", "feeding", "n_known", "n_unknown", "n_travel",
                   "n_shelter", "n_build", "n_skills", "n_allies")
(CP_TRAVEL_FIRST, CP_DAYS, CP_FEEDING, CP_N_KNOWN, CP_N_UNKNOWN, CP_N_TRAVEL, CP_N_SHELTER,
 CP_N_BUILD, CP_N_SKILLS, CP_N_ALLIES) = range(len(CAMPAIGN_PARAMS))
MAX_ALLIES = 16            # ally cards (a bit each in a survivor's ``allies``)
# an ally: leadership points (§3.8), health healed and supplies brought each shelter day to
# the survivor he follows, then his bonus to each attribute
AL_LEADERSHIP, AL_HEAL, AL_SUPPLIES, AL_BONUS = range(4)
AL_W = AL_BONUS + len(ATTRIBUTES)
MAX_SKILLS = 32            # skill kinds (a bit each in a survivor's ``skills``)
# a skill: cost in SP, the skill it requires (-1 none), copies in the box, then its bonus
# to each attribute
SKL_COST, SKL_REQUIRES, SKL_COUNT, SKL_BONUS = range(4)
SKL_W = SKL_BONUS + len(ATTRIBUTES)
# a travel card's section (one a terrain): attribute (-1 none: the failure always happens),
# then what a failure does to every living survivor
TV_ATTR, TV_DAMAGE, TV_STRESS, TV_SUPPLIES, TV_INFECTION = range(5)
TV_W = 5
# a facility: in the box (0/1), start level, build and upgrade costs, check attribute (-1
# none), extra dice at the advanced level, fence (0/1), then FACILITY_EFFECTS at basic and
# at advanced level
FA_PRESENT, FA_START, FA_BUILD, FA_UPGRADE, FA_CHECK, FA_ADV_DICE, FA_FENCE, FA_EFFECTS = range(8)
N_FX = len(FACILITY_EFFECTS)
FX_HEALTH, FX_STRESS, FX_INFECTION, FX_SUPPLIES, FX_AMMO, FX_SP = range(N_FX)
FA_W = FA_EFFECTS + 2 * N_FX
# a shelter event: damage, stress, supplies lost, infection levels, turned away by the
# fence, an ally joins
SE_DAMAGE, SE_STRESS, SE_SUPPLIES, SE_INFECTION, SE_FENCE_BLOCKS, SE_ALLY = range(6)
SE_W = 6
CAMPAIGN_PARTS = (("params", len(CAMPAIGN_PARAMS)), ("known", MAX_ROUTE), ("unknown", MAX_ROUTE),
                  ("unknown_dice", MAX_ROUTE), ("tkinds", MAX_TRAVEL_KINDS * len(TERRAINS) * TV_W),
                  ("tdeck", MAX_TRAVEL_CARDS), ("fac", N_FAC * FA_W),
                  ("skinds", MAX_SHELTER_KINDS * SE_W), ("sdeck", MAX_SHELTER_CARDS),
                  ("build", 2 * N_FAC), ("skills", MAX_SKILLS * SKL_W), ("allies", MAX_ALLIES * AL_W))
_CAMPAIGN, C_SIZE = layout(CAMPAIGN_PARTS, "C_")
C_PARAMS = _CAMPAIGN["C_PARAMS"]
C_KNOWN = _CAMPAIGN["C_KNOWN"]
C_UNKNOWN = _CAMPAIGN["C_UNKNOWN"]
C_UNKNOWN_DICE = _CAMPAIGN["C_UNKNOWN_DICE"]
C_TKINDS = _CAMPAIGN["C_TKINDS"]      # [card kind, terrain, TV_*]
C_TDECK = _CAMPAIGN["C_TDECK"]        # one entry a physical travel card: its kind
C_FAC = _CAMPAIGN["C_FAC"]            # [facility code, FA_*]
C_SKINDS = _CAMPAIGN["C_SKINDS"]      # [event kind, SE_*]
C_SDECK = _CAMPAIGN["C_SDECK"]        # the shelter events table, one entry a chance
C_BUILD = _CAMPAIGN["C_BUILD"]        # building steps in order: facility code * 2 + level - 1
C_SKILLS = _CAMPAIGN["C_SKILLS"]      # [skill, SKL_*]
C_ALLIES = _CAMPAIGN["C_ALLIES"]      # [ally, AL_*]

# the shelter player's parameters (float64, ``campaign.SHELTER_PARAMS`` names them)
(SH_HEAL_MISSING, SH_SUPPLIES_RESERVE, SH_UNKNOWN_PATH, SH_BUILD, SH_SKILLS, SH_SP_KEEP,
 SH_INFIRMARY_WOUNDS) = range(7)

# a campaign's random streams: adventure k > 0 is keyed by mix(game key ^ k * ADVENTURE_SALT);
# its travel and shelter by mix(adventure key ^ CAMPAIGN_SALT), a stream array of their own
# (STREAM_DICE for checks and skull rolls, STREAM_DECKS for travel cards and shelter events)
ADVENTURE_SALT = 0x1E3779B97F4A7C15
CAMPAIGN_SALT = 0x42B2AE3D27D4EB4F
DEAD_TRAVEL, DEAD_SHELTER = 4, 5                       # U_DEAD_CAUSE of the campaign's phases
CAMPAIGN_FIELDS = ("game", "team_size", "adventures", "played", "accomplished", "success",
                   "alive", "vp_earned", "vp_spent", "dead_adventures", "dead_travel",
                   "dead_shelter", "facilities_built", "skills_bought", "sp_on_skills",
                   "allies_joined")
CAMPAIGN_REC = len(CAMPAIGN_FIELDS)
ADVENTURE_FIELDS = RECORD_FIELDS[:REC_CAMPAIGN] + ("adventure", "alive_start", "played")
ADVENTURE_REC = len(ADVENTURE_FIELDS)
