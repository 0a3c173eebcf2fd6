"""``ubongo-cp export`` and the BurrTools side of ``ubongo-cp solve``.

``export CARD.toml --face F --out X.xmpuzzle`` (or ``--pieces P --region
R [--use ...]``) writes a task as a BurrTools file, ``--out X.dlx`` (or
``.xcc``) in Knuth's exact-cover format (:func:`ubongo_cp.exactcover.knuth_text`)
and ``--out X.cnf`` as DIMACS CNF (:func:`ubongo_cp.solvers.cnf.dimacs_text`),
the files ``bench --external`` gives external solvers; ``solve
X.xmpuzzle`` reads one problem of a BurrTools file (:func:`xmpuzzle_task`)
and solves it on the same path as ``--pieces`` and ``--region``. The
library side is :mod:`ubongo_cp.burrtools`.
"""

from __future__ import annotations

import argparse

from ..errors import InputError
from ..io import KNUTH_SUFFIXES
from ..shipped import SHIPPED_PIECE_SETS
from .common import (say, PIECES_HELP, add_allow_pieces_argument, add_puzzle_arguments, card_task, is_xmpuzzle,
                     only_with, output_kinds, pieces_task, puzzle_instance, add_use_argument)

__all__ = ["add_parsers", "is_xmpuzzle", "xmpuzzle_task", "export_format"]

#: The formats ``export`` writes, and the extensions that choose each (any other name: BurrTools).
FORMATS = {"xmpuzzle": (".xmpuzzle",), "dlx": KNUTH_SUFFIXES, "cnf": (".cnf",)}


def export_format(out: str | None, given: str | None = None) -> str:
    """The format ``export`` writes: ``given`` (``--format``), else the one the ``--out`` name's extension
    chooses (:data:`FORMATS`), else ``xmpuzzle``.

    Examples
    --------
    >>> export_format("a.DLX"), export_format("a.xcc"), export_format("a.cnf"), export_format("a.xml")
    ('dlx', 'dlx', 'cnf', 'xmpuzzle')
    >>> export_format("a.txt", "cnf")
    'cnf'
    """
    if given:
        return given
    name = str(out or "").lower()
    return next((fmt for fmt, ends in FORMATS.items() if name.endswith(ends)), "xmpuzzle")


def _out_kind(args: argparse.Namespace) -> str:
    """What the output check guards ``--out`` as (:func:`.common.output_kinds`): an earlier BurrTools, Knuth or
    DIMACS file of the toolkit (its mark: :func:`ubongo_cp.io.mark_comment`) is replaced, any other file is kept
    (:func:`ubongo_cp.io.check_output_file`)."""
    fmt = export_format(args.out, args.format)
    return ".xmpuzzle" if fmt == "xmpuzzle" else "." + fmt


def add_parsers(sub) -> None:
    """Add ``export`` to the top-level ``subparsers``."""
    p = sub.add_parser("export", help="write a task as a BurrTools, Knuth exact-cover or DIMACS CNF file",
                       description="Write one task, the task of a die face of a card side or the puzzle of "
                                   "--pieces and --region, in the format the --out name's extension "
                                   "chooses (or --format): .xmpuzzle for BurrTools (the task's pieces, the "
                                   "region as the result: squares on BurrTools' brick grid with z depth 1, "
                                   "cubes on the brick grid, triangles on the triangular-prism grid (one "
                                   "layer) and hexagons there as 6 prisms each; BurrTools counts the "
                                   "assemblies up to the region's symmetries, the 'up to the region's "
                                   "symmetry' count of ubongo-cp solve); .dlx or .xcc for Knuth's "
                                   "exact-cover programs (DLX1, DLX3, SSXC; a piece with k identical copies "
                                   "is k items, so each tiling is found k! times, as a comment in the file "
                                   "says); .cnf for a SAT solver or a model counter (DIMACS CNF: variable i "
                                   "is the i-th placement; identical pieces are not told apart; count models "
                                   "projected on the 'c p show' variables). Any other name: BurrTools. "
                                   "Exactly the files bench --external gives external solvers. An existing "
                                   "file there is replaced only when it is an earlier export (its first "
                                   "line says so) or empty.")
    p.add_argument("card", nargs="?", help="card-side TOML file (or give --pieces and --region)")
    p.add_argument("--face", type=int, help="with a card: the die face whose task to write")
    p.add_argument("--pieces", help=PIECES_HELP.format(", ".join(SHIPPED_PIECE_SETS)))
    p.add_argument("--region", help="region file, or ROWSxCOLS for a box of the pieces' grid (as for solve)")
    add_use_argument(p, "with --pieces: the pieces to use, as for solve (e.g. T4:0-2,L4:1-3,I2 or L3 T4 O4)")
    add_puzzle_arguments(p)
    p.add_argument("--out", required=True,
                   help="output file: .xmpuzzle (BurrTools), .dlx or .xcc (Knuth), .cnf (DIMACS)")
    p.add_argument("--format", choices=tuple(FORMATS),
                   help="the format to write whatever the --out name (default: from its extension)")
    p.add_argument("--no-colours", action="store_true",
                   help="leave the pieces uncoloured (default: the booklet's colour of each piece)")
    output_kinds(p, out=_out_kind)
    add_allow_pieces_argument(p)
    only_with(p, "--no-colours", lambda a: export_format(a.out, a.format) == "xmpuzzle",
              "goes with a BurrTools file (a Knuth or DIMACS file has no colours)", note=True)
    p.set_defaults(func=_cmd_export)


def _cmd_export(args: argparse.Namespace) -> int:
    fmt = export_format(args.out, args.format)
    if args.card:
        if is_xmpuzzle(args.card):   # read as a card it was 'give --face', then 'not UTF-8 text'
            raise InputError("is a BurrTools file, already a puzzle file: export writes a card side's task (with "
                             "--face) or --pieces and --region; ubongo-cp solve reads it", path=args.card)
        if args.pieces or args.region or args.use is not None:
            raise InputError("give either a card file or --pieces/--region, not both")
        if args.face is None:
            raise InputError("export writes one task of a card: give its die face with --face")
        return _export_card(args, fmt)
    if not args.pieces or not args.region:
        raise InputError("export needs a card file and --face, or both --pieces and --region")
    if args.face is not None:
        raise InputError("--face goes with a card file, not with --pieces/--region")
    piece_set, pieces, region, ranges = pieces_task(args, max_cells=args.max_cells)
    instance = puzzle_instance(args, pieces, region, ranges)   # the options checked as solve checks them
    title = f"pieces {args.pieces}, region {args.region}"
    if fmt == "xmpuzzle":   # refused before the warning that the file is written all the same
        _burrtools_can_take(instance.mode, bool(args.max_empty), "the puzzle", path=None)
    _warn_unsolvable(instance, title, args.out)
    if fmt == "xmpuzzle":
        from ..burrtools import write_xmpuzzle

        colours = None if args.no_colours else _colours(piece_set.names, pieces)
        write_xmpuzzle(args.out, pieces, region, name=title, colours=colours, ranges=ranges, comment=title)
        label = " ".join(dict.fromkeys(p.name for p in pieces))
        say(f"wrote {args.out}: {title}, {len(pieces)} piece{'s' if len(pieces) != 1 else ''} ({label}), "
            f"{region.area}-cell result")
        return 0
    return _write_solver_file(args.out, fmt, instance, title)


def _warn_unsolvable(instance, title: str, out: str) -> None:
    """Warn, in one line, that the puzzle written to ``out`` has no solution, for the reason ``solve`` gives
    without a search (:meth:`~ubongo_cp.cover.ExactCoverInstance.precheck`: the pieces' area against the region's,
    UP-4, and the like); the file is still written, as asked."""
    reason = instance.precheck()
    if reason:
        import warnings

        from ..errors import InputWarning

        warnings.warn(InputWarning(f"{title}: no solution ({reason}); {out} is written all the same, and "
                                   "solving it finds none"), stacklevel=2)


def _colours(names, pieces) -> dict:
    """The booklet's colour of each piece, of a set whose pieces are ``names``."""
    from ..booklet import piece_colours

    every = piece_colours(names)
    return {p.name: every[p.name] for p in pieces}


def _export_card(args: argparse.Namespace, fmt: str) -> int:
    from ..cards import load_card

    card = card_task(args, load_card(args.card, max_cells=args.max_cells))
    pieces = card.task_pieces(args.face)
    title = f"card {card.card_id} side {card.side}, face {args.face}"
    from ..cover import task_instance

    if fmt != "xmpuzzle":
        instance = task_instance(card, args.face)
        _warn_unsolvable(instance, f"{title} ({args.card})", args.out)
        return _write_solver_file(args.out, fmt, instance, f"{title}: {card.task_label(args.face)} ({args.card})")
    _burrtools_can_take(card.orientations, bool(card.max_empty.get(args.face)),
                        f"card {card.card_id} side {card.side} face {args.face}", path=args.card)
    _warn_unsolvable(task_instance(card, args.face), f"{title} ({args.card})", args.out)
    colours = None if args.no_colours else _colours(card.piece_set.names, pieces)
    from ..burrtools import write_xmpuzzle

    write_xmpuzzle(args.out, pieces, card.region, name=title, colours=colours, ranges=card.ranges.get(args.face),
                   comment=f"{title} ({args.card})")
    say(f"wrote {args.out}: {title}, {pieces_phrase(*card.piece_count(args.face))} "
        f"({card.task_label(args.face)}), {card.region.area}-cell result")
    return 0


def _burrtools_can_take(orientations: str, empty: bool, what: str, *, path) -> None:
    """Refuse a task a BurrTools file cannot hold: orientations other than free, or cells left empty."""
    if orientations == "mirror":  # more than BurrTools allows: it turns a solid piece, never mirrors it
        raise InputError(f"{what} lets its pieces be mirrored (orientations mirror); BurrTools only turns pieces "
                         "in space, so only free orientations (UP-3) can be exported as a BurrTools file (a .dlx "
                         "or .cnf file keeps them)", path=path)
    if orientations != "free":  # BurrTools has no such restriction: a flat piece may be turned over
        raise InputError(f"{what} allows {orientations} orientations only; BurrTools turns pieces freely in "
                         "space, so only free orientations (UP-3) can be exported as a BurrTools file (a .dlx "
                         "or .cnf file keeps them)", path=path)
    if empty:
        raise InputError(f"{what} lets cells stay empty; a BurrTools problem covers its whole result, so only "
                         "tasks covering every cell can be exported as a BurrTools file (a .dlx or .cnf file "
                         "keeps them)", path=path)


def _write_solver_file(out: str, fmt: str, instance, title: str) -> int:
    """Write ``instance`` in Knuth's format (``fmt`` ``dlx``) or as DIMACS CNF (``cnf``) with the writers
    ``bench --external`` uses, and say what was written."""
    from ..io import atomic_write_text, comment_lines, mark_comment

    title = " ".join(title.split())   # the line printed below is one line, whatever a path holds
    if fmt == "cnf":
        from ..solvers.cnf import dimacs_text

        text = mark_comment(".cnf") + "\n" + dimacs_text(
            instance, comments=[title, "variable i is placement i; identical pieces are not told apart"])
        head = next(line for line in text.splitlines() if line.startswith("p cnf "))
        n_vars, n_clauses = (int(v) for v in head.split()[2:4])
        atomic_write_text(out, text)
        shown = " (count models projected on the 'c p show' variables)" if n_vars > instance.n_options else ""
        say(f"wrote {out}: {title}; DIMACS CNF, {n_vars} variables ({instance.n_options} placements), "
            f"{n_clauses} clauses{shown}")
        return 0
    from ..exactcover import knuth_text

    written = knuth_text(instance)
    note = (f"each tiling is found {written.copies_factor} times: the orderings of identical pieces"
            if written.copies_factor > 1 else "each tiling is found once")
    # The comments name the factor, known once the file is written: they go first, as knuth_text puts them.
    atomic_write_text(out, "\n".join([mark_comment(".dlx"), *comment_lines([title, note], ".dlx")]) + "\n" + written.text)
    say(f"wrote {out}: {title}; Knuth's exact-cover format, {len(written.item_names)} items, "
        f"{len(written.option_of_line)} options; {note}")
    return 0


def pieces_phrase(fewest: int, most: int) -> str:
    """How many pieces a task uses, given the fewest and the most its ranges allow.

    Examples
    --------
    >>> pieces_phrase(3, 3), pieces_phrase(1, 1), pieces_phrase(2, 5), pieces_phrase(0, 6)
    ('3 pieces', '1 piece', '2 to 5 pieces', 'up to 6 pieces')
    """
    if fewest == most:
        return f"{most} piece{'s' if most != 1 else ''}"
    return f"up to {most} pieces" if fewest == 0 else f"{fewest} to {most} pieces"


def xmpuzzle_task(args: argparse.Namespace) -> tuple[list, object, dict]:
    """The pieces, region and ranges of piece counts of ``solve FILE.xmpuzzle [--problem N]``.

    Prints which problem was read (unless ``--json``), with the assembly
    count BurrTools stored in the file when it solved the problem.

    Raises
    ------
    InputError
        For options that do not go with a BurrTools file, and anything
        :func:`ubongo_cp.burrtools.read_xmpuzzle` refuses.
    """
    from ..burrtools import read_xmpuzzle

    for option, value in (("--pieces", args.pieces), ("--region", args.region), ("--use", args.use),
                          ("--face", args.face)):
        if value is not None:
            raise InputError(f"{option} does not go with a BurrTools file: its problem names the pieces "
                             "and the result (pick a problem with --problem N)")
    number = 1 if args.problem is None else args.problem
    problem = read_xmpuzzle(args.card, number, max_cells=args.max_cells)
    if not args.json:
        counts: dict[str, int] = {}
        for piece in problem.pieces:
            counts[piece.name] = counts.get(piece.name, 0) + 1
        # A shape used between LO and HI times is written NAME:LO-HI, as in a card file (and export).
        names = " ".join(name + (f":{problem.ranges[name][0]}-{problem.ranges[name][1]}" if name in problem.ranges
                                 else f" x{k}" if k > 1 else "") for name, k in counts.items())
        fewest = sum(problem.ranges[n][0] if n in problem.ranges else k for n, k in counts.items())
        most = sum(problem.ranges[n][1] if n in problem.ranges else k for n, k in counts.items())
        label = f" {problem.name!r}" if problem.name else ""
        print(f"problem {problem.number}{label} of {problem.n_problems}: {pieces_phrase(fewest, most)} "
              f"({names}), {problem.region.area}-cell result")
        if problem.assemblies is not None:
            print(f"BurrTools stored {problem.assemblies} assemblies for it (counted up to the result's "
                  "symmetry)")
    return problem.pieces, problem.region, problem.ranges
