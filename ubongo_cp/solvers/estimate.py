"""How big is a search before running it: Knuth's estimate of the search tree a count runs.

Knuth's estimator [1]_ follows random paths down the backtrack tree, each
time choosing one of the ``d`` branches of a node with probability ``1/d``;
along a path the product of the degrees met so far counts the nodes of a
level, and the sum of those products is an unbiased estimate of the
tree's nodes (and, for the paths that end in a solution, of the
solutions). The paths are walked by the search kernel itself, so the tree
estimated is exactly the one a backend searches: the same branching rule,
the same node count. Two engines:

- ``"bitboard"``: the default count's (:func:`~ubongo_cp.solvers.solve`
  with the ``bitboard-symmetry`` solver): the bitboard kernel's tree
  (``probe`` of :mod:`ubongo_cp.solvers.bitboard`'s kernel: a node is a placement made,
  the dead-region test as the search applies it) below every branch of the
  symmetry plan, each solution counted with its plan weight, so the
  solutions estimated are the count's. The kernel's memo, which answers
  some subtrees without searching them, is not modelled: where it applies
  the estimate is of the tree without it, above the nodes the count makes;
- ``"dlx"``: the dancing-cells engine's tree with no symmetry reduction
  (:mod:`.dancing`, ``probe``), for any instance that engine takes
  (bounds and colours too) and for counts of the pieces used.

The estimate is stratified as in the census planner
(:func:`ubongo_cp.polyominoes.estimate_count`): the top of the tree is
searched exactly, down to the deepest level with at most ``max_starts``
live nodes (``"dlx"``), or cut into at most ``max_starts`` subtrees as a
split count cuts it (``"bitboard"``, :func:`.subtrees.split_branches`),
and the probes are shared equally among the subtrees below it; a tree that
the short first search (the count itself, for a quarter of the budget)
finishes is counted, not estimated. The time is the estimated node count
over the node rate of that first search.

References
----------
.. [1] D. E. Knuth, "Estimating the efficiency of backtrack programs",
   *Math. Comp.* 29 (1975) 121-136.
"""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass

import numpy as np

from ..errors import InputError
from . import dancing

__all__ = ["SearchEstimate", "estimate_search", "ALWAYS_COUNTED", "FEW_SOLUTION_PROBES"]

#: Nodes the first search may always take, whatever the time budget (about 0.1 s): a tree this small is
#: counted, not estimated.
ALWAYS_COUNTED = 131_072

#: Probes that must reach a solution before the estimate of the solutions is given a standard error. The
#: paths to solutions can be rare and of widely different weights, and then the probes' spread understates
#: the error many times over (seeded runs, the same in ``tests/test_estimate.py``): with 3 to 5 of 96,000
#: probes reaching a solution, the hexiamonds in the 6x6 parallelogram (624 solutions) were estimated at 18
#: to 282, most of them several standard errors below 624; the pentominoes in 6x10 (9,356) at 3,270 ± 660
#: from 87 probes that met one. From a few hundred on the pentomino rectangles' truth lay within two standard errors,
#: but the hexiamonds' 624 still lay 3.7 of them above 342 ± 76 from 1,021 of 15 million probes: even a ±
#: given is the spread of the paths met, not of those never taken.
FEW_SOLUTION_PROBES = 1000


@dataclass(frozen=True)
class SearchEstimate:
    """Knuth's estimate of one search (see the module docstring).

    Attributes
    ----------
    nodes, solutions : float
        Estimated search-tree nodes (options tried) and solutions of the
        whole search (every solution, none reduced by symmetry).
    nodes_error : float
        Its standard error (0 when counted exactly).
    solutions_error : float or None
        The standard error of ``solutions`` (0 when counted exactly); None when fewer than
        :data:`FEW_SOLUTION_PROBES` probes reached a solution (or none did): the spread of so few
        says nothing of the solutions on the paths not taken, and the count may be many times the
        estimate.
    seconds, seconds_error : float
        Estimated CPU time of the whole search on the ``dlx`` engine (s),
        and its standard error, from the node rate measured here.
    probes : int
        Random paths followed.
    solution_probes : int
        Those of them that ended in a solution.
    exact : bool
        True when the whole search ran within the budget: the counts are exact.
    elapsed : float
        Seconds this estimate took.
    reason : str or None
        Why the instance has no solution without any search (its pre-check,
        as :func:`~ubongo_cp.solvers.solve` answers at once): nothing is searched
        and every count is 0; else None.
    engine : str
        The search estimated: ``"bitboard"`` or ``"dlx"`` (module docstring).
    """

    nodes: float
    nodes_error: float
    solutions: float
    solutions_error: float | None
    seconds: float
    seconds_error: float
    probes: int
    exact: bool
    elapsed: float
    reason: str | None = None
    engine: str = "dlx"
    solution_probes: int = 0

    def to_json(self) -> dict:
        """The attributes as a JSON-ready dict."""
        return asdict(self)

    def summary(self) -> str:
        """One line: nodes, solutions and time with their standard errors (the solutions' only when
        :data:`FEW_SOLUTION_PROBES` probes or more reached a solution)."""
        if self.reason is not None:
            return f"nothing to search: no solution ({self.reason})"
        if self.exact:
            return (f"exact (the search ran to its end): {_counted(self.nodes, 'node')}, "
                    f"{_counted(self.solutions, 'solution')}, {_duration(self.seconds)} [{self.engine}]")
        if not self.solutions:
            sols = "no solution met by the probes (solutions may still exist)"
        elif self.solutions_error is None:
            sols = (f"about {_sci(self.solutions)} solutions, but only {self.solution_probes:,} "
                    f"{'probe' if self.solution_probes == 1 else 'probes'} reached one (fewer than "
                    f"{FEW_SOLUTION_PROBES}): too few for an error, the count may be many times this")
        else:
            sols = (f"{_sci(self.solutions)} ± {_sci(self.solutions_error)} solutions "
                    f"({self.solution_probes:,} probes reached one)")
        return (f"estimate from {self.probes:,} random probes: {_sci(self.nodes)} ± {_sci(self.nodes_error)} nodes, "
                f"{sols}, "
                f"{_duration(self.seconds)} ± {_duration(self.seconds_error)} on one core (standard errors) "
                f"[{self.engine}]")


def _counted(n: float, noun: str) -> str:
    """``n`` (a whole number) and the noun, singular for 1: ``"1 node"``, ``"1,024 nodes"``."""
    return f"{n:,.0f} {noun}{'' if round(n) == 1 else 's'}"


def estimate_search(instance, *, seconds: float = 1.5, max_starts: int = 256, seed: int = 0,
                    count_below: int | None = None, pieces_used: int | None = None,
                    engine: str | None = None, probes: int | None = None) -> SearchEstimate:
    """Estimate the nodes, solutions and CPU time of a search of ``instance`` (module docstring).

    Parameters
    ----------
    instance : ExactCoverInstance or ExactCoverMatrix
        Any instance the engine takes (``"dlx"``: bounds and colours too).
    seconds : float
        About how long to spend (s): a quarter on a first search that
        measures the node rate (and ends the estimate when it finishes the
        tree), the rest on probes.
    max_starts : int
        Most nodes of the level the probes start from (the stratification).
    seed : int
        Seed of the random paths (same seed and budget, about the same
        estimate; the number of probes follows the time spent).
    count_below : int, optional
        Nodes the first search may take at most (default: as many as a
        quarter of ``seconds`` allows, at least :data:`ALWAYS_COUNTED`); a
        tree it finishes is counted.
    pieces_used : int, optional
        Count only the solutions with exactly this many pieces (the cells
        left empty are no piece), as :func:`~ubongo_cp.solvers.solve` and
        :func:`~ubongo_cp.analyze.analyze` do with it: the tree searched is
        the same, its solutions with another number of pieces are not counted
        (the ``"dlx"`` engine).
    engine : {"bitboard", "dlx"}, optional
        The search to estimate. Default: that of the default count
        (:func:`~ubongo_cp.solvers.registry.choose`): ``"bitboard"`` where
        the kernel takes the instance, else ``"dlx"``; ``"dlx"`` with
        ``pieces_used`` or ``count_below``.
    probes : int, optional
        Take this many probes (rounded up to a whole round over the subtrees), however long they
        take, instead of probing for the rest of ``seconds``: with ``seed``, the same estimate every
        time (when the first search does not finish the tree).

    Returns
    -------
    SearchEstimate

        An instance its pre-check settles (no solution, whatever the search) is not
        searched: the estimate holds 0 nodes and the pre-check's reason.

    Raises
    ------
    InputError
        For ``seconds <= 0``, ``max_starts < 1`` or ``probes < 1``, an unknown engine, ``pieces_used`` or
        ``count_below`` with the ``"bitboard"`` engine, or an instance the engine refuses.

    Examples
    --------
    >>> from ubongo_cp.pieces import load_pieces, Region
    >>> from ubongo_cp.cover import build_instance
    >>> e = estimate_search(build_instance(load_pieces("pentominoes").pieces, Region.rectangle(3, 20)))
    >>> e.exact, e.solutions, e.engine  # a small tree: counted
    (True, 8.0, 'bitboard')
    """
    if not seconds > 0:
        raise InputError(f"the estimate needs a time budget above 0 s, got {seconds}")
    if count_below is not None and count_below < 1:
        raise InputError(f"count_below must be at least 1, got {count_below}")
    if max_starts < 1:
        raise InputError(f"max_starts must be at least 1, got {max_starts}")
    if probes is not None and probes < 1:
        raise InputError(f"probes must be at least 1, got {probes}")
    if engine not in (None, "bitboard", "dlx"):
        raise InputError(f"unknown engine {engine!r} to estimate; choose bitboard or dlx")
    if engine == "bitboard" and (pieces_used is not None or count_below is not None):
        raise InputError("the bitboard engine's estimate counts every solution, with no first-search cap: "
                         "pieces_used and count_below go with engine='dlx'")
    if engine is None:
        from .registry import choose

        plain = pieces_used is None and count_below is None
        engine = "bitboard" if plain and choose("count", instance).startswith("bitboard") else "dlx"
    t0 = time.perf_counter()
    reason = instance.precheck()
    if reason is not None:  # as solve: settled before any search
        return SearchEstimate(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, True, time.perf_counter() - t0, reason, engine)
    if engine == "bitboard":
        return _estimate_bitboard(instance, seconds, max_starts, seed, t0, probes)
    c0 = time.process_time()
    args = (instance.indptr, instance.indices, instance.n_items, instance.n_secondary,
            instance.multiplicity, getattr(instance, "colours", None))
    weights = None if pieces_used is None else _piece_weights(instance)
    counted = _Counted(weights, pieces_used)
    # A first search, as dlx runs it: the node rate, and the whole count when the tree is small.
    first = dancing._Engine(*args)
    budget, deadline = 2_000, t0 + seconds / 4
    cap = dancing._NO_LIMIT if count_below is None else int(count_below)
    while True:
        counted.step(first, min(budget, cap))
        if first.done or budget >= cap or (time.perf_counter() >= deadline and budget >= ALWAYS_COUNTED):
            break
        budget *= 2
    cpu = max(time.process_time() - c0, 1e-9)
    rate = first.nodes / cpu  # nodes per CPU second
    if first.done:
        return SearchEstimate(float(first.nodes), 0.0, float(counted.solutions(first)), 0.0, cpu, 0.0, 0, True,
                              time.perf_counter() - t0)
    top_nodes, top_solutions, starts = _stratify(args, max_starts, _Counted(weights, pieces_used))
    walker = dancing._Engine(*args)
    rng = np.random.default_rng(seed)
    sums = np.zeros((len(starts), 4))  # per start: sum and sum of squares of the node and solution estimates
    per_round = max(1, 512 // len(starts))
    n, hits = 0, 0
    end = t0 + seconds
    while _more(n, len(starts), probes, end):
        for i, path in enumerate(starts):
            walker.reset_root()
            if path and walker.descend(path) != 1:
                raise RuntimeError(f"a live node of the search was not found again: {path}")
            walker.mark()
            nodes, sols = walker.probe(rng.random((per_round, walker.depth)), weights,
                                       -1 if pieces_used is None else pieces_used)
            sums[i] += (nodes.sum(), (nodes * nodes).sum(), sols.sum(), (sols * sols).sum())
            hits += int(np.count_nonzero(sols))
        n += per_round
    mean_nodes, mean_sols = sums[:, 0] / n, sums[:, 2] / n
    var_nodes = np.maximum(sums[:, 1] / n - mean_nodes ** 2, 0) / max(n - 1, 1)
    var_sols = np.maximum(sums[:, 3] / n - mean_sols ** 2, 0) / max(n - 1, 1)
    nodes_est = top_nodes + float(mean_nodes.sum())
    nodes_err = math.sqrt(float(var_nodes.sum()))
    return SearchEstimate(nodes_est, nodes_err, top_solutions + float(mean_sols.sum()),
                          _solutions_error(float(var_sols.sum()), hits), nodes_est / rate, nodes_err / rate,
                          n * len(starts), False, time.perf_counter() - t0, solution_probes=hits)


def _more(n: int, n_starts: int, probes: int | None, end: float) -> bool:
    """Whether to take another round of probes: ``n`` taken below each of ``n_starts`` subtrees, ``probes``
    wanted in all (None: until the clock reads ``end``, at least one round)."""
    if probes is not None:
        return n * n_starts < probes
    return n == 0 or time.perf_counter() < end


def _solutions_error(variance: float, hits: int) -> float | None:
    """The standard error of the solutions estimated, from the variance of their estimate and the probes that
    reached a solution: None for fewer than :data:`FEW_SOLUTION_PROBES` of them."""
    return math.sqrt(variance) if hits >= FEW_SOLUTION_PROBES else None


def _estimate_bitboard(instance, seconds: float, max_starts: int, seed: int, t0: float,
                       probes: int | None) -> SearchEstimate:
    """:func:`estimate_search` of the default count's search: the bitboard kernel below the symmetry plan."""
    from .bitboard import branch_restriction
    from .registry import get_solver
    from .subtrees import split_branches

    count = get_solver("bitboard-symmetry").make()
    branches = _plan_branches(instance, count)
    backend, search = count.scanned(instance, branches)  # the count's own scan
    if search is None:  # a small count's whole tree, a piece restricted: the count's small kernel
        small = len(branches) == 1 and branches[0].restrict is not None and not branches[0].prefix
        search = backend.small_kernel(instance) if small else backend._search(instance)
    c0 = time.process_time()
    first = backend.search(instance, branches, time_limit=seconds / 4, kernel=search)  # the count, for a while
    cpu = max(time.process_time() - c0, 1e-9)
    nodes_done = int(first.stats.get("nodes", 0))
    if first.exhausted:
        return SearchEstimate(float(nodes_done), 0.0, float(first.count), 0.0, cpu, 0.0, 0, True,
                              time.perf_counter() - t0, None, "bitboard")
    rate = max(nodes_done, 1) / cpu  # nodes per CPU second of the search alone
    cut: dict = {}
    subtrees = split_branches(search, instance, branches, max_starts, cut)
    weights_of: dict = {}
    starts = []
    for sub in subtrees:
        b = sub.branch
        starts.append((b.prefix, branch_restriction(search, b, weights_of), b.free_weight, float(b.weight)))
    sums = [[0.0, 0.0, 0.0, 0.0] for _ in starts]
    per_round = max(1, 4096 // max(len(starts), 1))
    n, calls, hits = 0, 0, 0
    end = t0 + seconds
    while _more(n, len(starts), probes, end):
        for i, (prefix, restrict, free, weight) in enumerate(starts):
            calls += 1
            if not search.start(prefix, restrict=restrict, residual=free):
                continue
            a, a2, s, s2, h = search.kernel.probe(per_round, seed * 1_000_003 + calls)
            hits += h
            acc = sums[i]
            acc[0] += a
            acc[1] += a2
            acc[2] += weight * s
            acc[3] += weight * weight * s2
        n += per_round
    nodes_est = float(cut["cut_nodes"])
    sols_est = var_nodes = var_sols = 0.0
    for sn, sn2, ss, ss2 in sums:
        mn, ms = sn / n, ss / n
        nodes_est += mn
        sols_est += ms
        var_nodes += max(sn2 / n - mn * mn, 0.0) / max(n - 1, 1)
        var_sols += max(ss2 / n - ms * ms, 0.0) / max(n - 1, 1)
    nodes_err = math.sqrt(var_nodes)
    return SearchEstimate(nodes_est, nodes_err, sols_est, _solutions_error(var_sols, hits), nodes_est / rate,
                          nodes_err / rate, n * len(starts), False, time.perf_counter() - t0, None, "bitboard", hits)


def _plan_branches(instance, backend=None) -> list:
    """The branches the default count searches with ``backend`` (its kernel's; default: the count's, made here):
    the symmetry plan's (:func:`.orbits.symmetry_plan`), else (no symmetry, or a search small enough to make
    whole, :func:`.base.small_search`) the whole tree, a piece restricted where that loses nothing
    (:func:`.branch.free_restriction`)."""
    from .base import small_search
    from .branch import free_restriction, whole_branch
    from .orbits import symmetry_plan
    from .registry import get_solver

    if not hasattr(instance, "region") or len(instance.region_symmetries) <= 1:
        return [whole_branch(0)]
    n_sym = len(instance.option_perm_lists)
    if small_search(backend or get_solver("bitboard-symmetry").make(), instance, n_sym):
        return [free_restriction(instance) or whole_branch(n_sym)]   # else every solution tested
    plan = symmetry_plan(instance, enumerable=False)
    if plan is not None:
        return list(plan.branches)
    return [whole_branch(0)]


class _Counted:
    """The solutions a search counts: all, or those whose options' weights sum to ``target``."""

    def __init__(self, weights: np.ndarray | None, target: int | None) -> None:
        self.weights, self.target, self.kept = weights, target, 0

    def step(self, engine, stop_nodes: int) -> int:
        """Run ``engine`` to ``stop_nodes`` nodes (or its end); its rows (solutions, prefixes) as it goes."""
        if self.weights is None:
            engine.step(stop_nodes, 0)
            return 0
        n_out = 0
        while True:  # a full batch of rows ends the step early: go on to the node budget
            _, n = engine.step(stop_nodes, 64)
            self.take(engine, n)
            n_out += n
            if n < 64 or engine.done:
                return n_out

    def take(self, engine, n_out: int) -> None:
        """Count the solutions among the first ``n_out`` output rows of ``engine``."""
        if self.weights is None:
            return
        for t in range(n_out):
            m = int(engine.out_len[t])
            if m > 0 and int(self.weights[engine.out[t, :m]].sum()) == self.target:
                self.kept += 1

    def solutions(self, engine) -> int:
        """The solutions counted so far."""
        return engine.solutions if self.weights is None else self.kept


def _piece_weights(instance) -> np.ndarray:
    """1 for an option that places a piece, 0 for a cell left empty (a monomino named EMPTY), one per option."""
    from ..pieces import EMPTY

    if not hasattr(instance, "types"):
        raise InputError("a count of the pieces used needs a puzzle (options of piece types), not a matrix")
    empty = [t for t, copies in enumerate(instance.types) if instance.pieces[copies[0]].name == EMPTY]
    return (~np.isin(np.asarray(instance.option_type), empty)).astype(np.int32)


def _stratify(args, max_starts: int, counted: _Counted) -> tuple[int, int, list[list[int]]]:
    """The deepest level with at most ``max_starts`` live nodes: nodes and solutions above it, its nodes' paths."""
    best: tuple[int, int, list[list[int]]] = (0, 0, [[]])
    for level in range(1, 64):
        engine = dancing._Engine(*args)
        if level >= engine.depth:
            break
        engine.set_cutoff(level)
        paths: list[list[int]] = []
        counted.kept = 0
        while not engine.done:
            _, n_out = engine.step(dancing._NO_LIMIT, 64)
            counted.take(engine, n_out)
            paths.extend(engine.out[t, :-int(engine.out_len[t])].tolist() for t in range(n_out)
                         if engine.out_len[t] < 0)
            if len(paths) > max_starts:
                return best
        if not paths:  # the tree ends above this level: nothing more to gain
            return best
        best = (engine.nodes, counted.solutions(engine), paths)
    return best


def _sci(x: float) -> str:
    return f"{x:,.0f}" if abs(x) < 1e6 else f"{x:.3g}"


def _duration(s: float) -> str:
    if s < 120:
        return f"{s:.3g} s"
    if s < 7200:
        return f"{s / 60:.3g} min"
    if s < 172_800:
        return f"{s / 3600:.3g} h"
    return f"{s / 86_400:.3g} days"
