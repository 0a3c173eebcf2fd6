"""Card-side files and the core CLI commands (solve, analyze)."""

from __future__ import annotations

import json

import pytest

from conftest import PUZZLES, SHARED
from ubongo_cp.cards import card_to_toml, load_card, load_deck, parse_card
from ubongo_cp.cover import verify_solution
from ubongo_cp.errors import InputError

EXAMPLES = PUZZLES / "examples"
GOOD = """game = "classic"
card = "T1"
side = "easy"
pieces = "classic"
region = \"\"\"
##
##
\"\"\"

[tasks]
1 = ["I2", "I2"]
2 = ["O4"]
"""


def test_example_cards_load_and_round_trip():
    for path in sorted(EXAMPLES.glob("*.toml")):
        card = load_card(path)
        again = parse_card(card_to_toml(card), path=path)
        assert (again.region.cells, again.tasks, again.game, again.side) == \
               (card.region.cells, card.tasks, card.game, card.side)
        # UP-4: every task has the region's area.
        for face in card.tasks:
            assert sum(p.size for p in card.task_pieces(face)) == card.region.area


def test_multiset_task_is_allowed():
    card = parse_card(GOOD)
    assert card.tasks[1] == ("I2", "I2")


@pytest.mark.parametrize("change,line,fragment", [
    (('1 = ["I2", "I2"]', '1 = ["I2", "Q9"]'), 11, "unknown piece(s) Q9"),
    (('1 = ["I2", "I2"]', '1 = ["I2", "I3"]'), 11, "covers 5 cells but the region has 4 (UP-4)"),
    (('2 = ["O4"]', '1 = ["O4"]'), 12, "duplicate key"),
    (('2 = ["O4"]', 'x = ["O4"]'), 12, "not a positive integer"),
    (('side = "easy"', 'side = "A"'), 3, "not a side of a classic card"),
    (('region = """', 'region = 5\nnothing = """'), 5, "must be a text string"),
    (('##\n##', '#x\n##'), 6, "unknown character"),
    # a comment holding a Unicode line separator is one line of the file (once line 6, counted by str.splitlines)
    (('region = """\n##\n##', '# note\u2028more\nregion = """\n##\n#x'), 8, "unknown character"),
])
def test_bad_cards_name_file_and_line(tmp_path, change, line, fragment):
    path = tmp_path / "card.toml"
    path.write_text(GOOD.replace(*change))
    with pytest.raises(InputError) as err:
        load_card(path)
    assert fragment in str(err.value)
    assert str(err.value).startswith(f"{path}:{line}:")


def test_deck_reports_bad_and_duplicate_cards(tmp_path):
    (tmp_path / "a.toml").write_text(GOOD)
    (tmp_path / "b.toml").write_text(GOOD)  # same card id and side
    (tmp_path / "c.toml").write_text("game = \"classic\"\n")
    cards, problems = load_deck(tmp_path)
    assert len(cards) == 1
    assert sorted(p.path.rsplit("/", 1)[1] for p in problems) == ["b.toml", "c.toml"]
    assert "duplicate card T1" in problems[0].message
    with pytest.raises(InputError, match="deck directory not found"):
        load_deck(tmp_path / "nope")


def test_cli_solve_json_contract(run_cli):
    code, out, _ = run_cli("solve", "--pieces", "tetrominoes", "--region", EXAMPLES / "duel_board1.txt",
                           "--use", "I,O,T,L", "--count", "--json", "--backend", "dlx")
    data = json.loads(out)
    assert code == 0 and set(data) >= {"count", "complete", "solutions"}
    assert data["complete"] is True and data["count"] == len(data["solutions"])
    from ubongo_cp.pieces import load_pieces, load_region
    ps = load_pieces("tetrominoes").select(["I", "O", "T", "L"])
    region = load_region(EXAMPLES / "duel_board1.txt")
    for sol in data["solutions"]:
        assert verify_solution(ps, region, {k: [tuple(c) for c in v] for k, v in sol.items()}) is None


def test_cli_solve_draws_solution(run_cli, tmp_path):
    region = tmp_path / "r.txt"
    region.write_text("###\n###\n")
    code, out, _ = run_cli("solve", "--pieces", "classic", "--region", region, "--use", "L3,L3")
    assert code == 0
    art = [ln.strip() for ln in out.splitlines() if set(ln.strip()) <= {"L", "A"} and ln.strip()]
    assert len(art) == 2 and all(len(row) == 3 for row in art)


def test_cli_solve_card(run_cli):
    code, out, _ = run_cli("solve", EXAMPLES / "duel_X2_A.toml", "--face", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["face"] == 1 and data["count"] >= 1


def test_cli_analyze_matches_reference(run_cli):
    ref = json.loads((SHARED / "examples" / "duel_board1_analysis.json").read_text())
    code, out, _ = run_cli("analyze", "--pieces", "duel", "--region", SHARED / "examples" / "duel_board1.txt",
                           "--k", "3", "--json")
    assert code == 0
    assert json.loads(out) == [{"pieces": s["use"], "count": s["count"]} for s in ref["solvable"]]


@pytest.mark.parametrize("pieces, named", [("classic", "classic"), ("{dom}", "{dom}")])
def test_an_unknown_piece_of_use_is_the_arguments_problem_not_the_sets_file(run_cli, tmp_path, pieces, named):
    # The name came from the command line: the message blames --use and names the set (a shipped set by its
    # short name, not the installed package's file).
    dom, region = tmp_path / "dom.txt", tmp_path / "r.txt"
    dom.write_text("D\n##\n")
    region.write_text("##\n")
    pieces, named = pieces.replace("{dom}", str(dom)), named.replace("{dom}", str(dom))
    have = "I2 I3 L3 T4 L4 I4 S4 O4 Y5 L5 P5 Z5" if pieces == "classic" else "D"
    code, _, err = run_cli("solve", "--pieces", pieces, "--region", region, "--use", "FOO")
    assert code == 2 and err == f"ubongo-cp: error: --use: unknown piece 'FOO' ({named} has {have})\n"


def test_a_region_file_given_as_a_card_is_named_for_what_it_is(run_cli, tmp_path):
    # A region file's '#' lines are TOML comments: the file parses as an empty card, which is no card at all.
    region, empty = tmp_path / "rect_2x2.txt", tmp_path / "empty.toml"
    region.write_text("##\n##\n")
    empty.write_text("")
    code, _, err = run_cli("solve", region)
    assert code == 2 and err == (f"ubongo-cp: error: {region}: not a card-side TOML file: it has no TOML key at all "
                                 "(it looks like a region or piece file: TOML reads its '#' lines as comments); to "
                                 f"solve a region file, give --pieces SET --region {region}\n")
    code, _, err = run_cli("solve", empty)
    assert code == 2 and err == (f"ubongo-cp: error: {empty}: not a card-side TOML file: it has no TOML key at all "
                                 "(a card side sets game, card, side, pieces, region and tasks)\n")


@pytest.mark.parametrize("argv,fragment", [
    (["solve", "--pieces", "missing.txt", "--region", "x.txt"], "missing.txt: file not found"),
    (["solve", "--pieces", "classic", "--region", "{bad}"], "unknown character"),
    (["solve", "--pieces", "classic", "--region", "{good}", "--use", "I2,ZZ"], "unknown piece 'ZZ'"),
    (["solve", "--pieces", "classic", "--region", "{good}", "--backend", "magic"], "unknown backend"),
    (["solve", "{bad}"], "not a card-side TOML file: it has no TOML key at all"),
    (["solve", "{toml}"], "invalid TOML"),
    (["analyze", "--pieces", "{bad}", "--region", "{good}", "--k", "2"], "has no rows"),
])
def test_cli_bad_input_exit_2(run_cli, tmp_path, argv, fragment):
    bad = tmp_path / "bad.txt"
    bad.write_text("#?\n")
    good = tmp_path / "good.txt"
    good.write_text("##\n")
    toml = tmp_path / "bad.toml"
    toml.write_text("game = = 1\n")
    argv = [a.replace("{bad}", str(bad)).replace("{good}", str(good)).replace("{toml}", str(toml)) for a in argv]
    code, out, err = run_cli(*argv)
    assert code == 2
    assert fragment in err and err.count("\n") == 1 and "Traceback" not in err
