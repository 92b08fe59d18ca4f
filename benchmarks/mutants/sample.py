"""Mutants nobody chose: enumerate every rule-level mutation site of a game's kernels and
reference data, draw a random sample from a seed, and run each mutant against the game's
tests like the curated harness (``run.py``) does.

    python -m benchmarks.mutants.sample --game till_dawn --seed 101 --count 25
    python -m benchmarks.mutants.sample --all-games --seed 7 --count 25 --json out.json
    python -m benchmarks.mutants.sample --game mort_de_la_lumiere_du_jour --seed 7 --list

Operators (each a textual edit of the original file at the node's line/column, so the rest
of the file keeps its formatting): ``cmp`` a comparison made strict / non-strict or
flipped (``<`` <-> ``<=``, ``>`` <-> ``>=``, ``==`` <-> ``!=``); ``const`` an integer
constant +1 / -1; ``data`` an integer ``{ value = N, source = ... }`` of ``data/<game>/``
+1 / -1; ``swap`` the operands of ``-``, ``<`` or ``>`` swapped; ``boolop`` ``and`` <->
``or``; ``index`` ``x[i]`` -> ``x[i + 1]`` / ``x[i - 1]``; ``branch`` an ``if`` body
replaced by ``pass``; ``elif`` an ``elif`` clause dropped; ``aug`` ``+=`` <-> ``-=``.

The files mutated: the game's kernels (``simlib/games/<pkg>/kernels/*.py``) and the
game's other numba rule code (``simlib/games/<pkg>/*_nb.py``, which the kernels call),
without the players' code (``policies_nb.py``, ``search_nb.py``, ``distil_nb.py``: a policy
chooses among legal actions, it is not a rule; ``--with-players`` adds them), and the ints of the
game's reference data.  Every site is enumerated in a stable order (file, position,
operator, replacement); ``numpy.random.default_rng(seed)`` draws ``--count`` of them for
each game (the same seed gives the same sample, and a game's sample does not depend on
which other games run).

Outcomes: *caught* (a test fails: the first is named), *survived*, *equivalent* (a
survivor listed in ``equivalent.toml`` with the reason why it cannot change a game),
*broken* (the mutant does not import / compile, or the ruleset refuses it: not a rule
bug), *timeout*.  Score: caught / (sampled - equivalent - broken).
"""
from __future__ import annotations

import argparse
import ast
import io
import json
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tokenize
import tomllib
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

try:
    from . import run as R
except ImportError:  # loaded as a file (tests)
    import importlib.util
    _spec = importlib.util.spec_from_file_location("mutants_run", Path(__file__).with_name("run.py"))
    R = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(R)

HERE = R.HERE
ROOT = R.ROOT
EQUIVALENT = HERE / "equivalent.toml"
PLAYER_FILES = ("policies_nb.py", "search_nb.py", "distil_nb.py")
OPERATORS = ("cmp", "const", "data", "swap", "boolop", "index", "branch", "elif", "aug")


@dataclass(frozen=True)
class Mutant:
    game: str
    file: str       # relative to the repository root
    line: int       # 1-based line of the edit's start
    col: int        # 0-based column (characters) of the edit's start
    end_line: int
    end_col: int
    operator: str
    original: str   # the replaced text
    mutated: str    # its replacement

    @property
    def id(self) -> str:
        """Stable: the same file content gives the same ids, run after run."""
        return ":".join([self.game, self.file, str(self.line), str(self.col), self.operator,
                         " ".join(self.mutated.split())])

    def apply(self, text: str) -> str:
        starts = _starts(text)
        a, b = starts[self.line - 1] + self.col, starts[self.end_line - 1] + self.end_col
        if text[a:b] != self.original:
            raise ValueError(f"{self.id}: the file changed since the sites were enumerated")
        return text[:a] + self.mutated + text[b:]


def _starts(text: str) -> list[int]:
    """Character offset of each line's start (and of the end)."""
    starts = [0]
    for ln in text.splitlines(keepends=True):
        starts.append(starts[-1] + len(ln))
    return starts


def _char_col(lines: list[str], line: int, byte_col: int) -> int:
    """ast columns are UTF-8 byte offsets; edits use characters."""
    return len(lines[line - 1].encode()[:byte_col].decode())


# ---------------------------------------------------------------- Python operators

_CMP = {ast.Lt: ("<", "<="), ast.LtE: ("<=", "<"), ast.Gt: (">", ">="), ast.GtE: (">=", ">"),
        ast.Eq: ("==", "!="), ast.NotEq: ("!=", "==")}
_SIMPLE = (ast.Name, ast.Attribute, ast.Constant, ast.Subscript, ast.Call)


class _Sites:
    """Every candidate edit of one Python source, in source order."""

    def __init__(self, game: str, file: str, text: str):
        self.game, self.file, self.text = game, file, text
        self.lines = text.splitlines(keepends=True)
        self.starts = _starts(text)
        self.out: list[Mutant] = []
        self.tree = ast.parse(text)
        self._skip: set[int] = set()
        for node in ast.walk(self.tree):  # annotations are not code the kernels run
            for field in ("annotation", "returns"):
                sub = getattr(node, field, None)
                if sub is not None:
                    self._skip.update(id(n) for n in ast.walk(sub))
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
                self._skip.add(id(node.value))  # docstrings

    def pos(self, node) -> tuple[int, int, int, int]:
        return (node.lineno, _char_col(self.lines, node.lineno, node.col_offset),
                node.end_lineno, _char_col(self.lines, node.end_lineno, node.end_col_offset))

    def seg(self, a: tuple[int, int], b: tuple[int, int]) -> str:
        return self.text[self.starts[a[0] - 1] + a[1]:self.starts[b[0] - 1] + b[1]]

    def add(self, op: str, start: tuple[int, int], end: tuple[int, int], new: str) -> None:
        old = self.seg(start, end)
        if old != new:
            self.out.append(Mutant(self.game, self.file, start[0], start[1], end[0], end[1], op, old, new))

    def token_between(self, a: tuple[int, int], b: tuple[int, int], words: tuple[str, ...]):
        """(start, end, string) of the first operator token among ``words`` between two
        positions (skipping parentheses and comments)."""
        chunk = self.seg(a, b)
        toks = tokenize.generate_tokens(io.StringIO(chunk).readline)
        try:
            for t in toks:
                if t.string in words:
                    (l1, c1), (l2, c2) = t.start, t.end
                    s = (a[0] + l1 - 1, c1 + (a[1] if l1 == 1 else 0))
                    e = (a[0] + l2 - 1, c2 + (a[1] if l2 == 1 else 0))
                    return s, e, t.string
        except (tokenize.TokenError, IndentationError):
            pass
        return None

    def collect(self) -> list[Mutant]:
        for node in ast.walk(self.tree):
            if id(node) in self._skip:
                continue
            fn = getattr(self, "_" + type(node).__name__, None)
            if fn is not None:
                fn(node)
        return self.out

    # one method per node type ------------------------------------------------------
    def _Compare(self, node: ast.Compare) -> None:
        left = node.left
        for op, right in zip(node.ops, node.comparators):
            if type(op) in _CMP:
                a, b = self.pos(left)[2:], self.pos(right)[:2]
                hit = self.token_between(a, b, (_CMP[type(op)][0],))
                if hit:
                    self.add("cmp", hit[0], hit[1], _CMP[type(op)][1])
            left = right
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.Lt, ast.Gt)):
            self._swap(node, node.left, node.comparators[0])

    def _BinOp(self, node: ast.BinOp) -> None:
        if isinstance(node.op, ast.Sub):
            self._swap(node, node.left, node.right)

    def _swap(self, node, left, right) -> None:
        n, lp, rp = self.pos(node), self.pos(left), self.pos(right)

        def wrap(x, p):
            s = self.seg(p[:2], p[2:])
            return s if isinstance(x, _SIMPLE) and "\n" not in s else f"({s})"
        new = (self.seg(n[:2], lp[:2]) + wrap(right, rp) + self.seg(lp[2:], rp[:2])
               + wrap(left, lp) + self.seg(rp[2:], n[2:]))
        self.add("swap", n[:2], n[2:], new)

    def _Constant(self, node: ast.Constant) -> None:
        v = node.value
        if isinstance(v, int) and not isinstance(v, bool):
            p = self.pos(node)
            for d in (1, -1):
                w = v + d
                self.add("const", p[:2], p[2:], str(w) if w >= 0 else f"({w})")

    def _BoolOp(self, node: ast.BoolOp) -> None:
        old, new = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
        hits = [self.token_between(self.pos(a)[2:], self.pos(b)[:2], (old,))
                for a, b in zip(node.values, node.values[1:])]
        if all(hits):  # one mutant: every and (or) of the expression
            parts, cur = [], hits[0][0]
            for s, e, _ in hits:
                parts += [self.seg(cur, s), new]
                cur = e
            self.add("boolop", hits[0][0], hits[-1][1], "".join(parts))

    def _Subscript(self, node: ast.Subscript) -> None:
        idx = node.slice
        elts = idx.elts if isinstance(idx, ast.Tuple) else [idx]
        for e in elts:
            if isinstance(e, ast.Slice) or (isinstance(e, ast.Constant) and isinstance(e.value, int)):
                continue  # slices are not an index; an int index is a ``const`` site
            p = self.pos(e)
            s = self.seg(p[:2], p[2:])
            base = s if isinstance(e, _SIMPLE) and "\n" not in s else f"({s})"
            for d in ("+ 1", "- 1"):
                self.add("index", p[:2], p[2:], f"{base} {d}")

    def _If(self, node: ast.If) -> None:
        body = node.body
        if not (len(body) == 1 and isinstance(body[0], ast.Pass)):
            self.add("branch", self.pos(body[0])[:2], self.pos(body[-1])[2:], "pass")
        if len(node.orelse) == 1 and isinstance(node.orelse[0], ast.If):
            el = node.orelse[0]
            line = self.lines[el.lineno - 1]
            col = _char_col(self.lines, el.lineno, el.col_offset)
            if line[col:].startswith("elif") and not line[:col].strip():
                end = self.pos(el.body[-1])[2]
                # whole lines: the elif keyword's line to its body's last line; what
                # follows it (another elif, an else) then belongs to the outer if
                self.add("elif", (el.lineno, 0), (end + 1, 0), "")

    def _AugAssign(self, node: ast.AugAssign) -> None:
        swap = {ast.Add: ("+=", "-="), ast.Sub: ("-=", "+=")}.get(type(node.op))
        if swap:
            hit = self.token_between(self.pos(node.target)[2:], self.pos(node.value)[:2], (swap[0],))
            if hit:
                self.add("aug", hit[0], hit[1], swap[1])


def python_sites(game: str, file: str, text: str) -> list[Mutant]:
    """Every candidate mutant of one Python source (``valid`` checks that one parses)."""
    return _Sites(game, file, text).collect()


def valid(m: Mutant, text: str) -> bool:
    """The mutated file still parses (TOML: loads) and its code differs from the original."""
    new = m.apply(text)
    if m.file.endswith(".toml"):
        try:
            return tomllib.loads(new) != tomllib.loads(text)
        except tomllib.TOMLDecodeError:
            return False
    try:
        return ast.dump(ast.parse(new)) != ast.dump(ast.parse(text))
    except SyntaxError:
        return False


# ---------------------------------------------------------------- data operator

_DATA_INT = re.compile(r"\{\s*value\s*=\s*(-?\d+)\s*(?=[,}])")


def data_sites(game: str, file: str, text: str) -> list[Mutant]:
    """Each integer ``{ value = N, ... }`` of a TOML file, +1 and -1 (the file stays valid
    TOML; whether the ruleset accepts the value is the loader's business: *broken*)."""
    out = []
    lines = text.splitlines(keepends=True)
    for i, ln in enumerate(lines, 1):
        hash_at = ln.find("#")
        for m in _DATA_INT.finditer(ln):
            if 0 <= hash_at < m.start():
                continue  # in a comment (a value's source string comes after the value)
            v = int(m.group(1))
            a, b = m.span(1)
            for d in (1, -1):
                out.append(Mutant(game, file, i, a, i, b, "data", m.group(1), str(v + d)))
    return out


# ---------------------------------------------------------------- a game's sites

def package(game: str) -> str:
    """The game's package under simlib/games, from its curated list's files."""
    if (ROOT / "simlib" / "games" / game).is_dir():
        return game
    files = [m["file"] for m in R.load(game).get("mutant", []) if m["file"].startswith("simlib/games/")]
    pkgs = sorted({Path(f).parts[2] for f in files})
    if len(pkgs) != 1:
        raise SystemExit(f"{game}: cannot tell its package under simlib/games (found {pkgs})")
    return pkgs[0]


def target_files(game: str, root: Path = ROOT, players: bool = False) -> tuple[list[str], list[str]]:
    """(Python files, data files) mutated for ``game``, relative to ``root``, sorted."""
    pkg = package(game)
    gdir = root / "simlib" / "games" / pkg
    py = sorted({*gdir.glob("kernels/*.py"), *gdir.glob("*_nb.py")})
    py = [p for p in py if p.name != "__init__.py" and (players or p.name not in PLAYER_FILES)]
    data = sorted((root / "data" / pkg).glob("*.toml"))
    return [str(p.relative_to(root)) for p in py], [str(p.relative_to(root)) for p in data]


def enumerate_sites(game: str, root: Path = ROOT, players: bool = False) -> list[Mutant]:
    py, data = target_files(game, root, players)
    out = []
    for f in py:
        out += python_sites(game, f, (root / f).read_text())
    for f in data:
        out += data_sites(game, f, (root / f).read_text())
    return sorted(out, key=lambda m: (m.file, m.line, m.col, m.end_line, m.end_col, m.operator, m.mutated))


def draw(sites: list[Mutant], seed: int, count: int, root: Path = ROOT) -> list[Mutant]:
    """``count`` valid mutants of ``sites`` without replacement, in site order: the sites
    in the order of ``default_rng(seed).permutation``, the first ``count`` that parse
    (a uniform sample of the valid ones; checking all of them would parse each file
    thousands of times)."""
    order = np.random.default_rng(seed).permutation(len(sites))
    texts: dict[str, str] = {}
    picked = []
    for i in order:
        m = sites[i]
        if m.file not in texts:
            texts[m.file] = (root / m.file).read_text()
        if valid(m, texts[m.file]):
            picked.append(i)
            if len(picked) == count:
                break
    return [sites[i] for i in sorted(picked)]


def load_equivalent(path: Path = EQUIVALENT) -> dict[str, str]:
    """``{mutant id: reason}`` of the mutants marked equivalent (``[[equivalent]]`` tables
    with ``id`` and a non-empty ``reason``)."""
    if not path.exists():
        return {}
    with path.open("rb") as f:
        doc = tomllib.load(f)
    out = {}
    for i, e in enumerate(doc.get("equivalent", [])):
        if not isinstance(e.get("id"), str) or not str(e.get("reason", "")).strip():
            raise SystemExit(f"{path}: [[equivalent]] #{i + 1} needs an 'id' and a non-empty 'reason'")
        out[e["id"]] = e["reason"]
    return out


def classify(result: str, mutant_id: str, equivalent: dict[str, str]) -> str:
    """The run's outcome, with a survivor marked equivalent counted as such."""
    return "equivalent" if result == "survived" and mutant_id in equivalent else result


def score(outcomes: list[str]) -> tuple[int, int]:
    """(caught, sampled - equivalent - broken)."""
    n = len(outcomes) - outcomes.count("equivalent") - outcomes.count("broken")
    return outcomes.count("caught"), n


# ---------------------------------------------------------------- running

_NUMBA_REFUSES = re.compile(r"numba\.core\.errors\.(TypingError|LoweringError|UnsupportedError)"
                            r"|^E\s+(TypingError|LoweringError)", re.M)


def compile_error(output: str) -> str:
    """The numba compile error in a pytest output ('' if none): a mutant numba cannot type
    is *broken*, not a rule bug that a test caught."""
    m = _NUMBA_REFUSES.search(output)
    return m.group(0).strip() if m else ""


def ruleset_refuses(tree: Path, game: str) -> str:
    """Why the copy's ruleset does not load ('' when it does): a data mutant the loader
    refuses (a count below its minimum, ...) is *broken*, not a rule bug."""
    code = f"from simlib.games.{package(game)}.ruleset import load_ruleset; load_ruleset()"
    with tempfile.TemporaryDirectory() as cache:
        p = subprocess.run([sys.executable, "-c", code], cwd=tree, env=R.child_env(tree, Path(cache)),
                           capture_output=True, text=True)
    if p.returncode == 0:
        return ""
    return "the ruleset refuses it: " + ((p.stderr.strip().splitlines() or [""])[-1])[:120]


def run_one(tree: Path, game: str, m: Mutant, tests: list[str], timeout: float,
            deselect: list[str]) -> tuple[str, str, float]:
    """(result, first failing test or a note, seconds) of one mutant applied to ``tree``."""
    path = tree / m.file
    original = path.read_text()
    path.write_text(m.apply(original))
    try:
        if m.operator == "data":
            why = ruleset_refuses(tree, game)
            if why:
                return "broken", why, 0.0
        p, dt = R.pytest_in(tree, tests, timeout, deselect)
        res, by, dt = R.result_of(p, timeout, dt)
        if res == "caught" and compile_error(p.stdout + p.stderr):
            return "broken", f"numba cannot compile it ({compile_error(p.stdout + p.stderr)}; {by})", dt
        return res, by, dt
    finally:
        path.write_text(original)

def run_sample(game: str, sample: list[Mutant], tests: list[str], source: str, timeout: float,
               baseline: bool, deselect: list[str], equivalent: dict[str, str]) -> list[dict]:
    t0 = time.perf_counter()
    tree = Path(tempfile.mkdtemp(prefix=f"simlib-sampled-{game}-"))
    records = []
    try:
        R.copy_tree(tree, source)
        R.link_data(tree)
        R.check_imports(tree)
        extra = "".join(f" --deselect {d}" for d in deselect)
        print(f"{game}: {len(sample)} sampled mutants; each runs python -m pytest {' '.join(tests)} -x"
              f"{extra} (golden records not run) in a copy of the repository ({source}) with an "
              f"empty numba cache", flush=True)
        if baseline:
            res, by, dt = R.run_tests(tree, tests, timeout or 1500, deselect)
            print(f"   unmutated code: {'passes' if res == 'survived' else res + ' ' + by} ({dt:.0f} s)",
                  flush=True)
            if res != "survived":
                raise SystemExit("the tests fail on the unmutated code: fix that first")
            if not timeout:
                # a mutant that loops for ever would hold the run for the whole limit: five
                # times the unmutated run (itself a cold compile and every test) is ample
                timeout = max(120.0, 5 * dt)
                print(f"   time limit per mutant: {timeout:.0f} s (5 x the unmutated run)", flush=True)
        timeout = timeout or 1500
        print(f"  {'#':>2}  {'operator':<7}  {'where':<40}  {'result':<10}  {'s':>4}  caught by / note",
              flush=True)
        for i, m in enumerate(sample, 1):
            res, by, dt = run_one(tree, game, m, tests, timeout, deselect)
            out = classify(res, m.id, equivalent)
            if out == "equivalent":
                by = equivalent[m.id]
            elif res == "caught" and m.id in equivalent:
                by += "  (listed as equivalent, yet caught: remove it from equivalent.toml)"
            rec = dict(asdict(m), id=m.id, outcome=out, first_failing_test=by if res == "caught" else "",
                       note="" if res == "caught" else by, seconds=round(dt, 1))
            records.append(rec)
            where = f"{Path(m.file).name}:{m.line}"
            print(f"  {i:>2}  {m.operator:<7}  {where:<40}  {out:<10}  {dt:>4.0f}  {by}", flush=True)
            print(f"      {' '.join(m.original.split())[:60]!s} -> {' '.join(m.mutated.split())[:60]!s}",
                  flush=True)
        report(game, records, time.perf_counter() - t0)
        return records
    finally:
        shutil.rmtree(tree, ignore_errors=True)


def report(game: str, records: list[dict], seconds: float) -> None:
    outs = [r["outcome"] for r in records]
    caught, n = score(outs)
    counts = ", ".join(f"{k} {outs.count(k)}" for k in
                       ("caught", "survived", "equivalent", "broken", "timeout") if outs.count(k))
    pct = f"{100 * caught / n:.0f} %" if n else "n/a"
    print(f"{game}: {caught} / {n} caught ({pct}) = caught / (sampled {len(outs)} - equivalent "
          f"{outs.count('equivalent')} - broken {outs.count('broken')}); {counts}; "
          f"{R.minutes(seconds)}", flush=True)
    for r in records:
        if r["outcome"] in ("survived", "timeout"):
            print(f"  {r['outcome']}: {r['id']}", flush=True)


def _stop(signum, frame):
    raise SystemExit(128 + signum)  # so that the temporary copy is removed (finally)


def main(argv: list[str] | None = None) -> int:
    signal.signal(signal.SIGTERM, _stop)
    ap = argparse.ArgumentParser(prog="python -m benchmarks.mutants.sample",
                                 description=__doc__.split("\n\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--game", action="append", choices=R.games(), help="game to sample (repeatable)")
    g.add_argument("--all-games", action="store_true", help="every game with a curated list")
    ap.add_argument("--seed", type=int, required=True, help="seed of the sample (numpy default_rng)")
    ap.add_argument("--count", type=int, default=25, help="mutants drawn per game (default 25)")
    ap.add_argument("--list", action="store_true", help="print the sample (and the site counts) and exit")
    ap.add_argument("--json", metavar="OUT", help="write every mutant's record to this JSON file")
    ap.add_argument("--with-players", action="store_true",
                    help="also mutate the players' kernels (policies_nb.py, search_nb.py, distil_nb.py)")
    ap.add_argument("--source", choices=("worktree", "head"), default="worktree",
                    help="copy the working tree (default) or the last commit")
    ap.add_argument("--timeout", type=float, default=None,
                    help="seconds per test run (default: 5 times the unmutated run, at least 120; "
                         "1500 with --no-baseline; a single test stops at half of it)")
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip the first run on unmutated code (which must pass)")
    ap.add_argument("--deselect", action="append", default=[], metavar="NODEID",
                    help="a test not to run (repeatable)")
    ap.add_argument("--only", action="append", default=[], metavar="ID",
                    help="run only this mutant of the sample (its id as printed; repeatable): "
                         "re-check a sample's survivors after new tests")
    a = ap.parse_args(argv)
    if a.count < 1:
        ap.error(f"--count must be at least 1 (got {a.count})")
    chosen = R.games() if a.all_games else a.game
    equivalent = load_equivalent()
    everything = {}
    for game in chosen:
        sites = enumerate_sites(game, players=a.with_players)
        sample = draw(sites, a.seed, a.count)
        if a.only:
            missing = [i for i in a.only if i.startswith(game + ":") and i not in {m.id for m in sample}]
            if missing:
                ap.error(f"--only: not in seed {a.seed}'s sample of {game}: {', '.join(missing)}")
            sample = [m for m in sample if m.id in a.only]
        by_op = ", ".join(f"{op} {sum(s.operator == op for s in sites)}" for op in OPERATORS)
        print(f"{game}: {len(sites)} candidate sites ({by_op}); seed {a.seed} draws {len(sample)}",
              flush=True)
        if a.list:
            for m in sample:
                print(f"  {m.id}\n      {' '.join(m.original.split())} -> {' '.join(m.mutated.split())}")
            continue
        tests = R.load(game)["tests"]
        everything[game] = run_sample(game, sample, tests, a.source, a.timeout, not a.no_baseline,
                                      a.deselect, equivalent)
    if a.list:
        return 0
    outs = [r["outcome"] for recs in everything.values() for r in recs]
    caught, n = score(outs)
    if len(everything) > 1:
        print(f"all games: {caught} / {n} caught (caught / (sampled - equivalent - broken))")
    if a.json:
        Path(a.json).write_text(json.dumps({"seed": a.seed, "count": a.count, "games": everything},
                                           indent=1) + "\n")
    return 0 if caught == n else 1


if __name__ == "__main__":
    sys.exit(main())
