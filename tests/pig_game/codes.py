"""Pig's codes and layouts: the packed rules, the state and the record."""
MAX_SEATS = 6
RULE_NAMES = ("die_faces", "bust_face", "target", "max_turns", "min_players", "max_players")
R_FACES, R_BUST, R_TARGET, R_MAX_TURNS, R_MIN_P, R_MAX_P = range(len(RULE_NAMES))

ACTIONS = ("roll", "hold")
A_ROLL, A_HOLD = range(len(ACTIONS))
POLICY_RANDOM, POLICY_HOLD_AT = 0, 1
STREAM_DICE, STREAM_POLICY = 0, 1
N_STREAMS = 2

# state: scalars, then one score per seat, then the random streams (uint64 bits)
S_PLAYERS, S_SEAT, S_TURN_TOTAL, S_OVER, S_WINNER, S_TURNS, S_ROLLS = range(7)
S_SCORE = 7
S_RNG = S_SCORE + MAX_SEATS
S_SIZE = S_RNG + N_STREAMS

# record: one int64 row per game
REC_NAMES = ("game", "players", "winner", "turns", "rolls") + tuple(f"score_{s}" for s in range(MAX_SEATS))
REC_GAME, REC_PLAYERS, REC_WINNER, REC_TURNS, REC_ROLLS = range(5)
REC_SCORE = 5
REC_SIZE = len(REC_NAMES)
