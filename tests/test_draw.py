"""Pictures (ubongo_cp.draw): solve --draw, the notebook pictures of the puzzle objects, lazy matplotlib."""

from __future__ import annotations

import doctest
import re
import subprocess
import sys

import numpy as np
import pytest

from conftest import PUZZLES, ROOT
from ubongo_cp.cards import load_card
from ubongo_cp.cover import build_instance, task_instance, verify_solution
from ubongo_cp.errors import InputError
from ubongo_cp.pieces import Region, load_pieces
from ubongo_cp.solvers import solve
from ubongo_cp.structs import replace


def _squares(path) -> list[tuple[float, float]]:
    """Top-left corners (x, y) of the square sub-paths of a cells path (5 vertices each)."""
    return [tuple(sq.min(axis=0)) for sq in path.vertices.reshape(-1, 5, 2)]


def test_importing_the_puzzle_core_does_not_import_matplotlib():
    code = ("import sys, ubongo_cp.pieces, ubongo_cp.cards, ubongo_cp.solvers, ubongo_cp.report; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_result_draws_every_solution_with_copies_told_apart():
    # Four copies of I2 and one O4 tile a 3x4 rectangle in 14 ways (identical pieces not told apart, UP-5);
    # brute force over the result's own solutions: each drawn piece covers exactly its cells.
    pieces = load_pieces("classic").select(["I2", "I2", "I2", "I2", "O4"])
    region = Region.rectangle(3, 4)
    result = solve(build_instance(pieces, region))
    assert result.count == 14 and result.instance is not None
    fig = result.draw()
    panels = {c.get_gid(): c for c in fig.axes[0].collections if (c.get_gid() or "").startswith("solution/")}
    assert len(panels) == 12        # at most 12 panels by default
    for k, solution in enumerate(result.solutions[:12]):
        assert verify_solution(pieces, region, solution) is None
        coll = panels[f"solution/{k}"]
        fills = {tuple(np.round(c, 4)) for c in coll.get_facecolors()}
        assert len(fills) == 5, "each copy of I2 has its own shade"
        corners = [sorted(_squares(p)) for p in coll.get_paths()]
        # The same cell size and offset for every piece: the corners map back to the solution's cells.
        xs = sorted({x for cs in corners for x, _ in cs})
        ys = sorted({y for cs in corners for _, y in cs})
        step = xs[1] - xs[0]
        cells = [sorted((round((y - ys[0]) / step), round((x - xs[0]) / step)) for x, y in cs) for cs in corners]
        assert cells == [sorted(v) for v in solution.values()]


def test_notebook_pictures_are_svg(tmp_path):
    from ubongo_cp.report import load_tasks, task_record

    card = load_card(PUZZLES / "examples" / "classic_X1_easy.toml")
    result = solve(task_instance(card, 1))
    for obj in (load_pieces("duel"), card.region, card, result,
                task_record(load_tasks(PUZZLES / "decks" / "classic" / "tasks.csv").iloc[0])):
        svg = obj._repr_svg_()
        assert svg.startswith("<?xml") and "<svg" in svg, type(obj)
    # A result that does not know its instance falls back to its text repr, and says what to pass to draw.
    bare = replace(result, instance=None)
    assert bare._repr_svg_() is None
    with pytest.raises(ValueError, match="instance="):
        bare.draw()
    assert bare.draw(task_instance(card, 1)) is not None
    # A number where the instance goes (meant as "the first three") is one error naming most=, not an
    # AttributeError of int; most=3 draws three panels.
    for wrong in (3, "x", card):
        with pytest.raises(InputError, match="instance must be the instance the result solved.*most="):
            result.draw(wrong)
    eight = solve(build_instance(load_pieces("pentominoes").pieces, Region.rectangle(3, 20)))  # 8 tilings
    shown = [c for c in eight.draw(most=3).axes[0].collections if (c.get_gid() or "").startswith("solution/")]
    assert eight.count == 8 and len(shown) == 3


def test_card_picture_draws_every_task_with_icons():
    card = load_card(PUZZLES / "decks" / "duel" / "3_B.toml")       # 20 tasks of 5 pieces
    fig = card.draw(cell_mm=10)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert [str(f) for f in range(1, 21)] == [t for t in texts if t.isdigit()][:20]
    icons = [c for c in fig.axes[0].collections if len(c.get_paths()) == 100]   # 20 rows x 5 piece icons
    assert len(icons) == 1
    region = next(c for c in fig.axes[0].collections if c.get_gid() == "region/3/B")
    xs = sorted({x for x, _ in _squares(region.get_paths()[0])})
    assert np.allclose(np.diff(xs), 10.0)                            # drawn at 10 mm per cell


def test_solve_draw_writes_one_panel_per_task(run_cli, tmp_path):
    from matplotlib.image import imread

    card = PUZZLES / "examples" / "classic_X1_easy.toml"
    code, out, err = run_cli("solve", card, "--draw", tmp_path / "tasks.png")
    assert code == 0, err
    image = imread(tmp_path / "tasks.png")
    assert image.shape[0] > 100 and image.shape[1] > 100
    from ubongo_cp.draw.figures import result_panels, solutions_figure

    parsed = load_card(card)
    panels = [p for f in parsed.tasks for p in result_panels(solve(task_instance(parsed, f), limit=1), parsed.region.cells,
                                                              most=1, prefix=f"face {f}: ")]
    assert len(panels) == len(parsed.tasks)
    assert sum((c.get_gid() or "").startswith("solution/")
               for c in solutions_figure(panels, {}).axes[0].collections) == len(parsed.tasks)
    code, out, err = run_cli("solve", "--pieces", "pentominoes", "--region", PUZZLES / "examples" / "rect_3x20.txt",
                             "--count", "--draw", tmp_path / "all.svg")
    assert code == 0 and (tmp_path / "all.svg").read_text().count("<svg") == 1
    code, out, err = run_cli("solve", card, "--draw", tmp_path / "x.jpg")
    assert code == 2 and "x.jpg: --draw must end in .svg, .png or .pdf, not .jpg" in err and err.count("\n") == 1
    code, out, err = run_cli("solve", card, "--draw", card)
    assert code == 2 and "would overwrite" in err


def test_readme_python_api_session(tmp_path, monkeypatch):
    text = (ROOT / "README.md").read_text()
    section = text.split("## Python API", 1)[1].split("\n## ", 1)[0]
    session = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert 8 <= len([ln for ln in session.splitlines() if ln.startswith(">>> ")]) <= 12
    monkeypatch.chdir(tmp_path)
    test = doctest.DocTestParser().get_doctest(session, {}, "README Python API", "README.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0 and runner.tries >= 8
    assert (tmp_path / "tilings.svg").read_text().count("<svg") == 1


@pytest.mark.parametrize("name", ["hex_4x7.txt", "triangle_4x9.txt", "soma_cube.txt"])
def test_examples_draws_a_region_on_its_own_grid(name, run_cli, tmp_path):
    # `examples REGION --draw` drew every region on squares: the cube failed (a reshape error, exit 1) and the
    # hexagons and triangles came out as squares. Its picture is now the region's own (Region.draw).
    import re

    from ubongo_cp.draw.figures import region_figure, save_figure
    from ubongo_cp.pieces import load_region
    from ubongo_cp.shipped import data_dir

    code, out, err = run_cli("examples", name, "--draw", tmp_path / "cli.svg")
    assert code == 0, err
    region = load_region(data_dir() / "examples" / name)
    save_figure(region.draw(), tmp_path / "own.svg")

    def svg(path):
        text = re.sub(r"<dc:date>.*?</dc:date>", "", (tmp_path / path).read_text())
        return re.sub(r"\bp[0-9a-f]{10}\b", "clip", text)   # matplotlib's clip-path ids are random

    assert svg("cli.svg") == svg("own.svg")
    if region.grid.dim == 2:
        save_figure(region_figure(region.cells), tmp_path / "squares.svg")
        assert svg("cli.svg") != svg("squares.svg")


@pytest.mark.parametrize("name, kind", [("orion/published", "an Orion Duel tile set"), ("specs/classic", "a deck spec"),
                                        ("decks/duel", "a deck")])
def test_examples_names_what_it_cannot_draw_in_words(name, kind, run_cli, tmp_path):
    # once "orion/published is a tiles" and "specs/classic is a spec": the kind's key, not its name
    code, _, err = run_cli("examples", name, "--draw", tmp_path / "x.svg")
    assert (code, err) == (2, f"ubongo-cp: error: --draw takes a piece set, a region or a card side; {name} is "
                              f"{kind}\n")
    assert not (tmp_path / "x.svg").exists()


def test_examples_given_a_file_of_ones_own_points_to_solve_draw(run_cli, tmp_path, monkeypatch):
    # `examples mycard/c1.toml --draw c.svg` listed the shipped items only; the name is a file of the user's, and
    # the one line now gives the command that draws it, which runs as said.
    from conftest import one_line_error

    monkeypatch.chdir(tmp_path)
    (tmp_path / "mycard").mkdir()
    (tmp_path / "mycard" / "c1.toml").write_text((PUZZLES / "examples" / "classic_X1_easy.toml").read_text())
    (tmp_path / "mycard" / "r.txt").write_text("###\n")
    code, _, err = run_cli("examples", "mycard/c1.toml", "--draw", "c.svg")
    one_line_error(code, err, "mycard/c1.toml is a file", "`ubongo-cp solve mycard/c1.toml --draw c.svg`")
    assert not (tmp_path / "c.svg").exists()
    hint = err.split("`")[1].split()[1:]
    assert run_cli(*hint)[0] == 0 and (tmp_path / "c.svg").read_text().startswith("<?xml")
    one_line_error(*run_cli("examples", "mycard/r.txt")[::2], "`ubongo-cp solve --pieces SET --region mycard/r.txt "
                                                               "--draw FILE.svg`")
    one_line_error(*run_cli("examples", "mycard/none.toml")[::2], "no shipped item is called 'mycard/none.toml'")


def test_names_are_drawn_as_written_not_as_math(run_cli, tmp_path):
    # Matplotlib reads "$...$" as mathtext: a piece named "$\badcommand$" made every drawing fail, and "$^$" too.
    # Names are drawn as written, in the solution picture and on card pages.
    pieces = tmp_path / "pieces.txt"
    pieces.write_text("A\n##\n\n$\\badcommand$\n##\n\n$^$\n#\n#\n")
    region = tmp_path / "region.txt"
    region.write_text("##\n##\n")
    code, out, err = run_cli("solve", "--pieces", pieces, "--region", region, "--use", "A,$\\badcommand$",
                             "--draw", tmp_path / "a.png")
    assert code == 0 and (tmp_path / "a.png").stat().st_size > 1000, err
    from ubongo_cp.draw.canvas import Canvas

    canvas = Canvas(20.0, 10.0)
    assert not canvas.text(1.0, 1.0, "$x^2$").get_parse_math()


_NARROW_CUBES = {"2x2, three layers": "grid: cube\n##\n##\n--\n##\n##\n--\n##\n##",
                 "one cube a layer": "grid: cube\n#\n-\n#\n-\n#\n-\n#",
                 "1x3, two layers": "grid: cube\n#\n#\n#\n-\n#\n#\n#"}


def _layer_captions(figure) -> list:
    """The window extents (pixels, matplotlib's renderer) of a figure's layer captions, after drawing it."""
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    texts = [t for ax in figure.axes for t in ax.texts if t.get_text().startswith("layer ")]
    return [(t.get_text(), t.get_window_extent(renderer)) for t in texts]


def _assert_captions_fit(figure, layers: int) -> None:
    """Every layer is captioned; no two captions overlap and each lies inside the figure."""
    from itertools import combinations

    captions = _layer_captions(figure)
    assert len(captions) >= layers and {text for text, _ in captions} >= {f"layer {k}" for k in range(2, layers + 1)}
    page = figure.bbox
    for text, box in captions:
        assert page.x0 <= box.x0 and box.x1 <= page.x1 and page.y0 <= box.y0 and box.y1 <= page.y1, (text, box)
    for (t1, b1), (t2, b2) in combinations(captions, 2):
        assert not b1.overlaps(b2), (t1, b1, t2, b2)


@pytest.mark.parametrize("text", list(_NARROW_CUBES.values()), ids=list(_NARROW_CUBES))
def test_layer_captions_of_narrow_cube_shapes_neither_overlap_nor_clip(text):
    # the layers of a cube shape lie one cell apart: 'layer 1 (bottom)' under a 2-cell layer ran into
    # 'layer 2' and out of the picture at the left; the captions now shrink to fit between their
    # neighbours and the picture is as wide as they are (matplotlib's own text extents)
    from ubongo_cp.pieces import parse_region

    region = parse_region(text)
    _assert_captions_fit(region.draw(), region.grid.text_size(region.cells)[0])


@pytest.mark.parametrize("text", list(_NARROW_CUBES.values())[:2], ids=list(_NARROW_CUBES)[:2])
def test_layer_captions_fit_on_booklet_pages_and_playtest_cards(text):
    from ubongo_cp.booklet.page import render_page
    from ubongo_cp.booklet.playtest import card_image
    from ubongo_cp.booklet.views import task_views
    from ubongo_cp.pieces import parse_region

    region = parse_region(text)
    card = load_card(PUZZLES / "decks" / "cubes" / "01_easy.toml")
    card = replace(card, region=region)
    layers = region.grid.text_size(region.cells)[0]
    _assert_captions_fit(render_page(card, task_views(card)), layers)
    _assert_captions_fit(card_image(card), layers)


def test_picture_sizes_and_counts_that_are_not_ones_are_one_error_naming_them():
    # cell_mm="8" was a TypeError deep in the drawing and cell_mm=0 or -1 an empty or mirrored picture; most=-1
    # drew every solution but the last, most="3" a TypeError from slicing.
    from ubongo_cp.cards import load_deck
    from ubongo_cp.cover import build_instance
    from ubongo_cp.errors import InputError
    from ubongo_cp.pieces import Region, load_pieces
    from ubongo_cp.solvers import solve

    pentominoes = load_pieces("pentominoes")
    card = load_deck("classic")[0][0]
    size = r"^cell_mm must be a number of millimetres above 0 and at most 60, got {}$"
    for draw, shown in [(lambda: Region.rectangle(2, 2).draw(cell_mm=0), "0"),
                        (lambda: pentominoes.draw(cell_mm=-1), "-1"),
                        (lambda: card.draw(cell_mm="8"), "'8'")]:
        with pytest.raises(InputError, match=size.format(shown)):
            draw()
    result = solve(build_instance(pentominoes.pieces, Region.rectangle(3, 20)))   # 8 tilings, all kept
    for most in (0, -1, "3"):
        with pytest.raises(InputError, match=rf"^most must be a whole number of at least 1, got {most!r}$"):
            result.draw(most=most)
    assert result.draw(most=3).get_size_inches()[0] < result.draw().get_size_inches()[0]   # 3 panels, then 8


def test_a_count_that_kept_no_solution_is_not_drawn_as_not_solved(run_cli, tmp_path):
    # The 8 tilings of 3x20 by the pentominoes counted with none kept (keep=0, --max-solutions 0): the picture
    # said "not solved (time limit)". It now says the count, and that none was kept to draw.
    from ubongo_cp.draw.figures import result_panels

    result = solve(build_instance(load_pieces("pentominoes").pieces, Region.rectangle(3, 20)), keep=0)
    assert (result.count, result.complete, result.solutions) == (8, True, [])
    [panel] = result_panels(result, result.instance.region.cells)
    assert panel.note == "8 solutions, none kept to draw"
    drawing = tmp_path / "d.svg"
    code, printed, err = run_cli("solve", "--pieces", "pentominoes", "--region", "3x20", "--count",
                                 "--max-solutions", "0", "--draw", drawing)
    assert code == 0 and printed.startswith("8 solutions"), err
    text = drawing.read_text()
    assert "8 solutions, none kept to draw" in text and "not solved" not in text
    cut = solve(build_instance(load_pieces("pentominoes").pieces, Region.rectangle(6, 10)), keep=0, limit=5)
    assert result_panels(cut, cut.instance.region.cells)[0].note == "5+ solutions, none kept to draw"


def test_task_record_takes_one_row_and_says_so_otherwise():
    from ubongo_cp.report import load_tasks, task_record

    tasks = load_tasks(PUZZLES / "decks" / "classic" / "tasks.csv")
    # The table itself where a row was meant was "ValueError: The truth value of a Series is ambiguous" (one
    # row, tasks.nlargest(1, "difficulty")) or "TypeError: cannot convert the series to <class 'int'>" (more);
    # a number "AttributeError: 'int' object has no attribute 'get'".
    with pytest.raises(InputError, match=r"got a table of 1 row\(s\): pick one, e.g. tasks.iloc\[0\]"):
        task_record(tasks.nlargest(1, "difficulty"))
    with pytest.raises(InputError, match="a pandas Series or a dict"):
        task_record(3)
    # A row without its face or status was "TypeError: int() argument must be ... not 'NoneType'".
    with pytest.raises(InputError, match="lacks column.s. face, status"):
        task_record(tasks.iloc[0].drop(["face", "status"]))
    row = tasks.nlargest(1, "difficulty").iloc[0]
    record = task_record(row)
    assert (record.card_id, record.face, record.count) == (row["card_id"], row["face"], row["count"])
