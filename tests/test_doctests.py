"""The examples of simlib.games.until_daylight.exact and the docs' exact odds are run.

* every doctest of ``exact`` runs (pytest does not collect doctests of the package:
  ``testpaths`` is ``tests``), and none may fail;
* the name-layer examples marked ``+SKIP`` (they read the default ruleset) are run too,
  un-skipped, when they show an expected value;
* the "Exact odds" block of the rulesets page (docs/designer/rulesets.md) is executed and
  each number written in a comment next to a ``print`` must be what that line prints.
"""
from __future__ import annotations

import contextlib
import doctest
import io
import re
from pathlib import Path

import pytest

import simlib.games.until_daylight.exact as exact_module

README = Path(__file__).resolve().parents[1] / "docs" / "designer" / "rulesets.md"


class _NumpyScalarChecker(doctest.OutputChecker):
    """Reads ``np.float64(0.5)`` as ``0.5``: numpy >= 2 prints scalars with their type,
    and the skipped ``dice_faces`` example shows the bare number (its value is compared)."""

    def check_output(self, want, got, optionflags):
        got = re.sub(r"np\.(?:float|int)64\(([^()]*)\)", r"\1", got)
        return super().check_output(want, got, optionflags)


def _run(tests, flags=0, checker=None):
    runner = doctest.DocTestRunner(checker=checker, optionflags=flags)
    out = io.StringIO()
    for t in tests:
        runner.run(t, out=out.write)
    return runner.summarize(verbose=False), out.getvalue()


def test_exact_doctests_pass():
    with contextlib.redirect_stdout(io.StringIO()):
        res = doctest.testmod(exact_module, optionflags=doctest.ELLIPSIS)
    assert res.failed == 0
    assert res.attempted >= 10  # the module's plain-number examples, not a vacuous pass


def test_skipped_name_layer_examples_hold_on_the_reference_ruleset():
    tests = doctest.DocTestFinder().find(exact_module)
    unskipped = 0
    for t in tests:
        keep = []
        for ex in t.examples:
            if ex.options.get(doctest.SKIP):
                if not ex.want.strip():
                    continue  # shows no value: nothing to compare
                ex.options = {k: v for k, v in ex.options.items() if k != doctest.SKIP}
                unskipped += 1
            keep.append(ex)
        t.examples = keep
    with contextlib.redirect_stdout(io.StringIO()):
        res, report = _run(tests, doctest.ELLIPSIS, _NumpyScalarChecker())
    assert unskipped >= 3  # dice_faces, prob_clear, trap_kills
    assert res.failed == 0, report


def test_a_wrong_expected_value_fails_the_doctest_run():
    """The harness above really compares: a changed expected value is a failure."""
    parser = doctest.DocTestParser()
    t = parser.get_doctest(">>> from simlib.games.until_daylight.exact import batch_sizes\n"
                           ">>> batch_sizes(13)\n[6, 6, 2]\n", {}, "wrong", None, 0)
    res, _ = _run([t])
    assert res.failed == 1


def _readme_block() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Exact odds", 1)[1]
    m = re.search(r"```python\n(.*?)```", section, re.S)
    assert m, "the exact-odds section has no python block"
    return m.group(1)


def test_readme_exact_odds_match_exact():
    code = _readme_block()
    printed: list[str] = []
    claims: list[tuple[int, str]] = []  # (index of the print, number in its comment)
    lines = []
    for line in code.splitlines():
        if line.startswith("print("):
            m = re.search(r"#\s*([0-9.]+)\s*%\s*$", line)
            if m:
                claims.append((len(lines), m.group(1)))
            idx = len(lines)
            lines.append(line.split("#")[0].rstrip())
            lines[-1] = lines[-1].replace("print(", f"_out({idx}, ", 1)
        else:
            lines.append(line)
    outputs: dict[int, str] = {}
    ns = {"_out": lambda i, *a: outputs.__setitem__(i, " ".join(str(v) for v in a))}
    exec(compile("\n".join(lines), str(README), "exec"), ns)
    printed = list(outputs.values())
    assert len(printed) == 4
    assert claims, "the README block states no number"
    for idx, number in claims:
        assert outputs[idx].rstrip("%").strip() == number, (outputs[idx], number)
    # the stated 5.8 % is P(3 kills) of the distribution printed above it
    from simlib.games.until_daylight.exact import attack_kills, prob_clear

    dist = attack_kills(4, ["brute", "wanderer", "wanderer"])
    assert float(dist.sum()) == pytest.approx(1.0)
    assert prob_clear(4, ["brute", "wanderer", "wanderer"]) == pytest.approx(float(dist[3]))
    assert f"{float(dist[3]):.1%}" == "5.8%"
    assert prob_clear(4, ["brute", "wanderer", "wanderer"], focus=1) > float(dist[3])
