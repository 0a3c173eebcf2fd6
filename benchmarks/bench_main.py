"""Main-job benchmark (issues: main job, batch at scale): generation, batch, executors.

Run: ``python -m benchmarks.bench_main [--quick]``. Prints a Markdown table
and writes ``benchmarks/results/main.csv``. Every figure is the wall time of
a whole ``ubongo-cp`` process (seconds), so start-up and imports count.

The last rows time the same batches inside one warm process (imports done),
which isolates the parallel part from the ~1 s of interpreter start-up and
imports that every whole-process run pays once.

Targets: generate classic < 60 s, Duel < 300 s; batch classic (432 tasks)
with 2 jobs < 20 s; Duel (360 tasks) < 60 s and 2 jobs >= 1.6x faster than 1;
classic batch on a 2-worker Dask LocalCluster within 1.3x of the process pool.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"


def _run(args: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ubongo_cp.cli", *args], check=True, cwd=ROOT,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="skip the Duel 1-job run and the Dask run")
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="bench_main_"))
    rows = []
    try:
        for game in ("classic", "duel"):
            t = _run(["generate", "--game", game, "--out", str(tmp / f"gen_{game}"), "--seed", "2026", "--quiet"])
            rows.append((f"generate {game} deck", "local, 1 job", t))
        configs = [("classic", "2", "local"), ("duel", "2", "local")]
        if not args.quick:
            configs += [("duel", "1", "local"), ("classic", "1", "local"), ("classic", "2", "dask")]
        for game, jobs, executor in configs:
            out = tmp / f"batch_{game}_{jobs}_{executor}"
            t = _run(["batch", f"puzzles/decks/{game}", "--out", str(out), "--jobs", jobs, "--executor", executor,
                      "--no-progress"])
            rows.append((f"batch {game} deck", f"{executor}, {jobs} job(s)", t))
        # The same batches inside one warm process (imports done): the parallel
        # part alone, without interpreter start-up. Median of 3.
        import statistics

        from ubongo_cp.batch import run_batch
        from ubongo_cp.executors import _preload

        _preload()
        inproc = [("duel", 1, "local"), ("duel", 2, "local"), ("classic", 1, "local"), ("classic", 2, "local")]
        if not args.quick:
            inproc += [("classic", 2, "dask"), ("duel", 2, "dask")]
        for game, jobs, executor in inproc:
            times = []
            for k in range(3):
                out = tmp / f"inproc_{game}_{jobs}_{executor}_{k}"
                t0 = time.perf_counter()
                run_batch(ROOT / "puzzles" / "decks" / game, out, jobs=jobs, executor=executor, progress=False)
                times.append(time.perf_counter() - t0)
            rows.append((f"batch {game} deck (in one warm process)", f"{executor}, {jobs} job(s)",
                         statistics.median(times)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("| job | executor | seconds |\n|---|---|---:|")
    for job, ex, t in rows:
        print(f"| {job} | {ex} | {t:.2f} |")
    import pandas as pd

    RESULTS.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows, columns=["job", "executor", "seconds"]).to_csv(RESULTS / "main.csv", index=False)
    return 0


if __name__ == "__main__":  # needed: Dask's LocalCluster starts processes
    sys.exit(main())
