"""Orion Duel geometry: axial hexes, the 85-hex board and the tile set (RULES.md §4)."""

import itertools

import pytest

from ubongo_cp.errors import InputError
from ubongo_cp.games.orion.board import Board, default_board
from ubongo_cp.games.orion.hexgrid import (DIRECTIONS, distance, hexagon, neighbours, reflect,
                                           rotate, transform)
from ubongo_cp.games.orion.tiles import OPP, OWN, Tile, default_tiles


def test_neighbours_and_distance_hand_cases():
    assert set(neighbours((0, 0))) == {(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)}
    assert all(distance((2, -1), n) == 1 for n in neighbours((2, -1)))
    assert distance((0, 0), (3, -3)) == 3      # straight along one axis
    assert distance((0, 0), (2, 1)) == 3       # |2| + |1| + |-3| = 6, halved
    assert distance((-2, 4), (1, -1)) == 5
    assert distance((1, 1), (1, 1)) == 0


def test_rotations_cycle_the_six_directions_and_keep_distances():
    orbit = [rotate((1, 0), k) for k in range(6)]
    assert sorted(orbit) == sorted(DIRECTIONS)
    assert rotate((2, -1), 6) == (2, -1)
    pts = [(0, 0), (2, -1), (-3, 1), (1, 3)]
    for k, flip in itertools.product(range(6), (False, True)):
        moved = [transform(p, k, flip) for p in pts]
        for (a, b), (c, d) in zip(itertools.combinations(pts, 2), itertools.combinations(moved, 2)):
            assert distance(a, b) == distance(c, d)


def test_reflection_is_an_involution_and_not_a_rotation():
    assert reflect(reflect((3, -2))) == (3, -2)
    # A chiral 3-hex shape: its mirror image is no rotation of it.
    shape = {(0, 0), (1, 0), (1, 1), (2, 1)}
    mirror = {reflect(h) for h in shape}

    def norm(s):
        q0 = min(s, key=lambda h: (h[1], h[0]))
        return frozenset((q - q0[0], r - q0[1]) for q, r in s)
    assert all(norm({rotate(h, k) for h in shape}) != norm(mirror) for k in range(6))


def test_default_board_has_85_hexes_and_six_sides_of_four():
    b = default_board()
    assert len(hexagon(5)) == 91 and b.num_hexes == 85
    assert [len(s) for _, s in b.sides] == [4] * 6
    edge = [h for _, s in b.sides for h in s]
    assert len(set(edge)) == 24
    assert all(max(abs(q), abs(r), abs(q + r)) == 5 for q, r in edge)
    # the corners are gone
    assert not {(5, 0), (0, 5), (-5, 5), (-5, 0), (0, -5), (5, -5)} & set(b.hexes)
    # opposite sides are point reflections of each other
    sides = dict(b.sides)
    for a, c in b.pairs:
        assert {(-q, -r) for q, r in sides[a]} == set(sides[c])
    assert len(b.pairs) == 3 and {s for p in b.pairs for s in p} == set(sides)
    # every hex has 6 neighbours except edge hexes
    assert sum(len(n) == 6 for n in b.adjacency) == 85 - 24 - 6  # inner ring-5 neighbours of corners


def test_board_validation():
    with pytest.raises(InputError, match="off the board"):
        Board(hexes=((0, 0), (1, 0)), sides=(("A", ((5, 5),)),), pairs=())
    with pytest.raises(InputError, match="unknown side"):
        Board(hexes=((0, 0), (1, 0)), sides=(("A", ((0, 0),)),), pairs=(("A", "B"),))


def _is_line(hexes):
    a, m, b = hexes
    return (a[0] + b[0] == 2 * m[0]) and (a[1] + b[1] == 2 * m[1])


def test_tile_set_counts_and_shapes():
    ts = default_tiles()
    tiles = ts.tiles
    assert len(tiles) == 14
    assert sum(t.size for t in tiles) == 36
    assert sum(t.own_count for t in tiles) == 24
    assert sum(t.size - t.own_count for t in tiles) == 12
    kinds = {"single": 0, "own+own": 0, "own+opp": 0, "line": 0, "bent": 0, "triangle": 0}
    for t in tiles:
        hexes = [h for h, _ in t.cells]
        cols = [c for _, c in t.cells]
        if t.size == 1:
            kinds["single"] += 1
            assert cols == [OWN]
        elif t.size == 2:
            kinds["own+own" if cols.count(OWN) == 2 else "own+opp"] += 1
        else:
            assert cols.count(OPP) == 1
            opp = hexes[cols.index(OPP)]
            pair_d = [distance(a, b) for a, b in itertools.combinations(hexes, 2)]
            if max(pair_d) == 1:
                kinds["triangle"] += 1
            else:
                # the middle hex is the one adjacent to both others; opp hex at an end
                mid = next(h for h in hexes if all(distance(h, g) == 1 for g in hexes if g != h))
                ends = [h for h in hexes if h != mid]
                assert opp in ends
                kinds["line" if _is_line([ends[0], mid, ends[1]]) else "bent"] += 1
    assert kinds == {"single": 1, "own+own": 1, "own+opp": 3, "line": 3, "bent": 3, "triangle": 3}


def test_orientation_counts():
    ts = default_tiles()
    # hand count: single 1; own+own domino 3 axes; coloured domino 6; line 6;
    # bent 6 rotations x 2 mirror images (colour breaks the mirror symmetry); triangle 6
    assert [len(t.orientations(True)) for t in ts.tiles] == [1, 3, 6, 6, 6, 6, 6, 6, 12, 12, 12, 6, 6, 6]
    assert [len(t.orientations(False)) for t in ts.tiles] == [1, 3, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6]


def test_tile_validation():
    with pytest.raises(InputError, match="not connected"):
        Tile("bad", (((0, 0), OWN), ((2, 0), OPP)))
    with pytest.raises(InputError, match="first cell"):
        Tile("bad", (((1, 0), OWN),))
