"""Exact (enumerated, never sampled) dice distributions of Day Night Z.

Every roll of the game is a pool of identical dice (a d6 whose faces carry a star, a
target and the enemy icons skull, infection and noise; ``dice.toml``) in which what counts
is whether *at least one* die shows a symbol of some set: a star of the stress colour's
set for a check, a target of the health colour's set for an attack, a skull, an
infection icon, a noise icon for an enemy's attack.  The joint law of several such
"at least one" events is computed exactly by a dynamic programme over the dice (state:
which events have happened), in :class:`fractions.Fraction`.

Two layers:

* **Plain numbers** (no ruleset): :func:`any_of` and :func:`joint_any` take the die as a
  list of faces, each a set of symbol names (``{"star:green", "target:green", "skull"}``,
  see :func:`face_symbols`).  They are the oracle the numba kernels are tested against.
* **Rules** (a :class:`~simlib.games.day_night_z.ruleset.DayNightZRules`, the reference
  one by default): pools (:func:`check_pool`, :func:`attack_pool`, :func:`enemy_pool`:
  the "minimum 1 die" rule after the survival points, at most ``max_sp_per_roll`` SP),
  checks (:func:`check_probability`), a survivor's attack (:func:`attack_outcome`,
  :func:`attack_damage`, :func:`kill_probability`), an enemy's attack
  (:func:`enemy_attack_outcome`, :func:`enemy_attack`, :func:`stress_from_attacks`),
  corpses and hiding (:func:`corpse_infection`), and the designers' tables
  (:func:`check_table`, :func:`enemy_attack_table`, :func:`kill_table`,
  :func:`corpse_table`; all of them: :func:`exact_tables`).

Rules implemented (rulebook §3.4-3.7, §3.9, §4.8, §4.12-4.13):

* a check succeeds with >= 1 star of a colour its stress colour accepts
  (``colours.check``; green: green or gold, yellow: gold or red, red: red); a passed check
  earns ``sp_per_passed_check`` SP (an attack does not, unless ``variants.attacks_earn_sp``);
* an attack hits with >= 1 target of a colour the attacker's health colour accepts
  (``colours.attack``) and deals the weapon's damage once, less the enemy's resistance
  (min 0); pierce (always, or fired by a star: ``combat.star_trait_rule``) ignores the
  resistance; a weapon with ``attacks_per_ap`` > 1 (rapid fire) attacks that often an AP,
  each attack a roll;
* an enemy's attack hits with >= 1 skull: the weapon's damage, +1 stress
  (``stress_per_damaging_attack``) when the damage is > 0, infection level 1 when any die
  shows the infection icon and the survivor is not infected (ignored otherwise); any noise
  icon, hit or miss, places one noise counter;
* searching a corpse ×N (N dice) or hiding among corpses (``combat.hide_dice`` dice): any
  infection icon adds an infection level, even to an infected survivor.

Distributions are :class:`pandas.Series` (probabilities indexed by outcome); ``exact=True``
keeps the Fractions (``object`` dtype, sums to exactly 1), the default is ``float64``.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Iterable, Mapping, Sequence

import pandas as pd

from . import codes as K

__all__ = ["face_symbols", "any_of", "joint_any", "check_roll", "attack_roll", "enemy_roll", "check_pool", "attack_pool", "enemy_pool",
           "check_probability", "check_success", "attack_outcome", "attack_damage", "kill_probability",
           "enemy_attack_outcome", "enemy_attack", "stress_from_attacks", "corpse_infection",
           "check_table", "enemy_attack_table", "kill_table", "kit_kill_table", "corpse_table",
           "exact_tables", "markdown"]


# =========================================================================== plain numbers
def face_symbols(ruleset=None) -> list[frozenset[str]]:
    """The die of a ruleset as symbol sets, one a face: ``star:<colour>``,
    ``target:<colour>``, ``skull``, ``infection``, ``noise``."""
    rs = _rs(ruleset)
    out = []
    for row in rs.faces():
        s = set()
        if row[K.F_STAR] >= 0:
            s.add("star:" + K.STAR_COLOURS[row[K.F_STAR]])
        if row[K.F_TARGET] >= 0:
            s.add("target:" + K.TARGET_COLOURS[row[K.F_TARGET]])
        for col, name in ((K.F_SKULL, "skull"), (K.F_INFECTION, "infection"), (K.F_NOISE, "noise")):
            if row[col]:
                s.add(name)
        out.append(frozenset(s))
    return out


def _hits(face: frozenset[str], event: Iterable[str]) -> bool:
    return any(sym in face for sym in event)


def joint_any(n: int, faces: Sequence[Iterable[str]], events: Sequence[Iterable[str]]) -> dict:
    """Exact joint law of "at least one of ``n`` fair dice shows a symbol of event i".

    ``faces``: the die, one symbol set a face (equally likely); ``events``: symbol sets.
    Returns ``{(b_1, ..., b_k): Fraction}`` over the tuples of booleans that occur.
    """
    if n < 0:
        raise ValueError(f"a pool has >= 0 dice; got {n}")
    if not faces:
        raise ValueError("a die needs at least one face")
    faces = [frozenset(f) for f in faces]
    events = [frozenset(e) for e in events]
    # faces grouped by which events they show: one transition a signature
    sig: dict[tuple[bool, ...], Fraction] = {}
    for f in faces:
        key = tuple(_hits(f, e) for e in events)
        sig[key] = sig.get(key, Fraction(0)) + Fraction(1, len(faces))
    dist = {tuple(False for _ in events): Fraction(1)}
    for _ in range(n):
        new: dict[tuple[bool, ...], Fraction] = {}
        for state, p in dist.items():
            for key, q in sig.items():
                s = tuple(a or b for a, b in zip(state, key))
                new[s] = new.get(s, Fraction(0)) + p * q
        dist = new
    return dist


def any_of(n: int, faces: Sequence[Iterable[str]], event: Iterable[str]) -> Fraction:
    """P(at least one of ``n`` dice shows a symbol of ``event``)."""
    return joint_any(n, faces, [event]).get((True,), Fraction(0))


# =========================================================================== rules
def _rs(ruleset):
    if ruleset is None:
        from .ruleset import load_ruleset

        return load_ruleset()
    return ruleset


def _out(x: Fraction, exact: bool):
    return x if exact else float(x)


def _series(dist: Mapping, name: str, exact: bool, index_names=None) -> pd.Series:
    keys = sorted(dist)
    if keys and isinstance(keys[0], tuple):
        idx = pd.MultiIndex.from_tuples(keys, names=index_names)
    else:
        idx = pd.Index(keys, name=index_names)
    vals = [dist[k] if exact else float(dist[k]) for k in keys]
    return pd.Series(vals, index=idx, name=name, dtype=object if exact else "float64")


def _level(level: str) -> str:
    if level not in K.LEVELS:
        raise ValueError(f"unknown colour {level!r}; allowed: {', '.join(K.LEVELS)}")
    return level


def _sp(rs, sp: int) -> int:
    cap = rs.get("survivor.max_sp_per_roll")
    if not 0 <= sp <= cap:
        raise ValueError(f"survival points on a roll must be 0-{cap} (survivor.max_sp_per_roll); got {sp}")
    return sp


def check_pool(attribute: int, sp: int = 0, modifier: int = 0, ruleset=None) -> int:
    """Dice of a check: attribute + SP + modifiers, at least ``survivor.min_pool``
    (applied after the SP, §3.4-3.5)."""
    rs = _rs(ruleset)
    return max(rs.get("survivor.min_pool"), attribute + _sp(rs, sp) + modifier)


def attack_pool(attribute: int, enemy_defense: int = 0, sp: int = 0, high_ground: bool = False,
                modifier: int = 0, ruleset=None) -> int:
    """Dice of a survivor's attack: attribute + SP + high ground - the enemy's defense (§4.12)."""
    rs = _rs(ruleset)
    bonus = rs.get("combat.high_ground_bonus") if high_ground else 0
    return max(rs.get("survivor.min_pool"), attribute + _sp(rs, sp) + bonus - enemy_defense + modifier)


def enemy_pool(attack: int, defense: int = 0, cover: bool = False, defending: bool = False,
               armour: bool = False, ruleset=None) -> int:
    """Dice of an enemy's attack: attack - cover - the survivor's Defense (+1 defending) -
    armour on the struck location, at least ``survivor.min_pool`` (§4.12)."""
    rs = _rs(ruleset)
    c = "combat."
    pool = attack - defense - (rs.get(c + "cover_penalty") if cover else 0) \
        - (rs.get(c + "defend_bonus") if defending else 0) - (rs.get(c + "armour_penalty") if armour else 0)
    return max(rs.get("survivor.min_pool"), pool)


def _check_event(rs, stress: str) -> frozenset[str]:
    return frozenset("star:" + c for c in rs.accepted("check", _level(stress)))


def _attack_event(rs, health: str) -> frozenset[str]:
    return frozenset("target:" + c for c in rs.accepted("attack", _level(health)))


def check_success(pool: int, stress: str = "green", ruleset=None, exact: bool = False):
    """P(a check of ``pool`` dice passes) at a stress colour."""
    rs = _rs(ruleset)
    return _out(any_of(pool, face_symbols(rs), _check_event(rs, stress)), exact)


def check_probability(attribute: int, stress: str = "green", sp: int = 0, modifier: int = 0,
                      ruleset=None, exact: bool = False):
    """P(a check passes): attribute, survival points spent, modifiers, stress colour."""
    rs = _rs(ruleset)
    return check_success(check_pool(attribute, sp, modifier, rs), stress, rs, exact)


def _star_event(rs, stress: str) -> frozenset[str]:
    if rs.get("combat.star_trait_rule") == "any_star":
        return frozenset("star:" + c for c in K.STAR_COLOURS)
    return _check_event(rs, stress)  # "stress_star": a star the check rule accepts


def attack_outcome(pool: int, health: str = "green", stress: str = "green", ruleset=None,
                   exact: bool = False) -> pd.Series:
    """Joint law of (hit, star) of a survivor's attack roll: a hit is >= 1 target of the
    health colour's set; star: the roll fires the weapon's star trait."""
    rs = _rs(ruleset)
    d = joint_any(pool, face_symbols(rs), [_attack_event(rs, health), _star_event(rs, stress)])
    return _series(d, "p", exact, ["hit", "star"])


def _damage_dist(rs, pool: int, damage: int, resistance: int, pierce: bool, star_pierce: bool,
                 health: str, stress: str) -> dict[int, Fraction]:
    d = joint_any(pool, face_symbols(rs), [_attack_event(rs, health), _star_event(rs, stress)])
    out: dict[int, Fraction] = {}
    for (hit, star), p in d.items():
        res = 0 if (pierce or (star and star_pierce)) else resistance
        dmg = max(0, damage - res) if hit else 0
        out[dmg] = out.get(dmg, Fraction(0)) + p
    return out


def _attack_setup(rs, survivor: str, weapon: str, enemy: str, night: bool, sp: int, high_ground: bool):
    kind = rs.get(f"weapons.{weapon}.kind") if weapon in rs.weapon_names else None
    if kind is None:
        raise ValueError(f"unknown weapon {weapon!r}; allowed: {', '.join(rs.weapon_names)}")
    e = rs.enemy(enemy, night)
    attr = rs.attribute(survivor, "hth" if kind == "melee" else "ranged", night)
    pool = attack_pool(attr, e["defense"], sp, high_ground, ruleset=rs)
    dmg = rs.weapon_damage(weapon, rs.attribute(survivor, "strength", night))
    return pool, dmg, e


def attack_damage(survivor: str, weapon: str, enemy: str, night: bool = False, health: str = "green",
                  stress: str = "green", sp: int = 0, high_ground: bool = False, ruleset=None,
                  exact: bool = False) -> pd.Series:
    """Damage one attack of ``survivor`` with ``weapon`` deals ``enemy`` (law over 0, ...)."""
    rs = _rs(ruleset)
    pool, dmg, e = _attack_setup(rs, survivor, weapon, enemy, night, sp, high_ground)
    d = _damage_dist(rs, pool, dmg, e["resistance"], rs.get(f"weapons.{weapon}.pierce"),
                     rs.get(f"weapons.{weapon}.star_trait") == "pierce", health, stress)
    return _series(d, "p", exact, "damage")


def kill_probability(survivor: str, weapon: str, enemy: str, night: bool = False, health: str = "green",
                     stress: str = "green", sp: int = 0, high_ground: bool = False, damage_taken: int = 0,
                     aps: int = 1, ruleset=None, exact: bool = False):
    """P(``aps`` AP of attacks kill ``enemy``): ``attacks_per_ap`` rolls an AP (rapid fire),
    each with ``sp`` survival points, the damage adding up on an enemy that has taken
    ``damage_taken``.  (A slow weapon fires once a turn: its ``aps`` are turns.)"""
    rs = _rs(ruleset)
    pool, dmg, e = _attack_setup(rs, survivor, weapon, enemy, night, sp, high_ground)
    one = _damage_dist(rs, pool, dmg, e["resistance"], rs.get(f"weapons.{weapon}.pierce"),
                       rs.get(f"weapons.{weapon}.star_trait") == "pierce", health, stress)
    total = {0: Fraction(1)}
    if aps < 0:
        raise ValueError(f"aps must be >= 0; got {aps}")
    for _ in range(aps * rs.get(f"weapons.{weapon}.attacks_per_ap")):
        new: dict[int, Fraction] = {}
        for a, p in total.items():
            for b, q in one.items():
                new[a + b] = new.get(a + b, Fraction(0)) + p * q
        total = new
    need = max(0, e["health"] - damage_taken)
    return _out(sum((p for d, p in total.items() if d >= need), Fraction(0)), exact)


def enemy_attack_outcome(pool: int, infected: bool = False, damage: int = 1, ruleset=None,
                         exact: bool = False) -> pd.Series:
    """Joint law of (hit, stress, infection, noise) of an enemy's attack of ``pool`` dice on a
    survivor: hit = >= 1 skull (the enemy's ``damage`` dealt once); stress gained; infection
    levels gained (level 1 when damaged, an infection icon shows and the survivor is not yet
    infected); noise counters placed (one when any noise icon shows, hit or miss)."""
    rs = _rs(ruleset)
    d = joint_any(pool, face_symbols(rs), [{"skull"}, {"infection"}, {"noise"}])
    out: dict[tuple, Fraction] = {}
    for (skull, inf, noise), p in d.items():
        damaged = skull and damage > 0
        key = (int(skull), rs.get("survivor.stress_per_damaging_attack") if damaged else 0,
               int(damaged and inf and not infected), int(noise))
        out[key] = out.get(key, Fraction(0)) + p
    return _series(out, "p", exact, ["hit", "stress", "infection", "noise"])


def enemy_attack(enemy: str, survivor: str, night: bool = False, defending: bool = False,
                 cover: bool = False, armour: bool = False, infected: bool = False, ruleset=None,
                 exact: bool = False) -> dict:
    """An enemy's attack on a survivor: its pool and the marginal probabilities of a hit
    (``damage`` health lost), the stress point, the infection and the noise counter."""
    rs = _rs(ruleset)
    e = rs.enemy(enemy, night)
    pool = enemy_pool(e["attack"], rs.attribute(survivor, "defense", night), cover, defending, armour, rs)
    s = enemy_attack_outcome(pool, infected, e["damage"], rs, exact=True)

    def marg(level: str):
        return _out(sum((p for k, p in s.items() if k[s.index.names.index(level)]), Fraction(0)), exact)

    return {"pool": pool, "damage": e["damage"], "hit": marg("hit"), "stress": marg("stress"),
            "infection": marg("infection"), "noise": marg("noise")}


def stress_from_attacks(pools: Sequence[int], damages: Sequence[int] | None = None, ruleset=None,
                        exact: bool = False) -> pd.Series:
    """Law of the stress a survivor gains from several enemy attacks (one roll each, pools
    ``pools``, damages ``damages``): ``stress_per_damaging_attack`` per damaging attack."""
    rs = _rs(ruleset)
    damages = [1] * len(pools) if damages is None else list(damages)
    if len(damages) != len(pools):
        raise ValueError("one damage per attack")
    per = rs.get("survivor.stress_per_damaging_attack")
    dist = {0: Fraction(1)}
    for n, dmg in zip(pools, damages):
        p = any_of(n, face_symbols(rs), {"skull"}) if dmg > 0 else Fraction(0)
        new: dict[int, Fraction] = {}
        for s, q in dist.items():
            new[s] = new.get(s, Fraction(0)) + q * (1 - p)
            new[s + per] = new.get(s + per, Fraction(0)) + q * p
        dist = {k: v for k, v in new.items() if v}
    return _series(dist, "p", exact, "stress")


def corpse_infection(n_dice: int, ruleset=None, exact: bool = False):
    """P(searching a corpse ×``n_dice``, or hiding among corpses with that many dice,
    adds an infection level): any infection icon (§3.7, §4.8, §4.13)."""
    rs = _rs(ruleset)
    return _out(any_of(n_dice, face_symbols(rs), {"infection"}), exact)


# =========================================================================== single rolls
def _rolled(rs, faces: Sequence[int]) -> list[frozenset[str]]:
    die = face_symbols(rs)
    for f in faces:
        if not 0 <= f < len(die):
            raise ValueError(f"face index {f} out of range 0-{len(die) - 1} ({', '.join(rs.face_names)})")
    return [die[f] for f in faces]


def check_roll(faces: Sequence[int], stress: str = "green", ruleset=None) -> bool:
    """Whether a rolled check passes (``faces``: face indices in ``dice.toml`` order)."""
    rs = _rs(ruleset)
    ev = _check_event(rs, stress)
    return any(_hits(f, ev) for f in _rolled(rs, faces))


def attack_roll(faces: Sequence[int], health: str = "green", stress: str = "green",
                ruleset=None) -> tuple[bool, bool]:
    """(hit, star) of a rolled attack."""
    rs = _rs(ruleset)
    rolled = _rolled(rs, faces)
    return (any(_hits(f, _attack_event(rs, health)) for f in rolled),
            any(_hits(f, _star_event(rs, stress)) for f in rolled))


def enemy_roll(faces: Sequence[int], infected: bool = False, damage: int = 1,
               ruleset=None) -> tuple[int, int, int, int]:
    """(damage, stress, infection levels, noise counters) of a rolled enemy attack."""
    rs = _rs(ruleset)
    rolled = _rolled(rs, faces)
    hit = any("skull" in f for f in rolled)
    damaged = hit and damage > 0
    inf = damaged and not infected and any("infection" in f for f in rolled)
    return (damage if hit else 0, rs.get("survivor.stress_per_damaging_attack") if damaged else 0,
            int(inf), int(any("noise" in f for f in rolled)))


# =========================================================================== tables
def check_table(base: Iterable[int] = range(0, 9), sp: Iterable[int] | None = None, ruleset=None,
                exact: bool = False) -> pd.DataFrame:
    """P(a check passes) by dice before SP (attribute + modifiers; below the minimum the
    pool is the minimum), stress colour and survival points spent (default: 0 to
    ``survivor.max_sp_per_roll``).  Rows: ``dice``; columns: (``stress``, ``sp``)."""
    rs = _rs(ruleset)
    sps = list(range(rs.get("survivor.max_sp_per_roll") + 1)) if sp is None else list(sp)
    base = list(base)
    cols = pd.MultiIndex.from_product([list(K.LEVELS), sps], names=["stress", "sp"])
    data = {(lvl, s): [check_probability(b, lvl, s, 0, rs, exact) for b in base] for lvl, s in cols}
    return pd.DataFrame(data, index=pd.Index(base, name="dice"), columns=cols)


def enemy_attack_table(pools: Iterable[int] = range(1, 7), ruleset=None, exact: bool = False) -> pd.DataFrame:
    """By enemy pool: P(hit), P(infection | not infected), P(noise counter), and the
    probability of a hit without infection, for a damaging enemy."""
    rs = _rs(ruleset)
    rows = []
    for n in pools:
        s = enemy_attack_outcome(n, False, 1, rs, exact=True)
        hit = sum((p for k, p in s.items() if k[0]), Fraction(0))
        inf = sum((p for k, p in s.items() if k[2]), Fraction(0))
        noise = sum((p for k, p in s.items() if k[3]), Fraction(0))
        rows.append({"pool": n, "hit": _out(hit, exact), "infection": _out(inf, exact),
                     "noise": _out(noise, exact), "hit_no_infection": _out(hit - inf, exact)})
    return pd.DataFrame(rows).set_index("pool")


def kill_table(health: str = "green", weapons: Sequence[str] | None = None, aps: int = 1, ruleset=None,
               exact: bool = False) -> pd.DataFrame:
    """P(``aps`` AP kill a fresh enemy) by survivor and weapon (rows) and day/night and
    enemy (columns), at a health colour, no SP, no high ground.  Enemies that only come
    out by night have no day column."""
    rs = _rs(ruleset)
    weapons = list(rs.weapon_names if weapons is None else weapons)
    cols = [(side, e) for side in ("day", "night") for e in K.ENEMIES
            if not (side == "day" and rs.get(f"enemies.{e}.night_only"))]
    idx = pd.MultiIndex.from_product([list(rs.survivor_names), weapons], names=["survivor", "weapon"])
    data = {(side, e): [kill_probability(s, w, e, side == "night", health, aps=aps, ruleset=rs,
                                                 exact=exact)
                        for s, w in idx] for side, e in cols}
    return pd.DataFrame(data, index=idx, columns=pd.MultiIndex.from_tuples(cols, names=["time", "enemy"]))


def corpse_table(ruleset=None, exact: bool = False) -> pd.DataFrame:
    """P(+1 infection level) searching a corpse ×1 to ×``combat.corpse_dice_max`` and
    hiding among corpses (``combat.hide_dice`` dice)."""
    rs = _rs(ruleset)
    rows = [{"roll": f"corpse x{n}", "dice": n, "infection": corpse_infection(n, rs, exact)}
            for n in range(1, rs.get("combat.corpse_dice_max") + 1)]
    h = rs.get("combat.hide_dice")
    rows.append({"roll": "hiding", "dice": h, "infection": corpse_infection(h, rs, exact)})
    return pd.DataFrame(rows).set_index("roll")


def kit_kill_table(health: str = "green", aps: int = 1, ruleset=None, exact: bool = False) -> pd.DataFrame:
    """:func:`kill_table` for each survivor's starting weapon only (rows: survivor)."""
    rs = _rs(ruleset)
    rows = [(s, rs.get(f"survivors.{s}.weapon")) for s in rs.survivor_names]
    t = kill_table(health, sorted({w for _, w in rows}), aps, rs, exact).loc[rows]
    t.index = pd.Index([f"{s} ({w})" for s, w in rows], name="survivor (weapon)")
    return t


def markdown(table: pd.DataFrame, digits: int = 3) -> str:
    """A table as Markdown (probabilities to ``digits`` decimals; a column tuple joined by
    spaces), as the game's docs page shows them."""
    def label(c):
        return " ".join(str(x) for x in c) if isinstance(c, tuple) else str(c)

    def cell(x):
        return f"{float(x):.{digits}f}" if isinstance(x, (float, Fraction)) else str(x)

    head = ", ".join(n for n in table.index.names if n) or ""
    lines = ["| " + " | ".join([head] + [label(c) for c in table.columns]) + " |",
             "|" + "---|" * (len(table.columns) + 1)]
    for i, row in zip(table.index, table.itertuples(index=False)):
        lines.append("| " + " | ".join([label(i)] + [cell(x) for x in row]) + " |")
    return "\n".join(lines)


def exact_tables(ruleset=None, exact: bool = False) -> dict[str, pd.DataFrame]:
    """Every exact table for the designers, by name: ``check`` (success by dice, stress
    colour and SP), ``enemy_attack`` (hit, infection, noise by pool), ``kill_1ap`` and
    ``kill_3ap`` (the chance that one AP, or three, kill a fresh enemy, by survivor,
    weapon, day/night and enemy, at green health) and ``corpse`` (infection from corpses
    and hiding)."""
    rs = _rs(ruleset)
    return {"check": check_table(ruleset=rs, exact=exact),
            "enemy_attack": enemy_attack_table(ruleset=rs, exact=exact),
            "kill_1ap": kill_table("green", aps=1, ruleset=rs, exact=exact),
            "kill_3ap": kill_table("green", aps=3, ruleset=rs, exact=exact),
            "corpse": corpse_table(ruleset=rs, exact=exact)}
