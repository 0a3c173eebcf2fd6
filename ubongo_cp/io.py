"""Atomic file output: a partially written file never looks complete; inputs are never overwritten.

Every output of the toolkit is written to a temporary file in the target
directory and then renamed over the target (``os.replace`` is atomic on
POSIX file systems).

Within :func:`protect_inputs` (every ``ubongo-cp`` command runs in it),
each file read through this module (or named with :func:`note_input`) is
remembered, and :func:`atomic_path` refuses to replace one of them: no
command overwrites a file it reads, whichever option named it.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

__all__ = ["atomic_path", "atomic_write_text", "atomic_write_bytes", "read_bytes", "read_text", "read_json_object",
           "write_table", "protect_inputs", "note_input"]

#: (device, inode) -> path of the files read inside :func:`protect_inputs`; None outside it.
_INPUTS: dict[tuple[int, int], str] | None = None


@contextmanager
def protect_inputs() -> Iterator[None]:
    """Within the block, :func:`atomic_path` refuses to replace any file read within it.

    Files are recognised by device and inode, so another name for the same
    file (a relative path, a symbolic or hard link) is caught too.
    """
    global _INPUTS
    outer = _INPUTS
    _INPUTS = {} if outer is None else outer
    try:
        yield
    finally:
        _INPUTS = outer


def note_input(path: str | os.PathLike) -> None:
    """Remember ``path`` as an input of the running command (see :func:`protect_inputs`)."""
    if _INPUTS is None:
        return
    try:
        st = os.stat(path)
    except OSError:
        return
    _INPUTS.setdefault((st.st_dev, st.st_ino), os.fspath(path))


def _check_not_input(target: Path) -> None:
    from .errors import InputError

    if not _INPUTS:
        return
    try:
        st = os.stat(target)
    except OSError:
        return
    source = _INPUTS.get((st.st_dev, st.st_ino))
    if source is not None:
        same = "" if os.path.abspath(source) == os.path.abspath(target) else f" ({source})"
        raise InputError(f"is an input of this command{same} and would be overwritten; choose another output",
                         path=target)


@contextmanager
def atomic_path(path: str | os.PathLike, suffix: str = "") -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it onto ``path`` on success.

    On an exception the temporary file is removed and ``path`` is untouched.
    """
    from .errors import InputError

    target = Path(path)
    if target.is_dir():
        raise InputError("is a directory, expected a file name to write", path=target)
    if target.parent.exists() and not target.parent.is_dir():
        raise InputError("is a file, expected a directory", path=target.parent)
    _check_not_input(target)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=suffix or target.suffix, dir=target.parent)
    except OSError as exc:  # name the user's path, not the temporary one
        raise InputError(f"cannot write: {exc.strerror or exc}", path=target) from None
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; outputs get the usual permissions
    try:
        yield Path(tmp)
        os.replace(tmp, target)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def read_bytes(path: str | os.PathLike, *, own: bool = False) -> bytes:
    """Read a file's bytes; any failure becomes an :class:`InputError` naming the file.

    The file counts as an input of the running command (:func:`note_input`)
    unless ``own`` is true: the command's own state, which it rewrites.

    Raises
    ------
    InputError
        Missing file, a directory, or unreadable.
    """
    from .errors import InputError

    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError("file not found", path=path) from None
    except IsADirectoryError:
        raise InputError("is a directory, expected a file", path=path) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path=path) from None
    if not own:
        note_input(path)
    return data


def read_text(path: str | os.PathLike, *, own: bool = False) -> str:
    """Read a UTF-8 text file; any failure becomes an :class:`InputError` naming the file (``own``: as :func:`read_bytes`).

    Raises
    ------
    InputError
        As :func:`read_bytes`, or not UTF-8 (a UTF-8 byte-order mark at the
        start is allowed and dropped).
    """
    from .errors import InputError

    data = read_bytes(path, own=own)
    try:
        text = data.decode("utf-8-sig")  # a leading byte-order mark is dropped
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", path=path) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")  # universal newlines, as open() in text mode


def read_json_object(path: str | os.PathLike, what: str = "a record", *, own: bool = False) -> dict:
    """Read a UTF-8 JSON file holding one object (e.g. a game record; ``own``: as :func:`read_bytes`).

    Raises
    ------
    InputError
        As :func:`read_text`; malformed JSON (with its line), nesting too
        deep to decode, or a top-level value that is not an object.
    """
    import json

    from .errors import InputError

    text = read_text(path, own=own)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"malformed JSON: {exc.msg} (column {exc.colno})", path=path, line=exc.lineno) from None
    except RecursionError:
        raise InputError("malformed JSON: nested too deeply", path=path) from None
    if not isinstance(data, dict):
        raise InputError(f"{what} must be a JSON object, got {type(data).__name__}", path=path)
    return data


def write_table(table, path: str | os.PathLike) -> Path:
    """Write a pandas ``table`` as CSV or Parquet, chosen by the suffix ``.csv`` / ``.parquet`` / ``.pq``.

    Written atomically (:func:`atomic_path`), without the index.

    Raises
    ------
    InputError
        For any other suffix.
    """
    from .errors import InputError

    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".parquet", ".pq"):
        raise InputError(f"output must end in .csv or .parquet, not {suffix or '(no suffix)'}", path=path)
    with atomic_path(path) as tmp:
        if suffix == ".csv":
            table.to_csv(tmp, index=False)
        else:
            table.to_parquet(tmp, index=False)
    return path
