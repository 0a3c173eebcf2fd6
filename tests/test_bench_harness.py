"""The benchmark scripts: default output folders, the C++ analyzer comparison's parsers, building the peers.

The solver benchmark itself is ``ubongo-cp bench`` (tests/test_bench.py).
"""

from __future__ import annotations

import pytest


def test_benchmarks_write_to_an_untracked_folder_by_default():
    # The reference tables in benchmarks/results/ change only on purpose (--out benchmarks/results).
    import subprocess

    from benchmarks import bench_core, bench_main
    from conftest import ROOT

    for default in (bench_core.RESULTS, bench_main.RESULTS):
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


def test_grid_benchmark_cases_and_caches():
    """The like-for-like cases of bench_grids (the pentominoes in 6x8: 1,540 placements, as the benchmark's
    table says) and the caches each kind of build empties."""
    from benchmarks.bench_grids import build_loop, forget, made_case
    from ubongo_cp import cover
    from ubongo_cp import pieces as pieces_module
    from ubongo_cp.cover import build_instance

    pieces, region = made_case(("square", "5 cells", (6, 8)))
    assert (len(pieces), region.area) == (12, 48)
    assert build_instance(pieces, region).n_options == 1540
    caches = (pieces_module._ORIENT_CACHE, cover._FORMS, cover._REGIONS)
    assert all(caches)
    forget("warm")
    assert all(caches)
    forget("new_region")
    assert [bool(c) for c in caches] == [True, True, False]
    build_instance(pieces, region)
    forget("cold")
    assert not any(caches)
    import gc

    build_loop("hex/5 cells/5x6/cold/1")    # the loop callgrind counts: each kind built once, then the builds
    assert all(caches)
    assert gc.get_freeze_count() == 0        # the objects it froze out of the collector's passes given back


def test_callgrind_report_is_read():
    from benchmarks.bench_grids import refs

    assert refs("==29073== Collected : 500156473\n==29073== \n==29073== I   refs:      500,156,473\n") == 500156473
    with pytest.raises(ValueError, match="no instruction count"):
        refs("valgrind: command not found\n")


@pytest.mark.skipif(not all(map(__import__("shutil").which, ("gcc", "git"))), reason="needs gcc and git")
def test_ctangle_is_built_from_the_cweb_source_when_none_is_on_the_path(tmp_path, monkeypatch):
    # A stand-in for the CWEB release: its pre-tangled ctangle.c, common.c and common.h in a git repository.
    import shutil
    import subprocess

    from benchmarks import peers

    source = tmp_path / "cweb"
    source.mkdir()
    (source / "common.h").write_text("int answer(void);\n")
    (source / "common.c").write_text('#include "common.h"\nint answer(void) { return 7; }\n')
    (source / "ctangle.c").write_text('#include "common.h"\nint main(void) { return answer(); }\n')
    for argv in (["init", "-q"], ["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "cweb"]):
        subprocess.run(["git", *argv], cwd=source, check=True)
    which = shutil.which
    monkeypatch.setattr(peers.shutil, "which", lambda tool: None if tool == "ctangle" else which(tool))
    monkeypatch.setattr(peers, "PEERS", tmp_path / "peers")

    built = peers.build_ctangle(source)
    assert built == tmp_path / "peers" / "cweb" / "ctangle"
    assert subprocess.run([built]).returncode == 7  # ctangle.c linked with common.c
    # Knuth's programs say why they are missing when neither a ctangle nor its source is at hand.
    (tmp_path / "peers" / "cweb" / "ctangle").unlink()
    why = peers.build_knuth(tmp_path / "knuth", tmp_path / "nowhere")
    assert why == dict.fromkeys(peers.KNUTH_PROGRAMS, "no ctangle on the PATH, and it could not be built: "
                                f"no source at {tmp_path / 'nowhere'}")


def test_counted_processes_get_a_fixed_environment(monkeypatch):
    """bench_grids --instructions: a variable of the caller's is not passed on (it would move the heap's addresses
    and the count), the counting's own are set whatever the caller set."""
    from benchmarks.bench_grids import ROOT, counted_environment

    monkeypatch.setenv("UBONGO_CP_TEST_PADDING", "x" * 100)
    monkeypatch.setenv("PYTHONHASHSEED", "7")
    monkeypatch.setenv("PATH", "/opt/bin:/usr/bin")
    assert counted_environment() == {"PATH": "/opt/bin:/usr/bin", "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0",
                                     "PYTHONDONTWRITEBYTECODE": "1", "OPENBLAS_NUM_THREADS": "1",
                                     "OMP_NUM_THREADS": "1"}


def test_counted_layouts_differ_by_one_padding_variable():
    """bench_grids --layouts: layout k is the fixed environment plus one variable of 64 k characters."""
    from benchmarks.bench_grids import counted_environment

    assert "UBONGO_CP_BENCH_LAYOUT" not in counted_environment(0)
    padded = counted_environment(3)
    assert padded.pop("UBONGO_CP_BENCH_LAYOUT") == "x" * 192
    assert padded == counted_environment(0)


def test_an_earlier_revision_runs_the_same_console_script():
    # bench_bitboard/bench_copies --compare-with: the earlier revision's whole process is the console script with
    # the same arguments as ours (its start-up compared with ours, not that of `python -m`, which imports runpy),
    # the checkout first on the path; the in-process search with -P (the working directory not put first).
    import sys
    from pathlib import Path

    from benchmarks import peers
    from ubongo_cp.pieces import Region, load_pieces

    case = peers.Case("harness-2x2", [load_pieces("classic")["O4"]], Region.rectangle(2, 2), 1)
    ours = peers.ours(case, Path(sys.executable), Path(sys.executable).parent / "ubongo-cp")
    earlier = peers.previous(case, Path("/tmp/earlier"))
    argv, stdin, ok, env = earlier[peers.PREVIOUS + "ubongo-cp solve --count"]
    assert argv == ours["ubongo-cp solve --count"] and env == {"PYTHONPATH": "/tmp/earlier"} and ok == (0,)
    search = earlier[peers.PREVIOUS + "in-process search"][0]
    assert search == [Path(sys.executable), "-P", *ours["in-process search"][1:]]
