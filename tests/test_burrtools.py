"""BurrTools ``.xmpuzzle`` files (issue 14): read, write, refuse, and agree with BurrTools' own counts.

Expected values come from outside the reader: hand derivations from the
format (``tests/data/burrtools/*.xmpuzzle``, hand-written XML), counts that
BurrTools itself computed and stored in files it wrote
(``tests/data/burrtools/solved/``), published counts (pentominoes,
domino tilings) and public files of the BurrTools repository
(``tests/data/burrtools/public/``; see the README there).
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from ubongo_cp.burrtools import read_xmpuzzle, write_xmpuzzle
from ubongo_cp.cards import load_card
from ubongo_cp.cover import build_instance
from ubongo_cp.errors import InputError
from ubongo_cp.geometry import normalize
from ubongo_cp.pieces import Piece, Region, load_pieces
from ubongo_cp.solvers import solve

DATA = Path(__file__).parent / "data" / "burrtools"
CARD = Path(__file__).parent.parent / "puzzles" / "examples" / "classic_X1_hard.toml"
L3 = ((0, 0), (1, 0), (1, 1))  # "#." over "##"


def _count(problem):
    return _counts(problem.pieces, problem.region)


def _counts(pieces, region):
    result = solve(build_instance(pieces, region), limit=None)
    assert result.complete
    return result.count, result.count_reduced


# ------------------------------------------------------------- hand-made files
def test_hand_made_file_reads_as_derived_from_the_format():
    # Shape S1 is x=2, y=2, z=1 "#1#1#1_": voxels run x fastest, so y=0 is "##" and y=1 is "#_";
    # y points up in BurrTools, so the top row is y=1: "#." over "##", the L-tromino, in colour 1.
    first = read_xmpuzzle(DATA / "two_problems.xmpuzzle")
    assert [(p.name, p.cells) for p in first.pieces] == [("S1", L3), ("S1", L3)]  # unnamed: BurrTools' label
    assert first.region.cells == Region.rectangle(2, 3).cells
    assert (first.name, first.number, first.n_problems) == ("two trominoes", 1, 2)
    assert first.colours == {"S1": "#ff0000"} and first.assemblies is None
    # Problem 2: shape 'domino' used min=max=2 times; the result is x=2, y=3, z=2 with z=1 empty:
    # y=0 "#_", y=1 "#_", y=2 "##", so from the top: "##", "#.", "#.".
    second = read_xmpuzzle(DATA / "two_problems.xmpuzzle", 2)
    assert [(p.name, p.cells) for p in second.pieces] == [("domino", ((0, 0), (1, 0)))] * 2
    assert second.region.to_ascii() == "##\n#.\n#."
    assert (second.name, second.number, second.colours) == ("dominoes in a corner", 2, {})


def test_gzip_and_plain_xml_read_alike():
    for number in (1, 2):
        plain = read_xmpuzzle(DATA / "two_problems.xmpuzzle", number)
        packed = read_xmpuzzle(DATA / "two_problems_gzip.xmpuzzle", number)
        assert (plain.pieces, plain.region.cells, plain.colours) == (packed.pieces, packed.region.cells,
                                                                  packed.colours)


def test_hand_made_problems_count_as_by_hand():
    # 2x3 by two L-trominoes: the two tilings are mirror images (1 up to symmetry); copies are
    # not told apart (UP-5). The corner "##/#./#." by two dominoes: (0,1) forces the top domino.
    assert _count(read_xmpuzzle(DATA / "two_problems.xmpuzzle", 1)) == (2, 1)
    assert _count(read_xmpuzzle(DATA / "two_problems.xmpuzzle", 2)) == (1, 1)


def test_a_flat_piece_drawn_standing_is_turned_into_the_plane():
    # x=2, y=1, z=2 "###_": (0,0,0), (1,0,0), (0,0,1) lie in the x-z plane; z up: "#." over "##".
    problem = read_xmpuzzle(DATA / "standing_piece.xmpuzzle")
    assert [p.cells for p in problem.pieces] == [L3, L3]
    assert _count(problem) == (2, 1)  # as lying flat (above); burrTxt also finds 1 assembly


def test_equal_shapes_under_two_ids_are_two_identical_pieces():
    # Shapes S1 and S2 are both a vertical domino: two pieces with their own names, but identical
    # (UP-5: one shape, one piece type of two copies). The corner "##/#./#." has one tiling, so 1
    # solution; BurrTools counts 2 assemblies (it tells shape ids apart).
    problem = read_xmpuzzle(DATA / "twin_shapes.xmpuzzle")
    assert [p.name for p in problem.pieces] == ["S1", "S2"] and problem.region.to_ascii() == "##\n#.\n#."
    assert _count(problem) == (1, 1)


# ------------------------------------------------- files BurrTools solved itself
@pytest.mark.slow
@pytest.mark.parametrize("name, published", [
    ("pentominoes_6x10", (9356, 2339)),   # Haselgrove & Haselgrove (1960)
    ("pentominoes_3x20", (8, 2)),
    ("dominoes_4x4", (36, None)),         # Kasteleyn / Temperley-Fisher: 36 domino tilings of 4x4
    ("l_tetrominoes_4x4", (None, None)),  # BurrTools' count only: a second solver
])
def test_counts_equal_the_assemblies_burrtools_stored(name, published):
    problem = read_xmpuzzle(DATA / "solved" / f"{name}.xmpuzzle")
    count, reduced = _count(problem)
    assert reduced == problem.assemblies  # BurrTools counts up to the result's symmetry
    assert (count if published[0] else None, reduced if published[1] else None) == published


def test_burrtools_keeps_the_colours_it_was_given():
    from ubongo_cp.booklet import piece_colours

    problem = read_xmpuzzle(DATA / "solved" / "pentominoes_6x10.xmpuzzle")
    assert problem.colours == piece_colours(load_pieces("pentominoes").names)
    assert [p.cells for p in problem.pieces] == [p.cells for p in load_pieces("pentominoes").pieces]


# ------------------------------------------------------------------- refusals
REFUSALS = [
    # (file under tests/data/burrtools, line, fragment of the message)
    ("public/Bermuda.xmpuzzle", 28, "shape S23 'Result' (the result of problem 1 'Bermuda') is 3-D: its prisms "
                                    "span 7x4x3 layers in x, y and z; only one layer of prisms (triangles) is read"),
    ("public/Prisgon.xmpuzzle", 15, "shape S10 'Result1' (the result of problem 1 'Markus') is 3-D: its prisms "
                                    "span 11x6x5 layers in x, y and z; only one layer of prisms (triangles) is read"),
    ("public/Representation1.xmpuzzle", None, "the file defines no problem"),
    ("public/Representation0.xmpuzzle", None, "the file defines no problem"),
    ("public/Representation2.xmpuzzle", 3, "grid type 2 (spheres) is not read"),
    ("public/Representation3.xmpuzzle", 3, "grid type 3 (rhombic dodecahedra) is not read"),
    ("public/Representation4.xmpuzzle", 3, "grid type 4 (tetrahedra and octahedra) is not read"),
    ("bad/grid_unknown.xmpuzzle", 4, "grid type 9 (unknown to BurrTools)"),
    ("bad/variable_piece.xmpuzzle", 7, "shape S2 'half' (a piece of problem 1) has 1 variable voxel(s) ('+')"),
    ("bad/colour_constraint.xmpuzzle", 13, "problem 1 uses colour constraints"),
    ("bad/disconnected.xmpuzzle", 7, "shape S2 'gap' (a piece of problem 1) is not connected"),
    ("bad/empty_piece.xmpuzzle", 7, "shape S2 'ghost' (a piece of problem 1) has no filled voxel"),
    ("bad/no_pieces.xmpuzzle", 9, "problem 1 uses no piece"),
    ("bad/no_result.xmpuzzle", 9, "problem 1 'lost' has no <result>"),
    ("bad/shape_id.xmpuzzle", 12, "<shape> names shape id 7, but the file has 2 shape(s)"),
    ("bad/voxel_count.xmpuzzle", 7, "shape S2: 3 voxels given for a 2x2x1 space (4 expected)"),
    ("bad/voxel_char.xmpuzzle", 6, "shape S1: unknown character 'x' in its voxels"),
    ("bad/version.xmpuzzle", 3, "<puzzle> version '3': BurrTools files have version 1 or 2"),
    ("bad/not_puzzle.xmpuzzle", 3, "the root element is <burr>, not <puzzle>"),
    ("bad/malformed.xmpuzzle", 7, "malformed XML: mismatched tag"),
    ("bad/doctype.xmpuzzle", 3, "a DOCTYPE is not expected"),
    ("bad/not_xml.xmpuzzle", None, "neither gzip-compressed nor XML"),
    ("bad/truncated_gzip.xmpuzzle", None, "corrupt gzip data"),
]


@pytest.mark.parametrize("name, line, fragment", REFUSALS, ids=[c[0] for c in REFUSALS])
def test_content_the_reader_does_not_take_is_refused_naming_file_and_line(name, line, fragment):
    with pytest.raises(InputError) as info:
        read_xmpuzzle(DATA / name)
    assert (info.value.path, info.value.line) == (str(DATA / name), line)
    assert fragment in info.value.message


def test_a_problem_number_must_exist_and_the_result_must_fit():
    with pytest.raises(InputError, match=r"no problem 3: the file has 2 problem\(s\), numbered from 1"):
        read_xmpuzzle(DATA / "two_problems.xmpuzzle", 3)
    with pytest.raises(InputError, match="no problem 0"):
        read_xmpuzzle(DATA / "two_problems.xmpuzzle", 0)
    with pytest.raises(InputError, match="the result of problem 1 'two trominoes' has 6 cells, over the limit of 5"):
        read_xmpuzzle(DATA / "two_problems.xmpuzzle", max_cells=5)
    with pytest.raises(InputError, match="file not found"):
        read_xmpuzzle(DATA / "missing.xmpuzzle")


def test_an_absurd_piece_count_is_refused_before_it_fills_memory(tmp_path):
    many = tmp_path / "many.xmpuzzle"
    many.write_text('<puzzle version="2"><shapes><voxel x="1" y="1" z="1" type="0">#</voxel>'
                    '<voxel x="2" y="1" z="1" type="0">##</voxel></shapes><problems><problem><shapes>'
                    '<shape id="0" count="999999999"/></shapes><result id="1"/></problem></problems></puzzle>')
    with pytest.raises(InputError, match="problem 1 uses shape S1 999999999 times, over the limit of 400"):
        read_xmpuzzle(many)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_fuzz_reader_raises_only_input_errors(tmp_path_factory, data):
    text = (DATA / "two_problems.xmpuzzle").read_text()
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(text) - 1))
        j = data.draw(st.integers(i, min(len(text), i + 8)))
        text = text[:i] + data.draw(st.text("<>/=\"#_+0129xyzid &;", max_size=4)) + text[j:]
    path = tmp_path_factory.mktemp("fuzz") / "f.xmpuzzle"
    path.write_text(text)
    try:
        read_xmpuzzle(path, data.draw(st.integers(1, 2)))
    except InputError:
        pass


# --------------------------------------------------------------------- writer
def test_written_file_is_burrtools_xml_on_the_brick_grid(tmp_path):
    classic = load_pieces("classic")
    out = tmp_path / "t.xmpuzzle"
    write_xmpuzzle(out, classic.select(["L3", "I2", "L3"]), Region.rectangle(2, 4), name="a & b",
                   colours={"L3": "#ff8000"})
    raw = out.read_bytes()
    xml = gzip.decompress(raw).decode()
    assert raw[:2] == b"\x1f\x8b" and xml.startswith('<?xml version="1.0"?>\n<puzzle version="2">')
    assert '<gridType type="0"/>' in xml and '<color red="255" green="128" blue="0"/>' in xml
    # L3 "#." over "##" is y=0 "##", y=1 "#_" (y up), coloured 1; I2 is 1x2; the result is 4x2.
    voxels = re.findall(r'<voxel x="(\d+)" y="(\d+)" z="(\d+)" name="([^"]*)" type="0">([^<]*)</voxel>', xml)
    assert voxels == [("2", "2", "1", "L3", "#1#1#1_"), ("1", "2", "1", "I2", "##"),
                      ("4", "2", "1", "Result", "########")]
    assert re.findall(r'<shape id="(\d+)" count="(\d+)"/>', xml) == [("0", "2"), ("1", "1")]
    assert '<result id="2"/>' in xml and 'name="a &amp; b"' in xml
    write_xmpuzzle(tmp_path / "again.xmpuzzle", classic.select(["L3", "I2", "L3"]), Region.rectangle(2, 4),
                   name="a & b", colours={"L3": "#ff8000"})
    assert (tmp_path / "again.xmpuzzle").read_bytes() == raw  # same input, same bytes


_SHIPPED = [p for name in ("classic", "duel", "pentominoes") for p in load_pieces(name).pieces]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pieces=st.lists(st.sampled_from(_SHIPPED), min_size=1, max_size=6),
       region=st.sets(st.tuples(st.integers(0, 7), st.integers(0, 9)), min_size=1, max_size=40),
       coloured=st.booleans())
def test_round_trip_gives_the_same_pieces_and_region(tmp_path, pieces, region, coloured):
    by_name: dict[str, Piece] = {}
    pieces = [by_name.setdefault(p.name, p) for p in pieces]  # one shape per name (duel and pentomino names overlap)
    region = Region(normalize(region))
    colours = {p.name: "#%02x%02x%02x" % (17 * i, 255 - 17 * i, 3 * i) for i, p in enumerate(by_name.values())}
    out = tmp_path / "rt.xmpuzzle"
    write_xmpuzzle(out, pieces, region, name="rt", colours=colours if coloured else None)
    back = read_xmpuzzle(out)
    order = sorted(range(len(pieces)), key=lambda i: list(by_name).index(pieces[i].name))  # grouped by shape
    assert back.pieces == [pieces[i] for i in order]
    assert back.region.cells == region.cells
    assert back.colours == (colours if coloured else {})
    assert (back.name, back.number, back.n_problems, back.assemblies) == ("rt", 1, 1, None)


def test_writer_refusals(tmp_path):
    classic = load_pieces("classic")
    out = tmp_path / "x.xmpuzzle"
    region = Region.rectangle(2, 2)
    with pytest.raises(InputError, match="no pieces to write"):
        write_xmpuzzle(out, [], region)
    with pytest.raises(InputError, match="two different pieces are named 'I2'"):
        write_xmpuzzle(out, [classic["I2"], Piece("I2", ((0, 0), (0, 1), (0, 2)))], region)
    with pytest.raises(InputError, match="a colour is given for 'O4', which is not among the pieces"):
        write_xmpuzzle(out, [classic["I2"]], region, colours={"O4": "red"})
    with pytest.raises(InputError, match="colour 'no-such-colour' of piece 'I2' is not a colour"):
        write_xmpuzzle(out, [classic["I2"]], region, colours={"I2": "no-such-colour"})
    many = [Piece(f"P{i}", ((0, 0),)) for i in range(64)]
    with pytest.raises(InputError, match="64 colours; BurrTools allows at most 63"):
        write_xmpuzzle(out, many, region, colours={p.name: (i / 64, 0, 0) for i, p in enumerate(many)})
    assert not out.exists()


# ------------------------------------------------------------------------ CLI
def test_export_then_solve_counts_as_the_card(run_cli, tmp_path):
    card = load_card(CARD)
    for face in card.tasks:
        out = tmp_path / f"face{face}.xmpuzzle"
        code, text, _ = run_cli("export", CARD, "--face", face, "--out", out)
        assert code == 0 and text.startswith(f"wrote {out}: card X1 side hard, face {face}")
        back = read_xmpuzzle(out)
        assert [p.name for p in back.pieces] == list(card.tasks[face]) and back.region.cells == card.region.cells
        code, from_file, _ = run_cli("solve", out, "--count", "--json")
        code2, from_card, _ = run_cli("solve", CARD, "--face", face, "--json")
        assert code == code2 == 0
        assert json.loads(from_file)["count"] == json.loads(from_card)["count"]


def test_solve_xmpuzzle_prints_the_problem_and_its_solution(run_cli):
    code, out, err = run_cli("solve", DATA / "two_problems.xmpuzzle", "--problem", "2", "--count")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "problem 2 'dominoes in a corner' of 2: 2 pieces (domino x2), 4-cell result"
    assert lines[1].startswith("1 solution [")
    code, out, _ = run_cli("solve", DATA / "solved" / "dominoes_4x4.xmpuzzle", "--count")
    assert "BurrTools stored 9 assemblies for it" in out and "36 solutions, 9 up to the region's symmetry" in out


def test_export_refuses_a_card_with_restricted_orientations(run_cli, tmp_path):
    text = CARD.read_text().replace('pieces = "classic"', 'pieces = "classic"\norientations = "one-sided"')
    card = tmp_path / "one_sided.toml"
    card.write_text(text)
    code, out, err = run_cli("export", card, "--face", "1", "--out", tmp_path / "x.xmpuzzle")
    assert (code, out) == (2, "") and "allows one-sided orientations only" in err
    assert not (tmp_path / "x.xmpuzzle").exists()


def test_export_names_mirroring_as_what_burrtools_cannot_do(run_cli, tmp_path):
    # A cube card in mode mirror allows more moves than free, not fewer: it was refused as allowing "mirror
    # orientations only" because "BurrTools turns pieces freely in space".
    card = tmp_path / "mirror.toml"
    card.write_text('game = "classic"\ncard = "M"\nside = "easy"\npieces = "tetracubes"\norientations = "mirror"\n'
                    'region = """\n##\n#.\n--\n#.\n..\n"""\n[tasks]\n1 = ["A4"]\n')
    code, out, err = run_cli("export", card, "--face", "1", "--out", tmp_path / "x.xmpuzzle")
    assert (code, out) == (2, "") and "lets its pieces be mirrored (orientations mirror); BurrTools only turns" in err
    assert "orientations only" not in err and not (tmp_path / "x.xmpuzzle").exists()


def test_export_refusal_comes_without_a_written_all_the_same_warning(run_cli, tmp_path):
    # --pieces/--region of an unsolvable puzzle (area 4 against 8) in a mode BurrTools cannot hold: the warning
    # "x.xmpuzzle is written all the same" came first, then the refusal, and no file was written.
    out = tmp_path / "x.xmpuzzle"
    for mode in ("fixed", "mirror"):
        code, stdout, err = run_cli("export", "--pieces", "tetracubes", "--region", "2x2x2", "--use", "I4",
                                    "--orientations", mode, "--out", out)
        assert (code, stdout) == (2, "") and "can be exported as a BurrTools file" in err, err
        assert "written all the same" not in err and not out.exists(), err


def test_export_refuses_what_solve_would_refuse_to_read(run_cli, tmp_path):
    # Once written ("up to 2000 pieces"), then refused by solve: "uses shape S1 'I2' 2000 times, over the limit".
    from ubongo_cp.geometry import MAX_REGION_CELLS

    card = tmp_path / "card.toml"
    card.write_text('game = "classic"\ncard = "01"\nside = "easy"\npieces = "classic"\nregion = """\n##\n##\n"""\n'
                    '[tasks]\n1 = ["I2:0-2000"]\n' + "".join(f'{f} = ["I2", "I2"]\n' for f in range(2, 7)))
    out = tmp_path / "big.xmpuzzle"
    code, text, err = run_cli("export", card, "--face", "1", "--out", out)
    assert (code, text) == (2, "") and err == (
        f"ubongo-cp: error: {out}: not written: 'card 01 side easy, face 1' uses I2 up to 2000 times, over the "
        f"limit of {MAX_REGION_CELLS} a BurrTools file is read with\n")
    assert not out.exists()
    # At the limit it is written and read back.
    write_xmpuzzle(out, [load_pieces("classic")["I2"]], Region.rectangle(2, 2), ranges={"I2": (0, MAX_REGION_CELLS)})
    assert read_xmpuzzle(out).ranges == {"I2": (0, MAX_REGION_CELLS)}
    out.unlink()
    with pytest.raises(InputError, match=f"the result of the problem has {MAX_REGION_CELLS + 1} cells"):
        big = Region.rectangle(1, MAX_REGION_CELLS + 1, max_cells=MAX_REGION_CELLS + 1)
        write_xmpuzzle(out, [load_pieces("classic")["I2"]], big)
    assert not out.exists()


@pytest.mark.parametrize("argv, fragment", [
    (["solve", DATA / "two_problems.xmpuzzle", "--face", "1"], "--face does not go with a BurrTools file"),
    (["solve", DATA / "two_problems.xmpuzzle", "--pieces", "classic"], "--pieces does not go with a BurrTools"),
    (["solve", CARD, "--problem", "2"], "--problem goes with a BurrTools .xmpuzzle file"),
    (["solve", DATA / "two_problems.xmpuzzle", "--problem", "5"], "no problem 5: the file has 2 problem(s)"),
    (["solve", DATA / "bad" / "range.xmpuzzle"], "range.xmpuzzle:12: problem 1 'monominoes'"),
    (["export", CARD, "--face", "9", "--out", "x.xmpuzzle"], "has no face 9"),
    (["export", CARD, "--face", "1", "--out", CARD], "would overwrite the card input"),
])
def test_cli_refusals_exit_2_with_one_line(run_cli, argv, fragment):
    code, out, err = run_cli(*argv)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and fragment in err


# ------------------------------------------------------------- cubes, triangles, hexagons
def _burrtools_factor(problem) -> int:
    """BurrTools tells identical shapes under distinct ids apart: its assemblies are ours times k! per group of k."""
    from math import factorial

    groups: dict = {}
    for piece in problem.pieces:
        key = piece.grid.canonical(piece.cells)
        groups.setdefault(key, set()).add(piece.name)
    out = 1
    for names in groups.values():
        out *= factorial(len(names))
    return out


@pytest.mark.parametrize("name, grid, count, reduced", [
    ("tetrahexes_4x7", "hex", 18, 9),         # Polyform Puzzler's Tetrahexes4x7: 9
    ("pentiamonds_2x5", "triangle", 0, 0),
    ("hexiamonds_4x9", "triangle", 148, 74),  # Polyform Puzzler's Hexiamonds4x9: 74
])
def test_flat_grids_count_what_burrtools_counted(name, grid, count, reduced):
    # Written by write_xmpuzzle (hexagons as hexagons of 6 triangular prisms), solved and saved by burrTxt2.
    problem = read_xmpuzzle(DATA / "solved" / f"{name}.xmpuzzle")
    assert problem.region.grid.name == grid
    assert _count(problem) == (count, reduced) and problem.assemblies == reduced


def test_soma_counts_what_burrtools_counted_up_to_rotations():
    # BurrTools reduces by the cube's 24 rotations only here (a reflection maps piece A to piece B): 480,
    # where count_reduced also identifies mirror-image solutions, the published 240.
    problem = read_xmpuzzle(DATA / "solved" / "soma_3x3x3.xmpuzzle")
    inst = build_instance(problem.pieces, problem.region)
    result = solve(inst, limit=None)
    assert (result.count, result.count_reduced, problem.assemblies) == (11520, 240, 480)
    rotations = [s for s in inst.region_symmetries if round(__import__("numpy").linalg.det(s)) == 1]
    assert result.count // len(rotations) == problem.assemblies


@pytest.mark.parametrize("name, grid, pieces, optional, stored", [
    # burr-tools/burr-tools examples/ (see the README here): a packing puzzle whose box is a piece, and two
    # puzzles whose results have variable voxels ('+', cells pieces may leave empty).
    ("public/AlPackino.xmpuzzle", "cube", 13, 0, 1),
    ("public/CubeInCage.xmpuzzle", "cube", 6, 39, 96),
    ("public/PelikanBurr.xmpuzzle", "cube", 7, 216, 12),
])
def test_real_cube_grid_files_read_and_count_what_burrtools_stored(name, grid, pieces, optional, stored):
    problem = read_xmpuzzle(DATA / name, max_cells=1000)
    assert problem.region.grid.name == grid and len(problem.pieces) == pieces
    assert len(problem.region.optional) == optional and problem.assemblies == stored
    count, reduced = _count(problem)
    assert reduced * _burrtools_factor(problem) == stored


def test_hand_made_cube_and_variable_files_read_as_derived():
    # A tripod of four cubes for a flat 2x2 result: read on cubes, and it cannot lie flat.
    problem = read_xmpuzzle(DATA / "cube_piece_flat_result.xmpuzzle")
    assert problem.region.grid.name == "cube" and problem.region.size == (1, 2, 2)
    assert problem.pieces[0].size == 4 and len(problem.pieces[0].orientations()) == 8   # a corner: 24 / 3
    assert _count(problem) == (0, 0)
    # A column "##+" (y up: the '+' at the top) by a vertical domino: it must cover the two '#'.
    problem = read_xmpuzzle(DATA / "variable_voxel.xmpuzzle")
    assert problem.region.cells == ((1, 0), (2, 0)) and problem.region.optional == ((0, 0),)
    assert _count(problem) == (1, 1)


ROUND_TRIPS = [
    ("tetrahexes", "hex", (4, 7), (18, 9)),
    ("pentiamonds", "triangle", (2, 5), None),
    ("soma", "cube", (3, 3, 3), (11520, 240)),
]


@pytest.mark.parametrize("pieces, grid, box, counts", ROUND_TRIPS, ids=[r[0] for r in ROUND_TRIPS])
def test_round_trip_on_every_grid(tmp_path, pieces, grid, box, counts):
    ps = load_pieces(pieces)
    region = Region.box(*box, grid=grid)
    before = _counts(ps.pieces, region)
    write_xmpuzzle(tmp_path / "p.xmpuzzle", ps.pieces, region, name=pieces)
    xml = gzip.decompress((tmp_path / "p.xmpuzzle").read_bytes()).decode()
    assert f'<gridType type="{1 if grid in ("hex", "triangle") else 0}"/>' in xml
    problem = read_xmpuzzle(tmp_path / "p.xmpuzzle")
    assert problem.region.grid.name == grid and problem.region.cells == region.cells
    assert [p.cells for p in problem.pieces] == [p.cells for p in ps.pieces]
    assert _count(problem) == before and (counts is None or before == counts)
    if grid == "hex":   # hexagons of 6 triangles, unless asked to stay triangles
        as_triangles = read_xmpuzzle(tmp_path / "p.xmpuzzle", hexagons=False)
        assert as_triangles.region.grid.name == "triangle" and as_triangles.region.area == 6 * region.area
        assert _count(as_triangles)[0] >= before[0]


def test_pieces_of_another_grid_are_not_written(tmp_path):
    with pytest.raises(InputError, match="the pieces are on the hex grid"):
        write_xmpuzzle(tmp_path / "x.xmpuzzle", load_pieces("tetrahexes").pieces, Region.rectangle(4, 7))


# ------------------------------------------------------------ ranges of piece counts
def test_a_range_of_piece_counts_is_read_as_max_copies_and_the_range(tmp_path):
    # 1x2 result, a monomino used 1 to 2 times (min/max, as BurrTools writes a range): two copies
    # are read, the range goes to the instance, and the one tiling (both monominoes) is counted.
    ranged = tmp_path / "range.xmpuzzle"
    ranged.write_text((DATA / "bad" / "range.xmpuzzle").read_text().replace('min="2" max="1"', 'min="1" max="2"'))
    problem = read_xmpuzzle(ranged)
    assert ([p.name for p in problem.pieces], problem.ranges) == (["S2", "S2"], {"S2": (1, 2)})
    inst = build_instance(problem.pieces, problem.region, ranges=problem.ranges)
    assert inst.type_bounds == [(1, 2)] and solve(inst, backend="dlx").count == 1


def test_burrtools_ranges_on_a_public_file_agree_across_backends():
    # SolidSixPieceBurrs: 25 burr sticks, each 0 to 6 times, in a 104-cube result. BurrTools stored 1,063
    # assemblies: it removes symmetric assemblies only where a piece is sure to be used (none is here), so
    # its figure lies between the count (12,597) and the count up to the result's symmetry (588).
    problem = read_xmpuzzle(DATA / "public" / "SolidSixPieceBurrs.xmpuzzle")
    assert set(problem.ranges.values()) == {(0, 6)} and len(problem.ranges) == 25
    inst = build_instance(problem.pieces, problem.region, ranges=problem.ranges)
    counts = {b: (r.count, r.count_reduced) for b in ("bitboard", "zdd")
              for r in [solve(inst, backend=b, keep=0)]}
    assert counts["bitboard"] == counts["zdd"]
    count, reduced = counts["zdd"]
    assert reduced <= problem.assemblies <= count


def test_min_over_max_is_refused_naming_the_line():
    with pytest.raises(InputError) as info:
        read_xmpuzzle(DATA / "bad" / "range.xmpuzzle")
    assert info.value.line == 12 and "shape S2 may be used min=2 to max=1 times" in info.value.message


def test_ranges_are_written_and_read_back(tmp_path):
    out = tmp_path / "ranges.xmpuzzle"
    ps = load_pieces("classic")
    write_xmpuzzle(out, ps.select(["I2", "I2", "I2", "I2", "O4", "O4"]), Region.rectangle(2, 4),
                   ranges={"I2": (0, 4), "O4": (0, 2)})
    assert b'min="0" max="4"' in gzip.decompress(out.read_bytes())
    problem = read_xmpuzzle(out)
    assert problem.ranges == {"I2": (0, 4), "O4": (0, 2)} and len(problem.pieces) == 6
    inst = build_instance(problem.pieces, problem.region, ranges=problem.ranges)
    # 2x4: four dominoes 5 ways; one O4 (left, middle, right) and two dominoes 2 + 1 + 2; two O4 once
    assert solve(inst, backend="dlx").count == 5 + 5 + 1
    with pytest.raises(InputError, match="need 0 <= min <= max"):
        write_xmpuzzle(out, ps.select(["I2"]), Region.rectangle(1, 2), ranges={"I2": (2, 1)})


RANGED_CARD = '''game = "classic"
card = "R1"
side = "easy"
pieces = "classic"
region = """
####
####
"""

[tasks]
1 = ["I2:0-4", "O4:0-2"]
2 = ["I2:1-2", "L3:0-2", "I3"]
'''


def test_export_and_solve_of_the_file_give_a_ranged_task_the_same_piece_count(run_cli, tmp_path):
    # Face 1: 0-4 dominoes and 0-2 squares, up to 6 pieces; face 2: 1+0+1 to 2+2+1 pieces.
    card = tmp_path / "r.toml"
    card.write_text(RANGED_CARD)
    for face, said in ((1, "up to 6 pieces (I2:0-4 O4:0-2), 8-cell result"),
                       (2, "2 to 5 pieces (I2:1-2 L3:0-2 I3), 8-cell result")):
        out = tmp_path / f"r{face}.xmpuzzle"
        code, text, err = run_cli("export", card, "--face", face, "--out", out)
        assert code == 0, err
        assert text == f"wrote {out}: card R1 side easy, face {face}, {said}\n"
        code, text, err = run_cli("solve", out)
        assert code == 0, err
        assert text.splitlines()[0] == f"problem 1 'card R1 side easy, face {face}' of 1: {said}"


def test_a_result_that_is_also_a_piece_is_named_as_such(tmp_path):
    # The shape to build named one of the pieces: the message spoke of colour constraints (or the problem
    # was solved as a piece covering itself).
    odd = tmp_path / "odd.xmpuzzle"
    odd.write_text('<puzzle version="2"><shapes><voxel x="2" y="1" z="1" type="0">##</voxel></shapes><problems>'
                   '<problem><shapes><shape id="0" count="1"/></shapes>\n<result id="0"/></problem></problems>'
                   '</puzzle>')
    with pytest.raises(InputError) as info:
        read_xmpuzzle(odd)
    assert info.value.line == 2 and "its <result> is shape S1, which is also one of its pieces" in info.value.message


def test_a_shape_listed_twice_in_one_problem_is_refused_naming_the_line(tmp_path):
    # BurrTools keeps one part per shape (its editor never lists a shape twice) and would count two parts of one
    # shape as different pieces. Once read as one piece name: a domino 0-2 times and once more (1 to 3 dominoes,
    # one tiling of 1x6) was "up to 2 pieces (D:0-2)" and no solution, the second part's copy dropped from the
    # range; two parts of count 1 were two identical pieces.
    for parts in ('<shape id="0" min="0" max="2"/>\n<shape id="0" count="1"/>',
                  '<shape id="0" count="1"/>\n<shape id="0" count="1"/>'):
        twice = tmp_path / "twice.xmpuzzle"
        twice.write_text('<puzzle version="2"><shapes><voxel x="2" y="1" z="1" name="D" type="0">##</voxel>'
                         '<voxel x="6" y="1" z="1" type="0">######</voxel></shapes><problems><problem><shapes>'
                         f'{parts}</shapes><result id="1"/></problem></problems></puzzle>')
        with pytest.raises(InputError) as info:
            read_xmpuzzle(twice)
        assert info.value.line == 2
        assert "problem 1 lists shape S1 'D' twice (lines 1 and 2)" in info.value.message


VARIABLE_RANGE = """<?xml version="1.0"?>
<puzzle version="2">
 <gridType type="0"/>
 <shapes>
  <voxel x="2" y="1" z="1" name="D" type="0">##</voxel>
  <voxel x="1" y="1" z="1" name="M" type="0">#</voxel>
  <voxel x="4" y="1" z="1" name="R" type="0">{result}</voxel>
 </shapes>
 <problems>
  <problem name="p" state="0"{holes}>
   <shapes>
    <shape id="0" min="{d_min}" max="{d_max}"/>
    <shape id="1" min="{m_min}" max="{m_max}"/>
   </shapes>
   <result id="2"/>
  </problem>
 </problems>
</puzzle>
"""


def test_a_range_of_counts_reaches_the_variable_voxels_of_the_result(tmp_path):
    # A domino 1 or 2 times, no monomino, in "##++" (by hand: the domino on the "#", or two dominoes on all):
    # 2; in "#+#+": only the two dominoes, 1. The variable voxels count towards how many copies fit.
    for result, expected in (("##++", 2), ("#+#+", 1)):
        path = tmp_path / "v.xmpuzzle"
        path.write_text(VARIABLE_RANGE.format(result=result, holes="", d_min=1, d_max=2, m_min=0, m_max=0))
        problem = read_xmpuzzle(path)
        inst = build_instance(problem.pieces, problem.region, ranges=problem.ranges)
        assert solve(inst, backend="dlx", keep=0).count == expected, result


def test_max_holes_is_refused_where_it_limits_the_count(tmp_path):
    # BurrTools leaves at most maxHoles variable voxels empty when pieces are used a range of times. In "###+"
    # with a domino 0-1 and a monomino 1-2, maxHoles="0" keeps 3 of the 5 assemblies: not modelled, refused on
    # the problem's line; "1" (there is one variable voxel) and fixed counts leave the count as it is.
    path = tmp_path / "h.xmpuzzle"
    path.write_text(VARIABLE_RANGE.format(result="###+", holes=' maxHoles="0"', d_min=0, d_max=1, m_min=1, m_max=2))
    with pytest.raises(InputError) as info:
        read_xmpuzzle(path)
    assert info.value.line == 10 and "at most 0 empty variable voxel(s) (maxHoles)" in info.value.message
    path.write_text(VARIABLE_RANGE.format(result="###+", holes=' maxHoles="1"', d_min=0, d_max=1, m_min=1, m_max=2))
    problem = read_xmpuzzle(path)
    inst = build_instance(problem.pieces, problem.region, ranges=problem.ranges)
    # by hand: D M on "###" with the "+" empty (DM, MD), and D M M on all four (DMM, MDM, MMD): 5
    assert solve(inst, backend="dlx", keep=0).count == 5
    path.write_text(VARIABLE_RANGE.format(result="###+", holes=' maxHoles="0"', d_min=1, d_max=1, m_min=1, m_max=1))
    problem = read_xmpuzzle(path)
    inst = build_instance(problem.pieces, problem.region, ranges=problem.ranges)
    assert solve(inst, backend="dlx", keep=0).count == 2    # D and M on "###" (DM or MD), the "+" empty


def test_a_burrtools_file_under_another_name_is_read_as_one(run_cli, tmp_path):
    # "puzzle.xml" (plain XML) and "puzzle.xmpuzzle.gz" (gzip) are BurrTools files, not card sides.
    plain = tmp_path / "puzzle.xml"
    plain.write_text(VARIABLE_RANGE.format(result="####", holes="", d_min=2, d_max=2, m_min=0, m_max=0))
    packed = tmp_path / "puzzle.xmpuzzle.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    for path in (plain, packed):
        code, out, err = run_cli("solve", path, "--count")
        assert code == 0 and "1 solution" in out, err    # two dominoes in a row of four: one way (UP-5)
        # given as a region, it is named for what it is, not read as a picture ("not UTF-8 text")
        code, out, err = run_cli("analyze", "--pieces", "classic", "--region", path, "--k", "2")
        assert code == 2 and err == (f"ubongo-cp: error: {path}: a BurrTools file, not a region picture: "
                                     f"`ubongo-cp solve {path}` reads its pieces and result\n")


def test_optional_cells_are_written_as_variable_voxels(tmp_path):
    # A region's optional cells are the result's "+" voxels, read back as optional cells: the same counts on
    # squares (5 monominoes on 2x2 and one optional cell: 1 tiling, copies not told apart), triangles and cubes
    # (4 dominoes in the 2x2x2 box, one corner optional: they cover it, the box's 9 tilings).
    # Hexagons are held as triangles, which a result with variable voxels is read as: refused.
    from ubongo_cp.grids import CUBE, HEX, TRIANGLE

    cases = [(Region(((0, 0), (0, 1), (1, 0), (1, 1)), optional=((0, 2),)), ((0, 0),), 5),
             (Region(((0, 0), (0, 1), (0, 2)), optional=((0, 3),), grid=TRIANGLE), ((0, 0), (0, 1)), 2),
             (Region(tuple(Region.box(2, 2, 2, grid=CUBE).cells[:-1]), optional=((1, 1, 1),), grid=CUBE),
              ((0, 0, 0), (0, 0, 1)), 4)]
    for region, cells, copies in cases:
        pieces = [Piece("P", cells, region.grid)] * copies
        path = tmp_path / f"{region.grid.name}.xmpuzzle"
        write_xmpuzzle(path, pieces, region)
        assert b"+" in gzip.decompress(path.read_bytes())
        problem = read_xmpuzzle(path)
        assert sorted(problem.region.optional) == sorted(region.optional), region.grid.name
        assert _count(problem) == _counts(pieces, region), region.grid.name
    assert _counts([Piece("P", ((0, 0),))] * 5, cases[0][0])[0] == 1
    assert _counts([Piece("P", ((0, 0, 0), (0, 0, 1)), CUBE)] * 4, cases[2][0])[0] == 9
    with pytest.raises(InputError, match="would use no piece"):   # a file its reader would refuse
        write_xmpuzzle(tmp_path / "n.xmpuzzle", [Piece("P", ((0, 0),))], cases[0][0], ranges={"P": (0, 0)})
    with pytest.raises(InputError, match="has optional cells"):
        write_xmpuzzle(tmp_path / "h.xmpuzzle", [Piece("H", ((0, 0),), HEX)],
                       Region(((0, 0),), optional=((1, 0),), grid=HEX))


# Wrong types once met an error from inside: the string "1" was said to be a problem missing from a file of two
# problems; a region None an AttributeError; a card's text None an AttributeError from tomllib, a fit's tables None
# a TypeError from os.fspath.
def test_public_functions_refuse_wrong_types_with_a_message(tmp_path):
    from ubongo_cp.calibrate import fit_difficulty
    from ubongo_cp.cards import parse_card

    with pytest.raises(InputError, match=r"problem is a problem's number \(an int, from 1\), got str '1'"):
        read_xmpuzzle(DATA / "two_problems.xmpuzzle", "1")
    with pytest.raises(InputError, match="write_xmpuzzle needs a region .*, got NoneType"):
        write_xmpuzzle(tmp_path / "t.xmpuzzle", load_pieces("classic").select(["I2"]), None)
    assert not (tmp_path / "t.xmpuzzle").exists()
    for text in (None, b"game = 'ubongo'"):
        with pytest.raises(InputError, match=r"a TOML document is read from its text \(a str\), got "):
            parse_card(text)
    with pytest.raises(InputError, match=r"times is a table \(a pandas.DataFrame\) or a file's path, got NoneType"):
        fit_difficulty(None, None)
