"""What a booklet page shows about each task: solution, count and difficulty, from a results table or solved here."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Mapping

from ..cards import CardSide, card_id_match, task_hash
from ..cover import task_instance, verify_solution
from ..errors import InputError, cut, whole_argument
from ..geometry import Cell
from ..solvers import solve
from ..status import Status

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["TaskView", "task_views", "MOST_SOLUTIONS"]

#: Default largest number of solutions drawn per task with ``all_solutions``.
MOST_SOLUTIONS = 24


@dataclass(frozen=True)
class TaskView:
    """What a page shows about one task (one die face of a card side).

    Attributes
    ----------
    face : int
        Die face.
    pieces : tuple of str
        Piece names of the task.
    status : str
        ``"solved"``, ``"no solution"`` or ``"unknown"`` (time limit reached).
    solution : dict of str -> list of (row, col), or None
        One solution (piece name -> covered cells; a second copy of a piece
        is named ``"name#2"``), or None when not solved.
    count : int or None
        Number of solutions, when known.
    count_is_lower_bound : bool
        True when ``count`` is only a lower bound (the search was cut off).
    difficulty : float or None
        Difficulty score from the batch runner, when known.
    more : tuple of dict
        Further solutions, when every solution is to be drawn (``all_solutions``).
    legend : str
        What ``difficulty`` means, when it is not the toolkit's own rating
        (a fitted difficulty model's description); empty otherwise.
    entries : tuple of str
        The task as its card file writes it (``"T4:0-2"``), when it has
        ranges of piece counts; empty otherwise.
    """

    face: int
    pieces: tuple[str, ...]
    status: str
    solution: dict[str, list[Cell]] | None
    count: int | None = None
    count_is_lower_bound: bool = False
    difficulty: float | None = None
    more: tuple = ()
    legend: str = ""
    entries: tuple[str, ...] = ()

    @property
    def solutions(self) -> list[dict[str, list[Cell]]]:
        """Every solution the page draws: ``solution`` and then ``more``."""
        return ([self.solution] if self.solution else []) + list(self.more)


def task_views(card: CardSide, results: "pd.DataFrame | Mapping | str | os.PathLike | None" = None, *,
               time_limit: float | None = 10.0, all_solutions: bool = False,
               most: int = MOST_SOLUTIONS) -> list[TaskView]:
    """One :class:`TaskView` per task of ``card``, in face order.

    A task's solution, count and difficulty come from ``results`` (a batch
    runner DataFrame or its path, see :func:`~ubongo_cp.booklet.make_booklet`) when it has a row for the task
    whose solution passes :func:`~ubongo_cp.cover.verify_solution` (rules
    UP-2, UP-3). A row without solution whose status is ``"no solution"``
    (or, lacking a status column, whose count is 0) is shown as unsolvable.
    Every other task is solved here with CP-SAT (``limit=1``). A row whose
    ``task_hash`` or ``pieces`` differ from the task's (results of another
    deck, or of the card before an edit) is ignored altogether, its
    difficulty and count included.

    With ``all_solutions``, every solved task not known to be unique is
    solved again for all its solutions (at most ``most``; the count becomes
    exact when the search ends before that), drawn one panel each.

    A task with ranges of piece counts or cells that may stay empty shows
    one solution of the task as the card states it: the pieces it uses, and
    its empty cells (under the key ``"empty"``) left white.

    Raises
    ------
    InputError
        For a malformed ``results`` table (missing columns), ``results`` that is
        no table nor a path (:func:`results_index`), or ``most`` that
        is not a whole number of at least 1.
    """
    most = whole_argument("most", most, 1)
    index = results if isinstance(results, dict) else results_index(results)
    views = []
    for face, names in card.tasks.items():
        row = result_row(index, card, face)
        view = _view_from_row(card, face, names, row) if row is not None else None
        if view is None:
            view = _solve_view(card, face, names, row, time_limit)
        if all_solutions and view.status == Status.SOLVED and (view.count != 1 or view.count_is_lower_bound):
            view = _every_solution(card, view, time_limit, most)
        if card.ranges.get(face):
            from dataclasses import replace

            view = replace(view, entries=tuple(card.task_entries(face)))
        views.append(view)
    return views


def result_row(index: Mapping, card: CardSide, face: int) -> dict | None:
    """The row of :func:`results_index` ``index`` for a task of ``card``, or None.

    None also where the row's ``task_hash`` differs from the task's: a row
    of another deck's card with this id, or of the card before it changed;
    and where its ``pieces`` are not the task's (a table without the hash).
    A card id of digits is also found without its leading zeros (card
    ``"08"`` as ``"8"``: a table re-saved by a spreadsheet), as
    ``ubongo-cp calibrate`` finds it.
    """
    row = index.get((card.card_id, card.side, int(face)))
    if row is None and card_id_match(card.card_id) != card.card_id:
        row = index.get((card_id_match(card.card_id), card.side, int(face)))
    if row is not None and isinstance(row.get("task_hash"), str) and row["task_hash"] != task_hash(card, face):
        return None
    pieces = None if row is None else row.get("pieces")
    if isinstance(pieces, list) and sorted(pieces) != sorted(card.task_entries(face)):
        return None   # a table without task_hash (another tool's, or a column dropped): the pieces tell
    return row


def unmatched_tasks(cards: Iterable[CardSide], index: Mapping) -> tuple[int, int]:
    """(tasks with no row in ``index``, all tasks) of ``cards``, rows matched as :func:`result_row` does.

    Examples
    --------
    >>> from ubongo_cp.cards import load_deck
    >>> cards, _ = load_deck("classic")
    >>> unmatched_tasks(cards, {})
    (432, 432)
    """
    missing = total = 0
    for card in cards:
        for face in card.tasks:
            total += 1
            missing += result_row(index, card, face) is None
    return missing, total


def _every_solution(card: CardSide, view: TaskView, time_limit: float | None, most: int) -> TaskView:
    """``view`` with its other solutions (up to ``most`` in all) and, when the search ended, the exact count."""
    from dataclasses import replace

    result = solve(task_instance(card, view.face), limit=most, time_limit=time_limit, keep=None)
    first = _canonical(view.solution)
    others = tuple(s for s in result.solutions if _canonical(s) != first)[:most - 1]
    if result.complete:
        return replace(view, more=others, count=result.count, count_is_lower_bound=False)
    if view.count is not None and not view.count_is_lower_bound:  # the results' count is exact: it stays so
        return replace(view, more=others)
    count = max(view.count or 0, result.count)
    return replace(view, more=others, count=count, count_is_lower_bound=True)


def _canonical(solution) -> frozenset:
    """A solution as a set of (piece, cells), copies of a piece not told apart (UP-5)."""
    return frozenset((name.split("#")[0], tuple(sorted(map(tuple, cells)))) for name, cells in solution.items())


def results_index(results) -> dict:
    """``(card_id, side, face) -> row dict`` of a task table (empty for None).

    The table is read as :func:`ubongo_cp.report.load_tasks` reads a file (:func:`ubongo_cp.report.task_rows`):
    card ids are text, solutions are dicts, and a row of empty fields is no task. A path (a batch output
    folder, a ``tasks.parquet`` or ``tasks.csv``) is read with :func:`~ubongo_cp.report.load_tasks`.

    Raises
    ------
    InputError
        For a table without the key columns, one whose card ids are numbers, a task's row without its card, side
        or face, or a task given twice (:func:`ubongo_cp.report.tables.check_task_rows`); for ``results`` that is
        neither a DataFrame nor a path (and as :func:`~ubongo_cp.report.load_tasks` for a path).
    """
    import pandas as pd

    from ..report import KEY_COLUMNS, load_tasks, task_rows

    if results is None:
        return {}
    if isinstance(results, (str, os.PathLike)):
        results = load_tasks(os.fspath(results))
    if not isinstance(results, pd.DataFrame):
        raise InputError("results must be a batch's task table (a DataFrame from ubongo_cp.report.load_tasks) or "
                         f"its path, got {type(results).__name__} {cut(repr(results))}", argument="results")
    missing = [c for c in KEY_COLUMNS if c not in results.columns]
    if missing:
        raise InputError(f"tasks table lacks column(s) {', '.join(missing)}")
    results = task_rows(results)
    return {(row["card_id"], row["side"], int(row["face"])): row for row in results.to_dict("records")}


def _is_missing(value) -> bool:
    """None, NaN, pandas' NA (nullable dtypes) or a blank string."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return True
    try:
        return bool(value != value)     # NaN is the one value unequal to itself
    except (TypeError, ValueError):     # pd.NA: its truth value is ambiguous
        return True


def _number(value, kind=float):
    if _is_missing(value):
        return None
    try:
        return kind(value)
    except (TypeError, ValueError):
        return None


def _legend(row: dict | None) -> str:
    """The legend of a row's difficulty: a fitted model's (its ``difficulty_model`` column), else ``""``."""
    name = None if row is None else row.get("difficulty_model")
    if _is_missing(name):
        return ""
    from ..calibrate import model_legend

    return model_legend(str(name))


def _view_from_row(card: CardSide, face: int, names: tuple[str, ...], row: dict) -> TaskView | None:
    """A view from a results row, or None when the row has no usable answer."""
    from dataclasses import replace

    view = _answer_from_row(card, face, names, row)
    return None if view is None else replace(view, legend=_legend(row))


def _answer_from_row(card: CardSide, face: int, names: tuple[str, ...], row: dict) -> TaskView | None:
    count = _number(row.get("count"), int)
    difficulty = _number(row.get("difficulty"))
    status = row.get("status")
    status = None if _is_missing(status) else str(status)
    solution = row.get("solution")
    if solution is not None:
        if verify_solution(card.task_pieces(face), card.region, solution, mode=card.orientations,
                           ranges=card.ranges.get(face), max_empty=card.max_empty.get(face, 0)) is not None:
            return None  # stale or foreign result: solve again
        complete = row.get("complete")
        partial = status == Status.UNKNOWN or (not _is_missing(complete) and not bool(complete))
        return TaskView(face, names, Status.SOLVED, solution, count, partial, difficulty)
    if status == Status.NO_SOLUTION or (status is None and count == 0):
        return TaskView(face, names, Status.NO_SOLUTION, None, 0, False, difficulty)
    return None


def _solve_view(card: CardSide, face: int, names: tuple[str, ...], row: dict | None,
                time_limit: float | None) -> TaskView:
    result = solve(task_instance(card, face), backend="cpsat", limit=1, time_limit=time_limit)
    difficulty = None if row is None else _number(row.get("difficulty"))
    count = None if row is None else _number(row.get("count"), int)
    legend = _legend(row)
    if result.status == Status.SOLVED:
        return TaskView(face, names, Status.SOLVED, result.solutions[0], count or None, False, difficulty,
                        legend=legend)
    if result.status == Status.NO_SOLUTION:
        return TaskView(face, names, Status.NO_SOLUTION, None, 0, False, difficulty, legend=legend)
    return TaskView(face, names, Status.UNKNOWN, None, None, False, difficulty, legend=legend)
