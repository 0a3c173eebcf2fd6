"""Batch runner: solve, count and rate every card side x die face of a deck.

Results are appended to a journal (``tasks.jsonl``, one JSON object per
finished task, on the disk before the next is awaited: :func:`ubongo_cp.io.append_durably`)
as they arrive, so a run that dies (or a power loss)
loses nothing: re-running the same command resumes and skips the tasks
already in the journal. A row is reused only if everything it depends on
is the same: the task (card id, side, face and :func:`task_hash`, a hash
of the region, the pieces' names and shapes and the orientation mode, so
an edited card or piece file is re-run) and the run's settings
(:func:`run_settings`: backend, time limit, rating scheme), recorded in
every row; rows made with other settings are computed again, and the run
says how many and which setting differed. Tasks whose row says
``"error"`` are run again. The final tables are rebuilt from the journal
and written atomically.

The output folder is an :class:`~ubongo_cp.outputs.OutputFolder`: locked
while a run writes into it (a second run into it is refused), holding the
results of one deck (another deck is refused; the same deck moved or
renamed, whose tasks are the same, resumes from its new place), and a file
of another origin where a table would go is refused before any work.

Work is spread over an executor (:mod:`ubongo_cp.executors`: a process
pool or a Dask cluster) with one unit of work per task, sent with its
parsed card side (workers never read the deck's files), so that each task
is in the journal as soon as it is done: a run stopped while a card side is
half done keeps that side's finished tasks, and the resumed run computes
the others alone. A task that raises is recorded with status ``"error"``
and the run goes on; a worker process that dies is replaced and its task
retried once, then recorded as ``"error"``.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from .cards import CardSide, DeckProblem, load_card, load_deck, task_hash
from .cover import task_instance
from .errors import InputError, seconds_argument
from .executors import Executor, executor_argument, using
from .io import append_durably, open_journal, row_check
from .reading import refuse_empty_path
from .shipped import resolve_deck
from .outputs import OutputFolder, folder_journal
from .rate import CHECK_SOLVER, NODE_SOLVER, RATING_SCHEME, rate_instance, rating_modules
from .solvers import warm
from . import structs
from .status import Status

__all__ = ["BatchOutcome", "run_batch", "task_hash", "rate_card_side", "run_settings", "strict_failures", "JOURNAL",
           "OUTPUT_FILES"]

#: The journal in the output directory: one JSON line per finished task, appended as it arrives.
JOURNAL = "tasks.jsonl"
#: Every file a batch run writes into its output folder.
OUTPUT_FILES = (JOURNAL, "tasks.parquet", "tasks.csv", "cards.parquet", "cards.csv", "summary.md")


def run_settings(backend: str = NODE_SOLVER, time_limit: float | None = None) -> dict[str, Any]:
    """What a batch row depends on besides its task: recorded in every journal row as ``settings``.

    Examples
    --------
    >>> run_settings("dlx", 5)
    {'backend': 'dlx', 'time_limit': 5.0, 'rating': 3}
    """
    return {"backend": backend, "time_limit": None if time_limit is None else float(time_limit),
            "rating": RATING_SCHEME}


def settings_note(backend: str = NODE_SOLVER, time_limit: float | None = None,
                  orientations: str | None = None) -> str:
    """The settings of a run that differ from the defaults, for the summary (``""`` when none does).

    The tables hold no column for them, and an orientation mode changes the answers themselves (a
    one-sided run finds no solution where a free one finds some), so the summary says so.

    Examples
    --------
    >>> settings_note("dlx", 5, "one-sided")
    "orientations one-sided on every card side (not each card's own); counting solver dlx; time limit 5 s per task and solver"
    >>> settings_note()
    ''
    """
    notes = []
    if orientations is not None:
        notes.append(f"orientations {orientations} on every card side (not each card's own)")
    if backend != NODE_SOLVER:
        notes.append(f"counting solver {backend}")
    if time_limit is not None:
        notes.append(f"time limit {float(time_limit):g} s per task and solver")
    return "; ".join(notes)


def _settings_change(old: Any, new: dict[str, Any]) -> str:
    """``"time limit 0.0001 s (now none)"``: how a row's recorded settings differ from this run's."""
    if not isinstance(old, dict):
        return "no record of their settings"

    def show(key: str, value: Any) -> str:
        if key == "time_limit":
            return "none" if value is None else f"{value:g} s"
        return "none" if value is None else str(value)

    names = {"backend": "backend", "time_limit": "time limit", "rating": "rating scheme"}
    parts = [f"{names.get(k, k)} {show(k, old.get(k))} (now {show(k, new.get(k))})"
             for k in new if old.get(k) != new[k]]
    parts += [f"{k} {old[k]}" for k in old if k not in new]
    return ", ".join(parts)


def rate_card_side(card: CardSide | str | os.PathLike, faces: list[int], backend: str = NODE_SOLVER,
                   time_limit: float | None = None) -> list[dict[str, Any]]:
    """Rate the given faces of one card side: one row per face, in the order given.

    :func:`run_batch` sends each task as a unit of work of its own (one
    face), so that its row is in the journal as soon as it is done.

    Parameters
    ----------
    card : CardSide or path
        A parsed :class:`~ubongo_cp.cards.CardSide` (what :func:`run_batch`
        sends, so that workers need no access to the deck's files) or the
        path of a card file.
    faces : list of int
        Die faces of the card side.
    backend : str
        Registered solver whose count is reported (:func:`ubongo_cp.rate.rate_instance`).
    time_limit : float, optional
        Seconds per task and backend.

    Returns
    -------
    list of dict
        The tasks' rows, each with the run's :func:`run_settings`. A task
        that raises becomes a row with status ``"error"`` and the message in
        ``error``.

    Raises
    ------
    InputError
        When ``card`` is a path that cannot be read as a card side, or
        ``faces`` is not a list of its die faces (never for a task).
    """
    if not isinstance(card, CardSide):
        card = load_card(card)
    if isinstance(faces, (str, bytes)) or not hasattr(faces, "__iter__"):
        raise InputError(f"faces is a list of die faces, e.g. [1, 2], got {faces!r}")
    faces = [card.check_face(face) for face in faces]   # before any task is rated
    rows = []
    settings = run_settings(backend, time_limit)
    for face in faces:
        base = _task_base(card, face)
        base["settings"] = settings
        try:
            base.update(rate_instance(task_instance(card, face), backend=backend, time_limit=time_limit))
        except Exception as exc:
            base.update(status=Status.ERROR.value, error=f"{type(exc).__name__}: {exc}")
        rows.append(base)
    return rows


def _task_base(card: CardSide, face: int) -> dict[str, Any]:
    names = card.tasks[face]
    return {
        "card_id": card.card_id, "side": card.side, "face": face, "game": card.game,
        "pieces": " ".join(card.task_entries(face)), "n_pieces": len(names), "area": card.region.area,
        "max_empty": card.max_empty.get(face, 0),
        "task_hash": task_hash(card, face), "card_file": os.path.basename(card.path or ""), "error": None,
        "grid": card.region.grid.name,
    }


def _error_rows(item: tuple[CardSide, list[int]], exc: BaseException) -> list[dict[str, Any]]:
    """Rows recording that a unit of work failed as a whole (e.g. its worker process died): one per face."""
    card = item[0]
    rows = []
    for face in item[1]:
        row = _task_base(card, face)
        row.update(status=Status.ERROR.value, error=f"worker failed: {type(exc).__name__}: {exc}")
        rows.append(row)
    return rows


@dataclass
class BatchOutcome:
    """What a batch run produced.

    Attributes
    ----------
    tasks : pandas.DataFrame
        One row per card side x face (columns: docs/tables.md).
    cards : pandas.DataFrame
        One row per card side (aggregates).
    problems : list of DeckProblem
        Card files that were skipped.
    ran, skipped : int
        Tasks computed in this run, and tasks resumed from the journal.
    recomputed : int
        Of ``ran``, the tasks the journal held rows of made with other
        settings (:func:`run_settings`), or whose rows were changed after
        they were written (each row carries a check of its content).
    seconds : float
        Wall time of the run (seconds).
    out_dir : Path
    max_solutions : dict
        ``(card_id, side)`` -> the most solutions a task may have (its deck spec's limit).
    missing_faces : dict
        ``(card_id, side)`` -> the die faces of its deck spec it has no task for (sides with none
        missing are absent).
    """

    tasks: Any
    cards: Any
    problems: list[DeckProblem]
    ran: int
    skipped: int
    seconds: float
    out_dir: Path
    summary: str = ""
    extra: dict = field(default_factory=dict)
    recomputed: int = 0
    max_solutions: dict = field(default_factory=dict)
    missing_faces: dict = field(default_factory=dict)


def strict_failures(outcome: BatchOutcome, max_solutions: int | None = None) -> list[str]:
    """What fails a strict check of a batch: one line per skipped card file, per card side without a task for
    every face of its die (its deck spec's ``faces``), and per task that is not solved (no solution,
    time-out, error, disagreement) or has more solutions than allowed.

    Parameters
    ----------
    outcome : BatchOutcome
    max_solutions : int, optional
        The most solutions a task may have; default: each card side's own
        limit from its deck spec (:attr:`BatchOutcome.max_solutions`: 1 for a
        side whose tasks must be unique).

    Returns
    -------
    list of str
        Empty when every task passes.
    """
    import pandas as pd

    lines = [f"skipped card file: {p.message}" for p in outcome.problems]
    for (card_id, side), faces in outcome.missing_faces.items():
        lines.append(f"card {card_id} side {side}: no task for die face{'s' if len(faces) > 1 else ''} "
                     f"{', '.join(map(str, faces))}")
    for row in outcome.tasks.itertuples(index=False):
        empty = getattr(row, "max_empty", 0)
        more = f", up to {int(empty)} empty" if not pd.isna(empty) and empty else ""
        where = f"card {row.card_id} side {row.side} face {row.face} ({' '.join(row.pieces)}{more})"
        limit = max_solutions or outcome.max_solutions.get((row.card_id, row.side), 1)
        if row.status != Status.SOLVED:
            lines.append(f"{where}: {row.status}")
        elif not pd.isna(row.count) and int(row.count) > limit:
            what = "not unique" if limit == 1 else f"more than {limit} solutions"
            lines.append(f"{where}: {int(row.count)} solutions, {what}")
    return lines


def _copy_spec(deck_dir: Path, folder: OutputFolder) -> None:
    """A designer's deck: its ``deck.toml`` (and piece set) beside the tables, so that the game simulators
    know the game (:func:`ubongo_cp.games.tasks.spec_for_table`); written as the generator writes a deck's
    copy (never over an input, never over a file of another origin)."""
    from .generate import _spec_copy, _write_spec_copy
    from .specs import DECK_SPEC_FILE, load_spec

    spec_file = resolve_deck(deck_dir) / DECK_SPEC_FILE
    if spec_file.is_file():
        spec = load_spec(spec_file)
        _write_spec_copy(spec, folder, _spec_copy(spec)[1])


def _spec_side(card: CardSide):
    """The deck spec's description of ``card``'s side (:class:`~ubongo_cp.specs.SideSpec`), None when unknown."""
    from .specs import spec_for_card

    try:
        return spec_for_card(card.game, card.path).side(card.side)
    except InputError:
        return None


def _spec_checks(cards: list[CardSide]) -> tuple[dict, dict]:
    """For :class:`BatchOutcome`: each card side's solution limit (1 when unknown) and the die faces of its
    spec it has no task for."""
    limits, missing = {}, {}
    for card in cards:
        side = _spec_side(card)
        limits[card.key] = 1 if side is None else side.max_solutions
        lacking = [] if side is None else [f for f in range(1, side.faces + 1) if f not in card.tasks]
        if lacking:
            missing[card.key] = lacking
    return limits, missing


def _read_journal(path: Path) -> tuple[dict[tuple, dict], set[tuple]]:
    """Rows of an existing journal keyed by (card_id, side, face, task_hash), the last row of a key winning
    (without their checks), and the keys of the rows left out for a check that does not match.

    A line that is not such a row (torn by a crash, damaged: not JSON, not an
    object, a key missing or of the wrong type), or a row whose check does not
    match its content (changed after it was written, or written without one),
    is skipped: its task is run again.
    """
    from .io import read_journal, row_check

    done: dict[tuple, dict] = {}
    changed: set[tuple] = set()
    if not path.exists():
        return done, changed
    for row in read_journal(path, "the batch journal (a file)"):
        key = _journal_key(row)
        if key is None:
            continue
        if row.get("check") != row_check(row, JOURNAL):
            changed.add(key)
            done.pop(key, None)
            continue
        del row["check"]
        changed.discard(key)
        done[key] = row
    return done, changed


def _journal_key(row) -> tuple | None:
    """A journal row's key (card_id, side, face, task_hash), or None for a line that is not a row."""
    if not isinstance(row, dict):
        return None
    key = tuple(row.get(k) for k in ("card_id", "side", "face", "task_hash"))
    kinds = (str, str, int, str)
    if not all(isinstance(v, t) and not isinstance(v, bool) for v, t in zip(key, kinds)):
        return None
    return key


def run_batch(deck_dir: str | os.PathLike, out_dir: str | os.PathLike, *,
              time_limit: float | None = None, backend: str = NODE_SOLVER, executor: Executor | None = None,
              progress: bool = True, notify: Callable[[str], None] | None = None,
              orientations: str | None = None, difficulty_model=None) -> BatchOutcome:
    """Solve, count and rate every task of a deck; write the tables.

    Parameters
    ----------
    deck_dir : path
        Directory of card-side TOML files.
    out_dir : path
        Output directory (created); holds ``tasks.jsonl`` (journal),
        ``tasks.parquet``, ``tasks.csv``, ``cards.parquet``, ``cards.csv``, ``summary.md``
        (:mod:`ubongo_cp.report`) and, for a deck with a ``deck.toml`` (a
        designer's game), a copy of it (and of its piece set as ``pieces.txt``).
        Locked during the run; it may hold the results of this deck only, and
        no file of another origin under those names (see the module docstring).
    time_limit : float, optional
        Seconds per task and backend; time-outs are recorded as ``"timeout"``.
    backend : str
        Registered solver (:func:`ubongo_cp.solvers.solver_names`) whose
        count is reported; the rating adds the search nodes and the
        CP-SAT cross-check where it does not report them
        (:func:`ubongo_cp.rate.rate_instance`).
    executor : Executor, optional
        Where the work runs (default: in this process; see
        :mod:`ubongo_cp.executors`); the tables do not depend on it.
    progress : bool
        Show a tqdm progress bar (rate and ETA) on standard error.
    notify : callable, optional
        Called with a message when a search engine has to be compiled
        before the work starts (:func:`ubongo_cp.solvers.warm`), and when
        rows of the journal made with other settings are computed again.
    orientations : {"free", "one-sided", "fixed"}, optional
        Solve every task in this orientation mode instead of each card's own
        ``orientations`` (default: the card's; free by UP-3). The mode is
        part of the task hash, so a resumed run never reuses rows of another mode.
    difficulty_model : DifficultyModel or path, optional
        Rate with a model fitted to playtest times (:mod:`ubongo_cp.calibrate`,
        ``ubongo-cp calibrate``): the tables' ``difficulty`` is then its
        predicted seconds. Applied to the finished rows, so a resumed run
        may use another model (or none).

    Returns
    -------
    BatchOutcome

    Raises
    ------
    InputError
        When the deck directory is missing or holds no card file that can be
        read, for an unknown solver name or orientation mode or a model file
        that cannot be read, or a solver that cannot take a task of the deck
        (naming the first); when ``out_dir`` is the deck directory itself; when another run writes
        into ``out_dir``, it holds the results of another deck, or a file
        of another origin where an output goes.
    """
    worker_modules = rating_modules(backend)  # also checks the name before any work
    time_limit = None if time_limit is None else seconds_argument("time_limit", time_limit)
    executor = executor_argument(executor)   # before the output folder is made
    start = time.perf_counter()
    cards, problems = load_deck(deck_dir, some=True)   # first: it names a deck_dir that is no path
    refuse_empty_path(out_dir, "the output folder")   # not the folder Python runs in
    deck_dir, out = Path(deck_dir), Path(out_dir)
    content = _deck_content(cards)   # the deck's own tasks, before an orientation mode of this run
    if difficulty_model is not None and not hasattr(difficulty_model, "predict_seconds"):
        from .calibrate import load_model

        difficulty_model = load_model(difficulty_model)
    if orientations is not None:
        for card in cards:  # the value is the caller's, not the card's: no file is named
            problem = card.region.grid.mode_problem(orientations)
            if problem:
                raise InputError(problem, argument="orientations")
        cards = [structs.replace(card, orientations=orientations) for card in cards]
    _check_backend_takes(cards, backend)
    source = os.path.realpath(resolve_deck(deck_dir))
    if os.path.realpath(out) == source:   # before anything is written; the command line says it so too
        raise InputError("is the deck's own folder, which the batch would fill with its tables beside the card "
                         "files; choose another output folder", path=out)
    with OutputFolder(out, "batch", source=source, content=content, adopt=_batch_files,
                      guarded=lambda name: name != JOURNAL) as folder:
        folder.claim(OUTPUT_FILES)  # before any work: a file of another origin there is refused
        if folder.moved is not None and notify is not None:
            notify(f"{out}: the deck it rated, {folder.moved}, is now {source} (the same tasks): resuming from there")
        _copy_spec(deck_dir, folder)
        outcome = _run(cards, problems, deck_dir, folder, time_limit, backend, executor, progress, notify,
                       worker_modules, start, difficulty_model, settings_note(backend, time_limit, orientations))
    limits, missing = _spec_checks(cards)
    return replace(outcome, max_solutions=limits, missing_faces=missing)


def _deck_content(cards: list[CardSide]) -> str:
    """SHA-256 of a deck's tasks as the journal keys them (card id, side, face, :func:`task_hash`): the same for
    a deck moved or renamed, another for a deck with a card added, removed or changed."""
    import hashlib

    keys = sorted([card.card_id, card.side, face, task_hash(card, face)] for card in cards for face in card.tasks)
    return hashlib.sha256(json.dumps(keys).encode()).hexdigest()


def _batch_files(out: Path) -> list[str]:
    """The files of a batch folder copied without its record that the batch may carry on from: none unless its
    ``tasks.jsonl`` is a batch journal (its first line a task row), so a file of the user's of that name,
    and the files beside it, are refused rather than taken over (of these, the folder takes over the journal
    alone: the tables and summary it watches count as the user's, :class:`~ubongo_cp.outputs.OutputFolder`)."""
    return [name for name in OUTPUT_FILES if (out / name).exists()] if _is_batch_journal(out / JOURNAL) else []


def _is_batch_journal(path: Path) -> bool:
    """Whether ``path`` is a regular file whose first line is a row of a batch journal."""
    import json

    if not path.is_file():
        return False
    try:
        with path.open("rb") as fh:
            first = fh.readline(1 << 20)
        return first.endswith(b"\n") and _journal_key(json.loads(first)) is not None
    except (OSError, ValueError, RecursionError):
        return False


def _check_backend_takes(cards: list[CardSide], backend: str) -> None:
    """Refuse, before any work, a ``backend`` that cannot take a task of the deck (cells left empty or counts of a
    piece in a range, which need multiplicities): each such task would end as an ``error`` row, run again on every
    resume. The rating's own search takes every task."""
    if backend == NODE_SOLVER:
        return
    from .solvers import check_backend

    for card in cards:
        for face in card.tasks:
            try:
                check_backend(task_instance(card, face), backend)
            except InputError as exc:
                raise InputError(f"card {card.card_id} side {card.side} face {face}: {exc.message}",
                                 path=card.path, argument="backend") from None


def _run(cards, problems, deck_dir: Path, folder: OutputFolder, time_limit, backend, executor, progress, notify,
         worker_modules, start, difficulty_model=None, note: str = "") -> BatchOutcome:
    """:func:`run_batch` once its output folder is open (and locked), its files claimed."""
    from .report import write_reports

    out = folder.path
    journal_path = folder_journal(out / JOURNAL)
    done, changed = _read_journal(journal_path)
    settings = run_settings(backend, time_limit)
    wanted: dict[tuple, None] = {}
    # One unit of work per task (a card side and one face): each row is journaled as soon as its task is
    # done, so a run stopped in the middle of a card side keeps that side's finished tasks.
    work: list[tuple[CardSide, list[int]]] = []
    skipped = 0
    stale: list[Any] = []
    for card in cards:
        for face in card.tasks:
            key = (card.card_id, card.side, face, task_hash(card, face))
            wanted[key] = None
            # A task that ended in an error (its worker died, the cluster could
            # not read it, ...) is run again, and so is one made with other
            # settings; solved, unsolvable and timed-out tasks are final.
            row = done.get(key)
            if row is not None and row.get("status") != Status.ERROR:
                if row.get("settings") == settings:
                    skipped += 1
                    continue
                stale.append(row.get("settings"))
            work.append((card, [face]))
    changed &= wanted.keys()
    if changed and notify is not None:
        notify(f"computing {len(changed)} task(s) of {journal_path} again: the check of their rows does not "
               "match their content (changed after they were written, or written without one)")
    total_tasks = len(work)
    if stale and notify is not None:
        notify(f"computing {len(stale)} task(s) of {journal_path} again: they were made with other settings "
               f"({_settings_change(stale[0], settings)})")

    ran = 0
    try:
        journal = open_journal(journal_path)
    except OSError as exc:  # a read-only folder, a full disk: name the file
        raise InputError(f"cannot write the journal: {exc.strerror or exc}", path=journal_path) from None
    with journal, using(executor) as pool:
        pool.warm(worker_modules)
        # Load (or compile) the engines here, before any task's clock and before workers fork
        # (they inherit them), so a time limit never counts the warm-up.
        warm([backend, NODE_SOLVER, CHECK_SOLVER], notify=notify)
        bar = None
        if progress and total_tasks:
            from tqdm import tqdm

            bar = tqdm(total=total_tasks, unit="task", desc=f"batch {deck_dir.name}", dynamic_ncols=True)
        for rows in pool.map_unordered(rate_card_side, work, on_error=_error_rows, one_by_one=True, backend=backend,
                                       time_limit=time_limit):  # one_by_one: each task journaled when done
            try:
                append_durably(journal, "".join(json.dumps({**row, "check": row_check(row, JOURNAL)}) + "\n"
                                                for row in rows))
            except OSError as exc:  # e.g. the disk is full: the rows written so far are kept
                raise InputError(f"cannot write the journal: {exc.strerror or exc}", path=journal_path) from None
            for row in rows:
                done[(row["card_id"], row["side"], row["face"], row["task_hash"])] = row
            ran += len(rows)
            if bar is not None:
                bar.update(len(rows))
        if bar is not None:
            bar.close()
    rows = [done[k] for k in wanted if k in done]
    order = {card.key: i for i, card in enumerate(cards)}   # printing order (load_deck's)
    tasks_df, cards_df, summary = write_reports(rows, problems, folder, deck_name=str(deck_dir),
                                                seconds=time.perf_counter() - start, order=order,
                                                difficulty_model=difficulty_model, settings=note)
    return BatchOutcome(tasks_df, cards_df, problems, ran, skipped, time.perf_counter() - start, out, summary,
                        recomputed=len(stale) + len(changed))

