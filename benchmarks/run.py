"""Benchmark harness: solving strategies on the shipped decks, Duel subset analysis and pentomino rectangles.

Run ``python -m benchmarks.run [--suite first|count|analyze|pentomino|all]
[--strategies a,b,c] [--quick] [--time-limit S]``. For each suite it writes a
tidy table ``benchmarks/out/<suite>.csv`` (``--out DIR``; the reference tables are ``benchmarks/results/``) with the columns
``suite, instance, strategy, seconds, status, count, counters`` (one row per
instance x strategy; ``seconds`` is wall time, instance build excluded;
``status`` is ``solved``/``no solution``/``timeout``; ``counters`` the
backend counters as JSON), then rebuilds from every suite CSV present:

- ``cactus.png``: instances solved vs time, one line per
  strategy, one panel per suite;
- ``summary.md``: per suite and strategy the instances
  solved, median seconds and PAR2 score (mean seconds with each time-out
  counted as twice the time limit), and whether every strategy's count agrees.

Suites (``--quick`` samples a subset so ``make bench`` takes a few minutes):

``first``
    first solution (``limit=1``) of every task of ``puzzles/decks/classic``
    and ``puzzles/decks/duel``;
``count``
    every solution of the same tasks (``keep=0``);
``analyze``
    :func:`ubongo_cp.analyze.analyze` ("which K pieces tile this region?")
    with the ``dlx``, ``xcover`` and ``cpsat`` backends against solving each
    area-matching K-subset separately (``per-subset-dlx``/``per-subset-cpsat``),
    on the regions of shipped Duel card sides (K = 4 on A sides, K = 5 on B
    sides) and the example Duel board (K = 3);
``pentomino``
    count the tilings of 3x20, 4x15, 5x12, 6x10 by the twelve pentominoes
    (8, 1472, 4040, 9356); ``xcover-direct`` is a bare ``xcover`` loop with no
    result bookkeeping (the issue's reference).

Every strategy is warmed up on a tiny instance first (imports, numba JIT).
Timings are wall-clock on a shared machine: the load average is printed and
written to the summary.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

from ubongo_cp.status import Status

ROOT = Path(__file__).resolve().parent.parent
#: Default output: untracked. The reference tables the README and notebook 02 read are in
#: benchmarks/results/ and change only on purpose (``--out benchmarks/results``).
RESULTS = ROOT / "benchmarks" / "out"
SUITES = ("first", "count", "analyze", "pentomino")
COLUMNS = ["suite", "instance", "strategy", "seconds", "status", "count", "counters"]

#: Default time limit per instance (seconds) of each suite.
TIME_LIMITS = {"first": 10.0, "count": 30.0, "analyze": 120.0, "pentomino": 600.0}
QUICK_TIME_LIMITS = {"first": 5.0, "count": 10.0, "analyze": 20.0, "pentomino": 30.0}
ANALYZE_METHODS = ("analyze-dlx", "analyze-xcover", "analyze-cpsat", "per-subset-dlx", "per-subset-cpsat")
QUICK_ANALYZE = ("analyze-dlx", "analyze-xcover", "analyze-cpsat", "per-subset-dlx")
PENTOMINO_SHAPES = ((3, 20), (4, 15), (5, 12), (6, 10))
QUICK_PENTOMINO_SHAPES = ((3, 20), (4, 15), (6, 10))
#: Strategies fast enough for the pentomino rectangles in ``--quick``.
QUICK_PENTOMINO = ("xcover-direct", "xcover", "dlx", "dlx-symmetry", "xcover-symmetry", "cpsat-symmetry-split")


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, run the suites, write CSV, plot and summary; returns 0."""
    from ubongo_cp.solvers import SOLVERS

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--suite", default="all", choices=[*SUITES, "all"])
    ap.add_argument("--strategies", default="",
                    help=f"comma-separated names (default: all for the suite); solving: {', '.join(SOLVERS)}; "
                         f"analyze: {', '.join(ANALYZE_METHODS)}; pentomino also: xcover-direct")
    ap.add_argument("--quick", action="store_true", help="sampled tasks, fewer instances and strategies")
    ap.add_argument("--time-limit", type=float, default=None, help="seconds per instance (default per suite)")
    ap.add_argument("--seed", type=int, default=2026, help="seed of the --quick task sample")
    ap.add_argument("--sample", type=int, default=12, help="tasks per deck with --quick (default 12)")
    ap.add_argument("--out", default=str(RESULTS), help="results directory")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    requested = [s for s in args.strategies.split(",") if s]
    suites = SUITES if args.suite == "all" else (args.suite,)
    load = _load()
    print(f"load average at start: {load}", file=sys.stderr)
    for suite in suites:
        limits = QUICK_TIME_LIMITS if args.quick else TIME_LIMITS
        limit = args.time_limit if args.time_limit is not None else limits[suite]
        names = _strategies_for(suite, requested, args.quick)
        if not names:
            continue
        rows = run_suite(suite, names, quick=args.quick, time_limit=limit, seed=args.seed, sample=args.sample)
        write_csv(rows, out / f"{suite}.csv")
        (out / f"{suite}.meta.json").write_text(json.dumps(
            {"time_limit": limit, "quick": args.quick, "load_start": load, "load_end": _load(),
             "dlx_engine": _dlx_engine()}))
    summary = summarize(out)
    print(summary)
    return 0


# ---------------------------------------------------------------------- suites
def _strategies_for(suite: str, requested: list[str], quick: bool) -> list[str]:
    from ubongo_cp.errors import InputError
    from ubongo_cp.solvers import SOLVERS

    if suite == "analyze":
        known = ANALYZE_METHODS
        default = QUICK_ANALYZE if quick else ANALYZE_METHODS
    else:
        known = (*SOLVERS, "xcover-direct") if suite == "pentomino" else tuple(SOLVERS)
        default = (QUICK_PENTOMINO if quick else ("xcover-direct", *SOLVERS)) if suite == "pentomino" \
            else tuple(SOLVERS)
    if not requested:
        return list(default)
    unknown = [s for s in requested if s not in known and s not in SOLVERS and s not in ANALYZE_METHODS
               and s != "xcover-direct"]
    if unknown:
        raise InputError(f"unknown strategy {unknown[0]!r}")
    return [s for s in requested if s in known]


def deck_tasks(quick: bool, seed: int, sample: int):
    """(label, instance) for every task of the shipped decks (a seeded sample per deck with ``quick``)."""
    from ubongo_cp.cards import iter_tasks, load_deck

    out = []
    for deck in ("classic", "duel"):
        cards, _ = load_deck(ROOT / "puzzles" / "decks" / deck)
        tasks = list(iter_tasks(cards))
        if quick:
            tasks = sorted(random.Random(seed).sample(tasks, min(sample, len(tasks))),
                           key=lambda t: (t[0].card_id, t[0].side, t[1]))
        out += [(f"{deck}/{card.card_id}{card.side}/{face}", (card, face)) for card, face in tasks]
    return out


def analyze_regions(quick: bool):
    """(label, pieces, region, k) of the subset-analysis suite."""
    from ubongo_cp.cards import load_card
    from ubongo_cp.pieces import load_pieces, load_region

    duel = load_pieces("duel").pieces
    out = [("examples/duel_board1 K=3", duel, load_region(ROOT / "puzzles" / "examples" / "duel_board1.txt"), 3)]
    sides = ["1_A", "3_B"] if quick else ["1_A", "2_A", "6_A", "3_B", "5_B", "6_B"]
    for side in sides:
        card = load_card(ROOT / "puzzles" / "decks" / "duel" / f"{side}.toml")
        k = 4 if card.side == "A" else 5
        out.append((f"duel/{card.card_id}{card.side} K={k}", duel, card.region, k))
    return out


def run_suite(suite: str, names: list[str], *, quick: bool, time_limit: float, seed: int = 2026,
              sample: int = 12) -> list[dict]:
    """Run every strategy of ``names`` on every instance of ``suite``; returns the rows."""
    rows: list[dict] = []
    if suite == "analyze":
        instances = analyze_regions(quick)
        for name in names:
            _warm_up(name)
            for label, pieces, region, k in instances:
                rows.append(_run_analyze(suite, label, name, pieces, region, k, time_limit))
                _progress(rows[-1])
        return rows
    if suite == "pentomino":
        from ubongo_cp.cover import build_instance
        from ubongo_cp.pieces import Region, load_pieces

        pents = load_pieces("pentominoes").pieces
        shapes = QUICK_PENTOMINO_SHAPES if quick else PENTOMINO_SHAPES
        instances = [(f"{h}x{w}", build_instance(pents, Region.rectangle(h, w))) for h, w in shapes]
        limit = None
    else:
        from ubongo_cp.cover import task_instance

        instances = [(label, task_instance(card, face)) for label, (card, face) in deck_tasks(quick, seed, sample)]
        limit = 1 if suite == "first" else None
    for name in names:
        _warm_up(name)
        for label, inst in instances:
            rows.append(_run_solve(suite, label, name, inst, limit, time_limit))
            _progress(rows[-1])
    return rows


def _run_solve(suite, label, name, inst, limit, time_limit) -> dict:
    from ubongo_cp.solvers import solve

    if name == "xcover-direct":
        return _xcover_direct(suite, label, inst, time_limit)
    start = time.perf_counter()
    result = solve(inst, backend=name, limit=limit, time_limit=time_limit, keep=1 if limit == 1 else 0)
    seconds = time.perf_counter() - start
    if limit == 1:
        done = result.status in (Status.SOLVED, Status.NO_SOLUTION) and (result.count >= 1 or result.complete)
    else:
        done = result.complete
    counters = {k: v for k, v in result.stats.items() if k != "wall_seconds"}
    return {"suite": suite, "instance": label, "strategy": name, "seconds": seconds,
            "status": result.status if done else Status.TIMEOUT, "count": result.count if done else None,
            "counters": json.dumps(counters, sort_keys=True)}


def _xcover_direct(suite, label, inst, time_limit) -> dict:
    """Count with a bare xcover loop (no canonical keys, no solution dicts): the issue's reference."""
    import numpy as np
    from xcover.dancing_cells import algorithm_c

    start = time.perf_counter()
    colors = np.zeros(len(inst.indices), dtype=np.uint32)
    n = 0
    timed_out = False
    deadline = start + time_limit
    for _ in algorithm_c(inst.indices, inst.indptr, colors, np.uint32(inst.n_items), np.uint32(inst.n_secondary)):
        n += 1
        if time.perf_counter() > deadline:
            timed_out = True
            break
    seconds = time.perf_counter() - start
    status = Status.TIMEOUT if timed_out else (Status.SOLVED if n else Status.NO_SOLUTION)
    return {"suite": suite, "instance": label, "strategy": "xcover-direct", "seconds": seconds,
            "status": status, "count": None if timed_out else n, "counters": "{}"}


def _run_analyze(suite, label, name, pieces, region, k, time_limit) -> dict:
    from ubongo_cp.analyze import analyze

    start = time.perf_counter()
    counters: dict = {}
    try:
        if name.startswith("analyze-"):
            res = analyze(pieces, region, k, backend=name.split("-", 1)[1], time_limit=time_limit)
            count, status = res.total_solutions, (Status.SOLVED if res.subsets else Status.NO_SOLUTION)
            counters = {"subsets": len(res.subsets), "matching_area": res.matching_area, **res.stats}
        else:
            count, n_subsets, matching = _per_subset(pieces, region, k, name.split("-", 2)[2], start + time_limit)
            status = Status.SOLVED if n_subsets else Status.NO_SOLUTION
            counters = {"subsets": n_subsets, "matching_area": matching}
    except TimeoutError:
        count, status = None, Status.TIMEOUT
    seconds = time.perf_counter() - start
    return {"suite": suite, "instance": label, "strategy": name, "seconds": seconds, "status": status,
            "count": count, "counters": json.dumps(counters, sort_keys=True, default=str)}


def _per_subset(pieces, region, k, strategy, deadline):
    """Solve every area-matching K-subset separately; (total tilings, tiling subsets, matching subsets)."""
    from itertools import combinations

    from ubongo_cp.cover import build_instance
    from ubongo_cp.solvers import solve

    total = subsets = matching = 0
    for combo in combinations(pieces, k):
        if sum(p.size for p in combo) != region.area:
            continue
        matching += 1
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            raise TimeoutError
        result = solve(build_instance(combo, region), backend=strategy, time_limit=remaining, keep=0)
        if not result.complete:
            raise TimeoutError
        total += result.count
        subsets += result.count > 0
    return total, subsets, matching


def _warm_up(name: str) -> None:
    """Run a strategy once on tiny instances (imports, numba compilation) before timing it."""
    from ubongo_cp.cover import build_instance
    from ubongo_cp.pieces import Region, load_pieces

    pents = load_pieces("pentominoes")
    inst = build_instance([pents["L"], pents["P"], pents["U"]], Region.rectangle(3, 5))
    if name.startswith(("analyze-", "per-subset-")):
        from ubongo_cp.analyze import analyze

        backend = name.rsplit("-", 1)[1]
        analyze(pents.pieces, Region.rectangle(3, 5), 3, backend=backend)
        return
    if name == "xcover-direct":
        _xcover_direct("warm-up", "", inst, 60.0)
        return
    from ubongo_cp.solvers import solve

    solve(inst, backend=name, keep=0)
    solve(inst, backend=name, limit=1)


def _progress(row: dict) -> None:
    print(f"{row['suite']:9s} {row['instance']:28s} {row['strategy']:18s} {row['seconds']:9.4f} s "
          f"{row['status']:12s} {row['count']}", file=sys.stderr, flush=True)


def _dlx_engine() -> str:
    """Class name of the backend that the ``"dlx"`` solver makes right now."""
    from ubongo_cp.solvers import get_solver

    return type(get_solver("dlx").make()).__name__


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


# --------------------------------------------------------------------- outputs
def write_csv(rows: list[dict], path: Path) -> None:
    """Write the tidy table (columns :data:`COLUMNS`)."""
    import pandas as pd

    pd.DataFrame(rows, columns=COLUMNS).to_csv(path, index=False, float_format="%.6f")


def load_results(out: Path):
    """All suite CSVs of ``out`` as one DataFrame, with each row's ``time_limit``."""
    import pandas as pd

    frames = []
    for suite in SUITES:
        path = Path(out) / f"{suite}.csv"
        if not path.exists():
            continue
        df = pd.read_csv(path)
        meta = Path(out) / f"{suite}.meta.json"
        info = json.loads(meta.read_text()) if meta.exists() else {}
        df["time_limit"] = info.get("time_limit", float(df["seconds"].max()))
        frames.append(df)
    if not frames:
        return pd.DataFrame(columns=[*COLUMNS, "time_limit"])
    return pd.concat(frames, ignore_index=True)


def summary_table(df):
    """Per suite and strategy: instances, solved, median seconds, PAR2 (seconds), ordered by PAR2."""
    import pandas as pd

    rows = []
    for (suite, strategy), g in df.groupby(["suite", "strategy"], sort=False):
        solved = g["status"] != Status.TIMEOUT
        par2 = g["seconds"].where(solved, 2 * g["time_limit"]).mean()
        rows.append({"suite": suite, "strategy": strategy, "instances": len(g), "solved": int(solved.sum()),
                     "median_s": float(g["seconds"].median()), "total_s": float(g["seconds"].sum()),
                     "par2_s": float(par2)})
    table = pd.DataFrame(rows)
    if len(table):
        table = table.sort_values(["suite", "par2_s"], kind="stable").reset_index(drop=True)
    return table


def disagreements(df) -> list[str]:
    """Instances on which two strategies that finished report different counts."""
    bad = []
    done = df[df["status"] != Status.TIMEOUT]
    for (suite, inst), g in done.groupby(["suite", "instance"]):
        counts = g.dropna(subset=["count"])
        if suite == "first":
            continue  # a first-solution search reports 1 (or 0), not a total
        if counts["count"].nunique() > 1:
            bad.append(f"{suite} {inst}: " + ", ".join(f"{s}={int(c)}" for s, c in zip(counts["strategy"],
                                                                                         counts["count"])))
    return bad


def cactus_plot(df, path: Path) -> None:
    """Instances solved vs time (log scale), one line per strategy, one panel per suite."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    suites = [s for s in SUITES if s in set(df["suite"])]
    fig, axes = plt.subplots(1, len(suites), figsize=(4.2 * len(suites), 3.8), squeeze=False)
    for ax, suite in zip(axes[0], suites):
        sub = df[df["suite"] == suite]
        ax.set_prop_cycle(color=plt.cm.tab20.colors)
        for strategy, g in sub.groupby("strategy", sort=False):
            times = np.sort(g.loc[g["status"] != Status.TIMEOUT, "seconds"].to_numpy())
            if len(times) == 0:
                continue
            ax.step(np.r_[times, sub["time_limit"].iloc[0]], np.r_[np.arange(1, len(times) + 1), len(times)],
                    where="post", label=strategy)
        ax.set_xscale("log")
        ax.set_xlabel("time per instance (s)")
        ax.set_ylabel("instances solved")
        ax.set_title(f"{suite} ({sub['instance'].nunique()} instances)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def summarize(out: Path) -> str:
    """Rebuild ``cactus.png`` and ``summary.md`` from the suite CSVs in ``out``; returns the Markdown."""
    out = Path(out)
    df = load_results(out)
    if df.empty:
        return "no results"
    cactus_plot(df, out / "cactus.png")
    table = summary_table(df)
    lines = ["# Solver-strategy benchmarks", ""]
    for suite in SUITES:
        meta = out / f"{suite}.meta.json"
        if meta.exists():
            info = json.loads(meta.read_text())
            lines.append(f"- {suite}: time limit {info['time_limit']:g} s per instance, "
                         f"{'quick' if info['quick'] else 'full'} run, 'dlx' = {info.get('dlx_engine')}, "
                         f"load average {info['load_start']} at start, {info['load_end']} at end")
    lines += ["", "PAR2 = mean seconds per instance, a time-out counted as 2 x the time limit.", ""]
    lines.append(table.to_markdown(index=False, floatfmt=".4f"))
    bad = disagreements(df)
    lines += ["", "Counts: " + ("every strategy that finished agrees on every instance." if not bad
                                else "DISAGREEMENTS:\n" + "\n".join(f"- {b}" for b in bad)), ""]
    text = "\n".join(lines)
    (out / "summary.md").write_text(text)
    return text


if __name__ == "__main__":
    sys.exit(main())
