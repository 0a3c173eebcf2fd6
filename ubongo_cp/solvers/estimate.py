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
                    count_below: int | None = None) -> SearchEstimate:
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
    # A first search, as dlx runs it: the node rate, and the whole count when the tree is small.
    first = dancing._Engine(*args)
    budget, deadline = 2_000, t0 + seconds / 4
    cap = dancing._NO_LIMIT if count_below is None else int(count_below)
    while True:
        first.step(min(budget, cap), 0)
        if first.done or budget >= cap or (time.perf_counter() >= deadline and budget >= ALWAYS_COUNTED):
            break
        budget *= 2
    cpu = max(time.process_time() - c0, 1e-9)
    rate = first.nodes / cpu  # nodes per CPU second
    if first.done:
        return SearchEstimate(float(first.nodes), 0.0, float(first.solutions), 0.0, cpu, 0.0, 0, True,
                              time.perf_counter() - t0)
    top_nodes, top_solutions, starts = _stratify(args, max_starts)
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
            nodes, sols = engine.probe(rng.random((per_round, engine.depth)))
            sums[i] += (nodes.sum(), (nodes * nodes).sum(), sols.sum(), (sols * sols).sum())
        n += per_round
    mean_nodes, mean_sols = sums[:, 0] / n, sums[:, 2] / n
    var_nodes = np.maximum(sums[:, 1] / n - mean_nodes ** 2, 0) / max(n - 1, 1)
    var_sols = np.maximum(sums[:, 3] / n - mean_sols ** 2, 0) / max(n - 1, 1)
    nodes_est = top_nodes + float(mean_nodes.sum())
    nodes_err = math.sqrt(float(var_nodes.sum()))
    return SearchEstimate(nodes_est, nodes_err, top_solutions + float(mean_sols.sum()), math.sqrt(float(var_sols.sum())),
                          nodes_est / rate, nodes_err / rate, n * len(starts), False, time.perf_counter() - t0)


def _stratify(args, max_starts: int) -> tuple[int, int, list[list[int]]]:
    """The deepest level with at most ``max_starts`` live nodes: nodes and solutions above it, its nodes' paths."""
    best: tuple[int, int, list[list[int]]] = (0, 0, [[]])
    for level in range(1, 64):
        engine = dancing._Engine(*args)
        if level >= engine.depth:
            break
        engine.set_cutoff(level)
        paths: list[list[int]] = []
        while not engine.done:
            _, n_out = engine.step(dancing._NO_LIMIT, 64)
            paths.extend(engine.out[t, :-int(engine.out_len[t])].tolist() for t in range(n_out)
                         if engine.out_len[t] < 0)
            if len(paths) > max_starts:
                return best
        if not paths:  # the tree ends above this level: nothing more to gain
            return best
        best = (engine.nodes, engine.solutions, paths)
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
