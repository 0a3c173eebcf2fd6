"""Orion Duel tile sets as data: the file format, the shipped published and seed sets, any set in play."""

import itertools

import numpy as np
import pytest

from ubongo_cp.errors import InputError
from ubongo_cp.games.base import RandomAgent, play_game
from ubongo_cp.games.orion.agents import GreedyAgent
from ubongo_cp.games.orion.hexgrid import neighbours, normalize, transform
from ubongo_cp.games.orion.state import OrionGame, OrionState
from ubongo_cp.games.orion.tiles import (OPP, OWN, SHIPPED_TILE_SETS, default_tiles, format_tiles,
                                         load_tiles, parse_tiles)

O, X = OWN, OPP

#: The published tiles' base cells as the engine had them hard-coded before tile sets
#: became files: game records name the anchor cell and the transform of these cells,
#: so the file must give exactly these (old records replay unchanged).
PUBLISHED_CELLS = {
    "S1": (((0, 0), O),), "D2": (((0, 0), O), ((1, 0), O)),
    "D1": (((0, 0), O), ((1, 0), X)), "I3": (((0, 0), O), ((1, 0), O), ((2, 0), X)),
    "V3": (((0, 0), O), ((1, 0), O), ((1, 1), X)), "T3": (((0, 0), O), ((1, 0), O), ((0, 1), X)),
}


def test_published_file_gives_the_former_base_cells():
    ts = load_tiles("published")
    assert ts == default_tiles() and ts.name == "published"
    names = [t.name for t in ts.tiles]
    assert names == ["S1", "D2", "D1a", "D1b", "D1c", "I3a", "I3b", "I3c", "V3a", "V3b", "V3c",
                     "T3a", "T3b", "T3c"]
    for t in ts.tiles:
        assert t.cells == PUBLISHED_CELLS[t.name[:2]]


def _classes(cells):
    """Canonical form of a coloured polyhex up to rotation and reflection."""
    forms = []
    for rot, flip in itertools.product(range(6), (False, True)):
        moved = [(transform(h, rot, flip), c) for h, c in cells]
        q0, r0 = min((h for h, _ in moved), key=lambda h: (h[1], h[0]))
        forms.append(tuple(sorted(((q - q0, r - r0), c) for (q, r), c in moved)))
    return min(forms)


def _all_two_plus_one():
    """Every 3-hex tile with 2 own hexes and 1 opponent hex, up to rotation and reflection."""
    shapes = set()
    for a, b in itertools.product(neighbours((0, 0)), repeat=2):
        cells = {(0, 0), a, b}   # every 3-hex polyhex has a hex next to the two others
        if len(cells) == 3:
            shapes.add(normalize(cells))
    out = set()
    for shape in shapes:
        for opp in shape:
            out.add(_classes([(h, X if h == opp else O) for h in shape]))
    return out


def test_seed_set_satisfies_the_seed_sentence_literally():
    ts = load_tiles("seed")
    assert len(ts.tiles) == 14
    for t in ts.tiles:   # "more hexes of the owner's colour and 1 hex of the opponent's colour"
        assert t.size - t.own_count == 1 and t.own_count >= 2
    assert sum(t.size for t in ts.tiles) == 42 and sum(t.size - t.own_count for t in ts.tiles) == 14
    # every distinct 2+1 three-hex tile is in the set (there are 5), and the nine 3-hex
    # tiles of the published set are kept as they are
    every = _all_two_plus_one()
    assert len(every) == 5 and {_classes(t.cells) for t in ts.tiles} == every
    published3 = [t for t in load_tiles("published").tiles if t.size == 3]
    assert all(ts.tiles[ts.names[t.name]].cells == t.cells for t in published3)
    counts = {}
    for t in ts.tiles:
        counts[_classes(t.cells)] = counts.get(_classes(t.cells), 0) + 1
    assert sorted(counts.values()) == [2, 3, 3, 3, 3]
    # 28 tiles of 3 hexes fit the 85-hex board (a 4-hex tile would not)
    assert 2 * 42 <= 85 < 2 * (42 + 1)


@pytest.mark.parametrize("name", SHIPPED_TILE_SETS)
def test_format_round_trip(name, tmp_path):
    ts = load_tiles(name)
    text = format_tiles(ts)
    assert parse_tiles(text) == ts
    path = tmp_path / "mine.txt"
    path.write_text(text)
    back = load_tiles(path, flips=False)
    assert back.name == name and back.tiles == ts.tiles and back.flips is False


@pytest.mark.parametrize("text, line, message", [
    ("A\nO Q\n", 2, "unknown character 'Q'"),
    ("A\nO  O\n", 2, "'O' in column 4 lies between two hex positions"),
    ("A\nO\n .\n", None, None),                                  # a dot is no hex: fine
    ("A\nO O\n\nB A\nx O\n", 4, "tile 'A' named again \\(first on line 1\\)"),
    ("A!\nO\n", 1, "tile name 'A!' may hold only ASCII letters"),
    ("% only a comment\n\n", None, "no tiles in the file"),
    ("A\n\nB\nO\n", 1, "tile 'A' has no picture"),
    ("A\nO   O\n", 1, "tile 'A' is not connected"),
    ("A\nO\n x\n  x\n", None, None),                             # rows shifted: connected
])
def test_parse_errors_name_file_and_line(text, line, message, tmp_path):
    path = tmp_path / "tiles.txt"
    path.write_text(text)
    if message is None:
        assert load_tiles(path).tiles
        return
    where = f"{path}:{line}: " if line else f"{path}: "
    with pytest.raises(InputError, match=f"^{where.replace('.', '[.]')}{message}"):
        load_tiles(path)


def test_a_shipped_name_is_the_shipped_set_beside_a_file_of_that_name(tmp_path, monkeypatch, capsys):
    # A tile-set file named 'published' in the current folder was read for --tiles published, and the game's
    # record named its tiles "published": replayed in another folder, 'move 1 (player 0, tile A): unknown tile
    # 'A' (tile set 'published')'. Now the name is the shipped set, with a note (as --pieces); ./published is
    # the file, carried in the record as its text.
    from ubongo_cp.cli import main
    from ubongo_cp.games.orion.records import load_record

    monkeypatch.chdir(tmp_path)
    (tmp_path / "published").write_text("A\nO O\n\nB\nO x\n", encoding="utf-8")
    assert load_tiles("published") == load_tiles(SHIPPED_TILE_SETS[0]) and len(load_tiles("published").tiles) == 14
    assert [t.name for t in load_tiles("./published").tiles] == ["A", "B"]
    main(["orion", "play", "--tiles", "published", "--save", "shipped.json"])
    assert ("ubongo-cp: note: --tiles published reads the shipped set; give ./published to read the file of that "
            "name here") in capsys.readouterr().err
    main(["orion", "play", "--tiles", "./published", "--save", "mine.json"])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    for name, tiles in (("shipped.json", 14), ("mine.json", 2)):
        assert len(load_record(tmp_path / name).game.tiles.tiles) == tiles


def test_unknown_tile_set():
    with pytest.raises(InputError, match="no/such.txt"):
        load_tiles("no/such.txt")


@pytest.mark.parametrize("name", SHIPPED_TILE_SETS)
def test_every_engine_function_works_with_any_tile_set(name):
    game = OrionGame.get(tiles=load_tiles(name))
    assert game.tiles.name == name
    lengths = []
    for seed in range(6):
        s = play_game(OrionState(game=game, seed=seed), [RandomAgent(seed), GreedyAgent(seed)])
        assert s.is_terminal() and len(s.history) <= game.max_moves()
        lengths.append(len(s.history))
        for a in s.history:
            assert s.game.tiles.tiles[s.game.placements[a].tile].name in game.tiles.names
    assert max(lengths) > 4
    # placements: every tile's orientations at every anchor that fits (vectorised check)
    assert len(game.placements) == sum(game.tile_range[i][1] - game.tile_range[i][0]
                                       for i in range(len(game.tiles.tiles)))
    assert (np.diff(game.pl_tile) >= 0).all()      # ids of one tile are contiguous


@pytest.mark.parametrize("spec", [None, 5])
def test_load_tiles_refuses_what_is_no_name_or_path(spec):
    # once a TypeError from os.fspath
    with pytest.raises(InputError, match=r"a tile set is a shipped set's name \(published, seed\) or a file's path"):
        load_tiles(spec)


def test_flips_is_true_or_false_only(tmp_path):
    # load_tiles("seed", flips="no") kept "no", which read as true (tiles turned over), and the record of a game
    # played with it said "flips": "no", which load_record refuses: a game saved and never read back.
    from ubongo_cp.games.base import load_record, save_record
    from ubongo_cp.games.orion import random_setup
    from ubongo_cp.games.orion.tiles import TileSet

    for make in (lambda f: load_tiles("seed", flips=f), lambda f: parse_tiles("A\nO x\n", flips=f),
                 lambda f: load_tiles("published").with_flips(f), lambda f: TileSet(load_tiles("seed").tiles, f)):
        for value in ("no", 0, None):
            with pytest.raises(InputError, match=r"^flips must be True or False, got"):
                make(value)
    game = OrionGame.get(None, load_tiles("published", flips=np.False_))
    assert game.tiles.flips is False and game.tiles == load_tiles("published", flips=False)
    state = OrionState(random_setup(1), game)
    play_game(state, [RandomAgent(1), RandomAgent(2)])
    save_record(state, tmp_path / "g.json")
    assert load_record(tmp_path / "g.json").history == state.history
