"""Deck specs: the shipped games' facts as data, a designer's own deck end to end, bad specs."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conftest import PUZZLES, listing
from ubongo_cp.cards import load_card, load_deck
from ubongo_cp.cover import build_instance, task_instance
from ubongo_cp.errors import InputError
from ubongo_cp.generate import generate_deck
from ubongo_cp.rate import rate_instance
from ubongo_cp.solvers import solve
from ubongo_cp.specs import load_spec

DESIGNER = PUZZLES / "examples" / "designer"


def test_shipped_specs_hold_the_rules_facts():
    # UG-1/UG-3/UG-4: 36 cards, easy 3 pieces, hard 4, a six-sided die.
    classic = load_spec("classic")
    assert (classic.cards, classic.side_names, classic.pieces) == (36, ("easy", "hard"), "classic")
    assert [(s.pieces_per_task, s.faces) for s in classic.sides] == [(3, 6), (4, 6)]
    # UD-1/UD-2: 9 cards, side A 4 pieces, side B 5, a d20.
    duel = load_spec("duel")
    assert (duel.cards, duel.side_names) == (9, ("A", "B"))
    assert [(s.pieces_per_task, s.faces) for s in duel.sides] == [(4, 20), (5, 20)]
    assert (classic.card_id(0), duel.card_id(0)) == ("01", "1")


def _spec(body: str, tmp_path, pieces: str = "classic"):
    text = f'game = "mine"\npieces = "{pieces}"\ncards = 2\n' + body
    path = tmp_path / "deck.toml"
    path.write_text(text)
    return path


SIDE = '[[sides]]\nname = "s"\npieces_per_task = 3\nfaces = 4\nmax_rows = 5\nmax_cols = 5\n'


@pytest.mark.parametrize("body, message", [
    (SIDE.replace("pieces_per_task = 3", "pieces_per_task = 13"), "pieces_per_task must be 1..12"),
    (SIDE.replace("max_rows = 5", "max_rows = 1").replace("max_cols = 5", "max_cols = 3"),
     "the 3 smallest pieces cover 8 cells, more than the 1x3 box holds"),
    (SIDE + "difficulty = [5.0, 2.0]\n", r"difficulty band \[5.0, 2.0\] is impossible"),
    (SIDE + "cells = [40, 45]\n", "does not fit the 5x5 box"),
    (SIDE + "cells = [2, 5]\n", "no 3 pieces of the set cover 2..5 cells"),
    (SIDE + "unique = true\nmax_solutions = 3\n", "either unique = true or max_solutions"),
    (SIDE + "orientations = \"mirror\"\n", "orientations: orientation mode .mirror. does not exist on the square grid "
     r"\(its modes: free, one-sided, fixed; mirror is a mode of the cube grid\)"),
    (SIDE + "colour = 3\n", "unknown key 'colour'"),
    ("", "missing key 'sides'"),
    # Once taken: matplotlib's "Glyph 0 missing from font(s)" warnings on every booklet and card page.
    ('title = "Tiny\\u0000Blocks"\n' + SIDE, "title holds the control character U\\+0000; a title is printed on the "
                                              "cards and booklet pages"),
])
def test_bad_specs_name_the_problem(tmp_path, body, message):
    with pytest.raises(InputError, match=message):
        load_spec(_spec(body, tmp_path))


def test_bad_spec_errors_name_the_line(tmp_path):
    path = _spec(SIDE + "colour = 3\n", tmp_path)
    with pytest.raises(InputError) as err:
        load_spec(path)
    assert err.value.line == 10 and err.value.path == str(path)


def test_unknown_piece_set_is_bad_input(tmp_path):
    with pytest.raises(InputError, match="piece set 'nosuch.txt'"):
        load_spec(_spec(SIDE, tmp_path, pieces="nosuch.txt"))


@pytest.mark.parametrize("faces", [6, 8])
def test_a_shipped_games_name_is_its_shipped_specs_alone(tmp_path, run_cli, faces):
    # The designer's spec has the classic game's sides (easy and hard, 6 faces each): named "classic" it is
    # refused as it is with 8 faces, whatever its sides.
    shutil.copytree(DESIGNER, tmp_path / "design")
    path = tmp_path / "design" / "deck.toml"
    text = path.read_text().replace('game = "tinyblocks"', 'game = "classic"')
    path.write_text(text.replace("faces = 6", f"faces = {faces}"))
    code, _, err = run_cli("generate", "--spec", path, "--out", tmp_path / "d", "--cards", "1")
    line = 1 + text.splitlines().index('game = "classic"')     # the error names the line of the game's name
    assert code == 2 and err == (f"ubongo-cp: error: {path}:{line}: game 'classic' is a shipped game (classic, duel), "
                                 "which only its shipped spec generates; give your own game another name\n")
    assert not (tmp_path / "d").exists()
    path = _spec(SIDE, tmp_path)
    path.write_text(path.read_text().replace('game = "mine"', 'game = "duel"'))
    with pytest.raises(InputError, match="game 'duel' is a shipped game"):
        generate_deck(path, None, seed=1, cards=1)
    assert [c.game for c in generate_deck("classic", None, seed=1, cards=1)] == ["classic", "classic"]


def test_cli_bad_spec_exits_2_with_one_line(tmp_path, run_cli):
    code, _, err = run_cli("generate", "--spec", _spec(SIDE + "colour = 3\n", tmp_path), "--out", tmp_path / "d")
    assert code == 2 and err.count("\n") == 1 and "deck.toml:10: side 1: unknown key 'colour'" in err


def test_designers_deck_end_to_end(tmp_path):
    """A designer's own 8-piece set and spec: generate, read back, check every task independently."""
    spec_dir = tmp_path / "design"
    shutil.copytree(DESIGNER, spec_dir)
    spec = load_spec(spec_dir / "deck.toml")
    out = tmp_path / "deck"
    deck = generate_deck(spec, out, seed=3, cards=1)
    # The deck directory is self-contained: cards, their game's spec and the piece set.
    shutil.rmtree(spec_dir)
    assert listing(out) == ["01_easy.toml", "01_hard.toml", "deck.toml", "pieces.txt"]
    cards, problems = load_deck(out)
    assert not problems and [(c.game, c.side) for c in cards] == [("tinyblocks", "easy"), ("tinyblocks", "hard")]
    assert [c.tasks for c in cards] == [c.tasks for c in deck]
    for card in cards:
        side = spec.side(card.side)
        assert sorted(card.tasks) == list(range(1, side.faces + 1))
        assert side.cells[0] <= card.region.area <= side.cells[1]
        for face in card.tasks:
            inst = build_instance(card.task_pieces(face), card.region)
            # unique = true: exactly one solution (UP-5), counted by CP-SAT (the generator used DLX).
            assert solve(inst, backend="cpsat").count == 1
            if side.difficulty is not None:
                low, high = side.difficulty
                assert low <= rate_instance(inst, cross_check=False)["difficulty"] <= high


def test_max_solutions_policy_and_one_sided_pieces(tmp_path):
    body = SIDE.replace("faces = 4", "faces = 3") + 'max_solutions = 3\norientations = "one-sided"\n'
    deck = generate_deck(_spec(body, tmp_path), tmp_path / "d", seed=5, cards=1)
    (card,) = deck
    assert card.orientations == "one-sided"
    assert load_card(tmp_path / "d" / "01_s.toml").orientations == "one-sided"
    counts = card.meta["generator"]["solutions"]
    for face, _names in card.tasks.items():
        # Counted again with one-sided pieces only (rotations, no reflections; UP-3 relaxed by the spec).
        result = solve(build_instance(card.task_pieces(face), card.region, mode="one-sided"), backend="cpsat")
        assert 1 <= result.count <= 3 and result.count == counts[face - 1]


def test_a_side_out_of_budget_says_so_and_keeps_what_it_found(tmp_path):
    body = SIDE.replace("faces = 4", "faces = 40") + "attempts = 3\n"
    lines = []
    deck = generate_deck(_spec(body, tmp_path), tmp_path / "d", seed=2, cards=1, progress=lines.append)
    assert "search budget spent" in lines[0]
    (card,) = deck
    assert 1 <= len(card.tasks) < 40
    assert card.meta["generator"]["regions_tried"] == 3


def test_copies_key_makes_tasks_that_repeat_a_piece(tmp_path):
    # The five tetrominoes, two per task, each up to twice: tasks like O4 + O4 on a 2x4 board appear.
    spec = tmp_path / "deck.toml"
    spec.write_text('game = "twins"\npieces = "tetrominoes"\ncards = 3\n[[sides]]\nname = "s"\npieces_per_task = 2\n'
                    'faces = 2\nmax_rows = 3\nmax_cols = 4\ncopies = 2\nmax_solutions = 2\n')
    loaded = load_spec(spec)
    assert loaded.side("s").copies == 2
    deck = generate_deck(spec, tmp_path / "deck", seed=5)
    tasks = [(card, face) for card in deck for face in card.tasks]
    assert any(len(set(card.tasks[f])) < len(card.tasks[f]) for card, f in tasks), "no task repeats a piece"
    for card, face in tasks:
        # Every task has 1..2 tilings, counted again by CP-SAT on the card file as written (copies of a
        # piece are not told apart, UP-5).
        written = load_card(card.path)
        count = solve(task_instance(written, face), backend="cpsat").count
        assert 1 <= count <= 2 and count == card.meta["generator"]["solutions"][face - 1]
    # Without the key, no task names a piece twice.
    spec.write_text(spec.read_text().replace("copies = 2\n", ""))
    plain = generate_deck(spec, None, seed=5)
    assert all(len(set(names)) == len(names) for card in plain for names in card.tasks.values())


@pytest.mark.parametrize("body, message", [
    (SIDE + "copies = 0\n", "copies must be 1..100"),
    (SIDE.replace("pieces_per_task = 3", "pieces_per_task = 25") + "copies = 2\n",
     r"pieces_per_task must be 1..24 \(the piece set has 12 pieces, 2 copies each\)"),
])
def test_bad_copies(tmp_path, body, message):
    with pytest.raises(InputError, match=message):
        load_spec(_spec(body, tmp_path))


def test_a_name_reads_the_folder_of_that_name_in_the_current_folder_first(run_cli, tmp_path, monkeypatch):
    # As docs/commands.md says for generate --spec NAME and for batch/booklet/cards DECK.
    from ubongo_cp.specs import load_spec

    monkeypatch.chdir(tmp_path)
    assert load_spec("designer").cards == 12  # the shipped example
    code, out, err = run_cli("examples", "designer", "--copy", ".")
    assert (code, out) == (0, "copied designer to designer\n"), err
    spec = tmp_path / "designer" / "deck.toml"
    assert "\ncards = 12\n" in spec.read_text()
    spec.write_text(spec.read_text().replace("\ncards = 12\n", "\ncards = 2\n"))
    assert load_spec("designer").cards == 2  # the copy in the current folder
    (tmp_path / "classic").mkdir()
    shutil.copy(PUZZLES / "decks" / "classic" / "01_easy.toml", tmp_path / "classic")
    assert load_spec("classic").cards == 36  # a shipped game's spec by name, whatever the folder holds
    code, out, err = run_cli("batch", "classic", "--out", tmp_path / "out", "--no-progress")
    assert code == 0, err
    assert "- card sides: 1 (0 card file(s) skipped)" in out  # the local deck of one card side, not the shipped 72


@pytest.mark.parametrize("cells", ["[-5, 10]", "[0, 10]", "[-3, -1]"])
def test_cells_below_one_name_the_cells_line(tmp_path, run_cli, cells):
    # Once "side 's': max_empty must be below the smallest region (-5 cells), got 0", without a line (the file
    # has no max_empty line to name).
    path = _spec(SIDE + f"cells = {cells}\n", tmp_path)
    code, _, err = run_cli("generate", "--spec", path, "--out", tmp_path / "d", "--cards", "1")
    assert (code, err) == (2, f"ubongo-cp: error: {path}:10: side 's': cells must be positive cell counts, "
                              f"got {cells}\n")
    assert not (tmp_path / "d").exists()


@pytest.mark.parametrize("name", ["hexagons", "triangles", "cubes"])
def test_the_grid_example_specs_are_usable_by_the_name_examples_gives(run_cli, tmp_path, monkeypatch, name):
    # `examples grids/NAME` says "use it by name: `ubongo-cp generate --spec NAME --out DIR`"; once that
    # name was "file not found" (only 'designer' was looked up among the shipped examples).
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli("examples", f"grids/{name}")
    assert code == 0, err
    assert f"use it by name: `ubongo-cp generate --spec {name} --out DIR`" in out
    shipped = PUZZLES / "examples" / "grids" / f"{name}.toml"
    spec = load_spec(name)
    assert (Path(spec.path).resolve(), spec.text) == (shipped.resolve(), shipped.read_text(encoding="utf-8"))
    code, out, err = run_cli("generate", "--spec", name, "--out", tmp_path / "deck", "--cards", "1", "--seed", "1",
                             "--no-progress")
    assert code == 0, err
    assert sorted((tmp_path / "deck").glob("*.toml")) == [tmp_path / "deck" / f for f in
                                                           [f"01_{s.name}.toml" for s in spec.sides] + ["deck.toml"]]
    assert (tmp_path / "deck" / "deck.toml").read_text(encoding="utf-8") == spec.text
