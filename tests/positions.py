"""Helpers shared by the tests of the resumable engine (not a test module)."""
from __future__ import annotations

import numpy as np

from simlib.games.until_daylight import codes as K


def permute_unseen(state: np.ndarray, rng) -> None:
    """Shuffle the unseen part of both decks, in the position and in the step's snapshot."""
    for base in (0, int(state[K.G_O_SNAP])):
        for o_key, n_key in ((K.G_O_HDECK, K.G_HDECK_N), (K.G_O_RDECK, K.G_RDECK_N)):
            o = base + int(state[o_key])
            n = int(state[base + n_key])
            state[o:o + n] = rng.permutation(state[o:o + n])
