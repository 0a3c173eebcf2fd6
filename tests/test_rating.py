"""The difficulty rating's terms (issue 13 B.5): placements per cell as it says, never negative."""

from __future__ import annotations

import math

import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from conftest import PUZZLES
from ubongo_cp.cover import build_instance
from ubongo_cp.pieces import Piece, Region, load_pieces
from ubongo_cp.rate import difficulty_score, rate_instance

I4 = Piece("I4", ((0, 0), (0, 1), (0, 2), (0, 3)))


def test_forced_task_rates_one_not_minus_one():
    # I4 in a 1x4 region: one placement, one node, one solution: log2(1 + 1) + log2(1) = 1 (was -1.0).
    row = rate_instance(build_instance([I4], Region.rectangle(1, 4)))
    assert (row["dlx_nodes"], row["count"], row["placements"]) == (1, 1, 1)
    assert row["difficulty"] == 1.0


def test_placements_per_cell_is_the_mean_number_of_placements_covering_a_cell():
    # Two differently named dominoes in 2x2: each has 4 placements (2 flat, 2 upright), 8 options of 2
    # cells each: 16 cell entries over 4 cells = 4 placements per cell (by hand).
    dominoes = [Piece("A", ((0, 0), (0, 1))), Piece("B", ((0, 0), (0, 1)))]
    instance = build_instance(dominoes, Region.rectangle(2, 2))
    assert instance.options_per_cell().tolist() == [4, 4, 4, 4]
    row = rate_instance(instance)
    assert row["count"] == 4  # 2 tilings x 2 ways to name the dominoes
    assert math.isclose(row["difficulty"], math.log2(1 + row["dlx_nodes"] / 4) + 2.0)


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
