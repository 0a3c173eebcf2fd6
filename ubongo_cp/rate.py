"""Difficulty rating of one task (card side x die face).

Every task is solved by both backends on the same exact-cover instance:
the DLX backend counts all solutions and reports its search nodes, CP-SAT
(presolve off, so that its search counters mean something on instances this
small) counts them again as a cross-check and reports branches and conflicts.

Composite difficulty (dimensionless, larger = harder)::

    difficulty = log2(1 + nodes / count) + log2(placements / cells)

- ``nodes / count``: DLX search nodes spent per solution; a task whose search
  tree is bushy for few solutions is hard to solve by hand too (the solver
  explores the dead ends a human must also rule out);
- ``placements / cells``: the average number of placements competing for a
  cell, i.e. the branching a human faces at the start.

A task with no solution has difficulty NaN. The weights are 1 : 1 by
design; the benchmarks and notebooks show how the score spreads per deck.

References
----------
.. [1] D. E. Knuth, "Dancing Links", arXiv:cs/0011047 (2000), §"Applications
   to polyominoes": search-tree size as a measure of a puzzle's difficulty.
"""

from __future__ import annotations

import json
import math
import time
from typing import Any

from .cover import ExactCoverInstance
from .status import Status

__all__ = ["rate_instance", "difficulty_score", "RATING_COLUMNS"]

#: Columns produced by :func:`rate_instance`, in order.
RATING_COLUMNS = [
    "status", "count", "count_reduced", "complete", "placements", "min_piece_placements",
    "dlx_nodes", "cpsat_branches", "cpsat_conflicts", "cpsat_count", "difficulty", "seconds", "solution",
]


def difficulty_score(nodes: int, count: int, placements: int, cells: int) -> float:
    """The composite difficulty (see module docstring); NaN when ``count`` is 0.

    Examples
    --------
    >>> round(difficulty_score(nodes=30, count=1, placements=64, cells=16), 3)
    6.954
    """
    if count <= 0 or cells <= 0 or placements <= 0:
        return float("nan")
    return math.log2(1 + nodes / count) + math.log2(placements / cells)


def rate_instance(instance: ExactCoverInstance, *, backend: str = "dlx", time_limit: float | None = None,
                  cross_check: bool = True) -> dict[str, Any]:
    """Solve, count and rate one task.

    Parameters
    ----------
    instance : ExactCoverInstance
        The task (from :meth:`ubongo_cp.cards.CardSide.instance`).
    backend : {"dlx", "cpsat", "xcover"}
        Backend whose count is reported as ``count``.
    time_limit : float, optional
        Seconds per backend run; on time-out ``status`` is ``"timeout"``.
    cross_check : bool
        Also run the other backend (CP-SAT when ``backend`` is DLX and vice
        versa) for its counters and a second count (``cpsat_count``).

    Returns
    -------
    dict
        Keys :data:`RATING_COLUMNS`; ``solution`` is the first solution as
        JSON (piece name -> [[row, col], ...]) or ``""``; ``seconds`` is the
        wall time of the primary backend (seconds).
    """
    from .solvers import solve

    start = time.perf_counter()
    primary = solve(instance, backend=backend, time_limit=time_limit, keep=1)
    seconds = time.perf_counter() - start
    placements = instance.n_options
    per_piece = instance.options_per_piece()
    row: dict[str, Any] = {
        # Status: solved / no solution (complete search), timeout (cut by time_limit),
        # disagreement (the two backends counted differently: a bug to report).
        "status": (primary.status if primary.complete else Status.TIMEOUT).value,
        "count": primary.count,
        "count_reduced": primary.count_reduced,
        "complete": primary.complete,
        "placements": placements,
        "min_piece_placements": int(per_piece.min()) if len(per_piece) else 0,
        "dlx_nodes": primary.stats.get("nodes", 0 if "reason" in primary.stats else None),
        "cpsat_branches": primary.stats.get("branches"),
        "cpsat_conflicts": primary.stats.get("conflicts"),
        "cpsat_count": primary.count if backend == "cpsat" and primary.complete else None,
        "seconds": seconds,
        "solution": json.dumps({k: [list(c) for c in v] for k, v in primary.solutions[0].items()})
        if primary.solutions else "",
    }
    if cross_check and primary.complete and "reason" not in primary.stats:
        other = "cpsat" if backend != "cpsat" else "dlx"
        if other == "cpsat":
            # Presolve off: with it, CP-SAT settles these small instances by
            # propagation alone and its branch/conflict counters are all 0.
            from .solvers.base import drive
            from .solvers.cpsat import CpSatBackend

            second = drive(CpSatBackend(presolve=False), instance, time_limit=time_limit, keep=0, reduce=False)
        else:
            second = solve(instance, backend=other, time_limit=time_limit, keep=0)
        if other == "cpsat":
            row["cpsat_branches"] = second.stats.get("branches")
            row["cpsat_conflicts"] = second.stats.get("conflicts")
            row["cpsat_count"] = second.count if second.complete else None
        else:
            row["dlx_nodes"] = second.stats.get("nodes")
        if second.complete and second.count != primary.count:
            row["status"] = Status.DISAGREEMENT.value
    nodes = row["dlx_nodes"]
    row["difficulty"] = (difficulty_score(nodes, primary.count, placements, instance.n_cells)
                         if primary.complete and nodes is not None else float("nan"))
    return row
