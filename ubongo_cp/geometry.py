"""Square-grid polyomino geometry (the default grid) and what every grid's text output shares.

The geometry of every grid lives in :mod:`ubongo_cp.grids`; this module
keeps the square grid's functions under their polyomino names
(:data:`SYMMETRIES` as matrices, :func:`transform` taking one) for the code
and notebooks written against them, and holds the grid-independent
pieces: the region size guard, solution text and label characters.

Conventions (used everywhere in the package for squares):

- a *cell* is ``(row, col)`` with row 0 at the top and col 0 at the left;
- a *shape* is a sorted tuple of cells, *normalised* so that its smallest
  row and smallest column are 0;
- the 8 symmetries of the square (the dihedral group D4) act on cells; a
  *free* polyomino may use all 8 (rule UP-3), a *one-sided* one only the 4
  rotations, a *fixed* one only the identity.

ASCII grids: ``#`` is a cell, ``.`` is empty; rows may be ragged (a short row
is padded with empty cells); lines starting with ``%`` are comments.

References
----------
.. [1] S. W. Golomb, *Polyominoes*, 2nd ed., Princeton University Press
   (1994), ch. 1 (free, one-sided and fixed polyominoes).
"""

from __future__ import annotations

try:   # the class without the module that re-exports it (contextvars: its import is 0.3 % of a card task)
    from _contextvars import ContextVar
except ImportError:  # pragma: no cover - an interpreter without it
    from contextvars import ContextVar
from collections.abc import Iterable, Iterator, Mapping

from .errors import InputError
from .grids import SQUARE, Grid
from .grids.base import Cell, Shape
from .grids.square import SYMMETRIES

__all__ = [
    "Cell",
    "Shape",
    "SYMMETRIES",
    "ORIENTATION_MODES",
    "MAX_REGION_CELLS",
    "MAX_CELLS_OPTION",
    "max_cells_hint",
    "normalize",
    "transform",
    "orientations",
    "symmetry_group",
    "is_connected",
    "parse_grid",
    "format_grid",
    "render_solution",
    "label_chars",
]

#: Default limit on the size of a region (cells); larger regions are rejected
#: as bad input before any placement is enumerated (:mod:`ubongo_cp.pieces`).
MAX_REGION_CELLS = 400

#: How the message for a region over that limit says to raise it: by default the
#: keyword of the functions that take it (``max_cells=``); the command line sets its
#: own option (``--max-cells``), or None for a command that has no such option.
MAX_CELLS_OPTION: ContextVar[str | None] = ContextVar("MAX_CELLS_OPTION", default="max_cells=")


def max_cells_hint() -> str:
    """The end of the message for a region over the cell limit, naming how to raise it (:data:`MAX_CELLS_OPTION`).

    Examples
    --------
    >>> max_cells_hint()
    'a guard against a mistyped region; raise it with max_cells= for larger puzzles'
    """
    option = MAX_CELLS_OPTION.get()
    return "a guard against a mistyped region" + (f"; raise it with {option} for larger puzzles" if option else "")

#: Orientation modes of the square grid and how many symmetries each allows (every grid's:
#: ``Grid.modes``).
ORIENTATION_MODES = dict(SQUARE.modes)


def normalize(cells: Iterable[Cell]) -> Shape:
    """Translate ``cells`` so the minimum row and column are 0; return them sorted.

    Examples
    --------
    >>> normalize([(3, 4), (3, 5), (4, 5)])
    ((0, 0), (0, 1), (1, 1))
    """
    return SQUARE.normalize(cells)


def transform(cells: Iterable[Cell], symmetry: tuple[int, int, int, int]) -> Shape:
    """Apply one of :data:`SYMMETRIES` to ``cells`` and normalise the result."""
    return SQUARE.transform(cells, SYMMETRIES.index(tuple(symmetry)))


def orientations(cells: Iterable[Cell], mode: str = "free") -> list[Shape]:
    """The distinct fixed orientations of a polyomino, in a deterministic order.

    Parameters
    ----------
    cells : iterable of (row, col)
        The polyomino.
    mode : {"free", "one-sided", "fixed"}
        ``"free"`` allows rotations and reflections (rule UP-3), ``"one-sided"``
        rotations only, ``"fixed"`` only the shape as given.

    Returns
    -------
    list of Shape
        Distinct normalised shapes; 1, 2, 4 or 8 of them for ``"free"``.

    Raises
    ------
    ValueError
        For an unknown ``mode``.

    Examples
    --------
    >>> len(orientations([(0, 0), (0, 1), (1, 0), (1, 1)]))
    1
    >>> len(orientations([(0, 0), (1, 0), (1, 1), (2, 1)], "one-sided"))  # S tetromino
    2
    """
    return SQUARE.orientations(cells, mode)


def symmetry_group(cells: Iterable[Cell]) -> list[tuple[int, int, int, int]]:
    """The symmetries in :data:`SYMMETRIES` that map the shape onto itself.

    Used for the symmetry-reduced solution count of a region (rule UP-5).

    Examples
    --------
    >>> len(symmetry_group([(r, c) for r in range(3) for c in range(20)]))  # 3x20 rectangle
    4
    """
    return [SYMMETRIES[k] for k in SQUARE.symmetry_group(cells)]


def is_connected(cells: Iterable[Cell]) -> bool:
    """True when the cells form one edge-connected component (an empty set is not).

    Examples
    --------
    >>> is_connected([(0, 0), (0, 1)]), is_connected([(0, 0), (1, 1)])
    (True, False)
    """
    return SQUARE.is_connected(cells)


def parse_grid(lines: Iterable[str], *, path: str | None = None, first_line: int = 1) -> Shape:
    """Parse ASCII rows (``#`` cell, ``.`` empty) into a normalised shape (:meth:`SquareGrid.parse`).

    Raises
    ------
    InputError
        On a character other than ``#`` and ``.``, or when no cell is marked.

    Examples
    --------
    >>> parse_grid(["#.", "##"])
    ((0, 0), (1, 0), (1, 1))
    """
    return SQUARE.parse(list(lines), path=path, first_line=first_line)


def format_grid(cells: Iterable[Cell], grid: Grid = SQUARE) -> str:
    """The text picture of a shape on ``grid`` (``#``/``.`` rows on squares), the inverse of its parse.

    Examples
    --------
    >>> print(format_grid([(0, 0), (1, 0), (1, 1)]))
    #.
    ##
    """
    return grid.format(cells)


def render_solution(assignment: Mapping[str, Iterable[Cell]], *, empty: str = ".",
                    region: Iterable[Cell] | None = None, grid: Grid = SQUARE) -> str:
    """Draw cells labelled by key in the grid's text layout (one character per cell: the key's first letter).

    Parameters
    ----------
    assignment : mapping label -> cells
        Typically piece name -> covered cells of one solution; each label is
        drawn with one distinct character (see :func:`label_chars`).
    empty : str
        Character for cells of the picture that no label covers.
    region : iterable of cells, optional
        Region cells left uncovered are drawn as ``#``.
    grid : Grid
        The cells' grid (:mod:`ubongo_cp.grids`; default square).

    Examples
    --------
    >>> print(render_solution({"A": [(0, 0), (0, 1)], "B": [(1, 0), (1, 1)]}))
    AA
    BB
    """
    owner: dict[Cell, str] = {}
    for cell in region or ():
        owner[tuple(cell)] = "#"
    chars = label_chars(list(assignment))
    for label, cells in assignment.items():
        for cell in cells:
            owner[tuple(cell)] = chars[label]
    return grid.render(owner, empty=empty)


_LABEL_POOL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@$&*+=?"
#: Characters a label is never drawn with: the empty mark and a blank.
_NOT_A_LABEL = frozenset(". ")


def _label_pool() -> Iterator[str]:
    """Drawing characters: the ASCII pool, then single-width letters of Unicode (Latin-1, Greek, Cyrillic...).

    About 16,000 in all (the cased letters first, then the other letters of
    single width).
    """
    import unicodedata

    yield from _LABEL_POOL
    for categories in (("Lu", "Ll"), ("Lo",)):
        for code in range(0xC0, 0x30000):
            ch = chr(code)
            if unicodedata.category(ch) in categories and unicodedata.east_asian_width(ch) in ("N", "Na", "H"):
                yield ch


def label_chars(labels: Iterable[str]) -> dict[str, str]:
    """One distinct drawing character per label: its first letter when free.

    Up to about 16,000 labels get distinct characters: after the ASCII
    letters and digits come letters of other alphabets (``À``, ``α``, ...).

    Raises
    ------
    InputError
        For more labels than there are such characters.

    Examples
    --------
    >>> label_chars(["I2", "I3", "L3"])
    {'I2': 'I', 'I3': 'A', 'L3': 'L'}
    >>> len(set(label_chars([f"P{i}" for i in range(300)]).values()))
    300
    """
    labels = list(dict.fromkeys(labels))
    firsts = [label[:1] for label in labels]
    chars = {label: label[0] for label in labels
             if label and label[0] not in _NOT_A_LABEL and firsts.count(label[0]) == 1}
    taken = set(chars.values())
    pool = _label_pool()
    for label in labels:
        if label not in chars:
            first = label[:1]
            if first and first not in taken and first not in _NOT_A_LABEL:
                pick = first
            else:
                pick = next((ch for ch in pool if ch not in taken), "")
                if not pick:
                    raise InputError(f"{len(labels)} pieces cannot each be drawn with a character of their own "
                                     f"(at most {len(taken)}); show fewer solutions or give fewer pieces")
            chars[label] = pick
            taken.add(pick)
    return {label: chars[label] for label in labels}
