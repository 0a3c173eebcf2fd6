"""Benchmark: identical pieces as items with multiplicities, whole process, per backend.

Run: ``.venv/bin/python -m benchmarks.bench_multiplicity [--repeat N] [--cpsat-limit S]``.

Each case is one ``ubongo-cp solve ... --count`` process (interpreter
start, imports, instance build, search, printing), timed from outside:

- ``tet2-8x5``: two sets of the five tetrominoes (``I4,I4,O4,O4,T4,T4,S4,S4,L4,L4``,
  classic names) in 8x5: 3,106 tilings, 783 up to symmetry;
- ``T52-16x13``: 52 T tetrominoes on the 13-column 208-cell band 16x13
  (no tiling: both sides of a T-tiled rectangle are multiples of 4);
- ``O16-8x8``: 16 O4 in 8x8 (one tiling).

The default backend (``dlx-symmetry``, falling back to plain ``dlx`` where
no piece type has one copy) runs ``--repeat`` times, interleaved with plain
``dlx``; the CNF backend (``sat``) and CP-SAT (``cpsat``) run once per case
with ``--time-limit`` (``--other-limit``; they enumerate slowly); medians
are reported with the load average before and after. This is the measurement behind the default
counting backend (:data:`ubongo_cp.solvers.DEFAULT_STRATEGY`). Files go to
``benchmarks/out/`` (untracked): the regions, ``bench_multiplicity.csv``
and ``bench_multiplicity.md``.
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "out"
CLI = Path(sys.executable).parent / "ubongo-cp"

CASES = {
    "tet2-8x5": ("classic", (8, 5), "I4,I4,O4,O4,T4,T4,S4,S4,L4,L4"),
    "T52-16x13": ("tetrominoes", (16, 13), ",".join(["T"] * 52)),
    "O16-8x8": ("classic", (8, 8), ",".join(["O4"] * 16)),
}
_COUNT = re.compile(r"^(\d+) solutions?|^no solution")


def _region(shape: tuple[int, int]) -> Path:
    path = OUT / f"rect_{shape[0]}x{shape[1]}.txt"
    path.write_text("\n".join("#" * shape[1] for _ in range(shape[0])) + "\n")
    return path


def _run(case: str, backend: str | None, time_limit: float | None) -> tuple[float, str]:
    pieces, shape, use = CASES[case]
    cmd = [str(CLI), "solve", "--pieces", pieces, "--region", str(_region(shape)), "--use", use, "--count"]
    if backend:
        cmd += ["--backend", backend]
    if time_limit:
        cmd += ["--time-limit", str(time_limit)]
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    seconds = time.perf_counter() - start
    return seconds, out.splitlines()[0] if out else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--other-limit", type=float, default=30.0, help="time limit of sat and cpsat (s)")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    load_before = os.getloadavg()[0]
    rows = []
    for case in CASES:  # warm the numba cache / OS file cache once
        _run(case, None, None)
    times: dict[tuple[str, str], list[float]] = {}
    lines: dict[tuple[str, str], str] = {}
    for _ in range(args.repeat):
        for case in CASES:
            for backend in ("default", "dlx"):
                seconds, line = _run(case, None if backend == "default" else backend, None)
                times.setdefault((case, backend), []).append(seconds)
                lines[(case, backend)] = line
    for case in CASES:
        for backend in ("sat", "cpsat"):
            seconds, line = _run(case, backend, args.other_limit)
            times[(case, backend)] = [seconds]
            lines[(case, backend)] = line
    load_after = os.getloadavg()[0]
    for (case, backend), ts in times.items():
        rows.append({"case": case, "backend": backend, "runs": len(ts), "median_s": round(statistics.median(ts), 3),
                     "min_s": round(min(ts), 3), "max_s": round(max(ts), 3), "output": lines[(case, backend)]})
    with open(OUT / "bench_multiplicity.csv", "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    md = [f"load average {load_before:.1f} before, {load_after:.1f} after; 2 cores; whole process "
          f"(`ubongo-cp solve ... --count`), median of {args.repeat} interleaved runs (sat, cpsat: one run, "
          f"--time-limit {args.other_limit:g})", "",
          "| case | backend | median s | min–max s | first output line |", "|---|---|--:|--:|---|"]
    md += [f"| {r['case']} | {r['backend']} | {r['median_s']} | {r['min_s']}–{r['max_s']} | {r['output']} |"
           for r in rows]
    (OUT / "bench_multiplicity.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    return 0


if __name__ == "__main__":
    sys.exit(main())
