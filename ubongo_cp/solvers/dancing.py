"""Exact cover by Knuth's Algorithm X with dancing links, compiled with numba.

The toolkit's own exact-cover search engine, for primary and secondary items
[1]_ [2]_. Unlike the ``xcover`` package [3]_ it reports the number of
search-tree nodes (used to rate puzzle difficulty), hands control back to
Python every ``heartbeat`` nodes (time limits), and counts solutions without
a Python call per solution.

Conventions
-----------
- Options come in CSR form, as in :class:`~ubongo_cp.cover.ExactCoverInstance`:
  option ``o`` covers items ``indices[indptr[o]:indptr[o+1]]``.
- Items are ``0 .. n_items-1``; the last ``n_secondary`` are *secondary*
  (covered at most once), the others *primary* (covered exactly once).
- Item choice (step X3) is MRV: the primary item with the fewest remaining
  options, ties broken by the lowest item id. The options of the chosen item
  are tried in increasing option id, so the search is deterministic.
- **Search nodes.** ``nodes`` is the number of options tried: the number of
  times step X5 sets ``x_l`` to an option (rather than back to the item's
  header). It equals the number of nodes of the search tree other than the
  root. An option that leads at once to a dead end counts; a chosen item
  with no option left adds no node. A solution of depth ``d`` is reached
  after at least ``d`` nodes.

Memory layout (``int32`` arrays): nodes ``0 .. n_items-1`` are the item
headers, node ``n_items + k`` is entry ``k`` of ``indices``. ``ulink`` and
``dlink`` are the vertical (per item) doubly linked lists; ``llink`` and
``rlink`` the horizontal list of active primary items with head ``n_items``.
Secondary items are self-linked, so they never enter that list (Knuth links
them in a second list, which Algorithm X never walks). The rows are the CSR
slices themselves, so no spacer nodes are needed.

References
----------
.. [1] D. E. Knuth, "Dancing Links", in *Millennial Perspectives in Computer
   Science* (2000), pp. 187-214; arXiv:cs/0011047.
.. [2] D. E. Knuth, *The Art of Computer Programming*, Vol. 4B,
   Section 7.2.2.1 "Dancing links", Algorithm X (exact cover with primary and
   secondary items, steps X1-X8) and the *cover*/*hide*/*uncover*/*unhide*
   routines (12), (13), (14), (15), Addison-Wesley (2022).
.. [3] J. Rudge, ``xcover`` (https://github.com/johnrudge/xcover).
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
_PC_DONE = 3  # search space exhausted

# Layout of the ``state`` array of ``_dance``.
_S_PC, _S_LEVEL, _S_ITEM, _S_NODES, _S_SOLUTIONS = range(5)


# --------------------------------------------------------------------- public API
def count(indptr, indices, n_items: int, n_secondary: int = 0,
          node_limit: int | None = None) -> tuple[int, int, bool]:
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
        For malformed CSR arrays (see :func:`search`).

    Notes
    -----
    Knuth's Algorithm X with dancing links [1]_; time O(updates), memory
    O(n_items + len(indices)).

    References
    ----------
    .. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 4B,
       7.2.2.1, Algorithm X; "Dancing Links", arXiv:cs/0011047.

    Examples
    --------
    Knuth's example (items A..G, six options; one solution, 5 nodes):

    >>> opts = [[2, 4, 5], [0, 3, 6], [1, 2, 5], [0, 3], [1, 6], [3, 4, 6]]
    >>> indptr = [0, 3, 6, 9, 11, 13, 16]
    >>> indices = [i for o in opts for i in o]
    >>> count(indptr, indices, 7)
    (1, 5, True)
    """
    engine = _Engine(indptr, indices, n_items, n_secondary)
    limit = _NO_LIMIT if node_limit is None else int(node_limit)
    if limit < 0:
        raise InputError(f"node_limit must be at least 0, got {node_limit}")
    code, _ = engine.step(limit, 0)
    return int(engine.state[_S_SOLUTIONS]), int(engine.state[_S_NODES]), code == _PC_DONE


def search(indptr, indices, n_items: int, n_secondary: int = 0,
           heartbeat: int = DEFAULT_HEARTBEAT) -> "DancingSearch":
    """Enumerate the exact covers lazily, with a heartbeat every ``heartbeat`` nodes.

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
        not in ``0 .. n_items``, or ``heartbeat < 1``.

    Notes
    -----
    Knuth's Algorithm X [1]_ run as a resumable state machine in numba: the
    compiled search stops on a node budget or a full buffer of solutions and
    resumes where it stopped, so Python sees every solution and regains
    control at least every ``heartbeat`` nodes.

    References
    ----------
    .. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 4B,
       7.2.2.1, Algorithm X; "Dancing Links", arXiv:cs/0011047.

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
    return DancingSearch(_Engine(indptr, indices, n_items, n_secondary), int(heartbeat))


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
                    heartbeat=self.heartbeat)
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

    def __init__(self, indptr, indices, n_items, n_secondary) -> None:
        indptr = np.asarray(indptr)
        indices = np.asarray(indices)
        n_items = int(n_items)
        n_secondary = int(n_secondary)
        if indptr.ndim != 1 or indices.ndim != 1 or len(indptr) == 0:
            raise InputError("indptr and indices must be 1-d arrays, indptr non-empty")
        if not (0 <= n_secondary <= n_items) or n_items >= 2**31 - len(indices) - 1:
            raise InputError(f"need 0 <= n_secondary <= n_items, got n_secondary={n_secondary}, "
                             f"n_items={n_items}")
        if indptr[0] != 0 or indptr[-1] != len(indices) or (np.diff(indptr.astype(np.int64)) < 0).any():
            raise InputError(f"indptr must rise from 0 to len(indices)={len(indices)}")
        if len(indices) and (indices.min() < 0 or indices.max() >= n_items):
            raise InputError(f"an item id is outside 0..{n_items - 1}")
        self.indptr = indptr.astype(np.int32)
        self.indices = indices.astype(np.int32)
        arrays = _setup(self.indptr, self.indices, np.int64(n_items), np.int64(n_secondary))
        (self.opt_of, self.ulink, self.dlink, self.llink, self.rlink, self.length, bad) = arrays
        if bad >= 0:
            raise InputError(f"option {bad} lists an item twice")
        depth = n_items - n_secondary + 1
        self.x = np.zeros(depth, dtype=np.int32)
        self.state = np.zeros(5, dtype=np.int64)
        self.out = np.zeros((_MAX_BATCH, depth), dtype=np.int32)
        self.out_len = np.zeros(_MAX_BATCH, dtype=np.int32)
        self.out_nodes = np.zeros(_MAX_BATCH, dtype=np.int64)

    def step(self, stop_nodes: int, batch: int) -> tuple[int, int]:
        """Run until done, ``stop_nodes`` nodes, or ``batch`` solutions (0: count only)."""
        if self.state[_S_PC] == _PC_DONE:
            return _PC_DONE, 0
        code, n_out = _dance(self.indptr, self.indices, self.opt_of, self.ulink, self.dlink,
                             self.llink, self.rlink, self.length, self.x, self.state,
                             np.int64(stop_nodes), self.out, self.out_len, self.out_nodes,
                             np.int64(batch))
        return int(code), int(n_out)


# -------------------------------------------------------------- compiled search
@njit(cache=True)
def _setup(indptr, indices, n_items, n_secondary):  # pragma: no cover - compiled
    """X1 [Initialize]: build the linked lists; return them and a repeated-item flag."""
    n_opts = len(indptr) - 1
    m = len(indices)
    n = n_items
    ulink = np.empty(n + m, dtype=np.int32)
    dlink = np.empty(n + m, dtype=np.int32)
    length = np.zeros(n, dtype=np.int32)
    opt_of = np.empty(m, dtype=np.int32)
    stamp = np.full(n, -1, dtype=np.int64)
    for i in range(n):
        ulink[i] = i
        dlink[i] = i
    bad = -1
    for o in range(n_opts):
        for k in range(indptr[o], indptr[o + 1]):
            i = indices[k]
            if stamp[i] == o:
                bad = o
            stamp[i] = o
            opt_of[k] = o
            # append node n+k at the bottom of item i's vertical list
            x = n + k
            u = ulink[i]
            ulink[x] = u
            dlink[x] = i
            dlink[u] = x
            ulink[i] = x
            length[i] += 1
    # horizontal list of the primary items 0 .. n_primary-1, head n
    n_primary = n - n_secondary
    llink = np.empty(n + 1, dtype=np.int32)
    rlink = np.empty(n + 1, dtype=np.int32)
    prev = n
    for i in range(n_primary):
        llink[i] = prev
        rlink[prev] = i
        prev = i
    rlink[prev] = n
    llink[n] = prev
    for i in range(n_primary, n):  # secondary items: self-linked
        llink[i] = i
        rlink[i] = i
    return opt_of, ulink, dlink, llink, rlink, length, bad


@njit(cache=True)
def _cover(i, n, indptr, indices, opt_of, ulink, dlink, llink, rlink, length):  # pragma: no cover
    """cover(i), Knuth (12): hide every option of item i, then unlink i."""
    p = dlink[i]
    while p != i:
        # hide(p), Knuth (13): unlink the other nodes of p's option from their items
        k = p - n
        o = opt_of[k]
        for q in range(indptr[o], indptr[o + 1]):
            if q != k:
                x = n + q
                u = ulink[x]
                d = dlink[x]
                dlink[u] = d
                ulink[d] = u
                length[indices[q]] -= 1
        p = dlink[p]
    left = llink[i]
    right = rlink[i]
    rlink[left] = right
    llink[right] = left


@njit(cache=True)
def _uncover(i, n, indptr, indices, opt_of, ulink, dlink, llink, rlink, length):  # pragma: no cover
    """uncover(i), Knuth (14): relink i, then unhide its options bottom-up."""
    left = llink[i]
    right = rlink[i]
    rlink[left] = i
    llink[right] = i
    p = ulink[i]
    while p != i:
        # unhide(p), Knuth (15): relink the other nodes of p's option, in reverse
        k = p - n
        o = opt_of[k]
        for q in range(indptr[o + 1] - 1, indptr[o] - 1, -1):
            if q != k:
                x = n + q
                dlink[ulink[x]] = x
                ulink[dlink[x]] = x
                length[indices[q]] += 1
        p = ulink[p]


@njit(cache=True)
def _dance(indptr, indices, opt_of, ulink, dlink, llink, rlink, length, x, state,
           stop_nodes, out, out_len, out_nodes, batch):  # pragma: no cover - compiled
    """Algorithm X from the step in ``state``; stop when done, on the node budget or a full buffer.

    Returns ``(pc, n_out)``: ``pc`` is ``_PC_DONE`` (exhausted), ``_PC_X5``
    (``stop_nodes`` reached and one more node needed) or ``_PC_X8`` (``batch``
    solutions written to ``out``); ``batch == 0`` only counts solutions.
    """
    n = len(length)
    root = n
    pc = state[0]
    level = state[1]
    i = state[2]
    nodes = state[3]
    solutions = state[4]
    n_out = 0
    while True:
        if pc == 0:
            # X2 [Enter level l]: no active primary item left -> visit a solution
            if rlink[root] == root:
                solutions += 1
                if batch > 0:
                    for t in range(level):
                        # insertion sort: the row holds the option ids in increasing order
                        v = opt_of[x[t] - n]
                        s = t
                        while s > 0 and out[n_out, s - 1] > v:
                            out[n_out, s] = out[n_out, s - 1]
                            s -= 1
                        out[n_out, s] = v
                    out_len[n_out] = level
                    out_nodes[n_out] = nodes
                    n_out += 1
                    if n_out == batch:
                        pc = 2
                        break
                pc = 2
                continue
            # X3 [Choose i]: MRV, the first primary item of least length
            best = 2147483647
            p = rlink[root]
            while p != root:
                lp = length[p]
                if lp < best:
                    best = lp
                    i = p
                    if lp == 0:
                        break
                p = rlink[p]
            # X4 [Cover i]
            _cover(i, n, indptr, indices, opt_of, ulink, dlink, llink, rlink, length)
            x[level] = dlink[i]
            pc = 1
        elif pc == 1:
            # X5 [Try x_l]: x_l == i means i's options are used up -> X7
            xl = x[level]
            if xl == i:
                # X7 [Backtrack]
                _uncover(i, n, indptr, indices, opt_of, ulink, dlink, llink, rlink, length)
                pc = 2
                continue
            if nodes >= stop_nodes:
                break
            nodes += 1
            # cover every other item j of option x_l, left to right
            k = xl - n
            o = opt_of[k]
            for q in range(indptr[o], indptr[o + 1]):
                if q != k:
                    _cover(indices[q], n, indptr, indices, opt_of, ulink, dlink, llink, rlink, length)
            level += 1
            pc = 0
        elif pc == 2:
            # X8 [Leave level l]
            if level == 0:
                pc = 3
                break
            level -= 1
            # X6 [Try again]: uncover the other items of x_l right to left, take the next option
            xl = x[level]
            k = xl - n
            o = opt_of[k]
            for q in range(indptr[o + 1] - 1, indptr[o] - 1, -1):
                if q != k:
                    _uncover(indices[q], n, indptr, indices, opt_of, ulink, dlink, llink, rlink, length)
            i = indices[k]
            x[level] = dlink[xl]
            pc = 1
        else:
            break
    state[0] = pc
    state[1] = level
    state[2] = i
    state[3] = nodes
    state[4] = solutions
    return pc, n_out
