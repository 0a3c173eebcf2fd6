"""Hexagons, triangles and cubes through the steps above the solvers: census, analysis, batch, pictures.

Expected values come from outside the code: OEIS counts of fixed
polyforms (a census of single pieces must find every free polyform once,
with symmetry orders whose orbits add up to the fixed count), Polyform
Puzzler's tetrahex count, and the geometry of the cells drawn (a hexagon
has 6 corners and is one cell wide, a triangle has 3 and sides one cell
long, cube layers are squares).
"""

from __future__ import annotations

import json
import shutil

import matplotlib.colors as mcolors
import numpy as np
import pytest

from ubongo_cp.grids import CUBE, HEX, TRIANGLE

from conftest import PUZZLES, one_line_error

DECKS = [("hexagons", HEX, 6), ("triangles", TRIANGLE, 3), ("cubes", CUBE, 4)]


# ------------------------------------------------------------------ census
@pytest.mark.parametrize("pieces, n, fixed", [
    ("tetrahexes", 4, 44),    # OEIS A001207: 44 fixed tetrahexes
    ("pentiamonds", 5, 36),   # OEIS A001420: 36 fixed pentiamonds
])
def test_a_census_of_single_pieces_finds_every_polyform_once(pieces, n, fixed, tmp_path):
    from ubongo_cp.census import read_census, run_census
    from ubongo_cp.grids import get_grid
    from ubongo_cp.pieces import load_pieces

    piece_set = load_pieces(pieces)
    grid = get_grid(piece_set.grid)
    outcome = run_census(pieces, 1, n, out_dir=tmp_path / "c", progress=False)
    df = read_census(tmp_path / "c")
    assert outcome.regions == len(df) == len(piece_set.pieces)
    assert (df["matching_subsets"] == len(piece_set.pieces)).all()
    assert (df["tiling_subsets"] == 1).all() and (df["unique_subsets"] == 1).all() and (df["solutions"] == 1).all()
    assert sorted(s for sets in df["unique_sets"] for s in sets) == sorted(piece_set.names)
    # Orbit-stabiliser: every fixed polyform is an image of exactly one free one.
    assert sum(grid.n_symmetries // s for s in df["symmetry"]) == fixed
    # The region keys read back on the pieces' grid.
    from ubongo_cp.census.spec import region_from_text

    assert all(region_from_text(key, grid).grid is grid and region_from_text(key, grid).area == n for key in df["region"])


def test_a_cube_census_tells_mirror_images_apart(tmp_path):
    from ubongo_cp.census import read_census, run_census

    run_census("tetracubes", 1, 4, out_dir=tmp_path / "c", progress=False)
    df = read_census(tmp_path / "c")
    # 8 tetracubes with mirror images distinct (OEIS A000162); the two chiral screws each tile only their own.
    assert len(df) == 8 and (df["unique_subsets"] == 1).all()
    assert sorted(s for sets in df["unique_sets"] for s in sets) == ["A4", "B4", "I4", "L4", "O4", "P4", "S4", "T4"]
    # Symmetry orders in the cube's 48: the orbits of the 7 shapes up to reflection add up to the 86 fixed
    # tetracubes (OEIS A001931); the two screws share one orbit of 48 / 2.
    sym = dict(zip((sets[0] for sets in df["unique_sets"]), df["symmetry"]))
    assert sym["A4"] == sym["B4"] == 2
    assert sum(48 // s for name, s in sym.items() if name != "B4") == 86


# ------------------------------------------------------------------ analysis and CLI
def test_analyze_tetrahexes_in_the_parallelogram(run_cli):
    code, out, err = run_cli("analyze", "--pieces", "tetrahexes", "--region", PUZZLES / "examples" / "hex_4x7.txt",
                             "--k", "7", "--backend", "dlx", "--json")
    assert code == 0, err
    # Polyform Puzzler, Tetrahexes4x7: 9 solutions up to symmetry, 18 in all (the region's 2 symmetries).
    assert json.loads(out) == [{"pieces": ["I4", "J4", "P4", "S4", "U4", "Y4", "O4"], "count": 18}]


def test_cube_placements_are_listed_fixed_and_drawn_by_their_three_coordinates(run_cli, tmp_path):
    soma = PUZZLES / "examples" / "soma_cube.txt"
    code, out, err = run_cli("solve", "--pieces", "soma", "--region", soma, "--json", "--frequencies",
                             "--max-solutions", "0")
    assert code == 0, err
    result = json.loads(out)
    assert result["count"] == 11520  # the Soma cube's 240 solutions up to its 48 symmetries (Conway, Guy)
    # Placements of V as the frequencies count them and as --fix counts their completions (two searches).
    v = [f for f in result["frequencies"] if f["piece"] == "V"]
    for placement in [f for f in v if f["count"]][:3] + [f for f in v if not f["count"]][:2]:
        fix = "V@" + ";".join(",".join(map(str, cell)) for cell in placement["cells"])
        code, out, err = run_cli("solve", "--pieces", "soma", "--region", soma, "--fix", fix, "--count",
                                 "--max-solutions", "0")
        assert code == 0, err
        n = placement["count"]
        assert out.startswith(f"{n} completion" if n else "no completion"), (fix, out)
    code, out, err = run_cli("solve", "--pieces", "soma", "--region", soma, "--frequencies", "--max-solutions", "0",
                             "--draw", tmp_path / "freq.svg")
    assert code == 0, err
    assert "most frequent V@0,0,1;0,0,2;0,1,1 in 207" in out  # the first V above
    assert (tmp_path / "freq.svg").read_text().count("layer 1") == 7  # each piece's panel shows the layers
    code, _, err = run_cli("solve", "--pieces", "soma", "--region", soma, "--fix", "V@0,0;0,0,1")
    one_line_error(code, err, "--fix", "cell (0, 0) has 2 coordinates, a cell of the cube grid 3 (layers, rows and "
                   "columns are counted from the region's first layer, row and column)")


def test_fix_help_names_the_cells_of_each_grid_as_the_solutions_give_them(run_cli, capsys):
    # solve --help said "row,col of each cell" only; hexagons take axial q,r (as --json gives them), cubes
    # layer,row,col.
    from ubongo_cp.cli import main

    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    assert "layer,row,col on cubes, axial q,r on hexagons" in " ".join(capsys.readouterr().out.split())
    hex47 = PUZZLES / "examples" / "hex_4x7.txt"
    code, out, err = run_cli("solve", "--pieces", "tetrahexes", "--region", hex47, "--json", "--count")
    first = json.loads(out)["solutions"][0]["I4"]   # [q, r] pairs
    fix = "I4@" + ";".join(f"{q},{r}" for q, r in first)
    code, out, err = run_cli("solve", "--pieces", "tetrahexes", "--region", hex47, "--fix", fix, "--count",
                             "--max-solutions", "0")
    assert code == 0 and out.startswith(("1 completion", "2 completions")), (fix, out, err)


def test_census_box_on_hexagons_is_the_pictures_rectangle_as_its_help_says(run_cli, capsys, tmp_path):
    # census --box 2x3 on hexagons keeps 2 regions of 6 hexagons, the 2x3 parallelogram and a zigzag of three
    # rows of two; --region 2x3 is the parallelogram alone. The help said only "an R x C box".
    from ubongo_cp.cli import main

    with pytest.raises(SystemExit):
        main(["census", "--help"])
    assert "a rectangle around the picture, not the parallelogram --region RxC names" in " ".join(
        capsys.readouterr().out.split())
    pieces = tmp_path / "trihexes.txt"
    pieces.write_text("grid: hex\nI3\n# # #\n\nA3\n# #\n #\n")
    code, out, err = run_cli("census", "--pieces", pieces, "--k", "2", "--cells", "6", "--box", "2x3", "--out",
                             tmp_path / "c", "--count-only", "--jobs", "1")
    assert code == 0 and "6 cells (hole-free, within 2x3): 2 regions" in out, (out, err)


def test_frequencies_drawn_when_a_check_settles_the_count(run_cli, tmp_path):
    region = tmp_path / "cb.txt"
    region.write_text("grid: cube\n###\n###\n---\n###\n###\n")
    code, out, err = run_cli("solve", "--pieces", "tetracubes", "--region", region, "--use", "L4,T4,A4",
                             "--frequencies", "--draw", tmp_path / "f.svg")
    assert code == 0, err
    assert out.startswith("no solution (checkerboard colouring")
    assert "no solution" in (tmp_path / "f.svg").read_text()


def test_commands_refuse_a_region_of_another_grid_in_one_line(run_cli, tmp_path):
    bad = tmp_path / "bad_hex.txt"
    bad.write_text("grid: hex\n# # #\n #  #\n")
    code, _, err = run_cli("solve", "--pieces", "tetrahexes", "--region", bad)
    one_line_error(code, err, "bad_hex.txt:3", "between two hex positions")
    tri = tmp_path / "bad_tri.txt"
    tri.write_text("grid: triangle\n^^v\n")
    code, _, err = run_cli("analyze", "--pieces", "pentiamonds", "--region", tri, "--k", "1")
    one_line_error(code, err, "bad_tri.txt:2", "no such triangle")
    code, _, err = run_cli("analyze", "--pieces", "soma", "--region", PUZZLES / "examples" / "hex_4x7.txt", "--k", "2")
    one_line_error(code, err, "hex_4x7.txt", "cube grid", "hex grid")
    code, _, err = run_cli("census", "--pieces", "soma", "--k", "2", "--cells", "6", "--box", "2x3",
                           "--out", tmp_path / "census")
    one_line_error(code, err, "flat regions", "cube grid")


# ------------------------------------------------------------------ batch
@pytest.mark.parametrize("deck, grid, corners", DECKS, ids=[d[0] for d in DECKS])
def test_batch_rates_two_cards_of_each_example_deck(deck, grid, corners, tmp_path):
    import pandas as pd

    from ubongo_cp.batch import run_batch
    from ubongo_cp.report import load_tasks
    from ubongo_cp.shipped import deck_dir, deck_tasks_path

    src = tmp_path / deck
    src.mkdir()
    for name in ("deck.toml", "01_easy.toml", "01_hard.toml"):
        shutil.copy(deck_dir(deck) / name, src / name)
    outcome = run_batch(src, tmp_path / "out", progress=False)
    assert outcome is not None
    got = pd.read_csv(tmp_path / "out" / "tasks.csv", dtype={"card_id": str})
    shipped = load_tasks(deck_tasks_path(deck))
    shipped = shipped[shipped["card_id"] == "01"]
    assert len(got) == len(shipped) > 0 and set(got["grid"]) == {grid.name}
    # Every task has exactly one tiling, on the node solver and on CP-SAT, as in the shipped table.
    assert (got["status"] == "solved").all() and (got["count"] == 1).all() and (got["cpsat_count"] == 1).all()
    key = ["side", "face"]
    merged = got.merge(shipped, on=key, suffixes=("", "_shipped"))
    assert len(merged) == len(got) and (merged["placements"] == merged["placements_shipped"]).all()


# ------------------------------------------------------------------ pictures
@pytest.mark.parametrize("deck, grid, corners", DECKS, ids=[d[0] for d in DECKS])
def test_booklet_pages_and_playtest_cards_draw_the_grid_cells(deck, grid, corners):
    from ubongo_cp.booklet import render_page, task_views
    from ubongo_cp.booklet.playtest import card_sheets, piece_sheets
    from ubongo_cp.cards import load_deck

    cards, _ = load_deck(deck)
    card = cards[0]
    views = task_views(card)
    fig = render_page(card, views)
    panels = {c.get_gid(): c for c in fig.axes[0].collections if (c.get_gid() or "").startswith("solution/")}
    assert sorted(panels) == sorted(f"solution/{v.face}" for v in views)
    for view in views:
        paths = panels[f"solution/{view.face}"].get_paths()
        # One closed polygon per cell: a hexagon has 6 corners, a triangle 3, a square (a cube's layer) 4.
        assert [len(p.vertices) for p in paths] == [(corners + 1) * len(c) for c in view.solution.values()]

    cell = 20.0
    seen = 0
    for sheet in card_sheets(cards[:2], cell):
        for coll in sheet.axes[0].collections:
            gid = coll.get_gid() or ""
            if not gid.startswith("region/"):
                continue
            side = next(c for c in cards[:2] if gid == f"region/{c.card_id}/{c.side}")
            polys = coll.get_paths()[0].vertices.reshape(-1, corners + 1, 2)[:, :corners]
            assert len(polys) == side.region.area
            width = polys[:, :, 0].max(axis=1) - polys[:, :, 0].min(axis=1)
            # True scale: a hexagon is one cell wide, a triangle's side and a square's side are one cell.
            assert np.allclose(width, cell)
            if grid is TRIANGLE:
                height = polys[:, :, 1].max(axis=1) - polys[:, :, 1].min(axis=1)
                assert np.allclose(height, cell * np.sqrt(3) / 2)
            centres = np.round(polys.mean(axis=1), 6)
            assert len({tuple(c) for c in centres}) == len(polys)          # no cell drawn twice
            seen += 1
    assert seen == 2
    sheets = piece_sheets(card.piece_set, cell)
    drawn = {c.get_gid(): c for f in sheets for c in f.axes[0].collections if (c.get_gid() or "").startswith("piece/")}
    assert sorted(drawn) == sorted(f"piece/{n}" for n in card.piece_set.names)
    for gid, coll in drawn.items():
        assert len(coll.get_paths()[0].vertices) == (corners + 1) * card.piece_set[gid.split("/")[1]].size


def test_notebook_pictures_on_every_grid():
    from ubongo_cp.cards import load_deck
    from ubongo_cp.cover import build_instance
    from ubongo_cp.pieces import load_pieces, load_region
    from ubongo_cp.solvers import solve

    for deck, _, _ in DECKS:
        card = load_deck(deck)[0][0]
        for obj in (card, card.piece_set, card.region):
            svg = obj._repr_svg_()
            assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    pieces = load_pieces("tetrahexes")
    region = load_region(PUZZLES / "examples" / "hex_4x7.txt")
    result = solve(build_instance(list(pieces.pieces), region), backend="dlx", keep=2)
    assert result.count == 18
    svg = result._repr_svg_()
    assert 'id="solution/0"' in svg and 'id="solution/1"' in svg and 'id="solution/2"' not in svg


def test_cube_pictures_frame_each_layer_so_mirror_pieces_can_be_told_apart():
    """A piece of two layers is drawn as two footprints side by side; without a frame a lone cube on the upper
    layer floats free, and the mirror pair B4 / P4 (the same L of three cubes, the fourth on a different one of
    its ends) looks alike. Each layer sits in a frame of the footprint, and the picture is as wide as its frames."""
    from ubongo_cp.draw.canvas import Canvas, lying, plane_box
    from ubongo_cp.draw.puzzle import FRAME_COLOUR, IconBatch
    from ubongo_cp.pieces import load_pieces

    pieces = load_pieces("tetracubes")
    shapes = {n: lying(pieces[n].cells, CUBE) for n in ("A4", "B4", "P4", "L4")}
    # Lying flattest: the L of three cubes (rows 0-1, columns 0-1) at the bottom, the fourth cube on top.
    upper = {n: [cell for z, *cell in s if z == 1] for n, s in shapes.items() if n != "L4"}
    assert upper == {"A4": [[1, 0]], "B4": [[0, 1]], "P4": [[0, 0]]}
    for n in upper:
        assert CUBE.plane(shapes[n]).frames == ((0.0, 0.0, 2.0, 2.0), (3.0, 0.0, 2.0, 2.0))
        # Two 2-cell frames one cell apart: 5 cells wide (A4's cells alone reach only column 3), captions below.
        assert plane_box(shapes[n], CUBE) == (0.0, 0.0, 5.0, 2.7)
    assert CUBE.plane(shapes["L4"]).frames == ()          # one layer: nothing to line up
    canvas = Canvas(60.0, 20.0)
    icons = IconBatch()
    for k, n in enumerate(("B4", "P4", "L4")):
        icons.add(shapes[n], 20.0 * k, 0.0, 2.0, "#cc6677", CUBE)
    icons.draw(canvas)
    frames = [c for c in canvas.ax.collections if len(c.get_edgecolor()) and
              np.allclose(c.get_edgecolor()[0][:3], mcolors.to_rgb(FRAME_COLOUR))]
    assert len(frames) == 1
    corners = frames[0].get_paths()[0].vertices.reshape(-1, 2, 2)
    # Two icons x two layers x four sides, each frame a 4 mm square (2 cells of 2 mm); B4's at x 0-4 and 6-10.
    assert len(corners) == 16
    xs = sorted({float(x) for x in corners[:8, :, 0].ravel()})
    assert xs == [0.0, 4.0, 6.0, 10.0]


@pytest.mark.parametrize("text, line, message", [
    ("grid: cube\n####\n--\n--\n####\n", 4, "layer 2 has no '#' cube: the layers of a shape follow one another"),
    ("grid: cube\n##\n##\n--\n..\n..\n--\n##\n##\n", 5, "layer 2 has no '#' cube"),
    ("grid: cube\n##\n--\n..\n", 4, "layer 2 has no '#' cube"),
    ("grid: triangle extra\n^v^\n", 1, "malformed grid line 'grid: triangle extra': write 'grid: NAME'"),
])
def test_a_picture_with_an_empty_layer_or_a_garbled_grid_line_is_refused(run_cli, tmp_path, text, line, message):
    # An empty layer between two was read as two slabs with a gap; a grid line with a word too many was read as
    # a row of cells ("unknown character 'g'").
    region = tmp_path / "r.txt"
    region.write_text(text)
    code, _, err = run_cli("solve", "--pieces", "tetracubes", "--region", region)
    one_line_error(code, err, f"{region}:{line}: {message}")


def test_a_grid_line_in_capitals_or_with_a_comment_is_read(tmp_path):
    from ubongo_cp.pieces import load_region

    for header in ("GRID: HEX", "grid: hex   % a 2 x 3 parallelogram"):
        (tmp_path / "r.txt").write_text(f"{header}\n# # #\n # # #\n")
        region = load_region(tmp_path / "r.txt")
        assert region.grid is HEX and region.area == 6


def test_a_card_naming_no_known_grid_says_so(run_cli, tmp_path):
    card = tmp_path / "c.toml"
    card.write_text('game = "classic"\ncard = "1"\nside = "easy"\npieces = "tetrahexes"\ngrid = "hexx"\n'
                    'region = """\n# #\n"""\n[tasks]\n1 = ["I4"]\n')
    code, _, err = run_cli("solve", card)
    one_line_error(code, err, f"{card}:5: unknown grid 'hexx'; expected one of square, hex, triangle, cube")


@pytest.mark.parametrize("text, pieces, line, grids", [
    ("% a hexagon region\ngrid: hex\n # #\n# # #\n", "classic", 2, ("square grid (I2)", "hex grid")),
    ("\n####\n####\n", "tetrahexes", 2, ("hex grid (I4)", "square grid")),   # no grid line: the picture's row
])
def test_pieces_of_another_grid_name_the_line_that_sets_the_regions_grid(run_cli, tmp_path, text, pieces, line,
                                                                         grids):
    region = tmp_path / "r.txt"
    region.write_text(text)
    code, _, err = run_cli("solve", "--pieces", pieces, "--region", region)
    one_line_error(code, err, f"{region}:{line}: the pieces are on the {grids[0]} but the region is on the "
                   f"{grids[1]}: pieces fit only a region of their own grid")
