"""``ubongo-cp generate``, ``batch``, ``booklet`` and ``cards``: whole decks.

Each ``_cmd_*`` function is a thin layer over the package API; heavy modules
are imported inside them so that ``ubongo-cp --help`` stays fast.
"""

from __future__ import annotations

import argparse
import sys

from ..solvers.registry import DEFAULT_STRATEGY, solver_names
from .common import add_allow_pieces_argument, add_executor_arguments, add_progress_argument, executor_from

__all__ = ["add_parsers"]


def add_parsers(sub) -> None:
    """Add ``generate``, ``batch``, ``booklet`` and ``cards`` to the top-level ``subparsers``."""
    _add_generate(sub)
    _add_batch(sub)
    _add_booklet(sub)
    _add_cards(sub)


# ------------------------------------------------------------------ generate
def _add_generate(sub) -> None:
    p = sub.add_parser("generate", help="generate a whole deck of card sides (TOML files)",
                       description="Generate a deck from a deck spec: per card side a random region and "
                                   "die-face tasks that tile it (UP-1..UP-4). --game classic|duel are the "
                                   "two shipped specs (UG-1, UG-3, UD-1, UD-2); --spec FILE is your own.")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--game", choices=["classic", "duel"], help="a shipped game's deck")
    which.add_argument("--spec", metavar="DECK.toml", help="your own deck spec (format: ubongo_cp.specs)")
    p.add_argument("--out", required=True, help="output directory for the card files")
    p.add_argument("--seed", type=int, default=0, help="random seed (same seed, same deck)")
    p.add_argument("--cards", type=int, help="number of cards (default: the spec's, 36 classic, 9 duel)")
    p.add_argument("--from-census", metavar="DIR",
                   help="draw candidate regions from a census (ubongo-cp census) instead of random growth")
    add_progress_argument(p)
    p.add_argument("--quiet", action="store_true", dest="no_progress", help=argparse.SUPPRESS)  # old name
    add_executor_arguments(p, default_jobs=1)
    add_allow_pieces_argument(p)
    p.set_defaults(func=_cmd_generate)


def _cmd_generate(args: argparse.Namespace) -> int:
    import time

    from ..generate import generate_deck

    start = time.perf_counter()
    which = f"--game {args.game}" if args.game else f"--spec {args.spec}"
    command = f"ubongo-cp generate {which} --seed {args.seed}" + (f" --cards {args.cards}" if args.cards else "")
    say = None if args.no_progress else (lambda msg: print(msg, file=sys.stderr))
    candidates = None
    if args.from_census:
        from ..census import census_regions

        candidates = census_regions(args.from_census)
        command += f" --from-census {args.from_census}"
    with executor_from(args) as executor:
        deck = generate_deck(args.game or args.spec, args.out, seed=args.seed, cards=args.cards, command=command,
                             progress=say, executor=executor, candidates=candidates)
    unique = sum(1 for c in deck for n in c.meta["generator"]["solutions"] if n == 1)
    tasks = sum(len(c.tasks) for c in deck)
    print(f"wrote {len(deck)} card sides ({tasks} tasks, {unique} uniquely solvable) to {args.out} "
          f"in {time.perf_counter() - start:.1f} s")
    return 0


# --------------------------------------------------------------------- batch
def _add_batch(sub) -> None:
    p = sub.add_parser("batch", help="solve, count and rate every card side x die face of a deck",
                       description="Batch over a deck directory; writes tasks.parquet, tasks.csv, cards.parquet, cards.csv "
                                   "and summary.md. Re-running resumes from OUT/tasks.jsonl.")
    p.add_argument("deck", help="deck directory of card-side TOML files")
    p.add_argument("--out", required=True, help="output directory")
    p.add_argument("--time-limit", type=float, help="seconds per task and backend")
    p.add_argument("--backend", default=DEFAULT_STRATEGY["rate"],
                   help=f"solver whose count is reported: {', '.join(solver_names())} (default: %(default)s)")
    p.add_argument("--orientations", choices=["free", "one-sided", "fixed"],
                   help="solve every task with these orientations (default: each card's 'orientations' key, "
                        "free by UP-3)")
    add_executor_arguments(p, default_jobs=None)
    add_progress_argument(p)
    add_allow_pieces_argument(p)
    p.set_defaults(func=_cmd_batch)


def _cmd_batch(args: argparse.Namespace) -> int:
    from ..batch import run_batch

    with executor_from(args) as executor:
        outcome = run_batch(args.deck, args.out, time_limit=args.time_limit, backend=args.backend,
                            executor=executor, progress=not args.no_progress, orientations=args.orientations,
                            notify=lambda msg: print(msg, file=sys.stderr, flush=True))
    print(outcome.summary.rstrip("\n"))
    again = f" ({outcome.recomputed} of them made before with other settings)" if outcome.recomputed else ""
    print(f"\n{outcome.ran} task(s) computed{again}, {outcome.skipped} resumed from {args.out}/tasks.jsonl; "
          f"tables in {args.out}/ (tasks.parquet, tasks.csv, cards.parquet, cards.csv, summary.md)")
    return 0


# ------------------------------------------------------------------- booklet
def _add_booklet(sub) -> None:
    p = sub.add_parser("booklet", help="printable PDF solution booklet, one A4 page per card side",
                       description="Write a printable PDF booklet of a deck: one A4 page per card side with the "
                                   "region, the task table and every task's solution (UP-1, UP-2).")
    p.add_argument("deck", help="deck directory of card-side TOML files")
    p.add_argument("--out", required=True, help="PDF file to write")
    p.add_argument("--png", help="also write one PNG per page into this directory")
    p.add_argument("--results", help="batch output directory (or tasks.parquet) to reuse solutions and ratings")
    p.add_argument("--all-solutions", action="store_true",
                   help="draw every solution of tasks with more than one (at most --most per task; "
                        "continuation pages where they do not fit)")
    p.add_argument("--most", type=int, default=None, help="with --all-solutions: solutions drawn per task "
                                                         "(default 24)")
    add_progress_argument(p)
    add_allow_pieces_argument(p)
    p.set_defaults(func=_cmd_booklet)


def _cmd_booklet(args: argparse.Namespace) -> int:
    from ..booklet import MOST_SOLUTIONS, make_booklet
    from ..cards import load_deck
    from ..errors import InputError
    from ..report import load_tasks

    if args.most is not None and not args.all_solutions:
        raise InputError("--most goes with --all-solutions")
    cards, problems = load_deck(args.deck)
    for prob in problems:
        print(f"ubongo-cp: skipped {prob.message}", file=sys.stderr)
    results = load_tasks(args.results, required=("card_id", "side", "face")) if args.results else None
    pages = make_booklet(cards, args.out, png_dir=args.png, results=results, all_solutions=args.all_solutions,
                         most=args.most or MOST_SOLUTIONS, progress=not args.no_progress)
    print(f"wrote {pages} page(s) to {args.out}" + (f" and PNGs to {args.png}" if args.png else ""))
    return 0


# --------------------------------------------------------------------- cards
def _add_cards(sub) -> None:
    from ..booklet.layout import DEFAULT_CELL_MM

    p = sub.add_parser("cards", help="printable playtest cards (true scale, cut marks) and a sheet of the pieces",
                       description="Write printable playtest cards of a deck: every card side with its region at "
                                   "--cell-mm millimetres per cell and its die-face table, several per A4 page with "
                                   "cut marks, then the pieces at the same scale to cut out. No solutions. Print at "
                                   "actual size (100 %%).")
    p.add_argument("deck", help="deck directory of card-side TOML files (or a shipped deck name)")
    p.add_argument("--out", required=True, help="PDF file to write")
    p.add_argument("--cell-mm", type=float, default=DEFAULT_CELL_MM,
                   help=f"size of a cell on paper in mm (default {DEFAULT_CELL_MM:g}, an estimate of the "
                        "physical games' pieces: measure yours)")
    p.add_argument("--no-pieces", action="store_true", help="leave out the piece sheets")
    add_progress_argument(p)
    add_allow_pieces_argument(p)
    p.set_defaults(func=_cmd_cards)


def _cmd_cards(args: argparse.Namespace) -> int:
    from ..booklet.playtest import make_playtest_cards
    from ..cards import load_deck
    from ..errors import InputError

    if not args.cell_mm > 0 or args.cell_mm != args.cell_mm:
        raise InputError(f"--cell-mm must be a positive number of millimetres, got {args.cell_mm}")
    cards, problems = load_deck(args.deck)
    for prob in problems:
        print(f"ubongo-cp: skipped {prob.message}", file=sys.stderr)
    card_pages, piece_pages = make_playtest_cards(cards, args.out, cell_mm=args.cell_mm, pieces=not args.no_pieces,
                                                  progress=not args.no_progress)
    print(f"wrote {len(cards)} card side(s) on {card_pages} page(s)"
          + (f" and the pieces on {piece_pages} page(s)" if piece_pages else "") + f" to {args.out}")
    return 0
