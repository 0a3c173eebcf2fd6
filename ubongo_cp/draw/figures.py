"""Whole pictures: solution panels, piece sets, regions, results and table rows; SVG text and image files.

These are what ``ubongo-cp solve --draw`` writes and what the puzzle objects
show in a notebook (``_repr_svg_`` of :class:`~ubongo_cp.pieces.PieceSet`,
:class:`~ubongo_cp.pieces.Region`, :class:`~ubongo_cp.cards.CardSide`,
:class:`~ubongo_cp.solvers.base.SolveResult` and
:class:`~ubongo_cp.report.TaskRecord`). Sizes are in mm; a figure is
exactly as large as its content.
"""

from __future__ import annotations

import io
import math
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

from matplotlib.figure import Figure

from ..geometry import Cell, normalize
from .canvas import INK, MUTED, Canvas, piece_colours, shape_size, text_width_mm
from .card import card_figure
from .puzzle import (IconBatch, draw_region, draw_solution, draw_unsolved, stroke_solution)

__all__ = ["Panel", "solutions_figure", "pieces_figure", "region_figure", "card_figure", "result_figure",
           "result_panels", "task_record_figure", "figure_svg", "save_figure", "save_solutions", "check_format",
           "FORMATS"]

#: File formats :func:`save_figure` writes, by suffix.
FORMATS = (".svg", ".png", ".pdf")
_NO_SOLUTION = "#c0392b"


@dataclass(frozen=True)
class Panel:
    """One framed picture of a region: a title and a solution (or a hatched region when there is none).

    Attributes
    ----------
    title : str
    cells : tuple of (row, col)
        The region's cells.
    solution : dict of str -> list of (row, col), or None
    note : str
        Right-aligned text in the header (e.g. ``"no solution"``).
    """

    title: str
    cells: tuple[Cell, ...]
    solution: Mapping[str, Sequence[Cell]] | None = None
    note: str = ""


def solutions_figure(panels: Sequence[Panel], colours: Mapping[str, str], *, cols: int | None = None,
                     cell_mm: float | None = None) -> Figure:
    """A grid of :class:`Panel` s, every piece in its colour and labelled (the booklet's look).

    Parameters
    ----------
    panels : sequence of Panel
    colours : dict of str -> str
        Piece name -> colour (:func:`~ubongo_cp.draw.canvas.piece_colours` of the piece set).
    cols : int, optional
        Panels per row (default: up to 4).
    cell_mm : float, optional
        Cell size, mm (default: 8, smaller for regions over 8 cells wide).

    Raises
    ------
    ValueError
        When there is no panel.
    """
    if not panels:
        raise ValueError("no panel to draw")
    height = max(1 + max(r for r, _ in p.cells) for p in panels)
    width = max(1 + max(c for _, c in p.cells) for p in panels)
    cs = cell_mm or min(8.0, 64.0 / width)
    cols = cols or min(len(panels), 4)
    rows = math.ceil(len(panels) / cols)
    header, pad, gap = 7.0, 3.0, 3.0
    # Wide enough for the region and for the header: the title, 3 mm, the note.
    heads = max(4.0 + text_width_mm(p.title, 7.5) + (3.0 + text_width_mm(p.note, 7.5) if p.note else 0.0)
                for p in panels)
    pw = max(width * cs + 2 * pad, 40.0, heads)
    ph = header + height * cs + pad
    canvas = Canvas(cols * pw + (cols + 1) * gap, rows * ph + (rows + 1) * gap)
    inner, outline, unsolved = [], [], []
    for k, panel in enumerate(panels):
        px = gap + (k % cols) * (pw + gap)
        py = gap + (k // cols) * (ph + gap)
        canvas.rounded_box(px, py, pw, ph, 2.0, facecolor="none", edgecolor="#d0d0d0", linewidth=0.6)
        canvas.text(px + 2.0, py + 4.8, panel.title, fontsize=7.5, color=INK, va="baseline")
        if panel.note:
            canvas.text(px + pw - 2.0, py + 4.8, panel.note, fontsize=7.5, ha="right", va="baseline",
                        color=_NO_SOLUTION if panel.solution is None else MUTED)
        p_h = 1 + max(r for r, _ in panel.cells)
        p_w = 1 + max(c for _, c in panel.cells)
        x0 = px + (pw - p_w * cs) / 2
        y0 = py + header + (ph - header - pad - p_h * cs) / 2
        if panel.solution:
            lines = draw_solution(canvas, panel.solution, colours, x0, y0, cs, gid=f"solution/{k}")
            inner += lines[0]
            outline += lines[1]
        else:
            unsolved += draw_unsolved(canvas, panel.cells, x0, y0, cs, hatch_colour="#e6b0aa", gid=f"unsolved/{k}")
    stroke_solution(canvas, inner, outline, lw=1.5)
    canvas.stroke(unsolved, _NO_SOLUTION, 1.2)
    return canvas.finish()


def pieces_figure(pieces: Sequence, colours: Mapping[str, str] | None = None, *, cell_mm: float = 5.0,
                  width_mm: float = 160.0) -> Figure:
    """Every piece exactly as its file draws it, its name below it, packed in rows at one scale (a piece set
    in a notebook)."""
    colours = colours or piece_colours(p.name for p in pieces)
    shapes = [normalize(p.cells) for p in pieces]
    gap, label = 4.0, 4.5
    x = y = gap
    row_h = 0.0
    spots = []
    for shape in shapes:
        h, w = shape_size(shape)
        if x + w * cell_mm > width_mm - gap and x > gap:
            x, y, row_h = gap, y + row_h + label + gap, 0.0
        spots.append((x, y))
        x += w * cell_mm + gap
        row_h = max(row_h, h * cell_mm)
    total_w = min(width_mm, max(sx + shape_size(s)[1] * cell_mm for (sx, _), s in zip(spots, shapes)) + gap)
    canvas = Canvas(total_w, y + row_h + label + gap)
    icons = IconBatch()
    for piece, shape, (sx, sy) in zip(pieces, shapes, spots):
        h, w = shape_size(shape)
        icons.add(shape, sx, sy, cell_mm, colours.get(piece.name, "#bbbbbb"))
        canvas.text(sx + w * cell_mm / 2, sy + h * cell_mm + 3.5, piece.name, ha="center", va="baseline",
                    fontsize=7.5, color=INK)
    icons.draw(canvas)
    return canvas.finish()


def region_figure(cells: Sequence[Cell], *, cell_mm: float = 8.0) -> Figure:
    """A region on card-board beige with its cell grid."""
    h = 1 + max(r for r, _ in cells)
    w = 1 + max(c for _, c in cells)
    canvas = Canvas(w * cell_mm + 4.0, h * cell_mm + 4.0)
    draw_region(canvas, cells, 2.0, 2.0, cell_mm)
    return canvas.finish()


def result_figure(result, instance=None, colours: Mapping[str, str] | None = None, *, most: int = 12) -> Figure:
    """The solutions a :class:`~ubongo_cp.solvers.base.SolveResult` kept (at most ``most``), one panel each.

    ``instance`` (default: the result's own) gives the region; ``colours``
    default to the pieces' order in the instance.

    Raises
    ------
    ValueError
        When neither the result nor the call gives the instance.
    """
    instance = instance if instance is not None else getattr(result, "instance", None)
    if instance is None:
        raise ValueError("the result does not know its instance: pass instance=")
    names = list(dict.fromkeys(p.name for p in instance.pieces))
    return solutions_figure(result_panels(result, instance.region.cells, most=most), colours or piece_colours(names))


def result_panels(result, cells: Sequence[Cell], *, most: int = 12, prefix: str = "") -> list[Panel]:
    """One :class:`Panel` per kept solution of ``result`` (at most ``most``), or one saying why there is none."""
    shown = result.solutions[:most]
    if not shown:
        note = "no solution" if str(result.status) == "no solution" else "not solved (time limit)"
        return [Panel(prefix.rstrip(": "), tuple(cells), None, note)]
    total = f"{result.count}" + ("" if result.complete else "+")
    return [Panel(f"{prefix}solution {i} of {total}", tuple(cells), s) for i, s in enumerate(shown, 1)]


def check_format(path: str | os.PathLike) -> None:
    """Raise :class:`~ubongo_cp.errors.InputError` unless ``path`` ends in a suffix of :data:`FORMATS`."""
    from ..errors import InputError

    if Path(path).suffix.lower() not in FORMATS:
        raise InputError(f"cannot draw to a {Path(path).suffix or 'suffix-less'} file; use one of "
                         f"{', '.join(FORMATS)}", path=path)


def save_solutions(path: str | os.PathLike, panels: Sequence[Panel], piece_names: Sequence[str]) -> None:
    """Draw ``panels`` (colours of the piece set whose names are ``piece_names``) to an SVG, PNG or PDF file."""
    save_figure(solutions_figure(panels, piece_colours(piece_names)), path)


def task_record_figure(record) -> Figure:
    """One task-table row: its first solution (the region is the union of its cells), or its pieces' names."""
    from ..shipped import SHIPPED_PIECE_SETS

    colours = piece_colours(record.pieces)
    if record.game in SHIPPED_PIECE_SETS:
        from ..pieces import load_pieces

        colours = piece_colours(load_pieces(record.game).names)
    title = f"card {record.card_id} {record.side}, face {record.face}"
    if record.solution:
        cells = normalize([c for cells in record.solution.values() for c in cells])
        note = "" if record.count is None else f"{record.count} solution" + ("" if record.count == 1 else "s")
        return solutions_figure([Panel(title, tuple(cells), record.solution, note)], colours)
    canvas = Canvas(80.0, 14.0)
    canvas.text(3.0, 6.0, title, fontsize=8, color=INK, va="baseline")
    canvas.text(3.0, 11.0, f"{' '.join(record.pieces)}: {record.status}", fontsize=8, color=_NO_SOLUTION,
                va="baseline")
    return canvas.finish()


def figure_svg(fig: Figure) -> str:
    """The figure as SVG text (what ``_repr_svg_`` returns)."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg")
    return buf.getvalue()


def save_figure(fig: Figure, path: str | os.PathLike, *, dpi: int = 150) -> None:
    """Write a figure as SVG, PNG or PDF (by the path's suffix), atomically.

    Raises
    ------
    InputError
        For another suffix, or a path that cannot be written.
    """
    from ..io import atomic_path

    path = Path(path)
    check_format(path)
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format=path.suffix.lower()[1:], dpi=dpi)
