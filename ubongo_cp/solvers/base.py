"""The result type, the backend protocol and the one driver that runs every solver.

:func:`drive` is the only place that turns what a backend finds into a
:class:`SolveResult`: the cheap pre-check, solution limits, kept solutions,
the symmetry-reduced count (UP-5), time limits, the orbit decomposition
(:mod:`.orbits`), a per-solution callback, a filter on the number of
pieces used and the tally of solutions per set of piece types used (for the
subset analysis). :func:`ubongo_cp.solvers.solve` looks the backend up in
the registry and calls it.

Two paths: a backend that counts natively (a ``search`` method, the bitboard
backend) gets the whole question at once when no solution needs Python (no
``on_solution``): the count, the Burnside sum and the tally are kept in C and
only the kept solutions cross over; every other backend, and any question
with a per-solution callback, goes through the backend protocol's ``run``,
one Python call per solution.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence

from ..cover import ExactCoverInstance
from ..status import Status
from .orbits import Decomposition, orbit_plan, symmetry_plan

__all__ = ["SolveResult", "Backend", "OnSolution", "drive"]


@dataclass
class SolveResult:
    """What a solver found.

    Attributes
    ----------
    status : Status
        ``SOLVED`` (at least one solution), ``NO_SOLUTION`` (proved none),
        or ``UNKNOWN`` (time limit reached before either).
    solutions : list of dict
        Piece name -> list of (row, col) cells, at most ``keep`` of them.
    count : int
        Solutions found; the exact number when ``complete``.
    complete : bool
        True when the search space was exhausted (no ``limit``/time-out cut it).
    count_reduced : int or None
        Solutions up to the region's symmetries (UP-5), when ``complete``;
        equals ``count`` for an asymmetric region; None when not asked for.
    stats : dict
        ``wall_seconds`` (float, seconds, instance build excluded), backend
        counters (``branches``/``conflicts`` for CP-SAT, ``nodes`` for DLX),
        ``reason`` when a cheap pre-check proved there is no solution,
        ``symmetry`` (and the plan's figures) for the orbit decomposition.
    backend : str
        Registered name of the solver that produced it.
    option_solutions : list of list of int
        The kept solutions as option ids of the instance.
    instance : ExactCoverInstance or None
        The instance solved (set by :func:`drive`; None for a result made
        otherwise); lets the result draw itself (:meth:`draw`, a picture in
        a notebook).
    tally : dict
        With ``tally=True``: the piece types used (a sorted tuple of type
        indices) -> the number of solutions using exactly them.
    """

    status: Status
    solutions: list[dict]
    count: int
    complete: bool
    count_reduced: int | None = None
    stats: dict = field(default_factory=dict)
    backend: str = ""
    option_solutions: list[list[int]] = field(default_factory=list, repr=False)
    instance: ExactCoverInstance | None = field(default=None, repr=False, compare=False)
    tally: dict = field(default_factory=dict, repr=False)

    def to_json(self) -> dict:
        """The CLI's stable JSON form: ``{"count", "complete", "solutions"}`` plus extras.

        ``status`` is ``"timeout"`` when the time limit cut the search (as
        in a batch table), whatever was found before.
        """
        return {
            "count": self.count,
            "complete": self.complete,
            "count_reduced": self.count_reduced,
            "status": Status.TIMEOUT if self.stats.get("timed_out") else self.status,
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


#: ``on_solution(option_ids) -> bool``: called once per solution; False stops the search.
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
          time_limit: float | None = None, keep: int | None = None, reduce: bool = True,
          orbits: bool = False, on_solution: OnSolution | None = None, pieces_used: int | None = None,
          name: str | None = None, tally: bool = False) -> SolveResult:
    """Run ``backend`` on ``instance`` and assemble a :class:`SolveResult`.

    Parameters
    ----------
    backend : Backend
        A backend object (see :meth:`.registry.SolverSpec.make`).
    instance : ExactCoverInstance
        The instance to solve.
    limit : int, optional
        Stop after this many solutions (``count`` is then a lower bound and
        ``complete`` is False unless the space was exhausted at the same time).
    time_limit : float, optional
        Seconds; on time-out the result is ``complete=False``.
    keep : int, optional
        Keep at most this many solutions as dicts (default: all found).
    reduce : bool
        Compute the symmetry-reduced count (UP-5) when the count is complete
        (else ``count_reduced`` is None).
    orbits : bool
        Search the orbit decomposition (:mod:`.orbits`) when it applies: no
        ``limit`` above 1, a symmetric region, a piece with a unique name, no
        optional pieces; ``stats["symmetry"]`` says which case applied.
    on_solution : callable, optional
        Called with every solution (option ids of ``instance``, also the
        ones the orbit decomposition stands for); returning False stops.
    pieces_used : int, optional
        Count only covers that use exactly this many pieces (with optional
        pieces; backends that can constrain it in the model are made so by
        the caller).
    name : str, optional
        ``SolveResult.backend`` (default ``backend.name``).
    tally : bool
        Count the solutions per set of piece types used (``SolveResult.tally``).

    Returns
    -------
    SolveResult
    """
    start = time.perf_counter()
    name = backend.name if name is None else name
    reason = instance.precheck()
    if reason is not None:
        return SolveResult(Status.NO_SOLUTION, [], 0, True, 0,
                           {"wall_seconds": time.perf_counter() - start, "reason": reason}, name, [], instance)
    if on_solution is None and hasattr(backend, "search"):
        return _drive_native(backend, instance, start, limit=limit, time_limit=time_limit, keep=keep,
                             reduce=reduce, orbits=orbits, name=name, tally=tally)
    decomposition, notes = None, {}
    if orbits:
        plan = orbit_plan(instance) if limit is None or limit == 1 else None
        if plan is not None:
            decomposition = Decomposition(instance, plan)
            notes = decomposition.stats()
        else:
            notes = {"symmetry": "not applicable" if limit is None or limit == 1 else "limit > 1"}
    count = found = 0  # solutions (weighted), solutions searched
    # Burnside's lemma: solutions up to symmetry = (sum over solutions of their stabiliser's order) / |G|;
    # ``fixed`` accumulates the sum, so the reduced count needs no solution kept in memory.
    symmetric = reduce and len(instance.region_symmetries) > 1
    fixed = 0
    kept: list[list[int]] = []
    stopped = False
    types_used: dict[tuple[int, ...], int] = {}
    option_type = getattr(instance, "option_type", None) if tally else None

    def hand_on(solution: list[int]) -> bool:
        """Keep a solution of the whole instance and give it to ``on_solution``; False to stop."""
        if keep is None or len(kept) < keep:
            kept.append(solution)
        return on_solution is None or bool(on_solution(solution))

    def plain(options: Sequence[int]) -> bool:
        nonlocal count, found, fixed, stopped
        if stopped:  # e.g. CP-SAT with several workers after the stop request
            return False
        if pieces_used is not None and len(options) != pieces_used:
            return True
        count += 1
        found += 1
        if symmetric:
            fixed += instance.stabiliser_order(options)
        if option_type is not None:
            used = tuple(sorted({int(option_type[o]) for o in options}))
            types_used[used] = types_used.get(used, 0) + 1
        go = limit is None or found < limit
        if (on_solution is not None or keep is None or len(kept) < keep) and not hand_on(_ints(options)):
            go = False
        stopped = not go
        return go

    def lifted(options: Sequence[int]) -> bool:
        nonlocal count, found, fixed, stopped
        if stopped:
            return False
        original, weight = decomposition.lift(options)
        if pieces_used is not None and len(original) != pieces_used:
            return True
        found += 1
        count += weight
        if symmetric:  # the ``weight`` solutions it stands for are its images: same stabiliser order
            fixed += weight * (1 if weight == decomposition.plan.group_order else instance.stabiliser_order(original))
        go = limit is None or found < limit
        # The solutions this one stands for: its images under one symmetry per placement of its orbit.
        if on_solution is not None or keep is None or len(kept) < keep:
            for image in decomposition.images(original):
                if not hand_on(image):
                    go = False
                    break
                if limit == 1 or (on_solution is None and keep is not None and len(kept) >= keep):
                    break
        stopped = not go
        return go

    target = instance if decomposition is None else decomposition.restricted
    exhausted, stats = backend.run(target, plain if decomposition is None else lifted, time_limit=time_limit,
                                   first_only=limit == 1)
    if decomposition is not None:
        notes["solutions_searched"] = found
        if limit == 1 and found:
            count, exhausted = 1, False  # a first-solution search: the weighted count is not asked for
    status = Status.SOLVED if count else (Status.NO_SOLUTION if exhausted else Status.UNKNOWN)
    reduced = None
    if exhausted and reduce:
        reduced = fixed // (1 + len(instance.option_perm_lists)) if symmetric else count
    stats = {"wall_seconds": time.perf_counter() - start, **stats, **notes}
    if not exhausted and not stopped and time_limit is not None:
        stats["timed_out"] = True  # neither exhausted nor stopped by a limit or the callback: the clock

    return SolveResult(status, [instance.solution_dict(s) for s in kept], count, exhausted, reduced, stats,
                       name, kept, instance, types_used)


def _drive_native(backend, instance, start: float, *, limit, time_limit, keep, reduce, orbits, name,
                  tally) -> SolveResult:
    """:func:`drive` for a backend that counts natively: one call, no Python per solution."""
    from .orbits import Branch

    n_sym = len(instance.option_perm_lists) if len(instance.region_symmetries) > 1 else 0
    symmetric = reduce and n_sym > 0
    plan = None
    notes: dict = {}
    if orbits:
        plan = symmetry_plan(instance, enumerable=keep is None) if limit is None or limit == 1 else None
        notes = plan.stats() if plan is not None else \
            {"symmetry": "not applicable" if limit is None or limit == 1 else "limit > 1"}
    branches: Sequence[Branch]
    if plan is not None:
        branches = plan.branches
    else:
        branches = [Branch((), 1, tuple(range(n_sym)) if symmetric else (), ((-1,),), None, n_sym + 1)]
    wanted = min(_NO_KEEP_LIMIT if keep is None else keep, _NO_KEEP_LIMIT if limit is None else limit)
    run = backend.search(instance, branches, limit=limit, keep=wanted, time_limit=time_limit, tally=tally)
    exhausted = run.exhausted
    kept: list[list[int]] = []
    seen: set[tuple[int, ...]] = set()
    for index, options in run.found:  # the solutions found, and those each stands for (its images)
        for image in _images(instance, branches[index], options):
            key = tuple(image)
            if key not in seen and len(kept) < wanted:
                seen.add(key)
                kept.append(image)
    count = run.count
    if limit == 1 and run.stats.get("solutions_seen"):
        count, exhausted = 1, False  # a first-solution search: the weighted count is not asked for
    elif count != int(count):  # a cut search of a plan with a copies level: a lower bound
        count = int(count)
    count = int(count)
    status = Status.SOLVED if count else (Status.NO_SOLUTION if exhausted else Status.UNKNOWN)
    reduced = None
    if exhausted and reduce:
        reduced = int(run.fixed) // (n_sym + 1) if symmetric else count
    stats = {"wall_seconds": time.perf_counter() - start, **run.stats, **notes}
    if plan is not None:
        stats["solutions_searched"] = run.stats.get("solutions_seen", 0)
    types_used = {}
    if tally:
        for mask, n in run.tally.items():
            types_used[tuple(t for t in range(mask.bit_length()) if mask >> t & 1)] = n
    return SolveResult(status, [instance.solution_dict(s) for s in kept], count, exhausted, reduced, stats,
                       name, kept, instance, types_used)


_NO_KEEP_LIMIT = 1 << 62


def _images(instance, branch, options: list[int]):
    """The solutions a solution found below ``branch`` stands for (itself first), each sorted."""
    levels = branch.transversals
    if levels is None:
        yield options
        return
    if branch.restrict is not None:
        rtype, reps = branch.restrict
        option_type = instance.table.option_type
        rep = next((o for o in options if option_type[o] == rtype and o in reps), None)
        if rep is not None:
            levels = levels + (reps[rep],)
    perms = instance.option_perm_lists
    current = [list(options)]
    for level in reversed(levels):
        nxt = []
        for sol in current:
            for g in level:
                nxt.append(sol if g < 0 else sorted(perms[g][o] for o in sol))
        current = nxt
    yield from (sorted(s) for s in current)


def _ints(options: Sequence[int]) -> list[int]:
    """Option ids as a list of Python ints (backends hand numpy arrays or lists)."""
    return options.tolist() if hasattr(options, "tolist") else [int(o) for o in options]
