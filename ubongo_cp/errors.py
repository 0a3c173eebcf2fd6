"""One exception hierarchy for the package.

Every error a user can cause by bad input is an :class:`InputError`; the CLI
turns any :class:`UbongoError` into a one-line message and exit status 2.
"""

from __future__ import annotations

import os

__all__ = ["UbongoError", "InputError", "IllegalActionError"]


class UbongoError(Exception):
    """Base class of every error raised on purpose by ``ubongo_cp``."""


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

    Examples
    --------
    >>> str(InputError("unknown character 'x'", path="p.txt", line=3))
    "p.txt:3: unknown character 'x'"
    """

    def __init__(self, message: str, *, path: str | os.PathLike | None = None,
                 line: int | None = None) -> None:
        self.message = message
        self.path = None if path is None else os.fspath(path)
        self.line = line
        super().__init__(self._format())

    def _format(self) -> str:
        where = ""
        if self.path is not None:
            where = self.path + (f":{self.line}" if self.line is not None else "") + ": "
        elif self.line is not None:
            where = f"line {self.line}: "
        return where + self.message


class IllegalActionError(UbongoError, ValueError):
    """An action that the rules do not allow in the current game state.

    The message names the action and the rule broken (e.g. ``"OD-3"``).
    """
