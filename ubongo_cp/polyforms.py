"""Polyforms on any grid by Redelmeier's algorithm on the grid's cell graph: fixed, free, one-sided, mirror.

A *polyform* is a connected set of ``n`` cells of a grid
(:mod:`ubongo_cp.grids`): a polyomino, polyhex, polyiamond or polycube.
Every *fixed* polyform (one per translation class) is a leaf of
Redelmeier's search tree [1]_, grown from the grid's cell graph
(:meth:`~ubongo_cp.grids.Grid.neighbours`): a polyform is generated from its
least cell (in the order of cell tuples) with every other cell after it, so
each translation class appears once per class of cells under translation
(:attr:`~ubongo_cp.grids.Grid.origins`: one but for triangles, whose least
cell points up or down). Classes under an orientation mode (free,
one-sided; on cubes mirror) are counted by mapping every fixed polyform to
the least of its images under the mode's symmetries, computed for all of
them at once with numpy (:meth:`~ubongo_cp.grids.Grid.least_images`).

The census of regions (:mod:`ubongo_cp.census`) enumerates through
:func:`census_polyforms` on every grid; on squares it runs
:mod:`ubongo_cp.polyominoes`, the same search compiled and sharded by its
own tree (both enumerations agree, tests), on the other grids the free
polyforms above dealt round robin to the shards. A box (only polyforms whose
text picture fits it) cuts the search at its edge on every grid.

References
----------
.. [1] D. H. Redelmeier, "Counting polyominoes: yet another attack",
   *Discrete Mathematics* 36 (1981), 191-203.
.. [2] OEIS: fixed polyominoes A001168, free A000105; fixed polyhexes
   A001207, one-sided A006535, free A000228; fixed polyiamonds A001420,
   one-sided A006534, free A000577; fixed polycubes A001931, free with
   mirror images distinct A000162, mirror images identified A038119.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Iterator

import numpy as np

from .errors import InputError
from .grids import Grid, get_grid
from .grids.base import Shape

__all__ = ["fixed_polyforms", "count_polyforms", "free_polyforms", "census_polyforms", "count_census_classes",
           "holes_of", "fits_box", "MAX_POLYFORM_CELLS"]

#: Largest ``n`` accepted: the enumeration holds every fixed polyform in memory to classify them.
MAX_POLYFORM_CELLS = 12

#: Most fixed polyforms one enumeration holds in memory (about 1 kB and 10 µs each), checked against Knuth's
#: estimate of them before it starts: 12 hexagons (8.2 million) or 10 cubes (8.3 million) are refused unless a
#: box leaves fewer.
MAX_FIXED_POLYFORMS = 1_000_000


def fixed_polyforms(grid: str | Grid, n: int) -> Iterator[Shape]:
    """Every fixed polyform of ``n`` cells on ``grid``, once each, in normal position (Redelmeier).

    Parameters
    ----------
    grid : str or Grid
        ``"square"``, ``"hex"``, ``"triangle"``, ``"cube"`` or a grid.
    n : int
        Cells, ``1 <= n``.

    Yields
    ------
    Shape

    Raises
    ------
    InputError
        For an unknown grid or ``n < 1``.

    Notes
    -----
    O(1) set operations per node of the search tree, O(n) memory; the tree
    has about as many nodes as there are fixed polyforms of ``n`` cells.

    Examples
    --------
    >>> [sum(1 for _ in fixed_polyforms("hex", n)) for n in range(1, 6)]  # OEIS A001207
    [1, 3, 11, 44, 186]
    """
    grid = get_grid(grid)
    if n < 1:
        raise InputError(f"a polyform needs at least 1 cell, got n = {n}")
    for s in _fixed_array(grid, n).tolist():
        yield tuple(map(tuple, s))


@lru_cache(maxsize=8)
def _fixed_array(grid: Grid, n: int, box: tuple[int, int] | None = None) -> np.ndarray:
    """Every fixed polyform of ``n`` cells as an int array (N, n, dim), each in normal position, cells sorted.

    With ``box``, only those whose text picture fits it either way round (:func:`fits_box`). Cached (the last
    few ``(grid, n, box)``), read-only. Refused (InputError) when Knuth's estimate of them exceeds
    :data:`MAX_FIXED_POLYFORMS`.
    """
    estimate = _estimate_fixed(grid, n, box)
    if estimate > MAX_FIXED_POLYFORMS:
        within = "" if box is None else f" within {box[0]}x{box[1]}"
        raise InputError(f"about {estimate:.1e} fixed polyforms of {n} cells on the {grid.name} grid{within}: more "
                         f"than the {MAX_FIXED_POLYFORMS:,} one enumeration holds in memory; give fewer cells or a "
                         f"smaller box")
    leaves: list = []
    _redelmeier(grid, n, leaves.append, box)
    if not leaves:
        return np.zeros((0, n, grid.dim), dtype=np.int64)
    shapes = grid.map_array(np.array(leaves, dtype=np.int64), 0)
    code = np.zeros(shapes.shape[:2], dtype=np.int64)
    for axis in range(grid.dim):
        code = code * (4 * n + 4) + shapes[:, :, axis]
    shapes = np.take_along_axis(shapes, np.argsort(code, axis=1)[:, :, None], axis=1)
    shapes.flags.writeable = False
    return shapes


def count_polyforms(grid: str | Grid, n: int, mode: str | None = "free", *,
                    box: tuple[int, int] | None = None) -> int:
    """How many polyforms of ``n`` cells ``grid`` has, fixed (``mode=None``) or up to ``mode``'s symmetries.

    Parameters
    ----------
    grid : str or Grid
    n : int
        Cells, ``1 <= n <= MAX_POLYFORM_CELLS``.
    mode : str or None
        An orientation mode of the grid (:attr:`~ubongo_cp.grids.Grid.modes`:
        ``"free"``, ``"one-sided"``, on cubes ``"mirror"``) or None for fixed
        polyforms (translations only).
    box : (int, int), optional
        Only those that fit ``rows x cols`` (as in :func:`free_polyforms`).

    Raises
    ------
    InputError
        For an unknown grid or mode, or ``n`` out of range.

    Examples
    --------
    >>> [count_polyforms("triangle", n) for n in range(1, 9)]  # OEIS A000577
    [1, 1, 1, 3, 4, 12, 24, 66]
    >>> [count_polyforms("cube", n, "mirror") for n in range(1, 6)]  # OEIS A038119
    [1, 1, 2, 7, 23]
    """
    return len(free_polyforms(grid, n, mode, box=box))


def free_polyforms(grid: str | Grid, n: int, mode: str | None = "free", *,
                   box: tuple[int, int] | None = None) -> list[Shape]:
    """One shape per polyform of ``n`` cells up to ``mode``: its canonical form (:meth:`Grid.canonical`).

    Parameters
    ----------
    grid, n, mode
        As in :func:`count_polyforms`.
    box : (int, int), optional
        Only polyforms with an image under ``mode``'s symmetries whose text picture fits ``rows x cols``
        either way round (:func:`fits_box` for the whole group); the search grows no polyform beyond it.

    Returns
    -------
    list of Shape
        Canonical forms (:meth:`Grid.canonical`), sorted by text size, then cells.

    Raises
    ------
    InputError
        For an unknown grid or mode, or ``n`` out of range.

    Examples
    --------
    >>> [len(s) for s in free_polyforms("hex", 3)], len(free_polyforms("hex", 4))
    ([3, 3, 3], 7)
    >>> len(free_polyforms("hex", 4, box=(2, 3))), len(free_polyforms("hex", 4, box=(1, 4)))  # of 7 tetrahexes
    (6, 2)
    """
    grid = get_grid(grid)
    if not 1 <= n <= MAX_POLYFORM_CELLS:
        raise InputError(f"n must be 1..{MAX_POLYFORM_CELLS} (every fixed polyform is held in memory), got {n}")
    problem = None if mode is None else grid.mode_problem(mode)
    if problem:
        raise InputError(problem)
    if box is not None:
        box = (min(box), max(box))   # either way round: one cache entry
    shapes = _fixed_array(grid, n, box)
    if mode is None:
        return sorted((tuple(map(tuple, s)) for s in shapes.tolist()), key=lambda s: (grid.text_size(s), s))
    keys, _ = grid.least_images(shapes, grid.modes[mode])
    _, first = np.unique(keys, axis=0, return_index=True)
    return sorted(grid.canonical_many(shapes[first], mode), key=lambda s: (grid.text_size(s), s))


def _redelmeier(grid: Grid, n: int, leaf, box: tuple[int, int] | None = None) -> None:
    """Redelmeier's search ([1]_, section 3) from each origin; calls ``leaf(cells)`` (a tuple) at every leaf.

    The *untried set* of a node is a list; a child gets the cells after the
    one it placed, then that cell's new neighbours (cells after the origin,
    not in the polyform nor next to it). A cell stays *seen* until the level
    that added it is left: this makes each fixed polyform appear once.
    With ``box``, a node whose text picture fits it neither way round is cut
    with its subtree (a picture only grows with the cells, as on squares in
    :mod:`ubongo_cp.polyominoes`).
    """
    fits = None if box is None else (lambda cells: _size_fits(grid.text_size(cells), box))
    for origin in grid.origins:
        _grow_from(grid.neighbours, origin, n, leaf, fits)


def _estimate_fixed(grid: Grid, n: int, box: tuple[int, int] | None = None, probes: int = 1000,
                    seed: int = 0) -> float:
    """Knuth's estimate of the leaves of :func:`_redelmeier`'s tree (the fixed polyforms it would yield).

    ``probes`` random paths from each origin, each child chosen with equal probability; the product of the
    branching degrees along a path that reaches ``n`` cells is an unbiased estimate of the leaves (D. E. Knuth,
    "Estimating the efficiency of backtrack programs", *Math. Comp.* 29, 1975). Seeded: the same estimate
    every time.
    """
    rng = random.Random(seed)
    fits = None if box is None else (lambda cells: _size_fits(grid.text_size(cells), box))
    total = 0.0
    for origin in grid.origins:
        for _ in range(probes):
            cells: list = []
            seen = {origin}
            untried = [origin]
            weight = 1.0
            while True:
                choices = [i for i, cell in enumerate(untried) if fits is None or fits(cells + [cell])]
                if not choices:
                    weight = 0.0
                    break
                i = rng.choice(choices)
                weight *= len(choices)
                cells.append(untried[i])
                if len(cells) == n:
                    break
                new = [nb for nb in grid.neighbours(untried[i]) if nb > origin and nb not in seen]
                seen.update(new)
                untried = untried[i + 1:] + new
            total += weight
    return total / probes


def _grow_from(neighbours, origin, n: int, leaf, fits=None) -> None:
    """Redelmeier's search of the fixed polyforms of ``n`` cells whose least cell is ``origin``.

    ``fits(cells)``, if given, is false for a node whose subtree holds nothing wanted.
    """
    seen = {origin}
    cells: list = []

    def grow(untried: list, size: int) -> None:
        last = size + 1 == n
        for i, cell in enumerate(untried):
            cells.append(cell)
            if fits is not None and not fits(cells):
                cells.pop()
                continue
            if last:
                leaf(tuple(cells))
            else:
                new = [nb for nb in neighbours(cell) if nb > origin and nb not in seen]
                seen.update(new)
                grow(untried[i + 1:] + new, size + 1)
                seen.difference_update(new)
            cells.pop()

    grow([origin], 0)


def holes_of(grid: Grid, cells) -> int:
    """Holes of a shape: the components of empty cells it encloses (not connected to the outside).

    Examples
    --------
    >>> ring = [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]   # six hexagons round an empty one
    >>> holes_of(get_grid("hex"), ring), holes_of(get_grid("hex"), ring[:-1])
    (1, 0)
    """
    cells = {tuple(c) for c in cells}
    empty = set(grid.frame(cells, 2)) - cells
    parts = 0
    while empty:
        todo = [empty.pop()]
        parts += 1
        while todo:
            for nb in grid.neighbours(todo.pop()):
                if nb in empty:
                    empty.discard(nb)
                    todo.append(nb)
    return parts - 1


def fits_box(grid: Grid, shape, box: tuple[int, int] | None) -> bool:
    """True when the text picture (:meth:`Grid.text_size`, rows by columns) of some image of the shape under
    the grid's symmetries fits ``box`` either way round.

    A region counts up to symmetry, so it fits when any of its orientations does: on hexagons and
    triangles a turn by 60 or 120 degrees changes the picture's rows and columns, not only a swap.

    Examples
    --------
    >>> from ubongo_cp.grids import HEX
    >>> bar = ((0, 0), (0, 1), (0, 2))   # three hexagons in a line down the rows: a 3x2 picture
    >>> HEX.text_size(bar), fits_box(HEX, bar, (1, 3))   # turned by 60 degrees: one row of three
    ((3, 2), True)
    """
    if box is None:
        return True
    return any(_size_fits(grid.text_size(image), box) for image in grid.orientations(shape, grid.every_mode))


def _size_fits(size: tuple[int, ...], box: tuple[int, int]) -> bool:
    """Whether a text picture of ``size`` (its last two: rows, columns) fits ``box`` either way round."""
    rows, cols = size[-2:]
    return (rows <= box[0] and cols <= box[1]) or (rows <= box[1] and cols <= box[0])


def census_polyforms(grid: str | Grid, n: int, *, holes: bool = False, box: tuple[int, int] | None = None,
                     shard: tuple[int, int, int] | None = None) -> Iterator[tuple[Shape, int, int]]:
    """The regions of a census: each free polyform of ``n`` cells once, with its symmetry order and holes.

    Parameters
    ----------
    grid : str or Grid
    n : int
        Cells.
    holes : bool
        Also polyforms with holes (default: hole-free only).
    box : (int, int), optional
        Only those whose text picture fits ``rows x cols`` either way.
    shard : (index, count, depth), optional
        Only this part of the enumeration (the parts are disjoint and make
        up the whole): on squares the subtrees of Redelmeier's tree at
        ``depth`` (:class:`ubongo_cp.polyominoes.Shard`), elsewhere every
        ``count``-th polyform from ``index``.

    Yields
    ------
    (Shape, int, int)
        The canonical form (:meth:`Grid.canonical`), the size of its
        stabiliser in the grid's symmetry group, its holes.

    Raises
    ------
    InputError
        For an unknown grid, ``n`` out of range or a bad shard.
    """
    grid = get_grid(grid)
    if grid.name == "square":   # the compiled, tree-sharded enumeration of the same polyforms
        from .polyominoes import Shard, free_polyominoes

        yield from free_polyominoes(n, holes=holes, box=box, shard=None if shard is None else Shard(*shard),
                                    data=True)
        return
    index, count = (0, 1) if shard is None else shard[:2]
    if not 0 <= index < count:
        raise InputError(f"shard index {index} is not in 0..{count - 1}")
    for j, shape in enumerate(free_polyforms(grid, n, box=box)):
        if j % count != index:
            continue
        n_holes = holes_of(grid, shape)
        if n_holes and not holes:
            continue
        yield shape, len(grid.symmetry_group(shape)), n_holes


def count_census_classes(grid: str | Grid, n: int, *, holes: bool = False, box: tuple[int, int] | None = None,
                         shard: tuple[int, int, int] | None = None) -> dict[tuple[int, int, int, int], int]:
    """What :func:`census_polyforms` yields, tallied by ``(rows, cols, symmetry order, holes)``.

    On squares the compiled counter (:func:`ubongo_cp.polyominoes.count_polyominoes`).

    Examples
    --------
    >>> count_census_classes("hex", 3)
    {(2, 2, 2, 0): 1, (2, 2, 6, 0): 1, (3, 2, 4, 0): 1}
    """
    grid = get_grid(grid)
    if grid.name == "square":
        from .polyominoes import Shard, count_polyominoes

        return count_polyominoes(n, holes=holes, box=box, shard=None if shard is None else Shard(*shard),
                                 by_class=True)
    tally: dict[tuple[int, int, int, int], int] = {}
    for shape, order, n_holes in census_polyforms(grid, n, holes=holes, box=box, shard=shard):
        size = grid.text_size(shape)
        key = (size[-2], size[-1], order, n_holes)
        tally[key] = tally.get(key, 0) + 1
    return dict(sorted(tally.items()))
