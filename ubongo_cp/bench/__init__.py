"""Benchmark any solver on any instances: suites, measured runs, checked answers, tables and plots.

``ubongo-cp bench`` and this package do the same::

    from ubongo_cp.bench import run_bench
    outcome = run_bench(["knuth", "pentominoes"], solvers=["dlx", "cpsat"],
                        externals=["dlx1=dlx1 m1 {first:t1}"], time_limit=30, repeats=3,
                        quick=True, out="out/bench")
    outcome.summary

The steps, one module each: :mod:`.suite` (suites: instances with a
question and the expected answer; the shipped ones), :mod:`.runner` (every
run in a process of its own, limited and measured from outside, in a
seeded interleaved order, resumable), :mod:`.worker` (a registered
solver's run), :mod:`.external` (external programs and their adapters),
:mod:`.check` (every answer checked) and :mod:`.report` (the tidy table,
the summary with PAR-2, the speed-up table, the cactus and scatter plots).
:mod:`.instances` generates the shipped Knuth-format instances.

Importing this package imports none of its modules: a solver process
(:mod:`.worker`) starts without pandas or matplotlib.
"""

from __future__ import annotations

import importlib

__all__ = ["run_bench", "BenchOutcome", "load_suite", "shipped_suites", "Suite", "Task", "QUESTIONS",
           "ExternalSolver", "parse_external", "ADAPTERS", "measure", "Measurement", "read_table",
           "write_report", "summary_table", "speedup_table", "cactus_figure", "scatter_figure", "COLUMNS"]

_HOME = {"run_bench": "runner", "BenchOutcome": "runner", "measure": "runner", "Measurement": "runner",
         "load_suite": "suite", "shipped_suites": "suite", "Suite": "suite", "Task": "suite", "QUESTIONS": "suite",
         "ExternalSolver": "external", "parse_external": "external", "ADAPTERS": "external",
         "read_table": "report", "write_report": "report", "summary_table": "report", "speedup_table": "report",
         "cactus_figure": "report", "scatter_figure": "report", "COLUMNS": "report"}


def __getattr__(name: str):
    if name in _HOME:
        return getattr(importlib.import_module(f"{__name__}.{_HOME[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *__all__])
