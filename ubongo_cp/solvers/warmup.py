"""Load (and, once per machine, compile) the search engines before any clock starts.

A search engine costs something the first time a process uses it: importing
OR-Tools, loading the C kernel, loading numba's cached machine code for the
numba kernel or ``xcover`` (about 0.6 s), or compiling it when there is no
cache yet (about 5 s for the numba kernel, 25 s for ``xcover``, measured on
this project's machine). :func:`warm` pays that once per process, on a
one-domino instance, so that no time limit and no ``seconds`` figure of a
task includes it; :func:`ubongo_cp.solvers.solve` and the rating call it
before starting their clocks, and the batch runner calls it before its
worker processes are forked (they inherit the loaded engines).

Whether an engine is being *compiled* (not merely loaded) is known from
numba's own compile event (``numba:compile``, fired only on a cache miss),
so ``notify`` hears about it before the wait, not after.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterable

from .registry import get_solver

__all__ = ["warm", "COMPILE_SECONDS"]

#: Rough seconds a first compilation takes, per backend module (measured on
#: this project's 2-core machine; said in the notice, nothing depends on it).
COMPILE_SECONDS = {"dlx": 5, "xcover": 25}

# Backend modules whose engine this process has loaded (the strategies of
# ``split`` run CP-SAT: their engine is the ``cpsat`` module's; ``zdd``'s
# ``auto`` strategy may hand over to the ``dlx`` kernel).
_WARM: set[str] = set()
_ENGINES = {"split": ("cpsat",), "zdd": ("zdd", "dlx")}
# Backend modules whose engine is a compiled extension that importing the module loads in full: nothing
# to run (a search of one domino would cost a command a few milliseconds for nothing).
_LOADED_BY_IMPORT = {"bitboard"}


def warm(names: Iterable[str | None], *, notify: Callable[[str], None] | None = None) -> float:
    """Load the search engines of the named solvers in this process, once.

    Parameters
    ----------
    names : iterable of str
        Registered solver names (``None`` entries are skipped).
    notify : callable, optional
        Called with ``"compiling the search engine (once, about N s)"``
        before an engine is compiled (a numba cache miss); never for a
        plain load.

    Returns
    -------
    float
        Seconds spent (0.0 when every engine was already loaded).

    Raises
    ------
    InputError
        For an unknown solver name.

    Examples
    --------
    >>> warm(["dlx"]) >= 0.0
    True
    >>> warm(["dlx"])  # once per process
    0.0
    """
    start = time.perf_counter()
    ran = False
    for name in names:
        if name is None:
            continue
        for module in _ENGINES.get(get_solver(name).backend.split(":")[0], None) or \
                (get_solver(name).backend.split(":")[0],):
            if module in _WARM:
                continue
            with _compile_notice(module, notify):
                _run_once(module)
            _WARM.add(module)
            ran = True
    return time.perf_counter() - start if ran else 0.0


def _run_once(module: str) -> None:
    """Run the module's plain backend through the driver on one domino in a 1x2 region (imports, loads, compiles).

    A module of :data:`_LOADED_BY_IMPORT` is imported, nothing more.
    """
    if module in _LOADED_BY_IMPORT:
        import importlib

        importlib.import_module(f"{__package__}.{module}")
        return
    from ..cover import build_instance
    from ..pieces import Piece, Region
    from .registry import SOLVERS

    from .base import drive

    spec = next(s for s in SOLVERS.values() if s.backend.split(":")[0] == module and not s.orbits)
    drive(spec.make(), build_instance([Piece("D", ((0, 0), (0, 1)))], Region.rectangle(1, 2)))


class _compile_notice:
    """Context manager: tell ``notify`` when numba starts compiling inside the block (once)."""

    def __init__(self, module: str, notify: Callable[[str], None] | None) -> None:
        self.module, self.notify, self.listener = module, notify, None

    def __enter__(self):
        if self.notify is None or not self._uses_numba():
            return self
        from numba.core import event

        module, notify, said = self.module, self.notify, []

        class _Listener(event.Listener):
            def on_start(self, ev):
                if not said:
                    said.append(True)
                    notify(f"compiling the search engine (once, about {COMPILE_SECONDS.get(module, 5)} s)")

            def on_end(self, ev):
                pass

        self.listener = _Listener()
        event.register("numba:compile", self.listener)
        return self

    def __exit__(self, *exc) -> None:
        if self.listener is not None:
            from numba.core import event

            event.unregister("numba:compile", self.listener)

    def _uses_numba(self) -> bool:
        """True for engines that run numba code (importing numba only for those)."""
        if self.module == "xcover":
            return True
        if self.module == "dlx":
            from .dancing import KERNEL

            return KERNEL == "numba"
        return "numba" in sys.modules
