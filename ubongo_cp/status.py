"""The status of a solved task, as one enumeration used by every result and table.

``Status`` is a :class:`enum.StrEnum`: its members are strings, so tables,
JSON output and journals hold the plain values (``"solved"``, ...) and read
back equal to the members.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Status"]


class Status(StrEnum):
    """Outcome of one search or one task of a batch.

    Attributes
    ----------
    SOLVED
        At least one solution found (all of them when the result is complete).
    NO_SOLUTION
        Proved to have none (by search, or by a pre-check such as the area).
    UNKNOWN
        The time limit was reached before any solution was found or none proved.
    TIMEOUT
        A batch task whose search was cut by the time limit.
    MEMOUT
        A benchmark run stopped at its memory limit.
    DISAGREEMENT
        A batch task whose two backends counted differently (a bug to report).
    ERROR
        A batch task that raised, or whose worker died (run again on resume).
    UNSUPPORTED
        A benchmark run whose solver does not take the instance or its
        question (e.g. colours given to the bitboard solver): refused before
        any search, left out of the solver's scores.
    """

    SOLVED = "solved"
    NO_SOLUTION = "no solution"
    UNKNOWN = "unknown"
    TIMEOUT = "timeout"
    MEMOUT = "memout"
    DISAGREEMENT = "disagreement"
    ERROR = "error"
    UNSUPPORTED = "unsupported"

    @property
    def failed(self) -> bool:
        """True for the statuses that mean the task has no trustworthy answer."""
        return self in (Status.TIMEOUT, Status.MEMOUT, Status.DISAGREEMENT, Status.ERROR)
