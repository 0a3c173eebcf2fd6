"""Batch runner: results, resume after a crash, skipped bad cards, time-outs, parallel = serial."""

from __future__ import annotations

import json
import shutil

import pandas as pd
import pytest

from conftest import PUZZLES
from ubongo_cp.batch import JOURNAL, run_batch
from ubongo_cp.cards import load_card
from ubongo_cp.executors import LocalExecutor
from ubongo_cp.solvers import solve

STABLE = ["card_id", "side", "face", "pieces", "area", "count", "count_reduced", "status", "placements",
          "min_piece_placements", "cpsat_count", "task_hash"]


@pytest.fixture
def deck(tmp_path):
    d = tmp_path / "deck"
    d.mkdir()
    for name in ("01_easy.toml", "01_hard.toml", "02_easy.toml"):
        shutil.copy(PUZZLES / "decks" / "classic" / name, d / name)
    return d


def test_batch_counts_match_an_independent_solver(deck, tmp_path):
    out = run_batch(deck, tmp_path / "out", progress=False)
    df = out.tasks
    assert len(df) == 18 and out.ran == 18 and out.skipped == 0
    for row in df.itertuples():
        card = load_card(deck / f"{row.card_id}_{row.side}.toml")
        assert row.count == solve(card.instance(row.face), backend="cpsat").count
        assert row.count == row.cpsat_count and row.status == "solved"
        assert row.dlx_nodes is not pd.NA and row.difficulty == row.difficulty  # not NaN
    for name in ("tasks.parquet", "tasks.csv", "cards.csv", "summary.md", JOURNAL):
        assert (tmp_path / "out" / name).exists()
    cards = pd.read_csv(tmp_path / "out" / "cards.csv", dtype={"card_id": str})
    assert list(cards["tasks"]) == [6, 6, 6]
    assert pd.read_parquet(tmp_path / "out" / "tasks.parquet")["count"].tolist() == df["count"].tolist()


def test_resume_after_runner_crash_loses_and_duplicates_nothing(deck, tmp_path):
    full = run_batch(deck, tmp_path / "full", progress=False).tasks
    # Simulate a runner killed half-way: half the journal written, the last line torn, no tables.
    out = tmp_path / "crashed"
    out.mkdir()
    lines = (tmp_path / "full" / JOURNAL).read_text().splitlines(keepends=True)
    (out / JOURNAL).write_text("".join(lines[:9]) + lines[9][: len(lines[9]) // 2])
    again = run_batch(deck, out, progress=False)
    assert (again.skipped, again.ran) == (9, 9)
    pd.testing.assert_frame_equal(again.tasks[STABLE], full[STABLE])
    # A third run computes nothing and keeps the same table.
    third = run_batch(deck, out, progress=False)
    assert (third.ran, third.skipped) == (0, 18)
    pd.testing.assert_frame_equal(third.tasks[STABLE], full[STABLE])


def test_parallel_equals_serial(deck, tmp_path):
    one = run_batch(deck, tmp_path / "one", progress=False).tasks
    two = run_batch(deck, tmp_path / "two", executor=LocalExecutor(2), progress=False).tasks
    pd.testing.assert_frame_equal(one[STABLE], two[STABLE])


def test_bad_card_is_skipped_and_unsolvable_task_reported(deck, tmp_path):
    (deck / "zz_bad.toml").write_text('game = "classic"\ncard = "Z"\nside = "easy"\npieces = "classic"\n'
                                      'region = "##"\n[tasks]\n1 = ["Q7"]\n')
    (deck / "zz_unsolvable.toml").write_text('game = "classic"\ncard = "U"\nside = "easy"\npieces = "classic"\n'
                                             'region = """\n###\n#..\n"""\n[tasks]\n1 = ["O4"]\n')
    out = run_batch(deck, tmp_path / "out", progress=False)
    assert len(out.problems) == 1 and "Q7" in out.problems[0].message
    row = out.tasks[out.tasks["card_id"] == "U"].iloc[0]
    assert row["status"] == "no solution" and row["count"] == 0
    summary = (tmp_path / "out" / "summary.md").read_text()
    assert "zz_bad.toml" in summary and "Unsolvable or failed tasks" in summary and "O4" in summary


def test_time_limit_is_recorded_not_dropped(tmp_path):
    deck = tmp_path / "deck"
    deck.mkdir()
    region = "\n".join(["##########"] * 6)
    names = ", ".join(f'"{n}"' for n in "FILNPTUVWXYZ")
    (deck / "p.toml").write_text(f'game = "classic"\ncard = "P"\nside = "hard"\npieces = "pentominoes"\n'
                                 f'region = """\n{region}\n"""\n[tasks]\n1 = [{names}]\n')
    out = run_batch(deck, tmp_path / "out", progress=False, time_limit=0.2)
    row = out.tasks.iloc[0]
    assert row["status"] == "timeout" and 0 < row["count"] < 9356


def test_cli_batch_and_generate(run_cli, tmp_path):
    code, out, err = run_cli("generate", "--game", "classic", "--out", tmp_path / "d", "--seed", "4",
                             "--cards", "1", "--quiet")
    assert code == 0 and "wrote 2 card sides (12 tasks" in out
    code, out, err = run_cli("batch", tmp_path / "d", "--out", tmp_path / "o", "--jobs", "1", "--no-progress")
    assert code == 0 and "tasks: 12; solved 12" in out
    code, out, err = run_cli("batch", tmp_path / "missing", "--out", tmp_path / "o")
    assert code == 2 and "deck directory not found" in err
