"""Benchmark: start-up of small commands, and what each dependency's import costs.

Run: ``.venv/bin/python -m benchmarks.bench_startup [--baseline REV] [--repeat N]``.

Prints two tables (and writes them as CSV to ``benchmarks/out/startup*.csv``):

- *imports*: whole-process seconds of ``python -c "import X"`` for each
  dependency and for the toolkit's own entry modules, minus ``python -c pass``
  (the interpreter's own start), median of ``--repeat`` runs;
- *commands*: whole-process CPU and wall seconds of small ``ubongo-cp``
  commands (help, version, a bad-input error, a card task solved on the
  default solver, also through the console script, two subset analyses, a
  pentomino count) and of ``python -c pass`` in the same rounds, medians of
  ``--repeat`` interleaved runs, with each command's CPU over the
  interpreter's (the start-up target: a card task at most 3x), and of
  ``python -c "import argparse, tomllib"`` (the standard library a card
  task cannot do without: its command line and its card file). With
  ``--baseline REV`` the same commands also run on that git revision
  (checked out into ``benchmarks/out/``, run with ``PYTHONPATH``), in the
  same loop, one after the other (interleaved), and a ratio column shows
  ``this checkout / baseline`` (wall).

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

#: The row of the commands table timing what a card task imports from the standard library alone.
FLOOR = "python -c 'import argparse, tomllib'"


def commands(tmp: Path) -> list[tuple[str, list[str]]]:
    """(label, arguments after ``python -m ubongo_cp.cli``) of the timed commands."""
    region22 = tmp / "region22.txt"
    region22.write_text(REGION_22)
    rect = tmp / "rect6x10.txt"
    rect.write_text("##########\n" * 6)
    knuth = tmp / "knuth.dlx"
    knuth.write_text("a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n")
    return [
        ("--help", ["--help"]),
        ("--version", ["--version"]),
        ("bad input (missing region file)", ["solve", "--pieces", "classic", "--region", str(tmp / "none.txt")]),
        ("solve classic_X1_easy --face 1", ["solve", "puzzles/examples/classic_X1_easy.toml", "--face", "1"]),
        ("exact-cover Knuth's example", ["exact-cover", str(knuth), "--count"]),
        ("analyze duel_board1 (16 cells) K=3", ["analyze", "--pieces", "duel", "--region",
                                                "puzzles/examples/duel_board1.txt", "--k", "3"]),
        ("analyze 22-cell region K=4", ["analyze", "--pieces", "duel", "--region", str(region22), "--k", "4"]),
        ("count pentominoes 6x10", ["solve", "--pieces", "pentominoes", "--region", str(rect), "--count"]),
    ]


def _time(argv: list[str], env: dict | None = None, cwd: Path = ROOT) -> float:
    return _run(argv, env, cwd)[0]


def _run(argv: list[str], env: dict | None = None, cwd: Path = ROOT) -> tuple[float, float]:
    """(wall, CPU) seconds of one whole process (exit 0 or 2: a bad-input error is a timed command too)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    took = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 2):
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {proc.stderr[-500:]}")
    return took, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


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
    _compiled(where)
    return {**os.environ, "PYTHONPATH": str(where)}, where


def _compiled(tree: Path) -> None:
    """Write the bytecode of a tree's package (as an install does; with ``PYTHONDONTWRITEBYTECODE`` set, a
    tree without it would compile its modules from source in every run)."""
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "ubongo_cp")], check=True,
                   capture_output=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (median; default 5)")
    parser.add_argument("--baseline", metavar="REV", help="also time the commands on this git revision")
    parser.add_argument("--no-imports", action="store_true", help="skip the import table")
    args = parser.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    py = sys.executable
    _compiled(ROOT)

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
    cli = str(Path(py).parent / "ubongo-cp")
    argvs = {"python -c pass": [py, "-c", "pass"],
             # the floor of a card task: the standard library it cannot do without (its command line, its card)
             FLOOR: [py, "-c", "import argparse, tomllib"],
             **{label: [py, "-m", "ubongo_cp.cli", *cmd] for label, cmd in commands(tmp)},
             "ubongo-cp solve classic_X1_easy --face 1 (console script)":
                 [cli, "solve", "puzzles/examples/classic_X1_easy.toml", "--face", "1"]}
    env_base, base_dir = _baseline(args.baseline) if args.baseline else (None, ROOT)
    runs: dict[str, list[tuple[float, float]]] = {label: [] for label in argvs}
    base_times: dict[str, list[float]] = {label: [] for label in argvs}
    labels = list(argvs)
    for label in labels:  # warm caches (numba's, the OS's) once for both
        _time(argvs[label])
        if env_base and "console" not in label:
            _time(argvs[label], env_base, base_dir)
    for r in range(args.repeat):  # the order rotates from round to round
        for label in labels[r % len(labels):] + labels[:r % len(labels)]:
            runs[label].append(_run(argvs[label]))
            if env_base and "console" not in label:
                base_times[label].append(_time(argvs[label], env_base, base_dir))
    interpreter = statistics.median(c for _, c in runs["python -c pass"])
    head = "| command | CPU s | wall s | CPU / python -c pass |" + \
        (f" baseline {args.baseline} wall s | ratio |" if env_base else "")
    print(head + "\n|---|---:|---:|---:|" + ("---:|---:|" if env_base else ""))
    lines = ["command,cpu_seconds,wall_seconds,cpu_over_interpreter" + (",baseline_wall_seconds,ratio" if env_base else "")]
    for label in labels:
        c = statistics.median(x for _, x in runs[label])
        t = statistics.median(w for w, _ in runs[label])
        row = f"| {label} | {c:.3f} | {t:.3f} | {c / interpreter:.1f}x |"
        csv = f'"{label}",{c:.4f},{t:.4f},{c / interpreter:.2f}'
        if env_base and base_times[label]:
            b = statistics.median(base_times[label])
            row += f" {b:.3f} | {t / b:.2f} |"
            csv += f",{b:.4f},{t / b:.3f}"
        print(row)
        lines.append(csv)
    (OUT / "startup_commands.csv").write_text("\n".join(lines) + "\n")
    a, b, c = os.getloadavg()
    print(f"\nmedian of {args.repeat} interleaved whole-process runs; load average {a:.2f} {b:.2f} {c:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
