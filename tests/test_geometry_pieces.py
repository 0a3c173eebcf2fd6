"""Geometry and piece catalogues, checked against RULES.md §1 (public facts).

The orientation counts (rule UP-3) are in ``tests/test_puzzle_rules.py``."""

from __future__ import annotations

import re

import pytest

from conftest import PUZZLES, SHARED
from ubongo_cp.errors import InputError
from ubongo_cp.geometry import normalize, symmetry_group
from ubongo_cp.pieces import load_pieces, load_region, parse_pieces, parse_region, Region


def test_symmetry_groups_by_hand():
    assert len(symmetry_group(Region.rectangle(4, 4).cells)) == 8
    assert len(symmetry_group(Region.rectangle(3, 5).cells)) == 4
    assert len(symmetry_group([(0, 0), (1, 0), (1, 1)])) == 2  # L-tromino: one diagonal mirror
    assert len(symmetry_group([(0, 0), (0, 1), (1, 1), (1, 2)])) == 2  # S-tetromino: 180 rotation


def _rules_blocks():
    """Parse the two piece drawings of RULES.md §1 by column (an independent source)."""
    text = (SHARED / "RULES.md").read_text()
    blocks = [sub for b in re.findall(r"```\n(.*?)```", text, re.S)[:2] for sub in b.split("\n\n")]
    shapes = {}
    for block in blocks:
        lines = block.rstrip("\n").split("\n")
        header = lines[0]
        starts = [m.start() for m in re.finditer(r"(?:^|(?<=\s\s))\S", header)]
        for i, st in enumerate(starts):
            end = starts[i + 1] if i + 1 < len(starts) else None
            label = header[st:end].split()
            name = label[0]
            rows = [ln[st:end].rstrip() if len(ln) > st else "" for ln in lines[1:]]
            cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"]
            shapes[(len(starts), name)] = normalize(cells)
    return shapes


@pytest.mark.parametrize("set_name,count,area", [("classic", 12, 48), ("duel", 21, 116)])
def test_shipped_sets_match_rules(set_name, count, area):
    ps = load_pieces(set_name)
    assert len(ps) == count and ps.total_area == area
    drawn = {name: cells for (n, name), cells in _rules_blocks().items() if n in (12, 11, 10)}
    for piece in ps:
        assert piece.name in drawn, piece.name
        # Same free polyomino: the drawing is one of the piece's orientations.
        assert normalize(drawn[piece.name]) in piece.orientations("free"), piece.name


def test_duel_set_is_ten_pentominoes_and_eleven_hexominoes():
    sizes = sorted(p.size for p in load_pieces("duel"))
    assert sizes == [5] * 10 + [6] * 11


def test_shared_and_shipped_sets_identical():
    for name in ("classic", "duel", "pentominoes"):
        shared = parse_pieces((SHARED / "pieces" / f"{name}.txt").read_text())
        assert [(p.name, p.cells) for p in shared] == [(p.name, p.cells) for p in load_pieces(name)]


def test_a_piece_read_from_a_file_is_the_piece_made_from_its_name_and_cells():
    # A file's reader makes its pieces without checking again what it checked (Piece._read): each is the piece
    # Piece(name, cells, grid) makes, on every shipped grid.
    from ubongo_cp.pieces import Piece
    from ubongo_cp.shipped import SHIPPED_PIECE_SETS

    for name in SHIPPED_PIECE_SETS:
        for piece in load_pieces(name):
            made = Piece(piece.name, piece.cells, piece.grid)
            assert type(piece) is Piece and vars(piece) == vars(made) and hash(piece) == hash(made), (name, piece)
    shifted = parse_pieces("grid: triangle\n\nI3\n.v^v\n")["I3"]   # a triangle's row starting on its second cell
    assert shifted == Piece("I3", shifted.cells, "triangle") and shifted.cells == ((0, 1), (0, 2), (0, 3))


@pytest.mark.parametrize("text,line,fragment", [
    ("A\n#.\n.#\n", 1, "disconnected"),
    ("A\n#\n\nA\n##\n", 4, "appears twice"),
    ("A\n#x\n", 2, "unknown character 'x'"),
    ("A\n..\n", 2, "empty shape"),
    ("A\n", 1, "no rows"),
    ("##\n##\n", 1, "no piece name"),
    ("% only a comment\n", None, "no pieces"),
])
def test_bad_piece_files(tmp_path, text, line, fragment):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        load_pieces(path)
    assert fragment in str(err.value)
    assert str(path) in str(err.value)
    assert err.value.line == line


def test_ragged_rows_and_comments_are_fine():
    ps = parse_pieces("% set\nL\n#\n##\n\n% between\nI\n#\n#\n")
    assert ps["L"].cells == ((0, 0), (1, 0), (1, 1))
    region = parse_region("\n##\n#\n\n")
    assert region.area == 3


def test_a_form_feed_in_a_comment_does_not_end_its_line():
    # a page break (form feed) or a Unicode line separator is part of its comment line; once the text
    # after it was read as a line of the drawing: a region of 2 cells read as 5, a piece named 'X'
    assert parse_region("% board\x0c###\n##\n").area == 2
    assert [p.name for p in parse_pieces("% my set\u2028X\nL\n#\n##\n")] == ["L"]
    with pytest.raises(InputError) as err:
        parse_region("% a\x0cb\n#\n#x\n", path="r.txt")
    assert err.value.line == 3


def test_region_limits(tmp_path):
    big = tmp_path / "big.txt"
    big.write_text(("#" * 30 + "\n") * 30)
    with pytest.raises(InputError, match="over the limit"):
        load_region(big)
    with pytest.raises(InputError, match="file not found"):
        load_region(tmp_path / "missing.txt")
    assert load_region(PUZZLES / "examples" / "duel_board1.txt").area == 16


@pytest.mark.parametrize("args, message", [
    (("S", ()), "has no cells"),
    (("S", ((0, 0), (0, 0))), r"lists cell \(0, 0\) twice"),   # was a piece of size 2 on one cell
    (("S", "abc"), "2-tuples of whole numbers"),
    ((5, ((0, 0),)), "a piece name is text"),
    (("S", ((0, 0, 0),)), "not 2 whole numbers"),
    (("S", ((0.5, 0),)), "not 2 whole numbers"),
    (("S", ((0, 0),), "octagon"), "unknown grid"),
])
def test_a_piece_checks_its_name_and_cells(args, message):
    from ubongo_cp.pieces import Piece

    with pytest.raises(InputError, match=message):
        Piece(*args)


@pytest.mark.parametrize("name, message", [
    ("A B", "the piece name 'A B' contains white space"),
    ("A\x1b[2J", r"the piece name 'A\x1b[2J' contains the control character U+001B"),
    ("X " + "y" * 100, "the piece name 'X yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy... contains white space"),
])
def test_a_bad_piece_name_given_in_python_is_shown_not_put_on_a_line(name, message):
    # Python's Piece() has no line to name: it said "the piece name on this line contains white space".
    from ubongo_cp.pieces import Piece

    with pytest.raises(InputError) as info:
        Piece(name, ((0, 0),))
    assert str(info.value) == message


def test_a_piece_takes_lists_and_a_grid_name():
    from ubongo_cp.pieces import Piece

    piece = Piece("D", [[0, 0], [0, 1]], "hex")
    assert piece.cells == ((0, 0), (0, 1)) and piece.grid.name == "hex" and hash(piece) == hash(piece)


@pytest.mark.parametrize("size, message", [
    ((10 ** 6, 10 ** 6), "at least 1000000000000 cells, over the limit of 400"),   # was all of memory
    (("3", 5), "whole number"),
    ((0, 5), "whole number of at least 1"),
    ((1, 401), "401 cells, over the limit of 400"),
])
def test_a_rectangle_checks_its_size(size, message):
    with pytest.raises(InputError, match=message):
        Region.rectangle(*size)


def test_a_box_checks_its_size_and_the_limit_can_be_raised():
    with pytest.raises(InputError, match="over the limit"):
        Region.box(10 ** 6, 10 ** 6, 10 ** 6, grid="cube")
    with pytest.raises(InputError, match="440 cells"):
        Region.box(20, 11, grid="triangle")   # 220 rhombi, two triangles each
    assert Region.box(20, 11, grid="triangle", max_cells=440).area == 440
    assert Region.rectangle(1, 500, max_cells=500).area == 500


def test_a_region_takes_a_grids_name_lists_and_arrays_and_checks_its_cells():
    import numpy as np

    from ubongo_cp.cover import build_instance
    from ubongo_cp.pieces import Piece
    from ubongo_cp.solvers import solve

    bar = Region([[0, 0], [1, 0], [2, 0], [3, 0]], grid="hex")   # the name stayed a str: AttributeError later
    assert bar.grid.name == "hex" and bar.cells == ((0, 0), (1, 0), (2, 0), (3, 0))
    assert solve(build_instance([load_pieces("tetrahexes")["I4"]], bar)).count == 1   # the bar itself, by hand
    assert Region(np.array([[0, 0], [0, 1]])) == Region(((0, 0), (0, 1)))
    assert Piece("A", np.array([[0, 0], [0, 1]])).cells == ((0, 0), (0, 1))   # was "truth value ... ambiguous"
    # only optional cells (BurrTools' variable voxels) is a region: the domino, which must be placed, covers both
    assert solve(build_instance([load_pieces("classic")["I2"]], Region((), optional=((0, 0), (0, 1))))).count == 1
    for call, message in [(lambda: Region((), grid="octagon"), "unknown grid"),
                          (lambda: Region(((0, 0), (0, 0))), r"lists cell \(0, 0\) twice"),
                          (lambda: Region(((0, 0),), optional=((0, 0),)), "as needed and as optional"),
                          (lambda: Region(((0.5, 0),)), "not 2 whole numbers"),
                          # Region([]) was taken, and solve then raised IndexError (dlx: a numpy broadcast error)
                          (lambda: Region([]), "empty region: no cell")]:
        with pytest.raises(InputError, match=message):
            call()


def test_far_apart_region_cells_are_refused_before_the_placements_fill_memory():
    from ubongo_cp.cover import build_instance
    from ubongo_cp.solvers import solve

    i2 = load_pieces("classic")["I2"]
    with pytest.raises(InputError, match="bounding box, with room for the pieces, is 1000001 x 1000002 cells"):
        build_instance([i2], Region(((0, 0), (10 ** 6, 10 ** 6))))
    # two dominoes' places 1000 rows apart: one tiling, by hand
    assert solve(build_instance([i2, i2], Region(((0, 0), (0, 1), (1000, 1000), (1000, 1001))))).count == 1


def test_pieces_sets_and_regions_are_records_as_the_dataclasses_were():
    import pickle

    from ubongo_cp.grids import SQUARE
    from ubongo_cp.pieces import EmptyCell, Piece, PieceSet
    from ubongo_cp.structs import replace

    l3 = Piece("L3", [[0, 0], [1, 0], [1, 1]])
    assert repr(l3) == "Piece(name='L3', cells=((0, 0), (1, 0), (1, 1)), grid=<square grid>)"
    assert l3 == Piece(name="L3", cells=((0, 0), (1, 0), (1, 1)), grid="square") and hash(l3) == hash(
        ("L3", l3.cells, SQUARE))                                   # a dict key by its fields
    assert EmptyCell("empty", ((0, 0),)) != Piece("empty", ((0, 0),))   # another class: not equal
    with pytest.raises(AttributeError):
        l3.name = "L4"
    assert replace(l3, cells=[[0, 0], [0, 1]]).cells == ((0, 0), (0, 1))   # made again: checked and frozen
    # the line a region's grid was set on is neither shown nor compared; it travels with the region
    region = Region([[0, 0], [0, 1]], "r.txt", line=3)
    assert repr(region) == "Region(cells=((0, 0), (0, 1)), path='r.txt', grid=<square grid>, optional=())"
    assert region == Region(((0, 0), (0, 1)), "r.txt", line=9) and hash(region) == hash(Region(((0, 0), (0, 1)), "r.txt"))
    assert pickle.loads(pickle.dumps(region)).line == 3 and replace(region, path=None).line == 3
    # a set's index by name is made with it: not a field, not shown, not compared
    classic = load_pieces("classic")
    pair = PieceSet(classic.pieces[:2])
    assert repr(pair).startswith("PieceSet(pieces=(Piece(name='I2',") and repr(pair).endswith(
        "path=None, grid=<square grid>)")
    assert pair == PieceSet(tuple(classic.pieces[:2])) and pair["I3"] is classic["I3"] and "I2" in pair
    assert replace(classic, pieces=classic.pieces[2:4]).names == ["L3", "T4"]


def test_an_instance_is_compared_by_value_and_replaced_afresh():
    import weakref

    from ubongo_cp.cover import PlacementTable, build_instance
    from ubongo_cp.structs import replace

    instance = build_instance(list(load_pieces("classic").select(["I2", "L3"])), Region.rectangle(1, 5))
    alike = build_instance(instance.pieces, instance.region)
    assert isinstance(instance.table, PlacementTable) and alike is not instance
    assert alike == instance and hash(alike) == hash(instance)   # the same problem (test_exactcover: the fields)
    assert weakref.ref(instance)() is instance   # the kernels kept per instance go by a weak reference to it
    assert instance.n_options == 4 and len(instance.option_type) == 4   # I2 in four places, L3 in none; a cached view
    again = replace(instance, ranges=None)
    assert again is not instance and again.table is instance.table and "option_type" not in vars(again)
    with pytest.raises(AttributeError):
        instance.mode = "fixed"


def test_a_piece_is_in_normal_position_and_a_region_sorted_wherever_their_cells_are_given():
    # The documented forms: a piece's cells in normal position, a region's sorted. A piece given at (5, 5) was
    # kept there, unequal to the same piece given at (0, 0); a region given in another order was another
    # region, with another hash.
    from ubongo_cp.grids import HEX
    from ubongo_cp.pieces import Piece, Region

    v3 = Piece("V3", [(6, 5), (5, 5), (5, 6)])
    assert v3.cells == ((0, 0), (0, 1), (1, 0))
    assert v3 == Piece("V3", [(0, 0), (0, 1), (1, 0)]) and hash(v3) == hash(Piece("V3", ((0, 0), (0, 1), (1, 0))))
    assert Piece("H2", [(3, 4), (4, 4)], HEX).cells == ((0, 0), (1, 0))
    shuffled = Region([(1, 0), (0, 1), (0, 0)], optional=[(1, 2), (1, 1)])
    assert shuffled.cells == ((0, 0), (0, 1), (1, 0)) and shuffled.optional == ((1, 1), (1, 2))
    assert shuffled == Region([(0, 0), (0, 1), (1, 0)], optional=[(1, 1), (1, 2)])
    assert Region([(5, 6), (5, 5)]).cells == ((5, 5), (5, 6))   # a region keeps its place: solutions name it


def test_select_takes_a_list_of_names_and_refuses_one_name_alone():
    # select("L5") was read letter by letter and blamed the set's file: "classic.txt: unknown piece 'L'"
    classic = load_pieces("classic")
    assert [p.name for p in classic.select(("L5", "I2", "L5"))] == ["L5", "I2", "L5"]
    for names, shown in [("L5", "'L5'"), (3, "3")]:
        with pytest.raises(InputError) as info:
            classic.select(names)
        assert str(info.value) == f"names is a list of names, e.g. ['I2', 'L5'], got {shown}"


def test_a_piece_set_made_in_code_from_a_list_is_the_set_a_file_gives():
    from ubongo_cp.pieces import PieceSet

    classic = load_pieces("classic")
    listed = PieceSet(list(classic.pieces), grid=classic.grid)
    # A list was kept as a list: the set was unequal to the same pieces as a tuple (a file's set) and
    # hash() raised "TypeError: unhashable type: 'list'"; a generator raised TypeError (no len()).
    assert listed == PieceSet(tuple(classic.pieces)) and hash(listed) == hash(PieceSet(tuple(classic.pieces)))
    assert PieceSet(p for p in classic.pieces).names == classic.names and listed.total_area == 48
    # Two pieces of one name were taken though the set's names pick its pieces (set["I2"] found one of them).
    with pytest.raises(InputError, match="piece 'I2' appears twice in the piece set"):
        PieceSet([classic["I2"], classic["I3"], classic["I2"]])
    for wrong, shown in (("classic", "got 'classic'"), (classic["I2"], "got Piece"),
                         ([classic["I2"], "I3"], "holds pieces .Piece., got str 'I3'")):
        with pytest.raises(InputError, match=shown):   # was AttributeError: 'str' object has no attribute 'name'
            PieceSet(wrong)


@pytest.mark.parametrize("limit", [float("nan"), None, "500", 2.5, True, 0])
def test_max_cells_is_a_whole_number(limit):
    # max_cells=nan was no limit at all (NaN compares False with every size: a 30x30 region was made), None
    # and '500' a TypeError of '>' between int and NoneType / str.
    for make in (lambda: Region.rectangle(30, 30, max_cells=limit), lambda: parse_region("##", max_cells=limit),
                 lambda: Region.box(2, 2, grid="hex", max_cells=limit)):
        with pytest.raises(InputError, match=r"max_cells must be a whole number of at least 1, got "):
            make()
