"""An independent check of a solution on any grid (rules UP-2, UP-3), for any backend's output.

It re-derives every fact from the piece shapes and the region and shares no
code with the instance (:mod:`ubongo_cp.cover`), so tests can run it on
every solution any solver returns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .geometry import Cell
from .pieces import EMPTY, Piece, Region

__all__ = ["verify_solution"]


def verify_solution(pieces: Sequence[Piece], region: Region, solution: Mapping[str, Sequence[Cell]], *,
                    mode: str = "free", optional_pieces: bool = False,
                    ranges: Mapping[str, tuple[int, int]] | None = None, max_empty: int = 0) -> str | None:
    """Independent check of a solution; returns ``None`` if valid, else the reason.

    Does not use the instance: it re-derives every fact from the shapes, so it
    can check any backend. Checks rule UP-2 (every region cell covered once,
    nothing outside, each named piece used once) and UP-3 (each piece's cells
    are one of its orientations on the region's grid, a translation of the
    grid away).

    Parameters
    ----------
    pieces : sequence of Piece
        The task's pieces (a name given twice: two copies).
    region : Region
        The region (its optional cells may stay uncovered).
    solution : mapping of str -> sequence of cells
        Piece name (``"name#2"`` for a second copy) -> covered cells; the
        cells left empty under the key ``"empty"``
        (:data:`ubongo_cp.pieces.EMPTY`).
    mode : str
        Orientations allowed (UP-3: free).
    optional_pieces : bool
        Each piece may be left out (subset analysis).
    ranges : mapping of str -> (int, int), optional
        Piece name -> ``(lo, hi)``: that piece used between ``lo`` and
        ``hi`` times instead of its copies in ``pieces`` (a card task's
        count ranges).
    max_empty : int
        Region cells that may stay uncovered, listed under ``"empty"``.

    Examples
    --------
    >>> from ubongo_cp.pieces import Piece
    >>> verify_solution([Piece("D", ((0, 0), (0, 1)))], Region.rectangle(1, 2), {"D": [(0, 0), (0, 1)]})
    """
    if not isinstance(solution, Mapping):
        return f"a solution maps piece names to cells, got {type(solution).__name__}"
    dim = region.grid.dim
    for key, cells in solution.items():   # the shape of the data first: a reason, not an exception from below
        if not _cells(cells, dim):
            return f"the cells of {key!r} are not a list of cells of {dim} whole coordinates: {cells!r}"
    names: dict[str, Piece] = {}
    counts: dict[str, int] = {}
    for p in pieces:
        counts[p.name] = counts.get(p.name, 0) + 1
        names[p.name] = p
    used: dict[str, int] = {}
    covered: dict[Cell, str] = {}
    region_cells = set(region.cells)
    optional = set(region.optional)
    grid = region.grid
    for key, cells in solution.items():
        name = key.split("#")[0]
        if key == EMPTY and max_empty:
            empty = [tuple(c) for c in cells]
            if len(empty) > max_empty:
                return f"{len(empty)} cells left empty, at most {max_empty} allowed"
            for cell in empty:
                if cell not in region_cells:
                    return f"empty cell {cell} is not a cell of the region"
                if cell in covered:
                    return f"cell {cell} is both covered by {covered[cell]} and left empty"
                covered[cell] = key
            continue
        if name not in names:
            return f"solution uses unknown piece {key!r}"
        used[name] = used.get(name, 0) + 1
        cells = [tuple(c) for c in cells]
        if names[name].grid is not grid or grid.normalize(cells) not in names[name].orientations(mode):
            return f"cells of {key} are not an orientation of piece {name}"
        for cell in cells:
            if cell not in region_cells and cell not in optional:
                return f"{key} covers {cell}, outside the region"
            if cell in covered:
                return f"cell {cell} covered by both {covered[cell]} and {key}"
            covered[cell] = key
    for name, n in counts.items():
        lo, hi = (ranges or {}).get(name, (0 if optional_pieces else n, n))
        if not lo <= used.get(name, 0) <= hi:
            expected = str(hi) if lo == hi else f"{lo} to {hi}"
            return f"piece {name} used {used.get(name, 0)} times, expected {expected}"
    if not region_cells <= set(covered):
        missing = sorted(region_cells - set(covered))[0]
        return f"cell {missing} is not covered"
    return None


def _cells(cells, dim: int) -> bool:
    """Whether ``cells`` is a list of cells: each ``dim`` whole numbers (numpy's too, not bools)."""
    if isinstance(cells, (str, bytes)):
        return False
    try:
        items = [tuple(c) for c in cells]
    except TypeError:
        return False
    return all(len(c) == dim and all(hasattr(x, "__index__") and not isinstance(x, bool) for x in c) for c in items)
