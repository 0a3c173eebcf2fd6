"""Counts that stream (no solution held beyond those shown) and honest time limits (issue 13)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pandas as pd
import pytest

from conftest import PUZZLES, ROOT
from ubongo_cp.cover import build_instance, verify_solution
from ubongo_cp.pieces import Piece, Region, load_pieces
from ubongo_cp.solvers import solve, warm

RECT_3x20 = PUZZLES / "examples" / "rect_3x20.txt"


def _solve_json(run_cli, *extra):
    code, out, _ = run_cli("solve", "--pieces", "pentominoes", "--region", RECT_3x20, "--count", "--json", *extra)
    assert code == 0
    return json.loads(out)


def test_count_json_holds_at_most_max_solutions(run_cli):
    # Published: 3x20 has 2 pentomino tilings up to symmetry, 8 fixed (UP-5).
    data = _solve_json(run_cli)  # default 20: all 8 fit
    assert (data["count"], data["count_reduced"], len(data["solutions"])) == (8, 2, 8)
    data = _solve_json(run_cli, "--max-solutions", "3")
    assert (data["count"], data["count_reduced"], len(data["solutions"])) == (8, 2, 3)
    assert _solve_json(run_cli, "--max-solutions", "0")["solutions"] == []


@pytest.mark.parametrize("backend", ["dlx", "dlx-symmetry", "cpsat"])
def test_max_solutions_all_streams_every_distinct_solution(run_cli, backend):
    data = _solve_json(run_cli, "--max-solutions", "all", "--backend", backend)
    pentominoes = load_pieces("pentominoes").pieces
    region = Region.rectangle(3, 20)
    assert data["count"] == 8 and data["count_reduced"] == 2 and data["status"] == "solved"
    assert len({json.dumps(s, sort_keys=True) for s in data["solutions"]}) == 8
    assert all(verify_solution(pentominoes, region, s) is None for s in data["solutions"])


def test_max_solutions_all_in_text_draws_each_then_counts(run_cli):
    code, out, _ = run_cli("solve", "--pieces", "pentominoes", "--region", RECT_3x20, "--count",
                           "--max-solutions", "all")
    assert code == 0 and out.count("solution ") == 8
    assert "8 solutions, 2 up to the region's symmetry" in out and "more" not in out


def test_max_solutions_0_counts_and_promises_no_more(run_cli, tmp_path):
    # 3x20: 8 pentomino tilings (published); 0 asked, so no "... N more" line for them
    code, out, _ = run_cli("solve", "--pieces", "pentominoes", "--region", RECT_3x20, "--count",
                           "--max-solutions", "0")
    assert code == 0 and "8 solutions, 2 up to the region's symmetry" in out
    assert "solution 1" not in out and "more" not in out and "legend" not in out  # no picture: no letters
    code, out, _ = run_cli("solve", "--pieces", "pentominoes", "--region", RECT_3x20, "--count",
                           "--max-solutions", "3")
    assert code == 0 and "... 5 more (--max-solutions all shows them)" in out and "legend: " in out
    f = tmp_path / "two.dlx"  # a covered 0 or 1 times: 2 covers, {line 2} and {}
    f.write_text("0:1|a\na\n")
    code, out, _ = run_cli("exact-cover", f, "--count", "--max-solutions", "0")
    assert code == 0 and out.startswith("2 exact covers") and len(out.splitlines()) == 1


def test_max_solutions_rejects_nonsense(run_cli):
    code, _, err = run_cli("solve", "--pieces", "pentominoes", "--region", RECT_3x20, "--count",
                           "--max-solutions", "many")
    assert code == 2 and "--max-solutions takes a number or 'all'" in err


def _keys_reduced(instance) -> int:
    """Solutions up to symmetry the old way: the set of canonical keys of every solution."""
    keys = set()
    solve(instance, backend="xcover", keep=0, reduce=False,
          on_solution=lambda s: keys.add(instance.canonical_key(s)) or True)
    return len(keys)


DOMINO = Piece("D", ((0, 0), (0, 1)))
L3 = Piece("L", ((0, 0), (1, 0), (1, 1)))


@pytest.mark.parametrize("pieces, region", [
    ([DOMINO] * 4, Region.rectangle(2, 4)),        # symmetric tilings (non-trivial stabilisers)
    ([DOMINO] * 3, Region.rectangle(2, 3)),
    ([L3] * 4, Region.rectangle(3, 4)),
    (load_pieces("tetrominoes").pieces, Region.rectangle(4, 5)),
    (load_pieces("pentominoes").pieces[:4], Region.rectangle(4, 5)),
])
@pytest.mark.parametrize("backend", ["dlx", "dlx-symmetry", "cpsat"])
def test_burnside_reduced_count_matches_canonical_keys(pieces, region, backend):
    instance = build_instance(pieces, region)
    result = solve(instance, backend=backend, keep=0)
    assert result.solutions == [] and result.complete
    assert result.count_reduced == _keys_reduced(instance)


def test_dominoes_2x4_by_hand():
    # 5 domino tilings of 2x4; up to the rectangle's 4 symmetries: ||||, ==||/||==, |==|, ====: 4 classes.
    result = solve(build_instance([DOMINO] * 4, Region.rectangle(2, 4)), keep=0)
    assert (result.count, result.count_reduced) == (5, 4)


def test_json_time_out_says_timeout(run_cli):
    code, out, _ = run_cli("solve", "--pieces", "pentominoes", "--region", PUZZLES / "examples" / "rect_3x20.txt",
                           "--use", "F,I,L,N,P,T,U,V,W,X,Y,Z", "--count", "--json", "--backend", "sat",
                           "--time-limit", "0.01")
    data = json.loads(out)
    assert code == 0 and data["status"] == "timeout" and data["complete"] is False


def test_warm_is_once_per_process():
    warm(["dlx", "cpsat"])
    assert warm(["dlx", "cpsat", "cpsat-split"]) == 0.0


def test_compile_notice_comes_from_numbas_compile_event():
    from numba import njit

    from ubongo_cp.solvers.warmup import _compile_notice

    heard = []

    @njit(cache=False)
    def twice(x):
        return 2 * x

    with _compile_notice("xcover", heard.append):
        assert twice(21) == 42  # compiled now (no cache): the notice comes before the wait
        assert twice(1) == 2    # compiled already: no second notice
    assert heard == ["compiling the search engine (once, about 25 s)"]
    with _compile_notice("xcover", heard.append):
        twice(3)
    assert len(heard) == 1


def _batch(deck, out, env):
    subprocess.run([sys.executable, "-m", "ubongo_cp", "batch", str(deck), "--out", str(out), "--time-limit",
                    "0.2", "--no-progress"], cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    return pd.read_csv(out / "tasks.csv").sort_values(["card_id", "side", "face"]).reset_index(drop=True)


def test_tiny_time_limit_does_not_time_out_a_quick_task_even_with_engine_loading(tmp_path):
    # The README's example card X1: each task's search takes well under a millisecond. The numba
    # kernel takes 0.5 s or more to load in a new process; it must not count against --time-limit.
    deck = tmp_path / "deck"
    deck.mkdir()
    text = (PUZZLES / "examples" / "classic_X1_easy.toml").read_text()
    (deck / "X1_easy.toml").write_text(text)
    env = {**os.environ, "UBONGO_CP_KERNEL": "numba"}
    first = _batch(deck, tmp_path / "out", env)
    assert list(first["status"]) == ["solved"] * 6 and (first["seconds"] < 0.2).all()
    # A resumed batch (half the journal lost) gives the same table.
    journal = tmp_path / "out" / "tasks.jsonl"
    journal.write_text("".join(journal.read_text().splitlines(keepends=True)[:3]))
    again = _batch(deck, tmp_path / "out", env)
    cols = ["card_id", "side", "face", "status", "count", "search_nodes", "difficulty", "solution"]
    pd.testing.assert_frame_equal(first[cols], again[cols])


@pytest.mark.parametrize("split", [["--jobs", "2"], ["--journal", "count.jsonl"]])
def test_streamed_json_refused_with_workers_prints_nothing_on_stdout(run_cli, tmp_path, split):
    # --max-solutions all streams each solution as found, which no split count does: the refusal is one line on
    # stderr and stdout stays empty (it began '{"solutions": [', a document no JSON reader takes). Unrefused,
    # the 8 tilings of 3x20 (published) and the 2 covers of a matrix whose item is covered 0 or 1 times
    # ({line 2} and {}) stream as one document, none and all.
    from conftest import one_line_error

    split = [str(tmp_path / a) if a.endswith(".jsonl") else a for a in split]
    code, out, err = run_cli("solve", "--pieces", "pentominoes", "--region", RECT_3x20, "--count", "--json",
                             "--max-solutions", "all", *split)
    one_line_error(code, err, "cannot split this search")
    assert out == ""
    f = tmp_path / "two.dlx"
    f.write_text("0:1|a\na\n")
    code, out, err = run_cli("exact-cover", f, "--count", "--json", "--max-solutions", "all", *split)
    one_line_error(code, err, "cannot split this search")
    assert out == ""
    data = _solve_json(run_cli, "--max-solutions", "all")
    assert (data["count"], len(data["solutions"])) == (8, 8)
    code, out, _ = run_cli("exact-cover", f, "--count", "--json", "--max-solutions", "all")
    assert code == 0 and (json.loads(out)["count"], len(json.loads(out)["solutions"])) == (2, 2)
    g = tmp_path / "none.dlx"   # no option covers b: no cover, an empty list
    g.write_text("a b\na\n")
    code, out, _ = run_cli("exact-cover", g, "--count", "--json", "--max-solutions", "all")
    assert code == 0 and json.loads(out)["solutions"] == [] and json.loads(out)["count"] == 0


def test_a_dask_executor_is_refused_where_workers_are(run_cli):
    # A search that is not a whole count, or a card file's tasks, never runs on workers: --jobs 2 was refused
    # there and --executor dask (its one-worker local cluster) was taken and ignored without a word. Both are
    # refused now; a small count with --executor dask runs as one search here: the 8 tilings of 3x20 (published).
    from conftest import one_line_error

    for workers in (["--jobs", "2"], ["--executor", "dask"]):
        code, _, err = run_cli("solve", "--pieces", "pentominoes", "--region", RECT_3x20, *workers)
        one_line_error(code, err, "cannot split this search over workers", "only a count of every solution")
        code, _, err = run_cli("solve", PUZZLES / "examples" / "classic_X1_easy.toml", *workers)
        one_line_error(code, err, "--jobs, --executor dask, --scheduler and --journal go with one puzzle")
    code, out, _ = run_cli("solve", "--pieces", "pentominoes", "--region", RECT_3x20, "--count", "--executor", "dask")
    assert code == 0 and out.startswith("8 solutions")
