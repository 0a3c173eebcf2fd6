"""Named solving strategies: documented solver configurations with one result type.

A *strategy* is a named way to answer "find one solution" or "count all
solutions" of an :class:`~ubongo_cp.cover.ExactCoverInstance`. Every strategy
returns the :class:`~ubongo_cp.solvers.base.SolveResult` of the core solvers
(``count``, ``complete``, ``count_reduced`` by the region's symmetries (UP-5),
``stats``), and all of them give the same counts (``tests/test_strategies.py``).
The benchmark harness (``python -m benchmarks.run``) compares them.

====================  =======================================================
name                  configuration
====================  =======================================================
cpsat                 CP-SAT, the plain model of :mod:`.cpsat` (1 worker)
cpsat-nopresolve      the same with CP-SAT presolve off
cpsat-2workers        2 search workers for a first-solution search
                      (enumeration always runs 1 worker so that every
                      solution is seen once)
cpsat-mrv             fixed search: branch on the placements of the most
                      constrained items first (``add_decision_strategy``)
cpsat-symmetry        CP-SAT on the orbit decomposition (see below)
cpsat-split           one sub-problem per placement of the most constrained
                      piece, solved by 2 concurrent threads
cpsat-split-proc      the same split on a pool of 2 processes
cpsat-symmetry-split  the orbit decomposition, split into one sub-problem per
                      representative placement (2 threads, presolve off)
dlx                   the ``"dlx"`` backend of :func:`~ubongo_cp.solvers.get_backend`
xcover                the ``xcover`` package (dancing cells), the DLX baseline
dlx-symmetry          the ``"dlx"`` backend on the orbit decomposition
xcover-symmetry       ``xcover`` on the orbit decomposition
sat                   CaDiCaL on a plain CNF encoding (:mod:`.cnf`)
====================  =======================================================

Orbit decomposition (symmetry breaking with an exact count)
-----------------------------------------------------------
Let G be the region's symmetries that map the placement set onto itself
(all of the region's symmetry group in free mode, UP-3). G acts on the
solutions. Pick a piece P whose name is unique in the task and split P's
placements into G-orbits; keep only one *representative* placement per
orbit. Every solution orbit holds a solution with P at a representative, and
``g`` maps the solutions with P at ``r`` one-to-one onto those with P at
``g(r)``, so the fixed count (UP-5) is recovered exactly::

    count = sum over orbits O of P's placements of |O| x #{solutions with P at rep(O)}

computed as one search over the restricted instance in which each solution
found is weighted by the size of its representative's orbit. The reduced
count is the number of solutions found whose representative has a trivial
stabiliser (each is the only member of its solution orbit with P at a
representative) plus the number of distinct canonical keys among the others.
The piece is the one with the fewest orbits (e.g. X in the 6x10 rectangle:
32 placements, 8 orbits of size 4), so the search space shrinks about |G|-fold.

Why the name must be unique: with two copies of P, solutions are counted with
the copies in increasing placement order (UP-5); a symmetry maps such a
solution to one whose copies may need relabelling, so "copy 1 at ``g(r)``" is
not in bijection with "copy 1 at ``r``" and the weighted sum would be wrong.
Each solution found also yields its images under one symmetry per placement
of its representative's orbit, so the kept solutions are all the solutions,
as with any other strategy. When no piece qualifies, or the instance has optional pieces (a solution need
not use P at all), or G is trivial, or a solution limit above 1 is asked
for, the strategy runs its base backend unchanged (``stats["symmetry"]`` says
which case applied).

References
----------
.. [1] D. E. Knuth, "Dancing Links", arXiv:cs/0011047 (2000), §"Applications
   to polyominoes": restricting the X pentomino to one quadrant of the 6x10
   rectangle to count the 2339 essentially different tilings.
.. [2] L. Perron (OR-Tools), google/or-tools issues #1186 and #1208: CP-SAT
   enumerates all solutions with one worker only (parallel enumeration
   without duplicates is not planned); #1213: decompose the problem
   logically yourself rather than ask the solver to. Hence the split into
   independent sub-problems solved concurrently.
.. [3] W. Burnside, *Theory of Groups of Finite Order* (1897): orbit counting.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from ..cover import ExactCoverInstance
from ..errors import InputError
from .base import NO_SOLUTION, SOLVED, UNKNOWN, SolveResult, drive

__all__ = ["Strategy", "STRATEGIES", "get_strategy", "solve_with", "strategy_names",
           "symmetry_orbits", "SymmetryPlan", "DEFAULT_STRATEGY"]

#: The strategy recommended for each question, from the measured benchmarks
#: (``docs/strategies.md``): first solution, count all, subset analysis.
DEFAULT_STRATEGY = {"first": "dlx", "count": "dlx-symmetry", "analyze": "dlx"}


@dataclass(frozen=True)
class Strategy:
    """One named solver configuration.

    Attributes
    ----------
    name : str
        Registry key (e.g. ``"cpsat-mrv"``).
    family : str
        ``"cpsat"``, ``"dlx"`` or ``"sat"``.
    summary : str
        One line: what the configuration does.
    run : callable
        ``run(instance, *, limit, time_limit, keep) -> SolveResult``.
    """

    name: str
    family: str
    summary: str
    run: Callable[..., SolveResult]


def get_strategy(name: str) -> Strategy:
    """The strategy registered as ``name``.

    Raises
    ------
    InputError
        For an unknown name (the message lists the known ones).
    """
    try:
        return STRATEGIES[name]
    except KeyError:
        raise InputError(f"unknown strategy {name!r}; choose one of {', '.join(STRATEGIES)}") from None


def strategy_names(family: str | None = None) -> list[str]:
    """Registered names, optionally only those of one family."""
    return [n for n, s in STRATEGIES.items() if family is None or s.family == family]


def solve_with(instance: ExactCoverInstance, strategy: str, *, limit: int | None = None,
               time_limit: float | None = None, keep: int | None = None) -> SolveResult:
    """Solve ``instance`` with the named strategy.

    Parameters
    ----------
    instance : ExactCoverInstance
        From :func:`ubongo_cp.cover.build_instance`.
    strategy : str
        A key of :data:`STRATEGIES`.
    limit : int, optional
        Stop after this many solutions (1 = first solution).
    time_limit : float, optional
        Seconds for the whole run; on time-out ``complete`` is False.
    keep : int, optional
        Keep at most this many solutions (default: all found).

    Returns
    -------
    SolveResult
        ``backend`` is the strategy name; ``stats["wall_seconds"]`` the wall
        time in seconds (instance build excluded).

    Raises
    ------
    InputError
        For an unknown strategy or a limit below 1.

    Examples
    --------
    >>> from ubongo_cp.pieces import load_pieces, Region
    >>> from ubongo_cp.cover import build_instance
    >>> inst = build_instance(load_pieces("pentominoes").pieces, Region.rectangle(3, 20))
    >>> r = solve_with(inst, "dlx-symmetry", keep=0)
    >>> r.count, r.count_reduced, r.complete
    (8, 2, True)
    """
    if limit is not None and limit < 1:
        raise InputError(f"limit must be at least 1, got {limit}")
    result = get_strategy(strategy).run(instance, limit=limit, time_limit=time_limit, keep=keep)
    result.backend = strategy
    return result


# ------------------------------------------------------------- orbit decomposition
@dataclass(frozen=True)
class SymmetryPlan:
    """How the orbit decomposition restricts one piece.

    Attributes
    ----------
    piece : int
        Index (into ``instance.pieces``) of the restricted piece.
    group_order : int
        |G|: the identity plus the region symmetries that map placements to placements.
    keep : numpy.ndarray of bool, shape (n_options,)
        Options kept (all options of other pieces, P's representatives).
    weight : numpy.ndarray of int64, shape (n_options,)
        For P's representatives, the size of their orbit; 0 elsewhere.
    perms : list of numpy.ndarray of int64
        Option permutation of each non-identity symmetry in G.
    """

    piece: int
    group_order: int
    keep: np.ndarray
    weight: np.ndarray
    perms: list

    @property
    def n_orbits(self) -> int:
        """Number of orbits of the restricted piece's placements."""
        return int((self.weight > 0).sum())


def symmetry_orbits(instance: ExactCoverInstance) -> SymmetryPlan | None:
    """Plan the orbit decomposition of ``instance`` (see the module docstring).

    Returns
    -------
    SymmetryPlan or None
        ``None`` when it does not apply: trivial symmetry group, optional
        pieces, or no piece whose name is unique in the task.

    Notes
    -----
    Cost O(|G| x placements x piece size) dictionary look-ups.

    Examples
    --------
    >>> from ubongo_cp.pieces import load_pieces, Region
    >>> from ubongo_cp.cover import build_instance
    >>> plan = symmetry_orbits(build_instance(load_pieces("pentominoes").pieces, Region.rectangle(6, 10)))
    >>> load_pieces("pentominoes").pieces[plan.piece].name  # the piece with the fewest orbits
    'X'
    >>> plan.group_order, plan.n_orbits, int(plan.weight.sum())
    (4, 8, 32)
    """
    if instance.optional_pieces or len(instance.region_symmetries) <= 1 or instance.n_options == 0:
        return None
    names = [p.name for p in instance.pieces]
    unique = [i for i, n in enumerate(names) if names.count(n) == 1]
    if not unique:
        return None
    perms = _option_perms(instance)
    if not perms:
        return None
    order = len(perms) + 1
    best = None
    for p in unique:
        opts = np.nonzero(instance.option_piece == p)[0]
        if len(opts) == 0:
            return None  # the pre-check reports this piece; nothing to plan
        orbit_min = opts.copy()
        for perm in perms:
            orbit_min = np.minimum(orbit_min, perm[opts])
        reps, sizes = np.unique(orbit_min, return_counts=True)
        score = (len(reps), -int((sizes == order).sum()), p)
        if best is None or score < best[0]:
            best = (score, p, reps, sizes)
    _, piece, reps, sizes = best
    keep = instance.option_piece != piece
    keep[reps] = True
    weight = np.zeros(instance.n_options, dtype=np.int64)
    weight[reps] = sizes
    return SymmetryPlan(piece, order, keep, weight, perms)


def _option_perms(instance: ExactCoverInstance) -> list[np.ndarray]:
    """Option permutations of the region symmetries (identity excluded) that map placements to placements."""
    n_cells = instance.n_cells
    index = {cell: i for i, cell in enumerate(instance.cells)}
    keys = {}
    rows = []
    for o in range(instance.n_options):
        items = instance.option_items(o)
        key = (int(instance.option_piece[o]), tuple(sorted(int(i) for i in items if i < n_cells)))
        keys[key] = o
        rows.append(key)
    perms = []
    for a, b, c, d in instance.region_symmetries[1:]:
        raw = [(a * r + b * q, c * r + d * q) for r, q in instance.cells]
        r0 = min(r for r, _ in raw)
        c0 = min(q for _, q in raw)
        cell_map = [index[(r - r0, q - c0)] for r, q in raw]
        perm = np.empty(instance.n_options, dtype=np.int64)
        for o, (piece, cells) in enumerate(rows):
            image = keys.get((piece, tuple(sorted(cell_map[i] for i in cells))))
            if image is None:
                break  # this symmetry does not preserve the placements (one-sided or fixed mode)
            perm[o] = image
        else:
            perms.append(perm)
    return perms


def _restrict(instance: ExactCoverInstance, keep: np.ndarray) -> tuple[ExactCoverInstance, np.ndarray]:
    """The instance with only the options in ``keep``; and the original id of each kept option."""
    kept = np.nonzero(keep)[0]
    lengths = np.diff(instance.indptr.astype(np.int64))[kept]
    indptr = np.zeros(len(kept) + 1, dtype=np.uint32)
    indptr[1:] = np.cumsum(lengths)
    indices = np.concatenate([instance.option_items(int(o)) for o in kept]).astype(np.uint32) \
        if len(kept) else np.zeros(0, np.uint32)
    sub = dataclasses.replace(instance, indptr=indptr, indices=indices, option_piece=instance.option_piece[kept],
                              option_orientation=instance.option_orientation[kept],
                              option_offset=instance.option_offset[kept], _cache={})
    return sub, kept


def _coset_perms(plan: SymmetryPlan) -> dict[int, list]:
    """For each representative ``r``: one permutation per placement of r's orbit mapping r there (None = identity)."""
    out: dict[int, list] = {}
    for r in np.nonzero(plan.weight)[0]:
        r = int(r)
        targets = {r: None}
        for perm in plan.perms:
            targets.setdefault(int(perm[r]), perm)
        out[r] = list(targets.values())
    return out


def _copies_in_order(instance: ExactCoverInstance, options: np.ndarray) -> np.ndarray:
    """Reassign the placements of copies of one piece so they rise in option order (UP-5)."""
    if not instance.copy_groups:
        return options
    first = instance.piece_first_option
    options = options.copy()
    pieces = instance.option_piece[options]
    for group in instance.copy_groups:
        at = np.nonzero(np.isin(pieces, group))[0]
        local = np.sort(options[at] - first[pieces[at]])
        options[at] = first[np.asarray(group)] + local
    return options


def _orbit_solve(make_backend: Callable[[], object], instance: ExactCoverInstance, *, limit, time_limit,
                 keep) -> SolveResult:
    """Run a backend on the orbit decomposition of ``instance`` (module docstring)."""
    start = time.perf_counter()
    reason = instance.precheck()
    if reason is not None:
        return SolveResult(NO_SOLUTION, [], 0, True, 0,
                           {"wall_seconds": time.perf_counter() - start, "reason": reason})
    plan = symmetry_orbits(instance) if (limit is None or limit == 1) else None
    backend = _StopGuard(make_backend())
    if plan is None:
        result = drive(backend, instance, limit=limit, time_limit=time_limit, keep=keep)
        result.stats["wall_seconds"] = time.perf_counter() - start
        result.stats["symmetry"] = "not applicable" if (limit is None or limit == 1) else "limit > 1"
        return result
    sub, orig = _restrict(instance, plan.keep)
    signature = instance.option_signature
    perms = plan.perms
    images = _coset_perms(plan)
    count = found = free_orbits = 0
    keys: set = set()
    kept: list[list[int]] = []

    def on_solution(options: Sequence[int]) -> bool:
        nonlocal count, found, free_orbits
        options = np.asarray(options, dtype=np.int64)
        original = orig[options]
        rep = int(original[instance.option_piece[original] == plan.piece][0])
        w = int(plan.weight[rep])
        found += 1
        count += w
        if w == plan.group_order:
            free_orbits += 1  # trivial stabiliser: the only member of its orbit found
        else:
            sig = signature[original]
            keys.add(min(tuple(sorted(s.tolist())) for s in [sig] + [signature[perm[original]] for perm in perms]))
        # The w solutions this one stands for: its images under one symmetry per placement of P's orbit.
        for perm in images[rep]:
            if keep is not None and len(kept) >= keep:
                break
            image = original if perm is None else _copies_in_order(instance, perm[original])
            kept.append(sorted(int(o) for o in image))
        return limit is None or found < limit

    exhausted, stats = backend.run(sub, on_solution, time_limit=time_limit, first_only=limit == 1)
    if found == 0:
        status = NO_SOLUTION if exhausted else UNKNOWN
    else:
        status = SOLVED
    stats = {"wall_seconds": time.perf_counter() - start, **stats, "symmetry": "orbits",
             "symmetry_piece": instance.pieces[plan.piece].name, "group_order": plan.group_order,
             "orbits": plan.n_orbits, "solutions_searched": found}
    if limit == 1 and found:
        count, exhausted = 1, False  # a first-solution search: the weighted count is not asked for
        kept = kept[:1]
    return SolveResult(status, [instance.solution_dict(s) for s in kept], count, exhausted,
                       free_orbits + len(keys) if exhausted else None, stats, "", kept)


# ------------------------------------------------------------------ CP-SAT variants
class _Collector:
    """CP-SAT solution callback factory (collects option ids; never prints)."""

    @staticmethod
    def make(x, on_solution, stop_flag: threading.Event | None = None, lock: threading.Lock | None = None):
        from ortools.sat.python import cp_model

        class Collector(cp_model.CpSolverSolutionCallback):
            def __init__(self) -> None:
                super().__init__()
                self.stopped = False

            def on_solution_callback(self) -> None:
                chosen = [o for o, var in enumerate(x) if self.boolean_value(var)]
                if lock is not None:
                    with lock:
                        go = not (stop_flag is not None and stop_flag.is_set()) and on_solution(chosen)
                else:
                    go = not (stop_flag is not None and stop_flag.is_set()) and on_solution(chosen)
                if not go:
                    self.stopped = True
                    if stop_flag is not None:
                        stop_flag.set()
                    self.stop_search()

        return Collector()


@dataclass
class CpSatMrvBackend:
    """CP-SAT with a fixed search that branches on the most constrained items first.

    The decision variables are the placements, listed item by item in
    increasing number of covering placements (a static MRV order: the item
    with the fewest placements first), each tried at value 1 first
    (``CHOOSE_FIRST``, ``SELECT_MAX_VALUE``, ``search_branching =
    FIXED_SEARCH``). CP-SAT cannot re-order items dynamically as DLX does.
    """

    workers: int = 1
    name: str = "cpsat-mrv"

    def run(self, instance, on_solution, *, time_limit=None, first_only=False):
        """Backend protocol (see :class:`~ubongo_cp.solvers.base.Backend`)."""
        from ortools.sat.python import cp_model

        from .cpsat import build_model

        model, x = build_model(instance)
        # Decision strategy: placements of the most constrained primary item first.
        covering: list[list[int]] = [[] for _ in range(instance.n_items)]
        for o in range(instance.n_options):
            for item in instance.option_items(o):
                covering[int(item)].append(o)
        order: list[int] = []
        seen = np.zeros(instance.n_options, dtype=bool)
        for item in sorted(range(instance.n_primary), key=lambda i: (len(covering[i]), i)):
            for o in covering[item]:
                if not seen[o]:
                    seen[o] = True
                    order.append(o)
        order += [o for o in range(instance.n_options) if not seen[o]]
        model.add_decision_strategy([x[o] for o in order], cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
        solver = cp_model.CpSolver()
        params = solver.parameters
        params.search_branching = cp_model.FIXED_SEARCH
        params.num_workers = self.workers if first_only else 1
        params.enumerate_all_solutions = not first_only
        if time_limit is not None:
            params.max_time_in_seconds = float(time_limit)
        collector = _Collector.make(x, on_solution)
        from ..cpsat_runtime import run_solver

        status = run_solver(solver, model, collector)
        return _cpsat_outcome(solver, status, collector, first_only)


def _cpsat_outcome(solver, status, collector, first_only) -> tuple[bool, dict]:
    from ortools.sat.python import cp_model

    exhausted = (status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and not collector.stopped
                 and not (first_only and status == cp_model.OPTIMAL))
    if status == cp_model.INFEASIBLE:
        exhausted = True
    return exhausted, {"branches": int(solver.num_branches), "conflicts": int(solver.num_conflicts),
                       "solver_seconds": float(solver.wall_time)}


@dataclass
class CpSatSplitBackend:
    """CP-SAT enumeration split into independent sub-problems solved concurrently.

    The *pivot* is the most constrained piece (fewest placements; the most
    constrained region cell when pieces are optional, since a piece may then
    be unused). Sub-problem ``i`` fixes the pivot's placement ``i``; the
    sub-problems partition the solutions, so their counts add up. Each
    sub-problem is one single-worker CP-SAT solve of the same model with one
    variable fixed to 1.

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
    """

    jobs: int = 2
    executor: str = "thread"
    presolve: bool = True
    name: str = "cpsat-split"

    def run(self, instance, on_solution, *, time_limit=None, first_only=False):
        """Backend protocol (see :class:`~ubongo_cp.solvers.base.Backend`)."""
        from .cpsat import build_model

        model, x = build_model(instance)
        pivots = _pivot_options(instance)
        deadline = None if time_limit is None else time.perf_counter() + float(time_limit)
        totals = {"branches": 0, "conflicts": 0, "subproblems": len(pivots), "executor": self.executor}
        if self.executor == "process":
            return self._run_processes(instance, pivots, on_solution, deadline, first_only, totals)
        stop = threading.Event()
        lock = threading.Lock()
        results: list[bool] = []

        def work(o: int) -> None:
            remaining = None if deadline is None else deadline - time.perf_counter()
            if stop.is_set() or (remaining is not None and remaining <= 0):
                results.append(False)
                return
            exhausted, stats = _solve_pinned(model, o, remaining, first_only, on_solution, stop, lock,
                                             self.presolve)
            with lock:
                totals["branches"] += stats["branches"]
                totals["conflicts"] += stats["conflicts"]
                results.append(exhausted)

        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            try:
                list(pool.map(work, pivots))
            except KeyboardInterrupt:  # stop the running sub-problems, skip the rest
                from ..cpsat_runtime import stop_active_solvers

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
            futures = [pool.submit(_solve_pinned_collect, instance, chunk, remaining, first_only, self.presolve)
                       for chunk in chunks if chunk]
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


def _pivot_options(instance: ExactCoverInstance) -> list[int]:
    """Options of the most constrained piece (or cell, when pieces are optional), in id order."""
    if instance.n_options == 0:
        return []
    if not instance.optional_pieces:
        per_piece = instance.options_per_piece()
        piece = int(np.argmin(per_piece))
        return [int(o) for o in np.nonzero(instance.option_piece == piece)[0]]
    per_cell = instance.options_per_cell()
    cell = int(np.argmin(per_cell))
    return [o for o in range(instance.n_options) if cell in instance.option_items(o)]


def _solve_pinned(model, option, time_limit, first_only, on_solution, stop, lock, presolve=True):
    """Solve the sub-problem of ``model`` in which placement ``option`` is used."""
    from ortools.sat.python import cp_model

    sub = model.clone()
    x = [sub.get_bool_var_from_proto_index(i) for i in range(len(sub.proto.variables))]
    # The pivot placement of this sub-problem is used.
    sub.add(x[option] == 1)
    solver = cp_model.CpSolver()
    params = solver.parameters
    params.num_workers = 1
    params.enumerate_all_solutions = not first_only
    params.cp_model_presolve = presolve
    if time_limit is not None:
        params.max_time_in_seconds = float(time_limit)
    collector = _Collector.make(x, on_solution, stop, lock)
    from ..cpsat_runtime import run_solver

    status = run_solver(solver, sub, collector)
    return _cpsat_outcome(solver, status, collector, first_only)


def _solve_pinned_collect(instance, options, time_limit, first_only, presolve=True):
    """Solve several sub-problems in a worker process; returns (exhausted, stats, solutions)."""
    from .cpsat import build_model

    model, _ = build_model(instance)
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
        done, stats = _solve_pinned(model, o, remaining, first_only, collect, None, None, presolve)
        totals["branches"] += stats["branches"]
        totals["conflicts"] += stats["conflicts"]
        exhausted &= done
        if first_only and solutions:
            return False, totals, solutions
    return exhausted, totals, solutions


# ------------------------------------------------------------------------ registry
class _StopGuard:
    """Backend wrapper: once ``on_solution`` has returned False, later solutions are dropped.

    CP-SAT with several workers can report a second solution after
    ``stop_search`` was requested (seen with 2 workers and ``limit=1``).
    """

    def __init__(self, backend) -> None:
        self.inner = backend
        self.name = backend.name

    def run(self, instance, on_solution, **kwargs):
        stopped = False

        def guarded(options) -> bool:
            nonlocal stopped
            if stopped:
                return False
            stopped = not on_solution(options)
            return not stopped

        return self.inner.run(instance, guarded, **kwargs)


def _driven(factory: Callable[[], object]) -> Callable[..., SolveResult]:
    def run(instance, *, limit=None, time_limit=None, keep=None):
        return drive(_StopGuard(factory()), instance, limit=limit, time_limit=time_limit, keep=keep)

    return run


def _orbits(factory: Callable[[], object]) -> Callable[..., SolveResult]:
    def run(instance, *, limit=None, time_limit=None, keep=None):
        return _orbit_solve(factory, instance, limit=limit, time_limit=time_limit, keep=keep)

    return run


def _cpsat(**kwargs):
    def factory():
        from .cpsat import CpSatBackend

        return CpSatBackend(**kwargs)

    return factory


def _named(name: str):
    def factory():
        from . import get_backend

        return get_backend(name)

    return factory


def _sat():
    from .cnf import CnfBackend

    return CnfBackend()


STRATEGIES: dict[str, Strategy] = {s.name: s for s in [
    Strategy("cpsat", "cpsat", "CP-SAT plain model, 1 worker, presolve on", _driven(_cpsat())),
    Strategy("cpsat-nopresolve", "cpsat", "CP-SAT with presolve off", _driven(_cpsat(presolve=False))),
    Strategy("cpsat-2workers", "cpsat", "CP-SAT with 2 workers for a first solution (1 when enumerating)",
             _driven(_cpsat(workers=2))),
    Strategy("cpsat-mrv", "cpsat", "CP-SAT fixed search on the most constrained items' placements first",
             _driven(CpSatMrvBackend)),
    Strategy("cpsat-symmetry", "cpsat", "CP-SAT on the orbit decomposition (one piece at orbit representatives)",
             _orbits(_cpsat())),
    Strategy("cpsat-split", "cpsat", "CP-SAT, one sub-problem per placement of the most constrained piece, "
             "2 threads", _driven(CpSatSplitBackend)),
    Strategy("cpsat-split-proc", "cpsat", "cpsat-split on a pool of 2 processes",
             _driven(lambda: CpSatSplitBackend(executor="process", name="cpsat-split-proc"))),
    Strategy("cpsat-symmetry-split", "cpsat", "orbit decomposition, then one CP-SAT sub-problem per "
             "representative placement, 2 threads, presolve off",
             _orbits(lambda: CpSatSplitBackend(presolve=False, name="cpsat-symmetry-split"))),
    Strategy("dlx", "dlx", "the dlx backend (Algorithm X)", _driven(_named("dlx"))),
    Strategy("xcover", "dlx", "the xcover package (dancing cells), DLX baseline", _driven(_named("xcover"))),
    Strategy("dlx-symmetry", "dlx", "the dlx backend on the orbit decomposition", _orbits(_named("dlx"))),
    Strategy("xcover-symmetry", "dlx", "the xcover package on the orbit decomposition",
             _orbits(_named("xcover"))),
    Strategy("sat", "sat", "CaDiCaL on a plain CNF encoding, blocking clauses", _driven(_sat)),
]}
