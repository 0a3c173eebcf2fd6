"""Printable playtest cards: card sides at true scale with cut marks, and a sheet of the pieces to cut out.

A designer prints the PDF at actual size (100 %, no "fit to page"), cuts
out the cards and the pieces, rolls a die and plays. Every card side is
drawn as on a real card (:class:`~ubongo_cp.draw.card.CardFace`): the game,
card id and side, the region at ``cell_mm`` millimetres per cell, and the
die-face table with a small icon of each piece; no solutions. Cards are
packed in rows on A4 portrait pages in deck order, each with cut marks at
its corners; the piece sheets that follow show every piece of the deck's
piece set(s) at the same scale, named, with a black cutting outline.

Each page also carries a 100 mm scale bar, so a print can be checked with
a ruler.

Cell size: :data:`DEFAULT_CELL_MM` (20 mm) is an estimate, not a measured
or published figure: no published dimension of the Ubongo pieces was found
(see ``docs/booklet.md``). Designers who own the game should measure a
piece (e.g. the I2 domino: its long side is two cells) and pass that.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Sequence

from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from ..cards import CardSide, card_sides_argument
from ..draw.canvas import INK, MUTED, Canvas, piece_colours, shape_size, text_width_mm
from ..draw.card import CardFace, game_title
from ..draw.puzzle import draw_piece
from ..errors import InputError
from ..io import atomic_path, check_output_file, figure_metadata
from ..pieces import PieceSet
from .layout import DEFAULT_CELL_MM, MAX_IMAGE_PIXELS, PAGE_MM, check_cell_mm, check_dpi

__all__ = ["DEFAULT_CELL_MM", "make_playtest_cards", "check_card_images", "check_image_sizes", "card_sheets",
           "piece_sheets", "card_image", "write_card_images", "card_image_name"]

#: Default size of a cell on paper, mm (an estimate; see the module docstring).
#: Page margin and the gap between cards (where the cut marks go), mm.
MARGIN = 10.0
GUTTER = 8.0
_FOOTER = 12.0     # room for the scale bar and page note at the bottom of a page
_MARK = 4.0        # length of a cut mark, mm
_MARK_GAP = 1.0    # between a card's corner and its marks, mm


@dataclass(frozen=True)
class _Placed:
    """Something packed on a page: its top-left corner and size (mm), and what it is."""

    x: float
    y: float
    w: float
    h: float
    item: object


def make_playtest_cards(cards: Sequence[CardSide], out_pdf: str | os.PathLike, *, cell_mm: float = DEFAULT_CELL_MM,
                        pieces: bool = True, progress: bool = False) -> tuple[int, int]:
    """Write printable playtest cards (A4 portrait PDF): card sheets, then piece sheets.

    Parameters
    ----------
    cards : sequence of CardSide
        The card sides, in this order.
    out_pdf : path
        The PDF to write (atomically); an existing file there is replaced
        only when it is a PDF the toolkit wrote (:func:`~ubongo_cp.io.check_output_file`).
    cell_mm : float
        Size of a region cell and of a piece's cell on paper, mm.
    pieces : bool
        Add the piece sheets (every piece of each piece set the cards use).
    progress : bool
        Show a tqdm progress bar (pages) on standard error.

    Returns
    -------
    card_pages, piece_pages : int

    Raises
    ------
    InputError
        When ``cards`` is not a list of card sides or is empty, ``out_pdf`` cannot be written or holds a
        file the toolkit did not write as a PDF, ``cell_mm`` is not positive, or a card side
        or a piece does not fit on an A4 page at that cell size.
    """
    cards = card_sides_argument(cards, "make_playtest_cards")
    if not cards:
        raise InputError("no card sides to print")
    check_output_file(out_pdf, ".pdf")   # before any drawing: never over a card, or any file not the toolkit's
    card_pages = _card_pages(cards, cell_mm)      # packed first (cheap); each page drawn, written and freed
    sets = list({id(c.piece_set): c.piece_set for c in cards}.values()) if pieces else []
    piece_pages = {id(s): _piece_pages(s, cell_mm) for s in sets}
    total = len(card_pages) + sum(len(p) for p in piece_pages.values())

    def figures():
        for number, placed in enumerate(card_pages, 1):
            yield _draw_card_page(placed, number, len(card_pages), cell_mm)
        for piece_set in sets:
            pages = piece_pages[id(piece_set)]
            for number, placed in enumerate(pages, 1):
                yield _draw_piece_page(piece_set, placed, number, len(pages), cell_mm)

    titles = " / ".join(dict.fromkeys(game_title(c) for c in cards))
    with atomic_path(out_pdf, suffix=".pdf") as tmp:
        bar = None
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=total, unit="page", desc="cards", dynamic_ncols=True)
        try:
            with PdfPages(tmp, metadata={"Title": f"{titles} playtest cards", **figure_metadata("pdf")}) as pdf:
                for fig in figures():
                    pdf.savefig(fig)
                    fig.clear()
                    if bar is not None:
                        bar.update(1)
        finally:
            if bar is not None:
                bar.close()
    return len(card_pages), total - len(card_pages)


def card_sheets(cards: Sequence[CardSide], cell_mm: float = DEFAULT_CELL_MM) -> list[Figure]:
    """The card pages: card sides at ``cell_mm`` per cell packed in rows, with cut marks.

    Each region's cell collection has the gid ``"region/{card_id}/{side}"``.

    Raises
    ------
    InputError
        When ``cell_mm`` is not positive or a card side does not fit on a page.
    """
    pages = _card_pages(cards, cell_mm)
    return [_draw_card_page(placed, number, len(pages), cell_mm) for number, placed in enumerate(pages, 1)]


def card_image(card: CardSide, cell_mm: float = DEFAULT_CELL_MM) -> Figure:
    """One card side alone at true scale: the figure is the card (its cut line is the figure's edge).

    The figure measures :class:`~ubongo_cp.draw.card.CardFace`'s width x
    height in mm (its ``figsize`` in inches is that over 25.4); the region's
    cells are ``cell_mm`` wide, with the gid ``"region/{card_id}/{side}"``.

    Raises
    ------
    InputError
        When ``cell_mm`` is not positive.
    """
    check_cell_mm(cell_mm)
    face = CardFace(card, cell_mm)
    canvas = Canvas(face.width, face.height)
    canvas.rounded_box(0.2, 0.2, face.width - 0.4, face.height - 0.4, 0.0, facecolor="white", edgecolor="#cccccc",
                       linewidth=0.3, background=True)
    face.draw(canvas, 0.0, 0.0)
    return canvas.finish()


def card_image_name(card: CardSide, suffix: str) -> str:
    """File name of a card side's image: ``f"{game}_{card_id}_{side}{suffix}"``."""
    return f"{card.game}_{card.card_id}_{card.side}{suffix}"


def write_card_images(cards: Sequence[CardSide], out_dir: str | os.PathLike, fmt: str = "png", *,
                      cell_mm: float = DEFAULT_CELL_MM, dpi: int = 300, progress: bool = False) -> list[str]:
    """Write one image per card side at true scale (for a print service): PNG or SVG.

    Parameters
    ----------
    cards : sequence of CardSide
    out_dir : path
        Directory (created; an :class:`~ubongo_cp.outputs.OutputFolder`):
        each card side's file is :func:`card_image_name`, written atomically;
        images an earlier run wrote there for card sides no longer in the
        deck are removed, files of another origin are never touched (one
        named like a card image is refused before anything is drawn).
    fmt : {"png", "svg"}
        PNG at ``dpi`` dots per inch (recorded in the file, so the image
        prints at its true size), or SVG (sized in points: true size at any
        resolution).
    cell_mm : float
        Size of a region cell, mm.
    dpi : int
        Resolution of the PNGs.
    progress : bool
        Show a tqdm progress bar on standard error.

    Returns
    -------
    list of str
        The paths written, in the cards' order.

    Raises
    ------
    InputError
        When ``cards`` is empty, the format is unknown, ``cell_mm`` is not
        positive, ``dpi`` is not from :data:`~.layout.MIN_DPI` to :data:`~.layout.MAX_DPI`, a PNG
        would exceed :data:`~.layout.MAX_IMAGE_PIXELS` (before any is drawn), or the
        directory cannot be written or holds a file of another origin under a
        card image's name.
    """
    cards = list(cards)
    check_dpi(dpi)
    check_cell_mm(cell_mm)
    folder, names = _image_folder(cards, out_dir, fmt, cell_mm, dpi)
    bar = None
    written = []
    with folder:
        folder.claim(names)     # before any drawing: a file of another origin under one of the names is refused
        if progress:
            from tqdm import tqdm

            bar = tqdm(total=len(cards), unit="card", desc=f"card {fmt}s", dynamic_ncols=True)
        try:
            for card, name in zip(cards, names):
                fig = card_image(card, cell_mm)
                with atomic_path(folder.path / name) as tmp:
                    fig.savefig(tmp, format=fmt, dpi=dpi, metadata=figure_metadata(fmt))
                fig.clear()
                written.append(os.fspath(folder.path / name))
                if bar is not None:
                    bar.update(1)
        finally:
            if bar is not None:
                bar.close()
        folder.remove([name for name in folder.files if name not in names])
    return written


def _image_folder(cards: list[CardSide], out_dir: str | os.PathLike, fmt: str, cell_mm: float, dpi: int):
    """The :class:`~ubongo_cp.outputs.OutputFolder` (not entered) of :func:`write_card_images` and its files,
    once the cards, the format and the PNGs' sizes (:func:`check_image_sizes`) are checked."""
    from ..outputs import OutputFolder

    if not cards:
        raise InputError("no card sides to draw")
    if fmt not in ("png", "svg"):
        raise InputError(f"card images are png or svg, not {fmt!r}")
    if fmt == "png":
        check_image_sizes(cards, cell_mm, dpi)
    names = [card_image_name(card, f".{fmt}") for card in cards]
    folders = sorted({os.path.dirname(os.path.abspath(c.path)) for c in cards if c.path})
    return OutputFolder(out_dir, f"cards --{fmt}", source=os.pathsep.join(folders) or None,
                        guarded=lambda name: True), names


def check_image_sizes(cards: Sequence[CardSide], cell_mm: float, dpi: int) -> None:
    """Refuse, before any is drawn, a card image (PNG) of more than :data:`~.layout.MAX_IMAGE_PIXELS` pixels.

    Raises
    ------
    InputError
        Naming the largest card side, its size in pixels and the largest ``dpi`` that fits.
    """
    sizes = [(CardFace(card, cell_mm), card) for card in cards]
    face, card = max(sizes, key=lambda fc: fc[0].width * fc[0].height)
    w, h = (round(mm / 25.4 * dpi) for mm in (face.width, face.height))
    if w * h > MAX_IMAGE_PIXELS:
        most = int(25.4 * math.sqrt(MAX_IMAGE_PIXELS / (face.width * face.height)))
        raise InputError(f"card {card.card_id} side {card.side} would be a {w} x {h} pixel image at {dpi} dpi and "
                         f"{cell_mm:g} mm per cell, over the {MAX_IMAGE_PIXELS:,} pixels image readers take; give "
                         f"a dpi of at most {most} or a smaller cell size", path=card.path)


def check_card_images(cards: Sequence[CardSide], out_dir: str | os.PathLike, fmt: str = "png", *,
                      cell_mm: float = DEFAULT_CELL_MM, dpi: int = 300) -> None:
    """Refuse now what :func:`write_card_images` would refuse, writing nothing: so a command that writes a
    PDF first stops before it (a folder that does not exist yet is no conflict).

    Raises
    ------
    InputError
        As :func:`write_card_images`: an image too large (:func:`check_image_sizes`), or a folder that is
        not one, is locked by another run, was made from other cards, or holds a file of another origin
        (or one edited since) under a card image's name.
    """
    cards = list(cards)
    folder, names = _image_folder(cards, out_dir, fmt, cell_mm, dpi)
    if not os.path.lexists(out_dir):
        return
    with folder:
        folder.check(names)


def _card_pages(cards: Sequence[CardSide], cell_mm: float) -> list[list[_Placed]]:
    """The card faces packed on pages (nothing drawn yet)."""
    check_cell_mm(cell_mm)
    room = (PAGE_MM[0] - 2 * MARGIN, PAGE_MM[1] - 2 * MARGIN - _FOOTER)
    faces = [CardFace(card, cell_mm, fit=room) for card in cards]
    for face in faces:
        if face.width > room[0] or face.height > room[1]:
            card = face.card
            if face.header_w > room[0]:   # the header alone: no cell size helps
                from ..errors import cut

                raise InputError(f"card {card.card_id} side {card.side}: its title line {cut(face.title)!r} needs "
                                 f"{face.header_w:.1f} mm with the card's margins, more than an A4 page holds "
                                 f"({room[0]:.0f} mm) at any cell size; give the game a shorter title (the deck "
                                 "spec's title, or the card's game_title key)", path=card.path)
            needed = face.row_w + 2 * face.pad  # the task rows alone: no cell size helps
            if needed > room[0]:
                raise InputError(f"card {card.card_id} side {card.side}: its longest task row needs {needed:.1f} mm "
                                 f"with the card's margins ({face.row_w:.1f} mm of pieces and 2 x {face.pad:g} mm), "
                                 f"more than an A4 page holds ({room[0]:.0f} mm) at any cell size; give that task "
                                 "fewer or narrower pieces (the booklet prints it)", path=card.path)
            raise InputError(f"card {card.card_id} side {card.side} is {face.width:.0f} x {face.height:.0f} mm at "
                             f"{cell_mm:g} mm per cell: larger than an A4 page; choose a smaller cell size",
                             path=card.path)
    return _pack([(f.width, f.height, f) for f in faces])


def _draw_card_page(placed: Sequence[_Placed], number: int, pages: int, cell_mm: float) -> Figure:
    canvas = Canvas(*PAGE_MM)
    for p in placed:
        canvas.rounded_box(p.x, p.y, p.w, p.h, 0.0, facecolor="none", edgecolor="#cccccc", linewidth=0.3)
        p.item.draw(canvas, p.x, p.y)
        _cut_marks(canvas, p)
    _footer(canvas, f"playtest cards \u00b7 {cell_mm:g} mm per cell \u00b7 page {number} / {pages}")
    return canvas.finish()


def piece_sheets(piece_set: PieceSet, cell_mm: float = DEFAULT_CELL_MM) -> list[Figure]:
    """Every piece of ``piece_set`` at ``cell_mm`` per cell, named, with a black cutting outline.

    Each piece's collection has the gid ``"piece/{name}"`` (its squares are
    ``cell_mm`` wide, in mm).

    Raises
    ------
    InputError
        When ``cell_mm`` is not positive or a piece does not fit on a page.
    """
    pages = _piece_pages(piece_set, cell_mm)
    return [_draw_piece_page(piece_set, placed, number, len(pages), cell_mm) for number, placed in enumerate(pages, 1)]


def _piece_pages(piece_set: PieceSet, cell_mm: float) -> list[list[_Placed]]:
    """The pieces packed on pages (nothing drawn yet)."""
    check_cell_mm(cell_mm)
    items = []
    for piece in piece_set:
        h, w = (v * cell_mm for v in shape_size(piece.cells, piece.grid))
        if w > PAGE_MM[0] - 2 * MARGIN or h > PAGE_MM[1] - 2 * MARGIN - _FOOTER:
            raise InputError(f"piece {piece.name} is {w:.0f} x {h:.0f} mm at {cell_mm:g} mm per cell: larger than "
                             "an A4 page; choose a smaller cell size")
        items.append((w, h, piece))
    return _pack(items, gutter=GUTTER)


def _draw_piece_page(piece_set: PieceSet, placed: Sequence[_Placed], number: int, pages: int,
                     cell_mm: float) -> Figure:
    colours = piece_colours(piece_set.names)
    canvas = Canvas(*PAGE_MM)
    outlines, inner = [], []
    for p in placed:
        piece = p.item
        lines = draw_piece(canvas, piece, p.x, p.y, cell_mm, colours[piece.name], gid=f"piece/{piece.name}")
        inner += lines[0]
        outlines += lines[1]
    canvas.stroke(inner, "white", 0.5)
    canvas.stroke(outlines, INK, 0.8)
    name = os.path.basename(piece_set.path or "pieces")
    _footer(canvas, f"pieces of {name} \u00b7 {cell_mm:g} mm per cell \u00b7 cut along the black outlines "
                    f"\u00b7 page {number} / {pages}")
    return canvas.finish()


def _pack(items: Sequence[tuple[float, float, object]], *, gutter: float = GUTTER) -> list[list[_Placed]]:
    """Shelf packing in order: left to right in rows, rows top to bottom, a new page when a row does not fit."""
    width, bottom = PAGE_MM[0] - MARGIN, PAGE_MM[1] - MARGIN - _FOOTER
    pages: list[list[_Placed]] = [[]]
    x, y, row_h = MARGIN, MARGIN, 0.0
    for w, h, item in items:
        if x > MARGIN and x + w > width:          # next row
            x, y, row_h = MARGIN, y + row_h + gutter, 0.0
        if y + h > bottom:                        # next page
            pages.append([])
            x, y, row_h = MARGIN, MARGIN, 0.0
        pages[-1].append(_Placed(x, y, w, h, item))
        x += w + gutter
        row_h = max(row_h, h)
    return pages


def _cut_marks(canvas: Canvas, p: _Placed) -> None:
    """Short lines outside each corner of a card, along its edges (in the gutter)."""
    segments = []
    for cx, sx in ((p.x, -1), (p.x + p.w, 1)):
        for cy, sy in ((p.y, -1), (p.y + p.h, 1)):
            segments.append(((cx + sx * _MARK_GAP, cy), (cx + sx * (_MARK_GAP + _MARK), cy)))
            segments.append(((cx, cy + sy * _MARK_GAP), (cx, cy + sy * (_MARK_GAP + _MARK))))
    canvas.stroke(segments, INK, 0.4)


def _footer(canvas: Canvas, note: str) -> None:
    """The page note and a 100 mm scale bar (check the print with a ruler)."""
    y = PAGE_MM[1] - MARGIN
    x0 = PAGE_MM[0] - MARGIN - 100.0
    ticks = [((x0 + 10.0 * i, y - (2.0 if i % 5 else 3.0)), (x0 + 10.0 * i, y)) for i in range(11)]
    canvas.stroke([((x0, y), (x0 + 100.0, y))] + ticks, INK, 0.5)
    canvas.text(x0 + 50.0, y - 4.0, "100 mm: print at actual size (100 %)", ha="center", fontsize=6.5, color=MUTED,
                va="baseline")
    # The note goes left of the bar, in the footer (the top margin holds the cut marks of the first row of
    # cards), broken at its " \u00b7 " into lines that fit there, the last line on the bar's baseline.
    room = x0 - 3.0 - MARGIN
    lines: list[str] = []
    for part in note.split(" \u00b7 "):
        joined = f"{lines[-1]} \u00b7 {part}" if lines else part
        if lines and text_width_mm(joined, 6.5) > room:
            lines.append(part)
        else:
            lines[-1:] = [joined]
    for i, line in enumerate(reversed(lines)):
        canvas.text(MARGIN, y - 4.0 * i, line, fontsize=6.5, color=MUTED, va="baseline")
