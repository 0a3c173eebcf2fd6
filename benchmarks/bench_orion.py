"""Orion Duel benchmarks: engine speed, the exact analysis on mid-game positions, brute-force agreement.

Run ``python -m benchmarks.bench_orion [--quick] [--exact | --exact-only] [--ablation] [--graphs] [--no-w2]``.
Prints Markdown tables and writes ``benchmarks/out/orion.csv`` (and
``orion_exact.csv`` with ``--exact``). Single process, CP-SAT with one
worker, the load average printed with the figures; each query is timed in
wall time (the value column) and in CPU time of the process (the notes),
which a shared machine disturbs less.

Targets (issues 7 and 15): >= 100 random-vs-random games per minute on one
core; on mid-game positions (16-24 tiles placed, from greedy-vs-greedy
games; both players) the median of ``min_blocking_set`` and
``is_safe_connection`` <= 200 ms, exact under the full rules; p95 reported.

``--exact``: the three exact questions against the brute force of
:mod:`ubongo_cp.games.orion.brute` on random small positions larger than
the test suite's (every disagreement is listed; the target is none).
``--ablation``: ``connect_distance`` without the greedy bound / pruning.
``--graphs``: the fast hand-written graph searches against networkx.
``--versus-reference N``: only the three W1 questions on N mid-game
positions, the default (bitmask) paths against the reference paths of
:func:`ubongo_cp.games.orion.plans.reference_analysis`, side by side.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import time
from pathlib import Path

from ubongo_cp.games.base import RandomAgent, play_game
from ubongo_cp.games.orion.agents import make_agent
from ubongo_cp.games.orion.blocking import min_blocking_set
from ubongo_cp.games.orion.safety import is_safe_connection
from ubongo_cp.games.orion.distance import connect_distance
from ubongo_cp.games.orion.setup import random_setup
from ubongo_cp.games.orion.state import OrionState

OUT = Path(__file__).resolve().parent / "out"


def midgame_positions(count: int, agent: str = "greedy", seed0: int = 0) -> list[OrionState]:
    """Positions with 16-24 tiles placed (16 + seed % 9), from seeded games; ended games skipped."""
    out, seed = [], seed0
    while len(out) < count:
        seed += 1
        s = OrionState(random_setup(seed, first_player=0))
        agents = [make_agent(agent, 2 * seed + 1), make_agent(agent, 2 * seed + 2)]
        target = 16 + seed % 9
        while not s.is_terminal() and len(s.history) < target:
            s.apply_action(agents[s.current_player()](s))
        if not s.is_terminal():
            out.append(s)
    return out


def _q(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer games and positions")
    ap.add_argument("--exact", action="store_true", help="brute-force agreement on larger small positions")
    ap.add_argument("--exact-only", action="store_true",
                    help="only the brute-force agreement (no timings; it may share the machine)")
    ap.add_argument("--ablation", action="store_true",
                    help="also time connect_distance without greedy bound / pruning")
    ap.add_argument("--graphs", action="store_true", help="fast graph searches against networkx")
    ap.add_argument("--no-w2", action="store_true",
                    help="skip the W2 distances (the slowest questions; no target)")
    ap.add_argument("--time-limit", type=float, default=20.0, help="seconds per question (default 20)")
    ap.add_argument("--versus-reference", type=int, metavar="N",
                    help="only: the three W1 questions on N mid-game positions, fast paths against the "
                         "reference paths (interleaved per case), answers compared")
    args = ap.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    n_games = 60 if args.quick else 300
    n_pos = 10 if args.quick else 40
    rows = []
    print(f"load average before: {_load()}")
    if args.exact_only:
        return _report(_exact_rows(30 if args.quick else 100), "orion_exact_summary.csv")
    if args.versus_reference:
        return versus_reference(args.versus_reference, args.time_limit)

    t0, c0 = time.perf_counter(), time.process_time()
    lengths = []
    for g in range(n_games):
        s = play_game(OrionState(seed=g), [RandomAgent(2 * g), RandomAgent(2 * g + 1)])
        lengths.append(len(s.history))
    dt, dc = time.perf_counter() - t0, time.process_time() - c0
    rows.append(("random-vs-random games per minute", f"{60 * n_games / dt:.0f}", ">= 100",
                 f"{n_games} games, mean length {statistics.mean(lengths):.1f} moves; "
                 f"{60 * n_games / dc:.0f} per CPU minute"))

    positions = midgame_positions(n_pos)
    cases = [(s, p) for s in positions for p in (0, 1)]
    tl = args.time_limit

    def timed(label, fn, target="-", detail=None):
        times, cpu, stats = [], [], []
        for s, p in cases:
            t, c = time.perf_counter(), time.process_time()
            r = fn(s, p)
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
            stats.append(r)
        note = (f"{len(times)} cases; wall p95 {_q(times, 0.95):.3f} s, max {max(times):.3f} s; "
                f"CPU median {statistics.median(cpu):.3f} s, p95 {_q(cpu, 0.95):.3f} s; "
                + _statuses(stats))
        live = [t for t, r in zip(times, stats) if _live(r)]
        if len(live) < len(times):  # without the answers that need no search
            note += (f"; cases still open (player can reach the goal): {len(live)}, median "
                     f"{statistics.median(live):.3f} s, p95 {_q(live, 0.95):.3f} s")
        if detail:
            note += "; " + detail(stats)
        rows.append((label, f"{statistics.median(times):.3f} s", target, note))
        return stats

    timed("min_blocking_set W1, exact (median)", lambda s, p: min_blocking_set(s, p, time_limit=tl),
          "<= 0.200 s", lambda rs: "sizes " + _counts(
              len(r.hexes) if r.hexes is not None else "won" for r in rs)
          + f"; rounds median {statistics.median(r.rounds for r in rs):.0f}, max {max(r.rounds for r in rs)}")
    timed("is_safe_connection W1, exact (median)",
          lambda s, p: is_safe_connection(s, p, time_limit=tl), "<= 0.200 s",
          lambda rs: f"exact questions median {statistics.median(r.exact for r in rs):.0f}, "
                     f"max {max(r.exact for r in rs)}; opponent moves median "
                     f"{statistics.median(r.moves for r in rs):.0f}")
    timed("min_blocking_set relaxed (median)", lambda s, p: min_blocking_set(s, p, relaxed=True))
    timed("connect_distance W1 (median)", lambda s, p: connect_distance(s, p, time_limit=tl))
    if not args.no_w2:
        timed("connect_distance W2 (median)",
              lambda s, p: connect_distance(s, p, "galaxies", time_limit=tl))
    if args.ablation:
        timed("ablation: W1 without greedy bound",
              lambda s, p: connect_distance(s, p, time_limit=tl, greedy=False))
        timed("ablation: W1 without greedy bound and pruning",
              lambda s, p: connect_distance(s, p, time_limit=tl, greedy=False, prune=False))
    if args.graphs:
        rows.extend(_graph_rows(positions))
    if args.exact:
        rows.extend(_exact_rows(30 if args.quick else 100))

    return _report(rows, "orion.csv")


def versus_reference(n_pos: int, time_limit: float) -> int:
    """The W1 questions on ``n_pos`` mid-game positions (both players), fast paths against the reference.

    Each case runs the reference paths (:func:`ubongo_cp.games.orion.plans.reference_analysis`)
    and the default ones back to back, their order alternating from case to
    case; CPU and wall time per call. The answers compared: the distance,
    the blocking set's size and its status, the safety verdict. Prints
    medians and ratios; writes ``benchmarks/results/orion_versus_reference.csv``
    (one row per question, case and path).
    """
    from ubongo_cp.games.orion.plans import reference_analysis

    questions = {
        "connect_distance": lambda s, p: (lambda r: (r.status, r.tiles))(connect_distance(s, p, time_limit=time_limit)),
        "min_blocking_set": lambda s, p: (lambda r: (r.status, None if r.hexes is None else len(r.hexes)))(
            min_blocking_set(s, p, time_limit=time_limit)),
        "is_safe_connection": lambda s, p: (lambda r: (r.status, r.safe))(
            is_safe_connection(s, p, time_limit=time_limit)),
    }
    load0 = _load()
    positions = midgame_positions(n_pos)
    rows, mismatches = [], []
    for name, fn in questions.items():
        for i, (s, p) in enumerate((s, p) for s in positions for p in (0, 1)):
            got = {}
            for path in (("reference", "fast") if i % 2 == 0 else ("fast", "reference")):
                t, c = time.perf_counter(), time.process_time()
                if path == "reference":
                    with reference_analysis():
                        got[path] = fn(s, p)
                else:
                    got[path] = fn(s, p)
                rows.append({"question": name, "case": i, "path": path, "answer": got[path],
                             "cpu_s": time.process_time() - c, "wall_s": time.perf_counter() - t})
            if got["fast"] != got["reference"]:
                mismatches.append((name, i, got["reference"], got["fast"]))
    out = Path(__file__).resolve().parent / "results" / "orion_versus_reference.csv"
    with open(out, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    print(f"{n_pos} mid-game positions x 2 players; load {load0} before, {_load()} after")
    print("| question | median CPU reference | median CPU fast | ratio | median wall reference | "
          "median wall fast | ratio |")
    print("|---|---|---|---|---|---|---|")
    for name in questions:
        med = {(path, k): statistics.median(r[k] for r in rows if r["question"] == name and r["path"] == path)
               for path in ("reference", "fast") for k in ("cpu_s", "wall_s")}
        print(f"| {name} | {1000 * med['reference', 'cpu_s']:.1f} ms | {1000 * med['fast', 'cpu_s']:.1f} ms | "
              f"{med['reference', 'cpu_s'] / med['fast', 'cpu_s']:.1f}x | {1000 * med['reference', 'wall_s']:.1f} ms | "
              f"{1000 * med['fast', 'wall_s']:.1f} ms | {med['reference', 'wall_s'] / med['fast', 'wall_s']:.1f}x |")
    print(f"answers differing: {mismatches or 'none'}")
    return 1 if mismatches else 0


def _report(rows, name: str) -> int:
    """Print ``rows`` as a Markdown table (with the load average) and write ``benchmarks/out/<name>``."""
    print(f"load average after: {_load()}")
    print("| measure | value | target | notes |")
    print("|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    with open(OUT / name, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["measure", "value", "target", "notes"])
        w.writerows(rows)
    return 0


def _live(r) -> bool:
    """A case that needed a search: the player can still reach the goal, and has not yet."""
    if hasattr(r, "hexes"):
        return bool(r.hexes) or r.hexes is None and r.status != "already"
    return r.status not in ("unreachable", "already", "over")


def _statuses(results) -> str:
    return _counts(r.status for r in results)


def _counts(values) -> str:
    c: dict = {}
    for v in values:
        c[v] = c.get(v, 0) + 1
    return ", ".join(f"{k} {v}" for k, v in sorted(c.items(), key=lambda kv: str(kv[0])))


def _exact_rows(count: int) -> list[tuple]:
    """The exact questions against the brute force on random small positions (13 free hexes, 3-4 tiles).

    Both players, goals W1 (distance, blocking set, safety) and W2 (distance,
    blocking set).
    """
    from ubongo_cp.games.orion.brute import brute_blocking, brute_distance, brute_safety, small_position

    bad, done, t_brute, t_sat = [], 0, 0.0, 0.0
    table = []
    seed = 20_000
    while done < count:
        seed += 1
        s = small_position(seed, 13, 3 + seed % 2)
        if s is None:
            continue
        done += 1
        for p in (0, 1):
            for goal in ("sides", "galaxies"):
                t = time.perf_counter()
                want = (brute_distance(s, p, goal), brute_blocking(s, p, goal),
                        brute_safety(s, p, goal)[0] if goal == "sides" else None)
                t_brute += time.perf_counter() - t
                t = time.perf_counter()
                d = connect_distance(s, p, goal, time_limit=60)
                b = min_blocking_set(s, p, goal, time_limit=60)
                f = is_safe_connection(s, p, goal, time_limit=60).safe if goal == "sides" else None
                t_sat += time.perf_counter() - t
                got = (d.tiles if d.status != "unreachable" else None,
                       None if b.hexes is None else len(b.hexes), f)
                table.append((seed, p, goal, *want, *got))
                if got != want:
                    bad.append((seed, p, goal, want, got))
    with open(OUT / "orion_exact.csv", "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["seed", "player", "goal", "brute_distance", "brute_blocking", "brute_safe",
                    "distance", "blocking", "safe"])
        w.writerows(table)
    n = len(table)
    return [("exact vs brute force (agreement)", f"{n - len(bad)}/{n}", "all",
             f"{done} random small positions (13 free hexes, 3-4 tiles each), both players, "
             f"W1 (distance, blocking set, safety) and W2 (distance, blocking set); brute force "
             f"{t_brute:.1f} s, CP-SAT {t_sat:.1f} s; disagreements: {bad or 'none'}")]


def _graph_rows(positions) -> list[tuple]:
    """Median time per call of the fast graph searches and of their networkx equivalents."""
    import networkx as nx

    from ubongo_cp.games.orion.graphs import INF, colour_components, hex_graph, node_weighted_distances

    game = positions[0].game
    adj = game.adjacency
    g = hex_graph(adj)

    def per_call(fn, reps=200):
        ts = []
        for s in positions:
            t = time.perf_counter()
            for _ in range(reps):
                fn(s)
            ts.append((time.perf_counter() - t) / reps)
        return statistics.median(ts) * 1e6

    fast_cc = per_call(lambda s: colour_components(adj, s.colour))
    nx_cc = per_call(lambda s: [list(nx.connected_components(g.subgraph(
        [h for h in range(game.n) if s.colour[h] == c]))) for c in (0, 1)])
    a = game.side_pairs[0][0]

    def nx_dist(s):
        cost = [0 if c == 0 else 1 if c < 0 else INF for c in s.colour[:-1].tolist()]
        d = nx.DiGraph()
        d.add_weighted_edges_from((u, v, cost[v]) for u in range(game.n) for v in adj[u]
                                  if cost[u] < INF and cost[v] < INF)
        d.add_weighted_edges_from(("s", h, cost[h]) for h in a if cost[h] < INF)
        return nx.single_source_dijkstra_path_length(d, "s")

    fast_d = per_call(lambda s: node_weighted_distances(
        adj, [0 if c == 0 else 1 if c < 0 else INF for c in s.colour[:-1].tolist()], a))
    nx_d = per_call(nx_dist, reps=50)
    return [("colour components (after every move)", f"{fast_cc:.0f} us", "-",
             f"networkx {nx_cc:.0f} us ({nx_cc / fast_cc:.1f}x)"),
            ("0-1 BFS distances (greedy agent, bounds)", f"{fast_d:.0f} us", "-",
             f"networkx Dijkstra {nx_d:.0f} us ({nx_d / fast_d:.1f}x)")]


if __name__ == "__main__":
    raise SystemExit(main())
