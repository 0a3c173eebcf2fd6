"""Benchmark: placements on every grid, and the square grid against an earlier checkout of the toolkit.

Run ``python -m benchmarks.bench_grids [--repeats N] [--compare-with DIR]``.

1. *Placements per grid*: :func:`ubongo_cp.cover.build_instance`, CPU and
   wall time per placement (median of ``--repeats`` runs, the grids
   interleaved; a run is ``--builds`` builds in a row, each instance dropped
   before the next as a deck or a census drops it: a single build of a
   fraction of a millisecond is timed as much by the C library's memory (the
   pages of a fresh allocation) as by the build), cold (the pieces' orientations and the region's layout
   computed too: every cache of placement generation emptied), new region (the pieces' orientations kept,
   the region's layout computed: a deck's card sides, a generator's candidate regions) and warm
   (cached, as in a deck or a census). First like for like: every free polyform of 5 cells
   (12 pentominoes, 22 pentahexes, 4 pentiamonds, 29 pentacubes) in a
   region of 120 cells (10x12, a 10x12 parallelogram, a 6x10 parallelogram
   of triangles, 4x5x6), and the pentominoes in 6x6 (1,024 placements: an instance's fixed cost
   weighs on few placements, and the 4 pentiamonds have 1,478 in their 120 cells against 5,116 for
   the 12 pentominoes); then one puzzle per grid (the 12 pentominoes in
   6x10, the 12 hexiamonds in the 6x6 rhombus, the 22 pentahexes in a 10x11
   parallelogram, the 8 tetracubes in 2x4x4); then like for like by instance size
   (:data:`MATCHED`): each other grid's 5-cell polyforms against the pentominoes in a rectangle
   holding about as many placements, the ratio of their µs per placement (the median over the runs of
   each run's ratio). Target: hexagons and
   triangles at least as fast per placement as squares. Each case is built once untimed before its
   cold build: the C library gives the heap's free top back to the system when it grows large (glibc's
   trim threshold), so the first large case after the largest one would otherwise pay for growing it
   again, page by page, and the order of the cases would weigh on the figures.
2. *Squares, before and after* (``--compare-with DIR``: a checkout of the
   revision to compare with, e.g. ``git worktree add /tmp/base HEAD~1``; its
   ``ubongo_cp/solvers/_dance*.so`` is used if built there): the same square
   workloads run in fresh processes, alternating the two trees run by run,
   each reporting its CPU and wall time: building every task instance of the
   classic deck, building the 14,260 placements of the pentominoes in 16x18
   20 times, the 6x10 pentomino count (9356, ``dlx-symmetry``), the
   subset analysis of a 4x7 Duel region (K = 5), drawing 4 booklet pages,
   rating the 72 tasks of the first 12 classic card sides as a batch does
   (``rate_card_side``: instance, search, rating) and the colouring
   pre-check of every classic task. Ratios are medians of after / before
   per workload, CPU and wall. Compile both trees' bytecode first
   (``python -m compileall ubongo_cp``) where ``PYTHONDONTWRITEBYTECODE`` is
   set: a tree without it compiles the toolkit in every process, which leaves
   free heap that the large tables then reuse (1,846 page faults a run of the
   twenty 16x18 builds against 2,830 for the same code compiled: the
   workload read 1.08-1.13x against such a tree).

3. *Instructions per placement* (``--instructions``: needs valgrind): each case of :data:`MATCHED` built
   ``--builds`` times of each kind in a fresh process under callgrind, less the same process without the
   builds, divided by the builds and the placements; then each pair's ratio, as in 1. A process's count is the
   same from run to run (address randomisation off with ``setarch -R`` where it exists, hash seed 0, and one
   thread for numpy's linear algebra library: its idle threads otherwise add about a million instructions a
   process, differently each run, and the same environment variables, :func:`counted_environment`), whatever
   the machine's load or the caller's environment; two checkouts, even of the same code, may
   differ by a few per cent a placement (the memory allocators' state: their own instructions, and the
   moments the garbage collector runs: the hexagons in 5x6, new region, read 203.6 to 206.7 in seven layouts
   of one tree, the squares in 6x8 211.2 to 213.3, and a change to the region's C pass moved the warm
   triangles in 6x10, which it does not run, from 142.6 to 139.3). ``--layouts K`` counts each case in K
   layouts (the process's environment padded, :func:`counted_environment`) and takes the median, which a
   layout's luck moves less; a small change is still read in the counts of the functions it touches
   (``callgrind_annotate``) rather than in these totals. The C library's copies count about one
   instruction a byte (``rep movsb``: the zeroed table's ``array * n``), which in time are much cheaper.

The load average is printed with the figures; results go to
``benchmarks/out/grids.csv`` (untracked).
"""

from __future__ import annotations

import argparse
import csv
import gc
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "out"

# One workload per line: name -> Python source run in a fresh interpreter with the tree on sys.path.
SQUARE_WORKLOADS = {
    "build classic deck": (
        "from ubongo_cp.cards import load_deck\nfrom ubongo_cp.cover import task_instance\n"
        "cards, _ = load_deck('classic')\n"
        "RUN = lambda: [task_instance(c, f) for c in cards for f in c.tasks]"),
    "build 16x18 pentominoes": (
        "from ubongo_cp.pieces import load_pieces, Region\nfrom ubongo_cp.cover import build_instance\n"
        "pieces, region = load_pieces('pentominoes').pieces, Region.rectangle(16, 18)\n"
        "RUN = lambda: [build_instance(pieces, region) for _ in range(20)]"),
    "count 6x10 pentominoes": (
        "from ubongo_cp.pieces import load_pieces, Region\nfrom ubongo_cp.cover import build_instance\n"
        "from ubongo_cp.solvers import solve, warm\nwarm(['dlx-symmetry'])\n"
        "RUN = lambda: solve(build_instance(load_pieces('pentominoes').pieces, Region.rectangle(6, 10)),"
        " backend='dlx-symmetry', limit=None)"),
    "analyze duel 4x7 K=5": (
        "from ubongo_cp.pieces import load_pieces, Region\nfrom ubongo_cp.analyze import analyze\n"
        "from ubongo_cp.solvers import warm\nwarm(['dlx'])\n"
        "RUN = lambda: analyze(load_pieces('duel').pieces, Region.rectangle(4, 7), 5, backend='dlx')"),
    "draw 4 booklet pages": (
        "from ubongo_cp.cards import load_deck\nfrom ubongo_cp.report import load_tasks\n"
        "from ubongo_cp.shipped import deck_tasks_path\nfrom ubongo_cp.booklet import task_views\n"
        "from ubongo_cp.booklet.page import render_page\n"
        "cards, _ = load_deck('classic'); table = load_tasks(deck_tasks_path('classic'))\n"
        "views = [task_views(c, table) for c in cards[:4]]\n"
        "RUN = lambda: [render_page(c, v) for c, v in zip(cards[:4], views)]"),
    "rate 72 classic tasks": (
        "from ubongo_cp.cards import load_deck\nfrom ubongo_cp.batch import rate_card_side\n"
        "from ubongo_cp.solvers import warm\nwarm(['dlx'])\ncards, _ = load_deck('classic')\n"
        "RUN = lambda: [rate_card_side(c, sorted(c.tasks)) for c in cards[:12]]"),
    "pre-check classic deck": (
        "from ubongo_cp.cards import load_deck\nfrom ubongo_cp.cover import task_instance\n"
        "cards, _ = load_deck('classic')\ninstances = [task_instance(c, f) for c in cards for f in c.tasks]\n"
        "RUN = lambda: [i.precheck() for i in instances]"),
}

_RUNNER = """
import json, sys, time
sys.path.insert(0, {root!r})
{setup}
RUN()                                   # warm: imports, caches, compiled kernels
c0, w0 = time.process_time(), time.perf_counter()
for _ in range({inner}):
    RUN()
print(json.dumps({{"cpu": (time.process_time() - c0) / {inner}, "wall": (time.perf_counter() - w0) / {inner},
                   "where": __import__("ubongo_cp").__file__}}))
"""


def _run_workload(tree: Path, setup: str, inner: int) -> dict:
    code = _RUNNER.format(root=str(tree), setup=setup, inner=inner)
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tree, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def compare(base: Path, repeats: int, inner: int, only: str | None = None) -> list[dict]:
    """The square workloads (those whose name holds ``only``) on ``base`` and on this tree, alternating;
    medians and ratios."""
    rows = []
    for name, setup in SQUARE_WORKLOADS.items():
        if only and only not in name:
            continue
        runs = {"before": [], "after": []}
        for k in range(repeats):
            order = [("before", base), ("after", ROOT)] if k % 2 == 0 else [("after", ROOT), ("before", base)]
            for label, tree in order:
                result = _run_workload(tree, setup, inner)
                assert Path(result["where"]).resolve().is_relative_to(tree.resolve()), result["where"]
                runs[label].append(result)
        row = {"workload": name}
        for what in ("cpu", "wall"):
            before = statistics.median(r[what] for r in runs["before"])
            after = statistics.median(r[what] for r in runs["after"])
            row[f"{what}_before_s"], row[f"{what}_after_s"] = before, after
            row[f"{what}_ratio"] = after / before
        rows.append(row)
        print(f"| {name} | {row['cpu_before_s']:.4f} | {row['cpu_after_s']:.4f} | {row['cpu_ratio']:.3f} | "
              f"{row['wall_before_s']:.4f} | {row['wall_after_s']:.4f} | {row['wall_ratio']:.3f} |", flush=True)
    return rows


#: Like for like by instance size: every free polyform of 5 cells on another grid, and on squares in a
#: rectangle holding about as many placements (an instance's fixed cost, its region's layout and some
#: numpy calls, then weighs alike on both): (other grid's case, square case).
#: The kinds of build timed per case: cold, new region, warm (module docstring).
KINDS = ("cold", "new_region", "warm")

MATCHED = [(("triangle", "5 cells", (6, 10)), ("square", "5 cells", (6, 8))),          # 1,478 / 1,540
           (("triangle", "5 cells", (10, 18)), ("square", "5 cells", (10, 12))),       # 5,246 / 5,116
           (("hex", "5 cells", (5, 6)), ("square", "5 cells", (6, 8))),                # 1,782 / 1,540
           (("hex", "5 cells", (10, 12)), ("square", "5 cells", (16, 18))),            # 13,770 / 14,260
           (("cube", "5 cells", (4, 5, 6)), ("square", "5 cells", (21, 22)))]          # 23,976 / 24,142


def matched(rows: list[dict], times: dict) -> list[dict]:
    """The :data:`MATCHED` pairs: µs per placement of the other grid over that of squares, each kind of build (CPU):
    the median over the runs of the ratio within each run (the two cases measured moments apart, so that a
    change of the machine's load between runs weighs on both)."""
    by_case = {(r["grid"], r["pieces"], r["region"]): r for r in rows}
    out = []
    for other, square in MATCHED:
        a, b = (by_case[g, p, "x".join(map(str, box))] for g, p, box in (other, square))
        row = {"pair": f"{a['grid']} {a['region']} / square {b['region']}",
               "placements": f"{a['placements']} / {b['placements']}"}
        per = b["placements"] / a["placements"]
        for kind in KINDS:
            row[f"ratio_cpu_{kind}"] = statistics.median(
                x[0] / y[0] * per for x, y in zip(times[other, kind], times[square, kind]))
        out.append(row)
        print(f"| {row['pair']} | {row['placements']} | "
              + " | ".join(f"{row[f'ratio_cpu_{kind}']:.2f}" for kind in KINDS) + " |", flush=True)
    return out


def made_case(case: tuple) -> tuple[list, object]:
    """The pieces and the region of a case (grid, pieces: "5 cells" for every free polyform of 5 cells, else a
    shipped set's name, box)."""
    from ubongo_cp.grids import get_grid
    from ubongo_cp.pieces import Piece, Region, load_pieces
    from ubongo_cp.polyforms import free_polyforms

    grid, name, box = case
    pieces = [Piece(f"P{i}", s, get_grid(grid)) for i, s in enumerate(free_polyforms(grid, 5))] \
        if name == "5 cells" else list(load_pieces(name).pieces)
    return pieces, Region.box(*box, grid=grid, max_cells=10_000)


def forget(kind: str) -> None:
    """Empty the caches a build of this kind computes again (module docstring): cold, the pieces' orientations
    and the region's layout; new region, the layout."""
    from ubongo_cp import cover
    from ubongo_cp import pieces as pieces_module

    if kind == "cold":
        pieces_module._ORIENT_CACHE.clear()
        cover._FORMS.clear()
    if kind != "warm":
        cover._REGIONS.clear()


def placements(repeats: int, builds: int = 10) -> tuple[list[dict], dict]:
    """CPU microseconds per placement of one instance per grid, the grids interleaved; and every run's
    (CPU, wall) seconds per build by case and kind, a run being ``builds`` builds in a row (each instance
    dropped before the next, as a deck or a census drops each task's instance)."""
    from ubongo_cp.cover import build_instance

    cases = list(dict.fromkeys([("square", "5 cells", (10, 12)), ("hex", "5 cells", (10, 12)), ("triangle", "5 cells", (6, 10)),
             ("cube", "5 cells", (4, 5, 6)), ("square", "5 cells", (6, 6)), ("square", "pentominoes", (6, 10)),
             ("triangle", "hexiamonds", (6, 6)), ("hex", "pentahexes", (10, 11)), ("cube", "tetracubes", (2, 4, 4)),
             *(case for pair in MATCHED for case in pair)]))
    made = {case: made_case(case) for case in cases}
    times: dict[tuple, list[tuple[float, float]]] = {(case, kind): [] for case in cases for kind in KINDS}
    options = {}
    for _ in range(repeats):
        for case in cases:
            pieces, region = made[case]
            inst = None
            inst = build_instance(pieces, region)   # untimed: the heap grown to this case's size (module docstring)
            options[case] = inst.n_options
            inst = None   # the previous instance freed before the clock, not charged to the builds
            gc.collect()
            for kind in KINDS:
                cpu = wall = 0.0
                for _ in range(builds):
                    forget(kind)   # cold: the pieces' orientations and the region's layout are part of the work
                    c0, w0 = time.process_time(), time.perf_counter()
                    build_instance(pieces, region)   # warm: after the cold build, as in a deck or a census
                    cpu, wall = cpu + time.process_time() - c0, wall + time.perf_counter() - w0
                times[case, kind].append((cpu / builds, wall / builds))
    rows = []
    for case in cases:
        grid, pieces, box = case
        n = options[case]
        row = {"grid": grid, "pieces": pieces, "region": "x".join(map(str, box)), "placements": n}
        for kind in KINDS:
            for i, what in enumerate(("cpu", "wall")):
                t = statistics.median(x[i] for x in times[case, kind])
                row[f"{what}_{kind}_s"] = t
                row[f"us_per_placement_{what}_{kind}"] = 1e6 * t / n
        rows.append(row)
        print(f"| {grid} | {pieces} | {row['region']} | {n} | " + " | ".join(
            f"{row[f'us_per_placement_{what}_{kind}']:.3f}" for kind in KINDS for what in ("cpu", "wall"))
            + " |", flush=True)
    return rows, times


def build_loop(spec: str) -> None:
    """``--build-loop GRID/PIECES/BOX/KIND/N`` (BOX as 10x12): the process that :func:`instructions` counts: the
    case built once of each kind (the heap grown and the imports done, as :func:`placements` does before its
    clock), then N builds of the kind, the objects made so far frozen out of the garbage collector's passes
    (whose passes over the imported modules' objects fall at moments that vary with the allocators' state)."""
    from ubongo_cp.cover import build_instance

    grid, name, box, kind, n = spec.split("/")
    pieces, region = made_case((grid, name, tuple(map(int, box.split("x")))))
    for first in KINDS:
        forget(first)
        build_instance(pieces, region)
    gc.collect()
    gc.freeze()
    try:
        for _ in range(int(n)):
            forget(kind)
            build_instance(pieces, region)
    finally:
        gc.unfreeze()


def _instructions_of(spec: str, layout: int = 0) -> int:
    """The instructions callgrind counts in a process of :func:`build_loop` (deterministic: module docstring), in
    memory layout number ``layout`` (:func:`counted_environment`)."""
    fixed = ["setarch", "-R"] if shutil.which("setarch") else []
    out = subprocess.run([*fixed, "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                          "-m", "benchmarks.bench_grids", "--build-loop", spec],
                         capture_output=True, text=True, env=counted_environment(layout), cwd=ROOT, check=True)
    return refs(out.stderr)


def counted_environment(layout: int = 0) -> dict[str, str]:
    """The environment of a process :func:`_instructions_of` counts: these variables alone, whatever the caller's.
    The interpreter copies every variable onto its heap (``os.environ``), which moves the addresses of what it
    makes next, and the count with them (the dicts keyed by ids probe differently, the allocators take other
    paths): an extra variable of 100 characters moved the warm hexagons in 10x12 from 97.75 to 97.46 instructions
    a placement. No bytecode is written, so that the process counted first does not leave the others a compiled
    module to load in its place. Layout ``k`` > 0 adds one variable of ``64 * k`` characters: another memory
    layout of the same process (``--layouts``)."""
    env = {"PATH": os.environ.get("PATH", os.defpath), "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0",
           "PYTHONDONTWRITEBYTECODE": "1", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    if layout:
        env["UBONGO_CP_BENCH_LAYOUT"] = "x" * (64 * layout)
    return env


def refs(report: str) -> int:
    """The instructions of valgrind's report (its ``I refs:`` line, thousands separated by commas)."""
    found = re.search(r"I\s+refs:\s+([\d,]+)", report)
    if found is None:
        raise ValueError("no instruction count in valgrind's report")
    return int(found[1].replace(",", ""))


def instructions(builds: int, layouts: int = 1) -> list[dict]:
    """Instructions per placement of each case of :data:`MATCHED` and kind of build (``builds`` builds in a
    process, less none; the median over ``layouts`` memory layouts, :func:`counted_environment`), and each pair's
    ratio, other grid over squares."""
    from ubongo_cp.cover import build_instance

    per: dict[tuple, float] = {}
    for case in dict.fromkeys(case for pair in MATCHED for case in pair):
        n = build_instance(*made_case(case)).n_options
        spec = "/".join([case[0], case[1], "x".join(map(str, case[2]))])
        bases = [_instructions_of(f"{spec}/cold/0", layout) for layout in range(layouts)]
        for kind in KINDS:
            per[case, kind] = statistics.median(
                (_instructions_of(f"{spec}/{kind}/{builds}", layout) - base) / builds / n
                for layout, base in enumerate(bases))
        print(f"| {case[0]} | {spec.split('/')[-1]} | {n} | "
              + " | ".join(f"{per[case, kind]:.1f}" for kind in KINDS) + " |", flush=True)
    rows = []
    print("\n| like for like, instructions | cold, ratio to squares | new region | warm |\n|---|--:|--:|--:|")
    for other, square in MATCHED:
        row = {"pair": f"{other[0]} {'x'.join(map(str, other[2]))} / square {'x'.join(map(str, square[2]))}"}
        row.update({f"ratio_instructions_{kind}": per[other, kind] / per[square, kind] for kind in KINDS})
        rows.append(row)
        print(f"| {row['pair']} | " + " | ".join(f"{row[f'ratio_instructions_{kind}']:.3f}" for kind in KINDS)
              + " |", flush=True)
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=7, help="runs per measurement (default 7)")
    ap.add_argument("--inner", type=int, default=3, help="workload repetitions inside one process (default 3)")
    ap.add_argument("--compare-with", metavar="DIR", type=Path,
                    help="a checkout of the revision to compare the square workloads with")
    ap.add_argument("--only", metavar="TEXT", help="compare only the square workloads whose name holds TEXT")
    ap.add_argument("--no-placements", action="store_true", help="skip the placements per grid")
    ap.add_argument("--builds", type=int, default=10,
                    help="builds in a row per run of the placements per grid (default 10)")
    ap.add_argument("--instructions", action="store_true",
                    help="count the instructions per placement of the like-for-like cases with callgrind "
                         "(needs valgrind; --builds builds of each kind)")
    ap.add_argument("--layouts", type=int, default=1,
                    help="with --instructions: count each case in this many memory layouts and take the median "
                         "(default 1; 5 to compare two checkouts)")
    ap.add_argument("--build-loop", metavar="SPEC", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.build_loop:
        build_loop(args.build_loop)
        return 0
    print(f"load average before: {' '.join(os.getloadavg().__repr__()[1:-1].split(', '))}")
    print("\n| grid | pieces | region | placements | us/placement cold, CPU | cold, wall | new region, CPU |"
          " new region, wall | warm, CPU | warm, wall |\n|---|---|---|--:|--:|--:|--:|--:|--:|--:|")
    rows, times = ([], {}) if args.no_placements else placements(args.repeats, args.builds)
    if rows:
        print("\n| like for like (5 cells, about as many placements) | placements | CPU cold, ratio to squares |"
              " new region | warm |\n|---|--:|--:|--:|--:|")
        rows += matched(rows, times)
    if args.instructions:
        print("\n| grid | region | placements | instructions/placement cold | new region | warm |"
              "\n|---|---|--:|--:|--:|--:|")
        rows += instructions(args.builds, args.layouts)
    cmp_rows = []
    if args.compare_with:
        print("\n| square workload | CPU before (s) | CPU after (s) | ratio | wall before (s) | wall after (s) | ratio |")
        print("|---|--:|--:|--:|--:|--:|--:|")
        cmp_rows = compare(args.compare_with.resolve(), args.repeats, args.inner, args.only)
    print(f"load average after: {' '.join(os.getloadavg().__repr__()[1:-1].split(', '))}")
    OUT.mkdir(parents=True, exist_ok=True)
    with open(OUT / "grids.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=sorted({k for r in rows + cmp_rows for k in r}))
        writer.writeheader()
        writer.writerows(rows + cmp_rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
