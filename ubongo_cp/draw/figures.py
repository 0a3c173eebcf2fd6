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

from ..booklet.layout import check_cell_mm
from ..errors import whole_argument
from ..geometry import Cell
from ..grids import SQUARE, Grid
from .canvas import (INK, MUTED, Canvas, boundary_edges, cells_path, inner_edges, piece_colours, plane_box,
                     shape_size, text_width_mm)
from .card import card_figure
from .puzzle import (IconBatch, draw_region, draw_solution, draw_unsolved, stroke_solution)

__all__ = ["Panel", "solutions_figure", "pieces_figure", "region_figure", "card_figure", "result_figure",
           "result_panels", "frequency_figure", "cell_shares", "task_record_figure", "figure_svg", "save_figure",
           "save_solutions", "check_format", "FORMATS"]

#: File formats :func:`save_figure` writes, by suffix.
FORMATS = (".svg", ".png", ".pdf")
_NO_SOLUTION = "#c0392b"


@dataclass(frozen=True)
class Panel:
    """One framed picture of a region: a title and a solution (or a hatched region when there is none).

    Attributes
    ----------
    title : str
    cells : tuple of cells
        The region's cells.
    solution : dict of str -> list of cells, or None
    note : str
        Right-aligned text in the header (e.g. ``"no solution"``).
    grid : Grid
        The cells' grid (default square).
    """

    title: str
    cells: tuple[Cell, ...]
    solution: Mapping[str, Sequence[Cell]] | None = None
    note: str = ""
    grid: Grid = SQUARE


class _Grid:
    """Framed panels in rows on one canvas (the booklet's look), each with a title and a note.

    ``cells`` gives each panel's region (on ``grids``, default squares); ``cols`` panels per row (default up
    to 4); the cell size is ``cell_mm`` (default 8 mm, smaller for regions
    over 8 cells wide); ``heads``, each panel's (title, note), make the
    panels wide enough for their header (the title, 3 mm, the note).
    """

    header, pad, gap = 7.0, 3.0, 3.0

    def __init__(self, cells: Sequence[Sequence[Cell]], cols: int | None, cell_mm: float | None,
                 heads: Sequence[tuple[str, str]] = (), note_pt: float = 7.5,
                 grids: Sequence[Grid] | None = None) -> None:
        self.cells = cells
        # Each region's picture in the plane (its grid's cells), in cell units.
        self.boxes = [plane_box(c, g) for c, g in zip(cells, grids or [SQUARE] * len(cells))]
        height = max(b[3] for b in self.boxes)
        width = max(b[2] for b in self.boxes)
        self.cs = cell_mm or min(8.0, 64.0 / width)
        self.cols = cols or min(len(cells), 4)
        rows = math.ceil(len(cells) / self.cols)
        head = max((4.0 + text_width_mm(title, 7.5) + (3.0 + text_width_mm(note, note_pt) if note else 0.0)
                    for title, note in heads), default=0.0)
        self.pw = max(width * self.cs + 2 * self.pad, 40.0, head)
        self.ph = self.header + height * self.cs + self.pad
        self.canvas = Canvas(self.cols * self.pw + (self.cols + 1) * self.gap, rows * self.ph + (rows + 1) * self.gap)

    def frame(self, k: int, title: str, note: str = "", note_colour: str = MUTED, note_pt: float = 7.5):
        """Draw panel ``k``'s frame, title and note; the top-left corner of its region's cell (0, 0), mm."""
        pw, ph, gap, canvas = self.pw, self.ph, self.gap, self.canvas
        px = gap + (k % self.cols) * (pw + gap)
        py = gap + (k // self.cols) * (ph + gap)
        canvas.rounded_box(px, py, pw, ph, 2.0, facecolor="none", edgecolor="#d0d0d0", linewidth=0.6)
        canvas.text(px + 2.0, py + 4.8, title, fontsize=7.5, color=INK, va="baseline")
        if note:
            canvas.text(px + pw - 2.0, py + 4.8, note, fontsize=note_pt, ha="right", va="baseline", color=note_colour)
        p_w, p_h = self.boxes[k][2], self.boxes[k][3]
        return px + (pw - p_w * self.cs) / 2, py + self.header + (ph - self.header - self.pad - p_h * self.cs) / 2


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
    grid = _Grid([p.cells for p in panels], cols, cell_mm, [(p.title, p.note) for p in panels],
                 grids=[p.grid for p in panels])
    canvas, cs = grid.canvas, grid.cs
    inner, outline, unsolved = [], [], []
    for k, panel in enumerate(panels):
        x0, y0 = grid.frame(k, panel.title, panel.note, _NO_SOLUTION if panel.solution is None else MUTED)
        if panel.solution:
            lines = draw_solution(canvas, panel.solution, colours, x0, y0, cs, gid=f"solution/{k}", grid=panel.grid)
            inner += lines[0]
            outline += lines[1]
        else:
            unsolved += draw_unsolved(canvas, panel.cells, x0, y0, cs, hatch_colour="#e6b0aa", gid=f"unsolved/{k}",
                                      grid=panel.grid)
    stroke_solution(canvas, inner, outline, lw=1.5)
    canvas.stroke(unsolved, _NO_SOLUTION, 1.2)
    return canvas.finish()


def pieces_figure(pieces: Sequence, colours: Mapping[str, str] | None = None, *, cell_mm: float = 5.0,
                  width_mm: float = 160.0) -> Figure:
    """Every piece exactly as its file draws it, its name below it, packed in rows at one scale (a piece set
    in a notebook).

    Raises
    ------
    InputError
        For a ``cell_mm`` that :func:`~ubongo_cp.booklet.layout.check_cell_mm` refuses.
    """
    check_cell_mm(cell_mm, "cell_mm")
    colours = colours or piece_colours(p.name for p in pieces)
    shapes = [p.grid.normalize(p.cells) for p in pieces]   # exactly as the file draws them
    sizes = [shape_size(s, p.grid) for s, p in zip(shapes, pieces)]
    gap, label = 4.0, 4.5
    x = y = gap
    row_h = 0.0
    spots = []
    for h, w in sizes:
        if x + w * cell_mm > width_mm - gap and x > gap:
            x, y, row_h = gap, y + row_h + label + gap, 0.0
        spots.append((x, y))
        x += w * cell_mm + gap
        row_h = max(row_h, h * cell_mm)
    total_w = min(width_mm, max(sx + w * cell_mm for (sx, _), (_, w) in zip(spots, sizes)) + gap)
    canvas = Canvas(total_w, y + row_h + label + gap)
    icons = IconBatch()
    for piece, shape, (sx, sy), (h, w) in zip(pieces, shapes, spots, sizes):
        icons.add(shape, sx, sy, cell_mm, colours.get(piece.name, "#bbbbbb"), piece.grid)
        canvas.text(sx + w * cell_mm / 2, sy + h * cell_mm + 3.5, piece.name, ha="center", va="baseline",
                    fontsize=7.5, color=INK)
    icons.draw(canvas)
    return canvas.finish()


def region_figure(cells: Sequence[Cell], *, cell_mm: float = 8.0, grid: Grid = SQUARE) -> Figure:
    """A region on card-board beige with its cell grid.

    Raises
    ------
    InputError
        For ``cell_mm`` as :func:`pieces_figure`.
    """
    check_cell_mm(cell_mm, "cell_mm")
    _, _, w, h = plane_box(cells, grid)
    canvas = Canvas(w * cell_mm + 4.0, h * cell_mm + 4.0)
    draw_region(canvas, cells, 2.0, 2.0, cell_mm, grid=grid)
    return canvas.finish()


def result_figure(result, instance=None, colours: Mapping[str, str] | None = None, *, most: int = 12) -> Figure:
    """The solutions a :class:`~ubongo_cp.solvers.base.SolveResult` kept (at most ``most``), one panel each.

    ``instance`` (default: the result's own) gives the region; ``colours``
    default to the pieces' order in the instance.

    Raises
    ------
    ValueError
        When neither the result nor the call gives the instance.
    InputError
        For ``most`` that is not a whole number of at least 1 (-1 drew all but the last), and for an
        ``instance`` that is no exact-cover instance (``draw(3)``, meant as a solution's number, was an
        AttributeError of int).
    """
    from ..cover import ExactCoverInstance
    from ..errors import InputError

    most = whole_argument("most", most, 1)
    if instance is not None and not isinstance(instance, ExactCoverInstance):
        raise InputError("instance must be the instance the result solved (ubongo_cp.cover.build_instance), got "
                         f"{type(instance).__name__} {instance!r:.40}; most= sets how many solutions are drawn")
    instance = instance if instance is not None else getattr(result, "instance", None)
    if instance is None:
        raise ValueError("the result does not know its instance: pass instance=")
    names = list(dict.fromkeys(p.name for p in instance.pieces))
    return solutions_figure(result_panels(result, instance.region.cells, most=most, grid=instance.region.grid),
                            colours or piece_colours(names))


def result_panels(result, cells: Sequence[Cell], *, most: int = 12, prefix: str = "",
                  grid: Grid = SQUARE) -> list[Panel]:
    """One :class:`Panel` per kept solution of ``result`` (at most ``most``), or one saying why there is none."""
    shown = result.solutions[:most]
    total = f"{result.count}" + ("" if result.complete else "+")
    if not shown:
        if str(result.status) == "no solution":
            note = "no solution"
        elif result.count:   # counted, none kept (keep=0, --max-solutions 0)
            note = f"{total} solution{'' if total == '1' else 's'}, none kept to draw"
        else:
            note = "not solved (time limit)"
        return [Panel(prefix.rstrip(": "), tuple(cells), None, note, grid)]
    what = "uniform sample" if "samples" in getattr(result, "stats", {}) else "solution"  # drawn from a diagram
    return [Panel(f"{prefix}{what} {i} of {total}", tuple(cells), s, "", grid) for i, s in enumerate(shown, 1)]


def cell_shares(result):
    """Per piece type and region cell, the share of the solutions in which the type covers the cell.

    Parameters
    ----------
    result : SolveResult
        A result with ``frequencies`` (``solve(..., frequencies=True)``).

    Returns
    -------
    numpy.ndarray of float, shape (n_types, n_cells)
        In [0, 1]: 1 where the type covers the cell in every solution (a
        cell it is forced onto), 0 where never; each column sums to 1
        when there is a solution. Rows follow ``result.instance.types``,
        columns its cells.

    Raises
    ------
    ValueError
        When the result holds no frequencies.
    """
    import numpy as np

    if result.frequencies is None:
        raise ValueError("the result holds no placement frequencies: solve(..., frequencies=True)")
    inst = result.instance
    share = np.zeros((inst.n_types, inst.n_cells))
    total = int(result.count)
    if not total:
        return share
    freq = result.frequencies
    for o in range(inst.n_options):
        f = int(freq[o])
        if f:
            cells = [i for i in inst.option_items(o).tolist() if i < inst.n_cells]
            share[int(inst.option_type[o]), cells] += f / total
    return share


def frequency_figure(result, colours: Mapping[str, str] | None = None, *, cols: int | None = None,
                     cell_mm: float | None = None) -> Figure:
    """The placement-frequency heat map: one panel per piece type, each cell shaded by the share of solutions.

    A cell of piece P's panel is shaded in P's colour, from white (P never
    covers it) to full colour (P covers it in every solution: forced), and
    labelled with the percentage when the cells are large enough. Fixed
    placements (``solve(..., fixed=...)``) show at 100 %.

    Parameters
    ----------
    result : SolveResult
        With ``frequencies`` (:func:`cell_shares`).
    colours : dict of str -> str, optional
        Piece name -> colour (default: the pieces' order in the instance).
    cols, cell_mm : optional
        As in :func:`solutions_figure`.

    Raises
    ------
    ValueError
        When the result holds no frequencies.
    """
    from matplotlib.colors import to_rgb

    share = cell_shares(result)
    inst = result.instance
    cells = list(inst.cells)
    colours = colours or piece_colours(dict.fromkeys(p.name for p in inst.pieces))
    total = int(result.count)
    heads = []
    for t in range(inst.n_types):
        name, copies = inst.type_piece(t).name, len(inst.types[t])
        forced = int((share[t] > 1 - 1e-12).sum()) if total else 0
        heads.append((name + (f" x{copies}" if copies > 1 else ""),
                      f"forced on {forced} cell{'s' if forced != 1 else ''}" if forced else f"of {total} solutions"))
    from .puzzle import _captions, _frame

    region_grid = inst.region.grid
    grid = _Grid([cells] * inst.n_types, cols, cell_mm, heads, note_pt=6.5, grids=[region_grid] * inst.n_types)
    canvas, cs = grid.canvas, grid.cs
    for t in range(inst.n_types):
        name = inst.type_piece(t).name
        px, py = grid.frame(t, *heads[t], note_pt=6.5)
        plane, x0, y0 = _frame(cells, region_grid, px, py, cs)
        flat = plane.map(cells)  # the cells in the plane (a cube's layers side by side)
        owner = dict.fromkeys(flat, 0)
        base = to_rgb(colours.get(name, "#888888"))
        fills = [tuple(1 - s * (1 - b) for b in base) for s in share[t]]
        canvas.fill_cells([cells_path([c], x0, y0, cs, plane.grid) for c in flat], fills, gid=f"frequency/{t}")
        canvas.stroke(inner_edges(owner, x0, y0, cs, plane.grid), "#d8d8d8", 0.4)
        canvas.stroke(boundary_edges(owner, x0, y0, cs, plane.grid), INK, 1.2)
        _captions(canvas, plane, x0, y0, cs)
        if cs >= 6.0 and plane.grid is SQUARE:  # percentages in the cells where they are squares
            for (r, c), s in zip(flat, share[t]):
                if s > 0:
                    canvas.text(x0 + (c + 0.5) * cs, y0 + (r + 0.5) * cs, f"{100 * s:.0f}", fontsize=5.0,
                                ha="center", va="center", color=INK)
    return canvas.finish()


def check_format(path: str | os.PathLike, what: str = "a drawing") -> None:
    """Raise :class:`~ubongo_cp.errors.InputError` unless ``path`` ends in a suffix of :data:`FORMATS`
    (:func:`ubongo_cp.io.check_suffix`: ``PATH: a drawing must end in .svg, .png or .pdf, not .toml``)."""
    from ..io import check_suffix

    check_suffix(path, FORMATS, what)


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
        from ..grids import get_grid

        grid = get_grid(getattr(record, "grid", "square"))
        cells = grid.normalize([c for cells in record.solution.values() for c in cells])
        note = "" if record.count is None else f"{record.count} solution" + ("" if record.count == 1 else "s")
        return solutions_figure([Panel(title, tuple(cells), record.solution, note, grid)], colours)
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


def save_figure(fig: Figure, path: str | os.PathLike, *, dpi: int = 150, **savefig) -> None:
    """Write a figure as SVG, PNG or PDF (by the path's suffix), atomically.

    An existing file at ``path`` is replaced only when it is a picture of
    that kind the toolkit wrote (:func:`~ubongo_cp.io.check_output_file`);
    other keyword arguments go to :meth:`matplotlib.figure.Figure.savefig`.

    Raises
    ------
    InputError
        For another suffix, a path that cannot be written, or one holding a
        file the toolkit did not write as such a picture.
    """
    from ..io import atomic_path, check_output_file, figure_metadata

    check_format(path)
    check_output_file(path)
    path = Path(path)
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format=path.suffix.lower()[1:], dpi=dpi, metadata=figure_metadata(path.suffix), **savefig)
