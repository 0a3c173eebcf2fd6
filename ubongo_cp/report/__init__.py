"""pandas reports of a batch run: the task and card-side tables (built, written, read) and a Markdown summary.

Files written by :func:`write_reports` (atomically, see :mod:`ubongo_cp.io`):
``tasks.parquet`` and ``tasks.csv`` (one row per card side x die face),
``cards.parquet`` and ``cards.csv`` (one row per card side) and
``summary.md``. Every column's name, dtype, unit and meaning is listed in
``docs/tables.md``; :data:`TASK_DTYPES` and :data:`CARD_DTYPES` are the
dtypes in memory. :mod:`.tables` holds the file forms and the one reader
of the tables (:func:`load_tasks`, :func:`load_cards`), which every reader
in the toolkit uses.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Sequence

import pandas as pd

from ..cards import DeckProblem
from ..io import atomic_write_text
from ..status import Status
from .tables import (CARD_COLUMNS, CARD_DTYPES, KEY_COLUMNS, STATUS_DTYPE, TASK_COLUMNS, TASK_DTYPES, TaskRecord,
                     cast_columns, load_cards, load_tasks, normalize_tasks, task_record, text_view, write_table)

__all__ = ["TASK_COLUMNS", "TASK_DTYPES", "CARD_COLUMNS", "CARD_DTYPES", "STATUS_DTYPE", "KEY_COLUMNS", "tasks_frame",
           "cards_frame", "summary_markdown", "write_reports", "write_table", "load_tasks", "load_cards",
           "normalize_tasks", "TaskRecord", "task_record"]


# --------------------------------------------------------------------------- building

def tasks_frame(rows: Sequence[dict]) -> pd.DataFrame:
    """The per-task table from result rows (the batch journal's), sorted by card id, side and face.

    Raises
    ------
    InputError
        For a value that does not fit its column (see :func:`normalize_tasks`).
    """
    df = pd.DataFrame(list(rows))
    for col in TASK_COLUMNS:
        if col not in df:
            df[col] = None
    df = normalize_tasks(df[TASK_COLUMNS])
    if len(df):
        df = df.sort_values(["card_id", "side", "face"], kind="stable").reset_index(drop=True)
    return df


def cards_frame(tasks: pd.DataFrame) -> pd.DataFrame:
    """Aggregates per card side: tasks, solved, unique, unsolvable, difficulty statistics, seconds."""
    if tasks.empty:
        return cast_columns(pd.DataFrame({c: [] for c in CARD_COLUMNS}), CARD_DTYPES)
    g = tasks.groupby(["card_id", "side"], sort=True)
    out = g.agg(
        game=("game", "first"),
        area=("area", "first"),
        tasks=("face", "size"),
        solved=("status", lambda s: int((s == Status.SOLVED).sum())),
        unique=("count", lambda s: int((s == 1).sum())),
        unsolvable=("status", lambda s: int((s == Status.NO_SOLUTION).sum())),
        failed=("status", lambda s: int(s.isin([st.value for st in Status if st.failed]).sum())),
        difficulty_mean=("difficulty", "mean"),
        difficulty_min=("difficulty", "min"),
        difficulty_max=("difficulty", "max"),
        count_mean=("count", "mean"),
        seconds=("seconds", "sum"),
    ).reset_index()
    return cast_columns(out[CARD_COLUMNS], CARD_DTYPES)


def summary_markdown(tasks: pd.DataFrame, cards: pd.DataFrame, problems: Sequence[DeckProblem], *,
                     deck_name: str = "", seconds: float | None = None, top: int = 5) -> str:
    """The human summary: totals, problems, unsolvable and failed tasks, hardest and easiest tasks."""
    lines = [f"# Batch summary: {deck_name}", ""]
    n = len(tasks)
    status = tasks["status"].astype(str).value_counts().to_dict() if n else {}
    lines += [
        f"- card sides: {len(cards)} ({len(problems)} card file(s) skipped)",
        f"- tasks: {n}; solved {status.get('solved', 0)}, no solution {status.get('no solution', 0)}, "
        f"timeout {status.get('timeout', 0)}, error {status.get('error', 0)}, "
        f"backend disagreement {status.get('disagreement', 0)}",
    ]
    if n:
        solved = tasks[tasks["status"] == Status.SOLVED]
        lines.append(f"- uniquely solvable tasks: {int((solved['count'] == 1).sum())} of {len(solved)}; "
                     f"median solutions {float(solved['count'].median()) if len(solved) else math.nan:g}")
        lines.append(f"- solver time: {tasks['seconds'].sum():.2f} s in all")
    if seconds is not None:
        lines.append(f"- wall time of this run: {seconds:.2f} s")
    lines.append("")
    if problems:
        lines += ["## Skipped card files", ""] + [f"- {p.message}" for p in problems] + [""]
    shown = text_view(tasks)
    bad = shown[tasks["status"] != Status.SOLVED] if n else shown
    if len(bad):
        lines += ["## Unsolvable or failed tasks", ""]
        lines += [bad[["card_id", "side", "face", "pieces", "status", "error"]].to_markdown(index=False), ""]
    rated = shown.dropna(subset=["difficulty"]) if n else shown
    cols = ["card_id", "side", "face", "pieces", "count", "search_nodes", "placements", "difficulty"]
    if len(rated):
        lines += ["## Hardest tasks", "", rated.nlargest(top, "difficulty")[cols].to_markdown(index=False,
                                                                                          floatfmt=".2f"), ""]
        lines += ["## Easiest tasks", "", rated.nsmallest(top, "difficulty")[cols].to_markdown(index=False,
                                                                                           floatfmt=".2f"), ""]
    return "\n".join(lines)


# --------------------------------------------------------------------------- writing

def write_reports(rows: Sequence[dict], problems: Sequence[DeckProblem], out_dir: str | Path, *,
                  deck_name: str = "", seconds: float | None = None):
    """Write the five report files; returns (tasks, cards, summary text)."""
    out = Path(out_dir)
    tasks = tasks_frame(rows)
    cards = cards_frame(tasks)
    summary = summary_markdown(tasks, cards, problems, deck_name=deck_name, seconds=seconds)
    write_table(tasks, out / "tasks.parquet")
    write_table(tasks, out / "tasks.csv")
    write_table(cards, out / "cards.parquet")
    write_table(cards, out / "cards.csv")
    atomic_write_text(out / "summary.md", summary)
    return tasks, cards, summary
