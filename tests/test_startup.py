"""Start-up (issue 18): small commands load only what they use.

Speed itself is measured in ``benchmarks/bench_startup.py``; these tests pin
the import hygiene that the measured gain rests on: which heavy packages a
command path loads, checked in a fresh interpreter.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("numpy", "pandas", "pyarrow", "matplotlib", "ortools", "numba", "dask", "scipy", "concurrent.futures.process")

PROBE = """
import json, sys
from ubongo_cp.cli import main
try:
    status = main({argv!r})
except SystemExit as exc:
    status = exc.code
print(json.dumps({{"status": status, "loaded": [m for m in {heavy!r} if m in sys.modules]}}), file=sys.stderr)
"""


def _loaded(argv: list[str]) -> tuple[int, list[str]]:
    """Run ``ubongo-cp ARGV`` in a fresh interpreter; its exit status and the heavy packages it imported."""
    proc = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv, heavy=HEAVY)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    report = json.loads(proc.stderr.strip().splitlines()[-1])
    return report["status"], report["loaded"]


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["solve", "--help"], ["booklet", "--help"],
                                  ["cards", "--help"], ["census", "--help"], ["orion", "analyze", "--help"]])
def test_parser_loads_no_heavy_package(argv):
    status, loaded = _loaded(argv)
    assert status == 0
    assert loaded == []


@pytest.mark.parametrize("argv", [["solve", "no-such-card.toml"],
                                  ["solve", "--pieces", "classic", "--region", "no-such-region.txt"],
                                  ["analyze", "--pieces", "duel", "--region", "no-such-region.txt", "--k", "3"]])
def test_bad_input_fails_before_numpy(argv):
    status, loaded = _loaded(argv)
    assert status == 2
    assert loaded == []


def test_dlx_paths_load_numpy_only():
    # A card task on the DLX path and a subset analysis: no CP-SAT, pandas, matplotlib, numba or Dask.
    status, loaded = _loaded(["solve", "puzzles/examples/classic_X1_easy.toml", "--face", "1"])
    assert status == 0 and loaded == ["numpy"]
    status, loaded = _loaded(["analyze", "--pieces", "duel", "--region", "puzzles/examples/duel_board1.txt",
                              "--k", "3"])
    assert status == 0 and loaded == ["numpy"]


def test_max_cells_raises_the_region_limit(tmp_path, capsys):
    from ubongo_cp.cli import main

    big = tmp_path / "band.txt"
    big.write_text(("#" * 21 + "\n") * 20)           # 420 cells: over the default limit of 400
    assert main(["solve", "--pieces", "tetrominoes", "--region", str(big), "--use", "I"]) == 2
    assert "over the limit of 400" in capsys.readouterr().err
    # Raised, the region is read and settled by the area check (4 cells of pieces, 420 of region).
    assert main(["solve", "--pieces", "tetrominoes", "--region", str(big), "--use", "I", "--max-cells", "420",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "no solution"
