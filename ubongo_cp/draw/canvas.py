"""A drawing surface in millimetres (the page object) and the colour and outline primitives.

Every picture of the toolkit (booklet pages, playtest cards, ``solve --draw``,
the notebook pictures) is drawn on a :class:`Canvas`: a plain
:class:`matplotlib.figure.Figure` on the non-interactive Agg canvas (pyplot
is never used: nothing is registered globally and a figure's memory is freed
once it is dropped) with one axes spanning the figure whose data coordinates
are millimetres, x to the right and y downwards. Geometry is in mm, font sizes
in points.

Cells are ``(row, col)``, row 0 at the top; a cell drawn at cell size ``cs``
(mm) with the grid's top-left corner at ``(x0, y0)`` spans
``[x0 + col * cs, x0 + (col + 1) * cs] x [y0 + row * cs, y0 + (row + 1) * cs]``.
"""

from __future__ import annotations

import math
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

from ..geometry import Cell, orientations

__all__ = ["Canvas", "PALETTE", "piece_colours", "colour_of", "text_colour", "cells_path", "inner_edges",
           "boundary_edges", "lying", "icon_shape", "shape_size", "base_name", "label_point", "text_width_mm", "MM_PER_INCH",
           "PT_PER_MM", "INK", "MUTED"]

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
        """``ax.text`` at ``(x, y)`` mm; returns the Text artist."""
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


def cells_path(cells: Iterable[Cell], x0: float, y0: float, cs: float) -> Path:
    """One compound path, a square sub-path per cell (filled with the non-zero rule: their union).

    Parameters
    ----------
    cells : iterable of (row, col)
    x0, y0 : float
        Top-left corner of cell (0, 0), mm.
    cs : float
        Cell size, mm.

    Returns
    -------
    matplotlib.path.Path
        5 vertices per cell (the square, closed), in mm.
    """
    cells = np.asarray(list(cells), dtype=float).reshape(-1, 2)
    corners = np.array([[0, 0], [0, 1], [1, 1], [1, 0], [0, 0]], dtype=float)
    xy = np.empty((len(cells), 5, 2))
    xy[:, :, 0] = x0 + (cells[:, None, 1] + corners[None, :, 1]) * cs
    xy[:, :, 1] = y0 + (cells[:, None, 0] + corners[None, :, 0]) * cs
    codes = np.tile([Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY], len(cells))
    return Path(xy.reshape(-1, 2), codes)


def inner_edges(owner: Mapping[Cell, object], x0: float, y0: float, cs: float) -> list:
    """Segments between edge-adjacent cells with the same owner (the cell grid inside a piece)."""
    segments = []
    for (r, c), who in owner.items():
        x, y = x0 + c * cs, y0 + r * cs
        if owner.get((r + 1, c), inner_edges) == who:
            segments.append(((x, y + cs), (x + cs, y + cs)))
        if owner.get((r, c + 1), inner_edges) == who:
            segments.append(((x + cs, y), (x + cs, y + cs)))
    return segments


def boundary_edges(owner: Mapping[Cell, object], x0: float, y0: float, cs: float) -> list:
    """Segments between cells of different owners and around the outside."""
    segments = []
    for (r, c), who in owner.items():
        x, y = x0 + c * cs, y0 + r * cs
        for (dr, dc), seg in (((-1, 0), ((x, y), (x + cs, y))), ((1, 0), ((x, y + cs), (x + cs, y + cs))),
                              ((0, -1), ((x, y), (x, y + cs))), ((0, 1), ((x + cs, y), (x + cs, y + cs)))):
            other = owner.get((r + dr, c + dc), boundary_edges)
            if other is boundary_edges or (other != who and (dr, dc) in ((1, 0), (0, 1))):
                segments.append(seg)
    return segments


def lying(cells) -> tuple[Cell, ...]:
    """The first rotation of a piece that is at least as wide as tall (for icons).

    Examples
    --------
    >>> lying(((0, 0), (1, 0), (2, 0)))
    ((0, 0), (0, 1), (0, 2))
    """
    for shape in orientations(cells, "one-sided"):
        if 1 + max(c for _, c in shape) >= 1 + max(r for r, _ in shape):
            return shape
    return tuple(cells)


def icon_shape(cells, orientations: str = "free") -> tuple[Cell, ...]:
    """How a piece is drawn in a task's icon row: turned to lie (:func:`lying`) when the task lets it turn
    (``"free"`` or ``"one-sided"`` orientations, rule UP-3), else (``"fixed"``) exactly as written.

    Examples
    --------
    >>> icon_shape(((0, 0), (1, 0), (2, 0))), icon_shape(((0, 0), (1, 0), (2, 0)), "fixed")
    (((0, 0), (0, 1), (0, 2)), ((0, 0), (1, 0), (2, 0)))
    """
    return tuple(cells) if orientations == "fixed" else lying(cells)


def shape_size(cells) -> tuple[int, int]:
    """(height, width) of a shape's bounding box in cells."""
    return 1 + max(r for r, _ in cells), 1 + max(c for _, c in cells)


def label_point(cells: Sequence[Cell], w: float, h: float, *, strict: bool = False) -> tuple[float, float] | None:
    """Where to centre a ``w`` x ``h`` (cells) label inside a piece: nearest to its centroid.

    Candidates are cell centres, midpoints of adjacent cells and centres of
    2 x 2 blocks (so labels sit on the cell grid); a candidate fits when the
    label's corners and centre lie in the piece.
    Returns (row, col) coordinates in cells (cell (r, c) spans [r, r+1]);
    when no candidate fits, the nearest candidate, or None if ``strict``.

    Examples
    --------
    >>> label_point([(0, 0), (0, 1), (1, 0), (1, 1)], 1.0, 0.5)
    (1.0, 1.0)
    """
    cellset = set(cells)
    cy = sum(r + 0.5 for r, _ in cells) / len(cells)
    cx = sum(c + 0.5 for _, c in cells) / len(cells)
    candidates = [(r + 0.5, c + 0.5) for r, c in cells]
    candidates += [(r + 1.0, c + 1.0) for r, c in cells
                   if {(r + 1, c), (r, c + 1), (r + 1, c + 1)} <= cellset]
    candidates += [(r + 1.0, c + 0.5) for r, c in cells if (r + 1, c) in cellset]
    candidates += [(r + 0.5, c + 1.0) for r, c in cells if (r, c + 1) in cellset]

    def fits(y: float, x: float) -> bool:
        pts = [(y, x)] + [(y + sy * h / 2, x + sx * w / 2) for sy in (-0.98, 0.98) for sx in (-0.98, 0.98)]
        return all((math.floor(py), math.floor(px)) in cellset for py, px in pts)

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
