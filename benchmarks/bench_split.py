"""Benchmark: one count split over workers, the progress bar's cost, and a count sized for a cluster.

Run: ``.venv/bin/python -m benchmarks.bench_split [--repeat N] [--cases A,B] [--slice SECONDS] [--skip-cluster]
[--running-cluster]``.

1. *Workers.* Whole ``ubongo-cp solve --count`` processes, interleaved (every command once per
   round, the order rotated): ``--jobs 1`` (one search in the process), ``--jobs 2`` (two threads
   of the process, the local executor) and ``--jobs 2 --executor dask`` (a LocalCluster of 2 workers), on the 12 pentominoes
   in 6x10 (9,356 tilings) with the default solver and with ``--backend bitboard`` (no orbit
   decomposition: a longer search), 8x8 without its central 2x2 (520) and 8x8 with the square
   tetromino (129,168), also with ``--backend bitboard`` (a count of some seconds). Counts checked
   at every run. Prints the median wall and CPU seconds (CPU: the process and its workers) and the
   ratios 1 job / 2 jobs and dask / local (wall).
   With ``--running-cluster`` also ``--jobs 2 --scheduler ADDRESS`` on a LocalCluster of 2 worker
   processes started once before the rounds: the Dask executor without the cluster's start-up
   (the CPU column then leaves out the workers' CPU, which run outside the command).
2. *Progress.* In one process, interleaved: the count as one search, and the count cut into
   subtrees with the progress bar on (drawn to a null device from the first second), CPU and
   wall seconds and their ratio (the bar's cost, the subtrees' included).
3. *A count for a cluster.* The 18 one-sided pentominoes in 9x10 (``--board``; 10,440,433 tilings up to
   symmetry, published in D. J. Goodger's Polyform Puzzler): Knuth's estimate of the search
   (the count's own search), then the count cut into subtrees, of which the first tasks are run
   for ``--slice`` seconds on 2 processes; the CPU seconds per unit of share done project the
   whole count's CPU hours, and the hours on W workers; the command that runs it on a cluster is
   printed.

Writes ``benchmarks/out/bench_split.csv``.
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from pathlib import Path

from benchmarks import peers
from benchmarks.bench_bitboard import cases as bitboard_cases

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "out"
CASES = ("6x10", "8x8-2x2", "8x8+O4")
#: Cases also counted with ``--backend bitboard`` in part 1 (no orbit decomposition: a search several times
#: longer, where what a worker costs to start weighs less).
UNREDUCED_TOO = ("6x10", "8x8+O4")
#: Published counts of the one-sided pentominoes in rectangles, up to the rectangle's four symmetries
#: (D. J. Goodger, Polyform Puzzler, ``puzzler/puzzles/pentominoes.py``, revision 640, 2016).
PUBLISHED = {"3x30": 46, "5x18": 686_628, "6x15": 2_567_183, "9x10": 10_440_433}


def worker_commands(case, backend: str | None, scheduler: str | None = None) -> dict:
    pieces, region, use = case.files()
    cli = ROOT / ".venv" / "bin" / "ubongo-cp"
    base = [cli, "solve", "--pieces", pieces, "--region", region, "--use", use, "--orientations", case.mode,
            "--count", "--max-solutions", "0", "--no-progress"] + (["--backend", backend] if backend else [])
    commands = {"1 job": (base + ["--jobs", "1"], None, (0,)),
                "2 jobs (local)": (base + ["--jobs", "2"], None, (0,)),
                "2 jobs (dask)": (base + ["--jobs", "2", "--executor", "dask"], None, (0,))}
    if scheduler:
        commands["2 jobs (running dask)"] = (base + ["--jobs", "2", "--scheduler", scheduler], None, (0,))
    return commands


def part_workers(todo, repeat: int, rows: list, scheduler: str | None = None) -> None:
    print(f"\n1. one count on 1 and 2 workers (whole processes, {repeat} interleaved rounds, medians)")
    for case in todo:
        for backend in ([None, "bitboard"] if case.label in UNREDUCED_TOO else [None]):
            runs = peers.rounds(worker_commands(case, backend, scheduler), repeat,
                                lambda name, run, c=case: _check(peers.our_count(name, run), c.count))
            label = case.label + (f" --backend {backend}" if backend else "")
            med = {n: (peers.median(r, "wall"), peers.median(r, "cpu")) for n, r in runs.items()}
            for name, (wall, cpu) in med.items():
                print(f"  {label:26} {name:15} wall {wall:7.3f} s  CPU {cpu:7.3f} s")
                rows.append({"part": "workers", "case": label, "command": name, "wall": wall, "cpu": cpu,
                             "load": peers.load()})
            one, pool, dask = (med[n][0] for n in ("1 job", "2 jobs (local)", "2 jobs (dask)"))
            running = f"; running dask / local {med['2 jobs (running dask)'][0] / pool:.2f}x" if scheduler else ""
            print(f"  {label:26} speed-up 2 jobs / 1 job {one / pool:.2f}x (wall); dask / local {dask / pool:.2f}x "
                  f"(wall){running}; load {peers.load()}")


def _check(got: int, want: int) -> None:
    if got != want:
        raise SystemExit(f"wrong count {got}, expected {want}")


def part_progress(todo, repeat: int, rows: list) -> None:
    from ubongo_cp.solvers import solve, warm
    from ubongo_cp.solvers.subtrees import SplitSearch

    print(f"\n2. the progress bar's cost (in one process, {repeat} interleaved rounds, medians)")
    warm(["bitboard-symmetry", "bitboard"])
    for case in todo:
        inst = case.instance()
        for backend in ([None, "bitboard"] if case.label == "6x10" else [None]):
            times: dict[str, list] = {"one search": [], "progress bar": []}
            for r in range(repeat):
                order = list(times) if r % 2 == 0 else list(times)[::-1]
                for name in order:
                    split = SplitSearch(progress=True, delay=0.0) if name == "progress bar" else None
                    saved = sys.stderr
                    with open(os.devnull, "w") as null:
                        sys.stderr = null
                        try:
                            w, c = time.perf_counter(), time.process_time()
                            res = solve(inst, backend=backend, keep=0, split=split)
                            times[name].append((time.perf_counter() - w, time.process_time() - c))
                        finally:
                            sys.stderr = saved
                    _check(res.count, case.count)
            label = case.label + (f" --backend {backend}" if backend else "")
            med = {n: tuple(sorted(v)[len(v) // 2] for v in zip(*t)) for n, t in times.items()}
            for name, (wall, cpu) in med.items():
                rows.append({"part": "progress", "case": label, "command": name, "wall": wall, "cpu": cpu,
                             "load": peers.load()})
            (w1, c1), (w2, c2) = med["one search"], med["progress bar"]
            print(f"  {label:26} one search CPU {c1:.3f} s wall {w1:.3f} s; with the bar CPU {c2:.3f} s wall "
                  f"{w2:.3f} s: {100 * (c2 / c1 - 1):+.1f}% CPU, {100 * (w2 / w1 - 1):+.1f}% wall; load {peers.load()}")


def timed_task(*item, **shared) -> tuple[float, dict]:
    """:func:`~ubongo_cp.solvers.subtrees.run_task` in a worker, with the worker's CPU seconds for it."""
    from ubongo_cp.solvers.subtrees import run_task

    c = time.process_time()
    row = run_task(*item, **shared)
    return time.process_time() - c, row


def part_cluster(seconds: float, board: str, rows: list) -> None:
    import random
    import statistics

    from ubongo_cp.executors import make_executor
    from ubongo_cp.pieces import Region
    from ubongo_cp.solvers.bitboard import BitboardBackend
    from ubongo_cp.solvers.estimate import estimate_search
    from ubongo_cp.solvers.orbits import symmetry_plan
    from ubongo_cp.solvers.subtrees import group_tasks, instance_digest, split_branches

    one_sided = next(c for c in bitboard_cases() if c.label == "one-sided-3x30")
    h, w = map(int, board.split("x"))
    case = peers.Case(f"one-sided-{board}", one_sided.pieces, Region.rectangle(h, w), 0, mode="one-sided")
    inst = case.instance()
    print(f"\n3. a count for a cluster: the 18 one-sided pentominoes in {board}")
    est = estimate_search(inst, seconds=5)
    print(f"  estimate (the count's own search: the bitboard kernel below the orbit decomposition): {est.summary()}")
    # The count as the default solver runs it (bitboard, orbit decomposition) cut as a cluster run cuts
    # it: 4096 subtrees in 1024 tasks; a uniform random sample of the tasks is run on 2 processes for
    # about ``seconds``: total CPU = tasks x the sample's mean CPU per task (an unbiased estimate).
    backend = BitboardBackend(name="bitboard-symmetry")
    plan = symmetry_plan(inst, enumerable=False)
    subtrees = split_branches(backend._search(inst), inst, plan.branches, 4096)
    tasks = group_tasks([s.share for s in subtrees], 1024)
    digest = instance_digest(inst, backend)
    rng = random.Random(1)
    order = rng.sample(range(len(tasks)), len(tasks))
    cpu_of: list[float] = []
    w0 = time.perf_counter()
    with make_executor("local", jobs=2) as pool:
        batch = 2
        while time.perf_counter() - w0 < seconds and len(cpu_of) < len(tasks):
            pick = order[len(cpu_of):len(cpu_of) + batch]
            items = [(digest, tasks[i][0], [s.branch for s in subtrees[tasks[i][0]:tasks[i][1]]], 0, False, None)
                     for i in pick]
            cpu_of.extend(c for c, _ in pool.map_unordered(timed_task, items, backend=backend, instance=inst))
    wall = time.perf_counter() - w0
    n, k = len(tasks), len(cpu_of)
    mean = statistics.mean(cpu_of)
    err = statistics.stdev(cpu_of) / k ** 0.5 if k > 1 else float("nan")
    total, total_err = n * mean / 3600, n * err / 3600
    print(f"  sample: {k} of {n} tasks drawn at random ({len(subtrees)} subtrees), {sum(cpu_of):.1f} s CPU in "
          f"{wall:.1f} s wall on 2 processes; the largest task {max(cpu_of):.2f} s; load {peers.load()}")
    print(f"  projection: {total:.3g} ± {total_err:.2g} CPU hours (standard error); {total / 64:.3g} h on 64 workers, "
          f"{total / 256:.3g} h on 256")
    rows.append({"part": "cluster", "case": case.label, "command": "sample", "wall": wall, "cpu": sum(cpu_of),
                 "load": peers.load(), "tasks": n, "sampled": k, "cpu_hours": total, "cpu_hours_error": total_err})
    if board in PUBLISHED:
        print(f"  published: {PUBLISHED[board]:,} tilings up to the rectangle's four symmetries (D. J. Goodger, "
              "Polyform Puzzler, puzzles/pentominoes.py: the same convention gives 46 in 3x30, as the toolkit's "
              "'count up to symmetry' does); the command's count up to symmetry must read this")
    pieces, region, use = case.files()
    print(f"  command: ubongo-cp solve --pieces {pieces.name} --region {region.name} --use {use} "
          f"--orientations one-sided --count --scheduler tcp://SCHEDULER:8786 --journal {board}.jsonl")


def _children_cpu() -> float:
    import resource

    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="interleaved rounds (medians; default 5)")
    parser.add_argument("--cases", help=f"comma-separated case labels (default: {','.join(CASES)})")
    parser.add_argument("--slice", type=float, default=60.0, help="seconds of the cluster count's slice (default 60)")
    parser.add_argument("--board", default="9x10", help="the cluster count's rectangle (default 9x10)")
    parser.add_argument("--skip-cluster", action="store_true", help="no part 3")
    parser.add_argument("--only", choices=("workers", "progress", "cluster"), help="run one part")
    parser.add_argument("--running-cluster", action="store_true",
                        help="part 1 also on a LocalCluster of 2 workers started once, before the rounds "
                             "(--scheduler: the executor's cost without the cluster's start)")
    args = parser.parse_args(argv)
    wanted = args.cases.split(",") if args.cases else list(CASES)
    todo = [c for c in bitboard_cases() if c.label in wanted]
    rows: list = []
    print(f"load {peers.load()}, {os.cpu_count()} cores")
    if args.only in (None, "workers"):
        if args.running_cluster:
            from distributed import LocalCluster

            with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
                part_workers(todo, args.repeat, rows, cluster.scheduler_address)
        else:
            part_workers(todo, args.repeat, rows)
    if args.only in (None, "progress"):
        part_progress(todo, args.repeat, rows)
    if args.only == "cluster" or (args.only is None and not args.skip_cluster):
        part_cluster(args.slice, args.board, rows)
    OUT.mkdir(parents=True, exist_ok=True)
    keys = sorted({k for r in rows for k in r})
    with (OUT / "bench_split.csv").open("w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=keys)
        w.writeheader()
        w.writerows(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
