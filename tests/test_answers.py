"""Regression tests of answers that were wrong or missing (through the command line where a user meets them).

The commands run in-process; each case checks the answer against an
independent count or a hand-checked case.
"""

from __future__ import annotations

import json
import time

import pytest

from conftest import ROOT, one_line_error, write

EXAMPLES = ROOT / "puzzles" / "examples"


# ----------------------------------------------------------------- wrong or missing answers
def test_xcover_stops_at_the_time_limit_without_a_solution(run_cli, tmp_path):
    # The complete graph K21 has no perfect matching (21 vertices, odd): Algorithm X/C explores
    # 19!! = 6.5e8 leaves, minutes for xcover; the limit must stop it at 1 s.
    n = 21
    lines = [" ".join(f"v{i}" for i in range(n))]
    lines += [f"v{i} v{j}" for i in range(n) for j in range(i + 1, n)]
    f = write(tmp_path / "k21.dlx", "\n".join(lines) + "\n")
    start = time.perf_counter()
    code, out, err = run_cli("exact-cover", f, "--backend", "xcover", "--time-limit", "1")
    assert code == 0, err
    assert "time limit reached" in out
    assert time.perf_counter() - start < 30  # was still running after 119-200 s


def test_xcover_time_limit_keeps_the_solutions_found(tmp_path):
    from ubongo_cp.cover import build_instance
    from ubongo_cp.pieces import Region, load_pieces
    from ubongo_cp.solvers import solve

    inst = build_instance(load_pieces("pentominoes").pieces, Region.rectangle(6, 10))
    limited = solve(inst, backend="xcover", time_limit=0.5, keep=3)
    assert not limited.complete and limited.count < 9356 * 4
    # every cover handed on is a real tiling of the 6x10 rectangle
    from ubongo_cp.verify import verify_solution

    for sol in limited.solutions:
        assert verify_solution(inst.pieces, inst.region, sol) is None
    whole = solve(build_instance(load_pieces("classic").select(["I3", "L4", "P5"]), Region.rectangle(3, 4)),
                  backend="xcover", time_limit=30)
    assert (whole.count, whole.complete) == (20, True)  # the same count as without a limit


def test_a_solution_with_80_pieces_is_printed(run_cli, tmp_path):
    # 80 monominoes named P1..P80 tile an 8x10 rectangle; the drawing alphabet used to end at 69.
    pieces = write(tmp_path / "mono.txt", "\n\n".join(f"P{i}\n#" for i in range(1, 81)) + "\n")
    region = write(tmp_path / "r.txt", "\n".join(["#" * 10] * 8) + "\n")
    code, out, err = run_cli("solve", "--pieces", pieces, "--region", region, "--backend", "dlx")
    assert code == 0, err
    grid = [line.strip() for line in out.splitlines() if len(line.strip()) == 10]
    assert len(grid) == 8 and len(set("".join(grid))) == 80
    legend = out.split("legend:")[1].split()
    assert len(legend) == 80 and len({entry.split("=")[0] for entry in legend}) == 80


def test_a_piece_name_with_a_hash_is_refused_where_it_is_written(run_cli, tmp_path):
    # A piece named A#2 would be taken for the second copy of A in solutions.
    pieces = write(tmp_path / "p.txt", "A\n##\n\nA#2\n##\n")
    code, _, err = run_cli("solve", "--pieces", pieces, "--region", EXAMPLES / "duel_board1.txt")
    one_line_error(code, err, f"{pieces}:4:", "piece 'A#2' contains '#'")


@pytest.mark.parametrize("name, why", [
    ("A,B", "contains ',', which separates the names in a selection of pieces (I2,L4)"),
    ("C:1", "contains ':', which gives a count in a selection of pieces (T4:2 = two T4)"),
])
def test_a_piece_name_a_selection_could_not_name_is_refused_where_it_is_written(run_cli, tmp_path, name, why):
    # A selection of pieces splits on ',' and reads NAME:COUNT, so such a name could never be chosen.
    pieces = write(tmp_path / "p.txt", f"D\n##\n\n{name}\n##\n")
    code, _, err = run_cli("solve", "--pieces", pieces, "--region", EXAMPLES / "duel_board1.txt")
    assert code == 2 and err == f"ubongo-cp: error: {pieces}:4: piece {name!r} {why}\n"


def test_copies_keep_their_labels_apart(run_cli, tmp_path):
    pieces = write(tmp_path / "p.txt", "A\n##\n\nB\n#\n#\n")
    region = write(tmp_path / "r.txt", "####\n##..\n")
    code, out, err = run_cli("solve", "--pieces", pieces, "--region", region, "--use", "A,A,B", "--json")
    assert code == 0, err
    solution = json.loads(out)["solutions"][0]
    assert sorted(solution) == ["A", "A#2", "B"]


def test_analyze_answers_at_once_when_no_k_subset_has_the_area(run_cli, tmp_path):
    region = write(tmp_path / "r6x8.txt", "\n".join(["#" * 8] * 6) + "\n")
    start = time.perf_counter()
    code, out, err = run_cli("analyze", "--pieces", "classic", "--region", region, "--k", "2")
    assert code == 0, err
    assert "0 of 0 area-matching 2-subsets" in out and "no 2-subset of the pieces has the region's area" in out
    monominoes = write(tmp_path / "mono.txt", "\n\n".join(f"M{i}\n#" for i in range(30)) + "\n")
    seven = write(tmp_path / "r7.txt", "#######\n")
    code, out, err = run_cli("analyze", "--pieces", monominoes, "--region", seven, "--k", "2")
    assert code == 0 and "0 of 0 area-matching" in out, err
    assert time.perf_counter() - start < 30  # the search used to run for minutes


def test_analyze_drops_pieces_of_no_matching_subset():
    # Duel board 1 (16 cells), K = 3: the same subsets and counts as the search over every piece.
    from ubongo_cp.analyze import _usable, analyze, analyze_per_subset
    from ubongo_cp.pieces import load_pieces, load_region

    pieces = load_pieces("duel").pieces
    region = load_region(EXAMPLES / "duel_board1.txt")
    fast = analyze(pieces, region, 3)
    slow = analyze_per_subset(pieces, region, 3)
    assert [(s.pieces, s.count) for s in fast.subsets] == [(s.pieces, s.count) for s in slow.subsets]
    assert fast.matching_area == slow.matching_area == 495
    # sizes 1 and 4 only, 5 cells, K = 2: the monomino goes with a tetromino; a domino cannot be used
    from ubongo_cp.pieces import Piece

    mono, dom, tet = Piece("M", ((0, 0),)), Piece("D", ((0, 0), (0, 1))), Piece("T", ((0, 0), (0, 1), (0, 2), (0, 3)))
    assert _usable([mono, dom, tet], 5, 2) == [True, False, True]


def test_analyze_says_one_solution_in_the_singular(run_cli, tmp_path):
    # The 2x2 square holds one classic piece alone: O4, in one way (the other 4-cell pieces do not fit); the
    # summary said "(1 solutions)".
    square = write(tmp_path / "r2x2.txt", "##\n##\n")
    code, out, err = run_cli("analyze", "--pieces", "classic", "--region", square, "--k", "1")
    assert code == 0, err
    last = out.strip().splitlines()[-1]
    assert last.startswith("1 of ") and "area-matching 1-subsets tile the 4-cell region (1 solution) [" in last
