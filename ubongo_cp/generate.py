"""Deck generation: regions and tasks for whole decks of cards, from a deck spec.

A deck spec (:mod:`ubongo_cp.specs`: the shipped ``classic`` and ``duel``
games, or a designer's own TOML file) says, per card side, how many pieces
a task uses, how many die faces there are, the region's box and cell range,
the solution policy and an optional difficulty band. For each card side the
generator draws random connected, hole-free regions that fit the box, asks
the subset analysis (:func:`ubongo_cp.analyze.analyze`, one exact-cover
search over the whole piece set) which K-subsets tile each one and how many
ways, and keeps the first region that offers a task for every die face
(uniquely solvable, or with at most ``max_solutions`` solutions; within the
difficulty band if one is given). Tasks are then picked so that piece usage
is spread evenly over the deck.

Every card side of a deck gets its own region: no two are the same shape,
turned or mirrored included (:func:`region_key`). With candidates from a
census, the card sides of one side spec start at evenly spaced places of the
census's list of good regions (best first), so the deck spreads over all of
them instead of taking the first few; a side whose region another card side
took first searches again, skipping every region already in the deck. Rules: UP-1 (a region and a task table per
side), UP-2/UP-4 (every task tiles the region); the shipped specs encode
UG-1/UG-3/UG-4 (classic) and UD-1/UD-2 (Duel).

A side whose search budget (``attempts`` regions) runs out says so and gets
the best region found, with the tasks it has (fewer than its faces); a side
for which no region offered any task is left out, and said so.

Pruning: a piece that has no placement in a candidate region never appears
in the exact-cover options, so every subset holding it is excluded without
search; regions whose analysis cannot supply enough tasks are dropped.

The generator is deterministic for a seed: every card side draws from its
own children of ``numpy.random.SeedSequence(seed)``. Phase 1 (region search
and analysis, independent per side) runs on any executor; phase 2 (picking
tasks with the deck-wide usage counter) is sequential.
"""

from __future__ import annotations

import functools
import os
import time
from contextlib import ExitStack
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable

import numpy as np

from .analyze import analyze
from .cards import CardSide
from .errors import InputError, whole_argument
from .executors import Executor, executor_argument, using
from .geometry import Cell
from .grids import SQUARE, Grid
from .outputs import OutputFolder
from .pieces import Region, load_pieces
from .shipped import SHIPPED_PIECE_SETS
from . import structs
from .specs import DECK_SPEC_FILE, MAX_CARDS, SHIPPED_SPECS, DeckSpec, SideSpec, load_spec

__all__ = ["random_region", "fits_card", "find_region", "region_key", "spread_candidates", "SideSearch", "generate_deck"]


def random_region(rng: np.random.Generator, area: int, max_height: int, max_width: int, *,
                  grid: Grid = SQUARE, layers: int = 1) -> Region:
    """Grow a random connected, hole-free region of ``area`` cells inside a box.

    Cells are added one at a time to a random frontier cell, weighted by
    ``4 ** (its number of neighbours in the region)`` (compact, card-like
    shapes: filling a notch is favoured over growing a tail). Regions with
    holes are redrawn. On any grid: the box is the grid's
    (:meth:`~ubongo_cp.grids.Grid.box`, a parallelogram on hexagons and
    triangles); on cubes the footprint is grown in one layer and stacked
    ``layers`` high (Ubongo 3-D: two layers).

    Raises
    ------
    InputError
        If ``area`` does not fit the box (or is not a multiple of ``layers``).
    """
    dims = (1, max_height, max_width) if grid.dim == 3 else (max_height, max_width)
    box = set(grid.box(*dims))
    if area > len(box) * layers or area < 1 or area % layers:
        raise InputError(f"a region of {area} cells does not fit a {max_height}x{max_width} card"
                         + (f" in {layers} full layers" if layers > 1 else ""))
    area //= layers
    while True:
        start = grid.random_cell(rng, dims)
        cells = {start}
        frontier: dict[Cell, int] = {}
        _add_frontier(start, cells, frontier, box, grid)
        while len(cells) < area and frontier:
            options = list(frontier)
            weights = np.array([4.0 ** frontier[c] for c in options])
            pick = options[int(rng.choice(len(options), p=weights / weights.sum()))]
            cells.add(pick)
            del frontier[pick]
            _add_frontier(pick, cells, frontier, box, grid)
        if len(cells) == area and not _has_hole(cells, grid):
            cells = {(layer,) + tuple(c[1:]) for c in cells for layer in range(layers)} if layers > 1 else cells
            return Region(grid.normalize(cells), grid=grid)


def fits_card(region: Region, max_rows: int, max_cols: int) -> bool:
    """Whether some image of ``region`` under its grid's symmetries lies in the box :func:`random_region` grows
    regions in (:meth:`Grid.box <ubongo_cp.grids.Grid.box>` of ``max_rows`` x ``max_cols``: a rectangle of
    squares, a parallelogram of hexagons, or of ``max_cols`` rhombi of two triangles per row); on cubes, whether
    the text picture's rows and columns fit, either way round.

    Examples
    --------
    >>> from ubongo_cp.pieces import Region
    >>> six = Region.from_ascii("grid: triangle\\n^v^v^v\\n")   # one row of 6 triangles: 3 rhombi
    >>> fits_card(six, 2, 3), fits_card(six, 2, 2)
    (True, False)
    """
    grid = region.grid
    if grid.dim == 3:
        return (min(region.height, region.width) <= min(max_rows, max_cols)
                and max(region.height, region.width) <= max(max_rows, max_cols))
    box, lo, hi = _card_box(grid, max_rows, max_cols)
    if region.area > len(box):
        return False
    for image in grid.orientations(region.cells, grid.every_mode):
        low = [min(c[i] for c in image) for i in (0, 1)]
        high = [max(c[i] for c in image) for i in (0, 1)]
        for d0 in range(lo[0] - low[0], hi[0] - high[0] + 1):
            for d1 in range(lo[1] - low[1], hi[1] - high[1] + 1):
                moved = [(c[0] + d0, c[1] + d1) for c in image]
                # a shift that turns a triangle over is no move of the shape: the normal position tells
                if all(c in box for c in moved) and grid.normalize(moved) == grid.normalize(image):
                    return True
    return False


@functools.lru_cache(maxsize=32)
def _card_box(grid: Grid, max_rows: int, max_cols: int) -> tuple[frozenset, tuple[int, ...], tuple[int, ...]]:
    """:func:`fits_card`'s box: its cells, their least and largest coordinates (once per side, not per region)."""
    box = frozenset(grid.box(max_rows, max_cols))
    return box, tuple(min(c[i] for c in box) for i in (0, 1)), tuple(max(c[i] for c in box) for i in (0, 1))


def _has_hole(cells: set, grid: Grid = SQUARE) -> bool:
    """True when some empty cell is enclosed (not connected to the outside): :meth:`Grid.has_hole`."""
    return grid.has_hole(cells)


def _add_frontier(cell: Cell, cells: set, frontier: dict, box: set, grid: Grid) -> None:
    for nb in grid.neighbours(cell):
        if nb in box and nb not in cells:
            frontier[nb] = frontier.get(nb, 0) + 1


def region_key(region: Region) -> tuple:
    """A region's shape up to its grid's free moves: turning, and mirroring on the flat grids
    (:meth:`ubongo_cp.grids.Grid.canonical`).

    Two card sides with the same key show the same board.

    Examples
    --------
    >>> region_key(Region.from_ascii("##\\n#.")) == region_key(Region.from_ascii("##\\n.#"))
    True
    """
    return (region.grid.name, region.grid.canonical(region.cells))


def spread_candidates(candidates: list[Region], index: int, count: int) -> list[Region]:
    """The candidate list of the ``index``-th of ``count`` card sides sharing it: the same regions,
    starting ``index / count`` of the way down the list and wrapping around.

    So the card sides of a deck start at evenly spaced places of a census's
    good regions (best first) instead of all at the top.

    Examples
    --------
    >>> spread_candidates(list("abcdef"), 1, 3), spread_candidates(list("abcdef"), 0, 3)
    (['c', 'd', 'e', 'f', 'a', 'b'], ['a', 'b', 'c', 'd', 'e', 'f'])
    """
    if not candidates or count <= 1:
        return list(candidates)
    start = index * len(candidates) // count
    return list(candidates[start:]) + list(candidates[:start])


def _pick_tasks(rng, subsets, n, usage: dict[str, int]) -> list:
    """Greedy even spread: repeatedly take the subset whose pieces are used least so far."""
    chosen = []
    pool = list(subsets)
    for _ in range(n):
        noise = rng.random(len(pool))
        scores = [sum(usage.get(p, 0) for p in s.pieces) + s.count * 0.5 + noise[i] * 0.1
                  for i, s in enumerate(pool)]
        best = pool.pop(int(np.argmin(scores)))
        chosen.append(best)
        for p in best.pieces:
            usage[p] = usage.get(p, 0) + 1
    return chosen


@dataclass(frozen=True)
class SideSearch:
    """What the region search of one card side found (phase 1).

    Attributes
    ----------
    region : Region or None
        The region kept (None when no candidate offered any task).
    pool : list of SubsetCount
        Its acceptable tasks, fewest solutions first.
    tried : int
        Candidate regions examined.
    complete : bool
        True when the pool has a task for every die face.
    """

    region: Region | None
    pool: list
    tried: int
    complete: bool


def _acceptable(subsets, side: SideSpec, pieces, region: Region) -> list:
    """The subsets that make tasks under the side's solution policy and difficulty band."""
    limit = 1 if side.unique else side.max_solutions
    ok = [s for s in subsets if 1 <= s.count <= limit]
    if side.difficulty is not None and ok:
        from .cover import build_instance
        from .rate import rate_instance

        by_name = {p.name: p for p in pieces}
        low, high = side.difficulty

        def rating(s) -> float:
            task = [by_name[n] for n in s.pieces]
            empty = region.area - sum(p.size for p in task)
            return rate_instance(build_instance(task, region, mode=side.orientations, max_empty=empty),
                                 cross_check=False)["difficulty"]

        ok = [s for s in ok if low <= rating(s) <= high]
    return ok


def find_region(seed: np.random.SeedSequence, pieces: str, side: SideSpec,
                candidates: list[Region] | None = None, exclude: frozenset = frozenset()) -> SideSearch:
    """Draw regions until one offers a task for every die face (phase 1, parallel).

    Parameters
    ----------
    seed : numpy.random.SeedSequence
        This card side's own seed.
    pieces : str
        Piece-set reference (shipped name or path).
    side : SideSpec
        The side's spec (box, cell range, K, faces, policy, band, orientations).
    candidates : list of Region, optional
        Regions to try, in order, instead of random growth (e.g. from a
        census); at most ``side.attempts`` of them.
    exclude : frozenset of tuple
        Keys (:func:`region_key`) of regions not to take (the deck's other
        card sides); such a region counts as tried.

    Returns
    -------
    SideSearch
        The first region with enough acceptable subsets, or (``complete`` False)
        the region with the most of them among all tried.
    """
    rng = np.random.default_rng(seed)
    piece_set = load_pieces(pieces)
    grid = piece_set.grid
    best: SideSearch | None = None
    tried = 0
    for tried in range(1, side.attempts + 1):
        if candidates is not None:
            if tried > len(candidates):
                tried -= 1
                break
            region = candidates[tried - 1]
        else:
            area = int(rng.choice(side.areas))
            region = random_region(rng, area, side.max_rows, side.max_cols, grid=grid, layers=side.layers)
        if exclude and region_key(region) in exclude:
            continue
        result = analyze(piece_set.pieces, region, side.pieces_per_task, mode=side.orientations, copies=side.copies,
                         max_empty=min(side.max_empty, region.area - 1))
        ok = _acceptable(result.subsets, side, piece_set.pieces, region)
        if len(ok) >= side.faces:
            return SideSearch(region, sorted(ok, key=lambda s: s.count) if not side.unique else ok, tried, True)
        if ok and (best is None or len(ok) > len(best.pool)):
            best = SideSearch(region, sorted(ok, key=lambda s: s.count), tried, False)
    if best is None:
        return SideSearch(None, [], tried, False)
    return replace(best, tried=tried)


def _check_out_dir(folder: OutputFolder, names: set[str]) -> list[str]:
    """Before any work: ``folder`` must hold no card file this deck would not replace but the generator's own
    (an earlier, larger deck of this spec), unchanged since it wrote them; returns those, to be deleted.

    A card left over from an earlier deck would silently join the new one.
    """
    stale = sorted(p.name for p in folder.path.glob("*.toml") if p.name not in names and p.name != DECK_SPEC_FILE)
    foreign = [n for n in stale if not folder.owns(n)]
    if foreign:
        raise InputError(f"holds {len(foreign)} card file(s) this deck would not replace (e.g. {foreign[0]}); "
                         "choose an empty directory", path=folder.path)
    folder.check(stale)   # an earlier card of this deck edited since is not deleted
    return stale


def _spec_copy(spec: DeckSpec) -> tuple[str, dict[str, str]]:
    """The cards' ``pieces`` value and the files that make a deck folder self-contained.

    A custom spec is copied as ``deck.toml`` (its ``pieces`` value pointing at
    ``pieces.txt`` beside it, or a shipped set), a piece-set file as
    ``pieces.txt``: the deck's cards name ``pieces.txt`` beside them (or a
    shipped set), and ``deck.toml`` gives their game's facts.
    """
    import re

    from .io import read_text

    files: dict[str, str] = {}
    pieces_ref = spec.pieces
    if spec.pieces not in SHIPPED_PIECE_SETS:
        files["pieces.txt"] = read_text(spec.pieces_path())
        pieces_ref = "pieces.txt"
    text = spec.text
    if pieces_ref != spec.pieces:  # only the value changes: the rest of the line (a comment) stays
        text = re.sub(r'(?m)^(\s*pieces\s*=\s*)("[^"\n]*"|\'[^\'\n]*\')', f'\\g<1>"{pieces_ref}"', text, count=1)
    files[DECK_SPEC_FILE] = text
    return pieces_ref, files


def _claim_spec_copy(spec: DeckSpec, folder: OutputFolder, files: dict[str, str]) -> dict[str, str]:
    """Before any work, claim the spec copy's files in the deck folder (see :func:`_spec_copy`); returns those
    to write, with the cards (:func:`_write_deck`).

    An input of this run (the spec file, its piece-set file) is never
    overwritten: where a copy would land on one, it must already hold the
    same text (it is then left alone), else the run is refused. So is a
    file of another origin with other content (:class:`OutputFolder`).
    """
    from .io import read_text

    inputs = {"the deck spec": spec.path, "the spec's piece set": spec.pieces_path()}
    data = {name: text.encode("utf-8") for name, text in files.items()}
    for name in files:
        target = folder.path / name
        for what, source in inputs.items():
            if source and _same_file(target, source):
                if read_text(target) != files[name]:   # the copy is the text read (no BOM, "\n" line ends)
                    raise InputError(f"is {what} this command reads and would be overwritten by "
                                     f"the deck's copy of it; choose another --out folder", path=target)
                data[name] = target.read_bytes()   # the file itself, as saved (a BOM, CRLF): left alone
    folder.claim(files, unless_same=data)
    return {name: text for name, text in files.items() if folder.owns(name)}


def _write_spec_copy(spec: DeckSpec, folder: OutputFolder, files: dict[str, str]) -> None:
    """Claim the spec copy's files (:func:`_claim_spec_copy`) and write them at once (``batch``'s copy beside
    its tables)."""
    from .io import atomic_write_text

    for name, text in _claim_spec_copy(spec, folder, files).items():
        atomic_write_text(folder.path / name, text)


def _same_file(a: Path, b: str | os.PathLike) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def generate_deck(spec: DeckSpec | str | os.PathLike, out_dir: str | os.PathLike | None, *, seed: int = 0,
                  cards: int | None = None, command: str | None = None,
                  progress: Callable[[str], None] | None = None, executor: Executor | None = None,
                  candidates: list[Region] | None = None, warn: Callable[[str], None] | None = None
                  ) -> list[CardSide]:
    """Generate a whole deck and (optionally) write one TOML file per card side.

    Parameters
    ----------
    spec : DeckSpec, str or path
        The deck spec: a :class:`~ubongo_cp.specs.DeckSpec`, a shipped game
        (``"classic"``, ``"duel"``) or a spec file (see :mod:`ubongo_cp.specs`).
    out_dir : path or None
        Where to write ``<card>_<side>.toml`` files (None: do not write). For
        a spec that is not shipped, the directory also gets ``deck.toml`` and
        ``pieces.txt`` (copies), so that it is self-contained.
    seed : int
        Random seed, a whole number >= 0; the same seed gives the same deck.
    cards : int, optional
        Number of cards (default: the spec's).
    command : str, optional
        The command line recorded in each file's header.
    progress : callable, optional
        Called with one line per card side written.
    executor : Executor, optional
        Where the per-side region searches run (default: in this process; see
        :mod:`ubongo_cp.executors`); the deck is identical whichever is used.
    candidates : list of Region, optional
        Candidate regions (e.g. from a census, best first) instead of random
        growth; the card sides of one side spec start at evenly spaced places
        of the regions that fit it (:func:`spread_candidates`).
    warn : callable, optional
        Called with one line per card side left out, saying why (default:
        ``progress``).

    Returns
    -------
    list of CardSide
        The card sides written, each with a region of its own (no two the
        same up to turning and mirroring, :func:`region_key`); a side whose
        search found no task at all is left out and reported through
        ``warn``.

    Raises
    ------
    InputError
        For a bad spec, a seed that is not a whole number >= 0, a number of cards that is not a whole number
        1 .. :data:`~ubongo_cp.specs.MAX_CARDS`, an executor that is not one, an unusable output directory, or
        candidate regions of another grid than the pieces'.
    """
    executor = executor_argument(executor)   # before the output folder is made
    if not isinstance(spec, DeckSpec):
        spec = load_spec(spec)
    seed = whole_argument("seed", seed, 0)   # recorded in every card file: a whole number
    if cards is not None:
        cards = whole_argument("cards", cards, 1)
        if cards > MAX_CARDS:
            raise InputError(f"cards must be at most {MAX_CARDS}, got {cards}")
        resized: DeckSpec = structs.replace(spec, cards=cards)  # typed: replace returns Any
        spec = resized
    if spec.game in SHIPPED_SPECS and spec.path != load_spec(spec.game).path:
        # A shipped game's name belongs to its shipped spec: a deck of another spec under that name would be
        # taken for the shipped game's (its tables, its simulators), whatever the spec's sides.
        from .io import read_text
        from .specs import key_line

        line = key_line(read_text(spec.path), "game") if spec.path else None
        raise InputError(f"game {spec.game!r} is a shipped game ({', '.join(SHIPPED_SPECS)}), which only its "
                         "shipped spec generates; give your own game another name", path=spec.path, line=line)
    piece_set = load_pieces(spec.pieces_path())
    grids = sorted({r.grid.name for r in candidates or ()})
    if grids and piece_set.grid.name not in grids:
        raise InputError(f"the candidate regions lie on the {' and '.join(grids)} grid, the pieces of game "
                         f"{spec.game!r} on the {piece_set.grid.name} grid: give regions of the "
                         f"{piece_set.grid.name} grid (a census of its cells)")
    with ExitStack() as stack:
        folder = None
        if out_dir is not None:
            source = os.path.abspath(spec.path) if spec.path and spec.game not in SHIPPED_SPECS else spec.game
            folder = stack.enter_context(OutputFolder(out_dir, "generate", source=source,
                                                            guarded=lambda name: True))
        return _generate(spec, piece_set, folder, seed, command, progress, executor, candidates,
                         warn if warn is not None else progress)


def _generate(spec: DeckSpec, piece_set, folder: OutputFolder | None, seed: int, command: str | None,
              progress: Callable[[str], None] | None, executor: Executor | None,
              candidates: list[Region] | None, warn: Callable[[str], None] | None) -> list[CardSide]:
    """:func:`generate_deck` once its output folder is open (and locked)."""
    out = folder.path if folder is not None else None
    sides = [(i, side) for i in range(spec.cards) for side in spec.sides]
    card_names = [f"{spec.card_id(i)}_{side.name}.toml" for i, side in sides]
    pieces_ref = spec.pieces if spec.pieces in SHIPPED_PIECE_SETS else spec.pieces_path()
    stale: list[str] = []
    spec_files: dict[str, str] = {}
    if folder is not None:
        stale = _check_out_dir(folder, set(card_names))
        copy: dict[str, str] = {}
        if spec.game not in SHIPPED_SPECS or spec.pieces not in SHIPPED_PIECE_SETS:
            pieces_ref, copy = _spec_copy(spec)
        folder.check(card_names)
        spec_files = _claim_spec_copy(spec, folder, copy)
        folder.claim(card_names)
    # Two seeds per card side: one for its region search, one for picking its tasks.
    children = np.random.SeedSequence(seed).spawn(2 * len(sides))
    command = command or f"ubongo-cp generate --game {spec.game} --seed {seed}"
    start = time.perf_counter()
    # Phase 1 (independent per side, parallel): find a region and its candidate tasks.
    work = []
    for n, (i, side) in enumerate(sides):
        fitting = None if candidates is None else spread_candidates([
            r for r in candidates if side.cells[0] <= r.area <= side.cells[1] and r.grid is piece_set.grid
            and fits_card(r, side.max_rows, side.max_cols)], i, spec.cards)
        work.append((children[2 * n], spec.pieces_path(), side, fitting))
    with using(executor) as pool:
        pool.warm(("ubongo_cp.generate",))
        found = pool.map_ordered(find_region, work)
    # Phase 2 (sequential, deterministic): pick tasks so that piece usage spreads over the deck.
    usage: dict[str, int] = {}
    used: set = set()
    deck: list[CardSide] = []
    for n, ((i, side), search) in enumerate(zip(sides, found)):
        card_id = spec.card_id(i)
        if search.region is not None and region_key(search.region) in used:
            # Another card side has this board: search again (its own child seed), skipping the deck's regions.
            again = find_region(children[2 * n].spawn(1)[0], *work[n][1:], exclude=frozenset(used))
            search = replace(again, tried=search.tried + again.tried)
        if search.region is not None:
            used.add(region_key(search.region))
        if search.region is None:
            if warn and candidates is not None and not work[n][3]:
                lo, hi = side.cells
                warn(f"card {card_id} side {side.name}: the candidate regions hold none of "
                         f"{lo if lo == hi else f'{lo}-{hi}'} cells within {side.max_rows}x{side.max_cols} "
                         "(a census of those sizes would); left out")
            elif warn:
                warn(f"card {card_id} side {side.name}: no region in {search.tried} tried offers a task "
                         "and differs from the deck's other regions (relax the side's cells, box, max_solutions or "
                         "difficulty, or raise attempts); left out")
            continue
        n_tasks = min(side.faces, len(search.pool))
        subsets = _pick_tasks(np.random.default_rng(children[2 * n + 1]), search.pool, n_tasks, usage)
        tasks = {face + 1: s.pieces for face, s in enumerate(subsets)}
        meta = {"generator": {"command": command, "seed": seed, "regions_tried": search.tried,
                              "solutions": [s.count for s in subsets]}}
        size = {p.name: p.size for p in piece_set.pieces}
        empty = {face: search.region.area - sum(size[n] for n in names) for face, names in tasks.items()}
        card = CardSide(spec.game, card_id, side.name, pieces_ref, piece_set, search.region, tasks, None, meta,
                        side.orientations, max_empty={face: e for face, e in empty.items() if e})
        if out is not None:   # written with the others at the end (_write_deck)
            card = structs.replace(card, path=os.fspath(out / f"{card_id}_{side.name}.toml"))
        deck.append(card)
        if progress:
            short = "" if search.complete else (f"; search budget spent: only {n_tasks} of {side.faces} tasks "
                                                "(relax the spec or raise attempts)")
            progress(f"card {card_id} side {side.name}: {search.region.area} cells, {search.tried} region(s) tried, "
                     f"{time.perf_counter() - start:.1f} s{short}")
    if folder is not None:
        _write_deck(folder, deck, card_names, stale, f"Generated by `{command}`; do not edit by hand.", spec_files)
    return deck


def _write_deck(folder: OutputFolder, deck: list[CardSide], card_names: list[str], stale: list[str],
                header: str, spec_files: dict[str, str]) -> None:
    """Write the deck's card files and its spec copy (``spec_files``, :func:`_claim_spec_copy`) together, once
    every card side is made: each to a temporary file, all renamed at the end, and the card files of an earlier
    run that this one does not make removed with them (``stale``: beyond its cards; a card side left out this
    time). An interrupt or an error before then leaves the folder's earlier deck as it was, not some cards (or a
    spec copy) of each run; Ctrl-C or SIGTERM during the removals and renames waits until they are done, and a
    run killed then is finished by the next one (:meth:`~ubongo_cp.outputs.OutputFolder.replace_together`)."""
    from .cards import card_to_toml

    def text(content: str):
        return lambda tmp: tmp.write_text(content, encoding="utf-8")

    names = {os.path.basename(c.path) for c in deck if c.path}
    folder.replace_together([*((name, text(content)) for name, content in spec_files.items()),
                             *((os.path.basename(card.path), text(card_to_toml(card, header=header)))
                               for card in deck if card.path)],
                            remove=[*stale, *(n for n in card_names if n not in names and (folder.path / n).exists())])
