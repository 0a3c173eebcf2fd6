"""One booklet page: a card side's title, region, task table, piece key, solutions and footer.

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
from ..draw.canvas import (INK, MUTED, Canvas, base_name, colour_of, lying, piece_colours, text_colour,
                           text_width_mm)
from ..draw.puzzle import (IconBatch, die_face, draw_icon_row, draw_piece_icons, draw_region, draw_solution,
                           draw_unsolved, icon_scale)
from ..solvers import NO_SOLUTION, SOLVED, UNKNOWN
from .layout import PAGE_MM, Layout
from .views import TaskView

__all__ = ["render_page"]

_GAME_TITLES = {"classic": "Ubongo", "duel": "Ubongo Duel"}
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
    canvas = Canvas(*PAGE_MM)
    colours = piece_colours(card.piece_set.names)
    layout = Layout(len(views))
    _draw_title(canvas, card, views)
    _draw_region_box(canvas, card, layout)
    _draw_task_table(canvas, card, views, colours, layout)
    if layout.key_box is not None:
        _draw_piece_key(canvas, card, views, colours, layout.key_box)
    _draw_solutions(canvas, card, views, colours, layout)
    _draw_footer(canvas, card, page, pages)
    return canvas.finish()


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _count_text(view: TaskView) -> str:
    if view.status == NO_SOLUTION:
        return "none"
    if view.status == UNKNOWN:
        return "?"
    if view.count is None:
        return "\u2265 1"
    return ("\u2265 " if view.count_is_lower_bound else "") + str(view.count)


def _difficulty_text(view: TaskView) -> str:
    d = view.difficulty
    if d is None:
        return ""
    return f"{d:.2f}" if abs(d) < 10 else f"{d:.1f}" if abs(d) < 100 else f"{d:.0f}"


def _draw_title(canvas: Canvas, card: CardSide, views: Sequence[TaskView]) -> None:
    m = Layout.margin
    side = f"{card.side} side" if card.game == "classic" else f"side {card.side}"
    title = f"{_GAME_TITLES.get(card.game, card.game)}  \u00b7  card {card.card_id}  \u00b7  {side}"
    canvas.text(m, 17.0, title, fontsize=19, fontweight="bold", color=INK, va="baseline")
    sizes = sorted({len(v.pieces) for v in views})
    per = str(sizes[0]) if len(sizes) == 1 else f"{sizes[0]}\u2013{sizes[-1]}"
    faces = [v.face for v in views]
    unsolvable = sum(v.status == NO_SOLUTION for v in views)
    unknown = sum(v.status == UNKNOWN for v in views)
    parts = [f"{_plural(len(views), 'task')} (die faces {min(faces)}\u2013{max(faces)})",
             f"{per} pieces per task", f"region of {card.region.area} cells"]
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
    cs = min(w / region.width, (h - 13.0) / region.height, 15.0)
    x0 = x + (w - cs * region.width) / 2
    y0 = top + (h - 13.0 - cs * region.height) / 2
    draw_region(canvas, region.cells, x0, y0, cs)
    canvas.text(x + w / 2, y + h, f"{region.area} cells  \u00b7  {region.height} rows \u00d7 {region.width} columns",
                ha="center", va="baseline", fontsize=8.5, color=MUTED)


def _draw_task_table(canvas: Canvas, card: CardSide, views: Sequence[TaskView], colours, layout: Layout) -> None:
    x, y, w, h = layout.table_box
    counts_known = any(v.count is not None or v.status != SOLVED for v in views)
    diff_known = any(v.difficulty is not None for v in views)
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
        icon_cs = None
        if not layout.compact:  # icons where they fit nicely (one scale for the whole table)
            icon_cs = min(icon_scale(_shapes(card, v.pieces), v.pieces, pieces_w, row_h) for v in views)
            icon_cs = icon_cs if icon_cs >= 1.5 else None
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
                _draw_name_chips(canvas, view.pieces, colours, pieces_x, ry, pieces_w, row_h)
            else:
                draw_icon_row(canvas, _shapes(card, view.pieces), view.pieces, colours, pieces_x, ry, row_h,
                              icon_cs, icons)
            mid = ry + row_h / 2
            if counts_known:
                colour = {NO_SOLUTION: _NO_SOLUTION, UNKNOWN: _UNKNOWN}.get(view.status, INK)
                canvas.text(pieces_x + pieces_w + num_w - 1.0, mid, _count_text(view), ha="right",
                            va="center_baseline", fontsize=9, color=colour,
                            fontweight="bold" if view.status != SOLVED else "normal")
            if diff_known:
                canvas.text(bx + bw - 1.0, mid, _difficulty_text(view), ha="right", va="center_baseline",
                            fontsize=9, color=INK)
    icons.draw(canvas)


def _shapes(card: CardSide, names: Sequence[str]) -> list:
    """The icons' cells (lying rotations) of the named pieces."""
    return [lying(card.piece_set[base_name(n)].cells) for n in names]


def _draw_name_chips(canvas: Canvas, names, colours, x, y, w, row_h) -> None:
    """Piece names on rounded chips in the pieces' colours."""
    size = 8.0
    chip_h = min(row_h * 0.72, 5.2)
    cx = x
    for name in names:
        fill = colour_of(name, colours)
        cw = max(chip_h, text_width_mm(name, size, True) + 2.0)
        canvas.rounded_box(cx, y + (row_h - chip_h) / 2, cw, chip_h, chip_h * 0.3, facecolor=fill, edgecolor="none")
        canvas.text(cx + cw / 2, y + row_h / 2, name, ha="center", va="center_baseline", fontsize=size,
                    fontweight="bold", color=text_colour(fill))
        cx += cw + 1.2


def _draw_piece_key(canvas: Canvas, card: CardSide, views: Sequence[TaskView], colours, box) -> None:
    """A strip with an icon of every piece used on the page, in piece-set order."""
    x, y, w, h = box
    used = {base_name(n) for v in views for n in v.pieces}
    pieces = [p for p in card.piece_set if p.name in used]
    canvas.text(x, y + 3.0, "Pieces", fontsize=11, fontweight="bold", color=INK, va="baseline")
    draw_piece_icons(canvas, pieces, colours, x, y + 5.0, w, h - 5.0)


def _draw_solutions(canvas: Canvas, card: CardSide, views: Sequence[TaskView], colours, layout: Layout) -> None:
    gx, gy, gw, gh = layout.grid_box
    canvas.text(gx, gy - 3.0, "Solutions", fontsize=11, fontweight="bold", color=INK, va="baseline")
    cols, rows = layout.cols, layout.rows
    gap = 3.0
    pw = (gw - gap * (cols - 1)) / cols
    ph = (gh - gap * (rows - 1)) / rows
    header = 8.0 if not layout.compact else 6.5
    region = card.region
    cs = min((pw - 4.0) / region.width, (ph - header - 3.0) / region.height, 13.0)
    thin: dict[str, list] = {_NO_SOLUTION: [], _UNKNOWN: []}
    thick, inner = [], []
    for k, view in enumerate(views):
        px = gx + (k % cols) * (pw + gap)
        py = gy + (k // cols) * (ph + gap)
        canvas.rounded_box(px, py, pw, ph, 2.0, facecolor="none", edgecolor="#d0d0d0", linewidth=0.6)
        s = header - 2.5
        die_face(canvas, px + 1.8, py + 1.6, s, view.face)
        info_pt = 7.0 if layout.compact else 8.0
        names_pt = 7.0 if layout.compact else 8.5
        names, info = _panel_header(view, pw - s - 5.6, names_pt, info_pt)
        if names:
            canvas.text(px + s + 3.6, py + 1.6 + s / 2, names, va="center_baseline", fontsize=names_pt, color=INK)
        if info:
            colour = {NO_SOLUTION: _NO_SOLUTION, UNKNOWN: _UNKNOWN}.get(view.status, MUTED)
            canvas.text(px + pw - 2.0, py + 1.6 + s / 2, info, ha="right", va="center_baseline",
                        fontsize=info_pt, color=colour)
        x0 = px + (pw - cs * region.width) / 2
        y0 = py + header + (ph - header - cs * region.height) / 2
        if view.status == SOLVED and view.solution:
            lines = draw_solution(canvas, view.solution, colours, x0, y0, cs, gid=f"solution/{view.face}")
            inner += lines[0]
            thick += lines[1]
        else:
            colour = _NO_SOLUTION if view.status == NO_SOLUTION else _UNKNOWN
            hatch = "#e6b0aa" if view.status == NO_SOLUTION else "#ecd3a8"
            thin[colour] += draw_unsolved(canvas, region.cells, x0, y0, cs, hatch_colour=hatch,
                                          gid=f"unsolved/{view.face}")
            text = "NO SOLUTION" if view.status == NO_SOLUTION else "NOT SOLVED\n(time limit)"
            canvas.text(x0 + cs * region.width / 2, y0 + cs * region.height / 2, text, ha="center", va="center",
                        fontsize=9 if layout.compact else 12, fontweight="bold", color=colour,
                        bbox=dict(boxstyle="round,pad=0.3", facecolor="white", edgecolor=colour, linewidth=1.0))
    canvas.stroke(inner, (1.0, 1.0, 1.0, 0.45), 0.4)
    canvas.stroke(thick, INK, 1.5 if layout.compact else 2.0)
    for colour, segments in thin.items():
        canvas.stroke(segments, colour, 1.2)


def _panel_header(view: TaskView, width: float, names_pt: float, info_pt: float) -> tuple[str, str]:
    """The piece names and the status/count/difficulty text of a solution panel's header.

    The longest variants that fit side by side in ``width`` mm: the count and
    difficulty shrink to abbreviations first, then the names are dropped (the
    task table lists them).
    """
    if view.status == NO_SOLUTION:
        infos = ["no solution"]
    elif view.status == UNKNOWN:
        infos = ["not solved"]
    else:
        count = None if view.count is None else ("\u2265" if view.count_is_lower_bound else "") + str(view.count)
        diff = _difficulty_text(view)
        infos = []
        if count is not None and diff:
            infos += [f"{_plural_text(count, 'solution')}  \u00b7  diff. {diff}", f"{count} sol. \u00b7 d. {diff}"]
        if count is not None:
            infos += [_plural_text(count, "solution"), f"{count} sol."]
        elif diff:
            infos += [f"difficulty {diff}", f"d. {diff}"]
        infos = infos or [""]
    names = " ".join(view.pieces)
    names_w = text_width_mm(names, names_pt) + 2.0
    for info in infos:
        if names_w + text_width_mm(info, info_pt) <= width:
            return names, info
    for info in infos:
        if text_width_mm(info, info_pt) <= width:
            return "", info
    return "", ""


def _plural_text(count: str, word: str) -> str:
    return f"{count} {word}" + ("" if count == "1" else "s")


def _draw_footer(canvas: Canvas, card: CardSide, page: int | None, pages: int | None) -> None:
    m = Layout.margin
    y = PAGE_MM[1] - 6.0
    left = f"pieces: {card.pieces_spec}"
    if card.path:
        left = f"{FilePath(card.path).name}   \u00b7   " + left
    canvas.text(m, y, left, fontsize=7, color="#888888", va="baseline")
    if page is not None:
        right = f"page {page}" + (f" / {pages}" if pages else "")
        canvas.text(PAGE_MM[0] - m, y, right, fontsize=7, color="#888888", ha="right", va="baseline")
    canvas.text(PAGE_MM[0] / 2, y, "ubongo-cp solution booklet", fontsize=7, color="#888888", ha="center",
                va="baseline")
