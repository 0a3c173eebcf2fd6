"""How big is a search before running it: Knuth's estimate of the search tree of the ``dlx`` engine.

Knuth's estimator [1]_ follows random paths down the backtrack tree, each
time choosing one of the ``d`` branches of a node with probability ``1/d``;
along a path the product of the degrees met so far counts the nodes of a
level, and the sum of those products is an unbiased estimate of the
tree's nodes (and, for the paths that end in a solution, of the
solutions). The paths here are walked by the search kernel itself
(:mod:`.dancing`, ``probe``), so the tree estimated is exactly the one the
``dlx`` backend searches: the same branching rule, the same node count.

The estimate is stratified as in the census planner
(:func:`ubongo_cp.polyominoes.estimate_count`): the top of the tree is
searched down to the deepest level with at most ``max_starts`` live nodes,
the nodes and solutions above it are counted exactly, and the probes are
shared equally among the nodes of that level; a tree that the short first
search finishes is counted, not estimated. The time is the estimated
node count over the node rate of that first search.

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

__all__ = ["SearchEstimate", "estimate_search", "ALWAYS_COUNTED"]

#: Nodes the first search may always take, whatever the time budget (about 0.1 s): a tree this small is
#: counted, not estimated.
ALWAYS_COUNTED = 131_072


@dataclass(frozen=True)
class SearchEstimate:
    """Knuth's estimate of one search (see the module docstring).

    Attributes
    ----------
    nodes, solutions : float
        Estimated search-tree nodes (options tried) and solutions of the
        whole search (every solution, none reduced by symmetry).
    nodes_error, solutions_error : float
        Their standard errors (0 when counted exactly).
    seconds, seconds_error : float
        Estimated CPU time of the whole search on the ``dlx`` engine (s),
        and its standard error, from the node rate measured here.
    probes : int
        Random paths followed.
    exact : bool
        True when the whole search ran within the budget: the counts are exact.
    elapsed : float
        Seconds this estimate took.
    reason : str or None
        Why the instance has no solution without any search (its pre-check,
        as :func:`~ubongo_cp.solvers.solve` answers at once): nothing is searched
        and every count is 0; else None.
    """

    nodes: float
    nodes_error: float
    solutions: float
    solutions_error: float
    seconds: float
    seconds_error: float
    probes: int
    exact: bool
    elapsed: float
    reason: str | None = None

    def to_json(self) -> dict:
        """The attributes as a JSON-ready dict."""
        return asdict(self)

    def summary(self) -> str:
        """One line: nodes, solutions and time with their standard errors."""
        if self.reason is not None:
            return f"nothing to search: no solution ({self.reason})"
        if self.exact:
            return (f"exact (the search ran to its end): {_counted(self.nodes, 'node')}, "
                    f"{_counted(self.solutions, 'solution')}, {_duration(self.seconds)}")
        sols = (f"{_sci(self.solutions)} ± {_sci(self.solutions_error)} solutions" if self.solutions else
                "no solution met by the probes (solutions may still exist)")
        return (f"estimate from {self.probes:,} random probes: {_sci(self.nodes)} ± {_sci(self.nodes_error)} nodes, "
                f"{sols}, "
                f"{_duration(self.seconds)} ± {_duration(self.seconds_error)} on one core (standard errors)")


def _counted(n: float, noun: str) -> str:
    """``n`` (a whole number) and the noun, singular for 1: ``"1 node"``, ``"1,024 nodes"``."""
    return f"{n:,.0f} {noun}{'' if round(n) == 1 else 's'}"


def estimate_search(instance, *, seconds: float = 1.5, max_starts: int = 256, seed: int = 0,
                    count_below: int | None = None, pieces_used: int | None = None) -> SearchEstimate:
    """Estimate the nodes, solutions and CPU time of the ``dlx`` engine's search of ``instance``.

    Parameters
    ----------
    instance : ExactCoverInstance or ExactCoverMatrix
        Any instance the ``dlx`` backend takes (bounds and colours too).
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
        the same, its solutions with another number of pieces are not counted.

    Returns
    -------
    SearchEstimate

        An instance its pre-check settles (no solution, whatever the search) is not
        searched: the estimate holds 0 nodes and the pre-check's reason.

    Raises
    ------
    InputError
        For ``seconds <= 0`` or ``max_starts < 1``, or an instance the engine refuses.

    Examples
    --------
    >>> from ubongo_cp.pieces import load_pieces, Region
    >>> from ubongo_cp.cover import build_instance
    >>> e = estimate_search(build_instance(load_pieces("pentominoes").pieces, Region.rectangle(3, 20)))
    >>> e.exact, e.solutions  # a small tree: counted
    (True, 8.0)
    """
    if not seconds > 0:
        raise InputError(f"the estimate needs a time budget above 0 s, got {seconds}")
    if count_below is not None and count_below < 1:
        raise InputError(f"count_below must be at least 1, got {count_below}")
    if max_starts < 1:
        raise InputError(f"max_starts must be at least 1, got {max_starts}")
    t0 = time.perf_counter()
    reason = instance.precheck()
    if reason is not None:  # as solve: settled before any search
        return SearchEstimate(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0, True, time.perf_counter() - t0, reason)
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
    engine = dancing._Engine(*args)
    rng = np.random.default_rng(seed)
    sums = np.zeros((len(starts), 4))  # per start: sum and sum of squares of the node and solution estimates
    per_round = max(1, 512 // len(starts))
    n = 0
    end = t0 + seconds
    while n == 0 or time.perf_counter() < end:
        for i, path in enumerate(starts):
            engine.reset_root()
            if path and engine.descend(path) != 1:
                raise RuntimeError(f"a live node of the search was not found again: {path}")
            engine.mark()
            nodes, sols = engine.probe(rng.random((per_round, engine.depth)), weights,
                                       -1 if pieces_used is None else pieces_used)
            sums[i] += (nodes.sum(), (nodes * nodes).sum(), sols.sum(), (sols * sols).sum())
        n += per_round
    mean_nodes, mean_sols = sums[:, 0] / n, sums[:, 2] / n
    var_nodes = np.maximum(sums[:, 1] / n - mean_nodes ** 2, 0) / max(n - 1, 1)
    var_sols = np.maximum(sums[:, 3] / n - mean_sols ** 2, 0) / max(n - 1, 1)
    nodes_est = top_nodes + float(mean_nodes.sum())
    nodes_err = math.sqrt(float(var_nodes.sum()))
    return SearchEstimate(nodes_est, nodes_err, top_solutions + float(mean_sols.sum()), math.sqrt(float(var_sols.sum())),
                          nodes_est / rate, nodes_err / rate, n * len(starts), False, time.perf_counter() - t0)


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
