"""Difficulty fitted to playtest times: a linear model of log solve time on the rating's features.

The toolkit's own rating (:mod:`ubongo_cp.rate`) weighs its two terms 1 : 1
by design. A designer who has timed players on the cards can do better:
:func:`fit_difficulty` regresses the natural log of the observed solve
times on the features of each task from a batch run, by ordinary least
squares (``statsmodels`` [1]_), and :class:`DifficultyModel` then rates
every task of a deck in *predicted seconds* (``ubongo-cp batch
--difficulty-model``).

The model
---------
For timed solve ``i`` of task ``t`` by player ``p``::

    ln(seconds_i) = b0 + sum_f b_f * x_f(t) + u_p + e_i,    e_i ~ N(0, sigma^2)

with the features ``x_f`` of :data:`FEATURES` (a feature that has the same
value in every row cannot be fitted and is left out, and said so) and, when
the times name two or more players, one fixed effect ``u_p`` per player
(the first player's is 0). A task's difficulty is then the predicted
median time of an *average* player of the playtest:
``exp(b0 + mean_p(u_p) + sum_f b_f x_f)`` seconds.

The fit reports each weight with its 95 % confidence interval (the usual
OLS intervals, statsmodels' ``conf_int``),
R^2 on the rows it was fitted on, and a cross-validated R^2: the rows are
split into ``folds`` groups *by task* (all times of one task in the same
group, so a task is never predicted from its own times), each group is
predicted by a model fitted on the others (least squares; a player none
of whose times is in the other groups is predicted as their average
player), and R^2 is computed on those out-of-sample predictions (pooled). A cross-validated R^2 much below the
in-sample one means the model fits noise; below 0 it predicts worse than
the mean.

Features (per task, from the batch runner's task table):

==============  =================================================================
``search``      log2(1 + search nodes / solutions): the rating's first term
``placements``  log2(mean placements covering a cell): the rating's second term
``pieces``      pieces in the task
``cells``       cells of the region
``symmetry``    log2 of the order of the region's symmetry group (1, 2, 4 or 8)
``solutions``   log2(number of solutions)
==============  =================================================================

References
----------
.. [1] S. Seabold and J. Perktold, "statsmodels: Econometric and statistical
   modeling with Python", Proc. 9th Python in Science Conference (2010).
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from typing import TYPE_CHECKING

from .errors import InputError
from .status import Status

if TYPE_CHECKING:   # numpy and pandas are imported where they are used: `ubongo-cp --help` reads FEATURES
    import numpy as np
    import pandas as pd

__all__ = ["FEATURES", "DifficultyModel", "task_features", "read_times", "check_results", "fit_difficulty",
           "load_model", "model_legend", "MODEL_FORMAT", "MAX_TERM"]

#: The features a model may use, in this order (see the module docstring).
FEATURES = ("search", "placements", "pieces", "cells", "symmetry", "solutions")
#: The ``format`` value of a model file.
MODEL_FORMAT = "ubongo-cp difficulty model"
#: Columns of a times file; ``player`` is optional (``card_id`` is read as ``card``; a name in capitals as the
#: same name).
TIME_COLUMNS = ("card", "side", "face", "seconds")
#: Columns of the batch's task table that a fit reads (the features come from them).
RESULT_COLUMNS = ("card_id", "side", "face", "status", "count", "search_nodes", "n_pieces", "area")
#: Pairs of columns a fit reads one of: the first, or where a table lacks it the second (:func:`task_features`).
RESULT_EITHER = (("placements_per_cell", "difficulty"), ("symmetry", "solution"))
#: The largest magnitude of a term that enters a model's predictions: the intercept and each player effect (ln
#: seconds) and each weight (ln seconds per unit of its feature: one piece, one cell, a doubling of search nodes,
#: of placements, of solutions or of the symmetry). Human solve times, from a tenth of a second to a lifetime
#: (3e9 s), all lie within a factor e**24 of one another, so a fit of playtest times stays far inside +-100
#: (a factor e**100, about 3e43); a term beyond it is no fit of solve times but a file damaged or edited
#: (``"intercept": 1e300``), with which ``exp`` of every prediction overflows (beyond e**709.8, the largest
#: float) and every difficulty would be infinite (:meth:`DifficultyModel.term_problem`).
MAX_TERM = 100.0


def task_features(tasks: pd.DataFrame) -> pd.DataFrame:
    """The features of :data:`FEATURES` for every row of a task table.

    ``placements_per_cell`` and ``symmetry`` are read from their columns;
    a table written before they existed gets them from the built-in
    difficulty (which is ``search`` + ``placements``) and from the region
    of the stored solution.

    Parameters
    ----------
    tasks : pandas.DataFrame
        A task table (:func:`ubongo_cp.report.load_tasks`).

    Returns
    -------
    pandas.DataFrame
        One column per feature, the table's index; NaN where a task has no
        solution or was not counted.
    """
    import numpy as np
    import pandas as pd

    from .grids import get_grid

    count = pd.to_numeric(tasks["count"], errors="coerce").astype(float)
    nodes = pd.to_numeric(tasks["search_nodes"], errors="coerce").astype(float)
    count = count.where(count > 0)
    search = np.log2(1.0 + nodes / count)
    def column(name: str) -> pd.Series:
        values = tasks[name] if name in tasks.columns else pd.Series(math.nan, index=tasks.index)
        return pd.to_numeric(values, errors="coerce").astype(float)

    # Rows written before these columns existed get them from what they hold: the built-in difficulty
    # (search + placements; not a fitted model's seconds) and the region of the stored solution.
    built_in = column("difficulty")
    if "difficulty_model" in tasks.columns:
        built_in = built_in.where(tasks["difficulty_model"].isna())
    placements = np.log2(column("placements_per_cell")).fillna(built_in - search)
    order = column("symmetry")
    for i in np.flatnonzero(order.isna().to_numpy()):
        solution = tasks["solution"].iloc[i] if "solution" in tasks.columns else None
        if solution:
            name = tasks["grid"].iloc[i] if "grid" in tasks.columns else None
            grid = get_grid(name if isinstance(name, str) and name else "square")   # rows before grids: squares
            order.iloc[i] = float(len(grid.symmetry_group([tuple(c) for cells in solution.values() for c in cells])))
    return pd.DataFrame({
        "search": search,
        "placements": placements,
        "pieces": pd.to_numeric(tasks["n_pieces"], errors="coerce").astype(float),
        "cells": pd.to_numeric(tasks["area"], errors="coerce").astype(float),
        "symmetry": np.log2(order),
        "solutions": np.log2(count),
    }, index=tasks.index)[list(FEATURES)]


@dataclass(frozen=True)
class DifficultyModel:
    """A fitted difficulty model: weights of the features, and how well they fit (see the module docstring).

    Attributes
    ----------
    features : tuple of str
        The features used, a subset of :data:`FEATURES`.
    intercept : float
        ``b0`` plus the mean player effect (the average player of the playtest).
    weights : dict of str -> float
        ``b_f`` per feature (change of ln seconds per unit of the feature).
    intervals : dict of str -> (float, float)
        95 % confidence interval of each weight and of ``"intercept"`` (``b0``).
    players : dict of str -> float
        Each player's effect ``u_p`` (ln seconds; the first player's is 0).
    r2 : float
        R^2 of the fit (ln seconds).
    cv_r2 : float
        Cross-validated R^2 (folds by task).
    cv_rmse : float
        Root mean squared error of the cross-validated predictions (ln seconds).
    sigma : float
        Residual standard deviation (ln seconds).
    rows, tasks, folds : int
        Timed solves fitted, distinct tasks among them, cross-validation folds.
    dropped : tuple of str
        Features left out (the same value in every row).
    source : dict
        Where the fit came from (``times``, ``results``).
    name : str
        A short name (the model file's name when loaded).
    """

    features: tuple[str, ...]
    intercept: float
    weights: dict
    intervals: dict
    players: dict
    r2: float
    cv_r2: float
    cv_rmse: float
    sigma: float
    rows: int
    tasks: int
    folds: int
    dropped: tuple[str, ...] = ()
    source: dict = field(default_factory=dict)
    name: str = "difficulty model"

    def term_problem(self) -> str | None:
        """Which term entering the predictions lies beyond +-:data:`MAX_TERM` (no fit of solve times), as the
        end of a message, or None: the intercept first, then the weights and the player effects."""
        terms = {"'intercept'": self.intercept, **{f"the weight of {f!r}": w for f, w in self.weights.items()},
                 **{f"the effect of player {p!r}": u for p, u in self.players.items()}}
        what, value = next(((k, v) for k, v in terms.items() if not abs(v) <= MAX_TERM), (None, 0.0))
        return None if what is None else (f"{what} is {value:.6g}, beyond +-{MAX_TERM:g} ln seconds "
                                          "(a fit of solve times stays far within)")

    def predict_log(self, tasks: pd.DataFrame) -> np.ndarray:
        """Predicted ln seconds of an average player, one per row of a task table (NaN without features)."""
        import numpy as np

        x = task_features(tasks)[list(self.features)].to_numpy(dtype=float)
        w = np.array([self.weights[f] for f in self.features], dtype=float)
        return self.intercept + x @ w

    def predict_seconds(self, tasks: pd.DataFrame) -> np.ndarray:
        """Predicted median solve time of an average player, seconds, one per row (NaN for an unsolved task).

        Raises
        ------
        InputError
            Naming the model (:attr:`name`) and the first task whose
            prediction lies beyond e**+-:data:`MAX_TERM` seconds: terms each
            within the bound can still add up beyond it (a weight of 100 per
            cell), and ``exp`` of such a sum overflows to infinity past
            e**709.8 or rounds to 0 seconds.
        """
        import numpy as np

        log = self.predict_log(tasks)
        beyond = np.flatnonzero(np.abs(log) > MAX_TERM)   # NaN (no features) is not beyond
        if len(beyond):
            row = tasks.iloc[beyond[0]]
            task = (f"card {row['card_id']} side {row['side']} face {row['face']}"
                    if {"card_id", "side", "face"} <= set(tasks.columns) else f"row {beyond[0] + 1}")
            raise InputError(f"implausible difficulty model: it predicts e**{log[beyond[0]]:.6g} seconds for {task} "
                             f"({len(beyond)} of {len(log)} tasks beyond e**+-{MAX_TERM:g}; a fit of solve times "
                             "stays far within)", path=self.name)
        return np.exp(log)

    def legend(self) -> str:
        """What a difficulty rated by this model means (for booklets and summaries): :func:`model_legend`."""
        return model_legend(self.name)

    def to_json(self) -> dict:
        """The model file's content."""
        return {"format": MODEL_FORMAT, "version": 1, "target": "ln seconds", "features": list(self.features),
                "intercept": self.intercept, "weights": self.weights,
                "intervals": {k: list(v) for k, v in self.intervals.items()}, "players": self.players,
                "r2": self.r2, "cv_r2": self.cv_r2, "cv_rmse": self.cv_rmse, "sigma": self.sigma,
                "rows": self.rows, "tasks": self.tasks, "folds": self.folds, "dropped": list(self.dropped),
                "source": self.source}

    def save(self, path: str | os.PathLike) -> None:
        """Write the model as JSON, atomically.

        An existing file at ``path`` is replaced only when it is a difficulty model the toolkit wrote.

        Raises
        ------
        InputError
            When ``path`` holds any other file, or cannot be written (:func:`~ubongo_cp.io.check_output_file`).
        """
        from .io import atomic_write_text, check_output_file

        check_output_file(path, ".json", MODEL_FORMAT)
        atomic_write_text(path, json.dumps(self.to_json(), indent=2) + "\n")

    def report(self) -> str:
        """The fit as text: each weight with its interval, R^2 and the cross-validated R^2."""
        import numpy as np

        lines = [f"ln(seconds) fitted on {self.rows} timed solves of {self.tasks} tasks"
                 + (f" by {len(self.players)} players (one effect each)" if self.players else ""),
                 f"R\u00b2 {self.r2:.3f}; cross-validated R\u00b2 {self.cv_r2:.3f} ({self.folds} folds by task, "
                 f"RMSE {self.cv_rmse:.3f}); residual sd {self.sigma:.3f}", "",
                 f"{'term':<12}{'weight':>10}   95% interval"]
        lo, hi = self.intervals["intercept"]
        base = self.intercept - (float(np.mean(list(self.players.values()))) if self.players else 0.0)
        first = next(iter(self.players), None)
        lines.append(f"{'intercept':<12}{base:>10.4f}   [{lo:.4f}, {hi:.4f}]"
                     + (f"   (player {first}, the reference)" if first is not None else ""))
        for f in self.features:
            lo, hi = self.intervals[f]
            lines.append(f"{f:<12}{self.weights[f]:>10.4f}   [{lo:.4f}, {hi:.4f}]")
        if self.players:
            lines.append("player effects (ln seconds): " + ", ".join(f"{p} {u:+.3f}" for p, u in self.players.items()))
            lines.append(f"an average player of the playtest, as the model rates: intercept {self.intercept:.4f} "
                         "(the reference's plus the mean effect)")
        if self.dropped:
            lines.append(f"left out (the same in every row): {', '.join(self.dropped)}")
        return "\n".join(lines)


def model_legend(name: str) -> str:
    """The one-line legend of difficulties rated by the model called ``name`` (a task table's
    ``difficulty_model`` column).

    Examples
    --------
    >>> model_legend("playtest.json")
    'difficulty: predicted seconds to solve, for an average playtester (playtest.json, fitted by ubongo-cp calibrate)'
    """
    return f"difficulty: predicted seconds to solve, for an average playtester ({name}, fitted by ubongo-cp calibrate)"


def load_model(path: str | os.PathLike) -> DifficultyModel:
    """Read a model file written by :meth:`DifficultyModel.save` (``ubongo-cp calibrate --out``).

    Raises
    ------
    InputError
        For a missing file, invalid JSON, a file that is not such a model (or
        one of another version), ``features`` that are no non-empty list of
        names, a weight of a feature the model does not name, or
        a term that is not a finite number (NaN, Infinity, 10**400: a model
        with one would rate every task so) or a count that is no whole number,
        a negative ``sigma`` or ``cv_rmse`` (spreads of solve times);
        and for a term entering the predictions beyond +-:data:`MAX_TERM` (``1e300``): ln seconds, in which
        every human solve time lies within +-24 of another, and with which every difficulty would overflow
        to infinity (:meth:`DifficultyModel.term_problem`).
    """
    from .errors import as_written
    from .io import loads_json, read_text

    data = loads_json(read_text(path), path=path)   # malformed JSON and numbers of too many digits, with the line
    if not isinstance(data, dict) or data.get("format") != MODEL_FORMAT:
        raise InputError(f"not a difficulty model (written by ubongo-cp calibrate; format {MODEL_FORMAT!r})",
                         path=path)

    def number(what: str, value) -> float:
        """A finite float: a model with an infinite or NaN term rates every task so (and 10**400 is no float)."""
        try:
            good = not isinstance(value, bool) and isinstance(value, (int, float)) and math.isfinite(value)
        except OverflowError:
            good = False
        if not good:
            raise InputError(f"malformed difficulty model: {what} must be a finite number, got {as_written(value)}",
                             path=path)
        return float(value)

    def spread(key: str) -> float:
        """A standard deviation (``sigma``) or a root mean square (``cv_rmse``): a finite number, not negative."""
        value = number(repr(key), data[key])
        if value < 0:
            raise InputError(f"malformed difficulty model: {key!r} is a spread of solve times and cannot be "
                             f"negative, got {as_written(data[key])}", path=path)
        return value

    def mapping(key: str, default=None) -> dict:
        value = data.get(key, default) if default is not None else data[key]
        if not isinstance(value, dict):
            raise InputError(f"malformed difficulty model: {key!r} must be an object, got {as_written(value)}",
                             path=path)
        return value

    def weight(f: str) -> float:
        weights = mapping("weights")
        extra = [w for w in weights if w not in features]
        if extra:   # a weight the predictions would leave out
            raise InputError(f"malformed difficulty model: 'weights' gives {extra[0]!r}, which its 'features' do "
                             f"not name ({', '.join(features)})", path=path)
        if f not in weights:
            raise InputError(f"malformed difficulty model: 'weights' has no {f!r}, a feature it names", path=path)
        return number(f"the weight of {f!r}", weights[f])

    def whole(key: str) -> int:
        value = data[key]
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(f"malformed difficulty model: {key!r} must be a whole number, got {as_written(value)}",
                             path=path)
        return value

    if type(data.get("version")) is not int or data["version"] != 1:   # a later layout read as this one's (or true)
        raise InputError(f"difficulty model version {as_written(data.get('version'))}; this toolkit reads version 1 "
                         "(fit it again with this toolkit's ubongo-cp calibrate)", path=path)
    listed = data.get("features")
    if not isinstance(listed, list) or not listed or not all(isinstance(f, str) for f in listed):
        # a string would be read letter by letter, a number as a TypeError
        raise InputError("malformed difficulty model: 'features' must be a non-empty list of feature names, got "
                         f"{as_written(listed)}", path=path)
    try:
        features = tuple(listed)
        unknown = [f for f in features if f not in FEATURES]
        if unknown:
            raise InputError(f"unknown feature(s) {', '.join(unknown)} (known: {', '.join(FEATURES)})", path=path)
        twice = sorted({f for f in features if features.count(f) > 1}, key=FEATURES.index)
        if twice:   # its weight would enter every prediction as often
            raise InputError(f"malformed difficulty model: feature(s) named more than once: {', '.join(twice)}",
                             path=path)
        model = DifficultyModel(
            features=features, intercept=number("'intercept'", data["intercept"]),
            weights={f: weight(f) for f in features},
            intervals={k: (number(f"the interval of {k!r}", v[0]), number(f"the interval of {k!r}", v[1]))
                       for k, v in mapping("intervals").items()},
            players={str(k): number(f"the effect of player {k!r}", v) for k, v in mapping("players", {}).items()},
            r2=number("'r2'", data["r2"]), cv_r2=number("'cv_r2'", data["cv_r2"]),
            cv_rmse=spread("cv_rmse"), sigma=spread("sigma"),
            rows=whole("rows"), tasks=whole("tasks"), folds=whole("folds"),
            dropped=tuple(data.get("dropped", ())), source=dict(data.get("source", {})), name=Path(path).name)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        if isinstance(exc, InputError):
            raise
        raise InputError(f"malformed difficulty model: {type(exc).__name__} {exc}", path=path) from None
    problem = model.term_problem()
    if problem:
        raise InputError(f"implausible difficulty model: {problem}", path=path)
    return model


def read_times(path: str | os.PathLike) -> pd.DataFrame:
    """Read observed solve times: a CSV with columns ``card, side, face, seconds`` and optionally ``player``.

    Returns
    -------
    pandas.DataFrame
        Columns ``card`` (text, as written: ``"01"`` stays ``"01"``),
        ``side``, ``face`` (int), ``seconds`` (float > 0), ``player`` (text,
        ``""`` when the file has no such column) and ``line`` (the row's line
        in the file). A row of empty fields only (a spreadsheet's emptied
        row) is no timed solve.

    Raises
    ------
    InputError
        For a missing file or column, a row of more fields than the header
        line, or a row whose face is not a whole number >= 1 or whose
        seconds are not a finite number > 0, or a row without a player
        where others name one, naming the line.
    """
    import pandas as pd

    from .io import check_csv_rows, csv_record_lines, read_text

    text = read_text(path)
    check_csv_rows(text, path)
    lines = csv_record_lines(text)
    try:
        import io

        raw = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False, skipinitialspace=True)
    except (ValueError, pd.errors.ParserError) as exc:
        from .io import csv_problem

        problem, line = csv_problem(exc, text)
        raise InputError(f"not a CSV table: {problem}", path=path, line=line) from None
    return _times_rows(raw, path, lines=lines)


def _times_rows(raw: pd.DataFrame, path: str | os.PathLike | None = None, *, lines: Sequence[int] = ()
               ) -> pd.DataFrame:
    """Observed times as :func:`read_times` returns them, from a table of the values as written (a CSV file's
    text, or a DataFrame given to :func:`fit_difficulty`), each row checked as :func:`read_times` says.

    A row is named by its line of the file ``path`` (``lines``: the line of each row, else the header line's
    and then one per row), or, for a DataFrame (no ``path``), by its position (``row 1`` first).
    """
    import pandas as pd

    from .io import check_unique_columns

    raw = raw.copy()
    # A spreadsheet's header in capitals ("Card", "Seconds") names the same columns, where that is no other's name.
    names = [str(c).strip() for c in raw.columns]
    if path is None:   # a file's header line is checked as it is read
        check_unique_columns(names, where="the times table")
    lower = [n.lower() for n in names]
    known = {*TIME_COLUMNS, "player", "card_id"}
    raw.columns = [low if low in known and lower.count(low) == 1 else n for n, low in zip(names, lower)]
    if "card" not in raw.columns and "card_id" in raw.columns:
        raw = raw.rename(columns={"card_id": "card"})
    missing = [c for c in TIME_COLUMNS if c not in raw.columns]
    if missing:
        raise InputError(f"times table lacks column(s) {', '.join(missing)} (needs {', '.join(TIME_COLUMNS)}, "
                         "optionally player)", path=path, line=1 if path is not None else None,
                         argument=None if path is not None else "times")

    def fail(message: str, line: int, position: int):
        if path is None:   # a DataFrame: its rows by position
            raise InputError(f"row {position + 1}: {message}", argument="times")
        raise InputError(message, path=path, line=line)

    rows = []
    for i, r in enumerate(raw.to_dict("records")):
        r = {k: _cell_text(v) for k, v in r.items()}
        line = lines[i] if len(lines) == len(raw) else i + 2   # the line an editor shows (blank lines skipped)
        if not any(v.strip() for v in r.values()):
            continue      # a row of empty fields only (a spreadsheet's empty row) is no timed solve
        face, seconds = r["face"].strip(), r["seconds"].strip()
        if not face.isdigit() or int(face) < 1:
            fail(f"face {face!r} is not a whole number >= 1", line, i)
        try:
            value = float(seconds)
        except ValueError:
            value = math.nan
        if not (math.isfinite(value) and value > 0):
            fail(f"seconds {seconds!r} is not a number > 0", line, i)
        rows.append({"card": r["card"].strip(), "side": r["side"].strip(), "face": int(face), "seconds": value,
                     "player": r.get("player", "").strip(), "line": line, "position": i})
    if not rows:
        raise InputError("times table has no rows", path=path, argument=None if path is not None else "times")
    named = [r for r in rows if r["player"]]
    if named and len(named) < len(rows):   # an empty name would be one more player, taken as the reference
        blank = next(r for r in rows if not r["player"])
        first = f"line {named[0]['line']}" if path is not None else f"row {named[0]['position'] + 1}"
        fail(f"no player is named on this {'line' if path is not None else 'row'}, but {first} names one: name the "
             "player of every timed solve, or of none", blank["line"], blank["position"])
    return pd.DataFrame(rows).drop(columns="position")


def _cell_text(value) -> str:
    """A times table's value as the text a CSV file holds for it: a missing value empty, a whole float
    (a column of faces holding a missing value) as its digits."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def check_results(tasks: pd.DataFrame, path: str | os.PathLike | None = None) -> None:
    """Refuse a task table that lacks a column a fit reads (:data:`RESULT_COLUMNS`, :data:`RESULT_EITHER`), or
    gives a task twice (:func:`ubongo_cp.report.check_unique_tasks`: a time would be matched to one of the two).

    Raises
    ------
    InputError
        Naming ``path`` and every missing column, or the task given twice and its lines.
    """
    from .report import check_unique_tasks

    have = set(tasks.columns)
    missing = [c for c in RESULT_COLUMNS if c not in have]
    missing += [f"{first} (or {second})" for first, second in RESULT_EITHER if first not in have and second not in have]
    if missing:
        raise InputError(f"tasks table lacks column(s) {', '.join(missing)}, which calibrate reads", path=path)
    check_unique_tasks(tasks, path)


def fit_difficulty(times: pd.DataFrame | str | os.PathLike, tasks: pd.DataFrame | str | os.PathLike, *,
                   features: Sequence[str] = FEATURES, folds: int = 5, seed: int = 0) -> DifficultyModel:
    """Fit ln(solve time) to the features of the timed tasks (OLS, statsmodels), with cross-validation.

    Parameters
    ----------
    times : pandas.DataFrame or path
        Observed times (:func:`read_times`: ``card, side, face, seconds``,
        optional ``player``); a DataFrame is checked as the file is, its
        rows named by position (``row 1`` first).
    tasks : pandas.DataFrame or path
        The batch runner's task table for the deck the times are of (a
        ``tasks.parquet``/``tasks.csv`` or a batch output directory).
    features : sequence of str
        Features to fit (default all of :data:`FEATURES`); one with the same
        value in every row is left out.
    folds : int
        Cross-validation folds, by task (at most the number of tasks; at least 2).
    seed : int
        Seed of the assignment of tasks to folds.

    Returns
    -------
    DifficultyModel

    Raises
    ------
    InputError
        For times :func:`read_times` refuses, a results table that lacks a column the fit reads
        (:func:`check_results`), a timed task that is not in it (naming the line),
        a task that has no solution there, an unknown feature or one named twice, too few rows
        for the parameters (fewer than parameters + 5, or 10), or features
        that are collinear in these rows, or a fit with a term beyond +-:data:`MAX_TERM` (features nearly
        collinear, or times that are not seconds), which :func:`load_model` would refuse.
    """
    import numpy as np
    import pandas as pd

    from .cards import card_id_match
    from .report import KEY_COLUMNS, load_tasks, task_rows

    unknown = [f for f in features if f not in FEATURES]
    if unknown or not features:
        raise InputError(f"unknown feature(s) {', '.join(unknown) or '(none given)'} (known: {', '.join(FEATURES)})")
    twice = sorted({f for f in features if list(features).count(f) > 1}, key=FEATURES.index)
    if twice:
        raise InputError(f"feature(s) named more than once: {', '.join(twice)} (name each feature to fit once)")
    for name, value in (("times", times), ("tasks", tasks)):
        if not isinstance(value, (pd.DataFrame, str, os.PathLike)):   # not a TypeError from os.fspath
            raise InputError(f"{name} is a table (a pandas.DataFrame) or a file's path, got {type(value).__name__}")
    times_path = None if isinstance(times, pd.DataFrame) else os.fspath(times)
    results_path = None if isinstance(tasks, pd.DataFrame) else os.fspath(tasks)
    times = _times_rows(times) if isinstance(times, pd.DataFrame) else read_times(times)
    table_path = None
    if not isinstance(tasks, pd.DataFrame):
        from .report.tables import table_file

        table_path = table_file(os.fspath(tasks), "tasks")      # a batch directory's table: named in a refusal
        tasks = load_tasks(table_path, required=())
    elif all(c in tasks.columns for c in KEY_COLUMNS):   # read as a file is (a missing column: check_results)
        tasks = task_rows(tasks)
    check_results(tasks, table_path)
    # Every row names its task (task_rows: a row of empty fields is left out, a task's row lacking a key refused).
    index = {(str(c), str(s), int(f)): i for i, (c, s, f) in enumerate(zip(tasks["card_id"], tasks["side"],
                                                                           tasks["face"]))}
    # A spreadsheet turns card "08" into 8: a card number without its leading zeros is the batch's card of that
    # number when exactly one card id has it.
    by_number: dict[str, set[str]] = {}
    for c in tasks["card_id"]:
        by_number.setdefault(card_id_match(str(c)), set()).add(str(c))
    at = []
    for row in times.itertuples(index=False):
        key = (str(row.card), str(row.side), int(row.face))
        if key not in index and len(by_number.get(card_id_match(key[0]), ())) == 1:
            key = (next(iter(by_number[card_id_match(key[0])])), key[1], key[2])
        if key not in index:
            raise InputError(f"card {key[0]} side {key[1]} face {key[2]} is not in the batch results"
                             + (f" ({results_path})" if results_path else "") + _near_card(key[0], tasks),
                             path=times_path, line=int(row.line))
        i = index[key]
        if tasks["status"].iloc[i] != Status.SOLVED:
            raise InputError(f"card {key[0]} side {key[1]} face {key[2]} has no solution in the batch results "
                             f"(status {tasks['status'].iloc[i]})", path=times_path, line=int(row.line))
        at.append(i)
    feats = task_features(tasks.reset_index(drop=True)).iloc[at].reset_index(drop=True)[list(features)]
    bad = feats.isna().any(axis=1)
    if bad.any():
        first = int(np.flatnonzero(bad.to_numpy())[0])
        raise InputError(f"the task timed on this line lacks a feature in the batch results "
                         f"({', '.join(feats.columns[feats.iloc[first].isna()])})", path=times_path,
                         line=int(times["line"].iloc[first]))
    kept = [f for f in features if feats[f].nunique() > 1]
    dropped = tuple(f for f in features if f not in kept)
    players = sorted(set(times["player"]))
    players = players if len(players) > 1 else []
    n_params = 1 + len(kept) + max(len(players) - 1, 0)
    need = max(10, n_params + 5)
    if len(times) < need:
        raise InputError(f"too few timed solves: {len(times)} rows for {n_params} parameters (the intercept, "
                         f"{len(kept)} feature(s){' and player effects' if players else ''}); need at least {need}",
                         path=times_path)
    y = np.log(times["seconds"].to_numpy(dtype=float))
    design = _design(feats[kept], times["player"], players)
    if np.linalg.matrix_rank(design) < design.shape[1]:
        raise InputError(f"the features {', '.join(kept)} are collinear in these rows (one is a combination of the "
                         "others): fit fewer (--features)", path=times_path)
    from statsmodels.regression.linear_model import OLS

    fit = OLS(y, design).fit()
    ci = np.asarray(fit.conf_int(0.05))
    params = np.asarray(fit.params)
    weights = {f: float(params[1 + j]) for j, f in enumerate(kept)}
    intervals = {"intercept": (float(ci[0, 0]), float(ci[0, 1]))}
    intervals.update({f: (float(ci[1 + j, 0]), float(ci[1 + j, 1])) for j, f in enumerate(kept)})
    effects = {}
    if players:
        effects = {players[0]: 0.0}
        effects.update({p: float(params[1 + len(kept) + j]) for j, p in enumerate(players[1:])})
    mean_effect = float(np.mean(list(effects.values()))) if effects else 0.0
    # Cross-validation: folds by task, each predicted by a fit on the others.
    task_ids = pd.factorize(pd.Series(at))[0]
    n_tasks = int(task_ids.max()) + 1
    k = max(2, min(folds, n_tasks))
    order = np.random.default_rng(seed).permutation(n_tasks)
    fold_of_task = np.empty(n_tasks, dtype=int)
    fold_of_task[order] = np.arange(n_tasks) % k
    fold = fold_of_task[task_ids]
    predicted = np.full(len(y), np.nan)
    first_player = 1 + len(kept)   # the design's first player column
    for j in range(k):
        test = fold == j
        train = ~test
        # A player whose every solve is in this fold has no column in its training rows: least squares on the
        # columns the training rows have, and that player predicted as the average player of the fold's fit.
        present = design[train].any(axis=0)
        beta = np.zeros(design.shape[1])
        beta[present] = np.linalg.lstsq(design[train][:, present], y[train], rcond=None)[0]
        if not present[first_player:].all():
            fitted = np.concatenate(([0.0], beta[first_player:][present[first_player:]]))  # the first player's 0
            beta[first_player:][~present[first_player:]] = fitted.mean()
        predicted[test] = design[test] @ beta
    resid = y - predicted
    cv_r2 = float(1.0 - np.sum(resid ** 2) / np.sum((y - y.mean()) ** 2))
    model = DifficultyModel(
        features=tuple(kept), intercept=float(params[0]) + mean_effect, weights=weights, intervals=intervals,
        players=effects, r2=float(fit.rsquared), cv_r2=cv_r2, cv_rmse=float(np.sqrt(np.mean(resid ** 2))),
        sigma=float(np.sqrt(fit.scale)), rows=len(y), tasks=n_tasks, folds=k, dropped=dropped,
        source={"times": times_path or "", "results": results_path or ""})
    problem = model.term_problem()   # what load_model would refuse: never written
    if problem:
        raise InputError(f"the fit is no model of solve times: {problem}; check that the times are seconds, or fit "
                         "fewer features (--features): some are nearly collinear in these rows", path=times_path)
    return model



def _near_card(card: str, tasks: "pd.DataFrame | dict") -> str:
    """A hint naming the batch's card nearest to ``card`` (``01`` for ``1``), or ``""``.

    Examples
    --------
    >>> _near_card("1", {"card_id": ["01", "02"]})
    '; the batch has card 01'
    """
    import difflib

    cards = sorted({str(c) for c in tasks["card_id"]})
    if card in cards:
        return ""
    near = ([c for c in cards if c.lstrip("0") == card.lstrip("0")]
            or difflib.get_close_matches(card, cards, n=1, cutoff=0.6))
    return f"; the batch has card {near[0]}" if near else ""

def _design(feats: pd.DataFrame, player: pd.Series, players: list[str]) -> np.ndarray:
    """The design matrix: a column of ones, the features, one dummy per player after the first."""
    import numpy as np

    cols = [np.ones(len(feats))] + [feats[f].to_numpy(dtype=float) for f in feats.columns]
    cols += [(player.to_numpy() == p).astype(float) for p in players[1:]]
    return np.column_stack(cols)
