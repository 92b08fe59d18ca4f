"""Plant one rule bug at a time in a temporary copy of the repository and run the game's
rule tests against it: every curated mutant must make a test fail.

    python -m benchmarks.mutants.run --game until_daylight
    python -m benchmarks.mutants.run --game till_dawn --only lingers_back_one
    python -m benchmarks.mutants.run --list

Each game has a list ``benchmarks/mutants/<game>.toml``: the test files to run, then one
``[[mutant]]`` per planted bug (``name``, ``rule`` it breaks, ``file``, the exact ``old``
text, found exactly once in that file, and the ``new`` text).  The repository is copied
once to a temporary folder (the working tree's tracked and untracked, not ignored files;
``--source head`` takes the last commit instead); each mutant edits that copy, runs
``python -m pytest <the game's test files> -x`` there with an empty numba cache of its
own (so no kernel compiled from other code is ever reused: numba's own cache checks only
the file a kernel is defined in) and no bytecode files, then the file is restored.  The
golden records (``tests/test_golden.py``) are never run: they are generated from the code
and would catch any change, a deliberate fix as much as a bug.

A mutant is *caught* when a test fails (the first one is named), *survived* when every
test passes, *broken* when pytest could not run the tests (an import or compile error: the
mutant is then not a rule bug but a typo in the list), *timeout* past ``--timeout``.
The exit status is 0 when every mutant run was caught.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GOLDEN = "tests/test_golden.py"


NOT_A_GAME = {"equivalent"}  # equivalent.toml: the sampled mutants marked equivalent (sample.py)


def games() -> list[str]:
    return sorted(p.stem for p in HERE.glob("*.toml") if p.stem not in NOT_A_GAME)


def load(game: str) -> dict:
    """The game's list: ``{"tests": [...], "mutant": [{name, rule, file, old, new}, ...]}``."""
    path = HERE / f"{game}.toml"
    if not path.exists():
        raise SystemExit(f"no mutant list for game {game!r} (have: {', '.join(games())})")
    with path.open("rb") as f:
        return tomllib.load(f)


def problems(spec: dict, root: Path = ROOT) -> list[str]:
    """What is wrong with a mutant list against the files under ``root`` (empty: fine)."""
    out = []
    tests = spec.get("tests", [])
    if not tests:
        out.append("no test files listed")
    for t in tests:
        if not (root / t).is_file():
            out.append(f"test file {t} does not exist")
        if t == GOLDEN:
            out.append("the golden records must not be among the tests")
    seen = set()
    for i, m in enumerate(spec.get("mutant", [])):
        name = m.get("name", f"#{i}")
        for key in ("name", "rule", "file", "old", "new"):
            if not isinstance(m.get(key), str) or not m[key].strip():
                out.append(f"{name}: missing {key}")
        if name in seen:
            out.append(f"{name}: duplicate name")
        seen.add(name)
        if not isinstance(m.get("old"), str) or not isinstance(m.get("file"), str):
            continue
        if m["old"] == m.get("new"):
            out.append(f"{name}: old and new text are the same")
        path = root / m["file"]
        if not path.is_file():
            out.append(f"{name}: file {m['file']} does not exist")
            continue
        count = path.read_text().count(m["old"])
        if count != 1:
            out.append(f"{name}: old text found {count} times in {m['file']} (must be once)")
    return out


def copy_tree(dst: Path, source: str) -> None:
    if source == "head":
        archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(dst)], input=archive, check=True)
        return
    names = subprocess.run(["git", "ls-files", "-z", "-c", "-o", "--exclude-standard"], cwd=ROOT,
                           check=True, capture_output=True).stdout.decode().split("\0")
    for name in filter(None, names):
        src = ROOT / name
        if src.is_file() and "__pycache__" not in src.parts:
            (dst / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst / name)


def child_env(tree: Path, cache: Path) -> dict:
    env = dict(os.environ)
    env.pop("NUMBA_DISABLE_JIT", None)
    env.update(PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1", NUMBA_CACHE_DIR=str(cache),
               XDG_CACHE_HOME=str(cache))
    return env


FAILED = re.compile(r"^(FAILED|ERROR) (\S+)")
CURRENT = re.compile(r'File "[^"]*/(tests/test_\w+\.py)", line \d+,? in (test_\w+)')


def pytest_in(tree: Path, tests: list[str], timeout: float,
              deselect: list[str] = ()) -> tuple[subprocess.CompletedProcess | None, float]:
    """(the finished pytest process, or None past ``timeout``; seconds) of the game's tests
    in ``tree``, with an empty numba cache of its own."""
    with tempfile.TemporaryDirectory(prefix="simlib-mutant-cache-") as cache:
        # one test hanging (a mutant's endless loop) fails the run, as it fails a user's or
        # CI's: pytest-timeout stops it well within the run's own limit
        cmd = [sys.executable, "-m", "pytest", *tests, "-x", "-q", "-p", "no:cacheprovider",
               f"--ignore={GOLDEN}", "-rfE", f"--timeout={per_test_timeout(timeout):.0f}"] + \
            [f"--deselect={d}" for d in deselect]
        t = time.perf_counter()
        try:
            p = subprocess.run(cmd, cwd=tree, env=child_env(tree, Path(cache)), capture_output=True,
                               text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            p = None
        return p, time.perf_counter() - t


def per_test_timeout(timeout: float) -> float:
    """A single test's limit inside a run limited to ``timeout`` seconds: room for the
    compile and the tests before the one that hangs."""
    return max(30.0, 0.5 * timeout)


HUNG = re.compile(r"\+{5,} Timeout \+{5,}")


def run_tests(tree: Path, tests: list[str], timeout: float,
              deselect: list[str] = ()) -> tuple[str, str, float]:
    """(result, first failing test or a note, seconds) of the game's tests in ``tree``."""
    p, dt = pytest_in(tree, tests, timeout, deselect)
    return result_of(p, timeout, dt)


def result_of(p: subprocess.CompletedProcess | None, timeout: float, dt: float) -> tuple[str, str, float]:
    if p is None:
        return "timeout", f"no result in {timeout:.0f} s", dt
    if p.returncode == 0:
        return "survived", "", dt
    hits = [m.group(2) for m in map(FAILED.match, p.stdout.splitlines()) if m]
    if p.returncode == 1 and hits:
        return "caught", hits[0], dt
    if HUNG.search(p.stdout + p.stderr):
        running = CURRENT.findall(p.stderr + p.stdout)
        return "caught", f"a test hung: pytest-timeout stopped it after {per_test_timeout(timeout):.0f} s" + (
            f" in {'::'.join(running[0])}" if running else ""), dt
    if p.returncode < 0:
        # the test process died of a signal (a mutant writing out of bounds segfaults): the
        # tests fail on it, as a user's run would; the unmutated code passed first
        running = CURRENT.findall(p.stdout + p.stderr)
        return "caught", f"the tests crashed (signal {-p.returncode})" + (
            f" in {'::'.join(running[-1])}" if running else ""), dt
    tail = (p.stdout + p.stderr).strip().splitlines()[-1:] or [""]
    return "broken", f"pytest exit {p.returncode}: {tail[0][:100]}", dt


def link_data(tree: Path) -> None:
    """The ruleset files live in ``data/`` and are imported as the package ``simlib._data``
    (mapped there by an install).  An editable install's finder would map it to the real
    tree's ``data/`` even for the copy's ``simlib``, so a mutant of the data would never be
    seen: the copy gets its own ``simlib/_data``, found first."""
    link = tree / "simlib" / "_data"
    if (tree / "data").is_dir() and not link.exists():
        link.symlink_to(Path("..") / "data", target_is_directory=True)


PROBE = ("import simlib, simlib._data; "
         "print(simlib.__file__); print(list(simlib._data.__path__)[0])")


def check_imports(tree: Path) -> None:
    """The child processes must import simlib and its data from the copy, not from the
    installed package."""
    with tempfile.TemporaryDirectory() as cache:
        got = subprocess.run([sys.executable, "-c", PROBE], cwd=tree, env=child_env(tree, Path(cache)),
                             capture_output=True, text=True, check=True).stdout.split()
    for path in got:
        if not Path(path).absolute().is_relative_to(tree.absolute()):
            raise SystemExit(f"the copy imports {path}, not a file of {tree}")


def minutes(s: float) -> str:
    return f"{int(s // 60)} min {s % 60:02.0f} s"


def run_game(game: str, only: list[str], source: str, timeout: float, baseline: bool,
             keep: bool, deselect: list[str] = ()) -> bool:
    spec = load(game)
    bad = problems(spec)
    if bad:
        raise SystemExit(f"{game}: the mutant list is stale:\n  " + "\n  ".join(bad))
    mutants = [m for m in spec["mutant"] if not only or m["name"] in only]
    if only and len(mutants) != len(set(only)):
        raise SystemExit(f"unknown mutant(s): {sorted(set(only) - {m['name'] for m in mutants})}")
    tests = spec["tests"]
    t0 = time.perf_counter()
    tree = Path(tempfile.mkdtemp(prefix=f"simlib-mutants-{game}-"))
    try:
        copy_tree(tree, source)
        link_data(tree)
        check_imports(tree)
        extra = "".join(f" --deselect {d}" for d in deselect)
        print(f"{game}: {len(mutants)} mutants; each runs python -m pytest {' '.join(tests)} -x{extra} "
              f"(golden records not run) in a copy of the repository ({source}) with an empty "
              f"numba cache", flush=True)
        if baseline:
            res, by, dt = run_tests(tree, tests, timeout, deselect)
            print(f"   unmutated code: {'passes' if res == 'survived' else res + ' ' + by} "
                  f"({dt:.0f} s)", flush=True)
            if res != "survived":
                raise SystemExit("the tests fail on the unmutated code: fix that first")
        w = max(len(m["name"]) for m in mutants)
        print(f"  {'#':>2}  {'mutant':<{w}}  {'result':<8}  {'s':>4}  caught by / note", flush=True)
        rows = []
        for i, m in enumerate(mutants, 1):
            path = tree / m["file"]
            original = path.read_text()
            path.write_text(original.replace(m["old"], m["new"], 1))
            try:
                res, by, dt = run_tests(tree, tests, timeout, deselect)
            finally:
                path.write_text(original)
            rows.append((m, res, by))
            print(f"  {i:>2}  {m['name']:<{w}}  {res:<8}  {dt:>4.0f}  {by}", flush=True)
        caught = sum(r == "caught" for _, r, _ in rows)
        print(f"{game}: mutation score {caught}/{len(rows)} caught "
              f"({100 * caught / max(1, len(rows)):.0f} %) in {minutes(time.perf_counter() - t0)}",
              flush=True)
        for m, r, _ in rows:
            if r != "caught":
                print(f"  {r}: {m['name']} - {m['rule']}", flush=True)
        return caught == len(rows)
    finally:
        if keep:
            print(f"copy kept in {tree}")
        else:
            shutil.rmtree(tree, ignore_errors=True)


def _stop(signum, frame):
    raise SystemExit(128 + signum)  # so that the temporary copy is removed (finally)


def main(argv: list[str] | None = None) -> int:
    signal.signal(signal.SIGTERM, _stop)
    ap = argparse.ArgumentParser(prog="python -m benchmarks.mutants.run", description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", choices=games(),
                    help="game whose mutants to run (repeatable; default: every game)")
    ap.add_argument("--only", nargs="+", default=[], metavar="NAME", help="run only these mutants")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--source", choices=("worktree", "head"), default="worktree",
                    help="copy the working tree (default) or the last commit")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per test run (default 900)")
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip the first run on unmutated code (which must pass)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary copy")
    ap.add_argument("--deselect", action="append", default=[], metavar="NODEID",
                    help="a test not to run (repeatable; e.g. one broken for reasons unrelated "
                         "to the rules, so that the unmutated code passes)")
    a = ap.parse_args(argv)
    chosen = a.game or games()
    if a.list:
        for g in chosen:
            spec = load(g)
            print(f"{g} ({len(spec['mutant'])} mutants; tests: {' '.join(spec['tests'])})")
            for m in spec["mutant"]:
                print(f"  {m['name']}: {m['rule']}  [{m['file']}]")
        return 0
    ok = True
    for g in chosen:
        ok &= run_game(g, a.only, a.source, a.timeout, not a.no_baseline, a.keep, a.deselect)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
