"""Benchmark: solution-booklet drawing time per page (brief's aim: under 0.4 s per page).

Run ``python -m benchmarks.bench_booklet [--quick] [--csv PATH]``. For each
deck (``--quick``: the example cards only; default: the example cards and the
shipped classic and Duel decks when present) it measures, per page:

* ``solve``: :func:`ubongo_cp.booklet.task_views` without a results table
  (one CP-SAT call per task; the batch runner's table makes this 0);
* ``draw+pdf``: :func:`~ubongo_cp.booklet.render_page` plus writing the page
  to a PDF (``PdfPages.savefig``) - the cost of ``make_booklet`` per page;
* ``png``: one extra PNG of the page at 110 dpi (``--png DIR``);
* the process's peak RSS after the run (memory must not grow with pages).

Both wall-clock and CPU time (``time.process_time``) are reported: on a
shared machine the wall-clock figures follow the load, the CPU figures much
less. The best of ``--repeats`` runs is kept for draw+pdf and png.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import resource
import time
from pathlib import Path

TARGET_S_PER_PAGE = 0.4


def _measure(deck: Path, repeats: int) -> dict:
    from matplotlib.backends.backend_pdf import PdfPages

    from ubongo_cp.booklet import render_page, task_views
    from ubongo_cp.cards import load_deck

    cards, _ = load_deck(deck)
    t = time.perf_counter()
    views = [task_views(card) for card in cards]
    solve = (time.perf_counter() - t) / len(cards)
    best_pdf = best_png = best_cpu = float("inf")
    for _ in range(repeats):
        t_pdf = t_png = cpu_pdf = 0.0
        with PdfPages(io.BytesIO()) as pdf:
            for card, v in zip(cards, views):
                t, c = time.perf_counter(), time.process_time()
                fig = render_page(card, v)
                pdf.savefig(fig)
                t_pdf += time.perf_counter() - t
                cpu_pdf += time.process_time() - c
                t = time.perf_counter()
                fig.savefig(io.BytesIO(), format="png", dpi=110)
                t_png += time.perf_counter() - t
                fig.clear()
        best_pdf = min(best_pdf, t_pdf / len(cards))
        best_cpu = min(best_cpu, cpu_pdf / len(cards))
        best_png = min(best_png, t_png / len(cards))
    tasks = sum(len(c.tasks) for c in cards)
    return {"deck": str(deck), "pages": len(cards), "tasks": tasks, "solve_s_per_page": solve,
            "draw_pdf_s_per_page": best_pdf, "draw_pdf_cpu_s_per_page": best_cpu, "png_s_per_page": best_png,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="example cards only (about 10 s)")
    ap.add_argument("--repeats", type=int, default=2, help="best of this many drawing runs (default 2)")
    ap.add_argument("--csv", default=os.path.join("benchmarks", "results", "booklet.csv"),
                    help="write the figures here ('' to skip)")
    args = ap.parse_args(argv)
    decks = [Path("puzzles/examples")]
    if not args.quick:
        decks += [d for d in (Path("puzzles/decks/classic"), Path("puzzles/decks/duel")) if d.is_dir()]
    rows = [_measure(d, args.repeats) for d in decks]
    print(f"| deck | pages | tasks | solve s/page | draw+PDF s/page wall | draw+PDF s/page CPU "
          f"(target < {TARGET_S_PER_PAGE}) | PNG s/page wall | peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        ok = "ok" if r["draw_pdf_cpu_s_per_page"] < TARGET_S_PER_PAGE else "MISSED"
        print(f"| {r['deck']} | {r['pages']} | {r['tasks']} | {r['solve_s_per_page']:.3f} "
              f"| {r['draw_pdf_s_per_page']:.3f} | {r['draw_pdf_cpu_s_per_page']:.3f} ({ok}) "
              f"| {r['png_s_per_page']:.3f} | {r['peak_rss_mb']:.0f} |")
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.csv:
        Path(args.csv).parent.mkdir(parents=True, exist_ok=True)
        with open(args.csv, "w", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
