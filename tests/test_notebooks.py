"""The analysis notebooks run top to bottom on small inputs (issue 3) and are stored without outputs."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_notebooks_present():
    assert [p.name for p in NOTEBOOKS] == ["01_deck_report.ipynb", "02_solver_strategies.ipynb", "03_census.ipynb",
                                           "04_counting.ipynb"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_stored_without_outputs(path):
    # and valid as stored: nbformat 4.5 asks every cell for an id (a cell without one is a warning when read,
    # to become an error in later nbformat versions; reading adds ids, so the file itself is checked)
    stored = json.loads(path.read_text())
    assert stored["nbformat"] == 4 and stored["nbformat_minor"] >= 5
    ids = [cell.get("id") for cell in stored["cells"]]
    assert None not in ids and len(set(ids)) == len(ids), f"{path.name}: every cell needs an id of its own"
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{path.name}: strip outputs"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, tmp_path, monkeypatch):
    # Small inputs: the deck report runs the batch on puzzles/examples (3 card sides);
    # the strategy notebook finds no results in an empty directory and runs a tiny benchmark.
    # Run from a directory outside the repository, as from an installed toolkit: the notebooks read the data
    # shipped in the package (once 02-04 looked for the repository's pyproject.toml: StopIteration elsewhere).
    monkeypatch.delenv("UBONGO_BATCH_DIRS", raising=False)
    monkeypatch.delenv("UBONGO_CENSUS_DIR", raising=False)  # the census notebook makes a small census
    monkeypatch.delenv("UBONGO_BENCH_DIR", raising=False)   # the default, relative to the current directory
    monkeypatch.setenv("MPLBACKEND", "Agg")
    # the notebooks' own temporary folders (the census notebook's census, the deck report's batch) go under
    # tmp_path, not into the machine's temporary folder, where every run of the suite left them
    (tmp_path / "tmp").mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert not any((p / "pyproject.toml").exists() for p in [elsewhere, *elsewhere.parents])
    nb = nbformat.read(path, as_version=4)
    # Check that the kernel is this interpreter (jupyter_client maps "python" to sys.executable).
    nb.cells.append(nbformat.v4.new_code_cell("import sys; print(sys.executable)"))
    client = NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(elsewhere)}})
    client.execute()
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert not errors
    printed = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    assert Path(printed.strip()).resolve() == Path(sys.executable).resolve()
    if path.stem.startswith("02"):
        bench = elsewhere / "benchmarks" / "results" / "bench"
        assert (bench / "runs.parquet").exists() and (bench / "cactus.png").exists()


def _run(nb, cwd, env_dirs, monkeypatch):
    if env_dirs is None:
        monkeypatch.delenv("UBONGO_BATCH_DIRS", raising=False)
    else:
        monkeypatch.setenv("UBONGO_BATCH_DIRS", env_dirs)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    (cwd / "tmp").mkdir(exist_ok=True)
    monkeypatch.setenv("TMPDIR", str(cwd / "tmp"))   # the notebook's own temporary folders (test_notebook_runs)
    client = NotebookClient(nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(cwd)}})
    client.execute()
    return "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)


def test_deck_report_keeps_two_decks_apart(tmp_path, monkeypatch):
    # Two decks whose card ids are the same ("1" and "2"), batched into folders of the same name:
    # the report must show two decks of 2 card sides each, not one deck whose sides hold 12 tasks.
    from ubongo_cp.batch import run_batch
    from ubongo_cp.generate import generate_deck

    for name, seed in (("a", 1), ("b", 2)):
        generate_deck("classic", tmp_path / name / "deck", seed=seed, cards=1)
        run_batch(tmp_path / name / "deck", tmp_path / name / "out", progress=False)
    nb = nbformat.read(ROOT / "notebooks" / "01_deck_report.ipynb", as_version=4)
    printed = _run(nb, tmp_path, "a/out:b/out", monkeypatch)
    assert "2 deck(s), 4 card side(s), 24 task(s) from a/out, b/out" in printed
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    # The two drawn task rows, then the hardest task of each example deck on the other grids.
    assert sum("image/svg+xml" in o.get("data", {}) for o in outputs) == 2 + 3
    for deck in ("hexagons", "triangles", "cubes"):
        assert f"\n{deck}: card " in printed or printed.startswith(f"{deck}: card ")


def test_deck_report_runs_outside_the_repository(tmp_path, monkeypatch):
    # Copied anywhere, it finds the example deck through the installed package (it used to stop with a
    # bare StopIteration looking for pyproject.toml); a wrong directory is named in the error.
    copy = tmp_path / "elsewhere" / "report.ipynb"
    copy.parent.mkdir()
    copy.write_bytes((ROOT / "notebooks" / "01_deck_report.ipynb").read_bytes())
    nb = nbformat.read(copy, as_version=4)
    printed = _run(nb, copy.parent, None, monkeypatch)
    assert "1 deck(s), 3 card side(s), 32 task(s)" in printed
    nb = nbformat.read(copy, as_version=4)
    from nbclient.exceptions import CellExecutionError

    with pytest.raises(CellExecutionError, match="no batch results in nowhere .*set UBONGO_BATCH_DIRS"):
        _run(nb, copy.parent, "nowhere", monkeypatch)
