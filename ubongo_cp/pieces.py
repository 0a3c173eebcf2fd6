"""Pieces, piece-set catalogues and region files (text format), on any grid.

File format (shared by piece sets and regions): lines starting with ``%``
are comments; an optional header line ``grid: NAME`` (before anything else
but comments and blank lines) names the grid (:mod:`ubongo_cp.grids`:
``square``, ``hex``, ``triangle`` or ``cube``); without it the file is on
the square grid. Shapes are drawn in the grid's text layout: on squares
``#`` is a cell and ``.`` is empty, rows may be ragged; hexagons sit in
offset rows, triangles are ``^`` and ``v``, cube layers are separated by a
line of ``-`` (each grid module documents its layout).

- A *piece-set file* is a sequence of blocks separated by a blank line; the
  first line of a block is the piece name, the following lines its shape.
- A *region file* is one picture.

The shipped catalogues are package data (:mod:`ubongo_cp.shipped`): the
Ubongo sets (``classic``, ``duel``: the public facts of ``RULES.md`` §1),
the polyominoes (``pentominoes``, ``tetrominoes``) and the sets of the other
grids (``tetrahexes``, ``pentahexes``, ``pentiamonds``, ``hexiamonds``,
``tetracubes``, ``soma``). A catalogue can be named by its short name or by
a path.

Piece-set files named by a file: a card's or a deck spec's ``pieces =``
line names a shipped set or a file in that file's own folder (or below it);
any other file (an absolute path, ``../``, a link leading out of the folder)
is refused unless it was allowed explicitly with
:func:`allowed_piece_files` (the command line's ``--allow-pieces``). A
deck shared with you can then read no file of yours. Errors about a
piece-set file quote no text of it that does not look like a piece name.
"""

from __future__ import annotations

import os
import re
from collections import Counter
import sys
from functools import cached_property, lru_cache
from itertools import repeat
from operator import attrgetter, is_
from collections.abc import Iterable, Iterator, Sequence

from .errors import InputError, as_written, control_character, names_argument, whole_argument
from .geometry import MAX_REGION_CELLS, ContextVar, Shape, max_cells_hint   # ContextVar without contextvars
from .grids import SQUARE, Grid, get_grid
from .grids.base import LazyOrientations
from .reading import read_text, text_lines, wrong_format
from .shipped import SHIPPED_PIECE_SETS, piece_set_file
from .structs import Struct

TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any

    import pathlib

__all__ = [
    "Piece",
    "EmptyCell",
    "PieceSet",
    "name_problem",
    "count_ranges",
    "Region",
    "resolve_pieces_path",
    "allowed_piece_files",
    "parse_pieces",
    "load_pieces",
    "parse_region",
    "load_region",
    "grid_mismatch",
    "check_one_grid",
    "orientations_of",
    "EMPTY",
]

#: The key of the cells left empty in a solution (``max_empty`` of
#: :func:`ubongo_cp.cover.build_instance`): a piece of that name cannot be placed together with
#: empty cells.
EMPTY = "empty"


class Piece(Struct):
    """A named polyform: a polyomino, polyhex, polyiamond or polycube.

    The piece files (:func:`load_pieces`) and BurrTools files refuse a piece whose cells are not connected, as
    a polyform's are. A piece built in code is not checked for it: any set of cells of the grid is a piece
    there (the solvers cover a region with it all the same), for puzzles whose pieces are not polyforms.

    Attributes
    ----------
    name : str
        Name used in tasks and card files (e.g. ``"L5"``, ``"A"``).
    cells : Shape
        Cells in normal position, sorted (``(row, col)`` on squares; see :mod:`ubongo_cp.grids`), wherever
        they were given: ``Piece("D", [(5, 5), (5, 6)]).cells == ((0, 0), (0, 1))``.
    grid : Grid
        The grid (default: square; its name is taken too).

    Raises
    ------
    InputError
        For a name that is not text or cannot name a piece (:func:`name_problem`), no cells, a
        cell given twice, or a cell that is not ``grid.dim`` whole numbers.
    """

    name: str
    cells: Shape
    grid: Grid

    def __init__(self, name: str, cells: Shape, grid: Grid = SQUARE) -> None:
        if not isinstance(name, str):
            raise InputError(f"a piece name is text, got {name!r}")
        problem = name_problem(name)
        if problem:
            raise InputError(problem)
        grid = get_grid(grid)   # a grid's name: the grid
        cells = _checked_cells(_piece(name), cells, grid)   # lists: the frozen form (tuples)
        if not cells:
            raise InputError(f"{_piece(name)} has no cells")
        # A piece has no place of its own: wherever its cells are given, it is kept in normal position, so that
        # the same piece given twice is equal (and hashes so).
        self._set(name=name, cells=grid.normalize(cells), grid=grid)

    @classmethod
    def _read(cls, name: str, cells: Shape, grid: Grid) -> Piece:
        """The piece a file's reader has checked (:func:`parse_pieces`): ``name`` without a
        :func:`name_problem`, ``cells`` as ``grid.parse`` gives them (distinct, in normal position), ``grid`` a
        grid; what ``__init__`` would check and make again (a tenth of a subset analysis's start-up)."""
        piece = cls.__new__(cls)
        piece._set(name=name, cells=cells, grid=grid)
        return piece

    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self.cells)

    def orientations(self, mode: str = "free") -> list[Shape]:
        """Distinct fixed orientations in ``mode`` (see :meth:`ubongo_cp.grids.Grid.orientations`)."""
        return _orientations_cached(self.grid, self.cells, mode)

    def __str__(self) -> str:
        return f"{self.name}\n{self.grid.format(self.cells)}"


def _checked_cells(what: str, cells, grid: Grid) -> Shape:
    """``cells`` as a tuple of distinct cells of ``grid`` (tuples of ``grid.dim`` ints), or an InputError
    naming ``what`` (``"piece 'L5'"``, ``"the region"``)."""
    import operator

    if isinstance(cells, (str, bytes)) or not hasattr(cells, "__iter__"):
        raise InputError(f"{what}: its cells are a list of {grid.dim}-tuples of whole numbers, got {_shown(repr(cells))}")
    out = []
    for cell in cells:
        try:
            if isinstance(cell, (str, bytes)) or len(cell) != grid.dim or any(isinstance(x, bool) for x in cell):
                raise TypeError
            out.append(cell if type(cell) is tuple and all(type(x) is int for x in cell)
                       else tuple(operator.index(x) for x in cell))
        except TypeError:
            raise InputError(f"{what}: cell {_shown(repr(cell))} is not {grid.dim} whole numbers (a cell of the "
                             f"{grid.name} grid)") from None
    if len(set(out)) != len(out):
        twice = next(c for c, n in Counter(out).items() if n > 1)
        raise InputError(f"{what} lists cell {twice} twice")
    shape = tuple(out)
    return cells if type(cells) is tuple and shape == cells else shape


def name_problem(name: str, *, in_file: bool = False) -> str | None:
    """Why ``name`` cannot name a piece, or ``None``; with ``in_file``, a piece read from a file, which may not
    bear the name :data:`EMPTY` either (kept for the cells a task leaves empty), and whose message speaks of
    the name "on this line" (the line its reader names); else the message shows the name.

    A name is not empty and holds no white space, no control character, no
    ``#``, no ``,`` and no ``:``: further copies of a piece are labelled ``name#2``, ``name#3``, ...
    in solutions (:attr:`ubongo_cp.cover.ExactCoverInstance.copy_names`), so
    a ``#`` in a name could be taken for another piece's copy; and a
    selection of pieces (:func:`count_ranges`) separates names by ``,`` and
    gives a count after ``:``, so such a name could never be selected.

    Examples
    --------
    >>> name_problem("L5") is None, name_problem("A#2")
    (True, "piece 'A#2' contains '#', which marks a further copy of a piece (A#2 = the second A)")
    >>> name_problem("A:2")
    "piece 'A:2' contains ':', which gives a count in a selection of pieces (T4:2 = two T4)"
    >>> name_problem("A B"), name_problem("A B", in_file=True)
    ("the piece name 'A B' contains white space", 'the piece name on this line contains white space')
    """
    if not name:
        return "empty piece name"
    # A file's reader names the line; a name given in Python is shown (escaped and cut: as_written).
    named = "the piece name on this line" if in_file else f"the piece name {as_written(name)}"
    if any(ch.isspace() for ch in name):
        return f"{named} contains white space"
    control = control_character(name)
    if control:   # an escape sequence would reach the terminal with every solution printed
        return f"{named} contains {control}"
    if "#" in name:
        return f"{_piece(name)} contains '#', which marks a further copy of a piece (A#2 = the second A)"
    if "," in name:
        return f"{_piece(name)} contains ',', which separates the names in a selection of pieces (I2,L4)"
    if ":" in name:
        return f"{_piece(name)} contains ':', which gives a count in a selection of pieces (T4:2 = two T4)"
    if in_file and name == EMPTY:
        return f"the name {EMPTY!r} is kept for the cells a task leaves empty; rename the piece"
    return None


#: Most copies a range of piece counts may ask for (four digits, as :data:`_RANGE` reads).
MAX_RANGE_COUNT = 9999
_DIGITS = len(str(MAX_RANGE_COUNT))
#: Patterns compiled where first matched (by :mod:`re`, which keeps them; compiling one takes 0.05-0.1 ms of
#: every command that imports this module otherwise), each only on a text holding a ``:``, which both need.
_RANGE = rf"(.+):([0-9]{{1,{_DIGITS}}})(?:-([0-9]{{1,{_DIGITS}}}))?"
#: What follows the last ``:`` of an entry meant as a range of counts (digits and dashes), well formed or not.
_RANGE_LIKE = r"(.+):([-0-9]+)"


#: How a range of piece counts is written (the hint of every malformed range).
_RANGE_FORM = "write NAME:N or NAME:LO-HI, with whole numbers"


def _shown(entry: str, width: int = 40) -> str:
    """``entry`` for a message: its first ``width`` characters."""
    return entry if len(entry) <= width else entry[:width] + "..."


def _range_problem(counts: str) -> str:
    """Why ``counts`` (digits and dashes after a name's ``:``) is not ``N`` or ``LO-HI``."""
    parts = counts.split("-")
    if len(parts) > 2 or not all(parts):
        negative = " (a count is never negative)" if counts.startswith("-") else ""
        return f"{_RANGE_FORM}{negative}"
    big = next(p for p in parts if len(p) > _DIGITS)
    return f"count {_shown(big, 12)} is over {MAX_RANGE_COUNT:,}"


def count_ranges(entries: Sequence[str], *, source: str = "") -> tuple[list[str], dict[str, tuple[int, int]]]:
    """Piece names, and a count range for each entry written ``NAME:LO-HI`` (or ``NAME:N``, exactly N).

    The syntax of a range of piece counts in a list of pieces (``--use T4:0-2,L4:1-3``, a task's
    list in a card file): each ranged name is listed once; the range goes to
    :func:`ubongo_cp.cover.build_instance` (``ranges``).

    Raises
    ------
    InputError
        For a range with LO > HI, a malformed range (an entry ending in ``:`` and digits or dashes
        that is not ``N`` or ``LO-HI``, one such part after another, a count over
        :data:`MAX_RANGE_COUNT`), a ranged name listed twice or also without a range.

    Examples
    --------
    >>> count_ranges(["T4:0-2", "L4:1-3", "I2"])
    (['T4', 'L4', 'I2'], {'T4': (0, 2), 'L4': (1, 3)})
    """
    where = f"{source}: " if source else ""
    names: list[str] = []
    ranges: dict[str, tuple[int, int]] = {}
    for entry in entries:
        if ":" not in entry:   # a plain name (neither pattern matches without a ':')
            names.append(entry)
            continue
        m = re.fullmatch(_RANGE, entry)
        if m is None:
            bad = re.fullmatch(_RANGE_LIKE, entry)
            if bad is not None:  # meant as a range: a piece name does not end in ':' and digits
                raise InputError(f"{where}range {_shown(entry)!r}: {_range_problem(bad.group(2))}")
            names.append(entry)
            continue
        name, lo = m.group(1), int(m.group(2))
        if re.fullmatch(_RANGE_LIKE, name):  # two ranges in one entry (I2:1-2:3): not a name with a range
            raise InputError(f"{where}range {_shown(entry)!r}: {_RANGE_FORM}")
        hi = lo if m.group(3) is None else int(m.group(3))
        if lo > hi:
            raise InputError(f"{where}range {entry!r} has {lo} > {hi}: write NAME:LO-HI with LO <= HI")
        if name in ranges:
            raise InputError(f"{where}{name} is given two ranges; give one")
        ranges[name] = (lo, hi)
        names.append(name)
    both = [n for n in ranges if names.count(n) > 1]
    if both:
        raise InputError(f"{where}{both[0]} is given a range and listed again; give its range only")
    return names, ranges


#: Each piece's orientations by (grid, cells, mode): a list, or :class:`~ubongo_cp.grids.base.LazyOrientations`
#: (:func:`orientations_of`), its tuples made when :meth:`Piece.orientations` first asks for them; and by
#: (mode, the ids of a sequence of pieces), those pieces and their orientations (the pieces held, so that
#: their ids are not reused while the entry lives).
_ORIENT_CACHE: dict[tuple, Any] = {}

#: Most entries of :data:`_ORIENT_CACHE` before a sequence of pieces is added to it (it is emptied first).
_ORIENT_CACHE_SIZE = 1 << 14

#: From how many shapes of one grid and size, not cached yet, :func:`orientations_of` computes their
#: orientations together with numpy (measured with ``benchmarks/bench_grids.py``).
_MANY_FROM = 3


def orientations_of(pieces: Sequence[Piece], mode: str) -> list[Sequence[Shape]]:
    """:meth:`Piece.orientations` of each piece: lists, or :class:`~ubongo_cp.grids.base.LazyOrientations` (the
    same sequences, held as arrays).

    Those not cached yet are computed and cached, each shape once: from :data:`_MANY_FROM` shapes of one
    grid and size, when numpy is loaded already, together (:meth:`ubongo_cp.grids.Grid.orientations_lazy`:
    held as arrays, their tuples made when first asked for); else one by one.

    Raises
    ------
    ValueError
        For a mode the pieces' grid does not have.
    """
    key = (mode, *map(id, pieces))           # these very pieces again (a deck's tasks, a benchmark): one lookup
    entry = _ORIENT_CACHE.get(key)
    if entry is not None:
        return list(entry[1])
    modes = [p.grid.every_mode if type(p) is EmptyCell else mode for p in pieces] \
        if EmptyCell in map(type, pieces) else [mode] * len(pieces)
    shapes = list(map(_CELLS_OF, pieces))
    grids = list(map(_GRID_OF, pieces))
    keys = list(zip(grids, shapes, modes))    # (grid, cells, mode) per piece, made in C
    # none cached when the cache is empty (a process's first pieces): no key hashed for nothing (a hash of a
    # shape's tuples is most of the look-up; the cache is filled below, each key hashed once)
    found: list[Any] = list(map(_ORIENT_CACHE.get, keys)) if _ORIENT_CACHE else [None] * len(keys)
    if None not in found:
        if len(_ORIENT_CACHE) >= _ORIENT_CACHE_SIZE:          # a census or an analysis asks for many sets
            _ORIENT_CACHE.clear()
        _ORIENT_CACHE[key] = (tuple(pieces), tuple(found))    # holds the pieces: their ids are kept
        return found
    together = "numpy" in sys.modules
    if found.count(None) == len(found) and together and len(shapes) >= _MANY_FROM \
            and len(set(map(len, shapes))) == 1 and len(set(modes)) == 1 \
            and all(map(is_, grids, repeat(grids[0]))):
        # none cached, one grid, size and mode (a set of pieces seen first): one batch in the order of the pieces,
        # as the groups below make it when each piece is its own shape, with no loop over them in Python
        batch = grids[0].orientations_lazy(shapes, modes[0])
        if type(batch[0]) is LazyOrientations and batch[0].batch.unique:   # least orientations all different: each
            _ORIENT_CACHE.update(zip(keys, batch))                           # piece its own shape, each key once
            return batch
        fresh = dict(zip(keys, batch))   # read here, not from the cache, which another thread may empty meanwhile
        _ORIENT_CACHE.update(fresh)      # (from a dict: its keys' hashes are not computed again)
        if len(fresh) == len(keys):      # each key once: each piece its own shape
            return batch
        return list(map(fresh.__getitem__, keys))   # copies of a shape: each takes the one kept
    groups: dict[tuple[Grid, int, str], dict[Shape, list[int]]] = {}   # the shapes to compute, by grid, size,
    for i, (p, f, m) in enumerate(zip(pieces, found, modes)):           # mode: the pieces of each shape
        if f is None:
            cells = p.cells
            groups.setdefault((p.grid, len(cells), m), {}).setdefault(cells, []).append(i)
    for (grid, _, m), group in groups.items():
        shapes = list(group)
        if together and len(shapes) >= _MANY_FROM:
            orientations = grid.orientations_lazy(shapes, m)
        else:
            orientations = [grid.orientations(cells, m) for cells in shapes]
        for cells, o, where in zip(shapes, orientations, group.values()):
            _ORIENT_CACHE[grid, cells, m] = o
            for i in where:
                found[i] = o
    return found


def _orientations_cached(grid: Grid, cells: Shape, mode: str) -> list[Shape]:
    key = (grid, cells, mode)
    found = _ORIENT_CACHE.get(key)
    if found is None:
        found = _ORIENT_CACHE[key] = grid.orientations(cells, mode)
    return found.shapes() if isinstance(found, LazyOrientations) else found


class EmptyCell(Piece):
    """The monomino standing for a region cell left empty (named :data:`EMPTY`; ``--max-empty``).

    Unlike a piece it takes every orientation the grid has, whatever the
    orientation mode of the pieces: a cell may stay empty wherever it lies,
    so on triangles it is an up and a down triangle even when the pieces
    keep their fixed orientation.
    """

    def orientations(self, mode: str = "free") -> list[Shape]:
        """Every orientation of one cell on its grid (``mode`` is not used)."""
        return _orientations_cached(self.grid, self.cells, self.grid.every_mode)


class PieceSet(Struct):
    """An ordered catalogue of distinct named pieces.

    Attributes
    ----------
    pieces : tuple of Piece
        In file order.
    path : str or None
        The file it was read from.
    grid : Grid
        The pieces' grid (the file's ``grid:`` line; default square).

    Raises
    ------
    InputError
        When ``pieces`` is not a list (any iterable) of :class:`Piece`, two pieces share a name, or a piece
        is on another grid.
    """

    pieces: tuple[Piece, ...]
    path: str | None
    grid: Grid
    _by_name: dict[str, Piece]   # not an init field: made here; neither shown nor compared

    def __init__(self, pieces: Iterable[Piece], path: str | None = None, grid: Grid = SQUARE) -> None:
        if isinstance(pieces, (str, bytes, Piece)) or not hasattr(pieces, "__iter__"):
            raise InputError(f"a piece set is made of a list of pieces (Piece), got {_shown(repr(pieces))}")
        pieces = tuple(pieces)   # a list, a generator: the frozen form, equal and hashable as a file's set
        stranger = next((p for p in pieces if not isinstance(p, Piece)), None)
        if stranger is not None:
            raise InputError(f"a piece set holds pieces (Piece), got {type(stranger).__name__} "
                             f"{_shown(repr(stranger))}", path=path)
        by_name = {p.name: p for p in pieces}
        if len(by_name) < len(pieces):   # the names pick the pieces (set["L5"], tasks): one piece each
            twice = next(name for name, n in Counter(p.name for p in pieces).items() if n > 1)
            raise InputError(f"{_piece(twice)} appears twice in the piece set: give each piece a name of its own",
                             path=path)
        self._set(pieces=pieces, path=path, grid=grid, _by_name=by_name)
        stray = next((p for p in pieces if p.grid is not grid), None)
        if stray is not None:
            raise InputError(f"piece {stray.name!r} is on the {stray.grid.name} grid, the set on the "
                             f"{grid.name} grid", path=path)

    @property
    def names(self) -> list[str]:
        """Piece names in file order."""
        return [p.name for p in self.pieces]

    def __len__(self) -> int:
        return len(self.pieces)

    def __iter__(self) -> Iterator[Piece]:
        return iter(self.pieces)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def __getitem__(self, name: str) -> Piece:
        try:
            return self._by_name[name]
        except KeyError:
            raise InputError(f"unknown piece {name!r} (this set has {' '.join(self.names)})",
                             path=self.path) from None

    @property
    def label(self) -> str:
        """How a message names the set: a shipped set's short name, else its file ("the piece set" without one).

        Examples
        --------
        >>> load_pieces("classic").label
        'classic'
        """
        if self.path is None:
            return "the piece set"
        return next((name for name in SHIPPED_PIECE_SETS if piece_set_file(name) == self.path), self.path)

    def select(self, names: Iterable[str] | None = None, *, argument: str | None = None) -> list[Piece]:
        """The pieces named (a name may repeat: a multiset); all pieces when ``None``.

        ``argument`` names the caller's parameter the names came from: an
        unknown name is then a problem of that argument, not of the set's
        file (the message names the set by :attr:`label`).

        Raises
        ------
        InputError
            For ``names`` that is not a list of names (one name alone included), or a name not in the set.

        Examples
        --------
        >>> load_pieces("classic").select(["I2", "FOO"], argument="--use")
        Traceback (most recent call last):
        ...
        ubongo_cp.errors.InputError: --use: unknown piece 'FOO' (classic has I2 I3 L3 T4 L4 I4 S4 O4 Y5 L5 P5 Z5)
        """
        if names is None:
            return list(self.pieces)
        names = names_argument(argument or "names", names, "['I2', 'L5']")   # "L5" alone was read as L, 5
        if argument is not None:
            unknown = next((n for n in names if n not in self), None)
            if unknown is not None:
                raise InputError(f"unknown piece {unknown!r} ({self.label} has {' '.join(self.names)})",
                                 argument=argument)
        return [self[n] for n in names]

    @cached_property
    def total_area(self) -> int:
        """Cells of all pieces together."""
        return sum(p.size for p in self.pieces)

    def draw(self, *, cell_mm: float = 5.0):
        """Every piece with its name, in the booklet's colours (a matplotlib Figure; see :mod:`ubongo_cp.draw`)."""
        from .draw.figures import pieces_figure

        return pieces_figure(self.pieces, cell_mm=cell_mm)

    def _repr_svg_(self) -> str:
        """The picture a notebook shows (matplotlib is imported only here)."""
        from .draw.figures import figure_svg

        return figure_svg(self.draw())


class Region(Struct):
    """A target region: a set of cells (not necessarily a rectangle), on a grid.

    Attributes
    ----------
    cells : Shape
        Cells, sorted (``(row, col)`` on squares). A region read from a file or made by
        :meth:`rectangle` is in normal position; cells given by hand keep their place (solutions
        name the cells so), in any order.
    path : str or None
        The file it was read from.
    grid : Grid
        The grid (default: square).
    optional : Shape
        Further cells that pieces may cover or leave empty (BurrTools'
        variable voxels; in the same position as ``cells``); none by default.
    line : int or None
        The line of :attr:`path` that sets the grid (its ``grid:`` line, else the picture's
        first row), for a message about the grid; not compared.
    """

    cells: Shape
    path: str | None
    grid: Grid
    optional: Shape
    line: int | None
    _hidden = ("line",)
    _uncompared = ("line",)

    def __init__(self, cells: Shape, path: str | None = None, grid: Grid = SQUARE, optional: Shape = (),
                 line: int | None = None) -> None:
        grid = get_grid(grid)   # a grid's name: the grid
        # lists, arrays: the frozen form (tuples), sorted: a region is a set of cells, equal in any order
        cells = tuple(sorted(_checked_cells("the region", cells, grid)))
        optional = tuple(sorted(_checked_cells("the region's optional cells", optional, grid))) if optional else ()
        if not cells and not optional:
            raise InputError("empty region: no cell")
        if set(cells) & set(optional):
            raise InputError(f"the region lists cell {min(set(cells) & set(optional))} as needed and as optional")
        self._set(cells=cells, path=path, grid=grid, optional=optional, line=line)

    @property
    def area(self) -> int:
        """Number of cells (those that must be covered; :attr:`optional` ones apart)."""
        return len(self.cells)

    @property
    def size(self) -> tuple[int, ...]:
        """Rows and columns of the region's text picture (layers first, on cubes; :meth:`Grid.text_size`)."""
        return self.grid.text_size(self.cells)

    @property
    def height(self) -> int:
        """Rows of the text picture (the bounding box, on squares)."""
        return self.size[-2]

    @property
    def width(self) -> int:
        """Columns of the text picture (hex positions per row, on hexagons)."""
        return self.size[-1]

    @classmethod
    def rectangle(cls, height: int, width: int, *, max_cells: int = MAX_REGION_CELLS) -> "Region":
        """A ``height`` x ``width`` rectangle of squares.

        Parameters
        ----------
        height, width : int
            Rows and columns (cells), each at least 1.
        max_cells : int
            The most cells allowed (:data:`~ubongo_cp.geometry.MAX_REGION_CELLS` by default, as
            for a region file): a guard against a mistyped size.

        Raises
        ------
        InputError
            For a size that is not a whole number of at least 1, a rectangle over ``max_cells``, or a
            ``max_cells`` that is not a whole number of at least 1.

        Examples
        --------
        >>> Region.rectangle(2, 3).area
        6
        """
        return cls.box(height, width, max_cells=max_cells)

    @classmethod
    def box(cls, *dims: int, grid: str | Grid = "square", max_cells: int = MAX_REGION_CELLS) -> "Region":
        """A box of the grid's text layout: a rectangle, a parallelogram of hexagons or triangles, a cuboid.

        Parameters
        ----------
        *dims : int
            ``rows, cols`` (``layers, rows, cols`` on cubes); on triangles
            ``cols`` counts rhombi, two triangles each (:meth:`Grid.box`).
        grid : str or Grid
        max_cells : int
            The most cells allowed (:data:`~ubongo_cp.geometry.MAX_REGION_CELLS` by default, as
            for a region file).

        Raises
        ------
        InputError
            For an unknown grid, sizes that are not whole numbers of at least 1 or do not fit the
            grid, or a box over ``max_cells``.

        Examples
        --------
        >>> Region.box(6, 6, grid="triangle").area, Region.box(2, 3, 3, grid="cube").area
        (72, 18)
        """
        grid = get_grid(grid)
        max_cells = whole_argument("max_cells", max_cells, 1)   # NaN compared False with every size: no limit
        sizes = [whole_argument("a box size", d, 1) for d in dims]
        units = 1
        for d in sizes:
            units *= d
        if units > max_cells:  # every unit of the layout holds a cell at least: refused before any is made
            raise InputError(f"a {'x'.join(map(as_written, sizes))} region has at least {as_written(units)} cells, "
                             f"over the limit of {max_cells} ({max_cells_hint()})")
        cells = grid.normalize(grid.box(*sizes))
        if len(cells) > max_cells:
            raise InputError(f"a {'x'.join(map(str, sizes))} region has {len(cells)} cells, over the limit of "
                             f"{max_cells} ({max_cells_hint()})")
        return cls(cells, grid=grid)

    @classmethod
    def from_ascii(cls, text: str, *, path: str | None = None, grid: str | Grid | None = None) -> "Region":
        """Parse a region from its text (see :func:`parse_region`): its ``grid:`` line, or ``grid``, names
        the grid (default square); the inverse of :meth:`to_ascii`.

        Examples
        --------
        >>> hexagon = Region.from_ascii("grid: hex\\n # #\\n# # #\\n # #\\n")
        >>> Region.from_ascii(hexagon.to_ascii()) == hexagon, Region.from_ascii(" # #", grid="hex").area
        (True, 2)
        """
        return parse_region(text, path=path, grid=grid)

    def to_ascii(self) -> str:
        """The region as a region file holds it: in its grid's text layout (``#``/``.`` rows on squares),
        after a ``grid:`` line on any other grid, so that :meth:`from_ascii` and the commands read it back.

        Examples
        --------
        >>> print(Region.box(2, 2, grid="hex").to_ascii())
        grid: hex
        # #
         # #
        """
        picture = self.grid.format(self.cells)
        return picture if self.grid is SQUARE else f"grid: {self.grid.name}\n{picture}"

    def draw(self, *, cell_mm: float = 8.0):
        """The region with its cell grid (a matplotlib Figure; see :mod:`ubongo_cp.draw`)."""
        from .draw.figures import region_figure

        return region_figure(self.cells, cell_mm=cell_mm, grid=self.grid)

    def _repr_svg_(self) -> str:
        """The picture a notebook shows (matplotlib is imported only here)."""
        from .draw.figures import figure_svg

        return figure_svg(self.draw())


#: Real paths of piece-set files allowed beyond the folder of the file naming them.
_ALLOWED: ContextVar[frozenset[str]] = ContextVar("allowed_piece_files", default=frozenset())


class allowed_piece_files:
    """Within the block, cards and deck specs may also name these piece-set files (see the module docstring).

    A context manager class (every command enters it: see :class:`~ubongo_cp.reading.protect_inputs`).

    Examples
    --------
    >>> with allowed_piece_files(["/srv/shared/pieces.txt"]):
    ...     pass
    """

    def __init__(self, paths: Iterable[str | os.PathLike]) -> None:
        self._paths = paths

    def __enter__(self) -> None:
        self._token = _ALLOWED.set(_ALLOWED.get() | {os.path.realpath(p) for p in self._paths})

    def __exit__(self, *exc) -> None:
        _ALLOWED.reset(self._token)


def resolve_pieces_path(spec: str | os.PathLike, *, relative_to: str | os.PathLike | None = None,
                        named_in_file: bool = False) -> pathlib.Path:
    """Turn a piece-set reference into a path.

    ``spec`` is the short name of a shipped set
    (:data:`ubongo_cp.shipped.SHIPPED_PIECE_SETS`) or a file path, relative
    to ``relative_to``'s folder (else to the current folder).

    Parameters
    ----------
    spec : str or path
        The reference.
    relative_to : path, optional
        The file the reference was read from (a card, a deck spec).
    named_in_file : bool
        The reference is the content of that file (a ``pieces =`` line):
        it must name a shipped set, a file inside that file's folder (links
        resolved), or a file allowed with :func:`allowed_piece_files`.
        Otherwise it came from the user (command line, code) and may name
        any file.

    Raises
    ------
    InputError
        With ``named_in_file``, for a file outside the folder that is not allowed.
    """
    from pathlib import Path

    return Path(_pieces_file(spec, relative_to=relative_to, named_in_file=named_in_file))


def _pieces_file(spec: str | os.PathLike, *, relative_to: str | os.PathLike | None = None,
                 named_in_file: bool = False) -> str | os.PathLike:
    """:func:`resolve_pieces_path`, a string for a shipped set or a path given alone (no :mod:`pathlib` on a
    command's common path), else a :class:`~pathlib.Path`."""
    spec_s = os.fspath(spec)
    if spec_s in SHIPPED_PIECE_SETS:
        return piece_set_file(spec_s)
    if relative_to is None and not named_in_file:
        return spec_s       # the user's own spelling
    from pathlib import Path

    path = Path(spec_s)
    base = Path(relative_to).parent if relative_to is not None else Path()
    candidate = path if path.is_absolute() else base / path
    if not named_in_file:
        return candidate
    folder = os.path.realpath(base)
    real = os.path.realpath(candidate)
    if os.path.commonpath([folder, real]) == folder or real in _ALLOWED.get():
        return candidate
    where = f"the folder of {relative_to}" if relative_to is not None else "the current folder"
    raise InputError(f"piece-set file {spec_s!r} is outside {where} and was not allowed: a card or deck spec may "
                     f"name a shipped set ({', '.join(SHIPPED_PIECE_SETS)}) or a file in its own folder; allow "
                     "another file explicitly to use it")


_GRID_OF = attrgetter("grid")
_CELLS_OF = attrgetter("cells")

#: A ``grid:`` line (:func:`_grid_line`).
_GRID_LINE = r"\s*grid\s*:\s*(\S*)\s*(%.*)?$"
#: The start of a line meant as a ``grid:`` line (refused with a message of its own when it is not one).
_GRID_START = r"\s*grid\s*:"


def _grid_line(line: str) -> re.Match[str] | None:
    """The match of ``line`` as a ``grid:`` line (:data:`_GRID_LINE`, any case), or None; a line without a ``:``
    is none, and the pattern is compiled only when a line has one (most regions and piece sets have none)."""
    return re.match(_GRID_LINE, line, re.IGNORECASE) if ":" in line else None


#: What starts a comment line in a piece-set or region file.
COMMENT = "%"
#: How other formats start a comment line (a name line starting so is taken for one; its message says so).
_OTHER_COMMENTS = ("#", "//", ";")


def _lines(text: str, *, path: str | None = None) -> tuple[Grid, list[tuple[int, str]]]:
    """The file's grid and its (1-based line number, line) pairs, comment lines and the grid line removed.

    Raises
    ------
    InputError
        For a ``grid:`` line naming no known grid, or one after the first line that is not a comment.
    """
    lines = [(i, ln) for i, ln in enumerate(text_lines(text), 1)
             if not ln.lstrip().startswith(COMMENT)]
    first = next((k for k, (_, ln) in enumerate(lines) if ln.strip()), None)
    if first is None:
        return SQUARE, lines
    match = _grid_line(lines[first][1])
    if match is None and ":" in lines[first][1] and re.match(_GRID_START, lines[first][1], re.IGNORECASE):
        raise InputError(f"malformed grid line {lines[first][1].strip()!r}: write 'grid: NAME' (square, hex, "
                         "triangle or cube), a '%' comment after it if any", path=path, line=lines[first][0])
    rest = lines[first + 1:] if match else lines
    late = next((i for i, ln in rest if _grid_line(ln)), None)
    if late is not None:
        raise InputError("a 'grid:' line must be the first line (comments apart), before the drawing",
                         path=path, line=late)
    if not match:
        return SQUARE, lines
    try:
        grid = get_grid(match.group(1).lower())
    except InputError as exc:
        raise InputError(exc.message, path=path, line=lines[first][0]) from None
    return grid, rest


def check_one_grid(pieces: Iterable[Piece], region: Region) -> None:
    """Refuse ``pieces`` of another grid than ``region`` (:func:`grid_mismatch`), naming the region's file and
    the line that sets its grid when it was read from one.

    Raises
    ------
    InputError
        When a piece is on another grid than the region.
    """
    mismatch = grid_mismatch(pieces, region)
    if mismatch:
        raise InputError(mismatch, path=region.path, line=region.line if region.path else None)


def grid_mismatch(pieces: Iterable[Piece], region: Region) -> str | None:
    """Why ``pieces`` cannot be placed in ``region`` because of their grids, or ``None``.

    Examples
    --------
    >>> from ubongo_cp.grids import HEX
    >>> print(grid_mismatch([Piece("H1", ((0, 0),), HEX)], Region.rectangle(1, 1)))
    the pieces are on the hex grid (H1) but the region is on the square grid: pieces fit only a region of their own grid
    """
    pieces = list(pieces)
    grid = region.grid
    if all(map(is_, map(_GRID_OF, pieces), repeat(grid))):    # piece by piece in C (a task of 22 pieces)
        return None
    other = next(p for p in pieces if p.grid is not grid)
    return (f"the pieces are on the {other.grid.name} grid ({other.name}) but the region is on the "
            f"{region.grid.name} grid: pieces fit only a region of their own grid")


def parse_pieces(text: str, *, path: str | None = None) -> PieceSet:
    """Parse a piece-set file's text.

    Raises
    ------
    InputError
        Naming the line: empty file, an unknown grid, a block without a
        name or a shape, characters or cells the grid does not have, a
        disconnected piece, a duplicate name.

    Examples
    --------
    >>> ps = parse_pieces("I2\\n#\\n#\\n\\nL3\\n#.\\n##\\n")
    >>> ps.names, ps["L3"].cells
    (['I2', 'L3'], ((0, 0), (1, 0), (1, 1)))
    >>> ps = parse_pieces("grid: triangle\\n\\nI3\\n^v^\\n")
    >>> ps.grid.name, ps["I3"].cells
    ('triangle', ((0, 0), (0, 1), (0, 2)))
    """
    if "\x00" in text:
        raise InputError("not a piece-set file (it holds NUL bytes)", path=path)
    grid, numbered = _lines(text, path=path)
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    for number, line in numbered:
        if line.strip():
            current.append((number, line))
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    if not blocks:
        raise InputError("no pieces in file", path=path)
    pieces: list[Piece] = []
    first_seen: dict[str, tuple[int, str]] = {}
    for block in blocks:
        name_line, name = block[0][0], block[0][1].strip()
        if set(name) <= set(grid.text_chars):
            layers = (f"; a piece's layers are separated by {grid.layer_separator}, a blank line ends the piece"
                      if grid.layer_separator else "")
            raise InputError(f"block has no piece name (its first line is a shape row){layers}",
                             path=path, line=name_line)
        if len(block) < 2:
            raise InputError(f"empty shape: {_piece(name)} has no rows", path=path, line=name_line)
        problem = name_problem(name, in_file=True)
        if problem:
            if name.startswith(_OTHER_COMMENTS):   # '# my pieces': a comment as other formats write one
                problem += f"; a comment line starts with {COMMENT!r} in this format"
            raise InputError(problem, path=path, line=name_line)
        # Names alike once normalised (NFC): 'Ä' as one code point or as 'A' and a combining mark print the same.
        key = normal_name(name)
        if key in first_seen:
            first, spelt = first_seen[key]
            alike = "" if spelt == name else ", written with other Unicode code points: give each piece a name of its own"
            raise InputError(f"{_piece(name)} appears twice (first at line {first}{alike})", path=path, line=name_line)
        first_seen[key] = name_line, name
        for number, row in block[2:]:   # a name in a shape: the blank line before the next piece left out
            word = row.strip()
            if not set(word) & set(grid.text_chars) and not name_problem(word, in_file=True):
                raise InputError(f"{_piece(word)} starts inside the shape of {_piece(name)}: a blank line must end "
                                 "each piece's shape, before the next piece's name", path=path, line=number)
        marks = _cell_marks(block[1:])   # counted before the shape is read cell by cell
        if marks > MAX_PIECE_CELLS:
            raise InputError(f"{_piece(name)} has {marks} cells, over the limit of {MAX_PIECE_CELLS} (2**20, the most "
                             "the search engines place)", path=path, line=name_line)
        cells = grid.parse([ln for _, ln in block[1:]], path=path, first_line=block[1][0])
        if not grid.is_connected(cells):
            raise InputError(f"{_piece(name)} is disconnected", path=path, line=name_line)
        pieces.append(Piece._read(name, cells, grid))
    return PieceSet(tuple(pieces), path, grid)


def normal_name(name: str) -> str:
    """``name`` in Unicode normal form C (composed: 'A' and a combining diaeresis read as 'Ä'), to tell names
    that print alike; :mod:`unicodedata` loaded only for a name that is not ASCII."""
    if name.isascii():
        return name
    import unicodedata

    return unicodedata.normalize("NFC", name)


def _cell_marks(lines: list[tuple[int, str]]) -> int:
    """The cells drawn on numbered ``lines`` of a picture, on every grid (``#``, ``^``, ``v``), counted without
    reading them: a huge picture is refused at once, in little memory."""
    return sum(ln.count("#") + ln.count("^") + ln.count("v") for _, ln in lines)


#: Most cells of a piece: the placement kernel's orientations of a shape (``_placements.c``) take 1 to 2**20.
MAX_PIECE_CELLS = 2 ** 20

#: Longest piece name an error message quotes.
_QUOTED_NAME = 24


def _piece(name: str) -> str:
    """``"piece 'L5'"`` for an error message; a name that does not look like one (long, or holding
    unprintable characters) is not quoted: an error never echoes a file that is not a piece set."""
    if len(name) <= _QUOTED_NAME and name.isprintable():
        return f"piece {name!r}"
    return "the piece named on this line"


def load_pieces(spec: str | os.PathLike = "classic") -> PieceSet:
    """Read a piece-set file or a shipped set by short name.

    Parameters
    ----------
    spec : str or path
        A shipped set's name (:data:`ubongo_cp.shipped.SHIPPED_PIECE_SETS`) or a file.

    Raises
    ------
    InputError
        For a missing/unreadable file or malformed content (see :func:`parse_pieces`); a bare name that is
        neither a file nor a shipped set is said to be so, with the shipped set it most looks like; a ``spec``
        that is no text or path (a list of piece names, a number) is named.

    Examples
    --------
    >>> len(load_pieces("duel")), load_pieces("classic").total_area
    (21, 48)
    """
    if not isinstance(spec, (str, os.PathLike)):
        from .errors import cut

        raise InputError(f"a piece set is a shipped set's name or a file's path, got {type(spec).__name__} "
                         f"{cut(repr(spec))} (pieces by name: load_pieces(...).select(names))")
    path = _pieces_file(spec)
    label = os.fspath(spec) if os.fspath(spec) not in SHIPPED_PIECE_SETS else os.fspath(path)
    if os.path.basename(path) == label and not os.path.splitext(label)[1] and not os.path.exists(path):
        # a mistyped shipped set's name
        from difflib import get_close_matches

        like = get_close_matches(label, SHIPPED_PIECE_SETS, n=1)
        raise InputError(f"{label!r} is neither a file nor a shipped piece set ({', '.join(SHIPPED_PIECE_SETS)})"
                         + (f"; did you mean {like[0]!r}?" if like else ""))
    text = read_text(path)
    try:
        return _parse_pieces_cached(text, label)
    except InputError as exc:   # a card side, an exact-cover file: said so, not as a bad name on its line 1
        raise wrong_format(text, label, "text", "a piece-set file", exc.line) or exc from None


@lru_cache(maxsize=32)
def _parse_pieces_cached(text: str, path: str) -> PieceSet:
    """:func:`parse_pieces`, once per distinct file content: every card of a
    deck names the same piece set, and a :class:`PieceSet` is immutable."""
    return parse_pieces(text, path=path)


def parse_region(text: str, *, path: str | None = None, max_cells: int = MAX_REGION_CELLS,
                 grid: str | Grid | None = None) -> Region:
    """Parse a region picture (its ``grid:`` line, or ``grid``, names the grid; default square).

    Blank lines before and after the picture are ignored; a blank line inside
    it is an empty row.

    Parameters
    ----------
    text : str
    path : str, optional
        For messages.
    max_cells : int
        Largest region accepted.
    grid : str or Grid, optional
        The grid when the text names none (a card's region is on its
        pieces' grid); a ``grid:`` line naming another is refused.

    Raises
    ------
    InputError
        Unknown characters or cells the grid does not have, no cell, more
        than ``max_cells`` cells, a ``grid:`` line that contradicts ``grid``,
        a ``max_cells`` that is not a whole number of at least 1.

    Examples
    --------
    >>> parse_region("grid: hex\\n # #\\n# # #\\n # #\\n").area
    7
    """
    if not isinstance(text, str):
        raise InputError(f"a region is read from its text (a str), got {type(text).__name__}", path=path)
    max_cells = whole_argument("max_cells", max_cells, 1)   # NaN compared False with every size: no limit
    named, lines = _lines(text, path=path)
    header = next((i for i, ln in enumerate(text_lines(text), 1) if _grid_line(ln)), None)
    if grid is not None:
        grid = get_grid(grid)
        if named is not grid and named is not SQUARE:
            raise InputError(f"the region is drawn on the {named.name} grid, its pieces on the {grid.name} grid: "
                             "pieces fit only a region of their own grid", path=path, line=header)
        named = grid
    grid = named
    drawn = [i for i, (_, ln) in enumerate(lines) if ln.strip()]
    if not drawn:
        raise InputError("empty region: no cell", path=path)
    lines = lines[drawn[0]:drawn[-1] + 1]   # blank lines around the picture cut at once (not one by one)
    # Counted before the picture is read cell by cell: a huge file is refused at once, in little memory.
    marks = _cell_marks(lines)
    if marks > max_cells:
        raise InputError(f"region has {marks} cells, over the limit of {max_cells} ({max_cells_hint()})", path=path)
    cells = grid.parse([ln for _, ln in lines], path=path, first_line=lines[0][0])
    if len(cells) > max_cells:
        raise InputError(f"region has {len(cells)} cells, over the limit of {max_cells} ({max_cells_hint()})",
                         path=path)
    return Region(cells, path, grid, line=header or lines[0][0])


def load_region(path: str | os.PathLike, *, max_cells: int = MAX_REGION_CELLS,
                grid: str | Grid | None = None) -> Region:
    """Read a region file (see :func:`parse_region`).

    Raises
    ------
    InputError
        For a missing/unreadable file or malformed content.
    """
    text = read_text(path)
    try:
        return parse_region(text, path=os.fspath(path), max_cells=max_cells, grid=grid)
    except InputError as exc:   # a card side, an exact-cover file: said so, not as a bad character on its line 1
        raise wrong_format(text, os.fspath(path), "text", "a region file", exc.line) or exc from None
