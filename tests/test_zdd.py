"""The decision-diagram backend (DXZ): exact big counts, Burnside, uniform samples, completions, frequencies.

Counts are checked against published values (OEIS A004003, domino tilings of
the 2n x 2n square; Narayana's numbers for straight trominoes in 3 x n; 2^n
L-tromino tilings of 2 x 3n), against an exact transfer-matrix count of
domino tilings written here from the definition, and against the ``dlx``
backend (a second search engine) on random instances; reduced counts
against the orbit strategies' (which count stabilisers solution by solution).
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter, defaultdict

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import PUZZLES
from ubongo_cp.cards import load_card
from ubongo_cp.cover import build_instance, task_instance, verify_solution
from ubongo_cp.errors import InputError
from ubongo_cp.exactcover import exact_cover_matrix
from ubongo_cp.geometry import normalize
from ubongo_cp.pieces import Region, load_pieces
from ubongo_cp.solvers import solve
from ubongo_cp.solvers import zdd
from ubongo_cp.solvers.zdd import DiagramTooLarge, build_diagram, subset_counts
from ubongo_cp.status import Status

CLASSIC = load_pieces("classic")
TETS = load_pieces("tetrominoes")
PENTS = load_pieces("pentominoes")
I2, I3, L3 = CLASSIC["I2"], CLASSIC["I3"], CLASSIC["L3"]

#: OEIS A004003: domino tilings of the 2n x 2n square, n = 0, 1, ..., 7 (n = 7 exceeds 2**64).
A004003 = [1, 2, 36, 6728, 12988816, 258584046368, 53060477521960000, 112202208776036178000000]


def dominoes(h: int, w: int):
    return build_instance([I2] * (h * w // 2), Region.rectangle(h, w))


def domino_tilings(m: int, n: int) -> int:
    """Domino tilings of an m x n rectangle by a broken-profile transfer matrix (exact, Python ints).

    Cells are filled column by column, top to bottom; bit r of the profile says that cell
    (r, current column) is already covered (by a horizontal domino from the left, or by a
    vertical one from the row above).
    """
    profiles = {0: 1}
    for _ in range(n):
        for r in range(m):
            step: dict[int, int] = defaultdict(int)
            for mask, ways in profiles.items():
                bit = 1 << r
                if mask & bit:
                    step[mask & ~bit] += ways          # covered already: the next column's cell is free
                else:
                    step[mask | bit] += ways           # a horizontal domino into the next column
                    if r + 1 < m and not mask & (bit << 1):
                        step[mask | (bit << 1)] += ways  # a vertical domino over the cell below
            profiles = step
    return profiles.get(0, 0)


# ----------------------------------------------------------------- exact counts
def test_empty_board_has_one_tiling():
    # A004003(0) = 1: no item, no option; the empty set of options is the one exact cover.
    empty = (np.zeros(1, np.uint32), np.zeros(0, np.uint32), np.zeros(0, np.uint32), np.zeros(0), np.zeros(0))
    diagram = build_diagram(None, csr=empty)
    assert (diagram.root, diagram._counts[diagram.root]) == (1, 1)


@pytest.mark.parametrize("n", range(1, 8))
def test_oeis_a004003_domino_tilings_of_squares(n):
    result = solve(dominoes(2 * n, 2 * n), backend="zdd", keep=2, reduce=False)
    assert (result.count, result.complete, result.status) == (A004003[n], True, Status.SOLVED)
    assert isinstance(result.count, int)
    for sol in result.solutions:
        assert verify_solution(result.instance.pieces, result.instance.region, sol) is None


@pytest.mark.parametrize("n", range(1, 6))
def test_oeis_a004003_on_the_auto_rule(n):
    # The ``auto`` rule takes the diagram here: the memo saves a factor far above the rule's.
    result = solve(dominoes(2 * n, 2 * n), backend="auto", keep=0)
    assert (result.count, result.backend, result.stats["engine"]) == (A004003[n], "auto", "zdd")


@pytest.mark.parametrize("shape", [(3, 8), (5, 6), (6, 7), (4, 11), (7, 8), (9, 10)])
def test_domino_rectangles_against_the_transfer_matrix(shape):
    assert build_diagram(dominoes(*shape)).count() == domino_tilings(*shape)


@pytest.mark.parametrize("n", [1, 4, 7, 9])
def test_aztec_diamonds_have_2_to_the_n_n_plus_1_over_2_tilings(n):
    # Elkies, Kuperberg, Larsen and Propp (1992): the Aztec diamond of order n (rows of 2, 4, ..., 2n,
    # 2n, ..., 2 cells, centred) has 2**(n(n+1)/2) domino tilings. An irregular region.
    cells = []
    for r in range(2 * n):
        half = r + 1 if r < n else 2 * n - r
        cells += [(r, c) for c in range(n - half, n + half)]
    inst = build_instance([I2] * (len(cells) // 2), Region(tuple(sorted(cells))))
    assert build_diagram(inst).count() == 2 ** (n * (n + 1) // 2)


@pytest.mark.parametrize("n", [3, 7, 12, 20])
def test_straight_trominoes_in_3_by_n_are_narayanas_numbers(n):
    # Tilings of 3 x n by 1x3 bars: a(n) = a(n-1) + a(n-3), a(0) = a(1) = a(2) = 1 (OEIS A000930).
    a = [1, 1, 1]
    while len(a) <= n:
        a.append(a[-1] + a[-3])
    count = build_diagram(build_instance([I3] * n, Region.rectangle(3, n))).count()
    assert count == a[n]


@pytest.mark.parametrize("n", [1, 4, 9])
def test_l_trominoes_tile_2_by_3n_in_2_to_the_n_ways(n):
    # Each 2x3 block is tiled by two L trominoes in 2 ways, and no L crosses a block border.
    assert build_diagram(build_instance([L3] * (2 * n), Region.rectangle(2, 3 * n))).count() == 2 ** n


def test_pentomino_8x8_minus_the_centre():
    # Published (Scott 1958; Knuth, Dancing Links): 65 tilings up to symmetry, 520 in all.
    cells = [(r, c) for r in range(8) for c in range(8) if not (3 <= r <= 4 and 3 <= c <= 4)]
    inst = build_instance(PENTS.pieces, Region(tuple(cells)))
    for backend in ("zdd-symmetry", "auto"):
        result = solve(inst, backend=backend, keep=3)
        assert (result.count, result.count_reduced, result.complete) == (520, 65, True)


# ------------------------------------------------------------ random instances
@st.composite
def instances(draw):
    """Random small polyomino instances: copies of a piece, optional pieces, orientation modes."""
    source = draw(st.sampled_from([CLASSIC, TETS]))
    names = draw(st.lists(st.sampled_from(source.names), min_size=1, max_size=5))
    optional = draw(st.booleans())
    if optional:
        names = sorted(set(names))  # the subset analysis takes distinct names
    pieces = source.select(names)
    area = sum(p.size for p in pieces)
    width = draw(st.integers(2, 5))
    if optional:
        size = draw(st.integers(2, min(area, 12)))
    else:
        size = area
    cells = [(i // width, i % width) for i in range(size + draw(st.integers(0, 3)))]
    drop = set(draw(st.lists(st.sampled_from(cells), unique=True, min_size=len(cells) - size,
                             max_size=len(cells) - size)))
    region = Region(normalize([c for c in cells if c not in drop]))
    mode = draw(st.sampled_from(["free", "one-sided", "fixed"]))
    return build_instance(pieces, region, optional_pieces=optional, mode=mode)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances())
def test_zdd_agrees_with_dlx_on_random_instances(inst):
    expected = solve(inst, backend="dlx", keep=None, reduce=not inst.optional_pieces)
    got = solve(inst, backend="zdd", keep=5, reduce=not inst.optional_pieces)
    assert (got.count, got.count_reduced, got.complete) == (expected.count, expected.count_reduced, True)
    solutions = {tuple(s) for s in expected.option_solutions}
    assert all(tuple(s) in solutions for s in got.option_solutions)
    if not inst.optional_pieces:
        # every cover once from the diagram, and the same ones (built here: a pre-check may have answered)
        diagram = build_diagram(inst)
        assert sorted(tuple(s) for s in diagram.solutions()) == sorted(solutions)
        # the pure-Python builder gives the same family
        assert _python_builder_count(inst) == expected.count
    else:
        # covers grouped by the pieces they use, against grouping dlx's list
        by_pieces = Counter(tuple(sorted(inst.n_cells + int(inst.option_type[o]) for o in s))
                            for s in expected.option_solutions)
        assert subset_counts(inst) == dict(by_pieces)


def _python_builder_count(inst) -> int:
    old = zdd.KERNEL
    zdd.KERNEL = "python"
    try:
        return build_diagram(inst).count()
    finally:
        zdd.KERNEL = old


def _agree_with_brute_force(matrix, brute: set) -> None:
    """dlx, zdd and the pure-Python builder find exactly the covers ``brute`` lists (option-id tuples)."""
    expected = solve(matrix, backend="dlx", reduce=False, keep=None)
    got = solve(matrix, backend="zdd", reduce=False, keep=None)
    assert expected.count == got.count == len(brute)
    assert sorted(map(tuple, got.option_solutions)) == sorted(brute)
    assert _python_builder_count(matrix) == len(brute)


def _random_matrix(data, n_primary: int, n_secondary: int, *, max_options: int, colours: int):
    """(matrix, raw options) of random Knuth-format instances: primary items once, secondary at most once
    or, with colours 1..``colours``, shared by options that colour them alike. Raw options: (primary names,
    [(secondary name, colour or 0)])."""
    primary = [f"p{i}" for i in range(n_primary)]
    secondary = [f"s{i}" for i in range(n_secondary)]
    raw = data.draw(st.lists(
        st.tuples(st.lists(st.sampled_from(primary), min_size=1, max_size=3, unique=True),
                  st.lists(st.tuples(st.sampled_from(secondary), st.integers(0, colours)), max_size=2,
                           unique_by=lambda t: t[0])),
        min_size=1, max_size=max_options))
    options = [p + [f"{s}:{c}" if c else s for s, c in sec] for p, sec in raw]
    return exact_cover_matrix(primary, secondary, options), raw


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 7), st.integers(1, 4), st.data())
def test_zdd_agrees_with_dlx_on_random_matrices_with_secondary_items(n_primary, n_secondary, data):
    matrix, _ = _random_matrix(data, n_primary, n_secondary, max_options=14, colours=0)
    expected = solve(matrix, backend="dlx", reduce=False, keep=None)   # every solution: the lists compare whole
    got = solve(matrix, backend="zdd", reduce=False, keep=None)
    assert (got.count, got.complete) == (expected.count, expected.complete)
    assert sorted(map(tuple, got.option_solutions)) == sorted(map(tuple, expected.option_solutions))


# ------------------------------------------------------------------ symmetry
def _symmetric_instances():
    yield build_instance(CLASSIC.select("I4,I4,O4,O4,T4,T4,S4,S4,L4,L4".split(",")), Region.rectangle(8, 5))
    yield build_instance(PENTS.pieces, Region.rectangle(3, 20))
    yield build_instance(TETS.select(["L", "L", "O", "I", "I"]), Region.rectangle(4, 5), mode="one-sided")
    yield build_instance(TETS.select(["I", "I", "O", "O"]), Region.rectangle(4, 4), mode="fixed")
    yield dominoes(6, 6)
    yield build_instance([L3] * 8, Region.rectangle(6, 4))
    yield build_instance([L3, L3, L3, I3, I3, I3], Region.rectangle(3, 6))
    yield build_instance([I2] * 6, Region(((0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (1, 3), (2, 0), (2, 1),
                                            (2, 2), (2, 3), (3, 1), (3, 2))))


@pytest.mark.parametrize("inst", list(_symmetric_instances()), ids=lambda i: f"{i.n_cells}cells-{i.mode}")
def test_burnside_reduced_counts_equal_the_orbit_strategies(inst):
    orbit = solve(inst, backend="dlx-symmetry", keep=0)  # stabiliser orders summed over the solutions
    plain = solve(inst, backend="dlx", keep=0)
    diagram = solve(inst, backend="zdd", keep=0)
    assert diagram.count == orbit.count == plain.count
    assert diagram.count_reduced == orbit.count_reduced == plain.count_reduced
    assert len(inst.region_symmetries) > 1


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 4), st.integers(2, 5), st.sampled_from(["free", "one-sided", "fixed"]), st.data())
def test_burnside_on_random_rectangles(h, w, mode, data):
    area = h * w
    chosen, total = [], 0
    while total < area:
        fits = [p for p in CLASSIC.pieces + TETS.pieces if p.size <= area - total]
        if not fits:
            break  # one cell left: an area mismatch, the pre-check's case
        chosen.append(data.draw(st.sampled_from(fits)))
        total += chosen[-1].size
    inst = build_instance(chosen, Region.rectangle(h, w), mode=mode)
    reference = solve(inst, backend="dlx", keep=0)
    got = solve(inst, backend="zdd", keep=0)
    assert (got.count, got.count_reduced) == (reference.count, reference.count_reduced)


# ---------------------------------------------------------------- sampling
def test_samples_are_uniform_chi_square():
    # 4x6 dominoes: 281 tilings. 20,000 draws with seed 2024: each tiling is expected 71.2 times;
    # Pearson's chi-square test (scipy.stats.chisquare, 280 degrees of freedom) must not reject
    # uniformity at the 0.1 % level. The seed makes the test deterministic; with a uniform
    # sampler a failing seed would be a 1-in-1000 event.
    from scipy.stats import chisquare

    inst = dominoes(4, 6)
    diagram = build_diagram(inst)
    assert diagram.count() == 281
    draws = diagram.sample(20_000, seed=2024)
    counts = Counter(tuple(s) for s in draws)
    assert len(counts) == 281  # every tiling drawn
    observed = np.array([counts[tuple(s)] for s in diagram.solutions()])
    assert observed.sum() == 20_000
    assert chisquare(observed).pvalue > 0.001
    for options in counts:
        assert verify_solution(inst.pieces, inst.region, inst.solution_dict(options)) is None


def test_samples_are_reproducible_by_seed_and_through_solve():
    inst = build_instance(PENTS.pieces, Region.rectangle(3, 20))
    a = solve(inst, sample=5, seed=7)
    b = solve(inst, sample=5, seed=7)
    assert a.option_solutions == b.option_solutions and len(a.solutions) == 5
    assert (a.count, a.complete, a.stats["samples"], a.stats["seed"]) == (8, True, 5, 7)
    assert {tuple(s) for s in a.option_solutions} <= {tuple(s) for s in solve(inst, backend="dlx").option_solutions}
    # without a seed, one is drawn and recorded: it repeats the draw
    drawn = solve(inst, sample=20)
    assert isinstance(drawn.stats["seed"], int)
    assert solve(inst, sample=20, seed=drawn.stats["seed"]).option_solutions == drawn.option_solutions
    # ranks cover every solution once
    d = a.diagram
    assert sorted(d.solution(r) for r in range(8)) == sorted(d.solutions())
    with pytest.raises(IndexError):
        d.solution(8)


def test_sample_without_a_solution_is_no_solution():
    result = solve(build_instance(TETS.pieces, Region.rectangle(4, 5)), sample=3, seed=1)
    assert (result.status, result.count, result.solutions) == (Status.NO_SOLUTION, 0, [])
    inst = build_instance([L3, L3], Region(((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2))))
    assert build_diagram(inst).sample(2, seed=3) != []


# -------------------------------------------------------------- completions
def test_completions_equal_solving_the_reduced_instance():
    rng = random.Random(11)
    cases = [(CLASSIC.select("I4,I4,O4,O4,T4,T4,S4,S4,L4,L4".split(",")), Region.rectangle(8, 5), "free"),
             (PENTS.pieces, Region.rectangle(3, 20), "free"),
             ([I2] * 18, Region.rectangle(6, 6), "free"),
             (TETS.select(["L", "L", "O", "I", "I"]), Region.rectangle(4, 5), "one-sided")]
    checked = 0
    for pieces, region, mode in cases:
        inst = build_instance(pieces, region, mode=mode)
        solutions = solve(inst, backend="dlx", limit=200).option_solutions
        for _ in range(4):
            base = rng.choice(solutions)
            k = rng.randint(1, min(4, len(base)))
            fixed = rng.sample(base, k)
            if rng.random() < 0.3:  # sometimes a placement taken from another solution: maybe no completion
                other = [o for o in rng.choice(solutions) if o not in fixed]
                clash = set().union(*(inst.option_cells(o) for o in fixed))
                other = [o for o in other if not clash & set(inst.option_cells(o))
                         and sum(inst.option_type[f] == inst.option_type[o] for f in fixed)
                         < len(inst.types[int(inst.option_type[o])])]
                fixed += other[:1]
            got = solve(inst, fixed=fixed, keep=3)
            assert got.count == _reduced_count(inst, fixed), (pieces, fixed)
            assert got.count_reduced is None and got.stats["fixed"] == len(fixed)
            for s in got.option_solutions:
                assert set(fixed) <= set(s)
                assert verify_solution(inst.pieces, inst.region, inst.solution_dict(s)) is None
            checked += 1
    assert checked == 16


def _reduced_count(inst, fixed) -> int:
    """Count the instance of the pieces left in the cells left, built from scratch and counted by dlx."""
    covered = set().union(*(inst.option_cells(o) for o in fixed))
    left = list(inst.pieces)
    for o in fixed:
        shape = inst.type_piece(int(inst.option_type[o]))
        left.remove(next(p for p in left if p.orientations(inst.mode) == shape.orientations(inst.mode)))
    cells = [c for c in inst.cells if c not in covered]
    if not cells:
        return 1
    return solve(build_instance(left, Region(normalize(cells)), mode=inst.mode), backend="dlx", keep=0).count


def test_fix_refuses_what_is_not_a_placement_and_overlaps():
    inst = build_instance(PENTS.pieces, Region.rectangle(6, 10))
    x = [(1, 2), (2, 1), (2, 2), (2, 3), (3, 2)]
    assert len(inst.fix([("X", x)])) == 1
    with pytest.raises(InputError, match=r"^I@\(0, 0\) \(0, 1\) is not a placement of I in the region$"):
        inst.fix([("I", [(0, 0), (0, 1)])])
    with pytest.raises(InputError, match="is not a placement of I"):  # outside the region
        inst.fix([("I", [(0, 6), (0, 7), (0, 8), (0, 9), (0, 10)])])
    with pytest.raises(InputError, match=r"overlaps X@"):
        inst.fix([("X", x), ("I", [(2, 0), (2, 1), (2, 2), (2, 3), (2, 4)])])
    with pytest.raises(InputError, match="no piece 'Q'"):
        inst.fix([("Q", x)])
    with pytest.raises(InputError, match="more fixed placements of X than its 1 copy"):
        inst.fix([("X", x), ("X", [(r, c + 5) for r, c in x])])


# ------------------------------------------------------------ frequencies
def test_frequencies_count_the_solutions_holding_each_placement():
    inst = build_instance(CLASSIC.select("I4,I4,O4,O4,T4,T4,S4,S4,L4,L4".split(",")), Region.rectangle(8, 5))
    every = solve(inst, backend="dlx", keep=None).option_solutions
    expected = np.bincount([o for s in every for o in s], minlength=inst.n_options)
    result = solve(inst, frequencies=True, keep=0)
    assert result.frequencies.tolist() == expected.tolist()
    # with a fixed placement, the completions' frequencies; the fixed one is in all of them
    fixed = [every[5][0]]
    completions = [s for s in every if fixed[0] in s]
    got = solve(inst, frequencies=True, fixed=fixed, keep=0)
    assert got.frequencies.tolist() == np.bincount([o for s in completions for o in s],
                                                   minlength=inst.n_options).tolist()
    assert got.frequencies[fixed[0]] == got.count == len(completions)


def test_forced_and_impossible_placements_and_the_heat_map():
    from ubongo_cp.draw.figures import cell_shares, frequency_figure

    card = load_card(PUZZLES / "examples" / "classic_X1_easy.toml")
    inst = task_instance(card, 1)  # I2 L4 Y5 in 11 cells: one tiling, so every placement in it is forced
    result = solve(inst, frequencies=True)
    assert result.count == 1
    forced = np.flatnonzero(result.frequencies == 1).tolist()
    assert forced == sorted(result.option_solutions[0])
    assert (result.frequencies == 0).sum() == inst.n_options - 3
    share = cell_shares(result)
    assert share.shape == (3, 11) and np.allclose(share.sum(axis=0), 1.0) and set(share.ravel()) == {0.0, 1.0}
    assert frequency_figure(result) is not None


def test_frequencies_survive_counts_beyond_64_bits():
    # 14x14 dominoes: 1.1e23 tilings. A placement's frequency is an exact Python int.
    inst = dominoes(14, 14)
    result = solve(inst, backend="zdd", frequencies=True, keep=0, reduce=False)
    assert result.count == A004003[7]
    corner = [o for o in range(inst.n_options) if (0, 0) in inst.option_cells(o)]
    assert sum(result.frequencies[corner]) == result.count  # one of the two covers the corner
    assert result.frequencies.dtype == object


# ------------------------------------------------------------ limits, the rule
def test_memory_limit_stops_zdd_and_auto_falls_back_to_the_kernel():
    inst = dominoes(8, 8)
    stopped = solve(inst, backend="zdd", memory_limit=2**16)  # 64 KiB: less than the builder's tables
    assert (stopped.status, stopped.complete, stopped.stats["memory_limited"]) == (Status.UNKNOWN, False, True)
    assert "memory limit" in stopped.stats["stopped"]
    small = build_instance(PENTS.pieces, Region.rectangle(3, 20))
    with pytest.raises(DiagramTooLarge):
        build_diagram(small, memory_limit=2**16)
    # L trominoes in 6x9: 4,312 tilings (test_the_rule... counts them on the diagram), a 0.2 MB diagram
    fallback = solve(build_instance([L3] * 18, Region.rectangle(6, 9)), backend="auto", memory_limit=2**16, keep=0)
    assert (fallback.count, fallback.stats["engine"]) == (4312, "bitboard-symmetry")
    assert "memory limit" in fallback.stats["rule"]


def test_the_rule_sends_pentominoes_to_the_kernel_and_dominoes_to_the_diagram():
    pent = solve(build_instance(PENTS.pieces, Region.rectangle(4, 15)), backend="auto", keep=0)
    assert (pent.count, pent.stats["engine"]) == (1472, "bitboard-symmetry")
    assert pent.stats["trial_saving"] < zdd.TRIAL_SAVING < \
        solve(dominoes(10, 10), backend="auto", keep=0).stats["trial_saving"]
    # 20 P pentominoes in 10x10 (378,268 tilings, as Knuth's DLX3 and SSMCC count in benchmarks/bench_copies.py):
    # a memo saving of only 2.38 after the trial with the classic set's P, where the diagram counts 10x faster
    # than the kernel (a threshold of 2.5 sent it to the kernel: 1 s instead of 0.1 s)
    p20 = solve(build_instance([load_pieces("classic")["P5"]] * 20, Region.rectangle(10, 10)), backend="auto",
                keep=0)
    assert (p20.count, p20.stats["engine"], p20.stats["trial_saving"]) == (378268, "zdd", 2.38)
    tromino = solve(build_instance([L3] * 18, Region.rectangle(6, 9)), backend="auto", keep=0)
    assert (tromino.count, tromino.stats["engine"]) == (4312, "zdd")
    assert tromino.count == solve(build_instance([L3] * 18, Region.rectangle(9, 6)), backend="dlx", keep=0).count


def test_a_diagram_backend_is_needed_for_samples_fixes_and_frequencies():
    inst = build_instance(PENTS.pieces, Region.rectangle(3, 20))
    for kwargs in ({"sample": 1}, {"fixed": [0]}, {"frequencies": True}):
        with pytest.raises(InputError, match="a decision diagram, which backend 'dlx' does not build; choose one of zdd"):
            solve(inst, backend="dlx", **kwargs)


def test_analyze_on_the_diagram_equals_dlx():
    from ubongo_cp.analyze import analyze

    # Which 5 of the 12 pentominoes tile the 5x5 square: 45 sets, 856 tilings (dlx lists them).
    board = Region.rectangle(5, 5)
    expected = analyze(PENTS.pieces, board, 5, backend="dlx")
    assert (len(expected.subsets), expected.total_solutions) == (45, 856)
    got = analyze(PENTS.pieces, board, 5, backend="zdd")
    assert got.subsets == expected.subsets and got.stats["engine"] == "zdd"
    auto = analyze(PENTS.pieces, board, 5, backend="auto")
    assert auto.subsets == expected.subsets and auto.stats["engine"] in ("zdd", "dlx") and auto.stats["rule"]
    duel = load_pieces("duel").pieces  # and with K = 4 on a Duel board, where K is not implied by the area
    assert analyze(duel, Region.rectangle(3, 4), None, backend="zdd").subsets == \
        analyze(duel, Region.rectangle(3, 4), None, backend="dlx").subsets
    # Pieces of no K-subset of the area are left out before the search: the diagram's subsets name the
    # pieces of the whole set (classic in 3x3 with K = 2: only a tetromino and a pentomino fill 9 cells).
    from ubongo_cp.analyze import _usable

    square = Region.rectangle(3, 3)
    assert not all(_usable(CLASSIC.pieces, square.area, 2))
    reference = analyze(CLASSIC.pieces, square, 2, backend="dlx")
    assert reference.subsets and {CLASSIC[n].size for s in reference.subsets for n in s.pieces} == {4, 5}
    for backend in ("zdd", "auto"):
        assert analyze(CLASSIC.pieces, square, 2, backend=backend).subsets == reference.subsets
    # with copies of each piece (multisets), a diagram backend lists with the kernel: the same subsets
    doubled = analyze(CLASSIC.pieces, Region.rectangle(3, 4), 3, backend="dlx", copies=2)
    assert any(len(set(s.pieces)) < 3 for s in doubled.subsets)
    assert analyze(CLASSIC.pieces, Region.rectangle(3, 4), 3, backend="auto", copies=2).subsets == doubled.subsets


# ------------------------------------------------------------------ the CLI
def test_cli_sample_fix_frequencies(run_cli, tmp_path):
    region = tmp_path / "r.txt"
    region.write_text("######\n" * 6)
    use = ",".join(["I2"] * 18)
    code, out, _ = run_cli("solve", "--pieces", "classic", "--region", region, "--use", use, "--sample", "3",
                           "--seed", "5", "--json")
    data = json.loads(out)
    assert (code, data["count"], data["backend"], data["stats"]["engine"]) == (0, 6728, "auto", "zdd")
    assert len(data["solutions"]) == 3
    again = json.loads(run_cli("solve", "--pieces", "classic", "--region", region, "--use", use, "--sample", "3",
                               "--seed", "5", "--json")[1])
    assert again["solutions"] == data["solutions"]
    code, out, _ = run_cli("solve", "--pieces", "classic", "--region", region, "--use", use, "--count",
                           "--fix", "I2@0,0;0,1", "--fix", "I2@1,0 1,1")
    assert code == 0 and out.splitlines()[0].startswith(f"{_completions_6x6()} completions [auto: zdd")
    picture = tmp_path / "heat.png"
    code, out, _ = run_cli("solve", "--pieces", "classic", "--region", region, "--use", use, "--frequencies",
                           "--draw", picture)
    assert code == 0 and picture.stat().st_size > 0
    assert "placement frequencies (solutions holding each placement, of 6728):" in out
    samples = tmp_path / "samples.svg"
    code, out, _ = run_cli("solve", "--pieces", "classic", "--region", region, "--use", use, "--sample", "2",
                           "--draw", samples)
    assert code == 0 and out.count("sample ") == 2 and "<svg" in samples.read_text()
    seed = int(out.split(", seed ")[1].split()[0])  # drawn, printed, and repeated by --seed
    again = run_cli("solve", "--pieces", "classic", "--region", region, "--use", use, "--sample", "2",
                    "--seed", str(seed))[1]
    assert [line for line in again.splitlines() if "[auto" not in line] == \
        [line for line in out.splitlines() if "[auto" not in line]


def _completions_6x6() -> int:
    # two horizontal dominoes fixed in the top-left 2x2 square of 6x6
    inst = dominoes(6, 6)
    fixed = inst.fix([("I2", [(0, 0), (0, 1)]), ("I2", [(1, 0), (1, 1)])])
    return _reduced_count(inst, fixed)


@pytest.mark.parametrize("fix, message", [
    (["X@0,0;0,1"], "--fix X@(0, 0) (0, 1) is not a placement of X in the region"),
    (["I@0,0;0,1;0,2;0,3;0,4", "L@0,0;1,0;2,0;3,0;3,1"], "--fix L@(0, 0) (1, 0) (2, 0) (3, 0) (3, 1) overlaps I@"),
    (["X"], "--fix 'X': write PIECE@CELLS"),
    (["X@a,b"], "--fix 'X@a,b': 'a,b' is not a cell row,col"),
])
def test_cli_bad_fix_exits_2_with_one_line(run_cli, tmp_path, fix, message):
    region = tmp_path / "r.txt"
    region.write_text("##########\n" * 6)
    argv = ["solve", "--pieces", "pentominoes", "--region", region, "--count"]
    for f in fix:
        argv += ["--fix", f]
    code, out, err = run_cli(*argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err


def test_cli_sample_without_solution_and_bad_options(run_cli, tmp_path):
    region = tmp_path / "r.txt"
    region.write_text("#####\n" * 4)
    code, out, _ = run_cli("solve", "--pieces", "tetrominoes", "--region", region, "--sample", "2")
    assert code == 0 and out.startswith("no solution (")
    code, out, _ = run_cli("solve", "--pieces", "tetrominoes", "--region", region, "--sample", "2", "--json")
    assert (code, json.loads(out)["status"]) == (0, "no solution")
    for extra, message in ([["--seed", "3"], "--seed goes with --sample"],
                           [["--sample", "2", "--memory-limit", "lots"], "--memory-limit takes a size"],
                           [["--sample", "0"], "--sample must be at least 1"],
                           [["--sample", "2", "--backend", "cpsat"], "sampling needs a decision diagram"]):
        code, _, err = run_cli("solve", "--pieces", "tetrominoes", "--region", region, *extra)
        assert code == 2 and message in err, err


def test_exact_cover_command_counts_on_the_diagram_with_auto(run_cli, tmp_path):
    # The 8x8 domino matrix in Knuth's format: 64 primary items, 112 options; 12,988,816 covers.
    cells = [f"c{r}{c}" for r in range(8) for c in range(8)]
    options = [f"c{r}{c} c{r}{c + 1}" for r in range(8) for c in range(7)]
    options += [f"c{r}{c} c{r + 1}{c}" for r in range(7) for c in range(8)]
    path = tmp_path / "dominoes.dlx"
    path.write_text(" ".join(cells) + "\n" + "\n".join(options) + "\n")
    code, out, _ = run_cli("exact-cover", path, "--count", "--max-solutions", "0", "--backend", "auto")
    assert code == 0 and out.startswith("12988816 exact covers [auto: zdd, ")


# ------------------------------------------------------------ bounds [u..v]
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 5), st.integers(1, 3), st.data())
def test_zdd_takes_any_bounds_and_agrees_with_dlx_and_brute_force(n_cells, n_counters, data):
    # Primary items covered once (c*) and counters with random bounds [u..v] (k*), as DLX6 extends DXZ:
    # every option holds a c-item, the diagram's branching items. Checked against dlx (Algorithm M) and
    # against trying every set of options.
    cells = [f"c{i}" for i in range(n_cells)]
    counters = [f"k{i}" for i in range(n_counters)]
    bounds = {}
    for k in counters:
        lo = data.draw(st.integers(0, 3))
        bounds[k] = (lo, max(1, lo + data.draw(st.integers(0, 3))))  # an upper bound is at least 1
    options = data.draw(st.lists(
        st.tuples(st.lists(st.sampled_from(cells), min_size=1, max_size=2, unique=True),
                  st.lists(st.sampled_from(counters), max_size=2, unique=True)).map(lambda t: t[0] + t[1]),
        min_size=1, max_size=10))
    matrix = exact_cover_matrix(cells + counters, [], options, bounds=bounds)
    index = {name: i for i, name in enumerate(cells + counters)}
    lo_hi = [(1, 1)] * n_cells + [bounds[k] for k in counters]
    brute = set()
    for size in range(len(options) + 1):
        for chosen in itertools.combinations(range(len(options)), size):
            used = Counter(index[i] for o in chosen for i in options[o])
            if all(lo <= used[i] <= hi for i, (lo, hi) in enumerate(lo_hi)):
                brute.add(chosen)
    _agree_with_brute_force(matrix, brute)


# ------------------------------------------------------------ cells pre-assigned to pieces
def test_cells_assigned_to_pieces_equal_filtering_every_solution():
    # A partial board by cells: a group of cells covered by one placement of the named piece. The count
    # on every backend equals the solutions of the whole instance (listed by dlx) that respect it.
    rng = random.Random(5)
    cases = [(CLASSIC.select("I4,I4,O4,O4,T4,T4,S4,S4,L4,L4".split(",")), Region.rectangle(8, 5)),
             (PENTS.pieces, Region.rectangle(3, 20)),
             ([I2] * 8, Region.rectangle(4, 4))]
    for pieces, region in cases:
        inst = build_instance(pieces, region)
        every = [inst.solution_dict(s) for s in solve(inst, backend="dlx", keep=None).option_solutions]
        for _ in range(3):
            sol = rng.choice(every)
            groups = []
            for key in rng.sample(sorted(sol), 2):
                cells = rng.sample(sol[key], rng.randint(1, 2))
                groups.append((key.split("#")[0], cells))

            def respects(s, groups=groups):
                return all(any(k.split("#")[0] == name and set(cells) <= set(s[k]) for k in s)
                           for name, cells in groups)

            expected = sum(map(respects, every))
            assigned = inst.assign(groups)
            assert assigned.region_symmetries == [assigned.region_symmetries[0]]
            for backend in ("bitboard", "dlx", "zdd", "cpsat"):
                result = solve(assigned, backend=backend, keep=None)
                assert result.count == expected >= 1, (backend, groups)
                assert all(respects(s) for s in result.solutions)


def test_cli_fix_by_cells(run_cli, tmp_path):
    # The 8 pentomino tilings of 3x20: one piece placed whole (from a tiling) and one cell of another
    # piece pre-assigned; the completions are the tilings holding both, listed by dlx.
    region = tmp_path / "r.txt"
    region.write_text("#" * 20 + "\n" + "#" * 20 + "\n" + "#" * 20 + "\n")
    inst = build_instance(PENTS.pieces, Region.rectangle(3, 20))
    every = [inst.solution_dict(s) for s in solve(inst, backend="dlx", keep=None).option_solutions]
    first = every[0]
    whole, cell = first["L"], first["X"][0]
    expected = sum(s["L"] == whole and cell in s["X"] for s in every)
    text = "L@" + ";".join(f"{r},{c}" for r, c in whole)
    code, out, _ = run_cli("solve", "--pieces", "pentominoes", "--region", region, "--count", "--fix", text,
                           "--fix", f"X@{cell[0]},{cell[1]}")
    assert code == 0 and out.startswith(f"{expected} completion"), out
    code, out, _ = run_cli("solve", "--pieces", "pentominoes", "--region", region, "--count",
                           "--fix", f"X@{cell[0]},{cell[1]}", "--json")
    assert json.loads(out)["count"] == sum(cell in s["X"] for s in every)
    code, out, err = run_cli("solve", "--pieces", "pentominoes", "--region", region, "--count",
                             "--fix", f"X@{cell[0]},{cell[1]}", "--fix", f"I@{cell[0]},{cell[1]}")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "overlaps X@" in err
    code, out, err = run_cli("solve", "--pieces", "pentominoes", "--region", region, "--count", "--fix", "X@0,0")
    assert code == 2 and "is not a placement of X in the region" in err



def test_fix_and_assign_take_the_optional_cells_of_a_region(run_cli, tmp_path):
    # A row "#+++" (its last three cells optional: a BurrTools result's variable voxels) over one required cell
    # below its last, a domino I2 and an L tromino L3: by hand one tiling, I2 on the row's first two cells and
    # L3 round the corner. Placements and cells on the optional cells were refused as outside the region. A
    # group of optional cells alone binds no solution (it may stay empty): refused in one line, not counted.
    from ubongo_cp.burrtools import write_xmpuzzle

    region = Region(((0, 0), (1, 3)), optional=((0, 1), (0, 2), (0, 3)))
    inst = build_instance([I2, L3], region)
    assert solve(inst, backend="dlx").count == 1
    whole = inst.fix([("L3", [(0, 2), (0, 3), (1, 3)])])
    assert inst.is_placement("I2", [(0, 0), (0, 1)])
    assert solve(inst, fixed=whole).count == 1
    assert solve(inst, fixed=inst.fix([("I2", [(0, 1), (0, 2)])])).count == 0   # (0, 0) is then left uncovered
    for backend in ("dlx", "cpsat", "sat"):
        assert solve(inst.assign([("I2", [(0, 0), (0, 1)])]), backend=backend).count == 1
        assert solve(inst.assign([("L3", [(1, 3), (0, 2)])]), backend=backend).count == 1
    with pytest.raises(InputError, match="optional cells of the region alone"):
        inst.assign([("I2", [(0, 1)])])
    path = tmp_path / "corner.xmpuzzle"
    write_xmpuzzle(path, [I2, L3], region)
    code, out, _ = run_cli("solve", path, "--count", "--fix", "L3@0,2;0,3;1,3")
    assert code == 0 and "1 completion" in out, out
    code, out, err = run_cli("solve", path, "--count", "--fix", "L3@0,3")
    assert code == 2 and len(err.strip().splitlines()) == 1 and "optional cells of the region alone" in err, err


def test_cli_fix_cells_are_counted_from_the_regions_first_row_and_column(run_cli, tmp_path):
    # A region file is read with its first used row and column as 0: its 2x3 block drawn at rows 2-3,
    # columns 2-4 of the picture is (0, 0) to (1, 2), as in the solutions; the picture's (2, 2) is refused
    # with a line saying how cells are counted.
    region = tmp_path / "r.txt"
    region.write_text(".....\n.....\n..###\n..###\n")
    pieces = tmp_path / "p.txt"
    pieces.write_text("I3\n###\n")
    base = ["solve", "--pieces", pieces, "--region", region, "--use", "I3,I3"]
    code, out, _ = run_cli(*base, "--json")
    assert code == 0 and sorted(map(tuple, json.loads(out)["solutions"][0]["I3"])) == [(0, 0), (0, 1), (0, 2)]
    code, out, _ = run_cli(*base, "--count", "--fix", "I3@0,0;0,1;0,2")
    assert code == 0 and out.startswith("1 completion"), out
    code, out, err = run_cli(*base, "--count", "--fix", "I3@2,2;2,3;2,4")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert err.strip().endswith("--fix I3@(2, 2) (2, 3) (2, 4): cell (2, 2) is not in the region (rows and columns "
                                "are counted from the region's first row and first column)"), err


def test_cli_fix_cells_with_another_number_of_coordinates_than_the_grids_are_told_so(run_cli):
    # A cube's cell given as row,col was "not in the region", which told nothing of the missing layer.
    code, out, err = run_cli("solve", "--pieces", "soma", "--region", "3x3x3", "--count", "--fix", "T@0,0")
    assert code == 2 and out == "" and err == (
        "ubongo-cp: error: --fix T@(0, 0): cell (0, 0) has 2 coordinates, a cell of the cube grid 3 (layers, rows "
        "and columns are counted from the region's first layer, row and column)\n")
    code, _, err = run_cli("solve", "--pieces", "pentominoes", "--region", "6x10", "--count", "--fix", "X@0,0,1")
    assert code == 2 and "cell (0, 0, 1) has 3 coordinates, a cell of the square grid 2" in err


# ------------------------------------------------------------ colours (Algorithm C)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 5), st.integers(1, 3), st.data())
def test_zdd_takes_colours_and_agrees_with_dlx_and_brute_force(n_primary, n_secondary, data):
    # Secondary items with colours: options that colour an item alike may share it, an uncoloured one
    # takes it alone. The memo key holds each coloured item's colour. Against dlx (Algorithm C), a brute
    # force over every set of options, and the pure-Python builder.
    matrix, raw = _random_matrix(data, n_primary, n_secondary, max_options=9, colours=2)
    primary = [f"p{i}" for i in range(n_primary)]
    brute = set()
    for size in range(len(raw) + 1):
        for chosen in itertools.combinations(range(len(raw)), size):
            used = Counter(i for o in chosen for i in raw[o][0])
            tints = defaultdict(list)
            for o in chosen:
                for s, c in raw[o][1]:
                    tints[s].append(c)
            if all(used[i] == 1 for i in primary) and \
                    all(len(t) == 1 or (0 not in t and len(set(t)) == 1) for t in tints.values()):
                brute.add(chosen)
    _agree_with_brute_force(matrix, brute)


def test_two_cell_groups_of_a_piece_are_two_copies_of_it():
    # --fix I2@0,0 --fix I2@0,1: one domino covering both cells met both fixes (43 completions with a single I2,
    # 83 with several), though each fix reads as a piece of its own. By hand (listing below): each group is a
    # placement of its own, and a group more than the piece's copies is refused.
    classic = load_pieces("classic")
    ranged = build_instance(classic.select(["T4", "L3", "I2"]), Region.rectangle(3, 5),
                            ranges={"T4": (0, 2), "L3": (0, 3), "I2": (1, 4)})
    both = solve(ranged.assign([("I2", [(0, 0)]), ("I2", [(0, 1)])]), backend="dlx", keep=None)
    apart = 0
    for sol in solve(ranged, backend="dlx", keep=None).solutions:
        dominoes = [set(map(tuple, cells)) for name, cells in sol.items() if name.split("#")[0] == "I2"]
        apart += any((0, 0) in a and (0, 1) in b for a in dominoes for b in dominoes if a is not b)
    assert both.count == apart == 23
    single = build_instance(classic.select(["L3", "L4", "I2"]), Region.rectangle(3, 4), max_empty=3)
    with pytest.raises(InputError, match=r"more fixed placements of I2 than its 1 copy"):
        single.assign([("I2", [(0, 0)]), ("I2", [(0, 1)])])


def test_a_callback_that_returns_nothing_sees_every_solution_and_bad_arguments_are_named():
    # on_solution=seen.append returns None: the search once stopped after one solution (complete False).
    classic = load_pieces("classic")
    inst = build_instance(classic.select(["L3", "L4", "I2"]), Region.rectangle(3, 4), max_empty=3)
    total = solve(inst, backend="dlx", keep=0).count
    for backend in ("bitboard", "dlx", "zdd", "cpsat"):
        seen: list = []
        result = solve(inst, backend=backend, on_solution=seen.append, keep=0)
        assert (result.count, result.complete, len(seen)) == (total, True, total) == (548, True, 548), backend
    stopped: list = []
    result = solve(inst, backend="dlx", on_solution=lambda o: stopped.append(o) or len(stopped) < 5, keep=0)
    assert (result.count, result.complete) == (5, False)
    for kwargs, message in ((dict(fixed=5), "fixed must be a list of option ids"),
                            (dict(on_solution=5), "on_solution must be a function"),
                            (dict(sample=3, seed=True), "seed must be a whole number"),
                            (dict(sample=3, limit=2), "a sample takes no solution limit"),
                            (dict(sample=2 * 10 ** 6), "sample must be at most 1,000,000")):
        with pytest.raises(InputError, match=message):
            solve(inst, **kwargs)


def test_a_malformed_solution_or_number_of_empty_cells_is_named():
    # verify_solution(P, R, None) raised AttributeError from inside; max_empty=1.5 was taken as 1.
    classic = load_pieces("classic")
    two, square = classic.select(["I2", "I2"]), Region.rectangle(2, 2)
    assert verify_solution(two, square, {"I2": [(0, 0), (0, 1)], "I2#2": [(1, 0), (1, 1)]}) is None
    assert verify_solution(two, square, None) == "a solution maps piece names to cells, got NoneType"
    for cells in ("abc", [(0, 0.5)], [(0,)], 5):
        assert verify_solution(two, square, {"I2": cells}).startswith("the cells of 'I2' are not a list of cells")
    for bad in (1.5, -1, True):
        with pytest.raises(InputError, match="max_empty must be a whole number of at least 0"):
            build_instance(two, square, max_empty=bad)


def test_the_default_count_takes_the_diagram_for_a_large_count_of_copies():
    # The 10x10 dominoes (258,584,046,368 tilings, OEIS A004003) took hours in the default kernel, while the
    # documentation showed the diagram's milliseconds; 8x8 (12,988,816) took 1.1 s against 0.1 s. A small
    # count of copies stays in the kernel (no numpy loaded for it), as does every count of distinct pieces.
    from ubongo_cp.solvers import asks_diagram

    big = solve(dominoes(10, 10), keep=0)
    assert (big.count, big.backend, big.stats["engine"]) == (258_584_046_368, "auto", "zdd")
    assert big.count_reduced == solve(dominoes(10, 10), backend="zdd", keep=0).count_reduced
    small = solve(dominoes(2, 6), keep=0)
    assert (small.count, small.backend) == (13, "bitboard-symmetry")   # Fibonacci F7
    assert asks_diagram(dominoes(8, 8)) and not asks_diagram(dominoes(6, 6))
    assert not asks_diagram(build_instance(PENTS.pieces, Region.rectangle(6, 10)))   # distinct pieces
    # asked for workers, a limit or a callback, the count keeps the kernel's road
    assert solve(dominoes(8, 8), keep=0, limit=5).backend == "bitboard-symmetry"


def test_the_default_count_takes_the_diagram_beyond_the_bitboard_kernel_too():
    # A region of more than 256 cells is counted on dlx-symmetry, the bitboard kernel's stand-in, which asked no
    # rule: the 130 dominoes of 2x130 (Fibonacci F131 tilings, 2x n has F(n+1)) ran for ever, covering one by
    # one, while --backend auto counts them in milliseconds. The 90 L trominoes of 3x90: 2**45 (two per 3x2).
    for h, w, piece, count in ((2, 130, "I2", 1_066_340_417_491_710_595_814_572_169), (3, 90, "L3", 2 ** 45)):
        inst = build_instance([CLASSIC[piece]] * (h * w // CLASSIC[piece].size), Region.rectangle(h, w, max_cells=400))
        result = solve(inst, keep=0, time_limit=10)   # before: the limit's partial count
        assert (result.count, result.backend, result.stats["engine"]) == (count, "auto", "zdd")
        assert result.count_reduced == solve(inst, backend="zdd-symmetry", keep=0).count_reduced
    fib = [0, 1]
    while len(fib) < 132:
        fib.append(fib[-1] + fib[-2])
    assert fib[131] == 1_066_340_417_491_710_595_814_572_169


@pytest.mark.parametrize("grid, box, names, max_empty", [
    ("square", (3, 5), ["I3", "L4", "P5", "I3"], 0), ("square", (4, 4), ["O4", "I2", "I2", "L4", "I2"], 0),
    ("square", (4, 5), ["L4", "L4", "T4", "I2", "I3"], 5), ("square", (2, 8), ["I2"] * 8, 0),
    ("hex", (3, 4), ("hex", 3), 0), ("triangle", (2, 6), ("triangle", 4), 0), ("cube", (2, 2, 3), ("cube", 3), 0),
])
def test_the_tree_bound_holds_on_the_kernel_searches(grid, box, names, max_empty):
    # A card's count skips the estimate of the diagram's gate when its search cannot reach the gate: the bound
    # (pieces deep, placements covering the first empty cell wide) against the nodes the kernel counts, on
    # each cell rule, with copies and cells left empty, on every grid; and a bound below the gate there.
    from ubongo_cp.grids import get_grid
    from ubongo_cp.pieces import Piece
    from ubongo_cp.polyforms import free_polyforms
    from ubongo_cp.solvers import _tree_bound
    from ubongo_cp.solvers.bitboard import BitboardBackend

    if isinstance(names, list):
        pieces = CLASSIC.select(names)
    else:
        shapes = free_polyforms(*names)
        region_cells = Region.box(*box, grid=grid).area
        pieces = [Piece(f"P{i}", s, get_grid(grid)) for i, s in enumerate(shapes)] * 2
        pieces = pieces[:region_cells // names[1]]
    inst = build_instance(pieces, Region.box(*box, grid=grid), max_empty=max_empty)
    bound = _tree_bound(inst)
    for rule in ("first", "mrv"):
        run = BitboardBackend(rule=rule, memo=False, prune=False).search(inst)
        assert 0 < run.stats["nodes"] <= bound, (rule, run.stats["nodes"], bound)
    if len(inst.pieces) <= 5:   # a card's few pieces
        assert bound < 5_000_000


def test_the_default_count_gate_is_not_fooled_by_a_lucky_probe():
    # 24 L pentominoes in 10x12: 17 million nodes in the kernel without its memo (0.67 s), 0.16 s on the
    # diagram. Knuth's plain estimate (64 probes) put the search at 105,000 nodes, under the gate, so the
    # default searched; the stratified estimate puts it at 7.4 million, and the default tries the kernel's memo
    # within registry.MEMO_BUDGET nodes before the diagram. The count against the diagram's.
    from ubongo_cp.solvers import registry
    from ubongo_cp.solvers.bitboard import BitboardBackend

    l5 = load_pieces("classic")["L5"]
    inst = build_instance([l5] * 24, Region.rectangle(10, 12))
    assert BitboardBackend().estimate(inst) >= registry.DIAGRAM_GATE
    default = solve(inst, keep=0)
    assert (default.backend, default.stats["symmetry"]) == ("bitboard-symmetry", "fixed points")
    assert default.stats["nodes"] < 17_000_000 // 4   # the whole tree's and the fixed points', about 2 million
    diagram = solve(inst, backend="auto", keep=0)
    assert diagram.stats["engine"] == "zdd"
    assert default.count == diagram.count == 41104 and default.count_reduced == diagram.count_reduced



def test_frequencies_of_a_puzzle_a_check_settles_are_all_zero():
    """A puzzle with no cover that a check settles before any search (its area, a piece that fits nowhere) has
    frequencies as one with no cover found by the diagram: every placement in 0 solutions, one per option."""
    two_l3 = build_instance(CLASSIC.select(["L3", "L3"]), Region.rectangle(1, 6))   # L3 fits nowhere: no option
    result = solve(two_l3, frequencies=True)
    assert result.count == 0 and "reason" in result.stats
    assert result.frequencies is not None and result.frequencies.tolist() == []
    short = build_instance(CLASSIC.select(["I3", "I2"]), Region.rectangle(2, 3))    # 5 cells for 6
    result = solve(short, frequencies=True)
    assert "reason" in result.stats and short.n_options > 0
    assert result.frequencies.tolist() == [0] * short.n_options
    searched = build_instance(CLASSIC.select(["T4", "T4"]), Region.rectangle(2, 4))  # by hand: a T leaves two parts
    found = solve(searched, frequencies=True)   # no check settles it: the diagram finds no cover
    assert found.count == 0 and "reason" not in found.stats
    assert found.frequencies.tolist() == [0] * searched.n_options
