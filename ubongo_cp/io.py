"""Atomic file output: a partially written file never looks complete; inputs are never overwritten.

Every output of the toolkit is written to a temporary file in the target
directory and then renamed over the target (``os.replace`` is atomic on
POSIX file systems). The data reach the disk before the rename, and the
rename reaches it before the write returns (:func:`fsync` of the file, then
of its directory): after a power loss a file is either the old one or the
complete new one, never empty or torn, and a write that returned stays
done. Journals that grow line by line use :func:`append_durably`.

Within :func:`protect_inputs` (every ``ubongo-cp`` command runs in it),
each file read through this module (or named with :func:`note_input`) is
remembered, and :func:`atomic_path` refuses to replace one of them: no
command overwrites a file it reads, whichever option named it.
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from collections.abc import Callable, Iterator, Sequence

# the readers (:mod:`ubongo_cp.reading`), exported here too
from .reading import (KNUTH_SUFFIXES, MAX_INPUT_BYTES, PLAIN_NAME, _check_not_input, _long_number,  # noqa: F401
                      _special_kind, check_regular_file, is_plain_name, loads_toml, note_input, other_format, protect_inputs,
                      read_bytes, read_text, refuse_empty_path, text_head, text_lines, wide_codec, wrong_format)

TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any

    import pathlib

__all__ = ["atomic_path", "check_output_file", "check_output_place", "mark_comment", "comment_lines", "encodable",
           "atomic_write_text", "atomic_write_bytes", "check_regular_file", "csv_problem", "read_bytes", "read_text",
           "text_lines", "read_json_object", "row_check", "loads_json", "loads_toml", "write_table", "check_table_path",
           "check_suffix", "TABLE_SUFFIXES",
           "protect_inputs", "note_input", "MAX_INPUT_BYTES", "fsync", "fsync_directory", "replace_durably",
           "lock_exclusive", "open_journal", "trim_journal", "make_parent", "append_durably", "SIGNATURE", "KNUTH_SUFFIXES",
           "signature", "figure_metadata", "marked_arrow", "carries_mark", "check_not_special", "check_not_read_only",
           "is_plain_name", "PLAIN_NAME", "refuse_empty_path",
           "holds_other_table", "other_format", "wrong_format", "remove_stale_temporaries", "signals_held", "replace_together",
           "REPLACING", "holds_other_columns", "other_table_reason", "interrupted_replace", "refuse_interrupted",
           "json_text", "file_state"]


@contextmanager
def atomic_path(path: str | os.PathLike, suffix: str = "") -> Iterator[pathlib.Path]:
    """Yield a temporary path beside ``path``; rename it onto ``path`` on success.

    On an exception the temporary file is removed and ``path`` is untouched.
    The temporary file is locked (:func:`fcntl.flock`) until it is renamed
    or removed; the first time a process writes into a folder, the temporary
    files there that no run holds so (left by runs killed while writing:
    :func:`is_temporary_of`) are removed.
    """
    import tempfile  # here: an input-only command (solve, analyze) need not load it

    from .errors import InputError

    from pathlib import Path

    target = Path(path)
    if target.is_dir():
        raise InputError("is a directory, expected a file name to write", path=target)
    check_not_special(target)   # a device (/dev/null) or a FIFO is never replaced by a file
    check_not_read_only(target)
    _check_not_input(target)
    def make() -> tuple[int, str]:
        try:
            make_parent(target)
            return tempfile.mkstemp(prefix=temporary_prefix(target.name), suffix=suffix or target.suffix,
                                    dir=target.parent)
        except OSError as exc:  # name the user's path, not the temporary one
            raise InputError(f"cannot write: {exc.strerror or exc}", path=target) from None

    # held while the file is written: a run killed meanwhile leaves it unlocked
    fd, tmp, locked = _made_locked(make)
    if locked:
        _tidy(target.parent)
    else:   # no locks here: nothing is tidied either
        os.close(fd)
        fd = -1
    # mkstemp makes 0600: a file replaced keeps its permissions (one kept private stays private), a new one
    # gets the usual ones
    os.chmod(tmp, _replaced_mode(target))
    try:
        yield Path(tmp)
        replace_durably(tmp, target)
    except BaseException as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        # named as the user's file, whatever library was writing it (not again by an atomic_path around it)
        error = None if isinstance(exc, InputError) else _no_room_error(exc, target)
        if error is not None:
            raise error from None
        raise
    finally:
        if fd >= 0:
            os.close(fd)


def _replaced_mode(target: pathlib.Path) -> int:
    """The permission bits of the file a write onto ``target`` makes: those of the regular file there now (not
    followed through a link, which the write replaces), else ``0o666`` less the umask, as :func:`open` gives."""
    import stat

    try:
        st = os.lstat(target)
        if stat.S_ISREG(st.st_mode):
            return stat.S_IMODE(st.st_mode) & 0o777   # not set-user-ID and the like: new content is no program
    except OSError:
        pass
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _same_file(path: str, fd: int) -> bool:
    """Whether ``path`` is still the file open as ``fd`` (not removed, nor replaced, since it was opened)."""
    try:
        here, held = os.stat(path), os.fstat(fd)
    except OSError:
        return False
    return (here.st_dev, here.st_ino) == (held.st_dev, held.st_ino)


def _made_locked(make: Callable[[], tuple[int, str] | None]) -> tuple[int, str, bool]:
    """A new temporary file or folder, ``make()`` (its open descriptor, -1 when it cannot be opened, and its
    path; None when it was gone before it could be opened), locked (:func:`_locked`): the descriptor, the path
    and whether it is locked. Another run tidying the folder between the making and the lock takes it for a
    killed run's and removes it (:func:`remove_stale_temporaries`): then another one is made."""
    while True:
        made = make()
        if made is None:
            continue
        fd, path = made
        if fd < 0 or not _locked(fd):   # no locks on this file system
            return fd, path, False
        if _same_file(path, fd):
            return fd, path, True
        os.close(fd)


def _locked(fd: int) -> bool:
    """Take an exclusive :func:`fcntl.flock` on ``fd`` without waiting; False where it cannot be taken (a system
    or file system without locks, or another process holds it)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not a POSIX system
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def remove_stale_temporaries(target: pathlib.Path, *, folders: bool = False) -> None:
    """Delete the temporary files of ``target`` (:func:`stale_temporaries`) that no run holds locked: those of
    runs killed while writing it (a run still writing one holds its lock, :func:`atomic_path`). With
    ``folders``, temporary folders too (with what they hold), for a target written as a folder whose run holds
    its temporary folder locked while it fills it (:func:`locked_temporary_folder`)."""
    for path in stale_temporaries(target.parent, target.name):
        _remove_unlocked(path, folders=folders)


@contextmanager
def locked_temporary_folder(target: pathlib.Path) -> Iterator[pathlib.Path]:
    """A new temporary folder beside ``target`` (:func:`temporary_prefix`), held locked (:func:`fcntl.flock` on
    the folder itself) for the block, so that :func:`remove_stale_temporaries` leaves it alone while a run fills
    it (the lock follows it when renamed). One removed by another run's tidying before it was locked is replaced
    by another (:func:`_made_locked`, as :func:`atomic_path` does for files).

    Raises
    ------
    OSError
        When the folder cannot be made.
    """
    import tempfile
    from pathlib import Path

    def make() -> tuple[int, str] | None:
        tmp = tempfile.mkdtemp(prefix=temporary_prefix(target.name), suffix=target.suffix, dir=target.parent)
        try:
            return os.open(tmp, os.O_RDONLY), tmp
        except FileNotFoundError:   # removed already
            return None
        except OSError:   # not opened: the block runs unlocked (its folder may be taken for a killed run's)
            return -1, tmp

    fd, tmp, _ = _made_locked(make)
    try:
        yield Path(tmp)
    finally:
        if fd >= 0:
            os.close(fd)


#: The folders this process removed the stale temporary files of (:func:`_tidy`): each is listed once, not at
#: every file written there (a census writes thousands of shards into one).
_TIDIED: set[str] = set()


def _tidy(folder: pathlib.Path) -> None:
    """Delete the temporary files of any name in ``folder`` (:func:`is_temporary_of`) that no run holds locked
    (:func:`remove_stale_temporaries`), the first time this process writes there; none while the folder holds
    the record of a run killed while it renamed files into place (:data:`REPLACING`): they are to be renamed."""
    key = os.path.abspath(folder)
    if key in _TIDIED:
        return
    _TIDIED.add(key)
    if os.path.lexists(os.path.join(folder, REPLACING)):   # its temporary files are to be renamed, not removed
        return
    try:
        names = [entry.name for entry in os.scandir(folder) if entry.name.startswith(".")
                 and _TEMPORARY_MARK in entry.name and not entry.is_symlink()]
    except OSError:
        return
    for name in names:
        if is_temporary_of(name, name[1:name.rindex(_TEMPORARY_MARK)]):
            _remove_unlocked(folder / name)


def _remove_unlocked(path: pathlib.Path, *, folders: bool = False) -> None:
    """Delete the file ``path`` unless a process holds it locked (:func:`_locked`) or it is no regular file;
    with ``folders``, a folder too (with what it holds), unless a process holds it locked."""
    import shutil
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:   # gone meanwhile, or not ours to read
        return
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISREG(mode) and _locked(fd):
            os.unlink(path)
        elif folders and stat.S_ISDIR(mode) and _locked(fd):
            shutil.rmtree(path)   # links inside are removed, never followed
    except OSError:   # left as it is: it only takes room
        pass
    finally:
        os.close(fd)


#: What the name of :func:`atomic_path`'s temporary file holds after the target's name, before eight random
#: letters, digits or underscores (:func:`tempfile.mkstemp`) and the suffix: a mark no name of a user's has.
_TEMPORARY_MARK = ".~ubongo-cp-"

#: The most characters of the target's name a temporary file's name repeats (a file name may have 255 bytes).
_TEMPORARY_NAME = 200


def temporary_prefix(name: str) -> str:
    """The start of the name of :func:`atomic_path`'s temporary file (or folder) for a file named ``name``."""
    return f".{name[:_TEMPORARY_NAME]}{_TEMPORARY_MARK}"


def is_temporary_of(candidate: str, name: str) -> bool:
    """Whether ``candidate`` is the name :func:`atomic_path` gives its temporary file when it writes a file named
    ``name`` (a run killed while writing leaves it behind; nothing else is named so)."""
    import re

    suffix = os.path.splitext(name)[1]
    return re.fullmatch(re.escape(temporary_prefix(name)) + r"[a-z0-9_]{8}" + re.escape(suffix), candidate) \
        is not None


#: The errors of a write that failed for want of room: a full disk, a quota, a file size limit.
_NO_ROOM = ("ENOSPC", "EDQUOT", "EFBIG")


def write_failure(exc: BaseException | None) -> int | None:
    """The error number of a write that found no room (:data:`_NO_ROOM`) in ``exc`` or in the exceptions it was
    raised from or while handling (matplotlib's PDF writer, failing to write, raises a zlib error while it
    cleans up; pyarrow gives the number in its message only, ``[errno 28]``); None for any other exception."""
    import errno
    import re

    codes = {getattr(errno, name) for name in _NO_ROOM if hasattr(errno, name)}
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, OSError):
            code = exc.errno
            if code is None:
                found = re.search(r"\[errno (\d+)\]", str(exc))
                code = int(found.group(1)) if found else None
            if code in codes:
                return code
        exc = exc.__cause__ or exc.__context__
    return None


def _no_room_error(exc: BaseException, path) -> Exception | None:
    """The :class:`~ubongo_cp.errors.InputError` naming ``path`` for a write that found no room
    (:func:`write_failure`); None for any other exception."""
    failed = write_failure(exc)
    if failed is None:
        return None
    from .errors import InputError

    return InputError(f"cannot write: {os.strerror(failed)}", path=path)


def stale_temporaries(folder: pathlib.Path, name: str) -> list[pathlib.Path]:
    """The temporary files (or folders) of a file named ``name`` that runs killed while writing it left in
    ``folder`` (:func:`is_temporary_of`), links left out. For a caller that knows no other run is writing there
    (a locked folder) to delete."""
    import glob

    return [path for path in folder.glob(glob.escape(temporary_prefix(name)) + "*")
            if is_temporary_of(path.name, name) and not path.is_symlink()]


#: The mark every output file of the toolkit carries where its format has a place for it (a PNG's
#: ``Software`` text, an SVG's or PDF's creator, a Parquet table's key-value metadata, a BurrTools file's
#: comment, a JSON record's ``format``, the first comment line of a Knuth exact-cover or DIMACS CNF file,
#: :func:`mark_comment`): an existing file is replaced only when it carries it (:func:`check_output_file`).
SIGNATURE = "ubongo-cp"


#: The kinds of output file, by extension: (what it is, what it starts with).
_KINDS: dict[str, tuple[str, tuple[bytes, ...]]] = {
    ".pdf": ("PDF file", (b"%PDF",)), ".png": ("PNG image", (b"\x89PNG\r\n\x1a\n",)),
    ".parquet": ("Parquet table", (b"PAR1",)), ".pq": ("Parquet table", (b"PAR1",)),
    ".xmpuzzle": ("BurrTools file", (b"\x1f\x8b", b"<?xml")),
    ".svg": ("SVG picture", (b"<?xml", b"<svg")), ".json": ("JSON file", (b"{",)),
    ".csv": ("CSV table", ()),
    **dict.fromkeys(KNUTH_SUFFIXES, ("Knuth exact-cover file", (b"|",))), ".cnf": ("DIMACS CNF file", (b"c",))}
#: The comment start of the text formats whose first line carries the mark (:func:`mark_comment`): Knuth's
#: exact-cover programs skip the lines that begin with ``|``, DIMACS readers those that begin with ``c``.
_COMMENT = {**dict.fromkeys(KNUTH_SUFFIXES, "|"), ".cnf": "c"}

#: How much of a file's end is read for the mark of a PDF (its document information comes last) and the
#: largest BurrTools file decompressed to find its comment.
_TAIL_BYTES = 1 << 16
_XMPUZZLE_MAX = 64 << 20


def signature() -> str:
    """The mark an output file carries: :data:`SIGNATURE` and the version that wrote it."""
    from . import __version__

    return f"{SIGNATURE} {__version__}"


def mark_comment(suffix: str) -> str:
    """The first line (no newline) of a Knuth exact-cover (``suffix`` ``.dlx``, ``.xcc``) or DIMACS CNF
    (``.cnf``) file the toolkit writes: a comment of that format carrying :func:`signature`, by which
    :func:`check_output_file` knows the file for an earlier output.

    Examples
    --------
    >>> mark_comment(".dlx").startswith("| written by ubongo-cp "), mark_comment(".cnf").startswith("c written by ")
    (True, True)
    """
    return f"{_COMMENT[suffix]} written by {signature()}"


def encodable(text: str) -> str:
    """``text`` as a UTF-8 file can hold it: a character it cannot (a byte of a file name that is not UTF-8,
    which Python decodes as a lone surrogate) becomes ``?``.

    Examples
    --------
    >>> encodable("region \\udcff.txt")
    'region ?.txt'
    """
    return text.encode("utf-8", "replace").decode("utf-8")


def comment_lines(comments: Sequence[str] | str, suffix: str) -> list[str]:
    """``comments`` as comment lines of a Knuth exact-cover (``suffix`` ``.dlx``, ``.xcc``) or DIMACS CNF
    (``.cnf``) file: each on one line, its line breaks and runs of white space written as one space, so that
    no part of a comment (an instance's name, a file's path) becomes a line of the problem, and what UTF-8
    cannot hold as ``?`` (:func:`encodable`). One string is one comment.

    Examples
    --------
    >>> comment_lines(["suite a\\nb c", ""], ".dlx"), comment_lines("one", ".cnf")
    (['| suite a b c', '|'], ['c one'])
    """
    mark = _COMMENT[suffix]
    return [encodable(f"{mark} {' '.join(c.split())}".rstrip())
            for c in ([comments] if isinstance(comments, str) else comments)]


def figure_metadata(fmt: str) -> dict[str, str]:
    """The ``metadata`` of :meth:`matplotlib.figure.Figure.savefig` that marks a picture as the toolkit's
    (:func:`signature`): a PNG's ``Software``, an SVG's or PDF's ``Creator``."""
    return {"Software" if fmt.lower().lstrip(".") == "png" else "Creator": signature()}


def marked_arrow(table):
    """A :class:`pyarrow.Table` with the toolkit's mark (:func:`signature`) in its schema's key-value metadata
    (``written_by``), beside what it holds already: the mark :func:`check_output_file` looks for in a Parquet
    file."""
    return table.replace_schema_metadata({**(table.schema.metadata or {}), b"written_by": signature().encode()})


def carries_mark(target: str | os.PathLike, suffix: str, json_format: str | None = None) -> bool:
    """Whether the existing file ``target`` is an output of the toolkit of the kind of ``suffix`` (one of
    :data:`_KINDS`): of that kind and carrying :data:`SIGNATURE`. A CSV table has no place for a mark: any
    table counts here, and :func:`write_table` replaces only one with the same header line. With
    ``json_format`` a JSON file counts only when its ``format`` is that one (a game record is not replaced
    by another game's record, nor by a difficulty model).

    Raises
    ------
    OSError
        When the file cannot be read.
    """
    from pathlib import Path

    target = Path(target)
    with open(target, "rb") as fh:
        head = fh.read(4096)
    _, starts = _KINDS[suffix]
    text = head.lstrip()
    if starts and not text.startswith(starts):
        return False
    mark = SIGNATURE.encode()
    if suffix == ".png":    # matplotlib writes its text chunks before the image data
        return b"tEXtSoftware\0" + mark in head
    if suffix == ".svg":
        return b"<svg" in head and b"<dc:title>" + mark in head
    if suffix == ".json":   # every JSON file the toolkit writes names its format first
        return b'"format": "' + (mark if json_format is None else json_format.encode() + b'"') in head
    if suffix in _COMMENT:   # a text format whose first line is the mark (mark_comment), whatever the version
        first = text.split(b"\n", 1)[0].rstrip(b"\r")
        return first.startswith(f"{_COMMENT[suffix]} written by {SIGNATURE} ".encode())
    if suffix == ".csv":    # a table: a header line of comma-separated names, text only
        first = head.split(b"\n", 1)[0]
        return b"\0" not in head and (b"," in first or not head)
    with open(target, "rb") as fh:
        if suffix == ".pdf":    # the document information, written last (pypdf escapes the hyphen)
            fh.seek(max(0, target.stat().st_size - _TAIL_BYTES))
            return b"/Creator (ubongo" in fh.read()
        if suffix in (".parquet", ".pq"):   # the key-value metadata, in the footer
            size = target.stat().st_size
            if size < 12:
                return False
            fh.seek(size - 8)
            length = int.from_bytes(fh.read(4), "little")
            fh.seek(max(0, size - 8 - length))
            return mark in fh.read(length)
        data = fh.read(_XMPUZZLE_MAX + 1)   # a BurrTools file: its comment, at the end
    if data.startswith(b"\x1f\x8b"):
        import zlib

        try:
            data = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data, _XMPUZZLE_MAX)
        except zlib.error:
            return False
    return b"<puzzle" in data and b"written by " + mark in data


def check_output_place(path: str | os.PathLike, what: str = "a file to write") -> None:
    """Refuse, before any work, a path where no file can be written: a directory (or a name ending in a
    slash), a FIFO, socket or device (:func:`check_not_special`, naming ``what``), or a path whose nearest
    existing parent is not a directory this process can create files in (or the missing folders below it,
    which every output makes: :func:`make_parent`), or a file there that no one may write
    (:func:`check_not_read_only`). What else an existing file there may be is its caller's to judge
    (:func:`check_output_file`; a journal is resumed).

    Raises
    ------
    InputError
        Naming the path and the problem.
    """
    import tempfile

    from .errors import InputError

    from pathlib import Path

    target = Path(path)
    if target.is_dir():
        raise InputError("is a directory, expected a file name to write", path=target)
    if os.fspath(path).endswith(("/", os.sep)):   # pathlib drops the slash that names a folder
        raise InputError("ends with a slash, which names a folder; expected a file name to write", path=path)
    check_not_special(target, what)
    parent = target.parent
    ancestor = parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise InputError("is a file, expected a directory", path=ancestor)
    if ancestor == parent:    # try it: permissions, read-only or special file systems
        try:
            fd, probe = tempfile.mkstemp(prefix=f".{target.name}.", dir=parent)
            os.close(fd)
            os.unlink(probe)
        except OSError as exc:   # name the folder: the file may be there (/proc/version), its folder takes none
            verb = "cannot be replaced" if target.exists() else "cannot write"
            raise InputError(f"{verb}: no file can be created in its folder {parent} ({exc.strerror or exc})",
                             path=target) from None
    elif not os.access(ancestor, os.W_OK | os.X_OK):
        raise InputError(f"cannot write: cannot create folders in {ancestor}", path=target)
    check_not_read_only(target)   # once its folder takes files (a file of /proc is read-only as well)


def check_output_file(path: str | os.PathLike, kind: str | None = None, json_format: str | None = None) -> None:
    """Refuse, before any work, an output file path that cannot be written or must not be replaced.

    Checked: ``path`` is a place a file can be written (:func:`check_output_place`), and an existing file
    there is replaced only when it is an earlier output of the toolkit of the same kind: a PDF, PNG, SVG,
    Parquet, BurrTools or JSON file carrying the toolkit's mark (:data:`SIGNATURE`,
    :func:`figure_metadata`); a CSV table, which has no place for a mark, only by a table with the same
    header line (:func:`write_table`); an empty file is replaced. A long
    command thus never ends by failing to write what it computed, nor replaces a file it did not
    write.

    Parameters
    ----------
    path : path
        The output file.
    kind : str, optional
        What the command writes there, as an extension (``".pdf"``), whatever the name; default: the
        name's extension. An existing file is replaced only when that kind is one this check can
        recognise (:data:`_KINDS`) and the file holds it: whatever else a name holds is kept.
    json_format : str, optional
        For a JSON file: the ``format`` it will hold (e.g. ``"ubongo-cp/orion-duel"``); an existing JSON
        file of the toolkit is then replaced only when it holds the same format.

    Raises
    ------
    InputError
        Naming the path and the problem.
    """
    from .errors import InputError

    from pathlib import Path

    target = Path(path)
    check_output_place(path)   # as given: a Path drops the slash that names a folder
    suffix = (kind or target.suffix).lower()
    if (target.exists() or target.is_symlink()) and not (target.is_file() and target.stat().st_size == 0):
        if suffix not in _KINDS:
            raise InputError("exists, and ubongo-cp replaces only files it can tell are its own earlier "
                             "outputs; it is left as it is: remove it or choose another output path", path=target)
        try:
            marked = carries_mark(target, suffix, json_format)
            other = not marked and json_format is not None and suffix == ".json" and carries_mark(target, suffix)
        except OSError as exc:
            raise InputError(f"cannot read the existing file: {exc.strerror or exc}", path=target) from None
        if other:
            raise InputError(f"exists and holds another kind of ubongo-cp record than the {json_format} this "
                             "command writes; it is left as it is: remove it or choose another output path",
                             path=target)
        if not marked:
            what = _KINDS[suffix][0] if suffix == ".csv" else f"{_KINDS[suffix][0]} written by ubongo-cp"
            article = "an" if what.startswith("SVG") else "a"
            raise InputError(f"exists and is not {article} {what}; it is left as it is: remove it "
                             "or choose another output path", path=target)


def fsync(path: str | os.PathLike) -> None:
    """Flush a file's data (written by anyone: pyarrow, matplotlib, ...) to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_directory(path: str | os.PathLike) -> None:
    """Flush a directory's entries (a file created, renamed or deleted in it) to the disk.

    Does nothing where directories cannot be opened (not POSIX).
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # pragma: no cover - e.g. Windows
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - a file system that cannot sync a directory
        pass
    finally:
        os.close(fd)


def replace_durably(source: str | os.PathLike, target: str | os.PathLike) -> None:
    """``os.replace(source, target)`` that survives a power loss: the file's data, then the rename, reach the disk.

    The fsync of the file comes first so that the renamed file is never
    seen empty or torn; the fsync of the directory makes the rename itself
    durable. A target that already holds the very same bytes is kept as it
    is (``source`` removed): its modification time then still tells when its
    content last changed, so that ``make`` and other tools that compare
    times (the ``make run`` of this checkout) redo only what a change reached.
    """
    import filecmp  # here: few commands write files

    if os.path.isfile(target) and filecmp.cmp(source, target, shallow=False):
        os.unlink(source)
        return
    fsync(source)
    os.replace(source, target)
    from pathlib import Path

    fsync_directory(Path(target).parent)


@contextmanager
def signals_held() -> Iterator[None]:
    """Within the block, Ctrl-C (SIGINT) and SIGTERM wait: each one received is raised again when the block ends
    without an error (a ``KeyboardInterrupt``, or the end SIGTERM brings), so that a step that must not stop
    half-way (a deck's card files renamed into place together) finishes first.

    Only in the main thread (the only one whose handlers may be set); elsewhere the block runs as it is.
    """
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    seen: list[int] = []
    kinds = (signal.SIGINT, signal.SIGTERM)
    previous = {kind: signal.getsignal(kind) for kind in kinds}
    for kind in kinds:
        signal.signal(kind, lambda signum, frame: seen.append(signum))
    try:
        yield
    finally:
        for kind, handler in previous.items():
            signal.signal(kind, handler if handler is not None else signal.SIG_DFL)
    for signum in dict.fromkeys(seen):
        signal.raise_signal(signum)


#: The file in a folder that records, while :func:`replace_together` renames files into place there, what
#: goes where: a run killed meanwhile (``kill -9``, a power cut) leaves it, and :func:`interrupted_replace`
#: reads it.
REPLACING = ".ubongo-cp-replacing.json"


def replace_together(writers: Sequence[tuple[str | os.PathLike, Callable[[pathlib.Path], object]]], *,
                     along: Callable[[], object] | None = None, record: dict | None = None) -> None:
    """Write files that go into place together: each ``(path, write)`` has ``write`` fill a temporary file
    beside ``path`` (:func:`atomic_path`); once all are written and on the disk, Ctrl-C and SIGTERM wait
    (:func:`signals_held`) while ``along`` runs (what goes with them: deleting the files of an earlier run that
    they do not replace) and every one is renamed onto its path. A run stopped, or a write that fails (named
    by its file), leaves the earlier files, or all the new ones: never some of each.

    With ``record`` (what the caller needs to finish the job: ``command``, and ``remove``, the names of the
    files ``along`` deletes in the folder), a
    file :data:`REPLACING` in the first path's folder, where all the paths must be, is on the disk while
    ``along`` runs and the files are renamed, and removed after; it records ``record`` and ``rename``:
    [temporary file, file, the file's :func:`file_state` before] of each (names within the folder). A run
    killed then, which no signal handler sees (``kill -9``, a power cut), leaves it behind with the temporary
    files still to rename: readers of the folder refuse it (:func:`refuse_interrupted`) until the caller's
    next run finishes the renames.

    Raises
    ------
    ValueError
        With ``record``, when the paths are not all in one folder, or ``remove`` holds a name of another.
    """
    from contextlib import ExitStack
    from pathlib import Path

    folder = Path(writers[0][0]).parent if writers else None
    if record is not None and (any(Path(path).parent != folder for path, _ in writers)
                               or not all(_file_name(name) for name in record.get("remove", []))):
        raise ValueError("the files replaced together with a record, and those it deletes, must all be in one folder")
    with ExitStack() as held:
        with ExitStack() as writes:
            temporaries = []
            for path, write in writers:
                temporaries.append(writes.enter_context(atomic_path(path)))
                write(temporaries[-1])
            for tmp in temporaries:
                fsync(tmp)
            held.enter_context(signals_held())   # from here on: ``along``, then the renames (leaving ``writes``)
            if record is not None and folder is not None:
                pairs = [[tmp.name, Path(path).name, file_state(path)] for tmp, (path, _) in zip(temporaries, writers)]
                atomic_write_text(folder / REPLACING, json_text({**record, "format": _REPLACING_FORMAT,
                                                                 "rename": pairs}))
            if along is not None:
                along()
        if record is not None and folder is not None:
            os.unlink(folder / REPLACING)
            fsync_directory(folder)


_REPLACING_FORMAT = 1


def json_text(data: dict) -> str:
    """``data`` as the toolkit writes its JSON records: indented, keys sorted, a newline at the end."""
    import json

    return json.dumps(data, indent=1, sort_keys=True) + "\n"


def interrupted_replace(folder: str | os.PathLike) -> dict | None:
    """What a run killed while it renamed files into ``folder`` together (:func:`replace_together` with a
    record) left to do: the record it wrote there (``command``: the command that was writing; ``rename``:
    [temporary file, file, the file's :func:`file_state` then] of each file: where the temporary file is
    still there, it is to be renamed onto the file; ``remove``: the names of the files it was deleting), or
    None when there is none.

    Raises
    ------
    InputError
        When the record cannot be read or is not one the toolkit writes (naming it).
    """
    from pathlib import Path

    from .errors import InputError

    path = Path(folder) / REPLACING
    if not path.exists() and not path.is_symlink():
        return None
    record = read_json_object(path, what="a record of files being replaced", own=True)
    pairs, remove = record.get("rename"), record.setdefault("remove", [])
    if record.get("format") != _REPLACING_FORMAT or not isinstance(record.get("command"), str) or \
            not isinstance(remove, list) or not all(_file_name(name) for name in remove) or \
            not isinstance(pairs, list) or not all(
                isinstance(p, list) and len(p) == 3 and _file_name(p[0]) and _file_name(p[1])
                and is_temporary_of(p[0], p[1]) and (p[2] is None or isinstance(p[2], list) and len(p[2]) == 3
                                                     and all(type(v) is int for v in p[2])) for p in pairs):
        raise InputError("not a record of files being replaced by ubongo-cp; remove it, or choose another folder",
                         path=path)
    return record


def file_state(path: str | os.PathLike) -> list[int] | None:
    """What tells a file's content changed without reading it: [inode, size in bytes, modification time in
    nanoseconds] of the file ``path`` (not following a link), None when there is none."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return [st.st_ino, st.st_size, st.st_mtime_ns]


def _file_name(name) -> bool:
    """Whether ``name`` is the name of a file in a folder: a string without a separator, not ``.`` or ``..``."""
    return isinstance(name, str) and name not in ("", ".", "..") and not any(c in name for c in "/\\\x00")


def refuse_interrupted(folder: str | os.PathLike, what: str = "folder") -> None:
    """Refuse to read ``folder`` while it holds the files of two runs: one was killed while it renamed its
    files into place (:func:`interrupted_replace`).

    Raises
    ------
    InputError
        Naming the folder and the command whose next run finishes the job.
    """
    from pathlib import Path

    from .errors import InputError

    record = interrupted_replace(folder)
    if record is not None:
        raise InputError(f"this {what} holds files of two runs: `ubongo-cp {record['command']}` was stopped while it "
                         "put its new files in place; run it again on this folder to finish", path=Path(folder))


def lock_exclusive(fd: int) -> bool:
    """Take an exclusive :func:`fcntl.flock` on ``fd`` without waiting; released when ``fd`` is closed.

    Returns False when another process holds the lock; True when it is taken, and when there is no lock
    to take (a system without ``flock``, a file system without locks): the caller then goes on unlocked.
    """
    try:
        import fcntl
    except ImportError:  # not a POSIX system
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError:  # a file system without locks
        return True
    return True


def make_parent(path: str | os.PathLike) -> None:
    """Make the folders above the output file ``path`` that are missing (as ``mkdir -p``).

    Raises
    ------
    InputError
        When the file's folder is a file.
    OSError
        When a folder cannot be made.
    """
    from .errors import InputError

    from pathlib import Path

    parent = Path(path).parent
    if parent.exists() and not parent.is_dir():
        raise InputError("is a file, expected a directory", path=parent)
    parent.mkdir(parents=True, exist_ok=True)


def open_journal(path: str | os.PathLike, elsewhere: str = "give another journal file"):
    """Open a journal (UTF-8 text, one line per finished unit of work) for appending, locked.

    A journal created here has its directory entry flushed to the disk at
    once (missing folders above it are made, as for every output file:
    :func:`make_parent`); lines are added with :func:`append_durably`. The journal is locked
    (:func:`fcntl.flock`, where the system has it) until it is closed: a
    second run on the same journal is refused while the first holds it;
    ``elsewhere`` ends that error (what else the user may do).

    Raises
    ------
    InputError
        When another process holds the journal's lock.
    OSError
        When the file cannot be opened.
    """
    from pathlib import Path

    path = Path(path)
    new = not path.exists()
    if new:
        make_parent(path)
    check_not_read_only(path)
    fh = path.open("a", encoding="utf-8")
    if not lock_exclusive(fh.fileno()):
        from .errors import InputError

        fh.close()
        raise InputError("is the journal of a run still going on (another process holds it); wait for "
                         f"that run to end, or {elsewhere}", path=path)
    if new:
        fsync_directory(path.parent)
    return fh


def append_durably(fh, text: str) -> None:
    """Append ``text`` to a journal opened by :func:`open_journal`; on return it is on the disk.

    Raises
    ------
    InputError
        Naming the journal, when the disk (or a quota, or a file size limit) leaves no room for the line.
    """
    try:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    except OSError as exc:
        error = _no_room_error(exc, fh.name)
        if error is None:
            raise
        try:   # closed now: closing it later (a with block) would try the failed write again, and say only that
            fh.close()
        except OSError:
            pass
        raise error from None


def read_journal(path: str | os.PathLike, what: str = "a journal (a file)", *,
                 numbered: bool = False, trim: bool = True) -> Iterator[Any]:
    """The complete lines of a journal written by :func:`append_durably`, each parsed as JSON.

    A line torn by a crash (the last, without its newline) is not read; with ``trim`` it is cut off
    the file first (:func:`trim_journal`), so that new lines start on a line of their own: give
    ``trim=False`` for a file not yet known to be a journal (a file of the user's is not changed
    before it is refused), and trim it once it is. A line that is not JSON (damaged) is skipped.
    ``numbered``: each as ``(line number from 1, value)``.

    Raises
    ------
    InputError
        When ``path`` is not a regular file (``what`` names it).
    """
    import json

    from pathlib import Path

    path = Path(path)
    check_regular_file(path, what)
    data = path.read_bytes()
    if trim:
        trim_journal(path, data)
    import io

    complete = io.StringIO(data[:data.rfind(b"\n") + 1].decode("utf-8", errors="replace"), newline=None)
    for number, line in enumerate(complete, start=1):
        try:
            value = json.loads(line)
        except (ValueError, RecursionError):
            continue
        yield (number, value) if numbered else value


def trim_journal(path: str | os.PathLike, data: bytes | None = None) -> None:
    """Cut a journal's torn last line (one without its newline) off the file, durably.

    ``data``: the file's content when already read.
    """
    from pathlib import Path

    data = Path(path).read_bytes() if data is None else data
    if data and not data.endswith(b"\n"):
        with open(path, "r+b") as fh:
            fh.truncate(data.rfind(b"\n") + 1)
            os.fsync(fh.fileno())


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def row_check(row: dict, salt: str = "") -> str:
    """The check a journal row carries (under the key ``check``): a hash of the rest of its content, under
    ``salt`` (what the journal is of), so that a row changed after it was written is told from one the
    toolkit wrote."""
    import hashlib
    import json

    content = json.dumps({k: v for k, v in row.items() if k != "check"}, sort_keys=True)
    return hashlib.sha256(f"{salt}\n{content}".encode()).hexdigest()[:32]


def csv_problem(exc: BaseException, text: str | None = None) -> tuple[str, int | None]:
    """What a pandas CSV reader's error says, in one line, and the line of the file it names (or None); with the
    file's ``text``, a quoted field left open is placed on the line where its quote opens (pandas counts rows, not
    the lines an editor shows).

    Examples
    --------
    >>> csv_problem(ValueError("Error tokenizing data. C error: Expected 3 fields in line 3, saw 4\\n"))
    ('4 fields where the header line has 3', 3)
    >>> csv_problem(ValueError("Error tokenizing data. C error: EOF inside string starting at row 2"),
    ...             'a,b\\n1,"x\\ny"\\n3,"4\\n')
    ('a quoted field is never closed: its quote opens on this line', 4)
    """
    import re

    first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    found = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", first)
    if found:
        return f"{found[3]} fields where the header line has {found[1]}", int(found[2])
    if "EOF inside string" in first and text is not None:
        line = _open_quote_line(text)
        if line is not None:
            return "a quoted field is never closed: its quote opens on this line", line
    return first, None


def _open_quote_line(text: str) -> int | None:
    """The line on which the quoted field still open at the end of a CSV ``text`` begins (a ``"`` that opens a
    field, ``""`` inside one being a quote), or None when every quoted field is closed."""
    inside, closed, at_start = False, False, True   # in a quoted field; just after its closing quote; field start
    line, start = 1, 1
    for ch in text:
        if inside:
            inside = ch != '"'
            closed = not inside
        elif ch == '"' and (at_start or closed):   # a field's opening quote, or a doubled quote inside one
            inside, start = True, start if closed else line
            closed = at_start = False
        else:
            closed = False
            at_start = ch in ",\n" or (at_start and ch in " \t")
        line += ch == "\n"
    return start if inside else None


def check_unique_columns(names: Sequence[str], path: str | os.PathLike | None = None, *, line: int | None = None,
                         where: str = "the header line") -> None:
    """Refuse a table whose columns ``names`` (a CSV header line's, a Parquet table's) name one column twice.

    pandas renames the second such CSV column ``name.1`` and a Parquet
    table's can be found by name only once: every reader would take one of
    the two and leave the other unread.

    Raises
    ------
    InputError
        ``the header line names column 'seconds' twice`` (``where``: what names the columns).

    Examples
    --------
    >>> check_unique_columns(["card", "seconds", "seconds"], "t.csv", line=1)
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: t.csv:1: the header line names column 'seconds' twice
    """
    from .errors import InputError

    twice = next((name for name in names if list(names).count(name) > 1), None)
    if twice is not None:
        raise InputError(f"{where} names column {twice!r} twice", path=path, line=line)


def check_csv_rows(text: str, path: str | os.PathLike | None = None, *, fewer: bool = False) -> None:
    """Refuse a CSV text with a row of more fields than its header line (with ``fewer``, or of fewer: a
    table whose writer writes every field, so that such a row was cut short), naming that row's line, or
    whose header line names a column twice, or is one field holding ``;`` or a tab (a spreadsheet's export
    with those between fields, which every reader would find lacking each of its columns).

    pandas reads a first row with more fields than the header as having an
    index column, and shifts every field by one (a later such row is its
    error, :func:`csv_problem`): this check says the same for every row. A
    row of fewer fields pandas reads with the missing ones empty.

    Raises
    ------
    InputError
        ``not a CSV table: N fields where the header line has M``,
        ``the header line names column 'seconds' twice``, or
        ``not a CSV table: its fields are separated by ';', not commas: save it with commas``.

    Examples
    --------
    >>> check_csv_rows("a,b\\n1,2,3\\n", "t.csv")
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: t.csv:2: not a CSV table: 3 fields where the header line has 2
    """
    import csv

    from .errors import InputError

    header = None
    try:
        reader = csv.reader(text.splitlines(keepends=True), skipinitialspace=True)
        for row in reader:
            if _blank_row(row):
                continue      # a blank line, which pandas skips
            if header is None:
                header = len(row)
                check_unique_columns([name.strip() for name in row], path, line=reader.line_num)
                # A spreadsheet's export with ';' (or tabs) between fields: the header line is one field, whose
                # name holds every column's (no table of the toolkit has one column of such a name).
                sep = next((c for c in ";\t" if header == 1 and c in row[0]), None)
                if sep:
                    raise InputError(f"not a CSV table: its fields are separated by {sep!r}, not commas: save it "
                                     "with commas", path=path, line=reader.line_num)
            elif len(row) > header or (fewer and len(row) < header):
                raise InputError(f"not a CSV table: {len(row)} fields where the header line has {header}",
                                 path=path, line=reader.line_num)
    except csv.Error:
        return                # pandas says what is wrong with it


def csv_record_lines(text: str) -> list[int]:
    """The line of ``text`` on which each row after the header line begins, for the rows pandas reads.

    pandas skips a blank line (also one of spaces only) and reads a quoted
    field over several lines as one, so the row at position ``i`` is on
    line ``i + 2`` only in a file without either: a message names the line
    an editor shows from this list. Empty when the text is no CSV the
    standard reader takes (pandas then says what is wrong with it).

    Examples
    --------
    >>> csv_record_lines('a,b\\n1,2\\n\\n  \\n3,"x\\ny"\\n4,5\\n')
    [2, 5, 7]
    """
    import csv

    lines: list[int] = []
    header = False
    end = 0               # the line on which the previous row ended
    try:
        reader = csv.reader(text.splitlines(keepends=True), skipinitialspace=True)
        for row in reader:
            start, end = end + 1, reader.line_num
            if _blank_row(row):
                continue
            if header:
                lines.append(start)
            header = True
    except csv.Error:
        return []
    return lines


def _blank_row(row: list[str]) -> bool:
    """Whether a row of :mod:`csv` is a blank line to pandas, which skips it: empty, or of spaces only."""
    return not row or (len(row) == 1 and not row[0].strip())


def check_not_special(path: str | os.PathLike, what: str = "a file to write") -> None:
    """Refuse an output path that names a FIFO, socket or device, before anything opens it (opening a FIFO
    blocks until another process opens its other end). A missing path, a regular file or a directory
    passes (the other output checks judge those).

    Raises
    ------
    InputError
        Naming the path and what it is.
    """
    import stat

    from .errors import InputError

    try:
        mode = os.stat(path).st_mode
    except OSError:
        return
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise InputError(f"is {_special_kind(mode)}, expected {what}", path=path)


def check_not_read_only(path: str | os.PathLike) -> None:
    """Refuse to replace, change or delete a file that nobody may write (``chmod a-w``, mode ``0444``): what its
    owner made read-only is kept, also by a command that wrote it (and run by root, who may write it anyway).
    A missing path, a link (which a write replaces, leaving what it names) or a directory passes.

    Raises
    ------
    InputError
        Naming the path.
    """
    import stat

    from .errors import InputError

    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return
    if stat.S_ISREG(mode) and not mode & 0o222:
        raise InputError("is read-only (no one may write it); it is left as it is: make it writable (chmod u+w) "
                         "or choose another output path", path=path)


def read_json_object(path: str | os.PathLike, what: str = "a record", *, own: bool = False) -> dict:
    """Read a UTF-8 JSON file holding one object (e.g. a game record; ``own``: as :func:`read_bytes`).

    Raises
    ------
    InputError
        As :func:`read_text`; malformed JSON (with its line), nesting too
        deep to decode, an integer too long to convert, or a top-level
        value that is not an object.
    """
    from .errors import InputError

    data = loads_json(read_text(path, own=own), path=path)
    if not isinstance(data, dict):
        raise InputError(f"{what} must be a JSON object, got {type(data).__name__}", path=path)
    return data


def loads_json(text: str, *, path: str | os.PathLike | None = None, line: int | None = None):
    """Decode one JSON document; every failure is an :class:`InputError` naming ``path`` and the line.

    Parameters
    ----------
    text : str
        The document.
    path : str or path, optional
        The file it came from.
    line : int, optional
        The file's line the document starts on (a journal of one JSON
        document per line); lines inside ``text`` count from it.

    Raises
    ------
    InputError
        Malformed JSON, nesting too deep to decode, an integer of more
        digits than Python converts (4,300), or an object naming a key
        twice (which of the two would count is no rule to guess; the
        :mod:`json` module keeps the last), at the second one's line.

    Examples
    --------
    >>> loads_json('{"a": [1, 2]}')
    {'a': [1, 2]}
    >>> loads_json('{"a": ' + "9" * 5000 + "}", path="r.json")
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: r.json:1: a number of 5000 digits (at most 4300 are read)
    >>> loads_json('{"weights": {\\n "search": 1,\\n "search": 2}}', path="m.json")
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: m.json:3: malformed JSON: key 'search' is given twice in one object (also on line 2)
    """
    import json

    from .errors import InputError

    first = line or 1
    try:
        return json.loads(text, object_pairs_hook=_unique_keys)
    except _KeyTwice:
        key, at, before = _key_given_twice(text)
        second, earlier = (first + text.count("\n", 0, i) for i in (at, before))
        raise InputError(f"malformed JSON: key {key!r} is given twice in one object (also on line {earlier})",
                         path=path, line=second) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"malformed JSON: {exc.msg} (column {exc.colno})", path=path,
                         line=first + exc.lineno - 1) from None
    except RecursionError:
        raise InputError("malformed JSON: nested too deeply", path=path, line=line) from None
    except ValueError as exc:  # an integer beyond sys.get_int_max_str_digits()
        raise _long_number(text, path, first, exc) from None


class _KeyTwice(ValueError):
    """A JSON object names a key twice."""


def _unique_keys(pairs: list) -> dict:
    """The ``object_pairs_hook`` of :func:`loads_json`: the object as a dict, or :class:`_KeyTwice`."""
    out = dict(pairs)
    if len(out) < len(pairs):
        raise _KeyTwice()
    return out


def _key_given_twice(text: str) -> tuple[str, int, int]:
    """The first key (in reading order) that an object of the JSON document ``text`` (known to decode, and to
    hold one) names twice, and where it stands (indexes into ``text``): the second time, and the first."""
    import json
    import re

    keys: list[dict | None] = []   # per open bracket: an object's keys and where each stands; None for an array
    last = None                    # the string just read and where it stands
    for match in re.finditer(r'"(?:[^"\\]|\\.)*"|[][{}:]', text):
        token = match.group()
        if token == "{":
            keys.append({})
        elif token == "[":
            keys.append(None)
        elif token in ("}", "]"):
            keys.pop()
        elif token == ":" and last is not None and keys and keys[-1] is not None:
            key = json.loads(last[0])
            if key in keys[-1]:
                return key, last[1], keys[-1][key]
            keys[-1][key] = last[1]
        last = (token, match.start()) if token.startswith('"') else None
    raise ValueError("no object of the document names a key twice")   # pragma: no cover - json found one


#: The suffixes of a table :func:`write_table` writes (CSV, Parquet).
TABLE_SUFFIXES = (".csv", ".parquet", ".pq")


def check_suffix(path: str | os.PathLike, suffixes: Sequence[str], what: str = "output") -> str:
    """The suffix (lower case) of ``path``, one of ``suffixes``: the one check of every output whose kind is fixed.

    A table, a plot or a drawing is written in the kind its name's suffix
    says; every command option and function that writes one refuses another
    name with the same message, before any work and before an existing file
    there is looked at.

    Raises
    ------
    InputError
        For any other suffix: ``PATH: WHAT must end in .csv, .parquet or .pq, not .txt``
        (``what``: the option or argument, e.g. ``--out``).

    Examples
    --------
    >>> check_suffix("games.CSV", TABLE_SUFFIXES)
    '.csv'
    >>> check_suffix("games.jsonl", TABLE_SUFFIXES, "--out")
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: games.jsonl: --out must end in .csv, .parquet or .pq, not .jsonl
    """
    from .errors import InputError

    from pathlib import Path

    suffix = Path(path).suffix.lower()
    if suffix not in suffixes:
        *most, last = suffixes
        choices = f"{', '.join(most)} or {last}" if most else last
        raise InputError(f"{what} must end in {choices}, not {suffix or '(no suffix)'}", path=path)
    return suffix


def check_table_path(path: str | os.PathLike, what: str = "output") -> str:
    """The suffix (lower case) of a table :func:`write_table` can write (:data:`TABLE_SUFFIXES`).

    Raises
    ------
    InputError
        For any other suffix, naming the file (and ``what`` it is, e.g. an option): :func:`check_suffix`.
    """
    return check_suffix(path, TABLE_SUFFIXES, what)


def write_table(table, path: str | os.PathLike, *, notify: Callable[[str], None] | None = None) -> pathlib.Path:
    """Write a pandas ``table`` as CSV or Parquet, chosen by the suffix ``.csv`` / ``.parquet`` / ``.pq``.

    Written atomically (:func:`atomic_path`), without the index; a Parquet table carries the toolkit's mark
    (:func:`marked_arrow`), and an existing Parquet file is replaced only when it carries it. An existing
    table is replaced only by one of the same columns (a CSV file: the same header line); else the table goes
    to a free name beside it, or the one holding this table's earlier run (``STEM-1.csv``, ``STEM-1.parquet``:
    another command's table, such as a batch's ``cards.parquet``, is kept), said through ``notify`` (an
    :class:`~ubongo_cp.errors.OutputWarning` without it). Returns the path written.

    Raises
    ------
    InputError
        For any other suffix (:func:`check_table_path`), a path naming a FIFO, socket or device
        (:func:`check_not_special`), or a Parquet path holding a file the toolkit did not write as a
        Parquet table (:func:`check_output_file`).
    """
    from pathlib import Path

    path = Path(path)
    suffix = check_table_path(path)
    if suffix == ".csv":
        check_not_special(path)
    else:
        check_output_file(path)
    path = _free_target(path, lambda there: other_table_reason(
        there, suffix, lambda: table.head(0).to_csv(index=False).splitlines()[0],
        lambda: [str(c) for c in table.columns]), notify)
    with atomic_path(path) as tmp:
        if suffix == ".csv":
            table.to_csv(tmp, index=False)
        else:
            import pyarrow as pa
            import pyarrow.parquet as pq

            pq.write_table(marked_arrow(pa.Table.from_pandas(table, preserve_index=False)), tmp)
    return path


def other_table_reason(path: str | os.PathLike, suffix: str, header: Callable[[], str],
                       columns: Callable[[], list[str]]) -> str | None:
    """Why the file at ``path`` holds another table than the one a writer is about to put there, or None: the
    one decision of :func:`write_table` (which then writes beside it) and of
    :func:`ubongo_cp.report.tables.write_table` (which refuses).

    A ``.csv`` ``suffix``: a non-empty file whose first line is not ``header()`` (:func:`holds_other_table`),
    ``"its first line differs"``; else a Parquet table of columns other than ``columns()``
    (:func:`holds_other_columns`), ``"its columns differ"``. ``header`` and ``columns`` are asked only for the
    kind of file ``suffix`` names (the columns of a table as Parquet holds it may take converting the table).
    """
    if suffix == ".csv":
        return "its first line differs" if holds_other_table(path, header()) else None
    return "its columns differ" if holds_other_columns(path, columns()) else None


def holds_other_table(path: str | os.PathLike, header: str) -> bool:
    """Whether ``path`` is a non-empty file whose first line is not ``header``: a table of other columns, or no
    table (a CSV file has no place for the toolkit's mark, so its header tells an earlier output of the same
    writer). A missing file holds none."""
    try:
        with open(path, "rb") as fh:
            first = fh.readline(1 << 16)
    except (FileNotFoundError, IsADirectoryError):
        return False
    return bool(first) and first.rstrip(b"\r\n") != header.encode()


def holds_other_columns(path: str | os.PathLike, columns: list[str]) -> bool:
    """Whether ``path`` is a Parquet table (one the toolkit wrote: :func:`check_output_file` has let it pass) of
    columns other than ``columns``. A missing file holds none."""
    if not os.path.isfile(path):
        return False
    import pyarrow.parquet as pq

    try:
        return pq.read_schema(path).names != columns
    except Exception:   # a damaged table is no table of these columns: kept, the table written beside it
        return True


def _free_target(path: pathlib.Path, why: Callable[[pathlib.Path], str | None],
                 notify: Callable[[str], None] | None) -> pathlib.Path:
    """Where :func:`write_table` writes its table: ``path``, unless ``why(path)`` it holds another table
    (:func:`other_table_reason`: a table of other columns there, or no table: a CSV file has no place for the
    toolkit's mark, so its header tells an earlier output of the same command, and a Parquet table of other
    columns is another command's); then the first of ``STEM-1.csv``, ``STEM-2.csv``, ... that is free or holds
    this writer's earlier table (a file of the toolkit's kind, :func:`carries_mark`, of which ``why`` says
    nothing: a re-run replaces the table it wrote there, rather than adding one each time), said through
    ``notify`` (default: an :class:`~ubongo_cp.errors.OutputWarning`) with ``why``."""
    reason = why(path)
    if reason is None:
        return path

    def earlier(there: pathlib.Path) -> bool:
        try:
            return (there.is_file() and not there.is_symlink() and carries_mark(there, path.suffix.lower())
                    and why(there) is None)
        except OSError:   # unreadable: not known to be ours
            return False

    n = 1
    while ((other := path.with_name(f"{path.stem}-{n}{path.suffix}")).exists() or other.is_symlink()) and not (
            earlier(other)):
        n += 1
    message = (f"{path}: exists and holds another table ({reason}); it is left as it is, and "
               f"the table is written to {other}")
    if notify is None:
        import warnings

        from .errors import OutputWarning

        warnings.warn(message, OutputWarning, stacklevel=3)
    else:
        notify(message)
    return other
