"""Mort de la lumière du jour in the step model (:class:`simlib.core.step.StepGame`).

Seat 0 is the killer, seats 1-4 the survivors; ``seats`` as :func:`api.parse_seats` reads
them (``"killer=rollout,survivors=heuristic"``, a mapping or one spec a seat).

Chance events (token: an index of ``rules.tokens()``; face: an index into the die's faces):
``setup_token`` (a placer's token in the setup, the pending one included), ``chest_token``
(where an opened chest moves), ``hatch_token`` (where the hatch appears); ``energy`` (an
energy card's value), ``killer_card``, ``survivor_card`` (a card's kind, a chest's
included); ``repair_die``, ``chest_die``, ``gate_die`` (the white die), ``strike_die``,
``break_die`` (the black die).  A reshuffle has no outcome of its own.
"""
from __future__ import annotations

import numpy as np

from ...core.step import M64, StepGame, randint, stream_seed
from . import codes as K
from .api import action_text, kernel_call, parse_seats, records_frame, seat_arrays, seats_label
from .kernels import play_nb as PN
from .kernels.policies_nb import N_PARAMS, WORK_SIZE
from .policies import POLICIES, Seat, check_seats_ruleset
from .ruleset import load_ruleset

_STEP_LOG_ROWS = 1024   # log rows one kernel call can write (a step, or the setup's deal: ~60)
_DECK_KINDS = ("energy", "killer_card", "survivor_card")   # codes of engine_nb.log_draw_nb


class Game(StepGame):
    """One game of Mort, a decision at a time (the state: one int64 array)."""

    display_name, Seat, default_policy = "Mort", Seat, "heuristic"
    load_ruleset = staticmethod(load_ruleset)

    def _table(self, players, seats, policy) -> dict:
        n = int(self.rules.get("board.survivors")) + 1
        if players is not None and (isinstance(players, bool) or players != n):
            raise ValueError(f"players must be {n} (the killer and {n - 1} survivors); got {players!r}")
        self.seats = parse_seats(seats, self.rules, self.as_seat(policy or self.default_policy))
        return {}

    def _deal(self) -> None:
        check_seats_ruleset(self.seats, self.rules)
        self._pol, self._par = seat_arrays(self.seats, 1)
        self._flat = self.rules.flat()
        # the chance events are read from the log's rows, so a game without a trace still
        # logs: a small buffer emptied after every call
        self.log = np.zeros((200_000 if self.trace else _STEP_LOG_ROWS, K.LOG_W), dtype=np.int64)
        self._work = np.zeros(WORK_SIZE, dtype=np.int64)
        self.state = np.zeros(K.S_SIZE, dtype=np.int64)
        self._legal = np.zeros(K.MAX_LEGAL, dtype=np.int64)
        self._read = 0          # log rows already read for chance events
        self._k(PN.OP_INIT, a=self.game, seed=self.seed, log=self.log)
        self._collect(None)

    def _k(self, op: int, **kw) -> int:
        return kernel_call(op, self._flat, state=self.state, **kw)

    over = property(lambda self: bool(self.state[K.S_OVER]))
    phase = property(lambda self: K.PHASE_NAMES[int(self.state[K.S_PHASE])])

    @property
    def to_move(self) -> int:
        """The deciding seat (0: the killer; -1 once over)."""
        return -1 if self.over else int(self.state[K.S_DECIDER])

    def legal_codes(self) -> list[int]:
        return [int(a) for a in self._legal[:self._k(PN.OP_LEGAL, legal=self._legal)]]

    def action_words(self, code: int) -> str:
        return action_text(code, self.rules)

    def _step(self, code: int, op: int = PN.OP_STEP) -> bool:
        before = self._before()
        self._k(op, a=code, log=self.log)
        self._collect(before)
        return True

    def advance(self) -> "Game":
        """Run the forced steps up to the next decision (after the state was written by
        hand: the tests' crafted positions)."""
        self._step(0, PN.OP_ADVANCE)
        return self

    def _choose(self, seat) -> int:
        if seat is not None:
            check_seats_ruleset([seat], self.rules)
        vec = self._par[0, self.to_move] if seat is None else seat.vector()
        pol = np.zeros((1, K.MAX_SEATS), dtype=np.int64)
        par = np.zeros((1, K.MAX_SEATS, max(N_PARAMS, len(vec))), dtype=np.float64)
        pol[0, 0] = self._pol[0, self.to_move] if seat is None else POLICIES[seat.policy].id
        par[0, 0, :len(vec)] = vec
        return self._k(PN.OP_CHOOSE, pol=pol, par=par, legal=self._legal, work=self._work)

    def record_array(self) -> np.ndarray:
        out = np.zeros((1, K.REC_SIZE), dtype=np.int64)
        self._k(PN.OP_RECORD, a=self.game, out=out)
        return out[0]

    def _frame(self, rows):
        return records_frame(rows, self.rules, *seats_label(self.seats))

    # ------------------------------------------------------------------ chance
    def _before(self) -> tuple:
        st = self.state
        return (int(st[K.S_PHASE]) == K.PH_PLACE and not st[K.S_OVER], int(st[K.S_TOKEN]),
                int(st[K.S_HATCH]), int(st[K.S_STREAMS + K.STREAM_DICE]) & M64)

    def _collect(self, before: tuple | None) -> None:
        """Append the chance events of the kernel call just made, read from its log rows
        (deck draws, rolls, placements, chests, the hatch) and from the state (the token
        now pending a placement; the dice faces replayed from the dice stream)."""
        st, rules = self.state, self._flat
        pending, token, hatch, dice = before or (False, -1, K.HATCH_HIDDEN,
                                                 stream_seed(int(st[K.S_KEY]), K.STREAM_DICE))
        n = int(self.log[0, 0])
        if n >= self.log.shape[0] - 1:
            raise RuntimeError("the log is full: chance events would be lost")
        out = self._chance
        for kind, _rnd, _s, a, b, c, d in self.log[1 + self._read:1 + n].tolist():
            if kind == K.LG_PLACE:
                if pending and b == token:
                    pending = False       # the placement of the token drawn before this call
                else:
                    out.append(("setup_token", b))
            elif kind == K.LG_DRAW:
                out.append((_DECK_KINDS[a], b))
            elif kind in (K.LG_ROLL, K.LG_STRIKE, K.LG_BREAK):
                black = kind != K.LG_ROLL
                dice, face = randint(dice, rules[K.R_PARAMS + (K.P_BLACK_FACES if black else K.P_WHITE_FACES)])
                what = "strike" if kind == K.LG_STRIKE else "break" if black else K.PURPOSES[a]
                ok = b if black else c
                if rules[(K.R_BLACK if black else K.R_WHITE) + face] != ok:
                    raise RuntimeError(f"the dice stream replayed gives face {face} at a {what} "
                                       f"roll; the kernel logged {ok}")
                out.append((f"{what}_die", face))
            elif kind == K.LG_CHEST:
                if b >= 0:
                    out.append(("survivor_card", b))
                if d:                     # a token drawn (none free: the chest stayed)
                    out.append(("chest_token", c))
            elif (kind == K.LG_HATCH or (kind == K.LG_CARD and a == K.A_PLAY_MAP)) and \
                    hatch == K.HATCH_HIDDEN:
                t = a if kind == K.LG_HATCH else c
                if t >= 0:
                    out.append(("hatch_token", t))
                hatch = K.HATCH_SHUT
        if int(st[K.S_PHASE]) == K.PH_PLACE and not st[K.S_OVER]:
            out.append(("setup_token", int(st[K.S_TOKEN])))
        if dice != int(st[K.S_STREAMS + K.STREAM_DICE]) & M64:
            raise RuntimeError("the dice rolls read from the log do not account for the dice "
                               "stream's draws")
        if self.trace:
            self._read = n
        else:
            self.log[0, 0] = 0

    # ------------------------------------------------------------------ the position
    def _violation(self) -> str:
        """Cards conserved in each deck, lamps and repairs agree, kills and escapes match
        the survivors' states, pieces on the board, hands within their limits."""
        st, r = self.state, self.rules
        ns = int(r.get("board.survivors"))
        w, h = int(r.get("board.board_w")), int(r.get("board.board_h"))
        lamps = int(r.get("board.lamps"))
        held = sum(int(st[K.S_HAND + s * K.HAND_W + v]) for s in range(K.MAX_SEATS) for v in range(K.HAND_W))
        deck = int(st[K.S_ENERGY_DECK:K.S_ENERGY_DECK + K.HAND_W].sum() +
                   st[K.S_ENERGY_DISCARD:K.S_ENERGY_DISCARD + K.HAND_W].sum())
        total = sum(r.get(f"energy.{n}.count") for n in r.names("energy"))
        if held + deck != total:
            return f"energy cards: {held} held + {deck} in deck and discards != {total}"
        for d0, d1, f, seats in ((K.S_KDECK, K.S_KDISCARD, "killer_cards", [0]),
                                 (K.S_SDECK, K.S_SDISCARD, "survivor_cards", range(1, ns + 1))):
            total = sum(r.get(f"{f}.{n}.count") for n in r.names(f))
            held = sum(int(st[K.S_CARDS + s * K.MAX_K + k]) for s in seats for k in range(K.MAX_K))
            rest = int(st[d0:d0 + K.MAX_K].sum() + st[d1:d1 + K.MAX_K].sum())
            if held + rest != total or (st[d0:d0 + K.MAX_K] < 0).any():
                return f"{f}: {held} held + {rest} in deck and discards != {total}"
        gl = st[K.S_GEN_LAMPS:K.S_GEN_LAMPS + int(st[K.S_N_GENS])]
        if (gl < 0).any() or (gl > lamps).any() or int((gl == lamps).sum()) != int(st[K.S_REPAIRED]):
            return f"lamps {list(gl)} disagree with {int(st[K.S_REPAIRED])} repaired"
        status = [int(st[K.S_S_STATUS + s]) for s in range(1, ns + 1)]
        if status.count(K.ST_KILLED) != st[K.S_KILLS] or status.count(K.ST_ESCAPED) != st[K.S_ESCAPES]:
            return f"kills {int(st[K.S_KILLS])} / escapes {int(st[K.S_ESCAPES])} disagree with {status}"
        for s in range(ns + 1):
            if not (0 <= st[K.S_S_X + s] < w and 0 <= st[K.S_S_Y + s] < h):
                return f"seat {s} off the board at ({st[K.S_S_X + s]}, {st[K.S_S_Y + s]})"
        energy_cap = max(int(r.get("rules.survivor_energy_limit")), int(r.get("rules.survivor_energy_hand")))
        for s in range(1, ns + 1):
            if not 0 <= st[K.S_S_WOUNDS + s] <= int(r.get("rules.hits_to_kill")):
                return f"survivor {s} has {int(st[K.S_S_WOUNDS + s])} wounds"
            if sum(int(st[K.S_HAND + s * K.HAND_W + v]) for v in range(K.HAND_W)) > energy_cap:
                return f"survivor {s} holds too many energy cards"
            if st[K.S_PHASE] != K.PH_DISCARD and sum(int(st[K.S_CARDS + s * K.MAX_K + k]) for k in range(
                    K.MAX_K)) > int(r.get("rules.survivor_card_limit")):
                return f"survivor {s} holds too many survivor cards"
        if st[K.S_BUDGET] < 0:
            return f"a negative budget ({int(st[K.S_BUDGET])})"
        for p in range(int(st[K.S_N_PALLETS])):
            if st[K.S_PALLET_STATE + p] == K.PAL_DROPPED and st[K.S_PALLET_X + p] == st[K.S_S_X] and \
                    st[K.S_PALLET_Y + p] == st[K.S_S_Y]:
                return f"the killer stands on dropped pallet {p}"
        return "none"

    def _lines(self) -> list[str]:
        st, r = self.state, self.rules
        lines = [f"round {st[K.S_ROUND]}, phase {self.phase}, "
                 + ("over (" + K.END_NAMES[st[K.S_END_CAUSE]] + ")" if self.over
                    else f"seat {self.to_move} ({'killer' if self.to_move == 0 else 'survivor'}) to move")]
        toks = r.tokens()
        hand = lambda s: " ".join(f"{v}x{st[K.S_HAND + s * K.HAND_W + v]}"  # noqa: E731
                                  for v in range(1, K.MAX_V + 1) if st[K.S_HAND + s * K.HAND_W + v])
        cards = lambda s, names: ", ".join(f"{names[k]} x{st[K.S_CARDS + s * K.MAX_K + k]}"  # noqa: E731
                                           for k in range(len(names)) if st[K.S_CARDS + s * K.MAX_K + k])
        lines.append(f"killer at ({st[K.S_S_X]}, {st[K.S_S_Y]}); energy [{hand(0)}]; cards "
                     f"[{cards(0, r.names('killer_cards'))}]; adjustment {st[K.S_ADJ_NOW]:+d} now, "
                     f"{st[K.S_ADJ_NEXT]:+d} next turn")
        for s in range(1, int(r.get("board.survivors")) + 1):
            status = K.STATUS_NAMES[st[K.S_S_STATUS + s]]
            if status == "in_play":
                status = "injured" if st[K.S_S_WOUNDS + s] else "healthy"
            lines.append(f"survivor {s}: {status} at ({st[K.S_S_X + s]}, {st[K.S_S_Y + s]}); energy "
                         f"[{hand(s)}]; cards [{cards(s, r.names('survivor_cards'))}]")
        lamps = int(r.get("board.lamps"))
        gens = [f"{g}@{toks[st[K.S_GEN_TOKEN + g]]}:{st[K.S_GEN_LAMPS + g]}/{lamps}" for g in range(st[K.S_N_GENS])]
        lines.append(f"generators {', '.join(gens)}; repaired {st[K.S_REPAIRED]}")
        if st[K.S_PHASE] == K.PH_COMMIT:
            lines.append(f"committed: {K.PURPOSES[st[K.S_PURPOSE]]}, {st[K.S_BUDGET]} points left")
        return lines
