"""Until the World Ends in the step model (:class:`simlib.core.step.StepGame`): the one
kernel entry (``Engine``), the position in words and the chance events of the shuffles.

Chance events are ``(kind, order)``, ``order`` the physical card ids (``card_name``) in
the order they leave the draw pile: ``("deal", order)`` a round's shuffled deck (the first
``deal`` x players cards dealt one at a time from the dealer's left, the rest drawn in
this order); ``("redeal", order)`` the shuffled discards of a redeal.  Nothing else in the
game is random (the policies' own randomness is not the game's).
"""
from __future__ import annotations

import numpy as np

from ...core.step import StepGame
from . import codes as K
from .api import Engine, action_words, card_name, records_frame
from .kernels import play_nb as PL
from .kernels.engine_nb import shuffle_nb
from .policies import POLICIES, Seat, check_seats_ruleset
from .ruleset import load_ruleset


class Game(StepGame):
    """One game of Until the World Ends, a decision at a time (the state: one int64 array)."""

    display_name, Seat, default_policy, cloned = "Until the World Ends", Seat, "greedy", ("_eng",)
    load_ruleset = staticmethod(load_ruleset)

    def _deal(self) -> None:
        check_seats_ruleset(self.seats, self.rules)
        self._flat = self.rules.flat()
        self._eng = Engine(self.rules, self.seats, bool(self.trace))
        self._eng.init(self.seed, self.game, len(self.seats))
        self._chance.append(("deal", self._leave_order(self._n_cards())))

    state = property(lambda self: self._eng.state, doc="The state array (layout ``codes.STATE``).")
    log = property(lambda self: self._eng.log)
    over = property(lambda self: bool(self.state[K.S_OVER]))
    players = property(lambda self: int(self.state[K.S_PLAYERS]))
    phase = property(lambda self: K.PHASE_NAMES[int(self.state[K.S_PHASE])])

    @property
    def to_move(self) -> int:
        return -1 if self.over else int(self.state[K.S_DECIDER])

    def legal_codes(self) -> list[int]:
        return [] if self.over else [int(a) for a in self._eng.legal[:self._eng.call(PL.OP_LEGAL)]]

    def action_words(self, code: int) -> str:
        return action_words(self.state, self.rules, code)

    def _step(self, code: int) -> bool:
        st = self.state
        before = (int(st[K.S_ROUND]), int(st[K.S_REDEALS]), int(st[K.S_STREAMS + K.STREAM_DEAL]))
        ok = self._eng.call(PL.OP_APPLY, a=code)
        if ok:
            self._note_chance(*before)
        return bool(ok)

    def _choose(self, seat) -> int:
        s, eng = self.to_move, self._eng
        if seat is None:
            return eng.call(PL.OP_CHOOSE, a=s)
        check_seats_ruleset([seat], self.rules)
        vec = seat.vector()
        if len(vec) > eng.par.shape[2]:  # a longer player (distilled): widen every seat's
            par = np.zeros(eng.par.shape[:2] + (len(vec),))
            par[:, :, :eng.par.shape[2]] = eng.par
            eng.par = par
        own = eng.pol[0, s], eng.par[0, s].copy()
        eng.pol[0, s] = POLICIES[seat.policy].id
        eng.par[0, s] = 0.0
        eng.par[0, s, :len(vec)] = vec
        try:
            return eng.call(PL.OP_CHOOSE, a=s)
        finally:
            eng.pol[0, s], eng.par[0, s] = own

    def record_array(self) -> np.ndarray:
        return self._eng.record(self.game)

    def _frame(self, rows):
        labels = np.full((1, K.record_seats(self.players)), None, dtype=object)
        labels[0, :self.players] = [s.label for s in self.seats]
        return records_frame(rows, self.rules, labels)

    # ------------------------------------------------------------------ the position
    def _names(self, at: int, n: int) -> list[str]:
        return [card_name(self.rules, int(c)) for c in self.state[at:at + n]]

    def hand(self, s: int) -> list[str]:
        return self._names(K.S_HAND + s * K.SEAT_W, self.state[K.S_S_HAND_N + s * K.SEAT_W])

    def timeline(self, s: int) -> list[str]:
        return self._names(K.S_TL + s * K.SEAT_W, self.state[K.S_S_TL_N + s * K.SEAT_W])

    def common(self) -> list[str]:
        return self._names(K.S_COMMON, self.state[K.S_N_COMMON])

    def totals(self) -> list[int]:
        return [int(v) for v in self.state[K.S_S_TOTAL:K.S_S_TOTAL + self.players * K.SEAT_W:K.SEAT_W]]

    def round_scores(self) -> list[int]:
        """Each seat's round score if the round ended now without an ending."""
        return [self.score(p) for p in range(self.players)]

    def score(self, p: int, ending: str | int | None = None) -> int:
        """Seat ``p``'s round score now, with an ending's modifier (a card name or id)."""
        if isinstance(ending, str):
            ending = [c for c in range(self._n_cards()) if card_name(self.rules, c) == ending][0]
        return self._eng.call(PL.OP_SCORE, a=p, b=-1 if ending is None else int(ending))

    def cards(self) -> list[int]:
        """Every card id in the position's places (a hoard's shown endings included)."""
        st = self.state
        places = [(K.S_PILE, K.S_N_PILE), (K.S_DISCARD, K.S_N_DISCARD), (K.S_COMMON, K.S_N_COMMON)]
        for s in range(self.players):
            places += [(K.S_HAND + s * K.SEAT_W, K.S_S_HAND_N + s * K.SEAT_W),
                       (K.S_TL + s * K.SEAT_W, K.S_S_TL_N + s * K.SEAT_W)]
        if st[K.S_PHASE] == K.PH_PICK:
            places.append((K.S_SHOWN, K.S_N_SHOWN))
        return [int(c) for at, n in places for c in st[at:at + st[n]]]

    def log_rows(self) -> np.ndarray:
        return self.log[1:1 + self.log[0, 0]].copy()

    def _violation(self) -> str:
        """Every card of the deck in exactly one place, a drawn-ending mark only on an ending."""
        if sorted(self.cards()) != list(range(self._n_cards())):
            return "the cards in play are not the deck, each card once"
        st = self.state
        for s in range(self.players):
            for i in range(int(st[K.S_S_HAND_N + s * K.SEAT_W])):
                c = int(st[K.S_HAND + s * K.SEAT_W + i])
                if st[K.S_MARKED + s * K.SEAT_W + i] and \
                        self._flat[K.R_CARDS + c * K.CC_N + K.CC_KIND] != K.KIND_ENDING:
                    return f"seat {s}: a drawn-ending mark on a card that is not an ending"
        return "none"

    def _lines(self) -> list[str]:
        st, scores, totals = self.state, self.round_scores(), self.totals()
        lines = [f"round {int(st[K.S_ROUND])}, dealer seat {int(st[K.S_DEALER])}, "
                 f"draw pile {int(st[K.S_N_PILE])}, discards {int(st[K.S_N_DISCARD])}"
                 + (" - game over" if self.over else f"; seat {self.to_move} decides ({self.phase})"),
                 "common: " + (", ".join(self.common()) or "-")]
        return lines + [f"  seat {s} ({self.seats[s].label}): total {totals[s]}, round {scores[s]}; "
                        f"timeline [{', '.join(self.timeline(s))}]; hand [{', '.join(self.hand(s))}]"
                        for s in range(self.players)]

    # ------------------------------------------------------------------ chance
    def _n_cards(self) -> int:
        return int(self._flat[K.R_PARAMS + K.P_N_CARDS])

    def _leave_order(self, n: int) -> tuple[int, ...]:
        # a pile is drawn from its end (state[S_PILE + n_pile - 1] first); draws only lower
        # n_pile, so the shuffled order stays in the array until the next shuffle
        return tuple(int(c) for c in self.state[K.S_PILE:K.S_PILE + n][::-1])

    def _note_chance(self, rnd: int, redeals: int, stream: int) -> None:
        """The shuffles of the action just applied, read from the state (at most one redeal
        and one new round an action: either ends at a decision, or a redeal's turn reaches
        the turn cap and the next round is dealt at once)."""
        st = self.state
        new_round = int(st[K.S_ROUND]) != rnd
        if int(st[K.S_REDEALS]) != redeals:
            d = int(st[K.S_REDEAL_SIZE])
            if not new_round:
                order = self._leave_order(d)
            else:
                # the new round's shuffle overwrote the redeal's pile: shuffle the redeal's
                # discards (still in the discard array) again with the deal stream as it
                # stood before the action, by the kernel's own shuffle
                scratch = np.zeros(K.S_SEATS, np.int64)
                scratch[K.S_PILE:K.S_PILE + d] = st[K.S_DISCARD:K.S_DISCARD + d]
                scratch[K.S_STREAMS + K.STREAM_DEAL] = stream
                shuffle_nb(scratch, K.S_PILE, d, K.STREAM_DEAL)
                order = tuple(int(c) for c in scratch[K.S_PILE:K.S_PILE + d][::-1])
            self._chance.append(("redeal", order))
        if new_round:
            self._chance.append(("deal", self._leave_order(self._n_cards())))
