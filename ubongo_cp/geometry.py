"""Square-grid polyomino geometry: cells, symmetries, orientations, ASCII grids.

Conventions (used everywhere in the package):

- a *cell* is ``(row, col)`` with row 0 at the top and col 0 at the left;
- a *shape* is a sorted tuple of cells, *normalised* so that its smallest row
  and smallest column are 0;
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

from collections import deque
from typing import Iterable, Iterator, Mapping

from .errors import InputError

__all__ = [
    "Cell",
    "Shape",
    "SYMMETRIES",
    "ORIENTATION_MODES",
    "MAX_REGION_CELLS",
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

#: A cell ``(row, col)``, rows downwards.
Cell = tuple[int, int]
#: A polyomino as its cells.
Shape = tuple[Cell, ...]

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

#: Default limit on the size of a region (cells); larger regions are rejected
#: as bad input before any placement is enumerated (:mod:`ubongo_cp.pieces`).
MAX_REGION_CELLS = 400

#: Orientation modes and how many symmetries each allows.
ORIENTATION_MODES = {"free": 8, "one-sided": 4, "fixed": 1}


def normalize(cells: Iterable[Cell]) -> Shape:
    """Translate ``cells`` so the minimum row and column are 0; return them sorted.

    Examples
    --------
    >>> normalize([(3, 4), (3, 5), (4, 5)])
    ((0, 0), (0, 1), (1, 1))
    """
    cells = list(cells)
    if not cells:
        return ()
    r0 = min(r for r, _ in cells)
    c0 = min(c for _, c in cells)
    return tuple(sorted((r - r0, c - c0) for r, c in cells))


def transform(cells: Iterable[Cell], symmetry: tuple[int, int, int, int]) -> Shape:
    """Apply one of :data:`SYMMETRIES` to ``cells`` and normalise the result."""
    a, b, c, d = symmetry
    return normalize((a * r + b * q, c * r + d * q) for r, q in cells)


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
    if mode not in ORIENTATION_MODES:
        raise ValueError(f"unknown orientation mode {mode!r}; expected one of {sorted(ORIENTATION_MODES)}")
    cells = list(cells)
    seen: dict[Shape, None] = {}
    for sym in SYMMETRIES[: ORIENTATION_MODES[mode]]:
        seen.setdefault(transform(cells, sym), None)
    return list(seen)


def symmetry_group(cells: Iterable[Cell]) -> list[tuple[int, int, int, int]]:
    """The symmetries in :data:`SYMMETRIES` that map the shape onto itself.

    Used for the symmetry-reduced solution count of a region (rule UP-5).

    Examples
    --------
    >>> len(symmetry_group([(r, c) for r in range(3) for c in range(20)]))  # 3x20 rectangle
    4
    """
    base = normalize(cells)
    return [sym for sym in SYMMETRIES if transform(base, sym) == base]


def is_connected(cells: Iterable[Cell]) -> bool:
    """True when the cells form one edge-connected component (an empty set is not).

    Examples
    --------
    >>> is_connected([(0, 0), (0, 1)]), is_connected([(0, 0), (1, 1)])
    (True, False)
    """
    cells = set(cells)
    if not cells:
        return False
    start = next(iter(cells))
    seen = {start}
    todo = deque([start])
    while todo:
        r, c = todo.popleft()
        for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(cells)


def parse_grid(lines: Iterable[str], *, path: str | None = None, first_line: int = 1) -> Shape:
    """Parse ASCII rows (``#`` cell, ``.`` empty) into a normalised shape.

    Parameters
    ----------
    lines : iterable of str
        The rows, top first; trailing white space is ignored and rows may be
        ragged. Comment lines (``%``) must already be removed.
    path, first_line : optional
        Where the rows come from, for error messages.

    Raises
    ------
    InputError
        On a character other than ``#`` and ``.``, or when no cell is marked.

    Examples
    --------
    >>> parse_grid(["#.", "##"])
    ((0, 0), (1, 0), (1, 1))
    """
    cells = []
    n = 0
    for n, line in enumerate(lines):
        for col, ch in enumerate(line.rstrip()):
            if ch == "#":
                cells.append((n, col))
            elif ch != ".":
                raise InputError(f"unknown character {ch!r} in grid (use '#' for a cell, '.' for empty)",
                                 path=path, line=first_line + n)
    if not cells:
        raise InputError("empty shape: no '#' cell", path=path, line=first_line)
    return normalize(cells)


def format_grid(cells: Iterable[Cell]) -> str:
    """ASCII rows of a shape (``#``/``.``), the inverse of :func:`parse_grid`.

    Examples
    --------
    >>> print(format_grid([(0, 0), (1, 0), (1, 1)]))
    #.
    ##
    """
    return render_solution({"#": list(cells)}, empty=".")


def render_solution(assignment: Mapping[str, Iterable[Cell]], *, empty: str = ".",
                    region: Iterable[Cell] | None = None) -> str:
    """Draw cells labelled by key (one character per cell: the key's first letter).

    Parameters
    ----------
    assignment : mapping label -> cells
        Typically piece name -> covered cells of one solution; each label is
        drawn with one distinct character (see :func:`label_chars`).
    empty : str
        Character for cells of the bounding box that no label covers.
    region : iterable of cells, optional
        Region cells left uncovered are drawn as ``#``.

    Examples
    --------
    >>> print(render_solution({"A": [(0, 0), (0, 1)], "B": [(1, 0), (1, 1)]}))
    AA
    BB
    """
    owner: dict[Cell, str] = {}
    for r, c in region or ():
        owner[(r, c)] = "#"
    chars = label_chars(list(assignment))
    for label, cells in assignment.items():
        for r, c in cells:
            owner[(r, c)] = chars[label]
    if not owner:
        return ""
    r0 = min(r for r, _ in owner)
    c0 = min(c for _, c in owner)
    r1 = max(r for r, _ in owner)
    c1 = max(c for _, c in owner)
    return "\n".join(
        "".join(owner.get((r, c), empty) for c in range(c0, c1 + 1)).rstrip(" ")
        for r in range(r0, r1 + 1)
    )


_LABEL_POOL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@$&*+=?"
#: Characters a label is never drawn with: the empty mark and a blank.
_NOT_A_LABEL = frozenset(". ")


def _label_pool() -> Iterator[str]:
    """Drawing characters: the ASCII pool, then single-width letters of Unicode (Latin-1, Greek, Cyrillic...).

    Endless for any region the toolkit accepts (a 400-cell region holds at
    most 400 pieces; Unicode has thousands of such letters).
    """
    import unicodedata

    yield from _LABEL_POOL
    for code in range(0xC0, 0x3000):
        ch = chr(code)
        if unicodedata.category(ch) in ("Lu", "Ll") and unicodedata.east_asian_width(ch) in ("N", "Na", "H"):
            yield ch


def label_chars(labels: Iterable[str]) -> dict[str, str]:
    """One distinct drawing character per label: its first letter when free.

    Any number of labels gets distinct characters: after the ASCII letters
    and digits come letters of other alphabets (``À``, ``α``, ...).

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
                pick = next(ch for ch in pool if ch not in taken)
            chars[label] = pick
            taken.add(pick)
    return {label: chars[label] for label in labels}
