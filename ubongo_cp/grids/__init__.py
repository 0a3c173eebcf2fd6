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

from collections.abc import Iterator, Mapping
from importlib import import_module

from ..errors import InputError
from .base import Cell, Colouring, Grid, Plane, Shape
from .square import SQUARE

TYPE_CHECKING = False
if TYPE_CHECKING:
    from .cube import CUBE
    from .hex import HEX
    from .triangle import TRIANGLE

__all__ = ["Grid", "Cell", "Shape", "Colouring", "Plane", "GRIDS", "SQUARE", "HEX", "TRIANGLE", "CUBE", "get_grid"]

#: The name of each grid's instance in its module (:mod:`.square`, :mod:`.hex`, ...), the default first.
_INSTANCES = {"square": "SQUARE", "hex": "HEX", "triangle": "TRIANGLE", "cube": "CUBE"}


class _Grids(Mapping[str, Grid]):
    """Every grid by name, the default (square) first: a grid's module is imported when the grid is first
    asked for (a command on squares imports none of the others)."""

    def __getitem__(self, name: str) -> Grid:
        if name not in _INSTANCES:
            raise KeyError(name)
        return getattr(import_module(f"{__name__}.{name}"), _INSTANCES[name])

    def __iter__(self) -> Iterator[str]:
        return iter(_INSTANCES)

    def __len__(self) -> int:
        return len(_INSTANCES)

    def __repr__(self) -> str:
        return f"GRIDS({', '.join(_INSTANCES)})"


#: Every grid by name, the default (square) first (a read-only mapping; each module imported when first used).
GRIDS: Mapping[str, Grid] = _Grids()


def __getattr__(name: str) -> Grid:
    """``HEX``, ``TRIANGLE`` and ``CUBE``: their modules imported when first asked for."""
    for key, instance in _INSTANCES.items():
        if name == instance:
            return GRIDS[key]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names with those :func:`__getattr__` gives out on first use (PEP 562)."""
    return sorted(set(globals()) | set(__all__))


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
