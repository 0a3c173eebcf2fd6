"""Exact cover by Knuth's Algorithm X with dancing cells, compiled with numba.

The toolkit's own exact-cover search engine, for primary and secondary items
[1]_ [2]_. Unlike the ``xcover`` package [4]_ it reports the number of
search-tree nodes (used to rate puzzle difficulty), hands control back to
Python every ``heartbeat`` nodes (time limits), and counts solutions without
a Python call per solution.

Conventions
-----------
- Options come in CSR form, as in :class:`~ubongo_cp.cover.ExactCoverInstance`:
  option ``o`` covers items ``indices[indptr[o]:indptr[o+1]]``.
- Items are ``0 .. n_items-1``; the last ``n_secondary`` are *secondary*
  (covered at most once), the others *primary* (covered exactly once).
  An option must hold at least one primary item to be chosen (as in [2]_).
- **Multiplicities** (optional, Algorithm M of [2]_): item ``i`` may carry
  bounds ``[lo..hi]``: it must be covered at least ``lo`` and at most
  ``hi`` times (default ``[1..1]`` primary, ``[0..1]`` secondary). A piece
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
after step X4 and restores them before trying its next option (X6), which
brings back exactly the entries removed since. All index arrays are uint32,
so numba emits no negative-index wraparound code in the inner loop.

References
----------
.. [1] D. E. Knuth, "Dancing Links", in *Millennial Perspectives in Computer
   Science* (2000), pp. 187-214; arXiv:cs/0011047.
.. [2] D. E. Knuth, *The Art of Computer Programming*, Vol. 4B,
   Section 7.2.2.1 "Dancing links", Algorithm X (exact cover with primary and
   secondary items, steps X1-X8, with its *cover* and *hide* operations),
   Addison-Wesley (2022).
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

import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from ..errors import InputError

__all__ = ["search", "count", "DancingSearch", "DancingBackend", "DEFAULT_HEARTBEAT"]

#: Default number of search nodes between two heartbeats of :func:`search`
#: (about 5-20 ms of search on a 2020s laptop core).
DEFAULT_HEARTBEAT = 100_000

# Largest number of solutions handed back by one call of the compiled search
# (the batch starts at 1 and doubles, so the first solution comes at once).
_MAX_BATCH = 1024

_NO_LIMIT = np.iinfo(np.int64).max

# Program counter of the resumable search ``_dance``: the step to run next.
_PC_X2 = 0  # enter level l (also the start)
_PC_X5 = 1  # try x_l (after a stop on the node budget)
_PC_X8 = 2  # leave level l (after a stop on a full solution buffer)
_PC_X6 = 3  # try again
_PC_DONE = 4  # search space exhausted

# How a level of Algorithm M branches (``level_kind``; Algorithm X levels are _K_COVER):
_K_COVER = 0  # the chosen item was covered (its bound reached 0, no slack): try its options
_K_COVER_NULL = 1  # covered with slack left: its options, then the null move
_K_TWEAK = 2  # its bound stays >= 1: tweak its options one by one (then maybe the null move)

# Layout of the ``state`` array of ``_dance``: program counter, level l,
# nodes, solutions, active primary items, active items (all).
_S_PC, _S_LEVEL, _S_NODES, _S_SOLUTIONS, _S_PRIMARY, _S_ACTIVE = range(6)


# --------------------------------------------------------------------- public API
def count(indptr, indices, n_items: int, n_secondary: int = 0,
          node_limit: int | None = None, multiplicity=None) -> tuple[int, int, bool]:
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
    engine = _Engine(indptr, indices, n_items, n_secondary, multiplicity)
    limit = _NO_LIMIT if node_limit is None else int(node_limit)
    if limit < 0:
        raise InputError(f"node_limit must be at least 0, got {node_limit}")
    code, _ = engine.step(limit, 0)
    return int(engine.state[_S_SOLUTIONS]), int(engine.state[_S_NODES]), code == _PC_DONE


def search(indptr, indices, n_items: int, n_secondary: int = 0,
           heartbeat: int = DEFAULT_HEARTBEAT, multiplicity=None) -> "DancingSearch":
    """Enumerate the exact covers lazily, with a heartbeat every ``heartbeat`` nodes.

    Parameters
    ----------
    indptr, indices, n_items, n_secondary, multiplicity
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
        not in ``0 .. n_items``, ``heartbeat < 1``, or ``multiplicity`` is not
        an integer array of shape (n_items, 2) with ``0 <= lo <= hi``,
        ``1 <= hi < 2**31`` and ``lo == 0`` for secondary items.

    Notes
    -----
    Knuth's Algorithm X (M with multiplicities) [1]_ run as a resumable state machine in numba: the
    compiled search stops on a node budget or a full buffer of solutions and
    resumes where it stopped, so Python sees every solution and regains
    control at least every ``heartbeat`` nodes.

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
    return DancingSearch(_Engine(indptr, indices, n_items, n_secondary, multiplicity), int(heartbeat))


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
        return int(self._engine.state[_S_NODES])

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


@dataclass
class DancingBackend:
    """Exact-cover backend running this module's Algorithm X.

    ``run`` follows the :class:`~ubongo_cp.solvers.base.Backend` protocol:
    it calls ``on_solution(option_ids)`` for each solution that is canonical
    for copies of identical pieces (:meth:`ExactCoverInstance.is_canonical`,
    rule UP-5) and returns ``(exhausted, stats)``. The time limit is checked
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
    ``stats`` holds ``nodes`` (search-tree nodes, see the module docstring),
    ``solutions_seen`` (canonical solutions passed on), ``solutions_raw``
    (all exact covers met, copies of a piece told apart) and, on a time-out,
    ``timed_out``.
    """

    name: str = "dlx"
    heartbeat: int = DEFAULT_HEARTBEAT

    def run(self, instance, on_solution, *, time_limit=None, first_only=False):
        """Enumerate the instance's solutions; see the class docstring."""
        deadline = None if time_limit is None else time.perf_counter() + float(time_limit)
        it = search(instance.indptr, instance.indices, instance.n_items, instance.n_secondary,
                    heartbeat=self.heartbeat, multiplicity=getattr(instance, "multiplicity", None))
        found = 0

        def stats(**extra):
            return {"nodes": it.nodes, "solutions_seen": found, "solutions_raw": it.solutions, **extra}

        for options, _nodes in it:
            if options is not None and instance.is_canonical(options):
                found += 1
                if not on_solution(options):
                    return False, stats()
            if deadline is not None and time.perf_counter() > deadline:
                return False, stats(timed_out=True)
        return True, stats()


# ------------------------------------------------------------------ Python glue
class _Engine:
    """The compiled search's arrays and resumable state."""

    def __init__(self, indptr, indices, n_items, n_secondary, multiplicity=None) -> None:
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
        self.mult = bool((hi != 1).any() or (lo[:n_primary] != 1).any())
        self.n_primary = n_primary
        self.indptr = indptr.astype(np.uint32)
        self.indices = indices.astype(np.uint32)
        (self.opt_of, self.start, self.size, self.cells, self.where, self.active, self.apos,
         bad) = _setup(self.indptr, self.indices, np.int64(n_items), np.int64(n_secondary))
        if bad >= 0:
            raise InputError(f"option {bad} lists an item twice")
        # Algorithm M: bound = how many more options may cover the item; slack = hi - lo
        self.bound = hi.astype(np.int32)
        self.slack = (hi - lo).astype(np.int32)
        if self.mult:  # each level lowers the bounds of the active primary items or deactivates one
            depth = int(min(int(hi[:n_primary].sum()), len(indptr) - 1 + n_primary)) + 1
        else:
            depth = n_primary + 1
        # per level l: chosen item, position of x_l in its list, list length (+1 for a
        # null move), how the level branches (M), option x_l (-1 for the null move)
        self.level_item = np.zeros(depth, dtype=np.int32)
        self.level_pos = np.zeros(depth, dtype=np.int32)
        self.level_end = np.zeros(depth, dtype=np.int32)
        self.level_kind = np.zeros(depth, dtype=np.int32)
        self.x = np.zeros(depth, dtype=np.int32)
        # per level l: the item-list lengths and active counts saved after X4 (after each tweak in M)
        self.saved_size = np.zeros((depth, n_items), dtype=np.uint32)
        self.saved_active = np.zeros((depth, 2), dtype=np.int32)
        self.state = np.array([_PC_X2, 0, 0, 0, n_primary, n_items], dtype=np.int64)
        self.out = np.zeros((_MAX_BATCH, depth), dtype=np.int32)
        self.out_len = np.zeros(_MAX_BATCH, dtype=np.int32)
        self.out_nodes = np.zeros(_MAX_BATCH, dtype=np.int64)

    def step(self, stop_nodes: int, batch: int) -> tuple[int, int]:
        """Run until done, ``stop_nodes`` nodes, or ``batch`` solutions (0: count only)."""
        if self.state[_S_PC] == _PC_DONE:
            return _PC_DONE, 0
        code, n_out = _dance(self.indptr, self.indices, self.opt_of, self.start, self.size,
                             self.cells, self.where, self.active, self.apos, self.bound, self.slack,
                             self.level_item, self.level_pos, self.level_end, self.level_kind, self.x,
                             self.saved_size, self.saved_active, self.state, np.int64(stop_nodes),
                             self.out, self.out_len, self.out_nodes, np.int64(batch),
                             np.int64(self.n_primary), self.mult)
        return int(code), int(n_out)


def _bounds(multiplicity, n_items: int, n_primary: int) -> tuple[np.ndarray, np.ndarray]:
    """Checked ``(lo, hi)`` arrays (int64, shape (n_items,)) from the ``multiplicity`` argument."""
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


# -------------------------------------------------------------- compiled search
@njit(cache=True)
def _setup(indptr, indices, n_items, n_secondary):  # pragma: no cover - compiled
    """X1 [Initialize]: item lists and active-item sets; also the first option repeating an item."""
    n_opts = len(indptr) - 1
    m = len(indices)
    opt_of = np.empty(m, dtype=np.uint32)
    size = np.zeros(n_items, dtype=np.uint32)
    stamp = np.full(n_items, -1, dtype=np.int64)
    bad = -1
    for o in range(n_opts):
        for k in range(indptr[o], indptr[o + 1]):
            i = indices[k]
            if stamp[i] == o and bad < 0:
                bad = o
            stamp[i] = o
            opt_of[k] = o
            size[i] += 1
    # item i's list is cells[start[i] : start[i] + size[i]] (entries k of indices,
    # in increasing option order at the start); where[k] is k's position in it
    start = np.zeros(n_items, dtype=np.uint32)
    acc = 0
    for i in range(n_items):
        start[i] = acc
        acc += size[i]
    fill = start.copy()
    cells = np.empty(m, dtype=np.uint32)
    where = np.empty(m, dtype=np.uint32)
    for k in range(m):
        i = indices[k]
        cells[fill[i]] = k
        where[k] = fill[i]
        fill[i] += 1
    # sparse set of the active items: active[0 : n_active]; apos is its inverse
    active = np.arange(n_items).astype(np.uint32)
    apos = np.arange(n_items).astype(np.uint32)
    return opt_of, start, size, cells, where, active, apos, bad


@njit(cache=True, inline="always")
def _deactivate(j, active, apos, n_primary, n_pa, n_act):  # pragma: no cover - compiled
    """Swap item j past the end of the active set; return the new active counts."""
    n_act -= 1
    other = active[n_act]
    p = apos[j]
    active[p] = other
    apos[other] = p
    active[n_act] = j
    apos[j] = n_act
    if j < n_primary:
        n_pa -= 1
    return n_pa, n_act


@njit(cache=True, inline="always")
def _remove_entry(q, jq, start, size, cells, where):  # pragma: no cover - compiled
    """Swap entry q past the end of item jq's list, which shrinks by one."""
    new_size = size[jq] - np.uint32(1)
    last = start[jq] + new_size
    loc = where[q]
    other = cells[last]
    cells[loc] = other
    where[other] = loc
    cells[last] = q
    where[q] = last
    size[jq] = new_size


@njit(cache=True)
def _hide_chosen(i, indptr, indices, opt_of, start, size, cells, where, apos,
                 n_act):  # pragma: no cover - compiled
    """X4: hide every option of the chosen item ``i`` (already inactive).

    Each entry of each option of ``i`` leaves the list of its item if that
    item is active; ``i``'s own list is left as it is (X5 walks it). The
    same loop as :func:`_hide_other` without its two tests (``i`` is
    already inactive, and X4 does not look for dead ends), kept apart
    because this is the innermost loop of the search.
    """
    one = np.uint32(1)
    s = start[i]
    for t in range(s, s + size[i]):
        op = opt_of[cells[t]]
        for q in range(indptr[op], indptr[op + one]):
            jq = indices[q]
            if apos[jq] < n_act:
                _remove_entry(q, jq, start, size, cells, where)


@njit(cache=True)
def _hide_other(j, indptr, indices, opt_of, start, size, cells, where, apos, n_primary,
                old_act, n_act):  # pragma: no cover - compiled
    """X5: hide the remaining options of ``j``, another item of the option just tried.

    ``old_act`` is the number of active items before this cover step: the
    entries leave the lists of those items, including the option's other
    items (already inactive), so that an option holding two of them is
    hidden once, from the first one's list, and is gone from the second
    one's list by the time its turn comes (no marks needed). Returns False
    as soon as an item still active and primary loses its last option (a
    dead end), else True.

    All arrays are uint32 and indices stay unsigned, so numba emits no
    negative-index wraparound code in this, the innermost loop.
    """
    one = np.uint32(1)
    s = start[j]
    for t in range(s, s + size[j]):
        op = opt_of[cells[t]]
        for q in range(indptr[op], indptr[op + one]):
            jq = indices[q]
            if jq == j:
                continue
            a = apos[jq]
            if a >= old_act:
                continue
            if size[jq] == one and a < n_act and jq < n_primary:
                return False
            _remove_entry(q, jq, start, size, cells, where)
    return True


@njit(cache=True)
def _hide_other_m(j, indptr, indices, opt_of, start, size, cells, where, apos, bound, slack,
                  n_primary, old_act, n_act):  # pragma: no cover - compiled
    """M6: :func:`_hide_other` with multiplicities.

    A dead end is an item still active and primary whose list becomes
    shorter than the number of times it must still be covered,
    ``max(bound - slack, 0)``; for an item with bounds [1..1] that is the
    test of :func:`_hide_other` (its last option goes).
    """
    one = np.uint32(1)
    s = start[j]
    for t in range(s, s + size[j]):
        op = opt_of[cells[t]]
        for q in range(indptr[op], indptr[op + one]):
            jq = indices[q]
            if jq == j:
                continue
            a = apos[jq]
            if a >= old_act:
                continue
            if a < n_act and jq < n_primary:
                b = np.int64(bound[jq])
                sl = np.int64(slack[jq])
                if b > sl and np.int64(size[jq]) <= b - sl:
                    return False
            _remove_entry(q, jq, start, size, cells, where)
    return True


@njit(cache=True)
def _tweak(o, indptr, indices, start, size, cells, where, apos, n_act):  # pragma: no cover - compiled
    """M5 *tweak*: hide option ``o`` from the lists of all active items (its branching item too)."""
    for q in range(indptr[o], indptr[o + 1]):
        jq = indices[q]
        if apos[jq] < n_act:
            _remove_entry(q, jq, start, size, cells, where)


@njit(cache=True)
def _use_option_m(o, i, indptr, indices, opt_of, start, size, cells, where, active, apos, bound,
                  slack, n_primary, n_pa, n_act):  # pragma: no cover - compiled
    """M6 [Try x_l]: option ``o`` covers its items other than ``i`` once more.

    Every such item's bound goes down by one; those reaching 0 are covered
    (deactivated, then their remaining options hidden, as in X5). The bounds
    are all decremented before any hiding, so :func:`_unuse_option_m` undoes
    them whether or not a dead end stopped the hiding. Returns
    ``(alive, n_pa, n_act)``.
    """
    old_act = n_act
    for q in range(indptr[o], indptr[o + 1]):
        j = indices[q]
        if j != i:
            bound[j] -= 1
            if bound[j] == 0:
                n_pa, n_act = _deactivate(j, active, apos, n_primary, n_pa, n_act)
    for q in range(indptr[o], indptr[o + 1]):
        j = indices[q]
        if j != i and bound[j] == 0:
            if not _hide_other_m(j, indptr, indices, opt_of, start, size, cells, where, apos,
                                 bound, slack, n_primary, old_act, n_act):
                return False, n_pa, n_act
    return True, n_pa, n_act


@njit(cache=True)
def _unuse_option_m(o, i, indptr, indices, bound):  # pragma: no cover - compiled
    """M7: give back the bounds :func:`_use_option_m` took from ``o``'s items."""
    for q in range(indptr[o], indptr[o + 1]):
        j = indices[q]
        if j != i:
            bound[j] += 1


@njit(cache=True)
def _dance(indptr, indices, opt_of, start, size, cells, where, active, apos, bound, slack,
           level_item, level_pos, level_end, level_kind, x, saved_size, saved_active, state,
           stop_nodes, out, out_len, out_nodes, batch, n_primary, mult):  # pragma: no cover - compiled
    """Algorithm X (or M when ``mult``) from the step in ``state``; stop when done, on the node budget or a full buffer.

    Dancing-cells form: instead of unhiding, a level restores the list
    lengths and active counts it saved after X4 (the removed entries sit just
    past each list's end, so restoring a length brings them back). With
    ``mult`` the item bounds are given back explicitly (M7, M8) and a level
    that tweaks saves its state after each tweak.

    Returns ``(pc, n_out)``: ``pc`` is ``_PC_DONE`` (exhausted), ``_PC_X5``
    (``stop_nodes`` reached and one more node needed) or ``_PC_X8`` (``batch``
    solutions written to ``out``); ``batch == 0`` only counts solutions.
    """
    n_items = len(size)
    pc = state[0]
    level = state[1]
    nodes = state[2]
    solutions = state[3]
    n_pa = state[4]
    n_act = state[5]
    n_out = 0
    while True:
        if pc == 0:
            # X2 [Enter level l]: no active primary item left -> visit x_0 .. x_{l-1}
            if n_pa == 0:
                solutions += 1
                if batch > 0:
                    m = 0
                    for t in range(level):
                        v = x[t]  # insertion sort: rows hold increasing option ids
                        if v < 0:
                            continue  # a level that chose no option (M5's null move)
                        s = m
                        while s > 0 and out[n_out, s - 1] > v:
                            out[n_out, s] = out[n_out, s - 1]
                            s -= 1
                        out[n_out, s] = v
                        m += 1
                    out_len[n_out] = m
                    out_nodes[n_out] = nodes
                    n_out += 1
                    if n_out == batch:
                        pc = 2
                        break
                pc = 2
                continue
            if not mult:
                # X3 [Choose i]: MRV, least list length, ties to the lowest item id
                i = n_items
                best = 2147483647
                for t in range(n_act):
                    j = active[t]
                    if j >= n_primary:
                        continue
                    lj = size[j]
                    if lj < best or (lj == best and j < i):
                        best = lj
                        i = j
                        if lj == 0:
                            break
                # X4 [Cover i]: deactivate i and hide its options
                n_pa, n_act = _deactivate(i, active, apos, n_primary, n_pa, n_act)
                _hide_chosen(i, indptr, indices, opt_of, start, size, cells, where, apos, n_act)
                level_item[level] = i
                level_pos[level] = 0
                level_end[level] = best
                if best >= 2:  # a forced move (or none) is never restored to
                    for t in range(n_items):
                        saved_size[level, t] = size[t]
                    saved_active[level, 0] = n_pa
                    saved_active[level, 1] = n_act
                pc = 1
                continue
            # M3 [Choose i]: least branching degree theta = len + 1 - max(bound - slack, 0);
            # ties to the smaller min(slack, bound), then the longer list, then the lowest id
            i = n_items
            best = 2147483647
            best_s = 2147483647
            best_l = -1
            for t in range(n_act):
                j = active[t]
                if j >= n_primary:
                    continue
                b = np.int64(bound[j])
                sj = np.int64(slack[j])
                if sj > b:
                    sj = b
                lj = np.int64(size[j])
                th = lj + sj - b + 1
                if th < best or (th == best and (sj < best_s or (sj == best_s and (
                        lj > best_l or (lj == best_l and j < i))))):
                    best = th
                    best_s = sj
                    best_l = lj
                    i = j
                    if th <= 0:
                        break
            level_item[level] = i
            level_pos[level] = 0
            if best <= 0:  # too few options left for i's lower bound: no branch
                level_kind[level] = _K_COVER
                level_end[level] = 0
            elif bound[i] == 1:
                # M4 [Prepare to branch on i], bound reaching 0: cover i as X4 does; with
                # slack, the null move (no further option for i) is the last branch
                n_pa, n_act = _deactivate(i, active, apos, n_primary, n_pa, n_act)
                _hide_chosen(i, indptr, indices, opt_of, start, size, cells, where, apos, n_act)
                level_kind[level] = _K_COVER if slack[i] == 0 else _K_COVER_NULL
                level_end[level] = size[i] + level_kind[level]
                if level_end[level] >= 2:
                    for t in range(n_items):
                        saved_size[level, t] = size[t]
                    saved_active[level, 0] = n_pa
                    saved_active[level, 1] = n_act
            else:
                # M4, bound staying above 0: i stays active and its options are tweaked
                bound[i] -= 1
                level_kind[level] = _K_TWEAK
            pc = 1
        elif pc == 1:
            if not mult or level_kind[level] != _K_TWEAK:
                # X5 [Try x_l]: past the end of i's list -> X7
                if level_pos[level] >= level_end[level]:
                    # X7 [Backtrack]: nothing to uncover, the parent level restores its state
                    pc = 2
                    continue
                i = level_item[level]
                if mult and level_kind[level] == _K_COVER_NULL and level_pos[level] == level_end[level] - 1:
                    x[level] = -1  # M5: the null move
                    level += 1
                    pc = 0
                    continue
                if nodes >= stop_nodes:
                    break
                nodes += 1
                k = cells[start[i] + level_pos[level]]
                o = opt_of[k]
                x[level] = o
                if mult:
                    alive, n_pa, n_act = _use_option_m(o, i, indptr, indices, opt_of, start, size, cells,
                                                       where, active, apos, bound, slack, n_primary,
                                                       n_pa, n_act)
                else:
                    # cover the other items j of option x_l: deactivate them all, then hide
                    # their options (x_l itself left their lists in X4)
                    old_act = n_act
                    for q in range(indptr[o], indptr[o + 1]):
                        if q != k:
                            n_pa, n_act = _deactivate(indices[q], active, apos, n_primary, n_pa, n_act)
                    alive = True
                    for q in range(indptr[o], indptr[o + 1]):
                        if q != k:
                            if not _hide_other(indices[q], indptr, indices, opt_of, start, size, cells,
                                               where, apos, n_primary, old_act, n_act):
                                alive = False
                                break
            else:
                # M5 [Possibly tweak x_l]: i keeps bound[i] >= 1 and its list holds the
                # options not yet tried; too few of them for its lower bound -> M8
                i = level_item[level]
                li = np.int64(size[i])
                if li <= np.int64(bound[i]) - np.int64(slack[i]):
                    bound[i] += 1  # M8 [Restore i]
                    pc = 2
                    continue
                if li == 0:
                    # the null move: i takes no further option and leaves the active set
                    n_pa, n_act = _deactivate(i, active, apos, n_primary, n_pa, n_act)
                    x[level] = -1
                    level += 1
                    pc = 0
                    continue
                if nodes >= stop_nodes:
                    break
                nodes += 1
                # x_l: the least option id left in i's list (Knuth's list order)
                s0 = start[i]
                o = opt_of[cells[s0]]
                for t in range(s0 + 1, s0 + size[i]):
                    ot = opt_of[cells[t]]
                    if ot < o:
                        o = ot
                x[level] = o
                _tweak(o, indptr, indices, start, size, cells, where, apos, n_act)
                for t in range(n_items):
                    saved_size[level, t] = size[t]
                saved_active[level, 0] = n_pa
                saved_active[level, 1] = n_act
                alive, n_pa, n_act = _use_option_m(o, i, indptr, indices, opt_of, start, size, cells,
                                                   where, active, apos, bound, slack, n_primary, n_pa, n_act)
            if alive:
                level += 1
                pc = 0
            else:
                pc = 3  # dead end found while covering: go to X6 at this level
        elif pc == 2:
            # X8 [Leave level l]
            if level == 0:
                pc = 4
                break
            level -= 1
            pc = 3
        elif pc == 3:
            # X6 [Try again]: restore the state saved after X4 and take the next option
            if mult:
                o = x[level]
                i = level_item[level]
                if o >= 0:
                    _unuse_option_m(o, i, indptr, indices, bound)  # M7
                if level_kind[level] == _K_TWEAK:
                    if o < 0:  # the null move was the last branch: M8 [Restore i]
                        bound[i] += 1
                        pc = 2
                        continue
                    for t in range(n_items):
                        size[t] = saved_size[level, t]
                    n_pa = saved_active[level, 0]
                    n_act = saved_active[level, 1]
                    pc = 1
                    continue
            level_pos[level] += 1
            if level_pos[level] < level_end[level]:
                for t in range(n_items):
                    size[t] = saved_size[level, t]
                n_pa = saved_active[level, 0]
                n_act = saved_active[level, 1]
            pc = 1
        else:
            break
    state[0] = pc
    state[1] = level
    state[2] = nodes
    state[3] = solutions
    state[4] = n_pa
    state[5] = n_act
    return pc, n_out
