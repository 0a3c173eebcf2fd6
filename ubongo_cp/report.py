"""pandas reports of a batch run: per-task and per-card-side tables, and a Markdown summary.

Files written (atomically, see :mod:`ubongo_cp.io`): ``tasks.parquet`` and
``tasks.csv`` (one row per card side x die face), ``cards.csv`` (one row per
card side) and ``summary.md``.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Sequence

import pandas as pd

from .cards import DeckProblem
from .io import atomic_path, atomic_write_text
from .rate import RATING_COLUMNS
from .status import Status

__all__ = ["TASK_COLUMNS", "tasks_frame", "cards_frame", "summary_markdown", "write_reports", "load_tasks"]

#: Column order of ``tasks.csv``/``tasks.parquet``.
TASK_COLUMNS = ["card_id", "side", "face", "game", "pieces", "n_pieces", "area", *RATING_COLUMNS,
                "error", "task_hash", "card_file"]


def tasks_frame(rows: Sequence[dict]) -> pd.DataFrame:
    """The per-task table, sorted by card id, side and face."""
    df = pd.DataFrame(list(rows))
    for col in TASK_COLUMNS:
        if col not in df:
            df[col] = pd.NA
    df = df[TASK_COLUMNS]
    if len(df):
        df = df.sort_values(["card_id", "side", "face"], kind="stable").reset_index(drop=True)
    for col in ("count", "count_reduced", "placements", "min_piece_placements", "dlx_nodes",
                "cpsat_branches", "cpsat_conflicts", "cpsat_count", "face", "n_pieces", "area"):
        df[col] = pd.to_numeric(df[col], errors="coerce").astype("Int64")
    for col in ("difficulty", "seconds"):
        df[col] = pd.to_numeric(df[col], errors="coerce").astype(float)
    for col in ("card_id", "side", "game", "pieces", "status", "solution", "error", "task_hash", "card_file"):
        df[col] = df[col].fillna("").astype(str)
    df["complete"] = df["complete"].astype("boolean").fillna(False).astype(bool)
    return df


def cards_frame(tasks: pd.DataFrame) -> pd.DataFrame:
    """Aggregates per card side: tasks, solved, unique, unsolvable, difficulty statistics, seconds."""
    if tasks.empty:
        return pd.DataFrame(columns=["card_id", "side", "game", "area", "tasks", "solved", "unique",
                                     "unsolvable", "failed", "difficulty_mean", "difficulty_min",
                                     "difficulty_max", "count_mean", "seconds"])
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
    return out


def summary_markdown(tasks: pd.DataFrame, cards: pd.DataFrame, problems: Sequence[DeckProblem], *,
                     deck_name: str = "", seconds: float | None = None, top: int = 5) -> str:
    """The human summary: totals, problems, unsolvable and failed tasks, hardest and easiest tasks."""
    lines = [f"# Batch summary: {deck_name}", ""]
    n = len(tasks)
    status = tasks["status"].value_counts().to_dict() if n else {}
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
    bad = tasks[tasks["status"] != Status.SOLVED] if n else tasks
    if len(bad):
        lines += ["## Unsolvable or failed tasks", ""]
        view = bad[["card_id", "side", "face", "pieces", "status", "error"]]
        lines += [view.to_markdown(index=False), ""]
    rated = tasks.dropna(subset=["difficulty"]) if n else tasks
    cols = ["card_id", "side", "face", "pieces", "count", "dlx_nodes", "placements", "difficulty"]
    if len(rated):
        lines += ["## Hardest tasks", "", rated.nlargest(top, "difficulty")[cols].to_markdown(index=False,
                                                                                          floatfmt=".2f"), ""]
        lines += ["## Easiest tasks", "", rated.nsmallest(top, "difficulty")[cols].to_markdown(index=False,
                                                                                           floatfmt=".2f"), ""]
    return "\n".join(lines)


def write_reports(rows: Sequence[dict], problems: Sequence[DeckProblem], out_dir: str | Path, *,
                  deck_name: str = "", seconds: float | None = None):
    """Write the four report files; returns (tasks, cards, summary text)."""
    out = Path(out_dir)
    tasks = tasks_frame(rows)
    cards = cards_frame(tasks)
    summary = summary_markdown(tasks, cards, problems, deck_name=deck_name, seconds=seconds)
    with atomic_path(out / "tasks.parquet") as tmp:
        tasks.to_parquet(tmp, index=False)
    with atomic_path(out / "tasks.csv") as tmp:
        tasks.to_csv(tmp, index=False)
    with atomic_path(out / "cards.csv") as tmp:
        cards.to_csv(tmp, index=False, float_format="%.4f")
    atomic_write_text(out / "summary.md", summary)
    return tasks, cards, summary


def load_tasks(path: str | Path) -> pd.DataFrame:
    """Read a ``tasks.parquet``/``tasks.csv`` written by the batch runner.

    Raises
    ------
    InputError
        For a missing file or missing columns.
    """
    from .errors import InputError

    path = Path(path)
    if path.is_dir():
        path = path / "tasks.parquet"
    if not path.exists():
        raise InputError("batch results not found", path=path)
    try:
        df = pd.read_parquet(path) if path.suffix == ".parquet" else pd.read_csv(path, dtype={"card_id": str})
    except (ValueError, OSError, pd.errors.ParserError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise InputError(f"not a batch result table: {first}", path=path) from None
    missing = [c for c in ("card_id", "side", "face", "count", "status", "difficulty") if c not in df]
    if missing:
        raise InputError(f"not a batch result table: missing column(s) {', '.join(missing)}", path=path)
    return df
