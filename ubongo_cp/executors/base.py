"""The executor interface: what every executor offers, module preloading, and the workers' ties to their parent."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["CHUNKS_PER_JOB", "Executor", "ORPHAN_CHECK", "workers_argument"]

#: Seconds between a worker's checks that its parent still lives, where the
#: operating system cannot signal the worker itself (not Linux).
ORPHAN_CHECK = 1.0


#: ``on_error(item, exception)``: called for a unit of work that failed; what it returns is not used.
OnError = Callable[[tuple, BaseException], object]


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


def workers_argument(jobs) -> int:
    """The number of workers an executor is asked for: ``jobs`` as an int (a whole number of at least 1), or one
    per core for ``None``.

    Raises
    ------
    InputError
        For anything but ``None`` or a whole number of at least 1 (``0``, ``2.5``, ``"2"``).

    Examples
    --------
    >>> workers_argument(2)
    2
    >>> workers_argument("2")
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: jobs must be a whole number of at least 1, got '2'
    """
    from ..errors import whole_argument

    if jobs is None:
        return max(1, os.cpu_count() or 1)
    return whole_argument("jobs", jobs, 1)


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

    @property
    def in_process(self) -> bool:
        """Whether the work runs in the calling process, one item after another (a local pool of one job);
        False for every executor with workers, a Dask cluster of one worker among them."""
        return False

    def warm(self, modules: Sequence[str]) -> None:
        """Name modules the work will import, so workers start with them loaded.

        Call it before the first map: a process pool forks its workers, and a
        local Dask cluster is started, after importing them here (see
        :func:`_preload`). Harmless afterwards (the modules are just imported).
        """
        self._warm.extend(m for m in modules if m not in self._warm)

    def connect(self) -> None:
        """Reach the executor's workers now rather than at the first map (nothing to do for a local pool).

        A command that writes an output folder calls it first, so that an
        unreachable cluster stops it before anything is written.

        Raises
        ------
        InputError
            When the workers cannot be reached (a Dask scheduler's address).
        """

    def map_unordered(self, func: Callable, items: Sequence[tuple], *, on_error: OnError | None = None,
                      nogil: bool = False, one_by_one: bool = False, **kwargs) -> Iterator[Any]:
        """Yield ``func(*item, **kwargs)`` for every item, in completion order.

        Exceptions raised by ``func`` are passed to ``on_error(item, exc)``,
        whose return value is yielded instead; without ``on_error`` they
        propagate. ``kwargs`` are the same for every item: executors send
        them to each worker once. ``nogil``: ``func`` spends its time in
        native code that releases the GIL (the C search kernels), so a local
        executor may run the items in threads of this process (no process
        to start, nothing to copy); other executors ignore it.
        ``one_by_one``: each result is wanted as soon as its item is done
        (the caller journals it), so an executor that sends items in batches
        sends each alone; the local executors always do.
        """
        raise NotImplementedError

    def map_ordered(self, func: Callable, items: Sequence[tuple], **kwargs) -> list[Any]:
        """``[func(*item, **kwargs) for item in items]``, computed by this executor (errors propagate)."""
        tagged = [(i, func, item) for i, item in enumerate(items)]
        results: list[Any] = [None] * len(items)
        for i, value in self.map_unordered(_call_tagged, tagged, **kwargs):
            results[i] = value
        return results

    def close(self) -> None:
        """Release what the executor holds (workers, connections)."""

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _worker_start(parent: int, say: bool = False) -> None:
    """Tie a worker process the toolkit started to its parent ``parent`` (run first thing in the worker).

    - The worker dies with its parent, however the parent ends (``kill -9``
      included): on Linux the kernel sends it SIGKILL when the parent exits
      (``prctl(PR_SET_PDEATHSIG)``, see prctl(2)); elsewhere a daemon thread
      checks every :data:`ORPHAN_CHECK` seconds whether it was orphaned. A
      parent that died before this ran is caught by comparing the parent id.
    - Ctrl-C in a terminal signals every process of the foreground group:
      the worker ignores SIGINT, so that only the parent reacts (it stops the
      workers itself and prints one line) instead of every worker printing a
      traceback.
    - ``say`` (the parent's :func:`~ubongo_cp.errors.saying_warnings`): the
      worker says the toolkit's own warnings as one line, as the parent
      does (:func:`~ubongo_cp.errors.say_warnings`); a forked worker
      inherits it, one started afresh (spawn, the default on macOS) not.
    """
    import signal  # here: the module makes its enumerations when imported, which no counting command needs

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if say:
        from ..errors import say_warnings

        say_warnings()
    prctl = parent_death_signal()
    if prctl is not None:
        prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    else:  # pragma: no cover - not Linux
        _watch_parent(parent)
    if os.getppid() != parent:  # the parent died before the tie was made
        os._exit(1)


_PRCTL: list = []


def parent_death_signal() -> Callable | None:
    """The C library's ``prctl`` (Linux), or None where there is none; looked up once per process.

    Look it up in the parent before forking (the executors do): a child
    forked while another thread of the parent holds the dynamic loader's
    lock would wait for ever on its first ``dlopen``.
    """
    if not _PRCTL:
        prctl = None
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                prctl = ctypes.CDLL(None, use_errno=True).prctl
            except (OSError, AttributeError):  # pragma: no cover - no prctl: the parent watch is used
                prctl = None
        _PRCTL.append(prctl)
    return _PRCTL[0]


def _watch_parent(parent: int) -> None:
    import threading

    def watch() -> None:
        import time

        while os.getppid() == parent:
            time.sleep(ORPHAN_CHECK)
        os._exit(1)

    threading.Thread(target=watch, name="ubongo-cp-parent-watch", daemon=True).start()


class _ForkedWorkers:
    """While at least one toolkit-started Dask cluster is open, processes forked from this one are tied to it.

    ``distributed`` forks its worker processes itself (and forks a new one
    when a worker dies), so the tie is made by an after-fork hook of
    :mod:`multiprocessing` (``multiprocessing.util.register_after_fork``),
    which runs in every child a ``multiprocessing.Process`` forks; it acts only
    while a cluster the toolkit started is open.
    """

    def __init__(self) -> None:
        self.open = 0
        self.parent = os.getpid()
        self._registered = False

    def __enter__(self) -> "_ForkedWorkers":
        parent_death_signal()  # resolved here, before any fork
        if not self._registered:
            from multiprocessing import util

            util.register_after_fork(self, _ForkedWorkers._after_fork)
            self._registered = True
        self.open += 1
        self.parent = os.getpid()
        return self

    def __exit__(self, *exc) -> None:
        self.open -= 1

    def _after_fork(self) -> None:
        if self.open > 0:
            parent, self.open, self.parent = self.parent, 0, os.getpid()
            _worker_start(parent)


#: The hook of toolkit-started Dask clusters (see :class:`_ForkedWorkers`).
FORKED_WORKERS = _ForkedWorkers()


def _call_tagged(i: int, func: Callable, item: tuple, **kwargs):
    return i, func(*item, **kwargs)


#: Chunks per worker when the games run in parallel (balances uneven chunks).
CHUNKS_PER_JOB = 4
