"""Till Dawn in the step model (:class:`simlib.core.step.StepGame`): the kernel's entry
points and the chance events of its draws.

>>> g = Game(seed=1, game=5, players=3, seats=[{"player": "optimal", "character": "nosferatu"}, ...])

A seat may name its ``character`` (all seats or none; none: the team is drawn as a study does).
"""
from __future__ import annotations

import numpy as np

from ...core.rng import game_key_nb
from ...core.step import StepGame, randint, stream_seed
from . import codes as K
from .api import scratch_arrays, records_frame, team_codes, work_size
from .kernels import engine_nb as E
from .kernels.policies_nb import choose_nb
from .policies import POLICIES, Seat, check_seats_ruleset
from .ruleset import load_ruleset

_STEP_LOG = 1024  # rows one kernel call may log (a step: tens; 20 nights ended by their first card: ~250)


class Game(StepGame):
    """One game of Till Dawn, a decision at a time (the state is one int64 array)."""

    display_name, Seat, default_policy, seat_options = "Till Dawn", Seat, "threshold", ("character",)
    load_ruleset = staticmethod(load_ruleset)

    def _deal(self, character=None) -> None:
        check_seats_ruleset(self.seats, self.rules)
        p = len(self.seats)
        row = team_codes(character, p, self.rules)
        self.log = np.zeros((100_000 if self.trace else 1, K.LOG_W), dtype=np.int64)
        self.state = np.zeros(K.S_SIZE, dtype=np.int64)
        self._flat = self.rules.flat()
        key = int(game_key_nb(np.int64(self.seed), np.int64(self.game)))
        self._steplog = np.zeros((_STEP_LOG, K.LOG_W), dtype=np.int64)
        # the decks stream and the power pile before the deal, as init_state_nb makes them
        self._decks = stream_seed(key, K.STREAM_DECKS)
        self._powers = list(range(int(self._flat[K.R_PARAMS + K.P_N_POWERS])))
        E.init_state_nb(self.state, self._flat, np.int64(p), row, np.uint64(key), self._steplog)
        if row[0] < 0:  # a random team: the partial Fisher-Yates of init_state_nb
            self._shuffle(list(range(int(self._flat[K.R_PARAMS + K.P_N_CHARS]))), "character")
        E.advance_nb(self.state, self._flat, self._steplog)
        self._take_steplog()
        # the policies' scratch lives as long as the game, as in the batch kernel
        self._scratch = scratch_arrays(work_size(self.rules, self.seats))

    @property
    def over(self) -> bool:
        return bool(self.state[K.S_OVER])

    @property
    def to_move(self) -> int:
        return -1 if self.over else int(self.state[K.S_DECIDER])

    @property
    def phase(self) -> str:
        return K.PHASE_NAMES[int(self.state[K.S_PHASE])]

    def seat(self, s: int, part: str) -> int:
        """A per-seat value, e.g. ``seat(0, "blood")`` (parts: ``codes.SEAT_PARTS``)."""
        return int(self.state[getattr(K, f"S_S_{part.upper()}") + s])

    def legal_codes(self) -> list[int]:
        if self.over:
            return []
        n = E.legal_actions_nb(self.state, self._flat, self._scratch[0])
        return [int(a) for a in self._scratch[0][:n]]

    def action_words(self, code: int) -> str:
        return K.ACTIONS[code].replace("_", " ")

    def _step(self, code: int) -> bool:
        # read from the state, not carried over: a state set by hand between steps (the
        # tests' crafted positions) still lists the chance of the steps after it
        self._steplog[0, 0] = 0
        self._decks = int(np.uint64(self.state[K.S_STREAMS + K.STREAM_DECKS]))
        self._powers = [int(x) for x in self.state[K.S_POWERS:K.S_POWERS + len(self._powers)]]
        ok = E.apply_action_nb(self.state, self._flat, np.int64(code), self._steplog)
        self._take_steplog()
        return bool(ok)

    def _choose(self, seat) -> int:
        if seat is not None:
            check_seats_ruleset([seat], self.rules)
        seat = self.seats[self.to_move] if seat is None else seat
        codes = self.legal_codes()
        need = work_size(self.rules, [seat])
        if need > self._scratch[1].shape[0]:
            work = np.zeros(need, np.float64)
            work[:self._scratch[1].shape[0]] = self._scratch[1]
            self._scratch = (self._scratch[0], work) + self._scratch[2:]
        return int(choose_nb(self.state, self._flat, np.int64(POLICIES[seat.policy].id), seat.vector(),
                             self._scratch[0], np.int64(len(codes)), *self._scratch[1:]))

    def record_array(self) -> np.ndarray:
        rec = np.zeros(K.REC_SIZE, dtype=np.int64)
        E.record_nb(self.state, self._flat, np.int64(self.game), rec)
        return rec

    def _frame(self, rows):
        labels = np.full((1, K.MAX_SEATS), None, dtype=object)
        labels[0, :len(self.seats)] = [s.label for s in self.seats]
        return records_frame(rows, self.rules, labels)

    def _violation(self) -> str:
        """Health within its bounds and positive for an active vampire, no negative blood
        or coffin points, cards left never negative, the track on the board, an active
        vampire to decide (or the drawer choosing an event card to keep)."""
        st = self.state
        for s in range(len(self.seats)):
            h, hmax = int(st[K.S_S_HEALTH + s]), int(st[K.S_S_MAX_HEALTH + s])
            if not 0 <= h <= hmax:
                return f"seat {s}: health {h} outside 0..{hmax}"
            if st[K.S_S_ACTIVE + s] == 1 and h <= 0:
                return f"seat {s}: active with no health"
            if st[K.S_S_BLOOD + s] < 0 or st[K.S_S_COFFIN + s] < 0:
                return f"seat {s}: negative blood or coffin points"
        if (st[K.S_TYPE_LEFT:K.S_TYPE_LEFT + K.MAX_TYPES] < 0).any():
            return "a card type has a negative count left"
        if not 0 <= st[K.S_TRACK] <= self.rules.get("constants.track_length"):
            return "the night track is off the board"
        # a vampire out for the night decides one thing: the event card it keeps
        if not self.over and st[K.S_S_ACTIVE + st[K.S_DECIDER]] != 1 and st[K.S_PHASE] != K.PH_KEEP:
            return "the game is not over but no active vampire can act"
        return "none"

    def _lines(self) -> list[str]:
        lines = [f"Night {int(self.state[K.S_NIGHT]) + 1}, {self.phase}" + (" - game over" if self.over else "")]
        return lines + [f"  seat {s} ({seat.label}): " + ", ".join(f"{part} {self.seat(s, part)}"
                                                                  for part in K.SEAT_PARTS)
                        for s, seat in enumerate(self.seats)]

    # ------------------------------------------------------------------ chance
    # Kinds (the kernel's codes): ("character", c) a random team's character of the next
    # seat (an index of rules.character_names); ("power", c) at each night's start the
    # power card dealt to each seat in seat order (a physical power card); ("hunt", t)
    # each hunt card drawn (its card type; a reshuffle is no event, the draws after it
    # are); ("event", e) each event card drawn for an event icon (a physical event card).
    def _shuffle(self, perm: list, kind: str) -> None:
        for s in range(len(self.seats)):
            self._decks, r = randint(self._decks, len(perm) - s)
            perm[s], perm[s + r] = perm[s + r], perm[s]
            self._chance.append((kind, perm[s]))

    def _take_steplog(self) -> None:
        """The chance outcomes of the kernel call just made, from its log rows: hunt and
        event cards are logged; the powers dealt at a night's start are not, so the deal's
        Fisher-Yates is redone on the decks stream, then checked against the state (a
        kernel drawing differently fails here, not silently)."""
        m = int(self._steplog[0, 0])
        if m + 1 >= self._steplog.shape[0]:  # pragma: no cover - a step never logs that much
            raise RuntimeError("one step filled the step log: its chance events are incomplete")
        rows = self._steplog[1:1 + m]
        for r in rows:
            if r[0] == K.LG_NIGHT:
                self._shuffle(self._powers, "power")
            elif r[0] == K.LG_DRAW:
                self._chance.append(("hunt", int(r[3])))
            elif r[0] == K.LG_EVENT_DRAW:
                self._decks = randint(self._decks, 1)[0]  # the draw's index is logged as its card
                self._chance.append(("event", int(r[3])))
        st = self.state
        if (self._decks != int(np.uint64(st[K.S_STREAMS + K.STREAM_DECKS]))
                or self._powers != [int(x) for x in st[K.S_POWERS:K.S_POWERS + len(self._powers)]]):
            raise RuntimeError("the decks stream or the power pile differs from the kernel's: "
                               "chance_events no longer mirrors engine_nb's draws")
        if self.log.shape[0] > 1 and m:  # a traced game keeps every row, as the kernel would
            n0 = int(self.log[0, 0])
            k = min(m, self.log.shape[0] - 1 - n0)
            self.log[1 + n0:1 + n0 + k] = rows[:k]
            self.log[0, 0] = n0 + k
