"""Benchmark: Domino, nezlob se! games per minute on one core (issue target: >= 1,000 random 4-player games/min).

Run ``python -m benchmarks.bench_domino [--quick] [--csv PATH]``. Measures

* ``engine + RandomAgent``: :func:`ubongo_cp.games.base.play_game` with the
  base :class:`~ubongo_cp.games.base.RandomAgent` on
  :func:`~ubongo_cp.games.domino.state.new_game` states;
* ``simulate()``: the full study pipeline of
  :func:`ubongo_cp.games.domino.sim.simulate` (agent construction, per-game
  row, DataFrame) for each agent type, 4 players.

The process is pinned to one CPU where the OS allows it; each figure is the
best of ``--repeats`` runs of the CPU time of this process
(``time.process_time``: other jobs on a shared machine disturb it less than
the wall clock).
"""

from __future__ import annotations

import argparse
import csv
import os
import platform
import time

TARGET_PER_MIN = 1000.0


def _engine_rate(games: int) -> float:
    from ubongo_cp.games.base import RandomAgent, play_game
    from ubongo_cp.games.domino.state import DominoSettings, new_game

    settings = DominoSettings(num_players=4)
    t = time.process_time()
    for g in range(games):
        agent = RandomAgent(g)
        play_game(new_game(settings, seed=g), [agent] * 4)
    return games / (time.process_time() - t) * 60.0


def _simulate_rate(agent: str, games: int) -> float:
    from ubongo_cp.games.domino.sim import simulate

    t = time.process_time()
    simulate([agent] * 4, games, seed=1)
    return games / (time.process_time() - t) * 60.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer games (about 10 s)")
    ap.add_argument("--repeats", type=int, default=3, help="best of this many runs (default 3)")
    ap.add_argument("--csv", default=os.path.join("benchmarks", "out", "domino.csv"),
                    help="CSV output (default benchmarks/out/domino.csv; '' to skip)")
    args = ap.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        try:
            os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
        except OSError:
            pass
    n_random = 1000 if args.quick else 5000
    n_agent = 200 if args.quick else 1000
    rows = []
    rate = max(_engine_rate(n_random) for _ in range(args.repeats))
    rows.append(("engine + RandomAgent (play_game)", "random x4", n_random, rate, TARGET_PER_MIN))
    for agent in ("random", "greedy", "careful", "lookahead"):
        n = n_random if agent == "random" else n_agent
        rate = max(_simulate_rate(agent, n) for _ in range(args.repeats))
        rows.append(("simulate() pipeline", f"{agent} x4", n, rate,
                     TARGET_PER_MIN if agent == "random" else None))
    print(f"Domino, nezlob se! benchmark: 4 players, one core, CPU time, best of {args.repeats}, "
          f"Python {platform.python_version()}, {platform.machine()}")
    print()
    print("| measurement | agents | games | games/min | target | met |")
    print("|---|---|---:|---:|---:|---|")
    for what, agents, n, rate, target in rows:
        tgt = f"{target:,.0f}" if target else "-"
        met = ("yes" if rate >= target else "NO") if target else "-"
        print(f"| {what} | {agents} | {n:,} | {rate:,.0f} | {tgt} | {met} |")
    if args.csv:
        os.makedirs(os.path.dirname(args.csv) or ".", exist_ok=True)
        with open(args.csv, "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["measurement", "agents", "games", "games_per_min", "target"])
            for what, agents, n, rate, target in rows:
                w.writerow([what, agents, n, f"{rate:.0f}", target or ""])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
