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

from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence

import pandas as pd

from ..cards import DeckProblem
from ..errors import one_line
from ..status import Status
from .tables import (CARD_COLUMNS, CARD_DTYPES, KEY_COLUMNS, STATUS_DTYPE, TASK_COLUMNS, TASK_DTYPES, TaskRecord,
                     cast_columns, check_unique_tasks, load_cards, load_tasks, normalize_tasks, row_place,
                     table_file, table_writer, task_record, task_rows, text_view, write_table)

if TYPE_CHECKING:
    from ..outputs import OutputFolder

__all__ = ["TASK_COLUMNS", "TASK_DTYPES", "CARD_COLUMNS", "CARD_DTYPES", "STATUS_DTYPE", "KEY_COLUMNS",
           "tasks_frame", "cards_frame", "piece_balance", "balance_markdown", "summary_markdown", "write_reports",
           "write_table", "load_tasks", "load_cards", "normalize_tasks", "check_unique_tasks", "TaskRecord",
           "task_record", "task_rows", "table_file", "row_place"]


# --------------------------------------------------------------------------- building

def tasks_frame(rows: Sequence[dict], order: Mapping[tuple[str, str], int] | None = None) -> pd.DataFrame:
    """The per-task table from result rows (the batch journal's), in printing order, then by die face.

    ``order`` maps ``(card_id, side)`` to its rank in printing order
    (:func:`ubongo_cp.cards.printing_order`: the batch runner passes its
    deck's); without it, or for a card side it lacks, rows go by card id
    (:func:`~ubongo_cp.cards.card_id_key`) and side name.

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
        from ..cards import card_id_key

        order = order or {}
        keys = [(order.get((c, s), len(order)), card_id_key(str(c)), str(s), int(f))
                for c, s, f in zip(df["card_id"], df["side"], df["face"])]
        df = df.iloc[sorted(range(len(df)), key=keys.__getitem__)].reset_index(drop=True)
    return df


def _unique_mask(tasks: pd.DataFrame) -> pd.Series:
    """Solved tasks with exactly one solution."""
    return (tasks["status"] == Status.SOLVED) & (tasks["count"] == 1).fillna(False)


def _piece_name(entry: str) -> str:
    """The piece a task entry names: ``NAME``, or ``NAME:LO-HI`` with a range of counts."""
    return entry.split(":")[0]


def _use_text(pieces_lists) -> str:
    """``"T4:3 I2:2 L3:1"``: how often each piece appears in these tasks, most used first (then by name).

    A ranged entry ``NAME:LO-HI`` counts as one appearance of ``NAME``.
    """
    counts: dict[str, int] = {}
    for names in pieces_lists:
        for entry in names:
            name = _piece_name(entry)
            counts[name] = counts.get(name, 0) + 1
    return " ".join(f"{name}:{n}" for name, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def cards_frame(tasks: pd.DataFrame) -> pd.DataFrame:
    """Aggregates per card side: tasks, solved, unique, unsolvable, difficulty statistics, seconds, piece use."""
    if tasks.empty:
        return cast_columns(pd.DataFrame({c: [] for c in CARD_COLUMNS}), CARD_DTYPES)
    g = tasks.groupby(["card_id", "side"], sort=False)     # the tasks' (printing) order
    out = g.agg(
        game=("game", "first"),
        area=("area", "first"),
        tasks=("face", "size"),
        solved=("status", lambda s: int((s == Status.SOLVED).sum())),
        unique=("count", lambda s: int(_unique_mask(tasks.loc[s.index]).sum())),
        unsolvable=("status", lambda s: int((s == Status.NO_SOLUTION).sum())),
        failed=("status", lambda s: int(s.isin([st.value for st in Status if st.failed]).sum())),
        difficulty_mean=("difficulty", "mean"),
        difficulty_min=("difficulty", "min"),
        difficulty_max=("difficulty", "max"),
        count_mean=("count", "mean"),
        seconds=("seconds", "sum"),
        distinct_pieces=("pieces", lambda s: len({_piece_name(n) for names in s for n in names})),
        piece_use=("pieces", _use_text),
    ).reset_index()
    return cast_columns(out[CARD_COLUMNS], CARD_DTYPES)


def piece_balance(tasks: pd.DataFrame) -> pd.DataFrame:
    """How often each piece appears in the deck's tasks: per side, in unique tasks, and per die face.

    A piece named twice in one task (a repeated piece) counts twice.

    Parameters
    ----------
    tasks : pandas.DataFrame
        A task table (:func:`tasks_frame`, :func:`load_tasks`): ``side``,
        ``face``, ``pieces`` (lists of names), ``status`` and ``count``.

    Returns
    -------
    pandas.DataFrame
        Long form, one row per (piece, side, face) where the piece appears:
        ``piece``, ``side``, ``face``, ``tasks`` (appearances in that side's
        tasks on that face) and ``unique`` (appearances in uniquely solvable
        ones). Sides in the table's order, pieces by name.

    Examples
    --------
    >>> t = pd.DataFrame({"side": ["easy", "easy", "hard"], "face": [1, 2, 1], "pieces": [["I2", "L3"], ["I2"], ["L3"]],
    ...                   "status": ["solved", "no solution", "solved"], "count": [1, 0, 2]})
    >>> piece_balance(t).values.tolist()
    [['I2', 'easy', 1, 1, 1], ['I2', 'easy', 2, 1, 0], ['L3', 'easy', 1, 1, 1], ['L3', 'hard', 1, 1, 0]]
    """
    columns = ["piece", "side", "face", "tasks", "unique"]
    if tasks.empty:
        return pd.DataFrame({c: [] for c in columns})
    unique = _unique_mask(tasks).tolist()
    rows = [(_piece_name(name), str(side), int(face), 1, int(u))  # a ranged entry NAME:LO-HI counts as NAME
            for side, face, names, u in zip(tasks["side"], tasks["face"], tasks["pieces"], unique) for name in names]
    long = pd.DataFrame(rows, columns=columns)
    sides = list(dict.fromkeys(str(s) for s in tasks["side"]))
    long["rank"] = long["side"].map({s: i for i, s in enumerate(sides)})
    out = long.groupby(["piece", "rank", "side", "face"], as_index=False)[["tasks", "unique"]].sum()
    return out.sort_values(["piece", "rank", "face"], kind="stable")[columns].reset_index(drop=True)


def balance_markdown(tasks: pd.DataFrame) -> str:
    """The summary's piece-balance table: per piece and side, its tasks, unique tasks and uses per die face."""
    long = piece_balance(tasks)
    if long.empty:
        return ""
    sides = list(dict.fromkeys(str(s) for s in tasks["side"]))
    faces = {s: sorted(int(f) for f in set(tasks.loc[tasks["side"] == s, "face"])) for s in sides}
    table: dict[str, dict[str, int | str]] = {}
    for piece, g in long.groupby("piece", sort=True):
        row: dict[str, int | str] = {}
        for s in sides:
            gs = g[g["side"] == s]
            per_face = dict(zip(gs["face"], gs["tasks"]))
            row[f"{s}: tasks"] = int(gs["tasks"].sum())
            row[f"{s}: unique"] = int(gs["unique"].sum())
            row[f"{s}: per face {faces[s][0]}\u2013{faces[s][-1]}"] = " ".join(str(per_face.get(f, 0))
                                                                          for f in faces[s])
        row["all tasks"] = int(g["tasks"].sum())
        table[piece] = row
    frame = pd.DataFrame.from_dict(table, orient="index")
    frame.index.name = "piece"
    return frame.to_markdown()


def summary_markdown(tasks: pd.DataFrame, cards: pd.DataFrame, problems: Sequence[DeckProblem], *,
                     deck_name: str = "", seconds: float | None = None, top: int = 5, legend: str = "",
                     settings: str = "") -> str:
    """The human summary: totals, problems, unsolvable and failed tasks, hardest and easiest tasks, piece balance.

    Every count is out of all the tasks given (a failed or unsolvable task
    counts as not uniquely solvable). ``settings``, when not empty, is listed
    as the run's settings (:func:`ubongo_cp.batch.settings_note`: those that
    differ from the defaults, such as an orientation mode for every card side).
    """
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
        median = (f"median solutions of the {len(solved)} solved {float(solved['count'].median()):g}" if len(solved)
                  else "none solved")
        lines.append(f"- uniquely solvable tasks: {int(_unique_mask(tasks).sum())} of {n}; {median}")
        lines.append(f"- solver time: {tasks['seconds'].sum():.2f} s in all")
    if seconds is not None:
        lines.append(f"- wall time of this run: {seconds:.2f} s")
    if settings:
        lines.append(f"- settings: {settings}")
    from ..rate import RATING_LEGEND

    lines.append(f"- {legend or RATING_LEGEND}")
    lines.append("")
    if problems:
        lines += ["## Skipped card files", ""] + [f"- {one_line(p.message)}" for p in problems] + [""]
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
    balance = balance_markdown(tasks)
    if balance:
        lines += ["## Piece balance", "",
                  "How often each piece appears in the tasks of each side (a task naming a piece twice counts it "
                  "twice), in its uniquely solvable tasks, and on each die face:", "", balance, ""]
    return "\n".join(lines)


# --------------------------------------------------------------------------- writing

def write_reports(rows: Sequence[dict], problems: Sequence[DeckProblem], out_dir: "str | Path | OutputFolder", *,
                  deck_name: str = "", seconds: float | None = None,
                  order: Mapping[tuple[str, str], int] | None = None, difficulty_model=None, settings: str = ""):
    """Write the five report files; returns (tasks, cards, summary text).

    ``settings`` goes into the summary as the run's settings (:func:`summary_markdown`).

    ``order`` is the deck's printing order (see :func:`tasks_frame`). With a
    ``difficulty_model`` (:class:`ubongo_cp.calibrate.DifficultyModel`) the
    ``difficulty`` column holds its predicted seconds and
    ``difficulty_model`` its name; without, the toolkit's rating and a missing value. A model whose
    prediction for a task lies beyond e**+-100 seconds raises the
    :class:`~ubongo_cp.errors.InputError` of
    :meth:`~ubongo_cp.calibrate.DifficultyModel.predict_seconds` before any file is written.

    ``out_dir`` is opened as the output folder of ``ubongo-cp batch``
    (:class:`~ubongo_cp.outputs.OutputFolder`): a file of those names that
    the toolkit did not write there, or one edited since, is refused before
    anything is written (an :class:`~ubongo_cp.errors.InputError` naming
    it), as ``batch`` refuses it; :func:`ubongo_cp.batch.run_batch` passes
    the folder it holds open.
    """
    from ..outputs import OutputFolder

    if not isinstance(out_dir, OutputFolder):
        with OutputFolder(out_dir, "batch", guarded=lambda name: True) as folder:
            return write_reports(rows, problems, folder, deck_name=deck_name, seconds=seconds, order=order,
                                 difficulty_model=difficulty_model, settings=settings)
    tasks = tasks_frame(rows, order)
    if difficulty_model is not None and len(tasks):
        tasks["difficulty"] = difficulty_model.predict_seconds(tasks)
        tasks["difficulty_model"] = pd.Series([difficulty_model.name] * len(tasks), dtype="string")
    cards = cards_frame(tasks)
    summary = summary_markdown(tasks, cards, problems, deck_name=deck_name, seconds=seconds,
                               legend=difficulty_model.legend() if difficulty_model is not None else "",
                               settings=settings)
    tables = {"tasks.parquet": tasks, "tasks.csv": tasks, "cards.parquet": cards, "cards.csv": cards}
    out_dir.claim([*tables, "summary.md"])   # before writing: a file of another origin is refused
    # all five in place together: a run stopped while they are written leaves those of one run, not a mix
    out_dir.replace_together([*((name, table_writer(table, Path(name).suffix)) for name, table in tables.items()),
                              ("summary.md", lambda tmp: tmp.write_text(summary, encoding="utf-8"))])
    return tasks, cards, summary
