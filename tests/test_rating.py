"""The difficulty rating's terms (issue 13 B.5): placements per cell as it says, never negative."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from conftest import PUZZLES
from ubongo_cp.cover import build_instance
from ubongo_cp.errors import InputError
from ubongo_cp.pieces import Piece, Region, load_pieces
from ubongo_cp.rate import difficulty_score, rate_instance

I4 = Piece("I4", ((0, 0), (0, 1), (0, 2), (0, 3)))


def test_forced_task_rates_one_not_minus_one():
    # I4 in a 1x4 region: one placement, one node, one solution: log2(1 + 1) + log2(1) = 1 (was -1.0).
    row = rate_instance(build_instance([I4], Region.rectangle(1, 4)))
    assert (row["search_nodes"], row["count"], row["placements"]) == (1, 1, 1)
    assert row["difficulty"] == 1.0


def test_placements_per_cell_is_the_mean_number_of_placements_covering_a_cell():
    # Two pieces of different shapes in a 2x3 region, by hand: a domino (7 placements:
    # 4 flat, 3 upright) and an O-tetromino (2 placements) by hand: 7 x 2 + 2 x 4 = 22 cell entries over
    # 6 cells = 11/3 placements per cell. Tilings: the square on the left or the right, the domino
    # upright beside it: 2.
    pieces = [Piece("D", ((0, 0), (0, 1))), Piece("O", ((0, 0), (0, 1), (1, 0), (1, 1)))]
    instance = build_instance(pieces, Region.rectangle(2, 3))
    assert instance.options_per_cell().sum() == 22 and instance.n_options == 9
    row = rate_instance(instance)
    assert row["count"] == 2
    assert math.isclose(row["difficulty"], math.log2(1 + row["search_nodes"] / 2) + math.log2(22 / 6))
    # Identical shapes are one piece type (UP-5): two dominoes named A and B in 2x2 have 4 placements
    # (2 flat, 2 upright) of 2 cells: 2 per cell, and 2 tilings (the names are labels only).
    dominoes = [Piece("A", ((0, 0), (0, 1))), Piece("B", ((0, 0), (0, 1)))]
    instance = build_instance(dominoes, Region.rectangle(2, 2))
    assert instance.options_per_cell().tolist() == [2, 2, 2, 2]
    row = rate_instance(instance)
    assert row["count"] == 2
    assert math.isclose(row["difficulty"], math.log2(1 + row["search_nodes"] / 2) + 1.0)


def test_score_is_nan_without_solution_and_never_negative_with_one():
    assert math.isnan(difficulty_score(5, 0, 3.0))
    assert difficulty_score(0, 1, 1.0) == 0.0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(load_pieces("tetrominoes").pieces), min_size=1, max_size=3, unique_by=lambda p: p.name),
       st.integers(1, 4))
def test_every_solvable_task_rates_at_least_zero(pieces, height):
    area = sum(p.size for p in pieces)
    if area % height:
        return
    row = rate_instance(build_instance(pieces, Region.rectangle(height, area // height)), cross_check=False)
    assert math.isnan(row["difficulty"]) == (row["count"] == 0)
    assert row["count"] == 0 or row["difficulty"] >= 0.0


@pytest.mark.parametrize("game, low, high", [("classic", "easy", "hard"), ("duel", "A", "B")])
def test_shipped_decks_harder_side_rates_higher(game, low, high):
    tasks = pd.read_csv(PUZZLES / "decks" / game / "tasks.csv", dtype={"card_id": str})
    medians = tasks.groupby("side")["difficulty"].median()
    assert medians[high] > medians[low] and (tasks["difficulty"] >= 1.0).all()


@pytest.mark.parametrize("given", ["3x4", None, Region.rectangle(1, 4)])
def test_rating_something_that_is_no_instance_is_one_error_naming_it(given):
    # AttributeError: 'str' object has no attribute 'table', before (solve said it in one line already)
    with pytest.raises(InputError) as info:
        rate_instance(given)
    assert str(info.value) == ("rate_instance needs an exact-cover instance (ubongo_cp.cover.build_instance, "
                               f"ubongo_cp.exactcover.read_exact_cover), got {type(given).__name__}")


@pytest.mark.parametrize("arguments, message", [
    ((-1, 1, 1.0), "nodes must be a whole number of at least 0, got -1"),    # "math domain error" (ValueError) before
    ((1, -1, 1.0), "count must be a whole number of at least 0, got -1"),    # NaN, as for no solution, before
    ((1, 1, "2"), "placements_per_cell must be a number, got '2'"),          # a TypeError from a comparison before
])
def test_difficulty_of_impossible_figures_is_one_error_naming_them(arguments, message):
    with pytest.raises(InputError) as info:
        difficulty_score(*arguments)
    assert str(info.value) == message
    assert difficulty_score(30, 1, 16.0) == pytest.approx(math.log2(31) + 4)   # the docstring's example by hand
