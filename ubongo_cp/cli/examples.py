"""``ubongo-cp examples``: list, show, draw and copy what ships with the toolkit.

Piece sets, decks, deck specs, example card sides and regions, Orion Duel
tile sets (:data:`ubongo_cp.examples.EXAMPLES`): an installed toolkit has
no checkout beside it, so this is how its user finds them.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from .common import say, fixed_suffixes

__all__ = ["add_parsers", "pieces_text"]


def add_parsers(sub) -> None:
    """Add ``examples`` to the top-level ``subparsers``."""
    p = sub.add_parser("examples", help="list, show, draw and copy the shipped piece sets, decks, specs and examples",
                       description="Without NAME: list everything shipped with the toolkit. With NAME: show it (a "
                                   "piece set or region drawn as text); --draw writes a picture of it; --copy DIR "
                                   "copies it (without NAME: every example card side and region and the "
                                   "designer's deck) into DIR. "
                                   "Piece sets, decks and specs are also usable by name wherever a command takes "
                                   "them (--pieces classic, batch duel, generate --spec designer).")
    p.add_argument("name", nargs="?", metavar="NAME",
                   help="a name from the list (pieces/classic, decks/duel, designer, rect_6x10.txt, ...); a name "
                        "only one item has may be shortened (pentominoes, rect_6x10)")
    p.add_argument("--copy", metavar="DIR", help="copy NAME (or, without NAME, the example files) into DIR")
    p.add_argument("--draw", metavar="FILE", help="draw NAME (a piece set, region or card side) to FILE "
                                                  "(.svg, .png or .pdf)")
    fixed_suffixes(p, draw="drawing")
    p.set_defaults(func=_cmd_examples)


def pieces_text(pieces, width: int = 72) -> str:
    """Pieces side by side as ``#`` grids with their names above, wrapped at ``width`` characters.

    Each piece is drawn exactly as its file writes it.

    Examples
    --------
    >>> from ubongo_cp.pieces import parse_pieces
    >>> print(pieces_text(parse_pieces("L3\\n#.\\n##\\n\\nI2\\n##\\n").pieces))
    L3  I2
    #.  ##
    ##
    """
    blocks: list[list[str] | None] = []
    for piece in pieces:
        rows = piece.grid.format(piece.grid.normalize(piece.cells)).splitlines() or [""]
        w = max(len(piece.name), max(len(r) for r in rows))
        blocks.append([piece.name.ljust(w)] + [r.ljust(w) for r in rows])
    lines: list[str] = []
    band: list[list[str]] = []
    for block in blocks + [None]:
        if block is None or (band and sum(len(b[0]) + 2 for b in band) + len(block[0]) > width):
            height = max(len(b) for b in band)
            for i in range(height):
                lines.append("  ".join(b[i] if i < len(b) else " " * len(b[0]) for b in band).rstrip())
            lines.append("")
            band = []
        if block is not None:
            band.append(block)
    return "\n".join(lines).rstrip("\n")


def _show(example) -> str:
    """What ``examples NAME`` prints: where it lies, what it is, and its content or a drawing as text."""
    from ..cards import load_card, load_deck
    from ..pieces import load_pieces, load_region

    def drawn(region) -> str:
        return region.grid.format(region.cells)

    head = [f"{example.key}: {example.about}", f"  file: {example.path}"]
    if example.kind == "pieces":
        pieces = load_pieces(example.path).pieces
        return "\n".join(head + [f"  {len(pieces)} pieces; use it by name: {example.usage}", "  as written in the file:",
                                 "", pieces_text(pieces)])
    if example.kind == "region":
        region = load_region(example.path)
        size = " x ".join(f"{n} {unit}" for n, unit in zip(region.size, ("layers", "rows", "columns")[-len(region.size):]))
        return "\n".join(head + [f"  {region.area} cells, {size}:", "", drawn(region)])
    if example.kind == "card":
        card = load_card(example.path)
        tasks = [f"  face {f}: {card.task_label(f)}" for f in card.tasks]
        return "\n".join(head + [f"  {card.game} card {card.card_id}, side {card.side}, pieces {card.pieces_spec}; "
                                 f"region of {card.region.area} cells:", "", drawn(card.region), ""]
                         + tasks)
    if example.kind == "deck":
        cards, _ = load_deck(example.path)
        n_tasks = sum(len(c.tasks) for c in cards)
        return "\n".join(head + [f"  {len(cards)} card sides, {n_tasks} tasks; use it by name: {example.usage}; its "
                                 "ratings: tasks.csv"])
    if example.kind == "spec":
        spec_file = example.path / "deck.toml" if example.path.is_dir() else example.path
        more = ([f"  with its piece set {example.path / 'pieces.txt'}"] if example.path.is_dir() else [])
        return "\n".join(head + more + [f"  use it by name: {example.usage}",
                                        "", spec_file.read_text(encoding="utf-8").rstrip()])
    if example.usage:   # a tile set
        head.append(f"  use it by name: {example.usage}")
    return "\n".join(head + ["", example.path.read_text(encoding="utf-8").rstrip()])


#: Each kind of shipped item (:class:`ubongo_cp.examples.Example`) in words.
_KIND_NOUNS = {"pieces": "a piece set", "deck": "a deck", "spec": "a deck spec", "card": "a card side",
               "region": "a region", "tiles": "an Orion Duel tile set"}


def _draw(example, path: str) -> None:
    from ..draw.figures import save_figure
    from ..errors import InputError

    if example.kind == "pieces":
        from ..pieces import load_pieces

        fig = load_pieces(example.path).draw()
    elif example.kind == "region":
        from ..pieces import load_region

        fig = load_region(example.path).draw()   # on its own grid (hexagons, triangles, cube layers)
    elif example.kind == "card":
        from ..cards import load_card

        fig = load_card(example.path).draw()
    else:
        raise InputError(f"--draw takes a piece set, a region or a card side; {example.key} is "
                         f"{_KIND_NOUNS[example.kind]}")
    save_figure(fig, path)


def _find(name: str, draw: str | None):
    """The shipped item ``name`` (:func:`ubongo_cp.examples.find_example`); for a name that is no shipped item but
    a file of the user's, the error says which command reads that file (``solve FILE --draw``).

    Raises
    ------
    InputError
        For a name no shipped item has.
    """
    from ..errors import InputError
    from ..examples import find_example

    try:
        return find_example(name)
    except InputError as exc:
        if not os.path.isfile(name):
            raise
        import shlex

        from .export import is_xmpuzzle

        shown, picture = shlex.quote(name), shlex.quote(draw or "FILE.svg")
        if name.lower().endswith(".toml") or is_xmpuzzle(name):
            how = f"`ubongo-cp solve {shown} --draw {picture}` solves it and draws the solutions"
        elif _is_piece_set(name):
            how = (f"as a piece set, `ubongo-cp solve --pieces {shown} --region REGION --draw {picture}` draws its "
                   "tilings of a region (in Python, `ubongo_cp.pieces.load_pieces(FILE).draw()` draws the set)")
        else:
            how = (f"as a region, `ubongo-cp solve --pieces SET --region {shown} --draw {picture}` solves and draws "
                   "it")
        raise InputError(f"{name} is a file of yours, not a shipped item: {how} (`ubongo-cp examples` lists the "
                         "shipped items)") from exc


def _is_piece_set(path: str) -> bool:
    """Whether the file ``path`` reads as a piece set and not as a region (a piece name above each shape)."""
    from ..errors import InputError
    from ..pieces import parse_pieces, parse_region
    from ..reading import read_text

    try:
        text = read_text(path)
        parse_pieces(text, path=path)
    except InputError:
        return False
    try:
        parse_region(text, path=path)
    except InputError:
        return True
    return False


def _cmd_examples(args: argparse.Namespace) -> int:
    from ..errors import InputError

    try:
        return _examples(args)
    except InputError as exc:   # a --copy destination that is not a directory, named as the option
        if exc.argument != "dest":
            raise
        raise InputError(f"--copy {args.copy}: {exc.path} {exc.message}") from None


def _examples(args: argparse.Namespace) -> int:
    from ..errors import InputError
    from ..examples import EXAMPLES, copy_example, copy_examples, is_unchanged_copy

    if args.name is None:
        if args.draw:
            raise InputError("--draw needs a NAME (a piece set, region or card side)")
        if args.copy:
            dest = Path(args.copy)
            before = {p.name for p in dest.iterdir()} if dest.is_dir() else set()
            copies = copy_examples(dest)
            copied = [p.name for p in copies if p.name not in before]
            kept = [p.name for p in copies if p.name in before]    # unchanged copies (copy_examples refuses others)
            say(f"copied {len(copied)} example(s) to {args.copy}" + (f": {', '.join(copied)}" if copied else "")
                + (f"; already there, unchanged: {', '.join(kept)}" if kept else ""))
            return 0
        kinds = {"pieces": ("piece sets", "--pieces NAME"), "deck": ("decks", "batch, booklet, cards NAME"),
                 "spec": ("deck specs", "generate --spec NAME"), "card": ("card sides", "solve FILE, export FILE"),
                 "region": ("regions", "solve --region FILE"), "tiles": ("Orion Duel tile sets", "orion --tiles NAME")}
        for kind, (title, how) in kinds.items():
            # The commands take a shipped item by its name without the folder that `examples` names it with.
            folders = sorted({e.key[:-len(e.short)] for e in EXAMPLES.values() if e.kind == kind and e.short != e.key})
            without = f", NAME without {' or '.join(folders)}" if folders else ""
            print(f"{title} ({how}{without}):")
            for e in EXAMPLES.values():
                if e.kind == kind:
                    print(f"  {e.key:<24}{e.about}")
        print("\n`ubongo-cp examples NAME` shows one; `--copy DIR` copies it (without NAME: every card side and "
              "region and the designer's deck); `--draw FILE.svg` draws a piece set, region or card side.")
        return 0
    example = _find(args.name, args.draw)
    if args.copy:
        unchanged = is_unchanged_copy(example, args.copy)
        target = copy_example(example, args.copy)
        say(f"{target} is already there, unchanged" if unchanged else f"copied {example.key} to {target}")
    if args.draw:
        _draw(example, args.draw)
        say(f"wrote {args.draw}")
    if not (args.copy or args.draw):
        print(_show(example))
    return 0
