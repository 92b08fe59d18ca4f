"""The sampled mutation harness (benchmarks/mutants/sample.py): its operators make the
expected edits and the edited files still parse, its sample is a function of the seed,
data mutants keep the TOML valid, the equivalent list is honoured and mutant ids are
stable.  Fast: nothing is compiled or run."""
from __future__ import annotations

import ast
import importlib.util
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("mutants_sample", ROOT / "benchmarks" / "mutants" / "sample.py")
S = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("mutants_sample", S)  # dataclasses look their module up there
_spec.loader.exec_module(S)

SRC = '''def f(x, a, b):
    if a < b and x[a] == 1:
        x[a] += 2
    elif a > b:
        x[b] -= 1
    else:
        return a - b
    return (a + 1) - b
'''


def _sites(src=SRC):
    return S.python_sites("g", "k.py", src)


def _edits(op, src=SRC):
    """(original, mutated line text) of every mutant of one operator."""
    out = []
    for m in _sites(src):
        if m.operator == op:
            new = m.apply(src)
            ast.parse(new)  # still a Python file
            assert S.valid(m, src)
            out.append((m.original, m.mutated, new))
    return out


@pytest.mark.parametrize("op, expected", [
    ("cmp", {("<", "<="), ("==", "!="), (">", ">=")}),
    ("const", {("1", "2"), ("1", "0"), ("2", "3"), ("2", "1")}),
    ("swap", {("a < b", "b < a"), ("a > b", "b > a"), ("a - b", "b - a"), ("(a + 1) - b", "(b) - (a + 1)")}),
    ("boolop", {("and", "or")}),
    ("index", {("a", "a + 1"), ("a", "a - 1"), ("b", "b + 1"), ("b", "b - 1")}),
    ("branch", {("x[a] += 2", "pass"), ("x[b] -= 1", "pass")}),
    ("elif", {("    elif a > b:\n        x[b] -= 1\n", "")}),
    ("aug", {("+=", "-="), ("-=", "+=")}),
])
def test_each_operator_makes_its_edit_and_the_file_still_parses(op, expected):
    got = _edits(op)
    assert {(o, n) for o, n, _ in got} == expected


def test_edits_keep_the_rest_of_the_file():
    (_, _, new), = [e for e in _edits("cmp") if e[0] == "<"]
    assert new == SRC.replace("if a < b", "if a <= b")
    (_, _, new), = _edits("elif")
    assert new == SRC.replace("    elif a > b:\n        x[b] -= 1\n", "")
    # the else now belongs to the if: the dropped clause's case runs the else
    assert "if a < b and x[a] == 1:\n        x[a] += 2\n    else:" in new
    (_, _, new), = _edits("boolop")
    assert "if a < b or x[a] == 1:" in new


def test_a_chained_boolop_flips_every_keyword_and_a_negative_constant_is_parenthesised():
    src = "y = p and q and r\nz = -0\n"
    (_, mutated, new), = _edits("boolop", src)
    assert new.splitlines()[0] == "y = p or q or r"
    assert ("0", "(-1)") in {(o, m) for o, m, _ in _edits("const", src)}


def test_docstrings_annotations_and_int_indexes_are_not_sites():
    src = 'def f(x: "list[int]") -> int:\n    """Doc 3."""\n    return x[0]\n'
    ops = [(m.operator, m.original, m.mutated) for m in _sites(src)]
    assert ops == [("const", "0", "1"), ("const", "0", "(-1)")]


DATA = '''# a = { value = 9, source = "rulebook" } in a comment
n = { value = 3, source = "rulebook" }   # 3 nights
rate = { value = 0.5, source = "assumed" }
flag = { value = true, source = "assumed" }
list = { value = [1, 2], source = "assumed" }
[t]
neg = { value = -2, source = "inferred" }
'''


def test_data_mutants_change_one_int_by_one_and_keep_the_toml_valid():
    sites = S.data_sites("g", "d.toml", DATA)
    assert [(m.line, m.original, m.mutated) for m in sites] == [
        (2, "3", "4"), (2, "3", "2"), (7, "-2", "-1"), (7, "-2", "-3")]
    base = tomllib.loads(DATA)
    for m in sites:
        new = tomllib.loads(m.apply(DATA))
        assert S.valid(m, DATA)
        flat = {**{k: new[k] for k in ("n", "rate", "flag", "list")}, "t.neg": new["t"]["neg"]}
        old = {**{k: base[k] for k in ("n", "rate", "flag", "list")}, "t.neg": base["t"]["neg"]}
        (key,) = [k for k in flat if flat[k] != old[k]]
        assert abs(flat[key]["value"] - old[key]["value"]) == 1
        assert flat[key]["source"] == old[key]["source"]


def test_the_game_data_sites_keep_every_file_loadable():
    sites = [m for m in S.enumerate_sites("till_dawn") if m.operator == "data"]
    assert sites
    texts = {}
    for m in sites:
        texts.setdefault(m.file, (ROOT / m.file).read_text())
        tomllib.loads(m.apply(texts[m.file]))


def _tree(tmp_path):
    body = "".join(f"def f{i}(x, i):\n    if x[i] < {i}:\n        x[i] += 1\n" for i in range(30))
    (tmp_path / "k.py").write_text(body)
    return S.python_sites("g", "k.py", body)


def test_the_sample_is_a_function_of_the_seed(tmp_path):
    sites = _tree(tmp_path)
    a = S.draw(sites, 101, 25, root=tmp_path)
    assert len(a) == 25 and len({m.id for m in a}) == 25
    assert [m.id for m in a] == [m.id for m in S.draw(sites, 101, 25, root=tmp_path)]
    assert {m.id for m in a} != {m.id for m in S.draw(sites, 102, 25, root=tmp_path)}
    assert len(S.draw(sites, 1, 10 ** 6, root=tmp_path)) == len(sites)


def test_a_sample_skips_a_mutant_that_does_not_parse(tmp_path):
    src = "x = (1)\n"
    (tmp_path / "k.py").write_text(src)
    bad = S.Mutant("g", "k.py", 1, 4, 1, 7, "const", "(1)", "(1")
    good = S.Mutant("g", "k.py", 1, 5, 1, 6, "const", "1", "2")
    assert S.draw([bad, good], 0, 2, root=tmp_path) == [good]


def test_ids_are_stable_across_runs_and_unique():
    one = [m.id for m in S.enumerate_sites("till_dawn")]
    two = [m.id for m in S.enumerate_sites("till_dawn")]
    assert one == two and len(set(one)) == len(one)
    m = one[0].split(":")
    assert m[0] == "till_dawn" and m[1].startswith(("data/till_dawn/", "simlib/games/till_dawn/"))


def test_players_code_is_left_out_unless_asked():
    py, data = S.target_files("till_dawn")
    assert "simlib/games/till_dawn/kernels/engine_nb.py" in py
    assert not any(f.endswith("policies_nb.py") for f in py)
    assert any(f.endswith("policies_nb.py") for f in S.target_files("till_dawn", players=True)[0])
    assert "data/till_dawn/hunt.toml" in data
    assert S.package("mort_de_la_lumiere_du_jour") == "mort"


def test_the_equivalent_list_is_honoured(tmp_path):
    path = tmp_path / "equivalent.toml"
    path.write_text('[[equivalent]]\nid = "g:k.py:1:0:cmp:<="\nreason = "x is never 3 here"\n')
    eq = S.load_equivalent(path)
    assert eq == {"g:k.py:1:0:cmp:<=": "x is never 3 here"}
    assert S.classify("survived", "g:k.py:1:0:cmp:<=", eq) == "equivalent"
    assert S.classify("caught", "g:k.py:1:0:cmp:<=", eq) == "caught"
    assert S.classify("survived", "g:k.py:2:0:cmp:<=", eq) == "survived"
    assert S.score(["caught", "caught", "survived", "equivalent", "broken"]) == (2, 3)
    path.write_text('[[equivalent]]\nid = "g:k.py:1:0:cmp:<="\n')
    with pytest.raises(SystemExit, match="reason"):
        S.load_equivalent(path)
    assert isinstance(S.load_equivalent(), dict)  # the repository's list loads


def test_a_numba_compile_error_is_told_apart_from_a_failing_test():
    out = ("E   numba.core.errors.TypingError: Failed in nopython mode pipeline (step: nopython frontend)\n"
           "FAILED tests/test_x.py::test_a - numba.core.errors.TypingError: ...\n")
    assert "TypingError" in S.compile_error(out)
    assert S.compile_error("FAILED tests/test_x.py::test_a - assert 3 == 4\n") == ""


def test_the_ruleset_check_passes_on_the_unmutated_data():
    assert S.ruleset_refuses(ROOT, "till_dawn") == ""


def test_a_crash_of_the_tests_counts_as_caught():
    """A mutant that makes the tests' process die of a signal (an index out of bounds in a
    kernel segfaults) is caught: the test command fails, as a user's would."""
    import subprocess

    from benchmarks.mutants import run as R

    err = ("Fatal Python error: Segmentation fault\n\nCurrent thread 0x1 (most recent call first):\n"
           '  File "/tmp/copy/simlib/games/x/api.py", line 3 in play\n'
           '  File "/tmp/copy/tests/test_rules.py", line 12 in test_a_rule\n')
    p = subprocess.CompletedProcess([], -11, stdout="..", stderr=err)
    assert R.result_of(p, 900, 1.0) == ("caught", "the tests crashed (signal 11) in "
                                        "tests/test_rules.py::test_a_rule", 1.0)
    p = subprocess.CompletedProcess([], 2, stdout="", stderr="usage error")
    assert R.result_of(p, 900, 1.0)[0] == "broken"


def test_a_hanging_test_is_stopped_and_counts_as_caught(tmp_path):
    """A mutant that makes a kernel loop for ever: pytest-timeout's watchdog thread stops
    the test (a numba loop that releases the GIL cannot be stopped by a signal) and the
    run fails, as a user's would; the harness names the test that hung."""
    import subprocess
    import sys

    from benchmarks.mutants import run as R

    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_spin.py").write_text(
        "import numba\n\n\n@numba.njit(nogil=True)\ndef spin(n):\n    i = 0\n"
        "    while n > 0:\n        i += 1\n    return i\n\n\n"
        "def test_spin():\n    assert spin(1) == 0\n")
    p = subprocess.run([sys.executable, "-m", "pytest", "tests/test_spin.py", "-x", "-q",
                        "-p", "no:cacheprovider", "--timeout=3", "-o", "timeout_method=thread",
                        "-o", "addopts="], cwd=tmp_path, capture_output=True, text=True,
                       timeout=300)
    res, by, _ = R.result_of(p, 6, 1.0)
    assert res == "caught"
    assert by == "a test hung: pytest-timeout stopped it after 30 s in tests/test_spin.py::test_spin"
    assert R.per_test_timeout(1500) == 750
