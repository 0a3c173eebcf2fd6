"""Orion Duel benchmarks (issue 7): engine speed and the SAT analysis on mid-game positions.

Run ``python -m benchmarks.bench_orion [--quick] [--ablation]``. Prints a
Markdown table of the measured figures against the targets and writes
``benchmarks/results/orion.csv``. Single process, CP-SAT with one worker.

Targets: >= 100 random-vs-random games per minute on one core;
connect_distance median < 1 s and min_blocking_set median < 200 ms on
mid-game positions (10 tiles placed).
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import time

from ubongo_cp.games.base import RandomAgent, play_game
from ubongo_cp.games.orion.engine import OrionState
from ubongo_cp.games.orion.sat import connect_distance, is_safe_connection, min_blocking_set


def midgame_positions(count: int, placed: int = 10, seed0: int = 1000) -> list[OrionState]:
    """Positions after ``placed`` random moves (games that ended earlier are skipped)."""
    out, seed = [], seed0
    while len(out) < count:
        s = OrionState(seed=seed)
        agent = RandomAgent(seed)
        for _ in range(placed):
            if s.is_terminal():
                break
            s.apply_action(agent(s))
        if not s.is_terminal():
            out.append(s)
        seed += 1
    return out


def _q(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer games and positions")
    ap.add_argument("--ablation", action="store_true",
                    help="also time connect_distance without greedy bound / pruning")
    args = ap.parse_args(argv)
    n_games = 60 if args.quick else 300
    n_pos = 8 if args.quick else 25
    rows = []

    t0 = time.perf_counter()
    lengths = []
    for g in range(n_games):
        s = play_game(OrionState(seed=g), [RandomAgent(2 * g), RandomAgent(2 * g + 1)])
        lengths.append(len(s.history))
    dt = time.perf_counter() - t0
    rows.append(("random-vs-random games per minute", f"{60 * n_games / dt:.0f}", ">= 100",
                 f"{n_games} games, mean length {statistics.mean(lengths):.1f} moves"))

    positions = midgame_positions(n_pos)
    cases = [(s, p) for s in positions for p in (0, 1)]

    def timed(label, fn, target=None, detail=None):
        times, stats = [], []
        for s, p in cases:
            t = time.perf_counter()
            r = fn(s, p)
            times.append(time.perf_counter() - t)
            stats.append(r)
        med = statistics.median(times)
        note = f"{len(times)} cases (positions x 2 players); p90 {_q(times, 0.9):.3f} s, max {max(times):.3f} s"
        if detail:
            note += "; " + detail(stats)
        rows.append((label, f"{med:.3f} s", target or "-", note))
        return stats

    def cd_detail(rs):
        st = {}
        for r in rs:
            st[r.status] = st.get(r.status, 0) + 1
        greedy = sum(1 for r in rs if r.questions and r.questions[-1][1] == "greedy")
        return ", ".join(f"{k} {v}" for k, v in sorted(st.items())) + f"; answered by the greedy bound {greedy}"

    timed("connect_distance W1 (median)", lambda s, p: connect_distance(s, p, "sides", time_limit=10),
          "< 1 s", cd_detail)
    timed("connect_distance W2 (median)", lambda s, p: connect_distance(s, p, "galaxies", time_limit=10),
          "-", cd_detail)
    timed("connect_distance W1 relaxed (median)",
          lambda s, p: connect_distance(s, p, "sides", relaxed=True), "-")
    timed("min_blocking_set (median)", lambda s, p: min_blocking_set(s, p), "< 0.200 s",
          lambda rs: f"mean size {statistics.mean(len(r.hexes) for r in rs if r.hexes is not None):.1f} hexes")
    timed("min_blocking_set relaxed (median)", lambda s, p: min_blocking_set(s, p, relaxed=True), "-")
    timed("is_safe_connection (median)", lambda s, p: is_safe_connection(s, p), "-",
          lambda rs: f"safe {sum(r.safe for r in rs)} of {len(rs)}")
    if args.ablation:
        timed("ablation: W1 without greedy bound",
              lambda s, p: connect_distance(s, p, "sides", time_limit=10, greedy=False), "-", cd_detail)
        timed("ablation: W1 without greedy bound and pruning",
              lambda s, p: connect_distance(s, p, "sides", time_limit=10, greedy=False, prune=False),
              "-", cd_detail)

    print("| measure | value | target | notes |")
    print("|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    os.makedirs("benchmarks/results", exist_ok=True)
    with open("benchmarks/results/orion.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["measure", "value", "target", "notes"])
        w.writerows(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
