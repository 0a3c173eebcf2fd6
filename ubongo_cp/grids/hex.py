"""The hexagon grid: polyhexes (Ubongo Extreme, Orion Duel's tiles and board), in axial coordinates.

Conventions (Red Blob Games' axial coordinates [1]_; Orion Duel's engine
uses the same, :mod:`ubongo_cp.games.orion`):

- a hex is ``(q, r)``; the third cube coordinate is ``s = -q - r``. Drawn
  pointy-top, ``r`` grows downwards and ``q`` to the right, so the centre
  of ``(q, r)`` lies at ``sqrt(3) * (q + r / 2), 1.5 * r`` in units of the
  hex radius (:func:`to_pixel`; y downwards);
- the six neighbours are :data:`DIRECTIONS` away; the 12 symmetries are
  the 6 rotations by 60 degrees (:func:`rotate`: ``(q, r) -> (-r, q + r)``)
  and the 6 reflections (:func:`reflect` then a rotation), numbered
  ``k`` = rotation for ``k < 6`` and ``6 + rotation`` after the reflection.
  Free pieces use all 12, one-sided ones the 6 rotations;
- normal position: smallest ``q`` and smallest ``r`` 0;
- text: rows of hexes offset by half a hex, each hex one character in every
  second column (``#`` a hex; ``.`` or a space none), so the column of
  ``(q, r)`` is ``2q + r`` (plus a constant): a hexagon of 7 is ``" # #"``,
  ``"# # #"``, ``" # #"``. A hex in a column of the wrong parity for its
  row lies between two hex positions and is refused;
- drawing: the unit is the distance between neighbouring centres (a hex is
  1 wide, flat side to flat side); the hex ``(0, 0)`` spans
  ``[0, 1] x [0, 2 / sqrt(3)]``.

References
----------
.. [1] A. Patel, "Hexagonal Grids", Red Blob Games (2013, updated 2021),
   https://www.redblobgames.com/grids/hexagons/ , sections "Axial
   coordinates", "Distances", "Rotation", "Reflection", "Pixel to hex"
   and "Doubled coordinates" (the text layout).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence

from ..errors import InputError
from .base import Cell, Colouring, Grid, Shape

TYPE_CHECKING = False

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Hex", "DIRECTIONS", "HexGrid", "HEX", "neighbours", "distance", "rotate", "reflect", "transform",
           "axial_image", "AXIAL_MATRICES", "normalize", "hexagon", "to_pixel", "text_column", "parse_symbols", "format_symbols"]

#: A hex in axial coordinates ``(q, r)``.
Hex = tuple[int, int]

#: The six unit steps in axial coordinates, counter-clockwise on screen
#: starting East (a pointy-top layout with y pointing down).
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

_R = 1 / math.sqrt(3)             # circumradius of a hex 1 wide
_ROW = math.sqrt(3) / 2           # distance between rows of centres
# Corners of a hex about its centre, clockwise on screen from the top; edge i joins corners i and i + 1.
_CORNERS = ((0, -_R), (0.5, -_R / 2), (0.5, _R / 2), (0, _R), (-0.5, _R / 2), (-0.5, -_R / 2))
_EDGE_STEPS = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))


def neighbours(h: Hex) -> list[Hex]:
    """The six hexes adjacent to ``h`` (unbounded grid).

    Examples
    --------
    >>> neighbours((0, 0))
    [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    """
    q, r = h
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def distance(a: Hex, b: Hex) -> int:
    """Hex distance (number of steps) between ``a`` and ``b``.

    Computed in cube coordinates as ``(|dq| + |dr| + |ds|) / 2`` [1]_.

    Examples
    --------
    >>> distance((0, 0), (2, -1))
    2
    >>> distance((-5, 1), (4, 1))
    9
    """
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def rotate(h: Hex, k: int = 1) -> Hex:
    """Rotate ``h`` by ``k`` sixth-turns (60 degrees each) about the origin.

    One step maps cube ``(x, y, z)`` to ``(-z, -x, -y)``, i.e. axial
    ``(q, r)`` to ``(-r, q + r)`` [1]_; six steps are the identity.

    Examples
    --------
    >>> rotate((1, 0))
    (0, 1)
    >>> rotate((1, 0), 6)
    (1, 0)
    """
    q, r = h
    for _ in range(k % 6):
        q, r = -r, q + r
    return (q, r)


def reflect(h: Hex) -> Hex:
    """Mirror ``h`` in the axis through the origin that keeps ``q`` (swaps r and s).

    Examples
    --------
    >>> reflect((1, 0))
    (1, -1)
    >>> reflect(reflect((2, -3)))
    (2, -3)
    """
    q, r = h
    return (q, -q - r)


def transform(h: Hex, rotation: int, flip: bool, offset: Hex = (0, 0)) -> Hex:
    """Reflect (if ``flip``), then rotate by ``rotation`` sixth-turns, then translate."""
    if flip:
        h = reflect(h)
    q, r = rotate(h, rotation)
    return (q + offset[0], r + offset[1])


def axial_image(points: Sequence[Hex], k: int) -> list[Hex]:
    """Points of the axial lattice under symmetry ``k`` of the hexagon (``k < 6``: a rotation; else reflected first).

    The one place the 12 symmetries act: hexes use it on their cells, the
    triangle grid (:mod:`.triangle`) on its triangles' centres.

    Examples
    --------
    >>> axial_image([(1, 0), (0, 1)], 1), axial_image([(1, 0)], 6)
    ([(0, 1), (-1, 1)], [(1, -1)])
    """
    return [transform(p, k % 6, k >= 6) for p in points]


#: The 12 symmetries as integer matrices (rows) on axial ``(q, r)`` columns: :func:`axial_image`'s ``k``.
AXIAL_MATRICES: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = tuple(
    ((a[0], b[0]), (a[1], b[1])) for a, b in ((axial_image([(1, 0)], k)[0], axial_image([(0, 1)], k)[0]) for k in range(12)))


def hexagon(radius: int) -> list[Hex]:
    """All hexes within ``radius`` steps of the origin, sorted by ``(r, q)``.

    Examples
    --------
    >>> len(hexagon(5))
    91
    """
    return sorted(((q, r) for q in range(-radius, radius + 1)
                   for r in range(-radius, radius + 1) if abs(q + r) <= radius),
                  key=lambda h: (h[1], h[0]))


def to_pixel(h: Hex, size: float = 1.0) -> tuple[float, float]:
    """Pixel centre of ``h`` for a pointy-top layout (y pointing down), hex radius ``size``."""
    q, r = h
    return (size * math.sqrt(3) * (q + r / 2), size * 1.5 * r)


def text_column(h: Hex) -> int:
    """Column of ``h`` in the text layout of offset rows, up to a constant: ``2q + r`` ("doubled" coordinates [1]_).

    Examples
    --------
    >>> [text_column(h) for h in [(0, 0), (1, 0), (0, 1)]]
    [0, 2, 1]
    """
    return 2 * h[0] + h[1]


def parse_symbols(lines: Sequence[tuple[int, str]], symbols: Mapping[str, int], *, path=None,
                  legend: str = "") -> list[tuple[Hex, int]]:
    """Hexes of a text picture in offset rows: ``[((q, r), symbols[ch]), ...]`` in reading order.

    Parameters
    ----------
    lines : sequence of (int, str)
        (line number, text) of each row, top first; row ``i`` of the picture is ``r = i``.
    symbols : mapping of str -> int
        The characters that mark a hex; ``.`` and spaces mark none.
    path : optional
        The file, for messages.
    legend : str
        Says which characters mean what, in the message for an unknown one.

    Returns
    -------
    list of ((q, r), int)
        ``q`` counts hex positions from the left with the first hex's
        parity (column ``2q + r`` + constant).

    Raises
    ------
    InputError
        Naming the line: an unknown character, or a hex in a column between
        two hex positions of its row.

    Examples
    --------
    >>> parse_symbols([(1, " # #"), (2, "# # #")], {"#": 1})
    [((0, 0), 1), ((1, 0), 1), ((-1, 1), 1), ((0, 1), 1), ((1, 1), 1)]
    """
    out: list[tuple[Hex, int]] = []
    parity = None
    for i, (number, line) in enumerate(lines):
        for col, ch in enumerate(line.rstrip()):
            if ch in " .":
                continue
            if ch not in symbols:
                raise InputError(f"unknown character {ch!r} in {legend}", path=path, line=number)
            if parity is None:
                parity = (col - i) % 2
            elif (col - i) % 2 != parity:
                raise InputError(f"{ch!r} in column {col + 1} lies between two hex positions of its row (rows "
                                 "are shifted half a hex: one row uses every second column)", path=path, line=number)
            out.append((((col - i - parity) // 2, i), symbols[ch]))
    return out


def format_symbols(cells: Mapping[Hex, str], *, empty: str = " ") -> str:
    """A text picture in offset rows (what :func:`parse_symbols` reads): ``cells`` maps a hex to its character.

    Hex positions of the picture's rows that hold no hex get ``empty``.

    Examples
    --------
    >>> print(format_symbols({(0, 0): "#", (1, 0): "#", (0, 1): "#"}, empty="."))
    # #
     #
    """
    rs = [r for _, r in cells]
    xs = [text_column(h) for h in cells]
    x0, width = min(xs), max(xs) - min(xs) + 1
    rows = []
    for r in range(min(rs), max(rs) + 1):
        line = [empty if (x0 + x - r) % 2 == 0 else " " for x in range(width)]
        for h, ch in cells.items():
            if h[1] == r:
                line[text_column(h) - x0] = ch
        rows.append("".join(line).rstrip())
    return "\n".join(rows)


class HexGrid(Grid):
    """The hexagon grid (see the module docstring)."""

    name = "hex"
    cell_noun = "hexagon"
    text_chars = "#."
    dim = 2
    n_rotations = 6
    n_symmetries = 12
    symmetries = tuple((k % 6, k >= 6) for k in range(12))
    linear = tuple((a, b, c, d) for (a, b), (c, d) in AXIAL_MATRICES)
    modes = {"free": 12, "one-sided": 6, "fixed": 1}
    origins = ((0, 0),)
    vertex_degree = 3
    colourings = (   # weight of (q, r) = table[q % 2][r % 2]
        Colouring("q-stripe", ((1, 1), (-1, -1)), ("even-q", "odd-q")),
        Colouring("r-stripe", ((1, -1), (1, -1)), ("even-row", "odd-row")),
        Colouring("s-stripe", ((1, -1), (-1, 1)), ("even-s", "odd-s")),
    )

    def neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        """The 6 adjacent hexes (:data:`DIRECTIONS`).

        Examples
        --------
        >>> len(set(HEX.neighbours((0, 0))))
        6
        """
        q, r = cell
        return tuple(neighbours((q, r)))

    def image(self, cells: Sequence[Cell], k: int) -> list[Cell]:
        (a, b), (c, d) = AXIAL_MATRICES[k]
        return [(a * q + b * r, c * q + d * r) for q, r in cells]

    def shift(self, cells: Sequence[Cell]) -> Cell:
        return (-min(q for q, _ in cells), -min(r for _, r in cells))

    def matrix(self, k: int) -> np.ndarray:
        import numpy as np

        return np.array(AXIAL_MATRICES[k], dtype=np.int64)

    # ---------------------------------------------------------------- text
    def parse(self, lines: Sequence[str], *, path: str | None = None, first_line: int = 1) -> Shape:
        """Hexes of offset rows (``#`` a hex) in normal position.

        Raises
        ------
        InputError
            An unknown character, a hex between two hex positions of its
            row (a row of the wrong parity), or no hex.

        Examples
        --------
        >>> HEX.parse([" # #", "# # #", " # #"])
        ((0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1))
        """
        found = parse_symbols([(first_line + i, ln) for i, ln in enumerate(lines)], {"#": 1}, path=path,
                              legend="a hex grid (use '#' for a hexagon, '.' or a space for none)")
        if not found:
            raise InputError("empty shape: no '#' hexagon", path=path, line=first_line)
        return self.normalize(h for h, _ in found)

    def format(self, cells: Iterable[Cell]) -> str:
        """Offset rows of ``#`` (empty hex positions ``.``), the inverse of :meth:`parse`.

        Examples
        --------
        >>> print(HEX.format(HEX.parse([" # #", "# # #", " # #"])))
         # #
        # # #
         # #
        """
        return format_symbols({(c[0], c[1]): "#" for c in cells}, empty=".")

    def render(self, owner, *, empty: str = ".") -> str:
        """Offset rows with one given character per hex.

        Examples
        --------
        >>> print(HEX.render({(0, 0): "A", (1, 0): "B", (0, 1): "B"}))
        A B
         B
        """
        return format_symbols(dict(owner), empty=empty) if owner else ""

    def text_size(self, cells: Iterable[Cell]) -> tuple[int, int]:
        """``(rows, hex positions per row)`` of the text picture."""
        cells = list(cells)
        xs = [text_column((h[0], h[1])) for h in cells]
        return (1 + max(r for _, r in cells) - min(r for _, r in cells), (max(xs) - min(xs)) // 2 + 1)

    def box(self, *dims: int) -> Shape:
        """The parallelogram of ``rows`` rows of ``cols`` hexes, each row half a hex right of the one above.

        Raises
        ------
        InputError
            Unless two positive sizes are given.
        """
        rows, cols = self._sizes(dims, 2, "a parallelogram (rows, columns)")
        return tuple(sorted((q, r) for r in range(rows) for q in range(cols)))

    # ------------------------------------------------------------- drawing
    def polygons(self, cells: Sequence[Cell]) -> np.ndarray:
        """Pointy-top hexes 1 wide; the hex ``(q, r)`` has its centre at ``(q + r/2 + 1/2, r sqrt(3)/2 + 1/sqrt(3))``."""
        import numpy as np

        arr = np.asarray(list(cells), dtype=float).reshape(-1, 2)
        centres = np.stack([arr[:, 0] + arr[:, 1] / 2 + 0.5, arr[:, 1] * _ROW + _R], axis=1)
        return centres[:, None, :] + np.asarray(_CORNERS)[None, :, :]

    def edge_neighbours(self, cell: Cell) -> tuple[Cell, ...]:
        q, r = cell
        return tuple((q + dq, r + dr) for dq, dr in _EDGE_STEPS)

    def locate(self, x: float, y: float) -> Cell:
        rf = (y - _R) / _ROW
        qf = x - 0.5 - rf / 2
        sf = -qf - rf
        q, r, s = round(qf), round(rf), round(sf)
        dq, dr, ds = abs(q - qf), abs(r - rf), abs(s - sf)
        if dq > dr and dq > ds:
            q = -r - s
        elif dr > ds:
            r = -q - s
        return (int(q), int(r))


#: The hexagon grid.
HEX = HexGrid()

#: Translate a hex set to normal position (smallest ``q`` and ``r`` 0), sorted (:meth:`HexGrid.normalize`).
normalize = HEX.normalize
