"""Running a census over an executor, resumable shard by shard."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ..errors import MAX_JOB_CPU_SECONDS, InputError, UbongoError
from ..reading import refuse_empty_path
from ..executors import Executor, using
from ..outputs import OutputFolder
from ..pieces import PieceSet

from .dataset import (
    _count_regions, _open_census, _shard_name, _write_shard, census_digest, read_manifest, shard_is_readable,
)
from .shard import census_shard
from .spec import MANIFEST, MAX_SHARDS, TABLES, make_spec

__all__ = ["WORKER_MODULES", "DASK_WAVE", "CensusOutcome", "run_census"]


#: Modules a worker imports to run a shard (imported before workers are forked).
WORKER_MODULES = ("ubongo_cp.census.shard", "ubongo_cp.analyze", "ubongo_cp.solvers.dancing")


#: Dask: shards sent per worker in one wave (two per Dask task), so that
#: finished shards come back, and are saved, a few at a time.
DASK_WAVE = 8


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
        a worker process reported (None when no shard ran); ``redone``: the
        shard files found damaged and computed again.
    """

    out_dir: Path
    manifest: dict
    shards: int
    ran: int
    resumed: int
    regions: int
    seconds: float
    extra: dict = field(default_factory=dict)


def run_census(pieces: str | os.PathLike | PieceSet, k: int, cells: int | Iterable[int], *,
               out_dir: str | os.PathLike, box: tuple[int, int] | None = None, holes: bool = False,
               count_only: bool = False, per_subset: bool = False, executor: Executor | None = None,
               shards: int | None = None, progress: bool = True,
               on_shard: Callable[[int, int, int], None] | None = None,
               max_cpu_seconds: float | None = MAX_JOB_CPU_SECONDS) -> CensusOutcome:
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
        Only regions that fit an R x C box, in some orientation (regions
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
    max_cpu_seconds : float or None
        A new census estimated to need more CPU time than this is refused
        before anything is written (:func:`~ubongo_cp.census.spec.plan_census`;
        default 24 hours); ``None``: no bound. A census being resumed was
        accepted when it started.

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
        other files where the census's would go), or one another run is
        writing into (see :class:`~ubongo_cp.outputs.OutputFolder`).
    UbongoError
        When some shards failed (their error is named; the others are
        saved and the same call resumes).
    JobTooLargeError
        For a new census estimated to need more than ``max_cpu_seconds``.

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
    >>> from ubongo_cp.census import census_summary
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
    refuse_empty_path(out_dir, "the output folder")   # not the folder Python runs in
    out = Path(out_dir)
    with OutputFolder(out, "census", adopt=_census_files) as folder:  # locked: one run at a time
        folder.claim([MANIFEST, *spec.tables()])
        manifest = _open_census(out, spec, shards, max_cpu_seconds)
        return _run(spec, out, manifest, executor, progress, on_shard, start)


def _census_files(out: Path) -> list[str]:
    """The files of a census folder copied without its record (it has a census manifest): the census goes on."""
    if not (out / MANIFEST).is_file():
        return []
    try:
        read_manifest(out)
    except InputError:  # not a census's: nothing there is taken over (the run is refused, naming the file)
        return []
    return [name for name in (MANIFEST, *TABLES) if (out / name).exists()]


def _run(spec, out: Path, manifest: dict, executor: Executor | None, progress: bool,
         on_shard: Callable[[int, int, int], None] | None, start: float) -> CensusOutcome:
    """:func:`run_census` once its folder is open (and locked)."""
    plan = {int(n): (p["shards"], p["depth"]) for n, p in manifest["plan"].items()}
    tables = spec.tables()
    todo, resumed, redone = [], 0, []
    digest = census_digest(spec)
    for n in spec.cells:
        count, depth = plan[n]
        for i in range(count):
            name = _shard_name(n, i, count)
            if (out / tables[-1] / name).exists():
                if all(shard_is_readable(out / t / name, t, (n, i, count), digest) for t in tables):
                    resumed += 1
                    continue
                redone.append(name)  # damaged (a disk error, a copy cut short, another shard's or census's file): computed again
            todo.append((spec, n, i, count, depth))
    ran = 0
    failed: list[tuple[int, int, str]] = []
    usage: dict = {"cpu_seconds": 0.0, "worker_peak_rss_mb": None}

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
    usage["redone"] = redone
    return CensusOutcome(out, manifest, sum(c for c, _ in plan.values()), ran, resumed,
                         _count_regions(out, spec), time.perf_counter() - start, usage)


def _map_shards(ex, todo: list, on_error) -> Iterator[dict]:
    """Run the shards on the executor, yielding results as they finish.

    A process pool keeps ``2 x jobs`` shards in flight, so results arrive
    one by one. Dask batches the items of one call (about four per worker),
    so shards go in waves of :data:`DASK_WAVE` per worker: a killed run
    loses at most a wave's unfinished shards, not a quarter of the census.
    """
    from ..executors import DaskExecutor

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
