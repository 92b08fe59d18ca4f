"""Until the World Ends: integer codes and array layouts (one source of truth for every offset).

Layouts are ``(name, size)`` parts; offsets are derived from them and imported by the
kernels as module constants (numba freezes them at compile time).

Arrays
------
rules : int64 (R_SIZE,)
    The packed ruleset (``ruleset.UntilTheWorldEndsRules.flat()``): parameters ``P_*``
    and the physical deck, one row of attributes per card (``R_CARD_*``).
state : int64 (S_SIZE,)
    One game in progress (scalars, per-seat values, hands, timelines, piles, the random
    streams bit for bit): a clone is ``state.copy()``.
record : int64 (REC_SIZE,)
    One finished game (``RECORD``; ``record_names()`` names the columns).
log : int64 (n, LOG_W)
    Optional trace buffer; row 0 holds the number of rows written (capped at n - 1).
"""
from __future__ import annotations

from typing import Sequence

# ------------------------------------------------------------------ capacities (layout bounds)
MAX_SEATS = 8        # seats a state holds (the publisher's 1-8 players)
MAX_DECK = 128       # physical cards (two combined 54-card decks fit)
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


def _layout(parts: Sequence[tuple[str, int]], prefix: str, start: int = 0):
    off, out = start, {}
    for name, size in parts:
        out[prefix + name.upper()] = off
        off += size
    return out, off


PARAMS = ("min_players", "max_players", "deal", "hand_limit", "target", "hoard_size",
          "hoard_share", "turn_cap", "round_cap", "n_colours", "disaster_mask",
          "draw_again", "additive", "deal_all", "n_cards")
_p, N_PARAMS = _layout([(p, 1) for p in PARAMS], "P_")
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
_r, R_SIZE = _layout(RULES, "R_")
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
STATE = tuple((s, 1) for s in SCALARS) + tuple((f"s_{p}", MAX_SEATS) for p in SEAT_PARTS) + (
    ("hand", MAX_SEATS * MAX_HAND), ("marked", MAX_SEATS * MAX_HAND),
    ("tl", MAX_SEATS * MAX_DECK), ("pile", MAX_DECK), ("discard", MAX_DECK),
    ("common", MAX_DECK), ("shown", MAX_DECK), ("shown_left", MAX_DECK),
    ("pts_colour", MAX_COLOURS), ("plays", len(CARD_KINDS) + len(INSTANTS)),
    ("streams", 4), ("scav", SCAV_W * MAX_DECK))
_s, S_SIZE = _layout(STATE, "S_")
(S_PLAYERS, S_ROUND, S_DEALER, S_TURN, S_PHASE, S_DECIDER, S_OVER, S_KEY, S_N_PILE,
 S_N_DISCARD, S_N_COMMON, S_PASSES, S_ROUND_TURNS, S_TURNS, S_DECISIONS, S_ENDER,
 S_END_CARD, S_ASK, S_LAST_DRAWER, S_PENDING, S_PENDING_DRAWN, S_N_SHOWN, S_PICK_K,
 S_PICK_FIRST, S_HOARDERS, S_END_CAUSE, S_ROUND_CAUSE, S_CHALLENGES, S_REDEALS, S_HOARDS,
 S_ENDS_ENDING, S_ENDS_HOARD, S_ENDS_EXHAUSTED, S_ENDS_CAP, S_ENDER_TOP, S_ENDER_GAIN,
 S_PTS_ESCALATION, S_PTS_GOOD, S_PTS_ENDING, S_ROUND_ENDERS, S_EXTRA_TURN, S_REDEAL_SIZE,
 S_TURN_DRAWN, S_SCAV_N,
 S_S_TOTAL, S_S_ROUND_SCORE, S_S_HAND_N, S_S_TL_N, S_S_PICK, S_S_ROUNDS_WON, S_S_ENDED,
 S_S_CHALLENGED, S_S_HOARDED,
 S_HAND, S_MARKED, S_TL, S_PILE, S_DISCARD, S_COMMON, S_SHOWN, S_SHOWN_LEFT, S_PTS_COLOUR,
 S_PLAYS, S_STREAMS, S_SCAV) = _s.values()

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
A_SNIPE = A_PLAY + MAX_HAND         # + seat * MAX_DECK + timeline position
A_PICK = A_SNIPE + MAX_SEATS * MAX_DECK  # + index of a shown ending
N_ACTION_CODES = A_PICK + MAX_DECK
MAX_LEGAL = MAX_DECK + 4            # legal actions at one decision, at most
MAX_TRIES = 256                     # a rollout's tries an action (its scratch holds one value each)
SCRATCH_LEGAL = 2 * MAX_LEGAL + MAX_TRIES  # the policies' legal buffer: a decision's, a continuation's, tries

# ------------------------------------------------------------------ records
RECORD = (("game", 1), ("players", 1), ("rounds", 1), ("turns", 1), ("decisions", 1),
          ("end_cause", 1), ("winners", 1), ("top_total", 1), ("ends_ending", 1),
          ("ends_hoard", 1), ("ends_exhausted", 1), ("ends_cap", 1), ("challenges", 1),
          ("redeals", 1), ("ender_top", 1), ("ender_gain", 1), ("pts_escalation", 1),
          ("pts_good", 1), ("pts_ending", 1), ("pts_colour", MAX_COLOURS),
          ("plays", len(CARD_KINDS) + len(INSTANTS)),
          ("total", MAX_SEATS), ("win", MAX_SEATS), ("rounds_won", MAX_SEATS),
          ("ended", MAX_SEATS), ("challenged", MAX_SEATS), ("hoarded", MAX_SEATS))
_rec, REC_SIZE = _layout(RECORD, "REC_")
(REC_GAME, REC_PLAYERS, REC_ROUNDS, REC_TURNS, REC_DECISIONS, REC_END_CAUSE, REC_WINNERS,
 REC_TOP_TOTAL, REC_ENDS_ENDING, REC_ENDS_HOARD, REC_ENDS_EXHAUSTED, REC_ENDS_CAP,
 REC_CHALLENGES, REC_REDEALS, REC_ENDER_TOP, REC_ENDER_GAIN, REC_PTS_ESCALATION, REC_PTS_GOOD,
 REC_PTS_ENDING, REC_PTS_COLOUR, REC_PLAYS, REC_TOTAL, REC_WIN, REC_ROUNDS_WON, REC_ENDED,
 REC_CHALLENGED, REC_HOARDED) = _rec.values()
PLAY_NAMES = CARD_KINDS + INSTANTS  # plays[k]: cards of kind k played from hand (k < 5),
                                    # instants resolved by effect (played or drawn)


def record_names() -> list[str]:
    """Column names of a record row (``total_0`` .. ``total_7``, ``plays_event``, ...)."""
    out = []
    for name, size in RECORD:
        if size == 1:
            out.append(name)
        elif name == "plays":
            out += [f"plays_{k}" for k in PLAY_NAMES]
        else:
            out += [f"{name}_{s}" for s in range(size)]
    return out


# ------------------------------------------------------------------ trace log
LOG_W = 7  # kind, round, seat, a, b, c, d
(LG_ROUND, LG_DRAW, LG_PLAY, LG_INSTANT, LG_SNIPE, LG_CHALLENGE, LG_ROUND_END, LG_REDEAL,
 LG_PASS, LG_HOARD, LG_PICK, LG_SCORE, LG_GAME_END) = range(13)
