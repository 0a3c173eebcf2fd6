"""The data shipped inside the package: piece sets, decks, example cards.

The files live in the package directory ``ubongo_cp/data/`` and travel with
the wheel (package data, located beside this module's file, so an
installed toolkit finds them wherever it was installed and whatever the
current directory is). The repository's top-level ``puzzles/`` is a symbolic
link to that directory: the human-facing copy is the same files.

Layout::

    data/pieces/<name>.txt          piece-set files (RULES.md section 1)
    data/decks/<game>/*.toml        the generated decks, one file per card side
    data/decks/<game>/tasks.csv     their ratings (the batch runner's table)
    data/examples/                  example cards and regions used in the docs
    data/examples/grids/<name>.toml the specs of the example decks on hexagons, triangles and cubes
    data/examples/designer/         a designer's deck spec and its piece set
    data/specs/<game>.toml          the two games' deck specs
    data/orion/<name>.txt           the Orion Duel tile sets

:data:`ubongo_cp.examples.EXAMPLES` names every one of them for ``ubongo-cp examples`` (list,
show, draw, copy), so that an installed toolkit's user can reach them; its names are also exported here.
"""

from __future__ import annotations

import os
from functools import lru_cache

TYPE_CHECKING = False

if TYPE_CHECKING:
    import pathlib

    from .examples import EXAMPLES, Example, copy_example, copy_examples, find_example, is_unchanged_copy  # noqa: F401

__all__ = ["SHIPPED_PIECE_SETS", "SHIPPED_DECKS", "EXAMPLE_SPECS", "GRID_SPECS", "Example", "EXAMPLES", "data_dir", "data_file",
           "piece_set_path", "piece_set_file", "deck_dir", "deck_tasks_path",
           "shipped_deck_name", "resolve_deck", "example_spec_path", "find_example",
           "copy_example", "copy_examples"]

#: Short names of the shipped piece sets (``data/pieces/<name>.txt``): the Ubongo sets and polyominoes
#: (squares), polyhexes, polyiamonds and polycubes (each file names its grid and its public source).
SHIPPED_PIECE_SETS = ("classic", "duel", "pentominoes", "tetrominoes", "tetrahexes", "pentahexes", "pentiamonds",
                      "hexiamonds", "tetracubes", "soma")
#: Short names of the shipped decks (``data/decks/<name>/``), as the folder holds them, in alphabetical
#: order: the two games, and an example deck on each other grid (generated from
#: ``data/examples/grids/<name>.toml``).
SHIPPED_DECKS = tuple(sorted(entry.name for entry in os.scandir(os.path.join(os.path.dirname(__file__), "data", "decks"))
                             if entry.is_dir() and not entry.name.startswith((".", "_"))))
#: Designers' example deck specs by name (``data/examples/<name>/deck.toml``), usable as ``--spec NAME``.
EXAMPLE_SPECS = ("designer",)
#: The specs of the example decks on the other grids by name (``data/examples/grids/<name>.toml``, the decks
#: ``data/decks/<name>/`` were generated from), usable as ``--spec NAME``.
GRID_SPECS = ("hexagons", "triangles", "cubes")


def data_dir() -> pathlib.Path:
    """The directory of the shipped data inside the installed package.

    Raises
    ------
    RuntimeError
        If the package is imported from a zip file (the data must be files).
    """
    from pathlib import Path

    return Path(data_file())


@lru_cache(maxsize=None)
def _data_root() -> str:
    root = os.path.join(os.path.dirname(os.path.realpath(__file__)), "data")  # not importlib.resources: 12 ms
    if not os.path.isdir(root):  # pragma: no cover - zipped installs are not supported
        raise RuntimeError("ubongo_cp must be installed as files, not imported from a zip archive")
    return root


def data_file(*parts: str) -> str:
    """The path (a string) of ``parts`` below :func:`data_dir`, e.g. ``data_file("pieces", "classic.txt")``;
    the data directory itself with no parts. A command that reads one shipped file needs no :mod:`pathlib`.

    Raises
    ------
    RuntimeError
        As :func:`data_dir`.
    """
    return os.path.join(_data_root(), *parts)


def piece_set_path(name: str) -> pathlib.Path:
    """The file of the shipped piece set ``name`` (one of :data:`SHIPPED_PIECE_SETS`)."""
    from pathlib import Path

    return Path(piece_set_file(name))


def piece_set_file(name: str) -> str:
    """:func:`piece_set_path` as a string (a command that reads a shipped set needs no :mod:`pathlib`)."""
    return data_file("pieces", f"{name}.txt")


def deck_dir(name: str) -> pathlib.Path:
    """The directory of the shipped deck ``name`` (one of :data:`SHIPPED_DECKS`).

    Raises
    ------
    InputError
        For a name that is not a shipped deck's (a path that does not exist, once, was taken for one).
    """
    if name not in SHIPPED_DECKS:
        from .errors import InputError

        raise InputError(f"no shipped deck is named {name!r} (the shipped decks: {', '.join(SHIPPED_DECKS)})")
    return data_dir() / "decks" / name


def deck_tasks_path(name: str) -> pathlib.Path:
    """The rated per-task table of the shipped deck ``name`` (``tasks.csv``).

    Raises
    ------
    InputError
        As :func:`deck_dir`.

    Examples
    --------
    >>> deck_tasks_path("classic").name
    'tasks.csv'
    >>> deck_tasks_path("ubongo")
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: no shipped deck is named 'ubongo' (the shipped decks: classic, cubes, duel, hexagons, triangles)
    """
    return deck_dir(name) / "tasks.csv"


def shipped_deck_name(path: str | os.PathLike) -> str | None:
    """The short name (one of :data:`SHIPPED_DECKS`) of the shipped deck whose rated table ``path`` is, however the
    path is written (relative, absolute, through the ``puzzles`` link); None for any other file.

    Examples
    --------
    >>> shipped_deck_name(deck_tasks_path("duel")), shipped_deck_name("tasks.csv")
    ('duel', None)
    """
    where = os.path.realpath(path)
    return next((name for name in SHIPPED_DECKS if os.path.realpath(deck_tasks_path(name)) == where), None)


def resolve_deck(spec: str | os.PathLike) -> pathlib.Path:
    """A deck directory: ``spec`` itself when it exists, else the shipped deck of that name.

    Raises
    ------
    InputError
        For a ``spec`` that is neither text nor a path, or empty text (:func:`~ubongo_cp.reading.refuse_empty_path`).

    Examples
    --------
    >>> resolve_deck("classic").name, resolve_deck("no/such/dir").as_posix()
    ('classic', 'no/such/dir')
    """
    from pathlib import Path

    if not isinstance(spec, (str, os.PathLike)):
        from .errors import InputError, cut

        raise InputError(f"a deck is a folder's path or a shipped deck's name ({', '.join(SHIPPED_DECKS)}), got "
                         f"{type(spec).__name__} {cut(repr(spec))}")
    from .reading import refuse_empty_path

    refuse_empty_path(spec, "a deck")
    path = Path(spec)
    if not path.exists() and os.fspath(spec) in SHIPPED_DECKS:
        return deck_dir(os.fspath(spec))
    return path


def example_spec_path(name: str) -> pathlib.Path | None:
    """The spec file of a shipped example spec by name: the ``deck.toml`` of a designer's example
    (:data:`EXAMPLE_SPECS`) or the spec of an example deck on another grid (:data:`GRID_SPECS`); None for
    another name.

    Examples
    --------
    >>> example_spec_path("designer").name, example_spec_path("cubes").name, example_spec_path("mine")
    ('deck.toml', 'cubes.toml', None)
    """
    if name in EXAMPLE_SPECS:
        return data_dir() / "examples" / name / "deck.toml"
    if name in GRID_SPECS:
        return data_dir() / "examples" / "grids" / f"{name}.toml"
    return None


#: The names of :mod:`ubongo_cp.examples` exported here too: that module (the catalogue of the shipped items, and
#: their copying) is imported when one of them is first asked for, not by a command that only reads a shipped file.
_EXAMPLE_NAMES = ("Example", "EXAMPLES", "find_example", "is_unchanged_copy", "copy_example", "copy_examples")


def __getattr__(name: str):
    if name in _EXAMPLE_NAMES:
        from . import examples

        return getattr(examples, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """The module's names with those :func:`__getattr__` gives out on first use (PEP 562)."""
    return sorted(set(globals()) | set(__all__))
