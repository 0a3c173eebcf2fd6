"""Tests of ubongo_cp.solvers.dancing (Algorithm X with dancing cells, numba).

Counts are checked against published values (Knuth, "Dancing Links"; the
pentomino rectangles), against the ``xcover`` package, and node counts
against a plain-Python Algorithm X written here from Knuth's description.
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ubongo_cp.cover import build_instance, verify_solution
from ubongo_cp.errors import InputError
from ubongo_cp.pieces import Region, load_pieces
from ubongo_cp.solvers.base import drive
from ubongo_cp.solvers.dancing import count, search
from ubongo_cp.solvers.dlx import DancingBackend

xcover = pytest.importorskip("xcover.dancing_cells")


def xcover_count(indptr, indices, n_items, n_secondary):
    """Number of exact covers found by xcover's Algorithm C (no colours).

    xcover raises IndexError on an instance with no option at all, so that
    case is answered here: one (empty) cover exactly when no item is primary.
    """
    if len(indptr) == 1:
        return int(n_items == n_secondary)
    indices = np.asarray(indices, dtype=np.uint32)
    colors = np.zeros(len(indices), dtype=np.uint32)
    return sum(1 for _ in xcover.algorithm_c(indices, np.asarray(indptr, dtype=np.uint32), colors,
                                             np.uint32(n_items), np.uint32(n_secondary)))


def reference_x(options, n_items, n_secondary):
    """Plain-Python Algorithm X (Knuth 7.2.2.1) on sets: (solutions, nodes).

    MRV on the primary items (ties to the lowest id); a node is an option
    tried. Independent of the numba code (no links, no sparse sets).
    """
    items = [frozenset(o) for o in options]
    n_primary = n_items - n_secondary
    sols, nodes = [], 0

    def rec(active, uncovered, chosen):
        nonlocal nodes
        if not uncovered:
            sols.append(sorted(chosen))
            return
        i = min(uncovered, key=lambda j: (sum(1 for o in active if j in items[o]), j))
        for o in sorted(o for o in active if i in items[o]):
            nodes += 1
            rec([p for p in active if not items[p] & items[o]], uncovered - items[o], chosen + [o])

    rec(list(range(len(items))), frozenset(range(n_primary)), [])
    return sols, nodes


def csr(options):
    indptr = np.cumsum([0] + [len(o) for o in options])
    indices = np.array([i for o in options for i in o], dtype=np.int64)
    return indptr, indices


# Knuth's example (arXiv:cs/0011047, Fig. 1; TAOCP (6) in 7.2.2.1): items A..G,
# options 0:CEF 1:ADG 2:BCF 3:AD 4:BG 5:DEG. Unique solution {3, 4, 0} (AD, BG, CEF).
KNUTH = [[2, 4, 5], [0, 3, 6], [1, 2, 5], [0, 3], [1, 6], [3, 4, 6]]


def test_knuth_example_hand_checked_nodes():
    # Worked by hand with MRV (ties to the lowest id):
    # level 0: all lengths 2 or 3; A (len 2, lowest id) is chosen. Options ADG, AD.
    #   node 1: ADG. Covering D and G leaves B={BCF}, C={CEF,BCF}, E={CEF}, F={CEF,BCF};
    #     choose B (len 1). node 2: BCF. Covering C and F leaves E with no option -> dead.
    #   node 3: AD. Covering D leaves B={BCF,BG}, C={CEF,BCF}, E={CEF}, F={CEF,BCF}, G={BG};
    #     choose E (len 1, id 4 < G's 6). node 4: CEF. Covering C, F leaves B={BG}, G={BG};
    #     choose B. node 5: BG -> all primary items covered: solution {AD, CEF, BG}.
    # Total: 1 solution, 5 nodes.
    indptr, indices = csr(KNUTH)
    assert count(indptr, indices, 7) == (1, 5, True)
    assert reference_x(KNUTH, 7, 0) == ([[0, 3, 4]], 5)
    s = search(indptr, indices, 7)
    assert [o.tolist() for o, _ in s if o is not None] == [[0, 3, 4]]
    assert (s.nodes, s.exhausted) == (5, True)


def test_secondary_items_hand_checked():
    # Items 0,1 primary, 2 secondary. Options: {0,2}, {1,2}, {0}, {1}.
    # Covers: {0,2}+{1}, {1,2}+{0}, {0}+{1}; {0,2}+{1,2} is excluded (2 twice).
    # Nodes: item 0 (len 2): {0,2} -> item 1 has only {1}: 2 nodes; {0} -> item 1 has
    # {1,2} and {1}: 2 nodes. Total 1 + 1 + 1 + 2 = 5.
    opts = [[0, 2], [1, 2], [0], [1]]
    indptr, indices = csr(opts)
    assert count(indptr, indices, 3, 1) == (3, 5, True)
    assert reference_x(opts, 3, 1)[1] == 5


@pytest.mark.parametrize("pieces, shape, expected", [
    ("pentominoes", (3, 20), 8),       # 2 up to symmetry x 4 (Knuth, Dancing Links)
    pytest.param("pentominoes", (4, 15), 1472,  # 368 up to symmetry x 4; ~1-3 s per engine
                 marks=pytest.mark.slow),
    ("tetrominoes", (4, 5), 0),        # checkerboard parity (the T tetromino)
    ("tetrominoes", (2, 10), 0),
])
def test_published_counts(pieces, shape, expected):
    inst = build_instance(load_pieces(pieces).pieces, Region.rectangle(*shape))
    args = (inst.indptr, inst.indices, inst.n_items, inst.n_secondary)
    n, nodes, exhausted = count(*args)
    assert (n, exhausted) == (expected, True)
    assert n == xcover_count(*args)
    s = search(*args)  # a second run: the node count is deterministic
    sols = [o for o, _ in s if o is not None]
    assert len(sols) == expected and s.nodes == nodes and s.exhausted
    for o in sols[:20]:
        assert verify_solution(inst.pieces, inst.region, inst.solution_dict(o)) is None


def test_backend_through_drive():
    inst = build_instance(load_pieces("pentominoes").pieces, Region.rectangle(3, 20))
    res = drive(DancingBackend(), inst)
    assert (res.count, res.count_reduced, res.complete, res.backend) == (8, 2, True, "dlx")
    assert res.stats["nodes"] == count(inst.indptr, inst.indices, inst.n_items, 0)[1]


def test_backend_meets_copies_of_identical_pieces_once():
    # Two copies of the domino in a 1x4 strip: one item [2..2] (UP-5), so the one tiling
    # {0,1},{2,3} is met once, not once per assignment of the copies (2), and the search
    # tries 2 options: the left domino, then the right one.
    from ubongo_cp.pieces import Piece
    d = Piece("D", ((0, 0), (0, 1)))
    inst = build_instance([d, d], Region.rectangle(1, 4))
    res = drive(DancingBackend(), inst)
    assert (res.count, res.stats["solutions_seen"], res.stats["nodes"]) == (1, 1, 2)
    assert res.solutions == [{"D": [(0, 0), (0, 1)], "D#2": [(0, 2), (0, 3)]}]


small_regions = st.builds(
    lambda h, w, holes: Region(tuple(sorted(
        (r, c) for r in range(h) for c in range(w) if (r * w + c) not in holes)) or ((0, 0),)),
    st.integers(1, 4), st.integers(2, 6), st.sets(st.integers(0, 23), max_size=4))


def _normalised(region):
    r0 = min(r for r, _ in region.cells)
    c0 = min(c for _, c in region.cells)
    return Region(tuple(sorted((r - r0, c - c0) for r, c in region.cells)))


@settings(deadline=None, max_examples=40)
@given(region=small_regions, data=st.data(), optional=st.booleans(),
       set_name=st.sampled_from(["classic", "tetrominoes"]))
def test_random_instances_agree_with_xcover_and_reference(region, data, optional, set_name):
    region = _normalised(region)
    catalogue = load_pieces(set_name).pieces
    chosen = data.draw(st.lists(st.sampled_from(catalogue), min_size=1, max_size=5, unique_by=lambda p: p.name))
    inst = build_instance(chosen, region, optional_pieces=optional)
    args = (inst.indptr, inst.indices, inst.n_items, inst.n_secondary)
    n, nodes, exhausted = count(*args)
    assert exhausted
    assert n == xcover_count(*args)
    options = [inst.option_items(o).tolist() for o in range(inst.n_options)]
    ref_sols, ref_nodes = reference_x(options, inst.n_items, inst.n_secondary)
    assert (n, nodes) == (len(ref_sols), ref_nodes)
    s = search(*args, heartbeat=7)
    got = sorted(o.tolist() for o, _ in s if o is not None)
    assert got == sorted(ref_sols) and s.nodes == nodes


def test_duel_secondary_items_agree_with_xcover():
    # UP-2 with optional pieces: every subset of the Duel pieces tiling a 4x4 square.
    inst = build_instance(load_pieces("duel").pieces, Region.rectangle(3, 5), optional_pieces=True)
    args = (inst.indptr, inst.indices, inst.n_items, inst.n_secondary)
    n, nodes, exhausted = count(*args)
    assert exhausted and n == xcover_count(*args) and n > 0
    for o in [o for o, _ in search(*args) if o is not None][:50]:
        assert verify_solution(inst.pieces, inst.region, inst.solution_dict(o), optional_pieces=True) is None


def test_node_limit_and_heartbeats():
    inst = build_instance(load_pieces("pentominoes").pieces, Region.rectangle(6, 10))
    args = (inst.indptr, inst.indices, inst.n_items, inst.n_secondary)
    assert count(*args, node_limit=1000)[1:] == (1000, False)
    s = search(*args, heartbeat=500)
    beats = []
    for options, nodes in s:
        if options is None:
            beats.append(nodes)
            if len(beats) == 4:
                break
    assert beats == [500, 1000, 1500, 2000] and s.nodes == 2000 and not s.exhausted


def test_time_limit_stops_the_backend():
    inst = build_instance(load_pieces("pentominoes").pieces, Region.rectangle(6, 10))
    t0 = time.perf_counter()
    exhausted, stats = DancingBackend(heartbeat=2000).run(inst, lambda o: True, time_limit=0.2)
    assert not exhausted and stats["timed_out"]
    assert time.perf_counter() - t0 < 5
    assert 0 < stats["nodes"] < 3_620_987  # the full 6x10 tree has 3,620,987 nodes


def test_first_solution_stops_early():
    inst = build_instance(load_pieces("pentominoes").pieces, Region.rectangle(6, 10))
    res = drive(DancingBackend(), inst, limit=1)
    assert res.count == 1 and not res.complete
    assert verify_solution(inst.pieces, inst.region, res.solutions[0]) is None


def test_empty_and_trivial_instances():
    assert count([0], [], 0) == (1, 0, True)          # nothing to cover: the empty cover
    assert count([0, 1], [0], 2, 1) == (1, 1, True)   # item 1 secondary, left uncovered
    assert count([0], [], 1) == (0, 0, True)          # primary item with no option


@pytest.mark.parametrize("args, message", [
    (([0, 2], [0, 0], 1), "lists an item twice"),
    (([0, 1], [5], 2), "outside"),
    (([0, 3], [0, 1], 2), "indptr"),
    (([0, 1], [0], 1, 2), "n_secondary"),
])
def test_bad_input(args, message):
    with pytest.raises(InputError, match=message):
        count(*args)


# ------------------------------------------------------------------ numba's cache where it cannot write
_NO_CACHE_PLACE = """
import sys
from numba.core import caching
# neither beside the source nor in the user's cache folder (a read-only install, no writable home): only
# numba's NUMBA_CACHE_DIR is left, unset
impl = getattr(caching, 'CacheImpl', None) or caching._CacheImpl   # (named so in numba 0.59 and later)
impl._locator_classes = [getattr(caching, 'UserProvidedCacheLocator', None) or caching._UserProvidedCacheLocator]
sys.path.insert(0, sys.argv[1])
try:
    __import__("tinynumba")
except RuntimeError as exc:
    print("plain import:", str(exc).split(":")[0])
from ubongo_cp.solvers.numbacache import import_cached
print("retried:", import_cached("tinynumba").plus_one(41))
from numba.core import config
print("cache:", config.CACHE_DIR)
"""


def test_a_numba_engine_runs_where_numba_cannot_cache_beside_it_or_at_home(tmp_path):
    # `--backend xcover` in a read-only install run by an account without a writable home ended with exit 1
    # ("RuntimeError: cannot cache function 'algorithm_c': no locator available"). The import is retried with
    # numba's cache in a private folder under the temporary directory, where the next run finds the code.
    import subprocess
    import sys

    (tmp_path / "tinynumba.py").write_text("from numba import njit\n\n\n@njit(cache=True)\n"
                                          "def plus_one(x):\n    return x + 1\n")
    env = {**__import__("os").environ, "TMPDIR": str(tmp_path / "tmp")}
    env.pop("NUMBA_CACHE_DIR", None)
    (tmp_path / "tmp").mkdir()
    out = subprocess.run([sys.executable, "-c", _NO_CACHE_PLACE, str(tmp_path)], env=env, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert out[0] == "plain import: cannot cache function 'plus_one'" and out[1] == "retried: 42", out
    cache = tmp_path / "tmp" / f"ubongo-cp-numba-{__import__('os').getuid()}"
    assert out[2] == f"cache: {cache}" and cache.stat().st_mode & 0o777 == 0o700
    assert any(p.suffix == ".nbi" for p in cache.rglob("*"))     # the compiled code kept for the next run


def test_numbas_fallback_folder_is_never_one_another_user_may_write(tmp_path, monkeypatch):
    import os

    from ubongo_cp.solvers.numbacache import fallback_folder

    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    mine = tmp_path / f"ubongo-cp-numba-{os.getuid()}"
    assert fallback_folder() == mine and mine.stat().st_mode & 0o777 == 0o700
    mine.chmod(0o777)                              # writable by anyone: another folder, new and private
    other = fallback_folder()
    assert other != mine and other.parent == tmp_path and other.stat().st_mode & 0o777 == 0o700
    mine.rmdir()
    mine.symlink_to(other)                         # a link planted under the name: not followed
    assert fallback_folder() not in (mine, other)
