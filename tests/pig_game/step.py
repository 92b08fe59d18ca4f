"""Pig a decision at a time: the kernels' entry points on the core's step engine."""
import numpy as np

from simlib.core.rng import game_key_nb
from simlib.core.step import StepGame, draws

from . import codes as K
from .kernels_nb import apply_nb, choose_nb, init_nb, legal_nb, record_nb
from .policies import POLICIES, Seat
from .ruleset import load_ruleset
from .records import records_frame


class Game(StepGame):
    display_name, Seat, default_policy, default_players = "Pig", Seat, "hold_at", 2
    load_ruleset = staticmethod(load_ruleset)

    def _deal(self) -> None:
        self.flat, self.state = self.rules.flat(), np.zeros(K.S_SIZE, np.int64)
        key = game_key_nb(np.int64(self.seed), np.int64(self.game))
        init_nb(self.state, self.flat, np.int64(len(self.seats)), np.uint64(key))

    over = property(lambda self: bool(self.state[K.S_OVER]))
    to_move = property(lambda self: -1 if self.over else int(self.state[K.S_SEAT]))

    def legal_codes(self) -> list[int]:
        out = np.zeros(2, np.int64)
        return [int(a) for a in out[:legal_nb(self.state, out)]]

    def _step(self, code: int) -> bool:
        dice = K.S_RNG + K.STREAM_DICE
        s0 = int(self.state[dice])
        apply_nb(self.state, self.flat, np.int64(code))
        # each die rolled, replayed from the dice stream (the kernel logs none)
        faces = int(self.flat[K.R_FACES])
        self._chance += [("die", 1 + ((d * faces) >> 32)) for d in draws(s0, int(self.state[dice]))]
        return True

    def _choose(self, seat) -> int:
        seat = seat or self.seats[self.to_move]
        return int(choose_nb(self.state, self.flat, np.int64(POLICIES[seat.policy].id),
                             np.float64(seat.vector()[0])))

    def action_words(self, code: int) -> str:
        return K.ACTIONS[code]

    def record_array(self) -> np.ndarray:
        rec = np.zeros(K.REC_SIZE, np.int64)
        record_nb(self.state, np.int64(self.game), rec)
        return rec

    def _frame(self, rows):
        labels = np.full((1, K.MAX_SEATS), None, dtype=object)
        labels[0, :len(self.seats)] = [s.label for s in self.seats]
        return records_frame(rows, self.rules, labels)

    def _violation(self) -> str:
        scores = self.state[K.S_SCORE:K.S_SCORE + K.MAX_SEATS]
        return "a negative score" if (scores < 0).any() or self.state[K.S_TURN_TOTAL] < 0 else "none"

    def _lines(self) -> list[str]:
        scores = ", ".join(f"seat {s}: {int(self.state[K.S_SCORE + s])}" for s in range(len(self.seats)))
        return [f"Pig, turn {int(self.state[K.S_TURNS]) + 1}: {scores}; "
                f"{int(self.state[K.S_TURN_TOTAL])} this turn" + (" (over)" if self.over else "")]
