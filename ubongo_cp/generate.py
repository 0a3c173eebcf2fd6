"""Deck generation: regions and tasks for whole decks of Ubongo / Ubongo Duel cards.

For each card side the generator draws random connected, hole-free regions
that fit the card, asks the subset analysis (:func:`ubongo_cp.analyze.analyze`,
one exact-cover search over the whole piece set) which K-subsets tile each
one and how many ways, and keeps the first region that offers enough
uniquely solvable subsets. Tasks are then picked so that piece usage is
spread evenly over the deck. Rules: UP-1 (a region and a task table per
side), UP-2/UP-4 (every task tiles the region), UG-1/UG-3 (classic: 36
cards, easy side 3 pieces, hard side 4; 6 die faces) and UD-1/UD-2 (Duel:
9 cards, side A 4 pieces, side B 5 pieces; 20 die faces).

Pruning: a piece that has no placement in a candidate region never appears
in the exact-cover options, so every subset holding it is excluded without
search; regions whose analysis cannot supply enough tasks are dropped.

The generator is deterministic for a seed: every card side draws from its
own children of ``numpy.random.SeedSequence(seed)``. Phase 1 (region search
and analysis, independent per side) runs on any executor; phase 2 (picking
tasks with the deck-wide usage counter) is sequential.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

import numpy as np

from .analyze import analyze
from .cards import CardSide, write_card
from .errors import InputError
from .executors import Executor, using
from .geometry import Cell, is_connected, normalize
from .pieces import PieceSet, Region, load_pieces

__all__ = ["SideSpec", "DeckSpec", "DECK_SPECS", "random_region", "find_region", "generate_deck"]


@dataclass(frozen=True)
class SideSpec:
    """How to generate one side of every card.

    Attributes
    ----------
    pieces_per_task : int
        K, the number of pieces in each task.
    tasks : int
        Die faces per side (6 classic, 20 Duel).
    max_height, max_width : int
        The region must fit this box (cells).
    areas : tuple of int
        Region areas (cells) to draw from.
    max_solutions : int
        Largest solution count accepted for a task when too few uniquely
        solvable subsets exist (recorded per task).
    attempts : int
        Candidate regions tried per side before accepting non-unique tasks.
    """

    pieces_per_task: int
    tasks: int
    max_height: int
    max_width: int
    areas: tuple[int, ...]
    max_solutions: int = 4
    attempts: int = 400


@dataclass(frozen=True)
class DeckSpec:
    """A deck: the piece set, the number of cards and the two sides' specs."""

    game: str
    pieces: str
    cards: int
    sides: dict[str, SideSpec] = field(default_factory=dict)


#: Defaults per game (RULES.md §2 UG-1/UG-3 and §3 UD-1/UD-2; card sizes from issue 8).
DECK_SPECS: dict[str, DeckSpec] = {
    "classic": DeckSpec("classic", "classic", 36, {
        "easy": SideSpec(3, 6, 6, 6, (10, 11, 12, 13)),
        "hard": SideSpec(4, 6, 7, 7, (14, 15, 16, 17)),
    }),
    "duel": DeckSpec("duel", "duel", 9, {
        "A": SideSpec(4, 20, 7, 7, (21, 22, 23)),
        "B": SideSpec(5, 20, 8, 8, (26, 27, 28)),
    }),
}


def random_region(rng: np.random.Generator, area: int, max_height: int, max_width: int) -> Region:
    """Grow a random connected, hole-free region of ``area`` cells inside a box.

    Cells are added one at a time to a random frontier cell, weighted by
    ``4 ** (its number of neighbours in the region)`` (compact, card-like
    shapes: filling a notch is favoured over growing a tail). Regions with
    holes are redrawn.

    Raises
    ------
    InputError
        If ``area`` does not fit the box.
    """
    if area > max_height * max_width or area < 1:
        raise InputError(f"a region of {area} cells does not fit a {max_height}x{max_width} card")
    while True:
        start = (int(rng.integers(max_height)), int(rng.integers(max_width)))
        cells = {start}
        frontier: dict[Cell, int] = {}
        _add_frontier(start, cells, frontier, max_height, max_width)
        while len(cells) < area and frontier:
            options = list(frontier)
            weights = np.array([4.0 ** frontier[c] for c in options])
            pick = options[int(rng.choice(len(options), p=weights / weights.sum()))]
            cells.add(pick)
            del frontier[pick]
            _add_frontier(pick, cells, frontier, max_height, max_width)
        if len(cells) == area and not _has_hole(cells):
            return Region(normalize(cells))


def _add_frontier(cell: Cell, cells: set, frontier: dict, h: int, w: int) -> None:
    r, c = cell
    for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= nb[0] < h and 0 <= nb[1] < w and nb not in cells:
            frontier[nb] = frontier.get(nb, 0) + 1


def _has_hole(cells: set) -> bool:
    """True when some empty cell is enclosed (not connected to the outside)."""
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    outside = {(r, c) for r in range(min(rows) - 1, max(rows) + 2)
               for c in range(min(cols) - 1, max(cols) + 2)} - cells
    return not is_connected(outside)


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


def find_region(seed: np.random.SeedSequence, pieces: str, spec: SideSpec) -> tuple[Region, list, int]:
    """Draw regions until one offers ``spec.tasks`` tiling subsets (phase 1, parallel).

    Parameters
    ----------
    seed : numpy.random.SeedSequence
        This card side's own seed.
    pieces : str
        Piece-set reference (shipped name or path).
    spec : SideSpec

    Returns
    -------
    region : Region
    pool : list of SubsetCount
        Candidate tasks: the uniquely solvable subsets, or, when no region
        offered enough of them in ``spec.attempts`` tries, the subsets of the
        best region with at most ``spec.max_solutions`` solutions.
    tried : int
        Candidate regions examined.

    Raises
    ------
    InputError
        When no region in ``spec.attempts`` tries can supply the tasks.
    """
    rng = np.random.default_rng(seed)
    piece_set = load_pieces(pieces)
    best = None
    for tried in range(1, spec.attempts + 1):
        area = int(rng.choice(spec.areas))
        region = random_region(rng, area, spec.max_height, spec.max_width)
        result = analyze(piece_set.pieces, region, spec.pieces_per_task)
        unique = [s for s in result.subsets if s.count == 1]
        if len(unique) >= spec.tasks:
            return region, unique, tried
        few = [s for s in result.subsets if s.count <= spec.max_solutions]
        if len(few) >= spec.tasks and (best is None or len(unique) > best[2]):
            best = (region, few, len(unique))
    if best is None:
        raise InputError(f"no region with {spec.tasks} tiling {spec.pieces_per_task}-piece subsets found in "
                         f"{spec.attempts} attempts; relax the side's areas or max_solutions")
    return best[0], sorted(best[1], key=lambda s: s.count), spec.attempts


def _card_id(game: str, i: int, width: int) -> str:
    return f"{i + 1:0{width}d}" if game == "classic" else str(i + 1)


def _check_out_dir(out: Path, names: set[str]) -> None:
    """Before any work: ``out`` must be usable, and hold no card file this deck would not replace.

    A card left over from an earlier, larger deck would silently join the
    new one (found by a user's test).
    """
    if out.exists() and not out.is_dir():
        raise InputError("is a file, expected a directory for the deck", path=out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create the deck directory: {exc.strerror or exc}", path=out) from None
    stale = sorted(p.name for p in out.glob("*.toml") if p.name not in names)
    if stale:
        raise InputError(f"holds {len(stale)} card file(s) this deck would not replace (e.g. {stale[0]}); "
                         "choose an empty directory", path=out)


def generate_deck(game: str, out_dir: str | os.PathLike | None, *, seed: int = 0, cards: int | None = None,
                  spec: DeckSpec | None = None, command: str | None = None,
                  progress: Callable[[str], None] | None = None,
                  executor: Executor | None = None) -> list[CardSide]:
    """Generate a whole deck and (optionally) write one TOML file per card side.

    Parameters
    ----------
    game : {"classic", "duel"}
        Which deck layout (see :data:`DECK_SPECS`).
    out_dir : path or None
        Where to write ``<card>_<side>.toml`` files (None: do not write).
    seed : int
        Random seed; the same seed gives the same deck.
    cards : int, optional
        Number of cards (default: 36 classic, 9 Duel).
    spec : DeckSpec, optional
        Override the whole layout.
    command : str, optional
        The command line recorded in each file's header.
    executor : Executor, optional
        Where the per-side region searches run (default: in this process; see
        :mod:`ubongo_cp.executors`); the deck is identical whichever is used.

    Returns
    -------
    list of CardSide

    Raises
    ------
    InputError
        For an unknown game or a layout that cannot be filled.
    """
    if spec is None:
        if game not in DECK_SPECS:
            raise InputError(f"unknown game {game!r}; choose classic or duel")
        spec = DECK_SPECS[game]
    if cards is not None:
        if cards < 1:
            raise InputError(f"the number of cards must be at least 1, got {cards}")
        spec = replace(spec, cards=cards)
    piece_set = load_pieces(spec.pieces)
    width = 2 if spec.cards < 100 else 3
    if out_dir is not None:
        _check_out_dir(Path(out_dir), {f"{_card_id(game, i, width)}_{side}.toml"
                                       for i in range(spec.cards) for side in spec.sides})
    sides = [(i, side, side_spec) for i in range(spec.cards) for side, side_spec in spec.sides.items()]
    # Two seeds per card side: one for its region search, one for picking its tasks.
    children = np.random.SeedSequence(seed).spawn(2 * len(sides))
    command = command or f"ubongo-cp generate --game {game} --seed {seed}"
    start = time.perf_counter()
    # Phase 1 (independent per side, parallel): find a region and its candidate tasks.
    work = [(children[2 * n], spec.pieces, side_spec) for n, (_, _, side_spec) in enumerate(sides)]
    with using(executor) as pool:
        pool.warm(("ubongo_cp.generate",))
        found = pool.map_ordered(find_region, work)
    # Phase 2 (sequential, deterministic): pick tasks so that piece usage spreads over the deck.
    usage: dict[str, int] = {}
    deck: list[CardSide] = []
    for n, ((i, side, side_spec), (region, pool_, tried)) in enumerate(zip(sides, found)):
        card_id = _card_id(game, i, width)
        subsets = _pick_tasks(np.random.default_rng(children[2 * n + 1]), pool_, side_spec.tasks, usage)
        tasks = {face + 1: s.pieces for face, s in enumerate(subsets)}
        meta = {"generator": {"command": command, "seed": seed, "regions_tried": tried,
                              "solutions": [s.count for s in subsets]}}
        card = CardSide(game, card_id, side, spec.pieces, piece_set, region, tasks, None, meta)
        if out_dir is not None:
            path = Path(out_dir) / f"{card_id}_{side}.toml"
            write_card(card, path, header=f"Generated by `{command}`; do not edit by hand.")
            card = replace(card, path=os.fspath(path))
        deck.append(card)
        if progress:
            progress(f"card {card_id} side {side}: {region.area} cells, {tried} region(s) tried, "
                     f"{time.perf_counter() - start:.1f} s")
    return deck
