"""The puzzle rules UP-1 ... UP-5 (RULES.md §1), one section per rule id.

Counts here come from hand enumeration or from a brute-force search written
in this file from the rule text alone (placements from the piece shapes and
the region's cells, one placement per piece, no exact-cover instance), so
they check the reduction of :mod:`ubongo_cp.cover` as well as the solvers.
The published figures (pentomino rectangles, tetrominoes) are asserted once,
in ``tests/test_solvers.py``.
"""

from __future__ import annotations

import json
import math
from itertools import product

import pytest

from conftest import PUZZLES, ROOT
from ubongo_cp.cards import load_card, load_deck
from ubongo_cp.cover import build_instance, task_instance, verify_solution
from ubongo_cp.errors import InputError
from ubongo_cp.geometry import orientations
from ubongo_cp.pieces import Piece, Region, load_pieces
from ubongo_cp.solvers import solve
from ubongo_cp.specs import game_spec
from ubongo_cp.status import Status

CLASSIC = load_pieces("classic")
PENTS = load_pieces("pentominoes")
X1_EASY = PUZZLES / "examples" / "classic_X1_easy.toml"
# One solver per family: DLX (our engine), CP-SAT, CNF/CaDiCaL.
FAMILIES = ["dlx", "cpsat", "sat"]


def brute_force_tilings(pieces, region_cells, mode="free"):
    """Tilings of the region by the pieces, each piece copy labelled (UP-2, UP-3), by plain search.

    Each piece takes one placement (an orientation of its shape, shifted so
    that every cell lies in the region); the placements must not overlap and
    must cover every cell. Returns the tilings as tuples of frozensets.
    """
    region = set(region_cells)
    height = 1 + max(r for r, _ in region)
    width = 1 + max(c for _, c in region)
    options = []
    for piece in pieces:
        fits = set()
        for shape in orientations(piece.cells, mode):
            for dr, dc in product(range(height), range(width)):
                cells = frozenset((r + dr, c + dc) for r, c in shape)
                if cells <= region:
                    fits.add(cells)
        options.append(sorted(fits, key=sorted))
    tilings = []

    def place(i, used, chosen):
        if i == len(pieces):
            if used == region:
                tilings.append(tuple(chosen))
            return
        for cells in options[i]:
            if not cells & used:
                place(i + 1, used | cells, chosen + [cells])

    place(0, frozenset(), [])
    return tilings


# ----------------------------------------------------------------------- UP-1
def test_up1_a_task_is_the_card_region_and_the_pieces_it_names():
    # A card side shows one region and a table of tasks; a task names the pieces to use.
    card = load_card(X1_EASY)
    assert sorted(card.tasks) == [1, 2, 3, 4, 5, 6]
    for face, names in card.tasks.items():
        inst = task_instance(card, face)
        assert [p.name for p in inst.pieces] == list(names)
        assert inst.region == card.region and inst.n_cells == 11


def test_up1_the_die_picks_a_face_the_card_has(run_cli):
    card = load_card(X1_EASY)
    with pytest.raises(InputError, match=r"card X1 side easy has no face 7 \(faces 1\.\.6\)"):
        task_instance(card, 7)
    code, out, err = run_cli("solve", X1_EASY, "--face", "7")
    assert code == 2 and "has no face 7" in err
    # The die has as many faces as a side has tasks: six for classic (UG-4), twenty for Duel (UD-2).
    for game, faces in (("classic", 6), ("duel", 20)):
        cards, problems = load_deck(PUZZLES / "decks" / game)
        assert not problems and {len(c.tasks) for c in cards} == {faces}
        assert {side.faces for side in game_spec(game).sides} == {faces}


def test_up1_solving_a_card_solves_the_task_of_each_face(run_cli):
    code, out, err = run_cli("solve", X1_EASY, "--json")
    assert code == 0, err
    record = json.loads(out)
    card = load_card(X1_EASY)
    assert (record["card"], record["side"]) == ("X1", "easy")
    assert [t["face"] for t in record["tasks"]] == list(card.tasks)
    for task in record["tasks"]:
        assert task["pieces"] == list(card.tasks[task["face"]])
        pieces = card.task_pieces(task["face"])
        for sol in task["solutions"]:
            assert sorted(sol) == sorted(task["pieces"])
            assert verify_solution(pieces, card.region, sol) is None


# ----------------------------------------------------------------------- UP-2
@pytest.mark.parametrize("solution, fragment", [
    ({"A": [(0, 0), (0, 1)], "B": [(0, 2), (0, 3)]}, None),
    ({"A": [(0, 0), (0, 1)], "B": [(0, 1), (0, 2)]}, "covered by both"),           # overlap
    ({"A": [(0, 0), (0, 1)], "B": [(0, 3), (0, 4)]}, "outside the region"),        # sticking out
    ({"A": [(0, 0), (0, 1)]}, "piece B used 0 times, expected 1"),                # a piece left out
    ({"A": [(0, 0), (0, 1)], "A#2": [(0, 2), (0, 3)]}, "piece A used 2 times, expected 1"),
    ({"A": [(0, 0), (0, 1)], "C": [(0, 2), (0, 3)]}, "unknown piece"),
    ({"A": [(0, 0), (0, 2)], "B": [(0, 1), (0, 3)]}, "not an orientation"),       # not the piece's shape
])
def test_up2_the_independent_check(solution, fragment):
    a, b = Piece("A", ((0, 0), (0, 1))), Piece("B", ((0, 0), (0, 1)))
    reason = verify_solution([a, b], Region.rectangle(1, 4), solution)
    assert reason is None if fragment is None else fragment in reason


def test_up2_a_gap_is_no_solution():
    a, b = Piece("A", ((0, 0), (0, 1))), Piece("B", ((0, 0), (0, 1)))
    tiling = {"A": [(0, 0), (0, 1)], "B": [(0, 2), (0, 3)]}
    assert verify_solution([a, b], Region.rectangle(1, 5), tiling) == "cell (0, 4) is not covered"


@pytest.mark.parametrize("backend", FAMILIES)
@pytest.mark.parametrize("names, ascii_region", [
    (["I2", "I3", "L3"], "####\n####\n"),                 # 4 tilings (I3 at either end of either row)
    (["L3", "T4", "L4", "I2"], "#####\n#####\n.###.\n"),
    (["I2", "L3", "S4", "Y5"], "####\n####\n.###\n.###\n"),
    (["L4", "Y5", "P5"], "####\n####\n####\n##..\n"),
])
def test_up2_every_cell_once_every_piece_once_by_brute_force(backend, names, ascii_region):
    pieces = CLASSIC.select(names)
    region = Region.from_ascii(ascii_region)
    expected = {frozenset(t) for t in brute_force_tilings(pieces, region.cells)}
    result = solve(build_instance(pieces, region), backend=backend)
    assert result.complete and result.count == len(expected)
    assert {frozenset(frozenset(map(tuple, cells)) for cells in s.values()) for s in result.solutions} == expected
    if names == ["I2", "I3", "L3"]:
        assert result.count == 4


# ----------------------------------------------------------------------- UP-3
def test_up3_pentomino_orientations():
    # RULES.md §1: 63 fixed orientations, F8 I2 L8 N8 P8 T4 U4 V4 W4 X1 Y8 Z4.
    expected = dict(F=8, I=2, L=8, N=8, P=8, T=4, U=4, V=4, W=4, X=1, Y=8, Z=4)
    got = {p.name: len(p.orientations()) for p in PENTS}
    assert got == expected and sum(got.values()) == 63
    # Rotations only, by hand: F4 I2 L4 N4 P4 T4 U4 V4 W4 X1 Y4 Z2 = 41 (I and Z have
    # 180-degree symmetry, X has all); fixed mode keeps the 12 shapes.
    assert sum(len(p.orientations("one-sided")) for p in PENTS) == 41
    assert sum(len(p.orientations("fixed")) for p in PENTS) == 12
    with pytest.raises(ValueError):
        orientations(PENTS["F"].cells, "mirror")


@pytest.mark.parametrize("backend", FAMILIES)
def test_up3_pieces_may_be_turned_over(backend):
    # S4 drawn as in RULES.md (#. / ## / .#); the region is its mirror image (.# / ## / #.),
    # which no rotation reaches: a tiling needs the piece turned over.
    s4 = CLASSIC["S4"]
    region = Region.from_ascii(".#\n##\n#.\n")
    assert solve(build_instance([s4], region), backend=backend).count == 1
    assert len(brute_force_tilings([s4], region.cells, "one-sided")) == 0
    one_sided = build_instance([s4], region, mode="one-sided")
    assert one_sided.n_options == 0 and solve(one_sided, backend=backend).status == Status.NO_SOLUTION


# ----------------------------------------------------------------------- UP-4
def test_up4_a_task_must_have_the_region_area():
    with pytest.raises(InputError, match=r"card_wrong_area.toml:10: task of face 1 \(I2 I3\) covers 5 cells "
                                         r"but the region has 4 \(UP-4\)"):
        load_card(ROOT / "tests" / "data" / "bad" / "card_wrong_area.toml")
    # Every task of the shipped decks has the area of its side's region.
    for game in ("classic", "duel"):
        cards, _ = load_deck(PUZZLES / "decks" / game)
        for card in cards:
            assert {sum(p.size for p in card.task_pieces(f)) for f in card.tasks} == {card.region.area}
    # The same check guards every search (pieces given by hand).
    result = solve(build_instance(CLASSIC.select(["I2", "I3"]), Region.rectangle(1, 4)))
    assert result.status == Status.NO_SOLUTION
    assert result.stats["reason"] == "area mismatch: pieces cover 5 cells, region has 4"
    # one cell is a cell ("pieces cover 1 cells" once), with ranges of copies too
    monomino = Piece("M", ((0, 0),))
    result = solve(build_instance([monomino], Region.rectangle(1, 4)))
    assert result.stats["reason"] == "area mismatch: pieces cover 1 cell, region has 4"
    result = solve(build_instance([monomino], Region.rectangle(1, 4), ranges={"M": (1, 1)}))
    assert result.stats["reason"] == "area mismatch: pieces cover 1 cell, region has 4"


# ----------------------------------------------------------------------- UP-5
@pytest.mark.parametrize("backend", FAMILIES)
def test_up5_identical_pieces_are_not_told_apart(backend):
    # Four dominoes in 2x4: the domino tilings of a 2xn strip are words in V (a vertical
    # domino) and H (two horizontal ones): VVVV VVH VHV HVV HH = 5 (Fibonacci). With the
    # copies labelled there are 4! times as many.
    i2 = CLASSIC["I2"]
    pieces = [i2] * 4
    labelled = brute_force_tilings(pieces, Region.rectangle(2, 4).cells)
    assert len(labelled) == 5 * math.factorial(4)
    result = solve(build_instance(pieces, Region.rectangle(2, 4)), backend=backend)
    # Up to the rectangle's symmetries, VVH and HVV are one (a mirror image): 4.
    assert (result.count, result.count_reduced) == (5, 4)
    assert {frozenset(frozenset(map(tuple, c)) for c in s.values()) for s in result.solutions} == \
        {frozenset(t) for t in labelled}


@pytest.mark.parametrize("backend", FAMILIES)
def test_up5_the_fixed_region_counts_and_the_reduced_count(backend):
    # I2 I3 L3 in 2x4: the 4 tilings are the images of one under the rectangle's
    # symmetries (the two mirrors and the half turn), so 4 on the fixed region, 1 reduced.
    inst = build_instance(CLASSIC.select(["I2", "I3", "L3"]), Region.rectangle(2, 4))
    result = solve(inst, backend=backend)
    assert (result.count, result.count_reduced) == (4, 1)
    assert len({inst.canonical_key(s) for s in result.option_solutions}) == 1
    # An asymmetric region: nothing to reduce.
    card = load_card(X1_EASY)
    result = solve(task_instance(card, 1), backend=backend)
    assert result.count == result.count_reduced == 1
