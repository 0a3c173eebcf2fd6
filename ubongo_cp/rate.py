"""Difficulty rating of one task (card side x die face).

Every task is solved by two solver families on the same exact-cover
instance: the chosen solver counts all solutions; the node solver
(:data:`NODE_SOLVER`, the bitboard search on the most constrained cell)
supplies the search nodes the rating needs unless the chosen solver is that
solver, and CP-SAT (:data:`CHECK_SOLVER`,
presolve off, so that its search counters mean something on instances this
small) counts them again as a cross-check and reports branches and
conflicts unless the chosen solver is a CP-SAT search of the instance. What
a solver reports is read from the registry
(:class:`~ubongo_cp.solvers.registry.SolverSpec`), so every registered name
rates a task the same way.

Composite difficulty (dimensionless, larger = harder)::

    difficulty = log2(1 + nodes / count) + log2(placements per cell)

- ``nodes / count``: search nodes spent per solution; a task whose search
  tree is bushy for few solutions is hard to solve by hand too (the solver
  explores the dead ends a human must also rule out). The nodes are the
  placements made by the bitboard search that always fills the empty cell
  with the fewest fitting placements (:mod:`ubongo_cp.solvers.bitboard`,
  rule ``"mrv"``, no dead-region test), the way a player looks for the cell
  with the fewest ways to cover it;
- *placements per cell*: the mean, over the region's cells, of the number of
  placements covering the cell (the options of the exact-cover instance
  holding that cell item: ``instance.options_per_cell().mean()``), i.e. the
  branching a human faces at the start. Every cell of a solvable task is
  covered by at least one placement, so the term is at least ``log2(1) = 0``
  and the difficulty is never negative (a forced task, such as I4 in a 1x4
  region: 1 node, 1 solution, 1 placement per cell, rates 1.0).

A task with no solution has difficulty NaN. The weights are 1 : 1 by
design; the benchmarks and notebooks show how the score spreads per deck.

The shipped decks' ratings were computed with this formula and these nodes
(``search_nodes`` in their task tables). Earlier versions counted the nodes
of the dancing-cells search (``dlx``, Knuth's Algorithm X, which also
branches on a piece with few placements) and took ``log2(placements /
cells)`` as the second term; ``docs/decisions.md`` says how the ratings moved.

References
----------
.. [1] D. E. Knuth, "Dancing Links", arXiv:cs/0011047 (2000), §"Applications
   to polyominoes": search-tree size as a measure of a puzzle's difficulty.
"""

from __future__ import annotations

import json
import math
import numbers
import time
from typing import Any

from .cover import ExactCoverInstance
from .errors import InputError, whole_argument
from .solvers.registry import DEFAULT_STRATEGY
from .status import Status

__all__ = ["rate_instance", "difficulty_score", "rating_modules", "RATING_COLUMNS", "RATING_LEGEND", "RATING_SCHEME",
           "NODE_SOLVER", "CHECK_SOLVER"]

#: The solver whose search-tree nodes measure difficulty (``"bitboard-mrv"``).
NODE_SOLVER = DEFAULT_STRATEGY["rate"]
#: The cross-checking solver: CP-SAT with presolve off (with presolve, CP-SAT
#: settles these small instances by propagation alone and its branch and
#: conflict counters are all 0).
CHECK_SOLVER = "cpsat-nopresolve"

#: What the difficulty means, in one line (booklets and summaries say it under their numbers).
RATING_LEGEND = ("difficulty: log\u2082(1 + search nodes per solution) + log\u2082(placements per cell) "
                 "(ubongo-cp's rating; larger is harder; about 5\u201315 for Ubongo cards)")

#: Version of what :func:`rate_instance` computes (the difficulty formula, the
#: counters taken). Batch rows record it (:func:`ubongo_cp.batch.run_settings`),
#: and rows of another version are computed again: raise it with any change that
#: alters a rating. 2: placements per cell as the second term; 3: the nodes of
#: the bitboard search on the most constrained cell (see above).
RATING_SCHEME = 3

#: Columns produced by :func:`rate_instance`, in order.
RATING_COLUMNS = [
    "status", "count", "count_reduced", "complete", "placements", "min_piece_placements", "placements_per_cell",
    "symmetry", "search_nodes", "cpsat_branches", "cpsat_conflicts", "cpsat_count", "difficulty", "seconds", "solution",
]


def difficulty_score(nodes: int, count: int, placements_per_cell: float) -> float:
    """The composite difficulty (see module docstring); NaN when ``count`` is 0.

    Parameters
    ----------
    nodes : int
        Search-tree nodes of :data:`NODE_SOLVER` (placements made).
    count : int
        Solutions.
    placements_per_cell : float
        Mean number of placements covering a cell of the region (>= 1 for a
        solvable task).

    Returns
    -------
    float
        ``log2(1 + nodes / count) + log2(placements_per_cell)``; >= 0 when
        ``placements_per_cell >= 1``; NaN without a solution.

    Raises
    ------
    InputError
        For ``nodes`` or ``count`` that is not a whole number >= 0, or ``placements_per_cell`` that is not a
        number (a negative count of nodes was "math domain error").

    Examples
    --------
    >>> round(difficulty_score(nodes=30, count=1, placements_per_cell=16.0), 3)
    8.954
    >>> difficulty_score(nodes=1, count=1, placements_per_cell=1.0)  # forced: I4 in a 1x4 region
    1.0
    """
    nodes, count = whole_argument("nodes", nodes, 0), whole_argument("count", count, 0)
    if not isinstance(placements_per_cell, numbers.Real) or isinstance(placements_per_cell, bool):
        raise InputError(f"placements_per_cell must be a number, got {placements_per_cell!r}")
    if count <= 0 or not placements_per_cell > 0:
        return float("nan")
    return math.log2(1 + nodes / count) + math.log2(placements_per_cell)


def rating_modules(backend: str = NODE_SOLVER) -> tuple[str, ...]:
    """Modules a process imports to rate tasks with ``backend`` (to load them before workers start).

    Raises
    ------
    InputError
        For an unknown solver name.

    Examples
    --------
    >>> rating_modules("dlx")
    ('ubongo_cp.rate', 'ubongo_cp.solvers.dlx', 'ubongo_cp.solvers.bitboard', 'ubongo_cp.solvers.cpsat')
    """
    from .solvers import get_solver

    modules = ["ubongo_cp.rate"]
    for name in (backend, NODE_SOLVER, CHECK_SOLVER):
        if get_solver(name).module not in modules:
            modules.append(get_solver(name).module)
    return tuple(modules)


def rate_instance(instance: ExactCoverInstance, *, backend: str = NODE_SOLVER, time_limit: float | None = None,
                  cross_check: bool = True) -> dict[str, Any]:
    """Solve, count and rate one task.

    Parameters
    ----------
    instance : ExactCoverInstance
        The task (from :func:`ubongo_cp.cover.task_instance`).
    backend : str
        Registered solver (:mod:`ubongo_cp.solvers.registry`) whose count is
        reported as ``count``; default :data:`NODE_SOLVER`.
    time_limit : float, optional
        Seconds per solver run; on time-out ``status`` is ``"timeout"``.
    cross_check : bool
        Also count with :data:`CHECK_SOLVER` (for its counters and a second
        count, ``cpsat_count``) unless ``backend`` reports CP-SAT counters
        itself. The search nodes are always :data:`NODE_SOLVER`'s: from
        ``backend`` when it is that solver, else from a run of it (also a
        second count).

    Returns
    -------
    dict
        Keys :data:`RATING_COLUMNS`; ``solution`` is the first solution as
        JSON (piece name -> [[row, col], ...]) or ``""``; ``placements_per_cell``
        is the mean number of placements covering a cell (the rating's second
        term), ``symmetry`` the order of the region's symmetry group on its
        grid (1, 2, 4 or 8 on squares: :meth:`ubongo_cp.grids.Grid.symmetry_group`); ``seconds`` is the
        wall time of the primary solver (seconds; loading the search engines,
        :func:`ubongo_cp.solvers.warm`, is done before and not counted). ``status`` is
        ``"disagreement"`` when a second count differs.

    Raises
    ------
    InputError
        For an ``instance`` that is not one, or an unknown solver name.

    Notes
    -----
    On a region of more than 256 cells the nodes are those of :data:`NODE_SOLVER`'s stand-in, the
    dancing-cells search ``dlx`` (:data:`~ubongo_cp.solvers.registry.FALLBACK`): a different measure.
    """
    from .solvers import checked_instance, choose, get_solver, solve, warm

    checked_instance("rate_instance", instance)
    # The node solver; beyond the bitboard kernel's 256 cells its dancing-cells stand-in (other nodes).
    node_solver = choose("rate", instance)
    if backend == NODE_SOLVER:
        backend = node_solver
    spec = get_solver(backend)
    # Engines load (or compile) before the clock starts: ``seconds`` and time-outs measure search alone.
    warm([backend, node_solver, CHECK_SOLVER] if cross_check else [backend, node_solver])
    start = time.perf_counter()
    primary = solve(instance, backend=backend, time_limit=time_limit, keep=1)
    seconds = time.perf_counter() - start
    placements = instance.n_options
    per_piece = instance.options_per_piece()
    settled = "reason" in primary.stats  # the pre-check proved there is no solution: no search ran
    counts_cpsat = spec.reports_branches and primary.complete
    row: dict[str, Any] = {
        # Status: solved / no solution (complete search), timeout (cut by time_limit),
        # disagreement (two solvers counted differently: a bug to report).
        "status": (primary.status if primary.complete else Status.TIMEOUT).value,
        "count": primary.count,
        "count_reduced": primary.count_reduced,
        "complete": primary.complete,
        "placements": placements,
        "min_piece_placements": int(per_piece.min()) if len(per_piece) else 0,
        "search_nodes": 0 if settled else (primary.stats.get("nodes") if spec.name == node_solver else None),
        "cpsat_branches": primary.stats.get("branches") if spec.reports_branches else None,
        "cpsat_conflicts": primary.stats.get("conflicts") if spec.reports_branches else None,
        "cpsat_count": primary.count if counts_cpsat else None,
        "seconds": seconds,
        "solution": json.dumps({k: [list(c) for c in v] for k, v in primary.solutions[0].items()})
        if primary.solutions else "",
    }
    checks = []
    if primary.complete and not settled:
        if cross_check and not spec.reports_branches:
            second = solve(instance, backend=CHECK_SOLVER, time_limit=time_limit, keep=0, reduce=False)
            row["cpsat_branches"] = second.stats.get("branches")
            row["cpsat_conflicts"] = second.stats.get("conflicts")
            row["cpsat_count"] = second.count if second.complete else None
            checks.append(second)
        if spec.name != node_solver:
            second = solve(instance, backend=node_solver, time_limit=time_limit, keep=0, reduce=False)
            row["search_nodes"] = second.stats.get("nodes")
            checks.append(second)
    if any(r.complete and r.count != primary.count for r in checks):
        row["status"] = Status.DISAGREEMENT.value
    nodes = row["search_nodes"]
    per_cell = float(instance.options_per_cell().mean()) if instance.n_cells else 0.0
    row["placements_per_cell"] = per_cell
    row["symmetry"] = len(instance.grid.symmetry_group(instance.region.cells)) if instance.n_cells else None
    row["difficulty"] = (difficulty_score(nodes, primary.count, per_cell)
                         if primary.complete and nodes is not None else float("nan"))
    return row
