"""Differential test of Until Daylight (issue #40): the numba kernels against the reference
engine written apart from the rules (``tests/reference/until_daylight.py``).

Seeded games are driven through both engines at once: the kernel's step ``Game`` decides
(its policy picks among the kernel's candidates), the same choice is applied to the
``Reference``, and every chance outcome the kernel drew (``Game.chance_events()``) is fed to
the reference's ``ScriptedChance``.  After every decision the two must agree on who decides,
what kind of decision it is, the set of legal actions, and what the table looks like; at
the end the records agree field by field and no scripted outcome is left unused.

``SIMLIB_DIFF_GAMES=<n>`` multiplies the number of games (a long run on demand).

Observation keys compared (both engines define them): round, phase, decision, to_move,
leader, first_player (search phase), caught (after the search phase), search_actions
(search phase), trap_supply, barricade_supply, rubble_deck, horde_deck, horde_discard, and
per seat character, health, max_health, xp, slots, slots_used, inventory, traps,
barricades, saved, kept (sorted), area; after the roll, the attack's area, weapon and
rolled faces; the rubble discard pile too (cards looked at are in no pile in either engine
until kept or discarded).

Hidden state compared too: the four piles card by card, the enemies killed by type, and per
seat the kills and the round's ignored / absorbed damage.  The game log: after every
decision, the kernel's trace rows since the last one (``Game._trace_rows``, mapped by
``Adapter.log_events``) and the reference's ``history`` entries since then agree as
multisets, field by field (rolls excepted: their dice are the shared chance outcomes).

Where the kernel asks a choice whose candidates are all one action (the Hipster looking at
two copies of a card), the reference takes it as a forced step; the kernel takes it before
the reference moves on.  The kernel's "use a pickpocket card" and its next decision (whose
card) are the reference's one action ("pickpocket", seat, card).
"""
from __future__ import annotations

import os
from collections import Counter
from typing import Any

import numpy as np
import pytest

from simlib.games.until_daylight import codes as K
from simlib.games.until_daylight.kernels.game_nb import enemies_on_table_nb
from simlib.games.until_daylight.kernels.state_nb import slots_used_nb, xp_nb
from simlib.games.until_daylight.ladder import ruleset_named
from simlib.games.until_daylight.ruleset import Ruleset, load_ruleset
from simlib.games.until_daylight.step import Game

from reference.chance import ChanceMismatch, ScriptedChance
from reference.until_daylight import Reference

SCALE = max(1, int(os.environ.get("SIMLIB_DIFF_GAMES", "1")))
TRACE_CAP = 1 << 16  # trace rows: a whole game's events (chance_events reads them as they come)

REFERENCE = load_ruleset("reference")
CALIBRATED = ruleset_named("calibrated")
TWEAKED = CALIBRATED.override({"variants.survivors_block_attacks": True,
                               "variants.all_raiders_first": True,
                               "variants.trap_rewards": False,
                               "variants.horde_reshuffle": False,
                               "constants.rounds": 6})
# numbers a designer may try: a barricade of 2 H or 3 B, 3 bodies a damage, a 4-dice cap, ...
NUMBERS = CALIBRATED.override({"constants.barricade_heads": 2, "constants.barricade_bodies": 3,
                               "constants.bodies_per_damage": 3, "constants.dice_cap": 4,
                               "constants.trap_heads": 2, "constants.token_limit": 3,
                               "constants.collateral_per_x": 2, "constants.survivor_xp": 2,
                               "constants.stalemate_cap": 3, "constants.rounds": 4,
                               "constants.search_timer.spread": 0})

# the neighbouring parameters the rulesets above set together (trap heads and collateral
# per X 1 and 2 alike; the variants turned on or off in pairs) told apart
NEIGHBOURS = CALIBRATED.override({"constants.trap_heads": 2, "constants.collateral_per_x": 1,
                                  "variants.survivors_block_attacks": True,
                                  "variants.all_raiders_first": False,
                                  "variants.horde_reshuffle": False, "variants.trap_rewards": True})

DECISION = {K.D_SEARCH_ACTION: "turn", K.D_COMBAT_ACTION: "turn", K.D_AMMO: "ammo",
            K.D_PRE_ROLL: "boost", K.D_POST_ROLL: "after_roll", K.D_DISCARD: "discard",
            K.D_KEEP: "keep", K.D_SACRIFICE: "sacrifice", K.D_EXTRA_ATTACK: "adrenaline",
            K.D_AMOUNT: "move", K.D_PICKPOCKET: "pickpocket"}
FACE = {K.FACE_H: "H", K.FACE_B: "B", K.FACE_X: "X"}
FATE = {v: k for k, v in K.FATE_NAMES.items()}
DRAWN_FOR = {0: "action", 1: "reward", 2: "fate"}
CAUSE = {K.CAUSE_NONE: "win", K.CAUSE_CHARACTER_DIED: "character_died",
         K.CAUSE_NO_SURVIVOR: "no_survivor_saved", K.CAUSE_STALEMATE: "stalemate"}


class Disagreement(AssertionError):
    pass


# =========================================================================== the adapter
class Adapter:
    """Kernel codes -> the reference's names, actions, chance kinds, observation, record."""

    def __init__(self, rules: Ruleset):
        self.rules = rules
        packed = rules.pack()
        self.cards = rules.card_names
        self.enemies = rules.enemy_names
        self.chars = rules.character_names
        self.recipes = rules.names("recipes")
        self.card_kind = packed.card_tab[:, K.C_KIND]
        self.enemy_kind = packed.enemy_tab[:, K.E_KIND]
        self.dict = {k: rules.get(k) for k in rules.keys()}

    # ------------------------------------------------------------------ actions
    def actions(self, g: Game, d: int, row) -> list[tuple]:
        """The reference action(s) of one kernel candidate: one, except the kernel's 'use a
        pickpocket card', whose target is its own next decision (the reference names the
        target in the action: every target is listed)."""
        act, a, b = int(row[0]), int(row[1]), int(row[2])
        c = self.cards
        if d in (K.D_SEARCH_ACTION, K.D_COMBAT_ACTION):
            if act == K.A_NOTHING:
                return [("pass",)]
            if act == K.A_DRAW:
                return [("draw",)]
            if act == K.A_CRAFT:
                return [("craft", self.recipes[a])]
            if act == K.A_GIVE:
                return [("give", c[a], b)]
            if act == K.A_TAKE:
                return [("take", c[a], b)]
            if act == K.A_USE and self.card_kind[a] == K.CK_PICKPOCKET:
                inv = g.view.inv
                return [("pickpocket", q, c[t]) for q in range(g.view.n_players)
                        if q != g.to_move for t in range(inv.shape[1]) if inv[q, t] > 0]
            if act == K.A_USE:
                return [("use", c[a])]
            if act == K.A_ATTACK:
                return [("attack", a, c[b])]
        elif d == K.D_AMMO:
            return [("ammo", a)]
        elif d == K.D_PRE_ROLL:
            return [("roll",)] if act == K.A_NOTHING else [("boost", c[a])]
        elif d == K.D_POST_ROLL:
            if act == K.A_NOTHING:
                return [("resolve",)]
            kind = self.card_kind[a]
            return [{K.CK_FOCUS: ("focus",), K.CK_ENERGY_SHOT: ("energy_shot",),
                     K.CK_LUCKY: ("lucky",)}[kind]]
        elif d == K.D_DISCARD:
            return [("discard", c[a])]
        elif d == K.D_KEEP:
            return [("keep", c[a])]
        elif d == K.D_SACRIFICE:
            return [("endure",)] if act == K.A_NOTHING else [("sacrifice",)]
        elif d == K.D_EXTRA_ATTACK:
            return [("done",)] if act == K.A_NOTHING else [("attack", a, c[b])]
        elif d == K.D_AMOUNT:
            return [("move", a)]
        elif d == K.D_PICKPOCKET:
            return [("pickpocket", b, c[a])]
        raise Disagreement(f"kernel candidate {row.tolist()} at decision {d}: no reference form")

    # ------------------------------------------------------------------ chance
    def chance(self, kind: str, value: int) -> tuple[str, Any] | None:
        """A kernel chance event as the reference's (kind, outcome); None: not a chance of the
        reference (the team, given to it in the setup)."""
        if kind == "character":
            return None
        if kind == "timer":
            return "search_timer", value
        if kind == "rubble":
            return "rubble_deck", self.cards[value]
        if kind == "horde":
            return "horde_deck", self.enemies[value]
        if kind == "fate":
            return "fate_die", FATE[value]
        if kind == "attack_die":
            return "attack_die", FACE[value]
        if kind == "lucky_die":
            return "reroll_die", FACE[value]
        if kind == "enemy_die":
            return "enemy_die", FACE[value]
        raise Disagreement(f"kernel chance kind {kind!r} has no reference kind")

    # ------------------------------------------------------------------ observation
    def observation(self, g: Game) -> dict:
        st, v, rs = g.state, g.view, g.rs
        n = v.n_players
        phase = int(st[K.G_PHASE])
        rounds = int(rs[K.P_ROUNDS])
        rnd = int(st[K.G_ROUND])
        if g.over:
            name = "over"
        elif int(st[K.G_PC]) == K.PC_HORDE:
            name = "combat"  # the horde's step (a fate discard): the reference's first combat step
        elif phase == K.PHASE_SEARCH:
            name = "search"
        else:
            name = "final" if rnd >= rounds else "combat"
        d = int(st[K.G_PENDING_D]) if not g.over else -1
        obs: dict[str, Any] = {
            "round": rnd, "phase": name, "decision": DECISION.get(d) if not g.over else None,
            "to_move": g.to_move if not g.over else None,
            "leader": None if st[K.G_LEADER] < 0 else int(st[K.G_LEADER]),
            "trap_supply": int(st[K.G_TRAP_SUPPLY]),
            "barricade_supply": int(st[K.G_BARR_SUPPLY]),
            "rubble_deck": int(st[K.G_RDECK_N]), "rubble_discard": int(v.rdisc.sum()),
            "horde_deck": int(st[K.G_HDECK_N]), "horde_discard": int(v.hdisc.sum()),
        }
        if name == "search":
            obs["first_player"] = int(st[K.G_FIRST])
            if int(st[K.G_PC]) == K.PC_SEARCH_TURN:
                obs["search_actions"] = int(st[K.G_PC_I])
        else:
            obs["caught"] = int(st[K.G_CAUGHT])
        seats = []
        for s in range(n):
            kept = [self.enemies[t] for t in range(v.kept.shape[1])
                    for _ in range(int(v.kept[s, t])) if self.enemy_kind[t] != K.ENEMY_SURVIVOR]
            saved = sum(int(v.kept[s, t]) for t in range(v.kept.shape[1])
                        if self.enemy_kind[t] == K.ENEMY_SURVIVOR)
            seats.append({
                "character": self.chars[int(v.pl[s, K.PL_CHAR])],
                "health": int(v.pl[s, K.PL_HEALTH]), "max_health": int(v.pl[s, K.PL_MAX_HEALTH]),
                "xp": int(xp_nb(st, rs, np.int64(s))),
                "slots": int(self.rules.pack().char_tab[int(v.pl[s, K.PL_CHAR]), K.CH_SLOTS]),
                "slots_used": int(slots_used_nb(st, rs, np.int64(s))),
                "inventory": {self.cards[c]: int(k) for c, k in enumerate(v.inv[s]) if k > 0},
                "traps": int(v.pl[s, K.PL_TRAPS]), "barricades": int(v.pl[s, K.PL_BARRICADES]),
                "saved": saved, "kept": sorted(kept), "area": v.area_cards(s),
            })
        obs["seats"] = seats
        # hidden from the players, compared as the engines' own state: the piles by card
        # (a card sent to the wrong pile, or drawn from the wrong one, shows at once), the
        # enemies killed by type, and each seat's per-round and per-game counters
        obs["piles"] = {
            "rubble_deck": dict(Counter(self.cards[int(c)] for c in v.rdeck[:int(st[K.G_RDECK_N])])),
            "rubble_discard": {self.cards[c]: int(k) for c, k in enumerate(v.rdisc) if k > 0},
            "horde_deck": dict(Counter(self.enemies[int(t)] for t in v.hdeck[:int(st[K.G_HDECK_N])])),
            "horde_discard": {self.enemies[t]: int(k) for t, k in enumerate(v.hdisc) if k > 0},
            "killed": {self.enemies[t]: int(k) for t, k in enumerate(v.killed[:len(self.enemies)])
                       if k > 0},
        }
        obs["counters"] = [{"kills": int(v.pl[s, K.PL_KILLS]), "ignored": int(v.pl[s, K.PL_IGNORED]),
                            "absorbed": int(v.pl[s, K.PL_ABSORBED])} for s in range(n)]
        if d == K.D_POST_ROLL:
            obs["attack"] = {"area": int(st[K.G_CUR_AREA]), "weapon": self.cards[int(st[K.G_CUR_WEAPON])],
                             "rolled": {"H": int(st[K.G_CUR_H]), "B": int(st[K.G_CUR_B]),
                                        "X": int(st[K.G_CUR_X])}}
        return obs

    @staticmethod
    def reference_view(ref: Reference, keys: dict) -> dict:
        """The reference's observation cut to the kernel's keys (same shapes)."""
        o = ref.observation()
        out = {k: o.get(k) for k in keys if k not in ("seats", "attack", "piles", "counters")}
        out["piles"] = {"rubble_deck": dict(ref.rubble_deck), "rubble_discard": dict(ref.rubble_discard),
                        "horde_deck": dict(ref.horde_deck), "horde_discard": dict(ref.horde_discard),
                        "killed": {e: k for e, k in ref.killed.items() if k > 0}}
        for pile in out["piles"].values():
            for c in [c for c, k in pile.items() if k == 0]:
                del pile[c]
        out["counters"] = [{"kills": s.kills, "ignored": s.ignored, "absorbed": s.absorbed}
                           for s in ref.seats]
        out["seats"] = [{k: (sorted(s[k]) if k == "kept" else s[k]) for k in keys["seats"][0]}
                        for s in o["seats"]]
        if "attack" in keys:
            a = o.get("attack") or {}
            rolled = a.get("rolled") or {}
            out["attack"] = {"area": a.get("area"), "weapon": a.get("weapon"),
                             "rolled": {f: rolled.get(f, 0) for f in ("H", "B", "X")}}
        if "inventory" in keys["seats"][0]:
            for s in out["seats"]:
                s["inventory"] = {c: k for c, k in s["inventory"].items() if k > 0}
        return out

    # ------------------------------------------------------------------ record
    def record(self, g: Game) -> dict:
        r = g.result
        v = g.view
        n = v.n_players
        enemy_kind = self.enemy_kind
        return {
            "won": bool(r["outcome"] == K.OUT_WIN),
            "cause": CAUSE[int(r["cause"])],
            "died_seat": None if r["dead_seat"] < 0 else int(r["dead_seat"]),
            "died_round": None if r["dead_round"] < 0 else int(r["dead_round"]),
            "rounds_played": int(r["round_reached"]),
            "exchanges": int(r["exchanges"]),
            "characters": [self.chars[int(r[f"character_{s}"])] for s in range(n)],
            "health": [int(r[f"health_{s}"]) for s in range(n)],
            "xp": [int(r[f"xp_{s}"]) for s in range(n)],
            "survivors_saved": [sum(int(v.kept[s, t]) for t in range(len(self.enemies))
                                    if enemy_kind[t] == K.ENEMY_SURVIVOR) for s in range(n)],
            "kills": [int(r[f"kills_{s}"]) for s in range(n)],
            "monsters_kept": [sum(int(v.kept[s, t]) for t in range(len(self.enemies))
                                  if enemy_kind[t] != K.ENEMY_SURVIVOR) for s in range(n)],
            "killed": {e: int(r[f"killed_{t}"]) for t, e in enumerate(self.enemies)},
            "leader": None if r["leader"] < 0 else int(r["leader"]),
            "enemies_left": int(enemies_on_table_nb(g.state, g.rs)),
        }


    # ------------------------------------------------------------------ game log
    def log_events(self, g: Game, start: int, stop: int) -> list[tuple]:
        """The kernel's trace rows ``start:stop`` as the reference's history entries
        ``(kind, round, seat, *details)``.  Rolls (the attack's and the enemies') are not
        entries: their dice are the chance outcomes both engines share."""
        c, e = self.cards, self.enemies
        out = []
        for row in g._trace_rows(start, stop):
            kind, rnd, s, a, b, cc, d, _ = (int(v) for v in row)
            # the fields after the kind's width are 0 (codes.EV_WIDTH: a trace shows the row)
            empty = [int(v) for v in row[3 + K.EV_WIDTH[kind]:]]
            assert empty == [0] * len(empty), f"trace row {[int(v) for v in row]}: fields after {K.EV_WIDTH[kind]} not 0"
            if kind == K.EV_ROUND:
                out.append(("round", rnd, None, a, b))
            elif kind == K.EV_DRAW:
                out.append(("draw", rnd, s, c[a], DRAWN_FOR[b]))
            elif kind == K.EV_EVENT:
                out.append(("event", rnd, s, c[a]))
            elif kind == K.EV_CRAFT:
                out.append(("craft", rnd, s, "trap" if a == K.TOKEN_TRAP else "barricade"))
            elif kind == K.EV_GIVE:
                out.append(("give", rnd, s, c[a], b, cc))
            elif kind == K.EV_TAKE:
                out.append(("take", rnd, s, c[a], b, cc, bool(d)))
            elif kind == K.EV_USE:
                out.append(("use", rnd, s, c[a]))
            elif kind == K.EV_NOTHING:
                out.append(("nothing", rnd, s))
            elif kind == K.EV_CAUGHT:
                out.append(("caught", rnd, s))
            elif kind == K.EV_FATE:
                out.append(("fate", rnd, s, FATE[a], b))
            elif kind == K.EV_HORDE:
                out.append(("horde", rnd, None, e[a], b))
            elif kind == K.EV_ATTACK:
                out.append(("attack", rnd, s, a, c[b], cc, d))
            elif kind == K.EV_CARD_PLAYED:
                out.append(("played", rnd, s, c[a], b, cc, d))
            elif kind == K.EV_KILL:
                out.append(("kill", rnd, s if s >= 0 else None, e[a], b, bool(cc)))
            elif kind == K.EV_COLLATERAL:
                out.append(("collateral", rnd, s, a, b))
            elif kind == K.EV_TAME:
                out.append(("tame", rnd, s, a, b))
            elif kind == K.EV_TRAP:
                out.append(("trap", rnd, s, a, b))
            elif kind == K.EV_SURVIVOR_KILLED:
                out.append(("survivor_killed", rnd, a))
            elif kind == K.EV_BARRICADE_DOWN:
                out.append(("barricade_down", rnd, s))
            elif kind == K.EV_PROTECTION:
                out.append(("protection", rnd, s, c[a]))
            elif kind == K.EV_DAMAGE:
                out.append(("damage", rnd, s, a, b))
            elif kind == K.EV_IGNORED:
                out.append(("ignored", rnd, s, a if a >= 0 else None))
            elif kind == K.EV_SAVED:
                out.append(("saved", rnd, s, a))
            elif kind == K.EV_LEADER:
                out.append(("leader", rnd, a, b))
            elif kind == K.EV_DISCARD:
                out.append(("discard", rnd, s, c[a], "looked_at" if b == 1 else "chosen"))
            elif kind == K.EV_DEATH:
                out.append(("death", rnd, s))
            elif kind == K.EV_END:
                out.append(("end", rnd, None, a == K.OUT_WIN, CAUSE[b]))
            elif kind == K.EV_HEAL:
                out.append(("heal", rnd, s, a, b))
            elif kind == K.EV_SACRIFICE:
                out.append(("sacrifice", rnd, s))
            elif kind == K.EV_EXCHANGE:
                out.append(("exchange", rnd, None, a))
            elif kind == K.EV_RESHUFFLE:
                out.append(("reshuffle", rnd, None, "horde" if a == 0 else "rubble", b))
            elif kind == K.EV_NO_CARD:
                out.append(("no_card", rnd, s))
            elif kind in (K.EV_ROLL, K.EV_ENEMY_ROLL):
                continue
            else:  # pragma: no cover - a new row kind needs its mapping here
                raise Disagreement(f"unmapped kernel trace row kind {kind}")
        return out


# =========================================================================== the loop
def _diff(a: dict, b: dict, path: str = "") -> list[str]:
    out = []
    for k in sorted(set(a) | set(b), key=str):
        x, y = a.get(k, "<absent>"), b.get(k, "<absent>")
        if isinstance(x, dict) and isinstance(y, dict):
            out += _diff(x, y, f"{path}{k}.")
        elif isinstance(x, list) and isinstance(y, list) and len(x) == len(y) \
                and x and all(isinstance(e, dict) for e in x + y):
            for i, (ex, ey) in enumerate(zip(x, y)):
                out += _diff(ex, ey, f"{path}{k}[{i}].")
        elif x != y:
            out.append(f"{path}{k}: kernel {x!r} != reference {y!r}")
    return out


class Duel:
    """One game through both engines."""

    def __init__(self, rules: Ruleset, seed: int, game: int, players: int, policy: str,
                 params=None):
        self.ad = Adapter(rules)
        self.where = f"seed={seed} game={game} players={players} policy={policy}"
        self.policy = policy
        self.g = Game(seed=seed, game=game, players=players, ruleset=rules, trace=TRACE_CAP,
                      policy=(policy, params))
        self.chance = ScriptedChance()
        self.pushed = 0
        self._push()
        team = [self.ad.chars[int(c)] for c in self.g.view.pl[:players, K.PL_CHAR]]
        self.history: list[str] = []
        self.decisions = 0
        self.logged = 0      # kernel trace rows compared so far
        self.ref_logged = 0  # reference history entries compared so far
        self.ref = self._guard(lambda: Reference(self.ad.dict, {"players": players,
                                                              "characters": team}, self.chance))

    def _push(self) -> None:
        ev = self.g.chance_events()
        for kind, value in ev[self.pushed:]:
            c = self.ad.chance(kind, value)
            if c is not None:
                self.chance.push(*c)
        self.pushed = len(ev)

    def fail(self, what: str, details: list[str] | None = None) -> None:
        lines = [f"{self.where}, decision {self.decisions}: {what}"]
        lines += ["  " + x for x in (details or [])[:25]]
        lines.append("  last actions: " + " | ".join(self.history[-8:]))
        raise Disagreement("\n".join(lines))

    def _guard(self, fn):
        try:
            return fn()
        except (ChanceMismatch, ValueError, KeyError, IndexError) as e:
            self.fail(f"the reference engine stopped: {type(e).__name__}: {e}")

    def _check_log(self, where: str) -> None:
        """The game log since the last decision: the kernel's trace rows against the
        reference's history entries, as multisets (inside one step between two decisions
        the engines may order simultaneous events differently; what happened, to whom,
        with which values, and how often, must agree)."""
        stop = int(self.g.state[K.G_EV_N])
        if stop >= int(self.g.state[K.G_EV_CAP]):
            self.fail("the kernel's trace is full: raise TRACE_CAP")
        got = self.ad.log_events(self.g, self.logged, stop)
        want = self.ref.history[self.ref_logged:]
        self.logged, self.ref_logged = stop, len(self.ref.history)
        if Counter(got) != Counter(want):
            extra = Counter(got) - Counter(want)
            missing = Counter(want) - Counter(got)
            self.fail(f"game logs differ {where}",
                      [f"kernel only: {sorted(extra.elements(), key=repr)}",
                       f"reference only: {sorted(missing.elements(), key=repr)}",
                       f"kernel log: {got}", f"reference log: {want}"])

    def _kernel_apply(self, i: int) -> None:
        self.g.apply(i)
        self._push()

    def _kernel_forced(self) -> None:
        """Take the kernel's choices whose candidates are all one action (two copies of a
        card looked at): the reference takes them as forced steps, and may draw chance
        beyond them at once, so the kernel plays them before the reference moves."""
        g = self.g
        while not g.over:
            d = int(g.state[K.G_PENDING_D])
            acts = {a for row in g.candidates() for a in self.ad.actions(g, d, row)}
            if len(acts) != 1 or d == K.D_PICKPOCKET:
                return
            self.history.append(f"(kernel only) {DECISION[d]} {next(iter(acts))}")
            self._kernel_apply(g.policy_choice())

    def play(self) -> "Duel":
        g, ref, ad = self.g, self.ref, self.ad
        self._kernel_forced()
        while not g.over:
            d = int(g.state[K.G_PENDING_D])
            rows = g.candidates()
            mapped = [ad.actions(g, d, row) for row in rows]
            kset = {a for m in mapped for a in m}
            rset = set(ref.legal_actions())
            if ref.is_over():
                self.fail(f"the reference game is over, the kernel asks seat {g.to_move} "
                          f"for a {DECISION[d]}: {sorted(kset, key=str)}")
            if kset != rset:
                self.fail(f"legal actions differ at a {DECISION[d]} of seat {g.to_move}",
                          [f"kernel only: {sorted(kset - rset, key=str)}",
                           f"reference only: {sorted(rset - kset, key=str)}"])
            self._check_log(f"before a {DECISION[d]} of seat {g.to_move}")
            ko = ad.observation(g)
            ro = ad.reference_view(ref, ko)
            diff = _diff(ko, ro)
            if diff:
                self.fail(f"observations differ at a {DECISION[d]} of seat {g.to_move}", diff)
            i = g.policy_choice()
            choice = mapped[i]
            self._kernel_apply(i)
            if len(choice) > 1:  # the pickpocket's target: the kernel's next decision
                if g.over or int(g.state[K.G_PENDING_D]) != K.D_PICKPOCKET:
                    self.fail("the kernel's pickpocket card asked no target")
                j = g.policy_choice()
                row = g.candidates()[j]
                action = ad.actions(g, K.D_PICKPOCKET, row)[0]
                self._kernel_apply(j)
            else:
                action = choice[0]
            self._kernel_forced()
            self.history.append(f"s{ko['to_move']} {DECISION[d]} {action}")
            self.decisions += 1
            self._guard(lambda action=action: ref.apply(action))
        if not ref.is_over():
            self.fail(f"the kernel game is over, the reference asks seat {ref.to_move()} "
                      f"for {ref.observation()['decision']}: {ref.legal_actions()[:12]}")
        self._check_log("at the end")
        diff = _diff(ad.record(g), ref.record())
        if diff:
            self.fail("final records differ", diff)
        left = self.chance.left()
        if left:
            self.fail("chance outcomes the kernel drew and the reference never used",
                      [f"{k}: {v[:10]}" for k, v in left.items()])
        return self


def _run(rules: Ruleset, seed: int, games: int, policy: str, players=(3, 4, 5, 6)) -> Counter:
    seen = Counter()
    for game in range(games):
        p = players[game % len(players)]
        duel = Duel(rules, seed, game, p, policy).play()
        seen["games"] += 1
        seen["decisions"] += duel.decisions
        seen["won"] += int(duel.g.result["outcome"] == K.OUT_WIN)
    return seen


@pytest.mark.parametrize("rules, games", [(CALIBRATED, 60), (REFERENCE, 40), (TWEAKED, 40),
                                           (NUMBERS, 30), (NEIGHBOURS, 20)],
                         ids=["calibrated", "reference", "tweaked", "numbers", "neighbours"])
def test_random_games_agree(rules, games):
    seen = _run(rules, 40, games * SCALE, "random")
    assert seen["games"] == games * SCALE and seen["decisions"] > games


@pytest.mark.parametrize("rules, games", [(CALIBRATED, 12), (TWEAKED, 8), (NUMBERS, 6)],
                         ids=["calibrated", "tweaked", "numbers"])
def test_baseline_games_agree(rules, games):
    seen = _run(rules, 41, games * SCALE, "baseline")
    assert seen["games"] == games * SCALE and seen["decisions"] > games
    assert seen["won"] > 0 or rules is not CALIBRATED  # the final fight is reached and won


def test_the_rulesets_played_tell_every_parameter_from_its_neighbours():
    """A value read from the key beside it in the kernel's parameter row shows only on a
    ruleset where the two differ: for every pair of neighbouring parameters, one of the
    rulesets this file plays gives them different values."""
    names = {getattr(K, n): n for n in dir(K) if n.startswith("P_") and isinstance(getattr(K, n), int)}
    n = max(names) + 1
    p = np.array([r.pack().params[:n] for r in (CALIBRATED, REFERENCE, TWEAKED, NUMBERS, NEIGHBOURS)])
    same = [(names[i], names[i + 1]) for i in range(n - 1) if (p[:, i] == p[:, i + 1]).all()]
    assert same == [], f"neighbouring parameters equal in every ruleset played: {same}"


@pytest.mark.skipif(SCALE < 2, reason="a search player's kernels compile for minutes from an "
                    "empty cache (the mutant runs): the long run (SIMLIB_DIFF_GAMES >= 2) only")
def test_search_player_games_agree():
    """The rollout player (a small budget, horizon 1) picks other lines than the baseline's."""
    seen = Counter()
    for game in range(SCALE):
        duel = Duel(CALIBRATED, 42, game, 3 + game % 4, "rollout", {"budget": 8, "horizon": 1})
        seen["decisions"] += duel.play().decisions
    assert seen["decisions"] > 0
