"""Day Night Z's computer players as numba kernels (``choose_nb``), read by
``policies.py``'s registry.

``random``: a uniformly random legal action (the players' stream).

``baseline`` (params ``heal_at``, ``sp_gain``, ``sp_reserve``, ``noisy_below``,
``jump_saves``, ``share``, ``trap_far``, ``combine``): the
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
subzone to jump from when that saves ``jump_saves`` moves or more).  Traps and combined
cards (``trap_nb``): with ``combine`` on and no enemy engaged with it, it combines the
components it carries into a combined weapon that deals more in its hands than the one it
replaces; on a location tile with at least ``trap_far`` far enemies (0: never) and none
engaged with it, it sets a trap with the stuff for traps and every trap-combinable weapon it
carries but the one it fights with (the larger damage in its hands; a ranged weapon only
with ammunition for a shot), unless that is a melee weapon dealing no more than its fists;
none left: no trap.  SP on a roll (one die) while it holds more
than ``sp_reserve``.  The leader activates the survivors in team order; of the search
cards drawn it keeps the easiest to find.  It never hides among corpses.

``distilled`` (params: the baseline's, then ``any_ruleset`` and the weights; ``policies.py``
names them): the baseline's choice, unless an alternative to it (``alternative_nb``:
ending the activation, the other amount of SP, eating, lowering the threat, resting,
hiding, fleeing, pressing on) has a positive score ``w . context_nb`` (the highest wins);
at the activation order the survivor of the highest ``w . order_features_nb``.  The
weights are the rollout's values fitted by ``simlib train-policy --game day-night-z``
(``distil.py``), read from ``data/day_night_z/policies/distilled.toml``.
"""
from __future__ import annotations

from ....core.jit import njit_nb
from ....core.rng import randint_nb
from .. import codes as K
from .engine_nb import (en, enemies_at, engaged_with, estat, health_level, is_zone, night_of, pl,
                        stress_level, su, weapon_damage, weapon_noisy, zone_kind)

POLICY_RANDOM, POLICY_BASELINE = range(2)
POLICY_DISTILLED = 4  # 2 and 3 are the search players (search_nb)
N_PARAMS = 8
BP_HEAL_AT, BP_SP_GAIN, BP_SP_RESERVE, BP_NOISY_BELOW, BP_JUMP_SAVES, BP_SHARE, BP_TRAP_FAR, \
    BP_COMBINE = range(8)
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
def trap_nb(st, tr, rl, par, s, legal, n, want):
    """The baseline's combine card and set traps (§4.4, §4.5; see the module's doc); -1 when
    it does neither."""
    if engaged_with(st, s) > 0:
        return -1
    wm = st[su(s, K.U_MELEE)]
    wr = st[su(s, K.U_RANGED)]
    if par[BP_COMBINE] > 0 and st[su(s, K.U_PARTS)] != 0:
        for i in range(n):
            a = legal[i]
            if kind_of(a) != K.AC_COMBINE:
                continue
            w = rl[K.R_SKINDS + arg_of(a) * K.SK_W + K.SK_WEAPON]
            cur = wr if rl[K.R_WEAPONS + w * K.W_W + K.W_RANGED] == 1 else wm
            if cur < 0 or weapon_damage(st, tr, rl, s, w) > weapon_damage(st, tr, rl, s, cur):
                return a
    p = st[su(s, K.U_PLACE)]
    if par[BP_TRAP_FAR] <= 0 or st[su(s, K.U_TRAP_STUFF)] == 0 or is_zone(p):
        return -1
    far = 0
    for e in range(K.MAX_ENEMIES):
        if st[en(e, K.EN_KIND)] >= 0 and st[en(e, K.EN_PLACE)] == p and st[en(e, K.EN_ENG)] < 0:
            far += 1
    if far < par[BP_TRAP_FAR]:
        return -1
    # the weapon it fights with stays in its hands
    dm = weapon_damage(st, tr, rl, s, wm) if wm >= 0 else 0
    dr = 0
    if wr >= 0:
        r = K.R_WEAPONS + wr * K.W_W
        if rl[r + K.W_AMMO] == 0 or st[su(s, K.U_AMMO)] >= rl[r + K.W_AMMO]:
            dr = weapon_damage(st, tr, rl, s, wr)
    fists = rl[K.R_PARAMS + K.RP_FISTS]
    df = weapon_damage(st, tr, rl, s, fists) if fists >= 0 else 0
    mask = 0
    if wm >= 0 and rl[K.R_WEAPONS + wm * K.W_W + K.W_TRAP] > 0 and (dr > dm or dm <= df):
        mask |= K.TRAP_MELEE
    if wr >= 0 and rl[K.R_WEAPONS + wr * K.W_W + K.W_TRAP] > 0 and dr <= dm:
        mask |= K.TRAP_RANGED
    if mask == 0:
        return -1
    return find_sp(legal, n, K.AC_SET_TRAP, mask, want)


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
    if st[su(s, K.U_PARTS)] != 0 or st[su(s, K.U_TRAP_STUFF)] > 0:
        a = trap_nb(st, tr, rl, par, s, legal, n, want)
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


# =========================================================================== distilled
# The distilled player: the baseline's choice, unless the rollout's judgement, fitted into
# linear scores of what a player sees, says an alternative is worth more.  The
# alternatives (``alternative_nb``): ending the activation (the AP kept in reserve), the
# baseline's action with the other amount of SP (none or one), eating, lowering the threat,
# resting, hiding among corpses, and a step towards the goal in place of fighting an
# engaged enemy (fleeing) or of the defensive position, a corpse search or the end of the
# activation (pressing on); and at the activation order, which survivor activates next.
ALTERNATIVES = ("end", "sp", "eat", "lower", "rest", "hide", "flee", "press")
(ALT_END, ALT_SP, ALT_EAT, ALT_LOWER, ALT_REST, ALT_HIDE, ALT_FLEE, ALT_PRESS) = range(len(ALTERNATIVES))
N_ALT = len(ALTERNATIVES)
CONTEXT = ("bias", "health", "health_yellow", "health_red", "stress", "sp", "ap", "night",
           "hours_to_switch", "engaged", "enemies_here", "threat", "searches_done", "goal",
           "turns_left", "on_tile", "moved", "spare_supplies", "street_card", "alive",
           "mates_here", "infection", "hunter", "reserve", "base_attack", "base_move")
N_CONTEXT = len(CONTEXT)
ORDER_FEATURES = ("first", "engaged", "enemies_here", "health", "goal", "on_tile", "sp",
                  "stress", "far_enemies")
N_ORDER = len(ORDER_FEATURES)
# the distilled player's parameter vector: the baseline's (``N_PARAMS`` entries), then
# ``any_ruleset`` (read in Python only), then each alternative's weights over ``CONTEXT``
# (``ALTERNATIVES`` order), then the activation order's over ``ORDER_FEATURES``
DP_ANY_RULESET = N_PARAMS
DP_W = N_PARAMS + 1
DP_W_ORDER = DP_W + N_ALT * N_CONTEXT
N_DISTILLED_PARAMS = DP_W_ORDER + N_ORDER


@njit_nb
def goal_dist_nb(st, rl, p):
    """Moves from place ``p`` to the survivors' goal: the nearest exit once the searches are
    done, else the nearest location tile with a search left (its zone search or a search
    marker; none left: the nearest exit)."""
    if st[_G + K.G_SEARCHES] >= rl[K.R_PARAMS + K.RP_SEARCHES_NEEDED]:
        return rl[K.R_EXIT_DIST + p]
    bd = -1
    for loc in range(rl[K.R_PARAMS + K.RP_N_LOCS]):
        for t in range(rl[K.R_LOCS + loc * K.LK_W + K.LK_TILES]):
            q = K.MAX_ZONES + loc * K.MAX_TILES + t
            if st[pl(q, K.P_SEARCHED)] == 0 or st[pl(q, K.P_MARKERS)] > 0:
                d = rl[K.R_DIST + p * K.MAX_PLACES + q]
                if bd < 0 or d < bd:
                    bd = d
    return rl[K.R_EXIT_DIST + p] if bd < 0 else bd


@njit_nb
def _mates_at(st, s, p):
    n = 0
    for b in range(st[_G + K.G_TEAM]):
        if b != s and st[su(b, K.U_ALIVE)] == 1 and st[su(b, K.U_PLACE)] == p:
            n += 1
    return n


@njit_nb
def context_nb(st, tr, rl, base):
    """The decision's facts the alternatives are scored on (``CONTEXT`` order, floats),
    from what the players see (the board, the survivors' sheets and kits, the tracks and
    the clock; never a deck's order or a die to come): 1, the decider's health, yellow and
    red health (0/1), his stress colour, SP, AP, night (0/1), the hours to the next change
    of day and night, the enemies engaged with him and on his place, the threat colour,
    the searches done (0/1), his moves to the goal (``goal_dist_nb``), the turns left, on a
    location tile (0/1), moved this activation (0/1), the supplies beyond his next meal,
    ending here would draw a street encounter card (0/1, §4.9), the survivors alive, his
    teammates on his place, his infection, the Hunter on the board (0/1), a reserve's AP
    (0/1), and whether the baseline's choice ``base`` is an attack or a move (0/1)."""
    s = st[_G + K.G_CUR]
    p = st[su(s, K.U_PLACE)]
    h = st[su(s, K.U_HEALTH)]
    hl = health_level(rl, h)
    hour = st[_G + K.G_HOUR]
    night = night_of(st, tr)
    sw = tr[K.T_PARAMS + (K.TP_DAY_START if night == 1 else K.TP_NIGHT_START)]
    here = enemies_at(st, p)
    mates = _mates_at(st, s, p)
    card = 0.0
    if is_zone(p) and st[su(s, K.U_MOVED)] == 1 and st[su(s, K.U_ENCOUNTER)] < 0 and here == 0 \
            and mates == 0 and st[pl(p, K.P_DEPLOYED)] == 0:
        zk = zone_kind(rl, p)
        if zk != K.Z_ALLEY and (zk != K.Z_SURPRISE or st[pl(p, K.P_SURPRISED)] == 1):
            card = 1.0
    alive = 0
    for b in range(st[_G + K.G_TEAM]):
        alive += st[su(b, K.U_ALIVE)]
    bk = kind_of(base)
    one = (1.0, float(h), 1.0 if hl == K.L_YELLOW else 0.0, 1.0 if hl == K.L_RED else 0.0,
           float(stress_level(rl, st[su(s, K.U_STRESS)])), float(st[su(s, K.U_SP)]),
           float(st[su(s, K.U_AP)]), float(night), float((sw - hour) % 24),
           float(engaged_with(st, s)), float(here),
           float(st[_G + K.G_THREAT] // tr[K.T_PARAMS + K.TP_UNITS]),
           1.0 if st[_G + K.G_SEARCHES] >= rl[K.R_PARAMS + K.RP_SEARCHES_NEEDED] else 0.0)
    two = (float(goal_dist_nb(st, rl, p)),
           float(rl[K.R_PARAMS + K.RP_TURN_LIMIT] - st[_G + K.G_TURN]),
           0.0 if is_zone(p) else 1.0, float(st[su(s, K.U_MOVED)]),
           float(st[su(s, K.U_SUPPLIES)] - st[su(s, K.U_EATS)]), card, float(alive),
           float(mates), float(st[su(s, K.U_INFECTION)]),
           1.0 if st[_G + K.G_HUNTER] == K.HUNTER_BOARD else 0.0,
           1.0 if st[_G + K.G_PHASE] == K.PH_RESERVE else 0.0,
           1.0 if bk == K.AC_MELEE or bk == K.AC_SHOOT else 0.0,
           1.0 if bk == K.AC_MOVE else 0.0)
    return one + two


@njit_nb
def order_features_nb(st, rl, a, base):
    """An activation's features (``ORDER_FEATURES``): the baseline's choice (0/1), the
    survivor's engaged enemies, the enemies on his place, his health, his moves to the
    goal, on a location tile (0/1), his SP, his stress colour and the enemies on his place
    not engaged with him."""
    b = arg_of(a)
    q = st[su(b, K.U_PLACE)]
    eng = engaged_with(st, b)
    here = enemies_at(st, q)
    return (1.0 if a == base else 0.0, float(eng), float(here), float(st[su(b, K.U_HEALTH)]),
            float(goal_dist_nb(st, rl, q)), 0.0 if is_zone(q) else 1.0, float(st[su(b, K.U_SP)]),
            float(stress_level(rl, st[su(b, K.U_STRESS)])), float(here - eng))


@njit_nb
def alternative_nb(st, tr, rl, par, legal, n, base, alt):
    """Alternative ``alt`` (``ALT_*``) to the baseline's choice ``base`` at an action
    decision (``par[:N_PARAMS]``: the baseline's parameters), -1 when it is not legal or is
    the baseline's choice itself."""
    bk = kind_of(base)
    a = -1
    if alt == ALT_END:
        if bk != K.AC_END:
            a = find(legal, n, K.AC_END, -1, -1)
    elif alt == ALT_SP:
        if sp_of(base) > 0:
            a = find(legal, n, bk, arg_of(base), 0)
        elif bk != K.AC_END:
            a = find(legal, n, bk, arg_of(base), 1)
    elif alt == ALT_EAT:
        if bk != K.AC_EAT:
            a = find(legal, n, K.AC_EAT, -1, -1)
    elif alt == ALT_LOWER:
        if bk != K.AC_LOWER_THREAT:
            a = find(legal, n, K.AC_LOWER_THREAT, -1, -1)
    elif alt == ALT_REST:
        if bk != K.AC_REST:
            a = find(legal, n, K.AC_REST, -1, -1)
    elif alt == ALT_HIDE:
        if bk != K.AC_HIDE:
            a = find(legal, n, K.AC_HIDE, -1, -1)
    elif alt == ALT_FLEE:
        if bk == K.AC_MELEE or bk == K.AC_SHOOT:
            s = st[_G + K.G_CUR]
            if engaged_with(st, s) > 0:
                a = step_towards(st, rl, s, legal, n, 0, par)
                if a < 0:
                    a = find(legal, n, K.AC_MOVE, -1, 0)
    elif alt == ALT_PRESS:
        if bk == K.AC_DEFEND or bk == K.AC_SEARCH_CORPSE or bk == K.AC_END:
            a = step_towards(st, rl, st[_G + K.G_CUR], legal, n, 0, par)
    return -1 if a == base else a


@njit_nb
def distilled_nb(st, tr, rl, par, legal, n):
    """The baseline's choice (its parameters: ``par[:N_PARAMS]``) unless an alternative's
    score ``w_alt . context`` is positive (the highest wins; ties: ``ALTERNATIVES``
    order); at the activation order, the survivor of the highest ``w . order_features``
    (ties: the first)."""
    base = baseline_nb(st, tr, rl, par, legal, n)
    ph = st[_G + K.G_PHASE]
    if ph == K.PH_ORDER:
        best = base
        bv = -1e300
        for i in range(n):
            f = order_features_nb(st, rl, legal[i], base)
            x = 0.0
            for j in range(N_ORDER):
                x += par[DP_W_ORDER + j] * f[j]
            if x > bv:
                bv = x
                best = legal[i]
        return best
    if ph != K.PH_ACT and ph != K.PH_RESERVE:
        return base
    ctx = context_nb(st, tr, rl, base)
    best = base
    bv = 0.0
    for k in range(N_ALT):
        a = alternative_nb(st, tr, rl, par, legal, n, base, k)
        if a < 0:
            continue
        x = 0.0
        for j in range(N_CONTEXT):
            x += par[DP_W + k * N_CONTEXT + j] * ctx[j]
        if x > bv:
            bv = x
            best = a
    return best


@njit_nb
def choose_nb(st, rng, tr, rl, pid, par, legal, n):
    """The action policy ``pid`` (params ``par``) takes among ``legal[:n]``."""
    if pid == POLICY_RANDOM:
        return legal[randint_nb(rng, K.STREAM_POLICY, n)]
    if pid == POLICY_DISTILLED:
        return distilled_nb(st, tr, rl, par, legal, n)
    return baseline_nb(st, tr, rl, par, legal, n)
