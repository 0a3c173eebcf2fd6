"""Axial hex-grid geometry of Orion Duel: the hexagon grid's own functions (:mod:`ubongo_cp.grids.hex`).

Orion Duel's board and tiles are polyhexes on the same grid as Ubongo
Extreme's pieces; the geometry (axial ``(q, r)``, pointy-top, ``r``
downwards: neighbours, distance, the 6 rotations and the reflection) is
defined once, in :mod:`ubongo_cp.grids.hex`, and named here for the
engine's modules.
"""

from __future__ import annotations

from ...grids.hex import (DIRECTIONS, Hex, distance, hexagon, neighbours, normalize, reflect, rotate, text_column,
                          to_pixel, transform)

__all__ = [
    "Hex", "DIRECTIONS", "neighbours", "distance", "rotate", "reflect",
    "transform", "normalize", "hexagon", "to_pixel", "text_column",
]
