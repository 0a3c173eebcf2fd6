"""Runs measured from outside: each in its own process, with a time and a memory limit, interleaved, resumable.

:func:`measure` starts one program in a new session (on Linux from a small
process of its own, :mod:`.launcher`) and watches it from the benchmarking
process, as runsolver and BenchExec do: wall time from
start to exit, user and system CPU time and peak resident memory from
:func:`os.wait4` (the process and the descendants it waited for), and the
exit status. The limits (:class:`Limits`) are on CPU time (user + system
of the whole process tree), on wall time (a looser guard, for a program
that waits or for a machine so busy that it gets no CPU) and on the
resident memory of the whole process tree, read from ``/proc`` every
:data:`POLL_SECONDS`. A run past a limit is killed with its whole process
group (status ``timeout`` or ``memout``). The program also dies with the
benchmarking process (``PR_SET_PDEATHSIG``), so a killed benchmark leaves
no solver running.

:func:`run_bench` plans every task x solver x repeat, shuffles the runs
with a seeded random order (so that no solver always runs on a cold or a
busy machine), runs a warm-up per solver that is not counted, and appends
each finished run to the journal ``runs.jsonl`` (flushed and synced) with
the load average at its start. Run again with the same output directory,
it skips the runs in the journal: Ctrl-C or a kill loses at most the run
in progress. Each row carries a check of its content
(:func:`~ubongo_cp.io.row_check`, as a batch's rows do): a run whose row was
changed after it was written (or has no check) is made again, with one line
saying how many.

Notes
-----
``max_rss_mb`` is the largest resident set of one process of the run;
the memory limit applies to the sum over its processes. The CPU and memory
limits watch the process tree through Linux's ``/proc``; on other systems
the wall-time limit still holds and CPU time and memory are only reported.
A CPU-time limit, not a wall-time one, is the measure that stays fair on a
shared machine: a program that waits for a core is not charged for it.

References
----------
.. [1] O. Roussel, "Controlling a solver execution with the runsolver
   tool", JSAT 7 (2011) 139-144.
.. [2] D. Beyer, S. Löwe and P. Wendler, "Reliable benchmarking:
   requirements and solutions", STTT 21 (2019) 1-29 (BenchExec).
"""

from __future__ import annotations

import json
import os
import random
import resource
import select
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Callable, Sequence

from ..errors import InputError, flag_argument, one_line, whole_argument, writing_last_outputs
from ..executors.base import parent_death_signal
from ..io import append_durably, row_check
from ..reading import refuse_empty_path
from ..outputs import OutputFolder
from ..status import Status
from .report import JOURNAL   # the journal in the output directory: one JSON line per finished run

if TYPE_CHECKING:
    from .external import ExternalSolver

__all__ = ["Limits", "Measurement", "measure", "run_bench", "BenchOutcome", "read_config", "JOURNAL", "CONFIG",
           "POLL_SECONDS", "DEFAULT_TIME_LIMIT", "DEFAULT_MEMORY_LIMIT", "MAX_RUNS"]

#: The limits a directory's runs were made with (resuming must use the same) and its solvers in order.
CONFIG = "bench.json"
#: How often a running program's memory and clock are read (seconds).
POLL_SECONDS = 0.01
#: Default time limit per run: seconds of CPU time.
DEFAULT_TIME_LIMIT = 60.0
#: Default memory limit per run: MB of resident memory, all the run's processes together.
DEFAULT_MEMORY_LIMIT = 4096.0
#: The most runs per task and solver (``repeats``) and warm-up runs per solver (``warmups``): each run is a
#: process of its own, so more is a mistyped number (whose plan of runs would fill the memory).
MAX_RUNS = 10_000
#: Most bytes a run may write to a file (its standard output and error are files): a program printing without end
#: is stopped there (SIGXFSZ) and its output is not read, which would fill the disk and the benchmark's memory.
MAX_OUTPUT_BYTES = 256 << 20
_PAGE_MB = os.sysconf("SC_PAGE_SIZE") / 2**20 if hasattr(os, "sysconf") else 4096 / 2**20
_TICK_S = 1 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.01


@dataclass(frozen=True)
class Limits:
    """The limits of one run.

    Attributes
    ----------
    cpu_s : float
        Seconds of CPU time (user + system, all the run's processes).
    wall_s : float or None
        Seconds of wall time; default: twice the CPU limit plus 30 s (a
        guard for programs that wait, and for a machine too busy to run them).
    memory_mb : float or None
        MB of resident memory, all the run's processes together (None: no limit).
    """

    cpu_s: float
    wall_s: float | None = None
    memory_mb: float | None = None

    @property
    def wall(self) -> float:
        """The wall-time limit in effect (seconds)."""
        return self.wall_s if self.wall_s is not None else 2 * self.cpu_s + 30


@dataclass
class Measurement:
    """One program run, measured from outside.

    Attributes
    ----------
    wall_s, user_s, sys_s : float
        Wall time and CPU times (seconds).
    max_rss_mb : float
        Peak resident memory of its largest process (MB, from ``wait4``).
    exit_code : int or None
        Exit status; None when it ended by a signal.
    signal : int or None
        The signal that ended it.
    limit : str or None
        ``"cpu"``, ``"wall"`` or ``"memory"`` when it was stopped at that limit.
    """

    wall_s: float
    user_s: float
    sys_s: float
    max_rss_mb: float
    exit_code: int | None
    signal: int | None
    limit: str | None = None

    @property
    def cpu_s(self) -> float:
        """User plus system CPU time (seconds)."""
        return self.user_s + self.sys_s


#: The small process each program is started from on Linux (:mod:`.launcher`), run by its path.
_LAUNCHER = Path(__file__).with_name("launcher.py")


def measure(argv: Sequence[str], limits: Limits, *, stdin=None, stdout=None, stderr=None, env: dict | None = None,
            cwd=None) -> Measurement:
    """Run ``argv`` in its own session with limits; measure it from outside.

    Parameters
    ----------
    argv : sequence of str
        The program and its arguments (no shell).
    limits : Limits
        CPU time, wall time and memory; the process group is killed at the first reached.
    stdin, stdout, stderr : file objects, optional
        Its standard streams (default: inherited).
    env, cwd : optional
        As for :class:`subprocess.Popen`.

    Returns
    -------
    Measurement

    Notes
    -----
    The peak memory (``max_rss_mb``) is the kernel's count for the
    program's process (``wait4``). On Linux that count includes the memory
    the process held before it loaded the program, which a process forked
    from the caller holds until then: so the program is started from a
    small process of its own (:mod:`.launcher`, a Python interpreter
    without its site packages), and a program that uses less than that
    process, about 6 MB, reads as that much, whatever the caller's size.
    Elsewhere the program is started from the caller, and a program that
    uses less memory than the caller reads as the caller's size. The wall
    time, measured here as the limit on it is, includes starting the
    launcher (about 3 ms).

    Raises
    ------
    KeyboardInterrupt
        After killing the program, when the benchmark is interrupted.
    OSError
        When the program cannot be started.
    """
    parent = os.getpid()
    parent_death_signal()  # looked up before the fork
    launched = sys.platform.startswith("linux")
    report = None
    command = list(argv)
    if launched:
        answer, report = os.pipe()
        command = [sys.executable, "-I", "-S", str(_LAUNCHER), str(report), *command]
    death = signal.SIGTERM if launched else signal.SIGKILL   # the launcher kills the program's group on SIGTERM
    start = time.perf_counter()
    try:
        proc = subprocess.Popen(command, stdin=stdin, stdout=stdout, stderr=stderr, env=env, cwd=cwd,
                                start_new_session=True, close_fds=True, pass_fds=() if report is None else (report,),
                                preexec_fn=lambda: _child_setup(parent, MAX_OUTPUT_BYTES, death))
    except BaseException:
        if report is not None:
            os.close(answer)
        raise
    finally:
        if report is not None:
            os.close(report)

    def stop() -> None:
        if launched:
            try:
                os.kill(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        else:
            _kill_group(proc.pid)

    try:
        limit = _watch(proc.pid, start, limits, stop, own=not launched)
    except BaseException:
        stop()
        os.waitpid(proc.pid, 0)
        proc.returncode = -9
        if launched:
            os.close(answer)
        raise
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    user, system, rss_kb = usage.ru_utime, usage.ru_stime, usage.ru_maxrss
    if launched:
        with os.fdopen(answer, "rb") as told:
            lines = told.read().decode().split("\n")
        for word, *values in (line.split() for line in lines if line.strip()):
            if word == "error":   # the program could not be started
                number = int(values[0])
                raise OSError(number, os.strerror(number), argv[0])
            if word == "exit":    # the program's own figures (else the launcher's: it was killed)
                status, user, system, rss_kb = int(values[0]), float(values[1]), float(values[2]), int(values[3])
    proc.returncode = os.waitstatus_to_exitcode(status)
    code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    if sys.platform == "darwin":
        rss_kb /= 1024
    return Measurement(wall, user, system, rss_kb / 1024, code, sig, limit)


def _watch(pid: int, start: float, limits: Limits, stop: Callable[[], None], *, own: bool = True) -> str | None:
    """Wait for ``pid`` to exit; ``stop`` it at a limit and say which (``"cpu"``, ``"wall"``, ``"memory"``).

    ``own=False``: ``pid`` is a launcher, whose own time and memory are not the run's.
    """
    deadline = start + limits.wall
    try:
        fd = os.pidfd_open(pid)
    except (AttributeError, OSError):
        fd = None
    try:
        poller = None
        if fd is not None:
            poller = select.poll()
            poller.register(fd, select.POLLIN)
        while True:
            step = max(0.0, min(POLL_SECONDS, deadline - time.perf_counter()))
            if poller is not None:
                if poller.poll(step * 1000):
                    return None
            else:
                if _exited(pid):
                    return None
                time.sleep(step)
            if time.perf_counter() >= deadline:
                stop()
                return "wall"
            cpu, rss = _tree_usage(pid, own=own)
            if cpu > limits.cpu_s:
                stop()
                return "cpu"
            if limits.memory_mb and rss > limits.memory_mb:
                stop()
                return "memory"
    finally:
        if fd is not None:
            os.close(fd)


def _exited(pid: int) -> bool:
    """True once ``pid`` has exited (it stays waitable: ``WNOWAIT``)."""
    try:
        return os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return True


def _child_setup(parent: int, most_bytes: int, death: int = signal.SIGKILL) -> None:
    """In the child before exec: get ``death`` when the benchmarking process dies (the launcher then kills the
    program); no core dumps; no file written beyond ``most_bytes`` (:data:`MAX_OUTPUT_BYTES`).

    ``resource`` and ``prctl`` are resolved in the parent (module import,
    :func:`~ubongo_cp.executors.base.parent_death_signal`), never first here.
    """

    for kind, value in ((resource.RLIMIT_CORE, 0), (resource.RLIMIT_FSIZE, most_bytes)):
        try:
            resource.setrlimit(kind, (value, value))
        except (ValueError, OSError):
            pass
    prctl = parent_death_signal()
    if prctl is not None:
        prctl(1, death, 0, 0, 0)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:  # the parent died before the call
            os._exit(1)


def _kill_group(pid: int) -> None:
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _tree_usage(pid: int, *, own: bool = True) -> tuple[float, float]:
    """CPU seconds (user + system, with waited-for children) and resident MB of ``pid`` and its descendants
    (``own=False``: of its descendants only).

    Read from ``/proc`` (zeros elsewhere).
    """
    pids, i = [pid], 0
    while i < len(pids):
        p = pids[i]
        i += 1
        try:
            tasks = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for t in tasks:
            try:
                with open(f"/proc/{p}/task/{t}/children", "rb") as fh:
                    pids.extend(int(c) for c in fh.read().split())
            except (OSError, ValueError):
                pass
    ticks = pages = 0
    for p in pids if own else pids[1:]:
        try:
            with open(f"/proc/{p}/stat", "rb") as fh:
                fields = fh.read().rsplit(b")", 1)[1].split()
            ticks += sum(int(v) for v in fields[11:15])  # utime, stime, cutime, cstime
            pages += int(fields[21])  # rss
        except (OSError, IndexError, ValueError):
            pass
    return ticks * _TICK_S, pages * _PAGE_MB


# ---------------------------------------------------------------- the bench
@dataclass
class BenchOutcome:
    """What :func:`run_bench` produced.

    Attributes
    ----------
    table : pandas.DataFrame
        Every run in the output directory (:data:`ubongo_cp.bench.report.COLUMNS`).
    summary : pandas.DataFrame
        Per suite and solver (:func:`ubongo_cp.bench.report.summary_table`).
    ran, skipped : int
        Runs made now, and runs found in the journal.
    wrong : list of str
        One line per wrong answer.
    disagreements : list of str
        One line per run whose answer differs from another solver's with
        nothing to decide which is right (:func:`.check.finalize`).
    interrupted : bool
        True when Ctrl-C stopped the runs (the table holds those finished).
    out_dir : Path
        The output directory.
    files : list of Path
        The files written there (:func:`ubongo_cp.bench.report.write_report`).
    """

    table: object
    summary: object
    ran: int
    skipped: int
    wrong: list[str]
    interrupted: bool
    out_dir: Path
    files: list[Path] = field(default_factory=list)
    disagreements: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class _Solver:
    name: str
    external: ExternalSolver | None = None  # None for a registered solver

    @property
    def ident(self) -> str:
        return self.external.ident if self.external is not None else "registered"


def run_bench(suites, *, solvers: Sequence[str] = (), externals: Sequence = (), out: str | os.PathLike,
              time_limit: float = DEFAULT_TIME_LIMIT, wall_limit: float | None = None,
              memory_limit: float | None = DEFAULT_MEMORY_LIMIT, repeats: int = 1, warmups: int = 1,
              seed: int = 2026, quick: bool = False, question: str = "count", progress: bool = True,
              notify: Callable[[str], None] | None = None, baseline: str | None = None,
              metric: str = "cpu") -> BenchOutcome:
    """Benchmark solvers on suites; write the table, summary and plots; see :mod:`ubongo_cp.bench`.

    Parameters
    ----------
    suites : str, path or Suite, or a sequence of them
        Shipped suite names, suite files or directories (:func:`.suite.load_suite`).
    solvers : sequence of str
        Registered solver names (``"all"``: every one).
    externals : sequence of str or ExternalSolver
        External solvers, ``"NAME[:ADAPTER]=COMMAND"`` (:mod:`.external`).
    out : path
        Output directory: the journal, the table, summary and plots. Runs
        already in its journal are not run again.
    time_limit : float
        Seconds of CPU time per run (user + system, all its processes).
    wall_limit : float, optional
        Seconds of wall time per run (default: twice the time limit plus 30 s).
    memory_limit : float or None
        MB of resident memory per run (None or 0: no limit).
    repeats : int
        Runs per task and solver.
    warmups : int
        Uncounted runs per solver before the measured ones.
    seed : int
        Seed of the interleaved run order.
    quick : bool
        The suites' quick forms.
    question : str
        The question for directory suites (default ``"count"``).
    progress : bool
        A progress bar with the remaining time estimated (standard error).
    notify : callable, optional
        Called with each loud message (a wrong answer); default: standard error.
    baseline, metric : optional
        For the speed-up table and plots (:func:`.report.write_report`).

    Returns
    -------
    BenchOutcome

    Raises
    ------
    InputError
        Before any run: an unknown solver name, an external command that is
        not executable, a bad suite, an out directory holding runs made with
        other limits, or bad parameters.
    KeyboardInterrupt
        On Ctrl-C before any run was made (no table to report; the out
        directory holds no run).
    """
    from .external import ExternalSolver, parse_external, write_instance
    from .report import REPORT_FILES, check_baseline, watched
    from .suite import Suite, build, load_suite

    repeats, warmups = whole_argument("repeats", repeats, 1), whole_argument("warmups", warmups, 0)
    for name, runs in (("repeats", repeats), ("warmups", warmups)):
        if runs > MAX_RUNS:
            raise InputError(f"{name} must be at most {MAX_RUNS:,} runs, got {runs:,}")
    seed = whole_argument("seed", seed, 0)
    quick, progress = flag_argument("quick", quick), flag_argument("progress", progress)
    if isinstance(solvers, (str, bytes)) or not isinstance(solvers, Iterable):   # "dlx" was read letter by letter
        raise InputError(f"solvers is a sequence of solver names (such as ['dlx']), got {type(solvers).__name__}")
    if not isinstance(suites, (str, os.PathLike, Suite)) and not isinstance(suites, Iterable):
        raise InputError("suites is a suite (a shipped name, a file or directory, a Suite) or a sequence of them, "
                         f"got {type(suites).__name__}")
    if not isinstance(out, (str, os.PathLike)):
        raise InputError(f"out is the output directory's path, got {type(out).__name__}")
    if not time_limit > 0 or (wall_limit is not None and not wall_limit > 0):
        raise InputError(f"time limits must be positive numbers of seconds, got {time_limit} and {wall_limit}")
    if memory_limit is not None and not memory_limit >= 0:
        raise InputError(f"the memory limit must be a positive number of MB, or 0 or None for none, got {memory_limit}")
    memory_limit = memory_limit or None
    chosen = _solvers(solvers, [e if isinstance(e, ExternalSolver) else parse_external(e) for e in externals])
    if isinstance(suites, (str, os.PathLike, Suite)):
        suites = [suites]
    loaded = [s if isinstance(s, Suite) else load_suite(s, quick=quick, question=question) for s in suites]
    names = [s.name for s in loaded]
    if len(set(names)) != len(names):
        raise InputError(f"suite {names[[names.count(n) > 1 for n in names].index(True)]!r} is named twice")
    tasks = [t for s in loaded for t in s.tasks]
    if not tasks:
        raise InputError("the suites hold no instance (in the quick form?)")
    built = {}
    for task in tasks:
        try:
            built[task.key] = build(task.source, task.question, task.k)
        except InputError as exc:
            raise InputError(f"{task.where}: instance {task.instance!r}: {exc}") from None
    refuse_empty_path(out, "the output folder")   # not the folder Python runs in
    out = Path(out)
    limits = Limits(time_limit, wall_limit, memory_limit)
    with OutputFolder(out, "bench", adopt=earlier_bench_files, guarded=watched) as folder:  # locked
        done, changed = _read_journal(out / JOURNAL)
        # before any run, not after them all; and before anything is written here
        check_baseline(baseline, list(dict.fromkeys([*(s.name for s in chosen), *(key[3] for key in done)])))
        formats = {s.external.format for s in chosen if s.external is not None}
        instance_files = {(built[t.key].digest, fmt): f"instances/{built[t.key].digest}.{'cnf' if fmt == 'dimacs' else 'dlx'}"
                          for fmt in formats for t in tasks}
        # every file this run may write, refused before any run if one is not an earlier benchmark's
        folder.claim([CONFIG, JOURNAL, *REPORT_FILES, *instance_files.values()])
        _prepare_out(out, limits, [s.name for s in chosen])
        say = notify or (lambda message: print(one_line(message), file=sys.stderr, flush=True))   # a name may hold a line break

        # Instance files for the external solvers, once per instance and format.
        files: dict[tuple, tuple[Path, object]] = {}
        for solver in chosen:
            if solver.external is None:
                continue
            fmt = solver.external.format
            for task in tasks:
                b = built[task.key]
                if (b.digest, fmt) not in files:
                    path = out / instance_files[(b.digest, fmt)]
                    files[(b.digest, fmt)] = (path, write_instance(b, fmt, path, title=f"{task.suite} {task.instance}"))

        plan = [(t, s, r) for t in tasks for s in chosen for r in range(1, repeats + 1)]
        random.Random(seed).shuffle(plan)
        order = {(t.key, s.name, r): i for i, (t, s, r) in enumerate(plan)}
        todo, rejudged = [], []
        changed &= {_run_key(t, s, r) for t, s, r in plan}
        if changed:
            say(f"running {len(changed)} run(s) of {out / JOURNAL} again: the check of their rows does not match "
                "their content (changed after they were written, or written without one)")
        for t, s, r in plan:
            row = done.get(_run_key(t, s, r))
            if row is None or (row["digest"], row["solver_id"]) != (built[t.key].digest, s.ident):
                todo.append((t, s, r))
            elif _as_stored(row.get("expected")) != _as_stored(t.expected) or \
                    _as_stored(row.get("expected_subsets")) != _as_stored(t.expected_subsets):
                # the same run judged by the suite's expected answer as it is now (edited since)
                rejudged.append((t, s, {**row, "expected": t.expected, "expected_subsets": t.expected_subsets}))
        if rejudged:
            with open(out / JOURNAL, "a", encoding="utf-8") as journal:
                append_durably(journal, "".join(_journal_line(row) for _, _, row in rejudged))
            for task, solver, row in rejudged:
                message = _wrong(task, solver, row)
                if message and not row.get("invalid"):
                    say(message)
        skipped = len(plan) - len(todo)
        ran, interrupted = 0, False
        scratch = Path(tempfile.mkdtemp(prefix="ubongo-bench-"))
        try:
            if todo and warmups:
                _warm_up(todo, built, files, warmups, limits, scratch)
            bar = _progress_bar(len(plan), skipped, progress)
            try:
                with open(out / JOURNAL, "a", encoding="utf-8") as journal:
                    for task, solver, repeat in todo:
                        row = _one_run(task, solver, repeat, built[task.key], files, limits, scratch)
                        row["order"] = order[(task.key, solver.name, repeat)]
                        append_durably(journal, _journal_line(row))
                        ran += 1
                        message = _wrong(task, solver, row)
                        if message:
                            if bar is not None:
                                bar.write(one_line(message), file=sys.stderr)
                            else:
                                say(message)
                        if bar is not None:
                            bar.update(1)
            except KeyboardInterrupt:
                interrupted = True
                writing_last_outputs()   # the tables and plots of the runs made: the command line lets them be written
            finally:
                if bar is not None:
                    bar.close()
        finally:
            import shutil

            shutil.rmtree(scratch, ignore_errors=True)
        if interrupted and not ran and not skipped:   # stopped before any run was made: nothing to report
            raise KeyboardInterrupt
        from .report import read_table, write_report

        table = read_table(out)
        if baseline is None or (interrupted and baseline not in set(table["solver"])):
            # interrupted before the baseline ran: the others are compared with the first solver that did
            baseline = next((s.name for s in chosen if s.name in set(table["solver"])), None)
        summary, written = write_report(out, table=table, baseline=baseline, metric=metric, folder=folder)
    from .report import failed_checks

    wrong, disagreements = failed_checks(table)
    return BenchOutcome(table, summary, ran, skipped, wrong, interrupted, out, written, disagreements)


def _solvers(names: Sequence[str], externals: Sequence) -> list[_Solver]:
    from ..solvers.registry import SOLVERS, get_solver

    chosen: list[_Solver] = []
    for name in names:
        if name == "all":
            chosen.extend(_Solver(n) for n in SOLVERS)
        else:
            chosen.append(_Solver(get_solver(name).name))
    for ext in externals:
        if ext.name in SOLVERS or ext.name == "all":
            raise InputError(f"external solver {ext.name!r} takes the name of a registered solver; rename it")
        ext.check()
        chosen.append(_Solver(ext.name, ext))
    seen: set[str] = set()
    unique = []
    for s in chosen:
        if s.name in seen:
            if s.external is not None:
                raise InputError(f"solver {s.name!r} is named twice")
            continue
        seen.add(s.name)
        unique.append(s)
    if not unique:
        raise InputError("no solver: name registered solvers and/or external ones")
    return unique


def _prepare_out(out: Path, limits: Limits, solvers: list[str]) -> None:
    """Check that ``out`` can take these runs (same limits as its earlier runs) and record the settings."""
    from ..io import atomic_write_text

    wanted: dict[str, Any] = {"time_limit": limits.cpu_s, "wall_limit": limits.wall, "memory_limit": limits.memory_mb}
    old = read_config(out)
    for key, value in wanted.items():
        if key in old and old[key] != value:
            raise InputError(f"holds runs made with a {key.replace('_', ' ')} of {_num(old[key])}, not {_num(value)}: "
                             "use the same limits to resume, or another output directory", path=out)
    wanted["solvers"] = list(dict.fromkeys([*old.get("solvers", []), *solvers]))
    atomic_write_text(out / CONFIG, json.dumps(wanted) + "\n")


def earlier_bench_files(out: Path) -> list[str]:
    """The files of a benchmark folder copied without its record (its settings, journal and tables of runs): the
    runs go on; its summary and plots count as the user's (:func:`.report.watched`)."""
    from .report import TABLE

    if "time_limit" not in read_config(out) or not (out / JOURNAL).is_file():
        return []
    named = [name for name in (CONFIG, JOURNAL, *TABLE) if (out / name).exists()]
    instances = out / "instances"
    if instances.is_dir():
        named += [f"instances/{p.name}" for p in instances.iterdir() if p.suffix in (".dlx", ".cnf")]
    return named


def _num(value) -> str:
    return "none" if value is None else f"{value:g}"


def read_config(out: str | os.PathLike) -> dict:
    """The settings recorded in an output directory (:data:`CONFIG`): limits and solvers in order; {} if none."""
    try:
        data = json.loads((Path(out) / CONFIG).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):   # ValueError: not UTF-8, not JSON, a number of 5000 digits
        return {}
    return data if isinstance(data, dict) else {}


def _run_key(task, solver, repeat) -> tuple:
    return (*task.key, solver.name, repeat)


def _read_journal(path: Path) -> tuple[dict[tuple, dict], set[tuple]]:
    """(suite, instance, question, solver, repeat) -> the last journal row of the run (its instance digest,
    solver ident, expected answer, ...) whose check matches its content, and the keys of the runs whose last
    row fails its check or has none (:func:`~.report.journal_runs`): those are made again."""
    from .report import journal_runs

    runs = journal_runs(path)
    return ({key: row for key, (row, checked) in runs.items() if checked},
            {key for key, (_, checked) in runs.items() if not checked})


def _journal_line(row: dict) -> str:
    """A run's line of the journal, with its check (:func:`~ubongo_cp.io.row_check`) of the row as stored."""
    row = _as_stored(row)
    row.pop("check", None)
    return json.dumps({**row, "check": row_check(row, JOURNAL)}) + "\n"


def _as_stored(value):
    """``value`` as a journal row holds it (through JSON: tuples as lists, keys as strings)."""
    return json.loads(json.dumps(value, default=str))


def _progress_bar(total: int, done: int, enabled: bool):
    if not enabled or total == done:
        return None
    import tqdm

    tqdm.tqdm.monitor_interval = 0  # no monitor thread: runs are forked from this process
    return tqdm.tqdm(total=total, initial=done, unit="run", desc="bench", file=sys.stderr, dynamic_ncols=True)


def _warm_up(todo, built, files, warmups, limits: Limits, scratch) -> None:
    """Run each solver ``warmups`` times on the smallest task it has to run; nothing is recorded."""
    smallest: dict[str, tuple] = {}
    for task, solver, _ in todo:
        size = built[task.key].instance.n_options
        if solver.name not in smallest or size < smallest[solver.name][0]:
            smallest[solver.name] = (size, task, solver)
    for _, task, solver in smallest.values():
        for _ in range(warmups):
            _one_run(task, solver, 0, built[task.key], files, limits, scratch)


def _one_run(task, solver, repeat, b, files, limits: Limits, scratch: Path) -> dict:
    """Run one task with one solver in a process of its own; the journal row."""
    from .check import check_solution, external_answer, subsets_digest
    from .external import read_output
    from .suite import source_json

    load = _load()
    started = datetime.now(timezone.utc).isoformat(timespec="seconds")
    stdout_path, stderr_path = scratch / "stdout", scratch / "stderr"
    knuth = None
    if solver.external is None:
        request = scratch / "request.json"
        request.write_text(json.dumps({"source": json.loads(source_json(task.source)), "question": task.question,
                                       "k": task.k, "solver": solver.name}), encoding="utf-8")
        argv = [sys.executable, "-m", "ubongo_cp.bench.worker"]
        stdin_path = request
        command = ""
    else:
        ext = solver.external
        stdin_path, knuth = files[(b.digest, ext.format)]
        argv = ext.argv(task.question, stdin_path, limits.cpu_s, limits.memory_mb)
        command = " ".join(argv)
    row: dict[str, Any] = {
        "suite": task.suite, "instance": task.instance, "question": task.question, "solver": solver.name,
        "repeat": repeat, "kind": "registered" if solver.external is None else "external",
        "solver_id": solver.ident, "command": command, "digest": b.digest, "k": task.k,
        "expected": task.expected, "expected_subsets": task.expected_subsets,
        "time_limit_s": limits.cpu_s, "wall_limit_s": limits.wall, "memory_limit_mb": limits.memory_mb,
        "load1": load, "started": started, "stopped": None,
        "status": None, "count": None, "subsets": None, "answer_digest": None, "verified": None,
        "solutions_checked": None, "invalid": None, "solve_s": None, "counters": "{}", "error": None}
    try:
        with open(stdin_path, "rb") as fin, open(stdout_path, "wb") as fout, open(stderr_path, "wb") as ferr:
            m = measure(argv, limits, stdin=fin, stdout=fout, stderr=ferr)
    except OSError as exc:
        row.update(status=Status.ERROR.value, error=f"cannot start: {exc.strerror or exc}")
        return row
    row.update(wall_s=m.wall_s, cpu_s=m.cpu_s, user_s=m.user_s, sys_s=m.sys_s, max_rss_mb=m.max_rss_mb,
               exit_code=m.exit_code, signal=m.signal)
    if m.limit is not None:   # its output is not read
        row["stopped"] = m.limit
        row["status"] = Status.MEMOUT.value if m.limit == "memory" else Status.TIMEOUT.value
        return row
    if m.signal == signal.SIGXFSZ or any(p.stat().st_size >= MAX_OUTPUT_BYTES for p in (stdout_path, stderr_path)
                                         if p.exists()):
        row.update(status=Status.ERROR.value, error=f"its output passed {MAX_OUTPUT_BYTES >> 20} MB, the most a run "
                                                    "may write (not read)")
        return row
    stdout = stdout_path.read_text(encoding="utf-8", errors="replace") if stdout_path.exists() else ""
    stderr = stderr_path.read_text(encoding="utf-8", errors="replace") if stderr_path.exists() else ""
    if solver.external is None:
        result = _worker_answer(stdout, stderr, m)
    else:
        result = external_answer(b, knuth, read_output(solver.external.adapter, stdout, stderr, m.exit_code),
                                 task.question, task.k)
        if result.get("status") == Status.ERROR and m.exit_code not in (0, 10, 20):
            result["error"] = f"{result.get('error')}; exit status {m.exit_code}{_tail(stderr)}"
    status = result.get("status")
    row["status"] = str(status) if status is not None else Status.ERROR.value
    row["error"] = result.get("error")
    if row["status"] in (Status.SOLVED, Status.NO_SOLUTION):
        row["count"] = result.get("count")
        row["subsets"] = result.get("subsets")
        if result.get("subset_counts") is not None:
            row["answer_digest"] = subsets_digest(result["subset_counts"])
        if "verified" not in result and result.get("solution") is not None:
            problem = check_solution(b, result["solution"])
            row["verified"], row["invalid"] = problem is None, (f"invalid solution: {problem}" if problem else None)
            row["solutions_checked"] = int(problem is None)
        else:   # an external program's answer comes checked (verified None: it listed no solution)
            row["verified"], row["invalid"] = result.get("verified"), result.get("invalid")
            row["solutions_checked"] = result.get("solutions_checked")
            if row["verified"] is None and row["count"]:
                row["verified"] = False
        row["solve_s"] = result.get("solve_s")
        row["counters"] = json.dumps(result.get("counters") or {}, sort_keys=True, default=str)
    return row


def _worker_answer(stdout: str, stderr: str, m: Measurement) -> dict:
    lines = stdout.strip().splitlines()
    if m.exit_code == 0 and lines:
        try:
            return json.loads(lines[-1])
        except json.JSONDecodeError:
            pass
    why = f"exit status {m.exit_code}" if m.exit_code is not None else f"killed by signal {m.signal}"
    if "MemoryError" in stderr:
        return {"status": Status.MEMOUT, "error": "MemoryError"}
    return {"status": Status.ERROR, "error": why + _tail(stderr)}


def _tail(text: str) -> str:
    lines = [ln for ln in text.strip().splitlines() if ln.strip()]
    return f": {lines[-1].strip()[:200]}" if lines else ""


def _wrong(task, solver, row) -> str | None:
    """The loud line of a run whose solution is invalid or whose answer contradicts the expected one, or None."""
    why = row.get("invalid") or _self_mismatch(task, row)
    return f"WRONG: {solver.name} on {task.suite} {task.instance} ({task.question}): {why}" if why else None


def _self_mismatch(task, row) -> str | None:
    """A definite answer that contradicts the expected one (reported loudly as soon as it happens)."""
    from .check import expected_mismatch

    if row["status"] not in (Status.SOLVED, Status.NO_SOLUTION):
        return None
    return expected_mismatch(task.question, task.expected, task.expected_subsets, row["count"], row["subsets"])


def _load() -> float | None:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None
