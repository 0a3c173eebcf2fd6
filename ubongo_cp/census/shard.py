"""One shard of a census: its regions enumerated and analysed (what a worker runs)."""

from __future__ import annotations

import time
from typing import Any

from ..pieces import Region
from ..polyforms import census_polyforms, count_census_classes

from .spec import CensusSpec, _schemas, region_text

__all__ = ["census_shard", "census_row"]


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
    shard = (index, count, depth)
    grid = spec.piece_set.grid
    out: dict[str, Any] = {"n": n, "index": index, "count": count}
    if spec.count_only:  # on squares the compiled counter: same tree, same shards, no region leaves it
        tally = count_census_classes(grid, n, holes=spec.holes, box=spec.box, shard=shard)
        keys = list(tally)
        out["counts"] = {"cells": [n] * len(keys), "rows": [k[0] for k in keys], "cols": [k[1] for k in keys],
                         "symmetry": [k[2] for k in keys], "holes": [k[3] for k in keys],
                         "regions": [tally[k] for k in keys]}
        return _with_usage(out, start)
    rows: dict[str, list] = {name: [] for name in _schemas()["regions"].names}
    subsets: dict[str, list] = {name: [] for name in _schemas()["subsets"].names}
    for shape, order, holes in census_polyforms(grid, n, holes=spec.holes, box=spec.box, shard=shard):
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
    cells : iterable of cells
        The region on the pieces' grid, in canonical form (:meth:`ubongo_cp.grids.Grid.canonical`)
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
    >>> from ubongo_cp.census import make_spec
    >>> row, subsets = census_row(make_spec("classic", 3, 8), [(0, 0), (0, 1), (0, 2), (0, 3), (1, 0),
    ...                                                         (1, 1), (1, 2), (1, 3)])
    >>> row["region"], row["tiling_subsets"], row["unique_sets"], subsets
    ('####/####', 1, [], [{'region': '####/####', 'cells': 8, 'pieces': 'I2 I3 L3', 'count': 4}])
    """
    from ..analyze import analyze
    from ..polyforms import holes_of

    grid = spec.piece_set.grid
    shape = tuple(sorted(map(tuple, cells)))
    result = analyze(spec.piece_set.pieces, Region(shape, grid=grid), spec.k)
    key = region_text(shape, grid)
    listed = result.rows   # (pieces, count) pairs
    unique = sorted(" ".join(pieces) for pieces, n in listed if n == 1)
    rows, cols = grid.text_size(shape)[-2:]
    row = {
        "region": key, "cells": len(shape), "rows": rows, "cols": cols,
        "symmetry": len(grid.symmetry_group(shape)) if symmetry is None else symmetry,
        "holes": holes_of(grid, shape) if holes is None else holes,
        "matching_subsets": result.matching_area, "tiling_subsets": len(listed),
        "unique_subsets": len(unique), "solutions": result.total_solutions, "unique_sets": unique,
    }
    return row, [{"region": key, "cells": len(shape), "pieces": " ".join(pieces), "count": n} for pieces, n in listed]


def _with_usage(out: dict, start: float) -> dict:
    """Add the shard's CPU seconds and the worker's peak RSS (KiB; None where unknown) to a result."""
    out["cpu_seconds"] = time.process_time() - start
    try:
        import resource

        out["peak_rss_kb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    except (ImportError, OSError):  # pragma: no cover - not POSIX
        out["peak_rss_kb"] = None
    return out
