"""Day Night Z's campaign (§6, §7): adventures in a row, with the travel and the shelter
between them, as numba kernels.

``campaign_batch_nb(dice, tr, spn, rl, cp, seed, start, n_adv, team, hour, pid, par, sh,
out, adv, lo, hi)`` plays campaigns ``start + lo .. start + hi - 1`` (rows of ``out``,
``codes.CAMPAIGN_FIELDS``; ``adv[i, k]``: adventure ``k``'s record,
``codes.ADVENTURE_FIELDS``); ``campaign_search_batch_nb`` (the same arguments) plays them
with a search player (``pid``: ``search_nb.POLICY_ROLLOUT`` or ``POLICY_CLAIRVOYANT``,
``par`` its vector), compiled only when a search player plays one.  A campaign is: the
travel from the shelter (when ``campaign.travel_before_first``), adventure 1, the travel
back; then for each further adventure the shelter's days, the travel out, the adventure,
the travel back.  It ends early when nobody is left.

Randomness: adventure 0 of campaign ``g`` is the engine's game ``g`` (the same key: with
the travel off it plays exactly ``simlib simulate``'s game ``g``); adventure ``k > 0`` is
keyed by ``mix(game_key ^ k * ADVENTURE_SALT)``; each adventure's travel and the shelter
before it draw from a stream array of their own keyed from the adventure's key, so a
change in the campaign's rules never moves a die of an adventure.  A search player's
continuations are keyed by ``search_nb.continuation_key_nb(seed', g, decision, r)`` as in a
single adventure, with ``seed' = seed`` in adventure 0 (it plays exactly the search's
single game ``g``) and ``seed'`` a pure function of the adventure's key (``search_seed_nb``)
after it, so no two adventures of a campaign share their continuations' streams.

What the rulebook leaves open, and the choice made here (all written in the game page):
- the survivors carry health, stress, infection, survival points, supplies, ammunition,
  weapons and kit; the dead stay dead; the threat, the clock and the decks start afresh;
- a failed adventure (out of turns) earns no VP and the campaign goes on with the living;
- victory points are pooled and spent by the build order (``campaign.shelter.build_order``);
- survival points buy skills (``skills.toml``) at the end of each shelter day, each
  survivor for himself, while he keeps ``sp_keep`` of them;
- an ally (``allies.toml``) joins through the shelter event that says so, following the
  living survivor with the fewest allies; the ally deck is shuffled once a campaign; the
  leader (§3.8: most leadership points, then SP) is not modelled: a bot team's only
  leader's decision, the activation order, is already the players' own;
- a travel check is taken by the living survivor with the best value of the attribute
  (ties: the first in the team), at the hour the adventure ended (travel back) or starts
  (travel out); a failure hits every living survivor.
"""
from __future__ import annotations

import numpy as np

from ....core.jit import njit_alloc_nb, njit_nb
from ....core.rng import game_key_nb, init_streams_nb, mix64_nb, randint_nb
from .. import codes as K
from .engine_nb import (advance_nb, attr_of, do_check, gain_sp, living, record_nb,
                        setup_state_nb, su)
from .play_nb import play_game_nb
from .policies_nb import N_PARAMS
from .search_nb import SP_N as SEARCH_N
from .search_nb import search_play_nb
from .tracks_nb import eat_nb

_G = K.S_GLOBALS
_SUCCESS = K.RECORD_FIELDS.index("success")
_VP = K.RECORD_FIELDS.index("vp")
# the survivor fields an adventure hands to the next (the others are the adventure's own)
CARRIED = (K.U_ALIVE, K.U_HEALTH, K.U_STRESS, K.U_INFECTION, K.U_SP, K.U_SUPPLIES, K.U_AMMO,
           K.U_MELEE, K.U_RANGED, K.U_ARMOUR, K.U_ARMOUR + 1, K.U_ARMOUR + 2, K.U_ARMOUR + 3,
           K.U_GLOVES, K.U_PAINKILLERS, K.U_FIRST_AID, K.U_VACCINES, K.U_SUPPRESSOR,
           K.U_FLASHLIGHT, K.U_DEAD_CAUSE, K.U_SKILLS, K.U_ALLIES, K.U_BATTERY, K.U_LIGHT,
           K.U_LIGHT_TURNS, K.U_TRAP_STUFF, K.U_PARTS) \
    + tuple(K.U_BONUS + a for a in range(K.N_ATTR))


# a search player's continuations in adventure k > 0: seed' = search_seed_nb(adventure key)
SEARCH_SALT = np.uint64(0x2545F4914F6CDD1D)


@njit_nb
def search_seed_nb(key):
    """The seed a search player's continuations are keyed by in an adventure of key
    ``key`` after the first (an int64 >= 0, a pure function of the key)."""
    return np.int64(mix64_nb(np.uint64(key) ^ SEARCH_SALT) >> np.uint64(1))


@njit_nb
def fac(cp, f, col):
    return cp[K.C_FAC + f * K.FA_W + col]


@njit_nb
def lose_health(st, rl, s, n, cause):
    """``n`` damage outside an adventure; returns 1 if it kills (health 0, §3.3)."""
    if n <= 0 or st[su(s, K.U_ALIVE)] == 0:
        return 0
    st[su(s, K.U_HEALTH)] -= n
    if st[su(s, K.U_HEALTH)] <= 0:
        st[su(s, K.U_HEALTH)] = 0
        st[su(s, K.U_ALIVE)] = 0
        st[su(s, K.U_DEAD_CAUSE)] = cause
        return 1
    return 0


@njit_nb
def add_infection(st, rl, s, n, cause):
    """``n`` infection levels outside an adventure; returns 1 if it kills (§3.7)."""
    if n <= 0 or st[su(s, K.U_ALIVE)] == 0:
        return 0
    st[su(s, K.U_INFECTION)] += n
    if st[su(s, K.U_INFECTION)] >= rl[K.R_PARAMS + K.RP_INFECTION_DEATH]:
        st[su(s, K.U_ALIVE)] = 0
        st[su(s, K.U_DEAD_CAUSE)] = cause
        return 1
    return 0


@njit_nb
def group_effect(st, rl, damage, stress, supplies, infection, cause):
    """What a travel card's failure or a shelter event does to every living survivor;
    returns the deaths."""
    dead = 0
    top = rl[K.R_PARAMS + K.RP_STRESS_MAX]
    for s in range(st[_G + K.G_TEAM]):
        if st[su(s, K.U_ALIVE)] == 0:
            continue
        v = st[su(s, K.U_STRESS)] + stress
        st[su(s, K.U_STRESS)] = top if v > top else v
        left = st[su(s, K.U_SUPPLIES)] - supplies
        st[su(s, K.U_SUPPLIES)] = left if left > 0 else 0
        d = lose_health(st, rl, s, damage, cause)
        if d == 0:
            d = add_infection(st, rl, s, infection, cause)
        dead += d
    return dead


@njit_nb
def best_for(st, tr, rl, a):
    """The living survivor with the best attribute ``a`` now (ties: the first); -1 none."""
    best, who = -1, -1
    for s in range(st[_G + K.G_TEAM]):
        if st[su(s, K.U_ALIVE)] == 1:
            v = attr_of(st, tr, rl, s, a)
            if v > best:
                best, who = v, s
    return who


@njit_nb
def travel_event(st, crng, dice, tr, rl, cp, terrain, tdeck, tpos):
    """Draw a travel card and resolve its section of ``terrain``; returns the deaths."""
    card = tdeck[tpos[0]]
    tpos[0] += 1
    n = cp[K.C_PARAMS + K.CP_N_TRAVEL]
    if tpos[0] >= n:
        shuffle_deck(cp, crng, tdeck, K.C_TDECK, n)
        tpos[0] = 0
    at = K.C_TKINDS + (card * len(K.TERRAINS) + terrain) * K.TV_W
    a = cp[at + K.TV_ATTR]
    if a >= 0:
        s = best_for(st, tr, rl, a)
        if s < 0 or do_check(st, crng, dice, tr, rl, s, attr_of(st, tr, rl, s, a), 0) == 1:
            return 0
    return group_effect(st, rl, cp[at + K.TV_DAMAGE], cp[at + K.TV_STRESS],
                        cp[at + K.TV_SUPPLIES], cp[at + K.TV_INFECTION], K.DEAD_TRAVEL)


@njit_nb
def shuffle_deck(cp, crng, deck, src, n):
    for i in range(n):
        deck[i] = cp[src + i]
    for i in range(n - 1, 0, -1):
        j = randint_nb(crng, K.STREAM_DECKS, i + 1)
        deck[i], deck[j] = deck[j], deck[i]


@njit_nb
def travel_nb(st, crng, dice, tr, rl, cp, unknown, tdeck, tpos):
    """One trip along the route (§6): the known path draws a card at each icon, the
    unknown one rolls the icon's dice and draws a card per skull; returns the deaths."""
    dead = 0
    if unknown == 0:
        for j in range(cp[K.C_PARAMS + K.CP_N_KNOWN]):
            if living(st) > 0:
                dead += travel_event(st, crng, dice, tr, rl, cp, cp[K.C_KNOWN + j], tdeck, tpos)
        return dead
    nf = dice[K.D_PARAMS + K.DP_N_FACES]
    for j in range(cp[K.C_PARAMS + K.CP_N_UNKNOWN]):
        if living(st) == 0:  # a dead team rolls no more dice
            break
        skulls = 0
        for _ in range(cp[K.C_UNKNOWN_DICE + j]):
            f = randint_nb(crng, K.STREAM_DICE, nf)
            skulls += dice[K.D_FACES + f * K.F_N + K.F_SKULL]
        for _ in range(skulls):
            if living(st) > 0:
                dead += travel_event(st, crng, dice, tr, rl, cp, cp[K.C_UNKNOWN + j], tdeck, tpos)
    return dead


@njit_nb
def build_nb(cp, levels, vp, sh):
    """Spend the pooled VP on the build order (basic levels first, then advanced), saving
    up at the first step not affordable; returns the VP spent."""
    if sh[K.SH_BUILD] == 0:
        return 0
    spent = 0
    for i in range(cp[K.C_PARAMS + K.CP_N_BUILD]):
        step = cp[K.C_BUILD + i]
        f, lvl = step // 2, step % 2 + 1
        if fac(cp, f, K.FA_PRESENT) == 0 or levels[f] >= lvl:
            continue
        if levels[f] < lvl - 1:
            continue
        cost = fac(cp, f, K.FA_BUILD) if lvl == 1 else fac(cp, f, K.FA_UPGRADE)
        if cost > vp - spent:
            break
        spent += cost
        levels[f] = lvl
    return spent


@njit_nb
def pick_facility(st, rl, cp, levels, s, sh):
    """The shelter player's visit for survivor ``s`` (``campaign.SHELTER_PARAMS``): cure an
    infection, heal a wound, calm stress, stock supplies, make ammunition, train; -1 none."""
    P = K.R_PARAMS
    inf_ok = levels[K.F_INFIRMARY] > 0
    rest_ok = levels[K.F_REST_ZONE] > 0
    if st[su(s, K.U_INFECTION)] > 0 and inf_ok:
        return K.F_INFIRMARY
    if rl[P + K.RP_HEALTH_MAX] - st[su(s, K.U_HEALTH)] >= sh[K.SH_HEAL_MISSING]:
        if inf_ok and (sh[K.SH_INFIRMARY_WOUNDS] == 1 or not rest_ok):
            return K.F_INFIRMARY
        if rest_ok:
            return K.F_REST_ZONE
    if st[su(s, K.U_STRESS)] >= rl[P + K.RP_STRESS_YELLOW_FROM] and rest_ok:
        return K.F_REST_ZONE
    if st[su(s, K.U_SUPPLIES)] < st[su(s, K.U_EATS)] + sh[K.SH_SUPPLIES_RESERVE]:
        if levels[K.F_SUPPLY_ZONE] > 0:
            return K.F_SUPPLY_ZONE
        if levels[K.F_WAREHOUSE] > 0:
            return K.F_WAREHOUSE
    if st[su(s, K.U_RANGED)] >= 0 and st[su(s, K.U_AMMO)] < sh[K.SH_SUPPLIES_RESERVE] \
            and levels[K.F_WORKSHOP] > 0:
        return K.F_WORKSHOP
    if levels[K.F_TRAINING_ZONE] > 0:
        return K.F_TRAINING_ZONE
    if rest_ok:
        return K.F_REST_ZONE
    return -1


@njit_nb
def visit_nb(st, crng, dice, tr, rl, cp, levels, s, f):
    """Survivor ``s``'s one action in facility ``f`` at its level (§7)."""
    lvl = levels[f]
    if f < 0 or lvl == 0 or fac(cp, f, K.FA_FENCE) == 1:
        return
    a = fac(cp, f, K.FA_CHECK)
    if a >= 0:
        extra = fac(cp, f, K.FA_ADV_DICE) if lvl == 2 else 0
        if do_check(st, crng, dice, tr, rl, s, attr_of(st, tr, rl, s, a) + extra, 0) == 0:
            return
    fx = K.FA_EFFECTS + (lvl - 1) * K.N_FX
    P = K.R_PARAMS
    h = st[su(s, K.U_HEALTH)] + fac(cp, f, fx + K.FX_HEALTH)
    st[su(s, K.U_HEALTH)] = h if h < rl[P + K.RP_HEALTH_MAX] else rl[P + K.RP_HEALTH_MAX]
    v = st[su(s, K.U_STRESS)] - fac(cp, f, fx + K.FX_STRESS)
    st[su(s, K.U_STRESS)] = v if v > 0 else 0
    v = st[su(s, K.U_INFECTION)] - fac(cp, f, fx + K.FX_INFECTION)
    st[su(s, K.U_INFECTION)] = v if v > 0 else 0
    st[su(s, K.U_SUPPLIES)] += fac(cp, f, fx + K.FX_SUPPLIES)
    st[su(s, K.U_AMMO)] += fac(cp, f, fx + K.FX_AMMO)
    gain_sp(st, tr, s, fac(cp, f, fx + K.FX_SP))


@njit_nb
def buy_skills_nb(st, rl, cp, copies, s, sh, bought):
    """Survivor ``s`` buys skills with his survival points while he can keep
    ``sp_keep`` of them: each time the skill (a copy left in the box, its level-1 skill
    owned) that adds most to his strongest day attributes (bonus x attribute; ties: the
    first in ``skills.toml``).  ``bought[0]`` counts skills, ``bought[1]`` their SP."""
    if sh[K.SH_SKILLS] == 0:
        return
    base = K.R_SURV + s * K.SV_W
    while True:
        best, pick = -1, -1
        for i in range(cp[K.C_PARAMS + K.CP_N_SKILLS]):
            at = K.C_SKILLS + i * K.SKL_W
            owned = st[su(s, K.U_SKILLS)]
            if (owned >> i) & 1 == 1 or copies[i] <= 0:
                continue
            req = cp[at + K.SKL_REQUIRES]
            if req >= 0 and (owned >> req) & 1 == 0:
                continue
            if st[su(s, K.U_SP)] - cp[at + K.SKL_COST] < sh[K.SH_SP_KEEP]:
                continue
            value = 0
            for a in range(K.N_ATTR):
                value += cp[at + K.SKL_BONUS + a] * rl[base + K.SV_DAY + a]
            if value > best:
                best, pick = value, i
        if pick < 0:
            return
        at = K.C_SKILLS + pick * K.SKL_W
        st[su(s, K.U_SP)] -= cp[at + K.SKL_COST]
        st[su(s, K.U_SKILLS)] |= np.int64(1) << np.int64(pick)
        for a in range(K.N_ATTR):
            st[su(s, K.U_BONUS + a)] += cp[at + K.SKL_BONUS + a]
        copies[pick] -= 1
        bought[0] += 1
        bought[1] += cp[at + K.SKL_COST]


@njit_nb
def ally_joins_nb(st, cp, adeck, apos):
    """The next ally card joins the living survivor with the fewest allies (ties: the
    first); returns 1 if one joined (none left in the deck: 0)."""
    if apos[0] >= cp[K.C_PARAMS + K.CP_N_ALLIES]:
        return 0
    who, fewest = -1, 1 << 30
    for s in range(st[_G + K.G_TEAM]):
        if st[su(s, K.U_ALIVE)] == 1:
            n, m = 0, st[su(s, K.U_ALLIES)]
            while m:
                n += m & 1
                m >>= 1
            if n < fewest:
                who, fewest = s, n
    if who < 0:
        return 0
    a = adeck[apos[0]]
    apos[0] += 1
    st[su(who, K.U_ALLIES)] |= np.int64(1) << np.int64(a)
    for j in range(K.N_ATTR):
        st[su(who, K.U_BONUS + j)] += cp[K.C_ALLIES + a * K.AL_W + K.AL_BONUS + j]
    return 1


@njit_nb
def allies_help_nb(st, rl, cp, s):
    """A shelter day's help of survivor ``s``'s allies: the health they heal, the supplies
    they bring."""
    m, a = st[su(s, K.U_ALLIES)], 0
    top = rl[K.R_PARAMS + K.RP_HEALTH_MAX]
    while m:
        if m & 1:
            at = K.C_ALLIES + a * K.AL_W
            h = st[su(s, K.U_HEALTH)] + cp[at + K.AL_HEAL]
            st[su(s, K.U_HEALTH)] = h if h < top else top
            st[su(s, K.U_SUPPLIES)] += cp[at + K.AL_SUPPLIES]
        m >>= 1
        a += 1


@njit_nb
def shelter_nb(st, crng, dice, tr, rl, cp, levels, sh, adeck, apos, joined, copies, bought):
    """The shelter's days (§7): each survivor visits a facility by day and one by night,
    the day's event (an ally may join: ``joined[0]`` counts them), the allies' help, the
    feeding checks, then each living survivor's skill purchases (``buy_skills_nb``);
    returns the deaths."""
    dead = 0
    team = st[_G + K.G_TEAM]
    for _day in range(cp[K.C_PARAMS + K.CP_DAYS]):
        if living(st) == 0:  # a team starved on the first day draws no event on the next
            break
        for half in range(2):  # the day's visits at a day hour, the night's at a night hour
            st[_G + K.G_HOUR] = tr[K.T_PARAMS + (K.TP_DAY_START if half == 0 else K.TP_NIGHT_START)]
            for s in range(team):
                if st[su(s, K.U_ALIVE)] == 1:
                    visit_nb(st, crng, dice, tr, rl, cp, levels, s, pick_facility(st, rl, cp, levels, s, sh))
        ev = cp[K.C_SDECK + randint_nb(crng, K.STREAM_DECKS, cp[K.C_PARAMS + K.CP_N_SHELTER])]
        at = K.C_SKINDS + ev * K.SE_W
        if not (cp[at + K.SE_FENCE_BLOCKS] == 1 and levels[K.F_FENCE] > 0):
            dead += group_effect(st, rl, cp[at + K.SE_DAMAGE], cp[at + K.SE_STRESS],
                                 cp[at + K.SE_SUPPLIES], cp[at + K.SE_INFECTION], K.DEAD_SHELTER)
        if cp[at + K.SE_ALLY] == 1:
            joined[0] += ally_joins_nb(st, cp, adeck, apos)
        for s in range(team):
            if st[su(s, K.U_ALIVE)] == 1:
                allies_help_nb(st, rl, cp, s)
        if cp[K.C_PARAMS + K.CP_FEEDING] == 1:
            for s in range(team):
                if st[su(s, K.U_ALIVE)] == 1:
                    h2, left = eat_nb(tr, st[su(s, K.U_HEALTH)], st[su(s, K.U_SUPPLIES)],
                                      st[su(s, K.U_EATS)])
                    st[su(s, K.U_SUPPLIES)] = left
                    st[su(s, K.U_HEALTH)] = h2
                    if h2 <= 0:
                        st[su(s, K.U_HEALTH)] = 0
                        st[su(s, K.U_ALIVE)] = 0
                        st[su(s, K.U_DEAD_CAUSE)] = K.DEAD_SHELTER
                        dead += 1
        for s in range(team):
            if st[su(s, K.U_ALIVE)] == 1:
                buy_skills_nb(st, rl, cp, copies, s, sh, bought)
    return dead


@njit_nb
def play_campaign_nb(st, rng, crng, keep, levels, tdeck, tpos, copies, bought, adeck, apos, joined,
                     legal, dice, tr, spn, rl, cp, seed, g, n_adv, team, hour, pid, par, sh, out, adv,
                     sx=None):
    """Campaign ``g`` of ``seed``: its record into ``out`` and its adventures into ``adv``.
    ``sx``: ``None`` (a kernel player ``pid`` plays the adventures) or a search player's
    scratch (``work, wrng, wlegal, held, cand, vals``: ``search_nb.search_choose_nb``'s);
    numba prunes the branch not taken, so a kernel player's campaign never compiles the
    search."""
    key0 = game_key_nb(seed, g)
    for i in range(cp[K.C_PARAMS + K.CP_N_SKILLS]):
        copies[i] = cp[K.C_SKILLS + i * K.SKL_W + K.SKL_COUNT]
    bought[0], bought[1] = 0, 0
    for f in range(K.N_FAC):
        levels[f] = fac(cp, f, K.FA_START) if fac(cp, f, K.FA_PRESENT) == 1 else 0
    P = K.R_PARAMS
    vp, spent, accomplished, played = 0, 0, 0, 0
    dead_adv, dead_travel, dead_shelter = 0, 0, 0
    for k in range(n_adv):
        for j in range(K.ADVENTURE_REC):
            adv[k, j] = 0
    alive = team
    for k in range(n_adv):
        key = key0 if k == 0 else mix64_nb(key0 ^ (np.uint64(k) * np.uint64(K.ADVENTURE_SALT)))
        setup_state_nb(st, rng, tr, spn, rl, key, team, hour, g)
        if k > 0:
            for s in range(team):
                for j in range(len(CARRIED)):
                    st[su(s, CARRIED[j])] = keep[s, j]
        init_streams_nb(crng, mix64_nb(key ^ np.uint64(K.CAMPAIGN_SALT)))
        if k == 0:  # the ally deck, shuffled once a campaign (the choices stream)
            na = cp[K.C_PARAMS + K.CP_N_ALLIES]
            for i in range(na):
                adeck[i] = i
            for i in range(na - 1, 0, -1):
                j = randint_nb(crng, K.STREAM_CHOICES, i + 1)
                adeck[i], adeck[j] = adeck[j], adeck[i]
            apos[0] = 0
            joined[0] = 0
        n = cp[K.C_PARAMS + K.CP_N_TRAVEL]
        shuffle_deck(cp, crng, tdeck, K.C_TDECK, n)
        tpos[0] = 0
        unknown = 1 if sh[K.SH_UNKNOWN_PATH] != 0 else 0
        if k > 0:
            spent += build_nb(cp, levels, vp - spent, sh)
            dead_shelter += shelter_nb(st, crng, dice, tr, rl, cp, levels, sh, adeck, apos, joined,
                                       copies, bought)
            st[_G + K.G_HOUR] = hour
        if k > 0 or cp[K.C_PARAMS + K.CP_TRAVEL_FIRST] == 1:
            dead_travel += travel_nb(st, crng, dice, tr, rl, cp, unknown, tdeck, tpos)
        start_alive = living(st)
        if start_alive == 0:
            alive = 0
            break
        played += 1
        st[K.S_ALIVE_BY_TURN] = start_alive
        advance_nb(st, rng, dice, tr, spn, rl, legal)
        if sx is None:
            play_game_nb(st, rng, dice, tr, spn, rl, pid, par, legal)
        else:
            sseed = seed if k == 0 else search_seed_nb(key)
            search_play_nb(st, rng, dice, tr, spn, rl, sseed, pid, par, legal, sx[0], sx[1], sx[2], sx[3],
                           sx[4], sx[5])
        record_nb(st, tr, rl, adv[k, :K.REC_CAMPAIGN])
        end_alive = living(st)
        dead_adv += start_alive - end_alive
        won = adv[k, _SUCCESS]
        v = 0
        if won == 1:
            v = rl[P + K.RP_VP_BASE] - rl[P + K.RP_VP_PER_DEAD] * (start_alive - end_alive)
            v = v if v > 0 else 0
        adv[k, _VP] = v  # the VP of this adventure's team: its deaths, not earlier ones
        adv[k, K.REC_CAMPAIGN] = k + 1
        adv[k, K.REC_CAMPAIGN + 1] = start_alive
        adv[k, K.REC_CAMPAIGN + 2] = 1
        vp += v
        accomplished += won
        if end_alive > 0:
            dead_travel += travel_nb(st, crng, dice, tr, rl, cp, unknown, tdeck, tpos)
        alive = living(st)
        if alive == 0:
            break
        for s in range(team):
            for j in range(len(CARRIED)):
                keep[s, j] = st[su(s, CARRIED[j])]
    built = 0
    for f in range(K.N_FAC):
        start_lvl = fac(cp, f, K.FA_START) if fac(cp, f, K.FA_PRESENT) == 1 else 0
        built += levels[f] - start_lvl
    vals = (g, team, n_adv, played, accomplished, 1 if accomplished == n_adv else 0, alive, vp,
            spent, dead_adv, dead_travel, dead_shelter, built, bought[0], bought[1], joined[0])
    i = 0
    for v in vals:
        out[i] = v
        i += 1


@njit_alloc_nb
def _campaign_scratch():
    """The arrays a batch of campaigns reuses from one campaign to the next (the state, the
    streams, what is carried over, the shelter, the decks, the legal actions)."""
    st = np.zeros(K.S_SIZE, dtype=np.int64)
    rng = np.zeros(K.N_STREAMS, dtype=np.uint64)
    crng = np.zeros(K.N_STREAMS, dtype=np.uint64)
    keep = np.zeros((K.MAX_SURV, len(CARRIED)), dtype=np.int64)
    levels = np.zeros(K.N_FAC, dtype=np.int64)
    tdeck = np.zeros(K.MAX_TRAVEL_CARDS, dtype=np.int64)
    tpos = np.zeros(1, dtype=np.int64)
    copies = np.zeros(K.MAX_SKILLS, dtype=np.int64)
    bought = np.zeros(2, dtype=np.int64)
    adeck = np.zeros(K.MAX_ALLIES, dtype=np.int64)
    apos = np.zeros(1, dtype=np.int64)
    joined = np.zeros(1, dtype=np.int64)
    legal = np.zeros(K.MAX_LEGAL, dtype=np.int64)
    return (st, rng, crng, keep, levels, tdeck, tpos, copies, bought, adeck, apos, joined, legal)


@njit_alloc_nb
def campaign_batch_nb(dice, tr, spn, rl, cp, seed, start, n_adv, team, hour, pid, par, sh, out,
                      adv, lo, hi):
    scratch = _campaign_scratch()
    for i in range(lo, hi):
        play_campaign_nb(*scratch, dice, tr, spn, rl, cp, seed, start + i, n_adv, team, hour, pid, par,
                         sh, out[i], adv[i])
    return hi - lo


@njit_alloc_nb
def campaign_search_batch_nb(dice, tr, spn, rl, cp, seed, start, n_adv, team, hour, pid, par, sh,
                             out, adv, lo, hi):
    """``campaign_batch_nb`` with a search player (``pid``, ``par``: its vector, the
    baseline's parameters then ``search_nb.SEARCH_PARAMS``) taking every decision of every
    adventure; the travel and the shelter as for every player."""
    scratch = _campaign_scratch()
    # the search's scratch (as search_nb.search_run_nb's)
    work = np.zeros(K.S_SIZE, dtype=np.int64)
    wrng = np.zeros(K.N_STREAMS, dtype=np.uint64)
    wlegal = np.zeros(K.MAX_LEGAL, dtype=np.int64)
    held = np.zeros(K.MAX_SURV, dtype=np.int64)
    cand = np.zeros(K.MAX_LEGAL, dtype=np.int64)
    vals = np.zeros(max(np.int64(1), np.int64(par[N_PARAMS + SEARCH_N])) + 2 * K.MAX_LEGAL, dtype=np.float64)
    sx = (work, wrng, wlegal, held, cand, vals)
    for i in range(lo, hi):
        play_campaign_nb(*scratch, dice, tr, spn, rl, cp, seed, start + i, n_adv, team, hour, pid, par,
                         sh, out[i], adv[i], sx)
    return hi - lo
