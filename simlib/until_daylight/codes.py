"""Integer codes and array layouts shared by the Until Daylight kernels and the Python face.

Nothing here is a number of the game: card counts, die faces and character stats live in
``data/until_daylight/*.toml``.  This module only fixes *how* those numbers are packed
into the arrays the jitted kernels read, and how the kernels' outputs are laid out.

Array conventions (all ``int64`` unless said otherwise)
-------------------------------------------------------
params : (N_PARAMS,)
    Scalar constants and variant switches, indexed by the ``P_*`` constants.
card_tab : (n_card_types, N_CARD_COLS)
    One row per rubble card type (basic weapons included), columns ``C_*``.
enemy_tab : (n_enemy_types, N_ENEMY_COLS)
    One row per horde card type, columns ``E_*``.
char_tab : (n_characters, N_CHAR_COLS)
    One row per character, columns ``CH_*``.
die_faces : (die_size,)
    Face code (``FACE_*``) of each side of the combat die.
fate_faces : (fate_size,)
    Effect code (``FATE_*``) of each side of the Die of Fate.
recipes : (n_recipes, N_RECIPE_COLS)
    Craft recipes, columns ``R_*``.
"""
from __future__ import annotations

from enum import IntEnum

# --------------------------------------------------------------------------- dice
FACE_X = 0  # miss
FACE_B = 1  # body: half damage
FACE_H = 2  # head: full damage
FACE_NAMES = {"X": FACE_X, "B": FACE_B, "H": FACE_H}


class Face(IntEnum):
    X = FACE_X
    B = FACE_B
    H = FACE_H


FATE_REMOVE_ENEMY = 0
FATE_ADD_ENEMY = 1
FATE_DISCARD = 2
FATE_DRAW = 3
FATE_HEAL = 4
FATE_DAMAGE = 5
FATE_NAMES = {
    "remove_enemy": FATE_REMOVE_ENEMY,
    "add_enemy": FATE_ADD_ENEMY,
    "discard_card": FATE_DISCARD,
    "draw_card": FATE_DRAW,
    "heal": FATE_HEAL,
    "damage": FATE_DAMAGE,
}

# --------------------------------------------------------------------------- enemies
ENEMY_RAIDER = 0  # attacks first, ignores survivors, its X kills a survivor, damage discards cards
ENEMY_INFECTED = 1  # attacks survivors first; tamed by noise
ENEMY_SURVIVOR = 2  # harmless; saved when alone in an area at end of round
ENEMY_KIND_NAMES = {"raider": ENEMY_RAIDER, "infected": ENEMY_INFECTED, "survivor": ENEMY_SURVIVOR}

E_KIND = 0  # ENEMY_* kind
E_COUNT = 1  # cards of this type in the horde deck
E_KILL_HEADS = 2  # heads that eliminate it
E_KILL_BODIES = 3  # bodies that eliminate it (0: bodies cannot)
E_ATTACK_DICE = 4  # combat dice it rolls when enemies attack
E_REWARD_CARDS = 5  # rubble cards drawn by whoever eliminates it
E_REWARD_XP = 6  # XP for eliminating it (while the card is kept)
E_KEPT = 7  # 1: the card is kept by the player who eliminated it (Monster)
N_ENEMY_COLS = 8

# --------------------------------------------------------------------------- rubble cards
CK_AMMO = 0
CK_WEAPON = 1
CK_HEAL = 2
CK_MATERIAL = 3  # craft ingredient
CK_PROTECTION = 4  # absorbs enemy damage, then discarded
CK_DICE_BONUS = 5  # vitality!, bloodlust: extra dice before the roll
CK_FOCUS = 6  # after the roll: one B becomes H
CK_LUCKY = 7  # after the roll: reroll each X once
CK_ENERGY_SHOT = 8  # after the roll: one X becomes B
CK_ADRENALINE = 9  # one more attack this turn
CK_SYMBOL = 10  # +XP while held
CK_PICKPOCKET = 11  # action: take a card from another player, +XP
CK_EVENT_NOISE = 12  # red: draw horde cards into your area
CK_EVENT_INJURY = 13  # red: take damage
CK_EVENT_LOST_ITEM = 14  # red: discard cards
CARD_KIND_NAMES = {
    "ammo": CK_AMMO,
    "weapon": CK_WEAPON,
    "heal": CK_HEAL,
    "material": CK_MATERIAL,
    "protection": CK_PROTECTION,
    "dice_bonus": CK_DICE_BONUS,
    "focus": CK_FOCUS,
    "lucky": CK_LUCKY,
    "energy_shot": CK_ENERGY_SHOT,
    "adrenaline": CK_ADRENALINE,
    "symbol": CK_SYMBOL,
    "pickpocket": CK_PICKPOCKET,
    "event_noise": CK_EVENT_NOISE,
    "event_injury": CK_EVENT_INJURY,
    "event_lost_item": CK_EVENT_LOST_ITEM,
}

C_KIND = 0  # CK_* kind
C_COUNT = 1  # cards of this type in the rubble deck at setup (0 for basic weapons)
C_DICE = 2  # ammo: dice per card; melee weapon: dice; dice bonus: extra dice
C_AMMO = 3  # distance weapon: card type of its ammo; else -1
C_WEAPON_BONUS = 4  # distance weapon: extra dice per attack (rifle)
C_MELEE = 5  # weapon: 1 melee, 0 distance; dice bonus: 1 melee only
C_FIREARM = 6  # weapon: 1 firearm (the Hipster refuses it)
C_SILENT = 7  # weapon: 1 silent (does not tame the horde)
C_AMOUNT = 8  # heal: health; protection: damage absorbed; noise: horde cards;
#               injury: damage; lost item: cards discarded; symbol/pickpocket: XP
C_NEEDS_ACTION = 9  # 1: using it takes the turn's action (food, medkit, pickpocket)
C_STACKS = 10  # 1: cards of this type share one inventory slot (ammo)
C_BASIC_OF = 11  # basic weapon of this character id; else -1
N_CARD_COLS = 12

# --------------------------------------------------------------------------- characters
MOD_NONE = 0
MOD_MELEE_DICE = 1  # +amount dice with melee weapons
MOD_DISTANCE_DICE = 2  # +amount dice with distance weapons (negative: drawback)
MOD_EXTRA_COLLATERAL = 3  # each X into another area deals +amount collateral
MOD_NO_FIREARMS = 4  # cannot attack with firearms
MOD_NO_BARRICADES = 5  # cannot build barricades
MOD_NO_GIVE = 6  # cannot give cards
MOD_ABSORB_ADJACENT = 7  # absorbs amount damage per round for an adjacent player
MOD_IGNORE_DAMAGE = 8  # ignores the first amount damage each round
MOD_DRAW_EXTRA = 9  # a draw action looks at 1+amount cards and keeps 1
MOD_FREE_TRADES = 10  # amount give/take actions per turn do not use the action
MOD_NAMES = {
    "none": MOD_NONE,
    "melee_dice": MOD_MELEE_DICE,
    "distance_dice": MOD_DISTANCE_DICE,
    "extra_collateral": MOD_EXTRA_COLLATERAL,
    "no_firearms": MOD_NO_FIREARMS,
    "no_barricades": MOD_NO_BARRICADES,
    "no_give": MOD_NO_GIVE,
    "absorb_adjacent": MOD_ABSORB_ADJACENT,
    "ignore_damage": MOD_IGNORE_DAMAGE,
    "draw_extra": MOD_DRAW_EXTRA,
    "free_trades": MOD_FREE_TRADES,
}
N_MODS = 11

CH_HEALTH = 0
CH_SLOTS = 1
CH_WEAPON = 2  # card type id of the basic weapon
CH_ADV_KIND = 3  # MOD_* of the advantage (doubled while leader)
CH_ADV_AMOUNT = 4
CH_DRAW_KIND = 5  # MOD_* of the drawback
CH_DRAW_AMOUNT = 6
N_CHAR_COLS = 7

# --------------------------------------------------------------------------- recipes
TOKEN_TRAP = 0
TOKEN_BARRICADE = 1
TOKEN_NAMES = {"trap": TOKEN_TRAP, "barricade": TOKEN_BARRICADE}
MAX_INGREDIENTS = 4
R_PRODUCT = 0  # TOKEN_*
R_N = 1  # number of ingredients used
R_ING0 = 2  # card type ids of the ingredients (R_ING0 .. R_ING0 + MAX_INGREDIENTS - 1), -1 unused
N_RECIPE_COLS = 2 + MAX_INGREDIENTS

# --------------------------------------------------------------------------- params
P_ROUNDS = 0
P_DICE_CAP = 1  # the 6-dice rule; also the enemies' batch size
P_TOKEN_LIMIT = 2  # traps + barricades a player may hold
P_TRAP_SUPPLY = 3
P_BARRICADE_SUPPLY = 4
P_BARRICADE_HEADS = 5  # heads that destroy a barricade
P_BARRICADE_BODIES = 6  # bodies that destroy a barricade
P_TRAP_HEADS = 7  # heads one trap deals
P_COLLATERAL_PER_X = 8
P_TIMER_PER_PLAYER = 9  # search timer: K = per_player * players + offset + U{-spread..spread}
P_TIMER_OFFSET = 10
P_TIMER_SPREAD = 11
P_TIMER_MIN = 12
P_STALEMATE_CAP = 13  # final-fight exchanges before a stalemate loss
P_SURVIVOR_XP = 14  # XP per saved survivor (while kept)
P_MIN_PLAYERS = 15
P_MAX_PLAYERS = 16
P_WAVE_PER_PLAYER = 17  # wave size = per_player * players + round
P_V_SURVIVORS_BLOCK = 18  # variant survivors_block_attacks
P_V_ALL_RAIDERS_FIRST = 19  # variant all_raiders_first
P_V_HORDE_RESHUFFLE = 20  # 1: reshuffle the horde discard pile when the deck is empty
P_V_TRAP_REWARDS = 21  # 1: trap kills give their rewards to the trap's owner
P_N_CARD_TYPES = 22
P_N_ENEMY_TYPES = 23
P_N_CHARS = 24
P_HORDE_TOTAL = 25  # horde cards in the game
P_RUBBLE_TOTAL = 26  # rubble cards in the game (deck + every basic weapon)
N_PARAMS = 27

MAX_PLAYERS = 6  # array capacity, not a rule: the ruleset's P_MAX_PLAYERS must not exceed it
