"""One booklet page: a card side's title, region, task table, solutions and footer (and continuation pages).

Each ``_draw_*`` function draws one part of the page on the page's
:class:`~ubongo_cp.draw.canvas.Canvas` (the page object: the figure, its
millimetre axes and the patches gathered for it) inside the box the
:class:`~.layout.Layout` gives it.
"""

from __future__ import annotations

import math
from pathlib import Path as FilePath
from typing import Sequence

from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from ..cards import CardSide
from ..draw.card import empty_note, game_title, icon_labels, orientation_note, side_label
from ..draw.canvas import (INK, MUTED, Canvas, base_name, colour_of, icon_shape, piece_colours, plane_box, text_colour,
                           text_width_mm)
from ..draw.puzzle import (ICON_LABEL_PT, IconBatch, die_face, draw_icon_row, draw_region, draw_solution,
                           draw_unsolved, icon_scale, note_width)
from ..rate import RATING_LEGEND
from ..status import Status
from .layout import PAGE_MM, Layout
from .views import TaskView

__all__ = ["render_page"]

_RULE = "#bbbbbb"
_NO_SOLUTION = "#c0392b"
_UNKNOWN = "#b9770e"


def render_page(card: CardSide, views: Sequence[TaskView], *, page: int | None = None,
                pages: int | None = None) -> Figure:
    """Draw one card side's page and return the (A4 portrait) figure.

    Artists that tests and tools may look up by ``get_gid()``:
    ``"solution/{face}"`` is the collection of the pieces of the solution of
    ``face``, one path per piece in the order of ``view.solution`` (a square
    sub-path per cell, in mm), filled with the piece's colour;
    ``"unsolved/{face}"`` is the hatched region of an unsolved task.

    Parameters
    ----------
    card : CardSide
    views : sequence of TaskView
        From :func:`~ubongo_cp.booklet.task_views`, one per task.
    page, pages : int, optional
        Page number and page count for the footer.
    """
    return render_pages(card, views, page=page, pages=pages)[0]


def render_pages(card: CardSide, views: Sequence[TaskView], *, page: int | None = None,
                 pages: int | None = None) -> list[Figure]:
    """Draw a card side's page and, when its views hold more solutions than fit, continuation pages.

    Every solution of every view (:attr:`TaskView.solutions`) gets a panel;
    the panels after the first of a task have the gid
    ``"solution/{face}/{k}"`` (``k`` from 2). ``page`` is the first page's
    number; see :func:`render_page` for the rest.
    """
    items = [(v, k) for v in views for k in range(1, max(1, len(v.solutions)) + 1)]
    legend = next((v.legend for v in views if v.legend), RATING_LEGEND)   # what the difficulty numbers mean
    layout = Layout(len(views), len(items))
    spots = layout.panel_origins(len(items))
    colours = piece_colours(card.piece_set.names)
    style = _header_style(items, layout)
    figures, start = [], 0
    for i, page_spots in enumerate(spots):
        canvas = Canvas(*PAGE_MM)
        _draw_title(canvas, card, views, continued=i > 0)
        if i == 0:
            _draw_region_box(canvas, card, layout)
            _draw_task_table(canvas, card, views, colours, layout)
        _draw_solutions(canvas, card, items[start:start + len(page_spots)], page_spots, colours, layout, style,
                        heading=i == 0)
        _draw_footer(canvas, card, None if page is None else page + i, pages,
                     legend=legend if any(v.difficulty is not None for v in views) else "")
        figures.append(canvas.finish())
        start += len(page_spots)
    return figures


def pages_needed(views: Sequence[TaskView]) -> int:
    """How many pages :func:`render_pages` draws for these views."""
    panels = sum(max(1, len(v.solutions)) for v in views)
    return len(Layout(len(views), panels).panel_origins(panels))


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _faces_text(faces: Sequence[int]) -> str:
    """``die face 3``, ``die faces 1\u20136`` (every face between) or ``die faces 1, 4, 6``."""
    faces = sorted(set(faces))
    if len(faces) == 1:
        return f"die face {faces[0]}"
    if faces[-1] - faces[0] == len(faces) - 1:
        return f"die faces {faces[0]}\u2013{faces[-1]}"
    return "die faces " + ", ".join(map(str, faces))


def _count_text(view: TaskView) -> str:
    if view.status == Status.NO_SOLUTION:
        return "none"
    if view.status == Status.UNKNOWN:
        return "?"
    if view.count is None:
        return "\u2265 1"
    return ("\u2265 " if view.count_is_lower_bound else "") + str(view.count)


def _difficulty_text(view: TaskView) -> str:
    """The difficulty at one precision everywhere (one decimal), so a table's column lines up."""
    d = view.difficulty
    return "" if d is None else f"{d:.1f}"



def _draw_title(canvas: Canvas, card: CardSide, views: Sequence[TaskView], *, continued: bool = False) -> None:
    m = Layout.margin
    title = f"{game_title(card)}  \u00b7  card {card.card_id}  \u00b7  {side_label(card)}"
    canvas.text(m, 17.0, title + ("  (continued)" if continued else ""), fontsize=19, fontweight="bold", color=INK,
                va="baseline")
    counts = [card.piece_count(v.face) for v in views]
    least, most = min(lo for lo, _ in counts), max(hi for _, hi in counts)
    per = str(least) if least == most else f"{least}\u2013{most}"
    faces = [v.face for v in views]
    unsolvable = sum(v.status == Status.NO_SOLUTION for v in views)
    unknown = sum(v.status == Status.UNKNOWN for v in views)
    parts = [f"{_plural(len(views), 'task')} ({_faces_text(faces)})",
             f"{per} pieces per task", f"region of {card.region.area} cells"]
    if orientation_note(card):
        parts.append(orientation_note(card))
    if unsolvable:
        parts.append(f"{unsolvable} unsolvable")
    if unknown:
        parts.append(f"{unknown} not solved")
    sub = "   \u00b7   ".join(parts)
    if text_width_mm(sub, 10) > PAGE_MM[0] - 2 * m:
        sub = "  \u00b7  ".join([_plural(len(views), "task")] + parts[1:])
    canvas.text(m, 24.5, sub, fontsize=10, color=MUTED, va="baseline")
    canvas.line([m, PAGE_MM[0] - m], [28.0, 28.0], color=INK, lw=1.2, solid_capstyle="butt")


def _draw_region_box(canvas: Canvas, card: CardSide, layout: Layout) -> None:
    x, y, w, h = layout.region_box
    canvas.text(x, y + 3.0, "Region", fontsize=11, fontweight="bold", color=INK, va="baseline")
    region = card.region
    top = y + 7.0
    _, _, rw, rh = plane_box(region.cells, region.grid)
    cs = min(w / rw, (h - 13.0) / rh, 15.0)
    x0 = x + (w - cs * rw) / 2
    y0 = top + (h - 13.0 - cs * rh) / 2
    draw_region(canvas, region.cells, x0, y0, cs, grid=region.grid)
    size = " \u00d7 ".join(f"{n} {unit}" for n, unit in zip(region.size, ("layers", "rows", "columns")[-len(region.size):]))
    canvas.text(x + w / 2, y + h, f"{region.area} cells  \u00b7  {size}",
                ha="center", va="baseline", fontsize=8.5, color=MUTED)


def _draw_task_table(canvas: Canvas, card: CardSide, views: Sequence[TaskView], colours, layout: Layout) -> None:
    x, y, w, h = layout.table_box
    # Compact (Duel) tables need their width for the icons: counts and difficulties are in the panels' headers.
    counts_known = not layout.compact and any(v.count is not None or v.status != Status.SOLVED for v in views)
    diff_known = not layout.compact and any(v.difficulty is not None for v in views)
    label_pt, icon_gap, smallest = (7.0, 2.0, 1.0) if layout.compact else (ICON_LABEL_PT, 3.0, 1.5)
    canvas.text(x, y + 3.0, "Tasks", fontsize=11, fontweight="bold", color=INK, va="baseline")
    blocks = 2 if layout.compact and len(views) > 10 else 1
    per_block = math.ceil(len(views) / blocks)
    gap = 5.0
    bw = (w - gap * (blocks - 1)) / blocks
    head_y = y + 9.5
    row_top = y + 11.5
    row_h = min(13.0, (y + h - row_top) / max(per_block, 1))
    num_w = 15.0 if counts_known else 0.0
    diff_w = 15.0 if diff_known else 0.0
    icons = IconBatch()
    for b in range(blocks):
        bx = x + b * (bw + gap)
        pieces_x = bx + row_h * 0.72 + 3.0
        pieces_w = bw - (pieces_x - bx) - num_w - diff_w
        # Icons where they fit (one scale for the whole table), else name chips.
        icon_cs = min(icon_scale(_shapes(card, v.pieces), icon_labels(card, v.face), pieces_w, row_h,
                                 label_pt=label_pt, gap=icon_gap, grid=card.region.grid,
                                 note=empty_note(card, v.face)) for v in views)
        icon_cs = icon_cs if icon_cs >= smallest else None
        canvas.text(bx, head_y, "face", fontsize=7.5, color=MUTED, va="baseline")
        canvas.text(pieces_x, head_y, "pieces", fontsize=7.5, color=MUTED, va="baseline")
        if counts_known:
            canvas.text(pieces_x + pieces_w + num_w - 1.0, head_y, "solutions", fontsize=7.5, color=MUTED,
                        ha="right", va="baseline")
        if diff_known:
            canvas.text(bx + bw - 1.0, head_y, "difficulty", fontsize=7.5, color=MUTED, ha="right", va="baseline")
        canvas.line([bx, bx + bw], [row_top - 0.6, row_top - 0.6], color=_RULE, lw=0.6)
        for i, view in enumerate(views[b * per_block:(b + 1) * per_block]):
            ry = row_top + i * row_h
            if i % 2 == 1:
                canvas.background.append(Rectangle((bx, ry), bw, row_h, facecolor="#f3f3f3", edgecolor="none"))
            s = min(row_h * 0.72, 7.5)
            die_face(canvas, bx + 0.8, ry + (row_h - s) / 2, s, view.face)
            if icon_cs is None:
                _draw_name_chips(canvas, view.pieces, icon_labels(card, view.face), colours, pieces_x, ry,
                                 pieces_w, row_h, note=empty_note(card, view.face))
            else:
                draw_icon_row(canvas, _shapes(card, view.pieces), view.pieces, colours, pieces_x, ry, row_h,
                              icon_cs, icons, label_pt=label_pt, gap=icon_gap, grid=card.region.grid,
                              labels=icon_labels(card, view.face), note=empty_note(card, view.face))
            mid = ry + row_h / 2
            if counts_known:
                colour = {Status.NO_SOLUTION: _NO_SOLUTION, Status.UNKNOWN: _UNKNOWN}.get(view.status, INK)
                canvas.text(pieces_x + pieces_w + num_w - 1.0, mid, _count_text(view), ha="right",
                            va="center_baseline", fontsize=9, color=colour,
                            fontweight="bold" if view.status != Status.SOLVED else "normal")
            if diff_known:
                canvas.text(bx + bw - 1.0, mid, _difficulty_text(view), ha="right", va="center_baseline",
                            fontsize=9, color=INK)
    icons.draw(canvas)


def _shapes(card: CardSide, names: Sequence[str]) -> list:
    """The icons' cells of the named pieces (:func:`~ubongo_cp.draw.canvas.icon_shape`)."""
    return [icon_shape(card.piece_set[base_name(n)].cells, card.orientations, card.region.grid) for n in names]


def _draw_name_chips(canvas: Canvas, names, labels, colours, x, y, w, row_h, *, note: str = "") -> None:
    """Piece labels (:func:`~ubongo_cp.draw.card.icon_labels`) on rounded chips in the pieces' colours, then ``note``.

    The letters shrink (down to 4 pt) until the row fits the width ``w`` (mm).
    """
    chip_h = min(row_h * 0.72, 5.2)

    def row_width(size: float) -> float:
        return (sum(max(chip_h, text_width_mm(label, size, True) + 2.0) + 1.2 for label in labels)
                + note_width(note, size))

    size = 8.0
    while size > 4.0 and row_width(size) > w:
        size -= 0.5
    cx = x
    for name, label in zip(names, labels):
        fill = colour_of(name, colours)
        cw = max(chip_h, text_width_mm(label, size, True) + 2.0)
        canvas.rounded_box(cx, y + (row_h - chip_h) / 2, cw, chip_h, chip_h * 0.3, facecolor=fill, edgecolor="none")
        canvas.text(cx + cw / 2, y + row_h / 2, label, ha="center", va="center_baseline", fontsize=size,
                    fontweight="bold", color=text_colour(fill))
        cx += cw + 1.2
    if note:
        canvas.text(cx + 1.8, y + row_h / 2, note, va="center_baseline", fontsize=size, color=MUTED, style="italic")


def _draw_solutions(canvas: Canvas, card: CardSide, items, spots, colours, layout: Layout, style,
                    *, heading: bool = True) -> None:
    """One panel per ``(view, k)`` item (the ``k``-th solution of a task) at the given top-left corners."""
    gx, gy = layout.grid_box[:2]
    if heading:
        canvas.text(gx, gy - 3.0, "Solutions", fontsize=11, fontweight="bold", color=INK, va="baseline")
    pw, ph = layout.panel_w, layout.panel_h
    header = _header_height(layout)
    region = card.region
    _, _, rw, rh = plane_box(region.cells, region.grid)
    cs = min((pw - 4.0) / rw, (ph - header - 3.0) / rh, 13.0)
    thin: dict[str, list] = {_NO_SOLUTION: [], _UNKNOWN: []}
    thick, inner = [], []
    info_pt, names_pt = _header_points(layout)
    for (view, k), (px, py) in zip(items, spots):
        canvas.rounded_box(px, py, pw, ph, 2.0, facecolor="none", edgecolor="#d0d0d0", linewidth=0.6)
        s = header - 2.5
        die_face(canvas, px + 1.8, py + 1.6, s, view.face)
        names, info = _panel_header(view, k, style)
        if names:
            canvas.text(px + s + 3.6, py + 1.6 + s / 2, names, va="center_baseline", fontsize=names_pt, color=INK)
        if info:
            colour = {Status.NO_SOLUTION: _NO_SOLUTION, Status.UNKNOWN: _UNKNOWN}.get(view.status, MUTED)
            canvas.text(px + pw - 2.0, py + 1.6 + s / 2, info, ha="right", va="center_baseline",
                        fontsize=info_pt, color=colour)
        x0 = px + (pw - cs * rw) / 2
        y0 = py + header + (ph - header - cs * rh) / 2
        if view.status == Status.SOLVED and view.solution:
            gid = f"solution/{view.face}" + ("" if k == 1 else f"/{k}")
            lines = draw_solution(canvas, view.solutions[k - 1], colours, x0, y0, cs, gid=gid, grid=region.grid)
            inner += lines[0]
            thick += lines[1]
        else:
            colour = _NO_SOLUTION if view.status == Status.NO_SOLUTION else _UNKNOWN
            hatch = "#e6b0aa" if view.status == Status.NO_SOLUTION else "#ecd3a8"
            thin[colour] += draw_unsolved(canvas, region.cells, x0, y0, cs, hatch_colour=hatch,
                                          gid=f"unsolved/{view.face}", grid=region.grid)
            text = "NO SOLUTION" if view.status == Status.NO_SOLUTION else "NOT SOLVED\n(time limit)"
            canvas.text(x0 + cs * rw / 2, y0 + cs * rh / 2, text, ha="center", va="center",
                        fontsize=9 if layout.compact else 12, fontweight="bold", color=colour,
                        bbox=dict(boxstyle="round,pad=0.3", facecolor="white", edgecolor=colour, linewidth=1.0))
    canvas.stroke(inner, (1.0, 1.0, 1.0, 0.45), 0.4)
    canvas.stroke(thick, INK, 1.5 if layout.compact else 2.0)
    for colour, segments in thin.items():
        canvas.stroke(segments, colour, 1.2)


def _header_height(layout: Layout) -> float:
    """Height of a solution panel's header, mm."""
    return 6.5 if layout.compact else 8.0


def _header_points(layout: Layout) -> tuple[float, float]:
    """Font sizes (points) of a panel header's info and piece names."""
    return (7.0, 7.0) if layout.compact else (8.0, 8.5)


#: Panel header styles, most informative first: (long words, difficulty shown, piece names shown).
#: The task table lists the pieces, so the names go before the difficulty does.
_STYLES = [(True, True, True), (True, True, False), (False, True, True), (False, True, False),
           (True, False, True), (True, False, False), (False, False, True), (False, False, False)]


def _header_style(items, layout: Layout) -> tuple[bool, bool, bool] | None:
    """The one header style of a card side's panels: the first of :data:`_STYLES` that fits every panel.

    None when not even the shortest fits (headers then show the die face only).
    """
    info_pt, names_pt = _header_points(layout)
    width = layout.panel_w - (_header_height(layout) - 2.5) - 5.6
    for style in _STYLES:
        if all(_header_width(view, k, style, names_pt, info_pt) <= width for view, k in items):
            return style
    return None


def _header_width(view: TaskView, k: int, style, names_pt: float, info_pt: float) -> float:
    names, info = _panel_header(view, k, style)
    return (text_width_mm(names, names_pt) + 2.0 if names else 0.0) + text_width_mm(info, info_pt)


def _panel_header(view: TaskView, k: int, style) -> tuple[str, str]:
    """The piece names and the status/count/difficulty text of the ``k``-th panel of ``view`` in ``style``.

    A task's panels say which of its solutions they show when it has more than one.
    """
    if style is None:
        return "", ""
    long, with_diff, with_names = style
    names = " ".join(view.entries or view.pieces) if with_names else ""
    if view.status == Status.NO_SOLUTION:
        return names, "no solution"
    if view.status == Status.UNKNOWN:
        return names, "not solved"
    count = None if view.count is None else ("\u2265" if view.count_is_lower_bound else "") + str(view.count)
    if len(view.solutions) > 1:
        of = f"{k} of {count or len(view.solutions)}"
        count_text = f"solution {of}" if long else f"sol. {of}"
    elif count is not None:
        count_text = _plural_text(count, "solution") if long else f"{count} sol."
    else:
        count_text = ""
    diff = _difficulty_text(view) if with_diff else ""
    if not diff:
        diff_text = ""
    elif count_text:
        diff_text = f"diff. {diff}" if long else f"d. {diff}"
    else:
        diff_text = f"difficulty {diff}" if long else f"d. {diff}"
    return names, ("  \u00b7  " if long else " \u00b7 ").join(t for t in (count_text, diff_text) if t)


def _plural_text(count: str, word: str) -> str:
    return f"{count} {word}" + ("" if count == "1" else "s")


def _draw_footer(canvas: Canvas, card: CardSide, page: int | None, pages: int | None, *, legend: str = "") -> None:
    m = Layout.margin
    y = PAGE_MM[1] - 6.0
    if legend:
        canvas.text(m, y - 3.2, legend, fontsize=6.5, color="#888888", va="baseline")
    left = f"pieces: {card.pieces_spec}"
    if card.path:
        left = f"{FilePath(card.path).name}   \u00b7   " + left
    canvas.text(m, y, left, fontsize=7, color="#888888", va="baseline")
    if page is not None:
        right = f"page {page}" + (f" / {pages}" if pages else "")
        canvas.text(PAGE_MM[0] - m, y, right, fontsize=7, color="#888888", ha="right", va="baseline")
    canvas.text(PAGE_MM[0] / 2, y, "ubongo-cp solution booklet", fontsize=7, color="#888888", ha="center",
                va="baseline")
