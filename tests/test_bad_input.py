"""Bad-input sweep: every command and loader on malformed input (tests/data/bad/).

Each case must end with exit status 2 and one line on standard error that
names the file (and the line or move where one applies) — never a traceback.
The ASCII and TOML parsers are also fuzzed with hypothesis: any text either
parses or raises InputError.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from conftest import one_line_error, write

from ubongo_cp.cards import parse_card
from ubongo_cp.errors import InputError
from ubongo_cp.pieces import parse_pieces, parse_region

BAD = Path(__file__).parent / "data" / "bad"
EXAMPLES = str(Path(__file__).parent.parent / "puzzles" / "examples")
REGION = EXAMPLES + "/duel_board1.txt"

CASES = [
    # (command with {f} for the bad file, expected fragment, where: file:line or file)
    (["solve", "--pieces", "{f}", "--region", REGION], "pieces_empty.txt", "no pieces in file"),
    (["solve", "--pieces", "{f}", "--region", REGION], "pieces_wrong_char.txt", ":2: unknown character 'x'"),
    (["analyze", "--pieces", "{f}", "--region", REGION, "--k", "2"], "pieces_disconnected.txt", ":1: piece 'A' is disconnected"),
    (["solve", "--pieces", "{f}", "--region", REGION], "pieces_duplicate_name.txt",
     ":7: piece 'A' appears twice (first at line 1)"),
    (["solve", "--pieces", "{f}", "--region", REGION], "pieces_control_character.txt",
     ":1: the piece name on this line contains the control character U+001B"),
    (["solve", "--pieces", "{f}", "--region", REGION], "pieces_named_empty.txt",
     ":1: the name 'empty' is kept for the cells a task leaves empty"),
    (["solve", "--pieces", "classic", "--region", "{f}"], "region_empty.txt", "empty region"),
    (["analyze", "--pieces", "duel", "--region", "{f}", "--k", "5"], "region_huge.txt", "500 cells, over the limit of 400"),
    (["solve", "--pieces", "classic", "--region", "{f}"], "region_wrong_char.txt", ":2: unknown character '?'"),
    (["solve", "--pieces", "classic", "--region", "{f}"], "region_space.txt",
     ":2: unknown character ' ' in a square grid (use '#' for a square, '.' for an empty one, not a space; "
     "a picture on another grid names it on a 'grid:' line)"),
    (["solve", "{f}"], "card_unknown_piece.toml", ":10: task of face 1 names unknown piece(s) W9"),
    (["solve", "{f}"], "card_wrong_area.toml", ":10: task of face 1 (I2 I3) covers 5 cells but the region has 4 (UP-4)"),
    (["solve", "{f}"], "card_duplicate_face.toml", ":11: invalid TOML: duplicate key"),
    (["solve", "{f}"], "card_wrong_type.toml", ":5: field 'region' must be a text string, got 17"),
    (["solve", "{f}"], "card_tasks_not_table.toml", ":6: field 'tasks' must be a table, got 'I4'"),
    (["solve", "{f}"], "card_bad_syntax.toml", ":1: invalid TOML"),
    (["solve", "{f}"], "card_tasks_inline.toml", ":8: task of face 2 names unknown piece(s) Q7"),
    (["solve", "{f}"], "card_region_one_line.toml", ":5: unknown character 'x'"),   # "###\n#x#" on one line
    (["solve", "{f}"], "card_misspelt_field.toml", ":5: unknown key 'orientation': did you mean 'orientations'?"),
    # a deck spec where a card side belongs (it was "unknown key 'cards': did you mean 'card'?")
    (["solve", "{f}"], "deck_spec_as_card.toml", ":7: is a deck spec (its [[sides]] say how to make card sides), "
     "not a card side"),
    (["solve", "{f}"], "card_id_path.toml", ":3: card id '../../escaped' may hold only ASCII letters"),
    (["solve", "{f}"], "card_not_utf8.toml", ":1: is UTF-16 text, not UTF-8 (it begins with a UTF-16 byte-order "
     "mark): save it as UTF-8"),
    (["booklet", "{f}", "--out", "{tmp}/b.pdf"], "card_wrong_area.toml", "not a directory"),
    (["batch", "{f}", "--out", "{tmp}/o"], "region_empty.txt", "not a directory"),
    (["booklet", EXAMPLES, "--out", "{tmp}/b.pdf", "--results", "{f}"], "card_wrong_area.toml",
     "not a batch result table"),
    (["simulate", "domino", "--replay", "{f}"], "record_truncated.json", ":1: malformed JSON"),
    (["simulate", "domino", "--replay", "{f}"], "record_domino_illegal_move.json", "move 1: illegal action 80"),
    (["orion", "analyze", "{f}"], "record_orion_overlap.json", "move 3 (player 0, tile D1b): illegal action"),
    (["orion", "analyze", "{f}"], "record_orion_bad_layout.json", "setup: OD-1: two tokens on"),
    (["orion", "analyze", "{f}"], "record_truncated.json", ":1: malformed JSON"),
]


@pytest.mark.parametrize("argv,name,fragment", CASES, ids=[c[1] + "-" + c[0][0] for c in CASES])
def test_bad_input_gives_exit_2_and_one_line(run_cli, tmp_path, argv, name, fragment):
    path = str(BAD / name)
    code, out, err = run_cli(*[a.replace("{f}", path).replace("{tmp}", str(tmp_path)) for a in argv])
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert fragment in err, err
    assert name in err, err


def test_deck_with_duplicate_card_ids_is_reported(run_cli, tmp_path):
    code, out, err = run_cli("batch", BAD / "deck_duplicate_ids", "--out", tmp_path / "o", "--jobs", "1",
                             "--no-progress")
    assert code == 0  # the batch goes on with the first copy and lists the problem
    summary = (tmp_path / "o" / "summary.md").read_text()
    assert "duplicate card D1 side easy" in summary and "b.toml" in summary


_TEXT = st.text(alphabet=st.sampled_from(list("#.% \nAB12x=\"[]{}'\t")), max_size=80)


@settings(max_examples=300, deadline=None)
@given(_TEXT)
def test_fuzz_ascii_parsers_raise_only_input_errors(text):
    for parse in (parse_pieces, parse_region):
        try:
            parse(text, path="fuzz.txt")
        except InputError as exc:
            assert str(exc).startswith("fuzz.txt")


_TOML_LINES = st.lists(st.sampled_from([
    'game = "classic"', 'game = "duel"', "game = 3", 'card = "F"', "card = 7", "card = true", 'side = "easy"',
    'side = "A"', 'side = ["easy"]', 'pieces = "classic"', 'pieces = "nope.txt"', 'region = "####"',
    'region = "#.#"', "region = 1.5", "[tasks]", '1 = ["I4"]', '2 = ["I2", "I2"]', '1 = "I4"', "0 = []",
    'x = ["O4"]', "[tasks.1]", "tasks = {}", 'region = """', '"""', "##", "[[tasks]]", "=",
]), max_size=12)


@settings(max_examples=300, deadline=None)
@given(_TOML_LINES)
def test_fuzz_card_parser_raises_only_input_errors(lines):
    try:
        parse_card("\n".join(lines) + "\n", path="fuzz.toml")
    except InputError as exc:
        assert str(exc).startswith("fuzz.toml")


@pytest.mark.parametrize("argv,fragment", [
    (["generate", "--game", "classic", "--out", "{tmp}/d", "--cards", "1", "--seed", "-5"], "--seed must be at least 0"),
    (["simulate", "duel", "--games", "0"], "--games must be at least 1"),
    (["simulate", "ubongo", "--games", "3", "--timer", "0"], "--timer must be a positive, finite number"),
    (["batch", EXAMPLES, "--out", "{tmp}/o", "--backend", "foo"], "unknown backend 'foo'"),
    (["batch", EXAMPLES, "--out", "{tmp}/o", "--time-limit", "-1"], "--time-limit must be a positive, finite number"),
    (["analyze", "--pieces", "duel", "--region", REGION, "--k", "22"], "k = 22 is larger than the piece set"),
    (["solve", "--pieces", "classic", "--region", REGION, "--use", ""], "--use: no piece names given"),
    (["solve", "--pieces", "classic", "--region", REGION, "--face", "1"], "--face goes with a card file"),
    (["booklet", EXAMPLES, "--out", "{tmp}"], "is a directory, expected a file name"),
    (["batch", EXAMPLES, "--out", REGION], "is a file, expected a directory for the output"),
    (["batch", EXAMPLES, "--out", EXAMPLES], f"{EXAMPLES}: is the deck's own folder, which the batch would fill with its "
                                             "tables beside the card files; choose another output folder"),   # run_batch's
    (["orion", "tournament", "--games", "1", "--agents", "greedy", "--no-self-play"], "no pairing to play"),
    (["batch", EXAMPLES, "--out", "{tmp}/o", "--jobs", "100000"], "--jobs 100000 is more than"),
    (["solve", "--pieces", "classic", "--region", "10000x2"], "a 10000x2 region has at least 20000 cells, over the limit"),
    (["exact-cover", str(Path(__file__).parent / "data" / "exact_cover" / "knuth_7_2_2_1_5.dlx"), "--count", "--limit", "9" * 20],
     "--limit must be at most 9,223,372,036,854,775,807, got 99,999,999,999,999,999,999"),   # once named "limit"
])
def test_bad_arguments_exit_2(run_cli, tmp_path, argv, fragment):
    code, out, err = run_cli(*[a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert code == 2 and err.count("\n") == 1 and fragment in err, err


def test_die_faces_follow_the_die(tmp_path):
    # UG-4: the classic die has six faces; UD-2: the Duel die twenty.
    path = tmp_path / "c.toml"
    path.write_text('game = "classic"\ncard = "F"\nside = "easy"\npieces = "classic"\nregion = "####"\n'
                    '[tasks]\n7 = ["I4"]\n')
    with pytest.raises(InputError, match="faces 1..6"):
        from ubongo_cp.cards import load_card
        load_card(path)


CARD = 'game = "classic"\ncard = "F"\nside = "easy"\npieces = "classic"\nregion = "####"\n[tasks]\n1 = ["I4"]\n'


@pytest.mark.parametrize("field, typo, line", [("side", "sied", 3), ("game", "gmae", 1), ("card", "crad", 2),
                                               ("pieces", "peices", 4), ("region", "regoin", 5)])
def test_a_field_with_two_letters_swapped_is_refused_as_the_typo(field, typo, line):
    # A short field with two letters swapped ('sied') was no near miss for difflib (ratio 0.75): the card was
    # refused as "missing field 'side'", or, for the optional grid ('gird'), the key was kept as a note.
    with pytest.raises(InputError) as info:
        parse_card(CARD.replace(f"{field} =", f"{typo} ="), path="c.toml")
    assert str(info.value).startswith(f"c.toml:{line}: unknown key {typo!r}: did you mean {field!r}? ")
    with pytest.raises(InputError, match="^c.toml:6: unknown key 'gird': did you mean 'grid'"):
        parse_card(CARD.replace("[tasks]", 'gird = "square"\n[tasks]'), path="c.toml")
    # notes a looser match would take for fields ('name' and 'size' are 0.75 from 'game' and 'side') are kept
    card = parse_card(CARD.replace("[tasks]", 'name = "mine"\nsize = 4\n[tasks]'), path="c.toml")
    assert card.side == "easy"


@pytest.mark.parametrize("header, key", [("[task]", "task"), ("[ Tasks ]", "Tasks"), ('["task"]', "task")])
def test_a_misspelt_table_of_a_card_is_named_by_its_line(header, key):
    # A misspelt table ('[task]') was refused without a line: only lines that assign a key were looked up.
    with pytest.raises(InputError) as info:
        parse_card(CARD.replace("[tasks]", header), path="c.toml")
    assert str(info.value).startswith(f"c.toml:6: unknown key {key!r}: did you mean 'tasks'? ")


def test_a_cards_orientation_error_lists_its_grids_modes(run_cli, tmp_path):
    # a square card takes free, one-sided and fixed; mirror belongs to the cube grid
    path = tmp_path / "c.toml"
    path.write_text('game = "classic"\ncard = "F"\nside = "easy"\npieces = "classic"\norientations = "mirror"\n'
                    'region = "####"\n[tasks]\n1 = ["I4"]\n')
    code, _, err = run_cli("solve", path)
    assert code == 2 and err.strip() == (
        f"ubongo-cp: error: {path}:5: orientations: orientation mode 'mirror' does not exist on the square grid "
        "(its modes: free, one-sided, fixed; mirror is a mode of the cube grid)")


@pytest.mark.parametrize("argv, grid", [
    (["batch", "triangles", "--out", "{tmp}/o"], "triangle"),
    (["solve", EXAMPLES + "/classic_X1_easy.toml"], "square"),
    (["solve", "--pieces", "classic", "--region", EXAMPLES + "/rect_6x10.txt"], "square"),
    (["analyze", "--pieces", "classic", "--region", EXAMPLES + "/rect_3x20.txt", "--k", "12"], "square"),
])
def test_an_orientation_option_the_grid_lacks_is_refused_as_the_option(run_cli, tmp_path, argv, grid):
    # batch once named the deck's first card file, as if the value had come from it.
    code, _, err = run_cli(*[a.replace("{tmp}", str(tmp_path)) for a in argv], "--orientations", "mirror")
    assert code == 2 and err == (
        f"ubongo-cp: error: argument --orientations: orientation mode 'mirror' does not exist on the {grid} grid "
        "(its modes: free, one-sided, fixed; mirror is a mode of the cube grid)\n")
    assert not (tmp_path / "o").exists()  # before any work


def test_a_mode_of_several_other_grids_names_them_as_a_list(run_cli):
    # one-sided is a mode of every flat grid: the message read "of the square and hex and triangle grid"
    code, _, err = run_cli("solve", "--pieces", "soma", "--region", "3x3x3", "--orientations", "one-sided")
    assert code == 2 and err == (
        "ubongo-cp: error: argument --orientations: orientation mode 'one-sided' does not exist on the cube grid "
        "(its modes: free, mirror, fixed; one-sided is a mode of the square, hex and triangle grids)\n")


def test_run_batch_names_no_card_file_for_its_orientations_argument(tmp_path):
    from ubongo_cp.batch import run_batch

    with pytest.raises(InputError) as info:
        run_batch("triangles", tmp_path / "o", orientations="mirror")
    assert info.value.path is None and info.value.argument == "orientations" and str(info.value).startswith(
        "orientations: orientation mode 'mirror' does not exist on the triangle grid")


@pytest.mark.parametrize("text, line", [("# #\ngrid: hex\n", 2), ("grid: hex\n # #\n% c\ngrid: hex\n", 4)])
def test_a_grid_line_after_the_first_is_named_as_such(run_cli, tmp_path, text, line):
    # Once: "h5.txt:1: unknown character ' ' in grid", as if the drawing were on squares.
    path = tmp_path / "h5.txt"
    path.write_text(text)
    code, _, err = run_cli("solve", "--pieces", "classic", "--region", path)
    assert code == 2 and err == (f"ubongo-cp: error: {path}:{line}: a 'grid:' line must be the first line "
                                 "(comments apart), before the drawing\n")
    with pytest.raises(InputError, match="p.txt:4: a 'grid:' line must be the first line"):
        parse_pieces("A\n#\n\ngrid: hex\nB\n#\n", path="p.txt")  # in a piece-set file too


def test_outputs_never_overwrite_inputs(run_cli, tmp_path):
    # Found by a new user's test: each of these used to replace an input file.
    import shutil

    tasks = tmp_path / "tasks.csv"
    shutil.copy(Path(EXAMPLES).parent / "decks" / "classic" / "tasks.csv", tasks)
    deck = tmp_path / "deck"
    deck.mkdir()
    shutil.copy(Path(EXAMPLES) / "classic_X1_easy.toml", deck / "x1.toml")
    dlx = tmp_path / "x.dlx"
    dlx.write_text("a b\na\nb\n")
    before = tasks.read_bytes(), (deck / "x1.toml").read_bytes(), dlx.read_bytes()
    cases = [
        (["simulate", "ubongo", "--games", "2", "--tasks", tasks, "--out", tasks], "would overwrite the tasks input"),
        (["simulate", "domino", "--games", "2", "--out", tmp_path / "a.csv", "--record", tmp_path / "a.csv"],
         "--out and --record name the same file"),
        (["booklet", deck, "--out", deck / "x1.toml"], "would overwrite a file read from the deck directory"),
        # the instance given as its own journal: refused before anything is read or written, as the input it is
        (["exact-cover", dlx, "--count", "--journal", dlx], f"--journal {dlx} would overwrite the instance input; "
                                                            "choose another output path"),
    ]
    for argv, fragment in cases:
        code, _, err = run_cli(*argv)
        assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1, err
    assert (tasks.read_bytes(), (deck / "x1.toml").read_bytes(), dlx.read_bytes()) == before
    assert not (tmp_path / "a.csv").exists()


@pytest.mark.parametrize("argv, folder", [(["cards"], "--png"), (["cards"], "--svg"), (["booklet"], "--png")])
def test_an_output_file_that_is_also_the_image_folder_is_refused_before_any_work(run_cli, tmp_path, argv, folder):
    # `cards DECK --out x.pdf --png x.pdf` wrote the PDF, then failed on the images ("x.pdf: is a file, expected
    # a directory for the output", exit 2) with the PDF left behind; booklet said "is a directory" of a file.
    deck = tmp_path / "deck"
    deck.mkdir()
    shutil.copy(Path(EXAMPLES) / "classic_X1_easy.toml", deck / "x1.toml")
    out = tmp_path / "x.pdf"
    code, out_text, err = run_cli(*argv, deck, "--out", out, folder, out)
    one_line_error(code, err, f"--out and {folder} name the same path {out}: one is a file, the other a folder "
                              "of images; give each its own")
    assert out_text == "" and not out.exists()


def test_an_output_over_an_input_names_the_inputs_option_as_written(run_cli, tmp_path):
    # The message named the inputs by their internal names: "the difficulty_model input", "the from_census
    # directory".
    import shutil

    deck = tmp_path / "deck"
    deck.mkdir()
    shutil.copy(Path(EXAMPLES) / "classic_X1_easy.toml", deck / "x1.toml")
    model = tmp_path / "model.json"
    model.write_text("{}")
    code, _, err = run_cli("batch", deck, "--out", model, "--difficulty-model", model)
    one_line_error(code, err, f"--out {model} would overwrite the --difficulty-model input; choose another output path")
    census = tmp_path / "census"
    census.mkdir()
    code, _, err = run_cli("generate", "--spec", "designer", "--from-census", census, "--out", census / "regions")
    one_line_error(code, err, f"--out {census / 'regions'} would overwrite a file read from the --from-census "
                              "directory; choose another output path")
    assert model.read_text() == "{}" and not (census / "regions").exists()


@pytest.mark.parametrize("content", [b"\x87\x00garbage", b"[1, 2, 3]", b"[" * 100_000])
@pytest.mark.parametrize("command", [["simulate", "domino", "--replay"], ["orion", "analyze"]])
def test_records_that_are_not_json_objects_exit_2(run_cli, tmp_path, command, content):
    # Binary garbage, a JSON list, nesting deep enough to overflow the decoder.
    f = tmp_path / "record.json"
    f.write_bytes(content)
    code, _, err = run_cli(*command, f)
    assert code == 2 and str(f) in err and len(err.strip().splitlines()) == 1, err


def test_region_file_with_a_byte_order_mark_is_read(tmp_path):
    # Editors on some systems start UTF-8 files with a BOM; it is not a cell.
    from ubongo_cp.pieces import load_region

    f = tmp_path / "bom.txt"
    f.write_bytes(b"\xef\xbb\xbf##\n##\n")
    assert load_region(f).area == 4


def test_card_with_use_says_what_to_do(run_cli):
    code, _, err = run_cli("solve", str(Path(EXAMPLES) / "classic_X1_easy.toml"), "--use", "I2")
    assert code == 2 and "--use goes with --pieces/--region; with a card file, pick a task with --face" in err


@pytest.mark.parametrize("command", ["solve", "export"])
def test_use_takes_names_separated_by_spaces_as_by_commas(run_cli, tmp_path, command):
    # `--use I2 I2 I2 I2` is `--use I2,I2,I2,I2`: the four dominoes tile the 2x4 box in 5 ways (a column or two
    # stacked rows at each end: Fibonacci F(5) = 5, UP-2), and export writes the same file either way.
    if command == "solve":
        runs = [run_cli("solve", "--pieces", "classic", "--region", "2x4", "--use", *use, "--count", "--json")
                for use in (["I2", "I2", "I2", "I2"], ["I2,I2", "I2, I2"], ["I2,I2,I2,I2"])]
        assert [(code, json.loads(out)["count"]) for code, out, _ in runs] == [(0, 5)] * 3
    else:
        for name, use in (("spaces", ["I2", "I2", "I2", "I2"]), ("commas", ["I2,I2,I2,I2"])):
            code, _, _ = run_cli("export", "--pieces", "classic", "--region", "2x4", "--use", *use,
                                 "--out", str(tmp_path / f"{name}.dlx"))
            assert code == 0
        assert (tmp_path / "spaces.dlx").read_text() == (tmp_path / "commas.dlx").read_text()


@pytest.mark.parametrize("command", ["solve", "export"])
def test_a_card_file_after_use_is_refused_in_one_line_not_taken_for_a_piece(run_cli, command):
    # `--use` takes every word up to the next option, so a card written after it would be read as a piece name.
    card = str(Path(EXAMPLES) / "classic_X1_easy.toml")
    out = ["--out", "x.dlx"] if command == "export" else []
    one_line_error(*run_cli(command, "--use", "L3,T4", card, "--face", "1", *out)[::2],
                   f"--use takes piece names, and {card} is a file", "not with a card or puzzle file")
    one_line_error(*run_cli(command, "--use", "L3", "T4", card, *out)[::2], card)


def test_a_card_file_still_goes_before_or_after_the_options(run_cli):
    card = str(Path(EXAMPLES) / "classic_X1_easy.toml")
    first = run_cli("solve", card, "--face", "1", "--json")
    last = run_cli("solve", "--face", "1", "--json", card)
    assert first[0] == last[0] == 0
    first_task, last_task = json.loads(first[1]), json.loads(last[1])
    del first_task["stats"], last_task["stats"]          # its times differ
    assert first_task == last_task and first_task["face"] == 1 and first_task["count"] == 1


def test_a_card_whose_pieces_name_a_directory_says_so(run_cli, tmp_path):
    (tmp_path / "sub").mkdir()
    text = (Path(EXAMPLES) / "classic_X1_easy.toml").read_text()
    assert 'pieces = "classic"' in text
    card = tmp_path / "c.toml"
    card.write_text(text.replace('pieces = "classic"', 'pieces = "sub"'))
    line = card.read_text().splitlines().index('pieces = "sub"') + 1
    code, out, err = run_cli("solve", card)
    assert (code, out) == (2, "")
    assert err == (f"ubongo-cp: error: {card}:{line}: piece set 'sub' is a directory ({tmp_path / 'sub'}), "
                   "not a piece-set file\n")


def test_the_region_size_limit_names_the_option_of_the_command_or_the_keyword_of_the_api(run_cli, tmp_path):
    from ubongo_cp.pieces import load_region

    huge = BAD / "region_huge.txt"  # 500 cells
    code, _, err = run_cli("solve", "--pieces", "duel", "--region", huge)
    assert code == 2
    assert err == (f"ubongo-cp: error: {huge}: region has 500 cells, over the limit of 400 (a guard against a "
                   "mistyped region; raise it with --max-cells for larger puzzles)\n")
    with pytest.raises(InputError) as caught:  # the same in the library, after a command ran in this process
        load_region(huge)
    assert str(caught.value) == (f"{huge}: region has 500 cells, over the limit of 400 (a guard against a mistyped "
                                 "region; raise it with max_cells= for larger puzzles)")
    # A deck command has no --max-cells: the card is skipped, no option named.
    deck = tmp_path / "deck"
    deck.mkdir()
    text = (Path(EXAMPLES) / "classic_X1_easy.toml").read_text()
    (deck / "good.toml").write_text(text)
    region = text[text.index('region = """'):text.index('"""', text.index('region = """') + 12) + 3]
    (deck / "big.toml").write_text(text.replace(region, 'region = """\n' + "#" * 401 + '\n"""'))
    code, _, err = run_cli("cards", deck, "--out", tmp_path / "c.pdf", "--no-progress")
    assert code == 0, err
    line = text[:text.index('region = """')].count("\n") + 1   # the card's region key
    assert (f"ubongo-cp: skipped {deck / 'big.toml'}:{line}: region has 401 cells, over the limit of 400 (a guard "
            "against a mistyped region)\n") in err


def test_a_record_of_another_game_is_named_by_the_games_display_names(run_cli):
    orion, domino = BAD / "record_orion_overlap.json", BAD / "record_domino_illegal_move.json"
    code, out, err = run_cli("simulate", "domino", "--replay", orion)
    assert (code, out) == (2, "")
    assert err == (f"ubongo-cp: error: {orion}: an Orion Duel record (format 'ubongo-cp/orion-duel') is not a Domino "
                   "record\n")
    code, out, err = run_cli("orion", "analyze", domino)
    assert (code, out) == (2, "")
    assert err == (f"ubongo-cp: error: {domino}: a Domino record (format 'ubongo-cp/domino-record') is not an Orion "
                   "Duel record\n")


def test_text_that_is_not_utf8_is_placed_by_line_and_column(run_cli, tmp_path):
    # Once "at byte 4" alone, counted after a byte-order mark the reader had dropped.
    for name, data, byte in (("plain.txt", b"##\n#\xff#\n", 5), ("bom.txt", b"\xef\xbb\xbf##\n#\xff#\n", 8)):
        (tmp_path / name).write_bytes(data)
        code, _, err = run_cli("solve", "--pieces", "classic", "--region", tmp_path / name)
        assert code == 2 and err == (f"ubongo-cp: error: {tmp_path / name}:2: not UTF-8 text (invalid start byte: "
                                     f"byte {byte} of the file, column 2 of the line)\n")


@pytest.mark.parametrize("grid, picture, cells", [
    ("", "{blank}##\n", [(0, 0), (0, 1)]),
    ("grid: cube\n", "#\n-\n{blank}#\n", [(0, 0, 0), (1, 0, 0)]),   # the blank lines inside its second layer
])
def test_blank_lines_around_a_picture_are_cut_in_one_step(tmp_path, grid, picture, cells):
    # The blank lines before a region's picture (and around a cube layer) were dropped one by one from the front of
    # a list, each drop moving every line after it: a 3 MB file of 3 million blank lines and "##" did not finish in
    # a minute (80,000 lines 1.1 s, growing with the square). A million now take about a second.
    import time

    from ubongo_cp.pieces import load_region

    path = write(tmp_path / "region.txt", grid + picture.format(blank="\n" * 1_000_000))
    start = time.perf_counter()
    region = load_region(path)
    assert time.perf_counter() - start < 30   # once some three minutes (1.1 s x 12.5**2)
    assert sorted(region.cells) == cells    # the blank lines are no rows of the picture


def test_a_huge_region_file_is_refused_at_once(run_cli, tmp_path):
    # A 2000 x 2000 picture of hexagons (8 MB) took 9 s and 1.3 GB before the 400-cell guard spoke: the cells
    # are now counted before the picture is read cell by cell (the peak of Python's allocations shows it).
    import tracemalloc

    huge = tmp_path / "huge.txt"
    huge.write_text("grid: hex\n" + "".join(" " * (i % 2) + " ".join(["#"] * 2000) + "\n" for i in range(2000)))
    tracemalloc.start()
    try:
        code, _, err = run_cli("solve", "--pieces", "tetrahexes", "--region", huge)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert code == 2 and "region has 4000000 cells, over the limit of 400" in err
    assert peak < 100 * 2 ** 20, peak     # the text and its lines (about 3 x 8 MB), not 4 million cells


@pytest.mark.parametrize("argv, message", [
    (["solve", "--pieces", "classic", "--region", REGION, "--max-cells", "-1"], "--max-cells must be at least 1, got -1"),
    (["solve", "--pieces", "classic", "--region", REGION, "--use", "L4,,T4"],
     "--use: no name between two commas in 'L4,,T4'"),
    (["solve", "--pieces", "pentominos", "--region", REGION],
     "'pentominos' is neither a file nor a shipped piece set (classic, duel, pentominoes, tetrominoes, tetrahexes, "
     "pentahexes, pentiamonds, hexiamonds, tetracubes, soma); did you mean 'pentominoes'?"),
    (["simulate", "domino", "--games", "3", "--players", "9"], "--players must be 2, 3 or 4, got 9"),
])
def test_mistyped_options_name_the_option(run_cli, argv, message):
    code, out, err = run_cli(*argv)
    assert (code, out, err) == (2, "", f"ubongo-cp: error: {message}\n")


def test_a_toml_file_left_open_names_its_last_line(tmp_path):
    from ubongo_cp.io import loads_toml

    with pytest.raises(InputError) as err:
        loads_toml('game = "x"\ncards = [1, 2\n\n', path="b.toml")
    assert str(err.value) == "b.toml:2: invalid TOML: Unclosed array at the end of the file"


@pytest.mark.parametrize("optional", [False, True])
def test_two_shapes_under_one_name_are_refused(optional):
    """A name stands for one shape (UP-5): a domino and a tromino both named T are refused. With optional pieces
    the pieces are grouped by name, and the tromino was silently searched as a second domino: no cover of 1x5
    (there are two: the domino at either end)."""
    from ubongo_cp.cover import build_instance
    from ubongo_cp.pieces import Piece, Region
    from ubongo_cp.solvers import solve

    domino, tromino = Piece("T", ((0, 0), (0, 1))), Piece("T", ((0, 0), (0, 1), (0, 2)))
    with pytest.raises(InputError, match="two pieces are named 'T' but have different shapes \\(2 and 3 cells\\): "
                       "give each shape its own name, e.g. Piece\\('T3', piece.cells, piece.grid\\)"):
        build_instance([domino, tromino], Region.rectangle(1, 5), optional_pieces=optional)
    renamed = Piece("U", tromino.cells)
    assert solve(build_instance([domino, renamed], Region.rectangle(1, 5), optional_pieces=optional)).count == 2
    turned = Piece("T", ((0, 0), (1, 0)))   # the domino turned: one shape, two copies
    assert build_instance([domino, turned], Region.rectangle(2, 2)).types == ((0, 1),)
    L, J = Piece("L", ((0, 0), (1, 0), (2, 0), (2, 1))), Piece("L", ((0, 1), (1, 1), (2, 1), (2, 0)))
    # free: one shape, two copies; by hand, 2x4 holds two L tetrominoes in two ways (three cells along one long side)
    assert solve(build_instance([L, J], Region.rectangle(2, 4))).count == 2
    with pytest.raises(InputError, match="neither one a one-sided orientation of the other"):
        build_instance([L, J], Region.rectangle(2, 4), mode="one-sided")


def test_two_names_written_alike_with_other_code_points_are_refused_as_one_name_twice():
    """'Ä' as one code point (U+00C4) and as 'A' with a combining diaeresis (U+0308) print the same: a set
    holding both was read as two pieces, and every solution, table and booklet showed two pieces named 'Ä'
    (`solve` printed the legend "Ä=Ä A=Ä"); a card's task naming 'Ä' picked one of them unseen."""
    composed, decomposed = "\u00c4", "A\u0308"
    with pytest.raises(InputError) as err:
        parse_pieces(f"{composed}\n##\n\n{decomposed}\n###\n", path="p.txt")
    assert str(err.value) == ("p.txt:4: piece 'A\u0308' appears twice (first at line 1, written with other "
                              "Unicode code points: give each piece a name of its own)")
    assert parse_pieces(f"{composed}\n##\n\nB{decomposed}\n###\n").names == [composed, "B" + decomposed]


def test_a_task_naming_a_piece_with_other_code_points_says_so(run_cli, tmp_path):
    # A card typed 'Ä' (U+00C4) for a piece-set file's 'A' + U+0308: "names unknown piece(s) Ä (not in p.txt)",
    # though p.txt shows a piece 'Ä'.
    write(tmp_path / "p.txt", "A\u0308\n##\n\nB\n##\n")
    card = write(tmp_path / "c.toml", 'game = "classic"\ncard = "1"\nside = "easy"\npieces = "p.txt"\n'
                                      'region = """\n####\n"""\n[tasks]\n1 = ["\u00c4", "B"]\n')
    code, out, err = run_cli("solve", card)
    assert (code, out, err) == (2, "", f"ubongo-cp: error: {card}:9: task of face 1 names unknown piece(s) \u00c4 "
                                       "(not in p.txt); the piece set writes A\u0308 with other Unicode code points "
                                       "(the same letters): copy the names from it\n")


@pytest.mark.parametrize("text, what", [
    ("% mine\nA\n##\n\nB\n###\n", "a piece-set file (`--pieces` reads it)"),
    ("grid: triangle\nT2\n^v\n", "a piece-set file (`--pieces` reads it)"),
    ("grid: hex\n# #\n # #\n", "a region file (`--region` reads it)"),   # (a square one reads as TOML comments)
])
@pytest.mark.parametrize("command", [["solve"], ["generate", "--spec"]])
def test_a_piece_set_or_region_given_as_a_card_or_spec_is_named_as_such(run_cli, tmp_path, text, what, command):
    # `ubongo-cp solve pieces.txt` said "pieces.txt:1: invalid TOML: Expected '=' after a key in a key/value pair".
    f = write(tmp_path / "mine.txt", text)
    code, _, err = run_cli(*command, f, *(["--out", tmp_path / "g"] if command[0] == "generate" else []))
    one_line_error(code, err, f"{f}: is {what}, not a TOML file (a card side, a deck spec or a bench suite)")
    assert not (tmp_path / "g").exists()


def test_a_card_side_given_as_a_deck_spec_is_named_as_such(run_cli, tmp_path):
    # `generate --spec 01_easy.toml` said "01_easy.toml:3: unknown key 'card' (known: card_ids, cards, ...)".
    card = tmp_path / "x1.toml"
    shutil.copy(Path(EXAMPLES) / "classic_X1_easy.toml", card)
    code, _, err = run_cli("generate", "--spec", card, "--out", tmp_path / "g")
    one_line_error(code, err, f"{card}:{card.read_text().splitlines().index('[tasks]') + 1}: is a card side (its "
                              "[tasks] name the pieces of each die face), not a deck spec: give the spec its deck "
                              "was made from (the deck's deck.toml)")
    assert not (tmp_path / "g").exists()


@pytest.mark.parametrize("text, message", [
    ("###\n#.#\n###\n", "is a region file (`--region` reads it), not a deck spec"),   # TOML reads it as comments
    ("", "not a deck spec: it has no TOML key at all (a deck spec sets game, pieces and its [[sides]])"),
    ("# only a comment\n", "not a deck spec: it has no TOML key at all (a deck spec sets game, pieces and its "
                            "[[sides]])"),
])
def test_a_deck_spec_without_a_key_says_what_it_is(run_cli, tmp_path, text, message):
    # A square region's drawing given as a deck spec said only "missing key 'game'" (its '#' lines are TOML comments).
    f = write(tmp_path / "mine.toml", text)
    code, _, err = run_cli("generate", "--spec", f, "--out", tmp_path / "g")
    one_line_error(code, err, f"{f}: {message}")
    assert not (tmp_path / "g").exists()


def test_a_piece_over_the_kernels_size_is_refused_by_its_line(run_cli, tmp_path):
    # A piece of 1025 x 1024 cells (more than 2**20) ended in "ubongo-cp: error: ValueError: orientations: 1 to
    # 2**20 cells needed" (exit 1) after the shape was read cell by cell; now its cells are counted first.
    big = write(tmp_path / "big.txt", "I2\n##\n\nHuge\n" + ("#" * 1025 + "\n") * 1024)
    code, out, err = run_cli("solve", "--pieces", big, "--region", "2x2")
    assert (code, out, err) == (2, "", f"ubongo-cp: error: {big}:4: piece 'Huge' has 1049600 cells, over the limit "
                                       "of 1048576 (2**20, the most the search engines place)\n")


SUITES = "decks, duel-analysis, identical, knuth, pentominoes"
A_SUITE = f"not a suite (a .toml file of [[instance]] tables, a directory of instance files, or a shipped suite: {SUITES})"


def test_a_file_given_as_a_bench_suite_says_what_a_suite_is_and_what_it_got(run_cli, tmp_path):
    import shutil

    dlx = shutil.copy(Path(__file__).parent / "data" / "exact_cover" / "knuth_7_2_2_1_5.dlx", tmp_path / "k.dlx")
    card = Path(EXAMPLES) / "classic_X1_easy.toml"
    spec = Path(__file__).parent.parent / "ubongo_cp" / "data" / "specs" / "classic.toml"
    for suite, said in ((dlx, f"is an exact-cover instance (Knuth's format), {A_SUITE}; give a directory holding it"),
                        (card, f"is a card side, {A_SUITE}; give a directory holding it"),
                        (spec, f"is a deck spec, {A_SUITE}; generate its deck and give the deck's directory"),
                        (REGION, f"is a .txt file, {A_SUITE}")):
        code, out, err = run_cli("bench", suite, "--solvers", "dlx", "--out", tmp_path / "o", "--no-progress")
        assert (code, out, err) == (2, "", f"ubongo-cp: error: {suite}: {said}\n")
    assert not (tmp_path / "o").exists()


def test_examples_copy_into_a_file_says_that_copy_needs_a_directory(run_cli, tmp_path):
    from ubongo_cp.shipped import copy_examples

    target = tmp_path / "notes.txt"
    target.write_text("mine\n")
    for argv in (["examples", "--copy", target], ["examples", "pentominoes", "--copy", target]):
        code, out, err = run_cli(*argv)
        assert (code, out, err) == (2, "", f"ubongo-cp: error: --copy {target}: {target} is a file; the copies go "
                                           "into a directory (made where missing)\n")
    code, _, err = run_cli("examples", "--copy", target / "sub")
    assert (code, err) == (2, f"ubongo-cp: error: --copy {target / 'sub'}: {target} is a file; the copies go into a "
                              "directory (made where missing)\n")
    assert target.read_text() == "mine\n"
    with pytest.raises(InputError) as info:     # the library names its argument, not the option
        copy_examples(target)
    assert (str(info.value), info.value.argument) == (
        f"{target}: is a file; the copies go into a directory (made where missing)", "dest")


@pytest.mark.parametrize("players, said", [
    (9, "settings: num_players must be 2, 3 or 4, got 9"),
    (-1, "settings: num_players must be 2, 3 or 4, got -1"),
    ("two", "settings: num_players must be a whole number, got 'two'"),
    (None, "settings: num_players must be a whole number, got None"),
    ("missing", "settings: 'num_players' is missing (2, 3 or 4, the number of hands dealt)"),
])
def test_a_domino_record_with_a_bad_number_of_players_names_the_setting(run_cli, tmp_path, players, said):
    # A missing num_players was taken as 4, and the record then refused for its deal of two hands.
    import json

    record = json.loads((BAD / "record_domino_illegal_move.json").read_text())
    if players == "missing":
        del record["settings"]["num_players"]
    else:
        record["settings"]["num_players"] = players
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record, indent=1))
    code, out, err = run_cli("simulate", "domino", "--replay", path)
    assert (code, out, err) == (2, "", f"ubongo-cp: error: {path}: {said}\n")


@pytest.mark.parametrize("pieces, box, size", [("pentominoes", "3x-4", -4), ("pentominoes", " -3 x 4", -3),
                                               ("pentominoes", "0x4", 0), ("soma", "3x3x-1", -1)])
def test_a_box_size_below_one_is_named_as_such(run_cli, pieces, box, size):
    # "3x-4" was read as a file name: "3x-4: file not found"
    code, out, err = run_cli("solve", "--pieces", pieces, "--region", box)
    assert (code, out, err) == (2, "", f"ubongo-cp: error: --region {box}: a box size must be a whole number of at "
                                       f"least 1, got {size}\n")


def test_a_box_size_in_other_digits_is_refused(run_cli, tmp_path):
    # "٣x٣" (Arabic-Indic digits) was read as the 3x3 box: sizes are written in the digits 0-9.
    for box, digit in (("٣x٣", "'٣' (U+0663)"), ("3x３", "'３' (U+FF13)"), ("²x3x3", None)):
        code, out, err = run_cli("solve", "--pieces", "soma" if box.count("x") == 2 else "classic", "--region", box,
                                 "--count")
        said = (f"a box size is written in the digits 0-9, not {digit}" if digit else
                "no such region file, nor a box: write a box of the pieces' grid as LAYERSxROWSxCOLS (e.g. 3x3x3)")
        assert (code, out, err) == (2, "", f"ubongo-cp: error: --region {box}: {said}\n"), box
    # the census's --box names the text it cannot read
    code, _, err = run_cli("census", "--pieces", "classic", "--k", "2", "--cells", "4", "--box", "٣x٣",
                           "--out", tmp_path / "c")
    assert code == 2 and err.endswith("--box expects RxC with R, C from 1 to 9999, e.g. 6x6, got '٣x٣'\n"), err
    # ASCII digits: a 1x2 box holds the domino I2 one way (two orientations, one tiling each way round: 1)
    code, out, _ = run_cli("solve", "--pieces", "classic", "--use", "I2", "--region", "1x2", "--count", "--json")
    assert code == 0 and json.loads(out)["count"] == 1


def test_a_box_size_beyond_the_cell_limit_is_named_as_such(run_cli):
    # A size of more than 9 digits was read as a file name: "3x99999999999999999999: file not found".
    code, out, err = run_cli("solve", "--pieces", "classic", "--region", "3x99999999999999999999", "--count")
    assert (code, out, err) == (2, "", "ubongo-cp: error: --region 3x99999999999999999999: a 3x99999999999999999999 "
                                       "region has at least 299999999999999999997 cells, over the limit of 400 (a "
                                       "guard against a mistyped region; raise it with --max-cells for larger "
                                       "puzzles)\n")
    box = "3x" + "9" * 5000   # more digits than Python reads as a number
    code, out, err = run_cli("solve", "--pieces", "classic", "--region", box, "--count")
    assert (code, out, err) == (2, "", f"ubongo-cp: error: --region {box[:37]}...: a box size of 5000 digits (at "
                                       "most 4300 are read)\n")


def test_a_box_written_as_the_docs_write_sizes_is_that_box(run_cli, tmp_path, monkeypatch):
    # The docs write "6×10"; as --region it was a file name: "6×10: file not found". The counts are the published
    # ones (9,356 pentomino tilings of 6x10, 11,520 Soma cubes) and the same as with the letter x.
    import json

    monkeypatch.chdir(tmp_path)
    for pieces, box, plain in (("pentominoes", "6×10", "6x10"), ("soma", "3×3×3", "3x3x3")):
        counts = [json.loads(run_cli("solve", "--pieces", pieces, "--region", b, "--count", "--json")[1])["count"]
                  for b in (box, plain)]
        assert counts == [{"pentominoes": 9356, "soma": 11520}[pieces]] * 2


@pytest.mark.parametrize("pieces, box, form", [("pentominoes", "6,10", "ROWSxCOLS (e.g. 6x10)"),
                                               ("pentominoes", "6x10x", "ROWSxCOLS (e.g. 6x10)"),
                                               ("soma", "3*3*3", "LAYERSxROWSxCOLS (e.g. 3x3x3)")])
def test_a_mistyped_box_says_how_a_box_is_written(run_cli, tmp_path, monkeypatch, pieces, box, form):
    # It was "6,10: file not found", which does not say that a box is written with an x.
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli("solve", "--pieces", pieces, "--region", box)
    assert (code, out, err) == (2, "", f"ubongo-cp: error: --region {box}: no such region file, nor a box: write a "
                                       f"box of the pieces' grid as {form}\n")


def test_census_reads_pieces_as_every_command_does(run_cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "classic").write_text("I2\n##\n")
    code, out, err = run_cli("census", "--pieces", "classic", "--k", "3", "--cells", "6", "--out", "c",
                             "--count-only", "--no-progress", "--jobs", "1")
    assert code == 0 and out.startswith("census classic, K = 3, 6 cells")
    assert err == ("ubongo-cp: note: --pieces classic reads the shipped set; give ./classic to read the file of that "
                   "name here\n")
    code, out, err = run_cli("census", "--pieces", "clasic", "--k", "3", "--cells", "6", "--out", "d")
    assert code == 2 and err.endswith("did you mean 'classic'?\n") and not (tmp_path / "d").exists()


@pytest.mark.parametrize("argv, message", [
    (["orion", "tournament", "--games", "1", "--agents", " , "],
     "--agents names no agent (give some of random, greedy, sat, analysis, mcts, comma-separated)"),
    (["orion", "tournament", "--games", "1", "--agents", "random,nope"],
     "--agents: unknown agent(s) 'nope' (choose from random, greedy, sat, analysis, mcts)"),
    (["simulate", "domino", "--games", "2", "--first-player", "7"], "--first-player must be a seat 0..3, got 7"),
    (["simulate", "domino", "--games", "2", "--max-rounds", "0"],
     "--max-rounds must be a whole number of at least 1, got 0"),
])
def test_settings_are_named_as_their_options(run_cli, argv, message):
    # they were named as the library's keywords (first_player, max_rounds), or listed as "unknown agent(s) []"
    assert run_cli(*argv) == (2, "", f"ubongo-cp: error: {message}\n")


def test_a_binary_file_is_not_read_as_an_exact_cover_instance(run_cli, tmp_path):
    # Its bytes were read as item names ("no exact cover (primary item ... is in no option)", exit 0).
    path = tmp_path / "x.dlx"
    path.write_bytes(b"a b\n\x00\x01\x02\n")
    assert run_cli("exact-cover", path) == (2, "", f"ubongo-cp: error: {path}:2: not an exact-cover file (it holds "
                                                   "NUL bytes)\n")


def _extra_field(text: str) -> bytes:
    """The table with one field more on its first row (line 2)."""
    header, first, rest = text.split("\n", 2)
    return f"{header}\n{first},extra\n{rest}".encode()


@pytest.mark.parametrize("mangle, where, fragment", [
    (lambda text: text.encode("utf-16"), ":1:", "is UTF-16 text, not UTF-8 (it begins with a UTF-16 byte-order "
                                                "mark): save it as UTF-8"),
    (_extra_field, ":2:", "not a CSV table: "),
], ids=["UTF-16", "a row of more fields"])
def test_a_damaged_results_table_is_named_once_with_its_line(run_cli, tmp_path, mangle, where, fragment):
    # Once "r.csv: not a batch result table: r.csv:1: not UTF-8 text ...": the file twice, the line inside.
    code, _, err = run_cli("batch", EXAMPLES, "--out", tmp_path / "out", "--no-progress")
    assert code == 0, err
    table = tmp_path / "r.csv"
    table.write_bytes(mangle((tmp_path / "out" / "tasks.csv").read_text()))
    code, _, err = run_cli("booklet", EXAMPLES, "--results", table, "--out", tmp_path / "b.pdf")
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"ubongo-cp: error: {table}{where} not a batch result table: {fragment}"), err
    assert err.count(str(table)) == 1, err


_HEX_CARD = ('game = "classic"\ncard = "X"\nside = "easy"\npieces = "tetrahexes"\n\nregion = """\n# # # #\n'
             ' # # # #\n## # #\n"""\n\n[tasks]\n1 = ["I4", "O4"]\n')
_HEX_SPEC = ('game = "hx"\npieces = "tetrahexes"\ncards = 1\n\n[[sides]]\nname = "easy"\npieces_per_task = 3\n'
             'faces = 2\nmax_rows = 4\nmax_cols = 5\n\nlayers = 2\n')


@pytest.mark.parametrize("command, text, bad_line", [
    (["solve"], _HEX_CARD, "## # #"),                                                     # a row of the region
    (["solve"], _HEX_CARD.replace('"tetrahexes"\n', '"tetrahexes"\n\n\npieces_ = 1\n'), "pieces_ = 1"),
    (["solve"], 'game = "classic"\n\n\npieces = "nosuch"\ncard = "X"\nside = "easy"\nregion = "##"\n'
     '[tasks]\n1 = ["I2"]\n', 'pieces = "nosuch"'),
    (["generate", "--out", "{tmp}/g", "--spec"], _HEX_SPEC, "layers = 2"),                # a deck spec's key
])
def test_a_key_after_a_blank_line_is_named_on_its_own_line(run_cli, tmp_path, command, text, bad_line):
    # A key's line was found from the start of the blank lines above it: the region of a card with a blank
    # line before it was named on that blank line (and its rows not at all), a spec's key likewise.
    f = write(tmp_path / "c.toml", text)
    line = text.splitlines().index(bad_line) + 1
    code, _, err = run_cli(*[a.replace("{tmp}", str(tmp_path)) for a in command], f)
    one_line_error(code, err, f"{f}:{line}: ")


@pytest.mark.parametrize("text, line, piece, inside", [
    ("L3\n#.\n##\nT4\n.#\n##\n.#\n", 4, "T4", "L3"),                         # squares
    ("% two pieces\nI2\n##\nO4\n##\n##\n\nI1\n#\n", 4, "O4", "I2"),
    ("grid: hex\n\nI2\n# #\nI3\n# # #\n", 5, "I3", "I2"),                    # hexagons
])
def test_a_piece_set_without_the_blank_line_between_pieces_says_so(run_cli, tmp_path, text, line, piece, inside):
    # It was "unknown character 'T' in a square grid", which does not say what is missing.
    path = write(tmp_path / "mine.txt", text)
    code, out, err = run_cli("solve", "--pieces", path, "--region", "2x3")
    assert (code, out, err) == (2, "", f"ubongo-cp: error: {path}:{line}: piece '{piece}' starts inside the shape of "
                                       f"piece '{inside}': a blank line must end each piece's shape, before the next "
                                       "piece's name\n")
    fixed = parse_pieces(text.replace(f"\n{piece}\n", f"\n\n{piece}\n"))   # with the blank line: both pieces
    assert piece in fixed.names and inside in fixed.names


@pytest.mark.parametrize("task, said", [
    ('["L3 T4 O4"]', "L3 T4 O4 (not in classic): 'L3 T4 O4' is one string; write each piece as its own, "
                     '["L3", "T4", "O4"]'),
    ('["l3", "t4", "O4"]', "l3, t4 (not in classic); names are case-sensitive: L3, T4"),
    ('["L3", "X4", "O4"]', "X4 (not in classic)"),                 # nothing more to say
])
def test_a_task_naming_pieces_as_one_string_or_in_the_wrong_case_says_so(run_cli, tmp_path, task, said):
    # It said only "names unknown piece(s) L3 T4 O4", as if three pieces were unknown.
    card = write(tmp_path / "c.toml", f'game = "classic"\ncard = "07"\nside = "easy"\npieces = "classic"\n'
                                      f'region = """\n####\n####\n###.\n"""\n\n[tasks]\n1 = {task}\n')
    code, out, err = run_cli("solve", card)
    assert (code, out, err) == (2, "", f"ubongo-cp: error: {card}:12: task of face 1 names unknown piece(s) {said}\n")
    fixed = task.replace(" ", '", "') if task.count(" ") == 2 and "," not in task else task.upper()
    if "X4" not in task:   # the task as the message says to write it: the 11-cell region's one tiling
        card.write_text(card.read_text().replace(task, fixed))
        code, out, _ = run_cli("solve", card, "--count")
        assert code == 0 and "face 1: L3 T4 O4\n  1 solution [" in out


def test_a_file_of_another_of_the_toolkits_formats_is_named_as_such(run_cli, tmp_path):
    # A Knuth exact-cover file given as a card side said "q.dlx:1: invalid TOML: Invalid statement"; a DIMACS
    # file given to exact-cover "option names unknown item 'pieces'" (its comment lines read as items and
    # options); a card side given as a piece set "the piece name on this line contains white space".
    dlx, cnf = tmp_path / "task.dlx", tmp_path / "task.cnf"
    for target in (dlx, cnf):
        assert run_cli("export", "--pieces", "classic", "--region", "3x4", "--use", "I4,I4,I4", "--out", target)[0] == 0
    card = write(tmp_path / "card.toml", Path(EXAMPLES, "classic_X1_easy.toml").read_text())
    record = tmp_path / "game.json"
    assert run_cli("simulate", "domino", "--games", "1", "--record", record)[0] == 0
    knuth = "an exact-cover instance in Knuth's format (`ubongo-cp exact-cover` reads it)"
    dimacs = "a DIMACS CNF file (the input of a SAT solver or a model counter)"
    toml = "a TOML file (a card side, a deck spec or a bench suite)"
    json_file = "a JSON file (a game record, a difficulty model or a census manifest)"
    for argv, said in [
        (["solve", dlx], f"{dlx}: is {knuth}, not {toml}"),
        (["solve", cnf], f"{cnf}: is {dimacs}, not {toml}"),
        (["solve", record], f"{record}: is {json_file}, not {toml}"),
        (["generate", "--spec", dlx, "--out", tmp_path / "deck"], f"{dlx}: is {knuth}, not {toml}"),
        (["exact-cover", cnf, "--count"], f"{cnf}: is {dimacs}, not an exact-cover instance in Knuth's format"),
        (["exact-cover", card, "--count"], f"{card}: is {toml}, not an exact-cover instance in Knuth's format"),
        (["exact-cover", record, "--count"], f"{record}: is {json_file}, not an exact-cover instance in Knuth's format"),
        (["solve", "--pieces", card, "--region", "3x4"], f"{card}: is {toml}, not a piece-set file"),
        (["solve", "--pieces", dlx, "--region", "3x4"], f"{dlx}: is {knuth}, not a piece-set file"),
        (["solve", "--pieces", "classic", "--region", cnf], f"{cnf}: is {dimacs}, not a region file"),
    ]:
        assert run_cli(*argv) == (2, "", f"ubongo-cp: error: {said}\n"), argv
    # a piece set under a card's extension, wrong on its line 6, keeps its own error
    mine = write(tmp_path / "mine.toml", "I2\n##\n\nL3\n#.\n#x\n")
    assert run_cli("solve", "--pieces", mine, "--region", "3x4")[2] == (
        f"ubongo-cp: error: {mine}:6: unknown character 'x' in a square grid (use '#' for a square, '.' for an "
        "empty one; a picture on another grid names it on a 'grid:' line)\n")
    # a CNF file is told by its header whatever its name
    renamed = write(tmp_path / "task.txt", cnf.read_text())
    assert run_cli("exact-cover", renamed)[2] == (f"ubongo-cp: error: {renamed}: is {dimacs}, not an exact-cover "
                                                  "instance in Knuth's format\n")
    # each file is read where it belongs: three I4 tile 3x4 one way (a row each), found 3! = 6 times as the
    # Knuth file makes each copy an item of its own
    code, out, _ = run_cli("exact-cover", dlx, "--count", "--json")
    assert code == 0 and json.loads(out)["count"] == 6
    code, out, _ = run_cli("solve", card, "--face", "1", "--json")
    assert code == 0 and json.loads(out)["pieces"] == ["I2", "L4", "Y5"]   # its face 1 as the file writes it


@pytest.mark.parametrize("key", ["game_title", "title"])
def test_a_card_title_with_a_control_character_is_refused_on_its_line(run_cli, tmp_path, key):
    # Once taken: matplotlib's "Glyph 0 missing from font(s)" warnings on every card and booklet page drawn.
    text = Path(EXAMPLES, "classic_X1_easy.toml").read_text()
    card = write(tmp_path / "x.toml", text.replace('side = "easy"\n', f'side = "easy"\n{key} = "Blok\\u001bko"\n'))
    line = 1 + card.read_text().splitlines().index(f'{key} = "Blok\\u001bko"')
    assert run_cli("solve", card) == (2, "", f"ubongo-cp: error: {card}:{line}: {key} holds the control character "
                                             "U+001B; it is printed on the cards and booklet pages: write it on one "
                                             "line of printable characters\n")
    card.write_text(text.replace('side = "easy"\n', f'side = "easy"\n{key} = "Blokko"\n'))
    code, out, _ = run_cli("solve", card, "--face", "1", "--json")
    assert code == 0 and json.loads(out)["pieces"] == ["I2", "L4", "Y5"]


def test_a_journal_or_a_record_given_as_a_batch_table_is_named_as_such(run_cli, tmp_path):
    # A batch's journal given as its table said "tasks.jsonl:1: not a batch result table: the header line names
    # column '0]' twice" (pandas' reading of its first JSON line); a game record, likewise of its own first line.
    deck = tmp_path / "deck"
    deck.mkdir()
    write(deck / "x1.toml", Path(EXAMPLES, "classic_X1_easy.toml").read_text())
    assert run_cli("batch", deck, "--out", tmp_path / "out", "--jobs", "1", "--no-progress")[0] == 0
    record = tmp_path / "game.json"
    assert run_cli("simulate", "domino", "--games", "1", "--record", record)[0] == 0
    journal = tmp_path / "out" / "tasks.jsonl"
    for argv, said in [
        (["simulate", "ubongo", "--games", "2", "--tasks", journal],
         f"{journal}: is a journal of JSON lines (a batch's, a benchmark's or a simulation's record of its runs)"),
        (["calibrate", write(tmp_path / "t.csv", "card,side,face,seconds\nX1,easy,1,30\n"), "--results", record,
          "--out", tmp_path / "m.json"],
         f"{record}: is a JSON file (a game record, a difficulty model or a census manifest)"),
        (["booklet", deck, "--results", record, "--out", tmp_path / "b.pdf"],
         f"{record}: is a JSON file (a game record, a difficulty model or a census manifest)"),
    ]:
        assert run_cli(*argv) == (2, "", f"ubongo-cp: error: {said}, not a batch result table\n"), argv
    # the batch's own table is read: the card's six tasks, each with its count
    from ubongo_cp.report import load_tasks

    table = load_tasks(tmp_path / "out")
    assert sorted(table["face"].astype(int)) == [1, 2, 3, 4, 5, 6] and table["count"].notna().all()


def test_a_card_given_as_a_batch_table_is_named_a_toml_file(run_cli, tmp_path):
    # A card side given as booklet --results said "c.toml:13: not a batch result table: not a CSV table: 3 fields
    # where the header line has 1; its fields are separated by ';'": pandas read its comment-free lines as a table.
    deck = tmp_path / "deck"
    deck.mkdir()
    text = Path(EXAMPLES, "classic_X1_easy.toml").read_text()
    write(deck / "x1.toml", text)
    toml = "a TOML file (a card side, a deck spec or a bench suite)"
    for card in (write(tmp_path / "c.toml", text), write(tmp_path / "c.csv", text)):   # told by its content
        assert run_cli("booklet", deck, "--results", card, "--out", tmp_path / "b.pdf") == (
            2, "", f"ubongo-cp: error: {card}: is {toml}, not a batch result table\n")
    # a table that is no TOML document keeps the table reader's own error, with its line
    table = write(tmp_path / "t.toml", "card,side,face,count\nX1,easy,1,2\nX1,easy\n")
    code, _, err = run_cli("booklet", deck, "--results", table, "--out", tmp_path / "b.pdf")
    assert code == 2 and err.startswith(f"ubongo-cp: error: {table}:3: ") and "TOML" not in err


@pytest.mark.skipif(not os.path.isfile("/proc/version"), reason="needs Linux's /proc")
def test_an_output_in_a_folder_that_takes_no_files_names_the_folder(run_cli, tmp_path):
    # --journal /proc/version said "cannot write: No such file or directory" of a file that is there: /proc takes
    # no new file, so none can be written there to replace it.
    task = ("solve", "--pieces", "classic", "--use", "I2", "--region", "1x2", "--count")
    for path, verb in (("/proc/version", "cannot be replaced"), ("/proc/new.jsonl", "cannot write")):
        assert run_cli(*task, "--journal", path) == (
            2, "", f"ubongo-cp: error: {path}: {verb}: no file can be created in its folder /proc (No such file or "
                   "directory)\n")
    # a folder that takes files: the journal is written (1 tiling of the 1x2 box by the domino)
    code, out, _ = run_cli(*task, "--journal", tmp_path / "j.jsonl", "--json")
    assert code == 0 and json.loads(out)["count"] == 1 and (tmp_path / "j.jsonl").exists()


def test_task_instance_names_a_face_given_as_text_and_a_card_that_is_none():
    # A face read from text ('1', as a TOML key or a command line gives it) was answered "has no face 1
    # (faces 1..6)"; a missing card ended in an AttributeError from inside.
    from ubongo_cp.cards import load_card
    from ubongo_cp.cover import task_instance
    from ubongo_cp.shipped import find_example

    card = load_card(find_example("classic_X1_easy.toml").path)
    with pytest.raises(InputError) as caught:
        task_instance(card, "1")
    assert str(caught.value) == "face must be a whole number, got '1'"
    with pytest.raises(InputError) as caught:
        task_instance(card, 7)
    assert str(caught.value).endswith("card X1 side easy has no face 7 (faces 1..6)")
    with pytest.raises(InputError) as caught:
        task_instance(None, 1)
    assert str(caught.value) == ("task_instance needs a card side (ubongo_cp.cards.load_card), got NoneType")
    # A numpy integer (a face read from a batch table) is a face.
    import numpy as np

    assert [p.name for p in task_instance(card, np.int64(1)).pieces] == ["I2", "L4", "Y5"]


def test_a_file_name_holding_a_line_break_is_named_on_one_line(run_cli, tmp_path):
    # A name may hold a line feed or a carriage return: the message stays one line, the break written as \n.
    code, _, err = run_cli("solve", "--pieces", "classic", "--region", tmp_path / "no\nsuch.txt")
    one_line_error(code, err, "no\\nsuch.txt: file not found")
    pieces = tmp_path / "p\r\nq.txt"
    pieces.write_text("A\n##\n\nA\n##\n")
    code, _, err = run_cli("solve", "--pieces", pieces, "--region", "2x2")
    one_line_error(code, err, "p\\r\\nq.txt:4: piece 'A' appears twice (first at line 1)")


def test_the_api_names_pieces_that_are_names_a_census_key_that_is_no_text_and_an_example_that_is_none():
    # Names where pieces go were answered "needs a sequence of pieces ..., got list" (a list is a sequence);
    # a census key or an example name of another type ended in an AttributeError from inside.
    from ubongo_cp.census import region_from_text
    from ubongo_cp.cover import build_instance
    from ubongo_cp.pieces import Region
    from ubongo_cp.shipped import find_example

    with pytest.raises(InputError) as caught:
        build_instance(["F", "I"], Region.rectangle(2, 5))
    assert str(caught.value) == ("build_instance needs a sequence of pieces (ubongo_cp.pieces.load_pieces(name)"
                                 ".pieces), got list holding str 'F'")
    with pytest.raises(InputError) as caught:
        region_from_text(float("nan"))
    assert str(caught.value) == "a census region key is text ('###/#..'), got float nan"
    with pytest.raises(InputError) as caught:
        find_example(None)
    assert str(caught.value) == "a shipped item is named by text (e.g. 'pieces/classic'), got NoneType None"
    assert region_from_text("###/#..").cells == ((0, 0), (0, 1), (0, 2), (1, 0))


def test_warning_and_skipped_lines_name_a_file_with_a_line_break_on_one_line(run_cli, tmp_path):
    # Every line said on standard error stays one line; so does the summary's list of skipped card files.
    deck = tmp_path / "d"
    deck.mkdir()
    (deck / "a\nb.toml").write_text("x = 1\n")
    shutil.copy(Path(EXAMPLES) / "classic_X1_easy.toml", deck)
    code, out, err = run_cli("batch", deck, "--out", tmp_path / "o", "--strict")
    assert code == 1
    name = f"{deck}{os.sep}a\\nb.toml"
    assert err.splitlines() == [f"ubongo-cp: strict: skipped card file: {name}: missing field 'game'",
                                "ubongo-cp: strict check failed: 1 problem(s) in 6 task(s)"]
    assert f"## Skipped card files\n\n- {name}: missing field 'game'\n\n" in out
    code, _, err = run_cli("cards", deck, "--out", tmp_path / "cards.pdf")
    assert code == 0 and err.splitlines() == [f"ubongo-cp: skipped {name}: missing field 'game'"]


def test_a_toolkit_warning_naming_a_file_with_a_line_break_is_one_line(capsys):
    import warnings

    from ubongo_cp.errors import InputWarning, say_warnings

    with warnings.catch_warnings():
        say_warnings()
        warnings.warn(InputWarning("d/a\r\nb.toml: a census not finished"), stacklevel=1)
    assert capsys.readouterr().err == "ubongo-cp: d/a\\r\\nb.toml: a census not finished\n"


def test_a_folder_named_like_a_box_leaves_the_box(run_cli, tmp_path, monkeypatch):
    # A folder is not a file: --region 2x2 beside a folder 2x2 is the 2x2 box, as for no such name; a file of
    # that name is read as before.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "2x2").mkdir()
    code, out, err = run_cli("solve", "--pieces", "classic", "--region", "2x2", "--use", "I2,I2", "--count", "--json")
    assert (code, err, json.loads(out)["count"]) == (0, "", 2)   # both dominoes across, or both down
    code, out, _ = run_cli("export", "--pieces", "classic", "--region", "2x2", "--use", "I2,I2", "--out", "2x2/e.json")
    assert code == 0 and (tmp_path / "2x2" / "e.json").is_file()
    write(tmp_path / "1x4", "##\n##\n")
    code, out, _ = run_cli("solve", "--pieces", "classic", "--region", "1x4", "--use", "I2,I2", "--count", "--json")
    assert (code, json.loads(out)["count"]) == (0, 2)   # the file's square (the box 1x4 has 1 tiling)


def test_a_comment_written_as_other_formats_write_one_is_named(run_cli, tmp_path):
    # A piece set starting '# my pieces' (a comment in many formats, a shape row's '#' here) said only "the piece
    # name on this line contains white space"; the message now says how this format writes a comment.
    shapes = "A\n##\n##\n\nB\n###\n#..\n"
    for comment, problem in (("# my pieces", "contains white space"), ("#pieces", "contains '#'"),
                             ("// my pieces", "contains white space"), ("; my pieces", "contains white space")):
        f = write(tmp_path / "mine.txt", f"{comment}\n{shapes}")
        code, _, err = run_cli("solve", "--pieces", f, "--region", "2x6", "--use", "A,B,B", "--count")
        assert code == 2 and err.count("\n") == 1, err
        assert "mine.txt:1: " in err and problem in err and "a comment line starts with '%' in this format" in err
    # with the format's own comment the same shapes read: 2x6 by the square and two L4 (B) in 4 ways
    f = write(tmp_path / "mine.txt", f"% my pieces\n{shapes}")
    code, out, _ = run_cli("solve", "--pieces", f, "--region", "2x6", "--use", "A,B,B", "--count")
    assert code == 0 and out.startswith("4 solutions"), out
    # a name that merely holds white space is not told about comments
    f = write(tmp_path / "mine.txt", "my A\n##\n##\n")
    err = run_cli("solve", "--pieces", f, "--region", "2x2", "--use", "A")[2]
    assert "contains white space" in err and "a comment line" not in err


@pytest.mark.parametrize("sep", [";", "\t"])
def test_a_task_table_saved_with_semicolons_or_tabs_says_so(run_cli, tmp_path, sep):
    # A rated table re-saved by a spreadsheet with ';' (or tabs) between fields reads as one column: every reader
    # said only "tasks table lacks column(s) card_id, side, face, status, difficulty", not what to do about it.
    import pandas as pd

    from ubongo_cp.report import load_tasks
    from ubongo_cp.shipped import deck_tasks_path

    raw = pd.read_csv(deck_tasks_path("classic"), dtype=str, keep_default_na=False).drop(columns="solution")
    table = tmp_path / "tasks.csv"
    raw.to_csv(table, index=False, sep=sep)
    said = f"{table}:1: not a batch result table: not a CSV table: its fields are separated by {sep!r}, not " \
           "commas: save it with commas"
    for argv in (["simulate", "ubongo", "--tasks", table, "--games", "2", "--no-progress"],
                 ["booklet", "classic", "--results", table, "--out", tmp_path / "b.pdf"]):
        code, _, err = run_cli(*argv)
        one_line_error(code, err, said)
    with pytest.raises(InputError) as exc:
        load_tasks(table)
    assert str(exc.value) == said
    assert len(raw.columns) > 20 and len(load_tasks(deck_tasks_path("classic"))) == 432   # the table as shipped


@pytest.mark.parametrize("codec", ["utf-16", "utf-32"])
def test_a_text_file_saved_as_utf16_is_named_so_by_every_reader(run_cli, tmp_path, codec):
    # Notepad's "Unicode" and a spreadsheet's "Unicode text" are UTF-16 with a byte-order mark: every reader said
    # "not UTF-8 text (invalid start byte: byte 1 of the file, column 1 of the line)", not what the file is.
    from ubongo_cp.exactcover import read_exact_cover
    from ubongo_cp.pieces import load_pieces
    from ubongo_cp.shipped import piece_set_path

    name = codec.upper()
    pieces = write(tmp_path / "p.txt", "")
    pieces.write_bytes(piece_set_path("pentominoes").read_text().encode(codec))
    region = tmp_path / "r.txt"
    region.write_bytes("######\n######\n".encode(codec))
    card = tmp_path / "c.toml"
    card.write_bytes(Path(EXAMPLES, "classic_X1_easy.toml").read_text().encode(codec))
    cover = tmp_path / "x.dlx"
    cover.write_bytes("a b\na\nb\n".encode(codec))
    tiles = tmp_path / "t.txt"
    tiles.write_bytes("S1\nO\n".encode(codec))
    said = f"is {name} text, not UTF-8 (it begins with a {name} byte-order mark): save it as UTF-8"
    for argv, path in ((["solve", "--pieces", pieces, "--region", "6x10"], pieces),
                       (["solve", "--pieces", "pentominoes", "--region", region], region),
                       (["solve", card], card), (["exact-cover", cover], cover),
                       (["orion", "play", "--tiles", tiles], tiles)):
        code, _, err = run_cli(*argv)
        one_line_error(code, err, f"ubongo-cp: error: {path}:1: {said}\n")
    for reader, path in ((load_pieces, pieces), (read_exact_cover, cover)):
        with pytest.raises(InputError) as exc:
            reader(path)
        assert str(exc.value) == f"{path}:1: {said}"
    assert run_cli("solve", "--pieces", "classic", "--use", "I2", "--region", write(region, "##\n"))[0] == 0   # UTF-8


def test_a_name_with_a_letter_beyond_ascii_is_refused_as_such(run_cli, tmp_path):
    # 'Ü1' was refused as a card id that "may hold only letters, digits, '_' and '-'": Ü is a letter. The names
    # that may name files (card ids, game, side and tile names) take ASCII letters, and the messages now say so.
    import re

    from ubongo_cp.games.orion.tiles import parse_tiles
    from ubongo_cp.specs import parse_spec

    only = "may hold only ASCII letters (A-Z, a-z), digits, '_' and '-'"
    card = write(tmp_path / "c.toml", Path(EXAMPLES, "classic_X1_easy.toml").read_text().replace('"X1"', '"Ü1"'))
    one_line_error(*run_cli("solve", card)[::2], f"{card}:3: card id 'Ü1' {only}")
    spec = write(tmp_path / "deck.toml", 'game = "Spiel_ä"\npieces = "classic"\ncards = 1\n\n[[sides]]\n'
                 'name = "leicht"\npieces_per_task = 3\nfaces = 2\nmax_rows = 4\nmax_cols = 4\n')
    one_line_error(*run_cli("generate", "--spec", spec, "--out", tmp_path / "g")[::2], f"game name 'Spiel_ä' {only}")
    with pytest.raises(InputError, match="side names must be distinct and hold only ASCII letters"):
        parse_spec(spec.read_text().replace("Spiel_ä", "Spiel").replace('"leicht"', '"leïcht"'))
    with pytest.raises(InputError, match=re.escape(f"tile name 'Ö1' {only}")):
        parse_tiles("Ö1\nO\n")
    assert run_cli("solve", write(card, card.read_text().replace('"Ü1"', '"U1"')))[0] == 0


def test_a_json_object_naming_a_key_twice_is_refused_at_its_line(run_cli, tmp_path):
    # The json module keeps the last of two values of one key: a difficulty model naming a weight twice rated every
    # task with the second, a game record naming "moves" twice replayed the second list, with no word.
    from ubongo_cp.calibrate import load_model

    code, _, err = run_cli("orion", "play", "--seed", "1", "--save", tmp_path / "g.json")
    assert code == 0, err
    record = tmp_path / "g.json"
    text = record.read_text()
    twice = write(tmp_path / "twice.json", text.replace('\n "moves": [', '\n "moves": [],\n "moves": [', 1))
    line = text[:text.index('\n "moves": [')].count("\n") + 2
    one_line_error(*run_cli("orion", "analyze", twice)[::2],
                   f"ubongo-cp: error: {twice}:{line + 1}: malformed JSON: key 'moves' is given twice in one object "
                   f"(also on line {line})\n")
    assert run_cli("orion", "analyze", record, "--every", "100")[0] == 0   # the record as written
    model = tmp_path / "m.json"
    times = tmp_path / "t.csv"
    write(times, "card,side,face,seconds\n" + "".join(f"{c:02d},easy,{f},{10 + c + f}\n" for c in range(1, 13)
                                                     for f in range(1, 7)))
    code, _, err = run_cli("calibrate", times, "--results", "classic", "--out", model, "--features", "cells")
    assert code == 0, err
    lines = model.read_text().splitlines()
    at = next(i for i, s in enumerate(lines) if s.strip().startswith('"weights"'))
    assert lines[at + 1].strip().startswith('"cells"')
    lines.insert(at + 1, '    "cells": 9.0,')
    write(model, "\n".join(lines) + "\n")
    said = f"{model}:{at + 3}: malformed JSON: key 'cells' is given twice in one object (also on line {at + 2})"
    one_line_error(*run_cli("batch", "classic", "--out", tmp_path / "o", "--difficulty-model", model)[::2], said)
    with pytest.raises(InputError) as exc:
        load_model(model)
    assert str(exc.value) == said
