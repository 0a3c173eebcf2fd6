"""One benchmark run of a registered solver, in a process of its own: ``python -m ubongo_cp.bench.worker``.

The benchmarking process starts this module once per run, with a request
on standard input (JSON: ``source``, ``question``, ``k``, ``solver``), and
measures the whole process from outside (:mod:`.runner`). It builds the
instance from its files (:func:`.suite.build`), answers the question with
the registered solver (:func:`answer`) and prints the answer as one JSON
line on standard output; nothing else is printed there.
"""

from __future__ import annotations

import json
import sys
import time

__all__ = ["answer", "main"]


def answer(built, question: str, k: int | None, solver: str) -> dict:
    """Answer a question about a built instance with a registered solver.

    Parameters
    ----------
    built : Built
        From :func:`ubongo_cp.bench.suite.build`.
    question : {"first", "count", "analyze"}
    k : int or None
        Subset size (``analyze``).
    solver : str
        A registered solver name (:data:`ubongo_cp.solvers.SOLVERS`).

    Returns
    -------
    dict
        ``status`` (``"solved"`` or ``"no solution"``; ``"unsupported"``, with
        the solver's reason as ``error`` and nothing else, when the solver
        does not take the instance or the question), ``count`` (1 or 0 for
        ``first``; every solution for ``count``; every tiling for
        ``analyze``), ``subsets`` (``analyze``: the tiling subsets) and
        ``subset_counts`` (their counts), ``solution`` (one solution, for
        the independent check: piece copy -> cells for a polyomino instance,
        option ids for a matrix), ``solve_s`` (CPU seconds of the search,
        measured inside the process: every thread of it, the engine's
        loading excluded) and ``counters`` (the backend's counters).
    """
    from ..errors import InputError
    from ..solvers import check_backend, solve, warm
    from ..status import Status

    try:  # the refusal solve and analyze would raise before any search
        check_backend(built.instance, solver)
    except InputError as exc:
        return {"status": Status.UNSUPPORTED, "error": str(exc)}
    warm([solver])  # the engine is loaded (or compiled) before the clock starts
    polyomino = built.pieces is not None
    start = time.process_time()
    if question == "analyze":
        from ..analyze import analyze

        res = analyze(list(built.pieces), built.region, k, backend=solver, keep_solutions=True,
                      mode=built.instance.mode)
        cpu = time.process_time() - start
        first = None
        if res.subsets and res.instance is not None:
            first = _cells(res.instance.solution_dict(res.solutions[res.subsets[0].pieces][0]))
        return {"status": Status.SOLVED if res.subsets else Status.NO_SOLUTION, "count": res.total_solutions,
                "subsets": len(res.subsets), "subset_counts": {" ".join(s.pieces): s.count for s in res.subsets},
                "solution": first, "solve_s": cpu, "counters": _counters(res.stats)}
    limit = 1 if question == "first" else None
    result = solve(built.instance, backend=solver, limit=limit, keep=1, reduce=False)
    cpu = time.process_time() - start
    solution: dict | list | None = None
    if result.option_solutions:
        options = result.option_solutions[0]
        solution = _cells(built.instance.solution_dict(options)) if polyomino else [int(o) for o in options]
    status = result.status
    if question == "count" and not result.complete:
        status = Status.UNKNOWN  # never happens without a limit: the process is stopped from outside
    return {"status": status, "count": min(result.count, 1) if question == "first" else result.count,
            "solution": solution, "solve_s": cpu,
            "counters": _counters(result.stats)}


def _cells(solution: dict) -> dict:
    return {key: [list(c) for c in cells] for key, cells in solution.items()}


def _counters(stats: dict) -> dict:
    return {k: v for k, v in stats.items() if k != "wall_seconds" and isinstance(v, (int, float, str, bool))}


def main() -> int:
    """Read the request from standard input, answer it, print one JSON line; the exit status is 0."""
    request = json.loads(sys.stdin.read())
    from .suite import build

    start = time.perf_counter()
    built = build(request["source"], request["question"], request.get("k"))
    build_s = time.perf_counter() - start
    out = answer(built, request["question"], request.get("k"), request["solver"])
    out["build_s"] = build_s
    sys.stdout.write(json.dumps(out, default=str) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
