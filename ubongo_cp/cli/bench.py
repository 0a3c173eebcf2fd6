"""``ubongo-cp bench``: benchmark registered and external solvers on suites; ``bench --report DIR``.

A thin layer over :mod:`ubongo_cp.bench`.
"""

from __future__ import annotations

import argparse
import re
import sys

from ..errors import InputError
from .common import as_option, say, show_bar, add_progress_argument, directory_outputs, notify, only_with, tell

__all__ = ["add_parsers"]


def add_parsers(sub) -> None:
    """Add ``bench`` to the top-level ``subparsers``."""
    p = sub.add_parser(
        "bench", help="benchmark solvers on suites of instances (tables, PAR-2, cactus and scatter plots)",
        description="Run every instance of the suites with every solver, each run in a process of its own "
                    "with CPU-time, wall-time and memory limits, measured from outside (CPU and wall time, peak "
                    "memory), "
                    "in a seeded interleaved order; check every answer; write the table of runs (Parquet and "
                    "CSV), a summary with PAR-2, a speed-up table, a cactus plot and scatter plots. Run the "
                    "same command again to resume after an interruption.")
    p.add_argument("suites", nargs="*", metavar="SUITE",
                   help="a shipped suite name (see --list), a suite .toml file, or a directory of instance files")
    p.add_argument("--solvers", default="", metavar="A,B,...",
                   help="registered solvers (comma-separated; 'all' for every one)")
    p.add_argument("--external", action="append", default=[], metavar="NAME[:ADAPTER]=COMMAND",
                   help="an external solver: a command template ({instance}, {time_limit}, {memory_limit}, "
                        "{first:TEXT}, {all:TEXT}) and the adapter reading its output: knuth (default), "
                        "miniexact, dimacs, json; may be given several times")
    p.add_argument("--time-limit", type=float, default=None,
                   help="seconds of CPU time per run, all its processes (default 60)")
    p.add_argument("--wall-limit", type=float, default=None,
                   help="seconds of wall time per run (default: twice the time limit plus 30)")
    p.add_argument("--memory-limit", default=None, metavar="MB",
                   help="resident memory per run: MB, or with a unit (512M, 4G); 'none' or 0: no limit (default 4096)")
    p.add_argument("--repeats", type=int, default=1, help="runs per instance and solver (default 1)")
    p.add_argument("--warmups", type=int, default=1, help="uncounted runs per solver first (default 1)")
    p.add_argument("--seed", type=int, default=2026, help="seed of the interleaved run order (default 2026)")
    p.add_argument("--quick", action="store_true", help="the suites' quick forms (small instances, sampled decks)")
    p.add_argument("--question", choices=["first", "count", "analyze"], default="count",
                   help="the question asked of the files of a directory suite (default count)")
    p.add_argument("--baseline", help="the solver the others are compared with (default: the first named)")
    p.add_argument("--metric", choices=["cpu", "wall"], default="cpu",
                   help="the time the scores and plots use (default cpu: the time limit's measure)")
    p.add_argument("--out", help="output directory (the journal, tables and plots; resumed if it holds runs, and "
                                 "the runs of other solvers there stay in its tables)")
    directory_outputs(p, "out")
    p.add_argument("--report", metavar="DIR", help="only rebuild the tables and plots of DIR from its runs")
    p.add_argument("--list", action="store_true",
                   help="list the shipped suites and adapters, then exit; with SUITE named, list its tasks "
                        "(instance, question, expected count, whether --quick runs it)")
    add_progress_argument(p)
    for flag in ("--time-limit", "--wall-limit", "--memory-limit", "--repeats", "--warmups", "--seed", "--quick",
                 "--question"):   # options of the runs, which --report makes none of
        only_with(p, flag, lambda a: not a.report, "has no effect with --report, which only rebuilds the tables "
                                                   "and plots of the runs made", note=True)
    for flag in ("--solvers", "--external", "--out", "--report", "--time-limit", "--wall-limit", "--memory-limit",
                 "--repeats", "--warmups", "--seed", "--quick", "--baseline", "--metric"):   # --list makes no run
        only_with(p, flag, lambda a: not a.list, "has no effect with --list, which only lists the suites and "
                                                 "adapters or a suite's tasks", note=True)
    only_with(p, "--question", lambda a: bool(a.report) or any(map(_directory_suite, a.suites)),
              "asks the files of a directory suite, and no suite given is one: a suite file (and a shipped suite) "
              "names the question of each instance")
    p.set_defaults(func=_cmd_bench)


def _directory_suite(spec: str) -> bool:
    from ..bench.suite import is_directory_suite

    return is_directory_suite(spec)


def memory_arg(text: str | None) -> float | None:
    """``--memory-limit``: MB, a number with K/M/G/T, or ``none``; the default when not given.

    ``none`` and a size of zero in any unit mean no limit (None), as for
    :func:`~ubongo_cp.bench.runner.run_bench`.

    Examples
    --------
    >>> memory_arg("512"), memory_arg("2G"), memory_arg("none"), memory_arg("0"), memory_arg("0G")
    (512.0, 2048.0, None, None, None)
    """
    from ..bench.runner import DEFAULT_MEMORY_LIMIT

    if text is None:
        return DEFAULT_MEMORY_LIMIT
    if text.strip().lower() in ("none", "off"):
        return None
    match = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([kKmMgGtT]?)[bB]?\s*", text)
    if not match:
        raise InputError(f"--memory-limit takes MB or a size such as 512M or 4G, got {text!r}")
    scale = {"": 1, "k": 1 / 1024, "m": 1, "g": 1024, "t": 1024 ** 2}[match.group(2).lower()]
    value = float(match.group(1)) * scale
    return value if value > 0 else None   # 0: no limit (the pattern takes no sign)


def _cmd_bench(args: argparse.Namespace) -> int:
    _note_shipped_names(args.suites)
    if args.list:
        return _list(args.suites, args.question)
    if args.report:
        if args.suites or args.out or args.solvers or args.external:
            raise InputError("--report DIR rebuilds a report; give no suite, --out or solver with it")
        from ..bench.report import failed_checks, read_table, write_report

        summary, files = write_report(args.report, baseline=args.baseline, metric=args.metric)
        wrong, disagreements = failed_checks(read_table(args.report))   # listed, and the status, as by the runs
        _print(summary, files, wrong, disagreements)
        return 1 if wrong or disagreements else 0
    if not args.suites:
        raise InputError("name at least one suite (see --list), or --report DIR")
    if not args.out:
        raise InputError("--out DIR is required (the table of runs, the summary and the plots go there)")
    solvers = [s.strip() for s in args.solvers.split(",") if s.strip()]
    if not solvers and not args.external:
        raise InputError("no solver: give --solvers A,B,... (registered names, or 'all') and/or --external")
    from ..bench.runner import DEFAULT_TIME_LIMIT, run_bench

    try:
        outcome = run_bench(args.suites, solvers=solvers, externals=args.external, out=args.out,
                            time_limit=args.time_limit or DEFAULT_TIME_LIMIT, wall_limit=args.wall_limit,
                            memory_limit=memory_arg(args.memory_limit),
                            repeats=args.repeats, warmups=args.warmups, seed=args.seed, quick=args.quick,
                            question=args.question, progress=show_bar(args), baseline=args.baseline,
                            metric=args.metric)
    except InputError as exc:   # the numbers of runs run_bench checks first, before any run: named as the options
        named = as_option(exc, {"repeats": "--repeats", "warmups": "--warmups"})
        if named is None:
            raise
        raise named from None
    _print(outcome.summary, outcome.files, outcome.wrong, outcome.disagreements)
    tell(f"{outcome.ran} runs made, {outcome.skipped} found done in {args.out}")
    if outcome.interrupted:
        print("ubongo-cp: interrupted; the runs made are kept: run the same command to resume", file=sys.stderr)
        return 130
    return 1 if outcome.wrong or outcome.disagreements else 0


def _print(summary, files, wrong, disagreements=()) -> None:
    if len(summary):
        print(summary.to_markdown(index=False, floatfmt=".4g"))
    say("wrote " + ", ".join(str(f) for f in files))
    if wrong:
        print(f"\nWRONG ANSWERS ({len(wrong)}):", file=sys.stderr)
        for line in wrong:
            tell(f"  {line}")
    if disagreements:
        print(f"\nSOLVERS DISAGREE, nothing decides which is right ({len(disagreements)}):", file=sys.stderr)
        for line in disagreements:
            tell(f"  {line}")


def _note_shipped_names(suites: list[str]) -> None:
    """A line on standard error for each suite named as a shipped one where a file or folder of that name lies in
    the current folder (a bare shipped name is the shipped suite; ``./NAME`` reads the other), as ``--pieces``."""
    import os

    if not suites:
        return
    from ..bench.suite import shipped_suites

    for spec in dict.fromkeys(suites):
        if spec in shipped_suites() and os.path.exists(spec):
            notify(f"note: SUITE {spec} is the shipped suite; give ./{spec} to read the file or folder of that "
                   "name here")


def _list(suites: list[str], question: str) -> int:
    """``--list``: the shipped suites and the adapters; with suites named, the tasks of each."""
    from ..bench.external import ADAPTERS
    from ..bench.suite import load_suite, shipped_suites

    if suites:
        for spec in suites:
            full, quick = load_suite(spec, question=question), load_suite(spec, quick=True, question=question)
            in_quick = {t.key for t in quick.tasks}
            say(f"suite {full.name} ({full.path}): {len(full.tasks)} tasks, {len(in_quick)} in the --quick form"
                f"{': ' + full.description if full.description else ''}")
            for t in full.tasks:
                expected = "" if t.expected is None else f"  expected {t.expected}"
                print(f"  {t.instance}  {t.question}{expected}{'  (quick)' if t.key in in_quick else ''}")
        return 0
    print("shipped suites (tasks in the full form / the --quick form):")
    for name in shipped_suites():
        full, quick = load_suite(name), load_suite(name, quick=True)
        print(f"  {name:14s} {len(full.tasks):5d} / {len(quick.tasks):3d}  {full.description}")
    print("adapters for --external NAME:ADAPTER=COMMAND:")
    for adapter in ADAPTERS.values():
        print(f"  {adapter.name:10s} ({adapter.format} input) {adapter.summary}")
    return 0
