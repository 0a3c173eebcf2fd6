"""The decision diagram of every exact cover of an instance, and what can be read from it without listing.

A :class:`Diagram` is what the ``zdd`` backend builds (:mod:`.zdd`, DXZ):
a zero-suppressed decision diagram [1]_ over the options of an instance.
Node ``n`` is ``(var, lo, hi)``: the family ``F(lo)`` together with
``{var} + S`` for every ``S`` in ``F(hi)``; node 0 is the empty family,
node 1 the family holding only the empty set. Nodes are created children
first, so ids increase from the leaves up. Every path from the root to
node 1 is one exact cover (its ``hi`` edges' options), and two paths are two
different covers, so counts add. From it, in one pass each:

- the number of covers below each node, hence the exact count
  (:meth:`Diagram.count`, uint64 in C, Python integers where that overflows);
- uniform random covers (:meth:`Diagram.sample`): a uniform integer below
  the count, unranked down the diagram [2]_;
- the number of covers holding each option (:meth:`Diagram.frequencies`),
  from the paths reaching each node;
- with leaf classes, the covers grouped by the optional items they use
  (:meth:`Diagram.by_optional_items`, the subset analysis).

The passes run in the C extension ``_zdd`` when it is built (:data:`KERNEL`).

References
----------
.. [1] S. Minato, "Zero-suppressed BDDs for set manipulation in
   combinatorial problems", *DAC '93* (1993).
.. [2] D. E. Knuth, *The Art of Computer Programming*, Vol. 4A, 7.1.4
   (counting and uniformly random solutions of a BDD or ZDD).
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterator

import numpy as np

from ..errors import InputError

__all__ = ["Diagram", "item_bounds", "KERNEL"]


def _pick_kernel() -> str:
    """``"c"`` when the extension is built (``UBONGO_CP_ZDD=python`` forces the pure-Python code)."""
    if os.environ.get("UBONGO_CP_ZDD", "").strip().lower() == "python":
        return "python"
    try:
        from . import _zdd  # noqa: F401
    except ImportError:
        return "python"
    return "c"


#: ``"c"`` when the C extension ``_zdd`` (compiled at install) builds and
#: reads the diagrams, ``"python"`` where it is not built (the pure-Python
#: builder ``_zdd_python``: the same diagrams, far slower).
#: ``UBONGO_CP_ZDD=python`` forces the pure-Python code.
KERNEL = _pick_kernel()


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
    fixed: tuple = ()
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

    def by_optional_items(self) -> dict:
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


def item_bounds(instance) -> tuple[np.ndarray, np.ndarray]:
    """:func:`ubongo_cp.solvers.base.item_bounds` as arrays (int64, shape (n_items,)), for the builders."""
    from .base import item_bounds as bounds

    lo, hi = bounds(instance)
    return np.asarray(lo, dtype=np.int64), np.asarray(hi, dtype=np.int64)


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
