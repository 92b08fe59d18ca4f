"""The kernels' disk cache is keyed by their game's kernel sources, ``NUMBA_CACHE_DIR`` set
or not (``simlib.core.jit.cache_dir``): numba's own cache checks only the file a kernel is
defined in, so without the key an edited callee in another file would leave its caller
stale."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CALLEE = '''
from simlib.core.jit import njit_nb


@njit_nb
def bonus_nb(x):
    return x + {k}
'''

CALLER = '''
from simlib.core.jit import njit_nb

from .callee_nb import bonus_nb


@njit_nb
def score_nb(x):
    return 10 * bonus_nb(x)
'''

RUN = '''
import json
from simlib.games.cachetoy.kernels.caller_nb import score_nb
from simlib.core.jit import cache_dir
print(json.dumps({"score": int(score_nb(3)), "folder": cache_dir("games/cachetoy"),
                  "hits": sum(score_nb.stats.cache_hits.values())}))
'''


def _package_copy(tmp: Path) -> Path:
    """A copy of the simlib package with a toy game whose kernel calls one in another file."""
    root = tmp / "src"
    shutil.copytree(ROOT / "simlib", root / "simlib",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    kern = root / "simlib" / "games" / "cachetoy" / "kernels"
    kern.mkdir(parents=True)
    (kern.parent / "__init__.py").write_text("")
    (kern / "__init__.py").write_text("")
    (kern / "caller_nb.py").write_text(CALLER)
    (kern / "callee_nb.py").write_text(CALLEE.format(k=1))
    return root


def _score(root: Path, cache: Path, tmp: Path) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(root))
    env.pop("SIMLIB_NUMBA_PATCHES", None)
    p = subprocess.run([sys.executable, "-c", RUN], capture_output=True, text=True, env=env,
                       cwd=tmp, timeout=600)
    assert p.returncode == 0, p.stderr[-3000:]
    return json.loads(p.stdout.strip().splitlines()[-1])


def test_an_edited_callee_recompiles_its_caller_with_numba_cache_dir_set(tmp_path):
    root = _package_copy(tmp_path)
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    first = _score(root, cache, tmp_path)
    assert first["score"] == 40 and first["hits"] == 0
    folder = Path(first["folder"])
    # the game's kernels live in a subfolder of the user's folder, named by their hash
    assert folder.parent == cache and folder.name.startswith("games-cachetoy-")
    assert any(folder.rglob("*.nbi")), sorted(p.name for p in cache.rglob("*"))
    again = _score(root, cache, tmp_path)
    assert again == dict(first, hits=1)  # unchanged sources: loaded from the cache
    # edit only the callee's file: the caller's own file (all numba checks) is untouched
    callee = root / "simlib" / "games" / "cachetoy" / "kernels" / "callee_nb.py"
    callee.write_text(CALLEE.format(k=2))
    edited = _score(root, cache, tmp_path)
    assert edited["score"] == 50, "the caller ran with the stale callee"
    assert edited["hits"] == 0 and Path(edited["folder"]) != folder
    assert Path(edited["folder"]).parent == cache
