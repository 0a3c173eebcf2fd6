"""Polyomino enumeration by Redelmeier's algorithm: fixed and free, streamed and shardable.

Every *fixed* polyomino of ``n`` cells (one per translation class) is a node
of Redelmeier's search tree [1]_; every *free* polyomino (one per class under
the 8 symmetries of the square, rule UP-3) is emitted once, as its
*canonical* image (:func:`canonical_form`): the fixed polyominoes that are
not canonical are passed over at the leaves. Nothing is stored but the
current path of the tree, so memory stays O(n) however many polyominoes
there are: the functions here are generators.

Conventions (as in :mod:`ubongo_cp.geometry`):

- cells are ``(row, col)``, row 0 at the top; a shape is a sorted tuple of
  cells normalised to minimum row and column 0;
- the *canonical form* of a polyomino is, among its 8 images under
  :data:`~ubongo_cp.geometry.SYMMETRIES`, the one with the fewest rows (so a
  canonical region is never taller than wide) and, among those, the smallest
  sorted cell tuple;
- a *hole* is a bounded 4-connected component of empty cells (the
  convention of OEIS A000104: the 7-cell ring around an empty cell with one
  corner missing has a hole);
- *fitting a box* R x C: for free polyominoes (regions, considered up to
  symmetry) either orientation counts, i.e. ``rows <= R and cols <= C`` or
  ``rows <= C and cols <= R``; for fixed polyominoes only ``rows <= R and
  cols <= C``.

Sharding. The nodes at a depth ``d`` of Redelmeier's tree (the fixed
polyominoes of ``d`` cells, in the algorithm's own order) root disjoint
subtrees that together hold every polyomino of ``n >= d`` cells once. Shard
``i`` of ``S`` walks the tree down to depth ``d`` and descends only below
the nodes ``j`` with ``j % S == i``: a fixed, disjoint part of the
enumeration that depends only on ``(n, box, S, d)``, and the union over
``i`` is everything, each polyomino exactly once. :func:`shard_depth` picks
the smallest ``d`` with at least :data:`NODES_PER_SHARD` nodes per shard.

References
----------
.. [1] D. H. Redelmeier, "Counting polyominoes: yet another attack",
   *Discrete Mathematics* 36 (1981), 191-203.
.. [2] OEIS A001168 (fixed polyominoes), A000105 (free polyominoes),
   A000104 (free polyominoes without holes); https://oeis.org.
.. [3] D. E. Knuth, "Estimating the efficiency of backtrack programs",
   *Mathematics of Computation* 29 (1975), 121-136 (the random-probe
   estimate of :func:`estimate_count`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterable, Iterator

from .errors import InputError
from .geometry import SYMMETRIES, Shape, normalize, symmetry_group, transform

__all__ = [
    "Shard",
    "NODES_PER_SHARD",
    "fixed_polyominoes",
    "free_polyominoes",
    "count_polyominoes",
    "canonical_form",
    "symmetry_order",
    "count_holes",
    "fits_box",
    "depth_counts",
    "shard_depth",
    "estimate_count",
    "sample_polyominoes",
]

#: Depth-d nodes wanted per shard when :func:`shard_depth` picks ``d``: with
#: several subtrees per shard, dealt round robin, the shards come out of
#: similar size although the subtrees' sizes vary widely.
NODES_PER_SHARD = 4

#: Symmetries (indices into SYMMETRIES) that keep the numbers of rows and
#: columns: identity, rotation by 180 degrees, the two mirrors.
_SAME_SHAPE = tuple(SYMMETRIES[i] for i in (2, 4, 5))
_ALL_BUT_IDENTITY = SYMMETRIES[1:]


@dataclass(frozen=True)
class Shard:
    """Part ``index`` of ``count`` of an enumeration, split at tree depth ``depth``.

    Attributes
    ----------
    index : int
        ``0 <= index < count``.
    count : int
        Number of shards (at least 1).
    depth : int
        Depth of Redelmeier's tree at which the subtrees are dealt round
        robin (1 <= depth); a depth beyond ``n`` is taken as ``n``.

    Raises
    ------
    InputError
        For an index outside ``0 .. count-1``, or a count or depth below 1.
    """

    index: int
    count: int
    depth: int

    def __post_init__(self) -> None:
        if self.count < 1:
            raise InputError(f"shard count must be at least 1, got {self.count}")
        if not 0 <= self.index < self.count:
            raise InputError(f"shard index {self.index} is not in 0..{self.count - 1}")
        if self.depth < 1:
            raise InputError(f"shard depth must be at least 1, got {self.depth}")


def fixed_polyominoes(n: int, *, holes: bool = False, box: tuple[int, int] | None = None,
                      shard: Shard | None = None) -> Iterator[Shape]:
    """Every fixed polyomino of ``n`` cells, once each (Redelmeier's algorithm).

    Parameters
    ----------
    n : int
        Number of cells (``n >= 1``).
    holes : bool
        Also yield polyominoes with holes (default: hole-free only).
    box : (int, int), optional
        Only polyominoes with at most ``box[0]`` rows and ``box[1]`` columns
        (this orientation only: fixed polyominoes are not turned).
    shard : Shard, optional
        Yield only this shard's disjoint part (see the module docstring).

    Yields
    ------
    Shape
        Normalised sorted cells ``(row, col)``, in the algorithm's order.

    Raises
    ------
    InputError
        For ``n < 1`` or a box side below 1.

    Notes
    -----
    O(1) work per node of the search tree and O(n) memory; the tree has
    about 1.3 times as many nodes as there are fixed polyominoes of ``n``
    cells (OEIS A001168: 36446 for n = 10, 505861 for n = 12).

    References
    ----------
    D. H. Redelmeier, *Discrete Math.* 36 (1981) 191-203; OEIS A001168.

    Examples
    --------
    >>> [sum(1 for _ in fixed_polyominoes(n, holes=True)) for n in range(1, 7)]  # OEIS A001168
    [1, 2, 6, 19, 63, 216]
    >>> list(fixed_polyominoes(2, box=(1, 2)))
    [((0, 0), (0, 1))]
    """
    for shape, _, _ in _enumerate(n, holes=holes, box=box, shard=shard, free=False):
        yield shape


def free_polyominoes(n: int, *, holes: bool = False, box: tuple[int, int] | None = None,
                     shard: Shard | None = None, data: bool = False) -> Iterator:
    """Every free polyomino of ``n`` cells, once each, as its canonical form.

    Redelmeier's enumeration of fixed polyominoes [1]_ keeping only the
    canonical one of each polyomino's (up to 8) images: a polyomino is
    yielded when the tree reaches its canonical image (:func:`canonical_form`).

    Parameters
    ----------
    n : int
        Number of cells (``n >= 1``).
    holes : bool
        Also yield polyominoes with holes (default: hole-free only).
    box : (int, int), optional
        Only polyominoes that fit an R x C box in either orientation
        (regions are considered up to symmetry, so a 2 x 5 region fits a
        5 x 2 box).
    shard : Shard, optional
        Yield only this shard's disjoint part (see the module docstring).
    data : bool
        Yield ``(shape, symmetry_order, holes)`` instead of the shape:
        the size of the shape's stabiliser in the symmetry group of the
        square (1, 2, 4 or 8) and its number of holes.

    Yields
    ------
    Shape or (Shape, int, int)
        Canonical sorted cells ``(row, col)`` (never more rows than
        columns), in the algorithm's order.

    Raises
    ------
    InputError
        For ``n < 1`` or a box side below 1.

    Notes
    -----
    The search costs what :func:`fixed_polyominoes` costs (about 8 fixed
    polyominoes per free one); at a leaf a polyomino taller than wide is
    dropped at once, others are compared with their 3 (or, when square, 7)
    other images.

    References
    ----------
    .. [1] D. H. Redelmeier, *Discrete Math.* 36 (1981) 191-203; OEIS
       A000105 (free) and A000104 (free, without holes).

    Examples
    --------
    >>> [sum(1 for _ in free_polyominoes(n, holes=True)) for n in range(1, 9)]  # OEIS A000105
    [1, 1, 2, 5, 12, 35, 108, 369]
    >>> [sum(1 for _ in free_polyominoes(n)) for n in range(6, 9)]  # OEIS A000104
    [35, 107, 363]
    >>> list(free_polyominoes(3, data=True))
    [(((0, 0), (0, 1), (1, 0)), 2, 0), (((0, 0), (0, 1), (0, 2)), 4, 0)]
    """
    for item in _enumerate(n, holes=holes, box=box, shard=shard, free=True):
        yield item if data else item[0]


def count_polyominoes(n: int, *, holes: bool = False, box: tuple[int, int] | None = None,
                      shard: Shard | None = None, free: bool = True, by_class: bool = False):
    """Count what :func:`free_polyominoes` (or :func:`fixed_polyominoes`) would yield, without yielding.

    The same search (same tree, same order, hence the same shards) compiled
    with numba: about 5 million search-tree leaves per second against about
    0.2 million for the generators, for ``count_only`` censuses.

    Parameters
    ----------
    n : int
        Number of cells (``n >= 1``).
    holes, box, shard : optional
        As in :func:`free_polyominoes`.
    free : bool
        Count free polyominoes (default) or, with ``False``, fixed ones (as
        :func:`fixed_polyominoes`: the box in the given orientation).
    by_class : bool
        Return counts per ``(rows, cols, symmetry order, holes)`` instead of
        the total (symmetry order 0 for fixed polyominoes; rows <= cols for
        free ones, which are counted in canonical form).

    Returns
    -------
    int or dict
        The count, or ``{(rows, cols, symmetry, holes): count}`` sorted by key.

    Raises
    ------
    InputError
        For ``n < 1`` or a box side below 1.

    Notes
    -----
    The first call in a new environment compiles the kernel (a few seconds;
    numba caches it in ``__pycache__``).

    References
    ----------
    D. H. Redelmeier, *Discrete Math.* 36 (1981) 191-203; OEIS A001168,
    A000105, A000104.

    Examples
    --------
    >>> count_polyominoes(12, holes=True), count_polyominoes(12), count_polyominoes(12, holes=True, free=False)
    (63600, 58937, 505861)
    >>> count_polyominoes(4, by_class=True)
    {(1, 4, 4, 0): 1, (2, 2, 8, 0): 1, (2, 3, 1, 0): 1, (2, 3, 2, 0): 2}
    """
    import numpy as np

    from ._polycount import count_leaves

    grid = _Grid(n, box)  # validates n and box
    hist = np.zeros((n + 2, n + 2, 9, n + 1), dtype=np.int64)
    rows, cols = box if box is not None else (0, 0)
    pick, deal, cut = (shard.index, shard.count, min(shard.depth, n)) if shard is not None else (0, 1, 0)
    count_leaves(n, grid.m, rows, cols, free, holes, pick, deal, cut, np.array(SYMMETRIES, dtype=np.int64), hist)
    if not by_class:
        return int(hist.sum())
    return {tuple(int(x) for x in key): int(hist[key]) for key in zip(*np.nonzero(hist))}


def canonical_form(cells) -> Shape:
    """The canonical image of a polyomino under the 8 symmetries of the square.

    Among the images (:func:`ubongo_cp.geometry.transform` with each of
    :data:`~ubongo_cp.geometry.SYMMETRIES`), the one with the fewest rows,
    and among those the smallest sorted cell tuple.

    Examples
    --------
    >>> canonical_form([(0, 0), (1, 0), (2, 0), (2, 1)])  # an L tetromino, upright
    ((0, 0), (0, 1), (0, 2), (1, 0))
    """
    return min((transform(cells, sym) for sym in SYMMETRIES), key=lambda s: (1 + max(r for r, _ in s), s))


def symmetry_order(cells) -> int:
    """Size of the polyomino's stabiliser among the 8 symmetries of the square.

    1 (asymmetric), 2, 4 or 8 (every symmetry of the square: the single
    cell, the 2 x 2 square, the plus pentomino, ...). A free polyomino with
    symmetry order ``s`` has ``8 / s`` distinct fixed images.

    Examples
    --------
    >>> symmetry_order([(0, 0), (0, 1), (1, 0), (1, 1)]), symmetry_order([(0, 0), (0, 1), (1, 1)])
    (8, 2)
    """
    return len(symmetry_group(cells))


def count_holes(cells) -> int:
    """Number of holes (bounded 4-connected components of empty cells).

    Computed from the Euler characteristic of the union of the closed cells,
    ``V - E + F = components - holes``, for one connected polyomino: with
    ``F = n`` cells, ``E = 4n - (edge-adjacent pairs)`` edges and ``V``
    distinct corners, ``holes = 1 - V + 3n - pairs``.

    Raises
    ------
    InputError
        For an empty cell set.

    Examples
    --------
    >>> ring = [(r, c) for r in range(3) for c in range(3) if (r, c) != (1, 1)]
    >>> count_holes(ring), count_holes(ring[1:])  # with a corner missing: still a hole (A000104)
    (1, 1)
    >>> count_holes([(0, 0), (0, 1)])
    0
    """
    cells = set(cells)
    if not cells:
        raise InputError("a polyomino needs at least one cell")
    return _holes_of(cells)


def fits_box(cells, box: tuple[int, int], *, either: bool = True) -> bool:
    """True when the cells' bounding box fits ``box`` = (rows, cols).

    With ``either`` (the default, for regions up to symmetry) a turned box
    counts too.

    Examples
    --------
    >>> fits_box([(0, 0), (1, 0), (2, 0)], (1, 3)), fits_box([(0, 0), (1, 0), (2, 0)], (1, 3), either=False)
    (True, False)
    """
    shape = normalize(cells)
    h = 1 + max(r for r, _ in shape)
    w = 1 + max(c for _, c in shape)
    rows, cols = box
    return (h <= rows and w <= cols) or (either and h <= cols and w <= rows)


def depth_counts(n: int, *, box: tuple[int, int] | None = None, free: bool = True) -> list[int]:
    """Nodes of Redelmeier's tree at each depth 1..n (fixed polyominoes of d cells).

    With ``box``, only nodes that fit the box (either orientation when
    ``free``, as in :func:`free_polyominoes`; as given otherwise): these
    are the subtrees the shards deal out.

    Raises
    ------
    InputError
        For ``n < 1`` or a box side below 1.

    Notes
    -----
    Visits every node down to depth ``n``: keep ``n`` small (about 12).

    Examples
    --------
    >>> depth_counts(5)  # OEIS A001168
    [1, 2, 6, 19, 63]
    >>> depth_counts(4, box=(2, 2))
    [1, 2, 4, 1]
    """
    return [sum(1 for _ in _nodes(n, box, free, d)) for d in range(1, n + 1)]


def shard_depth(n: int, shards: int, *, box: tuple[int, int] | None = None, free: bool = True) -> int:
    """The depth at which ``shards`` shards split the enumeration of ``n``-cell polyominoes.

    The smallest depth with at least :data:`NODES_PER_SHARD` x ``shards``
    nodes (subtrees), or ``n`` when no depth has that many.

    Raises
    ------
    InputError
        For ``n < 1``, ``shards < 1`` or a box side below 1.

    Notes
    -----
    Each shard walks the tree down to this depth, about
    1.3 x :data:`NODES_PER_SHARD` x ``shards`` nodes: negligible next to the
    shard's own work while shards hold thousands of polyominoes.

    Examples
    --------
    >>> shard_depth(10, 1), shard_depth(10, 4), shard_depth(10, 100)
    (3, 4, 7)
    """
    if shards < 1:
        raise InputError(f"shard count must be at least 1, got {shards}")
    want = NODES_PER_SHARD * shards
    for d in range(1, n + 1):  # each walk costs about 1.3 times its last level: a geometric sum
        if sum(1 for _ in _nodes(n, box, free, d)) >= want:
            return d
    return n


def estimate_count(n: int, *, holes: bool | None = False, box: tuple[int, int] | None = None,
                   free: bool = True, probes: int = 2000, seed: int = 0) -> float:
    """Estimate how many polyominoes :func:`free_polyominoes` (or :func:`fixed_polyominoes`) would yield.

    Knuth's random-probe estimate of the size of a backtrack tree [1]_,
    stratified: the top of Redelmeier's tree is enumerated down to the
    deepest level with at most ``probes / 2`` nodes, and from each node of
    that level a few random paths are followed to depth ``n``, choosing each
    child with equal probability. The product of the branching degrees along
    a path that ends in a wanted leaf (canonical when ``free``, hole-free
    unless ``holes``) is an unbiased estimate of the wanted leaves below its
    start; the sum over the level of the mean per node is the estimate.
    When the whole tree has at most ``probes / 2`` leaves they are counted.

    Parameters
    ----------
    n : int
        Number of cells.
    holes : bool or None
        As in :func:`free_polyominoes`; ``None``: every leaf counts, canonical
        or not (an estimate of the fixed polyominoes the search meets, about
        8 times the free ones, with a smaller spread).
    box, free : optional
        As in :func:`free_polyominoes` (``free=False``: as in
        :func:`fixed_polyominoes`).
    probes : int
        About how many random paths to follow (each costs O(n)).
    seed : int
        Seed of the paths (same seed, same estimate).

    Returns
    -------
    float
        The estimate; its relative error shrinks as ``1 / sqrt(probes)``.

    Raises
    ------
    InputError
        For ``n < 1``, a box side below 1 or ``probes < 2``.

    References
    ----------
    .. [1] D. E. Knuth, "Estimating the efficiency of backtrack programs",
       *Math. Comp.* 29 (1975) 121-136.

    Examples
    --------
    >>> 0.8 * 4655 < estimate_count(10, holes=True) < 1.2 * 4655  # A000105: 4655
    True
    >>> estimate_count(5, holes=True)  # few leaves: counted
    12.0
    """
    if probes < 2:
        raise InputError(f"probes must be at least 2, got {probes}")
    return float(sum(weight for weight, _ in _stratified_probes(n, box, free, holes, probes, seed)))


def sample_polyominoes(n: int, probes: int = 2000, *, holes: bool = False, box: tuple[int, int] | None = None,
                       seed: int = 0) -> list[tuple[Shape, float]]:
    """Random free polyominoes with importance weights, from the probes of :func:`estimate_count`.

    Each probe that ends in a wanted leaf gives that polyomino (canonical
    form) and its weight; for any function ``f`` of a polyomino,
    ``sum(w * f(s))`` estimates the sum of ``f`` over every polyomino
    :func:`free_polyominoes` would yield (unbiased), and
    ``sum(w * f(s)) / sum(w)`` its mean. Unlike the first polyominoes of an
    enumeration or of a shard (met first by the search, hence long and
    thin), the sample is spread over the whole tree. In a tight box most
    paths die and a few heavy weights dominate: the effective sample size
    ``sum(w) ** 2 / sum(w * w)`` can then be a handful, fine for a count,
    poor for a mean (``benchmarks/bench_census.py`` samples whole shards
    instead).

    Parameters
    ----------
    n : int
        Number of cells.
    probes : int
        About how many random paths to follow; roughly one in 8 ends in a
        wanted leaf (a canonical one).
    holes, box : optional
        As in :func:`free_polyominoes`.
    seed : int
        Seed of the paths (same seed, same sample).

    Returns
    -------
    list of (Shape, float)
        Polyominoes (with repetitions) and their weights, in the order drawn.

    Raises
    ------
    InputError
        For ``n < 1``, a box side below 1 or ``probes < 2``.

    References
    ----------
    D. E. Knuth, *Math. Comp.* 29 (1975) 121-136 (random probes of a
    backtrack tree).

    Examples
    --------
    >>> sample = sample_polyominoes(9, 400, seed=1)
    >>> all(len(s) == 9 for s, _ in sample), 0.7 * 1248 < sum(w for _, w in sample) < 1.3 * 1248  # A000104
    (True, True)
    """
    if probes < 2:
        raise InputError(f"probes must be at least 2, got {probes}")
    return [(item[0], weight) for weight, item in _stratified_probes(n, box, True, holes, probes, seed)
            if item is not None]


# --------------------------------------------------------------------------
# Redelmeier's search (the one implementation behind everything above)
# --------------------------------------------------------------------------

class _Grid:
    """The cells Redelmeier's tree may use, as integer indices with padding.

    Cell ``(r, q)`` (row, column relative to the origin cell) has index
    ``(r + 1) * W + (q + M)``; the origin ``(0, 0)`` is the leftmost cell
    of the top row of every polyomino, so the allowed cells are ``r > 0``,
    or ``r == 0`` and ``q >= 0`` (Redelmeier's half plane), with
    ``r < M`` and ``|q| < M`` where ``M`` bounds the extent (``n``, or the
    larger side of the box). Forbidden cells, the padding among them, start
    out *seen*, so the search never adds them to the untried set.
    """

    def __init__(self, n: int, box: tuple[int, int] | None) -> None:
        if n < 1:
            raise InputError(f"a polyomino needs at least 1 cell, got n = {n}")
        if box is not None:
            rows, cols = box
            if rows < 1 or cols < 1:
                raise InputError(f"box {rows}x{cols} has no cells")
        m = n if box is None else min(n, max(box))
        self.m = m
        self.w = w = 2 * m + 1
        self.origin = w + m
        seen = bytearray(b"\x01") * ((m + 2) * w)
        for r in range(m):
            for q in range(-(m - 1), m):
                if r > 0 or q >= 0:
                    seen[(r + 1) * w + q + m] = 0
        self.seen = seen


def _fits(h: int, w: int, box: tuple[int, int] | None, free: bool) -> bool:
    if box is None:
        return True
    rows, cols = box
    return (h <= rows and w <= cols) or (free and h <= cols and w <= rows)


def _enumerate(n: int, *, holes: bool, box: tuple[int, int] | None, shard: Shard | None,
               free: bool) -> Iterator[tuple[Shape, int, int]]:
    """Redelmeier's algorithm, iteratively; yields (shape, symmetry order or 0, holes).

    Steps as in [1]_ (section 3): the *untried set* of each level is the
    contiguous slice ``stack[pos[level]:end[level]]``; a child's untried set
    is the rest of its parent's slice followed by the new neighbours of the
    cell just placed, which are pushed right after it, so no set is ever
    copied. Every cell that has entered an untried set stays *seen* until
    the level that added it is left, which is what makes each fixed
    polyomino appear exactly once.
    """
    grid = _Grid(n, box)
    W = grid.w
    seen = grid.seen
    # stack[...]: untried cells of all levels; end[L]: end of level L's untried slice;
    # pos[L]: next untried cell of level L; cells[L]: the cell placed at level L;
    # maxr/minq/maxq[L+1]: extent of the polyomino after level L (row r = index // W - 1).
    stack = [0] * (4 * n + 4)
    end = [0] * (n + 1)
    pos = [0] * (n + 1)
    cells = [0] * n
    maxr = [0] * (n + 1)
    minq = [0] * (n + 1)
    maxq = [0] * (n + 1)
    minq[0], maxq[0], maxr[0] = 1 << 30, -(1 << 30), -1
    pick = shard.index if shard is not None else 0
    deal = shard.count if shard is not None else 1
    cut = min(shard.depth, n) if shard is not None else 0
    dealt = 0
    stack[0] = grid.origin
    seen[grid.origin] = 1
    pos[0], end[0] = 0, 1
    level = 0
    while level >= 0:
        i = pos[level]
        if i >= end[level]:
            # Step 5: every untried cell of this level is done; back to the parent,
            # forgetting the neighbours that were new at the parent's placement.
            level -= 1
            if level >= 0:
                for j in range(end[level], end[level + 1]):
                    seen[stack[j]] = 0
            continue
        # Step 2: take the next untried cell; step 3: place it.
        c = stack[i]
        pos[level] = i + 1
        r, q = divmod(c, W)
        hi_r = r if r > maxr[level] else maxr[level]
        lo_q = q if q < minq[level] else minq[level]
        hi_q = q if q > maxq[level] else maxq[level]
        if box is not None and not _fits(hi_r, hi_q - lo_q + 1, box, free):
            continue  # no polyomino of this subtree fits the box
        cells[level] = c
        if level + 1 == cut:  # a node at the sharding depth: is its subtree ours?
            dealt += 1
            if (dealt - 1) % deal != pick:
                continue
        if level + 1 == n:
            item = _leaf(cells, W, hi_r, lo_q, hi_q, holes, free)
            if item is not None:
                yield item
            continue
        # Step 4: the new neighbours of c (not seen: not in the polyomino, not next to
        # an earlier cell, allowed) join the untried set of the child level.
        top = end[level]
        for nb in (c + 1, c + W, c - 1, c - W):
            if not seen[nb]:
                seen[nb] = 1
                stack[top] = nb
                top += 1
        maxr[level + 1], minq[level + 1], maxq[level + 1] = hi_r, lo_q, hi_q
        level += 1
        pos[level], end[level] = i + 1, top


def _leaf(cells: list[int], W: int, hi_r: int, lo_q: int, hi_q: int, holes: bool,
          free: bool) -> tuple[Shape, int, int] | None:
    """The leaf's (shape, symmetry order, holes), or None when it is not wanted.

    Cells are compared as integers ``row * K + col`` (``K = n`` exceeds every
    row and column of every image, so integer order is the order of the
    ``(row, col)`` tuples); the image of ``(r, q)`` under symmetry
    ``(a, b, c, d)`` of :data:`~ubongo_cp.geometry.SYMMETRIES`, translated
    back into the first quadrant (what :func:`~ubongo_cp.geometry.transform`
    does), is ``(a*r + b*q + r0) * K + (c*r + d*q + q0)`` with offsets
    ``r0``, ``q0`` fixed by the bounding box.
    """
    h, w = hi_r, hi_q - lo_q + 1  # rows are stored as r + 1: hi_r is the number of rows
    if free and h > w:
        return None  # a canonical form has no more rows than columns
    k = len(cells)
    rows = [c // W - 1 for c in cells]
    cols = [c % W - lo_q for c in cells]
    base = sorted([r * k + q for r, q in zip(rows, cols)])
    order = 0
    if free:
        order = 1
        for a, b, c, d in (_SAME_SHAPE if h < w else _ALL_BUT_IDENTITY):
            alpha, beta = a * k + c, b * k + d
            const = ((h - 1 if a < 0 else 0) + (w - 1 if b < 0 else 0)) * k \
                + (h - 1 if c < 0 else 0) + (w - 1 if d < 0 else 0)
            image = sorted([alpha * r + beta * q + const for r, q in zip(rows, cols)])
            if image < base:
                return None  # another image is the canonical one
            if image == base:
                order += 1
    n_holes = 0
    if k >= 7:  # the smallest polyomino with a hole has 7 cells
        n_holes = _holes_of(zip(rows, cols))
        if n_holes and not holes:
            return None
    return tuple(divmod(v, k) for v in base), order, n_holes


def _holes_of(cells) -> int:
    """Holes of a connected set of (row, col) cells from its Euler characteristic (see count_holes)."""
    cells = list(cells)
    k = 2 + max(q for _, q in cells) - min(q for _, q in cells)  # wider than the shape: no wrap-around
    ints = {r * k + q for r, q in cells}
    pairs = sum((v + 1 in ints) + (v + k in ints) for v in ints)
    corners = {v + off for v in ints for off in (0, 1, k, k + 1)}
    return 1 - len(corners) + 3 * len(ints) - pairs


def _nodes(n: int, box, free: bool, depth: int, *, grid: _Grid | None = None) -> Iterator[tuple[list, list, tuple]]:
    """The nodes at ``depth`` of the tree of ``n``-cell polyominoes, in the search's order.

    Yields ``(untried, cells, (hi_r, lo_q, hi_q))``: the untried set a child
    of the node would choose from (the cells after the node's own cell, then
    that cell's new neighbours, marked seen in ``grid.seen`` while the
    consumer runs), the node's cells and its extent. Without children
    (``depth == n``) ``untried`` is empty.
    """
    grid = grid or _Grid(n, box)
    W, seen = grid.w, grid.seen
    stack = [0] * (4 * n + 4)
    end = [0] * (n + 1)
    pos = [0] * (n + 1)
    cells = [0] * n
    maxr = [-1] + [0] * n
    minq = [1 << 30] + [0] * n
    maxq = [-(1 << 30)] + [0] * n
    stack[0] = grid.origin
    seen[grid.origin] = 1
    end[0] = 1
    level = 0
    while level >= 0:
        i = pos[level]
        if i >= end[level]:
            level -= 1
            if level >= 0:
                for j in range(end[level], end[level + 1]):
                    seen[stack[j]] = 0
            continue
        c = stack[i]
        pos[level] = i + 1
        r, q = divmod(c, W)
        hi_r, lo_q, hi_q = max(r, maxr[level]), min(q, minq[level]), max(q, maxq[level])
        if box is not None and not _fits(hi_r, hi_q - lo_q + 1, box, free):
            continue
        cells[level] = c
        if level + 1 == depth:
            new = []
            if depth < n:
                new = [nb for nb in (c + 1, c + W, c - 1, c - W) if not seen[nb]]
                for nb in new:
                    seen[nb] = 1
            yield stack[i + 1:end[level]] + new, cells[:depth], (hi_r, lo_q, hi_q)
            for nb in new:
                seen[nb] = 0
            continue
        top = end[level]
        for nb in (c + 1, c + W, c - 1, c - W):
            if not seen[nb]:
                seen[nb] = 1
                stack[top] = nb
                top += 1
        maxr[level + 1], minq[level + 1], maxq[level + 1] = hi_r, lo_q, hi_q
        level += 1
        pos[level], end[level] = i + 1, top


def _probe(grid: _Grid, untried: list, cells: list, bbox: tuple, n: int, box, free: bool,
           holes: bool | None, rng: random.Random) -> tuple[float, tuple | None]:
    """One random path from a node down to depth ``n`` (Knuth 1975): its weight and leaf.

    The weight (product of the branching degrees) counts when the path ends
    in a wanted leaf (``_leaf`` with ``holes``, whose result comes with it;
    any leaf when ``holes`` is None, with None); otherwise ``(0.0, None)``.
    ``grid.seen`` is left as found.
    """
    W, seen = grid.w, grid.seen
    cells = list(cells)
    hi_r, lo_q, hi_q = bbox
    weight = 1.0
    marked: list[int] = []
    try:
        while True:
            children = []
            for j, c in enumerate(untried):
                r, q = divmod(c, W)
                if box is None or _fits(max(r, hi_r), max(q, hi_q) - min(q, lo_q) + 1, box, free):
                    children.append(j)
            if not children:
                return 0.0, None
            weight *= len(children)
            j = children[int(rng.random() * len(children))]
            c = untried[j]
            r, q = divmod(c, W)
            hi_r, lo_q, hi_q = max(r, hi_r), min(q, lo_q), max(q, hi_q)
            cells.append(c)
            if len(cells) == n:
                if holes is None:
                    return weight, None
                item = _leaf(cells, W, hi_r, lo_q, hi_q, holes, free)
                return (weight, item) if item is not None else (0.0, None)
            # the child's untried set: the cells after c, then c's new neighbours
            untried = untried[j + 1:]
            for nb in (c + 1, c + W, c - 1, c - W):
                if not seen[nb]:
                    seen[nb] = 1
                    marked.append(nb)
                    untried.append(nb)
    finally:
        for nb in marked:
            seen[nb] = 0


def _stratified_probes(n: int, box, free: bool, holes: bool | None, probes: int,
                       seed: int) -> Iterator[tuple[float, tuple | None]]:
    """Knuth's probes below the deepest level with at most ``probes / 2`` nodes.

    Yields ``(weight, leaf)`` per probe, the weight divided by the probes
    per start node, so that the weights sum to the estimate; when the whole
    tree has few leaves, every wanted leaf once with weight 1 instead.
    """
    rng = random.Random(seed)
    depth = 0
    for d in range(1, n + 1):
        if sum(1 for _ in _nodes(n, box, free, d)) > probes // 2:
            break
        depth = d
    grid = _Grid(n, box)
    if depth == n:  # small enough to count
        for _, cells, bbox in _nodes(n, box, free, n, grid=grid):
            hi_r, lo_q, hi_q = bbox
            item = None if holes is None else _leaf(cells, grid.w, hi_r, lo_q, hi_q, holes, free)
            if holes is None or item is not None:
                yield 1.0, item
        return
    starts: Iterable[tuple[list, list, tuple]]
    if depth == 0:
        starts = [([grid.origin], [], (-1, 1 << 30, -(1 << 30)))]
        per = probes
    else:
        starts = _nodes(n, box, free, depth, grid=grid)
        per = max(1, probes // sum(1 for _ in _nodes(n, box, free, depth)))
    for untried, cells, bbox in starts:
        for _ in range(per):
            weight, item = _probe(grid, untried, cells, bbox, n, box, free, holes, rng)
            if weight:
                yield weight / per, item
