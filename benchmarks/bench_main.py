"""Main-job benchmark (issues: main job, batch at scale): generation, batch, executors.

Run: ``python -m benchmarks.bench_main [--quick]``. Prints a Markdown table
and writes ``benchmarks/out/main.csv``. Every figure is the wall time of
a whole ``ubongo-cp`` process (seconds), so start-up and imports count: the
median of ``ROUNDS`` interleaved rounds (``REPEATS`` for the Dask pair).

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
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "out"
#: Interleaved rounds of the whole-command timings (medians reported).
ROUNDS = 3
#: Interleaved runs per executor for the Dask-overhead target.
REPEATS = 7


def _run(args: list[str], env: dict | None = None, cwd: Path = ROOT) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "ubongo_cp.cli", *args], check=True, cwd=cwd, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def _interleaved(commands: dict, rounds: int, baseline: tuple[dict, Path] | None = None) -> dict:
    """Median wall seconds of each command over ``rounds`` interleaved rounds.

    Each round runs every command once (outputs removed first, so nothing
    resumes), in turn, so that a drift in the machine's load hits all alike.
    With ``baseline`` (environment and directory of another revision, see
    ``bench_startup``) each command also runs there right after, and the
    value is a pair (this checkout, baseline).
    """
    times: dict = {key: ([], []) for key in commands}
    for _ in range(rounds):
        for key, argv in commands.items():
            out = argv[argv.index("--out") + 1]
            shutil.rmtree(out, ignore_errors=True)
            times[key][0].append(_run(argv))
            if baseline:
                shutil.rmtree(out, ignore_errors=True)
                times[key][1].append(_run(argv, *baseline))
    if baseline:
        return {key: (statistics.median(a), statistics.median(b)) for key, (a, b) in times.items()}
    return {key: statistics.median(a) for key, (a, _) in times.items()}


def _cluster_round_trip() -> float:
    """Median seconds to start a 2-worker LocalCluster, run one task, close it."""
    from ubongo_cp.executors import make_executor

    times = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        with make_executor("dask", jobs=2) as pool:
            pool.map_ordered(abs, [(-1,)])
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="one round; skip the 1-job runs and the Dask runs")
    ap.add_argument("--baseline", metavar="REV", help="also run the whole commands on this git revision "
                                                     "(interleaved) and print the ratio")
    ap.add_argument("--rounds", type=int, default=None, help=f"interleaved rounds (default {ROUNDS}; 1 with --quick)")
    args = ap.parse_args(argv)
    base = None
    if args.baseline:
        from benchmarks.bench_startup import _baseline

        base = _baseline(args.baseline)
    tmp = Path(tempfile.mkdtemp(prefix="bench_main_"))
    rows = []
    try:
        # Whole commands, interleaved rounds (the machine's load drifts), medians.
        commands = {(f"generate {game} deck", "local, 1 job"):
                    ["generate", "--game", game, "--out", str(tmp / f"gen_{game}"), "--seed", "2026", "--quiet"]
                    for game in ("classic", "duel")}
        configs = [("classic", "2"), ("duel", "2")] + ([] if args.quick else [("duel", "1"), ("classic", "1")])
        for game, jobs in configs:
            commands[(f"batch {game} deck", f"local, {jobs} job(s)")] = [
                "batch", f"puzzles/decks/{game}", "--out", str(tmp / f"batch_{game}_{jobs}"), "--jobs", jobs,
                "--no-progress"]
        rounds = args.rounds or (1 if args.quick else ROUNDS)
        for (job, ex), t in _interleaved(commands, rounds, base).items():
            if base:
                rows.append((job, ex, t[0]))
                rows.append((job, f"{ex}, baseline {args.baseline}", t[1]))
                rows.append((job, "ratio this / baseline", t[0] / t[1]))
            else:
                rows.append((job, ex, t))
        if not args.quick:
            # Dask target: the classic batch with either executor, REPEATS rounds.
            pair = {executor: ["batch", "puzzles/decks/classic", "--out", str(tmp / f"pair_{executor}"),
                               "--jobs", "2", "--executor", executor, "--no-progress"]
                    for executor in ("local", "dask")}
            medians = _interleaved(pair, REPEATS)
            for executor, t in medians.items():
                rows.append(("batch classic deck", f"{executor}, 2 job(s), median of {REPEATS} interleaved", t))
            rows.append(("dask / local (classic, 2 workers)", "ratio", medians["dask"] / medians["local"]))
            rows.append(("dask LocalCluster round trip (start, one task, close)", "dask, 2 workers",
                         _cluster_round_trip()))
        # The same batches inside one warm process (imports done): the parallel
        # part alone, without interpreter start-up. Median of 3.
        from ubongo_cp.batch import run_batch
        from ubongo_cp.executors import make_executor
        from ubongo_cp.executors.base import _preload

        _preload(("distributed",))
        inproc = [("duel", 1, "local"), ("duel", 2, "local"), ("classic", 1, "local"), ("classic", 2, "local")]
        if not args.quick:
            inproc += [("classic", 2, "dask"), ("duel", 2, "dask")]
        for game, jobs, executor in inproc:
            times = []
            for k in range(3):
                out = tmp / f"inproc_{game}_{jobs}_{executor}_{k}"
                t0 = time.perf_counter()
                with make_executor(executor, jobs=jobs) as ex:
                    run_batch(ROOT / "puzzles" / "decks" / game, out, executor=ex, progress=False)
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
