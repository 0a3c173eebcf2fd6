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

__all__ = ["DancingBackend"]


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
