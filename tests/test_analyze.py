"""Subset analysis against the published reference in shared/examples, with every registered solver."""

from __future__ import annotations

import json

import pytest

from conftest import PUZZLES, SHARED
from ubongo_cp.analyze import analyze, analyze_per_subset, matching_subsets
from ubongo_cp.cover import build_instance, verify_solution
from ubongo_cp.errors import InputError
from ubongo_cp.pieces import Piece, Region, load_pieces, load_region
from ubongo_cp.solvers import solve, solver_names

DUEL = load_pieces("duel")


@pytest.mark.parametrize("backend", solver_names())
def test_duel_board1_matches_published_analysis(backend):
    # 13 triples tile the board, 14 solutions in all (shared/examples/duel_board1_analysis.json).
    ref = json.loads((SHARED / "examples" / "duel_board1_analysis.json").read_text())
    region = load_region(SHARED / "examples" / "duel_board1.txt")
    result = analyze(DUEL.pieces, region, ref["k"], backend=backend, keep_solutions=True)
    assert [{"use": list(s.pieces), "count": s.count} for s in result.subsets] == ref["solvable"]
    assert result.matching_area == ref["subsets_with_matching_area"]
    assert result.total_solutions == ref["total_solutions"] == 14 and len(result.subsets) == 13
    for names, solutions in result.solutions.items():
        pieces = [DUEL[n] for n in names]
        for options in solutions:
            assert verify_solution(pieces, region, result.instance.solution_dict(options)) is None


@pytest.mark.parametrize("backend", ["dlx", "cpsat", "sat"])
def test_k_keeps_only_covers_of_that_size(backend):
    # The 2x4 rectangle and the classic set, by hand: I3 lies along a row, so
    # - I3 + L5: L5's long arm along either row, its foot at either end: 4;
    # - L3 + P5: P5 fills three columns at either end, less the corner cell next to the
    #   free column, at the top or the bottom; L3 fills the rest: 4;
    # - I2 I3 L3: I3 at either end of either row; L3 must cover the cell beside it: 4.
    # No other subset: two 4-cell pieces would have to be O4+O4, I4+I4 or L4+L4 (one each).
    classic = load_pieces("classic")
    region = Region.rectangle(2, 4)
    every = analyze(classic.pieces, region, None, backend=backend)
    assert [(s.pieces, s.count) for s in every.subsets] == \
        [(("I2", "I3", "L3"), 4), (("I3", "L5"), 4), (("L3", "P5"), 4)]
    assert [s.pieces for s in analyze(classic.pieces, region, 2, backend=backend).subsets] == \
        [("I3", "L5"), ("L3", "P5")]
    assert [s.pieces for s in analyze(classic.pieces, region, 3, backend=backend).subsets] == [("I2", "I3", "L3")]


def test_unknown_solver_is_the_registry_message():
    with pytest.raises(InputError, match="unknown backend 'nope'; choose one of cpsat, "):
        analyze(DUEL.pieces, Region.rectangle(3, 5), 3, backend="nope")


def test_one_search_equals_per_subset_solving():
    region = Region.from_ascii("###\n####\n####\n")
    classic = load_pieces("classic")
    fast = analyze(classic.pieces, region, 3)
    slow = analyze_per_subset(classic.pieces, region, 3, backend="dlx")
    assert fast.subsets == slow.subsets and fast.matching_area == slow.matching_area
    assert len(fast.subsets) > 0


def test_matching_subsets_by_brute_force():
    from itertools import combinations
    pieces = DUEL.pieces
    brute = sum(1 for c in combinations(pieces, 5) if sum(p.size for p in c) == 28)
    assert matching_subsets(pieces, 28, 5) == brute == 7425


@pytest.mark.parametrize("copies", [1, 2, 3])
def test_matching_multisets_by_brute_force(copies):
    # every K-multiset of six classic pieces (sizes 2, 3, 3, 4, 4 and 5), each piece 0 to ``copies`` times, listed
    # and its area summed, against the count by piece sizes, for every K and area
    from collections import Counter
    from itertools import product

    pieces = load_pieces("classic").select(["I2", "I3", "L3", "T4", "O4", "Y5"])
    brute: Counter = Counter()
    for uses in product(range(copies + 1), repeat=len(pieces)):
        brute[sum(uses), sum(u * p.size for u, p in zip(uses, pieces))] += 1
    for k in range(0, len(pieces) * copies + 1):
        for area in range(0, 5 * k + 1):
            assert matching_subsets(pieces, area, k, copies) == brute[k, area], (k, area)


@pytest.mark.parametrize("backend", [n for n in solver_names() if not n.startswith("xcover")])
def test_pieces_of_one_shape_under_two_names_are_not_told_apart(backend, tmp_path):
    # A and B are the same straight tromino: a tiling that swaps them is the same tiling (UP-5), as solve counts
    # it. The analysis once counted 2 (and so generated cards recorded twice the batch's count). By hand: the
    # 2 x 3 parallelogram of hexagons holds two straight trominoes one way only; with C (a domino) besides.
    from ubongo_cp.pieces import parse_pieces

    twins = parse_pieces("grid: hex\n\nA\n# # #\n\nB\n# # #\n\nC\n# #\n")
    region = load_region(_write(tmp_path / "r.txt", "grid: hex\n# # #\n # # #\n"))
    from ubongo_cp.cover import build_instance
    from ubongo_cp.solvers import solve

    by_solve = solve(build_instance(twins.select(["A", "B"]), region), backend="dlx", keep=0).count
    found = {s.pieces: s.count for s in analyze(twins.pieces, region, 2, backend=backend).subsets}
    assert by_solve == 1 and found == {("A", "B"): 1}


def test_mirror_images_are_one_piece_when_mirroring_is_allowed():
    # Tetracubes A4 and B4 are mirror images: with mirror images allowed, one shape.
    cubes = load_pieces("tetracubes")
    region = Region.box(2, 2, 4, grid="cube")
    from ubongo_cp.cover import build_instance
    from ubongo_cp.solvers import solve

    found = {s.pieces: s.count for s in analyze(cubes.pieces, region, 4, backend="dlx", mode="mirror").subsets
             if {"A4", "B4"} <= set(s.pieces)}
    assert found
    for names, n in found.items():
        assert n == solve(build_instance(cubes.select(list(names)), region, mode="mirror"), backend="dlx",
                          keep=0).count, names


def _write(path, text):
    path.write_text(text)
    return path


@pytest.mark.parametrize("call, message", [
    (lambda: analyze(load_pieces("classic").pieces, "###", 3), "analyze needs a region"),
    (lambda: analyze("classic", Region.rectangle(3, 4), 3), "analyze needs a sequence of pieces"),
    (lambda: Region.from_ascii(None), "read from its text"),
])
def test_the_wrong_kind_of_argument_is_named(call, message):
    # These were AttributeErrors from inside ('str' object has no attribute 'area').
    with pytest.raises(InputError, match=message):
        call()


def test_copies_beyond_what_the_region_holds_change_nothing():
    # 3x4 holds at most 6 of the smallest piece (I2): 10**9 copies built a billion pieces (MemoryError), and
    # 10**6 took 38 s for the 25 multisets that 6 copies give at once.
    pieces, region = load_pieces("classic").pieces, Region.rectangle(3, 4)
    six = analyze(pieces, region, 3, copies=6)
    many = analyze(pieces, region, 3, copies=10 ** 9)
    assert len(six.subsets) == 25
    assert [(s.pieces, s.count) for s in many.subsets] == [(s.pieces, s.count) for s in six.subsets]
    assert many.matching_area == six.matching_area


def test_only_subsets_using_a_shared_shape_are_divided():
    # UP-5: a horizontal and a vertical domino under two names are one shape. The 2x2 square has 2 domino
    # tilings (two rows, two columns): the subset {D1, D2} counts 2, not the 4 ways of naming them; a
    # subset with no shared shape ({D1, L3} on an L-shaped region's 5 cells) keeps its count.
    pieces = [Piece("D1", ((0, 0), (0, 1))), Piece("D2", ((0, 0), (1, 0))), Piece("L3", ((0, 0), (1, 0), (1, 1)))]
    result = analyze(pieces, Region.rectangle(2, 2), 2)
    assert [(s.pieces, s.count) for s in result.subsets] == [(("D1", "D2"), 2)]
    five = Region(((0, 0), (0, 1), (0, 2), (1, 0), (1, 1)))   # ###/##.: D1 + L3 in 2 ways (hand-checked)
    result = analyze(pieces, five, 2)
    assert sorted((s.pieces, s.count) for s in result.subsets) == [(("D1", "L3"), 2), (("D2", "L3"), 2)]


def test_to_frame_holds_the_subsets_as_rows():
    # One row per subset, in order, with the counts of to_json (the CLI's --json) as int64.
    result = analyze(load_pieces("duel").pieces, load_region(PUZZLES / "examples" / "duel_board1.txt"), 3)
    frame = result.to_frame()
    assert list(frame.columns) == ["pieces", "count"] and str(frame["count"].dtype) == "int64"
    assert [{"pieces": list(p), "count": int(n)} for p, n in zip(frame["pieces"], frame["count"])] == result.to_json()
    assert (len(frame), int(frame["count"].sum())) == (13, 14)   # 13 tiling subsets, 14 tilings (the C++ analyzer's)


def test_copies_of_a_piece_may_fill_the_optional_cells():
    # "#..#" with its two middle cells optional: a domino twice covers all four (by hand: one tiling), as solve
    # counts it, and so does I4 alone. The copies an analysis searches were capped at what the two required
    # cells hold of the domino (one), so the two dominoes were never tried; the optional cells count too.
    classic = load_pieces("classic")
    row = Region(((0, 0), (0, 3)), optional=((0, 1), (0, 2)))
    assert solve(build_instance(classic.select(["I2", "I2"]), row), backend="dlx").count == 1
    for backend in ("dlx", "cpsat", "sat", None):
        found = analyze(classic.select(["I2", "I4"]), row, None, copies=2, backend=backend).subsets
        assert [(s.pieces, s.count) for s in found] == [(("I2", "I2"), 1), (("I4",), 1)], backend
        found = analyze(classic.select(["I2", "I4"]), row, 2, copies=2, backend=backend).subsets
        assert [(s.pieces, s.count) for s in found] == [(("I2", "I2"), 1)], backend


def test_an_analysis_counts_the_tilings_that_use_optional_cells():
    # A region's optional cells may be covered (at most once) or not. A row "##" with an optional third cell,
    # a domino D and a monomino E (by hand): D alone on the two cells (1), or D and E in either order on all
    # three (2). E alone on the optional cell covers no required cell, yet is part of a tiling: the analysis
    # must count it as solve does. An L tetromino and an L tromino round an optional centre: solve's count.
    d, e = Piece("D", ((0, 0), (0, 1))), Piece("E", ((0, 0),))
    row = Region(((0, 0), (0, 1)), optional=((0, 2),))
    for backend in ("dlx", "cpsat", "sat", None):
        assert [(s.pieces, s.count) for s in analyze([d, e], row, None, backend=backend).subsets] == \
            [(("D",), 1), (("D", "E"), 2)]
        assert [(s.pieces, s.count) for s in analyze([d, e], row, 2, backend=backend).subsets] == [(("D", "E"), 2)]
    assert solve(build_instance([d, e], row)).count == 2
    with pytest.raises(InputError, match="a piece fits on the region's optional cells alone"):
        analyze([d, e], row, 2, backend="zdd")
    a, x2, b = (Piece("A", ((0, 0), (0, 1), (1, 0), (2, 0))), Piece("X2", ((0, 0), (0, 1), (1, 0))),
                Piece("B", ((0, 0), (1, 0))))
    ring = Region(((0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)), optional=((1, 1),))
    found = {s.pieces: s.count for s in analyze([a, x2, b], ring, 2, backend="dlx").subsets}
    for names, count in found.items():
        chosen = [p for p in (a, x2, b) if p.name in names]
        assert solve(build_instance(chosen, ring)).count == count
    assert found[("A", "X2")] == solve(build_instance([a, x2], ring)).count == 2
    # Where no piece fits on the optional cells alone, the decision diagram sums over the optional cells used.
    line = Piece("I", ((0, 0), (0, 1), (0, 2)))
    for backend in ("zdd", "dlx"):
        assert [(s.pieces, s.count) for s in analyze([d, line], row, None, backend=backend).subsets] == \
            [(("D",), 1), (("I",), 1)]


def test_subset_names_are_tuples_of_every_size():
    # Each subset's names are a tuple, of one name as of several (they are picked from the positions by one
    # itemgetter from two on). Counted by hand: of the classic pieces only the straight ones (I2, I3, I4) fit a
    # bar one cell wide; I3 alone tiles 1x3 (1 way), I2 and I3 tile 1x5 (in either order: 2 ways), I2, I3
    # and I4 tile 1x9 (3! = 6 orders), and no other subset of any size covers 1x9.
    classic = load_pieces("classic").pieces
    assert [(s.pieces, s.count) for s in analyze(classic, Region.rectangle(1, 3), 1).subsets] == [(("I3",), 1)]
    assert [(s.pieces, s.count) for s in analyze(classic, Region.rectangle(1, 5), 2).subsets] == [(("I2", "I3"), 2)]
    assert [(s.pieces, s.count) for s in analyze(classic, Region.rectangle(1, 9), 3).subsets] == [
        (("I2", "I3", "I4"), 6)]
    assert [type(s.pieces) for s in analyze(classic, Region.rectangle(1, 9), None).subsets] == [tuple]


def test_rows_are_the_subsets_as_pairs_and_the_records_are_made_when_read():
    # The bars counted by hand in the test above: 1x9 by I2, I3 and I4 in 3! = 6 orders. The (pieces, count)
    # rows give the listing without the records; the records, read later, are the same subsets, and the result
    # compares, copies, pickles (its subsets) and takes a new list of subsets as a result made from them does.
    import copy
    import pickle

    from ubongo_cp.analyze import AnalysisResult, SubsetCount
    from ubongo_cp.structs import replace

    classic = load_pieces("classic").pieces
    res = analyze(classic, Region.rectangle(1, 9), 3)
    assert res.rows == [(("I2", "I3", "I4"), 6)]
    assert res.total_solutions == 6 and res.to_json() == [{"pieces": ["I2", "I3", "I4"], "count": 6}]
    assert res.subsets == [SubsetCount(("I2", "I3", "I4"), 6)] and res.subsets is res.subsets
    same = AnalysisResult(res.subsets, res.k, res.matching_area, res.seconds, res.stats, res.solutions, res.instance)
    assert res == same and copy.copy(res) == res and pickle.loads(pickle.dumps(same)).subsets == res.subsets
    assert "subsets=[SubsetCount(pieces=('I2', 'I3', 'I4'), count=6)]" in repr(res)
    fresh = analyze(classic, Region.rectangle(1, 9), 3)
    assert pickle.loads(pickle.dumps(fresh)).subsets == res.subsets   # pickled before its records were made
    res.subsets = [SubsetCount(("I2", "I3"), 1)]
    assert res.rows == [(("I2", "I3"), 1)] and res.total_solutions == 1
    assert replace(res, k=2).subsets == res.subsets and replace(res, k=2).k == 2


def test_named_rows_in_c_and_in_python_agree(monkeypatch):
    # The subsets' names picked from their positions, in the keys' order (set by hand), by the kernel module and
    # by the Python used where it is not built; a position outside the names, a key not counted or a key that is
    # no tuple is refused as the Python refuses it.
    import sys

    from ubongo_cp import analyze as an
    from ubongo_cp.solvers import _bits

    names = ["A", "B", "C", "D"]
    keys = [(0,), (0, 2), (1, 2, 3), ()]
    counts = {(1, 2, 3): 7, (0,): 1, (0, 2): 5, (): 2}
    expected = [(("A",), 1), (("A", "C"), 5), (("B", "C", "D"), 7), ((), 2)]
    assert an._named_rows(keys, counts, names) == expected
    with pytest.raises(IndexError):
        _bits.labelled_rows([(4,)], {(4,): 1}, names)
    with pytest.raises(KeyError):
        _bits.labelled_rows([(3,)], {(2,): 1}, names)
    with pytest.raises(TypeError):
        _bits.labelled_rows([3], {3: 1}, names)
    monkeypatch.setitem(sys.modules, "ubongo_cp.solvers._bits", None)   # as if the kernel were not built
    assert an._named_rows(keys, counts, names) == expected
