"""External solvers: a command template, the instance file it reads, and an adapter that reads its answer.

An external solver is ``NAME[:ADAPTER]=COMMAND``: any program of the user's
(the toolkit never fetches one). For every run the instance is written in
the adapter's input format, Knuth's plain exact-cover format or DIMACS CNF,
given to the program on standard input *and* as the file ``{instance}``,
and its output is read by the adapter. Placeholders of ``COMMAND``:

``{instance}``
    the instance file;
``{time_limit}``, ``{memory_limit}``
    the run's limits, in whole seconds of CPU time and MB (``0``: no memory
    limit, as ``--memory-limit 0`` or ``none`` gives);
``{first:TEXT}``, ``{all:TEXT}``
    ``TEXT`` when one solution is asked (the question ``first``), or all of
    them (``count`` and ``analyze``); nothing otherwise.

The command is split like a shell line (:func:`shlex.split`) and run
directly, without a shell. Adapters (:data:`ADAPTERS`):

``knuth``
    Knuth's programs DLX1, DLX2, DLX3, SSXC and their kin (instance on
    standard input): the count from ``Altogether N solutions`` on standard
    error, the solutions they print with ``m1`` (``1:`` then one option per
    line, its items then ``(k of n)``; DLX3's ``null ITEM`` lines are no
    options). E.g.
    ``dlx1=dlx1 m1 {first:t1}``.
``miniexact``
    miniexact (``-x``/``-c``/``-m``): ``Found N solutions!`` with ``-e``,
    each solution as its 1-based option numbers, or with ``-p`` as its
    options' items ending in ``;``; exit status 10 or 20. E.g.
    ``mx:miniexact=miniexact -x -D {all:-e} {instance}``.
``dimacs``
    a SAT solver on the CNF encoding (:func:`ubongo_cp.solvers.cnf.dimacs_text`):
    ``s SATISFIABLE`` with ``v`` lines, ``s UNSATISFIABLE``; a model
    counter's ``s mc N`` or ``c s exact arb int N`` for a count (projected
    on the option variables). E.g. ``kissat:dimacs=kissat -q {instance}``.
``json``
    the toolkit's own ``exact-cover --json`` output (``count``,
    ``complete``, ``solutions``), e.g.
    ``self:json=ubongo-cp exact-cover {instance} --json {all:--count --max-solutions 1}``.

In Knuth's plain format a piece type with ``k`` identical copies becomes
``k`` items, so a program counts every tiling ``k!`` times; the count read
is divided by that factor (:attr:`ubongo_cp.exactcover.KnuthText.copies_factor`)
and solutions repeated by it are merged.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import shlex
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..errors import InputError

__all__ = ["ExternalSolver", "Reply", "ADAPTERS", "parse_external", "write_instance", "read_output"]

_CONDITIONAL = re.compile(r"\{(first|all):([^{}]*)\}")
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_NAMES = ("instance", "time_limit", "memory_limit")
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]*")


@dataclass
class Reply:
    """What an external program answered, as read by an adapter.

    Attributes
    ----------
    count : int or None
        Solutions the program reports (of the file it read).
    solutions : list of list
        The solutions it printed: each a list of options, an option given by
        its items (``kind="items"``), its 1-based line number among the
        options (``"lines"``) or a true DIMACS variable (``"vars"``).
    kind : str
        ``"items"``, ``"lines"`` or ``"vars"``.
    complete : bool
        False when the program said it stopped early (a limit of its own).
    error : str or None
        Why the output could not be read.
    counts_all : bool
        False when the program answers satisfiability only (a SAT solver):
        its ``count`` is 1 or 0 whatever the number of solutions.
    """

    count: int | None = None
    solutions: list = field(default_factory=list)
    kind: str = "items"
    complete: bool = True
    error: str | None = None
    counts_all: bool = True


@dataclass(frozen=True)
class Adapter:
    """How to talk to one family of programs: the input format and the output reader."""

    name: str
    format: str  # "knuth" or "dimacs"
    read: Callable[[str, str, int | None], Reply]
    summary: str


@dataclass(frozen=True)
class ExternalSolver:
    """An external solver: a name, a command template and an adapter (see the module docstring).

    Attributes
    ----------
    name : str
        The solver's name in the tables (must differ from the registered names).
    command : str
        The command template.
    adapter : str
        A key of :data:`ADAPTERS`.
    """

    name: str
    command: str
    adapter: str = "knuth"

    @property
    def format(self) -> str:
        """The input format the adapter expects: ``"knuth"`` or ``"dimacs"``."""
        return ADAPTERS[self.adapter].format

    @property
    def ident(self) -> str:
        """A short hash of command and adapter: a changed command is a new solver for resuming."""
        return hashlib.sha1(f"{self.adapter}\0{self.command}".encode()).hexdigest()[:12]

    def argv(self, question: str, instance: str | os.PathLike, time_limit: float, memory_limit: float | None) -> list[str]:
        """The command line of one run."""
        want = "first" if question == "first" else "all"
        text = _CONDITIONAL.sub(lambda m: m.group(2) if m.group(1) == want else "", self.command)
        values = {"instance": os.fspath(instance), "time_limit": str(max(1, math.ceil(time_limit))),
                  "memory_limit": str(int(memory_limit)) if memory_limit else "0"}
        return [_PLACEHOLDER.sub(lambda m: values[m.group(1)], token) for token in shlex.split(text)]

    def check(self) -> None:
        """Raise :class:`InputError` unless the command's program is an executable file."""
        program = self.argv("first", "x", 1, None)[0]
        found = shutil.which(program)
        if found is None:
            why = "no such file" if not Path(program).exists() and os.sep in program else \
                "not found on PATH" if os.sep not in program else "not executable"
            raise InputError(f"external solver {self.name!r}: {program!r} is not an executable program ({why})")


def parse_external(text: str) -> ExternalSolver:
    """Read ``NAME[:ADAPTER]=COMMAND`` (see the module docstring).

    Raises
    ------
    InputError
        No ``=``, a malformed name, an unknown adapter, an empty command, a
        command that does not split like a shell line, or an unknown
        placeholder.

    Examples
    --------
    >>> s = parse_external("dlx1=dlx1 m1 {first:t1}")
    >>> s.name, s.adapter, s.argv("first", "x.dlx", 10, None), s.argv("count", "x.dlx", 10, None)
    ('dlx1', 'knuth', ['dlx1', 'm1', 't1'], ['dlx1', 'm1'])
    >>> parse_external("k:dimacs=kissat {instance}").argv("first", "a.cnf", 2.5, None)
    ['kissat', 'a.cnf']
    """
    if not isinstance(text, str):   # not an AttributeError from inside
        raise InputError(f"an external solver is NAME[:ADAPTER]=COMMAND (a str), got {type(text).__name__}")
    head, eq, command = text.partition("=")
    if not eq:
        raise InputError(f"external solver {text!r}: expected NAME=COMMAND or NAME:ADAPTER=COMMAND")
    name, _, adapter = head.strip().partition(":")
    adapter = adapter or "knuth"
    if not _NAME.fullmatch(name):
        raise InputError(f"external solver name {name!r}: use letters, digits and . _ + -")
    if adapter not in ADAPTERS:
        raise InputError(f"external solver {name!r}: unknown adapter {adapter!r}; choose one of "
                         f"{', '.join(ADAPTERS)}")
    command = command.strip()
    if not command:
        raise InputError(f"external solver {name!r}: empty command")
    plain = _CONDITIONAL.sub(lambda m: m.group(2), command)
    for m in _PLACEHOLDER.finditer(plain):
        if m.group(1) not in _NAMES:
            raise InputError(f"external solver {name!r}: unknown placeholder {m.group(0)!r} (use {{instance}}, "
                             "{time_limit}, {memory_limit}, {first:...}, {all:...})")
    try:
        if not shlex.split(plain):
            raise ValueError("no program")
    except ValueError as exc:
        raise InputError(f"external solver {name!r}: cannot split the command ({exc})") from None
    return ExternalSolver(name, command, adapter)


def write_instance(built, fmt: str, path: str | os.PathLike, *, title: str = ""):
    """Write a built instance for an external program; returns the :class:`~ubongo_cp.exactcover.KnuthText` (or None).

    Parameters
    ----------
    built : Built
    fmt : {"knuth", "dimacs"}
    path : path
        The file to write (atomically).
    """
    from ..io import atomic_write_text

    comments = [f"{title} (written by ubongo-cp bench)"] if title else []
    if fmt == "dimacs":
        from ..solvers.cnf import dimacs_text

        atomic_write_text(path, dimacs_text(built.instance, comments=comments))
        return None
    from ..exactcover import knuth_text

    text = knuth_text(built.instance, comments=comments)
    atomic_write_text(path, text.text)
    return text


def read_output(adapter: str, stdout: str, stderr: str, status: int | None) -> Reply:
    """What a program answered, as the adapter of that name reads it; output it cannot use (a count that is no
    whole number >= 0, solutions that are no lists, JSON nested thousands deep, a number of 5000 digits) is a
    :class:`Reply` whose ``error`` says so, never an exception: one program's output ends its run, not the
    benchmark."""
    from ..errors import cut

    try:
        reply = ADAPTERS[adapter].read(stdout, stderr, status)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError) as exc:
        return Reply(error=f"cannot read its output ({type(exc).__name__}: {cut(str(exc))})")
    count = reply.count
    if count is not None and (not isinstance(count, int) or isinstance(count, bool) or count < 0):
        return Reply(error=f"its count {cut(repr(count))} is not a whole number >= 0")
    if not isinstance(reply.solutions, list) or not all(isinstance(s, list) for s in reply.solutions):
        return Reply(error="its solutions are not lists of options")
    return reply


# ----------------------------------------------------------------- adapters
_ALTOGETHER = re.compile(r"Altogether (\d+) solutions?")
_KNUTH_ROW_TAIL = re.compile(r"\s*\(\d+ of \d+\)\s*$")
#: DLX3's line for an item with bounds covered fewer times than its upper bound: no option (dlx3.w, "null").
_KNUTH_NULL = re.compile(r"\s*null \S+\s*(\(\d+ of \d+\))?\s*")


def _read_knuth(stdout: str, stderr: str, status: int | None) -> Reply:
    """DLX1 and its kin: ``Altogether N solutions`` on stderr; with ``m1`` each solution on stdout."""
    match = _ALTOGETHER.search(stderr) or _ALTOGETHER.search(stdout)
    solutions: list[list[list[str]]] = []
    current: list[list[str]] | None = None
    for line in stdout.splitlines():
        if re.fullmatch(r"\d+:", line.strip()):
            current = []
            solutions.append(current)
        elif current is not None and line.strip() and not _KNUTH_NULL.fullmatch(line):
            # DLX2 and DLX3 print an option's colours as in its line (item:colour), by which it is found
            current.append(_KNUTH_ROW_TAIL.sub("", line).split())
    if match is None:
        return Reply(error="no 'Altogether N solutions' line (is this one of Knuth's programs?)")
    return Reply(int(match.group(1)), solutions, "items", complete="TIMEOUT!" not in stderr)


def _read_miniexact(stdout: str, stderr: str, status: int | None) -> Reply:
    """miniexact: solutions as option numbers (or items with ``-p``), blank lines between them with ``-e``."""
    if status not in (0, 10, 20):
        return Reply(error=f"exit status {status}")
    count = None
    blocks: list[list[str]] = [[]]
    for line in stdout.splitlines():
        found = re.fullmatch(r"Found (\d+) solutions?!", line.strip())
        if found:
            count = int(found.group(1))
        elif line.startswith(">>> "):
            continue
        elif line.strip():
            blocks[-1].append(line.strip())
        elif blocks[-1]:
            blocks.append([])
    blocks = [b for b in blocks if b]
    if not blocks:
        return Reply(count if count is not None else 0, [], "lines")
    if all(line.endswith(";") for b in blocks for line in b):
        sols = [[line[:-1].split() for line in b] for b in blocks]
        sols = [[[item.split(":")[0] for item in option] for option in s] for s in sols]
        return Reply(count if count is not None else len(sols), sols, "items")
    try:
        numbers = [[int(v) for line in b for v in line.split()] for b in blocks]
    except ValueError:
        return Reply(error=f"cannot read the line {blocks[0][0]!r}")
    return Reply(count if count is not None else len(numbers), numbers, "lines")


def _read_dimacs(stdout: str, stderr: str, status: int | None) -> Reply:
    """SAT-competition output (``s``/``v`` lines) or a model counter's count."""
    answer = None
    literals: list[int] = []
    count = None
    for line in stdout.splitlines():
        line = line.strip()
        if line.startswith("s "):
            word = line[2:].strip()
            mc = re.fullmatch(r"mc\s+(\d+)", word)
            if mc:
                count = int(mc.group(1))
            else:
                answer = word.upper()
        elif line.startswith("v "):
            literals.extend(int(v) for v in line[2:].split() if v not in ("0",))
        else:
            exact = re.fullmatch(r"c s exact (?:arb int|int)\s+(\d+)", line)
            if exact:
                count = int(exact.group(1))
    if count is not None:
        return Reply(count, [], "vars")
    if answer == "SATISFIABLE":
        return Reply(1, [[v for v in literals if v > 0]] if literals else [], "vars", counts_all=False)
    if answer == "UNSATISFIABLE":
        return Reply(0, [], "vars")
    if answer is None and status in (10, 20):
        return Reply(1 if status == 10 else 0, [], "vars", counts_all=status == 20)
    return Reply(error=f"no 's SATISFIABLE' or 's UNSATISFIABLE' line (answer {answer!r}, exit status {status})",
                 complete=False)


def _read_json(stdout: str, stderr: str, status: int | None) -> Reply:
    """``ubongo-cp exact-cover --json``: ``{"count", "complete", "solutions": [{label: [items]}]}``."""
    text = stdout.strip().splitlines()
    try:
        data = json.loads(text[-1]) if text else None
    except json.JSONDecodeError as exc:
        return Reply(error=f"not JSON: {exc.msg}")
    if not isinstance(data, dict) or "count" not in data:
        return Reply(error="no JSON object with a 'count'")
    sols = [[list(items) for items in s.values()] for s in data.get("solutions", [])]
    return Reply(data["count"], sols, "items", complete=bool(data.get("complete", True)))


#: The shipped adapters by name.
ADAPTERS: dict[str, Adapter] = {a.name: a for a in [
    Adapter("knuth", "knuth", _read_knuth, "Knuth's DLX1/DLX2/DLX3/SSXC: 'Altogether N solutions', m1 listings"),
    Adapter("miniexact", "knuth", _read_miniexact, "miniexact: option numbers or -p items, 'Found N solutions!'"),
    Adapter("dimacs", "dimacs", _read_dimacs, "a SAT solver or model counter on DIMACS CNF"),
    Adapter("json", "knuth", _read_json, "ubongo-cp exact-cover --json"),
]}
