"""Differential test of Day Night Z (issue #40): the numba kernels (``step.Game``) and the
reference engine written apart (``tests/reference/day_night_z.py``) play the same seeded
games, the kernel's chance outcomes (``Game.chance_events()``) scripted into the reference.

After every decision the legal actions (mapped to the reference's action tuples) and the
visible position agree; at the end the records agree field by field and no scripted
outcome is left unused.  Compared position: the turn, the hour, the threat unit, the noise
counters, the successful searches, the Hunter's state; each survivor's life, place,
health, stress, infection, SP, supplies, ammunition, hiding, defensive position, weapons
and items; every enemy on the board (place, kind, wounds, engaged survivor, slot); the
corpse and search markers where a survivor stands; the pending decision, its survivor and
his AP.

The reference asks a few decisions the kernel takes itself (its documented readings): the
SP of a check the rules force (the kernel rolls without SP: answered 0), staying hidden at
the start of an activation (the kernel rolls the dice again; leaving is a free action
later), the target of sweep's free attack (the kernel's: the engaged enemy with the least
health left, once), and any decision with one legal action (the kernel takes it, uncounted).
These are answered here as the kernel answers them and are not counted as decisions.

Tile terrain (§3.10, the docs page's "Tile terrain"): the preset ``tiles``, rulesets with
every location tile of one kind, another layout with every terrain parameter at 2 and the
cover / high-ground flags, at 08:00, 14:00, 20:00 and 01:00, teams 1-4, both players.

Jumps (§4.10, the same section's "jump" row): every location tile a tile to jump from, on
the reference city, on one whose access zones are alleys and an exit, and under the tiles
preset's terrain with a dearer jump without penalty; teams 1-4, four start hours, the
baseline jumping whenever it may on its way out (``jump_saves`` 0) or when it saves a move
(1), the random player and a "jumpy" one (the baseline or the random player, jumping or
hiding at random where it may); a count of the jumps compared and a check that a reference
ignoring the jump is caught.

Exchanges (§4.6, the docs page's **Exchanges**): the gives are mapped to the reference's
``("give", partner, direction, good)`` and the active survivor's gives left in his open
exchange are compared after every decision; the random player and the sharing baseline
give in the games above, and "exchanges" games (kits, flashlights, suppressors and slow
guns common, the clock mostly held, teams 2-4, a player that gives where it may and walks
to a teammate while anyone holds a card) hand every good over both ways; a count of the
gives compared and a check that a reference with a free exchange, a give fewer or a
flashlight handed over without its light is caught.  A slow weapon shot this turn and
then swapped keeps its mark (``test_a_slow_weapon_swapped_after_its_shot``: the kernel
kept the mark with the survivor until this test found it).

Traps and combined cards (§4.4, §4.5, the docs page's "Traps and combined cards"): the
set-trap codes map to ``("set_trap", arg, sp)`` and the combine codes to ``("combine",
card)``; each survivor's stuff for traps cards and component cards, the trap marker of
every place (where a survivor stands, and every place in the hidden state), the traps set,
fired and killing and the cards combined (the records' ``traps_set``, ``trap_kills``,
``cards_combined``) are compared.  The preset ``traps`` and three trap-heavy rulesets
("common", "kits", "cap1") with the random player, the baseline and a "trappy" one; a count
of the traps and combinations compared and a check that a reference whose trap never
fires, or fires harmless, is caught.  A disagreement these games found that is not the
traps' (an empty surprise tile and the street card) is pinned ``xfail(strict=True)``.

The Hunter: games started at 01:00 with his icon on most threat cards, and games started
at 19:00 with a Hunter of 2 health (``weak_hunter``) in which he is spawned, wounded and
killed (a check that these games reach a kill).

``SIMLIB_DIFF_GAMES=<n>`` multiplies the number of games (a long run on demand).
"""
from __future__ import annotations

import os
import random
from collections import Counter

import numpy as np
import pytest

from simlib.games.day_night_z import codes as K
from simlib.games.day_night_z.step import Game
from simlib.games.day_night_z.study import at_hour, load_rules
from simlib.games.day_night_z.ruleset import load_ruleset
from tests.reference.chance import ScriptedChance
from tests.reference.day_night_z import Reference

MULT = max(1, int(os.environ.get("SIMLIB_DIFF_GAMES", "1")))
_G = K.S_GLOBALS
_DIE_KINDS = ("check_die", "attack_die", "enemy_die", "infection_die", "fire_die")
_PICK_KINDS = ("hunter_target", "ambush_target")
_HOURS = ("zero", "one", "two")
_CONDS = ("noisy_weapon", "ambush", "red_stress", "nothing")   # codes.COND_* order
_HUNTER = ("box", "stalk", "board", "dead")                     # codes.HUNTER_* order


class KernelChance(ScriptedChance):
    """The kernel's chance events as the reference's draws: every die of any roll from one
    queue (the kernel has one dice stream), the rules' random picks from the raw draws
    (``(x * n) >> 32`` over the reference's options, the kernel's ``randint_nb``)."""

    def __init__(self, rules):
        super().__init__()
        self.faces = list(rules.names("dice"))
        self.names = {k: list(rules.names(sec)) for k, sec in
                      (("search", "search"), ("spawn", "spawn"), ("encounter", "encounters"),
                       ("surprise", "surprises"), ("corpse", "corpses"))}
        self.exploration = {}
        for name in rules.names("exploration"):
            self.exploration.setdefault(K.EXPLORATION_KINDS.index(rules.get(f"exploration.{name}.kind")), name)

    def push_kernel(self, kind: str, v) -> None:
        if kind == "die":
            self.push("die", self.faces[v])
        elif kind == "choice":
            self.push("choice", v)
        elif kind == "threat":
            side, hours, hunter, inf, cond = v
            self.push("threat_a", K.SIDE_A[side])
            self.push("threat_hourglasses", _HOURS[hours])
            self.push("threat_hunter", "hunter" if hunter else "no_hunter")
            self.push("threat_infection", "infection" if inf else "no_infection")
            self.push("threat_condition", _CONDS[cond])
        elif kind == "exploration":
            self.push("exploration_deck", self.exploration[v])
        else:
            ref_kind = {"search": "search_deck", "spawn": "spawn_deck", "encounter": "encounter_deck",
                        "surprise": "surprise_deck", "corpse": "corpse_pile"}[kind]
            self.push(ref_kind, self.names[kind][v])

    def draw(self, kind, options):
        if kind in _DIE_KINDS:
            out = super().draw("die", options)
        elif kind == "threat_location":
            x = super().draw("choice", [self.queues["choice"][0]] if self.queues.get("choice") else [])
            out = K.BODY_LOCATIONS[(x * K.N_BODY) >> 32]
            assert out in options, f"struck location {out} not among the reference's {options}"
        elif kind in _PICK_KINDS:
            x = super().draw("choice", [self.queues["choice"][0]] if self.queues.get("choice") else [])
            out = options[(x * len(options)) >> 32]
        else:
            return super().draw(kind, options)
        self.history.append((kind, out))
        return out


# ------------------------------------------------------------------ the adapter
def k_place(rules, p: int):
    """A kernel place as ("z", r, c) or ("t", location, tile index)."""
    if p < K.MAX_ZONES:
        return ("z",) + divmod(int(p), int(rules.get("city.cols")))
    loc, t = divmod(int(p) - K.MAX_ZONES, K.MAX_TILES)
    return ("t", rules.names("locations")[loc], t)


def r_place(tid, zone):
    if tid is None or tid.startswith("city:"):
        return ("z", int(zone[0]), int(zone[1]))
    loc, i = tid.split(":")
    return ("t", loc, int(i))


def _tid_place(tid, t):
    if tid.startswith("city:"):
        return ("z", int(t["zone"][0]), int(t["zone"][1]))
    loc, i = tid.split(":")
    return ("t", loc, int(i))


def su(g, s, f):
    return int(g.state[K.S_SURV + s * K.U_W + f])


def to_ref(g: Game, a: int) -> tuple:
    """Kernel action code ``a`` as the reference's action tuple."""
    kind, arg, sp = a // K.ACT_KIND, (a % K.ACT_KIND) // K.ACT_ARG, a % K.ACT_ARG
    r = g.rules
    s = g.g(K.G_CUR)
    if kind == K.AC_ACTIVATE:
        return ("activate", arg)
    if kind == K.AC_END:
        return ("end",)
    if kind == K.AC_MOVE:
        here, there = k_place(r, su(g, s, K.U_PLACE)), k_place(r, arg)
        engaged = any(e[3] == s for e in g.enemies())
        tail = (sp,) if engaged else ()
        if there[0] == "z":
            return (("move", there[1], there[2]) if here[0] == "z" else ("exit_location",)) + tail
        return (("enter", there[1]) if here[0] == "z" else ("tile", there[2])) + tail
    if kind in (K.AC_MELEE, K.AC_SHOOT):
        w = su(g, s, K.U_MELEE if kind == K.AC_MELEE else K.U_RANGED)
        return ("attack", r.weapon_names[w], ("slot", arg), sp)
    if kind == K.AC_JUMP:
        return ("jump", sp)
    if kind == K.AC_GIVE:
        # (partner * 2 + direction) * N_GOODS + good; direction 0: the active survivor gives
        pair, good = divmod(arg, K.N_GOODS)
        return ("give", pair // 2, pair % 2, K.GOODS[good])
    if kind == K.AC_SET_TRAP:
        return ("set_trap", arg, sp)
    if kind == K.AC_COMBINE:
        return ("combine", r.names("search")[arg])
    if kind == K.AC_PICK:
        return ("keep", r.names("search")[int(g.state[K.S_PICKS + arg])], sp)
    simple = {K.AC_SEARCH: ("search_zone",), K.AC_EAT: ("eat",), K.AC_PAINKILLER: ("painkillers",),
              K.AC_DEFEND: ("defend",), K.AC_REST: ("rest",), K.AC_LOWER_THREAT: ("lower_threat",),
              K.AC_SEARCH_CORPSE: ("search_corpse",), K.AC_HIDE: ("hide",),
              K.AC_STOP_HIDING: ("leave_hiding",)}
    if kind in simple:
        return simple[kind]
    return ({K.AC_SEARCH_ITEM: "search_item", K.AC_FIRST_AID: "first_aid", K.AC_VACCINE: "vaccine"}[kind], sp)


def ref_slots(ref: Reference, a: tuple) -> tuple:
    """A reference action with its enemy id written as ("slot", its slot) (both engines
    number enemies by the lowest free slot)."""
    if a[0] in ("attack",):
        e = next(x for t in ref.tiles.values() for x in t["enemies"] if x["id"] == a[2])
        return a[:2] + (("slot", e["slot"]),) + a[3:]
    return a


def slot_to_id(ref: Reference, a: tuple) -> tuple:
    if a[0] == "attack":
        e = next(x for t in ref.tiles.values() for x in t["enemies"] if x["slot"] == a[2][1])
        return a[:2] + (e["id"],) + a[3:]
    return a


def k_obs(g: Game) -> dict:
    r, st = g.rules, g.state
    sv = []
    for s in range(g.team):
        alive = su(g, s, K.U_ALIVE) == 1
        ws = []
        m, rg = su(g, s, K.U_MELEE), su(g, s, K.U_RANGED)
        if m >= 0 and r.weapon_names[m] != "fists":
            ws.append(r.weapon_names[m])
        if rg >= 0:
            ws.append(r.weapon_names[rg])
        items = Counter()
        for i, loc in enumerate(K.BODY_LOCATIONS):
            if su(g, s, K.U_ARMOUR + i):
                items["armour_" + loc] = su(g, s, K.U_ARMOUR + i)
        for f, name in ((K.U_PAINKILLERS, "painkillers"), (K.U_FIRST_AID, "first_aid"), (K.U_VACCINES, "vaccine"),
                        (K.U_SUPPRESSOR, "suppressor"), (K.U_FLASHLIGHT, "flashlight")):
            if su(g, s, f):
                items[name] = su(g, s, f)
        # traps and combined cards (§4.4, §4.5): the stuff for traps cards, the component
        # cards (a bit a search card)
        if su(g, s, K.U_TRAP_STUFF):
            items["trap_stuff"] = su(g, s, K.U_TRAP_STUFF)
        for c, name in enumerate(r.names("search")):
            if su(g, s, K.U_PARTS) >> c & 1:
                items[name] = 1
        sv.append({"alive": alive, "place": k_place(r, su(g, s, K.U_PLACE)) if alive else None,
                   "health": su(g, s, K.U_HEALTH) if alive else None, "stress": su(g, s, K.U_STRESS),
                   "infection": su(g, s, K.U_INFECTION), "sp": su(g, s, K.U_SP),
                   "supplies": su(g, s, K.U_SUPPLIES), "ammo": su(g, s, K.U_AMMO),
                   "hidden": bool(su(g, s, K.U_HIDDEN)) if alive else False,
                   "defending": bool(su(g, s, K.U_DEFENDING)), "weapons": sorted(ws), "items": dict(items),
                   # batteries (§4.2): the units, the light left, the turns a unit gives
                   "lamp": (su(g, s, K.U_BATTERY), su(g, s, K.U_LIGHT), su(g, s, K.U_LIGHT_TURNS))
                   if alive else None})
    enemies: dict = {}
    for e, kind, p, eng, dmg in g.enemies():
        enemies.setdefault(k_place(r, p), []).append((e, kind, dmg, None if eng < 0 else eng))
    marks = {}
    for s in range(g.team):
        if su(g, s, K.U_ALIVE):
            p = su(g, s, K.U_PLACE)
            b = K.S_PLACES + p * K.P_W
            q = k_place(r, p)
            marks[q] = (int(st[b + K.P_CORPSES]), int(st[b + K.P_MARKERS]) if q[0] == "t" else 0,
                        int(st[b + K.P_TRAP]))
    ph = g.g(K.G_PHASE)
    pend = {K.PH_ORDER: "activate", K.PH_ACT: "act", K.PH_RESERVE: "reserve", K.PH_PICK: "keep"}.get(ph)
    cur = g.g(K.G_CUR)
    return {"turn": g.g(K.G_TURN) + 1, "hour": g.g(K.G_HOUR), "threat": g.g(K.G_THREAT) + 1,
            "noise": (g.g(K.G_RED_NOISE), g.g(K.G_YELLOW_NOISE)), "searches": g.g(K.G_SEARCHES),
            "hunter": _HUNTER[g.g(K.G_HUNTER)], "survivors": sv,
            "enemies": {k: sorted(v) for k, v in enemies.items()}, "markers": marks,
            "pending": pend, "who": None if pend == "activate" else cur,
            "ap": None if pend in ("activate", "keep") else su(g, cur, K.U_AP),
            # exchanges (§4.6): the gives left in the active survivor's open exchange
            "exchange": su(g, cur, K.U_EXCHANGE) if pend in ("act", "reserve") else None}


def r_obs(ref: Reference) -> dict:
    R = ref.R
    sv = []
    for i, x in enumerate(ref.sv):
        items = Counter()
        for c in x["cards"]:
            kind = R[f"search.{c}.kind"]
            if kind == "armour":
                items["armour_" + R[f"search.{c}.location"]] += 1
            elif kind in ("suppressor", "flashlight"):
                items[kind] = 1      # the kernel holds these as a flag: a second one adds nothing
            elif kind == "component":
                items[c] += 1        # one of each component card (by name)
            elif kind != "weapon":
                items[kind] += 1
        sv.append({"alive": x["alive"], "place": r_place(x["tile"], x["zone"]) if x["alive"] else None,
                   "health": x["health"] if x["alive"] else None, "stress": x["stress"], "infection": x["infection"],
                   "sp": x["sp"], "supplies": x["supplies"], "ammo": x["ammo"], "hidden": x["hidden"],
                   "defending": x["defending"], "weapons": sorted(x["weapons"]), "items": dict(items),
                   "lamp": (x["battery"], x["light"], ref._light_turns(i)) if x["alive"] else None})
    enemies: dict = {}
    for tid, t in ref.tiles.items():
        for e in t["enemies"]:
            enemies.setdefault(_tid_place(tid, t), []).append((e["slot"], e["kind"], e["wounds"], e["engaged"]))
    stand = {x["place"] for x in sv if x["alive"]}
    marks = {q: (0, 0, 0) for q in stand}
    for tid, t in ref.tiles.items():
        q = _tid_place(tid, t)
        if q in stand:
            marks[q] = (t["corpses"], t["markers"], t["trap"])
    pend, who = (ref.pending[0], ref.pending[1]) if ref.pending else (None, None)
    return {"turn": ref.turn, "hour": ref.hour, "threat": ref.threat,
            "noise": (ref.noise_red, ref.noise_yellow), "searches": ref.searches, "hunter": ref.hunter,
            "survivors": sv, "enemies": {k: sorted(v) for k, v in enemies.items() if v}, "markers": marks,
            "pending": pend, "who": None if pend == "activate" else who,
            "ap": None if pend in ("activate", "keep", None) else ref.sv[who]["ap"],
            "exchange": ref.sv[who]["exchange"] if pend in ("act", "reserve") else None}


_STATS = (("kills", K.G_KILLS, "kills"), ("thr_noise", K.G_THR_NOISE, ("threat_from", "noise")),
          ("thr_leave", K.G_THR_LEAVING, ("threat_from", "leave")),
          ("thr_clock", K.G_THR_CLOCK, ("threat_from", "clock")),
          ("thr_cards", K.G_THR_CARDS, ("threat_from", "cards")),
          ("thr_lowered", K.G_THR_LOWERED, "threat_lowered"), ("sp_rolls", K.G_SP_ROLLS, "sp_on_rolls"),
          ("sp_threat", K.G_SP_THREAT, "sp_on_threat"), ("hunter_spawns", K.G_HUNTER_SPAWNS, "hunter_spawns"),
          ("hunter_damage", K.G_HUNTER_DAMAGE, "hunter_damage"), ("hunter_kills", K.G_HUNTER_KILLS, "hunter_kills"),
          ("traps_set", K.G_TRAPS_SET, "traps_set"), ("trap_hits", K.G_TRAP_HITS, "trap_hits"),
          ("trap_kills", K.G_TRAP_KILLS, "trap_kills"), ("combined", K.G_COMBINED, "cards_combined"))
_DEATHS = (("damage", K.G_DEAD_DAMAGE), ("infection", K.G_DEAD_INFECTION), ("hunger", K.G_DEAD_HUNGER))
# the kernel's draw piles (step._DECKS order) and the reference's names for them
_PILES = (("search", K.S_SDECK, K.G_POS_SEARCH, K.RP_N_SEARCH, "search"),
          ("spawn", K.S_XSPAWN, K.G_POS_SPAWN, None, "spawn"),
          ("encounter", K.S_EDECK, K.G_POS_ENC, K.RP_N_ENC, "encounters"),
          ("surprise", K.S_UDECK, K.G_POS_SUR, K.RP_N_SUR, "surprises"),
          ("corpse", K.S_CDECK, K.G_POS_CORPSE, K.RP_N_CORPSE, "corpses"))
_THREAT_PILES = ((K.S_T_SIDE, "threat_a", K.SIDE_A), (K.S_T_HOURS, "threat_hourglasses", _HOURS),
                 (K.S_T_HUNTER, "threat_hunter", ("no_hunter", "hunter")),
                 (K.S_T_INF, "threat_infection", ("no_infection", "infection")),
                 (K.S_T_COND, "threat_condition", _CONDS))


def _k_row(g: Game, start: int) -> list[int]:
    """A per-turn row of the batch (threat or alive by turn) up to its first -1."""
    row = [int(x) for x in g.state[start:start + int(g.rules.get("scenario.turn_limit")) + 1]]
    return row[:row.index(-1)] if -1 in row else row


def k_hidden(g: Game) -> dict:
    """What the step API's position holds beyond what a player sees: the per-turn log (the
    batch's threat and alive rows), the running record counters, the miniatures in the box,
    the Hunter's carried damage, the survivors' per-turn counters, every place's markers and
    the cards left in each draw pile."""
    r, st = g.rules, g.state
    cols = int(r.get("city.cols"))
    out = {"log": {"threat_by_turn": _k_row(g, K.S_THREAT_BY_TURN), "alive_by_turn": _k_row(g, K.S_ALIVE_BY_TURN)},
           "stats": {name: g.g(f) for name, f, _ in _STATS},
           "deaths": {name: g.g(f) for name, f in _DEATHS},
           "hunter_wounds": g.g(K.G_HUNTER_DMG) if g.g(K.G_HUNTER) == K.HUNTER_STALK else None}
    if not r.get("variants.unlimited_miniatures"):
        out["box"] = {kind: int(st[K.S_MINIS + k]) for k, kind in enumerate(K.ENEMIES) if kind != "hunter"}
    out["survivors"] = [{"ap": su(g, s, K.U_AP), "activated": bool(su(g, s, K.U_ACTIVATED)),
                         "acted": bool(su(g, s, K.U_ACTED)), "noisy_used": bool(su(g, s, K.U_NOISY_USED)),
                         "noise": su(g, s, K.U_NOISE_MADE), "slow_used": bool(su(g, s, K.U_SLOW_USED)),
                         "gloves": su(g, s, K.U_GLOVES)}
                        if su(g, s, K.U_ALIVE) else None for s in range(g.team)]
    places = {}
    for p in range(K.MAX_PLACES):
        b = K.S_PLACES + p * K.P_W
        c, m, trap = int(st[b + K.P_CORPSES]), int(st[b + K.P_MARKERS]), int(st[b + K.P_TRAP])
        if c or m or trap:
            q = ("z",) + divmod(p, cols) if p < K.MAX_ZONES else k_place(r, p)
            places[q] = (c, m, trap)
    out["places"] = places
    piles = {}
    for kind, a, pos, param, ref_name in _PILES:
        n = deck_size(g, param)
        names = r.names({"encounter": "encounters", "surprise": "surprises", "corpse": "corpses"}.get(kind, kind))
        left = Counter(names[int(x)] for x in st[a + g.g(pos):a + n])
        piles[ref_name] = dict(sorted(left.items()))
    n = deck_size(g, K.RP_N_THREAT)
    for a, ref_name, words in _THREAT_PILES:
        piles[ref_name] = dict(sorted(Counter(words[int(x)] for x in st[a + g.g(K.G_POS_THREAT):a + n]).items()))
    out["piles"] = piles
    return out


def deck_size(g: Game, param) -> int:
    """A pile's size in the packed rules: the spawn deck's (``param`` None) or an engine
    parameter's."""
    return int(g.packed[2][K.X_PARAMS + K.SP_N_CARDS] if param is None else g.packed[3][K.R_PARAMS + param])


def r_hidden(ref: Reference) -> dict:
    R = ref.R
    out = {"log": {k: list(v) for k, v in ref.history.items()},
           "stats": {name: (ref.stats[key[0]][key[1]] if isinstance(key, tuple) else ref.stats[key])
                     for name, _f, key in _STATS},
           "deaths": dict(ref.deaths),
           "hunter_wounds": ref.hunter_wounds if ref.hunter == "stalk" else None}
    if not R["variants.unlimited_miniatures"]:
        out["box"] = {k: v for k, v in ref.box.items() if k != "hunter"}
    out["survivors"] = [{"ap": x["ap"] + x["reserve"], "activated": x["activated"], "acted": x["acted"],
                         "noisy_used": x["noisy_used"], "noise": x["noise"], "slow_used": bool(x["slow_used"]),
                         "gloves": sum(1 for c in x["cards"] if R.get(f"search.{c}.cancels_attack")),
                         }
                        if x["alive"] else None for x in ref.sv]
    places = {}
    for tid, t in ref.tiles.items():
        if t["corpses"] or t["markers"] or t["trap"]:
            places[_tid_place(tid, t)] = (t["corpses"], t["markers"], t["trap"])
    out["places"] = places
    out["piles"] = {name: dict(sorted((k, v) for k, v in ref.piles[name].left.items() if v))
                    for name in [p[4] for p in _PILES] + [p[1] for p in _THREAT_PILES]}
    return out


def k_record(g: Game) -> dict:
    rec = dict(zip(K.RECORD_FIELDS, g.record_array().tolist()))
    return {"result": K.END_CAUSES[rec["end_cause"]], "success": bool(rec["success"]), "vp": rec["vp"],
            "turns": rec["turns"], "alive": rec["alive"],
            "deaths": {"damage": rec["dead_damage"], "infection": rec["dead_infection"],
                       "hunger": rec["dead_hunger"]},
            "searches": rec["searches_done"], "threat": rec["threat_final"],
            "threat_level": K.LEVELS[rec["threat_level_final"]],
            "threat_from": {"noise": rec["threat_from_noise"], "leave": rec["threat_from_leaving"],
                            "clock": rec["threat_from_clock"], "cards": rec["threat_from_cards"]},
            "threat_lowered": rec["threat_lowered_by_sp"], "sp_on_rolls": rec["sp_on_rolls"],
            "sp_on_threat": rec["sp_on_threat"], "kills": rec["kills"], "hunter_spawns": rec["hunter_spawns"],
            "hunter_damage": rec["hunter_damage"], "hunter_kills": rec["hunter_kills"],
            "decisions": rec["decisions"], "traps_set": rec["traps_set"], "trap_kills": rec["trap_kills"],
            "cards_combined": rec["cards_combined"]}


def r_record(ref: Reference, auto: int) -> dict:
    rec = ref.record()
    out = {k: rec[k] for k in ("result", "success", "vp", "turns", "alive", "deaths", "searches", "threat",
                               "threat_level", "threat_from", "threat_lowered", "sp_on_rolls", "sp_on_threat",
                               "kills", "hunter_spawns", "hunter_damage", "hunter_kills", "traps_set",
                               "trap_kills", "cards_combined")}
    out["decisions"] = rec["decisions"] - auto
    return out


def _diff(a, b, path="") -> list[str]:
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b), key=str):
            out += _diff(a.get(k, "<missing>"), b.get(k, "<missing>"), f"{path}.{k}" if path else str(k))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and a and isinstance(a[0], dict):
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += _diff(x, y, f"{path}[{i}]")
        return out
    return [] if a == b else [f"{path}: kernel {a!r} != reference {b!r}"]


class Disagreement(AssertionError):
    pass


def _auto(ref: Reference, state: dict, g: Game) -> tuple | None:
    """The reference's pending decision the kernel takes itself, answered as it does."""
    kind = ref.pending[0]
    legal = ref.legal_actions()
    if kind == "roll":
        return ("roll", 0)
    if kind == "hidden":
        return ("stay_hidden",)
    if kind == "sweep":
        if state.get("swept"):
            return ("no_sweep",)
        s = ref.pending[1]
        cands = [e for e in ref._engaged(s)]
        if not cands:
            return ("no_sweep",)
        best = min(cands, key=lambda e: (ref._estat(e["kind"], "health") - e["wounds"], e["slot"]))
        state["swept"] = True
        return ("sweep", best["id"])
    # one legal action: the kernel takes it itself unless its own decision (two codes for
    # one action, e.g. two copies of the card to keep) is pending
    same = {"keep": K.PH_PICK, "activate": K.PH_ORDER, "act": K.PH_ACT, "reserve": K.PH_RESERVE}.get(kind)
    if len(legal) == 1 and (g.over or g.g(K.G_PHASE) != same):
        return legal[0]
    return None


def play_both(seed: int, game: int, team: int, policy: str = "baseline", *, ruleset=None, hour=None,
              chooser: str | None = None, max_decisions: int = 5000, chance_cls=None,
              counts: Counter | None = None, pick=None) -> dict:
    rules = load_rules(ruleset) if hour is None else at_hour(load_rules(ruleset), hour)
    g = Game(seed, game, ruleset=rules, players=team, policy=policy)
    ch = (chance_cls or KernelChance)(g.rules)
    fed = 0

    def feed():
        nonlocal fed
        ev = g.chance_events()
        for k, v in ev[fed:]:
            ch.push_kernel(k, v)
        fed = len(ev)

    feed()
    rules = {k: g.rules.get(k) for k in g.rules.keys()}
    where = f"seed {seed}, game {game}, team {team}, policy {policy}, start {g.hour}"
    history: list = []

    def fail(msg):
        last = "; ".join(str(h) for h in history[-8:])
        raise Disagreement(f"{where}, decision {len(history)}: {msg}\n  last actions: {last}")

    try:
        ref = Reference(rules, {"players": team, "start_hour": g.hour}, ch)
    except AssertionError as e:
        fail(f"setup: {e}")
    auto = 0
    state: dict = {}
    for _ in range(max_decisions):
        try:
            while ref.pending is not None:
                a = _auto(ref, state, g)
                if a is None:
                    break
                ref.apply(a)
                auto += 1
                history.append(("ref auto", a))
        except AssertionError as e:
            fail(f"reference's forced step: {e}")
        state = {}
        if g.over or ref.is_over():
            break
        ko, ro = k_obs(g), r_obs(ref)
        d = _diff(ko, ro) + _diff(k_hidden(g), r_hidden(ref))
        if d:
            fail("positions differ:\n    " + "\n    ".join(d[:12]))
        kl = {to_ref(g, a): a for a in g.legal_codes()}
        rl = {ref_slots(ref, a) for a in ref.legal_actions()}
        if set(kl) != rl:
            fail(f"legal actions differ: kernel only {sorted(set(kl) - rl, key=str)[:10]}, "
                 f"reference only {sorted(rl - set(kl), key=str)[:10]}")
        if counts is not None and any(c // K.ACT_KIND == K.AC_SET_TRAP for c in g.legal_codes()):
            # a trap may be set with both hands trap-combinable (the capacity then decides
            # whether argument 3 is offered)
            hands = [su(g, g.g(K.G_CUR), f) for f in (K.U_MELEE, K.U_RANGED)]
            counts["both_trappable"] += all(w >= 0 and g.rules.get(f"weapons.{g.rules.weapon_names[w]}.trap_damage")
                                            for w in hands)
        code = None if pick is None else pick(g.legal_codes(), g)   # a test's own choice, or None
        if code is None:
            code = g.legal_codes()[g.policy_choice() if chooser is None else g.policy_choice(chooser)]
        a = to_ref(g, code)
        history.append(a)
        if a[0] == "jump":
            jumps = [c for c in g.legal_codes() if c // K.ACT_KIND == K.AC_JUMP]
            if len({to_ref(g, c) for c in jumps}) != len(jumps):
                fail(f"two jump codes of one SP: {jumps}")
        jumper = g.g(K.G_CUR) if a[0] == "jump" else None
        if jumper is not None:
            before = {"engaged": any(e[3] == jumper for e in g.enemies()), "hidden": bool(su(g, jumper, K.U_HIDDEN)),
                      "reserve": g.g(K.G_PHASE) == K.PH_RESERVE, "sp": a[1] > 0,
                      "shared": any(su(g, o, K.U_ALIVE) and o != jumper and k_place(g.rules, su(g, o, K.U_PLACE))[:2]
                                    == k_place(g.rules, su(g, jumper, K.U_PLACE))[:2] for o in range(g.team)),
                      "elsewhere": any(k_place(g.rules, e[2])[:2] == k_place(g.rules, su(g, jumper, K.U_PLACE))[:2]
                                       and e[2] != su(g, jumper, K.U_PLACE) for e in g.enemies())}
            marks = {"left_behind": K.G_THR_LEAVING, "encounter": K.G_POS_ENC}
            marks = {k: (f, g.g(f)) for k, f in marks.items()}
        me = g.g(K.G_CUR) if a[0] == "give" else None
        if me is not None:
            gave = {"declared": su(g, me, K.U_EXCHANGE) == 0, "free_at_0ap": su(g, me, K.U_AP) == 0,
                    "in_reserve": g.g(K.G_PHASE) == K.PH_RESERVE,
                    "hidden": any(su(g, x, K.U_HIDDEN) for x in (me, a[1])),
                    "engaged": any(e[3] in (me, a[1]) for e in g.enemies()),
                    "lit": a[3] == "flashlight" and su(g, a[1] if a[2] else me, K.U_LIGHT) > 0,
                    "slow": a[3] == "ranged" and any(su(g, x, K.U_RANGED) >= 0 and g.rules.get(
                        f"weapons.{g.rules.weapon_names[su(g, x, K.U_RANGED)]}.slow") for x in (me, a[1]))}
        trapper = g.g(K.G_CUR) if a[0] in ("set_trap", "combine") else None
        if trapper is not None:
            was = (g.g(K.G_TRAPS_SET), su(g, trapper, K.U_HIDDEN), any(e[3] == trapper for e in g.enemies()),
                   g.g(K.G_PHASE) == K.PH_RESERVE)
        g.apply_code(code)
        if counts is not None and trapper is not None:
            # the traps tried (their argument, SP, passed or failed) and the cards combined,
            # and what they met: hidden, engaged, in a reserve
            counts.update({a[0]: 1, **({f"trap_arg{a[1]}": 1, "trap_sp": a[2] > 0,
                                        "trap_failed": g.g(K.G_TRAPS_SET) == was[0]} if a[0] == "set_trap" else {}),
                           f"{a[0]}_hidden": bool(was[1]), f"{a[0]}_engaged": was[2], f"{a[0]}_reserve": was[3]})
        if counts is not None and me is not None:
            # the gives made: each direction and good, what they met, and the exchanges whose
            # last give the bound (combat.exchange_items) allowed
            counts.update({"give": 1, f"dir{a[2]}": 1, f"good_{a[3]}": 1, **gave,
                           "bound": su(g, me, K.U_EXCHANGE) == 0 and int(g.rules.get("combat.exchange_items")) > 1})
        if counts is not None and jumper is not None:
            # the jumps taken, what they met (before) and what followed a landing (a rise for
            # the enemies left behind, an encounter card drawn)
            landed = bool(su(g, jumper, K.U_ALIVE)) and k_place(g.rules, su(g, jumper, K.U_PLACE))[0] == "z"
            counts.update({"jump": 1, "landed": landed, "engaged_landed": before["engaged"] and landed,
                           "shared_landed": before["shared"] and landed,
                           "last_out_elsewhere": landed and before["elsewhere"] and not before["shared"], **before,
                           **{k: g.g(f) != v for k, (f, v) in marks.items()}})
        feed()
        try:
            ref.apply(slot_to_id(ref, a))
        except AssertionError as e:
            fail(f"applying {a}: {e}")
    if not (g.over and ref.is_over()):
        fail(f"one engine ended, not the other (kernel over {g.over}, reference over {ref.is_over()})")
    d = _diff(k_record(g), r_record(ref, auto)) + _diff(k_hidden(g)["log"], r_hidden(ref)["log"])
    if d:
        fail("records differ:\n    " + "\n    ".join(d))
    left = ch.left()
    if left:
        fail(f"scripted outcomes left unused: { {k: v[:6] for k, v in left.items()} }")
    if counts is not None:
        # what the records count (§4.4, §4.5), and the traps fired that did not kill
        rec = k_record(g)
        counts.update({"traps_set": rec["traps_set"], "trap_kills": rec["trap_kills"],
                       "cards_combined": rec["cards_combined"],
                       "trap_survived": g.g(K.G_TRAP_HITS) - rec["trap_kills"], "games": 1,
                       "decisions": rec["decisions"]})
    return k_record(g)


# ------------------------------------------------------------------ the runs
def _cases(n, teams, seed):
    return [(seed, i, teams[i % len(teams)]) for i in range(n * MULT)]


@pytest.mark.parametrize("seed,game,team", _cases(48, (1, 2, 3, 4), 101))
def test_random_policy(seed, game, team):
    play_both(seed, game, team, "random")


@pytest.mark.parametrize("seed,game,team", _cases(30, (1, 2, 3, 4), 202))
def test_baseline_policy(seed, game, team):
    play_both(seed, game, team, "baseline")


@pytest.mark.parametrize("seed,game,team", _cases(12, (2, 4), 303))
def test_night_start(seed, game, team):
    """A start at 20:00: night, the Hunter, the infection hour at 00:00."""
    play_both(seed, game, team, "random", hour=20)


@pytest.fixture(scope="module")
def hunter_nights():
    """Threat cards mostly with the Hunter's icon: he stalks, spawns, is fought and leaves
    at dawn in most games started at 01:00."""
    return load_ruleset().override({"threat.icons.hunter": 40, "threat.icons.no_hunter": 10})


@pytest.mark.parametrize("game", range(12 * MULT))
def test_hunter_nights(hunter_nights, game):
    play_both(606, game, 2 + game % 3, "baseline", ruleset=hunter_nights, hour=1)


@pytest.fixture(scope="module")
def weak_hunter():
    """``hunter_nights`` with a Hunter of 2 health and no resistance, the adventures started
    at 19:00: night falls in play (the damage he kept is cleared), he is wounded, leaves
    with his damage and is killed (a kill takes him out of the adventure)."""
    ch = {"threat.icons.hunter": 40, "threat.icons.no_hunter": 10}
    for side in ("day", "night"):
        ch.update({f"enemies.hunter.{side}.health": 2, f"enemies.hunter.{side}.resistance": 0,
                   f"enemies.hunter.{side}.defense": 0})
    return load_ruleset().override(ch)


@pytest.mark.parametrize("game", range(10 * MULT))
def test_weak_hunter(weak_hunter, game):
    play_both(707, game, 1 + game % 4, "baseline" if game % 2 else "random", ruleset=weak_hunter, hour=19)


def test_weak_hunter_games_kill_the_hunter(weak_hunter):
    """The games above reach what they are for: the Hunter spawned and killed."""
    spawns = kills = 0
    for game in range(10):
        g = Game(707, game, players=1 + game % 4, ruleset=at_hour(weak_hunter, 19),
                 policy="baseline" if game % 2 else "random")
        g.play()
        r = g.record()
        spawns, kills = spawns + r["hunter_spawns"], kills + r["hunter_kills"]
    assert spawns >= 3 and kills >= 1, (spawns, kills)


@pytest.mark.parametrize("seed,game,team", _cases(4, (1, 2, 3, 4), 505))
def test_search_player(seed, game, team):
    """The rollout player (a search over the kernel's own copies of the game)."""
    play_both(seed, game, team, "rollout")


@pytest.fixture(scope="module")
def batteries():
    """Batteries at work (§4.2): many flashlights, the easiest card to find (so the baseline
    keeps one), a unit lasting one turn, two units a backpack and more battery markers, the
    adventures started at 18:00 (found by day, lit at night)."""
    return load_ruleset().override({"search.flashlight.count": 30, "search.flashlight.modifier": 2,
                                    "search.flashlight.turns": 1, "corpses.battery.count": 8,
                                    "survivor.start_battery": 2})


_BATTERY_GAMES = 16


@pytest.mark.parametrize("game", range(_BATTERY_GAMES * MULT))
def test_battery_nights(batteries, game):
    play_both(707, game, 1 + game % 4, "baseline" if game % 2 else "random", ruleset=batteries, hour=18)


def test_battery_nights_take_units(batteries):
    """The games above take battery units and run out of light (kernel alone, the same
    games): the comparison of the lamp fields has something to compare."""
    taken = dark = 0
    for game in range(_BATTERY_GAMES):
        g = Game(707, game, ruleset=at_hour(load_rules(batteries), 18), players=1 + game % 4,
                 policy="baseline" if game % 2 else "random")
        while not g.over:
            before = [g.surv(s, K.U_BATTERY) for s in range(g.team)]
            g.apply(g.policy_choice())
            taken += sum(max(0, b - g.surv(s, K.U_BATTERY)) for s, b in enumerate(before))
            dark += sum(1 for s in range(g.team) if g.surv(s, K.U_ALIVE) and g.surv(s, K.U_FLASHLIGHT)
                        and g.surv(s, K.U_LIGHT) == 0)
    assert taken >= 10 and dark >= 10, (taken, dark)


@pytest.fixture(scope="module")
def tweaked():
    r = load_ruleset()
    return r.override({"map.leave_tile_ap": 1, "survivor.sp_start": 4, "combat.target_priority": "weakest_then_noisiest",
                       "variants.unlimited_miniatures": True, "map.ranged_reaches_tile": False})


@pytest.mark.parametrize("game", range(12 * MULT))
def test_tweaked_ruleset(tweaked, game):
    play_both(404, game, 1 + game % 4, "random", ruleset=tweaked)


def test_a_wrong_outcome_is_caught():
    """The comparison can fail: a reference fed every third die one face off, or every spawn
    card shifted to the next kind, disagrees in most games."""
    class DieOff(KernelChance):
        def push_kernel(self, kind, v):
            if kind == "die":
                self.n_dice = getattr(self, "n_dice", 0) + 1
                if self.n_dice % 3 == 0:
                    v = (v + 1) % len(self.faces)
            super().push_kernel(kind, v)

    class SpawnOff(KernelChance):
        def push_kernel(self, kind, v):
            if kind == "spawn":
                v = (v + 1) % len(self.names["spawn"])
            super().push_kernel(kind, v)

    for cls in (DieOff, SpawnOff):
        caught = 0
        for game in range(8):
            try:
                play_both(7, game, 2, "random", chance_cls=cls)
            except Disagreement:
                caught += 1
        assert caught >= 4, (cls.__name__, caught)


def test_scenario_search_markers_go_with_the_tiles():
    """§4.9, "Entering locations" (the rulebook's example 1: the last survivor out of the
    Fire Station discards all its tiles): a search marker left on a tile goes with it, and
    re-entering the location finds none there (the disagreement the differential runs
    found: the kernel kept the marker)."""
    g = Game(seed=3, game=0, players=1)
    r = g.rules
    loc = 0
    access = r.get(f"locations.{r.names('locations')[loc]}.access")
    zone = access[0] * r.get("city.cols") + access[1]
    tile0 = K.MAX_ZONES + loc * K.MAX_TILES
    st = g.state
    b = K.S_SURV
    st[b + K.U_PLACE] = tile0
    st[b + K.U_AP] = 3
    st[b + K.U_ACTIVATED] = 1
    st[_G + K.G_PHASE] = K.PH_ACT
    st[_G + K.G_CUR] = 0
    pb = K.S_PLACES + tile0 * K.P_W
    st[pb + K.P_DEPLOYED] = 1
    st[pb + K.P_EXPLORED] = 1
    st[pb + K.P_MARKERS] = 1
    move = K.AC_MOVE * K.ACT_KIND + zone * K.ACT_ARG
    assert move in g.legal_codes()
    g.apply_code(move)
    assert int(g.state[pb + K.P_MARKERS]) == 0


def _reordered(folder, file: str, key) -> None:
    """Rewrite ``file``'s top-level tables in the order ``key`` gives (a stable sort of the
    tables by ``key(name, text)``); each table keeps its sub-tables and text."""
    path = folder / file
    lines = path.read_text().splitlines(keepends=True)
    head, tables = [], []
    for line in lines:
        if line.startswith("[") and "." not in line.split("]")[0]:
            tables.append([line])
        elif tables:
            tables[-1].append(line)
        else:
            head.append(line)
    named = [(t[0].strip()[1:-1], "".join(t)) for t in tables]
    named.sort(key=lambda nt: key(*nt))
    path.write_text("".join(head) + "".join(text if text.endswith("\n\n") else text + "\n" for _, text in named))


@pytest.fixture(scope="module")
def reordered(tmp_path_factory):
    """The reference ruleset with its tables in another order: ranged weapons first (the
    Colt is weapon 0), the survivors and the enemies reversed.  A rule is its data, not its
    place in a file: both engines must play this as they play the reference."""
    import shutil

    from simlib.games.day_night_z.ruleset import default_ruleset_dir

    folder = tmp_path_factory.mktemp("dnz") / "reordered"
    shutil.copytree(default_ruleset_dir(), folder)
    _reordered(folder, "weapons.toml", lambda name, text: ('"ranged"' not in text, 0))
    for file in ("survivors.toml", "enemies.toml"):
        order = [n for n in load_ruleset().names(file.removesuffix(".toml"))][::-1]
        _reordered(folder, file, lambda name, text, order=order: order.index(name) if name in order else -1)
    rules = load_ruleset(folder)
    assert rules.get(f"weapons.{rules.names('weapons')[0]}.kind") == "ranged"
    assert rules.names("survivors") == load_ruleset().names("survivors")[::-1]
    return rules


@pytest.mark.parametrize("game", range(8 * MULT))
def test_tables_in_another_order(reordered, game):
    play_both(707, game, 1 + game % 4, "random" if game % 2 else "baseline", ruleset=reordered)


# ------------------------------------------------------------------ tile terrain (§3.10)
_TERRAIN_KINDS = ("cover", "high", "flooded", "hollow", "noisy", "fire")
_TERRAIN_HOURS = (8, 14, 20, 1)   # day, afternoon, a night start, a start past midnight


def _every_tile(kind: str):
    """The reference ruleset with every location tile of terrain ``kind``."""
    r = load_ruleset()
    return r.override({f"locations.{loc}.terrain": (kind,) * r.get(f"locations.{loc}.tiles")
                       for loc in r.names("locations")})


def _terrain_seed(kind: str) -> int:
    """A seed a kind (flooded and hollow play alike: one seed would play the same games)."""
    return 910 + _TERRAIN_KINDS.index(kind)


def _terrain_cases(n: int) -> list:
    """(game, team, policy, start hour): teams 1-4, both players; every start hour in each
    four games."""
    out = []
    for i in range(n * MULT):
        out.append((i, 1 + i % 4, ("random", "baseline")[(i // 4) % 2], _TERRAIN_HOURS[(i + i // 4) % 4]))
    return out


@pytest.fixture(scope="module")
def terrain_rules():
    from simlib.games.day_night_z.ruleset import load_rules as load_named
    rules = {kind: _every_tile(kind) for kind in _TERRAIN_KINDS}
    rules["tiles"] = load_named("tiles")
    # another layout (fire on access tiles, every kind), every terrain parameter doubled
    rules["mixed"] = load_ruleset().override({
        "locations.fire_station.terrain": ("fire", "flooded", "high"),
        "locations.garage.terrain": ("noisy", "fire"),
        "locations.pharmacy.terrain": ("hollow", "cover", "fire"),
        "map.flooded_extra_ap": 2, "map.fire_damage": 2, "combat.cover_penalty": 2,
        "combat.high_ground_bonus": 2})
    rules["flags"] = load_ruleset().override({"map.cover_tiles": True, "map.high_ground_tiles": True})
    return rules


@pytest.mark.parametrize("game,team,policy,hour", _terrain_cases(48))
def test_tiles_preset(terrain_rules, game, team, policy, hour):
    """The shipped preset ``tiles``: the Fire Station none, cover, high; the garage hollow,
    noisy; the pharmacy cover, flooded, fire."""
    play_both(808, game, team, policy, ruleset=terrain_rules["tiles"], hour=hour)


@pytest.mark.parametrize("kind", _TERRAIN_KINDS)
@pytest.mark.parametrize("game,team,policy,hour", _terrain_cases(24))
def test_every_tile_one_terrain(terrain_rules, kind, game, team, policy, hour):
    """Every location tile cover, high, flooded, hollow, noisy or fire: the enemies' attack
    pools, the ranged pools, the moves' AP and stress, the noise counters and the fire's
    dice after the threat phase."""
    play_both(_terrain_seed(kind), game, team, policy, ruleset=terrain_rules[kind], hour=hour)


@pytest.mark.parametrize("name", ("mixed", "flags"))
@pytest.mark.parametrize("game,team,policy,hour", _terrain_cases(16))
def test_terrain_tweaked(terrain_rules, name, game, team, policy, hour):
    """Another layout with every terrain parameter at 2, and the flags that make every
    place cover and high ground."""
    play_both(1010, game, team, policy, ruleset=terrain_rules[name], hour=hour)


def test_ignoring_a_terrain_is_caught(terrain_rules, monkeypatch):
    """The terrain comparison can fail: a reference that reads one kind of tile as plain
    ground disagrees with the kernel in most games on tiles all of that kind."""
    from tests.reference import day_night_z as ref_module

    plain = ref_module.Reference._terrain
    for kind in _TERRAIN_KINDS:
        monkeypatch.setattr(ref_module.Reference, "_terrain",
                            lambda self, tid, kind=kind: "none" if plain(self, tid) == kind else plain(self, tid))
        caught = 0
        for game, team, policy, hour in _terrain_cases(8)[:8]:
            try:
                play_both(_terrain_seed(kind), game, team, policy, ruleset=terrain_rules[kind], hour=hour)
            except Disagreement:
                caught += 1
        assert caught >= 3, (kind, caught)


# ------------------------------------------------------------------ jumps (§4.10)
# "jumpy": the baseline (the random player in every other block of its games), but
# wherever a jump is legal it jumps with probability 1/2 (any SP), else hides among corpses
# with probability 1/2 where it may, so that jumps away from engaged enemies, from hiding,
# failed jumps tried again and re-entries occur often
_JUMP_PLAYERS = ("baseline:jump_saves=0", "baseline:jump_saves=1", "random", "jumpy")
_JUMP_HOURS = (8, 20, 14, 1)
_JUMP_RULES = ("everywhere", "streets", "terrain")
_JUMP_GAMES = 64


def _jump_everywhere(**extra):
    """The reference ruleset with every location tile a tile to jump from (plus ``extra``)."""
    r = load_ruleset()
    return r.override({**{f"locations.{loc}.jump_tiles": tuple(range(1, r.get(f"locations.{loc}.tiles") + 1))
                          for loc in r.names("locations")}, **extra})


def _jump_rules() -> dict:
    from simlib.games.day_night_z.ruleset import load_rules as load_named
    tiles = load_named("tiles")
    return {
        "everywhere": _jump_everywhere(),
        # access zones two alleys and an exit: a jump's arrival STOPs and draws an encounter
        # card, or ends the game (a surprise zone is never turned by a jump: the team stood
        # on the access zone, an exit or a zone it reached, to enter)
        "streets": _jump_everywhere(**{"city.alleys": ((0, 3), (2, 1)),
                                       "locations.pharmacy.access": (1, 3)}),
        # the tiles preset's terrain with every tile a jump; a dearer jump without penalty
        "terrain": _jump_everywhere(**{f"locations.{loc}.terrain": tiles.get(f"locations.{loc}.terrain")
                                       for loc in tiles.names("locations")},
                                    **{"map.jump_ap": 2, "map.jump_penalty": 0}),
    }


@pytest.fixture(scope="module")
def jump_rules():
    return _jump_rules()


def _jump_cases(n: int) -> list:
    """(game, team, player, start hour): teams 1-4, the four players, day and night starts."""
    return [(i, 1 + i % 4, _JUMP_PLAYERS[(i // 4) % 4], _JUMP_HOURS[(i + i // 4) % 4]) for i in range(n * MULT)]


_JUMPS: dict[tuple, Counter] = {}   # (ruleset, case) -> the jumps its game took


def _play_jumps(rules: dict, name: str, case: tuple) -> Counter:
    game, team, player, hour = case
    counts: Counter = Counter()
    seed = 1111 + _JUMP_RULES.index(name)
    pick = None
    if player == "jumpy":
        rng = random.Random(seed * 1000 + game)

        def pick(codes, _game):
            for kind in (K.AC_JUMP, K.AC_HIDE):
                some = [c for c in codes if c // K.ACT_KIND == kind]
                if some and rng.random() < 0.5:
                    return rng.choice(some)
            return None
        player = ("baseline", "random")[(game // 16) % 2]
    play_both(seed, game, team, player, ruleset=rules[name], hour=hour, counts=counts, pick=pick)
    _JUMPS[name, case] = counts
    return counts


@pytest.mark.parametrize("name", _JUMP_RULES)
@pytest.mark.parametrize("case", _jump_cases(_JUMP_GAMES), ids=lambda c: "-".join(map(str, c)))
def test_jumps(jump_rules, name, case):
    """Every location tile a tile to jump from: the jump's legality and SP, its Agility
    check (the penalty, the engaged enemies' evasion), the enemies left far, the location
    left behind and the arrival on the street (alleys, surprise zones, an exit)."""
    _play_jumps(jump_rules, name, case)


@pytest.mark.parametrize("name", _JUMP_RULES)
def test_jumps_were_compared(jump_rules, name):
    """The cases above took jumps: many, landed or failed, with SP, away from engaged
    enemies, out of hiding, leaving a teammate in the location or leaving it last (with
    enemies on another of its tiles), onto alleys (the games ``test_jumps`` did not play in
    this run are played here)."""
    c: Counter = Counter()
    for case in _jump_cases(_JUMP_GAMES):
        c += _JUMPS[name, case] if (name, case) in _JUMPS else _play_jumps(jump_rules, name, case)
    least = {"jump": 60, "landed": 30, "engaged": 10, "engaged_landed": 5, "sp": 20, "hidden": 1,
             "left_behind": 5, "shared_landed": 5,
             "last_out_elsewhere": 1, "encounter": 10 if name == "streets" else 0}
    assert all(c[k] >= n for k, n in least.items()), (name, dict(c))


def test_ignoring_the_jump_is_caught(jump_rules, monkeypatch):
    """The jump comparison can fail: a reference that knows no tile to jump from, or whose
    jump forgets its penalty, disagrees with the kernel in most games where jumps abound."""
    from tests.reference import day_night_z as ref_module

    init = ref_module.Reference.__init__
    r = jump_rules["everywhere"]

    def reading(over):
        return lambda self, rules, setup, chance: init(self, {**rules, **over}, setup, chance)

    fakes = (("no jump tiles", reading({f"locations.{loc}.jump_tiles": () for loc in r.names("locations")})),
             ("no penalty", reading({"map.jump_penalty": 0})))
    for name, fake in fakes:
        monkeypatch.setattr(ref_module.Reference, "__init__", fake)
        caught = 0
        for game, team, player, hour in _jump_cases(8)[:8]:
            try:
                play_both(1111, game, team, player, ruleset=r, hour=hour)
            except Disagreement:
                caught += 1
        monkeypatch.undo()
        assert caught >= 4, (name, caught)


# ------------------------------------------------------------------ exchanges (§4.6)
# The random player gives often in the games above (the baseline shares too), but hardly
# any card: "exchanges" makes the kits, the flashlight, the suppressor and the slow guns
# common and easy to find, and a "givey" player (mostly the baseline, which searches and
# keeps cards; the random player in a third of the games) gives where it may: a card
# (kit, flashlight, suppressor) with probability 3/5 when one may go, else any give with
# probability 4/5 through an open exchange and 1/5 otherwise; and while anyone holds such
# a card it walks to a teammate (a move onto a teammate's place, probability 7/10), so that
# every good moves and exchanges reach their bound, free gives at 0 AP and gives in a
# reserve occur (a slow gun swapped after its shot of the turn among them).
_GIVE_CARDS = ("painkillers", "first_aid", "vaccine", "flashlight", "suppressor")
_CARD_FIELDS = (K.U_PAINKILLERS, K.U_FIRST_AID, K.U_VACCINES, K.U_FLASHLIGHT, K.U_SUPPRESSOR)
_GIVE_HOURS = (8, 18, 22, 1)
_GIVE_GAMES = 32


@pytest.fixture(scope="module")
def exchanges():
    """Kits, suppressors and slow guns common and easy to find (10 cards each, flashlights
    20, +2 dice; supplies 8 cards, the deck's bound); a battery unit lasts 4 turns, two
    units a backpack; the clock mostly held (35 threat cards of 50 without an hourglass), so
    that an adventure begun at night stays dark and flashlights are handed over lit."""
    cards = ("painkillers", "first_aid_kit", "vaccine", "suppressor", "flashlight", "shotgun", "rifle")
    return load_ruleset().override({**{f"search.{c}.count": 10 for c in cards},
                                    **{f"search.{c}.modifier": 2 for c in cards},
                                    "search.flashlight.count": 20, "search.supplies.count": 8,
                                    "search.flashlight.turns": 4, "survivor.start_battery": 2,
                                    "threat.hourglasses.zero": 35, "threat.hourglasses.one": 15,
                                    "threat.hourglasses.two": 0})


def _give_cases(n: int) -> list:
    """(game, team, player, start hour): teams 2-4, the baseline in two games of three, the
    random player in the third, four start hours."""
    return [(i, 2 + i % 3, ("baseline", "baseline", "random")[(i // 3) % 3], _GIVE_HOURS[(i // 2) % 4])
            for i in range(n * MULT)]


_GIVES: dict[tuple, Counter] = {}   # case -> the gives its game made


def _givey(seed: int, game: int):
    rng = random.Random(seed * 1000 + game)

    def pick(codes, g):
        me = g.g(K.G_CUR)
        gives = [c for c in codes if c // K.ACT_KIND == K.AC_GIVE]
        cards = [c for c in gives if K.GOODS[(c % K.ACT_KIND) // K.ACT_ARG % K.N_GOODS] in _GIVE_CARDS]
        if cards and rng.random() < 0.6:
            return rng.choice(cards)
        if gives and rng.random() < (0.8 if su(g, me, K.U_EXCHANGE) > 0 else 0.2):
            return rng.choice(gives)
        living = [s for s in range(g.team) if su(g, s, K.U_ALIVE)]
        if any(su(g, s, f) for s in living for f in _CARD_FIELDS) and rng.random() < 0.7:
            there = {su(g, s, K.U_PLACE) for s in living if s != me}
            to = [c for c in codes if c // K.ACT_KIND == K.AC_MOVE and (c % K.ACT_KIND) // K.ACT_ARG in there]
            if to:
                return rng.choice(to)
        return None
    return pick


def _play_gives(rules, case: tuple) -> Counter:
    game, team, player, hour = case
    counts: Counter = Counter()
    play_both(1212, game, team, player, ruleset=rules, hour=hour, counts=counts, pick=_givey(1212, game))
    _GIVES[case] = counts
    return counts


@pytest.mark.parametrize("case", _give_cases(_GIVE_GAMES), ids=lambda c: "-".join(map(str, c)))
def test_exchanges(exchanges, case):
    """Gives of every good both ways: the counters, the kits, the flashlight with its light,
    the suppressor, the weapons swapped (fists staying), the exchange's AP once and its
    bound, closed by any other action and at each activation."""
    _play_gives(exchanges, case)


def test_exchanges_were_compared(exchanges):
    """The compared games gave: both directions, every good, exchanges declared and run to
    their bound, free gives at 0 AP, gives in a reserve, a lit flashlight handed over (the
    games ``test_exchanges`` did not play in this run are played here)."""
    c: Counter = Counter()
    for case in _give_cases(_GIVE_GAMES):
        c += _GIVES[case] if case in _GIVES else _play_gives(exchanges, case)
    least = {"give": 500, "dir0": 200, "dir1": 200, "declared": 150, "bound": 100, "free_at_0ap": 100,
             "in_reserve": 20, "engaged": 50, "hidden": 1, "lit": 10, **{f"good_{good}": 10 for good in K.GOODS}}
    assert all(c[k] >= n for k, n in least.items()), dict(c)


def test_a_wrong_exchange_is_caught(exchanges, monkeypatch):
    """The exchange comparison can fail: a reference whose exchange is free, allows one give
    fewer, or hands the flashlight over without its light disagrees with the kernel in most
    games where gives abound."""
    from tests.reference import day_night_z as ref_module

    init, give = ref_module.Reference.__init__, ref_module.Reference._give

    def reading(over):
        return lambda self, rules, setup, chance: init(self, {**rules, **over}, setup, chance)

    def dark(self, s, b, d, good):
        give(self, s, b, d, good)
        if good == "flashlight":
            self.sv[s if d else b]["light"] = 0

    cases = _give_cases(_GIVE_GAMES)
    # the games that hand a lit flashlight over (played first if this run has not)
    lit = [c for c in cases if (_GIVES[c] if c in _GIVES else _play_gives(exchanges, c))["lit"]]
    fakes = (("free", "__init__", reading({"combat.exchange_ap": 0}), cases[:8]),
             ("one give fewer", "__init__", reading({"combat.exchange_items": 3}), cases[:8]),
             ("no light", "_give", dark, lit))
    for name, attr, fake, some in fakes:
        monkeypatch.setattr(ref_module.Reference, attr, fake)
        caught = 0
        for game, team, player, hour in some:
            try:
                play_both(1212, game, team, player, ruleset=exchanges, hour=hour, pick=_givey(1212, game))
            except Disagreement:
                caught += 1
        monkeypatch.undo()
        assert caught >= min(4, len(some)) and caught >= 1, (name, caught, len(some))


@pytest.fixture(scope="module")
def slow_guns():
    """Swift starts with the shotgun, Lebeu with the rifle (both slow: once a turn), six
    rounds each."""
    return load_ruleset().override({"survivors.swift.weapon": "shotgun", "survivors.lebeu.weapon": "rifle",
                                    "survivors.swift.ammo": 6, "survivors.lebeu.ammo": 6})


def test_a_slow_weapon_swapped_after_its_shot(slow_guns):
    """§5 SLOW and §4.6: Swift shoots the shotgun, then the two swap their slow guns: the
    rifle he receives was not shot this turn, so he may shoot it; the shotgun Lebeu
    receives was, so she may not (the mark goes with the weapon).  The engines disagreed
    here until the kernel's swap moved the mark (seed 1313, game 0, decision 26)."""
    rng = random.Random(1313)

    def swap_after_a_slow_shot(codes, g):
        me = g.g(K.G_CUR)
        swaps = [c for c in codes if c // K.ACT_KIND == K.AC_GIVE and K.GOODS[(c % K.ACT_KIND) // K.ACT_ARG % K.N_GOODS]
                 == "ranged" and (su(g, me, K.U_SLOW_USED) or su(g, (c % K.ACT_KIND) // K.ACT_ARG // (2 * K.N_GOODS),
                                                                 K.U_SLOW_USED))]
        return rng.choice(swaps) if swaps else None
    play_both(1313, 0, 2, "random", ruleset=slow_guns, pick=swap_after_a_slow_shot)


# ------------------------------------------------------------------ traps (§4.4) and combined cards (§4.5)
# The preset ``traps`` deals 3 stuff for traps and 3 nails: its games seldom set a trap.
# "common" makes the cards common and easy to find (stuff for traps 36 cards at +2, nails
# 16, knives 8, axes 6, bats 8 at +1; supplies 12 and ammunition 2 to keep the deck within
# its 128 cards) and the trap's base damage 2 (a knife's trap kills a zombie); "kits" adds
# a trap-combinable Colt and bat (trap damage 1: traps with the ranged weapon and with both
# hands; Colts 8 cards at +1), Lebeu starting with a bat (a nailed bat within reach of a team of 2) and Olsson
# with a knife; "cap1" is "kits" with a stuff for traps card of capacity 1 (no trap of both
# hands) and a base damage 0 (a trap of 1: an enemy of health 2 or more survives it).
# The players: the random player, the baseline, and a "trappy" one (the baseline or the
# random player, which combines with probability 4/5, sets a trap with probability 3/5 and
# hides among corpses with probability 1/4 where it may, keeps a stuff for traps, nails or a trap weapon when a search draws one and
# searches with probability 3/5 where it may).
_TRAP_RULES = ("common", "kits", "cap1")
_TRAP_PLAYERS = ("trappy", "baseline", "random", "trappy")
_TRAP_HOURS = (8, 14, 20)
_TRAP_GAMES = 160
_TRAP_KEEP = ("stuff_for_traps", "nails", "bat", "knife", "axe")


def _trap_rules() -> dict:
    common = load_rules("traps").override({
        "search.stuff_for_traps.count": 36, "search.stuff_for_traps.modifier": 2,
        "search.stuff_for_traps.amount": 2, "search.nails.count": 16, "search.nails.modifier": 1,
        "search.knife.count": 8, "search.axe.count": 6, "search.bat.count": 8,
        **{f"search.{w}.modifier": 1 for w in ("knife", "axe", "bat")},
        "search.supplies.count": 12, "search.ammo.count": 2})
    kits = common.override({"weapons.colt.trap_damage": 1, "weapons.bat.trap_damage": 1,
                            "search.colt.count": 8, "search.colt.modifier": 1,
                            "survivors.lebeu.weapon": "bat", "survivors.olsson.weapon": "knife"})
    return {"common": common, "kits": kits,
            "cap1": kits.override({"search.stuff_for_traps.capacity": 1, "search.stuff_for_traps.amount": 0})}


@pytest.fixture(scope="module")
def trap_rules():
    return _trap_rules()


def _trappy(seed: int, game: int):
    rng = random.Random(seed * 1000 + game)

    def pick(codes, g):
        for kind, p in ((K.AC_COMBINE, 0.8), (K.AC_SET_TRAP, 0.6), (K.AC_HIDE, 0.25), (K.AC_PICK, 0.9),
                        (K.AC_SEARCH, 0.6), (K.AC_SEARCH_ITEM, 0.6)):
            some = [c for c in codes if c // K.ACT_KIND == kind]
            if kind == K.AC_PICK:
                some = [c for c in some if g.rules.names("search")[int(g.state[K.S_PICKS + (c % K.ACT_KIND) // K.ACT_ARG])]
                        in _TRAP_KEEP]
            if some and rng.random() < p:
                return rng.choice(some)
        return None
    return pick


def _trap_cases(n: int) -> list:
    """(game, team, player, start hour): teams 1-4, the three players, three start hours."""
    return [(i, 1 + i % 4, _TRAP_PLAYERS[(i // 4) % 4], _TRAP_HOURS[(i // 2) % 3]) for i in range(n * MULT)]


_TRAPS: dict[tuple, Counter] = {}   # (ruleset, case) -> what its game compared
# Disagreements found by these games that are not the traps' (kernel or docs questions,
# reported, not settled here): (ruleset, game) -> the reason
_TRAP_KNOWN: dict = {}  # (ruleset, game) -> the reason of a known disagreement (none now)


def _play_traps(rules, name: str, case: tuple) -> Counter:
    game, team, player, hour = case
    seed = 1414 + _TRAP_RULES.index(name)
    pick = None
    if player == "trappy":
        pick = _trappy(seed, game)
        player = ("baseline", "random")[(game // 16) % 2]
    counts: Counter = Counter()
    play_both(seed, game, team, player, ruleset=rules, hour=hour, counts=counts, pick=pick)
    _TRAPS[name, case] = counts
    return counts


@pytest.mark.parametrize("seed,game,team", _cases(24, (1, 2, 3, 4), 1400))
def test_traps_preset(seed, game, team):
    """The preset ``traps`` as ``simlib compare --rules traps`` plays it: its deck, the
    baseline (which sets traps and combines where its parameters say) and the random player,
    three start hours."""
    play_both(seed, game, team, ("baseline", "random")[game % 2], ruleset=load_rules("traps"),
              hour=_TRAP_HOURS[game % 3])


@pytest.mark.parametrize("name", _TRAP_RULES)
@pytest.mark.parametrize("case", _trap_cases(_TRAP_GAMES), ids=lambda c: "-".join(map(str, c)))
def test_traps(trap_rules, name, case):
    """Traps and combined cards common: set_trap's legality (a location tile with no marker,
    the stuff, a trap weapon in a hand, the capacity) and its SP, the Mechanisms check, the
    cards discarded, the marker on the tile and its firing on the first enemy to engage
    there (its damage without resistance, a trap kill with no SP), the marker gone with the
    location; combine's legality, the components discarded, the nailed bat in the hand."""
    if (name, case[0]) in _TRAP_KNOWN:
        pytest.xfail(_TRAP_KNOWN[name, case[0]])
    _play_traps(trap_rules[name], name, case)


def test_an_empty_surprise_tile_and_the_street_card():
    """A Crawler ambush turned with no crawler left in the box (seed 1414, game 91, team 4,
    random, 08:00, decision 186): its city tile is laid all the same, as a horde's is, so
    the survivor who turned it draws no street encounter card at the end of his activation
    (the kernel once laid the tile only with its enemy; the engines disagreed here)."""
    case = next(c for c in _trap_cases(_TRAP_GAMES) if c[0] == 91)
    _play_traps(_trap_rules()["common"], "common", case)


def test_traps_were_compared(trap_rules):
    """The cases above set traps (with each argument the ruleset allows, with SP, failed
    and passed), fired them (kills and survivors), and combined cards (the games
    ``test_traps`` did not play in this run are played here)."""
    total: Counter = Counter()
    for name in _TRAP_RULES:
        c: Counter = Counter()
        for case in _trap_cases(_TRAP_GAMES):
            if (name, case[0]) not in _TRAP_KNOWN:
                c += _TRAPS[name, case] if (name, case) in _TRAPS else _play_traps(trap_rules[name], name, case)
        base = {"set_trap": 15, "traps_set": 10, "trap_failed": 3, "trap_sp": 5, "trap_arg1": 10,
                "trap_kills": 4, "combine": 1, "set_trap_hidden": 2}
        least = {"common": base,
                 "kits": {**base, "set_trap": 40, "traps_set": 30, "trap_arg2": 15, "trap_arg3": 1,
                          "trap_kills": 10, "combine": 5},
                 "cap1": {**base, "set_trap": 30, "traps_set": 25, "trap_arg2": 10, "trap_survived": 2,
                          "combine": 5}}[name]
        assert all(c[k] >= n for k, n in least.items()), (name, dict(c))
        # capacity 1: argument 3 never offered where both hands could go into the trap
        assert name != "cap1" or (c["trap_arg3"] == 0 and c["both_trappable"] >= 3), (name, dict(c))
        total += c
    assert total["traps_set"] >= 60 and total["trap_kills"] >= 20 and total["cards_combined"] >= 15, dict(total)


def test_ignoring_a_trap_is_caught(trap_rules, monkeypatch):
    """The trap comparison can fail: a reference whose trap never fires, or fires with no
    damage, disagrees with the kernel in the games
    where a trap fires."""
    from tests.reference import day_night_z as ref_module

    def harmless(self, t, e):
        t["trap"] = 0

    cases = [(name, case) for name in _TRAP_RULES for case in _trap_cases(_TRAP_GAMES)
             if (name, case[0]) not in _TRAP_KNOWN]
    fired = [(name, case) for name, case in cases
             if (_TRAPS[name, case] if (name, case) in _TRAPS else _play_traps(trap_rules[name], name, case))
             ["trap_kills"] + _TRAPS[name, case]["trap_survived"] > 0][:8]
    for label, fake in (("never fires", lambda self, t, e: None), ("no damage", harmless)):
        monkeypatch.setattr(ref_module.Reference, "_fire_trap", fake)
        caught = 0
        for name, case in fired:
            try:
                _play_traps(trap_rules[name], name, case)
            except Disagreement:
                caught += 1
        monkeypatch.undo()
        assert caught == len(fired) and caught >= 3, (label, caught, len(fired))


# ================================================================ neighbouring parameters
# the traps preset with the tiles' terrain, and the action costs and terrain and defence
# numbers that every other ruleset here gives their neighbour's value (trap and combine
# 1 AP, attack, defend and search-item 1 AP, cover, high ground, defence and armour 1, ...)
# made to differ: a value read from the key beside it in the kernel's row shows here
_NEIGHBOURS = {
    "combat.trap_ap": 2, "combat.combine_ap": 1, "combat.attack_ap": 1, "combat.defend_ap": 2,
    "combat.search_item_ap": 1, "combat.high_ground_bonus": 1, "combat.defend_bonus": 2,
    "combat.cover_penalty": 1, "combat.armour_penalty": 2, "combat.exchange_ap": 2,
    "map.flooded_extra_ap": 1, "map.fire_damage": 2, "map.jump_ap": 1,
    "city.move_ap": 1, "city.enter_location_ap": 2,
    "survivor.health_red_at": 2, "survivor.max_sp_per_roll": 2, "survivor.rest_stress": 2,
    "survivor.supply_heals": 2, "map.high_ground_tiles": True, "variants.attacks_earn_sp": True,
    "threat.side_a.fury_actions": 2, "threat.effects.ambush_spawn_per_survivor": 2,
    "threat.infection_card.level_1_stress": 2, "scenario.vp_per_dead": 2,
}


def _neighbour_rules():
    from simlib.games.day_night_z.ruleset import load_rules as load_named
    tiles = load_named("tiles")
    terrain = {f"locations.{loc}.{k}": tiles.get(f"locations.{loc}.{k}")
               for loc in ("fire_station", "garage", "pharmacy") for k in ("terrain", "jump_tiles")}
    return load_named("traps").override({**terrain, **_NEIGHBOURS})


@pytest.mark.parametrize("game,team,policy,hour", _terrain_cases(12))
def test_neighbour_distinct_ruleset(game, team, policy, hour):
    play_both(1717, game, team, policy, ruleset=_neighbour_rules(), hour=hour)


# neighbouring parameters no ruleset here tells apart yet (none now); a pair not listed that
# is equal in every ruleset played fails the test below
_NOT_YET_APART: set = set()


def test_the_rulesets_played_tell_every_parameter_from_its_neighbours(tweaked):
    """A value read from the key beside it in the kernel's parameter row shows only on a
    ruleset where the two differ: every pair of neighbouring parameters differs in at
    least one ruleset this file plays, but the pairs listed as not yet apart."""
    from simlib.games.day_night_z.play import packed
    from simlib.games.day_night_z.ruleset import load_rules as load_named

    names = {getattr(K, n): n for n in dir(K) if n.startswith("RP_") and isinstance(getattr(K, n), int)}
    n = max(names) + 1
    played = [load_ruleset(), load_named("tiles"), load_named("traps"), tweaked, _neighbour_rules()]
    p = np.array([packed(r)[3][K.R_PARAMS:K.R_PARAMS + n] for r in played])
    same = {(names[i], names[i + 1]) for i in range(n - 1) if (p[:, i] == p[:, i + 1]).all()}
    assert same <= _NOT_YET_APART, f"neighbouring parameters equal in every ruleset played: {sorted(same - _NOT_YET_APART)}"
