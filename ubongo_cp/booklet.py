"""Printable solution booklets: one A4 page per card side, drawn with matplotlib.

Each page shows a card side (rule UP-1): a title (game, card id, side, pieces
per task, region area), the region drawn large, the task table (die face ->
pieces, with small piece icons where they fit, plus the solution count and
difficulty when known) and every task's solution as a small grid with one
colour per piece and the piece's name written on it. Unsolvable tasks are
drawn as a hatched, greyed region marked "no solution".

Layout: everything is drawn in one axes spanning the page whose data
coordinates are millimetres (x to the right, y downwards, A4 = 210 x 297 mm),
so all geometry below is in mm and font sizes are in points. Card sides with
up to 8 tasks (classic, faces 1-6) get a 3-column grid of large solutions and
piece icons in the task table; larger sides (Duel, faces 1-20) get a
5-column grid, a two-block task table of coloured name chips and a strip of
piece icons (the "piece key").

Colours: one fixed palette entry per piece, keyed by the piece's position in
its piece set (so a piece has the same colour on every page of a deck; see
:func:`piece_colours`). Since no palette of 12-21 colours is distinct for
every reader, pieces are also separated by thick outlines and labelled by
name, so colour is never the only cue.

Rendering: figures are plain :class:`matplotlib.figure.Figure` objects on
the non-interactive Agg canvas (PNG) and written to PDF with
:class:`~matplotlib.backends.backend_pdf.PdfPages`; pyplot is never used, so
nothing is registered globally, the process's backend is left alone and a
page's memory is freed once it is written.

Cells are ``(row, col)``, row 0 at the top.
"""

from __future__ import annotations

import json
import math
import os
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path as FilePath
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.collections import PatchCollection, PathCollection
from matplotlib.colors import to_hex, to_rgb
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.patches import FancyBboxPatch, Rectangle
from matplotlib.path import Path
from matplotlib.textpath import TextToPath

from .cards import CardSide, task_hash
from .cover import verify_solution
from .errors import InputError
from .geometry import Cell, orientations
from .io import atomic_path
from .solvers import NO_SOLUTION, SOLVED, UNKNOWN, solve

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["make_booklet", "render_page", "task_views", "piece_colours", "TaskView", "PALETTE",
           "PAGE_MM", "page_png_name"]

#: Page size (width, height) in mm: ISO 216 A4 portrait.
PAGE_MM = (210.0, 297.0)
_MM_PER_INCH = 25.4
_PT_PER_MM = 72.0 / 25.4

#: Piece colours, in the order pieces are listed in their piece-set file.
#: The first seven are Okabe & Ito's colour-blind-safe set [1]_ (``okabe_ito``
#: in matplotlib, without black). The other 17 were picked greedily from the
#: qualitative sequences shipped with matplotlib (Petroff's accessible
#: ``petroff6/8/10`` [2]_, ``tab10``, ColorBrewer ``Set1-3``/``Paired``/...)
#: and Paul Tol's schemes [3]_: each step takes the candidate farthest from
#: those already chosen, by CIEDE2000 colour difference (the minimum of the
#: difference for normal vision and 1.5 times the difference under
#: deuteranopia or protanopia, simulated after Machado et al. [4]_).
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

_GAME_TITLES = {"classic": "Ubongo", "duel": "Ubongo Duel"}
_INK = "#222222"
_MUTED = "#666666"
_REGION_FILL = "#efe6cf"     # card-board beige
_RULE = "#bbbbbb"
_NO_SOLUTION = "#c0392b"
_UNKNOWN = "#b9770e"


@dataclass(frozen=True)
class TaskView:
    """What a page shows about one task (one die face of a card side).

    Attributes
    ----------
    face : int
        Die face.
    pieces : tuple of str
        Piece names of the task.
    status : str
        ``"solved"``, ``"no solution"`` or ``"unknown"`` (time limit reached).
    solution : dict of str -> list of (row, col), or None
        One solution (piece name -> covered cells; a second copy of a piece
        is named ``"name#2"``), or None when not solved.
    count : int or None
        Number of solutions, when known.
    count_is_lower_bound : bool
        True when ``count`` is only a lower bound (the search was cut off).
    difficulty : float or None
        Difficulty score from the batch runner, when known.
    """

    face: int
    pieces: tuple[str, ...]
    status: str
    solution: dict[str, list[Cell]] | None
    count: int | None = None
    count_is_lower_bound: bool = False
    difficulty: float | None = None


def make_booklet(cards: Sequence[CardSide], out_pdf: str | os.PathLike, *,
                 png_dir: str | os.PathLike | None = None, results: "pd.DataFrame | None" = None,
                 dpi: int = 110, time_limit: float | None = 10.0) -> int:
    """Write a PDF solution booklet, one A4 page per card side.

    Parameters
    ----------
    cards : sequence of CardSide
        The card sides, one page each, in this order.
    out_pdf : path
        The PDF to write (atomically: a temporary file renamed on success).
    png_dir : path, optional
        Directory for one PNG per page, named by :func:`page_png_name`
        (``{game}_{card_id}_{side}.png``), A4 at ``dpi``.
    results : pandas.DataFrame, optional
        The batch runner's task table with columns ``card_id, side, face,
        count, difficulty, solution`` (``solution`` a JSON string
        ``{"piece": [[row, col], ...]}``, empty or NaN when unsolved) and
        optionally ``status``. Used where it has a valid solution for a task
        (checked with :func:`ubongo_cp.cover.verify_solution`); other tasks are
        solved here (see :func:`task_views`).
    dpi : int
        Resolution of the PNGs (dots per inch); the PDF is vector graphics.
    time_limit : float, optional
        Seconds per task solved here (CP-SAT); None for no limit.

    Returns
    -------
    int
        Number of pages written (= ``len(cards)``).

    Raises
    ------
    InputError
        When ``cards`` is empty or ``dpi`` is not positive.

    Notes
    -----
    Cost: one CP-SAT call per task not covered by ``results`` (typically a
    few ms to tens of ms each), plus about 0.1-0.3 s of drawing per page.
    """
    cards = list(cards)
    if not cards:
        raise InputError("no card sides to put in the booklet")
    if dpi <= 0:
        raise InputError(f"dpi must be positive, got {dpi}")
    table = _results_index(results)
    png_path = None if png_dir is None else FilePath(png_dir)
    if png_path is not None:
        png_path.mkdir(parents=True, exist_ok=True)
    with atomic_path(out_pdf, suffix=".pdf") as tmp:
        with PdfPages(tmp, metadata={"Title": "Ubongo solution booklet", "Creator": "ubongo-cp"}) as pdf:
            for number, card in enumerate(cards, 1):
                views = task_views(card, table, time_limit=time_limit)
                fig = render_page(card, views, page=number, pages=len(cards))
                pdf.savefig(fig)
                if png_path is not None:
                    with atomic_path(png_path / page_png_name(card), suffix=".png") as png_tmp:
                        fig.savefig(png_tmp, dpi=dpi, format="png")
                fig.clear()
    return len(cards)


def page_png_name(card: CardSide) -> str:
    """File name of a card side's page PNG: ``f"{game}_{card_id}_{side}.png"``."""
    return f"{card.game}_{card.card_id}_{card.side}.png"


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


def task_views(card: CardSide, results: "pd.DataFrame | Mapping | None" = None, *,
               time_limit: float | None = 10.0) -> list[TaskView]:
    """One :class:`TaskView` per task of ``card``, in face order.

    A task's solution, count and difficulty come from ``results`` (a batch
    runner DataFrame, see :func:`make_booklet`) when it has a row for the task
    whose solution passes :func:`~ubongo_cp.cover.verify_solution` (rules
    UP-2, UP-3). A row without solution whose status is ``"no solution"``
    (or, lacking a status column, whose count is 0) is shown as unsolvable.
    Every other task is solved here with CP-SAT (``limit=1``). A row whose
    ``task_hash`` differs from the task's (results of another deck) is
    ignored altogether, its difficulty and count included.

    Raises
    ------
    InputError
        For a malformed ``results`` table (missing columns).
    """
    index = results if isinstance(results, dict) else _results_index(results)
    views = []
    for face, names in card.tasks.items():
        row = index.get((_norm_id(card.card_id), str(card.side), int(face)))
        if row is not None and isinstance(row.get("task_hash"), str) and row["task_hash"] != task_hash(card, face):
            row = None  # a row of another deck's card with this id: not this task's
        views.append(_view_from_row(card, face, names, row) if row is not None else None)
        if views[-1] is None:
            views[-1] = _solve_view(card, face, names, row, time_limit)
    return views


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
        From :func:`task_views`, one per task.
    page, pages : int, optional
        Page number and page count for the footer.
    """
    fig = Figure(figsize=(PAGE_MM[0] / _MM_PER_INCH, PAGE_MM[1] / _MM_PER_INCH))
    FigureCanvasAgg(fig)    # non-interactive canvas
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, PAGE_MM[0])
    ax.set_ylim(PAGE_MM[1], 0)
    ax.set_axis_off()
    ax.set_autoscale_on(False)
    colours = piece_colours(card.piece_set.names)
    layout = _Layout(len(views))
    # Patches are gathered and added as two PatchCollections: far cheaper than one artist each.
    background, patches = [], []
    tokens = _BACKGROUND.set(background), _PATCHES.set(patches)
    try:
        _draw_title(ax, card, views)
        _draw_region_box(ax, card, layout)
        _draw_task_table(ax, card, views, colours, layout)
        if layout.key_box is not None:
            _draw_piece_key(ax, card, views, colours, layout.key_box)
        _draw_solutions(ax, card, views, colours, layout)
        _draw_footer(ax, card, page, pages)
    finally:
        _BACKGROUND.reset(tokens[0])
        _PATCHES.reset(tokens[1])
    ax.add_collection(PatchCollection(background, match_original=True, zorder=0.5), autolim=False)
    ax.add_collection(PatchCollection(patches, match_original=True, zorder=1.5), autolim=False)
    return fig


#: Patches of the page being drawn (background first, then the rest).
_BACKGROUND: ContextVar[list] = ContextVar("_BACKGROUND")
_PATCHES: ContextVar[list] = ContextVar("_PATCHES")


# --------------------------------------------------------------------------- results and solving

def _norm_id(value) -> str:
    """Card ids compare as strings; ids a CSV reader turned into numbers match their text form."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip()
    return str(int(text)) if text.isdigit() else text


def _results_index(results) -> dict:
    """``(card_id, side, face) -> row dict`` of a results DataFrame (empty for None)."""
    if results is None:
        return {}
    missing = {"card_id", "side", "face"} - set(results.columns)
    if missing:
        raise InputError(f"results table lacks column(s) {', '.join(sorted(missing))}")
    index = {}
    for row in results.to_dict("records"):
        try:
            face = int(row["face"])
        except (TypeError, ValueError):
            continue
        index[(_norm_id(row["card_id"]), str(row["side"]), face)] = row
    return index


def _is_missing(value) -> bool:
    """None, NaN, pandas' NA (nullable dtypes) or a blank string."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return True
    try:
        return bool(value != value)     # NaN is the one value unequal to itself
    except (TypeError, ValueError):     # pd.NA: its truth value is ambiguous
        return True


def _number(value, kind=float):
    if _is_missing(value):
        return None
    try:
        return kind(value)
    except (TypeError, ValueError):
        return None


def _view_from_row(card: CardSide, face: int, names: tuple[str, ...], row: dict) -> TaskView | None:
    """A view from a results row, or None when the row has no usable answer."""
    count = _number(row.get("count"), int)
    difficulty = _number(row.get("difficulty"))
    status = row.get("status")
    status = None if _is_missing(status) else str(status)
    raw = row.get("solution")
    if not _is_missing(raw):
        try:
            solution = {str(k): [tuple(map(int, c)) for c in v] for k, v in json.loads(raw).items()}
        except (TypeError, ValueError, AttributeError):
            return None
        if verify_solution(card.task_pieces(face), card.region, solution) is not None:
            return None  # stale or foreign result: solve again
        complete = row.get("complete")
        partial = status == UNKNOWN or (not _is_missing(complete) and not bool(complete))
        return TaskView(face, names, SOLVED, solution, count, partial, difficulty)
    if status == NO_SOLUTION or (status is None and count == 0):
        return TaskView(face, names, NO_SOLUTION, None, 0, False, difficulty)
    return None


def _solve_view(card: CardSide, face: int, names: tuple[str, ...], row: dict | None,
                time_limit: float | None) -> TaskView:
    result = solve(card.instance(face), backend="cpsat", limit=1, time_limit=time_limit)
    difficulty = None if row is None else _number(row.get("difficulty"))
    count = None if row is None else _number(row.get("count"), int)
    if result.status == SOLVED:
        return TaskView(face, names, SOLVED, result.solutions[0], count or None, False, difficulty)
    if result.status == NO_SOLUTION:
        return TaskView(face, names, NO_SOLUTION, None, 0, False, difficulty)
    return TaskView(face, names, UNKNOWN, None, None, False, difficulty)


# --------------------------------------------------------------------------- layout

class _Layout:
    """Boxes (x, y, width, height in mm) of the page's parts for ``n`` tasks."""

    margin = 12.0

    def __init__(self, n: int):
        m = self.margin
        width = PAGE_MM[0] - 2 * m
        self.compact = n > 8
        if not self.compact:    # classic: faces 1-6
            self.region_box = (m, 33.0, 66.0, 80.0)
            self.table_box = (m + 74.0, 33.0, width - 74.0, 80.0)
            self.key_box = None
            self.cols = 3
            grid_top = 124.0
        else:                   # duel: faces 1-20
            self.region_box = (m, 33.0, 52.0, 74.0)
            self.table_box = (m + 58.0, 33.0, width - 58.0, 74.0)
            self.key_box = (m, 111.0, width, 15.0)
            self.cols = 5
            grid_top = 137.0
        self.rows = max(1, math.ceil(n / self.cols))
        self.grid_box = (m, grid_top, width, PAGE_MM[1] - 12.0 - grid_top)


# --------------------------------------------------------------------------- drawing helpers

def _text_colour(fill: str) -> str:
    """Black or white, whichever contrasts more with ``fill`` (WCAG 2 relative luminance)."""
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in to_rgb(fill)]
    lum = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    return "black" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "white"


def _cells_path(cells: Iterable[Cell], x0: float, y0: float, cs: float) -> Path:
    """One compound path, a square sub-path per cell (filled with the non-zero rule: their union)."""
    cells = np.asarray(list(cells), dtype=float).reshape(-1, 2)
    corners = np.array([[0, 0], [0, 1], [1, 1], [1, 0], [0, 0]], dtype=float)
    xy = np.empty((len(cells), 5, 2))
    xy[:, :, 0] = x0 + (cells[:, None, 1] + corners[None, :, 1]) * cs
    xy[:, :, 1] = y0 + (cells[:, None, 0] + corners[None, :, 0]) * cs
    codes = np.tile([Path.MOVETO, Path.LINETO, Path.LINETO, Path.LINETO, Path.CLOSEPOLY], len(cells))
    return Path(xy.reshape(-1, 2), codes)


def _segments_path(segments: Sequence) -> Path:
    """One compound path of separate straight segments."""
    xy = np.asarray(segments, dtype=float).reshape(-1, 2)
    return Path(xy, np.tile([Path.MOVETO, Path.LINETO], len(segments)))


def _inner(owner: Mapping[Cell, object], x0: float, y0: float, cs: float) -> list:
    """Segments between edge-adjacent cells with the same owner (the cell grid inside a piece)."""
    segments = []
    for (r, c), who in owner.items():
        x, y = x0 + c * cs, y0 + r * cs
        if owner.get((r + 1, c), _inner) == who:
            segments.append(((x, y + cs), (x + cs, y + cs)))
        if owner.get((r, c + 1), _inner) == who:
            segments.append(((x + cs, y), (x + cs, y + cs)))
    return segments


def _stroke(ax, segments: Sequence, colour, lw: float, *, zorder: float = 2.0) -> None:
    """Draw segments as one path (one artist, one PDF path) with square caps."""
    if segments:
        ax.add_collection(PathCollection([_segments_path(segments)], facecolors="none", edgecolors=[colour],
                                         linewidths=lw, capstyle="projecting", zorder=zorder), autolim=False)


def _boundary(owner: Mapping[Cell, object], x0: float, y0: float, cs: float) -> list:
    """Segments between cells of different owners and around the outside."""
    segments = []
    for (r, c), who in owner.items():
        x, y = x0 + c * cs, y0 + r * cs
        for (dr, dc), seg in (((-1, 0), ((x, y), (x + cs, y))), ((1, 0), ((x, y + cs), (x + cs, y + cs))),
                              ((0, -1), ((x, y), (x, y + cs))), ((0, 1), ((x + cs, y), (x + cs, y + cs)))):
            other = owner.get((r + dr, c + dc), _boundary)
            if other is _boundary or (other != who and (dr, dc) in ((1, 0), (0, 1))):
                segments.append(seg)
    return segments


def _lying(cells) -> tuple[Cell, ...]:
    """The first rotation of a piece that is at least as wide as tall (for icons)."""
    for shape in orientations(cells, "one-sided"):
        if 1 + max(c for _, c in shape) >= 1 + max(r for r, _ in shape):
            return shape
    return tuple(cells)


def _size(cells) -> tuple[int, int]:
    """(height, width) of a shape's bounding box in cells."""
    return 1 + max(r for r, _ in cells), 1 + max(c for _, c in cells)


def _base(name: str) -> str:
    return name.split("#")[0]


def _colour_of(name: str, colours: Mapping[str, str]) -> str:
    """A piece's colour; a second copy (``"X#2"``) gets a darker shade of it."""
    base = colours.get(_base(name), "#bbbbbb")
    if "#" not in name:
        return base
    k = 0.35 if name.endswith("2") else 0.5
    return to_hex(tuple(v * (1 - k) for v in to_rgb(base)))


def _label_point(cells: Sequence[Cell], w: float, h: float) -> tuple[float, float]:
    """Where to centre a ``w`` x ``h`` (cells) label inside a piece: nearest to its centroid.

    Candidates are cell centres, midpoints of adjacent cells and centres of
    2 x 2 blocks (so labels sit on the cell grid); a candidate fits when the
    label's corners and centre lie in the piece.
    Returns (row, col) coordinates in cells (cell (r, c) spans [r, r+1]).
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
    return next((p for p in candidates if fits(*p)), candidates[0])


@lru_cache(maxsize=4096)
def _text_width_mm(text: str, size_pt: float, bold: bool = False) -> float:
    """Width of ``text`` set in the default font at ``size_pt`` points, in mm (matplotlib's text layout)."""
    prop = FontProperties(size=size_pt, weight="bold" if bold else "normal")
    width, _, _ = _TEXT_TO_PATH.get_text_width_height_descent(text, prop, ismath=False)
    return width / _PT_PER_MM


_TEXT_TO_PATH = TextToPath()


def _face_box(ax, x: float, y: float, s: float, face: int, *, fill: str = _INK) -> None:
    """A die-like rounded square with the face number, top-left corner at (x, y)."""
    _PATCHES.get().append(FancyBboxPatch((x, y), s, s, boxstyle=f"round,pad=0,rounding_size={s * 0.22}",
                                         facecolor=fill, edgecolor="none"))
    size = min(s * _PT_PER_MM * 0.55, s * _PT_PER_MM * 0.95 / (0.68 * len(str(face))))
    ax.text(x + s / 2, y + s / 2, str(face), ha="center", va="center_baseline", fontsize=size,
            color="white", fontweight="bold")


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


# --------------------------------------------------------------------------- page parts

def _draw_title(ax, card: CardSide, views: Sequence[TaskView]) -> None:
    m = _Layout.margin
    side = f"{card.side} side" if card.game == "classic" else f"side {card.side}"
    title = f"{_GAME_TITLES.get(card.game, card.game)}  \u00b7  card {card.card_id}  \u00b7  {side}"
    ax.text(m, 17.0, title, fontsize=19, fontweight="bold", color=_INK, va="baseline")
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
    if _text_width_mm(sub, 10) > PAGE_MM[0] - 2 * m:
        sub = "  \u00b7  ".join([_plural(len(views), "task")] + parts[1:])
    ax.text(m, 24.5, sub, fontsize=10, color=_MUTED, va="baseline")
    ax.plot([m, PAGE_MM[0] - m], [28.0, 28.0], color=_INK, lw=1.2, solid_capstyle="butt")


def _draw_region_box(ax, card: CardSide, layout: _Layout) -> None:
    x, y, w, h = layout.region_box
    ax.text(x, y + 3.0, "Region", fontsize=11, fontweight="bold", color=_INK, va="baseline")
    region = card.region
    top = y + 7.0
    cs = min(w / region.width, (h - 13.0) / region.height, 15.0)
    x0 = x + (w - cs * region.width) / 2
    y0 = top + (h - 13.0 - cs * region.height) / 2
    owner = {c: 0 for c in region.cells}
    ax.add_collection(PathCollection([_cells_path(region.cells, x0, y0, cs)], facecolors=_REGION_FILL,
                                     edgecolors="none"), autolim=False)
    _stroke(ax, _inner(owner, x0, y0, cs), "#c9bb98", 0.6)
    _stroke(ax, _boundary(owner, x0, y0, cs), _INK, 2.0)
    ax.text(x + w / 2, y + h, f"{region.area} cells  \u00b7  {region.height} rows \u00d7 {region.width} columns",
            ha="center", va="baseline", fontsize=8.5, color=_MUTED)


def _draw_task_table(ax, card: CardSide, views: Sequence[TaskView], colours, layout: _Layout) -> None:
    x, y, w, h = layout.table_box
    counts_known = any(v.count is not None or v.status != SOLVED for v in views)
    diff_known = any(v.difficulty is not None for v in views)
    ax.text(x, y + 3.0, "Tasks", fontsize=11, fontweight="bold", color=_INK, va="baseline")
    blocks = 2 if layout.compact and len(views) > 10 else 1
    per_block = math.ceil(len(views) / blocks)
    gap = 5.0
    bw = (w - gap * (blocks - 1)) / blocks
    head_y = y + 9.5
    row_top = y + 11.5
    row_h = min(13.0, (y + h - row_top) / max(per_block, 1))
    num_w = 15.0 if counts_known else 0.0
    diff_w = 15.0 if diff_known else 0.0
    icons: list = []
    icon_colours: list = []
    icon_lines: list = []
    for b in range(blocks):
        bx = x + b * (bw + gap)
        pieces_x = bx + row_h * 0.72 + 3.0
        pieces_w = bw - (pieces_x - bx) - num_w - diff_w
        icon_cs = None
        if not layout.compact:  # icons where they fit nicely (one scale for the whole table)
            icon_cs = min(_icon_scale(card, v.pieces, pieces_w, row_h) for v in views)
            icon_cs = icon_cs if icon_cs >= 1.5 else None
        ax.text(bx, head_y, "face", fontsize=7.5, color=_MUTED, va="baseline")
        ax.text(pieces_x, head_y, "pieces", fontsize=7.5, color=_MUTED, va="baseline")
        if counts_known:
            ax.text(pieces_x + pieces_w + num_w - 1.0, head_y, "solutions", fontsize=7.5, color=_MUTED,
                    ha="right", va="baseline")
        if diff_known:
            ax.text(bx + bw - 1.0, head_y, "difficulty", fontsize=7.5, color=_MUTED, ha="right", va="baseline")
        ax.plot([bx, bx + bw], [row_top - 0.6, row_top - 0.6], color=_RULE, lw=0.6)
        for i, view in enumerate(views[b * per_block:(b + 1) * per_block]):
            ry = row_top + i * row_h
            if i % 2 == 1:
                _BACKGROUND.get().append(Rectangle((bx, ry), bw, row_h, facecolor="#f3f3f3", edgecolor="none"))
            s = min(row_h * 0.72, 7.5)
            _face_box(ax, bx + 0.8, ry + (row_h - s) / 2, s, view.face)
            if icon_cs is None:
                _draw_name_chips(ax, view.pieces, colours, pieces_x, ry, pieces_w, row_h)
            else:
                _draw_icon_row(ax, card, view.pieces, colours, pieces_x, ry, row_h, icon_cs, icons,
                               icon_colours, icon_lines)
            mid = ry + row_h / 2
            if counts_known:
                colour = {NO_SOLUTION: _NO_SOLUTION, UNKNOWN: _UNKNOWN}.get(view.status, _INK)
                ax.text(pieces_x + pieces_w + num_w - 1.0, mid, _count_text(view), ha="right",
                        va="center_baseline", fontsize=9, color=colour,
                        fontweight="bold" if view.status != SOLVED else "normal")
            if diff_known:
                ax.text(bx + bw - 1.0, mid, _difficulty_text(view), ha="right", va="center_baseline",
                        fontsize=9, color=_INK)
    if icons:
        ax.add_collection(PathCollection(icons, facecolors=icon_colours, edgecolors="none"), autolim=False)
        _stroke(ax, icon_lines, "white", 0.5)


_ICON_LABEL_PT = 8.5


def _icon_scale(card: CardSide, names: Sequence[str], w: float, row_h: float) -> float:
    """Largest icon cell size (mm, at most 3.6) that fits a row of icons and names into ``w`` x ``row_h``."""
    shapes = [_lying(card.piece_set[_base(n)].cells) for n in names]
    label_w = sum(_text_width_mm(n, _ICON_LABEL_PT) + 1.2 for n in names)
    gaps = 3.0 * (len(names) - 1)
    cells_wide = sum(_size(s)[1] for s in shapes)
    tall = max(_size(s)[0] for s in shapes)
    return min((w - label_w - gaps - 1.0) / cells_wide, row_h * 0.72 / tall, 3.6)


def _draw_icon_row(ax, card, names, colours, x, y, row_h, cs, icons, icon_colours, icon_lines) -> None:
    """Piece icons (lying rotation, cell size ``cs`` mm) each followed by its name, in one table row."""
    shapes = [_lying(card.piece_set[_base(n)].cells) for n in names]
    label_pt = _ICON_LABEL_PT
    label_w = [_text_width_mm(n, label_pt) + 1.2 for n in names]
    cx = x
    for name, shape, lw_ in zip(names, shapes, label_w):
        sh, sw = _size(shape)
        iy = y + (row_h - sh * cs) / 2
        icons.append(_cells_path(shape, cx, iy, cs))
        icon_colours.append(_colour_of(name, colours))
        icon_lines.extend(_inner({c: 0 for c in shape}, cx, iy, cs))
        cx += sw * cs + 1.0
        ax.text(cx, y + row_h / 2, name, fontsize=label_pt, color=_INK, va="center_baseline")
        cx += lw_ + 3.0 - 1.0


def _draw_name_chips(ax, names, colours, x, y, w, row_h) -> None:
    """Piece names on rounded chips in the pieces' colours."""
    size = 8.0
    chip_h = min(row_h * 0.72, 5.2)
    cx = x
    for name in names:
        fill = _colour_of(name, colours)
        cw = max(chip_h, _text_width_mm(name, size, True) + 2.0)
        _PATCHES.get().append(FancyBboxPatch((cx, y + (row_h - chip_h) / 2), cw, chip_h,
                                    boxstyle=f"round,pad=0,rounding_size={chip_h * 0.3}",
                                    facecolor=fill, edgecolor="none"))
        ax.text(cx + cw / 2, y + row_h / 2, name, ha="center", va="center_baseline", fontsize=size,
                fontweight="bold", color=_text_colour(fill))
        cx += cw + 1.2


def _draw_piece_key(ax, card: CardSide, views: Sequence[TaskView], colours, box) -> None:
    """A strip with an icon of every piece used on the page, in piece-set order."""
    x, y, w, h = box
    used = {_base(n) for v in views for n in v.pieces}
    names = [n for n in card.piece_set.names if n in used]
    ax.text(x, y + 3.0, "Pieces", fontsize=11, fontweight="bold", color=_INK, va="baseline")
    label_pt = 7.5
    shapes = [_lying(card.piece_set[n].cells) for n in names]
    top = y + 5.0
    avail_h = h - 5.0
    slot = w / max(len(names), 1)
    cs = min(min((slot - 2.0) / _size(s)[1] for s in shapes),
             (avail_h - 4.0) / max(_size(s)[0] for s in shapes), 2.4)
    paths, fills, lines = [], [], []
    for i, (name, shape) in enumerate(zip(names, shapes)):
        sh, sw = _size(shape)
        cx = x + i * slot + (slot - sw * cs) / 2
        cy = top + (avail_h - 4.0 - sh * cs) / 2
        paths.append(_cells_path(shape, cx, cy, cs))
        fills.append(colours[name])
        lines.extend(_inner({c: 0 for c in shape}, cx, cy, cs))
        ax.text(x + i * slot + slot / 2, y + h, name, ha="center", va="baseline", fontsize=label_pt,
                color=_INK)
    ax.add_collection(PathCollection(paths, facecolors=fills, edgecolors="none"), autolim=False)
    _stroke(ax, lines, "white", 0.5)


def _draw_solutions(ax, card: CardSide, views: Sequence[TaskView], colours, layout: _Layout) -> None:
    gx, gy, gw, gh = layout.grid_box
    ax.text(gx, gy - 3.0, "Solutions", fontsize=11, fontweight="bold", color=_INK, va="baseline")
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
        _PATCHES.get().append(FancyBboxPatch((px, py), pw, ph, boxstyle="round,pad=0,rounding_size=2.0",
                                    facecolor="none", edgecolor="#d0d0d0", linewidth=0.6))
        s = header - 2.5
        _face_box(ax, px + 1.8, py + 1.6, s, view.face)
        info_pt = 7.0 if layout.compact else 8.0
        names_pt = 7.0 if layout.compact else 8.5
        names, info = _panel_header(view, pw - s - 5.6, names_pt, info_pt)
        if names:
            ax.text(px + s + 3.6, py + 1.6 + s / 2, names, va="center_baseline", fontsize=names_pt, color=_INK)
        if info:
            colour = {NO_SOLUTION: _NO_SOLUTION, UNKNOWN: _UNKNOWN}.get(view.status, _MUTED)
            ax.text(px + pw - 2.0, py + 1.6 + s / 2, info, ha="right", va="center_baseline",
                    fontsize=info_pt, color=colour)
        x0 = px + (pw - cs * region.width) / 2
        y0 = py + header + (ph - header - cs * region.height) / 2
        if view.status == SOLVED and view.solution:
            owner: dict[Cell, str] = {}
            paths, fills = [], []
            for name, cells in view.solution.items():
                cells = [tuple(c) for c in cells]
                owner.update((c, name) for c in cells)
                fill = _colour_of(name, colours)
                paths.append(_cells_path(cells, x0, y0, cs))
                fills.append(fill)
                _label_piece(ax, name, cells, x0, y0, cs, fill)
            coll = PathCollection(paths, facecolors=fills, edgecolors="none")
            coll.set_gid(f"solution/{view.face}")   # one path per piece, in view.solution's order
            ax.add_collection(coll, autolim=False)
            inner += _inner(owner, x0, y0, cs)
            thick += _boundary(owner, x0, y0, cs)
        else:
            colour = _NO_SOLUTION if view.status == NO_SOLUTION else _UNKNOWN
            hatch = "#e6b0aa" if view.status == NO_SOLUTION else "#ecd3a8"
            coll = PathCollection([_cells_path(region.cells, x0, y0, cs)], facecolors="#f6f6f6",
                                  edgecolors=[hatch], linewidths=0.0, hatch="////")
            coll.set_gid(f"unsolved/{view.face}")
            ax.add_collection(coll, autolim=False)
            thin[colour] += _boundary({c: 0 for c in region.cells}, x0, y0, cs)
            text = "NO SOLUTION" if view.status == NO_SOLUTION else "NOT SOLVED\n(time limit)"
            ax.text(x0 + cs * region.width / 2, y0 + cs * region.height / 2, text, ha="center", va="center",
                    fontsize=9 if layout.compact else 12, fontweight="bold", color=colour,
                    bbox=dict(boxstyle="round,pad=0.3", facecolor="white", edgecolor=colour, linewidth=1.0))
    _stroke(ax, inner, (1.0, 1.0, 1.0, 0.45), 0.4)
    _stroke(ax, thick, _INK, 1.5 if layout.compact else 2.0)
    for colour, segments in thin.items():
        _stroke(ax, segments, colour, 1.2)


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
    names_w = _text_width_mm(names, names_pt) + 2.0
    for info in infos:
        if names_w + _text_width_mm(info, info_pt) <= width:
            return names, info
    for info in infos:
        if _text_width_mm(info, info_pt) <= width:
            return "", info
    return "", ""


def _plural_text(count: str, word: str) -> str:
    return f"{count} {word}" + ("" if count == "1" else "s")


def _label_piece(ax, name: str, cells, x0: float, y0: float, cs: float, fill: str) -> None:
    """Write a piece's name inside it, as large as fits (at most 11 pt)."""
    cs_pt = cs * _PT_PER_MM
    size = min(12.0, cs_pt * (0.6 if len(name) == 1 else 0.5))
    width_cells = _text_width_mm(name, size, True) / cs
    if width_cells > 1.8:     # long names ("I2#2"): shrink to fit two cells
        size *= 1.8 / width_cells
        width_cells = 1.8
    height_cells = size / _PT_PER_MM / cs * 0.8
    r, c = _label_point(cells, width_cells, height_cells)
    ax.text(x0 + c * cs, y0 + r * cs, name, ha="center", va="center_baseline", fontsize=size,
            fontweight="bold", color=_text_colour(fill))


def _draw_footer(ax, card: CardSide, page: int | None, pages: int | None) -> None:
    m = _Layout.margin
    y = PAGE_MM[1] - 6.0
    left = f"pieces: {card.pieces_spec}"
    if card.path:
        left = f"{FilePath(card.path).name}   \u00b7   " + left
    ax.text(m, y, left, fontsize=7, color="#888888", va="baseline")
    if page is not None:
        right = f"page {page}" + (f" / {pages}" if pages else "")
        ax.text(PAGE_MM[0] - m, y, right, fontsize=7, color="#888888", ha="right", va="baseline")
    ax.text(PAGE_MM[0] / 2, y, "ubongo-cp solution booklet", fontsize=7, color="#888888", ha="center",
            va="baseline")
