"""The two kernels of ubongo_cp.solvers.dancing: C (default) and numba (fallback).

Both must give the same search: same solutions in the same order, the same
node count at each solution and in all, the same heartbeats, with and
without multiplicities and colours. Also: which kernel is in use is reported
(``dancing.KERNEL``), ``UBONGO_CP_KERNEL`` forces one, a missing extension
falls back to numba, and the default path never imports numba.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT, built_wheel
from ubongo_cp.cover import build_instance
from ubongo_cp.pieces import Region, load_pieces
from ubongo_cp.solvers import dancing

HAS_C = importlib.util.find_spec("ubongo_cp.solvers._dance") is not None
needs_c = pytest.mark.skipif(not HAS_C, reason="the C kernel is not built")


def run(kernel, indptr, indices, n_items, n_secondary=0, multiplicity=None, heartbeat=5, colours=None):
    """Everything a search yields, and its totals, on one kernel."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dancing, "KERNEL", kernel)
        s = dancing.search(indptr, indices, n_items, n_secondary, heartbeat=heartbeat,
                           multiplicity=multiplicity, colours=colours)
        trace = [(None if o is None else o.tolist(), n) for o, n in s]
        total = dancing.count(indptr, indices, n_items, n_secondary, multiplicity=multiplicity, colours=colours)
    return trace, s.nodes, s.solutions, s.exhausted, total


def test_kernel_is_reported():
    assert dancing.KERNEL == ("c" if HAS_C else "numba")


@st.composite
def instances(draw):
    n_items = draw(st.integers(1, 9))
    n_secondary = draw(st.integers(0, min(3, n_items)))
    n_primary = n_items - n_secondary
    options = draw(st.lists(st.lists(st.integers(0, n_items - 1), min_size=1, max_size=4, unique=True),
                            max_size=18))
    mult = None
    if draw(st.booleans()):
        lo = [draw(st.integers(0, 3)) if i < n_primary else 0 for i in range(n_items)]
        mult = np.array([(a, draw(st.integers(max(a, 1), 4))) for a in lo]).reshape(-1, 2)
    indptr = np.cumsum([0] + [len(o) for o in options])
    indices = np.array([i for o in options for i in o], dtype=np.int64)
    colours = None
    if n_secondary and draw(st.booleans()):  # Algorithm C: colours on secondary items
        colours = np.array([draw(st.integers(0, 2)) if i >= n_primary else 0 for i in indices], dtype=np.int64)
        if mult is not None:
            mult[n_primary:] = (0, 1)  # colours go on secondary items covered at most once
    return indptr, indices, n_items, n_secondary, mult, colours


@needs_c
@settings(deadline=None, max_examples=300)
@given(instances(), st.integers(1, 7))
def test_kernels_agree_on_random_instances(instance, heartbeat):
    indptr, indices, n_items, n_secondary, mult, colours = instance
    c = run("c", indptr, indices, n_items, n_secondary, mult, heartbeat, colours)
    nb = run("numba", indptr, indices, n_items, n_secondary, mult, heartbeat, colours)
    assert c == nb


@needs_c
@pytest.mark.parametrize("pieces, shape, optional, copies", [
    ("pentominoes", (3, 20), False, 1),
    pytest.param("pentominoes", (4, 15), False, 1, marks=pytest.mark.slow),
    ("duel", (4, 4), True, 1),
    ("tetrominoes", (5, 8), False, 2),   # one item [2..2] per tetromino
    ("tetrominoes", (4, 5), True, 3),    # subsets, [0..3] per tetromino
])
def test_kernels_agree_on_polyominoes(pieces, shape, optional, copies):
    inst = build_instance(load_pieces(pieces).pieces, Region.rectangle(*shape), optional_pieces=optional)
    mult = None
    if copies > 1:
        mult = np.ones((inst.n_items, 2), dtype=np.int64)
        mult[inst.n_cells:] = (0 if optional else copies, copies)
    args = (inst.indptr, inst.indices, inst.n_items, inst.n_secondary, mult, 5000)
    c = run("c", *args)
    assert c == run("numba", *args)
    assert c[2] > 0 and c[3]


@needs_c
def test_kernels_agree_on_node_limits(monkeypatch):
    inst = build_instance(load_pieces("pentominoes").pieces, Region.rectangle(6, 10))
    args = (inst.indptr, inst.indices, inst.n_items, 0)
    results = []
    for kernel in ("c", "numba"):
        monkeypatch.setattr(dancing, "KERNEL", kernel)
        results.append([dancing.count(*args, node_limit=n) for n in (0, 1, 999, 20_000)])
    assert results[0] == results[1] and results[0][2][1:] == (999, False)


def _python(code: str, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, **env}, timeout=300)


KNUTH = ("from ubongo_cp.solvers import dancing; import sys; "
         "print(dancing.KERNEL, dancing.count([0, 3, 6, 9, 11, 13, 16], "
         "[2, 4, 5, 0, 3, 6, 1, 2, 5, 0, 3, 1, 6, 3, 4, 6], 7), 'numba' in sys.modules)")


def test_environment_variable_forces_the_numba_kernel():
    done = _python(KNUTH, UBONGO_CP_KERNEL="numba")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "numba (1, 5, True) True"


def test_missing_extension_falls_back_to_numba():
    block = ("import sys, importlib.abc\n"
             "class Block(importlib.abc.MetaPathFinder):\n"
             "    def find_spec(self, name, path, target=None):\n"
             "        if name == 'ubongo_cp.solvers._dance': raise ImportError('no compiler')\n"
             "sys.meta_path.insert(0, Block())\n")
    done = _python(block + KNUTH, UBONGO_CP_KERNEL="")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[0] == "numba (1, 5, True) True"


def test_bad_kernel_name_is_an_input_error():
    done = _python("import ubongo_cp.solvers.dancing", UBONGO_CP_KERNEL="fortran")
    assert done.returncode != 0 and "UBONGO_CP_KERNEL must be 'c' or 'numba'" in done.stderr


@needs_c
def test_default_path_never_imports_numba():
    code = ("import sys\n"
            "from ubongo_cp.cli import main\n"
            "code = main(['solve', 'puzzles/examples/classic_X1_easy.toml', '--face', '1'])\n"
            "from ubongo_cp.solvers import dancing\n"
            "print(code, dancing.KERNEL, 'numba' in sys.modules)\n")
    done = _python(code, UBONGO_CP_KERNEL="")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().split("\n")[-1] == "0 c False"


#: The placements of the pentominoes in 6x10 (2,056: every fixed orientation at every position, the count
#: ``build_instance``'s docstring gives) and whether the C fill made them.
PLACEMENTS = ("from ubongo_cp.pieces import load_pieces, Region\nfrom ubongo_cp.cover import build_instance\n"
              "inst = build_instance(load_pieces('pentominoes').pieces, Region.rectangle(6, 10))\n"
              "print(inst.n_options, 'ubongo_cp._placements' in sys.modules)\n")


def _run_from(site: Path, code: str = KNUTH) -> str:
    code = ("import sys, ubongo_cp\n"
            "assert ubongo_cp.__file__.startswith(sys.argv[1]), ubongo_cp.__file__\n" + code)
    env = {**os.environ, "PYTHONPATH": str(site), "UBONGO_CP_KERNEL": ""}
    done = subprocess.run([sys.executable, "-c", code, str(site)], cwd=site.parent, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.split("\n")[0]


@pytest.mark.slow
@needs_c
def test_wheel_carries_the_c_kernel(tmp_path):
    site = built_wheel(tmp_path)
    assert list((site / "ubongo_cp" / "solvers").glob("_dance*.so"))
    assert list((site / "ubongo_cp").glob("_placements*.so"))
    assert _run_from(site) == "c (1, 5, True) False"
    assert _run_from(site, PLACEMENTS) == "2056 True"


@pytest.mark.slow
def test_wheel_built_without_a_compiler_falls_back_to_numba(tmp_path):
    site = built_wheel(tmp_path, CC="false")  # every compile fails: the extension is optional
    assert not list((site / "ubongo_cp" / "solvers").glob("_dance*.so"))
    assert not list((site / "ubongo_cp").glob("_placements*.so"))
    assert _run_from(site) == "numba (1, 5, True) True"
    assert _run_from(site, PLACEMENTS) == "2056 False"      # filled in plain Python: the same placements
