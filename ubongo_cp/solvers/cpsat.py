"""CP-SAT backend: one Boolean per placement, exactly-one per primary item.

The exact-cover instance of :mod:`ubongo_cp.cover` is encoded for OR-Tools'
CP-SAT solver the way OR-Tools' own ``pentominoes_sat.py`` example does:

- variables: ``x[o]`` is true when placement (option) ``o`` is used;
- constraints: ``exactly_one`` over the options covering each primary item
  (region cells; pieces unless optional) and ``at_most_one`` for secondary
  items; copies of one piece take placements in increasing order (UP-5);
- parameters: one search worker when enumerating, so that every solution is
  reported exactly once (``enumerate_all_solutions``);
- statistics: wall time, branches, conflicts.

References
----------
.. [1] L. Perron and F. Didier, "CP-SAT", OR-Tools (Google),
   https://developers.google.com/optimization/cp/cp_solver
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from ortools.sat.python import cp_model

from ..cover import ExactCoverInstance
from ..cpsat_runtime import new_model, run_solver

__all__ = ["CpSatBackend", "build_model"]

def build_model(instance: ExactCoverInstance) -> tuple[cp_model.CpModel, list]:
    """The CP-SAT model of ``instance``: (model, one Bool variable per option)."""
    model = new_model()
    # Variables: one Bool per placement ("o" + option id).
    n = instance.n_options
    x = [model.new_bool_var(f"o{o}") for o in range(n)]
    # Constraints: each primary item is covered by exactly one chosen placement,
    # each secondary item by at most one. The options covering each item come
    # from the CSR arrays at once: entries sorted by item (stably, so options
    # stay in increasing order), cut at each item's first entry.
    option_of_entry = np.repeat(np.arange(n), np.diff(instance.indptr.astype(np.int64)))
    order = np.argsort(instance.indices, kind="stable")
    cuts = np.searchsorted(instance.indices[order], np.arange(instance.n_items + 1)).tolist()
    options = option_of_entry[order].tolist()
    for item in range(instance.n_items):
        lits = [x[o] for o in options[cuts[item]:cuts[item + 1]]]
        if item < instance.n_primary:
            model.add_exactly_one(lits)
        elif lits:
            model.add_at_most_one(lits)
    # Copies of one piece (a multiset) take placements in increasing order, so
    # swapping identical pieces is not a new solution (UP-5).
    if not instance.optional_pieces:
        first = instance.piece_first_option
        counts = instance.options_per_piece()
        for group in instance.copy_groups:
            for a, b in zip(group, group[1:]):
                local_a = sum(i * x[first[a] + i] for i in range(int(counts[a])))
                local_b = sum(i * x[first[b] + i] for i in range(int(counts[b])))
                model.add(local_a < local_b)
    return model, x


class _Collector(cp_model.CpSolverSolutionCallback):
    """Collects solutions as option ids; never prints."""

    def __init__(self, x, on_solution) -> None:
        super().__init__()
        self._x = x
        self._on_solution = on_solution
        self.stopped = False

    def on_solution_callback(self) -> None:
        if self.stopped:  # a solution that arrived after the stop request (several workers)
            return
        chosen = [o for o, var in enumerate(self._x) if self.boolean_value(var)]
        if not self._on_solution(chosen):
            self.stopped = True
            self.stop_search()


@dataclass
class CpSatBackend:
    """OR-Tools CP-SAT backend (the primary backend).

    Parameters
    ----------
    workers : int
        Search workers for a first-solution search; enumeration always uses 1.
    presolve : bool
        CP-SAT presolve on/off.
    """

    workers: int = 1
    presolve: bool = True
    cardinality: int | None = None
    name: str = "cpsat"

    def run(self, instance, on_solution, *, time_limit=None, first_only=False):
        model, x = build_model(instance)
        if self.cardinality is not None:
            # Exactly `cardinality` placements: each uses one piece, each piece at most once.
            model.add(sum(x) == self.cardinality)
        solver = cp_model.CpSolver()
        params = solver.parameters
        params.num_workers = self.workers if first_only else 1
        params.enumerate_all_solutions = not first_only
        if not self.presolve:
            params.cp_model_presolve = False
        if time_limit is not None:
            params.max_time_in_seconds = float(time_limit)
        collector = _Collector(x, on_solution)
        status = run_solver(solver, model, collector)
        exhausted = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and not collector.stopped
        if first_only and status == cp_model.OPTIMAL:
            exhausted = False
        if status == cp_model.INFEASIBLE:
            exhausted = True
        stats = {"branches": int(solver.num_branches), "conflicts": int(solver.num_conflicts),
                 "solver_seconds": float(solver.wall_time)}
        return exhausted, stats
