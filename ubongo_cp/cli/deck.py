"""``ubongo-cp generate``, ``batch``, ``booklet`` and ``cards``: whole decks.

Each ``_cmd_*`` function is a thin layer over the package API; heavy modules
are imported inside them so that ``ubongo-cp --help`` stays fast.
"""

from __future__ import annotations

import argparse
import sys

from ..solvers.registry import DEFAULT_STRATEGY, solver_names
from ..shipped import SHIPPED_DECKS
from .common import say, show_bar, add_allow_pieces_argument, add_executor_arguments, add_progress_argument, \
    directory_outputs, executor_from, notify, only_with, output_kinds, tell

__all__ = ["add_parsers"]

#: The deck argument of batch, booklet and cards: a folder, or the name of a deck the package ships.
DECK_HELP = (f"deck directory of card-side TOML files, or a shipped deck name ({', '.join(SHIPPED_DECKS)}), "
             "read where the current folder has no folder of that name")


def add_parsers(sub) -> None:
    """Add ``generate``, ``batch``, ``calibrate``, ``booklet`` and ``cards`` to the top-level ``subparsers``."""
    _add_generate(sub)
    _add_batch(sub)
    _add_calibrate(sub)
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
    which.add_argument("--spec", metavar="DECK.toml",
                       help="your own deck spec: a file, a directory holding deck.toml, or a shipped example "
                            "spec: 'designer' or the example decks' 'hexagons', 'triangles', 'cubes' (`ubongo-cp "
                            "examples designer`), read where the current folder has no file or folder of that name")
    p.add_argument("--out", required=True, help="output directory for the card files")
    directory_outputs(p, "out")
    p.add_argument("--seed", type=int, default=0, help="random seed (same seed, same deck)")
    p.add_argument("--cards", type=int, help="number of cards (default: the spec's, 36 classic, 9 duel)")
    p.add_argument("--from-census", metavar="DIR",
                   help="draw candidate regions from a census (ubongo-cp census) instead of random growth")
    add_progress_argument(p)
    p.add_argument("--quiet", action="store_true", dest="no_progress", help=argparse.SUPPRESS)  # old name
    add_executor_arguments(p, default_jobs=1)
    add_allow_pieces_argument(p)
    p.set_defaults(func=_cmd_generate)


def _other_census(census, spec_name) -> str | None:
    """What a deck drawing from ``census`` should know when the census ranks its regions for other tasks than the
    spec's card sides take (another piece set, or K pieces no side takes), else None."""
    from ..census import read_manifest, region_from_text
    from ..errors import InputError
    from ..pieces import load_pieces
    from ..specs import load_spec

    manifest, spec = read_manifest(census), load_spec(spec_name)
    pieces = load_pieces(spec.pieces_path())
    grid = pieces.grid
    # the same shape drawn turned or mirrored is the same piece: each compared by its canonical form
    try:
        theirs = sorted(grid.canonical(region_from_text(text, grid).cells) for _, text in manifest["piece_shapes"])
    except InputError:   # shapes of another grid
        theirs = []
    same = theirs == sorted(grid.canonical(p.cells) for p in pieces.pieces)
    ks = sorted({side.pieces_per_task for side in spec.sides})
    if same and manifest["k"] in ks:
        return None
    what = "the same pieces" if same else f"other pieces ({spec.pieces})"
    return (f"{census} is a census of {manifest['pieces']}, {manifest['k']} per subset; the spec's card sides "
            f"take {what}, {' and '.join(map(str, ks))} per task: the census ranks its regions for other tasks")


def _cmd_generate(args: argparse.Namespace) -> int:
    import time

    from ..generate import generate_deck

    start = time.perf_counter()
    which = f"--game {args.game}" if args.game else f"--spec {args.spec}"
    command = f"ubongo-cp generate {which} --seed {args.seed}" + (f" --cards {args.cards}" if args.cards else "")
    progress_line = None if args.no_progress else tell
    candidates = None
    if args.from_census:
        from ..census import census_regions
        from ..census.spec import CARD_UNIQUE
        from ..errors import InputError

        import warnings

        from ..errors import InputWarning

        with warnings.catch_warnings(record=True) as said:
            warnings.simplefilter("always", InputWarning)
            # a region with as many uniquely tiling subsets as the smallest die has faces (6 at most) can make a side
            from ..specs import load_spec

            least = min(CARD_UNIQUE, *(side.faces for side in load_spec(args.game or args.spec).sides))
            candidates = census_regions(args.from_census, min_unique=least)
        notes = [w.message for w in said if isinstance(w.message, InputWarning)]
        if not candidates:   # else every card side would be left out, each with a line of its own
            # one line: an incomplete census (its note) may be why
            why = "".join(f"; it is an {note.message}" for note in notes)
            raise InputError(f"holds no region a card side can take (none has {least} uniquely tiling subsets "
                             f"or more){why or ': choose another census'}", path=args.from_census)
        for w in said:   # a census read, incomplete: said as before
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        note = _other_census(args.from_census, args.game or args.spec)
        if note:
            notify(f"note: {note}")
        command += f" --from-census {args.from_census}"
    with executor_from(args, reach=True) as executor:
        deck = generate_deck(args.game or args.spec, args.out, seed=args.seed, cards=args.cards, command=command,
                             progress=progress_line, executor=executor, candidates=candidates,
                             warn=tell)   # a side left out: said in any case
    from ..specs import load_spec

    spec = load_spec(args.game or args.spec)
    n_cards = args.cards or spec.cards
    asked_sides = n_cards * len(spec.sides)
    asked_tasks = n_cards * sum(s.faces for s in spec.sides)
    if not deck:
        print(f"ubongo-cp: error: no card side could be generated (0 of {asked_sides}); see the lines above",
              file=sys.stderr)
        return 1
    unique = sum(1 for c in deck for n in c.meta["generator"]["solutions"] if n == 1)
    tasks = sum(len(c.tasks) for c in deck)
    sides = f"{len(deck)}" + ("" if len(deck) == asked_sides else f" of {asked_sides}")
    of = "" if tasks == asked_tasks else f" of {asked_tasks}"
    say(f"wrote {sides} card sides ({tasks}{of} tasks, {unique} uniquely solvable) to {args.out} "
        f"in {time.perf_counter() - start:.1f} s")
    return 0


# --------------------------------------------------------------------- batch
def _add_batch(sub) -> None:
    p = sub.add_parser("batch", help="solve, count and rate every card side x die face of a deck",
                       description="Batch over a deck directory; writes tasks.parquet, tasks.csv, cards.parquet, cards.csv "
                                   "and summary.md. Every task is counted twice, by the rating's search and by CP-SAT "
                                   "(the cross-check, which enumerates the solutions: a task with thousands of them "
                                   "takes minutes; bound it with --time-limit). Re-running resumes from "
                                   "OUT/tasks.jsonl. Exit status 0 when it ran, 1 with --strict when a task fails the "
                                   "check, 2 on bad input.")
    p.add_argument("deck", help=DECK_HELP)
    p.add_argument("--out", required=True, help="output directory")
    directory_outputs(p, "out")
    p.set_defaults(library_checks=(("out", "deck"),))   # run_batch refuses the deck's own folder as its output
    p.add_argument("--time-limit", type=float, help="seconds per task and backend")
    p.add_argument("--backend", default=DEFAULT_STRATEGY["rate"],
                   help=f"solver whose count is reported: {', '.join(solver_names())} (default: %(default)s)")
    p.add_argument("--orientations", choices=["free", "one-sided", "fixed", "mirror"],
                   help="solve every task with these orientations (default: each card's 'orientations' key, "
                        "free by UP-3; mirror: cubes only)")
    p.add_argument("--strict", action="store_true",
                   help="exit with status 1 when a card file was skipped or a task is unsolvable, not solved, or "
                        "has more solutions than allowed (for a designer's CI)")
    p.add_argument("--difficulty-model", metavar="MODEL.json",
                   help="rate with a model fitted to playtest times (ubongo-cp calibrate): difficulty in predicted "
                        "seconds")
    p.add_argument("--max-solutions", type=int, metavar="M",
                   help="with --strict: the most solutions a task may have (default: the deck spec's, 1 for a "
                        "side whose tasks must be unique)")
    only_with(p, "--max-solutions", lambda a: a.strict, "goes with --strict")
    add_executor_arguments(p, default_jobs=None)
    add_progress_argument(p)
    add_allow_pieces_argument(p)
    p.set_defaults(func=_cmd_batch)


def _cmd_batch(args: argparse.Namespace) -> int:
    from ..batch import run_batch, strict_failures
    from ..errors import InputError

    if args.max_solutions is not None and args.max_solutions < 1:
        raise InputError(f"--max-solutions must be at least 1, got {args.max_solutions}")

    with executor_from(args, reach=True) as executor:
        try:
            outcome = run_batch(args.deck, args.out, time_limit=args.time_limit, backend=args.backend,
                                executor=executor, progress=show_bar(args), orientations=args.orientations,
                                notify=tell,
                                difficulty_model=args.difficulty_model)
        except InputError as exc:   # a mode one of the cards' grids has not, refused before any work
            if exc.argument != "orientations":
                raise
            raise InputError(f"argument --orientations: {exc.message}") from None
    print(outcome.summary.rstrip("\n"))
    again = (f" ({outcome.recomputed} of them again: their rows in the journal were made with other settings or "
             "changed since)" if outcome.recomputed else "")
    say(f"\n{outcome.ran} task(s) computed{again}, {outcome.skipped} resumed from {args.out}/tasks.jsonl; "
        f"tables in {args.out}/ (tasks.parquet, tasks.csv, cards.parquet, cards.csv, summary.md)")
    if args.strict:
        failures = strict_failures(outcome, args.max_solutions)
        for line in failures:
            notify(f"strict: {line}")
        if failures:
            notify(f"strict check failed: {len(failures)} problem(s) in {len(outcome.tasks)} task(s)")
            return 1
    return 0


# ----------------------------------------------------------------- calibrate
def _add_calibrate(sub) -> None:
    from ..calibrate import FEATURES

    p = sub.add_parser("calibrate", help="fit the difficulty to playtest solve times (a model for batch)",
                       description="Fit ln(solve time) to the features of the timed tasks (search nodes, placements "
                                   "per cell, pieces, cells, symmetry, solutions) by least squares, with one effect "
                                   "per player, cross-validated by task; print each feature's weight with its 95% "
                                   "interval, R² and the cross-validated R²; write the model for "
                                   "`ubongo-cp batch --difficulty-model`.")
    p.add_argument("times", help="CSV of observed times: card, side, face, seconds and optionally player")
    p.add_argument("--results", required=True, help="batch output directory (or tasks table) of the timed deck")
    p.add_argument("--out", required=True, metavar="MODEL.json", help="the fitted model to write")
    output_kinds(p, out=_model_kind)
    p.add_argument("--features", nargs="+", choices=FEATURES, default=list(FEATURES), metavar="NAME",
                   help=f"features to fit (default all: {', '.join(FEATURES)})")
    p.add_argument("--folds", type=int, default=5, help="cross-validation folds, by task (default 5)")
    p.add_argument("--seed", type=int, default=0, help="seed of the folds (default 0)")
    p.set_defaults(func=_cmd_calibrate)


def _cmd_calibrate(args: argparse.Namespace) -> int:
    from ..calibrate import fit_difficulty
    from ..errors import InputError

    if args.folds < 2:
        raise InputError(f"--folds must be at least 2, got {args.folds}")
    model = fit_difficulty(args.times, args.results, features=args.features, folds=args.folds, seed=args.seed)
    model.save(args.out)
    print(model.report())
    say(f"\nwrote {args.out}; rate a deck with it: ubongo-cp batch DECK --out DIR --difficulty-model {args.out}")
    return 0


# ------------------------------------------------------------------- booklet
def _add_booklet(sub) -> None:
    p = sub.add_parser("booklet", help="printable PDF solution booklet, one A4 page per card side",
                       description="Write a printable PDF booklet of a deck: one A4 page per card side with the "
                                   "region, the task table and every task's solution (UP-1, UP-2).")
    p.add_argument("deck", help=DECK_HELP)
    p.add_argument("--out", required=True, help="PDF file to write")
    output_kinds(p, out=".pdf")
    p.add_argument("--png", help="also write one PNG per page into this directory")
    p.add_argument("--results", help="batch output directory (or tasks.parquet) to reuse solutions and ratings")
    p.add_argument("--all-solutions", action="store_true",
                   help="draw every solution of tasks with more than one (at most --most per task; "
                        "continuation pages where they do not fit)")
    p.add_argument("--most", type=int, default=None, help="with --all-solutions: solutions drawn per task "
                                                         "(default 24)")
    only_with(p, "--most", lambda a: a.all_solutions, "goes with --all-solutions")
    add_progress_argument(p)
    add_allow_pieces_argument(p)
    p.set_defaults(func=_cmd_booklet)


def _cmd_booklet(args: argparse.Namespace) -> int:
    from ..booklet import MOST_SOLUTIONS, make_booklet
    from ..cards import load_deck
    from ..report import load_tasks

    cards, problems = load_deck(args.deck, some=True)
    for prob in problems:
        notify(f"skipped {prob.message}")
    results = load_tasks(args.results, required=("card_id", "side", "face")) if args.results else None
    if results is not None and cards:
        _warn_unmatched(cards, results, args.results)
    pages = make_booklet(cards, args.out, png_dir=args.png, results=results, all_solutions=args.all_solutions,
                         most=args.most or MOST_SOLUTIONS, progress=show_bar(args))
    say(f"wrote {pages} page(s) to {args.out}" + (f" and PNGs to {args.png}" if args.png else ""))
    return 0


def _warn_unmatched(cards, results, where) -> None:
    """A warning line when tasks of the deck have no row in the ``--results`` table (another deck's, or stale)."""
    from ..booklet.views import results_index, unmatched_tasks

    missing, total = unmatched_tasks(cards, results_index(results))
    if missing == total:
        notify(f"warning: no result in {where} matches a task of the deck (results of another deck, or "
               "of an earlier version of it?); every task is solved here and the booklet shows no ratings")
    elif missing:
        notify(f"warning: {missing} of {total} tasks have no matching result in {where}; they are "
               "solved here and show no rating")


# --------------------------------------------------------------------- cards
def _add_cards(sub) -> None:
    from ..booklet.layout import DEFAULT_CELL_MM, MAX_DPI, MIN_DPI

    p = sub.add_parser("cards", help="printable playtest cards (true scale, cut marks) and a sheet of the pieces",
                       description="Write printable playtest cards of a deck: every card side with its region at "
                                   "--cell-mm millimetres per cell and its die-face table, several per A4 page with "
                                   "cut marks, then the pieces at the same scale to cut out. No solutions. Print at "
                                   "actual size (100 %).")
    p.add_argument("deck", help=DECK_HELP)
    p.add_argument("--out", help="PDF file to write")
    output_kinds(p, out=".pdf")
    p.add_argument("--png", metavar="DIR", help="also (or instead) write one PNG per card side at true scale into "
                                                "DIR, for a print service (--dpi, default 300)")
    p.add_argument("--svg", metavar="DIR", help="also (or instead) write one SVG per card side at true scale into DIR")
    p.add_argument("--dpi", type=int, default=300, help=f"resolution of the --png images, {MIN_DPI} to {MAX_DPI} (default 300)")
    p.add_argument("--cell-mm", type=float, default=DEFAULT_CELL_MM,
                   help=f"size of a cell on paper in mm (default {DEFAULT_CELL_MM:g}, an estimate of the "
                        "physical games' pieces: measure yours)")
    p.add_argument("--no-pieces", action="store_true", help="leave out the piece sheets (of the PDF)")
    only_with(p, "--dpi", lambda a: a.png, "sets the resolution of the --png images, and none are written",
              note=True)
    only_with(p, "--no-pieces", lambda a: a.out, "leaves the piece sheets out of the PDF (--out), and none is "
                                                   "written", note=True)
    add_progress_argument(p)
    add_allow_pieces_argument(p)
    p.set_defaults(func=_cmd_cards)


def _cmd_cards(args: argparse.Namespace) -> int:
    from ..booklet.playtest import make_playtest_cards
    from ..cards import load_deck
    from ..errors import InputError

    from ..booklet.layout import check_cell_mm, check_dpi
    from ..booklet.playtest import check_card_images, write_card_images

    check_cell_mm(args.cell_mm, "--cell-mm")
    if not (args.out or args.png or args.svg):
        raise InputError("give --out FILE.pdf, --png DIR or --svg DIR (or several)")
    check_dpi(args.dpi, "--dpi")
    cards, problems = load_deck(args.deck, some=True)
    for prob in problems:
        notify(f"skipped {prob.message}")
    for fmt, where in (("png", args.png), ("svg", args.svg)):
        if where:  # the image folders are checked before the PDF is written: a refusal leaves no half output
            check_card_images(cards, where, fmt, cell_mm=args.cell_mm, dpi=args.dpi)
    if args.out:
        card_pages, piece_pages = make_playtest_cards(cards, args.out, cell_mm=args.cell_mm,
                                                      pieces=not args.no_pieces, progress=show_bar(args))
        say(f"wrote {len(cards)} card side(s) on {card_pages} page(s)"
            + (f" and the pieces on {piece_pages} page(s)" if piece_pages else "") + f" to {args.out}")
    for fmt, where in (("png", args.png), ("svg", args.svg)):
        if where:
            files = write_card_images(cards, where, fmt, cell_mm=args.cell_mm, dpi=args.dpi,
                                      progress=show_bar(args))
            say(f"wrote {len(files)} {fmt.upper()} image(s) at {args.cell_mm:g} mm per cell to {where}")
    return 0


def _model_kind(args: argparse.Namespace) -> tuple[str, str]:
    """What ``calibrate --out`` writes (:func:`.common.output_kinds`)."""
    from ..calibrate import MODEL_FORMAT

    return ".json", MODEL_FORMAT
