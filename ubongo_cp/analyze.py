"""Subset analysis: which K pieces of a set tile a region, and in how many ways?

This is the designer's question behind every card side (rules UP-2, UP-4).
Instead of solving each K-subset separately, one exact-cover search is run
over *all* pieces at once with the piece items *secondary* (each piece used
at most once) and only the region cells primary; every cover found uses some
set of pieces, and covers are grouped by that set [1]_. A piece with no
placement in the region never appears in an option, so it prunes every
subset holding it for free.

The search runs through the solvers' one driver (:func:`ubongo_cp.solvers.solve`,
which tallies the covers per set of pieces used), so any registered solver
name works; on the default bitboard solver the tally is kept in C, no
Python runs per cover. With a solver that supports it (the bitboard and
CP-SAT ones) the cardinality ``sum(piece used) == K`` is a constraint of the
search; for the others covers of other sizes are discarded (for the Duel
set K is implied by the area in most cases). The orbit decomposition does not apply to optional
pieces: the ``*-symmetry`` solvers run their plain search here.

A decision-diagram solver (``zdd``, and ``auto`` where its measured rule
picks the diagram: many tilings per subset) counts every subset's tilings
on one diagram with a terminal per set of pieces used
(:func:`ubongo_cp.solvers.zdd.subset_counts`), listing none of them.

References
----------
.. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 4B, 7.2.2.1
   (secondary items), and the subset analysis in ``m-kasahr/ubongo-utils``.
"""

from __future__ import annotations

import math
import time
from functools import lru_cache
from itertools import combinations
from operator import itemgetter
from collections.abc import Sequence

from .cover import ExactCoverInstance, build_instance, checked_puzzle, empty_cell_piece
from .errors import InputError, whole_argument
from .pieces import EMPTY, Piece, Region, check_one_grid
from .structs import Struct

TYPE_CHECKING = False

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["SubsetCount", "AnalysisResult", "analyze", "matching_subsets", "subset_instance", "check_k"]


class SubsetCount(Struct):
    """One piece set that tiles the region.

    Attributes
    ----------
    pieces : tuple of str
        Piece names, in piece-set order.
    count : int
        Number of distinct tilings on the fixed region (UP-5).
    """

    pieces: tuple[str, ...]
    count: int

    def __init__(self, pieces: tuple[str, ...], count: int) -> None:
        fields = self.__dict__   # as Struct._set, without its call: an analysis makes thousands
        fields["pieces"], fields["count"] = pieces, count


class AnalysisResult(Struct, frozen=False):
    """All subsets that tile, with bookkeeping.

    Attributes
    ----------
    subsets : list of SubsetCount
        Sorted by piece names (set order). Made when first read from the
        analysis' :attr:`rows` (thousands of records that a listing need not make).
    rows : list of (tuple of str, int)
        The same subsets as ``(pieces, count)`` pairs, in that order (read-only).
    k : int or None
        Subset size asked for (``None`` = any size).
    matching_area : int
        Number of K-subsets whose area equals the region's (0 if k is None).
    seconds : float
        Wall time of the search (seconds).
    stats : dict
        Backend counters.
    solutions : dict
        Piece-name tuple -> list of option-id solutions (only when asked for;
        pieces of one shape under different names told apart there, so a
        subset may list more solutions than its count).
    """

    k: int | None
    matching_area: int
    seconds: float
    stats: dict
    solutions: dict
    instance: ExactCoverInstance | None
    _hidden = ("solutions", "instance")

    def __init__(self, subsets: list[SubsetCount], k: int | None, matching_area: int, seconds: float,
                 stats: dict | None = None, solutions: dict | None = None,
                 instance: ExactCoverInstance | None = None) -> None:
        # stats and solutions: None stands for a new empty dict (a dataclass's default_factory)
        self.subsets, self.k, self.matching_area, self.seconds = subsets, k, matching_area, seconds
        self.stats = {} if stats is None else stats
        self.solutions = {} if solutions is None else solutions
        self.instance = instance

    @classmethod
    def _of_rows(cls, rows: list[tuple[tuple[str, ...], int]], k: int | None, matching_area: int, seconds: float,
                 stats: dict, solutions: dict, instance: ExactCoverInstance | None) -> AnalysisResult:
        """A result whose :class:`SubsetCount` records are made from ``rows`` when :attr:`subsets` is first read."""
        made = cls([], k, matching_area, seconds, stats, solutions, instance)
        made.__dict__["_subsets"], made.__dict__["_rows"] = None, rows
        return made

    @property
    def subsets(self) -> list[SubsetCount]:
        fields = self.__dict__
        made = fields["_subsets"]
        if made is None:
            rows = fields["_rows"]
            made = fields["_subsets"] = list(map(SubsetCount, *zip(*rows))) if rows else []
        return made

    @subsets.setter
    def subsets(self, subsets: list[SubsetCount]) -> None:
        self.__dict__["_subsets"], self.__dict__["_rows"] = subsets, None

    @property
    def rows(self) -> list[tuple[tuple[str, ...], int]]:
        """The subsets as ``(pieces, count)`` pairs, in the order of :attr:`subsets`."""
        rows = self.__dict__["_rows"]
        return [(s.pieces, s.count) for s in self.subsets] if rows is None else rows

    @property
    def total_solutions(self) -> int:
        """Sum of the counts."""
        return sum([n for _, n in self.rows])

    def to_json(self) -> list[dict]:
        """The CLI's JSON form: ``[{"pieces": [...], "count": N}, ...]``."""
        return [{"pieces": list(pieces), "count": n} for pieces, n in self.rows]

    def to_frame(self) -> pd.DataFrame:
        """The subsets as a :class:`pandas.DataFrame`, one row each: columns ``pieces`` (tuple of str) and
        ``count`` (int64), in the order of :attr:`subsets`.

        Examples
        --------
        >>> from ubongo_cp.pieces import Region, load_pieces
        >>> frame = analyze(load_pieces("classic").pieces, Region.rectangle(3, 4), 3).to_frame()
        >>> frame.shape, list(frame.columns), frame.loc[0, "pieces"], int(frame.loc[0, "count"])
        ((17, 2), ['pieces', 'count'], ('I2', 'Y5', 'L5'), 4)
        """
        import pandas as pd

        return pd.DataFrame({"pieces": [s.pieces for s in self.subsets],
                             "count": pd.Series([s.count for s in self.subsets], dtype="int64")})


def matching_subsets(pieces: Sequence[Piece], area: int, k: int, copies: int = 1) -> int:
    """Number of K-subsets of ``pieces`` whose total area is ``area``.

    With ``copies`` > 1, K-multisets in which each piece appears at most
    ``copies`` times. Counted by dynamic programming over piece sizes (no
    enumeration).

    Examples
    --------
    >>> from ubongo_cp.pieces import load_pieces
    >>> matching_subsets(load_pieces("duel").pieces, 16, 3)
    495
    >>> tiny = load_pieces("classic").select(["I2", "O4"])
    >>> matching_subsets(tiny, 6, 2), matching_subsets(tiny, 4, 2, copies=2)   # {I2, O4}; {I2, I2}
    (1, 1)
    """
    # pieces of one size are alike here: ways[(j, a)] = the j-multisets (each piece at most ``copies`` times) of the
    # sizes taken so far with area a, over the reachable (j, a) only
    by_size: dict[int, int] = {}
    for p in pieces:
        by_size[p.size] = by_size.get(p.size, 0) + 1
    ways = {(0, 0): 1}
    for size, n in sorted(by_size.items()):
        choose = _multisets(n, copies, k)   # choose[t]: the t-multisets of the n pieces of this size
        new: dict[tuple[int, int], int] = {}
        for (j, a), w in ways.items():
            for t, c in enumerate(choose):
                if j + t > k or a + t * size > area:
                    break
                key = (j + t, a + t * size)
                new[key] = new.get(key, 0) + w * c
        ways = new
    return ways.get((k, area), 0)


def _multisets(n: int, copies: int, most: int) -> list[int]:
    """``[m(0), ..., m(most)]``: ``m(t)`` the t-multisets of ``n`` distinct things, each taken at most ``copies`` times
    (the coefficients of ``(1 + x + ... + x**copies) ** n``; binomials for ``copies`` 1)."""
    if copies == 1:
        return [math.comb(n, t) for t in range(most + 1)]
    coef = [1] + [0] * most
    for _ in range(n):
        coef = [sum(coef[max(0, t - copies):t + 1]) for t in range(most + 1)]
    return coef


def analyze(pieces: Sequence[Piece], region: Region, k: int | None = None, *, backend: str | None = None,
            time_limit: float | None = None, keep_solutions: bool = False, mode: str = "free",
            copies: int = 1, max_empty: int = 0, split=None) -> AnalysisResult:
    """Find every K-subset of ``pieces`` that tiles ``region`` and count its tilings.

    Parameters
    ----------
    pieces : sequence of Piece
        The candidate pieces (distinct names), e.g. a whole piece set.
    region : Region
        Target cells.
    k : int, optional
        Subset size; ``None`` accepts tilings with any number of pieces.
    backend : str, optional
        A registered solver name (:func:`ubongo_cp.solvers.solver_names`);
        default ``DEFAULT_STRATEGY["analyze"]`` (``"bitboard"``, the fastest
        measured for this enumeration; ``"dlx"`` beyond 256 cells).
    time_limit : float, optional
        Seconds; ``TimeoutError`` if exceeded.
    keep_solutions : bool
        Also return the option-id solutions grouped by subset.
    mode : {"free", "one-sided", "fixed"}
        Orientations allowed (UP-3: free).
    copies : int
        Each piece may be used up to this many times (default 1: subsets;
        more: multisets, a task naming a piece twice). The copies of a piece
        form one item of multiplicity ``[0..copies]`` (Knuth's Algorithm M),
        so tilings that only swap two copies count once (UP-5).
    max_empty : int
        Up to this many cells of the region may stay uncovered: a subset
        covering ``area - e`` cells (``0 <= e <= max_empty``) tiles the
        region with ``e`` cells left empty, and its count is that of the
        task with those pieces and ``max_empty = e`` (the empty cells are
        monominoes of one type, :data:`~ubongo_cp.pieces.EMPTY`: each set of
        empty cells once).
    split : SplitSearch, optional
        The search cut into subtrees (:class:`~ubongo_cp.solvers.subtrees.SplitSearch`: several
        workers, a progress bar, a journal); the counts are those of one search.

    Returns
    -------
    AnalysisResult

    Raises
    ------
    InputError
        If ``pieces`` are not :class:`Piece` objects or ``region`` not a
        :class:`Region`, piece names repeat, ``k`` is not positive or larger than the set
        (times ``copies``), ``copies`` is below 1, ``max_empty`` is negative,
        larger than the region or goes with a region with optional
        cells, a piece is named ``"empty"`` while cells may stay empty, the
        pieces are on another grid than the region, the solver name is
        unknown, or ``split`` is no :class:`~ubongo_cp.solvers.subtrees.SplitSearch`, or asks for several
        workers or a journal where each cover is counted as it is found (``copies`` above 1,
        ``keep_solutions``: one search).
    TimeoutError
        If the search did not finish within ``time_limit``.

    Examples
    --------
    >>> from ubongo_cp.pieces import load_pieces, load_region
    >>> res = analyze(load_pieces("duel").pieces, load_region("puzzles/examples/duel_board1.txt"), 3)
    >>> len(res.subsets), res.total_solutions
    (13, 14)
    """
    pieces = checked_puzzle("analyze", pieces, region)
    names = [p.name for p in pieces]
    if len(set(names)) != len(names):
        raise InputError("subset analysis needs distinct piece names")
    copies = _check(pieces, region, k, copies, max_empty)   # before the area bounds, which may leave nothing
    if split is not None:
        from .solvers.subtrees import split_argument

        split_argument(split)
    from .solvers import _one_search, choose, get_solver, solve, warm

    name = backend or choose("analyze")
    get_solver(name)  # an unknown name is refused before any check
    start = time.perf_counter()
    # Cheap bounds first (as solve does): with K given, only pieces that belong to some K-subset of the
    # region's area can appear in a tiling; when there is none, nothing is searched.
    areas = _areas(region, max_empty)
    matching = sum(matching_subsets(pieces, a, k, copies) for a in areas) if k else 0
    usable = _usable_window(pieces, areas, k, copies)
    if not any(usable):
        if k and max_empty:
            reason = (f"no {k}-subset of the pieces covers {areas[0]} to {region.area} cells (the region's "
                      f"{region.area} with up to {max_empty} empty)")
        elif k and region.optional:
            reason = (f"no {k}-subset of the pieces covers {region.area} to {areas[-1]} cells (the region's "
                      f"{region.area} and up to {len(region.optional)} optional)")
        elif k:
            reason = f"no {k}-subset of the pieces has the region's area ({region.area} cells)"
        else:
            reason = f"the pieces cover {sum(p.size for p in pieces)} cells, fewer than the region's {region.area}"
        return AnalysisResult(subsets=[], k=k, matching_area=matching, seconds=time.perf_counter() - start,
                              stats={"reason": reason})
    warm([name])  # the engine loads before the clock: ``seconds`` is the work
    start = time.perf_counter()
    index = [i for i, use in enumerate(usable) if use]  # searched piece -> its position in ``pieces``
    instance = _subset_instance(pieces, usable, region, mode, copies, max_empty)
    if backend is None:
        name = choose("analyze", instance)  # the bitboard kernel's stand-in where it cannot take the instance
    spec = get_solver(name)
    notes: dict = {}
    if spec.diagram and not keep_solutions and copies == 1 and not max_empty:  # one piece of a type per subset
        try:
            by_diagram, notes = _analyze_on_diagram(instance, name, k, time_limit)
        except InputError:
            if instance.ranges is None:
                raise
            raise InputError(f"backend {name!r} cannot make this analysis: a piece fits on the region's optional "
                             "cells alone, so each piece is counted as used 0 or 1 times, which a decision diagram "
                             "does not take; choose dlx, cpsat or sat") from None
        if by_diagram is not None:  # keyed by searched piece: map to positions in ``pieces``
            found = {tuple(index[t] for t in used): n for used, n in by_diagram.items()}
            found = _identical_told_apart(found, pieces, mode)
            subsets = [SubsetCount(tuple(names[i] for i in used), found[used]) for used in sorted(found)]
            return AnalysisResult(subsets, k, matching, time.perf_counter() - start, notes, {}, instance)
    groups: dict[tuple[int, ...], list[list[int]]] = {}
    counted: dict[tuple[int, ...], int] = {}
    # distinct names: type t is searched piece t (and its copies); the empty cells' type (last) is -1
    position = index + [-1] if max_empty else index
    option_type = [position[t] for t in instance.table.option_type]

    def on_solution(options) -> bool:
        used = tuple(sorted(t for t in (option_type[o] for o in options) if t >= 0))
        if max_empty and k is not None and len(used) != k:
            return True  # the kernel cannot tell pieces from empty cells: K is kept here
        if by_callback:  # counted here (see below): the solver's tally holds sets of types
            counted[used] = counted.get(used, 0) + 1
        if keep_solutions:
            groups.setdefault(used, []).append(list(options))
        return True

    # Counted per cover with copies (a piece used twice: a set of types cannot tell) and on a diagram
    # solver whose rule chose the kernel (without a callback it would count on a diagram, without the
    # tally); else the solver's tally (in C on the bitboard kernel).
    by_callback = copies > 1 or spec.diagram
    per_solution = keep_solutions or by_callback
    if per_solution and not _one_search(split):
        why = ("the covers it keeps" if keep_solutions else "pieces with copies (a set of types cannot tell a piece "
               "used twice)" if copies > 1 else f"the {name} solver")
        raise InputError("cannot split this subset analysis over workers or keep a journal of it: with "
                         f"{why}, each cover is counted as it is found, in one search")
    result = solve(instance, backend=name, time_limit=time_limit, keep=0,
                   reduce=False, on_solution=on_solution if per_solution else None,
                   pieces_used=None if max_empty else k, tally=not by_callback, split=split)
    if not result.complete:
        raise TimeoutError(f"subset analysis did not finish within {time_limit} s")
    if by_callback:
        counts = counted
    elif position == list(range(len(position))):   # every piece searched, no empty cells: the types are the positions
        tally = result.tally
        # a search told the subset size keeps to it: its tally taken as it is (else its K-subsets kept)
        counts = tally if k is None or all(map(k.__eq__, map(len, tally))) else \
            {used: n for used, n in tally.items() if len(used) == k}
    else:
        counts = {}
        for used, n in result.tally.items():
            real = tuple([position[t] for t in used if position[t] >= 0])
            if k is None or len(real) == k:
                counts[real] = counts.get(real, 0) + n
    counts = _identical_told_apart(counts, pieces, mode)
    stats = {key: value for key, value in result.stats.items() if key != "wall_seconds"}
    stats.update(notes)  # why ``auto`` enumerated with the kernel
    rows = _named_rows(sorted(counts), counts, names)
    return AnalysisResult._of_rows(rows, k, matching, time.perf_counter() - start, stats,
                                   {tuple(names[i] for i in used): sols for used, sols in groups.items()}, instance)


def _named_rows(keys: list[tuple[int, ...]], counts: dict[tuple[int, ...], int],
                names: list[str]) -> list[tuple[tuple[str, ...], int]]:
    """``(names at the positions of key, counts[key])`` for each of ``keys``, in their order: in C with the
    bitboard kernel (thousands of subsets; a tuple of names by one ``itemgetter`` costs four times as much)."""
    try:
        from .solvers._bits import labelled_rows
    except ImportError:   # the kernel is not built
        return [(itemgetter(*used)(names) if len(used) > 1 else tuple([names[i] for i in used]), counts[used])
                for used in keys]
    return labelled_rows(keys, counts, names)


def _identical_told_apart(counts: dict[tuple[int, ...], int], pieces: Sequence[Piece],
                          mode: str) -> dict[tuple[int, ...], int]:
    """The counts of subsets whose pieces of one shape bear different names, as :func:`~ubongo_cp.solvers.solve`
    counts them: identical pieces are not told apart (UP-5).

    The search tells pieces apart by name: ``n`` pieces of one shape (in ``mode``; copies of a name are already
    one), of which name ``i`` is used ``c_i`` times, are placed in ``n! / prod(c_i!)`` ways on each tiling's
    places for them; each count is divided by that, exactly. ``counts`` are keyed by positions in ``pieces``
    (a position once per copy used).
    """
    from collections import Counter

    from .cover import piece_types

    shape_of: dict[int, int] = {}
    shared: set[int] = set()    # the positions whose shape another name bears too
    for t, members in enumerate(piece_types(list(pieces), mode)):
        for i in members:
            shape_of[i] = t
        if len({pieces[i].name for i in members}) > 1:
            shared.update(members)
    if not shared:  # every shape under one name: nothing to divide (most analyses; 1,797 subsets cost 7 ms)
        return dict(counts)
    out = {}
    for used, n in counts.items():
        if shared.isdisjoint(used):
            out[used] = n
            continue
        ways = 1
        per_shape: dict[int, list[int]] = {}
        for i, c in Counter(used).items():
            per_shape.setdefault(shape_of[i], []).append(c)
        for uses in per_shape.values():
            ways *= math.factorial(sum(uses)) // math.prod(math.factorial(c) for c in uses)
        assert n % ways == 0, (used, n, ways)   # every tiling is met once per naming of its identical pieces
        out[used] = n // ways
    return out


def _analyze_on_diagram(instance: ExactCoverInstance, name: str, k: int | None,
                        time_limit: float | None) -> tuple[dict[tuple[int, ...], int] | None, dict]:
    """Subset counts from one decision diagram, keyed by piece indices, and the stats.

    ``(None, notes)`` when the ``auto`` rule picks the kernel: the notes say why.

    Raises
    ------
    TimeoutError
        When the build does not finish within ``time_limit``.
    """
    from .solvers import get_solver
    from .solvers.zdd import DiagramTooLarge

    backend = get_solver(name).make()
    kernel = {"engine": getattr(backend, "kernel", "dlx").removesuffix("-symmetry")}
    try:
        if hasattr(backend, "choose"):
            diagram, notes = backend.choose(instance, time_limit=time_limit, classes=True)
            if diagram is None and not notes.get("timed_out"):
                return None, {**kernel, **notes}
        else:
            diagram, notes = backend.diagram(instance, time_limit=time_limit, classes=True), {}
    except DiagramTooLarge as exc:
        if hasattr(backend, "choose"):
            return None, {**kernel, "rule": f"{exc}: kernel"}
        raise
    if diagram is None:
        raise TimeoutError(f"subset analysis did not finish within {time_limit} s")
    n_cells, n_types = instance.n_cells, instance.n_types
    counts: dict[tuple[int, ...], int] = {}
    for used, n in diagram.by_optional_items().items():   # the types' items, then the optional cells' (summed over)
        types = tuple(i - n_cells for i in used if i < n_cells + n_types)
        if k is None or len(types) == k:
            counts[types] = counts.get(types, 0) + n
    return counts, {"engine": "zdd", **diagram.stats, **notes}


def subset_instance(pieces: Sequence[Piece], region: Region, k: int | None = None, *,
                    mode: str = "free", copies: int = 1, max_empty: int = 0) -> ExactCoverInstance | None:
    """The one exact-cover instance :func:`analyze` searches (optional pieces, UP-4's area bound applied).

    Only the pieces that belong to some ``k``-subset (multiset, with
    ``copies``) of the region's area (less up to ``max_empty`` cells) are in
    it, with ``max_empty`` monominoes of the type :data:`~ubongo_cp.pieces.EMPTY` last; ``None`` when
    there is none (nothing to search). Its search meets the tilings with any
    number of pieces; :func:`analyze` keeps those with ``k``.

    Raises
    ------
    InputError
        As :func:`analyze` does for these arguments.
    """
    copies = _check(pieces, region, k, copies, max_empty)
    usable = _usable_window(pieces, _areas(region, max_empty), k, copies)
    return _subset_instance(pieces, usable, region, mode, copies, max_empty) if any(usable) else None


def check_k(pieces: Sequence[Piece], k: int | None, copies: int = 1) -> None:
    """Check the subset size ``k`` (``None``: any) of an analysis of ``pieces``, each with ``copies`` copies.

    Raises
    ------
    InputError
        When ``k`` or ``copies`` is not a whole number of at least 1, or ``k`` is larger than the pieces
        (with their copies) hold.

    Examples
    --------
    >>> from ubongo_cp.pieces import load_pieces
    >>> check_k(load_pieces("pentominoes").select(["X", "I"]), 3)
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: k = 3 is larger than the piece set (2 pieces)
    """
    if k is not None:
        whole_argument("k", k, 1)
    whole_argument("copies", copies, 1)
    if k is not None and k > len(pieces) * copies:
        raise InputError(f"k = {k} is larger than the piece set ({len(pieces)} pieces"
                         + (f", {copies} copies each)" if copies > 1 else ")"))


def _check(pieces: Sequence[Piece], region: Region, k: int | None, copies: int, max_empty: int = 0) -> int:
    """The analysis' argument checks: ``k``, ``copies`` and ``max_empty`` in range, pieces and region on one grid.

    Returns the copies that matter: no more than the region holds of the smallest piece, its optional cells
    counted (more are never placed; 10**9 copies built a billion pieces).
    """
    whole_argument("max_empty", max_empty, None)
    if not 0 <= max_empty <= region.area:
        raise InputError(f"max_empty must be 0 to {region.area} (the region's cells), got {max_empty}",
                         path=region.path)
    if max_empty and region.optional:
        raise InputError("empty cells go with a region without optional cells (an optional cell may stay empty "
                         "already)", path=region.path)
    if max_empty and any(p.name == EMPTY for p in pieces):
        raise InputError(f"a piece is named {EMPTY!r}, the name of the cells left empty; rename it")
    check_k(pieces, k, copies)
    check_one_grid(pieces, region)
    cells = region.area + len(region.optional)   # the cells a piece may cover
    return max(1, min(copies, cells // min((p.size for p in pieces), default=1)))


def _usable_copies(pieces: Sequence[Piece], area: int, k: int | None, copies: int) -> list[bool]:
    return _usable(list(pieces) * copies, area, k)[:len(pieces)]  # the copies of a piece are alike


def _areas(region: Region, max_empty: int) -> range:
    """The areas a tiling's pieces may cover: the region's cells, less up to ``max_empty`` left empty, plus any of
    its optional cells (covered at most once)."""
    return range(region.area - max_empty, region.area + len(region.optional) + 1)


def _usable_window(pieces: Sequence[Piece], areas: range, k: int | None, copies: int) -> list[bool]:
    """Which pieces belong to some ``k``-subset covering one of ``areas`` (cells left empty: several)."""
    usable = [False] * len(pieces)
    for a in areas:
        if a > 0:
            usable = [u or v for u, v in zip(usable, _usable_copies(pieces, a, k, copies))]
    return usable


def _subset_instance(pieces, usable, region, mode, copies, max_empty: int = 0) -> ExactCoverInstance:
    """The optional pieces (and, with ``max_empty``, a last type of that many empty-cell monominoes).

    On a region with optional cells where some piece fits on those cells alone, such a placement covers no
    primary item and an exact cover never chooses it: the pieces are then each used 0 to ``copies`` times
    instead (their items primary, with those bounds: Knuth's Algorithm M), one type per piece in order.

    Raises
    ------
    InputError
        In that case, for two pieces of one shape under different names (one type with one range, UP-5).
    """
    distinct = [p for p, use in zip(pieces, usable) if use]
    if region.optional and build_instance(distinct, Region(region.optional, grid=region.grid),
                                          optional_pieces=True, mode=mode).n_options:
        from .cover import piece_types

        shared = next((t for t in piece_types(distinct, mode) if len(t) > 1), None)
        if shared is not None:
            raise InputError(f"pieces {', '.join(distinct[i].name for i in shared)} are the same shape and some "
                             "piece fits on the region's optional cells alone: that analysis is not made (analyse "
                             "with one of them, or solve each subset)")
        return build_instance(distinct, region, mode=mode, ranges={p.name: (0, copies) for p in distinct})
    searched = distinct * copies
    if max_empty:
        searched += [empty_cell_piece(region)] * max_empty
    return build_instance(searched, region, optional_pieces=True, mode=mode)


def _usable(pieces: Sequence[Piece], area: int, k: int | None) -> list[bool]:
    """Which pieces can be part of a tiling: of a ``k``-subset whose area is ``area`` (any size when ``k`` is None).

    A boolean knapsack over the piece sizes, once per distinct size (pieces
    of one size are alike here): O(sizes x pieces x k x area), remembered
    for the last few piece sizes, areas and K (a census asks the same for
    every region of a size).
    """
    return list(_usable_sizes(tuple(p.size for p in pieces), area, k))


@lru_cache(maxsize=64)
def _usable_sizes(sizes: tuple[int, ...], area: int, k: int | None) -> tuple[bool, ...]:
    return tuple(_usable_of_sizes(list(sizes), area, k))


def _usable_of_sizes(sizes: list[int], area: int, k: int | None) -> list[bool]:
    if k is None:
        return [s <= area for s in sizes] if sum(sizes) >= area else [False] * len(sizes)
    if k > len(sizes):
        return [False] * len(sizes)
    verdict: dict[int, bool] = {}
    for size in set(sizes):
        if size > area:
            verdict[size] = False
            continue
        others = list(sizes)
        others.remove(size)
        # bit a of reach[j]: some j of the other pieces cover a cells together
        full = (1 << (area + 1)) - 1
        reach = [1] + [0] * (k - 1)
        for s in others:
            if s <= area:
                for j in range(k - 1, 0, -1):
                    reach[j] |= (reach[j - 1] << s) & full
        verdict[size] = bool(reach[k - 1] >> (area - size) & 1)
    return [verdict[s] for s in sizes]


def analyze_per_subset(pieces: Sequence[Piece], region: Region, k: int, *, backend: str = "cpsat") -> AnalysisResult:
    """Reference method: solve every area-matching K-subset separately.

    Much slower than :func:`analyze` (one search per subset); kept to
    cross-check it in tests and benchmarks.
    """
    from .solvers import solve

    start = time.perf_counter()
    found = []
    matching = 0
    for combo in combinations(pieces, k):
        if sum(p.size for p in combo) != region.area:
            continue
        matching += 1
        result = solve(build_instance(combo, region), backend=backend)
        if result.count:
            found.append(SubsetCount(tuple(p.name for p in combo), result.count))
    return AnalysisResult(found, k, matching, time.perf_counter() - start)
