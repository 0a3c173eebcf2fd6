"""``ubongo-cp census``: every region of N cells analysed for a piece set and K (the command line).

Heavy modules (the census, pandas, pyarrow) are imported inside the run
function, so building the parser stays cheap.
"""

from __future__ import annotations

import argparse
import re

from ..errors import MAX_JOB_CPU_SECONDS, InputError
from ..geometry import MAX_REGION_CELLS
from .common import (say, box_sizes, show_bar, add_executor_arguments, add_progress_argument, confirmed, directory_outputs,
                     executor_from, only_with, pieces_arg, PIECES_HELP)

__all__ = ["add_parsers", "parse_cells", "parse_box"]


def add_parsers(subparsers) -> argparse.ArgumentParser:
    """Add the ``census`` sub-command to the top-level ``subparsers``."""
    p = subparsers.add_parser(
        "census", help="analyse every region of N cells: which make good cards, how rare, which are best",
        description="Enumerate every free region of N cells (hole-free unless --holes, inside an RxC box "
                    "in some orientation if --box) with Redelmeier's algorithm and run the subset analysis "
                    "(which K-subsets tile it, how many ways; UP-2, UP-4) on each. Writes a Parquet dataset "
                    "OUT/regions (pandas.read_parquet reads it) and OUT/manifest.json; re-running the same "
                    "command resumes an interrupted census.")
    p.add_argument("--pieces", required=True, help=PIECES_HELP.format("classic, duel, ..."))
    p.add_argument("--k", type=int, required=True, help="pieces per subset (K)")
    p.add_argument("--cells", required=True, metavar="N",
                   help="region size in cells, or a range such as 10-13")
    p.add_argument("--box", metavar="RxC",
                   help="only regions fitting an R x C box (in some orientation): R rows of C cells of the text "
                        "picture, on hexagons C hexagons per row and on triangles C triangles, a rectangle "
                        "around the picture, not the parallelogram --region RxC names there")
    p.add_argument("--holes", action="store_true", help="include regions with holes")
    p.add_argument("--out", required=True, metavar="DIR", help="census directory (resumed if it holds this census)")
    directory_outputs(p, "out")
    p.add_argument("--count-only", action="store_true",
                   help="only enumerate: regions per shape class in OUT/counts, no analysis")
    p.add_argument("--per-subset", action="store_true",
                   help="also write OUT/subsets: one row per (region, tiling subset, count)")
    only_with(p, "--per-subset", lambda a: not a.count_only, "does not go with --count-only, which analyses no "
                                                              "region")
    p.add_argument("--shards", type=int,
                   help="shards per size, at most one per region (default: from the expected number of regions)")
    p.add_argument("--yes", action="store_true",
                   help="run a census estimated to need more than 24 CPU-hours (refused without it)")
    add_executor_arguments(p, default_jobs=None)
    add_progress_argument(p)
    p.set_defaults(func=_run)
    return p


def parse_cells(text: str) -> list[int]:
    """``"12"`` -> [12]; ``"10-13"`` (or ``10..13``) -> [10, 11, 12, 13].

    Raises
    ------
    InputError
        For anything else, or an empty range.

    Examples
    --------
    >>> parse_cells("12"), parse_cells("10-13")
    ([12], [10, 11, 12, 13])
    """
    match = re.fullmatch(r"\s*(\d{1,9})\s*(?:(?:-|\.\.)\s*(\d{1,9})\s*)?", text)
    if not match:
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise InputError(f"--cells expects N or a range A-B of region sizes, got {shown!r}")
    low = int(match.group(1))
    high = int(match.group(2)) if match.group(2) else low
    if low < 1 or high < low:
        raise InputError(f"--cells {text}: sizes must be at least 1 and the range increasing")
    if high > MAX_REGION_CELLS:
        raise InputError(f"--cells {text}: regions of more than {MAX_REGION_CELLS} cells are not read")
    return list(range(low, high + 1))


def parse_box(text: str) -> tuple[int, int]:
    """``"6x7"`` -> (6, 7).

    Raises
    ------
    InputError
        For anything but two positive integers joined by ``x``.

    Examples
    --------
    >>> parse_box("6x7")
    (6, 7)
    """
    try:
        sizes = box_sizes(text)
    except InputError:   # a size of thousands of digits
        sizes = None
    if sizes is None or len(sizes) != 2 or min(sizes) < 1 or max(sizes) > 9999:
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise InputError(f"--box expects RxC with R, C from 1 to 9999, e.g. 6x6, got {shown!r}")
    return sizes[0], sizes[1]


def _run(args: argparse.Namespace) -> int:
    from ..census import census_summary, read_manifest, region_from_text, run_census

    pieces_arg(args.pieces)   # read as every command reads --pieces (a note where a file has a shipped set's name)
    cells = parse_cells(args.cells)
    box = parse_box(args.box) if args.box else None
    if args.shards is not None and args.shards < 1:
        raise InputError(f"--shards must be at least 1, got {args.shards}")
    with executor_from(args, reach=True) as executor, confirmed(args.yes):
        outcome = run_census(args.pieces, args.k, cells, out_dir=args.out, box=box, holes=args.holes,
                             count_only=args.count_only, per_subset=args.per_subset, executor=executor,
                             shards=args.shards, progress=show_bar(args),
                             max_cpu_seconds=None if args.yes else MAX_JOB_CPU_SECONDS)
    summary = census_summary(args.out)
    sizes = f"{cells[0]}" if len(cells) == 1 else f"{cells[0]}-{cells[-1]}"
    where = f"within {box[0]}x{box[1]}" if box else "any box"
    kind = "with holes allowed" if args.holes else "hole-free"
    print(f"census {outcome.manifest['pieces']}, K = {args.k}, {sizes} cells ({kind}, {where}): "
          f"{summary['regions']:,} regions in {outcome.shards} shard(s) "
          f"({outcome.ran} run now, {outcome.resumed} resumed)")
    if outcome.extra.get("redone"):
        print(f"{len(outcome.extra['redone'])} damaged shard(s) computed again: {', '.join(outcome.extra['redone'])}")
    if not summary["count_only"]:
        total = max(1, summary["regions"])
        print(f"regions with >= 1 uniquely tiling subset: {summary['with_unique']:,} "
              f"({100 * summary['with_unique'] / total:.1f} %)")
        print(f"regions with >= {summary['card']} (a card side): {summary['cards']:,} "
              f"({100 * summary['cards'] / total:.1f} %)")
        best = summary["best"]
        if best is not None:
            print(f"best region: {best['unique_subsets']} uniquely tiling of {best['tiling_subsets']} tiling "
                  f"and {best['matching_subsets']} area-matching {args.k}-subsets "
                  f"({best['cells']} cells, {best['rows']}x{best['cols']}):")
            region = region_from_text(best["region"], read_manifest(args.out).get("grid", "square"))
            for line in region.grid.format(region.cells).splitlines():   # the grid: the census's
                print("  " + line)
    table = "counts" if args.count_only else "regions"
    usage = ""
    if outcome.ran:
        usage = f", {outcome.extra['cpu_seconds']:.1f} CPU-s in the shards"
        if outcome.extra["worker_peak_rss_mb"] is not None:
            usage += f", worker peak RSS {outcome.extra['worker_peak_rss_mb']:.0f} MB"
    say(f"dataset {args.out}/{table} (pandas.read_parquet), manifest {args.out}/manifest.json; "
        f"wall time {outcome.seconds:.1f} s{usage}")
    return 0
