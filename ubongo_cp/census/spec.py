"""The parameters of a census, its shard plan and the region text keys."""

from __future__ import annotations

import math
import numbers
import os
from dataclasses import dataclass
from typing import Any, Iterable

from ..errors import MAX_JOB_CPU_SECONDS, InputError, cut, flag_argument, refuse_long_job, whole_argument
from ..grids import SQUARE, Grid, get_grid
from ..pieces import PieceSet, Region, load_pieces
from ..polyominoes import estimate_count, shard_depth
from ..shipped import SHIPPED_PIECE_SETS


__all__ = ["MANIFEST", "FORMAT", "ROWS_PER_SHARD", "MIN_SHARDS", "MIN_ROWS", "LEAVES_PER_COUNT_SHARD", "MAX_SHARDS",
           "MAX_ROWS_PER_SHARD", "MAX_LEAVES_PER_SHARD", "PLAN_PROBES", "CARD_UNIQUE", "TABLES", "CensusSpec",
           "region_text", "region_from_text", "make_spec", "plan_census", "SECONDS_PER_REGION", "LEAVES_PER_SECOND"]


#: The manifest's file name inside a census directory.
MANIFEST = "manifest.json"


#: Format tag written to (and required from) every manifest.
FORMAT = "ubongo-cp census 1"


#: Regions wanted per shard of an analysed census (a shard's rows stay a few MB).
ROWS_PER_SHARD = 2000


#: Shards per size of a small analysed census (so that it runs on several workers), each of at least
#: :data:`MIN_ROWS` regions.
MIN_SHARDS = 16


#: Fewest regions per shard of a small analysed census (see :data:`MIN_SHARDS`).
MIN_ROWS = 100


#: Search-tree leaves (fixed polyominoes, about 8 per region) wanted per shard of a count-only census
#: (the compiled counter meets about 3-5 million a second).
LEAVES_PER_COUNT_SHARD = 20_000_000


#: Most shards per size; beyond, shards grow instead, up to the limits below (a census larger than
#: that is refused: its shards would not fit a worker's memory, or would run for days).
MAX_SHARDS = 100_000


#: Most regions per shard of an analysed census (see :data:`MAX_SHARDS`).
MAX_ROWS_PER_SHARD = 200_000


#: Most search-tree leaves per shard of a count-only census (see :data:`MAX_SHARDS`).
MAX_LEAVES_PER_SHARD = 10_000_000_000


#: Random paths of Knuth's estimate used to plan the shards.
PLAN_PROBES = 10_000


#: CPU time of the subset analysis of one region (seconds): 2 ms for classic K = 3 on 12 cells, 3-4 ms
#: for Duel K = 4 on 22 (``benchmarks/bench_census.py``); the estimate that bounds a census.
SECONDS_PER_REGION = 0.003


#: Search-tree leaves the region enumeration meets per second (the compiled counter: 3-5 million).
LEAVES_PER_SECOND = 4e6


#: Uniquely tiling subsets a region needs to make a classic card side (one per die face, UG-3).
CARD_UNIQUE = 6


def _schemas():
    import pyarrow as pa

    return {
        "regions": pa.schema([
            ("region", pa.string()), ("cells", pa.int16()), ("rows", pa.int8()), ("cols", pa.int8()),
            ("symmetry", pa.int8()), ("holes", pa.int8()), ("matching_subsets", pa.int32()),
            ("tiling_subsets", pa.int32()), ("unique_subsets", pa.int32()), ("solutions", pa.int64()),
            ("unique_sets", pa.list_(pa.string())),
        ]),
        "subsets": pa.schema([("region", pa.string()), ("cells", pa.int16()), ("pieces", pa.string()),
                              ("count", pa.int64())]),
        "counts": pa.schema([("cells", pa.int16()), ("rows", pa.int8()), ("cols", pa.int8()),
                             ("symmetry", pa.int8()), ("holes", pa.int8()), ("regions", pa.int64())]),
    }


#: Table name -> its sort key when read (rows are identical in that order whatever ran them).
TABLES = {"regions": ["cells", "region"], "subsets": ["cells", "region", "pieces"],
          "counts": ["cells", "rows", "cols", "symmetry", "holes"]}


@dataclass(frozen=True)
class CensusSpec:
    """The parameters of a census (what a worker needs besides N and the shard).

    Attributes
    ----------
    piece_set : PieceSet
        The pieces (parsed: workers read no files).
    pieces : str
        How the set was named (a shipped name or a path), for the record.
    k : int
        Pieces per subset (K).
    cells : tuple of int
        Region sizes N, increasing.
    box : (int, int) or None
        Box the regions fit in some orientation, stored as (shorter, longer).
    holes : bool
        Regions with holes too.
    count_only : bool
        Only count the regions (no analysis).
    per_subset : bool
        Also write the subsets table.
    """

    piece_set: PieceSet
    pieces: str
    k: int
    cells: tuple[int, ...]
    box: tuple[int, int] | None
    holes: bool
    count_only: bool
    per_subset: bool

    def parameters(self) -> dict[str, Any]:
        """The JSON parameters compared when a census is resumed."""
        grid = self.piece_set.grid
        params = {
            "pieces": self.pieces,
            "piece_shapes": [[p.name, region_text(p.cells, grid)] for p in self.piece_set.pieces],
            "k": self.k, "cells": list(self.cells), "box": list(self.box) if self.box else None,
            "holes": self.holes, "count_only": self.count_only, "per_subset": self.per_subset,
        }
        if grid is not SQUARE:   # squares are the default: a census written before grids resumes unchanged
            params["grid"] = grid.name
            if self.box is not None:
                # How a region is fitted to the box, recorded where it matters: a census whose box took only
                # the stored form and its row/column swap missed regions on these grids, and must not resume.
                params["box_fit"] = BOX_FIT
        return params

    def tables(self) -> tuple[str, ...]:
        """The tables this census writes, the one that marks a finished shard last."""
        if self.count_only:
            return ("counts",)
        return ("subsets", "regions") if self.per_subset else ("regions",)


#: How a census fits a region to its box on a grid other than the square (:func:`~ubongo_cp.polyforms.census_polyforms`):
#: when any image of it under the grid's symmetries fits; the shards are dealt the regions in the box alone (the
#: search cut at its edge). A census folder records it, so one fitted otherwise (by the stored form and its
#: row/column swap alone, which missed regions) or dealt otherwise (every region of the size, then filtered, so
#: its shards hold other regions) is not resumed.
BOX_FIT = "any symmetry image, dealt from the regions in the box"


def region_text(cells, grid: str | Grid = SQUARE) -> str:
    """A shape as its grid's text rows joined by ``/`` (the census's region key; ``#``/``.`` on squares).

    Examples
    --------
    >>> region_text([(0, 0), (0, 1), (0, 2), (1, 0)])
    '###/#..'
    >>> region_text([(0, 0), (1, 0), (0, 1)], "hex")
    '# #/ #'
    """
    return get_grid(grid).format(cells).replace("\n", "/")


def region_from_text(text: str, grid: str | Grid = SQUARE) -> Region:
    """The :class:`~ubongo_cp.pieces.Region` of a census region key (inverse of :func:`region_text`).

    Raises
    ------
    InputError
        On characters the grid's text does not have, no cell, or a key that is no text.

    Examples
    --------
    >>> region_from_text("###/#..").cells
    ((0, 0), (0, 1), (0, 2), (1, 0))
    """
    if not isinstance(text, str):
        raise InputError(f"a census region key is text ('###/#..'), got {type(text).__name__} {cut(repr(text))}")
    grid = get_grid(grid)
    return Region(grid.parse(text.split("/")), grid=grid)


def make_spec(pieces: str | os.PathLike | PieceSet, k: int, cells: int | Iterable[int], *,
              box: tuple[int, int] | None = None, holes: bool = False, count_only: bool = False,
              per_subset: bool = False) -> CensusSpec:
    """Check the parameters of a census (see :func:`run_census`) and bundle them.

    Raises
    ------
    InputError
        One line naming the parameter and what is wrong (see :func:`run_census`).

    Examples
    --------
    >>> make_spec("classic", 3, 20).cells
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: a region of 20 cells is larger than the 3 largest pieces of classic (15 cells)
    """
    if isinstance(pieces, PieceSet):
        piece_set, label = pieces, pieces.path or "pieces"
    elif not isinstance(pieces, (str, os.PathLike)):
        raise InputError(f"pieces is a shipped set's name, a piece-set file or a PieceSet, got {type(pieces).__name__}")
    else:
        label = os.fspath(pieces)
        if label not in SHIPPED_PIECE_SETS and not os.path.exists(label):
            raise InputError(f"unknown piece set {label!r}: neither a shipped set "
                             f"({', '.join(SHIPPED_PIECE_SETS)}) nor a file")
        piece_set = load_pieces(label)
    name = label if label in SHIPPED_PIECE_SETS else os.path.basename(label)
    k = whole_argument("K", k, 1)   # "3" was shown as "K must be at least 1, got 3"
    if k > len(piece_set):
        raise InputError(f"K = {k} is more than the {len(piece_set)} pieces of {name}")
    if isinstance(cells, (str, bytes)) or not (isinstance(cells, numbers.Integral) or hasattr(cells, "__iter__")):
        raise InputError(f"cells is a number of cells or a list of them, got {cut(repr(cells))}")
    given = [cells] if isinstance(cells, numbers.Integral) else list(cells)
    sizes = tuple(sorted({whole_argument("a region size", n, None) for n in given}))
    if not sizes:
        raise InputError("no region size given")
    holes, count_only, per_subset = (flag_argument(name, value) for name, value in
                                     (("holes", holes), ("count_only", count_only), ("per_subset", per_subset)))
    if box is not None:
        if isinstance(box, (str, bytes)) or not hasattr(box, "__len__") or len(box) != 2:
            raise InputError(f"a box needs two sides of at least 1 cell, got {box}")
        rows, cols = (whole_argument("a box side", side, 1) for side in box)
        box = (rows, cols)
        if piece_set.grid.dim != 2:
            raise InputError(f"a box (rows x columns) is for flat regions; {name} is on the {piece_set.grid.name} grid")
        box = (min(box), max(box))
    areas = sorted(p.size for p in piece_set.pieces)
    low, high = sum(areas[:k]), sum(areas[-k:])
    for n in sizes:
        if n < 1:
            raise InputError(f"a region needs at least 1 cell, got {n}")
        if box is not None and n > box[0] * box[1]:
            raise InputError(f"a region of {n} cells does not fit a {box[0]}x{box[1]} box "
                             f"({box[0] * box[1]} cells)")
        if count_only:
            continue  # only counted: the pieces do not bound the sizes
        if n < low:
            raise InputError(f"a region of {n} cells is smaller than the {k} smallest pieces of {name} "
                             f"({low} cells)")
        if n > high:
            raise InputError(f"a region of {n} cells is larger than the {k} largest pieces of {name} "
                             f"({high} cells)")
    return CensusSpec(piece_set, label, k, sizes, box, holes, count_only, per_subset)


def plan_census(spec: CensusSpec, shards: int | None = None, *,
                max_cpu_seconds: float | None = MAX_JOB_CPU_SECONDS) -> dict[str, dict[str, int]]:
    """The shard plan of a census: shards and sharding depth per size.

    Parameters
    ----------
    spec : CensusSpec
        The census (:func:`make_spec`).
    shards : int, optional
        Shards per size (at most one per region of the size, estimated as
        below, and :data:`MAX_SHARDS`); by default from Knuth's estimate of the search tree
        (:func:`~ubongo_cp.polyominoes.estimate_count`, seeded: the same
        plan every time): :data:`ROWS_PER_SHARD` regions per shard, at least
        up to :data:`MIN_SHARDS` shards of :data:`MIN_ROWS` regions, at most
        :data:`MAX_SHARDS`; a count-only census aims at
        :data:`LEAVES_PER_COUNT_SHARD` search-tree leaves per shard.
    max_cpu_seconds : float or None
        Refuse a census estimated (from the same estimate,
        :data:`SECONDS_PER_REGION` per analysed region and
        :data:`LEAVES_PER_SECOND`) to need more CPU time; ``None``: no bound.

    Returns
    -------
    dict
        ``{str(N): {"shards": S, "depth": d}}``, as in the manifest.

    Raises
    ------
    InputError
        For a census that cannot be held (shards beyond
        :data:`MAX_ROWS_PER_SHARD` regions even at :data:`MAX_SHARDS`).
    JobTooLargeError
        For a census estimated to need more than ``max_cpu_seconds``.

    Examples
    --------
    >>> plan_census(make_spec("classic", 3, [8, 12]))
    {'8': {'shards': 4, 'depth': 4}, '12': {'shards': 32, 'depth': 6}}
    """
    if shards is not None:   # -3 planned -3 shards on hexagons, 0 the default plan
        shards = whole_argument("shards", shards, 1)
    grid = spec.piece_set.grid
    if grid is not SQUARE:   # the free polyforms themselves, dealt round robin (ubongo_cp.polyforms)
        from ..polyforms import MAX_POLYFORM_CELLS, count_polyforms

        for n in spec.cells:
            if n > MAX_POLYFORM_CELLS:
                raise InputError(f"regions of {n} cells on the {grid.name} grid: a census holds at most "
                                 f"{MAX_POLYFORM_CELLS} cells there")
        sizes = {n: float(count_polyforms(grid, n, box=spec.box)) for n in spec.cells}   # regions of each size
        seconds = 0.0 if spec.count_only else sum(sizes.values()) * SECONDS_PER_REGION
        refuse_long_job("this census", seconds, f"{sum(sizes.values()):.0f} regions"
                        + ("" if spec.count_only else f" at about {SECONDS_PER_REGION * 1000:.0f} ms each"),
                        max_cpu_seconds)
        return {str(n): {"shards": min(shards, max(1, int(k))) if shards else
                         min(MAX_SHARDS, max(1, math.ceil(k / ROWS_PER_SHARD), min(MIN_SHARDS, math.ceil(k / MIN_ROWS)))),
                         "depth": 1} for n, k in sizes.items()}
    # Every size estimated first, so that a job too large is refused with the whole census's figures.
    leaves_of = {n: estimate_count(n, holes=None, box=spec.box, probes=PLAN_PROBES) for n in spec.cells}
    leaves_total = sum(leaves_of.values())
    seconds = leaves_total / LEAVES_PER_SECOND + (0 if spec.count_only else leaves_total / 8 * SECONDS_PER_REGION)
    refuse_long_job("this census", seconds, f"about {leaves_total / 8:.1e} regions"
                    + ("" if spec.count_only else f" at about {SECONDS_PER_REGION * 1000:.0f} ms each"),
                    max_cpu_seconds)
    plan = {}
    for n, leaves in leaves_of.items():
        if shards is None:
            if spec.count_only:
                count = math.ceil(leaves / LEAVES_PER_COUNT_SHARD)
            else:  # about 8 leaves per free polyomino; small censuses still spread over several workers
                regions = leaves / 8
                count = max(math.ceil(regions / ROWS_PER_SHARD), min(MIN_SHARDS, math.ceil(regions / MIN_ROWS)))
            count = min(MAX_SHARDS, max(1, count))
            if spec.count_only and leaves / count > MAX_LEAVES_PER_SHARD or \
                    not spec.count_only and leaves / 8 / count > MAX_ROWS_PER_SHARD:
                raise InputError(f"about {leaves / 8:.1e} regions of {n} cells: more than one census can hold "
                                 f"in {MAX_SHARDS:,} shards; give a box or fewer cells")
        else:   # no more shards than regions (estimated): an empty shard is a file and a task for nothing
            count = min(shards, MAX_SHARDS, max(1, math.ceil(leaves / 8)))
        plan[str(n)] = {"shards": count, "depth": shard_depth(n, count, box=spec.box)}
    return plan
