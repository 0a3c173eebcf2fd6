"""The bitmask Orion engine against the reference engine: random self-play, side by side.

Run ``python -m benchmarks.bench_orion_bitboard [--rounds R] [--games G]``.
With ``--compare N`` it checks instead of timing: ``N`` seeded random games
(random layouts, uniformly random legal moves) played move by move in both
engines, every position (colours, used tiles, player to move, conditions,
winner and rule) and every legal-action list compared (:func:`play_both`;
``tests/test_orion_bitboard.py`` runs 100 of them).
Each round plays the same ``G`` seeded random-vs-random games (random
layouts, uniformly random legal moves, :func:`ubongo_cp.games.base.play_game`)
in both engines, the order of the engines alternating between rounds;
CPU time (``time.process_time``) and wall time are taken per engine and
round, and the load average before and after. Prints a Markdown table
(games per CPU second and per wall second, medians over the rounds, and the
ratio) and writes ``benchmarks/results/orion_bitboard.csv``. The reference
engine plays fewer games per round (``G // 10``, at least 2), its rate
is per game as well.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import time
from pathlib import Path

import numpy as np

from ubongo_cp.games.base import RandomAgent, play_game
from ubongo_cp.games.orion import BitOrionState, OrionState

RESULTS = Path(__file__).resolve().parent / "results"


def same(ref: OrionState, fast: BitOrionState) -> bool:
    """Whether the two engines hold the same position (colours, used tiles, mover, conditions, result)."""
    return bool((ref.colour == fast.colour).all() and (ref.used == fast.used).all()
                and ref.current_player() == fast.current_player() and ref.winner == fast.winner
                and ref.end_rule == fast.end_rule and ref.conditions() == fast.conditions()
                and ref.history == fast.history and ref.scores() == fast.scores())


def play_both(seed: int, game=None) -> int:
    """One random game (layout and moves from ``seed``) in both engines, compared after every move.

    Returns the game's length in moves.

    Raises
    ------
    AssertionError
        At the first position or legal-action list that differs (the seed and move number).
    """
    rng = np.random.default_rng(seed)
    ref, fast = OrionState(game=game, seed=seed), BitOrionState(game=game, seed=seed)
    while True:
        assert same(ref, fast), ("position differs", seed, len(ref.history))
        legal = ref.legal_actions()
        assert legal == fast.legal_actions(), ("legal actions differ", seed, len(ref.history))
        if ref.is_terminal():
            assert fast.is_terminal() and ref.returns() == fast.returns(), ("result differs", seed)
            return len(ref.history)
        a = legal[int(rng.integers(len(legal)))]
        ref.apply_action(a)
        fast.apply_action(a)


def compare(games: int) -> int:
    """Play ``games`` seeded random games in both engines (:func:`play_both`); print the totals."""
    c0, t0, load0 = time.process_time(), time.perf_counter(), os.getloadavg()[0]
    moves = sum(play_both(seed) for seed in range(games))
    print(f"{games} random games, {moves} moves: every position ({moves + games}) and every legal-action "
          f"list identical in both engines; {time.process_time() - c0:.1f} s CPU, "
          f"{time.perf_counter() - t0:.1f} s wall, load {load0:.1f} before, {os.getloadavg()[0]:.1f} after")
    return 0


def play(cls, seeds) -> tuple[float, float, int]:
    """CPU seconds, wall seconds and moves of random self-play games from ``seeds``."""
    c0, t0, moves = time.process_time(), time.perf_counter(), 0
    for s in seeds:
        state = play_game(cls(seed=s), [RandomAgent(s), RandomAgent(s + 1)])
        moves += len(state.history)
    return time.process_time() - c0, time.perf_counter() - t0, moves


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=200, help="bitmask games per round")
    ap.add_argument("--compare", type=int, metavar="N",
                    help="instead of timing, compare N random games move by move in both engines")
    args = ap.parse_args(argv)
    if args.compare is not None:
        return compare(args.compare)
    BitOrionState(seed=0)  # build the tables once (about a second), outside the timings
    rows = []
    load0 = os.getloadavg()
    for r in range(args.rounds):
        engines = [(BitOrionState, args.games), (OrionState, max(2, args.games // 10))]
        for cls, n in (engines if r % 2 == 0 else engines[::-1]):
            seeds = range(1000 * r, 1000 * r + n)
            cpu, wall, moves = play(cls, seeds)
            rows.append({"round": r, "engine": cls.__name__, "games": n, "moves": moves, "cpu_s": round(cpu, 3),
                         "wall_s": round(wall, 3), "games_per_cpu_s": round(n / cpu, 2),
                         "games_per_wall_s": round(n / wall, 2)})
    load1 = os.getloadavg()
    RESULTS.mkdir(exist_ok=True)
    with open(RESULTS / "orion_bitboard.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    med = {e: {k: statistics.median(x[k] for x in rows if x["engine"] == e)
               for k in ("games_per_cpu_s", "games_per_wall_s")} for e in ("BitOrionState", "OrionState")}
    print("| engine | games per CPU second | games per wall second |")
    print("|---|---|---|")
    for e, m in med.items():
        print(f"| {e} | {m['games_per_cpu_s']:.2f} | {m['games_per_wall_s']:.2f} |")
    print(f"| ratio | {med['BitOrionState']['games_per_cpu_s'] / med['OrionState']['games_per_cpu_s']:.1f}x | "
          f"{med['BitOrionState']['games_per_wall_s'] / med['OrionState']['games_per_wall_s']:.1f}x |")
    print(f"medians over {args.rounds} interleaved rounds; load {load0[0]:.1f} before, {load1[0]:.1f} after")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
