"""The CP-SAT runtime shared by every CP-SAT model of the toolkit: solving with Ctrl-C working.

Both the polyomino solvers (:mod:`ubongo_cp.solvers.cpsat`) and the Orion
Duel analysis (:mod:`ubongo_cp.games.orion.reach`) run their models through
:func:`run_solver` and build them with :func:`new_model`; neither imports
the other.

References
----------
.. [1] L. Perron and F. Didier, "CP-SAT", OR-Tools (Google),
   https://developers.google.com/optimization/cp/cp_solver
"""

from __future__ import annotations

import os
import threading

from ortools.sat.python import cp_model

__all__ = ["run_solver", "stop_active_solvers", "new_model"]

#: Solvers running in threads other than the main one (see :func:`run_solver`).
_ACTIVE: set = set()
_ACTIVE_LOCK = threading.Lock()


def run_solver(solver: cp_model.CpSolver, model: cp_model.CpModel, callback=None) -> cp_model.CpSolverStatus:
    """``solver.solve(model, callback)``, keeping Ctrl-C working.

    OR-Tools' CP-SAT catches SIGINT during a solve by default (it then stops
    as if its time limit had been reached) and leaves the operating system's
    default handler behind, so that a later Ctrl-C killed the process without
    any cleanup, and a Ctrl-C during a search was reported as a time-out
    (found by a new user's test). Here CP-SAT never catches SIGINT
    (``catch_sigint_signal = False``). Called from the main thread, the
    search runs in a helper thread while the main thread waits, so Python
    sees Ctrl-C at once, stops the search and raises ``KeyboardInterrupt``
    (one long-lived helper thread per process, see :func:`_search_thread`). Called from another thread, the
    solver is registered for :func:`stop_active_solvers`.

    Returns
    -------
    int
        The CP-SAT status (``cp_model.OPTIMAL``, ...).

    Raises
    ------
    KeyboardInterrupt
        When Ctrl-C came during the search.
    """
    solver.parameters.catch_sigint_signal = False
    if threading.current_thread() is not threading.main_thread():
        with _ACTIVE_LOCK:
            _ACTIVE.add(solver)
        try:
            return solver.solve(model, callback)
        finally:
            with _ACTIVE_LOCK:
                _ACTIVE.discard(solver)
    box: dict = {}
    done = threading.Event()  # not Thread.join: after an interrupted join, CPython 3.11 may
                              # report a thread finished while it still runs
    _search_thread().put((solver, model, callback, box, done))
    try:
        done.wait()
    except KeyboardInterrupt:
        solver.stop_search()
        done.wait()
        raise
    if "error" in box:
        raise box["error"]
    return box["status"]


_SEARCHES = None


def _forget_search_thread() -> None:
    global _SEARCHES
    _SEARCHES = None  # a forked child has the queue but not the thread: start its own


os.register_at_fork(after_in_child=_forget_search_thread)


def _search_thread():
    """The queue of the one long-lived thread that runs the main thread's searches.

    One thread for the whole process: starting a thread per search cost
    0.1-0.5 ms, a third of a card task's whole rating.
    """
    global _SEARCHES
    if _SEARCHES is None:
        import queue

        _SEARCHES = queue.SimpleQueue()

        def serve(jobs) -> None:
            while True:
                solver, model, callback, box, done = jobs.get()
                try:
                    box["status"] = solver.solve(model, callback)
                except BaseException as exc:
                    box["error"] = exc
                finally:
                    done.set()

        threading.Thread(target=serve, args=(_SEARCHES,), name="ubongo-cp-cpsat", daemon=True).start()
    return _SEARCHES


def stop_active_solvers() -> None:
    """Ask every solver running under :func:`run_solver` in another thread to stop."""
    with _ACTIVE_LOCK:
        for solver in _ACTIVE:
            solver.stop_search()


class _Model(cp_model.CpModel):
    """A :class:`~ortools.sat.python.cp_model.CpModel` without camelCase aliases."""

    def _add_pre_pep8_methods(self) -> None:
        """Skip OR-Tools' per-model aliasing (see :func:`new_model`)."""


def new_model() -> cp_model.CpModel:
    """An empty CP-SAT model, made about 0.17 ms faster than ``CpModel()``.

    OR-Tools 9.x's ``CpModel.__init__`` gives every new model a deprecated
    camelCase alias of each ``add_*``/``new_*``/``clear_*`` method (a walk
    over ``dir(model)``): 0.17 ms per model on this machine, about a tenth
    of what building and solving a 3-piece card task takes.
    This toolkit calls only the snake_case API, so its models skip that step
    (it is a private method of OR-Tools; if a later version drops it, the
    override is never called and nothing changes).

    Returns
    -------
    ortools.sat.python.cp_model.CpModel
        A subclass instance; everything else is the stock model.
    """
    return _Model()
