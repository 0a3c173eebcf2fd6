"""The batch tables' file forms, dtypes and the one reader: :func:`load_tasks`, :func:`load_cards`, :func:`write_table`.

The two file forms of a task table hold the same values:

- **Parquet** keeps structure: ``pieces`` is ``list<string>``,
  ``solution`` is ``list<struct<piece: string, cells: list<list<int16>>>>``
  (one entry per piece, its cells as ``[row, col]`` pairs), a missing value
  (``error`` of a task that did not fail, ``solution`` of a task without
  one, ``count`` of a task that was never counted) is null.
- **CSV** keeps text: ``pieces`` is the names separated by single spaces,
  ``solution`` is JSON ``{"piece": [[row, col], ...]}``, and a missing
  value is an empty field.

:func:`load_tasks` reads either form (and tables written before list
columns existed) into one form in memory: ``card_id`` and the other keys
as text (``"01"`` stays ``"01"``), ``status`` as a categorical of
:class:`~ubongo_cp.status.Status` values, counts as nullable integers,
``pieces`` as a list of names, ``solution`` as a dict piece name ->
list of ``(row, col)`` (None when there is none) and ``error`` as text or
``<NA>``. Every reader of the tables (booklet, notebooks, the game
simulators) goes through it. Columns, dtypes and units: ``docs/tables.md``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

import pandas as pd

from ..errors import InputError, cut
from ..io import atomic_path, check_output_file, marked_arrow, other_table_reason
from ..rate import RATING_COLUMNS
from ..status import Status

__all__ = ["TASK_COLUMNS", "TASK_DTYPES", "CARD_COLUMNS", "CARD_DTYPES", "STATUS_DTYPE", "KEY_COLUMNS",
           "write_table", "table_writer", "text_view", "load_tasks", "load_cards", "normalize_tasks", "check_unique_tasks",
           "task_rows", "check_task_rows", "blank_rows", "keep_rows",
           "cast_columns", "TaskRecord", "task_record", "table_file", "row_place"]

#: Column order of ``tasks.csv``/``tasks.parquet``.
TASK_COLUMNS = ["card_id", "side", "face", "game", "pieces", "n_pieces", "area", "max_empty", *RATING_COLUMNS,
                "difficulty_model", "error", "task_hash", "card_file", "grid"]

#: The task status as a pandas dtype: a categorical whose categories are the :class:`Status` values.
STATUS_DTYPE = pd.CategoricalDtype([s.value for s in Status])

_TEXT = ("card_id", "side", "game", "error", "task_hash", "card_file", "difficulty_model", "grid")
_INTEGER = ("face", "n_pieces", "area", "max_empty", "count", "count_reduced", "placements", "min_piece_placements", "symmetry",
            "search_nodes", "cpsat_branches", "cpsat_conflicts", "cpsat_count")
_FLOAT = ("difficulty", "seconds", "placements_per_cell")

#: The least value of a whole-number column other than 0 (each counts something from 0, a die face from 1, UP-1).
_LEAST = {"face": 1}

#: dtype of each task-table column in memory (``object`` columns hold lists and dicts).
TASK_DTYPES: dict[str, object] = {
    **dict.fromkeys(_TEXT, "string"), **dict.fromkeys(_INTEGER, "Int64"), **dict.fromkeys(_FLOAT, "float64"),
    "status": STATUS_DTYPE, "complete": "bool", "pieces": "object", "solution": "object",
}

#: Column order of ``cards.csv``/``cards.parquet`` and their dtypes in memory.
CARD_DTYPES: dict[str, object] = {
    "card_id": "string", "side": "string", "game": "string", "area": "Int64", "tasks": "Int64",
    "solved": "Int64", "unique": "Int64", "unsolvable": "Int64", "failed": "Int64",
    "difficulty_mean": "float64", "difficulty_min": "float64", "difficulty_max": "float64",
    "count_mean": "float64", "seconds": "float64", "distinct_pieces": "Int64", "piece_use": "string",
}
#: Column names of the card table, in file order.
CARD_COLUMNS = list(CARD_DTYPES)

#: Columns without which a table is not a task table (the keys of a task).
KEY_COLUMNS = ("card_id", "side", "face")

#: Key of ``DataFrame.attrs`` under which a table read from CSV keeps the line of the file each row was on
#: (a dict: index label -> line; :func:`row_place`).
LINES = "ubongo_cp.lines"
#: Key of ``DataFrame.attrs`` under which a table whose rows of empty fields were left out keeps the position each
#: row had in the table as given (a dict: index label -> 0-based position; :func:`row_place`).
ROWS = "ubongo_cp.rows"


# --------------------------------------------------------------------------- writing

def write_table(df: pd.DataFrame, path: str | Path) -> None:
    """Write a task or card table as Parquet or CSV (by suffix), atomically, in the forms of the module docstring.

    An existing file at ``path`` is replaced only when it is a table of the same columns: a Parquet table the
    toolkit wrote (:func:`~ubongo_cp.io.check_output_file`) or a CSV table with the same header line.

    Raises
    ------
    InputError
        For a suffix other than ``.parquet``/``.csv``, a path that cannot be written, or one holding another
        file (nothing is written then).
    """
    path = Path(path)
    if path.suffix not in (".csv", ".parquet"):
        raise InputError("a table is written as .parquet or .csv", path=path)
    check_output_file(path)
    # a Parquet table carries the mark whichever command wrote it: its columns tell another table
    why = other_table_reason(path, path.suffix, lambda: _file_form(df).head(0).to_csv(index=False).splitlines()[0],
                             lambda: _arrow_form(df).schema.names)
    if why is not None:
        raise InputError(f"exists and holds another table ({why}); it is left as it is: "
                         "remove it or choose another output path", path=path)
    write_owned_table(df, path)


def write_owned_table(df: pd.DataFrame, path: Path) -> None:
    """:func:`write_table` to a ``path`` whose file, if any, its caller knows to be its own (an output folder's:
    :class:`~ubongo_cp.outputs.OutputFolder`), so it is replaced whatever it holds now (a table of an earlier
    version's columns)."""
    with atomic_path(path) as tmp:
        table_writer(df, path.suffix)(tmp)


def table_writer(df: pd.DataFrame, suffix: str) -> Callable[[Path], None]:
    """What writes ``df`` in the form of :func:`write_table` for a file of that ``suffix`` (``.csv`` or
    ``.parquet``) to the path it is given (a temporary file: :func:`~ubongo_cp.io.replace_together`)."""
    tasks = "face" in df.columns

    def write(tmp: Path) -> None:
        if suffix == ".csv":
            _file_form(df).to_csv(tmp, index=False, **({} if tasks else {"float_format": "%.4f"}))
        else:
            import pyarrow.parquet as pq

            pq.write_table(marked_arrow(_arrow_form(df)), tmp)
    return write


def _arrow_form(df: pd.DataFrame):
    """What a Parquet file holds of a task table (:func:`_arrow_table`) or a card table."""
    return _arrow_table(df) if "face" in df.columns else _plain_arrow(df)


def _file_form(df: pd.DataFrame) -> pd.DataFrame:
    """What a CSV file holds of a task table (:func:`text_view`; a card table has no face column) or a card table."""
    return text_view(df) if "face" in df.columns else df


def text_view(df: pd.DataFrame) -> pd.DataFrame:
    """The CSV/Markdown form: pieces as space-separated names, solution as JSON, no error as empty text."""
    out = df.copy()
    if "pieces" in df:
        out["pieces"] = [" ".join(p) for p in df["pieces"]]
    if "solution" in df:
        out["solution"] = ["" if s is None else json.dumps({k: [list(c) for c in v] for k, v in s.items()})
                           for s in df["solution"]]
    if "error" in df:
        out["error"] = df["error"].fillna("").astype(object)
    if "status" in df:
        out["status"] = df["status"].astype(object)
    return out


def _arrow_schema(df: pd.DataFrame):
    import pyarrow as pa

    arrow = {"string": pa.string(), "Int64": pa.int64(), "float64": pa.float64(), "bool": pa.bool_()}
    fields = []
    for col in df.columns:
        if col == "pieces":
            kind = pa.list_(pa.string())
        elif col == "solution":
            kind = pa.list_(pa.struct([("piece", pa.string()), ("cells", pa.list_(pa.list_(pa.int16())))]))
        elif col == "status":
            kind = pa.string()
        else:
            kind = arrow[str(TASK_DTYPES.get(col, CARD_DTYPES.get(col)))]
        fields.append(pa.field(col, kind))
    return pa.schema(fields)


def _arrow_table(df: pd.DataFrame):
    """The Parquet form of a task table: list and struct columns, nulls for missing values."""
    import pyarrow as pa

    data = {}
    for col in df.columns:
        values = df[col]
        if col == "pieces":
            data[col] = [list(p) for p in values]
        elif col == "solution":
            data[col] = [None if s is None else [{"piece": k, "cells": [list(c) for c in v]} for k, v in s.items()]
                         for s in values]
        elif col == "status":
            data[col] = [None if pd.isna(v) else str(v) for v in values]
        else:
            data[col] = [None if pd.isna(v) else v for v in values.astype(object)]
    return pa.Table.from_pydict(data, schema=_arrow_schema(df))


def _plain_arrow(df: pd.DataFrame):
    import pyarrow as pa

    table = pa.Table.from_pandas(df, schema=_arrow_schema(df), preserve_index=False)
    return table.replace_schema_metadata(None)


# --------------------------------------------------------------------------- reading

def load_tasks(path: str | Path, *, required: Iterable[str] = KEY_COLUMNS + ("status",)) -> pd.DataFrame:
    """Read a task table (``tasks.parquet`` or ``tasks.csv``, or a batch output directory).

    The one reader of the batch runner's task table: every reader in the
    toolkit (booklet, notebooks, game simulators) uses it, so every one sees
    the same dtypes (:data:`TASK_DTYPES`; see the module docstring).

    Parameters
    ----------
    path : str or path
        A ``.parquet``/``.pq`` or ``.csv`` file, or a directory holding
        ``tasks.parquet`` (else ``tasks.csv``), or a shipped deck's name
        (``"classic"``: the rated table it ships with).
    required : iterable of str
        Columns the table must have (default: ``card_id, side, face,
        status``). Other known columns are normalised when present and
        unknown ones kept as they are.

    Returns
    -------
    pandas.DataFrame
        One row per task, columns in file order.

    Raises
    ------
    InputError
        For a missing or unreadable file, a missing required column, a
        value that does not fit its column (a die face written ``NaN``
        included), a task's row without its card, side or face, or a task
        given on two rows (:func:`check_unique_tasks`); naming the file and,
        for CSV, the line.

    Examples
    --------
    >>> from ubongo_cp.shipped import deck_tasks_path
    >>> tasks = load_tasks(deck_tasks_path("classic"))
    >>> tasks.loc[0, "card_id"], tasks.loc[0, "pieces"], str(tasks["status"].dtype)
    ('01', ['I3', 'S4', 'P5'], 'category')
    """
    path = table_file(path, "tasks")
    df = _read_raw(path)
    missing = [c for c in required if c not in df.columns]
    if missing:
        cards = "face" in missing and "card_id" in df.columns and "side" in df.columns and "tasks" in df.columns
        raise InputError(f"tasks table lacks column(s) {', '.join(missing)}"
                         + ("; it is a cards table (one row per card side): read it with load_cards" if cards else ""),
                         path=path)
    return task_rows(df, path)


def task_rows(df: pd.DataFrame, path: str | os.PathLike | None = None) -> pd.DataFrame:
    """A task table as read from a file or given as a DataFrame, in its in-memory form (:func:`normalize_tasks`),
    checked by :func:`check_task_rows` and without its rows of empty fields (a spreadsheet's empty rows).

    Messages name ``path`` and the line (CSV) or row of the table as given, also for a row after an empty one.

    Raises
    ------
    InputError
        As :func:`normalize_tasks` and :func:`check_task_rows`, and for a table naming a column twice.
    """
    from ..io import check_unique_columns

    check_unique_columns([str(c) for c in df.columns], path, where="the table")   # a DataFrame's (a file's: as read)
    blank = blank_rows(df)   # on the values as given: a bool column of an empty row becomes False in memory
    tasks = normalize_tasks(df, path=path)
    check_task_rows(tasks, path, blank=blank)
    return keep_rows(tasks, [not b for b in blank])


def blank_rows(df: pd.DataFrame) -> list[bool]:
    """Whether each row of ``df`` (its values as read or given, not normalised) is a row of empty fields only."""
    return [all(_missing(v) for v in row) for row in df.itertuples(index=False)]


def check_task_rows(df: pd.DataFrame, path: str | os.PathLike | None = None, *,
                    blank: list[bool] | None = None, unique: bool = True) -> list[bool]:
    """Refuse a task's row that lacks its card, side or die face, and (``unique``) a task given on two rows
    (:func:`check_unique_tasks`): the checks every reader of a task table (file or DataFrame) makes.

    A row of empty fields only (``blank``, else :func:`blank_rows` of ``df``) is no task and passes. A reader that
    checks each row's values first (a simulator's) passes ``unique=False`` and calls :func:`check_unique_tasks`
    after that.

    Returns
    -------
    list of bool
        Which rows are rows of empty fields.

    Raises
    ------
    InputError
        Naming ``path``, the column and the line (CSV) or row.

    Examples
    --------
    >>> check_task_rows(pd.DataFrame({"card_id": ["01", None], "side": ["easy", None], "face": [1.0, None]}))
    [False, True]
    >>> check_task_rows(pd.DataFrame({"card_id": ["01"], "side": ["easy"], "face": [float("nan")]}), "t.parquet")
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: t.parquet: column face (row 1) is empty in a task's row (each task's row names its \
card, side and die face)
    """
    blank = blank_rows(df) if blank is None else blank
    for col in KEY_COLUMNS:
        lacking = [i for i, v in enumerate(df[col].tolist()) if _missing(v) and not blank[i]] if col in df else []
        if lacking:
            line, where = row_place(path, lacking[0], df)
            raise InputError(f"column {col}{where} is empty in a task's row (each task's row names its card, side and "
                             "die face)", path=path, line=line)
    if unique:
        check_unique_tasks(df, path)
    return blank


def keep_rows(tasks: pd.DataFrame, keep: list[bool]) -> pd.DataFrame:
    """The rows of ``tasks`` to ``keep``, numbered from 0, each keeping its line of the file or its row of the table
    as given (for :func:`row_place`)."""
    if all(keep):
        return tasks
    lines, rows = tasks.attrs.get(LINES), tasks.attrs.get(ROWS)
    labels = tasks.index.tolist()
    kept = [position for position, k in enumerate(keep) if k]
    out = tasks.iloc[kept].reset_index(drop=True)
    out.attrs = {k: v for k, v in tasks.attrs.items() if k not in (LINES, ROWS)}
    if lines is not None:
        out.attrs[LINES] = {new: lines[labels[old]] for new, old in enumerate(kept) if labels[old] in lines}
    out.attrs[ROWS] = {new: (rows or {}).get(labels[old], old) for new, old in enumerate(kept)}
    return out


def load_cards(path: str | Path) -> pd.DataFrame:
    """Read a card-side table (``cards.parquet``/``cards.csv``, or a batch output directory).

    Returns a DataFrame with the dtypes :data:`CARD_DTYPES` (``card_id`` as text).

    Raises
    ------
    InputError
        For a missing or unreadable file, a missing key column or a value that does not fit its column; for a
        task table (a ``face`` column: one row per card side and die face), which has the same key columns
        and would read as one card side per task.
    """
    path = table_file(path, "cards")
    df = _read_raw(path)
    missing = [c for c in ("card_id", "side") if c not in df.columns]
    if missing:
        raise InputError(f"cards table lacks column(s) {', '.join(missing)}", path=path)
    if "face" in df.columns:
        raise InputError("is a tasks table (one row per card side and die face), not a cards table (one row per "
                         "card side): read it with load_tasks", path=path)
    return cast_columns(df, CARD_DTYPES, path=path)


def normalize_tasks(df: pd.DataFrame, *, path: str | Path | None = None) -> pd.DataFrame:
    """A task table with every known column in its in-memory form (:data:`TASK_DTYPES`).

    Accepts the CSV text forms, the Parquet list/struct forms and the
    in-memory forms alike (and JSON text solutions from the batch journal).

    Raises
    ------
    InputError
        When ``card_id`` holds numbers (a CSV read without this reader turns
        ``"01"`` into 1: the ids can no longer be matched), or a value does
        not fit its column; naming ``path`` and, for a CSV, the line.
    """
    if "card_id" in df.columns and pd.api.types.is_numeric_dtype(df["card_id"]) and len(df):
        raise InputError("card_id holds numbers, not text (a CSV read with plain pandas turns '01' into 1); "
                         "read the table with ubongo_cp.report.load_tasks", path=path)
    return cast_columns(df, TASK_DTYPES, path=path)


def check_unique_tasks(df: pd.DataFrame, path: str | os.PathLike | None = None) -> None:
    """Refuse a task table that gives one task on two rows: which of the two would count is no rule to guess.

    A task is its card, side and face, the key every reader finds it by (a ``game`` column does not tell two
    rows apart: a table is of one deck); a row lacking one of them (a spreadsheet's empty row) is no task.
    Card ids are compared as the readers match them (:func:`ubongo_cp.cards.card_id_match`: ``"1"`` is card
    ``"01"``, whose leading zero a spreadsheet dropped), sides as text without surrounding spaces, faces as
    numbers (``3`` and ``3.0`` are one face).

    Raises
    ------
    InputError
        Naming ``path``, the second row's line (or row, in a table without lines), the task and the
        first row's line.

    Examples
    --------
    >>> check_unique_tasks(pd.DataFrame({"card_id": ["01", "01"], "side": ["easy", "easy"], "face": [1, 1]}),
    ...                    "tasks.csv")
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: tasks.csv:3: task card 01 side easy face 1 is given twice (also on line 2)
    """
    from ..cards import card_id_match

    if any(c not in df.columns for c in KEY_COLUMNS):
        return
    faces = pd.to_numeric(pd.Series(df["face"].tolist(), dtype=object), errors="coerce").tolist()
    seen: dict[tuple, tuple[int, str]] = {}
    for position, (card, side, face) in enumerate(zip(df["card_id"].tolist(), df["side"].tolist(), faces)):
        if _missing(card) or _missing(side) or _missing(face):
            continue
        text = str(card).strip()
        key = (card_id_match(text), str(side).strip(), face)
        if key in seen:
            line, where = row_place(path, position, df)
            first_position, first_card = seen[key]
            first, first_where = row_place(path, first_position, df)
            also = f"line {first}" if first is not None else first_where.strip(" ()")
            if first_card != text:
                also += f", as card {first_card}"
            number = int(face) if float(face).is_integer() else face
            raise InputError(f"task card {text} side {key[1]} face {number}{where} is given twice (also on "
                             f"{also})", path=path, line=line)
        seen[key] = (position, text)


def table_file(path: str | Path, stem: str) -> Path:
    """The table file ``path`` names: itself, or in a batch output directory ``<stem>.parquet`` (else ``.csv``);
    a shipped deck's name (:func:`ubongo_cp.shipped.resolve_deck`) names the table it ships with.

    Raises
    ------
    InputError
        For a ``path`` that is neither text nor a path, or if there is no such file; for a directory without
        the table, that a batch output directory is expected (and that it looks like a deck, when it holds
        ``*.toml`` card files); for a folder a run was killed in while it put its tables in place
        (:func:`~ubongo_cp.io.refuse_interrupted`).
    """
    from ..shipped import resolve_deck

    if not isinstance(path, (str, os.PathLike)):
        raise InputError(f"a {stem} table is a file's or a batch output folder's path, or a shipped deck's name, "
                         f"got {type(path).__name__} {cut(repr(path))}")
    path = resolve_deck(path)
    if path.is_dir():
        parquet, csv = path / f"{stem}.parquet", path / f"{stem}.csv"
        if not parquet.exists() and not csv.exists():
            from ..specs import DECK_SPEC_FILE

            deck = any(f.name != DECK_SPEC_FILE for f in path.glob("*.toml"))
            raise InputError(f"no {stem} table ({stem}.parquet or {stem}.csv) in this folder: a batch output folder "
                             "is expected" + ("; this folder looks like a deck (it holds *.toml card files): run "
                                              "`ubongo-cp batch` on it and give its output folder" if deck else ""),
                             path=path)
        path = parquet if parquet.exists() else csv
    if not path.exists():
        raise InputError(f"{stem} table not found", path=path)
    from ..io import check_regular_file, refuse_interrupted

    check_regular_file(path, f"a {stem} table")   # a device, FIFO or socket is named as such
    refuse_interrupted(path.parent, "table's folder")   # tables of two runs, of a run killed as it wrote them
    return path


def _read_raw(path: Path) -> pd.DataFrame:
    """The table as stored: CSV cells as text (no value is guessed), Parquet values as Python objects.

    ``path``: a regular file (:func:`table_file`). A table edited in pandas and saved with
    ``DataFrame.to_parquet`` is read too: card ids stored as numbers as the text a CSV holds for them (1 as
    ``"1"``, as a spreadsheet leaves card ``"01"``, which the readers match to card 01), and solutions stored as
    a struct of every piece name without the pieces a solution does not place."""
    from ..io import check_csv_rows, check_unique_columns, csv_record_lines, note_input, read_text, wrong_format

    note_input(path)
    text = None
    try:
        if path.suffix.lower() in (".parquet", ".pq"):
            import pyarrow.parquet as pq

            check_unique_columns(pq.read_schema(path).names, path, where="the table")
            table = pq.read_table(path)
            df = pd.DataFrame({name: table.column(name).to_pylist() for name in table.column_names})
        else:
            import io

            text = read_text(path)
            # A first row of more fields would shift every column by one; a row of fewer is one cut short (the batch
            # writes every field of every row), whose missing fields pandas would read as empty.
            check_csv_rows(text, path, fewer=True)
            df = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
            lines = csv_record_lines(text)
            if len(lines) == len(df):
                df.attrs[LINES] = dict(zip(df.index.tolist(), lines))
    except InputError as exc:   # the readers' own (not UTF-8, a row of more or fewer fields): its line, the file named once
        other = None if text is None else wrong_format(text, path, "table", "a batch result table", exc.line)
        raise other or InputError(f"not a batch result table: {exc.message}", path=path, line=exc.line) from None
    except (ValueError, OSError, pd.errors.ParserError) as exc:
        from ..io import csv_problem

        problem, line = csv_problem(exc, text)
        other = None if text is None else wrong_format(text, path, "table", "a batch result table", line)
        raise other or InputError(f"not a batch result table: {problem}", path=path, line=line) from None
    if "card_id" in df.columns:
        df["card_id"] = [_card_id_text(v, i, path) for i, v in enumerate(df["card_id"].tolist())]
    if "solution" in df.columns:   # pandas' struct of every piece name: a piece not placed is null there
        df["solution"] = [{k: c for k, c in v.items() if c is not None} if isinstance(v, dict) else v
                          for v in df["solution"].tolist()]
    return df


def _card_id_text(value, position: int, path: Path):
    """A card id of a Parquet table as text: a whole number as its digits (``1.0``, from a column of floats
    holding a null, as ``"1"``); missing as None; text as it is."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    if isinstance(value, float):
        if value != value:
            return None
        if not value.is_integer():
            line, where = row_place(path, position)
            raise InputError(f"column card_id{where}: {value!r} is not a card id (text, or a whole number)",
                             path=path, line=line)
        value = int(value)
    return str(value)


def row_place(path: str | os.PathLike | None, position: int, table: pd.DataFrame | None = None
              ) -> tuple[int | None, str]:
    """Where row ``position`` (0-based) of a table read from ``path`` is, for a message.

    Returns ``(line, where)``: a CSV names the line and ``where`` is empty;
    another table (Parquet) has no lines, so ``line`` is None and ``where`` says ``" (row N)"``, 1-based.
    The line is the one :func:`load_tasks` read the row of ``table`` from (blank lines, a spreadsheet's
    empty rows and fields over several lines counted), else the header line's and then one per row.

    Examples
    --------
    >>> row_place("tasks.csv", 0), row_place("tasks.parquet", 0)
    ((2, ''), (None, ' (row 1)'))
    """
    label = None if table is None else table.index[position]
    if table is not None and label in table.attrs.get(ROWS, {}):   # its position before empty rows were left out
        position = table.attrs[ROWS][label]
    if path is not None and Path(path).suffix.lower() == ".csv":
        lines = None if table is None else table.attrs.get(LINES)
        if lines is not None and label in lines:
            return lines[label], ""
        return position + 2, ""
    return None, f" (row {position + 1})"


def cast_columns(df: pd.DataFrame, dtypes: dict, *, path=None) -> pd.DataFrame:
    """Each column of ``dtypes`` present in ``df`` in its in-memory form."""
    df = df.copy()

    def fail(col: str, position: int, value, what: str):
        line, where = row_place(path, position, df)
        raise InputError(f"column {col}{where}: {value!r} is not {what}", path=path, line=line)

    for col, kind in dtypes.items():
        if col not in df.columns:
            continue
        values = df[col].tolist()
        if col == "pieces":
            df[col] = [_pieces(v, col, i, fail) for i, v in enumerate(values)]
        elif col == "solution":
            df[col] = [_solution(v, col, i, fail) for i, v in enumerate(values)]
        elif col == "status":
            known = set(STATUS_DTYPE.categories)
            clean = [None if _missing(v) else str(v) for v in values]
            for i, v in enumerate(clean):
                if v is not None and v not in known:
                    fail(col, i, v, f"a status ({', '.join(known)})")
            df[col] = pd.Series(clean, index=df.index, dtype=STATUS_DTYPE)
        elif kind == "string":
            if col == "grid":   # a name of GRIDS, or missing (a row on squares); a name cut short is none
                from ..grids import GRIDS

                for i, v in enumerate(values):
                    if not _missing(v) and str(v) not in GRIDS:
                        fail(col, i, v, f"a grid ({', '.join(GRIDS)})")
            df[col] = pd.Series([None if _missing(v) else str(v) for v in values], index=df.index, dtype="string")
        elif kind == "bool":
            df[col] = [_bool(v, col, i, fail) for i, v in enumerate(values)]
            df[col] = df[col].astype(bool)
        else:
            numbers = pd.to_numeric(pd.Series([None if _missing(v) else v for v in values], index=df.index,
                                              dtype=object), errors="coerce")
            for i in range(len(values)):
                # NaN written for a missing value is one, but in a key column no task's value: a die face is a number
                if pd.isna(numbers.iloc[i]) and not _missing(values[i]) and not (_is_nan(values[i])
                                                                                  and col not in KEY_COLUMNS):
                    fail(col, i, values[i], "a die face (a whole number)" if _is_nan(values[i]) else "a number")
            if kind == "Int64":
                whole = numbers.dropna()
                for bad, what in ((whole != whole.round(), "a whole number"),
                                  # inf, 1e300, 2**70: the column holds 64-bit integers (once a raw OverflowError
                                  # or TypeError)
                                  (whole.map(_beyond_64_bits).astype(bool),
                                   "a whole number below 2**63 (the column's range)"),
                                  # every whole-number column counts something (a count of -2 was drawn in the
                                  # booklet as '-2 solutions'); a die face is numbered from 1 (UP-1)
                                  (whole < _LEAST.get(col, 0),
                                   f"a {'die face' if col == 'face' else 'count'} (a whole number >= "
                                   f"{_LEAST.get(col, 0)})"),
                                  # 1e5 is no count as written: a whole number is written in digits
                                  (~pd.Series([_in_digits(v) for v in values], index=df.index)[whole.index],
                                   "a whole number written in digits (no exponent)")):
                    if bad.any():
                        i = int(df.index.get_loc(whole[bad].index[0]))
                        fail(col, i, values[i], what)
            df[col] = numbers.astype(kind)
    return df


def _in_digits(value) -> bool:
    """Whether a number of a whole-number column is written without an exponent (``1e5`` is not; a number
    read from Parquet is no text and is)."""
    import re

    return not isinstance(value, str) or re.fullmatch(r"\s*[+-]?(?:\d+\.?\d*|\.\d+)\s*", value) is not None


def _beyond_64_bits(value) -> bool:
    """Whether a number read into an Int64 column is outside it (compared exactly: 2**63 - 1 fits; inf does not)."""
    try:
        return abs(int(value)) >= 2 ** 63
    except (OverflowError, ValueError):
        return True


def _missing(value) -> bool:
    """None, NaN, pandas' NA or an empty string (CSV's missing value)."""
    if value is None or (isinstance(value, str) and value == ""):
        return True
    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):     # a list or an array: present
        return False


def _is_nan(value) -> bool:
    return isinstance(value, str) and value.strip().lower() == "nan"


def _bool(value, col, i, fail) -> bool:
    if _missing(value):
        return False
    if isinstance(value, str):
        if value.strip().lower() in ("true", "1"):
            return True
        if value.strip().lower() in ("false", "0"):
            return False
        fail(col, i, value, "True or False")
    return bool(value)


def _pieces(value, col, i, fail) -> list[str]:
    if _missing(value):
        return []
    if isinstance(value, str):
        return value.split()
    try:
        return [str(v) for v in value]
    except TypeError:
        fail(col, i, value, "a list of piece names")
        raise  # fail() raises; never reached


def _solution(value, col, i, fail) -> dict | None:
    """Piece name -> list of cells (``(row, col)`` on squares; three ints on cubes), from JSON text, Parquet's
    list of structs or a dict."""
    if _missing(value):
        return None
    written = value   # the cell as the file holds it, for the message
    try:
        if isinstance(value, str):
            value = json.loads(value)
        items: Iterable
        if isinstance(value, dict):
            items = value.items()
        else:   # the Parquet form: [{"piece": name, "cells": [[row, col], ...]}, ...]
            items = [(entry["piece"], entry["cells"]) for entry in value]
        out = {str(k): [tuple(int(x) for x in c) for c in cells] for k, cells in items}
        if any(len(c) not in (2, 3) for cells in out.values() for c in cells):
            raise ValueError("a cell has 2 or 3 coordinates")
        return out
    except (ValueError, TypeError, KeyError, IndexError, OverflowError, RecursionError):
        # OverflowError: a cell at 1e999; RecursionError: JSON nested thousands deep
        text = written if isinstance(written, str) else repr(written)
        fail(col, i, text[:60], "a solution (piece -> [[row, col], ...])")


# --------------------------------------------------------------------------- one row as an object

@dataclass(frozen=True)
class TaskRecord:
    """One row of a task table, as an object that shows itself as a picture in a notebook.

    Attributes
    ----------
    card_id, side : str
    face : int
    game : str
    pieces : tuple of str
    status : Status
    count : int or None
        Number of solutions, when known.
    difficulty : float or None
    solution : dict of str -> list of cells, or None
        The first solution (its cells give the region's cells and the pieces' shapes).
    grid : str
        The cells' grid (:mod:`ubongo_cp.grids`; tables without a ``grid`` column are on squares).
    """

    card_id: str
    side: str
    face: int
    game: str
    pieces: tuple[str, ...]
    status: Status
    count: int | None = None
    difficulty: float | None = None
    solution: dict | None = None
    grid: str = "square"

    def draw(self):
        """The solution (or the piece names, for a task without one) as a matplotlib Figure."""
        from ..draw.figures import task_record_figure

        return task_record_figure(self)

    def _repr_svg_(self) -> str:
        from ..draw.figures import figure_svg

        return figure_svg(self.draw())


def task_record(row) -> TaskRecord:
    """A :class:`TaskRecord` from one row of a task table (a pandas Series or a dict).

    Raises
    ------
    InputError
        For anything but one row (a table of rows included: pick one, ``tasks.iloc[0]``), or a row without
        the columns ``card_id``, ``side``, ``face``, ``pieces`` and ``status``.

    Examples
    --------
    >>> from ubongo_cp.shipped import deck_tasks_path
    >>> record = task_record(load_tasks(deck_tasks_path("classic")).iloc[0])
    >>> record.card_id, record.face, record.pieces, record.count
    ('01', 1, ('I3', 'S4', 'P5'), 1)
    """
    from collections.abc import Mapping

    if isinstance(row, pd.DataFrame):
        raise InputError(f"task_record takes one row of a task table, got a table of {len(row)} row(s): pick one, "
                         "e.g. tasks.iloc[0]")
    if not isinstance(row, (pd.Series, Mapping)):
        raise InputError(f"task_record takes one row of a task table (a pandas Series or a dict), got "
                         f"{type(row).__name__}")
    lacking = [col for col in (*KEY_COLUMNS, "pieces", "status") if _missing(row.get(col))]
    if lacking:
        raise InputError(f"the row lacks column(s) {', '.join(lacking)} of a task table")
    get = row.get

    def value(key, kind):
        v = get(key)
        return None if _missing(v) else kind(v)

    def fail(col, _position, text, what):
        raise InputError(f"column {col}: {text!r} is not {what}")

    return TaskRecord(str(get("card_id")), str(get("side")), int(get("face")), str(get("game") or ""),
                      tuple(_pieces(get("pieces"), "pieces", 0, fail)), Status(str(get("status"))),
                      value("count", int), value("difficulty", float), _solution(get("solution"), "solution", 0, fail),
                      value("grid", str) or "square")
