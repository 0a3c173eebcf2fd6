"""Orion Duel tiles as data: the 14 two-coloured tiles of each player.

A tile is a polyhex whose hexes carry a colour relative to the owner:
``OWN`` (the player's colour) or ``OPP`` (the opponent's colour). The default
set is the public fact in RULES.md section 4 ("Each player has 14 tiles, 36
hexes (24 own colour, 12 opponent colour)"):

====  ======================================================  =====
name  shape (own = O, opponent = x)                           count
====  ======================================================  =====
S1    single own hex                                          1
D2    two hexes, own + own                                    1
D1*   two hexes, own + opponent                               3
I3*   straight line of three: O O x (opponent hex at an end)  3
V3*   bent line of three (120 degrees): O O x                 3
T3*   triangle of three mutually adjacent hexes: O O x        3
====  ======================================================  =====

Tiles may be rotated (OD-2); whether they may be turned over is unknown,
so ``flips`` is *configurable* with the default ``True`` (RULES.md §4).
The fixed orientations of a tile are the distinct coloured hex sets among
the 6 rotations (times 2 reflections when flips are allowed), up to
translation.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ...errors import InputError
from .hexgrid import Hex, distance, transform

__all__ = ["OWN", "OPP", "Tile", "Orientation", "TileSet", "default_tiles"]

#: Colour of a tile hex relative to the tile's owner.
OWN = 1
OPP = 0


@dataclass(frozen=True)
class Orientation:
    """One fixed orientation of a tile: ``rotation`` sixth-turns after an optional reflection.

    ``cells`` are the transformed base cells (the tile's first base cell
    stays at the origin, so a placement's anchor is where that cell lands).
    """

    rotation: int
    flip: bool
    cells: tuple[tuple[Hex, int], ...]


@dataclass(frozen=True)
class Tile:
    """A two-coloured polyhex tile.

    Parameters
    ----------
    name : str
        Unique name within a tile set (``"I3b"``).
    cells : tuple of ((q, r), colour)
        Base cells with colour :data:`OWN` or :data:`OPP`; the first cell
        must be ``(0, 0)`` (the anchor).

    Raises
    ------
    InputError
        If the cells are empty, repeat, are not connected, or the first cell
        is not the origin.
    """

    name: str
    cells: tuple[tuple[Hex, int], ...]

    def __post_init__(self) -> None:
        hexes = [tuple(h) for h, _ in self.cells]
        if not hexes:
            raise InputError(f"tile '{self.name}' has no hexes")
        if hexes[0] != (0, 0):
            raise InputError(f"tile '{self.name}': first cell must be (0, 0), got {hexes[0]}")
        if len(set(hexes)) != len(hexes):
            raise InputError(f"tile '{self.name}': hexes repeat")
        if any(c not in (OWN, OPP) for _, c in self.cells):
            raise InputError(f"tile '{self.name}': colours must be OWN (1) or OPP (0)")
        seen, todo = {hexes[0]}, [hexes[0]]
        while todo:
            h = todo.pop()
            for g in hexes:
                if g not in seen and distance(g, h) == 1:
                    seen.add(g)
                    todo.append(g)
        if len(seen) != len(hexes):
            raise InputError(f"tile '{self.name}' is not connected")

    @property
    def size(self) -> int:
        """Number of hexes."""
        return len(self.cells)

    @property
    def own_count(self) -> int:
        """Number of hexes in the owner's colour."""
        return sum(c == OWN for _, c in self.cells)

    def orientations(self, flips: bool = True) -> tuple[Orientation, ...]:
        """The distinct fixed orientations (coloured hex sets up to translation).

        Examples
        --------
        >>> t = default_tiles().tiles
        >>> [len(x.orientations()) for x in t]
        [1, 3, 6, 6, 6, 6, 6, 6, 12, 12, 12, 6, 6, 6]
        >>> len(t[8].orientations(flips=False))
        6
        """
        out, keys = [], set()
        for flip in ((False, True) if flips else (False,)):
            for rot in range(6):
                cells = tuple((transform(h, rot, flip), c) for h, c in self.cells)
                key = _shape_key(cells)
                if key not in keys:
                    keys.add(key)
                    out.append(Orientation(rot, flip, cells))
        return tuple(out)


@dataclass(frozen=True)
class TileSet:
    """The tiles each player owns (both players own the same shapes).

    Parameters
    ----------
    tiles : tuple of Tile
        The tiles, in a fixed order (their index is the tile id).
    flips : bool
        Whether tiles may be turned over (*configurable*, default True).
    """

    tiles: tuple[Tile, ...]
    flips: bool = True

    def __post_init__(self) -> None:
        names = [t.name for t in self.tiles]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise InputError(f"tile set: tile names repeat: {dup}")

    @cached_property
    def names(self) -> dict[str, int]:
        """Tile name -> tile index."""
        return {t.name: i for i, t in enumerate(self.tiles)}

    def __hash__(self) -> int:
        return hash((self.tiles, self.flips))


def default_tiles(flips: bool = True) -> TileSet:
    """The 14 tiles of one player (RULES.md section 4): 36 hexes, 24 own, 12 opponent.

    Examples
    --------
    >>> ts = default_tiles()
    >>> len(ts.tiles), sum(t.size for t in ts.tiles), sum(t.own_count for t in ts.tiles)
    (14, 36, 24)
    """
    O, X = OWN, OPP
    tiles = [Tile("S1", (((0, 0), O),)), Tile("D2", (((0, 0), O), ((1, 0), O)))]
    for s in "abc":
        tiles.append(Tile(f"D1{s}", (((0, 0), O), ((1, 0), X))))
    for s in "abc":
        tiles.append(Tile(f"I3{s}", (((0, 0), O), ((1, 0), O), ((2, 0), X))))
    for s in "abc":  # (0,0)-(1,0)-(1,1): a 120-degree bend at (1,0), opponent hex at an end
        tiles.append(Tile(f"V3{s}", (((0, 0), O), ((1, 0), O), ((1, 1), X))))
    for s in "abc":  # three mutually adjacent hexes, one of the opponent's colour
        tiles.append(Tile(f"T3{s}", (((0, 0), O), ((1, 0), O), ((0, 1), X))))
    return TileSet(tuple(tiles), flips=flips)


def _shape_key(cells) -> tuple:
    hs = sorted(cells, key=lambda hc: (hc[0][1], hc[0][0]))
    q0, r0 = hs[0][0]
    return tuple(((q - q0, r - r0), c) for (q, r), c in hs)
