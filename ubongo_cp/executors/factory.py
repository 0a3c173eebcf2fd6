"""Building an executor by name, and the in-process default."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from ..errors import InputError
from . import EXECUTORS
from .base import Executor
from .dask_cluster import DaskExecutor
from .local import LocalExecutor

__all__ = ["make_executor", "using", "executor_argument"]


def make_executor(kind: str = "local", *, jobs: int | None = None, scheduler: str | None = None,
                  dashboard: bool = False) -> Executor:
    """An executor of ``kind``: ``"local"`` (:class:`LocalExecutor`) or ``"dask"`` (:class:`DaskExecutor`).

    A scheduler address implies ``"dask"``; ``dashboard`` serves the
    dashboard of a LocalCluster started for ``"dask"``. Use the result as a
    context manager (``with make_executor(...) as ex:``) so that it is closed.

    Raises
    ------
    InputError
        For an unknown kind, or ``jobs`` that is not a whole number of at least 1.
    """
    if scheduler is not None and kind == "local":
        kind = "dask"
    if kind == "local":
        return LocalExecutor(jobs)
    if kind == "dask":
        return DaskExecutor(jobs, scheduler, dashboard=dashboard)
    raise InputError(f"unknown executor {kind!r}; choose one of {', '.join(EXECUTORS)}")


def executor_argument(executor) -> Executor | None:
    """``executor`` when it is an :class:`Executor` or ``None`` (the calling process); else an
    :class:`InputError` saying how to make one (a name such as ``"local"`` is :func:`make_executor`'s argument).

    Examples
    --------
    >>> executor_argument(None) is None
    True
    >>> executor_argument("local")
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: executor must be an Executor (ubongo_cp.executors.make_executor) or None, got str 'local'
    """
    if executor is None or isinstance(executor, Executor):
        return executor
    shown = f" {executor!r}" if isinstance(executor, (str, int, float)) and len(repr(executor)) <= 40 else ""
    raise InputError("executor must be an Executor (ubongo_cp.executors.make_executor) or None, "
                     f"got {type(executor).__name__}{shown}")


@contextmanager
def using(executor: Executor | None) -> Iterator[Executor]:
    """``executor`` itself (left open), or an in-process :class:`LocalExecutor` for ``None``.

    Raises
    ------
    InputError
        For anything else (:func:`executor_argument`).
    """
    executor = executor_argument(executor)
    yield LocalExecutor(1) if executor is None else executor
