"""Drawing the parts of a puzzle on a :class:`~ubongo_cp.draw.canvas.Canvas`: regions, solutions, pieces, die faces.

One function per thing drawn, shared by the booklet, the playtest cards,
``solve --draw`` and the notebook pictures, so a solution looks the same
everywhere: each piece filled with its colour (:func:`piece_colours`; a
second copy of a piece, ``"I2#2"``, a darker shade), its cell grid in thin
white lines, black outlines between pieces and its name written inside it
(colour is never the only cue).

Coordinates are millimetres on the canvas; ``cs`` is the cell size in mm
(a square's side, a hexagon's width, a triangle's side). Pictures are placed
by the top-left corner ``(x0, y0)`` of their box (:func:`plane_box`: on
squares in normal position, the corner of cell (0, 0)); cells are of any
grid (``grid``, default square): a cube picture shows its layers side by
side, bottom layer first, each captioned and, for a shape of several
layers, each in a faint frame of the shape's footprint (so that a cube can
be matched with the one above it; piece icons too).
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from matplotlib.collections import PathCollection

from ..geometry import Cell
from ..grids import SQUARE, Grid, Plane
from ..pieces import EMPTY
from .canvas import (CAPTION_PT, INK, MUTED, PT_PER_MM, Canvas, boundary_edges, caption_fit, cells_path, colour_of,
                     inner_edges, label_point, lying, plane_box, shape_size, text_colour, text_width_mm)

__all__ = ["REGION_FILL", "draw_region", "draw_solution", "draw_unsolved", "draw_piece", "label_piece", "die_face",
           "icon_scale", "draw_icon_row", "draw_piece_icons"]

#: Fill colour of a region's cells (card-board beige).
REGION_FILL = "#efe6cf"     # card-board beige
REGION_GRID = "#c9bb98"
#: Colour and width (points) of the faint frames around the layers of a cube picture (:attr:`~ubongo_cp.grids.Plane.frames`);
#: drawn under the cells, they show only where a layer has no cell.
FRAME_COLOUR, FRAME_LW = "#a0a0a0", 0.5
#: Size of the piece names written beside icons (points).
ICON_LABEL_PT = 8.5


def _frame(cells: Iterable[Cell], grid: Grid, x0: float, y0: float, cs: float) -> tuple[Plane, float, float]:
    """The plane of a picture of ``cells`` and where (mm) its origin goes for the picture's box to start at (x0, y0)."""
    cells = [tuple(c) for c in cells]
    x_min, y_min, _, _ = plane_box(cells, grid)
    return grid.plane(cells), x0 - x_min * cs, y0 - y_min * cs


def _parts(cells, grid: Grid) -> list[list]:
    """The connected parts of a piece's cells in the plane (one, but for a cube piece over several layers)."""
    left = set(cells)
    parts = []
    for start in cells:
        if start not in left:
            continue
        left.discard(start)
        part, todo = [start], [start]
        while todo:
            for nb in grid.neighbours(todo.pop()):
                if nb in left:
                    left.discard(nb)
                    part.append(nb)
                    todo.append(nb)
        parts.append(part)
    return parts


def _frame_segments(plane: Plane, ox: float, oy: float, cs: float) -> list:
    """The sides of the plane's frames (a cube's layers, :attr:`~ubongo_cp.grids.Plane.frames`) as segments, mm."""
    segments = []
    for x, y, w, h in plane.frames:
        x0, y0, x1, y1 = ox + x * cs, oy + y * cs, ox + (x + w) * cs, oy + (y + h) * cs
        segments += [((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))]
    return segments


def _captions(canvas: Canvas, plane: Plane, ox: float, oy: float, cs: float) -> None:
    """The plane's captions (a cube's layers) under their parts, and its frames (under the cells)."""
    size = min(CAPTION_PT, cs * PT_PER_MM * caption_fit(plane.captions)[0])
    for x, y, text in plane.captions:
        canvas.text(ox + x * cs, oy + (y + 0.12) * cs, text, ha="center", va="top", fontsize=size, color=MUTED)
    canvas.stroke(_frame_segments(plane, ox, oy, cs), FRAME_COLOUR, FRAME_LW, zorder=0.9)


def draw_region(canvas: Canvas, cells: Iterable[Cell], x0: float, y0: float, cs: float, *,
                outline_lw: float = 2.0, gid: str | None = None, grid: Grid = SQUARE) -> None:
    """A region on card-board beige with its cell grid and a black outline.

    Parameters
    ----------
    canvas : Canvas
    cells : iterable of cells
    x0, y0 : float
        Top-left corner of the picture's box, mm (on squares: of cell (0, 0)).
    cs : float
        Cell size, mm (the drawn squares are exactly ``cs`` wide).
    outline_lw : float
        Outline width, points.
    gid : str, optional
        Group id of the filled cells' collection (for tests and tools).
    grid : Grid
        The cells' grid (default square).
    """
    cells = list(cells)
    plane, ox, oy = _frame(cells, grid, x0, y0, cs)
    flat, g = plane.map(cells), plane.grid
    owner = dict.fromkeys(flat, 0)
    canvas.add(PathCollection([cells_path(flat, ox, oy, cs, g)], facecolors=REGION_FILL, edgecolors="none"),
               gid=gid)
    canvas.stroke(inner_edges(owner, ox, oy, cs, g), REGION_GRID, 0.6)
    canvas.stroke(boundary_edges(owner, ox, oy, cs, g), INK, outline_lw)
    _captions(canvas, plane, ox, oy, cs)


def draw_solution(canvas: Canvas, solution: Mapping[str, Sequence[Cell]], colours: Mapping[str, str],
                  x0: float, y0: float, cs: float, *, gid: str | None = None,
                  grid: Grid = SQUARE) -> tuple[list, list]:
    """Fill and label the pieces of one solution; return the outline segments to stroke.

    Parameters
    ----------
    canvas : Canvas
    solution : dict of str -> sequence of cells
        Piece name (``"name#2"`` for a second copy) -> covered cells; the
        cells left empty (key ``"empty"``, :data:`~ubongo_cp.pieces.EMPTY`)
        are drawn white.
    colours : dict of str -> str
        Piece name -> colour (:func:`piece_colours`).
    x0, y0 : float
        Top-left corner of the picture's box (the region's), mm.
    cs : float
        Cell size, mm.
    gid : str, optional
        Group id of the pieces' collection: one path per piece, in the order
        of ``solution``, a polygon sub-path per cell.
    grid : Grid
        The cells' grid (default square).

    Returns
    -------
    inner, outline : list of segments
        The cell grid inside the pieces and the pieces' outlines, for the
        caller to stroke (a page strokes all its solutions' outlines at once:
        one path each instead of one per panel). :func:`stroke_solution`
        strokes them as the booklet does.
    """
    frame = [tuple(c) for cells in solution.values() for c in cells]
    plane, ox, oy = _frame(frame, grid, x0, y0, cs)
    g = plane.grid
    owner: dict[Cell, str] = {}
    paths, fills = [], []
    for name, cells in solution.items():
        flat = plane.map(cells)
        owner.update((c, name) for c in flat)
        if name == EMPTY:  # the cells left empty: white, outlined, unnamed
            paths.append(cells_path(flat, ox, oy, cs, g))
            fills.append("#ffffff")
            continue
        fill = colour_of(name, colours)
        paths.append(cells_path(flat, ox, oy, cs, g))
        fills.append(fill)
        for part in _parts(flat, g):   # a cube piece spread over two layers is named in each
            label_piece(canvas, name, part, ox, oy, cs, fill, grid=g)
    canvas.fill_cells(paths, fills, gid=gid)
    _captions(canvas, plane, ox, oy, cs)
    return inner_edges(owner, ox, oy, cs, g), boundary_edges(owner, ox, oy, cs, g)


def stroke_solution(canvas: Canvas, inner: Sequence, outline: Sequence, *, lw: float = 2.0) -> None:
    """Stroke the segments :func:`draw_solution` returned: a translucent white grid, black outlines."""
    canvas.stroke(inner, (1.0, 1.0, 1.0, 0.45), 0.4)
    canvas.stroke(outline, INK, lw)


def draw_unsolved(canvas: Canvas, cells: Iterable[Cell], x0: float, y0: float, cs: float, *, hatch_colour: str,
                  gid: str | None = None, grid: Grid = SQUARE) -> list:
    """A hatched grey region (a task without a drawn solution); returns its outline segments."""
    cells = list(cells)
    plane, ox, oy = _frame(cells, grid, x0, y0, cs)
    flat, g = plane.map(cells), plane.grid
    canvas.add(PathCollection([cells_path(flat, ox, oy, cs, g)], facecolors="#f6f6f6", edgecolors=[hatch_colour],
                              linewidths=0.0, hatch="////"), gid=gid)
    _captions(canvas, plane, ox, oy, cs)
    return boundary_edges(dict.fromkeys(flat, 0), ox, oy, cs, g)


def draw_piece(canvas: Canvas, piece, x0: float, y0: float, cs: float, fill: str, *,
               gid: str | None = None) -> tuple[list, list]:
    """One piece filled, named, at true scale (top-left corner of its box at (x0, y0)); returns (grid, outline) segments.

    Parameters
    ----------
    piece : Piece
        Any grid's (the piece's ``grid``); a cube piece shows its layers side by side.
    """
    plane, ox, oy = _frame(piece.cells, piece.grid, x0, y0, cs)
    flat, g = plane.map(piece.cells), plane.grid
    canvas.fill_cells([cells_path(flat, ox, oy, cs, g)], [fill], gid=gid)
    for part in _parts(flat, g):
        label_piece(canvas, piece.name, part, ox, oy, cs, fill, grid=g)
    _captions(canvas, plane, ox, oy, cs)
    owner = dict.fromkeys(flat, 0)
    return inner_edges(owner, ox, oy, cs, g), boundary_edges(owner, ox, oy, cs, g)


def label_piece(canvas: Canvas, name: str, cells, x0: float, y0: float, cs: float, fill: str, *,
                grid: Grid = SQUARE) -> None:
    """Write a piece's name inside it, as large as fits (at most 12 pt); ``cells`` of a 2-D grid, origin (x0, y0)."""
    cs_pt = cs * PT_PER_MM
    size = min(12.0, cs_pt * (0.6 if len(name) == 1 else 0.5))
    width_cells = text_width_mm(name, size, True) / cs
    if width_cells > 1.8:     # long names ("I2#2"): shrink to fit two cells
        size *= 1.8 / width_cells
        width_cells = 1.8
    height_cells = size / PT_PER_MM / cs * 0.8
    spot = label_point(cells, width_cells, height_cells, strict=True, grid=grid)
    for _ in range(4):    # fits nowhere (a long name in a one-cell-wide piece): smaller, down to 0.4 times
        if spot is not None:
            break
        size, width_cells, height_cells = size * 0.8, width_cells * 0.8, height_cells * 0.8
        spot = label_point(cells, width_cells, height_cells, strict=True, grid=grid)
    if spot is None:
        spot = label_point(cells, width_cells, height_cells, grid=grid)
    r, c = spot
    canvas.text(x0 + c * cs, y0 + r * cs, name, ha="center", va="center_baseline", fontsize=size,
                fontweight="bold", color=text_colour(fill))


def die_face(canvas: Canvas, x: float, y: float, s: float, face: int, *, fill: str = INK) -> None:
    """A die-like rounded square of side ``s`` mm with the face number, top-left corner at (x, y)."""
    canvas.rounded_box(x, y, s, s, s * 0.22, facecolor=fill, edgecolor="none")
    size = min(s * PT_PER_MM * 0.55, s * PT_PER_MM * 0.95 / (0.68 * len(str(face))))
    canvas.text(x + s / 2, y + s / 2, str(face), ha="center", va="center_baseline", fontsize=size,
                color="white", fontweight="bold")


def icon_scale(shapes: Sequence[Sequence[Cell]], names: Sequence[str], w: float, row_h: float, *,
               label_pt: float = ICON_LABEL_PT, gap: float = 3.0, largest: float = 3.6, grid: Grid = SQUARE,
               note: str = "") -> float:
    """Largest icon cell size (mm, at most ``largest``) that fits a row of icons and names into ``w`` x ``row_h``.

    ``shapes`` are the icons' cells (:func:`lying` rotations), ``names``
    the labels written after them, ``note`` the words after the row (:func:`draw_icon_row`).
    """
    label_w = sum(text_width_mm(n, label_pt) + 1.2 for n in names) + note_width(note, label_pt)
    gaps = gap * (len(names) - 1)
    cells_wide = sum(shape_size(s, grid)[1] for s in shapes)
    tall = max(shape_size(s, grid)[0] for s in shapes)
    return min((w - label_w - gaps - 1.0) / cells_wide, row_h * 0.72 / tall, largest)


class IconBatch:
    """Icon paths gathered over a table, filled and gridded at once by :meth:`draw` (one artist each)."""

    def __init__(self):
        self.paths: list = []
        self.colours: list = []
        self.lines: list = []
        self.frames: list = []

    def add(self, shape, x: float, y: float, cs: float, colour: str, grid: Grid = SQUARE) -> None:
        """An icon of ``shape`` (cells of ``grid``) with its box's top-left corner at (x, y) mm."""
        plane, ox, oy = _frame(shape, grid, x, y, cs)
        flat, g = plane.map(shape), plane.grid
        self.paths.append(cells_path(flat, ox, oy, cs, g))
        self.colours.append(colour)
        self.lines.extend(inner_edges(dict.fromkeys(flat, 0), ox, oy, cs, g))
        self.frames.extend(_frame_segments(plane, ox, oy, cs))

    def draw(self, canvas: Canvas) -> None:
        if self.paths:
            canvas.stroke(self.frames, FRAME_COLOUR, FRAME_LW, zorder=0.9)
            canvas.fill_cells(self.paths, self.colours)
            canvas.stroke(self.lines, "white", 0.5)


def note_width(note: str, label_pt: float = ICON_LABEL_PT) -> float:
    """The width (mm) a row's note takes after its last piece (:func:`draw_icon_row`; 0 without a note)."""
    return text_width_mm(note, label_pt) + 3.0 if note else 0.0


def draw_icon_row(canvas: Canvas, shapes, names: Sequence[str], colours: Mapping[str, str], x: float, y: float,
                  row_h: float, cs: float, icons: IconBatch, *, label_pt: float = ICON_LABEL_PT,
                  gap: float = 3.0, grid: Grid = SQUARE, labels: Sequence[str] | None = None, note: str = "") -> None:
    """Piece icons (cell size ``cs`` mm) each followed by its name (or its entry of ``labels``), in one table
    row of height ``row_h``; then ``note`` (about the whole task, e.g. the cells that may stay empty) in grey."""
    labels = list(names if labels is None else labels)
    label_w = [text_width_mm(n, label_pt) + 1.2 for n in labels]
    cx = x
    for name, label, shape, lw_ in zip(names, labels, shapes, label_w):
        sh, sw = shape_size(shape, grid)
        iy = y + (row_h - sh * cs) / 2
        icons.add(shape, cx, iy, cs, colour_of(name, colours), grid)
        cx += sw * cs + 1.0
        canvas.text(cx, y + row_h / 2, label, fontsize=label_pt, color=INK, va="center_baseline")
        cx += lw_ + gap - 1.0
    if note:
        canvas.text(cx - gap + 3.0, y + row_h / 2, note, fontsize=label_pt, color=MUTED, va="center_baseline",
                    style="italic")


def draw_piece_icons(canvas: Canvas, pieces: Sequence, colours: Mapping[str, str], x: float, y: float, w: float,
                     h: float, *, label_pt: float = 7.5, largest: float = 2.4) -> float:
    """A strip of piece icons with their names below, evenly spaced in the box ``(x, y, w, h)`` mm.

    ``pieces`` are :class:`~ubongo_cp.pieces.Piece` objects (drawn lying).
    Returns the cell size used (mm).
    """
    shapes = [lying(p.cells, p.grid) for p in pieces]
    sizes = [shape_size(s, p.grid) for s, p in zip(shapes, pieces)]
    slot = w / max(len(pieces), 1)
    cs = min(min((slot - 2.0) / sw for _, sw in sizes), (h - 4.0) / max(sh for sh, _ in sizes), largest)
    icons = IconBatch()
    for i, (piece, shape, (sh, sw)) in enumerate(zip(pieces, shapes, sizes)):
        icons.add(shape, x + i * slot + (slot - sw * cs) / 2, y + (h - 4.0 - sh * cs) / 2, cs,
                  colours[piece.name], piece.grid)
        canvas.text(x + i * slot + slot / 2, y + h, piece.name, ha="center", va="baseline", fontsize=label_pt,
                    color=INK)
    icons.draw(canvas)
    return cs
