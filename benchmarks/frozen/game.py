"""Frozen copy of ``simlib.games.until_daylight.kernels.game_nb.play_game_nb`` and the kernels it calls,
written by `simlib bench --update-floors` (2026-12-07, commit d7a4783; re-measured runner, game; the other kernels' floors kept from 2026-12-01).

The speed guard measures the kernel against this copy (see simlib.core.bench, "frozen copies"): do not edit; re-measure the floors instead.
"""
from simlib.core.jit import njit_with
from simlib.core.rng import GOLDEN, MIX1, MIX2, STREAM_SALT, np
from simlib.games.until_daylight.kernels.combat_nb import ENEMY_RAIDER, ENEMY_SURVIVOR, E_KILL_BODIES, E_KILL_HEADS, E_KIND, FACE_B, FACE_H, NO_KILL, np
from simlib.games.until_daylight.kernels.game_nb import A_AMMO, A_ATTACK, A_COUNT, A_CRAFT, A_DISCARD, A_DRAW, A_GIVE, A_KEEP, A_NOTHING, A_PLAY, A_SACRIFICE, A_TAKE, A_USE, CAUSE_CHARACTER_DIED, CAUSE_NONE, CAUSE_NO_SURVIVOR, CAUSE_STALEMATE, CH_HEALTH, CH_WEAPON, CK_ADRENALINE, CK_DICE_BONUS, CK_ENERGY_SHOT, CK_EVENT_INJURY, CK_EVENT_LOST_ITEM, CK_EVENT_NOISE, CK_FOCUS, CK_HEAL, CK_LUCKY, CK_PICKPOCKET, CK_PROTECTION, CK_SYMBOL, C_AMMO, C_AMOUNT, C_BASIC_OF, C_COUNT, C_DICE, C_FIREARM, C_KIND, C_MELEE, C_NEEDS_ACTION, C_SILENT, C_STACKS, D_AMMO, D_AMOUNT, D_COMBAT_ACTION, D_DISCARD, D_EXTRA_ATTACK, D_KEEP, D_PICKPOCKET, D_POST_ROLL, D_PRE_ROLL, D_SACRIFICE, D_SEARCH_ACTION, ENEMY_INFECTED, ENEMY_RAIDER, ENEMY_SURVIVOR, EV_ATTACK, EV_BARRICADE_DOWN, EV_CARD_PLAYED, EV_CAUGHT, EV_COLLATERAL, EV_CRAFT, EV_DAMAGE, EV_DEATH, EV_DISCARD, EV_DRAW, EV_END, EV_ENEMY_ROLL, EV_EVENT, EV_EXCHANGE, EV_FATE, EV_GIVE, EV_HEAL, EV_HORDE, EV_IGNORED, EV_KILL, EV_NOTHING, EV_NO_CARD, EV_PROTECTION, EV_RESHUFFLE, EV_ROLL, EV_ROUND, EV_SACRIFICE, EV_SAVED, EV_SURVIVOR_KILLED, EV_TAKE, EV_TAME, EV_TRAP, EV_USE, EV_VIOLATION, E_ATTACK_DICE, E_COUNT, E_KEPT, E_KIND, E_REWARD_CARDS, E_REWARD_XP, FATE_ADD_ENEMY, FATE_DAMAGE, FATE_DISCARD, FATE_DRAW, FATE_HEAL, FATE_REMOVE_ENEMY, G_AREA_CAP, G_ATTACKS, G_BARR_SUPPLY, G_BUF_CAP, G_CAUGHT, G_CAUSE, G_CHECK, G_CUR_AREA, G_CUR_B, G_CUR_DICE, G_CUR_H, G_CUR_WEAPON, G_CUR_X, G_DEAD_ROUND, G_DEAD_SEAT, G_DECISIONS, G_EV_CAP, G_EXCHANGES, G_FINAL_E, G_FIRST, G_GAME_KEY, G_HDECK_N, G_HORDE_DRAWN, G_HORDE_RESHUFFLES, G_LEADER, G_LUCKY_USED, G_MODE, G_N_CARDS, G_N_ENEMIES, G_N_PLAYERS, G_OUTCOME, G_OVER, G_O_SCRIPT, G_O_SNAP, G_PC, G_PC_I, G_PENDING_D, G_PENDING_M, G_PENDING_SEAT, G_PHASE, G_RDECK_CAP, G_RDECK_N, G_REKEY_AT, G_REKEY_KEY, G_ROUND, G_RUBBLE_DRAWN, G_RUBBLE_RESHUFFLES, G_SCRIPT_CAP, G_SCRIPT_N, G_SCRIPT_POS, G_SEARCH_ACTIONS, G_SEARCH_K, G_SIZE, G_SNAP_N, G_SUSPENDED, G_TRAP_SUPPLY, G_TURN_SEAT, G_VIOLATION, MAX_CANDS, MAX_ENEMY_TYPES, MAX_FREE_ACTIONS, MAX_PLAYERS, MODE_INLINE, MODE_STEP, MOD_ABSORB_ADJACENT, MOD_DRAW_EXTRA, MOD_EXTRA_COLLATERAL, MOD_FREE_TRADES, MOD_IGNORE_DAMAGE, MOD_NO_BARRICADES, MOD_NO_GIVE, N_G, N_PARTS, OUT_LOSS, OUT_WIN, PART_COLS, PART_ROLE, PART_ROWS, PART_SLOT, PC_COMBAT_TURN, PC_ENEMIES, PC_EXCHANGE, PC_FINAL_END, PC_HORDE, PC_OVER, PC_ROUND_BEGIN, PC_SAVE, PC_SEARCH_BEGIN, PC_SEARCH_TURN, PC_TRAPS, PHASE_COMBAT, PHASE_ENEMIES, PHASE_FINAL, PHASE_SEARCH, PL_ABSORBED, PL_AREA_N, PL_BARRICADES, PL_CHAR, PL_COLLATERAL, PL_DAMAGE_TAKEN, PL_FREE_TRADES, PL_HEALTH, PL_IGNORED, PL_KILLS, PL_MAX_HEALTH, PL_SACRIFICED, PL_SAVED_TOTAL, PL_TRAPS, PL_XP_BONUS, P_BARRICADE_BODIES, P_BARRICADE_HEADS, P_BARRICADE_SUPPLY, P_BODIES_PER_DAMAGE, P_COLLATERAL_PER_X, P_DICE_CAP, P_HORDE_TOTAL, P_ROUNDS, P_RUBBLE_TOTAL, P_STALEMATE_CAP, P_TIMER_MIN, P_TIMER_OFFSET, P_TIMER_PER_PLAYER, P_TIMER_SPREAD, P_TOKEN_LIMIT, P_TRAP_HEADS, P_TRAP_SUPPLY, P_V_ALL_RAIDERS_FIRST, P_V_HORDE_RESHUFFLE, P_V_SURVIVORS_BLOCK, P_V_TRAP_REWARDS, P_WAVE_PER_PLAYER, REC_ATTACKS, REC_CAUSE, REC_CHARACTER, REC_DAMAGE, REC_DEAD_CHARACTER, REC_DEAD_ROUND, REC_DEAD_SEAT, REC_DECISIONS, REC_EXCHANGES, REC_GAME, REC_HEALTH, REC_HORDE_DRAWN, REC_HORDE_RESHUFFLES, REC_KILLED, REC_KILLS, REC_LEADER, REC_OUTCOME, REC_PLAYERS, REC_ROUND_REACHED, REC_RUBBLE_DRAWN, REC_SEARCH_ACTIONS, REC_SURVIVORS_SAVED, REC_SURVIVORS_SAVED_TOTAL, REC_VIOLATION, REC_XP, RH_N_CARDS, RH_N_ENEMIES, ROLE_POSITION, ROLE_SCRATCH, R_ING0, R_N, R_PRODUCT, SCRIPT_CAP, STREAM_CARDS, STREAM_DICE, STREAM_TIMER, Suspended, TOKEN_BARRICADE, TOKEN_TRAP, VIOL_AREA, VIOL_HEALTH, VIOL_HORDE_CONSERVATION, VIOL_INVENTORY, VIOL_NEGATIVE, VIOL_NONE, VIOL_RUBBLE_CONSERVATION, VIOL_TOKEN_LIMIT, VIOL_TOKEN_SUPPLY, area_of, buf_of, cands_of, card_tab_of, char_tab_of, die_of, enemy_tab_of, fate_of, hdeck_of, hdisc_of, inv_of, kept_of, killed_of, np, pl_of, rdeck_of, rdisc_of, recipes_of, rng_of
from simlib.games.until_daylight.kernels.policies_nb import A_ATTACK, A_CRAFT, A_DRAW, A_GIVE, A_NOTHING, A_PLAY, A_SACRIFICE, A_TAKE, A_USE, BP_COLLATERAL, BP_CRAFT, BP_DRAW, BP_HEAL_MISSING, BP_SACRIFICE_AT, CK_AMMO, CK_DICE_BONUS, CK_ENERGY_SHOT, CK_FOCUS, CK_HEAL, CK_LUCKY, CK_MATERIAL, CK_PICKPOCKET, CK_PROTECTION, CK_SYMBOL, CK_WEAPON, C_AMMO, C_AMOUNT, C_DICE, C_FIREARM, C_KIND, C_MELEE, DP_HORIZON, DP_SHORT, DP_SKIP_KINDS, DP_TOP_K, DP_W, D_AMMO, D_AMOUNT, D_COMBAT_ACTION, D_DISCARD, D_EXTRA_ATTACK, D_KEEP, D_PICKPOCKET, D_POST_ROLL, D_PRE_ROLL, D_SACRIFICE, D_SEARCH_ACTION, E_ATTACK_DICE, F_ACT, F_ACT_HEALTH, F_ACT_LAST, F_ACT_TEAM, F_ACT_THREAT, F_ATT_COLLATERAL, F_ATT_DICE, F_ATT_KILLS, F_ATT_MELEE, F_ATT_PREVENTED, F_ATT_SELF, F_ATT_TARGET_ENEMIES, F_ATT_TARGET_HEALTH, F_ATT_TARGET_THREAT, F_BASE_DEC, F_CRAFT_TRAP, F_DRAW_FULL, F_GAP, F_GAP_ACT, F_HEAL_MISSING, F_PAIR, F_RANK, F_TRADE_GIVER_ARMED, F_TRADE_KIND, F_TRADE_RECEIVER_ARMED, F_TRADE_RECEIVER_FULL, F_TRADE_RECEIVER_HEALTH, G_CUR_AREA, G_CUR_B, G_CUR_H, G_CUR_X, G_N_CARDS, G_N_PLAYERS, G_ROUND, MASK_CARDS, MAX_TOP_K, MOD_EXTRA_COLLATERAL, MOD_NO_FIREARMS, NOT_KNOWN, N_ACTION_KINDS, OUTCOME_SCALE, PL_AREA_N, PL_HEALTH, PL_MAX_HEALTH, POLICY_BASELINE, POLICY_DISTILLED, POLICY_RANDOM, P_BODIES_PER_DAMAGE, P_COLLATERAL_PER_X, P_DICE_CAP, P_ROUNDS, P_TOKEN_LIMIT, P_V_SURVIVORS_BLOCK, RH_O_OUTCOMES, R_PRODUCT, STREAM_POLICY, TOKEN_BARRICADE, area_of, buf_of, cands_of, card_tab_of, enemy_tab_of, inv_of, np, pl_of, recipes_of, rng_of
from simlib.games.until_daylight.kernels.state_nb import CH_ADV_AMOUNT, CH_ADV_KIND, CH_DRAW_AMOUNT, CH_DRAW_KIND, CH_SLOTS, CK_SYMBOL, CK_WEAPON, C_AMMO, C_AMOUNT, C_DICE, C_FIREARM, C_KIND, C_MELEE, C_STACKS, C_WEAPON_BONUS, ENEMY_SURVIVOR, EV_LEADER, E_ATTACK_DICE, E_KIND, E_REWARD_XP, G_EV_N, G_LEADER, G_N_PLAYERS, G_ROUND, K, MOD_DISTANCE_DICE, MOD_MELEE_DICE, MOD_NO_FIREARMS, PL_AREA_N, PL_BARRICADES, PL_CHAR, PL_MAX_XP, PL_TRAPS, PL_XP_BONUS, P_DICE_CAP, P_SURVIVOR_XP, P_V_SURVIVORS_BLOCK, ev_of


@njit_with(cache=True, entry=True, error_model='numpy', nogil=True)
def play_game_nb(rs, seed, game, n_players, chars, pid, pp, ev_cap, check, rec):
    """Play one whole game; write its record into ``rec`` (int64, N_REC); return its state
    (``ev_of(state)[:state[G_EV_N]]`` are the trace events when ``ev_cap > 0``).  With
    ``check`` the invariants are checked after every step (record field ``violation``)."""
    st = new_game_nb(rs, seed, game, n_players, chars, ev_cap, check, MODE_INLINE)
    run_nb(st, rs, pid, pp, PC_OVER)
    write_record_nb(st, rs, game, rec)
    return st


@njit_with(cache=True, entry=False, error_model='numpy', nogil=True)
def new_game_nb(rs, seed, game, n_players, chars, ev_cap, check, mode):
    """A new game at its first step (round 1 begins), in ``mode`` (``MODE_*``)."""
    st = new_state_nb(rs, ev_cap)
    start_game_nb(st, rs, seed, game, n_players, chars, check, mode)
    return st


@njit_with(cache=True, entry=False, error_model='numpy', nogil=True)
def new_state_nb(rs, ev_cap):
    """A zeroed game state (one int64 array, layout in ``state_nb``) with ``ev_cap`` trace rows."""
    st = np.empty(init_state_nb(rs, ev_cap, np.empty(0, dtype=np.int64)), dtype=np.int64)
    init_state_nb(rs, ev_cap, st)
    return st


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def init_state_nb(rs, ev_cap, st):
    """Lay out and zero a game state in ``st`` from ``codes.STATE_PARTS`` (any length when
    it is empty: then only the length is returned).  Returns the state's length."""
    nc = rs[RH_N_CARDS]
    ne = rs[RH_N_ENEMIES]
    area_cap = rs[P_HORDE_TOTAL] + 1
    buf_cap = max(rs[P_HORDE_TOTAL], rs[P_RUBBLE_TOTAL], MAX_CANDS) + 8
    rdeck_cap = rs[P_RUBBLE_TOTAL] + 1
    # the position (the head and the parts before the first non-position part) is what a
    # step snapshots and a continuation clones
    snap_n = N_G
    for k in range(N_PARTS):
        if PART_ROLE[k] != ROLE_POSITION:
            break
        snap_n += _part_size_nb(k, nc, ne, area_cap, ev_cap, buf_cap, rdeck_cap, 0)
    total = N_G
    for k in range(N_PARTS):
        total += _part_size_nb(k, nc, ne, area_cap, ev_cap, buf_cap, rdeck_cap, snap_n)
    if st.shape[0] == 0:
        return total
    # scratch parts (candidates, buffers, snapshot, script) are always written before they
    # are read: only the rest is zeroed (a game's state is ~60 kB, mostly scratch)
    st[:N_G] = 0
    o = N_G
    for k in range(N_PARTS):
        n = _part_size_nb(k, nc, ne, area_cap, ev_cap, buf_cap, rdeck_cap, snap_n)
        st[PART_SLOT[k]] = o
        if PART_ROLE[k] != ROLE_SCRATCH:
            st[o:o + n] = 0
        o += n
    st[G_SNAP_N] = snap_n
    st[G_SCRIPT_CAP] = SCRIPT_CAP
    st[G_REKEY_AT] = -1
    st[G_PENDING_D] = -1
    st[G_PENDING_SEAT] = -1
    st[G_N_CARDS] = nc
    st[G_N_ENEMIES] = ne
    st[G_AREA_CAP] = area_cap
    st[G_EV_CAP] = ev_cap
    st[G_BUF_CAP] = buf_cap
    st[G_RDECK_CAP] = rdeck_cap
    st[G_SIZE] = total
    return total


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def _part_size_nb(k, nc, ne, area_cap, ev_cap, buf_cap, rdeck_cap, snap_n):
    """Entries of part ``k`` of ``codes.STATE_PARTS`` (rows x columns)."""
    return _layout_dim_nb(PART_ROWS[k], nc, ne, area_cap, ev_cap, buf_cap, rdeck_cap, snap_n) \
        * _layout_dim_nb(PART_COLS[k], nc, ne, area_cap, ev_cap, buf_cap, rdeck_cap, snap_n)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def _layout_dim_nb(d, nc, ne, area_cap, ev_cap, buf_cap, rdeck_cap, snap_n):
    """Value of a ``codes.STATE_PARTS`` dimension for a state being laid out: a constant,
    or the size a head slot will hold."""
    if d < 0:
        return -d
    if d == G_N_CARDS:
        return nc
    if d == G_N_ENEMIES:
        return ne
    if d == G_AREA_CAP:
        return area_cap
    if d == G_EV_CAP:
        return ev_cap
    if d == G_BUF_CAP:
        return buf_cap
    if d == G_RDECK_CAP:
        return rdeck_cap
    if d == G_SNAP_N:
        return snap_n
    if d == G_SCRIPT_CAP:
        return SCRIPT_CAP
    raise ValueError("codes.STATE_PARTS names a dimension init_state_nb does not set")


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def start_game_nb(st, rs, seed, game, n_players, chars, check, mode):
    """Set up game ``game`` in an allocated state ``st`` (laid out by ``init_state_nb``)."""
    st[G_CHECK] = check
    st[G_MODE] = mode
    setup_nb(st, rs, seed, game, n_players, chars)
    checkpoint_nb(st, rs)
    goto_nb(st, PC_ROUND_BEGIN, 0)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def checkpoint_nb(st, rs):
    """With checks on, record the first invariant violation (tests run games this way)."""
    if st[G_CHECK] == 0 or st[G_VIOLATION] != 0:
        return
    v = invariant_violation_nb(st, rs)
    if v != VIOL_NONE:
        st[G_VIOLATION] = v
        emit_nb(st, EV_VIOLATION, -1, v, 0, 0, 0, 0)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def emit_nb(st, kind, seat, a, b, c, d, e):
    """Append one trace event (no-op when the trace buffer has capacity 0 or is full)."""
    i = st[G_EV_N]
    if i >= st[K.G_EV_CAP]:
        return
    ev = ev_of(st)
    ev[i, 0] = kind
    ev[i, 1] = st[G_ROUND]
    ev[i, 2] = seat
    ev[i, 3] = a
    ev[i, 4] = b
    ev[i, 5] = c
    ev[i, 6] = d
    ev[i, 7] = e
    st[G_EV_N] = i + 1


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def invariant_violation_nb(st, rs):
    """First invariant the state breaks (``VIOL_*``), or ``VIOL_NONE``."""
    pl = pl_of(st)
    inv = inv_of(st)
    n = st[G_N_PLAYERS]
    rub = st[G_RDECK_N]
    rdisc = rdisc_of(st)
    neg = st[G_RDECK_N] < 0 or st[G_HDECK_N] < 0
    for c in range(rdisc.shape[0]):
        rub += rdisc[c]
        neg = neg or rdisc[c] < 0
    hor = st[G_HDECK_N]
    hdisc = hdisc_of(st)
    kept = kept_of(st)
    for t in range(hdisc.shape[0]):
        hor += hdisc[t]
        neg = neg or hdisc[t] < 0
    traps = 0
    barrs = 0
    for s in range(n):
        for c in range(inv.shape[1]):
            rub += inv[s, c]
            neg = neg or inv[s, c] < 0
        hor += pl[s, PL_AREA_N]
        neg = neg or pl[s, PL_AREA_N] < 0
        for t in range(kept.shape[1]):
            hor += kept[s, t]
            neg = neg or kept[s, t] < 0
        traps += pl[s, PL_TRAPS]
        barrs += pl[s, PL_BARRICADES]
        if pl[s, PL_TRAPS] < 0 or pl[s, PL_BARRICADES] < 0 or tokens_nb(st, s) > rs[P_TOKEN_LIMIT]:
            return VIOL_TOKEN_LIMIT
        if slots_used_nb(st, rs, s) > slots_nb(st, rs, s):
            return VIOL_INVENTORY
        h = pl[s, PL_HEALTH]
        if h < 0 or h > pl[s, PL_MAX_HEALTH] or (h == 0 and st[G_OVER] == 0):
            return VIOL_HEALTH
        if pl[s, PL_AREA_N] > st[G_AREA_CAP]:
            return VIOL_AREA
    if neg:  # before the sums: a negative count can balance a card from nowhere
        return VIOL_NEGATIVE
    if rub != rs[P_RUBBLE_TOTAL]:
        return VIOL_RUBBLE_CONSERVATION
    if hor != rs[P_HORDE_TOTAL]:
        return VIOL_HORDE_CONSERVATION
    if traps + st[G_TRAP_SUPPLY] != rs[P_TRAP_SUPPLY] or st[G_TRAP_SUPPLY] < 0 \
            or barrs + st[G_BARR_SUPPLY] != rs[P_BARRICADE_SUPPLY] or st[G_BARR_SUPPLY] < 0:
        return VIOL_TOKEN_SUPPLY
    return VIOL_NONE


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def slots_nb(st, rs, seat):
    return char_get(rs, pl_get(st, seat, PL_CHAR), CH_SLOTS)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def char_get(rs, c, col):
    return rs[rs[K.RH_O_CHAR] + c * K.N_CHAR_COLS + col]


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def pl_get(st, seat, f):
    return st[st[K.G_O_PL] + seat * K.N_PL + f]


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def slots_used_nb(st, rs, seat):
    """Inventory slots used: one per card, one per stack for stacking cards (ammo)."""
    n = 0
    for c in range(st[K.G_N_CARDS]):
        k = inv_get(st, seat, c)
        if k > 0:
            if card_get(rs, c, C_STACKS) != 0:
                n += 1
            else:
                n += k
    return n


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def card_get(rs, c, col):
    return rs[rs[K.RH_O_CARD] + c * K.N_CARD_COLS + col]


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def inv_get(st, seat, c):
    return st[st[K.G_O_INV] + seat * st[K.G_N_CARDS] + c]


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def tokens_nb(st, seat):
    return pl_get(st, seat, PL_TRAPS) + pl_get(st, seat, PL_BARRICADES)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def goto_nb(st, pc, i):
    """The game moves to step ``pc`` (loop index ``i``); step mode snapshots it."""
    st[G_PC] = pc
    st[G_PC_I] = i
    if st[G_MODE] == MODE_STEP:
        snapshot_nb(st)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def snapshot_nb(st):
    """Step mode: the position at the start of a step; the step's script starts empty."""
    n = st[G_SNAP_N]
    o = st[G_O_SNAP]
    for i in range(n):
        st[o + i] = st[i]
    st[G_SCRIPT_N] = 0
    st[G_SCRIPT_POS] = 0


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def setup_nb(st, rs, seed, game, n_players, chars):
    """Seats, characters (given, or drawn without duplicates when ``chars[0] < 0``), basic
    weapons, decks with the unpicked basic weapons shuffled into the rubble deck."""
    g = st
    pl = pl_of(st)
    inv = inv_of(st)
    params = rs
    card_tab = card_tab_of(rs)
    enemy_tab = enemy_tab_of(rs)
    char_tab = char_tab_of(rs)
    key = game_key_nb(seed, game)
    init_streams_nb(rng_of(st), key)
    st[G_GAME_KEY] = np.int64(key)
    g[G_N_PLAYERS] = n_players
    g[G_LEADER] = -1
    g[G_DEAD_SEAT] = -1
    g[G_DEAD_ROUND] = -1
    g[G_TRAP_SUPPLY] = params[P_TRAP_SUPPLY]
    g[G_BARR_SUPPLY] = params[P_BARRICADE_SUPPLY]
    nch = char_tab.shape[0]
    pool = buf_of(st)[0]
    for c in range(nch):
        pool[c] = c
    for s in range(n_players):
        if chars[0] < 0:
            j = s + randint_nb(rng_of(st), STREAM_CARDS, nch - s)
            tmp = pool[s]
            pool[s] = pool[j]
            pool[j] = tmp
            c = pool[s]
        else:
            c = chars[s]
        pl[s, PL_CHAR] = c
        pl[s, PL_HEALTH] = char_tab[c, CH_HEALTH]
        pl[s, PL_MAX_HEALTH] = char_tab[c, CH_HEALTH]
        inv[s, char_tab[c, CH_WEAPON]] += 1
    for s in range(n_players, MAX_PLAYERS):
        pl[s, PL_CHAR] = -1
    m = 0
    rdeck = rdeck_of(st)
    for c in range(card_tab.shape[0]):
        k = card_tab[c, C_COUNT]
        owner = card_tab[c, C_BASIC_OF]
        if owner >= 0:
            picked = False
            for s in range(n_players):
                if pl[s, PL_CHAR] == owner:
                    picked = True
            k = 0 if picked else 1
        for _ in range(k):
            rdeck[m] = c
            m += 1
    g[G_RDECK_N] = m
    m = 0
    hdeck = hdeck_of(st)
    for t in range(enemy_tab.shape[0]):
        for _ in range(enemy_tab[t, E_COUNT]):
            hdeck[m] = t
            m += 1
    g[G_HDECK_N] = m


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def game_key_nb(seed, game_index):
    """Key of one game: a pure function of (root seed, game index), both ``int64`` >= 0."""
    s = mix64_nb(np.uint64(seed) * GOLDEN + np.uint64(0x632BE59BD9B4E019))
    return mix64_nb(s ^ (np.uint64(game_index) * GOLDEN + GOLDEN))


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def mix64_nb(z):
    """splitmix64 finaliser: a bijective avalanche of a ``uint64``."""
    z = (z ^ (z >> np.uint64(30))) * MIX1
    z = (z ^ (z >> np.uint64(27))) * MIX2
    return z ^ (z >> np.uint64(31))


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def init_streams_nb(state, key):
    """Fill ``state`` (uint64, one entry per stream) with independent streams of ``key``."""
    for i in range(state.shape[0]):
        state[i] = mix64_nb(key ^ (np.uint64(i + 1) * STREAM_SALT))


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def randint_nb(state, stream, n):
    """Uniform integer in ``[0, n)`` for ``1 <= n < 2**31`` (multiply-shift on the top 32 bits)."""
    x = next_u64_nb(state, stream) >> np.uint64(32)
    return np.int64((x * np.uint64(n)) >> np.uint64(32))


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def next_u64_nb(state, stream):
    """Next raw 64-bit output of ``stream``."""
    s = state[stream] + GOLDEN
    state[stream] = s
    return mix64_nb(s)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def run_nb(st, rs, pid, pp, stop_pc):
    """Play steps until the game ends or reaches step ``stop_pc`` (``PC_OVER``: the end)."""
    while st[G_OVER] == 0 and st[G_PC] != stop_pc:
        step_nb(st, rs, pid, pp)
    if st[G_OVER] != 0:
        st[G_PC] = PC_OVER


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def step_nb(st, rs, pid, pp):
    """Play the step the game stands at (``st[G_PC]``) and move to the next one.

    A round: ROUND_BEGIN (abilities reset) -> SEARCH_BEGIN (timer) -> SEARCH_TURN x K -> HORDE ->
    EXCHANGE -> COMBAT_TURN x n -> TRAPS -> ENEMIES x 2n -> SAVE -> next round.  Round
    ``rounds`` is the final fight: EXCHANGE repeats until no enemy is left (or the
    stalemate cap), then FINAL_END decides the game.
    """
    pc = st[G_PC]
    i = st[G_PC_I]
    n = st[G_N_PLAYERS]
    final = st[G_ROUND] >= rs[P_ROUNDS]
    if pc == PC_ROUND_BEGIN:
        st[G_ROUND] += 1
        reset_round_abilities_nb(st)
        goto_nb(st, PC_SEARCH_BEGIN, 0)
    elif pc == PC_SEARCH_BEGIN:
        spread = rs[P_TIMER_SPREAD]
        k = rs[P_TIMER_PER_PLAYER] * n + rs[P_TIMER_OFFSET]
        if spread > 0:
            k += randint_nb(rng_of(st), STREAM_TIMER, 2 * spread + 1) - spread
        k = max(rs[P_TIMER_MIN], k)
        st[G_SEARCH_K] = k
        st[G_PHASE] = PHASE_SEARCH
        emit_nb(st, EV_ROUND, st[G_FIRST], st[G_FIRST], k, 0, 0, 0)
        goto_nb(st, PC_SEARCH_TURN, 0)
    elif pc == PC_SEARCH_TURN:
        if i < st[G_SEARCH_K]:
            take_turn_nb(st, rs, pid, pp, (st[G_FIRST] + i) % n, False)
            st[G_SEARCH_ACTIONS] += 1
            goto_nb(st, PC_SEARCH_TURN, i + 1)
        else:
            st[G_CAUGHT] = (st[G_FIRST] + i) % n
            emit_nb(st, EV_CAUGHT, st[G_CAUGHT], 0, 0, 0, 0, 0)
            goto_nb(st, PC_HORDE, 0)
    elif pc == PC_HORDE:
        horde_release_nb(st, rs, pid, pp)
        checkpoint_nb(st, rs)
        if final:
            st[G_PHASE] = PHASE_FINAL
            st[G_FINAL_E] = 0
        goto_nb(st, PC_EXCHANGE, 0)
    elif pc == PC_EXCHANGE:
        if final:
            e = st[G_FINAL_E]
            if e >= rs[P_STALEMATE_CAP] or enemies_on_table_nb(st, rs) == 0:
                goto_nb(st, PC_FINAL_END, 0)
                return
            st[G_EXCHANGES] = e + 1
            emit_nb(st, EV_EXCHANGE, -1, e + 1, 0, 0, 0, 0)
            if e > 0:
                reset_round_abilities_nb(st)  # each exchange is a round for per-round abilities
        st[G_PHASE] = PHASE_COMBAT
        goto_nb(st, PC_COMBAT_TURN, 0)
    elif pc == PC_COMBAT_TURN:
        take_turn_nb(st, rs, pid, pp, (st[G_CAUGHT] + i) % n, True)
        if i + 1 < n:
            goto_nb(st, PC_COMBAT_TURN, i + 1)
        else:
            goto_nb(st, PC_TRAPS, 0)
    elif pc == PC_TRAPS:
        traps_nb(st, rs, pid, pp)
        checkpoint_nb(st, rs)
        st[G_PHASE] = PHASE_ENEMIES
        goto_nb(st, PC_ENEMIES, 0)
    elif pc == PC_ENEMIES:
        seat, kind = area_attack_order_nb(st, rs, i)
        area_attack_nb(st, rs, pid, pp, seat, kind)
        if i + 1 < 2 * n:
            goto_nb(st, PC_ENEMIES, i + 1)
        else:
            checkpoint_nb(st, rs)
            goto_nb(st, PC_SAVE, 0)
    elif pc == PC_SAVE:
        save_survivors_nb(st, rs)
        checkpoint_nb(st, rs)
        if final:
            st[G_FINAL_E] += 1
            goto_nb(st, PC_EXCHANGE, 0)
        else:
            st[G_FIRST] = (st[G_CAUGHT] + 1) % n
            goto_nb(st, PC_ROUND_BEGIN, 0)
    elif pc == PC_FINAL_END:
        if enemies_on_table_nb(st, rs) > 0:
            end_game_nb(st, OUT_LOSS, CAUSE_STALEMATE, -1)
        else:
            save_survivors_nb(st, rs)
            if kept_survivors_nb(st, rs) > 0:
                end_game_nb(st, OUT_WIN, CAUSE_NONE, -1)
            else:
                end_game_nb(st, OUT_LOSS, CAUSE_NO_SURVIVOR, -1)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def area_attack_nb(st, rs, pid, pp, seat, kind):
    """Enemies of ``kind`` in ``seat``'s area attack: dice pooled in card order, batches."""
    g = st
    pl = pl_of(st)
    params = rs
    enemy_tab = enemy_tab_of(rs)
    area = area_of(st)
    total = 0
    for i in range(pl[seat, PL_AREA_N]):
        t = area[seat, i]
        if enemy_tab[t, E_KIND] == kind:
            total += enemy_tab[t, E_ATTACK_DICE]
    cap = params[P_DICE_CAP]
    faces = buf_of(st)[2]
    while total > 0:
        k = min(cap, total)
        total -= k
        h, b, x = roll_faces_nb(rng_of(st), STREAM_DICE, k, die_of(rs), faces)
        emit_nb(st, EV_ENEMY_ROLL, seat, kind, h, b, x, seat)
        sk, bd, dmg = enemy_batch_nb(h, b, x, kind, survivors_in_area_nb(st, rs, seat),
                                     pl[seat, PL_BARRICADES], params[P_BARRICADE_HEADS],
                                     params[P_BARRICADE_BODIES], params[P_BODIES_PER_DAMAGE])
        if sk > 0:
            remove_survivors_nb(st, rs, seat, sk)
        if bd > 0:
            pl[seat, PL_BARRICADES] -= bd
            g[G_BARR_SUPPLY] += bd
            for _ in range(bd):
                emit_nb(st, EV_BARRICADE_DOWN, seat, 0, 0, 0, 0, 0)
        if dmg > 0:
            hurt_nb(st, rs, pid, pp, seat, dmg, True, kind == ENEMY_RAIDER)
        if g[G_OVER] != 0:
            return


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def enemy_batch_nb(h, b, x, kind, survivors, barricades, barricade_heads, barricade_bodies,
                   bodies_per_damage):
    """Resolve one batch (at most the dice cap) of enemy dice on an area.

    Damage order: survivors, then barricades; what passes is returned as damage units for
    the caller to send through abilities, protection cards and the character.  Heads are
    placed before bodies.  Infected hit survivors (one per H or B); raiders' X each kill a
    survivor, their H and B skip survivors.  Odd bodies are lost at the end of the batch.

    Returns ``(survivors_killed, barricades_destroyed, damage)``.
    """
    sk = 0
    if kind == ENEMY_RAIDER:
        sk = min(x, survivors)
    else:
        t = min(h, survivors)
        h -= t
        sk += t
        t = min(b, survivors - sk)
        b -= t
        sk += t
    bd = 0
    while bd < barricades and h >= barricade_heads:
        h -= barricade_heads
        bd += 1
    if bd < barricades:
        h = 0  # heads short of a whole barricade land on it without passing
        while bd < barricades and b >= barricade_bodies:
            b -= barricade_bodies
            bd += 1
        if bd < barricades:
            b = 0
    return sk, bd, h + b // bodies_per_damage


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def hurt_nb(st, rs, pid, pp, seat, amount, protection, from_raider):
    """Send ``amount`` damage units to ``seat``'s character, one unit at a time.

    Order per unit (rulebook: special capacities before rubble cards): the character's own
    ignore-damage ability, an adjacent player's absorb ability, a protection card (only in
    the enemies' attack, ``protection``), a saved survivor sacrificed (policy), health.
    Each unit of a raider's damage that reaches health also discards a card (policy).
    """
    g = st
    pl = pl_of(st)
    inv = inv_of(st)
    card_tab = card_tab_of(rs)
    n = g[G_N_PLAYERS]
    prot_left = 0
    for _ in range(amount):
        if g[G_OVER] != 0:
            return
        if pl[seat, PL_IGNORED] < char_mod_nb(st, rs, seat, MOD_IGNORE_DAMAGE):
            pl[seat, PL_IGNORED] += 1
            emit_nb(st, EV_IGNORED, seat, -1, 0, 0, 0, 0)
            continue
        absorbed = False
        for k in range(2):
            q = (seat + n - 1) % n if k == 0 else (seat + 1) % n
            if q != seat and pl[q, PL_ABSORBED] < char_mod_nb(st, rs, q, MOD_ABSORB_ADJACENT):
                pl[q, PL_ABSORBED] += 1
                emit_nb(st, EV_IGNORED, seat, q, 0, 0, 0, 0)
                absorbed = True
                break
        if absorbed:
            continue
        if protection:
            if prot_left > 0:
                prot_left -= 1
                continue
            used = -1
            for c in range(inv.shape[1]):
                if inv[seat, c] > 0 and card_tab[c, C_KIND] == CK_PROTECTION:
                    used = c
                    break
            if used >= 0:
                spend_card_nb(st, seat, used)
                prot_left = card_tab[used, C_AMOUNT] - 1
                emit_nb(st, EV_PROTECTION, seat, used, 0, 0, 0, 0)
                continue
        ts = survivor_type_kept_nb(st, rs, seat)
        if ts >= 0:
            cands = cands_of(st)
            cands[0, 0] = A_NOTHING
            cands[1, 0] = A_SACRIFICE
            cands[1, 1] = ts
            if decide_nb(st, rs, pid, pp, D_SACRIFICE, seat, 2) == 1:
                kept_of(st)[seat, ts] -= 1
                hdisc_of(st)[ts] += 1
                pl[seat, PL_SACRIFICED] += 1
                emit_nb(st, EV_SACRIFICE, seat, ts, 0, 0, 0, 0)
                update_leader_nb(st, rs)
                continue
        if lose_health_nb(st, seat, from_raider):
            return
        if from_raider:
            discard_choice_nb(st, rs, pid, pp, seat)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def char_mod_nb(st, rs, seat, mod):
    """Value of modifier ``mod`` for the character in ``seat``: advantage (doubled while
    leader) plus drawback."""
    c = pl_get(st, seat, PL_CHAR)
    v = 0
    if char_get(rs, c, CH_ADV_KIND) == mod:
        a = char_get(rs, c, CH_ADV_AMOUNT)
        if st[G_LEADER] == seat:
            a *= 2
        v += a
    if char_get(rs, c, CH_DRAW_KIND) == mod:
        v += char_get(rs, c, CH_DRAW_AMOUNT)
    return v


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def decide_nb(st, rs, pid, pp, decision, seat, m):
    """Index in ``cands_of(st)[:m]`` of the choice taken at a decision.

    One candidate: 0 at once (not a decision).  Otherwise, in order: a pending re-key
    takes effect here (a continuation sees fresh streams from this decision on); a
    choice replayed from the step's script; in step mode the game stops (``Suspended``)
    with the decision pending; else the policy chooses.
    """
    return decide_of_nb(st, rs, pid, pp, decision, seat, m, m)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def decide_of_nb(st, rs, pid, pp, decision, seat, m, m_all):
    """``decide_nb`` for a decision of ``m_all`` candidates of which only the first ``m``
    were written: the others are ones policy ``pid`` never chooses (``turn_candidates_nb``
    prunes only when the policy chooses, never for a script or a step).  The decision
    counts, and a re-key takes effect, by its true size."""
    if m_all <= 1:
        return 0
    pos = st[G_SCRIPT_POS]
    if pos == st[G_REKEY_AT]:
        rekey_now_nb(st)
    if pos < st[G_SCRIPT_N]:
        st[G_SCRIPT_POS] = pos + 1
        st[G_DECISIONS] += 1
        return st[st[G_O_SCRIPT] + pos]
    if st[G_MODE] == MODE_STEP:
        st[G_PENDING_D] = decision
        st[G_PENDING_SEAT] = seat
        st[G_PENDING_M] = m
        st[G_SUSPENDED] = 1
        raise Suspended()
    st[G_DECISIONS] += 1
    return choose_nb(st, rs, pid, pp, decision, seat, m)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def choose_nb(st, rs, pid, pp, decision, seat, n):
    """Index in ``cands_of(st)[:n]`` of the candidate chosen by policy ``pid`` (n >= 1)."""
    if n <= 1:
        return 0
    if pid == POLICY_RANDOM:
        return randint_nb(rng_of(st), STREAM_POLICY, n)
    if pid == POLICY_DISTILLED:
        return distilled_choose_nb(st, rs, pp, decision, seat, n)
    return baseline_choose_nb(st, rs, pp, decision, seat, n)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
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


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
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


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
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


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def armed_for_nb(st, rs, seat, mask, ammo):
    """``has_weapon_for_ammo_nb(st, rs, seat, ammo)``, read from ``seat``'s
    ``ammo_weapons_nb`` bit set when it is known."""
    if mask == NOT_KNOWN or ammo < 0 or ammo >= MASK_CARDS:
        return has_weapon_for_ammo_nb(st, rs, seat, ammo)
    return (mask >> ammo) & 1 != 0


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def has_weapon_for_ammo_nb(st, rs, seat, ammo):
    for w in range(st[K.G_N_CARDS]):
        if inv_get(st, seat, w) > 0 and card_get(rs, w, C_KIND) == CK_WEAPON \
                and card_get(rs, w, C_MELEE) == 0 and card_get(rs, w, C_AMMO) == ammo:
            if card_get(rs, w, C_FIREARM) == 0 or char_mod_nb(st, rs, seat, MOD_NO_FIREARMS) == 0:
                return True
    return False


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
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


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def area_threat_nb(st, rs, seat):
    """Attack dice of the enemies in an area (a policy's measure of danger)."""
    d = 0
    for i in range(pl_get(st, seat, PL_AREA_N)):
        d += enemy_get(rs, area_get(st, seat, i), E_ATTACK_DICE)
    return d


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def area_get(st, seat, i):
    return st[st[K.G_O_AREA] + seat * st[K.G_AREA_CAP] + i]


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def enemy_get(rs, t, col):
    return rs[rs[K.RH_O_ENEMY] + t * K.N_ENEMY_COLS + col]


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
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


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
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


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def kills_for_counts_nb(line, n, enemy_tab, h, b):
    """Longest killed prefix of ``line[:n]`` (enemy type ids) with ``h`` heads and ``b`` bodies.

    Ordered assignment: an enemy must die before damage passes to the next one.  An enemy
    of type ``t`` dies to ``E_KILL_HEADS`` heads, or to ``E_KILL_BODIES`` bodies when that is
    positive; body pairs never make heads.  The split is chosen optimally by tracking every
    reachable (heads left, bodies left) pair, so it stays optimal for any kill needs a
    designer writes in the data (body-first greed is not, in general).  The set of pairs is
    a 64-bit mask, so ``(h + 1) * (b + 1) <= 64`` (any roll of at most 14 dice; the ruleset
    caps the dice rule at 14).
    """
    if n == 0 or (h == 0 and b == 0):
        return 0
    w = b + 1
    one = np.uint64(1)
    reach = one << np.uint64(h * w + b)
    for i in range(n):
        t = line[i]
        kh = enemy_tab[t, E_KILL_HEADS]
        kb = enemy_tab[t, E_KILL_BODIES]
        nxt = np.uint64(0)
        for hh in range(h + 1):
            for bb in range(b + 1):
                if (reach >> np.uint64(hh * w + bb)) & one:
                    if hh >= kh:
                        nxt |= one << np.uint64((hh - kh) * w + bb)
                    if kb > 0 and bb >= kb:
                        nxt |= one << np.uint64(hh * w + bb - kb)
        if nxt == 0:
            return i
        reach = nxt
    return n


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def outcome_prob_nb(rs, d, h, b):
    """P(h heads and b bodies among d combat dice) (see ``outcome_table``)."""
    c = rs[P_DICE_CAP] + 1
    return rs[rs[K.RH_O_OUTCOMES] + (d * c + h) * c + b] * (1.0 / K.OUTCOME_SCALE)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def kill_thresholds_nb(line, n, enemy_tab, hmax, tab):
    """Fewest bodies that kill ``line[:n]``'s prefixes: ``tab[j * (hmax + 1) + hh]`` for the
    prefix ``line[:j + 1]`` with at most ``hh <= hmax`` heads (``NO_KILL``: none do).

    The same ordered assignment as ``kills_for_counts_nb``, as a 0/1 choice per enemy
    (heads or bodies) over the prefix: with ``T`` nondecreasing in ``j``,
    ``kills_for_counts_nb(line, n, enemy_tab, h, b)`` is the number of ``j`` with
    ``T[j, h] <= b`` (except ``h = b = 0``: 0).  One table of ``n * (hmax + 1)`` entries
    answers every (heads, bodies) of a roll of ``hmax`` dice, where the bit-set search
    costs ``n * (h + 1) * (b + 1)`` per count - the baseline weighs every outcome of every
    attack it considers (``policies_nb.kill_expectation_nb``)."""
    w = hmax + 1
    for j in range(n):
        t = line[j]
        kh = enemy_tab[t, E_KILL_HEADS]
        kb = enemy_tab[t, E_KILL_BODIES]
        o = j * w
        for hh in range(w):
            best = NO_KILL
            if hh >= kh:  # heads kill it: the prefix before with the heads left
                best = 0 if j == 0 else tab[o - w + hh - kh]
            if kb > 0:  # bodies kill it
                prev = 0 if j == 0 else tab[o - w + hh]
                if prev + kb < best:
                    best = prev + kb
            tab[o + hh] = best
    return w


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def max_attack_dice_nb(st, rs, seat, w):
    """Dice of the strongest attack with ``w`` from what is held (ammo, not cards), capped."""
    cap = rs[P_DICE_CAP]
    d = free_dice_nb(st, rs, seat, w)
    if card_get(rs, w, C_MELEE) == 0:
        d += useful_ammo_nb(st, rs, seat, w) * card_get(rs, card_get(rs, w, C_AMMO), C_DICE)
    return max(0, min(cap, d))


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def free_dice_nb(st, rs, seat, w):
    """Dice of weapon ``w`` before ammo and cards: melee dice or distance bonus, plus the
    character's modifier for that class of weapon."""
    if card_get(rs, w, C_MELEE) != 0:
        return card_get(rs, w, C_DICE) + char_mod_nb(st, rs, seat, MOD_MELEE_DICE)
    return card_get(rs, w, C_WEAPON_BONUS) + char_mod_nb(st, rs, seat, MOD_DISTANCE_DICE)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def useful_ammo_nb(st, rs, seat, w):
    """Most ammo cards worth spending with distance weapon ``w``: those that reach the cap."""
    cap = rs[P_DICE_CAP]
    a = card_get(rs, w, C_AMMO)
    per = card_get(rs, a, C_DICE)
    held = inv_get(st, seat, a)
    d = free_dice_nb(st, rs, seat, w)
    n = 0
    while n < held and d < cap:
        n += 1
        d += per
    return n


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def target_line_nb(area_row, n, enemy_tab, survivors_block, line_buf):
    """Copy the targets of ``area_row[:n]`` (in order) to ``line_buf``; return how many."""
    m = 0
    for i in range(n):
        t = area_row[i]
        if is_target_nb(enemy_tab, t, survivors_block):
            line_buf[m] = t
            m += 1
    return m


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def is_target_nb(enemy_tab, t, survivors_block):
    """Whether a card of type ``t`` is a target of player attacks (survivors only in the variant)."""
    return survivors_block != 0 or enemy_tab[t, E_KIND] != ENEMY_SURVIVOR


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
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


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
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


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def weapon_usable_nb(st, rs, seat, w):
    """Whether ``seat`` may attack with card type ``w`` (held, a weapon, not refused)."""
    if inv_get(st, seat, w) <= 0 or card_get(rs, w, C_KIND) != CK_WEAPON:
        return False
    if card_get(rs, w, C_FIREARM) != 0 and char_mod_nb(st, rs, seat, MOD_NO_FIREARMS) != 0:
        return False
    if card_get(rs, w, C_MELEE) == 0 and inv_get(st, seat, card_get(rs, w, C_AMMO)) <= 0:
        return False
    return True


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
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


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
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


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def distilled_gap_nb(s, s0):
    """``F_GAP`` of a candidate of baseline score ``s`` when the best scores ``s0``."""
    return max(-5.0, min(0.0, (s - s0) / 100.0))


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
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


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
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


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
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


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def rekey_now_nb(st):
    """Replace the game's random streams by the continuation key's; canonical unseen decks."""
    init_streams_nb(rng_of(st), np.uint64(st[G_REKEY_KEY]))
    tmp = buf_of(st)[4]  # the policies' scratch row: free between decisions
    canonical_deck_nb(hdeck_of(st), st[G_HDECK_N], tmp[:st[G_N_ENEMIES]])
    canonical_deck_nb(rdeck_of(st), st[G_RDECK_N], tmp[:st[G_N_CARDS]])
    st[G_REKEY_AT] = -1


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def canonical_deck_nb(deck, n, counts):
    """Rewrite ``deck[:n]`` in card-type order (``counts``: scratch, one per type): what a
    continuation draws then depends on which cards are unseen, not on their order."""
    for t in range(counts.shape[0]):
        counts[t] = 0
    for j in range(n):
        counts[deck[j]] += 1
    j = 0
    for t in range(counts.shape[0]):
        for _ in range(counts[t]):
            deck[j] = t
            j += 1


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def discard_choice_nb(st, rs, pid, pp, seat):
    """The seat discards one card of its choice (policy); nothing if it holds none."""
    inv = inv_of(st)
    cands = cands_of(st)
    m = 0
    for c in range(inv.shape[1]):
        if inv[seat, c] > 0:
            cands[m, 0] = A_DISCARD
            cands[m, 1] = c
            m += 1
    if m == 0:
        return
    i = decide_nb(st, rs, pid, pp, D_DISCARD, seat, m)
    discard_card_nb(st, rs, seat, cands[i, 1])


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def discard_card_nb(st, rs, seat, c):
    spend_card_nb(st, seat, c)
    emit_nb(st, EV_DISCARD, seat, c, 0, 0, 0, 0)
    if card_tab_of(rs)[c, C_KIND] == CK_SYMBOL:
        update_leader_nb(st, rs)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def spend_card_nb(st, seat, c):
    """One card of type ``c`` leaves ``seat``'s inventory for the rubble discard pile."""
    inv_of(st)[seat, c] -= 1
    rdisc_of(st)[c] += 1


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def update_leader_nb(st, rs):
    """The leader changes only to a seat with strictly more XP than the current leader."""
    g = st
    n = g[G_N_PLAYERS]
    cur = g[G_LEADER]
    best = 0
    if cur >= 0:
        best = xp_nb(st, rs, cur)
    new = -1
    for s in range(n):
        x = xp_nb(st, rs, s)
        if x > pl_get(st, s, PL_MAX_XP):
            st[st[K.G_O_PL] + s * K.N_PL + PL_MAX_XP] = x
        if x > best:
            best = x
            new = s
    if new >= 0 and new != cur:
        g[G_LEADER] = new
        emit_nb(st, EV_LEADER, new, new, best, 0, 0, 0)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def xp_nb(st, rs, seat):
    """XP of a seat: symbols held, kept horde cards (Monsters, survivors), permanent bonus."""
    x = pl_get(st, seat, PL_XP_BONUS)
    for c in range(st[K.G_N_CARDS]):
        if card_get(rs, c, C_KIND) == CK_SYMBOL:
            x += inv_get(st, seat, c) * card_get(rs, c, C_AMOUNT)
    ok = st[K.G_O_KEPT] + seat * st[K.G_N_ENEMIES]
    for t in range(st[K.G_N_ENEMIES]):
        k = st[ok + t]
        if k != 0:
            if enemy_get(rs, t, E_KIND) == ENEMY_SURVIVOR:
                x += k * rs[P_SURVIVOR_XP]
            else:
                x += k * enemy_get(rs, t, E_REWARD_XP)
    return x


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def lose_health_nb(st, seat, from_raider):
    """One damage unit reaches ``seat``'s health; True when the character dies of it (the
    game is then lost)."""
    pl = pl_of(st)
    pl[seat, PL_HEALTH] -= 1
    pl[seat, PL_DAMAGE_TAKEN] += 1
    emit_nb(st, EV_DAMAGE, seat, 1, pl[seat, PL_HEALTH], from_raider, 0, 0)
    if pl[seat, PL_HEALTH] <= 0:
        end_game_nb(st, OUT_LOSS, CAUSE_CHARACTER_DIED, seat)
        return True
    return False


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def end_game_nb(st, outcome, cause, seat):
    g = st
    if g[G_OVER] != 0:
        return
    g[G_OVER] = 1
    g[G_OUTCOME] = outcome
    g[G_CAUSE] = cause
    if cause == CAUSE_CHARACTER_DIED:
        g[G_DEAD_SEAT] = seat
        g[G_DEAD_ROUND] = g[G_ROUND]
        emit_nb(st, EV_DEATH, seat, 0, 0, 0, 0, 0)
    emit_nb(st, EV_END, -1, outcome, cause, 0, 0, 0)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def survivor_type_kept_nb(st, rs, seat):
    """A survivor type the seat keeps (-1 if none)."""
    kept = kept_of(st)
    enemy_tab = enemy_tab_of(rs)
    for t in range(kept.shape[1]):
        if kept[seat, t] > 0 and enemy_tab[t, E_KIND] == ENEMY_SURVIVOR:
            return t
    return -1


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def remove_survivors_nb(st, rs, seat, count):
    """The first ``count`` survivors of an area die (to the horde discard pile)."""
    area = area_of(st)
    pl = pl_of(st)
    enemy_tab = enemy_tab_of(rs)
    w = 0
    done = 0
    for i in range(pl[seat, PL_AREA_N]):
        t = area[seat, i]
        if done < count and enemy_tab[t, E_KIND] == ENEMY_SURVIVOR:
            hdisc_of(st)[t] += 1
            done += 1
            emit_nb(st, EV_SURVIVOR_KILLED, seat, seat, 0, 0, 0, 0)
        else:
            area[seat, w] = t
            w += 1
    pl[seat, PL_AREA_N] = w


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def roll_faces_nb(rng, stream, k, die_faces, faces_out):
    """Roll ``k`` combat dice into ``faces_out[:k]``; return ``(heads, bodies, misses)``."""
    h = 0
    b = 0
    size = die_faces.shape[0]
    for i in range(k):
        f = die_faces[randint_nb(rng, stream, size)]
        faces_out[i] = f
        if f == FACE_H:
            h += 1
        elif f == FACE_B:
            b += 1
    return h, b, k - h - b


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def survivors_in_area_nb(st, rs, seat):
    n = 0
    for i in range(pl_get(st, seat, PL_AREA_N)):
        if enemy_get(rs, area_get(st, seat, i), E_KIND) == ENEMY_SURVIVOR:
            n += 1
    return n


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def area_attack_order_nb(st, rs, j):
    """Seat and enemy kind of the ``j``-th of the ``2n`` area attacks of an exchange."""
    n = st[G_N_PLAYERS]
    if rs[P_V_ALL_RAIDERS_FIRST] != 0:
        return (st[G_CAUGHT] + j % n) % n, ENEMY_RAIDER if j < n else ENEMY_INFECTED
    return (st[G_CAUGHT] + j // 2) % n, ENEMY_RAIDER if j % 2 == 0 else ENEMY_INFECTED


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def enemies_on_table_nb(st, rs):
    n = 0
    for s in range(st[G_N_PLAYERS]):
        n += enemies_in_area_nb(st, rs, s)
    return n


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def enemies_in_area_nb(st, rs, seat):
    """Horde cards in the area that are enemies (not survivors)."""
    return pl_get(st, seat, PL_AREA_N) - survivors_in_area_nb(st, rs, seat)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def horde_release_nb(st, rs, pid, pp):
    g = st
    params = rs
    seat = g[G_CAUGHT]
    wave = params[P_WAVE_PER_PLAYER] * g[G_N_PLAYERS] + g[G_ROUND]
    fate = fate_of(rs)[randint_nb(rng_of(st), STREAM_DICE, fate_of(rs).shape[0])]
    if fate == FATE_REMOVE_ENEMY:
        wave = max(0, wave - 1)
    elif fate == FATE_ADD_ENEMY:
        wave += 1
    emit_nb(st, EV_FATE, seat, fate, wave, 0, 0, 0)
    if fate == FATE_DISCARD:
        discard_choice_nb(st, rs, pid, pp, seat)
    elif fate == FATE_DRAW:
        c = draw_rubble_nb(st, rs)
        if c >= 0:
            emit_nb(st, EV_DRAW, seat, c, 2, 0, 0, 0)
        gain_card_nb(st, rs, pid, pp, seat, c)
    elif fate == FATE_HEAL:
        heal_nb(st, seat, 1)
    elif fate == FATE_DAMAGE:
        hurt_nb(st, rs, pid, pp, seat, 1, False, False)
    if g[G_OVER] != 0:
        return
    for _ in range(wave):
        t = draw_horde_nb(st, rs)
        if t < 0:
            break
        add_to_area_nb(st, seat, t)
        emit_nb(st, EV_HORDE, seat, t, seat, 0, 0, 0)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def add_to_area_nb(st, seat, t):
    pl = pl_of(st)
    area_of(st)[seat, pl[seat, PL_AREA_N]] = t
    pl[seat, PL_AREA_N] += 1


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def draw_horde_nb(st, rs):
    """Draw one horde card; -1 when deck and discard are empty (or reshuffling is off)."""
    if st[G_HDECK_N] == 0:
        if rs[P_V_HORDE_RESHUFFLE] == 0:
            return -1
        m = refill_deck_nb(hdeck_of(st), hdisc_of(st))
        st[G_HDECK_N] = m
        if m == 0:
            return -1
        st[G_HORDE_RESHUFFLES] += 1
        emit_nb(st, EV_RESHUFFLE, -1, 0, m, 0, 0, 0)
    card = deck_draw_nb(st, hdeck_of(st), st[G_HDECK_N])
    st[G_HDECK_N] -= 1
    st[G_HORDE_DRAWN] += 1
    return card


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def deck_draw_nb(st, deck, n):
    """One lazy Fisher-Yates step: a uniform card of ``deck[:n]``, moved to ``deck[n-1]``."""
    j = randint_nb(rng_of(st), STREAM_CARDS, n)
    card = deck[j]
    deck[j] = deck[n - 1]
    deck[n - 1] = card
    return card


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def refill_deck_nb(deck, disc):
    """Shuffle a discard pile (counts per type) back into an empty deck; return its size.

    The deck array is filled in type order: draws pick uniformly from it, so this is a
    shuffle."""
    m = 0
    for t in range(disc.shape[0]):
        for _ in range(disc[t]):
            deck[m] = t
            m += 1
        disc[t] = 0
    return m


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def draw_rubble_nb(st, rs):
    """Draw one rubble card; reshuffles the discard pile when the deck is empty; -1 if none."""
    if st[G_RDECK_N] == 0:
        m = refill_deck_nb(rdeck_of(st), rdisc_of(st))
        st[G_RDECK_N] = m
        if m == 0:
            emit_nb(st, EV_NO_CARD, -1, 0, 0, 0, 0, 0)
            return -1
        st[G_RUBBLE_RESHUFFLES] += 1
        emit_nb(st, EV_RESHUFFLE, -1, 1, m, 0, 0, 0)
    card = deck_draw_nb(st, rdeck_of(st), st[G_RDECK_N])
    st[G_RDECK_N] -= 1
    st[G_RUBBLE_DRAWN] += 1
    return card


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def gain_card_nb(st, rs, pid, pp, seat, c):
    """A card arrives in ``seat``'s hands: events resolve, others join the inventory."""
    if c < 0:
        return
    if is_event_nb(rs, c):
        resolve_event_nb(st, rs, pid, pp, seat, c)
        return
    inv_of(st)[seat, c] += 1
    if card_tab_of(rs)[c, C_KIND] == CK_SYMBOL:
        update_leader_nb(st, rs)
    enforce_limit_nb(st, rs, pid, pp, seat)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def enforce_limit_nb(st, rs, pid, pp, seat):
    """Over the inventory limit, discard at once (not an action) until within it."""
    while slots_used_nb(st, rs, seat) > slots_nb(st, rs, seat):
        discard_choice_nb(st, rs, pid, pp, seat)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def is_event_nb(rs, c):
    k = card_tab_of(rs)[c, C_KIND]
    return k == CK_EVENT_NOISE or k == CK_EVENT_INJURY or k == CK_EVENT_LOST_ITEM


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def resolve_event_nb(st, rs, pid, pp, seat, c):
    """A red card resolves at once, then goes to the discard pile."""
    card_tab = card_tab_of(rs)
    k = card_tab[c, C_KIND]
    amt = card_tab[c, C_AMOUNT]
    emit_nb(st, EV_EVENT, seat, c, amt, 0, 0, 0)
    rdisc_of(st)[c] += 1
    if k == CK_EVENT_NOISE:
        for _ in range(amt):
            t = draw_horde_nb(st, rs)
            if t >= 0:
                add_to_area_nb(st, seat, t)
                emit_nb(st, EV_HORDE, seat, t, seat, 0, 0, 0)
    elif k == CK_EVENT_INJURY:
        hurt_nb(st, rs, pid, pp, seat, amt, False, False)
    elif k == CK_EVENT_LOST_ITEM:
        for _ in range(amt):
            discard_choice_nb(st, rs, pid, pp, seat)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def heal_nb(st, seat, amount):
    pl = pl_of(st)
    pl[seat, PL_HEALTH] = min(pl[seat, PL_MAX_HEALTH], pl[seat, PL_HEALTH] + amount)
    emit_nb(st, EV_HEAL, seat, amount, pl[seat, PL_HEALTH], 0, 0, 0)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def kept_survivors_nb(st, rs):
    kept = kept_of(st)
    n = 0
    for s in range(st[G_N_PLAYERS]):
        for t in range(kept.shape[1]):
            if enemy_tab_of(rs)[t, E_KIND] == ENEMY_SURVIVOR:
                n += kept[s, t]
    return n


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def reset_round_abilities_nb(st):
    """Per-round abilities (ignore the first damage, absorb for a neighbour) are fresh."""
    pl = pl_of(st)
    for s in range(st[G_N_PLAYERS]):
        pl[s, PL_IGNORED] = 0
        pl[s, PL_ABSORBED] = 0


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def save_survivors_nb(st, rs):
    """End of round: survivors alone in an area with no enemy are saved by its player."""
    g = st
    pl = pl_of(st)
    area = area_of(st)
    changed = False
    for s in range(g[G_N_PLAYERS]):
        n = pl[s, PL_AREA_N]
        if n == 0 or enemies_in_area_nb(st, rs, s) > 0:
            continue
        for i in range(n):
            kept_of(st)[s, area[s, i]] += 1
        pl[s, PL_SAVED_TOTAL] += n
        pl[s, PL_AREA_N] = 0
        emit_nb(st, EV_SAVED, s, n, 0, 0, 0, 0)
        changed = True
    if changed:
        update_leader_nb(st, rs)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def take_turn_nb(st, rs, pid, pp, seat, combat):
    """One player's turn: free plays (no-action cards, free trades), then one action."""
    g = st
    pl = pl_of(st)
    g[G_TURN_SEAT] = seat
    pl[seat, PL_FREE_TRADES] = 0
    decision = D_COMBAT_ACTION if combat else D_SEARCH_ACTION
    for _ in range(MAX_FREE_ACTIONS + 1):
        if g[G_OVER] != 0:
            return
        # the policy chooses here (no replayed script, no stop for a step): it need not
        # score the trades it never wants
        prune = st[G_MODE] == MODE_INLINE and st[G_SCRIPT_POS] >= st[G_SCRIPT_N]
        m, skipped = turn_candidates_nb(st, rs, seat, combat, False, pid if prune else -1)
        i = decide_of_nb(st, rs, pid, pp, decision, seat, m, m + skipped)
        cands = cands_of(st)
        act = cands[i, 0]
        a = cands[i, 1]
        b = cands[i, 2]
        free = is_free_nb(st, rs, seat, act, a)
        if free and (act == A_GIVE or act == A_TAKE):
            pl[seat, PL_FREE_TRADES] += 1
        do_action_nb(st, rs, pid, pp, seat, act, a, b)
        checkpoint_nb(st, rs)
        if not free:
            return
    # bound reached: the turn's action is spent doing nothing


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def do_action_nb(st, rs, pid, pp, seat, act, a, b):
    """Carry out one chosen turn action."""
    if act == A_DRAW:
        draw_action_nb(st, rs, pid, pp, seat)
    elif act == A_CRAFT:
        craft_nb(st, rs, seat, a)
    elif act == A_GIVE:
        k = transfer_nb(st, rs, pid, pp, seat, b, a, seat)
        emit_nb(st, EV_GIVE, seat, a, b, k, 0, 0)
    elif act == A_TAKE:
        k = transfer_nb(st, rs, pid, pp, b, seat, a, seat)
        emit_nb(st, EV_TAKE, seat, a, b, k, 0, 0)
    elif act == A_USE:
        use_card_nb(st, rs, pid, pp, seat, a)
    elif act == A_ATTACK:
        attack_nb(st, rs, pid, pp, seat, a, b)
    else:
        emit_nb(st, EV_NOTHING, seat, 0, 0, 0, 0, 0)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def attack_nb(st, rs, pid, pp, seat, area_seat, w):
    """One attack of ``seat`` on ``area_seat``'s area with weapon ``w``, then adrenaline."""
    g = st
    pl = pl_of(st)
    inv = inv_of(st)
    params = rs
    card_tab = card_tab_of(rs)
    enemy_tab = enemy_tab_of(rs)
    cands = cands_of(st)
    cap = params[P_DICE_CAP]
    while True:
        melee = card_tab[w, C_MELEE] != 0
        dice = free_dice_nb(st, rs, seat, w)
        spent = 0
        if not melee:
            a = card_tab[w, C_AMMO]
            most = useful_ammo_nb(st, rs, seat, w)
            for i in range(most):
                cands[i, 0] = A_AMMO
                cands[i, 1] = i + 1
            # no useful ammo (none held, or the weapon's own dice reach the cap): nothing
            # to spend and no decision (cands[0] would be a stale row)
            spent = 0 if most == 0 else cands[decide_nb(st, rs, pid, pp, D_AMMO, seat, most), 1]
            inv[seat, a] -= spent
            rdisc_of(st)[a] += spent
            dice += spent * card_tab[a, C_DICE]
        # cards before the roll, while they add dice under the cap
        while dice < cap:
            cands[0, 0] = A_NOTHING
            m = 1
            for c in range(inv.shape[1]):
                if inv[seat, c] > 0 and card_tab[c, C_KIND] == CK_DICE_BONUS \
                        and (card_tab[c, C_MELEE] == 0 or melee):
                    cands[m, 0] = A_PLAY
                    cands[m, 1] = c
                    m += 1
            if m == 1:
                break
            i = decide_nb(st, rs, pid, pp, D_PRE_ROLL, seat, m)
            if cands[i, 0] != A_PLAY:
                break
            c = cands[i, 1]
            spend_card_nb(st, seat, c)
            dice += card_tab[c, C_DICE]
            emit_nb(st, EV_CARD_PLAYED, seat, c, 0, 0, 0, 0)
        dice = max(0, min(cap, dice))
        faces = buf_of(st)[2]
        h, b, x = roll_faces_nb(rng_of(st), STREAM_DICE, dice, die_of(rs), faces)
        g[G_ATTACKS] += 1
        emit_nb(st, EV_ATTACK, seat, area_seat, w, dice, spent, 0)
        emit_nb(st, EV_ROLL, seat, h, b, x, _faces_code_nb(faces, dice), 0)
        # cards after the roll
        g[G_LUCKY_USED] = 0
        while True:
            g[G_CUR_AREA] = area_seat
            g[G_CUR_WEAPON] = w
            g[G_CUR_H] = h
            g[G_CUR_B] = b
            g[G_CUR_X] = x
            g[G_CUR_DICE] = dice
            cands[0, 0] = A_NOTHING
            m = 1
            for c in range(inv.shape[1]):
                if inv[seat, c] <= 0:
                    continue
                k = card_tab[c, C_KIND]
                if (k == CK_FOCUS and b > 0) or (k == CK_ENERGY_SHOT and x > 0) \
                        or (k == CK_LUCKY and x > 0 and g[G_LUCKY_USED] == 0):
                    cands[m, 0] = A_PLAY
                    cands[m, 1] = c
                    m += 1
            if m == 1:
                break
            i = decide_nb(st, rs, pid, pp, D_POST_ROLL, seat, m)
            if cands[i, 0] != A_PLAY:
                break
            c = cands[i, 1]
            spend_card_nb(st, seat, c)
            k = card_tab[c, C_KIND]
            if k == CK_FOCUS:
                b -= 1
                h += 1
            elif k == CK_ENERGY_SHOT:
                x -= 1
                b += 1
            else:
                g[G_LUCKY_USED] = 1
                h2, b2, x2 = roll_faces_nb(rng_of(st), STREAM_DICE, x, die_of(rs), faces)
                h += h2
                b += b2
                x = x2
            emit_nb(st, EV_CARD_PLAYED, seat, c, h, b, x, 0)
        # damage
        killed = buf_of(st)[1]
        k, new_n = player_attack_area_nb(area_of(st)[area_seat], pl[area_seat, PL_AREA_N], enemy_tab,
                                         h, b, params[P_V_SURVIVORS_BLOCK], buf_of(st)[0], killed)
        pl[area_seat, PL_AREA_N] = new_n
        infected = 0
        for i in range(k):
            if enemy_tab[killed[i], E_KIND] == ENEMY_INFECTED:
                infected += 1
        # collateral before rewards: the rewards' draws reuse the scratch rows
        if not melee and area_seat != seat and x > 0:
            dmg = x * (params[P_COLLATERAL_PER_X] + char_mod_nb(st, rs, seat, MOD_EXTRA_COLLATERAL))
            pl[seat, PL_COLLATERAL] += dmg
            emit_nb(st, EV_COLLATERAL, seat, area_seat, dmg, 0, 0, 0)
        kbuf = buf_of(st)[3]
        for i in range(k):
            kbuf[i] = killed[i]
        kill_rewards_nb(st, rs, pid, pp, seat, area_seat, kbuf, k, 0)
        if g[G_OVER] != 0:
            return
        if not melee and area_seat != seat and x > 0:
            dmg = x * (params[P_COLLATERAL_PER_X] + char_mod_nb(st, rs, seat, MOD_EXTRA_COLLATERAL))
            # spec 3, default: collateral goes straight to health (no ability, protection
            # card or saved survivor stands in the way)
            for _ in range(dmg):
                if lose_health_nb(st, area_seat, False):
                    break
            if g[G_OVER] != 0:
                return
        if area_seat != seat and infected > 0 and (melee or card_tab[w, C_FIREARM] != 0) \
                and card_tab[w, C_SILENT] == 0:
            tame_nb(st, rs, seat, area_seat, infected)
        # adrenaline: one more attack with new cards
        adr = -1
        for c in range(inv.shape[1]):
            if inv[seat, c] > 0 and card_tab[c, C_KIND] == CK_ADRENALINE:
                adr = c
                break
        if adr < 0:
            return
        cands[0, 0] = A_NOTHING
        m = attack_candidates_nb(st, rs, seat, 1)
        if m == 1:
            return
        i = decide_nb(st, rs, pid, pp, D_EXTRA_ATTACK, seat, m)
        if cands[i, 0] != A_ATTACK:
            return
        area_seat = cands[i, 1]
        w = cands[i, 2]
        spend_card_nb(st, seat, adr)
        emit_nb(st, EV_CARD_PLAYED, seat, adr, 0, 0, 0, 0)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def _faces_code_nb(faces, k):
    code = 0
    mult = 1
    for i in range(k):
        code += faces[i] * mult
        mult *= 3
    return code


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def attack_candidates_nb(st, rs, seat, m):
    """Append every legal attack (target area, weapon) of ``seat`` to the candidates."""
    g = st
    inv = inv_of(st)
    card_tab = card_tab_of(rs)
    cands = cands_of(st)
    n = g[G_N_PLAYERS]
    own_busy = enemies_in_area_nb(st, rs, seat) > 0
    for w in range(inv.shape[1]):
        if not weapon_usable_nb(st, rs, seat, w):
            continue
        melee = card_tab[w, C_MELEE] != 0
        if melee and free_dice_nb(st, rs, seat, w) <= 0:
            continue
        for a in range(n):
            if targets_in_area_nb(st, rs, a) == 0:
                continue
            if melee and a != seat and own_busy:
                continue
            cands[m, 0] = A_ATTACK
            cands[m, 1] = a
            cands[m, 2] = w
            m += 1
    return m


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def targets_in_area_nb(st, rs, seat):
    """Cards a player attack can hit: enemies, plus survivors in the blocking variant."""
    if rs[P_V_SURVIVORS_BLOCK] != 0:
        return pl_get(st, seat, PL_AREA_N)
    return enemies_in_area_nb(st, rs, seat)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def kill_rewards_nb(st, rs, pid, pp, seat, area_seat, killed, k, by_trap):
    """Kills' consequences: kept cards or discard, XP, rubble draws, counts, trace."""
    enemy_tab = enemy_tab_of(rs)
    pl = pl_of(st)
    for i in range(k):
        t = killed[i]
        killed_of(st)[t] += 1
        pl[seat, PL_KILLS] += 1
        emit_nb(st, EV_KILL, seat, t, area_seat, by_trap, 0, 0)
        if enemy_tab[t, E_KIND] == ENEMY_SURVIVOR:
            hdisc_of(st)[t] += 1
            continue
        if enemy_tab[t, E_KEPT] != 0:
            kept_of(st)[seat, t] += 1
        else:
            hdisc_of(st)[t] += 1
            pl[seat, PL_XP_BONUS] += enemy_tab[t, E_REWARD_XP]
    update_leader_nb(st, rs)
    for i in range(k):
        t = killed[i]
        if enemy_tab[t, E_KIND] == ENEMY_SURVIVOR:
            continue
        for _ in range(enemy_tab[t, E_REWARD_CARDS]):
            if st[G_OVER] != 0:
                return
            c = draw_rubble_nb(st, rs)
            if c >= 0:
                emit_nb(st, EV_DRAW, seat, c, 1, 0, 0, 0)
            gain_card_nb(st, rs, pid, pp, seat, c)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def player_attack_area_nb(area_row, n, enemy_tab, h, b, survivors_block, line_buf, killed_out):
    """Resolve one player attack of ``h`` heads and ``b`` bodies on an area.

    Survivors are skipped unless ``survivors_block`` (then they are targets that die to any
    damage, as their kill needs in the data say).  Returns ``(kills, new_n)``; the killed
    cards' types are in ``killed_out[:kills]``, in line order.
    """
    m = target_line_nb(area_row, n, enemy_tab, survivors_block, line_buf)
    kills = kills_for_counts_nb(line_buf, m, enemy_tab, h, b)
    new_n = remove_first_targets_nb(area_row, n, enemy_tab, kills, survivors_block, killed_out)
    return kills, new_n


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def remove_first_targets_nb(area_row, n, enemy_tab, count, survivors_block, killed_out):
    """Remove the first ``count`` targets of ``area_row[:n]`` keeping the order of the rest.

    Writes their types to ``killed_out[:count]``; returns the new length.
    """
    w = 0
    removed = 0
    for i in range(n):
        t = area_row[i]
        if removed < count and is_target_nb(enemy_tab, t, survivors_block):
            killed_out[removed] = t
            removed += 1
        else:
            area_row[w] = t
            w += 1
    return w


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def tame_nb(st, rs, seat, area_seat, moved):
    """Move ``moved`` infected from the front of ``area_seat``'s area to the end of ``seat``'s."""
    area = area_of(st)
    pl = pl_of(st)
    enemy_tab = enemy_tab_of(rs)
    n = pl[area_seat, PL_AREA_N]
    w = 0
    done = 0
    for i in range(n):
        t = area[area_seat, i]
        if done < moved and enemy_tab[t, E_KIND] == ENEMY_INFECTED:
            add_to_area_nb(st, seat, t)
            done += 1
        else:
            area[area_seat, w] = t
            w += 1
    pl[area_seat, PL_AREA_N] = w
    if done > 0:
        emit_nb(st, EV_TAME, seat, area_seat, done, 0, 0, 0)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def craft_nb(st, rs, seat, r):
    recipes = recipes_of(rs)
    g = st
    pl = pl_of(st)
    for j in range(recipes[r, R_N]):
        c = recipes[r, R_ING0 + j]
        inv_of(st)[seat, c] -= 1
        rdisc_of(st)[c] += 1
    if recipes[r, R_PRODUCT] == TOKEN_TRAP:
        g[G_TRAP_SUPPLY] -= 1
        pl[seat, PL_TRAPS] += 1
    else:
        g[G_BARR_SUPPLY] -= 1
        pl[seat, PL_BARRICADES] += 1
    emit_nb(st, EV_CRAFT, seat, recipes[r, R_PRODUCT], 0, 0, 0, 0)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def draw_action_nb(st, rs, pid, pp, seat):
    """A draw action: look at 1 + draw_extra cards (events resolve), keep one."""
    extra = char_mod_nb(st, rs, seat, MOD_DRAW_EXTRA)
    g = st
    keep_buf = buf_of(st)[3]
    m = 0
    for _ in range(1 + max(0, extra)):
        c = draw_rubble_nb(st, rs)
        if c < 0:
            break
        emit_nb(st, EV_DRAW, seat, c, 0, 0, 0, 0)
        if is_event_nb(rs, c):
            resolve_event_nb(st, rs, pid, pp, seat, c)
            if g[G_OVER] != 0:
                for i in range(m):  # the game ended while holding looked-at cards
                    rdisc_of(st)[keep_buf[i]] += 1
                return
        else:
            keep_buf[m] = c
            m += 1
    if m == 0:
        return
    keep = 0
    if m > 1:
        cands = cands_of(st)
        for i in range(m):
            cands[i, 0] = A_KEEP
            cands[i, 1] = keep_buf[i]
        keep = decide_nb(st, rs, pid, pp, D_KEEP, seat, m)
        # the candidates' copy survives the choice; discard the others
        for i in range(m):
            if i != keep:
                rdisc_of(st)[cands[i, 1]] += 1
                emit_nb(st, EV_DISCARD, seat, cands[i, 1], 1, 0, 0, 0)
        gain_card_nb(st, rs, pid, pp, seat, cands[keep, 1])
        return
    gain_card_nb(st, rs, pid, pp, seat, keep_buf[0])


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def transfer_nb(st, rs, pid, pp, src, dst, c, actor):
    """Move one card from ``src`` to ``dst``; of a stack (ammo), ``actor`` chooses how many
    cards (rulebook: 'he may give the amount of ammunition cards he wishes, as long as they
    are of the same nature and in the same slot'); ``actor`` -1: the whole stack."""
    inv = inv_of(st)
    k = 1
    if card_tab_of(rs)[c, C_STACKS] != 0:
        k = inv[src, c]
        if actor >= 0 and k > 1:
            cands = cands_of(st)
            m = 0
            for j in range(1, k + 1):
                if m < MAX_CANDS - 1 or j == k:  # a huge stack: 1 .. MAX_CANDS-1, and all
                    cands[m, 0] = A_COUNT
                    cands[m, 1] = j
                    m += 1
            k = cands[decide_nb(st, rs, pid, pp, D_AMOUNT, actor, m), 1]
    inv[src, c] -= k
    inv[dst, c] += k
    if card_tab_of(rs)[c, C_KIND] == CK_SYMBOL:
        update_leader_nb(st, rs)
    enforce_limit_nb(st, rs, pid, pp, dst)
    return k


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def use_card_nb(st, rs, pid, pp, seat, c):
    card_tab = card_tab_of(rs)
    inv = inv_of(st)
    pl = pl_of(st)
    k = card_tab[c, C_KIND]
    spend_card_nb(st, seat, c)
    if k == CK_HEAL:
        emit_nb(st, EV_USE, seat, c, card_tab[c, C_AMOUNT], 0, 0, 0)
        heal_nb(st, seat, card_tab[c, C_AMOUNT])
    elif k == CK_PICKPOCKET:
        cands = cands_of(st)
        m = 0
        for q in range(st[G_N_PLAYERS]):
            if q != seat:
                for c2 in range(inv.shape[1]):
                    if inv[q, c2] > 0:
                        cands[m, 0] = A_TAKE
                        cands[m, 1] = c2
                        cands[m, 2] = q
                        m += 1
        emit_nb(st, EV_USE, seat, c, card_tab[c, C_AMOUNT], 0, 0, 0)
        pl[seat, PL_XP_BONUS] += card_tab[c, C_AMOUNT]
        if m > 0:
            i = decide_nb(st, rs, pid, pp, D_PICKPOCKET, seat, m)
            c2 = cands[i, 1]
            q = cands[i, 2]
            k2 = transfer_nb(st, rs, pid, pp, q, seat, c2, -1)  # a pickpocket takes the whole stack
            emit_nb(st, EV_TAKE, seat, c2, q, k2, 1, 0)
        update_leader_nb(st, rs)


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def is_free_nb(st, rs, seat, act, a):
    """Whether an action uses no action: a no-action card, or a free trade (Haggler)."""
    if act == A_USE:
        return card_tab_of(rs)[a, C_NEEDS_ACTION] == 0
    if act == A_GIVE or act == A_TAKE:
        return pl_of(st)[seat, PL_FREE_TRADES] < char_mod_nb(st, rs, seat, MOD_FREE_TRADES)
    return False


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def turn_candidates_nb(st, rs, seat, combat, free_only, prune_pid):
    """Legal actions of ``seat``'s turn; ``free_only`` keeps those that use no action.

    Returns ``(m, skipped)``: ``m`` candidates written; with ``prune_pid >= 0``, the
    ``skipped`` trades that policy never chooses (``policies_nb.ignores_trade_nb``) are
    counted but not written, so the policy scores fewer candidates and chooses the same
    action (``m + skipped`` is the decision's true size)."""
    g = st
    pl = pl_of(st)
    inv = inv_of(st)
    card_tab = card_tab_of(rs)
    cands = cands_of(st)
    n = g[G_N_PLAYERS]
    nc = inv.shape[1]
    free_trade = pl[seat, PL_FREE_TRADES] < char_mod_nb(st, rs, seat, MOD_FREE_TRADES)
    cands[0, 0] = A_NOTHING
    m = 1
    if not free_only:
        if combat:
            m = attack_candidates_nb(st, rs, seat, m)
        elif g[G_RDECK_N] > 0 or _rubble_left_nb(st):
            cands[m, 0] = A_DRAW
            m += 1
        for r in range(recipes_of(rs).shape[0]):
            if can_craft_nb(st, rs, seat, r):
                cands[m, 0] = A_CRAFT
                cands[m, 1] = r
                m += 1
    for c in range(nc):
        if inv[seat, c] <= 0:
            continue
        k = card_tab[c, C_KIND]
        needs = card_tab[c, C_NEEDS_ACTION] != 0
        if free_only and needs:
            continue
        if k == CK_HEAL and pl[seat, PL_HEALTH] < pl[seat, PL_MAX_HEALTH]:
            cands[m, 0] = A_USE
            cands[m, 1] = c
            m += 1
        elif k == CK_PICKPOCKET and _others_hold_cards_nb(st, seat):
            cands[m, 0] = A_USE
            cands[m, 1] = c
            m += 1
    skipped = 0
    if (not free_only) or free_trade:
        can_give = char_mod_nb(st, rs, seat, MOD_NO_GIVE) == 0
        for q in range(n):
            if q == seat:
                continue
            for c in range(nc):
                if can_give and inv[seat, c] > 0:
                    if prune_pid >= 0 and ignores_trade_nb(rs, prune_pid, A_GIVE, c):
                        skipped += 1
                    else:
                        cands[m, 0] = A_GIVE
                        cands[m, 1] = c
                        cands[m, 2] = q
                        m += 1
                if inv[q, c] > 0:
                    if prune_pid >= 0 and ignores_trade_nb(rs, prune_pid, A_TAKE, c):
                        skipped += 1
                    else:
                        cands[m, 0] = A_TAKE
                        cands[m, 1] = c
                        cands[m, 2] = q
                        m += 1
    return m, skipped


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def _others_hold_cards_nb(st, seat):
    inv = inv_of(st)
    for q in range(st[G_N_PLAYERS]):
        if q != seat:
            for c in range(inv.shape[1]):
                if inv[q, c] > 0:
                    return True
    return False


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def _rubble_left_nb(st):
    rdisc = rdisc_of(st)
    for c in range(rdisc.shape[0]):
        if rdisc[c] > 0:
            return True
    return False


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def can_craft_nb(st, rs, seat, r):
    recipes = recipes_of(rs)
    params = rs
    g = st
    inv = inv_of(st)
    if tokens_nb(st, seat) >= params[P_TOKEN_LIMIT]:
        return False
    prod = recipes[r, R_PRODUCT]
    if prod == TOKEN_TRAP and g[G_TRAP_SUPPLY] <= 0:
        return False
    if prod == TOKEN_BARRICADE:
        if g[G_BARR_SUPPLY] <= 0 or char_mod_nb(st, rs, seat, MOD_NO_BARRICADES) != 0:
            return False
    for j in range(recipes[r, R_N]):
        c = recipes[r, R_ING0 + j]
        need = 0
        for j2 in range(recipes[r, R_N]):
            if recipes[r, R_ING0 + j2] == c:
                need += 1
        if inv[seat, c] < need:
            return False
    return True


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def traps_nb(st, rs, pid, pp):
    g = st
    pl = pl_of(st)
    n = g[G_N_PLAYERS]
    for i in range(n):
        s = (g[G_CAUGHT] + i) % n
        if pl[s, PL_TRAPS] <= 0 or pl[s, PL_AREA_N] == 0:
            continue
        killed = buf_of(st)[1]
        k, fired, new_n = trap_step_nb(area_of(st)[s], pl[s, PL_AREA_N], enemy_tab_of(rs), pl[s, PL_TRAPS],
                                       rs[P_TRAP_HEADS], killed)
        if fired == 0:
            continue
        pl[s, PL_AREA_N] = new_n
        pl[s, PL_TRAPS] -= fired
        g[G_TRAP_SUPPLY] += fired
        emit_nb(st, EV_TRAP, s, fired, k, 0, 0, 0)
        if k > 0:
            kbuf = buf_of(st)[3]
            for j in range(k):
                kbuf[j] = killed[j]
            if rs[P_V_TRAP_REWARDS] != 0:
                kill_rewards_nb(st, rs, pid, pp, s, s, kbuf, k, 1)
            else:
                for j in range(k):
                    killed_of(st)[kbuf[j]] += 1
                    hdisc_of(st)[kbuf[j]] += 1
                    emit_nb(st, EV_KILL, s, kbuf[j], s, 1, 0, 0)
            if g[G_OVER] != 0:
                return


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def trap_step_nb(area_row, n, enemy_tab, traps, trap_heads, killed_out):
    """Fire up to ``traps`` traps into an area; return ``(kills, traps_fired, new_n)``.

    Traps fire one at a time, each dealing ``trap_heads`` heads to the current first enemy
    (never a survivor); hits on the same enemy add up, so two traps kill a Monster.  A trap
    with no enemy left in the area does not fire.
    """
    fired = 0
    kills = 0
    acc = 0
    i = 0  # scan position of the current first enemy
    while fired < traps:
        while i < n and enemy_tab[area_row[i], E_KIND] == ENEMY_SURVIVOR:
            i += 1
        if i >= n:
            break
        fired += 1
        acc += trap_heads
        if acc >= enemy_tab[area_row[i], E_KILL_HEADS]:
            kills += 1
            acc = 0
            i += 1
    new_n = remove_first_targets_nb(area_row, n, enemy_tab, kills, 0, killed_out)
    return kills, fired, new_n


@njit_with(_nrt=False, cache=True, entry=False, error_model='numpy', nogil=True)
def write_record_nb(st, rs, game, rec):
    g = st
    pl = pl_of(st)
    n = g[G_N_PLAYERS]
    rec[:] = 0
    rec[REC_GAME] = game
    rec[REC_PLAYERS] = n
    rec[REC_OUTCOME] = g[G_OUTCOME]
    rec[REC_CAUSE] = g[G_CAUSE]
    rec[REC_ROUND_REACHED] = g[G_ROUND]
    rec[REC_DEAD_SEAT] = g[G_DEAD_SEAT]
    rec[REC_DEAD_CHARACTER] = pl[g[G_DEAD_SEAT], PL_CHAR] if g[G_DEAD_SEAT] >= 0 else -1
    rec[REC_DEAD_ROUND] = g[G_DEAD_ROUND]
    rec[REC_SURVIVORS_SAVED] = kept_survivors_nb(st, rs)
    tot = 0
    for s in range(n):
        tot += pl[s, PL_SAVED_TOTAL]
    rec[REC_SURVIVORS_SAVED_TOTAL] = tot
    rec[REC_LEADER] = g[G_LEADER]
    rec[REC_RUBBLE_DRAWN] = g[G_RUBBLE_DRAWN]
    rec[REC_HORDE_DRAWN] = g[G_HORDE_DRAWN]
    rec[REC_EXCHANGES] = g[G_EXCHANGES]
    rec[REC_SEARCH_ACTIONS] = g[G_SEARCH_ACTIONS]
    rec[REC_ATTACKS] = g[G_ATTACKS]
    rec[REC_HORDE_RESHUFFLES] = g[G_HORDE_RESHUFFLES]
    checkpoint_nb(st, rs)
    rec[REC_VIOLATION] = g[G_VIOLATION]
    rec[REC_DECISIONS] = g[G_DECISIONS]
    for s in range(MAX_PLAYERS):
        if s < n:
            rec[REC_CHARACTER + s] = pl[s, PL_CHAR]
            rec[REC_DAMAGE + s] = pl[s, PL_DAMAGE_TAKEN]
            rec[REC_XP + s] = xp_nb(st, rs, s)
            rec[REC_KILLS + s] = pl[s, PL_KILLS]
            rec[REC_HEALTH + s] = pl[s, PL_HEALTH]
        else:
            rec[REC_CHARACTER + s] = -1
            rec[REC_DAMAGE + s] = -1
            rec[REC_XP + s] = -1
            rec[REC_KILLS + s] = -1
            rec[REC_HEALTH + s] = -1
    killed = killed_of(st)
    for t in range(min(killed.shape[0], MAX_ENEMY_TYPES)):
        rec[REC_KILLED + t] = killed[t]


KERNEL = play_game_nb
