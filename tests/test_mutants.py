"""The mutation harness's lists (benchmarks/mutants/<game>.toml) are well formed: every
mutant names its rule, its file exists and its old text occurs exactly once there, so an
edit of the code can never leave a mutant silently applying to nothing.  Fast: no numba
compile, nothing is run (``python -m benchmarks.mutants.run`` runs the mutants)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("mutants_run", ROOT / "benchmarks" / "mutants" / "run.py")
M = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(M)


def test_until_daylight_and_till_dawn_have_lists():
    assert {"until_daylight", "till_dawn"} <= set(M.games())


@pytest.mark.parametrize("game", M.games())
def test_each_list_has_15_mutants_whose_old_text_occurs_once(game):
    spec = M.load(game)
    assert len(spec["mutant"]) >= 15
    assert M.problems(spec, ROOT) == []
    for m in spec["mutant"]:
        assert (ROOT / m["file"]).resolve().is_relative_to(ROOT)
        assert not m["file"].startswith("tests/"), "a mutant edits the game, not its tests"


def test_problems_reports_a_stale_or_ambiguous_mutant(tmp_path):
    (tmp_path / "k.py").write_text("a = 1\nb = 1\n")
    (tmp_path / "t.py").write_text("")
    base = {"name": "m", "rule": "r", "file": "k.py"}
    spec = {"tests": ["t.py"], "mutant": [dict(base, name="gone", old="c = 1", new="c = 2"),
                                          dict(base, name="twice", old="= 1", new="= 2"),
                                          dict(base, name="fine", old="a = 1", new="a = 2"),
                                          dict(base, name="same", old="b = 1", new="b = 1")]}
    got = M.problems(spec, tmp_path)
    assert got == ["gone: old text found 0 times in k.py (must be once)",
                   "twice: old text found 2 times in k.py (must be once)",
                   "same: old and new text are the same"]
    assert M.problems({"tests": ["tests/test_golden.py"], "mutant": []}, tmp_path) == [
        "test file tests/test_golden.py does not exist",
        "the golden records must not be among the tests"]
