"""Benchmark: booklet and playtest-card drawing time per page (aim: under 0.4 s per booklet page).

Run ``python -m benchmarks.bench_booklet [--quick] [--repeats N] [--csv PATH]``.
For each deck (``--quick``: the example cards only; default: the example
cards and the shipped classic and Duel decks) it measures, per page:

* ``solve``: :func:`ubongo_cp.booklet.task_views` without a results table
  (one CP-SAT call per task; the batch runner's table makes this 0);
* ``draw+pdf``: :func:`~ubongo_cp.booklet.render_page` plus writing the page
  to a PDF (``PdfPages.savefig``), the cost of ``make_booklet`` per page;
* ``outline``: adding the bookmarks with pypdf, per page;
* ``png``: one extra PNG of the page at 110 dpi (``--png DIR``);
* ``cards``: the playtest card sheets (``ubongo-cp cards``, 20 mm cells) per
  sheet page, drawn and written to a PDF;
* the process's peak RSS after the run (memory must not grow with pages).

Both wall-clock and CPU time (``time.process_time``) are reported for
draw+pdf: on a shared machine the wall-clock figures follow the load, the
CPU figures much less. Each figure is the median of ``--repeats`` runs,
and the runs of the different measurements are interleaved. Results go to
``benchmarks/out/`` (untracked).
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import resource
import statistics
import tempfile
import time
from pathlib import Path

TARGET_S_PER_PAGE = 0.4


def _measure(deck: Path, repeats: int) -> dict:
    from matplotlib.backends.backend_pdf import PdfPages

    from ubongo_cp.booklet import _add_outline, render_page, task_views
    from ubongo_cp.booklet.playtest import card_sheets
    from ubongo_cp.cards import load_deck

    cards, _ = load_deck(deck)
    t = time.perf_counter()
    views = [task_views(card) for card in cards]
    solve = (time.perf_counter() - t) / len(cards)
    runs: dict[str, list[float]] = {k: [] for k in ("pdf", "cpu", "outline", "png", "cards")}
    sheets = 0
    for _ in range(repeats):
        t_pdf = t_png = cpu_pdf = 0.0
        with tempfile.TemporaryDirectory() as tmp:
            pdf_path = Path(tmp) / "b.pdf"
            with PdfPages(pdf_path) as pdf:
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
            t = time.perf_counter()
            _add_outline(pdf_path, [(f"card {c.card_id}", i) for i, c in enumerate(cards)])
            runs["outline"].append((time.perf_counter() - t) / len(cards))
        runs["pdf"].append(t_pdf / len(cards))
        runs["cpu"].append(cpu_pdf / len(cards))
        runs["png"].append(t_png / len(cards))
        t = time.perf_counter()
        with PdfPages(io.BytesIO()) as pdf:
            figs = card_sheets(cards, 20.0)
            for fig in figs:
                pdf.savefig(fig)
                fig.clear()
        sheets = len(figs)
        runs["cards"].append((time.perf_counter() - t) / sheets)
    med = {k: statistics.median(v) for k, v in runs.items()}
    tasks = sum(len(c.tasks) for c in cards)
    return {"deck": str(deck), "pages": len(cards), "tasks": tasks, "solve_s_per_page": solve,
            "draw_pdf_s_per_page": med["pdf"], "draw_pdf_cpu_s_per_page": med["cpu"],
            "outline_s_per_page": med["outline"], "png_s_per_page": med["png"], "card_sheets": sheets,
            "cards_s_per_sheet": med["cards"],
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="example cards only (about 10 s)")
    ap.add_argument("--repeats", type=int, default=3, help="median of this many runs (default 3)")
    ap.add_argument("--csv", default=os.path.join("benchmarks", "out", "booklet.csv"),
                    help="write the figures here ('' to skip)")
    args = ap.parse_args(argv)
    from ubongo_cp.shipped import data_dir, deck_dir

    decks = [data_dir() / "examples"]
    if not args.quick:
        decks += [deck_dir("classic"), deck_dir("duel")]
    rows = [_measure(d, args.repeats) for d in decks]
    print(f"| deck | pages | tasks | solve s/page | draw+PDF s/page wall | draw+PDF s/page CPU "
          f"(target < {TARGET_S_PER_PAGE}) | bookmarks s/page | PNG s/page wall | card sheets | cards s/sheet "
          f"| peak RSS MB |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        ok = "ok" if r["draw_pdf_cpu_s_per_page"] < TARGET_S_PER_PAGE else "MISSED"
        print(f"| {Path(r['deck']).name} | {r['pages']} | {r['tasks']} | {r['solve_s_per_page']:.3f} "
              f"| {r['draw_pdf_s_per_page']:.3f} | {r['draw_pdf_cpu_s_per_page']:.3f} ({ok}) "
              f"| {r['outline_s_per_page']:.4f} | {r['png_s_per_page']:.3f} | {r['card_sheets']} "
              f"| {r['cards_s_per_sheet']:.3f} | {r['peak_rss_mb']:.0f} |")
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
