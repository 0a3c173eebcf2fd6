"""``ubongo-cp solve`` and ``ubongo-cp analyze``: one puzzle, or one region's subsets.

Each ``_cmd_*`` function is a thin layer over the package API; heavy modules
are imported inside them so that ``ubongo-cp --help`` stays fast.
"""

from __future__ import annotations

import sys

from ..errors import InputError
from ..shipped import SHIPPED_PIECE_SETS
from ..solvers.registry import DEFAULT_KEEP, DEFAULT_STRATEGY, FALLBACK, solver_names
from ..status import Status
from .common import (json_dumps, add_allow_pieces_argument, add_use_argument, add_estimate_argument, add_max_cells_argument,
                     add_orientations_argument, asks_workers, add_puzzle_arguments, add_split_arguments, card_task,
                     check_max_empty, check_orientations, fixed_suffixes, ignored, is_xmpuzzle, only_with, pieces_arg,
                     pieces_task, print_estimate, puzzle_instance, region_arg, split_from, tell, PIECES_HELP)

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse

__all__ = ["add_parsers", "DECLARES"]

#: The sub-commands this module declares; :func:`add_parsers` builds one of them alone when asked.
DECLARES = ("solve", "analyze")


def add_parsers(sub, only: str | None = None) -> None:
    """Add the core sub-commands to the top-level ``subparsers`` (``only``: just that one of :data:`DECLARES`)."""
    if only in (None, "solve"):
        _add_solve(sub)
    if only in (None, "analyze"):
        _add_analyze(sub)


def _add_solve(sub) -> None:
    p = sub.add_parser("solve", help="solve/count one puzzle, or the tasks of a card side",
                       description="Solve a polyomino exact-cover puzzle (rules UP-2, UP-3). Either give "
                                   "--pieces and --region, or a card-side TOML file.")
    p.add_argument("card", nargs="?", help="card-side TOML file (solves its tasks), or a BurrTools .xmpuzzle file")
    p.add_argument("--problem", type=int, help="with a .xmpuzzle file: which of its problems, from 1 (default 1)")
    p.add_argument("--pieces", help=PIECES_HELP.format(", ".join(SHIPPED_PIECE_SETS)))
    p.add_argument("--region", help="region file (squares: '#' cell, '.' empty; a 'grid:' line names another grid), "
                                    "or ROWSxCOLS for a box of the pieces' grid (e.g. 6x10)")
    add_use_argument(p, "piece names to use, separated by commas or spaces (default: every piece in the set); "
                        "NAME:LO-HI uses between LO and HI pieces of that shape, e.g. T4:0-2,L4:1-3,I2")
    p.add_argument("--face", type=int, help="with a card: only this die face")
    add_puzzle_arguments(p)
    p.add_argument("--count", action="store_true", help="count all solutions")
    p.add_argument("--limit", type=int, help="stop after N solutions")
    p.add_argument("--time-limit", type=float, help="seconds")
    p.add_argument("--backend", help=f"solver: {', '.join(solver_names())} (default: "
                                     f"{DEFAULT_STRATEGY['first']} for a first solution, "
                                     f"{DEFAULT_STRATEGY['count']} for counting; for a large count of "
                                     f"identical pieces, auto)")
    p.add_argument("--json", action="store_true", help="print JSON instead of drawings")
    p.add_argument("--max-solutions", default=str(DEFAULT_KEEP), metavar="N|all",
                   help=f"with --count: show (or print in the JSON) at most N solutions (default {DEFAULT_KEEP}); "
                        "'all' streams every solution as it is found, holding none")
    p.add_argument("--draw", metavar="FILE", help="also draw the solutions shown (with a card: each task's first) "
                                                  "to FILE.svg, .png or .pdf, in the booklet's colours; with "
                                                  "--frequencies, the placement-frequency heat map")
    fixed_suffixes(p, draw="drawing")
    g = p.add_argument_group("decision diagram", "counted without listing the solutions (the default backend or "
                                                 "zdd)")
    g.add_argument("--sample", type=int, metavar="N", help="the exact count and N solutions drawn uniformly at "
                                                           "random (each equally likely)")
    g.add_argument("--seed", type=int, help="seed of --sample (the same seed draws the same solutions; default: one "
                                            "drawn and printed)")
    g.add_argument("--fix", action="append", metavar="PIECE@CELLS",
                   help="a piece placed beforehand, e.g. X@1,2;2,1;2,2;2,3;3,2 (row,col of each cell it covers; "
                        "layer,row,col on cubes, axial q,r on hexagons: as in the solutions, counted from the "
                        "region's first row and first column, not from the corner of its file), or some of its "
                        "cells (X@2,2: X covers that cell); repeat for more. Counts (--count) or shows the completions")
    g.add_argument("--frequencies", action="store_true",
                   help="in how many solutions each placement occurs: forced and impossible placements")
    g.add_argument("--memory-limit", metavar="SIZE", help="largest decision diagram, e.g. 500M or 4G (default: half "
                                                          "of the memory available)")
    add_allow_pieces_argument(p)
    add_split_arguments(p)
    add_estimate_argument(p)
    only_with(p, "--max-solutions", lambda a: a.count or a.frequencies or _is_card(a.card),
              "goes with --count: it bounds the solutions a count shows (--limit N finds N solutions)")
    only_with(p, "--max-solutions", lambda a: a.sample is None,
              "has no effect with --sample, which shows every solution it draws", note=True)
    only_with(p, "--seed", lambda a: a.sample is not None, "goes with --sample")
    only_with(p, "--problem", lambda a: is_xmpuzzle(a.card), "goes with a BurrTools .xmpuzzle file")
    p.set_defaults(func=_cmd_solve)


def _is_card(path: str | None) -> bool:
    """Whether ``solve``'s positional file is a card side (every task counted), not a BurrTools file."""
    return bool(path) and not is_xmpuzzle(path)


def _add_analyze(sub) -> None:
    p = sub.add_parser("analyze", help="which K pieces of a set tile a region, and in how many ways",
                       description="Subset analysis: every K-subset of the pieces whose area equals the "
                                   "region's is checked in one exact-cover search (UP-2, UP-4).")
    p.add_argument("--pieces", required=True, help=PIECES_HELP.format(", ".join(SHIPPED_PIECE_SETS)))
    p.add_argument("--region", required=True, help="region file, or ROWSxCOLS for a box of the pieces' grid (e.g. 4x7)")
    p.add_argument("--k", type=int, required=True, help="number of pieces per subset")
    p.add_argument("--max-empty", type=int, default=0, metavar="N",
                   help="let up to N cells of the region stay empty: subsets covering the region's area less 0 to "
                        "N cells count too, each set of empty cells once (default 0)")
    add_orientations_argument(p, "free (UP-3)")
    p.add_argument("--backend", help=f"solver: {', '.join(solver_names())} (default: {DEFAULT_STRATEGY['analyze']}; "
                                     f"{FALLBACK[DEFAULT_STRATEGY['analyze']]} where its kernel cannot take the region)")
    p.add_argument("--json", action="store_true", help="print JSON [{pieces, count}, ...]")
    add_max_cells_argument(p)
    add_split_arguments(p)
    add_estimate_argument(p)
    p.set_defaults(func=_cmd_analyze)


# --------------------------------------------------------------------- solve
def _cmd_solve(args: argparse.Namespace) -> int:
    # Inputs are read before numpy and the solvers are imported: a bad file fails fast.
    if args.limit is not None and args.limit < 1:
        raise InputError(f"--limit must be at least 1, got {args.limit}")
    most = max_solutions_arg(args.max_solutions)
    diagram = _diagram_args(args)
    if _is_card(args.card):
        if args.pieces or args.region:
            raise InputError("give either a card file or --pieces/--region, not both")
        if args.use is not None:
            raise InputError("--use goes with --pieces/--region; with a card file, pick a task with --face")
        if args.estimate is not None or args.journal or asks_workers(args):
            what = ("--estimate goes" if args.estimate is not None
                    else "--jobs, --executor dask, --scheduler and --journal go")
            raise InputError(f"{what} with one puzzle (--pieces and --region, or a BurrTools file), not a card file")
        return _solve_card(args)
    ranges: dict = {}
    if args.card:  # a BurrTools file: its problem's pieces and result
        from .export import xmpuzzle_task

        pieces, region, ranges = xmpuzzle_task(args)
    else:
        if not args.pieces or not args.region:
            raise InputError("solve needs a card file, or both --pieces and --region")
        if args.face is not None:
            raise InputError("--face goes with a card file, not with --pieces/--region")
        piece_set, pieces, region, ranges = pieces_task(args, max_cells=args.max_cells)
    from ..solvers import check_backend, solve

    instance = puzzle_instance(args, pieces, region, ranges)
    if args.estimate is not None:
        return print_estimate(instance, args.estimate, as_json=args.json)
    instance, diagram["fixed"] = _fixed_options(instance, args.fix)
    counting = args.count or args.sample is not None or args.frequencies
    limit = None if counting else (args.limit or 1)
    if counting and args.limit:
        limit = args.limit
    if args.backend:  # a refusal before the engine is loaded or compiled
        check_backend(instance, args.backend, sample=args.sample is not None, fixed=bool(diagram["fixed"]),
                      frequencies=bool(args.frequencies))
    _check_memory_limit(args, [instance], limit=limit)
    warm_engines(args.backend, limit, diagram=bool(args.sample is not None or args.fix or args.frequencies))
    if most is None and counting:  # --max-solutions all: each solution printed as found, none held
        stream = _Stream(instance, region, as_json=args.json, label="sample" if args.sample else "solution")
        with split_from(args) as split:
            result = solve(instance, backend=args.backend, limit=limit, time_limit=args.time_limit,
                           keep=20 if args.draw else 0, on_solution=stream, split=split, **diagram)
        stream.close(result)
    else:
        # keep no more than are shown: a count holds at most ``most`` solutions, whatever the count
        with split_from(args) as split:
            result = solve(instance, backend=args.backend, limit=limit, time_limit=args.time_limit,
                           keep=most if counting else None, split=split, **diagram)
        if args.json:
            print(json_dumps(_json(result)))
        else:
            _print_result(result, region, counting=counting, most=most)
    if args.frequencies and not args.json:
        _print_frequencies(result)
    if args.draw:
        names = list(dict.fromkeys(p.name for p in pieces)) if args.card else piece_set.names  # card: .xmpuzzle
        _draw_result(args, result, region, names, counting)
    return 0


def _diagram_args(args: argparse.Namespace) -> dict:
    """``solve``'s keyword arguments for the decision-diagram options (``fixed`` is filled in per instance)."""
    out = {"sample": args.sample, "seed": args.seed, "frequencies": args.frequencies}
    if args.memory_limit is not None:
        out["memory_limit"] = memory_arg(args.memory_limit)
    return out


def _check_memory_limit(args: argparse.Namespace, instances, *, limit: int | None) -> None:
    """A note when ``--memory-limit`` is given to a search that builds no decision diagram (it bounds only a
    diagram's size): the backend named builds none, a solution limit or a count over workers runs without one,
    or the default count of these pieces does not ask for one (:func:`~ubongo_cp.solvers.asks_diagram`)."""
    if args.memory_limit is None or args.sample is not None or args.fix or args.frequencies:
        return
    from ..solvers import asks_diagram
    from ..solvers.registry import get_solver

    which, more = None, ""   # what builds no diagram here
    if args.backend:
        which = None if get_solver(args.backend).diagram else f"--backend {args.backend}"
    elif limit is not None:
        which = "a search for one solution" if limit == 1 and not args.count else "a search with --limit"
    elif asks_workers(args) or args.journal:
        which = "a count over workers or with a journal"
    elif not any(asks_diagram(instance) for instance in instances):
        which, more = "the count of these pieces", " (it is built for many identical pieces, --sample, --fix and " \
                                                   "--frequencies)"
    if which:
        ignored("--memory-limit", f"bounds a decision diagram, which {which} does not build{more}")


def memory_arg(text: str) -> int:
    """``--memory-limit``: a size such as ``500M``, ``4G`` or ``800`` (MiB), in bytes."""
    units = {"K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}
    t = text.strip().upper().removesuffix("B").removesuffix("I")
    scale = units.get(t[-1:], None)
    number = t[:-1] if scale else t
    try:
        value = float(number) * (scale or 2**20)
    except ValueError:
        raise InputError(f"--memory-limit takes a size such as 500M or 4G, got {text!r}") from None
    if not value >= 2**20 or value != value or value == float("inf"):
        raise InputError(f"--memory-limit must be at least 1M, got {text!r}")
    return int(value)


def fix_arg(text: str) -> tuple[str, list[tuple[int, ...]]]:
    """``--fix PIECE@CELLS``: the piece name and its cells (``r,c``, on cubes ``layer,r,c``, separated by ``;``
    or spaces; a cell is written as the JSON output writes it)."""
    name, at, rest = text.partition("@")
    name = name.strip()
    if not at or not name:
        raise InputError(f"--fix {text!r}: write PIECE@CELLS, e.g. X@1,2;2,1;2,2;2,3;3,2")
    cells = []
    for part in rest.replace(";", " ").split():
        bits = part.strip("()").split(",")
        try:
            cell = tuple(int(b) for b in bits)
        except ValueError:
            cell = ()
        if len(cell) not in (2, 3):
            raise InputError(f"--fix {text!r}: {part!r} is not a cell row,col (on cubes layer,row,col)")
        cells.append(cell)
    if not cells:
        raise InputError(f"--fix {text!r}: no cells after '@'")
    return name, cells


def _fixed_options(instance, texts):
    """``(instance, option ids)`` of the ``--fix`` arguments (one-line errors naming the placement).

    A whole placement is a fixed option (completions on the decision diagram); cells that are
    part of a placement are pre-assigned to the piece (:meth:`~ubongo_cp.cover.ExactCoverInstance.assign`:
    the instance keeps only the placements that respect them, for any backend).
    """
    if not texts:
        return instance, []
    try:
        fixes = [fix_arg(t) for t in texts]
        whole = [f for f in fixes if instance.is_placement(*f)]
        if len(whole) < len(fixes):
            instance = instance.assign(fixes)  # the whole placements too: overlaps are refused here
        return instance, instance.fix(whole)
    except InputError as exc:
        if exc.message.startswith("--fix"):
            raise
        raise InputError(f"--fix {exc.message}") from None


def _json(result) -> dict:
    """``result.to_json()``, with the placement frequencies when they were counted."""
    out = result.to_json()
    if result.frequencies is not None:
        inst = result.instance
        out["frequencies"] = [{"piece": inst.type_piece(int(inst.option_type[o])).name,
                               "cells": [list(c) for c in inst.option_cells(o)], "count": int(n)}
                              for o, n in enumerate(result.frequencies.tolist())]
    return out


def _print_frequencies(result, indent: str = "") -> None:
    """Per piece: its placements, how many occur in no solution, and the forced ones (in --fix syntax)."""
    if result.frequencies is None:
        return
    inst, freq, total = result.instance, result.frequencies.tolist(), result.count
    print(f"{indent}placement frequencies (solutions holding each placement, of {total}):")
    for t in range(inst.n_types):
        options = [o for o in range(inst.n_options) if inst.option_type[o] == t]
        never = sum(1 for o in options if freq[o] == 0)
        forced = [o for o in options if total and freq[o] == total]
        best = max(options, key=lambda o: freq[o], default=None)
        copies = len(inst.types[t])
        line = (f"  {inst.type_piece(t).name}{f' x{copies}' if copies > 1 else ''}: {len(options)} placements, "
                f"{never} in no solution")
        if forced:
            line += "; forced: " + " ".join(_fix_text(inst, o) for o in forced)
        elif best is not None and total:
            line += f"; most frequent {_fix_text(inst, best)} in {freq[best]}"
        print(indent + line)


def _fix_text(inst, option: int) -> str:
    """A placement in the syntax of --fix."""
    name = inst.type_piece(int(inst.option_type[option])).name
    return f"{name}@" + ";".join(",".join(map(str, cell)) for cell in inst.option_cells(option))


def _draw_result(args, result, region, names, counting: bool) -> None:
    from ..draw.figures import frequency_figure, result_panels, save_figure, save_solutions

    if args.frequencies and result.frequencies is not None and result.count:
        save_figure(frequency_figure(result), args.draw)
    elif args.frequencies:  # no solution (settled by a check or by the search): the picture says so
        save_solutions(args.draw, result_panels(result, region.cells, most=1, grid=region.grid), names)
    else:
        save_solutions(args.draw, result_panels(result, region.cells, most=20 if counting else 1, grid=region.grid),
                       names)


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


def warm_engines(backend: str | None, limit: int | None = None, *, diagram: bool = False) -> None:
    """Load the search engine before any clock starts, saying so on stderr when it has to be compiled."""
    from ..solvers import warm
    from ..solvers.registry import DEFAULT_STRATEGY

    warm([backend or DEFAULT_STRATEGY["diagram" if diagram else "first" if limit == 1 else "count"]], notify=tell)


class _Stream:
    """``--max-solutions all``: print each solution as the search hands it on, keep none."""

    def __init__(self, instance, region, *, as_json: bool, label: str = "solution") -> None:
        from ..geometry import label_chars

        self.instance, self.region, self.as_json, self.label = instance, region, as_json, label
        self.chars = label_chars(instance.copy_names)  # one letter per piece copy (UP-5)
        self.used: set = set()
        self.n = 0

    def __call__(self, options) -> bool:
        solution = self.instance.solution_dict(options)
        self.n += 1
        if self.as_json:  # the solutions come first (the count is known only at the end); the document is
            # opened with the first one, so that a search refused before it prints nothing on stdout
            sys.stdout.write((", " if self.n > 1 else '{"solutions": [')
                             + json_dumps({k: [list(c) for c in v] for k, v in solution.items()}))
        else:
            self.used.update(solution)
            print(f"{self.label} {self.n}:")
            for line in _draw(solution, self.chars, self.region).splitlines():
                print("  " + line)
        return True

    def close(self, result) -> None:
        if self.as_json:
            rest = {k: v for k, v in _json(result).items() if k != "solutions"}
            sys.stdout.write(("], " if self.n else '{"solutions": [], ') + json_dumps(rest)[1:] + "\n")
            return
        _print_result(result, self.region, counting=True, most=0, streamed=self.n,
                      streamed_chars={key: ch for key, ch in self.chars.items() if key in self.used})


def _solve_card(args: argparse.Namespace) -> int:
    from ..cards import NotACardError, load_card

    try:
        card = load_card(args.card, max_cells=args.max_cells)
    except NotACardError as exc:
        if not exc.drawing:
            raise
        raise InputError(f"{exc.message}; to solve a region file, give --pieces SET --region {args.card}",
                         path=exc.path) from None
    from ..cover import task_instance
    from ..solvers import check_backend, solve

    card = card_task(args, card)
    faces = [args.face] if args.face is not None else list(card.tasks)
    most = max_solutions_arg(args.max_solutions)
    diagram = _diagram_args(args)
    if args.fix and args.face is None:
        raise InputError("--fix goes with one task: give its die face with --face")
    instances = [task_instance(card, face) for face in faces]   # each task's, made once
    if args.backend:  # a refusal before the engine is loaded or compiled
        for instance in instances:
            check_backend(instance, args.backend, sample=args.sample is not None,
                          fixed=bool(args.fix), frequencies=bool(args.frequencies))
    _check_memory_limit(args, instances, limit=args.limit)
    warm_engines(args.backend, args.limit, diagram=bool(args.sample is not None or args.fix or args.frequencies))
    out, panels = [], []
    for number, (face, instance) in enumerate(zip(faces, instances)):
        instance, diagram["fixed"] = _fixed_options(instance, args.fix)
        result = solve(instance, backend=args.backend, limit=args.limit, time_limit=args.time_limit, keep=most,
                       **diagram)
        if args.draw and not args.frequencies:
            from ..draw.figures import result_panels

            panels += result_panels(result, card.region.cells, most=1, prefix=f"face {face}: ", grid=card.region.grid)
        if args.json:
            empty = card.max_empty.get(face, 0)
            out.append({"face": face, "pieces": card.task_entries(face), **({"max_empty": empty} if empty else {}),
                        **_json(result)})
        else:
            if number:
                print()   # a blank line between two tasks
            print(f"card {card.card_id} side {card.side}, face {face}: {card.task_label(face)}")
            _print_result(result, card.region, counting=True, indent="  ", most=most)
            if args.frequencies:
                _print_frequencies(result, indent="  ")
    if args.json:
        print(json_dumps(out[0] if args.face is not None else
                         {"card": card.card_id, "side": card.side, "tasks": out}))
    if args.draw and args.frequencies:
        if len(faces) > 1:
            raise InputError("--draw with --frequencies draws one task: give its die face with --face")
        _draw_result(args, result, card.region, card.piece_set.names, counting=True)
    elif args.draw:
        from ..draw.figures import save_solutions

        save_solutions(args.draw, panels, card.piece_set.names)
    return 0


def _print_result(result, region, *, counting: bool, indent: str = "", most: int | None = 20,
                  streamed: int = 0, streamed_chars: dict | None = None) -> None:
    from ..geometry import label_chars

    n = result.count
    if result.status == Status.NO_SOLUTION:
        reason = result.stats.get("reason")
        fixed = result.stats.get("fixed") or getattr(result.instance, "assigned", ())
        none = "no completion of the fixed placements" if fixed else "no solution"
        print(f"{indent}{none}" + (f" ({reason})" if reason else ""))
        return
    if result.status == Status.UNKNOWN:
        if result.stats.get("memory_limited"):
            print(f"{indent}unknown: {result.stats['stopped']}; raise --memory-limit, or count with "
                  f"--backend dlx-symmetry")
        else:
            print(f"{indent}unknown: time limit reached before any solution")
        return
    fixed = result.stats.get("fixed") or getattr(result.instance, "assigned", ())
    what = "completion" if fixed else "solution"
    if counting:
        stopped = "time limit reached" if result.stats.get("timed_out") else "search stopped by --limit"
        exact = "" if result.complete else f" ({stopped}: a lower bound)"
        reduced = ""
        if result.complete and result.count_reduced is not None and result.count_reduced != n:
            reduced = f", {result.count_reduced} up to the region's symmetry"
        engine = result.stats.get("engine")
        # a strategy that picks a road (auto) names it; zdd-symmetry without a symmetry to use is still itself
        own = (None, result.backend, result.backend.removesuffix("-symmetry"))
        ran = result.backend if engine in own else f"{result.backend}: {engine}"
        print(f"{indent}{n} {what}{'s' if n != 1 else ''}{reduced}{exact} "
              f"[{ran}, {result.stats.get('wall_seconds', 0):.3f} s]")
    sampled = "samples" in result.stats
    label = "sample" if sampled else what
    if sampled:  # the seed, given or drawn: --seed repeats the draw
        print(f"{indent}uniform random draws: {result.stats['samples']}, seed {result.stats['seed']}")
    shown = result.solutions if not counting or most is None or sampled else result.solutions[:most]
    # One letter per piece copy of the solutions shown: copies of a name are keyed name, name#2, ... (UP-5).
    empty = result.instance.empty_type if hasattr(result.instance, "empty_type") else -1
    if streamed_chars is not None:  # the letters the pictures already printed used
        chars = streamed_chars
    else:
        used = {key for sol in shown for key in sol}
        chars = label_chars(n for i, n in enumerate(result.instance.copy_names)
                            if (empty < 0 or i not in result.instance.types[empty]) and n in used)
    legend = " ".join([f"{ch}={key}" for key, ch in chars.items()] + ([".=empty cell"] if empty >= 0 else []))
    for i, sol in enumerate(shown, 1):
        art = _draw(sol, chars, region)
        print(f"{indent}{label} {i}:" if len(shown) > 1 or counting else f"{indent}{label}:")
        for line in art.splitlines():
            print(indent + "  " + line)
    if not sampled and most != 0 and len(shown) + streamed < max(n, len(result.solutions)):
        print(f"{indent}... {max(n, len(result.solutions)) - len(shown)} more (--max-solutions all shows them)")
    if shown or streamed:  # the letters of the pictures printed
        print(f"{indent}legend: {legend}")


def _draw(solution: dict, chars: dict, region) -> str:
    from ..cover import EMPTY

    owner = {}
    for key, cells in solution.items():
        ch = "." if key == EMPTY else chars.get(key, "?")
        for cell in cells:
            owner[tuple(cell)] = ch
    return region.grid.render(owner, empty=" ")


# ------------------------------------------------------------------- analyze
def _cmd_analyze(args: argparse.Namespace) -> int:
    piece_set = pieces_arg(args.pieces)
    region = region_arg(args.region, piece_set, max_cells=args.max_cells)
    check_orientations(args.orientations, [region.grid])
    check_max_empty(args.max_empty, region)
    from ..analyze import analyze, subset_instance

    if args.estimate is not None:
        instance = subset_instance(piece_set.pieces, region, args.k, mode=args.orientations or "free",
                                   max_empty=args.max_empty)
        if instance is None:
            print(json_dumps({"estimate": None}) if args.json else f"nothing to search: no {args.k}-subset of "
                  f"the pieces has the region's area ({region.area} cells)")
            return 0
        return print_estimate(instance, args.estimate, as_json=args.json, pieces_used=args.k)

    with split_from(args) as split:
        result = analyze(piece_set.pieces, region, args.k, backend=args.backend, mode=args.orientations or "free",
                         max_empty=args.max_empty, split=split)
    sizes = {p.name: p.size for p in piece_set.pieces}

    def empty(pieces: tuple[str, ...]) -> int:
        return region.area - sum(sizes[n] for n in pieces)

    listed = result.rows   # (pieces, count) pairs: no record made per subset
    if args.json:
        rows = result.to_json()
        if args.max_empty:
            rows = [{**row, "empty": empty(pieces)} for row, (pieces, _) in zip(rows, listed)]
        print(json_dumps(rows))
        return 0
    from ..solvers.registry import choose

    used = args.backend or choose("analyze", result.instance)
    joined = [" ".join(pieces) for pieces, _ in listed]
    width = max([6, *map(len, joined)])
    lines = [f"{'pieces':<{width}}  count" + ("  empty" if args.max_empty else "")]
    if args.max_empty:
        lines += [f"{j:<{width}}  {n:<5}  {empty(pieces)}" for j, (pieces, n) in zip(joined, listed)]
    else:   # one %-format per row (an f-string's nested width is formatted again for every row)
        row = f"%-{width}s  %d"
        lines += [row % (j, n) for j, (_, n) in zip(joined, listed)]
    print("\n".join(lines))   # one write: an analysis may list thousands of subsets
    within = f", up to {args.max_empty} cell{'s' if args.max_empty > 1 else ''} empty" if args.max_empty else ""
    total = f"{result.total_solutions} solution{'' if result.total_solutions == 1 else 's'}"
    print(f"{len(listed)} of {result.matching_area} area-matching {args.k}-subsets tile the "
          f"{region.area}-cell region{within} ({total}) [{used}, {result.seconds:.2f} s]")
    if "reason" in result.stats:
        print(f"nothing searched: {result.stats['reason']}")
    return 0
