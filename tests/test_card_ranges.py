"""Ranges of piece counts and cells left empty written in card files.

A card's task ``["T4:0-2", "L4:1-3", "I2:0-4"]`` must solve to the count of
``solve --use`` on the same pieces and region and to the sum over every fixed
multiset in the ranges (each solved apart by dlx); a task with ``max_empty = N``
to the sum over adding 0..N monominoes. Bad values end in one line naming the
file and line, exit 2.
"""

from __future__ import annotations

import json

import pytest

from ubongo_cp.cards import card_to_toml, load_card, parse_card, task_hash
from ubongo_cp.cover import EMPTY, build_instance, task_instance
from ubongo_cp.errors import InputError
from ubongo_cp.pieces import Piece, Region
from ubongo_cp.solvers import solve
from ubongo_cp.verify import verify_solution

from test_ranges import CLASSIC, multiset_sum

MONO = Piece("M", ((0, 0),))

HEAD = 'game = "classic"\ncard = "R1"\nside = "easy"\npieces = "classic"\nregion = """\n####\n####\n####\n"""\n\n'
TASKS = ('[tasks]\n'
         '1 = ["T4:0-2", "L4:1-3", "I2:0-4"]\n'
         '2 = {pieces = ["L3", "L4", "I2"], max_empty = 3}\n'
         '3 = ["I2", "L3", "L4", "I3"]\n')


def card_file(tmp_path, tasks: str = TASKS):
    path = tmp_path / "card.toml"
    path.write_text(HEAD + tasks)
    return path


def test_a_card_range_counts_as_use_and_as_the_multisets(run_cli, tmp_path):
    from conftest import write

    path = card_file(tmp_path)
    card = load_card(path)
    assert card.tasks[1] == ("T4", "L4", "I2") and card.ranges[1] == {"T4": (0, 2), "L4": (1, 3), "I2": (0, 4)}
    assert card.is_fixed(3) and not card.is_fixed(1) and card.task_label(1) == "T4:0-2 L4:1-3 I2:0-4"
    expected, reduced = multiset_sum(CLASSIC, card.ranges[1], Region.rectangle(3, 4))
    assert expected > 0
    result = solve(task_instance(card, 1), backend="dlx", keep=0)
    assert (result.count, result.count_reduced) == (expected, reduced)
    code, out, _ = run_cli("solve", path, "--face", 1, "--count", "--json")
    data = json.loads(out)
    assert code == 0 and (data["count"], data["count_reduced"]) == (expected, reduced)
    assert data["pieces"] == ["T4:0-2", "L4:1-3", "I2:0-4"]
    region = write(tmp_path / "r.txt", "####\n####\n####\n")
    code, out, _ = run_cli("solve", "--pieces", "classic", "--region", region, "--use", "T4:0-2,L4:1-3,I2:0-4",
                           "--count", "--json")
    assert code == 0 and (json.loads(out)["count"], json.loads(out)["count_reduced"]) == (expected, reduced)


def test_a_card_max_empty_counts_as_adding_monominoes(run_cli, tmp_path):
    path = card_file(tmp_path)
    card = load_card(path)
    assert card.max_empty == {2: 3} and card.task_label(2) == "L3 L4 I2, up to 3 cells empty"
    expected = sum(solve(build_instance(CLASSIC.select(["L3", "L4", "I2"]) + [MONO] * j, Region.rectangle(3, 4)),
                         backend="dlx", keep=0).count for j in range(4))
    assert expected > 0
    code, out, _ = run_cli("solve", path, "--face", 2, "--count", "--json", "--max-solutions", 3)
    data = json.loads(out)
    assert code == 0 and data["count"] == expected and data["max_empty"] == 3
    assert all(len(s[EMPTY]) == 3 for s in data["solutions"])
    # --max-empty on the command line replaces the card's: 0 leaves 9 cells for 12, no solution
    code, out, _ = run_cli("solve", path, "--face", 2, "--count", "--json", "--max-empty", 0)
    assert code == 0 and json.loads(out)["count"] == 0


def test_the_card_file_round_trips_and_the_hash_sees_ranges(tmp_path):
    card = load_card(card_file(tmp_path))
    again = parse_card(card_to_toml(card), path=tmp_path / "again.toml")
    assert (again.tasks, again.ranges, again.max_empty) == (card.tasks, card.ranges, card.max_empty)
    fixed = load_card(card_file(tmp_path, '[tasks]\n1 = ["T4", "L4", "I2", "I2"]\n2 = ["L3", "L4", "I2", "I3"]\n'))
    assert task_hash(card, 1) != task_hash(fixed, 1) and task_hash(card, 2) != task_hash(fixed, 2)


def test_exactly_k_copies_read_as_written_and_keep_their_task_hash(run_cli, tmp_path):
    # "I2:4" (exactly four dominoes) was shown and written back as "I2:4-4". The label, the card written back and
    # the command's line now read I2:4; the task hash keeps its form (every range as LO-HI), so the journals of
    # earlier runs still match: recomputed here from its definition (the region's cells, each piece's cells, the
    # task as LO-HI).
    import hashlib

    card = load_card(card_file(tmp_path, '[tasks]\n1 = ["I2:4", "O4:0-1"]\n2 = ["I2:6"]\n'))
    assert (card.task_label(1), card.task_label(2)) == ("I2:4 O4:0-1", "I2:6")
    assert '1 = ["I2:4", "O4:0-1"]' in card_to_toml(card)
    again = parse_card(card_to_toml(card))
    assert again.ranges == card.ranges == {1: {"I2": (4, 4), "O4": (0, 1)}, 2: {"I2": (6, 6)}}
    h = hashlib.sha1()
    h.update(repr(card.region.cells).encode())
    for p in card.task_pieces(2):
        h.update(f"{p.name}:{p.cells}".encode())
    h.update(b"task:I2:6-6")
    assert task_hash(card, 2) == h.hexdigest()[:12]
    code, out, err = run_cli("solve", card.path, "--face", "2", "--count")
    assert code == 0, err
    assert out.splitlines()[0].endswith("face 2: I2:6")


def test_batch_rates_a_ranged_deck_with_the_card_counts(tmp_path):
    from ubongo_cp.batch import run_batch

    deck = tmp_path / "deck"
    deck.mkdir()
    card = load_card(card_file(deck))
    outcome = run_batch(deck, tmp_path / "out", progress=False)
    rows = outcome.tasks.set_index("face")
    for face in card.tasks:
        expected = solve(task_instance(card, face), backend="dlx", keep=0).count
        assert rows.loc[face, "count"] == expected and rows.loc[face, "status"] != "error", face
    assert list(rows.loc[1, "pieces"]) == ["T4:0-2", "L4:1-3", "I2:0-4"]


def test_the_card_drawing_shows_ranges_plainly(tmp_path):
    from ubongo_cp.draw.card import empty_note, icon_labels

    card = load_card(card_file(tmp_path))
    assert icon_labels(card, 1) == ["T4 0\u20132\u00d7", "L4 1\u20133\u00d7", "I2 0\u20134\u00d7"]
    assert icon_labels(card, 2) == ["L3", "L4", "I2"] and empty_note(card, 2) == "\u2264 3 cells empty"
    assert empty_note(card, 1) == "" and icon_labels(card, 3) == ["I2", "L3", "L4", "I3"]
    exact = load_card(card_file(tmp_path, '[tasks]\n1 = ["I2:2", "T4:0-0", "L4", "O4"]\n'))
    assert icon_labels(exact, 1) == ["I2 2\u00d7", "T4 0\u00d7", "L4", "O4"]
    assert card._repr_svg_().startswith("<?xml") or "<svg" in card._repr_svg_()
    # fewest and most pieces per task: 0+1+0 to 2+3+4; 3; 4
    assert [card.piece_count(f) for f in (1, 2, 3)] == [(1, 9), (3, 3), (4, 4)]


def _uses(solution) -> dict:
    used: dict = {}
    for key in solution:
        used[key.split("#")[0]] = used.get(key.split("#")[0], 0) + 1
    return used


def test_the_booklet_prints_tasks_with_ranges_and_empty_cells(tmp_path):
    """Solved here (no results) and from a batch's table: each drawn solution is one of the task as stated."""
    import matplotlib.colors as mcolors

    from ubongo_cp.batch import run_batch
    from ubongo_cp.booklet.page import render_page
    from ubongo_cp.booklet.views import task_views

    deck = tmp_path / "deck"
    deck.mkdir()
    card = load_card(card_file(deck))
    outcome = run_batch(deck, tmp_path / "out", progress=False)
    for views in (task_views(card), task_views(card, outcome.tasks)):
        by_face = {v.face: v for v in views}
        assert all(v.status == "solved" for v in views)
        for face, view in by_face.items():
            assert verify_solution(card.task_pieces(face), card.region, view.solution, ranges=card.ranges.get(face),
                                   max_empty=card.max_empty.get(face, 0)) is None
        used = _uses(by_face[1].solution)
        assert 0 <= used.get("T4", 0) <= 2 and 1 <= used["L4"] <= 3 and 0 <= used.get("I2", 0) <= 4
        # L3 + L4 + I2 cover 9 of the 12 cells: exactly 3 stay empty
        assert len(by_face[2].solution[EMPTY]) == 3 and _uses(by_face[2].solution) == {"L3": 1, "L4": 1, "I2": 1,
                                                                                          EMPTY: 1}
    rows = outcome.tasks.set_index("face")
    assert [v.count for v in views] == [int(rows.loc[f, "count"]) for f in (1, 2, 3)]
    assert [v.entries for v in views] == [("T4:0-2", "L4:1-3", "I2:0-4"), (), ()]   # the panels' headers
    figure = render_page(card, views)
    panel = next(c for c in figure.findobj() if getattr(c, "get_gid", lambda: None)() == "solution/2")
    fills = [mcolors.to_hex(c) for c in panel.get_facecolors()]
    empty_at = list(by_face[2].solution).index(EMPTY)
    assert fills[empty_at] == "#ffffff" and fills.count("#ffffff") == 1


def test_verify_solution_checks_ranges_and_empty_cells():
    """Hand-checked: an I2 and up to 2 empty cells in a 1x4 strip; I2 used 1-2 times."""
    i2 = CLASSIC["I2"]
    strip = Region.rectangle(1, 4)
    ok = {"I2": [(0, 0), (0, 1)], EMPTY: [(0, 2), (0, 3)]}
    assert verify_solution([i2], strip, ok, max_empty=2) is None
    assert "2 cells left empty, at most 1" in verify_solution([i2], strip, ok, max_empty=1)
    assert "unknown piece 'empty'" in verify_solution([i2], strip, ok)   # no empty cells allowed
    outside = {"I2": [(0, 0), (0, 1)], EMPTY: [(0, 2), (0, 4)]}
    assert "empty cell (0, 4) is not a cell of the region" in verify_solution([i2], strip, outside, max_empty=2)
    both = {"I2": [(0, 0), (0, 1)], EMPTY: [(0, 1), (0, 2)]}
    assert "both covered by I2 and left empty" in verify_solution([i2], strip, both, max_empty=3)
    two = {"I2": [(0, 0), (0, 1)], "I2#2": [(0, 2), (0, 3)]}
    assert verify_solution([i2], strip, two, ranges={"I2": (1, 2)}) is None
    assert "used 2 times, expected 0 to 1" in verify_solution([i2], strip, two, ranges={"I2": (0, 1)})
    assert "used 2 times, expected 1" in verify_solution([i2], strip, two)


def test_the_booklet_command_prints_a_ranged_deck(run_cli, tmp_path):
    deck = tmp_path / "deck"
    deck.mkdir()
    card_file(deck)
    code, _, err = run_cli("booklet", deck, "--out", tmp_path / "b.pdf")
    assert code == 0, err
    assert (tmp_path / "b.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("task, line, fragment", [
    ('1 = ["T4:2-1", "I2:0-6"]', 12, "range 'T4:2-1' has 2 > 1"),
    ('1 = ["T4:-1-2", "I2:0-6"]', 12, "task of face 1: range 'T4:-1-2': write NAME:N or NAME:LO-HI"),
    ('1 = ["T4:0-123456", "I2:0-6"]', 12, "task of face 1: range 'T4:0-123456': count 123456 is over 9,999"),
    ('1 = {pieces = ["I2"], max_empty = 13}', 12, "max_empty of face 1 is 13, larger than the region (12 cells)"),
    ('1 = {pieces = ["I2"], max_empty = -1}', 12, "max_empty of face 1 must be a whole number of cells >= 0"),
    # the value as the file wrote it (TOML's true, not Python's True)
    ('1 = {pieces = ["I2"], max_empty = true}', 12, "max_empty of face 1 must be a whole number of cells >= 0, "
                                                    "got true"),
    ('1 = {pieces = ["I2"], empty = 2}', 12, "unknown key(s) empty"),
    ('1 = ["T4:0-1", "I2:0-1"]', 12, "covers 0 to 6 cells but the region has 12"),
    ('1 = {pieces = ["T4:0-1"], max_empty = 7}', 12, "covers 0 to 4 cells but the region has 12 of which up to 7"),
    ('1 = ["T4:0-1", "T4"]', 12, "T4 is given a range and listed again"),
])
def test_bad_card_ranges_exit_2_with_one_line_naming_file_and_line(run_cli, tmp_path, task, line, fragment):
    from conftest import one_line_error

    path = card_file(tmp_path, "[tasks]\n" + task + "\n")
    with pytest.raises(InputError) as info:
        load_card(path)
    assert info.value.line == line and fragment in str(info.value)
    code, _, err = run_cli("solve", path, "--count")
    one_line_error(code, err, fragment, f"{path}:{line}")


def test_export_writes_the_ranges_and_refuses_empty_cells(run_cli, tmp_path):
    from conftest import one_line_error

    path = card_file(tmp_path)
    card = load_card(path)
    expected = solve(task_instance(card, 1), backend="dlx", keep=0).count
    out = tmp_path / "t1.xmpuzzle"
    code, _, _ = run_cli("export", path, "--face", 1, "--out", out)
    assert code == 0
    code, text, _ = run_cli("solve", out, "--count", "--json")
    assert code == 0 and json.loads(text)["count"] == expected
    code, _, err = run_cli("export", path, "--face", 2, "--out", tmp_path / "t2.xmpuzzle")
    one_line_error(code, err, "face 2 lets cells stay empty")
    assert not (tmp_path / "t2.xmpuzzle").exists()


def test_max_empty_at_the_top_of_a_card_is_refused_not_kept_as_a_note(run_cli, tmp_path):
    # A card keeps keys it does not read as notes; max_empty there would change nothing the user meant.
    from conftest import one_line_error

    path = tmp_path / "card.toml"
    path.write_text("max_empty = 2\n" + HEAD + TASKS)
    with pytest.raises(InputError) as info:
        load_card(path)
    assert info.value.line == 1
    code, _, err = run_cli("solve", path, "--count")
    one_line_error(code, err, "max_empty is a setting of each task, not of the card side", f"{path}:1")
