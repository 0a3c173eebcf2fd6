"""The search kernels' subtree interface: prefixes at a cutoff, descents, Knuth's random probes.

The values are checked against whole searches of the same instance: the
subtrees below the prefixes of a cutoff level hold exactly the solutions and
nodes of the whole search, and the mean of Knuth's probe estimates (D. E.
Knuth, "Estimating the efficiency of backtrack programs", Math. Comp. 29
(1975) 121-136; an unbiased estimator) comes close to the true node and
solution counts. Both kernels (C and numba) are run.
"""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ubongo_cp.cover import build_instance
from ubongo_cp.pieces import Region, load_pieces
from ubongo_cp.solvers import dancing

KERNELS = ["numba"] + (["c"] if importlib.util.find_spec("ubongo_cp.solvers._dance") else [])


def engine(kernel, args):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dancing, "KERNEL", kernel)
        return dancing._Engine(*args)


def solutions_of(e) -> tuple[set, list]:
    """Run ``e`` to the end: the solutions (sorted option tuples) and the prefix rows."""
    sols, prefixes = set(), []
    while True:
        _, n_out = e.step(dancing._NO_LIMIT, 64)
        for t in range(n_out):
            k = int(e.out_len[t])
            if k >= 0:
                sols.add(tuple(e.out[t, :k].tolist()))
            else:
                prefixes.append(e.out[t, :-k].tolist())
        if e.done:
            return sols, prefixes


@st.composite
def instances(draw):
    n_items = draw(st.integers(2, 9))
    n_secondary = draw(st.integers(0, min(3, n_items - 1)))
    n_primary = n_items - n_secondary
    options = draw(st.lists(st.lists(st.integers(0, n_items - 1), min_size=1, max_size=4, unique=True),
                            max_size=18))
    mult = None
    if draw(st.booleans()):
        lo = [draw(st.integers(0, 2)) if i < n_primary else 0 for i in range(n_items)]
        mult = np.array([(a, draw(st.integers(max(a, 1), 3))) for a in lo]).reshape(-1, 2)
        mult[n_primary:] = (0, 1)
    indptr = np.cumsum([0] + [len(o) for o in options])
    indices = np.array([i for o in options for i in o], dtype=np.int64)
    colours = None
    if n_secondary and draw(st.booleans()):
        colours = np.array([draw(st.integers(0, 2)) if i >= n_primary else 0 for i in indices], dtype=np.int64)
    return indptr, indices, n_items, n_secondary, mult, colours


@settings(deadline=None, max_examples=150)
@given(instances(), st.integers(1, 3), st.sampled_from(KERNELS))
def test_subtrees_below_a_cutoff_hold_the_whole_search(args, cutoff, kernel):
    whole = engine(kernel, args)
    all_solutions, _ = solutions_of(whole)
    split = engine(kernel, args)
    split.set_cutoff(cutoff)
    found, prefixes = solutions_of(split)  # the solutions above the cutoff level
    assert len(found) == split.solutions and len(prefixes) == split.prefixes
    nodes = split.nodes
    for path in prefixes:
        sub = engine(kernel, args)
        assert sub.descend(path) == 1
        below, more = solutions_of(sub)
        assert not more and not (below & found)
        found |= below
        nodes += sub.nodes
    assert found == all_solutions and nodes == whole.nodes


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("pieces, shape, optional", [("pentominoes", (3, 20), False), ("pentominoes", (4, 5), True),
                                                     ("duel", (4, 4), True)])
def test_probe_estimates_average_to_the_true_counts(kernel, pieces, shape, optional):
    inst = build_instance(load_pieces(pieces).pieces, Region.rectangle(*shape), optional_pieces=optional)
    args = (inst.indptr, inst.indices, inst.n_items, inst.n_secondary)
    whole = engine(kernel, args)
    whole.step(dancing._NO_LIMIT, 0)
    assert whole.done and whole.nodes > 1
    e = engine(kernel, args)
    e.mark()
    nodes, sols = e.probe(np.random.default_rng(7).random((40_000, e.depth)))
    assert nodes.mean() == pytest.approx(whole.nodes, rel=0.05)
    if whole.solutions >= 100:  # (3 x 20's 8 solutions lie on one probe in millions)
        assert sols.mean() == pytest.approx(whole.solutions, rel=0.1)
    assert nodes.min() >= 1 and (e.level, e.nodes, e.solutions) == (0, 0, 0)  # left at the mark


@pytest.mark.parametrize("kernel", KERNELS)
def test_probes_below_a_prefix_estimate_its_subtree(kernel):
    inst = build_instance(load_pieces("pentominoes").pieces, Region.rectangle(3, 10))
    args = (inst.indptr, inst.indices, inst.n_items, 0)
    top = engine(kernel, args)
    top.set_cutoff(1)
    _, prefixes = solutions_of(top)
    live = []
    for path in prefixes:
        sub = engine(kernel, args)
        assert sub.descend(path) == 1
        sub.mark()
        nodes, _ = sub.probe(np.random.default_rng(3).random((20_000, sub.depth)))
        sub.reset()
        sub.step(dancing._NO_LIMIT, 0)
        live.append((nodes.mean(), sub.nodes))
    estimated, true = np.array(live).sum(axis=0)
    assert estimated == pytest.approx(true, rel=0.05)


@pytest.mark.parametrize("kernel", KERNELS)
def test_fraction_searched_grows_from_0_to_1(kernel):
    inst = build_instance(load_pieces("pentominoes").pieces, Region.rectangle(5, 12))
    e = engine(kernel, (inst.indptr, inst.indices, inst.n_items, 0))
    seen = [e.fraction()]
    budget = 0
    while not e.done:
        budget += 20_000
        e.step(budget, 0)
        seen.append(e.fraction())
    assert seen[0] == 0 and seen[-1] == 1 and len(seen) > 5
    assert all(a <= b for a, b in zip(seen, seen[1:]))
