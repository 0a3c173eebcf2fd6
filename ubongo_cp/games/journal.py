"""Game journals: the finished games of a long simulation or tournament, kept as they finish.

A :class:`GameJournal` is a JSON-lines file. Its first line, the header,
names the study (``"orion tournament"``, ``"simulate duel"``, ...) and every
option its games depend on (agents, games, seed, rules, a digest of the
rated deck, the toolkit's version); each further line holds the rows of a
run of consecutive games, ``{"first": a, "last": b, "rows": [...]}``,
appended and synced (:func:`~ubongo_cp.io.append_durably`) as soon as those
games are played (:func:`~ubongo_cp.executors.map_chunks` plays them in
chunks of at most :attr:`GameJournal.games_per_line`). A game's randomness
depends only on the seed and its index, so a run stopped by Ctrl-C, a
crash or a kill resumes where it stopped: the games on record are not
played again, and the table is that of an uninterrupted run. So does a run
with more games (``games`` is not compared: game ``i`` does not depend on
it) plays only the games past those on record; one with fewer takes its
games from the journal.

Reading it back is the batch journal's way (:mod:`ubongo_cp.batch`): a line
torn by a kill (the last, without its newline) is cut off and its games are
played again; a line that is not JSON, or whose check
(:func:`~ubongo_cp.io.row_check`, under the header) does not match its
content, is passed over and its games played again. A journal of another
study or of other options is refused before any game, naming the file and
what differs; so is a file that is not a game journal (it is left as it
is), and a link (:func:`~ubongo_cp.outputs.folder_journal`). The journal is
locked while a run appends to it (:func:`~ubongo_cp.io.open_journal`).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, Callable

import numpy as np

from ..errors import InputError

__all__ = ["GameJournal", "KIND", "FORMAT", "deck_option"]

#: What the header's ``journal`` says: a journal of games written by this toolkit.
KIND = "ubongo-cp games"
#: The header's ``format``: the layout of the lines.
FORMAT = 1


class GameJournal:
    """The journal of one study's games: what is on record, and the lines the run adds.

    Use it as a context manager: entering checks the file (or creates it),
    locks it and reads the games on record into :attr:`done` (first game ->
    (last game + 1, rows)); :meth:`append` adds the rows of games as they
    finish; leaving closes it.

    Parameters
    ----------
    path : path
        The journal file (created when missing).
    study : str
        What the games are of (``"simulate ubongo"``): a journal of another
        study is refused.
    options : dict
        Every option the games depend on (JSON values; the toolkit's
        version is added). A journal made with other options is refused,
        naming the options that differ, unless it holds no game yet (a run
        stopped before its first): that one is begun afresh. Its ``seed`` must play the same
        games again: a whole number, or a list of them. Its ``games`` (how many) is not compared: a run of more
        games resumes the journal of fewer, one of fewer takes its games from it.
    games_per_line : int
        The most games journaled in one line (one chunk of games): a run
        stopped loses at most the chunks being played.
    notify : callable, optional
        Called with one line when a run resumes (how many games are on record).
    games : int, optional
        How many games (journal lines' indices ``0 .. games - 1``) the run plays, where that is not
        ``options["games"]`` (a tournament's games per pairing): what ``notify`` counts.

    Raises
    ------
    InputError
        For a ``seed`` that is no whole number (nor a list of them): fresh
        entropy or a generator would play other games on resuming.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     with GameJournal(f"{tmp}/t.jsonl", "demo", {"seed": 1}) as journal:
    ...         _ = journal.append(0, 2, [{"game": 0}, {"game": 1}])
    ...     with GameJournal(f"{tmp}/t.jsonl", "demo", {"seed": 1}) as journal:
    ...         journal.done
    {0: (2, [{'game': 0}, {'game': 1}])}
    """

    def __init__(self, path: str | os.PathLike, study: str, options: dict[str, Any], *, games_per_line: int = 50,
                 notify: Callable[[str], Any] | None = None, games: int | None = None) -> None:
        from .. import __version__

        seed = options.get("seed")
        seeds = seed if isinstance(seed, (list, tuple)) else [seed]
        if "seed" in options and not (seeds and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                                                     for v in seeds)):
            raise InputError("a run whose games are journaled needs a seed that plays them again: a whole number "
                             f"(or a list of them), got {type(seed).__name__}", argument="seed")
        self.path = Path(path)
        self.study = study
        # as the header holds them (tuples as lists, NumPy numbers as Python's)
        self.options = json.loads(json.dumps({**options, "version": __version__}, default=_plain))
        #: The most games journaled in one line (one chunk of games).
        self.games_per_line = max(1, int(games_per_line))
        self.notify = notify
        wanted = options.get("games") if games is None else games
        self._wanted = wanted if type(wanted) is int else None   # a run of fewer takes those
        #: The games on record: first game -> (last game + 1, rows), read on entering.
        self.done: dict[int, tuple[int, list]] = {}
        self._fh = None
        self._salt = ""

    @classmethod
    def of(cls, path: str | os.PathLike | None, study: str, options: dict[str, Any],
           **kwargs) -> "GameJournal | None":
        """The journal at ``path`` (as the class), or None when ``path`` is None (no journal)."""
        return None if path is None else cls(path, study, options, **kwargs)

    @property
    def header(self) -> dict[str, Any]:
        """The journal's first line."""
        return {"journal": KIND, "format": FORMAT, "study": self.study, "options": self.options}

    # ------------------------------------------------------------ entering
    def __enter__(self) -> "GameJournal":
        from ..io import append_durably, check_not_special, open_journal
        from ..outputs import folder_journal

        path = folder_journal(self.path)
        check_not_special(path, "a journal file")
        if path.is_dir():
            raise InputError("is a directory, expected a journal file", path=path)
        self._salt = _salt(self.header)
        try:   # locked before it is read: one run at a time resumes and appends
            self._fh = open_journal(path, "choose another --out")
        except OSError as exc:
            raise InputError(f"cannot write the journal: {exc.strerror or exc}", path=path) from None
        try:
            self._read(path)
            if path.stat().st_size == 0:   # a new journal, or one stopped before its header was whole
                append_durably(self._fh, json.dumps(self.header) + "\n")
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def _read(self, path: Path) -> None:
        """Take the games on record (into :attr:`done`); nothing in the file is changed before it is known to be
        a journal of these games."""
        from ..io import read_journal, row_check, trim_journal

        numbered = list(read_journal(path, "a journal file", numbered=True, trim=False))
        if not numbered:
            data = path.read_bytes()
            if data and b"\n" not in data and data.startswith(json.dumps({"journal": KIND})[:-1].encode()):
                trim_journal(path, data)   # a header torn by a kill before it was whole
            elif data:
                raise self._foreign()
            return
        head = numbered[0][1]
        if not (isinstance(head, dict) and head.get("journal") == KIND and head.get("format") == FORMAT
                and isinstance(head.get("options"), dict)):
            raise self._foreign()
        salt = _salt(head)   # the header on record (that of a run of other games) checks the lines
        on_record: dict[int, tuple[int, list]] = {}
        for _, line in numbered[1:]:
            if not (isinstance(line, dict) and _is_line(line) and line.get("check") == row_check(line, salt)):
                continue   # damaged, or changed after it was written: its games are played again
            first, last = line["first"], line["last"]
            if any(first < b and a < last for a, (b, _) in on_record.items()):
                continue   # games on record twice: taken once
            on_record[first] = (last, line["rows"])
        games = sum(last - first for first, (last, _) in on_record.items())
        lose = f" (removing it loses the {games} finished game(s) it holds)" if games else ""
        if head.get("study") != self.study:
            raise InputError(f"is the journal of `ubongo-cp {head.get('study')}`, not of `ubongo-cp {self.study}`; "
                             f"it is left as it is: choose another output, or remove it{lose}", path=path)
        change = _change(*(self._compared(o) for o in (head["options"], self.options)))
        if change and len(numbered) == 1:   # stopped before its first game: nothing on record to keep
            os.truncate(path, 0)   # the file this run holds locked
            return
        if change:
            raise InputError(f"is the journal of games played with other options ({change}); it is left as it "
                             "is: run with the same options to resume it, or remove it (or choose another output) "
                             f"to start afresh{lose}", path=path)
        trim_journal(path)   # a line torn by a kill is cut off before new lines follow
        self._salt = salt
        self.done.update(on_record)
        wanted = self._wanted
        if self.done and self.notify is not None:
            games = sum(min(last, wanted or last) - first for first, (last, _) in self.done.items()
                        if first < (wanted or last))
            self.notify(f"resuming from {path}: {games} game(s) already played are taken from it")

    def _compared(self, options: dict) -> dict:
        """The ``options`` a journal must share with the run: all but the number of games."""
        return {k: v for k, v in options.items() if k != "games"}

    def _foreign(self) -> InputError:
        return InputError("exists and is not a journal of games written by ubongo-cp; it is left as it is: "
                          "remove it, or choose another output", path=self.path)

    # ------------------------------------------------------------- adding
    def append(self, first: int, last: int, rows: list) -> list:
        """Journal the rows of games ``first .. last - 1``; on return they are on the disk. Returns the rows as
        the journal holds them (NumPy scalars as Python numbers), the same a resumed run reads.

        Raises
        ------
        InputError
            When the journal cannot be written (a full disk), naming it.
        """
        from ..io import append_durably, row_check

        line = json.loads(json.dumps({"first": first, "last": last, "rows": rows}, default=_plain))
        if self._fh is None:
            raise RuntimeError("a game journal is appended to within its with block")
        try:
            append_durably(self._fh, json.dumps({**line, "check": row_check(line, self._salt)}) + "\n")
        except OSError as exc:
            raise InputError(f"cannot write the journal: {exc.strerror or exc}", path=self.path) from None
        return line["rows"]


def deck_option(deck) -> dict[str, str]:
    """A rated deck (:class:`~ubongo_cp.games.tasks.TaskDeck`) as a journal records it: a digest of what it gives
    the games (per side its die faces, card ids and difficulty ratios), which a resumed run must match, and in
    words where it came from, which a journal refused for another deck names (``"deck tasks.csv (af62...), now
    synthetic (a76d...)"``: its file, ``synthetic`` or ``given as a table``)."""
    sides = {s: {"faces": deck.faces(s), **deck.side_to_json(s)} for s in deck.ratios}
    digest = hashlib.sha256(json.dumps(sides, sort_keys=True).encode()).hexdigest()[:16]
    return {"digest": digest, "about": f"{deck.source or 'given as a table'} ({digest})"}


def _salt(header: dict) -> str:
    """What a journal's line checks (:func:`~ubongo_cp.io.row_check`) are salted with: a digest of its header."""
    return hashlib.sha256(json.dumps(header, sort_keys=True).encode()).hexdigest()


def _is_line(line: dict) -> bool:
    first, last = line.get("first"), line.get("last")
    return (type(first) is int and type(last) is int and 0 <= first < last
            and isinstance(line.get("rows"), list))


def _plain(value):
    """A NumPy scalar as the Python number it holds (for :func:`json.dumps`)."""
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def _change(old: dict, new: dict) -> str:
    """``"seed 1, now 2; model sigma 0.4, now 0.2"``: how the options on record differ from this run's (options
    that are objects compared field by field)."""
    def described(value) -> bool:   # a value compared by its digest and shown in words (deck_option)
        return isinstance(value, dict) and set(value) == {"digest", "about"}

    def show(value) -> str:
        return "none" if value is None else value["about"] if described(value) else \
            ",".join(map(show, value)) if isinstance(value, list) else str(value)

    def same(a, b) -> bool:
        return a["digest"] == b["digest"] if described(a) and described(b) else a == b

    def flat(options: dict, prefix: str = "") -> dict:
        out: dict = {}
        for k, v in options.items():
            out.update(flat(v, f"{prefix}{k} ") if isinstance(v, dict) and v and not described(v)
                       else {f"{prefix}{k}": v})
        return out

    old, new = flat(old), flat(new)
    parts = [f"{k.replace('_', ' ')} {show(old.get(k))}, now {show(new[k])}" for k in new
             if not same(old.get(k), new[k])]
    parts += [f"{k.replace('_', ' ')} {show(old[k])}, now none" for k in old if k not in new]
    return "; ".join(parts)
