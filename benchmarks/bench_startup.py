"""Benchmark: start-up of small commands, and what each dependency's import costs.

Run: ``.venv/bin/python -m benchmarks.bench_startup [--baseline REV] [--repeat N]``.

Prints two tables (and writes them as CSV to ``benchmarks/out/startup*.csv``):

- *imports*: whole-process seconds of ``python -c "import X"`` for each
  dependency and for the toolkit's own entry modules, minus ``python -c pass``
  (the interpreter's own start), median of ``--repeat`` runs;
- *commands*: whole-process seconds of small ``ubongo-cp`` commands (help,
  version, a bad-input error, a card task solved with DLX, two subset
  analyses, a pentomino count), median of ``--repeat`` runs. With
  ``--baseline REV`` the same commands also run on that git revision
  (checked out into ``benchmarks/out/``, run with ``PYTHONPATH``), in the
  same loop, one after the other (interleaved), and a ratio column shows
  ``this checkout / baseline``.

Every figure is a median of interleaved whole-process runs on a possibly
shared machine: compare columns of one run, not runs of different days.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "out"

IMPORTS = ["numpy", "pandas", "pyarrow", "matplotlib.pyplot", "numba", "ortools.sat.python.cp_model",
           "dask.distributed", "networkx", "scipy.stats", "pysat.solvers", "xcover",
           "ubongo_cp", "ubongo_cp.cli", "ubongo_cp.solvers", "ubongo_cp.solvers.dancing", "ubongo_cp.analyze"]

REGION_22 = "#####\n#####\n#####\n#####\n.##\n"


def commands(tmp: Path) -> list[tuple[str, list[str]]]:
    """(label, arguments after ``python -m ubongo_cp.cli``) of the timed commands."""
    region22 = tmp / "region22.txt"
    region22.write_text(REGION_22)
    rect = tmp / "rect6x10.txt"
    rect.write_text("##########\n" * 6)
    return [
        ("--help", ["--help"]),
        ("--version", ["--version"]),
        ("bad input (missing region file)", ["solve", "--pieces", "classic", "--region", str(tmp / "none.txt")]),
        ("solve classic_X1_easy --face 1", ["solve", "puzzles/examples/classic_X1_easy.toml", "--face", "1"]),
        ("analyze duel_board1 (16 cells) K=3", ["analyze", "--pieces", "duel", "--region",
                                                "puzzles/examples/duel_board1.txt", "--k", "3"]),
        ("analyze 22-cell region K=4", ["analyze", "--pieces", "duel", "--region", str(region22), "--k", "4"]),
        ("count pentominoes 6x10", ["solve", "--pieces", "pentominoes", "--region", str(rect), "--count"]),
    ]


def _time(argv: list[str], env: dict | None = None, cwd: Path = ROOT) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    took = time.perf_counter() - t0
    if proc.returncode not in (0, 2):
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {proc.stderr[-500:]}")
    return took


def _baseline(rev: str) -> tuple[dict, Path]:
    """A checkout of ``rev`` under benchmarks/out; the environment and directory that run it.

    ``python -m`` puts the current directory first on ``sys.path``, so the
    baseline's commands run from inside its checkout (relative paths such as
    ``puzzles/examples/...`` exist there too).
    """
    where = OUT / f"baseline-{rev}"
    if not where.exists():
        subprocess.run(["git", "worktree", "add", "--detach", str(where), rev], cwd=ROOT, check=True,
                       capture_output=True)
        if (where / "setup.py").exists():  # the revision's own compiled kernel, built in place
            subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=where,
                           capture_output=True)
    return {**os.environ, "PYTHONPATH": str(where)}, where


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (median; default 5)")
    parser.add_argument("--baseline", metavar="REV", help="also time the commands on this git revision")
    parser.add_argument("--no-imports", action="store_true", help="skip the import table")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    py = sys.executable

    if not args.no_imports:
        base = [_time([py, "-c", "pass"]) for _ in range(args.repeat)]
        rows = [("python -c pass", statistics.median(base))]
        for module in IMPORTS:
            runs = [_time([py, "-c", f"import {module}"]) for _ in range(args.repeat)]
            rows.append((f"import {module}", statistics.median(runs) - rows[0][1]))
        print("| import | seconds (minus interpreter start) |\n|---|---:|")
        for label, t in rows:
            print(f"| {label} | {t:.3f} |")
        (OUT / "startup_imports.csv").write_text("import,seconds\n" + "".join(f"{a},{b:.4f}\n" for a, b in rows))
        print()

    tmp = OUT / "startup-inputs"
    tmp.mkdir(exist_ok=True)
    cmds = commands(tmp)
    env_base, base_dir = _baseline(args.baseline) if args.baseline else (None, ROOT)
    times: dict[str, list[float]] = {label: [] for label, _ in cmds}
    base_times: dict[str, list[float]] = {label: [] for label, _ in cmds}
    for _label, cmd in cmds:  # warm caches (numba's, the OS's) once for both
        _time([py, "-m", "ubongo_cp.cli", *cmd])
        if env_base:
            _time([py, "-m", "ubongo_cp.cli", *cmd], env_base, base_dir)
    for _ in range(args.repeat):
        for label, cmd in cmds:
            times[label].append(_time([py, "-m", "ubongo_cp.cli", *cmd]))
            if env_base:
                base_times[label].append(_time([py, "-m", "ubongo_cp.cli", *cmd], env_base, base_dir))
    head = "| command | seconds |" + (f" baseline {args.baseline} | ratio |" if env_base else "")
    print(head + "\n|---|---:|" + ("---:|---:|" if env_base else ""))
    lines = ["command,seconds" + (",baseline_seconds,ratio" if env_base else "")]
    for label, _ in cmds:
        t = statistics.median(times[label])
        row = f"| {label} | {t:.3f} |"
        csv = f'"{label}",{t:.4f}'
        if env_base:
            b = statistics.median(base_times[label])
            row += f" {b:.3f} | {t / b:.2f} |"
            csv += f",{b:.4f},{t / b:.3f}"
        print(row)
        lines.append(csv)
    (OUT / "startup_commands.csv").write_text("\n".join(lines) + "\n")
    print(f"\nmedian of {args.repeat} interleaved whole-process runs; load average {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
