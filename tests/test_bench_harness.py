"""The benchmark harness's summary: PAR2, medians, disagreement check, CSV and plot output (issue 3)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from benchmarks.run import COLUMNS, disagreements, load_results, main, summarize, summary_table, write_csv


def _rows():
    return [
        {"suite": "count", "instance": "a", "strategy": "s1", "seconds": 1.0, "status": "solved", "count": 3,
         "counters": "{}"},
        {"suite": "count", "instance": "b", "strategy": "s1", "seconds": 10.0, "status": "timeout", "count": None,
         "counters": "{}"},
        {"suite": "count", "instance": "a", "strategy": "s2", "seconds": 2.0, "status": "solved", "count": 3,
         "counters": "{}"},
        {"suite": "count", "instance": "b", "strategy": "s2", "seconds": 4.0, "status": "no solution", "count": 0,
         "counters": "{}"},
    ]


def test_par2_and_medians_hand_computed(tmp_path):
    write_csv(_rows(), tmp_path / "count.csv")
    (tmp_path / "count.meta.json").write_text(json.dumps({"time_limit": 10.0, "quick": True,
                                                          "load_start": "0", "load_end": "0"}))
    table = summary_table(load_results(tmp_path)).set_index("strategy")
    # s1: (1 + 2 x 10) / 2 = 10.5 (a time-out counts twice the limit); s2: (2 + 4) / 2 = 3.
    assert table.loc["s1", "par2_s"] == pytest.approx(10.5)
    assert table.loc["s2", "par2_s"] == pytest.approx(3.0)
    assert (table.loc["s1", "solved"], table.loc["s2", "solved"]) == (1, 2)
    assert table.loc["s2", "median_s"] == pytest.approx(3.0)
    text = summarize(tmp_path)
    assert "every strategy that finished agrees" in text
    assert (tmp_path / "cactus.png").stat().st_size > 0 and (tmp_path / "summary.md").exists()


def test_disagreement_is_reported():
    rows = _rows()
    rows[2]["count"] = 4
    df = pd.DataFrame(rows, columns=COLUMNS)
    assert disagreements(df) == ["count a: s1=3, s2=4"]


def test_harness_end_to_end_on_tiny_run(tmp_path):
    # Two deck tasks per deck, two strategies: rows for every task x strategy, counts agree.
    assert main(["--suite", "count", "--strategies", "xcover,cpsat", "--quick", "--sample", "2",
                 "--out", str(tmp_path)]) == 0
    df = pd.read_csv(tmp_path / "count.csv")
    assert list(df.columns) == COLUMNS
    assert len(df) == 2 * 2 * 2
    assert set(df["status"]) <= {"solved", "no solution"}
    assert not disagreements(df)


def test_benchmarks_write_to_an_untracked_folder_by_default():
    # The reference tables in benchmarks/results/ change only on purpose (--out benchmarks/results).
    import subprocess

    from benchmarks import bench_core, bench_main, run
    from conftest import ROOT

    for default in (run.RESULTS, bench_core.RESULTS, bench_main.RESULTS):
        assert default == ROOT / "benchmarks" / "out"
    probe = "benchmarks/out/probe.csv"
    ignored = subprocess.run(["git", "check-ignore", "-q", probe], cwd=ROOT).returncode == 0
    assert ignored or not (ROOT / ".git").exists()


# ubongo-utils' own example: `ubongo-analyze-duel board1.txt 3` on the board of
# puzzles/examples/duel_board1.txt, as printed in doc/ubongo-utils.md of
# m-kasahr/ubongo-utils (commit b1c9502), "Analyzer" section.
CPP_BOARD1_K3 = """.###.
#####
###.#
###.#
; squares=16

* A C P ; solutions=1
* B C E ; solutions=1
* B C M ; solutions=1
* B C N ; solutions=1
* B C P ; solutions=1
* B C R ; solutions=2
* C D H ; solutions=1
* C I T ; solutions=1
* C L R ; solutions=1
* C N U ; solutions=1
* C O S ; solutions=1
* C Q T ; solutions=1
* C R T ; solutions=1
; puzzles=13
"""

# `ubongo-cp analyze --pieces duel --region puzzles/examples/duel_board1.txt --k 3`
# (the same board), captured at commit 03935ed.
OURS_BOARD1_K3 = """pieces  count
A C P   1
B C E   1
B C M   1
B C N   1
B C P   1
B C R   2
C D H   1
C I T   1
C L R   1
C N U   1
C O S   1
C Q T   1
C R T   1
13 of 495 area-matching 3-subsets tile the 16-cell region (14 solutions) [dlx, 0.01 s]
"""


def test_cpp_analyzer_output_is_parsed_and_compared():
    from benchmarks.bench_cpp_analyze import differences, parse_cpp, parse_ours

    cpp = parse_cpp(CPP_BOARD1_K3)
    assert (len(cpp), sum(cpp.values()), cpp[("B", "C", "R")]) == (13, 14, 2)
    ours = parse_ours(OURS_BOARD1_K3)
    assert ours == cpp and differences(ours, cpp) == []
    # A subset missing on one side, and a count changed, are both named.
    del ours[("A", "C", "P")]
    ours[("B", "C", "R")] = 1
    assert differences(ours, cpp) == ["1 subsets only in C++: [('A', 'C', 'P')]", "1 counts differ: B C R 1 vs 2"]
    # The listing of solutions (--show-solution) is skipped; piece order in a line does not matter.
    shown = "* P C A ; solutions=1\n.PPC.\nPPACC\nPPA.C\nAAA.C\n\n; puzzles=1\n"
    assert parse_cpp(shown) == {("A", "C", "P"): 1}


def test_truncated_outputs_are_refused():
    from benchmarks.bench_cpp_analyze import parse_cpp, parse_ours

    with pytest.raises(ValueError, match="puzzles=None"):
        parse_cpp(CPP_BOARD1_K3.replace("; puzzles=13\n", ""))
    with pytest.raises(ValueError, match="puzzles=13 but lists 12"):
        parse_cpp(CPP_BOARD1_K3.replace("* C R T ; solutions=1\n", ""))
    with pytest.raises(ValueError, match="no summary line"):
        parse_ours(OURS_BOARD1_K3.splitlines()[0])
    with pytest.raises(ValueError, match="disagrees with its 12 rows"):
        parse_ours(OURS_BOARD1_K3.replace("C R T   1\n", ""))
