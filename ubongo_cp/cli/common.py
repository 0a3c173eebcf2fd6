"""What every sub-command shares: option checks, output-path checks, executor options.

The library never speaks in command-line flags; this module (and the other
modules of :mod:`ubongo_cp.cli`) is the only place that does.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from ..errors import InputError, UbongoError, one_line
from ..solvers.registry import DEFAULT_KEEP

TYPE_CHECKING = False

if TYPE_CHECKING:
    import argparse
    import pathlib

    from ..executors import Executor

__all__ = ["check_common", "directory_outputs", "add_executor_arguments",
           "executor_from", "asks_workers", "piece_names_arg", "add_use_argument", "add_progress_argument",
           "add_allow_pieces_argument", "confirmed", "add_estimate_argument", "show_bar", "check_estimate", "print_estimate",
           "add_split_arguments", "split_from", "check_orientations", "fixed_suffixes",
           "add_games_out", "games_journal", "resumable", "is_xmpuzzle",
           "notify", "box_sizes", "region_arg", "pieces_task", "only_with", "check_only_with", "ignored", "say_notes",
           "as_option"]

#: Common options and the smallest value each may take (checked for every command).
_MINIMUM = {"seed": 0, "games": 1, "cards": 1, "k": 1, "limit": 1, "every": 1, "jobs": 1, "players": 1, "most": 1,
            "max_cells": 1,
            "sample": 1}
#: Largest value each option may take: beyond it the run could not keep its
#: results in memory (a user asked for 10**12 games and got 10 GB in 30 s).
_MAXIMUM = {"games": 10_000_000, "cards": 10_000,
            "limit": 2 ** 63 - 1}   # the engines count solutions in 64 bits
#: Options that must be positive when given.
_POSITIVE = ("time_limit", "wall_limit", "timer")

#: Options naming files a command writes, and options naming what it reads.
_OUTPUTS = ("out", "plot", "save", "picture", "record", "draw", "journal")
_INPUTS = ("tasks", "results", "replay", "deck", "card", "pieces", "region", "record", "spec", "from_census",
           "allow_pieces", "times", "difficulty_model", "instance")
#: Options and positional arguments naming a file or folder (or, as ``--pieces``, a name or a file): an empty one
#: is refused as the command line is read (:func:`path_argument`).
PATH_ARGUMENTS = frozenset((*_OUTPUTS, *_INPUTS, "copy", "png", "svg", "pictures", "report", "tiles", "suites"))
#: Options naming a folder of images a command writes beside its output file (``cards --png DIR``).
_IMAGE_FOLDERS = ("png", "svg", "pictures")
#: Inputs that are always files: a directory named there is refused before any output is compared with it.
_FILE_INPUTS = ("times", "difficulty_model", "replay", "instance", "region", "card")
#: For inputs that are directories: the files the command reads from them.
#: An output may be written into such a directory (``booklet --results OUT
#: --out OUT/booklet.pdf``, run again) but never over one of these files.
_READS_FROM_DIRECTORY = {"deck": ("*.toml",), "results": ("tasks.*", "cards.*"), "spec": ("deck.toml",),
                         "tasks": ("tasks.*", "deck.toml")}   # simulate --tasks: the table, and the spec beside it
#: Input directories an output directory may be: the command reads a few files there, each guarded as it is
#: read (:func:`ubongo_cp.reading.protect_inputs`). ``generate --spec DIR --out DIR`` writes the deck beside its
#: spec, as ``--spec DIR/deck.toml --out DIR`` does: the spec's copies are left alone when they would be the
#: files themselves, and refused otherwise.
_SHARED_DIRECTORY_INPUTS = ("spec",)


def path_argument(text: str) -> str:
    """The value of an option of :data:`PATH_ARGUMENTS`, refused when empty (it names no file: an empty
    ``--out`` would be the current folder, an empty ``--copy`` no folder at all).

    Raises
    ------
    argparse.ArgumentTypeError
        For an empty value: the command line is refused with ``argument --out: empty path``.
    """
    if not text:
        import argparse

        raise argparse.ArgumentTypeError("empty path")
    return text


def typed_paths(actions) -> None:
    """Give every argument of ``actions`` (argparse's, or :mod:`~ubongo_cp.cli.plainargs`'s) whose destination is in
    :data:`PATH_ARGUMENTS` and that has no type :func:`path_argument` as its type, so that each command refuses an
    empty path as its value is read."""
    for action in actions:
        if action.dest in PATH_ARGUMENTS and action.type is None:
            action.type = path_argument


def _check_outputs(args: argparse.Namespace) -> None:
    """Refuse an output that would overwrite an input, or another output, before any work; and an output
    file that cannot be written or must not be replaced (:func:`ubongo_cp.io.check_output_file`; a journal,
    which is resumed, only where it cannot be written: :func:`ubongo_cp.io.check_output_place`).

    This catches what the options name; files a command finds through its
    inputs (a card's piece set, a deck's spec) are guarded as they are read
    (:func:`ubongo_cp.reading.protect_inputs`).

    ``record`` is an output where the command also has ``--replay``
    (``simulate domino --record``) and an input otherwise (``orion
    analyze RECORD``). An output inside an input directory may not replace
    a file the command reads from there (:data:`_READS_FROM_DIRECTORY`); an
    output directory may be one of :data:`_SHARED_DIRECTORY_INPUTS`. A
    directory named as an input that is a file (:data:`_FILE_INPUTS`) is
    refused first, as its reader would. An output that is an input the
    command's library call itself refuses as its output (the parser's
    ``library_checks`` pairs: ``batch --out`` the deck) is left to that call,
    so that one check says it for the command line and the Python API alike.
    An output of a fixed kind (:func:`fixed_suffixes`) named with another
    suffix is refused as such before an existing file there is looked at.
    """
    def real(value) -> str | None:
        return os.path.realpath(value) if isinstance(value, (str, os.PathLike)) and str(value) else None

    for allowed in getattr(args, "allow_pieces", None) or ():   # each a piece-set file: a folder allows none
        if os.path.isdir(allowed):
            raise InputError(f"--allow-pieces {allowed}: is a directory; name each piece-set file it allows "
                             "(--allow-pieces FILE, given once per file)")
        if not os.path.exists(allowed):
            raise InputError(f"--allow-pieces {allowed}: file not found")
    record_is_output = hasattr(args, "replay")
    folders = getattr(args, "directory_outputs", ())
    box = _names_box(getattr(args, "region", None))   # --region 3x20 beside a folder 3x20: the box, read nothing
    for name in _FILE_INPUTS:
        value = getattr(args, name, None)
        if isinstance(value, (str, os.PathLike)) and str(value) and os.path.isdir(value) and not (
                name == "region" and box):
            raise InputError("is a directory, expected a file", path=value)
    outputs = {name: real(getattr(args, name, None)) for name in _OUTPUTS
               if name != "record" or record_is_output}
    inputs = {name: real(getattr(args, name, None)) for name in _INPUTS
              if (name != "record" or not record_is_output) and not isinstance(getattr(args, name, None), list)
              and not (name == "region" and box)}
    inputs.update({f"{name} {value}": real(value) for name in _INPUTS
                   if isinstance(getattr(args, name, None), list) for value in getattr(args, name)})
    given = {k: v for k, v in outputs.items() if v is not None}
    read = {k: v for k, v in inputs.items() if v is not None and os.path.exists(v)}
    own = getattr(args, "library_checks", ())   # (output, input) pairs the command's library call refuses itself
    seen: dict[str, str] = {}
    for name, path in given.items():
        if path in seen:
            raise UbongoError(f"--{seen[path]} and --{name} name the same file {getattr(args, name)}")
        seen[path] = name
        for in_name, in_path in read.items():
            read_there = False
            if os.path.isdir(in_path) and os.path.dirname(path) == in_path:   # writes into a directory it reads
                import fnmatch

                read_there = any(fnmatch.fnmatch(os.path.basename(path), pattern)
                                 for pattern in _READS_FROM_DIRECTORY.get(in_name, ("*",)))
            shared = name in folders and in_name in _SHARED_DIRECTORY_INPUTS and os.path.isdir(in_path)
            if path == in_path and (name, in_name) in own:
                continue
            if (path == in_path and not shared) or read_there:
                option, _, value = in_name.partition(" ")   # a list's entries: "allow_pieces FILE"
                said = (f"--{option.replace('_', '-')}" if "_" in option else option) + (f" {value}" if value else "")
                what = f"the {said} input" if path == in_path else f"a file read from the {said} directory"
                raise UbongoError(f"--{name} {getattr(args, name)} would overwrite {what}; "
                                  "choose another output path")
    for folder in _IMAGE_FOLDERS:   # a folder of images where a file is written: one of them would fail half done
        where = real(getattr(args, folder, None))
        for name, path in given.items():
            if path == where:
                raise UbongoError(f"--{name} and --{folder} name the same path {getattr(args, name)}: one is a "
                                  "file, the other a folder of images; give each its own")
    beside = real(games_journal(args)) if getattr(args, "games_journal_beside", False) else None
    for name, path in given.items():   # the journal that --out keeps its games in (add_games_out)
        if name != "out" and path == beside:
            raise UbongoError(f"--{name} {getattr(args, name)} is the journal of --out {args.out} (its games as "
                              "they finish); choose another name")
    if not given:   # nothing written: the output module is not even imported
        return
    from ..io import check_not_special, check_output_file, check_output_place, check_suffix

    fixed = getattr(args, "fixed_suffixes", {})
    for name in given:   # the name before an existing file there: that file is not the problem
        if name in fixed:
            check_suffix(getattr(args, name), _suffixes(fixed[name]), f"--{name}")

    kinds = getattr(args, "output_kinds", {})
    for name in given:
        if name == "journal":   # a journal is resumed, so only its place is checked: a small count never opens it
            check_output_place(getattr(args, name), "a journal (a file)")
        elif name not in folders:   # a folder checks its own files
            kind = kinds.get(name)
            kind = kind(args) if callable(kind) else kind     # (".json", its format): asked for when checked
            _check_kind_name(args, name, kind[0] if isinstance(kind, tuple) else kind)   # before a file there
            check_output_file(getattr(args, name), *(kind if isinstance(kind, tuple) else (kind,)))
        else:
            check_not_special(getattr(args, name), "a directory")


def directory_outputs(parser: argparse.ArgumentParser, *names: str) -> None:
    """Declare the options of ``parser`` among :data:`_OUTPUTS` that name an output directory, not a file."""
    parser.set_defaults(directory_outputs=names)


def fixed_suffixes(parser: argparse.ArgumentParser, **kinds: str) -> None:
    """Declare the options of ``parser`` among :data:`_OUTPUTS` whose file is of one kind, named by its suffix:
    ``"table"`` (CSV or Parquet), ``"png"`` (a plot) or ``"drawing"`` (SVG, PNG or PDF), e.g. ``out="table"``.
    :func:`check_common` refuses any other name first, before an existing file there is looked at, with one
    message for every command (:func:`ubongo_cp.io.check_suffix`: ``x.jsonl: --out must end in .csv, .parquet
    or .pq, not .jsonl``)."""
    parser.set_defaults(fixed_suffixes={**(parser.get_default("fixed_suffixes") or {}), **kinds})


def _suffixes(kind: str) -> tuple[str, ...]:
    """The suffixes of a kind of :func:`fixed_suffixes`."""
    if kind == "table":
        from ..io import TABLE_SUFFIXES

        return TABLE_SUFFIXES
    if kind == "drawing":
        from ..draw.figures import FORMATS

        return FORMATS
    return {"png": (".png",)}[kind]


def output_kinds(parser: argparse.ArgumentParser, **kinds) -> None:
    """Declare what options of ``parser`` among :data:`_OUTPUTS` write whatever their file's name, e.g.
    ``out=".pdf"`` (an existing file there is replaced only by one of that kind; the others go by the
    name's extension). A kind may be a function of the parsed arguments, called only when the option is
    given: a JSON record's returns ``(".json", FORMAT)`` (its module is not loaded to build the parser), and
    an existing record is then replaced only by one of the same format; ``export``'s returns the extension of
    the format its ``--out`` and ``--format`` choose. A PDF or JSON output named as another kind of file
    (``cards.png``, ``game.csv``) is refused first (:func:`_check_kind_name`)."""
    parser.set_defaults(output_kinds=kinds)


def only_with(parser: argparse.ArgumentParser, flag: str, met: Callable[[argparse.Namespace], bool], says: str, *,
              note: bool = False) -> None:
    """Declare that option ``flag`` of ``parser`` acts only when ``met(args)`` holds of the rest of the command
    line (``--max-solutions`` only with ``--count``, ``--dask-dashboard`` only with ``--executor dask``).

    Given without it (its value other than its default), :func:`check_only_with` refuses the command line with
    ``FLAG SAYS`` (exit status 2, e.g. ``--most goes with --all-solutions``), or with ``note`` lets the
    command run (where it still does what was asked: ``--dpi`` with no PNG images to draw) and prints
    ``note: FLAG SAYS; ignored`` on standard error when it has run (:func:`ignored`). Declared after ``flag``
    is added; an option may have several.
    """
    action = parser._option_string_actions[flag]
    rules = parser.get_default("only_with") or ()
    parser.set_defaults(only_with=(*rules, (flag, action.dest, action.default, met, says, note)))


def check_only_with(args: argparse.Namespace) -> None:
    """Refuse, or note and ignore, every option given where it has no effect (:func:`only_with`).

    Raises
    ------
    InputError
        Naming the first option given without what it needs.
    """
    unmet = [(flag, says, note) for flag, dest, default, met, says, note in getattr(args, "only_with", ())
             if getattr(args, dest, default) != default and not met(args)]
    for flag, says, note in unmet:
        if not note:
            raise InputError(f"{flag} {says}")
    for flag, says, _ in unmet:
        ignored(flag, says)


#: The notes of :func:`ignored` not yet said.
_NOTES: list[str] = []


def as_option(exc: InputError, options: dict[str, str]) -> InputError | None:
    """A library's ``exc`` about one of its parameters, said of the command's option instead (``options``:
    parameter name -> flag), or None when it is about none of them. The library names its parameter as the
    error's ``argument`` or as the first word of its message ("repeats must be ..."); it never names a flag.

    Examples
    --------
    >>> str(as_option(InputError("repeats must be at most 10,000 runs, got 20,000"), {"repeats": "--repeats"}))
    '--repeats must be at most 10,000 runs, got 20,000'
    >>> str(as_option(InputError("must be 2, 3 or 4, got 5", argument="num_players"), {"num_players": "--players"}))
    '--players must be 2, 3 or 4, got 5'
    """
    for name, flag in options.items():
        if exc.argument == name:
            return InputError(f"{flag} {exc.message}")
        if exc.argument is None and exc.path is None and exc.message.startswith(f"{name} "):
            return InputError(flag + exc.message[len(name):])
    return None


def ignored(flag: str, why: str) -> None:
    """Note that option ``flag`` has no effect in this run, and ``why``: one line on standard error once the command
    has run (:func:`say_notes`; a command line refused after all says its one line of error alone)."""
    _NOTES.append(f"note: {flag} {why}; ignored")


def say_notes(*, drop: bool = False) -> None:
    """Say the notes of :func:`ignored` made so far (or, with ``drop``, forget them: the command was refused)."""
    notes = list(dict.fromkeys(_NOTES))
    _NOTES.clear()
    for line in () if drop else notes:
        notify(line)


def _finite(value: float) -> bool:
    """:func:`math.isfinite`, imported when an option has a number to check (math is a shared library: opening it
    is about 0.3 ms of a command, which a count or an analysis without such options does without)."""
    import math

    return math.isfinite(value)


def check_common(args: argparse.Namespace) -> None:
    """Check the options many commands share (ranges, output paths, job counts).

    Raises
    ------
    UbongoError
        With a message naming the option.
    """
    for name, low in _MINIMUM.items():
        value = getattr(args, name, None)
        if isinstance(value, int) and value < low:
            raise UbongoError(f"--{name.replace('_', '-')} must be at least {low}, got {value}")
    for name, high in _MAXIMUM.items():
        value = getattr(args, name, None)
        if isinstance(value, int) and value > high:
            raise UbongoError(f"--{name} must be at most {high:,}, got {value:,}")
    for name in _POSITIVE:
        value = getattr(args, name, None)
        if isinstance(value, (int, float)) and not (value > 0 and _finite(value)):
            raise UbongoError(f"--{name.replace('_', '-')} must be a positive, finite number of seconds, got {value}")
    check_estimate(args)
    _check_outputs(args)
    jobs = getattr(args, "jobs", None)
    cap = 8 * (os.cpu_count() or 1)
    if isinstance(jobs, int) and jobs > cap and not getattr(args, "scheduler", None):  # local pool or LocalCluster
        raise UbongoError(f"--jobs {jobs} is more than {cap} (8 per core on this machine)")
    scheduler = getattr(args, "scheduler", None)
    if scheduler is not None and not scheduler.strip():
        raise UbongoError("--scheduler needs an address, e.g. tcp://10.0.0.5:8786")
    check_only_with(args)


def add_executor_arguments(parser: argparse.ArgumentParser, *, default_jobs: int | None = 1,
                           threads: bool = False) -> None:
    """Add ``--executor``, ``--jobs`` and ``--scheduler`` to a sub-command.

    The results of every command that takes them do not depend on them. ``threads``: the command's
    work releases the GIL, so the local executor runs it in threads (:meth:`.Executor.map_unordered`).
    """
    local = "threads of this process" if threads else "worker processes"
    jobs_help = (f"{local} (local) or LocalCluster workers (dask); default "
                 + ("1 (in-process)" if default_jobs == 1 else "all cores"))
    from ..executors import EXECUTORS

    parser.add_argument("--executor", choices=EXECUTORS, default="local",
                        help=f"local ({'threads' if threads else 'a process pool'}, default) or dask "
                             "(a LocalCluster, or --scheduler)")
    parser.add_argument("--jobs", type=int, default=default_jobs, help=jobs_help)
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="dask scheduler address, e.g. tcp://host:8786 (implies --executor dask)")
    parser.add_argument("--dask-dashboard", action="store_true",
                        help="with --executor dask and no --scheduler: serve the local cluster's dashboard "
                             "on 127.0.0.1 (its address is printed); off by default")
    only_with(parser, "--dask-dashboard", lambda a: a.executor == "dask" or a.scheduler is not None,
              "goes with --executor dask (the dashboard of the local Dask cluster it starts)")
    only_with(parser, "--dask-dashboard", lambda a: a.scheduler is None,
              "has no effect with --scheduler: the scheduler serves its own dashboard", note=True)
    only_with(parser, "--jobs", lambda a: a.scheduler is None,
              "has no effect with --scheduler: the scheduler's workers run the work", note=True)


def asks_workers(args: argparse.Namespace) -> bool:
    """Whether the options of :func:`add_executor_arguments` ask for workers: more than one job, a Dask cluster or
    a scheduler's address."""
    return args.jobs > 1 or args.scheduler is not None or args.executor == "dask"


def executor_from(args: argparse.Namespace, *, reach: bool = False) -> Executor:
    """The executor the options of :func:`add_executor_arguments` ask for (use it in a ``with``); ``reach``: a
    scheduler given by address is reached at once (:meth:`~ubongo_cp.executors.Executor.connect`), for a command
    that writes an output folder to stop before creating it when the scheduler cannot be reached."""
    from ..executors import make_executor

    executor = make_executor(args.executor, jobs=args.jobs, scheduler=args.scheduler, dashboard=args.dask_dashboard)
    if reach:
        executor.connect()
    return executor


def add_allow_pieces_argument(parser: argparse.ArgumentParser) -> None:
    """``--allow-pieces FILE`` (repeatable): a piece-set file outside the folder of the cards (or spec) naming it."""
    parser.add_argument("--allow-pieces", action="append", metavar="FILE", default=[],
                        help="a piece-set file outside the folder of the cards (or deck spec) that their "
                             "'pieces' line may name (repeatable; by default only a shipped set or a file in "
                             "their own folder is read)")


def add_progress_argument(parser: argparse.ArgumentParser) -> None:
    """``--no-progress``: the one name every command uses to silence its progress output."""
    parser.add_argument("--no-progress", action="store_true",
                        help="no progress bar or progress lines (a bar shows only on a terminal)")


def show_bar(args: argparse.Namespace) -> bool:
    """Whether a command shows its progress bar: not ``--no-progress``, and standard error a terminal
    (a bar redirected into a file or a pipe would fill it with its redrawn lines)."""

    return not args.no_progress and sys.stderr.isatty()


#: The options of a search, which ``--estimate`` (no search) refuses: (attribute, flag, set when true of its value).
_SEARCH_OPTIONS = (
    ("count", "--count", bool), ("limit", "--limit", lambda v: v is not None),
    ("time_limit", "--time-limit", lambda v: v is not None), ("backend", "--backend", bool),
    ("draw", "--draw", bool), ("sample", "--sample", lambda v: v is not None), ("seed", "--seed", lambda v: v is not None),
    ("fix", "--fix", bool), ("frequencies", "--frequencies", bool), ("memory_limit", "--memory-limit", bool),
    ("max_solutions", "--max-solutions", lambda v: v != str(DEFAULT_KEEP)), ("jobs", "--jobs", lambda v: v != 1),
    ("executor", "--executor", lambda v: v != "local"), ("scheduler", "--scheduler", bool),
    ("dask_dashboard", "--dask-dashboard", bool), ("journal", "--journal", bool),
)


#: The options of a search that ``--estimate``'s help names, where the command has them (the others: "...").
_ESTIMATE_NAMES = ("--count", "--limit", "--backend", "--draw", "--jobs", "--journal")


def _has_option(parser: argparse.ArgumentParser, flag: str) -> bool:
    return flag in parser._option_string_actions


def add_estimate_argument(parser: argparse.ArgumentParser) -> None:
    """``--estimate [SECONDS]``: Knuth's estimate of the search instead of the search.

    Added after the options of a search (:func:`add_split_arguments` among
    them): its help names those the command has.
    """
    flags = [flag for _, flag, _ in _SEARCH_OPTIONS if _has_option(parser, flag)]
    named = [flag for flag in _ESTIMATE_NAMES if flag in flags] + (["..."] if set(flags) - set(_ESTIMATE_NAMES) else [])
    parser.add_argument("--estimate", nargs="?", type=float, const=1.5, metavar="SECONDS",
                        help="do not search: print an estimate of the search a count runs (its nodes, "
                             "solutions and CPU time, with standard errors, from Knuth's random probes) after "
                             "about SECONDS (default 1.5); a small search is counted instead. It goes with "
                             "--json and the options that make the puzzle; the options of a search "
                             f"({', '.join(named)}) are refused with it")


def check_estimate(args: argparse.Namespace) -> None:
    """Refuse ``--estimate`` with the options of a search it does not run (one line naming them).

    Raises
    ------
    InputError
        When ``--estimate`` is given with any of them.
    """
    if getattr(args, "estimate", None) is None:
        return
    given = [flag for name, flag, is_set in _SEARCH_OPTIONS if hasattr(args, name) and is_set(getattr(args, name))]
    if given:
        raise InputError(f"--estimate runs no search, so it does not go with {', '.join(given)} (options of a "
                         "search); drop one or the other")


def json_dumps(value, **kwargs) -> str:
    """:func:`json.dumps` of ``value``, the module imported on first use (a command that prints no JSON, such as a
    plain solve, does not load it: start-up)."""
    import json

    return json.dumps(value, **kwargs)


def print_estimate(instance, seconds: float, *, as_json: bool, pieces_used: int | None = None) -> int:
    """Print :func:`~ubongo_cp.solvers.estimate.estimate_search` of ``instance`` (a line, or JSON); exit code 0."""
    import json

    from ..solvers.estimate import estimate_search

    est = estimate_search(instance, seconds=seconds, pieces_used=pieces_used)
    print(json.dumps({"estimate": est.to_json()}) if as_json else est.summary())
    if not as_json and pieces_used is None and est.engine == "bitboard" and not est.exact:
        from ..solvers import asks_diagram

        if asks_diagram(instance):
            print("the count of these identical pieces asks the decision diagram first (auto), which may take "
                  "far less than this search")
    return 0


def add_games_out(parser: argparse.ArgumentParser, what: str = "the per-game table") -> None:
    """Add ``--out FILE`` of a simulation's table and the journal of its games beside it (:func:`games_journal`)."""
    parser.add_argument("--out", metavar="FILE",
                        help=f"write {what} (.csv or .parquet); the games are kept as they finish in FILE's "
                             "journal, FILE with .jsonl (games.jsonl for games.csv), and the same command run "
                             "again resumes from it (without --out nothing is kept)")
    fixed_suffixes(parser, out="table")
    parser.set_defaults(games_journal_beside=True)   # no other output may be that journal (_check_outputs)


def rule_settings(parser: argparse.ArgumentParser, rules: dict[str, str | None]) -> None:
    """Remember on ``parser`` the options that change its results, option name (``"must_attach"``) to the rule
    it decides (``"DN-4"``; None for a setting that no rule decides: a player's skill, the solve-time noise, an
    engine bound), with their defaults, for :func:`rule_settings_text`. Call it after the options are added."""
    parser.set_defaults(rule_settings={name: (parser.get_default(name), rule) for name, rule in rules.items()})


def rule_settings_text(args: argparse.Namespace) -> str:
    """The settings (:func:`rule_settings`) that ``args`` set to other than their defaults, as written on the
    command line: those a rule decides each with its rule, then the others:
    ``"; rules: --must-attach (DN-4), --stall-ties nobody (DN-12); settings: --max-rounds 50"``; ``""`` when
    every one has its default. A run's header line ends with it, so saved output tells the runs apart."""
    said: dict[bool, list[str]] = {True: [], False: []}
    for name, (default, rule) in getattr(args, "rule_settings", {}).items():
        value = getattr(args, name)
        if value == default:
            continue
        flag = "--" + name.replace("_", "-")
        if not isinstance(value, bool):
            flag += " " + " ".join(f"{v:g}" if isinstance(v, float) else str(v)
                                   for v in (value if isinstance(value, list) else [value]))
        said[rule is not None].append(flag + (f" ({rule})" if rule else ""))
    return "".join(f"; {label}: " + ", ".join(said[ruled])
                   for ruled, label in ((True, "rules"), (False, "settings")) if said[ruled])


def games_journal(args: argparse.Namespace) -> "pathlib.Path | None":
    """The journal of the games of a simulation whose table ``--out FILE`` names: FILE with the suffix ``.jsonl``
    (:class:`~ubongo_cp.games.journal.GameJournal`); None without ``--out``."""
    from pathlib import Path

    return Path(args.out).with_suffix(".jsonl") if getattr(args, "out", None) else None


class resumable:
    """Within the block, a Ctrl-C (or another stop) says, after the command's last line, that the games finished
    are kept in ``journal`` and how to resume.

    The context managers of this module are classes, not :func:`contextlib.contextmanager` functions: importing
    :mod:`contextlib` is about half a millisecond of a command's start-up (as
    :class:`~ubongo_cp.reading.protect_inputs`)."""

    def __init__(self, journal: "pathlib.Path | None") -> None:
        self._journal = journal

    def __enter__(self) -> None:
        pass

    def __exit__(self, kind, exc, tb) -> None:
        journal = self._journal
        if kind is not None and issubclass(kind, KeyboardInterrupt) and journal is not None and journal.is_file():
            _NOTES.append(f"note: the games finished are kept in {journal}: run the same command to resume")


#: The names an output of a kind (:func:`output_kinds`) is refused under, as a reader would take the file for
#: another kind (a PDF named as a picture, a JSON record or model as a table or a picture), with what it is.
_MISNAMED = {".pdf": ("a PDF", (".png", ".svg", ".jpg", ".jpeg")),
             ".json": ("a JSON file", (".csv", ".parquet", ".pq", ".png", ".svg", ".pdf", ".jpg", ".jpeg"))}


def _check_kind_name(args: argparse.Namespace, name: str, kind: str | None) -> None:
    """Refuse an output of ``kind`` (its :func:`output_kinds` extension) named as another kind of file
    (:data:`_MISNAMED`): a PDF as an image (``cards.png``; the images have their own options, ``--png DIR``,
    ``--svg DIR``), a JSON record as a table or an image (``game.csv``)."""
    if kind not in _MISNAMED:
        return
    what, refused = _MISNAMED[kind]
    out = getattr(args, name)
    if os.path.splitext(out)[1].lower() in refused:
        images = " or ".join(f"--{o} DIR" for o in ("png", "svg") if kind == ".pdf" and hasattr(args, o))
        raise InputError(f"--{name} {out}: writes {what}; use a {kind} file name"
                         + (f" ({images} for images)" if images else ""))


def notify(message: str) -> None:
    """Say ``message`` to the user: one line on stderr, after the program's name (a notice, not an error)."""
    tell(f"ubongo-cp: {message}")


def say(message: str) -> None:
    """Write ``message`` to stdout as one line (a line naming a file written: ``wrote ... to DIR``): its leading line
    breaks kept (a blank line before it), any other written as ``\\n`` (:func:`~ubongo_cp.errors.one_line`: a file
    name may hold one)."""
    body = message.lstrip("\n")
    print(message[:len(message) - len(body)] + one_line(body))


def tell(message: str) -> None:
    """Write ``message`` to stderr as one line (:func:`~ubongo_cp.errors.one_line`: a file name in it may hold a
    line break), as it is (a progress line, a line already naming the program)."""
    print(one_line(message), file=sys.stderr, flush=True)


def check_orientations(mode: str | None, grids) -> None:
    """Refuse ``--orientations MODE`` (when given) unless it is a mode of each of ``grids``, before any work.

    Raises
    ------
    InputError
        Naming the option, the grid and its modes (the grid's own wording).
    """
    for grid in grids if mode else ():
        problem = grid.mode_problem(mode)
        if problem:
            raise InputError(f"argument --orientations: {problem}")


def add_split_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of one count cut into subtrees: the executor's, ``--journal`` and ``--no-progress``.

    Added after ``--count`` where the command has one (``--journal``'s help then says it goes with it).
    """
    add_executor_arguments(parser, threads=True)
    parser.add_argument("--journal", metavar="FILE",
                        help=("with --count: " if _has_option(parser, "--count") else "")
                        + "record each finished part of the count in FILE (JSON lines); run the "
                          "same command again after a stop to go on where it stopped")
    if _has_option(parser, "--count"):
        only_with(parser, "--journal", lambda a: a.count, "goes with --count: it records the parts of a count")
    add_progress_argument(parser)


class split_from:
    """The :class:`~ubongo_cp.solvers.subtrees.SplitSearch` the options of :func:`add_split_arguments` ask for,
    as the value of a ``with`` block (with workers, their executor is open within the block).

    None when the count runs as one search with no progress bar: one job, no journal, and
    ``--no-progress`` or a standard error that is not a terminal.
    """

    def __init__(self, args: argparse.Namespace) -> None:
        self._args = args
        self._executor: Executor | None = None

    def __enter__(self) -> object:
        args = self._args
        workers = asks_workers(args)
        progress = show_bar(args)
        if not (workers or progress or args.journal):
            return None
        from ..solvers.subtrees import ONE_SEARCH_NODES, SplitSearch

        if not workers:
            return SplitSearch(journal=args.journal, progress=progress, notify=notify)
        executor = executor_from(args)
        pool = executor.__enter__()   # a small count runs as one search, here
        try:
            split = SplitSearch(executor=pool, journal=args.journal, progress=progress, notify=notify,
                                least_nodes=ONE_SEARCH_NODES)
        except BaseException:
            executor.__exit__(*sys.exc_info())
            raise
        self._executor = executor
        return split

    def __exit__(self, *exc):
        executor, self._executor = self._executor, None
        return executor.__exit__(*exc) if executor is not None else None


class confirmed:
    """Turn a refused long job (:class:`~ubongo_cp.errors.JobTooLargeError`) raised within the block into its
    command-line advice (an :class:`~ubongo_cp.errors.UbongoError`), unless ``yes``."""

    def __init__(self, yes: bool) -> None:
        self._yes = yes

    def __enter__(self) -> None:
        pass

    def __exit__(self, kind, exc, tb) -> None:
        from ..errors import JobTooLargeError

        if kind is not None and issubclass(kind, JobTooLargeError) and not self._yes:
            raise UbongoError(f"{exc}; give a smaller job, or add --yes to run it anyway") from None


#: How a card side or a BurrTools file is named (``solve``'s and ``export``'s positional file): such a word is no
#: piece name.
_PUZZLE_FILE_ENDS = (".toml", ".xmpuzzle")


def use_names(values: list[str]) -> str:
    """The value of ``--use``: one or more words of piece names, each separated from the next by commas or spaces
    (``--use L3 T4 O4``, ``--use L3,T4,O4``), kept as one text for :func:`piece_names_arg`.

    Raises
    ------
    InputError
        For a word naming a card or puzzle file (the command's positional file, taken by ``--use`` when written
        after it), in one line.
    """
    for word in values:
        if word.lower().endswith(_PUZZLE_FILE_ENDS) or (os.sep in word or "/" in word) and os.path.isfile(word):
            raise InputError(f"--use takes piece names, and {word} is a file: --use goes with "
                             "--pieces/--region, not with a card or puzzle file")
    return " ".join(values)


def add_use_argument(parser: argparse.ArgumentParser, help_text: str) -> None:
    """Add ``--use`` (the pieces of ``--pieces`` to use; see :func:`use_names`) to ``parser``: its action is
    registered by the command line's parsers under :data:`~ubongo_cp.cli.plainargs.USE_NAMES`."""
    from .plainargs import USE_NAMES

    parser.add_argument("--use", nargs="+", action=USE_NAMES, metavar="NAMES", help=help_text)


def piece_names_arg(text: str, *, source: str = "--use") -> list[str]:
    """Split a comma/space separated list of piece names.

    Raises
    ------
    InputError
        When no name is given, or two commas have no name between them (a name left out).
    """
    names = [n for n in text.replace(",", " ").split() if n]
    if not names:
        raise InputError(f"{source}: no piece names given")
    comma_names(text, source)   # two commas with no name between them: refused
    return names


def comma_names(text: str, source: str) -> list[str]:
    """The names of a comma-separated option value (``--agents random,greedy``), each stripped; a comma at
    either end is allowed.

    Raises
    ------
    InputError
        When two commas have no name between them (a name left out), naming ``source``.
    """
    parts = [part.strip() for part in text.strip().strip(",").split(",")]
    if len(parts) > 1 and not all(parts):
        raise InputError(f"{source}: no name between two commas in {text!r}")
    return [part for part in parts if part]


def box_sizes(text: str) -> tuple[int, ...] | None:
    """The sizes of a box written ``RxC`` or ``LxRxC`` (integers in the digits 0-9, ``x``, ``X`` or ``×``
    between, as the documentation writes sizes, spaces allowed around them), or None for any other text. A
    size below 1 or over a limit is its caller's to refuse, as the size it is (``3x-4``,
    ``3x99999999999999999999``: not a file name that is missing).

    Raises
    ------
    InputError
        For a size of more digits than Python reads as a number (:func:`sys.get_int_max_str_digits`), or of
        digits other than 0-9 (``٣x٣``).

    Examples
    --------
    >>> box_sizes("6x10"), box_sizes(" 3 X 3 x 3 "), box_sizes("6×10"), box_sizes("3x-4"), box_sizes("rect.txt")
    ((6, 10), (3, 3, 3), (6, 10), (3, -4), None)
    """
    start = text.lstrip()[:1]
    if not (start in ("+", "-") or start.isdigit()):   # a file name: no pattern compiled for it
        return None
    import re

    size = r"\s*([-+]?\d+)\s*"
    match = re.fullmatch(rf"{size}[xX×]{size}(?:[xX×]{size})?", text)
    if match is None:
        return None
    sizes = [size for size in match.groups() if size is not None]
    other = next((ch for size in sizes for ch in size.lstrip("+-") if not "0" <= ch <= "9"), None)
    if other is not None:   # \d matches every script's digits; int() would read '٣' as 3
        raise InputError(f"a box size is written in the digits 0-9, not {other!r} (U+{ord(other):04X})")
    limit, digits = sys.get_int_max_str_digits(), max(len(size.lstrip("+-")) for size in sizes)
    if limit and digits > limit:
        raise InputError(f"a box size of {digits} digits (at most {limit} are read)")
    return tuple(int(size) for size in sizes)


def looks_like_burrtools(path: str | os.PathLike) -> bool:
    """Whether a regular file begins as a BurrTools file does: gzip data, or XML (``<?xml`` or ``<puzzle``, after
    a byte-order mark or blank space), which no card, piece-set or region file can be. Only a regular file is
    looked into (opening a pipe would wait for a writer); one that cannot be read is not one."""
    if not os.path.isfile(path):
        return False
    try:
        with open(path, "rb") as fh:
            head = fh.read(64)
    except OSError:
        return False
    from ..reading import text_head

    return head.startswith(b"\x1f\x8b") or text_head(head).startswith(("<?xml", "<puzzle"))


def is_xmpuzzle(path: str | None) -> bool:
    """True for a BurrTools file: a name ending in ``.xmpuzzle`` (any case), or a file that begins as one does
    under another name (:func:`looks_like_burrtools`)."""
    if not path:
        return False
    return str(path).lower().endswith(".xmpuzzle") or looks_like_burrtools(path)


#: How ``--pieces`` reads a name, in every command's help.
PIECES_HELP = "piece-set file or shipped set name ({}); a shipped set's name is the shipped set: ./NAME reads a file"


def pieces_arg(text: str):
    """``--pieces``: the shipped piece set of that name, else the file (:func:`ubongo_cp.pieces.load_pieces`); a
    line on standard error where a file of a shipped set's name lies in the current folder (``./NAME`` reads it).

    Raises
    ------
    InputError
        For a missing or malformed file (:func:`~ubongo_cp.pieces.load_pieces`).
    """
    from ..pieces import load_pieces
    from ..shipped import SHIPPED_PIECE_SETS

    if text in SHIPPED_PIECE_SETS and os.path.isfile(text):
        notify(f"note: --pieces {text} reads the shipped set; give ./{text} to read the file of that name here")
    return load_pieces(text)


def add_puzzle_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that build one puzzle's instance beside ``--pieces``, ``--region`` and ``--use`` (``solve``,
    ``export``): ``--max-empty``, ``--orientations`` and ``--max-cells`` (:func:`puzzle_instance`,
    :func:`card_task`)."""
    parser.add_argument("--max-empty", type=int, metavar="N",
                        help="let up to N cells of the region stay empty (each solution shows them as '.'); with a "
                             "card, replaces its tasks' max_empty")
    add_orientations_argument(parser, "free (UP-3), or with a card its own 'orientations' key")
    add_max_cells_argument(parser)


def add_orientations_argument(parser: argparse.ArgumentParser, default: str) -> None:
    """``--orientations free|one-sided|fixed|mirror`` (the orientation modes of the grids, UP-3), checked against
    the puzzle's grid once it is read (:func:`check_orientations`: the grids' modules are not imported to build
    the parser)."""
    parser.add_argument("--orientations", metavar="MODE",
                        help=f"orientations a piece may take: free (rotate and turn over; cubes: rotate), "
                             f"one-sided (rotate only), fixed (as drawn), mirror (cubes: rotate and mirror); "
                             f"default: {default}")


def add_max_cells_argument(parser: argparse.ArgumentParser) -> None:
    """``--max-cells N``: the largest region read."""
    from ..geometry import MAX_REGION_CELLS

    parser.add_argument("--max-cells", type=int, default=MAX_REGION_CELLS, metavar="N",
                        help="largest region accepted, in cells (default %(default)s: a guard against a mistyped "
                             "region whose placements would fill the memory; raise it for larger puzzles)")


def check_max_empty(max_empty: int | None, region) -> None:
    """``--max-empty`` given (not None) is 0 to the region's cells."""
    if max_empty is not None and max_empty < 0:
        raise InputError(f"--max-empty must be at least 0, got {max_empty}")
    if max_empty is not None and max_empty > region.area:
        raise InputError(f"--max-empty {max_empty} is larger than the region ({region.area} cells)")


def puzzle_instance(args: argparse.Namespace, pieces, region, ranges: dict):
    """The exact-cover instance of a puzzle (``solve``, ``export``): ``pieces`` in ``region`` with ``--orientations``
    and ``--max-empty`` (checked against the region first).

    Raises
    ------
    InputError
        For an orientation mode the region's grid does not have, or a ``--max-empty`` below 0 or over the region.
    """
    check_orientations(args.orientations, [region.grid])
    check_max_empty(args.max_empty, region)
    from ..cover import build_instance

    return build_instance(pieces, region, mode=args.orientations or "free", ranges=ranges,
                          max_empty=args.max_empty or 0)


def card_task(args: argparse.Namespace, card):
    """``card`` with ``--orientations`` and ``--max-empty`` (when given) in place of its own (``solve``,
    ``export``)."""
    from ..structs import replace

    if args.orientations:
        check_orientations(args.orientations, [card.region.grid])
        card = replace(card, orientations=args.orientations)
    check_max_empty(args.max_empty, card.region)
    if args.max_empty is not None:  # replaces the card's own (its label and JSON say so too)
        card = replace(card, max_empty={face: args.max_empty for face in card.tasks if args.max_empty})
    return card


def pieces_task(args: argparse.Namespace, *, max_cells: int) -> tuple:
    """The puzzle of ``--pieces``, ``--region`` and ``--use`` (``solve``, ``export``): the piece set, the pieces
    used, the region and the ranges of piece counts (``NAME:LO-HI``; empty without them).

    Raises
    ------
    InputError
        For a file :func:`pieces_arg` or :func:`region_arg` refuses, and a ``--use`` naming no piece of the set.
    """
    from ..pieces import count_ranges

    piece_set = pieces_arg(args.pieces)
    region = region_arg(args.region, piece_set, max_cells=max_cells)
    names: list[str] | None = None
    ranges: dict[str, tuple[int, int]] = {}
    if args.use is not None:
        names, ranges = count_ranges(piece_names_arg(args.use), source="--use")
    return piece_set, piece_set.select(names, argument="--use"), region, ranges


def _names_box(text) -> bool:
    """Whether ``--region TEXT`` names a box, not a file: it is written as box sizes (:func:`box_sizes`, its
    sizes checked by :func:`region_arg`) and no file has that name (a folder of that name is not a file)."""
    if not isinstance(text, str):
        return False
    try:
        dims = box_sizes(text)
    except InputError:   # sizes Python cannot read: region_arg says so, naming --region
        return True
    return dims is not None and not (os.path.exists(text) and not os.path.isdir(text))


def region_arg(text: str, piece_set, *, max_cells: int):
    """``--region``: a region file, or, when no file has that name, ``ROWSxCOLS`` (``LAYERSxROWSxCOLS`` on
    cubes) for a box of the pieces' grid (:meth:`ubongo_cp.pieces.Region.box`: a rectangle, a parallelogram of
    hexagons or triangles, a cuboid). A folder of that name is not a file: the box is used.

    Raises
    ------
    InputError
        For a missing or malformed file, or a box the grid does not have or over ``max_cells``.
    """
    from ..pieces import Region, load_region

    shown = text if len(text) <= 40 else text[:37] + "..."
    try:
        dims = box_sizes(text)
    except InputError as err:
        raise InputError(f"--region {shown}: {err.message}") from None
    if dims is None or not _names_box(text):
        if looks_like_burrtools(text):
            raise InputError(f"{text}: a BurrTools file, not a region picture: `ubongo-cp solve {text}` reads its "
                             "pieces and result")
        if dims is None and not os.path.lexists(text) and text.lstrip()[:1].isdigit():
            raise InputError(f"--region {shown}: no such region file, nor a box: write a box of the pieces' grid as "
                             f"{'LAYERSxROWSxCOLS (e.g. 3x3x3)' if piece_set.grid.dim == 3 else 'ROWSxCOLS (e.g. 6x10)'}")
        return load_region(text, max_cells=max_cells)
    if len(dims) != piece_set.grid.dim:
        raise InputError(f"--region {shown}: a box of the {piece_set.grid.name} grid has {piece_set.grid.dim} sizes "
                         f"({'LAYERSxROWSxCOLS' if piece_set.grid.dim == 3 else 'ROWSxCOLS'})")
    try:
        return Region.box(*dims, grid=piece_set.grid, max_cells=max_cells)
    except InputError as err:
        raise InputError(f"--region {shown}: {err.message}") from None
