"""The data shipped inside the package: piece sets, decks, example cards.

The files live in the package directory ``ubongo_cp/data/`` and travel with
the wheel (package data, located with :mod:`importlib.resources`, so an
installed toolkit finds them wherever it was installed and whatever the
current directory is). The repository's top-level ``puzzles/`` is a symbolic
link to that directory: the human-facing copy is the same files.

Layout::

    data/pieces/<name>.txt          piece-set files (RULES.md section 1)
    data/decks/<game>/*.toml        the generated decks, one file per card side
    data/decks/<game>/tasks.csv     their ratings (the batch runner's table)
    data/examples/                  example cards and regions used in the docs
    data/examples/grids/<name>.toml the specs of the example decks on hexagons, triangles and cubes
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

__all__ = ["SHIPPED_PIECE_SETS", "SHIPPED_DECKS", "data_dir", "piece_set_path", "deck_dir", "deck_tasks_path",
           "resolve_deck"]

#: Short names of the shipped piece sets (``data/pieces/<name>.txt``): the Ubongo sets and polyominoes
#: (squares), polyhexes, polyiamonds and polycubes (each file names its grid and its public source).
SHIPPED_PIECE_SETS = ("classic", "duel", "pentominoes", "tetrominoes", "tetrahexes", "pentahexes", "pentiamonds",
                      "hexiamonds", "tetracubes", "soma")
#: Short names of the shipped decks (``data/decks/<name>/``): the two games, and an example deck on each
#: other grid (generated from ``data/examples/grids/<name>.toml``).
SHIPPED_DECKS = ("classic", "duel", "hexagons", "triangles", "cubes")


def data_dir() -> Path:
    """The directory of the shipped data inside the installed package.

    Raises
    ------
    RuntimeError
        If the package is imported from a zip file (the data must be files).
    """
    root = files("ubongo_cp") / "data"
    if not isinstance(root, Path):  # pragma: no cover - zipped installs are not supported
        raise RuntimeError("ubongo_cp must be installed as files, not imported from a zip archive")
    return root


def piece_set_path(name: str) -> Path:
    """The file of the shipped piece set ``name`` (one of :data:`SHIPPED_PIECE_SETS`)."""
    return data_dir() / "pieces" / f"{name}.txt"


def deck_dir(name: str) -> Path:
    """The directory of the shipped deck ``name`` (one of :data:`SHIPPED_DECKS`)."""
    return data_dir() / "decks" / name


def deck_tasks_path(name: str) -> Path:
    """The rated per-task table of the shipped deck ``name`` (``tasks.csv``)."""
    return deck_dir(name) / "tasks.csv"


def resolve_deck(spec: str | os.PathLike) -> Path:
    """A deck directory: ``spec`` itself when it exists, else the shipped deck of that name.

    Examples
    --------
    >>> resolve_deck("classic").name, resolve_deck("no/such/dir").as_posix()
    ('classic', 'no/such/dir')
    """
    path = Path(spec)
    if not path.exists() and os.fspath(spec) in SHIPPED_DECKS:
        return deck_dir(os.fspath(spec))
    return path
