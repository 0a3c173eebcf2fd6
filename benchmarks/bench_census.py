"""Census benchmark: enumeration at scale, analysis rate per core, a whole census on two cores, a projection.

Run: ``python -m benchmarks.bench_census [--quick] [--parts a,b]``. Writes
only to the untracked ``benchmarks/out/``: per part
``bench_census.<part>.json``, and, assembled from the latest run of every
part, ``bench_census.csv`` (every figure) and ``bench_census.md`` (the tables
and the projections, also printed); and the census directories it makes
(``benchmarks/out/census-*``).

What is measured, and how:

1. **Enumeration** (correctness at scale and speed): free polyominoes of
   12 cells (63600, OEIS A000105), fixed ones (505861, A001168), hole-free
   ones of 11 and 12 cells (16094, 58937, A000104), with the streaming
   generator and with the compiled counter; one process, wall seconds.
2. **Analysis rate per core in a warm worker**: regions analysed per CPU
   second (``time.process_time``) by :func:`ubongo_cp.census.census_row`
   (one :func:`~ubongo_cp.analyze.analyze` call each) for classic K = 3 on
   12 cells within 6x6, classic K = 4 on 16 cells within 7x7 and Duel K = 4
   on 22 cells within 7x7 (the middle sizes of the card sides), after a
   warm-up, on every k-th region of two random shards of the census's own
   plan (a sample that stands for the whole enumeration).
3. **Whole census**: every hole-free 12-cell region (58937), classic set,
   K = 3, two worker processes (``--jobs 2``), in a fresh process: wall
   time, CPU time in the shards, peak RSS per worker
   (``resource.getrusage`` in the worker, after its last shard). The same
   for 10 and 11 cells shows that a worker's memory does not grow with N.
4. **Count-only** census of 16-20 cells within 6x6 (the projection's
   design space) on two workers: exact region counts.
5. **Projections** of analysed censuses on a Dask cluster: 16-20 cells
   within 6x6, classic set, K = 4 (region counts from (4)), and Duel side A,
   K = 4, 21-23 cells within 7x7 (counts estimated): CPU-hours from the
   mean cost per region of a sample drawn as in (2) (the first regions of a
   shard would be biased: long and cheap), output size from the bytes per
   row of the sample (calibrated against the real 12-cell dataset).

The machine is shared: figures are noisy (the load average is recorded).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "out"

#: (piece set, K, cells, box, regions sampled) of the analysis-rate figures.
RATE_CASES = [("classic", 3, 12, (6, 6), 240), ("classic", 4, 16, (7, 7), 120), ("duel", 4, 22, (7, 7), 60)]
#: The design space of the projection: classic set, K = 4, 16-20 cells within 6x6.
PROJECTION = dict(pieces="classic", k=4, cells=range(16, 21), box=(6, 6))
#: Duel side A (UD-1, UD-2): K = 4, 21-23 cells within 7x7; too large to count here.
DUEL_A = dict(pieces="duel", k=4, cells=range(21, 24), box=(7, 7))
#: Regions analysed per size for the projections' per-region cost and bytes per row.
PROJECTION_SAMPLE = 80


def sample_regions(spec, n: int, count: int, shards: int = 2, seed: int = 0) -> list:
    """About ``count`` regions of ``n`` cells from random shards of the census's own plan.

    Shards of :func:`ubongo_cp.census.plan_census` are drawn at random
    (seeded) until about ``count`` regions are in; each is counted (compiled
    counter), enumerated in full and every k-th region kept, about
    ``count / shards`` per shard: a cluster sample of the search tree's
    subtrees, systematic inside each shard, so the regions stand for all of
    them. (The first regions of an enumeration or a shard would not: the
    search meets long, thin regions first, which are the cheapest to analyse;
    Knuth's random probes die in a box, leaving a few heavy weights.)
    """
    import random

    from ubongo_cp.census import plan_census, make_spec
    from ubongo_cp.polyominoes import Shard, count_polyominoes, free_polyominoes

    plan = plan_census(make_spec(spec.piece_set, spec.k, n, box=spec.box))[str(n)]
    total, depth = plan["shards"], plan["depth"]
    per = math.ceil(count / shards)
    order = list(range(total))
    random.Random(seed).shuffle(order)
    regions = []
    for i in order[:50]:  # shards may be empty (canonical regions gather in some subtrees): draw on
        shard = Shard(i, total, depth)
        step = max(1, count_polyominoes(n, box=spec.box, shard=shard) // per)
        picked = [shape for j, shape in enumerate(free_polyominoes(n, box=spec.box, shard=shard)) if j % step == 0]
        regions += picked[:per]
        if len(regions) >= count:
            break
    return regions


def analysed_sample(spec, n: int, count: int) -> dict:
    """Analyse a sample of regions in this (warm) process: CPU cost per region, rows."""
    from ubongo_cp.census import census_row

    sample = sample_regions(spec, n, count)
    for shape in sample[:3]:  # warm-up: the DLX kernel loaded, caches filled
        census_row(spec, shape)
    cpu = time.process_time()
    rows = [census_row(spec, shape)[0] for shape in sample]
    cpu = time.process_time() - cpu
    return {"regions": len(rows), "ms_per_region": 1000 * cpu / len(rows), "per_core_per_s": len(rows) / cpu,
            "mean_unique": sum(r["unique_subsets"] for r in rows) / len(rows),
            "mean_tiling": sum(r["tiling_subsets"] for r in rows) / len(rows), "rows": rows}


def analysis_rate(pieces: str, k: int, n: int, box, count: int) -> dict:
    """Regions per CPU second of census_row on a sample, in this (warm) process."""
    from ubongo_cp.census import make_spec

    result = analysed_sample(make_spec(pieces, k, n, box=box), n, count)
    del result["rows"]
    return result


def enumeration(quick: bool) -> list[dict]:
    """Published counts at n = 11, 12 by the generators and the compiled counter (wall seconds)."""
    from ubongo_cp.polyominoes import count_polyominoes, fixed_polyominoes, free_polyominoes

    count_polyominoes(4)  # load the compiled kernel outside the timings
    cases = [("free, with holes (A000105)", 12, True, True, 63600),
             ("fixed, with holes (A001168)", 12, True, False, 505861),
             ("free, hole-free (A000104)", 11, False, True, 16094),
             ("free, hole-free (A000104)", 12, False, True, 58937)]
    rows = []
    for what, n, holes, free, published in cases:
        row = {"what": what, "n": n, "published": published}
        if not quick or n == 11:
            t = time.perf_counter()
            gen = free_polyominoes(n, holes=holes) if free else fixed_polyominoes(n, holes=holes)
            row["generator"] = sum(1 for _ in gen)
            row["generator_s"] = time.perf_counter() - t
        t = time.perf_counter()
        row["compiled"] = count_polyominoes(n, holes=holes, free=free)
        row["compiled_s"] = time.perf_counter() - t
        if row["compiled"] != published or row.get("generator", published) != published:
            raise SystemExit(f"enumeration differs from the published count: {row}")
        rows.append(row)
    return rows


def census_process(out: Path, pieces: str, k: int, cells, *, box=None, count_only=False, jobs=2) -> dict:
    """Run a census in a fresh Python process (fair memory figures); its outcome and wall time."""
    shutil.rmtree(out, ignore_errors=True)
    code = ("import json, sys, time; t = time.perf_counter()\n"
            "from ubongo_cp.census import run_census\n"
            "from ubongo_cp.executors import make_executor\n"
            f"with make_executor('local', jobs={jobs}) as pool:\n"
            f"    o = run_census({pieces!r}, {k}, {list(cells)!r}, out_dir={str(out)!r}, box={box!r}, "
            f"count_only={count_only}, executor=pool, progress=False)\n"
            "print(json.dumps({'regions': o.regions, 'shards': o.shards, 'census_s': o.seconds, "
            "'process_s': time.perf_counter() - t, **o.extra}))\n")
    t = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True, capture_output=True, text=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    result["wall_s"] = time.perf_counter() - t
    return result


def bytes_per_row(rows: list[dict]) -> float:
    """Parquet (zstd) bytes per row of a small regions table, the file's fixed part subtracted."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ubongo_cp.census import _schemas

    schema = _schemas()["regions"]

    def size(data) -> int:
        buf = io.BytesIO()
        pq.write_table(pa.Table.from_pylist(data, schema=schema), buf, compression="zstd")
        return buf.tell()

    return (size(rows) - size(rows[:1])) / max(1, len(rows) - 1)


def projection_samples(case: dict, quick: bool) -> list[dict]:
    """Weighted per-region CPU cost, unique subsets and bytes per row for each size of a design space."""
    from ubongo_cp.census import make_spec

    spec = make_spec(case["pieces"], case["k"], list(case["cells"]), box=case["box"])
    out = []
    for n in case["cells"]:
        r = analysed_sample(spec, n, PROJECTION_SAMPLE // (3 if quick else 1))
        out.append({"n": n, "sampled": r["regions"], "ms_per_region": r["ms_per_region"],
                    "mean_unique": r["mean_unique"], "mean_tiling": r["mean_tiling"],
                    "sample_bytes_per_row": bytes_per_row(r["rows"])})
    return out


def bytes_calibration() -> float:
    """Real bytes per row of the 12-cell census over the estimate from a sample of its rows (1 if absent).

    A sample of 60 rows compresses worse than a shard of 2,000.
    """
    from ubongo_cp.census import read_census

    real_dir = OUT / "census-classic-k3-n12"
    if not (real_dir / "regions").exists():
        return 1.0
    frame = read_census(real_dir)
    real = sum(f.stat().st_size for f in (real_dir / "regions").glob("n*.parquet")) / len(frame)
    rows = frame.iloc[:: len(frame) // PROJECTION_SAMPLE].head(PROJECTION_SAMPLE).to_dict("records")
    for r in rows:
        r["unique_sets"] = list(r["unique_sets"])
    return real / bytes_per_row(rows)


def projection_table(title: str, case: dict, counts: dict, samples: list[dict], calibration: float,
                     figures: list, note: str) -> list[str]:
    """Markdown of one projection: regions, CPU-hours, output per size; cluster wall times; the command."""
    md = ["", f"## Projection: {title}", "", note, "",
          "| cells | regions | regions analysed | ms per region | CPU-hours | MB of Parquet |",
          "|--:|--:|--:|--:|--:|--:|"]
    total_cpu_h = total_mb = total_regions = 0.0
    for s in samples:
        n = s["n"]
        regions = counts[n]
        cpu_h = regions * s["ms_per_region"] / 1000 / 3600
        mb = regions * s["sample_bytes_per_row"] * calibration / 1e6
        total_cpu_h, total_mb, total_regions = total_cpu_h + cpu_h, total_mb + mb, total_regions + regions
        figures.append({"part": f"projection {title}", "n": n, "regions": regions, "cpu_hours": cpu_h, "mb": mb,
                        **s})
        md.append(f"| {n} | {regions:,.0f} | {s['sampled']} | {s['ms_per_region']:.1f} | "
                  f"{cpu_h:,.1f} | {mb:,.0f} |")
    md.append(f"| all | {total_regions:,.0f} | | | {total_cpu_h:,.1f} | {total_mb:,.0f} |")
    from ubongo_cp.census import MAX_SHARDS, ROWS_PER_SHARD

    shards = sum(min(MAX_SHARDS, math.ceil(counts[s["n"]] / ROWS_PER_SHARD)) for s in samples)
    per_shard = total_regions / shards
    cells = list(case["cells"])
    box = case["box"]
    md += ["", f"- **CPU:** {total_cpu_h:,.0f} CPU-hours; wall time "
           + ", ".join(f"{total_cpu_h / w / 0.9:,.1f} h on {w} workers" for w in (16, 64, 256))
           + " (one core each, 90 % efficiency assumed: shards are independent, the client only writes files); "
           f"this machine's two cores would need {total_cpu_h / 2 / 0.9 / 24:,.1f} days.",
           f"- **Output:** about {total_mb / 1000:,.2f} GB of Parquet (zstd) in about {shards:,} shard files "
           f"(on average {per_shard:,.0f} regions each, at most {MAX_SHARDS:,} shards per size); `--per-subset` adds "
           "one row per tiling subset.",
           "- **Command:**", "", "```bash",
           f"ubongo-cp census --pieces {case['pieces']} --k {case['k']} --cells {cells[0]}-{cells[-1]} "
           f"--box {box[0]}x{box[1]} --out out/census/{case['pieces']}-k{case['k']}-{cells[0]}-{cells[-1]} \\",
           "    --executor dask --scheduler tcp://SCHEDULER:8786", "```"]
    return md


PARTS = ("enumeration", "rate", "census", "count", "projection")


def part_enumeration(args) -> tuple[list[str], list[dict]]:
    """1. The published counts at n = 11, 12."""
    md = ["## Enumeration (one process)", "",
          "| polyominoes | n | published | generator | s | compiled counter | s |", "|---|--:|--:|--:|--:|--:|--:|"]
    figures = []
    for row in enumeration(args.quick):
        figures.append({"part": "enumeration", **row})
        md.append(f"| {row['what']} | {row['n']} | {row['published']:,} | {row.get('generator', float('nan')):,} | "
                  f"{row.get('generator_s', float('nan')):.2f} | {row['compiled']:,} | {row['compiled_s']:.3f} |")
    return md, figures


def part_rate(args) -> tuple[list[str], list[dict]]:
    """2. Analysis rate per core, warm."""
    md = ["## Analysis rate per core (warm process, CPU time)", "",
          "| pieces | K | cells | box | regions analysed | ms per region | regions per second per core |",
          "|---|--:|--:|---|--:|--:|--:|"]
    figures = []
    for pieces, k, n, box, count in RATE_CASES:
        r = analysis_rate(pieces, k, n, box, count // (4 if args.quick else 1))
        figures.append({"part": "rate", "pieces": pieces, "k": k, "n": n, "box": f"{box[0]}x{box[1]}", **r})
        md.append(f"| {pieces} | {k} | {n} | {box[0]}x{box[1]} | {r['regions']} | "
                  f"{r['ms_per_region']:.2f} | {r['per_core_per_s']:.0f} |")
    return md, figures


def part_census(args) -> tuple[list[str], list[dict]]:
    """3. Whole censuses on two workers, each in a fresh process."""
    md = ["## Whole census, classic K = 3, hole-free, any box, 2 worker processes (fresh process each)", "",
          "| cells | regions | shards | wall s | CPU s in shards | regions/s | worker peak RSS MB |",
          "|--:|--:|--:|--:|--:|--:|--:|"]
    figures = []
    for n in [8, 10] if args.quick else [10, 11, 12]:
        r = census_process(OUT / f"census-classic-k3-n{n}", "classic", 3, [n])
        figures.append({"part": "census", "n": n, **r})
        md.append(f"| {n} | {r['regions']:,} | {r['shards']} | {r['wall_s']:.1f} | {r['cpu_seconds']:.1f} | "
                  f"{r['regions'] / r['wall_s']:.0f} | {r['worker_peak_rss_mb']:.0f} |")
    if not args.quick and figures[-1]["regions"] != 58937:
        raise SystemExit(f"the 12-cell census has {figures[-1]['regions']} regions, not 58937 (A000104)")
    return md, figures


def part_count(args) -> tuple[list[str], list[dict]]:
    """4. Count-only census of the projection's design space."""
    from ubongo_cp.census import read_census

    cells = list(PROJECTION["cells"])[:2] if args.quick else list(PROJECTION["cells"])
    out = OUT / "census-classic-k4-16-20-6x6-count"
    r = census_process(out, PROJECTION["pieces"], PROJECTION["k"], cells, box=PROJECTION["box"], count_only=True)
    counts = read_census(out, "counts").groupby("cells")["regions"].sum()
    figures = [{"part": "count-only", "cells": f"{cells[0]}-{cells[-1]}", **r}]
    figures += [{"part": "count", "n": n, "regions": int(counts[n])} for n in cells]
    md = [f"## Count-only census: hole-free regions of {cells[0]}-{cells[-1]} cells within 6x6 "
          f"(2 workers, {r['wall_s']:.0f} s wall, {r['cpu_seconds']:.0f} CPU-s)", "",
          "| cells | regions |", "|--:|--:|"]
    md += [f"| {n} | {int(counts[n]):,} |" for n in cells]
    md.append(f"| all | {int(counts.sum()):,} |")
    return md, figures


def part_projection(args) -> tuple[list[str], list[dict]]:
    """5. Projections: the analysed census of that space, and of Duel side A, on a Dask cluster."""
    from ubongo_cp.polyominoes import estimate_count

    counted = _load_part("count")
    if counted is None:
        raise SystemExit("the projection needs the count-only census: run the 'count' part first")
    exact = {f["n"]: f["regions"] for f in counted if f["part"] == "count"}
    count_cpu = next(f["cpu_seconds"] for f in counted if f["part"] == "count-only")
    figures: list[dict] = []
    calibration = bytes_calibration()
    counts = dict(exact)
    for n in PROJECTION["cells"]:
        if n not in counts:
            counts[n] = estimate_count(n, box=PROJECTION["box"], probes=20000)
    all_exact = len(exact) == len(PROJECTION["cells"])
    md = projection_table(
        "classic set, K = 4, hole-free regions of 16-20 cells within 6x6", PROJECTION, counts,
        projection_samples(PROJECTION, args.quick), calibration, figures,
        "Region counts " + ("exact (the count-only census above)" if all_exact else
                            "exact where counted above, estimated (Knuth) beyond")
        + f"; per-region CPU cost and bytes per row from about {PROJECTION_SAMPLE} regions per size, every k-th "
        "region of random shards of the census's own plan, analysed in a warm process; bytes calibrated "
        f"against the real 12-cell dataset (x{calibration:.2f}).")
    leaves = sum(estimate_count(n, box=PROJECTION["box"], holes=None, probes=20000) for n in exact)
    counter_rate = leaves / count_cpu
    duel_leaves = sum(estimate_count(n, box=DUEL_A["box"], holes=None, probes=20000) for n in DUEL_A["cells"])
    figures.append({"part": "counter rate", "leaves_per_cpu_s": counter_rate, "duel_a_leaves": duel_leaves})
    estimates = {}
    for n in DUEL_A["cells"]:
        runs = [estimate_count(n, box=DUEL_A["box"], probes=20000, seed=seed) for seed in range(5)]
        estimates[n] = sum(runs) / len(runs)
        figures.append({"part": "duel-A estimate", "n": n, "estimates": runs})
    md += projection_table(
        "Duel side A, K = 4, hole-free regions of 21-23 cells within 7x7", DUEL_A, estimates,
        projection_samples(DUEL_A, args.quick), calibration, figures,
        "Region counts **estimated** (Knuth's stratified random probes, mean of 5 x 20,000 probes per size; their "
        f"spread is in the CSV). A count-only census would meet about {duel_leaves:.1e} search-tree leaves: "
        f"{duel_leaves / counter_rate / 3600:,.1f} CPU-hours at the compiled counter's rate in the count-only "
        f"census above ({counter_rate / 1e6:.1f} million leaves per CPU second). Costs as above.")
    md += ["", "Both commands need on the cluster only `ubongo-cp` installed (workers read no files: a unit of "
           "work is a shard id and the parameters); start the scheduler with `dask scheduler` and one "
           "`dask worker tcp://SCHEDULER:8786 --nthreads 1` per core. The client (the machine running the command) "
           "writes the dataset; a killed client resumes with the same command, losing at most the shards in "
           "flight (sent in waves of 8 per worker). Memory: a worker holds one shard's rows at a time; its peak "
           "RSS stayed flat as N grew (whole-census table above)."]
    return md[1:], figures  # without the leading blank line


def _load_part(part: str) -> list[dict] | None:
    path = OUT / f"bench_census.{part}.json"
    return json.loads(path.read_text(encoding="utf-8"))["figures"] if path.exists() else None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true",
                    help="small versions of every part (the whole census of 10 cells instead of 12; count 16-17 "
                         "cells only)")
    ap.add_argument("--parts", default=",".join(PARTS),
                    help=f"comma-separated parts to run (default all: {','.join(PARTS)}); the report is assembled "
                         "from the latest run of each part")
    args = ap.parse_args(argv)
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    unknown = sorted(set(parts) - set(PARTS))
    if unknown:
        ap.error(f"unknown part(s) {', '.join(unknown)}; choose from {', '.join(PARTS)}")
    OUT.mkdir(parents=True, exist_ok=True)
    for part in PARTS:
        if part not in parts:
            continue
        load = os.getloadavg()[0]
        start = time.perf_counter()
        md, figures = globals()[f"part_{part}"](args)
        record = {"part": part, "quick": args.quick, "load_at_start": load, "seconds": time.perf_counter() - start,
                  "md": md, "figures": figures}
        (OUT / f"bench_census.{part}.json").write_text(json.dumps(record, indent=1, default=str), encoding="utf-8")
    text = ["# Census benchmark", "",
            f"`python -m benchmarks.bench_census`; {os.cpu_count()} cores, a shared machine: figures are noisy "
            "(the load average when each part started is given).", ""]
    figures = []
    for part in PARTS:
        path = OUT / f"bench_census.{part}.json"
        if not path.exists():
            continue
        record = json.loads(path.read_text(encoding="utf-8"))
        text += [*record["md"], "", f"*(part `{part}`{' --quick' if record['quick'] else ''}: load average "
                 f"{record['load_at_start']:.1f} at start, {record['seconds']:.0f} s)*", ""]
        figures += record["figures"]
    (OUT / "bench_census.md").write_text("\n".join(text), encoding="utf-8")
    keys = sorted({k for f in figures for k in f})
    with (OUT / "bench_census.csv").open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=keys)
        writer.writeheader()
        writer.writerows(figures)
    print("\n".join(text))
    print(f"wrote {OUT / 'bench_census.md'} and {OUT / 'bench_census.csv'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
