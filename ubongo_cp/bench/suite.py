"""Benchmark suites: instances, each with a question and, where known, the expected answer.

A suite is a TOML file, a directory, or the name of a suite shipped with the
package (:func:`shipped_suites`). The TOML form lists instances in any format
the toolkit reads::

    description = "the twelve pentominoes in rectangles"

    [[instance]]
    name = "3x20"              # unique in the suite
    pieces = "pentominoes"     # a shipped set or a piece-set file
    rectangle = [3, 20]        # or region = "path/to/region.txt"
    question = "count"         # first | count | analyze, or a list of them
    expected = 8               # optional: the number of solutions
    quick = true               # optional (default true): part of the --quick form

An instance names exactly one source:

``exact_cover = FILE``
    an exact-cover matrix in Knuth's plain format (:mod:`ubongo_cp.exactcover`);
``pieces = SET`` with ``region = FILE`` or ``rectangle = [ROWS, COLS]``
    (a box of the pieces' grid, ``[LAYERS, ROWS, COLS]`` on cubes),
    optionally ``use = [names]`` (a name may repeat: identical pieces, UP-5)
    and ``orientations`` (a mode of the pieces' grid); a region of more than 400 cells (the guard of
    ``solve`` against a mistyped region) needs ``max_cells = N``;
``card = FILE``
    a card side: each of its tasks (``faces = [..]`` to pick some), or its
    piece set and region for ``analyze``;
``deck = DIR``
    every task of a deck (or a shipped deck's name); ``quick_sample = N``
    takes a seeded sample of N tasks in the ``--quick`` form;
    ``expected_table = FILE`` reads each task's expected count from a
    batch table (``tasks.csv``: ``card_id, side, face, count``);
``xmpuzzle = FILE``
    a BurrTools problem (``problem = N``, default 1).

Questions: ``first`` (find one solution; the expected answer is solvable
when ``expected > 0``), ``count`` (count all solutions) and ``analyze``
(which ``k`` pieces of the set tile the region: ``k = K`` is required;
``expected`` is the total number of tilings and ``expected_subsets`` the
number of tiling subsets). Paths are relative to the suite file.

A directory without a ``suite.toml`` is a suite of every file in it the
toolkit reads: ``*.dlx`` (Knuth's format), ``*.xmpuzzle`` and card-side
``*.toml`` files, each asked one question (``count`` by default), with no
expected answer (the solvers' answers are compared with each other).

Every problem is an :class:`~ubongo_cp.errors.InputError` naming the suite
file and the line of the entry, raised when the suite is loaded, before any run.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError, as_written
from ..io import KNUTH_SUFFIXES

__all__ = ["QUESTIONS", "Task", "Suite", "Built", "load_suite", "is_directory_suite", "shipped_suites", "build",
           "SUITE_FILE"]

#: The questions a benchmark can ask of an instance.
QUESTIONS = ("first", "count", "analyze")
#: The file a suite directory may hold to list its instances itself.
SUITE_FILE = "suite.toml"
#: Seed of the ``quick_sample`` of a deck when the entry gives none.
SAMPLE_SEED = 2026

_SOURCES = ("exact_cover", "pieces", "card", "deck", "xmpuzzle")
_KEYS = {"name", "question", "k", "expected", "expected_subsets", "quick", *_SOURCES, "region", "rectangle", "use",
         "orientations", "faces", "quick_sample", "seed", "expected_table", "problem", "max_cells"}
#: Which keys each source allows besides the common ones.
_ALLOWED = {"exact_cover": set(), "pieces": {"region", "rectangle", "use", "orientations", "max_cells"},
            "card": {"faces"}, "deck": {"quick_sample", "seed", "expected_table"},
            "xmpuzzle": {"problem"}}
_COMMON = {"name", "question", "k", "expected", "expected_subsets", "quick"}
_DIRECTORY_SUFFIXES = (*KNUTH_SUFFIXES, ".xmpuzzle", ".toml")


@dataclass(frozen=True)
class Task:
    """One instance and one question: what a benchmark run solves.

    Attributes
    ----------
    suite : str
        Name of the suite it belongs to.
    instance : str
        Name of the instance in the suite (unique with ``question``).
    question : str
        ``"first"``, ``"count"`` or ``"analyze"``.
    source : dict
        How to build the instance (JSON-serialisable: ``kind`` and absolute
        paths); :func:`build` reads it, in the benchmarking process and in
        every solver process.
    k : int or None
        Subset size of an ``analyze`` question.
    expected : int or None
        Expected number of solutions (tilings in total for ``analyze``).
    expected_subsets : int or None
        Expected number of tiling subsets (``analyze``).
    where : str
        ``file:line`` of the suite entry, for messages.
    """

    suite: str
    instance: str
    question: str
    source: dict
    k: int | None = None
    expected: int | None = None
    expected_subsets: int | None = None
    where: str = ""

    @property
    def key(self) -> tuple[str, str, str]:
        """``(suite, instance, question)``."""
        return (self.suite, self.instance, self.question)


@dataclass(frozen=True)
class Suite:
    """A loaded suite: its tasks in file order.

    Attributes
    ----------
    name : str
        The shipped name, or the file or directory name without suffix.
    path : str
        The suite file or directory.
    description : str
    tasks : tuple of Task
    """

    name: str
    path: str
    description: str
    tasks: tuple[Task, ...] = field(repr=False)


@dataclass(frozen=True, eq=False)
class Built:
    """An instance ready to solve: the exact-cover problem and what checks a solution.

    Attributes
    ----------
    instance : ExactCoverInstance or ExactCoverMatrix
        The problem the solvers get (optional pieces for ``analyze``).
    pieces : tuple of Piece or None
        The pieces (a polyomino instance), for the independent check of a
        solution (:func:`ubongo_cp.verify.verify_solution`).
    region : Region or None
    digest : str
        Hash of the instance's items (with their bounds) and options: the
        same digest means the same problem to solve.
    """

    instance: Any
    pieces: tuple | None
    region: Any
    digest: str


def shipped_suites() -> dict[str, Path]:
    """The suites shipped with the package: name -> TOML file (``ubongo_cp/data/bench/``).

    Examples
    --------
    >>> sorted(shipped_suites())
    ['decks', 'duel-analysis', 'identical', 'knuth', 'pentominoes']
    """
    from ..shipped import data_dir

    return {p.stem: p for p in sorted((data_dir() / "bench").glob("*.toml"))}


def load_suite(spec: str | os.PathLike, *, quick: bool = False, question: str = "count") -> Suite:
    """Read a suite: a shipped name, a TOML file or a directory (see the module docstring).

    Parameters
    ----------
    spec : str or path
        A name of :func:`shipped_suites` (a bare name is always the shipped
        suite: write ``./decks`` for a directory called ``decks``), a
        ``.toml`` file or a directory.
    quick : bool
        Only the instances marked ``quick`` (the default), decks sampled.
    question : str
        The question for the files of a directory without ``suite.toml``.

    Returns
    -------
    Suite

    Raises
    ------
    InputError
        Naming the file and line: a missing suite or instance file, invalid
        TOML, an unknown key, source or question, a missing ``k``, a name
        used twice, or an instance that cannot be read.
    """
    if question not in QUESTIONS:
        raise InputError(f"unknown question {question!r}; choose one of {', '.join(QUESTIONS)}")
    if not isinstance(spec, (str, os.PathLike)):   # not a TypeError from pathlib
        raise InputError(f"a suite is a shipped suite's name, a .toml file or a directory, got {type(spec).__name__}")
    path = Path(spec)
    shipped = shipped_suites()
    if os.fspath(spec) in shipped:  # a bare shipped name; ./NAME is a directory of that name
        path = shipped[os.fspath(spec)]
        name = os.fspath(spec)
    else:
        # a directory by its own name, also when given as "." or ".." (whose Path names are "" and "..")
        name = path.stem if path.suffix.lower() == ".toml" else Path(os.path.abspath(path)).name or os.fspath(path)
    if is_directory_suite(spec):
        return _load_directory(path, name, question)
    if not path.exists():
        raise InputError(f"suite not found (a .toml file, a directory, or one of {', '.join(shipped)})", path=path)
    if path.is_dir():
        return _load_toml(path / SUITE_FILE, name, quick)
    if path.suffix.lower() != ".toml":
        kinds = {**dict.fromkeys(KNUTH_SUFFIXES, "an exact-cover instance (Knuth's format)"),
                 ".xmpuzzle": "a BurrTools file"}
        if path.suffix.lower() in kinds:
            raise _not_a_suite(path, kinds[path.suffix.lower()], "give a directory holding it")
        raise _not_a_suite(path, f"a {path.suffix} file" if path.suffix else "a file without a .toml suffix")
    return _load_toml(path, name, quick)


def is_directory_suite(spec: str | os.PathLike) -> bool:
    """Whether ``spec`` is a directory of instance files (no ``suite.toml`` in it, not a shipped suite's name).

    Only its files are asked the ``question`` given to :func:`load_suite`; a
    suite file (and so a shipped suite) names the question of each instance.

    Examples
    --------
    >>> is_directory_suite("knuth")     # a shipped suite's name
    False
    """
    if os.fspath(spec) in shipped_suites():
        return False
    path = Path(spec)
    return path.is_dir() and not (path / SUITE_FILE).is_file()


def _not_a_suite(path: Path, got: str, advice: str = "") -> InputError:
    """The error for a file given as a suite that is none: what it is, what a suite is, and what to give."""
    return InputError(f"is {got}, not a suite (a .toml file of [[instance]] tables, a directory of instance "
                      f"files, or a shipped suite: {', '.join(shipped_suites())})" + (f"; {advice}" if advice else ""),
                      path=path)


# ---------------------------------------------------------------------- TOML
def _load_toml(path: Path, name: str, quick: bool) -> Suite:
    from ..io import loads_toml, read_text

    text = read_text(path)
    data = loads_toml(text, path=path)
    unknown = set(data) - {"description", "instance"}
    if "instance" not in data and {"region", "tasks", "sides"} & set(data):
        if "sides" in data:
            raise _not_a_suite(path, "a deck spec", "generate its deck and give the deck's directory")
        raise _not_a_suite(path, "a card side", "give a directory holding it")
    if unknown:
        key = sorted(unknown)[0]
        raise InputError(f"unknown key {key!r} (a suite has 'description' and [[instance]] tables)",
                         path=path, line=_line_of(text, key, 0, len(text)))
    entries = data.get("instance")
    if not isinstance(entries, list) or not entries or not all(isinstance(e, dict) for e in entries):
        raise InputError("no [[instance]] table: a suite lists its instances as [[instance]] tables", path=path)
    description = data.get("description", "")
    if not isinstance(description, str):
        raise InputError("'description' must be a string", path=path, line=_line_of(text, "description", 0, len(text)))
    headers = [m.start() for m in re.finditer(r"^[ \t]*\[\[[ \t]*instance[ \t]*\]\]", text, re.M)]
    tasks: list[Task] = []
    seen: dict[tuple[str, str], str] = {}
    for index, entry in enumerate(entries):
        start = headers[index] if index < len(headers) else 0
        end = headers[index + 1] if index + 1 < len(headers) else len(text)
        entry_line = text.count("\n", 0, start) + 1 if index < len(headers) else None
        where = _Where(path, text, start, end, entry_line)
        for task in _entry_tasks(entry, where, name, quick):
            k = (task.instance, task.question)
            if k in seen:
                raise InputError(f"instance {task.instance!r} with question {task.question!r} is listed twice "
                                 f"(also at {seen[k]})", path=path, line=entry_line)
            seen[k] = task.where
            tasks.append(task)
    return Suite(name, os.fspath(path), description, tuple(tasks))


@dataclass
class _Where:
    """The span of one [[instance]] table in the suite file, for error lines."""

    path: Path
    text: str
    start: int
    end: int
    line: int | None

    def key_line(self, key: str) -> int | None:
        return _line_of(self.text, key, self.start, self.end) or self.line

    def error(self, message: str, key: str | None = None) -> InputError:
        return InputError(message, path=self.path, line=self.key_line(key) if key else self.line)

    def resolve(self, value: str) -> Path:
        p = Path(value).expanduser()
        return p if p.is_absolute() else self.path.parent / p

    def label(self) -> str:
        return f"{self.path}:{self.line}" if self.line else os.fspath(self.path)


def _line_of(text: str, key: str, start: int, end: int) -> int | None:
    match = re.compile(rf'^[ \t]*"?{re.escape(key)}"?[ \t]*=', re.M).search(text, start, end)
    return text.count("\n", 0, match.start()) + 1 if match else None


def _entry_tasks(entry: dict, where: _Where, suite: str, quick: bool) -> list[Task]:
    unknown = sorted(set(entry) - _KEYS)
    if unknown:
        raise where.error(f"unknown key {unknown[0]!r} in an [[instance]] table", unknown[0])
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise where.error("every [[instance]] needs a name (a non-empty string)", "name")
    sources = [s for s in _SOURCES if s in entry]
    if len(sources) != 1:
        what = "no source" if not sources else f"two sources ({sources[0]} and {sources[1]})"
        raise where.error(f"instance {name!r} has {what}: give exactly one of {', '.join(_SOURCES)}",
                          sources[1] if len(sources) > 1 else None)
    kind = sources[0]
    extra = sorted(set(entry) - _COMMON - {kind} - _ALLOWED[kind])
    if extra:
        raise where.error(f"key {extra[0]!r} does not go with {kind}", extra[0])
    questions = entry.get("question", "count")
    questions = [questions] if isinstance(questions, str) else questions
    if not isinstance(questions, list) or not questions or not all(isinstance(q, str) for q in questions):
        raise where.error("question must be a string or a non-empty list of strings, got "
                          f"{as_written(entry.get('question'))}", "question")
    for q in questions:
        if q not in QUESTIONS:
            raise where.error(f"unknown question {q!r}; choose one of {', '.join(QUESTIONS)}", "question")
    k = _int(entry, "k", where, low=1)
    if "analyze" in questions and k is None:
        raise where.error(f"instance {name!r} asks 'analyze' but gives no k (the number of pieces per subset)")
    if k is not None and "analyze" not in questions:
        raise where.error("k goes with the question 'analyze'", "k")
    if "analyze" in questions and kind not in ("pieces", "card"):
        raise where.error(f"'analyze' needs a piece set and a region (pieces = ... or card = ...), not {kind}",
                          "question")
    expected = _int(entry, "expected", where, low=0)
    expected_subsets = _int(entry, "expected_subsets", where, low=0)
    if expected_subsets is not None and questions != ["analyze"]:
        raise where.error("expected_subsets goes with the question 'analyze' alone", "expected_subsets")
    in_quick = entry.get("quick", True)
    if not isinstance(in_quick, bool):
        raise where.error("quick must be true or false", "quick")
    if quick and not in_quick:
        return []
    # Each source gives (instance name, source dict, expected count) triples.
    units = _UNITS[kind](entry, where, name, quick)
    tasks = []
    for question in questions:
        if question == "analyze" and kind == "card":  # the card's piece set and region, not its tasks
            source = {"kind": "card", "path": units[0][1]["path"], "face": None}
            tasks.append(Task(suite, name, question, source, k, expected, expected_subsets, where.label()))
            continue
        for inst, source, unit_expected in units:
            exp = expected if expected is not None else unit_expected
            tasks.append(Task(suite, inst, question, source, k if question == "analyze" else None,
                              exp, expected_subsets if question == "analyze" else None, where.label()))
    return tasks


def _int(entry: dict, key: str, where: _Where, *, low: int) -> int | None:
    value = entry.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise where.error(f"{key} must be an integer of at least {low}, got {as_written(value)}", key)
    return value


def _file(entry: dict, key: str, where: _Where, *, directory: bool = False) -> Path:
    value = entry.get(key)
    if not isinstance(value, str) or not value:
        raise where.error(f"{key} must be a path (a string)", key)
    path = where.resolve(value)
    if directory and not path.exists():
        from ..shipped import resolve_deck

        path = resolve_deck(value) if not Path(value).is_absolute() else path
    if not path.exists():
        raise where.error(f"{key} names a missing {'directory' if directory else 'file'}: {value} "
                          f"(looked at {path})", key)
    if directory != path.is_dir():
        raise where.error(f"{key} {value} is {'not ' if directory else ''}a directory", key)
    return path.resolve()


def _exact_cover_units(entry, where, name, quick):
    return [(name, {"kind": "exact_cover", "path": os.fspath(_file(entry, "exact_cover", where))}, None)]


def _pieces_units(entry, where, name, quick):
    from ..geometry import MAX_REGION_CELLS
    from ..pieces import load_pieces, resolve_pieces_path

    spec = entry["pieces"]
    if not isinstance(spec, str) or not spec:
        raise where.error("pieces must be a shipped set name or a piece-set file", "pieces")
    path = resolve_pieces_path(spec, relative_to=where.path)
    if not path.is_file():
        raise where.error(f"pieces names a missing piece-set file: {spec} (looked at {path})", "pieces")
    source: dict = {"kind": "pieces", "pieces": os.fspath(path.resolve())}
    piece_set = _checked(lambda: load_pieces(path), where, "pieces")
    grid = piece_set.grid
    if ("region" in entry) == ("rectangle" in entry):
        given = "both are given" if "region" in entry else "neither is given"
        raise where.error(f"instance {name!r} needs either region = FILE or rectangle = [ROWS, COLS]: {given}")
    max_cells = _int(entry, "max_cells", where, low=1)
    if max_cells is not None:
        source["max_cells"] = max_cells
    limit = MAX_REGION_CELLS if max_cells is None else max_cells
    if "rectangle" in entry:
        rect = entry["rectangle"]
        if (not isinstance(rect, list) or len(rect) != grid.dim
                or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in rect)):
            sizes = "[LAYERS, ROWS, COLS], three" if grid.dim == 3 else "[ROWS, COLS], two"
            raise where.error(f"rectangle must be {sizes} positive integers (a box of the {grid.name} grid of "
                              f"{spec})", "rectangle")
        source["rectangle"] = list(rect)
        cells = math.prod(rect) * len(grid.box(*[1] * len(rect)))   # a box's cells grow with each size
        if cells > limit:   # refused before the box is made
            raise where.error(f"rectangle {rect} has {cells:,} cells, more than {limit}: a guard against a "
                              "mistyped size; raise it with max_cells = N for a larger puzzle", "rectangle")
    else:
        source["region"] = os.fspath(_file(entry, "region", where))
        # read once here, so that a region over the limit stops the suite before any run
        from ..geometry import MAX_CELLS_OPTION

        option = MAX_CELLS_OPTION.set("max_cells = N in the suite entry")
        try:
            _checked(lambda: _region(source, grid), where, "region")
        finally:
            MAX_CELLS_OPTION.reset(option)
    if "use" in entry:
        use = entry["use"]
        if isinstance(use, str):
            use = [n for n in use.replace(",", " ").split() if n]
        if not isinstance(use, list) or not use or not all(isinstance(n, str) and n for n in use):
            raise where.error("use must be a list of piece names", "use")
        unknown = [n for n in use if n not in piece_set]
        if unknown:
            raise where.error(f"unknown piece {unknown[0]!r} (the set {spec} has {' '.join(piece_set.names)})",
                              "use")
        source["use"] = use
    mode = entry.get("orientations", "free")
    problem = grid.mode_problem(mode)
    if problem:
        raise where.error(f"orientations: {problem}", "orientations")
    source["orientations"] = mode
    return [(name, source, None)]


def _region(source: dict, grid):
    """The region of a ``pieces`` source: its region file, or its ``rectangle``, a box of the pieces' grid."""
    from ..geometry import MAX_REGION_CELLS
    from ..pieces import Region, load_region

    limit = source.get("max_cells", MAX_REGION_CELLS)
    if "region" in source:
        return load_region(source["region"], max_cells=limit)
    return Region.box(*source["rectangle"], grid=grid, max_cells=limit)


def _card_units(entry, where, name, quick):
    from ..cards import load_card

    path = _file(entry, "card", where)
    card = _checked(lambda: load_card(path), where, "card")
    faces = entry.get("faces")
    if faces is None:
        faces = list(card.tasks)
    if not isinstance(faces, list) or not faces or not all(isinstance(f, int) and not isinstance(f, bool)
                                                           for f in faces):
        raise where.error("faces must be a list of die faces", "faces")
    for face in faces:
        if face not in card.tasks:
            raise where.error(f"card {card.card_id} side {card.side} has no face {face}", "faces")
    return [(f"{name}/{face}", {"kind": "card", "path": os.fspath(path), "face": face}, None) for face in faces]


def _deck_units(entry, where, name, quick):
    from ..cards import iter_tasks, load_deck

    path = _file(entry, "deck", where, directory=True)
    cards, problems = _checked(lambda: load_deck(path), where, "deck")
    if problems:
        raise where.error(f"deck {entry['deck']}: {problems[0].message}", "deck")
    tasks = list(iter_tasks(cards))
    sample = _int(entry, "quick_sample", where, low=1)
    if quick and sample is not None and sample < len(tasks):
        seed = _int(entry, "seed", where, low=0)
        rng = random.Random(SAMPLE_SEED if seed is None else seed)
        tasks = sorted(rng.sample(tasks, sample), key=lambda t: (t[0].card_id, t[0].side, t[1]))
    expected = _expected_table(entry, where) if "expected_table" in entry else {}
    return [(f"{name}/{card.card_id}{card.side}/{face}",
             {"kind": "card", "path": os.fspath(Path(card.path).resolve()), "face": face},
             expected.get((card.card_id, card.side, face))) for card, face in tasks]


def _expected_table(entry, where) -> dict[tuple[str, str, int], int]:
    """Each task's count in a batch table (read by :func:`ubongo_cp.report.load_tasks`, as every task table is),
    where the count is complete.

    Raises
    ------
    InputError
        As :func:`~ubongo_cp.report.load_tasks` (no ``count`` column, a count that is no whole number of 64 bits
        or is negative, a task given twice), naming the table's line and the suite's.
    """
    import pandas as pd

    from ..report.tables import load_tasks

    path = _file(entry, "expected_table", where)

    def read() -> dict[tuple[str, str, int], int]:
        table = load_tasks(path, required=("card_id", "side", "face", "count"))
        complete = table["complete"].tolist() if "complete" in table else [True] * len(table)
        out: dict[tuple[str, str, int], int] = {}
        for position, key in enumerate(zip(table["card_id"], table["side"], table["face"].astype(int))):
            count = table["count"].iloc[position]
            if pd.isna(count) or not complete[position]:
                continue
            out[key] = int(count)
        return out

    return _checked(read, where, "expected_table")


def _xmpuzzle_units(entry, where, name, quick):
    from ..burrtools import read_xmpuzzle

    path = _file(entry, "xmpuzzle", where)
    problem = _int(entry, "problem", where, low=1) or 1
    _checked(lambda: read_xmpuzzle(path, problem), where, "xmpuzzle")
    return [(name, {"kind": "xmpuzzle", "path": os.fspath(path), "problem": problem}, None)]


_UNITS = {"exact_cover": _exact_cover_units, "pieces": _pieces_units, "card": _card_units, "deck": _deck_units,
          "xmpuzzle": _xmpuzzle_units}


def _checked(read, where: _Where, key: str):
    """Run ``read``; an error in the file it reads names that file, and the suite line that named it."""
    try:
        return read()
    except InputError as exc:
        if exc.path is not None and Path(exc.path).resolve() == Path(where.path).resolve():
            raise
        raise InputError(f"{exc} (named here)", path=where.path, line=where.key_line(key)) from None


# ----------------------------------------------------------------- directory
def _load_directory(path: Path, name: str, question: str) -> Suite:
    from ..specs import DECK_SPEC_FILE

    files = sorted(f for f in path.iterdir()
                   if f.is_file() and f.suffix.lower() in _DIRECTORY_SUFFIXES and f.name != DECK_SPEC_FILE)
    if not files:
        raise InputError("no instance files in the suite directory (*.dlx, *.xcc, *.xmpuzzle, card-side *.toml, or a "
                         f"{SUITE_FILE})", path=path)
    tasks: list[Task] = []
    seen: dict[str, str] = {}   # instance name -> the file that gives it
    for f in files:
        where = _Where(f, "", 0, 0, None)
        suffix = f.suffix.lower()
        if question == "analyze" and suffix != ".toml":
            raise InputError("'analyze' needs a piece set and a region: only card files can be analysed", path=f)
        if suffix in KNUTH_SUFFIXES:
            from ..exactcover import read_exact_cover

            read_exact_cover(f)
            units = [(f.stem, {"kind": "exact_cover", "path": os.fspath(f.resolve())}, None)]
        elif suffix == ".xmpuzzle":
            units = _xmpuzzle_units({"xmpuzzle": os.fspath(f.resolve())}, where, f.stem, False)
        else:
            units = _card_units({"card": os.fspath(f.resolve())}, where, f.stem, False)
        for inst, source, _ in units:
            if question == "analyze":
                raise InputError("'analyze' on a directory needs a suite.toml giving k", path=path)
            if inst in seen:   # its runs would be taken for the other file's (a run is known by its instance name)
                raise InputError(f"{seen[inst]} and {f.name} are both instance {inst!r}: rename one", path=path)
            seen[inst] = f.name
            tasks.append(Task(name, inst, question, source, where=os.fspath(f)))
    return Suite(name, os.fspath(path), f"every instance file in {path}", tuple(tasks))


# --------------------------------------------------------------------- build
def build(source: dict, question: str, k: int | None = None) -> Built:
    """Build the instance a task's ``source`` names (in any process: only files are read).

    Parameters
    ----------
    source : dict
        :attr:`Task.source`.
    question : str
        With ``"analyze"`` the pieces are optional (secondary items), each
        used at most once (:func:`ubongo_cp.analyze.analyze`).
    k : int, optional
        With ``"analyze"``: the pieces per subset, checked against the pieces
        (:func:`ubongo_cp.analyze.check_k`).

    Returns
    -------
    Built

    Raises
    ------
    InputError
        When a file cannot be read any more or the pieces do not fit the question (``k`` more than the
        pieces, with ``"analyze"``).
    """
    from ..cover import build_instance

    kind = source["kind"]
    analyze = question == "analyze"
    if kind == "exact_cover":
        from ..exactcover import read_exact_cover

        matrix = read_exact_cover(source["path"])
        return Built(matrix, None, None, _digest(matrix))
    mode = "free"
    if kind == "pieces":
        from ..pieces import load_pieces

        piece_set = load_pieces(source["pieces"])
        pieces = list(piece_set.select(source.get("use")))
        region = _region(source, piece_set.grid)
        mode = source.get("orientations", "free")
    elif kind == "card":
        from ..cards import load_card

        card = load_card(source["path"])
        region, mode = card.region, card.orientations
        pieces = list(card.piece_set.pieces if source.get("face") is None else card.task_pieces(source["face"]))
        if source.get("face") is not None:
            card.require_fixed(source["face"], "a benchmark instance is a fixed task")
    elif kind == "xmpuzzle":
        from ..burrtools import read_xmpuzzle

        problem = read_xmpuzzle(source["path"], source.get("problem", 1))
        pieces, region = list(problem.pieces), problem.region
    else:
        raise InputError(f"unknown instance kind {kind!r}")
    if analyze and len({p.name for p in pieces}) != len(pieces):
        raise InputError("'analyze' needs distinct piece names (each piece is used at most once)")
    if analyze:
        from ..analyze import check_k

        check_k(pieces, k)
    instance = build_instance(pieces, region, optional_pieces=analyze, mode=mode)
    return Built(instance, tuple(pieces), region, _digest(instance))


def _digest(instance) -> str:
    """Hash of the items (with their bounds) and options (with their colours) of an instance."""
    h = hashlib.sha1(f"{instance.n_items}/{instance.n_primary}".encode())
    if instance.multiplicity is not None:
        h.update(instance.multiplicity.tobytes())
    if getattr(instance, "colours", None) is not None:
        h.update(b"colours" + instance.colours.astype("uint32").tobytes())
    h.update(instance.indptr.astype("uint32").tobytes())
    h.update(instance.indices.astype("uint32").tobytes())
    return h.hexdigest()[:16]


def source_json(source: dict) -> str:
    """A source as canonical JSON (the form a solver process receives)."""
    return json.dumps(source, sort_keys=True)
