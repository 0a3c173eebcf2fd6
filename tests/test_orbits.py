"""The orbit decomposition (ubongo_cp.solvers.orbits) and the instance's symmetry maps it rests on."""

from __future__ import annotations

from array import array

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from ubongo_cp import cover
from ubongo_cp.cover import build_instance
from ubongo_cp.geometry import transform
from ubongo_cp.pieces import Region, load_pieces
from ubongo_cp.solvers import SOLVERS, solve, solver_names
from ubongo_cp.solvers.bitboard import BitboardBackend
from ubongo_cp.solvers.orbits import orbit_plan, symmetry_plan

PENTS = load_pieces("pentominoes")
CLASSIC = load_pieces("classic")
ORBIT_NAMES = [n for n in solver_names() if SOLVERS[n].orbits]


def test_plan_6x10_restricts_x_to_a_quarter():
    # Knuth (Dancing Links, 2000): X restricted to a quarter of the 6x10 rectangle.
    plan = orbit_plan(build_instance(PENTS.pieces, Region.rectangle(6, 10)))
    assert PENTS.pieces[plan.piece].name == "X"
    assert (plan.group_order, plan.n_orbits, int(plan.weight.sum())) == (4, 8, 32)


def test_option_perms_map_each_placement_onto_its_image():
    # Checked against geometry directly: the image of each placement's cells under the
    # symmetry, re-anchored in the region, is the cells of the placement perm[o].
    inst = build_instance([CLASSIC[n] for n in ("L4", "T4", "I4", "O4")], Region.rectangle(4, 4))
    perms = inst.option_perms
    assert len(perms) == len(inst.region_symmetries) - 1 == 7  # the square's group D4
    for sym, perm in zip(inst.region_symmetries[1:], perms):
        assert sorted(perm.tolist()) == list(range(inst.n_options))  # a permutation
        for o in range(inst.n_options):
            cells = inst.option_cells(o)
            a, b, c, d = sym
            image = sorted((a * r + b * q + (3 if a + b < 0 else 0), c * r + d * q + (3 if c + d < 0 else 0))
                           for r, q in cells)
            assert sorted(inst.option_cells(int(perm[o]))) == image
            assert inst.option_type[perm[o]] == inst.option_type[o]
    assert transform(inst.region.cells, inst.region_symmetries[1]) == inst.region.cells


@pytest.mark.parametrize("mode", ["free", "one-sided", "fixed"])
def test_option_perms_by_offsets_equal_those_by_cells(mode):
    # On squares each placement's image is found from its orientation and offset (in Python, without the
    # C extension); the general way maps its cells and looks them up, in Python and in C. All three on a
    # symmetric region with a hole (pieces whose images are other shapes in one-sided mode, or no
    # placement at all in fixed mode: -1).
    pents = load_pieces("pentominoes")
    square = [(r, c) for r in range(8) for c in range(8)]
    for region in (Region(tuple(c for c in square if not (3 <= c[0] <= 4 and 3 <= c[1] <= 4))),
                   Region.rectangle(6, 10)):
        inst = build_instance(pents, region, mode=mode)
        assert inst._item_maps == inst._item_maps_by_cells()
        by_cells = inst._option_perm_lists_by_cells()
        assert inst._option_perm_lists_by_offsets() == by_cells
        if cover._c_fill() is not None:
            assert inst._option_perm_lists_c(cover._c_fill()) == by_cells
        # the kernels' form (int32 bytes, from C's array where built; from the lists without it) and their number
        rows = [array("i", perm).tobytes() for perm in by_cells]
        assert inst.option_perm_rows == rows and inst.n_option_perms == len(by_cells) == len(rows)
        plain = build_instance(pents, region, mode=mode)
        with pytest.MonkeyPatch.context() as m:
            m.setattr(cover, "_c_fill", lambda: None)
            assert plain.option_perm_rows == rows and plain.option_perm_lists == by_cells


@pytest.mark.parametrize("grid, box, mode, optional", [
    ("square", (4, 4), "one-sided", False), ("square", (5, 5), "free", True), ("hex", (3, 3), "free", False),
    ("hex", (4, 4), "free", True), ("triangle", (3, 3), "free", False), ("triangle", (2, 4), "one-sided", True),
    ("cube", (2, 2, 3), "free", False), ("cube", (2, 3, 3), "mirror", True),
])
def test_option_perms_in_c_equal_those_in_python_on_every_grid(grid, box, mode, optional):
    # The C look-up (a hash table of each option's type and sorted cells) against the dict of the Python way,
    # on each grid, in its modes, with optional cells (a corner and its images: the region keeps its
    # symmetries, and every symmetric placement on them is looked up too) and optional pieces; every image is
    # the option of the image type on the image cells.
    native = cover._c_fill()
    if native is None:
        pytest.skip("the C extension is not built")
    whole = Region.box(*box, grid=grid)
    g = whole.grid
    spare = tuple(sorted({g.map_onto(whole.cells, k)[0] for k in g.symmetry_group(whole.cells)}))
    region = Region(tuple(c for c in whole.cells if c not in spare), grid=grid, optional=spare) if optional \
        else whole
    for optional_pieces in (False, True):
        inst = build_instance(_pieces(grid, 3), region, mode=mode, optional_pieces=optional_pieces)
        assert len(inst.region_symmetries) > 1 and (len(inst.region.optional) > 1) == optional
        got = inst._option_perm_lists_c(native)
        assert got == inst._option_perm_lists_by_cells() and len(got) == len(inst.region_symmetries) - 1
        # the item maps by keys in the region's box (2-D grids) are those of each cell's image looked up
        assert inst._item_maps == inst._item_maps_by_cells()
        assert any(o >= 0 for perm in got for o in perm)
        for item_map, tmap, perm in zip(inst._item_maps, inst.symmetry_type_maps[1:], got):
            for o, image in enumerate(perm):
                if image >= 0:
                    cells = sorted(item_map[i] for i in inst.option_items(o).tolist() if item_map[i] >= 0)
                    assert sorted(i for i in inst.option_items(image).tolist() if item_map[i] >= 0) == cells
                    assert inst.option_type[image] == tmap[inst.option_type[o]]


def test_option_images_in_c_by_cell_masks_equal_those_by_sorted_cells():
    # Where every cell item is below 64 the C look-up keys an option by the mask of its cells; beyond, by its
    # sorted cells. The same images: an option naming a cell twice (sorted keys) onto the option naming its
    # image twice; a map taking two cells of an option onto one, no image; the pentominoes on 8x9 (72 cells:
    # sorted keys) and 8x8 (masks) as in Python.
    native = cover._c_fill()
    if native is None:
        pytest.skip("the C extension is not built")
    out = array("q", [7, 7])
    native.images(array("I", [0, 2, 4]), array("I", [0, 0, 1, 1]), array("i", [0, 0]), array("i", [1, 0]),
                  array("i", [0]), 2, 1, out)
    assert out.tolist() == [1, 0]
    native.images(array("I", [0, 2, 4]), array("I", [0, 1, 1, 2]), array("i", [0, 0]), array("i", [2, 2, 1]),
                  array("i", [0]), 3, 1, out)
    assert out.tolist() == [-1, 1]
    for rows in (9, 8):
        inst = build_instance(PENTS.pieces, Region.rectangle(8, rows))
        assert inst._option_perm_lists_c(native) == inst._option_perm_lists_by_cells()


def test_option_images_in_c_refuse_buffers_that_do_not_fit():
    # Sizes, items and maps out of range are a ValueError, nothing read or written beyond a buffer.
    from array import array

    native = cover._c_fill()
    if native is None:
        pytest.skip("the C extension is not built")
    indptr, indices, types = array("I", [0, 2, 4]), array("I", [0, 2, 1, 2]), array("i", [0, 0])
    item_map, type_map, out = array("i", [1, 0, -1]), array("i", [0]), array("q", [0, 0])
    native.images(indptr, indices, types, item_map, type_map, 3, 1, out)
    assert out.tolist() == [1, 0]   # the two cells swapped: each option onto the other
    narrow = array("i", [0, 0])   # width 4: the same images as int32 (as the kernels take them)
    native.images(indptr, indices, types, item_map, type_map, 3, 1, narrow, 4)
    assert narrow.tolist() == [1, 0]
    for width, room in ((4, array("i", [0])), (8, array("i", [0, 0])), (3, array("i", [0, 0]))):
        with pytest.raises(ValueError, match="^images: "):   # too small for the width, or no width
            native.images(indptr, indices, types, item_map, type_map, 3, 1, room, width)
    one = array("q", [7])   # an option of no cell item (an empty array, at an address of its own): its image itself
    native.images(array("I", [0, 0]), array("I"), array("i", [0]), array("i", [0, -1]), array("i", [0]), 2, 1, one)
    assert one.tolist() == [0]
    bad = [(array("I", [0, 2, 9]), indices, types, item_map, type_map, 3, 1, out),   # items beyond indices
           (indptr, array("I", [0, 2, 7, 2]), types, item_map, type_map, 3, 1, out),  # an item beyond n_items
           (indptr, indices, array("i", [0, 1]), item_map, type_map, 3, 1, out),      # a type beyond n_types
           (indptr, indices, types, array("i", [1, 5, -1]), type_map, 3, 1, out),     # an image beyond n_items
           (indptr, indices, types, array("i", [1, 0, -1, 1, -1, -1]), array("i", [0, 0]), 3, 1,
            array("q", [0] * 4)),                                                     # a cell mapped to no cell
           (indptr, indices, types, item_map, array("i", [3]), 3, 1, out),            # a type map beyond n_types
           (indptr, indices, types, item_map, type_map, 3, 1, array("q", [0])),       # out too small
           (indptr, indices, types, item_map, type_map, 3, 1, array("q")),            # out empty
           (indptr, indices, types, item_map, type_map, 0, 1, out)]
    for args in bad:
        with pytest.raises(ValueError, match="^images: "):
            native.images(*args)


def test_item_counts_in_c_are_a_counters():
    # The placements covering each item, counted in one pass in C, against collections.Counter; an index beyond
    # the items is a ValueError.
    from array import array
    from collections import Counter

    native = cover._c_fill()
    if native is None:
        pytest.skip("the C extension is not built")
    for inst in (build_instance(PENTS.pieces, Region.rectangle(4, 15)),
                 build_instance(PENTS.pieces[:4], Region.rectangle(4, 5), optional_pieces=True)):
        tally = Counter(inst.table.indices)
        assert cover.item_counts(inst.table.indices, inst.n_items) == [tally[i] for i in range(inst.n_items)]
    assert cover.item_counts(array("I"), 2) == [0, 0] and cover.item_counts([1, 1, 0], 3) == [1, 2, 0]
    with pytest.raises(ValueError, match="^counts: item 5 outside 0..2"):
        native.counts(array("I", [5]), 3)
    with pytest.raises(ValueError, match="^counts: "):
        native.counts(array("h", [1]), 3)


def test_option_masks_in_c_are_the_options_cells(monkeypatch):
    # On a region of at most 64 cells the plan's option masks are made at once in C; each is the OR of its cell
    # items' bits, as made one by one in Python (the extension missing, or more than 64 cells).
    from ubongo_cp.solvers import orbits

    inst = build_instance(PENTS.pieces, Region.rectangle(5, 12))
    made = orbits._cell_masks(inst)
    expected = [sum(1 << i for i in inst.option_items(o).tolist() if i < inst.n_cells) for o in range(inst.n_options)]
    if cover._c_fill() is not None:
        assert isinstance(made, list) and len(made) == inst.n_options   # made at once
    assert [made[o] for o in range(inst.n_options)] == expected and \
        list(orbits._masks_of(made, [3, 1])) == expected[3:0:-2]
    monkeypatch.setattr(orbits, "c_placements", lambda: None)
    one_by_one = orbits._cell_masks(inst)
    assert isinstance(one_by_one, orbits._CellMasks) and len(one_by_one) == 0
    assert orbits._masks_of(one_by_one, [3, 1]) == expected[3:0:-2] and one_by_one[7] == expected[7]
    native = cover._c_fill()
    if native is not None:
        with pytest.raises(ValueError, match="^masks: "):
            native.masks(inst.table.indptr, inst.table.indices, 65)
        # the plan's test of the masks that miss its prefix's cells, in C: against the masks' bits tested here
        every = orbits._masks_of(made, range(inst.n_options))
        for covered in (0, 1, expected[0], expected[5] | expected[900], (1 << 60) - 1, (1 << 64) - 1):
            assert native.missing(every, covered) == bytes(not m & covered for m in expected)
        with pytest.raises(OverflowError):
            native.missing(every, 1 << 64)
        with pytest.raises(ValueError, match="^missing: "):
            native.missing(b"1234567", 0)


def test_orbit_representatives_in_c_are_each_orbits_least_option():
    # The plan's representatives of a type's options in C: the options no permutation maps lower, and whether one
    # maps it onto itself. A permutation swapping options 0 and 1 and fixing 2 and 3: 0, 2 and 3, the last two
    # fixed. X in 6x10 under the rectangle's three symmetries: 8 orbits of 4 (the orbit decomposition's figures),
    # the same as the plan's Python way (the extension missing), and every representative its orbit's least.
    native = cover._c_fill()
    if native is None:
        pytest.skip("the C extension is not built")
    assert native.representatives((array("i", [1, 0, 2, 3]).tobytes(),), 0, 4) == ([0, 2, 3], [False, True, True])
    assert native.representatives((array("i", [1, 0, 2, 3]).tobytes(),), 1, 3) == ([2], [True])
    assert native.representatives((), 5, 8) == ([5, 6, 7], [False, False, False])
    inst = build_instance(PENTS.pieces, Region.rectangle(6, 10))
    x = inst.type_options[[inst.type_piece(t).name for t in range(inst.n_types)].index("X")]
    reps, short = native.representatives(tuple(inst.option_perm_rows), x.start, x.stop)
    perms = inst.option_perm_lists
    assert len(x) == 32 and len(reps) == 8 and short == [False] * 8
    assert reps == sorted(min(q, *(p[q] for p in perms)) for q in x if all(q <= p[q] for p in perms))
    with pytest.raises(ValueError, match="^representatives: "):
        native.representatives((array("i", [0, 1]).tobytes(),), 0, 3)
    with pytest.raises(TypeError):
        native.representatives([array("i", [0]).tobytes()], 0, 1)


def test_symmetry_plan_is_made_once_per_instance():
    # The 3x20 rectangle (8 tilings, 2 up to its 4 symmetries): X at each of its 9 placements up to
    # symmetry (the left half of the middle row), V restricted inside each search to its representatives
    # under the mirror that fixes that X. The figures are those the plan had before plans were kept.
    inst = build_instance(PENTS.pieces, Region.rectangle(3, 20))
    plan = symmetry_plan(inst)
    assert symmetry_plan(inst) is plan   # kept with the instance, by the arguments
    assert symmetry_plan(build_instance(PENTS.pieces, Region.rectangle(3, 20))) == plan
    assert (plan.group_order, len(plan.branches), plan.levels) == (4, 9, {"piece": 10, "cell": 0, "copies": 0})
    assert [b.prefix for b in plan.branches] == [(o,) for o in range(1010, 1019)]
    assert {inst.type_piece(inst.option_type[b.prefix[0]]).name for b in plan.branches} == {"X"}
    assert all((b.weight, b.test, b.transversals, b.residual) == (2, (2,), ((-1, 0),), 2) for b in plan.branches)
    assert {inst.type_piece(b.restrict[0]).name for b in plan.branches} == {"V"}
    assert [len(b.restrict[1]) for b in plan.branches] == [31, 29, 28, 28, 28, 28, 28, 28, 28]
    assert [sum(map(len, b.restrict[1].values())) for b in plan.branches] == [62, 58] + [56] * 7
    for _ in range(2):   # counted again on the kept plan and kernel: the same search
        got = BitboardBackend().search(inst, symmetry_plan(inst).branches)
        # the 8 tilings each fixed by 1 of the 4 symmetries (the identity): 8 / 4 = 2 up to symmetry (Burnside)
        assert (got.count, got.fixed, got.stats["nodes"]) == (8, 8, 5283)


def test_canonical_key_is_equal_exactly_on_symmetric_solutions():
    # 2x2 with two dominoes: the two tilings are mirror images (one solution up to symmetry, UP-5).
    inst = build_instance([CLASSIC["I2"], CLASSIC["I2"]], Region.rectangle(2, 2))
    sols = solve(inst, backend="xcover").option_solutions
    assert len(sols) == 2 and inst.canonical_key(sols[0]) == inst.canonical_key(sols[1])
    asym = build_instance([CLASSIC["L3"], CLASSIC["I3"]], Region.from_ascii("##\n##\n#.\n#.\n"))
    assert asym.option_perms == []


def test_not_applicable_when_names_repeat():
    # Two copies of I2 in a 2x2 square: no piece with a unique name, so no decomposition.
    inst = build_instance([CLASSIC["I2"], CLASSIC["I2"]], Region.rectangle(2, 2))
    assert orbit_plan(inst) is None
    r = solve(inst, backend="dlx-symmetry")
    assert (r.count, r.count_reduced, r.stats["symmetry"]) == (2, 1, "not applicable")


def test_not_applicable_with_optional_pieces_or_a_limit():
    inst = build_instance(PENTS.pieces[:4], Region.rectangle(2, 5), optional_pieces=True)
    assert orbit_plan(inst) is None
    assert solve(inst, backend="dlx-symmetry").stats["symmetry"] == "not applicable"
    full = build_instance(PENTS.pieces, Region.rectangle(3, 20))
    assert solve(full, backend="dlx-symmetry", limit=2).stats["symmetry"] == "limit > 1"


@pytest.mark.parametrize("name", ORBIT_NAMES)
@pytest.mark.parametrize("shape, names, orbit_sizes", [
    # O4 in 3x4: 6 placements, orbits of size 4 and 2 (the two centred ones are
    # fixed by the left-right mirror); I2 is used twice (copies not told apart, UP-5).
    ((3, 4), ["O4", "L4", "I2", "I2"], [2, 4]),
    # 4x4 square: the full group D4 of order 8; L4 used twice.
    ((4, 4), ["O4", "I4", "L4", "L4"], [4]),
])
def test_stabilisers_and_copies(name, shape, names, orbit_sizes):
    inst = build_instance([CLASSIC[n] for n in names], Region.rectangle(*shape))
    plan = orbit_plan(inst)
    assert sorted(set(plan.weight[plan.weight > 0].tolist())) == orbit_sizes
    expected = solve(inst, backend="xcover", keep=0)  # no symmetry used: the reference
    assert expected.count > 0
    got = solve(inst, backend=name)
    # the bitboard kernel counts a piece type's copies with its memo, the reduced count from the fixed points
    way = "fixed points" if name == "bitboard-symmetry" else "orbits"
    assert (got.count, got.count_reduced, got.stats["symmetry"]) == (expected.count, expected.count_reduced, way)


@pytest.mark.parametrize("shape, names", [((3, 20), None), ((3, 4), ["O4", "L4", "I2", "I2"]),
                                          ((4, 4), ["O4", "I4", "L4", "L4"])])
def test_every_solution_is_handed_on(shape, names):
    # The decomposition searches representatives only, but keeps and hands on every
    # solution (images under the symmetries): the same set as the plain search.
    pieces = PENTS.pieces if names is None else [CLASSIC[n] for n in names]
    inst = build_instance(pieces, Region.rectangle(*shape))
    expected = {tuple(sorted(s)) for s in solve(inst, backend="xcover", keep=None).option_solutions}
    for name in ORBIT_NAMES:
        seen = []
        got = solve(inst, backend=name, keep=None, on_solution=lambda s: seen.append(tuple(s)) is None)
        assert len(got.option_solutions) == got.count == len(seen) == len(expected)
        assert {tuple(sorted(s)) for s in got.option_solutions} == set(seen) == expected
        kept = solve(inst, backend=name, keep=3)
        assert len(kept.option_solutions) == 3 and kept.count == len(expected)


@pytest.mark.parametrize("stop_after", [1, 2, 3])
def test_a_search_stopped_by_on_solution_counts_the_solutions_handed_on(stop_after):
    # L4 and I2 in 2x3: 4 tilings (the L in either orientation of each of the 2 ends, the domino in the
    # corner it leaves), one orbit under the rectangle's 4 symmetries. A callback that stops after n of
    # them leaves n solutions found on every backend, as on the plain search; once the decomposition
    # counted the whole orbit of the representative it stopped in (4, with 1 handed on).
    inst = build_instance([CLASSIC["L4"], CLASSIC["I2"]], Region.rectangle(2, 3))
    assert solve(inst, backend="xcover").count == 4
    for name in solver_names():
        seen = []
        got = solve(inst, backend=name, keep=None, on_solution=lambda s: seen.append(tuple(s)) or len(seen) < stop_after)
        assert (got.count, len(seen), len(got.option_solutions), got.complete) == (stop_after,) * 3 + (False,), name


def test_first_solution_on_the_decomposition_counts_one():
    inst = build_instance(PENTS.pieces, Region.rectangle(6, 10))
    r = solve(inst, backend="dlx-symmetry", limit=1)
    assert (r.count, r.complete, len(r.solutions), r.stats["symmetry"]) == (1, False, 1, "orbits")
    assert np.isin(r.option_solutions[0], np.arange(inst.n_options)).all()


def _shifted(region: Region, offset) -> Region:
    return Region(tuple(tuple(a + b for a, b in zip(c, offset)) for c in region.cells), grid=region.grid)


def _pieces(grid: str, size: int, names=None):
    from ubongo_cp.grids import get_grid
    from ubongo_cp.pieces import Piece
    from ubongo_cp.polyforms import free_polyforms

    if names is not None:
        return [CLASSIC[n] for n in names]
    return [Piece(f"P{i}", s, get_grid(grid)) for i, s in enumerate(free_polyforms(grid, size))]


@pytest.mark.parametrize("grid, box, pieces", [
    ("square", (2, 4), ["I2"] * 4),            # 5 tilings, 4 up to the rectangle's symmetries (hand count)
    ("square", (3, 4), ["O4", "L4", "I2", "I2"]),
    ("hex", (2, 4), ("hex", 2)),               # 4 dihexes: a parallelogram's half-turn
    ("triangle", (2, 3), ("triangle", 2)),
])
def test_a_region_anywhere_counts_as_in_normal_position(grid, box, pieces):
    # The symmetries of a region map it onto itself where it lies: counts and counts up to symmetry
    # (UP-5) do not depend on where the region's cells are, on every solver that uses symmetries.
    home = Region.box(*box, grid=grid)
    if isinstance(pieces, list):
        made = _pieces(grid, 0, pieces)
    else:   # every free polyform of the size, as many copies of each as fill the region
        shapes = _pieces(*pieces)
        made = [p for p in shapes for _ in range(home.area // (pieces[1] * len(shapes)))]
    inst = build_instance(made, home)
    reference = solve(inst, backend="xcover", keep=0)
    assert reference.count > 0 and len(inst.region_symmetries) > 1
    if (grid, box) == ("square", (2, 4)):
        assert (reference.count, reference.count_reduced) == (5, 4)
    g = home.grid
    for offset in [(3, 5), (-2, 1), (4, -6), (-1, -1)]:
        if not g.offset_ok(offset):
            continue
        moved = build_instance(made, _shifted(home, offset))
        assert moved.option_perm_lists == moved._option_perm_lists_by_cells()
        assert all(sorted(p) == list(range(moved.n_cells)) for p in moved.cell_perms)
        for name in ["xcover", *ORBIT_NAMES]:
            got = solve(moved, backend=name, keep=0)
            assert (got.count, got.count_reduced) == (reference.count, reference.count_reduced), (name, offset)


@pytest.mark.parametrize("backend", ["bitboard-symmetry", "dlx", "zdd"])
def test_a_piece_that_fits_nowhere_and_may_stay_out_keeps_the_symmetries(backend):
    # Horizontal dominoes (fixed) in 2x4, one to four of them, up to 2 cells empty: 7 covers (hand-counted: both
    # rows full, or one full and a domino at one of 3 places in the other), 3 up to the rectangle's 4
    # symmetries (both full; a row full and the other's domino at an end, 4 images; in the middle, 2). A fixed
    # J tetromino 3 rows tall, allowed 0 to 2 times, fits nowhere: the same covers, and the same classes (its
    # mirror image is no piece of the set, which took the mirrors away).
    from ubongo_cp.pieces import Piece

    h = Piece("H", ((0, 0), (0, 1)))
    j = Piece("J", ((0, 1), (1, 1), (2, 0), (2, 1)))
    for pieces, ranges in (([h], {"H": (1, 4)}), ([h, j], {"H": (1, 4), "J": (0, 2)})):
        inst = build_instance(pieces, Region.rectangle(2, 4), mode="fixed", ranges=ranges, max_empty=2)
        got = solve(inst, backend=backend, keep=0)
        assert (got.count, got.count_reduced, len(inst.region_symmetries)) == (7, 3, 4), (backend, ranges)


def test_a_plans_cell_levels_are_the_same_from_the_options_cell_masks():
    # Where every option's cell mask is made at once (in C, at most 64 cells), a cell level takes the cell's
    # options from the masks; else from the instance's option lists per item: the same plan, branch by branch
    # (two sets of tetrominoes in 8x5: a cell level below three piece levels; 4 T and 5 O tetrominoes in 6x6:
    # three cell levels).
    from ubongo_cp.solvers import orbits

    classic = load_pieces("classic")
    two_sets = classic.select("I4,I4,O4,O4,T4,T4,S4,S4,L4,L4".split(","))
    for pieces, region in ((two_sets, Region.rectangle(8, 5)),
                           ([classic["T4"]] * 4 + [classic["O4"]] * 5, Region.rectangle(6, 6))):
        fast = symmetry_plan(build_instance(pieces, region))
        with pytest.MonkeyPatch.context() as m:
            m.setattr(orbits, "c_placements", lambda: None)
            plain = symmetry_plan(build_instance(pieces, region))
        assert fast is not None and plain is not None and fast.levels.get("cell", 0) > 0
        assert fast.branches == plain.branches and fast.levels == plain.levels


@settings(max_examples=60, deadline=None)
@given(grid=st.sampled_from(["square", "hex"]), kind=st.integers(0, 1), size=st.integers(1, 3),
       move=st.tuples(st.integers(-6, 6), st.integers(-6, 6)), hole=st.integers(0, 1000), spare=st.integers(0, 1000),
       keep=st.integers(1, 12))
def test_item_maps_in_the_box_equal_each_cells_image_on_moved_symmetric_regions(grid, kind, size, move, hole,
                                                                                   spare, keep):
    # The item maps by keys in the region's box against each cell's image looked up (map_onto), on regions away
    # from the origin (negative coordinates too) with the most symmetries: hexagons (12, most of them maps that
    # mix the axes), triangles of hexagons (6), squares and rectangles; a cell's orbit under some of them
    # removed (a hole), another's made optional.
    from ubongo_cp.grids import get_grid
    from ubongo_cp.pieces import Piece

    g = get_grid(grid)
    if grid == "hex":
        cells = [(x, y) for x in range(-size, size + 1) for y in range(-size, size + 1)
                 if (abs(x + y) <= size if kind == 0 else x >= 0 and y >= 0 and x + y <= size)]
    else:
        cells = [(r, c) for r in range(size + 1) for c in range(size + 1 + kind)]
    cells = sorted((x + move[0], y + move[1]) for x, y in cells)

    def orbit(of: list, i: int) -> set:
        group = g.symmetry_group(of)
        return {g.map_onto(of, k)[i % len(of)] for k in group[:keep]}

    if len(cells) > 6:
        cells = sorted(set(cells) - orbit(cells, hole))
    optional = sorted(orbit(cells, spare)) if len(cells) > 6 else []
    cells = [c for c in cells if c not in optional]
    one = Piece("m", g.origins[:1], g)
    two = Piece("d", g.normalize([g.origins[0], g.neighbours(g.origins[0])[0]]), g)
    inst = build_instance([two] * (len(cells) // 2) + [one] * (len(cells) % 2),
                          Region(tuple(cells), grid=g, optional=tuple(optional)))
    assert inst._item_maps == inst._item_maps_by_cells()
    assert len(inst._item_maps) == len(inst.region_symmetries) - 1
    assert len(inst._item_cell) == len(cells) + len(optional)
    for item_map in inst._item_maps:   # each a permutation of the cell items (the others' -1)
        assert sorted(i for i in item_map if i >= 0) == sorted(inst._item_cell)
    if inst.n_options:
        assert inst.option_perm_lists == inst._option_perm_lists_by_cells()
