"""A drawing surface in millimetres (the page object) and the colour and outline primitives.

Every picture of the toolkit (booklet pages, playtest cards, ``solve --draw``,
the notebook pictures) is drawn on a :class:`Canvas`: a plain
:class:`matplotlib.figure.Figure` on the non-interactive Agg canvas (pyplot
is never used: nothing is registered globally and a figure's memory is freed
once it is dropped) with one axes spanning the figure whose data coordinates
are millimetres, x to the right and y downwards. Geometry is in mm, font sizes
in points.

Cells are drawn as their grid's polygons (:meth:`ubongo_cp.grids.Grid.polygons`:
squares, hexagons 1 cell wide, triangles of side 1, in cell units, y
downwards) scaled by the cell size ``cs`` (mm) about an origin ``(x0, y0)``:
on squares the cell ``(row, col)`` spans
``[x0 + col * cs, x0 + (col + 1) * cs] x [y0 + row * cs, y0 + (row + 1) * cs]``.
The primitives here take cells of a 2-D grid; a cube picture is first laid
out in the plane (:meth:`ubongo_cp.grids.Grid.plane`, :func:`plane_box`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterable, Mapping, Sequence

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PatchCollection, PathCollection
from matplotlib.colors import to_hex, to_rgb
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import FancyBboxPatch
from matplotlib.path import Path
from matplotlib.textpath import TextToPath

from ..geometry import Cell
from ..grids import SQUARE, Grid

__all__ = ["Canvas", "PALETTE", "piece_colours", "colour_of", "text_colour", "cells_path", "inner_edges",
           "boundary_edges", "lying", "icon_shape", "shape_size", "plane_box", "base_name", "label_point",
           "text_width_mm", "MM_PER_INCH", "PT_PER_MM", "INK", "MUTED", "CAPTION_CELLS"]

#: Millimetres per inch.
MM_PER_INCH = 25.4
#: Points (1/72 inch) per millimetre.
PT_PER_MM = 72.0 / MM_PER_INCH
#: Colour of outlines and text.
INK = "#222222"
#: Colour of secondary text (captions, scale marks).
MUTED = "#666666"

#: Piece colours, in the order pieces are listed in their piece-set file.
#: The first seven are Okabe & Ito's colour-blind-safe set [1] (``okabe_ito``
#: in matplotlib, without black). The other 17 were picked greedily from the
#: qualitative sequences shipped with matplotlib (Petroff's accessible
#: ``petroff6/8/10`` [2], ``tab10``, ColorBrewer ``Set1-3``/``Paired``/...)
#: and Paul Tol's schemes [3]: each step takes the candidate farthest from
#: those already chosen, by CIEDE2000 colour difference (the minimum of the
#: difference for normal vision and 1.5 times the difference under
#: deuteranopia or protanopia, simulated after Machado et al. [4]).
#: Candidates with lightness L* outside 40..92 or chroma below 20 were
#: excluded (labels must stay readable, pieces must look coloured). The
#: smallest difference to an earlier colour falls from 54 (2nd colour) to 16
#: (12th, the classic set) and 10 (21st, the Duel set): beyond a dozen colours
#: no palette is distinct for everyone, hence the outlines and labels.
#:
#: References: [1] M. Okabe and K. Ito, "Color Universal Design" (2008),
#: https://jfly.uni-koeln.de/color/. [2] M. A. Petroff, "Accessible Color
#: Sequences for Data Visualization", arXiv:2107.02270 (2021). [3] P. Tol,
#: "Colour Schemes", SRON/EPS/TN/09-002 (2021). [4] G. M. Machado, M. M.
#: Oliveira and L. A. F. Fernandes, "A Physiologically-based Model for
#: Simulation of Color Vision Deficiency", IEEE TVCG 15(6) (2009).
PALETTE: tuple[str, ...] = (
    "#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7",   # Okabe-Ito
    "#ccebc5", "#fccde5", "#aa3377", "#8c564b", "#bd1f01", "#ee6677", "#578dff",
    "#fdc086", "#66c2a5", "#1845fb", "#fc8d62", "#ffaabb", "#cab2d6", "#99ddff",
    "#a96b59", "#e7298a", "#2ca02c",
)


class Canvas:
    """A figure of ``width_mm`` x ``height_mm`` whose axes' data coordinates are mm, y downwards.

    Patches (panel frames, chips, die faces) are gathered in two lists and
    added as two :class:`~matplotlib.collections.PatchCollection` objects by
    :meth:`finish` (far cheaper than one artist each): ``background``
    (drawn below the pieces, zorder 0.5) and ``patches`` (zorder 1.5).

    Parameters
    ----------
    width_mm, height_mm : float
        The figure's size in millimetres (A4 portrait is 210 x 297).

    Attributes
    ----------
    fig : matplotlib.figure.Figure
    ax : matplotlib.axes.Axes
        Spans the figure; x in [0, width_mm], y in [0, height_mm] downwards.

    Examples
    --------
    >>> canvas = Canvas(40, 20)
    >>> [float(v) for v in (*canvas.ax.get_xlim(), *canvas.ax.get_ylim())]
    [0.0, 40.0, 20.0, 0.0]
    """

    def __init__(self, width_mm: float, height_mm: float):
        self.width, self.height = float(width_mm), float(height_mm)
        self.fig = Figure(figsize=(width_mm / MM_PER_INCH, height_mm / MM_PER_INCH))
        FigureCanvasAgg(self.fig)    # non-interactive canvas
        ax = self.fig.add_axes((0, 0, 1, 1))
        ax.set_xlim(0, width_mm)
        ax.set_ylim(height_mm, 0)
        ax.set_axis_off()
        ax.set_autoscale_on(False)
        self.ax = ax
        self.background: list = []
        self.patches: list = []

    def text(self, x: float, y: float, s: str, **kwargs):
        """``ax.text`` at ``(x, y)`` mm, drawn as written (no ``$...$`` mathtext: a piece or card named ``$x$``
        is drawn so); returns the Text artist."""
        kwargs.setdefault("parse_math", False)
        return self.ax.text(x, y, s, **kwargs)

    def line(self, xs, ys, **kwargs) -> None:
        """A polyline through the points ``(xs[i], ys[i])`` (mm)."""
        self.ax.plot(xs, ys, **kwargs)

    def add(self, collection, *, gid: str | None = None):
        """Add a collection (paths in mm) without touching the axis limits."""
        if gid is not None:
            collection.set_gid(gid)
        self.ax.add_collection(collection, autolim=False)
        return collection

    def fill_cells(self, paths: Sequence[Path], colours, *, gid: str | None = None, **kwargs):
        """Fill compound cell paths (from :func:`cells_path`), one colour each."""
        return self.add(PathCollection(list(paths), facecolors=colours, edgecolors="none", **kwargs), gid=gid)

    def stroke(self, segments: Sequence, colour, lw: float, *, zorder: float = 2.0) -> None:
        """Draw segments ``((x0, y0), (x1, y1))`` as one path (one artist) with square caps."""
        if segments:
            xy = np.asarray(segments, dtype=float).reshape(-1, 2)
            path = Path(xy, np.tile([Path.MOVETO, Path.LINETO], len(segments)))
            self.add(PathCollection([path], facecolors="none", edgecolors=[colour], linewidths=lw,
                                    capstyle="projecting", zorder=zorder))

    def rounded_box(self, x: float, y: float, w: float, h: float, radius: float, *, background: bool = False,
                    **kwargs) -> None:
        """A rounded rectangle (top-left corner at ``(x, y)``) gathered for :meth:`finish`."""
        patch = FancyBboxPatch((x, y), w, h, boxstyle=f"round,pad=0,rounding_size={radius}", **kwargs)
        (self.background if background else self.patches).append(patch)

    def finish(self) -> Figure:
        """Add the gathered patches and return the figure."""
        self.add(PatchCollection(self.background, match_original=True, zorder=0.5))
        self.add(PatchCollection(self.patches, match_original=True, zorder=1.5))
        self.background, self.patches = [], []
        return self.fig


def piece_colours(names: Iterable[str]) -> dict[str, str]:
    """The colour (hex) of each piece of a piece set.

    Parameters
    ----------
    names : iterable of str
        The piece set's names in file order (``PieceSet.names``); piece ``i``
        gets ``PALETTE[i]`` (cycling after 24 pieces).

    Returns
    -------
    dict of str -> str

    Examples
    --------
    >>> piece_colours(["I2", "I3", "L3"])
    {'I2': '#e69f00', 'I3': '#56b4e9', 'L3': '#009e73'}
    """
    return {name: PALETTE[i % len(PALETTE)] for i, name in enumerate(names)}


def base_name(name: str) -> str:
    """The piece name of a copy's key: ``"I2#2"`` -> ``"I2"`` (see :meth:`ExactCoverInstance.solution_dict`)."""
    return name.split("#")[0]


def colour_of(name: str, colours: Mapping[str, str]) -> str:
    """A piece's colour; further copies (``"X#2"``, ``"X#3"``, ...) get shades of it, each copy its own.

    Copy 2 is 35 % darker, copy 3 45 % lighter (mixed with white), copy 4
    60 % darker, copy 5 70 % lighter, then the cycle repeats.

    Examples
    --------
    >>> [colour_of(n, {"I2": "#e69f00"}) for n in ("I2", "I2#2", "I2#3")]
    ['#e69f00', '#966700', '#f1ca73']
    """
    base = colours.get(base_name(name), "#bbbbbb")
    if "#" not in name:
        return base
    try:
        copy = int(name.rsplit("#", 1)[1])
    except ValueError:
        copy = 2
    k, lighter = _COPY_SHADES[(copy - 2) % len(_COPY_SHADES)]
    rgb = to_rgb(base)
    r, g, b = (v + (1 - v) * k if lighter else v * (1 - k) for v in rgb)
    return to_hex((r, g, b))


#: (amount, lighter?) of the shades of copies 2, 3, 4, 5 of a piece.
_COPY_SHADES = ((0.35, False), (0.45, True), (0.6, False), (0.7, True))


def text_colour(fill: str) -> str:
    """Black or white, whichever contrasts more with ``fill`` (WCAG 2 relative luminance)."""
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in to_rgb(fill)]
    lum = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    return "black" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "white"


def cells_path(cells: Iterable[Cell], x0: float, y0: float, cs: float, grid: Grid = SQUARE) -> Path:
    """One compound path, a polygon sub-path per cell (filled with the non-zero rule: their union).

    Parameters
    ----------
    cells : iterable of cells of a 2-D grid
    x0, y0 : float
        The origin of the grid's polygons, mm (on squares the top-left corner of cell (0, 0)).
    cs : float
        Cell size, mm.
    grid : Grid
        A grid with polygons (default square).

    Returns
    -------
    matplotlib.path.Path
        ``corners + 1`` vertices per cell (the polygon, closed: 5 for a square), in mm.
    """
    polys = grid.polygons(list(cells))
    n, k = polys.shape[:2]
    xy = np.empty((n, k + 1, 2))
    xy[:, :k] = polys * cs + (x0, y0)
    xy[:, k] = xy[:, 0]
    codes = np.tile([Path.MOVETO] + [Path.LINETO] * (k - 1) + [Path.CLOSEPOLY], n)
    return Path(xy.reshape(-1, 2), codes)


def inner_edges(owner: Mapping[Cell, object], x0: float, y0: float, cs: float, grid: Grid = SQUARE) -> list:
    """Segments between edge-adjacent cells with the same owner (the cell grid inside a piece)."""
    return grid.segments(owner, x0, y0, cs, inner=True)


def boundary_edges(owner: Mapping[Cell, object], x0: float, y0: float, cs: float, grid: Grid = SQUARE) -> list:
    """Segments between cells of different owners and around the outside."""
    return grid.segments(owner, x0, y0, cs, inner=False)


#: Height of the captions under a picture's parts (a cube's layers), in cells.
CAPTION_CELLS = 0.7

#: The captions' font size per point of the cell size, and at most (pt): less when the widest caption would
#: not fit between its neighbours (:func:`caption_fit`).
CAPTION_SCALE, CAPTION_PT = 0.45, 8.0

#: Room left between two neighbouring captions, in cells.
_CAPTION_GAP = 0.2


def caption_fit(captions) -> tuple[float, float]:
    """How a picture's captions (:attr:`~ubongo_cp.grids.Plane.captions`) are set: their font size per point of
    the cell size, and the widest caption's width at that size, in cells (an upper bound, the font being at most
    :data:`CAPTION_PT`). The size is :data:`CAPTION_SCALE`, or less so that the widest caption fits between its
    neighbours' centres less a gap (on a cube's narrow layers, one cell apart, ``layer 1 (bottom)`` is wider
    than its layer and the gap).

    Examples
    --------
    >>> caption_fit([])
    (0.45, 0.0)
    >>> scale, width = caption_fit([(1.0, 2.0, "layer 1 (bottom)"), (4.0, 2.0, "layer 2"), (7.0, 2.0, "layer 3")])
    >>> scale < 0.45, round(width, 2)
    (True, 2.8)
    """
    centres = sorted(x for x, _, _ in captions)
    apart = min((b - a for a, b in zip(centres, centres[1:])), default=float("inf"))
    return _caption_fit(tuple(text for _, _, text in captions), apart)


@lru_cache(maxsize=1024)
def _caption_fit(texts: tuple[str, ...], apart: float) -> tuple[float, float]:
    if not texts:
        return CAPTION_SCALE, 0.0
    widest = max(text_width_mm(text, CAPTION_SCALE * PT_PER_MM) for text in texts)  # cells, at CAPTION_SCALE
    shrink = min(1.0, (apart - _CAPTION_GAP) / widest)
    return CAPTION_SCALE * shrink, widest * shrink


def plane_box(cells: Iterable[Cell], grid: Grid = SQUARE) -> tuple[float, float, float, float]:
    """``(x_min, y_min, width, height)`` of the picture of ``cells`` in the plane, in cell units.

    On squares in normal position ``(0, 0, cols, rows)``; a cube's layers lie
    side by side, each in its frame, with their captions below (:data:`CAPTION_CELLS`), the box as wide as the
    captions too (:func:`caption_fit`).

    Examples
    --------
    >>> plane_box([(0, 0), (1, 0), (1, 1)])
    (0.0, 0.0, 2.0, 2.0)
    """
    return _plane_box(tuple(tuple(c) for c in cells), grid)


@lru_cache(maxsize=4096)
def _plane_box(cells: tuple, grid: Grid) -> tuple[float, float, float, float]:
    plane = grid.plane(cells)
    polys = plane.grid.polygons(plane.map(cells))
    lo, hi = polys.min(axis=(0, 1)), polys.max(axis=(0, 1))
    for x, y, w, h in plane.frames:     # a layer's frame may reach beyond its cells
        lo, hi = np.minimum(lo, (x, y)), np.maximum(hi, (x + w, y + h))
    _, width = caption_fit(plane.captions)
    for x, _, _ in plane.captions:      # a caption may be wider than its layer
        lo[0], hi[0] = min(lo[0], x - width / 2), max(hi[0], x + width / 2)
    extra = CAPTION_CELLS if plane.captions else 0.0
    return float(lo[0]), float(lo[1]), float(hi[0] - lo[0]), float(hi[1] - lo[1]) + extra


def lying(cells, grid: Grid = SQUARE) -> tuple[Cell, ...]:
    """The first rotation of a piece that lies flattest and is at least as wide as tall (for icons).

    Flattest: in the fewest layers (cubes; a 2-D piece lies in one).

    Examples
    --------
    >>> lying(((0, 0), (1, 0), (2, 0)))
    ((0, 0), (0, 1), (0, 2))
    """
    return _lying(tuple(tuple(c) for c in cells), grid)


@lru_cache(maxsize=4096)
def _lying(cells: tuple, grid: Grid) -> tuple[Cell, ...]:
    rotations = [grid.transform(cells, k) for k in range(grid.n_rotations)]
    depth = [grid.text_size(s)[0] if grid.dim == 3 else 1 for s in rotations]
    for shape, layers in zip(rotations, depth):
        if layers == min(depth):
            _, _, w, h = plane_box(shape, grid)
            if w >= h:
                return shape
    return cells


def icon_shape(cells, orientations: str = "free", grid: Grid = SQUARE) -> tuple[Cell, ...]:
    """How a piece is drawn in a task's icon row: turned to lie (:func:`lying`) when the task lets it turn
    (``"free"``, ``"one-sided"`` or ``"mirror"`` orientations, rule UP-3), else (``"fixed"``) exactly as written.

    Examples
    --------
    >>> icon_shape(((0, 0), (1, 0), (2, 0))), icon_shape(((0, 0), (1, 0), (2, 0)), "fixed")
    (((0, 0), (0, 1), (0, 2)), ((0, 0), (1, 0), (2, 0)))
    """
    return tuple(tuple(c) for c in cells) if orientations == "fixed" else lying(cells, grid)


def shape_size(cells, grid: Grid = SQUARE) -> tuple[float, float]:
    """(height, width) of a shape's picture in cell units (of its bounding box, on squares)."""
    _, _, w, h = plane_box(cells, grid)
    return h, w


def label_point(cells: Sequence[Cell], w: float, h: float, *, strict: bool = False,
                grid: Grid = SQUARE) -> tuple[float, float] | None:
    """Where to centre a ``w`` x ``h`` (cells) label inside a piece: nearest to its centroid.

    Candidates are cell centres, midpoints of shared edges and inner corners
    (the centres of 2 x 2 blocks on squares; :meth:`Grid.label_candidates`),
    so labels sit on the cell grid; a candidate fits when the label's corners
    and centre lie in the piece. Returns (y, x) coordinates in cell units
    (on squares (row, col): cell (r, c) spans [r, r+1]); when no candidate
    fits, the nearest candidate, or None if ``strict``.

    Examples
    --------
    >>> label_point([(0, 0), (0, 1), (1, 0), (1, 1)], 1.0, 0.5)
    (1.0, 1.0)
    """
    cells = [tuple(c) for c in cells]
    cellset = set(cells)
    centres = grid.polygons(cells).mean(axis=1)
    cx, cy = (float(v) for v in centres.mean(axis=0))
    candidates = [(y, x) for x, y in grid.label_candidates(cells)]

    def fits(y: float, x: float) -> bool:
        pts = [(y, x)] + [(y + sy * h / 2, x + sx * w / 2) for sy in (-0.98, 0.98) for sx in (-0.98, 0.98)]
        return all(grid.locate(px, py) in cellset for py, px in pts)

    candidates.sort(key=lambda p: ((p[0] - cy) ** 2 + (p[1] - cx) ** 2, p))
    return next((p for p in candidates if fits(*p)), None) if strict else \
        next((p for p in candidates if fits(*p)), candidates[0])


@lru_cache(maxsize=4096)
def text_width_mm(text: str, size_pt: float, bold: bool = False) -> float:
    """Width of ``text`` set in the default font at ``size_pt`` points, in mm (matplotlib's text layout)."""
    prop = FontProperties(size=size_pt, weight="bold" if bold else "normal")
    width, _, _ = _TEXT_TO_PATH.get_text_width_height_descent(text, prop, ismath=False)
    return width / PT_PER_MM


_TEXT_TO_PATH = TextToPath()
