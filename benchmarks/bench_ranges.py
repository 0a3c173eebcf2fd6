"""Benchmark: one search over ranges of piece counts against one search per fixed multiset.

Run: ``.venv/bin/python -m benchmarks.bench_ranges [--repeat N]``.

Whole processes, interleaved rounds (:func:`benchmarks.peers.rounds`), wall and CPU seconds, medians,
the load average before and after:

- ``ranges-5x6``: I2 0-4, L3 0-3, T4 0-2, L4 0-2, O4 0-2, S4 0-2 (classic names) in the 5x6 rectangle,
  2,926,922 tilings: ``solve --use I2:0-4,... --count`` on the default solver and on ``zdd``, against
  one process that builds and counts every multiset of area 30 in the ranges on the default solver
  (with the orbit decomposition each) and sums;
- ``burrs``: BurrTools' ``SolidSixPieceBurrs`` example (25 sticks, each 0 to 6 times, 104 cubes;
  12,597 assemblies, 588 up to symmetry), on the default solver and on ``zdd``.

Every run's count is checked. Files: ``benchmarks/out/bench_ranges.md`` (untracked).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from pathlib import Path

from benchmarks.peers import Run, load, median, rounds

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "out"
CLI = Path(sys.executable).parent / "ubongo-cp"
RANGES = {"I2": (0, 4), "L3": (0, 3), "T4": (0, 2), "L4": (0, 2), "O4": (0, 2), "S4": (0, 2)}
BURRS = ROOT / "tests" / "data" / "burrtools" / "public" / "SolidSixPieceBurrs.xmpuzzle"
EXPECTED = {"ranges-5x6": 2926922, "burrs": 12597}


def multiset_sum() -> int:
    """The 5x6 count as the sum over every fixed multiset of area 30 in :data:`RANGES` (this process)."""
    from ubongo_cp.cover import build_instance
    from ubongo_cp.pieces import Region, load_pieces
    from ubongo_cp.solvers import solve

    pieces, region, total = load_pieces("classic"), Region.rectangle(5, 6), 0
    for ks in itertools.product(*(range(lo, hi + 1) for lo, hi in RANGES.values())):
        chosen = [pieces[n] for n, k in zip(RANGES, ks) for _ in range(k)]
        if sum(p.size for p in chosen) == region.area:
            total += solve(build_instance(chosen, region), keep=0).count
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sum", action="store_true", help=argparse.SUPPRESS)  # the multiset-sum process
    args = parser.parse_args(argv)
    if args.sum:
        print(json.dumps({"count": multiset_sum()}))
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    region = OUT / "rect_5x6.txt"
    region.write_text("######\n" * 5)
    use = ",".join(f"{n}:{lo}-{hi}" for n, (lo, hi) in RANGES.items())
    solve = [CLI, "solve", "--pieces", "classic", "--region", region, "--use", use, "--count", "--json",
             "--max-solutions", "0"]
    burrs = [CLI, "solve", BURRS, "--count", "--json", "--max-solutions", "0"]
    commands = {
        "ranges-5x6 one search (default)": (solve, None, (0,)),
        "ranges-5x6 one search (zdd)": (solve + ["--backend", "zdd"], None, (0,)),
        "ranges-5x6 sum over multisets (default)": ([sys.executable, "-m", "benchmarks.bench_ranges", "--sum"],
                                                    None, (0,)),
        "burrs (default)": (burrs, None, (0,)),
        "burrs (zdd)": (burrs + ["--backend", "zdd"], None, (0,)),
    }

    def check(name: str, run: Run) -> None:
        count = json.loads(run.out)["count"]
        if count != EXPECTED[name.split()[0]]:
            raise SystemExit(f"{name}: count {count}, expected {EXPECTED[name.split()[0]]}")

    before = load()
    runs = rounds(commands, args.repeat, check)
    lines = [f"load average before {before}, after {load()}; medians of {args.repeat} interleaved runs",
             "", "| case | wall s | CPU s |", "|---|---:|---:|"]
    lines += [f"| {name} | {median(r, 'wall'):.2f} | {median(r, 'cpu'):.2f} |" for name, r in runs.items()]
    text = "\n".join(lines) + "\n"
    (OUT / "bench_ranges.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
