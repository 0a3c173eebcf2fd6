"""The executor interface: what every executor offers, and module preloading."""

from __future__ import annotations

import sys
from typing import Any, Callable, Iterator, Sequence



__all__ = ["CHUNKS_PER_JOB", "EXECUTORS", "Executor"]


#: Names of the executor kinds (:func:`~ubongo_cp.executors.make_executor`).
EXECUTORS = ("local", "dask")


OnError = Callable[[tuple, BaseException], Any]


def _preload(modules: Sequence[str] = ()) -> None:
    """Import ``modules`` before worker processes are forked.

    The imports run with the cyclic garbage collector paused, and what they
    loaded is then moved to the permanent generation with :func:`gc.freeze`:
    module objects live as long as the process, so collecting them is wasted
    work (about 0.1 s here), and frozen objects are never touched by a forked
    worker's collections, so their pages stay shared. This is the recipe of
    the Python documentation for :func:`gc.freeze` ("gc.disable() early in
    the parent process, gc.freeze() right before fork()").
    """
    import gc
    import importlib

    modules = [m for m in modules if m not in sys.modules]
    if not modules:
        return
    enabled = gc.isenabled()
    gc.disable()
    try:
        for module in modules:
            importlib.import_module(module)
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


class Executor:
    """What every executor offers (see the module docstring).

    An executor is a context manager: leaving the ``with`` block closes it.

    Attributes
    ----------
    jobs : int
        Number of workers (for a cluster reached by address: those it had
        when first asked, at least 1).
    """

    jobs: int = 1

    def __init__(self) -> None:
        self._warm: list[str] = []

    def warm(self, modules: Sequence[str]) -> None:
        """Name modules the work will import, so workers start with them loaded.

        Call it before the first map: a process pool forks its workers, and a
        local Dask cluster is started, after importing them here (see
        :func:`_preload`). Harmless afterwards (the modules are just imported).
        """
        self._warm.extend(m for m in modules if m not in self._warm)

    def map_unordered(self, func: Callable, items: Sequence[tuple], *, on_error: OnError | None = None,
                      **kwargs) -> Iterator[Any]:
        """Yield ``func(*item, **kwargs)`` for every item, in completion order.

        Exceptions raised by ``func`` are passed to ``on_error(item, exc)``,
        whose return value is yielded instead; without ``on_error`` they
        propagate.
        """
        raise NotImplementedError

    def map_ordered(self, func: Callable, items: Sequence[tuple], **kwargs) -> list[Any]:
        """``[func(*item, **kwargs) for item in items]``, computed by this executor (errors propagate)."""
        tagged = [(i, func, item, kwargs) for i, item in enumerate(items)]
        results: list[Any] = [None] * len(items)
        for i, value in self.map_unordered(_call_tagged, tagged):
            results[i] = value
        return results

    def close(self) -> None:
        """Release what the executor holds (workers, connections)."""

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _call_tagged(i: int, func: Callable, item: tuple, kwargs: dict):
    return i, func(*item, **kwargs)


#: Chunks per worker when the games run in parallel (balances uneven chunks).
CHUNKS_PER_JOB = 4
