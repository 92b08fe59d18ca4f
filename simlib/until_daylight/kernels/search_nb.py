"""Continuations of a game from a decision: clones, re-keyed streams, odds.

A state in step mode (``game_nb.MODE_STEP``) stands at a pending decision.  A
*continuation* copies it, gives the copy fresh random streams from a continuation key
(a pure function of the game's key, the number of decisions taken and the continuation's
number) with the unseen decks in canonical order, optionally takes one candidate, and
plays on with a policy to the end.  It cannot see the real future: what it draws depends
only on which cards are unseen, never on their real order (``game_nb.rekey_now_nb``).
"""
from __future__ import annotations

import numpy as np

from simlib.core.jit import njit_alloc_nb, njit_nb
from simlib.core.rng import GOLDEN, STREAM_SALT, mix64_nb
from simlib.until_daylight.codes import (
    G_DECISIONS,
    G_PENDING_D,
    G_PENDING_M,
    G_PENDING_SEAT,
    G_EV_CAP,
    G_GAME_KEY,
    G_O_EV,
    G_O_SCRIPT,
    G_O_SNAP,
    G_SCRIPT_CAP,
    G_SCRIPT_N,
    G_SIZE,
    G_SNAP_N,
    G_SUSPENDED,
    N_EV_COLS,
    PC_OVER,
)
from simlib.until_daylight.kernels.game_nb import finish_nb, set_rekey_nb, write_record_nb
from simlib.until_daylight.kernels.policies_nb import choose_nb

CONTINUATION_SALT = np.uint64(0x8CB92BA72F3D8DD7)


@njit_nb
def continuation_key_nb(game_key, decision, r):
    """Key of continuation ``r`` from the position after ``decision`` decisions."""
    d = mix64_nb(np.uint64(decision + 1) * GOLDEN ^ CONTINUATION_SALT)
    return mix64_nb(np.uint64(game_key) ^ d ^ (np.uint64(r + 1) * STREAM_SALT))


@njit_nb
def clone_into_nb(dst, src):
    """Copy the parts of ``src`` a continuation needs into ``dst`` (same layout): the
    position, the step's snapshot and script, and the trace when it has one."""
    n = src[G_O_EV]  # head and persistent parts come first
    for i in range(n):
        dst[i] = src[i]
    if src[G_EV_CAP] > 0:
        o = src[G_O_EV]
        for i in range(o, o + src[G_EV_CAP] * N_EV_COLS):
            dst[i] = src[i]
    o = src[G_O_SNAP]
    for i in range(o, o + src[G_SNAP_N]):
        dst[i] = src[i]
    o = src[G_O_SCRIPT]
    for i in range(o, o + src[G_SCRIPT_N]):
        dst[i] = src[i]


@njit_nb
def take_then_finish_nb(st, rs, pid, pp, action, key, stop_pc):
    """Re-key ``st`` with ``key`` at its pending decision, take ``action`` there (-1: the
    policy chooses), and play on with policy ``pid`` until the end or ``stop_pc``."""
    set_rekey_nb(st, key)
    if action >= 0 and st[G_SUSPENDED] != 0:
        k = st[G_SCRIPT_N]
        if k < st[G_SCRIPT_CAP]:
            st[st[G_O_SCRIPT] + k] = action
            st[G_SCRIPT_N] = k + 1
    finish_nb(st, rs, pid, pp, stop_pc)


@njit_alloc_nb
def continuations_nb(st, rs, pid, pp, action, first, n, peek, out):
    """Play continuations ``first .. first + n - 1`` of ``st`` and write their records.

    ``action``: the candidate taken at the pending decision (-1: the policy chooses).
    ``peek`` = 1 keeps the game's real streams (a clairvoyant bound, never a default).
    ``out``: int64 (n, N_REC).  ``st`` is not changed.
    """
    work = np.empty(st[G_SIZE], dtype=np.int64)
    base = st[G_GAME_KEY]
    dec = st[G_DECISIONS]
    for r in range(n):
        clone_into_nb(work, st)
        if peek != 0:
            if action >= 0 and work[G_SUSPENDED] != 0:
                k = work[G_SCRIPT_N]
                work[work[G_O_SCRIPT] + k] = action
                work[G_SCRIPT_N] = k + 1
            finish_nb(work, rs, pid, pp, PC_OVER)
        else:
            key = continuation_key_nb(base, dec, first + r)
            take_then_finish_nb(work, rs, pid, pp, action, np.int64(key), PC_OVER)
        write_record_nb(work, rs, -1, out[r])


@njit_nb
def policy_choice_nb(st, rs, pid, pp):
    """The candidate policy ``pid`` would take at the pending decision (-1: none pending)."""
    if st[G_SUSPENDED] == 0:
        return -1
    return choose_nb(st, rs, pid, pp, st[G_PENDING_D], st[G_PENDING_SEAT], st[G_PENDING_M])
