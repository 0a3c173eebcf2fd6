"""The result type, the backend protocol and the one driver that runs every solver.

:func:`drive` is the only place that turns what a backend finds into a
:class:`SolveResult`: the cheap pre-check, solution limits, kept solutions,
the symmetry-reduced count (UP-5), time limits, the orbit decomposition
(:mod:`.orbits`), a per-solution callback, a filter on the number of
pieces used and the tally of solutions per set of piece types used (for the
subset analysis). :func:`ubongo_cp.solvers.solve` looks the backend up in
the registry and calls it.

Three paths: a backend that counts natively (a ``search`` method, the bitboard
backend) gets the whole question at once when no solution needs Python (no
``on_solution``): the count, the Burnside sum and the tally are kept in C and
only the kept solutions cross over. A backend that builds a decision diagram
of all solutions (:class:`DiagramCapable`, :mod:`.zdd`) is asked for the
diagram instead of each solution when the question is a count, uniform
samples, completions of fixed placements or placement frequencies. Every
other backend, and any question with a per-solution callback, goes through
the backend protocol's ``run``, one Python call per solution.
"""

from __future__ import annotations

import time
from itertools import islice
from collections.abc import Callable, Iterator, Sequence

from ..cover import ExactCoverInstance
from ..status import Status
from ..structs import Struct

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Protocol
else:   # the two protocols below are for the type checker: at run time, plain classes (no typing import)
    Protocol = object

__all__ = ["SolveResult", "Backend", "DiagramCapable", "OnSolution", "drive", "DIAGRAM_KEEP", "item_bounds"]


class SolveResult(Struct, frozen=False):
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
    frequencies : numpy.ndarray or None
        When asked for: in how many solutions each option (placement) of
        the instance occurs, shape (n_options,) (:meth:`~ubongo_cp.solvers.diagram.Diagram.frequencies`;
        all 0 when a pre-check settled that there is no solution); None when not asked for.
    diagram : Diagram or None
        The decision diagram the result was read from, when one was built
        (:mod:`.zdd`): more samples, ranks, frequencies without a new search.
    tally : dict
        With ``tally=True``: the piece types used (a sorted tuple of type
        indices) -> the number of solutions using exactly them.
    """

    status: Status
    solutions: list[dict]
    count: int
    complete: bool
    count_reduced: int | None
    stats: dict
    backend: str
    option_solutions: list[list[int]]
    instance: ExactCoverInstance | None
    frequencies: object
    diagram: object
    tally: dict
    _hidden = ("option_solutions", "instance", "frequencies", "diagram", "tally")
    _uncompared = ("instance", "frequencies", "diagram")

    def __init__(self, status: Status, solutions: list[dict], count: int, complete: bool,
                 count_reduced: int | None = None, stats: dict | None = None, backend: str = "",
                 option_solutions: list[list[int]] | None = None, instance: ExactCoverInstance | None = None,
                 frequencies: object = None, diagram: object = None, tally: dict | None = None) -> None:
        # stats, option_solutions and tally: None stands for a new empty dict or list (a dataclass's default_factory)
        self.status, self.solutions, self.count, self.complete = status, solutions, count, complete
        self.count_reduced = count_reduced
        self.stats = {} if stats is None else stats
        self.backend = backend
        self.option_solutions = [] if option_solutions is None else option_solutions
        self.instance, self.frequencies, self.diagram = instance, frequencies, diagram
        self.tally = {} if tally is None else tally

    def to_json(self) -> dict:
        """The CLI's stable JSON form: ``{"count", "complete", "solutions"}`` plus extras.

        ``status`` is ``"timeout"`` when the time limit cut the search (as
        in a batch table), whatever was found before; ``backend`` names the
        solver that ran.
        """
        return {
            "backend": self.backend,
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
        InputError
            For an ``instance`` that is no :class:`~ubongo_cp.cover.ExactCoverInstance` (``draw(3)``:
            ``most=3`` draws the first three), or ``most`` not a whole number of at least 1.
        """
        from ..draw.figures import result_figure

        return result_figure(self, instance, colours, most=most)

    def _repr_svg_(self) -> str | None:
        """A picture in a notebook when the result knows its instance (else the text repr)."""
        if self.instance is None:
            return None
        from ..draw.figures import figure_svg

        return figure_svg(self.draw())


#: Solutions a result read from a decision diagram keeps when ``keep`` is not given (the diagram
#: holds them all, perhaps billions; :meth:`~ubongo_cp.solvers.diagram.Diagram.solutions` lists more).
DIAGRAM_KEEP = 1000

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


class DiagramCapable(Backend, Protocol):
    """A backend that can also build the decision diagram of all solutions (:mod:`.zdd`).

    ``diagram`` returns a :class:`~ubongo_cp.solvers.diagram.Diagram`, None when
    the time limit cut the build, or raises
    :class:`~ubongo_cp.solvers.zdd.DiagramTooLarge`. A backend with a
    ``choose(instance, time_limit=, restrict=)`` method decides by itself
    whether to count on the diagram or with its ``run`` (the ``auto``
    strategy, :class:`~ubongo_cp.solvers.zdd.AutoBackend`).
    """

    def diagram(self, instance: ExactCoverInstance, *, time_limit: float | None, fixed: Sequence[int] = (),
                restrict=None): ...


def drive(backend: Backend, instance: ExactCoverInstance, *, limit: int | None = None,
          time_limit: float | None = None, keep: int | None = None, reduce: bool = True,
          orbits: bool = False, on_solution: OnSolution | None = None, pieces_used: int | None = None,
          name: str | None = None, sample: int | None = None, seed: int | None = None,
          fixed: Sequence[int] = (), frequencies: bool = False, tally: bool = False,
          split=None, native: Backend | None = None, small_plain: bool = False) -> SolveResult:
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
        Keep at most this many solutions as dicts (default: all found; from
        a decision diagram, which finds them without listing them, the
        first :data:`DIAGRAM_KEEP`).
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
    sample : int, optional
        Keep this many solutions drawn uniformly at random (independently)
        instead of the first ones; the count is the full count. Needs a
        diagram backend (:class:`DiagramCapable`), as do the next two.
    seed : int, optional
        Seed of the samples (the same seed draws the same solutions); when
        None, one is drawn from the operating system's entropy and recorded
        in ``stats["seed"]``, so any draw can be repeated.
    fixed : sequence of int
        Options every solution must hold (a partial board): ``count`` is the
        number of completions, and each solution holds them.
    frequencies : bool
        Also count, per option, the solutions holding it (``SolveResult.frequencies``).
    tally : bool
        Count the solutions per set of piece types used (``SolveResult.tally``).
    split : SplitSearch, optional
        Run a native count (no ``limit``) cut into subtrees (:mod:`.subtrees`): on several workers,
        with a progress bar, with a journal; the answers are those of one search.
    native : Backend, optional
        With the ``auto`` strategy: the kernel that counts natively (no Python per solution, on the
        orbit decomposition) when the rule chooses the kernel over the diagram.
    small_plain : bool
        With ``orbits``, on a backend that counts natively and estimates its search (``quick_estimate``):
        a search estimated below :data:`_SMALL_NODES` nodes is made whole, without the decomposition, its
        solutions tested against every symmetry in C for the count up to symmetry (``stats["symmetry"]``:
        ``"not needed for a small search"``); a count that lists no solution (``keep`` 0) restricts a piece
        none of whose placements a symmetry fixes to one placement per orbit where there is one
        (:func:`.branch.free_restriction`; ``"one piece restricted"``). The default solver's choice; a solver
        named explicitly searches what its name says.

    Returns
    -------
    SolveResult
        With a diagram, ``stats["engine"]`` names the road taken (``"zdd"``
        or the kernel of the ``auto`` strategy) and the stats hold the
        diagram's size and memory (:mod:`.zdd`).
    """
    start = time.perf_counter()
    name = backend.name if name is None else name
    reason = instance.precheck()
    if reason is not None:
        none_held = None
        if frequencies:   # no cover: every placement impossible, as a diagram would count them
            import numpy as np

            none_held = np.zeros(int(instance.n_options), dtype=np.int64)
        return SolveResult(Status.NO_SOLUTION, [], 0, True, 0,
                           {"wall_seconds": time.perf_counter() - start, "reason": reason}, name, [], instance,
                           frequencies=none_held)
    wants = sample is not None or bool(fixed) or frequencies
    empty = getattr(instance, "empty_type", -1)
    # the pieces of a cover: its options less the cells left empty (monominoes of the empty type)
    counted = None if pieces_used is None or empty < 0 else instance.table.option_type
    if on_solution is None and not wants and hasattr(backend, "search") and counted is None:
        # a cardinality is the backend's own
        return _drive_native(backend, instance, start, limit=limit, time_limit=time_limit, keep=keep,
                             reduce=reduce, orbits=orbits, name=name, tally=tally, split=split,
                             small_plain=small_plain)
    decomposition, notes = None, {}
    if orbits and not wants:  # planned once: the diagram of a count and the kernel search both run on it
        from .orbits import Decomposition, orbit_plan

        plan = orbit_plan(instance) if limit is None or limit == 1 else None
        if plan is not None:
            decomposition = Decomposition(instance, plan)
            notes = decomposition.stats()
        else:
            notes = {"symmetry": "not applicable" if limit is None or limit == 1 else "limit > 1"}
    rule: dict = {}
    # a tally needs every cover's piece types: the diagram hands them on one by one (backend.run)
    if pieces_used is None and hasattr(backend, "diagram") and (wants or on_solution is None) and not tally:
        restrict = decomposition if not wants and limit is None else None  # a count: the orbits suffice
        outcome = _drive_diagram(backend, instance, limit=limit, time_limit=time_limit, keep=keep, reduce=reduce,
                                 restrict=restrict, on_solution=on_solution, name=name, sample=sample, seed=seed,
                                 fixed=fixed, frequencies=frequencies, start=start)
        if isinstance(outcome, SolveResult):
            return outcome
        rule = outcome  # the ``auto`` rule chose the kernel: the notes say why
        if time_limit is not None:
            time_limit = max(0.0, time_limit - (time.perf_counter() - start))
        if native is not None and on_solution is None and not wants:
            result = _drive_native(native, instance, start, limit=limit, time_limit=time_limit, keep=keep,
                                   reduce=reduce, orbits=True, name=name, tally=False)
            result.stats.update({"engine": getattr(native, "name", name), **rule})
            return result
    count = found = 0  # solutions (weighted), solutions searched
    # Burnside's lemma: solutions up to symmetry = (sum over solutions of their stabiliser's order) / |G|;
    # ``stabilised`` accumulates the sum, so the reduced count needs no solution kept in memory.
    symmetric = reduce and len(instance.region_symmetries) > 1
    stabilised = 0
    kept: list[list[int]] = []
    stopped = False
    types_used: dict[tuple[int, ...], int] = {}
    option_type = getattr(instance, "option_type", None) if tally else None

    def pieces_in(options: Sequence[int]) -> int:
        return len(options) if counted is None else sum(1 for o in options if counted[o] != empty)

    def hand_on(solution: list[int]) -> bool:
        """Keep a solution of the whole instance and give it to ``on_solution``; False to stop."""
        if keep is None or len(kept) < keep:
            kept.append(solution)
        return on_solution is None or bool(on_solution(solution))

    def plain(options: Sequence[int]) -> bool:
        nonlocal count, found, stabilised, stopped
        if stopped:  # e.g. CP-SAT with several workers after the stop request
            return False
        if pieces_used is not None and pieces_in(options) != pieces_used:
            return True
        count += 1
        found += 1
        if symmetric:
            stabilised += instance.stabiliser_order(options)
        if option_type is not None:
            used = tuple(sorted({int(option_type[o]) for o in options}))
            types_used[used] = types_used.get(used, 0) + 1
        go = limit is None or found < limit
        if (on_solution is not None or keep is None or len(kept) < keep) and not hand_on(_ints(options)):
            go = False
        stopped = not go
        return go

    def lifted(options: Sequence[int]) -> bool:
        nonlocal count, found, stabilised, stopped
        if stopped:
            return False
        original, weight = decomposition.lift(options)
        if pieces_used is not None and pieces_in(original) != pieces_used:
            return True
        found += 1
        go = limit is None or found < limit
        # The solutions this one stands for: its images under one symmetry per placement of its orbit.
        if on_solution is not None or keep is None or len(kept) < keep:
            for handed, image in enumerate(decomposition.images(original), 1):
                if not hand_on(image):
                    go = False
                    weight = handed   # stopped by on_solution: the solutions found are those it was given
                    break
                if limit == 1 or (on_solution is None and keep is not None and len(kept) >= keep):
                    break
        count += weight
        if option_type is not None:  # its images use the same piece types
            used = tuple(sorted({int(option_type[o]) for o in original}))
            types_used[used] = types_used.get(used, 0) + weight
        if symmetric:  # the ``weight`` solutions it stands for are its images: same stabiliser order
            stabilised += weight * (1 if weight == decomposition.plan.group_order else instance.stabiliser_order(original))
        stopped = not go
        return go

    if decomposition is None and limit is None and not wants and pieces_used is None and hasattr(backend, "scanned"):
        # every solution handed on (--max-solutions all): a large enumeration on the raster scan or cell rule a
        # count would take (_drive_native), not on a first item that sees nothing of the rest
        from .branch import whole_branch

        chosen, _, time_limit = _choose_scan(backend, instance, [whole_branch(0, False)], time_limit, notes)
        backend = chosen.enumerator(instance)
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
        reduced = stabilised // (1 + len(instance.option_perm_lists)) if symmetric else count
    stats = {"wall_seconds": time.perf_counter() - start, **stats, **notes}
    if rule:
        stats.update({"engine": getattr(backend, "kernel", name), **rule})
    if not exhausted and not stopped and time_limit is not None:
        stats["timed_out"] = True  # neither exhausted nor stopped by a limit or the callback: the clock

    return SolveResult(status, [instance.solution_dict(s) for s in kept], count, exhausted, reduced, stats,
                       name, kept, instance, tally=types_used)


def _drive_native(backend, instance, start: float, *, limit, time_limit, keep, reduce, orbits, name,
                  tally, split=None, small_plain: bool = False) -> SolveResult:
    """:func:`drive` for a backend that counts natively: one call, no Python per solution."""
    from .branch import Branch, free_restriction, whole_branch

    n_sym = instance.n_option_perms if len(instance.region_symmetries) > 1 else 0   # the lists not made
    symmetric = reduce and n_sym > 0
    plan = None
    notes: dict = {}
    small = bool(orbits and small_plain and symmetric and not tally and (limit is None or limit == 1)) and \
        small_search(backend, instance, n_sym)
    # one search counts copies with the memo and keeps the plain search's first solutions (fixed_point_count);
    # a split count keeps the same
    memo = orbits and not tally and not small and symmetric and limit is None and keep is not None and \
        memo_counts(backend, instance)
    plain = backend
    restricted = None  # a small count's whole tree, a piece restricted (branch.free_restriction)
    kernel = None  # the search's kernel when made here (a small count's) or by the scan's choice
    if orbits and tally:  # the kernel tallies the solutions it meets, not those each stands for
        notes = {"symmetry": "not applied with a tally"}
    elif small:
        # a count listing no solution (those listed come in the plain search's order): a piece restricted in the
        # search where that loses nothing
        if limit is None and keep == 0 and split is None:
            restricted = free_restriction(instance)
        if restricted is not None and hasattr(backend, "small_kernel"):
            kernel = backend.small_kernel(instance)
        notes = {"symmetry": "not needed for a small search" if restricted is None else "one piece restricted"}
    elif memo and split is None:
        counted = fixed_point_count(backend, instance, start=start, time_limit=time_limit, keep=keep, name=name)
        assert counted is not None   # no budget: a count, complete or cut by the time limit
        return counted
    elif orbits:
        if n_sym and (limit is None or limit == 1):  # no symmetry: no plan (the decomposition not loaded)
            from .orbits import symmetry_plan

            plan = symmetry_plan(instance, enumerable=keep is None)
        notes = plan.stats() if plan is not None else \
            {"symmetry": "not applicable" if limit is None or limit == 1 else "limit > 1"}
    branches: Sequence[Branch]
    if plan is not None:
        branches = plan.branches
    else:
        branches = [whole_branch(n_sym, symmetric) if restricted is None else restricted]
    wanted = min(_NO_KEEP_LIMIT if keep is None else keep, _NO_KEEP_LIMIT if limit is None else limit)
    # a large count on the region's best raster scan and cell rule (its choice takes up to some 0.1 s: within a
    # share of a time limit, but whole for a split search, whose journal is keyed by them: a count resumed with
    # another time limit must find its journal); the search for the first solutions (a limit) on the better cell
    # rule (some milliseconds). Not for a search found small above: the choice's first look, the same probes, would
    # find it small again
    first = None  # the kernel whose first solutions one search keeps, where a split count runs on another
    if not small and hasattr(backend, "scanned"):
        rule = backend.rule
        backend, kernel, time_limit = _choose_scan(backend, instance, branches, time_limit, notes,
                                                   scans=limit is None, whole=split is not None)
        if limit is None and not tally and rule == "first":
            counter, counted = backend.counter(instance, kernel)
            if split is None:
                backend, kernel = counter, counted
            elif counter is not backend:  # cut into subtrees on the bitboard kernel: the solutions kept are
                first = counter  # those one search keeps, the dancing-cells kernel's first ones
    if split is not None and limit is None:  # the subtrees in the search order: the same answers
        branches, run = split.search(backend, instance, branches, keep=wanted, time_limit=time_limit, tally=tally,
                                     kernel=kernel)
    else:
        run = backend.search(instance, branches, limit=limit, keep=wanted, time_limit=time_limit, tally=tally,
                             kernel=kernel)
    exhausted = run.exhausted
    kept: list[list[int]] = []
    seen: set[tuple[int, ...]] = set()
    for index, options in run.found:  # the solutions found, and those each stands for (its images)
        for image in _images(instance, branches[index], options):
            key = tuple(image)
            if key not in seen and len(kept) < wanted:
                seen.add(key)
                kept.append(image)
    if memo and run.exhausted:
        left = None if time_limit is None else max(0.0, start + float(time_limit) - time.perf_counter())
        kept = first_solutions(plain, instance, keep, int(run.count), left)[0]
    elif first is not None and kept:
        left = None if time_limit is None else max(0.0, start + float(time_limit) - time.perf_counter())
        kept = [list(options) for _, options in first.search(instance, limit=len(kept), keep=len(kept),
                                                              time_limit=left).found]
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
        from .bitboard import type_sets

        types_used = type_sets(run.tally)
    return SolveResult(status, [instance.solution_dict(s) for s in kept], count, exhausted, reduced, stats,
                       name, kept, instance, tally=types_used)


_NO_KEEP_LIMIT = 1 << 62
#: The share of a search's time limit that the kernel's choice of its raster scan and cell rule may take
#: (:meth:`.bitboard.BitboardBackend.scanned`'s ``budget``): up to some 0.1 s on the pentomino boards, where the
#: best of them searches up to a hundred times fewer nodes than the first.
CHOICE_SHARE = 0.25


def _choose_scan(backend, instance, branches, time_limit: float | None, notes: dict, *, scans: bool = True,
                 whole: bool = False) -> tuple:
    """``backend.scanned`` (the raster scan and cell rule of a large search), within :data:`CHOICE_SHARE` of
    ``time_limit`` (seconds; ``whole``: no bound, the choice deterministic); ``notes`` gets ``scan`` and
    ``cell_rule`` where they differ from the backend's. Returns the backend chosen, its kernel (or None) and the
    time limit left for the search (None: none)."""
    began = time.perf_counter()
    rule = backend.rule
    budget = None if whole or time_limit is None else CHOICE_SHARE * time_limit
    chosen, kernel = backend.scanned(instance, branches, scans=scans, budget=budget)
    if chosen.scan:
        notes["scan"] = chosen.scan
    if chosen.rule != rule:
        notes["cell_rule"] = chosen.rule
    if time_limit is not None:
        time_limit = max(0.0, time_limit - (time.perf_counter() - began))
    return chosen, kernel, time_limit


def memo_counts(backend, instance) -> bool:
    """Whether ``backend`` counts ``instance`` with its memo while a piece type has copies, the count up to
    symmetry from each symmetry's fixed points (:func:`fixed_point_count`;
    :meth:`~ubongo_cp.solvers.bitboard.BitboardBackend.memo_copies`)."""
    takes = getattr(backend, "memo_copies", None)
    return takes is not None and takes(instance)


def fixed_point_count(backend, instance, *, start: float | None = None, time_limit: float | None = None,
                      keep: int = 0, name: str = "", budget: int | None = None) -> SolveResult | None:
    """The count of an instance with copies on a backend whose memo takes them (:func:`memo_counts`): the whole
    tree counted with the memo, each symmetry's invariant solutions counted apart, the reduced count by
    Burnside's lemma (:mod:`.fixed`); the first ``keep`` solutions from a search of their own, stopped there (a
    count that lists every solution searches the orbit decomposition: it meets them all).

    ``start``: the clock (:func:`time.perf_counter`) the result's seconds and ``time_limit`` (seconds) run from
    (default: now). With ``budget``: ``None`` once the counts' searches (the whole tree's and the fixed points')
    have made that many nodes, counted at the backend's heartbeats (then nothing is counted: the caller counts
    another way).
    """
    from .branch import whole_branch
    from .fixed import fixed_point_matrices

    start = time.perf_counter() if start is None else start
    deadline = None if time_limit is None else start + float(time_limit)

    def left() -> float | None:
        return None if deadline is None else max(0.0, deadline - time.perf_counter())

    beats = 0

    def spent() -> bool:   # asked at each heartbeat of the counts' searches
        nonlocal beats
        beats += 1
        return budget is not None and beats * backend.heartbeat >= budget

    whole = [whole_branch(0, False)]
    run = backend.search(instance, whole, keep=0, time_limit=left(), stop=spent)
    count, exhausted, nodes = int(run.count), run.exhausted, run.stats.get("nodes", 0)
    fixed = count
    matrices = fixed_point_matrices(instance) if exhausted else []
    for matrix in matrices:
        if not exhausted:
            break
        part = backend.search(matrix, whole, keep=0, time_limit=left(), stop=spent)
        fixed += int(part.count)
        exhausted = part.exhausted
        nodes += part.stats.get("nodes", 0)
    if not exhausted and budget is not None and beats * backend.heartbeat >= budget:
        return None
    kept, first_nodes = first_solutions(backend, instance, keep, count, left())
    nodes += first_nodes
    status = Status.SOLVED if count else (Status.NO_SOLUTION if exhausted else Status.UNKNOWN)
    reduced = fixed // (len(matrices) + 1) if exhausted else None
    stats = {"wall_seconds": time.perf_counter() - start, "nodes": nodes,
             "solutions_seen": run.stats.get("solutions_seen", 0), "symmetry": "fixed points",
             "group_order": len(matrices) + 1}
    return SolveResult(status, [instance.solution_dict(s) for s in kept], count, exhausted, reduced, stats,
                       name, kept, instance)


def first_solutions(backend, instance, keep: int, count: int, time_limit: float | None) -> tuple[list[list[int]], int]:
    """The first ``keep`` of the ``count`` solutions of ``instance`` in the order of ``backend``'s plain search (a
    search of their own, stopped there), and the nodes it made."""
    from .branch import whole_branch

    if not keep or not count:
        return [], 0
    first = backend.search(instance, [whole_branch(0, False)], limit=min(keep, count), keep=keep, time_limit=time_limit)
    return [list(options) for _, options in first.found], first.stats.get("nodes", 0)


#: Knuth's estimate of a whole search's nodes below which a backend that counts natively searches it without
#: the orbit decomposition (each solution tested against every symmetry in C for the count up to symmetry):
#: planning the decomposition takes about 0.1-2 ms, more than the nodes it spares on such a tree, and the
#: estimate (:data:`_SMALL_PROBES` probes) takes microseconds. Measured with ``solve(inst, keep=0)`` on
#: the pentomino rectangles and cards (``benchmarks/bench_bitboard.py``): 3x20 (an estimate of 11,000 nodes)
#: takes 2.0 ms without the decomposition against 2.4 ms with it; 4x15 (24 million) 30 ms against 4 ms.
_SMALL_NODES = 20_000
_SMALL_PROBES = 32


def small_search(backend, instance, n_sym: int) -> bool:
    """Whether the backend estimates the whole search of ``instance`` (``n_sym`` symmetries besides the identity)
    below :data:`_SMALL_NODES` nodes: its ``quick_estimate`` (:data:`_SMALL_PROBES` seeded probes); False for a
    backend without one.

    Where the default count asks its diagram gate (piece types with copies and a tree that may reach the gate,
    :func:`~ubongo_cp.solvers.asks_diagram`), the gate's own stratified estimate decides instead (the backend's
    ``estimate``, made once per instance): plain probes spread too widely where pieces have copies (32 of them
    put the 540,887 nodes of 20 P pentominoes in 5x20 at 4,557, and the search made whole took 14 ms against
    8 ms on the orbit decomposition).
    """
    from . import _gate_asks

    if _gate_asks(instance):
        stratified = getattr(backend, "estimate", None)
        if stratified is not None:
            return stratified(instance) < _SMALL_NODES
    estimate = getattr(backend, "quick_estimate", None)
    return estimate is not None and estimate(instance, n_sym, _SMALL_PROBES) < _SMALL_NODES


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


def _drive_diagram(backend, instance, *, limit, time_limit, keep, reduce, restrict, on_solution, name, sample, seed,
                   fixed, frequencies, start) -> SolveResult | dict:
    """:func:`drive` on a diagram backend: the result, or the ``auto`` rule's notes when the kernel should run.

    ``restrict``: the orbit decomposition to count on (None: the whole instance).
    """
    import numpy as np  # the diagram path only: solve's start-up stays free of numpy

    from .zdd import DiagramTooLarge, count_up_to_symmetry, peak_rss_mb

    wants = sample is not None or bool(fixed) or frequencies
    notes = restrict.stats() if restrict is not None else {}
    choose = getattr(backend, "choose", None)
    engine = "zdd" if restrict is None else "zdd-symmetry"

    def stopped(stats: dict) -> SolveResult:
        stats = {"wall_seconds": time.perf_counter() - start, "engine": engine, **notes, **stats,
                 "peak_rss_mb": peak_rss_mb()}
        return SolveResult(Status.UNKNOWN, [], 0, False, None, stats, name, [], instance)

    try:
        if choose is not None and not wants:
            diagram, rule = choose(instance, time_limit=time_limit, restrict=restrict)
            notes.update(rule)
            if diagram is None and not rule.get("timed_out"):
                return {key: value for key, value in notes.items() if key not in ("symmetry", "symmetry_piece",
                                                                                  "group_order", "orbits")}
        else:
            diagram = backend.diagram(instance, time_limit=time_limit, fixed=fixed, restrict=restrict)
    except DiagramTooLarge as exc:
        return stopped({**exc.stats, "memory_limited": True, "stopped": str(exc)})
    if diagram is None:
        return stopped({"timed_out": True})
    total = diagram.count()
    count, complete = total, True
    if sample is None and limit is not None and total > limit:
        count, complete = limit, False
    n_keep = DIAGRAM_KEEP if keep is None else keep  # the diagram holds them all: listing them is asked for
    kept: list[list[int]] = []

    if sample is not None and seed is None:  # drawn here and recorded in the stats: the draw can be repeated
        import secrets  # 4 ms to import: only for a random sample

        seed = secrets.randbits(32)

    def every() -> Iterator[list[int]]:
        if sample is not None:
            yield from diagram.sample(sample, seed)
            return
        for solution in diagram.solutions():
            if restrict is None:
                yield solution
            else:
                yield from restrict.images(np.asarray(solution, dtype=np.int64))

    source = every() if sample is not None or limit is None else islice(every(), count)
    if on_solution is None:
        kept = list(islice(source, n_keep)) if sample is None else list(source)
    else:
        for solution in source:
            if n_keep is None or len(kept) < n_keep:
                kept.append(solution)
            if not on_solution(solution):
                break
    reduced = None
    if complete and reduce and not fixed:
        left = None if time_limit is None else max(0.0, time_limit - (time.perf_counter() - start))
        reduced = count_up_to_symmetry(instance, total, time_limit=left,
                                       memory_limit=getattr(backend, "memory_limit", None))
    stats = {"wall_seconds": time.perf_counter() - start, "engine": engine, **diagram.stats, **notes,
             "peak_rss_mb": peak_rss_mb()}
    if sample is not None:
        stats.update(samples=sample, seed=seed)
    if fixed:
        stats["fixed"] = len(fixed)
    status = Status.SOLVED if total else Status.NO_SOLUTION
    return SolveResult(status, [instance.solution_dict(s) for s in kept], count, complete, reduced, stats, name,
                       kept, instance, frequencies=diagram.frequencies() if frequencies else None, diagram=diagram)


def item_bounds(instance) -> tuple[list[int], list[int]]:
    """Bounds ``(lo, hi)`` of every item of an instance: how often it must, and may, be covered.

    From ``instance.multiplicity`` (Algorithm M's bounds) when it is given;
    else ``[1..1]`` for a primary item and ``[0..1]`` for a secondary one.
    """
    bounds = instance.multiplicity
    if bounds is None:
        return [1] * instance.n_primary + [0] * instance.n_secondary, [1] * instance.n_items
    return [int(v) for v in bounds[:, 0]], [int(v) for v in bounds[:, 1]]


def unbranched_option(instance) -> int | None:
    """The first option of ``instance`` that covers no item of bounds ``[1..1]`` (``None``: there is none).

    The decision diagram (:mod:`.zdd`) branches on such items, as DXZ does, so it
    takes an instance only when every option covers one: every placement of a
    puzzle covers a cell; an exact-cover matrix with bounds may have other options.
    """
    region = getattr(instance, "region", None)
    if region is not None and not region.optional:
        return None  # every placement covers a cell of the region, [1..1]
    if region is None and getattr(instance, "bounds", None) is None:
        return None  # a matrix without bounds: each option covers a primary item, [1..1]
    import numpy as np

    lo, hi = (np.asarray(b) for b in item_bounds(instance))
    once = (lo == 1) & (hi == 1)
    indptr = np.asarray(instance.indptr, dtype=np.int64)
    hits = np.concatenate(([0], np.cumsum(once[np.asarray(instance.indices, dtype=np.int64)])))
    bad = np.flatnonzero(hits[indptr[1:]] == hits[indptr[:-1]])
    return int(bad[0]) if len(bad) else None


def option_place(instance, option: int) -> tuple[str, str | None, int | None]:
    """How a message names ``option`` of ``instance``: (its words, the file, the file's line).

    An option read from a file is ``"the option on this line"`` with the file and its line;
    else its label, or ``"option N"`` counted from 1.
    """
    lines = getattr(instance, "option_lines", ())
    if lines:
        return "the option on this line", getattr(instance, "path", None), int(lines[option])
    labels = getattr(instance, "option_labels", ())
    return (labels[option] if labels else f"option {option + 1}"), None, None


def _ints(options: Sequence[int]) -> list[int]:
    """Option ids as a list of Python ints (backends hand numpy arrays or lists)."""
    return options.tolist() if hasattr(options, "tolist") else [int(o) for o in options]
