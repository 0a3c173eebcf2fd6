"""Output folders: the toolkit replaces or deletes only files it wrote, and one run writes at a time.

A command that writes several files into a folder (``batch --out``,
``census --out``, ``generate --out``, ``booklet --png``, ``orion analyze
--pictures``) opens it as an :class:`OutputFolder`:

- **A lock.** The folder is locked (:func:`fcntl.flock` on the folder
  itself) for as long as the command writes into it; a second run into the
  same folder is refused at once, whichever command it is. The operating
  system releases the lock when the process ends, however it ends.
- **What it wrote.** A hidden file, :data:`MARKER` (``.ubongo-cp.json``),
  records per command the files it wrote there and what they were made from
  (the ``source``: the deck, the spec). A command replaces or deletes only
  files recorded as its own; a file of that name it did not write (a user's
  photo, notes, an earlier deck) is refused before any work starts, naming
  the file. Files it does not write are never touched. A run that fails
  or is stopped keeps on record only the files it wrote: one that wrote
  none leaves the record as it found it (no record, in a folder that had
  none; no source, in a record that had none).
- **One source per folder.** A folder that holds a command's output made
  from one source (e.g. the tables of one deck) refuses the same command
  run on another source, instead of mixing the two or keeping only the last;
  a source of the same ``content`` at another place (a deck moved or
  renamed) is the same source, and the record then names its new place.
- **One command per folder, for datasets.** The commands whose output is
  a whole folder (:data:`OWN_FOLDER`: ``generate``, ``batch``, ``census``,
  ``bench``) refuse a folder holding another one's output: a deck, a
  batch's tables and a census do not share a folder. Other commands (the
  pictures of ``booklet --png``) may write beside them.
- **Edits are kept.** For the files a command names as ``guarded`` (cards,
  pictures, tables: what a user may open and change), the record holds a
  SHA-256 of what the command wrote; one changed since is neither replaced
  nor deleted: the command stops before any work, naming it.

Folders written before the marker existed are recognised by their files
(each command says how, with ``adopt``) and taken over; a census's or a
batch's folder so recognised is refused to the other commands of
:data:`OWN_FOLDER`, as one with its record.

Examples
--------
>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as tmp:
...     with OutputFolder(tmp, "demo", source="deck-a") as folder:
...         folder.claim(["page.png"])
...         _ = (folder.path / "page.png").write_bytes(b"...")
...     with OutputFolder(tmp, "demo", source="deck-a") as folder:
...         folder.owns("page.png"), folder.owns("holiday.png")
(True, False)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Callable, Iterable

from .errors import InputError

__all__ = ["OutputFolder", "MARKER", "GUARDED_BYTES", "OWN_FOLDER", "folder_journal"]

#: The file in an output folder recording which command wrote which files there.
MARKER = ".ubongo-cp.json"

#: The commands whose output is a folder of their own: one refuses a folder holding another one's output.
OWN_FOLDER = frozenset({"generate", "batch", "census", "bench"})

#: How a folder without a record (made before it existed, or copied without it) shows that it holds the output
#: of a command of :data:`OWN_FOLDER`: that command's ``adopt`` (module, function), which names its own files
#: there: a census's manifest and tables, a batch's journal and tables.
_OWN_FILES = {"batch": ("ubongo_cp.batch", "_batch_files"), "census": ("ubongo_cp.census.run", "_census_files")}

_FORMAT = 1


def _holds_output_of(command: str, path: Path) -> bool:
    """Whether the folder ``path`` holds files of ``command``'s own output by their own content (:data:`_OWN_FILES`)."""
    import importlib

    module, name = _OWN_FILES[command]
    return bool(getattr(importlib.import_module(module), name)(path))


def _inside(name) -> bool:
    """Whether ``name`` is a path relative to a folder and inside it (no root, no drive, no ``..`` part)."""
    from pathlib import PurePosixPath, PureWindowsPath

    if not isinstance(name, str) or not name or "\\" in name or "\x00" in name:
        return False
    path = PurePosixPath(name)
    return not path.is_absolute() and ".." not in path.parts and not PureWindowsPath(name).drive


class OutputFolder:
    """A folder a command writes into: locked, and knowing which files are its own.

    Use it as a context manager; the folder is created (with its parents),
    locked and its marker read on entry, and unlocked on exit. When the
    block ends with an error, the files claimed in it but not written are
    dropped from the record (see :meth:`claim`), and a folder created on
    entry is removed again if it is left empty.

    Parameters
    ----------
    path : path
        The folder.
    command : str
        Who writes (e.g. ``"batch"``): ownership is per command, so two
        commands may share a folder without touching each other's files.
    source : str, optional
        What the output is made from (e.g. the deck's absolute path). A
        folder holding this command's output from another source is refused,
        unless both are of the same ``content``.
    content : str, optional
        A digest of what ``source`` holds that its output depends on (a
        deck's tasks), recorded with it: a folder recorded for another
        source of this same content is taken as the output of this one (the
        source was moved or renamed; :attr:`moved` then names where it was).
    adopt : callable, optional
        ``adopt(folder) -> names``: for a folder without a marker entry for
        ``command``, the files already there that this command wrote and may
        carry on from (a journal or a dataset whose own header says whose it
        is, in a folder copied without its marker); default none. A guarded
        file is never taken over so: with no record of what was written,
        an edit of it could not be told (a copied deck's card edited by
        hand, an annotated summary), so it counts as the user's.
    guarded : callable, optional
        ``guarded(name) -> bool``: the files whose content is recorded when
        the block ends, so that one edited since is never replaced or
        deleted (files of up to :data:`GUARDED_BYTES`; a journal the command
        appends to, or a large dataset, is left out); default none.

    Raises
    ------
    InputError
        On creation, for an empty ``path`` (:func:`~ubongo_cp.reading.refuse_empty_path`); on entry: ``path`` is a
        file or cannot be created, another run holds
        the lock, the folder holds this command's output from another
        source, or (for a command of :data:`OWN_FOLDER`) another such
        command's output.
    """

    def __init__(self, path: str | os.PathLike, command: str, *, source: str | None = None, content: str | None = None,
                 adopt: Callable[[Path], Iterable[str]] | None = None,
                 guarded: Callable[[str], bool] | None = None) -> None:
        from .reading import refuse_empty_path

        refuse_empty_path(path, "the output folder")   # not the folder the command runs in
        self.path = Path(path)
        self.command = command
        self.source = source
        self.content = content
        #: The source recorded for this folder when it was another of the same content (moved or renamed), else None.
        self.moved: str | None = None
        self._adopt = adopt
        self._guarded = guarded
        self._claimed: list[str] = []   # guarded names claimed in this run: their content is recorded on exit
        self._new: list[str] = []       # names recorded in this run for files not there then
        self._had_marker = False        # the folder held a record on entering
        self._had_entry = False         # ... with an entry for this command
        self._fd: int | None = None
        self._marker: dict = {}
        self._entry: dict[str, Any] = {"source": source, "files": []}  # this command's record, read on entering
        self._created: list[Path] = []
        self._pending = False  # the record changed on entering (files adopted, a source set): saved on a claim
        self._filled = False   # the source was filled in on entering, in a record that had none

    # ------------------------------------------------------------ entering
    def __enter__(self) -> "OutputFolder":
        path = self.path
        if path.exists() and not path.is_dir():
            raise InputError("is a file, expected a directory for the output", path=path)
        missing = [p for p in (path, *path.parents) if not p.exists()]
        try:
            path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot create the folder: {exc.strerror or exc}", path=path) from None
        self._created = missing  # deepest first
        self._lock()
        try:
            self._read_marker()
            self._finish_replacing()
            self._remove_stale_temporaries()
        except BaseException:
            self.__exit__(*sys.exc_info())
            raise
        return self

    def _remove_stale_temporaries(self) -> None:
        """Delete the temporary files a run killed while writing one of this command's files left beside it
        (:func:`~ubongo_cp.io.is_temporary_of`); the folder is locked, so no other run is writing them."""
        from .io import remove_stale_temporaries

        for name in self._entry["files"]:
            target = self.path / name
            if self._within(target.parent):
                remove_stale_temporaries(target)

    def _finish_replacing(self) -> None:
        """Finish what a run of this command killed while it put its files in place together left undone
        (:meth:`replace_together`): rename its temporary files that are still there onto their files, then
        delete the files it was deleting. A file changed since that run began the renames (by the user: its
        inode, size or time differ from the record's) is left as it is, and its new version dropped."""
        from .io import REPLACING, file_state, fsync_directory, interrupted_replace

        record = interrupted_replace(self.path)
        if record is None or record["command"] != self.command:
            return
        for tmp, name, before in record["rename"]:
            source = self.path / tmp
            if not source.is_file() or source.is_symlink():
                continue   # renamed before the run was killed
            if file_state(self.path / name) == before:
                os.replace(source, self.path / name)
                if self._guarded is not None and self._guarded(name) and self.owns(name):
                    self._claimed.append(name)   # its content recorded on leaving
            else:
                source.unlink()
        fsync_directory(self.path)
        self.remove(record["remove"])
        (self.path / REPLACING).unlink()
        fsync_directory(self.path)

    def replace_together(self, writers: Iterable[tuple[str, Callable[[Path], object]]], *,
                         remove: Iterable[str] = ()) -> None:
        """Write files into the folder, all put in place together, and delete ``remove`` with them
        (:meth:`remove`): :func:`~ubongo_cp.io.replace_together`, which each ``(name, write)`` has write a
        temporary file. A run stopped, or a write that fails, leaves the folder's earlier files, or all the new
        ones. So does a run killed while it renames them (``kill -9``, a power cut), once this command runs on
        the folder again: the record it leaves (:data:`~ubongo_cp.io.REPLACING`) has that run finish the job on
        entering, and the folder's readers refuse the folder until then (:func:`~ubongo_cp.io.refuse_interrupted`).

        Raises
        ------
        InputError
            As :meth:`remove` (before anything is written), and for a file that cannot be written.
        """
        from .io import replace_together

        remove = list(dict.fromkeys(remove))
        self._refuse_edited(remove)
        replace_together([(self.path / name, write) for name, write in writers], along=lambda: self.remove(remove),
                         record={"command": self.command, "remove": remove})

    def __exit__(self, exc_type, *exc) -> None:
        try:
            if exc_type is not None and (self._new or self._filled):
                self._forget_unwritten()
            if self._claimed:
                self._record_digests()
            if exc_type is not None and self._created:
                self._remove_if_empty()
        finally:
            self._unlock()

    def _record_digests(self) -> None:
        """Record what the guarded files claimed in this run hold now (what the command wrote)."""
        digests = self._entry.setdefault("digests", {})
        for name in dict.fromkeys(self._claimed):
            digest = _digest(self.path / name) if self.owns(name) else None
            if digest is not None:
                digests[name] = digest
        self._claimed = []
        try:
            self._save()
        except (OSError, InputError):   # a full disk at the end: the files stand, only unguarded
            pass

    def _forget_unwritten(self) -> None:
        """After a failed run: the files it claimed but never wrote leave the record (a file of the user's put
        there later under such a name is not taken for the command's), and a record that then holds no more
        than before the run is put back as it was, so the folder does not look like one holding the command's
        output (of this source) when it holds none. A source it filled in is taken back if it wrote none of
        the files it claimed new: the folder holds no more of that source's output than before."""
        unwritten = {n for n in self._new if not _exists(self.path / n)}
        refill = self._filled and not set(self._new) - unwritten
        if not unwritten and not refill:
            return
        if refill:
            self._entry["source"] = None
            self._filled = False
        self._entry["files"] = [n for n in self._entry["files"] if n not in unwritten]
        digests = self._entry.get("digests") or {}
        for n in unwritten:
            digests.pop(n, None)
        self._claimed = [n for n in self._claimed if n not in unwritten]
        commands = self._marker["commands"]
        if not self._had_entry and not self._entry["files"]:
            commands.pop(self.command, None)
        if self._pending:   # nothing was saved in this run (no claim): the record on disk is as it was
            return
        try:
            if commands or self._had_marker:
                self._save()
            else:
                (self.path / MARKER).unlink(missing_ok=True)
        except (OSError, InputError):   # the record stands as the run left it: it only names more files
            pass

    def _remove_if_empty(self) -> None:
        """After a refused or failed run: remove the folders it created, if it left nothing in them."""
        try:
            if {p.name for p in self.path.iterdir()} - {MARKER}:
                return
            (self.path / MARKER).unlink(missing_ok=True)
            for folder in self._created:
                folder.rmdir()
        except OSError:
            pass

    def _lock(self) -> None:
        from .io import lock_exclusive

        if os.name != "posix":  # pragma: no cover - no folder to open and lock: go on unlocked
            return
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except OSError as exc:
            raise InputError(f"cannot open the folder: {exc.strerror or exc}", path=self.path) from None
        if not lock_exclusive(fd):
            os.close(fd)
            raise InputError("another ubongo-cp run is writing into this folder; wait for it to finish "
                             "or choose another folder", path=self.path)
        self._fd = fd

    def _unlock(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor releases the flock
            self._fd = None

    def _read_marker(self) -> None:
        from .io import read_json_object

        marker_path = self.path / MARKER
        self._had_marker = marker_path.exists()
        marker = read_json_object(marker_path, what="an output folder's record", own=True) if marker_path.exists() else {}
        commands = marker.get("commands")
        if marker and (marker.get("format") != _FORMAT or not isinstance(commands, dict)):
            raise InputError("not a record of files written by ubongo-cp; remove it or choose another folder",
                             path=marker_path)
        self._marker = {"format": _FORMAT, "commands": dict(commands or {})}
        if self.command in OWN_FOLDER:
            owner = next((c for c, e in sorted(self._marker["commands"].items()) if c != self.command
                          and c in OWN_FOLDER and isinstance(e, dict) and e.get("files")), None)
            if owner is None:   # no record of it: a folder made before the record existed, or copied without it
                owner = next((c for c in sorted(_OWN_FILES) if c != self.command
                              and _holds_output_of(c, self.path)), None)
            if owner is not None:
                raise InputError(f"holds the output of `ubongo-cp {owner}`; `ubongo-cp {self.command}` writes into "
                                 "a folder of its own: choose another (new or empty) folder", path=self.path)
        entry = self._marker["commands"].get(self.command)
        self._had_entry = entry is not None
        if entry is None:
            # files another command recorded here are its own, whatever their names look like
            others = {n for c, e in self._marker["commands"].items() if c != self.command and isinstance(e, dict)
                      for n in e.get("files", []) if isinstance(n, str)}
            adopted = sorted(set(self._adopt(self.path)) - others) if self._adopt is not None else []
            if self._guarded is not None:   # no record of its content: an edit could not be told (adopt)
                adopted = [name for name in adopted if not self._guarded(name)]
            self._entry = {"source": self.source, "files": adopted}
            if self.content is not None:
                self._entry["content"] = self.content
            if adopted:  # recorded when the command writes (claim): a refused run leaves no record behind
                self._marker["commands"][self.command] = self._entry
                self._pending = True
            return
        if not isinstance(entry, dict) or not isinstance(entry.get("files"), list) or \
                not all(_inside(name) for name in entry["files"]):
            # a name outside the folder (absolute, or through ..) is no file a command wrote there: a record
            # made to name one would have the command delete or replace it
            raise InputError("not a record of files written by ubongo-cp; remove it or choose another folder",
                             path=marker_path)
        old = entry.get("source")
        if self.source is not None and old is not None and old != self.source:
            if self.content is None or entry.get("content") != self.content:
                why = (" (which holds other content)" if isinstance(entry.get("content"), str) else
                       " (the record does not say what that held: to carry on with it, run from there)"
                       if self.content is not None else "")
                raise InputError(f"holds the output of `ubongo-cp {self.command}` for {old}{why}, not {self.source}; "
                                 "choose another folder (removing this one would lose the output it holds)",
                                 path=self.path)
            self.moved = str(old)   # the same content at another place: the source was moved or renamed
        digests = entry.get("digests", {})
        if not (isinstance(digests, dict) and all(isinstance(v, str) for v in digests.values())):
            # a damaged record of contents: an edit could not be told, and a file is never replaced unseen
            raise InputError("not a record of files written by ubongo-cp (its record of their contents is "
                             "damaged); remove it or choose another folder", path=marker_path)
        self._entry = entry
        if self.source is not None and old is None:
            entry["source"] = self.source
            self._pending = self._filled = True
        if self.moved is not None:
            entry["source"] = self.source
            self._pending = True
        if self.content is not None and entry.get("content") != self.content:
            entry["content"] = self.content
            self._pending = True

    def _save(self) -> None:
        from .io import atomic_write_text, json_text

        atomic_write_text(self.path / MARKER, json_text(self._marker))

    # ------------------------------------------------------------- queries
    def _within(self, folder: Path) -> bool:
        """Whether ``folder`` is this folder or one inside it once links are followed (a subfolder that is a
        link to elsewhere is not: nothing there is deleted)."""
        real, own = os.path.realpath(folder), os.path.realpath(self.path)
        return real == own or real.startswith(own + os.sep)

    def owns(self, name: str) -> bool:
        """Whether ``name`` (a path relative to the folder) was written here by this command."""
        return name in self._entry["files"]

    @property
    def files(self) -> list[str]:
        """The files this command recorded as written here (relative paths, sorted)."""
        return sorted(self._entry["files"])

    def foreign(self, names: Iterable[str]) -> list[str]:
        """Those of ``names`` that exist in the folder but were not written by this command."""
        return [n for n in names if _exists(self.path / n) and not self.owns(n)]

    def edited(self, names: Iterable[str]) -> list[str]:
        """Those of ``names`` this command wrote whose content changed since (guarded files only)."""
        digests = self._entry.get("digests") or {}
        return [n for n in names if n in digests and self.owns(n) and _exists(self.path / n)
                and _digest(self.path / n) != digests[n]]

    def _refuse_edited(self, names: Iterable[str]) -> None:
        """Refuse to go on when one of ``names`` was changed since this command wrote it (:meth:`edited`), or is
        read-only (:func:`~ubongo_cp.io.check_not_read_only`): either is kept as it is."""
        from .io import check_not_read_only

        names = list(names)
        for name in names:
            check_not_read_only(self.path / name)
        changed = self.edited(names)
        if changed:
            more = f" (and {len(changed) - 1} more)" if len(changed) > 1 else ""
            raise InputError(f"changed since `ubongo-cp {self.command}` wrote it{more}; it is left as it is: move "
                             "it away (or delete it) to have it written again, or choose another folder",
                             path=self.path / changed[0])

    def check(self, names: Iterable[str], *, unless_same: dict[str, bytes] | None = None) -> None:
        """Refuse to go on if writing ``names`` would replace a file this command did not write, or one it wrote
        that was changed since (:meth:`edited`) or made read-only (:func:`~ubongo_cp.io.check_not_read_only`).

        Parameters
        ----------
        names : iterable of str
            Files (relative paths) the command is going to write.
        unless_same : dict, optional
            name -> the bytes the command would write: a file of another
            origin that already holds exactly these bytes is no conflict
            (the command leaves it alone).

        Raises
        ------
        InputError
            Naming the first such file.
        """
        unless_same = unless_same or {}
        names = list(dict.fromkeys(names))
        foreign = self.foreign(names)
        same = {n for n in foreign if n in unless_same and _holds(self.path / n, unless_same[n])}
        clash = [n for n in foreign if n not in same]
        if clash:
            more = f" (and {len(clash) - 1} more)" if len(clash) > 1 else ""
            raise InputError(f"exists and was not written by `ubongo-cp {self.command}`{more}; it is left alone: "
                             "choose another (new or empty) folder, or move the file away",
                             path=self.path / clash[0])
        self._refuse_edited([n for n in names if n not in same])   # those left alone may be read-only

    # ------------------------------------------------------------- changes
    def claim(self, names: Iterable[str], *, unless_same: dict[str, bytes] | None = None) -> None:
        """Record ``names`` as this command's files (call it before writing them).

        Names that :meth:`check` lets pass because the file already holds
        the same bytes are not recorded: the command leaves them alone. A
        name claimed for a file not there yet leaves the record again if
        the block ends with an error before the file is written.

        Raises
        ------
        InputError
            As :meth:`check` (nothing is recorded then).
        """
        names = list(dict.fromkeys(names))
        self.check(names, unless_same=unless_same)
        new = [n for n in names if not self.owns(n) and not _exists(self.path / n)]
        guarded = [n for n in names if self._guarded is not None and self._guarded(n)
                   and (self.owns(n) or n in new)]
        digests = self._entry.get("digests") or {}
        # A guarded file about to be written loses its recorded content until the block ends (a run killed
        # while writing it must not leave the old content on record, and the new one taken for an edit).
        stale = [n for n in guarded if n in digests]
        for n in stale:
            del digests[n]
        self._claimed += guarded
        self._new += [n for n in new if n not in self._new]
        if new or stale or self._pending or self.command not in self._marker["commands"]:
            self._entry["files"] = sorted(set(self._entry["files"]) | set(new))
            self._marker["commands"][self.command] = self._entry
            self._save()
            self._pending = False

    def remove(self, names: Iterable[str]) -> list[str]:
        """Delete those of ``names`` this command wrote (others are left); returns the names deleted.

        Raises
        ------
        InputError
            Before deleting anything, when one of them was changed since (:meth:`edited`) or is read-only.
        """
        names = list(names)
        self._refuse_edited(names)
        gone = []
        for name in names:
            if self.owns(name):
                target = self.path / name
                if (target.is_file() or target.is_symlink()) and self._within(target.parent):
                    target.unlink()
                gone.append(name)
        if gone:
            self._entry["files"] = sorted(set(self._entry["files"]) - set(gone))
            digests = self._entry.get("digests") or {}
            for n in gone:
                digests.pop(n, None)
            self._save()
        return gone


def folder_journal(path: str | os.PathLike) -> Path:
    """``path``, the journal of an output folder (``batch``'s ``tasks.jsonl``, ``bench``'s ``runs.jsonl``), which a
    command appends to and whose torn last line it cuts in place, once checked to be no link.

    Raises
    ------
    InputError
        When it is a symbolic link (dangling or not): what it names may lie anywhere (another folder's journal,
        a file of the user's) and would be changed through it.
    """
    path = Path(path)
    if path.is_symlink():
        raise InputError("is a link; a journal is kept in its output folder itself, and the file the link names is "
                         "left as it is: remove the link, or choose another folder", path=path)
    return path


#: The largest guarded file whose content is recorded (bytes); a larger one is not guarded.
GUARDED_BYTES = 64 << 20


def _digest(path: Path) -> str | None:
    """SHA-256 of a regular file of at most :data:`GUARDED_BYTES` (None otherwise, or when unreadable)."""
    import hashlib

    try:
        if not path.is_file() or path.is_symlink() or path.stat().st_size > GUARDED_BYTES:
            return None
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _exists(path: Path) -> bool:
    return path.exists() or path.is_symlink()


def _holds(path: Path, data: bytes) -> bool:
    """Whether the regular file ``path`` holds exactly ``data``."""
    try:
        return path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False
