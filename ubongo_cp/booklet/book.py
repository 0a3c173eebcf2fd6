"""Solution booklets: the PDF and PNG writer (see :mod:`ubongo_cp.booklet`)."""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Sequence

from matplotlib.backends.backend_pdf import PdfPages

from ..cards import CardSide, card_sides_argument
from ..draw.canvas import PALETTE, piece_colours
from ..errors import InputError, whole_argument
from ..io import (atomic_path, check_output_file, figure_metadata, replace_durably, stale_temporaries,
                  temporary_prefix)
from .layout import PAGE_MM, check_dpi
from ..draw.card import game_title, side_label
from .page import pages_needed, render_page, render_pages
from .views import MOST_SOLUTIONS, TaskView, results_index, task_views

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["make_booklet", "render_page", "render_pages", "task_views", "piece_colours", "TaskView", "PALETTE",
           "PAGE_MM", "page_png_name", "MOST_SOLUTIONS"]


def make_booklet(cards: Sequence[CardSide], out_pdf: str | os.PathLike, *,
                 png_dir: str | os.PathLike | None = None, results: "pd.DataFrame | str | os.PathLike | None" = None,
                 dpi: int = 110, time_limit: float | None = 10.0, all_solutions: bool = False,
                 most: int = MOST_SOLUTIONS, progress: bool = False) -> int:
    """Write a PDF solution booklet, one A4 page per card side, with a bookmark per card side.

    Parameters
    ----------
    cards : sequence of CardSide
        The card sides, one page each, in this order.
    out_pdf : path
        The PDF to write (atomically: a temporary file renamed on success).
        Its outline (bookmarks) has one entry per card side. An existing
        file there is replaced only when it is a PDF the toolkit wrote
        (:func:`~ubongo_cp.io.check_output_file`: never a card, never a PDF of yours).
    png_dir : path, optional
        Folder for one PNG per page, named by :func:`page_png_name`
        (``{game}_{card_id}_{side}.png``; continuation pages ``..._2.png``),
        A4 at ``dpi``. Written as a whole: the pages are drawn into a
        temporary folder inside it and moved in once the booklet is complete,
        so an interrupted run leaves the folder as it was. The booklet
        replaces or deletes only page PNGs it wrote there itself (a page of
        a card side no longer in the deck goes); any other file stays, and a
        file of another origin where a page would go is refused before
        anything is drawn (:class:`~ubongo_cp.outputs.OutputFolder`, which
        also locks the folder and refuses the pages of another deck).
    results : pandas.DataFrame or path, optional
        The batch runner's task table, as :func:`ubongo_cp.report.load_tasks`
        reads it, or the path it reads it from (a batch output folder, its
        ``tasks.parquet`` or ``tasks.csv``) (columns ``card_id, side, face`` and any of ``status, count,
        complete, difficulty, solution, task_hash``). Used where it has a valid solution for a task
        (checked with :func:`ubongo_cp.cover.verify_solution`); other tasks are
        solved here (see :func:`task_views`).
    dpi : int
        Resolution of the PNGs (dots per inch); the PDF is vector graphics.
    time_limit : float, optional
        Seconds per task solved here (CP-SAT); None for no limit.
    all_solutions : bool
        Draw every solution of tasks with more than one (at most ``most``
        per task), on continuation pages where they do not fit.
    most : int
        Largest number of solutions drawn per task with ``all_solutions``.
    progress : bool
        Show a tqdm progress bar (pages drawn) on standard error.

    Returns
    -------
    int
        Number of pages written (``len(cards)``, plus continuation pages).

    Raises
    ------
    InputError
        When ``cards`` is not a list of card sides or is empty, ``out_pdf`` cannot be written or holds a file
        the toolkit did not write as a PDF, ``dpi`` is not from :data:`~ubongo_cp.booklet.layout.MIN_DPI` to
        :data:`~ubongo_cp.booklet.layout.MAX_DPI` or ``most`` is below 1;
        for a ``png_dir`` as above; for ``results`` that is neither a task table nor the path of one.

    Notes
    -----
    Cost: one CP-SAT call per task not covered by ``results`` (typically a
    few ms to tens of ms each), plus about 0.1-0.3 s of drawing per page.
    Bookmarks are added with pypdf (matplotlib's ``PdfPages`` writes none).
    """
    cards = card_sides_argument(cards, "make_booklet")
    if not cards:
        raise InputError("no card sides to put in the booklet")
    check_output_file(out_pdf, ".pdf")   # before any drawing: never over a card, or any file not a booklet's
    check_dpi(dpi)
    most = whole_argument("most", most, 1)
    table = results_index(results)

    def views_of(card):
        return task_views(card, table, time_limit=time_limit, all_solutions=all_solutions, most=most)

    # With every solution drawn a card side may need several pages: settle the views first to number them.
    settled = [views_of(card) for card in cards] if all_solutions else None
    total = sum(pages_needed(v) for v in settled) if settled else len(cards)
    titles = list(dict.fromkeys(game_title(c) for c in cards))
    outline: list[tuple[str, int]] = []
    first_pages = [page_png_name(card, k) for i, card in enumerate(cards)
                   for k in range(1, 1 + (pages_needed(settled[i]) if settled else 1))]
    with ExitStack() as stack:
        pngs = None if png_dir is None else stack.enter_context(_page_directory(png_dir, cards, first_pages))
        tmp = stack.enter_context(atomic_path(out_pdf, suffix=".pdf"))
        bar = _progress_bar(total, progress)    # once the outputs are known to be writable
        if bar is not None:
            stack.callback(bar.close)
        with PdfPages(tmp, metadata={"Title": f"{' / '.join(titles)} solution booklet", **figure_metadata("pdf")}) as pdf:
            number = 1
            for i, card in enumerate(cards):
                views = settled[i] if settled else views_of(card)
                outline.append((f"card {card.card_id} \u00b7 {side_label(card)}", number - 1))
                for k, fig in enumerate(render_pages(card, views, page=number, pages=total), 1):
                    pdf.savefig(fig)
                    if pngs is not None:
                        fig.savefig(pngs / page_png_name(card, k), dpi=dpi, format="png",
                                    metadata=figure_metadata("png"))
                    fig.clear()
                    number += 1
                    if bar is not None:
                        bar.update(1)
        _add_outline(tmp, outline)
    return total


def page_png_name(card: CardSide, page: int = 1) -> str:
    """File name of a card side's page PNG: ``f"{game}_{card_id}_{side}.png"``, ``..._{page}.png`` after the first."""
    return f"{card.game}_{card.card_id}_{card.side}" + ("" if page == 1 else f"_{page}") + ".png"


def _progress_bar(total: int, show: bool):
    if not show:
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="page", desc="booklet", dynamic_ncols=True)


def _add_outline(pdf_path: Path, entries: Sequence[tuple[str, int]]) -> None:
    """Add bookmarks ``(title, page index)`` to a PDF in place; the viewer opens with them shown."""
    import io

    from pypdf import PdfReader, PdfWriter

    reader = PdfReader(io.BytesIO(pdf_path.read_bytes()))
    writer = PdfWriter(clone_from=reader)
    for title, index in entries:
        writer.add_outline_item(title=title, page_number=index)
    writer.page_mode = "/UseOutlines"
    with open(pdf_path, "wb") as fh:
        writer.write(fh)


@contextmanager
def _page_directory(png_dir: str | os.PathLike, cards: Sequence[CardSide], names: Sequence[str]) -> Iterator[Path]:
    """A temporary folder for the page PNGs, moved into ``png_dir`` when the block ends without error.

    ``png_dir`` is an :class:`~ubongo_cp.outputs.OutputFolder` of the
    booklet (its source: the folders of the card files). Before anything is
    drawn, a file of another origin named like one of the pages (``names``)
    is refused. At the end, page PNGs an earlier booklet wrote there that
    the new one does not have are deleted; nothing else is. On an error or
    Ctrl-C the temporary folder is removed and ``png_dir`` is left as it was.
    """
    from ..outputs import OutputFolder

    folders = sorted({os.path.dirname(os.path.abspath(c.path)) for c in cards if c.path})

    with OutputFolder(png_dir, "booklet", source=os.pathsep.join(folders) or None,
                      guarded=lambda name: True) as folder:
        folder.check(names)
        for stale in stale_temporaries(folder.path, "pages"):   # a killed run's (the folder is locked)
            if stale.is_dir():
                shutil.rmtree(stale, ignore_errors=True)
        try:
            tmp = Path(tempfile.mkdtemp(prefix=temporary_prefix("pages"), dir=folder.path))
        except OSError as exc:
            raise InputError(f"cannot write: {exc.strerror or exc}", path=folder.path) from None
        try:
            yield tmp
            pages = sorted(p.name for p in tmp.iterdir())
            folder.claim(pages)
            folder.remove([name for name in folder.files if name not in pages])
            for page in pages:
                replace_durably(tmp / page, folder.path / page)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
