"""``ubongo-cp solve`` and ``ubongo-cp analyze``: one puzzle, or one region's subsets.

Each ``_cmd_*`` function is a thin layer over the package API; heavy modules
are imported inside them so that ``ubongo-cp --help`` stays fast.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys

from ..errors import InputError
from ..solvers.registry import DEFAULT_KEEP, DEFAULT_STRATEGY, solver_names
from ..status import Status
from .common import add_allow_pieces_argument, piece_names_arg
from .export import is_xmpuzzle, xmpuzzle_task

__all__ = ["add_parsers"]


def add_parsers(sub) -> None:
    """Add the core sub-commands to the top-level ``subparsers``."""
    p = sub.add_parser("solve", help="solve/count one puzzle, or the tasks of a card side",
                       description="Solve a polyomino exact-cover puzzle (rules UP-2, UP-3). Either give "
                                   "--pieces and --region, or a card-side TOML file.")
    p.add_argument("card", nargs="?", help="card-side TOML file (solves its tasks), or a BurrTools .xmpuzzle file")
    p.add_argument("--problem", type=int, help="with a .xmpuzzle file: which of its problems, from 1 (default 1)")
    p.add_argument("--pieces", help="piece-set file or shipped set name (classic, duel, pentominoes, tetrominoes)")
    p.add_argument("--region", help="region file (ASCII: '#' cell, '.' empty)")
    p.add_argument("--use", help="comma-separated piece names to use (default: every piece in the set)")
    p.add_argument("--face", type=int, help="with a card: only this die face")
    _add_orientations(p, "free (UP-3), or with a card its own 'orientations' key")
    p.add_argument("--count", action="store_true", help="count all solutions")
    p.add_argument("--limit", type=int, help="stop after N solutions")
    p.add_argument("--time-limit", type=float, help="seconds")
    p.add_argument("--backend", help=f"solver: {', '.join(solver_names())} (default: "
                                     f"{DEFAULT_STRATEGY['first']} for a first solution, "
                                     f"{DEFAULT_STRATEGY['count']} for counting)")
    p.add_argument("--json", action="store_true", help="print JSON instead of drawings")
    _add_max_cells(p)
    p.add_argument("--max-solutions", default=str(DEFAULT_KEEP), metavar="N|all",
                   help=f"with --count: show (or print in the JSON) at most N solutions (default {DEFAULT_KEEP}); "
                        "'all' streams every solution as it is found, holding none")
    p.add_argument("--draw", metavar="FILE", help="also draw the solutions shown (with a card: each task's first) "
                                                  "to FILE.svg, .png or .pdf, in the booklet's colours")
    add_allow_pieces_argument(p)
    p.set_defaults(func=_cmd_solve)

    p = sub.add_parser("analyze", help="which K pieces of a set tile a region, and in how many ways",
                       description="Subset analysis: every K-subset of the pieces whose area equals the "
                                   "region's is checked in one exact-cover search (UP-2, UP-4).")
    p.add_argument("--pieces", required=True, help="piece-set file or shipped set name")
    p.add_argument("--region", required=True, help="region file")
    p.add_argument("--k", type=int, required=True, help="number of pieces per subset")
    _add_orientations(p, "free (UP-3)")
    p.add_argument("--backend", default=DEFAULT_STRATEGY["analyze"],
                   help=f"solver: {', '.join(solver_names())} (default: %(default)s)")
    p.add_argument("--json", action="store_true", help="print JSON [{pieces, count}, ...]")
    _add_max_cells(p)
    p.set_defaults(func=_cmd_analyze)


def _add_max_cells(p: argparse.ArgumentParser) -> None:
    from ..geometry import MAX_REGION_CELLS

    p.add_argument("--max-cells", type=int, default=MAX_REGION_CELLS, metavar="N",
                   help="largest region accepted, in cells (default %(default)s: a guard against a mistyped "
                        "region whose placements would fill the memory; raise it for larger puzzles)")



def _add_orientations(parser: argparse.ArgumentParser, default: str) -> None:
    """``--orientations free|one-sided|fixed`` (the polyomino orientation modes, UP-3)."""
    from ..geometry import ORIENTATION_MODES

    parser.add_argument("--orientations", choices=list(ORIENTATION_MODES),
                        help=f"orientations a piece may take: free (rotate and turn over), one-sided (rotate "
                             f"only), fixed (as drawn); default: {default}")


# --------------------------------------------------------------------- solve
def _cmd_solve(args: argparse.Namespace) -> int:
    # Inputs are read before numpy and the solvers are imported: a bad file fails fast.
    from ..pieces import load_pieces, load_region

    if args.limit is not None and args.limit < 1:
        raise InputError(f"--limit must be at least 1, got {args.limit}")
    most = max_solutions_arg(args.max_solutions)
    if args.problem is not None and not is_xmpuzzle(args.card):
        raise InputError("--problem goes with a BurrTools .xmpuzzle file")
    if args.draw:
        from ..draw.figures import check_format

        check_format(args.draw)
    if args.card and not is_xmpuzzle(args.card):
        if args.pieces or args.region:
            raise InputError("give either a card file or --pieces/--region, not both")
        if args.use is not None:
            raise InputError("--use goes with --pieces/--region; with a card file, pick a task with --face")
        return _solve_card(args)
    if args.card:  # a BurrTools file: its problem's pieces and result
        pieces, region = xmpuzzle_task(args)
    else:
        if not args.pieces or not args.region:
            raise InputError("solve needs a card file, or both --pieces and --region")
        if args.face is not None:
            raise InputError("--face goes with a card file, not with --pieces/--region")
        piece_set = load_pieces(args.pieces)
        region = load_region(args.region, max_cells=args.max_cells)
        names = piece_names_arg(args.use) if args.use is not None else None
        pieces = piece_set.select(names)
    from ..cover import build_instance
    from ..solvers import solve

    instance = build_instance(pieces, region, mode=args.orientations or "free")
    limit = None if args.count else (args.limit or 1)
    if args.count and args.limit:
        limit = args.limit
    warm_engines(args.backend, limit)
    if most is None and args.count:  # --max-solutions all: each solution printed as found, none held
        stream = _Stream(instance, region, as_json=args.json)
        result = solve(instance, backend=args.backend, limit=limit, time_limit=args.time_limit,
                       keep=20 if args.draw else 0, on_solution=stream)
        stream.close(result)
    else:
        # keep no more than are shown: a count holds at most ``most`` solutions, whatever the count
        result = solve(instance, backend=args.backend, limit=limit, time_limit=args.time_limit,
                       keep=most if args.count else None)
        if args.json:
            print(json.dumps(result.to_json()))
        else:
            _print_result(result, region, counting=args.count, most=most)
    if args.draw:
        from ..draw.figures import result_panels, save_solutions

        names = list(dict.fromkeys(p.name for p in pieces)) if args.card else piece_set.names  # card: .xmpuzzle
        save_solutions(args.draw, result_panels(result, region.cells, most=1 if not args.count else 20), names)
    return 0


def max_solutions_arg(text: str) -> int | None:
    """``--max-solutions``: a count of at least 0, or ``all`` (None)."""
    if text.strip().lower() == "all":
        return None
    try:
        value = int(text)
    except ValueError:
        raise InputError(f"--max-solutions takes a number or 'all', got {text!r}") from None
    if value < 0:
        raise InputError(f"--max-solutions must be at least 0, got {value}")
    return value


def warm_engines(backend: str | None, limit: int | None = None) -> None:
    """Load the search engine before any clock starts, saying so on stderr when it has to be compiled."""
    from ..solvers import warm
    from ..solvers.registry import DEFAULT_STRATEGY

    warm([backend or DEFAULT_STRATEGY["first" if limit == 1 else "count"]], notify=_say)


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


class _Stream:
    """``--max-solutions all``: print each solution as the search hands it on, keep none."""

    def __init__(self, instance, region, *, as_json: bool) -> None:
        from ..geometry import label_chars

        self.instance, self.region, self.as_json = instance, region, as_json
        self.chars = label_chars(instance.copy_names)  # one letter per piece copy (UP-5)
        self.n = 0
        if as_json:  # the solutions come first: the count is known only at the end
            sys.stdout.write('{"solutions": [')

    def __call__(self, options) -> bool:
        solution = self.instance.solution_dict(options)
        self.n += 1
        if self.as_json:
            sys.stdout.write((", " if self.n > 1 else "")
                             + json.dumps({k: [list(c) for c in v] for k, v in solution.items()}))
        else:
            print(f"solution {self.n}:")
            for line in _draw(solution, self.chars, self.region).splitlines():
                print("  " + line)
        return True

    def close(self, result) -> None:
        if self.as_json:
            rest = {k: v for k, v in result.to_json().items() if k != "solutions"}
            sys.stdout.write("], " + json.dumps(rest)[1:] + "\n")
            return
        _print_result(result, self.region, counting=True, most=0, streamed=self.n)


def _solve_card(args: argparse.Namespace) -> int:
    from ..cards import load_card

    card = load_card(args.card, max_cells=args.max_cells)
    from ..cover import task_instance
    from ..solvers import solve

    if args.orientations:
        card = dataclasses.replace(card, orientations=args.orientations)
    faces = [args.face] if args.face is not None else list(card.tasks)
    most = max_solutions_arg(args.max_solutions)
    warm_engines(args.backend, args.limit)
    out, panels = [], []
    for face in faces:
        instance = task_instance(card, face)
        result = solve(instance, backend=args.backend, limit=args.limit, time_limit=args.time_limit, keep=most)
        if args.draw:
            from ..draw.figures import result_panels

            panels += result_panels(result, card.region.cells, most=1, prefix=f"face {face}: ")
        if args.json:
            out.append({"face": face, "pieces": list(card.tasks[face]), **result.to_json()})
        else:
            print(f"card {card.card_id} side {card.side}, face {face}: {' '.join(card.tasks[face])}")
            _print_result(result, card.region, counting=True, indent="  ", most=most)
            print()
    if args.json:
        print(json.dumps(out[0] if args.face is not None else
                         {"card": card.card_id, "side": card.side, "tasks": out}))
    if args.draw:
        from ..draw.figures import save_solutions

        save_solutions(args.draw, panels, card.piece_set.names)
    return 0


def _print_result(result, region, *, counting: bool, indent: str = "", most: int | None = 20,
                  streamed: int = 0) -> None:
    from ..geometry import label_chars

    n = result.count
    if result.status == Status.NO_SOLUTION:
        reason = result.stats.get("reason")
        print(f"{indent}no solution" + (f" ({reason})" if reason else ""))
        return
    if result.status == Status.UNKNOWN:
        print(f"{indent}unknown: time limit reached before any solution")
        return
    if counting:
        stopped = "time limit reached" if result.stats.get("timed_out") else "search stopped by --limit"
        exact = "" if result.complete else f" ({stopped}: a lower bound)"
        reduced = ""
        if result.complete and result.count_reduced is not None and result.count_reduced != n:
            reduced = f", {result.count_reduced} up to the region's symmetry"
        print(f"{indent}{n} solution{'s' if n != 1 else ''}{reduced}{exact} "
              f"[{result.backend}, {result.stats.get('wall_seconds', 0):.3f} s]")
    # One letter per piece copy: copies of a name are keyed name, name#2, ... (UP-5).
    chars = label_chars(result.instance.copy_names)
    legend = " ".join(f"{ch}={key}" for key, ch in chars.items())
    shown = result.solutions if not counting or most is None else result.solutions[:most]
    for i, sol in enumerate(shown, 1):
        art = _draw(sol, chars, region)
        print(f"{indent}solution {i}:" if len(shown) > 1 or counting else f"{indent}solution:")
        for line in art.splitlines():
            print(indent + "  " + line)
    if len(shown) + streamed < max(n, len(result.solutions)):
        print(f"{indent}... {max(n, len(result.solutions)) - len(shown)} more (--max-solutions all shows them)")
    print(f"{indent}legend: {legend}")


def _draw(solution: dict, chars: dict, region) -> str:
    owner = {}
    for key, cells in solution.items():
        ch = chars.get(key, "?")
        for cell in cells:
            owner[tuple(cell)] = ch
    height, width = region.height, region.width
    return "\n".join("".join(owner.get((r, c), " ") for c in range(width)).rstrip() for r in range(height))


# ------------------------------------------------------------------- analyze
def _cmd_analyze(args: argparse.Namespace) -> int:
    from ..pieces import load_pieces, load_region

    piece_set = load_pieces(args.pieces)
    region = load_region(args.region, max_cells=args.max_cells)
    from ..analyze import analyze

    result = analyze(piece_set.pieces, region, args.k, backend=args.backend, mode=args.orientations or "free")
    if args.json:
        print(json.dumps(result.to_json()))
        return 0
    width = max([len(" ".join(s.pieces)) for s in result.subsets] + [6])
    print(f"{'pieces':<{width}}  count")
    for s in result.subsets:
        print(f"{' '.join(s.pieces):<{width}}  {s.count}")
    print(f"{len(result.subsets)} of {result.matching_area} area-matching {args.k}-subsets tile the "
          f"{region.area}-cell region ({result.total_solutions} solutions) [{args.backend}, {result.seconds:.2f} s]")
    if "reason" in result.stats:
        print(f"nothing searched: {result.stats['reason']}")
    return 0
