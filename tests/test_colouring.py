"""Colouring proofs before search (issue 13): each one a proof, checked against full search.

Published facts (Golomb, *Polyominoes*, 1994, ch. 2-3): the five free
tetrominoes tile no rectangle, nor do three copies of each tile 6x10; the 35
hexominoes tile no rectangle (here 14x15); the seven one-sided tetrominoes
do not tile 4x7. Each is settled by the checkerboard colouring, without search.
"""

from __future__ import annotations

from itertools import product

from hypothesis import HealthCheck, example, given, settings, strategies as st

from ubongo_cp.colouring import COLOURINGS, achievable_imbalances, colouring_obstruction, reachable_sums
from ubongo_cp.cover import build_instance
from ubongo_cp.pieces import Piece, Region, load_pieces
from ubongo_cp.polyominoes import free_polyominoes
from ubongo_cp.solvers import get_solver, solve

TETROMINOES = load_pieces("tetrominoes").pieces  # I O T S L
Z4 = Piece("Z", ((0, 0), (0, 1), (1, 1), (1, 2)))
J4 = Piece("J", ((0, 1), (1, 1), (2, 0), (2, 1)))
ONE_SIDED_TETROMINOES = (*TETROMINOES, Z4, J4)


def _settled_without_search(result) -> str:
    assert result.count == 0 and result.complete and "nodes" not in result.stats
    return result.stats["reason"]


def test_one_sided_tetrominoes_on_4x7_settled_without_search():
    result = solve(build_instance(ONE_SIDED_TETROMINOES, Region.rectangle(4, 7), mode="one-sided"))
    assert _settled_without_search(result).startswith("checkerboard colouring: the region has 14 black and 14 white")


def test_three_sets_of_tetrominoes_on_6x10():
    reason = _settled_without_search(solve(build_instance(TETROMINOES * 3, Region.rectangle(6, 10))))
    assert reason.endswith("black minus white = one of -6, -2, 2, 6 (Golomb)")


def test_35_hexominoes_on_14x15():
    hexominoes = [Piece(f"H{i}", cells) for i, cells in enumerate(free_polyominoes(6))]
    assert len(hexominoes) == 35  # OEIS A000105
    reason = _settled_without_search(solve(build_instance(hexominoes, Region.rectangle(14, 15))))
    assert reason.startswith("checkerboard colouring: the region has 105 black and 105 white cells")


def test_achievable_imbalances_by_hand():
    I4, O4, T4 = TETROMINOES[:3]
    assert achievable_imbalances(T4) == {-2, 2}                       # 3 of one colour, 1 of the other
    assert achievable_imbalances(I4, "column-stripe") == {-4, 0, 4}   # upright: one column; flat: 2 and 2
    assert achievable_imbalances(I4, "column-stripe", "fixed") == {-4, 4}  # as drawn: upright only
    assert achievable_imbalances(O4, "row-stripe") == {0}
    assert reachable_sums([frozenset({-4, 0, 4}), frozenset({-2, 2})]) == {-6, -2, 2, 6}


def test_straight_piece_stopped_by_stripes_not_checkerboard():
    # 4x4 with an upright I4 and six flat dominoes (fixed orientations): every row keeps an odd
    # number of cells for the dominoes. The checkerboard sees nothing (all pieces balanced); column
    # stripes see the I4's 4 cells in one column against a balanced region.
    domino = Piece("D", ((0, 0), (0, 1)))
    upright = Piece("I", ((0, 0), (1, 0), (2, 0), (3, 0)))
    pieces, region = [upright] + [domino] * 6, Region.rectangle(4, 4)
    assert 0 in reachable_sums([achievable_imbalances(p, "checkerboard", "fixed") for p in pieces])
    reason = colouring_obstruction(pieces, region, "fixed")
    assert reason == ("column-stripe colouring: the region has 8 even-column and 8 odd-column cells, but the "
                      "pieces always cover even-column minus odd-column = one of -4, 4 (Golomb)")
    assert colouring_obstruction(pieces, region, "free") is None  # a flat I4 fits: 4 rows of I4/D D


# ------------------------------------------------------------------ soundness
POOL = [Piece("D", ((0, 0), (0, 1))), Piece("I3", ((0, 0), (0, 1), (0, 2))), Piece("L3", ((0, 0), (1, 0), (1, 1))),
        *TETROMINOES, Z4, J4, Piece("X", ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1)))]


@st.composite
def instances(draw):
    names = draw(st.lists(st.sampled_from(range(len(POOL))), min_size=1, max_size=5))
    pieces = sorted((POOL[i] for i in names), key=lambda p: p.name)
    area = sum(p.size for p in pieces)
    height = draw(st.integers(1, 5))
    width = draw(st.integers(-(-area // height), max(-(-area // height), 6)))
    box = [(r, c) for r in range(height) for c in range(width)]
    cells = draw(st.permutations(box))[:area]
    mode = draw(st.sampled_from(["free", "one-sided", "fixed"]))
    return pieces, Region(tuple(sorted(cells))) if _normal(cells) else None, mode


def _normal(cells) -> bool:
    return min(r for r, _ in cells) == 0 and min(c for _, c in cells) == 0


def _exact_count(instance) -> int:
    """Full search on the DLX backend itself: no pre-check of the driver is involved."""
    found = []
    exhausted, _ = get_solver("dlx").make().run(instance, lambda o: found.append(1) or True, time_limit=None,
                                                first_only=False)
    assert exhausted
    return len(found)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(instances())
@example(([TETROMINOES[2], TETROMINOES[0]], Region.rectangle(2, 4), "free"))
@example((list(ONE_SIDED_TETROMINOES), Region.rectangle(4, 7), "one-sided"))
def test_every_precheck_agrees_with_full_search(case):
    pieces, region, mode = case
    if region is None:
        return
    instance = build_instance(pieces, region, mode=mode)
    count = _exact_count(instance)
    # Each colouring on its own is a proof: it never fires on an instance with a tiling.
    for name, table, _ in COLOURINGS:
        target = sum(table[r % 2][c % 2] for r, c in region.cells)
        if target not in reachable_sums([achievable_imbalances(p, name, mode) for p in pieces]):
            assert count == 0, (name, pieces, region.cells, mode)
    # So is every pre-check of the instance (area, a piece that fits nowhere, a cell no placement covers).
    if instance.precheck() is not None:
        assert count == 0
    assert solve(instance, backend="dlx").count == count


def test_residue_signatures_are_the_cells_counted_by_parity_on_every_grid():
    """A piece's residue signatures (counted in fields of one integer) against a plain count of its orientations'
    cells by coordinate parity, for every free polyform of up to 5 cells on each grid; a hexomino's, whose
    class counts need more bits than a pentomino's, too."""
    from itertools import product

    import pytest

    from ubongo_cp.grids import get_grid
    from ubongo_cp.polyforms import free_polyforms

    for name in ("square", "hex", "triangle", "cube"):
        grid = get_grid(name)
        period = (2,) * grid.dim
        classes = {key: i for i, key in enumerate(product(*map(range, period)))}
        shapes = [s for n in range(1, 6) for s in free_polyforms(name, n)]
        shapes += free_polyforms(name, 6)[:3]
        for shape in shapes:
            orientations = grid.orientations(shape)
            want = set()
            for image in orientations:
                counts = [0] * len(classes)
                for cell in image:
                    counts[classes[tuple(x % 2 for x in cell)]] += 1
                want.add(tuple(counts))
            assert grid.residue_signatures(orientations, period) == want, (name, shape)
    with pytest.raises(ValueError, match="period 2"):
        get_grid("square").residue_signatures([((0, 0),)], (3, 2))


def test_orientation_signatures_give_the_weights_of_the_orientations_cells():
    """The signatures made from a shape's residue counts and the maps' permutations of the classes (squares,
    hexagons, cubes) give, under every colouring and every mode, the weights of the orientations' own cells in
    every translation class; on triangles (not every translation keeps the grid) they are the orientations'
    own signatures. Every free polyform of up to 5 cells on each grid, and a hexomino's."""
    from ubongo_cp.grids import get_grid
    from ubongo_cp.polyforms import free_polyforms

    for name in ("square", "hex", "triangle", "cube"):
        grid = get_grid(name)
        shapes = [s for n in range(1, 6) for s in free_polyforms(name, n)] + free_polyforms(name, 6)[:3]
        for shape in shapes:
            for mode in grid.modes:
                for colouring in grid.colourings:
                    fast = grid.orientation_signatures(shape, mode, colouring.period)
                    own = grid.residue_signatures(grid.orientations(shape, mode), colouring.period)
                    if name == "triangle":
                        assert fast == own
                    weights = grid.achievable_from(fast, colouring)
                    # each orientation placed in each translation class, weighed cell by cell
                    want = {sum(colouring.weight(tuple(a + b for a, b in zip(cell, offset))) for cell in image)
                            for image in grid.orientations(shape, mode)
                            for offset in product(range(2), repeat=grid.dim) if grid.offset_ok(offset)}
                    assert weights == want, (name, shape, mode, colouring.name)


def test_colouring_imbalances_are_the_signatures_weights_on_every_grid():
    """The weights summed from a shape's class counts and the grid's vectors per mode equal those of its
    orientations' signatures under every colouring (squares, hexagons, cubes; None on triangles), e.g. the T
    tetromino's checkerboard weights -2, 2 and column stripes -2, 0, 2; the class counts are the cells counted by
    the parities of their coordinates. Every free polyform of up to 5 cells on each grid."""
    from ubongo_cp.grids import get_grid
    from ubongo_cp.polyforms import free_polyforms

    square = get_grid("square")
    t4 = ((0, 0), (0, 1), (0, 2), (1, 1))
    assert square.class_counts(t4) == [2, 1, 0, 1]
    assert square.colouring_imbalances(t4, "free") == (frozenset({-2, 2}), frozenset({-2, 0, 2}),
                                                       frozenset({-2, 0, 2}))
    for name in ("square", "hex", "triangle", "cube"):
        grid = get_grid(name)
        for shape in (s for n in range(1, 6) for s in free_polyforms(name, n)):
            counts = [0] * (1 << grid.dim)
            for cell in shape:
                counts[int("".join(str(x & 1) for x in cell), 2)] += 1
            assert grid.class_counts(shape) == counts
            for mode in grid.modes:
                got = grid.colouring_imbalances(shape, mode)
                if name == "triangle":
                    assert got is None
                    continue
                want = tuple(grid.achievable_from(grid.orientation_signatures(shape, mode, c.period), c)
                             for c in grid.colourings)
                assert got == want, (name, shape, mode)
