"""Pieces, piece-set catalogues and region files (ASCII format).

File format (shared by piece sets and regions): ``#`` is a cell, ``.`` is
empty, rows may be ragged, lines starting with ``%`` are comments.

- A *piece-set file* is a sequence of blocks separated by a blank line; the
  first line of a block is the piece name, the following lines its shape.
- A *region file* is one grid.

The shipped catalogues (``classic``, ``duel``, ``pentominoes``,
``tetrominoes``) are package data (:mod:`ubongo_cp.shipped`); their shapes are
the public facts of ``RULES.md`` §1. A catalogue can be named by its short
name or by a path.

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
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Iterable, Iterator

from .errors import InputError
from .io import read_text
from .geometry import MAX_REGION_CELLS, Shape, format_grid, is_connected, normalize, orientations, parse_grid
from .shipped import SHIPPED_PIECE_SETS, piece_set_path

__all__ = [
    "Piece",
    "PieceSet",
    "name_problem",
    "Region",
    "resolve_pieces_path",
    "allowed_piece_files",
    "parse_pieces",
    "load_pieces",
    "parse_region",
    "load_region",
]


@dataclass(frozen=True)
class Piece:
    """A named polyomino.

    Attributes
    ----------
    name : str
        Name used in tasks and card files (e.g. ``"L5"``, ``"A"``).
    cells : Shape
        Normalised cells ``(row, col)``.
    """

    name: str
    cells: Shape

    def __post_init__(self) -> None:
        problem = name_problem(self.name)
        if problem:
            raise InputError(problem)

    @property
    def size(self) -> int:
        """Number of cells."""
        return len(self.cells)

    def orientations(self, mode: str = "free") -> list[Shape]:
        """Distinct fixed orientations (see :func:`ubongo_cp.geometry.orientations`)."""
        return _orientations_cached(self.cells, mode)

    def __str__(self) -> str:
        return f"{self.name}\n{format_grid(self.cells)}"


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot name a piece, or ``None``.

    A name is not empty and holds no white space and no ``#``: further copies
    of a piece are labelled ``name#2``, ``name#3``, ... in solutions
    (:attr:`ubongo_cp.cover.ExactCoverInstance.copy_names`), so a ``#`` in a
    name could be taken for another piece's copy.

    Examples
    --------
    >>> name_problem("L5") is None, name_problem("A#2")
    (True, "piece 'A#2' contains '#', which marks a further copy of a piece (A#2 = the second A)")
    """
    if not name:
        return "empty piece name"
    if any(ch.isspace() for ch in name):
        return "the piece name on this line contains white space"
    if "#" in name:
        return f"{_piece(name)} contains '#', which marks a further copy of a piece (A#2 = the second A)"
    return None


_ORIENT_CACHE: dict[tuple[Shape, str], list[Shape]] = {}


def _orientations_cached(cells: Shape, mode: str) -> list[Shape]:
    key = (cells, mode)
    if key not in _ORIENT_CACHE:
        _ORIENT_CACHE[key] = orientations(cells, mode)
    return _ORIENT_CACHE[key]


@dataclass(frozen=True)
class PieceSet:
    """An ordered catalogue of distinct named pieces.

    Attributes
    ----------
    pieces : tuple of Piece
        In file order.
    path : str or None
        The file it was read from.
    """

    pieces: tuple[Piece, ...]
    path: str | None = None
    _by_name: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_name.update((p.name, p) for p in self.pieces)

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

    def select(self, names: Iterable[str] | None = None) -> list[Piece]:
        """The pieces named (a name may repeat: a multiset); all pieces when ``None``.

        Raises
        ------
        InputError
            For a name not in the set.
        """
        if names is None:
            return list(self.pieces)
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


@dataclass(frozen=True)
class Region:
    """A target region: a set of cells (not necessarily a rectangle).

    Attributes
    ----------
    cells : Shape
        Normalised, sorted cells ``(row, col)``.
    path : str or None
        The file it was read from.
    """

    cells: Shape
    path: str | None = None

    @property
    def area(self) -> int:
        """Number of cells."""
        return len(self.cells)

    @property
    def height(self) -> int:
        """Rows of the bounding box."""
        return 1 + max(r for r, _ in self.cells)

    @property
    def width(self) -> int:
        """Columns of the bounding box."""
        return 1 + max(c for _, c in self.cells)

    @classmethod
    def rectangle(cls, height: int, width: int) -> "Region":
        """A ``height`` x ``width`` rectangle.

        Examples
        --------
        >>> Region.rectangle(2, 3).area
        6
        """
        if height <= 0 or width <= 0:
            raise InputError(f"rectangle {height}x{width} has no cells")
        return cls(tuple((r, c) for r in range(height) for c in range(width)))

    @classmethod
    def from_ascii(cls, text: str, *, path: str | None = None) -> "Region":
        """Parse a region from ASCII text (see :func:`parse_region`)."""
        return parse_region(text, path=path)

    def to_ascii(self) -> str:
        """The region as ``#``/``.`` rows."""
        return format_grid(self.cells)

    def draw(self, *, cell_mm: float = 8.0):
        """The region with its cell grid (a matplotlib Figure; see :mod:`ubongo_cp.draw`)."""
        from .draw.figures import region_figure

        return region_figure(self.cells, cell_mm=cell_mm)

    def _repr_svg_(self) -> str:
        """The picture a notebook shows (matplotlib is imported only here)."""
        from .draw.figures import figure_svg

        return figure_svg(self.draw())


#: Real paths of piece-set files allowed beyond the folder of the file naming them.
_ALLOWED: ContextVar[frozenset[str]] = ContextVar("allowed_piece_files", default=frozenset())


@contextmanager
def allowed_piece_files(paths: Iterable[str | os.PathLike]) -> Iterator[None]:
    """Within the block, cards and deck specs may also name these piece-set files (see the module docstring).

    Examples
    --------
    >>> with allowed_piece_files(["/srv/shared/pieces.txt"]):
    ...     pass
    """
    token = _ALLOWED.set(_ALLOWED.get() | {os.path.realpath(p) for p in paths})
    try:
        yield
    finally:
        _ALLOWED.reset(token)


def resolve_pieces_path(spec: str | os.PathLike, *, relative_to: str | os.PathLike | None = None,
                        named_in_file: bool = False) -> Path:
    """Turn a piece-set reference into a path.

    ``spec`` is the short name of a shipped set (``classic``, ``duel``,
    ``pentominoes``, ``tetrominoes``) or a file path, relative to
    ``relative_to``'s folder (else to the current folder).

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
    spec_s = os.fspath(spec)
    if spec_s in SHIPPED_PIECE_SETS:
        return piece_set_path(spec_s)
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


def _lines(text: str) -> list[tuple[int, str]]:
    """(1-based line number, line) pairs with comment lines removed."""
    return [(i, ln.rstrip("\r\n")) for i, ln in enumerate(text.splitlines(), 1)
            if not ln.lstrip().startswith("%")]


def parse_pieces(text: str, *, path: str | None = None) -> PieceSet:
    """Parse a piece-set file's text.

    Raises
    ------
    InputError
        Naming the line: empty file, a block without a name or a shape,
        unknown characters, a disconnected piece, a duplicate name.

    Examples
    --------
    >>> ps = parse_pieces("I2\\n#\\n#\\n\\nL3\\n#.\\n##\\n")
    >>> ps.names, ps["L3"].cells
    (['I2', 'L3'], ((0, 0), (1, 0), (1, 1)))
    """
    if "\x00" in text:
        raise InputError("not a piece-set file (it holds NUL bytes)", path=path)
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    for number, line in _lines(text):
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
    first_seen: dict[str, int] = {}
    for block in blocks:
        name_line, name = block[0][0], block[0][1].strip()
        if set(name) <= {"#", "."}:
            raise InputError("block has no piece name (its first line is a shape row)", path=path, line=name_line)
        if len(block) < 2:
            raise InputError(f"empty shape: {_piece(name)} has no rows", path=path, line=name_line)
        problem = name_problem(name)
        if problem:
            raise InputError(problem, path=path, line=name_line)
        if name in first_seen:
            raise InputError(f"{_piece(name)} appears twice (first at line {first_seen[name]})",
                             path=path, line=name_line)
        first_seen[name] = name_line
        cells = parse_grid([ln for _, ln in block[1:]], path=path, first_line=block[1][0])
        if not is_connected(cells):
            raise InputError(f"{_piece(name)} is disconnected", path=path, line=name_line)
        pieces.append(Piece(name, cells))
    return PieceSet(tuple(pieces), path)


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
        ``"classic"``, ``"duel"``, ``"pentominoes"``, ``"tetrominoes"`` or a file.

    Raises
    ------
    InputError
        For a missing/unreadable file or malformed content (see :func:`parse_pieces`).

    Examples
    --------
    >>> len(load_pieces("duel")), load_pieces("classic").total_area
    (21, 48)
    """
    path = resolve_pieces_path(spec)
    label = os.fspath(spec) if os.fspath(spec) not in SHIPPED_PIECE_SETS else os.fspath(path)
    return _parse_pieces_cached(read_text(path), label)


@lru_cache(maxsize=32)
def _parse_pieces_cached(text: str, path: str) -> PieceSet:
    """:func:`parse_pieces`, once per distinct file content: every card of a
    deck names the same piece set, and a :class:`PieceSet` is immutable."""
    return parse_pieces(text, path=path)


def parse_region(text: str, *, path: str | None = None, max_cells: int = MAX_REGION_CELLS) -> Region:
    """Parse a region grid.

    Blank lines before and after the grid are ignored; a blank line inside it
    is an empty row.

    Raises
    ------
    InputError
        Unknown characters, no cell, or more than ``max_cells`` cells.
    """
    lines = _lines(text)
    while lines and not lines[0][1].strip():
        lines.pop(0)
    while lines and not lines[-1][1].strip():
        lines.pop()
    if not lines:
        raise InputError("empty region: no '#' cell", path=path)
    cells = parse_grid([ln for _, ln in lines], path=path, first_line=lines[0][0])
    if len(cells) > max_cells:
        raise InputError(f"region has {len(cells)} cells, over the limit of {max_cells} (a guard against a "
                         "mistyped region; raise max_cells for larger puzzles)", path=path)
    return Region(normalize(cells), path)


def load_region(path: str | os.PathLike, *, max_cells: int = MAX_REGION_CELLS) -> Region:
    """Read a region file (see :func:`parse_region`).

    Raises
    ------
    InputError
        For a missing/unreadable file or malformed content.
    """
    return parse_region(read_text(path), path=os.fspath(path), max_cells=max_cells)
