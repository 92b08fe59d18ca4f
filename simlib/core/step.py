"""The step model's one engine: a game played a decision at a time, the same for every game.

:class:`StepGame` owns what every game's step model does alike: the one constructor, the
checks of ``apply`` and ``apply_code``, ``clone``, ``policy_choice``, ``play``, ``record``,
``result``, ``describe``, ``violation``'s common invariant, ``__repr__`` and the chance
events list.  A game's ``step.Game`` subclasses it and supplies only its kernel's entry
points (the hooks below) and its words::

    class Game(StepGame):
        display_name = "Pig"
        load_ruleset = staticmethod(load_ruleset)
        Seat = Seat                       # a simlib.core.seats.Seat subclass
        default_policy = "hold"

        def _deal(self): ...              # the kernel's setup, up to the first decision
        def legal_codes(self): ...        # the pending decision's action codes
        def _step(self, code): ...        # the kernel applies a legal code (and plays on)
        def _choose(self, seat): ...      # the code a player picks (None: the seat's own)
        def action_words(self, code): ... # a code in words
        over, to_move                     # read from the state

One constructor everywhere: ``Game(seed, game, *, players=None, seats=None, ruleset=None,
policy=None, trace=False, check=False)``.  ``seats``: one entry per seat (a seat spec,
``"threshold:t=8"``, a Seat, ``(name, params)``, or a mapping ``{"player": spec, ...}``
with a game's own seat options such as a character); ``policy``: the player of every seat
``seats`` does not name (a cooperative game's one player); ``players``: the number of seats
(default: as many as ``seats``, else the game's ``default_players``); ``ruleset``: ``None``
(the game's declared default), a preset name, a folder, a tweak file or a ruleset object.
"""
from __future__ import annotations

import copy
from typing import Any, ClassVar, Mapping

import numpy as np

from .rng import GOLDEN, MIX1, MIX2, STREAM_SALT

__all__ = ["StepGame", "player_spec", "mix64", "stream_seed", "randint", "draws"]


def player_spec(policy, params=None):
    """``(name, params)`` of a player given as a name, ``"name:p=v"``, ``(name, params)``
    or a Seat (``params`` given apart override a pair's)."""
    if isinstance(policy, tuple):
        name, own = policy
        return name, own if params is None else params
    return policy, params


class StepGame:
    """One game, a decision at a time; the state is the kernel's arrays (OpenSpiel style)."""

    display_name: ClassVar[str] = "game"
    load_ruleset: ClassVar[Any] = None      # spec -> ruleset (staticmethod)
    Seat: ClassVar[Any] = None              # the game's simlib.core.seats.Seat subclass
    default_policy: ClassVar[str] = ""
    default_players: ClassVar[int] = 4
    seat_options: ClassVar[tuple[str, ...]] = ()   # keys a seat mapping may carry
    check_each_step: ClassVar[bool] = True  # check=True: violation() after every step
    cloned: ClassVar[tuple[str, ...]] = ()  # attributes (not arrays) a clone takes .copy() of

    def __init__(self, seed: int = 0, game: int = 0, *, players: int | None = None,
                 seats=None, ruleset=None, policy=None, trace: bool | int = False,
                 check: bool = False):
        for n, v in (("seed", seed), ("game", game)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
                raise ValueError(f"{n} must be an integer >= 0; got {v!r}")
        self.seed, self.game = int(seed), int(game)
        self.rules = type(self).load_ruleset(ruleset)
        self.trace, self.check = trace, bool(check)
        self._chance: list = []
        options = self._table(players, seats, policy)
        self._deal(**options)

    # ------------------------------------------------------------------ the table
    def as_seat(self, spec, params=None):
        """A Seat from a Seat, a spec string (``"threshold:t=8"``) or ``(name, params)``."""
        if isinstance(spec, self.Seat):
            return spec
        name, params = player_spec(spec, params)
        return self.Seat.parse(name) if params is None else self.Seat.make(name, params)

    def check_players(self, players) -> int:
        """The number of seats, checked against the ruleset (``min_players``..``max_players``)."""
        lo, hi = self.rules.min_players(), self.rules.max_players()
        if isinstance(players, bool) or not isinstance(players, (int, np.integer)) \
                or not lo <= players <= hi:
            raise ValueError(f"players must be an integer from {lo} to {hi}; got {players!r}")
        return int(players)

    def _table(self, players, seats, policy) -> dict:
        """Sets ``self.seats`` (one Seat a seat); returns the seats' options for
        :meth:`_deal` (``{option: [value of each seat]}``, only those given)."""
        own = self.as_seat(policy or self.default_policy)
        if seats is not None:
            seats = list(seats)
        p = self.check_players(len(seats) if players is None and seats is not None
                               else self.default_players if players is None else players)
        if seats is None:
            seats = [own] * p
        if len(seats) != p:
            raise ValueError(f"{len(seats)} seats given for {p} players")
        out, options = [], {}
        for s, x in enumerate(seats):
            if isinstance(x, Mapping):
                bad = set(x) - {"player", *self.seat_options}
                if bad:
                    raise ValueError(f"seat {s}: unknown seat options {sorted(bad)}; allowed: "
                                     + ", ".join(("player",) + self.seat_options))
                for k in self.seat_options:
                    if k in x:
                        options.setdefault(k, [None] * p)[s] = x[k]
                x = x.get("player", own)
            out.append(self.as_seat(x))
        self.seats = tuple(out)
        return options

    # ------------------------------------------------------------------ hooks
    def _deal(self, **options) -> None:
        raise NotImplementedError

    @property
    def over(self) -> bool:
        raise NotImplementedError

    @property
    def to_move(self) -> int:
        """The seat that decides now (-1 once the game is over)."""
        raise NotImplementedError

    def legal_codes(self) -> list[int]:
        """The legal actions as codes, in :meth:`legal_actions` order ([] once over)."""
        raise NotImplementedError

    def _step(self, code: int) -> bool:
        """Apply legal action ``code`` and play on to the next decision; False if refused."""
        raise NotImplementedError

    def _choose(self, seat) -> int:
        """The code ``seat`` (None: the deciding seat's own player) picks now."""
        raise NotImplementedError

    def action_words(self, code: int) -> str:
        return str(code)

    def record_array(self) -> np.ndarray:
        """The kernel's record row."""
        raise NotImplementedError

    def _frame(self, rows: np.ndarray):
        """Record rows as the study's DataFrame (``records_frame``)."""
        raise NotImplementedError

    def _violation(self) -> str:
        """The game's own invariants (see :meth:`violation`)."""
        return "none"

    def _lines(self) -> list[str]:
        """Where the game stands (head of :meth:`describe`)."""
        return []

    def _chooser(self) -> str:
        return f"Seat {self.to_move} chooses:"

    # ------------------------------------------------------------------ reading
    def legal_actions(self) -> list[str]:
        """The pending decision's choices in words (index ``i`` is ``apply(i)``'s)."""
        return [self.action_words(a) for a in self.legal_codes()]

    def record(self) -> dict:
        """This game's record as a study's ``run_chunk`` gives it (same columns)."""
        row = self._frame(self.record_array()[None, :]).iloc[0]
        return {c: (v.item() if isinstance(v, np.generic) else v) for c, v in row.items()}

    @property
    def result(self) -> dict:
        """The record (meaningful once :attr:`over`)."""
        return self.record()

    def chance_events(self) -> list:
        """Every chance outcome since the game began, in the order the kernel drew them:
        the game replays from its actions and these alone (kinds: the game's docs)."""
        return list(self._chance)

    def violation(self) -> str:
        """The first invariant the position breaks (``"none"`` when every one holds): the
        game's own, then a decision to take while the game runs."""
        v = self._violation()
        if v == "none" and not self.over and not self.legal_codes():
            return "the game is not over but nobody can act"
        return v

    def describe(self) -> str:
        """Where the game stands, then the pending decision's choices."""
        lines = self._lines()
        if not self.over:
            lines.append(self._chooser())
            lines += [f"  {i}: {a}" for i, a in enumerate(self.legal_actions())]
        return "\n".join(lines)

    def __repr__(self) -> str:
        if self.over:
            return f"<{self.display_name} game {self.game} over>"
        return f"<{self.display_name} game {self.game}: seat {self.to_move} to move>"

    # ------------------------------------------------------------------ acting
    def apply(self, i: int) -> "StepGame":
        """Take choice ``i`` of :meth:`legal_actions`; the game plays on to the next
        decision or the end.  Returns ``self``."""
        codes = self.legal_codes()
        if not codes:
            raise ValueError("the game is over: no decision to take")
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < len(codes):
            raise ValueError(f"action index must be an integer from 0 to {len(codes) - 1}; got {i!r}")
        return self._stepped(codes[int(i)])

    def apply_code(self, code: int) -> "StepGame":
        """Take the action of code ``code`` (raises ``ValueError`` if it is not legal now)."""
        if int(code) not in self.legal_codes():
            raise ValueError(f"action code {code} is not legal now; legal: {self.legal_actions()}")
        return self._stepped(int(code))

    def _stepped(self, code: int) -> "StepGame":
        if not self._step(code):
            raise ValueError(f"the engine refused {self.action_words(code)}")  # pragma: no cover
        if self.check and self.check_each_step:
            v = self.violation()
            if v != "none":
                raise RuntimeError(f"an invariant broke after {self.action_words(code)}: {v}")
        return self

    def policy_choice(self, name=None, params=None) -> int:
        """The index of the choice player ``name`` (a name, ``"name:p=v"``, ``(name,
        params)``; default: the deciding seat's own) takes now; its random stream advances
        as it would in a study."""
        codes = self.legal_codes()
        if not codes:
            raise ValueError("the game is over: no decision to take")
        return codes.index(int(self._choose(None if name is None else self.as_seat(name, params))))

    def play(self, name=None, params=None) -> "StepGame":
        """Let player ``name`` (default: each seat's own) take every remaining decision."""
        while not self.over:
            self.apply(self.policy_choice(name, params))
        return self

    def clone(self) -> "StepGame":
        """An independent copy: arrays and lists copied, the ruleset shared."""
        g = copy.copy(self)
        for k, v in self.__dict__.items():
            if isinstance(v, (np.ndarray, list)) or k in self.cloned:
                setattr(g, k, v.copy())
            elif isinstance(v, tuple) and v and all(isinstance(x, np.ndarray) for x in v):
                setattr(g, k, tuple(x.copy() for x in v))
        return g


# ---------------------------------------------------------------------- streams in Python
# The step games replay a kernel's draws from its stream states (core.rng's splitmix64 on
# Python ints, mod 2**64) to list the chance outcomes the kernels do not log.
M64 = (1 << 64) - 1
_GOLDEN, _MIX1, _MIX2, _SALT = (int(x) for x in (GOLDEN, MIX1, MIX2, STREAM_SALT))


def mix64(z: int) -> int:
    """``core.rng.mix64_nb`` on a Python int."""
    z = ((z ^ (z >> 30)) * _MIX1) & M64
    z = ((z ^ (z >> 27)) * _MIX2) & M64
    return z ^ (z >> 31)


def stream_seed(key: int, stream: int) -> int:
    """Stream ``stream``'s first state for game key ``key`` (``init_streams_nb``), unsigned."""
    return mix64((key & M64) ^ (((stream + 1) * _SALT) & M64))


def randint(stream: int, n: int) -> tuple[int, int]:
    """``core.rng.randint_nb``: (the stream's state after, the draw in [0, n)); states are
    taken mod 2**64 (an int64 state array's signed values too) and returned unsigned."""
    z = ((stream & M64) + _GOLDEN) & M64
    return z, ((mix64(z) >> 32) * int(n)) >> 32


def draws(s0: int, s1: int, limit: int = 1 << 24) -> list[int]:
    """The top 32 bits of every draw a stream made from state ``s0`` to ``s1``."""
    k = (((s1 - s0) & M64) * pow(_GOLDEN, -1, 1 << 64)) & M64
    if k > limit:
        raise RuntimeError(f"a stream moved back or by {k} draws in one step")
    return [mix64((s0 + (i + 1) * _GOLDEN) & M64) >> 32 for i in range(k)]
