"""Importing a module whose functions numba compiles with ``cache=True``, wherever the toolkit is installed.

numba keeps the machine code it compiles beside the module's source (a
``__pycache__`` folder) or, where that folder cannot be written, in the
user's cache folder (``~/.cache/numba``). A read-only install used by an
account without a writable home (a service account, a container, a CI
job) has neither, and numba then refuses to compile the function at all
(``RuntimeError: cannot cache function ...: no locator available``). Such
an import is retried here with numba's cache in a folder of this user's
under the temporary directory (numba's ``NUMBA_CACHE_DIR`` setting,
``numba.config.CACHE_DIR``), so that the engine still runs, and its code is
compiled once per machine rather than once per command.
"""

from __future__ import annotations

import importlib
import os
import stat
import tempfile
from pathlib import Path
from types import ModuleType

__all__ = ["import_cached"]


def import_cached(name: str) -> ModuleType:
    """:func:`importlib.import_module` of ``name``; where numba cannot cache a function of it in its own places,
    again with numba's cache in :func:`fallback_folder` (module docstring).

    Raises
    ------
    RuntimeError
        numba's, when the module cannot be imported for another reason.
    """
    try:
        return importlib.import_module(name)
    except RuntimeError as exc:
        if "cannot cache function" not in str(exc):
            raise
    from numba.core import config

    # numba's NUMBA_CACHE_DIR (set when numba is loaded), read when a function is cached
    config.CACHE_DIR = str(fallback_folder())  # type: ignore[attr-defined]
    return importlib.import_module(name)


def fallback_folder() -> Path:
    """A folder for numba's cache that only this user can write: ``ubongo-cp-numba-UID`` in the temporary
    directory, made with mode 0700 (one found there is used only if it is a real folder of this user's that
    no one else may write); else a new private folder there (:func:`tempfile.mkdtemp`)."""
    uid = os.getuid() if hasattr(os, "getuid") else None
    if uid is not None:
        folder = Path(tempfile.gettempdir()) / f"ubongo-cp-numba-{uid}"
        try:
            folder.mkdir(mode=0o700, exist_ok=True)
            info = folder.lstat()
            if stat.S_ISDIR(info.st_mode) and info.st_uid == uid and not info.st_mode & 0o022:
                return folder
        except OSError:
            pass
    return Path(tempfile.mkdtemp(prefix="ubongo-cp-numba-"))
