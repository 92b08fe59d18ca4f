"""Day Night Z's turn engine as numba kernels: one city adventure ("Supply run", the
scenario of ``scenario.toml``) at zone level, resumable at every decision.

Arrays (layouts in ``codes``): ``st`` the game state (int64, ``S_*``), ``rng`` the game's
random streams (uint64, ``N_STREAMS``), the packed rules ``dice`` (``pack_dice``), ``tr``
(``pack_tracks``), ``spn`` (``pack_spawn``), ``rl`` (``pack_engine``); ``legal`` an int64
scratch of ``MAX_LEGAL`` action codes.

The turn (rulebook §2): the **actions phase** (the leader picks who activates next; a
survivor spends his AP by health, may stop and keep the rest in reserve), the **city
encounter phase** (each card drawn is resolved, then its survivor may spend his reserve),
the **threat phase** (a threat card: side A activates the zombies by initiative, side B's
condition, hourglasses, the Hunter and infection icons, the noise adjustment).  A decision
with one legal action is taken by the engine (not counted as a decision).

The map is the spec's abstraction (§1): places are city zones and location tiles; on a
place an enemy is *engaged* with one survivor (melee both ways) or *far* (ranged only);
spawns start far; an enemy's action against a survivor on its place engages it
("advance"), or attacks the survivor it is engaged with.  Enemies never leave their place
(zone level: the board's paths are not modelled).

Choices where the rulebook is silent (also listed in ``play.py``):

* leaving a place that holds enemies costs ``map.leave_tile_ap`` (the exit subzone and the
  step out, §4.9) instead of the move's cost; with engaged enemies an Agility check is
  needed first (penalty: their worst evasion); a failed check spends the AP;
* the threat rises (§3.2) when the last survivor leaves a city tile with enemies, or the
  last survivor leaves a location (the enemies of all its tiles); those enemies are
  discarded with the tiles (miniatures back in the box; the Hunter to the stalk area),
  and so are the tiles' corpse and search markers;
  moving between the tiles of a location leaves its enemies in place, no rise;
* a move into or out of an alley zone ends the activation (§4.9 "STOP"; the AP stay in
  reserve) and draws a city encounter card when the zone it reaches holds no enemies;
  a survivor whose activation (or reserve) ends after he moved, in a street zone (an
  exit or a turned surprise zone too) with no enemy, no other survivor and no city tile,
  draws one there (§4.9 "street zone to street zone"; ``street_encounter``);
* entering a location tile never explored draws an exploration card (spawn: the
  location's spawn cards by team size; spawn and search: also a search marker; search: a
  marker); a tile explored before and discarded since draws the spawn cards only;
* a zone search (complete turn, tile free of enemies, once a tile) draws Perception
  cards, the player keeps one (a decision) and checks Perception + card + tile modifier;
  a search marker (``combat.search_item_ap``) draws one card; a found card of either kind
  is a successful search for the scenario;
* a found weapon replaces the carried one of its kind when it deals more damage in this
  survivor's hands (reorganising the inventory is free after a search, §4.7); armour
  counts per body location; biker gloves are discarded on the first damaging hit on the
  arms to ignore it (and its stress and infection);
* SP on a roll (up to ``max_sp_per_roll``) is part of the action's code for attacks,
  searches, the Agility check to leave and item checks; checks the rules force (encounter,
  infection, survivors' tests) are rolled without SP;
* a threat card's struck body location is drawn once a card (uniform, the choices stream);
  rapid fire spends the action's SP on its first attack only; sweep's free attack goes to
  the engaged enemy with the least health left, without SP;
* the threat ambush and the Hunter pick a survivor in a city zone at random (the choices
  stream); ambush cards = ``ambush_spawn_per_survivor`` x the team's starting size.

* a killed enemy leaves a corpse marker on its place (§3.3), discarded with the tile; a
  marker is searched (``combat.search_item_ap``) or hidden among (``combat.hide_ap``, no
  engaged enemy) from the same place; a hidden survivor is no enemy's target, rolls the
  hiding dice again at the start of each of his activations, and stops hiding when he
  attacks, moves or says so (free);

* the flashlight gives day values at night only while its battery unit lasts (§4.2): a
  survivor's activation at night in the dark takes a unit from his backpack
  (``survivor.start_battery`` at the start, a battery corpse marker +1) that lasts the
  card's ``turns`` turns, the turn it is taken included (``lit``); ``turns`` = 0: no battery;

* traps (§4.4, at tile level): ``set_trap`` (``combat.trap_ap``, a Mechanisms check with
  the roll's SP) on a location tile with no trap marker, by a survivor carrying a "stuff for
  traps" card and trap-combinable weapons (``weapons.<w>.trap_damage`` > 0) in his hands, up
  to the card's capacity; a success discards the card and the weapons (the melee hand falls
  back on the fists) and lays a marker of the card's ``amount`` + their trap damage on the
  tile; a failure costs the AP only (the cards are kept).  The marker fires on the first
  enemy that engages a survivor on its tile (``engage``: an enemy's advance, an
  excitement card), before that enemy's next attack: the damage, no resistance, as fire's
  (a kill leaves a corpse and earns nobody SP); the marker is discarded, and with the tile;
* combine card (§4.5): ``combine`` (``combat.combine_ap``) discards a combined card's
  components (component cards carried, one of each kept; a weapon component in his hands)
  and puts the combined weapon in its hand; no check.  Neither action is noisy (§3.9 lists
  no such noise).

Not in: subzones and line of sight, the enemies' special abilities; skills and
allies come from a campaign (``campaign_nb.py``).
"""
from __future__ import annotations

from ....core.jit import njit_nb
from ....core.rng import init_streams_nb, randint_nb
from .. import codes as K
from .dice_nb import attack_nb, check_nb, enemy_attack_nb, pool_nb, roll_face_nb
from .spawn_nb import place_card_nb, reset_minis_nb
from .tracks_nb import (advance_clock_nb, eat_nb, is_night_nb, leave_rise_nb, noise_adjust_nb,
                         sp_gain_nb, threat_lower_cost_nb, threat_raise_nb)

_G = K.S_GLOBALS


# ================================================================== small helpers
@njit_nb
def su(s, f):
    """Index of survivor ``s``'s field ``f`` in the state."""
    return K.S_SURV + s * K.U_W + f


@njit_nb
def en(e, f):
    """Index of enemy slot ``e``'s field ``f``."""
    return K.S_ENEMIES + e * K.EN_W + f


@njit_nb
def pl(p, f):
    """Index of place ``p``'s field ``f``."""
    return K.S_PLACES + p * K.P_W + f


@njit_nb
def night_of(st, tr):
    return 1 if is_night_nb(tr, st[_G + K.G_HOUR]) else 0


@njit_nb
def lit(st, s):
    """Survivor ``s`` carries a flashlight that gives light: it needs no battery, or the
    unit it runs on has turns left (§4.2)."""
    if st[su(s, K.U_FLASHLIGHT)] == 0:
        return 0
    return 1 if st[su(s, K.U_LIGHT_TURNS)] == 0 or st[su(s, K.U_LIGHT)] > 0 else 0


@njit_nb
def attr_of(st, tr, rl, s, a):
    """Survivor ``s``'s attribute ``a`` now: the night value at night unless his flashlight
    is lit (day values at night), plus what his skills add (a campaign's)."""
    base = K.R_SURV + s * K.SV_W
    if night_of(st, tr) == 1 and lit(st, s) == 0:
        return rl[base + K.SV_NIGHT + a] + st[su(s, K.U_BONUS + a)]
    return rl[base + K.SV_DAY + a] + st[su(s, K.U_BONUS + a)]


@njit_nb
def estat(st, tr, rl, kind, stat):
    """An enemy kind's stat on the profile card's side of the hour (day or night)."""
    return rl[K.R_ENEMY + (kind * 2 + night_of(st, tr)) * K.N_ESTAT + stat]


@njit_nb
def stress_level(rl, stress):
    if stress >= rl[K.R_PARAMS + K.RP_STRESS_RED_FROM]:
        return K.L_RED
    if stress >= rl[K.R_PARAMS + K.RP_STRESS_YELLOW_FROM]:
        return K.L_YELLOW
    return K.L_GREEN


@njit_nb
def health_level(rl, health):
    if health <= rl[K.R_PARAMS + K.RP_HEALTH_RED_AT]:
        return K.L_RED
    if health <= rl[K.R_PARAMS + K.RP_HEALTH_YELLOW_AT]:
        return K.L_YELLOW
    return K.L_GREEN


@njit_nb
def ap_for(rl, health):
    """Action points by health (§2, the health wheel)."""
    if health <= 0:
        return 0
    lv = health_level(rl, health)
    if lv == K.L_RED:
        return rl[K.R_PARAMS + K.RP_AP_RED]
    if lv == K.L_YELLOW:
        return rl[K.R_PARAMS + K.RP_AP_YELLOW]
    return rl[K.R_PARAMS + K.RP_AP_GREEN]


@njit_nb
def is_zone(p):
    return p < K.MAX_ZONES


@njit_nb
def loc_of(p):
    """The location of a tile place (-1 for a city zone)."""
    if p < K.MAX_ZONES:
        return -1
    return (p - K.MAX_ZONES) // K.MAX_TILES


@njit_nb
def zone_kind(rl, p):
    if p >= K.MAX_ZONES:
        return -1
    return rl[K.R_ZONES + p]


@njit_nb
def enemies_at(st, p):
    n = 0
    for e in range(K.MAX_ENEMIES):
        if st[en(e, K.EN_KIND)] >= 0 and st[en(e, K.EN_PLACE)] == p:
            n += 1
    return n


@njit_nb
def engaged_with(st, s):
    n = 0
    for e in range(K.MAX_ENEMIES):
        if st[en(e, K.EN_KIND)] >= 0 and st[en(e, K.EN_ENG)] == s:
            n += 1
    return n


@njit_nb
def survivors_at(st, p):
    n = 0
    for s in range(st[_G + K.G_TEAM]):
        if st[su(s, K.U_ALIVE)] == 1 and st[su(s, K.U_PLACE)] == p:
            n += 1
    return n


@njit_nb
def living(st):
    n = 0
    for s in range(st[_G + K.G_TEAM]):
        n += st[su(s, K.U_ALIVE)]
    return n


@njit_nb
def gain_sp(st, tr, s, n):
    st[su(s, K.U_SP)] = sp_gain_nb(tr, st[su(s, K.U_SP)], n)


@njit_nb
def raise_threat(st, tr, n, counter):
    """Threat + ``n`` units, the units actually added counted in global ``counter``."""
    t0 = st[_G + K.G_THREAT]
    t1 = threat_raise_nb(tr, t0, n)
    st[_G + K.G_THREAT] = t1
    st[_G + counter] += t1 - t0


@njit_nb
def weapon_damage(st, tr, rl, s, w):
    """Weapon ``w``'s damage in survivor ``s``'s hands (the strength columns)."""
    strength = attr_of(st, tr, rl, s, K.A_STRENGTH)
    r = K.R_WEAPONS + w * K.W_W
    if strength >= rl[K.R_PARAMS + K.RP_STRENGTH_HIGH]:
        return rl[r + K.W_DMG_STRONG]
    if strength >= rl[K.R_PARAMS + K.RP_STRENGTH_MID]:
        return rl[r + K.W_DMG_MID]
    return rl[r + K.W_DMG_WEAK]


@njit_nb
def weapon_noisy(st, rl, s, w):
    r = K.R_WEAPONS + w * K.W_W
    if rl[r + K.W_NOISY] == 0:
        return 0
    if rl[r + K.W_SUPPRESSIBLE] == 1 and st[su(s, K.U_SUPPRESSOR)] > 0:
        return 0
    return 1


@njit_nb
def skind_of(rl, kind):
    """The first search-card kind of item kind ``kind`` (its amount and check), -1 none."""
    for i in range(K.MAX_SEARCH_KINDS):
        if rl[K.R_SKINDS + i * K.SK_W + K.SK_KIND] == kind:
            return i
    return -1


# ================================================================== decks
@njit_nb
def shuffle_into(st, rng, dst, rl, src, n):
    """``st[dst:dst+n]`` = the cards ``rl[src:src+n]``, shuffled (the decks stream)."""
    for i in range(n):
        st[dst + i] = rl[src + i]
    for i in range(n - 1, 0, -1):
        j = randint_nb(rng, K.STREAM_DECKS, i + 1)
        t = st[dst + i]
        st[dst + i] = st[dst + j]
        st[dst + j] = t


@njit_nb
def draw_card(st, rng, rl, dst, src, n, gpos):
    """The next card of a deck; an exhausted deck is shuffled anew from all its cards
    (assumed: the campaign's discard rules are not modelled)."""
    if st[_G + gpos] >= n:
        shuffle_into(st, rng, dst, rl, src, n)
        st[_G + gpos] = 0
    c = st[dst + st[_G + gpos]]
    st[_G + gpos] += 1
    return c


@njit_nb
def draw_spawn(st, rng, spn):
    n = spn[K.X_PARAMS + K.SP_N_CARDS]
    if st[_G + K.G_POS_SPAWN] >= n:
        shuffle_into(st, rng, K.S_XSPAWN, spn, K.X_DECK, n)
        st[_G + K.G_POS_SPAWN] = 0
    c = st[K.S_XSPAWN + st[_G + K.G_POS_SPAWN]]
    st[_G + K.G_POS_SPAWN] += 1
    return c


# ================================================================== enemies on the board
@njit_nb
def add_enemy(st, kind, p, eng):
    """An enemy of ``kind`` on place ``p`` (engaged with ``eng`` or far): its slot, -1 when
    every slot is taken (then it is not placed)."""
    for e in range(K.MAX_ENEMIES):
        if st[en(e, K.EN_KIND)] < 0:
            st[en(e, K.EN_KIND)] = kind
            st[en(e, K.EN_PLACE)] = p
            st[en(e, K.EN_ENG)] = eng
            st[en(e, K.EN_DMG)] = 0
            st[pl(p, K.P_DEPLOYED)] = 1
            return e
    return -1


@njit_nb
def remove_enemy(st, rl, e, killed):
    """Take enemy ``e`` off the board: its miniature back in the box; the Hunter to the
    stalk area (or out of the adventure when ``killed``), keeping its damage."""
    kind = st[en(e, K.EN_KIND)]
    if kind == K.E_HUNTER:
        if killed == 1:
            st[_G + K.G_HUNTER] = K.HUNTER_DEAD
        else:
            st[_G + K.G_HUNTER] = K.HUNTER_STALK
            st[_G + K.G_HUNTER_DMG] = st[en(e, K.EN_DMG)]
    elif rl[K.R_PARAMS + K.RP_UNLIMITED] == 0:
        st[K.S_MINIS + kind] += 1
    st[en(e, K.EN_KIND)] = -1
    st[en(e, K.EN_PLACE)] = -1
    st[en(e, K.EN_ENG)] = -1
    st[en(e, K.EN_DMG)] = 0


@njit_nb
def spawn_cards(st, rng, tr, spn, rl, p, n):
    """Draw ``n`` spawn cards and place their enemies, far, on place ``p`` (§3.12): the
    card's row at the threat colour, by initiative, within the tile's capacity and the
    miniatures left."""
    units = tr[K.T_PARAMS + K.TP_UNITS]
    for _ in range(n):
        kind = draw_spawn(st, rng, spn)
        level = st[_G + K.G_THREAT] // units
        on_tile = enemies_at(st, p)
        res = place_card_nb(spn, kind, level, night_of(st, tr), st[K.S_MINIS:K.S_MINIS + K.N_ENEMIES],
                            on_tile, st[K.S_PLACED:K.S_PLACED + 64], 0)
        for i in range(res[0]):
            k = st[K.S_PLACED + i]
            if add_enemy(st, k, p, -1) < 0 and rl[K.R_PARAMS + K.RP_UNLIMITED] == 0:
                st[K.S_MINIS + k] += 1
    st[pl(p, K.P_DEPLOYED)] = 1


@njit_nb
def place_one(st, rl, kind, p, eng):
    """One enemy of ``kind`` on ``p`` if a miniature and room are left: its slot or -1."""
    unlimited = rl[K.R_PARAMS + K.RP_UNLIMITED] == 1
    if kind != K.E_HUNTER and not unlimited and st[K.S_MINIS + kind] <= 0:
        return -1
    if enemies_at(st, p) >= rl[K.R_PARAMS + K.RP_TILE_CAPACITY]:
        return -1
    e = add_enemy(st, kind, p, eng)
    if e >= 0 and kind != K.E_HUNTER and not unlimited:
        st[K.S_MINIS + kind] -= 1
    return e


# ================================================================== survivors' fates
@njit_nb
def die(st, s, cause):
    st[su(s, K.U_ALIVE)] = 0
    st[su(s, K.U_DEAD_CAUSE)] = cause
    st[su(s, K.U_AP)] = 0
    st[su(s, K.U_ENCOUNTER)] = -1
    if cause == K.DEAD_DAMAGE:
        st[_G + K.G_DEAD_DAMAGE] += 1
    elif cause == K.DEAD_INFECTION:
        st[_G + K.G_DEAD_INFECTION] += 1
    else:
        st[_G + K.G_DEAD_HUNGER] += 1
    for e in range(K.MAX_ENEMIES):
        if st[en(e, K.EN_KIND)] >= 0 and st[en(e, K.EN_ENG)] == s:
            st[en(e, K.EN_ENG)] = -1


@njit_nb
def check_death(st, rl, s, damage_cause):
    """Health 0 or infection at ``infection_death`` kills (§3.3, §3.7)."""
    if st[su(s, K.U_ALIVE)] == 0:
        return
    if st[su(s, K.U_HEALTH)] <= 0:
        st[su(s, K.U_HEALTH)] = 0
        die(st, s, damage_cause)
    elif st[su(s, K.U_INFECTION)] >= rl[K.R_PARAMS + K.RP_INFECTION_DEATH]:
        die(st, s, K.DEAD_INFECTION)


@njit_nb
def hurt(st, rl, s, n):
    st[su(s, K.U_HEALTH)] -= n
    check_death(st, rl, s, K.DEAD_DAMAGE)


@njit_nb
def add_stress(st, rl, s, n):
    v = st[su(s, K.U_STRESS)] + n
    top = rl[K.R_PARAMS + K.RP_STRESS_MAX]
    st[su(s, K.U_STRESS)] = top if v > top else v


@njit_nb
def heal(st, rl, s, n):
    v = st[su(s, K.U_HEALTH)] + n
    top = rl[K.R_PARAMS + K.RP_HEALTH_MAX]
    st[su(s, K.U_HEALTH)] = top if v > top else v


@njit_nb
def do_check(st, rng, dice, tr, rl, s, base, sp):
    """An attribute check of survivor ``s`` (§3.4): ``base`` dice (attribute and
    modifiers) + ``sp`` SP spent, at his stress colour; a pass earns SP (§3.5)."""
    if sp > 0:
        st[su(s, K.U_SP)] -= sp
        st[_G + K.G_SP_ROLLS] += sp
    ok = check_nb(dice, rng, pool_nb(dice, base, sp), stress_level(rl, st[su(s, K.U_STRESS)]))
    if ok == 1:
        gain_sp(st, tr, s, rl[K.R_PARAMS + K.RP_SP_PER_CHECK])
    return ok


@njit_nb
def corpse_roll(st, rng, dice, rl, s, n):
    """``n`` dice for a corpse or hiding among corpses (§3.7): any infection icon raises the
    infection level by 1, even if infected."""
    hit = 0
    for _ in range(n):
        f = roll_face_nb(dice, rng)
        if dice[K.D_FACES + f * K.F_N + K.F_INFECTION] == 1:
            hit = 1
    if hit == 1:
        st[su(s, K.U_INFECTION)] += 1
        check_death(st, rl, s, K.DEAD_DAMAGE)


# ================================================================== combat
@njit_nb
def enemy_attack(st, rng, dice, tr, rl, e, s, struck):
    """Enemy ``e`` attacks survivor ``s`` (§4.12): pool = attack - cover - Defense (+ the
    defensive position) - armour on the struck location, min 1; a skull hits."""
    kind = st[en(e, K.EN_KIND)]
    base = estat(st, tr, rl, kind, K.ES_ATTACK) - attr_of(st, tr, rl, s, K.A_DEFENSE)
    if rl[K.R_PARAMS + K.RP_COVER_TILES] == 1 or terrain_of(rl, st[su(s, K.U_PLACE)]) == K.TT_COVER:
        base -= rl[K.R_PARAMS + K.RP_COVER_PENALTY]
    if st[su(s, K.U_DEFENDING)] == 1:
        base -= rl[K.R_PARAMS + K.RP_DEFEND_BONUS]
    if st[su(s, K.U_ARMOUR) + struck] > 0:
        base -= rl[K.R_PARAMS + K.RP_ARMOUR_PENALTY]
    dmg = estat(st, tr, rl, kind, K.ES_DAMAGE)
    inf0 = 1 if st[su(s, K.U_INFECTION)] > 0 else 0
    skull, stress, inf, noise = enemy_attack_nb(dice, rng, pool_nb(dice, base, 0), inf0, dmg)
    if noise == 1:
        st[_G + K.G_RED_NOISE] += 1
    if skull == 1 and dmg > 0:
        if struck == rl[K.R_PARAMS + K.RP_CANCEL_LOCATION] and st[su(s, K.U_GLOVES)] > 0:
            # biker gloves: discarded to ignore the whole attack on the arms (§4.12)
            st[su(s, K.U_GLOVES)] -= 1
            st[su(s, K.U_ARMOUR) + struck] -= 1
            return
        if kind == K.E_HUNTER:
            st[_G + K.G_HUNTER_DAMAGE] += dmg
        add_stress(st, rl, s, stress)
        st[su(s, K.U_INFECTION)] += inf
        hurt(st, rl, s, dmg)


@njit_nb
def kill_enemy(st, tr, rl, s, e):
    kind = st[en(e, K.EN_KIND)]
    gain_sp(st, tr, s, estat(st, tr, rl, kind, K.ES_SP))
    st[_G + K.G_KILLS] += 1
    if kind == K.E_HUNTER:
        st[_G + K.G_HUNTER_KILLS] += 1
    # its miniature is replaced by a corpse marker (§3.3)
    st[pl(st[en(e, K.EN_PLACE)], K.P_CORPSES)] += 1
    remove_enemy(st, rl, e, 1)


@njit_nb
def one_attack(st, rng, dice, tr, rl, s, e, w, attr, sp):
    """One attack roll of survivor ``s`` with weapon ``w`` on enemy ``e``: 1 if it killed.
    A target of the health colour hits, the weapon's damage once less resistance (pierce:
    none), a star fires the weapon's star trait; a noisy weapon leaves a counter."""
    r = K.R_WEAPONS + w * K.W_W
    kind = st[en(e, K.EN_KIND)]
    base = attr_of(st, tr, rl, s, attr) - estat(st, tr, rl, kind, K.ES_DEFENSE)
    if attr == K.A_RANGED and (rl[K.R_PARAMS + K.RP_HIGH_GROUND_TILES] == 1
                               or terrain_of(rl, st[su(s, K.U_PLACE)]) == K.TT_HIGH):
        base += rl[K.R_PARAMS + K.RP_HIGH_GROUND]  # high terrain: +1 to ranged attacks (§3.10)
    if sp > 0:
        st[su(s, K.U_SP)] -= sp
        st[_G + K.G_SP_ROLLS] += sp
    hit, star = attack_nb(dice, rng, pool_nb(dice, base, sp), health_level(rl, st[su(s, K.U_HEALTH)]),
                          stress_level(rl, st[su(s, K.U_STRESS)]))
    if rl[r + K.W_AMMO] > 0:
        st[su(s, K.U_AMMO)] -= rl[r + K.W_AMMO]
    if weapon_noisy(st, rl, s, w) == 1:
        st[_G + K.G_RED_NOISE] += 1
        st[su(s, K.U_NOISY_USED)] = 1
        st[su(s, K.U_NOISE_MADE)] += 1
    if hit == 0:
        return 0
    if rl[K.R_PARAMS + K.RP_ATTACKS_EARN_SP] == 1:
        gain_sp(st, tr, s, rl[K.R_PARAMS + K.RP_SP_PER_CHECK])
    pierce = rl[r + K.W_PIERCE] == 1 or (star == 1 and rl[r + K.W_STAR] == K.STAR_PIERCE)
    d = weapon_damage(st, tr, rl, s, w)
    if not pierce:
        d -= estat(st, tr, rl, kind, K.ES_RESIST)
    if d > 0:
        st[en(e, K.EN_DMG)] += d
    if st[en(e, K.EN_DMG)] >= estat(st, tr, rl, kind, K.ES_HEALTH):
        kill_enemy(st, tr, rl, s, e)
        if star == 1 and rl[r + K.W_STAR] == K.STAR_SWEEP:
            return 2
        return 1
    return 0


@njit_nb
def attack_action(st, rng, dice, tr, rl, s, e, ranged, sp):
    """The attack action (§4.12): melee with the carried melee weapon on an engaged enemy,
    or a shot; rapid fire repeats on the same target; sweep's free attack on a kill."""
    if ranged == 1:
        w = st[su(s, K.U_RANGED)]
        attr = K.A_RANGED
    else:
        w = st[su(s, K.U_MELEE)]
        attr = K.A_HTH
    r = K.R_WEAPONS + w * K.W_W
    st[su(s, K.U_HIDDEN)] = 0          # attacking ends hiding (§4.13)
    if rl[r + K.W_SLOW] == 1:
        st[su(s, K.U_SLOW_USED)] = 1
    st[su(s, K.U_AP)] -= rl[K.R_PARAMS + K.RP_ATTACK_AP]
    st[su(s, K.U_ACTED)] = 1
    n = rl[r + K.W_PER_AP]
    for i in range(n):
        if st[en(e, K.EN_KIND)] < 0:
            break
        if rl[r + K.W_AMMO] > 0 and st[su(s, K.U_AMMO)] < rl[r + K.W_AMMO]:
            break
        res = one_attack(st, rng, dice, tr, rl, s, e, w, attr, sp if i == 0 else 0)
        if res == 2:
            # sweep: a free attack on another engaged enemy (the least health left)
            best = -1
            bl = 1 << 30
            for f in range(K.MAX_ENEMIES):
                if st[en(f, K.EN_KIND)] >= 0 and st[en(f, K.EN_ENG)] == s:
                    left = estat(st, tr, rl, st[en(f, K.EN_KIND)], K.ES_HEALTH) - st[en(f, K.EN_DMG)]
                    if left < bl:
                        bl = left
                        best = f
            if best >= 0:
                one_attack(st, rng, dice, tr, rl, s, best, w, attr, 0)
            break


# ================================================================== leaving places
@njit_nb
def leave_rule(st, tr, rl, p):
    """The last survivor has perhaps left place ``p``: a city tile with enemies, or (a tile
    of) a location.  Threat rises by the leave bands of the enemies' SP sum (§3.2), and the
    enemies go with the tiles."""
    loc = loc_of(p)
    if loc < 0:
        if survivors_at(st, p) > 0:
            return
        spsum = 0
        n = 0
        for e in range(K.MAX_ENEMIES):
            if st[en(e, K.EN_KIND)] >= 0 and st[en(e, K.EN_PLACE)] == p:
                spsum += estat(st, tr, rl, st[en(e, K.EN_KIND)], K.ES_SP)
                n += 1
        if n > 0:
            raise_threat(st, tr, leave_rise_nb(tr, spsum), K.G_THR_LEAVING)
            for e in range(K.MAX_ENEMIES):
                if st[en(e, K.EN_KIND)] >= 0 and st[en(e, K.EN_PLACE)] == p:
                    remove_enemy(st, rl, e, 0)
        st[pl(p, K.P_DEPLOYED)] = 0
        st[pl(p, K.P_CORPSES)] = 0
        return
    first = K.MAX_ZONES + loc * K.MAX_TILES
    for s in range(st[_G + K.G_TEAM]):
        if st[su(s, K.U_ALIVE)] == 1 and loc_of(st[su(s, K.U_PLACE)]) == loc:
            return
    spsum = 0
    n = 0
    for e in range(K.MAX_ENEMIES):
        if st[en(e, K.EN_KIND)] >= 0 and loc_of(st[en(e, K.EN_PLACE)]) == loc:
            spsum += estat(st, tr, rl, st[en(e, K.EN_KIND)], K.ES_SP)
            n += 1
    if n > 0:
        raise_threat(st, tr, leave_rise_nb(tr, spsum), K.G_THR_LEAVING)
        for e in range(K.MAX_ENEMIES):
            if st[en(e, K.EN_KIND)] >= 0 and loc_of(st[en(e, K.EN_PLACE)]) == loc:
                remove_enemy(st, rl, e, 0)
    for t in range(K.MAX_TILES):
        # the tiles are discarded with every marker on them (§4.9, example 1)
        st[pl(first + t, K.P_DEPLOYED)] = 0
        st[pl(first + t, K.P_CORPSES)] = 0
        st[pl(first + t, K.P_MARKERS)] = 0
        st[pl(first + t, K.P_TRAP)] = 0


@njit_nb
def terrain_of(rl, p):
    """Place ``p``'s terrain (``TT_*``): a location tile's, none in a city zone."""
    if p < 0:
        return K.TT_NONE
    return rl[K.R_TERRAIN + p]


@njit_nb
def move_cost(st, rl, s, q):
    """AP to move survivor ``s`` to neighbour place ``q`` (flooded or hollow terrain: the
    extra AP of §3.10 included)."""
    p = st[su(s, K.U_PLACE)]
    c = rl[K.R_PARAMS + K.RP_MOVE_AP]
    if is_zone(p) and not is_zone(q):
        c = rl[K.R_PARAMS + K.RP_ENTER_LOCATION_AP]
    if enemies_at(st, p) > 0:
        lt = rl[K.R_PARAMS + K.RP_LEAVE_TILE_AP]
        if lt > c:
            c = lt
    t = terrain_of(rl, q)
    if t == K.TT_FLOODED or t == K.TT_HOLLOW:
        c += rl[K.R_PARAMS + K.RP_FLOODED_AP]
    return c


@njit_nb
def can_move(st, rl, s, q, ap):
    """Short of AP, flooded or hollow terrain may be entered for the AP of a plain move and a
    stress point (§3.10)."""
    c = move_cost(st, rl, s, q)
    if c <= ap:
        return True
    t = terrain_of(rl, q)
    return (t == K.TT_FLOODED or t == K.TT_HOLLOW) and c - rl[K.R_PARAMS + K.RP_FLOODED_AP] <= ap


@njit_nb
def arrive(st, rng, dice, tr, spn, rl, s, p, q):
    """Survivor ``s`` reaches place ``q`` from ``p``: STOP and encounters, surprises,
    exploration and spawns (§4.9, §4.11)."""
    team0 = st[_G + K.G_TEAM]
    if is_zone(q):
        if zone_kind(rl, q) == K.Z_ALLEY or (is_zone(p) and zone_kind(rl, p) == K.Z_ALLEY):
            st[su(s, K.U_ACTIVATED)] = 2   # STOP: the activation ends, AP in reserve
            if enemies_at(st, q) == 0 and st[su(s, K.U_ENCOUNTER)] < 0:
                st[su(s, K.U_ENCOUNTER)] = draw_card(st, rng, rl, K.S_EDECK, K.R_EDECK,
                                                     rl[K.R_PARAMS + K.RP_N_ENC], K.G_POS_ENC)
        elif zone_kind(rl, q) == K.Z_SURPRISE and st[pl(q, K.P_SURPRISED)] == 0:
            st[pl(q, K.P_SURPRISED)] = 1
            c = draw_card(st, rng, rl, K.S_UDECK, K.R_UDECK, rl[K.R_PARAMS + K.RP_N_SUR], K.G_POS_SUR)
            r = K.R_UKINDS + c * K.UK_W
            kind = rl[r + K.UK_KIND]
            if kind == K.SUR_HORDE:
                spawn_cards(st, rng, tr, spn, rl, q, rl[r + K.UK_SPAWN])
            elif kind == K.SUR_ENEMY_AMBUSH:
                # the card's city tile is laid when the card is turned, as a horde's is,
                # even when its enemy cannot be placed (no miniature left, no room)
                st[pl(q, K.P_DEPLOYED)] = 1
                eng = s if engaged_with(st, s) < rl[K.R_PARAMS + K.RP_ENGAGED_CAP] else -1
                e = place_one(st, rl, rl[r + K.UK_ENEMY], q, eng)
                if e >= 0 and eng == s:
                    enemy_attack(st, rng, dice, tr, rl, e, s, randint_nb(rng, K.STREAM_CHOICES, K.N_BODY))
            else:
                st[su(s, K.U_SUPPLIES)] += rl[r + K.UK_AMOUNT]
        return
    if terrain_of(rl, q) == K.TT_NOISY:  # entering noisy terrain: a noise counter (§3.10)
        st[_G + K.G_RED_NOISE] += 1
        st[su(s, K.U_NOISE_MADE)] += 1
    if st[pl(q, K.P_DEPLOYED)] == 1:
        return
    loc = loc_of(q)
    lr = K.R_LOCS + loc * K.LK_W
    ncards = rl[lr + K.LK_SPAWN_SMALL] if team0 <= rl[lr + K.LK_SMALL_TEAM] else rl[lr + K.LK_SPAWN_LARGE]
    st[pl(q, K.P_DEPLOYED)] = 1
    if st[pl(q, K.P_EXPLORED)] == 1:
        spawn_cards(st, rng, tr, spn, rl, q, ncards)
        return
    st[pl(q, K.P_EXPLORED)] = 1
    x = draw_card(st, rng, rl, K.S_XDECK, K.R_XDECK, rl[K.R_PARAMS + K.RP_N_EXP], K.G_POS_EXP)
    if x == K.EXP_SPAWN or x == K.EXP_SPAWN_SEARCH:
        spawn_cards(st, rng, tr, spn, rl, q, ncards)
    if x == K.EXP_SPAWN_SEARCH or x == K.EXP_SEARCH:
        st[pl(q, K.P_MARKERS)] += 1


@njit_nb
def move_action(st, rng, dice, tr, spn, rl, s, q, sp):
    p = st[su(s, K.U_PLACE)]
    c = move_cost(st, rl, s, q)
    if c > st[su(s, K.U_AP)]:  # flooded or hollow, short of AP: a plain move and a stress point
        c -= rl[K.R_PARAMS + K.RP_FLOODED_AP]
        add_stress(st, rl, s, 1)
    st[su(s, K.U_AP)] -= c
    st[su(s, K.U_ACTED)] = 1
    st[su(s, K.U_HIDDEN)] = 0          # the corpses stay behind
    if engaged_with(st, s) > 0:
        # leaving engaged enemies: an Agility check, penalty their worst evasion (§4.9)
        worst = 0
        for e in range(K.MAX_ENEMIES):
            if st[en(e, K.EN_KIND)] >= 0 and st[en(e, K.EN_ENG)] == s:
                v = estat(st, tr, rl, st[en(e, K.EN_KIND)], K.ES_EVASION)
                if v < worst:
                    worst = v
        if do_check(st, rng, dice, tr, rl, s, attr_of(st, tr, rl, s, K.A_AGILITY) + worst, sp) == 0:
            return
        for e in range(K.MAX_ENEMIES):
            if st[en(e, K.EN_KIND)] >= 0 and st[en(e, K.EN_ENG)] == s:
                st[en(e, K.EN_ENG)] = -1
    st[su(s, K.U_PLACE)] = q
    st[su(s, K.U_MOVED)] = 1
    leave_rule(st, tr, rl, p)
    arrive(st, rng, dice, tr, spn, rl, s, p, q)


@njit_nb
def jump_action(st, rng, dice, tr, spn, rl, s, sp):
    """Jump (§4.10): from a tile with a subzone to jump from, ``map.jump_ap`` AP and an
    Agility check less ``map.jump_penalty`` dice (and the engaged enemies' worst evasion);
    a success lands the survivor on the location's street zone as a move there would
    (engaged enemies left behind, the leave-behind threat, the street's encounters); a
    failure only costs the AP."""
    p = st[su(s, K.U_PLACE)]
    st[su(s, K.U_AP)] -= rl[K.R_PARAMS + K.RP_JUMP_AP]
    st[su(s, K.U_ACTED)] = 1
    st[su(s, K.U_HIDDEN)] = 0
    worst = 0
    for e in range(K.MAX_ENEMIES):
        if st[en(e, K.EN_KIND)] >= 0 and st[en(e, K.EN_ENG)] == s:
            v = estat(st, tr, rl, st[en(e, K.EN_KIND)], K.ES_EVASION)
            if v < worst:
                worst = v
    base = attr_of(st, tr, rl, s, K.A_AGILITY) - rl[K.R_PARAMS + K.RP_JUMP_PENALTY] + worst
    if do_check(st, rng, dice, tr, rl, s, base, sp) == 0:
        return
    for e in range(K.MAX_ENEMIES):
        if st[en(e, K.EN_KIND)] >= 0 and st[en(e, K.EN_ENG)] == s:
            st[en(e, K.EN_ENG)] = -1
    q = rl[K.R_LOCS + loc_of(p) * K.LK_W + K.LK_ACCESS]
    st[su(s, K.U_PLACE)] = q
    st[su(s, K.U_MOVED)] = 1
    leave_rule(st, tr, rl, p)
    arrive(st, rng, dice, tr, spn, rl, s, p, q)


# ================================================================== searching
@njit_nb
def gain_card(st, tr, rl, s, c):
    """Survivor ``s`` keeps search card kind ``c``."""
    r = K.R_SKINDS + c * K.SK_W
    kind = rl[r + K.SK_KIND]
    if kind == K.SC_SUPPLIES:
        st[su(s, K.U_SUPPLIES)] += rl[r + K.SK_AMOUNT]
    elif kind == K.SC_AMMO:
        st[su(s, K.U_AMMO)] += rl[r + K.SK_AMOUNT]
    elif kind == K.SC_WEAPON:
        w = rl[r + K.SK_WEAPON]
        slot = K.U_RANGED if rl[K.R_WEAPONS + w * K.W_W + K.W_RANGED] == 1 else K.U_MELEE
        cur = st[su(s, slot)]
        if cur < 0 or weapon_damage(st, tr, rl, s, w) > weapon_damage(st, tr, rl, s, cur):
            st[su(s, slot)] = w
    elif kind == K.SC_ARMOUR:
        st[su(s, K.U_ARMOUR) + rl[r + K.SK_LOCATION]] += 1
        if rl[r + K.SK_CANCELS] == 1:
            st[su(s, K.U_GLOVES)] += 1
    elif kind == K.SC_PAINKILLERS:
        st[su(s, K.U_PAINKILLERS)] += 1
    elif kind == K.SC_FIRST_AID:
        st[su(s, K.U_FIRST_AID)] += 1
    elif kind == K.SC_VACCINE:
        st[su(s, K.U_VACCINES)] += 1
    elif kind == K.SC_SUPPRESSOR:
        st[su(s, K.U_SUPPRESSOR)] = 1
    elif kind == K.SC_FLASHLIGHT:
        st[su(s, K.U_FLASHLIGHT)] = 1
        st[su(s, K.U_LIGHT_TURNS)] = rl[r + K.SK_TURNS]
    elif kind == K.SC_TRAP_STUFF:
        st[su(s, K.U_TRAP_STUFF)] += 1
    else:  # a component card (one of each kind kept)
        st[su(s, K.U_PARTS)] |= 1 << c


@njit_nb
def search_check(st, rng, dice, tr, rl, s, c, extra, sp):
    """Perception check for search card kind ``c`` (its modifier + ``extra``); found: kept,
    a successful search."""
    base = attr_of(st, tr, rl, s, K.A_PERCEPTION) + rl[K.R_SKINDS + c * K.SK_W + K.SK_MOD] + extra
    if do_check(st, rng, dice, tr, rl, s, base, sp) == 1:
        st[_G + K.G_SEARCHES] += 1
        gain_card(st, tr, rl, s, c)


@njit_nb
def trap_mask_ok(st, rl, s, mask):
    """The carried weapons of ``mask`` (``TRAP_MELEE``, ``TRAP_RANGED``) all combine with
    traps and fit the stuff-for-traps card's capacity (§4.4)."""
    c = skind_of(rl, K.SC_TRAP_STUFF)
    if c < 0:
        return False
    n = 0
    for bit, f in ((K.TRAP_MELEE, K.U_MELEE), (K.TRAP_RANGED, K.U_RANGED)):
        if mask & bit:
            w = st[su(s, f)]
            if w < 0 or rl[K.R_WEAPONS + w * K.W_W + K.W_TRAP] <= 0:
                return False
            n += 1
    return 0 < n <= rl[K.R_SKINDS + c * K.SK_W + K.SK_CAPACITY]


@njit_nb
def set_trap_action(st, rng, dice, tr, rl, s, mask, sp):
    """Set traps (§4.4): ``combat.trap_ap`` AP and a Mechanisms check (SP as any check); a
    success discards the stuff for traps and the weapons of ``mask`` (the melee hand keeps
    the fists) and lays a trap marker of the card's ``amount`` + their ``trap_damage`` on
    the survivor's tile; a failure costs the AP only."""
    st[su(s, K.U_AP)] -= rl[K.R_PARAMS + K.RP_TRAP_AP]
    st[su(s, K.U_ACTED)] = 1
    if do_check(st, rng, dice, tr, rl, s, attr_of(st, tr, rl, s, K.A_MECH), sp) == 0:
        return
    c = skind_of(rl, K.SC_TRAP_STUFF)
    d = rl[K.R_SKINDS + c * K.SK_W + K.SK_AMOUNT]
    st[su(s, K.U_TRAP_STUFF)] -= 1
    if mask & K.TRAP_MELEE:
        d += rl[K.R_WEAPONS + st[su(s, K.U_MELEE)] * K.W_W + K.W_TRAP]
        st[su(s, K.U_MELEE)] = rl[K.R_PARAMS + K.RP_FISTS]
    if mask & K.TRAP_RANGED:
        d += rl[K.R_WEAPONS + st[su(s, K.U_RANGED)] * K.W_W + K.W_TRAP]
        st[su(s, K.U_RANGED)] = -1
    st[pl(st[su(s, K.U_PLACE)], K.P_TRAP)] = d
    st[_G + K.G_TRAPS_SET] += 1


@njit_nb
def can_combine(st, rl, s, c):
    """Survivor ``s`` carries every component of combined card kind ``c`` (§4.5)."""
    r = K.R_SKINDS + c * K.SK_W
    need = rl[r + K.SK_PARTS]
    if need == 0:   # not a combined card (one has a component card, ruleset.py), or no kind
        return False
    pw = rl[r + K.SK_PART_WEAPON]
    if (st[su(s, K.U_PARTS)] & need) != need:
        return False
    return pw < 0 or st[su(s, K.U_MELEE)] == pw or st[su(s, K.U_RANGED)] == pw


@njit_nb
def combine_action(st, tr, rl, s, c):
    """Combine card (§4.5): ``combat.combine_ap`` AP, the components discarded (a weapon
    component from his hand), the combined weapon into its hand."""
    st[su(s, K.U_AP)] -= rl[K.R_PARAMS + K.RP_COMBINE_AP]
    st[su(s, K.U_ACTED)] = 1
    r = K.R_SKINDS + c * K.SK_W
    st[su(s, K.U_PARTS)] &= ~rl[r + K.SK_PARTS]
    pw = rl[r + K.SK_PART_WEAPON]
    if pw >= 0:
        if st[su(s, K.U_MELEE)] == pw:
            st[su(s, K.U_MELEE)] = rl[K.R_PARAMS + K.RP_FISTS]
        elif st[su(s, K.U_RANGED)] == pw:
            st[su(s, K.U_RANGED)] = -1
    w = rl[r + K.SK_WEAPON]
    st[su(s, K.U_RANGED if rl[K.R_WEAPONS + w * K.W_W + K.W_RANGED] == 1 else K.U_MELEE)] = w
    st[_G + K.G_COMBINED] += 1


@njit_nb
def draw_search(st, rng, rl):
    return draw_card(st, rng, rl, K.S_SDECK, K.R_SDECK, rl[K.R_PARAMS + K.RP_N_SEARCH], K.G_POS_SEARCH)


# ================================================================== the clock and the threat phase
@njit_nb
def hunter_enters_night(st):
    if st[_G + K.G_HUNTER] != K.HUNTER_DEAD:
        st[_G + K.G_HUNTER_DMG] = 0
    st[_G + K.G_HUNTER_ICON_SEEN] = 0


@njit_nb
def advance_hours(st, rng, dice, tr, rl, k):
    """The clock moves ``k`` hours; each hour passed fires its events (§3.1)."""
    if k <= 0:
        return
    fired = st[K.S_FIRED:K.S_FIRED + 8]
    h0 = st[_G + K.G_HOUR]
    advance_clock_nb(tr, h0, k, fired)
    for i in range(k):
        h = (h0 + i + 1) % 24
        st[_G + K.G_HOUR] = h
        nt = 1 if is_night_nb(tr, h) else 0
        if nt == 1 and st[_G + K.G_LAST_NIGHT] == 0:
            hunter_enters_night(st)
        st[_G + K.G_LAST_NIGHT] = nt
        ev = st[K.S_FIRED + i]
        team = st[_G + K.G_TEAM]
        if ev & K.EV_DAWN:
            for s in range(team):
                if st[su(s, K.U_ALIVE)] == 1:
                    gain_sp(st, tr, s, tr[K.T_PARAMS + K.TP_DAWN_SP])
            for e in range(K.MAX_ENEMIES):
                if st[en(e, K.EN_KIND)] == K.E_HUNTER:
                    remove_enemy(st, rl, e, 0)
            if st[_G + K.G_HUNTER] != K.HUNTER_DEAD:
                st[_G + K.G_HUNTER] = K.HUNTER_BOX
        if ev & K.EV_INFECTION:
            for s in range(team):
                if st[su(s, K.U_ALIVE)] == 1 and st[su(s, K.U_INFECTION)] > 0:
                    if do_check(st, rng, dice, tr, rl, s, attr_of(st, tr, rl, s, K.A_STRENGTH), 0) == 0:
                        st[su(s, K.U_INFECTION)] += 1
                        check_death(st, rl, s, K.DEAD_DAMAGE)
        if ev & K.EV_EAT:
            for s in range(team):
                if st[su(s, K.U_ALIVE)] == 1:
                    h2, left = eat_nb(tr, st[su(s, K.U_HEALTH)], st[su(s, K.U_SUPPLIES)], st[su(s, K.U_EATS)])
                    st[su(s, K.U_HEALTH)] = h2
                    st[su(s, K.U_SUPPLIES)] = left
                    check_death(st, rl, s, K.DEAD_HUNGER)
        if ev & K.EV_THREAT:
            raise_threat(st, tr, tr[K.T_PARAMS + K.TP_THREAT_HOUR_RISE], K.G_THR_CLOCK)


@njit_nb
def engage(st, tr, rl, e, t):
    """Enemy ``e`` engages survivor ``t`` on its place (it comes to his subzone).  A trap
    marker on the place fires on it (§4.4 at tile level): its damage (no resistance), the
    marker discarded; a kill leaves a corpse marker and earns nobody SP (as fire's)."""
    st[en(e, K.EN_ENG)] = t
    p = st[en(e, K.EN_PLACE)]
    d = st[pl(p, K.P_TRAP)]
    if d > 0:
        st[pl(p, K.P_TRAP)] = 0
        st[_G + K.G_TRAP_HITS] += 1
        st[en(e, K.EN_DMG)] += d
        if st[en(e, K.EN_DMG)] >= estat(st, tr, rl, st[en(e, K.EN_KIND)], K.ES_HEALTH):
            st[_G + K.G_TRAP_KILLS] += 1
            st[pl(p, K.P_CORPSES)] += 1
            remove_enemy(st, rl, e, 1)


@njit_nb
def pick_target(st, rl, p, need_room):
    """The priority survivor on place ``p`` (§3.14): noisiest then weakest (default) or
    weakest then noisiest; ``need_room``: only one engaged with fewer than ``engaged_cap``."""
    best = -1
    bn = 0
    bh = 0
    swap = rl[K.R_PARAMS + K.RP_TARGET_PRIORITY] == 1
    cap = rl[K.R_PARAMS + K.RP_ENGAGED_CAP]
    for s in range(st[_G + K.G_TEAM]):
        if st[su(s, K.U_ALIVE)] == 0 or st[su(s, K.U_PLACE)] != p or st[su(s, K.U_HIDDEN)] == 1:
            continue
        if need_room == 1 and engaged_with(st, s) >= cap:
            continue
        nz = st[su(s, K.U_NOISE_MADE)]
        h = st[su(s, K.U_HEALTH)]
        if best < 0:
            better = True
        elif swap:
            better = h < bh or (h == bh and nz > bn)
        else:
            better = nz > bn or (nz == bn and h < bh)
        if better:
            best = s
            bn = nz
            bh = h
    return best


@njit_nb
def enemy_action(st, rng, dice, tr, rl, e, struck):
    """One action of enemy ``e``: the first true line of side A (§3.14): attack the
    survivor it is engaged with; else advance on the priority survivor of its place."""
    s = st[en(e, K.EN_ENG)]
    if s >= 0:
        enemy_attack(st, rng, dice, tr, rl, e, s, struck)
        return
    t = pick_target(st, rl, st[en(e, K.EN_PLACE)], 1)
    if t >= 0:
        engage(st, tr, rl, e, t)


@njit_nb
def random_city_survivor(st, rng):
    """A living survivor in a city zone, at random (the choices stream); -1 none."""
    n = 0
    for s in range(st[_G + K.G_TEAM]):
        if st[su(s, K.U_ALIVE)] == 1 and is_zone(st[su(s, K.U_PLACE)]):
            n += 1
    if n == 0:
        return -1
    k = randint_nb(rng, K.STREAM_CHOICES, n)
    for s in range(st[_G + K.G_TEAM]):
        if st[su(s, K.U_ALIVE)] == 1 and is_zone(st[su(s, K.U_PLACE)]):
            if k == 0:
                return s
            k -= 1
    return -1


@njit_nb
def threat_phase(st, rng, dice, tr, spn, rl):
    """A threat card (§2.3): side A's zombie activation, side B's condition, then its
    icons: hourglasses, the Hunter, infection, and the noise adjustment."""
    n = rl[K.R_PARAMS + K.RP_N_THREAT]
    if st[_G + K.G_POS_THREAT] >= n:
        for (dst, src) in ((K.S_T_SIDE, K.R_T_SIDE), (K.S_T_HOURS, K.R_T_HOURS), (K.S_T_HUNTER, K.R_T_HUNTER),
                           (K.S_T_INF, K.R_T_INF), (K.S_T_COND, K.R_T_COND)):
            shuffle_into(st, rng, dst, rl, src, n)
        st[_G + K.G_POS_THREAT] = 0
    c = st[_G + K.G_POS_THREAT]
    st[_G + K.G_POS_THREAT] = c + 1
    side = st[K.S_T_SIDE + c]
    struck = randint_nb(rng, K.STREAM_CHOICES, K.N_BODY)
    # side A
    if side == K.SIDE_EXCITEMENT:
        for e in range(K.MAX_ENEMIES):
            if st[en(e, K.EN_KIND)] >= 0 and st[en(e, K.EN_ENG)] < 0:
                t = pick_target(st, rl, st[en(e, K.EN_PLACE)], 1)
                if t >= 0:
                    engage(st, tr, rl, e, t)
    extra = rl[K.R_PARAMS + K.RP_FURY_ACTIONS] if side == K.SIDE_FURY else 0
    nt = night_of(st, tr)
    for r in range(K.N_ENEMIES):
        kind = spn[K.X_ORDER + nt * K.N_ENEMIES + r]
        acts = estat(st, tr, rl, kind, K.ES_ACTIONS) + extra
        for e in range(K.MAX_ENEMIES):
            if st[en(e, K.EN_KIND)] != kind:
                continue
            for _ in range(acts):
                if st[en(e, K.EN_KIND)] != kind:
                    break
                enemy_action(st, rng, dice, tr, rl, e, struck)
        if living(st) == 0:
            return
    # side B: the condition
    cond = st[K.S_T_COND + c]
    team0 = st[_G + K.G_TEAM]
    if cond == K.COND_NOISY:
        used = 0
        for s in range(team0):
            if st[su(s, K.U_ALIVE)] == 1 and st[su(s, K.U_NOISY_USED)] == 1:
                used = 1
        if used == 1:
            raise_threat(st, tr, rl[K.R_PARAMS + K.RP_NOISY_WEAPON_THREAT], K.G_THR_CARDS)
    elif cond == K.COND_AMBUSH:
        s = random_city_survivor(st, rng)
        if s >= 0:
            spawn_cards(st, rng, tr, spn, rl, st[su(s, K.U_PLACE)], rl[K.R_PARAMS + K.RP_AMBUSH_PER_SURVIVOR] * team0)
    elif cond == K.COND_RED_STRESS:
        for s in range(team0):
            if st[su(s, K.U_ALIVE)] == 1 and stress_level(rl, st[su(s, K.U_STRESS)]) == K.L_RED:
                hurt(st, rl, s, rl[K.R_PARAMS + K.RP_RED_STRESS_HEALTH])
    # icons: hourglasses
    advance_hours(st, rng, dice, tr, rl, st[K.S_T_HOURS + c])
    # the Hunter (§3.13): night only; the night's first icon puts it in the stalk area
    if st[K.S_T_HUNTER + c] == 1 and night_of(st, tr) == 1 and st[_G + K.G_HUNTER] != K.HUNTER_DEAD:
        if st[_G + K.G_HUNTER_ICON_SEEN] == 0:
            st[_G + K.G_HUNTER_ICON_SEEN] = 1
            if st[_G + K.G_HUNTER] == K.HUNTER_BOX:
                st[_G + K.G_HUNTER] = K.HUNTER_STALK
        elif st[_G + K.G_HUNTER] == K.HUNTER_STALK or st[_G + K.G_HUNTER] == K.HUNTER_BOX:
            s = random_city_survivor(st, rng)
            if s >= 0:
                e = place_one(st, rl, K.E_HUNTER, st[su(s, K.U_PLACE)], -1)
                if e >= 0:
                    st[en(e, K.EN_DMG)] = st[_G + K.G_HUNTER_DMG]
                    st[_G + K.G_HUNTER] = K.HUNTER_BOARD
                    st[_G + K.G_HUNTER_SPAWNS] += 1
    # the infection icon (§3.7): infected survivors suffer by their level
    if st[K.S_T_INF + c] == 1:
        for s in range(team0):
            if st[su(s, K.U_ALIVE)] == 0:
                continue
            lv = st[su(s, K.U_INFECTION)]
            if lv == 1:
                add_stress(st, rl, s, rl[K.R_PARAMS + K.RP_INF_L1_STRESS])
            elif lv == 2:
                hurt(st, rl, s, rl[K.R_PARAMS + K.RP_INF_L2_HEALTH])
            elif lv >= 3:
                hurt(st, rl, s, rl[K.R_PARAMS + K.RP_INF_L3_HEALTH])
    # noise adjustment (§3.9)
    red, yellow, rise = noise_adjust_nb(tr, st[_G + K.G_RED_NOISE], st[_G + K.G_YELLOW_NOISE])
    st[_G + K.G_RED_NOISE] = red
    st[_G + K.G_YELLOW_NOISE] = yellow
    if rise > 0:
        raise_threat(st, tr, rise, K.G_THR_NOISE)
    fire_nb(st, rng, dice, tr, rl)


@njit_nb
def fire_nb(st, rng, dice, tr, rl):
    """Fire terrain (§3.10), at the end of the threat phase: every miniature on a deployed
    fire tile rolls a die, a skull costs it ``map.fire_damage`` health (an enemy it kills
    leaves a corpse and earns nobody SP).  Survivors first, then the enemies by slot."""
    dmg = rl[K.R_PARAMS + K.RP_FIRE_DAMAGE]
    if dmg <= 0:
        return
    for q in range(K.MAX_ZONES, K.MAX_PLACES):
        if rl[K.R_TERRAIN + q] != K.TT_FIRE or st[pl(q, K.P_DEPLOYED)] == 0:
            continue
        for s in range(st[_G + K.G_TEAM]):
            if st[su(s, K.U_ALIVE)] == 1 and st[su(s, K.U_PLACE)] == q:
                if dice[K.D_FACES + roll_face_nb(dice, rng) * K.F_N + K.F_SKULL] == 1:
                    hurt(st, rl, s, dmg)
        for e in range(K.MAX_ENEMIES):
            if st[en(e, K.EN_KIND)] >= 0 and st[en(e, K.EN_PLACE)] == q:
                if dice[K.D_FACES + roll_face_nb(dice, rng) * K.F_N + K.F_SKULL] == 1:
                    st[en(e, K.EN_DMG)] += dmg
                    if st[en(e, K.EN_DMG)] >= estat(st, tr, rl, st[en(e, K.EN_KIND)], K.ES_HEALTH):
                        st[pl(q, K.P_CORPSES)] += 1
                        remove_enemy(st, rl, e, 1)


# ================================================================== the game's course
@njit_nb
def finish(st, cause):
    st[_G + K.G_OVER] = 1
    st[_G + K.G_END_CAUSE] = cause
    t = st[_G + K.G_TURN] + 1
    if t <= K.MAX_TURNS:
        st[K.S_THREAT_BY_TURN + t] = st[_G + K.G_THREAT] + 1
        st[K.S_ALIVE_BY_TURN + t] = living(st)


@njit_nb
def check_end(st, rl):
    """All dead, or the scenario's goal: enough searches, then every living survivor on an
    exit zone."""
    if st[_G + K.G_OVER] == 1:
        return 1
    if living(st) == 0:
        finish(st, K.END_ALL_DEAD)
        return 1
    if st[_G + K.G_SEARCHES] >= rl[K.R_PARAMS + K.RP_SEARCHES_NEEDED]:
        for s in range(st[_G + K.G_TEAM]):
            if st[su(s, K.U_ALIVE)] == 1 and zone_kind(rl, st[su(s, K.U_PLACE)]) != K.Z_EXIT:
                return 0
        finish(st, K.END_SUCCESS)
        return 1
    return 0


@njit_nb
def encounter(st, rng, dice, tr, spn, rl, s):
    """Resolve survivor ``s``'s city encounter card (§2.2)."""
    c = st[su(s, K.U_ENCOUNTER)]
    st[su(s, K.U_ENCOUNTER)] = -1
    r = K.R_EKINDS + c * K.EK_W
    kind = rl[r + K.EK_KIND]
    if kind == K.ENC_AMBUSH:
        n = rl[r + K.EK_SPAWN] * st[_G + K.G_TEAM]
        if st[_G + K.G_THREAT] // tr[K.T_PARAMS + K.TP_UNITS] == K.L_RED:
            n += rl[r + K.EK_EXTRA_RED]
        spawn_cards(st, rng, tr, spn, rl, st[su(s, K.U_PLACE)], n)
    elif kind == K.ENC_CHECK:
        if do_check(st, rng, dice, tr, rl, s, attr_of(st, tr, rl, s, rl[r + K.EK_ATTR]), 0) == 0:
            add_stress(st, rl, s, rl[r + K.EK_STRESS])
            hurt(st, rl, s, rl[r + K.EK_DAMAGE])


@njit_nb
def end_turn(st, rl):
    t = st[_G + K.G_TURN] + 1
    st[_G + K.G_TURN] = t
    st[K.S_THREAT_BY_TURN + t] = st[_G + K.G_THREAT] + 1
    st[K.S_ALIVE_BY_TURN + t] = living(st)
    for s in range(st[_G + K.G_TEAM]):
        for f in (K.U_ACTIVATED, K.U_ACTED, K.U_DEFENDING, K.U_SLOW_USED, K.U_NOISY_USED,
                  K.U_NOISE_MADE, K.U_AP):
            st[su(s, f)] = 0
        if st[su(s, K.U_LIGHT)] > 0:   # a turn of the battery unit burnt
            st[su(s, K.U_LIGHT)] -= 1
    st[_G + K.G_PHASE] = K.PH_ORDER
    if t >= rl[K.R_PARAMS + K.RP_TURN_LIMIT]:
        st[_G + K.G_OVER] = 1
        st[_G + K.G_END_CAUSE] = K.END_OUT_OF_TURNS
        st[_G + K.G_TURN] = t - 1   # ``turns`` counts turns played: the record adds 1


@njit_nb
def start_activation(st, rng, dice, tr, rl, s):
    st[_G + K.G_CUR] = s
    st[_G + K.G_PHASE] = K.PH_ACT
    st[su(s, K.U_AP)] = ap_for(rl, st[su(s, K.U_HEALTH)])
    st[su(s, K.U_ACTIVATED)] = 1
    st[su(s, K.U_MOVED)] = 0
    st[su(s, K.U_EXCHANGE)] = 0
    if night_of(st, tr) == 1 and st[su(s, K.U_FLASHLIGHT)] == 1 and st[su(s, K.U_LIGHT_TURNS)] > 0 \
            and st[su(s, K.U_LIGHT)] == 0 and st[su(s, K.U_BATTERY)] > 0:
        # a night activation in the dark: his flashlight takes a battery unit (§4.2)
        st[su(s, K.U_BATTERY)] -= 1
        st[su(s, K.U_LIGHT)] = st[su(s, K.U_LIGHT_TURNS)]
    if st[su(s, K.U_HIDDEN)] == 1:
        # staying hidden: the dice again at the start of the activation (§4.13); a
        # survivor may stop hiding (a free action) once activated
        corpse_roll(st, rng, dice, rl, s, rl[K.R_PARAMS + K.RP_HIDE_DICE])
        if st[su(s, K.U_ALIVE)] == 0:
            st[_G + K.G_PHASE] = K.PH_ORDER


@njit_nb
def advance_nb(st, rng, dice, tr, spn, rl, legal):
    """Play what needs no decision, up to the next decision with two choices or more (a
    single legal action is applied here, not counted) or the end."""
    while st[_G + K.G_OVER] == 0:
        if check_end(st, rl) == 1:
            return
        ph = st[_G + K.G_PHASE]
        if ph == K.PH_ORDER:
            n = 0
            last = -1
            for s in range(st[_G + K.G_TEAM]):
                if st[su(s, K.U_ALIVE)] == 1 and st[su(s, K.U_ACTIVATED)] == 0:
                    n += 1
                    last = s
            if n == 0:
                st[_G + K.G_PHASE] = -1     # the encounter phase
                st[_G + K.G_RESERVE_NEXT] = 0
                continue
            if n == 1:
                start_activation(st, rng, dice, tr, rl, last)
                continue
            return
        if ph == K.PH_ACT or ph == K.PH_RESERVE or ph == K.PH_PICK:
            if st[su(st[_G + K.G_CUR], K.U_ALIVE)] == 0:
                # he died acting (an ambush's attack, a corpse's infection): his turn is over
                if ph == K.PH_PICK:
                    st[_G + K.G_N_PICKS] = 0
                    st[_G + K.G_PHASE] = st[_G + K.G_CAUSE_CTX]
                end_activation(st, rng, rl)
                continue
            n = legal_actions_nb(st, tr, rl, legal)
            if n == 1:
                apply_nb(st, rng, dice, tr, spn, rl, legal[0])
                continue
            return
        # the encounter phase: each card, then its survivor's reserve AP
        moved = False
        for s in range(st[_G + K.G_RESERVE_NEXT], st[_G + K.G_TEAM]):
            st[_G + K.G_RESERVE_NEXT] = s + 1
            if st[su(s, K.U_ALIVE)] == 1 and st[su(s, K.U_ENCOUNTER)] >= 0:
                encounter(st, rng, dice, tr, spn, rl, s)
                if check_end(st, rl) == 1:
                    return
                if st[su(s, K.U_ALIVE)] == 1 and st[su(s, K.U_AP)] > 0:
                    st[_G + K.G_CUR] = s
                    st[_G + K.G_PHASE] = K.PH_RESERVE
                    st[su(s, K.U_ACTIVATED)] = 1
                    st[su(s, K.U_MOVED)] = 0
                    st[su(s, K.U_EXCHANGE)] = 0
                    moved = True
                    break
        if moved:
            continue
        threat_phase(st, rng, dice, tr, spn, rl)
        if check_end(st, rl) == 1:
            return
        end_turn(st, rl)


# ================================================================== legal actions and applying them
@njit_nb
def code(kind, arg, sp):
    return kind * K.ACT_KIND + arg * K.ACT_ARG + sp


@njit_nb
def max_sp(st, rl, s):
    m = rl[K.R_PARAMS + K.RP_MAX_SP]
    v = st[su(s, K.U_SP)]
    return m if m < v else v


# ================================================================== exchanges
_GOOD_FIELD = (K.U_SUPPLIES, K.U_AMMO, K.U_BATTERY, K.U_PAINKILLERS, K.U_FIRST_AID, K.U_VACCINES)


@njit_nb
def can_give(st, rl, a, b, g):
    """Survivor ``a`` can hand good ``g`` to survivor ``b`` (§4.6; ``codes.GOODS``)."""
    if g <= K.G_VACCINE:
        return st[su(a, _GOOD_FIELD[g])] > 0
    if g == K.G_FLASHLIGHT:
        return st[su(a, K.U_FLASHLIGHT)] == 1 and st[su(b, K.U_FLASHLIGHT)] == 0
    if g == K.G_SUPPRESSOR:
        return st[su(a, K.U_SUPPRESSOR)] == 1 and st[su(b, K.U_SUPPRESSOR)] == 0
    if g == K.G_RANGED:
        return st[su(a, K.U_RANGED)] >= 0
    w = st[su(a, K.U_MELEE)]
    return w >= 0 and w != rl[K.R_PARAMS + K.RP_FISTS]


@njit_nb
def give(st, rl, a, b, g):
    """Survivor ``a`` hands good ``g`` to ``b``: a unit of a counter, the flashlight (with
    its battery unit's turns and the light left) or the suppressor, or a weapon swapped
    for ``b``'s of its kind (``b``'s fists stay his: ``a`` is left with his own; a ranged
    weapon takes its slow mark with it)."""
    if g <= K.G_VACCINE:
        st[su(a, _GOOD_FIELD[g])] -= 1
        st[su(b, _GOOD_FIELD[g])] += 1
    elif g == K.G_FLASHLIGHT:
        for f in (K.U_FLASHLIGHT, K.U_LIGHT_TURNS, K.U_LIGHT):
            st[su(b, f)] = st[su(a, f)]
            st[su(a, f)] = 0
    elif g == K.G_SUPPRESSOR:
        st[su(a, K.U_SUPPRESSOR)] = 0
        st[su(b, K.U_SUPPRESSOR)] = 1
    else:
        f = K.U_RANGED if g == K.G_RANGED else K.U_MELEE
        w = st[su(a, f)]
        st[su(a, f)] = st[su(b, f)]
        st[su(b, f)] = w
        if g == K.G_MELEE and st[su(a, f)] < 0:
            st[su(a, f)] = rl[K.R_PARAMS + K.RP_FISTS]
        if g == K.G_RANGED:
            # a slow weapon fires once a turn (§5 SLOW): its mark goes with the weapon (only
            # a shot is checked for it)
            u = st[su(a, K.U_SLOW_USED)]
            st[su(a, K.U_SLOW_USED)] = st[su(b, K.U_SLOW_USED)]
            st[su(b, K.U_SLOW_USED)] = u


@njit_nb
def give_code(b, direction, g):
    return code(K.AC_GIVE, (b * 2 + direction) * K.N_GOODS + g, 0)


@njit_nb
def legal_actions_nb(st, tr, rl, legal):
    """The pending decision's legal action codes into ``legal``; their number."""
    n = 0
    ph = st[_G + K.G_PHASE]
    if st[_G + K.G_OVER] == 1:
        return 0
    if ph == K.PH_ORDER:
        for s in range(st[_G + K.G_TEAM]):
            if st[su(s, K.U_ALIVE)] == 1 and st[su(s, K.U_ACTIVATED)] == 0:
                legal[n] = code(K.AC_ACTIVATE, s, 0)
                n += 1
        return n
    s = st[_G + K.G_CUR]
    msp = max_sp(st, rl, s)
    if ph == K.PH_PICK:
        for i in range(st[_G + K.G_N_PICKS]):
            for v in range(msp + 1):
                legal[n] = code(K.AC_PICK, i, v)
                n += 1
        return n
    legal[n] = code(K.AC_END, 0, 0)
    n += 1
    if st[su(s, K.U_ACTIVATED)] == 2:
        return n   # STOP: only the end of the activation
    ap = st[su(s, K.U_AP)]
    p = st[su(s, K.U_PLACE)]
    eng = engaged_with(st, s)
    P = K.R_PARAMS
    # moves
    for i in range(K.MAX_NB):
        q = rl[K.R_NB + p * K.MAX_NB + i]
        if q < 0:
            break
        if can_move(st, rl, s, q, ap):
            top = msp if eng > 0 else 0
            for v in range(top + 1):
                legal[n] = code(K.AC_MOVE, q, v)
                n += 1
    # attacks
    if ap >= rl[P + K.RP_ATTACK_AP]:
        w = st[su(s, K.U_MELEE)]
        wr = st[su(s, K.U_RANGED)]
        can_shoot = wr >= 0
        if can_shoot:
            r = K.R_WEAPONS + wr * K.W_W
            if rl[r + K.W_AMMO] > 0 and st[su(s, K.U_AMMO)] < rl[r + K.W_AMMO]:
                can_shoot = False
            if rl[r + K.W_SLOW] == 1 and st[su(s, K.U_SLOW_USED)] == 1:
                can_shoot = False
        reach = rl[P + K.RP_RANGED_REACHES_TILE] == 1
        for e in range(K.MAX_ENEMIES):
            if st[en(e, K.EN_KIND)] < 0 or st[en(e, K.EN_PLACE)] != p:
                continue
            if w >= 0 and st[en(e, K.EN_ENG)] == s:
                for v in range(msp + 1):
                    legal[n] = code(K.AC_MELEE, e, v)
                    n += 1
            if can_shoot and (reach or st[en(e, K.EN_ENG)] == s):
                for v in range(msp + 1):
                    legal[n] = code(K.AC_SHOOT, e, v)
                    n += 1
    here = enemies_at(st, p)
    full = ap > 0 and st[su(s, K.U_ACTED)] == 0
    if not is_zone(p) and here == 0:
        if full and st[pl(p, K.P_SEARCHED)] == 0:
            legal[n] = code(K.AC_SEARCH, 0, 0)
            n += 1
        if st[pl(p, K.P_MARKERS)] > 0 and ap >= rl[P + K.RP_SEARCH_ITEM_AP]:
            for v in range(msp + 1):
                legal[n] = code(K.AC_SEARCH_ITEM, 0, v)
                n += 1
    if st[pl(p, K.P_CORPSES)] > 0:
        if ap >= rl[P + K.RP_SEARCH_ITEM_AP]:
            legal[n] = code(K.AC_SEARCH_CORPSE, 0, 0)
            n += 1
        if st[su(s, K.U_HIDDEN)] == 0 and eng == 0 and ap >= rl[P + K.RP_HIDE_AP]:
            legal[n] = code(K.AC_HIDE, 0, 0)
            n += 1
    if st[su(s, K.U_HIDDEN)] == 1:
        legal[n] = code(K.AC_STOP_HIDING, 0, 0)
        n += 1
    hmax = rl[P + K.RP_HEALTH_MAX]
    h = st[su(s, K.U_HEALTH)]
    if h < hmax and st[su(s, K.U_SUPPLIES)] > 0:
        legal[n] = code(K.AC_EAT, 0, 0)
        n += 1
    if h < hmax and st[su(s, K.U_PAINKILLERS)] > 0:
        legal[n] = code(K.AC_PAINKILLER, 0, 0)
        n += 1
    if h < hmax and st[su(s, K.U_FIRST_AID)] > 0:
        for v in range(msp + 1):
            legal[n] = code(K.AC_FIRST_AID, 0, v)
            n += 1
    if st[su(s, K.U_INFECTION)] > 0 and st[su(s, K.U_VACCINES)] > 0:
        for v in range(msp + 1):
            legal[n] = code(K.AC_VACCINE, 0, v)
            n += 1
    if st[su(s, K.U_DEFENDING)] == 0 and ap >= rl[P + K.RP_DEFEND_AP] and rl[P + K.RP_DEFEND_AP] > 0:
        legal[n] = code(K.AC_DEFEND, 0, 0)
        n += 1
    if not is_zone(p) and rl[K.R_JUMP + p] == 1 and ap >= rl[P + K.RP_JUMP_AP]:
        for v in range(msp + 1):
            legal[n] = code(K.AC_JUMP, 0, v)
            n += 1
    # set traps (§4.4) on a location tile without a marker; combine card (§4.5)
    if st[su(s, K.U_TRAP_STUFF)] > 0 and not is_zone(p) and st[pl(p, K.P_TRAP)] == 0 \
            and ap >= rl[P + K.RP_TRAP_AP]:
        for mask in (K.TRAP_MELEE, K.TRAP_RANGED, K.TRAP_MELEE | K.TRAP_RANGED):
            if trap_mask_ok(st, rl, s, mask):
                for v in range(msp + 1):
                    legal[n] = code(K.AC_SET_TRAP, mask, v)
                    n += 1
    if st[su(s, K.U_PARTS)] != 0 and ap >= rl[P + K.RP_COMBINE_AP]:
        for c in range(K.MAX_SEARCH_KINDS):
            if can_combine(st, rl, s, c):
                legal[n] = code(K.AC_COMBINE, c, 0)
                n += 1
    if full and st[su(s, K.U_STRESS)] > 0:
        legal[n] = code(K.AC_REST, 0, 0)
        n += 1
    c = threat_lower_cost_nb(tr, st[_G + K.G_THREAT])
    if c >= 0 and st[su(s, K.U_SP)] >= c:
        legal[n] = code(K.AC_LOWER_THREAT, 0, 0)
        n += 1
    # exchanges (§4.6) with a survivor sharing his place: the AP once, when declared
    if st[su(s, K.U_EXCHANGE)] > 0 or ap >= rl[P + K.RP_EXCHANGE_AP]:
        for b in range(st[_G + K.G_TEAM]):
            if b == s or st[su(b, K.U_ALIVE)] == 0 or st[su(b, K.U_PLACE)] != p:
                continue
            for g in range(K.N_GOODS):
                if can_give(st, rl, s, b, g):
                    legal[n] = give_code(b, 0, g)
                    n += 1
                if can_give(st, rl, b, s, g):
                    legal[n] = give_code(b, 1, g)
                    n += 1
    return n


@njit_nb
def street_encounter(st, rng, rl, s):
    """§4.9 "Movement from street zone to street zone": a survivor who ends his movement in
    a street zone (a plain street, an exit, or a surprise zone whose card is turned) free of
    other creatures (no enemy, no other living survivor) where no tile is deployed draws a
    city encounter card, resolved in the encounter phase.  Played when his activation (or
    his reserve) ends, if he moved during it, so a move further on draws nothing; a survivor
    already holding a card (an alley's) draws no second one."""
    if st[su(s, K.U_ALIVE)] == 0 or st[su(s, K.U_MOVED)] == 0 or st[su(s, K.U_ENCOUNTER)] >= 0:
        return
    q = st[su(s, K.U_PLACE)]
    if not is_zone(q):
        return
    k = zone_kind(rl, q)
    if k == K.Z_ALLEY or (k == K.Z_SURPRISE and st[pl(q, K.P_SURPRISED)] == 0):
        return
    if enemies_at(st, q) > 0 or survivors_at(st, q) > 1 or st[pl(q, K.P_DEPLOYED)] == 1:
        return
    st[su(s, K.U_ENCOUNTER)] = draw_card(st, rng, rl, K.S_EDECK, K.R_EDECK,
                                         rl[K.R_PARAMS + K.RP_N_ENC], K.G_POS_ENC)


@njit_nb
def end_activation(st, rng, rl):
    s = st[_G + K.G_CUR]
    street_encounter(st, rng, rl, s)
    st[su(s, K.U_MOVED)] = 0
    if st[_G + K.G_PHASE] == K.PH_RESERVE:
        st[su(s, K.U_AP)] = 0
        st[_G + K.G_PHASE] = -1
    else:
        st[su(s, K.U_ACTIVATED)] = 1
        st[_G + K.G_PHASE] = K.PH_ORDER


@njit_nb
def apply_nb(st, rng, dice, tr, spn, rl, a):
    """Apply action code ``a`` (legal: see ``legal_actions_nb``) without advancing."""
    kind = a // K.ACT_KIND
    arg = (a % K.ACT_KIND) // K.ACT_ARG
    sp = a % K.ACT_ARG
    if kind == K.AC_ACTIVATE:
        start_activation(st, rng, dice, tr, rl, arg)
        return
    s = st[_G + K.G_CUR]
    P = K.R_PARAMS
    if kind != K.AC_GIVE:
        st[su(s, K.U_EXCHANGE)] = 0    # another action closes an exchange
    if kind == K.AC_END:
        end_activation(st, rng, rl)
    elif kind == K.AC_MOVE:
        move_action(st, rng, dice, tr, spn, rl, s, arg, sp)
    elif kind == K.AC_MELEE:
        attack_action(st, rng, dice, tr, rl, s, arg, 0, sp)
    elif kind == K.AC_SHOOT:
        attack_action(st, rng, dice, tr, rl, s, arg, 1, sp)
    elif kind == K.AC_SEARCH:
        p = st[su(s, K.U_PLACE)]
        st[pl(p, K.P_SEARCHED)] = 1
        st[su(s, K.U_AP)] = 0
        st[su(s, K.U_ACTED)] = 1
        k = attr_of(st, tr, rl, s, K.A_PERCEPTION)
        if k < 1:
            k = 1
        if k > K.MAX_PICK:
            k = K.MAX_PICK
        for i in range(k):
            st[K.S_PICKS + i] = draw_search(st, rng, rl)
        st[_G + K.G_N_PICKS] = k
        st[_G + K.G_CAUSE_CTX] = st[_G + K.G_PHASE]
        st[_G + K.G_PHASE] = K.PH_PICK
    elif kind == K.AC_PICK:
        p = st[su(s, K.U_PLACE)]
        loc = loc_of(p)
        search_check(st, rng, dice, tr, rl, s, st[K.S_PICKS + arg],
                     rl[K.R_LOCS + loc * K.LK_W + K.LK_SEARCH_MOD], sp)
        st[_G + K.G_N_PICKS] = 0
        st[_G + K.G_PHASE] = st[_G + K.G_CAUSE_CTX]
    elif kind == K.AC_SEARCH_ITEM:
        p = st[su(s, K.U_PLACE)]
        st[pl(p, K.P_MARKERS)] -= 1
        st[su(s, K.U_AP)] -= rl[P + K.RP_SEARCH_ITEM_AP]
        st[su(s, K.U_ACTED)] = 1
        search_check(st, rng, dice, tr, rl, s, draw_search(st, rng, rl), 0, sp)
    elif kind == K.AC_EAT:
        st[su(s, K.U_SUPPLIES)] -= 1
        heal(st, rl, s, rl[P + K.RP_SUPPLY_HEALS])
    elif kind == K.AC_PAINKILLER:
        st[su(s, K.U_PAINKILLERS)] -= 1
        c = skind_of(rl, K.SC_PAINKILLERS)
        heal(st, rl, s, rl[K.R_SKINDS + c * K.SK_W + K.SK_AMOUNT])
    elif kind == K.AC_FIRST_AID or kind == K.AC_VACCINE:
        item = K.SC_FIRST_AID if kind == K.AC_FIRST_AID else K.SC_VACCINE
        st[su(s, K.U_FIRST_AID if kind == K.AC_FIRST_AID else K.U_VACCINES)] -= 1
        c = skind_of(rl, item)
        r = K.R_SKINDS + c * K.SK_W
        ok = 1
        if rl[r + K.SK_CHECK] >= 0:
            ok = do_check(st, rng, dice, tr, rl, s, attr_of(st, tr, rl, s, rl[r + K.SK_CHECK]), sp)
        if ok == 1:
            if kind == K.AC_FIRST_AID:
                heal(st, rl, s, rl[r + K.SK_AMOUNT])
            else:
                v = st[su(s, K.U_INFECTION)] - rl[r + K.SK_AMOUNT]
                st[su(s, K.U_INFECTION)] = v if v > 0 else 0
    elif kind == K.AC_DEFEND:
        st[su(s, K.U_DEFENDING)] = 1
        st[su(s, K.U_AP)] -= rl[P + K.RP_DEFEND_AP]
        st[su(s, K.U_ACTED)] = 1
    elif kind == K.AC_REST:
        v = st[su(s, K.U_STRESS)] - rl[P + K.RP_REST_STRESS]
        st[su(s, K.U_STRESS)] = v if v > 0 else 0
        st[su(s, K.U_AP)] = 0
        st[su(s, K.U_ACTED)] = 1
    elif kind == K.AC_GIVE:
        if st[su(s, K.U_EXCHANGE)] == 0:   # declared: its AP, then exchange_items transfers
            st[su(s, K.U_AP)] -= rl[P + K.RP_EXCHANGE_AP]
            st[su(s, K.U_ACTED)] = 1
            st[su(s, K.U_EXCHANGE)] = rl[P + K.RP_EXCHANGE_ITEMS]
        st[su(s, K.U_EXCHANGE)] -= 1
        b = arg // (2 * K.N_GOODS)
        g = arg % K.N_GOODS
        if (arg // K.N_GOODS) % 2 == 0:
            give(st, rl, s, b, g)
        else:
            give(st, rl, b, s, g)
    elif kind == K.AC_SEARCH_CORPSE:
        p = st[su(s, K.U_PLACE)]
        st[pl(p, K.P_CORPSES)] -= 1
        st[su(s, K.U_AP)] -= rl[P + K.RP_SEARCH_ITEM_AP]
        st[su(s, K.U_ACTED)] = 1
        c = draw_card(st, rng, rl, K.S_CDECK, K.R_CDECK, rl[P + K.RP_N_CORPSE], K.G_POS_CORPSE)
        r = K.R_CKINDS + c * K.CK_W
        ck = rl[r + K.CK_KIND]
        if ck == K.CORPSE_AMMO:
            st[su(s, K.U_AMMO)] += rl[r + K.CK_AMOUNT]
        elif ck == K.CORPSE_SUPPLIES:
            st[su(s, K.U_SUPPLIES)] += rl[r + K.CK_AMOUNT]
        elif ck == K.CORPSE_BATTERY:
            st[su(s, K.U_BATTERY)] += rl[r + K.CK_AMOUNT]
        elif ck == K.CORPSE_INFECTION:
            corpse_roll(st, rng, dice, rl, s, rl[r + K.CK_DICE])
    elif kind == K.AC_HIDE:
        p = st[su(s, K.U_PLACE)]
        st[pl(p, K.P_CORPSES)] -= 1
        st[su(s, K.U_AP)] -= rl[P + K.RP_HIDE_AP]
        st[su(s, K.U_ACTED)] = 1
        st[su(s, K.U_HIDDEN)] = 1
        corpse_roll(st, rng, dice, rl, s, rl[P + K.RP_HIDE_DICE])
    elif kind == K.AC_STOP_HIDING:
        st[su(s, K.U_HIDDEN)] = 0
    elif kind == K.AC_JUMP:
        jump_action(st, rng, dice, tr, spn, rl, s, sp)
    elif kind == K.AC_SET_TRAP:
        set_trap_action(st, rng, dice, tr, rl, s, arg, sp)
    elif kind == K.AC_COMBINE:
        combine_action(st, tr, rl, s, arg)
    elif kind == K.AC_LOWER_THREAT:
        c = threat_lower_cost_nb(tr, st[_G + K.G_THREAT])
        st[_G + K.G_THREAT] -= 1
        st[su(s, K.U_SP)] -= c
        st[_G + K.G_THR_LOWERED] += 1
        st[_G + K.G_SP_THREAT] += c


@njit_nb
def apply_action_nb(st, rng, dice, tr, spn, rl, a, legal):
    """A player's decision: apply ``a`` (counted), then play on to the next decision."""
    st[_G + K.G_DECISIONS] += 1
    apply_nb(st, rng, dice, tr, spn, rl, a)
    advance_nb(st, rng, dice, tr, spn, rl, legal)


# ================================================================== a new game and its record
@njit_nb
def init_state_nb(st, rng, dice, tr, spn, rl, key, team, start_hour, game, legal):
    """Game ``game`` (streams from ``key``): the team of ``team`` survivors at the start
    exit at ``start_hour``, the decks shuffled, played to its first decision."""
    setup_state_nb(st, rng, tr, spn, rl, key, team, start_hour, game)
    advance_nb(st, rng, dice, tr, spn, rl, legal)


@njit_nb
def setup_state_nb(st, rng, tr, spn, rl, key, team, start_hour, game):
    """``init_state_nb`` before its first step: a campaign changes the survivors (what
    they carry from the last adventure, the travel) between the two."""
    for i in range(K.S_SIZE):
        st[i] = 0
    init_streams_nb(rng, key)
    P = K.R_PARAMS
    st[_G + K.G_TEAM] = team
    st[_G + K.G_HOUR] = start_hour
    st[_G + K.G_START_HOUR] = start_hour
    st[_G + K.G_GAME] = game
    st[_G + K.G_THREAT] = tr[K.T_PARAMS + K.TP_START]
    st[_G + K.G_HUNTER] = K.HUNTER_BOX
    st[_G + K.G_LAST_NIGHT] = night_of(st, tr)
    st[_G + K.G_PHASE] = K.PH_ORDER
    for s in range(K.MAX_SURV):
        st[su(s, K.U_ENCOUNTER)] = -1
        st[su(s, K.U_MELEE)] = -1
        st[su(s, K.U_RANGED)] = -1
        st[su(s, K.U_PLACE)] = -1
    for s in range(team):
        b = K.R_SURV + s * K.SV_W
        st[su(s, K.U_ALIVE)] = 1
        st[su(s, K.U_PLACE)] = rl[P + K.RP_START_ZONE]
        st[su(s, K.U_HEALTH)] = rl[P + K.RP_HEALTH_MAX]
        st[su(s, K.U_SP)] = rl[P + K.RP_SP_START]
        st[su(s, K.U_SUPPLIES)] = rl[P + K.RP_START_SUPPLIES]
        st[su(s, K.U_BATTERY)] = rl[P + K.RP_START_BATTERY]
        st[su(s, K.U_AMMO)] = rl[b + K.SV_AMMO]
        st[su(s, K.U_EATS)] = rl[b + K.SV_EATS]
        st[su(s, K.U_MELEE)] = rl[P + K.RP_FISTS]
        w = rl[b + K.SV_WEAPON]
        if rl[K.R_WEAPONS + w * K.W_W + K.W_RANGED] == 1:
            st[su(s, K.U_RANGED)] = w
        else:
            st[su(s, K.U_MELEE)] = w
    for e in range(K.MAX_ENEMIES):
        st[en(e, K.EN_KIND)] = -1
        st[en(e, K.EN_PLACE)] = -1
        st[en(e, K.EN_ENG)] = -1
    reset_minis_nb(spn, st[K.S_MINIS:K.S_MINIS + K.N_ENEMIES])
    # the decks, shuffled in a fixed order (one stream); an exhausted deck reshuffles on draw
    shuffle_into(st, rng, K.S_SDECK, rl, K.R_SDECK, rl[P + K.RP_N_SEARCH])
    shuffle_into(st, rng, K.S_XSPAWN, spn, K.X_DECK, spn[K.X_PARAMS + K.SP_N_CARDS])
    nt = rl[P + K.RP_N_THREAT]
    shuffle_into(st, rng, K.S_T_SIDE, rl, K.R_T_SIDE, nt)
    shuffle_into(st, rng, K.S_T_HOURS, rl, K.R_T_HOURS, nt)
    shuffle_into(st, rng, K.S_T_HUNTER, rl, K.R_T_HUNTER, nt)
    shuffle_into(st, rng, K.S_T_INF, rl, K.R_T_INF, nt)
    shuffle_into(st, rng, K.S_T_COND, rl, K.R_T_COND, nt)
    shuffle_into(st, rng, K.S_EDECK, rl, K.R_EDECK, rl[P + K.RP_N_ENC])
    shuffle_into(st, rng, K.S_UDECK, rl, K.R_UDECK, rl[P + K.RP_N_SUR])
    shuffle_into(st, rng, K.S_XDECK, rl, K.R_XDECK, rl[P + K.RP_N_EXP])
    shuffle_into(st, rng, K.S_CDECK, rl, K.R_CDECK, rl[P + K.RP_N_CORPSE])
    for t in range(K.MAX_TURNS + 1):
        st[K.S_THREAT_BY_TURN + t] = -1
        st[K.S_ALIVE_BY_TURN + t] = -1
    st[K.S_THREAT_BY_TURN] = st[_G + K.G_THREAT] + 1
    st[K.S_ALIVE_BY_TURN] = team


@njit_nb
def record_nb(st, tr, rl, out):
    """The game's record (``codes.RECORD_FIELDS``) into ``out``."""
    team = st[_G + K.G_TEAM]
    alive = living(st)
    success = 1 if (st[_G + K.G_OVER] == 1 and st[_G + K.G_END_CAUSE] == K.END_SUCCESS) else 0
    vp = 0
    if success == 1:
        vp = rl[K.R_PARAMS + K.RP_VP_BASE] - rl[K.R_PARAMS + K.RP_VP_PER_DEAD] * (team - alive)
        if vp < 0:
            vp = 0
    u = tr[K.T_PARAMS + K.TP_UNITS]
    vals = (st[_G + K.G_GAME], team, st[_G + K.G_START_HOUR], success, vp, st[_G + K.G_END_CAUSE],
            st[_G + K.G_TURN] + 1, alive, st[_G + K.G_DEAD_DAMAGE], st[_G + K.G_DEAD_INFECTION],
            st[_G + K.G_DEAD_HUNGER], st[_G + K.G_SEARCHES], st[_G + K.G_KILLS],
            st[_G + K.G_THREAT] + 1, st[_G + K.G_THREAT] // u, st[_G + K.G_THR_NOISE],
            st[_G + K.G_THR_LEAVING], st[_G + K.G_THR_CLOCK], st[_G + K.G_THR_CARDS],
            st[_G + K.G_THR_LOWERED], st[_G + K.G_SP_ROLLS], st[_G + K.G_SP_THREAT],
            st[_G + K.G_HUNTER_SPAWNS], st[_G + K.G_HUNTER_DAMAGE], st[_G + K.G_HUNTER_KILLS],
            st[_G + K.G_DECISIONS], st[_G + K.G_TRAPS_SET], st[_G + K.G_TRAP_KILLS],
            st[_G + K.G_COMBINED])
    i = 0
    for v in vals:  # ``out`` may be shorter (a campaign's adventure row: REC_CAMPAIGN)
        if i < out.shape[0]:
            out[i] = v
        i += 1
