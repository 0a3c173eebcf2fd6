"""Orion Duel agents: a tournament table, the first-player advantage, and the pie rule's effect.

Run ``python -m benchmarks.study_orion_agents PART [--games N] [--seed S]`` with PART one of

* ``table``: ``analysis``, ``mcts`` and ``sat`` each against ``greedy``, and
  ``mcts`` against ``analysis`` (:func:`ubongo_cp.games.orion.sim.run_tournament`,
  seats alternated, fresh random layouts);
* ``first``: the first mover's points rate in greedy self-play, without and
  with the pie rule (:mod:`ubongo_cp.games.orion.pie`);
* ``strongest``: the same for the agent named by ``--agent`` (default ``analysis``).

Writes ``benchmarks/results/orion_agents_<part>[_<tag>].csv`` (one row per game and
seat) and prints the win rates and first-mover rates with 95% Wilson
intervals, with the CPU and wall time of the run and the load average.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from pathlib import Path

import pandas as pd

from ubongo_cp.games.orion.sim import first_player_advantage, run_tournament, win_rates

RESULTS = Path(__file__).resolve().parent / "results"


def pie_effect(df: pd.DataFrame) -> str:
    """The first mover's points rate without and with the pie rule, the difference and a two-proportion z test."""
    first = df[df.seat == 0]
    a, b = first[~first.pie.astype(bool)].points, first[first.pie.astype(bool)].points
    if not len(a) or not len(b):
        return ""
    pooled = (a.sum() + b.sum()) / (len(a) + len(b))
    se = math.sqrt(pooled * (1 - pooled) * (1 / len(a) + 1 / len(b)))
    z = (a.mean() - b.mean()) / se if se else float("nan")
    return (f"first mover without pie {a.mean():.3f} ({len(a)} games), with pie {b.mean():.3f} ({len(b)} games): "
            f"difference {a.mean() - b.mean():+.3f}, z = {z:.2f}, two-sided p = {math.erfc(abs(z) / math.sqrt(2)):.3f}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("part", choices=("table", "first", "strongest"))
    ap.add_argument("--games", type=int, default=20, help="games per pairing (seats alternate)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--agent", default="analysis", help="the agent of part 'strongest'")
    ap.add_argument("--tag", default="", help="suffix of the results file (orion_agents_<part>[_<tag>].csv)")
    ap.add_argument("--pairs", default="analysis:greedy,mcts:greedy,sat:greedy,mcts:analysis",
                    help="pairings of part 'table' (a:b,...)")
    ap.add_argument("--from-game", type=int, default=0,
                    help="parts 'first'/'strongest': keep games 0..G-1 of the results file, play the rest")
    args = ap.parse_args(argv)
    t0, c0 = time.perf_counter(), time.process_time()
    frames = []
    if args.part == "table":
        for i, pair in enumerate(p.split(":") for p in args.pairs.split(",")):
            frames.append(run_tournament(pair, args.games, seed=args.seed + i, self_play=False).assign(pie=False))
    else:
        agent = "greedy" if args.part == "first" else args.agent
        for pie in (False, True):
            frames.append(run_tournament([agent], args.games, seed=args.seed, pie=pie,
                                         first_game=args.from_game).assign(pie=pie))
    out = RESULTS / f"orion_agents_{args.part}{'_' + args.tag if args.tag else ''}.csv"
    if args.from_game:
        # Game i of a single pairing is the same game whatever --games is: keep the earlier ones.
        old = pd.read_csv(out)
        frames.insert(0, old[old.game < args.from_game])
    df = pd.concat(frames, ignore_index=True).sort_values(["pie", "game", "seat"], kind="stable")
    RESULTS.mkdir(exist_ok=True)
    df.to_csv(out, index=False)
    pd.set_option("display.width", 160)
    if args.part == "table":
        print(win_rates(df).round(3).to_markdown(index=False))
    else:
        for pie, g in df.groupby("pie"):
            print(f"pie rule: {pie}")
            print(first_player_advantage(g).round(3).to_markdown(index=False))
            if pie:
                print(f"swapped: {int((g[g.seat == 0].swapped == True).sum())} of {len(g) // 2} games")  # noqa: E712
        print(pie_effect(df))
    print(f"CPU {time.process_time() - c0:.0f} s, wall {time.perf_counter() - t0:.0f} s, "
          f"load {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
