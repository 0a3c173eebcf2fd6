"""Benchmark: simulated Ubongo gem games and Duel matches per minute on one core.

Targets (issue 4): >= 1,000 four-player gem games per minute and >= 5,000
Duel matches per minute. Solve times come from the rated deck (no solving in
the loop). Both paths are timed: the fast loop used by the simulator and the
GameState path (action by action through ``UbongoState`` / ``DuelState``).

Run: ``python -m benchmarks.bench_games [--quick] [--tasks-classic F] [--tasks-duel F]``
(default: the shipped decks if present, else a synthetic deck).
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

import pandas as pd

from ubongo_cp.games.players import TaskDeck
from ubongo_cp.games.ubongo_sim import as_deck, default_tasks_path, simulate_duel, simulate_ubongo, synthetic_tasks

__all__ = ["main"]


def _deck(path, game):
    path = Path(path) if path else default_tasks_path(game)
    if path.is_file():
        return as_deck(path, game), str(path)
    return TaskDeck(synthetic_tasks(game), game), "synthetic"


def _rate(fn, n: int, repeats: int) -> float:
    """Best-of-``repeats`` items per minute of ``fn(n)``."""
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn(n)
        best = min(best, time.perf_counter() - t0)
    return n / best * 60.0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer games (for CI)")
    ap.add_argument("--tasks-classic", help="classic per-task table (default puzzles/decks/classic/tasks.csv)")
    ap.add_argument("--tasks-duel", help="Duel per-task table (default puzzles/decks/duel/tasks.csv)")
    ap.add_argument("--out", default="benchmarks/results/bench_games.csv", help="CSV of the figures")
    args = ap.parse_args(argv)
    n_gem, n_duel, rep = (200, 1000, 2) if args.quick else (2000, 10000, 3)
    classic, src_c = _deck(args.tasks_classic, "classic")
    duel, src_d = _deck(args.tasks_duel, "duel")
    rows = []
    for fast in (True, False):
        path = "fast loop" if fast else "GameState path"
        r = _rate(lambda n: simulate_ubongo(classic, 4, n, 1, fast=fast), n_gem if fast else n_gem // 2, rep)
        rows.append({"measure": f"4-player gem games / min ({path})", "figure": r, "target": 1000,
                     "deck": src_c})
        for handicap in (False, True):
            r = _rate(lambda n: simulate_duel(duel, n, 1.0, 0.8, 1, handicap=handicap, fast=fast),
                      n_duel if fast else n_duel // 2, rep)
            rows.append({"measure": f"Duel matches / min ({'handicap' if handicap else 'normal'}, {path})",
                         "figure": r, "target": 5000, "deck": src_d})
    table = pd.DataFrame(rows)
    table["meets target"] = table["figure"] >= table["target"]
    print(f"# bench_games ({platform.python_implementation()} {platform.python_version()}, one process, "
          f"best of {rep}; {n_gem} gem games / {n_duel} matches per timing on the fast loop)\n")
    print("| measure | figure | target | met | deck |")
    print("|---|---:|---:|:-:|---|")
    for r in table.itertuples():
        print(f"| {r.measure} | {r.figure:,.0f} | {r.target:,} | {'yes' if r._5 else 'NO'} | {r.deck} |")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(out, index=False)
    print(f"\nwrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
