"""Atomic file output: a partially written file never looks complete.

Every output of the toolkit is written to a temporary file in the target
directory and then renamed over the target (``os.replace`` is atomic on
POSIX file systems).
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

__all__ = ["atomic_path", "atomic_write_text", "atomic_write_bytes", "read_bytes", "read_text", "read_json_object",
           "write_table"]


@contextmanager
def atomic_path(path: str | os.PathLike, suffix: str = "") -> Iterator[Path]:
    """Yield a temporary path beside ``path``; rename it onto ``path`` on success.

    On an exception the temporary file is removed and ``path`` is untouched.
    """
    import tempfile  # here: an input-only command (solve, analyze) need not load it

    from .errors import InputError

    target = Path(path)
    if target.is_dir():
        raise InputError("is a directory, expected a file name to write", path=target)
    if target.parent.exists() and not target.parent.is_dir():
        raise InputError("is a file, expected a directory", path=target.parent)
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


def read_bytes(path: str | os.PathLike) -> bytes:
    """Read a file's bytes; any failure becomes an :class:`InputError` naming the file.

    Raises
    ------
    InputError
        Missing file, a directory, or unreadable.
    """
    from .errors import InputError

    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError("file not found", path=path) from None
    except IsADirectoryError:
        raise InputError("is a directory, expected a file", path=path) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path=path) from None


def read_text(path: str | os.PathLike) -> str:
    """Read a UTF-8 text file; any failure becomes an :class:`InputError` naming the file.

    Raises
    ------
    InputError
        As :func:`read_bytes`, or not UTF-8 (a UTF-8 byte-order mark at the
        start is allowed and dropped).
    """
    from .errors import InputError

    data = read_bytes(path)
    try:
        text = data.decode("utf-8-sig")  # a leading byte-order mark is dropped
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", path=path) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")  # universal newlines, as open() in text mode


def read_json_object(path: str | os.PathLike, what: str = "a record") -> dict:
    """Read a UTF-8 JSON file holding one object (e.g. a game record).

    Raises
    ------
    InputError
        As :func:`read_text`; malformed JSON (with its line), nesting too
        deep to decode, or a top-level value that is not an object.
    """
    import json

    from .errors import InputError

    text = read_text(path)
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
