"""simlib.core.rng against published splitmix64 outputs and an independent Python model.

splitmix64 is Sebastiano Vigna's generator, reference C code at
https://prng.di.unimi.it/splitmix64.c (``x += 0x9e3779b97f4a7c15`` then the mix).  The
reference vector below (seed 1234567, first five outputs) is the one published by the
Rosetta Code task "Pseudo-random numbers/Splitmix64"
(https://rosettacode.org/wiki/Pseudo-random_numbers/Splitmix64), which runs that C code.
The pure-Python model here is written from the C code with Python integers (no numpy,
no code shared with simlib), so a kernel that drifts from splitmix64 fails.
"""
from __future__ import annotations

import numpy as np
import pytest

from simlib.core.rng import (
    DEFAULT_STREAMS as N_STREAMS,
    game_key_nb,
    init_streams_nb,
    key_streams_at_nb,
    make_streams,
    mix64_nb,
    next_u64_nb,
    randint_at_nb,
    randint_nb,
)

MASK = (1 << 64) - 1
STREAM_DICE = 1  # any stream but the first: the others must stay untouched
SEED = 1234567
REFERENCE = [6457827717110365317, 3203168211198807973, 9817491932198370423,
             4593380528125082431, 16408922859458223821]


def py_mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def py_splitmix64(x: int, n: int) -> list[int]:
    out = []
    for _ in range(n):
        x = (x + 0x9E3779B97F4A7C15) & MASK
        out.append(py_mix(x))
    return out


def py_streams(seed: int, game: int) -> list[int]:
    """The per-game stream states as documented in simlib/core/rng.py, in Python integers."""
    golden = 0x9E3779B97F4A7C15
    s = py_mix((seed * golden + 0x632BE59BD9B4E019) & MASK)
    key = py_mix(s ^ ((game * golden + golden) & MASK))
    return [py_mix(key ^ (((i + 1) * 0xD1B54A32D192ED03) & MASK)) for i in range(N_STREAMS)]


def test_python_model_reproduces_the_published_vector():
    assert py_splitmix64(SEED, 5) == REFERENCE
    assert py_splitmix64(SEED + 1, 5) != REFERENCE  # the check can fail


def test_kernel_generator_reproduces_the_published_vector():
    state = np.zeros(N_STREAMS, dtype=np.uint64)
    state[STREAM_DICE] = np.uint64(SEED)
    got = [int(next_u64_nb(state, STREAM_DICE)) for _ in range(5)]
    assert got == REFERENCE
    assert int(state[STREAM_DICE]) == (SEED + 5 * 0x9E3779B97F4A7C15) & MASK
    assert state[np.arange(N_STREAMS) != STREAM_DICE].tolist() == [0] * (N_STREAMS - 1)
    # and 1000 further outputs follow the Python model (wrap-around of the state included)
    more = [int(next_u64_nb(state, STREAM_DICE)) for _ in range(1000)]
    assert more == py_splitmix64(SEED, 1005)[5:]


@pytest.mark.parametrize("z", [0, 1, 1234567, 2**63 - 1, 2**63, 2**64 - 1, 0x9E3779B97F4A7C15])
def test_mix_matches_the_python_model(z):
    assert int(mix64_nb(np.uint64(z))) == py_mix(z)


# (seed, game) pairs whose key is below 2**63 and pairs whose key is above
STREAM_CASES = [(0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (20240601, 6), (7, 10**6)]


def test_game_streams_match_the_python_model():
    keys = [int(game_key_nb(np.int64(s), np.int64(g))) for s, g in STREAM_CASES]
    assert {k >= 2**63 for k in keys} == {True, False}
    for (seed, game), key in zip(STREAM_CASES, keys, strict=True):
        want = py_streams(seed, game)
        assert make_streams(seed, game).tolist() == want
        st = np.zeros(N_STREAMS, dtype=np.uint64)
        init_streams_nb(st, np.uint64(key))
        assert st.tolist() == want


def test_randint_uses_the_top_32_bits():
    state = np.zeros(N_STREAMS, dtype=np.uint64)
    state[0] = np.uint64(SEED)
    for ref in REFERENCE:
        assert int(randint_nb(state, 0, 6)) == ((ref >> 32) * 6) >> 32


def test_streams_kept_in_an_int64_state_are_the_same_streams():
    """The step games keep their streams bit for bit in an int64 state array at a slot of
    its layout (key_streams_at_nb, randint_at_nb): the same states and draws as the uint64
    streams, keys and states above 2**63 included, and no other slot touched."""
    first = 3
    for seed, game in STREAM_CASES:
        key = np.uint64(game_key_nb(np.int64(seed), np.int64(game)))
        st = np.full(first + N_STREAMS + 2, -7, dtype=np.int64)
        key_streams_at_nb(st, first, N_STREAMS, key)
        assert st[first:first + N_STREAMS].view(np.uint64).tolist() == py_streams(seed, game)
        assert st[:first].tolist() == [-7] * first and st[first + N_STREAMS:].tolist() == [-7, -7]
        ref = make_streams(seed, game)
        for n in (1, 2, 6, 52, 2**31 - 1):
            got = int(randint_at_nb(st, first + STREAM_DICE, n))
            assert got == int(randint_nb(ref, STREAM_DICE, n)) and 0 <= got < n
        assert st[first:first + N_STREAMS].view(np.uint64).tolist() == ref.tolist()
    st = np.zeros(2, dtype=np.int64)
    st[1] = np.int64(SEED)
    draws = [int(randint_at_nb(st, 1, 6)) for _ in REFERENCE]
    assert draws == [((ref >> 32) * 6) >> 32 for ref in REFERENCE] and st[0] == 0
