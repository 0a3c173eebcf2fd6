"""The ``zdd`` backend: a decision diagram of every exact cover, for counts, samples and frequencies.

DXZ [1]_ runs Algorithm X [2]_ with a *memo*: the solutions below a search
state depend only on the items still uncovered (and, for a piece type with
copies, how many copies are left), so each state is solved once and every
later visit reuses its answer. The answers are nodes of a zero-suppressed
decision diagram [3]_: the family of all exact covers, held in a graph far
smaller than the list of covers (the 258,584,046,368 domino tilings of the
10x10 square are 13,552 nodes). From the diagram, without listing solutions:

- the exact count, in arbitrary precision (:meth:`~ubongo_cp.solvers.diagram.Diagram.count`);
- the count up to the region's symmetries (:func:`count_up_to_symmetry`):
  Burnside's lemma [4]_, ``(1/|G|) x sum over g in G of fix(g)``, where
  ``fix(g)``, the solutions that ``g`` maps onto themselves, is counted by a
  second, small diagram: a solution fixed by ``g`` is a union of whole
  cycles of ``g`` on the placements, so its options are those cycles (the
  cycles whose placements do not overlap), each covering its cells and
  using as many copies of each piece type as it holds placements of it;
- uniform random solutions (:meth:`~ubongo_cp.solvers.diagram.Diagram.sample`): one uniform random
  integer below the count, unranked down the diagram, so every solution is
  equally likely and a seed reproduces the draw;
- completions of a partial board (``fixed`` options of :func:`build_diagram`):
  the items the fixed placements cover are taken out before the search;
- the number of solutions holding each placement (:meth:`~ubongo_cp.solvers.diagram.Diagram.frequencies`):
  a placement in every solution is forced, one in none impossible.

The diagram (:class:`~ubongo_cp.solvers.diagram.Diagram`): a search
state's node chains the options of its branching item: each link's ``hi``
is the state after that option, its ``lo`` the link of the options before.
Two paths to node 1 take different options for some item, so their
solutions differ and counts add. Nodes equal as triples are shared (a
unique table).

The search (C extension ``_zdd``, or the pure-Python builder
``_zdd_python`` where the extension is not built;
:data:`~ubongo_cp.solvers.diagram.KERNEL`) branches only on
items of multiplicity ``[1..1]`` (the region's cells; a piece type with one
copy), the one with the fewest options left first. A piece type with ``k``
copies is one counter ``[k..k]`` (``[0..k]`` with optional pieces; ``[u..v]``
for a range of copies or the cells left empty), lowered by each placement
of the type, so a solution, a set of placements, is met once whatever the
copies; a state with no ``[1..1]`` item left is a solution when every
counter has been used at least its lower bound (as Knuth's DLX6 extends
DXZ to multiplicities: the memo key holds the multiplicities left). Colours
(Algorithm C, Knuth's DLX2): a secondary item with coloured entries holds a
field in the state, 0 while free, its colour once an option colours it, all
ones once an uncoloured option takes it; an option fits when it agrees, and
its child state writes the field. The diagram needs at least one ``[1..1]``
item in every option (true of every
:class:`~ubongo_cp.cover.ExactCoverInstance`).

Memory
------
The memo and the nodes grow with the number of distinct states, which may
be far beyond a machine's memory. The build is bounded (``memory_limit``,
bytes; default :func:`default_memory_limit`: half of the memory available
when it starts) and stops with :class:`DiagramTooLarge` when the bound would
be crossed; the ``auto`` strategy then counts with the search kernel. The
figures are in the result's stats (``diagram_nodes``, ``diagram_peak_mb``:
the builder's own peak, and ``peak_rss_mb``: the process's).

References
----------
.. [1] M. Nishino, N. Yasuda, S. Minato and M. Nagata, "Dancing with
   Decision Diagrams: A Combined Approach to Exact Cover", *AAAI-17*
   (2017), pp. 868-874: DXZ, Algorithm X with a memo that builds a ZDD.
.. [2] D. E. Knuth, *The Art of Computer Programming*, Vol. 4B, 7.2.2.1,
   Algorithms X and M; "Dancing Links", arXiv:cs/0011047 (2000).
.. [3] S. Minato, "Zero-suppressed BDDs for set manipulation in
   combinatorial problems", *DAC '93* (1993); D. E. Knuth, *TAOCP*
   Vol. 4A, 7.1.4 (ZDDs: counting and uniform random solutions).
.. [4] W. Burnside, *Theory of Groups of Finite Order* (1897): orbit counting.
"""

from __future__ import annotations

import os
import resource
import sys
import time
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from ..errors import InputError, UbongoError
from .diagram import KERNEL, Diagram, item_bounds

__all__ = ["DiagramTooLarge", "build_diagram", "count_up_to_symmetry", "fixed_point_counts", "subset_counts",
           "default_memory_limit", "DiagramBackend", "AutoBackend", "TRIAL_STEPS", "TRIAL_SAVING"]


#: The ``auto`` strategy's trial (:class:`AutoBackend`): search steps of the
#: diagram builder before the rule looks at the memo's saving.
TRIAL_STEPS = 2048

#: The ``auto`` strategy keeps the diagram when, after :data:`TRIAL_STEPS`
#: steps, the memo has saved at least this factor: (steps Algorithm X would
#: have taken) / (steps taken). Measured first against the DLX kernel, then
#: against the kernel that counts when the diagram does not,
#: ``bitboard-symmetry`` in C (in-process CPU, numpy loaded; the saving
#: after 2,048 steps, then each road's count), on counts the trial does not
#: finish: 1.1-1.7 where the kernel wins or ties (the twelve pentominoes in
#: 6x10 80x faster in the kernel, 20 Y in 10x10 3.7x, 20 L in 10x10 even);
#: 2.4 on two tetromino sets in 8x5, where the kernel is 4.6x faster (5 ms
#: against 23 ms); 2.4 to 10.6 where the diagram wins (16 P in 8x10 1.7x,
#: 24 L pentominoes in 10x12 4.3x, 20 P in 10x10 9-15x, 24 P in 10x12 36x);
#: but 8.2 on 20 P in 5x20, where the kernel is 2.2x faster (11 ms against
#: 21 ms). The saving also depends on the order of a piece's orientations
#: in its file: 20 P in 10x10 measure 2.38 with the classic set's P and 5.68
#: with the pentominoes' P. No threshold parts these cases; the stakes do:
#: where the diagram wins it saves seconds, where the kernel wins
#: milliseconds, and the default count asks the rule only above
#: :data:`~ubongo_cp.solvers.registry.DIAGRAM_GATE`, so the threshold stays
#: low.
TRIAL_SAVING = 2.25

_ST_DONE, _ST_TIME, _ST_MEMORY, _ST_BUDGET = 0, 1, 2, 4


class DiagramTooLarge(UbongoError):
    """The diagram would outgrow the memory limit.

    Attributes
    ----------
    limit : int
        The bound, in bytes.
    stats : dict
        The builder's figures when it stopped.
    """

    def __init__(self, limit: int, stats: dict) -> None:
        self.limit = limit
        self.stats = stats
        super().__init__(f"the decision diagram reached the memory limit ({limit / 2**20:.0f} MiB) after "
                         f"{stats.get('diagram_states', 0):,} states")


def default_memory_limit() -> int:
    """Half of the memory available now (``MemAvailable`` of ``/proc/meminfo``), in bytes.

    Where that is not readable, half of the physical memory (``os.sysconf``);
    where neither is known, 4 GiB.
    """
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024 // 2
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (ValueError, OSError, AttributeError):
        return 4 * 2**30


def peak_rss_mb() -> float:
    """The process's peak resident set so far, in MiB.

    ``VmHWM`` of ``/proc/self/status`` where there is one (Linux: the high-water
    mark of this program's own memory), else ``getrusage``'s ``ru_maxrss``
    (which on Linux may include the parent's memory at the fork).
    """
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError, IndexError):
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (2**20 if sys.platform == "darwin" else 2**10), 1)


# --------------------------------------------------------------------- building
def build_diagram(instance, *, fixed: Sequence[int] = (), time_limit: float | None = None,
                  memory_limit: int | None = None, restrict=None, csr=None, classes: bool = False) -> Diagram | None:
    """The decision diagram of every exact cover of ``instance`` (DXZ).

    Parameters
    ----------
    instance : ExactCoverInstance or ExactCoverMatrix
        The instance.
    fixed : sequence of int
        Option ids that every cover must hold (a partial board): the
        diagram is that of their completions. They must not overlap
        (:meth:`~ubongo_cp.cover.ExactCoverInstance.fix` checks placements).
    time_limit : float, optional
        Seconds; None when the build does not finish in time.
    memory_limit : int, optional
        Bytes (default :func:`default_memory_limit`).
    restrict : Decomposition, optional
        Build on the orbit decomposition's restricted instance
        (:mod:`.orbits`), weighting each representative by its orbit's size:
        :meth:`~ubongo_cp.solvers.diagram.Diagram.count` is then the count of the whole instance.
    csr : tuple, optional
        ``(indptr, indices, weights, lo, hi)`` of a derived instance to build
        instead (:func:`fixed_point_counts`); the diagram's variables are its options.
    classes : bool
        One terminal per distinct solution state (the optional items left):
        :meth:`~ubongo_cp.solvers.diagram.Diagram.by_optional_items` counts the covers by the items they use.

    Returns
    -------
    Diagram or None
        None when the time limit cut the build.

    Raises
    ------
    DiagramTooLarge
        When the diagram would outgrow ``memory_limit``.
    InputError
        For fixed options that overlap, or an instance the diagram cannot
        take (an option without a ``[1..1]`` item; colours with fixed options).
    """
    start = time.perf_counter()
    builder = _builder(instance, fixed=fixed, restrict=restrict, csr=csr, classes=classes)
    if builder is None:  # the fixed options take an item beyond its bound: no completion
        return _empty(instance, fixed, start)
    limit = default_memory_limit() if memory_limit is None else int(memory_limit)
    status = _run(builder, time_limit, limit, 0)
    if status == _ST_TIME:
        return None
    return _finish(instance, builder, status, limit, fixed, restrict, start, classes)


def _builder(instance, *, fixed=(), restrict=None, csr=None, classes: bool = False):
    """A builder (C or Python) of the instance, or None when the fixed options conflict."""
    colours = getattr(instance, "colours", None)
    if colours is not None and (fixed or restrict is not None or csr is not None):
        raise InputError("the decision diagram takes colours (Knuth's DLX2) on a whole instance only, "
                         "not with fixed options or a restriction")
    if csr is not None:
        indptr, indices, weights, lo, hi = csr
    else:
        target = instance if restrict is None else restrict.restricted
        indptr, indices = target.indptr, target.indices
        weights = np.ones(len(indices), dtype=np.uint32)
        lo, hi = item_bounds(target)
        for o in fixed:
            items = instance.option_items(int(o))
            hi[items] -= 1
            lo[items] = np.maximum(lo[items] - 1, 0)
        if (hi < 0).any():
            return None
    args = (np.ascontiguousarray(indptr, dtype=np.uint32), np.ascontiguousarray(indices, dtype=np.uint32),
            np.ascontiguousarray(weights, dtype=np.uint32), np.ascontiguousarray(lo, dtype=np.int32),
            np.ascontiguousarray(hi, dtype=np.int32))
    if KERNEL == "c":
        from ._zdd import Builder
    else:
        from ._zdd_python import Builder
    tints = np.ascontiguousarray(colours if colours is not None else np.zeros(0), dtype=np.uint32)
    builder = Builder(*args, classes, tints)
    if builder.bad >= 0:
        from .base import option_place

        # the options of the instance itself, or of what it was cut to (a restriction, an instance of its own)
        what, path, line = option_place(instance if restrict is None and csr is None else None, builder.bad)
        raise InputError(f"{what} covers no item of bounds [1..1]; the decision diagram branches on those",
                         path=path, line=line)
    return builder


def _run(builder, time_limit: float | None, limit: int, budget: int) -> int:
    return int(builder.build(-1.0 if time_limit is None else max(float(time_limit), 0.0), limit, True, budget))


def _finish(instance, builder, status: int, limit: int, fixed, restrict, start: float,
            classes: bool = False) -> Diagram:
    """The Diagram of a finished build (DiagramTooLarge when it stopped on memory)."""
    stats = {"diagram_nodes": int(builder.n_nodes), "diagram_states": int(builder.states),
             "diagram_steps": int(builder.steps), "diagram_hits": int(builder.hits),
             "diagram_peak_mb": round(builder.peak_bytes / 2**20, 2)}
    if status == _ST_MEMORY:
        raise DiagramTooLarge(limit, stats)
    n = int(builder.n_nodes)
    var, lo, hi = (np.empty(n, dtype=np.uint32) for _ in range(3))
    builder.nodes(var, lo, hi)
    stats["build_seconds"] = round(time.perf_counter() - start, 6)
    option_ids = weight = None
    if restrict is not None:
        option_ids = restrict._original
        weight = restrict.plan.weight[option_ids].astype(np.uint64)
        weight[weight == 0] = 1
    keys = builder.leaf_keys() if classes else None
    return Diagram(instance, var, lo, hi, int(builder.root), tuple(sorted(int(o) for o in fixed)), option_ids,
                   weight, stats, keys)


def _empty(instance, fixed, start: float) -> Diagram:
    z = np.zeros(2, dtype=np.uint32)
    return Diagram(instance, np.full(2, 2**32 - 1, dtype=np.uint32), z.copy(), z.copy(), 0,
                   tuple(sorted(int(o) for o in fixed)),
                   stats={"diagram_nodes": 2, "diagram_states": 0, "diagram_steps": 0, "diagram_hits": 0,
                          "diagram_peak_mb": 0.0, "build_seconds": round(time.perf_counter() - start, 6)})


# --------------------------------------------------------------------- symmetry
def _cycle_csr(instance, perm: np.ndarray):
    """The instance whose options are the cycles of ``perm`` on the options (see the module docstring)."""
    n_options, n_cells = instance.n_options, instance.n_cells
    seen = np.zeros(n_options, dtype=bool)
    indptr, indices, weights = [0], [], []
    for o in range(n_options):
        if seen[o]:
            continue
        cycle = []
        p = o
        while not seen[p]:
            seen[p] = True
            cycle.append(p)
            p = int(perm[p])
        if p != o:  # perm is a permutation: a cycle closes where it started
            raise ValueError("option_perms entry is not a permutation")
        uses: dict[int, int] = {}
        for q in cycle:
            for i in instance.option_items(q).tolist():
                uses[i] = uses.get(i, 0) + 1
        if any(k > 1 for i, k in uses.items() if i < n_cells):
            continue  # two of its placements overlap: never part of a cover
        items = sorted(uses)
        indices += items
        weights += [uses[i] for i in items]
        indptr.append(len(indices))
    lo, hi = item_bounds(instance)
    return (np.asarray(indptr, dtype=np.uint32), np.asarray(indices, dtype=np.uint32),
            np.asarray(weights, dtype=np.uint32), lo, hi)


def fixed_point_counts(instance, *, time_limit: float | None = None,
                       memory_limit: int | None = None) -> list[int] | None:
    """For each non-identity symmetry of the instance, the covers it maps onto themselves.

    In the order of :attr:`~ubongo_cp.cover.ExactCoverInstance.option_perms`;
    each is the count of the diagram of the instance whose options are the
    symmetry's cycles on the placements (the module docstring). None when
    the time limit cut a build.
    """
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    out = []
    for perm in instance.option_perms:
        left = None if deadline is None else deadline - time.perf_counter()
        if left is not None and left <= 0:
            return None
        diagram = build_diagram(instance, csr=_cycle_csr(instance, np.asarray(perm)), time_limit=left,
                                memory_limit=memory_limit)
        if diagram is None:
            return None
        out.append(diagram.count())
    return out


def count_up_to_symmetry(instance, count: int, *, time_limit: float | None = None,
                         memory_limit: int | None = None) -> int | None:
    """The covers up to the region's symmetries (UP-5), exact, by Burnside's lemma.

    Parameters
    ----------
    instance : ExactCoverInstance
        The instance (its :attr:`~ubongo_cp.cover.ExactCoverInstance.option_perms`).
    count : int
        Its number of covers (the identity's fixed points).

    Returns
    -------
    int or None
        ``(count + sum of fixed_point_counts) / |G|``; None when the time limit cut it.

    Examples
    --------
    >>> from ubongo_cp.pieces import load_pieces, Region
    >>> from ubongo_cp.cover import build_instance
    >>> inst = build_instance(load_pieces("pentominoes").pieces, Region.rectangle(3, 20))
    >>> count_up_to_symmetry(inst, build_diagram(inst).count())
    2
    """
    perms = getattr(instance, "option_perms", ())
    if not len(perms):
        return count
    fixed = fixed_point_counts(instance, time_limit=time_limit, memory_limit=memory_limit)
    if fixed is None:
        return None
    total = count + sum(fixed)
    order = len(perms) + 1
    if total % order:
        raise ArithmeticError(f"Burnside sum {total} is not a multiple of the group order {order}")
    return total // order


def subset_counts(instance, *, time_limit: float | None = None,
                  memory_limit: int | None = None) -> dict | None:
    """The covers grouped by the optional items they use, counted on one diagram (the subset analysis).

    Built with one terminal per distinct solution state (the optional items
    left), so the paths from the root to each terminal count the covers
    that use exactly those items (:meth:`~ubongo_cp.solvers.diagram.Diagram.by_optional_items`);
    nothing is listed.

    Parameters
    ----------
    instance : ExactCoverInstance or ExactCoverMatrix
        With optional items (``optional_pieces``: piece types ``[0..1]``).
    time_limit, memory_limit
        As in :func:`build_diagram`.

    Returns
    -------
    dict or None
        ``{optional items used (sorted item ids): covers}``; None when the
        time limit cut the build.

    Raises
    ------
    DiagramTooLarge
        Past the memory limit.

    Examples
    --------
    >>> from ubongo_cp.pieces import Piece, Region
    >>> from ubongo_cp.cover import build_instance
    >>> d, l3 = Piece("D", ((0, 0), (0, 1))), Piece("L", ((0, 0), (1, 0), (1, 1)))
    >>> mono = Piece("M", ((0, 0),))
    >>> inst = build_instance([d, l3, mono], Region.rectangle(2, 2), optional_pieces=True)
    >>> subset_counts(inst)  # items 4, 5, 6: D, L, M; L and M tile 2x2 four ways, D alone cannot
    {(5, 6): 4}
    """
    diagram = build_diagram(instance, time_limit=time_limit, memory_limit=memory_limit, classes=True)
    return None if diagram is None else diagram.by_optional_items()


# ---------------------------------------------------------------------- backends
@dataclass
class DiagramBackend:
    """The ``zdd`` backend: builds the diagram; the driver counts, samples and summarises from it.

    ``run`` (the :class:`~ubongo_cp.solvers.base.Backend` protocol) hands on
    every cover from the diagram, for callers that want each one;
    :func:`~ubongo_cp.solvers.base.drive` asks :meth:`diagram` instead when
    it needs only the count, samples, completions or frequencies.

    Attributes
    ----------
    name : str
        ``"zdd"``.
    memory_limit : int, optional
        Bytes (default :func:`default_memory_limit`).
    """

    name: str = "zdd"
    memory_limit: int | None = None

    def diagram(self, instance, *, time_limit=None, fixed=(), restrict=None, classes=False) -> Diagram | None:
        """The diagram (:func:`build_diagram`); None on time-out; DiagramTooLarge past the memory limit."""
        return build_diagram(instance, fixed=fixed, time_limit=time_limit, memory_limit=self.memory_limit,
                             restrict=restrict, classes=classes)

    def run(self, instance, on_solution, *, time_limit=None, first_only=False):
        """Build the diagram, then hand on its covers; see the class docstring."""
        start = time.perf_counter()
        try:
            diagram = self.diagram(instance, time_limit=time_limit)
        except DiagramTooLarge as exc:
            return False, {**exc.stats, "memory_limited": True, "engine": "zdd"}
        if diagram is None:
            return False, {"timed_out": True, "engine": "zdd"}
        stats = {"engine": "zdd", **diagram.stats}
        deadline = None if time_limit is None else start + float(time_limit)
        for k, options in enumerate(diagram.solutions()):
            if not on_solution(options):
                return False, stats
            if deadline is not None and k % 1024 == 1023 and time.perf_counter() > deadline:
                return False, {**stats, "timed_out": True}
        return True, stats


@dataclass
class AutoBackend(DiagramBackend):
    """The default for counting: the search kernel or the diagram, by a measured rule.

    The rule (:meth:`choose`) builds the diagram for :data:`TRIAL_STEPS`
    search steps and looks at the memo's saving so far, ``(steps + steps
    Algorithm X would have spent below the states found in the memo) /
    steps``. When the build finished, or the saving is at least
    :data:`TRIAL_SAVING`, the diagram goes on; else the kernel counts
    (``kernel``, a registered solver name: the orbit decomposition on
    ``dlx``; :func:`~ubongo_cp.solvers.solve` counts with ``bitboard-symmetry``
    in C instead where the bitboard kernel takes the instance). A diagram that outgrows the memory limit also hands over to
    the kernel. The rule depends on search steps only, never on the clock,
    so the same instance always takes the same road; a faster kernel needs
    only a re-measured :data:`TRIAL_SAVING`. ``stats["engine"]`` names the
    one that ran and ``stats["rule"]`` why.

    Attributes
    ----------
    name : str
        ``"auto"``.
    kernel : str
        The registered solver that counts when the diagram does not.
    trial_steps, saving : int, float
        The rule's figures (:data:`TRIAL_STEPS`, :data:`TRIAL_SAVING`).
    """

    name: str = "auto"
    kernel: str = "dlx-symmetry"
    trial_steps: int = TRIAL_STEPS
    saving: float = TRIAL_SAVING

    def choose(self, instance, *, time_limit=None, restrict=None, classes: bool = False) -> tuple[Diagram | None,
                                                                                                    dict]:
        """Run the trial; ``(diagram, notes)`` when the diagram wins (None when the kernel should count).

        A diagram that finishes during the trial, or that the rule keeps, is
        built to the end here (``None`` for it, with ``timed_out`` in the
        notes, when the time limit cut it). ``classes``: as in :func:`build_diagram`.
        """
        if KERNEL != "c":
            return None, {"rule": "no compiled diagram builder: kernel"}
        start = time.perf_counter()
        try:
            builder = _builder(instance, restrict=restrict, classes=classes)
        except InputError as exc:  # colours, or bounds the diagram does not take: the kernel counts
            return None, {"rule": f"{exc}: kernel"}
        limit = default_memory_limit() if self.memory_limit is None else int(self.memory_limit)
        status = _run(builder, time_limit, limit, self.trial_steps)
        steps = int(builder.steps)
        saving = (steps + int(builder.work)) / max(steps, 1)
        notes: dict[str, object] = {"trial_steps": steps, "trial_saving": round(saving, 2)}
        if status == _ST_BUDGET and saving < self.saving:
            return None, {**notes, "rule": f"memo saving {saving:.2f} < {self.saving} after {steps} steps: kernel"}
        if status == _ST_BUDGET:
            left = None if time_limit is None else time_limit - (time.perf_counter() - start)
            status = _run(builder, left, limit, 0)
            notes["rule"] = f"memo saving {saving:.2f} >= {self.saving} after {steps} steps: diagram"
        else:
            notes["rule"] = f"diagram finished within the trial ({steps} steps)"
        if status == _ST_TIME:
            return None, {**notes, "timed_out": True}
        try:
            return _finish(instance, builder, status, limit, (), restrict, start, classes), notes
        except DiagramTooLarge as exc:
            return None, {**notes, "rule": f"{exc}: kernel"}

    def run(self, instance, on_solution, *, time_limit=None, first_only=False):
        """Enumerate with the kernel (the driver uses this road when it needs every solution)."""
        from .registry import get_solver

        return get_solver(self.kernel).make().run(instance, on_solution, time_limit=time_limit,
                                                  first_only=first_only)

