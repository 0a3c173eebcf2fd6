"""The ``xcover`` backend: Knuth's Algorithm C of the ``xcover`` package (dancing cells).

The instance's CSR options are handed to ``xcover``'s numba-compiled
Algorithm C (exact covering with colours, no colours used here) without any
re-encoding. Copies of identical pieces are filtered to canonical order
(:meth:`ExactCoverInstance.is_canonical`), so counts follow UP-5.

The time limit is checked between solutions (xcover cannot be interrupted
inside the search, see ``stops_mid_search`` in :mod:`.registry`), and no
search-node count is reported; this backend is the independent reference
that the toolkit's own engine (:mod:`.dlx`) is checked against.

References
----------
.. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 4B, 7.2.2.1
   (Algorithm C; dancing cells).
.. [2] J. Rudge, ``xcover`` (https://github.com/johnrudge/xcover).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

__all__ = ["XcoverBackend"]


@dataclass
class XcoverBackend:
    """Exact-cover backend built on ``xcover.dancing_cells.algorithm_c``.

    Follows the :class:`~ubongo_cp.solvers.base.Backend` protocol; ``stats``
    holds ``solutions_seen`` and, on a time-out, ``timed_out``.
    """

    name: str = "xcover"

    def run(self, instance, on_solution, *, time_limit=None, first_only=False):
        """Backend protocol (see :class:`~ubongo_cp.solvers.base.Backend`)."""
        from xcover.dancing_cells import algorithm_c

        deadline = None if time_limit is None else time.perf_counter() + float(time_limit)
        indices, indptr, n_items = instance.indices, instance.indptr, instance.n_items
        n_primary = n_items - instance.n_secondary
        if n_primary == 1:
            # xcover 0.x fails ("pop from empty list") with one primary item: add a second one, with an
            # option of its own that every solution then holds (and that is dropped from it).
            indices = np.append(np.where(indices >= 1, indices + 1, indices), 1).astype(np.uint32)
            indptr = np.append(indptr, len(indices)).astype(np.uint32)
            n_items += 1
        colors = np.zeros(len(indices), dtype=np.uint32)
        found = 0
        search = algorithm_c(indices, indptr, colors, np.uint32(n_items), np.uint32(instance.n_secondary))
        for options in search:
            if n_primary == 1:
                options = [o for o in options if o != instance.n_options]
            if not instance.is_canonical(options):
                continue
            found += 1
            if not on_solution(options):
                return False, {"solutions_seen": found}
            if deadline is not None and time.perf_counter() > deadline:
                return False, {"solutions_seen": found, "timed_out": True}
        return True, {"solutions_seen": found}
