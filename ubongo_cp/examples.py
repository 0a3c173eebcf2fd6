"""The shipped items by name, for ``ubongo-cp examples`` (list, show, draw, copy): :data:`EXAMPLES`, each an
:class:`Example`, found by :func:`find_example` and copied by :func:`copy_example` and :func:`copy_examples`.

The files themselves and their places are :mod:`ubongo_cp.shipped`'s, which exports these names too.
"""

from __future__ import annotations

import os

from .shipped import EXAMPLE_SPECS, GRID_SPECS, data_file
from .structs import NamedTuple

TYPE_CHECKING = False

if TYPE_CHECKING:
    import pathlib

__all__ = ["Example", "EXAMPLES", "find_example", "is_unchanged_copy", "copy_example", "copy_examples"]


class Example(NamedTuple):
    """One shipped item: its key (``"pieces/classic"``, ``"rect_6x10.txt"``), kind, path and description.

    ``kind`` is ``"pieces"`` (a piece-set file), ``"deck"`` (a directory of
    card files and their ratings), ``"spec"`` (a deck spec file, or a
    directory holding ``deck.toml`` and its piece set), ``"card"`` (a card
    side file), ``"region"`` (a region file) or ``"tiles"`` (an Orion Duel
    tile set).
    """

    key: str
    kind: str
    relative: str
    about: str

    @property
    def path(self) -> pathlib.Path:
        """Where it lies in the installed package."""
        from pathlib import Path

        return Path(data_file(self.relative))

    @property
    def short(self) -> str:
        """The name after the last ``/`` (``"classic"`` for ``"pieces/classic"``): the name the commands take."""
        return self.key.rsplit("/", 1)[-1]

    @property
    def usage(self) -> str | None:
        """The commands that take it by name (its :attr:`short` name, not its key): what ``examples`` says
        after "use it by name"; None for a card side or region, which a command reads as a file (copied first).

        Examples
        --------
        >>> print(EXAMPLES["pieces/tetrahexes"].usage)
        `ubongo-cp solve --pieces tetrahexes --region FILE`, `analyze --pieces tetrahexes`, ...
        >>> print(EXAMPLES["orion/seed"].usage)
        `ubongo-cp orion play --tiles seed`
        """
        name = self.short
        return {"pieces": f"`ubongo-cp solve --pieces {name} --region FILE`, `analyze --pieces {name}`, ...",
                "deck": f"`ubongo-cp batch {name} --out DIR`, `booklet {name}`, `cards {name}`",
                "spec": f"`ubongo-cp generate --spec {name} --out DIR`",
                "tiles": f"`ubongo-cp orion play --tiles {name}`"}.get(self.kind)


def _catalogue() -> dict[str, Example]:
    items = [Example(f"pieces/{name}", "pieces", f"pieces/{name}.txt", about) for name, about in (
        ("classic", "the 12 Ubongo pieces (I2 .. Z5)"), ("duel", "the 21 Ubongo Duel pieces"),
        ("pentominoes", "the 12 pentominoes (F I L N P T U V W X Y Z)"),
        ("tetrominoes", "the 5 tetrominoes (I O T S L)"),
        ("tetrahexes", "the 7 tetrahexes (hexagons)"), ("pentahexes", "the 22 pentahexes (hexagons)"),
        ("pentiamonds", "the 4 pentiamonds (triangles)"), ("hexiamonds", "the 12 hexiamonds (triangles)"),
        ("tetracubes", "the 8 tetracubes (cubes)"), ("soma", "the 7 Soma pieces (cubes)"))]
    items += [Example("decks/classic", "deck", "decks/classic", "the Ubongo deck: 36 cards, easy and hard sides, "
                                                                "six die faces, rated (tasks.csv)"),
              Example("decks/duel", "deck", "decks/duel", "the Ubongo Duel deck: 9 cards, sides A and B, a d20, "
                                                          "rated (tasks.csv)")]
    items += [Example(f"decks/{name}", "deck", f"decks/{name}", f"an example deck on {name}: 8 cards, two sides, "
                                                                "rated (tasks.csv)")
              for name in GRID_SPECS]
    items += [Example("specs/classic", "spec", "specs/classic.toml", "the deck spec of the Ubongo game"),
              Example("specs/duel", "spec", "specs/duel.toml", "the deck spec of Ubongo Duel"),
              Example("designer", "spec", "examples/designer", "a designer's own deck: deck.toml (12 cards, an easy "
                                                               "and a hard side) and its 8-piece set pieces.txt")]
    items += [Example(f"grids/{name}", "spec", f"examples/grids/{name}.toml",
                      f"the deck spec of the example deck on {name}") for name in GRID_SPECS]
    items += [Example("classic_X1_easy.toml", "card", "examples/classic_X1_easy.toml", "an Ubongo card side (easy)"),
              Example("classic_X1_hard.toml", "card", "examples/classic_X1_hard.toml", "an Ubongo card side (hard)"),
              Example("duel_X2_A.toml", "card", "examples/duel_X2_A.toml", "an Ubongo Duel card side (A)"),
              Example("duel_board1.txt", "region", "examples/duel_board1.txt", "a 16-cell region"),
              Example("rect_3x20.txt", "region", "examples/rect_3x20.txt", "the 3 x 20 rectangle"),
              Example("rect_6x10.txt", "region", "examples/rect_6x10.txt", "the 6 x 10 rectangle"),
              Example("hex_4x7.txt", "region", "examples/hex_4x7.txt", "the 4 x 7 parallelogram of hexagons"),
              Example("triangle_4x9.txt", "region", "examples/triangle_4x9.txt", "the 4 x 9 parallelogram of triangles"),
              Example("soma_cube.txt", "region", "examples/soma_cube.txt", "the 3 x 3 x 3 cube")]
    items += [Example("orion/published", "tiles", "orion/published.txt", "the Orion Duel tiles of the published game"),
              Example("orion/seed", "tiles", "orion/seed.txt", "the Orion Duel tiles as the original rule text describes them")]
    return {e.key: e for e in items}


#: Every shipped item by key, in listing order (see :class:`Example`).
EXAMPLES: dict[str, Example] = _catalogue()


def find_example(name: str) -> Example:
    """The shipped item called ``name``: its key (``"pieces/classic"``), or a name only one item has
    (``"rect_6x10.txt"``, ``"rect_6x10"``, ``"designer"``, ``"pentominoes"``).

    Raises
    ------
    InputError
        For an unknown name (listing what there is), a name several
        items share (listing their keys), or one that is no text.

    Examples
    --------
    >>> find_example("rect_6x10").key, find_example("pentominoes").key
    ('rect_6x10.txt', 'pieces/pentominoes')
    """
    from .errors import InputError, cut

    if not isinstance(name, str):
        raise InputError(f"a shipped item is named by text (e.g. 'pieces/classic'), got {type(name).__name__} "
                         f"{cut(repr(name))}")
    if name in EXAMPLES:
        return EXAMPLES[name]
    stem = name.rstrip("/")
    hits = [e for e in EXAMPLES.values() if stem in (e.short, e.short.rsplit(".", 1)[0])]
    if len(hits) == 1:
        return hits[0]
    if hits:
        raise InputError(f"{name!r} names several shipped items: {', '.join(e.key for e in hits)}; give one of them")
    raise InputError(f"no shipped item is called {name!r}; `ubongo-cp examples` lists them "
                     f"({', '.join(EXAMPLES)})")


def is_unchanged_copy(example: Example, dest: str | os.PathLike) -> bool:
    """Whether ``dest`` already holds a copy of a shipped item, byte for byte (a directory: the same files,
    compared with :mod:`filecmp`), so that copying it again has nothing to do."""
    import filecmp
    from pathlib import Path

    target = Path(dest) / example.path.name
    if example.path.is_dir():
        if not target.is_dir() or target.is_symlink():
            return False

        def same(cmp: filecmp.dircmp) -> bool:
            if cmp.left_only or cmp.right_only or cmp.funny_files or cmp.common_funny:
                return False
            _, mismatch, errors = filecmp.cmpfiles(cmp.left, cmp.right, cmp.common_files, shallow=False)
            return not mismatch and not errors and all(same(sub) for sub in cmp.subdirs.values())

        return same(filecmp.dircmp(example.path, target, ignore=["__pycache__"]))
    return target.is_file() and not target.is_symlink() and filecmp.cmp(example.path, target, shallow=False)


def copy_example(example: Example, dest: str | os.PathLike) -> pathlib.Path:
    """Copy a shipped item into directory ``dest`` (created), under its own file or directory name.

    A card side names its piece set by a shipped name, and a spec directory
    holds its piece set, so every copy works where it lies. An unchanged copy
    already there (:func:`is_unchanged_copy`) is left as it is.

    Returns
    -------
    Path
        The copy.

    Raises
    ------
    InputError
        When the copy would replace an existing file or directory that is not
        an unchanged copy, or ``dest`` cannot be written.
    """
    from pathlib import Path

    from .errors import InputError

    _check_destination(dest)
    target = Path(dest) / example.path.name
    _remove_killed_copies(target)
    if target.exists() or target.is_symlink():
        if is_unchanged_copy(example, dest):
            return target
        raise InputError(f"{target} exists already and is not an unchanged copy; copy somewhere else or remove it")
    try:
        Path(dest).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot copy to {dest}: {exc.strerror or exc}") from None
    _copy_whole(example.path, target)
    return target


def _remove_killed_copies(target: pathlib.Path) -> None:
    """Delete the temporary files and folders of copies to ``target`` that were killed (kill -9, a power loss)
    before they could remove them: a copy still being made holds its own locked (:func:`_copy_whole`)."""
    from .io import remove_stale_temporaries

    if target.parent.is_dir():
        remove_stale_temporaries(target, folders=True)


def _copy_whole(source: pathlib.Path, target: pathlib.Path) -> None:
    """Copy the file or folder ``source`` to ``target``, which does not exist, so that ``target`` appears whole or
    not at all: the copy is made in a temporary file or folder beside it (:func:`~ubongo_cp.io.temporary_prefix`)
    and renamed onto it once every file reached the disk; a copy that fails (a full disk) or is stopped is
    removed, and the error names the file that could not be written; one killed (kill -9) leaves it, for the next
    copy to ``target`` to remove (:func:`_remove_killed_copies`)."""
    import contextlib
    import shutil

    from .errors import InputError
    from .io import atomic_path, fsync, fsync_directory, locked_temporary_folder

    if not source.is_dir():
        try:
            with atomic_path(target) as tmp:
                shutil.copyfile(source, tmp)
        except OSError as exc:
            raise InputError(f"cannot copy: {exc.strerror or exc}; nothing was copied", path=target) from None
        return
    with contextlib.ExitStack() as held:   # the folder locked until renamed: another copy removes it only once
        try:                                 # this one was killed
            tmp = held.enter_context(locked_temporary_folder(target))
        except OSError as exc:
            raise InputError(f"cannot copy: {exc.strerror or exc}; nothing was copied", path=target) from None
        written = target
        try:
            for path in sorted(source.rglob("*")):
                part = path.relative_to(source)
                if "__pycache__" in part.parts or path.is_dir():
                    continue
                written = target / part   # the name the error gives
                (tmp / part).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(path, tmp / part)
                fsync(tmp / part)
            written = target
            shutil.copystat(source, tmp)   # mkdtemp makes 0700: the copy gets the shipped folder's permissions
            os.rename(tmp, target)
        except BaseException as exc:
            shutil.rmtree(tmp, ignore_errors=True)
            if isinstance(exc, OSError):
                raise InputError(f"cannot copy: {exc.strerror or exc}; nothing was copied", path=written) from None
            raise
    fsync_directory(target.parent)


def _check_destination(dest: str | os.PathLike) -> None:
    """Refuse a destination of :func:`copy_example` that is not a directory (an :class:`~ubongo_cp.errors.InputError`
    naming the argument ``dest``)."""
    from pathlib import Path

    from .errors import InputError

    for folder in (Path(dest), *Path(dest).parents):   # the first that exists must be a directory
        if folder.is_dir():
            return
        if os.path.lexists(folder):
            what = "is a file" if folder.is_file() else "is a broken link" if folder.is_symlink() else \
                "is not a directory"
            raise InputError(f"{what}; the copies go into a directory (made where missing)", path=folder,
                             argument="dest")


def copy_examples(dest: str | os.PathLike) -> list[pathlib.Path]:
    """Copy every example card side and region of :data:`EXAMPLES` and the designer's deck
    (:data:`EXAMPLE_SPECS`) into ``dest``.

    The deck specs of the decks on other grids (``grids/...``) are copied one by one
    (:func:`copy_example`): beside the card sides they would be read as card files of the folder's deck.
    Nothing is copied when one of the copies would replace an existing file or directory (an unchanged copy
    already there is left as it is).

    Returns the copies (those already there included); raises :class:`~ubongo_cp.errors.InputError` as
    :func:`copy_example`.
    """
    from pathlib import Path

    from .errors import InputError

    _check_destination(dest)
    chosen = [e for e in EXAMPLES.values() if e.kind in ("card", "region") or e.key in EXAMPLE_SPECS]
    there = [Path(dest) / e.path.name for e in chosen if ((Path(dest) / e.path.name).exists()
                                                          or (Path(dest) / e.path.name).is_symlink())
             and not is_unchanged_copy(e, dest)]
    if there:
        raise InputError(f"{there[0]} exists already and is not an unchanged copy; copy somewhere else or remove it")
    return [copy_example(e, dest) for e in chosen]
