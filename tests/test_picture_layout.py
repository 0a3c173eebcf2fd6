"""Pictures: no text box overlaps another or leaves the figure (measured on the drawn figures), and pieces
are drawn as their files write them.

The extents are matplotlib's own: each text artist's window extent after a draw with the figure's
renderer, in pixels.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from matplotlib.text import Text

from conftest import PUZZLES
from ubongo_cp.cards import load_card, load_deck, parse_card
from ubongo_cp.draw.figures import pieces_figure, task_record_figure
from ubongo_cp.pieces import load_pieces, parse_pieces
from ubongo_cp.report import load_tasks, task_record
from ubongo_cp.shipped import deck_tasks_path


def text_boxes(fig) -> list:
    """(text, bounding box in pixels) of every non-empty text of a figure, as drawn."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    return [(t.get_text(), t.get_window_extent(renderer)) for t in fig.findobj(Text)
            if t.get_text().strip() and t.get_visible()]


def assert_no_overlap(fig, slack: float = 0.5) -> None:
    """No two text boxes overlap (by more than ``slack`` pixels) and every one lies inside the figure."""
    boxes = text_boxes(fig)
    width, height = fig.canvas.get_width_height()
    for text, box in boxes:
        assert box.x0 >= -slack and box.y0 >= -slack and box.x1 <= width + slack and box.y1 <= height + slack, \
            f"{text!r} leaves the figure: {box} in {width} x {height}"
    for (a, ba), (b, bb) in combinations(boxes, 2):
        overlap_w = min(ba.x1, bb.x1) - max(ba.x0, bb.x0)
        overlap_h = min(ba.y1, bb.y1) - max(ba.y0, bb.y0)
        assert overlap_w <= slack or overlap_h <= slack, f"{a!r} overlaps {b!r}: {ba} and {bb}"


NARROW = '''game = "classic"
card = "07"
side = "easy"
pieces = "classic"
region = """
##
#.
"""

[tasks]
1 = ["L3"]
'''


def test_the_overlap_check_sees_an_overlap():
    from ubongo_cp.draw.canvas import Canvas

    canvas = Canvas(40, 10)
    canvas.text(2, 6, "easy side", fontsize=9)
    canvas.text(38, 6, "12 cells", fontsize=9, ha="right")
    assert_no_overlap(canvas.finish())
    canvas = Canvas(20, 10)
    canvas.text(2, 6, "easy side", fontsize=9)
    canvas.text(18, 6, "12 cells", fontsize=9, ha="right")
    with pytest.raises(AssertionError, match="overlaps"):
        assert_no_overlap(canvas.finish())


@pytest.mark.parametrize("card", ["classic_X1_easy", "classic_X1_hard", "duel_X2_A", "narrow"])
def test_card_pictures_keep_their_texts_apart(card):
    side = parse_card(NARROW) if card == "narrow" else load_card(PUZZLES / "examples" / f"{card}.toml")
    assert_no_overlap(side.draw())


def test_every_shipped_card_picture_keeps_its_texts_apart():
    cards, _ = load_deck("duel")
    for card in cards[:4]:
        assert_no_overlap(card.draw())


def test_task_record_pictures_keep_their_texts_apart():
    tasks = load_tasks(deck_tasks_path("classic"))
    # The narrowest regions of the deck give the narrowest panels.
    narrow = tasks.assign(w=[max(c for cells in s.values() for _, c in cells) for s in tasks["solution"]])
    for _, row in narrow.nsmallest(3, "w").iterrows():
        assert_no_overlap(task_record_figure(task_record(row)))


def test_piece_set_picture_keeps_its_texts_apart_and_draws_pieces_as_written():
    assert_no_overlap(load_pieces("duel").draw())
    # P is written 3 rows by 2 columns: drawn so, not turned to lie 2 by 3.
    pieces = parse_pieces("P\n##\n##\n#.\n\nI\n####\n")
    fig = pieces_figure(pieces.pieces, cell_mm=5.0)
    fills = [c for c in fig.axes[0].collections if len(c.get_paths()) == 2][0]
    p_path = fills.get_paths()[0]
    xs, ys = p_path.vertices[:, 0], p_path.vertices[:, 1]
    assert (round((xs.max() - xs.min()) / 5.0), round((ys.max() - ys.min()) / 5.0)) == (2, 3)


def test_booklet_page_keeps_its_texts_apart_and_explains_the_difficulty():
    from ubongo_cp.booklet import render_page, task_views

    from dataclasses import replace

    card = load_card(PUZZLES / "examples" / "classic_X1_easy.toml")
    views = [replace(v, difficulty=d) for v, d in zip(task_views(card), [10.3, 10.0, 9.96, 2.0, 11.26, 7.0])]
    fig = render_page(card, views)
    assert_no_overlap(fig)
    texts = [t for t, _ in text_boxes(fig)]
    # One precision for the whole column (10.3 beside 10.0, never beside 10.00), and a legend saying what it is.
    assert {"10.3", "10.0", "2.0", "11.3", "7.0"} <= set(texts)
    assert "10.00" not in texts and "9.96" not in texts
    assert any(t.startswith("difficulty: log\u2082(1 + search nodes per solution)") for t in texts)
