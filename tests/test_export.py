"""``ubongo-cp export`` to the files external solvers read: Knuth's exact-cover format and DIMACS CNF.

Expected values: the counts of ``ubongo-cp solve`` on the same task, the
5 domino tilings of a 2x4 rectangle (a Fibonacci number), and the k!
orderings of k identical pieces the plain format cannot tell apart. The
CNF files are counted here by enumerating their models with a SAT solver
of python-sat (a dependency of the toolkit), projected on the variables
the file names in its ``c p show`` line.
"""

from __future__ import annotations

import os
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from ubongo_cp import __version__
from ubongo_cp.cards import load_card

CARD = Path(__file__).parent.parent / "puzzles" / "examples" / "classic_X1_hard.toml"
KNUTH_QUEENS = Path(__file__).parent.parent / "ubongo_cp" / "data" / "bench" / "knuth" / "queens4.dlx"


def _solve_count(run_cli, *task) -> int:
    code, out, err = run_cli("solve", *task, "--count", "--json")
    assert code == 0, err
    return json.loads(out)["count"]


def _dlx_count(run_cli, path) -> int:
    code, out, err = run_cli("exact-cover", path, "--count", "--json")
    assert code == 0, err
    return json.loads(out)["count"]


def _cnf_models(path) -> tuple[int, int, int]:
    """(variables, clauses, models projected on the ``c p show`` variables, or on all) of a DIMACS file."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    lines = Path(path).read_text().splitlines()
    head = [line.split() for line in lines if line.startswith("p cnf ")]
    assert len(head) == 1
    n_vars, n_clauses = int(head[0][2]), int(head[0][3])
    shown = [line.split()[3:-1] for line in lines if line.startswith("c p show ")]
    project = [int(v) for v in shown[0]] if shown else list(range(1, n_vars + 1))
    cnf = CNF(from_file=str(path))
    assert (cnf.nv <= n_vars, len(cnf.clauses)) == (True, n_clauses)
    models = 0
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as solver:
        while solver.solve():
            model = set(solver.get_model())
            models += 1
            solver.add_clause([-v if v in model else v for v in project])   # block this projection
    return n_vars, n_clauses, models


def test_card_tasks_exported_count_as_solve_counts_them(run_cli, tmp_path):
    card = load_card(CARD)
    for face in card.tasks:
        expected = _solve_count(run_cli, CARD, "--face", face)
        assert expected > 0
        dlx, cnf = tmp_path / f"f{face}.dlx", tmp_path / f"f{face}.cnf"
        code, text, err = run_cli("export", CARD, "--face", face, "--out", dlx)
        assert (code, err) == (0, "") and text.startswith(f"wrote {dlx}: card X1 side hard, face {face}: ")
        assert "each tiling is found once" in dlx.read_text()   # four different pieces
        assert _dlx_count(run_cli, dlx) == expected
        code, text, err = run_cli("export", CARD, "--face", face, "--out", cnf)
        assert (code, err) == (0, "") and "DIMACS CNF" in text
        assert _cnf_models(cnf)[2] == expected


def test_identical_pieces_are_counted_once_per_ordering_in_knuths_format(run_cli, tmp_path):
    task = ("--pieces", "classic", "--region", "2x4", "--use", "I2,I2,I2,I2")
    assert _solve_count(run_cli, *task) == 5        # the domino tilings of 2x4
    out = tmp_path / "dominoes.dlx"
    code, text, err = run_cli("export", *task, "--out", out)
    assert code == 0, err
    assert "each tiling is found 24 times: the orderings of identical pieces" in text
    assert out.read_text().splitlines()[:4] == [
        f"| written by ubongo-cp {__version__}",
        "| pieces classic, region 2x4",
        "| each tiling is found 24 times: the orderings of identical pieces",
        "r0c0 r0c1 r0c2 r0c3 r1c0 r1c1 r1c2 r1c3 I2 I2#2 I2#3 I2#4"]
    assert _dlx_count(run_cli, out) == 5 * math.factorial(4)
    # DIMACS does not tell the copies apart: the 5 tilings, once each.
    cnf = tmp_path / "dominoes.cnf"
    assert run_cli("export", *task, "--out", cnf)[0] == 0
    assert _cnf_models(cnf)[2] == 5


def test_ranges_of_piece_counts_are_bounded_items(run_cli, tmp_path):
    task = ("--pieces", "classic", "--region", "2x4", "--use", "I2:0-4,O4:0-2")
    expected = _solve_count(run_cli, *task)
    # Dominoes only: 5; one square at either end, the 2x2 left by 2 dominoes (2 ways each), or in the middle
    # (1 way); two squares: 1.
    assert expected == 5 + 2 * 2 + 1 + 1
    out = tmp_path / "ranged.xcc"
    code, _, err = run_cli("export", *task, "--out", out)
    assert code == 0, err
    assert out.read_text().splitlines()[3] == "r0c0 r0c1 r0c2 r0c3 r1c0 r1c1 r1c2 r1c3 0:4|I2 0:2|O4"
    assert _dlx_count(run_cli, out) == expected
    cnf = tmp_path / "ranged.cnf"
    assert run_cli("export", *task, "--out", cnf)[0] == 0
    assert _cnf_models(cnf)[2] == expected


def test_a_card_burrtools_cannot_take_is_exported_for_solvers(run_cli, tmp_path):
    # One-sided pieces and cells left empty: refused as a BurrTools file, kept in Knuth's format and in CNF.
    text = CARD.read_text().replace('pieces = "classic"', 'pieces = "classic"\norientations = "one-sided"')
    card = tmp_path / "one_sided.toml"
    card.write_text(text)
    code, _, err = run_cli("export", card, "--face", "1", "--out", tmp_path / "x.xmpuzzle")
    assert code == 2 and "a .dlx or .cnf file keeps them" in err
    expected = _solve_count(run_cli, card, "--face", "1")
    assert expected != _solve_count(run_cli, CARD, "--face", "1")     # the orientations matter here
    assert run_cli("export", card, "--face", "1", "--out", tmp_path / "x.dlx")[0] == 0
    assert _dlx_count(run_cli, tmp_path / "x.dlx") == expected
    assert run_cli("export", card, "--face", "1", "--out", tmp_path / "x.cnf")[0] == 0
    assert _cnf_models(tmp_path / "x.cnf")[2] == expected


def test_cnf_of_an_unsolvable_task_is_unsatisfiable(run_cli, tmp_path):
    task = ("--pieces", "classic", "--region", "2x4", "--use", "I2,I2,L3:0-2")   # 4 cells left for L3s of 3
    assert _solve_count(run_cli, *task) == 0
    out = tmp_path / "none.cnf"
    code, text, err = run_cli("export", *task, "--out", out)
    assert code == 0, err
    n_vars, n_clauses, models = _cnf_models(out)
    assert models == 0 and f"{n_vars} variables" in text and f"{n_clauses} clauses" in text
    assert run_cli("export", *task, "--out", tmp_path / "none.dlx")[0] == 0
    assert _dlx_count(run_cli, tmp_path / "none.dlx") == 0


@pytest.mark.parametrize("name", ["mismatch.xmpuzzle", "mismatch.dlx", "mismatch.cnf"])
def test_a_puzzle_whose_pieces_cannot_fill_the_region_is_written_with_a_warning(run_cli, tmp_path, name):
    # Pieces of 3 and 2 cells (5) for a 2x3 region (6 cells): no tiling can exist (UP-4). The file is written as
    # asked, and one line says so, as solve reports it on the same puzzle.
    (tmp_path / "mine.txt").write_text("A\n###\n\nB\n##\n")
    (tmp_path / "board.txt").write_text("###\n###\n")
    (tmp_path / "fits.txt").write_text("###\n##.\n")
    task = ("--pieces", tmp_path / "mine.txt", "--region", tmp_path / "board.txt")
    code, _, err = run_cli("export", *task, "--out", tmp_path / name)
    assert code == 0 and (tmp_path / name).exists(), err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "area mismatch: pieces cover 5 cells, region has 6" in lines[0], err
    assert str(tmp_path / name) in lines[0]
    said = json.loads(run_cli("solve", *task, "--json")[1])["stats"]["reason"]
    assert said in lines[0]
    # pieces that cover the region's 5 cells: no word
    code, _, err = run_cli("export", "--pieces", tmp_path / "mine.txt", "--region", tmp_path / "fits.txt",
                           "--out", tmp_path / name)
    assert code == 0 and err == ""


@pytest.mark.parametrize("name", ["nowhere.xmpuzzle", "nowhere.dlx", "nowhere.cnf"])
def test_a_card_task_that_cannot_be_solved_is_written_with_a_warning(run_cli, tmp_path, name):
    # The region's 7 cells match O4 + I3, but every 2x2 block of it misses a cell of the middle column: O4 fits
    # nowhere. The card reads; its export says what solve says of the task.
    card = tmp_path / "c.toml"
    card.write_text('game = "classic"\ncard = "Z9"\nside = "easy"\npieces = "classic"\n'
                    'region = """\n#.#\n###\n#.#\n"""\n\n[tasks]\n1 = ["O4", "I3"]\n')
    code, _, err = run_cli("export", card, "--face", "1", "--out", tmp_path / name)
    assert code == 0 and (tmp_path / name).exists(), err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "piece O4 fits nowhere in the region" in lines[0] and str(card) in lines[0], err
    assert "piece O4 fits nowhere in the region" in run_cli("solve", card, "--face", "1")[1]


def test_format_option_and_other_names(run_cli, tmp_path):
    out = tmp_path / "task.txt"
    code, _, err = run_cli("export", CARD, "--face", "1", "--out", out, "--format", "dlx", "--no-colours")
    assert code == 0 and "--no-colours goes with a BurrTools file" in err
    assert out.read_text().splitlines()[1].startswith("| card X1 side hard, face 1: ")
    # Any other name is a BurrTools file, which an export may replace (it carries the toolkit's mark).
    xml = tmp_path / "task.xml"
    for _ in range(2):
        code, _, err = run_cli("export", "--pieces", "classic", "--region", "2x4", "--use", "I2,I2,I2,I2",
                               "--out", xml)
        assert code == 0, err
    assert _solve_count(run_cli, xml) == 5


def _count_of(run_cli, path) -> int:
    """The count of an exported file: Knuth's format by ``exact-cover``, DIMACS by its models."""
    return _cnf_models(path)[2] if str(path).endswith(".cnf") else _dlx_count(run_cli, path)


@pytest.mark.parametrize("name", ["t.dlx", "t.xcc", "t.cnf"])
def test_a_solver_file_replaces_only_its_own_earlier_export(run_cli, tmp_path, name):
    out = tmp_path / name
    out.write_text("")                       # an empty file is replaced
    assert run_cli("export", CARD, "--face", "1", "--out", out)[0] == 0
    assert out.read_text().splitlines()[0] == ("c" if name.endswith(".cnf") else "|") + \
        f" written by ubongo-cp {__version__}"
    code, _, err = run_cli("export", CARD, "--face", "2", "--out", out)   # its own earlier export: replaced
    assert code == 0, err
    assert _count_of(run_cli, out) == _solve_count(run_cli, CARD, "--face", "2") != \
        _solve_count(run_cli, CARD, "--face", "1")
    # Any other file is kept: a user's text, a Knuth instance of someone else (comments and all), an export
    # of the same format whose mark is not on its first line, and a file that only names the toolkit.
    comment = "c" if name.endswith(".cnf") else "|"
    others = ["my own instance\n", KNUTH_QUEENS.read_text(), f"{comment} queens\n{comment} written by ubongo-cp 0\n",
              f"{comment} written by ubongo-cpx\n", f"{comment} written by someone, not ubongo-cp 0\n"]
    for text in others:
        mine = tmp_path / ("mine" + out.suffix)
        mine.write_text(text)
        code, printed, err = run_cli("export", CARD, "--face", "1", "--out", mine)
        assert (code, printed) == (2, "") and "exists and is not a" in err and "written by ubongo-cp" in err
        assert mine.read_text() == text


def test_the_mark_is_a_comment_to_knuths_readers_and_dimacs_readers(run_cli, tmp_path):
    # Read by the toolkit's exact-cover reader, by a stand-in for Knuth's DLX1 that shares no code with the
    # toolkit (tests/data/bench/fake_dlx.py: it skips the lines that begin with "|", as DLX1 does) and by
    # python-sat's DIMACS reader: the 5 domino tilings of 2x4 (a Fibonacci number), 4! times each in Knuth's
    # plain format.
    task = ("--pieces", "classic", "--region", "2x4", "--use", "I2,I2,I2,I2")
    plain, cnf = tmp_path / "p.dlx", tmp_path / "p.cnf"
    assert run_cli("export", *task, "--out", plain)[0] == 0 and run_cli("export", *task, "--out", cnf)[0] == 0
    assert plain.read_text().startswith("| written by ubongo-cp ") and cnf.read_text().startswith("c written by ")
    assert _cnf_models(cnf)[2] == 5
    fake = Path(__file__).parent / "data" / "bench" / "fake_dlx.py"
    with plain.open() as fh:
        done = subprocess.run([sys.executable, str(fake)], stdin=fh, capture_output=True, text=True, check=True)
    assert "Altogether 120 solutions" in done.stderr
    assert _dlx_count(run_cli, plain) == 120


@pytest.mark.parametrize("argv, fragment", [
    ([str(CARD), "--out", "x.dlx"], "give its die face with --face"),
    ([str(CARD), "--face", "1", "--pieces", "classic", "--region", "2x4", "--out", "x.dlx"], "not both"),
    (["--pieces", "classic", "--out", "x.dlx"], "both --pieces and --region"),
    (["--pieces", "classic", "--region", "2x4", "--face", "1", "--out", "x.dlx"], "--face goes with a card"),
    (["--pieces", "classic", "--region", "2x4", "--use", "Q9", "--out", "x.dlx"], "Q9"),
    (["puzzle.xmpuzzle", "--out", "x.dlx"], "puzzle.xmpuzzle: is a BurrTools file"),   # not 'give --face'
    (["puzzle.xmpuzzle", "--face", "1", "--out", "x.dlx"], "ubongo-cp solve reads it"),   # nor 'not UTF-8 text'
])
def test_refusals_exit_2_with_one_line(run_cli, tmp_path, monkeypatch, argv, fragment):
    from conftest import one_line_error

    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli("export", *argv)
    one_line_error(code, err, fragment)
    assert out == "" and not (tmp_path / "x.dlx").exists()


@pytest.mark.parametrize("options", [
    ("--use", "L4,L4", "--orientations", "one-sided"),     # 2 tilings free, 1 one-sided (UP-3)
    ("--use", "L4,L4", "--orientations", "fixed"),         # none with both Ls as drawn
    ("--use", "I2,I2,I2", "--max-empty", "2"),             # 3 dominoes leaving 2 of the 8 cells empty
    ("--use", "L4,I2", "--max-empty", "2", "--orientations", "one-sided"),
    ("--use", "I2,I2,I2,I2", "--max-cells", "8"),
])
def test_export_takes_solves_options_for_the_same_instance(run_cli, tmp_path, options):
    task = ("--pieces", "classic", "--region", "2x4", *options)
    expected = _solve_count(run_cli, *task)
    free = _solve_count(run_cli, *[o for o in task if o not in ("one-sided", "fixed", "--orientations")])
    if "--orientations" in options:
        assert expected != free            # the option changes the count: the export must carry it
    factor = math.prod(math.factorial(options[1].split(",").count(n)) for n in set(options[1].split(",")))
    for name in ("t.xcc", "t.cnf"):
        out = tmp_path / name
        code, _, err = run_cli("export", *task, "--out", out)
        assert code == 0, err
        assert (_dlx_count(run_cli, out) if name == "t.xcc" else _cnf_models(out)[2] * factor) == expected * factor


def test_export_refuses_a_region_over_max_cells_as_solve_does(run_cli, tmp_path):
    task = ("--pieces", "classic", "--region", "2x4", "--max-cells", "7")
    code, _, solve_err = run_cli("solve", *task, "--count")
    assert code == 2 and "over the limit of 7" in solve_err
    code, _, err = run_cli("export", *task, "--out", tmp_path / "t.dlx")
    assert (code, err) == (2, solve_err) and not (tmp_path / "t.dlx").exists()


def test_export_of_a_card_takes_solves_orientations_and_max_empty(run_cli, tmp_path):
    options = ("--face", "1", "--orientations", "one-sided", "--max-empty", "1")
    expected = _solve_count(run_cli, CARD, *options)
    assert expected != _solve_count(run_cli, CARD, "--face", "1")
    assert run_cli("export", CARD, *options, "--out", tmp_path / "c.dlx")[0] == 0
    assert _dlx_count(run_cli, tmp_path / "c.dlx") == expected
    code, _, err = run_cli("export", CARD, *options, "--out", tmp_path / "c.xmpuzzle")
    assert code == 2 and "only free orientations" in err


def test_hexagons_are_named_by_their_axial_q_and_r(run_cli, tmp_path):
    # A hexagon (q, r) was written r<q>c<r>: the row of three hexagons below ("r" = 0) came out as r0c0 r1c0
    # r2c0, rows 1 and 2 of a one-row region. Two rows: the first "# # #", the second from q = 0 under it.
    region = tmp_path / "row.txt"
    region.write_text("grid: hex\n# # #\n # #\n")
    out = tmp_path / "row.dlx"
    code, _, err = run_cli("export", "--pieces", "tetrahexes", "--region", region, "--use", "O4", "--out", out,
                           "--format", "dlx")
    assert code == 0, err
    lines = [line for line in out.read_text().splitlines() if not line.startswith("|")]   # past the comments
    assert lines[0] == "q0r0 q0r1 q1r0 q1r1 q2r0 O4"
    # O4 (a rhombus of 4) lies in the 5 hexagons two ways: without the first hexagon of the top row, or its last.
    assert sorted(lines[1:]) == ["q0r0 q0r1 q1r0 q1r1 O4", "q0r1 q1r0 q1r1 q2r0 O4"]


# A region file whose name holds a control character (legal on Linux) once gave a BurrTools file that no XML
# reader takes, BurrTools' or ours ("malformed XML: not well-formed"); one whose name is not UTF-8 (its bytes
# decoded as surrogates) stopped every format with an internal error (UnicodeEncodeError), exit 1.
@pytest.mark.parametrize("name", [b"r\x01egion.txt", b"r\xffegion.txt", b"r\x1b[31mred.txt"])
@pytest.mark.parametrize("out", ["t.xmpuzzle", "t.dlx", "t.cnf"])
def test_an_odd_region_file_name_gives_a_file_that_reads_back(run_cli, tmp_path, name, out):
    region = os.fsdecode(os.path.join(os.fsencode(tmp_path), name))
    with open(region, "w") as f:
        f.write("####\n")
    pieces = tmp_path / "ab.txt"
    pieces.write_text("A\n##\n\nB\n##\n")
    code, _, err = run_cli("export", "--pieces", pieces, "--region", region, "--out", tmp_path / out)
    assert code == 0, err
    if out.endswith(".xmpuzzle"):
        code, text, err = run_cli("solve", tmp_path / out, "--count")
        assert code == 0 and "\n1 solution " in text, err   # AABB: BurrTools holds the two dominoes as one shape
    elif out.endswith(".dlx"):
        code, text, err = run_cli("exact-cover", tmp_path / out, "--count")
        assert code == 0 and text.startswith("2 exact covers"), err
    else:
        body = (tmp_path / out).read_bytes().decode("utf-8").splitlines()
        assert all(line.startswith(("c", "p cnf")) or line[:1].isdigit() or line[:1] == "-" for line in body)
