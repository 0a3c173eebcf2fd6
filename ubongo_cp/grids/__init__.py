"""Cell grids: the geometry below every puzzle — squares, hexagons, triangles and cubes.

One module per grid, each one instance of the :class:`~.base.Grid`
protocol (:mod:`.base`: cells and coordinates, neighbours, the symmetry
group, normal and canonical forms, the text layout of files, the drawing
outline):

============  ===================  =========================  ======================  ==========================
name          module               cell                       symmetries              modes
============  ===================  =========================  ======================  ==========================
``square``    :mod:`.square`       ``(row, col)``             8 (D4)                  free, one-sided, fixed
``hex``       :mod:`.hex`          axial ``(q, r)``           12 (D6)                 free, one-sided, fixed
``triangle``  :mod:`.triangle`     ``(row, col)``, up when    12 (D6 on up and        free, one-sided, fixed
                                   ``row + col`` is even      down triangles)
``cube``      :mod:`.cube`         ``(layer, row, col)``      48 (24 rotations,       free (rotations), mirror,
                                                              24 reflections)         fixed
============  ===================  =========================  ======================  ==========================

Piece-set and region files name their grid on a header line ``grid: hex``
(:mod:`ubongo_cp.pieces`); without one they are on the square grid.
"""

from __future__ import annotations

from ..errors import InputError
from .base import Cell, Colouring, Grid, Plane, Shape
from .cube import CUBE
from .hex import HEX
from .square import SQUARE
from .triangle import TRIANGLE

__all__ = ["Grid", "Cell", "Shape", "Colouring", "Plane", "GRIDS", "SQUARE", "HEX", "TRIANGLE", "CUBE", "get_grid"]

#: Every grid by name, the default (square) first.
GRIDS: dict[str, Grid] = {g.name: g for g in (SQUARE, HEX, TRIANGLE, CUBE)}


def get_grid(name: str | Grid) -> Grid:
    """The grid called ``name`` (a grid is returned as it is).

    Raises
    ------
    InputError
        For a name that is not one of :data:`GRIDS`.

    Examples
    --------
    >>> get_grid("hex").n_symmetries, get_grid(SQUARE) is SQUARE
    (12, True)
    """
    if isinstance(name, Grid):
        return name
    try:
        return GRIDS[name]
    except (KeyError, TypeError):
        raise InputError(f"unknown grid {name!r}; expected one of {', '.join(GRIDS)}") from None
