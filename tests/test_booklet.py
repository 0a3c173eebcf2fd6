"""Tests of the solution booklet (ubongo_cp.booklet): pages, PNGs, colours, unsolvable tasks."""

from __future__ import annotations

import json
import re
import struct

import numpy as np
import pandas as pd
import pytest
from matplotlib.image import imread

from ubongo_cp.booklet import PAGE_MM, make_booklet, page_png_name, piece_colours, render_page, task_views
from ubongo_cp.cards import load_deck, parse_card
from ubongo_cp.cover import task_instance, verify_solution
from ubongo_cp.errors import InputError
from ubongo_cp.pieces import load_pieces
from ubongo_cp.solvers import solve

from conftest import PUZZLES, listing

DPI = 50

# A 2 x 5 region (9 cells) with tasks that fit (faces 1, 6) and tasks that cannot (faces 2-5):
# every one of them is checked below with the DLX backend, independently of the booklet's CP-SAT call.
SMALL_CARD = '''
game = "classic"
card = "01"
side = "easy"
pieces = "classic"
region = """
#####
####.
"""

[tasks]
1 = ["I2", "L3", "I4"]
2 = ["T4", "Y5"]
3 = ["L4", "Z5"]
4 = ["O4", "Y5"]
5 = ["I4", "P5"]
6 = ["L3", "T4", "I2"]
'''


@pytest.fixture(scope="module")
def example_cards():
    cards, problems = load_deck(PUZZLES / "examples")
    assert problems == []
    return cards


@pytest.fixture(scope="module")
def booklet(example_cards, tmp_path_factory):
    out = tmp_path_factory.mktemp("booklet")
    pages = make_booklet(example_cards, out / "booklet.pdf", png_dir=out / "png", dpi=DPI)
    return pages, out


def _png_size(path) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk (PNG spec section 11.2.2)."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


def test_one_pdf_page_per_card_side(booklet, example_cards):
    pages, out = booklet
    data = (out / "booklet.pdf").read_bytes()
    assert data.startswith(b"%PDF")
    # Count page objects in the file itself (not through matplotlib): 3 example card sides -> 3 pages.
    n_page_objects = len(re.findall(rb"/Type\s*/Page(?![s\w])", data))
    assert pages == len(example_cards) == 3
    assert n_page_objects == 3
    pages_dict = re.search(rb"<<[^<>]*/Type\s*/Pages\b[^<>]*>>", data).group(0)
    assert re.search(rb"/Count\s+3\b", pages_dict)
    # Every page is A4 portrait: 210 x 297 mm = 595.28 x 841.89 pt.
    boxes = re.findall(rb"/MediaBox\s*\[\s*0\s+0\s+([\d.]+)\s+([\d.]+)\s*\]", data)
    assert len(boxes) == 3
    for w, h in boxes:
        assert float(w) == pytest.approx(210 / 25.4 * 72, abs=0.01)
        assert float(h) == pytest.approx(297 / 25.4 * 72, abs=0.01)
    assert not [p for p in out.iterdir() if p.name.startswith(".booklet.pdf")]  # no temporary left


def test_one_png_per_page_a4_at_dpi(booklet, example_cards):
    _, out = booklet
    names = listing(out / "png")
    assert names == ["classic_X1_easy.png", "classic_X1_hard.png", "duel_X2_A.png"]
    assert names == sorted(page_png_name(c) for c in example_cards)
    for name in names:
        width, height = _png_size(out / "png" / name)
        # A4 = 8.27 x 11.69 in; at 50 dpi: 413.4 x 584.6 px (matplotlib truncates or rounds).
        assert abs(width - 210 / 25.4 * DPI) < 1.0
        assert abs(height - 297 / 25.4 * DPI) < 1.0


def _solution_collections(fig) -> dict[int, object]:
    out = {}
    for coll in fig.axes[0].collections:
        gid = coll.get_gid() or ""
        if gid.startswith("solution/"):
            out[int(gid.split("/")[1])] = coll
    return out


def test_piece_colours_distinct_within_page_and_consistent(example_cards):
    card = next(c for c in example_cards if c.game == "duel")      # 20 tasks, 4 pieces each
    views = task_views(card)
    fig = render_page(card, views)
    panels = _solution_collections(fig)
    assert sorted(panels) == list(range(1, 21))
    colour_of: dict[str, tuple] = {}
    for view in views:
        coll = panels[view.face]
        names = list(view.solution)
        fills = [tuple(np.round(c, 4)) for c in coll.get_facecolors()]
        assert len(fills) == len(names) == 4
        assert len(set(fills)) == 4, f"face {view.face}: two pieces share a colour"
        for name, fill, path in zip(names, fills, coll.get_paths()):
            # One square per cell of the piece, and the piece has one colour on the whole page.
            assert len(path.vertices) == 5 * len(view.solution[name])
            assert colour_of.setdefault(name, fill) == fill
    # Distinct pieces have distinct colours over the whole page.
    assert len(set(colour_of.values())) == len(colour_of) >= 15


def test_rendered_pixels_have_the_piece_colours(example_cards, tmp_path):
    """Read the PNG back: near each cell's corners the pixels are its piece's colour."""
    card = next(c for c in example_cards if c.game == "classic" and c.side == "hard")
    views = task_views(card)
    fig = render_page(card, views)
    png = tmp_path / "page.png"
    fig.savefig(png, dpi=DPI * 2)
    image = imread(png)[:, :, :3]
    height, width = image.shape[:2]
    panels = _solution_collections(fig)
    for view in views:
        coll = panels[view.face]
        for name, fill, path in zip(view.solution, coll.get_facecolors(), coll.get_paths()):
            squares = path.vertices.reshape(-1, 5, 2)
            hits = 0
            for sq in squares:
                (x0, y0), (x1, y1) = sq.min(axis=0), sq.max(axis=0)
                for fx, fy in ((0.22, 0.22), (0.78, 0.22), (0.22, 0.78), (0.78, 0.78)):
                    col = int((x0 + fx * (x1 - x0)) / PAGE_MM[0] * width)
                    row = int((y0 + fy * (y1 - y0)) / PAGE_MM[1] * height)
                    hits += np.abs(image[row, col] - fill[:3]).max() < 3 / 255
            # Labels may cover a few sample points, never most of them.
            assert hits >= 2 * len(squares), (view.face, name, hits)


def test_unsolvable_tasks_are_drawn_as_such(tmp_path):
    card = parse_card(SMALL_CARD)
    # Independent check of which tasks are solvable (DLX backend, full count).
    solvable = {face: solve(task_instance(card, face), backend="dlx").count > 0 for face in card.tasks}
    assert solvable == {1: True, 2: False, 3: False, 4: False, 5: False, 6: True}
    views = task_views(card)
    assert {v.face: v.status for v in views} == {f: "solved" if ok else "no solution" for f, ok in solvable.items()}
    for v in views:
        if v.solution is not None:
            assert verify_solution(card.task_pieces(v.face), card.region, v.solution) is None
    fig = render_page(card, views)
    gids = {c.get_gid() for c in fig.axes[0].collections}
    assert {f"unsolved/{f}" for f in (2, 3, 4, 5)} <= gids
    assert {"solution/1", "solution/6"} <= gids
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert texts.count("NO SOLUTION") == 4
    assert any("4 unsolvable" in t for t in texts)
    assert make_booklet([card], tmp_path / "small.pdf") == 1


def test_results_table_is_used_and_checked(tmp_path):
    card = parse_card(SMALL_CARD)
    first = solve(task_instance(card, 1), backend="dlx")
    good = {k: [list(c) for c in v] for k, v in first.solutions[0].items()}
    bad = {k: [[r, c + 1] for r, c in v] for k, v in good.items()}     # shifted: not a cover of the region
    results = pd.DataFrame([
        dict(card_id="01", side="easy", face=1, count=first.count, difficulty=2.5, solution=json.dumps(good)),
        dict(card_id="01", side="easy", face=6, count=3, difficulty=7.24, solution=json.dumps(bad)),
        dict(card_id="01", side="easy", face=2, count=0, difficulty=1.0, solution=float("nan")),
        dict(card_id="01", side="easy", face=3, count=None, difficulty=float("nan"), solution=""),
    ])
    results["count"] = results["count"].astype("Int64")      # the batch runner's nullable dtype: NA in row 4
    views = {v.face: v for v in task_views(card, results)}
    assert views[1].solution == {k: [tuple(c) for c in v] for k, v in good.items()}
    assert (views[1].count, views[1].difficulty) == (first.count, 2.5)
    # The stale solution of face 6 is replaced by a valid one; its count and difficulty are kept.
    assert views[6].status == "solved" and views[6].solution != bad
    assert verify_solution(card.task_pieces(6), card.region, views[6].solution) is None
    assert (views[6].count, views[6].difficulty) == (3, 7.24)
    assert views[2].status == "no solution" and views[2].count == 0
    # A row with nothing known (count NA, no solution): solved here, shown as unsolvable (DLX above agrees).
    assert views[3].status == "no solution" and views[3].difficulty is None
    texts = [t.get_text() for t in render_page(card, list(views.values())).axes[0].texts]
    assert "difficulty" in texts and "7.2" in texts  # one decimal, as every difficulty on the page
    # The same table through the one reader (CSV and Parquet): the same views.
    from ubongo_cp.report import load_tasks, write_table, normalize_tasks

    table = normalize_tasks(results.assign(status=["solved", "solved", "no solution", None]))
    for name in ("r.csv", "r.parquet"):
        write_table(table, tmp_path / name)
        again = {v.face: v for v in task_views(card, load_tasks(tmp_path / name))}
        assert again[1] == views[1] and again[6].count == 3 and again[2].status == "no solution"
        # Its path, as `booklet --results` takes it, reads the same (it was AttributeError: 'str' object has no
        # attribute 'columns'); anything else is one error naming results.
        for path in (tmp_path / name, str(tmp_path / name)):
            assert {v.face: v for v in task_views(card, path)} == again
    for wrong in ([1, 2], 3.5):
        with pytest.raises(InputError, match="results must be a batch's task table .* or its path, got"):
            task_views(card, wrong)
    with pytest.raises(InputError, match="results must be"):
        make_booklet([card], tmp_path / "b.pdf", results=[1, 2])


def test_results_whose_card_ids_lost_their_leading_zeros_are_used(tmp_path, run_cli):
    # A spreadsheet re-saves tasks.csv with card "01" as 1: once no row matched (a warning that the results are
    # another deck's, and a booklet without ratings); calibrate already took card 1 for 01.
    import csv

    from ubongo_cp.booklet.views import results_index, unmatched_tasks
    from ubongo_cp.cards import load_deck
    from ubongo_cp.report import load_tasks
    from ubongo_cp.shipped import deck_dir, deck_tasks_path

    rows = list(csv.reader(deck_tasks_path("classic").open()))
    at = rows[0].index("card_id")
    for r in rows[1:]:
        r[at] = str(int(r[at]))
    with (tmp_path / "tasks.csv").open("w", newline="") as f:
        csv.writer(f).writerows(rows)
    table = load_tasks(tmp_path / "tasks.csv")
    assert "01" not in set(table["card_id"]) and "1" in set(table["card_id"])
    cards, _ = load_deck("classic")
    assert unmatched_tasks(cards, results_index(table)) == (0, 432)
    card = next(c for c in cards if (c.card_id, c.side) == ("01", "easy"))
    plain = load_tasks(deck_tasks_path("classic"))
    want = plain[(plain["card_id"] == "01") & (plain["side"] == "easy")].set_index("face")["difficulty"]
    got = {v.face: v.difficulty for v in task_views(card, table)}
    assert got == {int(f): pytest.approx(d) for f, d in want.items()} and len(got) == 6
    deck = tmp_path / "deck"
    deck.mkdir()
    for name in ("01_easy.toml", "01_hard.toml"):
        (deck / name).write_text((deck_dir("classic") / name).read_text())
    code, out, err = run_cli("booklet", deck, "--results", tmp_path / "tasks.csv", "--out", tmp_path / "b.pdf",
                             "--no-progress")
    assert code == 0 and err == "", err


def test_results_with_numeric_card_ids_are_refused():
    # A CSV read with plain pandas turns card "01" into 1: it could no longer be matched, so it is refused.
    results = pd.DataFrame([dict(card_id=1, side="easy", face=1, count=1, difficulty=2.5, solution="")])
    with pytest.raises(InputError, match="card_id holds numbers.*load_tasks"):
        task_views(parse_card(SMALL_CARD), results)


def test_a_parquet_table_saved_by_plain_pandas_with_numeric_card_ids_is_read(tmp_path, run_cli):
    # A table read with load_tasks, its card ids made numbers in pandas and saved with DataFrame.to_parquet: once
    # refused with advice to read it with load_tasks (which had read it), and its solutions (a struct of every
    # piece name, null where a piece is not placed) were no solutions.
    from conftest import one_line_error
    from ubongo_cp.report import load_tasks
    from ubongo_cp.shipped import deck_dir, deck_tasks_path

    plain = load_tasks(deck_tasks_path("classic"))
    edited = plain.assign(card_id=plain["card_id"].astype(int))
    edited.to_parquet(tmp_path / "tasks.parquet")
    back = load_tasks(tmp_path / "tasks.parquet")
    assert list(back["card_id"][::72]) == ["1", "7", "13", "19", "25", "31"]   # as a CSV re-saved by a spreadsheet
    assert back["solution"].tolist() == plain["solution"].tolist() and back["solution"][0] == {
        "I3": [(0, 1), (0, 2), (0, 3)], "S4": [(1, 2), (1, 3), (2, 3), (2, 4)],
        "P5": [(1, 0), (1, 1), (2, 0), (2, 1), (2, 2)]}
    pd.testing.assert_frame_equal(back.drop(columns="card_id"), plain.drop(columns="card_id"))
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "01_easy.toml").write_text((deck_dir("classic") / "01_easy.toml").read_text())
    code, out, err = run_cli("booklet", deck, "--results", tmp_path / "tasks.parquet", "--out", tmp_path / "b.pdf",
                             "--no-progress")
    assert code == 0 and err == "" and out.startswith("wrote 1 page(s)"), err   # every task matched: none solved again
    # a card id that is no whole number is named with its column and row
    edited.assign(card_id=[1.5] + [1.0] * (len(edited) - 1)).to_parquet(tmp_path / "half.parquet")
    code, out, err = run_cli("booklet", deck, "--results", tmp_path / "half.parquet", "--out", tmp_path / "b.pdf",
                             "--no-progress")
    one_line_error(code, err, f"ubongo-cp: error: {tmp_path / 'half.parquet'}: column card_id (row 1): 1.5 is not a "
                              "card id (text, or a whole number)")


def test_results_giving_a_task_twice_are_refused(tmp_path, run_cli):
    # Two rows of one task (a table pasted together from two runs): once the booklet showed the last of them
    # silently, whichever rating and solution it held.
    from conftest import one_line_error
    from ubongo_cp.report import load_tasks, write_table
    from ubongo_cp.shipped import deck_dir, deck_tasks_path

    plain = load_tasks(deck_tasks_path("classic"))
    twice = pd.concat([plain, plain.iloc[[3]].assign(difficulty=99.5)], ignore_index=True)
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "01_easy.toml").write_text((deck_dir("classic") / "01_easy.toml").read_text())
    for name, where in (("tasks.csv", f":{len(plain) + 2}: task card 01 side easy face 4 is given twice (also on "
                                      "line 5)"),
                        ("tasks.parquet", ": task card 01 side easy face 4 (row 433) is given twice (also on row 4)")):
        write_table(twice, tmp_path / name)
        code, out, err = run_cli("booklet", deck, "--results", tmp_path / name, "--out", tmp_path / "b.pdf",
                                 "--no-progress")
        one_line_error(code, err, f"ubongo-cp: error: {tmp_path / name}{where}")
        assert out == "" and not (tmp_path / "b.pdf").exists()
    # a table given as a DataFrame
    with pytest.raises(InputError, match=r"^task card 01 side easy face 4 \(row 433\) is given twice"):
        task_views(load_deck(deck)[0][0], twice)


def test_results_as_a_dataframe_are_checked_as_a_file_is(tmp_path):
    # A DataFrame given to make_booklet: a task's row with its face NaN was skipped quietly (the booklet solved that
    # task again), and card "1" beside card "01" (a spreadsheet's card 01, which the booklet matches to it) passed
    # as two tasks, one of them read.
    from ubongo_cp.report import load_tasks
    from ubongo_cp.shipped import deck_dir, deck_tasks_path

    plain = load_tasks(deck_tasks_path("classic"))
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "01_easy.toml").write_text((deck_dir("classic") / "01_easy.toml").read_text())
    no_face = plain.astype({"face": "float64"})
    no_face.loc[3, "face"] = np.nan
    with pytest.raises(InputError, match=re.escape("column face (row 4) is empty in a task's row (each task's row "
                                                   "names its card, side and die face)")):
        make_booklet(load_deck(deck)[0], tmp_path / "b.pdf", results=no_face)
    with pytest.raises(InputError, match="^" + re.escape("task card 1 side easy face 4 (row 433) is given twice (also "
                                                         "on row 4, as card 01)") + "$"):
        make_booklet(load_deck(deck)[0], tmp_path / "b.pdf",
                     results=pd.concat([plain, plain.iloc[[3]].assign(card_id="1")], ignore_index=True))
    assert not (tmp_path / "b.pdf").exists()
    # a row of empty fields (a bool column False once read) is no task: the booklet reads the table around it
    edited = plain.reindex([0, 1, 2, -1, *range(3, len(plain))]).reset_index(drop=True)   # row 4: every field NaN
    views = task_views(load_deck(deck)[0][0], edited)
    assert [v.count for v in views] == [v.count for v in task_views(load_deck(deck)[0][0], plain)]


def test_bad_input():
    with pytest.raises(InputError, match="no card sides"):
        make_booklet([], "unused.pdf")
    with pytest.raises(InputError, match="lacks column"):
        task_views(parse_card(SMALL_CARD), pd.DataFrame({"card_id": ["01"], "face": [1]}))


@pytest.mark.parametrize("pieces, n", [("classic", 12), ("duel", 21)])
def test_palette_gives_every_piece_of_a_shipped_set_its_own_colour(pieces, n):
    names = load_pieces(pieces).names
    colours = piece_colours(names)
    assert len(names) == n and len(set(colours.values())) == n


def test_results_of_another_deck_are_ignored(tmp_path):
    # A results table whose row has the same card id, side and face but
    # another task (task_hash) must not lend its difficulty or count.
    import pandas as pd

    from ubongo_cp.booklet import task_views
    from ubongo_cp.cards import load_card, task_hash

    from conftest import PUZZLES

    card = load_card(PUZZLES / "examples" / "classic_X1_easy.toml")
    face = next(iter(card.tasks))
    row = {"card_id": card.card_id, "side": card.side, "face": face, "status": "solved", "count": 7,
           "difficulty": 9.99, "solution": "", "task_hash": "0" * 12}
    views = task_views(card, pd.DataFrame([row]))
    assert views[0].difficulty is None and views[0].count in (None, 1)
    row["task_hash"] = task_hash(card, face)
    assert task_views(card, pd.DataFrame([row]))[0].difficulty == 9.99


# ------------------------------------------------------------------ issue 14: titles, labels, icons, all solutions

MULTI_CARD = '''
game = "classic"
card = "M1"
side = "hard"
pieces = "classic"
game_title = "Blokko"
region = """
####
####
####
"""

[tasks]
1 = ["I2", "L5", "P5"]
2 = ["I2", "L3", "T4", "I3"]
'''


def test_title_comes_from_the_game_or_the_card_file():
    card = parse_card(MULTI_CARD)
    texts = [t.get_text() for t in render_page(card, task_views(card)).axes[0].texts]
    assert texts[0].startswith("Blokko  \u00b7  card M1  \u00b7  hard side")
    plain = parse_card(MULTI_CARD.replace('game_title = "Blokko"', 'title = "Tiles"'))
    assert render_page(plain, task_views(plain)).axes[0].texts[0].get_text().startswith("Tiles")
    duel = next(c for c in load_deck(PUZZLES / "examples")[0] if c.game == "duel")
    assert render_page(duel, task_views(duel)).axes[0].texts[0].get_text().startswith("Ubongo Duel  \u00b7  card X2")


def _panel_infos(fig) -> list[str]:
    return [t.get_text() for t in fig.axes[0].texts if re.match(r"(\u2265?\d+ sol|sol\. \d|solution \d)", t.get_text())]


def test_one_header_style_per_page_and_icons_for_five_piece_tasks():
    from ubongo_cp.report import load_tasks

    cards, _ = load_deck(PUZZLES / "decks" / "duel")
    card = next(c for c in cards if (c.card_id, c.side) == ("3", "B"))      # 20 tasks of 5 pieces
    fig = render_page(card, task_views(card, load_tasks(PUZZLES / "decks" / "duel" / "tasks.csv")))
    infos = _panel_infos(fig)
    assert len(infos) == 20
    # One style on the whole page (it used to mix "1 sol." and "1 solution"), difficulty included.
    shapes = {re.sub(r"[\d.]+", "N", t) for t in infos}
    assert len(shapes) == 1 and "d" in next(iter(shapes)), shapes
    # The task table draws every piece's shape: one collection of 20 x 5 icons, each the piece's cell count.
    icons = [c for c in fig.axes[0].collections if len(c.get_paths()) == 100]
    assert len(icons) == 1
    sizes = [len(p.vertices) // 5 for p in icons[0].get_paths()]
    assert sizes == [card.piece_set[n].size for names in card.tasks.values() for n in names]


def test_all_solutions_draws_every_solution_on_continuation_pages(tmp_path):
    from pypdf import PdfReader

    card = parse_card(MULTI_CARD)
    # Independent counts (DLX, full enumeration): face 1 has 8 tilings, face 2 has 28.
    counts = {f: solve(task_instance(card, f), backend="dlx").count for f in card.tasks}
    assert counts == {1: 8, 2: 28}
    views = task_views(card, all_solutions=True, most=10)
    assert (views[0].count, views[0].count_is_lower_bound, len(views[0].solutions)) == (8, False, 8)
    assert (views[1].count, views[1].count_is_lower_bound, len(views[1].solutions)) == (10, True, 10)
    for view in views:
        keys = {frozenset((k, tuple(sorted(v))) for k, v in s.items()) for s in view.solutions}
        assert len(keys) == len(view.solutions)                                 # all different
        for s in view.solutions:
            assert verify_solution(card.task_pieces(view.face), card.region, s) is None
    from ubongo_cp.booklet import render_pages

    figs = render_pages(card, views)
    gids = [c.get_gid() for f in figs for c in f.axes[0].collections if (c.get_gid() or "").startswith("solution/")]
    assert len(gids) == 18 and "solution/1/8" in gids and "solution/2/10" in gids
    assert len(figs) == 2 and figs[1].axes[0].texts[0].get_text().endswith("(continued)")
    headers = _panel_infos(figs[0])
    assert headers[0] == "solution 1 of 8" or headers[0].startswith("sol. 1 of 8"), headers
    pages = make_booklet([card], tmp_path / "all.pdf", png_dir=tmp_path / "png", all_solutions=True, most=10, dpi=20)
    assert pages == 2 and len(PdfReader(tmp_path / "all.pdf").pages) == 2
    assert listing(tmp_path / "png") == ["classic_M1_hard.png", "classic_M1_hard_2.png"]


def test_all_solutions_keeps_an_exact_count_from_the_results():
    """Face 2 has 28 tilings (counted by DLX above); a results table that says so keeps it exact with most=10."""
    import pandas as pd

    card = parse_card(MULTI_CARD)
    first = solve(task_instance(card, 2), backend="dlx", limit=1, keep=1).solutions[0]
    table = pd.DataFrame([{"card_id": card.card_id, "side": card.side, "face": 2, "count": 28, "status": "solved",
                           "complete": True, "solution": first}])
    view = task_views(card, table, all_solutions=True, most=10)[1]
    assert (view.count, view.count_is_lower_bound, len(view.solutions)) == (28, False, 10)


@pytest.mark.parametrize("most, shown", [("2", "'2'"), (0, "0"), (2.0, "2.0"), (True, "True")])
def test_task_views_refuses_a_most_that_is_not_a_whole_number_of_at_least_1(most, shown):
    """As make_booklet and result_figure do; with most=9 the count is exact, DLX's 8 tilings of face 1."""
    from ubongo_cp.errors import InputError

    card = parse_card(MULTI_CARD)
    with pytest.raises(InputError, match=rf"^most must be a whole number of at least 1, got {shown}$"):
        task_views(card, None, most=most)
    view = task_views(card, None, all_solutions=True, most=9)[0]
    assert (view.count, view.count_is_lower_bound, len(view.solutions)) == (8, False, 8)


def test_pdf_has_a_bookmark_per_card_side(booklet, example_cards):
    from pypdf import PdfReader

    _, out = booklet
    reader = PdfReader(out / "booklet.pdf")
    marks = [(m.title, reader.get_destination_page_number(m)) for m in reader.outline]
    assert marks == [("card X1 \u00b7 easy side", 0), ("card X1 \u00b7 hard side", 1), ("card X2 \u00b7 side A", 2)]
    assert reader.metadata.title == "Ubongo / Ubongo Duel solution booklet"


def test_png_folder_keeps_every_file_the_booklet_did_not_write(example_cards, tmp_path, monkeypatch):
    import ubongo_cp.booklet.book as booklet_module

    pngs = tmp_path / "pages"
    (pngs / "photos").mkdir(parents=True)
    mine = {"holiday.png": b"\x89PNG a user's photo", "notes.txt": b"mine", "photos/cat.png": b"\x89PNG cat"}
    for name, data in mine.items():
        (pngs / name).write_bytes(data)
    make_booklet(example_cards, tmp_path / "b.pdf", png_dir=pngs, dpi=20)
    assert listing(pngs) == ["classic_X1_easy.png", "classic_X1_hard.png", "duel_X2_A.png", "holiday.png",
                             "notes.txt", "photos"]
    # A deck with one card side fewer: the page the booklet wrote for it goes; the user's files stay.
    make_booklet(example_cards[:2], tmp_path / "b.pdf", png_dir=pngs, dpi=20)
    assert listing(pngs) == ["classic_X1_easy.png", "classic_X1_hard.png", "holiday.png", "notes.txt", "photos"]
    assert all((pngs / name).read_bytes() == data for name, data in mine.items())
    make_booklet(example_cards, tmp_path / "b.pdf", png_dir=pngs, dpi=20)
    first = {p.name: p.read_bytes() for p in pngs.iterdir() if p.is_file()}
    # A run interrupted after its first page leaves the folder (and the PDF) as they were.
    real = booklet_module.render_pages
    calls = []

    def interrupted(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(booklet_module, "render_pages", interrupted)
    pdf_before = (tmp_path / "b.pdf").read_bytes()
    with pytest.raises(KeyboardInterrupt):
        make_booklet(list(reversed(example_cards)), tmp_path / "b.pdf", png_dir=pngs, dpi=30)
    assert {p.name: p.read_bytes() for p in pngs.iterdir() if p.is_file()} == first
    assert (tmp_path / "b.pdf").read_bytes() == pdf_before
    assert listing(tmp_path) == ["b.pdf", "pages"]        # no temporary left
    assert listing(pngs) == ["classic_X1_easy.png", "classic_X1_hard.png", "duel_X2_A.png", "holiday.png",
                             "notes.txt", "photos"]


def test_a_page_folder_without_its_record_is_refused_and_left_as_it_is(example_cards, tmp_path):
    # A folder of pages copied without its hidden record: nothing says the pages are as the booklet drew them
    # (one may have been retouched), so none is taken over, whatever drew it; the run stops before drawing.
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pngs = tmp_path / "pages"
    make_booklet(example_cards, tmp_path / "b.pdf", png_dir=pngs, dpi=20)
    (pngs / ".ubongo-cp.json").unlink()
    before = {p.name: p.read_bytes() for p in pngs.iterdir()}
    with pytest.raises(InputError, match="classic_X1_easy.png: exists and was not written by `ubongo-cp booklet`"):
        make_booklet(example_cards[:2], tmp_path / "b.pdf", png_dir=pngs, dpi=20)
    assert {p.name: p.read_bytes() for p in pngs.iterdir()} == before
    # nor is a picture of the user's that matplotlib drew, named like a page
    mine = tmp_path / "mine"
    mine.mkdir()
    plt.plot([1, 2])
    plt.savefig(mine / "classic_X1_easy.png")
    plt.close("all")
    drawn = (mine / "classic_X1_easy.png").read_bytes()
    with pytest.raises(InputError, match="exists and was not written by `ubongo-cp booklet`"):
        make_booklet(example_cards, tmp_path / "b2.pdf", png_dir=mine, dpi=20)
    assert (mine / "classic_X1_easy.png").read_bytes() == drawn and listing(mine) == ["classic_X1_easy.png"]


def test_cli_booklet_refuses_to_replace_a_png_it_did_not_write(run_cli, tmp_path):
    # A user's file where a page would go: refused before any drawing, one line naming it, nothing touched.
    pngs = tmp_path / "photos"
    pngs.mkdir()
    (pngs / "holiday.png").write_bytes(b"holiday")
    (pngs / "classic_X1_hard.png").write_bytes(b"a user's own picture")
    code, out, err = run_cli("booklet", PUZZLES / "examples", "--out", tmp_path / "b.pdf", "--png", pngs,
                             "--no-progress")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"{pngs / 'classic_X1_hard.png'}: exists and was not written by `ubongo-cp booklet`" in err
    assert listing(pngs) == ["classic_X1_hard.png", "holiday.png"]
    assert (pngs / "classic_X1_hard.png").read_bytes() == b"a user's own picture"
    assert not (tmp_path / "b.pdf").exists()
    # Into a folder of photos with no name in common: the pages join them, the photos stay.
    (pngs / "classic_X1_hard.png").unlink()
    code, out, err = run_cli("booklet", PUZZLES / "examples", "--out", tmp_path / "b.pdf", "--png", pngs,
                             "--no-progress")
    assert code == 0, err
    assert listing(pngs) == ["classic_X1_easy.png", "classic_X1_hard.png", "duel_X2_A.png", "holiday.png"]
    assert (pngs / "holiday.png").read_bytes() == b"holiday"


def test_png_folder_refuses_the_pages_of_another_deck(run_cli, tmp_path):
    pngs = tmp_path / "pages"
    code, _, err = run_cli("booklet", PUZZLES / "examples", "--out", tmp_path / "a.pdf", "--png", pngs,
                           "--no-progress")
    assert code == 0, err
    before = {p.name: p.read_bytes() for p in pngs.iterdir()}
    code, out, err = run_cli("booklet", PUZZLES / "decks" / "duel", "--out", tmp_path / "b.pdf", "--png", pngs,
                             "--no-progress")
    assert code == 2 and err.count("\n") == 1 and f"{pngs}: holds the output of `ubongo-cp booklet` for" in err
    assert {p.name: p.read_bytes() for p in pngs.iterdir()} == before


def test_cli_booklet_progress_and_options(run_cli, tmp_path, monkeypatch):
    deck = PUZZLES / "examples"
    code, out, err = run_cli("booklet", deck, "--out", tmp_path / "n.pdf")
    assert code == 0 and err == ""  # standard error is no terminal here: no bar
    import ubongo_cp.cli.deck

    monkeypatch.setattr(ubongo_cp.cli.deck, "show_bar", lambda args: not args.no_progress)  # as on a terminal
    code, out, err = run_cli("booklet", deck, "--out", tmp_path / "a.pdf")
    assert code == 0 and "booklet" in err and "3/3" in err
    code, out, err = run_cli("booklet", deck, "--out", tmp_path / "b.pdf", "--no-progress")
    assert code == 0 and err == "" and out.strip() == f"wrote 3 page(s) to {tmp_path / 'b.pdf'}"
    code, out, err = run_cli("booklet", deck, "--out", tmp_path / "c.pdf", "--most", "3")
    assert code == 2 and "--most goes with --all-solutions" in err


# ------------------------------------------------------------------ playtest cards (issue 14, task C)

def test_playtest_cards_are_true_to_scale_on_a4(run_cli, tmp_path):
    from pypdf import PdfReader

    from ubongo_cp.booklet.playtest import card_sheets, piece_sheets

    cards, _ = load_deck(PUZZLES / "decks" / "classic")
    cards = cards[:8]
    cell = 17.5
    code, out, err = run_cli("cards", PUZZLES / "decks" / "classic", "--out", tmp_path / "cards.pdf",
                             "--cell-mm", cell, "--no-progress")
    assert code == 0 and out.startswith("wrote 72 card side(s) on ") and "and the pieces on" in out
    reader = PdfReader(tmp_path / "cards.pdf")
    for page in reader.pages:                         # A4 portrait: 210 x 297 mm = 595.28 x 841.89 pt
        assert float(page.mediabox.width) == pytest.approx(210 / 25.4 * 72, abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(297 / 25.4 * 72, abs=0.01)
    figs = card_sheets(cards, cell)
    seen = []
    for fig in figs:
        ax = fig.axes[0]
        # Data coordinates are millimetres on paper: 1 data unit is 1/25.4 inch at any dpi.
        (x0, _), (x1, _) = ax.transData.transform([(0, 0), (100, 0)])
        assert (x1 - x0) / fig.dpi * 25.4 == pytest.approx(100.0)
        boxes = []
        for coll in ax.collections:
            gid = coll.get_gid() or ""
            if gid.startswith("region/"):
                card = next(c for c in cards if gid == f"region/{c.card_id}/{c.side}")
                squares = coll.get_paths()[0].vertices.reshape(-1, 5, 2)
                assert len(squares) == card.region.area
                sizes = squares.max(axis=1) - squares.min(axis=1)
                assert np.allclose(sizes, cell)                      # every drawn cell is 17.5 mm square
                lo, hi = squares.min(axis=(0, 1)), squares.max(axis=(0, 1))
                assert np.allclose(hi - lo, [card.region.width * cell, card.region.height * cell])
                assert lo.min() >= 10.0 and hi[0] <= 200.0 and hi[1] <= 287.0     # inside the page margins
                boxes.append((lo, hi))
                seen.append(gid)
        for i, (lo, hi) in enumerate(boxes):                         # regions never overlap
            for lo2, hi2 in boxes[i + 1:]:
                assert (hi <= lo2 + 1e-9).any() or (hi2 <= lo + 1e-9).any()
    assert sorted(seen) == sorted(f"region/{c.card_id}/{c.side}" for c in cards)
    assert len(figs) < len(cards)                                    # several card sides per page
    pieces = piece_sheets(cards[0].piece_set, cell)
    drawn = {c.get_gid(): c for f in pieces for c in f.axes[0].collections if (c.get_gid() or "").startswith("piece/")}
    assert sorted(drawn) == sorted(f"piece/{n}" for n in cards[0].piece_set.names)
    for name, coll in drawn.items():
        squares = coll.get_paths()[0].vertices.reshape(-1, 5, 2)
        assert len(squares) == cards[0].piece_set[name.split("/")[1]].size
        assert np.allclose(squares.max(axis=1) - squares.min(axis=1), cell)


def test_playtest_cards_refuse_what_does_not_fit(run_cli, tmp_path):
    code, out, err = run_cli("cards", PUZZLES / "decks" / "duel", "--out", tmp_path / "c.pdf", "--cell-mm", "40")
    assert code == 2 and "larger than an A4 page; choose a smaller cell size" in err and err.count("\n") == 1
    assert f"{PUZZLES / 'decks' / 'duel'}/1_A.toml: card 1 side A is " in err   # the card's file
    code, out, err = run_cli("cards", PUZZLES / "decks" / "duel", "--out", tmp_path / "c.pdf", "--cell-mm", "0")
    assert code == 2 and "--cell-mm must be a number of millimetres above 0 and at most 60" in err
    assert not (tmp_path / "c.pdf").exists()


def test_playtest_cards_name_the_width_a_long_task_row_needs(run_cli, tmp_path):
    # One bar of 76 cells: its task row is 183 mm of icons, under the page's 190 mm, but the card's 5 mm
    # margins on either side make it 193 mm, which no cell size shrinks. The message says the width compared.
    n, deck = 76, tmp_path / "deck"
    deck.mkdir()
    (deck / "pieces.txt").write_text(f"W\n{'#' * n}\n")
    (deck / "deck.toml").write_text(f'game = "wide"\npieces = "pieces.txt"\ncards = 1\n[[sides]]\nname = "a"\n'
                                    f'pieces_per_task = 1\nfaces = 1\nmax_rows = 1\nmax_cols = {n}\n'
                                    f'cells = [{n}, {n}]\n')
    (deck / "w.toml").write_text(f'game = "wide"\ncard = "1"\nside = "a"\npieces = "pieces.txt"\n'
                                 f'region = """\n{"#" * n}\n"""\n[tasks]\n1 = ["W"]\n')
    code, out, err = run_cli("cards", deck, "--out", tmp_path / "c.pdf")
    assert code == 2 and err == (
        f"ubongo-cp: error: {deck / 'w.toml'}: card 1 side a: its longest task row needs 193.0 mm with the "
        "card's margins (183.0 mm of pieces and 2 x 5 mm), more than an A4 page holds (190 mm) at any cell size; "
        "give that task fewer or narrower pieces (the booklet prints it)\n")


def test_playtest_cards_name_a_title_too_long_for_the_page(run_cli, tmp_path):
    # A title of 60 W's made every card wider than the page, and the message said "choose a smaller cell size",
    # which no cell size helps: the title line alone is wider than the page.
    import re

    deck = tmp_path / "deck"
    deck.mkdir()
    card = (PUZZLES / "examples" / "classic_X1_easy.toml").read_text()
    (deck / "x.toml").write_text(card.replace('side = "easy"\n', 'side = "easy"\ngame_title = "' + "W" * 60 + '"\n'))
    for cell in ("20", "1"):
        code, out, err = run_cli("cards", deck, "--out", tmp_path / "c.pdf", "--cell-mm", cell)
        assert code == 2 and err.count("\n") == 1 and "smaller cell size" not in err, err
        assert err.startswith(f"ubongo-cp: error: {deck / 'x.toml'}: card X1 side easy: its title line "
                              f"'{'W' * 37}...' needs "), err
        assert err.endswith(" mm with the card's margins, more than an A4 page holds (190 mm) at any cell size; give "
                            "the game a shorter title (the deck spec's title, or the card's game_title key)\n"), err
        assert float(re.search(r"needs ([0-9.]+) mm", err)[1]) > 190
    (deck / "x.toml").write_text(card.replace('side = "easy"\n', 'side = "easy"\ngame_title = "Blokko"\n'))
    assert run_cli("cards", deck, "--out", tmp_path / "c.pdf")[0] == 0
    assert not any(p.name.startswith(".") for p in tmp_path.iterdir())


def test_batch_and_booklet_run_twice_into_the_same_folder(run_cli, tmp_path):
    # What `make run` does, twice: the second run resumes the batch and rewrites its own outputs.
    deck, out = PUZZLES / "examples", tmp_path / "out"
    for attempt in (1, 2):
        code, printed, err = run_cli("batch", deck, "--out", out, "--no-progress")
        assert code == 0, err
        assert (f"{32 if attempt == 1 else 0} task(s) computed, {0 if attempt == 1 else 32} resumed"
                in printed)
        code, printed, err = run_cli("booklet", deck, "--results", out, "--out", out / "booklet.pdf",
                                     "--png", out / "pages", "--no-progress")
        assert code == 0 and err == "", err
        assert listing(out / "pages") == ["classic_X1_easy.png", "classic_X1_hard.png", "duel_X2_A.png"]
    assert listing(out) == ["booklet.pdf", "cards.csv", "cards.parquet", "pages",
                                                    "summary.md", "tasks.csv", "tasks.jsonl", "tasks.parquet"]


def test_a_custom_spec_deck_is_titled_by_its_spec(tmp_path):
    # generate --spec writes deck.toml (title "Tiny Blocks") beside the cards; pages and cards use that title.
    from pypdf import PdfReader

    from ubongo_cp.booklet.playtest import make_playtest_cards
    from ubongo_cp.generate import generate_deck

    deck = generate_deck(str(PUZZLES / "examples" / "designer" / "deck.toml"), tmp_path / "deck", seed=3, cards=1)
    cards, problems = load_deck(tmp_path / "deck")
    assert problems == [] and len(cards) == len(deck) == 2
    title = render_page(cards[0], task_views(cards[0])).axes[0].texts[0].get_text()
    assert title.startswith("Tiny Blocks  \u00b7  card ") and "easy side" in title
    make_playtest_cards(cards, tmp_path / "cards.pdf")
    assert PdfReader(tmp_path / "cards.pdf").metadata.title == "Tiny Blocks playtest cards"


def test_cli_booklet_warns_when_results_do_not_match_the_deck(run_cli, tmp_path):
    import shutil

    # Another deck's results (the shipped duel deck's table): no task matches, so no ratings at all.
    code, out, err = run_cli("booklet", PUZZLES / "examples", "--results", PUZZLES / "decks" / "duel",
                             "--out", tmp_path / "a.pdf", "--no-progress")
    assert code == 0, err
    assert err == (f"ubongo-cp: warning: no result in {PUZZLES / 'decks' / 'duel'} matches a task of the deck "
                   "(results of another deck, or of an earlier version of it?); every task is solved here and the "
                   "booklet shows no ratings\n")
    # The deck's own results, then one task changed after the batch: just that one is counted (6 + 6 + 20 tasks).
    code, _, err = run_cli("batch", PUZZLES / "examples", "--out", tmp_path / "out", "--no-progress")
    assert code == 0, err
    deck = tmp_path / "deck"
    shutil.copytree(PUZZLES / "examples", deck)
    card = deck / "classic_X1_easy.toml"
    text = card.read_text()
    assert '\n1 = ["I2", "L4", "Y5"]' in text
    card.write_text(text.replace('\n1 = ["I2", "L4", "Y5"]', '\n1 = ["I2", "I4", "Y5"]'))
    code, _, err = run_cli("booklet", deck, "--results", tmp_path / "out", "--out", tmp_path / "b.pdf",
                           "--no-progress")
    assert code == 0, err
    assert err == (f"ubongo-cp: warning: 1 of 32 tasks have no matching result in {tmp_path / 'out'}; they are "
                   "solved here and show no rating\n")


@pytest.mark.parametrize("mode, note", [("free", None), ("one-sided", "pieces are not turned over"),
                                        ("fixed", "pieces lie as shown, neither turned nor turned over")])
def test_a_card_whose_pieces_may_not_be_turned_over_says_so(mode, note):
    # The solver kept to one-sided pieces, but neither the playtest card nor the booklet page told the players.
    from ubongo_cp.booklet import render_page, task_views
    from ubongo_cp.booklet.playtest import card_sheets
    from ubongo_cp.cards import load_deck
    from ubongo_cp.structs import replace

    card = replace(load_deck("classic")[0][0], orientations=mode)
    for fig in (card_sheets([card], 20.0)[0], render_page(card, task_views(card))):
        texts = [t.get_text() for t in fig.axes[0].texts]
        said = [t for t in texts if "turned" in t]
        assert (said == [] if note is None else any(note in t for t in said)), said


def test_cards_check_the_image_folders_before_writing_the_pdf(run_cli, tmp_path):
    # A file of the user's under a card image's name stops the command before any output: the PDF was
    # written first and the refusal came after it.
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "pieces.txt").write_text("W\n###\n")
    (deck / "deck.toml").write_text('game = "wide"\npieces = "pieces.txt"\ncards = 1\n[[sides]]\nname = "a"\n'
                                    'pieces_per_task = 1\nfaces = 1\nmax_rows = 1\nmax_cols = 3\ncells = [3, 3]\n')
    (deck / "w.toml").write_text('game = "wide"\ncard = "1"\nside = "a"\npieces = "pieces.txt"\n'
                                 'region = """\n###\n"""\n[tasks]\n1 = ["W"]\n')
    images = tmp_path / "svg"
    images.mkdir()
    (images / "wide_1_a.svg").write_text("my drawing")
    code, out, err = run_cli("cards", deck, "--out", tmp_path / "c.pdf", "--svg", images, "--no-progress")
    assert code == 2 and "wide_1_a.svg: exists and was not written by `ubongo-cp cards --svg`" in err
    assert not (tmp_path / "c.pdf").exists() and (images / "wide_1_a.svg").read_text() == "my drawing"
    code, out, err = run_cli("cards", deck, "--out", tmp_path / "c.pdf", "--svg", tmp_path / "new", "--no-progress")
    assert code == 0 and (tmp_path / "c.pdf").exists() and (tmp_path / "new" / "wide_1_a.svg").exists()


def test_cards_refuse_an_image_too_large_to_read_before_drawing_any(run_cli, tmp_path):
    # 1200 dpi and 60 mm cells are each allowed; together a card image is 14,646 x 20,031 pixels (a card of
    # 244 x 334 mm), past the 89,478,485 pixels Pillow reads: it ran out of memory after writing five such files.
    code, out, err = run_cli("cards", PUZZLES / "decks" / "classic", "--png", tmp_path / "png", "--dpi", "1200",
                             "--cell-mm", "60", "--out", tmp_path / "c.pdf", "--no-progress")
    assert code == 2 and err.count("\n") == 1
    assert "would be a 14646 x 20031 pixel image at 1200 dpi and 60 mm per cell" in err and "at most 662" in err
    assert not (tmp_path / "png").exists() and not (tmp_path / "c.pdf").exists()


def test_cards_refuse_a_resolution_too_low_for_their_text(run_cli, tmp_path):
    # --dpi 1 to 4 were accepted, then matplotlib's font engine failed on the cards' 5 pt text ("invalid ppem
    # value", exit 1); at the least resolution taken it is 20 x 5 / 72 = 1.4 pixels high.
    for dpi in ("1", "4", "19"):
        code, out, err = run_cli("cards", PUZZLES / "decks" / "classic", "--png", tmp_path / dpi, "--dpi", dpi,
                                 "--no-progress", "--no-pieces")
        assert code == 2 and err == f"ubongo-cp: error: --dpi must be from 20 to 1200 dots per inch, got {dpi}\n"
        assert not (tmp_path / dpi).exists()
    code, out, err = run_cli("cards", PUZZLES / "decks" / "classic", "--png", tmp_path / "20", "--dpi", "20",
                             "--no-progress", "--no-pieces")
    assert code == 0 and len(list((tmp_path / "20").glob("*.png"))) == 72   # one per card side: 36 cards


@pytest.mark.parametrize("command", ["cards", "booklet"])
def test_a_pdf_is_not_written_under_an_image_name(run_cli, tmp_path, command):
    # `cards DECK --out cards.png` wrote a multi-page PDF under that name.
    code, out, err = run_cli(command, PUZZLES / "decks" / "classic", "--out", tmp_path / "cards.png", "--no-progress")
    assert code == 2 and err.count("\n") == 1
    images = "--png DIR or --svg DIR" if command == "cards" else "--png DIR"
    assert f"cards.png: writes a PDF; use a .pdf file name ({images} for images)" in err
    assert not (tmp_path / "cards.png").exists()
    # a file there already: the name is still what is said (it once said only that the file is no PDF of
    # ubongo-cp's), and the file is kept
    (tmp_path / "cards.png").write_bytes(b"mine")
    code, out, err = run_cli(command, PUZZLES / "decks" / "classic", "--out", tmp_path / "cards.png", "--no-progress")
    assert code == 2 and err.count("\n") == 1
    assert f"cards.png: writes a PDF; use a .pdf file name ({images} for images)" in err
    assert (tmp_path / "cards.png").read_bytes() == b"mine"


def test_playtest_page_note_clear_of_the_cut_marks():
    # The page note sat at the page's top-left margin, where the first card's vertical cut mark runs up
    # into the margin: the mark struck through the note's first letter on every card page.
    from matplotlib.collections import PathCollection
    from matplotlib.transforms import Bbox

    from ubongo_cp.booklet.playtest import card_sheets

    cards, _ = load_deck(PUZZLES / "decks" / "hexagons")
    fig = card_sheets(cards[:2], 20.0)[0]
    ax = fig.axes[0]
    renderer = fig.canvas.get_renderer()
    note = next(t for t in ax.texts if t.get_text().startswith("playtest cards"))
    box = Bbox(ax.transData.inverted().transform(note.get_window_extent(renderer)))
    lo, hi = box.min, box.max
    for coll in ax.collections:
        if not isinstance(coll, PathCollection) or coll.get_gid():
            continue
        for path in coll.get_paths():
            xy = path.vertices
            if len(xy) % 2:
                continue
            for (x0, y0), (x1, y1) in xy.reshape(-1, 2, 2):          # segments of a stroke
                apart = (max(x0, x1) < lo[0] or min(x0, x1) > hi[0] or max(y0, y1) < min(lo[1], hi[1])
                         or min(y0, y1) > max(lo[1], hi[1]))
                assert apart, f"a line ({x0:.1f}, {y0:.1f})-({x1:.1f}, {y1:.1f}) crosses the page note {box}"


def test_page_header_names_the_die_faces_the_card_has(tmp_path):
    # The header said "(die faces 1–1)" for one task and "(die faces 1–6)" for tasks on faces 1, 4 and 6.
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "deck.toml").write_text((PUZZLES / "decks" / "hexagons" / "deck.toml").read_text())
    card = ('game = "hexagons"\ncard = "01"\nside = "easy"\npieces = "tetrahexes"\ngrid = "hex"\n'
            'region = """\n# # # #\n # # # #\n"""\n\n[tasks]\n')
    for name, tasks in (("01", '1 = ["I4", "I4"]\n4 = ["P4", "P4"]\n6 = ["J4", "J4"]\n'),
                        ("02", '2 = ["I4", "I4"]\n'), ("03", '1 = ["I4", "I4"]\n2 = ["P4", "P4"]\n')):
        (deck / f"{name}_easy.toml").write_text(card.replace('"01"', f'"{name}"') + tasks)
    cards, problems = load_deck(deck)
    assert not problems and len(cards) == 3
    for side, expected in zip(sorted(cards, key=lambda c: c.card_id), ("3 tasks (die faces 1, 4, 6)",
                                                                       "1 task (die face 2)",
                                                                       "2 tasks (die faces 1\u20132)")):
        fig = render_page(side, task_views(side))
        texts = [t.get_text() for t in fig.axes[0].texts]
        assert any(t.startswith(expected + "   \u00b7") for t in texts), texts


def test_a_row_of_other_pieces_is_not_the_tasks_result_without_a_hash(tmp_path, run_cli):
    # A results table without task_hash (another tool's, or the column dropped in a spreadsheet) for a card edited
    # since: face 1 now names face 2's pieces. Its row of the old pieces was taken for the task, the page showing
    # the old task's count and difficulty beside the new pieces, and no warning said so.
    from ubongo_cp.booklet.views import results_index, unmatched_tasks
    from ubongo_cp.report import load_tasks, write_table

    deck = tmp_path / "deck"
    deck.mkdir()
    text = (PUZZLES / "decks" / "classic" / "01_easy.toml").read_text()
    old, new = re.search(r"^1 = (.*)$", text, re.M).group(1), re.search(r"^2 = (.*)$", text, re.M).group(1)
    (deck / "01_easy.toml").write_text(text.replace(f"1 = {old}", f"1 = {new}"))
    card = load_deck(deck)[0][0]
    tasks = load_tasks(PUZZLES / "decks" / "classic" / "tasks.csv")
    ours = tasks[(tasks["card_id"] == "01") & (tasks["side"] == "easy")].drop(columns="task_hash")
    rows = {int(r["face"]): r for r in ours.to_dict("records")}
    assert rows[1]["pieces"] != rows[2]["pieces"] and rows[1]["difficulty"] != rows[2]["difficulty"]
    views = {v.face: v for v in task_views(card, ours)}
    assert views[1].pieces == tuple(rows[2]["pieces"]) and views[1].difficulty is None and views[1].count is None
    assert verify_solution(card.task_pieces(1), card.region, views[1].solution) is None
    for face in range(2, 7):   # the rows of the unchanged tasks are theirs
        assert (views[face].count, views[face].difficulty) == (rows[face]["count"], rows[face]["difficulty"])
    assert unmatched_tasks([card], results_index(ours)) == (1, 6)
    write_table(ours, tmp_path / "tasks.csv")
    code, _, err = run_cli("booklet", deck, "--results", tmp_path / "tasks.csv", "--out", tmp_path / "b.pdf")
    assert code == 0 and "1 of 6 tasks have no matching result" in err, err


def test_a_deck_given_by_name_or_as_load_decks_pair_is_one_error_saying_what_to_give(tmp_path):
    # AttributeError: 'str' object has no attribute 'meta' (or 'orientations'), and 'list' object ... for
    # load_deck's (card sides, problems) pair, before
    from ubongo_cp.booklet.playtest import make_playtest_cards
    from ubongo_cp.errors import InputError

    deck = load_deck("classic")
    with pytest.raises(InputError, match=r"^make_booklet needs a list of card sides \(load_deck\(deck\)\[0\]\), got str "
                                         r"'classic'$"):
        make_booklet("classic", tmp_path / "b.pdf")
    with pytest.raises(InputError, match=r"^make_booklet needs a list of card sides \(load_deck\(deck\)\[0\]\), got list; "
                                         r"load_deck returns \(card sides, problems\): take \[0\]$"):
        make_booklet(deck, tmp_path / "b.pdf")
    with pytest.raises(InputError, match=r"^make_playtest_cards needs a list of card sides"):
        make_playtest_cards("classic", tmp_path / "p.pdf")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("option, message", [
    ({"dpi": "110"}, r"^dpi must be from 20 to 1200 dots per inch, got '110'$"),   # a TypeError from a comparison
    ({"most": "2"}, r"^most must be a whole number of at least 1, got '2'$"),
    ({"most": 0}, r"^most must be a whole number of at least 1, got 0$"),
])
def test_booklet_options_that_are_text_are_one_error_naming_them(option, message, tmp_path):
    from ubongo_cp.errors import InputError

    with pytest.raises(InputError, match=message):
        make_booklet(load_deck("classic")[0][:1], tmp_path / "b.pdf", **option)
    assert not list(tmp_path.iterdir())
