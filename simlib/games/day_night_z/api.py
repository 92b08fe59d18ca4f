"""Day Night Z's step model: one adventure, a decision at a time (``simlib.core.games.StepGame``).

>>> g = Game(seed=1, game=0, team_size=2)
>>> while not g.over:
...     _ = g.apply(g.policy_choice())
>>> row = play_games(1, seed=1, team_size=2)["records"]
>>> g.record() == {k: int(v) for k, v in zip(K.RECORD_FIELDS, row[0])}
True

The game is the batch's game (``play.play_games``) for the same (seed, game, team size,
start hour): its ``record()`` is the batch's row, field by field, when every decision is
the player's own (``apply(policy_choice())``).
"""
from __future__ import annotations

from typing import Mapping

import numpy as np

from . import codes as K
from .kernels import play_nb as PL
from ...core import rng as R
from .kernels.engine_nb import (ap_for, health_level, stress_level)  # noqa: F401  (re-exported helpers)
from .kernels.play_nb import step_nb
from .kernels.search_nb import search_run_nb
from .play import check_hour, check_team, packed, play_games, rules_of  # noqa: F401
from .policies import POLICIES, param_array

_SEARCH_IDS = frozenset(p.id for p in POLICIES.values() if p.search)
_NO_ROW = np.zeros(0, np.int64)  # the by-turn rows search_run_nb writes for a whole game only
_M64 = (1 << 64) - 1
_GOLDEN = int(R.GOLDEN)
_GOLDEN_INV = pow(_GOLDEN, -1, 1 << 64)   # a stream's step count from its two states
# the draw piles: (chance kind, state array, position global, engine param of the size or
# None for the spawn deck, whose size is in the spawn rules), in the kernel's order of
# shuffles at the start (init_state_nb)
_DECKS = (("search", K.S_SDECK, K.G_POS_SEARCH, K.RP_N_SEARCH),
          ("spawn", K.S_XSPAWN, K.G_POS_SPAWN, None),
          ("encounter", K.S_EDECK, K.G_POS_ENC, K.RP_N_ENC),
          ("surprise", K.S_UDECK, K.G_POS_SUR, K.RP_N_SUR),
          ("exploration", K.S_XDECK, K.G_POS_EXP, K.RP_N_EXP),
          ("corpse", K.S_CDECK, K.G_POS_CORPSE, K.RP_N_CORPSE))
_THREAT_COLUMNS = (K.S_T_SIDE, K.S_T_HOURS, K.S_T_HUNTER, K.S_T_INF, K.S_T_COND)


def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * int(R.MIX1)) & _M64
    z = ((z ^ (z >> 27)) * int(R.MIX2)) & _M64
    return z ^ (z >> 31)


def _draws(s0: int, s1: int) -> list[int]:
    """The top 32 bits of every draw a stream made from state ``s0`` to ``s1`` (a stream
    steps by ``GOLDEN``; ``randint_nb`` reads these bits)."""
    k = ((s1 - s0) * _GOLDEN_INV) & _M64
    if k > 1 << 24:
        raise RuntimeError(f"a stream moved back or by {k} draws in one step")
    return [_mix64((s0 + (i + 1) * _GOLDEN) & _M64) >> 32 for i in range(k)]

__all__ = ["Game", "action_words", "place_name"]

_G = K.S_GLOBALS


def place_name(rules, p: int) -> str:
    """A place in words: a city zone ``zone (row, col)`` with its kind, or a location tile."""
    p = int(p)
    if p < 0:
        return "nowhere"
    if p < K.MAX_ZONES:
        cols = rules.get("city.cols")
        r, c = divmod(p, cols)
        kind = ("street", "alley", "surprise zone", "exit")[int(rules.pack_engine()[K.R_ZONES + p])]
        loc = int(rules.pack_engine()[K.R_ZONE_LOC + p])
        extra = f", access to {rules.names('locations')[loc]}" if loc >= 0 else ""
        return f"zone ({r},{c}) {kind}{extra}"
    loc, t = divmod(p - K.MAX_ZONES, K.MAX_TILES)
    return f"{rules.names('locations')[loc]} tile {t + 1}"


def _sp_words(sp: int) -> str:
    return f" +{sp} SP" if sp else ""


def action_words(g: "Game", a: int) -> str:
    """Action code ``a`` in words."""
    kind, arg, sp = a // K.ACT_KIND, (a % K.ACT_KIND) // K.ACT_ARG, a % K.ACT_ARG
    st, rules = g.state, g.rules
    name = K.ACTIONS[kind]
    if kind == K.AC_ACTIVATE:
        return f"activate {g.names[arg]}"
    if kind == K.AC_END:
        return "end the activation (keep the AP in reserve)"
    if kind == K.AC_MOVE:
        return f"move to {place_name(rules, arg)}{_sp_words(sp)}"
    if kind in (K.AC_MELEE, K.AC_SHOOT):
        e = K.S_ENEMIES + arg * K.EN_W
        what = K.ENEMIES[int(st[e + K.EN_KIND])]
        return f"{'melee' if kind == K.AC_MELEE else 'shoot'} the {what} #{arg}{_sp_words(sp)}"
    if kind == K.AC_PICK:
        c = int(st[K.S_PICKS + arg])
        return f"keep search card {rules.names('search')[c]} (#{arg}){_sp_words(sp)}"
    return name.replace("_", " ") + _sp_words(sp)


class Game:
    """One Day Night Z adventure, a decision at a time.

    ``Game(seed=0, game=0, *, ruleset=None, team_size=None, start_hour=None,
    policy="baseline", params=None)``: game ``game`` of root seed ``seed`` (the batch's
    game of that index), played to its first decision.
    """

    def __init__(self, seed: int = 0, game: int = 0, *, ruleset=None, team_size: int | None = None,
                 start_hour: int | None = None, policy: str = "baseline",
                 params: Mapping[str, float] | None = None, _copy: "Game | None" = None):
        if _copy is not None:
            self.__dict__.update(_copy.__dict__)
            self.state = _copy.state.copy()
            self.rng = _copy.rng.copy()
            self.legal = np.zeros(K.MAX_LEGAL, np.int64)
            self.out = np.zeros(K.REC_SIZE, np.int64)
            self._chance = list(_copy._chance)
            return
        self.rules = rules_of(ruleset)
        self.team = check_team(team_size, self.rules)
        self.hour = check_hour(start_hour, self.rules)
        if policy not in POLICIES:
            raise ValueError(f"unknown policy {policy!r}; allowed: {', '.join(POLICIES)}")
        self.policy = policy
        self.par = param_array(policy, params)
        self.seed, self.game = int(seed), int(game)
        if self.seed < 0 or self.game < 0:
            raise ValueError(f"seed and game must be >= 0; got {seed}, {game}")
        self.packed = packed(self.rules)
        self.names = list(self.rules.get("scenario.team"))
        self.state = np.zeros(K.S_SIZE, np.int64)
        self.rng = np.zeros(K.N_STREAMS, np.uint64)
        self.legal = np.zeros(K.MAX_LEGAL, np.int64)
        self.out = np.zeros(K.REC_SIZE, np.int64)
        self._chance: list[tuple[str, object]] = []
        self._call(PL.OP_INIT)
        self._note_setup()

    def _call(self, op: int, a: int = 0, pid: int | None = None, par: np.ndarray | None = None) -> int:
        dice, tr, spn, rl = self.packed
        pid = POLICIES[self.policy].id if pid is None else pid
        par = self.par if par is None else par
        if pid in _SEARCH_IDS and op in (PL.OP_CHOOSE, PL.OP_PLAY):  # a search player's choices
            return int(search_run_nb(np.int64(op), self.state, self.rng, dice, tr, spn, rl, np.int64(self.seed),
                                     np.int64(self.game), np.int64(self.team), np.int64(self.hour),
                                     np.int64(pid), par, self.legal, self.out, _NO_ROW, _NO_ROW))
        return int(step_nb(np.int64(op), self.state, self.rng, dice, tr, spn, rl, np.int64(self.seed),
                           np.int64(self.game), np.int64(self.team), np.int64(self.hour), np.int64(a),
                           np.int64(pid), par, self.legal, self.out))

    # ------------------------------------------------------------------ the protocol
    @property
    def over(self) -> bool:
        return bool(self.state[_G + K.G_OVER])

    def legal_codes(self) -> list[int]:
        if self.over:
            return []
        n = self._call(PL.OP_LEGAL)
        return [int(x) for x in self.legal[:n]]

    def legal_actions(self) -> list[str]:
        """The pending decision's choices in words (index ``i`` is ``apply(i)``'s)."""
        return [action_words(self, a) for a in self.legal_codes()]

    def apply(self, i: int) -> "Game":
        """Take choice ``i``; the game plays on to the next decision or the end."""
        codes = self.legal_codes()
        if not codes:
            raise ValueError("the game is over: no decision to take")
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)) or not 0 <= i < len(codes):
            raise ValueError(f"action index must be an integer from 0 to {len(codes) - 1}; got {i!r}")
        return self.apply_code(codes[int(i)])

    def apply_code(self, a: int) -> "Game":
        """Take the action of code ``a`` (raises ``ValueError`` if it is not legal now)."""
        if self.over:
            raise ValueError(f"action code {a} is not legal now; legal: {self.legal_actions()}")
        st0, rng0 = self.state.copy(), self.rng.copy()
        if not self._call(PL.OP_APPLY, a=int(a)):
            raise ValueError(f"action code {a} is not legal now; legal: {self.legal_actions()}")
        self._note_chance(st0, rng0)
        return self

    def clone(self) -> "Game":
        """An independent copy (state and random streams copied)."""
        return Game(_copy=self)

    def policy_choice(self, name: str | None = None, params: Mapping[str, float] | None = None) -> int:
        """The index of the choice policy ``name`` (default: the game's own player) takes now;
        the players' stream advances as in the batch."""
        codes = self.legal_codes()
        if not codes:
            raise ValueError("the game is over: no decision to take")
        if name is None:
            return codes.index(self._call(PL.OP_CHOOSE))
        par = param_array(name, params)
        return codes.index(self._call(PL.OP_CHOOSE, pid=POLICIES[name].id, par=par))

    def play(self, name: str | None = None, params: Mapping[str, float] | None = None) -> "Game":
        """Let policy ``name`` (default: the game's own player) take every remaining decision."""
        # a decision at a time (the kernel's own loop, OP_PLAY, takes the same choices) so
        # that every reshuffle is seen by chance_events()
        while not self.over:
            self.apply(self.policy_choice(name, params))
        return self

    # ------------------------------------------------------------------ chance
    def chance_events(self) -> list[tuple[str, object]]:
        """Every chance outcome since the game began: the game replays from its actions and
        these alone.  Each is ``(kind, value)`` in the kernel's codes:

        ``("search", kind)``, ``("spawn", kind)``, ``("encounter", kind)``,
        ``("surprise", kind)``, ``("exploration", kind)``, ``("corpse", kind)``
            A card drawn from that pile (``kind`` the index of its card kind in the data
            order: ``rules.names("search")`` and so on; exploration cards are ``EXP_*``).
        ``("threat", (side, hourglasses, hunter, infection, condition))``
            A threat card: its columns (``SIDE_*``, hours, 0/1, 0/1, ``COND_*``), each
            column drawn from a pile of its own (shuffled apart, one position for all).
        ``("choice", x)``
            One of the rules' random picks (the body location a threat card or the surprise
            Crawler strikes, the survivor a threat ambush or the Hunter comes to): ``x`` the
            draw's 32 random bits; the pick among ``n`` options is ``(x * n) >> 32``
            (``core.rng.randint_nb``); the struck location is ``codes.BODY_LOCATIONS``\'s.
        ``("die", face)``
            One die of any roll (checks, attacks, enemy attacks, infection dice), its face
            index in the ``dice`` data order; every roll draws all of its dice.

        A reshuffled pile (all its cards, when a draw finds it empty) is not an event: its
        order shows in the cards drawn.  Order: within a kind, the order of the game; within
        one step (the setup, or one action and what the engine plays after it up to the
        next decision) the piles come first, then the picks, then the dice.
        """
        return list(self._chance)

    def _deck_size(self, param) -> int:
        if param is None:
            return int(self.packed[2][K.X_PARAMS + K.SP_N_CARDS])
        return int(self.packed[3][K.R_PARAMS + param])

    def _piles(self):
        """(kind, [state offsets of its columns], position global, size) of each pile."""
        out = [(k, [a], g, self._deck_size(p)) for k, a, g, p in _DECKS]
        out.append(("threat", list(_THREAT_COLUMNS), K.G_POS_THREAT, self._deck_size(K.RP_N_THREAT)))
        return out

    def _note_setup(self) -> None:
        """The setup's chance: the piles as init_state_nb shuffled them (before any draw)."""
        st0 = self.state.copy()
        rng0 = R.make_streams(self.seed, self.game)
        for _k, cols, g, n in self._piles():
            st0[_G + g] = 0
            # the setup's shuffles are not draws: count them as done before the step
            for _c in cols:
                rng0[K.STREAM_DECKS] = np.uint64((int(rng0[K.STREAM_DECKS]) + max(n - 1, 0) * _GOLDEN) & _M64)
        self._note_chance(st0, rng0)

    def _note_chance(self, st0: np.ndarray, rng0: np.ndarray) -> None:
        """The chance outcomes of one step, read from the state and the streams around it."""
        st1 = self.state
        shuffles = len(_draws(int(rng0[K.STREAM_DECKS]), int(self.rng[K.STREAM_DECKS])))
        piles, sure, unsure = self._piles(), [], []
        for i, (_k, cols, g, n) in enumerate(piles):
            p0, p1 = int(st0[_G + g]), int(st1[_G + g])
            changed = any(not np.array_equal(st0[a:a + n], st1[a:a + n]) for a in cols)
            if p1 < p0 or changed:
                sure.append(i)
            elif p1 - p0 != 0 or p0 >= n:
                unsure.append(i)   # a reshuffle into the same order is possible, if rare
        cost = [len(piles[i][1]) * max(piles[i][3] - 1, 0) for i in range(len(piles))]
        left = shuffles - sum(cost[i] for i in sure)
        again: list[int] = []
        if left:
            # the piles reshuffled into their old order: the subset the stream's draws fit
            for m in range(1, 1 << len(unsure)):
                sub = [unsure[j] for j in range(len(unsure)) if m >> j & 1]
                if sum(cost[i] for i in sub) == left:
                    again = sub
                    break
            else:
                raise RuntimeError(f"the decks stream drew {shuffles}; the reshuffles seen explain "
                                   f"{shuffles - left}")
        for i, (kind, cols, g, n) in enumerate(piles):
            p0, p1 = int(st0[_G + g]), int(st1[_G + g])
            if i in sure or i in again:
                idx = [(0, j) for j in range(p0, n)] + [(1, j) for j in range(p1)]
            else:
                idx = [(1, j) for j in range(p0, p1)]
            for which, j in idx:
                src = st0 if which == 0 else st1
                if kind == "threat":
                    self._chance.append((kind, tuple(int(src[a + j]) for a in cols)))
                else:
                    self._chance.append((kind, int(src[cols[0] + j])))
        for x in _draws(int(rng0[K.STREAM_CHOICES]), int(self.rng[K.STREAM_CHOICES])):
            self._chance.append(("choice", x))
        nf = int(self.packed[0][K.D_PARAMS + K.DP_N_FACES])
        for x in _draws(int(rng0[K.STREAM_DICE]), int(self.rng[K.STREAM_DICE])):
            self._chance.append(("die", (x * nf) >> 32))

    def record(self) -> dict:
        """The batch's record row of this game (``codes.RECORD_FIELDS``)."""
        self._call(PL.OP_RECORD)
        return {k: int(v) for k, v in zip(K.RECORD_FIELDS, self.out)}

    @property
    def result(self) -> dict:
        return self.record()

    def threat_by_turn(self) -> list[int]:
        """Threat units at the start and the end of each turn so far (the batch's row)."""
        n = int(self.rules.get("scenario.turn_limit")) + 1
        return [int(x) for x in self.state[K.S_THREAT_BY_TURN:K.S_THREAT_BY_TURN + n]]

    def alive_by_turn(self) -> list[int]:
        n = int(self.rules.get("scenario.turn_limit")) + 1
        return [int(x) for x in self.state[K.S_ALIVE_BY_TURN:K.S_ALIVE_BY_TURN + n]]

    # ------------------------------------------------------------------ the position
    def g(self, field: int) -> int:
        return int(self.state[_G + field])

    def surv(self, s: int, field: int) -> int:
        return int(self.state[K.S_SURV + s * K.U_W + field])

    def enemies(self) -> list[tuple[int, str, int, int, int]]:
        """Enemies on the board: (slot, kind, place, engaged survivor or -1, damage)."""
        out = []
        for e in range(K.MAX_ENEMIES):
            b = K.S_ENEMIES + e * K.EN_W
            if self.state[b + K.EN_KIND] >= 0:
                out.append((e, K.ENEMIES[int(self.state[b + K.EN_KIND])], int(self.state[b + K.EN_PLACE]),
                            int(self.state[b + K.EN_ENG]), int(self.state[b + K.EN_DMG])))
        return out

    def describe(self) -> str:
        r, st = self.rules, self.state
        t = self.g(K.G_THREAT)
        lvl, unit = r.threat_of(t)
        phase = {K.PH_ORDER: "activation order", K.PH_ACT: "actions", K.PH_PICK: "search card",
                 K.PH_RESERVE: "reserve AP"}.get(self.g(K.G_PHASE), "encounters")
        lines = [f"turn {self.g(K.G_TURN) + 1}, {self.g(K.G_HOUR):02d}:00, threat {lvl} {unit} "
                 f"({t + 1} units), searches {self.g(K.G_SEARCHES)}/{r.get('scenario.searches_needed')}, "
                 f"noise {self.g(K.G_RED_NOISE)} red {self.g(K.G_YELLOW_NOISE)} yellow, "
                 f"Hunter {('box', 'stalk area', 'board', 'dead')[self.g(K.G_HUNTER)]}"]
        if self.over:
            lines.append(f"over: {K.END_CAUSES[self.g(K.G_END_CAUSE)]}")
        else:
            lines.append(f"deciding: {phase}, survivor {self.names[self.g(K.G_CUR)]}")
        for s in range(self.team):
            if not self.surv(s, K.U_ALIVE):
                lines.append(f"  {self.names[s]}: dead")
                continue
            wm, wr = self.surv(s, K.U_MELEE), self.surv(s, K.U_RANGED)
            wn = r.weapon_names
            lines.append(
                f"  {self.names[s]} at {place_name(r, self.surv(s, K.U_PLACE))}: health {self.surv(s, K.U_HEALTH)}, "
                f"stress {self.surv(s, K.U_STRESS)}, infection {self.surv(s, K.U_INFECTION)}, "
                f"SP {self.surv(s, K.U_SP)}, AP {self.surv(s, K.U_AP)}, supplies {self.surv(s, K.U_SUPPLIES)}, "
                f"ammo {self.surv(s, K.U_AMMO)}, {wn[wm] if wm >= 0 else '-'}/{wn[wr] if wr >= 0 else '-'}"
                + (", hidden among corpses" if self.surv(s, K.U_HIDDEN) else ""))
        for p in range(K.MAX_PLACES):
            c = int(st[K.S_PLACES + p * K.P_W + K.P_CORPSES])
            m = int(st[K.S_PLACES + p * K.P_W + K.P_MARKERS])
            if c or m:
                lines.append(f"  {place_name(r, p)}: {c} corpse marker(s), {m} search marker(s)")
        for e, kind, p, eng, dmg in self.enemies():
            who = self.names[eng] if eng >= 0 else "far"
            lines.append(f"  {kind} #{e} at {place_name(r, p)}: {who}, damage {dmg}")
        return "\n".join(lines)

    def violation(self) -> str:
        """The first invariant the position breaks, ``"none"`` when all hold."""
        r, st = self.rules, self.state
        g = self.g
        u = r.get("threat_track.units_per_level")
        if not 0 <= g(K.G_THREAT) < 3 * u:
            return f"threat index {g(K.G_THREAT)} off the track"
        if not 0 <= g(K.G_HOUR) < 24:
            return f"hour {g(K.G_HOUR)}"
        if g(K.G_RED_NOISE) < 0 or g(K.G_YELLOW_NOISE) < 0:
            return "negative noise counters"
        if not self.over and g(K.G_PHASE) in (K.PH_ACT, K.PH_RESERVE, K.PH_PICK) \
                and not self.surv(g(K.G_CUR), K.U_ALIVE):
            return f"the dead {self.names[g(K.G_CUR)]} is deciding"
        eng = self.packed[3]
        cap_eng = int(eng[K.R_PARAMS + K.RP_ENGAGED_CAP])
        cap_tile = int(eng[K.R_PARAMS + K.RP_TILE_CAPACITY])
        for s in range(self.team):
            if not self.surv(s, K.U_ALIVE):
                continue
            h = self.surv(s, K.U_HEALTH)
            if not 1 <= h <= r.get("survivor.health_max"):
                return f"{self.names[s]}'s health {h}"
            if not 0 <= self.surv(s, K.U_STRESS) <= r.get("survivor.stress_max"):
                return f"{self.names[s]}'s stress {self.surv(s, K.U_STRESS)}"
            if not 0 <= self.surv(s, K.U_INFECTION) < r.get("survivor.infection_death"):
                return f"{self.names[s]}'s infection {self.surv(s, K.U_INFECTION)}"
            if not 0 <= self.surv(s, K.U_SP) <= r.get("survivor.sp_cap"):
                return f"{self.names[s]}'s SP {self.surv(s, K.U_SP)}"
            for f in (K.U_AP, K.U_SUPPLIES, K.U_AMMO, K.U_PAINKILLERS, K.U_FIRST_AID, K.U_VACCINES, K.U_GLOVES):
                if self.surv(s, f) < 0:
                    return f"{self.names[s]}'s {K.SURV_FIELDS[f]} is negative"
        counts = [0] * K.N_ENEMIES
        per_place: dict[int, int] = {}
        per_surv = [0] * K.MAX_SURV
        for e, kind, p, s, _dmg in self.enemies():
            counts[K.ENEMIES.index(kind)] += 1
            per_place[p] = per_place.get(p, 0) + 1
            if s >= 0:
                if not self.surv(s, K.U_ALIVE) or self.surv(s, K.U_PLACE) != p:
                    return f"{kind} #{e} engaged with {self.names[s]} elsewhere or dead"
                if self.surv(s, K.U_HIDDEN):
                    return f"{kind} #{e} engaged with {self.names[s]}, who is hidden among corpses"
                per_surv[s] += 1
        if any(n > cap_tile for n in per_place.values()):
            return f"a place holds more than {cap_tile} enemies"
        if any(n > cap_eng for n in per_surv):
            return f"a survivor is engaged with more than {cap_eng} enemies"
        if not r.get("variants.unlimited_miniatures"):
            for k, kind in enumerate(K.ENEMIES):
                box = r.get(f"enemies.{kind}.miniatures")
                left = int(st[K.S_MINIS + k])
                if kind == "hunter":
                    continue
                if left + counts[k] != box:
                    return f"{kind} miniatures: {left} in the box + {counts[k]} on the board != {box}"
            hunter = g(K.G_HUNTER)
            if (hunter == K.HUNTER_BOARD) != (counts[K.E_HUNTER] == 1) or counts[K.E_HUNTER] > 1:
                return f"the Hunter's state {hunter} and {counts[K.E_HUNTER]} on the board disagree"
        return "none"

    def __repr__(self) -> str:
        return f"Game(seed={self.seed}, game={self.game}, team_size={self.team}, over={self.over})"
