"""simlib's numba compile patches (``simlib.core.numba_patches``): checked against numba's
version, turned off by ``SIMLIB_NUMBA_PATCHES=0``, and the same games either way."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from simlib.core import numba_patches

ROOT = Path(__file__).resolve().parents[1]


def test_the_patches_apply_only_to_tested_numba_versions_and_can_be_turned_off():
    lo, hi = numba_patches.TESTED
    inside = f"{lo[0]}.{lo[1]}.1"
    assert numba_patches.decide(inside, "", False) == (True, f"on: numba {inside}")
    for version in (f"{hi[0]}.{hi[1]}.0", "0.57.1", "1.0.0rc1", f"{lo[0]}.{lo[1] - 1}.3"):
        on, reason = numba_patches.decide(version, "", False)
        assert not on and "outside the tested range" in reason and version in reason
    for value in ("0", "off", "False", " no "):
        on, reason = numba_patches.decide(inside, value, False)
        assert not on and numba_patches.ENV in reason
    assert numba_patches.decide(inside, "1", False)[0]
    assert not numba_patches.decide(inside, "", True)[0]  # NUMBA_DISABLE_JIT: nothing to patch


def _run(code: str, env_extra: dict[str, str], cwd: Path) -> dict:
    env = dict(os.environ, **env_extra)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    p = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                       text=True, env=env, cwd=cwd, timeout=1200)
    assert p.returncode == 0, p.stderr[-3000:]
    return json.loads(p.stdout.strip().splitlines()[-1])


def test_a_numba_outside_the_tested_range_leaves_numba_alone_with_a_warning(tmp_path):
    """A numba version outside the tested range: one warning, the patches off (numba's
    classes untouched) and the kernels still compile and run."""
    out = _run("""
        import json, warnings
        import numba
        numba.__version__ = "9.1.0"  # what a future numba would report
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            from simlib.core import jit, numba_patches
        from numba.core import codegen
        from numba.core.targetconfig import TargetConfig

        @jit.njit_nb(cache=False)
        def twice(x):
            return 2 * x

        print(json.dumps({"on": numba_patches.STATE["on"], "reason": numba_patches.STATE["reason"],
                          "warnings": [str(x.message) for x in w
                                       if x.category is numba_patches.NumbaPatchesOff],
                          "patched": bool(getattr(codegen.CPUCodeLibrary, "_simlib_policy", False)
                                          or getattr(TargetConfig, "_simlib_fast", False)),
                          "twice": twice(21)}))
    """, {}, tmp_path)
    assert out["on"] is False and "9.1.0" in out["reason"]
    assert len(out["warnings"]) == 1 and "outside the tested range" in out["warnings"][0]
    assert out["patched"] is False and out["twice"] == 42


@pytest.mark.long  # two cold compiles in subprocesses (about 80 s): on demand, and when numba changes
def test_the_same_records_with_the_patches_on_and_off(tmp_path):
    """A small study of Until Daylight played in two fresh processes, each compiling from an
    empty numba cache, one with the patches and one with ``SIMLIB_NUMBA_PATCHES=0``: the
    records are identical byte for byte."""
    code = """
        import hashlib, json
        import numpy as np
        from simlib.core import numba_patches
        from simlib.games.until_daylight.api import play_games
        recs = [play_games(24, players=p, seed=11, threads=1) for p in (3, 5)]
        print(json.dumps({"on": numba_patches.STATE["on"],
                          "sha": hashlib.sha256(b"".join(r.tobytes() for r in recs)).hexdigest(),
                          "outcomes": [int(x) for r in recs for x in np.bincount(r["outcome"], minlength=4)],
                          "rounds": int(sum(r["round_reached"].sum() for r in recs))}))
    """
    procs = {}
    for value in ("1", "0"):  # both at once: two cold compiles, one on each core
        cache = tmp_path / f"cache-{value}"
        cache.mkdir()
        env = dict(os.environ, SIMLIB_NUMBA_PATCHES=value, NUMBA_CACHE_DIR=str(cache))
        env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
        procs[value] = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True, env=env, cwd=tmp_path)
    out = {}
    for value, p in procs.items():
        stdout, stderr = p.communicate(timeout=1800)
        assert p.returncode == 0, stderr[-3000:]
        out[value] = json.loads(stdout.strip().splitlines()[-1])
    on, off = out["1"], out["0"]
    if not on["on"]:
        pytest.skip("the patches are off in this environment (numba version or "
                    f"{numba_patches.ENV}): nothing to compare")
    assert off["on"] is False
    assert on["rounds"] > 0  # games were played
    assert on == dict(off, on=True)
    # each compiled into its own folder of the cache
    assert any(d.name.endswith("-plain") for d in (tmp_path / "cache-0").iterdir())
    assert not any(d.name.endswith("-plain") for d in (tmp_path / "cache-1").iterdir())
