"""Solvers for exact-cover instances, behind one ``solve`` function and one registry.

Every solver, a plain backend or a strategy built on one, is registered by
name in :mod:`.registry` with what it reports and supports; :func:`solve`
looks it up and runs it through the one driver, :func:`.base.drive`.

Backends (one module each): :mod:`.bitboard` (our bitboard backtrack, the
default up to 256 cells, counting in C), :mod:`.cpsat` (OR-Tools CP-SAT),
:mod:`.split` (CP-SAT on independent sub-problems), :mod:`.dlx` (our
Algorithm X over the search kernel :mod:`.dancing`, with search-node counts,
for any exact cover), :mod:`.xcover` (the ``xcover`` package, an independent
reference), :mod:`.cnf` (CaDiCaL on a CNF encoding) and :mod:`.zdd` (the
decision diagram of all solutions: counts without listing, uniform samples,
completions, placement frequencies); :mod:`.orbits` is the orbit
decomposition any of them can run on. All consume the same
:class:`~ubongo_cp.cover.ExactCoverInstance` and return a
:class:`~ubongo_cp.solvers.base.SolveResult`. Importing this package imports
no search engine (OR-Tools, numba): a backend's module is imported when it
is first used.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from ..errors import InputError, flag_argument, seconds_argument, whole_argument
from .registry import DEFAULT_KEEP, DEFAULT_STRATEGY, FALLBACK, SOLVERS, SolverSpec, choose, get_solver, solver_names

TYPE_CHECKING = False

if TYPE_CHECKING:
    from ..cover import ExactCoverInstance
    from .base import OnSolution, SolveResult

__all__ = ["solve", "check_backend", "SolveResult", "SOLVERS", "SolverSpec", "get_solver", "solver_names", "DEFAULT_STRATEGY",
           "DEFAULT_KEEP", "choose", "warm", "asks_diagram", "checked_instance"]


def warm(names, *, notify=None) -> float:
    """Load the search engines of the named solvers once per process (see :mod:`.warmup`)."""
    from .warmup import warm as _warm

    return _warm(names, notify=notify)


def __getattr__(name: str):
    if name == "SolveResult":  # imported on first use: it pulls in numpy and the instance module
        from .base import SolveResult

        return SolveResult
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names with those :func:`__getattr__` gives out on first use (PEP 562)."""
    return sorted(set(globals()) | set(__all__))


def _has_ranges(instance) -> bool:
    """Whether some item of ``instance`` has bounds ``[u..v]`` with ``0 < u < v`` (Knuth's DLX3 ranges)."""
    bounds = getattr(instance, "multiplicity", None)
    return bounds is not None and any(0 < int(lo) < int(hi) for lo, hi in bounds)


def _unsplit_reason(instance, name: str) -> str:
    """Why the count of ``instance`` on solver ``name`` (one that does not count natively) cannot be split."""
    from .bitboard import unfit_reason

    unfit = unfit_reason(instance)
    if unfit is None or name not in FALLBACK.values():  # the bitboard solvers would take it
        return (f"only the bitboard solvers split a count over workers, and solver {name!r} is none of them: "
                "choose bitboard or bitboard-symmetry for this instance")
    return f"only the bitboard solvers split a count, and they cannot take this instance: {unfit}"


def check_backend(instance, name: str, *, sample: bool = False, fixed: bool = False,
                  frequencies: bool = False) -> SolverSpec:
    """The :class:`SolverSpec` of solver ``name`` once it is known to take ``instance`` and the question asked.

    :func:`solve` calls it first; a command calls it before loading (or
    compiling) the search engine, so that a refusal comes at once.

    Raises
    ------
    InputError
        As :func:`solve` does for a solver that does not take the instance
        (unknown name, optional pieces, colours, ranges, bounds) or the
        question (``sample``, ``fixed``, ``frequencies`` without a decision
        diagram).

    Examples
    --------
    >>> from ubongo_cp.exactcover import parse_exact_cover
    >>> check_backend(parse_exact_cover("a b\\na\\nb\\n"), "xcover").name
    'xcover'
    """
    spec = get_solver(name)
    refusal = _refusal(instance, spec, sample, fixed, frequencies)
    if refusal is not None:
        why, path, line = refusal
        fits = [n for n, s in SOLVERS.items() if n != name and _refusal(instance, s, sample, fixed, frequencies) is None]
        raise InputError(why + (f"; choose one of {', '.join(fits)}" if fits else ""), path=path, line=line)
    return spec


def _refusal(instance, spec: SolverSpec, sample: bool, fixed: bool, frequencies: bool):
    """Why solver ``spec`` cannot take ``instance`` or the question: (message, path, line), or None."""
    name = spec.name
    if instance.optional_pieces and not spec.secondary_items:
        return f"backend {name!r} cannot enumerate covers with optional pieces (secondary items)", None, None
    if (sample or fixed or frequencies) and not spec.diagram:
        asked = "sampling needs" if sample else "fixed placements need" if fixed else \
            "placement frequencies need"
        return f"{asked} a decision diagram, which backend {name!r} does not build", None, None
    if not spec.colours and getattr(instance, "colours", None) is not None:
        return f"backend {name!r} does not take colours (Knuth's DLX2)", None, None
    if not spec.ranges and getattr(instance, "bounds", None) is not None and _has_ranges(instance):
        return (f"backend {name!r} takes bounds [k..k] or [0..k] only, not other ranges (Knuth's DLX3)", None,
                None)
    if not spec.bounds and getattr(instance, "bounds", None) is not None:
        return (f"backend {name!r} covers each item of an exact-cover matrix once: it does not take bounds "
                "(Knuth's DLX3)", None, None)
    if not spec.multiplicities and (getattr(instance, "bounds", None) is not None
                                    or getattr(instance, "has_ranges", False)):
        return (f"backend {name!r} has no multiplicities: it cannot take items covered a number of times "
                "between bounds", None, None)
    if spec.diagram and spec.name != "auto":  # auto counts on the kernel what the diagram cannot take
        from .base import option_place, unbranched_option

        bad = unbranched_option(instance)
        if bad is not None:
            what, path, line = option_place(instance, bad)
            return (f"backend {name!r} takes only options that each cover an item of bounds [1..1] (the "
                    f"decision diagram branches on those), and {what} covers none", path, line)
    if spec.family == "bitboard":
        from .bitboard import unfit_reason

        unfit = unfit_reason(instance)
        if unfit is not None:
            return f"backend {name!r} cannot take this instance: {unfit}", None, None
    if spec.backend == "dlx:DancingBackend":   # the dancing-cells engine: its saved states in memory
        from .dancing import unfit_reason as too_deep

        unfit = too_deep(instance)
        if unfit is not None:
            return f"backend {name!r} cannot take this instance: {unfit}", getattr(instance, "path", None), None
    return None


#: The most solutions :func:`solve` draws at random in one call (each is kept).
MAX_SAMPLE = 1_000_000

#: The largest solution limit :func:`solve` takes: the engines count in 64 bits.
_MAX_LIMIT = 2 ** 63 - 1


def checked_instance(caller: str, instance) -> None:
    """An :class:`InputError` naming ``caller`` and what it needs unless ``instance`` is an exact-cover instance
    (of pieces or a matrix; not an AttributeError from inside)."""
    if not (hasattr(instance, "table") and hasattr(instance, "n_options")):
        raise InputError(f"{caller} needs an exact-cover instance (ubongo_cp.cover.build_instance, "
                         f"ubongo_cp.exactcover.read_exact_cover), got {type(instance).__name__}")


def solve(instance: ExactCoverInstance, *, backend: str | None = None, limit: int | None = None,
          time_limit: float | None = None, keep: int | None = DEFAULT_KEEP, reduce: bool = True,
          on_solution: OnSolution | None = None, pieces_used: int | None = None, sample: int | None = None,
          seed: int | None = None, fixed: Sequence[int] = (), frequencies: bool = False,
          memory_limit: int | None = None, tally: bool = False, split=None) -> SolveResult:
    """Solve (find, count, or enumerate) the exact covers of ``instance``.

    Parameters
    ----------
    instance : ExactCoverInstance
        From :func:`ubongo_cp.cover.build_instance`.
    backend : str, optional
        A registered solver name (:data:`SOLVERS`: e.g. ``"bitboard"``,
        ``"cpsat"``, ``"dlx"``, ``"xcover"``, ``"sat"``, ``"dlx-symmetry"``,
        ``"zdd"``, ``"cpsat-symmetry-split"``). Default: the measured winner
        for the question asked (:data:`DEFAULT_STRATEGY`, :func:`choose`):
        ``"bitboard"`` for a first solution (``limit=1``),
        ``"bitboard-symmetry"`` (the whole orbit decomposition by the
        region's symmetries, :func:`.orbits.symmetry_plan`) for counting,
        with or without identical pieces (one counter per piece type; a
        search that Knuth's estimate finds small, below some 20,000 nodes,
        is made whole, which takes less than planning it); where
        the bitboard kernel cannot take the instance (more than 256 cells,
        optional cells, an exact-cover matrix with bounds or colours) their
        dancing-cells counterparts ``"dlx"`` and ``"dlx-symmetry"`` (a count of
        a piece with copies there: ``"auto"``, whose kernel that is). For
        ``sample``, ``fixed`` or ``frequencies``: ``"auto"``, the decision
        diagram (:mod:`.zdd`) or the kernel by the measured rule of
        :class:`.zdd.AutoBackend` (``stats["engine"]`` says which ran,
        ``stats["rule"]`` why).
    limit : int, optional
        Stop after this many solutions (1 = first solution only; at most
        2**63 - 1).
    time_limit : float, optional
        Seconds; on time-out ``complete`` is False and ``status`` is
        ``Status.UNKNOWN`` if nothing was found. ``math.inf`` (or more
        seconds than a float holds) is no limit.
    keep : int or None
        Keep at most this many solutions as dicts (default :data:`DEFAULT_KEEP`,
        20; the count is exact whatever it is). ``keep=None`` keeps every
        solution found (a count of millions then holds millions of dicts;
        from a decision diagram, which finds them without listing them, the
        first :data:`.base.DIAGRAM_KEEP`); ``keep=0`` none; ``on_solution``
        sees every solution either way.
    reduce : bool
        Also count the solutions up to the region's symmetries (UP-5).
    on_solution : callable, optional
        ``on_solution(option_ids)``, called with every solution (option ids
        of ``instance``); returning ``False`` stops the search, any other
        value (``None`` too: ``seen.append`` is a callback) goes on.
    pieces_used : int, optional
        Only covers using exactly this many pieces (the subset analysis,
        with optional pieces): a constraint of the model where the solver
        supports it (:attr:`SolverSpec.cardinality`), else a filter.
    sample : int, optional
        Keep this many solutions drawn uniformly at random instead of the
        first ones (a decision diagram is built; ``seed`` makes it reproducible;
        at most :data:`MAX_SAMPLE`; no ``limit`` with it).
    seed : int, optional
        Seed of ``sample`` (default: one drawn at random, recorded in
        ``result.stats["seed"]``).
    fixed : sequence of int
        Option ids (placements, :meth:`~ubongo_cp.cover.ExactCoverInstance.fix`)
        every solution must hold: ``count`` is the number of completions.
    frequencies : bool
        Also count in how many solutions each placement occurs
        (``result.frequencies``: forced and impossible placements).
    memory_limit : int, optional
        Bytes a decision diagram may take (default: half of the memory
        available, :func:`.zdd.default_memory_limit`); past it ``zdd`` stops
        (status unknown, ``stats["memory_limited"]``) and ``auto`` counts
        with the kernel.
    tally : bool
        Also count the solutions per set of piece types used
        (``SolveResult.tally``; the subset analysis), on every solver; the
        orbit decomposition is then not searched (each cover is met once).
    split : SplitSearch, optional
        A count cut into subtrees (:class:`.subtrees.SplitSearch`): run on its executor's workers, with
        its progress bar and journal. The answers (count, reduced count, tally, solutions kept, in the
        same order) are those of one search. Needs a solver that counts natively (the bitboard
        solvers) and no ``limit``, ``sample``, ``fixed``, ``frequencies`` or ``on_solution``; otherwise
        one search runs, unless the split asks for workers or a journal (an error).

    Returns
    -------
    SolveResult
        ``backend`` is the registered name; ``stats["wall_seconds"]`` the
        wall time in seconds (instance build excluded).

    Raises
    ------
    InputError
        For an unknown solver name (the message lists the registered ones),
        a limit below 1, ``reduce``, ``frequencies`` or ``tally`` not True or False, a tally with
        ``sample``, ``fixed`` or ``frequencies``, optional pieces with a solver that does not
        enumerate with secondary items, ``sample``/``fixed``/``frequencies``
        with a solver that builds no decision diagram, or colours, ranges or
        bounds of an exact-cover matrix with a solver that does not take them
        (:attr:`SolverSpec.colours`, ``ranges``, ``bounds``), or a ``split`` that is
        no :class:`.subtrees.SplitSearch`.

    Examples
    --------
    >>> from ubongo_cp.pieces import load_pieces, Region
    >>> from ubongo_cp.cover import build_instance
    >>> inst = build_instance(load_pieces("pentominoes").pieces, Region.rectangle(3, 20))
    >>> r = solve(inst)
    >>> r.count, r.count_reduced, r.complete, r.backend
    (8, 2, True, 'bitboard-symmetry')
    >>> dominoes = build_instance([load_pieces("classic")["I2"]] * 32, Region.rectangle(8, 8))
    >>> solve(dominoes, backend="zdd", keep=0).count  # 12,988,816 tilings, none listed
    12988816
    >>> len(solve(dominoes, sample=3, seed=1).solutions)  # three uniform random tilings
    3
    """
    checked_instance("solve", instance)
    limit = None if limit is None else whole_argument("limit", limit, 1)
    if limit is not None and limit > _MAX_LIMIT:   # the engines count in 64 bits
        raise InputError(f"limit must be at most {_MAX_LIMIT} solutions (2**63 - 1), got {limit}")
    keep = None if keep is None else min(whole_argument("keep", keep, 0), sys.maxsize)   # no list holds more
    sample = None if sample is None else whole_argument("the number of samples", sample, 0)
    pieces_used = None if pieces_used is None else whole_argument("pieces_used", pieces_used, 0)
    memory_limit = None if memory_limit is None else whole_argument("memory_limit", memory_limit, 1)
    time_limit = None if time_limit is None else seconds_argument("time_limit", time_limit)
    if isinstance(fixed, (str, bytes)) or not hasattr(fixed, "__iter__"):
        raise InputError(f"fixed must be a list of option ids (ExactCoverInstance.fix), got {fixed!r}")
    fixed = [whole_argument("a fixed placement", o, 0) for o in fixed]
    if on_solution is not None:
        if not callable(on_solution):
            raise InputError(f"on_solution must be a function of a solution's option ids, got {on_solution!r}")
        callback = on_solution
        on_solution = lambda options: callback(options) is not False  # noqa: E731 - only False stops
    if sample is not None and limit is not None:
        raise InputError("a sample takes no solution limit: sample=N draws N solutions")
    if sample is not None and sample > MAX_SAMPLE:   # every sample is kept: memory grows with them
        raise InputError(f"sample must be at most {MAX_SAMPLE:,} solutions, got {sample:,}: draw more in several runs "
                         "with other seeds")
    if seed is not None:
        import numbers

        if not isinstance(seed, numbers.Integral) or isinstance(seed, bool):
            raise InputError(f"seed must be a whole number, got {seed!r}")
    seed = None if seed is None else int(seed)   # a numpy integer too (random.Random takes an int)
    for o in fixed:
        if o >= instance.n_options:
            raise InputError(f"fixed placement {o} is not an option of the instance (it has {instance.n_options})")
    if len(set(fixed)) != len(fixed):
        raise InputError("a fixed placement is given twice")
    if split is not None:
        from .subtrees import split_argument

        split_argument(split)
    reduce, frequencies, tally = (flag_argument(n, v) for n, v in
                                  (("reduce", reduce), ("frequencies", frequencies), ("tally", tally)))
    wants = sample is not None or bool(fixed) or frequencies
    if tally and wants:
        raise InputError("a tally counts every cover by the piece types it uses: it does not go with a sample, "
                         "fixed placements or frequencies")
    name = backend or (DEFAULT_STRATEGY["diagram"] if wants else choose("first" if limit == 1 else "count", instance))
    spec = check_backend(instance, name, sample=sample is not None, fixed=bool(fixed), frequencies=frequencies)
    from .base import drive

    warm([name])  # load (or compile) the engine before the clock starts: a time limit measures search alone
    # a model's cardinality counts every option, and the cells left empty are options: those the driver counts
    empty = getattr(instance, "empty_type", -1) >= 0
    extra = {"cardinality": pieces_used} if spec.cardinality and pieces_used is not None and not empty else {}
    memory = {} if memory_limit is None else {"memory_limit": int(memory_limit)}   # for a diagram
    made = spec.make(**extra, **(memory if spec.diagram else {}))
    native = None   # the kernel that counts natively where the auto rule does not take the diagram
    if limit is None and on_solution is None and not tally and pieces_used is None and not wants:
        count = DEFAULT_STRATEGY["count"]
        if backend is None and name == count and _one_search(split) and _diagram_may_pay(made, instance):
            # a large count of identical pieces: the kernel's memo with the fixed points where it takes the
            # instance and its tree stays within MEMO_BUDGET nodes; else the auto rule (the diagram, or this
            # kernel natively)
            from .base import fixed_point_count, memo_counts

            if keep is not None and memo_counts(made, instance):
                from .registry import MEMO_BUDGET

                counted = fixed_point_count(made, instance, time_limit=time_limit, keep=keep, name=name,
                                            budget=MEMO_BUDGET)
                if counted is not None:
                    return counted
            native, spec = made, get_solver("auto")
            made, split = spec.make(**memory), None
        elif backend is None and name == FALLBACK[count] and _one_search(split) and _gate_asks(instance):
            # beyond the bitboard kernel (more than 256 cells) a large count of identical pieces asks the auto
            # rule too, whose kernel is this one: the 130 dominoes of 2x130 in milliseconds, not 10**27 covers
            spec = get_solver("auto")
            made, split = spec.make(**memory), None
        elif name == "auto" and choose("count", instance) == count:
            native = get_solver(count).make()
    if split is not None and (not hasattr(made, "search") or limit is not None or wants or on_solution is not None):
        if not _one_search(split):
            restricted = limit is not None or wants or on_solution is not None
            why = ("only a count of every solution, with no solution limit, sample, fixed placement, "
                   "frequencies or streamed solutions, is split" if restricted
                   else _unsplit_reason(instance, name))
            raise InputError(f"cannot split this search over workers or keep a journal of it: {why}")
        split = None  # a progress bar only: the search runs as one
    return drive(made, instance, limit=limit, time_limit=time_limit, keep=keep, reduce=reduce,
                 orbits=spec.orbits, on_solution=on_solution, pieces_used=pieces_used, name=spec.name,
                 sample=sample, seed=seed, fixed=fixed, frequencies=frequencies, tally=tally, split=split,
                 native=native, small_plain=backend is None)


def _one_search(split) -> bool:
    """Whether a count asked with ``split`` runs as one search in this process (none, or a progress bar alone):
    no journal, and no executor or one that runs in this process (a Dask cluster, even of one worker, does not)."""
    return split is None or ((split.executor is None or split.executor.in_process) and split.journal is None)


def asks_diagram(instance) -> bool:
    """Whether :func:`solve`'s default count of ``instance`` (one search, no limit) asks the ``auto`` rule
    whether the decision diagram pays, rather than counting in the bitboard kernel at once.

    So it does for a piece type with copies (the diagram's memo merges the states they make alike), no
    optional pieces, and a search Knuth's estimate puts at :data:`~.registry.DIAGRAM_GATE` nodes or more.

    Examples
    --------
    >>> from ubongo_cp.pieces import load_pieces, Region
    >>> from ubongo_cp.cover import build_instance
    >>> domino = load_pieces("classic")["I2"]
    >>> asks_diagram(build_instance([domino] * 50, Region.rectangle(10, 10)))  # some hours in the kernel
    True
    >>> asks_diagram(build_instance([domino] * 4, Region.rectangle(2, 4)))
    False
    """
    name = choose("count", instance)
    return name == DEFAULT_STRATEGY["count"] and _diagram_may_pay(get_solver(name).make(), instance)


def _diagram_may_pay(kernel, instance) -> bool:
    """:func:`asks_diagram` with the default count's kernel (:data:`~.registry.DIAGRAM_GATE`)."""
    from .registry import DIAGRAM_GATE

    return _gate_asks(instance) and kernel.estimate(instance) >= DIAGRAM_GATE


def _gate_asks(instance) -> bool:
    """Whether :func:`_diagram_may_pay` estimates the search of ``instance`` (Knuth's stratified estimate): piece
    types with copies, no optional pieces, and a bound on the tree (:func:`_tree_bound`) that reaches the gate.
    Made once per instance (:func:`~ubongo_cp.cover.kept`): the gate and the count's small-search test ask."""
    from ..cover import kept
    from .registry import DIAGRAM_GATE

    types = getattr(instance, "types", None)
    if not types or getattr(instance, "optional_pieces", False) or all(len(t) == 1 for t in types):
        return False
    return kept(instance, "diagram_gate_asks", lambda: _tree_bound(instance) >= DIAGRAM_GATE)


def _tree_bound(instance) -> int:
    """An upper bound on the nodes of the kernel's plain search of a puzzle instance (``b + b^2 + ... + b^d``):
    a node places one piece, so no path is longer than the pieces (``d``, at most the cells), and it tries
    the placements covering the first empty cell (``b``): at most the most any cell has, and at most one
    per orientation of the piece types (every cell before it is covered, so the placement's first cell in
    the kernel's raster order, which every translation keeps, is that one: one translation per
    orientation). A card task's is below :data:`~.registry.DIAGRAM_GATE`: its count needs no estimate
    (1-6 ms) to tell that it is small."""
    n_cells = instance.n_cells
    b = max(instance._per_item[:n_cells], default=0)
    if instance.mode in instance.grid.modes:
        b = min(b, sum(len(instance.type_piece(t).orientations(instance.mode)) if t != instance.empty_type
                       else 1 for t in range(instance.n_types)))
    d = min(n_cells, sum(hi for _, hi in instance.type_bounds))
    if b <= 1:
        return d
    return (b ** (d + 1) - b) // (b - 1)
