"""Till Dawn: integer codes and array layouts (one source of truth for every offset).

Layouts are declared once as ``(name, size)`` parts; offsets, sizes and the record
decoder are derived from them.  Kernels import the offsets as module constants (numba
freezes them at compile time).

Arrays
------
rules : int64, shape (R_SIZE,)
    The packed ruleset (``ruleset.TillDawnRules.flat()``): parameters ``P_*``, the hunt
    card-type table (``MAX_TYPES`` rows of ``CT_N`` columns), the physical hunt deck
    (card type of each card), characters, event cards and power cards.
state : int64, shape (S_SIZE,)
    Everything of one game in progress (scalars, per-seat values, the piles, the four
    random streams stored bit for bit): a clone is ``state.copy()``.
record : int64, shape (REC_SIZE,)
    One finished game (see ``RECORD``); ``record_names()`` names the columns.
log : int64, shape (n, LOG_W)
    Optional trace buffer; row 0 holds the number of rows written (capped at n - 1).
"""
from __future__ import annotations

from ...core.layout import layout, part_names


# ------------------------------------------------------------------ capacities (layout bounds)
MAX_SEATS = 8        # seats a state holds (8 character cards in the box)
MAX_TYPES = 64       # distinct hunt card types (group x moon x event icon)
MAX_HUNT = 128       # physical hunt cards
MAX_CHARS = 16       # characters in a ruleset
MAX_EVENTS = 32      # event cards
MAX_POWERS = 32      # power cards
MAX_INVITES = 4      # distinct invitation (payoff, payoff_hunting, penalty) combinations

# ------------------------------------------------------------------ vocabularies
MOONS = ("blood", "blue", "hunting")
MOON_BLOOD, MOON_BLUE, MOON_HUNTING = 0, 1, 2
KINDS = ("feeding", "invitation", "night_lingers", "sun_rising", "vampire_slayer", "werewolf")
K_FEEDING, K_INVITATION, K_LINGERS, K_SUN, K_SLAYER, K_WEREWOLF = range(6)
POWER_KINDS = ("double_feeding", "cancel", "copy", "protection")
PW_DOUBLE, PW_CANCEL, PW_COPY, PW_PROTECT = range(4)
EVENT_KINDS = ("double_feeding", "protection", "heal")
EV_DOUBLE, EV_PROTECT, EV_HEAL = range(3)


# ------------------------------------------------------------------ packed rules
PARAMS = ("nights", "track", "min_players", "max_players", "fav_bonus", "refuse_cost",
          "points_per_blood", "blood_supply", "coffin_supply", "unlimited", "reshuffle",
          "n_types", "n_hunt", "n_chars", "n_events", "n_powers", "n_grounds")
CT_COLS = ("kind", "value", "ground", "moon", "icon", "count", "payoff", "payoff_hunting",
           "penalty", "returns", "group")
CT_N = len(CT_COLS)
RULES = (("params", len(PARAMS)), ("types", MAX_TYPES * CT_N), ("deck", MAX_HUNT),
         ("char_health", MAX_CHARS), ("char_ground", MAX_CHARS),
         ("event_kind", MAX_EVENTS), ("event_amount", MAX_EVENTS), ("power_kind", MAX_POWERS))
_r, R_SIZE = layout(RULES, "R_")
R_PARAMS, R_TYPES, R_DECK = _r["R_PARAMS"], _r["R_TYPES"], _r["R_DECK"]
R_CHAR_HEALTH, R_CHAR_GROUND = _r["R_CHAR_HEALTH"], _r["R_CHAR_GROUND"]
R_EVENT_KIND, R_EVENT_AMOUNT, R_POWER_KIND = _r["R_EVENT_KIND"], _r["R_EVENT_AMOUNT"], _r["R_POWER_KIND"]
(P_NIGHTS, P_TRACK, P_MIN_PLAYERS, P_MAX_PLAYERS, P_FAV_BONUS, P_REFUSE_COST,
 P_POINTS_PER_BLOOD, P_BLOOD_SUPPLY, P_COFFIN_SUPPLY, P_UNLIMITED, P_RESHUFFLE,
 P_N_TYPES, P_N_HUNT, P_N_CHARS, P_N_EVENTS, P_N_POWERS, P_N_GROUNDS) = range(len(PARAMS))
(CT_KIND, CT_VALUE, CT_GROUND, CT_MOON, CT_ICON, CT_COUNT, CT_PAYOFF, CT_PAYOFF_HUNTING,
 CT_PENALTY, CT_RETURNS, CT_GROUP) = range(CT_N)

# ------------------------------------------------------------------ game state
SCALARS = ("players", "night", "track", "current", "phase", "decider", "scan", "pending",
           "card", "over", "end_cause", "blood_supply", "coffin_supply", "n_hunt", "n_events",
           "played_mask", "last_seat", "last_what", "cancel_return", "draws", "sunrise",
           "react", "steps", "key", "candidate", "cancel_scan", "last_amount")
SEAT_PARTS = ("character", "health", "max_health", "ground", "blood", "coffin", "active",
              "power", "event", "vote", "doubled", "protected", "deaths", "retires",
              "lost_sunrise", "lost_death")
STATE = tuple((s, 1) for s in SCALARS) + tuple((f"s_{p}", MAX_SEATS) for p in SEAT_PARTS) + (
    ("type_left", MAX_TYPES), ("hunt", MAX_HUNT), ("events", MAX_EVENTS),
    ("powers", MAX_POWERS), ("streams", 4))
_s, S_SIZE = layout(STATE, "S_")
# unpacked in layout order: adding a part without its name here fails at import
(S_PLAYERS, S_NIGHT, S_TRACK, S_CURRENT, S_PHASE, S_DECIDER, S_SCAN, S_PENDING, S_CARD,
 S_OVER, S_END_CAUSE, S_BLOOD_SUPPLY, S_COFFIN_SUPPLY, S_N_HUNT, S_N_EVENTS, S_PLAYED_MASK,
 S_LAST_SEAT, S_LAST_WHAT, S_CANCEL_RETURN, S_DRAWS, S_SUNRISE, S_REACT, S_STEPS, S_KEY,
 S_CANDIDATE, S_CANCEL_SCAN, S_LAST_AMOUNT,
 S_S_CHARACTER, S_S_HEALTH, S_S_MAX_HEALTH, S_S_GROUND, S_S_BLOOD, S_S_COFFIN, S_S_ACTIVE,
 S_S_POWER, S_S_EVENT, S_S_VOTE, S_S_DOUBLED, S_S_PROTECTED, S_S_DEATHS, S_S_RETIRES,
 S_S_LOST_SUNRISE, S_S_LOST_DEATH,
 S_TYPE_LEFT, S_HUNT, S_EVENTS, S_POWERS, S_STREAMS) = _s.values()

# random streams (indices into the state's stream part)
STREAM_HUNT = 0      # the hunt deck (re-keyed every night: common random numbers)
STREAM_DECKS = 1     # event and power decks
STREAM_POLICY = 2    # policies' own randomness
N_STREAMS = 4

# phases: decisions (a player must choose) and internal steps of the advance loop
PH_REACT, PH_CANCEL, PH_VOTE, PH_KEEP, PH_DECIDE = range(5)
N_DECISION_PHASES = 5
(PH_DRAW, PH_REACT_SCAN, PH_CANCEL_SCAN, PH_VOTE_SCAN, PH_AFTER_CARD, PH_END_TURN,
 PH_DECIDE_SCAN, PH_NIGHT_END, PH_OVER) = range(5, 14)
PHASE_NAMES = ("react", "cancel", "vote", "keep", "decide", "draw", "react_scan",
               "cancel_scan", "vote_scan", "after_card", "end_turn", "decide_scan",
               "night_end", "over")

# what a played card did (S_LAST_WHAT), to undo it when cancelled
WHAT_DOUBLE, WHAT_PROTECT, WHAT_HEAL = 1, 2, 3
# end causes
END_NIGHTS, END_BLOOD_SUPPLY, END_COFFIN_SUPPLY, END_STEP_CAP = 0, 1, 2, 3
END_NAMES = ("nights", "blood_supply", "coffin_supply", "step_cap")
STEP_CAP = 100_000   # decisions per game before a game is stopped (never reached in practice)

# actions
ACTIONS = ("stay", "retire", "pass", "play_power", "play_event", "cancel", "vote_blood",
           "vote_blue", "vote_hunting", "refuse", "keep_old", "keep_new", "heal")
(A_STAY, A_RETIRE, A_PASS, A_PLAY_POWER, A_PLAY_EVENT, A_CANCEL, A_VOTE_BLOOD, A_VOTE_BLUE,
 A_VOTE_HUNTING, A_REFUSE, A_KEEP_OLD, A_KEEP_NEW, A_HEAL) = range(len(ACTIONS))
N_ACTIONS = len(ACTIONS)
VOTE_NONE = -1
VOTE_REFUSED = 3

# ------------------------------------------------------------------ records
RECORD = (("game", 1), ("players", 1), ("nights", 1), ("end_cause", 1), ("draws", 1),
          ("winners", 1), ("top_score", 1), ("character", MAX_SEATS), ("score", MAX_SEATS),
          ("win", MAX_SEATS), ("deaths", MAX_SEATS), ("retires", MAX_SEATS),
          ("lost_sunrise", MAX_SEATS), ("lost_death", MAX_SEATS))
_rec, REC_SIZE = layout(RECORD, "REC_")
(REC_GAME, REC_PLAYERS, REC_NIGHTS, REC_END_CAUSE, REC_DRAWS, REC_WINNERS, REC_TOP_SCORE,
 REC_CHARACTER, REC_SCORE, REC_WIN, REC_DEATHS, REC_RETIRES, REC_LOST_SUNRISE,
 REC_LOST_DEATH) = _rec.values()

def record_names() -> list[str]:
    """Column names of a record row: ``game``, ..., ``character_0`` .. ``character_7``, ..."""
    return part_names(RECORD)


# ------------------------------------------------------------------ trace log
LOG_W = 7  # kind, night, seat, a, b, c, d
(LG_NIGHT, LG_DRAW, LG_INVITE, LG_GAIN, LG_DAMAGE, LG_DEATH, LG_SUNRISE, LG_TRACK, LG_PLAY,
 LG_CANCEL, LG_VOTE, LG_EVENT_DRAW, LG_RETIRE, LG_HEAL, LG_RESHUFFLE, LG_END, LG_WEREWOLF,
 LG_SUPPLY) = range(18)
