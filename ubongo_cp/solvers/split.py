"""CP-SAT enumeration split into independent sub-problems, solved concurrently.

CP-SAT enumerates all solutions with one worker only [1]_, so the
enumeration is parallelised by hand [2]_: the *pivot* is the most
constrained piece type with one copy (fewest placements); the most
constrained region cell when pieces are optional (a piece may then be
unused) or every type has copies (a solution uses several placements of
the type: the sub-problems would overlap). Sub-problem
``i`` fixes the pivot's placement ``i``; the sub-problems partition the
solutions, so their counts add up. Each sub-problem is one single-worker
CP-SAT solve of the model of :mod:`.cpsat` with one variable fixed to 1,
with that module's parameters, collector and outcome.

References
----------
.. [1] L. Perron (OR-Tools), google/or-tools issues #1186 and #1208:
   parallel enumeration without duplicates is not planned.
.. [2] L. Perron, google/or-tools issue #1213: decompose the problem
   logically yourself rather than ask the solver to.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from ..cover import ExactCoverInstance
from ..cpsat_runtime import run_solver, stop_active_solvers
from .base import item_bounds
from .cpsat import SolutionCollector, build_model, new_solver, outcome

__all__ = ["CpSatSplitBackend", "pivot_options"]


@dataclass
class CpSatSplitBackend:
    """CP-SAT on one sub-problem per pivot placement (see the module docstring).

    Follows the :class:`~ubongo_cp.solvers.base.Backend` protocol.

    Attributes
    ----------
    jobs : int
        Concurrent sub-problems.
    executor : {"thread", "process"}
        Threads (CP-SAT releases the GIL while it searches; callbacks take a
        lock) or a process pool (each worker builds the model from the
        pickled instance; solutions come back when its sub-problems end).
    presolve : bool
        CP-SAT presolve of each sub-problem on/off.
    cardinality : int, optional
        Exactly this many placements (see :func:`.cpsat.build_model`).
    """

    jobs: int = 2
    executor: str = "thread"
    presolve: bool = True
    cardinality: int | None = None
    name: str = "cpsat-split"

    def run(self, instance, on_solution, *, time_limit=None, first_only=False):
        """Backend protocol (see :class:`~ubongo_cp.solvers.base.Backend`)."""
        pivots = pivot_options(instance)
        deadline = None if time_limit is None else time.perf_counter() + float(time_limit)
        totals = {"branches": 0, "conflicts": 0, "subproblems": len(pivots), "executor": self.executor}
        if self.executor == "process":
            return self._run_processes(instance, pivots, on_solution, deadline, first_only, totals)
        model, _ = build_model(instance, cardinality=self.cardinality)
        n_options = instance.n_options
        stop = threading.Event()
        lock = threading.Lock()
        results: list[bool] = []

        def work(o: int) -> None:
            remaining = None if deadline is None else deadline - time.perf_counter()
            if stop.is_set() or (remaining is not None and remaining <= 0):
                results.append(False)
                return
            exhausted, stats = _solve_pinned(model, n_options, o, remaining, first_only, on_solution, self.presolve,
                                             stop, lock)
            with lock:
                totals["branches"] += stats["branches"]
                totals["conflicts"] += stats["conflicts"]
                results.append(exhausted)

        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            try:
                list(pool.map(work, pivots))
            except KeyboardInterrupt:  # stop the running sub-problems, skip the rest
                stop.set()
                stop_active_solvers()
                raise
        exhausted = all(results) and not stop.is_set()
        return exhausted, totals

    def _run_processes(self, instance, pivots, on_solution, deadline, first_only, totals):
        from concurrent.futures import ProcessPoolExecutor, as_completed

        exhausted = True
        stopped = False
        with ProcessPoolExecutor(max_workers=self.jobs) as pool:
            remaining = None if deadline is None else max(0.0, deadline - time.perf_counter())
            chunks = [pivots[i::self.jobs] for i in range(self.jobs)]
            futures = [pool.submit(_solve_pinned_collect, instance, chunk, remaining, first_only, self.presolve,
                                   self.cardinality) for chunk in chunks if chunk]
            try:
                for fut in as_completed(futures):
                    done, stats, solutions = fut.result()
                    totals["branches"] += stats["branches"]
                    totals["conflicts"] += stats["conflicts"]
                    exhausted &= done
                    for sol in solutions:
                        if not on_solution(sol):
                            stopped = True
                            break
                    if stopped:
                        for f in futures:
                            f.cancel()
                        break
            except KeyboardInterrupt:
                # End the workers' searches so that the pool shuts down at once
                # instead of waiting for them (their results are not wanted).
                for proc in list((getattr(pool, "_processes", None) or {}).values()):
                    if proc.is_alive():
                        proc.terminate()
                raise
        return exhausted and not stopped, totals


def pivot_options(instance: ExactCoverInstance) -> list[int | None]:
    """Options of the most constrained single-copy piece type (or cell, see the module docstring), in id order.

    Only a cell (a primary item) covered exactly once can be a pivot: with
    other bounds (Knuth's DLX3) a solution may use none or several of an
    item's options. When no item qualifies the list is ``[None]``: one
    sub-problem, the whole instance.

    Examples
    --------
    >>> from ubongo_cp.pieces import load_pieces, Region
    >>> from ubongo_cp.cover import build_instance
    >>> inst = build_instance(load_pieces("pentominoes").pieces, Region.rectangle(6, 10))
    >>> len(pivot_options(inst))  # the X pentomino's 32 placements
    32
    """
    lo, hi = item_bounds(instance)
    n_cells, n_types = instance.n_cells, len(instance.type_counts)
    once = np.array([a == b == 1 for a, b in zip(lo[:n_cells], hi[:n_cells])], dtype=bool)
    if not once.any():
        return [None]  # no item is covered exactly once: one sub-problem, the whole instance
    if instance.n_options == 0:
        return []
    # A piece type is a pivot only when every solution places it exactly once: one copy, not optional, not a
    # range of counts (``T4:0-2``) and not the cells that may stay empty (``--max-empty``), whose solutions
    # may leave it out.
    once_type = np.array([a == b == 1 for a, b in zip(lo[n_cells:n_cells + n_types], hi[n_cells:n_cells + n_types])],
                         dtype=bool)
    if not instance.optional_pieces and once_type.any():
        item = n_cells + int(np.argmin(np.where(once_type, instance.options_per_type(), np.iinfo(np.int64).max)))
    else:
        item = int(np.argmin(np.where(once, instance.options_per_cell(), np.iinfo(np.int64).max)))
    return list(instance.item_options[item])


def _solve_pinned(model, n_options, option, time_limit, first_only, on_solution, presolve, stop=None, lock=None):
    """Solve the sub-problem of ``model`` in which placement ``option`` is used (``None``: the whole model).

    The model's first ``n_options`` variables are the options' (:func:`.cpsat.build_model`; any
    further ones are auxiliary).
    """
    sub = model.clone()
    x = [sub.get_bool_var_from_proto_index(i) for i in range(n_options)]
    # The pivot placement of this sub-problem is used.
    if option is not None:
        sub.add(x[option] == 1)
    solver = new_solver(first_only=first_only, presolve=presolve, time_limit=time_limit)
    collector = SolutionCollector(x, on_solution, stop, lock)
    status = run_solver(solver, sub, collector)
    return outcome(solver, status, collector, first_only)


def _solve_pinned_collect(instance, options, time_limit, first_only, presolve, cardinality):
    """Solve several sub-problems in a worker process; returns (exhausted, stats, solutions)."""
    model, _ = build_model(instance, cardinality=cardinality)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    solutions: list[list[int]] = []
    totals = {"branches": 0, "conflicts": 0}
    exhausted = True

    def collect(chosen) -> bool:
        solutions.append(list(chosen))
        return not first_only

    for o in options:
        remaining = None if deadline is None else deadline - time.perf_counter()
        if remaining is not None and remaining <= 0:
            return False, totals, solutions
        done, stats = _solve_pinned(model, instance.n_options, o, remaining, first_only, collect, presolve)
        totals["branches"] += stats["branches"]
        totals["conflicts"] += stats["conflicts"]
        exhausted &= done
        if first_only and solutions:
            return False, totals, solutions
    return exhausted, totals, solutions
