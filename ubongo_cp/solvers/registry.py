"""The one registry of solvers: every backend and strategy by name, with what it reports and supports.

A *solver* is a named way to answer "find one solution", "count all
solutions" or "enumerate them" for an
:class:`~ubongo_cp.cover.ExactCoverInstance`: a backend class (the module
that talks to one search engine) with its options, optionally run on the
orbit decomposition (:mod:`.orbits`). Every command and library function
that takes a backend name (``solve``, ``analyze``, ``batch``, the rating,
the benchmarks) looks it up here, so every name works everywhere and an
unknown name gets one message, from :func:`get_solver`. Backend modules are
imported only when a solver is made (:meth:`SolverSpec.make`): reading the
registry imports neither OR-Tools nor numba.

====================  =======================================================
name                  configuration
====================  =======================================================
cpsat                 CP-SAT, the plain model of :mod:`.cpsat` (1 worker)
cpsat-nopresolve      the same with CP-SAT presolve off
cpsat-2workers        2 search workers for a first-solution search
                      (enumeration always runs 1 worker so that every
                      solution is seen once)
cpsat-mrv             fixed search: branch on the placements of the most
                      constrained items first (``add_decision_strategy``)
cpsat-symmetry        CP-SAT on the orbit decomposition
cpsat-split           one sub-problem per placement of the most constrained
                      piece, solved by 2 concurrent threads (:mod:`.split`)
cpsat-split-proc      the same split on a pool of 2 processes
cpsat-symmetry-split  the orbit decomposition, split into one sub-problem per
                      representative placement (2 threads, presolve off)
bitboard              our bitboard backtrack (:mod:`ubongo_cp.solvers.bitboard`): placements as
                      masks of up to 256 cells, the first empty cell, the
                      dead-region test; counts in C
bitboard-mrv          the same on the cell with the fewest fitting placements,
                      no dead-region test: the rating's search-node measure
bitboard-symmetry     ``bitboard`` on the whole orbit decomposition
                      (:func:`.orbits.symmetry_plan`), Burnside sum in C; or,
                      where one piece type has copies, the memo's count and
                      each symmetry's fixed points (:mod:`.fixed`)
dlx                   our Algorithm X with dancing cells (:mod:`.dlx` over the
                      kernel :mod:`.dancing`), with search-node counts
xcover                the ``xcover`` package (dancing cells), the DLX baseline
                      (no multiplicities: copies expanded and ordered)
dlx-symmetry          ``dlx`` on the orbit decomposition
xcover-symmetry       ``xcover`` on the orbit decomposition
sat                   CaDiCaL on a plain CNF encoding (:mod:`.cnf`)
zdd                   the decision diagram of all solutions (DXZ, :mod:`.zdd`):
                      counts without listing, uniform samples, completions
                      of fixed placements, placement frequencies
zdd-symmetry          ``zdd``, counting on the orbit decomposition (samples,
                      completions and frequencies use the whole diagram)
auto                  the diagram or the kernel (``dlx-symmetry``), by the
                      measured rule of :class:`.zdd.AutoBackend`; the default
                      for samples, completions and placement frequencies
====================  =======================================================

References
----------
.. [1] L. Perron (OR-Tools), google/or-tools issues #1186 and #1208: CP-SAT
   enumerates all solutions with one worker only; #1213: decompose the
   problem logically yourself. Hence the split strategies.
"""

from __future__ import annotations

import importlib

from ..errors import InputError
from ..structs import NamedTuple

__all__ = ["SolverSpec", "SOLVERS", "get_solver", "solver_names", "choose", "DEFAULT_STRATEGY", "FALLBACK",
           "DEFAULT_KEEP", "DIAGRAM_GATE", "MEMO_BUDGET"]

#: The solver recommended for each question, from the measured benchmarks
#: (``docs/strategies.md``, ``docs/performance.md``): first solution, count all, subset analysis; and
#: the rating's solver (:mod:`ubongo_cp.rate`: its search nodes measure difficulty); and for
#: the questions only a decision diagram answers (uniform samples, completions of fixed
#: placements, placement frequencies), ``"diagram"``. Where the bitboard kernel cannot take an
#: instance (more than 256 cells, optional cells, bounds or colours of an exact-cover matrix, or
#: the kernel not built) the dancing-cells solver of :data:`FALLBACK` answers instead (:func:`choose`).
DEFAULT_STRATEGY = {"first": "bitboard", "count": "bitboard-symmetry", "analyze": "bitboard", "rate": "bitboard-mrv",
                    "diagram": "auto"}

#: Knuth's estimate of a count's search nodes (:meth:`~ubongo_cp.solvers.bitboard.BitboardBackend.estimate`)
#: from which the default count of identical pieces (a piece type with copies) asks the ``auto`` rule
#: whether the decision diagram pays: the dominoes of 8x8 (an estimated 92 million nodes) count in 0.23 s
#: on the diagram against 1.15 s in the kernel, those of 10x10 in milliseconds against some hours, 20 P
#: pentominoes in 10x10 (10 million) in 0.09 s against 0.63 s; below it (two tetromino sets in 8x5, 80
#: thousand; 20 L in 10x10, 1.3 million) the kernel counts before the diagram's engine (numpy) is loaded.
DIAGRAM_GATE = 5_000_000

#: Nodes within which the default count of identical pieces that reaches :data:`DIAGRAM_GATE` tries the bitboard
#: kernel's memo first, where it takes the instance (one piece type with copies: the count up to symmetry from
#: the fixed points, :mod:`.fixed`); a tree still growing there goes to the ``auto`` rule, the time spent lost.
#: The memo's tree is far smaller than the estimate of the plain one: 20 P pentominoes in 10x10, 384,187 nodes;
#: 32 dominoes in 8x8, 160,026 (with their fixed points); the 50 dominoes of 10x10 keep growing (their
#: subtrees' counts pass what an entry holds).
MEMO_BUDGET = 2_000_000

#: Solutions :func:`ubongo_cp.solvers.solve` keeps by default (and the command line shows): a
#: count of millions must not hold millions of solutions; ``keep=None`` keeps every one.
DEFAULT_KEEP = 20

#: The dancing-cells solver that stands in for a bitboard one on an instance the bitboard kernel
#: cannot take (:func:`ubongo_cp.solvers.bitboard.unfit_reason`).
FALLBACK = {"bitboard": "dlx", "bitboard-mrv": "dlx", "bitboard-symmetry": "dlx-symmetry"}


class SolverSpec(NamedTuple):
    """One registered solver: how to make it, and what it reports and supports.

    Attributes
    ----------
    name : str
        Registry key (e.g. ``"cpsat-mrv"``).
    family : str
        ``"cpsat"``, ``"dlx"``, ``"bitboard"``, ``"sat"`` or ``"zdd"`` (a
        decision diagram, possibly handing over to a DLX kernel): the search engine.
    summary : str
        One line: what the configuration does.
    backend : str
        ``"module:Class"`` of the backend class inside :mod:`ubongo_cp.solvers`
        (the :class:`~ubongo_cp.solvers.base.Backend` protocol).
    options : tuple of (str, object)
        Keyword arguments of the backend class.
    orbits : bool
        Run on the orbit decomposition by the region's symmetries
        (:mod:`.orbits`; falls back to the plain search where it does not
        apply, e.g. with optional pieces or a solution limit above 1).
    reports_nodes : bool
        ``stats["nodes"]`` is the size of the solver's search tree on the
        instance itself (for the rating's solver, :data:`DEFAULT_STRATEGY`
        ``["rate"]``, the rating's measure, :mod:`ubongo_cp.rate`). False on
        the orbit decomposition, whose nodes are those of restricted searches.
    reports_branches : bool
        ``stats["branches"]``/``["conflicts"]`` are CP-SAT's counters of one
        search of the instance itself (not of sub-problems or a restriction).
    stops_mid_search : bool
        A time limit can stop the search between two solutions (else it is
        checked only when a solution is found). Every registered solver can
        (``xcover`` by running its search in a child process that is killed).
    secondary_items : bool
        Enumerates covers with secondary items (optional pieces, each used at
        most once): what the subset analysis (:mod:`ubongo_cp.analyze`) needs.
    cardinality : bool
        Can constrain the number of pieces used in the model itself
        (``cardinality=`` of the backend); for the others the driver drops
        covers of other sizes.
    multiplicities : bool
        Takes a piece type with ``k`` identical copies as one item with
        multiplicity ``k`` (Algorithm M; a sum constraint in CP-SAT; a
        cardinality encoding in CNF), so each solution is met once. False:
        the backend expands the type into ``k`` items, one per copy, ordered
        by secondary items (``xcover``, which has no multiplicities: a larger
        matrix); it is then never the default for a task with copies.
    diagram : bool
        Builds the decision diagram of all solutions (:mod:`.zdd`): counts
        without listing, and the only solvers that take uniform samples,
        fixed placements (completions) and placement frequencies.
    colours : bool
        Takes colours on secondary items (Knuth's DLX2, Algorithm C).
    ranges : bool
        Takes any bounds ``[u..v]`` on an item of an exact-cover matrix (Knuth's DLX3);
        False: only ``[k..k]`` and ``[0..k]``.
    bounds : bool
        Takes bounds other than ``[1..1]`` on the items of an exact-cover
        matrix (Knuth's DLX3); False: an item of a matrix is covered once
        (the bitboard kernel, whose counters are the piece types of a
        polyomino instance only).
    """

    name: str
    family: str
    summary: str
    backend: str
    options: tuple = ()
    orbits: bool = False
    reports_nodes: bool = False
    reports_branches: bool = False
    stops_mid_search: bool = True
    secondary_items: bool = True
    cardinality: bool = False
    multiplicities: bool = True
    diagram: bool = False
    colours: bool = True
    ranges: bool = True
    bounds: bool = True

    @property
    def module(self) -> str:
        """Full name of the backend's module (what a worker process imports to run it)."""
        return f"{__package__}.{self.backend.split(':')[0]}"

    def make(self, **extra):
        """A new backend object (its module imported now), with ``extra`` keyword arguments."""
        cls = getattr(importlib.import_module(self.module), self.backend.split(":")[1])
        return cls(**dict(self.options), **extra)


_CPSAT = "cpsat:CpSatBackend"
_SPLIT = "split:CpSatSplitBackend"
_DLX = "dlx:DancingBackend"
_BITS = "bitboard:BitboardBackend"
_XCOVER = "xcover:XcoverBackend"
_ZDD = "zdd:DiagramBackend"

#: Every solver by name (one line per solver).
SOLVERS: dict[str, SolverSpec] = {s.name: s for s in [
    SolverSpec("cpsat", "cpsat", "CP-SAT plain model, 1 worker, presolve on", _CPSAT,
               reports_branches=True, cardinality=True),
    SolverSpec("cpsat-nopresolve", "cpsat", "CP-SAT with presolve off", _CPSAT, (("presolve", False),),
               reports_branches=True, cardinality=True),
    SolverSpec("cpsat-2workers", "cpsat", "CP-SAT with 2 workers for a first solution (1 when enumerating)",
               _CPSAT, (("workers", 2),), reports_branches=True, cardinality=True),
    SolverSpec("cpsat-mrv", "cpsat", "CP-SAT fixed search on the most constrained items' placements first",
               _CPSAT, (("mrv", True),), reports_branches=True, cardinality=True),
    SolverSpec("cpsat-symmetry", "cpsat", "CP-SAT on the orbit decomposition (one piece at orbit "
               "representatives)", _CPSAT, orbits=True, cardinality=True),
    SolverSpec("cpsat-split", "cpsat", "CP-SAT, one sub-problem per placement of the most constrained piece, "
               "2 threads", _SPLIT, cardinality=True),
    SolverSpec("cpsat-split-proc", "cpsat", "cpsat-split on a pool of 2 processes", _SPLIT,
               (("executor", "process"),), cardinality=True),
    SolverSpec("cpsat-symmetry-split", "cpsat", "orbit decomposition, then one CP-SAT sub-problem per "
               "representative placement, 2 threads, presolve off", _SPLIT, (("presolve", False),),
               orbits=True, cardinality=True),
    SolverSpec("bitboard", "bitboard", "our bitboard backtrack (up to 256 cells), first empty cell, counts in C",
               _BITS, reports_nodes=True, cardinality=True, colours=False, ranges=False, bounds=False),
    SolverSpec("bitboard-mrv", "bitboard", "the bitboard backtrack on the most constrained cell: the rating's "
               "node measure", _BITS, (("name", "bitboard-mrv"), ("rule", "mrv"), ("prune", False)),
               reports_nodes=True, cardinality=True, colours=False, ranges=False, bounds=False),
    SolverSpec("bitboard-symmetry", "bitboard", "bitboard on the whole orbit decomposition, Burnside sum in C",
               _BITS, (("name", "bitboard-symmetry"),), orbits=True, cardinality=True, colours=False, ranges=False,
               bounds=False),
    SolverSpec("dlx", "dlx", "our Algorithm X with dancing cells, search-node counts", _DLX, reports_nodes=True),
    SolverSpec("xcover", "dlx", "the xcover package (dancing cells), DLX baseline; copies expanded", _XCOVER,
               multiplicities=False),
    SolverSpec("dlx-symmetry", "dlx", "dlx on the orbit decomposition", _DLX, orbits=True),
    SolverSpec("xcover-symmetry", "dlx", "the xcover package on the orbit decomposition", _XCOVER, orbits=True,
               multiplicities=False),
    SolverSpec("sat", "sat", "CaDiCaL on a plain CNF encoding, blocking clauses", "cnf:CnfBackend"),
    SolverSpec("zdd", "zdd", "the decision diagram of all solutions (DXZ): counts, samples, completions, "
               "frequencies", _ZDD, diagram=True),
    SolverSpec("zdd-symmetry", "zdd", "zdd counting on the orbit decomposition", _ZDD, orbits=True, diagram=True),
    SolverSpec("auto", "zdd", "the diagram or the search kernel (bitboard-symmetry, counting in C, where the "
               "bitboard kernel takes the instance; else dlx-symmetry), by the measured rule (the default for "
               "samples, completions, frequencies and large counts of identical pieces)",
               "zdd:AutoBackend", orbits=True, diagram=True),
]}


def solver_names(family: str | None = None) -> list[str]:
    """Registered names in registry order, optionally only those of one family.

    Examples
    --------
    >>> solver_names("dlx")
    ['dlx', 'xcover', 'dlx-symmetry', 'xcover-symmetry']
    """
    return [n for n, s in SOLVERS.items() if family is None or s.family == family]


def choose(question: str, instance=None) -> str:
    """The default solver for ``question`` (a key of :data:`DEFAULT_STRATEGY`) on ``instance``.

    The bitboard solvers where the bitboard kernel takes the instance (or no instance is given),
    else their dancing-cells stand-in (:data:`FALLBACK`).

    Examples
    --------
    >>> choose("count")
    'bitboard-symmetry'
    """
    name = DEFAULT_STRATEGY[question]
    if name in FALLBACK:
        from .bitboard import KERNEL_BUILT, unfit_reason

        if not KERNEL_BUILT or (instance is not None and unfit_reason(instance) is not None):
            return FALLBACK[name]
    return name


def get_solver(name: str) -> SolverSpec:
    """The solver registered as ``name``.

    Raises
    ------
    InputError
        For an unknown name; the message lists every registered name (the
        one message every command gives for an unknown backend).

    Examples
    --------
    >>> get_solver("dlx").reports_nodes
    True
    >>> get_solver("nope")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: unknown backend 'nope'; choose one of cpsat, cpsat-nopresolve, ..., zdd-symmetry, auto
    """
    try:
        return SOLVERS[name]
    except (KeyError, TypeError):
        raise InputError(f"unknown backend {name!r}; choose one of {', '.join(SOLVERS)}") from None
