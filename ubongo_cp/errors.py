"""One exception hierarchy for the package.

Every error a user can cause by bad input is an :class:`InputError`; the CLI
turns any :class:`UbongoError` into a one-line message and exit status 2.
"""

from __future__ import annotations

import os

__all__ = ["UbongoError", "InputError", "IllegalActionError", "control_character", "JobTooLargeError", "OutputWarning",
           "InputWarning", "say_warnings", "saying_warnings",
           "MAX_JOB_CPU_SECONDS", "refuse_long_job", "wrong_kind", "as_written", "whole_argument", "flag_argument",
           "seat_argument", "seed_argument", "seconds_argument", "names_argument", "cut", "writing_last_outputs",
           "LAST_OUTPUTS", "one_line"]

#: The stated bound on a job's estimated CPU time (seconds): a census, a tournament or a
#: simulation estimated to need more is refused unless the caller confirms it.
MAX_JOB_CPU_SECONDS = 24 * 3600.0


#: How an error names the kind of value a file's key takes (TOML's words, not Python's).
_KIND_WORDS = {int: "a whole number", float: "a number", str: "a text string", bool: "true or false",
               list: "a list", dict: "a table"}


def wrong_kind(key: str, kinds: tuple, value) -> str:
    """The message for a key of a file whose value is of the wrong kind.

    Examples
    --------
    >>> wrong_kind("cards", (int,), 2.5)
    "'cards' must be a whole number, got 2.5"
    """
    words = " or ".join(_KIND_WORDS.get(k, k.__name__) for k in kinds)
    return f"{key!r} must be {words}, got {as_written(value)}"


def as_written(value) -> str:
    """A value read from a TOML or JSON file, spelt as the file writes it (``true``, not Python's ``True``),
    cut to 40 characters for a message.

    Examples
    --------
    >>> as_written(True), as_written([1, False, None]), as_written("x"), as_written(10 ** 400)
    ('true', '[1, false, null]', "'x'", '1000000000000000000000000000000000000...')
    """
    return cut(_written(value))


def _written(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:   # JSON's null (TOML has none)
        return "null"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_written(v) for v in value) + "]"
    try:
        return repr(value)
    except ValueError:   # a whole number of more digits than Python writes out (sys.get_int_max_str_digits)
        import sys

        return f"a number of more than {sys.get_int_max_str_digits()} digits"


def _shown(value) -> str:
    """``repr(value)``, cut to 40 characters for a message."""
    return cut(repr(value))


def cut(shown: str) -> str:
    """``shown`` cut to 40 characters for a message (the cut of :func:`as_written`).

    Examples
    --------
    >>> cut("roll face " + "9" * 50)
    'roll face 999999999999999999999999999...'
    """
    return shown if len(shown) <= 40 else shown[:37] + "..."


def one_line(message: str) -> str:
    """``message`` on one line: a line break in it (a file name may hold one) written as ``\\n`` or ``\\r``.

    Every error, warning and note line the toolkit says, and every output line naming a file it wrote or read
    (``cli.common.say``), goes through it, so a line naming a file stays one line.

    Examples
    --------
    >>> print(one_line("d/a\\nb.toml: missing field 'game'"))
    d/a\\nb.toml: missing field 'game'
    """
    return message.replace("\r", "\\r").replace("\n", "\\n")


def control_character(text: str) -> str | None:
    """``"the control character U+XXXX"`` for the first character of ``text`` that is not printable (a tab, a NUL,
    an escape: a font has no glyph for it and a terminal acts on it), or None.

    Examples
    --------
    >>> control_character("L5"), control_character("a\\tb")
    (None, 'the control character U+0009')
    """
    bad = next((ch for ch in text if not ch.isprintable()), None)
    return None if bad is None else f"the control character U+{ord(bad):04X}"


def whole_argument(name: str, value, least: int | None = 0) -> int:
    """``value`` as an int when it is a whole number (an int or a numpy integer, not a bool) of at least
    ``least`` (None: any); else an :class:`InputError` naming the argument.

    Examples
    --------
    >>> whole_argument("limit", 3, 1)
    3
    >>> whole_argument("limit", 2.5, 1)
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: limit must be a whole number of at least 1, got 2.5
    """
    import operator

    try:
        number = operator.index(value) if not isinstance(value, bool) else None
    except TypeError:
        number = None
    if number is None or (least is not None and number < least):
        bound = "" if least is None else f" of at least {least}"
        raise InputError(f"{name} must be a whole number{bound}, got {_shown(value)}")
    return number


def seat_argument(name: str, value, players: int) -> int:
    """``value`` as an int when it is a seat ``0 .. players - 1`` (a whole number as :func:`whole_argument`
    takes it); else an :class:`InputError` naming the argument (a negative index would read another seat).

    Examples
    --------
    >>> seat_argument("player", 1, 2)
    1
    >>> seat_argument("player", -1, 4)
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: player must be a seat 0..3, got -1
    >>> seat_argument("player", 2, 2)
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: player must be 0 or 1, got 2
    """
    try:
        seat = whole_argument(name, value, None)
    except InputError:
        seat = -1
    if not 0 <= seat < players:
        seats = "0 or 1" if players == 2 else f"a seat 0..{players - 1}"
        raise InputError(f"{name} must be {seats}, got {_shown(value)}")
    return seat


def seed_argument(name: str, value):
    """``value`` when numpy seeds a generator from it: None (fresh entropy), a whole number >= 0, a list or
    tuple of them, or a numpy ``Generator``, ``BitGenerator`` or ``SeedSequence``; else an
    :class:`InputError` naming the argument (numpy's own error names neither: "expected non-negative
    integer"; a bool would pass there as 0 or 1).

    Examples
    --------
    >>> seed_argument("seed", 7), seed_argument("seed", [1, 2]), seed_argument("seed", None)
    (7, [1, 2], None)
    >>> seed_argument("seed", -1)
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: seed must be a whole number >= 0 (or a list of them, or a numpy generator), got -1
    """
    import numpy as np

    if value is None or isinstance(value, (np.random.Generator, np.random.BitGenerator, np.random.SeedSequence)):
        return value
    entries = list(value) if isinstance(value, (list, tuple)) else [value]
    try:
        good = bool(entries) and all(whole_argument(name, v, 0) is not None for v in entries)
    except InputError:
        good = False
    if not good:
        raise InputError(f"{name} must be a whole number >= 0 (or a list of them, or a numpy generator), "
                         f"got {_shown(value)}")
    return value


def seconds_argument(name: str, value) -> float:
    """``value`` as a float when it is a number of seconds above 0 (an int, a float or a numpy number, not a bool;
    a whole number beyond the floats is ``inf``: no limit); else an :class:`InputError` naming the argument.

    Examples
    --------
    >>> seconds_argument("time_limit", 5)
    5.0
    >>> seconds_argument("time_limit", "5")
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: time_limit must be a number of seconds above 0, got '5'
    """
    import math
    import numbers
    import sys
    from typing import Any

    number: Any = value if isinstance(value, numbers.Real) and not isinstance(value, bool) else math.nan
    if not number > 0:   # NaN too
        raise InputError(f"{name} must be a number of seconds above 0, got {_shown(value)}")
    return float(number) if number <= sys.float_info.max else math.inf   # the engines' clocks are floats


def names_argument(name: str, value, example: str) -> list[str]:
    """``value`` as a list when it is a list (or any iterable but text) of names; else an :class:`InputError`
    naming the argument: one name alone would be read letter by letter ("unknown agent 'r'").

    Examples
    --------
    >>> names_argument("agents", ("random", "greedy"), "['random', 'greedy']")
    ['random', 'greedy']
    >>> names_argument("agents", "random", "['random', 'greedy']")
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: agents is a list of names, e.g. ['random', 'greedy'], got 'random'
    """
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise InputError(f"{name} is a list of names, e.g. {example}, got {cut(repr(value))}")
    return list(value)


def flag_argument(name: str, value) -> bool:
    """``value`` when it is True or False (a numpy bool too); else an :class:`InputError` naming the
    argument (a string such as ``"no"`` would read as true).

    Examples
    --------
    >>> flag_argument("reduce", False)
    False
    >>> flag_argument("reduce", "no")
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: reduce must be True or False, got 'no'
    """
    kind = type(value)
    if isinstance(value, bool) or (kind.__module__ == "numpy" and kind.__name__ in ("bool", "bool_")):  # numpy 2: bool
        return bool(value)
    raise InputError(f"{name} must be True or False, got {_shown(value)}")


class UbongoError(Exception):
    """Base class of every error raised on purpose by ``ubongo_cp``."""


class OutputWarning(UserWarning):
    """An output written elsewhere than asked, to leave a user's file as it is (e.g. a CSV file of another
    table: :func:`ubongo_cp.io.write_table`); the command line says it in one line."""


class InputWarning(UserWarning):
    """Input that reads, but perhaps not as its writer meant (e.g. a blank line in a cube file, an empty row
    where a line of ``-`` would start a layer); the command line says it in one line, naming the file and line.

    Examples
    --------
    >>> str(InputWarning("a blank line is an empty row", path="r.txt", line=5))
    'r.txt:5: a blank line is an empty row'
    """

    def __init__(self, message: str, *, path: str | os.PathLike | None = None, line: int | None = None) -> None:
        self.message = message
        self.path = None if path is None else os.fspath(path)
        self.line = line
        super().__init__(_located(message, self.path, line))


def say_warnings() -> None:
    """From now on this process says the toolkit's own warnings (:class:`OutputWarning`, :class:`InputWarning`)
    as one line, ``ubongo-cp: ...``, on standard error, not as Python shows a warning (its file, line and
    source line); other warnings as before. The command line does it (within ``warnings.catch_warnings()``,
    which undoes it), and so does a worker process it starts (:func:`ubongo_cp.executors.base._worker_start`)."""
    import sys
    import warnings

    if saying_warnings():
        return
    shown = warnings.showwarning

    def say(message, category, filename, lineno, file=None, line=None):
        if issubclass(category, (OutputWarning, InputWarning)):
            # one write of the whole line: workers saying a warning at once do not cut into each other's line
            sys.stderr.write(f"ubongo-cp: {one_line(str(message))}\n")
            sys.stderr.flush()
        else:
            shown(message, category, filename, lineno, file, line)

    say.ubongo_cp_says = True  # type: ignore[attr-defined]
    warnings.showwarning = say


def saying_warnings() -> bool:
    """Whether this process says the toolkit's own warnings as one line (:func:`say_warnings`)."""
    import warnings

    return getattr(warnings.showwarning, "ubongo_cp_says", False) is True


#: Holds True once a command stopped by Ctrl-C writes its last outputs (:func:`writing_last_outputs`); the
#: command line empties it when the command ends, or on a further Ctrl-C.
LAST_OUTPUTS: list[bool] = []


def writing_last_outputs() -> None:
    """Say that the command, stopped by Ctrl-C, now writes its last outputs (its tables and plots, how to resume).

    The command line then lets it finish: its last resort, which ends a command still running a few seconds
    after Ctrl-C (``ubongo_cp.cli.INTERRUPT_GRACE``), waits until the command has ended and gives the process
    those seconds again from there. A further Ctrl-C stops the writing at once (a ``KeyboardInterrupt``), and
    the last resort no longer waits. Outside the command line it has no effect.
    """
    LAST_OUTPUTS[:] = [True]


def _located(message: str, path: str | None, line: int | None, argument: str | None = None) -> str:
    """``message`` after the place it is about: ``path:line: ``, ``line N: `` or ``argument: ``."""
    where = ""
    if path is not None:
        where = path + (f":{line}" if line is not None else "") + ": "
    elif line is not None:
        where = f"line {line}: "
    elif argument is not None:
        where = f"{argument}: "
    return where + message


class InputError(UbongoError, ValueError):
    """Malformed or inconsistent input (a file, a CLI argument, a record).

    Parameters
    ----------
    message : str
        What is wrong, short and concrete ("piece 'L5' appears twice").
    path : str or os.PathLike, optional
        The file the problem is in.
    line : int, optional
        1-based line number inside ``path``.
    argument : str, optional
        The parameter of the call the problem is in (its value the caller's,
        not a file's): named before the message when no file is, and kept
        for a front end to name it its own way.

    Examples
    --------
    >>> str(InputError("unknown character 'x'", path="p.txt", line=3))
    "p.txt:3: unknown character 'x'"
    """

    def __init__(self, message: str, *, path: str | os.PathLike | None = None,
                 line: int | None = None, argument: str | None = None) -> None:
        self.message = message
        self.path = None if path is None else os.fspath(path)
        self.line = line
        self.argument = argument
        super().__init__(self._format())

    def _format(self) -> str:
        return _located(self.message, self.path, self.line, self.argument)


class IllegalActionError(UbongoError, ValueError):
    """An action that the rules do not allow in the current game state.

    The message names the action and the rule broken (e.g. ``"OD-3"``).
    """


class JobTooLargeError(InputError):
    """A job whose estimated cost exceeds :data:`MAX_JOB_CPU_SECONDS`; the message gives the estimate.

    Attributes
    ----------
    seconds : float
        The estimated CPU time (seconds).
    """

    def __init__(self, message: str, *, seconds: float) -> None:
        self.seconds = seconds
        super().__init__(message)


def refuse_long_job(what: str, seconds: float, detail: str, bound: float | None = MAX_JOB_CPU_SECONDS) -> None:
    """Raise :class:`JobTooLargeError` when ``seconds`` exceeds ``bound`` (``None``: no bound).

    Examples
    --------
    >>> refuse_long_job("this census", 3e6, "1e9 regions")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.JobTooLargeError: this census would take about 3.0e+06 CPU-seconds (35 days on one core; ...
    """
    if bound is None or seconds <= bound:
        return
    days = seconds / 86400
    span = f"{days:.0f} days" if days >= 2 else f"{seconds / 3600:.0f} hours"
    raise JobTooLargeError(f"{what} would take about {seconds:.1e} CPU-seconds ({span} on one core; {detail}), "
                           f"more than the {bound / 3600:.0f} CPU-hours a job runs without confirmation",
                           seconds=seconds)

