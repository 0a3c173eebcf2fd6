"""Many small units (simulated games) as chunks over an executor, with a progress bar."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable

from .base import CHUNKS_PER_JOB, Executor
from .factory import using

if TYPE_CHECKING:
    from ..games.journal import GameJournal

__all__ = ["PROGRESS_CHUNK", "map_chunks"]




#: Games per chunk when a progress bar is shown in-process (so that it moves).
PROGRESS_CHUNK = 50


def _run_chunk(start: int, stop: int, func: Callable, args: tuple) -> tuple[int, int, list]:
    return start, stop, func(*args)


def map_chunks(func: Callable[..., list], games: int, chunk_args: Callable[[int, int], tuple], *,
               executor: Executor | None = None, progress: bool = False, desc: str = "games",
               unit: str = "game", journal: GameJournal | None = None) -> list:
    """Run games ``0 .. games-1`` in chunks on an executor; return all rows in game order.

    Parameters
    ----------
    func : callable
        Top-level (picklable) function; ``func(*chunk_args(start, stop))``
        plays games ``start .. stop-1`` and returns their rows (a list).
    games : int
        Number of games.
    chunk_args : callable
        ``chunk_args(start, stop)`` gives the arguments of one chunk; called
        in this process.
    executor : Executor, optional
        Where the chunks run (default: in this process); about
        :data:`CHUNKS_PER_JOB` chunks per worker. With a ``journal`` or
        ``progress``, each chunk is sent alone (``one_by_one``), so that its
        rows come back as soon as it is played.
    progress : bool
        Show a tqdm bar counting finished games.
    journal : GameJournal, optional
        Keep the rows of each chunk in this journal as it finishes, in
        chunks of at most its ``games_per_line`` games, and play only the
        games it does not hold (:mod:`ubongo_cp.games.journal`); their rows
        are taken from it (a journal of more games gives the first ``games``).

    Returns
    -------
    list
        The rows of all chunks, chunk by chunk in game order.

    Raises
    ------
    InputError
        For a journal that cannot be read as one of these games, or written.

    Examples
    --------
    >>> map_chunks(list, 5, lambda a, b: (range(a, b),))
    [0, 1, 2, 3, 4]
    """
    if journal is None:
        return _in_order(_map_chunks(func, [(0, games)], chunk_args, executor, progress, desc, unit, None))
    with journal:
        done = [(first, min(last, games), _first_games(rows, last - first, games - first))
                for first, (last, rows) in sorted(journal.done.items()) if first < games]
        todo, start = [], 0
        for first, last, _ in done:
            if start < first:
                todo.append((start, first))
            start = last
        if start < games:
            todo.append((start, games))
        parts = _map_chunks(func, todo, chunk_args, executor, progress, desc, unit, journal)
    return _in_order(parts + [(first, rows) for first, _, rows in done])


def _first_games(rows: list, count: int, keep: int) -> list:
    """The rows of the first ``keep`` of ``count`` games whose rows are ``rows`` (as many rows each)."""
    return rows if keep >= count else rows[:keep * len(rows) // count]


def _in_order(parts: list[tuple[int, list]]) -> list:
    """The rows of ``(start, rows)`` chunks, chunk by chunk in game order."""
    parts.sort(key=lambda part: part[0])
    return [row for _, rows in parts for row in rows]


def _map_chunks(func: Callable[..., list], todo: list[tuple[int, int]], chunk_args: Callable[[int, int], tuple],
                executor: Executor | None, progress: bool, desc: str, unit: str,
                journal: GameJournal | None) -> list[tuple[int, list]]:
    """:func:`map_chunks` of the runs of games ``todo`` (``(start, stop)`` each): ``(start, rows)`` per chunk, in
    the order they finish; with a ``journal``, each journaled as it finishes."""
    games = sum(b - a for a, b in todo)
    if not games:   # every game on record
        return []
    with using(executor) as ex:
        in_process = ex.in_process
        k = 1 if in_process else CHUNKS_PER_JOB * ex.jobs
        if progress:
            k = max(k, math.ceil(games / PROGRESS_CHUNK))
        if journal is not None:
            k = max(k, math.ceil(games / journal.games_per_line))
        k = max(1, min(games, k))
        bounds = []
        for a, b in todo:   # each run of games in about its share of the k chunks
            n = max(1, min(b - a, round(k * (b - a) / games)))
            bounds += [(a + (b - a) * i // n, a + (b - a) * (i + 1) // n) for i in range(n)]
        items = [(a, b, func, chunk_args(a, b)) for a, b in bounds]
        bar = None
        if progress:
            from tqdm import tqdm
            bar = tqdm(total=games, desc=desc, unit=unit)
        parts = []
        try:
            # one_by_one: each chunk's rows wanted as soon as it is played (journaled, counted by the bar), not when
            # the batch of chunks an executor sends together is played
            for a, b, rows in ex.map_unordered(_run_chunk, items, one_by_one=journal is not None or progress):
                if journal is not None:
                    rows = journal.append(a, b, rows)
                parts.append((a, rows))
                if bar is not None:
                    bar.update(b - a)
        finally:
            if bar is not None:
                bar.close()
    return parts
