"""Policies: every decision a player takes goes through ``choose_nb``.

The game kernel writes the legal candidates of a decision into ``cands_of(st)`` (``cands``,
rows ``(action, a, b, c)``, codes ``A_*``) and asks ``choose_nb`` for the index of one.
A policy is a jitted scoring function with a float64 parameter vector ``pp``; adding a
policy means adding a function here and a branch in ``choose_nb`` (and its name in
``simlib.games.until_daylight.policies``) — the game kernel does not change.

Policies
--------
0 ``random``   uniformly random legal choice at every decision (the floor).
1 ``baseline`` a sensible cooperative heuristic (see ``baseline_score_nb``).
"""
from __future__ import annotations

from simlib.core.jit import njit_nb
from simlib.core.rng import randint_nb
from simlib.games.until_daylight.codes import (
    STREAM_POLICY,
    A_ATTACK,
    A_CRAFT,
    A_DRAW,
    A_GIVE,
    A_NOTHING,
    A_PLAY,
    A_SACRIFICE,
    A_TAKE,
    A_USE,
    C_AMMO,
    C_AMOUNT,
    C_DICE,
    C_FIREARM,
    C_KIND,
    C_MELEE,
    CK_AMMO,
    CK_DICE_BONUS,
    CK_ENERGY_SHOT,
    CK_FOCUS,
    CK_HEAL,
    CK_LUCKY,
    CK_MATERIAL,
    CK_PICKPOCKET,
    CK_PROTECTION,
    CK_SYMBOL,
    CK_WEAPON,
    D_AMMO,
    D_AMOUNT,
    D_COMBAT_ACTION,
    D_DISCARD,
    D_EXTRA_ATTACK,
    D_KEEP,
    D_PICKPOCKET,
    D_POST_ROLL,
    D_PRE_ROLL,
    D_SACRIFICE,
    D_SEARCH_ACTION,
    E_ATTACK_DICE,
    G_CUR_AREA,
    G_CUR_B,
    G_CUR_H,
    G_CUR_X,
    G_N_CARDS,
    MOD_EXTRA_COLLATERAL,
    MOD_NO_FIREARMS,
    P_BODIES_PER_DAMAGE,
    OUTCOME_SCALE,
    P_COLLATERAL_PER_X,
    P_DICE_CAP,
    P_TOKEN_LIMIT,
    P_V_SURVIVORS_BLOCK,
    PL_AREA_N,
    PL_HEALTH,
    PL_MAX_HEALTH,
    R_PRODUCT,
    RH_O_OUTCOMES,
    TOKEN_BARRICADE,
)
from simlib.games.until_daylight.kernels.combat_nb import (
    kill_thresholds_nb,
    kills_for_counts_nb,
    target_line_nb,
)
from simlib.games.until_daylight.kernels.state_nb import (
    area_of,
    area_threat_nb,
    buf_of,
    card_get,
    card_tab_of,
    cands_of,
    char_mod_nb,
    enemy_tab_of,
    has_weapon_for_ammo_nb,
    inv_of,
    max_attack_dice_nb,
    outcome_prob_nb,
    pl_of,
    recipes_of,
    rng_of,
    slots_nb,
    slots_used_nb,
    tokens_nb,
    weapon_usable_nb,
)

POLICY_RANDOM = 0
POLICY_BASELINE = 1

# baseline parameter vector (float64); defaults and names in simlib.games.until_daylight.policies
BP_DRAW = 0  # score of a draw action in the search phase
BP_CRAFT = 1  # score of crafting a barricade (a trap scores a little less)
BP_HEAL_MISSING = 2  # heal when at least this much health is missing
BP_COLLATERAL = 3  # penalty per expected collateral damage to a teammate
BP_SACRIFICE_AT = 4  # sacrifice a saved survivor when health is at most this
N_BASELINE_PARAMS = 5


@njit_nb
def choose_nb(st, rs, pid, pp, decision, seat, n):
    """Index in ``cands_of(st)[:n]`` of the candidate chosen by policy ``pid`` (n >= 1)."""
    if n <= 1:
        return 0
    if pid == POLICY_RANDOM:
        return randint_nb(rng_of(st), STREAM_POLICY, n)
    best = 0
    best_s = -1e300
    cands = cands_of(st)
    pl = pl_of(st)  # views built once per decision, not once per candidate
    inv = inv_of(st)
    card_tab = card_tab_of(rs)
    # the ammo trades' scores ask which ammo the chooser and the teammate traded with have
    # a weapon for: found once per decision and once per teammate (the candidates list a
    # teammate's trades together), not once per candidate
    self_mask = NOT_KNOWN
    q = -1
    q_mask = NOT_KNOWN
    trades = decision == D_SEARCH_ACTION or decision == D_COMBAT_ACTION
    for i in range(n):
        act = cands[i, 0]
        a = cands[i, 1]
        b = cands[i, 2]
        b_mask = NOT_KNOWN
        if trades and (act == A_GIVE or act == A_TAKE) and card_tab[a, C_KIND] == CK_AMMO:
            if self_mask == NOT_KNOWN:
                self_mask = ammo_weapons_nb(st, rs, seat)
            if b != q:
                q = b
                q_mask = ammo_weapons_nb(st, rs, q)
            b_mask = q_mask
        s = score_nb(st, rs, pp, decision, seat, act, a, b, pl, inv, card_tab, self_mask, b_mask)
        if s > best_s:
            best_s = s
            best = i
    return best


@njit_nb
def ignores_trade_nb(rs, pid, act, c):
    """Whether policy ``pid`` scores trade ``act`` (``A_GIVE``/``A_TAKE``) of card type ``c``
    below doing nothing in every state, so that it never chooses it: the game kernel then
    leaves it out of the candidates the policy scores (``turn_candidates_nb``), which
    changes no choice.  The baseline wants only ammo, weapons and heals given away."""
    if pid != POLICY_BASELINE:
        return False
    k0 = card_get(rs, c, C_KIND)
    return k0 != CK_AMMO and k0 != CK_WEAPON and (k0 != CK_HEAL or act == A_TAKE)


@njit_nb
def card_value_nb(st, rs, seat, c):
    """How much ``seat`` wants to keep one card of type ``c`` (higher = keep)."""
    card_tab = card_tab_of(rs)
    inv = inv_of(st)
    k = card_tab[c, C_KIND]
    if k == CK_WEAPON:
        if inv[seat, c] > 1:
            return 2.0
        if card_tab[c, C_FIREARM] != 0 and char_mod_nb(st, rs, seat, MOD_NO_FIREARMS) != 0:
            return 1.0
        if card_tab[c, C_MELEE] != 0:
            return 16.0 + card_tab[c, C_DICE]
        if inv[seat, card_tab[c, C_AMMO]] > 0:
            return 18.0
        return 7.0
    if k == CK_AMMO:
        if has_weapon_for_ammo_nb(st, rs, seat, c):
            return 14.0
        return 5.0
    if k == CK_SYMBOL:
        return 15.0
    if k == CK_PROTECTION:
        return 12.0
    if k == CK_HEAL:
        return 10.0
    if k == CK_MATERIAL:
        if tokens_nb(st, seat) >= rs[P_TOKEN_LIMIT]:
            return 3.0
        return 9.0
    if k == CK_DICE_BONUS or k == CK_FOCUS or k == CK_LUCKY or k == CK_ENERGY_SHOT:
        return 8.0
    if k == CK_PICKPOCKET:
        return 4.0
    return 6.0


NOT_KNOWN = -1  # a per-decision value ``score_nb`` is not given: it finds it itself
MASK_CARDS = 62  # ``ammo_weapons_nb``'s bit set holds card types below this


@njit_nb
def ammo_weapons_nb(st, rs, seat):
    """Bit set of the ammo types ``a`` with ``has_weapon_for_ammo_nb(st, rs, seat, a)``
    (``NOT_KNOWN`` when a card type does not fit in the bits: then it is asked per card)."""
    nc = st[G_N_CARDS]
    if nc > MASK_CARDS:
        return NOT_KNOWN
    inv = inv_of(st)
    card_tab = card_tab_of(rs)
    mask = 0
    for w in range(nc):
        if inv[seat, w] > 0 and card_tab[w, C_KIND] == CK_WEAPON and card_tab[w, C_MELEE] == 0:
            if card_tab[w, C_FIREARM] == 0 or char_mod_nb(st, rs, seat, MOD_NO_FIREARMS) == 0:
                a = card_tab[w, C_AMMO]
                if 0 <= a < MASK_CARDS:
                    mask |= 1 << a
    return mask


@njit_nb
def armed_for_nb(st, rs, seat, mask, ammo):
    """``has_weapon_for_ammo_nb(st, rs, seat, ammo)``, read from ``seat``'s
    ``ammo_weapons_nb`` bit set when it is known."""
    if mask == NOT_KNOWN or ammo < 0 or ammo >= MASK_CARDS:
        return has_weapon_for_ammo_nb(st, rs, seat, ammo)
    return (mask >> ammo) & 1 != 0


@njit_nb
def kill_expectation_slow_nb(rs, line, m, enemy_tab, d, per_die):
    """``kill_expectation_nb`` with a kill count searched for each outcome (no table): for
    a target line too long for the policy's scratch row."""
    ek = 0.0
    prevented = 0.0
    for h in range(d + 1):
        # kills grow with bodies: when no or every number of bodies gives the same kills,
        # one assignment answers for the whole row
        kmax = kills_for_counts_nb(line, m, enemy_tab, h, d - h)
        if kmax == 0:
            continue
        kmin = kills_for_counts_nb(line, m, enemy_tab, h, 0)
        for b in range(d - h + 1):
            p = outcome_prob_nb(rs, d, h, b)
            if p < 1e-4:
                continue
            k = kmax if kmin == kmax else kills_for_counts_nb(line, m, enemy_tab, h, b)
            ek += p * k
            for i in range(k):
                prevented += p * (0.25 + per_die * enemy_tab[line[i], E_ATTACK_DICE])
    return ek, prevented


@njit_nb
def kill_expectation_nb(rs, row, m, enemy_tab, d, per_die):
    """Exact expectation over the (heads, bodies) of ``d`` dice of the kills on the target
    line ``row[:m]`` and of the enemy damage they prevent (``per_die``: one enemy die's
    expected damage); outcomes rarer than 1e-4 are skipped.  Returns ``(kills, prevented)``.

    The kills of every outcome come from one table of kill thresholds written after the
    line in ``row`` (``combat_nb.kill_thresholds_nb``); the sums add the same terms in the
    same order as ``kill_expectation_slow_nb`` (used when the table does not fit), so the
    scores, and every choice made from them, are the same to the last bit."""
    w = d + 1
    if m * (w + 1) > row.shape[0]:
        return kill_expectation_slow_nb(rs, row, m, enemy_tab, d, per_die)
    line = row[:m]
    tab = row[m:]
    kill_thresholds_nb(line, m, enemy_tab, d, tab)
    c = rs[P_DICE_CAP] + 1
    o = rs[RH_O_OUTCOMES] + d * c * c  # outcome_prob_nb(rs, d, h, b) = rs[o + h * c + b] * scale
    ek = 0.0
    prevented = 0.0
    for h in range(w):
        # no kill with every die left a body (nor with no dice at all): nothing to add
        if m == 0 or tab[h] > d - h or (h == 0 and d == 0):
            continue
        k = 0
        for b in range(d - h + 1):
            while k < m and tab[k * w + h] <= b:
                k += 1
            p = rs[o + h * c + b] * (1.0 / OUTCOME_SCALE)
            if p < 1e-4:
                continue
            kk = 0 if (h == 0 and b == 0) else k
            ek += p * kk
            for i in range(kk):
                prevented += p * (0.25 + per_die * enemy_tab[line[i], E_ATTACK_DICE])
    return ek, prevented


@njit_nb
def attack_score_nb(st, rs, pp, seat, area_seat, w):
    """Baseline value of attacking ``area_seat`` with weapon ``w`` (estimated kills, danger)."""
    pl = pl_of(st)
    area = area_of(st)
    card_tab = card_tab_of(rs)
    enemy_tab = enemy_tab_of(rs)
    d = max_attack_dice_nb(st, rs, seat, w)
    ph = outcome_prob_nb(rs, 1, 1, 0)
    pb = outcome_prob_nb(rs, 1, 0, 1)
    px = outcome_prob_nb(rs, 1, 0, 0)
    row = buf_of(st)[4]
    m = target_line_nb(area[area_seat], pl[area_seat, PL_AREA_N], enemy_tab,
                       rs[P_V_SURVIVORS_BLOCK], row)
    per_die = ph + pb / rs[P_BODIES_PER_DAMAGE]  # expected damage of one enemy die
    ek, prevented = kill_expectation_nb(rs, row, m, enemy_tab, d, per_die)
    coll = 0.0
    if card_tab[w, C_MELEE] == 0 and area_seat != seat:
        coll = d * px * (rs[P_COLLATERAL_PER_X] + char_mod_nb(st, rs, seat, MOD_EXTRA_COLLATERAL))
    # damage kept off a badly hurt teammate is worth more
    prevented *= 1.0 + 2.0 / max(1, pl[area_seat, PL_HEALTH])
    score = 100.0 + 10.0 * (prevented - pp[BP_COLLATERAL] * coll) + 0.1 * d \
        + 0.01 * area_threat_nb(st, rs, area_seat)
    if area_seat == seat:
        score += 1.0
    if card_tab[w, C_MELEE] == 0:
        score -= 0.2 * d  # ammo is scarce: prefer melee at equal value
        if coll > 0.0:
            worst = d * (rs[P_COLLATERAL_PER_X] + char_mod_nb(st, rs, seat, MOD_EXTRA_COLLATERAL))
            if pl[area_seat, PL_HEALTH] <= worst:
                score -= 1000.0  # never risk a teammate's life on a bad roll
    if ek < 0.2:
        score -= 80.0
        if card_tab[w, C_MELEE] == 0:
            score -= 30.0
    return score


@njit_nb
def baseline_score_nb(st, rs, pp, decision, seat, act, a, b, pl, inv, card_tab):
    """Score of candidate ``(act, a, b)`` of ``decision`` for ``seat`` (baseline heuristic);
    ``pl``, ``inv``, ``card_tab`` are the views of ``st`` and ``rs`` (built by the caller)."""
    return score_nb(st, rs, pp, decision, seat, act, a, b, pl, inv, card_tab, NOT_KNOWN,
                    NOT_KNOWN)


@njit_nb
def score_nb(st, rs, pp, decision, seat, act, a, b, pl, inv, card_tab, self_mask, b_mask):
    """``baseline_score_nb`` given what ``choose_nb`` found once per decision: the
    ``ammo_weapons_nb`` bit sets of ``seat`` and of a trade's teammate ``b`` (each
    ``NOT_KNOWN``: asked here per card when needed).  The same score either way."""
    if decision == D_SEARCH_ACTION or decision == D_COMBAT_ACTION:
        # quick answers for the many trades that the heuristic never wants (below
        # A_NOTHING's 0: the engine may leave them out, see ignores_trade_nb)
        if (act == A_GIVE or act == A_TAKE) and ignores_trade_nb(rs, POLICY_BASELINE, act, a):
            return -2.0
    missing = pl[seat, PL_MAX_HEALTH] - pl[seat, PL_HEALTH]
    if decision == D_SEARCH_ACTION or decision == D_COMBAT_ACTION or decision == D_EXTRA_ATTACK:
        if act == A_NOTHING:
            return 0.0
        if act == A_ATTACK:
            return attack_score_nb(st, rs, pp, seat, a, b)
        if act == A_CRAFT:
            s = pp[BP_CRAFT]
            if recipes_of(rs)[a, R_PRODUCT] != TOKEN_BARRICADE:
                s -= 5.0
            if decision == D_COMBAT_ACTION:
                s -= 20.0
            return s
        if act == A_USE:
            k = card_tab[a, C_KIND]
            if k == CK_HEAL:
                if pl[seat, PL_HEALTH] <= 2:
                    return 300.0
                if missing >= pp[BP_HEAL_MISSING] and missing >= card_tab[a, C_AMOUNT]:
                    return 90.0
                return -1.0
            return -5.0  # pickpocket: never rob a teammate
        if act == A_GIVE:
            k = card_tab[a, C_KIND]
            if k == CK_AMMO and not armed_for_nb(st, rs, seat, self_mask, a) \
                    and armed_for_nb(st, rs, b, b_mask, a):
                return 80.0
            if k == CK_HEAL and pl[b, PL_HEALTH] <= 2 and pl[b, PL_HEALTH] < pl[b, PL_MAX_HEALTH] \
                    and pl[seat, PL_HEALTH] > 3 and slots_used_nb(st, rs, b) < slots_nb(st, rs, b):
                return 85.0  # a dying teammate needs it more
            if k == CK_WEAPON and decision == D_SEARCH_ACTION \
                    and (not weapon_usable_nb(st, rs, seat, a) or inv[seat, a] > 1) \
                    and card_value_nb(st, rs, b, a) >= 14.0 and slots_used_nb(st, rs, b) < slots_nb(st, rs, b):
                return 60.0  # a weapon I cannot use, to whom it is an upgrade
            return -2.0
        if act == A_TAKE:
            k = card_tab[a, C_KIND]
            if k == CK_AMMO and armed_for_nb(st, rs, seat, self_mask, a) \
                    and not armed_for_nb(st, rs, b, b_mask, a):
                return 75.0
            return -2.0
        if act == A_DRAW:
            if slots_used_nb(st, rs, seat) >= slots_nb(st, rs, seat):
                return pp[BP_DRAW] - 30.0
            return pp[BP_DRAW]
        return 0.0
    if decision == D_AMMO:
        return float(a)  # spend what reaches the cap
    if decision == D_AMOUNT:
        return float(a)  # a trade the heuristic wants moves the whole stack
    if decision == D_PRE_ROLL:
        if act == A_PLAY:
            return 1.0
        return 0.0
    if decision == D_POST_ROLL:
        if act != A_PLAY:
            return 0.0
        k = card_tab[a, C_KIND]
        g = st
        if k == CK_LUCKY or k == CK_ENERGY_SHOT:
            return 2.0 if g[G_CUR_X] > 0 else -1.0
        if k == CK_FOCUS:
            line = buf_of(st)[4]
            area = area_of(st)
            enemy_tab = enemy_tab_of(rs)
            s2 = g[G_CUR_AREA]
            m = target_line_nb(area[s2], pl[s2, PL_AREA_N], enemy_tab, rs[P_V_SURVIVORS_BLOCK], line)
            k0 = kills_for_counts_nb(line, m, enemy_tab, g[G_CUR_H], g[G_CUR_B])
            k1 = kills_for_counts_nb(line, m, enemy_tab, g[G_CUR_H] + 1, g[G_CUR_B] - 1)
            return 1.0 if k1 > k0 else -1.0
        return -1.0
    if decision == D_DISCARD:
        return -card_value_nb(st, rs, seat, a)
    if decision == D_KEEP:
        return card_value_nb(st, rs, seat, a)
    if decision == D_SACRIFICE:
        if act == A_SACRIFICE:
            return 1.0 if pl[seat, PL_HEALTH] <= pp[BP_SACRIFICE_AT] else -1.0
        return 0.0
    if decision == D_PICKPOCKET:
        return card_value_nb(st, rs, seat, a) - 0.01 * b
    return 0.0
