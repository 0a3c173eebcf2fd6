"""Executors: run independent units of work in this process, a process pool or a Dask cluster.

Library functions that can spread work (``run_batch``, ``generate_deck``,
the game simulators, the Orion tournament, the census) take one
``executor`` argument: an :class:`Executor` object, or ``None`` to run
everything in the calling process. The command line builds the object from
its ``--executor``, ``--jobs`` and ``--scheduler`` options
(:func:`make_executor`); results never depend on which executor ran them.

Every executor offers :meth:`Executor.map_unordered`, which yields each
result as soon as it is ready, so callers can save finished work at once,
and :meth:`Executor.map_ordered`.

- :class:`LocalExecutor`: a :class:`concurrent.futures.ProcessPoolExecutor`
  (``jobs`` processes; ``jobs=1`` runs in the calling process). A worker
  process that dies (killed, out of memory, a crash in native code) breaks
  the pool; the pool is rebuilt, the units that were in flight become
  suspects and are run again one at a time, and a unit that breaks the pool
  on its own is handed to ``on_error``; the others finish normally.
- :class:`DaskExecutor`: a ``dask.distributed`` client, connected to
  ``scheduler`` (e.g. ``tcp://10.0.0.5:8786``) or to a new ``LocalCluster``
  with ``jobs`` single-threaded worker processes (forked, with the modules
  named by :meth:`Executor.warm` preloaded, so that the cluster starts in
  about 0.1 s). The cluster is started, or the scheduler reached, when the
  first work is mapped. Dask reschedules the work of a lost worker itself; a
  unit whose workers keep dying raises ``KilledWorker``, which is handed to
  ``on_error``. Dask would wait for ever on a cluster without workers, so a
  watchdog stops the run after :data:`NO_WORKER_TIMEOUT` seconds without one
  (``UbongoError``); the connection to a scheduler is given
  :data:`CONNECT_TIMEOUT` + 5 seconds.
"""

from __future__ import annotations

import math
import os
import sys
from collections import deque
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

from .errors import InputError, UbongoError

__all__ = ["Executor", "LocalExecutor", "DaskExecutor", "make_executor", "using", "map_chunks", "EXECUTORS"]

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


class LocalExecutor(Executor):
    """Process-pool executor with crash recovery (see the module docstring).

    Parameters
    ----------
    jobs : int, optional
        Worker processes (default: one per core); 1 runs every unit in the
        calling process.

    Raises
    ------
    InputError
        For ``jobs < 1``.
    """

    def __init__(self, jobs: int | None = None) -> None:
        super().__init__()
        if jobs is not None and jobs < 1:
            raise InputError(f"jobs must be at least 1, got {jobs}")
        self.jobs = max(1, jobs or os.cpu_count() or 1)

    def map_unordered(self, func: Callable, items: Sequence[tuple], *, on_error: OnError | None = None,
                      **kwargs) -> Iterator[Any]:
        """As :meth:`Executor.map_unordered`; in this process when ``jobs == 1``."""
        if self.jobs == 1 or len(items) <= 1:
            for item in items:
                try:
                    yield func(*item, **kwargs)
                except Exception as exc:  # noqa: BLE001
                    if on_error is None:
                        raise
                    yield on_error(item, exc)
            return
        # concurrent.futures.process costs ~0.1 s to import: only on this path.
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
        from concurrent.futures.process import BrokenProcessPool

        _preload(self._warm)
        todo = deque(range(len(items)))  # items not yet run
        alone: deque[int] = deque()      # suspects of a pool crash: run one at a time
        solo: set[int] = set()
        while todo or alone:
            pool = ProcessPoolExecutor(max_workers=min(self.jobs, len(todo) + len(alone)))
            running: dict = {}
            broken = False
            try:
                while (todo or alone or running) and not broken:
                    try:
                        if alone:
                            if not running:
                                i = alone.popleft()
                                solo.add(i)
                                running[pool.submit(func, *items[i], **kwargs)] = i
                        else:
                            while todo and len(running) < 2 * self.jobs:
                                i = todo.popleft()
                                running[pool.submit(func, *items[i], **kwargs)] = i
                    except BrokenProcessPool:
                        # A worker died before this unit could be handed over: the
                        # unit is not a suspect; run it again in the next pool.
                        (alone if i in solo else todo).appendleft(i)
                        solo.discard(i)
                    if not running:
                        break
                    finished, _ = wait(running, return_when=FIRST_COMPLETED)
                    for fut in finished:
                        i = running.pop(fut)
                        try:
                            result = fut.result()
                        except BrokenProcessPool as exc:
                            broken = True
                            if i in solo:  # it broke the pool on its own: the culprit
                                if on_error is None:
                                    raise
                                yield on_error(items[i], exc)
                            else:
                                alone.append(i)
                            continue
                        except Exception as exc:  # noqa: BLE001
                            if on_error is None:
                                raise
                            yield on_error(items[i], exc)
                            continue
                        yield result
                alone.extend(running.values())  # lost with the broken pool: suspects too
            finally:
                pool.shutdown(wait=True, cancel_futures=True)



class DaskExecutor(Executor):
    """``dask.distributed`` executor (see module docstring).

    Parameters
    ----------
    jobs : int, optional
        Workers of the LocalCluster started when ``scheduler`` is None
        (default: one per core); ignored with a scheduler.
    scheduler : str, optional
        Address of a running scheduler, e.g. ``tcp://10.0.0.5:8786``.
    worker_timeout : float, optional
        Seconds a run may go without any worker before it stops
        (default :data:`NO_WORKER_TIMEOUT`).

    Raises
    ------
    InputError
        For an empty, malformed or unreachable scheduler address.
    """

    def __init__(self, jobs: int | None = None, scheduler: str | None = None, *,
                 worker_timeout: float | None = None) -> None:
        super().__init__()
        if scheduler is not None and not scheduler.strip():
            raise InputError("the Dask scheduler needs an address, e.g. tcp://10.0.0.5:8786")
        if jobs is not None and jobs < 1:
            raise InputError(f"jobs must be at least 1, got {jobs}")
        self.scheduler = scheduler or None
        self._n_workers = max(1, jobs or os.cpu_count() or 1)
        self.cluster = None
        self._client = None
        self.where = f"at {scheduler}" if scheduler else "in the local cluster"
        self.worker_timeout = NO_WORKER_TIMEOUT if worker_timeout is None else float(worker_timeout)

    @property
    def jobs(self) -> int:  # type: ignore[override]
        """Workers: of the LocalCluster, or those the scheduler had when reached (at least 1)."""
        if self.scheduler is None:
            return self._n_workers
        return max(1, len(self.client.scheduler_info().get("workers", {})))

    @property
    def client(self):
        """The ``distributed.Client``; the cluster is started (or the scheduler reached) on first use.

        Raises
        ------
        InputError
            For a malformed or unreachable scheduler address.
        """
        if self._client is None:
            if self.scheduler:
                _preload(self._warm)
                self._client = _connect(self.scheduler, CONNECT_TIMEOUT)
            else:
                # Workers are forked from this process (not spawned): they start in
                # well under a second with the warmed modules already imported.
                _preload(("distributed", *self._warm))
                import dask
                from dask.distributed import Client, LocalCluster

                _poll_worker_start_faster()
                with dask.config.set(LOCAL_CLUSTER_CONFIG):
                    # The scheduler always serves HTTP (health checks); ":0" takes a free
                    # port instead of 8787, which another Dask may hold.
                    self.cluster = LocalCluster(n_workers=self._n_workers, threads_per_worker=1, processes=True,
                                                dashboard_address=":0", silence_logs=50)
                self._client = Client(self.cluster)
        return self._client

    def map_unordered(self, func: Callable, items: Sequence[tuple], *, on_error: OnError | None = None,
                      **kwargs) -> Iterator[Any]:
        """As :meth:`LocalExecutor.map_unordered`, on the cluster.

        Items travel in batches (about :data:`CHUNKS_PER_JOB` per worker),
        since every Dask task costs a scheduler round trip; a batch that
        fails is re-run item by item, so ``on_error`` still sees the one item
        that failed.
        """
        workers = max(1, len(self.client.scheduler_info().get("workers", {})) or 1)
        n_batches = max(1, min(len(items), CHUNKS_PER_JOB * workers))
        bounds = [(len(items) * b // n_batches, len(items) * (b + 1) // n_batches) for b in range(n_batches)]
        futures = {self.client.submit(_run_batch, func, list(items[a:z]), kwargs, pure=False): (a, z)
                   for a, z in bounds if z > a}
        for fut in self._as_completed(futures):
            a, z = futures[fut]
            try:
                yield from fut.result()
                continue
            except Exception:  # noqa: BLE001 - re-run the batch one item at a time below
                pass
            singles = {self.client.submit(func, *items[i], pure=False, **kwargs): i for i in range(a, z)}
            for single in self._as_completed(singles):
                try:
                    yield single.result()
                except Exception as exc:  # noqa: BLE001 - includes KilledWorker
                    if on_error is None:
                        raise
                    yield on_error(items[singles[single]], exc)

    def _as_completed(self, futures) -> Iterator:
        """The futures as they finish (``distributed.as_completed``), watched.

        Dask waits for ever when a cluster has no worker left (or never had
        one). A watchdog thread checks the worker count every
        :data:`WORKER_CHECK` seconds; after ``worker_timeout`` seconds
        without any worker it cancels the futures, and this raises.

        Raises
        ------
        UbongoError
            When the cluster had no worker for ``worker_timeout`` seconds.
        """
        import threading

        from dask.distributed import as_completed

        stop, lost = threading.Event(), threading.Event()
        watch = threading.Thread(target=self._watch_workers, args=(list(futures), stop, lost),
                                 name="ubongo-cp-worker-watch", daemon=True)
        watch.start()
        try:
            for fut in as_completed(futures):
                if lost.is_set():
                    raise UbongoError(f"no Dask worker {self.where} for {self.worker_timeout:g} s; the tasks "
                                      "finished so far are kept: start workers and run the command again")
                yield fut
        finally:
            stop.set()

    def _watch_workers(self, futures: list, stop, lost) -> None:
        idle = 0.0
        while not stop.wait(WORKER_CHECK):
            try:
                n = len(self.client.scheduler_info().get("workers", {}))
            except Exception:  # noqa: BLE001 - scheduler unreachable: no worker either
                n = 0
            idle = idle + WORKER_CHECK if n == 0 else 0.0
            if idle >= self.worker_timeout:
                lost.set()
                self.client.cancel([f for f in futures if not f.done()])
                return

    def close(self) -> None:
        """Close the client and the cluster this executor started (if it started them)."""
        if self._client is not None:
            self._client.close()
            self._client = None
        if self.cluster is not None:
            self.cluster.close()
            self.cluster = None


#: Seconds to wait for a Dask scheduler to answer (connection and handshake).
CONNECT_TIMEOUT = 10.0
#: Seconds a Dask run waits while its cluster has no worker before it stops.
NO_WORKER_TIMEOUT = 120.0
#: Seconds between two checks of the worker count during a Dask run.
WORKER_CHECK = 1.0


def _connect(address: str, timeout: float):
    """A ``distributed.Client`` connected to ``address``.

    The connection is made in a daemon thread and given ``timeout`` + 5
    seconds: ``distributed``'s own timeout covers the TCP connection only,
    so a server that accepts it but never answers the Dask handshake (a web
    server, a dashboard port) would otherwise block for ever.

    Raises
    ------
    InputError
        For a malformed or unreachable address, or no answer in time.
    """
    import threading

    from dask.distributed import Client

    box: dict[str, Any] = {}

    def connect() -> None:
        try:
            box["client"] = Client(address, timeout=f"{timeout}s")
        except BaseException as exc:  # noqa: BLE001 - handed to the caller below
            box["error"] = exc

    thread = threading.Thread(target=connect, name="ubongo-cp-dask-connect", daemon=True)
    thread.start()
    thread.join(timeout + 5)
    if "client" in box:
        return box["client"]
    exc = box.get("error")
    if exc is None:
        raise InputError(f"no answer from a Dask scheduler at {address} within {timeout + 5:g} s "
                         "(is this the scheduler's address, e.g. tcp://10.0.0.5:8786?)")
    if isinstance(exc, (OSError, TimeoutError, ValueError, TypeError)):
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise InputError(f"cannot reach dask scheduler {address}: {reason}") from None
    raise exc


#: Dask configuration of the LocalCluster this module starts (not of a cluster
#: reached with ``scheduler``). Every value is a documented ``distributed``
#: option: workers forked from this process (solver modules already loaded);
#: no statistical profiler sampling the task thread every 10 ms and no work
#: stealing (units arrive in even batches), both of which cost CPU that the
#: two workers need; the event-loop, system and memory monitors every second
#: instead of every 20, 500 and 100 ms (memory limits are still enforced).
#: Together about 0.09 s off the classic batch run in a warm process (0.79 to
#: 0.70 s, median of 6, cluster start included), measured while tuning.
LOCAL_CLUSTER_CONFIG = {
    "distributed.worker.multiprocessing-method": "fork",
    "distributed.worker.profile.enabled": False,
    "distributed.scheduler.work-stealing": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "1s",
    "distributed.worker.memory.monitor-interval": "1s",
}

#: Seconds between a Nanny's checks that its forked worker has started
#: (distributed's own value is 0.05 s; not a configuration option).
WORKER_START_POLL = 0.005


def _poll_worker_start_faster() -> None:
    """Let each Nanny notice its new worker sooner.

    A ``distributed`` Nanny polls a queue for its worker's start-up message
    every ``WorkerProcess._init_msg_interval`` seconds (``distributed/nanny.py``,
    50 ms), while a forked worker is up in about 40 ms. Polling every 5 ms
    cuts start, one task and close of a 2-worker LocalCluster from 0.16 to
    0.10 s (median of 6; ``benchmarks/bench_main.py`` times it as "dask
    LocalCluster round trip"). The attribute is private; if a later
    ``distributed`` drops it, this does nothing.
    """
    from distributed.nanny import WorkerProcess

    if isinstance(getattr(WorkerProcess, "_init_msg_interval", None), (int, float)):
        WorkerProcess._init_msg_interval = WORKER_START_POLL


def _run_batch(func: Callable, items: list, kwargs: dict) -> list:
    """Run ``func`` over a batch of items in one Dask task."""
    return [func(*item, **kwargs) for item in items]


def make_executor(kind: str = "local", *, jobs: int | None = None, scheduler: str | None = None) -> Executor:
    """An executor of ``kind``: ``"local"`` (:class:`LocalExecutor`) or ``"dask"`` (:class:`DaskExecutor`).

    A scheduler address implies ``"dask"``. Use the result as a context
    manager (``with make_executor(...) as ex:``) so that it is closed.

    Raises
    ------
    InputError
        For an unknown kind or ``jobs < 1``.
    """
    if scheduler is not None and kind == "local":
        kind = "dask"
    if kind == "local":
        return LocalExecutor(jobs)
    if kind == "dask":
        return DaskExecutor(jobs, scheduler)
    raise InputError(f"unknown executor {kind!r}; choose one of {', '.join(EXECUTORS)}")


@contextmanager
def using(executor: Executor | None) -> Iterator[Executor]:
    """``executor`` itself (left open), or an in-process :class:`LocalExecutor` for ``None``."""
    yield LocalExecutor(1) if executor is None else executor


# --------------------------------------------------------------------------
# Chunks of independent work (e.g. games) on an executor
# --------------------------------------------------------------------------

#: Chunks per worker when the games run in parallel (balances uneven chunks).
CHUNKS_PER_JOB = 4
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
