"""Census: rows equal the subset analysis, identical datasets for any executor and after interruptions."""

from __future__ import annotations

import random
import subprocess
import time

import pandas as pd
import pytest

from conftest import ROOT, held_command
from ubongo_cp.analyze import analyze
from ubongo_cp.census import (
    census_regions, census_summary, make_spec, read_census, read_manifest, region_from_text, region_text,
    plan_census, run_census,
)
from ubongo_cp.errors import InputError
from ubongo_cp.executors import make_executor
from ubongo_cp.pieces import load_pieces
from ubongo_cp.polyominoes import canonical_form, free_polyominoes, symmetry_order

CLASSIC = load_pieces("classic")
# A small census: classic set, K = 3, 8 and 9 cells within 4x4 (332 regions), 3 shards per size.
PARAMS = dict(pieces="classic", k=3, cells=[8, 9], box=(4, 4), shards=3)


def census(out, **kw):
    """The small census, in this process unless an executor is given."""
    args = {**PARAMS, "progress": False, **kw}
    return run_census(args.pop("pieces"), args.pop("k"), args.pop("cells"), out_dir=out, **args)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    out = tmp_path_factory.mktemp("census") / "ref"
    outcome = census(out, per_subset=True)
    return out, outcome


def test_every_region_once(reference):
    out, outcome = reference
    frame = read_census(out)
    expected = {region_text(s) for n in (8, 9) for s in free_polyominoes(n, box=(4, 4))}
    assert len(frame) == outcome.regions == len(expected) == 332
    assert set(frame["region"]) == expected and frame["region"].is_unique
    assert outcome.shards == 6 and outcome.ran == 6 and outcome.resumed == 0
    # pandas reads the dataset directory as one table
    assert len(pd.read_parquet(out / "regions")) == 332


def test_rows_equal_the_subset_analysis(reference):
    out, _ = reference
    frame = read_census(out)
    for i in random.Random(7).sample(range(len(frame)), 25):
        row = frame.iloc[i]
        region = region_from_text(row["region"])
        assert canonical_form(region.cells) == region.cells
        result = analyze(CLASSIC.pieces, region, 3)
        unique = sorted(" ".join(s.pieces) for s in result.subsets if s.count == 1)
        assert (row["cells"], row["rows"], row["cols"]) == (region.area, region.height, region.width)
        assert row["rows"] <= row["cols"] and row["holes"] == 0
        assert row["symmetry"] == symmetry_order(region.cells)
        assert row["matching_subsets"] == result.matching_area
        assert row["tiling_subsets"] == len(result.subsets)
        assert row["unique_subsets"] == len(unique) and row["unique_sets"] == unique
        assert row["solutions"] == result.total_solutions


def test_per_subset_table_agrees_with_the_regions(reference):
    out, _ = reference
    regions = read_census(out).set_index("region")
    subsets = read_census(out, "subsets")
    grouped = subsets.groupby("region")["count"]
    tiling = regions[regions["tiling_subsets"] > 0]
    assert (grouped.size().reindex(tiling.index) == tiling["tiling_subsets"]).all()
    assert (grouped.sum().reindex(tiling.index) == tiling["solutions"]).all()
    unique = subsets[subsets["count"] == 1].groupby("region")["pieces"].apply(sorted)
    for region, names in unique.items():
        assert list(regions.loc[region, "unique_sets"]) == names


def test_process_pool_gives_the_same_dataset(reference, tmp_path):
    ref, _ = reference
    with make_executor("local", jobs=2) as pool:
        census(tmp_path / "pool", per_subset=True, executor=pool)
    for table in ("regions", "subsets"):
        pd.testing.assert_frame_equal(read_census(tmp_path / "pool", table), read_census(ref, table))


def test_a_shard_file_under_another_shards_name_is_computed_again(reference, tmp_path):
    # A shard copied over another (a restore gone wrong) was trusted on its name: 318 regions twice, 405 lost.
    import shutil

    ref, _ = reference
    out = tmp_path / "copied"
    shutil.copytree(ref, out)
    regions = sorted((out / "regions").glob("n08-*.parquet"))
    shutil.copyfile(regions[0], regions[1])
    outcome = census(out, per_subset=True)
    assert (outcome.ran, outcome.resumed) == (1, 5) and outcome.extra["redone"] == [regions[1].name]
    for table in ("regions", "subsets"):
        pd.testing.assert_frame_equal(read_census(out, table), read_census(ref, table))


def test_a_shard_of_another_census_is_computed_again(reference, tmp_path):
    # The same plan for K = 2 (the plan depends on the regions, not on K): its shards, copied into the K = 3
    # census under the same names, were taken as finished shards of it and the dataset held K = 2's analysis.
    import shutil

    ref, _ = reference
    other = tmp_path / "k2"
    census(other, k=2, per_subset=True)
    assert read_manifest(other)["plan"] == read_manifest(ref)["plan"]
    out = tmp_path / "mixed"
    shutil.copytree(ref, out)
    for table in ("regions", "subsets"):
        for f in sorted((other / table).glob("n09-*.parquet")):
            shutil.copyfile(f, out / table / f.name)
    k3 = read_census(ref)
    assert not read_census(out).equals(k3)  # the copies hold other rows
    outcome = census(out, per_subset=True)
    assert (outcome.ran, outcome.resumed) == (3, 3)
    assert outcome.extra["redone"] == [f.name for f in sorted((out / "regions").glob("n09-*.parquet"))]
    for table in ("regions", "subsets"):
        pd.testing.assert_frame_equal(read_census(out, table), read_census(ref, table))
    # K = 3's manifest put over the K = 2 census: every shard of it is computed again, none taken
    shutil.copyfile(ref / "manifest.json", other / "manifest.json")
    outcome = census(other, per_subset=True)
    assert (outcome.ran, outcome.resumed) == (6, 0)
    pd.testing.assert_frame_equal(read_census(other), k3)


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_dask_local_cluster_gives_the_same_dataset(reference, tmp_path):
    ref, _ = reference
    with make_executor("dask", jobs=2) as cluster:  # a real LocalCluster
        census(tmp_path / "dask", per_subset=True, executor=cluster)
    for table in ("regions", "subsets"):
        pd.testing.assert_frame_equal(read_census(tmp_path / "dask", table), read_census(ref, table))


def test_interrupted_run_resumes_to_the_same_dataset(reference, tmp_path):
    ref, _ = reference
    out = tmp_path / "stopped"
    seen = []

    def stop_after_two(n, index, rows):
        seen.append((n, index))
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        census(out, per_subset=True, on_shard=stop_after_two)
    assert len(list((out / "regions").glob("*.parquet"))) == 2
    outcome = census(out, per_subset=True)
    assert (outcome.ran, outcome.resumed) == (4, 2)
    for table in ("regions", "subsets"):
        pd.testing.assert_frame_equal(read_census(out, table), read_census(ref, table))
    # a lost shard file (and a temporary file a killed run left) : only that shard is run again
    victim = sorted((out / "regions").glob("*.parquet"))[3]
    victim.unlink()
    (out / "regions" / f".{victim.name}.~ubongo-cp-x1y2z3ab.parquet").write_bytes(b"half a file")
    outcome = census(out, per_subset=True)
    assert (outcome.ran, outcome.resumed) == (1, 5)
    assert not list((out / "regions").glob(".*"))
    for table in ("regions", "subsets"):
        pd.testing.assert_frame_equal(read_census(out, table), read_census(ref, table))


@pytest.mark.slow
def test_killed_process_resumes_to_the_same_dataset(reference, tmp_path):
    ref, _ = reference
    out = tmp_path / "killed"
    # the run's second shard is held (the five after the first take half a second): killed while it computes it
    cmd = held_command("ubongo_cp.census.run.census_shard", 2, "census", "--pieces", "classic", "--k", "3", "--cells",
                       "8-9", "--box", "4x4", "--shards", "3", "--jobs", "1", "--no-progress", "--out", out)
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not list((out / "regions").glob("n*.parquet")) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert proc.poll() is None, proc.communicate()[1]
    finally:
        proc.kill()
        proc.communicate()
    finished = len(list((out / "regions").glob("n*.parquet")))
    assert finished == 1
    outcome = census(out)
    assert (outcome.ran, outcome.resumed) == (6 - finished, finished)
    pd.testing.assert_frame_equal(read_census(out), read_census(ref))


def test_count_only_counts_the_same_regions(reference, tmp_path):
    ref, _ = reference
    outcome = census(tmp_path / "count", count_only=True)
    counts = read_census(tmp_path / "count", "counts")
    regions = read_census(ref)
    assert outcome.regions == counts["regions"].sum() == len(regions)
    by_class = regions.groupby(["cells", "rows", "cols", "symmetry", "holes"]).size()
    assert counts.groupby(["cells", "rows", "cols", "symmetry", "holes"])["regions"].sum().equals(by_class)
    with pytest.raises(InputError, match="count-only census has no 'regions'"):
        read_census(tmp_path / "count")
    assert census_summary(tmp_path / "count") == {"regions": 332, "count_only": True}
    # with holes: OEIS A000105 (369 octominoes, 6 with a hole)
    outcome = run_census("classic", 3, 8, holes=True, count_only=True, out_dir=tmp_path / "holes", progress=False)
    counts = read_census(tmp_path / "holes", "counts")
    assert outcome.regions == 369 and counts.loc[counts["holes"] > 0, "regions"].sum() == 6


def test_census_regions_best_first(reference):
    out, _ = reference
    frame = read_census(out)
    picked = census_regions(out, min_unique=4)
    assert len(picked) == (frame["unique_subsets"] >= 4).sum() > 0
    goodness = [frame.set_index("region").loc[region_text(r.cells), "unique_subsets"] for r in picked]
    assert goodness == sorted(goodness, reverse=True) and min(goodness) >= 4
    assert census_regions(out, min_unique=4) == picked  # deterministic
    nine = census_regions(out, min_unique=1, cells=9, limit=5)
    assert len(nine) == 5 and all(r.area == 9 for r in nine)
    summary = census_summary(out)
    assert summary["regions"] == 332 and summary["best"]["region"] == region_text(picked[0].cells)
    assert summary["cards"] == (frame["unique_subsets"] >= 6).sum()


def test_generate_draws_regions_from_a_census(reference, tmp_path):
    """``generate --from-census``: a side's regions come from the census, spread over its good regions."""
    from ubongo_cp.cover import build_instance
    from ubongo_cp.generate import generate_deck
    from ubongo_cp.solvers import solve
    from ubongo_cp.specs import parse_spec

    out, _ = reference
    spec = parse_spec("""game = "census-test"
pieces = "classic"
cards = 2
[[sides]]
name = "a"
pieces_per_task = 3
faces = 4
max_rows = 4
max_cols = 4
cells = [9, 9]
unique = true
[[sides]]
name = "b"
pieces_per_task = 3
faces = 4
max_rows = 5
max_cols = 5
cells = [11, 12]
unique = true
""", path=str(tmp_path / "deck.toml"))
    candidates = census_regions(out, min_unique=4)
    said = []
    deck = generate_deck(spec, None, seed=1, candidates=candidates, progress=said.append)
    # Side "a" (9 cells in 4x4) is drawn from the census; side "b" (11-12 cells) has no candidate and says so.
    assert [c.side for c in deck] == ["a", "a"]
    assert sum("hold none of 11-12 cells within 5x5" in line for line in said) == 2
    fitting = [region_text(r.cells) for r in candidates if r.area == 9]
    # Distinct boards spread over the census's list (best first): card 1 starts at its top, card 2 half way
    # down; every candidate has 4 uniquely tiling subsets (min_unique=4), so each keeps the one it starts at.
    assert [region_text(card.region.cells) for card in deck] == [fitting[0], fitting[len(fitting) // 2]]
    assert len(fitting) >= 2
    for card in deck:
        for face, _names in card.tasks.items():
            # each task tiles its region in exactly one way (CP-SAT, independent of the census's DLX analysis)
            assert solve(build_instance(card.task_pieces(face), card.region), backend="cpsat").count == 1


def test_an_incomplete_census_with_no_card_region_is_one_line(reference, tmp_path, run_cli):
    # With every shard lost, generate --from-census said the census incomplete in a warning line, then that it
    # holds no region a card side can take in an error line; now one line says both.
    import shutil

    ref, _ = reference
    out = tmp_path / "cz"
    shutil.copytree(ref, out)
    for shard in (out / "regions").glob("*.parquet"):
        shard.unlink()
    code, out_text, err = run_cli("generate", "--game", "classic", "--cards", "1", "--from-census", out, "--out",
                                  tmp_path / "g", "--no-progress")
    assert (code, out_text) == (2, "") and err == (
        f"ubongo-cp: error: {out}: holds no region a card side can take (none has 6 uniquely tiling subsets or "
        "more); it is an incomplete census: 6 of 6 shards missing (8 cells: 3 of 3, 9 cells: 3 of 3); read "
        "without them: run `ubongo-cp census` again with the same options to complete it\n")
    assert not (tmp_path / "g").exists()


def test_an_incomplete_census_is_read_with_a_warning(reference, tmp_path, run_cli):
    # A census with a shard missing (stopped before its end, a file lost) was read without a word: generate
    # --from-census exited 0 drawing from fewer regions than the census holds.
    import shutil
    import warnings

    from ubongo_cp.errors import InputWarning

    ref, _ = reference
    out = tmp_path / "cz"
    shutil.copytree(ref, out)
    lost = out / "regions" / "n09-00000-of-00003.parquet"
    gone = set(pd.read_parquet(lost)["region"])
    lost.unlink()
    said = (f"{out}: incomplete census: 1 of 6 shards missing (9 cells: 1 of 3); read without them: run "
            "`ubongo-cp census` again with the same options to complete it")
    whole = read_census(ref)
    with pytest.warns(InputWarning) as caught:
        frame = read_census(out)
    assert [str(w.message) for w in caught] == [said]
    expected = whole[~whole["region"].isin(gone)].reset_index(drop=True)
    assert len(frame) == len(whole) - len(gone) and len(gone) > 0
    pd.testing.assert_frame_equal(frame, expected)
    with pytest.warns(InputWarning, match="incomplete census"):
        picked = [region_text(r.cells) for r in census_regions(out, min_unique=1)]
    assert picked == [k for k in map(region_text, (r.cells for r in census_regions(ref, min_unique=1)))
                      if k not in gone]
    # the command line says it in one line, and goes on with the regions there are
    (tmp_path / "deck.toml").write_text('game = "census-test"\npieces = "classic"\ncards = 1\n[[sides]]\n'
                                        'name = "a"\npieces_per_task = 3\nfaces = 4\nmax_rows = 4\n'
                                        'max_cols = 4\ncells = [9, 9]\nunique = true\n')
    code, _, err = run_cli("generate", "--spec", tmp_path / "deck.toml", "--out", tmp_path / "g", "--from-census",
                           out, "--no-progress")
    assert code == 0 and err == f"ubongo-cp: {said}\n"
    # census run again with the same options completes it: no warning, the reference's rows
    assert (census(out, per_subset=True).ran, census(out, per_subset=True).ran) == (1, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pd.testing.assert_frame_equal(read_census(out), whole)
        assert census_regions(ref, min_unique=1) == census_regions(out, min_unique=1)


def test_refuses_a_census_of_other_parameters(reference, tmp_path):
    ref, _ = reference
    for change, what in [({"k": 2}, "k: 3, asked 2"), ({"box": (4, 5)}, "box"), ({"per_subset": False}, "per_subset"),
                         ({"holes": True}, "holes"), ({"cells": [8]}, "cells"), ({"shards": 4}, "shard counts")]:
        with pytest.raises(InputError, match=what):
            census(ref, **{"per_subset": True, **change})
    with pytest.raises(InputError, match="not a census directory"):
        read_census(tmp_path)
    (tmp_path / "stray" / "regions").mkdir(parents=True)
    with pytest.raises(InputError, match="stray/regions: exists and was not written by `ubongo-cp census`"):
        census(tmp_path / "stray")
    out = tmp_path / "extra"
    census(out, cells=[8], shards=1)
    (out / "regions" / "n08-00000-of-00002.parquet").write_bytes(b"")
    with pytest.raises(InputError, match="belongs to no shard"):
        census(out, cells=[8], shards=None)
    assert read_manifest(out)["plan"] == {"8": {"shards": 1, "depth": 3}}


def test_a_census_of_a_piece_file_edited_since_names_the_piece_that_changed(tmp_path, run_cli):
    # The piece file of a census changed between the run and its resumption: the refusal showed both lists of
    # pieces, for a set of a dozen cut at 40 characters where they were still the same ("[['I2', '#/#'],
    # ['I3', '#/#/#'], ['L3..., asked [['I2', '#/#'], ['I3', '#/#/#'], ['L3..."), not what differs.
    pieces = tmp_path / "trominoes.txt"
    pieces.write_text("I3\n###\n\nL3\n#.\n##\n")
    args = ("census", "--pieces", pieces, "--k", "2", "--cells", "6", "--out", tmp_path / "c", "--no-progress")
    assert run_cli(*args)[0] == 0
    pieces.write_text("I3\n###\n\nL3\n###\n")      # a straight tromino under the name L3
    code, out, err = run_cli(*args)
    assert (code, err) == (2, f"ubongo-cp: error: {tmp_path / 'c'}: holds a census of other parameters (piece 2: "
                              "L3 #./##, asked L3 ###); choose another directory\n")
    pieces.write_text("I3\n###\n\nL3\n#.\n##\n\nI2\n##\n")
    code, out, err = run_cli(*args)
    assert (code, err) == (2, f"ubongo-cp: error: {tmp_path / 'c'}: holds a census of other parameters (2 pieces, "
                              "asked 3); choose another directory\n")


@pytest.mark.parametrize("args, message", [
    (("nosuchset", 3, 8), "unknown piece set 'nosuchset'"),
    (("classic", 13, 8), "K = 13 is more than the 12 pieces of classic"),
    (("classic", 0, 8), "K must be a whole number of at least 1, got 0"),
    # "3" was read as "K must be at least 1, got 3"; cells "8" a TypeError from a comparison, pieces 3 from os.fspath
    (("classic", "3", 8), "K must be a whole number of at least 1, got '3'"),
    (("classic", 3, "8"), "cells is a number of cells or a list of them, got '8'"),
    (("classic", 3, [8, "9"]), "a region size must be a whole number, got '9'"),
    ((3, 3, 8), "pieces is a shipped set's name, a piece-set file or a PieceSet, got int"),
    (("classic", 3, 7), "7 cells is smaller than the 3 smallest pieces of classic (8 cells)"),
    (("classic", 4, 21), "21 cells is larger than the 4 largest pieces of classic (20 cells)"),
    (("duel", 4, [20, 30]), "30 cells is larger"),
    # a flag given as a string was read as true ("no": a census with holes), a box of 2.5 rows taken as one
    (("classic", 3, 8, {"holes": "no"}), "holes must be True or False, got 'no'"),
    (("classic", 3, 8, {"count_only": 1}), "count_only must be True or False, got 1"),
    (("classic", 3, 8, {"per_subset": "yes"}), "per_subset must be True or False, got 'yes'"),
    (("classic", 3, 8, {"box": (2.5, 4)}), "a box side must be a whole number of at least 1, got 2.5"),
])
def test_bad_input(args, message):
    keywords = args[-1] if isinstance(args[-1], dict) else {}
    with pytest.raises(InputError) as info:
        make_spec(*args[:3], **keywords)
    assert message in str(info.value) and "\n" not in str(info.value) and "--" not in str(info.value)
    with pytest.raises(InputError, match=r"does not fit a 3x4 box \(12 cells\)"):
        make_spec("classic", 3, 13, box=(4, 3))


@pytest.mark.parametrize("shards", [0, -3, "4", 2.5])
def test_a_shard_plan_takes_only_a_whole_number_of_shards(shards):
    # on hexagons -3 was planned as -3 shards, 0 as the default plan; "4" raised a TypeError on squares
    for pieces, cells in (("tetrahexes", 8), ("classic", 8)):
        with pytest.raises(InputError, match="shards must be a whole number of at least 1"):
            plan_census(make_spec(pieces, 2 if pieces == "tetrahexes" else 3, cells), shards)


def test_refuses_a_census_too_large_to_hold(tmp_path):
    # Estimated at 7.5e17 CPU-seconds: refused by the time bound first, and even when it is lifted,
    # no plan of at most MAX_SHARDS shards could hold it.
    with pytest.raises(InputError, match="CPU-seconds"):
        run_census("pentominoes", 8, 40, out_dir=tmp_path / "huge", progress=False)
    with pytest.raises(InputError, match="regions of 40 cells: more than one census can hold"):
        run_census("pentominoes", 8, 40, out_dir=tmp_path / "huge", progress=False, max_cpu_seconds=None)
    assert not (tmp_path / "huge").exists()


@pytest.mark.parametrize("argv, message", [
    (["--pieces", "nosuchset", "--k", "3", "--cells", "8"], "'nosuchset' is neither a file nor a shipped piece set"),
    (["--pieces", "classic", "--k", "13", "--cells", "8"], "K = 13 is more than"),
    (["--pieces", "classic", "--k", "3", "--cells", "5"], "smaller than the 3 smallest"),
    (["--pieces", "classic", "--k", "3", "--cells", "16"], "larger than the 3 largest"),
    (["--pieces", "classic", "--k", "3", "--cells", "12", "--box", "3x3"], "does not fit a 3x3 box"),
    (["--pieces", "classic", "--k", "3", "--cells", "12", "--box", "3by3"], "--box expects RxC"),
    (["--pieces", "classic", "--k", "3", "--cells", "twelve"], "--cells expects N or a range"),
    (["--pieces", "classic", "--k", "3", "--cells", "9-8"], "range increasing"),
    (["--pieces", "classic", "--k", "3", "--cells", "8", "--shards", "0"], "--shards must be at least 1"),
])
def test_cli_bad_input_exits_2_with_one_line(run_cli, tmp_path, argv, message):
    code, out, err = run_cli("census", *argv, "--out", tmp_path / "c", "--no-progress")
    assert code == 2 and out == ""
    assert err.startswith("ubongo-cp: error: ") and message in err and err.count("\n") == 1
    assert not (tmp_path / "c").exists()


def test_cli_runs_resumes_and_summarises(run_cli, tmp_path):
    argv = ["census", "--pieces", "classic", "--k", "3", "--cells", "8", "--box", "4x4", "--out", tmp_path / "c",
            "--jobs", "1", "--no-progress"]
    code, out, err = run_cli(*argv)
    assert code == 0, err
    lines = out.splitlines()
    shards = read_manifest(tmp_path / "c")["plan"]["8"]["shards"]
    assert lines[0] == (f"census classic, K = 3, 8 cells (hole-free, within 4x4): 134 regions in {shards} shard(s) "
                        f"({shards} run now, 0 resumed)")
    assert lines[1].startswith("regions with >= 1 uniquely tiling subset: ")
    assert lines[2].startswith("regions with >= 6 (a card side): ")
    assert lines[3].startswith("best region: ") and "#" in lines[4]
    assert lines[-1].startswith(f"dataset {tmp_path / 'c'}/regions") and "wall time" in lines[-1]
    assert "CPU-s in the shards, worker peak RSS" in lines[-1]
    code, out, _ = run_cli(*argv)
    assert code == 0 and f"(0 run now, {shards} resumed)" in out and "CPU-s" not in out


@pytest.mark.parametrize("kind", ["file", "dangling link"])
def test_a_file_where_the_census_keeps_its_regions_folder_is_named(tmp_path, run_cli, kind):
    # It said only "c/regions: File exists" (mkdir's words), naming neither the folder nor what to do.
    out = tmp_path / "c"
    argv = ["census", "--pieces", "classic", "--k", "2", "--cells", "5", "--out", out, "--jobs", "1", "--no-progress"]
    assert run_cli(*argv)[0] == 0
    regions = out / "regions"
    for shard in regions.iterdir():
        shard.unlink()
    regions.rmdir()
    if kind == "file":
        regions.write_text("mine")
    else:
        regions.symlink_to(tmp_path / "nowhere")
    said = "is a file where the census keeps its regions folder" if kind == "file" else "is a link to another folder"
    assert run_cli(*argv) == (2, "", f"ubongo-cp: error: {out}: regions {said}; "
                                     + ("choose another directory\n" if kind == "file" else
                                        "the census writes its shards in a folder of its own: choose another "
                                        "directory\n"))
    assert regions.is_symlink() or regions.read_text() == "mine"
    regions.unlink()   # the folder given back: the census is computed again, the 12 free pentominoes (A000104)
    code, out_text, _ = run_cli(*argv)
    assert code == 0 and len(read_census(out, "regions")) == 12


def test_no_more_shards_than_regions(tmp_path, run_cli):
    # --shards 100000 on the 12 pentomino-shaped regions of 5 cells once wrote 100,000 files, nearly all empty.
    code, out, err = run_cli("census", "--pieces", "classic", "--k", "2", "--cells", "5", "--shards", "100000",
                             "--out", tmp_path / "c", "--no-progress")
    assert code == 0, err
    shards = read_manifest(tmp_path / "c")["plan"]["5"]["shards"]
    assert 1 <= shards <= 12 and len(list((tmp_path / "c" / "regions").iterdir())) == shards
    assert out.startswith(f"census classic, K = 2, 5 cells (hole-free, any box): 12 regions in {shards} shard(s)")


@pytest.mark.parametrize("box, expected", [((2, 4), 2), ((2, 5), 38), ((3, 4), 191)])
def test_a_hexagon_box_takes_every_orientation_of_a_region(box, expected):
    # A region counts up to symmetry, so it fits a box when any image does; on hexagons a turn by 60 or
    # 120 degrees changes the text picture's rows and columns (only the stored form and its row/column
    # swap were tried: 0, 1 and 83 regions of 8 hexagons). Brute force: every connected hole-free set
    # of 8 cells of the R x C and C x R text pictures (rows starting at either offset), by canonical form.
    from itertools import combinations

    from ubongo_cp.grids import HEX
    from ubongo_cp.pieces import parse_region
    from ubongo_cp.polyforms import count_census_classes, holes_of

    seen = set()
    for rows, cols in (box, box[::-1]):
        for odd in (0, 1):
            text = "\n".join((" " if (i + odd) % 2 else "") + " ".join("#" * cols) for i in range(rows))
            for cells in combinations(parse_region(f"grid: hex\n{text}\n").cells, 8):
                if HEX.is_connected(cells) and not holes_of(HEX, HEX.normalize(cells)):
                    seen.add(HEX.canonical(cells))
    assert len(seen) == expected
    assert sum(count_census_classes("hex", 8, box=box).values()) == expected


@pytest.mark.parametrize("grid, n, box", [("hex", 8, (3, 4)), ("hex", 7, (2, 5)), ("triangle", 10, (3, 5)),
                                          ("triangle", 9, (2, 6))])
def test_a_box_cuts_the_search_on_hexagons_and_triangles_and_keeps_every_region(grid, n, box, monkeypatch):
    # The search grows no polyform beyond the box (as on squares): its leaves are the fixed polyforms whose
    # picture fits the box either way round, not every fixed polyform of the size; the regions are those
    # of the whole enumeration that fit.
    from ubongo_cp import polyforms
    from ubongo_cp.grids import get_grid

    g = get_grid(grid)
    every_fixed = list(polyforms.fixed_polyforms(g, n))
    sizes = [g.text_size(s) for s in every_fixed]
    in_box = sum(1 for rows, cols in sizes if any(rows <= a and cols <= b for a, b in (box, box[::-1])))
    expected = {s for s in polyforms.free_polyforms(g, n) if polyforms.fits_box(g, s, box)}
    leaves = []
    grow = polyforms._grow_from

    def counted(neighbours, origin, size, leaf, *rest):
        grow(neighbours, origin, size, lambda cells: (leaves.append(cells), leaf(cells)), *rest)

    monkeypatch.setattr(polyforms, "_grow_from", counted)
    polyforms._fixed_array.cache_clear()
    try:
        found = list(polyforms.census_polyforms(g, n, box=box, holes=True))
    finally:
        polyforms._fixed_array.cache_clear()
    assert len(leaves) == in_box < len(every_fixed)
    assert {shape for shape, _, _ in found} == expected and len(found) == len(expected)
    hole_free = {shape for shape, _, holes in found if not holes}
    assert {shape for shape, _, _ in polyforms.census_polyforms(g, n, box=box)} == hole_free


def test_a_hexagon_census_plan_counts_the_regions_in_its_box(tmp_path):
    # The estimate (and the shards) of a census on hexagons with a box count the regions that fit it:
    # those of the 1448 free polyhexes of 8 cells (the whole enumeration, no box) whose picture fits 2x5.
    from ubongo_cp import polyforms
    from ubongo_cp.census import plan_census
    from ubongo_cp.errors import JobTooLargeError
    from ubongo_cp.grids import get_grid

    hexes = get_grid("hex")
    every = list(polyforms.free_polyforms(hexes, 8))
    fit = sum(polyforms.fits_box(hexes, shape, (2, 5)) for shape in every)
    assert len(every) == 1448 and 0 < fit < len(every)
    spec = make_spec("tetrahexes", 2, 8, box=(2, 5))
    with pytest.raises(JobTooLargeError, match=rf"; {fit} regions at about"):
        plan_census(spec, max_cpu_seconds=0.001)
    assert plan_census(spec) == {"8": {"shards": 1, "depth": 1}}


@pytest.mark.parametrize("old", [None, "any symmetry image"])
def test_a_hexagon_census_with_a_box_fitted_or_dealt_the_old_way_is_not_resumed(tmp_path, run_cli, old):
    # A census folder of hexagons with a box written when the box took only the stored form and its row/column
    # swap (its manifest has no "box_fit") holds too few regions; one whose shards were dealt every region of
    # the size before the box filtered them holds other regions per shard. Resuming either would mix them.
    import json

    from ubongo_cp.census.spec import BOX_FIT

    args = ("census", "--pieces", "tetrahexes", "--k", "2", "--cells", "8", "--box", "2x5", "--out", tmp_path / "c",
            "--no-progress")
    code, out, err = run_cli(*args)
    assert code == 0, err
    manifest_file = tmp_path / "c" / "manifest.json"
    manifest = json.loads(manifest_file.read_text())
    assert manifest["box_fit"] == BOX_FIT == "any symmetry image, dealt from the regions in the box"
    if old is None:
        del manifest["box_fit"]
    else:
        manifest["box_fit"] = old
    manifest_file.write_text(json.dumps(manifest))
    code, out, err = run_cli(*args)
    shown = "null" if old is None else old
    assert code == 2 and f"other parameters (box_fit: {shown}, asked {BOX_FIT})" in err


def test_a_manifest_number_of_400_digits_is_cut_in_the_message(tmp_path, run_cli):
    # A manifest whose k is 10**400 (JSON allows any whole number): the refusal repeated its 400 digits in full.
    import json

    args = ("census", "--pieces", "tetrahexes", "--k", "2", "--cells", "8", "--out", tmp_path / "c", "--no-progress")
    code, out, err = run_cli(*args)
    assert code == 0, err
    manifest_file = tmp_path / "c" / "manifest.json"
    manifest = json.loads(manifest_file.read_text())
    manifest["k"] = 10 ** 400
    manifest_file.write_text(json.dumps(manifest))
    code, out, err = run_cli(*args)
    assert (code, err) == (2, f"ubongo-cp: error: {tmp_path / 'c'}: holds a census of other parameters (k: "
                              "1000000000000000000000000000000000000..., asked 2); choose another directory\n")



def test_a_census_beyond_the_fixed_polyforms_held_in_memory_is_refused_before_enumerating(run_cli, tmp_path,
                                                                                          monkeypatch):
    # On hexagons, triangles and cubes the enumeration holds every fixed polyform in memory: 12 cubes are
    # 446,205,905 of them (OEIS A001931), which ran for hours and filled the memory before the census's own
    # cost check. Knuth's estimate is checked first; with the bound lowered to 10,000 the published counts
    # decide: 3,652 fixed polyhexes of 7 cells and 3,481 polycubes of 6 are enumerated, 16,689 polyhexes
    # of 8 (A001207) and 23,502 polycubes of 7 are refused, unless a box leaves fewer.
    from conftest import one_line_error
    from ubongo_cp import polyforms

    monkeypatch.setattr(polyforms, "MAX_FIXED_POLYFORMS", 10_000)
    polyforms._fixed_array.cache_clear()
    try:
        assert polyforms.count_polyforms("hex", 7) == 333 and polyforms.count_polyforms("cube", 6) == 166
        for grid, n in (("hex", 8), ("cube", 7)):
            with pytest.raises(InputError, match=rf"fixed polyforms of {n} cells on the {grid} grid: more than "
                                                 r"the 10,000 one enumeration holds in memory"):
                polyforms.count_polyforms(grid, n)
        code, _, err = run_cli("census", "--pieces", "tetrahexes", "--k", "2", "--cells", "8", "--out",
                               tmp_path / "c", "--jobs", "1", "--no-progress")
        one_line_error(code, err, "fixed polyforms of 8 cells on the hex grid", "give fewer cells or a smaller box")
        assert not (tmp_path / "c").exists()
        # The 8 hexagons of a 2x4 picture (the test above: 2 regions) are few: that census runs.
        code, out, err = run_cli("census", "--pieces", "tetrahexes", "--k", "2", "--cells", "8", "--box", "2x4",
                                 "--out", tmp_path / "d", "--jobs", "1", "--no-progress")
        assert code == 0 and "2 regions" in out, err
    finally:
        polyforms._fixed_array.cache_clear()


def test_census_sizes_may_be_numpy_whole_numbers_or_a_range():
    import numpy as np

    spec = make_spec("classic", np.int64(2), range(6, 9))
    assert spec.k == 2 and type(spec.k) is int and spec.cells == (6, 7, 8)
    assert make_spec("classic", 2, np.int64(6)).cells == (6,)


def test_a_census_of_other_pieces_or_another_k_is_named_when_a_deck_draws_from_it(tmp_path, run_cli):
    # A census ranks regions for its own pieces and K: drawing the designer's deck (its 8 pieces, 3 and 4 per task)
    # from a census of the pentominoes in pairs was silent; it is now said in one note, and the deck made.
    census = tmp_path / "pent"
    code, _, err = run_cli("census", "--pieces", "pentominoes", "--k", "2", "--cells", "10", "--box", "4x4",
                           "--out", census, "--no-progress")
    assert code == 0, err
    code, _, err = run_cli("generate", "--spec", "designer", "--from-census", census, "--out", tmp_path / "d",
                           "--cards", "1", "--no-progress")
    assert code == 0, err
    assert (f"ubongo-cp: note: {census} is a census of pentominoes, 2 per subset; the spec's card sides take "
            "other pieces (pieces.txt), 3 and 4 per task: the census ranks its regions for other tasks") in err.splitlines()
    own = tmp_path / "own"
    code, _, err = run_cli("census", "--pieces", ROOT / "ubongo_cp" / "data" / "examples" / "designer" / "pieces.txt",
                           "--k", "3", "--cells", "9-10", "--box", "4x4", "--out", own, "--no-progress")
    assert code == 0, err
    code, _, err = run_cli("generate", "--spec", "designer", "--from-census", own, "--out", tmp_path / "e",
                           "--cards", "1", "--no-progress")
    assert code == 0 and "note:" not in err, err


def test_generate_from_a_census_takes_regions_with_as_many_unique_tasks_as_the_die_has_faces(run_cli, tmp_path):
    # A spec of a 2-face die refused a census of regions with 2 to 5 uniquely tiling subsets: "holds no region
    # a card side can take (none has 6 uniquely tiling subsets or more)", six being the shipped games' die.
    (tmp_path / "pieces.txt").write_text("D2\n##\n\nL3\n#.\n##\n\nI3\n###\n\nT4\n###\n.#.\n\nO4\n##\n##\n")
    (tmp_path / "deck.toml").write_text('game = "small"\npieces = "pieces.txt"\ncards = 1\n[[sides]]\nname = "s"\n'
                                        "pieces_per_task = 2\nfaces = 2\nmax_rows = 3\nmax_cols = 3\n"
                                        "cells = [5, 6]\nunique = true\n")
    code, _, err = run_cli("census", "--pieces", tmp_path / "pieces.txt", "--k", "2", "--cells", "5-6", "--box",
                           "3x3", "--out", tmp_path / "c", "--no-progress")
    assert code == 0, err
    code, out_text, err = run_cli("generate", "--spec", tmp_path / "deck.toml", "--from-census", tmp_path / "c",
                                  "--out", tmp_path / "g", "--no-progress")
    assert (code, err) == (0, ""), err
    assert out_text.startswith("wrote 1 card sides (2 tasks, 2 uniquely solvable)")
