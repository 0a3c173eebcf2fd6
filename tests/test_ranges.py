"""Ranges of piece counts and cells left empty: one search over many multisets.

A range ``lo..hi`` of a piece type is the bounds ``[lo..hi]`` of its item
(Algorithm M); its count must equal enumerating each fixed multiset in the
ranges separately (every piece used, no range) and summing. ``max_empty=N``
is a type of monominoes ``[0..N]``: its count must equal adding 0, 1, ...,
N monomino pieces to the puzzle. The reference counts come from ``dlx`` on
the fixed multisets; every backend that takes ranges must agree, the
others refuse with one line.
"""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from ubongo_cp.cover import EMPTY, build_instance, verify_solution
from ubongo_cp.errors import InputError
from ubongo_cp.geometry import normalize
from ubongo_cp.pieces import Piece, Region, load_pieces
from ubongo_cp.solvers import solve, solver_names

CLASSIC = load_pieces("classic")
TETS = load_pieces("tetrominoes")
MONO = Piece("M", ((0, 0),))

#: The backends that take ranges of piece counts (bounds on a type's item); xcover has no multiplicities.
RANGE_BACKENDS = ["bitboard", "bitboard-symmetry", "dlx", "dlx-symmetry", "cpsat", "sat", "zdd", "zdd-symmetry",
                  "auto"]


def multiset_sum(source, ranges: dict[str, tuple[int, int]], region: Region, mode: str = "free",
                 extra: list[Piece] = ()) -> tuple[int, int]:
    """(count, reduced count) summed over every fixed multiset in the ranges, each solved on its own by dlx."""
    names = list(ranges)
    total = reduced = 0
    for ks in itertools.product(*(range(lo, hi + 1) for lo, hi in ranges.values())):
        pieces = [source[n] for n, k in zip(names, ks) for _ in range(k)] + list(extra)
        if not pieces:
            continue  # nothing to place: only an empty region has that cover, and no test uses one
        r = solve(build_instance(pieces, region, mode=mode), backend="dlx", keep=0)
        total += r.count
        reduced += r.count_reduced
    return total, reduced


def test_ranges_equal_the_sum_over_the_multisets():
    # I2 0..4, L3 0..2, O4 0..2 in 3x4: every multiset of area 12 solved apart and summed.
    ranges = {"I2": (0, 4), "L3": (1, 2), "O4": (0, 2)}
    region = Region.rectangle(3, 4)
    expected, _ = multiset_sum(CLASSIC, ranges, region)
    inst = build_instance(CLASSIC.select(list(ranges)), region, ranges=ranges)
    assert inst.type_bounds == [(0, 4), (1, 2), (0, 2)] and inst.has_ranges
    assert expected > 0
    for backend in RANGE_BACKENDS:
        result = solve(inst, backend=backend, keep=50)
        assert (result.count, result.complete) == (expected, True), backend
        for sol in result.solutions:  # each solution uses its pieces within the ranges
            used = {n: sum(1 for k in sol if k.split("#")[0] == n) for n in ranges}
            assert all(lo <= used[n] <= hi for n, (lo, hi) in ranges.items()), sol
            assert verify_solution(inst.pieces, inst.region, sol, optional_pieces=True) is None


def test_reduced_counts_with_ranges_equal_the_sum_over_the_multisets():
    # The square's eight symmetries map each multiset onto itself, so the reduced counts add too.
    ranges = {"I2": (0, 8), "O4": (0, 4), "T4": (0, 2)}
    region = Region.rectangle(4, 4)
    expected = multiset_sum(CLASSIC, ranges, region)
    inst = build_instance(CLASSIC.select(list(ranges)), region, ranges=ranges)
    for backend in ("bitboard-symmetry", "dlx", "zdd", "auto"):
        result = solve(inst, backend=backend, keep=0)
        assert (result.count, result.count_reduced) == expected, backend


def test_a_range_keeps_the_copies_of_a_fixed_multiset():
    # lo == hi: the same instance as giving the copies (a fixed multiset).
    fixed = build_instance(CLASSIC.select(["L3", "L3", "I2", "I2", "I2"]), Region.rectangle(3, 4))
    ranged = build_instance(CLASSIC.select(["L3", "I2"]), Region.rectangle(3, 4), ranges={"L3": (2, 2), "I2": (3, 3)})
    assert not ranged.has_ranges
    assert solve(ranged, backend="dlx").count == solve(fixed, backend="dlx").count > 0


@st.composite
def ranged_puzzles(draw):
    source = draw(st.sampled_from([CLASSIC, TETS]))
    names = draw(st.lists(st.sampled_from(source.names), min_size=1, max_size=3, unique=True))
    ranges = {}
    for n in names:
        lo = draw(st.integers(0, 2))
        ranges[n] = (lo, lo + draw(st.integers(0, 2)))
    width = draw(st.integers(2, 4))
    size = draw(st.integers(2, 10))
    cells = [(i // width, i % width) for i in range(size)]
    region = Region(normalize(cells))
    mode = draw(st.sampled_from(["free", "one-sided"]))
    return source, ranges, region, mode


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ranged_puzzles())
def test_random_ranges_against_the_multisets(puzzle):
    source, ranges, region, mode = puzzle
    if all(hi == 0 for _, hi in ranges.values()):
        return
    expected, _ = multiset_sum(source, ranges, region, mode)
    inst = build_instance(source.select(list(ranges)), region, ranges=ranges, mode=mode)
    for backend in ("bitboard", "dlx", "zdd", "cpsat"):
        assert solve(inst, backend=backend, keep=0, reduce=False).count == expected, backend


def test_max_empty_equals_adding_monominoes():
    # Up to 3 cells of 3x4 left empty by L3, L4, I2: the same as adding 0..3 monominoes (one type).
    names = ["L3", "L4", "I2"]
    region = Region.rectangle(3, 4)
    expected = 0
    for j in range(4):
        pieces = CLASSIC.select(names) + [MONO] * j
        expected += solve(build_instance(pieces, region), backend="dlx", keep=0).count
    inst = build_instance(CLASSIC.select(names), region, max_empty=3)
    assert inst.type_bounds[-1] == (0, 3) and inst.type_piece(inst.empty_type).name == EMPTY
    assert expected > 0
    for backend in RANGE_BACKENDS:
        result = solve(inst, backend=backend, keep=100)
        assert result.count == expected, backend
        for sol in result.solutions:
            empty = sol.get(EMPTY, [])
            assert len(empty) == 3  # the pieces cover 9 of the 12 cells: 3 left, reported
            covered = {tuple(c) for k, cells in sol.items() if k != EMPTY for c in cells}
            assert covered.isdisjoint(map(tuple, empty)) and len(covered) + len(empty) == region.area


def test_max_empty_with_ranges_equals_the_sum_with_monominoes():
    region = Region.rectangle(4, 4)
    ranges = {"T4": (0, 2), "L4": (1, 3)}
    expected = sum(multiset_sum(CLASSIC, ranges, region, extra=[MONO] * j)[0] for j in range(5))
    inst = build_instance(CLASSIC.select(list(ranges)), region, ranges=ranges, max_empty=4)
    for backend in ("bitboard", "dlx", "zdd", "cpsat"):
        assert solve(inst, backend=backend, keep=0).count == expected, backend


@pytest.mark.parametrize("backend", solver_names())
def test_every_solver_counts_ranges_and_empty_cells_or_refuses_in_one_line(backend):
    ranges = {"I2": (0, 3), "L3": (1, 2)}
    region = Region.rectangle(2, 4)
    expected = sum(multiset_sum(CLASSIC, ranges, region, extra=[MONO] * j)[0] for j in range(3))
    inst = build_instance(CLASSIC.select(list(ranges)), region, ranges=ranges, max_empty=2)
    try:
        result = solve(inst, backend=backend, keep=0)
    except InputError as exc:
        assert backend in ("xcover", "xcover-symmetry") and "\n" not in str(exc)
        return
    assert (result.count, result.complete) == (expected, True)


@pytest.mark.parametrize("backend", solver_names())
@pytest.mark.parametrize("ranges, max_empty, rows", [
    ({"I2": (0, 2)}, 1, ["##", "##"]),
    ({"I2": (0, 4), "L3": (0, 1)}, 0, ["###", "###", "###"]),
    ({"P5": (1, 2), "I3": (2, 2), "O4": (0, 2)}, 1, ["....##", "######", "..####", "..##..", "..##.."])])
def test_a_piece_that_may_be_left_out_is_counted_with_and_without_it(backend, ranges, max_empty, rows):
    # A type of one copy that a solution may leave out (a range 0-1, the cells that may stay empty) was taken by
    # the split solvers as the piece every solution places: their sub-problems, one per placement of it, missed
    # every tiling without it (I2 0-2 with one empty cell in 2x2: "no solution" instead of 2; 10 instead of 12
    # in the last region).
    region = Region(normalize([(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"]))
    expected = sum(multiset_sum(CLASSIC, ranges, region, extra=[MONO] * j)[0] for j in range(max_empty + 1))
    inst = build_instance(CLASSIC.select(list(ranges)), region, ranges=ranges, max_empty=max_empty)
    try:
        result = solve(inst, backend=backend, keep=0)
    except InputError as exc:
        assert backend in ("xcover", "xcover-symmetry") and "\n" not in str(exc)
        return
    assert expected > 0 and (result.count, result.complete) == (expected, True)


def test_backends_without_multiplicities_refuse_ranges_in_one_line():
    inst = build_instance(CLASSIC.select(["I2", "O4"]), Region.rectangle(2, 4), ranges={"I2": (0, 4), "O4": (0, 2)})
    for backend in ("xcover", "xcover-symmetry"):
        with pytest.raises(InputError, match="no multiplicities") as exc:
            solve(inst, backend=backend)
        assert "\n" not in str(exc.value)


@pytest.mark.parametrize("kwargs, message", [
    ({"ranges": {"I2": (3, 2)}}, "range of I2 is 3-2"),
    ({"ranges": {"I2": (-1, 2)}}, "range of I2 is -1-2"),
    ({"ranges": {"X5": (0, 1)}}, "no such piece"),
    ({"max_empty": 9}, "the region has 8 cells"),
    ({"max_empty": 1, "optional_pieces": True}, "optional pieces"),
])
def test_bad_ranges_are_input_errors(kwargs, message):
    with pytest.raises(InputError, match=message):
        build_instance(CLASSIC.select(["I2", "O4"]), Region.rectangle(2, 4), **kwargs)


def test_identical_pieces_under_two_names_take_one_range():
    sq = ((0, 0), (0, 1), (1, 0), (1, 1))
    with pytest.raises(InputError, match="same shape"):
        build_instance([Piece("B1", sq), Piece("B2", sq)], Region.rectangle(2, 4), ranges={"B1": (0, 2)})


# ------------------------------------------------------------------ command line
def test_cli_use_ranges_and_max_empty(run_cli, tmp_path):
    from conftest import write

    region = write(tmp_path / "r.txt", "####\n####\n####\n")
    ranges = {"T4": (0, 2), "L4": (1, 3), "I2": (0, 4)}
    expected, reduced = multiset_sum(CLASSIC, ranges, Region.rectangle(3, 4))
    code, out, _ = run_cli("solve", "--pieces", "classic", "--region", region, "--use", "T4:0-2,L4:1-3,I2:0-4",
                           "--count", "--json")
    assert code == 0 and (json.loads(out)["count"], json.loads(out)["count_reduced"]) == (expected, reduced)
    # up to 3 empty cells: the count of adding 0..3 monominoes; each solution lists its empty cells
    expected = sum(solve(build_instance(CLASSIC.select(["L3", "L4", "I2"]) + [MONO] * j, Region.rectangle(3, 4)),
                         backend="dlx", keep=0).count for j in range(4))
    code, out, _ = run_cli("solve", "--pieces", "classic", "--region", region, "--use", "L3,L4,I2", "--max-empty", 3,
                           "--count", "--json", "--max-solutions", 3)
    data = json.loads(out)
    assert code == 0 and data["count"] == expected and all(len(s[EMPTY]) == 3 for s in data["solutions"])
    code, out, _ = run_cli("solve", "--pieces", "classic", "--region", region, "--use", "L3,L4,I2", "--max-empty", 3)
    assert code == 0 and "." in out.splitlines()[1] and ".=empty cell" in out


@pytest.mark.parametrize("argv, fragment", [
    (["--use", "T4:2-1"], "range 'T4:2-1' has 2 > 1"),
    (["--use", "T4:0-99999999999999999999"], "--use: range 'T4:0-99999999999999999999': count 999999999999... "
                                             "is over 9,999"),
    (["--use", "T4:-1-2"], "--use: range 'T4:-1-2': write NAME:N or NAME:LO-HI, with whole numbers (a count is "
                           "never negative)"),
    (["--use", "T4:1-2-3,I2"], "--use: range 'T4:1-2-3': write NAME:N or NAME:LO-HI, with whole numbers"),
    # two ranges in one entry: once read as a piece 'I2:1-2' ("unknown piece").
    (["--use", "I2:1-2:3"], "--use: range 'I2:1-2:3': write NAME:N or NAME:LO-HI, with whole numbers"),
    (["--use", "I2:3:4,L3"], "--use: range 'I2:3:4': write NAME:N or NAME:LO-HI, with whole numbers"),
    (["--use", "T4:0-1,T4"], "T4 is given a range and listed again"),
    (["--use", "I2", "--max-empty", "13"], "--max-empty 13 is larger than the region (12 cells)"),
    (["--use", "I2", "--max-empty", "-1"], "--max-empty must be at least 0"),
    (["--use", "I2:0-6", "--count", "--backend", "xcover"], "has no multiplicities"),
])
def test_cli_bad_ranges_exit_2_with_one_line(run_cli, tmp_path, argv, fragment):
    from conftest import one_line_error, write

    region = write(tmp_path / "r.txt", "####\n####\n####\n")
    code, _, err = run_cli("solve", "--pieces", "classic", "--region", region, *argv)
    one_line_error(code, err, fragment)


def test_a_range_above_what_the_region_holds_is_the_most_that_fit():
    # A range of 0..10**9 dominoes on 2x4 built a billion copies; the region holds 4, and the count
    # is the 5 domino tilings of 2x4 (Fibonacci F5, by hand). numpy bounds are whole numbers too; a
    # lower bound above what fits leaves no cover.
    import numpy as np

    i2 = CLASSIC.select(["I2"])
    for bound in ((0, 10 ** 9), (np.int64(0), np.int64(4)), (4, 10 ** 12)):
        inst = build_instance(i2, Region.rectangle(2, 4), ranges={"I2": bound})
        assert inst.type_bounds[0][1] == 4
        assert solve(inst, keep=0).count == 5
    assert solve(build_instance(i2, Region.rectangle(2, 4), ranges={"I2": (10 ** 9, 10 ** 9)}), keep=0).count == 0


@pytest.mark.parametrize("bound", [(0,), 3, ("a", 2), (True, 2), (1, 2, 3), (1.5, 2)])
def test_a_range_that_is_not_a_pair_of_whole_numbers_is_an_input_error(bound):
    with pytest.raises(InputError, match="range of I2 is .*pair"):
        build_instance(CLASSIC.select(["I2"]), Region.rectangle(2, 4), ranges={"I2": bound})


def test_a_range_reaches_the_optional_cells_of_a_region():
    # A row of two cells and two optional cells (a BurrTools result "##++"), a domino 1 or 2 times: by hand,
    # the domino on the two cells, or two dominoes on all four (copies not told apart: UP-5); "#+#+" only the
    # two dominoes. The optional cells count towards how many copies fit.
    i2 = CLASSIC.select(["I2"])
    row = Region(((0, 0), (0, 1)), optional=((0, 2), (0, 3)))
    spaced = Region(((0, 0), (0, 2)), optional=((0, 1), (0, 3)))
    for region, expected in ((row, 2), (spaced, 1)):
        inst = build_instance(i2, region, ranges={"I2": (1, 2)})
        assert inst.type_bounds == [(1, 2)]
        for backend in ("dlx", "cpsat", "sat"):   # the backends that take optional cells
            assert solve(inst, backend=backend, keep=0).count == expected, backend


def test_every_piece_ranged_out_is_no_cover_on_every_solver_that_takes_the_instance():
    # U as 0..0 on a region with optional cells (a BurrTools result's variable voxels) leaves no piece and
    # no type item: no cover, as by hand (two required cells, nothing to put on them); the bitboard and
    # decision-diagram solvers refuse optional cells in one line instead of failing on the empty bounds.
    region = Region(((0, 0), (0, 1)), optional=((1, 0),))
    inst = build_instance(load_pieces("pentominoes").select(["U"]), region, ranges={"U": (0, 0)})
    assert inst.n_types == 0 and inst.multiplicity.tolist() == [[1, 1], [1, 1], [0, 1]]
    for backend in RANGE_BACKENDS:
        try:
            result = solve(inst, backend=backend, keep=0)
        except InputError as e:
            assert "optional cells" in str(e) or "bounds [1..1]" in str(e), backend
            continue
        assert (result.count, result.complete) == (0, True), backend
