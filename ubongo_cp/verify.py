"""An independent check of a polyomino solution (rules UP-2, UP-3), for any backend's output.

It re-derives every fact from the piece shapes and the region and shares no
code with the instance (:mod:`ubongo_cp.cover`), so tests can run it on
every solution any solver returns.
"""

from __future__ import annotations

from typing import Sequence

from .geometry import SYMMETRIES, Cell, transform
from .pieces import Piece, Region

__all__ = ["verify_solution"]


def verify_solution(pieces: Sequence[Piece], region: Region, solution: dict[str, Sequence[Cell]], *,
                    mode: str = "free", optional_pieces: bool = False) -> str | None:
    """Independent check of a solution; returns ``None`` if valid, else the reason.

    Does not use the instance: it re-derives every fact from the shapes, so it
    can check any backend. Checks rule UP-2 (every region cell covered once,
    nothing outside, each named piece used once) and UP-3 (each piece's cells
    are one of its orientations).

    Examples
    --------
    >>> from ubongo_cp.pieces import Piece
    >>> verify_solution([Piece("D", ((0, 0), (0, 1)))], Region.rectangle(1, 2), {"D": [(0, 0), (0, 1)]})
    """
    names: dict[str, Piece] = {}
    counts: dict[str, int] = {}
    for p in pieces:
        counts[p.name] = counts.get(p.name, 0) + 1
        names[p.name] = p
    used: dict[str, int] = {}
    covered: dict[Cell, str] = {}
    region_cells = set(region.cells)
    for key, cells in solution.items():
        name = key.split("#")[0]
        if name not in names:
            return f"solution uses unknown piece {key!r}"
        used[name] = used.get(name, 0) + 1
        cells = [(c[0], c[1]) for c in cells]
        if transform(cells, SYMMETRIES[0]) not in names[name].orientations(mode):
            return f"cells of {key} are not an orientation of piece {name}"
        for cell in cells:
            if cell not in region_cells:
                return f"{key} covers {cell}, outside the region"
            if cell in covered:
                return f"cell {cell} covered by both {covered[cell]} and {key}"
            covered[cell] = key
    for name, n in counts.items():
        if used.get(name, 0) > n or (not optional_pieces and used.get(name, 0) != n):
            return f"piece {name} used {used.get(name, 0)} times, expected {n}"
    if len(covered) != len(region_cells):
        missing = sorted(region_cells - set(covered))[0]
        return f"cell {missing} is not covered"
    return None
