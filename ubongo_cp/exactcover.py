"""General exact-cover instances: Knuth's plain text format, solved on every backend.

The polyomino instances of :mod:`ubongo_cp.cover` are one kind of exact
cover; this module takes any other, given as Knuth's plain input format
(the one his DLX1 and SSXC programs read), so that users can run their own
instances on every registered solver (:mod:`ubongo_cp.solvers`):

- lines that are blank or begin with ``|`` (after spaces) are comments;
- the first other line names the items, separated by spaces: the primary
  items, then ``|``, then the secondary items (``|`` and the secondary items
  may be left out);
- every further line is one option: the names of the items it covers.

Primary items must be covered exactly once, secondary items at most once.
Not read (refused with the line): colours (``item:colour``, Knuth's DLX2 and
XCC format) and multiplicities (``lo:hi|item``, DLX3). Knuth's programs skip
an option without a primary item; here it is refused, because solvers
disagree about it (a CP-SAT or SAT model would count it as a free choice).

:class:`ExactCoverMatrix` offers what the backends read from an
:class:`~ubongo_cp.cover.ExactCoverInstance` (CSR options, primary and
secondary items, options per item), so ``solve(matrix, backend=...)`` works
with any registered name; its items play the role of cells, and there are no
piece copies and no region symmetries.

References
----------
.. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 4B, Section
   7.2.2.1 (2022), exact covering with primary and secondary items; the
   input format of his programs DLX1 and SSXC,
   https://www-cs-faculty.stanford.edu/~knuth/programs.html.
"""

from __future__ import annotations

import math
import os
from array import array
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, ClassVar, Iterable, NamedTuple, Sequence

from .errors import InputError

if TYPE_CHECKING:
    import numpy as np

    from .cover import ExactCoverInstance

__all__ = ["ExactCoverMatrix", "MatrixTable", "exact_cover_matrix", "parse_exact_cover", "read_exact_cover",
           "KnuthText", "format_exact_cover", "knuth_text", "verify_cover", "MAX_ITEMS", "item_counts"]


def item_counts(indices: Iterable[int], n_items: int) -> list[int]:
    """How often each of ``n_items`` items occurs in ``indices`` (the options covering it)."""
    per = [0] * n_items
    for i in indices:
        per[i] += 1
    return per


@dataclass(frozen=True, eq=False)
class MatrixTable:
    """The options of a matrix in plain arrays (module :mod:`array`).

    Attributes
    ----------
    indptr, indices : array.array of unsigned int ('I')
        Option ``o`` covers items ``indices[indptr[o]:indptr[o+1]]``.
    """

    indptr: array
    indices: array


@dataclass(frozen=True, eq=False)
class ExactCoverMatrix:
    """An exact-cover problem with named items (primary first, then secondary).

    Attributes
    ----------
    item_names : tuple of str
        Every item, primary items first.
    n_primary : int
        Number of primary items (covered exactly once); the rest are
        secondary (covered at most once).
    table : MatrixTable
        The options in plain arrays.
    option_labels : tuple of str
        Where each option came from (``"line 7"`` in a file, ``"option 3"``
        from Python, counted from 1).
    indptr, indices : numpy.ndarray of uint32
        The options in CSR form: option ``o`` covers items
        ``indices[indptr[o]:indptr[o+1]]``, in the order given (numpy views
        of :attr:`table`, made on first use).
    """

    item_names: tuple[str, ...]
    n_primary: int
    table: MatrixTable
    option_labels: tuple[str, ...]

    # What the backends and the driver read (the interface of ExactCoverInstance).
    optional_pieces: ClassVar[bool] = True  # no piece items: the non-primary items are secondary
    copies: ClassVar[tuple] = ()  # no piece types (UP-5 does not apply)
    multiplicity: ClassVar[None] = None
    region_symmetries: ClassVar[tuple] = ((1, 0, 0, 1),)  # the identity only: nothing to reduce by
    option_perms: ClassVar[tuple] = ()
    option_perm_lists: ClassVar[tuple] = ()
    mode: ClassVar[str] = "fixed"

    @cached_property
    def indptr(self) -> np.ndarray:
        """CSR row pointers of the options, shape (n_options + 1,), uint32."""
        import numpy as np

        return np.frombuffer(self.table.indptr, dtype=np.uint32)

    @cached_property
    def indices(self) -> np.ndarray:
        """Items of the options, in CSR order, uint32."""
        import numpy as np

        return np.frombuffer(self.table.indices, dtype=np.uint32) if len(self.table.indices) else \
            np.zeros(0, dtype=np.uint32)

    @property
    def type_counts(self) -> np.ndarray:
        """Empty: a matrix has no piece types."""
        import numpy as np

        return np.zeros(0, dtype=np.int64)

    @property
    def n_items(self) -> int:
        """Primary plus secondary items."""
        return len(self.item_names)

    @property
    def n_secondary(self) -> int:
        """Items covered at most once."""
        return self.n_items - self.n_primary

    @property
    def n_cells(self) -> int:
        """The primary items (they play the role of a region's cells)."""
        return self.n_primary

    @property
    def n_options(self) -> int:
        """Number of options."""
        return len(self.table.indptr) - 1

    def _items(self, option: int) -> list[int]:
        table = self.table
        return table.indices[table.indptr[option]:table.indptr[option + 1]].tolist()

    @cached_property
    def item_options(self) -> tuple[list[int], ...]:
        """The options covering each item (option ids, increasing), one list per item."""
        lists: list[list[int]] = [[] for _ in range(self.n_items)]
        for o in range(self.n_options):
            for i in self._items(o):
                lists[i].append(o)
        return tuple(lists)

    def option_items(self, option: int) -> np.ndarray:
        """Items covered by ``option``."""
        return self.indices[self.indptr[option]:self.indptr[option + 1]]

    @cached_property
    def _per_item(self) -> list[int]:
        return item_counts(self.table.indices, self.n_items)

    def options_per_item(self) -> np.ndarray:
        """Number of options covering each item, shape (n_items,)."""
        import numpy as np

        return np.array(self._per_item, dtype=np.int64)

    def options_per_cell(self) -> np.ndarray:
        """Number of options covering each primary item, shape (n_primary,)."""
        return self.options_per_item()[:self.n_primary]

    def options_per_piece(self) -> np.ndarray:
        """Empty: a matrix has no piece items."""
        import numpy as np

        return np.zeros(0, dtype=np.int64)

    def options_per_type(self) -> np.ndarray:
        """Empty: a matrix has no piece types."""
        import numpy as np

        return np.zeros(0, dtype=np.int64)

    def stabiliser_order(self, options: Sequence[int]) -> int:
        """1: only the identity symmetry."""
        return 1

    def precheck(self) -> str | None:
        """Why no exact cover exists without search (a primary item in no option); else ``None``."""
        per_item = self._per_item[:self.n_primary]
        if 0 in per_item:
            return f"primary item {self.item_names[per_item.index(0)]} is in no option"
        return None

    def solution_dict(self, options: Iterable[int]) -> dict[str, list[str]]:
        """Option label -> names of its items, for a solution given as option ids (in option order)."""
        return {self.option_labels[o]: [self.item_names[i] for i in self._items(o)]
                for o in sorted(int(o) for o in options)}


#: Most items of an exact-cover instance (the search engines keep state per item and level: 20,000
#: items cost the toolkit's engine up to 1.6 GB).
MAX_ITEMS = 20_000


def exact_cover_matrix(primary: Sequence[str], secondary: Sequence[str], options: Sequence[Sequence[str]], *,
                       labels: Sequence[str] | None = None, path: str | os.PathLike | None = None,
                       lines: Sequence[int] | None = None, items_line: int | None = None) -> ExactCoverMatrix:
    """Build and check an :class:`ExactCoverMatrix` from item names.

    Parameters
    ----------
    primary, secondary : sequence of str
        Item names (distinct, no spaces, no ``|`` or ``:``).
    options : sequence of sequence of str
        Each option: the names of the items it covers.
    labels : sequence of str, optional
        Label of each option (default ``"option 1"``, ...).
    path, lines, items_line : optional
        File, line of each option and line of the items, for error messages.

    Returns
    -------
    ExactCoverMatrix

    Raises
    ------
    InputError
        For no primary item, more than :data:`MAX_ITEMS` items, a repeated or
        malformed item name, an option
        naming an unknown item or one item twice, or an option that covers
        no primary item (an empty option among them).

    Examples
    --------
    >>> m = exact_cover_matrix("ab", "c", [["a", "c"], ["b"], ["a", "b"]])
    >>> m.n_items, m.n_primary, m.n_options, m.item_options
    (3, 2, 3, ([0, 2], [1, 2], [0]))
    >>> exact_cover_matrix("ab", "", [["a"], []])
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: option 2 covers no item
    """
    names = list(primary) + list(secondary)
    if not primary:
        raise InputError("no primary item", path=path, line=lines[0] if lines else None)
    if len(names) > MAX_ITEMS:
        raise InputError(f"{len(names)} items, over the limit of {MAX_ITEMS:,} (the search engines keep "
                         "state per item and search level)", path=path, line=items_line)
    index: dict[str, int] = {}
    for name in names:
        _check_name(name, path, None)
        if name in index:
            raise InputError(f"item {name!r} is named twice", path=path)
        index[name] = len(index)
    indptr = [0]
    indices: list[int] = []
    for k, option in enumerate(options):
        line = lines[k] if lines else None
        where = "option" if lines else f"option {k + 1}"
        seen: set[int] = set()
        for name in option:
            if ":" in name:
                raise InputError(f"{where} names {name!r}: colours and multiplicities (Knuth's DLX2/DLX3 "
                                 "formats) are not read", path=path, line=line)
            if name not in index:
                raise InputError(f"{where} names unknown item {name!r}", path=path, line=line)
            if index[name] in seen:
                raise InputError(f"{where} names item {name!r} twice", path=path, line=line)
            seen.add(index[name])
        if not seen:
            raise InputError(f"{where} covers no item", path=path, line=line)
        if min(seen) >= len(primary):
            raise InputError(f"{where} covers no primary item (Knuth's solvers skip such an option; remove it, "
                             "or make one of its items primary)", path=path, line=line)
        indices.extend(index[name] for name in option)
        indptr.append(len(indices))
    if labels is None:
        labels = [f"option {k + 1}" for k in range(len(options))]
    return ExactCoverMatrix(tuple(names), len(primary), MatrixTable(array("I", indptr), array("I", indices)),
                            tuple(labels))


def parse_exact_cover(text: str, *, path: str | os.PathLike | None = None) -> ExactCoverMatrix:
    """Read Knuth's plain exact-cover format (see the module docstring) from a string.

    Raises
    ------
    InputError
        Naming the file and line: no item line, ``|`` twice on it, a
        malformed or repeated item name, an option naming an unknown item
        or one item twice, or covering no primary item.

    Examples
    --------
    Knuth's example, TAOCP 7.2.2.1 (5): seven items, six options.

    >>> m = parse_exact_cover("| TAOCP 7.2.2.1 (5)\\na b c d e f g\\nc e\\na d g\\nb c f\\na d f\\nb g\\nd e g\\n")
    >>> m.n_primary, m.n_options, m.option_labels[0]
    (7, 6, 'line 3')
    """
    items_line = None
    options, lines = [], []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("|"):
            continue  # a comment or a blank line (as in Knuth's programs)
        if items_line is None:
            items_line = (number, line)
        else:
            options.append(line.split())
            lines.append(number)
    if items_line is None:
        raise InputError("no item line (the first line that is not a comment names the items)", path=path)
    number, line = items_line
    parts = line.split("|")
    if len(parts) > 2:
        raise InputError("the item line holds '|' twice (primary | secondary)", path=path, line=number)
    primary, secondary = parts[0].split(), parts[1].split() if len(parts) == 2 else []
    seen: set[str] = set()
    for name in primary + secondary:
        _check_name(name, path, number)
        if name in seen:
            raise InputError(f"item {name!r} is named twice", path=path, line=number)
        seen.add(name)
    return exact_cover_matrix(primary, secondary, options, labels=[f"line {n}" for n in lines], path=path,
                              lines=lines, items_line=number)


def read_exact_cover(path: str | os.PathLike) -> ExactCoverMatrix:
    """Read an exact-cover file in Knuth's plain format (see :func:`parse_exact_cover`).

    Raises
    ------
    InputError
        When the file cannot be read, or as :func:`parse_exact_cover`.
    """
    from .io import note_input, read_text

    text = read_text(path)
    note_input(path)
    return parse_exact_cover(text, path=path)


def _check_name(name: str, path, line) -> None:
    if not name or any(ch.isspace() for ch in name) or "|" in name or ":" in name:
        raise InputError(f"item name {name!r} holds a space, '|' or ':' (colours and multiplicities of "
                         "Knuth's DLX2/DLX3 formats are not read)", path=path, line=line)


def format_exact_cover(item_names: Sequence[str], n_primary: int, options: Iterable[Sequence[int]], *,
                       comments: Sequence[str] = ()) -> str:
    """Write an exact-cover problem in Knuth's plain format (see the module docstring).

    Parameters
    ----------
    item_names : sequence of str
        Every item, primary items first.
    n_primary : int
        Number of primary items; the rest follow ``|`` on the item line.
    options : iterable of sequence of int
        Each option: the indices (into ``item_names``) of the items it covers.
    comments : sequence of str
        Lines written first, each as a comment (``| ...``).

    Returns
    -------
    str
        The file's text, one option per line, ending in a newline.

    Examples
    --------
    >>> print(format_exact_cover(["a", "b", "c"], 2, [[0, 2], [1]], comments=["tiny"]), end="")
    | tiny
    a b | c
    a c
    b
    """
    lines = [f"| {c}" for c in comments]
    head = " ".join(item_names[:n_primary])
    if n_primary < len(item_names):
        head += " | " + " ".join(item_names[n_primary:])
    lines.append(head)
    lines.extend(" ".join(item_names[i] for i in option) for option in options)
    return "\n".join(lines) + "\n"


class KnuthText(NamedTuple):
    """An instance written in Knuth's plain format, with the way back to its options.

    Attributes
    ----------
    text : str
        The file's text (:func:`format_exact_cover`).
    option_of_line : list of int
        For the k-th option line of the file (from 0), the option id of the
        instance it stands for.
    item_names : list of str
        The items named on the item line, primary first.
    copies_factor : int
        How many covers of the file stand for one cover of the instance: the
        product of ``k!`` over the piece types with ``k`` identical copies
        (the plain format has no multiplicities, so each copy is an item of
        its own and the copies can be ordered in ``k!`` ways; UP-5). 1 for a
        matrix or an instance without copies.
    """

    text: str
    option_of_line: list[int]
    item_names: list[str]
    copies_factor: int


def knuth_text(instance: "ExactCoverInstance | ExactCoverMatrix", *, comments: Sequence[str] = ()) -> KnuthText:
    """Write any instance in Knuth's plain format, for a program that reads it (DLX1, SSXC, miniexact).

    A matrix is written as read (its items and options in their order). A
    polyomino instance (:class:`~ubongo_cp.cover.ExactCoverInstance`) gets
    one item per region cell, named ``r<row>c<col>``, and one per piece
    copy, named as in its solutions (``L4``, ``L4#2``; names that are not
    valid item names become ``p1``, ``p2``, ...); every placement of a type
    with ``k`` copies is written once per copy. With optional pieces (the
    subset analysis) the piece items are secondary.

    Parameters
    ----------
    instance : ExactCoverInstance or ExactCoverMatrix
    comments : sequence of str
        Comment lines written first.

    Returns
    -------
    KnuthText

    Notes
    -----
    Every name has at most 8 characters, the limit of Knuth's programs,
    when the region spans fewer than 1000 rows and columns.

    Examples
    --------
    >>> from ubongo_cp.pieces import Piece, Region
    >>> from ubongo_cp.cover import build_instance
    >>> domino = Piece("D", ((0, 0), (0, 1)))
    >>> out = knuth_text(build_instance([domino, domino], Region.rectangle(1, 4)))
    >>> print(out.text, end="")
    r0c0 r0c1 r0c2 r0c3 D D#2
    r0c0 r0c1 D
    r0c0 r0c1 D#2
    r0c1 r0c2 D
    r0c1 r0c2 D#2
    r0c2 r0c3 D
    r0c2 r0c3 D#2
    >>> out.option_of_line, out.copies_factor
    ([0, 0, 1, 1, 2, 2], 2)
    """
    if isinstance(instance, ExactCoverMatrix):
        rows = [instance._items(o) for o in range(instance.n_options)]
        return KnuthText(format_exact_cover(instance.item_names, instance.n_primary, rows, comments=comments),
                         list(range(instance.n_options)), list(instance.item_names), 1)
    cells = [f"r{r}c{c}" for r, c in instance.cells]
    copies = [list(t) for t in instance.types]
    names = list(instance.copy_names)
    taken = set(cells)
    if any(not _valid_name(n) or n in taken for n in names) or len(set(names)) != len(names):
        names = [f"p{i + 1}" for i in range(len(names))]
    item_names = cells + [names[i] for t in copies for i in t]
    copy_item = {i: len(cells) + j for j, i in enumerate(i for t in copies for i in t)}
    options: list[list[int]] = []
    option_of_line: list[int] = []
    n_cells = instance.n_cells
    for o in range(instance.n_options):
        cell_items = [i for i in instance.table.indices[instance.table.indptr[o]:instance.table.indptr[o + 1]]
                      if i < n_cells]
        for i in copies[instance.table.option_type[o]]:
            options.append(cell_items + [copy_item[i]])
            option_of_line.append(o)
    n_primary = n_cells if instance.optional_pieces else len(item_names)
    factor = 1
    if not instance.optional_pieces:
        for t in copies:
            factor *= math.factorial(len(t))
    return KnuthText(format_exact_cover(item_names, n_primary, options, comments=comments), option_of_line,
                     item_names, factor)


def verify_cover(matrix: ExactCoverMatrix, options: Iterable[int]) -> str | None:
    """Independent check of an exact cover of a matrix; ``None`` if valid, else the reason.

    Every primary item must be covered exactly once and every secondary item
    at most once, by options of the matrix, each chosen once. It reads only
    the matrix, so it can check the answer of any solver.

    Examples
    --------
    >>> m = parse_exact_cover("a b c | d\\na b\\nc d\\nc\\n")
    >>> verify_cover(m, [0, 2]), verify_cover(m, [0]), verify_cover(m, [0, 1, 2])
    (None, 'primary item c is not covered', 'item c is covered 2 times')
    """
    chosen = [int(o) for o in options]
    if len(set(chosen)) != len(chosen):
        return "an option is chosen twice"
    covered = [0] * matrix.n_items
    for o in chosen:
        if not 0 <= o < matrix.n_options:
            return f"option {o} does not exist"
        for i in matrix._items(o):
            covered[i] += 1
    over = next((i for i, n in enumerate(covered) if n > 1), None)
    if over is not None:
        return f"item {matrix.item_names[over]} is covered {covered[over]} times"
    missing = next((i for i in range(matrix.n_primary) if covered[i] == 0), None)
    if missing is not None:
        return f"primary item {matrix.item_names[missing]} is not covered"
    return None


def _valid_name(name: str) -> bool:
    """An item name Knuth's programs read: 1 to 8 characters, none a space, ``|`` or ``:``."""
    return 0 < len(name) <= 8 and not any(ch.isspace() or ch in "|:" for ch in name)
