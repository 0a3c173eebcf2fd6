"""The plain command lines of ``solve``, ``analyze`` and ``exact-cover``, read without argparse.

argparse (with gettext) is about a tenth of a count's or an analysis's whole
process once the console script runs; this module reads the command lines
whose reading by argparse is plain, and gives :func:`read` None for every
other, which argparse then reads as before (help, usage errors, abbreviated
or ``--opt=value`` options, short options, ``--``, a value or a file name that
begins with ``-``, a missing required option, a value refused by its type or
its choices, an option kind other than a plain value, a flag or ``--use``).

The options are those argparse is given: the command's own ``add_parsers``
(:data:`ubongo_cp.cli.COMMANDS`) declares them on a :class:`_Declared`
parser, which records the calls as argparse's parser would (option strings,
destinations, defaults, types, choices, ``set_defaults``). The namespace is
built in argparse's order (the defaults, then the values given, then the
string defaults through their types) so that its attributes and their order
are argparse's (``tests/test_plainargs.py`` compares them on generated command
lines).
"""

from __future__ import annotations

import importlib
from types import SimpleNamespace

__all__ = ["read", "FAST_COMMANDS", "USE_NAMES"]

#: The sub-commands this module reads (their modules import no argparse to declare them).
FAST_COMMANDS = ("solve", "analyze", "exact-cover")

#: The name under which the parsers register the action of ``--use`` (:func:`ubongo_cp.cli.common.use_names`).
USE_NAMES = "use_names"

#: argparse's SUPPRESS: a default that sets no attribute.
_SUPPRESS = "==SUPPRESS=="


class _Option:
    """One declared argument: what argparse's Action keeps of it that reading needs."""

    __slots__ = ("option_strings", "dest", "default", "nargs", "type", "choices", "required", "kind")

    def __init__(self, option_strings: list[str], dest: str, kwargs: dict) -> None:
        self.option_strings = option_strings
        self.dest = dest
        self.kind = kwargs.pop("action", "store")
        self.nargs = kwargs.pop("nargs", None)
        self.type = kwargs.pop("type", None)
        self.choices = kwargs.pop("choices", None)
        self.required = kwargs.pop("required", not option_strings and self.nargs not in ("?", "*"))
        self.default = kwargs.pop("default", False if self.kind == "store_true" else None)


class _Declared:
    """A sub-command's parser as its module declares it (the calls of argparse's parser that the modules make)."""

    def __init__(self, prog: str) -> None:
        self.actions: list[_Option] = []
        self._option_string_actions: dict[str, _Option] = {}
        self._defaults: dict[str, object] = {}
        self.set_defaults(_usage_prog=prog)   # as ubongo_cp.cli's parser class does

    def add_argument(self, *flags: str, **kwargs) -> _Option:
        if flags and flags[0].startswith("-"):
            longs = [f for f in flags if f.startswith("--")]
            dest = kwargs.pop("dest", None) or (longs or list(flags))[0].lstrip("-").replace("-", "_")
        else:
            dest = flags[0]
            flags = ()
        if "default" not in kwargs and dest in self._defaults:
            kwargs["default"] = self._defaults[dest]
        option = _Option(list(flags), dest, dict(kwargs))
        self.actions.append(option)
        for flag in flags:
            self._option_string_actions[flag] = option
        return option

    def add_argument_group(self, *args, **kwargs) -> _Declared:
        return self   # a group shares its parser's arguments and defaults

    def set_defaults(self, **kwargs) -> None:
        self._defaults.update(kwargs)
        for option in self.actions:
            if option.dest in kwargs:
                option.default = kwargs[option.dest]

    def get_default(self, dest: str):
        for option in self.actions:
            if option.dest == dest and option.default is not None:
                return option.default
        return self._defaults.get(dest, None)


class _Commands:
    """The sub-parsers action of the top parser: keeps the one sub-command declared."""

    def __init__(self) -> None:
        self.parsers: dict[str, _Declared] = {}

    def add_parser(self, name: str, **kwargs) -> _Declared:
        self.parsers[name] = parser = _Declared(f"ubongo-cp {name}")
        return parser


def _declared(command: str) -> _Declared:
    """The parser of ``command`` as its module declares it."""
    from . import COMMANDS

    (group,) = COMMANDS[command]
    module = importlib.import_module(f"ubongo_cp.cli.{group}")
    commands = _Commands()
    if command in getattr(module, "DECLARES", ()):
        module.add_parsers(commands, only=command)
    else:
        module.add_parsers(commands)
    return commands.parsers[command]


def read(argv: list[str]):
    """The namespace argparse would make of ``argv`` (the words after ``ubongo-cp``), or None when this is not a
    plain command line of :data:`FAST_COMMANDS` (argparse reads it then). Any error on the way is argparse's to
    report: None too."""
    if not argv or argv[0] not in FAST_COMMANDS:
        return None
    try:
        return _read(argv[0], argv[1:])
    except Exception:
        return None


def _read(command: str, words: list[str]):
    from .common import typed_paths, use_names

    parser = _declared(command)
    typed_paths(parser.actions)   # as ubongo_cp.cli's parser class does before each reading
    given: dict[str, object] = {}
    seen: set[int] = set()
    positionals = [o for o in parser.actions if not o.option_strings]
    if positionals and words and not words[0].startswith("-"):
        # a file name first: argparse gives it to the first positional argument, whatever follows
        first = positionals.pop(0)
        if first.nargs not in (None, "?"):
            return None
        given[first.dest] = _value(first, words[0])
        seen.add(id(first))
        words = words[1:]
    for first in positionals:
        if first.required or isinstance(first.default, str):
            return None
        given[first.dest] = first.default   # not given: argparse sets it to its default
    i = 0
    while i < len(words):
        option = parser._option_string_actions.get(words[i])
        if option is None:
            return None
        if option.kind == "store_true" and option.nargs is None:
            given[option.dest] = True
            i += 1
        elif option.kind in ("store", USE_NAMES) and option.nargs in (None, "+"):
            end = i + 2 if option.nargs is None else _end_of_values(words, i + 1)
            texts = words[i + 1:end]
            if len(texts) < 1 or len(texts) != end - i - 1 or any(v.startswith("-") for v in texts):
                return None
            converted = [_value(option, v) for v in texts]
            if option.kind == USE_NAMES:
                given[option.dest] = use_names(converted)
            else:
                given[option.dest] = converted[0] if option.nargs is None else converted
            i = end
        else:
            return None
        seen.add(id(option))
    if any(o.required and id(o) not in seen for o in parser.actions):
        return None
    values: dict[str, object] = {}
    for option in parser.actions:
        if option.dest not in values and option.default != _SUPPRESS:
            values[option.dest] = option.default
    for dest, default in parser._defaults.items():
        values.setdefault(dest, default)
    values.update(given)
    for option in parser.actions:   # argparse passes an unset string default through its type
        if id(option) not in seen and isinstance(option.default, str) and values.get(option.dest) is option.default:
            values[option.dest] = _value(option, option.default, check=False)
    space = SimpleNamespace(command=command, _usage_prog="ubongo-cp")   # the top parser's two, first
    for dest, value in values.items():
        setattr(space, dest, value)
    return space


def _end_of_values(words: list[str], start: int) -> int:
    """Where the values of an option of one or more values end: at the next word that begins with ``-``."""
    end = start
    while end < len(words) and not words[end].startswith("-"):
        end += 1
    return end


def _value(option: _Option, text: str, *, check: bool = True):
    """``text`` through the option's type, or a ValueError where argparse would refuse it."""
    value = text if option.type is None else option.type(text)
    if check and option.choices is not None and value not in option.choices:
        raise ValueError(text)
    return value
