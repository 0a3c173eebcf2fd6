"""Orion Duel tiles as data: the two-coloured tiles of each player, read from tile-set files.

A tile is a polyhex whose hexes carry a colour relative to the owner:
``OWN`` (the player's colour) or ``OPP`` (the opponent's colour). Both
players own the same shapes. Tile sets are files (format below); two are
shipped as package data (``ubongo_cp/data/orion/``):

``published`` (the default; RULES.md §4 "Public facts beyond the seed")
    14 tiles, 36 hexes (24 own, 12 opponent): S1 (single own hex), D2
    (own + own), 3 x D1 (own + opponent), 3 x I3 (straight O O x), 3 x V3
    (bent line, 120 degrees, opponent hex at an end), 3 x T3 (triangle).
``seed`` (the seed's sentence read literally)
    14 tiles, each with 2 own hexes and exactly 1 opponent hex (42 hexes):
    the nine 3-hex tiles of ``published``, 3 x I3m (straight O x O) and
    2 x V3m (bent O x O). The file's comments say why.

File format (like the polyomino piece files of :mod:`ubongo_cp.pieces`):
lines starting with ``%`` are comments; blocks are separated by blank
lines; a block's first line names one or more tiles of the same shape
(``I3a I3b I3c``), its other lines draw the shape, one hex row per line,
``O`` (or ``o``) for an own hex, ``x`` (or ``X``) for an opponent hex,
``.`` or a space for no hex. Rows are shifted half a hex, as on the
board: the hexes of one row sit every second column, those of the next row
in the columns between, so ``O O`` over ``   x`` is the bent line V3 and
``O O`` over `` x`` the triangle T3. The first hex in reading order is the
tile's anchor (game records name it, :mod:`~ubongo_cp.games.orion.records`).

Tiles may be rotated (OD-2); whether they may be turned over is unknown,
so ``flips`` is *configurable* with the default ``True`` (RULES.md §4).
The fixed orientations of a tile are the distinct coloured hex sets among
the 6 rotations (times 2 reflections when flips are allowed), up to
translation.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

from ...errors import InputError, flag_argument
from ...io import read_text, text_lines
from ...reading import PLAIN_NAME, is_plain_name
from ...grids.hex import format_symbols, parse_symbols
from .graphs import cells_connected
from .hexgrid import Hex, neighbours, transform

__all__ = ["OWN", "OPP", "Tile", "Orientation", "TileSet", "SHIPPED_TILE_SETS", "parse_tiles",
           "load_tiles", "format_tiles", "default_tiles"]

#: Colour of a tile hex relative to the tile's owner.
OWN = 1
#: Colour of a tile hex that is the opponent's.
OPP = 0
#: Names of the shipped tile sets (``ubongo_cp/data/orion/<name>.txt``).
SHIPPED_TILE_SETS = ("published", "seed")
_SYMBOLS = {"O": OWN, "o": OWN, "x": OPP, "X": OPP}


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
        if not cells_connected(hexes, neighbours):
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
    name : str
        A label (the shipped set's or the file's name); not part of equality.

    Raises
    ------
    InputError
        If there is no tile, tile names repeat, or ``flips`` is not True or
        False.
    """

    tiles: tuple[Tile, ...]
    flips: bool = True
    name: str = field(default="custom", compare=False)

    def __post_init__(self) -> None:
        # "no" would read as true: flips allowed, and a record of the game written with "flips": "no", unreadable
        object.__setattr__(self, "flips", flag_argument("flips", self.flips))
        if not self.tiles:
            raise InputError(f"tile set '{self.name}' has no tiles")
        names = [t.name for t in self.tiles]
        dup = sorted({n for n in names if names.count(n) > 1})
        if dup:
            raise InputError(f"tile set '{self.name}': tile names repeat: {dup}")

    @cached_property
    def names(self) -> dict[str, int]:
        """Tile name -> tile index."""
        return {t.name: i for i, t in enumerate(self.tiles)}

    def with_flips(self, flips: bool) -> "TileSet":
        """The same tiles with another ``flips`` setting."""
        return TileSet(self.tiles, flips, self.name)

    def __hash__(self) -> int:
        return hash((self.tiles, self.flips))


def parse_tiles(text: str, name: str = "custom", *, flips: bool = True,
                path: str | os.PathLike | None = None) -> TileSet:
    r"""Read a tile set from the text format of the module docstring.

    Parameters
    ----------
    text : str
        The file's content.
    name : str
        Label of the set.
    flips : bool
        Whether tiles may be turned over.
    path : str or os.PathLike, optional
        Named in error messages.

    Returns
    -------
    TileSet

    Raises
    ------
    InputError
        Naming ``path`` and the line: a bad tile name, an unknown character,
        a hex between two hex positions of its row, a block without a
        picture, a disconnected tile, a repeated name, an empty file.

    Examples
    --------
    >>> ts = parse_tiles("V3a V3b\nO O\n   x\n")
    >>> [t.name for t in ts.tiles], ts.tiles[0].cells
    (['V3a', 'V3b'], (((0, 0), 1), ((1, 0), 1), ((1, 1), 0)))
    >>> parse_tiles("A\nO  O\n", path="t.txt")
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: t.txt:2: 'O' in column 4 lies between two hex positions of its row (rows are shifted half a hex: one row uses every second column)
    """
    blocks: list[list[tuple[int, str]]] = []
    cur: list[tuple[int, str]] = []
    for k, line in enumerate(text_lines(text), start=1):
        if line.startswith("%"):
            continue
        if not line.strip():
            if cur:
                blocks.append(cur)
                cur = []
            continue
        cur.append((k, line.rstrip()))
    if cur:
        blocks.append(cur)
    if not blocks:
        raise InputError("no tiles in the file", path=path)
    tiles: list[Tile] = []
    where: dict[str, int] = {}
    for block in blocks:
        k0, head = block[0]
        names = head.split()
        for nm in names:
            if not is_plain_name(nm):
                raise InputError(f"tile name {nm!r} may hold only {PLAIN_NAME}",
                                 path=path, line=k0)
            if nm in where:
                raise InputError(f"tile {nm!r} named again (first on line {where[nm]})",
                                 path=path, line=k0)
            where[nm] = k0
        cells = _parse_picture(block[1:], path)
        if not cells:
            raise InputError(f"tile {names[0]!r} has no picture (a line of O and x below its name)",
                             path=path, line=k0)
        for nm in names:
            try:
                tiles.append(Tile(nm, cells))
            except InputError as exc:
                raise InputError(exc.message, path=path, line=k0) from None
    return TileSet(tuple(tiles), flips, name)


def load_tiles(spec: str | os.PathLike = "published", *, flips: bool = True) -> TileSet:
    """A shipped tile set by name (:data:`SHIPPED_TILE_SETS`) or a tile-set file by path.

    A shipped set's name is that set wherever a file of that name lies (as a piece set's,
    :func:`ubongo_cp.pieces.load_pieces`): a record names the set by it (:mod:`ubongo_cp.games.orion.records`), so it must
    mean one set everywhere; ``./published`` reads the file.

    A file of a shipped set's tiles (in its order) is that set, named so: the same game variant in records,
    journals and output as the set given by name.

    Raises
    ------
    InputError
        If ``spec`` is neither a shipped name nor a readable file, the
        file is malformed (see :func:`parse_tiles`), or ``flips`` is not
        True or False.

    Examples
    --------
    >>> ts = load_tiles("seed")
    >>> len(ts.tiles), sum(t.size for t in ts.tiles), {t.size - t.own_count for t in ts.tiles}
    (14, 42, {1})
    """
    if not isinstance(spec, (str, os.PathLike)):   # not a TypeError from os.fspath
        raise InputError(f"a tile set is a shipped set's name ({', '.join(SHIPPED_TILE_SETS)}) or a file's path, "
                         f"got {type(spec).__name__}")
    key = os.fspath(spec)
    if key in SHIPPED_TILE_SETS:   # the shipped set, even beside a file of that name (./published reads the file)
        return _shipped(key).with_flips(flips)
    path = Path(spec)
    tiles = parse_tiles(read_text(path), path.stem, flips=flips, path=path)
    return next((shipped.with_flips(flips) for shipped in map(_shipped, SHIPPED_TILE_SETS)
                 if shipped.tiles == tiles.tiles), tiles)


def format_tiles(tiles: TileSet) -> str:
    r"""The tile set in the text format (one block per tile; :func:`parse_tiles` reads it back).

    Examples
    --------
    >>> print(format_tiles(parse_tiles("T\nO O\n x")), end="")
    T
    O O
     x
    """
    out = []
    for t in tiles.tiles:
        out.append(t.name + "\n" + format_symbols({h: "O" if c == OWN else "x" for h, c in t.cells}))
    return "\n\n".join(out) + "\n"


def default_tiles(flips: bool = True) -> TileSet:
    """The published tile set (RULES.md section 4): 14 tiles, 36 hexes, 24 own.

    Examples
    --------
    >>> ts = default_tiles()
    >>> len(ts.tiles), sum(t.size for t in ts.tiles), sum(t.own_count for t in ts.tiles)
    (14, 36, 24)
    """
    return _shipped("published").with_flips(flips)


@lru_cache(maxsize=None)
def _shipped(name: str) -> TileSet:
    from ...shipped import data_dir

    path = data_dir() / "orion" / f"{name}.txt"
    return parse_tiles(read_text(path), name, path=path)


def _parse_picture(lines: list[tuple[int, str]], path) -> tuple[tuple[Hex, int], ...]:
    """Cells ``((q, r), colour)`` of a picture, anchored at its first hex in reading order."""
    hexes = parse_symbols(lines, _SYMBOLS, path=path,
                          legend="a tile picture (O own, x opponent, . or space none)")
    if not hexes:
        return ()
    q0, r0 = hexes[0][0]
    return tuple(((q - q0, r - r0), c) for (q, r), c in hexes)


def _shape_key(cells) -> tuple:
    hs = sorted(cells, key=lambda hc: (hc[0][1], hc[0][0]))
    q0, r0 = hs[0][0]
    return tuple(((q - q0, r - r0), c) for (q, r), c in hs)
