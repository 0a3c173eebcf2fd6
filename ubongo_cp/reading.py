"""Reading the toolkit's input files: bytes and UTF-8 text, their lines, TOML, and what a file of another format is.

Every reader refuses what is not a regular file before opening it (a FIFO
would block, a device never ends), reads at most :data:`MAX_INPUT_BYTES`,
and turns any failure into an :class:`~ubongo_cp.errors.InputError`
naming the file (and its line). Within :func:`protect_inputs` (every
``ubongo-cp`` command runs in it), each file read here (or named with
:func:`note_input`) is remembered, and :func:`ubongo_cp.io.atomic_path`
refuses to replace one of them.

The output side is :mod:`ubongo_cp.io`, which exports these names too: a
command that only reads (a count, an analysis, a card task) imports this
module alone, without the writers, journals, locks and tables.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False

if TYPE_CHECKING:
    import pathlib

__all__ = ["protect_inputs", "note_input", "check_regular_file", "read_bytes", "read_text", "text_lines", "text_head",
           "wide_codec", "is_plain_name", "PLAIN_NAME", "loads_toml", "other_format", "wrong_format", "MAX_INPUT_BYTES",
           "KNUTH_SUFFIXES", "refuse_empty_path"]


#: (device, inode) -> path of the files read inside :func:`protect_inputs`; None outside it.
_INPUTS: dict[tuple[int, int], str] | None = None


class protect_inputs:
    """Within the block, :func:`~ubongo_cp.io.atomic_path` refuses to replace any file read within it.

    Files are recognised by device and inode, so another name for the same
    file (a relative path, a symbolic or hard link) is caught too.

    A context manager class, not :func:`contextlib.contextmanager`: every
    command enters it, and importing :mod:`contextlib` is about half a
    millisecond of a command's start-up.
    """

    def __enter__(self) -> None:
        global _INPUTS
        self._outer = _INPUTS
        _INPUTS = {} if self._outer is None else self._outer

    def __exit__(self, *exc) -> None:
        global _INPUTS
        _INPUTS = self._outer


def note_input(path: str | os.PathLike) -> None:
    """Remember ``path`` as an input of the running command (see :func:`protect_inputs`)."""
    if _INPUTS is None:
        return
    try:
        st = os.stat(path)
    except OSError:
        return
    _INPUTS.setdefault((st.st_dev, st.st_ino), os.fspath(path))


def _check_not_input(target: pathlib.Path) -> None:
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


def wide_codec(data: bytes) -> str | None:
    """``"utf-32"`` or ``"utf-16"`` for data starting with that encoding's byte-order mark; else None."""
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        return "utf-32"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    return None


def text_head(data: bytes) -> str:
    """The first characters of a file's bytes as text, without a byte-order mark and leading blank space:
    UTF-16 and UTF-32 by their mark, else one character per byte (enough to tell how a file begins, as
    ``"<?xml"`` does)."""
    codec = wide_codec(data)
    if codec:
        return data[:64].decode(codec, "replace").lstrip("\ufeff \t\n\v\f\r")
    return data.lstrip(b"\xef\xbb\xbf \t\n\v\f\r")[:64].decode("latin-1")


#: The extensions of a file in Knuth's exact-cover format (DLX1, DLX2, DLX3; ``.xcc`` as for his XCC solvers):
#: what ``export`` writes in that format and a benchmark directory reads as an instance.
KNUTH_SUFFIXES = (".dlx", ".xcc")


#: Largest input file read (bytes): every input of the toolkit is far smaller, and a larger one
#: (a mistaken path, a disk image) would only fill the memory.
MAX_INPUT_BYTES = 256 * 2**20


def refuse_empty_path(path, what: str = "a file") -> None:
    """Refuse ``path`` when it is empty text: it names nothing, though :class:`pathlib.Path` takes it for the
    current folder (which ``"."`` names when it is meant), so that a deck or an output folder given as an unset
    variable's ``""`` is not the folder the command runs in.

    Raises
    ------
    InputError
        Naming ``what`` the path was to name.

    Examples
    --------
    >>> refuse_empty_path("", "the output folder")
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: the path of the output folder is empty; name it (the current folder is '.')
    """
    from .errors import InputError

    if isinstance(path, (str, bytes)) and not path:
        raise InputError(f"the path of {what} is empty; name it (the current folder is '.')")


def check_regular_file(path: str | os.PathLike, what: str = "a file") -> None:
    """Refuse a path that is not a regular file, before anything opens it.

    A FIFO would block the reader for ever and a device (``/dev/zero``,
    also behind a symbolic link) never ends; a directory is not a file.

    Raises
    ------
    InputError
        Missing, a directory, a FIFO, socket or device, or unreadable; or
        a path that is no text, bytes or :class:`os.PathLike` (a number
        would be taken by :func:`os.stat` and :func:`open` as a file
        descriptor of the process, which reading would close), or empty
        text (:func:`refuse_empty_path`).
    """
    import stat

    from .errors import InputError, cut

    if not isinstance(path, (str, bytes, os.PathLike)):
        raise InputError(f"a file's path is text or a path, got {type(path).__name__} {cut(repr(path))}")
    refuse_empty_path(path, what)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise InputError("file not found", path=path) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=path) from None
    if stat.S_ISDIR(mode):
        raise InputError(f"is a directory, expected {what}", path=path)
    if not stat.S_ISREG(mode):
        raise InputError(f"is {_special_kind(mode)}, expected {what}", path=path)


def _special_kind(mode: int) -> str:
    """What a file of this ``st_mode`` that is not a regular file is, in words."""
    import stat

    return ("a FIFO (named pipe)" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) or
            stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "not a regular file")


def read_bytes(path: str | os.PathLike, *, own: bool = False, limit: int = MAX_INPUT_BYTES) -> bytes:
    """Read a file's bytes; any failure becomes an :class:`InputError` naming the file.

    The file counts as an input of the running command (:func:`note_input`)
    unless ``own`` is true: the command's own state, which it rewrites.

    Parameters
    ----------
    path : str or path
        A regular file (:func:`check_regular_file`).
    own : bool
        The command's own state (not noted as an input).
    limit : int
        Largest size accepted (bytes).

    Raises
    ------
    InputError
        Missing file, a directory, not a regular file (FIFO, device),
        larger than ``limit`` bytes, or unreadable.
    """
    from .errors import InputError

    check_regular_file(path)
    try:
        with open(path, "rb") as fh:   # read at the file's size: a buffer of ``limit`` bytes for any file is waste
            size = os.fstat(fh.fileno()).st_size
            data = fh.read(min(size, limit) + 1 if size else limit + 1)   # a size of 0 may be untrue (/proc)
            if size and size < len(data) <= limit:                       # it grew since: the rest, up to the limit
                data += fh.read(limit + 1 - len(data))
    except FileNotFoundError:
        raise InputError("file not found", path=path) from None
    except IsADirectoryError:
        raise InputError("is a directory, expected a file", path=path) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", path=path) from None
    if len(data) > limit:
        raise InputError(f"is larger than {limit // 2**20} MiB; not an input of this toolkit", path=path)
    if not own:
        note_input(path)
    return data


#: What :func:`is_plain_name` takes, in the words of a message ("card id 'Ü1' may hold only ..."): "letters" alone
#: would be untrue of 'Ü', a letter it refuses.
PLAIN_NAME = "ASCII letters (A-Z, a-z), digits, '_' and '-'"


def is_plain_name(text: str) -> bool:
    """Whether ``text`` is a non-empty name of ASCII letters, digits, ``_`` and ``-`` only: a game, card, side
    or tile name, which may name an output file (no separator, no ``..``).

    Examples
    --------
    >>> is_plain_name("X1"), is_plain_name("easy-2_b"), is_plain_name("../x"), is_plain_name(""), is_plain_name("é")
    (True, True, False, False, False)
    """
    return text.isascii() and text.replace("_", "a").replace("-", "a").isalnum()


def read_text(path: str | os.PathLike, *, own: bool = False, universal: bool = True) -> str:
    """Read a UTF-8 text file; any failure becomes an :class:`InputError` naming the file (``own``: as :func:`read_bytes`).

    Each ``\\r\\n`` and ``\\r`` is made ``\\n``, as :func:`open` in text mode
    reads a file; ``universal=False`` keeps them (Knuth's exact-cover
    format, whose lines end only at ``\\n``).

    Raises
    ------
    InputError
        As :func:`read_bytes`, or not UTF-8 (a UTF-8 byte-order mark at the
        start is allowed and dropped; UTF-16 or UTF-32 text is named so, by
        its byte-order mark).
    """
    from .errors import InputError

    data = read_bytes(path, own=own)
    try:
        # a leading byte-order mark is dropped after decoding (as the codec "utf-8-sig" would, whose module is not
        # loaded for it: some 0.2 ms of every command that reads a file)
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        codec = wide_codec(data)
        if codec:   # a Windows editor's "Unicode" text, a spreadsheet's "Unicode text" export
            name = codec.upper()
            raise InputError(f"is {name} text, not UTF-8 (it begins with a {name} byte-order mark): save it as "
                             "UTF-8", path=path, line=1) from None
        start = exc.start
        line = data.count(b"\n", 0, start) + 1
        column = start - (data.rfind(b"\n", 0, start) + 1) + 1
        raise InputError(f"not UTF-8 text ({exc.reason}: byte {start + 1} of the file, column {column} of the line)",
                         path=path, line=line) from None
    return _universal_newlines(text) if universal else text


#: The toolkit's text formats a reader may be given by mistake: kind -> (file extensions, what such a file is).
_FORMATS: dict[str, tuple[tuple[str, ...], str]] = {
    "knuth": (KNUTH_SUFFIXES, "an exact-cover instance in Knuth's format (`ubongo-cp exact-cover` reads it)"),
    "cnf": ((".cnf",), "a DIMACS CNF file (the input of a SAT solver or a model counter)"),
    "toml": ((".toml",), "a TOML file (a card side, a deck spec or a bench suite)"),
    "journal": ((".jsonl",), "a journal of JSON lines (a batch's, a benchmark's or a simulation's record of its "
                             "runs)"),
    "json": ((".json",), "a JSON file (a game record, a difficulty model or a census manifest)"),
    "burrtools": ((".xmpuzzle",), "a BurrTools file (`ubongo-cp solve` reads it)"),
    "table": ((".csv",), "a CSV table"),
    "pieces": ((), "a piece-set file (`--pieces` reads it)"),
    "region": ((), "a region file (`--region` reads it)"),
}


def other_format(text: str, path: str | os.PathLike | None, expected: str, line: int | None = None) -> str | None:
    """What a file that a reader of the ``expected`` kind (a key of ``_FORMATS``, or ``"text"`` for a piece-set
    or region file) could not read is instead, when it is another of the toolkit's formats; else None.

    Told by the content (a DIMACS ``p cnf`` header after its ``c`` comments, a JSON object, XML, a TOML
    document with a key), else by the extension, when the reader failed at the start of the file
    (``line``: where it failed, None for the whole file): a file of the expected kind under another
    extension, wrong further down, keeps the reader's own error. A reader calls it only after the file
    failed it, so a file it reads is never refused for its name.

    Examples
    --------
    >>> other_format("c a comment\\np cnf 3 2\\n1 0\\n2 3 0\\n", "x.txt", "knuth")
    'a DIMACS CNF file (the input of a SAT solver or a model counter)'
    >>> other_format("a b\\na\\nb c\\n", "x.dlx", "toml", 1)
    "an exact-cover instance in Knuth's format (`ubongo-cp exact-cover` reads it)"
    >>> other_format("a b\\na\\nb c\\n", "x.dlx", "knuth") is None
    True
    >>> other_format("I2\\n##\\n\\nL3\\n#.\\n#x\\n", "mine.toml", "text", 6) is None   # a piece set, wrong on line 6
    True
    """
    import re

    head = text.lstrip("\ufeff \t\n\r")
    if re.match(r"(?:c(?:[ \t][^\n]*)?\n\s*)*p[ \t]+cnf[ \t]", head):
        kind: str | None = "cnf"
    elif head.startswith("{"):
        kind = "journal" if os.fspath(path or "").lower().endswith(".jsonl") else "json"
    elif head.startswith(("<?xml", "<puzzle")):
        kind = "burrtools"
    elif expected != "toml" and _is_toml(text):
        kind = "toml"
    elif expected == "toml" and (drawing := _drawing(text)):
        kind = drawing
    else:
        first = text.count("\n", 0, len(text) - len(head)) + 1   # its first line of text
        if line is not None and line > first + 1:
            return None
        suffix = os.path.splitext(os.fspath(path or ""))[1].lower()
        kind = next((k for k, (suffixes, _) in _FORMATS.items() if suffix in suffixes), None)
    return None if kind is None or kind == expected else _FORMATS[kind][1]


def _tomllib():
    """The standard library's :mod:`tomllib`, imported without building the classes of Python's syntax trees.

    tomllib's parser declares a :class:`typing.NamedTuple` whose annotations
    are names (strings); :mod:`typing` makes each a
    :class:`typing.ForwardRef`, which checks its text with :func:`compile`,
    and the first ``compile`` of a process builds every class of the
    interpreter's :mod:`ast` module, whatever it compiles: about 9 million
    instructions, 6 % of a card task, which compiles nothing else. While
    tomllib is imported here, typing keeps a reference that is a plain name
    (an identifier, not a keyword) as its text instead of its code
    (:func:`_name_kept`): evaluating the reference (what
    :func:`typing.get_type_hints` does) evaluates that text in the same way
    (:func:`eval` of a text compiles it in ``eval`` mode, as the reference
    would have). Any other text is compiled as before.
    """
    import sys

    if "tomllib" not in sys.modules:
        import typing

        if "compile" not in vars(typing):   # typing looks ``compile`` up among its names, then the builtins
            typing.compile = _name_kept
            try:
                import tomllib
            finally:
                del typing.compile
    import tomllib

    return tomllib


def _name_kept(source, filename, mode, *args, **kwargs):
    """:func:`compile`, but a plain name (an identifier, not a keyword) in ``eval`` mode is kept as its text
    (:func:`_tomllib`: :func:`eval` of the text is what evaluating its code would do)."""
    import keyword

    if isinstance(source, str) and source.isidentifier() and not keyword.iskeyword(source) and mode == "eval" \
            and not args and not kwargs:
        return source
    return compile(source, filename, mode, *args, **kwargs)


def _drawing(text: str) -> str | None:
    """``"pieces"`` or ``"region"`` when ``text`` reads as a piece-set or a region file (drawings of cells, on
    any grid), else None: what a TOML reader was given that it cannot read (``solve pieces.txt``)."""
    from .errors import InputError
    from .pieces import parse_pieces, parse_region

    for kind, parse in (("pieces", parse_pieces), ("region", parse_region)):
        try:
            parse(text)
        except InputError:
            continue
        return kind
    return None


def _is_toml(text: str) -> bool:
    """Does ``text`` read as a TOML document with some key (a card side, a deck spec, a bench suite)?

    No table, piece set, region or Knuth file does: their lines are not ``key = value`` or ``[table]``
    lines (and a file of ``#`` lines only, a TOML document of comments, holds no key).
    """
    tomllib = _tomllib()

    try:
        return bool(tomllib.loads(text))
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        return False


def wrong_format(text: str, path: str | os.PathLike | None, expected: str, what: str,
                 line: int | None = None) -> Exception | None:
    """The :class:`InputError` for a file of another format (:func:`other_format`, ``line``: where its reader
    failed) given where ``what`` belongs, e.g. ``x.dlx: is an exact-cover instance in Knuth's format (...), not
    a card side``; None for a file that is none of them (the reader's own error then says what is wrong in it)."""
    from .errors import InputError

    other = other_format(text, path, expected, line)
    return None if other is None else InputError(f"is {other}, not {what}", path=path)


def _universal_newlines(text: str) -> str:
    """``text`` with each ``\r\n`` and ``\r`` made ``\n``, as :func:`open` in text mode reads it."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def text_lines(text: str) -> list[str]:
    """The lines of ``text`` as a file opened in text mode holds them: ended by ``\\n``, ``\\r\\n`` or ``\\r`` only.

    Unlike :meth:`str.splitlines`, a form feed, a file separator or a
    Unicode line separator (U+2028, NEL) is a character of its line, so a
    comment holding one stays one comment and the lines keep the numbers an
    editor shows.

    Examples
    --------
    >>> text_lines("% page\\x0cbreak\\r\\n##\\n")
    ['% page\\x0cbreak', '##']
    """
    lines = _universal_newlines(text).split("\n")
    if lines[-1] == "":  # the newline that ends the last line starts no line
        lines.pop()
    return lines


def loads_toml(text: str, *, path: str | os.PathLike | None = None) -> dict:
    """Decode a TOML document (:mod:`tomllib`); every failure is an :class:`InputError` naming the line.

    Raises
    ------
    InputError
        TOML syntax (a key given twice is named as such), or an integer of
        more digits than Python converts (4,300).

    Examples
    --------
    >>> loads_toml('k = 3')
    {'k': 3}
    >>> loads_toml('k = 3\\nk = 4\\nj = 5', path="s.toml")
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: s.toml:2: invalid TOML: duplicate key (a field given twice)
    """
    import re

    from .errors import InputError

    tomllib = _tomllib()
    if not isinstance(text, str):   # None once met an AttributeError inside tomllib
        raise InputError(f"a TOML document is read from its text (a str), got {type(text).__name__}", path=path)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        at = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        wrong = wrong_format(text, path, "toml", _FORMATS["toml"][1], int(at[1]) if at else None)
        if wrong is not None:
            raise wrong from None
        match = re.search(r"\(at line (\d+), column \d+\)", str(exc))
        line = int(match.group(1)) if match else None
        if match is None and "(at end of document)" in str(exc):   # what is left open: the last line
            line = max(1, len(text.rstrip().splitlines()))
        msg = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(exc))
        if msg.startswith("Cannot overwrite a value") or msg.startswith("Cannot declare"):
            msg = "duplicate key (a field given twice)"
        elif match is None and line is not None:
            msg += " at the end of the file"
        raise InputError(f"invalid TOML: {msg}", path=path, line=line) from None
    except RecursionError:
        raise InputError("invalid TOML: nested too deeply", path=path) from None
    except ValueError as exc:  # an integer beyond sys.get_int_max_str_digits()
        raise _long_number(text, path, 1, exc) from None


def _long_number(text: str, path, first_line: int, exc: ValueError):
    """The :class:`InputError` for a number too long to convert, at its line."""
    import re
    import sys

    from .errors import InputError

    limit = sys.get_int_max_str_digits()
    match = re.search(r"[0-9][0-9_]{%d,}" % limit, text)
    if match is None:
        return InputError(f"unreadable value: {str(exc).splitlines()[0]}", path=path)
    digits = sum(ch.isdigit() for ch in match.group())
    return InputError(f"a number of {digits} digits (at most {limit} are read)", path=path,
                      line=first_line + text.count("\n", 0, match.start()))
