"""The square grid: polyominoes (Ubongo, Ubongo Duel, pentomino puzzles).

Conventions:

- a cell is ``(row, col)``, row 0 at the top and col 0 at the left;
- normal position: smallest row and smallest column 0;
- the 8 symmetries of the square (the dihedral group D4) as integer
  matrices ``(a, b, c, d)``: ``(r, c) -> (a*r + b*c, c*r + d*c)``; the
  first four are the rotations. A *free* polyomino may use all 8 (rule
  UP-3: a card-board piece may be turned over), a *one-sided* one the 4
  rotations, a *fixed* one the identity;
- text: one character per cell, ``#`` a cell, ``.`` (or a space) none;
  rows may be ragged;
- drawing: cell ``(r, c)`` is the unit square ``[c, c+1] x [r, r+1]``.

References
----------
.. [1] S. W. Golomb, *Polyominoes*, 2nd ed., Princeton University Press
   (1994), ch. 1 (free, one-sided and fixed polyominoes), ch. 2-3
   (colouring arguments: checkerboard and stripes).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..errors import InputError
from .base import Cell, Colouring, Grid, Shape

TYPE_CHECKING = False

if TYPE_CHECKING:
    import numpy as np

__all__ = ["SquareGrid", "SQUARE", "SYMMETRIES"]

#: The 8 symmetries of the square as (a, b, c, d): (r, c) -> (a*r + b*c, c*r + d*c).
#: The first four are the rotations by 0, 90, 180 and 270 degrees.
SYMMETRIES: tuple[tuple[int, int, int, int], ...] = (
    (1, 0, 0, 1),    # identity
    (0, 1, -1, 0),   # rotate 90 degrees clockwise
    (-1, 0, 0, -1),  # rotate 180 degrees
    (0, -1, 1, 0),   # rotate 270 degrees
    (1, 0, 0, -1),   # mirror left-right
    (-1, 0, 0, 1),   # mirror top-bottom
    (0, 1, 1, 0),    # transpose
    (0, -1, -1, 0),  # anti-transpose
)

_CORNERS = ((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0))   # (x, y) of a unit square, clockwise on screen


class SquareGrid(Grid):
    """The square grid (see the module docstring)."""

    name = "square"
    cell_noun = "square"
    text_chars = "#."
    dim = 2
    n_rotations = 4
    n_symmetries = 8
    modes = {"free": 8, "one-sided": 4, "fixed": 1}
    origins = ((0, 0),)
    vertex_degree = 4
    colourings = (   # weight of (row, col) = table[row % 2][col % 2]
        Colouring("checkerboard", ((1, -1), (-1, 1)), ("black", "white")),
        Colouring("column-stripe", ((1, -1), (1, -1)), ("even-column", "odd-column")),
        Colouring("row-stripe", ((1, 1), (-1, -1)), ("even-row", "odd-row")),
    )
    symmetries = SYMMETRIES
    linear = SYMMETRIES

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The 4 edge-adjacent cells: up, down, left, right.

        Examples
        --------
        >>> SQUARE.neighbours((2, 5))
        ((1, 5), (3, 5), (2, 4), (2, 6))
        """
        r, c = cell
        return ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))

    def image(self, cells: Sequence[Cell], k: int) -> list[Cell]:
        a, b, c, d = SYMMETRIES[k]
        return [(a * r + b * q, c * r + d * q) for r, q in cells]

    def shift(self, cells: Sequence[Cell]) -> Cell:
        return (-min(r for r, _ in cells), -min(c for _, c in cells))

    def matrix(self, k: int) -> np.ndarray:
        import numpy as np

        a, b, c, d = SYMMETRIES[k]
        return np.array([[a, b], [c, d]], dtype=np.int64)

    def normalize(self, cells: Iterable[Cell]) -> Shape:
        """Translate ``cells`` so the minimum row and column are 0; return them sorted.

        Examples
        --------
        >>> SQUARE.normalize([(3, 4), (3, 5), (4, 5)])
        ((0, 0), (0, 1), (1, 1))
        """
        cells = list(cells)
        if not cells:
            return ()
        r0 = min(r for r, _ in cells)
        c0 = min(c for _, c in cells)
        return tuple(sorted((r - r0, c - c0) for r, c in cells))

    def symmetry_group(self, cells: Iterable[Cell]) -> list[int]:
        """The symmetries (indices) that map the shape onto itself, identity first.

        Each symmetry's image is tested cell by cell against the shape (a set), stopping at the first cell
        off it, not made and sorted whole: a symmetry (a signed permutation of the axes) maps the shape's
        bounding box onto the image's, which gives the translation back to normal position.

        Examples
        --------
        >>> SQUARE.symmetry_group([(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)])  # a 2x3 rectangle
        [0, 2, 4, 5]
        """
        cells = [tuple(c) for c in cells]   # lists or arrays as cells too (as the generic method takes them)
        shape = set(cells)
        if len(shape) != len(cells):   # a cell named twice: the images compared as sorted lists
            return super().symmetry_group(cells)
        if not cells:
            return list(range(self.n_symmetries))
        r_lo, r_hi = min(r for r, _ in cells), max(r for r, _ in cells)
        c_lo, c_hi = min(c for _, c in cells), max(c for _, c in cells)
        if len(cells) == (r_hi - r_lo + 1) * (c_hi - c_lo + 1):
            # distinct cells as many as their bounding box has: the whole box (a rectangle). Each symmetry maps
            # it onto the box of its image, translated back onto the box itself when the extents agree: every
            # symmetry that keeps the axes, those that swap them only on a square
            square = r_hi - r_lo == c_hi - c_lo
            return [k for k, (_, b, _, _) in enumerate(SYMMETRIES) if square or not b]
        out = []
        for k, (a, b, c, d) in enumerate(SYMMETRIES):
            if b and r_hi - r_lo != c_hi - c_lo:   # the axes swapped: a box that is no square is no image
                continue
            # the image's least row and column, less the shape's: the translation back onto it
            r0 = min(a * r_lo, a * r_hi) + min(b * c_lo, b * c_hi) - r_lo
            c0 = min(c * r_lo, c * r_hi) + min(d * c_lo, d * c_hi) - c_lo
            if all((a * r + b * q - r0, c * r + d * q - c0) in shape for r, q in cells):
                out.append(k)
        return out

    def transform(self, cells: Iterable[Cell], k: int) -> Shape:
        a, b, c, d = SYMMETRIES[k]
        return self.normalize((a * r + b * q, c * r + d * q) for r, q in cells)

    def canonical(self, cells: Iterable[Cell], mode: str = "free") -> Shape:
        """The image with the fewest rows, then the smallest sorted cells (a region is never taller than wide).

        Examples
        --------
        >>> SQUARE.canonical([(0, 0), (1, 0), (2, 0), (2, 1)])  # an L tetromino, upright
        ((0, 0), (0, 1), (0, 2), (1, 0))
        """
        return min(self.orientations(cells, mode), key=lambda s: (1 + max(r for r, _ in s), s))

    def canonical_many(self, shapes: np.ndarray, mode: str = "free") -> list[Shape]:
        """:meth:`canonical` of each shape of an int array (N, n, 2)."""
        return [self.canonical(tuple(map(tuple, s)), mode) for s in shapes.tolist()]

    # ---------------------------------------------------------------- text
    def parse(self, lines: Sequence[str], *, path: str | None = None, first_line: int = 1) -> Shape:
        """Parse rows (``#`` a cell, ``.`` none) into a shape in normal position.

        Raises
        ------
        InputError
            On another character, or when no cell is marked.

        Examples
        --------
        >>> SQUARE.parse(["#.", "##"])
        ((0, 0), (1, 0), (1, 1))
        """
        cells = []
        for n, line in enumerate(lines):
            for col, ch in enumerate(line.rstrip()):
                if ch == "#":
                    cells.append((n, col))
                elif ch != ".":
                    space = ", not a space" if ch == " " else ""
                    raise InputError(f"unknown character {ch!r} in a square grid (use '#' for a square, '.' for an "
                                     f"empty one{space}; a picture on another grid names it on a 'grid:' line)",
                                     path=path, line=first_line + n)
        if not cells:
            raise InputError("empty shape: no '#' cell", path=path, line=first_line)
        return self.normalize(cells)

    def format(self, cells: Iterable[Cell]) -> str:
        """Rows of ``#`` and ``.`` (the inverse of :meth:`parse`).

        Examples
        --------
        >>> print(SQUARE.format([(0, 0), (1, 0), (1, 1)]))
        #.
        ##
        """
        return self.render({tuple(c): "#" for c in cells})

    def render(self, owner, *, empty: str = ".") -> str:
        """One character per cell in rows (``empty`` for the bounding box's other cells).

        Examples
        --------
        >>> print(SQUARE.render({(0, 0): "A", (0, 1): "A", (1, 1): "B"}))
        AA
        .B
        """
        if not owner:
            return ""
        r0, r1 = min(r for r, _ in owner), max(r for r, _ in owner)
        c0, c1 = min(c for _, c in owner), max(c for _, c in owner)
        return "\n".join("".join(owner.get((r, c), empty) for c in range(c0, c1 + 1)).rstrip(" ")
                         for r in range(r0, r1 + 1))

    def text_size(self, cells: Iterable[Cell]) -> tuple[int, int]:
        """``(rows, cols)`` of the bounding box."""
        cells = list(cells)
        return (1 + max(r for r, _ in cells) - min(r for r, _ in cells),
                1 + max(c for _, c in cells) - min(c for _, c in cells))

    def box(self, *dims: int) -> Shape:
        """The ``rows x cols`` rectangle.

        Raises
        ------
        InputError
            Unless two positive sizes are given.
        """
        h, w = self._sizes(dims, 2, "a rectangle (rows, columns)")
        return tuple((r, c) for r in range(h) for c in range(w))

    def random_cell(self, rng, dims: tuple[int, ...]) -> Cell:
        """A cell of the ``rows x cols`` rectangle: a row, then a column, each uniform."""
        return (int(rng.integers(dims[0])), int(rng.integers(dims[1])))

    # ------------------------------------------------------------- drawing
    def polygons(self, cells: Sequence[Cell]) -> np.ndarray:
        """Unit squares: corners (c, r), (c+1, r), (c+1, r+1), (c, r+1)."""
        import numpy as np

        arr = np.asarray(list(cells), dtype=float).reshape(-1, 2)
        return arr[:, None, ::-1] + np.asarray(_CORNERS)[None, :, :]

    def edge_neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        r, c = cell
        return ((r - 1, c), (r, c + 1), (r + 1, c), (r, c - 1))

    def locate(self, x: float, y: float) -> Cell:
        import math   # drawings only: not loaded by a count (math is a shared library to open)

        return (math.floor(y), math.floor(x))

    def segments(self, owner, x0: float, y0: float, cs: float, *, inner: bool) -> list:
        """:meth:`Grid.segments` by arithmetic on rows and columns (the booklets' common case)."""
        out: list = []
        for (r, c), who in owner.items():
            x, y = x0 + c * cs, y0 + r * cs
            if inner:
                if owner.get((r + 1, c), out) == who:
                    out.append(((x, y + cs), (x + cs, y + cs)))
                if owner.get((r, c + 1), out) == who:
                    out.append(((x + cs, y), (x + cs, y + cs)))
                continue
            for (dr, dc), seg in (((-1, 0), ((x, y), (x + cs, y))), ((1, 0), ((x, y + cs), (x + cs, y + cs))),
                                  ((0, -1), ((x, y), (x, y + cs))), ((0, 1), ((x + cs, y), (x + cs, y + cs)))):
                other = owner.get((r + dr, c + dc), out)
                if other is out or (other != who and (dr, dc) in ((1, 0), (0, 1))):
                    out.append(seg)
        return out

    def label_candidates(self, cells: Sequence[Cell]) -> list[tuple[float, float]]:
        """:meth:`Grid.label_candidates` by arithmetic: centres, shared edges' midpoints, 2x2 blocks' centres."""
        cellset = set(cells)
        points = [(c + 0.5, r + 0.5) for r, c in cells]
        points += [(c + 1.0, r + 1.0) for r, c in cells if {(r + 1, c), (r, c + 1), (r + 1, c + 1)} <= cellset]
        points += [(c + 0.5, r + 1.0) for r, c in cells if (r + 1, c) in cellset]
        points += [(c + 1.0, r + 0.5) for r, c in cells if (r, c + 1) in cellset]
        return points


#: The square grid.
SQUARE = SquareGrid()
