"""A count cut into subtrees gives the answers of one search: any cut, any job count, any executor, after a kill.

Published counts: the 12 pentominoes tile 6x10 in 9,356 ways (2,339 up to symmetry), 4x15 in
1,472 (368), 3x20 in 8 (2), the 8x8 board without its central 2x2 in 520 (65) (D. E. Knuth,
"Dancing Links", arXiv:cs/0011047); 6x6 has 6,728 domino tilings (Kasteleyn's formula). The duel
board's subset analysis is the published one of ``shared/examples``. Each split run is compared
with one search of the same instance: counts, reduced counts, tallies and the solutions kept, in
their order.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ubongo_cp.analyze import analyze
from ubongo_cp.cover import build_instance
from ubongo_cp.errors import InputError
from ubongo_cp.executors import LocalExecutor
from ubongo_cp.exactcover import read_exact_cover
from ubongo_cp.pieces import Region, load_pieces, load_region
from ubongo_cp.solvers import solve
from ubongo_cp.solvers.subtrees import SplitSearch, group_tasks

from conftest import SHARED, held_command, one_line_error, write

ROOT = Path(__file__).resolve().parent.parent
PENTS = load_pieces("pentominoes").pieces
SQUARE = [(r, c) for r in range(8) for c in range(8)]
CENTRE = Region(tuple(c for c in SQUARE if not (3 <= c[0] <= 4 and 3 <= c[1] <= 4)))

CASES = {
    "3x20": (PENTS, Region.rectangle(3, 20), 8, 2),
    "4x15": (PENTS, Region.rectangle(4, 15), 1472, 368),
    "8x8-centre": (PENTS, CENTRE, 520, 65),
    "dominoes-6x6": ([load_pieces("classic")["I2"]] * 18, Region.rectangle(6, 6), 6728, None),
}


def same(a, b) -> None:
    assert (a.count, a.count_reduced, a.complete, a.tally) == (b.count, b.count_reduced, b.complete, b.tally)
    assert a.option_solutions == b.option_solutions  # the same solutions, in the same order


@pytest.mark.parametrize("label", CASES)
@pytest.mark.parametrize("backend", ["bitboard-symmetry", "bitboard"])
def test_any_cut_gives_the_published_count_and_one_search(label, backend):
    pieces, region, count, reduced = CASES[label]
    inst = build_instance(pieces, region)
    one = solve(inst, backend=backend, keep=None)
    assert one.count == count and (reduced is None or one.count_reduced == reduced)
    counted = solve(inst, backend=backend, keep=0)  # no solution listed: the plan may weigh copies by fractions
    for leaves in (1, 7, 300):
        split = SplitSearch(leaves=leaves)
        same(solve(inst, backend=backend, keep=None, split=split), one)
        assert split.stats["subtrees"] >= min(leaves, 2) or count < 10
    same(solve(inst, backend=backend, keep=0, split=SplitSearch(leaves=50)), counted)


@pytest.mark.parametrize("backend", ["bitboard-symmetry", None])
def test_split_count_of_copies_keeps_the_solutions_of_one_search(backend):
    # 18 dominoes in 6x6: 6,728 tilings, 930 up to the square's 8 symmetries (Burnside over the fixed
    # tilings of each symmetry, counted by a brute force of its own). One search counts the copies with
    # the kernel's memo and keeps the first solutions of the plain search; a split count keeps the same.
    inst = build_instance(CASES["dominoes-6x6"][0], Region.rectangle(6, 6))
    one = solve(inst, backend=backend, keep=3)
    assert (one.count, one.count_reduced) == (6728, 930)
    for split in (SplitSearch(leaves=7), SplitSearch(leaves=300)):
        same(solve(inst, backend=backend, keep=3, split=split), one)
    assert one.option_solutions == solve(inst, backend="bitboard", keep=3).option_solutions


def test_local_workers_give_one_search(monkeypatch):
    # The local executor runs the subtrees in threads of this process (the C kernel releases the GIL),
    # each with its own kernel.
    import threading

    from ubongo_cp.solvers import subtrees

    ran_in, run_task = set(), subtrees.run_task

    def recorded(*args, **kwargs):
        ran_in.add(threading.get_ident())
        return run_task(*args, **kwargs)

    monkeypatch.setattr(subtrees, "run_task", recorded)
    inst = build_instance(PENTS, Region.rectangle(6, 10))
    one = solve(inst, keep=50)
    with LocalExecutor(2) as pool:
        split = SplitSearch(executor=pool)
        two = solve(inst, keep=50, split=split)
    same(two, one)
    assert (two.count, two.count_reduced) == (9356, 2339) and split.stats["tasks"] >= 8
    assert ran_in and len(ran_in) <= 2 and threading.get_ident() not in ran_in


LOCAL_CLUSTER = """
import json, os
from ubongo_cp.cover import build_instance
from ubongo_cp.errors import InputError
from ubongo_cp.executors import make_executor
from ubongo_cp.pieces import Region, load_pieces
from ubongo_cp.solvers import solve
from ubongo_cp.solvers.subtrees import SplitSearch

square = [(r, c) for r in range(8) for c in range(8)]
inst = build_instance(load_pieces("pentominoes").pieces,
                      Region(tuple(c for c in square if not (3 <= c[0] <= 4 and 3 <= c[1] <= 4))))
one = solve(inst, keep=None)
with make_executor("dask", jobs=2) as cluster:  # a real LocalCluster
    dask = solve(inst, keep=None, split=SplitSearch(executor=cluster, leaves=64))
    # started for the split count (native code, no GIL): its workers are threads of this process
    threads = cluster.cluster is not None and not cluster.cluster.processes
    names = sorted(w["name"] for w in cluster.client.scheduler_info()["workers"].values())
    # Python work on the same executor gets a cluster of worker processes in its place
    pids = cluster.map_ordered(os.getpid, [(), (), ()])
    processes = bool(cluster.cluster.processes) and os.getpid() not in pids
print(json.dumps({"threads": threads, "names": names, "processes": processes, "count": dask.count,
                  "same": [dask.count, dask.count_reduced, dask.complete, dask.tally, dask.option_solutions]
                          == [one.count, one.count_reduced, one.complete, one.tally, one.option_solutions]}))
"""


def test_local_cluster_gives_one_search():
    # In a fresh interpreter, as a command runs it: a worker process of this suite has run hundreds of tests
    # whose threads and forks a cluster of forked workers would inherit.
    proc = subprocess.run([sys.executable, "-c", LOCAL_CLUSTER], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got == {"threads": True, "names": [0, 1], "processes": True, "count": 520, "same": True}


def test_subset_analysis_split_matches_published():
    ref = json.loads((SHARED / "examples" / "duel_board1_analysis.json").read_text())
    region = load_region(SHARED / "examples" / "duel_board1.txt")
    duel = load_pieces("duel").pieces
    with LocalExecutor(2) as pool:
        result = analyze(duel, region, ref["k"], split=SplitSearch(executor=pool, leaves=40))
    assert [{"use": list(s.pieces), "count": s.count} for s in result.subsets] == ref["solvable"]
    assert result.total_solutions == 14


def test_a_subset_analysis_counted_per_cover_names_why_it_is_not_split(tmp_path):
    # With copies (or keep_solutions) each cover is counted as it is found, in one search: a split or a journal was
    # refused as if a solution limit or streamed solutions had been asked for ("only a count of every solution, with
    # no solution limit, ... or streamed solutions, is split"), which the caller had not asked for.
    pieces = load_pieces("classic").select(["I2", "L3", "O4"])
    region = Region.rectangle(2, 5)   # 10 cells: O4 O4 I2 and L3 L3 O4 (and I2 I2 ... none: 3 pieces)
    split = SplitSearch(journal=tmp_path / "a.jsonl")
    with pytest.raises(InputError, match=r"subset analysis .* with pieces with copies \(a set of types"):
        analyze(pieces, region, 3, copies=2, split=split)
    with pytest.raises(InputError, match="subset analysis .* with the covers it keeps, each cover is counted"):
        analyze(pieces, Region.rectangle(3, 3), 3, keep_solutions=True, split=split)   # I2 L3 O4: 9 cells
    # a progress bar alone (one worker, no journal) runs as one search, as solve's does: the same subsets
    one = analyze(pieces, region, 3, copies=2)
    assert analyze(pieces, region, 3, copies=2, split=SplitSearch()).subsets == one.subsets
    assert [s.pieces for s in one.subsets] == [("I2", "O4", "O4"), ("L3", "L3", "O4")]


def test_exact_cover_matrix_split():
    matrix = read_exact_cover(ROOT / "tests" / "data" / "exact_cover" / "knuth_7_2_2_1_5.dlx")
    one = solve(matrix, backend="bitboard", keep=None, reduce=False)
    split = solve(matrix, backend="bitboard", keep=None, reduce=False, split=SplitSearch(leaves=3))
    same(split, one)
    assert one.count >= 1


def test_group_tasks_cover_every_subtree_in_order():
    shares = [0.5, 0.125, 0.125, 0.0625, 0.0625, 0.125]
    for n in range(1, 8):
        ranges = group_tasks(shares, n)
        assert ranges[0][0] == 0 and ranges[-1][1] == len(shares) and len(ranges) <= n
        assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))


def test_progress_bar_reaches_the_end(capsys):
    inst = build_instance(PENTS, Region.rectangle(4, 15))
    r = solve(inst, keep=0, split=SplitSearch(progress=True, delay=0.0))
    assert r.count == 1472
    err = capsys.readouterr().err
    assert "100%" in err and "search" in err


def test_no_progress_when_stderr_is_not_a_terminal(tmp_path):
    region = write(tmp_path / "r.txt", "#" * 15 + "\n" + ("#" * 15 + "\n") * 3)
    proc = subprocess.run([sys.executable, "-m", "ubongo_cp", "solve", "--pieces", "pentominoes", "--region",
                           str(region), "--count", "--max-solutions", "0"], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)
    assert proc.returncode == 0 and proc.stdout.startswith("1472 solutions") and proc.stderr == ""


def test_a_journal_in_a_missing_folder_is_made_as_every_output_is(tmp_path, run_cli):
    # As --out and --save do, --journal makes the folders above it; a file where a folder should be is named.
    region = write(tmp_path / "r.txt", "####################\n" * 3)
    journal = tmp_path / "new" / "dir" / "count.jsonl"
    code, out, err = run_cli("solve", "--pieces", "pentominoes", "--region", region, "--count", "--journal", journal)
    assert code == 0 and out.startswith("8 solutions") and journal.read_text().count("\n") >= 2
    blocker = write(tmp_path / "afile", "")
    code, _, err = run_cli("solve", "--pieces", "pentominoes", "--region", region, "--count", "--journal",
                           blocker / "count.jsonl")
    assert code == 2 and err == f"ubongo-cp: error: {blocker}: is a file, expected a directory\n"


def test_a_journal_that_cannot_be_written_is_refused_even_for_a_count_that_never_opens_it(tmp_path, run_cli):
    # A count too small to need its journal (here: the area does not match) ran as one search and exited 0
    # without looking at the journal's path.
    blocker = write(tmp_path / "afile", "")
    for journal, said in ((blocker / "count.jsonl", f"{blocker}: is a file, expected a directory"),
                          (blocker / "new" / "count.jsonl", f"{blocker}: is a file, expected a directory"),
                          (tmp_path, f"{tmp_path}: is a directory, expected a file name to write")):
        code, out, err = run_cli("solve", "--pieces", "classic", "--region", "2x3", "--count", "--journal", journal)
        assert (code, out, err) == (2, "", f"ubongo-cp: error: {said}\n")
    code, out, err = run_cli("solve", "--pieces", "classic", "--region", "2x3", "--count", "--journal",
                             tmp_path / "new" / "count.jsonl")
    assert code == 0 and out.startswith("no solution (area mismatch") and not (tmp_path / "new").exists()


def test_a_journal_resumes_whatever_the_time_limit(tmp_path, run_cli):
    # A count stopped by a short time limit resumes without one (or with another): the journal is of the same
    # count. 8x8 without the cells 3, 4, 7 and 8 of its top row by the pentominoes: 4,035 tilings, the count
    # without a journal.
    region = write(tmp_path / "r.txt", "##..##..\n" + "########\n" * 7)
    journal = tmp_path / "count.jsonl"
    code, out, err = run_cli("solve", "--pieces", "pentominoes", "--region", region, "--count", "--max-solutions",
                             "0", "--journal", journal, "--time-limit", "0.2", "--no-progress")
    assert code == 0, err
    for limit in ([], ["--time-limit", "100"]):
        code, out, err = run_cli("solve", "--pieces", "pentominoes", "--region", region, "--count",
                                 "--max-solutions", "0", "--journal", journal, "--no-progress", *limit)
        assert code == 0 and out.startswith("4035 solutions"), err
    code, out, err = run_cli("solve", "--pieces", "pentominoes", "--region", region, "--count", "--max-solutions", "0")
    assert out.startswith("4035 solutions")


def test_bad_jobs_and_foreign_journal(tmp_path, run_cli):
    region = write(tmp_path / "r.txt", "####################\n" * 3)
    one_line_error(*run_cli("solve", "--pieces", "pentominoes", "--region", region, "--count", "--jobs", "0")[::2],
                   "--jobs")
    journal = tmp_path / "count.jsonl"
    code, out, err = run_cli("solve", "--pieces", "pentominoes", "--region", region, "--count", "--journal", journal)
    assert code == 0 and out.startswith("8 solutions")
    before = journal.read_bytes()
    other = write(tmp_path / "o.txt", "###############\n" * 4)
    one_line_error(*run_cli("solve", "--pieces", "pentominoes", "--region", other, "--count", "--journal",
                            journal)[::2], "journal of another count")
    assert journal.read_bytes() == before
    one_line_error(*run_cli("solve", "--pieces", "pentominoes", "--region", region, "--count", "--journal",
                            journal, "--max-solutions", "3")[::2], "kept 20 solutions")
    assert journal.read_bytes() == before
    code, out, err = run_cli("solve", "--pieces", "pentominoes", "--region", region, "--count", "--journal", journal)
    assert code == 0 and out.startswith("8 solutions, 2 up to") and "resuming" in err
    notes = write(tmp_path / "notes.txt", "my notes\n")
    one_line_error(*run_cli("solve", "--pieces", "pentominoes", "--region", other, "--count", "--journal",
                            notes)[::2], "not a journal")
    assert notes.read_text() == "my notes\n"
    one_line_error(*run_cli("solve", "--pieces", "pentominoes", "--region", region, "--jobs", "2")[::2],
                   "cannot split")
    for asked in (["--sample", "3"], ["--frequencies"]):  # the reason is what was asked, not the solver
        code, out, err = run_cli("solve", "--pieces", "pentominoes", "--region", region, "--count", "--jobs", "2",
                                 *asked)
        one_line_error(code, err, "sample, fixed placement, frequencies")


@pytest.mark.parametrize("content", ["line one of my notes\nline two, no newline at end",
                                     "my only line, no newline", "{}\n{\"a\": 1}"])
def test_a_file_that_is_no_journal_is_refused_unchanged(tmp_path, run_cli, content):
    region = write(tmp_path / "r.txt", "####################\n" * 3)
    notes = write(tmp_path / "notes.txt", content)
    one_line_error(*run_cli("solve", "--pieces", "pentominoes", "--region", region, "--count", "--journal",
                            notes)[::2], "not a journal")
    assert notes.read_text() == content


def test_a_journal_whose_header_a_stop_tore_is_begun_again(tmp_path, run_cli):
    # a kill while the header was being written leaves the start of this count's header, no newline: the
    # count starts over with a whole header, and a second run resumes from that journal
    region = write(tmp_path / "r.txt", "####################\n" * 3)
    journal = tmp_path / "count.jsonl"
    assert run_cli("solve", "--pieces", "pentominoes", "--region", region, "--count", "--journal", journal)[0] == 0
    header = journal.read_bytes().split(b"\n")[0]
    journal.write_bytes(header[:50])
    code, out, err = run_cli("solve", "--pieces", "pentominoes", "--region", region, "--count", "--journal", journal)
    assert code == 0 and out.startswith("8 solutions, 2 up to") and "resuming" not in err
    assert journal.read_bytes().split(b"\n")[0] == header
    code, out, err = run_cli("solve", "--pieces", "pentominoes", "--region", region, "--count", "--journal", journal)
    assert code == 0 and out.startswith("8 solutions, 2 up to") and "resuming" in err


def test_a_small_count_on_workers_runs_as_one_search(tmp_path, run_cli):
    # The estimate of the search decides: 4x15 (74,841 nodes) is counted in this process, with the answers of
    # one search; 6x10 without the orbit decomposition (19.3 million nodes) is cut; a journal always cuts.
    from ubongo_cp.solvers import get_solver
    from ubongo_cp.solvers.estimate import _plan_branches
    from ubongo_cp.solvers.orbits import Branch
    from ubongo_cp.solvers.bitboard import probe_nodes
    from ubongo_cp.solvers.subtrees import ONE_SEARCH_NODES

    for region, backend in ((Region.rectangle(4, 15), "bitboard-symmetry"), (Region.rectangle(6, 10), "bitboard")):
        inst = build_instance(PENTS, region)
        nodes = solve(inst, backend=backend, keep=0).stats["nodes"]
        search = get_solver(backend).make()._search(inst)
        branches = _plan_branches(inst) if backend == "bitboard-symmetry" else [Branch((), 1, (), ((-1,),), None, 1)]
        assert nodes / 4 < probe_nodes(search, branches) < 4 * nodes
    small = write(tmp_path / "small.txt", "###############\n" * 4)
    code, out, _ = run_cli("solve", "--pieces", "pentominoes", "--region", small, "--count", "--jobs", "2", "--json")
    data = json.loads(out)
    assert code == 0 and (data["count"], data["count_reduced"]) == (1472, 368)
    assert data["stats"]["one_search"] and data["stats"]["estimated_nodes"] < ONE_SEARCH_NODES
    big = write(tmp_path / "big.txt", "##########\n" * 6)
    code, out, _ = run_cli("solve", "--pieces", "pentominoes", "--region", big, "--count", "--jobs", "2",
                           "--backend", "bitboard", "--json")
    data = json.loads(out)
    assert code == 0 and data["count"] == 9356 and data["stats"]["subtrees"] > 100 and "one_search" not in data["stats"]
    code, out, _ = run_cli("solve", "--pieces", "pentominoes", "--region", small, "--count", "--jobs", "2", "--json",
                           "--journal", tmp_path / "j.jsonl")
    assert code == 0 and json.loads(out)["stats"]["subtrees"] > 1


def test_a_journal_held_by_a_running_count_is_refused(tmp_path, run_cli):
    from ubongo_cp.io import open_journal

    region = write(tmp_path / "r.txt", "####################\n" * 3)
    journal = tmp_path / "count.jsonl"
    code, out, err = run_cli("solve", "--pieces", "pentominoes", "--region", region, "--count", "--journal", journal)
    assert code == 0 and out.startswith("8 solutions")
    before = journal.read_bytes()
    held = open_journal(journal)  # as a count still running holds it
    try:
        code, out, err = run_cli("solve", "--pieces", "pentominoes", "--region", region, "--count", "--journal",
                                 journal)
        one_line_error(code, err, "count.jsonl", "run still going on")
    finally:
        held.close()
    assert journal.read_bytes() == before
    code, out, err = run_cli("solve", "--pieces", "pentominoes", "--region", region, "--count", "--journal", journal)
    assert code == 0 and out.startswith("8 solutions") and "resuming" in err


def test_a_count_with_bounds_or_colours_says_why_it_is_not_split(run_cli, tmp_path):
    data = ROOT / "tests" / "data" / "exact_cover"
    bounded = write(tmp_path / "bounds.dlx", "A B 2:3|C\nA B\nA C\nC\nB\n")
    for path, unfit in ((data / "knuth_dlx2_colours.dlx", "colours on secondary items"),
                        (bounded, "bounds on items of an exact-cover matrix")):
        for named in ([], ["--backend", "dlx"]):
            code, _, err = run_cli("exact-cover", path, "--count", "--jobs", "2", *named)
            one_line_error(code, err.splitlines()[-1], "cannot split this search over workers or keep a journal "
                           f"of it: only the bitboard solvers split a count, and they cannot take this instance: {unfit}")
    # the bitboard solvers take Knuth's first example: the named solver is the reason
    code, _, err = run_cli("exact-cover", data / "knuth_7_2_2_1_5.dlx", "--count", "--jobs", "2", "--backend", "dlx")
    one_line_error(code, err, "only the bitboard solvers split a count over workers, and solver 'dlx' is none of "
                   "them: choose bitboard or bitboard-symmetry for this instance")
    code, out, _ = run_cli("exact-cover", bounded, "--count", "--json")  # {A C, C, B}: the one cover, by hand
    assert code == 0 and json.loads(out)["count"] == 1


def test_a_journal_row_changed_by_hand_is_refused_and_a_torn_one_tolerated(tmp_path, run_cli):
    # 4x15: 1472 pentomino tilings (published: 368 up to symmetry)
    region = write(tmp_path / "r.txt", "###############\n" * 4)
    journal = tmp_path / "count.jsonl"
    argv = ("solve", "--pieces", "pentominoes", "--region", region, "--count", "--max-solutions", "0",
            "--journal", journal)
    code, out, _ = run_cli(*argv)
    assert code == 0 and out.startswith("1472 solutions")
    lines = journal.read_text().splitlines(keepends=True)
    counted = [k for k, line in enumerate(lines) if k and json.loads(line)["count"] != "0"]
    assert len(lines) > 2 and counted
    k = counted[0]
    row = json.loads(lines[k])
    changed = lines[:k] + [json.dumps({**row, "count": str(int(row["count"]) + 1000)}) + "\n"] + lines[k + 1:]
    journal.write_text("".join(changed))
    code, out, err = run_cli(*argv)
    one_line_error(code, err, f"{journal}:{k + 1}: was changed after this program wrote it")
    assert out == ""
    # a row cut mid-line by a kill: cut off, its subtrees counted again
    journal.write_text("".join(lines[:-1]) + lines[-1][:len(lines[-1]) // 2])
    code, out, err = run_cli(*argv)
    assert code == 0 and out.startswith("1472 solutions") and "resuming" in err


def test_rows_of_another_journal_of_the_same_count_are_refused(tmp_path, run_cli):
    # Rows kept with --max-solutions 0 appended below the header of a count that shows 3 solutions: the header
    # matched and each row's check (of the instance alone) too, so the count resumed "2051 of 2051 subtrees"
    # and showed none of the 3 solutions one search shows.
    region = write(tmp_path / "r.txt", "###############\n" * 4)
    argv = ("solve", "--pieces", "pentominoes", "--region", region, "--count", "--json")
    code, out, _ = run_cli(*argv, "--max-solutions", "3")
    one = json.loads(out)
    assert code == 0 and one["count"] == 1472 and len(one["solutions"]) == 3
    none, three = tmp_path / "none.jsonl", tmp_path / "three.jsonl"
    assert run_cli(*argv, "--max-solutions", "0", "--journal", none)[0] == 0
    assert run_cli(*argv, "--max-solutions", "3", "--journal", three)[0] == 0
    mixed = tmp_path / "mixed.jsonl"
    lines = none.read_text().splitlines(keepends=True)
    mixed.write_text(three.read_text().splitlines(keepends=True)[0] + "".join(lines[1:]))
    code, out, err = run_cli(*argv, "--max-solutions", "3", "--journal", mixed)
    one_line_error(code, err, f"{mixed}:2: ", "copied from another journal of this count")
    assert out == ""
    # the journal of its own count resumes to the answers of one search
    code, out, err = run_cli(*argv, "--max-solutions", "3", "--journal", three)
    assert code == 0 and "resuming" in err and json.loads(out)["solutions"] == one["solutions"]


def test_a_journal_of_an_earlier_version_resumes_with_its_rows(tmp_path, run_cli):
    # Its header has no row_check mark and its rows carry a check of the count alone: its finished work is kept.
    from ubongo_cp.io import row_check

    region = write(tmp_path / "r.txt", "###############\n" * 4)
    argv = ("solve", "--pieces", "pentominoes", "--region", region, "--count")
    journal = tmp_path / "j.jsonl"
    code, out, _ = run_cli(*argv, "--journal", journal)
    assert code == 0 and out.startswith("1472 solutions")
    head, *rows = [json.loads(line) for line in journal.read_text().splitlines()]
    assert head.pop("row_check") == 2 and rows
    rows = [{**row, "check": row_check(row, head["instance"])} for row in rows]
    journal.write_text("".join(json.dumps(r) + "\n" for r in [head, *rows]))
    code, out, err = run_cli(*argv, "--journal", journal)
    assert code == 0 and out.startswith("1472 solutions"), err
    assert f"{len(rows) and sum(r['last'] - r['first'] for r in rows)} of {head['subtrees']} subtrees already " \
           "counted" in err
    # in a journal of this version, such a row is another journal's
    journal.write_text("".join(json.dumps(r) + "\n" for r in [{**head, "row_check": 2}, *rows]))
    code, out, err = run_cli(*argv, "--journal", journal)
    one_line_error(code, err, f"{journal}:2: ", "a row of a journal begun by an earlier version")


def _earlier_version(journal: Path) -> tuple[dict, list[dict]]:
    """The header (no row_check mark) and rows (checked under the count alone) of ``journal`` as an earlier
    version wrote them."""
    from ubongo_cp.io import row_check

    head, *rows = [json.loads(line) for line in journal.read_text().splitlines()]
    del head["row_check"]
    return head, [{**row, "check": row_check(row, head["instance"])} for row in rows]


def test_a_journal_of_an_earlier_version_takes_no_row_of_another_cut_or_keep(tmp_path):
    # Its rows carry a check of the count alone, so rows of another journal of the count pasted below its header
    # were taken: with another cut their subtree numbers name other subtrees (a wrong count), with another number
    # of solutions kept the resumed count showed too few solutions, with a tally the count makes none of it a tally.
    instance = build_instance(PENTS, Region.rectangle(4, 15))
    one = solve(instance, keep=3)
    journals = {}
    for name, keep, leaves, tally in (("three", 3, None, False), ("none", 0, None, False),
                                      ("coarse", 3, 512, False), ("tally", 0, None, True)):
        journals[name] = tmp_path / f"{name}.jsonl"
        run = solve(instance, keep=keep, tally=tally, split=SplitSearch(journal=journals[name], leaves=leaves))
        assert run.count == 1472
    mixed = tmp_path / "mixed.jsonl"
    for pasted, into, keep, message in (
            ("none", "three", 3, "its task kept 0 of the solutions it met ({seen}); this count keeps up to 3 per task"),
            ("coarse", "three", 3, "the solution it lists below subtree {index} lacks the placements of that subtree "
                                   "in this count's cut"),
            ("tally", "none", 0, "it holds a per-subset tally, which this count does not make")):
        rows = _earlier_version(journals[pasted])[1]
        line, first = next((n, r) for n, r in enumerate(rows, start=2) if r["solutions_seen"])
        mixed.write_text("".join(json.dumps(r) + "\n" for r in [_earlier_version(journals[into])[0], *rows]))
        with pytest.raises(InputError) as err:
            solve(instance, keep=keep, split=SplitSearch(journal=mixed))
        assert (err.value.path, err.value.line) == (str(mixed), line)
        index = first["found"][0][0] if first["found"] else None
        assert err.value.message == ("holds on this line a row of another journal of this count ("
                                     + message.format(seen=first["solutions_seen"], index=index)
                                     + "); give another journal file")
    # its own rows resume, to the answers of one search
    head, own = _earlier_version(journals["three"])
    mixed.write_text("".join(json.dumps(r) + "\n" for r in [head, *own]))
    run = solve(instance, keep=3, split=SplitSearch(journal=mixed))
    assert (run.count, run.solutions) == (1472, one.solutions)


def test_kill_and_resume_gives_one_search(tmp_path):
    region = write(tmp_path / "r.txt", "##########\n" * 6)
    journal = tmp_path / "count.jsonl"
    count = ["solve", "--pieces", "pentominoes", "--region", str(region), "--count", "--backend", "bitboard", "--json",
             "--max-solutions", "7", "--journal", str(journal)]
    argv = [sys.executable, "-m", "ubongo_cp", *count]
    # its 6th task held (the 250 after the journal's first rows take a fraction of a second): killed while it
    # searches that one
    proc = subprocess.Popen(held_command("ubongo_cp.solvers.subtrees.run_task", 6, *count), cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + 120
        while time.monotonic() < end and proc.poll() is None:
            if journal.exists() and journal.read_bytes().count(b"\n") >= 6:
                break
            time.sleep(0.01)
        assert proc.poll() is None, "the count ended before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    lines = journal.read_bytes().count(b"\n")
    assert lines == 6  # the header and the 5 tasks before the held one, of 256
    resumed = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert "resuming" in resumed.stderr
    got = json.loads(resumed.stdout)
    inst = build_instance(PENTS, Region.rectangle(6, 10))
    one = solve(inst, backend="bitboard", keep=7)
    assert (got["count"], got["count_reduced"], got["complete"]) == (9356, 2339, True)
    assert got["solutions"] == json.loads(json.dumps(one.solutions))
    assert got["stats"]["resumed_tasks"] == 5


def test_split_counts_the_nodes_of_one_search(tmp_path):
    # Eight queens as exact cover (rows and columns primary, diagonals secondary): 92 solutions. The
    # nodes of a split search are those of the subtrees plus those of the cut above them, which is all of
    # the tree when it is cut to its leaves.
    n = 8
    lines = [" ".join([f"r{i}" for i in range(n)] + [f"c{j}" for j in range(n)]) + " | "
             + " ".join([f"a{k}" for k in range(2 * n - 1)] + [f"b{k}" for k in range(2 * n - 1)])]
    lines += [f"r{i} c{j} a{i + j} b{i - j + n - 1}" for i in range(n) for j in range(n)]
    path = tmp_path / "queens8.dlx"
    path.write_text("\n".join(lines) + "\n")
    matrix = read_exact_cover(path)
    one = solve(matrix, backend="bitboard", keep=None, reduce=False)
    assert one.count == 92
    for leaves in (3, 50, 10 ** 6):
        split = SplitSearch(leaves=leaves)
        cut = solve(matrix, backend="bitboard", keep=None, reduce=False, split=split)
        assert (cut.count, cut.stats["nodes"]) == (92, one.stats["nodes"])
    assert split.stats["subtrees"] > 100 and split.stats["share_done"] == 1.0


def test_ctrl_c_stops_the_searches_running_in_worker_threads():
    # Ctrl-C stopped the count, but the subtrees running in worker threads (the local executor's, a Dask
    # cluster's of threads) went on searching until each ended: in a notebook, minutes of both cores after the
    # interrupt. Each search now stops at its next heartbeat (200,000 nodes, a few milliseconds).
    from ubongo_cp.executors import LocalExecutor

    square = [(r, c) for r in range(8) for c in range(8)]
    inst = build_instance([*PENTS, load_pieces("classic")["O4"]], Region(tuple(square)))  # 21 CPU-s unreduced

    def workers() -> list:
        return [t for t in threading.enumerate() if t.name.startswith("ubongo-cp-worker")]

    timer = threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT))
    with LocalExecutor(2) as pool:
        began = time.perf_counter()
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            solve(inst, backend="bitboard", keep=0, split=SplitSearch(executor=pool, tasks_per_job=1))
        stopped = time.perf_counter()
        while workers() and time.perf_counter() - stopped < 5:
            time.sleep(0.01)
    assert not workers(), "worker threads still searching 5 s after Ctrl-C"
    assert time.perf_counter() - stopped < 1.0
    assert time.perf_counter() - began < 3.0   # the interrupt reached the count at once


@pytest.mark.parametrize("backend", ["bitboard", "dlx", "zdd"])
@pytest.mark.parametrize("split", [3, "journal.jsonl", LocalExecutor])
def test_a_split_that_is_no_split_search_is_named(backend, split):
    # split takes a SplitSearch; anything else was an AttributeError from inside the search ('int' object has
    # no attribute 'search' / 'executor'), for solve and the subset analysis alike.
    pieces = load_pieces("classic")
    inst = build_instance(pieces.select(["I2", "O4", "L4"]), Region.rectangle(2, 5))
    with pytest.raises(InputError, match="split must be a SplitSearch"):
        solve(inst, backend=backend, split=split)
    with pytest.raises(InputError, match="split must be a SplitSearch"):
        analyze(pieces.pieces, Region.rectangle(3, 4), 3, backend=backend, split=split)
