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
2 ``distilled`` the baseline's best few candidates re-ranked by a linear score of
  features a player can see, fitted to a search's choices (``distilled_choose_nb``).
"""
from __future__ import annotations

import numpy as np

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
    A_COUNT,
    N_DECISIONS,
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
    G_N_PLAYERS,
    G_ROUND,
    MOD_EXTRA_COLLATERAL,
    MOD_NO_FIREARMS,
    P_BODIES_PER_DAMAGE,
    OUTCOME_SCALE,
    P_COLLATERAL_PER_X,
    P_DICE_CAP,
    P_TOKEN_LIMIT,
    P_ROUNDS,
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
POLICY_DISTILLED = 2

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
    if pid == POLICY_DISTILLED:
        return distilled_choose_nb(st, rs, pp, decision, seat, n)
    return baseline_choose_nb(st, rs, pp, decision, seat, n)


@njit_nb
def baseline_choose_nb(st, rs, pp, decision, seat, n):
    """The baseline's choice: the first candidate of the highest ``score_nb``."""
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
    # the distilled policy re-ranks only the baseline's best few candidates, and these
    # trades score below doing nothing for the baseline: never among them when A_NOTHING is
    if pid != POLICY_BASELINE and pid != POLICY_DISTILLED:
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


# =========================================================================== distilled policy
# The distilled policy's parameter vector (float64): the baseline's five first (its scores
# rank the candidates), then where it departs from the baseline (where the search it was
# fitted to searched: the same gate as ``search_nb.rollout_choose_nb``), then the weights of
# the features (``F_*``).  Names and the weights' file in ``policies.py``.
DP_TOP_K = N_BASELINE_PARAMS  # the baseline's best k candidates are re-ranked (2..MAX_TOP_K)
DP_SKIP_KINDS = N_BASELINE_PARAMS + 1  # bit set of decision kinds left to the baseline
DP_HORIZON = N_BASELINE_PARAMS + 2  # the teacher's horizon: 0 or h >= 1 rounds
DP_SHORT = N_BASELINE_PARAMS + 3  # 0: the baseline's choice where a horizon ends early
DP_ANY_RULESET = N_BASELINE_PARAMS + 4  # read in Python only: 1 skips the fingerprint check
DP_W = N_BASELINE_PARAMS + 5  # the first feature weight
MAX_TOP_K = 4  # the top-k is kept in scalars (these kernels never allocate)

N_ACTION_KINDS = A_COUNT + 1
# features of one candidate of a decision (``distilled_value_nb``); every one is a number
# the player can see: the baseline's scores, the candidate, the players' health, the
# round, the enemies in the areas (never the order of a deck)
F_GAP = 0  # (baseline score - the baseline's best) / 100, clipped to [-5, 0]
F_RANK = 1  # 3: rank 1, 2, 3 among the baseline's best (rank 0: the baseline's choice)
F_BASE_DEC = F_RANK + MAX_TOP_K - 1  # N_DECISIONS: the baseline's choice, by decision kind
F_ACT = F_BASE_DEC + N_DECISIONS  # N_ACTION_KINDS: the action kind (one-hot)
F_ACT_HEALTH = F_ACT + N_ACTION_KINDS  # ... times the chooser's share of health left
F_ACT_TEAM = F_ACT_HEALTH + N_ACTION_KINDS  # ... times the weakest teammate's share
F_ACT_LAST = F_ACT_TEAM + N_ACTION_KINDS  # ... on the night's last round
F_ACT_THREAT = F_ACT_LAST + N_ACTION_KINDS  # ... times the chooser's area threat / 10 (<= 2)
F_ATT_SELF = F_ACT_THREAT + N_ACTION_KINDS  # an attack on the chooser's own area
F_ATT_MELEE = F_ATT_SELF + 1  # an attack with a melee weapon
F_ATT_DICE = F_ATT_MELEE + 1  # its dice / 10 (<= 1)
F_ATT_TARGET_HEALTH = F_ATT_DICE + 1  # the target area's owner's share of health left
F_ATT_TARGET_THREAT = F_ATT_TARGET_HEALTH + 1  # the target area's threat / 10 (<= 2)
F_HEAL_MISSING = F_ATT_TARGET_THREAT + 1  # a heal: the chooser's share of health missing
F_DRAW_FULL = F_HEAL_MISSING + 1  # a draw with a full hand
F_CRAFT_TRAP = F_DRAW_FULL + 1  # crafting something other than a barricade
F_GAP_ACT = F_CRAFT_TRAP + 1  # N_ACTION_KINDS: F_GAP by action kind (attack scores and
# draw scores are not on one scale of what they are worth)
F_ATT_KILLS = F_GAP_ACT + N_ACTION_KINDS  # an attack's expected kills / 3 (<= 2)
F_ATT_PREVENTED = F_ATT_KILLS + 1  # ... the enemy damage they prevent / 3 (<= 2)
F_ATT_COLLATERAL = F_ATT_PREVENTED + 1  # ... its expected collateral damage / 3 (<= 2)
F_ATT_TARGET_ENEMIES = F_ATT_COLLATERAL + 1  # ... horde cards in the target area / 10 (<= 2)
F_TRADE_KIND = F_ATT_TARGET_ENEMIES + 1  # 6: give / take (x) ammo, weapon, heal
F_TRADE_RECEIVER_ARMED = F_TRADE_KIND + 6  # an ammo trade: the receiver has its weapon
F_TRADE_GIVER_ARMED = F_TRADE_RECEIVER_ARMED + 1  # ... the giver has its weapon
F_TRADE_RECEIVER_HEALTH = F_TRADE_GIVER_ARMED + 1  # a trade: the receiver's share of health
F_TRADE_RECEIVER_FULL = F_TRADE_RECEIVER_HEALTH + 1  # ... the receiver's hand is full
F_PAIR = F_TRADE_RECEIVER_FULL + 1  # 4 x N_ACTION_KINDS^2: a challenger (rank >= 1) of a
# search or a combat decision, by (decision, the night's last round or not, the baseline's
# choice's action kind, its own): one block each for search, search on the last round,
# combat, combat on the last round (what the search leaves for what depends on all four:
# in the teacher's values, taking a card beats doing nothing in the last rounds' combat)
N_FEATURES = F_PAIR + 4 * N_ACTION_KINDS * N_ACTION_KINDS


@njit_nb
def distilled_gate_nb(st, rs, pp, decision, n):
    """Whether the distilled policy re-ranks at this decision: where its teacher searched
    (``rollout_choose_nb``'s tests, from the parameters it was fitted with)."""
    if n <= 1 or pp[DP_TOP_K] < 2:
        return False
    if (np.int64(pp[DP_SKIP_KINDS]) >> decision) & 1:
        return False
    h = np.int64(pp[DP_HORIZON])
    if h >= 1 and st[G_ROUND] + h - 1 < rs[P_ROUNDS] and pp[DP_SHORT] == 0:
        return False
    return True


@njit_nb
def baseline_top_nb(st, rs, pp, decision, seat, n, k):
    """The baseline's best ``k`` (<= MAX_TOP_K) candidates, best first, ties in index
    order (as ``rollout_choose_nb`` ranks them; the first is ``baseline_choose_nb``'s), and
    their scores: ``(count, i0, i1, i2, i3, s0, s1, s2, s3)``.  The trades the baseline
    ignores (``ignores_trade_nb``) are never ranked, so the batch kernel, which leaves them
    out, and a step game, which lists them, rank the same candidates."""
    cands = cands_of(st)
    pl = pl_of(st)
    inv = inv_of(st)
    card_tab = card_tab_of(rs)
    i0 = -1
    i1 = -1
    i2 = -1
    i3 = -1
    s0 = -np.inf
    s1 = -np.inf
    s2 = -np.inf
    s3 = -np.inf
    cnt = 0
    self_mask = NOT_KNOWN
    q = -1
    q_mask = NOT_KNOWN
    trades = decision == D_SEARCH_ACTION or decision == D_COMBAT_ACTION
    for i in range(n):
        act = cands[i, 0]
        a = cands[i, 1]
        b = cands[i, 2]
        if trades and (act == A_GIVE or act == A_TAKE) and ignores_trade_nb(rs, POLICY_BASELINE, act, a):
            continue
        b_mask = NOT_KNOWN
        if trades and (act == A_GIVE or act == A_TAKE) and card_tab[a, C_KIND] == CK_AMMO:
            if self_mask == NOT_KNOWN:
                self_mask = ammo_weapons_nb(st, rs, seat)
            if b != q:
                q = b
                q_mask = ammo_weapons_nb(st, rs, q)
            b_mask = q_mask
        s = score_nb(st, rs, pp, decision, seat, act, a, b, pl, inv, card_tab, self_mask, b_mask)
        # its place: after every kept candidate scoring at least as much (ties keep the
        # index order); dropped when that is past the k-th
        pos = 0
        if cnt > 0 and s0 >= s:
            pos = 1
            if cnt > 1 and s1 >= s:
                pos = 2
                if cnt > 2 and s2 >= s:
                    pos = 3
                    if cnt > 3 and s3 >= s:
                        pos = 4
        if pos >= k:
            continue
        if pos == 0:
            i3, s3, i2, s2, i1, s1, i0, s0 = i2, s2, i1, s1, i0, s0, i, s
        elif pos == 1:
            i3, s3, i2, s2, i1, s1 = i2, s2, i1, s1, i, s
        elif pos == 2:
            i3, s3, i2, s2 = i2, s2, i, s
        else:
            i3, s3 = i, s
        cnt = min(cnt + 1, k)
    return cnt, i0, i1, i2, i3, s0, s1, s2, s3


@njit_nb
def distilled_value_nb(st, rs, w, o, decision, seat, act, a, b, rank, gap, base_act):
    """The distilled policy's linear score of candidate ``(act, a, b)`` of rank ``rank``
    among the baseline's best (``gap``: its ``F_GAP`` feature; ``base_act``: the action
    kind of the baseline's choice, rank 0): the sum of the weights
    ``w[o + F_*]`` times the features.  Linear in ``w``: with ``w`` the j-th unit vector it
    is feature j (how training reads the features: one function, no second copy)."""
    pl = pl_of(st)
    v = w[o + F_GAP] * gap
    if rank >= 1:
        v += w[o + F_RANK + rank - 1]
    else:
        v += w[o + F_BASE_DEC + decision]
    hr = pl[seat, PL_HEALTH] / max(1, pl[seat, PL_MAX_HEALTH])
    team = 1.0
    for p in range(st[G_N_PLAYERS]):
        if p != seat:
            team = min(team, pl[p, PL_HEALTH] / max(1, pl[p, PL_MAX_HEALTH]))
    last = 1.0 if st[G_ROUND] >= rs[P_ROUNDS] else 0.0
    thr = min(area_threat_nb(st, rs, seat), 20) / 10.0
    v += w[o + F_ACT + act] + hr * w[o + F_ACT_HEALTH + act] + team * w[o + F_ACT_TEAM + act] \
        + last * w[o + F_ACT_LAST + act] + thr * w[o + F_ACT_THREAT + act]
    if rank >= 1 and (decision == D_SEARCH_ACTION or decision == D_COMBAT_ACTION):
        block = (0 if decision == D_SEARCH_ACTION else 2) + (1 if last > 0.0 else 0)
        v += w[o + F_PAIR + (block * N_ACTION_KINDS + base_act) * N_ACTION_KINDS + act]
    v += w[o + F_GAP_ACT + act] * gap
    card_tab = card_tab_of(rs)
    if act == A_ATTACK and (decision == D_COMBAT_ACTION or decision == D_EXTRA_ATTACK):
        if a == seat:
            v += w[o + F_ATT_SELF]
        if card_tab[b, C_MELEE] != 0:
            v += w[o + F_ATT_MELEE]
        d = max_attack_dice_nb(st, rs, seat, b)
        v += w[o + F_ATT_DICE] * min(d, 10) / 10.0
        v += w[o + F_ATT_TARGET_HEALTH] * pl[a, PL_HEALTH] / max(1, pl[a, PL_MAX_HEALTH])
        v += w[o + F_ATT_TARGET_THREAT] * min(area_threat_nb(st, rs, a), 20) / 10.0
        ek, prevented, coll = attack_terms_nb(st, rs, seat, a, b, d)
        v += w[o + F_ATT_KILLS] * min(ek / 3.0, 2.0) + w[o + F_ATT_PREVENTED] * min(prevented / 3.0, 2.0) \
            + w[o + F_ATT_COLLATERAL] * min(coll / 3.0, 2.0) \
            + w[o + F_ATT_TARGET_ENEMIES] * min(pl[a, PL_AREA_N], 20) / 10.0
    elif (act == A_GIVE or act == A_TAKE) and decision != D_AMOUNT:
        k = card_tab[a, C_KIND]
        giver = seat if act == A_GIVE else b
        receiver = b if act == A_GIVE else seat
        side = 0 if act == A_GIVE else 3
        if k == CK_AMMO:
            v += w[o + F_TRADE_KIND + side]
            if has_weapon_for_ammo_nb(st, rs, receiver, a):
                v += w[o + F_TRADE_RECEIVER_ARMED]
            if has_weapon_for_ammo_nb(st, rs, giver, a):
                v += w[o + F_TRADE_GIVER_ARMED]
        elif k == CK_WEAPON:
            v += w[o + F_TRADE_KIND + side + 1]
        elif k == CK_HEAL:
            v += w[o + F_TRADE_KIND + side + 2]
        v += w[o + F_TRADE_RECEIVER_HEALTH] * pl[receiver, PL_HEALTH] / max(1, pl[receiver, PL_MAX_HEALTH])
        if slots_used_nb(st, rs, receiver) >= slots_nb(st, rs, receiver):
            v += w[o + F_TRADE_RECEIVER_FULL]
    elif act == A_USE and card_tab[a, C_KIND] == CK_HEAL:
        v += w[o + F_HEAL_MISSING] * (1.0 - hr)
    elif act == A_DRAW:
        if slots_used_nb(st, rs, seat) >= slots_nb(st, rs, seat):
            v += w[o + F_DRAW_FULL]
    elif act == A_CRAFT:
        if recipes_of(rs)[a, R_PRODUCT] != TOKEN_BARRICADE:
            v += w[o + F_CRAFT_TRAP]
    return v


@njit_nb
def attack_terms_nb(st, rs, seat, area_seat, w, d):
    """The expected kills, the enemy damage they prevent and the expected collateral damage
    of ``seat`` attacking ``area_seat`` with weapon ``w`` and ``d`` dice: the terms of
    ``attack_score_nb``, computed the same way, as features."""
    pl = pl_of(st)
    area = area_of(st)
    card_tab = card_tab_of(rs)
    enemy_tab = enemy_tab_of(rs)
    ph = outcome_prob_nb(rs, 1, 1, 0)
    pb = outcome_prob_nb(rs, 1, 0, 1)
    px = outcome_prob_nb(rs, 1, 0, 0)
    row = buf_of(st)[4]
    m = target_line_nb(area[area_seat], pl[area_seat, PL_AREA_N], enemy_tab,
                       rs[P_V_SURVIVORS_BLOCK], row)
    per_die = ph + pb / rs[P_BODIES_PER_DAMAGE]
    ek, prevented = kill_expectation_nb(rs, row, m, enemy_tab, d, per_die)
    coll = 0.0
    if card_tab[w, C_MELEE] == 0 and area_seat != seat:
        coll = d * px * (rs[P_COLLATERAL_PER_X] + char_mod_nb(st, rs, seat, MOD_EXTRA_COLLATERAL))
    return ek, prevented, coll


@njit_nb
def distilled_gap_nb(s, s0):
    """``F_GAP`` of a candidate of baseline score ``s`` when the best scores ``s0``."""
    return max(-5.0, min(0.0, (s - s0) / 100.0))


@njit_nb
def distilled_choose_nb(st, rs, pp, decision, seat, n):
    """The distilled policy: where its teacher searched (``distilled_gate_nb``), the
    baseline's best ``top_k`` candidates re-ranked by ``distilled_value_nb`` (the first
    of the highest value: the baseline's choice on a tie); elsewhere the baseline's."""
    if not distilled_gate_nb(st, rs, pp, decision, n):
        return baseline_choose_nb(st, rs, pp, decision, seat, n)
    k = min(np.int64(pp[DP_TOP_K]), MAX_TOP_K)
    cnt, i0, i1, i2, i3, s0, s1, s2, s3 = baseline_top_nb(st, rs, pp, decision, seat, n, k)
    if cnt <= 1:
        return baseline_choose_nb(st, rs, pp, decision, seat, n) if cnt == 0 else i0
    cands = cands_of(st)
    best = i0
    best_v = -np.inf
    for r in range(cnt):
        i = i0 if r == 0 else (i1 if r == 1 else (i2 if r == 2 else i3))
        s = s0 if r == 0 else (s1 if r == 1 else (s2 if r == 2 else s3))
        v = distilled_value_nb(st, rs, pp, DP_W, decision, seat, cands[i, 0], cands[i, 1],
                               cands[i, 2], r, distilled_gap_nb(s, s0), cands[i0, 0])
        if v > best_v:
            best_v = v
            best = i
    return best
