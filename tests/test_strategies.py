"""Every solving strategy gives the same counts (issue 3), against published and recorded values."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from ubongo_cp.cards import load_card
from ubongo_cp.cover import build_instance, verify_solution
from ubongo_cp.errors import InputError
from ubongo_cp.pieces import Region, load_pieces
from ubongo_cp.solvers import solve
from ubongo_cp.solvers.strategies import STRATEGIES, solve_with, symmetry_orbits

ROOT = Path(__file__).resolve().parent.parent
PENTS = load_pieces("pentominoes")
TETS = load_pieces("tetrominoes")
CLASSIC = load_pieces("classic")
ALL = list(STRATEGIES)
# Plain CP-SAT and the CNF/CaDiCaL encoding need 3-45 s for 3x20 on this
# machine (benchmarks/), so the published-count test runs the fast ones.
FAST = ["dlx", "xcover", "dlx-symmetry", "xcover-symmetry", "cpsat-symmetry", "cpsat-symmetry-split"]


def _check(result, instance):
    for sol in result.solutions:
        assert verify_solution(instance.pieces, instance.region, sol) is None


@pytest.mark.parametrize("name", FAST)
def test_pentominoes_3x20(name):
    # RULES.md §1: 8 tilings of 3x20, 2 up to the rectangle's symmetry (UP-5).
    inst = build_instance(PENTS.pieces, Region.rectangle(3, 20))
    result = solve_with(inst, name)
    assert (result.count, result.count_reduced, result.complete, result.status) == (8, 2, True, "solved")
    assert result.backend == name
    _check(result, inst)


@pytest.mark.parametrize("name", ALL)
def test_tetrominoes_4x5_none(name):
    # RULES.md §1: the five tetrominoes do not tile 4x5 (chessboard parity of T4).
    result = solve_with(build_instance(TETS.pieces, Region.rectangle(4, 5)), name)
    assert (result.status, result.count, result.complete, result.count_reduced) == ("no solution", 0, True, 0)


CARDS = ["classic/01_hard.toml", "classic/17_easy.toml", "duel/3_B.toml"]


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("card_file", CARDS)
def test_shipped_tasks_match_generator_record(name, card_file):
    # The generator recorded each task's count in [generator].solutions (UP-5 fixed count).
    path = ROOT / "puzzles" / "decks" / card_file
    card = load_card(path)
    recorded = tomllib.loads(path.read_text())["generator"]["solutions"]
    faces = sorted(card.tasks)[:2]
    for face in faces:
        inst = card.instance(face)
        result = solve_with(inst, name)
        assert (result.count, result.complete) == (recorded[face - 1], True)
        first = solve_with(inst, name, limit=1)
        assert (first.status, first.count) == ("solved", 1)
        _check(result, inst)
        _check(first, inst)


@pytest.mark.parametrize("name", ALL)
def test_example_card_counts_agree_with_xcover(name):
    card = load_card(ROOT / "puzzles" / "examples" / "classic_X1_easy.toml")
    for face in card.tasks:
        inst = card.instance(face)
        expected = solve(inst, backend="xcover", keep=0)
        got = solve_with(inst, name)
        assert (got.count, got.count_reduced) == (expected.count, expected.count_reduced)


def test_symmetry_plan_6x10():
    # Knuth (Dancing Links, 2000): X restricted to a quarter of the 6x10 rectangle.
    plan = symmetry_orbits(build_instance(PENTS.pieces, Region.rectangle(6, 10)))
    assert PENTS.pieces[plan.piece].name == "X"
    assert (plan.group_order, plan.n_orbits, int(plan.weight.sum())) == (4, 8, 32)


def test_symmetry_not_applicable_when_names_repeat():
    # Two copies of I2 in a 2x2 square: no piece with a unique name, so no decomposition.
    i2 = CLASSIC["I2"]
    inst = build_instance([i2, i2], Region.rectangle(2, 2))
    assert symmetry_orbits(inst) is None
    r = solve_with(inst, "dlx-symmetry")
    assert (r.count, r.count_reduced, r.stats["symmetry"]) == (2, 1, "not applicable")


def test_unknown_strategy_and_bad_limit():
    inst = build_instance(TETS.pieces, Region.rectangle(4, 5))
    with pytest.raises(InputError, match="unknown strategy"):
        solve_with(inst, "nope")
    with pytest.raises(InputError, match="limit"):
        solve_with(inst, "dlx", limit=0)


@pytest.mark.parametrize("name", ["sat", "cpsat"])
def test_time_limit_gives_incomplete_result(name):
    # 3x20 needs seconds with these strategies; 0.05 s cannot finish the count.
    result = solve_with(build_instance(PENTS.pieces, Region.rectangle(3, 20)), name, time_limit=0.05)
    assert result.complete is False
    assert result.count_reduced is None


# Random small instances: rectangles (symmetric regions) tiled by random multisets of
# classic pieces, so the orbit decomposition, copies of one name and every encoding meet.
@st.composite
def small_instances(draw):
    h = draw(st.integers(2, 3))
    w = draw(st.integers(h, 5))
    area = h * w
    pool = CLASSIC.pieces
    chosen, total = [], 0
    while total < area:
        fits = [p for p in pool if p.size <= area - total]
        if not fits:
            break
        p = draw(st.sampled_from(fits))
        chosen.append(p)
        total += p.size
    if total != area:
        chosen.append(CLASSIC["I2"])  # leaves an area mismatch: the pre-check case
    return build_instance(chosen, Region.rectangle(h, w))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_instances())
def test_all_strategies_agree_on_random_instances(inst):
    expected = solve(inst, backend="xcover", keep=0)
    for name in ALL:
        got = solve_with(inst, name, keep=3)
        assert (got.count, got.count_reduced, got.complete) == \
            (expected.count, expected.count_reduced, True), name
        _check(got, inst)


@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("shape, names, orbit_sizes", [
    # O4 in 3x4: 6 placements, orbits of size 4 and 2 (the two centred ones are
    # fixed by the left-right mirror); I2 is used twice (copies not told apart, UP-5).
    ((3, 4), ["O4", "L4", "I2", "I2"], [2, 4]),
    # 4x4 square: the full group D4 of order 8; L4 used twice.
    ((4, 4), ["O4", "I4", "L4", "L4"], [4]),
])
def test_orbit_decomposition_with_stabilisers_and_copies(name, shape, names, orbit_sizes):
    inst = build_instance([CLASSIC[n] for n in names], Region.rectangle(*shape))
    plan = symmetry_orbits(inst)
    assert sorted(set(plan.weight[plan.weight > 0].tolist())) == orbit_sizes
    expected = solve(inst, backend="xcover", keep=0)  # no symmetry used: the reference
    assert expected.count > 0
    got = solve_with(inst, name)
    assert (got.count, got.count_reduced) == (expected.count, expected.count_reduced)
    _check(got, inst)


@pytest.mark.parametrize("shape, names", [((3, 20), None), ((3, 4), ["O4", "L4", "I2", "I2"]),
                                          ((4, 4), ["O4", "I4", "L4", "L4"])])
def test_orbit_strategies_list_every_solution(shape, names):
    # The orbit decomposition searches representatives only, but returns every solution
    # (images under the symmetries), the same set as the plain search.
    pieces = PENTS.pieces if names is None else [CLASSIC[n] for n in names]
    inst = build_instance(pieces, Region.rectangle(*shape))
    expected = {tuple(sorted(s)) for s in solve(inst, backend="xcover").option_solutions}
    for name in ("dlx-symmetry", "xcover-symmetry", "cpsat-symmetry"):
        got = solve_with(inst, name)
        assert len(got.option_solutions) == got.count
        assert {tuple(sorted(s)) for s in got.option_solutions} == expected
        _check(got, inst)
