"""Executors: run independent units of work in this process, a process pool or a Dask cluster.

Library functions that can spread work (``run_batch``, ``generate_deck``,
the game simulators, the Orion tournament, the census) take one
``executor`` argument: an :class:`Executor` object, or ``None`` to run
everything in the calling process. The command line builds the object from
its ``--executor``, ``--jobs`` and ``--scheduler`` options
(:func:`make_executor`); results never depend on which executor ran them.

Every executor offers :meth:`Executor.map_unordered`, which yields each
result as soon as it is ready, so callers can save finished work at once,
and :meth:`Executor.map_ordered`. Keyword arguments common to every item
(an instance, a solver) reach each worker once, not with every item.

- Work that runs in native code releasing the GIL (the C search kernels:
  one count split into subtrees) is marked ``nogil``: the local executor
  then runs it in ``jobs`` threads of the calling process, with no process
  to start and nothing to copy.

- :class:`LocalExecutor`: a :class:`concurrent.futures.ProcessPoolExecutor`
  (``jobs`` processes; ``jobs=1`` runs in the calling process). A worker
  process that dies (killed, out of memory, a crash in native code) breaks
  the pool; the pool is rebuilt, the units that were in flight become
  suspects and are run again one at a time, and a unit that breaks the pool
  on its own is handed to ``on_error``; the others finish normally. A unit
  whose argument or result cannot be pickled (or rebuilt from its pickle)
  fails alone, with one ``UbongoError`` saying which.
- :class:`DaskExecutor`: a ``dask.distributed`` client, connected to
  ``scheduler`` (e.g. ``tcp://10.0.0.5:8786``) or to a new ``LocalCluster``
  with ``jobs`` single-threaded worker processes (forked, with the modules
  named by :meth:`Executor.warm` preloaded, so that the cluster starts in
  about 0.1 s; for ``nogil`` work, ``jobs`` worker threads of this
  process). The cluster is started, or the scheduler reached, when the
  first work is mapped. Dask reschedules the work of a lost worker itself; a
  unit whose workers keep dying raises ``KilledWorker``, which is handed to
  ``on_error``. Dask would wait for ever on a cluster without workers, so a
  watchdog stops the run after :data:`.dask_cluster.NO_WORKER_TIMEOUT` seconds without one
  (``UbongoError``); the connection to a scheduler is given
  :data:`.dask_cluster.CONNECT_TIMEOUT` + 5 seconds, and a LocalCluster
  :data:`.dask_cluster.START_TIMEOUT` seconds to start. A run that loses its
  scheduler stops with one ``UbongoError`` (what it yielded stands).

Worker processes the toolkit starts (the pool's, a LocalCluster's) die with
the process that started them, however it ends, and ignore Ctrl-C: the
starting process handles it, stops them and says so in one line. Every
socket of a toolkit-started LocalCluster listens on 127.0.0.1; its
dashboard is off unless asked for.
"""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any

    from .base import CHUNKS_PER_JOB, Executor
    from .chunks import map_chunks
    from .dask_cluster import DaskExecutor
    from .factory import executor_argument, make_executor, using
    from .local import LocalExecutor

#: Names of the executor kinds (:func:`make_executor`).
EXECUTORS = ("local", "dask")

#: Where the rest is, loaded when first named: a command that only lists the executor kinds in its
#: options (every counting command) loads none of the executors' modules.
_LAZY = {"map_chunks": "chunks", "DaskExecutor": "dask_cluster", "make_executor": "factory", "using": "factory",
         "executor_argument": "factory",
         "LocalExecutor": "local", "Executor": "base", "CHUNKS_PER_JOB": "base"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names with those :func:`__getattr__` gives out on first use (PEP 562)."""
    return sorted(set(globals()) | set(__all__))


__all__ = ["Executor", "LocalExecutor", "DaskExecutor", "make_executor", "using", "executor_argument", "map_chunks",
           "EXECUTORS", "CHUNKS_PER_JOB"]


