"""Batch runner: solve, count and rate every card side x die face of a deck.

Results are appended to a journal (``tasks.jsonl``, one JSON object per
finished task, flushed and fsynced) as they arrive, so a run that dies
loses nothing: re-running the same command resumes and skips the tasks
already in the journal (a task is identified by card id, side, face and a
hash of its pieces and region, so an edited card is re-run); tasks whose
row says ``"error"`` are run again. The final tables are rebuilt from the
journal and written atomically.

Work is spread over an executor (:mod:`ubongo_cp.executors`: a process
pool or a Dask cluster) with one unit of work per card side, sent as the
parsed card side (workers never read the deck's files); a task that raises
is recorded with status ``"error"`` and the run goes on; a worker process
that dies is replaced and its card side retried once, then recorded as
``"error"``.
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
from .errors import InputError
from .executors import Executor, using
from .rate import CHECK_SOLVER, NODE_SOLVER, rate_instance, rating_modules
from .solvers import warm
from .status import Status

__all__ = ["BatchOutcome", "run_batch", "task_hash", "rate_card_side", "JOURNAL"]

#: The journal in the output directory: one JSON line per finished task, appended as it arrives.
JOURNAL = "tasks.jsonl"


def rate_card_side(card: CardSide | str | os.PathLike, faces: list[int], backend: str = NODE_SOLVER,
                   time_limit: float | None = None) -> list[dict[str, Any]]:
    """Rate the given faces of one card side (the unit of work sent to a worker).

    ``card`` is a parsed :class:`~ubongo_cp.cards.CardSide` (what
    :func:`run_batch` sends, so that workers need no access to the deck's
    files) or the path of a card file. Never raises for a task: an exception
    becomes a row with status ``"error"`` and the message in ``error``.
    """
    if not isinstance(card, CardSide):
        card = load_card(card)
    rows = []
    for face in faces:
        base = _task_base(card, face)
        try:
            base.update(rate_instance(task_instance(card, face), backend=backend, time_limit=time_limit))
        except Exception as exc:  # noqa: BLE001 - one bad task must not stop the batch
            base.update(status=Status.ERROR.value, error=f"{type(exc).__name__}: {exc}")
        rows.append(base)
    return rows


def _task_base(card: CardSide, face: int) -> dict[str, Any]:
    names = card.tasks[face]
    return {
        "card_id": card.card_id, "side": card.side, "face": face, "game": card.game,
        "pieces": " ".join(names), "n_pieces": len(names), "area": card.region.area,
        "task_hash": task_hash(card, face), "card_file": os.path.basename(card.path or ""), "error": None,
        "grid": card.region.grid.name,
    }


def _error_rows(item: tuple[CardSide, list[int]], exc: BaseException) -> list[dict[str, Any]]:
    """Rows recording that a whole unit of work failed (e.g. its worker process died)."""
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
    seconds : float
        Wall time of the run (seconds).
    out_dir : Path
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


def _read_journal(path: Path) -> dict[tuple, dict]:
    """Rows of an existing journal keyed by (card_id, side, face, task_hash); a torn last line is ignored."""
    done: dict[tuple, dict] = {}
    if not path.exists():
        return done
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        # Drop a line torn by a crash so that new rows start on a line of their own.
        with path.open("r+b") as fh:
            fh.truncate(data.rfind(b"\n") + 1)
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue  # a line cut short by a crash: that task is simply run again
            done[(row["card_id"], row["side"], row["face"], row["task_hash"])] = row
    return done


def run_batch(deck_dir: str | os.PathLike, out_dir: str | os.PathLike, *,
              time_limit: float | None = None, backend: str = NODE_SOLVER, executor: Executor | None = None,
              progress: bool = True, notify: Callable[[str], None] | None = None,
              orientations: str | None = None) -> BatchOutcome:
    """Solve, count and rate every task of a deck; write the tables.

    Parameters
    ----------
    deck_dir : path
        Directory of card-side TOML files.
    out_dir : path
        Output directory (created); holds ``tasks.jsonl`` (journal),
        ``tasks.parquet``, ``tasks.csv``, ``cards.parquet``, ``cards.csv``, ``summary.md``
        (:mod:`ubongo_cp.report`).
    time_limit : float, optional
        Seconds per task and backend; time-outs are recorded as ``"timeout"``.
    backend : str
        Registered solver (:func:`ubongo_cp.solvers.solver_names`) whose
        count is reported; the rating adds the DLX search nodes and the
        CP-SAT cross-check where it does not report them
        (:func:`ubongo_cp.rate.rate_instance`).
    executor : Executor, optional
        Where the work runs (default: in this process; see
        :mod:`ubongo_cp.executors`); the tables do not depend on it.
    progress : bool
        Show a tqdm progress bar (rate and ETA) on standard error.
    notify : callable, optional
        Called with a message when a search engine has to be compiled
        before the work starts (:func:`ubongo_cp.solvers.warm`).
    orientations : {"free", "one-sided", "fixed"}, optional
        Solve every task in this orientation mode instead of each card's own
        ``orientations`` (default: the card's; free by UP-3). The mode is
        part of the task hash, so a resumed run never reuses rows of another mode.

    Returns
    -------
    BatchOutcome

    Raises
    ------
    InputError
        When the deck directory is missing or holds no card file, for an
        unknown solver name or orientation mode.
    """
    from .report import write_reports

    worker_modules = rating_modules(backend)  # also checks the name before any work
    if time_limit is not None and not time_limit > 0:
        raise InputError(f"the time limit must be a positive number of seconds, got {time_limit}")
    start = time.perf_counter()
    deck_dir, out = Path(deck_dir), Path(out_dir)
    cards, problems = load_deck(deck_dir)
    if orientations is not None:
        for card in cards:
            modes = card.region.grid.modes
            if orientations not in modes:
                raise InputError(f"orientations must be one of {', '.join(modes)} (the {card.region.grid.name} "
                                 f"grid's modes), got {orientations!r}", path=card.path)
        cards = [replace(card, orientations=orientations) for card in cards]
    if out.exists() and not out.is_dir():
        raise InputError("is a file, expected a directory for the results", path=out)
    out.mkdir(parents=True, exist_ok=True)
    journal_path = out / JOURNAL
    done = _read_journal(journal_path)
    wanted: dict[tuple, None] = {}
    work: list[tuple[CardSide, list[int]]] = []
    skipped = 0
    for card in cards:
        faces = []
        for face in card.tasks:
            key = (card.card_id, card.side, face, task_hash(card, face))
            wanted[key] = None
            # A task that ended in an error (its worker died, the cluster could
            # not read it, ...) is run again; solved, unsolvable and timed-out
            # tasks are final.
            if key in done and done[key].get("status") != Status.ERROR:
                skipped += 1
            else:
                faces.append(face)
        if faces:
            work.append((card, faces))
    total_tasks = sum(len(f) for _, f in work)

    ran = 0
    with journal_path.open("a", encoding="utf-8") as journal, using(executor) as pool:
        pool.warm(worker_modules)
        # Load (or compile) the engines here, before any task's clock and before workers fork
        # (they inherit them), so a time limit never counts the warm-up.
        warm([backend, NODE_SOLVER, CHECK_SOLVER], notify=notify)
        bar = None
        if progress and total_tasks:
            from tqdm import tqdm

            bar = tqdm(total=total_tasks, unit="task", desc=f"batch {deck_dir.name}", dynamic_ncols=True)
        for rows in pool.map_unordered(rate_card_side, work, on_error=_error_rows, backend=backend,
                                       time_limit=time_limit):
            for row in rows:
                journal.write(json.dumps(row) + "\n")
                done[(row["card_id"], row["side"], row["face"], row["task_hash"])] = row
            journal.flush()
            os.fsync(journal.fileno())
            ran += len(rows)
            if bar is not None:
                bar.update(len(rows))
        if bar is not None:
            bar.close()
    rows = [done[k] for k in wanted if k in done]
    tasks_df, cards_df, summary = write_reports(rows, problems, out, deck_name=str(deck_dir),
                                                seconds=time.perf_counter() - start)
    return BatchOutcome(tasks_df, cards_df, problems, ran, skipped, time.perf_counter() - start, out, summary)

