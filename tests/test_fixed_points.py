"""The count up to symmetry from each symmetry's fixed points (ubongo_cp.solvers.fixed, UP-5), against plain searches."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, event, given, settings, strategies as st

from ubongo_cp import cover
from ubongo_cp.cover import build_instance
from ubongo_cp.geometry import transform
from ubongo_cp.pieces import Piece, Region, load_pieces
from ubongo_cp.solvers import solve
from ubongo_cp.solvers.bitboard import KERNEL_BUILT
from ubongo_cp.solvers.fixed import applies, fixed_point_matrices

pytestmark = pytest.mark.skipif(not KERNEL_BUILT, reason="the C kernel is not built")

CLASSIC = load_pieces("classic")
PENTS = load_pieces("pentominoes")


@pytest.mark.parametrize("name, copies, shape, count, reduced", [
    # published: Knuth's DLX3 and SSMCC count the same (benchmarks/bench_copies.py); 6x6 and 8x8 dominoes:
    # OEIS A004003 (6,728 and 12,988,816), up to the square's symmetries A099390 ... (930 and 1,629,189)
    ("L5", 20, (10, 10), 3952, 523),
    ("P5", 20, (5, 20), 59646, 15051),
    ("I2", 18, (6, 6), 6728, 930),
    ("I2", 32, (8, 8), 12988816, 1629189),
])
def test_published_counts_of_identical_pieces(name, copies, shape, count, reduced):
    inst = build_instance([CLASSIC[name]] * copies, Region.rectangle(*shape))
    got = solve(inst, backend="bitboard-symmetry", keep=0)
    assert (got.count, got.count_reduced, got.stats["symmetry"]) == (count, reduced, "fixed points")


def test_the_fixed_points_of_each_symmetry():
    # 20 L pentominoes in 10x10: the square's 7 symmetries besides the identity fix 8 (each quarter turn),
    # 152 (the half turn), 32 (each diagonal mirror: an L on the diagonal is not fixed by it, so its
    # placements pair off) and none (the two axis mirrors); Burnside: (3952 + 232) / 8 = 523.
    inst = build_instance([CLASSIC["L5"]] * 20, Region.rectangle(10, 10))
    fixed = sorted(solve(m, backend="bitboard", keep=0).count for m in fixed_point_matrices(inst))
    assert fixed == [0, 0, 8, 8, 32, 32, 152]
    assert (3952 + sum(fixed)) // 8 == 523 and (3952 + sum(fixed)) % 8 == 0


def test_applies_to_one_type_with_copies_only():
    region = Region.rectangle(4, 5)
    assert applies(build_instance([CLASSIC["I2"]] * 10, region))
    assert applies(build_instance([CLASSIC["I2"]] * 6 + [CLASSIC["O4"], CLASSIC["I4"]], region))
    assert not applies(build_instance([CLASSIC["I2"]] * 4 + [CLASSIC["L3"]] * 4, region))   # two types with copies
    assert not applies(build_instance(PENTS.select(["L", "P", "Y", "N"]), region))      # no copies
    assert not applies(build_instance([CLASSIC["I2"]] * 10, region, optional_pieces=True))


def test_a_time_limit_leaves_a_lower_bound():
    inst = build_instance([CLASSIC["I2"]] * 50, Region.rectangle(10, 10))
    got = solve(inst, backend="bitboard-symmetry", keep=0, time_limit=0.05)
    # the whole count (258,584,046,368, OEIS A004003) may end within the limit, its fixed points not
    assert not got.complete and got.count_reduced is None and got.count <= 258584046368


def test_kept_solutions_are_solutions():
    inst = build_instance([CLASSIC["L5"]] * 20, Region.rectangle(10, 10))
    got = solve(inst, backend="bitboard-symmetry", keep=5)
    assert got.stats["symmetry"] == "fixed points" and len(got.option_solutions) == 5
    assert len({tuple(s) for s in got.option_solutions}) == 5
    for s in got.option_solutions:
        assert sorted(c for o in s for c in inst.table.indices[inst.table.indptr[o]:inst.table.indptr[o + 1]]
                      if c < inst.n_cells) == list(range(inst.n_cells))


def _rows(matrices) -> list:
    return [(m.item_names, m.n_primary, m.option_labels, m.table.indptr.tolist(), m.table.indices.tolist())
            for m in matrices]


def test_fixed_point_orbits_in_c_by_hand_and_refusing_bad_buffers():
    # Two options of one type on two cells (0 covers cell 0, 1 covers cell 1), a symmetry swapping them: their
    # orbit is one option covering both cells; with a type of one copy (its item 2) it would place that type
    # twice (no option); under the identity each option is an orbit of its own (the type's item after its cell).
    from array import array

    native = cover._c_fill()
    if native is None:
        pytest.skip("the C extension is not built")
    indptr, indices, types = array("I", [0, 1, 2]), array("I", [0, 1]), array("i", [0, 0])
    swap, same = array("i", [1, 0]), array("i", [0, 1])
    as_ints = [(array("I", p).tolist(), array("I", i).tolist()) for p, i in
               native.orbits(indptr, indices, types, array("i", [-1]), swap + same, 2)]
    assert as_ints == [([0, 2], [0, 1]), ([0, 1, 2], [0, 1])]
    as_ints = [(array("I", p).tolist(), array("I", i).tolist()) for p, i in
               native.orbits(indptr, indices, types, array("i", [2]), swap + same, 2)]
    assert as_ints == [([0], []), ([0, 2, 4], [0, 2, 1, 2])]
    assert native.orbits(indptr, indices, types, array("i", [-1]), array("i"), 2) == []   # no permutation
    bad = [(indptr, indices, types, array("i", [-1]), array("i", [2, 0]), 2),     # an image beyond the options
           (indptr, indices, types, array("i", [-1]), array("i", [1]), 2),        # a permutation cut short
           (indptr, indices, array("i", [0, 1]), array("i", [-1]), swap, 2),      # a type beyond the types
           (indptr, indices, types, array("i", [-2]), swap, 2),                   # a type's item below -1
           (array("I", [0, 1, 5]), indices, types, array("i", [-1]), swap, 2),    # items beyond indices
           (indptr, indices, types, array("i", [-1]), swap, -1)]
    for args in bad:
        with pytest.raises(ValueError, match="^orbits: "):
            native.orbits(*args)


def _mirror(piece: Piece) -> Piece:
    return Piece(piece.name + "'", transform(piece.cells, (1, 0, 0, -1)))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fixed_points_match_the_plain_search(data):
    # Random instances with one type of copies and some single pieces, on symmetric regions (rectangles, and
    # rectangles with a symmetric hole), free and one-sided (a chiral piece and its mirror image as two
    # types, which a mirror swaps): the count and the count up to symmetry of the plain search (xcover,
    # each solution tested against the symmetries) and of the orbit decomposition.
    mode = data.draw(st.sampled_from(["free", "one-sided"]))
    multi = data.draw(st.sampled_from(["I2", "L3", "I3", "O4", "T4", "L4"]))
    h, w = data.draw(st.sampled_from([(2, 6), (3, 4), (4, 4), (3, 6), (4, 5), (4, 6), (5, 5)]))
    cells = [(r, c) for r in range(h) for c in range(w)]
    if data.draw(st.booleans()) and h >= 3 and w >= 3:   # a hole at the centre, kept symmetric
        cells = [(r, c) for r, c in cells if not ((h - 1) / 2 - 0.6 < r < (h - 1) / 2 + 0.6 and
                                                   (w - 1) / 2 - 0.6 < c < (w - 1) / 2 + 0.6)]
    region = Region(tuple(cells))
    singles: list[Piece] = []
    if data.draw(st.booleans()):
        singles.append(CLASSIC["O4"] if multi != "O4" else CLASSIC["I2"])
    if mode == "one-sided" and data.draw(st.booleans()):
        chiral = CLASSIC["L4"] if multi != "L4" else CLASSIC["S4"]   # its mirror image another one-sided piece
        singles += [chiral, _mirror(chiral)]
    size = CLASSIC[multi].size
    rest = region.area - sum(p.size for p in singles)
    if rest < 2 * size or rest % size:
        return   # not one type with copies
    inst = build_instance([CLASSIC[multi]] * (rest // size) + singles, region, mode=mode)
    assert applies(inst)
    # the matrices by C (each permutation's orbits followed there) are those of the Python loop
    plain = build_instance([CLASSIC[multi]] * (rest // size) + singles, region, mode=mode)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(cover, "_c_fill", lambda: None)
        by_python = _rows(fixed_point_matrices(plain))
    assert _rows(fixed_point_matrices(inst)) == by_python
    want = solve(inst, backend="xcover", keep=0)
    got = solve(inst, backend="bitboard-symmetry", keep=0)
    plan = solve(inst, backend="dlx-symmetry", keep=0)
    assert (got.count, got.count_reduced) == (want.count, want.count_reduced) == (plan.count, plan.count_reduced)
    if want.count and len(inst.region_symmetries) > 1:
        assert got.stats["symmetry"] == "fixed points"
    event(f"symmetry: {got.stats.get('symmetry')}")
