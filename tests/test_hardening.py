"""Regression tests through the command line: wrong answers, bad input, jobs that would hang.

Each case runs ``ubongo-cp`` in-process and checks the exit status and that
an error is one line naming the file (and its line where there is one).
"""

from __future__ import annotations

import gzip
import json
import os
import re
import time
from pathlib import Path

from conftest import ROOT, one_line_error, write

import pytest

from ubongo_cp.errors import InputError

EXAMPLES = ROOT / "puzzles" / "examples"
CARD = EXAMPLES / "classic_X1_easy.toml"
BIG = "9" * 5000  # more digits than Python converts to an int (4,300)


def card_text() -> str:
    """The example card, its piece set named by its shipped name (the copy lives elsewhere)."""
    return CARD.read_text().replace('pieces = "../pieces/classic.txt"', 'pieces = "classic"')


# ----------------------------------------------------------------- one clear line for every bad input
def test_a_number_of_5000_digits_is_one_clear_line_in_every_loader(run_cli, tmp_path):
    card = write(tmp_path / "c.toml", card_text().replace('side = "easy"', f'side = "easy"\nx = {BIG}'))
    line = card.read_text().splitlines().index(f"x = {BIG}") + 1
    code, _, err = run_cli("solve", card)
    one_line_error(code, err, f"{card}:{line}: a number of 5000 digits")
    record = write(tmp_path / "r.json", '{"format": "ubongo-cp/domino-record",\n"seed": ' + BIG + "}")
    code, _, err = run_cli("simulate", "domino", "--replay", record)
    one_line_error(code, err, f"{record}:2: a number of 5000 digits")
    spec = write(tmp_path / "s.toml", f"game = \"g\"\ncards = {BIG}\n")
    code, _, err = run_cli("generate", "--spec", spec, "--out", tmp_path / "deck")
    one_line_error(code, err, f"{spec}:2: a number of 5000 digits")
    xml = write(tmp_path / "p.xmpuzzle", f'<?xml version="1.0"?>\n<puzzle version="2">\n<shapes>\n'
                f'<voxel x="{BIG}" y="1" z="1" type="0">#</voxel>\n</shapes>\n</puzzle>\n')
    code, _, err = run_cli("solve", xml)
    one_line_error(code, err, f"{xml}:4:", "5000 digits")
    code, _, err = run_cli("census", "--pieces", "classic", "--k", "3", "--cells", BIG, "--out", tmp_path / "c")
    one_line_error(code, err, "--cells")


def test_one_card_with_a_huge_number_is_skipped_like_other_bad_cards(run_cli, tmp_path):
    deck = tmp_path / "deck"
    deck.mkdir()
    write(deck / "good.toml", card_text())
    write(deck / "bad.toml", card_text().replace('card = "X1"', f"card = {BIG}"))
    code, out, err = run_cli("cards", deck, "--out", tmp_path / "cards.pdf")
    assert code == 0, err
    assert "bad.toml" in out + err and "5000 digits" in out + err


def test_a_die_face_of_5000_digits_is_one_clear_line_and_skipped_in_a_deck(run_cli, tmp_path):
    text = card_text()
    assert '\n1 = ["I2", "L4", "Y5"]' in text  # the example's first task, its key made too long to read
    bad = text.replace('\n1 = ["I2", "L4", "Y5"]', f'\n1{"0" * 5000} = ["I2", "L4", "Y5"]')
    deck = tmp_path / "deck"
    deck.mkdir()
    write(deck / "good.toml", card_text())
    card = write(deck / "bad.toml", bad)
    line = bad.splitlines().index(f'1{"0" * 5000} = ["I2", "L4", "Y5"]') + 1
    code, _, err = run_cli("solve", card)
    one_line_error(code, err, f"{card}:{line}: die face: a number of 5001 digits (at most 4300 are read)")
    code, out, err = run_cli("batch", deck, "--out", tmp_path / "out", "--no-progress")
    assert code == 0, err
    assert f"- {card}:{line}: die face: a number of 5001 digits" in out
    assert "- card sides: 1 (1 card file(s) skipped)" in out
    assert "- tasks: 6; solved 6" in out  # the good card's six tasks
    for command in ("booklet", "cards"):
        code, out, err = run_cli(command, deck, "--out", tmp_path / f"{command}.pdf", "--no-progress")
        assert code == 0, err
        assert f"skipped {card}:{line}: die face: a number of 5001 digits" in out + err


def test_a_damaged_census_shard_is_computed_again(run_cli, tmp_path):
    out = tmp_path / "census"
    args = ("census", "--pieces", "classic", "--k", "3", "--cells", "8", "--out", out, "--jobs", "1",
            "--no-progress")
    code, first, err = run_cli(*args)
    assert code == 0, err
    shards = sorted((out / "regions").glob("*.parquet"))
    shards[0].write_bytes(b"")          # empty
    shards[-1].write_bytes(b"garbage")  # not Parquet
    pages = bytearray(shards[1].read_bytes())  # whole footer, a data page overwritten (found by the fuzz test)
    pages[8:60] = bytes(52)
    shards[1].write_bytes(bytes(pages))
    code, again, err = run_cli(*args)
    assert code == 0, err
    assert "363 regions" in again and "3 damaged shard(s) computed again" in again


def test_a_census_shard_without_a_column_is_named_not_read_as_nulls(run_cli, tmp_path):
    # A shard saved again by pandas without its `region` column (or one renamed): the dataset read the column as
    # nulls and `generate --from-census` ended in "AttributeError: 'NoneType' object has no attribute 'split'"
    # (exit 1); `census --summary`-style reads took the missing values for regions.
    import pandas as pd

    from ubongo_cp.census.dataset import census_regions, read_census

    out = tmp_path / "census"
    args = ("census", "--pieces", "classic", "--k", "3", "--cells", "8", "--out", out, "--jobs", "1",
            "--no-progress")
    assert run_cli(*args)[0] == 0
    whole = read_census(out)
    best = census_regions(out, 1)
    shard = sorted((out / "regions").glob("*.parquet"))[0]
    frame = pd.read_parquet(shard)
    assert len(frame) > 0
    for edit in (frame.drop(columns="region"), frame.rename(columns={"region": "Region"})):
        edit.to_parquet(shard)
        with pytest.raises(InputError) as info:
            read_census(out)
        assert str(info.value) == (f"{shard}: a damaged shard (not a whole Parquet file of this table); run the "
                                   "census again to compute it again")
        code, _, err = run_cli("generate", "--game", "classic", "--out", tmp_path / "deck", "--cards", "1",
                               "--from-census", out)
        one_line_error(code, err, f"{shard}: a damaged shard")
        assert not (tmp_path / "deck").exists()
    code, again, err = run_cli(*args)   # the advice: the census computes the shard again, as it was
    assert code == 0 and "1 damaged shard(s) computed again" in again, (again, err)
    pd.testing.assert_frame_equal(read_census(out), whole)
    assert census_regions(out, 1) == best


def test_a_census_manifest_with_a_missing_key_is_named(run_cli, tmp_path):
    out = tmp_path / "census"
    args = ("census", "--pieces", "classic", "--k", "3", "--cells", "8", "--out", out, "--jobs", "1",
            "--no-progress")
    assert run_cli(*args)[0] == 0
    manifest = json.loads((out / "manifest.json").read_text())
    del manifest["count_only"]
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1))
    code, _, err = run_cli(*args)
    one_line_error(code, err, str(out / "manifest.json"), "'count_only'")


def test_count_only_census_takes_any_size(tmp_path):
    from ubongo_cp.census.spec import make_spec

    assert make_spec("classic", 3, 16, count_only=True).cells == (16,)
    with pytest.raises(InputError, match="larger than the 3 largest pieces"):
        make_spec("classic", 3, 16)


def test_journal_lines_that_are_not_rows_are_run_again(run_cli, tmp_path):
    deck = tmp_path / "deck"
    deck.mkdir()
    write(deck / "x1.toml", card_text())
    out = tmp_path / "out"
    args = ("batch", deck, "--out", out, "--jobs", "1", "--no-progress")
    code, _, err = run_cli(*args)
    assert code == 0, err
    journal = out / "tasks.jsonl"
    rows = journal.read_text().splitlines()
    journal.write_text("\n".join(["null", "[1, 2]", '{"card_id": 3}', *rows[1:]]) + "\n")
    code, text, err = run_cli(*args)
    assert code == 0, err
    assert "1 task(s) computed" in text


def test_a_domino_record_with_a_result_of_the_wrong_type(run_cli, tmp_path):
    code, _, err = run_cli("simulate", "domino", "--games", "1", "--record", tmp_path / "g.json")
    assert code == 0, err
    record = json.loads((tmp_path / "g.json").read_text())
    for field, value in (("result", [1, 2]), ("moves", 7), ("deal", "x"), ("settings", [1])):
        broken = dict(record, **{field: value})
        f = write(tmp_path / f"bad_{field}.json", json.dumps(broken))
        code, _, err = run_cli("simulate", "domino", "--replay", f)
        one_line_error(code, err, str(f), field)


def test_a_domino_record_with_an_infinite_domino_id(run_cli, tmp_path):
    # JSON's Infinity where a domino id belongs: once "OverflowError: cannot convert float infinity to integer",
    # exit status 1, and no file named.
    code, _, err = run_cli("simulate", "domino", "--games", "1", "--record", tmp_path / "g.json")
    assert code == 0, err
    record = json.loads((tmp_path / "g.json").read_text())
    record["deal"]["start"] = float("inf")
    f = write(tmp_path / "inf.json", json.dumps(record))
    code, _, err = run_cli("simulate", "domino", "--replay", f)
    one_line_error(code, err, f"{f}: deal has unknown domino ids [inf]")


def test_xml_with_an_unknown_encoding(run_cli, tmp_path):
    f = tmp_path / "p.xmpuzzle"
    f.write_bytes(b'<?xml version="1.0" encoding="klingon-8"?>\n<puzzle version="2"/>\n')
    code, _, err = run_cli("solve", f)
    one_line_error(code, err, f"{f}:1:", "unknown encoding 'klingon-8'")


def test_burrtools_file_with_latin1_names_and_no_declaration(tmp_path):
    # BurrTools writes names in the system's 8-bit code page without an XML declaration.
    from ubongo_cp.burrtools import read_xmpuzzle

    xml = ('<puzzle version="2"><gridType type="0"/><shapes>'
           '<voxel x="2" y="1" z="1" name="Stück" type="0">##</voxel>'
           '<voxel x="4" y="1" z="1" name="Größe" type="0">####</voxel></shapes>'
           '<problems><problem name="Aufgabe"><shapes><shape id="0" count="2"/></shapes><result id="1"/>'
           '</problem></problems></puzzle>')
    for opener, name in ((gzip.compress, "g.xmpuzzle"), (bytes, "p.xmpuzzle")):
        f = tmp_path / name
        f.write_bytes(opener(xml.encode("latin-1")))
        pieces, region, title, *_ = read_xmpuzzle(f)
        assert [p.name for p in pieces] == ["Stück", "Stück"] and region.area == 4 and title == "Aufgabe"
    # UTF-16 and UTF-32 with their byte-order marks, declared or not (refused as "neither gzip-compressed nor XML")
    for declared in ("", '<?xml version="1.0" encoding="{}"?>\n'):
        for codec, bom in (("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff"), ("utf-32-le", b"\xff\xfe\x00\x00")):
            f = tmp_path / f"{codec}.xmpuzzle"
            f.write_bytes(bom + (declared.format(codec[:6]) + xml).encode(codec))
            pieces, region, title, *_ = read_xmpuzzle(f)
            assert [p.name for p in pieces] == ["Stück", "Stück"] and region.area == 4 and title == "Aufgabe", codec
            # known by its content under another name too, as the command line finds a BurrTools file
            from ubongo_cp.cli.common import looks_like_burrtools

            assert looks_like_burrtools(f.rename(f.with_suffix(".xml")))


def test_an_exact_cover_file_with_too_many_items(run_cli, tmp_path):
    f = write(tmp_path / "big.dlx", " ".join(f"i{k}" for k in range(80_000)) + "\ni0 i1\n")
    code, _, err = run_cli("exact-cover", f)
    one_line_error(code, err, f"{f}:1:", "80000 items")


def test_orion_tiles_that_never_fit(run_cli, tmp_path):
    # A tile as long as the board is wide fits nowhere: no first move can ever be made.
    f = write(tmp_path / "long.txt", "L\n" + "O " * 20 + "\n")
    code, _, err = run_cli("orion", "play", "--tiles", f)
    one_line_error(code, err, str(f), "no tile fits anywhere on the board")


def test_batch_output_that_cannot_be_written_is_named(run_cli, tmp_path, monkeypatch):
    import errno

    deck = tmp_path / "deck"
    deck.mkdir()
    write(deck / "x1.toml", card_text())
    real_open = Path.open

    def full_disk(self, mode="r", *args, **kwargs):
        if self.name == "tasks.jsonl" and "a" in mode:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_open(self, mode, *args, **kwargs)

    monkeypatch.setattr(Path, "open", full_disk)
    code, _, err = run_cli("batch", deck, "--out", tmp_path / "out", "--jobs", "1", "--no-progress")
    one_line_error(code, err, "tasks.jsonl", "No space left on device")


# ----------------------------------------------------------------- nothing that hangs or eats the machine
@pytest.mark.parametrize("command", [["solve", "--pieces", "{f}", "--region", str(EXAMPLES / "duel_board1.txt")],
                                     ["solve", "--pieces", "classic", "--region", "{f}"],
                                     ["solve", "{f}"], ["exact-cover", "{f}"],
                                     ["simulate", "domino", "--replay", "{f}"]])
def test_what_is_not_a_regular_file_is_refused(run_cli, tmp_path, command):
    fifo = tmp_path / "fifo.txt"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.toml"
    zero.symlink_to("/dev/zero")
    for f, what in ((fifo, "is a FIFO"), (zero, "is a device")):
        code, _, err = run_cli(*[a.replace("{f}", str(f)) for a in command])
        one_line_error(code, err, str(f), what)


def test_burrtools_declared_sizes_are_capped_before_allocating(run_cli, tmp_path):
    start = time.perf_counter()
    many = tmp_path / "many.xmpuzzle"  # 61 KB gzipped, 120,000 elements
    many.write_bytes(gzip.compress(('<puzzle version="2"><colors>' + "<color/>" * 120_000
                                    + "</colors></puzzle>").encode()))
    code, _, err = run_cli("solve", many)
    one_line_error(code, err, str(many), "more than 100,000 XML elements")
    huge = write(tmp_path / "huge.xmpuzzle", '<puzzle version="2"><shapes><voxel x="100000" y="100000" z="100" '
                 'type="0">#</voxel></shapes></puzzle>')
    code, _, err = run_cli("solve", huge)
    one_line_error(code, err, f"{huge}:1:", "voxels")
    shapes = "".join(f'<voxel x="1000" y="900" z="1" type="0">{"_" * 10}</voxel>' for _ in range(5))
    wide = write(tmp_path / "wide.xmpuzzle", f'<puzzle version="2"><shapes>{shapes}</shapes></puzzle>')
    code, _, err = run_cli("solve", wide)
    one_line_error(code, err, f"{wide}:1:", "more than 4,000,000 voxels in all")
    assert time.perf_counter() - start < 30


def test_a_census_that_would_take_weeks_is_refused_without_yes(run_cli, tmp_path):
    code, _, err = run_cli("census", "--pieces", "classic", "--k", "4", "--cells", "20", "--out", tmp_path / "c")
    one_line_error(code, err, "CPU", "--yes")
    assert not (tmp_path / "c").exists()


def test_a_census_refused_as_too_long_counts_every_size_it_would_hold(run_cli, tmp_path):
    # The refusal once gave the figures of the sizes up to the one that crossed the limit (here 21 cells
    # alone: about 7.2e8 of the census's 4.6e9 regions), so it disagreed with the census's own plan.
    from ubongo_cp.census.spec import PLAN_PROBES, SECONDS_PER_REGION
    from ubongo_cp.polyominoes import estimate_count

    leaves = sum(estimate_count(n, holes=None, box=(7, 7), probes=PLAN_PROBES) for n in (21, 22, 23))
    code, _, err = run_cli("census", "--pieces", "duel", "--k", "4", "--cells", "21-23", "--box", "7x7",
                           "--out", tmp_path / "c")
    one_line_error(code, err, f"about {leaves / 8:.1e} regions at about {SECONDS_PER_REGION * 1000:.0f} ms each",
                   "--yes")
    assert leaves / 8 > 4e9 and not (tmp_path / "c").exists()


def test_a_spec_with_an_impossible_cell_range_is_refused_at_once(run_cli, tmp_path):
    dominoes = write(tmp_path / "dominoes.txt", "\n\n".join(f"D{i}\n##" for i in range(40)) + "\n")
    start = time.perf_counter()
    for cells, fragment in (("[8, 1000000000]", "over the largest region"),
                            ("[41, 41]", "no 20 pieces of the set cover 41..41 cells")):
        spec = write(tmp_path / "s.toml", f'game = "g"\npieces = "{dominoes}"\ncards = 1\n[[sides]]\nname = "a"\n'
                     f"pieces_per_task = 20\nfaces = 1\nmax_rows = 9\nmax_cols = 9\ncells = {cells}\n")
        code, _, err = run_cli("generate", "--spec", spec, "--out", tmp_path / "deck")
        one_line_error(code, err, str(spec), fragment)
    assert time.perf_counter() - start < 30  # C(40, 20) combinations used to be tried one by one


def test_an_orion_tournament_that_would_take_weeks_is_refused_without_yes(run_cli):
    code, _, err = run_cli("orion", "tournament", "--games", "10000000", "--agents", "greedy,random")
    one_line_error(code, err, "--yes")


def test_a_solution_limit_beyond_64_bits_is_one_line(run_cli, tmp_path):
    # Once an OverflowError from the engine (exit 1); 2**63 - 1 itself is taken (2 x 5 dominoes: 8 tilings).
    knuth = write(tmp_path / "q.dlx", "a b\na\nb\na b\n")
    region = write(tmp_path / "r.txt", "#####\n#####\n")
    for argv in (("exact-cover", knuth, "--limit", str(2 ** 63)),
                 ("solve", "--pieces", "classic", "--region", region, "--use", "I2:5", "--limit", str(10 ** 23))):
        code, _, err = run_cli(*argv)
        one_line_error(code, err, "--limit must be at most 9,223,372,036,854,775,807, got")
    code, out, _ = run_cli("solve", "--pieces", "classic", "--region", region, "--use", "I2:5", "--count",
                           "--limit", str(2 ** 63 - 1))
    assert code == 0 and out.startswith("8 solutions")


def test_a_number_given_as_a_path_is_refused_and_no_descriptor_of_the_process_is_read_or_closed(tmp_path):
    # os.stat and open take a number as a file descriptor of the process: load_region(np.int64(fd)) once read
    # whatever that descriptor held and closed it at the end of the read.
    import numpy as np

    from ubongo_cp.io import read_text
    from ubongo_cp.pieces import load_pieces, load_region

    held = write(tmp_path / "r.txt", "##\n")
    with held.open("rb") as fh:
        fd = fh.fileno()
        for call in (lambda: load_region(np.int64(fd)), lambda: load_region(fd), lambda: read_text(fd),
                     lambda: load_region(True)):
            with pytest.raises(InputError, match="a file's path is text or a path, got "):
                call()
        assert os.fstat(fd).st_size == 3 and fh.read() == b"##\n"   # still open, nothing read from it
    assert load_region(held).cells == ((0, 0), (0, 1))
    for spec, shown in ((3, "int 3"), (["I2"], "list ['I2']")):
        with pytest.raises(InputError, match=re.escape(f"a piece set is a shipped set's name or a file's path, got "
                                                       f"{shown} (pieces by name")):
            load_pieces(spec)
