"""The analyst's notebook runs top to bottom (with a small game count) and draws its plot."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

ROOT = Path(__file__).absolute().parents[1]
NOTEBOOK = ROOT / "notebooks" / "01_win_rates.ipynb"


def test_win_rates_notebook_runs(monkeypatch, tmp_path):
    nb = nbformat.read(NOTEBOOK, as_version=4)
    first = next(c for c in nb.cells if c.cell_type == "code")
    assert "SIMLIB_NB_GAMES" in first.source  # the game count the test overrides
    monkeypatch.setenv("SIMLIB_NB_GAMES", "240")
    monkeypatch.delenv("MPLBACKEND", raising=False)  # the kernel's inline backend (no GUI)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    assert any("image/png" in o.get("data", {}) for o in outputs), "the plot was not drawn"
    text = "\n".join(str(o.get("data", {}).get("text/plain", "")) for o in outputs)
    assert "240 games" in text  # the repr of the result: the override reached the notebook
