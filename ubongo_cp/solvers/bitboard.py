"""Exact cover by a bitboard backtrack: the toolkit's fastest search for regions of at most 256 cells.

The kernel (``_bits.c``, compiled when the package is installed) holds every
placement as a mask of one, two or four 64-bit words over the instance's
*cell items* (not over grid coordinates: any instance whose primary items
number at most 64, 128 or 256 fits), and every piece type as a *counter
item* with bounds ``[lo..hi]`` (Knuth's multiplicities [1]_): a type with
``k`` copies is one counter ``[k..k]``, or ``[0..k]`` with optional pieces
(the subset analysis), so each solution, a *set* of placements, is met once
(UP-5). An :class:`~ubongo_cp.exactcover.ExactCoverMatrix` fits too: its
primary items are the cell items, its secondary items further bits.

The search
----------
A level takes one empty cell and tries, in turn, every placement there
that fits (no covered cell, a copy of its type left), then the next level
starts from the board with that placement added; each level keeps its
board, so nothing is unlinked when the search backs up [2]_. Two rules
choose the cell:

- ``"first"``: the first empty cell in the kernel's cell order (the cells
  sorted along the region's longest axis, so the filled part grows across
  the short side; for a large count the scan is chosen, see "Scan"); only the placements whose first cell it is can fit
  there, and they are listed per cell and per *pattern* of the next cells
  (the options that cover none of the cells already filled among the K
  cells after it), by piece type, so a level scans few placements. The
  fastest rule for tiling;
- ``"mrv"``: the empty cell with the fewest fitting placements (ties to the
  first): Knuth's minimum-remaining-values heuristic on the cells.

The *dead-region test* (``prune``, with the cells' neighbours: grid cells
one step apart, used only when every placement is connected that way)
backs up at once when the placement just made walls in an empty cell that
no remaining piece can fill (the remaining pieces' sizes have no 1-cell
sum); and placements that wall in, on the empty board, a region the
other pieces cannot fill (its size not a multiple of the greatest common
divisor of their sizes, or smaller than the smallest) are removed before
the search.

The *memo* (``"first"`` rule, at most one piece type with more than one
copy, only while counting: no solution kept, no limit, no tally)
remembers, for the nodes with at least four pieces still to place, the
solutions below them keyed by their board and the piece types left, in a
lossy table of 2^14 entries in buckets of two (a collision overwrites;
keys are compared in full, so a count is never wrong), the first entry
of a bucket keeping the larger subtree, so that subtrees met often near
the leaves do not push out those that spare a larger search: a node met
again, in the same branch or another branch of the symmetry plan, adds
those solutions without a search. The key is exact because the board and the types left tell how
many copies of the one type with copies are left (the cells covered, less
the other pieces placed). It is used only where no solution below needs its
stabiliser (the plan's branch tests no symmetry, or the restricted piece is
placed at a representative whose orbit is whole), so the Burnside sum grows
as the count. Where a piece type has copies, the memo spares most of the
search (20 L pentominoes in 10x10: 192,494 nodes against 1,850,998), and
the count up to symmetry is made from each symmetry's fixed points instead
(:mod:`.fixed`, :meth:`BitboardBackend.memo_copies`).

Where at most eight pieces are left (same rule, only counting, regions of
at most 128 cells, one copy of each type at most; or, on regions of at
most 64 cells, copies too where every copy must be placed), a plain recursion
searches each subtree in one call: the same placements in the same order
(the same nodes, the memo included) as the resumable search, without its
bookkeeping, the board held as one integer (64 or 128 bits). At each node
it first filters the placements at the cell without a branch per
placement (whether one fits follows no pattern a processor can predict),
then searches the children that fit, leave no walled-in
cell and have placements at their own first cell. The node budget between
two heartbeats is checked only between two such subtrees.

Scan
----
The ``"first"`` rule's cell order is a raster scan of the region: along
its longest axis, the short side varying fastest. A 2-D region has eight
such scans (either axis first, each way along each axis), and on an
irregular region their trees differ by up to a few times (8x8 without
four cells of its top row: 25 to 65 million nodes). For a large count
(Knuth's estimate [3]_ of the default scan's tree, from a few hundred
random probes of the kernel, at least some tenths of a second; on an
exact-cover matrix, whose choice takes about 10 ms, a tenth of that),
:meth:`BitboardBackend.scanned` estimates the tree of one scan of each class that the region's
symmetries do not map onto another (the scans across the long side first
only where both sides are as long; a rectangle or a square has one class),
each stratified by the split's cut, and the count runs on the smallest.
Under a time limit the choice takes at most a share of it
(:data:`.base.CHOICE_SHARE`): no estimate is begun that would end after
that, and the count runs on the best of those made.

The first empty cell sees nothing of the rest of the region: a cell that
no placement left can cover, far along the scan, is found only when the
scan reaches it, after every way of filling the cells before it. On
such an instance (a region with holes whose pieces may be left out, a
box of cubes with fixed orientations) the ``"mrv"`` rule, which branches
on the cell with the fewest fitting placements and backtracks at once on
one with none, searches a few dozen nodes where the first empty cell
searches billions. So a large count (and a search for the first
solutions, or one handing on every solution as it is found), on a region that is not a rectangle (or on cubes, or on an
exact-cover matrix, whose items come in the order its file gives: a file
of rows of cells along the long side made the first item's count of
the pentominoes in 4x15 take about a hundred times as long as the most
constrained item's) also
estimates the ``"mrv"`` rule's tree, the same way, and runs on it where
that tree, times :data:`_MRV_COST` (its nodes cost that much more than
the ``"first"`` rule's), is the smaller; ``stats["cell_rule"]`` then says
``"mrv"``. On an exact-cover matrix such a count runs in the dancing-cells
kernel (:meth:`BitboardBackend.counter`), and a large count also
estimates the first item's tree on two orders of the items instead of
a scan: the reverse Cuthill-McKee order of the graph joining the items
an option covers together, and its reverse (the items that partition
the options, a tiling's pieces, last): on a rectangle's cells given row
by row, an order that grows across the short side.

Search nodes
------------
``nodes`` is the number of placements made: the nodes of the search tree
other than the root (a placement the dead-region test undoes at once
counts; the subtrees the memo answers are not searched and do not count).
The *rating's node measure* (:mod:`ubongo_cp.rate`) is the node
count of the ``"mrv"`` rule without the dead-region test: deterministic,
and independent of how a region is drawn up to the tie-break.

Symmetry, counting, subsets
---------------------------
:meth:`BitboardBackend.search` runs one search below each branch of a
symmetry plan (:func:`ubongo_cp.solvers.orbits.symmetry_plan`), with the
count, the Burnside sum of the stabiliser orders (UP-5) and the tally of
solutions per set of piece types used (the subset analysis) kept in C: no
Python runs per solution unless a solution is asked for.

References
----------
.. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 4B, 7.2.2.1
   (2022): exact covering with multiplicities (Algorithm M), the MRV heuristic.
.. [2] The bitboard pentomino solver of sugyan/pentomino
   (https://github.com/sugyan/pentomino): placements as 64-bit masks, branching on
   the first empty cell, per-cell placement tables.
.. [3] D. E. Knuth, "Estimating the efficiency of backtrack programs", *Math. Comp.* 29
   (1975) 121-136.
"""

from __future__ import annotations

import time
from array import array
from functools import lru_cache
from itertools import chain
from collections.abc import Callable, Iterator, Sequence
from _weakref import ref

from ..cover import kept
from ..errors import InputError
from ..structs import Struct, replace
from ..structs import NamedTuple

__all__ = ["BitboardBackend", "BitSearch", "Layout", "layout", "unfit_reason", "type_sets", "KERNEL_BUILT", "MAX_CELLS",
           "DEFAULT_HEARTBEAT", "RULES"]

try:
    from . import _bits
except ImportError:  # built without a C compiler
    _bits = None

#: True when the C kernel ``_bits`` is built (the install compiles it; without it the default solvers
#: fall back to :mod:`.dancing`).
KERNEL_BUILT = _bits is not None


def type_sets(tally: dict[int, int]) -> dict[tuple[int, ...], int]:
    """A kernel's tally (mask of the piece types used -> covers) keyed by the types themselves.

    Parameters
    ----------
    tally : dict
        Masks (non-negative integers below ``2**64``: type ``t`` is bit ``t``) to counts.

    Returns
    -------
    dict
        The sorted tuple of each mask's set bits -> its count, in the tuples' increasing order (decoded and
        ordered in C when the kernel is built: a subset analysis lists thousands, sorted).
    """
    if _bits is not None:
        return _bits.bit_tuples(tally)
    out = {}
    for mask, n in tally.items():
        out[tuple(t for t in range(mask.bit_length()) if mask >> t & 1)] = n
    return dict(sorted(out.items()))


#: Largest number of bit items (cell items, plus secondary items of an exact-cover matrix).
MAX_CELLS = 256
#: Largest number of piece types (counter items).
MAX_TYPES = 63
#: Nodes between two heartbeats (time-limit checks) of a search.
DEFAULT_HEARTBEAT = 200_000
#: The cell-choice rules (see the module docstring).
RULES = {"first": 0, "mrv": 1}

# How far the dead-region test floods, and the probe bits of the "first" lists (negative: the K cells
# after the anchor in the kernel's order), measured on the pentomino rectangles: K is _PROBES, or on a 2-D
# region of at most 64 cells one more than its longest column along the scan (the cells below the anchor and the
# next column's down to the one diagonally below it), at most _PROBES_MOST (the lists grow about twice per
# probe). The search in process against 6 probes (median of 15, 9 interleaved rounds, load 2.3-2.8): 7 on 6x10
# 0.0269 -> 0.0254 s and on 8x8 minus its centre 0.0063 -> 0.0059 s; 7 on 5x12 0.0093 -> 0.0098 s (one more
# than its column of 5); 8 and 9 on 8x8 no faster than 7, on 6x10 slower; 4x15 and 3x20 the same from 4 or 5
# to 7; on two words 7 was slower (20 L pentominoes in 10x10 0.0170 -> 0.0181 s, 20 P 0.0221 -> 0.0224 s).
_FLOOD_CAP = 1
_PROBES = -6
_PROBES_MOST = 7
# The memo (module docstring): the nodes with at least _MEMO_LEFT pieces left, a table of 2**_MEMO_BITS
# entries of 32 bytes (64 with more than 64 bits) in buckets of two (the first the larger subtree: 20 L
# pentominoes in 10x10 287,465 -> 192,494 nodes, 20 P 433,868 -> 230,355, 6x10 1,227,382 -> 1,136,095, against
# one entry a slot), each with the epoch it was stored in (a new restriction
# of the plan starts a new epoch instead of clearing the table); measured on the pentomino rectangles
# (callgrind, the kernel's step: 4 pieces left rather than 5, 6x10 -0%, 5x12 -5%, 4x15 -11%, 8x8 minus its
# centre -3%; a table of 2^15 or 2^16 entries counted fewer instructions but took more time on the small boards).
_MEMO_LEFT = 4
_MEMO_BITS = 14
# The levels with at most _FAST_LEFT pieces left are searched by a plain recursion (module docstring).
_FAST_LEFT = 8

# The raster scan of a 2-D region (module docstring, "Scan"): a count whose first estimate (_SCAN_GATE probes
# per branch of the plan) reaches _SCAN_NODES nodes (some tenths of a second) has it chosen, each candidate
# scan's tree estimated by the split's cut into _SCAN_LEAVES subtrees and _SCAN_PROBES probes below each (some
# milliseconds per scan). Measured on 8x8 without four cells (its top row's, and 12 random draws): below
# that size the choice (about 50 ms) costs more than it saves.
_SCAN_NODES = 10_000_000
# On an exact-cover matrix the choice (two more item orders and the most constrained item, each estimated on a
# kernel of its own) takes about 10 ms, and its gate is _MATRIX_SCAN_NODES: the pentominoes in 8x8 minus its
# centre 2x2, given row by row (an estimated 1.5 million nodes, 9.0 million searched), count in the dancing-cells
# kernel in 0.23 s against 0.39 s on the first item of the file's order (in process, CPU).
_MATRIX_SCAN_NODES = 1_000_000
_SCAN_GATE = 256
_SCAN_LEAVES = 64
_SCAN_PROBES = 32
# What a node of the "mrv" rule costs over one of the "first" rule (module docstring, "Scan"): 12-20 times on
# the pentomino counts of 5x12, 6x10 and 8x8 without four cells (450-600 ns against 25-40 ns a node). Its tree
# is estimated from a cut into _MRV_LEAVES subtrees and _MRV_PROBES probes below each: 3 ms, within 30 % of the
# estimate of the scans' cut and probes (25 ms) on 8x8 without four cells, the rules' trees being tens or
# thousands of times apart where the choice matters.
_MRV_COST = 16
_MRV_LEAVES = 16
_MRV_PROBES = 8
#: Random probes per branch of :func:`probe_nodes`.
PROBES = 64
#: The raster scans of a 2-D region (:class:`BitboardBackend` ``scan``).
SCANS = 8

_BUDGET, _FULL, _LIMIT, _DONE = 1, 2, 3, 4
_MAX_BATCH = 1024


class Layout(NamedTuple):
    """How an instance sits on the kernel's bits.

    Attributes
    ----------
    items : tuple of int
        The instance item of each bit: the primary (cell) items first, in the kernel's cell order, then
        the secondary bit items.
    n_goal : int
        Primary bits (every one must be covered).
    words : int
        64-bit words per mask: 1, 2 or 4.
    bit_of : array of int
        The bit of each instance item (-1: a counter item, the piece type's).
    types : array of int
        Counter item of each option (its piece type; -1 for none).
    lo, hi : array of int
        Bounds of each counter item.
    neighbours : bytes
        ``n_goal x words`` neighbour masks of the primary bits (empty: no dead-region test).
    """

    items: tuple[int, ...]
    n_goal: int
    words: int
    bit_of: array
    types: array
    lo: array
    hi: array
    neighbours: bytes


def unfit_reason(instance) -> str | None:
    """Why the bitboard kernel cannot take ``instance`` (``None`` when it can).

    It needs the C kernel, at most :data:`MAX_CELLS` bit items (cells, plus the secondary items of an
    exact-cover matrix), at most :data:`MAX_TYPES` piece types, every option covering a cell, no
    optional cells, and a matrix without bounds or colours (Knuth's DLX3 and DLX2).
    """
    if not KERNEL_BUILT:
        return "the bitboard kernel (ubongo_cp.solvers._bits) is not built"
    typed = _typed(instance)
    if typed and instance.region.optional:
        return "optional cells (the bitboard kernel covers every cell of the region)"
    if not typed and getattr(instance, "colours", None) is not None:
        return "colours on secondary items (Knuth's DLX2; the bitboard kernel has none)"
    if not typed and getattr(instance, "multiplicity", None) is not None:
        return "bounds on items of an exact-cover matrix (Knuth's DLX3; the bitboard kernel covers each once)"
    bits = instance.n_cells if typed else instance.n_items
    if bits > MAX_CELLS:
        return f"{bits} cell items (the bitboard kernel takes at most {MAX_CELLS})"
    if typed and instance.n_types > MAX_TYPES:
        return f"{instance.n_types} piece types (the bitboard kernel takes at most {MAX_TYPES})"
    return None


def layout(instance, scan: int = 0) -> Layout:
    """The kernel's view of ``instance`` (see :class:`Layout`).

    A polyomino instance (:class:`~ubongo_cp.cover.ExactCoverInstance`): its cells are the bits, in
    order along the region's longest axis, its piece types the counter items. An exact-cover matrix:
    its primary items, then its secondary items, are the bits, in item order.

    Raises
    ------
    InputError
        When the kernel cannot take the instance (:func:`unfit_reason`).
    """
    reason = unfit_reason(instance)
    if reason is not None:
        raise InputError(f"backend 'bitboard' cannot take this instance: {reason}")
    return kept(instance, ("bitboard_layout", scan), lambda: _layout(instance, scan))


def _layout(instance, scan: int) -> Layout:
    """:func:`layout`, made."""
    typed = _typed(instance)
    if typed:
        n_goal = n_bits = instance.n_cells
        cells = instance.cells
        order = _cell_order(cells, scan)
        bounds = instance.type_bounds
        lo = array("i", [a for a, _ in bounds])
        hi = array("i", [b for _, b in bounds])
        types = instance.table.option_type
    else:
        n_goal, n_bits = instance.n_primary, instance.n_items
        order = _item_order(instance, scan) + list(range(n_goal, n_bits))
        lo, hi = array("i"), array("i")
        types = array("i", [-1]) * instance.n_options
    words = 1 if n_bits <= 64 else 2 if n_bits <= 128 else 4
    bit = array("i", [-1]) * instance.n_items
    for b, item in enumerate(order):
        bit[item] = b
    neighbours = _neighbours(instance, order, bit, words) if typed else b""
    return Layout(tuple(order), n_goal, words, bit, types, lo, hi, neighbours)


def _item_order(instance, scan: int) -> list[int]:
    """The primary items of an exact-cover matrix in the kernel's order: as given (``scan`` 0), or by the
    reverse Cuthill-McKee order (1) or the Cuthill-McKee order (2) of the graph joining two items that an
    option covers together. Where some items partition the options (each option covers exactly one of
    them: the pieces of a tiling, each joined to every cell), they are left out of that graph and come
    last. On a file that lists a rectangle's cells row by row along its long side, the order grows across
    the short side, as a region's default scan does.

    Cuthill-McKee: each part of the graph in breadth-first order from its item of least degree, the
    neighbours of an item by rising degree (ties: the lower item first) [1]_ [2]_.

    References
    ----------
    .. [1] E. Cuthill and J. McKee, "Reducing the bandwidth of sparse symmetric matrices", Proc. 24th
       ACM National Conference, 1969.
    .. [2] A. George, "Computer implementation of the finite element method", Stanford University,
       STAN-CS-71-208, 1971 (the reversed order).
    """
    if not scan:
        return list(range(instance.n_primary))
    cm, types = _cuthill_mckee(instance)
    return list(cm[::-1] if scan == 1 else cm) + list(types)


@lru_cache(maxsize=4)   # both orders and the kernels of a count's choice ask for it (some milliseconds)
def _cuthill_mckee(instance) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The Cuthill-McKee order of :func:`_item_order`'s graph of the primary items of an exact-cover matrix
    (hashable: equal matrices have one order), and the items that partition its options (left out of the
    graph)."""
    n = instance.n_primary
    table = instance.table   # plain arrays (the matrix's numpy views would import numpy for this)
    indptr, indices = table.indptr.tolist(), table.indices.tolist()
    masks = []   # the primary items of each option, as a bit mask
    joined = [0] * n   # item -> the items an option covers with it (itself included), as a bit mask
    for o in range(len(indptr) - 1):
        items = [i for i in indices[indptr[o]:indptr[o + 1]] if i < n]
        m = 0
        for i in items:
            m |= 1 << i
        masks.append(m)
        for i in items:
            joined[i] |= m
    degree = [bin(j).count("1") - 1 if j else 0 for j in joined]
    types = _partition(joined, degree, masks)
    outside = sum(1 << t for t in types)
    seen = outside
    cm: list[int] = []
    for start in sorted(range(n), key=lambda i: (degree[i], i)):   # one part of the graph per start
        if seen >> start & 1:
            continue
        seen |= 1 << start
        head = len(cm)
        cm.append(start)
        while head < len(cm):
            item = cm[head]
            head += 1
            fresh = joined[item] & ~seen
            seen |= fresh
            cm.extend(sorted((i for i in range(n) if fresh >> i & 1), key=lambda i: (degree[i], i)))
    return tuple(cm), tuple(types)


def _partition(joined: list[int], degree: list[int], masks: list[int]) -> list[int]:
    """Items no two of which an option covers together, taken by falling degree, where each option covers
    exactly one of them (``joined``, ``masks``: bit masks as in :func:`_item_order`); else none."""
    taken: list[int] = []
    near = 0
    for i in sorted(range(len(joined)), key=lambda i: (-degree[i], i)):
        if not near >> i & 1:
            taken.append(i)
            near |= joined[i]
    chosen = sum(1 << t for t in taken)
    if taken and all(bin(m & chosen).count("1") == 1 for m in masks):
        return sorted(taken)
    return []


def _typed(instance) -> bool:
    """A polyomino instance (piece types as counters), not an exact-cover matrix."""
    return hasattr(instance.table, "option_type")


def _probes(instance, scan: int) -> int:
    """The probes argument of the kernel's "first" lists for ``instance`` laid out by ``scan`` (see :data:`_PROBES`)."""
    column = _column(tuple(instance.cells), scan) if _typed(instance) and instance.n_cells <= 64 else 0
    return -min(_PROBES_MOST, max(-_PROBES, column + 1))


@lru_cache(maxsize=1024)
def _column(cells: tuple[tuple[int, ...], ...], scan: int) -> int:
    """The most cells of a 2-D region in one column of the raster scan ``scan`` (:func:`_cell_order`: the cells
    sharing the coordinate of the axis that varies slowest); 0 for a region of another dimension."""
    if not cells or len(cells[0]) != 2:
        return 0
    axes = list(zip(*cells))
    column: dict[int, int] = {}
    for x in axes[_scan_axes(axes, scan)[0]]:
        column[x] = column.get(x, 0) + 1
    return max(column.values())


def _cell_order(cells: Sequence[tuple[int, ...]], scan: int = 0) -> list[int]:
    """Cell items in the kernel's scan order: sorted with the axis of the largest extent most significant (the
    short side varies fastest), ascending. On a 2-D grid, ``scan`` 1-7 gives the other seven raster scans of
    the same two axes: bit 0 the major axis descending, bit 1 the minor axis descending, bit 2 the two axes
    swapped (:data:`SCANS`)."""
    return list(_raster(tuple(cells), scan))


@lru_cache(maxsize=1024)
def _raster(cells: tuple[tuple[int, ...], ...], scan: int) -> tuple[int, ...]:
    """:func:`_cell_order`, once per process for each region and scan (a deck's card sides come back)."""
    if not cells:
        return ()
    axes = list(zip(*cells))   # each axis' coordinates
    order = _scan_axes(axes, scan)
    if len(axes) != 2:
        keys = list(zip(*(axes[a] for a in order)))
    else:
        first, second = order
        s1, s2 = (-1 if scan & 1 else 1), (-1 if scan & 2 else 1)
        keys = [(s1 * x, s2 * y) for x, y in zip(axes[first], axes[second])]
    return tuple(sorted(range(len(cells)), key=keys.__getitem__))


def _scan_axes(axes: Sequence[Sequence[int]], scan: int) -> tuple[int, ...]:
    """The axes of a region's cells (``axes``: each axis' coordinates) from the slowest varying to the fastest
    in the raster scan ``scan`` (:func:`_cell_order`): the axis of the largest extent first (the first of
    equal ones), the others in order; on a 2-D grid the two swapped by bit 2 of ``scan``."""
    extent = [max(x) - min(x) for x in axes]
    major = max(range(len(axes)), key=lambda a: (extent[a], -a))
    rest = [a for a in range(len(axes)) if a != major]
    if len(axes) == 2 and scan & 4:
        return (rest[0], major)
    return (major, *rest)


def _neighbours(instance, order, bit, words) -> bytes:
    """Neighbour masks of the cells (one step along one axis), or b"" when some placement is not connected so; in C
    where the kernel is built (its ``neighbour_masks``, every pair of cells compared), without the adjacency."""
    if _bits is not None:
        if not kept(instance, "bitboard_connected", lambda: _connected(instance)):
            return b""
        cells = instance.cells
        return _bits.neighbour_masks(array("q", chain.from_iterable(cells)), len(cells[0]), array("i", order), words)
    adj = _adjacency(instance)
    if adj is None:
        return b""
    masks = []
    for item in order:
        m = 0
        for j in adj[item]:
            m |= 1 << bit[j]
        masks.append(m)
    if words > 1:   # each mask's 64-bit words, the lowest first
        masks = [m >> (64 * w) & 0xFFFFFFFFFFFFFFFF for m in masks for w in range(words)]
    return array("Q", masks).tobytes()   # machine words in the machine's byte order, as the kernel reads them


def _adjacency(instance) -> tuple[tuple[int, ...], ...] | None:
    """The cell items one step along one axis from each cell item; None when some placement is not connected
    by such steps (the dead-region test then does not apply). Made once per instance (:func:`~.cover.kept`)."""
    def make() -> tuple[tuple[int, ...], ...] | None:
        return _cell_adjacency(tuple(instance.cells)) if _connected(instance) else None

    return kept(instance, "bitboard_adjacency", make)


def _connected(instance) -> bool:
    """Whether every placement is connected by steps of one along one axis (else a walled-in cell could still be
    covered, and the dead-region test does not apply)."""
    # a property of its cells' coordinates up to a translation, so of its orientation (a placement's cells are the
    # orientation's moved by the option's offset), checked for each orientation that has a placement
    if _keeps_axis_steps(instance.grid):   # an orientation is connected so exactly when its piece is
        # the types with a placement: those whose run of options is not empty (ExactCoverInstance.type_options)
        return all(_stepwise_connected(instance.type_piece(t).cells)
                   for t, options in enumerate(instance.type_options) if options)
    table = instance.table
    return all(_stepwise_connected(tuple(instance.type_piece(t).orientations(instance.mode)[i]))
               for t, i in set(zip(table.option_type, table.option_orientation)))


@lru_cache(maxsize=16)
def _keeps_axis_steps(grid) -> bool:
    """Whether every symmetry of ``grid`` maps a step of one along one axis onto such a step: its matrices
    (:attr:`~ubongo_cp.grids.Grid.linear`) permute the axes and change their signs (squares, cubes; not the
    hexagons' axial coordinates, whose rotations turn a step along an axis into a diagonal one)."""
    if grid.linear is None:
        return False
    dim = grid.dim
    for m in grid.linear:   # a signed permutation: each row one entry of -1 or 1, in a column of its own
        columns = set()
        for i in range(0, dim * dim, dim):
            row = [j for j in range(dim) if m[i + j]]
            if len(row) != 1 or m[i + row[0]] not in (-1, 1):
                return False
            columns.add(row[0])
        if len(columns) != dim:
            return False
    return True


@lru_cache(maxsize=1024)
def _cell_adjacency(cells: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """The cells (their indices) one step along one axis from each cell; once per process for each region."""
    where = {c: i for i, c in enumerate(cells)}
    dims = len(cells[0]) if cells else 0
    if dims == 2:   # the plane's four steps written out (a region's layout is made for every new region)
        get = where.get
        return tuple(tuple(j for j in (get((x - 1, y)), get((x + 1, y)), get((x, y - 1)), get((x, y + 1)))
                           if j is not None) for x, y in cells)
    adj: list[list[int]] = [[] for _ in cells]
    for i, c in enumerate(cells):
        for a in range(dims):
            for d in (-1, 1):
                j = where.get(c[:a] + (c[a] + d,) + c[a + 1:])
                if j is not None:
                    adj[i].append(j)
    return tuple(map(tuple, adj))


@lru_cache(maxsize=4096)
def _stepwise_connected(shape: tuple[tuple[int, ...], ...]) -> bool:
    """Whether cells (a non-empty tuple of coordinates) are connected by steps of one along one axis; once per
    process for each shape (an orientation: a subset analysis asks for every orientation of 21 pieces).

    A flood over the shape's bounding box as the bits of one integer (one free position after each row, layer,
    ...: a step off the box lands on no cell), every step of every axis at once.
    """
    dims = len(shape[0])
    if dims == 2:   # the plane written out: rows of the second axis, one free position after each
        xs, ys = zip(*shape)
        x0, y0 = min(xs), min(ys)
        width = max(ys) - y0 + 2
        cells = 0
        for x, y in shape:
            cells |= 1 << ((x - x0) * width + y - y0)
        reached, grown = cells & -cells, 0
        while grown != reached:
            grown = reached
            reached = (grown | grown << 1 | grown >> 1 | grown << width | grown >> width) & cells
        return reached == cells
    lows = [min(c[a] for c in shape) for a in range(dims)]
    strides, stride = [], 1
    for a in range(dims):
        strides.append(stride)
        stride *= max(c[a] for c in shape) - lows[a] + 2
    cells = 0
    for c in shape:
        cells |= 1 << sum((x - low) * st for x, low, st in zip(c, lows, strides))
    reached, grown = cells & -cells, 0
    while grown != reached:
        grown = reached
        for st in strides:
            reached |= grown << st | grown >> st
        reached &= cells
    return reached == cells


class BitSearch:
    """One instance's kernel: searches below prefixes, counting in C, solutions on request.

    Parameters
    ----------
    instance : ExactCoverInstance or ExactCoverMatrix
        The instance (:func:`layout`).
    rule : {"first", "mrv"}
        How a level chooses its cell (module docstring).
    prune : bool
        The dead-region test (where the instance allows it).
    cardinality : int, optional
        Only solutions of exactly this many placements (the subset analysis' K).
    memo : bool
        The memo of the ``"first"`` rule while counting (module docstring).

    Raises
    ------
    InputError
        When the kernel cannot take the instance, or for an unknown rule.
    """

    def __init__(self, instance, *, rule: str = "first", prune: bool = True, cardinality: int | None = None,
                 memo: bool = True, scan: int = 0) -> None:
        if rule not in RULES:
            raise InputError(f"unknown bitboard rule {rule!r}; choose one of {', '.join(RULES)}")
        lay = layout(instance, scan)
        self.layout = lay
        self.n_options = len(lay.types)
        nbr = lay.neighbours if prune else b""
        table = instance.table
        self.kernel = _bits.Kernel(lay.words, len(lay.items), lay.n_goal, table.indptr, table.indices, lay.bit_of,
                                   lay.types, lay.lo, lay.hi, RULES[rule], nbr, _FLOOD_CAP if nbr else 0,
                                   -1 if cardinality is None else int(cardinality), _probes(instance, scan))
        pieces = sum(lay.hi)
        self._memo_levels = 0   # the memo's pieces-left bound where the memo may be used (module docstring)
        if rule == "first" and _typed(instance) and sum(h > 1 for h in lay.hi) <= 1:
            self._memo_levels = max(0, pieces - _MEMO_LEFT)
            self._use_memo(memo)
        if rule == "first" and _typed(instance):  # the kernel takes the recursion where the instance allows it
            self.kernel.set_fast(max(0, pieces - _FAST_LEFT))
        self._rows = _Rows(self.kernel.depth)

    def clone(self, *, memo: bool | None = None) -> BitSearch:
        """A kernel of the same instance and settings with a search state of its own (another thread's).

        It shares this kernel's tables (built once: a new :class:`BitSearch` takes some milliseconds,
        a clone microseconds) and starts with an empty memo. ``memo``: the memo on (where the rule allows
        it) or off, as a new kernel with that setting; None: as this kernel.
        """
        twin = object.__new__(BitSearch)
        twin.layout, twin.n_options, twin._memo_levels = self.layout, self.n_options, self._memo_levels
        twin.kernel = self.kernel.clone()
        if memo is not None:
            twin._use_memo(memo)
        twin._rows = _Rows(twin.kernel.depth)
        return twin

    def _use_memo(self, on: bool) -> None:
        """The memo on where the rule allows it (:attr:`_memo_levels`), else off (no table)."""
        if on and self._memo_levels:
            self.kernel.set_memo(0, self._memo_levels, _MEMO_BITS)
        else:
            self.kernel.set_memo(0, -1, 0)

    @property
    def nodes(self) -> int:
        """Placements made since the last :meth:`start`."""
        return self.kernel.nodes

    @property
    def solutions(self) -> int:
        """Solutions found since the last :meth:`start`."""
        return self.kernel.solutions

    @property
    def fixed(self) -> int:
        """Sum over those solutions of 1 + the number of :meth:`start`'s permutations that fix them."""
        return self.kernel.fixed

    @property
    def weighted(self) -> int:
        """Sum over the solutions since the last :meth:`start` of their weight (1 without a restriction)."""
        return self.kernel.weighted

    def start(self, prefix: Sequence[int] = (), perms: bytes = b"", n_perms: int = 0, *, limit: int | None = None,
              restrict: tuple[int, array] | None = None, residual: int = 1) -> bool:
        """Restart below the options of ``prefix`` (placed first); False when they clash (nothing below).

        ``perms``: ``n_perms`` option permutations (int32, each of length n_options) tested at every
        solution for :attr:`fixed`; ``limit``: stop after this many solutions; ``restrict``: (piece
        type, int32 weight per option): that type's placements limited to those of positive weight, a
        solution weighing its placement's weight; a weight equal to ``residual`` means a solution no
        symmetry fixes.
        """
        self.kernel.set_limit(0 if limit is None else int(limit))
        qtype, weights = (-1, b"") if restrict is None else restrict
        return self.kernel.start(array("i", prefix), perms, n_perms, qtype, weights, residual)

    def children(self) -> tuple[int, list[int]]:
        """The first branching below the prefix: (instance item of the cell chosen, options placed there).

        The item is -1 when the prefix is a solution, -2 when nothing lies below it.
        """
        b, options = self.kernel.children()
        return (self.layout.items[b] if b >= 0 else b), options

    def run(self, *, keep: int = 0, deadline: float | None = None, heartbeat: int = DEFAULT_HEARTBEAT,
            sink: list | None = None, stop: Callable[[], bool] | None = None) -> bool:
        """Search to the end (True), the limit, the deadline or ``stop()`` (False); the first ``keep`` solutions
        go to ``sink``.

        The kernel hands back control every ``heartbeat`` nodes even without a deadline: it runs
        without the GIL, and Python sees a Ctrl-C (its signal handlers run) only between two calls.
        ``stop`` is asked then too: a search in a worker thread, which no signal reaches, stops when it
        says so (the driver was interrupted).
        """
        until = self.kernel.nodes + heartbeat
        while True:
            batch = min(keep - len(sink), _MAX_BATCH) if keep and sink is not None else 0
            code, n = self.kernel.step(until, batch, *self._rows.buffers(batch))
            if n and sink is not None:
                sink.extend(self._rows.rows(n))
            if code == _DONE:
                return True
            if code == _LIMIT:
                return False
            if code == _BUDGET:
                if deadline is not None and time.perf_counter() > deadline:
                    return False
                if stop is not None and stop():
                    return False
                until += heartbeat

    def iterate(self, *, heartbeat: int = DEFAULT_HEARTBEAT) -> Iterator[list[int] | None]:
        """Every solution below the prefix (a sorted list of option ids), and ``None`` at each heartbeat."""
        stop = self.kernel.nodes + heartbeat
        batch = 1
        while True:
            code, n = self.kernel.step(stop, batch, *self._rows.buffers(batch))
            yield from self._rows.rows(n)
            if code in (_DONE, _LIMIT):
                return
            if code == _BUDGET:
                yield None
                stop += heartbeat
            else:
                batch = min(2 * batch, _MAX_BATCH)


class _Rows:
    """Output buffers of the kernel (array module, no numpy)."""

    def __init__(self, depth: int) -> None:
        self.depth = depth
        self.size = 0
        self.out = array("i")
        self.lens = array("i")
        self.found = array("q")

    def buffers(self, batch: int):
        if batch > self.size:
            self.size = batch
            self.out = array("i", bytes(4 * batch * self.depth))
            self.lens = array("i", bytes(4 * batch))
            self.found = array("q", bytes(8 * batch))
        return self.out, self.lens, self.found

    def rows(self, n: int) -> list[list[int]]:
        d, out, lens = self.depth, self.out, self.lens
        return [out[r * d:r * d + lens[r]].tolist() for r in range(n)]


def probe_nodes(search: BitSearch, branches: Sequence, probes: int = PROBES, seed: int = 0, total: float = 0.0) -> float:
    """Knuth's estimate [3]_ of the nodes below ``branches`` (a plan's), from ``probes`` random probes of each.

    ``search``: the kernel of the instance; each probe walks its own tree (``probe``: the cells and options
    of the search, the dead-region test), below which the memo of a count would spare some nodes. A rough
    figure (within a factor of about 3 with the default probes, under a millisecond on the pentomino
    boards), enough to tell a count of milliseconds from one of seconds. ``total``: nodes counted already
    (added first).
    """
    weights_of: dict = {}
    for b in branches:
        if search.start(b.prefix, restrict=branch_restriction(search, b, weights_of), residual=b.free_weight):
            total += search.kernel.probe(probes, seed)[0] / probes
    return total


def branch_restriction(search: BitSearch, branch, weights_of: dict):
    """The kernel's restriction of a plan's branch (:meth:`BitSearch.start`'s ``restrict``), or None.

    The restriction (``Branch.restrict``: a piece type and ``{option: transversal}``) goes to the kernel as
    the piece type and int32 option weights: the length of each option's transversal (0: not a
    representative). ``weights_of`` keeps the weights by the restriction's identity, the restriction kept
    alive with them (the branches of one plan share their restrictions).
    """
    restrict = branch.restrict
    if restrict is None:
        return None
    held = weights_of.get(id(restrict))
    if held is None:
        w = array("i", bytes(4 * search.n_options))
        for o, trans in restrict[1].items():
            w[o] = len(trans)
        held = weights_of[id(restrict)] = (restrict, w)
    return restrict[0], held[1]


def stratified_nodes(search: BitSearch, instance, branches: Sequence, leaves: int = _SCAN_LEAVES,
                     probes: int = _SCAN_PROBES, seed: int = 0) -> float:
    """Knuth's estimate of the nodes below ``branches``, stratified: the nodes of the split's cut into about
    ``leaves`` subtrees (:func:`.subtrees.split_branches`) counted, ``probes`` probes below each subtree."""
    from .subtrees import split_branches

    cut: dict = {}
    subtrees = split_branches(search, instance, branches, leaves, cut)
    return probe_nodes(search, [sub.branch for sub in subtrees], probes, seed, float(cut["cut_nodes"]))


def _filled_box(cells: Sequence[tuple[int, ...]]) -> bool:
    """Whether the cells fill the box of their coordinates (on squares a rectangle, on hexagons a parallelogram)."""
    size = 1
    for column in zip(*cells):
        size *= max(column) - min(column) + 1
    return size == len(cells)


def scan_classes(instance) -> list[int]:
    """One scan (0 .. 7, :func:`_cell_order`) of each class of the scans that a symmetry of ``instance`` maps
    onto one another (their searches alike), the default scan 0 first: [0] off a 2-D region. The scans
    across the long side first (4 .. 7) only where both sides are as long. Made once per instance
    (:func:`~.cover.kept`)."""
    cells = instance.cells
    if not cells or len(cells[0]) != 2:
        return [0]
    return list(kept(instance, "bitboard_scan_classes", lambda: _scan_classes(instance)))


def _box_group(instance, square: bool) -> bool:
    """Whether a region of squares has all the symmetries of its box (``square``: a square box, 8; else 4)."""
    return instance.grid.name == "square" and len(instance.region_symmetries) == (8 if square else 4)


def _scan_classes(instance) -> list[int]:
    """:func:`scan_classes` of a 2-D region, made."""
    cells = instance.cells
    # across the short side first where there is one (the narrow front of a rectangle's best scans)
    extent = {max(c[a] for c in cells) - min(c[a] for c in cells) for a in (0, 1)}
    # A region of squares with all the symmetries of its box (4; 8 on a square box: a symmetry of the region maps
    # its box onto itself, and a box has no others), a rectangle or not (8x8 less its centre): one class. These
    # are the reflections of its two axes and their product (and on a square box the swap of the axes, with the
    # products): the reflection of the slow axis maps the cells in the order of scan k onto them in the order of
    # scan k ^ 1 (a raster scan's keys are the signed coordinates), that of the fast axis onto scan k ^ 2's, the
    # swap onto scan k ^ 4's: every scan is an image of scan 0.
    if _box_group(instance, len(extent) == 1):
        return [0]
    scans = range(SCANS if len(extent) == 1 else SCANS // 2)
    orders = [_cell_order(cells, k) for k in scans]
    images = [orders[0]]  # the scans met so far, and their images under every symmetry
    reps = [0]
    perms = instance.cell_perms
    for p in perms:
        images.append([p[i] for i in orders[0]])
    for k in scans[1:]:
        if orders[k] in images:
            continue
        reps.append(k)
        images.append(orders[k])
        images.extend([p[i] for i in orders[k]] for p in perms)
    return reps


class NativeRun(Struct, frozen=False):
    """What :meth:`BitboardBackend.search` found over a symmetry plan.

    Attributes
    ----------
    count : int or fractions.Fraction
        Solutions (weighted by the plan).
    fixed : int or fractions.Fraction
        Sum over all solutions of their stabiliser orders (Burnside), when asked for.
    exhausted : bool
        Every branch searched to the end.
    found : list of (int, list of int)
        The first solutions met: (branch index, option ids).
    tally : dict
        Used-type mask -> solutions (when asked for).
    stats : dict
        ``nodes``, ``branches``, ``timed_out``.
    """

    count: object
    fixed: object
    exhausted: bool
    found: list
    tally: dict
    stats: dict

    def __init__(self, count: object, fixed: object, exhausted: bool, found: list | None = None,
                 tally: dict | None = None, stats: dict | None = None) -> None:
        self.count, self.fixed, self.exhausted = count, fixed, exhausted
        self.found = [] if found is None else found
        self.tally = {} if tally is None else tally
        self.stats = {} if stats is None else stats


#: The kernels built for an instance (by its backend's settings, without a memo table), each never searched
#: itself: the searches run on its clones (same tables, a fresh state and memo). Kept as long as the instance
#: lives (not on the instance: a kernel is not pickled with it): by the instance's id, with a weak reference
#: to it whose callback drops the entry when the instance is freed (what :class:`weakref.WeakKeyDictionary`
#: does; that module's import takes about 0.5 ms of every command's start).
_KERNELS: dict[int, tuple[ref, dict]] = {}


def _kernels_of(instance) -> dict:
    """The kernels kept for ``instance`` (:data:`_KERNELS`), by settings; raises TypeError for an object
    without weak references."""
    key = id(instance)
    entry = _KERNELS.get(key)
    if entry is None or entry[0]() is not instance:

        def forget(gone: ref) -> None:   # only this entry: a later instance may hold the id
            if _KERNELS.get(key, (None,))[0] is gone:
                del _KERNELS[key]

        entry = _KERNELS[key] = (ref(instance, forget), {})
    return entry[1]


class BitboardBackend(Struct, frozen=False):
    """Exact-cover backend running the bitboard kernel (see the module docstring).

    Follows the :class:`~ubongo_cp.solvers.base.Backend` protocol (``run``: every solution through a
    callback) and counts natively (``search``: the driver's path when no solution needs Python).

    Attributes
    ----------
    name : str
        Registered name.
    rule : {"first", "mrv"}
        Cell choice.
    prune : bool
        The dead-region test.
    heartbeat : int
        Nodes between two time-limit checks.
    cardinality : int, optional
        Only covers of exactly this many placements (the subset analysis).
    memo : bool
        The memo of the ``"first"`` rule while counting (module docstring).
    scan : int
        The raster scan of a 2-D region, 0 .. 7 (module docstring, "Scan"; 0: along the longest
        axis, the short side fastest); on an exact-cover matrix, its items as given (0) or in one of
        two orders of its item graph (1, 2); :meth:`BitboardBackend.scanned` chooses it for a large count.

    Notes
    -----
    ``stats`` holds ``nodes`` (placements made, see the module docstring), ``solutions_seen`` and, on a
    time-out, ``timed_out``.
    """

    name: str
    rule: str
    prune: bool
    heartbeat: int
    cardinality: int | None
    memo: bool
    scan: int

    def __init__(self, name: str = "bitboard", rule: str = "first", prune: bool = True,
                 heartbeat: int = DEFAULT_HEARTBEAT, cardinality: int | None = None, memo: bool = True,
                 scan: int = 0) -> None:
        self.name, self.rule, self.prune, self.heartbeat = name, rule, prune, heartbeat
        self.cardinality, self.memo, self.scan = cardinality, memo, scan

    def _search(self, instance, *, memo: bool | None = None) -> BitSearch:
        """A kernel of ``instance`` with this backend's settings, in a state of its own: a clone of the one kept
        for the instance and settings (:data:`_KERNELS`; a clone takes microseconds, a new kernel some
        milliseconds), the first one built. ``memo``: its memo on or off (default: this backend's setting)."""
        settings = (self.rule, self.prune, self.cardinality, self.scan)
        try:
            kernels = _kernels_of(instance)
        except TypeError:   # an object without weak references: a new kernel each time
            kernels = {}
        base = kernels.get(settings)
        if base is None:   # kept without a memo table (some megabytes): each clone makes its own
            base = kernels[settings] = BitSearch(instance, rule=self.rule, prune=self.prune,
                                                 cardinality=self.cardinality, memo=False, scan=self.scan)
        return base.clone(memo=self.memo if memo is None else memo)

    def small_kernel(self, instance) -> BitSearch:
        """A kernel of ``instance`` for a small tree (:func:`.base.small_search`): the memo off, whose table's
        pages cost more than it spares there (3x20 by the pentominoes, V restricted, the first count in a process:
        1.8 ms in 21,608 nodes with it, 1.5 ms in 27,463 without)."""
        return self._search(instance, memo=False)

    def memo_copies(self, instance) -> bool:
        """Whether this backend's count of ``instance`` takes its memo while a piece type has copies: the ``"first"``
        rule with the memo on and no cardinality, on pieces and a region that :func:`.fixed.applies` to (not an
        exact-cover matrix: it has no piece types). The count up to symmetry then comes from each symmetry's fixed
        points (:mod:`.fixed`), not from testing the solutions, which rules the memo out."""
        if self.rule != "first" or not self.memo or self.cardinality is not None or \
                max(getattr(instance, "copies", ()), default=1) == 1:   # no piece type with copies
            return False
        from .fixed import applies

        return applies(instance)

    def scanned(self, instance, branches: Sequence, *, scans: bool = True,
                budget: float | None = None) -> tuple[BitboardBackend, BitSearch | None]:
        """This backend with the raster scan of the region, or the cell-choice rule, whose search Knuth's
        estimate finds smallest, and the kernel of that choice built on the way (None: none built; hand it
        to :meth:`search`).

        Only for a large search (module docstring, "Scan") with the ``"first"`` rule: on a 2-D region whose
        scans are not all alike by its symmetries, each scan (with ``scans``: a count), and on the region
        (or on cubes) the ``"mrv"`` rule, its nodes weighed :data:`_MRV_COST` times; else ``self``. Without
        ``budget`` the choice is deterministic (seeded probes), so every worker of a split count, and a
        resumed one, searches the same tree. ``budget`` (seconds, for a search under a time limit): no
        candidate's estimate is begun that would end after the choice has taken that long (each taken to
        last as long as the longest one made so far), and the choice is the best of those estimated.
        """
        if self.rule != "first" or self.scan:
            return self, None
        typed = _typed(instance)   # else an exact-cover matrix: its items in the order given, or two orders of
        # its item graph (_item_order)
        candidates = (scan_classes(instance) if typed else [0, 1, 2]) if scans else [0]
        if typed and len(instance.cells[0]) == 2 and \
                (len(candidates) < 2 if scans else _filled_box(instance.cells)):
            return self, None   # a rectangle: its scans are alike, and the first empty cell is its best rule
        began = time.perf_counter()
        end = None if budget is None else began + budget
        longest = 0.0  # the longest estimate of one candidate so far (seconds)

        def affordable() -> bool:
            return end is None or time.perf_counter() + longest <= end

        base = self._search(instance)
        gate = _SCAN_NODES if typed else _MATRIX_SCAN_NODES
        # a first look with an eighth of the probes: a small tree (a subset analysis, a card) is seldom
        # estimated at a sixteenth of the gate, and its search takes less than the full gate's probes
        if probe_nodes(base, branches, _SCAN_GATE // 8) < gate / 16 or \
                probe_nodes(base, branches, _SCAN_GATE) < gate or not affordable():
            return self, base
        took = time.perf_counter()
        best, least, kernel = self, stratified_nodes(base, instance, branches), base
        longest = time.perf_counter() - took
        for k in candidates[1:]:
            if not affordable():
                return best, kernel
            took = time.perf_counter()
            other = replace(self, scan=k)
            search = other._search(instance)
            nodes = stratified_nodes(search, instance, branches)
            longest = max(longest, time.perf_counter() - took)
            if nodes < least:
                best, least, kernel = other, nodes, search
        if not affordable():
            return best, kernel
        mrv = replace(self, rule="mrv")
        search = mrv._search(instance)
        if stratified_nodes(search, instance, branches, _MRV_LEAVES, _MRV_PROBES) * _MRV_COST < least:
            best, kernel = mrv, search
        return best, kernel

    def counter(self, instance, kernel: BitSearch | None) -> tuple[object, BitSearch | None]:
        """The backend that runs the count :meth:`scanned` chose, and its kernel: on an exact-cover matrix
        whose most constrained item's tree was chosen, the dancing-cells kernel
        (:class:`.dlx.DancingCount`, counting in C too), whose lists keep each item's options at hand
        where this kernel looks them over at every node (on the pentominoes in 6x10 written row by row,
        2.5 s against 3.8 s); else this backend and ``kernel``. Only for a count of the whole instance."""
        if not self._dances(instance):
            return self, kernel
        from .dlx import DancingCount

        return DancingCount(), None

    def enumerator(self, instance) -> object:
        """The backend that hands on every solution (``run``) on the choice :meth:`scanned` made: on an
        exact-cover matrix whose most constrained item's tree was chosen, the dancing-cells kernel
        (:class:`.dlx.DancingBackend`; its first solutions those :meth:`counter`'s count keeps); else this
        backend."""
        if not self._dances(instance):
            return self
        from .dlx import DancingBackend

        return DancingBackend(heartbeat=self.heartbeat)

    def _dances(self, instance) -> bool:
        """Whether :meth:`counter` and :meth:`enumerator` hand ``instance`` to the dancing-cells kernel: an
        exact-cover matrix on the most constrained item's rule, the kernel compiled."""
        if self.rule != "mrv" or _typed(instance):
            return False
        from .dancing import KERNEL

        return KERNEL == "c"

    def estimate(self, instance) -> float:
        """Knuth's estimate of the nodes of a plain count of ``instance``, stratified (:func:`stratified_nodes`,
        the whole instance as one branch): whether a count takes milliseconds or hours, in 1-6 ms.

        Stratified rather than plain probes (:func:`probe_nodes`), whose figure spreads too widely where
        pieces have copies: 64 probes put the 17 million nodes of 24 L pentominoes in 10x12 at 30,000 to
        2.3 million by their seed, the stratified estimate at 7.4 million. Made once per instance and backend
        settings (:func:`~.cover.kept`): the default count's diagram gate and its small-search test
        (:func:`.base.small_search`) both ask for it.
        """
        from .branch import whole_branch

        def make() -> float:
            n_sym = instance.n_option_perms if len(instance.region_symmetries) > 1 else 0
            # on a clone without a memo table: the cut and the probes do not search with it
            return stratified_nodes(self._search(instance, memo=False), instance, [whole_branch(n_sym, n_sym > 0)])

        return kept(instance, ("bitboard_estimate", self.rule, self.prune, self.cardinality, self.scan), make)

    def quick_estimate(self, instance, n_sym: int, probes: int) -> float:
        """Knuth's plain estimate (:func:`probe_nodes`, ``probes`` seeded probes) of the nodes of the whole search
        of ``instance``, every one of its ``n_sym`` symmetries besides the identity tested: tens of
        microseconds on a card, whether a symmetry plan is worth making (the kernel built on the way is the
        one the search then clones). The probes' kernel has no memo table (a probe does not model the memo:
        its table, some hundreds of kilobytes to fill, would go unused)."""
        from .branch import whole_branch

        return probe_nodes(self._search(instance, memo=False), [whole_branch(n_sym, n_sym > 0)], probes)

    def run(self, instance, on_solution, *, time_limit=None, first_only=False):
        """Enumerate the instance's solutions (backend protocol)."""
        deadline = None if time_limit is None else time.perf_counter() + float(time_limit)
        s = self._search(instance)
        s.start(limit=1 if first_only else None)
        found = 0
        for options in s.iterate(heartbeat=self.heartbeat):
            if options is not None:
                found += 1
                if not on_solution(options):
                    return False, {"nodes": s.nodes, "solutions_seen": found}
            if deadline is not None and time.perf_counter() > deadline:
                return False, {"nodes": s.nodes, "solutions_seen": found, "timed_out": True}
        exhausted = not (first_only and found)
        return exhausted, {"nodes": s.nodes, "solutions_seen": found}

    def search(self, instance, branches=None, *, limit: int | None = None, keep: int = 0,
               time_limit: float | None = None, tally: bool = False, kernel: BitSearch | None = None,
               stop: Callable[[], bool] | None = None) -> NativeRun:
        """Count below every branch of a plan (:class:`~ubongo_cp.solvers.orbits.Branch`), in C.

        ``branches`` default to one branch, the whole instance, testing every symmetry of the instance
        for the Burnside sum. A branch's solutions count ``weight`` (times their restricted placement's
        weight) each; ``limit`` stops after that many solutions found (branches in order); the first
        ``keep`` solutions found are handed back. ``kernel``: this backend's :class:`BitSearch` of
        ``instance`` when one is at hand (building one takes some milliseconds). ``stop``: asked at each
        heartbeat (:meth:`BitSearch.run`); True ends the search, not exhausted.
        """
        from .branch import whole_branch

        deadline = None if time_limit is None else time.perf_counter() + float(time_limit)
        s = self._search(instance) if kernel is None else kernel
        if tally or kernel is not None:
            s.kernel.set_tally(tally)
        # each symmetry's option permutation as the kernel takes it (int32 bytes), made once per instance
        perm_rows = instance.option_perm_rows
        if branches is None:
            branches = [whole_branch(len(perm_rows))]
        tests: dict[tuple[int, ...], bytes] = {}
        weights_of: dict = {}
        count = fixed = 0
        nodes = found_total = 0
        found: list = []
        exhausted = True
        timed_out = False
        for index, branch in enumerate(branches):
            left = None if limit is None else limit - found_total
            if left is not None and left <= 0:
                exhausted = False
                break
            perms = tests.get(branch.test)
            if perms is None:
                perms = tests[branch.test] = b"".join(perm_rows[g] for g in branch.test)
            restrict = branch_restriction(s, branch, weights_of)  # the subtrees of a branch share it: made once
            if not s.start(branch.prefix, perms, len(branch.test), limit=left, restrict=restrict,
                           residual=branch.free_weight):
                continue
            sink: list = []
            done = s.run(keep=max(0, keep - len(found)), deadline=deadline, heartbeat=self.heartbeat, sink=sink,
                         stop=stop)
            found.extend((index, row) for row in sink)
            nodes += s.nodes
            found_total += s.solutions
            count += branch.weight * s.weighted
            fixed += branch.weight * s.fixed
            if not done or (deadline is not None and time.perf_counter() > deadline and index + 1 < len(branches)):
                exhausted = False
                timed_out = deadline is not None and time.perf_counter() > deadline
                break
        counts = s.kernel.tally() if tally else {}
        stats = {"nodes": nodes, "solutions_seen": found_total}
        if timed_out:
            stats["timed_out"] = True
        return NativeRun(count, fixed, exhausted, found, counts, stats)
