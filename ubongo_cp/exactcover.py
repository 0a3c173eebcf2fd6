"""General exact-cover instances: Knuth's text formats (DLX1, DLX2, DLX3), solved on every backend.

The polyomino instances of :mod:`ubongo_cp.cover` are one kind of exact
cover; this module takes any other, written in the input format of Knuth's
exact-cover programs [1]_ [2]_, so that users can run their own instances
(his published ones unchanged) on every registered solver
(:mod:`ubongo_cp.solvers`):

- lines that are blank or begin with ``|`` (after spaces) are comments;
- the first other line names the items, separated by spaces: the primary
  items, then ``|``, then the secondary items (``|`` and the secondary items
  may be left out). A ``|`` that begins a word separates the two kinds; a
  second one is refused;
- *bounds* (DLX3, Algorithm M): a primary item may be written ``u:v|name``
  (it is covered at least ``u`` and at most ``v`` times, ``0 <= u <= v``,
  ``v >= 1``) or ``v|name`` (exactly ``v`` times); a plain name means
  exactly once. Secondary items take no bounds: each is covered at most once;
- every further line is one option: the names of the items it covers;
- *colours* (DLX2, Algorithm C): in an option, a secondary item may be
  written ``name:colour``. Options that give an item the same colour are
  compatible there: any number of them may be chosen together; an option
  that names the item without a colour excludes every other option naming
  it. Knuth's programs take a one-character colour; any word without
  spaces, ``:`` or ``|`` is read here. A primary item cannot be coloured;
- an option that covers no primary item is skipped (Knuth's programs skip
  it too, with a warning): :attr:`ExactCoverMatrix.skipped` lists them, and
  ``ubongo-cp exact-cover`` names them on one warning line.

A file of DLX1 is read as DLX1, and so on: each format is a special case of
the next (DLX1 has neither bounds nor colours), so one reader takes all
three. Words are separated by ASCII spaces and tabs only, as Knuth's
programs separate them: a no-break space or another Unicode space is no
separator, and a name or colour holding one is refused. A line ends at
``\\n`` only, as his programs read lines (``fgets``): a carriage return is
a blank between words, so a Windows file (``\\r\\n``) reads as the same file
with ``\\n``, and a lone ``\\r`` ends no line. Item names are any
words without spaces, ``:`` or ``|`` (Knuth's programs also limit them to
eight characters).

:class:`ExactCoverMatrix` offers what the backends read from an
:class:`~ubongo_cp.cover.ExactCoverInstance` (CSR options, primary and
secondary items, options per item, the bounds of each item as
:attr:`~ExactCoverMatrix.multiplicity`, the colour of each entry as
:attr:`~ExactCoverMatrix.colours`), so ``solve(matrix, backend=...)`` works
with any registered name that handles what the file uses; its items play
the role of cells, and there are no piece copies and no region symmetries.

References
----------
.. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 4B, Section
   7.2.2.1 (2022): exact covering with primary and secondary items
   (Algorithm X), with colours (Algorithm C) and with multiplicities
   (Algorithm M).
.. [2] D. E. Knuth, the CWEB programs DLX1 (the plain format), DLX2 (colour
   controls: ``item:colour``) and DLX3 (bounds: ``u:v|item``),
   https://www-cs-faculty.stanford.edu/~knuth/programs.html.
"""

from __future__ import annotations

# numbers (Integral) and math are imported by the functions that use them: a count with copies makes matrices of
# this module for its fixed points (solvers.fixed) without checking or formatting one
import os
import re
from array import array
from functools import cached_property
from collections.abc import Iterable, Mapping, Sequence

from .errors import InputError
from .structs import Struct
from .structs import NamedTuple

TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import ClassVar

    import numpy as np

    from .cover import ExactCoverInstance

__all__ = ["ExactCoverMatrix", "MatrixTable", "exact_cover_matrix", "parse_exact_cover", "read_exact_cover",
           "KnuthText", "format_exact_cover", "knuth_text", "verify_cover", "MAX_ITEMS", "MAX_BOUND"]

#: Most items of an exact-cover instance (the search engines keep state per item and level: 20,000
#: items cost the toolkit's engine up to 1.6 GB).
MAX_ITEMS = 20_000
#: Largest upper bound of an item (the engines count in 32-bit integers).
MAX_BOUND = 2**31 - 1

_BOUNDED = re.compile(r"(?:([0-9]*):)?([0-9]*)\|(.*)")   # ASCII digits, as Knuth's programs read them
#: What separates words in Knuth's programs (C's isspace): ASCII spaces and tabs; a no-break space or any other
#: Unicode space is a character of its word.
_BLANKS = " \t\v\f\r\n"
_BLANK_RUN = re.compile(f"[{_BLANKS}]+")


class MatrixTable(NamedTuple):
    """The options of a matrix in plain arrays (module :mod:`array`).

    Attributes
    ----------
    indptr, indices : array.array of unsigned int ('I')
        Option ``o`` covers items ``indices[indptr[o]:indptr[o+1]]``.
    """

    indptr: array
    indices: array


class ExactCoverMatrix(Struct):
    """An exact-cover problem with named items (primary first, then secondary).

    Two matrices are equal when they are the same problem: the same items
    in the same order (and primary count), options (each's items in order),
    colours and bounds, whether or not they are one object and wherever
    they came from (:attr:`option_labels`, :attr:`option_lines`,
    :attr:`path` and :attr:`skipped` are not compared). A matrix is hashable,
    so it may be a dictionary key or a set member.

    Attributes
    ----------
    item_names : tuple of str
        Every item, primary items first.
    n_primary : int
        Number of primary items (each covered between its bounds, once by
        default); the rest are secondary (covered at most once, or by any
        number of options that agree on its colour).
    table : MatrixTable
        The options in plain arrays.
    option_labels : tuple of str
        Where each option came from (``"line 7"`` in a file, ``"option 3"``
        from Python, counted from 1).
    bounds : numpy.ndarray of int64, shape (n_items, 2), or None
        ``(lo, hi)`` of each item when some primary item has bounds other
        than ``[1..1]`` (DLX3); ``None`` otherwise.
    entry_colours : numpy.ndarray of uint32, shape (len(indices),), or None
        Colour of each entry (1, 2, ... index :attr:`colour_names`; 0 for
        none) when some option colours an item (DLX2); ``None`` otherwise.
    colour_names : tuple of str
        The colours by number (``colour_names[0]`` is ``""``: no colour).
    skipped : tuple of str
        Labels of the options skipped because they cover no primary item.
    path : str or None
        The file it was read from (``None`` when built in Python).
    option_lines : tuple of int
        The file's line of each option (empty when built in Python).
    indptr, indices : numpy.ndarray of uint32
        The options in CSR form: option ``o`` covers items
        ``indices[indptr[o]:indptr[o+1]]``, in the order given (numpy views
        of :attr:`table`, made on first use).
    """

    item_names: tuple[str, ...]
    n_primary: int
    table: MatrixTable
    option_labels: tuple[str, ...]
    bounds: np.ndarray | None
    entry_colours: np.ndarray | None
    colour_names: tuple[str, ...]
    skipped: tuple[str, ...]
    path: str | None
    option_lines: tuple[int, ...]

    # What the backends and the driver read (the interface of ExactCoverInstance).
    optional_pieces: ClassVar[bool] = True  # no piece items: the non-primary items are secondary
    copies: ClassVar[tuple] = ()  # no piece types (UP-5 does not apply)
    region_symmetries: ClassVar[tuple] = ((1, 0, 0, 1),)  # the identity only: nothing to reduce by
    option_perms: ClassVar[tuple] = ()
    option_perm_lists: ClassVar[tuple] = ()
    option_perm_rows: ClassVar[tuple] = ()
    n_option_perms: ClassVar[int] = 0
    mode: ClassVar[str] = "fixed"

    def __init__(self, item_names: tuple[str, ...], n_primary: int, table: MatrixTable,
                 option_labels: tuple[str, ...], bounds: np.ndarray | None = None,
                 entry_colours: np.ndarray | None = None, colour_names: tuple[str, ...] = ("",),
                 skipped: tuple[str, ...] = (), path: str | None = None, option_lines: tuple[int, ...] = ()) -> None:
        self._set(item_names=item_names, n_primary=n_primary, table=table, option_labels=option_labels,
                  bounds=bounds, entry_colours=entry_colours, colour_names=colour_names, skipped=skipped, path=path,
                  option_lines=option_lines)

    def _problem(self) -> tuple:
        """What equality and the hash compare (the class docstring): hashable (arrays as bytes)."""
        return (self.item_names, self.n_primary, self.colour_names, self.table.indptr.tobytes(),
                self.table.indices.tobytes(), None if self.bounds is None else self.bounds.tobytes(),
                None if self.entry_colours is None else self.entry_colours.tobytes())

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, ExactCoverMatrix)
        return self is other or self._problem() == other._problem()

    def __hash__(self) -> int:
        return hash(self._problem())

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
    def multiplicity(self) -> np.ndarray | None:
        """Bounds ``(lo, hi)`` of every item, shape (n_items, 2), or ``None`` when all are the default.

        The default is ``(1, 1)`` for a primary item and ``(0, 1)`` for a
        secondary one (Algorithm X); see :func:`ubongo_cp.solvers.dancing.count`.
        """
        return self.bounds

    @property
    def colours(self) -> np.ndarray | None:
        """Colour of each entry of :attr:`indices` (0: none), or ``None`` when no option colours an item."""
        return self.entry_colours

    @property
    def n_items(self) -> int:
        """Primary plus secondary items."""
        return len(self.item_names)

    @property
    def n_secondary(self) -> int:
        """Items covered at most once (or by options of one colour)."""
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
        from .cover import item_counts

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
        """Why no exact cover exists without search (a primary item in too few options); else ``None``."""
        per_item = self._per_item[:self.n_primary]
        need = [1] * self.n_primary if self.bounds is None else [int(v) for v in self.bounds[:self.n_primary, 0]]
        short = next((i for i in range(self.n_primary) if per_item[i] < need[i]), None)
        if short is not None:
            i = short
            if per_item[i] == 0:
                return f"primary item {self.item_names[i]} is in no option"
            return (f"primary item {self.item_names[i]} must be covered at least {need[i]} times but is in "
                    f"{per_item[i]} option{'s' if per_item[i] != 1 else ''}")
        return None

    def entry_name(self, q: int) -> str:
        """Entry ``q`` of :attr:`indices` as written: the item's name, with ``:colour`` when it has one."""
        name = self.item_names[self.table.indices[q]]
        if self.entry_colours is not None and self.entry_colours[q]:
            name += ":" + self.colour_names[int(self.entry_colours[q])]
        return name

    def solution_dict(self, options: Iterable[int]) -> dict[str, list[str]]:
        """Option label -> its items as written (``x:c`` for a colour), for a solution given as option ids."""
        if self.entry_colours is None:
            return {self.option_labels[o]: [self.item_names[i] for i in self._items(o)]
                    for o in sorted(int(o) for o in options)}
        return {self.option_labels[o]: [self.entry_name(q) for q in range(self.table.indptr[o], self.table.indptr[o + 1])]
                for o in sorted(int(o) for o in options)}


def exact_cover_matrix(primary: Sequence[str], secondary: Sequence[str], options: Sequence[Sequence[str]], *,
                       bounds: dict[str, tuple[int, int]] | None = None, labels: Sequence[str] | None = None,
                       path: str | os.PathLike | None = None, lines: Sequence[int] | None = None,
                       items_line: int | None = None) -> ExactCoverMatrix:
    """Build and check an :class:`ExactCoverMatrix` from item names.

    Parameters
    ----------
    primary, secondary : sequence of str
        Item names (distinct; no spaces, ``|`` or ``:``).
    options : sequence of sequence of str
        Each option: the items it covers, ``name`` or, for a secondary item,
        ``name:colour`` (Knuth's colours, DLX2). An option that covers no
        primary item is skipped and listed in :attr:`ExactCoverMatrix.skipped`.
    bounds : dict, optional
        Primary item name -> ``(lo, hi)``: covered at least ``lo`` and at most
        ``hi`` times (Knuth's DLX3); the others exactly once.
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
        For no primary item, more than :data:`MAX_ITEMS` items, a repeated,
        empty or malformed item name, a name that is no string, options
        that are no sequence, labels not one per option, bounds that are no
        pair ``(lo, hi)``, on an unknown or secondary item or with
        ``lo > hi``, ``hi < 1`` or ``hi >`` :data:`MAX_BOUND`, an option naming
        an unknown item or one item twice, or a colour on a primary item.

    Examples
    --------
    >>> m = exact_cover_matrix("ab", "c", [["a", "c"], ["b"], ["a", "b"], ["c"]])
    >>> m.n_items, m.n_primary, m.n_options, m.item_options, m.skipped
    (3, 2, 3, ([0, 2], [1, 2], [0]), ('option 4',))

    Knuth's DLX2 example: options that agree on the colour of ``X`` and ``Y`` go together.

    >>> m = exact_cover_matrix("ABC", "XY", [["A", "B", "X:0", "Y:0"], ["A", "C", "X:1", "Y:1"],
    ...                                      ["X:0", "Y:1"], ["B", "X:1"], ["C", "Y:1"]])
    >>> m.colour_names, m.skipped
    (('', '0', '1'), ('option 3',))
    """
    primary, secondary = _names("primary items", primary), _names("secondary items", secondary)
    names = primary + secondary
    if not isinstance(options, Iterable) or isinstance(options, (str, bytes)):
        raise InputError(f"options must be a sequence of options (each a sequence of item names), got "
                         f"{type(options).__name__}")
    options = options if isinstance(options, list) else list(options)
    if labels is not None and len(labels) != len(options):
        raise InputError(f"{len(options)} options but {len(labels)} label{'s' if len(labels) != 1 else ''}: "
                         "give one label per option")
    if not primary:
        raise InputError("no primary item", path=path, line=items_line)
    if len(names) > MAX_ITEMS:
        raise InputError(f"{len(names)} items, over the limit of {MAX_ITEMS:,} (the search engines keep "
                         "state per item and search level)", path=path, line=items_line)
    index: dict[str, int] = {}
    for name in names:
        _check_name(name, path, items_line)
        if name in index:
            raise InputError(f"item {name!r} is named twice", path=path, line=items_line)
        index[name] = len(index)
    n_primary = len(primary)
    table = None
    if bounds:
        import numpy as np

        table = np.zeros((len(names), 2), dtype=np.int64)
        table[:n_primary] = 1
        table[n_primary:, 1] = 1
        for name, pair in bounds.items():
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise InputError(f"bounds of item {name!r} must be a pair (lo, hi), got {pair!r}", path=path,
                                 line=items_line)
            lo, hi = pair
            if name not in index or index[name] >= n_primary:
                raise InputError(f"bounds for {'secondary' if name in index else 'unknown'} item {name!r}: only "
                                 "primary items take bounds", path=path, line=items_line)
            _check_bounds(name, lo, hi, path, items_line)
            table[index[name]] = (lo, hi)
        if (table[:n_primary] == 1).all():
            table = None
    colour_ids: dict[str, int] = {}
    indptr = [0]
    indices: list[int] = []
    colours: list[int] = []
    kept_labels: list[str] = []
    kept_lines: list[int] = []
    skipped: list[str] = []
    for k, option in enumerate(options):
        line = lines[k] if lines else None
        label = labels[k] if labels is not None else f"option {k + 1}"
        where = "option" if lines else label
        try:   # the common option: known names without colours, none twice
            items = [index[word] for word in option]
        except (KeyError, TypeError):
            items = []
        seen = set(items)
        if items and len(seen) == len(items):
            tints = [0] * len(items)
        else:   # the checks that say what is wrong, and colours
            items, tints = _option_items(option, index, n_primary, colour_ids, where, path, line)
            seen = set(items)
        if not seen or min(seen) >= n_primary:
            skipped.append(label)  # as Knuth's programs do: an option must cover a primary item
            continue
        indices.extend(items)
        colours.extend(tints)
        indptr.append(len(indices))
        kept_labels.append(label)
        if line is not None:
            kept_lines.append(line)
    entry_colours = None
    if colour_ids:
        import numpy as np

        entry_colours = np.asarray(colours, dtype=np.uint32)
    return ExactCoverMatrix(tuple(names), n_primary, MatrixTable(array("I", indptr), array("I", indices)),
                            tuple(kept_labels), table, entry_colours, ("", *colour_ids), tuple(skipped),
                            None if path is None else os.fspath(path), tuple(kept_lines))


def _option_items(option, index: dict[str, int], n_primary: int, colour_ids: dict[str, int], where: str, path,
                  line) -> tuple[list[int], list[int]]:
    """The items of one option of :func:`exact_cover_matrix` and their colours (0: none; new colours numbered in
    ``colour_ids``), every word checked.

    Raises
    ------
    InputError
        For a word that is no string, an unknown item, an item named twice, a colour on a primary item or a
        malformed colour.
    """
    seen: set[int] = set()
    items, tints = [], []
    try:   # costs nothing unless raised (an option that is no sequence of names: TypeError)
        for word in option:
            try:
                name, colon, colour = word.partition(":")
            except AttributeError:   # not a string
                raise InputError(f"{where}: an item is named by a string, got {type(word).__name__} {word!r}",
                                 path=path, line=line) from None
            if name not in index:
                _check_space(name, "item name", path, line)
                hint = ": items are separated by spaces or tabs, not commas" if "," in name else ""
                raise InputError(f"{where} names unknown item {name!r}{hint}", path=path, line=line)
            i = index[name]
            if i in seen:
                raise InputError(f"{where} names item {name!r} twice", path=path, line=line)
            seen.add(i)
            tint = 0
            if colon:
                if i < n_primary:
                    raise InputError(f"{where} gives primary item {name!r} a colour ({word!r}); only secondary "
                                     "items take colours", path=path, line=line)
                _check_space(colour, "colour", path, line)
                if not colour or ":" in colour or "|" in colour:
                    raise InputError(f"{where}: {word!r} is not item:colour (a colour is a word without ':' "
                                     "or '|')", path=path, line=line)
                tint = colour_ids.setdefault(colour, len(colour_ids) + 1)
            items.append(i)
            tints.append(tint)
    except TypeError:
        raise InputError(f"{where} must be a sequence of item names, got {type(option).__name__}", path=path,
                         line=line) from None
    return items, tints


def parse_exact_cover(text: str, *, path: str | os.PathLike | None = None) -> ExactCoverMatrix:
    """Read an exact-cover instance in Knuth's DLX1/DLX2/DLX3 format (see the module docstring) from a string.

    Raises
    ------
    InputError
        Naming the file and line: no item line, ``|`` twice on it, a
        malformed or repeated item name, malformed bounds (or bounds on a
        secondary item), an option naming an unknown item or one item twice,
        or a colour on a primary item.

    Examples
    --------
    Knuth's example, TAOCP 7.2.2.1 (5): seven items, six options.

    >>> m = parse_exact_cover("| TAOCP 7.2.2.1 (5)\\na b c d e f g\\nc e\\na d g\\nb c f\\na d f\\nb g\\nd e g\\n")
    >>> m.n_primary, m.n_options, m.option_labels[0]
    (7, 6, 'line 3')

    Knuth's DLX3 example: ``C`` is covered two or three times.

    >>> m = parse_exact_cover("A B 2:3|C | X Y\\nA B X:0 Y:0\\nA C X:1 Y:1\\nC X:0\\nB X:1\\nC Y:1\\n")
    >>> m.item_names, m.multiplicity[2].tolist()
    (('A', 'B', 'C', 'X', 'Y'), [2, 3])
    """
    if not isinstance(text, str):
        raise InputError(f"parse_exact_cover reads text (a str), got {type(text).__name__}", path=path)
    if "\x00" in text:   # binary data (a compressed or compiled file), not lines of names
        raise InputError("not an exact-cover file (it holds NUL bytes)", path=path,
                         line=text.count("\n", 0, text.index("\x00")) + 1)
    items_line = None
    options, lines = [], []
    # Lines end at "\n" only, as fgets reads them in Knuth's programs; "\r" is one of the blanks (isspace).
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip(_BLANKS)
        if not line or line.startswith("|"):
            continue  # a comment or a blank line (as in Knuth's programs)
        if items_line is None:
            items_line = (number, line)
        else:
            options.append(_BLANK_RUN.split(line))
            lines.append(number)
    if items_line is None:
        raise InputError("no item line (the first line that is not a comment names the items)", path=path)
    number, line = items_line
    primary: list[str] = []
    secondary: list[str] = []
    bounds: dict[str, tuple[int, int]] = {}
    section = primary
    for word in _BLANK_RUN.split(line):
        if word.startswith("|"):  # the separator: primary items before it, secondary after
            if section is secondary:
                raise InputError("the item line holds '|' twice (primary | secondary)", path=path, line=number)
            section = secondary
            word = word[1:]
            if not word:
                continue
        if section is primary and "|" in word:
            match = _BOUNDED.fullmatch(word)
            if match is None or not match.group(2) or (match.group(1) is not None and not match.group(1)):
                raise InputError(f"{word!r}: bounds are written u:v|item or v|item, with decimal u and v",
                                 path=path, line=number)
            lo_text, hi_text, word = match.groups()
            hi = _bound_value(hi_text, word, path, number)
            lo = hi if lo_text is None else _bound_value(lo_text, word, path, number)
            _check_name(word, path, number)
            _check_bounds(word, lo, hi, path, number)
            bounds[word] = (lo, hi)
        elif section is secondary and ("|" in word or ":" in word):
            raise InputError(f"secondary item {word!r}: only primary items take bounds (u:v|item), and an "
                             "item name holds no '|' or ':'", path=path, line=number)
        _check_name(word, path, number)
        section.append(word)
    return exact_cover_matrix(primary, secondary, options, bounds=bounds, labels=[f"line {n}" for n in lines],
                              path=path, lines=lines, items_line=number)


def read_exact_cover(path: str | os.PathLike) -> ExactCoverMatrix:
    """Read an exact-cover file in Knuth's DLX1/DLX2/DLX3 format (see :func:`parse_exact_cover`).

    Raises
    ------
    InputError
        When the file cannot be read, or as :func:`parse_exact_cover`.
    """
    from .reading import note_input, read_text, wrong_format

    text = read_text(path, universal=False)   # a lone "\r" ends no line in Knuth's programs
    note_input(path)
    try:
        return parse_exact_cover(text, path=path)
    except InputError as exc:   # a card side, a record, a CNF file: said so, not as a bad item on its line 1
        other = wrong_format(text, path, "knuth", "an exact-cover instance in Knuth's format", exc.line)
        content = text.strip()
        if other is None and "\r" in content and "\n" not in content:   # read as one line, as Knuth's programs do
            other = InputError(f"{exc.message}; its lines end in a lone carriage return (\\r, as an old Mac text "
                               "file's), which ends no line in Knuth's format: save it with \\n line ends",
                               path=path, line=exc.line)
        raise other or exc from None


def _bound_value(text: str, name: str, path, line) -> int:
    if len(text) > 12:  # far above MAX_BOUND; never parse a huge number
        raise InputError(f"bound {text[:12]}... of item {name!r} is over {MAX_BOUND:,}", path=path, line=line)
    return int(text)


def _check_bounds(name: str, lo: int, hi: int, path, line) -> None:
    from numbers import Integral

    if not (isinstance(lo, Integral) and isinstance(hi, Integral)):  # numpy's integers are Integral too
        raise InputError(f"bounds of item {name!r} must be integers, got {lo!r}:{hi!r}", path=path, line=line)
    if hi < 1:
        raise InputError(f"item {name!r} has upper bound {hi}; it must be at least 1", path=path, line=line)
    if lo < 0 or lo > hi:
        raise InputError(f"item {name!r} has bounds {lo}:{hi}; the lower bound must be between 0 and the upper",
                         path=path, line=line)
    if hi > MAX_BOUND:
        raise InputError(f"item {name!r} has upper bound {hi:,}, over {MAX_BOUND:,}", path=path, line=line)


def _names(what: str, names) -> list[str]:
    """``names`` (items, or the items of one option) as a list of strings, or an InputError naming ``what``: a
    string is read as a sequence of one-character names, as in the examples of :func:`exact_cover_matrix`."""
    if not isinstance(names, Iterable) or isinstance(names, bytes):
        raise InputError(f"{what} must be a sequence of item names, got {type(names).__name__}")
    names = list(names)
    bad = next((name for name in names if not isinstance(name, str)), None)
    if bad is not None:
        raise InputError(f"{what}: an item is named by a string, got {type(bad).__name__} {bad!r}")
    return names


def _check_name(name: str, path, line) -> None:
    if not name:
        raise InputError("an item name is empty (bounds are written u:v|item: the name follows the '|')", path=path,
                         line=line)
    _check_space(name, "item name", path, line)
    if any(ch.isspace() for ch in name) or "|" in name or ":" in name:
        raise InputError(f"item name {name!r} holds a space, '|' or ':' (bounds are written u:v|item on the "
                         "item line, colours item:colour in an option)", path=path, line=line)


def _check_space(word: str, what: str, path, line) -> None:
    """Refuse a word holding a space that is no separator in Knuth's format (a no-break space, say), naming it."""
    space = next((ch for ch in word if ch.isspace() and ch not in _BLANKS), None)
    if space is not None:
        import unicodedata

        raise InputError(f"{what} {word!r} holds U+{ord(space):04X} ({unicodedata.name(space, 'a control space')}): "
                         "words are separated by ASCII spaces and tabs only, as in Knuth's programs, and hold no "
                         "other space", path=path, line=line)


def format_exact_cover(item_names: Sequence[str], n_primary: int, options: Iterable[Sequence[int]], *,
                       comments: Sequence[str] = (), bounds: Mapping[int, tuple[int, int]] | None = None) -> str:
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
        Lines written first, each as one comment line (``| ...``; :func:`ubongo_cp.io.comment_lines`).
    bounds : mapping of int to (int, int), optional
        Primary item -> ``(lo, hi)``: written with Knuth's DLX3 bounds
        (``lo:hi|name``, ``hi|name`` when they are equal); every other
        primary item is covered exactly once.

    Returns
    -------
    str
        The file's text, one option per line, ending in a newline.

    Raises
    ------
    InputError
        When ``n_primary`` is not 1 to the number of items, or an option
        names an item index out of range.

    Examples
    --------
    >>> print(format_exact_cover(["a", "b", "c"], 2, [[0, 2], [1]], comments=["tiny"]), end="")
    | tiny
    a b | c
    a c
    b
    """
    from numbers import Integral

    from .io import comment_lines

    item_names = list(item_names)
    if not (isinstance(n_primary, Integral) and not isinstance(n_primary, bool) and 1 <= n_primary <= len(item_names)):
        raise InputError(f"n_primary must be 1 to {len(item_names)} (the items), got {n_primary!r}")
    options = [list(option) for option in options]
    for k, option in enumerate(options, 1):
        bad = next((i for i in option if not (isinstance(i, Integral) and 0 <= i < len(item_names))), None)
        if bad is not None:
            raise InputError(f"option {k} names item {bad!r} of {len(item_names)} (0 to {len(item_names) - 1})")
    lines = comment_lines(comments, ".dlx")
    head = " ".join(_bounded_word(item_names[i], *(bounds or {}).get(i, (1, 1))) for i in range(n_primary))
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
        its own and the copies can be ordered in ``k!`` ways; UP-5), a type
        used a range of times apart (one item with bounds). 1 for a matrix
        or an instance without copies.
    """

    text: str
    option_of_line: list[int]
    item_names: list[str]
    copies_factor: int


def _cell_item(cell, grid: str = "square") -> str:
    """A cell's item name in Knuth's format: ``r2c3`` (row, column), on cubes ``l1r2c3`` (layer, row, column),
    on hexagons ``q3r2`` (axial ``q`` and ``r``, the row).

    Examples
    --------
    >>> _cell_item((2, 3)), _cell_item((1, 2, 3)), _cell_item((3, 2), "hex")
    ('r2c3', 'l1r2c3', 'q3r2')
    """
    if grid == "hex":
        return f"q{cell[0]}r{cell[1]}"
    return f"r{cell[0]}c{cell[1]}" if len(cell) == 2 else f"l{cell[0]}r{cell[1]}c{cell[2]}"


def knuth_text(instance: "ExactCoverInstance | ExactCoverMatrix", *, comments: Sequence[str] = ()) -> KnuthText:
    """Write any instance in Knuth's plain format, for a program that reads it (DLX1, SSXC, miniexact).

    A matrix is written as read (its items and options in their order). A
    polyomino instance (:class:`~ubongo_cp.cover.ExactCoverInstance`) gets
    one item per region cell, named ``r<row>c<col>`` (on cubes ``l<layer>r<row>c<col>``, on hexagons
    ``q<q>r<r>``, axial), and one per piece
    copy, named as in its solutions (``L4``, ``L4#2``; names that are not
    valid item names become ``p1``, ``p2``, ...); every placement of a type
    with ``k`` copies is written once per copy. A type used a range of
    times (``--use NAME:LO-HI``, the cells left empty) is one item with
    Knuth's DLX3 bounds ``LO:HI|NAME``, each of its placements written once.
    The region's optional cells are secondary items. With optional pieces
    (the subset analysis) the piece items are secondary.

    Parameters
    ----------
    instance : ExactCoverInstance or ExactCoverMatrix
    comments : sequence of str
        Comments written first, each on one line (:func:`ubongo_cp.io.comment_lines`).

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
    if not (hasattr(instance, "table") and hasattr(instance, "n_options")):
        raise InputError("knuth_text needs an exact-cover instance (ubongo_cp.cover.build_instance, "
                         f"read_exact_cover), got {type(instance).__name__}")
    if isinstance(instance, ExactCoverMatrix):
        if instance.bounds is not None or instance.entry_colours is not None:
            return KnuthText(_knuth_text_extended(instance, comments), list(range(instance.n_options)),
                             list(instance.item_names), 1)
        rows = [instance._items(o) for o in range(instance.n_options)]
        return KnuthText(format_exact_cover(instance.item_names, instance.n_primary, rows, comments=comments),
                         list(range(instance.n_options)), list(instance.item_names), 1)
    grid = instance.region.grid.name
    cells = [_cell_item(cell, grid) for cell in instance.cells]
    spare = [_cell_item(cell, grid) for cell in instance.region.optional]    # optional cells: secondary items
    copies = [list(t) for t in instance.types]
    names = list(instance.copy_names)
    taken = set(cells) | set(spare)
    if any(not _valid_name(n) or n in taken for n in names) or len(set(names)) != len(names):
        names = [f"p{i + 1}" for i in range(len(names))]
    # A type used a range of times (lo < hi: --use NAME:LO-HI, cells left empty) is one item with Knuth's DLX3
    # bounds, each placement written once: one item per copy would count a cover once per choice of the copies
    # it leaves unused. Every other type keeps an item per copy (the plain format, factor k!).
    ranged = [instance.ranges is not None and lo != hi for lo, hi in instance.type_bounds]
    type_items: list[list[int]] = []
    bounds: dict[int, tuple[int, int]] = {}
    words = list(cells)
    for t, members in enumerate(copies):
        if ranged[t]:
            lo, hi = instance.type_bounds[t]
            bounds[len(words)] = (lo, hi)
            type_items.append([len(words)])
            words.append(names[members[0]])
        else:
            type_items.append(list(range(len(words), len(words) + len(members))))
            words.extend(names[i] for i in members)
    n_cells = instance.n_cells
    first_spare = n_cells + instance.n_types
    spare_item = {first_spare + j: len(words) + j for j in range(len(spare))}
    options: list[list[int]] = []
    option_of_line: list[int] = []
    for o in range(instance.n_options):
        covered = instance.table.indices[instance.table.indptr[o]:instance.table.indptr[o + 1]]
        cell_items = [int(i) if i < n_cells else spare_item[i] for i in covered if i < n_cells or i >= first_spare]
        for item in type_items[instance.table.option_type[o]]:
            options.append(cell_items + [item])
            option_of_line.append(o)
    n_primary = n_cells if instance.optional_pieces else len(words)
    factor = 1
    if not instance.optional_pieces:
        import math

        for t, members in enumerate(copies):
            if not ranged[t]:
                factor *= math.factorial(len(members))
    text = format_exact_cover(words + spare, n_primary, options, comments=comments, bounds=bounds)
    return KnuthText(text, option_of_line, words + spare, factor)


def _knuth_text_extended(matrix: ExactCoverMatrix, comments: Sequence[str]) -> str:
    """A matrix with bounds or colours in Knuth's DLX3 format (bounds ``u:v|x``, colours ``x:c``)."""
    words = []
    for i, name in enumerate(matrix.item_names[:matrix.n_primary]):
        lo, hi = (1, 1) if matrix.bounds is None else (int(v) for v in matrix.bounds[i])
        words.append(_bounded_word(name, lo, hi))
    head = " ".join(words)
    if matrix.n_secondary:
        head += " | " + " ".join(matrix.item_names[matrix.n_primary:])
    from .io import comment_lines

    lines = comment_lines(comments, ".dlx") + [head]
    lines.extend(" ".join(matrix.entry_name(q) for q in range(int(matrix.indptr[o]), int(matrix.indptr[o + 1])))
                 for o in range(matrix.n_options))
    return "\n".join(lines) + "\n"


def _bounded_word(name: str, lo: int, hi: int) -> str:
    """A primary item on the item line: ``name``, ``hi|name`` or ``lo:hi|name`` (DLX3 bounds)."""
    return name if (lo, hi) == (1, 1) else f"{hi}|{name}" if lo == hi else f"{lo}:{hi}|{name}"


def verify_cover(matrix: ExactCoverMatrix, options: Iterable[int]) -> str | None:
    """Independent check of an exact cover of a matrix; ``None`` if valid, else the reason.

    Every primary item must be covered exactly once (between its bounds,
    DLX3) and every secondary item at most once (or only by options that
    give it one colour, DLX2), by options of the matrix, each chosen once.
    It reads only the matrix, so it can check the answer of any solver; an
    option that is no whole number (``2.5``, ``"2"``, ``True``) is no option.

    Raises
    ------
    InputError
        When ``options`` is not a sequence (``None``, a string).

    Examples
    --------
    >>> m = parse_exact_cover("a b c | d\\na b\\nc d\\nc\\n")
    >>> verify_cover(m, [0, 2]), verify_cover(m, [0]), verify_cover(m, [0, 1, 2])
    (None, 'primary item c is not covered', 'item c is covered 2 times')
    >>> verify_cover(parse_exact_cover("a b | s\\na s\\nb s\\n"), [0, 1])
    'item s is covered 2 times'
    """
    if not isinstance(options, Iterable) or isinstance(options, (str, bytes)):
        raise InputError(f"verify_cover needs a sequence of option numbers, got {type(options).__name__}")
    from numbers import Integral

    chosen = list(options)
    bad = next((o for o in chosen if not isinstance(o, Integral) or isinstance(o, bool)), None)
    if bad is not None:   # a solver's answer read wrong: 2.5 is no option 2
        return f"option {bad!r} is not an option number"
    chosen = [int(o) for o in chosen]
    if len(set(chosen)) != len(chosen):
        return "an option is chosen twice"
    covered = [0] * matrix.n_items
    tints: dict[int, set[int]] = {}  # secondary item -> the colours it is given (0: none)
    for o in chosen:
        if not 0 <= o < matrix.n_options:
            return f"option {o} does not exist"
        for i in matrix._items(o):
            covered[i] += 1
        if matrix.entry_colours is not None:
            for q in range(matrix.table.indptr[o], matrix.table.indptr[o + 1]):
                tints.setdefault(matrix.table.indices[q], set()).add(int(matrix.entry_colours[q]))
    n_primary = matrix.n_primary
    lo = [1] * n_primary if matrix.bounds is None else [int(v) for v in matrix.bounds[:n_primary, 0]]
    hi = [1] * n_primary if matrix.bounds is None else [int(v) for v in matrix.bounds[:n_primary, 1]]
    for i in range(matrix.n_items):
        top = hi[i] if i < n_primary else 1
        one_colour = i >= n_primary and len(tints.get(i, ())) == 1 and 0 not in tints[i]   # DLX2: shared
        if covered[i] > top and not one_colour:
            return f"item {matrix.item_names[i]} is covered {covered[i]} times"
    missing = next((i for i in range(n_primary) if covered[i] < lo[i]), None)
    if missing is not None:
        i = missing
        if covered[i] == 0:
            return f"primary item {matrix.item_names[i]} is not covered"
        return f"primary item {matrix.item_names[i]} is covered {covered[i]} times, fewer than {lo[i]}"
    return None


def _valid_name(name: str) -> bool:
    """An item name Knuth's programs read: 1 to 8 characters, none a space, ``|`` or ``:``."""
    return 0 < len(name) <= 8 and not any(ch.isspace() or ch in "|:" for ch in name)
