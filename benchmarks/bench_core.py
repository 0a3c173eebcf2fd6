"""Core benchmark (issue: core): one classic task, pentomino 6x10, subset analysis.

Run: ``python -m benchmarks.bench_core [--quick]``. Prints a Markdown table
and writes ``benchmarks/out/core.csv``.

Figures
-------
- a classic 4-piece task (the shipped deck's card 01, hard side, face 1):
  first solution and full count, *instance build included*, median of 50
  runs in one warm process, per backend (target: < 20 ms for the fastest);
- pentomino 6x10 count-all (9356) per backend, and xcover called directly on
  the same options (target: ``dlx`` within 1.3x of xcover direct), and the
  default counting strategy (``dlx-symmetry``);
- ``ubongo-cp analyze`` of a 28-cell Duel-style region (4x7) with K = 5
  (7,425 subsets of matching area) as a whole process, wall time including
  interpreter start and imports (target: < 1.5 s), median of 3.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from ubongo_cp.cards import load_card
from ubongo_cp.cover import build_instance, task_instance
from ubongo_cp.pieces import Region, load_pieces
from ubongo_cp.solvers import solve

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "out"


def _median(fn, repeat):
    times = []
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def _xcover_direct(inst):
    from xcover.dancing_cells import algorithm_c

    colors = np.zeros(len(inst.indices), dtype=np.uint32)
    return sum(1 for _ in algorithm_c(inst.indices, inst.indptr, colors, np.uint32(inst.n_items), np.uint32(0)))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    args = ap.parse_args(argv)
    rep_small, rep_big = (20, 1) if args.quick else (50, 3)
    rows = []
    card = load_card(ROOT / "puzzles" / "decks" / "classic" / "01_hard.toml")
    for backend in ("cpsat", "dlx", "xcover"):
        solve(task_instance(card, 1), backend=backend)  # warm-up (loads compiled code)
        t_first, _ = _median(lambda: solve(task_instance(card, 1), backend=backend, limit=1), rep_small)
        t_all, r = _median(lambda: solve(task_instance(card, 1), backend=backend), rep_small)
        rows.append(("classic task 01 hard face 1, first solution", backend, t_first * 1e3, "ms", 1))
        rows.append(("classic task 01 hard face 1, count all", backend, t_all * 1e3, "ms", r.count))
    pents = load_pieces("pentominoes").pieces
    inst = build_instance(pents, Region.rectangle(6, 10))
    # None = the toolkit's default counting strategy (dlx-symmetry); plain cpsat
    # needs minutes here, cpsat-symmetry-split is the best CP-SAT strategy.
    backends = ("dlx", "xcover", None) if args.quick else ("dlx", "xcover", None, "cpsat-symmetry-split")
    for backend in backends:
        t, r = _median(lambda: solve(inst, backend=backend, keep=0), rep_big)
        rows.append(("pentominoes 6x10, count all", backend or "default (dlx-symmetry)", t, "s", r.count))
    t, n = _median(lambda: _xcover_direct(inst), rep_big)
    rows.append(("pentominoes 6x10, count all", "xcover direct", t, "s", n))
    region = RESULTS / "region_4x7.txt"
    RESULTS.mkdir(parents=True, exist_ok=True)
    region.write_text(Region.rectangle(4, 7).to_ascii() + "\n")
    cmd = [sys.executable, "-m", "ubongo_cp.cli", "analyze", "--pieces", "duel", "--region", str(region),
           "--k", "5", "--json"]
    subprocess.run(cmd, check=True, capture_output=True)  # warm the compile cache
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        times.append(time.perf_counter() - t0)
    import json

    rows.append(("analyze 4x7 Duel region, K=5 (7,425 subsets), whole process", "dlx",
                 statistics.median(times), "s", len(json.loads(out))))
    print("| case | backend | time | unit | count |\n|---|---|---:|---|---:|")
    for case, backend, t, unit, count in rows:
        print(f"| {case} | {backend} | {t:.3f} | {unit} | {count} |")
    import pandas as pd

    pd.DataFrame(rows, columns=["case", "backend", "time", "unit", "count"]).to_csv(RESULTS / "core.csv", index=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
