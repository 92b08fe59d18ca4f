"""Every notebook in ``notebooks/`` runs top to bottom with a small game count.

Convention (a new notebook follows it and is picked up here): the first code cell reads
its game count from the ``SIMLIB_NB_GAMES`` environment variable, which the test sets;
notebooks are committed with their outputs stripped.  ``EXPECT`` lists, per notebook,
what its run must show.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

ROOT = Path(__file__).absolute().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
GAMES = 240

# notebook name -> (number of figures drawn at least, texts that must be printed, files written)
EXPECT = {
    "01_win_rates": (2, [f"{GAMES} games"], ["win_rates_report.html"]),
    "02_tuning": (2, ["compare: calibrated vs 4 Monsters", "calibrated value:"], []),
    "03_players": (1, ["Ladder, 4 players", "odds with the baseline playing on"], []),
}


def test_every_notebook_has_expectations():
    assert NOTEBOOKS, "no notebook found"
    assert sorted(p.stem for p in NOTEBOOKS) == sorted(EXPECT)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_is_committed_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code and "SIMLIB_NB_GAMES" in code[0].source  # the game count the test overrides
    assert all(not c.get("outputs") and c.get("execution_count") is None for c in code)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path, monkeypatch, tmp_path):
    figures, texts, files = EXPECT[path.stem]
    nb = nbformat.read(path, as_version=4)
    monkeypatch.setenv("SIMLIB_NB_GAMES", str(GAMES))
    monkeypatch.delenv("MPLBACKEND", raising=False)  # the kernel's inline backend (no GUI)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    drawn = sum("image/png" in o.get("data", {}) for o in outputs)
    assert drawn >= figures, f"{drawn} figures drawn, expected {figures}"
    text = "\n".join(str(o.get("data", {}).get("text/plain", "")) + str(o.get("text", ""))
                     for o in outputs)
    for t in texts:  # e.g. the repr of the result: the game count override reached the notebook
        assert t in text
    for f in files:
        assert (tmp_path / f).is_file() and (tmp_path / f).stat().st_size > 0
