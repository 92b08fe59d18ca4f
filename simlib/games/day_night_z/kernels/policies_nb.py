"""Day Night Z's computer players as numba kernels (``choose_nb``), read by
``policies.py``'s registry.

``random``: a uniformly random legal action (the players' stream).

``baseline`` (params ``heal_at``, ``sp_gain``, ``sp_reserve``, ``noisy_below``,
``jump_saves``, ``share``): the
spec's heuristic (§4).  Free actions first: below ``heal_at`` health it takes painkillers,
a first-aid kit, or eats a supply it can spare (one more than the 15:00 meal needs; any
supply at red health); a vaccine when infected; SP lower the threat a unit while the
survivor holds ``sp_gain`` SP or more.  With ``share`` on, where it would end an
activation by day (or a reserve) with AP left, it exchanges (§4.6) with a teammate on its
place what is worth more to the other (a supply for a meal he lacks, ammunition for a
ranged weapon running low, a battery unit for an empty flashlight; ``share_nb``), and
takes the exchange's free gives while they are worth it.  Engaged: it flees (the move towards its goal) at
red health, else hits the engaged enemy likeliest to die (the weapon's damage against the
health left; the least health left), shooting only when the shot deals more and, if the
weapon is noisy, the threat is below ``noisy_below`` units.  Far enemies on its place: it
shoots them on the same terms, else takes a defensive position and waits for them.  A
clear place: search a location tile not yet searched (complete turn) or its search marker
while searches are needed; a corpse marker when short of the next meal's supplies; else
walk to the nearest unsearched tile; once enough
searches succeeded, walk to the nearest exit (jumping to the street from a tile with a
subzone to jump from when that saves ``jump_saves`` moves or more).  SP on a roll (one die) while it holds more
than ``sp_reserve``.  The leader activates the survivors in team order; of the search
cards drawn it keeps the easiest to find.  It never hides among corpses.
"""
from __future__ import annotations

from ....core.jit import njit_nb
from ....core.rng import randint_nb
from .. import codes as K
from .engine_nb import (en, enemies_at, engaged_with, estat, health_level, is_zone, night_of, pl,
                        su, weapon_damage, weapon_noisy)

POLICY_RANDOM, POLICY_BASELINE = range(2)
N_PARAMS = 8
BP_HEAL_AT, BP_SP_GAIN, BP_SP_RESERVE, BP_NOISY_BELOW, BP_JUMP_SAVES, BP_SHARE = range(6)
_G = K.S_GLOBALS


@njit_nb
def kind_of(a):
    return a // K.ACT_KIND


@njit_nb
def arg_of(a):
    return (a % K.ACT_KIND) // K.ACT_ARG


@njit_nb
def sp_of(a):
    return a % K.ACT_ARG


@njit_nb
def find(legal, n, kind, arg, sp):
    """The legal code of (kind, arg, sp), -1 when absent (``arg``/``sp`` -1: any)."""
    for i in range(n):
        a = legal[i]
        if kind_of(a) == kind and (arg < 0 or arg_of(a) == arg) and (sp < 0 or sp_of(a) == sp):
            return a
    return -1


@njit_nb
def find_sp(legal, n, kind, arg, want):
    """(kind, arg) with ``want`` SP if legal, else with none."""
    a = find(legal, n, kind, arg, want)
    if a < 0:
        a = find(legal, n, kind, arg, 0)
    return a


@njit_nb
def step_towards(st, rl, s, legal, n, want, par):
    """A legal move that brings survivor ``s`` one step closer to its goal (or, heading for
    an exit, a jump to the street that saves at least ``jump_saves`` moves); -1 none."""
    p = st[su(s, K.U_PLACE)]
    if st[_G + K.G_SEARCHES] >= rl[K.R_PARAMS + K.RP_SEARCHES_NEEDED]:
        here = rl[K.R_EXIT_DIST + p]
        if not is_zone(p):
            street = rl[K.R_LOCS + ((p - K.MAX_ZONES) // K.MAX_TILES) * K.LK_W + K.LK_ACCESS]
            if rl[K.R_DIST + p * K.MAX_PLACES + street] - 1 >= par[BP_JUMP_SAVES]:
                a = find_sp(legal, n, K.AC_JUMP, 0, want)
                if a >= 0:
                    return a
        best = -1
        for i in range(n):
            a = legal[i]
            if kind_of(a) == K.AC_MOVE and rl[K.R_EXIT_DIST + arg_of(a)] < here:
                if sp_of(a) == want or best < 0:
                    best = a
        return best
    # the nearest unsearched tile
    target = -1
    bd = 1 << 30
    for loc in range(rl[K.R_PARAMS + K.RP_N_LOCS]):
        tiles = rl[K.R_LOCS + loc * K.LK_W + K.LK_TILES]
        for t in range(tiles):
            q = K.MAX_ZONES + loc * K.MAX_TILES + t
            if st[pl(q, K.P_SEARCHED)] == 0 or st[pl(q, K.P_MARKERS)] > 0:
                d = rl[K.R_DIST + p * K.MAX_PLACES + q]
                if d < bd:
                    bd = d
                    target = q
    if target < 0 or target == p:
        return -1
    best = -1
    for i in range(n):
        a = legal[i]
        if kind_of(a) == K.AC_MOVE and rl[K.R_DIST + arg_of(a) * K.MAX_PLACES + target] < bd:
            if sp_of(a) == want or best < 0:
                best = a
    return best


@njit_nb
def wants(st, rl, a, b, g):
    """Good ``g`` is worth more to survivor ``b`` than to ``a`` (the baseline's sharing): a
    supply ``b`` lacks for his next meal while ``a`` has one to spare; ammunition for ``b``'s
    weapon that uses it, low, from ``a`` whose own ranged weapon does not use it or who
    holds twice as much as ``b``; a battery unit for ``b``'s flashlight, empty, from ``a``
    with no flashlight that needs one or a unit to spare."""
    if g == K.G_SUPPLIES:
        return st[su(b, K.U_SUPPLIES)] < st[su(b, K.U_EATS)] and \
            st[su(a, K.U_SUPPLIES)] > st[su(a, K.U_EATS)]
    if g == K.G_AMMO:
        wb = st[su(b, K.U_RANGED)]
        if wb < 0 or rl[K.R_WEAPONS + wb * K.W_W + K.W_AMMO] == 0:
            return False
        if st[su(b, K.U_AMMO)] >= 2 * rl[K.R_WEAPONS + wb * K.W_W + K.W_AMMO]:
            return False
        wa = st[su(a, K.U_RANGED)]
        return wa < 0 or rl[K.R_WEAPONS + wa * K.W_W + K.W_AMMO] == 0 or \
            st[su(a, K.U_AMMO)] >= 2 * st[su(b, K.U_AMMO)] + 2
    if g == K.G_BATTERY:
        if st[su(b, K.U_FLASHLIGHT)] == 0 or st[su(b, K.U_LIGHT_TURNS)] == 0 or \
                st[su(b, K.U_BATTERY)] > 0:
            return False
        return st[su(a, K.U_FLASHLIGHT)] == 0 or st[su(a, K.U_LIGHT_TURNS)] == 0 or \
            st[su(a, K.U_BATTERY)] > 1
    return False


@njit_nb
def share_nb(st, rl, s, legal, n):
    """The baseline's exchange (§4.6): the first give (or take) among ``legal`` of a good
    worth more to the other survivor (``wants``); -1 when none."""
    for i in range(n):
        a = legal[i]
        if kind_of(a) != K.AC_GIVE:
            continue
        arg = arg_of(a)
        b = arg // (2 * K.N_GOODS)
        g = arg % K.N_GOODS
        if (arg // K.N_GOODS) % 2 == 0:
            if wants(st, rl, s, b, g):
                return a
        elif wants(st, rl, b, s, g):
            return a
    return -1


@njit_nb
def baseline_nb(st, tr, rl, par, legal, n):
    """The baseline's action; with ``share`` on, an AP it would leave unspent (its choice
    ends the activation) goes on an exchange (``share_nb``) when one is worth it, by day
    or in the reserve (at night the AP it keeps in reserve served it better: measured)."""
    a = baseline_core_nb(st, tr, rl, par, legal, n)
    ph = st[_G + K.G_PHASE]
    if par[BP_SHARE] > 0 and kind_of(a) == K.AC_END and \
            (ph == K.PH_RESERVE or (ph == K.PH_ACT and night_of(st, tr) == 0)):
        b = share_nb(st, rl, st[_G + K.G_CUR], legal, n)
        if b >= 0:
            return b
    return a


@njit_nb
def baseline_core_nb(st, tr, rl, par, legal, n):
    ph = st[_G + K.G_PHASE]
    if ph == K.PH_ORDER:
        return legal[0]
    s = st[_G + K.G_CUR]
    sp = st[su(s, K.U_SP)]
    want = 1 if sp > par[BP_SP_RESERVE] else 0
    if ph == K.PH_PICK:
        best = -1
        bm = -(1 << 30)
        for i in range(n):
            a = legal[i]
            c = st[K.S_PICKS + arg_of(a)]
            m = rl[K.R_SKINDS + c * K.SK_W + K.SK_MOD]
            if m > bm or (m == bm and sp_of(a) == want):
                bm = m
                best = a
        return best
    P = K.R_PARAMS
    h = st[su(s, K.U_HEALTH)]
    # free actions
    if h <= par[BP_HEAL_AT]:
        a = find(legal, n, K.AC_PAINKILLER, -1, -1)
        if a < 0:
            a = find_sp(legal, n, K.AC_FIRST_AID, -1, want)
        if a < 0 and (st[su(s, K.U_SUPPLIES)] > st[su(s, K.U_EATS)]
                      or health_level(rl, h) == K.L_RED):
            a = find(legal, n, K.AC_EAT, -1, -1)
        if a >= 0:
            return a
    a = find_sp(legal, n, K.AC_VACCINE, -1, want)
    if a >= 0:
        return a
    if sp >= par[BP_SP_GAIN]:
        a = find(legal, n, K.AC_LOWER_THREAT, -1, -1)
        if a >= 0:
            return a
    p = st[su(s, K.U_PLACE)]
    # an exchange already declared: its gives are free
    if par[BP_SHARE] > 0 and st[su(s, K.U_EXCHANGE)] > 0:
        a = share_nb(st, rl, s, legal, n)
        if a >= 0:
            return a
    noisy_ok = (st[_G + K.G_THREAT] + 1) < par[BP_NOISY_BELOW]
    wm = st[su(s, K.U_MELEE)]
    wr = st[su(s, K.U_RANGED)]
    dm = weapon_damage(st, tr, rl, s, wm) if wm >= 0 else 0
    dr = weapon_damage(st, tr, rl, s, wr) if wr >= 0 else 0
    shoot_ok = wr >= 0 and (noisy_ok or weapon_noisy(st, rl, s, wr) == 0)
    if engaged_with(st, s) > 0:
        if health_level(rl, h) == K.L_RED:
            a = step_towards(st, rl, s, legal, n, want, par)
            if a < 0:
                for i in range(n):
                    if kind_of(legal[i]) == K.AC_MOVE:
                        a = legal[i]
                        break
            if a >= 0:
                return a
        # the engaged enemy likeliest to die
        best = -1
        bscore = -(1 << 30)
        kbest = K.AC_MELEE
        for e in range(K.MAX_ENEMIES):
            if st[en(e, K.EN_KIND)] < 0 or st[en(e, K.EN_ENG)] != s:
                continue
            kind = st[en(e, K.EN_KIND)]
            left = estat(st, tr, rl, kind, K.ES_HEALTH) - st[en(e, K.EN_DMG)]
            res = estat(st, tr, rl, kind, K.ES_RESIST)
            use_shot = shoot_ok and dr > dm and find(legal, n, K.AC_SHOOT, e, 0) >= 0
            d = (dr if use_shot else dm) - res
            score = (1000 if d >= left else 0) - left * 10 + estat(st, tr, rl, kind, K.ES_SP)
            if score > bscore:
                bscore = score
                best = e
                kbest = K.AC_SHOOT if use_shot else K.AC_MELEE
        if best >= 0:
            a = find_sp(legal, n, kbest, best, want)
            if a >= 0:
                return a
    elif enemies_at(st, p) > 0:
        if shoot_ok:
            best = -1
            bl = 1 << 30
            for e in range(K.MAX_ENEMIES):
                if st[en(e, K.EN_KIND)] >= 0 and st[en(e, K.EN_PLACE)] == p:
                    left = estat(st, tr, rl, st[en(e, K.EN_KIND)], K.ES_HEALTH) - st[en(e, K.EN_DMG)]
                    if left < bl and find(legal, n, K.AC_SHOOT, e, 0) >= 0:
                        bl = left
                        best = e
            if best >= 0:
                return find_sp(legal, n, K.AC_SHOOT, best, want)
        a = find(legal, n, K.AC_DEFEND, -1, -1)
        if a >= 0:
            return a
        if is_zone(p):
            a = step_towards(st, rl, s, legal, n, 0, par)
            if a >= 0:
                return a
        return find(legal, n, K.AC_END, -1, -1)
    else:
        if st[_G + K.G_SEARCHES] < rl[P + K.RP_SEARCHES_NEEDED]:
            a = find(legal, n, K.AC_SEARCH, -1, -1)
            if a >= 0:
                return a
            a = find_sp(legal, n, K.AC_SEARCH_ITEM, -1, want)
            if a >= 0:
                return a
        if st[su(s, K.U_SUPPLIES)] < st[su(s, K.U_EATS)]:
            a = find(legal, n, K.AC_SEARCH_CORPSE, -1, -1)
            if a >= 0:
                return a
        a = step_towards(st, rl, s, legal, n, 0, par)
        if a >= 0:
            return a
    return find(legal, n, K.AC_END, -1, -1)


@njit_nb
def choose_nb(st, rng, tr, rl, pid, par, legal, n):
    """The action policy ``pid`` (params ``par``) takes among ``legal[:n]``."""
    if pid == POLICY_RANDOM:
        return legal[randint_nb(rng, K.STREAM_POLICY, n)]
    return baseline_nb(st, tr, rl, par, legal, n)
