"""Identical pieces as items with multiplicities (UP-5), on every backend, and orientation modes.

A piece type with ``k`` identical copies is one item ``[k..k]``
(:mod:`ubongo_cp.cover`); the counts below are published or checked by a
second solver or by hand.
"""

from __future__ import annotations

import math

import json

import pytest

from conftest import PUZZLES
from ubongo_cp.cover import build_instance, verify_solution
from ubongo_cp.geometry import SYMMETRIES, transform
from ubongo_cp.pieces import Piece, Region, load_pieces
from ubongo_cp.rate import rate_instance
from ubongo_cp.solvers import SOLVERS, solve, solver_names
from ubongo_cp.status import Status

CLASSIC = load_pieces("classic")
TWO_TETROMINO_SETS = "I4,I4,O4,O4,T4,T4,S4,S4,L4,L4".split(",")


@pytest.mark.parametrize("backend", solver_names())
def test_two_tetromino_sets_in_8x5(backend):
    # Published: 99,392 tilings of 5x8 by two labelled sets of the five free tetrominoes
    # (R. Tomas's table); identical pieces are not told apart (UP-5): 99,392 / 2**5 = 3,106,
    # and 783 up to the rectangle's four symmetries. Every registered solver, CP-SAT ones
    # included (5-15 s each since enumeration runs without the LP relaxation, solvers.cpsat).
    inst = build_instance(CLASSIC.select(TWO_TETROMINO_SETS), Region.rectangle(8, 5))
    assert inst.n_types == 5 and inst.multiplicity[inst.n_cells:].tolist() == [[2, 2]] * 5
    result = solve(inst, backend=backend, keep=20)
    assert (result.status, result.count, result.count_reduced, result.complete) == (Status.SOLVED, 3106, 783, True)
    for sol in result.solutions:
        assert verify_solution(inst.pieces, inst.region, sol) is None
        assert sorted(sol) == sorted(["I4", "I4#2", "O4", "O4#2", "T4", "T4#2", "S4", "S4#2", "L4", "L4#2"])


def test_two_tetromino_sets_default_backend():
    result = solve(build_instance(CLASSIC.select(TWO_TETROMINO_SETS), Region.rectangle(8, 5)), keep=0)
    assert (result.count, result.count_reduced, result.backend) == (3106, 783, "bitboard-symmetry")
    # the decision diagram's rule (``auto``) gives the same counts, on whichever engine it picks
    auto = solve(build_instance(CLASSIC.select(TWO_TETROMINO_SETS), Region.rectangle(8, 5)), backend="auto", keep=0)
    assert (auto.count, auto.count_reduced, auto.backend) == (3106, 783, "auto")
    assert auto.stats["engine"] in ("zdd", "bitboard-symmetry") and auto.stats["rule"]


@pytest.mark.parametrize("backend", ["cpsat", "cpsat-split", "sat", "dlx", "xcover"])
def test_two_tetromino_sets_with_two_pieces_placed(backend):
    # The sub-problem of the 8x5 count with one O4 in the top-left 2x2 corner and one I4
    # down the bottom four cells of the right column: 77 tilings, the same on each family.
    cells = [(r, c) for r in range(8) for c in range(5) if not (r < 2 and c < 2) and not (r >= 4 and c == 4)]
    names = "I4,O4,T4,T4,S4,S4,L4,L4".split(",")
    inst = build_instance(CLASSIC.select(names), Region(tuple(sorted(cells))))
    result = solve(inst, backend=backend, keep=5)
    assert (result.count, result.complete) == (77, True)
    for sol in result.solutions:
        assert verify_solution(inst.pieces, inst.region, sol) is None


def test_four_copies_and_four_names_of_one_shape_rate_the_same():
    # Four 2x2 squares in a 4x4 region: one item [4..4] either way (identical shapes are
    # identical pieces, UP-5). The search is forced: each corner cell has one placement,
    # so 4 nodes; 9 placements of 4 cells over 16 cells: 2.25 placements per cell (issue 13's rating):
    # log2(1 + 4/1) + log2(9 * 4 / 16) = 3.4919.
    o4 = CLASSIC["O4"]
    copies = rate_instance(build_instance([o4] * 4, Region.rectangle(4, 4)))
    names = rate_instance(build_instance([Piece(f"B{i}", o4.cells) for i in range(1, 5)], Region.rectangle(4, 4)))
    for row in (copies, names):
        row.pop("seconds")
    assert json.loads(copies.pop("solution")).keys() == {"O4", "O4#2", "O4#3", "O4#4"}
    assert list(json.loads(names.pop("solution"))) == ["B1", "B2", "B3", "B4"]
    assert copies == names
    assert (copies["count"], copies["search_nodes"], copies["placements"]) == (1, 4, 9)
    assert copies["difficulty"] == pytest.approx(math.log2(5) + math.log2(2.25))
    assert copies["difficulty"] == pytest.approx(3.4918530963)


def test_many_copies_default_backend():
    t4, o4 = load_pieces("tetrominoes")["T"], CLASSIC["O4"]
    # 16 O4 tile 8x8 one way.
    assert solve(build_instance([o4] * 16, Region.rectangle(8, 8))).count == 1
    # 52 T on a 13-column band of 208 cells: no tiling (Walkup 1965: T-tetromino tilings of
    # a rectangle need both sides divisible by 4), proved by search.
    result = solve(build_instance([t4] * 52, Region.rectangle(16, 13)))
    assert (result.status, result.complete) == (Status.NO_SOLUTION, True)
    # 48 T on 12x16: a first tiling, a valid one.
    inst = build_instance([t4] * 48, Region.rectangle(12, 16))
    result = solve(inst, limit=1)
    assert result.status == Status.SOLVED
    assert verify_solution(inst.pieces, inst.region, result.solutions[0]) is None
    assert list(result.solutions[0])[:3] == ["T", "T#2", "T#3"]


def _one_sided_pentominoes() -> list[Piece]:
    """The 18 one-sided pentominoes: the 12 free ones and the mirror images of the six chiral ones."""
    free = load_pieces("pentominoes").pieces
    chiral = [p for p in free if len(p.orientations("free")) == 2 * len(p.orientations("one-sided"))]
    return list(free) + [Piece(p.name + "'", transform(p.cells, SYMMETRIES[4])) for p in chiral]


def test_one_sided_pentominoes_in_3x30():
    # Published: the 18 one-sided pentominoes tile 3x30 in 46 ways up to the rectangle's
    # symmetries, 184 on the fixed region. A reflection maps the set onto itself with
    # each chiral piece relabelled as its mirror image, so all 4 symmetries reduce.
    pieces = _one_sided_pentominoes()
    assert len(pieces) == 18
    inst = build_instance(pieces, Region.rectangle(3, 30), mode="one-sided")
    assert len(inst.region_symmetries) == 4
    result = solve(inst, keep=3)
    assert (result.count, result.count_reduced, result.complete) == (184, 46, True)
    for sol in result.solutions:
        assert verify_solution(pieces, inst.region, sol, mode="one-sided") is None


def test_one_sided_symmetries_need_the_mirror_pieces():
    # The 12 pentominoes one-sided: a reflection maps F to a piece not in the set, so only
    # the rotations of 3x20 reduce (the identity and the half turn).
    inst = build_instance(load_pieces("pentominoes").pieces, Region.rectangle(3, 20), mode="one-sided")
    assert inst.region_symmetries == [SYMMETRIES[0], SYMMETRIES[2]]
    # Fixed mode, two copies of an L tetromino in each of its quarter-turn images, in a 6x6
    # square with a 2x2 hole in the middle: the set is closed under the square's rotations,
    # so they reduce too (each maps an L to another of the four), the reflections do not.
    ell = CLASSIC["L4"].cells
    fixed = [Piece(f"L{k}", transform(ell, SYMMETRIES[k])) for k in range(4) for _ in range(2)]
    region = Region(tuple((r, c) for r in range(6) for c in range(6) if not (2 <= r <= 3 and 2 <= c <= 3)))
    inst = build_instance(fixed, region, mode="fixed")
    assert inst.region_symmetries == list(SYMMETRIES[:4])
    result = solve(inst, backend="dlx")
    # Orbits counted by hand: rotate each tiling's cell sets (the shape names the piece).
    tilings = {frozenset(frozenset(map(tuple, cells)) for cells in sol.values()) for sol in result.solutions}
    orbits = {min(tuple(sorted(tuple(sorted(_turn(cells, k))) for cells in t)) for k in range(4)) for t in tilings}
    assert result.count == len(tilings) == 2 and result.count_reduced == len(orbits) == 2  # both pinwheels


def _turn(cells, k):
    """The cells of a 6x6 region turned k quarter turns (as SYMMETRIES[k] maps the square onto itself)."""
    a, b, c, d = SYMMETRIES[k]
    raw = [(a * r + b * q, c * r + d * q) for r, q in cells]
    return [(r + (5 if a + b < 0 else 0), q + (5 if c + d < 0 else 0)) for r, q in raw]


# ------------------------------------------------------------- command line
def test_cli_draws_copies_with_their_own_letters(run_cli, tmp_path):
    region = tmp_path / "square.txt"
    region.write_text("##\n##\n")
    code, out, _ = run_cli("solve", "--pieces", "classic", "--region", region, "--use", "I2,I2", "--count")
    assert code == 0
    assert out.splitlines()[1:] == ["solution 1:", "  IA", "  IA", "solution 2:", "  II", "  AA",
                                    "legend: I=I2 A=I2#2"]


@pytest.mark.parametrize("shown", [[], ["--max-solutions", "all"]])
def test_cli_legend_names_the_copies_drawn_among_thousands(run_cli, tmp_path, shown):
    # Up to 2,000 dominoes may be used, 2 fit: the legend names the copies the pictures show.
    region = tmp_path / "square.txt"
    region.write_text("##\n##\n")
    code, out, err = run_cli("solve", "--pieces", "classic", "--region", region, "--use", "I2:0-2000", "--count",
                             *shown)
    assert code == 0, err
    assert any(line.startswith("2 solutions, 1 up to the region's symmetry") for line in out.splitlines())
    assert out.splitlines()[-1] == "legend: I=I2 A=I2#2" and "  IA" in out


def test_label_chars_runs_out_with_a_clear_error():
    from ubongo_cp.errors import InputError
    from ubongo_cp.geometry import label_chars

    assert len(set(label_chars([f"P{i}" for i in range(5000)]).values())) == 5000
    with pytest.raises(InputError, match="cannot each be drawn"):
        label_chars([f"P{i}" for i in range(40000)])


def test_cli_orientations(run_cli, tmp_path):
    # Two L tetrominoes tile 2x4 in 2 ways (mirror images of each other); one-sided, the
    # pieces cannot be turned over and only one remains; fixed, none (the L as drawn is
    # three cells tall).
    region = tmp_path / "strip.txt"
    region.write_text("####\n####\n")
    counts = {}
    for mode in ("free", "one-sided", "fixed"):
        code, out, _ = run_cli("solve", "--pieces", "tetrominoes", "--region", region, "--use", "L,L", "--count",
                               "--orientations", mode)
        counts[mode] = out.splitlines()[0].split(" [")[0]
    assert counts == {"free": "2 solutions, 1 up to the region's symmetry", "one-sided": "1 solution",
                      "fixed": "no solution (piece L fits nowhere in the region)"}
    # A card's own mode is overridden; analyze takes the flag too.
    _, out, _ = run_cli("solve", PUZZLES / "examples" / "classic_X1_easy.toml", "--face", "1", "--orientations", "fixed")
    assert "no solution (piece Y5 fits nowhere in the region)" in out
    _, out, _ = run_cli("analyze", "--pieces", "duel", "--region", PUZZLES / "examples" / "duel_board1.txt",
                        "--k", "3", "--orientations", "one-sided", "--json")
    free = analyze_counts(run_cli, [])
    assert sum(s["count"] for s in json.loads(out)) < sum(free.values())


def analyze_counts(run_cli, extra):
    _, out, _ = run_cli("analyze", "--pieces", "duel", "--region", PUZZLES / "examples" / "duel_board1.txt",
                        "--k", "3", "--json", *extra)
    return {tuple(s["pieces"]): s["count"] for s in json.loads(out)}


def test_batch_orientations_override_the_cards(tmp_path):
    from ubongo_cp.batch import run_batch
    from ubongo_cp.cards import load_card

    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "X1_easy.toml").write_text((PUZZLES / "examples" / "classic_X1_easy.toml").read_text())
    free = run_batch(deck, tmp_path / "out", progress=False).tasks
    fixed = run_batch(deck, tmp_path / "out", progress=False, orientations="fixed").tasks
    card = load_card(deck / "X1_easy.toml")
    for face in card.tasks:  # each count is the plain search of that mode
        inst = build_instance(card.task_pieces(face), card.region, mode="fixed")
        assert fixed.loc[fixed.face == face, "count"].item() == solve(inst, backend="xcover").count
    assert (fixed["task_hash"] != free["task_hash"]).all()  # a resumed run never mixes the modes
    assert fixed["count"].sum() < free["count"].sum()


@pytest.mark.parametrize("backend", ["dlx", "xcover", "cpsat", "sat"])
def test_more_copies_than_placements_has_no_solution(backend):
    # Four O4 and a 2x4 region (the area check would stop drive first: each backend is run
    # directly): 3 placements for 4 copies, so no cover, proved by the search or the encoding.
    inst = build_instance([CLASSIC["O4"]] * 4, Region.rectangle(2, 4))
    assert inst.options_per_type().tolist() == [3]
    found = []
    exhausted, _ = SOLVERS[backend].make().run(inst, lambda s: found.append(s) or True)
    assert exhausted and found == []


@pytest.mark.parametrize("rows, cols, tilings", [(2, 10, 89), (4, 4, 36), (3, 4, 11)])
def test_xcover_meets_each_tiling_by_identical_dominoes_once(rows, cols, tilings):
    # Domino tilings of a rectangle (2 x n: the Fibonacci number F(n + 1); 4 x 4: 36; 3 x 4: 11, Kasteleyn's
    # formula). xcover has no multiplicities: the copies are ordered by secondary items, so the search meets
    # each tiling once (raw covers = tilings) instead of once per ordering of the copies (k! times).
    domino = Piece("D", ((0, 0), (0, 1)))
    inst = build_instance([domino] * (rows * cols // 2), Region.rectangle(rows, cols))
    got = solve(inst, backend="xcover", keep=0)
    assert got.count == got.stats["solutions_raw"] == tilings == solve(inst, backend="dlx", keep=0).count
