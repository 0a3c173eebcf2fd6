"""Benchmark: whole-process times of the search kernel (C, numba) against xcover.

Run: ``.venv/bin/python -m benchmarks.bench_kernel [--repeat N] [--quick]``.

Two tables, each the median wall time (seconds) of ``--repeat`` interleaved
runs of fresh processes (every command once per round, in turn), so that the
load of a shared machine falls on all columns alike:

1. **Start-up**: ``ubongo-cp solve puzzles/examples/classic_X1_easy.toml
   --face 1`` (an 8-node search) on the C kernel and with
   ``UBONGO_CP_KERNEL=numba``; and a process that only imports
   :mod:`ubongo_cp.solvers.dancing` and counts a one-item instance (its
   in-process time is printed too).
2. **Count the 9,356 tilings of the 6x10 rectangle by the 12 pentominoes**:
   ``xcover`` called directly (``xcover.dancing_cells.algorithm_c``) with the
   standard reduction (the X pentomino restricted to one quadrant: 2,339
   covers, times 4); our default counting path ``ubongo-cp solve --pieces
   pentominoes --region <6x10> --count`` (strategy ``dlx-symmetry``: X at
   its orbit representatives, the same reduction); and the kernel alone
   (``dancing.count`` on the reduced instance), on C and on numba.

The numba caches are warmed first. Files (the region, the reduced instance)
are written to ``benchmarks/out/`` (untracked).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "out"
BIN = Path(sys.executable).parent

XCOVER = """
import numpy as np
from xcover.dancing_cells import algorithm_c
d = np.load({npz!r})
colors = np.zeros(len(d["indices"]), dtype=np.uint32)
n = sum(1 for _ in algorithm_c(d["indices"], d["indptr"], colors, np.uint32(d["n_items"]), np.uint32(0)))
print(4 * n)
"""

KERNEL = """
import numpy as np
from ubongo_cp.solvers import dancing
d = np.load({npz!r})
n, nodes, done = dancing.count(d["indptr"], d["indices"], int(d["n_items"]))
print(4 * n, nodes, dancing.KERNEL)
"""

IMPORT = """
import time
t = time.perf_counter()
from ubongo_cp.solvers import dancing
dancing.count([0, 1], [0], 1)
print(time.perf_counter() - t)
"""


def reduced_6x10() -> Path:
    """The 6x10 pentomino instance with X's placements cut to one quadrant, saved as .npz."""
    from ubongo_cp.cover import build_instance
    from ubongo_cp.pieces import Region, load_pieces

    inst = build_instance(load_pieces("pentominoes").pieces, Region.rectangle(6, 10))
    x = next(k for k, p in enumerate(inst.pieces) if p.name == "X")
    keep = []
    for o in range(inst.n_options):
        if inst.option_type[o] == x:
            rows = [r for r, _ in inst.option_cells(o)]
            cols = [c for _, c in inst.option_cells(o)]
            centre = (sum(rows) // 5, sum(cols) // 5)  # X is symmetric: its mean cell is its centre
            if not (centre[0] <= 2 and centre[1] <= 4):
                continue
        keep.append(o)
    opts = [inst.option_items(o) for o in keep]
    indptr = np.zeros(len(opts) + 1, dtype=np.uint32)
    indptr[1:] = np.cumsum([len(o) for o in opts])
    indices = np.concatenate(opts).astype(np.uint32)
    path = OUT / "pentominoes_6x10_x_quadrant.npz"
    np.savez(path, indptr=indptr, indices=indices, n_items=inst.n_items)
    return path


def _run(argv, env=None) -> tuple[float, str]:
    t0 = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, env={**os.environ, **(env or {})})
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        raise SystemExit(f"{argv} failed:\n{done.stderr}")
    return wall, done.stdout


def _table(commands: dict, repeat: int) -> dict:
    """Interleaved runs: {name: (walls, last stdout)}."""
    walls = {name: [] for name in commands}
    outs = {}
    for _ in range(repeat):
        for name, (argv, env) in commands.items():
            wall, out = _run(argv, env)
            walls[name].append(wall)
            outs[name] = out
    return {name: (walls[name], outs[name]) for name in commands}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="interleaved rounds (default 7)")
    parser.add_argument("--quick", action="store_true", help="3 rounds")
    args = parser.parse_args(argv)
    repeat = 3 if args.quick else args.repeat
    OUT.mkdir(parents=True, exist_ok=True)
    region = OUT / "rect_6x10.txt"
    region.write_text("\n".join(["#" * 10] * 6) + "\n")
    npz = str(reduced_6x10())
    py = sys.executable
    cli = str(BIN / "ubongo-cp")
    numba = {"UBONGO_CP_KERNEL": "numba"}
    c = {"UBONGO_CP_KERNEL": ""}
    # warm the numba caches (xcover's and ours) once
    _run([py, "-c", KERNEL.format(npz=npz)], numba)
    _run([py, "-c", XCOVER.format(npz=npz)])

    card = "puzzles/examples/classic_X1_easy.toml"
    start = _table({
        f"ubongo-cp solve {card} --face 1 (C)": ([cli, "solve", card, "--face", "1"], c),
        f"ubongo-cp solve {card} --face 1 (numba)": ([cli, "solve", card, "--face", "1"], numba),
        "import dancing + one count (C)": ([py, "-c", IMPORT], c),
        "import dancing + one count (numba)": ([py, "-c", IMPORT], numba),
    }, repeat)
    print(f"## Start-up (median of {repeat} interleaved runs)\n")
    print("| command | whole process (s) | in-process (ms) |")
    print("|---|---:|---:|")
    for name, (walls, out) in start.items():
        inner = f"{float(out) * 1000:.1f}" if name.startswith("import") else ""
        print(f"| {name} | {statistics.median(walls):.3f} | {inner} |")

    count = _table({
        "xcover algorithm_c, X in one quadrant, x4": ([py, "-c", XCOVER.format(npz=npz)], None),
        "ubongo-cp solve --count (dlx-symmetry, C)": (
            [cli, "solve", "--pieces", "pentominoes", "--region", str(region), "--count"], c),
        "kernel alone: dancing.count, X in one quadrant (C)": ([py, "-c", KERNEL.format(npz=npz)], c),
        "kernel alone: dancing.count, X in one quadrant (numba)": ([py, "-c", KERNEL.format(npz=npz)], numba),
    }, repeat)
    base = statistics.median(count["xcover algorithm_c, X in one quadrant, x4"][0])
    print(f"\n## Count the 6x10 pentomino tilings (median of {repeat} interleaved runs)\n")
    print("| command | tilings | whole process (s) | / xcover |")
    print("|---|---:|---:|---:|")
    for name, (walls, out) in count.items():
        first = out.split()[0] if out.split() else "?"
        print(f"| {name} | {first} | {statistics.median(walls):.3f} | {statistics.median(walls) / base:.2f} |")
    load = os.getloadavg()
    print(f"\nload average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} (2 cores, shared)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
