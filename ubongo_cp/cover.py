"""Placements of pieces in a region as one exact-cover instance.

The only place that enumerates placements: every solver backend, the
rating, the subset analysis and the generator consume its
:class:`ExactCoverInstance`. The reduction (Knuth's polyomino examples [1]_,
OR-Tools' ``pentominoes_sat.py``), identical pieces as *items with
multiplicities* (Knuth's Algorithm M [1]_):

- *items*: one per region cell, then one per *piece type*;
- *options*: one per placement (piece type, fixed orientation, offset) in
  the region, holding the covered cell items and the type's item; on any
  grid (:mod:`ubongo_cp.grids`: the placements are the translations of
  each orientation that keep the grid onto itself);
- cell items are *primary* (covered exactly once, rule UP-2); a type item
  with ``k`` copies is primary with multiplicity ``[k..k]`` (each piece used
  exactly once, UP-2) or, for subset analysis, secondary with ``[0..k]``;
- a region's optional cells (:attr:`Region.optional`, BurrTools' variable
  voxels) are secondary items after the types: covered at most once.

A *piece type* is a class of identical pieces (UP-5): the same shape under
the orientation mode, whatever the names, so ``B, B, B, B`` and ``B1, B2,
B3, B4`` (four 2x2 squares) give the same instance, search and count (with
optional pieces types are by name: the subset analysis reports names). A
solution is a *set* of placements: no copy ordering is ever enumerated.
The output keeps copies apart (:meth:`ExactCoverInstance.solution_dict`:
``name``, ``name#2``, ... for a name used twice). Items are numbered cells
first (sorted cell order), then types, then the optional cells: secondary items last, as solvers expect.

References
----------
.. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 4B, 7.2.2.1 "Dancing links" (2022): primary
   and secondary items, Algorithm M (multiplicities); "Dancing Links", arXiv:cs/0011047 (2000).
"""

from __future__ import annotations

import sys
from array import array
from collections import Counter
from functools import cached_property, lru_cache
from itertools import accumulate, chain, repeat
from operator import add, attrgetter, itemgetter, mul, sub
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

from .errors import InputError, whole_argument
from .geometry import Cell, Shape
from .grids.base import LazyOrientations, OrientationBatch, Orientations, c_placements
from .pieces import EMPTY, EmptyCell, Piece, Region, check_one_grid, orientations_of
from .structs import Struct, replace
from .structs import NamedTuple

TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any

    import numpy as np

    from .cards import CardSide
    from .verify import verify_solution

__all__ = ["ExactCoverInstance", "PlacementTable", "build_instance", "task_instance", "verify_solution",
           "piece_types", "empty_cell_piece", "kept", "item_counts", "EMPTY"]

#: How a region's cells are counted on each grid (a region is read with its cells in normal position), for the
#: message that refuses a cell outside it.
_COUNTED = {
    "square": "rows and columns are counted from the region's first row and first column",
    "cube": "layers, rows and columns are counted from the region's first layer, row and column",
    "hex": "axial q and r are counted from the region's smallest q and r",
    "triangle": "rows are counted from the region's first row and columns from its first column, or the one "
                "before it where that keeps up triangles at an even row + column",
}


class PlacementTable(NamedTuple):
    """The options of an instance in plain arrays (module :mod:`array`): what a search reads without numpy.

    Attributes
    ----------
    indptr, indices : array.array of unsigned int ('I')
        The options in CSR form: option ``o`` covers items ``indices[indptr[o]:indptr[o+1]]``
        (cells first, then the type's item).
    option_type : array.array of int ('i')
        Piece type of each option (a type's options are contiguous).
    option_orientation : array.array of short ('h')
        Index into ``type_piece(t).orientations(mode)`` of each option.
    option_offset : array.array of int ('i')
        (row, col) added to the orientation's cells, two entries per option.
    """

    indptr: array
    indices: array
    option_type: array
    option_orientation: array
    option_offset: array


class ExactCoverInstance(Struct):
    """One exact-cover instance: pieces to place in a region.

    The options are held in plain arrays (:attr:`table`); the numpy views
    below are made (and numpy imported) on first use, so that a search on
    the bitboard kernel runs without numpy.

    Two instances are equal when they are the same problem: equal pieces,
    region (:class:`~ubongo_cp.pieces.Region` equality: its cells, grid,
    optional cells and file), rules and options, whether or not they are one
    object (two built the same way are equal). An instance is hashable (by
    every field but :attr:`table`, which those fields determine), so it may
    be a dictionary key or a set member.

    Attributes
    ----------
    pieces : tuple of Piece
        The piece copies to place (names may repeat).
    region : Region
        The target region.
    optional_pieces : bool
        ``True`` when piece items are secondary (each piece at most once).
    mode : str
        Orientation mode (``"free"`` by rule UP-3).
    types : tuple of tuple of int
        The piece types (identical pieces, UP-5): indices into :attr:`pieces`
        of each type's copies (:func:`piece_types`). Type ``t`` is item ``n_cells + t``.
    table : PlacementTable
        The options in plain arrays.
    ranges : tuple of (int, int), or None
        Bounds ``(lo, hi)`` on the number of pieces of each type used, when a
        range of copies was asked for (the type then holds ``hi`` copies);
        None: every copy is used (or, with ``optional_pieces``, any number up to the copies).
    empty_type : int
        The type of the cells left empty (:data:`~ubongo_cp.pieces.EMPTY`, ``max_empty`` of
        :func:`build_instance`: monominoes ``[0..max_empty]``), or -1.
    assigned : tuple of (str, tuple of cells)
        Cells pre-assigned to pieces (:meth:`assign`): the options are then
        only those that respect them, and the instance claims no symmetry.
    indptr, indices : numpy.ndarray of uint32
        The options in CSR form: option ``o`` covers items
        ``indices[indptr[o]:indptr[o+1]]`` (cells first, then the type's item).
    option_type : numpy.ndarray of int32, shape (n_options,)
        Index into :attr:`types` of each option's piece type (a type's
        options are contiguous).
    option_orientation : numpy.ndarray of int16, shape (n_options,)
        Index into ``type_piece(t).orientations(mode)``.
    option_offset : numpy.ndarray of int32, shape (n_options, dim)
        Added to the orientation's cells (``(row, col)`` on squares; ``dim``
        coordinates per cell, :attr:`ubongo_cp.grids.Grid.dim`).
    """

    pieces: tuple[Piece, ...]
    region: Region
    optional_pieces: bool
    mode: str
    types: tuple[tuple[int, ...], ...]
    table: PlacementTable
    ranges: tuple[tuple[int, int], ...] | None
    empty_type: int
    assigned: tuple

    def __init__(self, pieces: tuple[Piece, ...], region: Region, optional_pieces: bool, mode: str,
                 types: tuple[tuple[int, ...], ...], table: PlacementTable,
                 ranges: tuple[tuple[int, int], ...] | None = None, empty_type: int = -1, assigned: tuple = ()) -> None:
        self._set(pieces=pieces, region=region, optional_pieces=optional_pieces, mode=mode, types=types, table=table,
                  ranges=ranges, empty_type=empty_type, assigned=assigned)

    def _problem(self) -> tuple:
        """The fields but the options' arrays (which they determine): the hash, and the cheap part of equality."""
        return (self.pieces, self.region, self.optional_pieces, self.mode, self.types, self.ranges, self.empty_type,
                self.assigned)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, ExactCoverInstance)
        return self is other or (self._problem() == other._problem() and self.table == other.table)

    def __hash__(self) -> int:
        return hash(self._problem())

    # ------------------------------------------------------------ numpy views
    @cached_property
    def indptr(self) -> np.ndarray:
        """CSR row pointers of the options, shape (n_options + 1,), uint32."""
        return _view(self.table.indptr, "uint32")

    @cached_property
    def indices(self) -> np.ndarray:
        """Items of the options, in CSR order, uint32."""
        return _view(self.table.indices, "uint32")

    @cached_property
    def option_type(self) -> np.ndarray:
        """Piece type of each option, shape (n_options,), int32."""
        return _view(self.table.option_type, "int32")

    @cached_property
    def option_orientation(self) -> np.ndarray:
        """Orientation of each option, shape (n_options,), int16."""
        return _view(self.table.option_orientation, "int16")

    @cached_property
    def option_offset(self) -> np.ndarray:
        """Offset of each option, shape (n_options, dim), int32 (``(row, col)`` on squares)."""
        return _view(self.table.option_offset, "int32").reshape(-1, self.region.grid.dim)

    # ------------------------------------------------------------------ sizes
    @property
    def n_cells(self) -> int:
        """Number of cell items (the region's area)."""
        return self.region.area

    @property
    def n_types(self) -> int:
        """Number of piece types (one item each)."""
        return len(self.types)

    @property
    def n_items(self) -> int:
        """Cell items plus piece-type items (plus the optional cells' items)."""
        return self.region.area + len(self.types) + len(self.region.optional)

    @property
    def n_primary(self) -> int:
        """Items that must be covered (cells once, piece types as often as they have copies)."""
        return self.n_cells if self.optional_pieces else self.n_cells + len(self.types)

    @property
    def n_secondary(self) -> int:
        """Items covered at most their multiplicity (the piece types in subset analysis)."""
        return self.n_items - self.n_primary

    @property
    def n_options(self) -> int:
        """Number of placements."""
        return len(self.table.option_type)

    # ------------------------------------------------------------ structure
    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        """Cell of each cell item."""
        return tuple(self.region.cells)

    @cached_property
    def _item_cell(self) -> dict[int, Cell]:
        """Cell of each item that is a cell: the cell items, then the optional cells' items after the types."""
        first = self.n_cells + self.n_types
        return {**dict(enumerate(self.cells)), **{first + j: c for j, c in enumerate(self.region.optional)}}

    @cached_property
    def _cell_item(self) -> dict[Cell, int]:
        """Item of each cell a piece may cover: the region's cells and its optional cells (:attr:`_item_cell`)."""
        return {cell: i for i, cell in self._item_cell.items()}

    def type_piece(self, t: int) -> Piece:
        """The piece (first copy) that stands for type ``t``.

        Raises
        ------
        InputError
            For ``t`` that is not a type ``0 .. n_types - 1`` (a negative one would name another type).
        """
        t = whole_argument("a piece type", t, 0)
        if t >= len(self.types):
            raise InputError(f"piece type {t} is not a type of the instance (it has {len(self.types)}: 0 .. "
                             f"{len(self.types) - 1})")
        return self.pieces[self.types[t][0]]

    @property
    def copies(self) -> tuple[int, ...]:
        """Copies of each piece type (as :attr:`type_counts`, without numpy)."""
        return tuple(len(c) for c in self.types)

    @cached_property
    def type_counts(self) -> np.ndarray:
        """Copies of each piece type, shape (n_types,)."""
        import numpy as np

        return np.array(self.copies, dtype=np.int64)

    @property
    def type_bounds(self) -> list[tuple[int, int]]:
        """Bounds ``(lo, hi)`` of each type's item: ``(k, k)`` for ``k`` copies, ``(0, k)`` with optional pieces.

        With :attr:`ranges`, those bounds (Algorithm M's ``[u..v]`` on the type's primary item).
        """
        if self.ranges is not None:
            return list(self.ranges)
        return [(0 if self.optional_pieces else k, k) for k in self.copies]

    @property
    def has_ranges(self) -> bool:
        """Whether some piece type may be used a varying number of times (a range ``lo < hi``, cells left empty)."""
        return self.ranges is not None and any(lo != hi for lo, hi in self.ranges)

    @cached_property
    def multiplicity(self) -> np.ndarray:
        """Bounds ``(lo, hi)`` of each item, shape (n_items, 2) (Algorithm M, :func:`.solvers.dancing.count`).

        ``(1, 1)`` for a cell; ``(k, k)`` for a type with ``k`` copies (``(0, k)`` with optional pieces).
        """
        import numpy as np

        bounds = np.ones((self.n_items, 2), dtype=np.int64)
        if self.n_types:   # every piece ranged out (0..0): no type item
            bounds[self.n_cells:self.n_cells + self.n_types] = self.type_bounds
        bounds[self.n_cells + self.n_types:, 0] = 0    # optional cells: at most once
        return bounds

    #: Colours of entries (Algorithm C): a polyomino instance has none (see :mod:`ubongo_cp.exactcover`).
    colours = None

    @cached_property
    def copy_names(self) -> tuple[str, ...]:
        """Key of each piece copy in solutions: its name, ``name#2``, ``name#3``, ... for a name used again."""
        seen: dict[str, int] = {}
        names = []
        for p in self.pieces:
            seen[p.name] = seen.get(p.name, 0) + 1
            names.append(p.name if seen[p.name] == 1 else f"{p.name}#{seen[p.name]}")
        return tuple(names)

    @cached_property
    def _type_starts(self) -> list[int]:
        """Id of each type's first option, and n_options at the end (a type's options are contiguous)."""
        # Types in order (as built): each type's first option is the number of options of the types before it,
        # counted by the pre-check's item counts (an option covers its type's item once). Checked: each type with
        # options holds its option at that start. Then, by induction over the types, the options of the types
        # before t fill [0, start(t)) (for t = 0, nothing): t's run, contiguous and not before start(t), begins
        # there and fills [start(t), start(t + 1)).
        option_type = self.table.option_type
        per_type = self._per_item[self.n_cells:self.n_cells + self.n_types]
        starts = list(accumulate(per_type, initial=0))
        if len(per_type) == self.n_types and starts[-1] == self.n_options and \
                all(option_type[s] == t for t, (s, k) in enumerate(zip(starts, per_type)) if k):
            return starts
        starts = [self.n_options] * (self.n_types + 1)
        for o in range(len(option_type) - 1, -1, -1):
            starts[option_type[o]] = o
        for t in range(self.n_types - 1, -1, -1):  # a type without options starts where the next one does
            starts[t] = min(starts[t], starts[t + 1])
        return starts

    @cached_property
    def type_options(self) -> tuple[range, ...]:
        """The options of each piece type (those covering its item), as a range: a type's options are contiguous."""
        starts = self._type_starts
        return tuple(range(a, b) for a, b in zip(starts, starts[1:]))

    @cached_property
    def derived(self) -> dict:
        """Results of pure functions of the instance that solvers compute once and keep here, by a key naming
        the function and its arguments (:func:`kept`)."""
        return {}

    @cached_property
    def type_first_option(self) -> np.ndarray:
        """Id of each type's first option, shape (n_types,) (a type's options are contiguous)."""
        import numpy as np

        return np.array(self._type_starts[:-1], dtype=np.int64)

    def option_items(self, option: int) -> np.ndarray:
        """Items covered by ``option`` (cells first, then the type's item).

        Raises
        ------
        InputError
            For ``option`` that is not an option id ``0 .. n_options - 1`` (:meth:`check_option`).
        """
        option = self.check_option(option)
        return self.indices[self.indptr[option]:self.indptr[option + 1]]

    def option_cells(self, option: int) -> list[Cell]:
        """Region cells covered by ``option`` (as ``(row, col)`` on squares).

        Raises
        ------
        InputError
            For ``option`` that is not an option id ``0 .. n_options - 1`` (:meth:`check_option`).
        """
        return self._option_cells(self.check_option(option))

    def check_option(self, option) -> int:
        """``option`` as an int when it is an option id ``0 .. n_options - 1``; else an :class:`InputError`
        naming it (a negative id would read another option, or none).

        Examples
        --------
        >>> from ubongo_cp.pieces import load_pieces, Region
        >>> instance = build_instance([load_pieces("classic")["I2"]], Region.rectangle(1, 2))
        >>> instance.check_option(0)
        0
        >>> instance.check_option(-1)
        Traceback (most recent call last):
        ...
        ubongo_cp.errors.InputError: an option id must be a whole number of at least 0, got -1
        """
        option = whole_argument("an option id", option, 0)
        if option >= self.n_options:
            raise InputError(f"option {option} is not an option of the instance (it has {self.n_options})")
        return option

    def _option_cells(self, option: int) -> list[Cell]:
        """:meth:`option_cells` of an option id known to be one."""
        where, table = self._item_cell, self.table
        return [where[i] for i in table.indices[table.indptr[option]:table.indptr[option + 1]] if i in where]

    @cached_property
    def _item_csr(self) -> tuple[np.ndarray, np.ndarray]:
        """The transpose of the options: (pointers, shape (n_items + 1,); option ids, shape (entries,))."""
        import numpy as np

        option_of_entry = np.repeat(np.arange(self.n_options), np.diff(self.indptr.astype(np.int64)))
        order = np.argsort(self.indices, kind="stable")  # stable: each item's options stay increasing
        ptr = np.searchsorted(self.indices[order], np.arange(self.n_items + 1))
        return ptr, option_of_entry[order]

    @cached_property
    def item_options(self) -> tuple[list[int], ...]:
        """The options covering each item (a list of option ids, increasing), one list per item."""
        lists: list[list[int]] = [[] for _ in range(self.n_items)]
        indptr, indices = self.table.indptr.tolist(), self.table.indices.tolist()
        for o in range(len(indptr) - 1):
            for i in indices[indptr[o]:indptr[o + 1]]:
                lists[i].append(o)
        return tuple(lists)

    @cached_property
    def _per_item(self) -> list[int]:
        """Number of placements covering each item."""
        return item_counts(self.table.indices, self.n_items)

    def options_per_item(self) -> np.ndarray:
        """Number of placements covering each item, shape (n_items,)."""
        import numpy as np

        return np.array(self._per_item, dtype=np.int64)

    def options_per_type(self) -> np.ndarray:
        """Number of placements of each piece type, shape (n_types,)."""
        return self.options_per_item()[self.n_cells:self.n_cells + self.n_types]

    def options_per_piece(self) -> np.ndarray:
        """Number of placements of each piece copy (those of its type), shape (len(pieces),)."""
        import numpy as np

        return np.array(self._per_piece, dtype=np.int64)

    @property
    def _per_piece(self) -> list[int]:
        per_type = self._per_item[self.n_cells:]
        per_copy = [0] * len(self.pieces)
        for t, copies in enumerate(self.types):
            for c in copies:
                per_copy[c] = per_type[t]
        return per_copy

    def options_per_cell(self) -> np.ndarray:
        """Number of placements covering each cell item, shape (n_cells,)."""
        return self.options_per_item()[:self.n_cells]

    def solution_dict(self, options: Iterable[int]) -> dict[str, list[Cell]]:
        """Piece copy -> sorted covered cells, for a solution given as option ids.

        Keys are :attr:`copy_names` (a name used twice: ``name``,
        ``name#2``, ...), in the order of :attr:`pieces`; the copies of a
        type take its chosen placements in increasing option id.

        Raises
        ------
        InputError
            For an id that is not an option id ``0 .. n_options - 1`` (:meth:`check_option`).
        """
        by_type: dict[int, list[int]] = {}
        option_type = self.table.option_type
        ids = sorted(int(o) for o in options)
        if ids and (ids[0] < 0 or ids[-1] >= self.n_options):   # checked at the ends: ids are sorted
            self.check_option(ids[0] if ids[0] < 0 else ids[-1])
        for o in ids:
            by_type.setdefault(option_type[o], []).append(o)
        empty = by_type.pop(self.empty_type, None)
        placed = sorted((copy, o) for t, opts in by_type.items() for copy, o in zip(self.types[t], opts))
        names = self.copy_names
        out = {names[copy]: sorted(self._option_cells(o)) for copy, o in placed}
        if empty is not None:  # the cells left empty, under one key
            out[EMPTY] = sorted(c for o in empty for c in self._option_cells(o))
        return out

    # --------------------------------------------------------- cheap checks
    def precheck(self) -> str | None:
        """Reason why no exact cover can exist, found without search; else ``None``.

        Checks (cheap, in this order): total piece area vs region area (UP-4;
        skipped when pieces are optional), a piece with no placement, a cell
        that no placement covers, and the colouring arguments of
        :mod:`ubongo_cp.colouring` (checkerboard, column and row stripes;
        with every piece used). Made once per instance.
        """
        return self._precheck

    @cached_property
    def _precheck(self) -> str | None:
        """:meth:`precheck`, made."""
        if self.has_ranges:
            return self._range_precheck()
        if not self.optional_pieces:
            area = sum(p.size for p in self.pieces)
            room = self.region.area + len(self.region.optional)
            if not self.region.area <= area <= room:
                held = f"{self.region.area}" if room == self.region.area else \
                    f"{self.region.area} to {room} ({len(self.region.optional)} optional)"
                return f"area mismatch: pieces cover {area} cell{'s' if area != 1 else ''}, region has {held}"
            per_piece = self._per_piece
            for i, p in enumerate(self.pieces):
                if per_piece[i] == 0:
                    return f"piece {p.name} fits nowhere in the region"
        per_cell = self._per_item[:self.n_cells]
        if 0 in per_cell:
            cell = ", ".join(map(str, self.cells[per_cell.index(0)]))
            return f"cell ({cell}) cannot be covered by any placement"
        if not self.optional_pieces and not self.region.optional:
            from .colouring import colouring_obstruction

            return colouring_obstruction(self.pieces, self.region, self.mode)
        return None

    def _range_precheck(self) -> str | None:
        """:meth:`precheck` with ranges of copies: the least and most area the pieces can cover (UP-4)."""
        sizes = [self.type_piece(t).size for t in range(self.n_types)]
        pieces = [t for t in range(self.n_types) if t != self.empty_type]
        least = sum(self.ranges[t][0] * sizes[t] for t in pieces)
        most = sum(self.ranges[t][1] * sizes[t] for t in pieces)
        empty = self.ranges[self.empty_type][1] if self.empty_type >= 0 else 0
        room = self.region.area + len(self.region.optional)
        if least > room or most + empty < self.region.area:
            covers = f"{least}" if least == most else f"{least} to {most}"
            return (f"area mismatch: pieces cover {covers} cell{'s' if covers != '1' else ''}, region has "
                    f"{self.region.area}"
                    + (f" to {room}" if room != self.region.area else "")
                    + (f" of which up to {empty} may stay empty" if empty else ""))
        per_type = self._per_item[self.n_cells:self.n_cells + self.n_types]
        for t, (lo, _) in enumerate(self.ranges):
            if lo and not per_type[t]:
                return f"piece {self.type_piece(t).name} fits nowhere in the region"
        per_cell = self._per_item[:self.n_cells]
        if 0 in per_cell:
            cell = ", ".join(map(str, self.cells[per_cell.index(0)]))
            return f"cell ({cell}) cannot be covered by any placement"
        return None

    # -------------------------------------------------------- partial boards
    @cached_property
    def _placement_index(self) -> dict[tuple[int, tuple[int, ...]], int]:
        """(type, sorted cell items) -> option id, for every placement."""
        table, n_types_end = self.table, self.n_cells + self.n_types
        out = {}
        for o in range(self.n_options):
            items = table.indices[table.indptr[o]:table.indptr[o + 1]]
            out[table.option_type[o], tuple(sorted(i for i in items if not self.n_cells <= i < n_types_end))] = o
        return out

    def fix(self, placements: Sequence[tuple[str, Sequence[Cell]]]) -> list[int]:
        """Option ids of placements given by piece and cells: a partial board (fixed placements).

        Parameters
        ----------
        placements : sequence of (str, sequence of (row, col))
            A piece (a name among :attr:`pieces`, or a copy key such as
            ``I2#2``: copies of a type are interchangeable, UP-5) and the
            region cells its placement covers (its optional cells too), in
            the region's coordinates (those of the solutions).

        Returns
        -------
        list of int
            One option id per placement, in the order given (for
            :func:`ubongo_cp.solvers.solve`'s ``fixed``).

        Raises
        ------
        InputError
            For anything but a list of (piece name, cells) pairs (one pair
            alone included), a piece not in the instance, cells that are not a
            placement of that piece in the region (under the orientation mode),
            two placements sharing a cell, or more placements of a piece type
            than it has copies.

        Examples
        --------
        >>> from ubongo_cp.pieces import load_pieces
        >>> inst = build_instance([load_pieces("classic")["I2"]] * 2, Region.rectangle(2, 2))
        >>> o = inst.fix([("I2", [(0, 1), (0, 0)])])[0]
        >>> inst.option_cells(o)
        [(0, 0), (0, 1)]
        >>> inst.fix([("I2", [(0, 0), (1, 1)])])
        Traceback (most recent call last):
        ...
        ubongo_cp.errors.InputError: I2@(0, 0) (1, 1) is not a placement of I2 in the region
        """
        type_of = self._type_of_name()
        index = self._cell_item   # optional cells too: a placement may cover them
        out: list[int] = []
        owner: dict[Cell, str] = {}
        used: dict[int, int] = {}
        for name, cells in _pairs(placements, "fix"):
            cells, label, t = self._named(name, cells, type_of)
            items = [index.get(cell, -1) for cell in cells]
            key = tuple(sorted(items)) if -1 not in items else None
            option = self._placement_index.get((t, key)) if key is not None and len(set(items)) == len(items) \
                else None
            if option is None:
                raise InputError(f"{label} is not a placement of {name} in the region")
            for cell in cells:
                if cell in owner:
                    raise InputError(f"{label} overlaps {owner[cell]} at cell {cell}")
            for cell in cells:
                owner[cell] = label
            used[t] = used.get(t, 0) + 1
            if used[t] > len(self.types[t]):
                n = len(self.types[t])
                raise InputError(f"{label}: more fixed placements of {name} than its {n} "
                                 f"cop{'y' if n == 1 else 'ies'}")
            out.append(option)
        return out

    def _type_of_name(self) -> dict[str, int]:
        """Piece name or copy key (``I2#2``) -> its type."""
        type_of: dict[str, int] = {}
        for t, copies in enumerate(self.types):
            for copy in copies:
                type_of.setdefault(self.pieces[copy].name, t)
                type_of[self.copy_names[copy]] = t
        return type_of

    def _named(self, name: str, cells, type_of: dict[str, int]) -> tuple[list[Cell], str, int]:
        """A piece named with cells by the caller: (the cells as tuples of int, its label for messages, its type).

        Raises
        ------
        InputError
            When no piece of the puzzle has that name, or a cell has another number of coordinates than the
            grid's (a cube's cell is ``layer, row, column``).
        """
        cells = [tuple(int(v) for v in cell) for cell in cells]
        label = f"{name}@{' '.join(map(str, cells))}"
        if name not in type_of:
            raise InputError(f"{label}: no piece {name!r} in this puzzle "
                             f"(pieces: {', '.join(dict.fromkeys(p.name for p in self.pieces))})")
        dim = self.grid.dim
        other = next((c for c in cells if len(c) != dim), None)
        if other is not None:
            raise InputError(f"{label}: cell {other} has {len(other)} coordinates, a cell of the {self.grid.name} "
                             f"grid {dim} ({_COUNTED.get(self.grid.name, _COUNTED['square'])})")
        return cells, label, type_of[name]

    def is_placement(self, name: str, cells: Sequence[Cell]) -> bool:
        """Whether ``cells`` are exactly the cells of a placement of piece ``name`` (a name or copy key)."""
        t = self._type_of_name().get(name)
        index = self._cell_item   # optional cells too: a placement may cover them
        items = [index.get(tuple(int(v) for v in cell), -1) for cell in cells]
        return t is not None and -1 not in items and (t, tuple(sorted(set(items)))) in self._placement_index \
            and len(set(items)) == len(items)

    def assign(self, assignments: Sequence[tuple[str, Sequence[Cell]]]) -> "ExactCoverInstance":
        """The instance with cells pre-assigned to pieces: each group of cells covered by one placement of that piece.

        A partial board given by cells rather than whole placements: every
        option covering an assigned cell that is not a placement of the named
        piece holding all the cells of its group is dropped, and so is one
        covering cells of two groups: each group is a placement of its own
        (two groups of a piece are two copies of it). The solutions
        (and their count) are those of ``self`` that respect the assignment;
        the result claims no symmetry (:attr:`region_symmetries` is the identity).

        Parameters
        ----------
        assignments : sequence of (str, sequence of cells)
            A piece (a name, or a copy key such as ``I2#2``) and cells one of
            its placements must cover.

        Returns
        -------
        ExactCoverInstance

        Raises
        ------
        InputError
            For anything but a list of (piece name, cells) pairs, a piece not in
            the instance, a cell outside the region, cells that no placement of
            the piece covers together, a group of the region's optional cells
            alone (a solution may leave them empty), two groups sharing a cell,
            or more groups of a piece than its copies.

        Examples
        --------
        >>> from ubongo_cp.pieces import load_pieces
        >>> inst = build_instance([load_pieces("classic")["I2"]] * 2, Region.rectangle(2, 2))
        >>> inst.assign([("I2", [(0, 0)])]).n_options   # (0, 0) lies in two placements; two others avoid it
        4
        >>> inst.assign([("I2", [(0, 0), (1, 1)])])
        Traceback (most recent call last):
        ...
        ubongo_cp.errors.InputError: I2@(0, 0) (1, 1) is not a placement of I2 in the region, nor cells that one covers
        """
        type_of = self._type_of_name()
        index = self._cell_item   # optional cells too: a placement may cover them
        table = self.table
        owner: dict[int, tuple[int, frozenset[int], str]] = {}  # cell item -> (type, its group, label)
        groups = []
        assignments = _pairs(assignments, "assign")   # a list: read again below
        for name, cells in assignments:
            cells, label, t = self._named(name, cells, type_of)
            outside = [c for c in cells if c not in index]
            if outside:
                raise InputError(f"{label}: cell {outside[0]} is not in the region "
                                 f"({_COUNTED.get(self.grid.name, _COUNTED['square'])})")
            group = frozenset(index[c] for c in cells)
            if min(group) >= self.n_cells:   # no exact cover has to cover an optional cell: nothing would hold it
                raise InputError(f"{label}: optional cells of the region alone, which a solution may leave empty: "
                                 "name one of the region's own cells among them, or fix the whole placement (--fix "
                                 "with every cell of it)")
            for i in group:
                if i in owner:
                    raise InputError(f"{label} overlaps {owner[i][2]} at cell {self._item_cell[i]}")
                owner[i] = (t, group, label)
            groups.append((t, group, label))
            n = sum(1 for g in groups if g[0] == t)
            most = self.type_bounds[t][1]
            if n > most:
                name_t = self.pieces[self.types[t][0]].name
                raise InputError(f"{label}: more fixed placements of {name_t} than its {most} "
                                 f"cop{'y' if most == 1 else 'ies'}")
        keep = []
        for o in range(self.n_options):
            items = table.indices[table.indptr[o]:table.indptr[o + 1]]
            ok = True
            held = None   # the one group this option may hold
            for i in items:
                if i in owner:
                    t, group, _ = owner[i]
                    if table.option_type[o] != t or not group <= set(items) or held not in (None, group):
                        ok = False
                        break
                    held = group
            if ok:
                keep.append(o)
        for t, group, label in groups:
            if not any(table.option_type[o] == t and group <= set(table.indices[table.indptr[o]:table.indptr[o + 1]])
                       for o in keep):
                piece = self.pieces[self.types[t][0]].name
                raise InputError(f"{label} is not a placement of {piece} in the region, nor cells that one covers")
        indptr, indices = array("I", [0]), array("I")
        option_type, option_orientation, option_offset = array("i"), array("h"), array("i")
        dim = self.grid.dim
        for o in keep:
            indices.extend(table.indices[table.indptr[o]:table.indptr[o + 1]])
            indptr.append(len(indices))
            option_type.append(table.option_type[o])
            option_orientation.append(table.option_orientation[o])
            option_offset.extend(table.option_offset[dim * o:dim * (o + 1)])
        new = PlacementTable(indptr, indices, option_type, option_orientation, option_offset)
        return replace(self, table=new, assigned=self.assigned + tuple((n, tuple(map(tuple, c)))
                                                                       for n, c in assignments))

    # ------------------------------------------------------------ symmetry
    @property
    def grid(self):
        """The grid of the region and pieces (:mod:`ubongo_cp.grids`)."""
        return self.region.grid

    @cached_property
    def _symmetries(self) -> list[tuple[int, tuple[int, ...]]]:
        """(symmetry, type map) of each region symmetry mapping every type onto a type with as many copies."""
        grid = self.grid
        if self.assigned:  # pre-assigned cells: no symmetry of the region is assumed to keep them
            return [(_symmetry_group(grid, self.region.cells + self.region.optional)[0], tuple(range(self.n_types)))]
        whole = self.region.cells + self.region.optional
        group = _symmetry_group(grid, whole)
        identity = tuple(range(self.n_types))
        optional = set(self.region.optional)
        if optional:   # not a symmetry of the whole that swaps required and optional cells
            group = tuple(sym for sym in group if set(grid.map_onto(whole, sym)[self.n_cells:]) == optional)
        if len(group) == 1 or grid.modes[self.mode] == grid.n_symmetries:
            # the identity alone (an irregular region), or every image of a piece one of its own orientations
            # (free mode on squares, hexagons and triangles; mirror images allowed on cubes): each type onto itself
            return [(sym, identity) for sym in group]
        counts = self.type_bounds  # a symmetry maps a type onto one with the same bounds
        # a type that fits nowhere and may be left out is in no solution, and the empty cells take every
        # orientation: any symmetry keeps either as it is (the pieces' images are not looked for among them)
        idle = [(not self.type_options[t] and counts[t][0] == 0) or t == self.empty_type for t in range(self.n_types)]
        owner: dict[Shape, list[int]] = {}
        for t in range(self.n_types):
            if t != self.empty_type:
                for shape in self.type_piece(t).orientations(self.mode):
                    owner.setdefault(shape, []).append(t)
        out = []
        for sym in group:
            tmap = []
            for t in range(self.n_types):
                if idle[t]:
                    tmap.append(t)
                    continue
                image = _transformed(grid, self.type_piece(t).cells, sym)
                holders = owner.get(image, [])
                u = t if t in holders else (holders[0] if len(holders) == 1 else -1)
                if u < 0 or counts[u] != counts[t]:
                    break
                tmap.append(u)
            else:
                out.append((sym, tuple(tmap)))
        return out

    @property
    def region_symmetries(self) -> list:
        """Symmetries of the region that map the instance onto itself (identity first).

        Elements of the grid's :attr:`~ubongo_cp.grids.Grid.symmetries` (on
        squares the matrices of :data:`ubongo_cp.geometry.SYMMETRIES`). Free
        mode (UP-3): the region's whole group. One-sided or fixed: a
        symmetry that maps a piece to another shape (F to its mirror image)
        belongs here when it maps the piece multiset onto itself with that
        relabelling (:attr:`symmetry_type_maps`): all four of a rectangle's
        for the 18 one-sided pentominoes, its rotations for the 12.
        """
        return [self.grid.symmetries[k] for k, _ in self._symmetries]

    @property
    def symmetry_type_maps(self) -> list[tuple[int, ...]]:
        """For each of :attr:`region_symmetries`, the image type of each type."""
        return [tmap for _, tmap in self._symmetries]

    @cached_property
    def cell_perms(self) -> list[list[int]]:
        """Cell permutation of each non-identity symmetry of the instance (as :attr:`option_perms`).

        ``perm[i]`` is the cell item that the symmetry maps cell item ``i`` to.
        """
        return [item_map[:self.n_cells] for item_map in self._item_maps]

    @cached_property
    def _item_maps(self) -> list[list[int]]:
        """For each non-identity symmetry of the instance, the image of each item: a cell item's (or an optional
        cell's) is the item of the cell's image, a type's -1 (shape (n_items,) each)."""
        if len(self.region_symmetries) <= 1:
            return []
        linear = self.grid.linear
        whole = list(self._item_cell.values())
        if linear is None or len(whole[0]) != 2:
            return self._item_maps_by_cells()
        # On a plane of integer maps (squares, hexagons): a cell (x, y) keyed x * width + y in the region's box,
        # its image's key (a x + b y + moved back) * width + (c x + d y + moved back) a linear function of x, y
        xs, ys = [x for x, _ in whole], [y for _, y in whole]
        x0, y0 = min(xs), min(ys)
        width = max(ys) - y0 + 1
        where = [-1] * ((max(xs) - x0 + 1) * width)
        for i, x, y in zip(self._item_cell, xs, ys):
            where[(x - x0) * width + y - y0] = i
        x1, y1 = max(xs), max(ys)
        maps = []
        for k, _ in self._symmetries[1:]:
            a, b, c, d = linear[k]
            # the translation back onto the region (as map_onto's): each coordinate's least moved onto the
            # region's; a map that keeps the axes (squares) takes its least on a corner of the box
            if a * b == 0 and c * d == 0:
                dx = x0 - min(a * x0 + b * y0, a * x1 + b * y1)
                dy = y0 - min(c * x0 + d * y0, c * x1 + d * y1)
            else:
                dx = x0 - min([a * x + b * y for x, y in zip(xs, ys)])
                dy = y0 - min([c * x + d * y for x, y in zip(xs, ys)])
            step_x, step_y, base = a * width + c, b * width + d, (dx - x0) * width + dy - y0
            item_map = [-1] * self.n_items
            for i, image in zip(self._item_cell, [where[step_x * x + step_y * y + base] for x, y in zip(xs, ys)]):
                item_map[i] = image
            maps.append(item_map)
        return maps

    def _item_maps_by_cells(self) -> list[list[int]]:
        """:attr:`_item_maps`, each cell's image made (:meth:`~ubongo_cp.grids.Grid.map_onto`) and looked up."""
        index = {cell: i for i, cell in self._item_cell.items()}
        whole = list(self._item_cell.values())
        items = list(self._item_cell)
        maps = []
        for k, _ in self._symmetries[1:]:
            item_map = [-1] * self.n_items
            for i, image in zip(items, self.grid.map_onto(whole, k)):
                item_map[i] = index[image]
            maps.append(item_map)
        return maps

    @cached_property
    def option_perm_lists(self) -> list[list[int]]:
        """:attr:`option_perms` as lists of Python ints (computed without numpy).

        Each option's cells are mapped and its image looked up by its type's
        image and those cells, in C when the extension is built (one pass per
        symmetry, a hash table of the options' keys). Without it, in Python:
        on squares an option is (type, orientation, offset); a symmetry maps the
        orientation to one of the image type's (found once per orientation)
        and the offset linearly, so each option's image is one look-up. A
        type's options come orientation by orientation (:func:`_placements`):
        each such run is mapped by one list comprehension, the bounds checked
        once on the run's box of offsets (per option only where the box's
        image leaves the box of every offset).
        """
        if len(self.region_symmetries) <= 1 or self.n_options == 0:
            return []
        made = self._option_perm_array
        if made is not None:
            n = self.n_options
            return [made[g:g + n].tolist() for g in range(0, len(made), n)]
        if self.grid.name != "square" or self.region.optional:
            return self._option_perm_lists_by_cells()
        return self._option_perm_lists_by_offsets()

    @cached_property
    def option_perm_rows(self) -> list[bytes]:
        """:attr:`option_perm_lists` as the kernels take them: each permutation's int32 entries in the machine's
        byte order (made from the C extension's array where it is built, without the lists)."""
        if len(self.region_symmetries) <= 1 or self.n_options == 0:
            return []
        made, n = self._option_perm_array, self.n_options
        if made is not None:
            return [made[g:g + n].tobytes() for g in range(0, len(made), n)]
        return [array("i", perm).tobytes() for perm in self.option_perm_lists]

    @property
    def n_option_perms(self) -> int:
        """``len(option_perm_lists)``, without making them: the symmetries besides the identity, where an
        option is."""
        return 0 if self.n_options == 0 else len(self._symmetries) - 1

    @cached_property
    def _option_perm_array(self) -> array | None:
        """Every permutation of :attr:`option_perm_lists`, one after the other (int32), by the C extension; None
        without it."""
        native = _c_fill()
        return None if native is None else self._option_perm_c(native)

    def _option_perm_c(self, native) -> array:
        """The permutations of :attr:`option_perm_lists` by the C extension ``ubongo_cp._placements`` (its
        ``images``), one after the other (int32): each option's cells mapped (:attr:`_item_maps`), the image looked
        up by its type and cells in a hash table, as :meth:`_option_perm_lists_by_cells` does in Python."""
        table, n = self.table, self.n_options
        if not self._item_maps or not n:
            return array("i")
        item_maps = array("i", chain.from_iterable(self._item_maps))
        type_maps = array("i", chain.from_iterable(tmap for _, tmap in self._symmetries[1:]))
        out = array("i", bytes(4 * len(self._item_maps) * n))
        native.images(table.indptr, table.indices, table.option_type, item_maps, type_maps, self.n_items,
                      self.n_types, out, 4)
        return out

    def _option_perm_lists_c(self, native) -> list[list[int]]:
        """:attr:`option_perm_lists` by the C extension (:meth:`_option_perm_c`)."""
        out, n = self._option_perm_c(native), self.n_options
        return [out[g:g + n].tolist() for g in range(0, len(out), n)]

    def _option_perm_lists_by_offsets(self) -> list[list[int]]:
        """:attr:`option_perm_lists` on squares without optional cells, in Python: each option's image from its
        orientation and offset (below)."""
        table = self.table
        n = self.n_options
        shapes = [self.type_piece(t).orientations(self.mode) for t in range(self.n_types)]
        index = [{shape: i for i, shape in enumerate(s)} for s in shapes]
        # An option's key: its (type, orientation) slot, then its offset in the box of every offset.
        rows, cols = table.option_offset[0::2].tolist(), table.option_offset[1::2].tolist()
        rlo, clo = min(rows), min(cols)
        height, width = max(rows) - rlo + 1, max(cols) - clo + 1
        first = list(accumulate((len(s) for s in shapes), initial=0))   # the slot of (t, 0)
        slot = [first[t] + i for t, i in zip(table.option_type, table.option_orientation)]
        starts = [0, *(o for o in range(1, n) if slot[o] != slot[o - 1]), n]
        runs = [(slot[s], s, e, min(rows[s:e]), max(rows[s:e]), min(cols[s:e]), max(cols[s:e]))
                for s, e in zip(starts, starts[1:])]
        where = [-1] * (first[-1] * height * width)   # key -> option
        for q, s, e, *_ in runs:
            base = (q * height - rlo) * width - clo
            for o, r, c in zip(range(s, e), rows[s:e], cols[s:e]):
                where[base + r * width + c] = o
        # the region's box: a symmetry (a signed permutation matrix) maps it onto the box of its image
        r_lo, r_hi = min(r for r, _ in self.cells), max(r for r, _ in self.cells)
        c_lo, c_hi = min(c for _, c in self.cells), max(c for _, c in self.cells)

        def direct(k: int, tmap: tuple[int, ...]) -> list[int]:
            """The permutation of the symmetry ``k`` (type map ``tmap``), made from the options' runs and offsets."""
            a, b, c, d = self.grid.symmetries[k]
            # the translation back onto the region: its image's least row and column less its own
            r0 = min(a * r_lo, a * r_hi) + min(b * c_lo, b * c_hi) - r_lo
            c0 = min(c * r_lo, c * r_hi) + min(d * c_lo, d * c_hi) - c_lo
            image = []  # per (type, orientation) slot: its image's slot, or -1, and the shift of its cells
            for t, orientations in enumerate(shapes):
                for shape in orientations:
                    norm, sr, sc = _square_image(shape, a, b, c, d)
                    i2 = index[tmap[t]].get(norm, -1)
                    image.append((-1 if i2 < 0 else first[tmap[t]] + i2, sr - r0 - rlo, sc - c0 - clo))
            # an option at offset (r, c) of slot q goes to offset (sr + a r + b c, sc + c r + d c) of slot q2
            down, across = a * width + c, b * width + d   # the key's change per row, per column of the offset
            perm = [-1] * n
            for q, s, e, r1, r2, c1, c2 in runs:
                q2, sr, sc = image[q]
                if q2 < 0:
                    continue
                # one of a, b (and of c, d) is 0: the run's box of offsets maps onto the box of these two corners
                y1, y2, x1, x2 = sr + a * r1 + b * c1, sr + a * r2 + b * c2, sc + c * r1 + d * c1, sc + c * r2 + d * c2
                if 0 <= min(y1, y2) and max(y1, y2) < height and 0 <= min(x1, x2) and max(x1, x2) < width:
                    base = (q2 * height + sr) * width + sc
                    perm[s:e] = [where[base + y * down + x * across] for y, x in zip(rows[s:e], cols[s:e])]
                    continue
                for o in range(s, e):   # the image of some offset leaves the box: each one checked
                    y, x = sr + a * rows[o] + b * cols[o], sc + c * rows[o] + d * cols[o]
                    if 0 <= y < height and 0 <= x < width:
                        perm[o] = where[(q2 * height + y) * width + x]
            return perm

        perms = []
        made: dict[tuple[int, ...], tuple[list[int], tuple[int, ...]]] = {}   # matrix -> (onto perm, type map)
        for k, tmap in self._symmetries[1:]:
            a, b, c, d = self.grid.symmetries[k]
            # A product of two symmetries made already is their composition (each maps the region onto
            # itself, and one map with a given matrix does): one look-up per option, in C. Only for
            # permutations onto the placements (no -1) whose type maps compose to this one's.
            for (e, f, g, h), (outer, omap) in made.items():
                inner = made.get(_square_quotient((a, b, c, d), (e, f, g, h)))
                if inner is not None and tuple(omap[u] for u in inner[1]) == tmap:
                    perm = list(map(outer.__getitem__, inner[0]))
                    break
            else:
                perm = direct(k, tmap)
            if min(perm) >= 0:
                made[(a, b, c, d)] = (perm, tmap)
            perms.append(perm)
        return perms

    def _option_perm_lists_by_cells(self) -> list[list[int]]:
        """:attr:`option_perm_lists` on any grid: each option's cells mapped, the image looked up by its cells."""
        where = self._placement_index
        table = self.table
        items = list(self._item_cell)
        index = self._cell_item
        perms = []
        for k, tmap in self._symmetries[1:]:
            cell_map = dict(zip(items, (index[c] for c in self.grid.map_onto(list(self._item_cell.values()), k))))
            perm = []
            for o in range(self.n_options):
                cells = [cell_map[i] for i in table.indices[table.indptr[o]:table.indptr[o + 1]] if i in cell_map]
                perm.append(where.get((tmap[table.option_type[o]], tuple(sorted(cells))), -1))
            perms.append(perm)
        return perms

    @cached_property
    def option_perms(self) -> list[np.ndarray]:
        """Option permutation of each non-identity symmetry of the instance, each of shape (n_options,).

        ``perm[o]`` is the placement of ``o``'s image type on the image of
        ``o``'s cells under the symmetry (one per entry of
        :attr:`region_symmetries` after the identity, in that order).
        Cost ``O(|G| x options x piece size)``, once per instance.
        """
        import numpy as np

        return [np.array(p, dtype=np.int64) for p in self.option_perm_lists]

    def stabiliser_order(self, options: Sequence[int]) -> int:
        """How many symmetries of the instance (identity included) map this solution onto itself (UP-5).

        By Burnside's lemma the number of solutions up to symmetry is the sum
        of this over all solutions divided by ``len(region_symmetries)``: no
        solution needs to be remembered.
        """
        own = {int(o) for o in options}
        return 1 + sum(all(perm[o] in own for o in own) for perm in self.option_perm_lists)

    def canonical_key(self, options: Sequence[int]) -> tuple[int, ...]:
        """A key equal for two solutions exactly when a symmetry of the instance maps one to the other (UP-5)."""
        own = [int(o) for o in options]
        best = tuple(sorted(own))
        for perm in self.option_perm_lists:
            cand = tuple(sorted(perm[o] for o in own))
            if cand < best:
                best = cand
        return best


def _pairs(placements, method: str) -> list[tuple[str, Any]]:
    """``placements`` as a list of (piece name, cells) pairs, or an InputError saying what :meth:`ExactCoverInstance.fix`
    (or ``assign``, ``method``) takes: a single pair, or a name, is not a list of them."""
    from .errors import cut

    def is_pair(entry) -> bool:
        return (isinstance(entry, (tuple, list)) and len(entry) == 2 and isinstance(entry[0], str)
                and not isinstance(entry[1], (str, bytes)) and hasattr(entry[1], "__iter__"))

    entries: list = []
    if is_pair(placements) or isinstance(placements, (str, bytes)) or not hasattr(placements, "__iter__"):
        wrong = [placements]    # one pair, a name, a number: not a list of pairs
    else:
        entries = list(placements)
        wrong = [e for e in entries if not is_pair(e)][:1]
    if wrong:
        raise InputError(f"{method} takes a list of (piece name, cells) pairs, e.g. [(\"I2\", [(0, 0), (0, 1)])], "
                         f"got {cut(repr(wrong[0]))}")
    return entries


def kept(instance, key: tuple | str, make: Callable[[], Any]) -> Any:
    """``make()``, made once per instance and kept in its :attr:`~ExactCoverInstance.derived` by ``key`` (the
    function and its arguments); made each time for an instance without one (an exact-cover matrix).

    Stored only once made: the threads of a split count may ask at once, and none may see a value half made
    (two may make it; both make the same).
    """
    store = getattr(instance, "derived", None)
    if store is None:
        return make()
    try:
        return store[key]
    except KeyError:
        value = store[key] = make()
        return value


@lru_cache(maxsize=1024)
def _symmetry_group(grid, cells: tuple[Cell, ...]) -> tuple[int, ...]:
    """``grid.symmetry_group(cells)``, once per process for each region (a deck's card sides come back face after
    face)."""
    return tuple(grid.symmetry_group(cells))


@lru_cache(maxsize=4096)
def _transformed(grid, cells: Shape, k: int) -> Shape:
    """``grid.transform(cells, k)``, once per process for each piece and symmetry."""
    return grid.transform(cells, k)


def _square_quotient(m: tuple[int, ...], outer: tuple[int, ...]) -> tuple[int, ...]:
    """The matrix ``x`` with ``outer @ x == m`` for two of the square grid's symmetries (``(a, b, c, d)`` is
    ``[[a, b], [c, d]]``; the inverse of a signed permutation matrix is its transpose)."""
    a, b, c, d = outer
    e, f, g, h = m
    return (a * e + c * g, a * f + c * h, b * e + d * g, b * f + d * h)


@lru_cache(maxsize=4096)
def _square_image(shape: Shape, a: int, b: int, c: int, d: int) -> tuple[Shape, int, int]:
    """The image of a square-grid shape under the matrix ``((a, b), (c, d))``: (its cells in normal position,
    sorted; the least row and the least column of the image before the translation). Made once per process
    for each shape and symmetry (the pieces of a deck come back in every task)."""
    cells = [(a * r + b * q, c * r + d * q) for r, q in shape]
    sr, sc = min(r for r, _ in cells), min(q for _, q in cells)
    return tuple(sorted((r - sr, q - sc) for r, q in cells)), sr, sc


def _view(a: array, dtype: str) -> np.ndarray:
    """A numpy view of a plain array (numpy imported here, on first use)."""
    import numpy as np

    return np.frombuffer(a, dtype=dtype) if len(a) else np.zeros(0, dtype=dtype)


def piece_types(pieces: Sequence[Piece], mode: str = "free", *, by_name: bool = False) -> tuple[tuple[int, ...], ...]:
    """Group piece copies into types of identical pieces (UP-5).

    Parameters
    ----------
    pieces : sequence of Piece
        Piece copies (names may repeat).
    mode : str
        Orientation mode (``"free"``, ``"one-sided"``, ``"fixed"``; on cubes
        ``"mirror"`` instead of one-sided): two pieces are identical when they
        have the same orientations in this mode (in one-sided mode a piece
        and its mirror image are two types).
    by_name : bool
        Group by name instead (the subset analysis reports names).

    Returns
    -------
    tuple of tuple of int
        Indices of each type's copies, in order of first copy.

    Examples
    --------
    >>> from ubongo_cp.pieces import Piece
    >>> sq = ((0, 0), (0, 1), (1, 0), (1, 1))
    >>> piece_types([Piece("B1", sq), Piece("D", ((0, 0), (0, 1))), Piece("B2", sq)])
    ((0, 2), (1,))
    """
    return _grouped([p.name for p in pieces] if by_name else [_type_key(p.orientations(mode)) for p in pieces])


def _type_key(orientations: Sequence[Shape]) -> tuple[Shape, int]:
    """What two pieces of one type share (UP-5): the same orientations, known by the least of them and their number
    (the orientations of a mode are a shape's images under a group of symmetries, and the modes' groups are
    nested: two such sets with one least image and one size are equal; the cells left empty take every
    orientation whatever the mode, :class:`~ubongo_cp.pieces.EmptyCell`, so a monomino of the pieces may have
    fewer)."""
    if type(orientations) is LazyOrientations:
        return orientations.least, orientations.batch.counts[orientations.number]
    return _form(orientations)[2], len(orientations)


def _types_of(orientations: Sequence[Sequence[Shape]]) -> tuple[tuple[int, ...], ...]:
    """The pieces of these orientation lists grouped into types (:func:`piece_types`, :func:`_type_key`), cached
    by the identities of the lists (the cache holds them, so their ids are not reused; one batch's members, all
    of them in order, by the batch's: :func:`_identities`): a deck or a benchmark groups the same pieces again and
    again."""
    batch = _whole_batch(orientations)
    key = ("types", *_identities(orientations, batch))
    entry = _FORMS.get(key)
    if entry is None:
        if batch is not None and batch.unique:    # least orientations all different (found in C): a type each
            groups = tuple(zip(range(len(orientations))))
        else:
            groups = _grouped(list(zip(batch.leasts, batch.counts)) if batch is not None else
                              list(map(_type_key, orientations)))
        entry = _cache(_FORMS, key, (list(orientations), groups))
    return entry[1]


def _identities(shapes: Sequence[Sequence[Shape]], batch: OrientationBatch | None) -> tuple:
    """What identifies these orientation lists in a cache key: the id of each, or, when they are one batch's
    members, all of them in order (:func:`_whole_batch`), the batch's alone (one id, not one per piece)."""
    return ("batch", id(batch)) if batch is not None else tuple(map(id, shapes))


def _whole_batch(shapes: Sequence[Sequence[Shape]]) -> OrientationBatch | None:
    """The :class:`~ubongo_cp.grids.base.OrientationBatch` whose shapes are ``shapes`` (a list), all of them in
    order (the pieces of a set seen first: :func:`~ubongo_cp.pieces.orientations_of`), else None: what is known
    of them all then is read from its arrays and lists at once, with no call per piece."""
    first = shapes[0] if shapes else None
    if type(first) is LazyOrientations and first.batch.members == shapes:
        return first.batch
    return None


def _grouped(keys: Sequence[object]) -> tuple[tuple[int, ...], ...]:
    """The indices of equal keys, in groups ordered by first index (:func:`piece_types`)."""
    if len(dict.fromkeys(keys)) == len(keys):   # every key once (a set of distinct pieces): each key hashed once
        return tuple(zip(range(len(keys))))
    groups: dict[object, list[int]] = {}
    for i, key in enumerate(keys):
        groups.setdefault(key, []).append(i)
    return tuple(tuple(g) for g in groups.values())


def item_counts(indices: Iterable[int], n_items: int) -> list[int]:
    """How often each of ``n_items`` items occurs in ``indices`` (the options covering it; an exact-cover
    instance's or a matrix's, :class:`~ubongo_cp.exactcover.ExactCoverMatrix`): in one pass in C for an array of
    unsigned ints ('I') when the extension is built."""
    native = _c_fill()
    if native is not None and getattr(indices, "typecode", None) == "I":
        return native.counts(indices, n_items)
    per = [0] * n_items
    for i, k in Counter(indices).items():   # counted in C
        per[i] = k
    return per


def checked_puzzle(caller: str, pieces, region) -> tuple[Piece, ...]:
    """``pieces`` as a tuple when they are :class:`Piece` objects and ``region`` a :class:`Region`; else an
    :class:`InputError` naming ``caller`` and what it needs (not an AttributeError from inside)."""
    given, text = type(pieces).__name__, isinstance(pieces, (str, bytes)) or not hasattr(pieces, "__iter__")
    pieces = () if text else tuple(pieces)
    if text or not all(map(isinstance, pieces, repeat(Piece))):     # piece by piece in C
        if not text:   # a sequence, of something else: named by its first such item (a piece's name, say)
            from .errors import cut

            other = next(p for p in pieces if not isinstance(p, Piece))
            given += f" holding {type(other).__name__} {cut(repr(other))}"
        raise InputError(f"{caller} needs a sequence of pieces (ubongo_cp.pieces.load_pieces(name).pieces), "
                         f"got {given}")
    if not isinstance(region, Region):
        raise InputError(f"{caller} needs a region (ubongo_cp.pieces.load_region, Region.rectangle), "
                         f"got {type(region).__name__}")
    return pieces


def build_instance(pieces: Sequence[Piece], region: Region, *, optional_pieces: bool = False,
                   mode: str = "free", ranges: Mapping[str, tuple[int, int]] | None = None,
                   max_empty: int = 0) -> ExactCoverInstance:
    """Enumerate every placement of ``pieces`` inside ``region``.

    Parameters
    ----------
    pieces : sequence of Piece
        The pieces (a name may appear more than once; identical pieces
        become one type, :func:`piece_types`).
    region : Region
        Target cells.
    optional_pieces : bool
        Make piece items secondary (each piece at most once) — the form used
        by subset analysis, where one search covers all subsets at once.
        Types are then by name. A placement on the region's optional cells
        only then covers no primary item, and is left out (Knuth's rule).
    mode : str
        Orientations allowed (UP-3: free; the grid's modes,
        :attr:`ubongo_cp.grids.Grid.modes`).
    ranges : mapping of str to (int, int), optional
        Piece name -> ``(lo, hi)``: use between ``lo`` and ``hi`` pieces of
        that shape (whatever the copies in ``pieces``; ``hi = 0`` drops it).
        The type's item gets the bounds ``[lo..hi]`` (Algorithm M), so one
        search covers every multiset in the ranges, each solution once. A
        ``hi`` above the copies the region can hold (its cells // the
        piece's) is read as that many (no cover has more).
    max_empty : int
        Let up to this many region cells stay uncovered: a type of
        monominoes (:data:`~ubongo_cp.pieces.EMPTY`) with bounds ``[0..max_empty]``; a
        solution lists its empty cells under the key :data:`~ubongo_cp.pieces.EMPTY`.

    Returns
    -------
    ExactCoverInstance

    Raises
    ------
    InputError
        When a piece is on another grid than the region, two pieces of
        one name have different shapes in ``mode``, or, without
        optional pieces, a piece is the cells left empty
        (:class:`~ubongo_cp.pieces.EmptyCell`: ``max_empty`` asks for
        them), ``mode`` is not one of the grid's orientation modes, a range names no piece of
        ``pieces`` (or a piece identical to another one named), is not a
        pair of whole numbers, has ``lo > hi`` or a negative bound, ranges
        go with optional pieces, ``max_empty`` is negative or larger than
        the region, or the region's cells are spread over a bounding box of
        more than :data:`MAX_FRAME_CELLS` cells.

    Notes
    -----
    One path on every grid: the grid's cells are the coordinates of an
    array in which every translation is a shift; the fits of each
    orientation are the bits of one big integer (the region's mask
    shifted by each of the orientation's cells, ANDed: O(orientations x
    piece size) integer operations, on 64-bit words with numpy for many
    orientations), the table filled from them in plain Python for a small
    instance, with numpy for a large one (:func:`_placements`).

    Examples
    --------
    >>> from ubongo_cp.pieces import load_pieces
    >>> inst = build_instance(load_pieces("pentominoes").pieces, Region.rectangle(6, 10))
    >>> inst.n_items, inst.n_options
    (72, 2056)
    >>> o4 = load_pieces("classic")["O4"]
    >>> inst = build_instance([o4] * 16, Region.rectangle(8, 8))  # one item [16..16]
    >>> inst.n_items, inst.n_options, inst.multiplicity[-1].tolist()
    (65, 49, [16, 16])
    >>> inst = build_instance(load_pieces("classic").select(["I2", "O4"]), Region.rectangle(2, 4),
    ...                       ranges={"I2": (0, 4), "O4": (0, 2)})
    >>> inst.type_bounds
    [(0, 4), (0, 2)]
    """
    key = None
    if not ranges and type(max_empty) is int and max_empty == 0 and type(pieces) in (tuple, list) and \
            type(mode) is str and type(optional_pieces) is bool:
        # these very pieces again (a deck's tasks, a census, a benchmark): checked, grouped and planned before
        key = ("build", mode, optional_pieces, *map(id, pieces))
        known = _FORMS.get(key)
        if known is not None and isinstance(region, Region) and region.grid is known[1]:
            return _instance(known[0], region, optional_pieces, mode, known[2], _placements(region, known[3]))
    pieces = checked_puzzle("build_instance", pieces, region)
    if not optional_pieces and EmptyCell in map(type, pieces):   # (the subset analysis searches them as optional)
        raise InputError(f"the cells left empty ({EMPTY!r}) are asked for with max_empty, not given as pieces")
    check_one_grid(pieces, region)
    problem = region.grid.mode_problem(mode)
    if problem:
        raise InputError(problem)
    orientations = orientations_of(pieces, mode)
    _check_names(pieces, orientations, mode)
    types = _grouped([p.name for p in pieces]) if optional_pieces else _types_of(orientations)
    bounds = None
    empty_type = -1
    max_empty = whole_argument("max_empty", max_empty, 0)   # 1.5 or -1 empty cells are no number of cells
    if ranges or max_empty:
        pieces, types, bounds, empty_type = _with_ranges(pieces, types, dict(ranges or {}), int(max_empty), region,
                                                         optional_pieces)
        orientations = [p.orientations(mode) for p in pieces]
    # each type's first piece's orientations (each piece a type of its own, in order: the pieces' own list)
    plan = _plan(list(orientations) if len(types) == len(orientations) else
                 list(map(orientations.__getitem__, map(itemgetter(0), types))))
    if key is not None and pieces:     # the key's tuple of ids is held with the pieces: their ids are not reused
        _cache(_FORMS, key, (pieces, region.grid, types, plan))
    return _instance(pieces, region, optional_pieces, mode, types, _placements(region, plan), bounds, empty_type)


def _check_names(pieces: Sequence[Piece], orientations: Sequence[Sequence[Shape]], mode: str) -> None:
    """Refuse two pieces of one name and different shapes in ``mode``: a name stands for one shape (the copies of a
    piece share both, UP-5), by which a solution names its placements and the subset analysis its pieces."""
    if len(set(map(_NAME_OF, pieces))) == len(pieces):   # every name once (a deck's task): nothing to compare
        return
    first: dict[str, tuple[object, Piece]] = {}
    for piece, found in zip(pieces, orientations):
        key = _type_key(found)
        known = first.setdefault(piece.name, (key, piece))
        if known[0] != key:
            sizes = len(known[1].cells), len(piece.cells)
            how = f"{sizes[0]} and {sizes[1]} cells" if sizes[0] != sizes[1] else \
                f"neither one a {mode} orientation of the other"
            raise InputError(f"two pieces are named {piece.name!r} but have different shapes ({how}): give each shape "
                             f"its own name, e.g. Piece('{piece.name}{len(piece.cells)}', piece.cells, piece.grid) "
                             f"(copies of one piece share its name and shape)")


_NAME_OF = attrgetter("name")


def _instance(pieces: tuple[Piece, ...], region: Region, optional_pieces: bool, mode: str,
              types: tuple[tuple[int, ...], ...], table: PlacementTable, ranges=None,
              empty_type: int = -1) -> ExactCoverInstance:
    """The instance of :func:`build_instance` from its table (without the options on optional cells only, with
    optional pieces: :func:`_on_region_cells`)."""
    if optional_pieces and region.optional:
        table = _on_region_cells(table, region.area, region.grid.dim)
    return ExactCoverInstance(pieces=pieces, region=region, optional_pieces=optional_pieces, mode=mode,
                              types=types, table=table, ranges=ranges, empty_type=empty_type)


def _on_region_cells(table: PlacementTable, n_cells: int, dim: int) -> PlacementTable:
    """The table without its options that lie on optional cells only. With optional pieces such an option covers
    no primary item, and an exact cover skips it, as Knuth's programs do (and :mod:`ubongo_cp.exactcover`): every
    backend then counts the same covers, each a set of placements covering every region cell once."""
    indptr, indices = table.indptr, table.indices
    keep = [o for o in range(len(indptr) - 1) if min(indices[indptr[o]:indptr[o + 1]]) < n_cells]
    if len(keep) == len(indptr) - 1:
        return table
    new_indptr = array("I", [0])
    new_indptr.extend(accumulate(indptr[o + 1] - indptr[o] for o in keep))
    return PlacementTable(new_indptr,
                          array("I", chain.from_iterable(indices[indptr[o]:indptr[o + 1]] for o in keep)),
                          array("i", [table.option_type[o] for o in keep]),
                          array("h", [table.option_orientation[o] for o in keep]),
                          array("i", chain.from_iterable(table.option_offset[dim * o:dim * o + dim] for o in keep)))


def _range_bound(name: str, bound) -> tuple[int, int]:
    """``(lo, hi)`` of a piece's range as ints (numpy integers too), or an :class:`InputError`."""
    import operator

    try:
        lo, hi = (operator.index(b) for b in bound if not isinstance(b, bool))  # a pair of whole numbers
    except (TypeError, ValueError):
        raise InputError(f"range of {name} is {bound!r}: give a pair (lo, hi) of whole numbers, 0 <= lo <= hi") \
            from None
    if lo < 0 or lo > hi:
        raise InputError(f"range of {name} is {lo}-{hi}: write lo-hi with 0 <= lo <= hi")
    return lo, hi


def _with_ranges(pieces: tuple[Piece, ...], types, ranges: dict[str, tuple[int, int]], max_empty: int,
                 region: Region, optional_pieces: bool):
    """(pieces, types, bounds per type, the empty cells' type or -1) with ranges of copies (:func:`build_instance`).

    The empty cells' type holds at most as many cells as the fewest pieces leave uncovered (none when
    they fill the region), so a task whose pieces cannot leave a cell empty is the task without it.
    """
    if optional_pieces:
        raise InputError("ranges of piece counts and empty cells go with every piece type primary, not with "
                         "optional pieces")
    names = {p.name for p in pieces}
    for name, bound in ranges.items():
        if name not in names:
            raise InputError(f"range for {name!r}: no such piece in this puzzle (pieces: "
                             f"{', '.join(dict.fromkeys(p.name for p in pieces))})")
        lo, hi = _range_bound(name, bound)
        # the cells a piece may cover: the region's and its optional cells (a BurrTools result's variable voxels)
        most = (region.area + len(region.optional)) // next(p.size for p in pieces if p.name == name)
        # more copies than fit are never placed; more than fit needed: one too many is as impossible
        ranges[name] = (lo, min(hi, most)) if lo <= most else (most + 1, most + 1)
    if not 0 <= max_empty <= region.area:
        raise InputError(f"at most {max_empty} empty cells asked for; the region has {region.area} cells")
    if max_empty and region.optional:
        raise InputError("empty cells go with a region without optional cells (an optional cell may stay empty "
                         "already)")
    if max_empty and EMPTY in names:
        raise InputError(f"a piece is named {EMPTY!r}, the name of the cells left empty; rename it")
    out: list[Piece] = []
    new_types, bounds = [], []
    for copies in types:
        named = list(dict.fromkeys(pieces[c].name for c in copies))
        given = [n for n in named if n in ranges]
        if given and len(named) > 1:
            raise InputError(f"pieces {', '.join(named)} are the same shape (one type, UP-5): give one range for "
                             f"it and name that piece once")
        lo, hi = ranges[given[0]] if given else (len(copies), len(copies))
        if hi == 0:
            continue  # never used: no type
        new_types.append(tuple(range(len(out), len(out) + hi)))
        out.extend([pieces[copies[0]]] * hi)
        bounds.append((lo, hi))
    max_empty = min(max_empty, region.area - sum(lo * out[t[0]].size for t, (lo, _) in zip(new_types, bounds)))
    if max_empty > 0:
        empty = empty_cell_piece(region)
        new_types.append(tuple(range(len(out), len(out) + max_empty)))
        out.extend([empty] * max_empty)
        bounds.append((0, max_empty))
        return tuple(out), tuple(new_types), tuple(bounds), len(new_types) - 1
    return tuple(out), tuple(new_types), tuple(bounds), -1


def empty_cell_piece(region: Region) -> Piece:
    """The monomino standing for a cell of ``region`` left empty (named :data:`~ubongo_cp.pieces.EMPTY`), in every
    orientation whatever the pieces' mode (:class:`~ubongo_cp.pieces.EmptyCell`)."""
    cell = region.cells[0] if region.cells else (0,) * region.grid.dim
    return EmptyCell(EMPTY, (tuple(cell),), region.grid)


def _placements(region: Region, plan: _Plan) -> PlacementTable:
    """Every placement of each type's orientations (``plan.shapes[t]``, :func:`_plan`) in ``region``, as a
    :class:`PlacementTable`.

    The region's cells and optional cells are laid out in an array of the
    grid's cell coordinates (every translation of the grid is a shift of
    the array; those that keep it onto itself are the bits of
    :meth:`~ubongo_cp.grids.Grid.translations`), flattened row-major into
    the bits of one integer, each axis but the first padded by the reach of
    the largest shape so that no shift wraps round. The positions where an
    orientation fits are then the bits of the AND of the region's mask
    shifted down by each of its cells (one big-integer operation per cell,
    whatever the region's size, the shifted masks made once per region;
    from :data:`_NUMPY_FITS_FROM` orientations (and :data:`_NUMPY_FITS_AREA`
    orientations times cells), when numpy is loaded, the
    same ANDs on 64-bit words for every orientation at once,
    :func:`_fits_numpy`); fits come orientation by orientation, positions
    in array order. The C extension ``ubongo_cp._placements``, when built
    (the install compiles it), writes the rows of every fit straight from
    the fit masks (:func:`_fill_c` after the fits found with numpy); where
    numpy does not find them, it finds them too, one call per run of types
    of one piece size (:func:`_fill_c_direct`: no fit mask made in Python,
    no numpy), or after the fits found in plain Python when the region's
    shifted masks would be too large (:func:`_fill_c_ints`).
    Without it, a small table (a deck's task: tens of placements) is
    filled in plain Python, each fit's items picked out of the item array
    (:func:`_fill_python`, no numpy call); from :data:`_NUMPY_FROM`
    placements, when numpy is loaded (or from :data:`_NUMPY_IMPORT_FROM`),
    the fit masks of a run of types are unpacked and its rows gathered with
    numpy (:func:`_fill_numpy`). Every way gives the same table. The
    numpy ways take the orientations of each run of types of one size as
    one array (:func:`_runs`): every orientation's cells at once, whatever
    the grid's number of symmetries, with no Python loop over them.
    """
    lattice = region.grid
    shapes = plan.shapes
    n_cells, n_types = region.area, len(shapes)
    if not shapes or (not region.cells and not region.optional):
        return PlacementTable(array("I", [0]), array("I"), array("i"), array("h"), array("i"))
    vectorised = "numpy" in sys.modules and _vectorised(plan, n_cells)
    if vectorised:
        reach, runs = _runs(plan)
    else:
        shapes, forms, reach = _forms_of(plan)
    layout = _REGIONS.get((id(region), reach, n_types))   # this region, else an equal one, else made
    if layout is None or layout[7] is not region:
        cells = region.cells + region.optional
        bounds = _bounds(cells)
        key = ("equal", bounds[2], reach, n_types)          # an equal region: its cells' digest, then equality
        layout = _REGIONS.get(key)
        if layout is None or layout[7] != region:
            layout = _region_layout(region, lattice, reach, n_types, cells, bounds)
            # what it will hold: the shifted masks (dense up to a bound; as integers, and as words for the C
            # fill) and the tables per position
            total, top = layout[3]
            layout = _cache(_REGIONS, key, layout, 2 * min(total * top, _DENSE_SHIFTED_BITS) // 8 + 32 * total)
        layout = _cache(_REGIONS, (id(region), reach, n_types), layout[:7] + (region,))
    strides, positions = layout[:2]
    if vectorised:
        table = _fill_c(runs, strides, layout, n_cells)
        if table is not None:
            return table
        fits_of_runs = _fits_numpy(runs, strides, layout)
        if sum(len(fit[0]) for fit in fits_of_runs) >= _NUMPY_FROM:
            return _fill_numpy(runs, fits_of_runs, strides, layout, n_cells)
        shapes, forms, _ = _forms_of(plan)
        fits = [masks for run, fit in zip(runs, fits_of_runs) for masks in _masks_of(run, fit)]
    else:
        table = _fill_c_direct(forms, strides, layout, n_cells)
        if table is not None:
            return table
        fits = []                         # each type's orientations' fit masks
        shifted = _python_layout(layout)[0]
        for form in forms:
            masks = []
            for flat in _flats(form, strides):
                mask = positions
                for f in flat:
                    mask &= shifted[f]
                masks.append(mask)
            fits.append(masks)
        n_fits = sum([m.bit_count() for masks in fits for m in masks])
        table = _fill_c_ints(forms, strides, fits, layout, n_cells)
        if table is not None:
            return table
        if n_fits >= _NUMPY_FROM and ("numpy" in sys.modules or n_fits >= _NUMPY_IMPORT_FROM):
            runs = _runs(plan)[1]
            return _fill_numpy(runs, _fits_unpacked(runs, fits, layout), strides, layout, n_cells)
    return _fill_python(shapes, forms, strides, fits, layout, n_cells)


def _vectorised(plan: _Plan, n_cells: int) -> bool:
    """Whether numpy finds the fits (:func:`_placements`): from :data:`_NUMPY_FITS_FROM` orientations and
    :data:`_NUMPY_FITS_AREA` orientations times cells (the number of orientations counted once per plan: each
    list's length is a Python call for those held as arrays)."""
    n = plan.n_orientations
    if n is None:
        batch = _whole_batch(plan.shapes)
        n = plan.n_orientations = batch.starts[-1] if batch is not None else sum(map(len, plan.shapes))
    return n >= _NUMPY_FITS_FROM and n * n_cells >= _NUMPY_FITS_AREA


def _forms_of(plan: _Plan) -> tuple[list[Sequence[Shape]], list[tuple], tuple[int, ...]]:
    """For the ways without numpy: each type's orientations as a list (:func:`_listed`), their :func:`_form`, and
    the largest extent per axis of them all; made once per plan."""
    if plan.forms is None:
        listed = _listed(plan.shapes)
        forms = [_form(type_shapes) for type_shapes in listed]
        plan.forms = (listed, forms, tuple(map(max, zip(*map(_extent, forms)))))
    return plan.forms


def _listed(shapes: Sequence[Sequence[Shape]]) -> list[Sequence[Shape]]:
    """Each type's orientations as a list (those held as arrays, :class:`~ubongo_cp.grids.base.LazyOrientations`,
    as the list of their tuples, made once), for the loops in plain Python."""
    return [s.shapes() if type(s) is LazyOrientations else s for s in shapes]


def _flats(form, strides: tuple[int, ...]) -> list[list[int]]:
    """The orientations of a :func:`_form` as flat positions in the array of these strides (cell order kept)."""
    flats = form[0].get(strides)
    if flats is None:
        k = len(form[1][0])
        every = _flatten(chain.from_iterable(form[1]), strides)
        flats = form[0][strides] = [every[i:i + k] for i in range(0, len(every), k)]
    return flats


#: Most cells of the array the placements are searched in (a region's bounding box with room for the pieces):
#: a 400-cell region in one row needs 400 x the largest piece's reach; far-apart cells are refused.
MAX_FRAME_CELLS = 4_000_000
_OFFSET_MAX = (1 << 31) - 1 - MAX_FRAME_CELLS   # a region's coordinates, with room for its frame, within int32


def _bounds(cells: Sequence[Cell]) -> tuple:
    """The least and the largest coordinate per axis of a region's cells (and optional cells; at least one), a
    digest of the cells (equal cells, equal digests) and, in C, their coordinates packed for :func:`_positions`:
    in one pass in C when the extension is built."""
    native = _c_fill()
    if native is not None:
        try:
            return native.bounds(cells, len(cells[0]))
        except (TypeError, OverflowError):   # cells not tuples or lists of ints, or beyond 64 bits: in Python
            pass
    columns = list(zip(*cells))
    return [min(col) for col in columns], [max(col) for col in columns], hash(cells), None


def _positions(cells: Sequence[Cell], strides: tuple[int, ...], base: int, packed: bytes | None) -> Sequence[int]:
    """The flat position of each cell (:func:`_flatten`): in one pass in C when the extension is built and reads
    the cells (as :func:`_bounds`; from the coordinates it ``packed``, when given), an int64 array; else a list."""
    native = _c_fill()
    if native is not None:
        try:
            where = array("q")
            where.frombytes(native.flatten(cells if packed is None else packed, strides, base))
            return where
        except (TypeError, OverflowError):   # cells not tuples or lists of ints, or beyond 64 bits: in Python
            pass
    return _flatten(cells, strides, base)


def _region_layout(region: Region, lattice, reach: tuple[int, ...], n_types: int, cells: Sequence[Cell],
                   bounds: tuple) -> tuple:
    """The region in the array of :func:`_placements` for shapes of this reach (extent per axis), given its cells
    then optional cells and their :func:`_bounds`: the strides,
    the positions a shape may be moved to (the translations that keep the grid onto itself), the position of
    each cell then optional cell, the array's size and the flat offsets a shape's cell may have (their
    number), the number of types, the translation at position 0 and the array's shape, a dict for the rest
    (made when first asked for: in plain Python, :func:`_python_layout`; with numpy, :func:`_numpy_layout`),
    and the region."""
    least, most = bounds[:2]
    if min(least) < -_OFFSET_MAX or max(most) > _OFFSET_MAX:   # the table holds each translation as int32
        raise InputError(f"the region's cells lie beyond the coordinates a placement table holds (±{_OFFSET_MAX:,}); "
                         "move them nearer the origin", path=region.path)
    # a shape's smallest coordinate is 0 up to the grid's lead (normal position): room for it before the region
    low = [lo - lead for lo, lead in zip(least, lattice.normal_lead)]
    size = [1 + hi - lo for hi, lo in zip(most, low)]
    for axis in range(1, len(size)):   # padding: a shape at any position ends inside its row (never wraps)
        size[axis] += reach[axis] - 1
    strides = [1] * len(size)
    for axis in range(len(size) - 2, -1, -1):
        strides[axis] = strides[axis + 1] * size[axis + 1]
    total = strides[0] * size[0]
    if total > MAX_FRAME_CELLS:  # the masks hold a bit per cell of the frame: far-apart cells would take all memory
        raise InputError(f"the region's bounding box, with room for the pieces, is {' x '.join(map(str, size))} "
                         f"cells, over the {MAX_FRAME_CELLS:,} placements are searched in; draw its parts closer "
                         "together", path=region.path)
    where = _positions(cells, tuple(strides), sum(map(mul, low, strides)), bounds[3])
    top = 1 + sum((r - 1) * s for r, s in zip(reach, strides))     # beyond every flat offset of a shape's cell
    positions = lattice.translations(tuple(low), tuple(size))
    return tuple(strides), positions, where, (total, top), n_types, (tuple(low), tuple(size)), {}, region


def _cell_items(layout) -> Iterator[int]:
    """The item of each cell of the region's layout (:func:`_region_layout`), in the order of its positions: the
    cells, then, after the types' items, the optional cells."""
    region, n_types = layout[7], layout[4]
    first_optional = region.area + n_types
    return chain(range(region.area), range(first_optional, first_optional + len(region.optional)))


def _python_layout(layout) -> tuple:
    """The region's layout (:func:`_region_layout`) for the loops in plain Python, made once: the region's mask
    shifted down by each flat offset a shape's cell may have, the item at each position (the cells, then,
    after the types', the optional cells; -1 for none) and each item's cell coordinates (a list per
    coordinate)."""
    parts = layout[6].get("python")
    if parts is None:
        where, (total, top), n_types, region = layout[2], layout[3], layout[4], layout[7]
        n_cells = region.area
        item = [-1] * total
        for pos, it in zip(where, _cell_items(layout)):
            item[pos] = it
        coord = [[*col[:n_cells], *[0] * n_types, *col[n_cells:]] for col in zip(*(region.cells + region.optional))]
        mask = _region_mask(layout)
        shifted = [mask >> f for f in range(top)] if top * total <= _DENSE_SHIFTED_BITS else _Shifted(mask)
        parts = layout[6]["python"] = (shifted, item, coord)
    return parts


def _region_mask(layout) -> int:
    """The region's cells and optional cells as the bits of one integer (bit ``p``: position ``p`` of the
    array); made once per layout."""
    mask = layout[6].get("mask")
    if mask is None:
        digits = bytearray(b"0") * layout[3][0]      # in binary, lowest bit first
        for pos in layout[2]:
            digits[pos] = 49                         # "1"
        mask = layout[6]["mask"] = int(digits[::-1], 2)
    return mask


#: Largest number of bits (offsets x positions) for which the region's mask is shifted by every flat offset a
#: shape's cell may have at once (:func:`_python_layout`, :func:`_shifted_words`); past it, only by the offsets
#: the shapes' cells have, when first needed: a region of few cells spread over a wide box (one cell at each
#: end of a long row) would otherwise take memory in the square of its width.
_DENSE_SHIFTED_BITS = 1 << 26


class _Shifted(dict):
    """The region's mask shifted down by a flat offset, ``shifted[f]``, made when first asked for."""

    def __init__(self, mask: int) -> None:
        super().__init__()
        self.mask = mask

    def __missing__(self, f: int) -> int:
        value = self[f] = self.mask >> f
        return value


#: From how many placements on :func:`_placements` fills the table with numpy (below: in plain Python,
#: which costs no numpy calls per type; measured with ``benchmarks/bench_grids.py``) when numpy is
#: loaded already, and from how many it imports numpy for it (the import costs about as much as
#: filling this many in plain Python): a command on the bitboard kernel runs without numpy.
_NUMPY_FROM = 200
_NUMPY_IMPORT_FROM = 100_000
#: From how many orientations (all types together) :func:`_placements` finds the fits with numpy, when it
#: is loaded (:func:`_fits_numpy`: a few array operations whatever their number; below, a loop over them).
_NUMPY_FITS_FROM = 32
#: ... and from how many orientations times region cells (a deck's task, a few pieces in a small region,
#: is quicker in the loop).
_NUMPY_FITS_AREA = 2000


def _fill_python(shapes, forms, strides, fits, layout, n_cells) -> PlacementTable:
    """The table of :func:`_placements` in plain Python: each fit's items picked out of a window of the array."""
    _, item, coord = _python_layout(layout)
    rows: list = []                       # every option's items, a tuple per option
    orientation: list[int] = []
    origin: list[Cell] = []               # the first cell of every option's orientation
    counts = []                           # options per type
    for t, (type_shapes, form, masks) in enumerate(zip(shapes, forms, fits)):
        type_rows: list = []
        append = type_rows.append
        getters = form[0].get(("get", strides))
        if getters is None:
            getters = form[0]["get", strides] = [_getter(flat) for flat in _flats(form, strides)]
        for o, (shape, (cells_at, span), mask) in enumerate(zip(type_shapes, getters, masks)):
            if not mask:
                continue
            before = len(type_rows)
            while mask:                   # the bits set, lowest first: each fit's items picked out of the
                bit = mask & -mask        # window of the item array at the fit
                at = bit.bit_length() - 1
                append(cells_at(item[at:at + span]))
                mask ^= bit
            n = len(type_rows) - before
            orientation.extend(repeat(o, n))
            origin.extend(repeat(shape[0], n))
        rows.extend(map(add, type_rows, repeat((n_cells + t,))))
        counts.append(len(type_rows))
    widths = [len(type_shapes[0]) + 1 for type_shapes in shapes]
    indptr = array("I", [0])
    indptr.extend(accumulate(chain.from_iterable(repeat(w, n) for w, n in zip(widths, counts))))
    firsts = list(map(itemgetter(0), rows))
    offsets = zip(*[map(sub, map(xs.__getitem__, firsts), x0s) for xs, x0s in zip(coord, zip(*origin))])
    return PlacementTable(indptr, array("I", chain.from_iterable(rows)),
                          array("i", chain.from_iterable(repeat(t, n) for t, n in enumerate(counts))),
                          array("h", orientation), array("i", chain.from_iterable(offsets)))


def _getter(flat: list[int]) -> tuple:
    """A getter of these flat positions out of a window of the item array, and the window's span."""
    getter = itemgetter(*flat) if len(flat) > 1 else (lambda window, i=flat[0]: (window[i],))
    return getter, 1 + max(flat)


def _numpy_layout(layout) -> dict:
    """The region's layout (:func:`_region_layout`) as numpy arrays, made once: the item at each position (as in
    :func:`_python_layout`; none: the largest uint32, never read) and the translation (from the C extension's
    tables when it is built, :func:`_native_layout`), the bits of a fit mask (whole 64-bit words) and the bytes of
    it that can hold a position."""
    import numpy as np

    arrays = layout[6]
    if "item" not in arrays:   # made whole, then published in one step: another thread sees all of it or none
        total = layout[3][0]
        low, size = layout[5]
        native = _native_layout(layout)
        if native is not None:
            item = np.frombuffer(native[0], dtype=np.uint32)
            offset = np.frombuffer(native[1], dtype=np.int32)
        else:
            item = _position_items(layout, _cells_at(layout))
            offset = np.empty((*size, len(size)), dtype=np.int32)   # each position's translation
            for axis, (lo, n) in enumerate(zip(low, size)):
                offset[..., axis] = np.arange(lo, lo + n, dtype=np.int32).reshape((n,) + (1,) * (len(size) - 1 - axis))
        arrays.update({"item": item, "offset": offset.reshape(-1, len(size)), "bits": 64 * ((total + 63) // 64),
                       "used": (layout[1].bit_length() + 7) // 8})    # the bytes of a fit mask that hold positions
    return arrays


def _cells_at(layout):
    """The position of each cell then optional cell of the region's layout (:func:`_region_layout`): intp, made
    once."""
    import numpy as np

    at = layout[6].get("at")
    if at is None:
        at = layout[6]["at"] = np.array(layout[2], dtype=np.intp)
    return at


def _position_items(layout, at):
    """The item at each position of the region's layout (:func:`_region_layout`; as :func:`_cell_items`: the
    cells, then, after the types' items, the optional cells), given the cells' positions ``at``: uint32, shape
    (positions,); none: the largest uint32, never read."""
    import numpy as np

    item = np.full(layout[3][0], 0xFFFFFFFF, dtype=np.uint32)
    area, first_optional = layout[7].area, layout[7].area + layout[4]
    item[at[:area]] = np.arange(area, dtype=np.uint32)
    item[at[area:]] = np.arange(first_optional, first_optional + len(at) - area, dtype=np.uint32)
    return item


def _native_layout(layout) -> tuple | None:
    """The region's tables made by the C extension, once: the item at each position (uint32), the translation
    there (int32, dim per position) and, when they hold at most :data:`_DENSE_SHIFTED_BITS` bits, the region's mask
    shifted down by each flat offset a shape's cell may have (rows of whole 64-bit words; else None), each a
    bytearray; None when the extension is not built."""
    parts = layout[6].get("native")
    if parts is None:
        native = _c_fill()
        if native is None:
            return None
        where, (total, top), n_types, (low, size), region = layout[2], layout[3], layout[4], layout[5], layout[7]
        rows = top if top * 64 * ((total + 63) // 64) <= _DENSE_SHIFTED_BITS else 0
        parts = layout[6]["native"] = native.layout(where if type(where) is array else array("q", where),
                                                    region.area, region.area + n_types, low, size, rows)
    return parts


def _shifted_words(layout) -> dict:
    """:func:`_numpy_layout` with, made once, the region's mask shifted down by each flat offset a shape's cell
    may have, as 64-bit words (shape (offsets, words); from the C extension's tables when it is built), and the
    translations as words."""
    import numpy as np

    arrays = _numpy_layout(layout)
    if "positions" not in arrays:   # made whole, then published in one step (as _numpy_layout)
        nbits, top = arrays["bits"], layout[3][1]
        native = _native_layout(layout)
        made = {}
        if native is not None and native[2] is not None:
            made["shifted"] = np.frombuffer(native[2], dtype="<u8").reshape(top, nbits // 64)
        else:
            inside = np.zeros(nbits + top, dtype=bool)    # row f of its windows: the region's mask shifted down by f
            inside[_cells_at(layout)] = True
            made["windows"] = np.ndarray((top, nbits), dtype=bool, buffer=inside, strides=(1, 1))
            if top * nbits <= _DENSE_SHIFTED_BITS:       # else made row by row as needed (_shifted_rows)
                made["shifted"] = np.packbits(made["windows"], axis=1, bitorder="little").view("<u8")
        made["positions"] = _words([layout[1]], nbits // 8)[0]
        arrays.update(made)
    return arrays


def _shifted_rows(arrays, flats):
    """The shifted masks (:func:`_shifted_words`) the cells of ``flats`` need and ``flats`` as indices of them."""
    import numpy as np

    if "shifted" in arrays:
        return arrays["shifted"], flats
    offsets, index = np.unique(flats, return_inverse=True)
    rows = np.packbits(arrays["windows"][offsets], axis=1, bitorder="little").view("<u8")
    return rows, index.reshape(flats.shape)


def _words(masks: Sequence[int], nbytes: int):
    """Integers as little-endian 64-bit words, shape (len(masks), nbytes // 8)."""
    import numpy as np

    return np.frombuffer(b"".join([m.to_bytes(nbytes, "little") for m in masks]), "<u8").reshape(len(masks), -1)


def _fits_numpy(runs, strides, layout) -> list[tuple]:
    """The fits of every orientation with numpy, for each run of types of :func:`_runs`: :func:`_unpacked` of its
    fit masks, and the masks as 64-bit words (one row per orientation)."""
    arrays = _shifted_words(layout)
    out = []
    for run in runs:
        shifted, flats = _shifted_rows(arrays, _run_flats(run, strides))
        masks = shifted.take(flats[:, 0], axis=0)           # cell by cell: a take and an AND in place each
        for j in range(1, flats.shape[1]):
            masks &= shifted.take(flats[:, j], axis=0)
        masks &= arrays["positions"]
        out.append((*_unpacked(masks, arrays["used"]), masks))
    return out


def _fits_unpacked(runs, fits, layout) -> list[tuple]:
    """The fit masks of :func:`_placements` (integers, per type), for each run of types as :func:`_fits_numpy`
    gives them."""
    arrays = _numpy_layout(layout)
    return [_unpacked(_words([m for t in range(run.t0, run.t1) for m in fits[t]], arrays["bits"] // 8),
                      arrays["used"]) for run in runs]


def _unpacked(masks, used: int):
    """The set bits of fit masks (64-bit words, one row per orientation): each one's position, orientation by
    orientation, in order, and how many each orientation has. Only the first ``used`` bytes of each mask are
    read: no position lies beyond them (the words' last bytes pad the region's array to whole words; on a
    narrow array, such as a parallelogram of hexagons, a third of each mask)."""
    import numpy as np

    view = np.ascontiguousarray(masks, dtype="<u8").view(np.uint8)
    bits = np.unpackbits(view[:, :used] if used < view.shape[1] else view, axis=1, bitorder="little").view(bool)
    width = bits.shape[1]
    at = np.flatnonzero(bits)             # flat (one pass; a 2-D nonzero costs several times as much) ...
    del bits
    starts = np.arange(0, width * (len(masks) + 1), width)
    per_mask = np.diff(at.searchsorted(starts))
    at -= starts[:-1].repeat(per_mask)    # ... less each mask's start
    return at, per_mask


def _masks_of(run, fit) -> list[list[int]]:
    """The fits of a run (:func:`_fits_numpy`) as the fit masks (integers) of each of its types."""
    masks = fit[2]
    data = masks.astype("<u8").tobytes()
    size = len(data) // max(len(masks), 1)
    flat = [int.from_bytes(data[i:i + size], "little") for i in range(0, len(data), size)]
    out, o = [], 0
    for n in run.sizes:
        out.append(flat[o:o + n])
        o += n
    return out


def _table_arrays(counts: Sequence[int], widths: Sequence[int], dim: int) -> PlacementTable:
    """An empty :class:`PlacementTable` (zeros) of ``sum(counts)`` options, ``counts[i]`` of them with
    ``widths[i]`` items each, and ``dim`` coordinates per translation; made at its size at once."""
    n_options = sum(counts)
    return PlacementTable(*(array(code, [0]) * n for code, n in (
        ("I", n_options + 1), ("I", sum(map(mul, counts, widths))), ("i", n_options), ("h", n_options),
        ("i", dim * n_options))))


def _fill_c(runs, strides, layout, n_cells) -> PlacementTable | None:
    """The table of :func:`_placements` filled by the C extension ``ubongo_cp._placements`` (each run's fit
    masks ANDed word by word and their bits written out as rows in one pass, no array the size of the fits in
    between), the same bytes as :func:`_fill_numpy`; None when the extension is not built."""
    fill_c = _c_fill()
    if fill_c is None:
        return None
    import numpy as np

    arrays = _shifted_words(layout)
    positions = arrays["positions"]
    parts = []
    for run in runs:
        flats = np.ascontiguousarray(_run_flats(run, strides), dtype=np.int64)
        shifted, rows = _shifted_rows(arrays, flats)
        masks, n = fill_c.fits(shifted, np.ascontiguousarray(rows, dtype=np.int64), positions, flats.shape[1])
        if n:
            parts.append((masks, len(positions), flats.shape[1], flats,
                          np.ascontiguousarray(run.of_type, dtype=np.int32),
                          np.ascontiguousarray(run.orientation, dtype=np.int16), n))
    return _write_c(fill_c, parts, arrays["item"], arrays["offset"], len(strides), n_cells)


def _write_c(fill_c, parts, item, offset, dim: int, n_cells: int) -> PlacementTable:
    """The table of the C fill: made at its size, then each part's fits written after the previous part's. A part
    is (fit masks, 64-bit words per mask, cells per piece, flat offsets of the cells, type and rank of each
    orientation, fits); ``item`` and ``offset`` are the region's layout as ``fill`` reads it."""
    table = _table_arrays([part[-1] for part in parts], [part[2] + 1 for part in parts], dim)
    o = e = 0
    for masks, words, k, flats, of_type, rank, n in parts:
        fill_c.fill(masks, words, k, flats, item, offset, dim, of_type, rank, n_cells, *table, o, e)
        o += n
        e += n * (k + 1)
    return table


#: The C extension ``ubongo_cp._placements`` (:func:`_fill_c`, :func:`_fill_c_direct`, :func:`_fill_c_ints`), or
#: None when it is not built (the install compiles it: ``setup.py``).
_c_fill = c_placements


def _fill_c_ints(forms, strides, fits, layout, n_cells) -> PlacementTable | None:
    """The table of :func:`_placements` filled by the C extension (as :func:`_fill_c`) from the fit masks found in
    plain Python (integers, per type), without numpy: the same bytes; None when the extension is not built."""
    ready = _c_ready(layout)
    if ready is None:
        return None
    fill_c, item, offset, nbytes = ready
    found = []
    for k, t0, t1, flats, of_type, rank in _c_runs(forms, strides):
        masks = list(chain.from_iterable(fits[t0:t1]))
        n = sum([m.bit_count() for m in masks])
        if n:
            found.append((b"".join([m.to_bytes(nbytes, "little") for m in masks]), nbytes // 8, k, flats, of_type,
                          rank, n))
    return _write_c(fill_c, found, item, offset, len(strides), n_cells)


def _fill_c_direct(forms, strides, layout, n_cells) -> PlacementTable | None:
    """The table of :func:`_placements` found and filled by the C extension, one call of each of its two
    functions per run of types of one piece size (:func:`_c_runs`; no fit mask made in Python,
    :func:`_c_shifted`); the same bytes as the other ways; None when the extension is not built or the region
    is too spread out for its tables (:func:`_c_layout`, :func:`_c_shifted`)."""
    ready = _c_ready(layout)
    if ready is None:
        return None
    fill_c, item, offset, nbytes = ready
    shifted = _c_shifted(layout, nbytes)
    if shifted is None:
        return None
    rows, positions = shifted
    found = []
    for k, _, _, flats, of_type, rank in _c_runs(forms, strides):
        masks, n = fill_c.fits(rows, flats, positions, k)
        if n:
            found.append((masks, nbytes // 8, k, flats, of_type, rank, n))
    return _write_c(fill_c, found, item, offset, len(strides), n_cells)


def _c_ready(layout) -> tuple | None:
    """(the C extension, and the region's layout as it reads it: :func:`_c_layout`), or None when the extension
    is not built or the region is too spread out."""
    fill_c = _c_fill()
    if fill_c is None:
        return None
    parts = _c_layout(layout)
    return None if parts is None else (fill_c, *parts)


def _c_runs(forms, strides) -> list[tuple[int, int, int, array, array, array]]:
    """The types' orientations (:func:`_form` each) in runs of consecutive types of one piece size, as the C
    extension reads them: (cells per piece, the run's first type, one past its last, the flat offsets of every
    orientation's cells (int64), the type of each orientation (int32), its index among its type's (int16)).
    Cached by the identities of the orientation lists and the strides (the cache holds the lists, so their ids
    are not reused)."""
    key = ("c-runs", strides, *[id(form[1]) for form in forms])
    entry = _FORMS.get(key)
    if entry is None:
        runs: list[tuple[int, int, int, array, array, array]] = []
        for t, form in enumerate(forms):
            k, n = len(form[1][0]), len(form[1])
            if not runs or runs[-1][0] != k:
                runs.append((k, t, t, array("q"), array("i"), array("h")))
            _, t0, _, flats, of_type, rank = runs[-1]
            runs[-1] = (k, t0, t + 1, flats, of_type, rank)
            flats.extend(chain.from_iterable(_flats(form, strides)))
            of_type.extend(repeat(t, n))
            rank.extend(range(n))
        entry = _cache(_FORMS, key, ([form[1] for form in forms], runs))
    return entry[1]


def _c_shifted(layout, nbytes: int) -> tuple[bytes, bytes] | None:
    """The region's mask shifted down by each flat offset a shape's cell may have, as rows of ``nbytes`` bytes
    (:func:`_c_layout`'s whole 64-bit words; :func:`_native_layout`), and the positions a shape may be moved to,
    as words; made once per layout, None when the rows would pass :data:`_DENSE_SHIFTED_BITS` bits."""
    parts = layout[6].get("c-shifted")
    if parts is None:
        rows = _native_layout(layout)[2]
        if rows is None:
            return None
        parts = layout[6]["c-shifted"] = (rows, layout[1].to_bytes(nbytes, "little"))
    return parts


def _c_layout(layout) -> tuple | None:
    """The region's layout (:func:`_region_layout`) as the C fill reads it, made once without numpy
    (:func:`_native_layout`): the item at each position (uint32; none: the largest, never read), each position's
    translation (int32, dim per position) and the bytes of a fit mask (whole 64-bit words); None for a region
    whose cells are spread over more than :data:`_C_FRAME_PER_CELL` positions each (and more than
    :data:`_C_FRAME` in all), which the other ways fill without a table per position."""
    parts = layout[6].get("c")
    if parts is None:
        total, where = layout[3][0], layout[2]
        if total > max(_C_FRAME, _C_FRAME_PER_CELL * len(where)):
            return None
        item, offset, _ = _native_layout(layout)
        parts = layout[6]["c"] = (item, offset, 8 * ((total + 63) // 64))
    return parts


#: The C fill from plain Python (:func:`_c_layout`) for regions spread over at most this many positions of the
#: array, or this many per cell.
_C_FRAME = 1 << 10
_C_FRAME_PER_CELL = 16


def _fill_numpy(runs, fits, strides, layout, n_cells) -> PlacementTable:
    """The table of :func:`_placements` with numpy: its arrays made at their size first, then for each run of types
    whose pieces have one size (:func:`_runs`) the rows of every fit (positions and counts per orientation:
    :func:`_unpacked`) gathered straight into them (no copy of the table, little memory beyond it)."""
    import numpy as np

    arrays = _numpy_layout(layout)
    item_at, offset_at = arrays["item"], arrays["offset"]
    counts = [len(fit[0]) for fit in fits]
    widths = [run.cells.shape[1] + 1 for run in runs]
    dim = offset_at.shape[1]
    table = _table_arrays(counts, widths, dim)
    indptr, indices, option_type, orientation, offsets = (
        np.frombuffer(part, dtype=part.typecode) for part in (table.indptr, table.indices, table.option_type,
                                                             table.option_orientation, table.option_offset))
    o = e = 0                                 # options and items written so far
    for run, (pos, per_mask, *_), n, width in zip(runs, fits, counts, widths):
        if not n:
            continue
        rows = indices[e:e + n * width].reshape(n, width)
        for j, flat in enumerate(_run_flats(run, strides).T):   # cell by cell: one position per fit at a time
            at = flat.repeat(per_mask)
            at += pos
            item_at.take(at, out=rows[:, j], mode="clip")       # every index is in the array
            del at                                              # freed before the next one is made (less memory)
        of_type = option_type[o:o + n]
        of_type[:] = run.of_type.repeat(per_mask)
        np.add(of_type, n_cells, out=rows[:, -1], casting="unsafe")
        orientation[o:o + n] = run.orientation.repeat(per_mask)
        offset_at.take(pos, axis=0, out=offsets[dim * o:dim * (o + n)].reshape(n, dim), mode="clip")
        indptr[o + 1:o + n + 1] = np.arange(e + width, e + width * n + 1, width, dtype=np.uint32)
        o += n
        e += n * width
    return table


class _Plan:
    """What :func:`_placements` derives from one list of the types' orientations (:func:`_plan`), each part made
    when first needed and kept: the list, its number of orientations (:func:`_vectorised`), its runs as arrays
    (:func:`_runs`) and its forms for the ways without numpy (:func:`_forms_of`)."""

    __slots__ = ("shapes", "n_orientations", "runs", "forms")

    def __init__(self, shapes: Sequence[Sequence[Shape]]) -> None:
        self.shapes = list(shapes)
        self.n_orientations: int | None = None
        self.runs: tuple[tuple[int, ...], list[_Run]] | None = None
        self.forms: tuple[list[Sequence[Shape]], list[tuple], tuple[int, ...]] | None = None


def _plan(shapes: Sequence[Sequence[Shape]]) -> _Plan:
    """The :class:`_Plan` of these orientation lists (``shapes[t]``: type t's), cached by their identities
    (:func:`_identities`; the plan holds them, so their ids are not reused): a deck or a census places the same
    orientations again and again."""
    key = ("plan", *_identities(shapes, _whole_batch(shapes)))
    plan = _FORMS.get(key)
    if plan is None:
        plan = _cache(_FORMS, key, _Plan(shapes))
    return plan


class _Run:
    """Consecutive types whose pieces have one size (:func:`_runs`), their orientations one after the other.

    A plain class, as :class:`_Plan`: the runs are made only where numpy places the pieces, and a named tuple's
    class is compiled as the module is imported, by every command."""

    __slots__ = ("t0", "t1", "sizes", "cells", "of_type", "orientation", "flats")

    def __init__(self, t0: int, t1: int, sizes: list[int], cells: np.ndarray, of_type: np.ndarray,
                 orientation: np.ndarray, flats: dict) -> None:
        self.t0 = t0                    #: the first type
        self.t1 = t1                    #: one past the last
        self.sizes = sizes              #: orientations per type
        self.cells = cells              #: int, (orientations, cells, dim): every orientation's cells (normal position)
        self.of_type = of_type          #: int32, (orientations,): each one's type
        self.orientation = orientation  #: int16, (orientations,): each one's index among its type's
        self.flats = flats              #: strides -> int, (orientations, cells): the cells' flat positions (:func:`_run_flats`)


def _runs(plan: _Plan) -> tuple[tuple[int, ...], list[_Run]]:
    """The types' orientations (``plan.shapes[t]``) in runs of one piece size, as arrays: the extent of every
    orientation together (1 + the largest coordinate, per axis) and the :class:`_Run` list; made once per plan.

    The cells come from the orientations' own array when they were computed with numpy
    (:class:`~ubongo_cp.grids.base.Orientations`, :class:`~ubongo_cp.grids.base.LazyOrientations`: the rows of
    their batch at once when a run's types are consecutive shapes of one batch), else from their tuples.
    """
    if plan.runs is not None:
        return plan.runs
    import numpy as np

    shapes = plan.shapes
    first = shapes[0] if shapes else None
    if type(first) is LazyOrientations and first.batch.members == shapes:   # one batch, in order: one run
        batch = first.batch
        plan.runs = (batch.reach, [_Run(0, len(shapes), batch.counts, batch.cells, batch.of_shape, batch.rank(), {})])
        return plan.runs
    runs = []
    t0 = 0
    n_cells = [s.batch.cells.shape[1] if isinstance(s, LazyOrientations) else len(s[0]) for s in shapes]
    while t0 < len(shapes):
        k = n_cells[t0]
        t1 = t0 + 1
        while t1 < len(shapes) and n_cells[t1] == k:
            t1 += 1
        group = shapes[t0:t1]
        first = group[0]
        if type(first) is LazyOrientations and first.batch.members[first.number:first.number + len(group)] == group:
            batch, i0 = first.batch, first.number    # consecutive shapes of one batch: its rows at once
            a, b = batch.starts[i0], batch.starts[i0 + len(group)]
            of_type = batch.of_shape[a:b] if i0 == t0 else batch.of_shape[a:b] + np.int32(t0 - i0)
            runs.append(_Run(t0, t1, batch.counts[i0:i0 + len(group)], batch.cells[a:b], of_type,
                             batch.rank()[a:b], {}))
            t0 = t1
            continue
        sizes = [len(s) for s in group]
        parts = [s.array if isinstance(s, (Orientations, LazyOrientations)) else np.array(s, dtype=np.int64)
                 for s in group]
        cells = parts[0] if len(parts) == 1 else np.concatenate(parts)
        starts = np.cumsum([0, *sizes[:-1]]).repeat(sizes)
        runs.append(_Run(t0, t1, sizes, cells, np.arange(t0, t1, dtype=np.int32).repeat(sizes),
                         (np.arange(len(cells)) - starts).astype(np.int16), {}))
        t0 = t1
    dim = runs[0].cells.shape[2]
    reach = np.max([run.cells.reshape(-1, dim).max(axis=0) for run in runs], axis=0) + 1
    plan.runs = (tuple(reach.tolist()), runs)
    return plan.runs


def _run_flats(run: _Run, strides: tuple[int, ...]):
    """The flat positions (:func:`_placements`) of the cells of a run's orientations in the array of these
    strides: int64, shape (orientations, cells) (in one pass in C when the extension is built: a product of int
    matrices is a slow loop in numpy); kept in the run for the next instance."""
    import numpy as np

    flats = run.flats.get(strides)
    if flats is None:
        native = _c_fill()
        if native is not None:
            cells = np.ascontiguousarray(run.cells, dtype=np.int64)
            flats = np.frombuffer(native.flatten(cells, strides, 0), dtype=np.int64).reshape(cells.shape[:2])
        else:
            flats = run.cells @ np.array(strides, dtype=np.int64)
        run.flats[strides] = flats
    return flats


#: Caches of :func:`_placements`: the types' orientations' extents and flat forms (:func:`_form`, by the
#: identity of a piece's orientation list; and the runs of types as arrays, :func:`_runs`, by the identities of
#: every type's list) and the regions' array layouts (by region, the shapes' reach and
#: the number of types; and by the region's identity, quicker to look up than an equal region). A deck
#: builds each card side's region for every die face, a census or a benchmark the same orientations again
#: and again; each is emptied when it reaches :data:`_CACHE_SIZE` entries, or when the bytes its entries are
#: expected to hold would pass :data:`_CACHE_BYTES` (a region's layout grows with its bounding box: many large
#: regions far apart would otherwise keep gigabytes).
_FORMS: dict = {}
_REGIONS: dict = {}
_CACHE_SIZE = 1 << 14
_CACHE_BYTES = 64 << 20
_HELD: dict[int, int] = {}     # id of a cache -> the bytes its entries are expected to hold (an estimate)


def _cache(cache: dict, key, value, nbytes: int = 0):
    """Store ``value`` under ``key`` (emptying ``cache`` first when full: :data:`_CACHE_SIZE` entries, or
    ``nbytes`` more than :data:`_CACHE_BYTES` allow); return it."""
    held = _HELD.get(id(cache), 0) if cache else 0
    if len(cache) >= _CACHE_SIZE or held + nbytes > _CACHE_BYTES:
        cache.clear()
        held = 0
    _HELD[id(cache)] = held + nbytes
    cache[key] = value
    return value


def _form(shapes: Sequence[Shape]) -> tuple[dict, Sequence[Shape], Shape]:
    """One type's orientations: a dict for their flat forms by strides and their extent (:func:`_placements`),
    the orientations, and the least of them (the type's key, :func:`piece_types`).

    Cached by the identity of the orientations' list (a piece's orientations are computed once,
    :meth:`ubongo_cp.pieces.Piece.orientations`); the cache holds the list, so its id is not reused.
    """
    entry = _FORMS.get(id(shapes))
    if entry is not None and entry[1] is shapes:
        return entry
    return _cache(_FORMS, id(shapes), ({}, shapes, min(shapes)))


def _extent(form) -> tuple[int, ...]:
    """The extent per axis of a :func:`_form`'s orientations (1 + the largest coordinate; normal position)."""
    extent = form[0].get("extent")
    if extent is None:
        extent = form[0]["extent"] = tuple(1 + max(col) for col in zip(*chain.from_iterable(form[1])))
    return extent


def _flatten(points: Iterable[tuple[int, ...]], strides: Sequence[int], base: int = 0) -> list[int]:
    """Array coordinates as flat positions (row-major, these strides) less ``base``; plain loops in 2 and 3
    dimensions."""
    if len(strides) == 2:
        s0 = strides[0]
        return [x * s0 + y - base for x, y in points]
    if len(strides) == 3:
        s0, s1 = strides[0], strides[1]
        return [x * s0 + y * s1 + z - base for x, y, z in points]
    return [sum(map(mul, point, strides)) - base for point in points]


def task_instance(card: "CardSide", face: int, *, max_empty: int | None = None) -> ExactCoverInstance:
    """The exact-cover instance of the task on ``face`` of a card side (rules UP-1, UP-2).

    Parameters
    ----------
    card : CardSide
        A parsed card side (:func:`ubongo_cp.cards.load_card`).
    face : int
        A die face of the card side.
    max_empty : int, optional
        Cells of the region that may stay empty (:func:`build_instance`);
        default: what the card's task says (0 unless it says ``max_empty``).

    Returns
    -------
    ExactCoverInstance
        In the card's orientation mode (free by rule UP-3 unless the card says
        otherwise), with the task's ranges of piece counts
        (:attr:`ubongo_cp.cards.CardSide.ranges`).

    Raises
    ------
    InputError
        For a face the card side does not have (or one that is no whole number), or a ``card`` that is no
        card side.

    Examples
    --------
    >>> from ubongo_cp.cards import load_card
    >>> inst = task_instance(load_card("puzzles/examples/classic_X1_easy.toml"), 1)
    >>> [p.name for p in inst.pieces], inst.n_cells
    (['I2', 'L4', 'Y5'], 11)
    """
    if not hasattr(card, "task_pieces"):
        raise InputError(f"task_instance needs a card side (ubongo_cp.cards.load_card), got {type(card).__name__}")
    if max_empty is None:
        max_empty = card.max_empty.get(face, 0)
    return build_instance(card.task_pieces(face), card.region, mode=card.orientations,
                          ranges=card.ranges.get(face), max_empty=max_empty)


def __getattr__(name: str):
    """:func:`~ubongo_cp.verify.verify_solution`, exported here too: its module is imported when it is first asked
    for (a search does not check its solutions with it)."""
    if name == "verify_solution":
        from .verify import verify_solution

        return verify_solution
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names with those :func:`__getattr__` gives out on first use (PEP 562)."""
    return sorted(set(globals()) | set(__all__))
