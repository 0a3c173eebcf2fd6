"""Placements of pieces in a region as one exact-cover instance.

The only place that enumerates placements: every solver backend, the
rating, the subset analysis and the generator consume its
:class:`ExactCoverInstance`. The reduction (Knuth's polyomino examples [1]_,
OR-Tools' ``pentominoes_sat.py``), identical pieces as *items with
multiplicities* (Knuth's Algorithm M [1]_):

- *items*: one per region cell, then one per *piece type*;
- *options*: one per placement (piece type, fixed orientation, offset) in
  the region, holding the covered cell items and the type's item;
- cell items are *primary* (covered exactly once, rule UP-2); a type item
  with ``k`` copies is primary with multiplicity ``[k..k]`` (each piece used
  exactly once, UP-2) or, for subset analysis, secondary with ``[0..k]``.

A *piece type* is a class of identical pieces (UP-5): the same shape under
the orientation mode, whatever the names, so ``B, B, B, B`` and ``B1, B2,
B3, B4`` (four 2x2 squares) give the same instance, search and count (with
optional pieces types are by name: the subset analysis reports names). A
solution is a *set* of placements: no copy ordering is ever enumerated.
The output keeps copies apart (:meth:`ExactCoverInstance.solution_dict`:
``name``, ``name#2``, ... for a name used twice). Items are numbered cells
first (sorted cell order), then types: secondary items last, as solvers expect.

References
----------
.. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 4B, 7.2.2.1 "Dancing links" (2022): primary
   and secondary items, Algorithm M (multiplicities); "Dancing Links", arXiv:cs/0011047 (2000).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Iterable, Sequence

import numpy as np

from .geometry import Cell, Shape, symmetry_group, transform
from .pieces import Piece, Region
from .verify import verify_solution

if TYPE_CHECKING:
    from .cards import CardSide

__all__ = ["ExactCoverInstance", "build_instance", "task_instance", "verify_solution", "piece_types"]


@dataclass(frozen=True, eq=False)
class ExactCoverInstance:
    """One exact-cover instance: pieces to place in a region.

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
    indptr, indices : numpy.ndarray of uint32
        The options in CSR form: option ``o`` covers items
        ``indices[indptr[o]:indptr[o+1]]`` (cells first, then the type's item).
    option_type : numpy.ndarray of int32, shape (n_options,)
        Index into :attr:`types` of each option's piece type (a type's
        options are contiguous).
    option_orientation : numpy.ndarray of int16, shape (n_options,)
        Index into ``type_piece(t).orientations(mode)``.
    option_offset : numpy.ndarray of int32, shape (n_options, 2)
        (row, col) added to the orientation's cells.
    """

    pieces: tuple[Piece, ...]
    region: Region
    optional_pieces: bool
    mode: str
    types: tuple[tuple[int, ...], ...]
    indptr: np.ndarray
    indices: np.ndarray
    option_type: np.ndarray
    option_orientation: np.ndarray
    option_offset: np.ndarray

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
        """Cell items plus piece-type items."""
        return self.region.area + len(self.types)

    @property
    def n_primary(self) -> int:
        """Items that must be covered (cells once, piece types as often as they have copies)."""
        return self.n_cells if self.optional_pieces else self.n_items

    @property
    def n_secondary(self) -> int:
        """Items covered at most their multiplicity (the piece types in subset analysis)."""
        return self.n_items - self.n_primary

    @property
    def n_options(self) -> int:
        """Number of placements."""
        return len(self.option_type)

    # ------------------------------------------------------------ structure
    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        """Cell of each cell item."""
        return tuple(self.region.cells)

    def type_piece(self, t: int) -> Piece:
        """The piece (first copy) that stands for type ``t``."""
        return self.pieces[self.types[t][0]]

    @cached_property
    def type_counts(self) -> np.ndarray:
        """Copies of each piece type, shape (n_types,)."""
        return np.array([len(copies) for copies in self.types], dtype=np.int64)

    @cached_property
    def multiplicity(self) -> np.ndarray:
        """Bounds ``(lo, hi)`` of each item, shape (n_items, 2) (Algorithm M, :func:`.solvers.dancing.count`).

        ``(1, 1)`` for a cell; ``(k, k)`` for a type with ``k`` copies (``(0, k)`` with optional pieces).
        """
        bounds = np.ones((self.n_items, 2), dtype=np.int64)
        bounds[self.n_cells:, 1] = self.type_counts
        bounds[self.n_cells:, 0] = 0 if self.optional_pieces else self.type_counts
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
    def type_first_option(self) -> np.ndarray:
        """Id of each type's first option, shape (n_types,) (a type's options are contiguous)."""
        return np.searchsorted(self.option_type, np.arange(self.n_types))

    def option_items(self, option: int) -> np.ndarray:
        """Items covered by ``option`` (cells first, then the type's item)."""
        return self.indices[self.indptr[option]:self.indptr[option + 1]]

    def option_cells(self, option: int) -> list[Cell]:
        """Region cells covered by ``option``, as (row, col)."""
        cells = self.cells
        return [cells[i] for i in self.option_items(option) if i < self.n_cells]

    @cached_property
    def _item_csr(self) -> tuple[np.ndarray, np.ndarray]:
        """The transpose of the options: (pointers, shape (n_items + 1,); option ids, shape (entries,))."""
        option_of_entry = np.repeat(np.arange(self.n_options), np.diff(self.indptr.astype(np.int64)))
        order = np.argsort(self.indices, kind="stable")  # stable: each item's options stay increasing
        ptr = np.searchsorted(self.indices[order], np.arange(self.n_items + 1))
        return ptr, option_of_entry[order]

    @cached_property
    def item_options(self) -> tuple[list[int], ...]:
        """The options covering each item (a list of option ids, increasing), one list per item."""
        ptr, options = self._item_csr
        options = options.tolist()
        cuts = ptr.tolist()
        return tuple(options[cuts[i]:cuts[i + 1]] for i in range(self.n_items))

    def options_per_item(self) -> np.ndarray:
        """Number of placements covering each item, shape (n_items,)."""
        return self._item_counts

    @cached_property
    def _item_counts(self) -> np.ndarray:
        return np.bincount(self.indices, minlength=self.n_items)

    def options_per_type(self) -> np.ndarray:
        """Number of placements of each piece type, shape (n_types,)."""
        return self.options_per_item()[self.n_cells:]

    def options_per_piece(self) -> np.ndarray:
        """Number of placements of each piece copy (those of its type), shape (len(pieces),)."""
        per_copy = np.zeros(len(self.pieces), dtype=np.int64)
        for t, copies in enumerate(self.types):
            per_copy[list(copies)] = self.options_per_type()[t]
        return per_copy

    def options_per_cell(self) -> np.ndarray:
        """Number of placements covering each cell item, shape (n_cells,)."""
        return self._item_counts[:self.n_cells]

    def solution_dict(self, options: Iterable[int]) -> dict[str, list[Cell]]:
        """Piece copy -> sorted covered cells, for a solution given as option ids.

        Keys are :attr:`copy_names` (a name used twice: ``name``,
        ``name#2``, ...), in the order of :attr:`pieces`; the copies of a
        type take its chosen placements in increasing option id.
        """
        by_type: dict[int, list[int]] = {}
        for o in sorted(int(o) for o in options):
            by_type.setdefault(int(self.option_type[o]), []).append(o)
        placed = sorted((copy, o) for t, opts in by_type.items() for copy, o in zip(self.types[t], opts))
        names = self.copy_names
        return {names[copy]: sorted(self.option_cells(o)) for copy, o in placed}

    # --------------------------------------------------------- cheap checks
    def precheck(self) -> str | None:
        """Reason why no exact cover can exist, found without search; else ``None``.

        Checks (cheap, in this order): total piece area vs region area (UP-4;
        skipped when pieces are optional), a piece with no placement, a cell
        that no placement covers, and the colouring arguments of
        :mod:`ubongo_cp.colouring` (checkerboard, column and row stripes;
        with every piece used).
        """
        if not self.optional_pieces:
            area = sum(p.size for p in self.pieces)
            if area != self.region.area:
                return f"area mismatch: pieces cover {area} cells, region has {self.region.area}"
            per_piece = self.options_per_piece()
            for i, p in enumerate(self.pieces):
                if per_piece[i] == 0:
                    return f"piece {p.name} fits nowhere in the region"
        per_cell = self.options_per_cell()
        if (per_cell == 0).any():
            r, c = self.cells[int(np.argmin(per_cell))]
            return f"cell ({r}, {c}) cannot be covered by any placement"
        if not self.optional_pieces:
            from .colouring import colouring_obstruction

            return colouring_obstruction(self.pieces, self.region, self.mode)
        return None

    # ------------------------------------------------------------ symmetry
    @cached_property
    def _symmetries(self) -> list[tuple[tuple[int, int, int, int], tuple[int, ...]]]:
        """(symmetry, type map) of each region symmetry mapping every type onto a type with as many copies."""
        owner: dict[Shape, list[int]] = {}
        for t in range(self.n_types):
            for shape in self.type_piece(t).orientations(self.mode):
                owner.setdefault(shape, []).append(t)
        counts = self.type_counts
        out = []
        for sym in symmetry_group(self.region.cells):
            tmap = []
            for t in range(self.n_types):
                image = transform(self.type_piece(t).cells, sym)
                holders = owner.get(image, [])
                u = t if t in holders else (holders[0] if len(holders) == 1 else -1)
                if u < 0 or counts[u] != counts[t]:
                    break
                tmap.append(u)
            else:
                out.append((sym, tuple(tmap)))
        return out

    @property
    def region_symmetries(self) -> list[tuple[int, int, int, int]]:
        """Symmetries of the region that map the instance onto itself (identity first).

        Free mode (UP-3): the region's whole group. One-sided or fixed: a
        symmetry that maps a piece to another shape (F to its mirror image)
        belongs here when it maps the piece multiset onto itself with that
        relabelling (:attr:`symmetry_type_maps`): all four of a rectangle's
        for the 18 one-sided pentominoes, its rotations for the 12.
        """
        return [sym for sym, _ in self._symmetries]

    @property
    def symmetry_type_maps(self) -> list[tuple[int, ...]]:
        """For each of :attr:`region_symmetries`, the image type of each type."""
        return [tmap for _, tmap in self._symmetries]

    @cached_property
    def _placement_blocks(self) -> list[tuple[int, int, np.ndarray, np.ndarray]]:
        """Per type with placements: (type, first option id, cell items (n, size), the same sorted by row)."""
        blocks = []
        for t, n in enumerate(self.options_per_type().tolist()):
            if n:
                lo, size = int(self.type_first_option[t]), self.type_piece(t).size
                start = int(self.indptr[lo])
                # A type's options are contiguous; each holds `size` cells, then the type's item.
                cells = self.indices[start:start + n * (size + 1)].reshape(n, size + 1)[:, :size]
                blocks.append((t, lo, cells, np.sort(cells, axis=1)))
        return blocks

    @cached_property
    def option_perms(self) -> list[np.ndarray]:
        """Option permutation of each non-identity symmetry of the instance, each of shape (n_options,).

        ``perm[o]`` is the placement of ``o``'s image type on the image of
        ``o``'s cells under the symmetry (one per entry of
        :attr:`region_symmetries` after the identity, in that order).
        Cost ``O(|G| x options x piece size)``, once per instance.
        """
        if len(self.region_symmetries) <= 1 or self.n_options == 0:
            return []
        index = {cell: i for i, cell in enumerate(self.cells)}
        where = {t: {row.tobytes(): lo + i for i, row in enumerate(rows)} for t, lo, _, rows in self._placement_blocks}
        perms = []
        for (a, b, c, d), tmap in self._symmetries[1:]:
            raw = [(a * r + b * q, c * r + d * q) for r, q in self.cells]
            r0 = min(r for r, _ in raw)
            c0 = min(q for _, q in raw)
            cell_map = np.array([index[(r - r0, q - c0)] for r, q in raw], dtype=self.indices.dtype)
            perm = np.empty(self.n_options, dtype=np.int64)
            for t, lo, cells, _ in self._placement_blocks:
                target = where.get(tmap[t], {})
                images = [target.get(row.tobytes(), -1) for row in np.sort(cell_map[cells], axis=1)]
                perm[lo:lo + len(images)] = images
            perms.append(perm)
        return perms

    def stabiliser_order(self, options: Sequence[int]) -> int:
        """How many symmetries of the instance (identity included) map this solution onto itself (UP-5).

        By Burnside's lemma the number of solutions up to symmetry is the sum
        of this over all solutions divided by ``len(region_symmetries)``: no
        solution needs to be remembered.
        """
        chosen = np.asarray(options, dtype=np.int64)
        own = np.sort(chosen)
        return 1 + sum(bool(np.array_equal(np.sort(perm[chosen]), own)) for perm in self.option_perms)

    def canonical_key(self, options: Sequence[int]) -> tuple[int, ...]:
        """A key equal for two solutions exactly when a symmetry of the instance maps one to the other (UP-5)."""
        chosen = np.asarray(options, dtype=np.int64)
        best = tuple(sorted(chosen.tolist()))
        for perm in self.option_perms:
            cand = tuple(sorted(perm[chosen].tolist()))
            if cand < best:
                best = cand
        return best


def piece_types(pieces: Sequence[Piece], mode: str = "free", *, by_name: bool = False) -> tuple[tuple[int, ...], ...]:
    """Group piece copies into types of identical pieces (UP-5).

    Parameters
    ----------
    pieces : sequence of Piece
        Piece copies (names may repeat).
    mode : {"free", "one-sided", "fixed"}
        Orientation mode: two pieces are identical when they have the same
        orientations in this mode (in one-sided mode a piece and its mirror
        image are two types).
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
    groups: dict[object, list[int]] = {}
    for i, p in enumerate(pieces):
        key = p.name if by_name else min(p.orientations(mode))
        groups.setdefault(key, []).append(i)
    return tuple(tuple(g) for g in groups.values())


def build_instance(pieces: Sequence[Piece], region: Region, *, optional_pieces: bool = False,
                   mode: str = "free") -> ExactCoverInstance:
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
        Types are then by name.
    mode : {"free", "one-sided", "fixed"}
        Orientations allowed (UP-3: free).

    Returns
    -------
    ExactCoverInstance

    Notes
    -----
    Cost O(orientations x bounding-box offsets x piece size), numpy slicing of a boolean grid.

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
    """
    pieces = tuple(pieces)
    types = piece_types(pieces, mode, by_name=optional_pieces)
    n_cells = region.area
    height, width = region.height, region.width
    grid = np.zeros((height, width), dtype=bool)
    index = np.full((height, width), -1, dtype=np.int64)
    for i, (r, c) in enumerate(region.cells):
        grid[r, c] = True
        index[r, c] = i

    blocks_items, blocks_type, blocks_orient, blocks_offset, sizes = [], [], [], [], []
    for t, copies in enumerate(types):
        piece = pieces[copies[0]]
        items, orient, offset = _placements(piece.orientations(mode), grid, index)
        n = len(items)
        type_col = np.full((n, 1), n_cells + t, dtype=np.int64)
        blocks_items.append(np.hstack([items, type_col]).ravel())
        blocks_type.append(np.full(n, t, dtype=np.int32))
        blocks_orient.append(orient)
        blocks_offset.append(offset)
        sizes.append(np.full(n, piece.size + 1, dtype=np.int64))
    sizes = np.concatenate(sizes) if sizes else np.zeros(0, np.int64)
    indptr = np.zeros(len(sizes) + 1, dtype=np.uint32)
    indptr[1:] = np.cumsum(sizes)
    indices = (np.concatenate(blocks_items) if blocks_items else np.zeros(0)).astype(np.uint32)
    return ExactCoverInstance(
        pieces=pieces,
        region=region,
        optional_pieces=optional_pieces,
        mode=mode,
        types=types,
        indptr=indptr,
        indices=indices,
        option_type=np.concatenate(blocks_type) if blocks_type else np.zeros(0, np.int32),
        option_orientation=(np.concatenate(blocks_orient) if blocks_orient else np.zeros(0)).astype(np.int16),
        option_offset=(np.concatenate(blocks_offset) if blocks_offset else np.zeros((0, 2))).astype(np.int32),
    )


def task_instance(card: "CardSide", face: int) -> ExactCoverInstance:
    """The exact-cover instance of the task on ``face`` of a card side (rules UP-1, UP-2).

    Parameters
    ----------
    card : CardSide
        A parsed card side (:func:`ubongo_cp.cards.load_card`).
    face : int
        A die face of the card side.

    Returns
    -------
    ExactCoverInstance
        In the card's orientation mode (free by rule UP-3 unless the card says otherwise).

    Raises
    ------
    InputError
        For a face the card side does not have.

    Examples
    --------
    >>> from ubongo_cp.cards import load_card
    >>> inst = task_instance(load_card("puzzles/examples/classic_X1_easy.toml"), 1)
    >>> [p.name for p in inst.pieces], inst.n_cells
    (['I2', 'L4', 'Y5'], 11)
    """
    return build_instance(card.task_pieces(face), card.region, mode=card.orientations)


def _placements(shapes: list[Shape], grid: np.ndarray, index: np.ndarray):
    """(items (n, k), orientation ids (n,), offsets (n, 2)) of every fit of the shapes."""
    height, width = grid.shape
    all_items, all_orient, all_offset = [], [], []
    for o_idx, shape in enumerate(shapes):
        h = 1 + max(r for r, _ in shape)
        w = 1 + max(c for _, c in shape)
        if h > height or w > width:
            continue
        valid = np.ones((height - h + 1, width - w + 1), dtype=bool)
        for r, c in shape:
            valid &= grid[r:r + height - h + 1, c:c + width - w + 1]
        dr, dc = np.nonzero(valid)
        if len(dr) == 0:
            continue
        rs = np.array([r for r, _ in shape])
        cs = np.array([c for _, c in shape])
        all_items.append(index[dr[:, None] + rs[None, :], dc[:, None] + cs[None, :]])
        all_orient.append(np.full(len(dr), o_idx, dtype=np.int16))
        all_offset.append(np.stack([dr, dc], axis=1))
    k = len(shapes[0]) if shapes else 0
    if not all_items:
        return np.zeros((0, k), np.int64), np.zeros(0, np.int16), np.zeros((0, 2), np.int64)
    return np.concatenate(all_items), np.concatenate(all_orient), np.concatenate(all_offset)
