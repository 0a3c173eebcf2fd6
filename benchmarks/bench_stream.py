"""Benchmark: the memory of a count does not grow with the number of solutions (issue 13).

Run: ``.venv/bin/python -m benchmarks.bench_stream [--quick]``; writes
``benchmarks/out/bench_stream.csv`` and prints a Markdown table.

Cases (published counts, checked here): the 12 pentominoes in 6x10, 9,356
tilings (2,339 up to symmetry); the 12 pentominoes and the O tetromino in
8x8, the square anywhere, 129,168 tilings (16,146 up to symmetry; Dana
Scott's problem, counted by C. B. and J. Haselgrove, 1960, and in Knuth's
"Dancing Links", 2000).

Each case runs in a fresh process (peak resident memory, ``ru_maxrss``, is a
high-water mark of the whole process) in four ways:

- ``count``: ``solve(instance, keep=0)``, the library's count;
- ``cli-json``: ``ubongo-cp solve --count --json`` (at most 20 solutions printed and held);
- ``cli-json-all``: the same with ``--max-solutions all`` (every solution
  streamed to /dev/null, none held);
- ``keep-all``: ``solve(instance)`` keeping every solution as option lists
  and dicts, which is what ``solve --count --json`` did before.

Figures: peak RSS in MB and wall seconds of the search (the shared machine
makes times noisy; the memory figures are what this benchmark is about).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"
CASES = {"6x10": ((6, 10), False, 9356, 2339), "8x8+O4": ((8, 8), True, 129168, 16146)}
MODES = ("count", "cli-json", "cli-json-all", "keep-all")


def _pieces_file(with_o4: bool) -> Path:
    """The pentominoes (and the O tetromino) as a piece-set file in benchmarks/out/."""
    from ubongo_cp.pieces import load_pieces

    OUT.mkdir(exist_ok=True)
    path = OUT / ("pentominoes_o4.txt" if with_o4 else "pentominoes.txt")
    pieces = list(load_pieces("pentominoes").pieces)
    if with_o4:
        pieces += [p for p in load_pieces("tetrominoes").pieces if p.name == "O"]
    path.write_text("\n\n".join(str(p) for p in pieces) + "\n")
    return path


def _child(case: str, mode: str) -> None:
    """Run one measurement in this (fresh) process; print a JSON line."""
    from ubongo_cp.cover import build_instance
    from ubongo_cp.pieces import Region, load_pieces
    from ubongo_cp.solvers import solve, warm

    (h, w), with_o4, _, _ = CASES[case]
    pieces_path = _pieces_file(with_o4)
    warm(["dlx-symmetry"])
    start = time.perf_counter()
    if mode.startswith("cli"):
        from ubongo_cp.cli import main

        region = OUT / f"rect_{h}x{w}.txt"
        region.write_text("\n".join("#" * w for _ in range(h)) + "\n")
        argv = ["solve", "--pieces", str(pieces_path), "--region", str(region), "--count", "--json"]
        if mode == "cli-json-all":
            argv += ["--max-solutions", "all"]
        stdout = sys.stdout
        with open(os.devnull, "w") as sink:
            sys.stdout = sink
            try:
                main(argv)
            finally:
                sys.stdout = stdout
        count = reduced = None
    else:
        instance = build_instance(load_pieces(str(pieces_path)).pieces, Region.rectangle(h, w))
        result = solve(instance, keep=0 if mode == "count" else None)
        count, reduced = result.count, result.count_reduced
    seconds = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # kB on Linux
    print(json.dumps({"case": case, "mode": mode, "count": count, "count_reduced": reduced,
                      "seconds": round(seconds, 2), "peak_rss_mb": round(rss, 1)}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only 6x10")
    parser.add_argument("--child", nargs=2, metavar=("CASE", "MODE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(*args.child)
        return
    rows = []
    for case in (["6x10"] if args.quick else list(CASES)):
        for mode in MODES:
            out = subprocess.run([sys.executable, "-m", "benchmarks.bench_stream", "--child", case, mode],
                                 capture_output=True, text=True, check=True).stdout
            row = json.loads(out.strip().splitlines()[-1])
            _, _, fixed, reduced = CASES[case]
            if row["count"] is not None and (row["count"], row["count_reduced"]) != (fixed, reduced):
                raise SystemExit(f"{case}: counted {row['count']}/{row['count_reduced']}, "
                                 f"published {fixed}/{reduced}")
            rows.append(row)
    OUT.mkdir(exist_ok=True)
    with open(OUT / "bench_stream.csv", "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print("| case | mode | peak RSS (MB) | seconds |")
    print("|---|---|---:|---:|")
    for row in rows:
        print(f"| {row['case']} | {row['mode']} | {row['peak_rss_mb']} | {row['seconds']} |")


if __name__ == "__main__":
    main()
