"""Until the World Ends: integer codes and array layouts (one source of truth for every offset).

Layouts are ``(name, size)`` parts; offsets are derived from them and imported by the
kernels as module constants (numba freezes them at compile time).

Arrays
------
rules : int64 (R_SIZE,)
    The packed ruleset (``ruleset.UntilTheWorldEndsRules.flat()``): parameters ``P_*``
    and the physical deck, one row of attributes per card (``R_CARD_*``).
state : int64 (state_size(players),)
    One game in progress: the table's part (scalars, piles, the random streams bit for bit,
    the scavenges in progress), then one block of ``SEAT_W`` values per seat (its totals,
    hand, drawn-ending marks and timeline): seat ``s``'s value ``S_S_X`` is at
    ``S_S_X + s * SEAT_W``, its hand slot ``i`` at ``S_HAND + s * SEAT_W + i``.  The array
    holds as many seats as the game has players; a clone is ``state.copy()``.
record : int64 (rec_size(seats),)
    One finished game (``RECORD`` then ``REC_SEAT_PARTS``, each ``seats`` wide;
    ``record_names(seats)`` names the columns).  ``seats`` is ``record_seats(players)``:
    at least ``RECORD_SEATS`` so that the records of tables of up to 8 players keep one
    width (their frames, saved studies and golden records).
log : int64 (n, LOG_W)
    Optional trace buffer; row 0 holds the number of rows written (capped at n - 1).
"""
from __future__ import annotations

from ...core.layout import layout


# ------------------------------------------------------------------ capacities (layout bounds)
MAX_DECK = 128       # physical cards (two combined 54-card decks fit)
# the most players a state takes ("two to any number": a deck dealt `deal` cards each with
# one left to draw bounds a table first; 42 is a 128-card deck dealt 3 each).  The search
# players count a tie's share exactly in int64 as lcm(1..players) // winners, and
# lcm(1..42) < 2**63 < lcm(1..43).
MAX_PLAYERS = 42
RECORD_SEATS = 8     # a record's seat columns at least (the width of records of 2-8 players)
MAX_HAND = MAX_DECK  # a redeal ignores the hand limit: a hand is bounded by the deck only
MAX_COLOURS = 6      # event colours of a ruleset

# ------------------------------------------------------------------ vocabularies
CARD_KINDS = ("event", "good", "escalation", "instant", "ending")
KIND_EVENT, KIND_GOOD, KIND_ESCALATION, KIND_INSTANT, KIND_ENDING = range(5)
# effect words of the card vocabulary -> the card kind they make
EFFECT_WORDS = ("points", "add_all", "multiply", "discard_last", "remove_one", "pass_last",
                "clear", "draw_each", "end")
# instantaneous effects (R_CARD_EFFECT of an instant)
INSTANTS = ("discard_last", "remove_one", "pass_last", "clear", "draw_each")
FX_DISCARD_LAST, FX_REMOVE_ONE, FX_PASS_LAST, FX_CLEAR, FX_DRAW_EACH = range(5)
# arguments of instants
SCOPES = ("all", "others", "self")                   # discard_last(scope)
SC_ALL, SC_OTHERS, SC_SELF = range(3)
CHOSEN = ("chosen",)                                  # remove_one(chosen)
DIRECTIONS = ("left", "right")                        # pass_last(direction)
DIR_LEFT, DIR_RIGHT = range(2)
COMMON_TYPES = ("good", "escalation", "all")          # clear(common type)
CL_GOOD, CL_ESCALATION, CL_ALL = range(3)
# ending modifiers (R_CARD_EFFECT of an ending)
MODIFIERS = ("none", "multiply", "zero", "bonus_most")
MOD_NONE, MOD_MULTIPLY, MOD_ZERO, MOD_BONUS_MOST = range(4)
# targets of multiply / modifiers besides a colour name
TARGET_WORDS = ("disaster", "every")  # every disaster colour; every colour

# ------------------------------------------------------------------ layouts


PARAMS = ("min_players", "max_players", "deal", "hand_limit", "target", "hoard_size",
          "hoard_share", "turn_cap", "round_cap", "n_colours", "disaster_mask",
          "draw_again", "additive", "deal_all", "n_cards")
_p, N_PARAMS = layout([(p, 1) for p in PARAMS], "P_")
(P_MIN_PLAYERS, P_MAX_PLAYERS, P_DEAL, P_HAND_LIMIT, P_TARGET, P_HOARD_SIZE, P_HOARD_SHARE,
 P_TURN_CAP, P_ROUND_CAP, P_N_COLOURS, P_DISASTER_MASK, P_DRAW_AGAIN, P_ADDITIVE, P_DEAL_ALL,
 P_N_CARDS) = _p.values()

# one row per physical card: kind; colour bit mask (event: its colour; multiply and ending
# modifiers: their targets); value (points, add, multiplier, modifier amount); effect
# (instant effect / ending modifier); arg (scope, direction, common type, count); entry
# (index of the card's entry in cards.toml, for names)
CARD_COLS = ("kind", "mask", "value", "effect", "arg", "entry")
CC_KIND, CC_MASK, CC_VALUE, CC_EFFECT, CC_ARG, CC_ENTRY = range(len(CARD_COLS))
CC_N = len(CARD_COLS)
RULES = (("params", N_PARAMS), ("cards", MAX_DECK * CC_N))
_r, R_SIZE = layout(RULES, "R_")
R_PARAMS, R_CARDS = _r.values()

# ------------------------------------------------------------------ state
SCALARS = ("players", "round", "dealer", "turn", "phase", "decider", "over", "key",
           "n_pile", "n_discard", "n_common", "passes", "round_turns", "turns", "decisions",
           "ender", "end_card", "ask", "last_drawer", "pending", "pending_drawn",
           "n_shown", "pick_k", "pick_first", "hoarders", "end_cause", "round_cause",
           "challenges", "redeals", "hoards", "ends_ending", "ends_hoard", "ends_exhausted",
           "ends_cap", "ender_top", "ender_gain", "pts_escalation", "pts_good", "pts_ending",
           "round_enders", "extra_turn", "redeal_size", "turn_drawn", "scav_n")
# a scavenge in progress is a frame (user, next draw, draws in all) on a stack: a scavenge
# drawn during a scavenge resolves at once, before the outer one goes on (a stack no deeper
# than the deck's cards)
SCAV_W = 3
SEAT_PARTS = ("total", "round_score", "hand_n", "tl_n", "pick", "rounds_won", "ended",
              "challenged", "hoarded")
TABLE_PART = tuple((s, 1) for s in SCALARS) + (
    ("pile", MAX_DECK), ("discard", MAX_DECK),
    ("common", MAX_DECK), ("shown", MAX_DECK), ("shown_left", MAX_DECK),
    ("pts_colour", MAX_COLOURS), ("plays", len(CARD_KINDS) + len(INSTANTS)),
    ("streams", 4), ("scav", SCAV_W * MAX_DECK))
# one seat's block; seat s's block starts s * SEAT_W after seat 0's
SEAT_BLOCK = tuple((f"s_{p}", 1) for p in SEAT_PARTS) + (
    ("hand", MAX_HAND), ("marked", MAX_HAND), ("tl", MAX_DECK))
STATE = TABLE_PART + SEAT_BLOCK
_s, _seat0_end = layout(STATE, "S_")
S_SEATS = sum(size for _, size in TABLE_PART)  # seat 0's block
SEAT_W = _seat0_end - S_SEATS
(S_PLAYERS, S_ROUND, S_DEALER, S_TURN, S_PHASE, S_DECIDER, S_OVER, S_KEY, S_N_PILE,
 S_N_DISCARD, S_N_COMMON, S_PASSES, S_ROUND_TURNS, S_TURNS, S_DECISIONS, S_ENDER,
 S_END_CARD, S_ASK, S_LAST_DRAWER, S_PENDING, S_PENDING_DRAWN, S_N_SHOWN, S_PICK_K,
 S_PICK_FIRST, S_HOARDERS, S_END_CAUSE, S_ROUND_CAUSE, S_CHALLENGES, S_REDEALS, S_HOARDS,
 S_ENDS_ENDING, S_ENDS_HOARD, S_ENDS_EXHAUSTED, S_ENDS_CAP, S_ENDER_TOP, S_ENDER_GAIN,
 S_PTS_ESCALATION, S_PTS_GOOD, S_PTS_ENDING, S_ROUND_ENDERS, S_EXTRA_TURN, S_REDEAL_SIZE,
 S_TURN_DRAWN, S_SCAV_N,
 S_PILE, S_DISCARD, S_COMMON, S_SHOWN, S_SHOWN_LEFT, S_PTS_COLOUR, S_PLAYS, S_STREAMS, S_SCAV,
 S_S_TOTAL, S_S_ROUND_SCORE, S_S_HAND_N, S_S_TL_N, S_S_PICK, S_S_ROUNDS_WON, S_S_ENDED,
 S_S_CHALLENGED, S_S_HOARDED,
 S_HAND, S_MARKED, S_TL) = _s.values()


def state_size(players: int) -> int:
    """The length of a state of ``players`` seats."""
    return S_SEATS + int(players) * SEAT_W

# random streams (indices into the state's stream part)
STREAM_DEAL = 0      # the shuffles: each round's deal and every redeal (re-keyed each round)
STREAM_POLICY = 1    # policies' own randomness (random player, ties)
STREAM_SEARCH = 2    # the search players' re-sampling of unseen cards
N_STREAMS = 4

# phases: decisions, then internal steps
PH_TURN, PH_SNIPE, PH_CHALLENGE, PH_PICK = range(4)
N_DECISION_PHASES = 4
PH_OVER = 4
PHASE_NAMES = ("turn", "snipe", "challenge", "pick", "over")

# round end causes
RC_ENDING, RC_HOARD, RC_EXHAUSTED, RC_CAP = range(4)
ROUND_CAUSES = ("ending", "hoard", "exhausted", "turn_cap")
# game end causes
END_TARGET, END_ROUND_CAP = 0, 1
END_NAMES = ("target", "round_cap")

# actions: codes (legal_actions writes them)
A_DRAW, A_PASS, A_CHALLENGE, A_DECLINE = range(4)
A_PLAY = 4                          # + hand slot
A_PICK = A_PLAY + MAX_HAND          # + index of a shown ending
A_SNIPE = A_PICK + MAX_DECK         # + seat * MAX_DECK + timeline position (last: seats unbounded)
N_ACTION_CODES = A_SNIPE + MAX_PLAYERS * MAX_DECK
MAX_LEGAL = MAX_DECK + 4            # legal actions at one decision, at most
MAX_TRIES = 256                     # a rollout's tries an action (its scratch holds one value each)
SCRATCH_LEGAL = 2 * MAX_LEGAL + MAX_TRIES  # the policies' legal buffer: a decision's, a continuation's, tries

# ------------------------------------------------------------------ records
RECORD = (("game", 1), ("players", 1), ("rounds", 1), ("turns", 1), ("decisions", 1),
          ("end_cause", 1), ("winners", 1), ("top_total", 1), ("ends_ending", 1),
          ("ends_hoard", 1), ("ends_exhausted", 1), ("ends_cap", 1), ("challenges", 1),
          ("redeals", 1), ("ender_top", 1), ("ender_gain", 1), ("pts_escalation", 1),
          ("pts_good", 1), ("pts_ending", 1), ("pts_colour", MAX_COLOURS),
          ("plays", len(CARD_KINDS) + len(INSTANTS)))
_rec, REC_SEATS = layout(RECORD, "REC_")  # REC_SEATS: where the seat parts begin
(REC_GAME, REC_PLAYERS, REC_ROUNDS, REC_TURNS, REC_DECISIONS, REC_END_CAUSE, REC_WINNERS,
 REC_TOP_TOTAL, REC_ENDS_ENDING, REC_ENDS_HOARD, REC_ENDS_EXHAUSTED, REC_ENDS_CAP,
 REC_CHALLENGES, REC_REDEALS, REC_ENDER_TOP, REC_ENDER_GAIN, REC_PTS_ESCALATION, REC_PTS_GOOD,
 REC_PTS_ENDING, REC_PTS_COLOUR, REC_PLAYS) = _rec.values()
# per seat, each part `seats` wide: part k of seat p at REC_SEATS + k * seats + p
REC_SEAT_PARTS = ("total", "win", "rounds_won", "ended", "challenged", "hoarded")
(RS_TOTAL, RS_WIN, RS_ROUNDS_WON, RS_ENDED, RS_CHALLENGED, RS_HOARDED) = range(len(REC_SEAT_PARTS))
PLAY_NAMES = CARD_KINDS + INSTANTS  # plays[k]: cards of kind k played from hand (k < 5),
                                    # instants resolved by effect (played or drawn)


def record_seats(players: int) -> int:
    """The seat columns of a record of a table of ``players`` (at least RECORD_SEATS)."""
    return max(RECORD_SEATS, int(players))


def rec_size(seats: int = RECORD_SEATS) -> int:
    """The length of a record with ``seats`` seat columns."""
    return REC_SEATS + len(REC_SEAT_PARTS) * int(seats)


def seats_of_record(width: int) -> int:
    """The seat columns of a record of length ``width``."""
    return (int(width) - REC_SEATS) // len(REC_SEAT_PARTS)


REC_SIZE = rec_size(RECORD_SEATS)  # a record of a table of up to RECORD_SEATS players


def record_names(seats: int = RECORD_SEATS) -> list[str]:
    """Column names of a record row (``plays_event``, ..., ``total_0`` .. ``total_<seats-1>``)."""
    out = []
    for name, size in RECORD:
        if size == 1:
            out.append(name)
        elif name == "plays":
            out += [f"plays_{k}" for k in PLAY_NAMES]
        else:
            out += [f"{name}_{s}" for s in range(size)]
    for name in REC_SEAT_PARTS:
        out += [f"{name}_{s}" for s in range(int(seats))]
    return out


# ------------------------------------------------------------------ trace log
LOG_W = 7  # kind, round, seat, a, b, c, d
(LG_ROUND, LG_DRAW, LG_PLAY, LG_INSTANT, LG_SNIPE, LG_CHALLENGE, LG_ROUND_END, LG_REDEAL,
 LG_PASS, LG_HOARD, LG_PICK, LG_SCORE, LG_GAME_END) = range(13)
