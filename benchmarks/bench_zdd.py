"""Benchmark: counting on the decision diagram (``zdd``), the kernel and the default rule, against ``dxz``.

Run: ``.venv/bin/python -m benchmarks.bench_zdd [--repeat N] [--limit S] [--cases a,b,...]``.

Whole processes, timed from outside, interleaved: in each round every tool
runs every case once, in turn, so that the load of a shared machine falls on
all of them alike. For each process the wall time, the CPU time (user +
system, from ``os.wait4``) and the peak resident set are recorded; the
tables give medians over the rounds and the load average before and after.

Tools:

- ``default``: ``ubongo-cp solve --pieces P --region R --use U --count``
  (the ``auto`` strategy: the measured rule of
  :class:`ubongo_cp.solvers.zdd.AutoBackend` picks the diagram or the kernel);
- ``zdd``: the same with ``--backend zdd`` (the whole diagram, and the
  Burnside count up to symmetry);
- ``kernel``: ``--backend dlx-symmetry`` (the search kernel on the orbit
  decomposition: today's kernel), cut at ``--limit`` seconds;
- ``dxz``: the ``dxz`` package from PyPI (Nishino et al.'s DXZ in C++, a
  benchmark-only peer, ``pip install dxz``; skipped when it is not
  installed): a Python process that loads the same exact-cover matrix (cell
  columns, plus one column per piece for the pentominoes; dense, as
  ``dxz.dxz_count`` takes it) from ``benchmarks/out/`` and counts; killed
  after ``--limit`` + 5 seconds.

Cases: domino tilings of squares (OEIS A004003), of a rectangle and of the
Aztec diamond of order 7 (irregular, 2**28 tilings); straight and L
tromino tilings of rectangles and of a 9x9 square with a 3x3 hole; the
twelve pentominoes in 6x10, 5x12 and 8x8 minus its centre.

Also, in-process: 1,000 uniform samples of the 8x8 domino tilings after the
count (:meth:`ubongo_cp.solvers.zdd.Diagram.sample`), and ``solve --sample
1000`` as a whole process.

Every tool's count is checked against the others. Files (regions, matrices,
``bench_zdd.csv``, ``bench_zdd.md``) go to ``benchmarks/out/`` (untracked).
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "out"
CLI = Path(sys.executable).parent / "ubongo-cp"


def _rect(h: int, w: int) -> list[tuple[int, int]]:
    return [(r, c) for r in range(h) for c in range(w)]


def _aztec(n: int) -> list[tuple[int, int]]:
    """The Aztec diamond of order n: rows of 2, 4, ..., 2n, 2n, ..., 2 cells, centred."""
    cells = []
    for r in range(2 * n):
        half = r + 1 if r < n else 2 * n - r
        cells += [(r, c) for c in range(n - half, n + half)]
    return cells


def _holed(size: int, hole: int) -> list[tuple[int, int]]:
    lo = (size - hole) // 2
    return [(r, c) for r, c in _rect(size, size) if not (lo <= r < lo + hole and lo <= c < lo + hole)]


#: name -> (piece set, piece name or None for the whole set, region cells, kind)
CASES = {
    "domino-6x6": ("classic", "I2", _rect(6, 6), "domino"),
    "domino-8x8": ("classic", "I2", _rect(8, 8), "domino"),
    "domino-10x10": ("classic", "I2", _rect(10, 10), "domino"),
    "domino-7x12": ("classic", "I2", _rect(7, 12), "domino"),
    "domino-aztec7": ("classic", "I2", _aztec(7), "domino"),
    "I3-9x9": ("classic", "I3", _rect(9, 9), "tromino"),
    "I3-6x15": ("classic", "I3", _rect(6, 15), "tromino"),
    "L3-6x9": ("classic", "L3", _rect(6, 9), "tromino"),
    "L3-9x9": ("classic", "L3", _rect(9, 9), "tromino"),
    "L3-9x9-hole3": ("classic", "L3", _holed(9, 3), "tromino"),
    "pent-6x10": ("pentominoes", None, _rect(6, 10), "pentomino"),
    "pent-5x12": ("pentominoes", None, _rect(5, 12), "pentomino"),
    "pent-8x8-centre": ("pentominoes", None, _holed(8, 2), "pentomino"),
}

#: The peer's process: reads the dense 0/1 matrix (one row per line) and counts; no numpy, so its
#: start-up is the interpreter's and dxz's alone.
PEER = """
import json, sys, dxz
rows = open(sys.argv[1]).read().split()
n = dxz.dxz_count(len(rows), len(rows[0]), [int(ch) for row in rows for ch in row])
print(json.dumps({"count": n}))
"""


def _files(name: str) -> tuple[Path, Path, str]:
    """The region file, the dense 0/1 matrix (text, a row per line) and the --use argument of a case."""
    from ubongo_cp.cover import build_instance
    from ubongo_cp.pieces import Region, load_pieces

    set_name, piece, cells, _ = CASES[name]
    OUT.mkdir(parents=True, exist_ok=True)
    h = 1 + max(r for r, _ in cells)
    w = 1 + max(c for _, c in cells)
    region = OUT / f"zdd_{name}.txt"
    region.write_text("\n".join("".join("#" if (r, c) in set(cells) else "." for c in range(w))
                                for r in range(h)) + "\n")
    pieces = load_pieces(set_name)
    chosen = pieces.pieces if piece is None else [pieces[piece]] * (len(cells) // pieces[piece].size)
    inst = build_instance(chosen, Region(tuple(sorted(cells))))
    # dxz: exact cover of the cells (and of each piece when the pieces are all different)
    n_cols = inst.n_cells if piece is not None else inst.n_items
    dense = np.zeros((inst.n_options, n_cols), dtype=np.uint8)
    for o in range(inst.n_options):
        items = inst.option_items(o)
        dense[o, items[items < n_cols]] = 1
    matrix = OUT / f"zdd_{name}.matrix"
    matrix.write_text("\n".join("".join(map(str, row)) for row in dense.tolist()) + "\n")
    use = ",".join(p.name for p in chosen)
    return region, matrix, use


#: The children's environment: byte code cached as in an installed package (this project's shells may
#: set PYTHONDONTWRITEBYTECODE, which would make every process compile the package's sources again).
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


#: GNU time, when installed: the peak resident set of the command itself (wait4's figure, on Linux,
#: starts from the memory of the process that forked it: here this one, 30 MiB with numpy).
TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None


def _run(argv: list[str], limit: float | None = None) -> tuple[float, float | None, float | None, str | None]:
    """(wall s, CPU s, peak RSS MiB or None, stdout or None when killed at ``limit`` s) of one process.

    CPU time from ``os.wait4`` (the process and what it waited for); the peak
    resident set from GNU time's ``%M`` where it is installed.
    """
    start = time.perf_counter()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r", suffix=".rss") as rss_file:
        wrapped = [TIME, "-f", "%M", "-o", rss_file.name, *argv] if TIME else argv
        proc = subprocess.Popen(wrapped, stdout=out, stderr=err, cwd=ROOT, env=ENV)
        killed = False
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if limit is not None and time.perf_counter() - start > limit and not killed:
                _kill_tree(proc.pid)
                killed = True
            time.sleep(0.002)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        cpu = usage.ru_utime + usage.ru_stime
        if killed:  # GNU time was killed with its child: the child's CPU time is not known
            return wall, (None if TIME else cpu), None, None
        if proc.returncode != 0:
            err.seek(0)
            raise RuntimeError(f"{' '.join(map(str, argv))} failed: {err.read().decode().strip()}")
        out.seek(0)
        text = out.read().decode()
        rss = None
        if TIME:
            rss_file.seek(0)
            lines = rss_file.read().split()
            rss = int(lines[-1]) / 1024 if lines and lines[-1].isdigit() else None
    return wall, cpu, rss, text


def _kill_tree(pid: int) -> None:
    """Kill a process and its children (GNU time's child, when the command runs under it)."""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    kids = children.read_text().split() if children.exists() else []
    for kid in kids:
        try:
            os.kill(int(kid), 9)
        except ProcessLookupError:
            pass
    try:
        os.kill(pid, 9)
    except ProcessLookupError:
        pass


def _commands(name: str, kernel_limit: float, have_dxz: bool) -> dict[str, list[str]]:
    region, matrix, use = _files(name)
    set_name = CASES[name][0]
    base = [str(CLI), "solve", "--pieces", set_name, "--region", str(region), "--use", use, "--count", "--json",
            "--max-solutions", "0"]
    cmds = {"default": base, "zdd": base + ["--backend", "zdd"],
            "kernel": base + ["--backend", "dlx-symmetry", "--time-limit", str(kernel_limit)]}
    if have_dxz:
        cmds["dxz"] = [sys.executable, "-c", PEER, str(matrix)]
    return cmds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--limit", type=float, default=60.0,
                        help="time limit of the kernel runs (their --time-limit) and of the dxz runs (killed), s")
    parser.add_argument("--cases", help="comma-separated case names (default: all)")
    parser.add_argument("--report-only", action="store_true", help="rewrite bench_zdd.md from bench_zdd.csv")
    args = parser.parse_args(argv)
    if args.report_only:
        return _report_again(args)
    try:
        import dxz  # noqa: F401

        have_dxz = True
    except ImportError:
        have_dxz = False
        print("dxz is not installed (pip install dxz): its column is skipped", file=sys.stderr)
    names = args.cases.split(",") if args.cases else list(CASES)
    commands = {name: _commands(name, args.limit, have_dxz) for name in names}
    for cmd in _commands("domino-6x6", args.limit, have_dxz).values():  # byte code written, files cached
        _run(cmd)
    load0 = os.getloadavg()
    rows = []
    for rnd in range(args.repeat):
        for name in names:
            tools = list(commands[name])
            tools = tools[rnd % len(tools):] + tools[:rnd % len(tools)]  # rotate who goes first
            for tool in tools:
                wall, cpu, rss, out = _run(commands[name][tool], args.limit + 5 if tool == "dxz" else None)
                data = json.loads(out) if out is not None else {"count": None, "complete": False}
                stats = data.get("stats", {})
                rows.append({"case": name, "tool": tool, "round": rnd, "wall": round(wall, 4),
                             "cpu": None if cpu is None else round(cpu, 4),
                             "rss_mb": None if rss is None else round(rss, 1), "count": data.get("count"),
                             "complete": data.get("complete", True), "engine": stats.get("engine", tool),
                             "diagram_nodes": stats.get("diagram_nodes"),
                             "diagram_peak_mb": stats.get("diagram_peak_mb")})
                print(f"round {rnd} {name:16s} {tool:8s} wall {wall:8.3f} s cpu {cpu or 0:8.3f} s rss {rss or 0:7.1f} MiB "
                      f"count {data.get('count')}" + ("" if data.get("complete", True) else " (cut)"), flush=True)
    load1 = os.getloadavg()
    sampling = _sampling()
    OUT.mkdir(parents=True, exist_ok=True)
    with open(OUT / "bench_zdd.csv", "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    report = _report(rows, names, load0, load1, args, sampling)
    (OUT / "bench_zdd.md").write_text(report)
    print(report)
    return 0


def _report_again(args) -> int:
    """The report of the rows in ``bench_zdd.csv`` (the load and sampling lines from ``bench_zdd.md``)."""
    with open(OUT / "bench_zdd.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        r["complete"] = r["complete"] == "True"
        r["count"] = int(r["count"]) if r["count"] else None
        if r["tool"] == "dxz" and not r["complete"] and TIME:
            r["cpu"] = None  # killed with GNU time: its CPU time is not known
    old = (OUT / "bench_zdd.md").read_text().splitlines()
    names = list(dict.fromkeys(r["case"] for r in rows))
    args.repeat = 1 + max(int(r["round"]) for r in rows)
    report = _report(rows, names, (0.0,) * 3, (0.0,) * 3, args, None)
    lines = report.rstrip().splitlines()
    lines[0] = old[0]  # the load figures of the run
    lines += [""] + [line for line in old if line.startswith("Sampling")]
    (OUT / "bench_zdd.md").write_text("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


def _median(rows, name, tool, key):
    values = [r[key] for r in rows if r["case"] == name and r["tool"] == tool and r[key] not in (None, "")]
    return statistics.median(float(v) for v in values) if values else None


def _report(rows, names, load0, load1, args, sampling) -> str:
    tools = [t for t in ("default", "zdd", "kernel", "dxz") if any(r["tool"] == t for r in rows)]
    lines = [f"Medians of {args.repeat} interleaved rounds, whole processes; wall / CPU seconds. "
             f"Load average before {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}, after "
             f"{load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}. Kernel runs cut at {args.limit:g} s, dxz runs killed at "
             f"{args.limit + 5:g} s; '>' marks a cut run.", "",
             "| case | count | " + " | ".join(f"{t} wall / CPU" for t in tools)
             + " | default engine | default / best of kernel, zdd (wall, CPU) | default / dxz (wall, CPU) "
               "| zdd nodes, peak MiB (diagram / process) |",
             "|---" * (len(tools) + 6) + "|"]
    for name in names:
        counts = {r["count"] for r in rows if r["case"] == name and r["complete"] and r["count"] is not None}
        assert len(counts) == 1, f"{name}: the tools disagree: {counts}"
        cells = []
        for t in tools:
            wall, cpu = _median(rows, name, t, "wall"), _median(rows, name, t, "cpu")
            was_cut = not all(r["complete"] for r in rows if r["case"] == name and r["tool"] == t)
            cells.append(f"{'>' if was_cut else ''}{wall:.3f} / " + ("-" if cpu is None else f"{cpu:.3f}"))
        engine = next(r["engine"] for r in rows if r["case"] == name and r["tool"] == "default")

        def cut(tool):
            return not all(r["complete"] for r in rows if r["case"] == name and r["tool"] == tool)

        def ratio(others, key):
            """default / the best of ``others``; '<=' when that best was cut (its true time is longer)."""
            known = [o for o in others if _median(rows, name, o, key) is not None]
            if not known:
                return "-"
            best = min(known, key=lambda o: _median(rows, name, o, key))
            value = _median(rows, name, "default", key) / _median(rows, name, best, key)
            return f"{'<=' if cut(best) else ''}{value:.2f}"

        vs_best = f"{ratio(['kernel', 'zdd'], 'wall')} / {ratio(['kernel', 'zdd'], 'cpu')}"
        vs_dxz = f"{ratio(['dxz'], 'wall')} / {ratio(['dxz'], 'cpu')}" if "dxz" in tools else "-"
        zrow = next(r for r in rows if r["case"] == name and r["tool"] == "zdd")
        rss = [float(r["rss_mb"]) for r in rows
               if r["case"] == name and r["tool"] == "zdd" and r["rss_mb"] not in (None, "")]
        mem = f"{zrow['diagram_nodes']}, {zrow['diagram_peak_mb']} / {statistics.median(rss) if rss else '-'}"
        lines.append(f"| {name} | {counts.pop():,} | " + " | ".join(cells) + f" | {engine} | {vs_best} | {vs_dxz} "
                     f"| {mem} |")
    if sampling is None:
        return "\n".join(lines + ["", ""])
    lines += ["", f"Sampling (8x8 dominoes, in-process after the count): {sampling['in_process']:.3f} s for 1,000 "
                  f"uniform samples; whole process `solve --sample 1000 --json` {sampling['sample_wall']:.3f} s wall / "
                  f"{sampling['sample_cpu']:.3f} s CPU vs `--count` {sampling['count_wall']:.3f} / "
                  f"{sampling['count_cpu']:.3f} s (medians of 3, interleaved).", ""]
    return "\n".join(lines)


def _sampling() -> dict:
    from ubongo_cp.cover import build_instance
    from ubongo_cp.pieces import Region, load_pieces
    from ubongo_cp.solvers.zdd import build_diagram

    inst = build_instance([load_pieces("classic")["I2"]] * 32, Region.rectangle(8, 8))
    diagram = build_diagram(inst)
    diagram.count()
    start = time.perf_counter()
    samples = diagram.sample(1000, seed=1)
    in_process = time.perf_counter() - start
    assert len(samples) == 1000
    region, _, use = _files("domino-8x8")
    base = [str(CLI), "solve", "--pieces", "classic", "--region", str(region), "--use", use, "--json"]
    runs = [(_run(base + ["--sample", "1000", "--seed", "1"]), _run(base + ["--count", "--max-solutions", "0"]))
            for _ in range(3)]  # interleaved
    return {"in_process": in_process, "sample_wall": statistics.median(s[0] for s, _ in runs),
            "sample_cpu": statistics.median(s[1] for s, _ in runs),
            "count_wall": statistics.median(c[0] for _, c in runs), "count_cpu": statistics.median(c[1] for _, c in runs)}


if __name__ == "__main__":
    sys.exit(main())
