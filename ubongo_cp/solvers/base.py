"""Result type and the common driver shared by every solver backend."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence

from ..cover import ExactCoverInstance
from ..status import Status

__all__ = ["SOLVED", "NO_SOLUTION", "UNKNOWN", "SolveResult", "Backend", "drive", "REDUCE_LIMIT"]

SOLVED = Status.SOLVED
NO_SOLUTION = Status.NO_SOLUTION
UNKNOWN = Status.UNKNOWN

#: Largest number of solutions for which the symmetry-reduced count is computed
#: (each solution's canonical key is kept in memory).
REDUCE_LIMIT = 2_000_000


@dataclass
class SolveResult:
    """What a backend found.

    Attributes
    ----------
    status : str
        ``"solved"`` (at least one solution), ``"no solution"`` (proved none),
        or ``"unknown"`` (time limit reached before either).
    solutions : list of dict
        Piece name -> list of (row, col) cells, at most ``keep`` of them.
    count : int
        Solutions found; the exact number when ``complete``.
    complete : bool
        True when the search space was exhausted (no ``limit``/time-out cut it).
    count_reduced : int or None
        Solutions up to the region's symmetries (UP-5), when ``complete``;
        equals ``count`` for an asymmetric region.
    stats : dict
        ``wall_seconds`` (float, seconds, instance build excluded), backend
        counters (``branches``/``conflicts`` for CP-SAT, ``nodes`` for DLX),
        ``reason`` when a cheap pre-check proved there is no solution.
    backend : str
        Name of the backend that produced it.
    option_solutions : list of list of int
        The kept solutions as option ids of the instance.
    instance : ExactCoverInstance or None
        The instance solved, when known (set by :func:`ubongo_cp.solvers.solve`);
        lets the result draw itself (:meth:`draw`, a picture in a notebook).
    """

    status: str
    solutions: list[dict]
    count: int
    complete: bool
    count_reduced: int | None = None
    stats: dict = field(default_factory=dict)
    backend: str = ""
    option_solutions: list[list[int]] = field(default_factory=list, repr=False)
    instance: ExactCoverInstance | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict:
        """The CLI's stable JSON form: ``{"count", "complete", "solutions"}`` plus extras."""
        return {
            "count": self.count,
            "complete": self.complete,
            "count_reduced": self.count_reduced,
            "status": self.status,
            "solutions": [{k: [list(c) for c in v] for k, v in s.items()} for s in self.solutions],
            "stats": self.stats,
        }


    def draw(self, instance: ExactCoverInstance | None = None, *, colours=None, most: int = 12):
        """The kept solutions (at most ``most``) as a matplotlib Figure, one panel each.

        Raises
        ------
        ValueError
            When the result does not know its instance and none is given.
        """
        from ..draw.figures import result_figure

        return result_figure(self, instance, colours, most=most)

    def _repr_svg_(self) -> str | None:
        """A picture in a notebook when the result knows its instance (else the text repr)."""
        if self.instance is None:
            return None
        from ..draw.figures import figure_svg

        return figure_svg(self.draw())


OnSolution = Callable[[Sequence[int]], bool]


class Backend(Protocol):
    """A backend enumerates exact covers of an instance.

    ``run`` calls ``on_solution(option_ids)`` for each solution (canonical
    with respect to copies of identical pieces); ``on_solution`` returns
    ``False`` to stop. It returns ``(exhausted, stats)``: whether the whole
    search space was explored, and backend counters.
    """

    name: str

    def run(self, instance: ExactCoverInstance, on_solution: OnSolution, *,
            time_limit: float | None, first_only: bool) -> tuple[bool, dict]: ...


def drive(backend: Backend, instance: ExactCoverInstance, *, limit: int | None = None,
          time_limit: float | None = None, keep: int | None = None,
          reduce: bool = True) -> SolveResult:
    """Run ``backend`` on ``instance`` and assemble a :class:`SolveResult`.

    Parameters
    ----------
    limit : int, optional
        Stop after this many solutions (``count`` is then a lower bound and
        ``complete`` is False unless the space was exhausted at the same time).
    time_limit : float, optional
        Seconds; on time-out the result is ``complete=False``.
    keep : int, optional
        Keep at most this many solutions as dicts (default: all found).
    reduce : bool
        Compute the symmetry-reduced count (UP-5) when the count is complete.
    """
    start = time.perf_counter()
    reason = instance.precheck()
    if reason is not None:
        return SolveResult(NO_SOLUTION, [], 0, True, 0,
                           {"wall_seconds": time.perf_counter() - start, "reason": reason}, backend.name)
    count = 0
    kept: list[list[int]] = []
    symmetric = reduce and len(instance.region_symmetries) > 1
    keys: set | None = set() if symmetric else None

    def on_solution(options: Sequence[int]) -> bool:
        nonlocal count, keys
        count += 1
        if keep is None or len(kept) < keep:
            kept.append([int(o) for o in options])
        if keys is not None:
            keys.add(instance.canonical_key(options))
            if len(keys) > REDUCE_LIMIT:
                keys = None
        return limit is None or count < limit

    exhausted, stats = backend.run(instance, on_solution, time_limit=time_limit,
                                   first_only=limit == 1)
    complete = exhausted
    if count == 0:
        status = NO_SOLUTION if exhausted else UNKNOWN
    else:
        status = SOLVED
    reduced = None
    if complete:
        reduced = count if not symmetric else (len(keys) if keys is not None else None)
    stats = {"wall_seconds": time.perf_counter() - start, **stats}
    return SolveResult(status, [instance.solution_dict(s) for s in kept], count, complete, reduced,
                       stats, backend.name, kept)
