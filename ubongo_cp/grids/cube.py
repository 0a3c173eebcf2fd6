"""The cube grid: polycubes (Ubongo 3-D, the Soma cube, BurrTools' brick grid).

Conventions:

- a cell is ``(layer, row, col)``: layer 0 at the bottom, then as the
  square grid (row 0 at the top of the picture of a layer, col 0 at the left);
- the 48 symmetries of the cube as signed permutation matrices: the 24
  rotations first (the identity first), then the 24 improper ones (a
  rotation times a mirror). A solid piece can only be turned: *free* pieces
  use the 24 rotations, and a piece and its mirror image are two pieces (as
  in BurrTools and OEIS A000162); *mirror* allows all 48 (a piece and its
  mirror image are one, OEIS A038119); *fixed* only the identity;
- normal position: smallest layer, row and column 0;
- text: the layers, bottom layer first, each in the square grid's rows
  (``#`` a cube, ``.`` none), separated by a line of ``-`` (blank lines
  next to it are ignored; blank lines separate pieces in piece-set files);
- drawing: the layers side by side on the square grid, bottom layer first,
  one cell apart, each captioned (:meth:`CubeGrid.plane`).

References
----------
.. [1] OEIS A000162 (polycubes, mirror images distinct), A038119 (mirror
   images identified), A001931 (fixed polycubes).
.. [2] M. Gardner, "Mathematical Games: ... the Soma cube", *Scientific
   American* 199(3) (1958); J. H. Conway and R. K. Guy, "Sam Loyd's
   Soma cube" (the 240 solutions).
"""

from __future__ import annotations

from itertools import permutations, product
from collections.abc import Iterable, Sequence

from ..errors import InputError, InputWarning
from .base import Cell, Colouring, Grid, Plane, Shape
from .square import SQUARE

TYPE_CHECKING = False

if TYPE_CHECKING:
    import numpy as np

__all__ = ["CubeGrid", "CUBE", "MATRICES"]


def _matrices() -> tuple[tuple[tuple[int, ...], ...], ...]:
    proper: list[tuple[tuple[int, ...], ...]] = []
    improper: list[tuple[tuple[int, ...], ...]] = []
    for perm in permutations(range(3)):
        for signs in product((1, -1), repeat=3):
            m = tuple(tuple(signs[i] if j == perm[i] else 0 for j in range(3)) for i in range(3))
            inversions = sum(perm[i] > perm[j] for i in range(3) for j in range(i + 1, 3))
            det = (-1) ** inversions * signs[0] * signs[1] * signs[2]
            (proper if det == 1 else improper).append(m)
    return tuple(proper + improper)   # the identity comes first: permutation (0, 1, 2), signs (1, 1, 1)


#: The 48 symmetries of the cube as 3x3 matrices acting on ``(layer, row, col)``: 24 rotations, then 24
#: improper ones; the identity first.
MATRICES = _matrices()


class CubeGrid(Grid):
    """The cube grid (see the module docstring)."""

    name = "cube"
    cell_noun = "cube"
    text_chars = "#.-"
    layer_separator = "a line of '-'"
    dim = 3
    n_rotations = 24
    n_symmetries = 48
    symmetries = MATRICES
    linear = tuple(tuple(x for row in m for x in row) for m in MATRICES)
    normal_lead = (0, 0, 0)
    modes = {"free": 24, "mirror": 48, "fixed": 1}
    origins = ((0, 0, 0),)
    colourings = (   # weight of (layer, row, col) = table[layer % 2][row % 2][col % 2]
        Colouring("checkerboard", Colouring.tabulate(lambda c: (-1) ** sum(c), 3), ("black", "white")),
        Colouring("layer-stripe", Colouring.tabulate(lambda c: (-1) ** c[0], 3), ("even-layer", "odd-layer")),
        Colouring("row-stripe", Colouring.tabulate(lambda c: (-1) ** c[1], 3), ("even-row", "odd-row")),
        Colouring("column-stripe", Colouring.tabulate(lambda c: (-1) ** c[2], 3), ("even-column", "odd-column")),
    )

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The 6 face-adjacent cubes.

        Examples
        --------
        >>> CUBE.neighbours((0, 0, 0))[:2]
        ((-1, 0, 0), (1, 0, 0))
        """
        z, r, c = cell
        return ((z - 1, r, c), (z + 1, r, c), (z, r - 1, c), (z, r + 1, c), (z, r, c - 1), (z, r, c + 1))

    def image(self, cells: Sequence[Cell], k: int) -> list[Cell]:
        (a, b, c), (d, e, f), (g, h, i) = MATRICES[k]
        return [(a * x + b * y + c * z, d * x + e * y + f * z, g * x + h * y + i * z) for x, y, z in cells]

    def shift(self, cells: Sequence[Cell]) -> Cell:
        return tuple(-min(c[i] for c in cells) for i in range(3))

    def matrix(self, k: int) -> np.ndarray:
        import numpy as np

        return np.array(MATRICES[k], dtype=np.int64)

    # ---------------------------------------------------------------- text
    def parse(self, lines: Sequence[str], *, path: str | None = None, first_line: int = 1) -> Shape:
        """Layers of ``#``/``.`` rows, bottom first, separated by a line of ``-``, in normal position.

        Raises
        ------
        InputError
            An unknown character, or no cube.

        Warns
        -----
        InputWarning
            For a blank line inside a shape of one layer (an empty row, perhaps meant to separate layers).

        Examples
        --------
        >>> CUBE.parse(["##", "#.", "--", "#.", ".."])
        ((0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0))
        """
        layers: list[list[tuple[int, str]]] = [[]]   # each layer's (line index, row text)
        ends: list[int] = []                         # the separator line after each layer but the last
        for n, line in enumerate(lines):
            text = line.rstrip()
            if text and set(text) == {"-"}:
                layers.append([])
                ends.append(n)
            else:
                layers[-1].append((n, text))
        cells: list[tuple[int, int, int]] = []
        for layer, rows in enumerate(layers):
            # blank lines at a layer's edges (next to a separator) are no rows: a layer's first row is row 0
            drawn = [i for i, (_, text) in enumerate(rows) if text]
            rows = rows[drawn[0]:drawn[-1] + 1] if drawn else []   # cut at once: a million blank lines are no wait
            blank = next((n for n, text in rows if not text), None)
            if blank is not None and not ends:
                import warnings

                warnings.warn(InputWarning("a blank line inside a cube shape is an empty row of its one layer; "
                                           f"layers are separated by {self.layer_separator}", path=path,
                                           line=first_line + blank), stacklevel=2)
            for row, (n, text) in enumerate(rows):
                for col, ch in enumerate(text):
                    if ch == "#":
                        cells.append((layer, row, col))
                    elif ch != ".":
                        raise InputError(f"unknown character {ch!r} in a cube grid (use '#' for a cube, '.' for "
                                         "empty, a line of '-' between layers)", path=path, line=first_line + n)
            if not any(c[0] == layer for c in cells):
                if layer == 0 and len(layers) == 1:
                    raise InputError("empty shape: no '#' cube", path=path, line=first_line)
                at = rows[0][0] if rows else ends[layer] if layer < len(ends) else ends[-1]
                raise InputError(f"layer {layer + 1} has no '#' cube: the layers of a shape follow one another",
                                 path=path, line=first_line + at)
        return self.normalize(cells)

    def format(self, cells: Iterable[Cell]) -> str:
        """Layers of ``#``/``.`` rows, bottom first, separated by a line of ``-`` (the inverse of :meth:`parse`).

        Examples
        --------
        >>> print(CUBE.format([(0, 0, 0), (0, 0, 1), (1, 0, 0)]))
        ##
        --
        #.
        """
        return self.render({tuple(c): "#" for c in cells})

    def render(self, owner, *, empty: str = ".") -> str:
        """Layers of rows with one given character per cube, bottom first, separated by a line of ``-``."""
        if not owner:
            return ""
        lo = [min(c[i] for c in owner) for i in range(3)]
        hi = [max(c[i] for c in owner) for i in range(3)]
        layers = ["\n".join("".join(owner.get((z, r, c), empty) for c in range(lo[2], hi[2] + 1)).rstrip(" ")
                            for r in range(lo[1], hi[1] + 1)) for z in range(lo[0], hi[0] + 1)]
        return ("\n" + "-" * (hi[2] - lo[2] + 1) + "\n").join(layers)

    def text_size(self, cells: Iterable[Cell]) -> tuple[int, int, int]:
        """``(layers, rows, cols)`` of the bounding box."""
        cells = list(cells)
        layers, rows, cols = (1 + max(c[i] for c in cells) - min(c[i] for c in cells) for i in range(3))
        return (layers, rows, cols)

    def box(self, *dims: int) -> Shape:
        """The ``layers x rows x cols`` cuboid.

        Raises
        ------
        InputError
            Unless three positive sizes are given.
        """
        return tuple(product(*(range(n) for n in self._sizes(dims, 3, "a box of cubes (layers, rows, columns)"))))

    # ------------------------------------------------------------- drawing
    def plane(self, frame: Iterable[Cell]) -> Plane:
        """The layers side by side on the square grid (bottom layer at the left), one cell apart, captioned, each
        in a frame of the footprint (rows x cols of the whole shape) when there are several.

        Examples
        --------
        >>> plane = CUBE.plane([(0, 0, 0), (1, 0, 0), (1, 0, 1)])
        >>> plane.map([(0, 0, 0), (1, 0, 1)]), [text for _, _, text in plane.captions]
        ([(0, 0), (0, 4)], ['layer 1', 'layer 2'])
        >>> plane.frames
        ((0.0, 0.0, 2.0, 1.0), (3.0, 0.0, 2.0, 1.0))
        """
        frame = [tuple(c) for c in frame]
        l0, r0, c0 = (min(c[i] for c in frame) for i in range(3))
        layers, rows, cols = self.text_size(frame)
        stride = cols + 1

        def to_plane(cells):
            return [(r - r0, c - c0 + (z - l0) * stride) for z, r, c in cells]

        names = ["layer 1 (bottom)" if layers > 2 else "layer 1"] + [f"layer {n}" for n in range(2, layers + 1)]
        captions = tuple((k * stride + cols / 2, float(rows), names[k]) for k in range(layers))
        frames = tuple((float(k * stride), 0.0, float(cols), float(rows)) for k in range(layers)) if layers > 1 else ()
        return Plane(SQUARE, to_plane, captions, frames)


#: The cube grid.
CUBE = CubeGrid()
