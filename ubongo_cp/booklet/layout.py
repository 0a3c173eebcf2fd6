"""Where the parts of a booklet page go: boxes in millimetres on an A4 portrait page."""

from __future__ import annotations

import math
import numbers

from ..errors import InputError, cut

__all__ = ["PAGE_MM", "DEFAULT_CELL_MM", "MIN_DPI", "MAX_DPI", "MAX_IMAGE_PIXELS", "check_dpi", "Layout"]

#: Page size (width, height) in mm: ISO 216 A4 portrait.
PAGE_MM = (210.0, 297.0)

#: Size of a cell on printed playtest cards, in mm: an estimate of the physical
#: games' pieces, not a measured value (see :mod:`.playtest`).
DEFAULT_CELL_MM = 20.0

#: Largest cell on printed playtest cards, in mm: a card of two cells and its die-face table still fit
#: across an A4 page (:data:`PAGE_MM`); larger ones would not fit a page, and their images run out of memory.
MAX_CELL_MM = 60.0

#: Highest resolution of a written page or card image, dots per inch: twice
#: what print services ask for (300-600). An A4 page at this resolution is
#: about 140 million pixels (some 560 MB while drawn); far higher ones run
#: out of memory.
MAX_DPI = 1200
#: Least resolution of a page or card image: the smallest text drawn (5 pt) is then more than a pixel high (1.4
#: pixels); below about 5 dpi matplotlib's font engine (FreeType) refuses to size it.
MIN_DPI = 20

#: Most pixels of one card image (PNG): Pillow's decompression-bomb limit (``PIL.Image.MAX_IMAGE_PIXELS``),
#: past which image readers refuse a file; drawing one takes 4 bytes per pixel (some 360 MB here).
MAX_IMAGE_PIXELS = 89_478_485


def check_cell_mm(cell_mm: float, what: str = "the cell size") -> None:
    """Raise :class:`~ubongo_cp.errors.InputError` unless ``cell_mm`` is a number above 0 and at most
    :data:`MAX_CELL_MM` (not text: ``"8"`` was a TypeError deep in the drawing).

    Examples
    --------
    >>> check_cell_mm(8.0)
    >>> check_cell_mm("8", "cell_mm")
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: cell_mm must be a number of millimetres above 0 and at most 60, got '8'
    """
    number = isinstance(cell_mm, numbers.Real) and not isinstance(cell_mm, bool)
    if not (number and 0 < cell_mm <= MAX_CELL_MM):
        raise InputError(f"{what} must be a number of millimetres above 0 and at most {MAX_CELL_MM:g}, "
                         f"got {format(cell_mm, 'g') if number else cut(repr(cell_mm))}")


def check_dpi(dpi: int, what: str = "dpi") -> None:
    """Raise :class:`~ubongo_cp.errors.InputError` unless ``dpi`` is from :data:`MIN_DPI` to :data:`MAX_DPI`;
    ``what`` names it."""
    number = isinstance(dpi, numbers.Real) and not isinstance(dpi, bool)
    if not (number and MIN_DPI <= dpi <= MAX_DPI):   # not text: "110" was a TypeError
        raise InputError(f"{what} must be from {MIN_DPI} to {MAX_DPI} dots per inch, got "
                         f"{dpi if number else cut(repr(dpi))}")


class Layout:
    """Boxes ``(x, y, width, height)`` in mm of a page's parts for ``n`` tasks (and ``panels`` solution panels).

    Card sides with up to 8 tasks (classic, faces 1-6) get a 3-column grid
    of large solutions beside a region box and a task table with piece
    icons, solution counts and difficulties; larger sides (Duel, faces
    1-20) get a narrower region box, a two-block task table of piece icons
    (the counts and difficulties are in each solution's header) and a
    5-column grid.

    A page holds ``cols * rows`` solution panels; panels beyond those
    (every solution of multi-solution tasks, see ``all_solutions`` in
    :func:`~ubongo_cp.booklet.make_booklet`) go on continuation pages with
    panels of the same size (:meth:`panel_origins`).

    Attributes
    ----------
    compact : bool
        More than 8 tasks (the Duel layout).
    region_box, table_box, grid_box : tuple of float
    cols, rows : int
        The solution grid of the first page.
    panel_w, panel_h, gap : float
        A solution panel's size and the gap between panels, mm.
    """

    margin = 12.0
    gap = 3.0
    #: Top of the solution grid on a continuation page, mm.
    continued_top = 38.0

    def __init__(self, n: int, panels: int | None = None):
        m = self.margin
        width = PAGE_MM[0] - 2 * m
        self.compact = n > 8
        if not self.compact:    # classic: faces 1-6
            self.region_box = (m, 33.0, 66.0, 80.0)
            self.table_box = (m + 74.0, 33.0, width - 74.0, 80.0)
            self.cols = 3
            grid_top = 124.0
        else:                   # duel: faces 1-20
            self.region_box = (m, 33.0, 44.0, 74.0)
            self.table_box = (m + 50.0, 33.0, width - 50.0, 74.0)
            self.cols = 5
            grid_top = 118.0
        # One panel per task; more panels (every solution drawn) make them smaller, down to the most rows.
        most_rows = 3 if not self.compact else 4
        self.rows = max(1, min(math.ceil(max(n, panels or 0) / self.cols), max(most_rows, math.ceil(n / self.cols))))
        self.grid_box = (m, grid_top, width, PAGE_MM[1] - 12.0 - grid_top)
        self.panel_w = (width - self.gap * (self.cols - 1)) / self.cols
        self.panel_h = (self.grid_box[3] - self.gap * (self.rows - 1)) / self.rows

    def panel_origins(self, count: int) -> list[list[tuple[float, float]]]:
        """Top-left corners (mm) of ``count`` panels, page by page: the first page's grid, then continuations."""
        gx, gy = self.grid_box[:2]
        per_page = [self.cols * self.rows]
        later_rows = max(1, int((PAGE_MM[1] - 12.0 - self.continued_top + self.gap) // (self.panel_h + self.gap)))
        pages: list = []
        k = 0
        while k < count or not pages:
            top = gy if not pages else self.continued_top
            capacity = per_page[0] if not pages else self.cols * later_rows
            spots = [(gx + (i % self.cols) * (self.panel_w + self.gap), top + (i // self.cols) * (self.panel_h + self.gap))
                     for i in range(min(capacity, count - k))]
            pages.append(spots)
            k += len(spots)
        return pages
