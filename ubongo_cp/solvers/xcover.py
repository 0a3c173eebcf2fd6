"""The ``xcover`` backend: Knuth's Algorithm C of the ``xcover`` package (dancing cells).

``xcover`` has no items with multiplicities (Algorithm M), so a piece type
with ``k`` copies is expanded here into ``k`` items, one per copy, each
with its own copy of the type's options, and consecutive copies are ordered
by secondary items (:func:`expand_copies`): the search meets each solution
once, its copies on placements in increasing option order (UP-5), and maps
it back to the instance's option ids. Without copies the instance's CSR
options are handed over unchanged. The registry marks this backend
``multiplicities=False`` (:mod:`.registry`): its copies cost items and
secondary items the engines with multiplicities do without, so it is never
chosen by default for a task with copies.

``xcover`` cannot be interrupted inside its search, so with a time limit
the search runs in a forked child process that is killed when the limit
passes (it then stops on time even where no solution is ever found); no
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
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

import numpy as np

from .numbacache import import_cached

__all__ = ["XcoverBackend", "expand_copies"]


@contextmanager
def _quiet_numba() -> Iterator[None]:
    """A block in which numba's warnings (raised while it compiles ``xcover``) are not shown."""
    from numba.core.errors import NumbaWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaWarning)
        yield


@dataclass
class XcoverBackend:
    """Exact-cover backend built on ``xcover.dancing_cells.algorithm_c``.

    Follows the :class:`~ubongo_cp.solvers.base.Backend` protocol; ``stats``
    holds ``solutions_seen``, ``solutions_raw`` (covers met, copies told
    apart) and, on a time-out, ``timed_out``.
    """

    name: str = "xcover"

    def run(self, instance, on_solution, *, time_limit=None, first_only=False):
        """Backend protocol (see :class:`~ubongo_cp.solvers.base.Backend`)."""
        with _quiet_numba():
            algorithm_c = import_cached("xcover.dancing_cells").algorithm_c

        indptr, indices, n_items, n_secondary, original, ordered = expand_copies(instance)
        n_primary = n_items - n_secondary
        given = getattr(instance, "colours", None)  # Algorithm C's colours (a matrix: no copies to expand)
        colors = np.zeros(len(indices), dtype=np.uint32) if given is None else np.asarray(given, dtype=np.uint32)
        extra = None
        if n_primary == 1:
            # xcover 0.x fails ("pop from empty list") with one primary item: add a second one, with an
            # option of its own that every solution then holds (and that is dropped from it).
            extra = len(indptr) - 1
            indices = np.append(np.where(indices >= 1, indices + 1, indices), 1).astype(np.uint32)
            indptr = np.append(indptr, len(indices)).astype(np.uint32)
            colors = np.append(colors, 0).astype(np.uint32)
            n_items += 1
        found = raw = 0

        # Made here (the search is compiled now, in this process), run on iteration.
        with _quiet_numba():  # compiling xcover's code warns of its own casts: nothing a user can act on
            search = algorithm_c(indices, indptr, colors, np.uint32(n_items), np.uint32(n_secondary))
        bounded = None if time_limit is None else _bounded(search, float(time_limit))
        try:
            for options in search if bounded is None else bounded:
                if options is _TIMED_OUT:
                    return False, {"solutions_seen": found, "solutions_raw": raw, "timed_out": True}
                raw += 1
                if extra is not None:
                    options = [o for o in options if o != extra]
                if ordered is not None and not ordered(options):
                    continue
                found += 1
                if not on_solution(original[np.asarray(options, dtype=np.int64)]):
                    return False, {"solutions_seen": found, "solutions_raw": raw}
            return True, {"solutions_seen": found, "solutions_raw": raw}
        finally:
            if bounded is not None:
                bounded.close()  # the child process is ended at once


#: What :func:`_bounded` yields when the time limit is reached.
_TIMED_OUT = object()
#: Seconds :func:`_bounded` waits for the child at a time: a longer time limit is waited for in such steps.
_LONGEST_WAIT = 3600.0
#: Covers a child process sends at once (fewer, larger messages), and the longest it holds one back (s).
_BATCH, _BATCH_SECONDS = 256, 0.05


def _bounded(search, time_limit: float):
    """The covers of the generator ``search``, found in a child process that is killed when ``time_limit`` passes.

    ``xcover``'s search cannot be interrupted from inside (it yields only at
    a cover), so with a time limit it runs in a forked child that sends its
    covers through a pipe in batches; the parent yields them and, when the
    limit passes first, kills the child and yields :data:`_TIMED_OUT`.
    ``os.fork`` (not :mod:`multiprocessing`) also works inside a daemonic
    pool worker; the child inherits the search compiled by the parent.

    Raises
    ------
    RuntimeError
        When the child fails or dies (its error is named).
    """
    import os
    import signal
    from multiprocessing.connection import Connection

    deadline = time.perf_counter() + time_limit
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: search, send, and leave without running the parent's exit handlers
        status = 0
        try:
            os.close(read_fd)
            out = Connection(write_fd, readable=False)
            batch, sent = [], time.perf_counter()
            for options in search:
                batch.append([int(o) for o in options])
                if len(batch) >= _BATCH or time.perf_counter() - sent > _BATCH_SECONDS:
                    out.send(batch)
                    batch, sent = [], time.perf_counter()
            out.send(batch)
            out.send(None)
        except BaseException as exc:  # reported to the parent, which raises it
            status = 1
            try:
                out.send(f"{type(exc).__name__}: {exc}")
            except BaseException:  # the parent has gone: nothing to tell
                pass
        finally:
            os._exit(status)
    os.close(write_fd)
    pipe = Connection(read_fd, writable=False)
    try:
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                yield _TIMED_OUT
                return
            if not pipe.poll(min(remaining, _LONGEST_WAIT)):   # the poll takes no more (inf, 1e308: overflow)
                continue
            try:
                message = pipe.recv()
            except EOFError:
                raise RuntimeError("the xcover search process died") from None
            if message is None:
                return
            if isinstance(message, str):
                raise RuntimeError(f"the xcover search failed: {message}")
            yield from message
    finally:
        pipe.close()
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        os.waitpid(pid, 0)


def expand_copies(instance):
    """The instance with one item per piece copy (for a solver without multiplicities), the copies ordered.

    Copy ``j`` and copy ``j + 1`` of a type with ``n`` placements share a
    *ladder* of ``n`` secondary items: copy ``j`` on the type's ``p``-th
    placement covers rungs ``0 .. p``, copy ``j + 1`` on the ``p'``-th covers
    rungs ``p' .. n - 1``; they clash unless ``p < p'``. So the search meets
    each solution once, its copies on placements in increasing order (UP-5),
    instead of once per ordering of the copies (``k!`` times for ``k``
    copies). With optional pieces an unused copy leaves its neighbours
    unordered: ``ordered`` then passes on only the covers whose copies in use
    are the type's first ones, in increasing order.

    Returns
    -------
    indptr, indices : numpy.ndarray of uint32
        CSR options: type ``t``'s options once per copy, the copy's item
        replacing the type's, then the copy's rungs; copy items numbered
        after the cells in type order, the rungs last (secondary items stay
        last).
    n_items : int
        Cells, copies, the instance's other items and the rungs.
    n_secondary : int
        The secondary items among them (the last ones): the instance's, the
        copies' with optional pieces, and the rungs.
    original : numpy.ndarray of int64, shape (n_expanded_options,)
        The instance's option id of each expanded option.
    ordered : callable or None
        ``ordered(options) -> bool``: True when the copies of each type take
        placements in increasing option order and the copies used are the
        type's first ones; None when every cover passes (no copies, or every
        copy used: the rungs order them).

    Examples
    --------
    >>> from ubongo_cp.pieces import Piece, Region
    >>> from ubongo_cp.cover import build_instance
    >>> inst = build_instance([Piece("D", ((0, 0), (0, 1)))] * 2, Region.rectangle(1, 4))
    >>> indptr, indices, n_items, n_secondary, original, ordered = expand_copies(inst)
    >>> n_items, n_secondary, original.tolist(), ordered is None
    (9, 3, [0, 1, 2, 0, 1, 2], True)
    >>> [indices[indptr[o]:indptr[o + 1]].tolist() for o in (0, 2, 3, 5)]   # cells, copy, rungs
    [[0, 1, 4, 6], [2, 3, 4, 6, 7, 8], [0, 1, 5, 6, 7, 8], [2, 3, 5, 8]]
    """
    counts = instance.type_counts
    if (counts <= 1).all():
        return (instance.indptr, instance.indices, instance.n_items, instance.n_secondary,
                np.arange(instance.n_options), None)
    n_cells = instance.n_cells
    first = instance.type_first_option
    per_type = instance.options_per_type()
    # Items after the types (a region's optional cells) move up by the copies added; the rungs come last.
    after, extra = n_cells + len(counts), int(counts.sum()) - len(counts)
    n_items = instance.n_items + extra
    rung = n_items                            # the next ladder's first rung
    rows, original, copy_of = [], [], []
    item = n_cells
    for t, k in enumerate(counts.tolist()):
        lo, n = int(first[t]), int(per_type[t])
        below = None                           # the first rung of the ladder to the copy before
        for j in range(k):
            above = rung if j + 1 < k else None   # the ladder to the copy after
            for p, o in enumerate(range(lo, lo + n)):
                row = [int(i) + (extra if i >= after else 0) for i in instance.option_items(o)[:-1]] + [item]
                if below is not None:
                    row.extend(range(below + p, below + n))
                if above is not None:
                    row.extend(range(above, above + p + 1))
                rows.append(row)
                original.append(o)
                copy_of.append(item)
            item += 1
            if above is not None:
                rung += n
            below = above
    n_secondary = instance.n_secondary + (extra if instance.optional_pieces else 0) + rung - n_items
    indptr = np.zeros(len(rows) + 1, dtype=np.uint32)
    indptr[1:] = np.cumsum([len(r) for r in rows])
    indices = np.array([i for r in rows for i in r], dtype=np.uint32)
    original = np.array(original, dtype=np.int64)
    copy_of = np.array(copy_of, dtype=np.int64)
    if not instance.optional_pieces:
        return indptr, indices, rung, n_secondary, original, None

    first_item = n_cells + np.concatenate([[0], np.cumsum(counts)[:-1]])

    def ordered(options) -> bool:
        options = np.asarray(options, dtype=np.int64)
        last: dict[int, tuple[int, int]] = {}  # type -> (copy position, option) of its last copy seen
        for copy, o in sorted(zip(copy_of[options].tolist(), original[options].tolist())):
            t = int(instance.option_type[o])
            pos, prev = last.get(t, (-1, -1))
            # Copies in use are the type's first ones (optional pieces), in increasing option order.
            if copy - first_item[t] != pos + 1 or o <= prev:
                return False
            last[t] = (pos + 1, o)
        return True

    return indptr, indices, rung, n_secondary, original, ordered
