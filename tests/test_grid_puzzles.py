"""Puzzles on hexagons, triangles and cubes through the whole path: shipped sets, published counts, a brute force.

Expected values come from outside the code: the OEIS numbers of each
shipped set, published tiling counts (Polyform Puzzler's, the Soma
cube's), and an independent brute-force tiler that shares nothing with
the exact-cover instance or the solvers (it places pieces cell by cell).
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from ubongo_cp.cover import build_instance, verify_solution
from ubongo_cp.errors import InputError
from ubongo_cp.grids import CUBE, GRIDS, HEX, SQUARE, TRIANGLE
from ubongo_cp.pieces import Piece, Region, load_pieces, parse_pieces, parse_region
from ubongo_cp.polyforms import free_polyforms
from ubongo_cp.solvers import SOLVERS, get_solver, solve, solver_names

NAMES = solver_names()


# ------------------------------------------------------------------ shipped sets
@pytest.mark.parametrize("name, grid, size, count, mode", [
    ("tetrahexes", HEX, 4, 7, "free"),        # OEIS A000228
    ("pentahexes", HEX, 5, 22, "free"),
    ("pentiamonds", TRIANGLE, 5, 4, "free"),  # OEIS A000577
    ("hexiamonds", TRIANGLE, 6, 12, "free"),
    ("tetracubes", CUBE, 4, 8, "free"),       # OEIS A000162: mirror images distinct
])
def test_shipped_sets_are_every_polyform_of_their_size(name, grid, size, count, mode):
    pieces = load_pieces(name)
    assert pieces.grid is grid and len(pieces) == count
    assert {p.size for p in pieces} == {size}
    assert sorted(grid.canonical(p.cells, mode) for p in pieces) == sorted(free_polyforms(grid, size, mode))


def test_soma_pieces_are_the_v_tricube_and_six_tetracubes():
    # Piet Hein's set: every tetracube but the straight I4 and the square O4, plus the V tricube.
    soma, tetra = load_pieces("soma"), load_pieces("tetracubes")
    assert soma.grid is CUBE and soma.names == ["V", "L", "T", "Z", "A", "B", "P"] and soma.total_area == 27
    canon = {p.name: CUBE.canonical(p.cells) for p in tetra}
    assert sorted(CUBE.canonical(p.cells) for p in soma if p.size == 4) == \
        sorted(c for n, c in canon.items() if n not in ("I4", "O4"))
    # A and B are mirror images of each other, and so one piece when mirror images are allowed.
    assert CUBE.canonical(soma["A"].cells) != CUBE.canonical(soma["B"].cells)
    assert CUBE.canonical(soma["A"].cells, "mirror") == CUBE.canonical(soma["B"].cells, "mirror")


# ---------------------------------------------------------- published tiling counts
@dataclass(frozen=True)
class Published:
    pieces: str
    grid: str
    box: tuple[int, ...]
    count: int
    reduced: int
    source: str
    runs_on: object  # SolverSpec -> bool

    def __str__(self) -> str:
        return f"{self.pieces}-{'x'.join(map(str, self.box))}"


def _fast(spec) -> bool:
    """The dancing-links family: thousands of tilings a second."""
    return spec.family == "dlx"


PUBLISHED = [
    # Polyform Puzzler (D. Goodger, puzzler.sourceforge.net; puzzler/puzzles/tetrahexes.py, Tetrahexes4x7):
    # the 7 tetrahexes fill the 4x7 parallelogram in 9 ways up to its half turn.
    Published("tetrahexes", "hex", (4, 7), 18, 9, "Polyform Puzzler Tetrahexes4x7", lambda s: True),
    # Polyform Puzzler (puzzler/puzzles/hexiamonds.py): the 12 hexiamonds fill no 3x12 parallelogram,
    # the 4x9 in 74 ways up to its half turn, the 6x6 rhombus in 156 up to its 4 symmetries (these two
    # on the dancing-links backends: CP-SAT enumerates their hundreds of tilings in minutes).
    Published("hexiamonds", "triangle", (3, 12), 0, 0, "Polyform Puzzler Hexiamonds3x12", lambda s: True),
    Published("hexiamonds", "triangle", (4, 9), 148, 74, "Polyform Puzzler Hexiamonds4x9", _fast),
    Published("hexiamonds", "triangle", (6, 6), 624, 156, "Polyform Puzzler Hexiamonds6x6", _fast),
    # The Soma cube: 240 solutions up to the cube's 48 symmetries, 11,520 in all (Conway and Guy, 1961;
    # Berlekamp, Conway and Guy, Winning Ways, ch. 24).
    Published("soma", "cube", (3, 3, 3), 11520, 240, "Winning Ways ch. 24", lambda s: _fast(s) and s.orbits),
]


@pytest.mark.parametrize("name, case", [(n, c) for c in PUBLISHED for n in NAMES if c.runs_on(SOLVERS[n])],
                         ids=str)
def test_published_counts(name, case):
    inst = build_instance(load_pieces(case.pieces).pieces, Region.box(*case.box, grid=case.grid))
    result = solve(inst, backend=name, keep=5)
    assert (result.count, result.count_reduced, result.complete) == (case.count, case.reduced, True), case.source
    for sol in result.solutions:
        assert verify_solution(inst.pieces, inst.region, sol) is None


# ------------------------------------------------------------- independent brute force
def _brute_count(pieces, region) -> int:
    """Tilings of ``region`` by all of ``pieces`` (free), by hand: cover the least empty cell, piece by piece.

    A placement is an orientation moved so that one of its cells lands on the
    least empty cell (a translation, kept only if the grid allows it); copies
    of one shape are not told apart (each multiset of placements once).
    """
    grid = region.grid
    cells = set(region.cells)
    shapes = {}
    for p in pieces:
        shapes.setdefault(p.cells, []).append(p)
    kinds = [(grid.orientations(cells_, "free"), len(copies)) for cells_, copies in shapes.items()]
    left = [n for _, n in kinds]
    empty = set(cells)
    found = 0

    def search():
        nonlocal found
        if not empty:
            found += 1
            return
        target = min(empty)
        for k, (orients, _) in enumerate(kinds):
            if not left[k]:
                continue
            for shape in orients:
                anchor = shape[0]           # the least cell of the shape covers the least empty cell
                offset = tuple(a - b for a, b in zip(target, anchor))
                if not grid.offset_ok(offset):
                    continue
                placed = [tuple(a + b for a, b in zip(c, offset)) for c in shape]
                if all(c in empty for c in placed):
                    empty.difference_update(placed)
                    left[k] -= 1
                    search()
                    left[k] += 1
                    empty.update(placed)

    search()
    return found


@st.composite
def small_instances(draw):
    """A few random pieces of 2 or 3 cells and a random connected region of their area (often untileable)."""
    grid = draw(st.sampled_from([HEX, TRIANGLE, CUBE]))
    size = draw(st.integers(2, 3))
    chosen = draw(st.lists(st.sampled_from(free_polyforms(grid, size)), min_size=1, max_size=3))
    pieces = [Piece(f"P{i}", s, grid) for i, s in enumerate(chosen)]
    cells = [draw(st.sampled_from(grid.origins))]
    while len(cells) < size * len(chosen):
        nb = draw(st.sampled_from(grid.neighbours(draw(st.sampled_from(cells)))))
        if nb not in cells:
            cells.append(nb)
    return pieces, Region(grid.normalize(cells), grid=grid)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_instances())
def test_every_backend_agrees_with_the_brute_force(case):
    pieces, region = case
    expected = _brute_count(pieces, region)
    inst = build_instance(pieces, region)
    for name in ("dlx", "xcover", "cpsat", "sat", "dlx-symmetry"):
        result = solve(inst, backend=name, limit=None)
        assert result.count == expected, (name, [p.cells for p in pieces], region.cells)


def test_hand_counted_small_tilings():
    # Two triangles make a rhombus: the 2-triangle bar tiles a 1x2 parallelogram (one rhombus) once.
    diamond = Piece("D", TRIANGLE.parse(["^v"]), TRIANGLE)
    assert solve(build_instance([diamond, diamond], Region.box(1, 2, grid="triangle"))).count == 1
    # The hexagon of 6 triangles: by 3 diamonds in exactly 2 ways (two "propellers"), 1 up to its symmetries.
    hexagon = Region(TRIANGLE.parse(["^v^", "v^v"]), grid=TRIANGLE)
    r = solve(build_instance([diamond] * 3, hexagon), limit=None)
    assert (r.count, r.count_reduced) == (2, 1)
    # A 2x2x2 cube by four dicubes: 9 tilings, the domino tilings of the 2x2x2 grid (OEIS A006253: 1, 2, 9,
    # 32, ...): all four parallel (3 ways), or two parallel pairs filling opposite halves (6 ways).
    dicube = Piece("D", ((0, 0, 0), (0, 0, 1)), CUBE)
    assert solve(build_instance([dicube] * 4, Region.box(2, 2, 2, grid="cube")), limit=None).count == 9
    # Three hexagons in a row, by a dihex and a monohex: 2 ways.
    two, one = Piece("H2", HEX.parse(["# #"]), HEX), Piece("H1", ((0, 0),), HEX)
    assert solve(build_instance([two, one], Region(HEX.parse(["# # #"]), grid=HEX)), limit=None).count == 2


# ----------------------------------------------------------------- files and grids
def test_files_say_their_grid_and_squares_stay_the_default():
    assert parse_pieces("I2\n##\n").grid is SQUARE
    ps = parse_pieces("% a comment first\n\ngrid: hex\n\nH3\n# # #\n")
    assert ps.grid is HEX and ps["H3"].cells == ((0, 0), (1, 0), (2, 0))
    region = parse_region("grid: cube\n##\n##\n---\n##\n##\n")
    assert region.grid is CUBE and region.area == 8 and region.size == (2, 2, 2)
    with pytest.raises(InputError, match="unknown grid 'octagon'") as err:
        parse_pieces("grid: octagon\nA\n#\n", path="p.txt")
    assert (err.value.path, err.value.line) == ("p.txt", 1)


def test_pieces_of_one_grid_refuse_a_region_of_another():
    hexes = load_pieces("tetrahexes").pieces
    with pytest.raises(InputError, match="pieces are on the hex grid .* region is on the square grid"):
        build_instance(hexes, Region.rectangle(4, 7))
    with pytest.raises(InputError, match="orientation mode 'mirror' does not exist on the hex grid"):
        build_instance(hexes, Region.box(4, 7, grid="hex"), mode="mirror")
    # the same pieces again after a build (whose checks and types are then kept): the same table; still refused
    first, again = (build_instance(hexes, Region.box(4, 7, grid="hex")) for _ in range(2))
    assert first.n_options > 0 and first.table == again.table and first.types == again.types
    with pytest.raises(InputError, match="pieces are on the hex grid .* region is on the square grid"):
        build_instance(hexes, Region.rectangle(4, 7))
    with pytest.raises(InputError, match="needs a region"):
        build_instance(hexes, "4x7")
    with pytest.raises(InputError, match=r"an orientation mode is a name, one of free, one-sided, fixed \(got \['free'\]\)"):
        build_instance(hexes, Region.box(4, 7, grid="hex"), mode=["free"])
    assert build_instance(hexes, Region.box(4, 7, grid="hex"), optional_pieces=1).optional_pieces == 1
    for not_a_count in (None, 0.0, False, ""):   # refused as on a first build, not taken for no empty cells
        with pytest.raises(InputError, match="max_empty must be a whole number"):
            build_instance(hexes, Region.box(4, 7, grid="hex"), max_empty=not_a_count)
    with pytest.raises(InputError, match="orientation mode 'mirror' does not exist on the hex grid"):
        build_instance(hexes, Region.box(4, 7, grid="hex"), mode="mirror")


def test_orientation_modes_per_grid():
    # Free hexagon pieces turn over: J4's mirror image fits where one-sided J4 does not.
    j4 = load_pieces("tetrahexes")["J4"]
    assert len(j4.orientations("free")) == 12 and len(j4.orientations("one-sided")) == 6
    # Cubes: free = the 24 rotations; "mirror" adds the reflections (A and B become one piece).
    a = load_pieces("soma")["A"]
    assert len(a.orientations("free")) == 12 and len(a.orientations("mirror")) == 24
    soma = load_pieces("soma").pieces
    with_mirrors = solve(build_instance(soma, Region.box(3, 3, 3, grid="cube"), mode="mirror"), limit=1)
    assert with_mirrors.count == 1


@pytest.mark.parametrize("grid", list(GRIDS.values()), ids=lambda g: g.name)
def test_every_grid_goes_through_instance_symmetry_and_colouring(grid):
    # The instance's symmetries are the region's; every colouring is a sound proof on a random case.
    shapes = free_polyforms(grid, 3)
    pieces = [Piece(f"P{i}", s, grid) for i, s in enumerate(shapes)]
    dims = {"square": (2, 3), "hex": (2, 3), "triangle": (2, 3), "cube": (1, 2, 3)}[grid.name]
    region = Region.box(*dims, grid=grid)
    inst = build_instance(pieces[:region.area // 3], region)
    assert len(inst.region_symmetries) == len(grid.symmetry_group(region.cells))
    if inst.precheck() is not None:
        assert solve(inst, backend="dlx").count == 0


# ------------------------------------------------------------------ example decks
@pytest.mark.parametrize("deck, grid, sides, faces", [("hexagons", HEX, 16, {"easy": 6, "hard": 6}),
                                                      ("triangles", TRIANGLE, 16, {"easy": 6, "hard": 6}),
                                                      ("cubes", CUBE, 16, {"easy": 2, "hard": 4})])
def test_example_decks_are_complete_rated_and_reproducible(deck, grid, sides, faces, tmp_path):
    import filecmp

    from ubongo_cp.cards import load_deck
    from ubongo_cp.generate import generate_deck
    from ubongo_cp.report import load_tasks
    from ubongo_cp.shipped import data_dir, deck_dir, deck_tasks_path

    cards, problems = load_deck(deck)
    assert not problems and len(cards) == sides and all(len(c.tasks) == faces[c.side] for c in cards)
    assert all(c.region.grid is grid and c.piece_set.grid is grid for c in cards)
    if grid is CUBE:   # Ubongo 3-D's regions: a footprint two layers high
        assert all(c.region.size[0] == 2 and c.region.area % 2 == 0 for c in cards)
    tasks = load_tasks(deck_tasks_path(deck))
    assert len(tasks) == sides // 2 * sum(faces.values()) and set(tasks["grid"]) == {grid.name}
    assert (tasks["status"] == "solved").all() and (tasks["count"] == 1).all() and (tasks["cpsat_count"] == 1).all()
    # The recorded command and seed regenerate the shipped files byte for byte.
    command = cards[0].meta["generator"]["command"]
    generate_deck(data_dir() / "examples" / "grids" / f"{deck}.toml", tmp_path, seed=2026, command=command)
    names = sorted(p.name for p in deck_dir(deck).glob("*.toml"))
    match, mismatch, errors = filecmp.cmpfiles(deck_dir(deck), tmp_path, names, shallow=False)
    assert mismatch == [] and errors == [] and len(match) == sides + 1   # and deck.toml


@pytest.mark.parametrize("name", NAMES)
def test_optional_cells_are_covered_at_most_once_on_every_backend(name):
    # A 2x3 rectangle whose right column is optional (BurrTools' variable voxels): two dominoes must fill
    # the 2x2 square (2 tilings), three fill the whole rectangle (3 tilings, the optional cells used).
    square = ((0, 0), (0, 1), (1, 0), (1, 1))
    region = Region(square, optional=((0, 2), (1, 2)))
    domino = Piece("I2", ((0, 0), (0, 1)))
    if get_solver(name).family == "bitboard":   # it covers every cell of the region: refused in one line
        with pytest.raises(InputError, match="optional cells"):
            solve(build_instance([domino] * 2, region), backend=name, limit=None)
        return
    if get_solver(name).diagram and not get_solver(name).backend.endswith("AutoBackend"):
        # The decision diagram branches on items covered exactly once; a placement on optional cells
        # alone (a domino of two copies in the optional column) has none: refused in one line
        # ('auto' counts such instances with the kernel).
        with pytest.raises(InputError, match="the decision diagram branches on those"):
            solve(build_instance([domino] * 2, region), backend=name, limit=None)
        return
    assert solve(build_instance([domino] * 2, region), backend=name, limit=None).count == 2
    three = solve(build_instance([domino] * 3, region), backend=name, limit=None, keep=5)
    assert three.count == 3
    for sol in three.solutions:
        assert verify_solution([domino] * 3, region, sol) is None
    assert "area mismatch" in build_instance([domino] * 4, region).precheck()
