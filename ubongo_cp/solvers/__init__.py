"""Solver backends for exact-cover instances, behind one ``solve`` function.

Backends: ``"cpsat"`` (OR-Tools CP-SAT, :mod:`.cpsat`), ``"dlx"`` (our
numba Algorithm X with dancing cells and search-node counts,
:mod:`.dancing`) and ``"xcover"`` (the ``xcover`` package's Algorithm C,
:mod:`.dlx`, kept as an independent reference). Both consume the same
:class:`~ubongo_cp.cover.ExactCoverInstance` and return a
:class:`~ubongo_cp.solvers.base.SolveResult`.
"""

from __future__ import annotations

from ..cover import ExactCoverInstance
from ..errors import InputError
from .base import NO_SOLUTION, SOLVED, UNKNOWN, SolveResult, drive

__all__ = ["solve", "BACKENDS", "get_backend", "SolveResult", "SOLVED", "NO_SOLUTION", "UNKNOWN", "copy_repeats",
           "MAX_COPY_REPEATS"]

BACKENDS = ("cpsat", "dlx", "xcover")


def get_backend(name: str):
    """The backend object for ``name`` (``"cpsat"`` or ``"dlx"``).

    Raises
    ------
    InputError
        For an unknown name.
    """
    if name == "cpsat":
        from .cpsat import CpSatBackend

        return CpSatBackend()
    if name == "dlx":
        from .dancing import DancingBackend

        return DancingBackend()
    if name == "xcover":
        from .dlx import DlxBackend

        return DlxBackend(name="xcover")
    raise InputError(f"unknown backend {name!r}; choose one of {', '.join(BACKENDS)}")


#: Above this many orderings of identical pieces per solution, the default
#: backend is CP-SAT (see :func:`solve`).
MAX_COPY_REPEATS = 24


def copy_repeats(instance: ExactCoverInstance) -> int:
    """How many times a DLX search meets each solution: the orderings of the copies.

    The product over groups of identical pieces (UP-5) of (group size)!;
    1 without copies. DLX filters the repeats out (canonical order of the
    copies' placements) but has to find them all first.
    """
    import math

    return math.prod(math.factorial(len(g)) for g in instance.copy_groups)


def solve(instance: ExactCoverInstance, *, backend: str | None = None, limit: int | None = None,
          time_limit: float | None = None, keep: int | None = None) -> SolveResult:
    """Solve (find, count, or enumerate) the exact covers of ``instance``.

    Parameters
    ----------
    instance : ExactCoverInstance
        From :func:`ubongo_cp.cover.build_instance`.
    backend : str, optional
        A backend (``"cpsat"``, ``"dlx"``, ``"xcover"``) or a named strategy of
        :mod:`.strategies` (e.g. ``"dlx-symmetry"``, ``"cpsat-symmetry-split"``,
        ``"sat"``). Default: the measured winner for the question asked
        (:data:`.strategies.DEFAULT_STRATEGY`): ``"dlx"`` for a first
        solution (``limit=1``), ``"dlx-symmetry"`` (orbit decomposition by
        the region's symmetries on the DLX backend) for counting; but
        ``"cpsat"`` when identical pieces would make DLX meet each solution
        more than :data:`MAX_COPY_REPEATS` times (CP-SAT orders the copies'
        placements by a constraint instead; e.g. 16 O4 on an 8x8 board:
        DLX found no first solution in 60 s, CP-SAT needs about 1 s).
    limit : int, optional
        Stop after this many solutions (1 = first solution only).
    time_limit : float, optional
        Seconds; on time-out ``complete`` is False and ``status`` is
        ``"unknown"`` if nothing was found.
    keep : int, optional
        Keep at most this many solutions (default: all found).

    Returns
    -------
    SolveResult

    Raises
    ------
    InputError
        For an unknown backend/strategy or a limit below 1.

    Examples
    --------
    >>> from ubongo_cp.pieces import load_pieces, Region
    >>> from ubongo_cp.cover import build_instance
    >>> inst = build_instance(load_pieces("pentominoes").pieces, Region.rectangle(3, 20))
    >>> r = solve(inst)
    >>> r.count, r.count_reduced, r.complete
    (8, 2, True)
    """
    if limit is not None and limit < 1:
        raise InputError(f"limit must be at least 1, got {limit}")
    from .strategies import DEFAULT_STRATEGY, solve_with, strategy_names

    name = backend or DEFAULT_STRATEGY["first" if limit == 1 else "count"]
    if backend is None and copy_repeats(instance) > MAX_COPY_REPEATS:
        name = "cpsat"  # DLX would meet every solution once per ordering of the copies
    if name in BACKENDS:
        result = drive(get_backend(name), instance, limit=limit, time_limit=time_limit, keep=keep)
    elif name in strategy_names():
        result = solve_with(instance, name, limit=limit, time_limit=time_limit, keep=keep)
    else:
        raise InputError(f"unknown backend {name!r}; choose one of {', '.join(BACKENDS)} "
                         f"or a strategy ({', '.join(n for n in strategy_names() if n not in BACKENDS)})")
    result.instance = instance    # the result can draw itself (SolveResult.draw)
    return result
