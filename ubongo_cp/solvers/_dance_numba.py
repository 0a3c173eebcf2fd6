"""The numba kernel of :mod:`ubongo_cp.solvers.dancing` (the fallback).

The same search as the C kernel ``_dance.c``, step for step: Knuth's
Algorithm X (Algorithm M with multiplicities) on dancing cells, as a
resumable state machine. Used only when the C extension is missing or
``UBONGO_CP_KERNEL=numba``; importing this module imports numba (about
0.4 s) and the first call loads or compiles the kernel (cached on disk).
See :mod:`ubongo_cp.solvers.dancing` for the algorithm and references.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["Engine"]

# Program counter of the resumable search ``_dance`` (the step to run next) and
# the kinds of Algorithm M levels: as in dancing.py and _dance.c.
_PC_X2, _PC_X5, _PC_X8, _PC_X6, _PC_DONE = range(5)
_K_COVER, _K_COVER_NULL, _K_TWEAK = range(3)


class Engine:
    """The compiled search's arrays and resumable state (same interface as ``_dance.Engine``).

    Parameters
    ----------
    indptr, indices : numpy.ndarray of uint32
        The options in CSR form (checked by the caller).
    n_items, n_primary : int
        Items, of which the first ``n_primary`` are primary.
    bound, slack : numpy.ndarray of int32, shape (n_items,)
        Algorithm M's ``hi`` and ``hi - lo`` of each item.
    depth : int
        Levels to allocate (at most one option or null move per level).
    mult : bool
        Run Algorithm M (False: Algorithm X, all bounds [1..1] / [0..1]).
    colours : bytes-like
        The colour of each entry (uint32, 0: none), or empty when no entry has one.

    Attributes
    ----------
    bad : int
        The first option that lists an item twice, or -1.
    """

    def __init__(self, indptr, indices, n_items, n_primary, bound, slack, depth, mult, colours=b"") -> None:
        self.indptr = indptr
        self.indices = indices
        (self.opt_of, self.start, self.size, self.cells, self.where, self.active, self.apos,
         bad) = _setup(indptr, indices, np.int64(n_items))
        self.bad = int(bad)
        self.bound = bound.copy()
        self.init_bound = bound.copy()
        self.init_size = self.size.copy()
        self.mark_bound = bound.copy()
        self.mark_size = self.size.copy()
        self.slack = slack
        self.n_primary = int(n_primary)
        self.mult = bool(mult)
        clr = np.frombuffer(colours, dtype=np.uint32) if len(colours) else np.zeros(0, dtype=np.uint32)
        self.colours = len(clr) > 0
        self.clr = clr if self.colours else np.zeros(1, dtype=np.uint32)
        self.depth = int(depth)
        # per level l: chosen item, position of x_l in its list (for a tweaked item: the options
        # tweaked so far), list length (+1 for a null move; for a tweaked item its branching
        # degree), how the level branches (M), option x_l (-1 for the null move)
        self.level_item = np.zeros(depth, dtype=np.int32)
        self.level_pos = np.zeros(depth, dtype=np.int32)
        self.level_end = np.zeros(depth, dtype=np.int32)
        self.level_kind = np.zeros(depth, dtype=np.int32)
        self.x = np.zeros(depth, dtype=np.int32)
        # per level l: the item-list lengths and active counts saved after X4 (after each tweak in M)
        self.saved_size = np.zeros((depth, n_items), dtype=np.uint32)
        self.saved_active = np.zeros((depth, 2), dtype=np.int64)
        # the subtree interface: the prefix descended, a probe's random numbers and degrees
        self.path = np.zeros(depth, dtype=np.int32)
        self.u = np.zeros(depth, dtype=np.float64)
        self.deg = np.zeros(depth, dtype=np.float64)
        # program counter, level l, nodes, solutions, active primary items, active items,
        # then: path length, cutoff, prefixes, probe depth, halt, bad path, probing
        self.state = np.array([_PC_X2, 0, 0, 0, n_primary, n_items, 0, -1, 0, 0, 0, 0, 0], dtype=np.int64)
        self.mark_state = np.zeros(6, dtype=np.int64)  # level, n_pa, n_act, nodes, solutions, has_mark
        self._n_items = int(n_items)

    @property
    def nodes(self) -> int:
        """Search-tree nodes (options tried) so far."""
        return int(self.state[2])

    @property
    def solutions(self) -> int:
        """Solutions found so far."""
        return int(self.state[3])

    @property
    def pc(self) -> int:
        """The step to run next."""
        return int(self.state[0])

    @property
    def level(self) -> int:
        """The current level."""
        return int(self.state[1])

    @property
    def prefixes(self) -> int:
        """Live nodes reported at the cutoff."""
        return int(self.state[_S_PREFIXES])

    def _run(self, stop_nodes, out, out_len, out_nodes, batch):
        return _dance(self.indptr, self.indices, self.opt_of, self.start, self.size,
                      self.cells, self.where, self.active, self.apos, self.bound, self.slack,
                      self.level_item, self.level_pos, self.level_end, self.level_kind, self.x,
                      self.saved_size, self.saved_active, self.state, np.int64(stop_nodes),
                      out, out_len, out_nodes, np.int64(batch), np.int64(self.n_primary),
                      self.mult, self.colours, self.clr, self.path, self.u, self.deg)

    def step(self, stop_nodes: int, batch: int, out, out_len, out_nodes) -> tuple[int, int]:
        """Run until done, ``stop_nodes`` nodes, or ``batch`` rows (0: count only)."""
        if self.state[0] == _PC_DONE:
            return _PC_DONE, 0
        code, n_out = self._run(stop_nodes, out, out_len, out_nodes, batch)
        return int(code), int(n_out)

    def descend(self, path) -> int:
        """Take the branches of ``path`` from the root (see ``_dance.c``): 1 reached, 0 dead, -1 bad path."""
        path = np.frombuffer(path, dtype=np.int32)
        st = self.state
        if len(path) >= self.depth or st[1] != 0 or st[0] != _PC_X2 or st[_S_PATH] != 0:
            raise ValueError("descend needs a path shorter than the depth, from the root")
        self.path[:len(path)] = path
        st[_S_PATH] = len(path)
        st[_S_HALT] = 1
        st[_S_BAD] = 0
        code, _ = self._run(_NO_LIMIT, _EMPTY_OUT, _EMPTY_LEN, _EMPTY_NODES, 0)
        st[_S_HALT] = 0
        if st[_S_BAD]:
            return -1
        return 1 if code == _PC_X2 and st[1] == len(path) else 0

    def mark(self) -> None:
        """Remember the state on entering the current level."""
        if self.state[0] != _PC_X2:
            raise RuntimeError("mark needs an engine that is entering a level")
        _mark(self.size, self.active, self.mark_size, self.state, self.mark_state)
        self.mark_bound[:] = self.bound
        self.mark_state[5] = 1

    def reset(self) -> None:
        """Go back to the mark."""
        if not self.mark_state[5]:
            raise RuntimeError("reset needs a mark")
        _reset(self.size, self.active, self.mark_size, self.bound, self.mark_bound, self.state, self.mark_state)

    def reset_root(self) -> None:
        """Go back to the root: every list full, every item active, the bounds as given."""
        self.size[:] = self.init_size
        self.bound[:] = self.init_bound
        self.state[:] = [_PC_X2, 0, 0, 0, self.n_primary, self._n_items, 0, -1, 0, 0, 0, 0, 0]
        self.mark_state[5] = 0

    def set_cutoff(self, level: int) -> None:
        """Report the live nodes of ``level`` as prefixes instead of searching below them (0: none)."""
        self.state[_S_CUTOFF] = level if level > 0 else -1

    def probe(self, u, est_nodes, est_solutions, weights=None, target=-1) -> None:
        """Knuth's random probes below the mark (see ``_dance.c``); with ``weights`` (int32, one per option),
        a solution counts only when its options' weights sum to ``target``."""
        if not self.mark_state[5]:
            raise RuntimeError("probe needs a mark")
        u = np.frombuffer(u, dtype=np.float64)
        est_nodes = np.frombuffer(est_nodes, dtype=np.float64)
        est_solutions = np.frombuffer(est_solutions, dtype=np.float64)
        n = len(est_nodes)
        if len(u) != n * self.depth or len(est_solutions) != n:
            raise ValueError("probe: u must be n x depth doubles, the estimates n doubles")
        for p in range(n):
            self.u[:] = u[p * self.depth:(p + 1) * self.depth]
            start, before = self.level, self.solutions
            self.state[_S_PROBING] = 1
            self.state[_S_PDEPTH] = start
            self._run(_NO_LIMIT, _EMPTY_OUT, _EMPTY_LEN, _EMPTY_NODES, 0)
            solved = self.solutions > before
            if solved and weights is not None:
                chosen = self.x[:int(self.state[_S_PDEPTH])]
                solved = int(np.frombuffer(weights, dtype=np.int32)[chosen[chosen >= 0]].sum()) == target
            est_nodes[p], est_solutions[p] = _estimate(self.deg, self.x, start, self.state[_S_PDEPTH], solved)
            self.reset()

    def fraction(self) -> float:
        """The share of the subtree searched so far (see ``_dance.c``)."""
        st = self.state
        if st[0] == _PC_DONE:
            return 1.0
        top = st[1] + (1 if st[0] == _PC_X5 else 0)
        f, w = 0.0, 1.0
        for lv in range(int(st[_S_PATH]), min(int(top), self.depth)):
            end = int(self.level_end[lv])
            if end <= 0:
                break
            f += w * int(self.level_pos[lv]) / end
            w /= end
        return f


_S_PATH, _S_CUTOFF, _S_PREFIXES, _S_PDEPTH, _S_HALT, _S_BAD, _S_PROBING = range(6, 13)
_NO_LIMIT = np.iinfo(np.int64).max
_EMPTY_OUT = np.zeros((0, 1), dtype=np.int32)
_EMPTY_LEN = np.zeros(0, dtype=np.int32)
_EMPTY_NODES = np.zeros(0, dtype=np.int64)


def _estimate(deg, x, start, pdepth, solved) -> tuple[float, float]:
    """Knuth's estimates of one probe: nodes (an option at level l stands for the product of the degrees
    down to l), solutions (the product down to the solution)."""
    w, nodes = 1.0, 0.0
    for lv in range(int(start), int(pdepth)):
        w *= float(deg[lv])
        if x[lv] >= 0:
            nodes += w
    return nodes, (w if solved else 0.0)


@njit(cache=True)
def _mark(size, active, mark_size, state, mark):  # pragma: no cover - compiled
    """Remember the list lengths of the active items and the counters (``_dance.c``'s do_mark)."""
    for t in range(state[5]):
        j = active[t]
        mark_size[j] = size[j]
    mark[0] = state[1]
    mark[1] = state[4]
    mark[2] = state[5]
    mark[3] = state[2]
    mark[4] = state[3]


@njit(cache=True)
def _reset(size, active, mark_size, bound, mark_bound, state, mark):  # pragma: no cover - compiled
    """Go back to the mark: only the items active at the mark have changed lists since."""
    state[4] = mark[1]
    state[5] = mark[2]
    for t in range(state[5]):
        j = active[t]
        size[j] = mark_size[j]
    for t in range(len(bound)):
        bound[t] = mark_bound[t]
    state[1] = mark[0]
    state[2] = mark[3]
    state[3] = mark[4]
    state[0] = 0
    state[12] = 0
    state[9] = 0


# -------------------------------------------------------------- compiled search
@njit(cache=True)
def _setup(indptr, indices, n_items):  # pragma: no cover - compiled
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
def _hide_other(j, colour, clr, indptr, indices, opt_of, start, size, cells, where, apos, n_primary,
                old_act, n_act):  # pragma: no cover - compiled
    """X5: hide the remaining options of ``j``, another item of the option just tried.

    With ``colour`` > 0 (Algorithm C's purification) the options that give
    ``j`` that colour stay.

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
        if colour != 0 and clr[cells[t]] == colour:
            continue  # a compatible option stays
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
def _hide_other_m(j, colour, clr, indptr, indices, opt_of, start, size, cells, where, apos, bound, slack,
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
        if colour != 0 and clr[cells[t]] == colour:
            continue
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
                  slack, n_primary, n_pa, n_act, colours, clr):  # pragma: no cover - compiled
    """M6 [Try x_l]: option ``o`` covers its items other than ``i`` once more.

    Every such item's bound goes down by one; those reaching 0 are covered
    (deactivated, then their remaining options hidden, as in X5). The bounds
    are all decremented before any hiding, so :func:`_unuse_option_m` undoes
    them whether or not a dead end stopped the hiding. A coloured entry
    (colours only on secondary items with bound 1) purifies its item instead,
    once: when the item is still active. Returns ``(alive, n_pa, n_act)``.
    """
    old_act = n_act
    for q in range(indptr[o], indptr[o + 1]):
        j = indices[q]
        if j == i:
            continue
        if colours and clr[q] != 0:
            if apos[j] < n_act:
                n_pa, n_act = _deactivate(j, active, apos, n_primary, n_pa, n_act)
        else:
            bound[j] -= 1
            if bound[j] == 0:
                n_pa, n_act = _deactivate(j, active, apos, n_primary, n_pa, n_act)
    for q in range(indptr[o], indptr[o + 1]):
        j = indices[q]
        if j == i:
            continue
        if colours and clr[q] != 0:
            a = apos[j]
            if a >= n_act and a < old_act:
                if not _hide_other_m(j, clr[q], clr, indptr, indices, opt_of, start, size, cells, where, apos,
                                     bound, slack, n_primary, old_act, n_act):
                    return False, n_pa, n_act
        elif bound[j] == 0:
            if not _hide_other_m(j, np.uint32(0), clr, indptr, indices, opt_of, start, size, cells, where, apos,
                                 bound, slack, n_primary, old_act, n_act):
                return False, n_pa, n_act
    return True, n_pa, n_act


@njit(cache=True)
def _unuse_option_m(o, i, indptr, indices, bound, colours, clr):  # pragma: no cover - compiled
    """M7: give back the bounds :func:`_use_option_m` took from ``o``'s items."""
    for q in range(indptr[o], indptr[o + 1]):
        j = indices[q]
        if j != i and not (colours and clr[q] != 0):
            bound[j] += 1


@njit(cache=True)
def _least_option(i, opt_of, start, size, cells):  # pragma: no cover - compiled
    """The least option id left in item ``i``'s list (Knuth's order of a tweaked item's options)."""
    s0 = start[i]
    o = opt_of[cells[s0]]
    for t in range(s0 + 1, s0 + size[i]):
        ot = opt_of[cells[t]]
        if ot < o:
            o = ot
    return o


@njit(cache=True)
def _save(level, size, active, saved_size, saved_active, n_pa, n_act):  # pragma: no cover - compiled
    """A level's state: the list lengths of the items active now, and the active counts.

    Only active items' lists change while the level's subtree is searched,
    so saving theirs suffices (``_dance.c``'s save_state).
    """
    for t in range(n_act):
        j = active[t]
        saved_size[level, j] = size[j]
    saved_active[level, 0] = n_pa
    saved_active[level, 1] = n_act


@njit(cache=True)
def _restore(level, size, active, saved_size, saved_active):  # pragma: no cover - compiled
    """Restore what :func:`_save` saved; returns the active counts."""
    n_pa = saved_active[level, 0]
    n_act = saved_active[level, 1]
    for t in range(n_act):
        j = active[t]
        size[j] = saved_size[level, j]
    return n_pa, n_act


@njit(cache=True)
def _write_row(x, level, prefix, out, n_out):  # pragma: no cover - compiled
    """A solution's options sorted (null moves left out), or a prefix's in level order; returns out_len."""
    if prefix:
        for t in range(level):
            out[n_out, t] = x[t]
        return -level
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
    return m


@njit(cache=True)
def _pick_cover_branch(level, i, path, u, deg, path_len, mult, level_kind, level_pos, level_end, opt_of, start,
                       cells, state):  # pragma: no cover - compiled
    """The one branch a cover level takes in a descent (the prefix's option) or a probe (a random one).

    Sets ``level_pos``; False when the prefix names no branch of the level
    (``_dance.c``'s pick_cover_branch).
    """
    end = level_end[level]
    if level < path_len:
        want = path[level]
        null = 1 if (mult and level_kind[level] == _K_COVER_NULL) else 0
        if want < 0:
            if null == 0:
                return False
            level_pos[level] = end - 1
            return True
        s = start[i]
        for p in range(end - null):
            if opt_of[cells[s + p]] == want:
                level_pos[level] = p
                return True
        return False
    r = np.int32(u[level] * np.float64(end))
    if r >= end:
        r = end - 1
    level_pos[level] = r
    deg[level] = np.float64(end)
    state[9] = level + 1
    return True


@njit(cache=True)
def _dance(indptr, indices, opt_of, start, size, cells, where, active, apos, bound, slack,
           level_item, level_pos, level_end, level_kind, x, saved_size, saved_active, state,
           stop_nodes, out, out_len, out_nodes, batch, n_primary, mult, colours, clr, path, u,
           deg):  # pragma: no cover - compiled
    """Algorithm X (or M when ``mult``) from the step in ``state``; stop when done, on the node budget or a full buffer.

    Dancing-cells form: instead of unhiding, a level restores the list
    lengths and active counts it saved after X4 (the removed entries sit just
    past each list's end, so restoring a length brings them back). With
    ``mult`` the item bounds are given back explicitly (M7, M8) and a level
    that tweaks saves its state after each tweak. With ``colours`` an option
    purifies the secondary items it colours (Algorithm C).

    The subtree interface (``state[6:]``): levels above the path length take
    the prefix's branch and count no node, and the search never goes back to
    them; the cutoff level reports live nodes as prefix rows; a probe takes
    one random branch per level and stops at the first dead end or solution.

    Returns ``(pc, n_out)``: ``pc`` is ``_PC_DONE`` (exhausted), ``_PC_X5``
    (``stop_nodes`` reached and one more node needed), ``_PC_X8`` (``batch``
    rows written to ``out``) or ``_PC_X2`` (a descent reached its node);
    ``batch == 0`` only counts solutions.
    """
    n_items = len(size)
    pc = state[0]
    level = state[1]
    nodes = state[2]
    solutions = state[3]
    n_pa = state[4]
    n_act = state[5]
    path_len = state[6]
    cutoff = state[7]
    probing = state[12] != 0
    n_out = 0
    while True:
        if pc == 0:
            # X2 [Enter level l]: no active primary item left -> visit x_0 .. x_{l-1}
            if level == path_len and state[10] != 0:
                state[10] = 0  # descend: the prefix's node is reached
                break
            if level < path_len and n_pa == 0:
                state[11] = 1  # the prefix goes on below a solution
                pc = 4
                break
            if n_pa == 0 or level == cutoff:
                prefix = n_pa != 0  # a live node at the cutoff: reported, not searched
                if prefix:
                    state[8] += 1
                else:
                    solutions += 1
                if batch > 0:
                    out_len[n_out] = _write_row(x, level, prefix, out, n_out)
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
                    _save(level, size, active, saved_size, saved_active, n_pa, n_act)
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
                    _save(level, size, active, saved_size, saved_active, n_pa, n_act)
            else:
                # M4, bound staying above 0: i stays active and its options are tweaked; the
                # level has theta branches (its options in turn, then maybe the null move)
                bound[i] -= 1
                level_kind[level] = _K_TWEAK
                level_end[level] = best
            pc = 1
        elif pc == 1:
            chosen = level < path_len or probing  # one branch taken, not all
            if not mult or level_kind[level] != _K_TWEAK:
                # X5 [Try x_l]: past the end of i's list -> X7
                if level_pos[level] >= level_end[level]:
                    # X7 [Backtrack]: nothing to uncover, the parent level restores its state
                    pc = 2
                    continue
                i = level_item[level]
                if chosen and not _pick_cover_branch(level, i, path, u, deg, path_len, mult, level_kind,
                                                     level_pos, level_end, opt_of, start, cells, state):
                    state[11] = 1
                    pc = 4
                    break
                if mult and level_kind[level] == _K_COVER_NULL and level_pos[level] == level_end[level] - 1:
                    x[level] = -1  # M5: the null move
                    level += 1
                    pc = 0
                    continue
                if level >= path_len:
                    if nodes >= stop_nodes and not probing:
                        break
                    nodes += 1
                k = cells[start[i] + level_pos[level]]
                o = opt_of[k]
                x[level] = o
                if mult:
                    alive, n_pa, n_act = _use_option_m(o, i, indptr, indices, opt_of, start, size, cells,
                                                       where, active, apos, bound, slack, n_primary,
                                                       n_pa, n_act, colours, clr)
                else:
                    # cover the other items j of option x_l: deactivate them all (with colours:
                    # those still active), then hide their options (x_l itself left their lists
                    # in X4); a coloured entry keeps the options that agree with it
                    old_act = n_act
                    for q in range(indptr[o], indptr[o + 1]):
                        if q != k and (not colours or apos[indices[q]] < n_act):
                            n_pa, n_act = _deactivate(indices[q], active, apos, n_primary, n_pa, n_act)
                    alive = True
                    for q in range(indptr[o], indptr[o + 1]):
                        if q == k:
                            continue
                        colour = np.uint32(0)
                        if colours:
                            a = apos[indices[q]]
                            if a < n_act or a >= old_act:
                                continue  # inactive before this step: already purified
                            colour = clr[q]
                        if not _hide_other(indices[q], colour, clr, indptr, indices, opt_of, start, size, cells,
                                           where, apos, n_primary, old_act, n_act):
                            alive = False
                            break
            else:
                # M5 [Possibly tweak x_l]: i keeps bound[i] >= 1 and its list holds the
                # options not yet tried; too few of them for its lower bound -> M8
                i = level_item[level]
                if chosen:
                    # one branch: tweak away the options before it (as the branches before it
                    # would have), then take it
                    want = path[level] if level < path_len else -2  # -2: a probe
                    r = 0
                    bad = False
                    if want == -2:
                        r = np.int32(u[level] * np.float64(level_end[level]))
                        if r >= level_end[level]:
                            r = level_end[level] - 1
                        deg[level] = np.float64(level_end[level])
                        state[9] = level + 1
                    while True:
                        li = np.int64(size[i])
                        if li <= np.int64(bound[i]) - np.int64(slack[i]):
                            bad = True  # the level ends before the branch named
                            break
                        if li == 0:
                            bad = want >= 0  # only the null move is left
                            break
                        o = _least_option(i, opt_of, start, size, cells)
                        if want == -2:
                            if r == 0:
                                break
                            r -= 1
                        elif want >= 0:
                            if o == want:
                                break
                            if o > want:
                                bad = True
                                break
                        _tweak(o, indptr, indices, start, size, cells, where, apos, n_act)
                        level_pos[level] += 1
                    if bad:
                        state[11] = 1
                        pc = 4
                        break
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
                if level >= path_len:
                    if nodes >= stop_nodes and not probing:
                        break
                    nodes += 1
                # x_l: the least option id left in i's list (Knuth's list order)
                o = _least_option(i, opt_of, start, size, cells)
                x[level] = o
                _tweak(o, indptr, indices, start, size, cells, where, apos, n_act)
                _save(level, size, active, saved_size, saved_active, n_pa, n_act)
                alive, n_pa, n_act = _use_option_m(o, i, indptr, indices, opt_of, start, size, cells,
                                                   where, active, apos, bound, slack, n_primary, n_pa, n_act,
                                                   colours, clr)
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
            # X6 [Try again]: restore the state saved after X4 and take the next option;
            # a level above the prefix, or any level of a probe, tries no other branch
            if level < path_len or probing:
                pc = 4
                break
            if mult:
                o = x[level]
                i = level_item[level]
                if o >= 0:
                    _unuse_option_m(o, i, indptr, indices, bound, colours, clr)  # M7
                if level_kind[level] == _K_TWEAK:
                    if o < 0:  # the null move was the last branch: M8 [Restore i]
                        bound[i] += 1
                        pc = 2
                        continue
                    level_pos[level] += 1
                    n_pa, n_act = _restore(level, size, active, saved_size, saved_active)
                    pc = 1
                    continue
            level_pos[level] += 1
            if level_pos[level] < level_end[level]:
                n_pa, n_act = _restore(level, size, active, saved_size, saved_active)
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
