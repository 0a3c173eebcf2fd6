"""Cells left empty in the subset analysis and in generated decks.

``analyze(..., max_empty=N)`` must find, for every K-subset covering the
region's area less ``e`` cells (``0 <= e <= N``), the count of the task with
those pieces and ``e`` monominoes of one type added, each solved apart by dlx
(a different instance: the monominoes a fixed type, not an optional one). A
generated deck's tasks with empty cells must solve, from their card files as
written, to the counts the generator recorded.
"""

from __future__ import annotations

import json
from itertools import combinations, combinations_with_replacement

import pytest

from ubongo_cp.analyze import analyze, subset_instance
from ubongo_cp.cards import load_card
from ubongo_cp.cover import build_instance, task_instance
from ubongo_cp.errors import InputError
from ubongo_cp.pieces import Piece, Region, load_pieces, load_region
from ubongo_cp.solvers import solve
from ubongo_cp.specs import load_spec

from conftest import PUZZLES

CLASSIC = load_pieces("classic").pieces
MONO = Piece("M", ((0, 0),))


def per_subset(pieces, region, k, max_empty, copies=1) -> dict:
    """Subset -> count, each K-(multi)set with e = area - its cells in 0..max_empty solved apart with e monominoes."""
    combos = combinations_with_replacement(pieces, k) if copies > 1 else combinations(pieces, k)
    found = {}
    for combo in combos:
        if any(combo.count(p) > copies for p in combo):
            continue
        empty = region.area - sum(p.size for p in combo)
        if 0 <= empty <= max_empty:
            count = solve(build_instance(list(combo) + [MONO] * empty, region), backend="dlx", keep=0).count
            if count:
                found[tuple(p.name for p in combo)] = count
    return found


@pytest.mark.parametrize("rows, cols, k, max_empty, copies", [
    (3, 4, 3, 0, 1), (3, 4, 3, 2, 1), (3, 5, 4, 2, 1), (3, 3, 3, 1, 2), (3, 3, 2, 2, 2), (2, 5, 2, 1, 1),
])
def test_analyze_with_empty_cells_counts_as_adding_monominoes(rows, cols, k, max_empty, copies):
    region = Region.rectangle(rows, cols)
    want = per_subset(CLASSIC, region, k, max_empty, copies)
    result = analyze(CLASSIC, region, k, max_empty=max_empty, copies=copies)
    assert {s.pieces: s.count for s in result.subsets} == want
    sizes = {p.name: p.size for p in CLASSIC}
    empties = {region.area - sum(sizes[n] for n in names) for names in want}
    assert want and (max(empties) > 0) == (max_empty > 0), empties   # the cases leave cells empty


def test_analyze_with_empty_cells_on_an_irregular_region():
    duel = load_pieces("duel").pieces
    region = load_region(PUZZLES / "examples" / "duel_board1.txt")   # 16 cells; duel pieces have 5 or 6
    want = per_subset(duel, region, 3, 1)
    got = {s.pieces: s.count for s in analyze(duel, region, 3, max_empty=1).subsets}
    assert got == want and len(want) > len({s.pieces for s in analyze(duel, region, 3).subsets})


def test_analyze_refuses_bad_empty_cells():
    region = Region.rectangle(3, 4)
    with pytest.raises(InputError, match="max_empty must be 0 to 12"):
        analyze(CLASSIC, region, 3, max_empty=13)
    with pytest.raises(InputError, match="max_empty must be 0 to 12"):
        subset_instance(CLASSIC, region, 3, max_empty=-1)
    with pytest.raises(InputError, match="a piece is named 'empty'"):
        analyze([Piece("empty", ((0, 0), (0, 1)))] + list(CLASSIC), region, 3, max_empty=1)


def test_the_analyze_command_shows_the_empty_cells(run_cli):
    region = PUZZLES / "examples" / "duel_board1.txt"
    code, out, _ = run_cli("analyze", "--pieces", "duel", "--region", region, "--k", 3, "--max-empty", 1, "--json")
    rows = json.loads(out)
    sizes = {p.name: p.size for p in load_pieces("duel").pieces}
    assert code == 0 and {r["empty"] for r in rows} == {0, 1}
    assert all(r["empty"] == 16 - sum(sizes[n] for n in r["pieces"]) for r in rows)
    code, _, err = run_cli("analyze", "--pieces", "duel", "--region", region, "--k", 3, "--max-empty", 17)
    assert code == 2 and "--max-empty 17 is larger than the region (16 cells)" in err and len(err.splitlines()) == 1


def test_a_generated_deck_with_empty_cells_solves_as_recorded(tmp_path):
    spec = tmp_path / "spec.toml"
    spec.write_text('game = "holes"\npieces = "classic"\ncards = 3\n\n[[sides]]\nname = "A"\npieces_per_task = 3\n'
                    'faces = 6\nmax_rows = 5\nmax_cols = 5\ncells = [11, 12]\nmax_empty = 1\n')
    from ubongo_cp.generate import generate_deck

    deck = generate_deck(spec, tmp_path / "deck", seed=3)
    sizes = {p.name: p.size for p in CLASSIC}
    holes = 0
    for card in deck:
        written = load_card(card.path)
        for face, names in written.tasks.items():
            empty = written.region.area - sum(sizes[n] for n in names)
            assert written.max_empty.get(face, 0) == empty and empty in (0, 1)
            holes += empty
            count = solve(task_instance(written, face), backend="dlx", keep=0).count
            assert count == 1 == card.meta["generator"]["solutions"][face - 1]
    assert holes > 0, "no task leaves a cell empty"


@pytest.mark.parametrize("line, message", [
    ("max_empty = -1", "max_empty must be at least 0, got -1"),
    ("max_empty = 11", r"max_empty must be below the smallest region \(11 cells\), got 11"),
    ("max_empty = true", "side 'A': 'max_empty' must be a whole number, got true$"),
    ("difficulty = [1, true]", r"side 'A': difficulty must be \[min, max\], got \[1, true\]$"),
])
def test_bad_max_empty_in_a_spec(tmp_path, line, message):
    spec = tmp_path / "spec.toml"
    spec.write_text('game = "holes"\npieces = "classic"\ncards = 3\n\n[[sides]]\nname = "A"\npieces_per_task = 3\n'
                    f'faces = 6\nmax_rows = 5\nmax_cols = 5\ncells = [11, 12]\n{line}\n')
    with pytest.raises(InputError, match=message):
        load_spec(spec)


@pytest.mark.parametrize("backend", ["bitboard", "dlx", "xcover", "cpsat", "sat", "zdd"])
def test_every_backend_analyzes_copies_and_empty_cells_alike(backend):
    """A backend without multiplicities (xcover) expands the copies and the empty cells into items of their own."""
    holes = Region.from_ascii("####\n#.##\n###.\n####\n")
    want = per_subset(CLASSIC, holes, 3, 2)
    assert {s.pieces: s.count for s in analyze(CLASSIC, holes, 3, max_empty=2, backend=backend).subsets} == want
    square = Region.rectangle(3, 3)
    want = per_subset(CLASSIC, square, 3, 1, copies=2)
    got = analyze(CLASSIC, square, 3, max_empty=1, copies=2, backend=backend)
    assert {s.pieces: s.count for s in got.subsets} == want


def test_a_task_whose_pieces_fill_the_region_is_the_task_without_empty_cells():
    """``max_empty`` beyond what the pieces can leave empty changes nothing: same placements, same rating."""
    from ubongo_cp.rate import rate_instance

    pieces = load_pieces("classic").select(["I2", "I2", "O4", "L4"])
    plain = build_instance(pieces, Region.rectangle(3, 4))
    loose = build_instance(pieces, Region.rectangle(3, 4), max_empty=2)
    assert (loose.n_options, loose.empty_type) == (plain.n_options, -1)
    rated = [{k: v for k, v in rate_instance(i, cross_check=False).items() if k != "seconds"} for i in (loose, plain)]
    assert rated[0] == rated[1] and rated[0]["count"] > 0


def test_solve_card_max_empty_replaces_the_cards_in_its_label_and_answer(run_cli, tmp_path):
    card = tmp_path / "c.toml"
    card.write_text('game = "classic"\ncard = "E1"\nside = "easy"\npieces = "classic"\nregion = """\n####\n####\n'
                    '###.\n"""\n\n[tasks]\n1 = {pieces = ["I2", "I4", "L5"], max_empty = 1}\n')
    code, out, _ = run_cli("solve", card, "--face", 1, "--count", "--max-empty", 0)
    assert code == 0 and "face 1: I2 I4 L5\n" in out and "pieces cover 11 cells, region has 11" not in out
    code, out, _ = run_cli("solve", card, "--face", 1, "--count", "--max-empty", 2, "--json")
    data = json.loads(out)
    assert data["max_empty"] == 2 and data["count"] == sum(
        solve(build_instance(load_pieces("classic").select(["I2", "I4", "L5"]) + [MONO] * e,
                             Region.from_ascii("####\n####\n###.\n")), backend="dlx", keep=0).count for e in range(3))
    code, _, err = run_cli("solve", card, "--face", 1, "--max-empty", -1)
    assert code == 2 and "--max-empty must be at least 0, got -1" in err


def test_an_area_mismatch_with_empty_cells_says_what_the_pieces_cover(run_cli, tmp_path):
    region = tmp_path / "r.txt"
    region.write_text("######\n######\n######\n")
    code, out, _ = run_cli("solve", "--pieces", "classic", "--region", region, "--use", "I2,T4,L4,Z5", "--max-empty", 2)
    assert code == 0 and "pieces cover 15 cells, region has 18 of which up to 2 may stay empty" in out


def test_a_spec_with_empty_cells_draws_regions_up_to_that_many_cells_larger(tmp_path):
    """Three tetrominoes cover 12 cells: the default region sizes are 12, and with max_empty = 1 also 13."""
    spec = tmp_path / "spec.toml"
    body = ('game = "t"\npieces = "tetrominoes"\ncards = 1\n\n[[sides]]\nname = "A"\npieces_per_task = 3\nfaces = 2\n'
            'max_rows = 5\nmax_cols = 5\n')
    spec.write_text(body)
    assert load_spec(spec).sides[0].cells == (12, 12)
    spec.write_text(body + "max_empty = 1\n")
    assert load_spec(spec).sides[0].cells == (12, 13)


def _tilings_leaving_empty(pieces, region, max_empty, mode):
    """Independent count: for every set of at most ``max_empty`` region cells, the tilings of the rest."""
    total = 0
    for n in range(max_empty + 1):
        for empty in combinations(region.cells, n):
            rest = Region(tuple(c for c in region.cells if c not in empty), grid=region.grid)
            if sum(p.size for p in pieces) != rest.area:
                continue
            total += solve(build_instance(pieces, rest, mode=mode), backend="dlx", keep=0, reduce=False).count
    return total


@pytest.mark.parametrize("mode", ["fixed", "one-sided", "free"])
def test_empty_cells_on_triangles_may_be_up_or_down_in_every_mode(mode):
    # A cell left empty is any cell, whatever the orientation mode of the pieces: in fixed mode a
    # triangle monomino would be only up or only down. In the strip ^v^v^v^v, I6 (^v^v^v; its half turn
    # is ^v^v^v again) lies on columns 0-5 or 2-7, leaving a ^v pair empty; its mirror image v^v^v^
    # (free mode only) also on columns 1-6, leaving both ends empty (counted by hand).
    hexiamonds = load_pieces("hexiamonds")
    strip = Region(tuple((0, c) for c in range(8)), grid=hexiamonds["I6"].grid)
    inst = build_instance([hexiamonds["I6"]], strip, mode=mode, max_empty=2)
    by_hand = {"fixed": 2, "one-sided": 2, "free": 3}[mode]
    assert solve(inst, keep=0).count == by_hand == _tilings_leaving_empty([hexiamonds["I6"]], strip, 2, mode)
    assert [(s.pieces, s.count) for s in analyze([hexiamonds["I6"]], strip, 1, mode=mode, max_empty=2).subsets] \
        == [(("I6",), by_hand)]
    # and a 2x4 parallelogram of triangles with two pieces, at most 3 cells empty, every backend kind
    pieces = [hexiamonds[n] for n in ("I6",)] + [Piece("T2", ((0, 0), (0, 1)), strip.grid)]
    box = Region.box(2, 5, grid="triangle")
    expected = _tilings_leaving_empty(pieces, box, 3, mode)
    for backend in ("dlx", "bitboard", "zdd"):
        got = solve(build_instance(pieces, box, mode=mode, max_empty=3), backend=backend, keep=0).count
        assert got == expected, backend


def test_empty_cells_keep_the_symmetries_that_swap_up_and_down_triangles():
    # Triangles "^v" over "v^", an up monomino A and a down monomino B in fixed orientation, two cells left
    # empty: 4 tilings. The half-turn swaps up and down triangles and A with B (fixed mode allows that
    # relabelling); the empty cells take every orientation, so it stays a symmetry: {A(0,0), B(0,1)} and
    # {A(1,1), B(1,0)} are one class, the other two are their own images: 3 up to symmetry (by hand).
    from ubongo_cp.grids import TRIANGLE

    region = Region(((0, 0), (0, 1), (1, 0), (1, 1)), grid=TRIANGLE)
    up, down = Piece("A", ((0, 0),), TRIANGLE), Piece("B", ((0, 1),), TRIANGLE)
    inst = build_instance([up, down], region, mode="fixed", max_empty=2)
    assert len(inst.region_symmetries) == 2
    for backend in ("bitboard-symmetry", "dlx", "zdd", "cpsat"):
        result = solve(inst, backend=backend, keep=None)
        assert (result.count, result.count_reduced) == (4, 3), backend


def test_the_cells_left_empty_are_asked_for_with_max_empty_not_given_as_pieces():
    # An EmptyCell given as a piece took every orientation while a monomino of fixed pieces beside it took one:
    # on the 2-triangle box, [EmptyCell, monomino] and [monomino, EmptyCell] counted 1 and 0 (a symmetry of the
    # region mapped its options nowhere). max_empty asks for the empty cells, and gives the 1 by hand (the
    # monomino on the up triangle, the down triangle empty).
    from ubongo_cp.grids import get_grid
    from ubongo_cp.pieces import EmptyCell

    tri = get_grid("triangle")
    mono, box = Piece("m", ((0, 0),), tri), Region.box(1, 1, grid="triangle")
    for pieces in ([EmptyCell("empty", ((0, 0),), tri), mono], [mono, EmptyCell("empty", ((0, 0),), tri)]):
        with pytest.raises(InputError, match="the cells left empty .* are asked for with max_empty"):
            build_instance(pieces, box, mode="fixed")
    inst = build_instance([mono], box, mode="fixed", max_empty=1)
    assert solve(inst, limit=None).count == 1
    with pytest.raises(InputError, match="asked for with max_empty"):   # an instance's pieces, empty cells among them
        build_instance(inst.pieces, box, mode="fixed")


@pytest.mark.parametrize("backend", ["bitboard", "bitboard-symmetry", "bitboard-mrv", "dlx", "dlx-symmetry", "cpsat",
                                     "sat", "zdd", "auto", None])
def test_pieces_used_counts_pieces_not_the_cells_left_empty(backend):
    # 2x3 with 0 to 3 dominoes and up to 2 cells empty. By hand: 3 tilings by 3 dominoes; 2 disjoint dominoes
    # (2 cells empty) in 11 ways, the 21 pairs of the 7 placements less the 10 that overlap (3 columns, 4 rows'
    # halves); one domino would leave 4 cells empty. The empty cells are no pieces.
    i2 = load_pieces("classic")["I2"]
    inst = build_instance([i2], Region.rectangle(2, 3), ranges={"I2": (0, 3)}, max_empty=2)
    assert solve(inst, backend=backend, keep=0).count == 14
    counts = [solve(inst, backend=backend, keep=None, pieces_used=n).count for n in range(5)]
    assert counts == [0, 0, 11, 3, 0]
