"""The triangle grid: polyiamonds (Ubongo Trigo), cells pointing up and down.

Conventions:

- a cell is ``(row, col)``, row 0 at the top; the triangles of a row
  alternate, and ``(row, col)`` points *up* (apex at the top) when
  ``row + col`` is even, *down* otherwise. Its left end lies at
  ``x = col / 2`` (side length 1), so ``(row, col)`` and ``(row + 1, col)``
  share the base of the up one of the two;
- neighbours: ``(row, col - 1)`` and ``(row, col + 1)``, and
  ``(row + 1, col)`` below an up triangle or ``(row - 1, col)`` above a
  down one;
- a translation must keep up triangles up: ``(dr, dc)`` with ``dr + dc``
  even. Normal position: smallest row 0 and smallest column 0, or 1 when
  the leftmost cell of the shape needs an odd column;
- the 12 symmetries of the triangular lattice, the rotations by 60 degrees
  first, are those of the hexagon grid (:func:`.hex.axial_image`) acting on
  three times each triangle's centre in axial lattice coordinates
  (``_to_axial``); free pieces use all 12, one-sided ones the 6 rotations;
- text: one character per cell, ``^`` an up triangle, ``v`` a down one,
  ``.`` or a space none; the picture's first triangle fixes which cells
  point up (directions alternate along a row and from one row to the
  next: under an up triangle lies a down one), and a later ``^`` where
  that puts a down triangle (or the reverse) is refused. The hexagon of 6 is ``"^v^"`` over ``"v^v"``;
- drawing: side length 1; row ``r`` spans ``y`` in
  ``[r, r + 1] * sqrt(3) / 2``.

This is the layout of BurrTools' triangular-prism grid in one layer
(:mod:`ubongo_cp.burrtools`): there a triangle ``(x, y)`` points up when
``x + y`` is even, with ``y`` upwards.

References
----------
.. [1] S. W. Golomb, *Polyominoes*, 2nd ed. (1994), ch. 9 (polyiamonds);
   OEIS A000577 (free) and A001420 (fixed polyiamonds).
"""

from __future__ import annotations

import math
from functools import lru_cache
from collections.abc import Iterable, Sequence

from ..errors import InputError
from .base import Cell, Colouring, Grid, Shape, image_keys, side_by_side
from .hex import AXIAL_MATRICES, HEX, HexGrid
from .square import SQUARE

TYPE_CHECKING = False

if TYPE_CHECKING:
    import numpy as np

__all__ = ["TriangleGrid", "TRIANGLE", "is_up", "hexagon_triangles", "as_hexagons"]

_H = math.sqrt(3) / 2                       # height of a row
_UP = ((0.5, 0.0), (1.0, _H), (0.0, _H))      # apex, base right, base left
_DOWN = ((0.0, 0.0), (1.0, 0.0), (0.5, _H))   # top left, top right, bottom


def is_up(cell: Cell) -> bool:
    """True for a triangle pointing up (``row + col`` even).

    Examples
    --------
    >>> is_up((0, 0)), is_up((0, 1)), is_up((1, 1))
    (True, False, True)
    """
    return (cell[0] + cell[1]) % 2 == 0


def _to_axial(cell: Cell) -> tuple[int, int]:
    """Three times the triangle's centre in axial lattice coordinates (an integer point).

    The lattice's vertex (0, 0) is the apex of the up triangle (0, 0); its
    basis vectors point right and down-right (60 degrees), as the hexagon
    grid's axial ``q`` and ``r``.
    """
    r, c = cell
    if (r + c) % 2 == 0:
        return (3 * (c - r) // 2 - 1, 3 * r + 2)
    return (3 * (c - r - 1) // 2 + 1, 3 * r + 1)


def _from_axial(point: tuple[int, int]) -> Cell:
    a, b = point
    if b % 3 == 2:
        r = (b - 2) // 3
        return (r, 2 * (a + 1) // 3 + r)
    r = (b - 1) // 3
    return (r, 2 * (a - 1) // 3 + r + 1)


#: Three times the centres of the 6 triangles round a lattice vertex, less three times the vertex (axial).
_AROUND = ((1, 1), (-1, 2), (-2, 1), (-1, -1), (1, -2), (2, -1))


def hexagon_triangles(h: tuple[int, int]) -> list[Cell]:
    """The 6 triangles of the hexagon that stands for the hex ``h = (q, r)`` (a hexagon of 6 triangles).

    The hexagons round the lattice vertices ``(q - r, q + 2r)`` tile the
    plane like the hex grid's cells, neighbours for neighbours (BurrTools
    models polyhexes so, on its triangular-prism grid); they are flat-topped,
    the hex grid's pointy-topped: the map turns the plane by 30 degrees.

    Examples
    --------
    >>> TRIANGLE.normalize(hexagon_triangles((0, 0))) == TRIANGLE.parse(["^v^", "v^v"])
    True
    """
    q, r = h
    a, b = 3 * (q - r), 3 * (q + 2 * r)
    return [_from_axial((a + da, b + db)) for da, db in _AROUND]


def as_hexagons(cells: Iterable[Cell]) -> Shape | None:
    """The hexes whose hexagons (:func:`hexagon_triangles`) make up ``cells`` after a translation (in normal
    position), or None if none do.

    Every triangle has one corner in each of the three classes of lattice
    vertices that centre a tiling by hexagons; the cells are hexagons of
    one of those tilings, or not.

    Examples
    --------
    >>> as_hexagons(TRIANGLE.parse(["^v^", "v^v"])), as_hexagons([(0, 0), (0, 1)])
    (((0, 0),), None)
    """
    cells = {tuple(c) for c in cells}
    if not cells or len(cells) % 6:
        return None
    corners = []
    for cell in cells:
        a, b = _to_axial(cell)
        corners.append([((a - da) // 3, (b - db) // 3) for da, db in _AROUND if (a - da) % 3 == 0 == (b - db) % 3])
    for t in range(3):
        centres = {v for vs in corners for v in vs if (v[0] - v[1]) % 3 == t}
        if len(centres) * 6 != len(cells):
            continue
        moved = [(v[0] - t, v[1]) for v in centres]        # a translation of the lattice onto class 0
        hexes = [((v[0] + (v[1] - v[0]) // 3), (v[1] - v[0]) // 3) for v in moved]
        shift = (-t, 0)
        if all(tuple(_shift_cell(c, shift)) in cells for h in hexes for c in hexagon_triangles(h)):
            return HEX.normalize(hexes)
    return None


def _shift_cell(cell: Cell, vertex_shift: tuple[int, int]) -> Cell:
    """A triangle moved back by the lattice translation ``-vertex_shift`` (in vertex coordinates)."""
    a, b = _to_axial(cell)
    return _from_axial((a - 3 * vertex_shift[0], b - 3 * vertex_shift[1]))


def _affine() -> tuple:
    """Each symmetry (:meth:`TriangleGrid.image`) on the triangles pointing up, then down: the coefficients
    ``(a, b, e, f, g, h)`` of ``(row, s) -> (a row + b s + e, f row + g s + h)``, ``s = (row + col) // 2``
    (the map is affine on each direction's lattice: :func:`_to_axial` and :func:`_from_axial` are)."""
    out = []
    for k in range(12):
        maps = []
        for p in (0, 1):   # the cells (row, s) = (0, 0), (1, 0), (0, 1) of direction p
            (r0, c0), (r1, c1), (r2, c2) = TRIANGLE.image([(0, p), (1, p - 1), (0, 2 + p)], k)
            maps.append((r1 - r0, r2 - r0, r0, c1 - c0, c2 - c0, c0))
        out.append(tuple(maps))
    return tuple(out)


class TriangleGrid(Grid):
    """The triangle grid (see the module docstring)."""

    name = "triangle"
    cell_noun = "triangle"
    text_chars = "^v."
    dim = 2
    n_rotations, n_symmetries, symmetries, modes = (HexGrid.n_rotations, HexGrid.n_symmetries, HexGrid.symmetries,
                                                    HexGrid.modes)   # the same group: the lattice's
    origins = ((0, 0), (0, 1))
    vertex_degree = 6
    colourings = (   # weight of (row, col) = table[row % 2][col % 2]
        Colouring("up-down", ((1, -1), (-1, 1)), ("up", "down")),
        Colouring("row-stripe", ((1, 1), (-1, -1)), ("even-row", "odd-row")),
        Colouring("column-stripe", ((1, -1), (1, -1)), ("even-column", "odd-column")),
    )

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The 3 triangles sharing an edge: left, right, and below an up one / above a down one.

        Examples
        --------
        >>> TRIANGLE.neighbours((0, 0)), TRIANGLE.neighbours((0, 1))
        (((0, -1), (0, 1), (1, 0)), ((0, 0), (0, 2), (-1, 1)))
        """
        r, c = cell
        return ((r, c - 1), (r, c + 1), (r + 1, c) if (r + c) % 2 == 0 else (r - 1, c))

    def image(self, cells: Sequence[Cell], k: int) -> list[Cell]:
        (m00, m01), (m10, m11) = AXIAL_MATRICES[k]
        out: list[Cell] = []
        for r, c in cells:      # through three times the centre in axial coordinates (_to_axial, _from_axial)
            if (r + c) % 2 == 0:
                a, b = 3 * (c - r) // 2 - 1, 3 * r + 2
            else:
                a, b = 3 * (c - r - 1) // 2 + 1, 3 * r + 1
            a, b = m00 * a + m01 * b, m10 * a + m11 * b
            if b % 3 == 2:
                row = (b - 2) // 3
                out.append((row, 2 * (a + 1) // 3 + row))
            else:
                row = (b - 1) // 3
                out.append((row, 2 * (a - 1) // 3 + row + 1))
        return out

    def orientations(self, cells: Iterable[Cell], mode: str = "free") -> list[Shape]:
        """:meth:`Grid.orientations <ubongo_cp.grids.Grid.orientations>` in one loop: each symmetry is, on the
        triangles of one direction, an integer affine map of their row and array column ``(row + col) // 2``
        (``_AFFINE``).

        Examples
        --------
        >>> TRIANGLE.orientations([(0, 0), (0, 1)], "free")
        [((0, 0), (0, 1)), ((0, 1), (0, 2)), ((0, 0), (1, 0))]
        """
        self.check_mode(mode)
        ups: list[Cell] = []
        downs: list[Cell] = []
        for r, c in cells:
            (downs if (r + c) & 1 else ups).append((r, (r + c) >> 1))
        seen: dict[Shape, None] = {}
        for (a, b, e, f, g, h), (a2, b2, e2, f2, g2, h2) in _AFFINE[:self.modes[mode]]:
            img = [(a * r + b * s + e, f * r + g * s + h) for r, s in ups]
            img += [(a2 * r + b2 * s + e2, f2 * r + g2 * s + h2) for r, s in downs]
            r0 = min([r for r, _ in img])
            c0 = min([c for _, c in img])
            dc = (r0 + c0) % 2 - c0
            seen.setdefault(tuple(sorted([(r - r0, c + dc) for r, c in img])), None)
        return list(seen)

    def _codes(self, shapes: Sequence[Shape], count: int, radix: int):
        """``Grid._codes`` through the affine maps per direction (``_AFFINE``; their linear parts agree): one
        integer map (:func:`~ubongo_cp.grids.base.image_keys`) of ``(row, (row + col) // 2, (row + col) % 2, 1)``
        for every cell gives the
        images' rows, columns and keys; normal position (:meth:`shift`) is then taken from the keys: the key of
        the least row and column, less 1 when their sum is odd, which is the key's parity (``radix`` is odd)."""
        assert radix & 1, radix
        n_shapes, n = len(shapes), len(shapes[0])
        x = [(r, (r + c) >> 1, (r + c) & 1, 1) for s in shapes for r, c in s]
        return image_keys(x, n_shapes, n, _affine_matrices(count, radix), count, 2, radix, even=True)

    def shift(self, cells: Sequence[Cell]) -> Cell:
        r0 = min(r for r, _ in cells)
        c0 = min(c for _, c in cells)
        return (-r0, -c0 + (r0 + c0) % 2)

    def normalize(self, cells: Iterable[Cell]) -> Shape:
        """Translate ``cells`` to normal position (:meth:`shift`) and sort them.

        Examples
        --------
        >>> TRIANGLE.normalize([(2, 3), (2, 4), (3, 4)])
        ((0, 1), (0, 2), (1, 2))
        """
        cells = list(cells)
        if not cells:
            return ()
        dr, dc = self.shift(cells)
        return tuple(sorted((r + dr, c + dc) for r, c in cells))

    def map_array(self, shapes: np.ndarray, k: int) -> np.ndarray:
        """:meth:`map_cells` for an int array (N, n, 2) of shapes: through the axial centres, vectorised."""
        import numpy as np

        r, c = shapes[..., 0], shapes[..., 1]
        up = (r + c) % 2 == 0
        a = np.where(up, 3 * (c - r) // 2 - 1, 3 * (c - r - 1) // 2 + 1)
        b = np.where(up, 3 * r + 2, 3 * r + 1)
        a, b = np.einsum("ij,jns->ins", np.array(AXIAL_MATRICES[k]), np.stack([a, b]).reshape(2, -1, 1)).reshape(2, *r.shape)
        up = b % 3 == 2
        r2 = np.where(up, (b - 2) // 3, (b - 1) // 3)
        c2 = np.where(up, 2 * (a + 1) // 3 + r2, 2 * (a - 1) // 3 + r2 + 1)
        r0 = r2.min(axis=1, keepdims=True)
        c0 = c2.min(axis=1, keepdims=True)
        return np.stack([r2 - r0, c2 - c0 + (r0 + c0) % 2], axis=-1)

    #: Normal position puts the smallest column at 0 or 1 (:meth:`shift`).
    normal_lead = (0, 1)

    def offset_ok(self, offset: Cell) -> bool:
        return sum(offset) % 2 == 0

    def translations(self, low: Cell, size: tuple[int, ...]) -> int:
        """:meth:`Grid.translations <ubongo_cp.grids.Grid.translations>`: those ``(dr, dc)`` with ``dr + dc`` even,
        every other bit of each row of the array.

        Examples
        --------
        >>> bin(TRIANGLE.translations((0, 1), (2, 3)))   # rows (0, 1..3) and (1, 1..3): (0, 2), (1, 1), (1, 3)
        '0b101010'
        """
        rows, cols = size
        if cols & 1:   # position p = row * cols + col has the parity of row + col: every other bit of the array
            every = int.from_bytes((b"\xaa" if (low[0] + low[1]) & 1 else b"\x55") * ((rows * cols + 7) // 8), "little")
            return every & ((1 << rows * cols) - 1)
        even = ((1 << 2 * ((cols + 1) // 2)) - 1) // 3     # the bits 0, 2, 4, ... of a row
        odd = even << 1 & ((1 << cols) - 1)
        if (low[0] + low[1]) & 1:                          # row 0: its bit 0 is a translation when low is one
            even, odd = odd, even
        pair = even | odd << cols                          # rows 0 and 1, then every two rows the same
        out = pair * (((1 << 2 * cols * (rows // 2)) - 1) // ((1 << 2 * cols) - 1))
        return out | even << (rows - 1) * cols if rows & 1 else out

    # ---------------------------------------------------------------- text
    def parse(self, lines: Sequence[str], *, path: str | None = None, first_line: int = 1) -> Shape:
        """Triangles of a text picture (``^`` up, ``v`` down) in normal position.

        Raises
        ------
        InputError
            An unknown character, a ``^`` where the alternation from the
            picture's first triangle (along rows and between rows) puts a
            down triangle (or a ``v`` where it puts an up one), or no cell.

        Examples
        --------
        >>> TRIANGLE.parse(["^v^", "v^v"])  # the hexagon
        ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2))
        >>> TRIANGLE.parse(["v^"])
        ((0, 1), (0, 2))
        """
        cells = []
        parity = None
        for i, line in enumerate(lines):
            for col, ch in enumerate(line.rstrip()):
                if ch in " .":
                    continue
                if ch not in "^v":
                    raise InputError(f"unknown character {ch!r} in a triangle grid (use '^' for a triangle "
                                     "pointing up, 'v' for one pointing down, '.' or a space for none)",
                                     path=path, line=first_line + i)
                up = ch == "^"
                if parity is None:
                    parity = (i + col + (0 if up else 1)) % 2
                elif ((i + col + parity) % 2 == 0) != up:
                    there = "down" if up else "up"
                    raise InputError(f"{ch!r} in column {col + 1}: no such triangle, this one points {there}: "
                                     "directions alternate along a row and from one row to the next (under an "
                                     "up triangle lies a down one), counted from the picture's first triangle",
                                     path=path, line=first_line + i)
                cells.append((i, col + parity))
        if not cells:
            raise InputError("empty shape: no '^' or 'v' triangle", path=path, line=first_line)
        return self.normalize(cells)

    def format(self, cells: Iterable[Cell]) -> str:
        """Rows of ``^``, ``v`` and ``.`` (the inverse of :meth:`parse`).

        Examples
        --------
        >>> print(TRIANGLE.format([(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]))
        ^v^
        v^v
        """
        return self.render({tuple(c): "^" if is_up(c) else "v" for c in cells})

    def render(self, owner, *, empty: str = ".") -> str:
        """One given character per triangle in rows (the rows' alternation gives each its direction).

        Examples
        --------
        >>> print(TRIANGLE.render({(0, 0): "A", (0, 1): "A", (0, 2): "B", (1, 2): "B"}))
        AAB
        ..B
        """
        return SQUARE.render(owner, empty=empty)   # one character per (row, col), as on squares

    def text_size(self, cells: Iterable[Cell]) -> tuple[int, int]:
        """``(rows, triangles per row)`` of the text picture."""
        return SQUARE.text_size(cells)

    def box(self, *dims: int) -> Shape:
        """The parallelogram of ``rows`` rows of ``cols`` rhombi (``2 cols`` triangles), leaning left.

        Raises
        ------
        InputError
            Unless two positive sizes are given.

        Examples
        --------
        >>> print(TRIANGLE.format(TRIANGLE.box(2, 2)))
        .^v^v
        ^v^v.
        """
        rows, cols = self._sizes(dims, 2, "a parallelogram (rows, columns)")
        return self.normalize((r, c) for r in range(rows) for c in range(-r, -r + 2 * cols))

    # ------------------------------------------------------------- drawing
    def polygons(self, cells: Sequence[Cell]) -> np.ndarray:
        """Triangles of side 1: an up one ``(r, c)`` has its apex at ``(c/2 + 1/2, r sqrt(3)/2)``."""
        import numpy as np

        arr = np.asarray(list(cells), dtype=float).reshape(-1, 2)
        up = (arr.sum(axis=1) % 2 == 0)[:, None, None]
        origin = np.stack([arr[:, 1] / 2, arr[:, 0] * _H], axis=1)[:, None, :]
        return origin + np.where(up, np.asarray(_UP)[None], np.asarray(_DOWN)[None])

    def edge_neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        r, c = cell
        if (r + c) % 2 == 0:
            return ((r, c + 1), (r + 1, c), (r, c - 1))
        return ((r - 1, c), (r, c + 1), (r, c - 1))

    def locate(self, x: float, y: float) -> Cell:
        r = math.floor(y / _H)
        t = y / _H - r                       # 0 at the row's top, 1 at its bottom
        c0 = math.floor(2 * x)
        best, gap = (r, c0), math.inf
        for c in (c0 - 1, c0):
            half = (t if (r + c) % 2 == 0 else 1 - t) / 2   # half the triangle's width at this height
            off = abs(x - (c / 2 + 0.5)) - half
            if off < gap:
                best, gap = (r, c), off
        return best


#: The triangle grid.
TRIANGLE = TriangleGrid()

#: :func:`_affine`: the 12 symmetries, per direction, as integer affine maps of ``(row, (row + col) // 2)``.
_AFFINE = _affine()


@lru_cache(maxsize=None)
def _affine_matrices(count: int, radix: int):
    """The first ``count`` maps of ``_AFFINE`` as integer matrices on ``(row, s, up or down, 1)``, each with a
    third row giving ``row * radix + col``, side by side (:func:`.base.side_by_side`: an array (4, 3 * count))."""
    import numpy as np

    maps = np.array([((a, b, e2 - e, e), (f, g, h2 - h, h))
                     for (a, b, e, f, g, h), (_, _, e2, _, _, h2) in _AFFINE[:count]], dtype=np.int64)
    return side_by_side(np.concatenate([maps, (radix * maps[:, 0] + maps[:, 1])[:, None]], axis=1))
