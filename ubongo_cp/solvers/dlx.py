"""The ``dlx`` backend: the toolkit's own Algorithm X (:mod:`.dancing`) behind the backend protocol.

The search kernel (:mod:`.dancing`: Knuth's Algorithm X with dancing cells,
compiled) enumerates the exact covers of the instance's CSR options and
counts search-tree nodes; identical pieces are one item with multiplicity
(:attr:`~ubongo_cp.cover.ExactCoverInstance.multiplicity`, Algorithm M, UP-5),
so each solution is met once. This adapter checks the time limit at every
solution and every heartbeat of the kernel, and reports the node count (the
rating's measure, :mod:`ubongo_cp.rate`).

References
----------
.. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 4B, 7.2.2.1,
   Algorithms X and M; "Dancing Links", arXiv:cs/0011047.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .dancing import DEFAULT_HEARTBEAT, search

__all__ = ["DancingBackend", "DancingCount"]


@dataclass
class DancingBackend:
    """Exact-cover backend running the search kernel of :mod:`.dancing` (Algorithm X, M with copies).

    ``run`` follows the :class:`~ubongo_cp.solvers.base.Backend` protocol:
    it calls ``on_solution(option_ids)`` for each solution and returns
    ``(exhausted, stats)``. The time limit is checked
    at every solution and every heartbeat, so it holds within about
    ``heartbeat`` nodes of search.

    Attributes
    ----------
    name : str
        ``"dlx"``.
    heartbeat : int
        Nodes between two time-limit checks.

    Notes
    -----
    ``stats`` holds ``nodes`` (search-tree nodes, see :mod:`.dancing`),
    ``solutions_seen`` (solutions passed on) and, on a time-out, ``timed_out``.
    """

    name: str = "dlx"
    heartbeat: int = DEFAULT_HEARTBEAT

    def run(self, instance, on_solution, *, time_limit=None, first_only=False):
        """Enumerate the instance's solutions; see the class docstring."""
        deadline = None if time_limit is None else time.perf_counter() + float(time_limit)
        it = search(instance.indptr, instance.indices, instance.n_items, instance.n_secondary,
                    heartbeat=self.heartbeat, multiplicity=instance.multiplicity,
                    colours=getattr(instance, "colours", None))
        found = 0

        def stats(**extra):
            return {"nodes": it.nodes, "solutions_seen": found, **extra}

        for options, _nodes in it:
            if options is not None:
                found += 1
                if not on_solution(options):
                    return False, stats()
            if deadline is not None and time.perf_counter() > deadline:
                return False, stats(timed_out=True)
        return True, stats()


@dataclass
class DancingCount:
    """The dancing-cells kernel counting in C for the bitboard backend's driver (:meth:`search`): the whole
    instance, the first solutions kept, no Python per solution. Not a registered backend: a backend with a
    ``search`` method is driven natively, and ``dlx`` enumerates (its node counts rate the tasks)."""

    name: str = "dlx"
    heartbeat: int = DEFAULT_HEARTBEAT

    def search(self, instance, branches=None, *, limit: int | None = None, keep: int = 0,
               time_limit: float | None = None, tally: bool = False, kernel=None, stop=None):
        """Count the instance's exact covers in the kernel, no Python per solution, keeping the first ``keep``.

        The native count the driver asks of the bitboard backend
        (:meth:`.bitboard.BitboardBackend.search`), for the one plan this
        kernel takes: the whole instance, no symmetry tested (an exact-cover
        matrix: :meth:`.bitboard.BitboardBackend.scanned` hands such a count
        here where the most constrained item's tree is the smaller one, which
        this kernel searches faster). The time limit and ``stop`` are checked
        every ``heartbeat`` nodes.

        Returns
        -------
        ubongo_cp.solvers.bitboard.NativeRun
            The count (up to ``limit``, stopping there), the first ``keep`` solutions (branch 0) and ``stats``
            (``nodes``, ``solutions_seen``, ``engine`` ``"dlx"``, and
            ``timed_out`` when the clock stopped the count).

        Raises
        ------
        ValueError
            For a plan of several branches or a tested symmetry, a ``tally``
            or a bitboard ``kernel``: the bitboard backend's own.
        """
        from .bitboard import NativeRun
        from .dancing import _PC_DONE, _PC_X5, _Engine

        whole = branches is None or (len(branches) == 1 and not branches[0].prefix and not branches[0].test
                                     and branches[0].restrict is None)
        if tally or kernel is not None or not whole:
            raise ValueError("the dancing-cells count takes the whole instance, no tally or symmetry")
        deadline = None if time_limit is None else time.perf_counter() + float(time_limit)
        colours = getattr(instance, "colours", None)
        table = getattr(instance, "table", None)   # an exact-cover file's plain arrays: numpy is not loaded
        engine = _Engine(instance.indptr if table is None else table.indptr,
                         instance.indices if table is None else table.indices, instance.n_items,
                         instance.n_secondary, instance.multiplicity, colours)
        found: list = []
        want = keep if limit is None else max(keep, limit)   # the solutions to be handed out of the kernel
        rows = 0
        budget = self.heartbeat
        exhausted = timed_out = False
        while True:
            code, n_out = engine.step(budget, min(want - rows, 4096) if rows < want else 0)
            rows += n_out
            found.extend((0, engine.out[t, :engine.out_len[t]].tolist()) for t in range(min(n_out, keep - len(found))))
            if code == _PC_DONE:
                exhausted = True
                break
            if limit is not None and rows >= limit:
                break
            if code == _PC_X5:  # the node budget: a heartbeat
                budget += self.heartbeat
                if deadline is not None and time.perf_counter() > deadline:
                    timed_out = True
                    break
                if stop is not None and stop():
                    break
        stats = {"nodes": engine.nodes, "solutions_seen": engine.solutions, "engine": "dlx"}
        if timed_out:
            stats["timed_out"] = True
        return NativeRun(engine.solutions, engine.solutions, exhausted, found, stats=stats)
