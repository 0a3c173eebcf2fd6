"""Exact cover by Knuth's Algorithm X (and M) with dancing cells, in C or numba.

The toolkit's own exact-cover search engine, for primary and secondary items
[1]_ [2]_. Unlike the ``xcover`` package [4]_ it reports the number of
search-tree nodes (used to rate puzzle difficulty), hands control back to
Python every ``heartbeat`` nodes (time limits), and counts solutions without
a Python call per solution.

Kernels
-------
The search runs in one of two kernels that perform the same steps (the same
sparse-set swaps, in the same order), hence give the same tree, node counts
and order of solutions; the tests run them against each other:

- ``"c"`` (default): the C extension ``ubongo_cp.solvers._dance``
  (``_dance.c``), compiled when the package is installed (``setup.py``;
  optional, so an install without a compiler still works). Importing it
  costs about 0.2 ms; numba is never imported. Its arrays are laid out for
  the inner loops (see the file): on the 6x10 pentomino count it runs in
  0.6-0.75 of the numba kernel's time (in-process, shared machine).
- ``"numba"`` (fallback, ``_dance_numba.py``): used when the extension is
  missing, or when the environment variable ``UBONGO_CP_KERNEL=numba`` is
  set at import (``UBONGO_CP_KERNEL=c`` insists on C). Importing numba costs
  about 0.4 s and loading the cached compiled kernel more.

:data:`KERNEL` tells which one is in use.

Conventions
-----------
- Options come in CSR form, as in :class:`~ubongo_cp.cover.ExactCoverInstance`:
  option ``o`` covers items ``indices[indptr[o]:indptr[o+1]]``.
- Items are ``0 .. n_items-1``; the last ``n_secondary`` are *secondary*
  (covered at most once), the others *primary* (covered exactly once).
  An option must hold at least one primary item to be chosen (as in [2]_).
- **Multiplicities** (optional, Algorithm M of [2]_): item ``i`` may carry
  bounds ``[lo..hi]``: it must be covered at least ``lo`` and at most
  ``hi`` times (default ``[1..1]`` primary, ``[0..1]`` secondary; a
  secondary item needs ``lo = 0``, a primary one may have ``lo = 0``). A piece
  type with ``k`` identical copies is then one item ``[k..k]`` (or ``[0..k]``
  secondary in subset analysis), and each *set* of options that is a
  solution is found exactly once: copy orderings are never enumerated.
- Item choice (step X3) is MRV: the primary item with the fewest remaining
  options, ties broken by the lowest item id (an item with no option left
  is taken at once: that branch is dead whichever such item is chosen).
- **Search nodes.** ``nodes`` is the number of options tried: the number of
  times step X5 sets ``x_l`` to an option. It equals the number of nodes of
  the search tree other than the root. An option that leads at once to a
  dead end counts; a chosen item with no option left adds no node. The tree
  (hence the total) is the one of Knuth's Algorithm X with this MRV rule:
  it does not depend on the order in which an item's options are tried;
  that order only decides which solution comes first.
- **Algorithm M** (only when some bound is not ``[1..1]`` / ``[0..1]``; the
  search is then exactly Knuth's Algorithm M, steps M1-M9, as in his DLX3
  program [5]_). Item choice (M3) minimises the branching degree
  ``theta = len + 1 - max(bound - slack, 0)``, where ``bound`` is how many
  more options may still cover the item and ``slack = hi - lo``; ties go to
  the smaller ``min(slack, bound)``, then to the longer list, then to the
  lowest id ([5]_'s order). ``theta`` equals the list length for an item with
  bounds ``[1..1]``, so X3's choice is the special case. A chosen item whose
  bound reaches 0 is covered as in X4 (with slack, the last branch is the
  *null move*: no further option for it); one whose bound stays above 0 is
  *tweaked* (M5): its options are tried in increasing option id, each one
  hidden for good (from the item's own list too) before it is tried, so the
  branches meet disjoint sets of solutions, and the item stays active with
  its bound one lower. Secondary items are never chosen: their bound goes
  down as options using them are chosen, and they are covered (their other
  options hidden) when it reaches 0. A node is still an option tried: a null
  move is a branch of the tree but not a node. With multiplicities the tree
  depends on the order of a tweaked item's options, hence the fixed order.

Data structure ("dancing cells", sparse sets [3]_; Knuth's SSXC programs
use the same idea): item ``i``'s remaining options are the entries
``cells[start[i] : start[i] + size[i]]`` (entries of ``indices``, with
``where`` the inverse permutation); hiding an option swaps its entries past
the end of the lists of the items still active. The active items form a
second sparse set. Nothing is unhidden: each level saves the list lengths
after step X4 (in M: after each tweak) and restores them before trying its
next option (X6), which brings back exactly the entries removed since. All
index arrays are uint32 (for numba: no negative-index wraparound code in the
inner loop).

References
----------
.. [1] D. E. Knuth, "Dancing Links", in *Millennial Perspectives in Computer
   Science* (2000), pp. 187-214; arXiv:cs/0011047.
.. [2] D. E. Knuth, *The Art of Computer Programming*, Vol. 4B,
   Section 7.2.2.1 "Dancing links", Algorithm X (exact cover with primary and
   secondary items, steps X1-X8, with its *cover* and *hide* operations) and
   Algorithm M (exact covering with multiplicities, steps M1-M9, with its
   *tweak* operation), Addison-Wesley (2022).
.. [3] P. Briggs and L. Torczon, "An efficient representation for sparse
   sets", *ACM Letters on Programming Languages and Systems* 2 (1993),
   59-69; "dancing cells" is Knuth's name for this technique in his
   constraint-satisfaction drafts of TAOCP Vol. 4 (Pre-Fascicle 7A).
.. [4] J. Rudge, ``xcover`` (https://github.com/johnrudge/xcover).
.. [5] D. E. Knuth, DLX3 (2017), the CWEB program for exact covering with
   multiplicities that accompanies Section 7.2.2.1 (MDANCE, 2004, is its
   ancestor); https://www-cs-faculty.stanford.edu/~knuth/programs.html.
"""

from __future__ import annotations

import os
from array import array
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from ..errors import InputError

if TYPE_CHECKING:
    import numpy as np

__all__ = ["search", "count", "DancingSearch", "DEFAULT_HEARTBEAT", "KERNEL", "MAX_SAVED_ENTRIES"]

#: Most entries of the engine's saved states (one per item and search level, 4 bytes each): a
#: bound on its memory (1 GiB), checked before anything is allocated.
MAX_SAVED_ENTRIES = 2**28

#: Default number of search nodes between two heartbeats of :func:`search`
#: (about 5-20 ms of search on a 2020s laptop core).
DEFAULT_HEARTBEAT = 100_000

# Largest number of solutions handed back by one call of the compiled search
# (the batch starts at 1 and doubles, so the first solution comes at once).
_MAX_BATCH = 1024

_NO_LIMIT = 2**63 - 1

# Program counters the kernels' ``step`` returns (see _dance.c / _dance_numba.py).
_PC_X5 = 1  # stopped on the node budget
_PC_X8 = 2  # stopped on a full solution buffer
_PC_DONE = 4  # search space exhausted


def _pick_kernel() -> str:
    """The kernel named by ``UBONGO_CP_KERNEL`` (``c``, ``numba``; unset: C if built)."""
    want = os.environ.get("UBONGO_CP_KERNEL", "").strip().lower()
    if want not in ("", "c", "numba"):
        raise InputError(f"UBONGO_CP_KERNEL must be 'c' or 'numba' (or unset), got {want!r}")
    if want == "numba":
        return "numba"
    try:
        from . import _dance  # noqa: F401
    except ImportError:
        if want == "c":
            raise InputError("UBONGO_CP_KERNEL=c but the C kernel (ubongo_cp.solvers._dance) is not "
                             "built; reinstall with a C compiler (pip install -e .)") from None
        return "numba"
    return "c"


#: The kernel every search uses: ``"c"`` (the C extension ``_dance``, compiled
#: when the package is installed) or ``"numba"`` (the fallback, used when the
#: extension is missing). Chosen at import; the environment variable
#: ``UBONGO_CP_KERNEL=numba`` (or ``c``) forces one. Both give the same search
#: tree, node counts and order of the solutions.
KERNEL = _pick_kernel()


# --------------------------------------------------------------------- public API
def count(indptr, indices, n_items: int, n_secondary: int = 0,
          node_limit: int | None = None, multiplicity=None, colours=None) -> tuple[int, int, bool]:
    """Count the exact covers, without a Python call per solution.

    Parameters
    ----------
    indptr : array_like of int, shape (n_options + 1,)
        CSR row pointers: option ``o`` is ``indices[indptr[o]:indptr[o+1]]``.
    indices : array_like of int, shape (indptr[-1],)
        Items of each option, each in ``0 .. n_items-1``, distinct within an option.
    n_items : int
        Number of items.
    n_secondary : int
        The last ``n_secondary`` items are secondary (covered at most once).
    node_limit : int, optional
        Stop before trying option number ``node_limit + 1`` (see the module
        docstring for what a node is). Default: no limit.
    multiplicity : array_like of int, shape (n_items, 2), optional
        Row ``i`` is ``(lo, hi)``: item ``i`` must be covered at least ``lo``
        and at most ``hi`` times. Primary items need ``0 <= lo <= hi`` and
        ``hi >= 1``; secondary items need ``lo == 0`` and ``hi >= 1``.
        Default: ``(1, 1)`` for primary, ``(0, 1)`` for secondary items
        (Algorithm X; with these rows given explicitly the search is the same).
    colours : array_like of int, shape (len(indices),), optional
        The colour of each entry (Algorithm C): 0 for none, else a positive
        colour, given only on secondary items with ``hi == 1``. Options that
        give an item the same colour may be chosen together.

    Returns
    -------
    count : int
        Solutions found (all of them when ``exhausted``).
    nodes : int
        Search-tree nodes (options tried), at most ``node_limit``.
    exhausted : bool
        True when the whole search space was explored.

    Raises
    ------
    InputError
        For malformed CSR arrays or multiplicities (see :func:`search`).

    Notes
    -----
    Knuth's Algorithm X [1]_ (Algorithm M with multiplicities) on sparse
    sets; time O(entries moved), memory O(depth * n_items + len(indices))
    (the saved list lengths), where depth is ``n_primary + 1`` for Algorithm
    X and at most ``min(sum of primary hi, n_options + n_primary) + 1`` for M.

    References
    ----------
    .. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 4B,
       7.2.2.1, Algorithms X and M; "Dancing Links", arXiv:cs/0011047.

    Examples
    --------
    Knuth's example (items A..G, six options; one solution, 5 nodes):

    >>> opts = [[2, 4, 5], [0, 3, 6], [1, 2, 5], [0, 3], [1, 6], [3, 4, 6]]
    >>> indptr = [0, 3, 6, 9, 11, 13, 16]
    >>> indices = [i for o in opts for i in o]
    >>> count(indptr, indices, 7)
    (1, 5, True)

    Multiplicities: two copies of a domino in a 1x4 strip are one item
    ``[2..2]`` (items 0-3 the cells, 4 the domino); the one tiling is found once:

    >>> dominoes = [[0, 1, 4], [1, 2, 4], [2, 3, 4]]
    >>> mult = [(1, 1)] * 4 + [(2, 2)]
    >>> count([0, 3, 6, 9], [i for o in dominoes for i in o], 5, multiplicity=mult)
    (1, 2, True)
    """
    engine = _Engine(indptr, indices, n_items, n_secondary, multiplicity, colours)
    limit = _NO_LIMIT if node_limit is None else int(node_limit)
    if limit < 0:
        raise InputError(f"node_limit must be at least 0, got {node_limit}")
    code, _ = engine.step(limit, 0)
    return engine.solutions, engine.nodes, code == _PC_DONE


def search(indptr, indices, n_items: int, n_secondary: int = 0,
           heartbeat: int = DEFAULT_HEARTBEAT, multiplicity=None, colours=None) -> "DancingSearch":
    """Enumerate the exact covers lazily, with a heartbeat every ``heartbeat`` nodes.

    Parameters
    ----------
    indptr, indices, n_items, n_secondary, multiplicity, colours
        The instance, as in :func:`count`.
    heartbeat : int
        A heartbeat is yielded each time the node count reaches a multiple
        of ``heartbeat`` and the search needs a further node.

    Returns
    -------
    DancingSearch
        An iterator of ``(options, nodes)`` pairs: ``options`` is a solution
        (``numpy.ndarray`` of int32 option ids, sorted increasing) or ``None``
        for a heartbeat; ``nodes`` is the node count when the solution was
        found (or at the heartbeat). After the iteration ends,
        ``.nodes`` is the total and ``.exhausted`` is True. Stopping early
        (``break``) is allowed: ``.nodes`` then counts the nodes explored.

    Raises
    ------
    InputError
        When ``indptr`` is not non-decreasing from 0 to ``len(indices)``, an
        item is out of range or repeated in one option, ``n_secondary`` is
        not in ``0 .. n_items``, ``heartbeat < 1``, ``multiplicity`` is not
        an integer array of shape (n_items, 2) with ``0 <= lo <= hi``,
        ``1 <= hi < 2**31`` and ``lo == 0`` for secondary items, or
        ``colours`` is not one non-negative integer per entry, 0 on primary
        items and on secondary items with ``hi > 1``.

    Notes
    -----
    Knuth's Algorithm X (M with multiplicities) [1]_ run as a resumable
    state machine in the kernel (:data:`KERNEL`): the compiled search stops
    on a node budget or a full buffer of solutions and resumes where it
    stopped, so Python sees every solution and regains control at least
    every ``heartbeat`` nodes.

    References
    ----------
    .. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 4B,
       7.2.2.1, Algorithms X and M; "Dancing Links", arXiv:cs/0011047.

    Examples
    --------
    >>> opts = [[2, 4, 5], [0, 3, 6], [1, 2, 5], [0, 3], [1, 6], [3, 4, 6]]
    >>> s = search([0, 3, 6, 9, 11, 13, 16], [i for o in opts for i in o], 7, heartbeat=2)
    >>> [(None if o is None else o.tolist(), n) for o, n in s]
    [(None, 2), (None, 4), ([0, 3, 4], 5)]
    >>> s.nodes, s.solutions, s.exhausted
    (5, 1, True)
    """
    if int(heartbeat) < 1:
        raise InputError(f"heartbeat must be at least 1, got {heartbeat}")
    return DancingSearch(_Engine(indptr, indices, n_items, n_secondary, multiplicity, colours), int(heartbeat))


class DancingSearch:
    """Iterator returned by :func:`search` (see there).

    Attributes
    ----------
    nodes : int
        Search-tree nodes explored so far.
    solutions : int
        Solutions yielded so far.
    exhausted : bool
        True once the whole search space has been explored.
    """

    def __init__(self, engine: "_Engine", heartbeat: int) -> None:
        self._engine = engine
        self._heartbeat = heartbeat
        self._gen = self._run()
        self.solutions = 0
        self.exhausted = False

    @property
    def nodes(self) -> int:
        """Search-tree nodes explored so far."""
        return self._engine.nodes

    def __iter__(self) -> "DancingSearch":
        return self

    def __next__(self):
        return next(self._gen)

    def _run(self):
        engine = self._engine
        beat = self._heartbeat
        stop = beat
        batch = 1
        while True:
            code, n_out = engine.step(stop, batch)
            if n_out:
                lens = engine.out_len
                rows = engine.out
                found = engine.out_nodes
                for t in range(n_out):
                    self.solutions += 1
                    yield rows[t, :lens[t]].copy(), int(found[t])
            if code == _PC_DONE:
                self.exhausted = True
                return
            if code == _PC_X5:  # stopped on the node budget: a heartbeat
                yield None, stop
                stop += beat
            else:  # the buffer was full
                batch = min(2 * batch, _MAX_BATCH)


# ------------------------------------------------------------------ Python glue
class _Engine:
    """One instance's search on the chosen kernel (:data:`KERNEL`), with its output buffers."""

    # the output rows (numpy arrays; empty array.array buffers on the plain path until a row is asked for)
    out: Any
    out_len: Any
    out_nodes: Any

    def __init__(self, indptr, indices, n_items, n_secondary, multiplicity=None, colours=None) -> None:
        if KERNEL == "c" and multiplicity is None and colours is None and \
                isinstance(indptr, array) and isinstance(indices, array):
            self._plain(indptr, indices, int(n_items), int(n_secondary))
            return
        import numpy as np

        indptr = np.asarray(indptr)
        indices = np.asarray(indices)
        n_items = int(n_items)
        n_secondary = int(n_secondary)
        if indptr.ndim != 1 or indices.ndim != 1 or len(indptr) == 0:
            raise InputError("indptr and indices must be 1-d arrays, indptr non-empty")
        if not 0 <= n_secondary <= n_items:
            raise InputError(f"need 0 <= n_secondary <= n_items, got n_secondary={n_secondary}, "
                             f"n_items={n_items}")
        if len(indices) >= 2**31 - 1:
            raise InputError(f"too many option entries ({len(indices)}) for int32 indices")
        if indptr[0] != 0 or indptr[-1] != len(indices) or (np.diff(indptr.astype(np.int64)) < 0).any():
            raise InputError(f"indptr must rise from 0 to len(indices)={len(indices)}")
        if len(indices) and (indices.min() < 0 or indices.max() >= n_items):
            raise InputError(f"an item id is outside 0..{n_items - 1}")
        n_primary = n_items - n_secondary
        lo, hi = _bounds(multiplicity, n_items, n_primary)
        mult = _has_multiplicities(lo, hi, n_primary)
        depth = _depth(n_primary, len(indptr) - 1, hi, mult)
        problem = _saved_states_problem(n_items, depth)
        if problem:
            raise InputError(f"{problem}; try the xcover or sat backend")
        clr = _colours(colours, indices, n_primary, hi)
        if KERNEL == "c":
            from ._dance import Engine
        else:
            from .numbacache import import_cached

            Engine = import_cached(f"{__package__}._dance_numba").Engine
        self._kernel = Engine(np.ascontiguousarray(indptr, dtype=np.uint32),
                              np.ascontiguousarray(indices, dtype=np.uint32), n_items, n_primary,
                              hi.astype(np.int32), (hi - lo).astype(np.int32), depth, mult,
                              b"" if clr is None else clr.tobytes())
        if self._kernel.bad >= 0:
            raise InputError(f"option {self._kernel.bad} lists an item twice")
        self.depth = depth
        self.out = np.zeros((0, depth), dtype=np.int32)
        self.out_len = np.zeros(0, dtype=np.int32)
        self.out_nodes = np.zeros(0, dtype=np.int64)

    def _plain(self, indptr: array, indices: array, n_items: int, n_secondary: int) -> None:
        """The C kernel on Algorithm X's instance (every primary item covered once, a secondary one at most once,
        no colours) from the plain arrays of an exact-cover file (:class:`array.array`), the same checks as the
        general path's without numpy (whose import takes longer than many a count): numpy is loaded only when a
        row of solutions is asked for (:meth:`step`)."""
        if not 0 <= n_secondary <= n_items:
            raise InputError(f"need 0 <= n_secondary <= n_items, got n_secondary={n_secondary}, "
                             f"n_items={n_items}")
        if not len(indptr) or len(indices) >= 2**31 - 1:
            raise InputError("indptr must be non-empty, indices under 2**31 - 1 entries")
        if indptr[0] != 0 or indptr[-1] != len(indices) or any(a > b for a, b in pairwise(indptr)):
            raise InputError(f"indptr must rise from 0 to len(indices)={len(indices)}")
        if len(indices) and (min(indices) < 0 or max(indices) >= n_items):
            raise InputError(f"an item id is outside 0..{n_items - 1}")
        n_primary = n_items - n_secondary
        depth = n_primary + 1   # one level per primary item (_depth without multiplicities)
        problem = _saved_states_problem(n_items, depth)
        if problem:
            raise InputError(f"{problem}; try the xcover or sat backend")
        from ._dance import Engine

        self._kernel = Engine(indptr if indptr.typecode == "I" else array("I", indptr),
                              indices if indices.typecode == "I" else array("I", indices), n_items, n_primary,
                              array("i", [1]) * n_items, array("i", [0]) * n_primary + array("i", [1]) * n_secondary,
                              depth, False, b"")
        if self._kernel.bad >= 0:
            raise InputError(f"option {self._kernel.bad} lists an item twice")
        self.depth = depth
        self.out, self.out_len, self.out_nodes = array("i"), array("i"), array("q")

    @property
    def nodes(self) -> int:
        """Search-tree nodes (options tried) so far."""
        return int(self._kernel.nodes)

    @property
    def solutions(self) -> int:
        """Solutions found so far."""
        return int(self._kernel.solutions)

    def step(self, stop_nodes: int, batch: int) -> tuple[int, int]:
        """Run until done, ``stop_nodes`` nodes, or ``batch`` rows (0: count only).

        A row ``t < n_out`` is a solution (``out_len[t] > 0``: its options
        sorted) or, with a cutoff, a prefix (``out_len[t] = -l``: the options
        of levels ``0 .. l-1`` in order, -1 for a null move).
        """
        if batch > len(self.out_len):  # output rows for the batch (it doubles up to _MAX_BATCH)
            import numpy as np

            self.out = np.zeros((batch, self.depth), dtype=np.int32)
            self.out_len = np.zeros(batch, dtype=np.int32)
            self.out_nodes = np.zeros(batch, dtype=np.int64)
        code, n_out = self._kernel.step(int(stop_nodes), int(batch), self.out, self.out_len, self.out_nodes)
        return int(code), int(n_out)

    # ------------------------------------------------ the subtree interface
    @property
    def level(self) -> int:
        """The level the search is at."""
        return int(self._kernel.level)

    @property
    def prefixes(self) -> int:
        """Live nodes reported at the cutoff so far."""
        return int(self._kernel.prefixes)

    @property
    def done(self) -> bool:
        """True once the search space (below the prefix descended) is exhausted."""
        return int(self._kernel.pc) == _PC_DONE

    def descend(self, path) -> int:
        """From the root, take the branches of ``path`` (the option of each level, -1 a null move).

        Counts no node; the search then covers the subtree below the prefix
        only. Returns 1 when its node was reached, 0 when the path dies on
        the way (a dead end), -1 when a level has no such branch.
        """
        import numpy as np

        return int(self._kernel.descend(np.ascontiguousarray(path, dtype=np.int32).tobytes()))

    def mark(self) -> None:
        """Remember the state on entering the current level (see :meth:`reset`)."""
        self._kernel.mark()

    def reset(self) -> None:
        """Go back to the state of :meth:`mark` (counters too)."""
        self._kernel.reset()

    def reset_root(self) -> None:
        """Go back to the root: a new search of the whole instance."""
        self._kernel.reset_root()

    def set_cutoff(self, level: int) -> None:
        """Report live nodes of ``level`` as prefix rows instead of searching below them (0: none)."""
        self._kernel.set_cutoff(int(level))

    def probe(self, u: np.ndarray, weights: np.ndarray | None = None, target: int = -1) -> tuple[np.ndarray, np.ndarray]:
        """Knuth's random probes below the mark: one row of ``u`` (uniform in [0, 1), depth values) each.

        Returns the estimates of the subtree's nodes and of its solutions,
        one per probe (float64); the engine is left at the mark. With
        ``weights`` (one whole number per option), a solution counts only
        when the weights of its options sum to ``target``.
        """
        import numpy as np

        u = np.ascontiguousarray(u, dtype=np.float64).reshape(-1, self.depth)
        nodes = np.zeros(len(u), dtype=np.float64)
        sols = np.zeros(len(u), dtype=np.float64)
        if weights is None:
            self._kernel.probe(u, nodes, sols)
        else:
            self._kernel.probe(u, nodes, sols, np.ascontiguousarray(weights, dtype=np.int32).tobytes(), int(target))
        return nodes, sols

    def fraction(self) -> float:
        """Share of the subtree searched so far, each branch weighing 1/degree of its parent's share."""
        return float(self._kernel.fraction())


def _colours(colours, indices: np.ndarray, n_primary: int, hi: np.ndarray) -> np.ndarray | None:
    """Checked colours (uint32, one per entry), or None when there are none."""
    if colours is None:
        return None
    import numpy as np

    c = np.asarray(colours)
    if c.shape != indices.shape:
        raise InputError(f"colours must hold one value per entry ({len(indices)}), got shape {c.shape}")
    if c.size and not np.issubdtype(c.dtype, np.integer):
        raise InputError(f"colours must be integers, got dtype {c.dtype}")
    if c.size and (c.min() < 0 or c.max() >= 2**32):
        raise InputError("colours must be between 0 and 2**32 - 1")
    if not c.any():
        return None
    items = indices.astype(np.int64)
    bad = np.flatnonzero((c != 0) & ((items < n_primary) | (hi[items] != 1)))
    if len(bad):
        item = int(items[bad[0]])
        what = "primary item" if item < n_primary else f"secondary item with hi = {hi[item]}"
        raise InputError(f"entry {int(bad[0])} colours {what} {item}; only secondary items covered at most "
                         "once take colours")
    return np.ascontiguousarray(c, dtype=np.uint32)


def _has_multiplicities(lo: np.ndarray, hi: np.ndarray, n_primary: int) -> bool:
    """Whether an item has bounds other than exact cover's: a primary item's other than [1..1], a secondary
    item's upper bound other than 1 (Algorithm M)."""
    return bool((hi != 1).any() or (lo[:n_primary] != 1).any())


def _depth(n_primary: int, n_options: int, hi: np.ndarray, mult: bool) -> int:
    """Levels of the engine's search, and so of its saved states: one per primary item, or with multiplicities
    (``mult``, Algorithm M) one per cover of a primary item, each level lowering the bounds of one or
    deactivating it."""
    if mult:
        return int(min(int(hi[:n_primary].sum()), n_options + n_primary)) + 1
    return n_primary + 1


def _saved_states_problem(n_items: int, depth: int) -> str | None:
    """Why the saved states of a search ``depth`` levels deep over ``n_items`` items do not fit the engine's
    memory bound (:data:`MAX_SAVED_ENTRIES`), or None."""
    if depth * n_items <= MAX_SAVED_ENTRIES:
        return None
    return (f"{n_items:,} items searched up to {depth:,} levels deep need {4 * depth * n_items / 2**30:.1f} GiB for "
            f"the search's saved states, over the {4 * MAX_SAVED_ENTRIES // 2**30} GiB this engine allows")


def unfit_reason(instance) -> str | None:
    """Why the engine cannot search ``instance`` (its saved states over the memory bound), or None: the
    refusal :func:`ubongo_cp.solvers.check_backend` gives before the engine is loaded.

    Examples
    --------
    >>> from ubongo_cp.exactcover import parse_exact_cover
    >>> unfit_reason(parse_exact_cover("a b\\na\\nb\\n")) is None
    True
    """
    n_items, n_primary = int(instance.n_items), int(instance.n_items - instance.n_secondary)
    if n_items * (int(instance.n_options) + n_primary + 1) <= MAX_SAVED_ENTRIES:   # the deepest it can be: fits
        return None
    lo, hi = _bounds(instance.multiplicity, n_items, n_primary)
    return _saved_states_problem(n_items, _depth(n_primary, int(instance.n_options), hi,
                                                 _has_multiplicities(lo, hi, n_primary)))


def _bounds(multiplicity, n_items: int, n_primary: int) -> tuple[np.ndarray, np.ndarray]:
    """Checked ``(lo, hi)`` arrays (int64, shape (n_items,)) from the ``multiplicity`` argument."""
    import numpy as np

    lo = np.zeros(n_items, dtype=np.int64)
    lo[:n_primary] = 1
    hi = np.ones(n_items, dtype=np.int64)
    if multiplicity is None:
        return lo, hi
    m = np.asarray(multiplicity)
    if m.shape != (n_items, 2):
        raise InputError(f"multiplicity must have shape (n_items, 2) = ({n_items}, 2), got {m.shape}")
    if m.size and not np.issubdtype(m.dtype, np.integer):
        if not np.issubdtype(m.dtype, np.floating) or not np.array_equal(m, np.round(m)):
            raise InputError(f"multiplicity must hold integers, got dtype {m.dtype}")
    m = m.astype(np.int64)
    lo, hi = m[:, 0].copy(), m[:, 1].copy()
    bad = np.flatnonzero((lo < 0) | (lo > hi) | (hi < 1) | (hi >= 2**31))
    if len(bad):
        i = int(bad[0])
        raise InputError(f"multiplicity of item {i} is [{lo[i]}..{hi[i]}]; need 0 <= lo <= hi and "
                         f"1 <= hi < 2**31")
    bad = np.flatnonzero(lo[n_primary:] != 0)
    if len(bad):
        i = n_primary + int(bad[0])
        raise InputError(f"secondary item {i} has lo = {lo[i]}; secondary items are covered at most "
                         f"hi times (lo must be 0; make the item primary for a lower bound)")
    return lo, hi
