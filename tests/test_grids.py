"""The grid protocol on every grid: groups, text layouts, drawing outlines, bad pictures, polyform censuses.

Expected values come from outside the code: the orders of the symmetry
groups (D4, D6, the cube's 48), hand-drawn pictures, and the OEIS counts of
polyforms (fixed, one-sided, free; mirror images on cubes), each cited.
"""

from __future__ import annotations

import importlib.util
import itertools
import math
import re

import numpy as np

import pytest
from hypothesis import given, settings, strategies as st

from conftest import ROOT
from ubongo_cp.errors import InputError, InputWarning
from ubongo_cp.grids import CUBE, GRIDS, HEX, SQUARE, TRIANGLE, get_grid
from ubongo_cp.polyforms import count_polyforms, fixed_polyforms, free_polyforms

ALL = list(GRIDS.values())


@st.composite
def shapes(draw, grid, max_size=8):
    """A random connected shape grown from an origin of the grid."""
    cells = [draw(st.sampled_from(grid.origins))]
    for _ in range(draw(st.integers(0, max_size - 1))):
        base = draw(st.sampled_from(cells))
        nb = draw(st.sampled_from(grid.neighbours(base)))
        if nb not in cells:
            cells.append(nb)
    return grid.normalize(cells)


@pytest.mark.parametrize("grid", ALL, ids=lambda g: g.name)
def test_symmetries_form_the_published_group(grid):
    # Orders: D4 (8), D6 (12) on hexagons and on the triangular lattice, the cube's 48 (24 rotations).
    assert (grid.n_symmetries, grid.n_rotations) == {"square": (8, 4), "hex": (12, 6), "triangle": (12, 6),
                                                     "cube": (48, 24)}[grid.name]
    # An asymmetric shape has n_symmetries distinct images; composing two symmetries is a third;
    # the rotations alone form a subgroup that never gives a mirror image.
    chiral = {"square": [(0, 0), (0, 1), (0, 2), (1, 0), (2, 1)], "hex": [(0, 0), (1, 0), (2, 0), (0, 1), (2, 2)],
              "triangle": [(0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (1, 4)],
              "cube": [(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 1, 0), (1, 0, 0), (2, 0, 0), (0, 2, 2)]}[grid.name]
    shape = grid.normalize(chiral)
    images = [grid.transform(shape, k) for k in range(grid.n_symmetries)]
    assert len(set(images)) == grid.n_symmetries and images[0] == shape
    for a, b in itertools.product(range(grid.n_symmetries), repeat=2):
        assert grid.transform(images[a], b) in images
    rotations = set(images[:grid.n_rotations])
    assert all(grid.transform(images[a], b) in rotations
               for a, b in itertools.product(range(grid.n_rotations), repeat=2))
    assert not rotations & set(images[grid.n_rotations:])
    assert grid.symmetry_group(shape) == [0]


@pytest.mark.parametrize("grid", ALL, ids=lambda g: g.name)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_symmetries_keep_adjacency_and_text_round_trips(grid, data):
    shape = data.draw(shapes(grid))
    assert grid.is_connected(shape)
    k = data.draw(st.integers(0, grid.n_symmetries - 1))
    image = grid.map_cells(shape, k)
    assert len(set(image)) == len(shape) and grid.normalize(image) == tuple(sorted(image))
    for (a, ia), (b, ib) in itertools.combinations(zip(shape, image), 2):
        assert (b in grid.neighbours(a)) == (ib in grid.neighbours(ia))
    assert grid.parse(grid.format(shape).splitlines()) == shape
    # Normal position is the same for every translation of the grid.
    offset = tuple(data.draw(st.integers(-5, 5)) for _ in range(grid.dim))
    if grid.offset_ok(offset):
        assert grid.normalize([tuple(a + b for a, b in zip(c, offset)) for c in shape]) == shape
    # The vectorised images agree with the cell-by-cell ones.
    assert grid.map_array(np.array([shape]), k).tolist() == [list(map(list, grid.map_cells(shape, k)))]
    # Mapped where the shape lies (moved by the offset, or not): its image in normal position, moved back by as
    # much as the shape is from its normal position; a symmetry of the shape permutes its cells there.
    placed = [tuple(a + b for a, b in zip(c, offset)) for c in shape] if grid.offset_ok(offset) else list(shape)
    back = grid.shift(placed)
    assert grid.map_onto(placed, k) == [tuple(a - b for a, b in zip(c, back)) for c in grid.map_cells(placed, k)]
    for g in grid.symmetry_group(shape):
        assert sorted(grid.map_onto(placed, g)) == sorted(placed)


@settings(max_examples=300, deadline=None)
@given(cells=st.sets(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), min_size=1, max_size=14),
       closure=st.lists(st.integers(0, 7), max_size=2), twice=st.booleans())
def test_square_symmetry_group_is_the_images_compared_whole(cells, closure, twice):
    # The square grid's own symmetry_group (each image tested cell by cell against the shape) against the
    # grid's generic one (each image made in normal position and compared whole), on shapes made symmetric
    # under up to two symmetries (their images added), connected or not, a cell named twice or not.
    from ubongo_cp.grids.base import Grid

    shape = set(cells)
    for k in closure:
        shape |= set(SQUARE.image(sorted(shape), k))
    listed = sorted(shape) + sorted(shape)[:1] * twice
    assert SQUARE.symmetry_group(listed) == Grid.symmetry_group(SQUARE, listed)
    assert SQUARE.symmetry_group([]) == Grid.symmetry_group(SQUARE, []) == list(range(8))
    # by hand: a 3x4 rectangle keeps its half-turn and its two mirrors, a 3x3 square all eight, an L tromino
    # its diagonal mirror
    assert SQUARE.symmetry_group([(r + 5, c - 2) for r in range(3) for c in range(4)]) == [0, 2, 4, 5]
    assert SQUARE.symmetry_group([(r, c) for r in range(3) for c in range(3)]) == list(range(8))
    assert SQUARE.symmetry_group([(0, 0), (1, 0), (1, 1)]) == [0, 7]


def test_square_symmetry_group_of_a_box_is_the_images_compared_whole():
    # A whole box (a rectangle: as many distinct cells as its bounding box holds) answered without testing its
    # images: the same group as the generic method's, on every box of up to 5x5 anywhere, and on the same box
    # less one cell (tested image by image)
    from ubongo_cp.grids.base import Grid

    for rows, cols, r0, c0 in itertools.product(range(1, 6), range(1, 6), (-2, 0, 3), (-1, 0, 4)):
        box = [(r0 + r, c0 + c) for r in range(rows) for c in range(cols)]
        for cells in (box, box[1:], box[::-1]):
            assert SQUARE.symmetry_group(cells) == Grid.symmetry_group(SQUARE, cells), (rows, cols, len(cells))
    assert SQUARE.symmetry_group([(r, c) for r in range(3) for c in range(20)]) == [0, 2, 4, 5]


def test_square_symmetry_group_takes_cells_as_lists_and_array_rows():
    # Cells given as lists (as read from JSON) or as the rows of an int array: the same group as for tuples (a
    # 1x2 domino keeps its half-turn and both mirrors, an L tromino its diagonal mirror), as the generic method
    # gives it, and through the square-only helpers of ubongo_cp.geometry and ubongo_cp.polyominoes.
    from ubongo_cp.geometry import SYMMETRIES, symmetry_group
    from ubongo_cp.grids.base import Grid
    from ubongo_cp.polyominoes import symmetry_order

    domino, tromino = [[0, 0], [0, 1]], np.array([[0, 0], [1, 0], [1, 1]])
    assert SQUARE.symmetry_group(domino) == Grid.symmetry_group(SQUARE, domino) == [0, 2, 4, 5]
    assert SQUARE.symmetry_group(tromino) == Grid.symmetry_group(SQUARE, tromino) == [0, 7]
    assert symmetry_group(domino) == [SYMMETRIES[k] for k in (0, 2, 4, 5)]
    assert (symmetry_order(domino), symmetry_order(tromino)) == (4, 2)


@pytest.mark.parametrize("grid", [SQUARE, HEX, TRIANGLE], ids=lambda g: g.name)
def test_polygons_share_edges_with_the_neighbours_across_them(grid):
    cells = list(grid.frame([grid.origins[0]], 2))
    polys = dict(zip(cells, grid.polygons(cells)))
    for cell in cells:
        poly = polys[cell]
        centre = poly.mean(axis=0)
        assert grid.locate(*centre) == cell
        across = grid.edge_neighbours(cell)
        assert sorted(across) == sorted(grid.neighbours(cell))
        for i, nb in enumerate(across):
            if nb in polys:
                a, b = poly[i], poly[(i + 1) % len(poly)]
                other = polys[nb]
                assert any(np.allclose(a, other[j]) and np.allclose(b, other[j - 1]) for j in range(len(other)))
    side = {"square": 1.0, "hex": 1 / math.sqrt(3), "triangle": 1.0}[grid.name]
    assert np.allclose(np.linalg.norm(np.diff(polys[cells[0]], axis=0), axis=1), side)


def test_hand_drawn_pictures_read_as_drawn():
    # The hexagon of 7: centre (1, 1) and its six neighbours (axial q, r).
    flower = HEX.parse([" # #", "# # #", " # #"])
    assert len(flower) == 7 and set(HEX.neighbours((1, 1))) <= set(flower)
    # The triangle hexagon: 6 triangles round one vertex; the bar of 4 points up, down, up, down.
    assert TRIANGLE.parse(["^v^", "v^v"]) == ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2))
    assert len(TRIANGLE.orientations(TRIANGLE.parse(["^v^v"]))) == 6       # 180-degree symmetric
    # A cube corner (the tetracube "tripod"): 3 cubes in layer 0, 1 above the corner.
    tripod = CUBE.parse(["##", "#.", "--", "#.", ".."])
    assert tripod == ((0, 0, 0), (0, 0, 1), (0, 1, 0), (1, 0, 0))
    assert len(CUBE.orientations(tripod)) == 8 and len(CUBE.orientations(tripod, "mirror")) == 8
    # Text of each grid: offsets rows, alternating triangles, layers with a line of '-'.
    assert HEX.format(flower) == " # #\n# # #\n # #"
    assert CUBE.format(tripod) == "##\n#.\n--\n#.\n.."
    # Blank lines next to a layer separator are no rows: the layers stay above one another. A blank row
    # inside a layer stays a row.
    assert CUBE.parse(["##", "#.", "", "--", "", "#.", "..", ""]) == tripod
    with pytest.warns(InputWarning, match="layers are separated by a line of '-'"):
        assert CUBE.parse(["#.", "", "#."]) == ((0, 0, 0), (0, 2, 0))


def test_a_cube_region_drawn_with_blank_lines_round_its_separator_is_the_box(tmp_path):
    # The 2x2x2 box by 4 dominoes: 9 tilings (by hand: 3 ways with all dominoes along one axis, and 6 with two
    # pairs along two axes), whether or not blank lines surround the '---'.
    from ubongo_cp.cover import build_instance
    from ubongo_cp.pieces import Piece, Region, load_region
    from ubongo_cp.solvers import solve

    path = tmp_path / "box.txt"
    path.write_text("grid: cube\n##\n##\n\n---\n\n##\n##\n")
    region = load_region(path)
    assert region.cells == Region.box(2, 2, 2, grid=CUBE).cells
    domino = Piece("D", ((0, 0, 0), (0, 0, 1)), CUBE)
    assert solve(build_instance([domino] * 4, region), keep=0).count == 9


def test_a_cube_file_with_blank_lines_for_layers_says_how_layers_are_separated(tmp_path, run_cli):
    # A 3x3x3 cube whose layers are parted by blank lines reads, as before, as one layer of 11 rows (blank
    # ones empty): the Soma pieces fit nowhere in it. The reader says how layers are separated, naming the
    # first blank line; a piece file so drawn is refused with the same hint; a file with the '-' lines or
    # a blank row in a layer of several is read without a word.
    import warnings

    from ubongo_cp.pieces import load_region

    region = tmp_path / "cube.txt"
    region.write_text("grid: cube\n###\n###\n###\n\n###\n###\n###\n\n###\n###\n###\n")
    with pytest.warns(InputWarning) as said:
        cells = load_region(region).cells
    assert len(said) == 1 and str(said[0].message) == (
        f"{region}:5: a blank line inside a cube shape is an empty row of its one layer; layers are separated "
        "by a line of '-'")
    assert len(cells) == 27 and {c[0] for c in cells} == {0} and {c[1] for c in cells} == set(range(11)) - {3, 7}
    code, out, err = run_cli("solve", "--pieces", "soma", "--region", region, "--count")
    assert code == 0 and out.startswith("no solution (piece")
    assert err == f"ubongo-cp: {region}:5: a blank line inside a cube shape is an empty row of its one layer; " \
        "layers are separated by a line of '-'\n"
    pieces = tmp_path / "pieces.txt"
    pieces.write_text("grid: cube\n\nA\n##\n#.\n\n..\n#.\n")
    code, out, err = run_cli("solve", "--pieces", pieces, "--region", region)
    assert code == 2 and err == (
        f"ubongo-cp: error: {pieces}:7: block has no piece name (its first line is a shape row); a piece's "
        "layers are separated by a line of '-', a blank line ends the piece\n")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(load_region(ROOT / "ubongo_cp" / "data" / "examples" / "soma_cube.txt").cells) == 27
        assert CUBE.parse(["#.", "", "#.", "--", "#."]) == ((0, 0, 0), (0, 2, 0), (1, 0, 0))
        assert CUBE.parse(["##", "", "--", "", "#."]) == ((0, 0, 0), (0, 0, 1), (1, 0, 0))


@pytest.mark.parametrize("grid, lines, message", [
    (HEX, ["# #", "##"], "'#' in column 1 lies between two hex positions of its row"),
    (HEX, ["# x"], "unknown character 'x'"),
    (TRIANGLE, ["^v", "^"], "'^' in column 1: no such triangle"),
    (TRIANGLE, ["^^"], "'^' in column 2: no such triangle"),
    (TRIANGLE, ["^v^", "^v^"], "directions alternate along a row and from one row to the next (under an up triangle "
                               "lies a down one)"),
    (TRIANGLE, ["#"], "unknown character '#'"),
    (CUBE, ["##", "--", "#x"], "unknown character 'x'"),
    (SQUARE, ["..", ".."], "empty shape"),
    (SQUARE, ["##", "#x"], "unknown character 'x' in a square grid (use '#' for a square, '.' for an empty one; "
                           "a picture on another grid names it on a 'grid:' line)"),
])
def test_pictures_the_grid_cannot_hold_are_refused_with_their_line(grid, lines, message):
    with pytest.raises(InputError, match=re.escape(message)) as err:
        grid.parse(lines, path="p.txt", first_line=7)
    assert err.value.path == "p.txt" and err.value.line >= 7


def test_unknown_grid_and_modes():
    with pytest.raises(InputError, match="unknown grid 'octagon'"):
        get_grid("octagon")
    with pytest.raises(ValueError, match="mirror"):
        SQUARE.orientations([(0, 0)], "mirror")
    assert list(CUBE.modes) == ["free", "mirror", "fixed"]


# ------------------------------------------------------------------ censuses (published values)
@pytest.mark.parametrize("grid, mode, counts, source", [
    ("hex", None, [1, 3, 11, 44, 186, 814, 3652, 16689], "A001207"),
    ("hex", "one-sided", [1, 1, 3, 10, 33, 147, 620, 2821], "A006535"),
    ("hex", "free", [1, 1, 3, 7, 22, 82, 333, 1448], "A000228"),
    ("triangle", None, [2, 3, 6, 14, 36, 94, 250, 675, 1838], "A001420"),
    ("triangle", "one-sided", [1, 1, 1, 4, 6, 19, 43, 120, 307], "A006534"),
    ("triangle", "free", [1, 1, 1, 3, 4, 12, 24, 66, 160], "A000577"),
    ("cube", None, [1, 3, 15, 86, 534, 3481, 23502], "A001931"),
    ("cube", "free", [1, 1, 2, 8, 29, 166, 1023], "A000162"),
    ("cube", "mirror", [1, 1, 2, 7, 23, 112, 607], "A038119"),
    ("square", None, [1, 2, 6, 19, 63, 216, 760], "A001168"),
    ("square", "free", [1, 1, 2, 5, 12, 35, 108], "A000105"),
])
def test_polyform_counts_are_oeis(grid, mode, counts, source):
    assert [count_polyforms(grid, n, mode) for n in range(1, len(counts) + 1)] == counts, source


def test_free_polyforms_are_canonical_and_distinct():
    for grid in ALL:
        found = free_polyforms(grid, 5)
        assert all(grid.canonical(s) == s and grid.is_connected(s) for s in found)
        assert len({frozenset(o for o in grid.orientations(s)) for s in found}) == len(found)
    # The generic enumeration and the census's compiled one agree on squares.
    from ubongo_cp.polyominoes import free_polyominoes

    assert set(free_polyforms("square", 7)) == set(free_polyominoes(7, holes=True))
    assert sum(1 for _ in fixed_polyforms("square", 6)) == 216


@pytest.mark.parametrize("grid", ALL, ids=lambda g: g.name)
def test_orientations_in_c_and_in_python_are_the_images_symmetry_by_symmetry(grid, monkeypatch):
    # Grid.orientations in one pass of the C extension (when built) and in Python (without it), on every free
    # polyform up to 5 cells (4 on cubes) and on shapes the C pass refuses (a coordinate beyond 2**40: the
    # same images in Python): the distinct images of the symmetries one by one (Grid.transform), in order.
    from ubongo_cp.grids import base

    far = 2 ** 41
    shapes = [s for n in range(1, 5 if grid.dim == 3 else 6) for s in free_polyforms(grid, n)]
    shapes += [tuple(tuple(x + far for x in c) for c in shapes[-1])]
    want = {mode: [list(dict.fromkeys(grid.transform(s, k) for k in range(grid.modes[mode]))) for s in shapes]
            for mode in grid.modes}
    for native in (True, False):
        with monkeypatch.context() as m:
            if not native:
                m.setattr(base, "_C_EXTENSION", [None])
            for mode in grid.modes:
                assert [grid.orientations(s, mode) for s in shapes] == want[mode], (native, mode)
    extension = base.c_placements()
    if extension is not None and grid.linear is not None:
        maps = base._flat_maps(grid.linear, 1)
        with pytest.raises(OverflowError, match="^orientations: "):
            extension.orientations([(far,) * grid.dim], maps, 1, grid.dim)
        with pytest.raises(ValueError, match="^orientations: "):
            extension.orientations([(0,) * grid.dim], maps, 2, grid.dim)   # fewer maps than asked for
        with pytest.raises(TypeError, match="^cells: "):
            extension.orientations([("a",) * grid.dim], maps, 1, grid.dim)


@pytest.mark.parametrize("grid", ALL, ids=lambda g: g.name)
def test_orientations_in_one_loop_and_with_numpy_are_the_images_symmetry_by_symmetry(grid):
    # Every free polyform up to 6 cells (5 on cubes), in normal position and moved (by a translation
    # of the grid), in every mode: the orientations are the distinct images of the symmetries one by one
    # (Grid.transform), in the symmetries' order; the fixed counts are OEIS A001168, A001207, A001420,
    # A001931 for n = 5 (63, 186, 36, 534).
    move = {"triangle": (3, -5)}.get(grid.name, (3, -5, 2)[:grid.dim])
    for n in range(1, 6 if grid.dim == 3 else 7):
        shapes = list(free_polyforms(grid, n))
        shapes += [tuple(tuple(a + b for a, b in zip(c, move)) for c in s) for s in shapes[:4]]
        for mode in grid.modes:
            by_symmetry = [list(dict.fromkeys(grid.transform(s, k) for k in range(grid.modes[mode]))) for s in shapes]
            assert [grid.orientations(s, mode) for s in shapes] == by_symmetry, (n, mode)
            assert grid.orientations_many(shapes, mode) == by_symmetry, (n, mode)
        if n == 5:
            assert sum(len(o) for o in grid.orientations_many(shapes[:-4], "free")) \
                == {"square": 63, "hex": 186, "triangle": 36, "cube": 534}[grid.name]


@pytest.mark.parametrize("grid", ALL, ids=lambda g: g.name)
def test_placements_from_orientations_held_as_arrays_are_those_from_their_tuples(grid, monkeypatch):
    # The orientations computed together and held as arrays (Grid.orientations_lazy, their tuples made when
    # read) give the tables of the orientations computed one by one as tuples: same options, same order;
    # pieces of 4 to 6 cells (5 on cubes) with repeated and moved copies, in regions of a few sizes, every mode.
    from ubongo_cp import cover, pieces as pieces_module
    from ubongo_cp.grids.base import LazyOrientations
    from ubongo_cp.pieces import Piece, Region

    move = {"triangle": (3, -5)}.get(grid.name, (3, -5, 2)[:grid.dim])
    boxes = {"square": [(5, 6), (12, 14)], "hex": [(4, 5), (9, 10)], "triangle": [(4, 5), (8, 12)],
             "cube": [(2, 3, 4), (4, 5, 5)]}[grid.name]

    def tables(use, region, mode):
        pieces_module._ORIENT_CACHE.clear()
        cover._FORMS.clear()
        cover._REGIONS.clear()
        inst = cover.build_instance(use, region, mode=mode)
        t = inst.table
        return (inst.types, [a.tobytes() for a in (t.indptr, t.indices, t.option_type, t.option_orientation,
                                                     t.option_offset)], [p.orientations(mode) for p in use])

    for n in range(4, 6 if grid.dim == 3 else 7):
        shapes = list(free_polyforms(grid, n))[:30]
        moved = [tuple(tuple(a + b for a, b in zip(c, move)) for c in s) for s in shapes[:2]]
        use = [Piece(f"P{i}", s, grid) for i, s in enumerate(shapes + moved)] + [Piece("Q", shapes[0], grid)]
        lazy = grid.orientations_lazy([p.cells for p in use], "free")
        assert all(type(o) is LazyOrientations for o in lazy)
        assert [o.least for o in lazy] == [min(o) for o in lazy] == [min(grid.orientations(p.cells)) for p in use]
        distinct = use[:len(shapes)]   # each piece its own shape: one batch, read whole (cover._whole_batch)
        for box in boxes:
            region = Region.box(*box, grid=grid)
            for mode in grid.modes:
                for pieces in (use, distinct):
                    together = tables(pieces, region, mode)
                    with monkeypatch.context() as m:
                        m.setattr(pieces_module, "_MANY_FROM", 10**9)   # one by one, as tuples
                        one_by_one = tables(pieces, region, mode)
                    assert together == one_by_one, (n, box, mode, len(pieces))


@pytest.mark.parametrize("grid", ALL, ids=lambda g: g.name)
def test_orientations_held_as_arrays_whichever_way_repeated_images_are_dropped(grid, monkeypatch):
    # Grid.orientations_lazy, its images' keys and repeated images found by the C extension (when built), or
    # with numpy by comparing each with its shape's earlier ones or with numpy.unique: the orientations of
    # Grid.orientations, their cells, their least and their indices.
    from ubongo_cp.grids import base

    shapes = list(free_polyforms(grid, 5))
    ways = ["pairwise", "unique"] + (["c"] if base.c_placements() is not None else [])
    for way in ways:
        with monkeypatch.context() as m:
            if way != "c":
                m.setattr(base, "c_placements", lambda: None)
            if way == "unique":
                m.setattr(base, "_PAIRWISE_MAX", 0)
            for mode in grid.modes:
                lazy = grid.orientations_lazy(shapes, mode)
                lists = [grid.orientations(s, mode) for s in shapes]
                assert [len(o) for o in lazy] == [len(o) for o in lists]
                assert [o.shapes() for o in lazy] == [list(o) for o in lazy] == lists, (way, mode)
                assert [o.least for o in lazy] == [min(o) for o in lists]
                assert all(np.array_equal(o.array, np.array(s)) for o, s in zip(lazy, lists))
                assert lazy[0].batch.rank().tolist() == [i for o in lists for i in range(len(o))]
                assert lazy[0].batch.reach == tuple(1 + max(c[axis] for o in lists for s in o for c in s)
                                                    for axis in range(grid.dim))
                assert lazy[0].batch.kept.sum(axis=1).tolist() == [len(o) for o in lists]


@pytest.mark.parametrize("grid", ALL, ids=lambda g: g.name)
def test_image_keys_in_c_are_those_of_the_maps_product(grid, monkeypatch):
    # The C extension's image keys (each map's coordinate columns evaluated once per shape as a few linear forms,
    # when its key column is their weighted sum; else a product per map) against the numpy product of the cells
    # and the maps, on every free polyform of 1 to 6 cells (4 on cubes) and every mode.
    from ubongo_cp.grids import base

    if base.c_placements() is None:
        pytest.skip("the C extension is not built")
    for n in range(1, 5 if grid.dim == 3 else 7):
        shapes = list(free_polyforms(grid, n))
        for count in sorted(set(grid.modes.values())):
            radix = 4 * n + 5
            native = grid._codes(shapes, count, radix)
            with monkeypatch.context() as m:
                m.setattr(base, "_C_EXTENSION", [None])
                numpy = grid._codes(shapes, count, radix)
            assert np.array_equal(native[0], numpy[0]) and native[0].shape == (len(shapes), n, count), (n, count)
    # memory: a form's values per cell (a few forms: six on hexagons), not a table per map and coordinate
    if grid.name == "hex":
        import tracemalloc

        n = 100_000
        line = [(q, 0) for q in range(n)]
        radix = 4 * n + 5
        columns = base._code_columns(grid.linear, 12, radix)
        codes = np.empty((1, n, 12), dtype=np.int64)
        tracemalloc.start()
        try:
            base.c_placements().image_keys(line, 1, n, 2, columns, 12, 2, radix, -1, codes)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 96 * n, peak   # the coordinates (16 n bytes), six forms' values (48 n), not 2 x 24 per cell
        assert codes[0, :, 0].tolist() == [q * radix for q in range(n)]   # the identity: (q, 0) has key q * radix
    # a key column that is not the weighted coordinate columns: the product itself (hand-checked: 5x + 2y, 6 and 8,
    # less the key of the least coordinates (0, 3), 5 * 0 + 3)
    from ubongo_cp import _placements

    cols = np.array([[1, 0, 0, 1, 5, 1], [0, 1, 1, 0, 2, 5]], dtype=np.int64)
    codes = np.empty((1, 2, 2), dtype=np.int64)
    _placements.image_keys([(0, 3), (0, 4)], 1, 2, 2, cols, 2, 2, 5, -1, codes)
    assert codes[0].T.tolist() == [[3, 5], [0, 5]]


@pytest.mark.parametrize("pieces", [["I2"], ["I2", "I2", "L3", "I3", "O4", "T4", "L4", "S4"]])
@pytest.mark.parametrize("height", [0, 1990])
def test_a_region_of_few_cells_spread_wide_takes_memory_in_line_with_its_size(pieces, height):
    """Two pairs of cells 100,000 columns apart, or 1,990 rows and columns (a bounding box of about 4 million
    cells): the placements are those of the two pairs alone (hand-checked: a domino fits each pair one way),
    built without shifting the region's mask by every column, nor a table over every cell of the box."""
    import tracemalloc

    from ubongo_cp.cover import build_instance
    from ubongo_cp.pieces import Region, load_pieces

    width = 1990 if height else 100_000
    region = Region(((0, 0), (0, 1), (height, width), (height, width + 1)))
    classic = load_pieces("classic")
    tracemalloc.start()
    try:
        instance = build_instance([classic[name] for name in pieces], region)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    rows = [sorted(instance.option_cells(o)) for o in range(instance.n_options)]
    dominoes = [[(0, 0), (0, 1)], [(height, width), (height, width + 1)]]
    assert rows and all(r in dominoes for r in rows) and dominoes[0] in rows and dominoes[1] in rows
    assert peak < 64 * 2**20  # bytes; shifting by every column took about 1.3 GB


@pytest.mark.parametrize("name, region", [("pentominoes", (6, 10)), ("classic", (4, 5))])
def test_masks_shifted_as_needed_give_the_placements_shifted_at_once(monkeypatch, name, region):
    """The two ways of shifting the region's mask (every offset at once; only those asked for) agree."""
    from ubongo_cp import cover
    from ubongo_cp.pieces import Region, load_pieces

    pieces = load_pieces(name).pieces
    rect = Region.rectangle(*region)
    at_once = cover.build_instance(pieces, rect)
    cover._REGIONS.clear()
    monkeypatch.setattr(cover, "_DENSE_SHIFTED_BITS", 0)
    as_needed = cover.build_instance(pieces, rect)
    cover._REGIONS.clear()
    rows = [[sorted(inst.option_cells(o)) for o in range(inst.n_options)] for inst in (at_once, as_needed)]
    assert rows[0] == rows[1] and len(rows[0]) > 100


def _table_made(pieces, region, c_fill: bool, constants: dict, **kwargs):
    """``build_instance(pieces, region, **kwargs)`` with these constants of :mod:`ubongo_cp.cover` set, the C
    extension hidden unless ``c_fill``, and every cache of placement generation emptied first: the instance
    and the bytes of its table's arrays."""
    from ubongo_cp import cover

    with pytest.MonkeyPatch.context() as m:
        for name, value in constants.items():
            m.setattr(cover, name, value)
        if not c_fill:
            m.setattr(cover, "_c_fill", lambda: None)
        cover._FORMS.clear()
        cover._REGIONS.clear()
        inst = cover.build_instance(pieces, region, **kwargs)
    t = inst.table
    return inst, [a.tobytes() for a in (t.indptr, t.indices, t.option_type, t.option_orientation, t.option_offset)]


@pytest.mark.parametrize("grid", ALL, ids=lambda g: g.name)
def test_placements_found_with_numpy_and_in_plain_python_are_every_fit_of_every_orientation(grid):
    """The ways of making the table (fits and rows with numpy; fits in plain Python, rows with numpy;
    both in plain Python; when the C extension is built, rows in C after fits with numpy or in plain Python,
    and both in C) give the same table, and its rows are the placements
    found by brute force: every orientation moved by every translation of the grid that keeps it inside the
    region (a region with a hole and optional cells, pieces of 4 and 5 cells, repeated and optional pieces)."""
    from ubongo_cp.pieces import Piece, Region

    shapes = list(free_polyforms(grid, 4))[:3] + list(free_polyforms(grid, 5))[:6]
    use = [Piece(f"P{i}", s, grid) for i, s in enumerate(shapes)] + [Piece("Q", shapes[0], grid)]
    box = grid.box(*{"square": (6, 7), "hex": (6, 6), "triangle": (5, 8), "cube": (3, 3, 4)}[grid.name])
    hole, optional = box[len(box) // 2], box[:3]
    region = Region(tuple(c for c in box if c != hole and c not in optional), optional=tuple(optional), grid=grid)

    def table(optional_pieces, c_fill=False, **constants):
        return _table_made(use, region, c_fill, constants, optional_pieces=optional_pieces)

    cells = set(region.cells) | set(region.optional)
    for optional_pieces in (False, True):
        inst, numpy_both = table(optional_pieces, _NUMPY_FITS_FROM=0, _NUMPY_FITS_AREA=0, _NUMPY_FROM=0)
        assert table(optional_pieces, _NUMPY_FITS_FROM=10**9, _NUMPY_FROM=0)[1] == numpy_both
        assert table(optional_pieces, _NUMPY_FITS_FROM=10**9, _NUMPY_FROM=10**9)[1] == numpy_both
        if importlib.util.find_spec("ubongo_cp._placements") is not None:   # built by the install (setup.py)
            assert table(optional_pieces, True, _NUMPY_FITS_FROM=0, _NUMPY_FITS_AREA=0, _NUMPY_FROM=0)[1] \
                == numpy_both
            assert table(optional_pieces, True, _NUMPY_FITS_FROM=10**9)[1] == numpy_both
            # fits found in plain Python, the C fill after them (masks too large to shift by every offset at once)
            assert table(optional_pieces, True, _NUMPY_FITS_FROM=10**9, _DENSE_SHIFTED_BITS=0)[1] == numpy_both
        found = sorted((inst.type_piece(int(inst.option_type[o])).name, tuple(sorted(inst.option_cells(o))))
                       for o in range(inst.n_options))
        brute = set()      # each orientation's first cell moved onto each cell of the region
        for copies in inst.types:
            piece = use[copies[0]]
            for shape in grid.orientations(piece.cells):
                for target in cells:
                    move = tuple(b - a for a, b in zip(shape[0], target))
                    moved = tuple(sorted(tuple(a + b for a, b in zip(c, move)) for c in shape))
                    if grid.offset_ok(move) and cells.issuperset(moved):
                        brute.add((piece.name, moved))
        assert found == sorted(brute) and len(found) > 50, (grid.name, optional_pieces)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(ALL), st.data())
def test_every_way_of_making_the_table_gives_the_same_bytes_on_random_puzzles(grid, data):
    """On random regions (holes, optional cells) and random pieces of mixed sizes in any order (runs of one size
    split and joined), free or fixed, with or without optional pieces: the table found and filled in C, filled in C
    after fits in plain Python, filled in C after fits with numpy, and found and filled in plain Python are the
    same bytes."""
    from ubongo_cp.pieces import Piece, Region

    sizes = data.draw(st.lists(st.integers(1, 5), min_size=1, max_size=6))
    use = [Piece(f"P{i}", data.draw(shapes(grid, max_size=n)), grid) for i, n in enumerate(sizes)]
    box = grid.box(*data.draw(st.sampled_from([(3, 4), (4, 5), (2, 7)] if grid.dim == 2 else [(2, 3, 3), (3, 3, 3)])))
    kind = data.draw(st.lists(st.sampled_from("rrro."), min_size=len(box), max_size=len(box)))
    needed = tuple(c for c, k in zip(box, kind) if k == "r") or (box[0],)   # box[0] needed (not optional) if none is
    region = Region(needed, optional=tuple(c for c, k in zip(box, kind) if k == "o" and c not in needed), grid=grid)
    optional_pieces, mode = data.draw(st.booleans()), data.draw(st.sampled_from(["free", "fixed"]))

    def table(c_fill, **constants):
        return _table_made(use, region, c_fill, constants, optional_pieces=optional_pieces, mode=mode)[1]

    python = table(False, _NUMPY_FITS_FROM=10**9, _NUMPY_FROM=10**9)
    assert table(False, _NUMPY_FITS_FROM=0, _NUMPY_FITS_AREA=0, _NUMPY_FROM=0) == python
    if importlib.util.find_spec("ubongo_cp._placements") is not None:   # built by the install (setup.py)
        assert table(True, _NUMPY_FITS_FROM=10**9) == python                          # found and filled in C
        assert table(True, _NUMPY_FITS_FROM=10**9, _DENSE_SHIFTED_BITS=0) == python   # fits in plain Python
        assert table(True, _NUMPY_FITS_FROM=0, _NUMPY_FITS_AREA=0) == python          # fits with numpy


def test_orientations_of_cells_given_as_lists_arrays_or_far_out_are_those_of_tuples(monkeypatch):
    """Shapes whose cells are lists or numpy rows, shapes far from the origin (beyond 2 ** 24), shapes whose cells
    lie further apart than a connected shape's (pieces need not be connected) and a shape of 1,023 cubes have,
    computed together, the orientations found one by one; pieces and a region far out give
    the table of the same puzzle at the origin (the C extension reads tuples or lists of ints and keys within
    62 bits; anything else takes the numpy way)."""
    from ubongo_cp import cover
    from ubongo_cp import pieces as pieces_module
    from ubongo_cp.grids import base, get_grid
    from ubongo_cp.pieces import Piece, Region

    square, cube = get_grid("square"), get_grid("cube")
    shapes = [((0, 0), (0, 1), (1, 1)), ((0, 0), (1, 0), (1, 1), (2, 1))[:3], ((5, 5), (5, 6), (6, 5))]
    far = 1 << 40
    apart = [((0, 0), (0, 13)), ((0, 0), (1, 12)), ((0, 0), (7, 0))]     # two cells further apart than a domino's
    cases = [(square, [[list(c) for c in s] for s in shapes]), (square, [np.array(s) for s in shapes]),
             (square, apart), (get_grid("hex"), apart), (get_grid("triangle"), [((0, 0), (0, 13)), ((0, 0), (5, 8))]),
             (square, [tuple((x + far, y - far) for x, y in s) for s in shapes]),
             (cube, [tuple((0, 0, i) for i in range(1023)), tuple((0, i, 0) for i in range(1023))])]
    for way in ("c", "numpy"):
        with monkeypatch.context() as m:
            if way == "numpy":
                m.setattr(base, "c_placements", lambda: None)
            for grid, given in cases:
                one_by_one = [grid.orientations([tuple(map(int, c)) for c in s]) for s in given]
                assert grid.orientations_many(given) == one_by_one, (way, grid.name)
    def table(move):
        pieces_module._ORIENT_CACHE.clear()
        cover._FORMS.clear()
        cover._REGIONS.clear()
        use = [Piece(f"P{i}", tuple((x + move, y) for x, y in s)) for i, s in enumerate(shapes)]
        region = Region(tuple((x + move, y) for x in range(3) for y in range(3)))
        inst = cover.build_instance(use, region)
        return inst.n_options, [sorted((x - move, y) for x, y in inst.option_cells(o)) for o in range(inst.n_options)]
    assert table(0) == table(1 << 30) == table(-(1 << 30))
    assert table(0)[0] == 16     # by hand: the three pieces are one type, the L-tromino: 4 orientations x 4 places
    with pytest.raises(InputError, match="beyond the coordinates a placement table holds"):
        table(1 << 40)


@pytest.mark.skipif(importlib.util.find_spec("ubongo_cp._placements") is None, reason="the C fill is not built")
def test_c_orientations_and_region_cells_give_hand_checked_values_and_refuse_bad_buffers():
    """The C extension's images, distinct orientations and region cells check their buffers and cells: ValueErrors,
    nothing written out of bounds; on a domino's two cells and a few region cells they give the keys,
    orientations, bounds and flat positions found by hand."""
    from ubongo_cp import _placements

    cols = np.array([[1, 0, 0, 1, 5, 1], [0, 1, 1, 0, 1, 5]], dtype=np.int64)   # identity, swap; keys base 5
    codes = np.empty((1, 2, 2), dtype=np.int64)
    assert _placements.image_keys([(0, 3), (0, 4)], 1, 2, 2, cols, 2, 2, 5, -1, codes) == 1   # spread 1 on an axis
    assert codes[0].T.tolist() == [[0, 1], [0, 5]]        # (0, 0), (0, 1) and, swapped, (0, 0), (1, 0)
    _placements.image_keys([[0, 3], [0, 4]], 1, 2, 2, cols, 2, 2, 5, -1, codes)   # lists of ints read as tuples
    assert codes[0].T.tolist() == [[0, 1], [0, 5]]

    class Shrinks:     # an int-like whose __index__ would free the cells being read: never called
        def __index__(self):
            cells.clear()
            return 0

    cells = [(Shrinks(), 3), (0, 4)]
    for bad, error, kind in [([(0, 3)], "not N \\* n cells", ValueError), (cells, "not an integer", TypeError),
                             ([(0, 3), (0,)], "another number of coordinates", ValueError),
                             ([(0, 3), (0, 1 << 70)], "too big", OverflowError),
                             ([(0, 3), (0, 1 << 61)], "pass 62 bits", OverflowError),
                             ([(0, 3), np.array([0, 4])], "not a tuple or a list", TypeError),
                             (5, "not a sequence", TypeError)]:
        with pytest.raises(kind, match=error):
            _placements.image_keys(bad, 1, 2, 2, cols, 2, 2, 5, -1, codes)
    assert len(cells) == 2
    for args, error in [((np.empty(3, dtype=np.int64),), "sizes do not match"),
                        ((memoryview(bytearray(33))[1:],), "sizes do not match")]:    # too small; misaligned
        with pytest.raises(ValueError, match=error):
            _placements.image_keys([(0, 3), (0, 4)], 1, 2, 2, cols, 2, 2, 5, -1, *args)
    with pytest.raises(ValueError, match="out of range"):      # sizes checked before any product of them
        _placements.image_keys([], 0, 1, 2, bytearray(16), 3, (1 << 63) - 1, 5, -1, np.empty(0, dtype=np.int64))
    keys, cells = np.empty((2, 2), dtype=np.int64), np.empty((2, 2, 2), dtype=np.int64)
    of_shape, rank = np.empty(2, dtype=np.int32), np.empty(2, dtype=np.int16)
    kept, least = np.empty((1, 2), dtype=bool), np.empty((1, 2), dtype=np.int64)
    out = (keys, cells, of_shape, rank, kept, least)
    assert _placements.distinct(codes, 1, 2, 2, 5, 2, *out) == (2, [2], (2, 2), True)
    assert keys.tolist() == [[0, 1], [0, 5]] and cells.tolist() == [[[0, 0], [0, 1]], [[0, 0], [1, 0]]]
    assert least.tolist() == [[0, 1]] and kept.tolist() == [[True, True]] and rank.tolist() == [0, 1]
    same = np.zeros((1, 2, 2), dtype=np.int64)
    same[0, 1] = 1                                         # both images (0, 0), (0, 1): the second is dropped
    assert _placements.distinct(same, 1, 2, 2, 5, 2, *out)[:2] == (1, [1]) and kept.tolist() == [[True, False]]
    # unique: whether the shapes' least images are all different (each shape a type of its own)
    three = np.array([codes[0], same[0], codes[0, :, ::-1]])   # the first and the third: one shape, images swapped
    def outs(n_shapes):   # the outputs of n_shapes shapes of 2 cells, 2 images each
        return (np.empty((2 * n_shapes, 2), dtype=np.int64), np.empty((2 * n_shapes, 2, 2), dtype=np.int64),
                np.empty(2 * n_shapes, dtype=np.int32), np.empty(2 * n_shapes, dtype=np.int16),
                np.empty((n_shapes, 2), dtype=bool), np.empty((n_shapes, 2), dtype=np.int64))

    found = outs(3)
    assert _placements.distinct(three, 3, 2, 2, 5, 2, *found)[3] is False and found[5].tolist() == [[0, 1]] * 3
    assert _placements.distinct(three[:2], 2, 2, 2, 5, 2, *outs(2))[3] is False   # (0, 0), (0, 1) least of both
    other = np.array([[[0, 0], [5, 10]]], dtype=np.int64)       # (0, 0), (1, 0) and (0, 0), (2, 0)
    assert _placements.distinct(np.concatenate([codes, other]), 2, 2, 2, 5, 2, *outs(2))[3] is True
    with pytest.raises(ValueError, match="negative"):
        _placements.distinct(-same, 1, 2, 2, 5, 2, *out)
    with pytest.raises(ValueError, match="beyond 62 bits"):
        _placements.distinct(same + (1 << 62) + 1, 1, 2, 2, 5, 2, *out)
    with pytest.raises(ValueError, match="sizes out of range"):      # a radix whose digits would overflow
        _placements.distinct(codes, 1, 2, 2, (1 << 62) + 1, 2, *out)
    with pytest.raises(ValueError, match="sizes do not match"):
        _placements.distinct(codes, 1, 2, 2, 5, 2, keys[:1], *out[1:])
    with pytest.raises(ValueError, match="sizes do not match"):      # misaligned
        _placements.distinct(memoryview(bytearray(8 * 4 + 1))[1:], 1, 2, 2, 5, 2, *out)
    # a region's cells: their bounds and flat positions (row-major, strides (10, 1), less 3)
    assert _placements.bounds([(2, 5), (0, 7), (1, 1)], 2)[:2] == ((0, 1), (2, 7))
    assert _placements.bounds([(2, 5), (0, 7)], 2)[2] == _placements.bounds([(2, 5), (0, 7)], 2)[2] \
        != _placements.bounds([(0, 7), (2, 5)], 2)[2]         # the digest: equal cells, equal digests
    assert np.frombuffer(_placements.flatten([(2, 5), (0, 7)], (10, 1), 3), dtype=np.int64).tolist() == [22, 4]
    far = (1 << 62) - 1                                    # far from the origin: exact once the base is taken off
    assert np.frombuffer(_placements.flatten([(far, 5)], (2, 1), 2 * far), dtype=np.int64).tolist() == [5]
    for call, error, kind in [(lambda: _placements.bounds([], 2), "no cells", ValueError),
                              (lambda: _placements.bounds([(1,)], 2), "another number", ValueError),
                              (lambda: _placements.bounds([(1, 2)], 0), "dim out of range", ValueError),
                              (lambda: _placements.bounds([(1, 2.0)], 2), "not an integer", TypeError),
                              (lambda: _placements.flatten([(1, 2)], (1 << 41, 1), 0), "stride is out of range",
                               ValueError),
                              (lambda: _placements.flatten([(1, 1 << 64)], (2, 1), 0), "too big", OverflowError)]:
        with pytest.raises(kind, match=error):
            call()


@pytest.mark.skipif(importlib.util.find_spec("ubongo_cp._placements") is None, reason="the C fill is not built")
@pytest.mark.parametrize("dim", [1, 2, 3, 4])
def test_c_bounds_are_the_least_and_largest_coordinates_and_the_cells_packed(dim):
    """The C pass over a region's cells (cover._bounds; unrolled for 2 and 3 coordinates) gives each axis's least
    and largest coordinate, the coordinates packed as int64 in order, and one digest for equal cells (lists or
    tuples), another for other cells."""
    import random

    from ubongo_cp import _placements

    rng = random.Random(dim)
    for n in (1, 2, 7, 50):
        cells = [tuple(rng.randint(-40, 40) for _ in range(dim)) for _ in range(n)]
        low, high, digest, packed = _placements.bounds(cells, dim)
        assert list(low) == [min(c[d] for c in cells) for d in range(dim)]
        assert list(high) == [max(c[d] for c in cells) for d in range(dim)]
        assert np.frombuffer(packed, dtype=np.int64).tolist() == [x for c in cells for x in c]
        assert _placements.bounds([list(c) for c in cells], dim)[2] == digest
        other = cells[:-1] + [tuple(x + 1 for x in cells[-1])]
        assert _placements.bounds(other, dim)[2] != digest
        mixed = [list(c) if i % 3 == 1 else c for i, c in enumerate(cells)]   # lists among tuples: read alike
        assert _placements.bounds(mixed, dim)[2:] == (digest, packed)
    odd = [(1 << 40,) * dim, (True,) * dim, (-(1 << 40),) * dim]   # ints of more than one digit, an int subclass
    low, high, _, packed = _placements.bounds(odd, dim)
    assert (low, high) == ((-(1 << 40),) * dim, (1 << 40,) * dim)
    assert np.frombuffer(packed, dtype=np.int64).tolist() == [1 << 40] * dim + [1] * dim + [-(1 << 40)] * dim


@pytest.mark.skipif(importlib.util.find_spec("ubongo_cp._placements") is None, reason="the C fill is not built")
def test_c_fill_refuses_indices_outside_its_buffers():
    """The C fill checks every index against its buffer: a cell row outside the shifted masks, a fit beyond
    the item array, an output too small and a buffer off its items' alignment are ValueErrors, and nothing is
    written."""
    from array import array

    from ubongo_cp import _placements

    shifted = np.array([[0b1111], [0b0111]], dtype="<u8")      # two shifted masks of one word
    positions = np.array([0b1111], dtype="<u8")
    for bad in ([[0, 2]], [[-1, 0]], [[0, 1], [1, -(1 << 62)]], [[0, (1 << 63) - 1]], [[-(1 << 63), 0]],
                [[1, 1], [1, 1], [1, 2]]):   # past the last mask, before the first, at the ends of int64
        with pytest.raises(ValueError, match="outside the shifted masks"):
            _placements.fits(shifted, np.array(bad, dtype=np.int64), positions, 2)
    assert _placements.fits(shifted, np.array([[1, 1]], dtype=np.int64), positions, 2)[1] == 3   # the last mask
    masks, n = _placements.fits(shifted, np.array([[0, 1]], dtype=np.int64), positions, 2)
    assert n == 3                                              # bits 0, 1, 2: 0b1111 & 0b0111
    for k in (1, 4, 5, 6, 8, 9, 12):                           # every width of the fit loop: the same AND
        rows = np.array([[j % 2 for j in range(k)], [0] * k], dtype=np.int64)
        big, n = _placements.fits(shifted, rows, positions, k)
        assert np.frombuffer(big, dtype="<u8").tolist() == [0b0111 if k > 1 else 0b1111, 0b1111]
        assert n == (3 if k > 1 else 4) + 4
    item = np.arange(4, dtype=np.uint32)
    offset = np.zeros((4, 2), dtype=np.int32)
    args = (np.array([[0, 1]], dtype=np.int64), item, offset, 2, np.zeros(1, np.int32), np.zeros(1, np.int16), 10)

    def outputs(n_options):
        return (array("I", [0]) * (n_options + 1), array("I", [0]) * (3 * n_options), array("i", [0]) * n_options,
                array("h", [0]) * n_options, array("i", [0]) * (2 * n_options))

    small = outputs(2)
    with pytest.raises(ValueError, match="too small"):
        _placements.fill(masks, 1, 2, *args, *small, 0, 0)
    assert not any(any(a) for a in small)
    with pytest.raises(ValueError, match="outside the array"):   # the fit at 2 has a cell at 2 + 2 = 4
        _placements.fill(masks, 1, 2, np.array([[0, 2]], dtype=np.int64), *args[1:], *outputs(3), 0, 0)
    odd_item = np.frombuffer(bytearray(17), dtype=np.uint8)[1:].view(np.uint32)   # four items at an odd address
    with pytest.raises(ValueError, match="sizes do not match"):
        _placements.fill(masks, 1, 2, args[0], odd_item, *args[2:], *outputs(3), 0, 0)
    out = outputs(3)
    assert _placements.fill(masks, 1, 2, *args, *out, 0, 0) == 3
    assert list(out[0]) == [0, 3, 6, 9] and list(out[1]) == [0, 1, 10, 1, 2, 10, 2, 3, 10]
    # the bounds are checked for all orientations at once, else one by one: orientation 0 fits at 2 with cells 0
    # and 1 (reach 3), orientation 1 fits at 0 with cells 0 and 3 (reach 3), but 2 + 3 >= 4 positions; and
    # orientation 2 has no fit, so its far cell is never read
    two = np.array([0b0100, 0b0001, 0], dtype="<u8").tobytes()
    flats = np.array([[0, 1], [0, 3], [0, 2**40]], dtype=np.int64)
    out = outputs(2)
    assert _placements.fill(two, 1, 2, flats, item, offset, 2, np.array([0, 1, 1], np.int32),
                            np.zeros(3, np.int16), 10, *out, 0, 0) == 2
    assert list(out[1]) == [2, 3, 10, 0, 3, 11]
    with pytest.raises(ValueError, match="outside the array"):   # orientation 1 at 1: its cell 3 at 4
        _placements.fill(np.array([0b0100, 0b0010, 0], dtype="<u8").tobytes(), 1, 2, flats, item, offset, 2,
                         np.array([0, 1, 1], np.int32), np.zeros(3, np.int16), 10, *outputs(2), 0, 0)
    # sizes that overflow a 64-bit product, offsets at the end of the integers: errors, not crashes
    with pytest.raises(ValueError):
        _placements.fits(shifted, np.array([[0, 1]], dtype=np.int64), positions, 2**61)
    for words, k, dim, o0, e0 in [(2**61, 2, 2, 0, 0), (2**61 + 1, 2, 2, 0, 0), (1, 2, 2**62, 0, 0),
                                  (1, 2, 2, 0, 2**63 - 1), (1, 2, 2, 2**63 - 2, 0)]:
        with pytest.raises(ValueError):
            _placements.fill(masks, words, k, args[0], item, offset, dim, *args[4:], *outputs(3), o0, e0)
    with pytest.raises(ValueError, match="outside the array"):   # a flat offset that wraps a 64-bit sum
        _placements.fill(masks, 1, 2, np.array([[0, 2**63 - 1]], dtype=np.int64), *args[1:], *outputs(3), 0, 0)
    # the masks read are the indptr written (the same memory): the fits are those counted before any write
    shared = np.zeros(96, dtype=np.uint8)
    shared[0] = 1                                              # one fit, at position 0; written as option 2
    view = memoryview(shared)
    assert _placements.fill(view[0:16], 2, 1, np.array([[0]], dtype=np.int64), item, offset, 2,
                            np.array([7], np.int32), np.array([5], np.int16), 10, view[0:16], view[16:24],
                            view[24:36], view[36:42], view[48:72], 2, 0) == 1
    assert not shared[72:].any()


def _covers_brute_force(grid, pieces, required, optional) -> int:
    """Sets of placements of distinct pieces, pairwise disjoint, inside ``required | optional``, covering every
    required cell, each placement on at least one required cell (Knuth's rule: an option covering no primary
    item is never chosen); found by trying, for the least uncovered required cell, every placement of an
    unused piece on it (each set once)."""
    allowed = set(required) | set(optional)
    placements = []                     # (piece index, cells) moved onto every allowed cell
    for i, piece in enumerate(pieces):
        seen = set()
        for shape in grid.orientations(piece.cells):
            for target in allowed:
                move = tuple(b - a for a, b in zip(shape[0], target))
                moved = frozenset(tuple(a + b for a, b in zip(c, move)) for c in shape)
                if grid.offset_ok(move) and moved <= allowed and moved not in seen:
                    seen.add(moved)
                    placements.append((i, moved))
    order = sorted(required)

    def count(used, covered):
        todo = [c for c in order if c not in covered]
        if not todo:
            return 1
        return sum(count(used | {i}, covered | cells) for i, cells in placements
                   if i not in used and todo[0] in cells and not cells & covered)
    return count(frozenset(), frozenset())


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(ALL), st.data())
def test_optional_pieces_on_optional_cells_count_the_same_on_every_backend(grid, data):
    """With optional pieces, a placement on optional cells only covers no primary item and is left out, so every
    backend counts the same covers, and as many as a brute force over the pieces' orientations."""
    from ubongo_cp.cover import build_instance
    from ubongo_cp.pieces import Piece, Region
    from ubongo_cp.solvers import solve

    sizes = data.draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
    pieces = [Piece(f"P{i}", data.draw(st.sampled_from(list(free_polyforms(grid, n)))), grid)
              for i, n in enumerate(sizes)]
    box = grid.box(*{"square": (2, 3), "hex": (2, 3), "triangle": (2, 3), "cube": (1, 2, 3)}[grid.name])
    kind = data.draw(st.lists(st.sampled_from("rro."), min_size=len(box), max_size=len(box)))
    required = [c for c, k in zip(box, kind) if k == "r"] or [box[0]]
    optional = [c for c, k in zip(box, kind) if k == "o" and c not in required]
    inst = build_instance(pieces, Region(tuple(required), optional=tuple(optional), grid=grid), optional_pieces=True)
    expected = _covers_brute_force(grid, pieces, required, optional)
    for backend in ("dlx", "xcover", "sat", "cpsat", "zdd"):
        assert solve(inst, backend=backend, limit=None, keep=0).count == expected, backend


def test_a_piece_on_optional_cells_only_is_no_placement_of_an_optional_piece():
    """Hand-counted: one required cell and two optional cells in a row, a monomino A and a domino B, both
    optional. A and B each have one placement on the required cell; the covers are {A} and {B}; A on an
    optional cell, or B on the two optional cells, covers no required cell and is no placement."""
    from ubongo_cp.cover import build_instance
    from ubongo_cp.pieces import Piece, Region
    from ubongo_cp.solvers import solve

    region = Region(((0, 0),), optional=((0, 1), (0, 2)))
    inst = build_instance([Piece("A", ((0, 0),)), Piece("B", ((0, 0), (0, 1)))], region, optional_pieces=True)
    assert sorted(sorted(inst.option_cells(o)) for o in range(inst.n_options)) == [[(0, 0)], [(0, 0), (0, 1)]]
    for backend in ("dlx", "sat", "cpsat", "zdd"):
        assert solve(inst, backend=backend, limit=None, keep=0).count == 2, backend
    both = build_instance([Piece("A", ((0, 0),)), Piece("B", ((0, 0), (0, 1)))], region)   # pieces required
    # both placed: A on (0,0) and B on the optional cells, or B on (0,0)-(0,1) and A on (0,2)
    assert solve(both, backend="dlx", limit=None, keep=0).count == 2


@pytest.mark.parametrize("c_fill", [True, False])
def test_no_piece_type_left_is_an_empty_table_on_every_path(monkeypatch, c_fill):
    """A range whose piece cannot fit the region (4 cells in 3) drops its only type: no placement, whichever way
    the table is made."""
    from ubongo_cp import cover
    from ubongo_cp.pieces import Piece, Region

    monkeypatch.setattr(cover, "_NUMPY_FITS_FROM", 0)
    monkeypatch.setattr(cover, "_NUMPY_FITS_AREA", 0)
    if not c_fill:
        monkeypatch.setattr(cover, "_c_fill", lambda: None)
    region = Region(((10, 3), (10, 5)), optional=((10, 4),))
    inst = cover.build_instance([Piece("P0", ((0, 0), (0, 1), (0, 2), (1, 1)))], region, ranges={"P0": (0, 3)})
    assert (inst.n_types, inst.n_options, list(inst.table.indptr)) == (0, 0, [0])


def test_the_layouts_of_many_large_regions_are_not_all_kept():
    """Regions of two dominoes 300 rows and columns apart (a bounding box of about 90,000 cells): each layout
    holds megabytes, and the cache keeps a bounded number of them."""
    import tracemalloc

    from ubongo_cp import cover
    from ubongo_cp.pieces import Region, load_pieces

    use = load_pieces("classic").select(["I2", "L3"])
    cover._REGIONS.clear()
    tracemalloc.start()
    try:
        for h in range(300, 330):
            inst = cover.build_instance(use, Region(((0, 0), (0, 1), (h, h), (h, h + 1))))
            assert inst.n_options == 2          # a domino on each pair, hand-checked
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        cover._REGIONS.clear()
    assert peak < cover._CACHE_BYTES + (32 << 20)   # bytes; all 30 layouts kept took about 140 MB


@pytest.mark.parametrize("dims", [(5, 9), (9, 12), (14, 20), (2, 2100)])
def test_the_c_fill_gives_the_plain_python_table_on_masks_of_many_words(dims):
    """The C fill's loops unrolled for masks of up to 6 words (and run-time sizes beyond), and its bounds pass that
    takes up to 64 words at once (beyond, as on 2 x 2100: mask by mask), write the table found and filled in plain
    Python, on a region with holes."""
    from ubongo_cp.pieces import Piece, Region

    grid = GRIDS["square"]
    box = grid.box(*dims)
    region = Region(tuple(c for i, c in enumerate(box) if i % 7 != 3), grid=grid)
    use = [Piece(f"P{i}", s, grid) for i, s in enumerate(free_polyforms(grid, 4))]
    python = _table_made(use, region, False, {"_NUMPY_FITS_FROM": 10**9, "_NUMPY_FROM": 10**9})[1]
    if importlib.util.find_spec("ubongo_cp._placements") is None:
        pytest.skip("the C extension is not built")
    for constants in ({"_NUMPY_FITS_FROM": 10**9}, {"_NUMPY_FITS_FROM": 0, "_NUMPY_FITS_AREA": 0},
                      {"_NUMPY_FITS_FROM": 10**9, "_DENSE_SHIFTED_BITS": 0}):
        assert _table_made(use, region, True, constants)[1] == python


def test_a_region_layouts_arrays_are_published_whole_for_threads_building_at_once(monkeypatch):
    """The numpy arrays of a region's layout are made whole and then published in one step: while they are being
    made (here: at the calls made in the middle of it), another thread building on the same region sees none of
    them, so it makes them itself rather than reading a half-made layout (a KeyError before)."""
    import numpy  # noqa: F401  (the numpy ways)

    from ubongo_cp import cover
    from ubongo_cp.pieces import Region, load_pieces

    seen: list[set] = []
    arrays_of: list[dict] = []
    native_layout, words = cover._native_layout, cover._words

    def spy_native(layout):
        arrays_of.append(layout[6])
        seen.append(set(layout[6]))
        return native_layout(layout)

    def spy_words(masks, nbytes):
        if arrays_of:
            seen.append(set(arrays_of[-1]))
        return words(masks, nbytes)

    monkeypatch.setattr(cover, "_native_layout", spy_native)
    monkeypatch.setattr(cover, "_words", spy_words)
    cover._REGIONS.clear()
    cover._FORMS.clear()
    inst = cover.build_instance(load_pieces("pentominoes").pieces, Region.rectangle(12, 15))
    assert inst.n_options > 0 and len(seen) >= 2
    assert not seen[0]                                      # nothing of the layout's arrays while they are made
    assert not {"windows", "shifted", "positions"} & seen[1]    # nor of the shifted masks while they are made
    assert {"item", "offset", "bits", "used", "shifted", "positions"} <= set(arrays_of[-1])


_POLYFORMS: dict = {}   # the free polyforms of a grid and size (_POLYFORMS[name, size]), made once


def _brute_orientations(grid, cells, mode):
    """The distinct images of ``cells`` under the first ``modes[mode]`` symmetries, each found with
    :meth:`Grid.image` and put in normal position (no cache, no C, no batch)."""
    seen: dict = {}
    for k in range(grid.modes[mode]):
        seen.setdefault(grid.normalize(grid.image([tuple(c) for c in cells], k)), None)
    return list(seen)


def _brute_table(grid, use, region, mode):
    """The pieces' types (indices grouped by least orientation, by first index) and the placements
    (first piece of the type, sorted cells), each orientation's first cell moved onto each cell of the region."""
    groups: dict = {}
    for i, p in enumerate(use):
        groups.setdefault(min(_brute_orientations(grid, p.cells, mode)), []).append(i)
    cells = set(region.cells) | set(region.optional)
    placements = set()
    for group in groups.values():
        first = use[group[0]]
        for shape in _brute_orientations(grid, first.cells, mode):
            for target in cells:
                move = tuple(b - a for a, b in zip(shape[0], target))
                moved = tuple(sorted(tuple(a + b for a, b in zip(c, move)) for c in shape))
                if grid.offset_ok(move) and cells.issuperset(moved):
                    placements.add((first.name, moved))
    return sorted(tuple(g) for g in groups.values()), placements


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(ALL), st.data())
def test_cold_warm_new_region_and_plain_python_tables_are_the_brute_force_ones(grid, data):
    """Random pieces of 1 to 7 cells (5 on cubes; often all of one size, so that a set seen first is read as one
    batch), rotated and mirrored, their copies under the same name and other names and their mirror images, in any
    order, every mode; a random region with holes and optional cells, from one cell or one row up; caches emptied
    or left as earlier examples filled them (other grids, other sets, the same names for other shapes): the types
    and placements of a cold build (orientations computed and cached), a warm one, one on a region not seen yet,
    and of the plain Python way (the C extension hidden, orientations one by one, the table filled in Python) are
    those found by brute force."""
    from ubongo_cp import cover, pieces as pieces_module
    from ubongo_cp.grids import base
    from ubongo_cp.pieces import Piece, Region

    top = 5 if grid.dim == 3 else 7
    if data.draw(st.booleans()):   # of one size (a set seen first: one batch)
        size = data.draw(st.integers(1, top))
        if (grid.name, size) not in _POLYFORMS:
            _POLYFORMS[grid.name, size] = list(free_polyforms(grid, size))
        drawn = data.draw(st.lists(st.sampled_from(_POLYFORMS[grid.name, size]), min_size=3, max_size=8))
    else:
        drawn = data.draw(st.lists(shapes(grid, max_size=top), min_size=1, max_size=7))
    use = []
    for i, cells in enumerate(drawn):
        cells = grid.image(list(cells), data.draw(st.integers(0, grid.n_symmetries - 1)))
        use.append(Piece(f"P{i}", cells, grid))
    for p in list(use):
        extra = data.draw(st.sampled_from(["", "", "", "", "copy", "other name", "mirror", "mirror"]))
        if extra == "copy":
            use.append(p)
        elif extra == "other name":
            use.append(Piece(p.name + "b", grid.image(list(p.cells), grid.n_rotations - 1), grid))
        elif extra == "mirror":
            use.append(Piece(p.name + "m", grid.image(list(p.cells), grid.n_symmetries - 1), grid))
    use = data.draw(st.permutations(use))
    mode = data.draw(st.sampled_from(list(grid.modes)))
    dims = data.draw(st.sampled_from([(1, 1), (1, 6), (2, 2), (3, 4), (4, 5), (2, 9)] if grid.dim == 2
                                     else [(1, 1, 4), (2, 2, 2), (2, 3, 3), (3, 3, 3)]))
    box = grid.box(*dims)
    kind = data.draw(st.lists(st.sampled_from("rrrro."), min_size=len(box), max_size=len(box)))
    kind[0] = kind[0] if "r" in kind else "r"
    region = Region(tuple(c for c, k in zip(box, kind) if k == "r"),
                    optional=tuple(c for c, k in zip(box, kind) if k == "o"), grid=grid)

    def table(inst):
        return (sorted(tuple(t) for t in inst.types),
                {(inst.type_piece(int(inst.option_type[o])).name, tuple(sorted(inst.option_cells(o))))
                 for o in range(inst.n_options)})

    want = _brute_table(grid, use, region, mode)
    if data.draw(st.integers(0, 3)):
        pieces_module._ORIENT_CACHE.clear()
        cover._FORMS.clear()
        cover._REGIONS.clear()
    assert table(cover.build_instance(use, region, mode=mode)) == want                 # cold (or as left)
    assert table(cover.build_instance(use, region, mode=mode)) == want                 # warm
    assert table(cover.build_instance(list(use), Region(region.cells, grid=grid, optional=region.optional),
                                      mode=mode)) == want                                # new region, new list
    with pytest.MonkeyPatch.context() as m:
        m.setattr(base, "_C_EXTENSION", [None])
        m.setattr(pieces_module, "_MANY_FROM", 10**9)
        m.setattr(cover, "_NUMPY_FITS_FROM", 10**9)
        m.setattr(cover, "_NUMPY_FROM", 10**9)
        pieces_module._ORIENT_CACHE.clear()
        cover._FORMS.clear()
        cover._REGIONS.clear()
        assert table(cover.build_instance(use, region, mode=mode)) == want             # plain Python
    pieces_module._ORIENT_CACHE.clear()   # nothing made in plain Python left for the next examples
    cover._FORMS.clear()
    cover._REGIONS.clear()


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(ALL), st.data())
def test_counts_of_small_puzzles_read_as_one_batch_are_the_brute_force_ones(grid, data):
    """Small puzzles whose pieces fill a box exactly (pieces of 1 to 4 cells, rotated, a piece and its copy or
    mirror image, every mode), their orientations computed cold: the default solve and dlx count the exact
    covers found by brute force (each piece on each of its brute-force placements; copies of one type, UP-5, not
    told apart)."""
    from ubongo_cp import cover, pieces as pieces_module
    from ubongo_cp.pieces import Piece, Region
    from ubongo_cp.solvers import solve

    box = grid.box(*data.draw(st.sampled_from([(2, 4), (3, 3), (1, 6), (2, 3)] if grid.dim == 2
                                              else [(1, 2, 4), (2, 2, 2), (1, 3, 3)])))
    area, use = len(box), []
    while sum(len(p.cells) for p in use) < area:
        n = min(data.draw(st.integers(1, 4)), area - sum(len(p.cells) for p in use))
        if use and len(use[-1].cells) == n and data.draw(st.booleans()):   # the last piece again, or mirrored
            cells = grid.image(list(use[-1].cells), data.draw(st.sampled_from([0, grid.n_symmetries - 1])))
        else:
            if (grid.name, n) not in _POLYFORMS:
                _POLYFORMS[grid.name, n] = list(free_polyforms(grid, n))
            cells = grid.image(list(data.draw(st.sampled_from(_POLYFORMS[grid.name, n]))),
                               data.draw(st.integers(0, grid.n_symmetries - 1)))
        use.append(Piece(f"P{len(use)}", cells, grid))
    mode = data.draw(st.sampled_from(list(grid.modes)))
    region = Region(tuple(box), grid=grid)
    types, placements = _brute_table(grid, use, region, mode)
    options = {use[t[0]].name: [set(cells) for name, cells in placements if name == use[t[0]].name] for t in types}
    left = {use[t[0]].name: len(t) for t in types}

    def covers(covered: set) -> int:   # the least cell not covered yet: each piece type left on each placement there
        if len(covered) == area:
            return 1
        cell = min(c for c in box if c not in covered)
        total = 0
        for name, count in left.items():
            if count:
                left[name] -= 1
                total += sum(covers(covered | cells) for cells in options[name] if cell in cells and
                             not cells & covered)
                left[name] += 1
        return total

    want = covers(set())
    pieces_module._ORIENT_CACHE.clear()
    cover._FORMS.clear()
    cover._REGIONS.clear()
    inst = cover.build_instance(use, region, mode=mode)
    assert solve(inst).count == solve(inst, backend="dlx").count == want


class _EmptiedByAnotherThread(dict):
    """An orientation cache that another thread empties right after each update (at its size limit)."""

    def update(self, *args, **kwargs):
        super().update(*args, **kwargs)
        self.clear()


@pytest.mark.parametrize("copies", [0, 2])
def test_a_set_seen_first_keeps_its_orientations_when_the_cache_is_emptied_meanwhile(monkeypatch, copies):
    # The 7 tetrahexes (and two copies of the first under other names) read as one batch: what each piece gets
    # does not depend on the shared cache after the batch was made (another thread may empty it); the copies
    # take one and the same orientations; each is what a build with an ordinary cache gives.
    from ubongo_cp import pieces as pieces_module
    from ubongo_cp.pieces import Piece, orientations_of

    shapes = free_polyforms("hex", 4)
    assert len(shapes) == 7
    use = [Piece(f"P{i}", s, HEX) for i, s in enumerate(shapes)] + \
        [Piece(f"C{i}", shapes[0], HEX) for i in range(copies)]
    monkeypatch.setattr(pieces_module, "_ORIENT_CACHE", {})
    expected = [list(o) for o in orientations_of(use, "free")]
    assert [set(o) for o in expected] == [{HEX.transform(p.cells, k) for k in range(12)} for p in use]
    monkeypatch.setattr(pieces_module, "_ORIENT_CACHE", _EmptiedByAnotherThread())
    got = orientations_of(use, "free")
    assert [list(o) for o in got] == expected
    assert all(got[7 + i] is got[0] for i in range(copies))


@pytest.mark.parametrize("grid, dims, cells", [
    ("square", (2, 3), 6), ("hex", (2, 3), 6), ("triangle", (2, 3), 12), ("cube", (2, 2, 3), 12)])
def test_a_region_to_ascii_is_read_back_by_from_ascii_and_as_a_file(grid, dims, cells, tmp_path):
    # Region.to_ascii() of a hexagon, triangle or cube region gave the bare picture, which from_ascii (and a
    # region file) read as squares: "unknown character ' ' in a square grid".
    from ubongo_cp.pieces import Region, load_region

    region = Region.box(*dims, grid=grid)
    assert region.area == cells
    text = region.to_ascii()
    assert Region.from_ascii(text) == region
    (tmp_path / "r.txt").write_text(text + "\n")
    assert load_region(tmp_path / "r.txt").cells == region.cells
    assert load_region(tmp_path / "r.txt").grid is get_grid(grid)
    picture = get_grid(grid).format(region.cells)   # the bare picture, with the grid named apart
    assert Region.from_ascii(picture, grid=grid) == region


@pytest.mark.skipif(importlib.util.find_spec("ubongo_cp._placements") is None, reason="the C fill is not built")
def test_c_image_keys_read_nested_shapes_and_members_are_made_in_c():
    """The C extension reads the shapes themselves (nested: no list of their cells made first) as it reads their
    cells one after the other, refusing a wrong number of shapes or cells; and it makes an orientation batch's
    members (:class:`~ubongo_cp.grids.base.LazyOrientations`, instance i with the batch and number i)."""
    from ubongo_cp import _placements
    from ubongo_cp.grids.base import LazyOrientations

    cols = np.array([[1, 0, 0, 1, 5, 1], [0, 1, 1, 0, 1, 5]], dtype=np.int64)   # identity, swap; keys base 5
    codes = np.empty((1, 2, 2), dtype=np.int64)
    assert _placements.image_keys([((0, 3), (0, 4))], 1, 2, 2, cols, 2, 2, 5, -1, codes, True) == 1
    assert codes[0].T.tolist() == [[0, 1], [0, 5]]        # (0, 0), (0, 1) and, swapped, (0, 0), (1, 0)
    for bad, error, kind in [([((0, 3), (0, 4))] * 2, "not N shapes", ValueError),
                             ([((0, 3),)], "a shape has not n cells", ValueError),
                             ([5], "not a sequence of cells", TypeError),
                             ([((0, 3), (0,))], "another number of coordinates", ValueError)]:
        with pytest.raises(kind, match=error):
            _placements.image_keys(bad, 1, 2, 2, cols, 2, 2, 5, -1, codes, True)
    batch = object()
    made = _placements.members(LazyOrientations, batch, 3)
    assert [type(m) for m in made] == [LazyOrientations] * 3
    assert [m.batch for m in made] == [batch] * 3 and [m.number for m in made] == [0, 1, 2]
    assert _placements.members(LazyOrientations, batch, 0) == []
    with pytest.raises(ValueError, match="negative"):
        _placements.members(LazyOrientations, batch, -1)

    class Plain:   # attributes in a dict, not slots: set by name
        pass

    class Made:    # slots, but its own __new__
        __slots__ = ("batch", "number", "made")

        def __new__(cls):
            self = super().__new__(cls)
            self.made = True
            return self

    for cls in (Plain, Made):
        made = _placements.members(cls, batch, 2)
        assert [type(m) for m in made] == [cls] * 2 and [(m.batch, m.number) for m in made] == [(batch, 0), (batch, 1)]
    assert all(m.made for m in made)


@pytest.mark.skipif(importlib.util.find_spec("ubongo_cp._placements") is None, reason="the C fill is not built")
@pytest.mark.parametrize("grid", [g for g in ALL if g.linear is not None], ids=lambda g: g.name)
def test_c_forms_writes_what_image_keys_then_distinct_write(grid):
    """The C extension's ``forms`` (the images' keys and the repeated images in one pass) writes the arrays and
    returns what ``image_keys`` then ``distinct`` do, for pieces of 1 to 8 cells, moved copies among them, in every
    mode; it writes nothing and returns None for 9 cells and for cells further apart than a radix holds (the two
    calls are then taken)."""
    from ubongo_cp import _placements
    from ubongo_cp.grids.base import _code_columns, _distinct_outputs

    def both(shapes, count, radix):
        n, dim = len(shapes[0]), grid.dim
        columns = _code_columns(grid.linear, count, radix)
        fused = _distinct_outputs(len(shapes), n, count, dim)
        for a in fused:
            a.fill(0)
        found = _placements.forms(shapes, len(shapes), n, columns, count, dim, radix, *fused)
        codes = np.empty((len(shapes), n, count), dtype=np.int64)
        extent = _placements.image_keys(shapes, len(shapes), n, dim, columns, count, dim, radix, -1, codes, True)
        two = _distinct_outputs(len(shapes), n, count, dim)
        return found, fused, extent, _placements.distinct(codes, len(shapes), n, count, radix, dim, *two), two

    for n in range(1, 10 if grid.dim == 2 else 6):
        shapes = list(free_polyforms(grid, n))[:60]
        shapes += [tuple(tuple(c + 7 * (i + 1) for i, c in enumerate(cell)) for cell in s) for s in shapes[:3]]
        for count in sorted(set(grid.modes.values())):
            found, fused, extent, expected, two = both(shapes, count, 4 * n + 5)
            if n > 8:
                assert found is None and not any(a.any() for a in fused)
                continue
            assert extent + 2 <= 4 * n + 5 and found == expected, (n, count)
            rows = found[0]
            for mine, theirs in zip(fused, two):
                same = mine[:rows] if mine.shape[0] == len(shapes) * count else mine
                assert np.array_equal(same, theirs[:rows] if mine.shape[0] == len(shapes) * count else theirs)
    line = [tuple((0, j) if grid.dim == 2 else (0, j, 0) for j in range(0, 30, 10))]   # 21 apart: beyond radix 17
    assert both(line, grid.n_symmetries, 17)[0] is None


def test_types_and_plans_of_one_batch_are_cached_by_the_batch_and_apart_from_other_lists():
    """The types and the plan of one orientation batch's members, all of them in order, are cached under the batch's
    identity; a list of some of them, or of them in another order, has its own: each build after the first gives
    the table a build with empty caches gives."""
    from ubongo_cp import cover, pieces as pieces_module
    from ubongo_cp.grids import HEX
    from ubongo_cp.pieces import Piece, Region

    use = [Piece(f"P{i}", s, HEX) for i, s in enumerate(free_polyforms(HEX, 4))]
    region = Region.box(4, 5, grid=HEX)

    def table(pieces):
        inst = cover.build_instance(pieces, region)
        return inst.types, [a.tobytes() for a in (inst.table.indptr, inst.table.indices, inst.table.option_type)]

    pieces_module._ORIENT_CACHE.clear()
    cover._FORMS.clear()
    orders = [use, use[::-1], use[1:], use]
    warm = [table(pieces) for pieces in orders]     # one batch (the first and last), then other lists of its members
    assert any(key[:2] == ("plan", "batch") for key in cover._FORMS if type(key) is tuple)
    cold = []
    for pieces in orders:
        pieces_module._ORIENT_CACHE.clear()
        cover._FORMS.clear()
        cold.append(table(pieces))
    assert warm == cold
    assert warm[1][1] != warm[0][1]   # (the orders give other tables)
