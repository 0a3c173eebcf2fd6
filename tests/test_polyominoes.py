"""Redelmeier enumeration against the published counts (OEIS), sharding, canonical forms, boxes."""

from __future__ import annotations

import types
from collections import deque

import pytest

from ubongo_cp.errors import InputError
from ubongo_cp.geometry import normalize, orientations
from collections import Counter

from ubongo_cp.polyominoes import (
    Shard, canonical_form, count_holes, count_polyominoes, depth_counts, estimate_count, fits_box,
    fixed_polyominoes, free_polyominoes, sample_polyominoes, shard_depth, symmetry_order,
)

# OEIS A001168 (fixed), A000105 (free), A000104 (free without holes), n = 1..10.
FIXED = [1, 2, 6, 19, 63, 216, 760, 2725, 9910, 36446]
FREE = [1, 1, 2, 5, 12, 35, 108, 369, 1285, 4655]
FREE_NO_HOLES = [1, 1, 2, 5, 12, 35, 107, 363, 1248, 4460]


def count(it) -> int:
    return sum(1 for _ in it)


def test_fixed_polyominoes_a001168():
    assert [count(fixed_polyominoes(n, holes=True)) for n in range(1, 11)] == FIXED


def test_free_polyominoes_a000105_and_a000104():
    assert [count(free_polyominoes(n, holes=True)) for n in range(1, 11)] == FREE
    assert [count(free_polyominoes(n)) for n in range(1, 11)] == FREE_NO_HOLES


def test_compiled_counter_a001168_a000105_a000104():
    assert [count_polyominoes(n, holes=True, free=False) for n in range(1, 11)] == FIXED
    assert [count_polyominoes(n, holes=True) for n in range(1, 11)] == FREE
    assert [count_polyominoes(n) for n in range(1, 11)] == FREE_NO_HOLES


def _classes(shapes_with_data):
    return Counter((1 + max(r for r, _ in s), 1 + max(c for _, c in s), order, holes)
                   for s, order, holes in shapes_with_data)


@pytest.mark.parametrize("n, holes, box", [(9, True, None), (10, False, (4, 5)), (8, True, (3, 6))])
def test_compiled_counter_equals_the_generator_shard_by_shard(n, holes, box):
    shards = 7
    depth = shard_depth(n, shards, box=box)
    for i in range(shards):
        shard = Shard(i, shards, depth)
        expected = _classes(free_polyominoes(n, holes=holes, box=box, shard=shard, data=True))
        assert count_polyominoes(n, holes=holes, box=box, shard=shard, by_class=True) == dict(sorted(expected.items()))
        fixed = Counter((1 + max(r for r, _ in s), 1 + max(c for _, c in s), 0, count_holes(s))
                        for s in fixed_polyominoes(n, holes=holes, box=box, shard=shard))
        assert count_polyominoes(n, holes=holes, box=box, shard=shard, free=False, by_class=True) == \
            dict(sorted(fixed.items()))


def test_burnside_symmetry_orders_give_the_fixed_count():
    # a free polyomino with stabiliser of order s has 8 / s fixed images
    for n in (8, 10):
        items = list(free_polyominoes(n, holes=True, data=True))
        assert sum(8 // order for _, order, _ in items) == FIXED[n - 1]
        assert {order for _, order, _ in items} <= {1, 2, 4, 8}


def _holes_by_flood_fill(cells) -> int:
    cells = set(cells)
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    empty = {(r, c) for r in range(min(rows) - 1, max(rows) + 2) for c in range(min(cols) - 1, max(cols) + 2)} - cells
    components = 0
    while empty:
        components += 1
        todo = deque([empty.pop()])
        while todo:
            r, c = todo.popleft()
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in empty:
                    empty.remove(nb)
                    todo.append(nb)
    return components - 1  # one component is the outside


def test_leaf_data_agree_with_the_reference_functions():
    for n in (7, 9):
        for shape, order, holes in free_polyominoes(n, holes=True, data=True):
            assert shape == normalize(shape) == canonical_form(shape)
            assert 1 + max(r for r, _ in shape) <= 1 + max(c for _, c in shape)  # never taller than wide
            assert order == symmetry_order(shape) == 8 // len(orientations(shape))
            assert holes == count_holes(shape) == _holes_by_flood_fill(shape)


def test_every_free_polyomino_once_up_to_symmetry():
    seen = set()
    for shape in free_polyominoes(8, holes=True):
        key = min(orientations(shape))
        assert key not in seen
        seen.add(key)
    assert {min(orientations(s)) for s in fixed_polyominoes(8, holes=True)} == seen


@pytest.mark.parametrize("box", [(3, 4), (4, 3), (2, 5), (6, 6), (1, 9)])
def test_box_equals_filtering(box):
    n = 8
    everything = list(free_polyominoes(n, holes=True))
    assert set(free_polyominoes(n, holes=True, box=box)) == {s for s in everything if fits_box(s, box)}
    fixed = list(fixed_polyominoes(n, holes=True))
    assert set(fixed_polyominoes(n, holes=True, box=box)) == {s for s in fixed if fits_box(s, box, either=False)}
    # either orientation of the box counts for free polyominoes
    assert set(free_polyominoes(n, holes=True, box=box)) == set(free_polyominoes(n, holes=True, box=box[::-1]))


@pytest.mark.parametrize("n, holes, box, shards", [
    (n, holes, box, shards) for n, holes, box in [(9, False, None), (8, True, None), (10, False, (4, 5))]
    for shards in (1, 2, 3, 7, 40)] + [(5, True, None, 1000), (7, True, None, 300)])
def test_shards_partition_the_enumeration(n, holes, box, shards):
    whole = list(free_polyominoes(n, holes=holes, box=box, data=True))
    depth = shard_depth(n, shards, box=box)
    parts = [list(free_polyominoes(n, holes=holes, box=box, data=True, shard=Shard(i, shards, depth)))
             for i in range(shards)]
    union = [item for part in parts for item in part]
    assert len(union) == len(whole)            # disjoint ...
    assert sorted(union) == sorted(whole)       # ... and complete
    # a shard is a fixed part: computing it again gives the same items in the same order
    assert list(free_polyominoes(n, holes=holes, box=box, data=True, shard=Shard(shards - 1, shards, depth))) \
        == parts[-1]


@pytest.mark.parametrize("depth", [1, 2, 5, 9, 30])
def test_shards_at_any_depth(depth):
    whole = sorted(fixed_polyominoes(9))
    parts = [list(fixed_polyominoes(9, shard=Shard(i, 5, depth))) for i in range(5)]
    assert sorted(s for p in parts for s in p) == whole


def test_shard_depth_grows_with_the_shard_count():
    assert depth_counts(6) == FIXED[:6]
    depths = [shard_depth(12, s) for s in (1, 10, 100, 1000)]
    assert depths == sorted(depths) and depths[0] < depths[-1] <= 12
    for s in (1, 10, 100):
        d = shard_depth(10, s)
        assert depth_counts(d)[-1] >= 4 * s and (d == 1 or depth_counts(d - 1)[-1] < 4 * s)


def test_streamed_not_stored():
    gen = free_polyominoes(30)  # far too many to store: the first ones still come at once
    assert isinstance(gen, types.GeneratorType)
    first = [next(gen) for _ in range(3)]
    assert all(len(s) == 30 for s in first)


def test_enumeration_is_deterministic():
    assert list(free_polyominoes(9, box=(4, 4))) == list(free_polyominoes(9, box=(4, 4)))


def test_estimates():
    assert estimate_count(6, holes=True) == 35.0  # small trees are counted
    assert 0.7 * 16094 < estimate_count(11) < 1.3 * 16094  # A000104
    assert 0.7 * FIXED[9] < estimate_count(10, holes=True, free=False) < 1.3 * FIXED[9]
    assert estimate_count(12, seed=3) == estimate_count(12, seed=3)


def test_weighted_sample_is_spread_over_every_polyomino():
    everything = set(free_polyominoes(9))
    sample = sample_polyominoes(9, 3000, seed=2)
    assert {s for s, _ in sample} <= everything and len({s for s, _ in sample}) > 150
    total = sum(w for _, w in sample)
    assert 0.8 * 1248 < total < 1.2 * 1248  # the weights estimate the count (A000104)
    # and weighted means estimate means over all regions, e.g. the share of 2-row regions
    two_rows = sum(1 for s in everything if s[-1][0] == 1) / len(everything)
    assert abs(sum(w for s, w in sample if s[-1][0] == 1) / total - two_rows) < 0.05
    assert sample_polyominoes(5, 200) == [(s, 1.0) for s in free_polyominoes(5)]  # small trees: all, weight 1


def test_bad_arguments():
    with pytest.raises(InputError, match="at least 1 cell"):
        next(free_polyominoes(0))
    with pytest.raises(InputError, match="no cells"):
        next(free_polyominoes(4, box=(0, 3)))
    with pytest.raises(InputError, match="not in 0..2"):
        Shard(3, 3, 2)
    with pytest.raises(InputError, match="at least 1"):
        Shard(0, 0, 2)
    with pytest.raises(InputError):
        count_holes([])
    assert list(free_polyominoes(5, box=(1, 4))) == []  # nothing fits: an empty enumeration
