"""Items with multiplicities (Knuth's Algorithm M) in ubongo_cp.solvers.dancing.

Solutions are checked against brute force over all option subsets, node
counts against a plain-Python Algorithm M written here from Knuth's
description (sets, no sparse sets), and tiling counts against published
values or a cell-by-cell tiling enumeration written here.
"""

from __future__ import annotations

import importlib.util
import itertools
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ubongo_cp.cover import build_instance, verify_solution
from ubongo_cp.errors import InputError
from ubongo_cp.geometry import SYMMETRIES, transform
from ubongo_cp.pieces import Piece, Region, load_pieces
from ubongo_cp.solvers import dancing
from ubongo_cp.solvers.dancing import count, search

KERNELS = ["c", "numba"] if importlib.util.find_spec("ubongo_cp.solvers._dance") else ["numba"]


@pytest.fixture(autouse=True, params=KERNELS)
def kernel(request, monkeypatch):
    """Run every test of this module on each kernel (C, when built, and numba)."""
    monkeypatch.setattr(dancing, "KERNEL", request.param)
    return request.param


def csr(options):
    indptr = np.cumsum([0] + [len(o) for o in options])
    indices = np.array([i for o in options for i in o], dtype=np.int64)
    return indptr, indices


def brute_force(options, n_items, n_secondary, lo, hi):
    """Every subset of options whose item counts lie in the bounds (sorted lists).

    Options without a primary item are left out: no exact-cover algorithm
    ever chooses them (it branches on primary items only).
    """
    n_primary = n_items - n_secondary
    usable = [o for o, items in enumerate(options) if any(i < n_primary for i in items)]
    found = []
    for r in range(len(usable) + 1):
        for subset in itertools.combinations(usable, r):
            hits = [0] * n_items
            for o in subset:
                for i in options[o]:
                    hits[i] += 1
            if all(lo[i] <= hits[i] <= hi[i] for i in range(n_items)):
                found.append(list(subset))
    return found


def reference_m(options, n_items, n_secondary, lo, hi):
    """Plain-Python Algorithm M (Knuth 7.2.2.1; DLX3's choice rule): (solutions, nodes).

    A node is an option tried (the null move is not one). Independent of the
    kernel: sets of available options, recursion, no sparse sets.
    """
    items = [frozenset(o) for o in options]
    n_primary = n_items - n_secondary
    slack = [hi[i] - lo[i] for i in range(n_items)]
    sols, nodes = [], 0

    def use(o, avail, bound, active, chosen, skip):
        bound = dict(bound)
        covered = set()
        for j in items[o]:
            if j != skip:
                bound[j] -= 1
                if bound[j] == 0:
                    covered.add(j)
        rest = {p for p in avail if p != o and not items[p] & covered}
        rec(rest, bound, active - covered, chosen + [o])

    def rec(avail, bound, active, chosen):
        nonlocal nodes
        if not any(j < n_primary for j in active):
            sols.append(sorted(chosen))
            return
        best = None
        for j in sorted(a for a in active if a < n_primary):
            length = sum(1 for o in avail if j in items[o])
            s = min(slack[j], bound[j])
            key = (length + s - bound[j] + 1, s, -length, j)
            best = key if best is None or key < best else best
        theta, _, _, i = best
        if theta <= 0:
            return
        mine = sorted(o for o in avail if i in items[o])
        if bound[i] == 1:  # cover i: try each option, then (with slack) the null move
            rest = avail - set(mine)
            for o in mine:
                nodes += 1
                use(o, rest, bound, active - {i}, chosen, i)
            if slack[i] > 0:
                rec(rest, bound, active - {i}, chosen)
            return
        bound = {**bound, i: bound[i] - 1}  # tweak i's options in increasing order
        avail = set(avail)
        for k, o in enumerate(mine):
            if len(mine) - k <= bound[i] - slack[i]:
                return
            nodes += 1
            avail.discard(o)
            use(o, avail, bound, active, chosen, i)
        if 0 > bound[i] - slack[i]:
            rec(avail, bound, active - {i}, chosen)

    rec(set(range(len(items))), {i: hi[i] for i in range(n_items)}, set(range(n_items)), [])
    return sols, nodes


@st.composite
def matrices(draw):
    n_items = draw(st.integers(1, 5))
    n_secondary = draw(st.integers(0, min(2, n_items)))
    n_primary = n_items - n_secondary
    options = draw(st.lists(st.lists(st.integers(0, n_items - 1), min_size=1, max_size=3, unique=True),
                            max_size=9))
    lo, hi = [], []
    for i in range(n_items):
        low = draw(st.integers(0, 2)) if i < n_primary else 0
        lo.append(low)
        hi.append(draw(st.integers(max(low, 1), 3)))
    return options, n_items, n_secondary, lo, hi


@settings(deadline=None, max_examples=400, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(matrices())
def test_random_matrices_against_brute_force_and_reference(matrix):
    options, n_items, n_secondary, lo, hi = matrix
    indptr, indices = csr(options)
    mult = np.array([lo, hi]).T
    expected = sorted(brute_force(options, n_items, n_secondary, lo, hi))
    s = search(indptr, indices, n_items, n_secondary, heartbeat=2, multiplicity=mult)
    got = [o.tolist() for o, _ in s if o is not None]
    assert sorted(got) == expected  # each solution exactly once
    ref_sols, ref_nodes = reference_m(options, n_items, n_secondary, lo, hi)
    # Same tree: a tweaked item's options go in increasing id in both; a covered item's
    # options go in list order here, sorted there, which changes the order of the
    # solutions but not the tree (the branches of a covered item are independent).
    assert sorted(ref_sols) == expected and s.nodes == ref_nodes
    assert count(indptr, indices, n_items, n_secondary, multiplicity=mult) == (len(expected), ref_nodes, True)


@settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(matrices(), st.integers(1, 5))
def test_node_budget_resumes_in_the_same_place(matrix, limit):
    options, n_items, n_secondary, lo, hi = matrix
    indptr, indices = csr(options)
    mult = np.array([lo, hi]).T
    n, nodes, _ = count(indptr, indices, n_items, n_secondary, multiplicity=mult)
    n_cut, nodes_cut, done = count(indptr, indices, n_items, n_secondary, node_limit=limit, multiplicity=mult)
    assert nodes_cut == min(limit, nodes) and n_cut <= n and (done or nodes_cut == limit)
    beats = [nd for o, nd in search(indptr, indices, n_items, n_secondary, heartbeat=limit, multiplicity=mult)
             if o is None]
    assert beats == list(range(limit, nodes, limit))


def test_unit_bounds_given_explicitly_change_nothing():
    opts = [[0, 2], [1, 2], [0], [1]]
    indptr, indices = csr(opts)
    assert count(indptr, indices, 3, 1, multiplicity=[(1, 1), (1, 1), (0, 1)]) == count(indptr, indices, 3, 1)


def test_hand_checked_small_case():
    # Item 0 [2..2] over options {0}, {0}, {0,1}, item 1 [0..1] primary.
    # Solutions: {o0, o1}, {o0, o2}, {o1, o2}: 3 sets, each once (not 3 x 2 orderings).
    # Tree: theta(0) = 3 + 1 - 2 = 2, theta(1) = 1 + 1 - 0 = 2, same slack 0 vs min(1, 1) = 1:
    # item 0 (smaller slack). Tweak o0 (node 1): item 0 left [1..1] with {o1, o2}, item 1
    # theta 2 -> item 0 (len 2 > 1), covered as in Algorithm X, its options in list order
    # (the tweak swapped o2 to the front): o2 (node 2) -> item 1 covered, solution {0, 2};
    # o1 (node 3) then item 1: null move -> solution {0, 1}. Tweak o1 (node 4): item 0 [1..1]
    # with {o2} -> o2 (node 5) -> solution {1, 2}. Then 1 option left < 2 needed: stop.
    opts = [[0], [0], [0, 1]]
    indptr, indices = csr(opts)
    s = search(indptr, indices, 2, multiplicity=[(2, 2), (0, 1)])
    assert [(o.tolist(), n) for o, n in s if o is not None] == [([0, 2], 2), ([0, 1], 3), ([1, 2], 5)]
    assert s.nodes == 5 and s.exhausted


def _multiset_instance(pieces, region, copies, *, optional=False):
    """One item per piece type with bounds [k..k] ([0..k] secondary when ``optional``)."""
    inst = build_instance(pieces, region, optional_pieces=optional)
    mult = np.ones((inst.n_items, 2), dtype=np.int64)
    mult[inst.n_cells:, 0] = 0 if optional else copies
    mult[inst.n_cells:, 1] = copies
    return inst, mult


def tilings(shapes_by_piece, region_cells, copies):
    """Tilings of a region by pieces used ``copies[name]`` times, by filling the first empty cell.

    Independent of the exact-cover code: placements are made here from the
    piece shapes; identical pieces are not told apart.
    """
    cells = sorted(region_cells)
    todo = set(cells)
    left = dict(copies)
    anchored = {name: [[(r - s[0][0], c - s[0][1]) for r, c in sorted(s)] for s in shapes]
                for name, shapes in shapes_by_piece.items()}
    total = 0

    def fill():
        nonlocal total
        if not todo:
            total += all(v == 0 for v in left.values())
            return
        r0, c0 = min(todo)
        for name, shapes in anchored.items():
            if left[name] == 0:
                continue
            for shape in shapes:
                placed = [(r0 + dr, c0 + dc) for dr, dc in shape]
                if all(p in todo for p in placed):
                    todo.difference_update(placed)
                    left[name] -= 1
                    fill()
                    left[name] += 1
                    todo.update(placed)

    fill()
    return total


def _free_shapes(piece):
    return {tuple(sorted(transform(piece.cells, sym))) for sym in SYMMETRIES}


@pytest.mark.parametrize("h, w", [(4, 4), (4, 8), (8, 8), (4, 12)])
def test_t_tetromino_boards_against_cell_filling(h, w):
    t = next(p for p in load_pieces("tetrominoes").pieces if p.name == "T")
    region = Region.rectangle(h, w)
    inst, mult = _multiset_instance([t], region, h * w // 4)
    n, _, done = count(inst.indptr, inst.indices, inst.n_items, multiplicity=mult)
    expected = tilings({"T": _free_shapes(t)}, region.cells, {"T": h * w // 4})
    assert done and n == expected and n > 0


def test_two_sets_of_tetrominoes_in_8x5():
    # Published: 99,392 tilings of the 5x8 rectangle by two labelled sets of the five
    # free tetrominoes; 99,392 / 2**5 = 3,106 when the two copies are not told apart.
    tet = load_pieces("tetrominoes").pieces
    inst, mult = _multiset_instance(tet, Region.rectangle(5, 8), 2)
    args = (inst.indptr, inst.indices, inst.n_items, inst.n_secondary)
    n, nodes, done = count(*args, multiplicity=mult)
    assert (n, done) == (99_392 // 2**5, True)
    for o, _ in itertools.islice(search(*args, multiplicity=mult), 20):
        if o is not None:
            assert verify_solution(tet + tet, inst.region, _named_solution(inst, o)) is None


def test_sixteen_o_tetrominoes_tile_8x8_once():
    o4 = next(p for p in load_pieces("tetrominoes").pieces if p.name == "O")
    inst, mult = _multiset_instance([o4], Region.rectangle(8, 8), 16)
    assert count(inst.indptr, inst.indices, inst.n_items, multiplicity=mult) == (1, 16, True)


def test_copies_found_once_match_the_copy_per_item_count():
    # Two L3 and two I2 on a 2x5 strip: one item per copy (copies told apart by name) vs [2..2].
    classic = {p.name: p for p in load_pieces("classic").pieces}
    pieces = [classic["L3"], classic["I2"]]
    region = Region.rectangle(2, 5)
    inst, mult = _multiset_instance(pieces, region, 2)
    n, _, _ = count(inst.indptr, inst.indices, inst.n_items, multiplicity=mult)
    copies = build_instance([classic["L3"], classic["L3"], classic["I2"], classic["I2"]], region)
    raw = [o for o, _ in search(copies.indptr, copies.indices, copies.n_items, multiplicity=copies.multiplicity)
           if o is not None]
    assert copies.n_items == inst.n_items and len(raw) == n  # the instance's own items [2..2]
    labelled = build_instance([classic["L3"], Piece("L3b", classic["L3"].cells), classic["I2"],
                               Piece("I2b", classic["I2"].cells)], region, optional_pieces=True)
    full = [o for o, _ in search(labelled.indptr, labelled.indices, labelled.n_items, labelled.n_secondary)
            if o is not None and len(o) == 4]  # copies told apart by name (types by name when optional)
    assert n == len(full) // (math.factorial(2) ** 2) > 0
    assert n == tilings({"L3": _free_shapes(classic["L3"]), "I2": _free_shapes(classic["I2"])},
                        region.cells, {"L3": 2, "I2": 2})


def test_subset_analysis_with_secondary_piece_types():
    # At most 3 dominoes and at most 1 O4 (secondary items [0..3], [0..1]) tiling a 2x4
    # strip. Four dominoes would be needed without the O, so the O is used: at the left
    # or right end (the other 2x2 tiled by two dominoes in 2 ways) or in the middle (two
    # upright dominoes): 2 + 2 + 1 = 5 tilings, also found by brute force over subsets.
    tet = {p.name: p for p in load_pieces("tetrominoes").pieces}
    classic = {p.name: p for p in load_pieces("classic").pieces}
    inst = build_instance([classic["I2"], tet["O"]], Region.rectangle(2, 4), optional_pieces=True)
    mult = np.array([(1, 1)] * inst.n_cells + [(0, 3), (0, 1)])
    options = [inst.option_items(o).tolist() for o in range(inst.n_options)]
    expected = brute_force(options, inst.n_items, inst.n_secondary, mult[:, 0].tolist(), mult[:, 1].tolist())
    got = [o.tolist() for o, _ in search(inst.indptr, inst.indices, inst.n_items, inst.n_secondary,
                                         multiplicity=mult) if o is not None]
    assert sorted(got) == sorted(expected) and len(got) == 5
    for o in got:
        assert verify_solution([classic["I2"]] * 2 + [tet["O"]], inst.region,
                               _named_solution(inst, o), optional_pieces=True) is None


def _named_solution(inst, options):
    """Piece name (``#2``, ... for further copies) -> cells, for a solution with repeated types."""
    placed: dict[str, list] = {}
    for o in options:
        name = inst.type_piece(int(inst.option_type[o])).name
        key, k = name, 1
        while key in placed:
            k += 1
            key = f"{name}#{k}"
        placed[key] = inst.option_cells(int(o))
    return placed


@pytest.mark.parametrize("mult, message", [
    ([(1, 1)], "shape"),
    ([(2, 1), (1, 1)], r"item 0 is \[2..1\]"),
    ([(0, 0), (1, 1)], r"item 0 is \[0..0\]"),
    ([(-1, 1), (1, 1)], "need 0 <= lo"),
    ([(1, 1), (1, 2)], "secondary item 1 has lo = 1"),
    ([(1.5, 2), (0, 1)], "integers"),
])
def test_bad_multiplicity(mult, message):
    with pytest.raises(InputError, match=message):
        count([0, 2], [0, 1], 2, 1, multiplicity=mult)
