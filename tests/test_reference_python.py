"""The same kernels run as plain Python (NUMBA_DISABLE_JIT=1) give bit-identical games.

The pure-Python run is the reference the JIT speed-ups are measured from and a debugging
aid; this keeps it working and proves numba's integer semantics (uint64 wrap-around in the
random streams, int64 state) match Python's."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from simlib.games.until_daylight.api import play_games

SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    from simlib.games.until_daylight.api import play_games
    team = None if sys.argv[3] == "random" else sys.argv[3].split(",")
    rec = play_games(int(sys.argv[1]), players=int(sys.argv[2]), characters=team, seed=3,
                     policy=sys.argv[4], threads=1)
    sys.stdout.write(rec.tobytes().hex())
""")


@pytest.mark.parametrize("policy,players,team", [
    ("baseline", 4, "random"),
    ("random", 5, "random"),
    ("baseline", 3, "hipster,trigger,drifter"),
])
def test_pure_python_reference_plays_the_same_games(policy, players, team):
    n = 6
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    # splitmix64 wraps around on purpose: numpy warns about it in plain Python
    out = subprocess.run([sys.executable, "-W", "ignore::RuntimeWarning", "-c", SCRIPT,
                          str(n), str(players), team, policy],
                         env=env, capture_output=True, text=True, timeout=600, check=True)
    jit = play_games(n, players=players, characters=None if team == "random" else team.split(","),
                     seed=3, policy=policy, threads=1)
    py = np.frombuffer(bytes.fromhex(out.stdout), dtype=jit.dtype)
    np.testing.assert_array_equal(py, jit)
