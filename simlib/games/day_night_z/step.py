"""Day Night Z in the step model (:class:`simlib.core.step.StepGame`): one adventure, a
decision at a time; ``players`` is the team's size, ``policy`` the team's one player (a
co-operative game: every seat the same), the start hour the ruleset's
``scenario.start_hour`` (a study's hour axis overrides it).  The game is the batch's game
``game`` of ``seed`` for the same team, hour and player (``play.play_games``):

>>> g = Game(1, 0, players=2, ruleset=load_rules().override({"scenario.start_hour": 20})).play()
>>> row = play_games(1, seed=1, team_size=2, start_hour=20)
>>> g.record() == records_frame(row).iloc[0].to_dict() and (g.record_array() == row["records"][0]).all()
True

Chance events are ``(kind, value)`` in the kernel's codes: ``("search", kind)``,
``("spawn", kind)``, ``("encounter", kind)``, ``("surprise", kind)``, ``("exploration",
kind)``, ``("corpse", kind)`` a card drawn from that pile (its kind's index in the data
order, ``rules.names("search")``...; exploration cards ``EXP_*``); ``("threat", (side,
hourglasses, hunter, infection, condition))`` a threat card's columns, each drawn from a
pile of its own; ``("choice", x)`` one of the rules' random picks (the body location
struck, the survivor an ambush or the Hunter comes to), ``x`` the draw's 32 random bits
(the pick among ``n`` is ``(x * n) >> 32``, ``core.rng.randint_nb``); ``("die", face)``
one die of any roll (its face index in the ``dice`` data order).  A reshuffle is no event
(its order shows in the cards drawn).  Within one step the piles come first, then the
picks, then the dice.
"""
from __future__ import annotations

import numpy as np

from ...core.rng import GOLDEN, game_key_nb
from ...core.step import StepGame, draws, stream_seed
from . import codes as K
from .kernels import play_nb as PL
from .kernels.play_nb import step_nb
from .kernels.search_nb import search_run_nb
from .play import packed, play_games  # noqa: F401  (the docstring's)
from .policies import POLICIES, Seat, check_seats_ruleset
from .records import records_frame
from .ruleset import load_rules

_G, _NO_ROW = K.S_GLOBALS, np.zeros(0, np.int64)  # search_run_nb writes by-turn rows for a whole game only
_SEARCH_IDS = frozenset(p.id for p in POLICIES.values() if p.search)
# the draw piles in init_state_nb's order of shuffles: (kind, state columns, position
# global, engine param of the size or None for the spawn deck, sized in the spawn rules)
_DECKS = (("search", (K.S_SDECK,), K.G_POS_SEARCH, K.RP_N_SEARCH), ("spawn", (K.S_XSPAWN,), K.G_POS_SPAWN, None),
          ("encounter", (K.S_EDECK,), K.G_POS_ENC, K.RP_N_ENC), ("surprise", (K.S_UDECK,), K.G_POS_SUR, K.RP_N_SUR),
          ("exploration", (K.S_XDECK,), K.G_POS_EXP, K.RP_N_EXP),
          ("corpse", (K.S_CDECK,), K.G_POS_CORPSE, K.RP_N_CORPSE),
          ("threat", (K.S_T_SIDE, K.S_T_HOURS, K.S_T_HUNTER, K.S_T_INF, K.S_T_COND), K.G_POS_THREAT, K.RP_N_THREAT))


_GOOD_WORDS = {"supplies": "a supply", "ammo": "a unit of ammunition", "battery": "a battery unit",
               "painkillers": "painkillers", "first_aid": "a first-aid kit", "vaccine": "a vaccine",
               "flashlight": "the flashlight", "suppressor": "the suppressor",
               "ranged": "his ranged weapon for the other's", "melee": "his melee weapon for the other's"}


def place_name(rules, p: int) -> str:
    """A place in words: a city zone ``zone (row, col)`` with its kind, or a location tile."""
    p, eng = int(p), rules.pack_engine()
    if p < 0:
        return "nowhere"
    if p < K.MAX_ZONES:
        r, c = divmod(p, rules.get("city.cols"))
        loc = int(eng[K.R_ZONE_LOC + p])
        extra = f", access to {rules.names('locations')[loc]}" if loc >= 0 else ""
        return f"zone ({r},{c}) {('street', 'alley', 'surprise zone', 'exit')[int(eng[K.R_ZONES + p])]}{extra}"
    loc, t = divmod(p - K.MAX_ZONES, K.MAX_TILES)
    return f"{rules.names('locations')[loc]} tile {t + 1}"


class Game(StepGame):
    """One Day Night Z adventure, a decision at a time (the state: one int64 array)."""

    display_name, Seat, default_policy = "Day Night Z", Seat, "baseline"
    load_ruleset = staticmethod(load_rules)
    study_index = None  # the records' game column: a study's index (default: ``game``)

    def _table(self, players, seats, policy) -> dict:
        out = super()._table(self.rules.max_players() if players is None and seats is None else players,
                             seats, policy)
        if len(set(self.seats)) > 1:
            raise ValueError(f"Day Night Z is co-operative: one player for the whole team; got "
                             f"{', '.join(s.label for s in self.seats)}")
        return out

    def _deal(self) -> None:
        check_seats_ruleset(self.seats, self.rules)
        self.team, self.hour = len(self.seats), int(self.rules.get("scenario.start_hour"))
        self.pid, self.par = POLICIES[self.seats[0].policy].id, self.seats[0].vector()
        self.packed, self.names = packed(self.rules), list(self.rules.get("scenario.team"))
        self.state, self.rng = np.zeros(K.S_SIZE, np.int64), np.zeros(K.N_STREAMS, np.uint64)
        self.legal, self.out = np.zeros(K.MAX_LEGAL, np.int64), np.zeros(K.REC_SIZE, np.int64)
        self._call(PL.OP_INIT)
        # the chance of the setup: the piles as init_state_nb shuffled them, before any draw
        # (the shuffles' draws counted as made before the step)
        key = int(game_key_nb(np.int64(self.seed), np.int64(self.game)))
        rng0 = [stream_seed(key, s) for s in range(K.N_STREAMS)]
        st0 = self.state.copy()
        for _k, cols, g, n in self._piles():
            st0[_G + g] = 0
            rng0[K.STREAM_DECKS] += len(cols) * max(n - 1, 0) * int(GOLDEN)
        self._note_chance(st0, rng0)

    def _call(self, op: int, a: int = 0, pid: int | None = None, par: np.ndarray | None = None) -> int:
        pid, par = self.pid if pid is None else pid, self.par if par is None else par
        args = (np.int64(op), self.state, self.rng, *self.packed, np.int64(self.seed), np.int64(self.game),
                np.int64(self.team), np.int64(self.hour))
        if pid in _SEARCH_IDS and op in (PL.OP_CHOOSE, PL.OP_PLAY):  # a search player's choices
            return int(search_run_nb(*args, np.int64(pid), par, self.legal, self.out, _NO_ROW, _NO_ROW))
        return int(step_nb(*args, np.int64(a), np.int64(pid), par, self.legal, self.out))

    over = property(lambda self: bool(self.state[_G + K.G_OVER]))
    to_move = property(lambda self: -1 if self.over else self.g(K.G_CUR))

    def legal_codes(self) -> list[int]:
        return [] if self.over else [int(x) for x in self.legal[:self._call(PL.OP_LEGAL)]]

    def _step(self, code: int) -> bool:
        st0, rng0 = self.state.copy(), self.rng.copy()
        ok = self._call(PL.OP_APPLY, a=code)
        self._note_chance(st0, rng0)
        return bool(ok)

    def _choose(self, seat) -> int:
        if seat is not None:
            check_seats_ruleset([seat], self.rules)
        return self._call(PL.OP_CHOOSE) if seat is None else \
            self._call(PL.OP_CHOOSE, pid=POLICIES[seat.policy].id, par=seat.vector())

    def action_words(self, a: int) -> str:
        kind, arg, sp = a // K.ACT_KIND, (a % K.ACT_KIND) // K.ACT_ARG, a % K.ACT_ARG
        sp = f" +{sp} SP" if sp else ""
        if kind == K.AC_ACTIVATE:
            return f"activate {self.names[arg]}"
        if kind == K.AC_END:
            return "end the activation (keep the AP in reserve)"
        if kind == K.AC_MOVE:
            return f"move to {place_name(self.rules, arg)}{sp}"
        if kind in (K.AC_MELEE, K.AC_SHOOT):
            what = K.ENEMIES[int(self.state[K.S_ENEMIES + arg * K.EN_W + K.EN_KIND])]
            return f"{'melee' if kind == K.AC_MELEE else 'shoot'} the {what} #{arg}{sp}"
        if kind == K.AC_PICK:
            return f"keep search card {self.rules.names('search')[int(self.state[K.S_PICKS + arg])]} (#{arg}){sp}"
        if kind == K.AC_GIVE:
            b = self.names[arg // (2 * K.N_GOODS)]
            me = self.names[int(self.state[K.S_GLOBALS + K.G_CUR])]
            giver, taker = (me, b) if (arg // K.N_GOODS) % 2 == 0 else (b, me)
            return f"exchange: {giver} gives {taker} {_GOOD_WORDS[K.GOODS[arg % K.N_GOODS]]}"
        if kind == K.AC_SET_TRAP:
            hands = [h for bit, h in ((K.TRAP_MELEE, "melee"), (K.TRAP_RANGED, "ranged")) if arg & bit]
            return f"set a trap (stuff for traps + the {' and '.join(hands)} weapon){sp}"
        if kind == K.AC_COMBINE:
            return f"combine into {self.rules.names('search')[arg]}"
        return K.ACTIONS[kind].replace("_", " ") + sp

    def record_array(self) -> np.ndarray:
        self._call(PL.OP_RECORD)
        return self.out.copy()

    def _frame(self, rows):
        return records_frame({"records": rows, "threat_by_turn": [self.threat_by_turn()],
                              "alive_by_turn": [self.alive_by_turn()]},
                             np.array([self.game if self.study_index is None else self.study_index]))

    def threat_by_turn(self) -> list[int]:
        """Threat units at the start and the end of each turn so far (the batch's row)."""
        return [int(x) for x in self.state[K.S_THREAT_BY_TURN:][:int(self.rules.get("scenario.turn_limit")) + 1]]

    def alive_by_turn(self) -> list[int]:
        return [int(x) for x in self.state[K.S_ALIVE_BY_TURN:][:int(self.rules.get("scenario.turn_limit")) + 1]]

    # ------------------------------------------------------------------ chance
    def _piles(self):
        """(kind, state columns, position global, size) of each draw pile."""
        return [(k, cols, g, int(self.packed[2][K.X_PARAMS + K.SP_N_CARDS]) if p is None
                 else int(self.packed[3][K.R_PARAMS + p])) for k, cols, g, p in _DECKS]

    def _note_chance(self, st0: np.ndarray, rng0) -> None:
        """The chance outcomes of one step, read from the state and the streams around it."""
        st1, piles = self.state, self._piles()
        shuffles = len(draws(int(rng0[K.STREAM_DECKS]), int(self.rng[K.STREAM_DECKS])))
        sure, unsure = [], []
        for i, (_k, cols, g, n) in enumerate(piles):
            p0, p1 = int(st0[_G + g]), int(st1[_G + g])
            if p1 < p0 or any(not np.array_equal(st0[a:a + n], st1[a:a + n]) for a in cols):
                sure.append(i)
            elif p1 != p0 or p0 >= n:
                unsure.append(i)   # a reshuffle into the same order is possible, if rare
        cost = [len(cols) * max(n - 1, 0) for _k, cols, _g, n in piles]
        left, again = shuffles - sum(cost[i] for i in sure), []
        if left:  # the piles reshuffled into their old order: the subset the stream's draws fit
            again = next((sub for m in range(1, 1 << len(unsure))
                          for sub in [[u for j, u in enumerate(unsure) if m >> j & 1]]
                          if sum(cost[i] for i in sub) == left), None)
            if again is None:
                raise RuntimeError(f"the decks stream drew {shuffles}; the reshuffles seen explain "
                                   f"{shuffles - left}")
        for i, (kind, cols, g, n) in enumerate(piles):
            p0, p1 = int(st0[_G + g]), int(st1[_G + g])
            idx = [(st0, j) for j in range(p0, n)] + [(st1, j) for j in range(p1)] \
                if i in sure or i in again else [(st1, j) for j in range(p0, p1)]
            self._chance += [(kind, tuple(int(src[a + j]) for a in cols) if kind == "threat"
                              else int(src[cols[0] + j])) for src, j in idx]
        self._chance += [("choice", x) for x in draws(int(rng0[K.STREAM_CHOICES]), int(self.rng[K.STREAM_CHOICES]))]
        nf = int(self.packed[0][K.D_PARAMS + K.DP_N_FACES])
        self._chance += [("die", (x * nf) >> 32) for x in draws(int(rng0[K.STREAM_DICE]), int(self.rng[K.STREAM_DICE]))]

    # ------------------------------------------------------------------ the position
    def g(self, field: int) -> int:
        return int(self.state[_G + field])

    def surv(self, s: int, field: int) -> int:
        return int(self.state[K.S_SURV + s * K.U_W + field])

    def enemies(self) -> list[tuple[int, str, int, int, int]]:
        """Enemies on the board: (slot, kind, place, engaged survivor or -1, damage)."""
        st, b = self.state, K.S_ENEMIES
        return [(e, K.ENEMIES[int(st[b + e * K.EN_W + K.EN_KIND])], *(int(st[b + e * K.EN_W + f]) for f in
                 (K.EN_PLACE, K.EN_ENG, K.EN_DMG))) for e in range(K.MAX_ENEMIES) if st[b + e * K.EN_W + K.EN_KIND] >= 0]

    def _chooser(self) -> str:
        return "choices:"

    def _lines(self) -> list[str]:
        r, st, g, su = self.rules, self.state, self.g, self.surv
        lvl, unit = r.threat_of(g(K.G_THREAT))
        phase = {K.PH_ORDER: "activation order", K.PH_ACT: "actions", K.PH_PICK: "search card",
                 K.PH_RESERVE: "reserve AP"}.get(g(K.G_PHASE), "encounters")
        lines = [f"turn {g(K.G_TURN) + 1}, {g(K.G_HOUR):02d}:00, threat {lvl} {unit} ({g(K.G_THREAT) + 1} units), "
                 f"searches {g(K.G_SEARCHES)}/{r.get('scenario.searches_needed')}, noise {g(K.G_RED_NOISE)} red "
                 f"{g(K.G_YELLOW_NOISE)} yellow, Hunter {('box', 'stalk area', 'board', 'dead')[g(K.G_HUNTER)]}",
                 f"over: {K.END_CAUSES[g(K.G_END_CAUSE)]}" if self.over
                 else f"deciding: {phase}, survivor {self.names[g(K.G_CUR)]}"]
        wn = r.weapon_names
        for s in range(self.team):
            wm, wr = su(s, K.U_MELEE), su(s, K.U_RANGED)
            lines.append(f"  {self.names[s]}: dead" if not su(s, K.U_ALIVE) else
                         f"  {self.names[s]} at {place_name(r, su(s, K.U_PLACE))}: health {su(s, K.U_HEALTH)}, "
                         f"stress {su(s, K.U_STRESS)}, infection {su(s, K.U_INFECTION)}, SP {su(s, K.U_SP)}, "
                         f"AP {su(s, K.U_AP)}, supplies {su(s, K.U_SUPPLIES)}, ammo {su(s, K.U_AMMO)}, "
                         f"{wn[wm] if wm >= 0 else '-'}/{wn[wr] if wr >= 0 else '-'}"
                         + (", hidden among corpses" if su(s, K.U_HIDDEN) else "")
                         + (f", stuff for traps {su(s, K.U_TRAP_STUFF)}" if su(s, K.U_TRAP_STUFF) else "")
                         + (", components " + "+".join(n for i, n in enumerate(r.names("search"))
                                                      if su(s, K.U_PARTS) >> i & 1) if su(s, K.U_PARTS) else ""))
        for p in range(K.MAX_PLACES):
            c, m, t = (int(st[K.S_PLACES + p * K.P_W + f]) for f in (K.P_CORPSES, K.P_MARKERS, K.P_TRAP))
            if c or m:
                lines.append(f"  {place_name(r, p)}: {c} corpse marker(s), {m} search marker(s)"
                             + (f", a trap marker (damage {t})" if t else ""))
            elif t:
                lines.append(f"  {place_name(r, p)}: a trap marker (damage {t})")
        return lines + [f"  {kind} #{e} at {place_name(r, p)}: {self.names[eng] if eng >= 0 else 'far'}, "
                        f"damage {dmg}" for e, kind, p, eng, dmg in self.enemies()]

    def _violation(self) -> str:
        """The threat on its track, the hour, noise, a living decider; each living
        survivor's health, stress, infection, SP and stocks within bounds; enemies engaged
        with a living, visible survivor at their place, places and survivors within their
        capacities, the miniatures counted (box + board)."""
        r, st, g, su, name = self.rules, self.state, self.g, self.surv, self.names
        if not 0 <= g(K.G_THREAT) < 3 * r.get("threat_track.units_per_level"):
            return f"threat index {g(K.G_THREAT)} off the track"
        if not 0 <= g(K.G_HOUR) < 24:
            return f"hour {g(K.G_HOUR)}"
        if g(K.G_RED_NOISE) < 0 or g(K.G_YELLOW_NOISE) < 0:
            return "negative noise counters"
        if not self.over and g(K.G_PHASE) in (K.PH_ACT, K.PH_RESERVE, K.PH_PICK) and not su(g(K.G_CUR), K.U_ALIVE):
            return f"the dead {name[g(K.G_CUR)]} is deciding"
        bounds = ((K.U_HEALTH, 1, r.get("survivor.health_max")), (K.U_STRESS, 0, r.get("survivor.stress_max")),
                  (K.U_INFECTION, 0, r.get("survivor.infection_death") - 1), (K.U_SP, 0, r.get("survivor.sp_cap")))
        for s in (s for s in range(self.team) if su(s, K.U_ALIVE)):
            for f, lo, hi in bounds:
                if not lo <= su(s, f) <= hi:
                    return f"{name[s]}'s {K.SURV_FIELDS[f]} {su(s, f)}"
            for f in (K.U_AP, K.U_SUPPLIES, K.U_AMMO, K.U_PAINKILLERS, K.U_FIRST_AID, K.U_VACCINES, K.U_GLOVES):
                if su(s, f) < 0:
                    return f"{name[s]}'s {K.SURV_FIELDS[f]} is negative"
        counts, per_place, per_surv = [0] * K.N_ENEMIES, {}, [0] * K.MAX_SURV
        for e, kind, p, s, _dmg in self.enemies():
            counts[K.ENEMIES.index(kind)] += 1
            per_place[p] = per_place.get(p, 0) + 1
            if s >= 0:
                if not su(s, K.U_ALIVE) or su(s, K.U_PLACE) != p:
                    return f"{kind} #{e} engaged with {name[s]} elsewhere or dead"
                if su(s, K.U_HIDDEN):
                    return f"{kind} #{e} engaged with {name[s]}, who is hidden among corpses"
                per_surv[s] += 1
        eng = self.packed[3]
        cap_tile, cap_eng = (int(eng[K.R_PARAMS + p]) for p in (K.RP_TILE_CAPACITY, K.RP_ENGAGED_CAP))
        if any(n > cap_tile for n in per_place.values()):
            return f"a place holds more than {cap_tile} enemies"
        if any(n > cap_eng for n in per_surv):
            return f"a survivor is engaged with more than {cap_eng} enemies"
        if not r.get("variants.unlimited_miniatures"):
            for k, kind in enumerate(K.ENEMIES):
                box, left = r.get(f"enemies.{kind}.miniatures"), int(st[K.S_MINIS + k])
                if kind != "hunter" and left + counts[k] != box:
                    return f"{kind} miniatures: {left} in the box + {counts[k]} on the board != {box}"
            if (g(K.G_HUNTER) == K.HUNTER_BOARD) != (counts[K.E_HUNTER] == 1) or counts[K.E_HUNTER] > 1:
                return f"the Hunter's state {g(K.G_HUNTER)} and {counts[K.E_HUNTER]} on the board disagree"
        return "none"

