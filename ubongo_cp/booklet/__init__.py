"""Printable solution booklets: one A4 page per card side, drawn with matplotlib.

Each page shows a card side (rule UP-1): a title (game, card id, side, pieces
per task, region area), the region drawn large, the task table (die face ->
pieces, with small piece icons where they fit, plus the solution count and
difficulty when known) and every task's solution as a small grid with one
colour per piece and the piece's name written on it. Unsolvable tasks are
drawn as a hatched, greyed region marked "no solution".

The package has three layers: :mod:`.views` (data: what a page shows about
each task, from a batch results table or solved here), :mod:`.layout`
(where the parts of a page go, in mm) and :mod:`.page` (drawing them on the
page's :class:`~ubongo_cp.draw.canvas.Canvas`, with the shared puzzle
drawings of :mod:`ubongo_cp.draw`). This module writes the PDF and PNGs.

Colours: one fixed palette entry per piece, keyed by the piece's position in
its piece set (so a piece has the same colour on every page of a deck; see
:func:`piece_colours`). Since no palette of 12-21 colours is distinct for
every reader, pieces are also separated by thick outlines and labelled by
name, so colour is never the only cue.

Rendering: figures are plain :class:`matplotlib.figure.Figure` objects on
the non-interactive Agg canvas (PNG) and written to PDF with
:class:`~matplotlib.backends.backend_pdf.PdfPages`; pyplot is never used, so
nothing is registered globally, the process's backend is left alone and a
page's memory is freed once it is written.

Cells are ``(row, col)``, row 0 at the top.
"""

from __future__ import annotations

import importlib

__all__ = ["make_booklet", "render_page", "render_pages", "task_views", "piece_colours", "TaskView", "PALETTE",
           "PAGE_MM", "page_png_name", "MOST_SOLUTIONS"]


def __getattr__(name: str):
    """Load the writer (and matplotlib) on first use (PEP 562): ``ubongo-cp`` builds
    its parser from :mod:`.layout` without paying matplotlib's ~0.5 s import."""
    if name.startswith("__"):
        raise AttributeError(name)
    value = getattr(importlib.import_module(".book", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
