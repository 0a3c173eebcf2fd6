"""Card-side files (TOML): one region and a table of tasks, one per die face.

A card side (rule UP-1) is stored as one TOML file::

    game = "classic"          # a game: "classic", "duel", or the game of a deck.toml beside the file
    card = "01"               # card id
    side = "easy"             # a side of that game (classic: "easy"/"hard"; duel: "A"/"B")
    pieces = "classic"        # shipped set name, or a file in this file's folder
    orientations = "free"     # optional: free (UP-3, the default) | one-sided | fixed (cubes: | mirror)
    grid = "square"           # optional: the pieces' grid (their file says it; a check)
    region = '''
    .##.
    ####
    '''

    [tasks]                   # die face -> piece names (rules UP-1, UP-4)
    1 = ["I2", "L3", "T4"]
    2 = ["I2", "T4:0-2", "L4:1-3"]                  # NAME:LO-HI: between LO and HI of that piece
    3 = {pieces = ["I2", "L3", "T4"], max_empty = 2}  # up to 2 region cells may stay empty

The game's facts (its sides, its die) come from its deck spec
(:mod:`ubongo_cp.specs`). Validation (each error names the file and, where
it can, the line): TOML syntax and duplicate keys, a file without a single
key (:class:`~ubongo_cp.cards.NotACardError`: a region file given as a card), missing or mistyped
fields, an unknown game or side, a piece-set file outside the card's folder
(see :mod:`ubongo_cp.pieces`), unknown piece names, a task whose area
differs from the region's (UP-4; with ranges or empty cells: a task no count
in its ranges can fill), a range ``LO-HI`` with LO > HI, ``max_empty``
negative or larger than the region, faces that are not positive integers or
beyond the game's die, a ``grid`` other than the pieces'.

The region is drawn in the text layout of the pieces' grid
(:mod:`ubongo_cp.grids`: offset rows of hexagons, ``^``/``v`` triangles,
cube layers separated by a line of ``-``).
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable


from .errors import InputError, as_written, control_character, whole_argument, wrong_kind
from .geometry import MAX_REGION_CELLS
from .grids import GRIDS, SQUARE
from .reading import PLAIN_NAME, is_plain_name, loads_toml, text_lines
from .specs import DECK_SPEC_FILE, spec_for_card
from .pieces import Piece, PieceSet, Region, _pieces_file, count_ranges, load_pieces, parse_region
from .structs import Struct

__all__ = ["CardSide", "NotACardError", "load_card", "parse_card", "write_card", "card_to_toml", "load_deck", "DeckProblem",
           "card_sides_argument",
           "task_hash", "card_id_key", "card_id_match", "printing_order"]


class CardSide(Struct):
    """One side of a card: a region and its tasks.

    Attributes
    ----------
    game : str
        ``"classic"`` or ``"duel"``.
    card_id : str
        Card id (unique within a deck together with ``side``).
    side : str
        ``"easy"``/``"hard"`` (classic) or ``"A"``/``"B"`` (duel).
    pieces_spec : str
        The piece-set reference as written in the file.
    piece_set : PieceSet
        The loaded piece set.
    region : Region
        Target cells.
    tasks : dict of int -> tuple of str
        Die face -> piece names.
    path : str or None
        The file it was read from.
    meta : dict
        Any other top-level keys (e.g. the generator's record).
    orientations : str
        Orientation mode of the pieces: ``"free"`` (rule UP-3), ``"one-sided"``
        or ``"fixed"`` (one of the grid's modes).
    ranges : dict of int -> dict of str -> (int, int)
        Die face -> piece name -> ``(lo, hi)``: the task uses between ``lo``
        and ``hi`` pieces of that shape (a name with a range is listed once
        in :attr:`tasks`); faces without ranges are absent.
    max_empty : dict of int -> int
        Die face -> how many region cells may stay empty; faces where every
        cell is covered (rule UP-2) are absent.
    """

    game: str
    card_id: str
    side: str
    pieces_spec: str
    piece_set: PieceSet
    region: Region
    tasks: dict[int, tuple[str, ...]]
    path: str | None
    meta: dict
    orientations: str
    ranges: dict[int, dict[str, tuple[int, int]]]
    max_empty: dict[int, int]
    _uncompared = ("meta",)

    def __init__(self, game: str, card_id: str, side: str, pieces_spec: str, piece_set: PieceSet, region: Region,
                 tasks: dict[int, tuple[str, ...]], path: str | None = None, meta: dict | None = None,
                 orientations: str = "free", ranges: dict[int, dict[str, tuple[int, int]]] | None = None,
                 max_empty: dict[int, int] | None = None) -> None:
        # meta, ranges and max_empty: None stands for a new empty dict (a dataclass's default_factory)
        self._set(game=game, card_id=card_id, side=side, pieces_spec=pieces_spec, piece_set=piece_set,
                  region=region, tasks=tasks, path=path, meta={} if meta is None else meta,
                  orientations=orientations, ranges={} if ranges is None else ranges,
                  max_empty={} if max_empty is None else max_empty)

    @property
    def key(self) -> tuple[str, str]:
        """``(card_id, side)``."""
        return (self.card_id, self.side)

    def task_pieces(self, face: int) -> list[Piece]:
        """The pieces of the task on ``face`` (a piece with a count range once: :attr:`ranges` says how many).

        Raises
        ------
        InputError
            For a face the card side does not have.
        """
        return self.piece_set.select(self.tasks[self.check_face(face)])

    def check_face(self, face: int) -> int:
        """``face``, once it is known to be a die face of this card side.

        Raises
        ------
        InputError
            For a value that is not a whole number ('1', 1.5, True), or a face the card side does not have.
        """
        if type(face) is not int:   # a face written as text ('1'), 1.0 or True is named as such
            face = whole_argument("face", face, None)
        if face not in self.tasks:
            raise InputError(f"card {self.card_id} side {self.side} has no face {face} "
                             f"(faces {min(self.tasks)}..{max(self.tasks)})", path=self.path)
        return face

    def is_fixed(self, face: int) -> bool:
        """Whether the task on ``face`` is one multiset of pieces covering every cell (no range, no empty cell)."""
        return not self.ranges.get(face) and not self.max_empty.get(face)

    def piece_count(self, face: int) -> tuple[int, int]:
        """The fewest and the most pieces the task on ``face`` uses (equal for a task without ranges)."""
        ranges = self.ranges.get(face, {})
        return (sum(ranges.get(n, (1, 1))[0] for n in self.tasks[face]),
                sum(ranges.get(n, (1, 1))[1] for n in self.tasks[face]))

    def task_entries(self, face: int) -> list[str]:
        """The task's pieces as the card file writes them: ``NAME``, or ``NAME:LO-HI`` with a range."""
        return _entries(self.tasks[face], self.ranges.get(face, {}))

    def require_fixed(self, face: int, why: str) -> None:
        """Refuse a task with ranges of piece counts or empty cells (:meth:`is_fixed`) where only fixed tasks go.

        Raises
        ------
        InputError
            Naming the card side, the face and ``why``.
        """
        if not self.is_fixed(face):
            raise InputError(f"card {self.card_id} side {self.side} face {face} has ranges of piece counts or "
                             f"empty cells; {why}", path=self.path)

    def task_label(self, face: int) -> str:
        """The task in one line: its entries (:meth:`task_entries`) and the cells that may stay empty.

        Examples
        --------
        ``"I2 T4:0-2 L4:1-3"``, ``"I2:4"`` (four dominoes), ``"I2 L3 T4, up to 2 cells empty"``.
        """
        return _label(self.task_entries(face), self.max_empty.get(face, 0))

    def draw(self, *, cell_mm: float = 8.0):
        """The card side as printed: region, die-face table with piece icons (a matplotlib Figure)."""
        from .draw.card import card_figure

        return card_figure(self, cell_mm)

    def _repr_svg_(self) -> str:
        """The picture a notebook shows (matplotlib is imported only here)."""
        from .draw.figures import figure_svg

        return figure_svg(self.draw())


class NotACardError(InputError):
    """A file given as a card side that is no card side at all: it holds no TOML key (a region or piece
    file, whose ``#`` lines TOML reads as comments, or an empty file).

    Attributes
    ----------
    drawing : bool
        The file has lines of ``#`` cells: it looks like a region or piece file.
    """

    def __init__(self, message: str, *, path: str | None = None, drawing: bool = False) -> None:
        super().__init__(message, path=path)
        self.drawing = drawing


#: The fields of a card-side file; any other top-level key is kept as a note (:attr:`CardSide.meta`: a generated
#: card's seed, its command), unless it is a near miss of one of these.
CARD_FIELDS = ("game", "card", "side", "pieces", "grid", "orientations", "region", "tasks")

#: The notes the toolkit itself writes (a generated card's ``generator`` table) or prints on the cards (``title``,
#: ``game_title``): never a near miss of a field, so the check for one is not made for them.
KNOWN_NOTES = ("generator", "title", "game_title")


#: A line that assigns a key (``key =``, ``"key" =``) or opens a table (``[tasks]``): the key (:func:`parse_card`
#: names the line of a field, ``[tasks]`` or a misspelt ``[task]`` included).
_KEY_LINE = r'^[ \t]*(?:\[[ \t]*"?([^\]"]+?)"?[ \t]*\]|"?(.+?)"?[ \t]*=)'   # compiled when first asked for


def _two_letters_swapped(key: str, field: str) -> bool:
    """True when ``key`` is ``field`` with two neighbouring letters swapped, the commonest typo (Damerau, "A
    technique for computer detection and correction of spelling errors", CACM 7(3), 1964): difflib's ratio
    misses it on the short fields (``sied``, ``gird``: 0.75), yet a looser ratio would take notes such as
    ``name`` or ``size`` for ``game`` and ``side``.

    Examples
    --------
    >>> _two_letters_swapped("sied", "side"), _two_letters_swapped("size", "side")
    (True, False)
    """
    return len(key) == len(field) and any(key[:i] + key[i + 1] + key[i] + key[i + 2:] == field
                                          for i in range(len(key) - 1))


def parse_card(text: str, *, path: str | os.PathLike | None = None,
               max_cells: int = MAX_REGION_CELLS) -> CardSide:
    """Parse and validate a card-side TOML document.

    Raises
    ------
    NotACardError
        For a document without a single TOML key.
    InputError
        For any problem listed in the module docstring, naming file and line.
    """
    where = None if path is None else os.fspath(path)
    data = loads_toml(text, path=where)
    if not data:
        drawing = re.search(r"^\s*#", text, re.M) is not None
        why = ("it looks like a region or piece file: TOML reads its '#' lines as comments" if drawing
               else "a card side sets game, card, side, pieces, region and tasks")
        raise NotACardError(f"not a card-side TOML file: it has no TOML key at all ({why})", path=where,
                            drawing=drawing)

    lines: dict[str, int] = {}    # each key's first line, found in one pass when a line is first asked for

    def line_of(key: str) -> int | None:
        if not lines:
            for m in reversed(list(re.finditer(_KEY_LINE, text, re.M))):
                lines[m[1] or m[2]] = text.count("\n", 0, m.start()) + 1
            lines.setdefault("", 0)   # scanned (the empty key is no key)
        return lines.get(key)

    def field_(key: str, kind: type, default=None):
        if key not in data:
            if default is not None:
                return default
            raise InputError(f"missing field {key!r}", path=where)
        value = data[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            raise InputError(f"field {wrong_kind(key, (kind,), value)}", path=where, line=line_of(key))
        return value

    if "sides" in data and "card" not in data:   # a deck spec (its [[sides]]), given where a card side belongs
        at = re.search(r"^[ \t]*\[\[[ \t]*sides[ \t]*\]\]", text, re.M)
        raise InputError("is a deck spec (its [[sides]] say how to make card sides), not a card side: generate "
                         "the deck's card files from it, and give one of those", path=where,
                         line=text.count("\n", 0, at.start()) + 1 if at else line_of("sides"))
    for key in [key for key in data if key not in CARD_FIELDS and key not in KNOWN_NOTES]:
        import difflib   # a misspelt field would be kept as a note and change the answer (orientation = "fixed")

        close = (difflib.get_close_matches(key.lower(), CARD_FIELDS, n=1, cutoff=0.8)
                 or [field for field in CARD_FIELDS if _two_letters_swapped(key.lower(), field)])
        if close:
            raise InputError(f"unknown key {key!r}: did you mean {close[0]!r}? (a card side's fields: "
                             f"{', '.join(CARD_FIELDS)}; other keys are kept as notes)", path=where,
                             line=line_of(key))
    for key in ("game_title", "title"):   # the notes printed on the card and booklet pages (draw.card.game_title)
        control = control_character(data[key]) if isinstance(data.get(key), str) else None
        if control:
            raise InputError(f"{key} holds {control}; it is printed on the cards and booklet pages: write it on one "
                             "line of printable characters", path=where, line=line_of(key))
    if "max_empty" in data:   # a task's setting: at the top it would be kept as a note and change nothing
        raise InputError("max_empty is a setting of each task, not of the card side: write it in the task, "
                         'e.g. 1 = {pieces = ["I2", "L3"], max_empty = 2}', path=where, line=line_of("max_empty"))
    game = field_("game", str)
    try:
        spec = spec_for_card(game, where)
    except InputError as exc:
        raise InputError(exc.message, path=where, line=line_of("game")) from None
    card_id = data.get("card")
    if isinstance(card_id, int) and not isinstance(card_id, bool):
        card_id = str(card_id)
    if not isinstance(card_id, str) or not card_id:
        raise InputError("field 'card' must be a non-empty string", path=where, line=line_of("card"))
    if not is_plain_name(card_id):
        # Card ids name output files (booklet pages): no separators, no "..".
        raise InputError(f"card id {card_id!r} may hold only {PLAIN_NAME}",
                         path=where, line=line_of("card"))
    side = field_("side", str)
    if side not in spec.side_names:
        raise InputError(f"side {side!r} is not a side of a {game} card ({', '.join(spec.side_names)})",
                         path=where, line=line_of("side"))
    faces = spec.side(side).faces
    pieces_spec = field_("pieces", str)
    try:
        pieces_path = _pieces_file(pieces_spec, relative_to=where, named_in_file=True)
    except InputError as exc:
        raise InputError(exc.message, path=where, line=line_of("pieces")) from None
    if os.path.isdir(pieces_path):
        raise InputError(f"piece set {pieces_spec!r} is a directory ({pieces_path}), not a piece-set file",
                         path=where, line=line_of("pieces"))
    if not os.path.isfile(pieces_path):
        raise InputError(f"piece-set file {pieces_spec!r} not found (looked at {pieces_path})",
                         path=where, line=line_of("pieces"))
    piece_set = load_pieces(pieces_path)
    grid = piece_set.grid
    grid_name = field_("grid", str, grid.name)
    if grid_name not in GRIDS:
        raise InputError(f"unknown grid {grid_name!r}; expected one of {', '.join(GRIDS)}", path=where,
                         line=line_of("grid"))
    if grid_name != grid.name:
        raise InputError(f"grid {grid_name!r} differs from the pieces' ({pieces_spec} is on the {grid.name} grid): "
                         "pieces fit only a region of their own grid", path=where, line=line_of("grid"))
    orientations = field_("orientations", str, "free")
    problem = grid.mode_problem(orientations)
    if problem:
        raise InputError(f"orientations: {problem}", path=where, line=line_of("orientations"))
    region_text = field_("region", str)
    try:
        region = parse_region(region_text, path=where, max_cells=max_cells, grid=grid)
    except InputError as exc:
        region_line = line_of("region")
        line = region_line   # a problem of the whole region (its size): the line of its key
        if exc.line is not None and region_line is not None:
            # TOML drops a newline right after the opening quotes: rows then start one line lower.
            opening = text_lines(text)[region_line - 1]
            parts = re.split(r"\"\"\"|'''", opening, maxsplit=1)
            if len(parts) == 2:   # a multi-line string: its rows are lines of the file (else "##\n#." on one line)
                line = region_line + exc.line - (0 if not parts[1].strip() else 1)
        raise InputError(exc.message, path=where, line=line) from None
    region = Region(region.cells, where, grid)
    raw_tasks = field_("tasks", dict)
    if not raw_tasks:
        raise InputError("card side has no tasks", path=where, line=line_of("tasks"))
    tasks: dict[int, tuple[str, ...]] = {}
    ranges: dict[int, dict[str, tuple[int, int]]] = {}
    max_empty: dict[int, int] = {}
    for face_key, names in raw_tasks.items():
        def face_line(face_key: str = face_key) -> int | None:
            # its own line, else a dotted key's (tasks.2 = ...), else the table's (tasks = {1 = [...], 2 = [...]}):
            # looked for when a problem is reported (the lines are found by a pattern compiled then)
            return line_of(face_key) or line_of(f"tasks.{face_key}") or line_of("tasks")

        try:
            face = int(face_key) if face_key.isascii() and face_key.isdigit() else 0
        except ValueError:  # beyond sys.get_int_max_str_digits(): the same error as for a long value
            raise InputError(f"die face: a number of {len(face_key)} digits (at most {sys.get_int_max_str_digits()} "
                             "are read)", path=where, line=face_line()) from None
        if face < 1:
            raise InputError(f"die face {face_key!r} is not a positive integer", path=where, line=face_line())
        if face > faces:
            rule = f" ({spec.die_rule})" if spec.die_rule else ""
            raise InputError(f"die face {face} does not exist: the {game} die has faces 1..{faces}{rule}",
                             path=where, line=face_line())
        if face in tasks:
            raise InputError(f"die face {face} appears twice", path=where, line=face_line())
        names, face_ranges, empty = _task_value(names, face, where, face_line)
        unknown = [n for n in names if n not in piece_set]
        if unknown:
            raise InputError(f"task of face {face} names unknown piece(s) {', '.join(unknown)} "
                             f"(not in {pieces_spec}){_unknown_hint(unknown, piece_set)}", path=where, line=face_line())
        if empty > region.area:
            raise InputError(f"max_empty of face {face} is {empty}, larger than the region ({region.area} cells)",
                             path=where, line=face_line())
        least = sum(piece_set[n].size * face_ranges.get(n, (1, 1))[0] for n in names)
        most = sum(piece_set[n].size * face_ranges.get(n, (1, 1))[1] for n in names)
        if not least <= region.area <= most + empty:
            covers = f"{least}" if least == most else f"{least} to {most}"
            label = " ".join(_entries(names, face_ranges))
            need = f"{region.area}" if not empty else f"{region.area} of which up to {empty} may stay empty"
            raise InputError(f"task of face {face} ({label}) covers {covers} cells but the region has {need} "
                             "(UP-4)", path=where, line=face_line())
        tasks[face] = tuple(names)
        if face_ranges:
            ranges[face] = face_ranges
        if empty:
            max_empty[face] = empty
    meta = {k: v for k, v in data.items() if k not in CARD_FIELDS}
    return CardSide(game, card_id, side, pieces_spec, piece_set, region, dict(sorted(tasks.items())), where, meta,
                    orientations, dict(sorted(ranges.items())), dict(sorted(max_empty.items())))


def _entries(names: Iterable[str], ranges: dict[str, tuple[int, int]], *, spans: bool = False) -> list[str]:
    """Piece names as a card file writes them: ``NAME``, ``NAME:K`` for exactly K copies (with ``spans``:
    ``NAME:K-K``), or ``NAME:LO-HI`` for a name with a range."""
    return [(f"{n}:{ranges[n][0]}" if ranges[n][0] == ranges[n][1] and not spans else f"{n}:{ranges[n][0]}-{ranges[n][1]}")
            if n in ranges else n for n in names]


def _label(entries: Iterable[str], empty: int) -> str:
    """:meth:`CardSide.task_label` of these entries and cells that may stay empty."""
    more = f", up to {empty} cell{'s' if empty > 1 else ''} empty" if empty else ""
    return " ".join(entries) + more


def _unknown_hint(unknown: list[str], piece_set) -> str:
    """What a task's unknown piece names most likely meant: several pieces in one string (``["L3 T4"]``), or
    names in the wrong case (``l3`` for ``L3``), or written with other code points (``Ä`` as ``A`` and a combining
    mark); else nothing."""
    joined = next((n for n in unknown if len(n.split()) > 1 and all(w in piece_set for w in n.split())), None)
    if joined is not None:
        each = ", ".join('"' + word + '"' for word in joined.split())
        return f": {joined!r} is one string; write each piece as its own, [{each}]"
    from .pieces import normal_name

    alike = {normal_name(name): name for name in piece_set.names}
    if all(normal_name(n) in alike for n in unknown):
        return (f"; the piece set writes {', '.join(alike[normal_name(n)] for n in unknown)} with other Unicode code "
                "points (the same letters): copy the names from it")
    folded = {name.casefold(): name for name in piece_set.names}
    if all(n.casefold() in folded for n in unknown):
        return f"; names are case-sensitive: {', '.join(folded[n.casefold()] for n in unknown)}"
    return ""


def _task_value(value, face: int, where: str | None, line: Callable[[], int | None]) -> tuple[list[str], dict, int]:
    """(piece names, ranges, max_empty) of one face's task: a list of entries, or ``{pieces = [...], max_empty = N}``."""
    empty = 0
    if isinstance(value, dict):
        extra = sorted(set(value) - {"pieces", "max_empty"})
        if extra:
            raise InputError(f"task of face {face} has unknown key(s) {', '.join(extra)} (keys: pieces, max_empty)",
                             path=where, line=line())
        empty = value.get("max_empty", 0)
        if not isinstance(empty, int) or isinstance(empty, bool) or empty < 0:
            raise InputError(f"max_empty of face {face} must be a whole number of cells >= 0, got {as_written(empty)}",
                             path=where, line=line())
        value = value.get("pieces")
    if not isinstance(value, list) or not value or not all(isinstance(n, str) for n in value):
        raise InputError(f"task of face {face} must be a non-empty list of piece names", path=where, line=line())
    try:
        names, ranges = count_ranges(value, source=f"task of face {face}")
    except InputError as exc:
        raise InputError(exc.message, path=where, line=line()) from None
    return names, ranges, empty


def load_card(path: str | os.PathLike, *, max_cells: int = MAX_REGION_CELLS) -> CardSide:
    """Read and validate one card-side file (see :func:`parse_card`).

    Raises
    ------
    InputError
        For a missing file or any validation error.
    """
    from .reading import read_text

    return parse_card(read_text(path), path=path, max_cells=max_cells)


def card_to_toml(card: CardSide, *, header: str | None = None) -> str:
    """The TOML text of a card side (round-trips through :func:`parse_card`).

    The fixed fields are laid out by hand so that files stay compact and
    diff-able (one task per line); extra metadata is serialised by ``tomli_w``.
    """
    def q(value: str) -> str:
        import json

        return json.dumps(value, ensure_ascii=False)

    lines = [f"# {ln}" for ln in (header or "").splitlines()]
    lines += [f"game = {q(card.game)}", f"card = {q(card.card_id)}", f"side = {q(card.side)}",
              f"pieces = {q(card.pieces_spec)}"]
    if card.orientations != "free":
        lines.append(f"orientations = {q(card.orientations)}")
    if card.region.grid is not SQUARE:
        lines.append(f"grid = {q(card.region.grid.name)}")
    lines += ['region = """', *card.region.grid.format(card.region.cells).splitlines(), '"""']  # the grid key above
    plain = {k: v for k, v in card.meta.items() if not isinstance(v, dict)}
    tables = {k: v for k, v in card.meta.items() if isinstance(v, dict)}
    lines += [f"{k} = {_toml_value(v)}" for k, v in plain.items()]
    for name, table in tables.items():
        lines += ["", f"[{name}]"] + [f"{k} = {_toml_value(v)}" for k, v in table.items()]
    lines += ["", "[tasks]"]
    for face in sorted(card.tasks):
        entries = f"[{', '.join(q(n) for n in card.task_entries(face))}]"
        empty = card.max_empty.get(face, 0)
        lines.append(f"{face} = {{pieces = {entries}, max_empty = {empty}}}" if empty else f"{face} = {entries}")
    return "\n".join(lines) + "\n"


def _toml_value(value) -> str:
    """One TOML value on one line (scalars and flat lists); other values via ``tomli_w``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        import json

        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list) and all(isinstance(v, (str, int, float)) for v in value):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    import tomli_w  # only to write a card file

    return tomli_w.dumps({"v": value}).split("=", 1)[1].strip()


def write_card(card: CardSide, path: str | os.PathLike, *, header: str | None = None) -> None:
    """Write a card side as TOML, atomically (temporary file, then rename).

    An existing file at ``path`` is replaced only when it reads as a card side (:func:`load_card`): a card
    file carries no mark of who wrote it, and writing a card over a card is an edit of it; any other file
    (an empty one aside) is kept.

    Raises
    ------
    InputError
        When ``path`` holds a file that is no card side, or cannot be written
        (:func:`~ubongo_cp.io.check_output_file`).
    """
    from .io import atomic_write_text, check_output_file, check_output_place

    try:
        load_card(path)
    except InputError:   # no card there (or no file at all): the check refuses whatever else it holds
        check_output_file(path, ".toml")
    else:
        check_output_place(path)
    atomic_write_text(path, card_to_toml(card, header=header))


class DeckProblem(Struct):
    """A card file that could not be loaded: its path and the message."""

    path: str
    message: str

    def __init__(self, path: str, message: str) -> None:
        self._set(path=path, message=message)


def card_sides_argument(cards, what: str) -> list[CardSide]:
    """``cards`` as a list when it is a sequence of :class:`CardSide` objects; else an :class:`InputError` naming
    ``what`` needs them and how to get them (not an AttributeError from inside): a deck's name or folder is read
    by :func:`load_deck`, whose result is a pair (the card sides, the problems).

    Examples
    --------
    >>> card_sides_argument("classic", "make_booklet")
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: make_booklet needs a list of card sides (load_deck(deck)[0]), got str 'classic'
    """
    from .errors import cut

    if isinstance(cards, (str, bytes, os.PathLike)) or not hasattr(cards, "__iter__"):
        wrong = cards
    else:
        entries = list(cards)
        odd = [c for c in entries if not isinstance(c, CardSide)]
        if not odd:
            return entries   # empty too: the caller says what is missing
        wrong = odd[0]
    shown = f" {cut(repr(wrong))}" if isinstance(wrong, (str, os.PathLike, int, float)) else ""
    hint = "; load_deck returns (card sides, problems): take [0]" if isinstance(wrong, list) else ""
    raise InputError(f"{what} needs a list of card sides (load_deck(deck)[0]), got {type(wrong).__name__}{shown}"
                     + hint)


def load_deck(deck_dir: str | os.PathLike, *, max_cells: int = MAX_REGION_CELLS,
              strict: bool = False, some: bool = False) -> tuple[list[CardSide], list[DeckProblem]]:
    """Load every ``*.toml`` card side under ``deck_dir`` (sorted by path).

    Parameters
    ----------
    deck_dir : path or str
        A deck directory, or the name of a shipped deck (``"classic"``,
        ``"duel"``; see :func:`ubongo_cp.shipped.resolve_deck`).
    strict : bool
        Raise on the first malformed card instead of collecting it.
    some : bool
        Raise when no card side could be read (one line: how many files were
        skipped, and the first one's problem).

    Returns
    -------
    cards : list of CardSide
        The valid card sides in printing order (:func:`printing_order`):
        by card id, then the sides in the order of the game's deck spec.
    problems : list of DeckProblem
        Malformed files, and card sides whose (card id, side) repeats one
        loaded earlier.

    Raises
    ------
    InputError
        When ``deck_dir`` is missing, is not a directory or holds no card file
        (with ``some``, no readable one); when it holds the cards of two
        decks, a run having been killed while it put its cards in place
        (:func:`ubongo_cp.io.refuse_interrupted`).
    """
    from .shipped import resolve_deck

    deck = resolve_deck(deck_dir)
    if not deck.exists():
        raise InputError("deck directory not found", path=deck)
    if not deck.is_dir():
        raise InputError("not a directory (expected a deck directory of *.toml card files)", path=deck)
    from .io import refuse_interrupted

    refuse_interrupted(deck, "deck directory")   # cards of two decks: a run was killed as it wrote them
    files = sorted(f for f in deck.glob("*.toml") if f.name != DECK_SPEC_FILE)
    if not files:
        spec = " (it holds a deck spec, deck.toml: generate a deck from it first)" \
            if (deck / DECK_SPEC_FILE).is_file() else ""
        raise InputError(f"no *.toml card files in deck directory{spec}", path=deck)
    cards: list[CardSide] = []
    problems: list[DeckProblem] = []
    seen: dict[tuple[str, str], str] = {}
    for f in files:
        try:
            card = load_card(f, max_cells=max_cells)
        except InputError as exc:
            if strict:
                raise
            problems.append(DeckProblem(os.fspath(f), str(exc)))
            continue
        if card.key in seen:
            msg = f"{f}: duplicate card {card.card_id} side {card.side} (also in {seen[card.key]})"
            if strict:
                raise InputError(f"duplicate card {card.card_id} side {card.side} (also in {seen[card.key]})", path=f)
            problems.append(DeckProblem(os.fspath(f), msg))
            continue
        seen[card.key] = os.fspath(f)
        cards.append(card)
    if some and not cards:
        raise InputError(f"no card side of the deck could be read ({len(problems)} card file(s) skipped; the first: "
                         f"{problems[0].message})", path=deck)
    return printing_order(cards), problems


def card_id_key(card_id: str) -> tuple:
    """Sort key of a card id: numbers by value (``"2"`` before ``"10"``), other ids after them, as text.

    Examples
    --------
    >>> sorted(["10", "2", "01", "b", "a"], key=card_id_key)
    ['01', '2', '10', 'a', 'b']
    """
    return (0, int(card_id), card_id) if card_id.isdigit() else (1, 0, card_id)


def card_id_match(card_id: str) -> str:
    """A card id as the readers of a task table match it: an id of digits without its leading zeros (a spreadsheet
    saves card ``"08"`` as 8), another id as it is.

    Examples
    --------
    >>> card_id_match("08"), card_id_match("8"), card_id_match("0"), card_id_match("b07")
    ('8', '8', '0', 'b07')
    """
    return str(int(card_id)) if card_id.isascii() and card_id.isdigit() else card_id


def printing_order(cards: Iterable[CardSide]) -> list[CardSide]:
    """The card sides in printing order: by card id (:func:`card_id_key`), then by side in the order
    the game's deck spec lists its ``[[sides]]`` (:func:`ubongo_cp.specs.spec_for_card`).

    A side the spec does not know (a card built in Python) goes after the known ones, by name.
    """
    def key(card: CardSide) -> tuple:
        try:
            sides = spec_for_card(card.game, card.path).side_names
        except InputError:
            sides = ()
        rank = sides.index(card.side) if card.side in sides else len(sides)
        return (card_id_key(card.card_id), rank, card.side)

    return sorted(cards, key=key)


def iter_tasks(cards: Iterable[CardSide]):
    """Yield ``(card, face)`` for every task of every card side."""
    for card in cards:
        for face in card.tasks:
            yield card, face


def task_hash(card: CardSide, face: int) -> str:
    """A short hash of a task's content (region and piece shapes).

    Identifies a task across runs (batch resume) and tables (booklet
    results): an edited card, another deck's card with the same id, or the
    same task in another orientation mode, on another grid or with other
    ranges of piece counts or empty cells hashes differently (a free task on squares leaves the mode and grid out: the
    hashes of earlier runs stay valid).
    """
    import hashlib

    h = hashlib.sha1()
    h.update(repr(card.region.cells).encode())
    for p in card.task_pieces(face):
        h.update(f"{p.name}:{p.cells}".encode())
    if card.orientations != "free":
        h.update(f"orientations:{card.orientations}".encode())
    if card.region.grid is not SQUARE:
        h.update(f"grid:{card.region.grid.name}".encode())
    if not card.is_fixed(face):   # every range as LO-HI (K copies as K-K), as the hashes of earlier runs have it
        entries = _entries(card.tasks[face], card.ranges.get(face, {}), spans=True)
        h.update(f"task:{_label(entries, card.max_empty.get(face, 0))}".encode())
    return h.hexdigest()[:12]
