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
MAX_DICE_CAP = 14  # capacity of the kill-assignment kernel's 64-bit state set

P_BODIES_PER_DAMAGE = 27  # body results that make one damage to a character or protection card
N_PARAMS_FULL = 28  # packers fill N_PARAMS_FULL entries (P_BODIES_PER_DAMAGE defaults to 2)

# --------------------------------------------------------------------------- random streams
# One stream a purpose (``simlib.core.rng``), so that a rule that draws more from one
# leaves the others' sequences as they were.
STREAM_CARDS = 0  # rubble and horde decks, team draws
STREAM_DICE = 1  # combat dice and the Die of Fate
STREAM_TIMER = 2  # the search timer
STREAM_POLICY = 3  # policies' own randomness
N_STREAMS = 4

# =========================================================================== game state
# A game's whole state is ONE int64 array (see kernels/state_nb.py): its first N_G
# entries are the scalars ``g`` below, the rest holds the per-seat tables, decks, streams,
# trace buffer and scratch rows at the offsets G_O_*.  One array per call keeps numba's
# calls cheap (a tuple of 14 arrays cost ~100 scalars per call).
# g : (N_G,) scalars of one game
G_ROUND = 0
G_N_PLAYERS = 1
G_LEADER = 2  # seat of the leader, -1 none yet
G_FIRST = 3  # seat that starts this round's search phase
G_CAUGHT = 4  # seat caught by the timer: receives the wave
G_HDECK_N = 5  # undrawn horde cards (hdeck[:n])
G_RDECK_N = 6  # undrawn rubble cards (rdeck[:n])
G_TRAP_SUPPLY = 7
G_BARR_SUPPLY = 8
G_EV_N = 9  # events written to the trace buffer
G_OVER = 10  # 1 once the game has ended
G_OUTCOME = 11  # OUT_*
G_CAUSE = 12  # CAUSE_*
G_DEAD_SEAT = 13
G_DEAD_ROUND = 14
G_RUBBLE_DRAWN = 15
G_HORDE_DRAWN = 16
G_EXCHANGES = 17  # final-fight exchanges played
G_SEARCH_ACTIONS = 18
G_POLICY = 19  # policy id
G_HORDE_RESHUFFLES = 20
G_RUBBLE_RESHUFFLES = 21
G_TURN_SEAT = 22  # seat whose turn it is (for policies)
G_PHASE = 23  # PHASE_*
G_ATTACKS = 24
G_CUR_AREA = 25  # the attack being resolved (read by policies for after-roll cards)
G_CUR_WEAPON = 26
G_CUR_H = 27
G_CUR_B = 28
G_CUR_X = 29
G_CUR_DICE = 30
G_LUCKY_USED = 31
# where the parts of the state live in the one state array (filled by new_state_nb)
G_O_PL = 32
G_O_INV = 33
G_O_AREA = 34
G_O_KEPT = 35
G_O_HDECK = 36
G_O_HDISC = 37
G_O_RDECK = 38
G_O_RDISC = 39
G_O_RNG = 40
G_O_EV = 41
G_O_CANDS = 42
G_O_BUF = 43
G_O_KILLED = 44
G_N_CARDS = 45
G_N_ENEMIES = 46
G_AREA_CAP = 47
G_EV_CAP = 48
G_BUF_CAP = 49
G_SIZE = 50  # length of the whole state array
G_CHECK = 51  # 1: check the invariants after every step (tests)
G_VIOLATION = 52  # first invariant violated (VIOL_*), 0 none
# --- where the game stands (the resumable engine: see ``kernels/game_nb.run_nb``)
G_PC = 53  # the step the game is at (PC_*)
G_PC_I = 54  # index within the step's loop (turn, area attack)
G_RDECK_CAP = 55  # length of the rubble deck part (rubble cards + 1)
G_SEARCH_K = 56  # search actions the timer allows this round
G_FINAL_E = 57  # final-fight exchange being played (0-based)
G_DECISIONS = 58  # decisions with 2+ candidates taken so far (a record field)
G_GAME_KEY = 59  # the game's random key (uint64 bits), for continuation keys
# --- engine control (not part of the position: kept through a restore)
G_MODE = 60  # MODE_*
G_O_SNAP = 61  # the step's snapshot of st[:G_SNAP_N]
G_SNAP_N = 62
G_O_SCRIPT = 63  # choices taken since the snapshot (replayed on restore)
G_SCRIPT_CAP = 64
G_SCRIPT_N = 65
G_SCRIPT_POS = 66
G_REKEY_AT = 67  # decision index within the step where the streams are re-keyed (-1 none)
G_REKEY_KEY = 68  # the continuation key (uint64 bits)
G_PENDING_D = 69  # the decision the game waits for (D_*), -1 none
G_PENDING_SEAT = 70
G_PENDING_M = 71  # candidates in cands_of(st)[:m]
G_SUSPENDED = 72  # 1 while stopped at a decision (step mode)
N_G = 73
CONTROL_FIELDS = (G_MODE, G_O_SNAP, G_SNAP_N, G_O_SCRIPT, G_SCRIPT_CAP, G_SCRIPT_N, G_SCRIPT_POS,
                  G_REKEY_AT, G_REKEY_KEY, G_PENDING_D, G_PENDING_SEAT, G_PENDING_M, G_SUSPENDED)
N_CONTROL = len(CONTROL_FIELDS)
SCRIPT_CAP = 4096  # choices within one step (a turn plays at most 17 actions)

# steps of a game (G_PC); each starts at a safe point where step mode snapshots the state
PC_ROUND_BEGIN = 0  # the next round begins: per-round abilities reset
PC_SEARCH_BEGIN = 1  # the search timer is drawn
PC_SEARCH_TURN = 2  # the i-th search action (turn of seat (first + i) % n)
PC_HORDE = 3  # the caught player: Die of Fate and the wave
PC_EXCHANGE = 4  # a combat exchange begins (final fight: its exchange count and event)
PC_COMBAT_TURN = 5  # the i-th character's combat turn (seat (caught + i) % n)
PC_TRAPS = 6
PC_ENEMIES = 7  # the i-th of the 2n area attacks (order: area_attack_order_nb)
PC_SAVE = 8  # end of exchange: survivors saved, next round or next exchange
PC_FINAL_END = 9  # the final fight is over: stalemate, win or no survivor
PC_OVER = 10
PC_NAMES = ["round begin", "search begin", "search turn", "horde", "exchange", "combat turn",
            "traps", "enemies", "save", "final end", "over"]

MODE_INLINE = 0  # the policy is called inside the engine; no snapshots (batch play)
MODE_STEP = 1  # snapshots at every step; stop at each decision with 2+ candidates

VIOL_NONE = 0
VIOL_RUBBLE_CONSERVATION = 1
VIOL_HORDE_CONSERVATION = 2
VIOL_TOKEN_LIMIT = 3
VIOL_TOKEN_SUPPLY = 4
VIOL_INVENTORY = 5
VIOL_HEALTH = 6
VIOL_AREA = 7
VIOL_NEGATIVE = 8
VIOL_NAMES = {VIOL_NONE: "none", VIOL_RUBBLE_CONSERVATION: "rubble cards not conserved",
              VIOL_HORDE_CONSERVATION: "horde cards not conserved",
              VIOL_TOKEN_LIMIT: "a player holds more tokens than the limit",
              VIOL_TOKEN_SUPPLY: "tokens in play and in the supply do not add up",
              VIOL_INVENTORY: "an inventory over its slots",
              VIOL_HEALTH: "health outside [0, max] (or 0 while the game goes on)",
              VIOL_AREA: "an area over its capacity",
              VIOL_NEGATIVE: "a negative count (deck, discard pile, inventory, kept cards, area)"}

# the packed ruleset as one int64 array: params first (so R[P_*] is a param), then a
# header of offsets and sizes, then the tables row by row
RH_O_CARD = N_PARAMS_FULL + 0
RH_O_ENEMY = N_PARAMS_FULL + 1
RH_O_CHAR = N_PARAMS_FULL + 2
RH_O_DIE = N_PARAMS_FULL + 3
RH_O_FATE = N_PARAMS_FULL + 4
RH_O_RECIPES = N_PARAMS_FULL + 5
RH_N_CARDS = N_PARAMS_FULL + 6
RH_N_ENEMIES = N_PARAMS_FULL + 7
RH_N_CHARS = N_PARAMS_FULL + 8
RH_DIE_SIZE = N_PARAMS_FULL + 9
RH_FATE_SIZE = N_PARAMS_FULL + 10
RH_N_RECIPES = N_PARAMS_FULL + 11
RH_O_OUTCOMES = N_PARAMS_FULL + 12  # P(h heads, b bodies | d dice) * OUTCOME_SCALE, (cap+1)^3
N_RH = N_PARAMS_FULL + 13
OUTCOME_SCALE = 2 ** 52  # probabilities stored as integers (exact to ~2e-16)

PHASE_SETUP = 0
PHASE_SEARCH = 1
PHASE_COMBAT = 2
PHASE_ENEMIES = 3
PHASE_FINAL = 4

OUT_LOSS = 0
OUT_WIN = 1
CAUSE_NONE = 0
CAUSE_CHARACTER_DIED = 1
CAUSE_NO_SURVIVOR = 2
CAUSE_STALEMATE = 3
CAUSE_NAMES = {CAUSE_NONE: "none", CAUSE_CHARACTER_DIED: "character_died",
               CAUSE_NO_SURVIVOR: "no_survivor_saved", CAUSE_STALEMATE: "stalemate"}

# pl : (MAX_PLAYERS, N_PL) per seat
PL_CHAR = 0
PL_HEALTH = 1
PL_MAX_HEALTH = 2
PL_XP_BONUS = 3  # permanent XP (pickpocket, non-kept kills)
PL_TRAPS = 4
PL_BARRICADES = 5
PL_AREA_N = 6  # horde cards in this seat's area (area[seat, :n])
PL_IGNORED = 7  # damage ignored this round (ignore_damage)
PL_ABSORBED = 8  # damage absorbed for neighbours this round (absorb_adjacent)
PL_DAMAGE_TAKEN = 9  # health lost over the game
PL_KILLS = 10  # enemies eliminated by this seat
PL_SAVED_TOTAL = 11  # survivors ever saved by this seat
PL_FREE_TRADES = 12  # free give/take used this turn
PL_COLLATERAL = 13  # collateral damage dealt to others
PL_SACRIFICED = 14
PL_MAX_XP = 15
N_PL = 16

# kept : (MAX_PLAYERS, n_enemy_types) horde cards kept by each seat (killed Monsters, saved survivors)

# =========================================================================== decisions
D_SEARCH_ACTION = 0
D_COMBAT_ACTION = 1
D_AMMO = 2  # candidates: (A_AMMO, n_cards)
D_PRE_ROLL = 3  # candidates: A_NOTHING or (A_PLAY, card)
D_POST_ROLL = 4  # candidates: A_NOTHING or (A_PLAY, card)
D_DISCARD = 5  # candidates: (A_DISCARD, card)
D_KEEP = 6  # candidates: (A_KEEP, card)
D_SACRIFICE = 7  # candidates: A_NOTHING, (A_SACRIFICE,)
D_PICKPOCKET = 8  # candidates: (A_TAKE, card, from_seat)
D_EXTRA_ATTACK = 9  # adrenaline: A_NOTHING or (A_ATTACK, area, weapon)
D_AMOUNT = 10  # how many cards of a stack a give/take moves: (A_COUNT, n_cards)
N_DECISIONS = 11
DECISION_NAMES = ["search_action", "combat_action", "ammo", "pre_roll", "post_roll",
                  "discard", "keep", "sacrifice", "pickpocket", "extra_attack", "amount"]

A_NOTHING = 0
A_DRAW = 1
A_CRAFT = 2  # a = recipe
A_GIVE = 3  # a = card, b = to seat
A_TAKE = 4  # a = card, b = from seat
A_USE = 5  # a = card (heal, pickpocket)
A_ATTACK = 6  # a = target seat's area, b = weapon card
A_AMMO = 7  # a = ammo cards
A_PLAY = 8  # a = card
A_DISCARD = 9  # a = card
A_KEEP = 10  # a = card
A_SACRIFICE = 11
A_COUNT = 12  # a = cards of the stack
ACTION_NAMES = ["nothing", "draw", "craft", "give", "take", "use", "attack", "ammo",
                "play", "discard", "keep", "sacrifice", "count"]
MAX_CANDS = 512
N_CAND_COLS = 4  # action, a, b, c

# =========================================================================== trace events
# ev : (cap, N_EV_COLS) rows (kind, round, seat, a, b, c, d, e); cap 0 disables tracing
N_EV_COLS = 8
EV_ROUND = 0  # a = first seat, b = search actions K
EV_DRAW = 1  # a = card
EV_EVENT = 2  # a = card (red event resolved)
EV_CRAFT = 3  # a = token kind
EV_GIVE = 4  # a = card, b = to seat, c = cards
EV_TAKE = 5  # a = card, b = from seat, c = cards
EV_USE = 6  # a = card, b = effect amount
EV_NOTHING = 7
EV_CAUGHT = 8
EV_FATE = 9  # a = fate face, b = wave size
EV_HORDE = 10  # a = enemy type, b = area seat
EV_ATTACK = 11  # a = target area, b = weapon, c = dice, d = ammo spent
EV_ROLL = 12  # a = heads, b = bodies, c = misses, d = faces in base 3 (first die lowest)
EV_CARD_PLAYED = 13  # a = card
EV_KILL = 14  # a = enemy type, b = area, c = by trap (1)
EV_COLLATERAL = 15  # a = victim seat, b = damage
EV_TAME = 16  # a = from area, b = infected moved
EV_TRAP = 17  # a = traps fired, b = kills
EV_ENEMY_ROLL = 18  # a = kind (ENEMY_*), b = heads, c = bodies, d = misses, e = area
EV_SURVIVOR_KILLED = 19  # a = area
EV_BARRICADE_DOWN = 20
EV_PROTECTION = 21  # a = card
EV_DAMAGE = 22  # a = amount, b = health after
EV_IGNORED = 23  # a = absorbing seat (-1 own ability)
EV_SAVED = 24  # a = survivors saved
EV_LEADER = 25  # a = new leader seat, b = xp
EV_DISCARD = 26  # a = card
EV_DEATH = 27
EV_END = 28  # a = outcome, b = cause
EV_HEAL = 29  # a = amount, b = health after
EV_SACRIFICE = 30
EV_EXCHANGE = 31  # a = final-fight exchange number
EV_RESHUFFLE = 32  # a = 0 horde, 1 rubble
EV_NO_CARD = 33  # a rubble draw found both piles empty
EV_VIOLATION = 34  # a = VIOL_* (invariant checks on)
# how many of a kind's fields (a, b, c, d, e) a row fills; the fields after them are 0
# (the differential test checks it). Beyond the notes above: a draw's b = what it was drawn
# for (0 search, 1 kill reward, 2 fate), an event's b = its amount, a take's d = 1 for a
# pickpocket, a damage's c = 1 from a raider, a played card's b, c, d = its roll's heads,
# bodies and misses, a discard's b = 1 over the hand limit, a reshuffle's b = the cards
EV_WIDTH = {EV_ROUND: 2, EV_DRAW: 2, EV_EVENT: 2, EV_CRAFT: 1, EV_GIVE: 3, EV_TAKE: 4, EV_USE: 2,
            EV_NOTHING: 0, EV_CAUGHT: 0, EV_FATE: 2, EV_HORDE: 2, EV_ATTACK: 4, EV_ROLL: 4,
            EV_CARD_PLAYED: 4, EV_KILL: 3, EV_COLLATERAL: 2, EV_TAME: 2, EV_TRAP: 2,
            EV_ENEMY_ROLL: 5, EV_SURVIVOR_KILLED: 1, EV_BARRICADE_DOWN: 0, EV_PROTECTION: 1,
            EV_DAMAGE: 3, EV_IGNORED: 1, EV_SAVED: 1, EV_LEADER: 2, EV_DISCARD: 2, EV_DEATH: 0,
            EV_END: 2, EV_HEAL: 2, EV_SACRIFICE: 1, EV_EXCHANGE: 1, EV_RESHUFFLE: 2,
            EV_NO_CARD: 0, EV_VIOLATION: 1}

# =========================================================================== records
MAX_ENEMY_TYPES = 8  # record capacity for per-type kill counts
REC_SCALARS = [
    "game", "players", "outcome", "cause", "round_reached", "dead_seat", "dead_character",
    "dead_round", "survivors_saved", "survivors_saved_total", "leader", "rubble_drawn",
    "horde_drawn", "exchanges", "search_actions", "attacks", "horde_reshuffles", "violation",
]
REC_PER_SEAT = ["character", "damage", "xp", "kills", "health"]
REC_FIELDS = (REC_SCALARS
              + [f"{f}_{s}" for f in REC_PER_SEAT for s in range(MAX_PLAYERS)]
              + [f"killed_{t}" for t in range(MAX_ENEMY_TYPES)]
              + ["decisions"])
REC_INDEX = {name: i for i, name in enumerate(REC_FIELDS)}
N_REC = len(REC_FIELDS)


def record_dtype():
    """Structured dtype of one game record: every field int64 (so a record array views as (n, N_REC))."""
    import numpy as np

    return np.dtype([(name, np.int64) for name in REC_FIELDS])

# record column of each scalar field, and the first column of each per-seat / per-type
# block (REC_CHARACTER + seat, REC_KILLED + enemy type): named here for linters and
# readers; tests/test_game.py checks each against REC_FIELDS
REC_GAME = REC_INDEX["game"]
REC_PLAYERS = REC_INDEX["players"]
REC_OUTCOME = REC_INDEX["outcome"]
REC_CAUSE = REC_INDEX["cause"]
REC_ROUND_REACHED = REC_INDEX["round_reached"]
REC_DEAD_SEAT = REC_INDEX["dead_seat"]
REC_DEAD_CHARACTER = REC_INDEX["dead_character"]
REC_DEAD_ROUND = REC_INDEX["dead_round"]
REC_SURVIVORS_SAVED = REC_INDEX["survivors_saved"]
REC_SURVIVORS_SAVED_TOTAL = REC_INDEX["survivors_saved_total"]
REC_LEADER = REC_INDEX["leader"]
REC_RUBBLE_DRAWN = REC_INDEX["rubble_drawn"]
REC_HORDE_DRAWN = REC_INDEX["horde_drawn"]
REC_EXCHANGES = REC_INDEX["exchanges"]
REC_SEARCH_ACTIONS = REC_INDEX["search_actions"]
REC_ATTACKS = REC_INDEX["attacks"]
REC_HORDE_RESHUFFLES = REC_INDEX["horde_reshuffles"]
REC_VIOLATION = REC_INDEX["violation"]
REC_CHARACTER = REC_INDEX["character_0"]
REC_DAMAGE = REC_INDEX["damage_0"]
REC_XP = REC_INDEX["xp_0"]
REC_KILLS = REC_INDEX["kills_0"]
REC_HEALTH = REC_INDEX["health_0"]
REC_KILLED = REC_INDEX["killed_0"]
REC_DECISIONS = REC_INDEX["decisions"]


# =========================================================================== state layout
# The parts of a game's state array after its N_G head scalars, in order: the ONE table
# that ``kernels/game_nb.init_state_nb`` lays a state out from, that the Python views of
# ``state.GameState`` read, and that ``tests/test_state_layout.py`` checks every kernel
# accessor of ``kernels/state_nb.py`` (``pl_of`` ...) against.  A dimension is a head slot
# ``G_*`` holding the size (set by ``init_state_nb`` from the ruleset) or a constant
# ``const(k)``.  Roles: the *position* (zeroed at setup, copied by a step's snapshot and
# by a clone: everything up to the first other part), the *trace* (zeroed), *scratch*
# (always written before it is read: not zeroed).
N_BUF_ROWS = 5  # scratch rows of buf_of(st): target line, killed, faces, misc, the policy's


def const(k: int) -> int:
    """A constant dimension ``k`` in ``STATE_PARTS`` (head slots are >= 0)."""
    return -int(k)


ROLE_POSITION = 0
ROLE_TRACE = 1
ROLE_SCRATCH = 2


def _state_parts():
    one = const(1)
    return (  # name, offset slot, rows, columns, role
        ("pl", G_O_PL, const(MAX_PLAYERS), const(N_PL), ROLE_POSITION),
        ("inv", G_O_INV, const(MAX_PLAYERS), G_N_CARDS, ROLE_POSITION),
        ("area", G_O_AREA, const(MAX_PLAYERS), G_AREA_CAP, ROLE_POSITION),
        ("kept", G_O_KEPT, const(MAX_PLAYERS), G_N_ENEMIES, ROLE_POSITION),
        ("hdeck", G_O_HDECK, one, G_AREA_CAP, ROLE_POSITION),
        ("hdisc", G_O_HDISC, one, G_N_ENEMIES, ROLE_POSITION),
        ("rdeck", G_O_RDECK, one, G_RDECK_CAP, ROLE_POSITION),
        ("rdisc", G_O_RDISC, one, G_N_CARDS, ROLE_POSITION),
        ("rng", G_O_RNG, one, const(N_STREAMS), ROLE_POSITION),
        ("killed", G_O_KILLED, one, G_N_ENEMIES, ROLE_POSITION),
        ("ev", G_O_EV, G_EV_CAP, const(N_EV_COLS), ROLE_TRACE),
        ("cands", G_O_CANDS, const(MAX_CANDS), const(N_CAND_COLS), ROLE_SCRATCH),
        ("buf", G_O_BUF, const(N_BUF_ROWS), G_BUF_CAP, ROLE_SCRATCH),
        ("snap", G_O_SNAP, one, G_SNAP_N, ROLE_SCRATCH),
        ("script", G_O_SCRIPT, one, G_SCRIPT_CAP, ROLE_SCRATCH),
    )


STATE_PARTS = _state_parts()
STATE_PART = {p[0]: p for p in STATE_PARTS}
N_PARTS = len(STATE_PARTS)


def _part_column(i: int):
    import numpy as np

    a = np.array([p[i] for p in STATE_PARTS], dtype=np.int64)
    a.setflags(write=False)
    return a


PART_SLOT = _part_column(1)  # the same table as arrays, for the kernels
PART_ROWS = _part_column(2)
PART_COLS = _part_column(3)
PART_ROLE = _part_column(4)


def part_dim(st, d: int) -> int:
    """The value of dimension ``d`` (a head slot or ``const(k)``) in state ``st``."""
    return -d if d < 0 else int(st[d])
