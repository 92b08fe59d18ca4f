"""Mort de la lumière du jour: integer codes and array layouts (one source of truth).

Layouts are declared once as ``(name, size)`` parts; offsets are derived and unpacked into
named constants that the kernels import (numba freezes them).

Arrays
------
rules : int64, shape (R_SIZE,)
    The packed ruleset (``ruleset.MortRules.flat()``): parameters ``P_*``, the location
    tokens, the gate sites, the dice, the three decks.
state : int64, shape (S_SIZE,)
    One game in progress (scalars, per-seat parts, pieces, decks, the random streams bit
    for bit): a clone is ``state.copy()``.
record : int64, shape (REC_SIZE,)
    One finished game (``RECORD``); ``record_names()`` names the columns.
log : int64, shape (n, LOG_W)
    Optional trace buffer; row 0 holds the number of rows written.

Seats: seat 0 is the killer, seats 1 .. survivors are the survivors (at most
``MAX_SURV``).
"""
from __future__ import annotations

from ...core.layout import layout, part_names


# ------------------------------------------------------------------ capacities (layout bounds)
MAX_SURV = 4          # survivors a state holds (4 survivor boards in the box)
MAX_SEATS = MAX_SURV + 1
MAX_V = 6             # largest energy card value
MAX_K = 8             # kinds of cards in the killer or the survivor deck
MAX_TOKENS = 32       # location tokens
MAX_GENS = 8          # generators on the board
MAX_CHESTS = 8
MAX_PALLETS = 16
MAX_FACES = 12        # faces of a die
MAX_LINES = 8         # token lines (coordinates of the token grid)
N_SIDES = 4           # gate sites: the middle of each side (north, east, south, west)
N_GATES = 2
N_SHORTCUTS = 2

# ------------------------------------------------------------------ vocabularies
SIDES = ("north", "east", "south", "west")
SURVIVOR_EFFECTS = ("reflex", "repair", "heal", "map", "key")
FX_REFLEX, FX_REPAIR, FX_HEAL, FX_MAP, FX_KEY = range(5)
KILLER_EFFECTS = ("break_pallet", "sprint", "block")
FX_BREAK, FX_SPRINT, FX_BLOCK = range(3)
GATE_PAIRS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))  # two different sides


# ------------------------------------------------------------------ packed rules
PARAMS = ("board_w", "board_h", "lair_x", "lair_y", "n_tokens", "pallet_dx", "pallet_dy",
          "reach", "help_range", "survivors", "setup_rounds",
          "killer_generators", "killer_shortcuts", "survivor_generators", "survivor_chests",
          "pallets_per_survivor", "lamps", "generators_needed", "gate_successes",
          "move_cost", "survivor_card_cost", "killer_card_cost", "repair_cost", "chest_cost",
          "gate_cost", "drop_cost", "vault_cost", "strike_cost", "break_cost", "detour_cost",
          "shortcut_cost", "escape_gate_cost", "failed_repair_gain",
          "hit_exhaustion", "killer_energy_hand", "killer_card_hand", "survivor_energy_hand",
          "survivor_start_cards", "survivor_card_limit", "survivor_draw",
          "survivor_energy_limit", "hits_to_kill", "timeout", "killer_win_kills",
          "white_faces", "black_faces", "n_killer_kinds", "n_survivor_kinds",
          "pooled_energy", "one_strike_per_target", "any_card_repairs")
(P_BOARD_W, P_BOARD_H, P_LAIR_X, P_LAIR_Y, P_N_TOKENS, P_PALLET_DX, P_PALLET_DY, P_REACH,
 P_HELP_RANGE, P_SURVIVORS, P_SETUP_ROUNDS, P_KILLER_GENERATORS, P_KILLER_SHORTCUTS,
 P_SURVIVOR_GENERATORS, P_SURVIVOR_CHESTS, P_PALLETS_PER_SURVIVOR, P_LAMPS,
 P_GENERATORS_NEEDED, P_GATE_SUCCESSES, P_MOVE_COST, P_SURVIVOR_CARD_COST,
 P_KILLER_CARD_COST, P_REPAIR_COST, P_CHEST_COST, P_GATE_COST, P_DROP_COST, P_VAULT_COST,
 P_STRIKE_COST, P_BREAK_COST, P_DETOUR_COST, P_SHORTCUT_COST, P_ESCAPE_GATE_COST,
 P_FAILED_REPAIR_GAIN, P_HIT_EXHAUSTION, P_KILLER_ENERGY_HAND,
 P_KILLER_CARD_HAND, P_SURVIVOR_ENERGY_HAND, P_SURVIVOR_START_CARDS, P_SURVIVOR_CARD_LIMIT,
 P_SURVIVOR_DRAW, P_SURVIVOR_ENERGY_LIMIT, P_HITS_TO_KILL, P_TIMEOUT, P_KILLER_WIN_KILLS,
 P_WHITE_FACES, P_BLACK_FACES, P_N_KILLER_KINDS, P_N_SURVIVOR_KINDS, P_POOLED,
 P_ONE_STRIKE, P_ANY_CARD_REPAIRS) = range(len(PARAMS))
RULES = (("params", len(PARAMS)), ("token_x", MAX_TOKENS), ("token_y", MAX_TOKENS),
         ("gate_x", N_SIDES), ("gate_y", N_SIDES), ("white", MAX_FACES), ("black", MAX_FACES),
         ("energy", MAX_V + 1),
         ("kk_effect", MAX_K), ("kk_amount", MAX_K), ("kk_count", MAX_K),
         ("sk_effect", MAX_K), ("sk_amount", MAX_K), ("sk_count", MAX_K))
_r, R_SIZE = layout(RULES, "R_")
(R_PARAMS, R_TOKEN_X, R_TOKEN_Y, R_GATE_X, R_GATE_Y, R_WHITE, R_BLACK, R_ENERGY,
 R_KK_EFFECT, R_KK_AMOUNT, R_KK_COUNT, R_SK_EFFECT, R_SK_AMOUNT, R_SK_COUNT) = _r.values()

# ------------------------------------------------------------------ game state
SCALARS = ("round", "phase", "decider", "current", "over", "end_cause", "purpose", "budget",
           "pool", "adj_now", "adj_next", "sprint", "blocked", "target", "scan", "token",
           "setup_round", "steps", "key", "repaired", "hatch_token", "hatch", "kills",
           "escapes", "hatch_escapes", "first_hit", "killer_gain", "pallet_spend", "hits",
           "strikes", "rolls", "cards_played", "n_gens", "n_chests", "n_shortcuts",
           "n_pallets", "pallet_seat", "pallet_left", "sprinting")
SEAT_PARTS = ("x", "y", "status", "wounds", "gens_left", "chests_left", "shortcuts_left", "pawn_left",
              "struck", "end_round", "via")
STATE = tuple((s, 1) for s in SCALARS) + tuple((f"s_{p}", MAX_SEATS) for p in SEAT_PARTS) + (
    ("hand", MAX_SEATS * (MAX_V + 1)),        # energy cards in hand, counts by value
    ("cards", MAX_SEATS * MAX_K),             # killer / survivor cards in hand, counts by kind
    ("energy_deck", MAX_V + 1), ("energy_discard", MAX_V + 1),
    ("kdeck", MAX_K), ("kdiscard", MAX_K), ("sdeck", MAX_K), ("sdiscard", MAX_K),
    ("gen_token", MAX_GENS), ("gen_lamps", MAX_GENS), ("gen_round", MAX_GENS),
    ("chest_token", MAX_CHESTS), ("shortcut_token", N_SHORTCUTS),
    ("gate_side", N_GATES), ("gate_progress", N_GATES),
    ("pallet_x", MAX_PALLETS), ("pallet_y", MAX_PALLETS), ("pallet_state", MAX_PALLETS),
    ("pallet_detour", MAX_PALLETS), ("token_used", MAX_TOKENS), ("scratch", 160),
    ("streams", 4))
_s, S_SIZE = layout(STATE, "S_")
(S_ROUND, S_PHASE, S_DECIDER, S_CURRENT, S_OVER, S_END_CAUSE, S_PURPOSE, S_BUDGET, S_POOL,
 S_ADJ_NOW, S_ADJ_NEXT, S_SPRINT, S_BLOCKED, S_TARGET, S_SCAN, S_TOKEN, S_SETUP_ROUND,
 S_STEPS, S_KEY, S_REPAIRED, S_HATCH_TOKEN, S_HATCH, S_KILLS, S_ESCAPES, S_HATCH_ESCAPES,
 S_FIRST_HIT, S_KILLER_GAIN, S_PALLET_SPEND, S_HITS, S_STRIKES, S_ROLLS, S_CARDS_PLAYED,
 S_N_GENS, S_N_CHESTS, S_N_SHORTCUTS, S_N_PALLETS, S_PALLET_SEAT, S_PALLET_LEFT, S_SPRINTING,
 S_S_X, S_S_Y, S_S_STATUS, S_S_WOUNDS, S_S_GENS_LEFT, S_S_CHESTS_LEFT, S_S_SHORTCUTS_LEFT,
 S_S_PAWN_LEFT, S_S_STRUCK, S_S_END_ROUND, S_S_VIA,
 S_HAND, S_CARDS, S_ENERGY_DECK, S_ENERGY_DISCARD, S_KDECK, S_KDISCARD, S_SDECK,
 S_SDISCARD, S_GEN_TOKEN, S_GEN_LAMPS, S_GEN_ROUND, S_CHEST_TOKEN, S_SHORTCUT_TOKEN,
 S_GATE_SIDE, S_GATE_PROGRESS, S_PALLET_X, S_PALLET_Y, S_PALLET_STATE, S_PALLET_DETOUR,
 S_TOKEN_USED, S_SCRATCH, S_STREAMS) = _s.values()
HAND_W = MAX_V + 1

# a seat's status (an injured survivor is in play with wounds > 0)
ST_IN, ST_KILLED, ST_ESCAPED = 0, 1, 2
STATUS_NAMES = ("in_play", "killed", "escaped")
# hatch
HATCH_HIDDEN, HATCH_SHUT, HATCH_OPEN = 0, 1, 2
# pallets
PAL_STANDING, PAL_DROPPED, PAL_BROKEN = 0, 1, 2

# random streams (indices into the state's stream part): one per purpose
STREAM_TOKENS = 0    # location tokens (setup, chests, hatch)
STREAM_DECKS = 1     # energy, killer and survivor decks
STREAM_DICE = 2      # white and black dice
STREAM_POLICY = 3    # players' own randomness
N_STREAMS = 4

# phases: decisions, then internal steps of the advance loop
(PH_PLACE, PH_GATES, PH_PALLET, PH_TURN, PH_COMMIT, PH_REFLEX, PH_HELP, PH_DISCARD) = range(8)
N_DECISION_PHASES = 8
PH_START_TURN, PH_NEXT, PH_OVER = 8, 9, 10
PHASE_NAMES = ("place", "gates", "pallet", "turn", "commit", "reflex", "help", "discard",
               "start_turn", "next", "over")

# purposes an energy card pays for (one card, one purpose)
PURPOSES = ("move", "cards", "repair", "chest", "gate", "pallet", "escape", "strike",
            "break", "detour", "rest")
(Q_MOVE, Q_CARDS, Q_REPAIR, Q_CHEST, Q_GATE, Q_PALLET, Q_ESCAPE, Q_STRIKE, Q_BREAK,
 Q_DETOUR, Q_REST) = range(len(PURPOSES))
NQ = len(PURPOSES)

# ------------------------------------------------------------------ actions
# simple actions, then blocks of targeted ones (base + target)
SIMPLE = ("end_turn", "stop", "hatch", "sprint_move", "pass", "reflex", "help",
          "north", "east", "south", "west", "shortcut", "place_generator", "place_shortcut",
          "place_chest", "place_pawn", "play_map", "play_key", "play_sprint")
(A_END_TURN, A_STOP, A_HATCH, A_SPRINT_MOVE, A_PASS, A_REFLEX, A_HELP, A_NORTH, A_EAST,
 A_SOUTH, A_WEST, A_SHORTCUT, A_PLACE_GEN, A_PLACE_SHORTCUT, A_PLACE_CHEST, A_PLACE_PAWN,
 A_PLAY_MAP, A_PLAY_KEY, A_PLAY_SPRINT) = range(len(SIMPLE))
BLOCKS = (("pool", NQ), ("commit", NQ * MAX_V), ("repair", MAX_GENS), ("toolbox", MAX_GENS),
          ("block", MAX_GENS), ("chest", MAX_CHESTS), ("gate", N_GATES), ("escape", N_GATES),
          ("drop", MAX_PALLETS), ("break", MAX_PALLETS), ("casse", MAX_PALLETS),
          ("detour", MAX_PALLETS), ("strike", MAX_SEATS), ("medkit", MAX_SEATS),
          ("discard", MAX_K), ("gates", len(GATE_PAIRS)), ("pallet_at", MAX_TOKENS))
_a, _n_blocks = layout(BLOCKS, "A_")
_base = len(SIMPLE)
(A_POOL, A_COMMIT, A_REPAIR, A_TOOLBOX, A_BLOCK, A_CHEST, A_GATE, A_ESCAPE, A_DROP, A_BREAK,
 A_CASSE, A_DETOUR, A_STRIKE, A_MEDKIT, A_DISCARD, A_GATES, A_PALLET_AT) = \
    (_base + v for v in _a.values())
N_ACTIONS = _base + _n_blocks
MAX_LEGAL = 160       # room for the legal actions at one decision (the state's scratch part)

# end causes
END_KILLED, END_ESCAPED, END_MIXED, END_TIMEOUT, END_STEP_CAP = range(5)
END_NAMES = ("all_killed", "all_escaped", "killed_and_escaped", "timeout", "step_cap")
STEP_CAP = 20_000

# ------------------------------------------------------------------ records
RECORD = (("game", 1), ("rounds", 1), ("end_cause", 1), ("killer_win", 1), ("kills", 1),
          ("escapes", 1), ("hatch_escapes", 1), ("repaired", 1), ("gates_open", 1),
          ("first_hit", 1), ("hits", 1), ("strikes", 1), ("killer_gain", 1),
          ("pallet_spend", 1), ("pallets_dropped", 1), ("cards_played", 1), ("decisions", 1),
          ("rolls", 1), ("outcome", MAX_SURV), ("end_round", MAX_SURV),
          ("gen_round", MAX_GENS))
_rec, REC_SIZE = layout(RECORD, "REC_")
(REC_GAME, REC_ROUNDS, REC_END_CAUSE, REC_KILLER_WIN, REC_KILLS, REC_ESCAPES,
 REC_HATCH_ESCAPES, REC_REPAIRED, REC_GATES_OPEN, REC_FIRST_HIT, REC_HITS, REC_STRIKES,
 REC_KILLER_GAIN, REC_PALLET_SPEND, REC_PALLETS_DROPPED, REC_CARDS_PLAYED, REC_DECISIONS,
 REC_ROLLS, REC_OUTCOME, REC_END_ROUND, REC_GEN_ROUND) = _rec.values()
# a survivor's outcome
OUT_ALIVE, OUT_KILLED, OUT_GATE, OUT_HATCH = 0, 1, 2, 3
OUTCOME_NAMES = ("alive", "killed", "gate", "hatch")


def record_names() -> list[str]:
    return part_names(RECORD)


# ------------------------------------------------------------------ trace log
LOG_W = 7  # kind, round, seat, a, b, c, d
(LG_PLACE, LG_GATES, LG_PALLET, LG_TURN, LG_COMMIT, LG_MOVE, LG_ROLL, LG_LAMP, LG_REPAIRED,
 LG_CHEST, LG_CARD, LG_STRIKE, LG_REFLEX, LG_HELP, LG_HIT, LG_KILL, LG_ESCAPE, LG_HATCH,
 LG_GATE_OPEN, LG_DROP, LG_BREAK, LG_DETOUR, LG_DRAW, LG_END, LG_GAIN, LG_DISCARD,
 LG_POWERED) = range(27)


def action_name(a: int) -> str:
    """An action code in words (``commit:repair:2``, ``strike:3``, ``north``)."""
    a = int(a)
    if 0 <= a < len(SIMPLE):
        return SIMPLE[a]
    for (name, size), base in zip(BLOCKS, (A_POOL, A_COMMIT, A_REPAIR, A_TOOLBOX, A_BLOCK,
                                           A_CHEST, A_GATE, A_ESCAPE, A_DROP, A_BREAK, A_CASSE,
                                           A_DETOUR, A_STRIKE, A_MEDKIT, A_DISCARD, A_GATES,
                                           A_PALLET_AT)):
        if base <= a < base + size:
            i = a - base
            if name == "commit":
                return f"commit:{PURPOSES[i // MAX_V]}:{i % MAX_V + 1}"
            if name == "pool":
                return f"pool:{PURPOSES[i]}"
            if name == "gates":
                p = GATE_PAIRS[i]
                return f"gates:{SIDES[p[0]]}+{SIDES[p[1]]}"
            return f"{name}:{i}"
    raise ValueError(f"unknown action code {a}")
