"""Faults: a worker that dies, a runner killed mid-batch or stopped in the middle of a card side, and the Dask
executor (issue: batch at scale)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from conftest import PUZZLES, ROOT, held_command
from ubongo_cp import batch
from ubongo_cp.batch import JOURNAL, run_batch
from ubongo_cp.cards import load_card
from ubongo_cp.executors import LocalExecutor, make_executor

STABLE = ["card_id", "side", "face", "pieces", "count", "count_reduced", "status", "placements", "search_nodes",
          "cpsat_count", "task_hash"]


@pytest.fixture(scope="module")
def deck(tmp_path_factory):
    d = tmp_path_factory.mktemp("deck")
    for path in sorted((PUZZLES / "decks" / "classic").glob("0[1-4]_*.toml")):
        shutil.copy(path, d / path.name)
    return d


@pytest.fixture(scope="module")
def undisturbed(deck, tmp_path_factory):
    return run_batch(deck, tmp_path_factory.mktemp("ref"), progress=False).tasks


def _crashing(marker: Path, always: bool):
    real = batch.rate_instance

    def rate(instance, **kw):
        # Card 02 easy, face 3 (pieces known from the shipped deck) kills its worker process.
        if instance.region.area == _AREA and sorted(p.name for p in instance.pieces) == _PIECES:
            if always or not marker.exists():
                marker.touch()
                os._exit(13)
        return real(instance, **kw)

    return rate


def _target(deck):
    from ubongo_cp.cards import load_card

    card = load_card(deck / "02_easy.toml")
    return card.region.area, sorted(card.tasks[3])


def test_worker_killed_mid_batch_is_replaced_and_nothing_lost(deck, undisturbed, tmp_path, monkeypatch):
    global _AREA, _PIECES
    _AREA, _PIECES = _target(deck)
    # The pool forks after the patch, so workers inherit it; the first attempt dies, the retry succeeds.
    monkeypatch.setattr(batch, "rate_instance", _crashing(tmp_path / "crashed-once", always=False))
    out = run_batch(deck, tmp_path / "out", executor=LocalExecutor(2), progress=False)
    assert (tmp_path / "crashed-once").exists()
    pd.testing.assert_frame_equal(out.tasks[STABLE], undisturbed[STABLE])
    journal = (tmp_path / "out" / JOURNAL).read_text().splitlines()
    assert len(journal) == len(undisturbed)  # no row lost or duplicated


def test_input_that_always_crashes_its_worker_is_marked_and_run_goes_on(deck, undisturbed, tmp_path, monkeypatch):
    global _AREA, _PIECES
    _AREA, _PIECES = _target(deck)
    monkeypatch.setattr(batch, "rate_instance", _crashing(tmp_path / "m", always=True))
    out = run_batch(deck, tmp_path / "out", executor=LocalExecutor(2), progress=False)
    bad = out.tasks[out.tasks["status"] == "error"]
    # The unit of work is the task: card 02 easy, face 3 alone is marked; every other task is complete,
    # the other faces of that card side included.
    assert list(zip(bad["card_id"], bad["side"], bad["face"])) == [("02", "easy", 3)]
    assert "worker failed" in bad["error"].iloc[0]
    good = out.tasks[out.tasks["status"] != "error"]
    ref = undisturbed[~((undisturbed["card_id"] == "02") & (undisturbed["side"] == "easy")
                        & (undisturbed["face"] == 3))]
    pd.testing.assert_frame_equal(good[STABLE].reset_index(drop=True), ref[STABLE].reset_index(drop=True))
    assert "Unsolvable or failed tasks" in (tmp_path / "out" / "summary.md").read_text()


def test_rerun_retries_tasks_that_ended_in_an_error(deck, undisturbed, tmp_path, monkeypatch):
    # A failed unit (here: its worker always dies) is recorded as "error";
    # running the same batch again, with the cause gone, computes exactly those
    # tasks and ends with the undisturbed tables.
    global _AREA, _PIECES
    _AREA, _PIECES = _target(deck)
    with monkeypatch.context() as m:
        m.setattr(batch, "rate_instance", _crashing(tmp_path / "m", always=True))
        first = run_batch(deck, tmp_path / "out", executor=LocalExecutor(2), progress=False)
    n_errors = int((first.tasks["status"] == "error").sum())
    assert n_errors == 1 < len(load_card(deck / "02_easy.toml").tasks)      # that task, not its card side
    again = run_batch(deck, tmp_path / "out", executor=LocalExecutor(2), progress=False)
    assert (again.ran, again.skipped) == (n_errors, len(undisturbed) - n_errors)
    pd.testing.assert_frame_equal(again.tasks[STABLE], undisturbed[STABLE])


def test_runner_killed_mid_batch_resumes_to_the_same_tables(tmp_path):
    # Killed (kill -9) while it rates its 61st task of 432. The runner once went on unhindered: the 372 tasks
    # after the 60 seen take a few seconds, and a loaded machine could let them all finish before the kill.
    deck = PUZZLES / "decks" / "classic"
    out = tmp_path / "out"
    cmd = held_command("ubongo_cp.batch.rate_instance", 61, "batch", deck, "--out", out, "--jobs", "1", "--no-progress")
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    journal = out / JOURNAL
    deadline = time.time() + 120
    try:
        while time.time() < deadline and proc.poll() is None:
            if journal.exists() and journal.read_text().count("\n") >= 60:
                break
            time.sleep(0.02)
        assert proc.poll() is None, proc.communicate()[1]
    finally:
        proc.kill()
        proc.communicate()
    written = journal.read_text().count("\n")
    assert written == 60, written  # killed half-way, in the task after them
    assert not (out / "tasks.parquet").exists()  # no table pretends to be complete
    resumed = run_batch(deck, out, executor=LocalExecutor(2), progress=False)
    assert resumed.skipped >= 60 and resumed.skipped + resumed.ran == 432
    reference = run_batch(deck, tmp_path / "ref", executor=LocalExecutor(2), progress=False)
    pd.testing.assert_frame_equal(resumed.tasks[STABLE], reference.tasks[STABLE])


@pytest.mark.timeout(300)   # it once hung for 20 minutes: now it fails instead (and the cluster start has its own)
def test_dask_executor_gives_the_same_table(deck, undisturbed, tmp_path):
    with make_executor("dask", jobs=2) as cluster:   # closed, so no cluster outlives the test
        out = run_batch(deck, tmp_path / "dask", executor=cluster, progress=False)
    pd.testing.assert_frame_equal(out.tasks[STABLE], undisturbed[STABLE])


# ---------------------------------------------------------------- interrupted in the middle of a card side

def _same_tables(out: Path, reference: Path) -> None:
    """The tables written into ``out`` are those of ``reference`` (an undisturbed run): the same rows in the same
    order with the same values, but for the ``seconds`` each task took."""
    from ubongo_cp.report import load_cards, load_tasks

    for load, name in [(load_tasks, "tasks.parquet"), (load_tasks, "tasks.csv"), (load_cards, "cards.parquet"),
                       (load_cards, "cards.csv")]:
        got, want = load(out / name), load(reference / name)
        pd.testing.assert_frame_equal(got.drop(columns="seconds"), want.drop(columns="seconds"), obj=name)


def _counting(monkeypatch, stop_at: int | None = None) -> list[int]:
    """Count the tasks rated in this process (the list's length); with ``stop_at``, the rating of that task
    (1 for the first) is cut by Ctrl-C, as a user's would be."""
    real, calls = batch.rate_instance, []

    def rate(instance, **kw):
        calls.append(1)
        if len(calls) == stop_at:
            raise KeyboardInterrupt
        return real(instance, **kw)

    monkeypatch.setattr(batch, "rate_instance", rate)
    return calls


@pytest.fixture(scope="module")
def reference(deck, tmp_path_factory):
    """The folder of an undisturbed run of ``deck``."""
    out = tmp_path_factory.mktemp("reference")
    run_batch(deck, out, progress=False)
    return out


def test_ctrl_c_in_the_middle_of_a_card_side_keeps_its_finished_tasks(deck, reference, tmp_path, monkeypatch):
    # Ctrl-C while the 10th task is rated: card 01's easy side is done, its hard side has 3 of its 6 tasks
    # done. Those 3 are in the journal (the card side used to be written whole or not at all), and the
    # resumed run computes only the 39 tasks left, each once.
    out = tmp_path / "out"
    with monkeypatch.context() as m:
        _counting(m, stop_at=10)
        with pytest.raises(KeyboardInterrupt):
            run_batch(deck, out, progress=False)
    rows = [json.loads(line) for line in (out / JOURNAL).read_text().splitlines()]
    assert [(r["card_id"], r["side"], r["face"]) for r in rows] == \
        [("01", "easy", face) for face in range(1, 7)] + [("01", "hard", face) for face in range(1, 4)]
    assert not (out / "tasks.parquet").exists()
    calls = _counting(monkeypatch)
    resumed = run_batch(deck, out, progress=False)
    assert (resumed.ran, resumed.skipped, len(calls)) == (39, 9, 39)
    _same_tables(out, reference)
    assert len((out / JOURNAL).read_text().splitlines()) == 48          # no task written twice


_SLOW_TASK = """
import pathlib, sys, time
from ubongo_cp import batch
from ubongo_cp.cli import main

deck, out, marker = sys.argv[1:]
real = batch.rate_instance

def rate(instance, **kw):
    # Card 02 easy, face 3 (its region's area and its pieces are those of no other task of the deck): a task
    # that takes far longer than the others, here for ever.
    if instance.region.area == 12 and sorted(p.name for p in instance.pieces) == ["L3", "L4", "P5"]:
        pathlib.Path(marker).touch()
        time.sleep(600)
    return real(instance, **kw)

batch.rate_instance = rate       # the pool's workers are forked after this: they inherit it
sys.exit(main(["batch", deck, "--out", out, "--jobs", "2", "--no-progress"]))
"""


@pytest.mark.timeout(300)
@pytest.mark.parametrize("how", ["SIGINT", "SIGTERM"])
def test_a_batch_stopped_while_one_task_of_a_side_runs_resumes_with_that_task_alone(deck, reference, tmp_path,
                                                                                    monkeypatch, how):
    # A real runner on a pool of two workers: one task of card 02's easy side runs for ever, so that side is
    # never complete, while every other task, its 5 other faces included, finishes. Ctrl-C (SIGINT to the
    # process group, as a terminal sends it) or SIGTERM then stops the run: the journal holds all 47 finished
    # tasks, and the resumed run computes the one task left.
    assert _target(deck) == (12, ["L3", "L4", "P5"])
    out, marker = tmp_path / "out", tmp_path / "slow-task-started"
    proc = subprocess.Popen([sys.executable, "-c", _SLOW_TASK, str(deck), str(out), str(marker)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    journal = out / JOURNAL
    deadline = time.time() + 120
    try:
        while time.time() < deadline and proc.poll() is None:
            if marker.exists() and journal.exists() and journal.read_text().count("\n") >= 47:
                break
            time.sleep(0.05)
        assert proc.poll() is None, proc.communicate()
        if how == "SIGINT":
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGTERM)
        printed, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    if how == "SIGINT":
        assert (proc.returncode, err) == (130, "ubongo-cp: interrupted\n"), err[-3000:]
    else:
        assert proc.returncode == -signal.SIGTERM
    rows = [json.loads(line) for line in journal.read_text().splitlines()]
    done = {(r["card_id"], r["side"], r["face"]) for r in rows}
    assert len(rows) == len(done) == 47 and ("02", "easy", 3) not in done
    assert {face for card_id, side, face in done if (card_id, side) == ("02", "easy")} == {1, 2, 4, 5, 6}
    calls = _counting(monkeypatch)
    resumed = run_batch(deck, out, progress=False)
    assert (resumed.ran, resumed.skipped, len(calls)) == (1, 47, 1)
    _same_tables(out, reference)


def test_a_batch_stopped_while_its_tables_go_into_place_leaves_those_of_one_run(deck, tmp_path, monkeypatch):
    # Ctrl-C while the five tables of a batch were written one after the other (the deck edited since the last
    # run) left the new tasks.parquet beside the earlier tasks.csv, cards tables and summary, which rated
    # another deck. The tables are now written together: Ctrl-C then waits until the five are in place.
    import ubongo_cp.io as io

    edited = tmp_path / "deck"
    shutil.copytree(deck, edited)
    out = tmp_path / "out"
    run_batch(edited, out, progress=False)
    card = edited / "01_easy.toml"
    card.write_text(card.read_text().replace('1 = ["I3", "S4", "P5"]', '1 = ["P5", "S4", "I3"]'))
    reference = tmp_path / "reference"
    run_batch(edited, reference, progress=False)
    renamed, replace = [], io.replace_durably

    def interrupted(source, target):   # Ctrl-C once the first table is in place
        replace(source, target)
        if Path(target).name not in (".ubongo-cp.json", io.REPLACING):   # the folder's records, not tables
            renamed.append(Path(target).name)
            if len(renamed) == 1:
                signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(io, "replace_durably", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_batch(edited, out, progress=False)
    assert sorted(renamed) == ["cards.csv", "cards.parquet", "summary.md", "tasks.csv", "tasks.parquet"]
    _same_tables(out, reference)
