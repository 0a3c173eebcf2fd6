"""Where the parts of a booklet page go: boxes in millimetres on an A4 portrait page."""

from __future__ import annotations

import math

__all__ = ["PAGE_MM", "Layout"]

#: Page size (width, height) in mm: ISO 216 A4 portrait.
PAGE_MM = (210.0, 297.0)


class Layout:
    """Boxes ``(x, y, width, height)`` in mm of a page's parts for ``n`` tasks.

    Card sides with up to 8 tasks (classic, faces 1-6) get a 3-column grid of
    large solutions and piece icons in the task table; larger sides (Duel,
    faces 1-20) get a 5-column grid, a two-block task table and a strip of
    piece icons (the "piece key").

    Attributes
    ----------
    compact : bool
        More than 8 tasks (the Duel layout).
    region_box, table_box, grid_box : tuple of float
    key_box : tuple of float or None
        The piece key strip (compact layout only).
    cols, rows : int
        The solution grid.
    """

    margin = 12.0

    def __init__(self, n: int):
        m = self.margin
        width = PAGE_MM[0] - 2 * m
        self.compact = n > 8
        if not self.compact:    # classic: faces 1-6
            self.region_box = (m, 33.0, 66.0, 80.0)
            self.table_box = (m + 74.0, 33.0, width - 74.0, 80.0)
            self.key_box = None
            self.cols = 3
            grid_top = 124.0
        else:                   # duel: faces 1-20
            self.region_box = (m, 33.0, 52.0, 74.0)
            self.table_box = (m + 58.0, 33.0, width - 58.0, 74.0)
            self.key_box = (m, 111.0, width, 15.0)
            self.cols = 5
            grid_top = 137.0
        self.rows = max(1, math.ceil(n / self.cols))
        self.grid_box = (m, grid_top, width, PAGE_MM[1] - 12.0 - grid_top)
