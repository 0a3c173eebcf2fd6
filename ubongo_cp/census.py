"""Census: every region of N cells analysed for a piece set and K, sharded over an executor.

The generator (:mod:`ubongo_cp.generate`) samples regions until one is good
enough; a census gives the whole picture. Every free, connected region of N
cells (hole-free unless asked, inside a box if given) is enumerated once by
Redelmeier's algorithm (:mod:`ubongo_cp.polyominoes`), and the subset
analysis (:func:`ubongo_cp.analyze.analyze`: one exact-cover search over the
whole piece set) tells which K-subsets tile it and in how many ways (rules
UP-2, UP-4: a task's pieces cover the region exactly). The number of
*uniquely* tiling K-subsets is the region's goodness as a card: a classic
card side needs 6 of them, one per die face (UG-1, UG-3).

Work and output
---------------
The enumeration of each size N is cut into ``S`` shards by Redelmeier's
search tree itself (:class:`ubongo_cp.polyominoes.Shard`); ``S`` follows
from the expected number of regions (:data:`ROWS_PER_SHARD` per shard, from
Knuth's estimate of the tree) and is fixed in the manifest. A unit of work is
``(parameters, N, shard id)``: the worker enumerates its shard, analyses each
region and returns the rows; workers never exchange regions and need no
files. The process that runs the census writes one Parquet file per finished
shard, atomically (:mod:`ubongo_cp.io`)::

    OUT/manifest.json                      parameters and shard plan (JSON)
    OUT/regions/n12-00003-of-00030.parquet one row per region   (a Parquet dataset)
    OUT/subsets/n12-00003-of-00030.parquet one row per (region, tiling subset), with per_subset
    OUT/counts/n12-00003-of-00030.parquet  count_only: regions per shape class

``pandas.read_parquet("OUT/regions")`` (or :func:`read_census`) reads a table
as one frame. A killed run resumes where it stopped: a shard whose file
exists is finished and skipped, so nothing is lost or counted twice. A
directory holding a census of other parameters is refused. The dataset is
the same (same rows; same order once sorted by ``cells`` and ``region``,
which :func:`read_census` does) for any executor, any number of jobs, and
after any interruption and resume.

Regions table (``regions/``), one row per region:

=================  =========  ==================================================
column             type       meaning
=================  =========  ==================================================
region             string     canonical form (:func:`~ubongo_cp.polyominoes.canonical_form`):
                              ``#``/``.`` rows joined by ``/``, e.g. ``"###/#.."``
cells              int16      N
rows, cols         int8       bounding box of the canonical form (rows <= cols)
symmetry           int8       order of the region's stabiliser (1, 2, 4 or 8)
holes              int8       enclosed empty components (0 unless ``holes``)
matching_subsets   int32      K-subsets whose area is N (``AnalysisResult.matching_area``)
tiling_subsets     int32      K-subsets that tile the region
unique_subsets     int32      K-subsets with exactly one tiling (the goodness)
solutions          int64      tilings by K-subsets in all
unique_sets        list<str>  the uniquely tiling subsets, piece names joined by
                              spaces in piece-set order, sorted
=================  =========  ==================================================

Subsets table (``subsets/``, with ``per_subset``): ``region``, ``cells``,
``pieces`` (names joined by spaces) and ``count`` (tilings). Counts table
(``counts/``, with ``count_only``: nothing is analysed and no region is
written; the shards are counted by the compiled counter
:func:`~ubongo_cp.polyominoes.count_polyominoes`, same tree and shards):
``cells``, ``rows``, ``cols``, ``symmetry``, ``holes`` and ``regions``, the
number of regions of that class in the shard.

References
----------
.. [1] D. H. Redelmeier, "Counting polyominoes: yet another attack",
   *Discrete Mathematics* 36 (1981), 191-203 (the enumeration).
.. [2] D. E. Knuth, *The Art of Computer Programming*, Vol. 4B, 7.2.2.1
   (exact cover with secondary items: the subset analysis).
.. [3] D. E. Knuth, "Estimating the efficiency of backtrack programs",
   *Math. Comp.* 29 (1975), 121-136 (the shard plan).
"""

from __future__ import annotations

import json
import math
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from . import __version__
from .errors import InputError, UbongoError
from .executors import Executor, using
from .geometry import format_grid, parse_grid
from .pieces import PieceSet, Region, load_pieces
from .polyominoes import Shard, count_polyominoes, estimate_count, free_polyominoes, shard_depth
from .shipped import SHIPPED_PIECE_SETS

__all__ = [
    "CensusSpec",
    "CensusOutcome",
    "run_census",
    "make_spec",
    "plan_census",
    "census_shard",
    "census_row",
    "read_census",
    "read_manifest",
    "census_regions",
    "census_summary",
    "region_text",
    "region_from_text",
    "TABLES",
    "MANIFEST",
    "ROWS_PER_SHARD",
    "CARD_UNIQUE",
]

#: The manifest's file name inside a census directory.
MANIFEST = "manifest.json"
#: Format tag written to (and required from) every manifest.
FORMAT = "ubongo-cp census 1"
#: Regions wanted per shard of an analysed census (a shard's rows stay a few MB).
ROWS_PER_SHARD = 2000
#: Shards per size of a small analysed census (so that it runs on several workers), each of at least
#: :data:`MIN_ROWS` regions.
MIN_SHARDS = 16
MIN_ROWS = 100
#: Search-tree leaves (fixed polyominoes, about 8 per region) wanted per shard of a count-only census
#: (the compiled counter meets about 3-5 million a second).
LEAVES_PER_COUNT_SHARD = 20_000_000
#: Most shards per size; beyond, shards grow instead, up to the limits below (a census larger than
#: that is refused: its shards would not fit a worker's memory, or would run for days).
MAX_SHARDS = 100_000
MAX_ROWS_PER_SHARD = 200_000
MAX_LEAVES_PER_SHARD = 10_000_000_000
#: Random paths of Knuth's estimate used to plan the shards.
PLAN_PROBES = 10_000
#: Uniquely tiling subsets a region needs to make a classic card side (one per die face, UG-3).
CARD_UNIQUE = 6
#: Modules a worker imports to run a shard (imported before workers are forked).
WORKER_MODULES = ("ubongo_cp.census", "ubongo_cp.analyze", "ubongo_cp.solvers.dancing")
#: Dask: shards sent per worker in one wave (two per Dask task), so that
#: finished shards come back, and are saved, a few at a time.
DASK_WAVE = 8


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
        Box the regions fit in either orientation, stored as (shorter, longer).
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
        return {
            "pieces": self.pieces,
            "piece_shapes": [[p.name, region_text(p.cells)] for p in self.piece_set.pieces],
            "k": self.k, "cells": list(self.cells), "box": list(self.box) if self.box else None,
            "holes": self.holes, "count_only": self.count_only, "per_subset": self.per_subset,
        }

    def tables(self) -> tuple[str, ...]:
        """The tables this census writes, the one that marks a finished shard last."""
        if self.count_only:
            return ("counts",)
        return ("subsets", "regions") if self.per_subset else ("regions",)


@dataclass
class CensusOutcome:
    """What :func:`run_census` did.

    Attributes
    ----------
    out_dir : Path
        The census directory.
    manifest : dict
        Its manifest (parameters and shard plan).
    shards : int
        Shards in the plan (all sizes).
    ran, resumed : int
        Shards computed in this run, and shards found finished.
    regions : int
        Regions in the census (rows of ``regions/``, or counted with ``count_only``).
    seconds : float
        Wall time of this run (seconds).
    extra : dict
        ``cpu_seconds``: CPU time of the shards run now, summed over the
        workers; ``worker_peak_rss_mb``: the largest peak resident set (MiB)
        a worker process reported (None when no shard ran).
    """

    out_dir: Path
    manifest: dict
    shards: int
    ran: int
    resumed: int
    regions: int
    seconds: float
    extra: dict = field(default_factory=dict)


def region_text(cells) -> str:
    """A shape as ``#``/``.`` rows joined by ``/`` (the census's region key).

    Examples
    --------
    >>> region_text([(0, 0), (0, 1), (0, 2), (1, 0)])
    '###/#..'
    """
    return format_grid(cells).replace("\n", "/")


def region_from_text(text: str) -> Region:
    """The :class:`~ubongo_cp.pieces.Region` of a census region key (inverse of :func:`region_text`).

    Raises
    ------
    InputError
        On characters other than ``#``, ``.`` and ``/``, or no cell.

    Examples
    --------
    >>> region_from_text("###/#..").cells
    ((0, 0), (0, 1), (0, 2), (1, 0))
    """
    return Region(parse_grid(text.split("/")))


def census_shard(spec: CensusSpec, n: int, index: int, count: int, depth: int) -> dict[str, Any]:
    """Enumerate and analyse one shard: the unit of work a worker runs.

    Parameters
    ----------
    spec : CensusSpec
        The census parameters.
    n : int
        Region size (cells).
    index, count, depth : int
        The shard (:class:`~ubongo_cp.polyominoes.Shard`).

    Returns
    -------
    dict
        ``{"n", "index", "count", <table>: {column: list}}`` for the tables of
        ``spec`` (see the module docstring), rows in enumeration order, and
        ``cpu_seconds`` (the shard's CPU time) and ``peak_rss_kb`` (the
        worker process's peak resident set so far, KiB), which are reported
        but never written to the dataset.

    Raises
    ------
    InputError
        For a shard outside the plan.

    Notes
    -----
    One :func:`~ubongo_cp.analyze.analyze` call (one exact-cover search over
    the whole piece set, UP-2/UP-4) per region; memory is the shard's rows.
    """
    start = time.process_time()
    shard = Shard(index, count, depth)
    out: dict[str, Any] = {"n": n, "index": index, "count": count}
    if spec.count_only:  # the compiled counter: same tree, same shards, no region leaves it
        tally = count_polyominoes(n, holes=spec.holes, box=spec.box, shard=shard, by_class=True)
        keys = list(tally)
        out["counts"] = {"cells": [n] * len(keys), "rows": [k[0] for k in keys], "cols": [k[1] for k in keys],
                         "symmetry": [k[2] for k in keys], "holes": [k[3] for k in keys],
                         "regions": [tally[k] for k in keys]}
        return _with_usage(out, start)
    rows: dict[str, list] = {name: [] for name in _schemas()["regions"].names}
    subsets: dict[str, list] = {name: [] for name in _schemas()["subsets"].names}
    for shape, order, holes in free_polyominoes(n, holes=spec.holes, box=spec.box, shard=shard, data=True):
        row, tiling = census_row(spec, shape, symmetry=order, holes=holes)
        for name, value in row.items():
            rows[name].append(value)
        if spec.per_subset:
            for sub in tiling:
                for name, value in sub.items():
                    subsets[name].append(value)
    out["regions"] = rows
    if spec.per_subset:
        out["subsets"] = subsets
    return _with_usage(out, start)


def census_row(spec: CensusSpec, cells, *, symmetry: int | None = None,
               holes: int | None = None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The census row of one region, and its rows of the subsets table.

    Parameters
    ----------
    spec : CensusSpec
        The census parameters (piece set and K).
    cells : iterable of (row, col)
        The region, in canonical form (:func:`~ubongo_cp.polyominoes.canonical_form`)
        as the census stores it; any other image gives the same analysis but
        another key.
    symmetry, holes : int, optional
        Already known by the enumeration; computed when not given.

    Returns
    -------
    row : dict
        The columns of the regions table (see the module docstring).
    subsets : list of dict
        One row of the subsets table per tiling K-subset.

    Notes
    -----
    One :func:`~ubongo_cp.analyze.analyze` call: one exact-cover search over
    the whole piece set (UP-2, UP-4).

    Examples
    --------
    >>> row, subsets = census_row(make_spec("classic", 3, 8), [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0),
    ...                                                         (1, 1), (1, 2), (1, 3)])
    >>> row["region"], row["tiling_subsets"], row["unique_sets"], subsets
    ('####/####', 1, [], [{'region': '####/####', 'cells': 8, 'pieces': 'I2 I3 L3', 'count': 4}])
    """
    from .analyze import analyze
    from .polyominoes import count_holes, symmetry_order

    shape = tuple(sorted(cells))
    result = analyze(spec.piece_set.pieces, Region(shape), spec.k)
    key = region_text(shape)
    unique = sorted(" ".join(s.pieces) for s in result.subsets if s.count == 1)
    row = {
        "region": key, "cells": len(shape), "rows": 1 + max(r for r, _ in shape),
        "cols": 1 + max(c for _, c in shape),
        "symmetry": symmetry_order(shape) if symmetry is None else symmetry,
        "holes": count_holes(shape) if holes is None else holes,
        "matching_subsets": result.matching_area, "tiling_subsets": len(result.subsets),
        "unique_subsets": len(unique), "solutions": result.total_solutions, "unique_sets": unique,
    }
    return row, [{"region": key, "cells": len(shape), "pieces": " ".join(s.pieces), "count": s.count}
                 for s in result.subsets]


def run_census(pieces: str | os.PathLike | PieceSet, k: int, cells: int | Iterable[int], *,
               out_dir: str | os.PathLike, box: tuple[int, int] | None = None, holes: bool = False,
               count_only: bool = False, per_subset: bool = False, executor: Executor | None = None,
               shards: int | None = None, progress: bool = True,
               on_shard: Callable[[int, int, int], None] | None = None) -> CensusOutcome:
    """Enumerate every region of ``cells`` cells and analyse it for ``k`` pieces of a set; write a dataset.

    Parameters
    ----------
    pieces : str, path or PieceSet
        A shipped set name (``classic``, ``duel``, ...), a piece-set file,
        or a parsed set.
    k : int
        Pieces per subset (K).
    cells : int or iterable of int
        Region size N (cells), or several sizes (e.g. ``range(10, 14)``).
    out_dir : path
        Census directory (created; see the module docstring for its files).
        An existing census there with the same parameters is resumed.
    box : (int, int), optional
        Only regions that fit an R x C box, in either orientation (regions
        count up to symmetry).
    holes : bool
        Include regions with holes (default: hole-free only).
    count_only : bool
        Only enumerate: write per shard the number of regions of each shape
        class (``counts/``) instead of analysed rows.
    per_subset : bool
        Also write ``subsets/``, one row per (region, tiling subset).
    executor : Executor, optional
        Where the shards run (default: in this process; see
        :mod:`ubongo_cp.executors`: a process pool or a Dask cluster); it is
        left open. The dataset does not depend on it.
    shards : int, optional
        Shards per size (default: from the expected number of regions,
        :data:`ROWS_PER_SHARD` each). A resumed census keeps its own.
    progress : bool
        Show a tqdm bar of finished shards on standard error.
    on_shard : callable, optional
        ``on_shard(n, index, rows)``, called after each shard's files are
        written; an exception from it stops the run (the shard is kept).

    Returns
    -------
    CensusOutcome

    Raises
    ------
    InputError
        For an unknown piece set, K below 1 or above the set's size, a size
        N that no K pieces can cover (below the K smallest pieces' area or
        above the K largest pieces') or that exceeds the box, a box side
        below 1, or a directory holding a census of other parameters (or
        other files where the census's would go).
    UbongoError
        When some shards failed (their error is named; the others are
        saved and the same call resumes).

    See Also
    --------
    read_census, census_regions, census_summary

    Notes
    -----
    Cost: one :func:`~ubongo_cp.analyze.analyze` call per region (about
    2 ms of CPU for classic K = 3 on 12 cells, 3-4 ms for Duel K = 4 on 22;
    ``benchmarks/bench_census.py``) plus about 8 search-tree leaves per
    region for the enumeration. Memory: one shard's rows per worker.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     outcome = run_census("classic", 3, 8, out_dir=tmp, progress=False)
    ...     best = census_summary(tmp)["best"]
    >>> outcome.regions, best["matching_subsets"], best["unique_subsets"]  # A000104: 363; only I2 I3 L3 cover 8
    (363, 1, 1)
    """
    start = time.perf_counter()
    spec = make_spec(pieces, k, cells, box=box, holes=holes, count_only=count_only, per_subset=per_subset)
    if shards is not None and not 1 <= shards <= MAX_SHARDS:
        raise InputError(f"shards must be between 1 and {MAX_SHARDS}, got {shards}")
    out = Path(out_dir)
    manifest = _open_census(out, spec, shards)
    plan = {int(n): (p["shards"], p["depth"]) for n, p in manifest["plan"].items()}
    tables = spec.tables()
    todo, resumed = [], 0
    for n in spec.cells:
        count, depth = plan[n]
        for i in range(count):
            if (out / tables[-1] / _shard_name(n, i, count)).exists():
                resumed += 1
            else:
                todo.append((spec, n, i, count, depth))
    ran = 0
    failed: list[tuple[int, int, str]] = []
    usage = {"cpu_seconds": 0.0, "worker_peak_rss_mb": None}

    def on_error(item: tuple, exc: BaseException) -> dict:
        return {"error": f"{type(exc).__name__}: {exc}", "n": item[1], "index": item[2]}

    bar = None
    if progress and todo:
        from tqdm import tqdm

        bar = tqdm(total=len(todo), unit="shard", desc=f"census {spec.pieces} K={spec.k}", dynamic_ncols=True)
    try:
        with using(executor) as ex:  # executors start lazily: nothing starts when every shard is finished
            ex.warm(WORKER_MODULES)
            for result in _map_shards(ex, todo, on_error):
                if "error" in result:
                    failed.append((result["n"], result["index"], result["error"]))
                    continue
                rows = _write_shard(out, spec, result)
                ran += 1
                usage["cpu_seconds"] += result["cpu_seconds"]
                if result["peak_rss_kb"] is not None:
                    usage["worker_peak_rss_mb"] = max(usage["worker_peak_rss_mb"] or 0.0, result["peak_rss_kb"] / 1024)
                if bar is not None:
                    bar.update(1)
                if on_shard is not None:
                    on_shard(result["n"], result["index"], rows)
    finally:
        if bar is not None:
            bar.close()
    if failed:
        n, i, error = failed[0]
        raise UbongoError(f"{len(failed)} of {len(todo)} shard(s) failed (first: size {n} shard {i}: {error}); "
                          f"the other shards are saved in {out}: run the census again to retry")
    return CensusOutcome(out, manifest, sum(c for c, _ in plan.values()), ran, resumed,
                         _count_regions(out, spec), time.perf_counter() - start, usage)


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
    else:
        label = os.fspath(pieces)
        if label not in SHIPPED_PIECE_SETS and not os.path.exists(label):
            raise InputError(f"unknown piece set {label!r}: neither a shipped set "
                             f"({', '.join(SHIPPED_PIECE_SETS)}) nor a file")
        piece_set = load_pieces(label)
    name = label if label in SHIPPED_PIECE_SETS else os.path.basename(label)
    if not isinstance(k, int) or k < 1:
        raise InputError(f"K must be at least 1, got {k}")
    if k > len(piece_set):
        raise InputError(f"K = {k} is more than the {len(piece_set)} pieces of {name}")
    sizes = tuple(sorted([cells] if isinstance(cells, int) else set(cells)))
    if not sizes:
        raise InputError("no region size given")
    if box is not None:
        if len(box) != 2 or min(box) < 1:
            raise InputError(f"a box needs two sides of at least 1 cell, got {box}")
        box = (min(box), max(box))
    areas = sorted(p.size for p in piece_set.pieces)
    low, high = sum(areas[:k]), sum(areas[-k:])
    for n in sizes:
        if n < low:
            raise InputError(f"a region of {n} cells is smaller than the {k} smallest pieces of {name} "
                             f"({low} cells)")
        if n > high:
            raise InputError(f"a region of {n} cells is larger than the {k} largest pieces of {name} "
                             f"({high} cells)")
        if box is not None and n > box[0] * box[1]:
            raise InputError(f"a region of {n} cells does not fit a {box[0]}x{box[1]} box "
                             f"({box[0] * box[1]} cells)")
    return CensusSpec(piece_set, label, k, sizes, box, bool(holes), bool(count_only), bool(per_subset))


def read_manifest(out_dir: str | os.PathLike) -> dict:
    """The manifest of a census directory.

    Raises
    ------
    InputError
        When the directory holds no census manifest, or an unreadable one.
    """
    from .io import read_json_object

    path = Path(out_dir) / MANIFEST
    if not path.exists():
        raise InputError(f"not a census directory (no {MANIFEST})", path=out_dir)
    manifest = read_json_object(path, what="a census manifest")
    if manifest.get("format") != FORMAT:
        raise InputError(f"not a census manifest of this version (format {manifest.get('format')!r}, "
                         f"expected {FORMAT!r})", path=path)
    return manifest


def read_census(out_dir: str | os.PathLike, table: str = "regions", *, columns: Sequence[str] | None = None,
                filters=None):
    """One table of a census as a pandas DataFrame, sorted by its key.

    Parameters
    ----------
    out_dir : path
        Census directory.
    table : {"regions", "subsets", "counts"}
        Which table (see the module docstring).
    columns : list of str, optional
        Columns to read (the sort key is always read).
    filters : pyarrow expression, optional
        Row filter, e.g. ``pyarrow.dataset.field("unique_subsets") >= 6``.

    Returns
    -------
    pandas.DataFrame
        Rows sorted by :data:`TABLES` ``[table]`` (the same whatever executor,
        job count or interruptions produced them); the finished shards only,
        if the census is not complete. Integer columns keep their Parquet
        widths (int8 ... int64), ``region`` and ``pieces`` are str,
        ``unique_sets`` a list of str.

    Raises
    ------
    InputError
        For a directory without a census, or a table this census did not write.
    """
    import pyarrow.dataset as ds

    manifest = read_manifest(out_dir)
    spec_tables = ("counts",) if manifest["count_only"] else (
        ("regions", "subsets") if manifest["per_subset"] else ("regions",))
    if table not in spec_tables:
        kind = "a count-only census" if manifest["count_only"] else "this census"
        raise InputError(f"{kind} has no {table!r} table (it has {', '.join(spec_tables)})", path=out_dir)
    schema = _schemas()[table]
    key = TABLES[table]
    wanted = None if columns is None else list(dict.fromkeys([*key, *columns]))
    files = sorted(str(p) for p in (Path(out_dir) / table).glob("n*.parquet"))
    data = ds.dataset(files, schema=schema, format="parquet").to_table(columns=wanted, filter=filters)
    frame = data.to_pandas()
    if "unique_sets" in frame:  # pyarrow gives numpy arrays; lists compare and print plainly
        frame["unique_sets"] = frame["unique_sets"].map(list)
    return frame.sort_values(key, kind="stable").reset_index(drop=True)


def census_regions(out_dir: str | os.PathLike, min_unique: int = CARD_UNIQUE, *,
                   cells: int | Iterable[int] | None = None, limit: int | None = None) -> list[Region]:
    """Candidate card regions from a census, best first.

    Parameters
    ----------
    out_dir : path
        Census directory (analysed, not count-only).
    min_unique : int
        Least number of uniquely tiling K-subsets (default :data:`CARD_UNIQUE`).
    cells : int or iterable of int, optional
        Only these region sizes.
    limit : int, optional
        At most this many regions.

    Returns
    -------
    list of Region
        Sorted by uniquely tiling subsets (most first), then size, then the
        region key: the same list on every call.

    Raises
    ------
    InputError
        For a directory without an analysed census.
    """
    import pyarrow.dataset as ds

    expr = ds.field("unique_subsets") >= int(min_unique)
    if cells is not None:
        sizes = [cells] if isinstance(cells, int) else list(cells)
        expr = expr & ds.field("cells").isin(sizes)
    frame = read_census(out_dir, "regions", columns=["unique_subsets"], filters=expr)
    frame = frame.sort_values(["unique_subsets", "cells", "region"], ascending=[False, True, True], kind="stable")
    keys = frame["region"].tolist()[:limit] if limit is not None else frame["region"].tolist()
    return [region_from_text(key) for key in keys]


def census_summary(out_dir: str | os.PathLike, card: int = CARD_UNIQUE) -> dict[str, Any]:
    """Headline figures of a census: regions, good regions, the best region.

    Returns
    -------
    dict
        ``regions``; for an analysed census also ``with_unique`` (regions
        with at least one uniquely tiling subset), ``cards`` (at least
        ``card`` of them) and ``best`` (the row of the region with the most,
        ties broken as in :func:`census_regions`, or None).

    Raises
    ------
    InputError
        For a directory without a census.
    """
    manifest = read_manifest(out_dir)
    if manifest["count_only"]:
        counts = read_census(out_dir, "counts")
        return {"regions": int(counts["regions"].sum()), "count_only": True}
    frame = read_census(out_dir, "regions", columns=["rows", "cols", "matching_subsets", "tiling_subsets",
                                                     "unique_subsets", "solutions"])
    best = None
    if len(frame):
        top = frame.sort_values(["unique_subsets", "cells", "region"], ascending=[False, True, True],
                                kind="stable").iloc[0]
        best = {key: (value.item() if hasattr(value, "item") else value) for key, value in top.items()}
    return {"regions": len(frame), "with_unique": int((frame["unique_subsets"] >= 1).sum()),
            "cards": int((frame["unique_subsets"] >= card).sum()), "card": card, "best": best,
            "count_only": False}


def plan_census(spec: CensusSpec, shards: int | None = None) -> dict[str, dict[str, int]]:
    """The shard plan of a census: shards and sharding depth per size.

    Parameters
    ----------
    spec : CensusSpec
        The census (:func:`make_spec`).
    shards : int, optional
        Shards per size; by default from Knuth's estimate of the search tree
        (:func:`~ubongo_cp.polyominoes.estimate_count`, seeded: the same
        plan every time): :data:`ROWS_PER_SHARD` regions per shard, at least
        up to :data:`MIN_SHARDS` shards of :data:`MIN_ROWS` regions, at most
        :data:`MAX_SHARDS`; a count-only census aims at
        :data:`LEAVES_PER_COUNT_SHARD` search-tree leaves per shard.

    Returns
    -------
    dict
        ``{str(N): {"shards": S, "depth": d}}``, as in the manifest.

    Raises
    ------
    InputError
        For a census that cannot be held (shards beyond
        :data:`MAX_ROWS_PER_SHARD` regions even at :data:`MAX_SHARDS`).

    Examples
    --------
    >>> plan_census(make_spec("classic", 3, [8, 12]))
    {'8': {'shards': 4, 'depth': 4}, '12': {'shards': 32, 'depth': 6}}
    """
    plan = {}
    for n in spec.cells:
        if shards is None:
            leaves = estimate_count(n, holes=None, box=spec.box, probes=PLAN_PROBES)
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
        else:
            count = shards
        plan[str(n)] = {"shards": count, "depth": shard_depth(n, count, box=spec.box)}
    return plan


# --------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------

def _shard_name(n: int, index: int, count: int) -> str:
    return f"n{n:02d}-{index:05d}-of-{count:05d}.parquet"


_SHARD_FILE = re.compile(r"n(\d+)-(\d+)-of-(\d+)\.parquet")


def _open_census(out: Path, spec: CensusSpec, shards: int | None) -> dict:
    """Create or check the census directory; return its manifest.

    A manifest with other parameters, or files where the census's would go
    that belong to no shard of the plan, is refused. Temporary files left
    by a killed run are removed.
    """
    from .io import atomic_write_text

    if out.exists() and not out.is_dir():
        raise InputError("is a file, expected a directory for the census", path=out)
    params = spec.parameters()
    if (out / MANIFEST).exists():
        manifest = read_manifest(out)
        for key, value in params.items():
            if key == "pieces":
                continue  # the same shapes under another name (a path to the same file) are the same census
            if manifest.get(key) != value:
                raise InputError(f"holds a census of other parameters ({key}: {_show(manifest.get(key))}, "
                                 f"asked {_show(value)}); choose another directory", path=out)
        if shards is not None and any(p["shards"] != shards for p in manifest["plan"].values()):
            raise InputError(f"holds this census with other shard counts than {shards}; resume it without one",
                             path=out)
    else:
        stray = [t for t in TABLES if (out / t).exists()]
        if stray:
            raise InputError(f"has a {stray[0]}/ directory but no {MANIFEST}; choose another directory", path=out)
        manifest = {"format": FORMAT, **params, "plan": plan_census(spec, shards), "version": __version__}
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create the census directory: {exc.strerror or exc}", path=out) from None
        atomic_write_text(out / MANIFEST, json.dumps(manifest, indent=1) + "\n")
    expected = {_shard_name(int(n), i, p["shards"]) for n, p in manifest["plan"].items() for i in range(p["shards"])}
    for table in spec.tables():
        folder = out / table
        folder.mkdir(exist_ok=True)
        for path in folder.iterdir():
            if path.name.startswith(".") and _SHARD_FILE.match(path.name[1:]):
                path.unlink()  # a temporary file of a shard a killed run was writing
            elif path.name not in expected:
                raise InputError(f"{table}/{path.name} belongs to no shard of this census; "
                                 "choose another directory", path=out)
    return manifest


def _show(value) -> str:
    return json.dumps(value) if not isinstance(value, str) else value


def _map_shards(ex, todo: list, on_error) -> Iterator[dict]:
    """Run the shards on the executor, yielding results as they finish.

    A process pool keeps ``2 x jobs`` shards in flight, so results arrive
    one by one. Dask batches the items of one call (about four per worker),
    so shards go in waves of :data:`DASK_WAVE` per worker: a killed run
    loses at most a wave's unfinished shards, not a quarter of the census.
    """
    from .executors import DaskExecutor

    if not todo:
        return
    if not isinstance(ex, DaskExecutor):
        yield from ex.map_unordered(census_shard, todo, on_error=on_error)
        return
    a = 0
    while a < len(todo):
        workers = ex.jobs  # a cluster reached by address: the workers it has now
        wave = todo[a:a + DASK_WAVE * workers]
        yield from ex.map_unordered(census_shard, wave, on_error=on_error)
        a += len(wave)


def _write_shard(out: Path, spec: CensusSpec, result: dict) -> int:
    """Write a finished shard's tables atomically (the marking table last); return its row count."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from .io import atomic_path

    schemas = _schemas()
    name = _shard_name(result["n"], result["index"], result["count"])
    rows = 0
    for table in spec.tables():
        data = pa.table(result[table], schema=schemas[table])
        with atomic_path(out / table / name) as tmp:
            pq.write_table(data, tmp, compression="zstd")
        rows = data.num_rows if table != "counts" else int(sum(result[table]["regions"]))
    return rows


def _count_regions(out: Path, spec: CensusSpec) -> int:
    """Regions in the finished shards (Parquet footers only; count tables are summed)."""
    import pyarrow.parquet as pq

    if spec.count_only:
        return sum(int(sum(pq.read_table(p, columns=["regions"]).column(0).to_pylist()))
                   for p in (out / "counts").glob("n*.parquet"))
    return sum(pq.read_metadata(p).num_rows for p in (out / "regions").glob("n*.parquet"))


def _with_usage(out: dict, start: float) -> dict:
    """Add the shard's CPU seconds and the worker's peak RSS (KiB; None where unknown) to a result."""
    out["cpu_seconds"] = time.process_time() - start
    try:
        import resource

        out["peak_rss_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    except (ImportError, OSError):  # pragma: no cover - not POSIX
        out["peak_rss_kb"] = None
    return out
