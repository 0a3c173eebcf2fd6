"""The Dask executor: a ``dask.distributed`` client on a scheduler or a new LocalCluster."""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Sequence

from ..errors import InputError, UbongoError

from .base import CHUNKS_PER_JOB, FORKED_WORKERS, Executor, OnError, _preload, workers_argument

__all__ = ["DaskExecutor", "CONNECT_TIMEOUT", "NO_WORKER_TIMEOUT", "WORKER_CHECK", "LOCAL_CLUSTER_CONFIG", "WORKER_START_POLL",
           "START_TIMEOUT"]


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
    dashboard : bool
        Serve the LocalCluster's dashboard (on 127.0.0.1, a free port; its
        address is printed on standard error). Off by default; ignored with
        ``scheduler``.

    Notes
    -----
    The LocalCluster started here binds every socket (scheduler, nannies,
    workers, the scheduler's HTTP endpoint) to 127.0.0.1; its worker
    processes die with this process and ignore Ctrl-C, which this process
    handles (:func:`~ubongo_cp.executors.base._worker_start`); it must start
    within :data:`START_TIMEOUT` seconds. When the first work mapped is
    ``nogil`` (native code that releases the GIL: one count split into
    subtrees), its ``jobs`` workers are threads of this process instead
    (``LocalCluster(processes=False)``, as Dask advises for code that
    releases the GIL): nothing to fork, nothing to copy, the same Dask
    scheduler, futures and dashboard. Work that is not ``nogil`` mapped on
    such a cluster later gets a cluster of worker processes in its place.

    Raises
    ------
    InputError
        For an empty, malformed or unreachable scheduler address, or ``jobs`` that is not a whole number of at
        least 1 (:func:`~.base.workers_argument`).
    """

    def __init__(self, jobs: int | None = None, scheduler: str | None = None, *,
                 worker_timeout: float | None = None, dashboard: bool = False) -> None:
        super().__init__()
        if scheduler is not None and not scheduler.strip():
            raise InputError("the Dask scheduler needs an address, e.g. tcp://10.0.0.5:8786")
        self._n_workers = workers_argument(jobs)
        self.scheduler = scheduler or None
        self.cluster = None
        self._client = None
        self.where = f"at {scheduler}" if scheduler else "in the local cluster"
        self.worker_timeout = NO_WORKER_TIMEOUT if worker_timeout is None else float(worker_timeout)
        self.dashboard = bool(dashboard)
        self._tie = None
        self._threads = False  # the LocalCluster's workers are threads of this process

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
                self.cluster, self._client = _start_local_cluster(self._n_workers, self._warm, self.dashboard,
                                                                  START_TIMEOUT, threads=self._threads)
                if not self._threads:
                    self._tie = FORKED_WORKERS  # entered by _start_local_cluster; left in close()
                if self.dashboard:
                    print(f"Dask dashboard: {self._client.dashboard_link}", file=sys.stderr, flush=True)
        return self._client

    def connect(self) -> None:
        """Reach the scheduler now (with an address; a LocalCluster is still started at the first map, when it is
        known whether its workers are threads or processes).

        Raises
        ------
        InputError
            For a malformed or unreachable scheduler address.
        """
        if self.scheduler:
            with _quiet("distributed.client", "distributed.batched"):   # as at a first map
                self.client  # noqa: B018 - connects

    def map_unordered(self, func: Callable, items: Sequence[tuple], *, on_error: OnError | None = None,
                      nogil: bool = False, one_by_one: bool = False, **kwargs) -> Iterator[Any]:
        """As :meth:`LocalExecutor.map_unordered`, on the cluster.

        Items travel in batches (about :data:`CHUNKS_PER_JOB` per worker),
        since every Dask task costs a scheduler round trip; a batch that
        fails is re-run item by item, so ``on_error`` still sees the one item
        that failed. ``nogil`` items (already sized for the workers) and
        ``one_by_one`` items (each result journaled, or counted by a progress
        bar, as soon as it is done) are one Dask task each; on a LocalCluster started for ``nogil`` items
        its workers are threads (see the class's notes).

        Raises
        ------
        UbongoError
            When the connection to the scheduler is lost (the results
            yielded so far stand), or the cluster has no worker for
            ``worker_timeout`` seconds.
        """
        from asyncio import CancelledError

        if self.scheduler is None:
            if self._client is None:
                self._threads = nogil
            elif self._threads and not nogil:  # Python work needs processes: a new cluster of them
                self.close()
                self._threads = False
        try:
            # their reconnection attempts and the closed comms behind them; a lost scheduler is said below
            with _quiet("distributed.client", "distributed.batched"):
                yield from self._map(func, items, on_error, kwargs, nogil or one_by_one)
        except (Exception, CancelledError) as exc:
            if isinstance(exc, UbongoError) or not self._lost():
                raise
            raise UbongoError(f"lost the connection to the Dask scheduler {self.where} "
                              f"({type(exc).__name__}); the work finished so far is kept: "
                              "run the command again once the scheduler is back") from None

    def _lost(self) -> bool:
        """Whether the client has lost its scheduler (closed, or trying to reconnect)."""
        return self._client is not None and self._client.status not in ("running", "newly-created")

    def _map(self, func: Callable, items: Sequence[tuple], on_error: OnError | None, kwargs: dict,
             singly: bool = False) -> Iterator[Any]:
        workers = max(1, len(self.client.scheduler_info().get("workers", {})) or 1)
        # Batches save the scheduler's round trips on many small items; work marked nogil comes as tasks
        # already sized for the workers (a few per worker), and journaled work wants each result at once:
        # those run one per Dask task, taken as workers free up.
        n_batches = len(items) if singly else max(1, min(len(items), CHUNKS_PER_JOB * workers))
        bounds = [(len(items) * b // n_batches, len(items) * (b + 1) // n_batches) for b in range(n_batches)]
        if kwargs:  # sent to every worker once, not with every batch: there must be one (Dask's scatter waits 2 s)
            try:
                self.client.wait_for_workers(1, timeout=self.worker_timeout)
            except TimeoutError:
                raise self._no_worker() from None
            kwargs = self.client.scatter(kwargs, broadcast=True, hash=False)
        futures = {self.client.submit(_run_batch, func, list(items[a:z]), kwargs, pure=False): (a, z)
                   for a, z in bounds if z > a}
        for fut in self._as_completed(futures):
            a, z = futures[fut]
            try:
                yield from fut.result()
                continue
            except Exception:  # re-run the batch one item at a time below
                if self._lost():
                    raise
            singles = {self.client.submit(func, *items[i], pure=False, **kwargs): i for i in range(a, z)}
            for single in self._as_completed(singles):
                try:
                    yield single.result()
                except Exception as exc:  # KilledWorker included
                    if on_error is None or self._lost():
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
                    raise self._no_worker()
                yield fut
        finally:
            stop.set()

    def _no_worker(self) -> UbongoError:
        """The error of a run whose cluster had no worker for ``worker_timeout`` seconds."""
        return UbongoError(f"no Dask worker {self.where} for {self.worker_timeout:g} s; the tasks "
                           "finished so far are kept: start workers and run the command again")

    def _watch_workers(self, futures: list, stop, lost) -> None:
        idle = 0.0
        while not stop.wait(WORKER_CHECK):
            try:
                n = len(self.client.scheduler_info().get("workers", {}))
            except Exception:
                n = 0
            idle = idle + WORKER_CHECK if n == 0 else 0.0
            if idle >= self.worker_timeout:
                lost.set()
                self.client.cancel([f for f in futures if not f.done()])
                return

    def __exit__(self, exc_type, *exc) -> None:
        """Close; when the block ends in an exception (Ctrl-C included), first kill the LocalCluster's workers.

        A closing cluster otherwise lets each worker finish the task it is running, which can take as long
        as one task of the work.
        """
        if exc_type is not None and self.cluster is not None:
            _kill_workers(self.cluster)
        self.close()

    def close(self) -> None:
        """Close the client and the cluster this executor started (if it started them)."""
        try:
            with _quiet():
                if self._client is not None:
                    self._client.close()
                    self._client = None
                if self.cluster is not None:
                    self.cluster.close()
                    self.cluster = None
        finally:
            if self._tie is not None:
                self._tie.__exit__(None, None, None)
                self._tie = None


#: Seconds to wait for a Dask scheduler to answer (connection and handshake).
CONNECT_TIMEOUT = 10.0


#: Seconds a toolkit-started LocalCluster may take to start with all its workers
#: (it takes about 0.1 s; a worker that hangs while starting would otherwise hold
#: the run for ever).
START_TIMEOUT = 60.0


def _start_local_cluster(n_workers: int, warm: Sequence[str], dashboard: bool, timeout: float, *,
                         threads: bool = False):
    """Start a LocalCluster of ``n_workers`` and a client, all on 127.0.0.1, within ``timeout`` seconds.

    With ``threads``, the workers are threads of this process (``processes=False``; the scheduler and
    workers talk in-process, the dashboard alone listens on 127.0.0.1): nothing below about forking
    applies.

    Workers are forked from this process (not spawned): they start in well
    under a second with the warmed modules already imported, and are tied to
    this process (:data:`~.base.FORKED_WORKERS`). A fork from a process with
    threads can, rarely, leave a child waiting on a lock no thread of it will
    release (POSIX ``fork``): so the start is given half of ``timeout``, and
    a start that did not finish by then is stopped (its workers killed) and
    made once more with the other half.

    Raises
    ------
    UbongoError
        When the cluster and its workers are not up within ``timeout`` seconds.
    """
    _preload(("distributed", *warm))
    if not threads:
        _poll_worker_start_faster()
    where = []
    for _attempt in range(2):
        started = _start_once(n_workers, dashboard, timeout / 2, threads)
        if not isinstance(started, str):
            return started
        where.append(started)
    raise UbongoError(f"the local Dask cluster did not start within {timeout:g} s (stopped while "
                      f"{' and then while '.join(dict.fromkeys(where))}; its workers were stopped); run the command "
                      "again, or use --executor local")


def _start_once(n_workers: int, dashboard: bool, timeout: float, threads: bool = False):
    """One start of the cluster (see :func:`_start_local_cluster`): ``(cluster, client)``, or, if it hung, what
    it was doing then (``"creating the cluster"``, ``"connecting a client"``, ``"waiting for its workers"``).

    The start runs in a daemon thread that is given ``timeout`` seconds: past
    it, the workers started so far are killed and what did start is closed.

    Raises
    ------
    Exception
        What the start raised, when it failed rather than hung.
    """
    import multiprocessing
    import threading

    import dask
    from dask.distributed import Client, LocalCluster

    before = {p.pid for p in multiprocessing.active_children()}
    box: dict[str, Any] = {}
    lock = threading.Lock()

    def start() -> None:
        try:
            with dask.config.set(LOCAL_CLUSTER_CONFIG):
                # Every socket on 127.0.0.1. The scheduler always serves HTTP (health
                # checks): on a free local port; the dashboard's pages only when asked.
                where = {} if threads else {"host": "127.0.0.1"}  # threads talk in-process (inproc://)
                box["phase"] = "creating the cluster"
                box["cluster"] = LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=not threads,
                                              dashboard_address="127.0.0.1:0", silence_logs=50,
                                              scheduler_kwargs={"dashboard": dashboard}, **where)
                box["phase"] = "connecting a client"
                box["client"] = Client(box["cluster"], timeout=f"{timeout}s")
                box["phase"] = "waiting for its workers"
                box["client"].wait_for_workers(n_workers, timeout=timeout)
        except TimeoutError:  # some worker did not register in time: as a hang
            box["late"] = True
        except BaseException as exc:  # handed to the caller below
            box["error"] = exc
        finally:
            with lock:
                box["done"] = True
                abandoned = box.get("abandoned", False)
            if abandoned:  # the caller gave up waiting: stop what did start
                _close_started(box, threads)

    if not threads:
        FORKED_WORKERS.__enter__()
    thread = threading.Thread(target=start, name="ubongo-cp-dask-start", daemon=True)
    thread.start()
    thread.join(timeout)
    with lock:
        hung = not box.get("done")
        box["abandoned"] = hung
    if hung or "error" in box or "late" in box:
        for child in multiprocessing.active_children():
            if child.pid not in before:
                child.kill()
        if not hung:
            _close_started(box, threads)
        if "error" in box:
            raise box["error"]
        return box.get("phase", "starting")
    return box["cluster"], box["client"]


def _kill_workers(cluster) -> None:
    """SIGKILL the worker processes of a LocalCluster this process started (its nannies' processes).

    Workers that are threads of this process are closed without waiting for the task they run (their
    threads are daemon threads: the task goes on until it ends, or until this process exits).
    """
    import signal

    from distributed import Worker

    for nanny in list(getattr(cluster, "workers", {}).values()):
        if isinstance(nanny, Worker):
            with _quiet():
                try:
                    cluster.sync(nanny.close, executor_wait=False, timeout=5)
                except Exception:  # already closing
                    pass
            continue
        pid = getattr(getattr(nanny, "process", None), "pid", None)
        if pid:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:  # already gone
                pass


def _close_started(box: dict, threads: bool = False) -> None:
    """Close the client and cluster of a start that failed or was given up, and untie its workers."""
    with _quiet():
        for key in ("client", "cluster"):
            if key in box:
                try:
                    box[key].close(timeout=5)
                except Exception:  # closing what failed to start
                    pass
    if not threads:
        FORKED_WORKERS.__exit__(None, None, None)


@contextmanager
def _quiet(*names: str) -> Iterator[None]:
    """Silence these loggers (default: what ``distributed`` and ``asyncio`` log while a cluster shuts down; the
    loggers to which Dask's logging configuration gives a level of their own are named, since silencing their
    parent does not silence them)."""
    import logging

    loggers = [logging.getLogger(name) for name in (names or ("distributed", "distributed.client", "asyncio",
                                                              "tornado", "tornado.application"))]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)


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
    from distributed.comm.addressing import parse_address
    from distributed.comm.registry import get_backend

    try:   # a scheme Dask has no transport for is refused here, whatever a connection attempt would raise
        get_backend(parse_address(address)[0])
    except ValueError as unknown:
        raise InputError(f"cannot reach dask scheduler {address}: {str(unknown).splitlines()[0]}") from None
    box: dict[str, Any] = {}

    def connect() -> None:
        try:
            box["client"] = Client(address, timeout=f"{timeout}s")
        except BaseException as exc:
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
    if isinstance(exc, Exception):   # a server that answers, not in Dask's protocol (an SSH or mail server's banner
        # read as the length of a message: a MemoryError of exabytes)
        raise InputError(f"the server at {address} does not answer as a Dask scheduler does (is this the "
                         "scheduler's address, e.g. tcp://10.0.0.5:8786?)") from None
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
