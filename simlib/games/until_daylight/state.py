"""A Python view of one game's state array: for scenario tests, debugging and notebooks.

The kernels keep a game in one int64 array (layout in ``kernels/state_nb.py``).
``GameState`` exposes its parts as named numpy views of that same buffer, so a test can
build a mid-game position by hand, call a phase kernel on ``state.array`` and read the
result back.

>>> gs = GameState.new(ruleset, players=4, characters=["pillar", "hipster", "trigger", "psycho"])
>>> gs.add_to_area(0, "monster"); gs.pl[0, K.PL_TRAPS] = 2
>>> traps_nb(gs.array, gs.rs, gs.pid, gs.pp)
>>> gs.run(K.PC_ENEMIES, K.PC_SAVE)                  # or a whole step range of the engine
"""
from __future__ import annotations

from typing import Sequence

import numpy as np


from . import codes as K
from .api import flat_rules, team_codes
from .kernels.game_nb import new_state_nb, run_steps_nb, setup_nb
from .policies import resolve_policy
from .ruleset import Ruleset, load_ruleset


class GameState:
    """Named views (``pl``, ``inv``, ``area``, ``kept``, ...) of one game's state array."""

    def __init__(self, array: np.ndarray, ruleset: Ruleset, policy: str = "baseline"):
        self.array = array
        self.ruleset = ruleset
        self.rs = flat_rules(ruleset)
        self.pid, self.pp = resolve_policy(policy)

    @classmethod
    def new(cls, ruleset: Ruleset | None = None, players: int = 4,
            characters: Sequence[str] | None = None, seed: int = 0, game: int = 0,
            policy: str = "baseline", ev_cap: int = 10_000) -> "GameState":
        """A game right after setup (characters, basic weapons, decks), round 0."""
        rules = load_ruleset(ruleset)
        rs = flat_rules(rules)
        st = new_state_nb(rs, np.int64(ev_cap))
        setup_nb(st, rs, np.int64(seed), np.int64(game), np.int64(players),
                 team_codes(characters, players, rules))
        return cls(st, rules, policy)

    def run(self, start: int, stop: int) -> "GameState":
        """Play from step ``start`` (``K.PC_*``) until step ``stop`` or the end, the
        policy deciding: e.g. ``run(K.PC_ENEMIES, K.PC_SAVE)`` is the enemies' attack."""
        if start == K.PC_EXCHANGE and self.array[K.G_ROUND] >= self.rs[K.P_ROUNDS]:
            self.array[K.G_PHASE] = K.PHASE_FINAL
        run_steps_nb(self.array, self.rs, np.int64(self.pid), self.pp, np.int64(start), np.int64(stop))
        return self

    def part(self, name: str) -> np.ndarray:
        """The view of part ``name`` of ``codes.STATE_PARTS`` (2-D when it has rows)."""
        _, slot, rows, cols, _ = K.STATE_PART[name]
        r, c = K.part_dim(self.array, rows), K.part_dim(self.array, cols)
        o = int(self.array[slot])
        a = self.array[o:o + r * c]
        return a if rows == K.const(1) else a.reshape(r, c)

    @property
    def g(self) -> np.ndarray:
        return self.array[:K.N_G]

    @property
    def n_players(self) -> int:
        return int(self.array[K.G_N_PLAYERS])

    @property
    def pl(self) -> np.ndarray:
        return self.part("pl")

    @property
    def inv(self) -> np.ndarray:
        return self.part("inv")

    @property
    def area(self) -> np.ndarray:
        return self.part("area")

    @property
    def kept(self) -> np.ndarray:
        return self.part("kept")

    @property
    def hdeck(self) -> np.ndarray:
        return self.part("hdeck")

    @property
    def hdisc(self) -> np.ndarray:
        return self.part("hdisc")

    @property
    def rdeck(self) -> np.ndarray:
        return self.part("rdeck")

    @property
    def rdisc(self) -> np.ndarray:
        return self.part("rdisc")

    @property
    def rng(self) -> np.ndarray:
        return self.part("rng").view(np.uint64)

    @property
    def killed(self) -> np.ndarray:
        return self.part("killed")

    @property
    def events(self) -> np.ndarray:
        return self.part("ev")[:int(self.array[K.G_EV_N])]

    # ------------------------------------------------------------------ editing helpers
    def area_cards(self, seat: int) -> list[str]:
        """Names of the horde cards in a seat's area, left to right."""
        n = int(self.pl[seat, K.PL_AREA_N])
        return [self.ruleset.enemy_names[t] for t in self.area[seat, :n]]

    def set_area(self, seat: int, names: Sequence[str]) -> None:
        """Put these horde cards (taken from the horde deck) in a seat's area."""
        for t in self.area[seat, :int(self.pl[seat, K.PL_AREA_N])]:
            self._return_to_deck(int(t))
        self.pl[seat, K.PL_AREA_N] = 0
        for name in names:
            self.add_to_area(seat, name)

    def add_to_area(self, seat: int, name: str) -> None:
        t = self.ruleset.enemy_id(name)
        self._take_from_deck(t)
        n = int(self.pl[seat, K.PL_AREA_N])
        self.area[seat, n] = t
        self.pl[seat, K.PL_AREA_N] = n + 1

    def _take_from_deck(self, t: int) -> None:
        n = int(self.array[K.G_HDECK_N])
        deck = self.hdeck
        idx = np.flatnonzero(deck[:n] == t)
        if idx.size == 0:
            raise ValueError(f"no {self.ruleset.enemy_names[t]} left in the horde deck")
        j = int(idx[0])
        deck[j], deck[n - 1] = deck[n - 1], deck[j]
        self.array[K.G_HDECK_N] = n - 1

    def _return_to_deck(self, t: int) -> None:
        n = int(self.array[K.G_HDECK_N])
        self.hdeck[n] = t
        self.array[K.G_HDECK_N] = n + 1

    def give(self, seat: int, card: str, count: int = 1) -> None:
        """Move ``count`` cards of a type from the rubble deck into a seat's inventory."""
        c = self.ruleset.card_id(card)
        n = int(self.array[K.G_RDECK_N])
        deck = self.rdeck
        for _ in range(count):
            idx = np.flatnonzero(deck[:n] == c)
            if idx.size == 0:
                raise ValueError(f"no {card} left in the rubble deck")
            j = int(idx[0])
            deck[j], deck[n - 1] = deck[n - 1], deck[j]
            n -= 1
            self.inv[seat, c] += 1
        self.array[K.G_RDECK_N] = n

    def horde_total(self) -> int:
        """Horde cards anywhere: deck, discard, areas, kept by players (conserved)."""
        n = self.n_players
        return int(self.array[K.G_HDECK_N] + self.hdisc.sum()
                   + self.pl[:n, K.PL_AREA_N].sum() + self.kept[:n].sum())

    def rubble_total(self) -> int:
        """Rubble cards anywhere: deck, discard, inventories (conserved)."""
        return int(self.array[K.G_RDECK_N] + self.rdisc.sum() + self.inv[:self.n_players].sum())
