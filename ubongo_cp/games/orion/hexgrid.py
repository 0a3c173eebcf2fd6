"""Axial hex-grid geometry: neighbours, distance, rotations and reflection.

Conventions (Red Blob Games' axial coordinates [1]_): a hex is a pair of
ints ``(q, r)``; the third cube coordinate is ``s = -q - r``. Drawn
pointy-top, ``r`` grows downwards and ``q`` to the right-down diagonal, so
the pixel centre of ``(q, r)`` is ``(sqrt(3) * (q + r / 2), 1.5 * r)`` in
units of the hex radius (y pointing down).

References
----------
.. [1] A. Patel, "Hexagonal Grids", Red Blob Games (2013, updated 2021),
   https://www.redblobgames.com/grids/hexagons/ , sections "Axial
   coordinates", "Distances", "Rotation" and "Reflection".
"""

from __future__ import annotations

import math
from typing import Iterable

__all__ = [
    "Hex", "DIRECTIONS", "neighbours", "distance", "rotate", "reflect",
    "transform", "normalize", "hexagon", "to_pixel",
]

#: A hex in axial coordinates ``(q, r)``.
Hex = tuple[int, int]

#: The six unit steps in axial coordinates, counter-clockwise on screen
#: starting East (a pointy-top layout with y pointing down).
DIRECTIONS: tuple[Hex, ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def neighbours(h: Hex) -> list[Hex]:
    """The six hexes adjacent to ``h`` (unbounded grid).

    Examples
    --------
    >>> neighbours((0, 0))
    [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
    """
    q, r = h
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def distance(a: Hex, b: Hex) -> int:
    """Hex distance (number of steps) between ``a`` and ``b``.

    Computed in cube coordinates as ``(|dq| + |dr| + |ds|) / 2`` [1]_.

    Examples
    --------
    >>> distance((0, 0), (2, -1))
    2
    >>> distance((-5, 1), (4, 1))
    9
    """
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def rotate(h: Hex, k: int = 1) -> Hex:
    """Rotate ``h`` by ``k`` sixth-turns (60 degrees each) about the origin.

    One step maps cube ``(x, y, z)`` to ``(-z, -x, -y)``, i.e. axial
    ``(q, r)`` to ``(-r, q + r)`` [1]_; six steps are the identity.

    Examples
    --------
    >>> rotate((1, 0))
    (0, 1)
    >>> rotate((1, 0), 6)
    (1, 0)
    """
    q, r = h
    for _ in range(k % 6):
        q, r = -r, q + r
    return (q, r)


def reflect(h: Hex) -> Hex:
    """Mirror ``h`` in the axis through the origin that keeps ``q`` (swaps r and s).

    Examples
    --------
    >>> reflect((1, 0))
    (1, -1)
    >>> reflect(reflect((2, -3)))
    (2, -3)
    """
    q, r = h
    return (q, -q - r)


def transform(h: Hex, rotation: int, flip: bool, offset: Hex = (0, 0)) -> Hex:
    """Reflect (if ``flip``), then rotate by ``rotation`` sixth-turns, then translate."""
    if flip:
        h = reflect(h)
    q, r = rotate(h, rotation)
    return (q + offset[0], r + offset[1])


def normalize(hexes: Iterable[Hex]) -> tuple[Hex, ...]:
    """Translate a hex set so that its smallest ``(r, q)`` hex is the origin; sorted."""
    hs = sorted(set(hexes), key=lambda h: (h[1], h[0]))
    if not hs:
        return ()
    q0, r0 = hs[0]
    return tuple((q - q0, r - r0) for q, r in hs)


def hexagon(radius: int) -> list[Hex]:
    """All hexes within ``radius`` steps of the origin, sorted by ``(r, q)``.

    Examples
    --------
    >>> len(hexagon(5))
    91
    """
    return sorted(((q, r) for q in range(-radius, radius + 1)
                   for r in range(-radius, radius + 1) if abs(q + r) <= radius),
                  key=lambda h: (h[1], h[0]))


def to_pixel(h: Hex, size: float = 1.0) -> tuple[float, float]:
    """Pixel centre of ``h`` for a pointy-top layout (y pointing down), hex radius ``size``."""
    q, r = h
    return (size * math.sqrt(3) * (q + r / 2), size * 1.5 * r)
