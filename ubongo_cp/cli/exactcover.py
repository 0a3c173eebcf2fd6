"""``ubongo-cp exact-cover``: any exact-cover instance in Knuth's formats (DLX1, DLX2, DLX3), on any backend.

A thin layer over :mod:`ubongo_cp.exactcover` and :func:`ubongo_cp.solvers.solve`.
"""

from __future__ import annotations

import sys

from ..solvers.registry import DEFAULT_KEEP, DEFAULT_STRATEGY, FALLBACK, choose, solver_names
from ..status import Status
from .common import (json_dumps, add_estimate_argument, add_split_arguments, looks_like_burrtools, notify,
                     only_with, print_estimate, split_from)
from .puzzle import max_solutions_arg, warm_engines

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

__all__ = ["add_parsers"]


def add_parsers(sub) -> None:
    """Add ``exact-cover`` to the top-level ``subparsers``."""
    p = sub.add_parser("exact-cover", help="solve/count an exact-cover instance in Knuth's formats",
                       description="Read an exact-cover instance (first line: primary items, then '|' and "
                                   "secondary items; then one option per line; lines beginning with '|' are "
                                   "comments; bounds u:v|item on primary items, colours item:colour on "
                                   "secondary items in options) and find, count or list its exact covers on "
                                   "any backend. An option that covers no primary item is skipped.")
    p.add_argument("instance", metavar="FILE",
                   help="instance file in Knuth's format (as read by his DLX1, DLX2 and DLX3 programs)")
    p.add_argument("--count", action="store_true", help="count all exact covers")
    p.add_argument("--limit", type=int, help="stop after N exact covers")
    p.add_argument("--time-limit", type=float, help="seconds")
    p.add_argument("--backend", help=f"solver: {', '.join(solver_names())} (default: {DEFAULT_STRATEGY['first']}; "
                                     f"{FALLBACK[DEFAULT_STRATEGY['first']]} for what its kernel cannot take)")
    p.add_argument("--json", action="store_true", help="print JSON {count, complete, status, solutions, stats}")
    p.add_argument("--max-solutions", default=str(DEFAULT_KEEP), metavar="N|all",
                   help=f"with --count: show at most N covers (default {DEFAULT_KEEP}); 'all' streams every one, "
                        "holding none")
    add_split_arguments(p)
    add_estimate_argument(p)
    only_with(p, "--max-solutions", lambda a: a.count,
              "goes with --count: it bounds the covers a count shows (--limit N finds N covers)")
    p.set_defaults(func=_cmd_exact_cover)


def _cmd_exact_cover(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from ..exactcover import read_exact_cover
    from ..solvers import check_backend, solve

    if looks_like_burrtools(args.instance):
        raise InputError(f"a BurrTools file, not an exact-cover instance: `ubongo-cp solve {args.instance}` reads its "
                         "pieces and result", path=args.instance)
    matrix = read_exact_cover(args.instance)
    if matrix.skipped:
        notify(f"warning: {skipped_note(matrix.skipped)}")
    if args.estimate is not None:
        return print_estimate(matrix, args.estimate, as_json=args.json)
    most = max_solutions_arg(args.max_solutions)
    limit = (args.limit or None) if args.count else (args.limit or 1)
    # no region: the orbit decomposition never applies; the bitboard kernel's stand-in (dlx) takes
    # what it cannot (bounds, colours, more than 256 items)
    backend = args.backend or choose("first", matrix)
    check_backend(matrix, backend)  # a refusal before the engine is loaded or compiled
    warm_engines(backend, limit)
    streaming = args.count and most is None
    streamed: list[list[str]] = []

    def stream(options) -> bool:  # --max-solutions all: each cover printed as found, none held
        cover = matrix.solution_dict(options)
        if args.json:  # the covers come first (the count is known only at the end); the document is opened
            # with the first one, so that a search refused before it prints nothing on stdout
            sys.stdout.write((", " if streamed else '{"solutions": [') + json_dumps(cover))
        else:
            _print_cover(cover, len(streamed) + 1)
        streamed.append(None)
        return True

    with split_from(args) as split:
        result = solve(matrix, backend=backend, limit=limit, time_limit=args.time_limit,
                       keep=0 if streaming else (most if args.count else None), reduce=False,
                       on_solution=stream if streaming else None, split=split)
    head = {"count": result.count, "complete": result.complete,
            "status": Status.TIMEOUT if result.stats.get("timed_out") else result.status, "backend": result.backend}
    if args.json:
        if streaming:
            sys.stdout.write(("], " if streamed else '{"solutions": [], ') + json_dumps({**head, "stats": result.stats})[1:]
                             + "\n")
        else:
            print(json_dumps({**head, "solutions": result.solutions, "stats": result.stats}))
        return 0
    if result.status == Status.NO_SOLUTION:
        reason = result.stats.get("reason")
        print("no exact cover" + (f" ({reason})" if reason else ""))
        return 0
    if result.status == Status.UNKNOWN:
        print("unknown: time limit reached before any exact cover")
        return 0
    n = result.count
    if args.count:
        stopped = "time limit reached" if result.stats.get("timed_out") else "search stopped by --limit"
        exact = "" if result.complete else f" ({stopped}: a lower bound)"
        engine = result.stats.get("engine")
        ran = result.backend if engine in (None, result.backend) else f"{result.backend}: {engine}"
        print(f"{n} exact cover{'s' if n != 1 else ''}{exact} [{ran}, {result.stats.get('wall_seconds', 0):.3f} s]")
    for i, cover in enumerate(result.solutions, 1):
        _print_cover(cover, i if args.count or len(result.solutions) > 1 else None)
    if args.count and most != 0 and len(result.solutions) + len(streamed) < n:  # none asked, none missed
        print(f"... {n - len(result.solutions) - len(streamed)} more (--max-solutions all shows them)")
    return 0


def skipped_note(labels) -> str:
    """One line naming the options skipped because they cover no primary item."""
    n = len(labels)
    shown = ", ".join(labels[:5]) + (f", ... ({n} in all)" if n > 5 else "")
    return (f"{n} option{'s' if n != 1 else ''} cover{'s' if n == 1 else ''} no primary item and "
            f"{'is' if n == 1 else 'are'} skipped, as in Knuth's programs ({shown})")


def _print_cover(cover: dict, number: int | None) -> None:
    print(f"solution {number}:" if number else "solution:")
    if not cover:  # the empty cover: every primary item may be covered 0 times
        print("  (no option)")
        return
    width = max(len(" ".join(items)) for items in cover.values())
    for label, items in cover.items():
        print(f"  {' '.join(items):<{width}}  ({label})")
