"""The benchmark's outputs: the tidy run table, the summary with PAR-2, the speed-up table and the plots.

Every output is rebuilt from the table of runs (one row per task x solver
x repeat, columns :data:`COLUMNS`), itself read from the journal
``runs.jsonl`` of an output directory; ``ubongo-cp bench --report DIR``
(:func:`write_report`) rebuilds them without running anything.

Scores follow the SAT competitions' conventions: a run's *score* is its
time (CPU time by default, the measure the time limit is on, or wall time)
when it answered and the answer is not wrong, else twice the time limit
(PAR-2). An instance's score is the
median score of its repeats; it is *solved* when that median is within the
time limit. PAR-2 of a solver is the mean score over the instances it takes:
a run the solver refused before any search (status ``unsupported``, e.g.
colours given to the bitboard solver) is counted apart and scores nothing.

Plots: the *cactus* plot (instances solved against the time each took,
sorted, one line per solver, one panel per suite) and the *scatter* plot of
each solver against the baseline (log-log, one point per instance,
failures on the border beyond the time limit, wrong answers marked).

References
----------
.. [1] The SAT Competition's rules and reports (PAR-2, cactus plots),
   https://satcompetition.github.io/.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

from ..reading import refuse_empty_path
from ..status import Status

__all__ = ["COLUMNS", "TABLE", "JOURNAL", "journal_rows", "journal_runs", "is_run", "read_table", "failed_checks",
           "run_scores", "instance_scores", "summary_table",
           "speedup_table", "cactus_figure", "scatter_figure", "write_report", "METRICS", "REPORT_FILES"]

#: The tidy table's columns, in order (documented on the output tables page).
COLUMNS = ["suite", "instance", "question", "solver", "repeat", "status", "wrong", "disagree", "check", "count", "subsets",
           "expected", "expected_subsets", "verified", "solutions_checked", "wall_s", "cpu_s", "user_s", "sys_s", "max_rss_mb",
           "solve_s", "exit_code", "signal", "stopped", "time_limit_s", "wall_limit_s", "memory_limit_mb", "load1", "started",
           "order", "kind", "command", "k", "digest", "solver_id", "answer_digest", "invalid", "error", "counters"]
#: The journal of an output directory: one JSON line per finished run, with its check (:func:`journal_runs`).
JOURNAL = "runs.jsonl"
#: The table's file names in an output directory (Parquet and the same as CSV).
TABLE = ("runs.parquet", "runs.csv")
#: Every file a report writes into an output directory (the tables, the summary, the speed-ups, the plots).
REPORT_FILES = (*TABLE, "summary.csv", "speedup.csv", "summary.md", "cactus.png", "scatter.png")


def check_baseline(baseline: str | None, solvers) -> None:
    """Refuse a ``baseline`` that is not one of ``solvers`` (those of the runs); None passes.

    Raises
    ------
    InputError
        Naming the baseline and the solvers.
    """
    from ..errors import InputError

    if baseline is not None and baseline not in solvers:
        raise InputError(f"baseline {baseline!r} is not a solver of these runs ({', '.join(solvers)})")


def watched(name: str) -> bool:
    """Whether the benchmark's output folder records what ``name`` holds, so that one edited since (an annotated
    summary, a retouched plot) is never replaced: the summary and the plots, not the tables of runs (data, rebuilt
    from the journal)."""
    return name in REPORT_FILES and name not in TABLE
#: Time columns a report can score by.
METRICS = {"wall": "wall_s", "cpu": "cpu_s"}
_INTS = ("repeat", "count", "subsets", "expected", "expected_subsets", "solutions_checked", "exit_code", "signal",
         "order", "k")
_FLOATS = ("wall_s", "cpu_s", "user_s", "sys_s", "max_rss_mb", "solve_s", "time_limit_s", "wall_limit_s",
           "memory_limit_mb", "load1")
_KEY = ["suite", "instance", "question", "solver", "repeat"]


def journal_rows(path: str | os.PathLike) -> list[dict]:
    """The runs of a journal, the last row of each (suite, instance, question, solver, repeat), without their
    checks (:func:`journal_runs`): a run whose last row fails its check is left out, and so is a line that
    is not a run; a row of a journal written before rows carried a check is read as it is.

    Raises
    ------
    InputError
        When ``path`` is a link (:func:`~ubongo_cp.outputs.folder_journal`).
    """
    return [row for row, checked in journal_runs(path).values() if checked is not False]


def journal_runs(path: str | os.PathLike) -> dict[tuple, tuple[dict, bool | None]]:
    """(suite, instance, question, solver, repeat) -> the last row of the run in a journal (without its check)
    and whether its check matches its content (:func:`~ubongo_cp.io.row_check`): True, False for a row
    changed after it was written, None for one written without a check.

    A line torn by a crash is dropped (and cut from the file, so that new
    rows start on a line of their own), and so is a line that is not a run
    (:func:`is_run`: damaged, a key missing or a value of the wrong type):
    a resumed benchmark makes that run again, and so it does a run whose row
    fails its check or has none (:func:`~.runner.run_bench`).

    Raises
    ------
    InputError
        When ``path`` is a link (:func:`~ubongo_cp.outputs.folder_journal`).
    """
    from ..io import read_journal, row_check
    from ..outputs import folder_journal

    path = folder_journal(path)
    if not path.exists():
        return {}
    rows: dict[tuple, tuple[dict, bool | None]] = {}
    for row in read_journal(path, "the benchmark journal (a file)"):
        if is_run(row):
            check = row.pop("check", None)
            checked = None if check is None else check == row_check(row, JOURNAL)
            rows[tuple(row[k] for k in _KEY)] = (row, checked)
    return rows


#: The text columns of a journal row (each a str or null; the key's and ``digest``, ``solver_id`` and ``status``
#: always a str).
_TEXTS = ("suite", "instance", "question", "solver", "status", "kind", "command", "digest", "solver_id",
          "answer_digest", "invalid", "error", "counters", "started", "stopped")


def is_run(row) -> bool:
    """Whether a journal line (parsed) is a run as :func:`~.runner.run_bench` writes it: an object whose key
    (suite, instance, question, solver: text; repeat: a whole number from 1), ``digest``, ``solver_id`` and
    ``status`` (a :class:`~ubongo_cp.status.Status`) are there, and each other column is missing, null or of
    its type (whole numbers, numbers >= 0 and finite for the times, sizes and limits, text, ``verified`` true or
    false)."""
    def whole(v) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    if not isinstance(row, dict):
        return False
    if not all(isinstance(row.get(k), str) for k in (*_KEY[:4], "digest", "solver_id", "status")):
        return False
    if not (whole(row.get("repeat")) and row["repeat"] >= 1) or row["status"] not in {s.value for s in Status}:
        return False
    def measure(v) -> bool:   # a time, a memory size, a limit or a load: a number >= 0 (no NaN, no Infinity)
        return (whole(v) or isinstance(v, float)) and 0 <= v < math.inf

    return (all(row.get(k) is None or whole(row[k]) for k in _INTS)
            and all(row.get(k) is None or measure(row[k]) for k in _FLOATS)
            and all(row.get(k) is None or isinstance(row[k], str) for k in _TEXTS)
            and (row.get("verified") is None or isinstance(row["verified"], bool)))


def failed_checks(table) -> tuple[list[str], list[str]]:
    """The runs of ``table`` judged wrong and those whose solvers disagree, one line each
    (``SOLVER on SUITE INSTANCE (QUESTION), repeat R: CHECK``), as the benchmark lists them at its end."""
    wrong, disagree = ([f"{r.solver} on {r.suite} {r.instance} ({r.question}), repeat {r.repeat}: {r.check}"
                        for r in table[table[column]].itertuples()] for column in ("wrong", "disagree"))
    return wrong, disagree


def read_table(out: str | os.PathLike):
    """The table of runs of an output directory, checked (:func:`.check.finalize`) and sorted.

    Read from the journal when there is one, else from ``runs.parquet`` or
    ``runs.csv``.

    Raises
    ------
    InputError
        When the directory holds none of them, or a journal of which no line is a run.
    """
    import pandas as pd

    from ..errors import InputError
    from .check import finalize

    out = Path(out)
    rows = journal_rows(out / "runs.jsonl")
    if rows:   # as the rows hold them: a count beyond 64 bits must not pass through a float column
        table = pd.DataFrame(rows, dtype=object)
    elif (out / TABLE[0]).exists():
        table = pd.read_parquet(out / TABLE[0])
    elif (out / TABLE[1]).exists():   # the counts as text: one beyond 64 bits is read exactly
        table = pd.read_csv(out / TABLE[1], keep_default_na=True, dtype=dict.fromkeys(_INTS, str))
    elif (out / "runs.jsonl").is_file() and (out / "runs.jsonl").read_bytes().strip():   # no line of it is a run
        raise InputError("holds no run that can be read: not a journal of `ubongo-cp bench`", path=out / "runs.jsonl")
    else:
        raise InputError("no benchmark runs here (runs.jsonl, runs.parquet or runs.csv)", path=out)
    return finalize(_typed(table))


def _typed(table):
    import pandas as pd

    for col in COLUMNS:
        if col not in table:
            table[col] = None
    table = table[COLUMNS].copy()
    for col in _INTS:
        table[col] = _int_column(table[col])
    for col in _FLOATS:
        table[col] = pd.to_numeric(table[col], errors="coerce").astype(float)
    for col in ("suite", "instance", "question", "solver", "status", "kind", "command", "digest", "solver_id",
                "answer_digest", "invalid", "error", "counters", "started", "check", "stopped"):
        table[col] = table[col].astype(object).where(table[col].notna(), None)
    table["verified"] = table["verified"].astype("boolean")
    for col in ("wrong", "disagree"):
        table[col] = table[col].astype(object).where(table[col].notna(), False).astype(bool)
    return table.sort_values(_KEY, kind="stable").reset_index(drop=True)


def _int_column(values):
    """A column of whole numbers (counts, codes) as ``Int64``, or, when one is beyond 64 bits (a count of
    tilings or of a model counter can be), as Python integers (``object``); a cell that is no whole number is
    missing."""
    import numpy as np
    import pandas as pd

    def whole(v):
        if v is None or isinstance(v, (bool, np.bool_)):
            return None
        if isinstance(v, (int, np.integer)):
            return int(v)
        if isinstance(v, str):   # "12", or "12.0" as a table written with floats holds it
            try:
                return int(v.strip())
            except ValueError:
                try:
                    v = float(v)
                except ValueError:
                    return None
        if isinstance(v, (float, np.floating)) and float(v).is_integer():
            return int(v)
        return None   # NaN, pd.NA, anything else

    ints = [whole(v) for v in values]
    if all(v is None or -2 ** 63 <= v < 2 ** 63 for v in ints):
        return pd.Series(pd.array(ints, dtype="Int64"), index=values.index)
    return pd.Series(ints, index=values.index, dtype=object)


def _for_files(table):
    """``table`` as written to ``runs.parquet`` and ``runs.csv``: a column of whole numbers beyond 64 bits
    (:func:`_int_column`) as decimal text, which both formats hold exactly."""
    big = [col for col in _INTS if col in table and table[col].dtype == object]
    if not big:
        return table
    return table.assign(**{col: table[col].map(lambda v: None if v is None else str(v)) for col in big})


def run_scores(table, metric: str = "cpu"):
    """Each run's PAR-2 score (seconds): its time when it answered and is neither wrong nor disagrees with another
    solver (``disagree``), else 2 x its time limit.

    A run the solver refused (status ``unsupported``) has no score (NaN).
    """
    column = METRICS[metric]
    ok = table["status"].isin([Status.SOLVED.value, Status.NO_SOLUTION.value]) & ~table["wrong"] & ~table["disagree"]
    scores = table[column].where(ok & table[column].notna(), 2 * table["time_limit_s"])
    return scores.mask(table["status"] == Status.UNSUPPORTED.value)


def instance_scores(table, metric: str = "cpu"):
    """One row per suite, instance, question and solver: ``score`` (median over repeats), ``solved``, ``wrong``.

    The instances a solver refused (status ``unsupported``) have no row for it.
    """
    t = table.assign(score=run_scores(table, metric))
    t = t[t["status"] != Status.UNSUPPORTED.value]
    g = t.groupby(["suite", "instance", "question", "solver"], sort=False)
    out = g.agg(score=("score", "median"), limit=("time_limit_s", "max"), wrong=("wrong", "any"),
                runs=("score", "size")).reset_index()
    out["solved"] = (out["score"] <= out["limit"]) & ~out["wrong"]
    return out


def summary_table(table, metric: str = "cpu"):
    """Per suite and solver: instances, solved, wrong, failures, median and PAR-2 score, medians of the measures.

    Columns: ``suite, solver, instances`` (the instances the solver takes),
    ``unsupported`` (the instances it refused before any search, left out of
    every other column), ``solved, wrong, disagree`` (runs answering
    differently from another solver, none of them proved wrong),
    ``timeouts, memouts, errors, median_s, par2_s`` (scores,
    :func:`run_scores`), ``median_cpu_s,
    median_wall_s, median_solve_s`` (over the runs that answered),
    ``max_rss_mb`` (largest peak of a run). Ordered by suite, then PAR-2.
    """
    import pandas as pd

    scores = instance_scores(table, metric)
    rows = []
    for (suite, solver), runs in table.groupby(["suite", "solver"], sort=False):
        inst = scores[(scores["suite"] == suite) & (scores["solver"] == solver)]
        refused = runs["status"] == Status.UNSUPPORTED.value
        unsupported = runs[refused].groupby(["instance", "question"]).ngroups
        runs = runs[~refused]
        answered = runs[runs["status"].isin([Status.SOLVED.value, Status.NO_SOLUTION.value]) & ~runs["wrong"]]
        rows.append({
            "suite": suite, "solver": solver, "instances": len(inst), "unsupported": unsupported,
            "solved": int(inst["solved"].sum()),
            "wrong": int(runs["wrong"].sum()), "disagree": int(runs["disagree"].sum()),
            "timeouts": int((runs["status"] == Status.TIMEOUT.value).sum()),
            "memouts": int((runs["status"] == Status.MEMOUT.value).sum()),
            "errors": int((runs["status"] == Status.ERROR.value).sum()),
            "median_s": float(inst["score"].median()) if len(inst) else math.nan,
            "par2_s": float(inst["score"].mean()) if len(inst) else math.nan,
            "median_cpu_s": float(answered["cpu_s"].median()) if len(answered) else math.nan,
            "median_wall_s": float(answered["wall_s"].median()) if len(answered) else math.nan,
            "median_solve_s": float(answered["solve_s"].median()) if answered["solve_s"].notna().any() else math.nan,
            "max_rss_mb": float(runs["max_rss_mb"].max()) if runs["max_rss_mb"].notna().any() else math.nan,
        })
    out = pd.DataFrame(rows, columns=["suite", "solver", "instances", "unsupported", "solved", "wrong", "disagree",
                                      "timeouts",
                                      "memouts", "errors", "median_s", "par2_s", "median_cpu_s", "median_wall_s",
                                      "median_solve_s", "max_rss_mb"])
    return out.sort_values(["suite", "par2_s"], kind="stable").reset_index(drop=True)


def speedup_table(table, baseline: str, metric: str = "cpu"):
    """Speed-up of every solver over ``baseline``, per suite, on the instances both solved.

    The speed-up on an instance is the baseline's score divided by the
    solver's (medians over repeats; above 1: faster than the baseline).
    Columns: ``suite, solver, instances, median, geomean, q25, q75, min, max``.
    """
    import numpy as np
    import pandas as pd

    scores = instance_scores(table, metric)
    scores = scores[scores["solved"]]
    base = scores[scores["solver"] == baseline].set_index(["suite", "instance", "question"])["score"]
    rows = []
    for (suite, solver), g in scores[scores["solver"] != baseline].groupby(["suite", "solver"], sort=False):
        mine = g.set_index(["suite", "instance", "question"])["score"]
        both = base.index.intersection(mine.index)
        ratio = (base[both] / mine[both]).replace([np.inf, -np.inf], np.nan).dropna()
        ratio = ratio[ratio > 0]
        if not len(ratio):
            rows.append({"suite": suite, "solver": solver, "instances": 0})
            continue
        rows.append({"suite": suite, "solver": solver, "instances": len(ratio), "median": float(ratio.median()),
                     "geomean": float(np.exp(np.log(ratio).mean())), "q25": float(ratio.quantile(0.25)),
                     "q75": float(ratio.quantile(0.75)), "min": float(ratio.min()), "max": float(ratio.max())})
    return pd.DataFrame(rows, columns=["suite", "solver", "instances", "median", "geomean", "q25", "q75", "min",
                                       "max"])


def _pyplot():
    import matplotlib

    if matplotlib.get_backend().lower() not in ("agg", "module://matplotlib_inline.backend_inline"):
        matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def cactus_figure(table, metric: str = "cpu"):
    """Cactus plot: for each solver, its solved instances sorted by time (x: instances solved, y: seconds, log).

    One panel per suite; the dashed line is the time limit. Returns a matplotlib Figure.
    """
    import numpy as np

    plt = _pyplot()
    scores = instance_scores(table, metric)
    suites = list(dict.fromkeys(scores["suite"]))
    fig, axes = plt.subplots(1, len(suites), figsize=(4.6 * len(suites), 3.9), squeeze=False)
    label = "wall time" if metric == "wall" else "CPU time"
    for ax, suite in zip(axes[0], suites):
        sub = scores[scores["suite"] == suite]
        ax.set_prop_cycle(color=plt.cm.tab20.colors)
        n = sub.groupby(["instance", "question"]).ngroups
        for solver, g in sub.groupby("solver", sort=False):
            times = np.sort(g.loc[g["solved"], "score"].to_numpy())
            if len(times):
                ax.plot(np.arange(1, len(times) + 1), np.maximum(times, 1e-4), marker=".", markersize=3,
                        label=f"{solver} ({len(times)})")
        ax.axhline(float(sub["limit"].max()), color="grey", linestyle="--", linewidth=0.8)
        ax.set_yscale("log")
        ax.set_xlim(0, n + 1)
        ax.set_xlabel("instances solved")
        ax.set_ylabel(f"{label} per instance (s)")
        ax.set_title(f"{suite} ({n} instances)")
        ax.grid(True, alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def scatter_figure(table, baseline: str, metric: str = "cpu"):
    """Each solver against ``baseline``: one point per instance, log-log; failures on the border.

    A point above the diagonal is an instance the solver took longer on.
    An instance a solver did not solve (time-out, memory-out, error, wrong)
    is drawn on the border line beyond the time limit; a wrong answer is a
    red cross. Colours are the suites. Returns a matplotlib Figure.
    """
    plt = _pyplot()
    scores = instance_scores(table, metric)
    others = [s for s in dict.fromkeys(scores["solver"]) if s != baseline]
    if not others:
        raise ValueError("a scatter plot needs a second solver besides the baseline")
    cols = min(3, len(others))
    rows = math.ceil(len(others) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 4.0 * rows), squeeze=False)
    limit = float(scores["limit"].max())
    border = limit * 2
    low = max(1e-4, float(scores["score"].min()) / 2)
    base = scores[scores["solver"] == baseline].set_index(["suite", "instance", "question"])
    suites = list(dict.fromkeys(scores["suite"]))
    colours = dict(zip(suites, plt.cm.tab10.colors))
    label = "wall time" if metric == "wall" else "CPU time"
    for ax, solver in zip(axes.flat, others):
        mine = scores[scores["solver"] == solver].set_index(["suite", "instance", "question"])
        both = base.index.intersection(mine.index)
        for suite in suites:
            idx = [i for i in both if i[0] == suite]
            if not idx:
                continue
            x = [base.loc[i, "score"] if base.loc[i, "solved"] else border for i in idx]
            y = [mine.loc[i, "score"] if mine.loc[i, "solved"] else border for i in idx]
            ax.scatter([max(v, low) for v in x], [max(v, low) for v in y], s=14, alpha=0.8,
                       color=colours[suite], label=suite)
            bad = [(max(xx, low), max(yy, low)) for i, xx, yy in zip(idx, x, y)
                   if mine.loc[i, "wrong"] or base.loc[i, "wrong"]]
            if bad:
                ax.scatter(*zip(*bad), marker="x", s=40, color="red")
        ax.plot([low, border], [low, border], color="grey", linewidth=0.8)
        ax.axhline(limit, color="grey", linestyle="--", linewidth=0.6)
        ax.axvline(limit, color="grey", linestyle="--", linewidth=0.6)
        ax.text(border, low, " not solved", rotation=90, fontsize=6, color="grey", ha="center", va="bottom")
        ax.text(low, border, "not solved", fontsize=6, color="grey", ha="left", va="center")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(low, border * 1.3)
        ax.set_ylim(low, border * 1.3)
        ax.set_xlabel(f"{baseline}: {label} (s)")
        ax.set_ylabel(f"{solver}: {label} (s)")
        ax.set_title(f"{solver} vs {baseline}")
        ax.grid(True, alpha=0.3)
        if ax.get_legend_handles_labels()[0]:   # no instance solved by both yet (an interrupted run): no legend
            ax.legend(fontsize=7, loc="upper left")
    for ax in list(axes.flat)[len(others):]:
        ax.set_visible(False)
    fig.tight_layout()
    return fig


def write_report(out: str | os.PathLike, *, table=None, baseline: str | None = None, metric: str = "cpu",
                 folder=None):
    """Write the table, summary, speed-up table and plots of an output directory.

    The directory is opened as an :class:`~ubongo_cp.outputs.OutputFolder` of ``bench`` (locked; a file
    of :data:`REPORT_FILES` there that an earlier benchmark did not write is refused before anything is
    written), unless ``folder``, the benchmark's folder already open, is given.

    Parameters
    ----------
    out : path
        The output directory (``runs.jsonl`` or a table in it).
    table : pandas.DataFrame, optional
        The runs (default: :func:`read_table` of ``out``).
    baseline : str, optional
        The solver the others are compared with (default: the first solver
        named when the runs were made).
    metric : {"cpu", "wall"}
        The time the scores use (default CPU time, the measure the time limit is on).

    Returns
    -------
    summary : pandas.DataFrame
        :func:`summary_table`.
    files : list of Path
        ``runs.parquet``, ``runs.csv``, ``summary.csv``, ``summary.md``,
        ``cactus.png`` and, with two solvers or more, ``speedup.csv`` and
        ``scatter.png``.

    Raises
    ------
    InputError
        For an unknown metric, a baseline that is not a solver of the table, or a file in the way.
    """
    from ..errors import InputError

    if metric not in METRICS:
        raise InputError(f"unknown metric {metric!r}; choose one of {', '.join(METRICS)}")
    refuse_empty_path(out, "the output folder")   # not the folder Python runs in
    out = Path(out)
    if folder is None:
        from ..outputs import OutputFolder
        from .runner import earlier_bench_files

        if not out.is_dir():
            raise InputError("no benchmark runs here (not a directory)", path=out)
        if table is None:
            table = read_table(out)  # the runs (a folder without any is refused here)

        def adopt(folder: Path) -> list[str]:  # the tables the runs were read from are rebuilt in place
            return [*earlier_bench_files(folder), *(name for name in TABLE if (folder / name).is_file())]

        with OutputFolder(out, "bench", adopt=adopt, guarded=watched) as opened:
            return write_report(out, table=table, baseline=baseline, metric=metric, folder=opened)
    folder.claim(REPORT_FILES)
    return _write_report(out, table, baseline, metric)


def _write_report(out: Path, table, baseline: str | None, metric: str):
    """:func:`write_report` once the folder is open and its files claimed."""
    from ..io import atomic_path, atomic_write_text, figure_metadata, write_table

    if table is None:
        table = read_table(out)
    from .runner import read_config

    named = [s for s in read_config(out).get("solvers", []) if s in set(table["solver"])]
    solvers = list(dict.fromkeys([*named, *table["solver"]]))
    check_baseline(baseline, solvers)
    baseline = baseline or (solvers[0] if solvers else "")
    files = [write_table(_for_files(table), out / TABLE[0]), write_table(_for_files(table), out / TABLE[1])]
    if table.empty:
        return summary_table(table, metric), files
    summary = summary_table(table, metric)
    files.append(write_table(summary, out / "summary.csv"))
    speed = speedup_table(table, baseline, metric) if len(solvers) > 1 else None
    if speed is not None:
        files.append(write_table(speed, out / "speedup.csv"))
    atomic_write_text(out / "summary.md", _markdown(table, summary, speed, baseline, metric))
    files.append(out / "summary.md")
    plt = _pyplot()
    figures = [("cactus.png", cactus_figure(table, metric))]
    if len(solvers) > 1:
        figures.append(("scatter.png", scatter_figure(table, baseline, metric)))
    for name, fig in figures:
        with atomic_path(out / name) as tmp:
            fig.savefig(tmp, dpi=110, format="png", metadata=figure_metadata("png"))
        plt.close(fig)
        files.append(out / name)
    return summary, files


def _markdown(table, summary, speed, baseline, metric) -> str:
    started = table["started"].dropna()
    loads = table["load1"].dropna()
    limits = table["time_limit_s"].dropna().unique()
    walls = table["wall_limit_s"].dropna().unique()
    memory = table["memory_limit_mb"].dropna().unique()
    lines = ["# Benchmark", ""]
    lines.append(f"- {len(table)} runs: {table['solver'].nunique()} solvers, "
                 f"{table.groupby(['suite', 'instance', 'question']).ngroups} tasks in "
                 f"{', '.join(dict.fromkeys(table['suite']))}; up to {int(table['repeat'].max())} repeats")
    if len(started):
        lines.append(f"- runs made {min(started)} to {max(started)} (UTC) on {os.cpu_count()} cores")
    if len(loads):
        lines.append(f"- load average (1 min) at the start of the runs: {loads.min():.2f} to {loads.max():.2f}, "
                     f"median {loads.median():.2f}")
    lines.append(f"- limits per run: {', '.join(f'{v:g}' for v in limits)} s of CPU time, "
                 f"{', '.join(f'{v:g}' for v in walls) or '-'} s of wall time, memory "
                 f"{', '.join(f'{v:g} MB' for v in memory) if len(memory) else 'unlimited'}")
    lines += ["", f"Scores are {'wall' if metric == 'wall' else 'CPU'} time; a run that failed or answered wrong "
              "scores twice the time limit (PAR-2); an instance's score is the median of its repeats, solved when "
              "within the limit. An instance a solver does not take (refused before any search: `unsupported`) "
              "is left out of its scores and counts. CPU time is user + system, of the solver's whole process "
              "tree; every time is of the whole process (start-up, reading the instance, search); "
              "`median_solve_s` is the CPU time of the search alone, measured inside a registered solver's "
              "process.", ""]
    lines.append(summary.to_markdown(index=False, floatfmt=".4g"))
    if speed is not None:
        lines += ["", f"## Speed-up against {baseline}", "",
                  "The baseline's score divided by the solver's on each instance both solved (above 1: faster).",
                  "", speed.to_markdown(index=False, floatfmt=".3g")]
    wrong = table[table["wrong"]]
    lines += ["", "## Answers", ""]
    if wrong.empty:
        lines.append("Every answer was checked: no wrong answer.")
    else:
        lines.append(f"**{len(wrong)} WRONG ANSWERS** (not counted as solved):")
        lines.append("")
        lines += [f"- {r.solver} on {r.suite} {r.instance} ({r.question}), repeat {r.repeat}: {r.check}"
                  for r in wrong.itertuples()]
    disagree = table[table["disagree"]]
    if len(disagree):
        lines += ["", f"**{len(disagree)} ANSWERS IN DISAGREEMENT** (no expected answer, no majority, no verified "
                  "solution to decide; none is counted as solved):", ""]
        lines += [f"- {r.solver} on {r.suite} {r.instance} ({r.question}), repeat {r.repeat}: {r.check}"
                  for r in disagree.itertuples()]
    refused = table[table["status"] == Status.UNSUPPORTED.value].drop_duplicates(["suite", "instance", "question",
                                                                                 "solver"])
    if len(refused):
        lines += ["", "## Instances a solver does not take", "",
                  "Refused before any search; left out of that solver's scores, PAR-2 and solved counts:", ""]
        lines += [f"- {r.solver} on {r.suite} {r.instance} ({r.question}): {r.error}" for r in refused.itertuples()]
    unverified = table[(table["verified"] == False) & ~table["wrong"] & ~table["disagree"]]  # noqa: E712 - nullable boolean
    if len(unverified):
        lines += ["", f"{len(unverified)} runs gave no solution to check (their counts are compared only)."]
    return "\n".join(lines) + "\n"
