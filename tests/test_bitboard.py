"""The bitboard kernel (ubongo_cp.solvers.bitboard) against independent counts and the other kernels.

Published and hand-computed counts on one, two and four 64-bit words (the
recurrences of strip tilings are computed here, independently of any
search); random polyomino instances (copies, optional pieces, one-sided and
fixed orientations, holes) on which the bitboard kernel, the dancing-cells
kernel and xcover agree on counts, reduced counts, solution sets and subset
tallies; random exact-cover matrices around the word boundaries; the
whole symmetry reduction against the plain search; the node measure;
searches below a prefix and the partition of the first level.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from ubongo_cp.cover import build_instance, verify_solution
from ubongo_cp.errors import InputError
from ubongo_cp.exactcover import exact_cover_matrix, parse_exact_cover
from ubongo_cp.geometry import normalize, transform
from ubongo_cp.pieces import Piece, Region, load_pieces
from ubongo_cp.solvers import solve
from ubongo_cp.solvers.bitboard import KERNEL_BUILT, BitboardBackend, BitSearch, _item_order, unfit_reason
from ubongo_cp.solvers.orbits import symmetry_plan

pytestmark = pytest.mark.skipif(not KERNEL_BUILT, reason="the bitboard kernel is not built")

DATA = Path(__file__).resolve().parent / "data"
PENTS = load_pieces("pentominoes")
TETS = load_pieces("tetrominoes")
# the tetrominoes named apart from the pentominoes (I, L, T are in both sets; a name stands for one shape)
TET4 = {p.name: Piece(p.name + "4", p.cells) for p in TETS.pieces}
CLASSIC = load_pieces("classic")
DUEL = load_pieces("duel")


def strip_tilings(n: int, k: int) -> int:
    """Tilings of a k x n strip by 1 x k and k x 1 bars: a(n) = a(n-1) + a(n-k), a(0..k-1) = 1."""
    a = [1] * k
    for _ in range(k, n + 1):
        a.append(a[-1] + a[-k])
    return a[n]


def bars(k: int) -> Piece:
    return Piece(f"I{k}", tuple((0, c) for c in range(k)))


def count(instance, **kw) -> tuple[int, int, int]:
    """(solutions, nodes, fixed) of a plain bitboard search."""
    s = BitSearch(instance, **kw)
    s.start()
    assert s.run()
    return s.solutions, s.nodes, s.fixed


@pytest.mark.parametrize("k, n, words", [(3, 21, 1), (4, 16, 1), (3, 22, 2), (4, 32, 2), (4, 33, 4)])
def test_strip_tilings_on_one_two_and_four_words(k, n, words):
    # 63, 64, 66, 128 and 132 cells: the word boundaries of the masks, the probes and the
    # dead-region test; the count against the recurrence, with and without the test and the
    # reduction by the strip's four symmetries.
    inst = build_instance([bars(k)] * n, Region.rectangle(k, n))
    want = strip_tilings(n, k)
    assert BitSearch(inst).layout.words == words
    for rule in ("first", "mrv"):
        for prune in (True, False):
            assert count(inst, rule=rule, prune=prune)[0] == want
    result = solve(inst, keep=3)
    assert (result.count, result.backend) == (want, "bitboard-symmetry")
    for sol in result.solutions:
        assert verify_solution(inst.pieces, inst.region, sol) is None


def test_256_cells_and_beyond():
    o4 = CLASSIC["O4"]
    inst = build_instance([o4] * 64, Region.rectangle(16, 16))
    assert unfit_reason(inst) is None and BitSearch(inst).layout.words == 4
    assert count(inst)[:2] == (1, 64)
    result = solve(inst)
    assert (result.count, result.count_reduced, result.backend) == (1, 1, "bitboard-symmetry")
    big = build_instance([CLASSIC["I2"]] * 129, Region.rectangle(2, 129))
    assert "258 cell items" in unfit_reason(big)


def test_hand_counted_node_measure():
    # The rating's measure (rule "mrv", no dead-region test): placements made.
    # I4 in 1x4: one placement. Two dominoes in 2x2: two branches of two placements each.
    # L3 + I3 in 2x3: the corner (0, 0) has the fewest placements, 4 (I3 along row 0, three L3);
    # each one leaves three cells the other piece cannot cover: 4 nodes, no solution.
    i4 = CLASSIC["I4"]
    assert count(build_instance([i4], Region.rectangle(1, 4)), rule="mrv", prune=False)[:2] == (1, 1)
    i2 = CLASSIC["I2"]
    assert count(build_instance([i2, i2], Region.rectangle(2, 2)), rule="mrv", prune=False)[:2] == (2, 4)
    lone = build_instance([CLASSIC["L3"], CLASSIC["I3"]], Region.rectangle(2, 3))
    assert count(lone, rule="mrv", prune=False)[:2] == (0, 4)


def test_node_counts_are_deterministic():
    inst = build_instance(CLASSIC.select(["L3", "L3", "T4", "L4", "S4", "O4", "I2"]), Region.rectangle(4, 6))
    for rule, prune, name in (("first", True, "bitboard"), ("mrv", False, "bitboard-mrv")):
        # the memo off: the count up to symmetry tests every solution, which rules the memo out in solve
        first = count(inst, rule=rule, prune=prune, memo=False)
        assert first[0] == 604
        assert all(count(inst, rule=rule, prune=prune, memo=False) == first for _ in range(3))
        again = solve(inst, backend=name, keep=0)
        assert (again.count, again.stats["nodes"]) == first[:2]


def test_published_pentomino_counts_and_their_reduction():
    # RULES.md §1: 8x8 without its central 2x2, 520 tilings (65 up to symmetry). The plan keeps
    # one X per orbit and breaks the reflections left on the board's mirror lines: every
    # solution orbit is searched once (65 solutions found).
    region = Region(tuple((r, c) for r in range(8) for c in range(8) if not (3 <= r <= 4 and 3 <= c <= 4)))
    inst = build_instance(PENTS.pieces, region)
    result = solve(inst, keep=0)
    assert (result.count, result.count_reduced, result.stats["solutions_searched"]) == (520, 65, 65)
    # 5x12: X on the middle row is fixed by a reflection; the reduction still searches 1010 = 4040 / 4.
    inst = build_instance(PENTS.pieces, Region.rectangle(5, 12))
    result = solve(inst, keep=0)
    assert (result.count, result.count_reduced, result.stats["solutions_searched"]) == (4040, 1010, 1010)


def test_the_first_lists_probe_one_cell_past_the_scans_column(monkeypatch):
    # The probes of the "first" lists: one more than the longest column along the scan, 6 to 7, on a region of
    # one word (6 on two). They split each cell's placements into lists, not the tree: the same nodes and
    # solutions with 6 probes as with 7, and the published count (RULES.md section 1).
    import ubongo_cp.solvers.bitboard as bitboard

    six_by_ten = build_instance(PENTS.pieces, Region.rectangle(6, 10))
    five_by_twelve = build_instance(PENTS.pieces, Region.rectangle(5, 12))
    assert BitSearch(six_by_ten).kernel.probes == 7
    assert BitSearch(five_by_twelve).kernel.probes == 6
    assert BitSearch(five_by_twelve, scan=4).kernel.probes == 7   # the scan along the short side: columns of 12
    assert BitSearch(build_instance([CLASSIC["L5"]] * 20, Region.rectangle(10, 10))).kernel.probes == 6
    seven = count(six_by_ten)
    monkeypatch.setattr(bitboard, "_PROBES_MOST", 6)
    assert BitSearch(six_by_ten).kernel.probes == 6
    assert count(six_by_ten) == seven and seven[0] == 9356


def one_sided_pentominoes() -> list[Piece]:
    """The 18 one-sided pentominoes: each free pentomino and, when it differs, its mirror image."""
    out = []
    for p in PENTS.pieces:
        out.append(p)
        mirror = Piece(p.name + "'", transform(p.cells, (1, 0, 0, -1)))
        if min(mirror.orientations("one-sided")) != min(p.orientations("one-sided")):
            out.append(mirror)
    return out


def test_one_sided_pentominoes_in_3x30():
    # 18 one-sided pieces, 90 cells: 46 tilings up to the rectangle's four symmetries, 184 in all
    # (a reflection maps each piece to its mirror image, another piece of the set).
    inst = build_instance(one_sided_pentominoes(), Region.rectangle(3, 30), mode="one-sided")
    got = solve(inst, keep=0)
    assert (got.count, got.count_reduced) == (184, 46)
    assert (count(inst)[0], solve(inst, backend="dlx-symmetry", keep=0).count_reduced) == (184, 46)


@pytest.mark.slow
def test_identical_pieces_published_counts():
    # 20 P pentominoes in 10x10: 378,268 tilings; 32 dominoes in 8x8: 12,988,816 (1,629,189 up to
    # symmetry), on the bitboard kernel's memo with the fixed points (the default too: its tree stays within
    # MEMO_BUDGET), and on the decision diagram.
    p5, i2 = CLASSIC["P5"], CLASSIC["I2"]
    for inst, expected in [(build_instance([p5] * 20, Region.rectangle(10, 10)), (378268, 47454)),
                           (build_instance([i2] * 32, Region.rectangle(8, 8)), (12988816, 1629189))]:
        got = solve(inst, backend="bitboard-symmetry", keep=0)
        assert (got.count, got.count_reduced, got.stats["symmetry"]) == (*expected, "fixed points")
        default = solve(inst, keep=0)
        assert (default.count, default.count_reduced, default.backend) == (*expected, "bitboard-symmetry")
        diagram = solve(inst, backend="auto", keep=0)
        assert (diagram.count, diagram.count_reduced) == expected


# ------------------------------------------------------------- random instances against the other kernels
@st.composite
def polyomino_instances(draw, optional=False):
    """Random pieces (copies allowed) in a random region with holes, any orientation mode."""
    source = draw(st.sampled_from([CLASSIC, TETS, PENTS]))
    names = draw(st.lists(st.sampled_from(source.names), min_size=1, max_size=4 if not optional else 6,
                          unique=optional))
    pieces = source.select(names)
    area = sum(p.size for p in pieces)
    width = draw(st.integers(2, 7))
    extra = draw(st.integers(0, 3))
    box = [(i // width, i % width) for i in range(area + extra + (0 if not optional else draw(st.integers(0, 4))))]
    holes = draw(st.lists(st.sampled_from(box), unique=True, max_size=extra))
    cells = [c for c in box if c not in holes] or box
    mode = draw(st.sampled_from(["free", "free", "one-sided", "fixed"]))
    return build_instance(pieces, Region(normalize(cells)), mode=mode, optional_pieces=optional)


def solution_set(result) -> set:
    return {tuple(sorted(s)) for s in result.option_solutions}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(polyomino_instances())
def test_kernels_agree_on_random_polyominoes(inst):
    reference = solve(inst, backend="xcover", keep=None, reduce=True)  # plain search, every solution
    for name in ("bitboard", "bitboard-mrv", "bitboard-symmetry", "dlx-symmetry"):
        got = solve(inst, backend=name, keep=None)
        assert (got.count, got.count_reduced, got.complete) == (reference.count, reference.count_reduced, True), name
        assert solution_set(got) == solution_set(reference), name
    for rule in ("first", "mrv"):
        assert count(inst, rule=rule, prune=False)[0] == count(inst, rule=rule)[0] == reference.count


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(polyomino_instances(optional=True), st.integers(1, 4))
def test_subset_tallies_agree_with_dancing_cells(inst, k):
    # Optional pieces (secondary items): the tally of covers per set of pieces used, in C, equals
    # the dancing-cells search's, with and without a cardinality.
    for used in (None, k):
        ours = solve(inst, backend="bitboard", keep=0, reduce=False, pieces_used=used, tally=True)
        theirs = solve(inst, backend="dlx", keep=0, reduce=False, pieces_used=used, tally=True)
        assert (ours.count, ours.tally) == (theirs.count, theirs.tally)
        assert sum(ours.tally.values()) == ours.count
        assert all(len(types) == used for types in ours.tally) or used is None


@st.composite
def matrices(draw):
    """Random exact-cover matrices with primary items around a word boundary, some secondary items."""
    n_primary = draw(st.sampled_from([3, 62, 63, 64, 65, 127, 128, 129, 200, 250]))
    n_secondary = draw(st.integers(0, min(6, 256 - n_primary)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    # a hidden exact cover, so that some solutions exist, plus random options
    items = list(range(n_primary))
    rng.shuffle(items)
    spare = list(range(n_primary, n_primary + n_secondary))  # each secondary item in at most one of them
    options = []
    while items:
        size = rng.randint(1, 4)
        options.append(items[:size] + ([spare.pop()] if spare and rng.random() < 0.5 else []))
        items = items[size:]
    for _ in range(rng.randint(0, n_primary // 2)):
        o = rng.sample(range(n_primary), rng.randint(1, 3))
        if n_secondary and rng.random() < 0.3:
            o.append(rng.randrange(n_primary, n_primary + n_secondary))
        options.append(o)
    names = [f"i{j}" for j in range(n_primary + n_secondary)]
    return exact_cover_matrix(names[:n_primary], names[n_primary:], [[names[j] for j in o] for o in options])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(matrices())
def test_kernels_agree_on_exact_cover_matrices(matrix):
    ours = solve(matrix, backend="bitboard", keep=None, reduce=False)
    theirs = solve(matrix, backend="dlx", keep=None, reduce=False)
    assert ours.count == theirs.count >= 1
    assert solution_set(ours) == solution_set(theirs)


def test_knuths_example_and_a_secondary_item():
    m = parse_exact_cover("a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n")
    got = solve(m, backend="bitboard", keep=None)
    assert (got.count, got.option_solutions) == (1, [[0, 3, 4]])
    m = parse_exact_cover("a b | s\na s\nb s\na\nb\n")  # s at most once: {a, b} with s on one side only
    assert solve(m, backend="bitboard", keep=0).count == solve(m, backend="dlx", keep=0).count == 3


# ------------------------------------------------------------- the whole reduction against the plain search
@st.composite
def symmetric_instances(draw):
    """Random piece multisets (copies, one-sided and fixed modes) in symmetric regions."""
    kind = draw(st.sampled_from(["rectangle", "square", "plus"]))
    if kind == "rectangle":
        h, w = draw(st.integers(2, 5)), draw(st.integers(3, 7))
        region = Region.rectangle(h, w)
    elif kind == "square":
        n = draw(st.integers(3, 6))
        region = Region(tuple((r, c) for r in range(n) for c in range(n)
                              if not (draw(st.booleans()) and (r, c) in ((0, 0), (0, n - 1), (n - 1, 0), (n - 1, n - 1)))))
    else:
        n = draw(st.integers(2, 3))
        region = Region(normalize([(r, c) for r in range(3 * n) for c in range(3 * n)
                                   if n <= r < 2 * n or n <= c < 2 * n]))
    source = draw(st.sampled_from([CLASSIC, TETS, PENTS]))
    pieces, area = [], 0
    while area < region.area:
        fits = [p for p in (*source.pieces, CLASSIC["I2"]) if p.size <= region.area - area]
        if not fits:
            break
        pieces.append(draw(st.sampled_from(fits)))
        area += pieces[-1].size
    mode = draw(st.sampled_from(["free", "free", "one-sided", "fixed"]))
    return build_instance(pieces, region, mode=mode)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(symmetric_instances())
def test_the_reduction_counts_what_the_plain_search_counts(inst):
    plain = solve(inst, backend="bitboard", keep=0)
    reduced = solve(inst, backend="bitboard-symmetry", keep=0)
    assert (reduced.count, reduced.count_reduced) == (plain.count, plain.count_reduced)
    if 0 < plain.count <= 2000:  # with a plan that can list them, the solutions stood for are exactly the solutions
        listed = solve(inst, backend="bitboard-symmetry", keep=None)
        assert solution_set(listed) == solution_set(solve(inst, backend="bitboard", keep=None))
    plan = symmetry_plan(inst)
    if plan is not None and inst.precheck() is None:
        assert plan.group_order == len(inst.region_symmetries)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(symmetric_instances(), st.sampled_from([1, 2, 3, 7, 20_000]))
def test_a_plan_cut_short_counts_what_the_plain_search_counts(inst, max_branches):
    # A plan stopped after a few branches searches the rest with their residual symmetry (each solution
    # tested against it): the count and the Burnside sum are still the plain search's.
    from ubongo_cp.solvers.bitboard import BitboardBackend

    plan = symmetry_plan(inst, enumerable=False, max_branches=max_branches)
    plain = BitboardBackend().search(inst)
    if plan is None:
        return
    run = BitboardBackend().search(inst, plan.branches)
    assert (run.count, run.fixed) == (plain.count, plain.fixed)


def test_a_plan_along_a_mirror_line_stops_at_a_few_branches():
    # 52 T tetrominoes in the 16x13 band: no tiling (Walkup: a rectangle tiled by T tetrominoes has both
    # sides multiples of 4). Every type has copies, so cell levels follow the band's middle column, a
    # branch per symmetric placement on it: uncut, 892 branches searched in 121,096 nodes, where the
    # plain search needs 3,271.
    from ubongo_cp.pieces import load_pieces

    t = load_pieces("tetrominoes")["T"]
    inst = build_instance([t] * 52, Region.rectangle(16, 13))
    assert len(symmetry_plan(inst, max_branches=20_000).branches) == 892
    plan = symmetry_plan(inst)
    got = BitboardBackend().search(inst, plan.branches)
    assert (got.count, got.fixed) == (0, 0)
    assert len(plan.branches) <= 64 and got.stats["nodes"] < 30_000
    # the default count estimates the plain search as small, and makes no plan at all
    got = solve(inst, keep=0)
    assert (got.count, got.count_reduced, got.stats["symmetry"]) == (0, 0, "not needed for a small search")
    assert got.stats["nodes"] == BitboardBackend().search(inst).stats["nodes"] == 3271


@pytest.mark.parametrize("rows, cols, planned", [(3, 20, False), (4, 15, True), (5, 12, True)])
def test_a_count_makes_the_symmetry_plan_where_the_search_is_large(rows, cols, planned):
    # The 3x20 rectangle's whole search is estimated at about 11,000 nodes (46,550 counted): no plan, every
    # tiling tested against the 3 symmetries in C; 4x15 and 5x12 are estimated in millions, planned. Either
    # way the published counts (Knuth, Dancing Links, 2000): 2, 368 and 1,010 up to symmetry.
    inst = build_instance(PENTS.pieces, Region.rectangle(rows, cols))
    got = solve(inst, keep=0)
    assert got.backend == "bitboard-symmetry"
    assert (got.count, got.count_reduced) == {3: (8, 2), 4: (1472, 368), 5: (4040, 1010)}[rows]
    assert (got.stats["symmetry"] == "orbits") is planned
    assert ("branches" in got.stats) is planned
    if not planned:  # one piece restricted inside the whole search: fewer nodes than the plain search
        assert got.stats["symmetry"] == "one piece restricted"
        assert got.stats["nodes"] < BitboardBackend().search(inst).stats["nodes"]
    # named, the solver searches what its name says: the decomposition
    named = solve(inst, backend="bitboard-symmetry", keep=0)
    assert (named.count, named.count_reduced, named.stats["symmetry"]) == (got.count, got.count_reduced, "orbits")


def test_a_small_count_restricts_a_piece_none_of_whose_placements_a_symmetry_fixes():
    # 3x20 (symmetries: the two reflections and the half turn): V's own symmetry is a diagonal reflection, none of
    # the rectangle's, so each of its placements has an orbit of 4, one representative each; T (a reflection along
    # its stem) has placements on the middle row fixed by the reflection that swaps the long sides
    from ubongo_cp.solvers.branch import free_restriction

    inst = build_instance(PENTS.pieces, Region.rectangle(3, 20))
    names = [p.name for p in PENTS.pieces]
    branch = free_restriction(inst)
    t, reps = branch.restrict
    assert names[t] == "V" and len(reps) * 4 == len(inst.type_options[t])
    assert all(q in reps or any(inst.option_perm_lists[g][q] in reps for g in range(3))
               for q in inst.type_options[t])
    got = BitboardBackend().search(inst, [branch])
    assert (got.count, got.fixed) == (8, 8)  # 2 tilings up to symmetry (Knuth, Dancing Links, 2000), none symmetric
    # every piece type with copies: nothing to restrict
    assert free_restriction(build_instance([PENTS.pieces[0]] * 12, Region.rectangle(3, 20))) is None


def test_a_count_of_copies_tells_a_small_search_by_the_gates_stratified_estimate(monkeypatch):
    # 20 P pentominoes in 5x20: every type has copies, so the default count's diagram gate estimates the
    # plain search (Knuth's stratified estimate). 32 plain probes, the test of every other count, put that
    # search at a few thousand nodes: it would have been made whole (540,887 nodes searched, each solution
    # tested) where the memo spares most of them. The gate's estimate decides instead, made once for both.
    from ubongo_cp.solvers import base, bitboard
    from ubongo_cp.solvers.estimate import _plan_branches

    inst = build_instance([PENTS["P"]] * 20, Region.rectangle(5, 20))
    n_sym = len(inst.option_perm_lists)
    assert BitboardBackend().quick_estimate(inst, n_sym, base._SMALL_PROBES) < base._SMALL_NODES
    made = []
    stratified = bitboard.stratified_nodes
    monkeypatch.setattr(bitboard, "stratified_nodes", lambda *a, **k: made.append(1) or stratified(*a, **k))
    got = solve(inst, keep=0)
    assert len(made) == 1 and BitboardBackend().estimate(inst) >= base._SMALL_NODES and len(made) == 1
    # counted with the memo, the count up to symmetry from the fixed points of the 3 symmetries
    assert got.stats["symmetry"] == "fixed points" and got.stats["nodes"] < 540_887
    # the count up to symmetry as the whole search tests every solution against the 3 symmetries (59,646
    # tilings: Knuth's DLX3 and SSMCC count as many, benchmarks/bench_copies.py)
    whole = solve(inst, backend="bitboard", keep=0)
    assert whole.stats["nodes"] == 540_887
    assert (got.count, got.count_reduced) == (whole.count, whole.count_reduced) == (59_646, 15_051)
    # and the search estimate follows the count: the plan's branches, not the whole tree
    assert len(_plan_branches(inst)) > 1


def test_the_memo_keeps_the_larger_subtrees():
    # The memo's buckets hold two entries, the first the larger subtree (memo_put): a subtree met often near the
    # leaves no longer pushes out one that spares a larger search. 20 L pentominoes in 10x10 (3,952 tilings, the
    # fixed points' test) and 20 P (378,268, OEIS-published in test_identical_pieces_published_counts), counted
    # with the memo: 287,465 and 433,868 nodes with one entry per slot; the tree without the memo 1,850,998.
    for piece, count, nodes in [("L5", 3952, 192494), ("P5", 378268, 230355)]:
        inst = build_instance([CLASSIC[piece]] * 20, Region.rectangle(10, 10))
        got = solve(inst, backend="bitboard-symmetry", keep=0)
        assert (got.count, got.stats["symmetry"], got.stats["nodes"]) == (count, "fixed points", nodes)
    plain = BitboardBackend(memo=False).search(build_instance([CLASSIC["L5"]] * 20, Region.rectangle(10, 10)))
    assert (plain.count, plain.stats["nodes"]) == (3952, 1850998)


def test_searches_on_clones_of_the_kept_kernel_are_those_of_a_new_kernel():
    # The kernel of an instance is built once; each search runs on a clone with a memo of its own (or
    # none): with and without the memo in turn, each search has the nodes a new kernel had (5x12:
    # 4,040 tilings; the node counts of the code that built a kernel per search).
    inst = build_instance(PENTS.pieces, Region.rectangle(5, 12))
    branches = symmetry_plan(inst).branches
    for memo, nodes in [(False, 647126), (True, 398233), (False, 647126), (True, 398233)]:
        run = BitboardBackend(memo=memo).search(inst, branches)
        assert (run.count, run.fixed, run.stats["nodes"]) == (4040, 4040, nodes)
    mrv = BitboardBackend(rule="mrv", prune=False).search(inst, branches)
    assert (mrv.count, mrv.stats["nodes"]) == (4040, 645912)


@pytest.mark.parametrize("leaves", [None, 2, 50])
def test_a_symmetry_may_swap_the_restricted_piece_with_its_copy_in_the_prefix(leaves):
    # Two I and two O tetrominoes tile the 4x4 square in 6 ways (hand-counted: the two I side by side
    # along one edge, 4 ways, or along opposite edges, 2 ways), 2 up to its 8 symmetries. The plan
    # places one O, then restricts the other to representatives: a whole orbit does not mean a trivial
    # stabiliser here, as a reflection may swap the two O (the bitboard kernel counted 1 class).
    from ubongo_cp.solvers.subtrees import SplitSearch

    I4, O4 = Piece("I", ((0, 0), (1, 0), (2, 0), (3, 0))), Piece("O", ((0, 0), (0, 1), (1, 0), (1, 1)))
    inst = build_instance([I4, I4, O4, O4], Region.rectangle(4, 4))
    assert any(b.restrict is not None for b in symmetry_plan(inst).branches)
    for backend in ("bitboard", "bitboard-symmetry", "dlx-symmetry"):
        got = solve(inst, backend=backend, keep=0, split=None if leaves is None else SplitSearch(leaves=leaves))
        assert (got.count, got.count_reduced) == (6, 2), backend


def memo_counts(inst, memo) -> tuple:
    """(count, fixed, solutions searched) over the whole symmetry plan (or the plain search), the memo at
    ``memo`` = (first level, last level, log2 of the table size) or off."""
    from ubongo_cp.solvers.bitboard import BitboardBackend

    plan = symmetry_plan(inst)
    s = BitSearch(inst, memo=False)
    if memo:
        s.kernel.set_memo(*memo)
    run = BitboardBackend(memo=False).search(inst, None if plan is None else plan.branches, kernel=s)
    return run.count, run.fixed, run.stats["solutions_seen"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(symmetric_instances(), polyomino_instances(), polyomino_instances(optional=True)),
       st.integers(0, 6), st.integers(1, 5))
def test_the_memo_counts_what_the_plain_search_counts(inst, last, bits):
    # The memo at every level up to ``last``, in a table of 2..32 entries (collisions overwrite): the
    # count, the Burnside sum (restricted pieces, stabilisers) and the solutions searched are the plain
    # search's, on random regions and piece multisets (copies: no memo), with optional pieces too.
    plain = memo_counts(inst, None)
    assert memo_counts(inst, (0, last, bits)) == plain
    assert memo_counts(inst, (1, 99, bits + 3)) == plain


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(symmetric_instances(), polyomino_instances(), polyomino_instances(optional=True)),
       st.integers(0, 4))
def test_the_recursive_subtrees_search_as_the_machine(inst, level):
    # fast1 from a level on: the same count, Burnside sum, solutions searched and nodes as the
    # resumable search alone (and with the dead-region test off, and with a small memo).
    from ubongo_cp.solvers.bitboard import BitboardBackend

    plan = symmetry_plan(inst)
    for prune, memo in ((True, False), (False, False), (True, True)):
        got = []
        for fast in (-1, level):
            s = BitSearch(inst, prune=prune, memo=False)
            if memo:
                s.kernel.set_memo(0, 99, 4)
            s.kernel.set_fast(fast)
            run = BitboardBackend(prune=prune, memo=False).search(inst, None if plan is None else plan.branches,
                                                                   kernel=s)
            got.append((run.count, run.fixed, run.stats["solutions_seen"], run.stats["nodes"]))
        assert got[0] == got[1]


def subtree_runs(inst, fast: int, prune: bool, memo: bool) -> tuple:
    """(count, Burnside sum, solutions searched, nodes) of the plan's search with fast1 from level ``fast`` on."""
    plan = symmetry_plan(inst)
    s = BitSearch(inst, prune=prune, memo=False)
    if memo:
        s.kernel.set_memo(0, 99, 4)
    s.kernel.set_fast(fast)
    run = BitboardBackend(prune=prune, memo=False).search(inst, None if plan is None else plan.branches, kernel=s)
    return run.count, run.fixed, run.stats["solutions_seen"], run.stats["nodes"]


@pytest.mark.parametrize("pieces, region, mode, want", [
    (one_sided_pentominoes(), Region.rectangle(3, 30), "one-sided", 184),  # the 18 one-sided pentominoes
    ([*PENTS.pieces, CLASSIC["I2"], TET4["I"]], Region.rectangle(3, 22), "free", None),
    ([*PENTS.pieces, CLASSIC["L3"], TET4["T"]],
     Region(tuple((r, c) for r in range(3) for c in range(23) if (r, c) not in ((0, 0), (2, 11)))), "free", None),
])
def test_two_word_subtrees_search_as_the_machine(pieces, region, mode, want):
    # Regions of 65 to 128 cells: fast1 on two words (the board as one 128-bit integer) searches the same
    # tree as the resumable search (count, Burnside sum, solutions searched, nodes), with and without the
    # dead-region test and the memo; the count is the published one, or the dancing-cells kernel's.
    inst = build_instance(pieces, region, mode=mode)
    assert BitSearch(inst).layout.words == 2
    _same_tree_as_machine(inst, (0, 3), ((True, False), (False, False), (True, True)), want)


def _same_tree_as_machine(inst, fasts, settings, want):
    """Each fast path of ``fasts`` gives the resumable search's (count, Burnside sum, solutions, nodes) for
    every (prune, memo) of ``settings``; the count is ``want``, or the dancing-cells kernel's, and not 0."""
    for prune, memo in settings:
        machine = subtree_runs(inst, -1, prune, memo)
        for fast in fasts:
            assert subtree_runs(inst, fast, prune, memo) == machine
    count = machine[0]
    assert count == (want if want is not None else solve(inst, backend="dlx", keep=0).count)
    assert count > 0


@pytest.mark.parametrize("pieces, region, want", [
    (list(PENTS.pieces), Region.rectangle(5, 12), 4040),
    (list(PENTS.pieces), Region.rectangle(3, 20), 8),
    ([p for p in PENTS.pieces if p.name in "FILNPTUV"] + [CLASSIC["I2"], CLASSIC["L3"]], Region.rectangle(5, 9), None),
])
def test_one_word_subtrees_search_as_the_machine(pieces, region, want):
    # One word, distinct pieces: fast1 (its two-pass filter, and the last two pieces answered from the hash
    # table of the placements, restricted pieces among them or not) searches the same tree as the resumable
    # search (count, Burnside sum, solutions searched, nodes), with and without the memo; the count is the
    # published one, or the dancing-cells kernel's.
    inst = build_instance(pieces, region, mode="free")
    assert BitSearch(inst).layout.words == 1
    _same_tree_as_machine(inst, (0, 4), ((True, False), (True, True)), want)


def _pent(name: str) -> Piece:
    return next(p for p in PENTS.pieces if p.name == name)


@pytest.mark.parametrize("pieces, cells, nodes", [
    ((_pent("P"), TET4["L"], CLASSIC["L3"]), 13, 51),  # 12 cells of pieces on 13
    ((_pent("L"), _pent("P"), TET4["T"], CLASSIC["I2"]), 17, 115),  # 16 on 17
    ((_pent("L"), _pent("P"), TET4["T"], CLASSIC["I2"]), 18, 132),  # 16 on 18
])
def test_pieces_short_of_the_region_search_as_the_machine(pieces, cells, nodes):
    # Pieces covering fewer cells than the region (a search the solver does not start: no cover): with two
    # pieces left, the last can fit at the first empty cell without being the rest of the region, a node
    # the fast path counts as the resumable search does (the hash table of the last two pieces is not used).
    inst = build_instance(list(pieces), Region(tuple((i // 3, i % 3) for i in range(cells))))
    assert sum(p.size for p in pieces) < cells
    machine = subtree_runs(inst, -1, True, False)
    assert machine[:3] == (0, 0, 0) and machine[3] > 0
    for fast in (0, 1):
        assert subtree_runs(inst, fast, True, False) == machine
    for fast in (-1, 0, 1):  # the plain search, without the symmetry plan
        s = BitSearch(inst)
        s.kernel.set_fast(fast)
        s.start()
        assert s.run() and (s.solutions, s.nodes) == (0, nodes)



@pytest.mark.parametrize("lo, hi", [(11, 11), (11, 99), (10, 10), (0, 9)])
def test_a_memo_below_the_last_two_pieces_as_the_machine(lo, hi):
    # 3x20, the 12 pentominoes (8 tilings): a memo whose levels start where one piece is left (11) is used
    # by the fast path as by the resumable search (same nodes and memo answers), the last two pieces'
    # shortcut left out there.
    inst = build_instance(PENTS.pieces, Region.rectangle(3, 20))
    got = []
    for fast in (-1, 0, 6):
        s = BitSearch(inst, memo=False)
        s.kernel.set_memo(lo, hi, 4)
        s.kernel.set_fast(fast)
        s.start()
        assert s.run()
        got.append((s.solutions, s.nodes, s.kernel.memo_hits))
    assert got[0][0] == 8 and got[1] == got[2] == got[0]



@st.composite
def cut_regions(draw):
    """A region of 8 to 30 cells (a strip, a box with holes) cut into connected pieces of 2 to 6 cells by
    random growth from the first free cell (one solution at least; a shape may come twice, under two
    names), any orientation mode; sometimes a piece fewer (cells no piece covers)."""
    n = draw(st.integers(8, 30))
    w = draw(st.integers(1, 6))
    box = [(i // w, i % w) for i in range(n + draw(st.integers(0, 4)))]
    cells = set(draw(st.permutations(box))[:n])
    left, shapes = set(cells), []
    while left:
        piece = {min(left)}
        left -= piece
        for _ in range(draw(st.integers(1, 5))):
            front = sorted({(r + dr, c + dc) for r, c in piece for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))} & left)
            if not front:
                break
            piece.add(draw(st.sampled_from(front)))
            left -= piece
        shapes.append(tuple(normalize(sorted(piece))))
    if len(shapes) > 3 and draw(st.booleans()):  # a piece fewer: cells no piece covers
        shapes.pop(draw(st.integers(0, len(shapes) - 1)))
    pieces = [Piece(f"Q{i}", shape) for i, shape in enumerate(shapes)]
    return build_instance(pieces, Region(normalize(sorted(cells))), mode=draw(st.sampled_from(["free", "one-sided", "fixed"])))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(cut_regions(), st.integers(0, 3))
def test_one_word_recursion_on_cut_regions(inst, back):
    # One word, distinct pieces (a single cell among them turns the grid test off): fast1 from the root, and
    # from the level with two, three or more pieces left, searches the same tree as the resumable search
    # (count, Burnside sum, solutions searched, nodes), with and without the dead-region test; the count is
    # the dancing-cells kernel's.
    n = len(inst.pieces)
    assert BitSearch(inst).layout.words == 1
    for prune in (True, False):
        machine = subtree_runs(inst, -1, prune, False)
        assert subtree_runs(inst, 0, prune, False) == machine
        assert subtree_runs(inst, max(0, n - 2 - back), prune, False) == machine
    assert machine[0] == solve(inst, backend="dlx", keep=0).count


@st.composite
def two_word_instances(draw):
    """Distinct pieces (one copy of each: the recursion's case) on a strip of 65 to 90 cells, two wide, with
    holes, any orientation mode."""
    pool = [*PENTS.pieces, *TET4.values(), CLASSIC["I2"], CLASSIC["I3"], CLASSIC["L3"]]
    order = draw(st.permutations(range(len(pool))))
    pieces: list = []
    for i in order:
        if sum(p.size for p in pieces) >= 65:
            break
        pieces.append(pool[i])
    area = sum(p.size for p in pieces)
    extra = draw(st.integers(0, 3))
    box = [(i // 2, i % 2) for i in range(area + extra)]
    holes = draw(st.lists(st.sampled_from(box), unique=True, min_size=extra, max_size=extra))
    mode = draw(st.sampled_from(["free", "one-sided", "fixed"]))
    return build_instance(pieces, Region(normalize([c for c in box if c not in holes])), mode=mode)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(two_word_instances(), st.integers(0, 6))
def test_two_word_recursion_on_random_strips(inst, level):
    assert BitSearch(inst).layout.words == 2
    machine = subtree_runs(inst, -1, True, False)
    assert subtree_runs(inst, level, True, False) == machine
    assert machine[0] == solve(inst, backend="dlx", keep=0).count


def test_the_memo_on_the_pentomino_rectangles():
    # 5x12: the plan restricts a second piece inside the search (X on the middle row), and the memo
    # answers only below a representative with a whole orbit; 8x8 minus its centre: a cell plan.
    for region, want in ((Region.rectangle(5, 12), (4040, 4040, 1010)), (Region.rectangle(4, 15), (1472, 1472, 368)),
                         (Region(tuple((r, c) for r in range(8) for c in range(8)
                                       if not (3 <= r <= 4 and 3 <= c <= 4))), (520, 520, 65))):
        inst = build_instance(PENTS.pieces, region)
        for memo in ((0, 7, 14), (0, 11, 4), (0, 11, 18)):
            assert memo_counts(inst, memo) == want
    inst = build_instance(PENTS.pieces, Region.rectangle(4, 15))
    s, plain = BitSearch(inst), BitSearch(inst, memo=False)
    for k in (s, plain):
        k.start()
        assert k.run()
    assert s.solutions == plain.solutions == 1472 and s.kernel.memo_hits > 0 and s.nodes < plain.nodes
    # solutions asked for: no memo (every solution is visited); asked for after it answered: refused
    s.start()
    assert len([x for x in s.iterate() if x is not None]) == 1472 and s.kernel.memo_hits == 0
    s.start()
    s.run(heartbeat=20_000)  # stops and resumes
    assert s.solutions == 1472
    s.start()
    s.kernel.step(5000, 0, *s._rows.buffers(0))
    with pytest.raises(ValueError, match="memo"):
        s.kernel.step(10 ** 9, 1, *s._rows.buffers(1))


def test_copies_plan_counts_each_solution_exactly():
    # Two sets of five tetrominoes in 8x5 (every type has two copies): 3,106 tilings, 783 up to
    # symmetry, with a cell or a copies level; a copies level weighs a solution 1/2 per copy found.
    names = "I4,I4,O4,O4,T4,T4,S4,S4,L4,L4".split(",")
    inst = build_instance(CLASSIC.select(names), Region.rectangle(8, 5))
    plan = symmetry_plan(inst)
    assert plan is not None and plan.levels["piece"] + plan.levels["cell"] + plan.levels["copies"] >= 1
    got = solve(inst, keep=0)
    assert (got.count, got.count_reduced) == (3106, 783)
    from ubongo_cp.solvers.bitboard import BitboardBackend

    run = BitboardBackend().search(inst, symmetry_plan(inst, enumerable=False).branches)
    assert (run.count, run.fixed / 4) == (3106, 783)


# ------------------------------------------------------------- prefixes and the first level
def test_children_partition_the_search():
    # The options placed right below a prefix partition its solutions: searching below each child
    # finds every solution once. The cell is an instance item; a solution prefix has none.
    inst = build_instance(PENTS.pieces, Region.rectangle(3, 20))
    s = BitSearch(inst)
    s.start()
    cell, kids = s.children()
    assert 0 <= cell < inst.n_cells and kids
    total = 0
    for o in kids:
        assert s.start([o])
        s.run()
        total += s.solutions
    assert total == 8
    first = solve(inst, backend="bitboard", keep=1).option_solutions[0]
    s.start(first)
    assert s.children() == (-1, []) and s.run() and s.solutions == 1
    assert not s.start([kids[0], kids[0]])  # an option twice overlaps itself: nothing below


def test_a_clone_searches_on_its_own_and_outlives_its_parent():
    # 4x15: 1,472 tilings (368 up to symmetry; Golomb, Polyominoes, 1994). A clone shares the tables,
    # not the state: a search of the parent paused halfway does not move the clone's, and the clone
    # (and a clone of the clone) still counts after the parent is gone.
    import gc

    inst = build_instance(PENTS.pieces, Region.rectangle(4, 15))
    parent = BitSearch(inst)
    parent.start(limit=5)
    assert not parent.run()
    twin = parent.clone()
    twin.start()
    assert twin.run() and twin.solutions == 1472
    assert parent.solutions == 5
    first = solve(inst, backend="bitboard", keep=1).option_solutions[0]
    del parent
    gc.collect()
    grandchild = twin.clone()
    del twin
    gc.collect()
    grandchild.start(first[:2])
    below = grandchild.solutions
    assert grandchild.run() and grandchild.solutions >= 1 > below
    grandchild.start()
    assert grandchild.run() and grandchild.solutions == 1472


def test_a_limit_and_a_stop_resume():
    inst = build_instance(PENTS.pieces, Region.rectangle(4, 15))
    s = BitSearch(inst)
    s.start(limit=5)
    found: list = []
    assert not s.run(keep=5, sink=found)
    assert s.solutions == 5 and len(found) == 5
    s.start()
    seen = [sol for sol in s.iterate(heartbeat=1000) if sol is not None]
    assert len(seen) == 1472 == len({tuple(x) for x in seen})


def test_bad_input_is_refused():
    inst = build_instance(PENTS.pieces, Region.rectangle(3, 20))
    with pytest.raises(InputError, match="unknown bitboard rule"):
        BitSearch(inst, rule="last")


@pytest.mark.parametrize("region, want", [
    (Region.rectangle(4, 15), 1472),  # cells two shifts apart (1 and 4): the fast walled-in test by shifts
    (Region(tuple((r, c) for r in range(8) for c in range(8) if not (3 <= r <= 4 and 3 <= c <= 4))), 520),  # three
    (Region(tuple((r, c) for r in range(6) for c in range(11) if (r, c) not in ((0, 0), (5, 10), (2, 5), (3, 5),
                                                                                 (1, 9), (4, 1)))), None),
])
def test_the_grid_shifts_search_as_the_neighbour_masks(region, want):
    # The kernel finds the neighbours of a set of cells by shifts when the cells lie on a grid (two to four
    # shifts: the flood of the dead-region test, and fast1's walled-in test): the same count and nodes as the
    # resumable search alone (neighbour masks), and the same count as no dead-region test.
    inst = build_instance(PENTS.pieces, region)
    got = []
    for fast in (-1, 0, 4):
        s = BitSearch(inst, memo=False)
        s.kernel.set_fast(fast)
        s.start()
        assert s.run()
        got.append((s.solutions, s.nodes))
    assert got[0] == got[1] == got[2]
    plain = count(inst, prune=False, memo=False)
    assert plain[0] == got[0][0] and (want is None or plain[0] == want)


@pytest.mark.parametrize("pieces, region", [
    ([*PENTS.select(["X", "P", "U"]), Piece("m", ((0, 0),)), CLASSIC["I2"]], Region.rectangle(3, 6)),
    ([*PENTS.select(["L", "Y", "N", "V"]), CLASSIC["I2"], CLASSIC["L3"]], Region.rectangle(5, 5)),
    ([*PENTS.select(["F", "L", "N", "P", "Y", "T", "U", "V"]), TET4["O"]], Region.rectangle(4, 11)),
])
def test_walled_in_cells_with_pieces_of_several_sizes(pieces, region):
    # A walled-in cell is dead whatever is left when no piece is a monomino (the recursion then tests it by
    # shifts, as for pieces of one size), and is not with a monomino left: the same count and nodes as the
    # resumable search, and the dancing-cells kernel's count.
    inst = build_instance(pieces, region)
    machine = subtree_runs(inst, -1, True, False)
    for fast in (0, 2):
        assert subtree_runs(inst, fast, True, False) == machine
    assert machine[0] == solve(inst, backend="dlx", keep=0).count > 0


# ------------------------------------------------------------- the raster scans of a 2-D region
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(polyomino_instances(), st.integers(1, 7))
def test_every_scan_counts_what_the_default_scan_counts(inst, scan):
    # the eight raster scans of a region are eight orders of the cells: the same solutions, the same
    # reductions, other trees
    from ubongo_cp.solvers.bitboard import BitboardBackend

    default = BitboardBackend(name="bitboard-symmetry").search(inst)
    other = BitboardBackend(name="bitboard-symmetry", scan=scan).search(inst)
    assert (other.count, other.fixed, other.exhausted) == (default.count, default.fixed, True)
    assert count(inst, scan=scan)[0] == count(inst)[0]


def test_scan_classes_follow_the_regions_symmetries():
    from ubongo_cp.solvers.bitboard import scan_classes

    square = [(r, c) for r in range(8) for c in range(8)]
    notch = Region(tuple(c for c in square if c[0] or c[1] >= 4))  # no symmetry, both sides 8 long
    assert scan_classes(build_instance(PENTS.pieces, Region.rectangle(6, 10))) == [0]  # four alike scans
    assert scan_classes(build_instance([*PENTS.pieces, CLASSIC["O4"]], Region.rectangle(8, 8))) == [0]
    assert scan_classes(build_instance(PENTS.pieces, notch)) == list(range(8))
    rect = [(r, c) for r in range(6) for c in range(10)]
    bent = Region(tuple([c for c in rect if c != (0, 4)] + [(6, 2)]))  # no symmetry, one long side
    assert scan_classes(build_instance(PENTS.pieces, bent)) == [0, 1, 2, 3]


def test_a_region_with_all_its_boxs_symmetries_has_one_scan_class_as_its_images_show(monkeypatch):
    # A region of squares that keeps all the symmetries of its box (a rectangle, or 8x8 less its centre 2x2 or
    # its four corners) is answered [0] without comparing the scans' images; the comparison (the shortcut not
    # taken) finds the same classes, for every mode: one-sided pentominoes keep only the half turn of 6x10 (two
    # classes: a scan and its reverse alike).
    from ubongo_cp.solvers import bitboard

    square = [(r, c) for r in range(8) for c in range(8)]
    centre = Region(tuple(c for c in square if not (3 <= c[0] <= 4 and 3 <= c[1] <= 4)))
    corners = Region(tuple(c for c in square if c not in {(0, 0), (0, 7), (7, 0), (7, 7)}))
    ring = Region(tuple(c for c in Region.rectangle(4, 9).cells if c not in {(1, 4), (2, 4)}))
    regions = [Region.rectangle(r, c) for r, c in ((6, 10), (5, 12), (3, 20), (8, 8), (1, 5))] + [centre, corners, ring]
    cases = [(PENTS.pieces, r, mode) for r in regions for mode in ("free", "one-sided", "fixed")] + \
        [([*PENTS.pieces, CLASSIC["O4"]], Region.rectangle(8, 8), "free")]
    shortcut = [bitboard._scan_classes(build_instance(p, r, mode=m)) for p, r, m in cases]
    monkeypatch.setattr(bitboard, "_box_group", lambda instance, square: False)
    compared = [bitboard._scan_classes(build_instance(p, r, mode=m)) for p, r, m in cases]
    assert shortcut == compared
    assert shortcut[:3] == [[0], [0, 1], [0, 1, 2, 3]]
    assert [shortcut[3 * i] for i in range(5, 8)] == [[0], [0], [0]]
    # the regions with their box's group, not only the rectangles, take no scan order at all
    monkeypatch.undo()
    monkeypatch.setattr(bitboard, "_cell_order", lambda cells, scan: pytest.fail("scan orders compared"))
    for r in (centre, corners, ring):
        assert bitboard._scan_classes(build_instance(PENTS.pieces, r)) == [0]


def test_a_large_count_runs_on_its_smallest_estimated_scan():
    # 8x8 without four scattered cells (1,144 tilings, no symmetry): the default scan makes about 18
    # million placements; the scan the estimates choose about a quarter of them, and counts the same
    square = [(r, c) for r in range(8) for c in range(8)]
    region = Region(tuple(c for c in square if c not in {(0, 0), (1, 4), (6, 7), (7, 4)}))
    inst = build_instance(PENTS.pieces, region)
    chosen = solve(inst, keep=0)
    plain = count(inst)
    dlx = solve(inst, keep=0, backend="dlx-symmetry")
    assert chosen.stats["scan"] != 0 and (chosen.count, chosen.count_reduced) == (dlx.count, dlx.count_reduced) == (1144, 1144)
    assert plain[0] == 1144 and chosen.stats["nodes"] < plain[1] / 2


def _holed_9x9_optional():
    # 73 cells of a 9x9 square with holes, and 14 optional pieces covering exactly 73 cells (eight P pentominoes,
    # three 6-cell triangles, three L pentominoes, each its own piece): no tiling. Found by a randomized
    # differential test of the kernels: a cell that no placement can cover lies far along the scan, so the first
    # empty cell met it only after every way of filling the cells before it (hundreds of millions of nodes).
    region = Region.from_ascii("\n".join(["#######.#", ".#.######", "#######.#", "#########", "#########",
                                          "#########", "#.#######", "######.#.", "#.#######"]))
    p5 = ((0, 1), (1, 0), (1, 1), (2, 0), (2, 1))
    h6 = ((0, 2), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2))
    l5 = ((0, 3), (1, 0), (1, 1), (1, 2), (1, 3))
    shapes = [p5] * 8 + [h6] * 3 + [l5] * 3
    return build_instance([Piece(f"q{i}", s) for i, s in enumerate(shapes)], region, optional_pieces=True)


@pytest.mark.skipif(not KERNEL_BUILT, reason="the C kernel is not built")
def test_a_large_search_runs_on_the_most_constrained_cell_where_its_tree_is_smaller():
    # (module docstring, "Scan") The count and the first solution's search both estimate the two cell rules and
    # run on the most constrained cell: a few dozen nodes, the answer of the dancing-cells kernel (MRV).
    inst = _holed_9x9_optional()
    dlx = solve(inst, backend="dlx", keep=0)
    assert (dlx.count, dlx.complete) == (0, True)
    for kw in ({}, {"limit": 1}):
        got = solve(inst, keep=0, time_limit=5, **kw)
        assert (got.count, got.complete) == (0, True) and got.stats["cell_rule"] == "mrv", kw
        assert got.stats["nodes"] < 1000, kw
    # A time limit bounds the choice to a share of it (base.CHOICE_SHARE) rather than ruling it out: within 2 s (the
    # choice was made only from 5 s) the choice (some milliseconds) is made and the search ends at once; with no
    # time for it (a limit of a microsecond), the first empty cell, cut at the limit.
    short = solve(inst, backend="bitboard", keep=0, time_limit=2)
    assert (short.count, short.complete, short.stats["cell_rule"]) == (0, True, "mrv")
    cut = solve(inst, backend="bitboard", keep=0, time_limit=1e-6)
    assert not cut.complete and "cell_rule" not in cut.stats


def _row_major_matrix(pieces, region):
    """The tiling instance as a plain exact-cover matrix: its cells given row by row (the order a file of rows
    gives), named rRcC, then the pieces."""
    inst = build_instance(pieces, region)
    names = [f"r{r}c{c}" for r, c in inst.cells] + [p.name for p in pieces]
    rows = sorted(range(inst.n_cells), key=lambda i: inst.cells[i])
    options = [[names[j] for j in inst.option_items(o)] for o in range(inst.n_options)]
    return exact_cover_matrix([names[i] for i in rows] + names[inst.n_cells:], [], options)


@pytest.mark.skipif(not KERNEL_BUILT, reason="the C kernel is not built")
def test_an_exact_cover_matrix_runs_on_an_order_of_its_item_graph_where_its_tree_is_smaller():
    # (module docstring, "Scan") A matrix read from a file has no region to scan: the first uncovered item is
    # taken in the order the file gives. The pentominoes in 4x15 as a plain matrix, its cells given along the long
    # rows: the first item in that order searched about a hundred times the tree of the most constrained item.
    # The count now also estimates the reverse Cuthill-McKee order of the item graph and its reverse, and runs on
    # the smallest tree: the same count (1472, the published count of 4x15 tilings; the dancing-cells kernel agrees).
    matrix = _row_major_matrix(load_pieces("pentominoes").pieces, Region.rectangle(4, 15))
    got = solve(matrix, backend="bitboard", keep=0)
    assert (got.count, got.complete, got.stats["scan"] in (1, 2)) == (1472, True, True)
    assert solve(matrix, backend="dlx", keep=0).count == 1472
    names = matrix.item_names
    for scan in (1, 2):
        order = [names[i] for i in _item_order(matrix, scan)]
        # the pieces (each option covers exactly one) last; the cells from one short end of the rectangle,
        # one column of 4 first, the last column last
        assert sorted(order[60:]) == sorted(p.name for p in load_pieces("pentominoes").pieces)
        ends = {order[k].split("c")[1] for k in range(4)}, {order[k].split("c")[1] for k in range(56, 60)}
        assert ends in (({"0"}, {"14"}), ({"14"}, {"0"}))
    assert _item_order(matrix, 0) == list(range(72))
    # secondary items: the 8 queens (rows and columns primary, diagonals secondary), 92 solutions on each order;
    # the rows partition the options and come last
    queens = exact_cover_matrix([f"r{i}" for i in range(8)] + [f"c{j}" for j in range(8)],
                                [f"a{k}" for k in range(15)] + [f"b{k}" for k in range(15)],
                                [[f"r{i}", f"c{j}", f"a{i + j}", f"b{i - j + 7}"] for i in range(8) for j in range(8)])
    for scan in (0, 1, 2):
        assert BitboardBackend(scan=scan).search(queens).count == 92
    assert sorted(_item_order(queens, 1)[8:]) == list(range(8))


@pytest.mark.skipif(not KERNEL_BUILT, reason="the C kernel is not built")
def test_a_short_time_limit_still_chooses_the_item_order():
    # exact-cover FILE --count --time-limit T: under 5 s the item order was not chosen, so the pentominoes in 4x15
    # written row by row (the first item in the file's order: seconds) timed out where the count without a limit
    # takes about 0.1 s. The choice now runs within a share of the limit (base.CHOICE_SHARE): the count and
    # the enumeration handing on every cover both finish within 2 s, on an order of the item graph, with the
    # published count (1472).
    from ubongo_cp.solvers.branch import whole_branch

    matrix = _row_major_matrix(load_pieces("pentominoes").pieces, Region.rectangle(4, 15))
    got = solve(matrix, backend="bitboard", keep=0, time_limit=2)
    assert (got.count, got.complete, got.stats["scan"] in (1, 2)) == (1472, True, True)
    covers: list = []
    handed = solve(matrix, backend="bitboard", keep=0, reduce=False, time_limit=2,
                   on_solution=lambda options: covers.append(options) or True)
    assert (handed.count, len(covers), handed.complete, handed.stats["scan"] in (1, 2)) == (1472, 1472, True, True)
    # the budget bounds the estimates made, not the choice among them: a generous one chooses as none does,
    # none at all keeps the file's order
    backend, branches = BitboardBackend(), [whole_branch(0, False)]
    assert backend.scanned(matrix, branches, budget=60)[0] == backend.scanned(matrix, branches)[0] != backend
    assert backend.scanned(matrix, branches, budget=0)[0] is backend


@pytest.mark.skipif(not KERNEL_BUILT, reason="the C kernel is not built")
def test_a_matrix_count_on_the_most_constrained_item_runs_on_the_dancing_cells():
    # A count whose estimate puts it on the most constrained item (the pentominoes in 8x8 without four cells of
    # its top row, as a matrix of rows: no order of the item graph comes near) runs in the dancing-cells kernel
    # (its lists keep each item's options; the bitboard kernel looks them over at every node): the same count
    # (9864, as counted on the region), and the solutions kept are the first ones the dlx backend enumerates, each
    # an exact cover of the matrix; one node per option tried, as dlx reports (Knuth's node count of Algorithm X
    # with this MRV rule).
    square = [(r, c) for r in range(8) for c in range(8)]
    matrix = _row_major_matrix(load_pieces("pentominoes").pieces, Region(tuple(c for c in square if c[0] or c[1] >= 4)))
    got = solve(matrix, backend="bitboard", keep=5)
    plain = solve(matrix, backend="dlx", keep=5)
    assert (got.count, got.complete, got.count_reduced) == (9864, True, 9864)
    assert (got.stats["engine"], got.stats["cell_rule"], got.stats["nodes"]) == ("dlx", "mrv", plain.stats["nodes"])
    assert [sorted(s) for s in got.option_solutions] == [sorted(s) for s in plain.option_solutions]
    for chosen in got.option_solutions:
        covered = sorted(i for o in chosen for i in matrix.option_items(o))
        assert covered == list(range(matrix.n_items))
    # a first solution's search stays on the bitboard kernel
    first = solve(matrix, backend="bitboard", limit=1)
    assert first.count == 1 and first.stats.get("engine") != "dlx"
    # the clock is read at every heartbeat: a count out of time stops there, not exhausted
    from ubongo_cp.solvers.dlx import DancingCount

    cut = DancingCount(heartbeat=1000).search(matrix, time_limit=0, keep=2)
    assert (cut.exhausted, cut.stats["timed_out"], cut.stats["nodes"]) == (False, True, 1000)
    assert cut.count < 9864 and len(cut.found) <= 2


@pytest.mark.skipif(not KERNEL_BUILT, reason="the C kernel is not built")
def test_a_matrix_count_of_a_million_nodes_chooses_its_rule():
    # The pentominoes in 8x8 minus its centre 2x2, given row by row (the file Knuth's programs read): the first
    # item's tree is estimated at about 1.5 million nodes (9.0 million searched), under the gate of a region's
    # choice (10 million) but over a matrix's (1 million, its choice some milliseconds): the most constrained
    # item's tree is chosen, counted in the dancing-cells kernel. The count is the published 520, the same as
    # dlx's, with dlx's nodes.
    square = [(r, c) for r in range(8) for c in range(8)]
    matrix = _row_major_matrix(load_pieces("pentominoes").pieces,
                               Region(tuple(c for c in square if not (3 <= c[0] <= 4 and 3 <= c[1] <= 4))))
    got = solve(matrix, backend="bitboard", keep=0, reduce=False)
    plain = solve(matrix, backend="dlx", keep=0, reduce=False)
    assert (got.count, got.complete, plain.count) == (520, True, 520)
    assert (got.stats["engine"], got.stats["cell_rule"], got.stats["nodes"]) == ("dlx", "mrv", plain.stats["nodes"])


@pytest.mark.skipif(not KERNEL_BUILT, reason="the C kernel is not built")
def test_a_split_matrix_count_on_the_most_constrained_item_keeps_the_solutions_of_one_search():
    # A count cut into subtrees (--jobs) gives the answers of one search, the solutions shown in the same order
    # (docs/commands.md). On a matrix whose count runs on the most constrained item, one search keeps the first
    # solutions of the dancing-cells kernel; the subtrees run on the bitboard kernel, whose options come in
    # another order: the split count kept its own first solutions, not the ones shown without --jobs.
    from ubongo_cp.solvers.dlx import DancingCount
    from ubongo_cp.solvers.subtrees import SplitSearch

    square = [(r, c) for r in range(8) for c in range(8)]
    matrix = _row_major_matrix(load_pieces("pentominoes").pieces, Region(tuple(c for c in square if c[0] or c[1] >= 4)))
    plain = solve(matrix, backend="dlx", keep=4)
    split = solve(matrix, backend="bitboard", keep=4, split=SplitSearch(leaves=16))
    assert (split.count, split.complete, split.stats["cell_rule"]) == (9864, True, "mrv")
    assert split.option_solutions == plain.option_solutions
    # the dancing-cells count stops at a limit, its first solutions those dlx enumerates
    cut = DancingCount().search(matrix, limit=3, keep=3)
    assert (cut.count, cut.exhausted) == (3, False)
    assert [options for _, options in cut.found] == [sorted(s) for s in plain.option_solutions[:3]]


def _shuffled_6x10():
    """The pentominoes in 6x10 as a plain exact-cover matrix, its items (cells and pieces) in a shuffled order."""
    rows = _row_major_matrix(load_pieces("pentominoes").pieces, Region.rectangle(6, 10))
    names = list(rows.item_names)
    random.Random(5).shuffle(names)
    return exact_cover_matrix(names, [], [[rows.item_names[i] for i in rows.option_items(o)]
                                          for o in range(rows.n_options)])


@pytest.mark.skipif(not KERNEL_BUILT, reason="the C kernel is not built")
def test_every_solution_handed_on_runs_on_the_rule_a_count_would_choose():
    # (module docstring, "Scan") exact-cover --count --max-solutions all hands each cover on as it is found: that
    # enumeration ran on the first item in the file's order, where the count chooses the most constrained item
    # (the pentominoes in 6x10, the items of the matrix in a shuffled order: the count in seconds, the
    # enumeration some dozens of its 9356 covers in 30 s). It now runs on the rule the count's estimate chooses,
    # on a matrix in the dancing-cells kernel: every cover handed on once, the covers dlx enumerates, in its order.
    matrix = _shuffled_6x10()
    covers: list = []
    got = solve(matrix, backend="bitboard", keep=0, reduce=False, time_limit=30,
                on_solution=lambda options: covers.append(sorted(options)) or True)
    plain = solve(matrix, backend="dlx", keep=None, reduce=False)
    assert (got.count, got.complete, got.stats["cell_rule"]) == (plain.count, True, "mrv") == (9356, True, "mrv")
    assert covers == [sorted(s) for s in plain.option_solutions]


@pytest.mark.skipif(not KERNEL_BUILT, reason="the C kernel is not built")
def test_a_search_for_the_first_solutions_runs_on_the_better_cell_rule():
    # exact-cover --limit N: the first solution's search (N = 1) and the count choose the most constrained item
    # where the first item in the file's order searches a far larger tree; a limit of 2 or more ran on the first
    # item (the pentominoes in 6x10, the items shuffled: no cover in 30 s, where one takes some thousand nodes).
    matrix = _shuffled_6x10()
    got = solve(matrix, backend="bitboard", limit=50, keep=None, reduce=False, time_limit=30)
    assert (got.count, len(got.option_solutions), got.stats["cell_rule"]) == (50, 50, "mrv")
    every = {tuple(sorted(s)) for s in solve(matrix, backend="dlx", keep=None, reduce=False).option_solutions}
    assert len(every) == 9356 and {tuple(sorted(s)) for s in got.option_solutions} <= every


@pytest.mark.skipif(not KERNEL_BUILT, reason="the C kernel is not built")
def test_the_most_constrained_cell_on_cubes_counts_as_the_dancing_cells():
    # 100 cubes (not a box), 29 pieces cut from it, fixed orientations (tests/data: found by a randomized
    # differential test): one tiling, which the first empty cell does not reach in seconds.
    import json

    from ubongo_cp.grids import CUBE

    data = json.loads((DATA / "cubes_first_cell_slow.json").read_text())
    pieces = [Piece(name, tuple(map(tuple, cells)), grid=CUBE) for name, cells in data["pieces"]]
    region = Region(tuple(map(tuple, data["region"])), grid=CUBE)
    inst = build_instance(pieces, region, mode=data["mode"])
    got = solve(inst, backend="bitboard", keep=1, time_limit=30)
    dlx = solve(inst, backend="dlx", keep=0)
    assert (got.count, got.complete, got.stats["cell_rule"]) == (dlx.count, True, "mrv") == (1, True, "mrv")
    assert verify_solution(pieces, region, got.solutions[0], mode=data["mode"]) is None
    # cut into subtrees, on the rule chosen: the same search, the same answer
    from ubongo_cp.solvers.subtrees import SplitSearch

    split = solve(inst, backend="bitboard", keep=1, time_limit=30, split=SplitSearch(leaves=16))
    assert (split.count, split.stats["cell_rule"], split.option_solutions) == (1, "mrv", got.option_solutions)


@pytest.mark.skipif(not KERNEL_BUILT, reason="the C kernel is not built")
@given(st.dictionaries(st.integers(0, 2**64 - 1), st.integers(1, 10**6), max_size=20))
@settings(max_examples=60, deadline=None)
def test_a_tally_is_keyed_by_the_set_bits_of_its_masks(tally):
    # the kernel's masks of piece types decoded in C equal the bits read one by one in Python, in the order of
    # the tuples (a tuple before those it is a prefix of)
    from ubongo_cp.solvers import bitboard

    decoded = bitboard.type_sets(tally)
    want = {tuple(t for t in range(64) if m >> t & 1): n for m, n in tally.items()}
    assert list(decoded.items()) == sorted(want.items())
    assert list(bitboard.type_sets({0b10110: 7, 1 << 63: 2, 0: 1, 0b110: 4, 0b101: 5})) == \
        [(), (0, 2), (1, 2), (1, 2, 4), (63,)]


@pytest.mark.skipif(not KERNEL_BUILT, reason="the C kernel is not built")
def test_the_kernel_hands_its_tally_over_as_a_dict_of_masks():
    # Counted by hand: of the classic pieces only I2, I3 and I4 fit a bar one cell wide, and 1x9 is tiled by all
    # three in 3! = 6 orders; with the pieces optional the search meets those covers only, all of types 0, 1, 2
    # (the pieces in the instance's order), so the kernel's tally is the one mask 0b111 -> 6.
    from ubongo_cp.solvers import bitboard

    classic = load_pieces("classic").select(["I2", "I3", "I4"])
    inst = build_instance(classic, Region.rectangle(1, 9), optional_pieces=True)
    search = bitboard.BitSearch(inst)
    run = bitboard.BitboardBackend().search(inst, tally=True, kernel=search)
    assert run.tally == search.kernel.tally() == {0b111: 6}


@pytest.mark.skipif(not KERNEL_BUILT, reason="the C kernel is not built")
@given(st.integers(1, 63).flatmap(lambda size: st.lists(st.sets(st.integers(0, 63), min_size=size, max_size=size),
                                                         max_size=300)))
@settings(max_examples=80, deadline=None)
def test_a_tally_of_masks_of_one_size_is_in_the_order_of_its_tuples(sets):
    # masks with as many bits each (the tally of a K-subset analysis: no tuple a prefix of another) are decoded in
    # the tuples' order, the one Python sorts them in
    from ubongo_cp.solvers import bitboard

    tally = {sum(1 << t for t in bits): n for n, bits in enumerate(sets, 1)}
    want = {tuple(t for t in range(64) if m >> t & 1): n for m, n in tally.items()}
    assert list(bitboard.type_sets(tally).items()) == sorted(want.items())


def test_a_tally_is_decoded_without_the_kernel_too(monkeypatch):
    from ubongo_cp.solvers import bitboard

    monkeypatch.setattr(bitboard, "_bits", None)
    assert list(bitboard.type_sets({0b10110: 7, 1 << 63: 2, 0: 1, 0b110: 4}).items()) == \
        [((), 1), ((1, 2), 4), ((1, 2, 4), 7), ((63,), 2)]


@given(st.integers(1, 3).flatmap(lambda dims: st.sets(st.tuples(*[st.integers(-3, 3)] * dims), min_size=1,
                                                       max_size=8)))
@settings(max_examples=300, deadline=None)
def test_a_shape_is_stepwise_connected_as_a_search_of_its_cells_finds(cells):
    # the flood on the bits of one integer (the dead-region test's condition) against a plain graph search
    from ubongo_cp.solvers.bitboard import _stepwise_connected

    shape = tuple(sorted(cells))
    reached, todo = {shape[0]}, [shape[0]]
    while todo:
        c = todo.pop()
        for a in range(len(c)):
            for d in (-1, 1):
                n = c[:a] + (c[a] + d,) + c[a + 1:]
                if n in cells and n not in reached:
                    reached.add(n)
                    todo.append(n)
    assert _stepwise_connected.__wrapped__(shape) == (len(reached) == len(cells))
    assert _stepwise_connected.__wrapped__(((0, 0), (0, 1), (1, 1))) and \
        not _stepwise_connected.__wrapped__(((0, 0), (1, 1)))


@pytest.mark.parametrize("grid", ["square", "hex", "triangle", "cube"])
def test_the_dead_region_test_applies_where_every_orientation_is_stepwise_connected(grid):
    # Where every symmetry turns a step along an axis into one (squares, cubes) a piece's orientations are
    # stepwise connected exactly when the piece is, checked once per piece; elsewhere (axial hexagons, whose
    # rotations make such a step a diagonal one) orientation by orientation. Both against the orientations
    # checked one by one, with a piece whose cells touch at a corner only among them on squares.
    from ubongo_cp.grids import get_grid
    from ubongo_cp.pieces import Piece
    from ubongo_cp.polyforms import free_polyforms
    from ubongo_cp.solvers.bitboard import _adjacency, _cell_adjacency, _keeps_axis_steps, _stepwise_connected

    g = get_grid(grid)
    assert _keeps_axis_steps(g) == (grid in ("square", "cube"))
    shapes = free_polyforms(grid, 3) + free_polyforms(grid, 4)
    sets = [[Piece(f"P{i}", s, g) for i, s in enumerate(shapes)]]
    if grid == "square":
        sets.append(sets[0][:3] + [Piece("D", ((0, 0), (1, 1)))])
    for pieces in sets:
        inst = build_instance(pieces, Region.box(*((3, 4) if g.dim == 2 else (2, 3, 3)), grid=grid),
                              optional_pieces=True)
        each = all(_stepwise_connected(tuple(inst.type_piece(t).orientations(inst.mode)[i]))
                   for t, i in set(zip(inst.table.option_type, inst.table.option_orientation)))
        assert _adjacency(inst) == (_cell_adjacency(tuple(inst.cells)) if each else None)
    if grid == "square":
        assert _adjacency(inst) is None   # the corner-touching piece
    if grid == "hex":
        assert _adjacency(build_instance(sets[0], Region.box(3, 4, grid=grid), optional_pieces=True)) is None


@pytest.mark.parametrize("region", [Region.rectangle(3, 20), Region.rectangle(10, 10), Region.rectangle(12, 20),
                                    Region.box(4, 4, 5, grid="cube"),
                                    Region(((0, 0), (0, 2), (1, 0), (1, 1), (1, 2), (3, 1)))])
def test_the_kernels_neighbour_masks_are_the_cells_one_step_apart(region):
    # The neighbour masks (made in C, every pair of cells compared) against the pairs of cells whose coordinates
    # differ by one in one axis, counted here, in 1, 2 and 4 words and in every raster scan the region has; the
    # layout hands the kernel those masks.
    from array import array
    from itertools import chain

    from ubongo_cp.solvers.bitboard import _bits, _cell_order, layout

    cells = region.cells
    n, dim = len(cells), len(cells[0])
    words = 1 if n <= 64 else 2 if n <= 128 else 4
    for scan in range(8 if dim == 2 else 1):
        order = _cell_order(cells, scan)
        bit = {c: b for b, c in enumerate(order)}
        want = []
        for c in order:
            mask = sum(1 << bit[d] for d in range(n) if sum(abs(x - y) for x, y in zip(cells[c], cells[d])) == 1)
            want.extend(mask >> (64 * w) & (1 << 64) - 1 for w in range(words))
        got = _bits.neighbour_masks(array("q", chain.from_iterable(cells)), dim, array("i", order), words)
        assert got == array("Q", want).tobytes()
    if n % 5 == 0 and dim == 2:   # the layout of the pentominoes in it
        inst = build_instance(PENTS.pieces[:n // 5], region)
        assert layout(inst).neighbours == _bits.neighbour_masks(array("q", chain.from_iterable(cells)), dim,
                                                                array("i", _cell_order(cells, 0)), words)
    with pytest.raises(ValueError, match="permutation"):
        _bits.neighbour_masks(array("q", chain.from_iterable(cells)), dim, array("i", [0] * n), words)
    with pytest.raises(ValueError, match="malformed"):
        _bits.neighbour_masks(array("q", chain.from_iterable(cells)), dim, array("i", range(n)), 3)


@pytest.mark.parametrize("pieces, region, mode, want", [
    (PENTS.pieces, Region.rectangle(6, 10), "free", 9356),                  # one word, published
    (PENTS.pieces, Region(tuple((r, c) for r in range(8) for c in range(8) if not (3 <= r <= 4 and 3 <= c <= 4))),
     "free", 520),                                                         # one word, three shifts, published
    (one_sided_pentominoes(), Region.rectangle(3, 30), "one-sided", 184),  # two words, published
    ([bars(4)] * 33, Region.rectangle(4, 33), "free", strip_tilings(33, 4)),   # four words, the recurrence
])
def test_every_instruction_variant_searches_the_same_tree(pieces, region, mode, want):
    # The kernel's variants (plain C, with POPCNT, with POPCNT, BMI1 and BMI2: the most the processor has is
    # chosen) on the plan's search, in the resumable search and in the recursion below it, with the memo: the
    # same count, Burnside sum, solutions searched and nodes; those the processor lacks are not run.
    inst = build_instance(pieces, region, mode=mode)
    plan = symmetry_plan(inst)
    from ubongo_cp.solvers.bitboard import BitboardBackend

    runs = {}
    for level in (0, 1, 2):
        for fast in (-1, 0):
            s = BitSearch(inst, memo=False)
            s.kernel.set_memo(0, 99, 8)
            s.kernel.set_fast(fast)
            used = s.kernel.set_instructions(level)
            run = BitboardBackend(memo=False).search(inst, None if plan is None else plan.branches, kernel=s)
            runs[used, fast] = (run.count, run.fixed, run.stats["solutions_seen"], run.stats["nodes"])
    assert len(set(runs.values())) == 1 and {level for level, _ in runs} >= {0}
    assert next(iter(runs.values()))[0] == want


@pytest.mark.skipif(not KERNEL_BUILT, reason="the C kernel is not built")
def test_kernels_kept_while_their_instance_lives():
    # A second search of one instance clones the kernel built by the first; the kernel goes with the instance.
    import gc

    from ubongo_cp.solvers import bitboard

    instance = build_instance(load_pieces("pentominoes"), Region.rectangle(3, 20))   # 8 tilings, 2 up to symmetry
    first = solve(instance, backend="bitboard", keep=0)
    kept = bitboard._KERNELS[id(instance)][1]
    built = dict(kept)
    assert solve(instance, backend="bitboard", keep=0).count == first.count == 8
    assert bitboard._KERNELS[id(instance)][1] == built and len(built) == 1   # the same kernel object, reused
    key = id(instance)
    del instance, first   # a result holds its instance
    gc.collect()
    assert key not in bitboard._KERNELS
