"""Placements of pieces in a region as one exact-cover instance.

This module is the only place that enumerates placements; every solver
backend, the rating, the subset analysis and the generator consume the
:class:`ExactCoverInstance` it builds.

The reduction (as in Knuth's polyomino examples [1]_ and OR-Tools'
``pentominoes_sat.py``):

- *items*: one per region cell, then one per piece copy;
- *options*: one per placement, i.e. (piece, fixed orientation, offset) whose
  cells all lie in the region; the option holds the covered cell items and
  the piece's item;
- cell items are *primary* (covered exactly once, rule UP-2); piece items are
  primary (each named piece used exactly once, UP-2) or, for subset analysis,
  *secondary* (each piece used at most once).

A multiset of pieces (a name used twice) gets one item per copy; the copies
have the same placements, so solvers keep only solutions whose copies take
placements in increasing option order (:attr:`ExactCoverInstance.copy_groups`)
and identical pieces are not told apart (UP-5).

Items are numbered cells first (``0 .. n_cells-1``, in sorted cell order),
then pieces; secondary items come last, as Knuth's and xcover's solvers expect.

References
----------
.. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 4B, Section
   7.2.2.1 "Dancing links" (2022), exact cover with primary and secondary
   items; and "Dancing Links", arXiv:cs/0011047 (2000).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Iterable, Sequence

import numpy as np

from .geometry import ORIENTATION_MODES, SYMMETRIES, Cell, Shape, symmetry_group, transform
from .pieces import Piece, Region

if TYPE_CHECKING:
    from .cards import CardSide

__all__ = ["ExactCoverInstance", "build_instance", "task_instance", "verify_solution"]


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
    indptr, indices : numpy.ndarray of uint32
        The options in CSR form: option ``o`` covers items
        ``indices[indptr[o]:indptr[o+1]]`` (cells first, then the piece item).
    option_piece : numpy.ndarray of int32, shape (n_options,)
        Index into :attr:`pieces` of each option's piece copy.
    option_orientation : numpy.ndarray of int16, shape (n_options,)
        Index into ``pieces[p].orientations(mode)``.
    option_offset : numpy.ndarray of int32, shape (n_options, 2)
        (row, col) added to the orientation's cells.
    """

    pieces: tuple[Piece, ...]
    region: Region
    optional_pieces: bool
    mode: str
    indptr: np.ndarray
    indices: np.ndarray
    option_piece: np.ndarray
    option_orientation: np.ndarray
    option_offset: np.ndarray

    # ------------------------------------------------------------------ sizes
    @property
    def n_cells(self) -> int:
        """Number of cell items (the region's area)."""
        return self.region.area

    @property
    def n_items(self) -> int:
        """Cell items plus piece items."""
        return self.region.area + len(self.pieces)

    @property
    def n_primary(self) -> int:
        """Items that must be covered exactly once."""
        return self.n_cells if self.optional_pieces else self.n_items

    @property
    def n_secondary(self) -> int:
        """Items covered at most once (the piece items in subset analysis)."""
        return self.n_items - self.n_primary

    @property
    def n_options(self) -> int:
        """Number of placements."""
        return len(self.option_piece)

    # ------------------------------------------------------------ structure
    @cached_property
    def cells(self) -> tuple[Cell, ...]:
        """Cell of each cell item."""
        return tuple(self.region.cells)

    @cached_property
    def item_names(self) -> list[str]:
        """Readable item names: ``"r,c"`` for cells, the piece name (``#k`` for copies)."""
        names = [f"{r},{c}" for r, c in self.cells]
        seen: dict[str, int] = {}
        for p in self.pieces:
            seen[p.name] = seen.get(p.name, 0) + 1
            names.append(p.name if seen[p.name] == 1 else f"{p.name}#{seen[p.name]}")
        return names

    @cached_property
    def copy_groups(self) -> tuple[tuple[int, ...], ...]:
        """Groups (of size >= 2) of piece indices that share a name (a multiset)."""
        groups: dict[str, list[int]] = {}
        for i, p in enumerate(self.pieces):
            groups.setdefault(p.name, []).append(i)
        return tuple(tuple(g) for g in groups.values() if len(g) > 1)

    @cached_property
    def piece_first_option(self) -> np.ndarray:
        """Id of each piece copy's first option (a piece's options are contiguous)."""
        return np.searchsorted(self.option_piece, np.arange(len(self.pieces)))

    def option_items(self, option: int) -> np.ndarray:
        """Items covered by ``option`` (cells first, then the piece item)."""
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

    def options_per_piece(self) -> np.ndarray:
        """Number of placements of each piece copy, shape (len(pieces),)."""
        return self.options_per_item()[self.n_cells:]

    def options_per_cell(self) -> np.ndarray:
        """Number of placements covering each cell item, shape (n_cells,)."""
        return self.options_per_item()[:self.n_cells]

    def solution_dict(self, options: Iterable[int]) -> dict[str, list[Cell]]:
        """Piece name -> sorted covered cells, for a solution given as option ids.

        Copies of a name used twice are keyed ``name``, ``name#2``, ...
        """
        names = self.item_names[self.n_cells:]
        out: dict[str, list[Cell]] = {}
        for o in sorted(options, key=lambda o: int(self.option_piece[o])):
            out[names[int(self.option_piece[o])]] = sorted(self.option_cells(int(o)))
        return out

    def is_canonical(self, options: Sequence[int]) -> bool:
        """True unless two copies of one piece take placements out of option order.

        Solvers that cannot add ordering constraints use this filter so that
        swapping identical pieces does not count as a new solution (UP-5).
        """
        if not self.copy_groups:
            return True
        first = self.piece_first_option
        by_piece = {int(self.option_piece[o]): int(o) - int(first[self.option_piece[o]]) for o in options}
        for group in self.copy_groups:
            placed = [by_piece[p] for p in group if p in by_piece]
            if placed != sorted(placed):
                return False
        return True

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
    def region_symmetries(self) -> list[tuple[int, int, int, int]]:
        """Symmetries of the region that map placements to placements (identity first).

        All of the region's symmetry group in free mode (UP-3); only its
        rotations in one-sided mode, and only the identity in fixed mode,
        since a mirror image of a one-sided placement is not a placement.
        """
        allowed = SYMMETRIES[:ORIENTATION_MODES[self.mode]]
        return [sym for sym in symmetry_group(self.region.cells) if sym in allowed]

    @cached_property
    def _placement_blocks(self) -> list[tuple[int, np.ndarray, np.ndarray]]:
        """Per piece copy with placements: (first option id, cell items (n, size), the same sorted by row)."""
        blocks = []
        for p, n in enumerate(self.options_per_piece().tolist()):
            if n:
                lo, size = int(self.piece_first_option[p]), self.pieces[p].size
                start = int(self.indptr[lo])
                # A piece copy's options are contiguous; each holds `size` cells, then the piece's item.
                cells = self.indices[start:start + n * (size + 1)].reshape(n, size + 1)[:, :size]
                blocks.append((lo, cells, np.sort(cells, axis=1)))
        return blocks

    @cached_property
    def option_signature(self) -> np.ndarray:
        """Id of each option's (piece name, covered cells), shape (n_options,): equal for copies of a piece."""
        keys: dict[tuple, int] = {}
        sig = np.empty(self.n_options, dtype=np.int64)
        for lo, _, rows in self._placement_blocks:
            name = self.pieces[int(self.option_piece[lo])].name
            sig[lo:lo + len(rows)] = [keys.setdefault((name, row.tobytes()), len(keys)) for row in rows]
        return sig

    @cached_property
    def option_perms(self) -> list[np.ndarray]:
        """Option permutation of each non-identity region symmetry, each of shape (n_options,).

        ``perm[o]`` is the placement of the same piece copy on the image of
        ``o``'s cells under the symmetry (one per entry of
        :attr:`region_symmetries` after the identity, in that order). A
        symmetry that does not map every placement to a placement is left
        out (it cannot happen with :attr:`region_symmetries`, which already
        keeps only the symmetries of the orientation mode).

        Notes
        -----
        Cost O(|G| x options x piece size); computed once per instance.
        """
        if len(self.region_symmetries) <= 1 or self.n_options == 0:
            return []
        index = {cell: i for i, cell in enumerate(self.cells)}
        blocks = [(lo, cells, {row.tobytes(): lo + i for i, row in enumerate(rows)})
                  for lo, cells, rows in self._placement_blocks]
        perms = []
        for a, b, c, d in self.region_symmetries[1:]:
            raw = [(a * r + b * q, c * r + d * q) for r, q in self.cells]
            r0 = min(r for r, _ in raw)
            c0 = min(q for _, q in raw)
            cell_map = np.array([index[(r - r0, q - c0)] for r, q in raw], dtype=self.indices.dtype)
            perm = np.empty(self.n_options, dtype=np.int64)
            for lo, cells, where in blocks:
                images = [where.get(row.tobytes(), -1) for row in np.sort(cell_map[cells], axis=1)]
                perm[lo:lo + len(images)] = images
            if (perm >= 0).all():
                perms.append(perm)
        return perms

    @cached_property
    def _signature_images(self) -> list[np.ndarray]:
        """``option_signature[perm]`` for each of :attr:`option_perms`."""
        return [self.option_signature[perm] for perm in self.option_perms]

    def stabiliser_order(self, options: Sequence[int]) -> int:
        """How many region symmetries (identity included) map this solution onto itself (UP-5).

        By Burnside's lemma the number of solutions up to symmetry is the sum
        of this over all solutions divided by ``len(region_symmetries)``: no
        solution needs to be remembered.
        """
        options = np.asarray(options, dtype=np.int64)
        own = np.sort(self.option_signature[options])
        return 1 + sum(bool(np.array_equal(np.sort(image[options]), own)) for image in self._signature_images)

    def canonical_key(self, options: Sequence[int]) -> tuple[int, ...]:
        """A key equal for two solutions exactly when a region symmetry maps one to the other (UP-5)."""
        options = np.asarray(options, dtype=np.int64)
        best = tuple(sorted(self.option_signature[options].tolist()))
        for image in self._signature_images:
            cand = tuple(sorted(image[options].tolist()))
            if cand < best:
                best = cand
        return best


def build_instance(pieces: Sequence[Piece], region: Region, *, optional_pieces: bool = False,
                   mode: str = "free") -> ExactCoverInstance:
    """Enumerate every placement of ``pieces`` inside ``region``.

    Parameters
    ----------
    pieces : sequence of Piece
        The pieces (a name may appear more than once).
    region : Region
        Target cells.
    optional_pieces : bool
        Make piece items secondary (each piece at most once) — the form used
        by subset analysis, where one search covers all subsets at once.
    mode : {"free", "one-sided", "fixed"}
        Orientations allowed (UP-3: free).

    Returns
    -------
    ExactCoverInstance

    Notes
    -----
    Cost O(sum over orientations of bounding-box offsets x piece size), done
    with numpy slicing on a boolean grid of the region; a classic task
    (4 pieces, ~16 cells) builds in well under a millisecond.

    Examples
    --------
    >>> from ubongo_cp.pieces import load_pieces
    >>> inst = build_instance(load_pieces("pentominoes").pieces, Region.rectangle(6, 10))
    >>> inst.n_items, inst.n_options
    (72, 2056)
    """
    pieces = tuple(pieces)
    n_cells = region.area
    height, width = region.height, region.width
    grid = np.zeros((height, width), dtype=bool)
    index = np.full((height, width), -1, dtype=np.int64)
    for i, (r, c) in enumerate(region.cells):
        grid[r, c] = True
        index[r, c] = i

    per_name: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
    blocks_items, blocks_piece, blocks_orient, blocks_offset = [], [], [], []
    for p_idx, piece in enumerate(pieces):
        if piece.name not in per_name:
            per_name[piece.name] = _placements(piece.orientations(mode), grid, index)
        items, orient, offset = per_name[piece.name]
        n = len(items)
        piece_col = np.full((n, 1), n_cells + p_idx, dtype=np.int64)
        blocks_items.append(np.hstack([items, piece_col]).ravel())
        blocks_piece.append(np.full(n, p_idx, dtype=np.int32))
        blocks_orient.append(orient)
        blocks_offset.append(offset)
    sizes = np.concatenate([np.full(len(bp), pieces[i].size + 1, dtype=np.int64)
                            for i, bp in enumerate(blocks_piece)]) if pieces else np.zeros(0, np.int64)
    indptr = np.zeros(len(sizes) + 1, dtype=np.uint32)
    indptr[1:] = np.cumsum(sizes)
    indices = (np.concatenate(blocks_items) if blocks_items else np.zeros(0)).astype(np.uint32)
    return ExactCoverInstance(
        pieces=pieces,
        region=region,
        optional_pieces=optional_pieces,
        mode=mode,
        indptr=indptr,
        indices=indices,
        option_piece=np.concatenate(blocks_piece) if blocks_piece else np.zeros(0, np.int32),
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
        ``build_instance(card.task_pieces(face), card.region, mode=card.orientations)``
        (the card's orientation mode: free by rule UP-3 unless the card says otherwise).

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


def verify_solution(pieces: Sequence[Piece], region: Region, solution: dict[str, Sequence[Cell]], *,
                    mode: str = "free", optional_pieces: bool = False) -> str | None:
    """Independent check of a solution; returns ``None`` if valid, else the reason.

    Does not use the instance: it re-derives every fact from the shapes, so it
    can check any backend. Checks rule UP-2 (every region cell covered once,
    nothing outside, each named piece used once) and UP-3 (each piece's cells
    are one of its orientations).

    Examples
    --------
    >>> from ubongo_cp.pieces import Piece
    >>> verify_solution([Piece("D", ((0, 0), (0, 1)))], Region.rectangle(1, 2), {"D": [(0, 0), (0, 1)]})
    """
    names: dict[str, Piece] = {}
    counts: dict[str, int] = {}
    for p in pieces:
        counts[p.name] = counts.get(p.name, 0) + 1
        names[p.name] = p
    used: dict[str, int] = {}
    covered: dict[Cell, str] = {}
    region_cells = set(region.cells)
    for key, cells in solution.items():
        name = key.split("#")[0]
        if name not in names:
            return f"solution uses unknown piece {key!r}"
        used[name] = used.get(name, 0) + 1
        cells = [tuple(c) for c in cells]
        if transform(cells, SYMMETRIES[0]) not in names[name].orientations(mode):
            return f"cells of {key} are not an orientation of piece {name}"
        for cell in cells:
            if cell not in region_cells:
                return f"{key} covers {cell}, outside the region"
            if cell in covered:
                return f"cell {cell} covered by both {covered[cell]} and {key}"
            covered[cell] = key
    for name, n in counts.items():
        if used.get(name, 0) > n or (not optional_pieces and used.get(name, 0) != n):
            return f"piece {name} used {used.get(name, 0)} times, expected {n}"
    if len(covered) != len(region_cells):
        missing = sorted(region_cells - set(covered))[0]
        return f"cell {missing} is not covered"
    return None
