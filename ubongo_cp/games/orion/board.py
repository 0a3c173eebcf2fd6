"""The Orion Duel board as data: its hexes, its six sides and the opposite pairs.

The default board is the public fact recorded in RULES.md section 4: a
hexagon of radius 5 (91 hexes) without its 6 corner hexes, 85 hexes; each
side keeps 4 edge hexes and opposite sides form 3 pairs (win condition W1,
OD-4). A :class:`Board` is a frozen dataclass, so variants (another radius,
holes, other sides) are one constructor call away.

Side names follow the picture of :func:`ubongo_cp.games.orion.render.draw`
(pointy-top hexes, ``r`` growing downwards): ``N`` is the row ``r = -5``,
``S`` the row ``r = 5``, ``NE``/``SW`` the lines ``q = 5``/``q = -5`` and
``NW``/``SE`` the lines ``s = 5``/``s = -5`` (``s = -q - r``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ...errors import InputError
from .hexgrid import Hex, hexagon, neighbours

__all__ = ["Board", "default_board"]


@dataclass(frozen=True)
class Board:
    """A hex board: cells, named sides and pairs of opposite sides.

    Parameters
    ----------
    hexes : tuple of (q, r)
        The board's hexes (axial coordinates); stored sorted by ``(r, q)``,
        which fixes the hex index used by engines (0 .. n-1).
    sides : tuple of (name, tuple of (q, r))
        The edge hexes of each side, by side name.
    pairs : tuple of (name, name)
        Opposite sides; a chain of one colour joining the two sides of a
        pair fulfils W1 (OD-4).

    Raises
    ------
    InputError
        If a side hex is not on the board, a pair names an unknown side, or
        hexes repeat.
    """

    hexes: tuple[Hex, ...]
    sides: tuple[tuple[str, tuple[Hex, ...]], ...]
    pairs: tuple[tuple[str, str], ...]
    name: str = field(default="custom", compare=False)

    def __post_init__(self) -> None:
        hexes = tuple(sorted(set(map(tuple, self.hexes)), key=lambda h: (h[1], h[0])))
        if len(hexes) != len(self.hexes):
            raise InputError(f"board '{self.name}': {len(self.hexes) - len(hexes)} hexes repeat")
        object.__setattr__(self, "hexes", hexes)
        cells = set(hexes)
        names = [n for n, _ in self.sides]
        if len(set(names)) != len(names):
            raise InputError(f"board '{self.name}': side names repeat: {names}")
        for name, side in self.sides:
            off = [h for h in side if tuple(h) not in cells]
            if off:
                raise InputError(f"board '{self.name}': side {name} has hexes off the board: {off}")
        for a, b in self.pairs:
            if a not in names or b not in names:
                raise InputError(f"board '{self.name}': pair ({a}, {b}) names an unknown side")

    @cached_property
    def index(self) -> dict[Hex, int]:
        """Hex -> index (0 .. n-1, in ``(r, q)`` order)."""
        return {h: i for i, h in enumerate(self.hexes)}

    @cached_property
    def adjacency(self) -> tuple[tuple[int, ...], ...]:
        """For every hex index, the indices of its on-board neighbours."""
        idx = self.index
        return tuple(tuple(idx[n] for n in neighbours(h) if n in idx) for h in self.hexes)

    @cached_property
    def side_index(self) -> dict[str, frozenset[int]]:
        """Side name -> frozenset of hex indices."""
        return {name: frozenset(self.index[(h[0], h[1])] for h in side) for name, side in self.sides}

    @property
    def num_hexes(self) -> int:
        """Number of hexes on the board."""
        return len(self.hexes)

    def __hash__(self) -> int:  # cached_property needs a __dict__; hash the data only
        return hash((self.hexes, self.sides, self.pairs))


def default_board(radius: int = 5) -> Board:
    """The public-fact board: radius-``radius`` hexagon without its 6 corners.

    With the default radius 5 it has 85 hexes and 6 sides of 4 edge hexes
    (RULES.md section 4, "Board").

    Examples
    --------
    >>> b = default_board()
    >>> b.num_hexes, [len(s) for _, s in b.sides]
    (85, [4, 4, 4, 4, 4, 4])
    >>> b.pairs
    (('N', 'S'), ('NE', 'SW'), ('NW', 'SE'))
    """
    full = hexagon(radius)
    corners = {h for h in full if sum(abs(c) == radius for c in (h[0], h[1], -h[0] - h[1])) == 2}
    hexes = [h for h in full if h not in corners]
    ring = [h for h in hexes if max(abs(h[0]), abs(h[1]), abs(h[0] + h[1])) == radius]
    rules = {
        "N": lambda q, r: r == -radius, "S": lambda q, r: r == radius,
        "NE": lambda q, r: q == radius, "SW": lambda q, r: q == -radius,
        "NW": lambda q, r: -q - r == radius, "SE": lambda q, r: -q - r == -radius,
    }
    sides = tuple((name, tuple(sorted((h for h in ring if test(*h)), key=lambda h: (h[1], h[0]))))
                  for name, test in rules.items())
    return Board(hexes=tuple(hexes), sides=sides,
                 pairs=(("N", "S"), ("NE", "SW"), ("NW", "SE")), name=f"hexagon-{radius}")
