"""Many small units (simulated games) as chunks over an executor, with a progress bar."""

from __future__ import annotations

import math
from typing import Callable


from .base import CHUNKS_PER_JOB, Executor
from .factory import using
from .local import LocalExecutor

__all__ = ["PROGRESS_CHUNK", "map_chunks"]




#: Games per chunk when a progress bar is shown in-process (so that it moves).
PROGRESS_CHUNK = 50


def _run_chunk(start: int, stop: int, func: Callable, args: tuple) -> tuple[int, int, list]:
    return start, stop, func(*args)


def map_chunks(func: Callable[..., list], games: int, chunk_args: Callable[[int, int], tuple], *,
               executor: Executor | None = None, progress: bool = False, desc: str = "games",
               unit: str = "game") -> list:
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
        :data:`CHUNKS_PER_JOB` chunks per worker.
    progress : bool
        Show a tqdm bar counting finished games.

    Returns
    -------
    list
        The rows of all chunks, chunk by chunk in game order.

    Examples
    --------
    >>> map_chunks(list, 5, lambda a, b: (range(a, b),))
    [0, 1, 2, 3, 4]
    """
    with using(executor) as ex:
        in_process = isinstance(ex, LocalExecutor) and ex.jobs == 1
        k = 1 if in_process else CHUNKS_PER_JOB * ex.jobs
        if progress:
            k = max(k, math.ceil(games / PROGRESS_CHUNK))
        k = max(1, min(games, k))
        bounds = [(games * i // k, games * (i + 1) // k) for i in range(k)]
        items = [(a, b, func, chunk_args(a, b)) for a, b in bounds]
        bar = None
        if progress:
            from tqdm import tqdm
            bar = tqdm(total=games, desc=desc, unit=unit)
        parts = []
        try:
            for a, b, rows in ex.map_unordered(_run_chunk, items):
                parts.append((a, rows))
                if bar is not None:
                    bar.update(b - a)
        finally:
            if bar is not None:
                bar.close()
    parts.sort(key=lambda part: part[0])
    return [row for _, rows in parts for row in rows]
