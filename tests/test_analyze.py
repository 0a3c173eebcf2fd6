"""Subset analysis against the published reference in shared/examples."""

from __future__ import annotations

import json

import pytest

from conftest import SHARED
from ubongo_cp.analyze import analyze, analyze_per_subset, matching_subsets
from ubongo_cp.pieces import Region, load_pieces, load_region

DUEL = load_pieces("duel")


@pytest.mark.parametrize("backend", ["dlx", "cpsat", "xcover"])
def test_duel_board1_matches_published_analysis(backend):
    ref = json.loads((SHARED / "examples" / "duel_board1_analysis.json").read_text())
    region = load_region(SHARED / "examples" / "duel_board1.txt")
    result = analyze(DUEL.pieces, region, ref["k"], backend=backend)
    assert [{"use": list(s.pieces), "count": s.count} for s in result.subsets] == ref["solvable"]
    assert result.matching_area == ref["subsets_with_matching_area"]
    assert result.total_solutions == ref["total_solutions"]


def test_one_search_equals_per_subset_solving():
    region = Region.from_ascii("###\n####\n####\n")
    classic = load_pieces("classic")
    fast = analyze(classic.pieces, region, 3)
    slow = analyze_per_subset(classic.pieces, region, 3, backend="dlx")
    assert fast.subsets == slow.subsets and fast.matching_area == slow.matching_area
    assert len(fast.subsets) > 0


def test_matching_subsets_by_brute_force():
    from itertools import combinations
    pieces = DUEL.pieces
    brute = sum(1 for c in combinations(pieces, 5) if sum(p.size for p in c) == 28)
    assert matching_subsets(pieces, 28, 5) == brute == 7425
