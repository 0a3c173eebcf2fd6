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
rows, cols         int8       bounding box of the canonical form's picture (on squares rows <= cols)
symmetry           int8       order of the region's stabiliser in its grid's symmetry group (squares:
                              1, 2, 4 or 8; hexagons and triangles: of 12; cubes: of 48)
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

The package has four modules: :mod:`.spec` (the parameters, the shard plan,
region keys), :mod:`.shard` (what a worker runs), :mod:`.dataset` (the
directory, its manifest and readers) and :mod:`.run` (the resumable run).
"""

from __future__ import annotations

from .dataset import census_regions, census_summary, read_census, read_manifest
from .run import CensusOutcome, run_census
from .shard import census_row, census_shard
from .spec import (CARD_UNIQUE, MANIFEST, ROWS_PER_SHARD, TABLES, CensusSpec, make_spec, plan_census,
                   region_from_text, region_text)

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
