"""CP-SAT backend: one Boolean per placement, exactly-one per cell, sum == k per piece type.

The exact-cover instance of :mod:`ubongo_cp.cover` is encoded for OR-Tools'
CP-SAT solver the way OR-Tools' own ``pentominoes_sat.py`` example does:

- variables: ``x[o]`` is true when placement (option) ``o`` is used;
- constraints: ``exactly_one`` over the options covering each region cell;
  for a piece type with ``k`` identical copies, the sum of its placements'
  Booleans is ``k`` (``<= k`` with optional pieces): one linear constraint
  per type, never one Boolean per copy, so copies are not told apart (UP-5);
- parameters: one search worker when enumerating, so that every solution is
  reported exactly once (``enumerate_all_solutions``), and no linear
  relaxation then (``linearization_level = 0``): the model is purely
  Boolean, and the LP only slows enumeration down. Measured
  (``benchmarks/bench_multiplicity.py``): the 3,106 tilings of 8x5 by two
  tetromino sets in 12-14 s instead of more than 280 s, while all 792
  card/face tasks of the shipped decks keep exactly the same branch and
  conflict counts (the rating's cross-check, :mod:`ubongo_cp.rate`);
- statistics: wall time, branches, conflicts.

The one parameter setup (:func:`new_solver`), solution collector
(:class:`SolutionCollector`) and reading of the outcome (:func:`outcome`)
of every CP-SAT search of the polyomino solvers live here; the split
strategies (:mod:`.split`) reuse them.

References
----------
.. [1] L. Perron and F. Didier, "CP-SAT", OR-Tools (Google),
   https://developers.google.com/optimization/cp/cp_solver
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np
from ortools.sat.python import cp_model

from ..cover import ExactCoverInstance
from ..cpsat_runtime import new_model, run_solver
from .base import item_bounds

__all__ = ["CpSatBackend", "build_model", "new_solver", "SolutionCollector", "outcome", "mrv_order"]


def build_model(instance: ExactCoverInstance, *, cardinality: int | None = None) -> tuple[cp_model.CpModel, list]:
    """The CP-SAT model of ``instance``: (model, one Bool variable per option).

    Parameters
    ----------
    instance : ExactCoverInstance
        The exact-cover instance.
    cardinality : int, optional
        Exactly this many placements are used (with optional pieces: this
        many pieces, each used at most once).
    """
    model = new_model()
    # Variables: one Bool per placement ("o" + option id).
    x = [model.new_bool_var(f"o{o}") for o in range(instance.n_options)]
    lo, hi = item_bounds(instance)
    # Constraints: each region cell is covered by exactly one chosen placement (a primary item of a
    # general exact-cover matrix between its bounds, Knuth's DLX3).
    for item in range(instance.n_cells):
        lits = [x[o] for o in instance.item_options[item]]
        if lo[item] == hi[item] == 1:
            model.add_exactly_one(lits)
        else:
            _add_between(model, lits, lo[item], hi[item])
    # A piece type with k identical copies (UP-5) has exactly k placements chosen (at most k with
    # optional pieces; between the bounds of a range of copies).
    n_types = len(instance.type_counts)
    for t in range(n_types):
        item = instance.n_cells + t
        _add_between(model, [x[o] for o in instance.item_options[item]], lo[item], hi[item])
    # Any further item (a general exact-cover matrix, ubongo_cp.exactcover) is secondary: at most once,
    # or by options that agree on its colour (Algorithm C).
    colours = getattr(instance, "colours", None)
    for item in range(instance.n_cells + n_types, instance.n_items):
        options = instance.item_options[item]
        if colours is None:
            model.add_at_most_one([x[o] for o in options])
            continue
        plain: list = []
        tinted: dict[int, list[int]] = {}
        for o in options:
            c = int(colours[_entry(instance, o, item)])
            if c:
                tinted.setdefault(c, []).append(o)
            else:
                plain.append(x[o])
        used = []
        for c, opts in tinted.items():  # y: some option gives the item colour c (y is their "or", so
            y = model.new_bool_var(f"c{item}_{c}")  # that a solution has one assignment)
            for o in opts:
                model.add_implication(x[o], y)
            model.add_bool_or([x[o] for o in opts]).only_enforce_if(y)
            used.append(y)
        model.add_at_most_one(plain + used)
    # The number of placements used (the subset analysis: pieces per subset).
    if cardinality is not None:
        model.add(sum(x) == cardinality)
    return model, x


def _add_between(model, lits: list, lo: int, hi: int) -> None:
    """``lo <= sum(lits) <= hi``, leaving out a side that always holds (as the model always has)."""
    lo, hi = int(lo), int(hi)
    if lo == hi:
        model.add(cp_model.LinearExpr.sum(lits) == lo)
        return
    if lo > 0:
        model.add(cp_model.LinearExpr.sum(lits) >= lo)
    if hi < len(lits):
        model.add(cp_model.LinearExpr.sum(lits) <= hi)


def _entry(instance, option: int, item: int) -> int:
    """Position in ``instance.indices`` of ``item`` in ``option``."""
    start = int(instance.indptr[option])
    return start + int(np.flatnonzero(instance.option_items(option) == item)[0])


def new_solver(*, first_only: bool, workers: int = 1, presolve: bool = True, time_limit: float | None = None,
               fixed_search: bool = False) -> cp_model.CpSolver:
    """A CP-SAT solver with the toolkit's parameters.

    Parameters
    ----------
    first_only : bool
        Stop at the first solution; else enumerate all solutions, with one
        worker so that each is reported exactly once (Perron, google/or-tools
        #1186) and without the linear relaxation (``linearization_level =
        0``).
    workers : int
        Search workers of a first-solution search.
    presolve : bool
        CP-SAT presolve on/off.
    time_limit : float, optional
        Seconds.
    fixed_search : bool
        Follow the model's decision strategy (``FIXED_SEARCH``).
    """
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.num_workers = workers if first_only else 1
    params.enumerate_all_solutions = not first_only
    if not first_only:
        # A pure Boolean model: the LP relaxation costs time at every node of an enumeration.
        params.linearization_level = 0
    if not presolve:
        params.cp_model_presolve = False
    if fixed_search:
        params.search_branching = cp_model.FIXED_SEARCH
    if time_limit is not None:
        params.max_time_in_seconds = float(time_limit)
    return solver


class SolutionCollector(cp_model.CpSolverSolutionCallback):
    """Hands each solution to ``on_solution`` as option ids; never prints.

    Parameters
    ----------
    x : list
        The option variables of :func:`build_model`.
    on_solution : callable
        ``on_solution(option_ids) -> bool``; False stops the search.
    stop : threading.Event, optional
        Shared by concurrent searches: set when one of them stops; a search
        that sees it set stops too.
    lock : threading.Lock, optional
        Held while ``on_solution`` runs (concurrent searches share it).
    """

    def __init__(self, x, on_solution, stop: threading.Event | None = None,
                 lock: threading.Lock | None = None) -> None:
        super().__init__()
        self._x = x
        self._on_solution = on_solution
        self._stop = stop
        self._lock = lock
        self.stopped = False

    def on_solution_callback(self) -> None:
        if self.stopped:  # a solution that arrived after the stop request (several workers)
            return
        chosen = [o for o, var in enumerate(self._x) if self.boolean_value(var)]
        if self._lock is None:
            go = not self._stopped_elsewhere() and self._on_solution(chosen)
        else:
            with self._lock:
                go = not self._stopped_elsewhere() and self._on_solution(chosen)
        if not go:
            self.stopped = True
            if self._stop is not None:
                self._stop.set()
            self.stop_search()

    def _stopped_elsewhere(self) -> bool:
        return self._stop is not None and self._stop.is_set()


def outcome(solver: cp_model.CpSolver, status: int, collector: SolutionCollector,
            first_only: bool) -> tuple[bool, dict]:
    """``(exhausted, stats)`` of a finished CP-SAT search (the backend protocol's return value)."""
    exhausted = status == cp_model.INFEASIBLE or (status == cp_model.OPTIMAL and not collector.stopped
                                                  and not first_only)
    return exhausted, {"branches": int(solver.num_branches), "conflicts": int(solver.num_conflicts),
                       "solver_seconds": float(solver.wall_time)}


def mrv_order(instance: ExactCoverInstance) -> list[int]:
    """Options listed item by item, the primary item with the fewest placements first (a static MRV order)."""
    per_item = instance.item_options
    order: list[int] = []
    seen = np.zeros(instance.n_options, dtype=bool)
    for item in sorted(range(instance.n_primary), key=lambda i: (len(per_item[i]), i)):
        for o in per_item[item]:
            if not seen[o]:
                seen[o] = True
                order.append(o)
    return order + [o for o in range(instance.n_options) if not seen[o]]


@dataclass
class CpSatBackend:
    """OR-Tools CP-SAT backend (the modelling backend).

    Follows the :class:`~ubongo_cp.solvers.base.Backend` protocol.

    Parameters
    ----------
    workers : int
        Search workers for a first-solution search; enumeration always uses 1.
    presolve : bool
        CP-SAT presolve on/off.
    mrv : bool
        Fixed search that branches on the placements of the most constrained
        items first (:func:`mrv_order`, each tried at value 1 first:
        ``CHOOSE_FIRST``, ``SELECT_MAX_VALUE``). CP-SAT cannot re-order items
        dynamically as DLX does.
    cardinality : int, optional
        Exactly this many placements (see :func:`build_model`).
    """

    workers: int = 1
    presolve: bool = True
    mrv: bool = False
    cardinality: int | None = None
    name: str = "cpsat"

    def run(self, instance, on_solution, *, time_limit=None, first_only=False):
        """Backend protocol (see :class:`~ubongo_cp.solvers.base.Backend`)."""
        model, x = build_model(instance, cardinality=self.cardinality)
        if self.mrv:
            # Decision strategy: placements of the most constrained primary item first.
            model.add_decision_strategy([x[o] for o in mrv_order(instance)], cp_model.CHOOSE_FIRST,
                                        cp_model.SELECT_MAX_VALUE)
        solver = new_solver(first_only=first_only, workers=self.workers, presolve=self.presolve,
                            time_limit=time_limit, fixed_search=self.mrv)
        collector = SolutionCollector(x, on_solution)
        status = run_solver(solver, model, collector)
        return outcome(solver, status, collector, first_only)
