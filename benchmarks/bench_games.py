"""Benchmark: simulated Ubongo gem games and Duel matches per minute on one core.

Targets (issue 4): >= 1,000 four-player gem games per minute and >= 5,000
Duel matches per minute. Solve times come from the rated deck (no solving in
the loop). The games run through the one engine of each game
(:func:`ubongo_cp.games.ubongo.sim.simulate_ubongo`,
:func:`ubongo_cp.games.duel.sim.simulate_duel`: ``play_game`` on the state
classes), table building included.

Each figure is the best of ``--repeats`` runs of the CPU time of this
process (``time.process_time``; other jobs on a shared machine disturb it
less than the wall clock) and, for reference, of the wall time.

Run: ``python -m benchmarks.bench_games [--quick] [--tasks-classic F] [--tasks-duel F]``
(default: the shipped decks if present, else a synthetic deck). Writes
``benchmarks/out/bench_games.csv``.
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import pandas as pd

from ubongo_cp.games.duel.sim import simulate_duel
from ubongo_cp.games.tasks import TaskDeck, as_deck, default_tasks_path, synthetic_tasks
from ubongo_cp.games.ubongo.sim import simulate_ubongo

__all__ = ["main"]


def _deck(path, game):
    path = Path(path) if path else default_tasks_path(game)
    if path.is_file():
        return as_deck(path, game), str(path)
    return TaskDeck(synthetic_tasks(game), game), "synthetic"


def _rates(fn, n: int, repeats: int) -> tuple[float, float]:
    """Best-of-``repeats`` items per minute of ``fn(n)``: (CPU time, wall time)."""
    cpu = wall = float("inf")
    for _ in range(repeats):
        c0, w0 = time.process_time(), time.perf_counter()
        fn(n)
        cpu = min(cpu, time.process_time() - c0)
        wall = min(wall, time.perf_counter() - w0)
    return n / cpu * 60.0, n / wall * 60.0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer games (for CI)")
    ap.add_argument("--repeats", type=int, default=3, help="best of this many runs (default 3)")
    ap.add_argument("--tasks-classic", help="classic per-task table (default puzzles/decks/classic/tasks.csv)")
    ap.add_argument("--tasks-duel", help="Duel per-task table (default puzzles/decks/duel/tasks.csv)")
    ap.add_argument("--out", default="benchmarks/out/bench_games.csv", help="CSV of the figures")
    args = ap.parse_args(argv)
    n_gem, n_duel = (200, 1000) if args.quick else (2000, 10000)
    classic, src_c = _deck(args.tasks_classic, "classic")
    duel, src_d = _deck(args.tasks_duel, "duel")
    rows = []
    cpu, wall = _rates(lambda n: simulate_ubongo(classic, 4, n, 1), n_gem, args.repeats)
    rows.append({"measure": "4-player gem games / min", "figure": cpu, "wall": wall, "target": 1000,
                 "deck": src_c})
    for handicap in (False, True):
        cpu, wall = _rates(lambda n: simulate_duel(duel, n, 1.0, 0.8, 1, handicap=handicap), n_duel, args.repeats)
        rows.append({"measure": f"Duel matches / min ({'handicap' if handicap else 'normal'})", "figure": cpu,
                     "wall": wall, "target": 5000, "deck": src_d})
    table = pd.DataFrame(rows)
    table["met"] = table["figure"] >= table["target"]
    print(f"# bench_games ({platform.python_implementation()} {platform.python_version()}, one process, "
          f"best of {args.repeats}; {n_gem} gem games / {n_duel} matches per timing)\n")
    print("| measure | per CPU minute | per wall minute | target | met | deck |")
    print("|---|---:|---:|---:|:-:|---|")
    for r in table.itertuples():
        print(f"| {r.measure} | {r.figure:,.0f} | {r.wall:,.0f} | {r.target:,} | {'yes' if r.met else 'NO'} "
              f"| {r.deck} |")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(out, index=False)
    print(f"\nwrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
