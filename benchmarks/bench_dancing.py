"""Benchmark: the toolkit's Algorithm X engine (ubongo_cp.solvers.dancing) vs xcover.

Run: ``cd /work/main && .venv/bin/python -m benchmarks.bench_dancing [--quick] [--csv]``.

Cases
-----
- 12 pentominoes in a 6x10 rectangle, count all 9356 covers (target: the
  engine's ``count`` at least as fast as xcover's Algorithm C);
- subsets of the 21 Ubongo Duel pieces tiling a 28-cell region, piece items
  secondary (``build_instance(..., optional_pieces=True)``): a 4x7 rectangle
  and an irregular 28-cell region.

Each figure is the median wall time (seconds) of ``--repeat`` runs (3 by
default, 1 with ``--quick``), after one warm-up call that loads the compiled
code. The machine is shared: expect noise, compare columns of one run.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np

from ubongo_cp.cover import build_instance
from ubongo_cp.pieces import Region, load_pieces
from ubongo_cp.solvers.dancing import count, search

IRREGULAR_28 = """\
..####..
.######.
########
.######.
..####..
"""


def _xcover(inst):
    from xcover.dancing_cells import algorithm_c

    colors = np.zeros(len(inst.indices), dtype=np.uint32)
    return sum(1 for _ in algorithm_c(inst.indices, inst.indptr, colors, np.uint32(inst.n_items),
                                      np.uint32(inst.n_secondary)))


def _median_time(fn, repeat):
    """Median (wall seconds, CPU seconds of this process) over ``repeat`` runs, and the result."""
    walls, cpus, result = [], [], None
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        result = fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return (statistics.median(walls), statistics.median(cpus)), result


def cases():
    yield "pentominoes 6x10", build_instance(load_pieces("pentominoes").pieces, Region.rectangle(6, 10))
    duel = load_pieces("duel").pieces
    yield "duel subsets 4x7", build_instance(duel, Region.rectangle(4, 7), optional_pieces=True)
    region = Region.from_ascii(IRREGULAR_28)
    assert region.area == 28, region.area
    yield "duel subsets irregular-28", build_instance(duel, region, optional_pieces=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one run per figure")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--csv", action="store_true", help="write benchmarks/out/bench_dancing.csv")
    args = parser.parse_args(argv)
    repeat = 1 if args.quick else args.repeat

    rows = []
    for name, inst in cases():
        arrays = (inst.indptr, inst.indices, inst.n_items, inst.n_secondary)
        count(*arrays, node_limit=1)  # load the compiled code
        _xcover(build_instance(load_pieces("tetrominoes").pieces[:1], Region.rectangle(1, 4)))
        t_count, (n, nodes, _) = _median_time(lambda: count(*arrays), repeat)

        def run_search():
            return sum(1 for o, _ in search(*arrays) if o is not None)

        t_search, n_search = _median_time(run_search, repeat)
        t_x, n_x = _median_time(lambda: _xcover(inst), repeat)
        if not n == n_search == n_x:
            raise SystemExit(f"{name}: counts disagree: count={n} search={n_search} xcover={n_x}")
        rows.append((name, inst.n_options, n, nodes, t_count, t_search, t_x))

    print("| case | options | solutions | nodes | dancing.count wall/CPU (s) | dancing.search wall/CPU (s) "
          "| xcover wall/CPU (s) | count / xcover (CPU) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, n_opt, n, nodes, tc, ts, tx in rows:
        print(f"| {name} | {n_opt} | {n} | {nodes} | {tc[0]:.2f} / {tc[1]:.2f} | {ts[0]:.2f} / {ts[1]:.2f} "
              f"| {tx[0]:.2f} / {tx[1]:.2f} | {tc[1] / tx[1]:.2f} |")
    print(f"\nmedian of {repeat} run(s); target: 6x10 count time <= xcover time")
    if args.csv:
        out = Path(__file__).resolve().parent / "out" / "bench_dancing.csv"
        out.parent.mkdir(parents=True, exist_ok=True)
        with out.open("w") as f:
            f.write("case,options,solutions,nodes,count_wall_s,count_cpu_s,search_wall_s,search_cpu_s,"
                    "xcover_wall_s,xcover_cpu_s\n")
            for name, n_opt, n, nodes, tc, ts, tx in rows:
                times = [f"{v:.4f}" for v in (*tc, *ts, *tx)]
                f.write(",".join([name, str(n_opt), str(n), str(nodes), *times]) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
