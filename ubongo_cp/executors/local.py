"""The process-pool executor (``concurrent.futures``), rebuilt when a worker dies.

A unit travels to its worker and back as bytes this module pickles itself
(:func:`_packed`, :func:`_run_packed`): an argument or a result that cannot
be pickled, or not rebuilt from its pickle, fails that unit with one
:class:`~ubongo_cp.errors.UbongoError` saying which, in the caller's thread,
instead of in the pool's own threads and processes (a worker killed with a
traceback on standard error, a pool said to be broken).
"""

from __future__ import annotations

import os
import pickle
from collections import deque
from functools import partial
from typing import Any, Callable, Iterator, Sequence

from ..errors import UbongoError, saying_warnings

from .base import Executor, OnError, _preload, _worker_start, parent_death_signal, workers_argument

__all__ = ["LocalExecutor"]



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
        For ``jobs`` that is not a whole number of at least 1 (:func:`~.base.workers_argument`).
    """

    def __init__(self, jobs: int | None = None) -> None:
        super().__init__()
        self.jobs = workers_argument(jobs)

    @property
    def in_process(self) -> bool:
        """Whether the work runs in the calling process: ``jobs == 1``."""
        return self.jobs == 1

    def map_unordered(self, func: Callable, items: Sequence[tuple], *, on_error: OnError | None = None,
                      nogil: bool = False, one_by_one: bool = False, **kwargs) -> Iterator[Any]:
        """As :meth:`Executor.map_unordered`; in this process when ``jobs == 1``.

        ``kwargs`` reach the workers once, when they are forked (they are
        inherited, not sent with every item), where the workers are forked
        (the default on Linux); elsewhere they travel with every item. With
        ``nogil``, the items run in ``jobs`` threads of this process instead
        (:func:`_map_threads`).
        """
        if self.jobs == 1 or len(items) <= 1:
            for item in items:
                try:
                    yield func(*item, **kwargs)
                except Exception as exc:
                    if on_error is None:
                        raise
                    yield on_error(item, exc)
            return
        if nogil:
            yield from _map_threads(func, items, min(self.jobs, len(items)), on_error, kwargs)
            return
        _preload(self._warm)
        parent_death_signal()  # looked up before the workers fork
        parent = os.getpid()
        token = _share(kwargs)
        if token is not None:  # inherited by the workers forked below
            func, items, kwargs = _call_shared, [(token, func, *item) for item in items], {}
            if on_error is not None:
                on_error = partial(_unshared, on_error)
        try:
            yield from self._run(func, items, on_error, kwargs, parent)
        finally:
            if token is not None:
                _SHARED.pop(token, None)

    def _run(self, func: Callable, items: Sequence[tuple], on_error: OnError | None, kwargs: dict,
             parent: int) -> Iterator[Any]:
        # concurrent.futures.process costs ~0.1 s to import: only on this path.
        import multiprocessing
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
        from concurrent.futures.process import BrokenProcessPool

        todo = deque(range(len(items)))  # items not yet run
        alone: deque[int] = deque()      # suspects of a pool crash: run one at a time
        solo: set[int] = set()
        unsent: list[tuple[int, UbongoError]] = []   # items whose arguments cannot be pickled

        def submit(pool, i: int) -> None:
            packed = _packed(func, items[i], kwargs)
            if isinstance(packed, UbongoError):
                unsent.append((i, packed))
            else:
                running[pool.submit(_run_packed, packed)] = i

        while todo or alone:
            # Workers die with this process and leave Ctrl-C to it (base._worker_start).
            pool = ProcessPoolExecutor(max_workers=min(self.jobs, len(todo) + len(alone)),
                                       mp_context=multiprocessing.get_context(_start_method()),
                                       initializer=_worker_start, initargs=(parent, saying_warnings()))
            running: dict = {}
            broken = False
            try:
                while (todo or alone or running) and not broken:
                    try:
                        if alone:
                            if not running:
                                i = alone.popleft()
                                solo.add(i)
                                submit(pool, i)
                        else:
                            while todo and len(running) < 2 * self.jobs:
                                i = todo.popleft()
                                submit(pool, i)
                    except BrokenProcessPool:
                        # A worker died before this unit could be handed over: the
                        # unit is not a suspect; run it again in the next pool.
                        (alone if i in solo else todo).appendleft(i)
                        solo.discard(i)
                    for i, error in unsent:
                        if on_error is None:
                            raise error
                        yield on_error(items[i], error)
                    unsent.clear()
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
                        except Exception as exc:
                            if on_error is None:
                                raise
                            yield on_error(items[i], exc)
                            continue
                        try:
                            result = pickle.loads(result)
                        except Exception as exc:
                            error = UbongoError(f"a task's result cannot be read back from a worker process "
                                                f"({_why(exc)})")
                            if on_error is None:
                                raise error from exc
                            yield on_error(items[i], error)
                            continue
                        yield result
                alone.extend(running.values())  # lost with the broken pool: suspects too
            except BaseException:
                # Ctrl-C, or the caller stopped early: the workers ignore SIGINT and a unit may run
                # for long, so stop them rather than wait for their units.
                _stop_workers(pool)
                raise
            finally:
                pool.shutdown(wait=True, cancel_futures=True)


def _packed(func: Callable, item: tuple, kwargs: dict) -> bytes | UbongoError:
    """``(func, item, kwargs)`` pickled for :func:`_run_packed`, or the error saying they cannot be."""
    try:
        return pickle.dumps((func, item, kwargs), pickle.HIGHEST_PROTOCOL)
    except Exception as exc:
        return UbongoError(f"a task's arguments cannot be sent to a worker process ({_why(exc)})")


def _run_packed(packed: bytes) -> bytes:
    """In a worker: the unit :func:`_packed` made, run, and its result pickled.

    Raises
    ------
    UbongoError
        When the unit cannot be rebuilt here, or its result cannot be pickled.
    """
    try:
        func, item, kwargs = pickle.loads(packed)
    except Exception as exc:
        raise UbongoError(f"a task's arguments cannot be read in a worker process ({_why(exc)})") from None
    result = func(*item, **kwargs)
    try:
        return pickle.dumps(result, pickle.HIGHEST_PROTOCOL)
    except Exception as exc:
        raise UbongoError(f"a task's result cannot be sent back from a worker process ({_why(exc)})") from None


def _why(exc: BaseException) -> str:
    """An exception in one line: its type and the first line of its message."""
    text = str(exc).splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def _map_threads(func: Callable, items: Sequence[tuple], n_threads: int, on_error: OnError | None,
                 kwargs: dict) -> Iterator[Any]:
    """``func(*item, **kwargs)`` for every item, run by ``n_threads`` daemon threads, in completion order.

    For work that releases the GIL. The threads take the items in order from
    one queue. They are daemon threads: when the caller stops (Ctrl-C, an
    error, a generator closed), no new item starts, and a process that exits
    does not wait for the items still running.
    """
    import queue
    import threading

    todo: queue.SimpleQueue = queue.SimpleQueue()
    done: queue.SimpleQueue = queue.SimpleQueue()
    for i in range(len(items)):
        todo.put(i)
    stop = threading.Event()

    def work() -> None:
        while not stop.is_set():
            try:
                i = todo.get_nowait()
            except queue.Empty:
                return
            try:
                done.put((i, True, func(*items[i], **kwargs)))
            except BaseException as exc:  # handed to the caller's thread
                done.put((i, False, exc))

    threads = [threading.Thread(target=work, name=f"ubongo-cp-worker-{t}", daemon=True) for t in range(n_threads)]
    for t in threads:
        t.start()
    try:
        for _ in range(len(items)):
            i, ok, value = done.get()
            if ok:
                yield value
            elif on_error is None or not isinstance(value, Exception):
                raise value
            else:
                yield on_error(items[i], value)
    finally:
        stop.set()


#: Keyword arguments of the maps running now, by token: forked workers inherit them.
_SHARED: dict[int, dict] = {}


def _start_method() -> str:
    """How the pool starts its workers (:mod:`multiprocessing`): as the process's default, except that a fork
    server's workers (the default from Python 3.14 on Linux) are the server's children, not this process's, and
    each worker ties itself to its parent (:func:`~ubongo_cp.executors.base._worker_start`): they are forked from
    this process instead, where it can fork."""
    import multiprocessing

    method = multiprocessing.get_start_method()
    if method == "forkserver" and "fork" in multiprocessing.get_all_start_methods():
        return "fork"
    return method


def _share(kwargs: dict) -> int | None:
    """Keep ``kwargs`` where workers forked from now on inherit them: their token (None: no kwargs, or no fork)."""
    if not kwargs or _start_method() != "fork":
        return None
    token = max(_SHARED, default=0) + 1
    _SHARED[token] = kwargs
    return token


def _call_shared(token: int, func: Callable, *item):
    """In a forked worker: ``func(*item, **kwargs)`` with the ``kwargs`` of the map ``token``."""
    return func(*item, **_SHARED[token])


def _unshared(on_error: OnError, item: tuple, exc: BaseException):
    """``on_error`` called with the caller's item (without the token and function of :func:`_call_shared`)."""
    return on_error(item[2:], exc)


def _stop_workers(pool) -> None:
    """Terminate the worker processes of a ``ProcessPoolExecutor`` (its ``_processes``, a private
    attribute of every CPython since 3.2; without it, the pool's shutdown waits for the units)."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        try:
            process.terminate()
        except (OSError, AttributeError):  # already gone
            pass
