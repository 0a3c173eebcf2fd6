"""Deck specifications: the facts of a game's cards, as data (TOML).

A deck spec names the piece set, the number of cards and, per card side,
the pieces per task, the die faces, the region's bounding box and cell-count
range, the solution policy, an optional difficulty band and the orientation
mode. The two shipped games are specs too (``data/specs/classic.toml`` and
``duel.toml``): they are the toolkit's one table of game facts (sides, die
faces, cards, pieces per side, piece set), read by the card reader, the
generator, the booklet and the game simulators.

File format (every key but the ones marked optional is required)::

    game = "mygame"              # a name: ASCII letters, digits, '_' and '-'
    title = "My game"            # optional, for booklets and cards (default: the name)
    pieces = "pieces.txt"        # shipped set name, or a file in the spec's folder
    cards = 24
    card_ids = "padded"          # optional: "padded" (01, 02, ...; default) or "plain" (1, 2, ...)
    die_rule = "UG-4"            # optional: the rule id quoted when a die face does not exist

    [[sides]]                    # one table per card side, in printing order
    name = "easy"
    pieces_per_task = 3          # K
    faces = 6                    # die faces: tasks per side
    max_rows = 6                 # the region fits max_rows x max_cols cells (the grid's box: a
    max_cols = 6                 #   parallelogram on hexagons and triangles)
    layers = 2                   # optional, cubes: regions are a footprint this many layers high
    cells = [10, 13]             # optional: region cell counts, inclusive (default: what K pieces can cover,
                             #   and up to max_empty more)
    unique = true                # every task has exactly one solution (UP-5), or:
    # max_solutions = 3          #   every task has 1..3 solutions (fewest preferred)
    difficulty = [2.0, 6.0]      # optional: band of the rating's difficulty (ubongo_cp.rate)
    orientations = "free"        # optional: free (UP-3) | one-sided | fixed (cubes: free | mirror | fixed)
    copies = 1                   # optional: a piece may appear up to this many times in one task
                                 #   (2 or more: tasks are multisets, e.g. ["I3", "I3", "L3"])
    max_empty = 0                # optional: up to this many region cells may stay empty in a task
                                 #   (its card file then says max_empty = N)
    attempts = 400               # optional: regions tried before the side gives up

The grid is the piece set's (:mod:`ubongo_cp.grids`).

A deck directory written by ``ubongo-cp generate --spec`` holds a copy of its
spec as ``deck.toml``, so that its card files can be read without the
original (:func:`spec_for_card`).
"""

from __future__ import annotations

import os
import re
from functools import lru_cache

from .errors import InputError, as_written, control_character, cut, wrong_kind
from .geometry import MAX_REGION_CELLS
from .reading import PLAIN_NAME, is_plain_name
from .shipped import SHIPPED_PIECE_SETS, data_file
from .structs import Struct

__all__ = ["SideSpec", "DeckSpec", "SHIPPED_SPECS", "DECK_SPEC_FILE", "MAX_CARDS", "load_spec", "parse_spec",
           "game_spec", "spec_for_card"]

#: The shipped deck specs (``data/specs/<name>.toml``): the two games.
SHIPPED_SPECS = ("classic", "duel")
#: Name of the spec copy inside a generated deck directory.
DECK_SPEC_FILE = "deck.toml"
#: Most cards a deck spec (its ``cards`` key) or a generated deck may have.
MAX_CARDS = 10_000

_TOP_KEYS = {"game", "title", "pieces", "cards", "card_ids", "die_rule", "sides"}
_SIDE_KEYS = {"name", "pieces_per_task", "faces", "max_rows", "max_cols", "layers", "cells", "unique",
              "max_solutions", "difficulty", "orientations", "copies", "attempts", "max_empty"}


class SideSpec(Struct):
    """How every card's side ``name`` looks, and how the generator makes it.

    Attributes
    ----------
    name : str
        Side name (``"easy"``, ``"A"``, ...).
    pieces_per_task : int
        K, the number of pieces in each task.
    faces : int
        Die faces, i.e. tasks per side.
    max_rows, max_cols : int
        The region fits this box (cells; :meth:`ubongo_cp.grids.Grid.box`).
    cells : tuple of (int, int)
        Smallest and largest region cell count (inclusive).
    unique : bool
        Every task has exactly one solution; otherwise up to ``max_solutions``.
    max_solutions : int
        Largest solution count of an accepted task (1 when ``unique``).
    difficulty : tuple of (float, float) or None
        Accepted band of :func:`ubongo_cp.rate.difficulty_score`, if any.
    orientations : str
        ``"free"`` (rule UP-3), ``"one-sided"`` or ``"fixed"`` (a mode of the grid).
    attempts : int
        Candidate regions tried before the side gives up.
    layers : int
        On cubes: every region is a footprint this many layers high (Ubongo
        3-D: 2); 1 elsewhere.
    copies : int
        How many times one piece may appear in a task (1: a task is a set of
        pieces; more: a multiset; tilings that only swap two copies count
        once, UP-5).
    max_empty : int
        Up to this many cells of a task's region may stay uncovered (0: the
        pieces cover the region, UP-4); a task leaving ``e`` cells empty
        says ``max_empty = e`` in its card file.
    """

    name: str
    pieces_per_task: int
    faces: int
    max_rows: int
    max_cols: int
    cells: tuple[int, int]
    unique: bool
    max_solutions: int
    difficulty: tuple[float, float] | None
    orientations: str
    attempts: int
    layers: int
    copies: int
    max_empty: int

    def __init__(self, name: str, pieces_per_task: int, faces: int, max_rows: int, max_cols: int,
                 cells: tuple[int, int], unique: bool = True, max_solutions: int = 1,
                 difficulty: tuple[float, float] | None = None, orientations: str = "free", attempts: int = 400,
                 layers: int = 1, copies: int = 1, max_empty: int = 0) -> None:
        self._set(name=name, pieces_per_task=pieces_per_task, faces=faces, max_rows=max_rows, max_cols=max_cols,
                  cells=cells, unique=unique, max_solutions=max_solutions, difficulty=difficulty,
                  orientations=orientations, attempts=attempts, layers=layers, copies=copies, max_empty=max_empty)

    @property
    def areas(self) -> tuple[int, ...]:
        """Region cell counts the generator draws from (multiples of :attr:`layers`)."""
        return tuple(n for n in range(self.cells[0], self.cells[1] + 1) if n % self.layers == 0)

    def box(self, grid) -> tuple[int, ...]:
        """The sizes of the region's box on ``grid``: ``(max_rows, max_cols)``, on cubes ``(layers, max_rows, max_cols)``."""
        return (self.layers, self.max_rows, self.max_cols) if grid.dim == 3 else (self.max_rows, self.max_cols)


class DeckSpec(Struct):
    """A deck: the piece set, the number of cards and the sides' specs.

    Attributes
    ----------
    game : str
        The game's name, written into every card file (``game = ...``).
    title : str
        Human title (booklets, printed cards).
    pieces : str
        The piece set: a shipped name, or a path (absolute, or relative to
        the directory of the spec file it came from).
    cards : int
        Number of cards.
    sides : tuple of SideSpec
        The card sides, in order.
    card_ids : str
        ``"padded"`` (``01``...) or ``"plain"`` (``1``...).
    die_rule : str
        Rule id quoted in die-face errors (empty for custom games).
    path : str or None
        The file it was read from.
    text : str
        The spec file's text (copied into generated decks).
    pieces_file : str or None
        The piece-set file ``pieces`` names, as checked when the spec was
        read (None for a shipped set or a spec built in code).
    """

    game: str
    title: str
    pieces: str
    cards: int
    sides: tuple[SideSpec, ...]
    card_ids: str
    die_rule: str
    path: str | None
    text: str
    pieces_file: str | None
    _hidden = _uncompared = ("text", "pieces_file")

    def __init__(self, game: str, title: str, pieces: str, cards: int, sides: tuple[SideSpec, ...],
                 card_ids: str = "padded", die_rule: str = "", path: str | None = None, text: str = "",
                 pieces_file: str | None = None) -> None:
        self._set(game=game, title=title, pieces=pieces, cards=cards, sides=sides, card_ids=card_ids,
                  die_rule=die_rule, path=path, text=text, pieces_file=pieces_file)

    @property
    def side_names(self) -> tuple[str, ...]:
        """Names of the sides, in order."""
        return tuple(s.name for s in self.sides)

    def side(self, name: str) -> SideSpec:
        """The spec of side ``name``.

        Raises
        ------
        InputError
            When the game has no such side.
        """
        for s in self.sides:
            if s.name == name:
                return s
        raise InputError(f"side {name!r} is not a side of a {self.game} card ({', '.join(self.side_names)})",
                         path=self.path)

    def card_id(self, index: int) -> str:
        """The id of card ``index`` (0-based): ``"01"`` or ``"1"`` style."""
        width = 2 if self.cards < 100 else len(str(self.cards))
        return f"{index + 1:0{width}d}" if self.card_ids == "padded" else str(index + 1)

    def pieces_path(self) -> str:
        """The piece-set reference resolved against the spec's directory (a shipped name stays a name)."""
        from .pieces import _pieces_file

        if self.pieces_file is not None:
            return self.pieces_file
        if self.path is None:
            return self.pieces
        return os.fspath(_pieces_file(self.pieces, relative_to=self.path, named_in_file=True))


def load_spec(spec: str | os.PathLike) -> DeckSpec:
    """Read a deck spec: a shipped name (``"classic"``, ``"duel"``, the designer's example ``"designer"``, or
    an example deck's spec on another grid, ``"hexagons"``, ``"triangles"``, ``"cubes"``), a TOML file, or a
    directory holding ``deck.toml``.

    Raises
    ------
    InputError
        For a ``spec`` that is neither text nor a path, a missing file or any problem listed under
        :func:`parse_spec`.

    Examples
    --------
    >>> s = load_spec("duel")
    >>> s.cards, s.side_names, s.side("B").pieces_per_task, s.side("B").faces
    (9, ('A', 'B'), 5, 20)
    """
    if not isinstance(spec, (str, os.PathLike)):
        raise InputError(f"a deck spec is a shipped game's name, a spec file's path or a DeckSpec, got "
                         f"{type(spec).__name__} {cut(repr(spec))}")
    name = os.fspath(spec)
    if name in SHIPPED_SPECS:
        return _shipped(name)
    from .reading import read_text
    from .shipped import example_spec_path

    from pathlib import Path

    example = example_spec_path(name)
    if example is not None and not Path(name).exists():     # a shipped example spec, by name
        return parse_spec(example.read_text(encoding="utf-8"), path=os.fspath(example))
    if Path(name).is_dir() and (Path(name) / DECK_SPEC_FILE).is_file():   # a deck directory: its deck.toml
        name = os.fspath(Path(name) / DECK_SPEC_FILE)
    return parse_spec(read_text(name), path=name)


@lru_cache(maxsize=None)
def _shipped(name: str) -> DeckSpec:
    path = data_file("specs", f"{name}.toml")
    with open(path, encoding="utf-8") as fh:
        return parse_spec(fh.read(), path=path)


def game_spec(game: str) -> DeckSpec:
    """The facts of a shipped game (``"classic"`` or ``"duel"``).

    Raises
    ------
    InputError
        For another name.
    """
    if game not in SHIPPED_SPECS:
        raise InputError(f"unknown game {game!r}; expected one of {', '.join(SHIPPED_SPECS)}")
    return _shipped(game)


def spec_for_card(game: str, card_path: str | os.PathLike | None) -> DeckSpec:
    """The spec of a card file's ``game``: a shipped game, or the ``deck.toml`` beside the card.

    Raises
    ------
    InputError
        When the game is not shipped and no ``deck.toml`` of that game lies
        beside the card file.
    """
    if game in SHIPPED_SPECS:
        return _shipped(game)
    if card_path is not None:
        from pathlib import Path

        candidate = Path(card_path).parent / DECK_SPEC_FILE
        if candidate.is_file():
            from .pieces import _ALLOWED

            spec = _spec_file_cached(os.fspath(candidate), candidate.stat().st_mtime_ns, _ALLOWED.get())
            if spec.game == game:
                return spec
    raise InputError(f"unknown game {game!r}: not a shipped game ({', '.join(SHIPPED_SPECS)}) and no "
                     f"{DECK_SPEC_FILE} of that game beside the card file")


@lru_cache(maxsize=64)
def _spec_file_cached(path: str, mtime_ns: int, allowed: frozenset) -> DeckSpec:
    """:func:`load_spec` once per file version and set of allowed piece files (``allowed`` is in effect)."""
    return load_spec(path)


def key_line(text: str, key: str, nth: int = 0) -> int | None:
    """The line (from 1) of the ``nth`` assignment of ``key`` in a TOML text (the last one if it has fewer);
    None if it has none."""
    found = list(re.finditer(rf'^[ \t]*"?{re.escape(key)}"?[ \t]*=', text, re.M))
    if not found:
        return None
    m = found[min(nth, len(found) - 1)]
    return text.count("\n", 0, m.start()) + 1


def parse_spec(text: str, *, path: str | None = None) -> DeckSpec:
    """Parse and validate a deck spec (see the module docstring for the format).

    Raises
    ------
    InputError
        Naming the file and line: TOML syntax, a missing, unknown or mistyped
        key, a value out of range (cards, faces, K, box, cells), a piece set that
        cannot be read or has fewer than K pieces (times ``copies``), a side whose K pieces can
        never fill its box or whose cell range no K pieces can cover, a
        difficulty band with min > max, an unknown orientation mode.
    """
    from .pieces import _pieces_file, load_pieces

    from .reading import loads_toml

    data = loads_toml(text, path=path)
    if not data:   # no key at all: a region or piece-set drawing is a TOML document of '#' comments
        from .reading import wrong_format

        raise wrong_format(text, path, "toml", "a deck spec") or InputError(
            "not a deck spec: it has no TOML key at all (a deck spec sets game, pieces and its [[sides]])",
            path=path)

    def line_of(key: str, nth: int = 0) -> int | None:
        return key_line(text, key, nth)

    def fail(message: str, key: str | None = None, nth: int = 0):
        raise InputError(message, path=path, line=line_of(key, nth) if key else None)

    def get(table: dict, key: str, kind, *, default=None, where: str = "", nth: int = 0):
        if key not in table:
            if default is not None:
                return default
            fail(f"{where}missing key {key!r}", None)
        value = table[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) and bool not in kinds or not isinstance(value, kinds):
            fail(f"{where}{wrong_kind(key, kinds, value)}", key, nth)
        return value

    if "tasks" in data and "sides" not in data:   # a card side (its [tasks]), given where a deck spec belongs
        at = re.search(r"^[ \t]*\[[ \t]*tasks[ \t]*\]", text, re.M)
        raise InputError("is a card side (its [tasks] name the pieces of each die face), not a deck spec: give the "
                         "spec its deck was made from (the deck's deck.toml)", path=path,
                         line=text.count("\n", 0, at.start()) + 1 if at else line_of("tasks"))
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        fail(f"unknown key {unknown[0]!r} (known: {', '.join(sorted(_TOP_KEYS))})", unknown[0])
    game = get(data, "game", str)
    if not is_plain_name(game):
        fail(f"game name {game!r} may hold only {PLAIN_NAME}", "game")
    title = get(data, "title", str, default=game)
    control = control_character(title)
    if control:   # printed on every card and booklet page, where the font has no glyph for it
        fail(f"title holds {control}; a title is printed on the cards and booklet pages: write it on one line of "
             "printable characters", "title")
    pieces = get(data, "pieces", str)
    cards = get(data, "cards", int)
    if not 1 <= cards <= MAX_CARDS:
        fail(f"cards must be 1..{MAX_CARDS}, got {cards}", "cards")
    card_ids = get(data, "card_ids", str, default="padded")
    if card_ids not in ("padded", "plain"):
        fail(f"card_ids must be 'padded' or 'plain', got {card_ids!r}", "card_ids")
    die_rule = get(data, "die_rule", str, default="")
    try:
        pieces_ref = os.fspath(_pieces_file(pieces, relative_to=path, named_in_file=True)) if path else pieces
    except InputError as exc:
        fail(exc.message, "pieces")
    try:
        piece_set = load_pieces(pieces_ref)
    except InputError as exc:
        fail(f"piece set {pieces!r}: {exc}", "pieces")
    raw_sides = get(data, "sides", list)
    if not raw_sides or not all(isinstance(s, dict) for s in raw_sides):
        fail("'sides' must be one or more [[sides]] tables", "sides")
    sizes = sorted(p.size for p in piece_set.pieces)
    grid = piece_set.grid
    sides: list[SideSpec] = []
    for n, raw in enumerate(raw_sides):
        where = f"side {n + 1}: "
        bad = sorted(set(raw) - _SIDE_KEYS)
        if bad:
            fail(f"{where}unknown key {bad[0]!r} (known: {', '.join(sorted(_SIDE_KEYS))})", bad[0], n)
        name = get(raw, "name", str, where=where, nth=n)
        where = f"side {name!r}: "
        if name in [s.name for s in sides] or not is_plain_name(name):
            fail(f"{where}side names must be distinct and hold only {PLAIN_NAME}", "name", n)
        k = get(raw, "pieces_per_task", int, where=where, nth=n)
        faces = get(raw, "faces", int, where=where, nth=n)
        rows = get(raw, "max_rows", int, where=where, nth=n)
        cols = get(raw, "max_cols", int, where=where, nth=n)
        copies = get(raw, "copies", int, default=1, where=where, nth=n)
        if not 1 <= copies <= 100:
            fail(f"{where}copies must be 1..100, got {copies}", "copies", n)
        pool = sorted(sizes * copies)      # the piece sizes a task draws from, each piece up to ``copies`` times
        empty = get(raw, "max_empty", int, default=0, where=where, nth=n)
        if empty < 0:
            fail(f"{where}max_empty must be at least 0, got {empty}", "max_empty", n)
        if not 1 <= k <= len(pool):
            fail(f"{where}pieces_per_task must be 1..{len(pool)} (the piece set has {len(sizes)} pieces"
                 + (f", {copies} copies each" if copies > 1 else "") + f"), got {k}", "pieces_per_task", n)
        if not 1 <= faces <= 1000:
            fail(f"{where}faces must be 1..1000, got {faces}", "faces", n)
        if rows < 1 or cols < 1:
            fail(f"{where}the box {rows}x{cols} has no cells", "max_rows", n)
        if max(rows, cols) > MAX_REGION_CELLS:
            fail(f"{where}the box {rows}x{cols} is longer than {MAX_REGION_CELLS} cells, the largest region "
                 "the toolkit reads", "max_rows" if rows > cols else "max_cols", n)
        layers = get(raw, "layers", int, default=1, where=where, nth=n)
        if layers < 1 or (layers > 1 and grid.dim != 3):
            fail(f"{where}layers must be at least 1, and more than 1 only on cubes (the pieces are on the "
                 f"{grid.name} grid), got {layers}", "layers", n)
        room = len(grid.box(*((layers, rows, cols) if grid.dim == 3 else (rows, cols))))
        low, high = sum(pool[:k]), sum(pool[-k:])
        if low > room:
            fail(f"{where}the {k} smallest pieces cover {low} cells, more than the {rows}x{cols} box holds",
                 "max_rows", n)
        cells = get(raw, "cells", list, default=[low, min(high + empty, room)], where=where, nth=n)
        if (len(cells) != 2 or not all(isinstance(c, int) and not isinstance(c, bool) for c in cells)
                or cells[0] > cells[1]):
            fail(f"{where}cells must be [smallest, largest] cell counts, got {cells}", "cells", n)
        if cells[0] < 1:
            fail(f"{where}cells must be positive cell counts, got {cells}", "cells", n)
        if cells[1] > MAX_REGION_CELLS:
            fail(f"{where}cells goes up to {cells[1]}, over the largest region the toolkit reads "
                 f"({MAX_REGION_CELLS} cells)", "cells", n)
        if cells[0] > room:
            fail(f"{where}a region of {cells[0]} cells does not fit the {rows}x{cols} box", "cells", n)
        if empty >= cells[0]:
            fail(f"{where}max_empty must be below the smallest region ({cells[0]} cells), got {empty}",
                 "max_empty", n)
        within = f" with up to {empty} empty" if empty else ""
        if cells[1] < low or cells[0] - empty > high:
            fail(f"{where}no {k} pieces of the set cover {cells[0]}..{cells[1]} cells{within} (they cover "
                 f"{low}..{high})", "cells", n)
        totals = _sums_of(pool, k, cells[1])
        if not any(area - empty <= total <= area for area in range(cells[0], cells[1] + 1) if area % layers == 0
                   for total in totals):
            fail(f"{where}no {k} pieces of the set cover {cells[0]}..{cells[1]} cells{within}"
                 + (f" in {layers} full layers" if layers > 1 else ""), "cells", n)
        unique = get(raw, "unique", bool, default="absent", where=where, nth=n)
        has_max = "max_solutions" in raw
        if unique == "absent":
            unique = not has_max
        if unique and has_max:
            fail(f"{where}give either unique = true or max_solutions = M, not both", "max_solutions", n)
        if not unique and not has_max:
            fail(f"{where}unique = false needs max_solutions = M", "unique", n)
        max_solutions = get(raw, "max_solutions", int, default=1, where=where, nth=n)
        if max_solutions < 1:
            fail(f"{where}max_solutions must be at least 1, got {max_solutions}", "max_solutions", n)
        band = raw.get("difficulty")
        if band is not None:
            if (not isinstance(band, list) or len(band) != 2
                    or not all(isinstance(b, (int, float)) and not isinstance(b, bool) for b in band)):
                fail(f"{where}difficulty must be [min, max], got {as_written(band)}", "difficulty", n)
            if not (0 <= band[0] <= band[1] < float("inf")):
                fail(f"{where}difficulty band {band} is impossible: need 0 <= min <= max", "difficulty", n)
            band = (float(band[0]), float(band[1]))
        mode = get(raw, "orientations", str, default="free", where=where, nth=n)
        problem = grid.mode_problem(mode)
        if problem:
            fail(f"{where}orientations: {problem}", "orientations", n)
        attempts = get(raw, "attempts", int, default=400, where=where, nth=n)
        if not 1 <= attempts <= 1_000_000:
            fail(f"{where}attempts must be 1..1000000, got {attempts}", "attempts", n)
        sides.append(SideSpec(name, k, faces, rows, cols, (cells[0], cells[1]), bool(unique),
                              1 if unique else max_solutions, band, mode, attempts, layers, copies, empty))
    pieces_file = pieces_ref if pieces not in SHIPPED_PIECE_SETS else None
    return DeckSpec(game, title, pieces, cards, tuple(sides), card_ids, die_rule, path, text, pieces_file)


def _sums_of(sizes: list[int], k: int, most: int) -> list[int]:
    """Every total of ``k`` of ``sizes`` up to ``most`` (a knapsack over bit sets; O(len(sizes) x k)).

    Examples
    --------
    >>> _sums_of([1, 2, 4], 2, 10)
    [3, 5, 6]
    """
    mask = (1 << (most + 1)) - 1
    reach = [1] + [0] * k  # reach[j]: bit t set when some j of the sizes seen so far total t
    for size in sizes:
        for j in range(k, 0, -1):
            reach[j] |= (reach[j - 1] << size) & mask
    return [t for t in range(most + 1) if reach[k] >> t & 1]
