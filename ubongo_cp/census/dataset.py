"""The census directory: manifest, one Parquet file per shard, and the readers."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Iterable, Sequence

from .. import __version__
from ..errors import InputError
from ..io import check_regular_file, is_temporary_of
from ..pieces import Region

from .spec import (
    CARD_UNIQUE,
    FORMAT,
    MANIFEST,
    MAX_SHARDS,
    TABLES,
    CensusSpec,
    _schemas,
    plan_census,
    region_from_text,
)

__all__ = ["read_manifest", "read_census", "census_regions", "census_summary"]


def _shard_name(n: int, index: int, count: int) -> str:
    return f"n{n:02d}-{index:05d}-of-{count:05d}.parquet"


_SHARD_FILE = re.compile(r"n(\d+)-(\d+)-of-(\d+)\.parquet")


def _open_census(out: Path, spec: CensusSpec, shards: int | None, max_cpu_seconds: float | None = None) -> dict:
    """Create or check the census directory; return its manifest.

    A manifest with other parameters, or files where the census's would go
    that belong to no shard of the plan, is refused. Temporary files left
    by a killed run are removed.
    """
    from ..io import atomic_write_text

    if out.exists() and not out.is_dir():
        raise InputError("is a file, expected a directory for the census", path=out)
    params = spec.parameters()
    if (out / MANIFEST).exists():
        manifest = read_manifest(out)
        for key, value in params.items():
            if key == "pieces":
                continue  # the same shapes under another name (a path to the same file) are the same census
            if manifest.get(key) != value:
                change = _piece_change(manifest[key], value) if key == "piece_shapes" else None
                raise InputError(f"holds a census of other parameters ("
                                 f"{change or f'{key}: {_show(manifest.get(key))}, asked {_show(value)}'}); "
                                 "choose another directory", path=out)
        if shards is not None and any(p["shards"] != shards for p in manifest["plan"].values()):
            raise InputError(f"holds this census with other shard counts than {shards}; resume it without one",
                             path=out)
    else:
        stray = [t for t in TABLES if (out / t).exists()]
        if stray:
            kind = "directory" if (out / stray[0]).is_dir() else "file"
            raise InputError(f"has a {kind} named {stray[0]} but no {MANIFEST}; choose another directory", path=out)
        plan = plan_census(spec, shards, max_cpu_seconds=max_cpu_seconds)  # refused before anything is written
        manifest = {"format": FORMAT, **params, "plan": plan, "version": __version__}
        try:
            out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create the census directory: {exc.strerror or exc}", path=out) from None
        atomic_write_text(out / MANIFEST, json.dumps(manifest, indent=1) + "\n")
    expected = {_shard_name(int(n), i, p["shards"]) for n, p in manifest["plan"].items() for i in range(p["shards"])}
    for table in spec.tables():
        folder = out / table
        if folder.is_symlink():
            raise InputError(f"{table} is a link to another folder; the census writes its shards in a folder of its "
                             "own: choose another directory", path=out)
        if folder.exists() and not folder.is_dir():   # mkdir would say only "File exists"
            raise InputError(f"{table} is a file where the census keeps its {table} folder; choose another directory",
                             path=out)
        folder.mkdir(exist_ok=True)
        for path in folder.iterdir():
            if path.name.startswith(".") and any(is_temporary_of(path.name, shard) for shard in expected) \
                    and path.is_file() and not path.is_symlink():
                path.unlink()  # a temporary file of a shard a killed run was writing
            elif path.name not in expected:
                raise InputError(f"{table}/{path.name} belongs to no shard of this census; "
                                 "choose another directory", path=out)
    return manifest


def _piece_change(held: list, asked: list) -> str:
    """How the pieces of a census on record differ from those asked (the first piece that differs, by name and
    shape as the manifest writes them), where a manifest's whole list, cut for a message, would show the same
    start twice: ``"piece 3: L3 #./##, asked L3 ##/##"``, ``"12 pieces, asked 11"``."""
    if len(held) != len(asked):
        return f"{len(held)} pieces, asked {len(asked)}"
    def show(piece) -> str:   # [name, shape]; anything else in a damaged manifest as it is written
        return " ".join(piece) if isinstance(piece, list) and all(isinstance(p, str) for p in piece) \
            else _show(piece)

    index, was, now = next((i, a, b) for i, (a, b) in enumerate(zip(held, asked), 1) if a != b)
    return f"piece {index}: {show(was)}, asked {show(now)}"


def _show(value) -> str:
    """A manifest's value, or the one asked, for a message: as the manifest writes it, cut (``as_written``)."""
    from ..errors import as_written

    return value if isinstance(value, str) else as_written(value)


def _write_shard(out: Path, spec: CensusSpec, result: dict) -> int:
    """Write a finished shard's tables atomically (the marking table last); return its row count."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ..io import atomic_path

    schemas = _schemas()
    name = _shard_name(result["n"], result["index"], result["count"])
    identity = {_SHARD_KEY: json.dumps([result["n"], result["index"], result["count"]]),
                _CENSUS_KEY: census_digest(spec)}
    rows = 0
    for table in spec.tables():
        data = pa.table(result[table], schema=schemas[table])
        data = data.replace_schema_metadata({**(data.schema.metadata or {}), **identity})
        with atomic_path(out / table / name) as tmp:
            pq.write_table(data, tmp, compression="zstd")
        rows = data.num_rows if table != "counts" else int(sum(result[table]["regions"]))
    return rows


def _count_regions(out: Path, spec: CensusSpec) -> int:
    """Regions in the finished shards (Parquet footers only; count tables are summed)."""
    import pyarrow.parquet as pq

    try:
        if spec.count_only:
            return sum(int(sum(pq.read_table(p, columns=["regions"]).column(0).to_pylist()))
                       for p in (out / "counts").glob("n*.parquet"))
        return sum(pq.read_metadata(p).num_rows for p in (out / "regions").glob("n*.parquet"))
    except Exception as exc:  # pyarrow's errors for a damaged file
        raise InputError(f"a damaged shard: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}; "
                         "run the census again to compute it again", path=out) from None


#: The manifest's keys and the types of their values (a damaged manifest is named, not half read).
_MANIFEST_KEYS: dict[str, type | tuple[type, ...]] = {
    "pieces": str, "piece_shapes": list, "k": int, "cells": list, "box": (list, type(None)),
                  "holes": bool, "count_only": bool, "per_subset": bool, "plan": dict}


def read_manifest(out_dir: str | os.PathLike) -> dict:
    """The manifest of a census directory.

    Raises
    ------
    InputError
        When the directory holds no census manifest, or an unreadable or
        damaged one (a key missing or of the wrong type, a shard plan that
        is not ``{"N": {"shards": S, "depth": d}}``), naming the key.
    """
    from ..io import read_json_object

    path = Path(out_dir) / MANIFEST
    if not path.exists():
        raise InputError(f"not a census directory (no {MANIFEST})", path=out_dir)
    manifest = read_json_object(path, what="a census manifest")
    if manifest.get("format") != FORMAT:
        raise InputError(f"not a census manifest of this version (format {manifest.get('format')!r}, "
                         f"expected {FORMAT!r})", path=path)
    for key, kind in _MANIFEST_KEYS.items():
        if key not in manifest:
            raise InputError(f"damaged census manifest: no {key!r}", path=path)
        value = manifest[key]
        if not isinstance(value, kind) or isinstance(value, bool) and kind is int:
            raise InputError(f"damaged census manifest: {key!r} is a {type(value).__name__}", path=path)
    for n, entry in manifest["plan"].items():
        if not (n.isdigit() and isinstance(entry, dict) and all(
                isinstance(entry.get(k), int) and not isinstance(entry.get(k), bool) for k in ("shards", "depth"))
                and 1 <= entry["shards"] <= MAX_SHARDS and 0 <= entry["depth"] <= int(n)):
            raise InputError(f"damaged census manifest: plan entry {n!r} is not "
                             '{"shards": S, "depth": d} within bounds', path=path)
    return manifest


#: The key of a shard file's Parquet metadata naming the shard it holds: ``[n, index, count]``.
_SHARD_KEY = b"ubongo-cp.census.shard"
#: The key of a shard file's Parquet metadata naming the census it belongs to (:func:`census_digest`).
_CENSUS_KEY = b"ubongo-cp.census.of"


def census_digest(spec: CensusSpec) -> str:
    """A hash of what a census's rows depend on: its parameters but the name its pieces were given (the same
    shapes under another path are the same census, as a resumed manifest compares them)."""
    import hashlib

    params = {k: v for k, v in spec.parameters().items() if k != "pieces"}
    return hashlib.sha256(json.dumps(params, sort_keys=True).encode()).hexdigest()[:32]


def shard_is_readable(path: Path, table: str, shard: tuple[int, int, int] | None = None,
                      census: str | None = None) -> bool:
    """Whether a shard file is a whole Parquet file of ``table``'s columns (read through: a few MB) and, given
    ``shard`` (``(n, index, count)``), holds that shard: a shard copied under another's name is not one
    (a file written before shards named themselves is taken on its name); given ``census``
    (:func:`census_digest`), a shard of that census: one copied from a census of other parameters with the
    same plan (another K, other pieces) is not (a file written before shards named their census is taken
    on its name)."""
    import pyarrow.parquet as pq

    if not path.is_file():  # a FIFO or a device would block the reader or never end
        return False
    try:
        schema = pq.read_table(path).schema
    except Exception:  # pyarrow raises several kinds (ArrowInvalid, OSError) for a damaged file
        return False
    if schema.names != _schemas()[table].names:
        return False
    metadata = schema.metadata or {}
    named, of = metadata.get(_SHARD_KEY), metadata.get(_CENSUS_KEY)
    return ((shard is None or named is None or named == json.dumps(list(shard)).encode())
            and (census is None or of is None or of == census.encode()))


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
        ``unique_sets`` a list of str. An incomplete census (shards of its
        plan missing) is read so too, and said in an
        :class:`~ubongo_cp.errors.InputWarning` naming how many shards of
        which sizes are missing.

    Raises
    ------
    InputError
        For a directory without a census, or a table this census did not write.
    """
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

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
    _warn_if_incomplete(out_dir, manifest, table)
    damaged = ("a damaged shard (not a whole Parquet file of this table); run the census again to compute it "
               "again")
    for f in files:
        check_regular_file(f, "a shard file")
        try:
            names = pq.read_schema(f).names
        except Exception:  # pyarrow's errors for a damaged file: the dataset's read below names it
            continue
        if names != schema.names:   # a column dropped or renamed: the dataset would read it as nulls
            raise InputError(damaged, path=f)
    try:
        data = ds.dataset(files, schema=schema, format="parquet").to_table(columns=wanted, filter=filters)
    except Exception:  # pyarrow's errors for a damaged file (ArrowInvalid, OSError): name the file
        bad = next((f for f in files if not shard_is_readable(Path(f), table)), out_dir)
        raise InputError(damaged, path=bad) from None
    frame = data.to_pandas()
    if "unique_sets" in frame:  # pyarrow gives numpy arrays; lists compare and print plainly
        frame["unique_sets"] = frame["unique_sets"].map(list)
    return frame.sort_values(key, kind="stable").reset_index(drop=True)


def _warn_if_incomplete(out_dir: str | os.PathLike, manifest: dict, table: str) -> None:
    """Say, in one :class:`~ubongo_cp.errors.InputWarning`, which shards of the manifest's plan ``table`` lacks
    (a census stopped before its end, a shard file lost): the rows read are those of the finished shards."""
    import warnings

    from ..errors import InputWarning

    folder = Path(out_dir) / table
    missing: dict[int, tuple[int, int]] = {}
    for n, entry in sorted(manifest["plan"].items(), key=lambda item: int(item[0])):
        count = entry["shards"]
        lost = sum(1 for i in range(count) if not (folder / _shard_name(int(n), i, count)).exists())
        if lost:
            missing[int(n)] = (lost, count)
    if not missing:
        return
    total = sum(entry["shards"] for entry in manifest["plan"].values())
    detail = ", ".join(f"{n} cells: {lost} of {count}" for n, (lost, count) in missing.items())
    warnings.warn(InputWarning(f"incomplete census: {sum(lost for lost, _ in missing.values())} of {total} shards "
                               f"missing ({detail}); read without them: run `ubongo-cp census` again with the "
                               "same options to complete it", path=out_dir), stacklevel=3)


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
    grid = read_manifest(out_dir).get("grid", "square")
    return [region_from_text(key, grid) for key in keys]


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
