"""The ``zdd`` backend: a decision diagram of every exact cover, for counts, samples and frequencies.

DXZ [1]_ runs Algorithm X [2]_ with a *memo*: the solutions below a search
state depend only on the items still uncovered (and, for a piece type with
copies, how many copies are left), so each state is solved once and every
later visit reuses its answer. The answers are nodes of a zero-suppressed
decision diagram [3]_: the family of all exact covers, held in a graph far
smaller than the list of covers (the 258,584,046,368 domino tilings of the
10x10 square are 13,552 nodes). From the diagram, without listing solutions:

- the exact count, in arbitrary precision (:meth:`Diagram.count`);
- the count up to the region's symmetries (:func:`count_up_to_symmetry`):
  Burnside's lemma [4]_, ``(1/|G|) x sum over g in G of fix(g)``, where
  ``fix(g)``, the solutions that ``g`` maps onto themselves, is counted by a
  second, small diagram: a solution fixed by ``g`` is a union of whole
  cycles of ``g`` on the placements, so its options are those cycles (the
  cycles whose placements do not overlap), each covering its cells and
  using as many copies of each piece type as it holds placements of it;
- uniform random solutions (:meth:`Diagram.sample`): one uniform random
  integer below the count, unranked down the diagram, so every solution is
  equally likely and a seed reproduces the draw;
- completions of a partial board (``fixed`` options of :func:`build_diagram`):
  the items the fixed placements cover are taken out before the search;
- the number of solutions holding each placement (:meth:`Diagram.frequencies`):
  a placement in every solution is forced, one in none impossible.

The diagram
-----------
Node ``n`` is ``(var, lo, hi)``: the family ``F(lo)`` together with
``{var} + S`` for every ``S`` in ``F(hi)``; node 0 is the empty family,
node 1 the family holding only the empty set. Nodes are created children
first, so ids increase from the leaves up. A search state's node chains the
options of its branching item: each link's ``hi`` is the state after that
option, its ``lo`` the link of the options before. Two paths to node 1 take
different options for some item, so their solutions differ and counts add.
Nodes equal as triples are shared (a unique table).

The search (C extension ``_zdd``, or the pure-Python builder of this
module where the extension is not built; :data:`KERNEL`) branches only on
items of multiplicity ``[1..1]`` (the region's cells; a piece type with one
copy), the one with the fewest options left first. A piece type with ``k``
copies is one counter ``[k..k]`` (``[0..k]`` with optional pieces), lowered
by each placement of the type, so a solution, a set of placements, is met
once whatever the copies. The diagram needs ``[k..k]`` or ``[0..k]`` bounds
and at least one ``[1..1]`` item in every option (true of every
:class:`~ubongo_cp.cover.ExactCoverInstance` and every
:class:`~ubongo_cp.exactcover.ExactCoverMatrix`).

Memory
------
The memo and the nodes grow with the number of distinct states, which may
be far beyond a machine's memory. The build is bounded (``memory_limit``,
bytes; default :func:`default_memory_limit`: half of the memory available
when it starts) and stops with :class:`DiagramTooLarge` when the bound would
be crossed; the ``auto`` strategy then counts with the search kernel. The
figures are in the result's stats (``diagram_nodes``, ``diagram_peak_mb``:
the builder's own peak, and ``peak_rss_mb``: the process's).

References
----------
.. [1] M. Nishino, N. Yasuda, S. Minato and M. Nagata, "Dancing with
   Decision Diagrams: A Combined Approach to Exact Cover", *AAAI-17*
   (2017), pp. 868-874: DXZ, Algorithm X with a memo that builds a ZDD.
.. [2] D. E. Knuth, *The Art of Computer Programming*, Vol. 4B, 7.2.2.1,
   Algorithms X and M; "Dancing Links", arXiv:cs/0011047 (2000).
.. [3] S. Minato, "Zero-suppressed BDDs for set manipulation in
   combinatorial problems", *DAC '93* (1993); D. E. Knuth, *TAOCP*
   Vol. 4A, 7.1.4 (ZDDs: counting and uniform random solutions).
.. [4] W. Burnside, *Theory of Groups of Finite Order* (1897): orbit counting.
"""

from __future__ import annotations

import os
import random
import resource
import sys
import time
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterator, Sequence

import numpy as np

from ..errors import InputError, UbongoError

__all__ = ["Diagram", "DiagramTooLarge", "build_diagram", "count_up_to_symmetry", "fixed_point_counts",
           "subset_counts", "item_bounds",
           "default_memory_limit", "DiagramBackend", "AutoBackend", "KERNEL", "TRIAL_STEPS", "TRIAL_SAVING"]


def _pick_kernel() -> str:
    """``"c"`` when the extension is built (``UBONGO_CP_ZDD=python`` forces the pure-Python builder)."""
    if os.environ.get("UBONGO_CP_ZDD", "").strip().lower() == "python":
        return "python"
    try:
        from . import _zdd  # noqa: F401
    except ImportError:
        return "python"
    return "c"


#: The builder in use: ``"c"`` (the extension ``_zdd``, compiled at install)
#: or ``"python"`` (this module's builder: the same diagram, far slower).
KERNEL = _pick_kernel()

#: The ``auto`` strategy's trial (:class:`AutoBackend`): search steps of the
#: diagram builder before the rule looks at the memo's saving.
TRIAL_STEPS = 8192

#: The ``auto`` strategy keeps the diagram when, after :data:`TRIAL_STEPS`
#: steps, the memo has saved at least this factor: (steps Algorithm X would
#: have taken) / (steps taken). Measured (``benchmarks/bench_zdd.py``): a
#: diagram step costs about 1.4 kernel nodes; pentomino rectangles sit at
#: 1.1-1.8 after the trial and end near 1.5, domino and tromino rectangles
#: are above 3 and climb to hundreds.
TRIAL_SAVING = 3.0

_ST_DONE, _ST_TIME, _ST_MEMORY, _ST_BUDGET = 0, 1, 2, 4


class DiagramTooLarge(UbongoError):
    """The diagram would outgrow the memory limit.

    Attributes
    ----------
    limit : int
        The bound, in bytes.
    stats : dict
        The builder's figures when it stopped.
    """

    def __init__(self, limit: int, stats: dict) -> None:
        self.limit = limit
        self.stats = stats
        super().__init__(f"the decision diagram reached the memory limit ({limit / 2**20:.0f} MiB) after "
                         f"{stats.get('diagram_states', 0):,} states")


def default_memory_limit() -> int:
    """Half of the memory available now (``MemAvailable`` of ``/proc/meminfo``), in bytes.

    Where that is not readable, half of the physical memory (``os.sysconf``);
    where neither is known, 4 GiB.
    """
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024 // 2
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (ValueError, OSError, AttributeError):
        return 4 * 2**30


def peak_rss_mb() -> float:
    """The process's peak resident set so far, in MiB (``getrusage``)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (2**20 if sys.platform == "darwin" else 2**10), 1)


# ------------------------------------------------------------------ the diagram
@dataclass(eq=False)
class Diagram:
    """The family of exact covers of one instance (see the module docstring).

    Attributes
    ----------
    instance : ExactCoverInstance or ExactCoverMatrix
        The instance whose covers these are.
    var, lo, hi : numpy.ndarray of uint32, shape (n_nodes,)
        The nodes; 0 and 1 are the terminals.
    root : int
        The node of all covers.
    fixed : tuple of int
        Options in every cover (the fixed placements; not in the nodes).
    option_ids : numpy.ndarray of int64 or None
        Option of ``instance`` of each variable, when the diagram was built
        on a restriction of it (the orbit decomposition); None: the identity.
    weight : numpy.ndarray of uint64 or None
        Solutions of ``instance`` each variable stands for (its orbit's size
        for a representative, else 1) when :meth:`count` is weighted.
    stats : dict
        The build's figures (``diagram_nodes``, ``diagram_states``,
        ``diagram_steps``, ``diagram_hits``, ``diagram_peak_mb``, ``build_seconds``).
    leaf_keys : bytes or None
        With leaf classes (``build_diagram(..., classes=True)``): the
        solution state of each class (:meth:`by_optional_items`).
    """

    instance: Any
    var: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    root: int
    fixed: tuple[int, ...] = ()
    option_ids: np.ndarray | None = None
    weight: np.ndarray | None = None
    stats: dict = field(default_factory=dict)
    leaf_keys: bytes | None = field(default=None, repr=False)

    @property
    def n_nodes(self) -> int:
        """Nodes, the two terminals included."""
        return len(self.var)

    def count(self) -> int:
        """The number of covers (weighted by :attr:`weight` when set); a Python int, never overflowing."""
        counts = self._weighted_counts if self.weight is not None else self._counts
        return int(counts[self.root])

    @cached_property
    def _counts(self):
        """Covers below each node: uint64 array, or a list of Python ints where uint64 overflows."""
        return _node_counts(self.var, self.lo, self.hi, None)

    @cached_property
    def _weighted_counts(self):
        return _node_counts(self.var, self.lo, self.hi, self.weight)

    @cached_property
    def _lists(self) -> tuple[list, list, list, list]:
        counts = self._counts
        return (self.var.tolist(), self.lo.tolist(), self.hi.tolist(),
                counts.tolist() if isinstance(counts, np.ndarray) else counts)

    def _to_instance(self, chosen: list[int]) -> list[int]:
        """Variables of one path as sorted option ids of the instance, the fixed ones included."""
        n_vars = self.instance.n_options if self.option_ids is None else len(self.option_ids)
        chosen = [v for v in chosen if v < n_vars]  # a leaf class (:func:`subset_counts`) is no option
        if self.option_ids is not None:
            chosen = self.option_ids[chosen].tolist() if chosen else []
        return sorted([*chosen, *self.fixed])

    def solution(self, rank: int) -> list[int]:
        """The cover of the given rank (0 <= rank < unweighted count), as sorted option ids.

        Ranks follow the diagram: the covers of a node's ``lo`` before those of its ``hi``.

        Raises
        ------
        IndexError
            For a rank outside the range.
        """
        var, lo, hi, counts = self._lists
        if not 0 <= rank < counts[self.root]:
            raise IndexError(f"rank {rank} is outside 0..{counts[self.root] - 1}")
        node, chosen = self.root, []
        while node > 1:
            low = lo[node]
            if rank < counts[low]:
                node = low
            else:
                rank -= counts[low]
                chosen.append(var[node])
                node = hi[node]
        return self._to_instance(chosen)

    def solutions(self) -> Iterator[list[int]]:
        """Every cover once, in rank order, as sorted option ids (lazily, depth first)."""
        var, lo, hi, _ = self._lists
        stack: list[tuple[int, tuple[int, ...]]] = [(self.root, ())]
        while stack:
            node, chosen = stack.pop()
            if node == 1:
                yield self._to_instance(list(chosen))
            elif node > 1:
                stack.append((hi[node], chosen + (var[node],)))
                stack.append((lo[node], chosen))

    def sample(self, n: int, seed: int | None = None) -> list[list[int]]:
        """``n`` covers drawn uniformly at random, independently (with replacement).

        Parameters
        ----------
        n : int
            How many (at least 0).
        seed : int, optional
            Seed of :class:`random.Random`: the same seed gives the same covers.

        Returns
        -------
        list of list of int
            Sorted option ids of each cover (empty when there is no cover).

        Notes
        -----
        Each draw is a uniform integer ``r`` below the count
        (:meth:`random.Random.randrange`, exact for any size), unranked by
        :meth:`solution`: every cover has probability exactly ``1/count``.
        """
        if n < 0:
            raise InputError(f"the number of samples must be at least 0, got {n}")
        total = int(self._lists[3][self.root])
        if total == 0:
            return []
        rng = random.Random(seed)
        return [self.solution(rng.randrange(total)) for _ in range(n)]

    def by_optional_items(self) -> dict[tuple[int, ...], int]:
        """Covers grouped by the optional items they use (a diagram built with ``classes=True``).

        Returns
        -------
        dict
            ``{optional items used (sorted item ids): covers}``; the paths
            from the root to each leaf class's terminal, nothing listed.

        Raises
        ------
        ValueError
            For a diagram built without leaf classes.
        """
        if self.leaf_keys is None:
            raise ValueError("the diagram has no leaf classes: build_diagram(..., classes=True)")
        n_vars = int(self.instance.n_options)
        nodes = 2 + np.flatnonzero(self.var[2:] >= n_vars)  # past the two terminals
        if not len(nodes):
            return {}
        words = np.frombuffer(self.leaf_keys, dtype=np.uint64).reshape(len(nodes), -1)
        lo, hi = item_bounds(self.instance)
        bit_items = np.flatnonzero(hi == 1).tolist()
        optional = [(k, i) for k, i in enumerate(bit_items) if lo[i] == 0]
        paths = _paths(self)
        out: dict[tuple[int, ...], int] = {}
        for node in nodes.tolist():
            key = words[int(self.var[node]) - n_vars]
            used = tuple(i for k, i in optional if not (int(key[k // 64]) >> (k % 64)) & 1)
            out[used] = out.get(used, 0) + int(paths[node])
        return out

    def frequencies(self) -> np.ndarray:
        """How many covers hold each option of the instance, shape (n_options,).

        int64 when every figure fits, else an object array of Python ints. A
        placement with the full count is *forced*; one with 0 is *impossible*.

        Raises
        ------
        ValueError
            For a diagram of a restriction of its instance (the orbit decomposition).

        Notes
        -----
        One pass down the diagram: ``paths(n)``, the paths from the root to
        ``n``, then ``freq(var(n)) += paths(n) x count(hi(n))`` over the nodes.
        """
        if self.option_ids is not None:
            raise ValueError("frequencies need the diagram of the whole instance")
        n_options = int(self.instance.n_options)
        counts = self._counts
        freq = None
        if isinstance(counts, np.ndarray) and KERNEL == "c":
            from . import _zdd

            paths = np.zeros(self.n_nodes, dtype=np.uint64)
            out = np.zeros(n_options, dtype=np.uint64)
            if not _zdd.frequencies(self.var, self.lo, self.hi, counts, self.root, paths, out):
                freq = out.astype(np.int64) if int(out.max(initial=0)) < 2**63 else out.astype(object)
        if freq is None:
            freq = np.zeros(n_options, dtype=object)
            var, lo, hi, cnt = self._lists
            reach = [0] * self.n_nodes
            reach[self.root] = 1
            for k in range(self.root, 1, -1):
                p = reach[k]
                if p:
                    reach[lo[k]] += p
                    reach[hi[k]] += p
                    if var[k] < n_options:
                        freq[var[k]] += p * cnt[hi[k]]
            if max(freq.tolist(), default=0) < 2**63:
                freq = freq.astype(np.int64)
        if self.fixed:
            freq[list(self.fixed)] = self.count()
        return freq


def _node_counts(var, lo, hi, weight):
    """Covers below each node (uint64 array; a list of Python ints when uint64 overflows)."""
    if KERNEL == "c":
        from . import _zdd

        out = np.empty(len(lo), dtype=np.uint64)
        w = np.zeros(0, dtype=np.uint64) if weight is None else np.ascontiguousarray(weight, dtype=np.uint64)
        if not _zdd.counts(var, lo, hi, w, out):
            return out
    counts = [0, 1]
    ws = None if weight is None else [int(x) for x in weight]
    for v, low, high in zip(var[2:].tolist(), lo[2:].tolist(), hi[2:].tolist()):
        counts.append(counts[low] + (counts[high] if ws is None else ws[v] * counts[high]))
    return counts


# --------------------------------------------------------------------- building
def item_bounds(instance) -> tuple[np.ndarray, np.ndarray]:
    """``(lo, hi)`` of each item (int64, shape (n_items,)): the instance's multiplicities.

    An :class:`~ubongo_cp.exactcover.ExactCoverMatrix` has none: ``[1..1]``
    for its primary items, ``[0..1]`` for the secondary ones.
    """
    m = instance.multiplicity
    if m is None:
        lo = np.zeros(instance.n_items, dtype=np.int64)
        lo[:instance.n_primary] = 1
        return lo, np.ones(instance.n_items, dtype=np.int64)
    m = np.asarray(m, dtype=np.int64)
    return m[:, 0].copy(), m[:, 1].copy()


def build_diagram(instance, *, fixed: Sequence[int] = (), time_limit: float | None = None,
                  memory_limit: int | None = None, restrict=None, csr=None, classes: bool = False) -> Diagram | None:
    """The decision diagram of every exact cover of ``instance`` (DXZ).

    Parameters
    ----------
    instance : ExactCoverInstance or ExactCoverMatrix
        The instance.
    fixed : sequence of int
        Option ids that every cover must hold (a partial board): the
        diagram is that of their completions. They must not overlap
        (:meth:`~ubongo_cp.cover.ExactCoverInstance.fix` checks placements).
    time_limit : float, optional
        Seconds; None when the build does not finish in time.
    memory_limit : int, optional
        Bytes (default :func:`default_memory_limit`).
    restrict : Decomposition, optional
        Build on the orbit decomposition's restricted instance
        (:mod:`.orbits`), weighting each representative by its orbit's size:
        :meth:`Diagram.count` is then the count of the whole instance.
    csr : tuple, optional
        ``(indptr, indices, weights, lo, hi)`` of a derived instance to build
        instead (:func:`fixed_point_counts`); the diagram's variables are its options.
    classes : bool
        One terminal per distinct solution state (the optional items left):
        :meth:`Diagram.by_optional_items` counts the covers by the items they use.

    Returns
    -------
    Diagram or None
        None when the time limit cut the build.

    Raises
    ------
    DiagramTooLarge
        When the diagram would outgrow ``memory_limit``.
    InputError
        For fixed options that overlap, or an instance the diagram cannot
        take (bounds other than ``[k..k]``/``[0..k]``, an option without a
        ``[1..1]`` item).
    """
    start = time.perf_counter()
    builder = _builder(instance, fixed=fixed, restrict=restrict, csr=csr, classes=classes)
    if builder is None:  # the fixed options take an item beyond its bound: no completion
        return _empty(instance, fixed, start)
    limit = default_memory_limit() if memory_limit is None else int(memory_limit)
    status = _run(builder, time_limit, limit, 0)
    if status == _ST_TIME:
        return None
    return _finish(instance, builder, status, limit, fixed, restrict, start, classes)


def _builder(instance, *, fixed=(), restrict=None, csr=None, classes: bool = False):
    """A builder (C or Python) of the instance, or None when the fixed options conflict."""
    if csr is not None:
        indptr, indices, weights, lo, hi = csr
    else:
        target = instance if restrict is None else restrict.restricted
        indptr, indices = target.indptr, target.indices
        weights = np.ones(len(indices), dtype=np.uint32)
        lo, hi = item_bounds(target)
        for o in fixed:
            items = instance.option_items(int(o))
            hi[items] -= 1
            lo[items] = np.maximum(lo[items] - 1, 0)
        if (hi < 0).any():
            return None
    args = (np.ascontiguousarray(indptr, dtype=np.uint32), np.ascontiguousarray(indices, dtype=np.uint32),
            np.ascontiguousarray(weights, dtype=np.uint32), np.ascontiguousarray(lo, dtype=np.int32),
            np.ascontiguousarray(hi, dtype=np.int32))
    bad = np.flatnonzero((args[3] != 0) & (args[3] != args[4]))
    if len(bad):
        i = int(bad[0])
        raise InputError(f"item {i} has bounds [{args[3][i]}..{args[4][i]}]; the decision diagram takes [k..k] "
                         f"or [0..k]")
    if KERNEL == "c":
        from ._zdd import Builder
    else:
        Builder = _PyBuilder
    builder = Builder(*args, classes)
    if builder.bad >= 0:
        raise InputError(f"option {builder.bad} covers no item of multiplicity [1..1]; the decision diagram "
                         f"branches on those")
    return builder


def _run(builder, time_limit: float | None, limit: int, budget: int) -> int:
    return int(builder.build(-1.0 if time_limit is None else max(float(time_limit), 0.0), limit, True, budget))


def _finish(instance, builder, status: int, limit: int, fixed, restrict, start: float,
            classes: bool = False) -> Diagram:
    """The Diagram of a finished build (DiagramTooLarge when it stopped on memory)."""
    stats = {"diagram_nodes": int(builder.n_nodes), "diagram_states": int(builder.states),
             "diagram_steps": int(builder.steps), "diagram_hits": int(builder.hits),
             "diagram_peak_mb": round(builder.peak_bytes / 2**20, 2)}
    if status == _ST_MEMORY:
        raise DiagramTooLarge(limit, stats)
    n = int(builder.n_nodes)
    var, lo, hi = (np.empty(n, dtype=np.uint32) for _ in range(3))
    builder.nodes(var, lo, hi)
    stats["build_seconds"] = round(time.perf_counter() - start, 6)
    option_ids = weight = None
    if restrict is not None:
        option_ids = restrict._original
        weight = restrict.plan.weight[option_ids].astype(np.uint64)
        weight[weight == 0] = 1
    keys = builder.leaf_keys() if classes else None
    return Diagram(instance, var, lo, hi, int(builder.root), tuple(sorted(int(o) for o in fixed)), option_ids,
                   weight, stats, keys)


def _empty(instance, fixed, start: float) -> Diagram:
    z = np.zeros(2, dtype=np.uint32)
    return Diagram(instance, np.full(2, 2**32 - 1, dtype=np.uint32), z.copy(), z.copy(), 0,
                   tuple(sorted(int(o) for o in fixed)),
                   stats={"diagram_nodes": 2, "diagram_states": 0, "diagram_steps": 0, "diagram_hits": 0,
                          "diagram_peak_mb": 0.0, "build_seconds": round(time.perf_counter() - start, 6)})


# --------------------------------------------------------------------- symmetry
def _cycle_csr(instance, perm: np.ndarray):
    """The instance whose options are the cycles of ``perm`` on the options (see the module docstring)."""
    n_options = instance.n_options
    seen = np.zeros(n_options, dtype=bool)
    indptr, indices, weights = [0], [], []
    for o in range(n_options):
        if seen[o]:
            continue
        cycle = []
        p = o
        while not seen[p]:
            seen[p] = True
            cycle.append(p)
            p = int(perm[p])
        if p != o:  # perm is a permutation: a cycle closes where it started
            raise ValueError("option_perms entry is not a permutation")
        uses: dict[int, int] = {}
        for q in cycle:
            for i in instance.option_items(q).tolist():
                uses[i] = uses.get(i, 0) + 1
        if any(k > 1 for i, k in uses.items() if i < instance.n_cells):
            continue  # two of its placements overlap: never part of a cover
        items = sorted(uses)
        indices += items
        weights += [uses[i] for i in items]
        indptr.append(len(indices))
    lo, hi = item_bounds(instance)
    return (np.asarray(indptr, dtype=np.uint32), np.asarray(indices, dtype=np.uint32),
            np.asarray(weights, dtype=np.uint32), lo, hi)


def fixed_point_counts(instance, *, time_limit: float | None = None,
                       memory_limit: int | None = None) -> list[int] | None:
    """For each non-identity symmetry of the instance, the covers it maps onto themselves.

    In the order of :attr:`~ubongo_cp.cover.ExactCoverInstance.option_perms`;
    each is the count of the diagram of the instance whose options are the
    symmetry's cycles on the placements (the module docstring). None when
    the time limit cut a build.
    """
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    out = []
    for perm in instance.option_perms:
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left <= 0:
            return None
        diagram = build_diagram(instance, csr=_cycle_csr(instance, np.asarray(perm)), time_limit=left,
                                memory_limit=memory_limit)
        if diagram is None:
            return None
        out.append(diagram.count())
    return out


def count_up_to_symmetry(instance, count: int, *, time_limit: float | None = None,
                         memory_limit: int | None = None) -> int | None:
    """The covers up to the region's symmetries (UP-5), exact, by Burnside's lemma.

    Parameters
    ----------
    instance : ExactCoverInstance
        The instance (its :attr:`~ubongo_cp.cover.ExactCoverInstance.option_perms`).
    count : int
        Its number of covers (the identity's fixed points).

    Returns
    -------
    int or None
        ``(count + sum of fixed_point_counts) / |G|``; None when the time limit cut it.

    Examples
    --------
    >>> from ubongo_cp.pieces import load_pieces, Region
    >>> from ubongo_cp.cover import build_instance
    >>> inst = build_instance(load_pieces("pentominoes").pieces, Region.rectangle(3, 20))
    >>> count_up_to_symmetry(inst, build_diagram(inst).count())
    2
    """
    perms = getattr(instance, "option_perms", ())
    if not len(perms):
        return count
    fixed = fixed_point_counts(instance, time_limit=time_limit, memory_limit=memory_limit)
    if fixed is None:
        return None
    total = count + sum(fixed)
    order = len(perms) + 1
    if total % order:
        raise ArithmeticError(f"Burnside sum {total} is not a multiple of the group order {order}")
    return total // order


def subset_counts(instance, *, time_limit: float | None = None,
                  memory_limit: int | None = None) -> dict[tuple[int, ...], int] | None:
    """The covers grouped by the optional items they use, counted on one diagram (the subset analysis).

    Built with one terminal per distinct solution state (the optional items
    left), so the paths from the root to each terminal count the covers
    that use exactly those items (:meth:`Diagram.by_optional_items`);
    nothing is listed.

    Parameters
    ----------
    instance : ExactCoverInstance or ExactCoverMatrix
        With optional items (``optional_pieces``: piece types ``[0..1]``).
    time_limit, memory_limit
        As in :func:`build_diagram`.

    Returns
    -------
    dict or None
        ``{optional items used (sorted item ids): covers}``; None when the
        time limit cut the build.

    Raises
    ------
    DiagramTooLarge
        Past the memory limit.

    Examples
    --------
    >>> from ubongo_cp.pieces import Piece, Region
    >>> from ubongo_cp.cover import build_instance
    >>> d, l3 = Piece("D", ((0, 0), (0, 1))), Piece("L", ((0, 0), (1, 0), (1, 1)))
    >>> mono = Piece("M", ((0, 0),))
    >>> inst = build_instance([d, l3, mono], Region.rectangle(2, 2), optional_pieces=True)
    >>> subset_counts(inst)  # items 4, 5, 6: D, L, M; L and M tile 2x2 four ways, D alone cannot
    {(5, 6): 4}
    """
    diagram = build_diagram(instance, time_limit=time_limit, memory_limit=memory_limit, classes=True)
    return None if diagram is None else diagram.by_optional_items()


def _paths(diagram: Diagram):
    """Paths from the root to each node (uint64 array, or Python ints where it overflows)."""
    counts = diagram._counts
    if isinstance(counts, np.ndarray) and KERNEL == "c":
        from . import _zdd

        paths = np.zeros(diagram.n_nodes, dtype=np.uint64)
        if not _zdd.frequencies(diagram.var, diagram.lo, diagram.hi, counts, diagram.root, paths,
                                np.zeros(0, dtype=np.uint64)):
            return paths
    lo, hi = diagram.lo.tolist(), diagram.hi.tolist()
    reach = [0] * diagram.n_nodes
    reach[diagram.root] = 1
    for k in range(diagram.root, 1, -1):
        if reach[k]:
            reach[lo[k]] += reach[k]
            reach[hi[k]] += reach[k]
    return reach


# ---------------------------------------------------------------------- backends
@dataclass
class DiagramBackend:
    """The ``zdd`` backend: builds the diagram; the driver counts, samples and summarises from it.

    ``run`` (the :class:`~ubongo_cp.solvers.base.Backend` protocol) hands on
    every cover from the diagram, for callers that want each one;
    :func:`~ubongo_cp.solvers.base.drive` asks :meth:`diagram` instead when
    it needs only the count, samples, completions or frequencies.

    Attributes
    ----------
    name : str
        ``"zdd"``.
    memory_limit : int, optional
        Bytes (default :func:`default_memory_limit`).
    """

    name: str = "zdd"
    memory_limit: int | None = None

    def diagram(self, instance, *, time_limit=None, fixed=(), restrict=None, classes=False) -> Diagram | None:
        """The diagram (:func:`build_diagram`); None on time-out; DiagramTooLarge past the memory limit."""
        return build_diagram(instance, fixed=fixed, time_limit=time_limit, memory_limit=self.memory_limit,
                             restrict=restrict, classes=classes)

    def run(self, instance, on_solution, *, time_limit=None, first_only=False):
        """Build the diagram, then hand on its covers; see the class docstring."""
        start = time.perf_counter()
        try:
            diagram = self.diagram(instance, time_limit=time_limit)
        except DiagramTooLarge as exc:
            return False, {**exc.stats, "memory_limited": True, "engine": "zdd"}
        if diagram is None:
            return False, {"timed_out": True, "engine": "zdd"}
        stats = {"engine": "zdd", **diagram.stats}
        deadline = None if time_limit is None else start + float(time_limit)
        for k, options in enumerate(diagram.solutions()):
            if not on_solution(options):
                return False, stats
            if deadline is not None and k % 1024 == 1023 and time.perf_counter() > deadline:
                return False, {**stats, "timed_out": True}
        return True, stats


@dataclass
class AutoBackend(DiagramBackend):
    """The default for counting: the search kernel or the diagram, by a measured rule.

    The rule (:meth:`choose`) builds the diagram for :data:`TRIAL_STEPS`
    search steps and looks at the memo's saving so far, ``(steps + steps
    Algorithm X would have spent below the states found in the memo) /
    steps``. When the build finished, or the saving is at least
    :data:`TRIAL_SAVING`, the diagram goes on; else the kernel counts
    (``kernel``, a registered solver name: the orbit decomposition on
    ``dlx``). A diagram that outgrows the memory limit also hands over to
    the kernel. The rule depends on search steps only, never on the clock,
    so the same instance always takes the same road; a faster kernel needs
    only a re-measured :data:`TRIAL_SAVING`. ``stats["engine"]`` names the
    one that ran and ``stats["rule"]`` why.

    Attributes
    ----------
    name : str
        ``"auto"``.
    kernel : str
        The registered solver that counts when the diagram does not.
    trial_steps, saving : int, float
        The rule's figures (:data:`TRIAL_STEPS`, :data:`TRIAL_SAVING`).
    """

    name: str = "auto"
    kernel: str = "dlx-symmetry"
    trial_steps: int = TRIAL_STEPS
    saving: float = TRIAL_SAVING

    def choose(self, instance, *, time_limit=None, restrict=None, classes: bool = False) -> tuple[Diagram | None,
                                                                                                    dict]:
        """Run the trial; ``(diagram, notes)`` when the diagram wins (None when the kernel should count).

        A diagram that finishes during the trial, or that the rule keeps, is
        built to the end here (``None`` for it, with ``timed_out`` in the
        notes, when the time limit cut it). ``classes``: as in :func:`build_diagram`.
        """
        if KERNEL != "c":
            return None, {"rule": "no compiled diagram builder: kernel"}
        start = time.perf_counter()
        builder = _builder(instance, restrict=restrict, classes=classes)
        limit = default_memory_limit() if self.memory_limit is None else int(self.memory_limit)
        status = _run(builder, time_limit, limit, self.trial_steps)
        steps = int(builder.steps)
        saving = (steps + int(builder.work)) / max(steps, 1)
        notes: dict[str, object] = {"trial_steps": steps, "trial_saving": round(saving, 2)}
        if status == _ST_BUDGET and saving < self.saving:
            return None, {**notes, "rule": f"memo saving {saving:.2f} < {self.saving} after {steps} steps: kernel"}
        if status == _ST_BUDGET:
            left = None if time_limit is None else time_limit - (time.perf_counter() - start)
            status = _run(builder, left, limit, 0)
            notes["rule"] = f"memo saving {saving:.2f} >= {self.saving} after {steps} steps: diagram"
        else:
            notes["rule"] = f"diagram finished within the trial ({steps} steps)"
        if status == _ST_TIME:
            return None, {**notes, "timed_out": True}
        try:
            return _finish(instance, builder, status, limit, (), restrict, start, classes), notes
        except DiagramTooLarge as exc:
            return None, {**notes, "rule": f"{exc}: kernel"}

    def run(self, instance, on_solution, *, time_limit=None, first_only=False):
        """Enumerate with the kernel (the driver uses this road when it needs every solution)."""
        from .registry import get_solver

        return get_solver(self.kernel).make().run(instance, on_solution, time_limit=time_limit,
                                                  first_only=first_only)


# ----------------------------------------------------------- pure-Python builder
class _PyBuilder:
    """The DXZ builder in Python (used where the C extension is not built): the same diagram family.

    States are Python ints (a bit per item with bound 1, a field per counter),
    so it is simple and slow; the C builder's figures ``steps``/``hits``/
    ``work`` are counted the same way.
    """

    def __init__(self, indptr, indices, weights, lo, hi, classes: bool = False) -> None:
        n_items = len(lo)
        self.classes = classes
        self.class_keys: list[int] = []
        self.n_options = len(indptr) - 1
        lo, hi = lo.tolist(), hi.tolist()
        self.bad = -1
        shift, width = {}, {}
        nbits = 0
        for i in range(n_items):
            if hi[i] == 1:
                shift[i], width[i] = nbits, 1
                nbits += 1
        for i in range(n_items):
            if hi[i] > 1:
                shift[i], width[i] = nbits, hi[i].bit_length()
                nbits += width[i]
        self.nbits = nbits
        self.must_bits = sum(1 << shift[i] for i in range(n_items) if hi[i] == 1 and lo[i] == 1)
        self.must_cnt = sum(((1 << width[i]) - 1) << shift[i] for i in range(n_items) if hi[i] > 1 and lo[i] > 0)
        self.root_key = sum(hi[i] << shift[i] for i in range(n_items) if hi[i] >= 1)
        self.fields = [(shift[i], (1 << width[i]) - 1) for i in range(n_items) if hi[i] > 1]
        ptr, idx, wts = indptr.tolist(), indices.tolist(), weights.tolist()
        # (delta, [(shift, mask, w)] of counters) per option, None when never usable
        self.options: list[tuple[int, list[tuple[int, int, int]]] | None] = []
        self.lists: dict[int, list[int]] = {}
        for o in range(len(ptr) - 1):
            entries = list(zip(idx[ptr[o]:ptr[o + 1]], wts[ptr[o]:ptr[o + 1]]))
            if any(w > hi[i] for i, w in entries):  # never usable: no branching item needed
                self.options.append(None)
                continue
            if not any(hi[i] == 1 and lo[i] == 1 and w == 1 for i, w in entries) and self.bad < 0:
                self.bad = o
            delta = sum(w << shift[i] for i, w in entries)
            counters = [(shift[i], (1 << width[i]) - 1, w) for i, w in entries if hi[i] > 1]
            self.options.append((delta, counters))
            for i, _ in entries:
                if hi[i] == 1 and lo[i] == 1:
                    self.lists.setdefault(shift[i], []).append(o)
        self.nodes_ = [(2**32 - 1, 0, 0), (2**32 - 1, 1, 1)]
        self.unique: dict[tuple[int, int, int], int] = {}
        self.root = 0
        self.steps = self.hits = self.work = self.states = 0
        self.peak_bytes = 0
        self._done = False

    @property
    def n_nodes(self) -> int:
        return len(self.nodes_)

    @property
    def n_classes(self) -> int:
        return len(self.class_keys)

    def leaf_keys(self) -> bytes:
        """The leaf classes' states, laid out as the C builder's (a bit per item with bound 1 first)."""
        words = max(1, (self.nbits + 63) // 64)
        return b"".join(key.to_bytes(8 * words, "little") for key in self.class_keys)

    def _fits(self, key: int, o: int) -> bool:
        opt = self.options[o]
        if opt is None:
            return False
        delta, counters = opt
        bits = delta & ~sum(m << s for s, m, _ in counters)
        return key & bits == bits and all((key >> s) & m >= w for s, m, w in counters)

    def build(self, seconds: float, memory: int, unique: bool, budget: int) -> int:
        if self._done:
            raise RuntimeError("the diagram is built once")
        self._done = True  # the Python builder does not stop on a step budget: it always finishes
        deadline = None if seconds < 0 else time.perf_counter() + seconds
        memo: dict[int, tuple[int, int]] = {}

        def leaf(key: int) -> int | None:
            if key & self.must_bits:
                return None
            if key & self.must_cnt:
                return 0
            if not self.classes:
                return 1
            if key not in memo:  # one terminal per distinct solution state
                self.nodes_.append((self.n_options + len(self.class_keys), 0, 1))
                self.class_keys.append(key)
                memo[key] = (len(self.nodes_) - 1, 0)
            return memo[key][0]

        def node(v: int, low: int, high: int) -> int:
            if high == 0:
                return low
            t = (v, low, high)
            n = self.unique.get(t) if unique else None
            if n is None:
                n = len(self.nodes_)
                self.nodes_.append(t)
                if unique:
                    self.unique[t] = n
            return n

        class _Time(Exception):
            pass

        def solve(key: int) -> tuple[int, int]:
            best = None
            for s, opts in self.lists.items():
                if key >> s & 1:
                    live = [o for o in opts if self._fits(key, o)]
                    if best is None or len(live) < len(best[1]) or (len(live) == len(best[1]) and s < best[0]):
                        best = (s, live)
                        if not live:
                            break
            result, work = 0, 0
            for o in best[1] if best else []:
                self.steps += 1
                if deadline is not None and self.steps % 4096 == 0 and time.perf_counter() > deadline:
                    raise _Time
                opt = self.options[o]
                assert opt is not None  # _fits is False for an option that is never usable
                child = key - opt[0]
                sub, sub_work = leaf(child), 0
                if sub is None:
                    if child in memo:
                        self.hits += 1
                        sub, sub_work = memo[child]
                        self.work += sub_work
                    else:
                        sub, sub_work = solve(child)
                work += 1 + sub_work
                result = node(o, result, sub)
            memo[key] = (result, work)
            return result, work

        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 4 * len(self.lists) + 200))
        try:
            top = leaf(self.root_key)
            self.root = top if top is not None else solve(self.root_key)[0]
        except _Time:
            return _ST_TIME
        finally:
            sys.setrecursionlimit(old)
            self.states = len(memo)
        return _ST_DONE

    def nodes(self, var, lo, hi) -> None:
        for k, (v, low, high) in enumerate(self.nodes_):
            var[k], lo[k], hi[k] = v, low, high
