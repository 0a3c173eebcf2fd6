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

import os
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from matplotlib.backends.backend_pdf import PdfPages

from ..cards import CardSide
from ..draw.canvas import PALETTE, piece_colours
from ..errors import InputError
from ..io import atomic_path
from .layout import PAGE_MM
from .page import render_page
from .views import TaskView, results_index, task_views

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["make_booklet", "render_page", "task_views", "piece_colours", "TaskView", "PALETTE",
           "PAGE_MM", "page_png_name"]


def make_booklet(cards: Sequence[CardSide], out_pdf: str | os.PathLike, *,
                 png_dir: str | os.PathLike | None = None, results: "pd.DataFrame | None" = None,
                 dpi: int = 110, time_limit: float | None = 10.0) -> int:
    """Write a PDF solution booklet, one A4 page per card side.

    Parameters
    ----------
    cards : sequence of CardSide
        The card sides, one page each, in this order.
    out_pdf : path
        The PDF to write (atomically: a temporary file renamed on success).
    png_dir : path, optional
        Directory for one PNG per page, named by :func:`page_png_name`
        (``{game}_{card_id}_{side}.png``), A4 at ``dpi``.
    results : pandas.DataFrame, optional
        The batch runner's task table, as :func:`ubongo_cp.report.load_tasks`
        reads it (columns ``card_id, side, face`` and any of ``status, count,
        complete, difficulty, solution, task_hash``). Used where it has a valid solution for a task
        (checked with :func:`ubongo_cp.cover.verify_solution`); other tasks are
        solved here (see :func:`task_views`).
    dpi : int
        Resolution of the PNGs (dots per inch); the PDF is vector graphics.
    time_limit : float, optional
        Seconds per task solved here (CP-SAT); None for no limit.

    Returns
    -------
    int
        Number of pages written (= ``len(cards)``).

    Raises
    ------
    InputError
        When ``cards`` is empty or ``dpi`` is not positive.

    Notes
    -----
    Cost: one CP-SAT call per task not covered by ``results`` (typically a
    few ms to tens of ms each), plus about 0.1-0.3 s of drawing per page.
    """
    cards = list(cards)
    if not cards:
        raise InputError("no card sides to put in the booklet")
    if dpi <= 0:
        raise InputError(f"dpi must be positive, got {dpi}")
    table = results_index(results)
    png_path = None if png_dir is None else Path(png_dir)
    if png_path is not None:
        png_path.mkdir(parents=True, exist_ok=True)
    with atomic_path(out_pdf, suffix=".pdf") as tmp:
        with PdfPages(tmp, metadata={"Title": "Ubongo solution booklet", "Creator": "ubongo-cp"}) as pdf:
            for number, card in enumerate(cards, 1):
                views = task_views(card, table, time_limit=time_limit)
                fig = render_page(card, views, page=number, pages=len(cards))
                pdf.savefig(fig)
                if png_path is not None:
                    with atomic_path(png_path / page_png_name(card), suffix=".png") as png_tmp:
                        fig.savefig(png_tmp, dpi=dpi, format="png")
                fig.clear()
    return len(cards)


def page_png_name(card: CardSide) -> str:
    """File name of a card side's page PNG: ``f"{game}_{card_id}_{side}.png"``."""
    return f"{card.game}_{card.card_id}_{card.side}.png"
