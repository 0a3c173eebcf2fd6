"""The analysis notebooks run top to bottom on small inputs (issue 3) and are stored without outputs."""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_both_notebooks_present():
    assert [p.name for p in NOTEBOOKS] == ["01_deck_report.ipynb", "02_solver_strategies.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_stored_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{path.name}: strip outputs"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, tmp_path, monkeypatch):
    # Small inputs: the deck report runs the batch on puzzles/examples (3 card sides);
    # the strategy notebook finds no results in an empty directory and runs a tiny benchmark.
    monkeypatch.delenv("UBONGO_BATCH_DIRS", raising=False)
    monkeypatch.setenv("UBONGO_BENCH_DIR", str(tmp_path / "bench"))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    # Check that the kernel is this interpreter (jupyter_client maps "python" to sys.executable).
    nb.cells.append(nbformat.v4.new_code_cell("import sys; print(sys.executable)"))
    client = NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    printed = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    assert Path(printed.strip()).resolve() == Path(sys.executable).resolve()
    if path.stem.startswith("02"):
        assert (tmp_path / "bench" / "first.csv").exists() and (tmp_path / "bench" / "count.csv").exists()
