"""``ubongo-cp export`` and the BurrTools side of ``ubongo-cp solve``.

``export CARD.toml --face F --out X.xmpuzzle`` writes a card task as a
BurrTools file; ``solve X.xmpuzzle`` reads one problem of a BurrTools file
(:func:`xmpuzzle_task`) and solves it on the same path as ``--pieces`` and
``--region``. The library side is :mod:`ubongo_cp.burrtools`.
"""

from __future__ import annotations

import argparse

from ..errors import InputError
from .common import add_allow_pieces_argument, looks_like_burrtools, output_kinds

__all__ = ["add_parsers", "is_xmpuzzle", "xmpuzzle_task"]


def add_parsers(sub) -> None:
    """Add ``export`` to the top-level ``subparsers``."""
    p = sub.add_parser("export", help="write a card task as a BurrTools .xmpuzzle file",
                       description="Write the task of one die face as a BurrTools puzzle: the task's pieces, "
                                   "the card's region as the result: squares on BurrTools' brick grid with z depth 1, "
                                   "cubes on the brick grid, triangles on the triangular-prism grid (one "
                                   "layer) and hexagons there as 6 prisms each. BurrTools counts the assemblies up "
                                   "to the region's symmetries, which is the 'up to the region's symmetry' count of "
                                   "ubongo-cp solve.")
    p.add_argument("card", help="card-side TOML file")
    p.add_argument("--face", type=int, required=True, help="the die face whose task to write")
    p.add_argument("--out", required=True, help="output file (.xmpuzzle)")
    output_kinds(p, out=".xmpuzzle")
    p.add_argument("--no-colours", action="store_true",
                   help="leave the pieces uncoloured (default: the booklet's colour of each piece)")
    add_allow_pieces_argument(p)
    p.set_defaults(func=_cmd_export)


def _cmd_export(args: argparse.Namespace) -> int:
    from ..burrtools import write_xmpuzzle
    from ..cards import load_card

    card = load_card(args.card)
    if card.orientations != "free":  # BurrTools has no such restriction: a flat piece may be turned over
        raise InputError(f"card {card.card_id} side {card.side} allows {card.orientations} orientations only; "
                         "BurrTools turns pieces freely in space, so only free orientations (UP-3) can be "
                         "exported", path=args.card)
    pieces = card.task_pieces(args.face)
    if card.max_empty.get(args.face):
        raise InputError(f"face {args.face} lets cells stay empty; a BurrTools problem covers its whole result, "
                         "so only tasks covering every cell can be exported", path=args.card)
    colours = None
    if not args.no_colours:
        from ..booklet import piece_colours

        every = piece_colours(card.piece_set.names)
        colours = {p.name: every[p.name] for p in pieces}
    title = f"card {card.card_id} side {card.side}, face {args.face}"
    write_xmpuzzle(args.out, pieces, card.region, name=title, colours=colours, ranges=card.ranges.get(args.face),
                   comment=f"{title} ({args.card})")
    print(f"wrote {args.out}: {title}, {pieces_phrase(*card.piece_count(args.face))} "
          f"({card.task_label(args.face)}), {card.region.area}-cell result")
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


def is_xmpuzzle(path: str | None) -> bool:
    """True for a BurrTools file: a name ending in ``.xmpuzzle`` (any case), or a file that begins as one does
    under another name (:func:`~ubongo_cp.cli.common.looks_like_burrtools`)."""
    if not path:
        return False
    return str(path).lower().endswith(".xmpuzzle") or looks_like_burrtools(path)


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
