"""Property test over every reader: arbitrary bytes and mutations of real files.

Each reader (pieces, region, card, deck, spec, exact cover, BurrTools, game
records, Orion tiles, census dataset, batch journal) is handed random bytes
and the shipped files with a few mutations (bytes changed, inserted, cut;
numbers of 5,000 digits; lines doubled; the file cut short). It must give a
result or an error of the toolkit's one hierarchy whose message starts with
the file's name (and its line where it has one), never another exception,
and within a time bound. Cases it found are kept below as ``@example``s.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from conftest import ROOT
from ubongo_cp.errors import UbongoError

PUZZLES = ROOT / "puzzles"
BURRTOOLS = ROOT / "tests" / "data" / "burrtools"
#: Seconds one reader may take on one input (generous: the machine is shared).
TIME_BOUND = 10.0
#: Pieces of text a mutation inserts: syntax of every format, bytes that are not UTF-8, a huge number.
TOKENS = [b"\x00", b"\xff\xfe", b"\xe9", b"9" * 5000, b'"', b"[", b"]", b"{", b"}", b"<", b">", b"</", b"\n",
          b"#", b".", b"=", b"-1", b"1e999", b"null", b"nan", b"|", b"%", b"&lt;", b"<!DOCTYPE x>", b"\r\n",
          b'"""', b"true", b"0", b"O", b"X"]


@st.composite
def mutated(draw, seed: bytes) -> bytes:
    """``seed`` with one to four mutations."""
    data = bytearray(seed)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["change", "insert", "token", "delete", "truncate", "repeat"]))
        pos = draw(st.integers(0, len(data)))
        if kind == "change" and data:
            data[min(pos, len(data) - 1)] = draw(st.integers(0, 255))
        elif kind == "insert":
            data[pos:pos] = draw(st.binary(min_size=1, max_size=8))
        elif kind == "token":
            data[pos:pos] = draw(st.sampled_from(TOKENS))
        elif kind == "delete":
            del data[pos:pos + draw(st.integers(1, 40))]
        elif kind == "truncate":
            del data[pos:]
        else:
            data[pos:pos] = data[pos:pos + draw(st.integers(1, 80))]
    return bytes(data)


def inputs(seeds: list[Path]) -> st.SearchStrategy[bytes]:
    """Random bytes, or a mutation of one of ``seeds``."""
    real = [p.read_bytes() for p in seeds]
    return st.one_of(st.binary(max_size=400), st.sampled_from(real).flatmap(mutated))


def check(reader, path: Path) -> None:
    """Run ``reader(path)``: a result, or a toolkit error naming ``path``; within :data:`TIME_BOUND`."""
    start = time.perf_counter()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            reader(path)
    except UbongoError as exc:
        assert str(exc).startswith(str(path)) or f" {path}" in str(exc), f"{type(exc).__name__}: {exc}"
    assert time.perf_counter() - start < TIME_BOUND


# ------------------------------------------------------------------- the readers
def _pieces(path):
    from ubongo_cp.pieces import load_pieces

    load_pieces(path)


def _region(path):
    from ubongo_cp.pieces import load_region

    load_region(path)


def _card(path):
    from ubongo_cp.cards import load_card

    load_card(path)


def _deck(path):
    # A deck of the mutated card beside a good one: the good one is always read.
    from ubongo_cp.cards import load_deck

    deck = path.parent / "deck"
    deck.mkdir()
    shutil.copy(path, deck / "bad.toml")
    shutil.copy(PUZZLES / "decks" / "classic" / "01_easy.toml", deck / "01_easy.toml")
    (deck / "classic.txt").write_bytes((PUZZLES / "pieces" / "classic.txt").read_bytes())
    cards, problems = load_deck(deck)
    assert any(c.card_id == "01" for c in cards)
    assert all(p.path.endswith(".toml") for p in problems)


def _spec(path):
    from ubongo_cp.specs import load_spec

    load_spec(path)


def _exact_cover(path):
    from ubongo_cp.exactcover import read_exact_cover

    read_exact_cover(path)


def _burrtools(path):
    from ubongo_cp.burrtools import read_xmpuzzle

    read_xmpuzzle(path)


def _record(path):
    from ubongo_cp.games.base import load_record

    load_record(path)


def _tiles(path):
    from ubongo_cp.games.orion.tiles import load_tiles

    load_tiles(path)


def _journal(path):
    from ubongo_cp.batch import _read_journal

    rows, _ = _read_journal(path)
    assert all(isinstance(row, dict) for row in rows.values())


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> dict[str, Path]:
    """Files the toolkit writes, as seeds: a Domino and an Orion record, a batch journal, a census."""
    from ubongo_cp.cli import main

    out = tmp_path_factory.mktemp("made")
    deck = out / "deck"
    deck.mkdir()
    shutil.copy(PUZZLES / "examples" / "classic_X1_easy.toml", deck / "x1.toml")
    (deck / "x1.toml").write_text((deck / "x1.toml").read_text().replace("../pieces/classic.txt", "classic"))
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        assert main(["simulate", "domino", "--games", "1", "--record", str(out / "domino.json")]) == 0
        assert main(["orion", "play", "--p0", "random", "--save", str(out / "orion.json")]) == 0
        assert main(["batch", str(deck), "--out", str(out / "batch"), "--no-progress"]) == 0
        assert main(["census", "--pieces", "classic", "--k", "3", "--cells", "8", "--out", str(out / "census"),
                     "--jobs", "1", "--no-progress"]) == 0
    return {"domino": out / "domino.json", "orion": out / "orion.json", "journal": out / "batch" / "tasks.jsonl",
            "census": out / "census"}


#: Examples per reader: 30 in the suite (derandomized: the same inputs every run); set
#: UBONGO_CP_FUZZ_EXAMPLES=1000 for a deeper, random search.
EXAMPLES = int(os.environ.get("UBONGO_CP_FUZZ_EXAMPLES", "30"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize="UBONGO_CP_FUZZ_EXAMPLES" not in os.environ,
                    database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

READERS = {
    "pieces": (_pieces, [PUZZLES / "pieces" / "classic.txt", PUZZLES / "pieces" / "duel.txt"]),
    "region": (_region, [PUZZLES / "examples" / "duel_board1.txt", PUZZLES / "examples" / "rect_6x10.txt"]),
    "card": (_card, [PUZZLES / "decks" / "classic" / "01_easy.toml", PUZZLES / "decks" / "duel" / "1_A.toml"]),
    "deck": (_deck, [PUZZLES / "decks" / "classic" / "01_hard.toml"]),
    "spec": (_spec, [PUZZLES / "specs" / "classic.toml", PUZZLES / "specs" / "duel.toml"]),
    "exact-cover": (_exact_cover, [ROOT / "tests" / "data" / "exact_cover" / "knuth_7_2_2_1_5.dlx"]),
    "burrtools": (_burrtools, [BURRTOOLS / "two_problems.xmpuzzle", BURRTOOLS / "public" / "Representation0.xmpuzzle"]),
    "tiles": (_tiles, [PUZZLES / "orion" / "published.txt", PUZZLES / "orion" / "seed.txt"]),
}


@pytest.mark.parametrize("name", list(READERS))
def test_every_reader_gives_a_result_or_a_clear_error(name):
    reader, seeds = READERS[name]
    suffix = seeds[0].suffix

    @SETTINGS
    @given(inputs(seeds))
    def run(data):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"input{suffix}"
            path.write_bytes(data)
            check(reader, path)

    run()


@pytest.mark.parametrize("name", ["domino", "orion", "journal"])
def test_records_and_journals_give_a_result_or_a_clear_error(made, name):
    reader = _journal if name == "journal" else _record
    seed = made[name]

    @SETTINGS
    @given(inputs([seed]))
    @example(b"null\n[1, 2]\n" + seed.read_bytes()[:200])
    def run(data):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / seed.name
            path.write_bytes(data)
            check(reader, path)

    run()


@pytest.mark.parametrize("part", ["manifest.json", "shard"])
def test_a_damaged_census_gives_a_result_or_a_clear_error(made, part):
    from ubongo_cp.census import census_summary, read_census, read_manifest

    census = made["census"]
    target = census / "manifest.json" if part == "manifest.json" else sorted((census / "regions").glob("*.parquet"))[0]

    @SETTINGS
    @given(inputs([target]))
    @example(b"")
    def run(data):
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / "census"
            shutil.copytree(census, copy)
            damaged = copy / target.relative_to(census)
            damaged.write_bytes(data)

            def read(_):
                read_manifest(copy)
                read_census(copy)
                census_summary(copy)

            start = time.perf_counter()
            try:
                read(copy)
            except UbongoError as exc:
                assert str(copy) in str(exc), f"{type(exc).__name__}: {exc}"
            assert time.perf_counter() - start < TIME_BOUND

    run()


def _plain(x):
    """``x`` with the paths it was read from left out: the content a reader made of its file."""
    from ubongo_cp.structs import Struct

    if isinstance(x, Struct):
        return type(x).__name__, {f: _plain(getattr(x, f)) for f in x._fields if f not in ("path", "pieces_file")}
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if hasattr(x, "tolist"):
        return x.tolist()
    return x


def test_windows_line_ends_read_as_the_same_files_in_every_text_format(tmp_path):
    # A file saved with CR LF line ends (a Windows editor) is read as the same file with LF.
    from ubongo_cp.bench.suite import load_suite
    from ubongo_cp.cards import load_card
    from ubongo_cp.exactcover import read_exact_cover
    from ubongo_cp.games.orion.tiles import load_tiles
    from ubongo_cp.pieces import load_pieces, load_region
    from ubongo_cp.specs import load_spec

    cases = [(load_pieces, "pieces/classic.txt"), (load_pieces, "pieces/hexiamonds.txt"),
             (load_region, "examples/hex_4x7.txt"), (load_region, "examples/rect_6x10.txt"),
             (load_card, "decks/classic/01_easy.toml"), (load_spec, "specs/classic.toml"),
             (load_tiles, "orion/seed.txt"), (read_exact_cover, "bench/knuth/langford4.dlx")]
    for reader, name in cases:
        src = PUZZLES / name
        crlf = tmp_path / name
        crlf.parent.mkdir(parents=True, exist_ok=True)
        data = src.read_bytes()
        assert b"\r" not in data and data.count(b"\n") > 2
        crlf.write_bytes(data.replace(b"\n", b"\r\n"))
        lf, windows = reader(src), reader(crlf)
        if reader is read_exact_cover:
            lf, windows = (lf.item_names, lf.table), (windows.item_names, windows.table)
        assert _plain(windows) == _plain(lf), name
    suite = tmp_path / "suite.toml"
    suite.write_bytes(f'[[instance]]\r\nname = "q4"\r\nexact_cover = "{PUZZLES / "bench/knuth/queens4.dlx"}"\r\n'
                      'expected = 2\r\n'.encode())
    assert [(t.instance, t.expected) for t in load_suite(suite).tasks] == [("q4", 2)]
