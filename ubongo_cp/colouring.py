"""Colouring arguments: necessary conditions for a tiling, proved before any search.

Colour the plane with weights ``+1`` / ``-1`` that repeat with period 2 in
every direction. Each grid names its colourings
(:attr:`ubongo_cp.grids.Grid.colourings`): on squares the *checkerboard*
``(-1)^(row + col)``, *column stripes* ``(-1)^col`` and *row stripes*
``(-1)^row``; on triangles *up-down* (``+1`` for an up triangle) and
stripes; on hexagons stripes along the three axes; on cubes the 3-D
checkerboard and stripes. A placement of a piece covers cells of total
weight that depends only on its fixed orientation and on the parities of its
offset, so each piece can contribute one of a few values (at most
``orientations x offset parities``), its *achievable imbalances*. A tiling of the
region uses every piece once (UP-2), so the region's total weight must be a
sum of one achievable imbalance per piece; when no choice gives it, there is
no tiling, whatever the search would do. Which sums are reachable is a
subset-sum question answered by dynamic programming over the pieces, on
integers between ``-area`` and ``area``.

Each condition is a proof of "no solution": the achievable sets are
supersets of what the placements inside the region can give (any offset
parity is assumed possible), so a reachable sum never hides a tiling. The
classic examples it settles at once: three copies of each free tetromino on
6x10 and the 35 hexominoes on a rectangle of 210 cells (an odd number of
pieces with imbalance 2, every other piece balanced, against a balanced
region), and the seven one-sided tetrominoes on 4x7 (only T is unbalanced).

References
----------
.. [1] S. W. Golomb, *Polyominoes: Puzzles, Patterns, Problems, and
   Packings*, 2nd ed., Princeton University Press (1994), ch. 2
   (checkerboard colouring, e.g. the 35 hexominoes tile no rectangle) and
   ch. 3 (other colourings, stripes among them).
.. [2] D. E. Knuth, *The Art of Computer Programming*, Vol. 4B, 7.2.2.1
   (2022): colouring arguments beside dancing links for polyomino packing.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from collections.abc import Sequence

from .grids import SQUARE
from .pieces import Piece, Region

__all__ = ["COLOURINGS", "achievable_imbalances", "colouring_obstruction", "reachable_sums"]

#: The square grid's colourings, in the order checked (name, weight of a cell, names of its two
#: colours); every grid's are :attr:`ubongo_cp.grids.Grid.colourings`.
COLOURINGS = SQUARE.colourings


def achievable_imbalances(piece: Piece, colouring: str = "checkerboard", mode: str = "free") -> frozenset[int]:
    """Weights a placement of ``piece`` can cover under ``colouring`` (one per orientation and offset parity).

    Parameters
    ----------
    piece : Piece
    colouring : str
        The name of one of the piece's grid's colourings (on squares :data:`COLOURINGS`).
    mode : str
        Orientations allowed (UP-3: free).

    Returns
    -------
    frozenset of int
        Colour-one cells minus colour-two cells, over every fixed
        orientation of the mode and every parity of the offset.

    Raises
    ------
    KeyError
        For a colouring name the grid does not have.

    Examples
    --------
    >>> T = Piece("T4", ((0, 0), (0, 1), (0, 2), (1, 1)))
    >>> sorted(achievable_imbalances(T)), sorted(achievable_imbalances(T, "column-stripe"))
    ([-2, 2], [-2, 0, 2])
    """
    found = _piece_imbalances(piece, mode).get(colouring)
    if found is None:
        raise KeyError(f"the {piece.grid.name} grid has no {colouring!r} colouring "
                       f"({', '.join(c.name for c in piece.grid.colourings)})")
    return found


def reachable_sums(choices: Sequence[frozenset[int]]) -> set[int]:
    """Every sum of one value from each set (subset-sum by dynamic programming).

    Notes
    -----
    O(len(choices) x span x max set size), span being the range of the
    partial sums (at most twice the region's area here).

    Examples
    --------
    >>> sorted(reachable_sums([frozenset({-2, 2})] * 3))
    [-6, -2, 2, 6]
    """
    mask, offset = _reachable_mask(choices)
    return {i - offset for i in range(mask.bit_length()) if mask >> i & 1}


def colouring_obstruction(pieces: Sequence[Piece], region: Region, mode: str = "free") -> str | None:
    """Why no tiling of ``region`` by all of ``pieces`` exists by a colouring argument; else ``None``.

    Tries each of the region's grid's colourings in turn (see the module
    docstring). Assumes every piece is used exactly once (UP-2; not for the
    subset analysis, where pieces are optional).

    Parameters
    ----------
    pieces : sequence of Piece
        The piece copies (a name may repeat).
    region : Region
    mode : str

    Returns
    -------
    str or None
        The reason, naming the colouring, e.g. ``"checkerboard colouring:
        the region has 14 black and 14 white cells, but the pieces always
        cover black minus white = one of -2, 2 (Golomb)"``.

    Examples
    --------
    >>> from ubongo_cp.pieces import load_pieces
    >>> tetrominoes = load_pieces("tetrominoes").pieces  # I O T S L: only T is unbalanced
    >>> print(colouring_obstruction(tetrominoes, Region.rectangle(4, 5)))
    checkerboard colouring: the region has 10 black and 10 white cells, but the pieces always cover black minus white = one of -2, 2 (Golomb)
    >>> colouring_obstruction([tetrominoes[1]] * 4, Region.rectangle(4, 4)) is None  # four O
    True
    """
    area = region.area
    per_piece = [_piece_imbalances(p, mode) for p in pieces]
    for colouring, target in zip(region.grid.colourings, _targets(region.cells, region.grid)):
        name, (one, two) = colouring.name, colouring.colours
        choices = [found[name] for found in per_piece]
        mask, offset = _reachable_mask(choices)
        if target + offset < 0 or not mask >> (target + offset) & 1:
            sums = reachable_sums(choices)
            n_one = (area + target) // 2
            return (f"{name} colouring: the region has {n_one} {one} and {area - n_one} {two} cells, but "
                    f"the pieces always cover {one} minus {two} = {_describe(sums)} (Golomb)")
    return None


def _reachable_mask(choices: Sequence[frozenset[int]]) -> tuple[int, int]:
    """The reachable sums as bits of an integer: bit ``s + offset`` is set when sum ``s`` is reachable."""
    mask, offset = 1, 0
    for values in choices:
        low = min(values)
        shifted = 0
        for v in values:
            shifted |= mask << (v - low)
        mask, offset = shifted, offset - low
    return mask, offset


@lru_cache(maxsize=4096)
def _targets(cells, grid) -> tuple[int, ...]:
    """The region's total weight under each of its grid's colourings (a deck's regions recur: cached)."""
    counts = grid.class_counts(cells)    # the cells by the parities of their coordinates
    classes = list(product(range(2), repeat=grid.dim))
    return tuple(sum([c.weight(key) * n for key, n in zip(classes, counts) if n]) for c in grid.colourings)


@lru_cache(maxsize=4096)
def _piece_imbalances(piece: Piece, mode: str) -> dict[str, frozenset[int]]:
    """The piece's achievable imbalances under each of its grid's colourings, by name: summed from its class counts
    (:meth:`~ubongo_cp.grids.Grid.colouring_imbalances`) or, where the grid needs them (triangles), from its
    orientations' residue signatures (:meth:`~ubongo_cp.grids.Grid.orientation_signatures`) made once for every
    colouring of one period."""
    grid = piece.grid
    found = grid.colouring_imbalances(piece.cells, mode)
    if found is not None:
        return {colouring.name: values for colouring, values in zip(grid.colourings, found)}
    signatures: dict[tuple[int, ...], frozenset[tuple[int, ...]]] = {}
    out = {}
    for colouring in grid.colourings:
        period = colouring.period
        if period not in signatures:
            signatures[period] = grid.orientation_signatures(piece.cells, mode, period)
        out[colouring.name] = grid.achievable_from(signatures[period], colouring)
    return out


def _describe(values: set[int]) -> str:
    """``one of -2, 2`` for a few values, else their range and step."""
    ordered = sorted(values)
    if len(ordered) <= 6:
        return "one of " + ", ".join(map(str, ordered)) if len(ordered) > 1 else str(ordered[0])
    steps = {b - a for a, b in zip(ordered, ordered[1:])}
    step = f" in steps of {steps.pop()}" if len(steps) == 1 else ""
    return f"a value from {ordered[0]} to {ordered[-1]}{step}"
