"""A card side as printed on a card: title, region at a chosen cell size, die-face table with piece icons.

:class:`CardFace` computes the card's size in mm before anything is drawn
(so sheets of cards can be packed) and draws it with its top-left corner
anywhere on a :class:`~ubongo_cp.draw.canvas.Canvas`. Used by the playtest
cards (:mod:`ubongo_cp.booklet.playtest`) and by ``CardSide._repr_svg_``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .canvas import INK, MUTED, Canvas, icon_shape, piece_colours, plane_box, shape_size, text_width_mm
from .puzzle import ICON_LABEL_PT, IconBatch, die_face, draw_icon_row, draw_region, note_width

if TYPE_CHECKING:  # pragma: no cover
    from ..cards import CardSide

__all__ = ["game_title", "side_label", "CardFace", "card_figure", "icon_labels", "empty_note", "orientation_note"]

def game_title(card: "CardSide") -> str:
    """The game's name for a card side: its file's ``game_title`` (or ``title``) key, else its deck spec's title.

    The spec is the shipped game's (``Ubongo``, ``Ubongo Duel``) or the
    ``deck.toml`` beside the card file (:func:`ubongo_cp.specs.spec_for_card`);
    the game's id when neither names it.

    Examples
    --------
    >>> from types import SimpleNamespace as Card
    >>> game_title(Card(game="duel", meta={}, path=None)), game_title(Card(game="classic", meta={"title": "Blokko"}))
    ('Ubongo Duel', 'Blokko')
    """
    for key in ("game_title", "title"):
        value = card.meta.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    from ..errors import InputError
    from ..specs import spec_for_card

    try:
        return spec_for_card(card.game, card.path).title
    except InputError:
        return card.game


def side_label(card: "CardSide") -> str:
    """``"easy side"`` for a side named by a word, ``"side A"`` for one named by a letter.

    Examples
    --------
    >>> from types import SimpleNamespace as Card
    >>> side_label(Card(side="hard")), side_label(Card(side="B"))
    ('hard side', 'side B')
    """
    return f"{card.side} side" if len(card.side) > 1 else f"side {card.side}"


class CardFace:
    """Geometry of one printed card side at cell size ``cell_mm``.

    Parameters
    ----------
    card : CardSide
    cell_mm : float
        Size of a region cell on paper, mm (the region is drawn at exactly this scale).
    table_beside : bool, optional
        Put the die-face table right of the region (True) or below it
        (False); default: with ``fit``, whichever puts more such cards in
        that area (then the smaller card), else the smaller card.
    fit : (float, float), optional
        Largest width and height, mm (a page's printable area; cards 8 mm apart).
    note : str, optional
        Text at the right of the header (e.g. the region's cell count); the
        card is made wide enough for the title and the note side by side.
        The rule of a card whose pieces may not be turned freely
        (:func:`orientation_note`) is added to it.

    Attributes
    ----------
    width, height : float
        The card's size, mm (the cut line).
    header_w : float
        Width of the header line (the title and the note, with the card's margins), mm: the least width of the
        card at any cell size.
    """

    pad = 5.0
    header = 8.0
    row_h = 7.0
    icon_cs = 2.2      # mm per cell of the table's piece icons
    gap = 3.0          # between icons

    title_pt = 9.0
    note_pt = 7.5

    def __init__(self, card: "CardSide", cell_mm: float, *, table_beside: bool | None = None,
                 fit: tuple[float, float] | None = None, note: str = ""):
        note = "  \u00b7  ".join(t for t in (note, orientation_note(card)) if t)
        self.card, self.cs, self.note = card, float(cell_mm), note
        self.grid = card.region.grid
        self.title = f"{game_title(card)}  \u00b7  card {card.card_id}  \u00b7  {side_label(card)}"
        # The header: the title, then (right-aligned, at least 3 mm away) the note.
        self.header_w = header_w = 2 * self.pad + text_width_mm(self.title, self.title_pt, True) + (
            3.0 + text_width_mm(note, self.note_pt) if note else 0.0)
        _, _, width, height = plane_box(card.region.cells, self.grid)
        self.region_w = width * self.cs
        self.region_h = height * self.cs
        self.blocks = 1 if len(card.tasks) <= 8 else 2
        self.per_block = math.ceil(len(card.tasks) / self.blocks)
        self.row_w = max(self._row_width(names, icon_labels(card, face)) + note_width(empty_note(card, face))
                         for face, names in card.tasks.items())
        self.table_w = self.blocks * self.row_w + (self.blocks - 1) * 4.0
        self.table_h = self.per_block * self.row_h
        below = (max(self.region_w, self.table_w, header_w - 2 * self.pad) + 2 * self.pad,
                 2 * self.pad + self.header + self.region_h + 4.0 + self.table_h)
        beside = (max(self.region_w + 6.0 + self.table_w, header_w - 2 * self.pad) + 2 * self.pad,
                  2 * self.pad + self.header + max(self.region_h, self.table_h))
        if table_beside is None:
            def per_area(size):     # how many such cards fit in ``fit`` (0: none)
                if fit is None:
                    return 1
                return int((fit[0] + 8.0) // (size[0] + 8.0)) * int((fit[1] + 8.0) // (size[1] + 8.0))

            table_beside = (per_area(beside), -beside[0] * beside[1]) > (per_area(below), -below[0] * below[1])
        self.table_beside = table_beside
        self.width, self.height = beside if table_beside else below
        self.width = max(self.width, header_w)

    def _row_width(self, names, labels) -> float:
        shapes = [icon_shape(self.card.piece_set[n].cells, self.card.orientations, self.grid) for n in names]
        return (self.row_h * 0.8 + 2.0 + sum(shape_size(s, self.grid)[1] * self.icon_cs + 1.0
                                             + text_width_mm(n, ICON_LABEL_PT)
                                             + 1.2 + self.gap for s, n in zip(shapes, labels)))

    def draw(self, canvas: Canvas, x: float, y: float) -> None:
        """Draw the card with its top-left corner at ``(x, y)`` mm.

        The region's cell collection has the gid ``"region/{card_id}/{side}"``
        (its squares are ``cell_mm`` wide, in mm).
        """
        card, pad = self.card, self.pad
        canvas.text(x + pad, y + pad + 4.5, self.title, fontsize=self.title_pt, fontweight="bold", color=INK,
                    va="baseline")
        if self.note:
            canvas.text(x + self.width - pad, y + pad + 4.5, self.note, ha="right", fontsize=self.note_pt,
                        color=MUTED, va="baseline")
        top = y + pad + self.header
        draw_region(canvas, card.region.cells, x + pad, top, self.cs, gid=f"region/{card.card_id}/{card.side}",
                    grid=self.grid)
        if self.table_beside:
            tx, ty = x + pad + self.region_w + 6.0, top
        else:
            tx, ty = x + pad, top + self.region_h + 4.0
        colours = piece_colours(card.piece_set.names)
        icons = IconBatch()
        faces = list(card.tasks.items())
        for i, (face, names) in enumerate(faces):
            bx = tx + (i // self.per_block) * (self.row_w + 4.0)
            ry = ty + (i % self.per_block) * self.row_h
            s = self.row_h * 0.8
            die_face(canvas, bx, ry + (self.row_h - s) / 2, s, face)
            shapes = [icon_shape(card.piece_set[n].cells, card.orientations, self.grid) for n in names]
            cs = min(self.icon_cs, self.row_h * 0.8 / max(shape_size(sh, self.grid)[0] for sh in shapes))
            draw_icon_row(canvas, shapes, names, colours, bx + s + 2.0, ry, self.row_h, cs, icons, gap=self.gap,
                          labels=icon_labels(card, face), note=empty_note(card, face),
                          grid=self.grid)
        icons.draw(canvas)


def icon_labels(card: "CardSide", face: int) -> list[str]:
    """The words beside a task's piece icons: each name, with its count range (``"T4 0–2×"``, ``"D2 2×"``)."""
    ranges = card.ranges.get(face, {})
    return [n if n not in ranges else f"{n} {ranges[n][0]}×" if ranges[n][0] == ranges[n][1]
            else f"{n} {ranges[n][0]}–{ranges[n][1]}×" for n in card.tasks[face]]


def orientation_note(card: "CardSide") -> str:
    """What a card side says about turning its pieces (UP-3): nothing when they turn freely, else the rule of
    its ``orientations`` (one-sided: not turned over; fixed: as the icons show them).

    Examples
    --------
    >>> from types import SimpleNamespace as Card
    >>> [orientation_note(Card(orientations=m)) for m in ("free", "one-sided", "fixed")]
    ['', 'pieces are not turned over', 'pieces lie as shown, neither turned nor turned over']
    """
    return {"one-sided": "pieces are not turned over",
            "fixed": "pieces lie as shown, neither turned nor turned over"}.get(card.orientations, "")


def empty_note(card: "CardSide", face: int) -> str:
    """What a task's row says after its pieces about the cells that may stay empty (``"≤ 2 empty"``), or ``""``."""
    empty = card.max_empty.get(face, 0)
    return f"≤ {empty} cell{'s' if empty > 1 else ''} empty" if empty else ""


def card_figure(card: "CardSide", cell_mm: float = 8.0):
    """One card side as a figure of its own size (for notebooks): :class:`CardFace` at ``cell_mm``.

    Raises
    ------
    InputError
        For a ``cell_mm`` that :func:`~ubongo_cp.booklet.layout.check_cell_mm` refuses.
    """
    from ..booklet.layout import check_cell_mm

    check_cell_mm(cell_mm, "cell_mm")
    face = CardFace(card, cell_mm, note=f"{card.region.area} cells")
    canvas = Canvas(face.width, face.height)
    canvas.rounded_box(0.3, 0.3, face.width - 0.6, face.height - 0.6, 2.0, facecolor="none", edgecolor="#bbbbbb",
                       linewidth=0.6)
    face.draw(canvas, 0.0, 0.0)
    return canvas.finish()
