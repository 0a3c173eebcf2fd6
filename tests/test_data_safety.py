"""A user's files are safe: a card reads only the piece files it may, no output replaces an input.

Every case runs through the command line and checks the exit status, the one
line on standard error naming the file, and that the user's files are
untouched. (The output folders of batch, booklet and generate are tested
beside those commands.)
"""

from __future__ import annotations

import os
import shutil

import pytest

from conftest import PUZZLES, listing
from ubongo_cp.cards import load_card
from ubongo_cp.errors import InputError
from ubongo_cp.pieces import allowed_piece_files, load_pieces
from ubongo_cp.shipped import piece_set_path

CARD = """game = "classic"
card = "S1"
side = "easy"
pieces = "{pieces}"
region = \"\"\"
##
##
\"\"\"

[tasks]
1 = ["I2", "I2"]
"""


def _deck(folder, pieces: str):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "s1.toml").write_text(CARD.format(pieces=pieces))
    return folder


def _classic_copy(path):
    path.write_bytes(piece_set_path("classic").read_bytes())
    return path


def test_a_card_cannot_read_the_environment(run_cli, tmp_path):
    # The attack of the report: a shared deck whose card names /proc/self/environ.
    deck = _deck(tmp_path / "deck", "/proc/self/environ")
    code, printed, err = run_cli("batch", deck, "--out", tmp_path / "out", "--no-progress")
    summary = (tmp_path / "out" / "summary.md").read_text() if (tmp_path / "out" / "summary.md").exists() else ""
    secret = os.environ["PATH"]            # in the environment the process started with
    for text in (printed, err, summary):
        assert secret not in text
    assert "piece-set file '/proc/self/environ' is outside the folder of" in printed + err + summary
    code, printed, err = run_cli("solve", deck / "s1.toml")
    assert code == 2 and err.count("\n") == 1 and secret not in err
    assert err.startswith(f"ubongo-cp: error: {deck / 's1.toml'}:4: piece-set file '/proc/self/environ' is outside")


@pytest.mark.parametrize("where", ["parent", "absolute", "link"])
def test_a_piece_file_outside_the_cards_folder_needs_the_users_word(run_cli, tmp_path, where):
    mine = _classic_copy(tmp_path / "mine.txt")
    deck = tmp_path / "deck"
    if where == "link":                    # a link inside the folder that leads out of it
        deck.mkdir()
        (deck / "pieces.txt").symlink_to(mine)
        ref = "pieces.txt"
    else:
        ref = "../mine.txt" if where == "parent" else str(mine)
    _deck(deck, ref)
    code, printed, err = run_cli("solve", deck / "s1.toml")
    assert code == 2 and printed == "" and err.count("\n") == 1
    assert f"{deck / 's1.toml'}:4: piece-set file '{ref}' is outside the folder of" in err
    # The user names the file on the command line: read.
    code, printed, err = run_cli("solve", deck / "s1.toml", "--allow-pieces", mine)
    assert code == 0 and "face 1" in printed, err
    # A shipped name and a file in the card's own folder (or below it) need no word.
    (deck / "sets").mkdir()
    _classic_copy(deck / "sets" / "classic.txt")
    for ok in ("classic", "sets/classic.txt"):
        (deck / "s1.toml").write_text(CARD.format(pieces=ok))
        assert load_card(deck / "s1.toml").piece_set.names == load_pieces("classic").names


def test_allow_pieces_names_a_file_that_is_there(run_cli, tmp_path):
    # A folder given to --allow-pieces allowed nothing and the card was then refused as "not allowed" (or, with
    # --out inside that folder, "would overwrite a file read from the allow_pieces directory"); a missing file
    # was taken silently. Both are named as the option, before any work.
    _classic_copy(tmp_path / "mine.txt")
    deck = _deck(tmp_path / "deck", "../mine.txt")
    code, printed, err = run_cli("batch", deck, "--out", tmp_path / "out", "--no-progress", "--allow-pieces", tmp_path)
    assert code == 2 and printed == "" and err == (
        f"ubongo-cp: error: --allow-pieces {tmp_path}: is a directory; name each piece-set file it allows "
        "(--allow-pieces FILE, given once per file)\n")
    code, printed, err = run_cli("solve", deck / "s1.toml", "--allow-pieces", tmp_path / "mine.text")
    assert code == 2 and printed == "" and err == (
        f"ubongo-cp: error: --allow-pieces {tmp_path / 'mine.text'}: file not found\n")
    assert not (tmp_path / "out").exists()
    code, printed, err = run_cli("batch", deck, "--out", tmp_path / "out", "--no-progress", "--allow-pieces",
                                 tmp_path / "mine.txt")
    assert code == 0 and "1 task(s) computed" in printed, err


def test_a_deck_spec_reads_only_its_own_folder_too(run_cli, tmp_path):
    design = tmp_path / "design"
    shutil.copytree(PUZZLES / "examples" / "designer", design)
    shutil.move(design / "pieces.txt", tmp_path / "shared.txt")
    text = (design / "deck.toml").read_text().replace('pieces = "pieces.txt"', 'pieces = "../shared.txt"')
    (design / "deck.toml").write_text(text)
    code, printed, err = run_cli("generate", "--spec", design / "deck.toml", "--out", tmp_path / "d", "--cards", "1",
                                 "--no-progress")
    assert code == 2 and err.count("\n") == 1
    assert f"{design / 'deck.toml'}:4: piece-set file '../shared.txt' is outside the folder of" in err
    assert not (tmp_path / "d").exists()
    code, printed, err = run_cli("generate", "--spec", design / "deck.toml", "--out", tmp_path / "d", "--cards", "1",
                                 "--seed", "3", "--no-progress", "--allow-pieces", tmp_path / "shared.txt")
    assert code == 0, err
    assert listing(tmp_path / "d") == ["01_easy.toml", "01_hard.toml", "deck.toml", "pieces.txt"]


def test_an_error_never_echoes_a_file_that_is_no_piece_set(tmp_path):
    secret = "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
    cases = {"key.txt": f"{secret}\n", "two.txt": f"{secret}\n#\n\n{secret}\n#\n", "space.txt": f"my {secret}\n#\n",
             "nul.txt": f"{secret}\x00{secret}\n#\n"}
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
        with pytest.raises(InputError) as err:
            load_pieces(tmp_path / name)
        assert "wJalrXUtnFEMI" not in str(err.value) and str(err.value).startswith(str(tmp_path / name)), name
    # A real piece name is still quoted.
    (tmp_path / "dup.txt").write_text("A\n#\n\nA\n##\n")
    with pytest.raises(InputError, match=r"dup.txt:4: piece 'A' appears twice"):
        load_pieces(tmp_path / "dup.txt")


def test_allowed_piece_files_last_only_within_the_block(tmp_path):
    mine = _classic_copy(tmp_path / "mine.txt")
    _deck(tmp_path / "deck", str(mine))
    with allowed_piece_files([mine]):
        assert load_card(tmp_path / "deck" / "s1.toml").piece_set.names == load_pieces("classic").names
    with pytest.raises(InputError, match="is outside the folder of"):
        load_card(tmp_path / "deck" / "s1.toml")


def test_no_output_replaces_a_file_the_command_reads(run_cli, tmp_path):
    # The booklet of a designer's deck written over the deck's own piece file (read through the cards, so no
    # option names it): refused, one line naming it, the piece file untouched.
    shutil.copytree(PUZZLES / "examples" / "designer", tmp_path / "design")
    code, _, err = run_cli("generate", "--spec", tmp_path / "design" / "deck.toml", "--out", tmp_path / "deck",
                           "--cards", "1", "--seed", "3", "--no-progress")
    assert code == 0, err
    pieces = (tmp_path / "deck" / "pieces.txt").read_bytes()
    code, printed, err = run_cli("booklet", tmp_path / "deck", "--out", tmp_path / "deck" / "pieces.txt",
                                 "--no-progress")
    assert code == 2 and err.count("\n") == 1   # a text file is no PDF: refused before the input is even read
    assert f"{tmp_path / 'deck' / 'pieces.txt'}: exists and is not a PDF file written by ubongo-cp; it is left as it is" in err
    assert (tmp_path / "deck" / "pieces.txt").read_bytes() == pieces
    # A card named directly: caught before any work.
    card = tmp_path / "deck" / "01_easy.toml"
    before = card.read_bytes()
    code, printed, err = run_cli("export", card, "--face", "1", "--out", card)
    assert code == 2 and err.count("\n") == 1 and "would overwrite the card input" in err
    assert card.read_bytes() == before
    # Another name of the same file (a hard link), even named as a PDF, is no PDF: refused before any work.
    os.link(tmp_path / "deck" / "pieces.txt", tmp_path / "link.pdf")
    code, printed, err = run_cli("cards", tmp_path / "deck", "--out", tmp_path / "link.pdf", "--no-progress")
    assert code == 2 and err.count("\n") == 1
    assert f"{tmp_path / 'link.pdf'}: exists and is not a PDF file written by ubongo-cp; it is left as it is" in err
    assert (tmp_path / "deck" / "pieces.txt").read_bytes() == pieces


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="needs /proc to name the files synced")
def test_every_output_reaches_the_disk_before_it_counts(tmp_path, monkeypatch):
    # Journals, tables, shards, manifests: the file is synced before its rename, its folder after (so a power
    # loss leaves the old file or the whole new one), and each journal line is synced as it is appended.
    from ubongo_cp.batch import run_batch
    from ubongo_cp.census import run_census

    events = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        events.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        real_fsync(fd)

    def replace(source, target):
        events.append(("replace", os.fspath(target)))
        real_replace(source, target)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    deck = tmp_path / "deck"
    deck.mkdir()
    shutil.copy(PUZZLES / "decks" / "classic" / "01_easy.toml", deck)
    run_batch(deck, tmp_path / "out", progress=False)
    run_census("classic", 3, 8, out_dir=tmp_path / "census", shards=2, progress=False)
    replaced = [i for i, (kind, _) in enumerate(events) if kind == "replace"]
    targets = {os.path.relpath(events[i][1], tmp_path) for i in replaced}
    assert {"out/tasks.parquet", "out/tasks.csv", "out/cards.csv", "out/summary.md", "census/manifest.json",
            "census/regions/n08-00000-of-00002.parquet", "census/regions/n08-00001-of-00002.parquet"} <= targets
    for i in replaced:
        target = events[i][1]
        name, folder = os.path.basename(target), os.path.dirname(target)
        assert events[i - 1][0] == "fsync" and os.path.basename(events[i - 1][1]).startswith(f".{name}.")
        assert events[i + 1] == ("fsync", folder), (target, events[i + 1])
    journal = str(tmp_path / "out" / "tasks.jsonl")
    first = events.index(("fsync", journal))                             # the journal's line(s)
    last_rename = max(i for i in replaced if i < first)
    # After the last rename's own folder sync, the folder is synced once more: the journal's creation.
    assert events[last_rename + 2:first].count(("fsync", str(tmp_path / "out"))) == 1


def test_an_output_file_that_cannot_be_written_is_refused_before_the_games(run_cli, tmp_path):
    # A directory, a path under a file, or an existing file of another kind: one line, exit 2, and no game
    # played (the statistics of the games are printed only after them).
    (tmp_path / "table.csv").mkdir()
    (tmp_path / "notes.txt").write_text("mine\n")
    for out, fragment in [(tmp_path / "table.csv", "is a directory, expected a file name to write"),
                          (tmp_path / "notes.txt" / "t.csv", "notes.txt: is a file, expected a directory")]:
        code, printed, err = run_cli("simulate", "domino", "--games", "2000", "--out", out, "--no-progress")
        assert (code, printed, err.count("\n")) == (2, "", 1) and fragment in err, err
    (tmp_path / "plot.png").write_text("my plot notes\n")
    code, printed, err = run_cli("simulate", "domino", "--games", "2000", "--out", tmp_path / "t.csv",
                                 "--plot", tmp_path / "plot.png", "--no-progress")
    assert (code, printed) == (2, "")
    assert "plot.png: exists and is not a PNG image written by ubongo-cp; it is left as it is" in err
    assert (tmp_path / "plot.png").read_text() == "my plot notes\n" and not (tmp_path / "t.csv").exists()


def test_an_earlier_output_of_the_same_kind_is_replaced_and_nothing_else(run_cli, tmp_path):
    game = tmp_path / "game.json"
    game.write_text('{"settings": "mine"}\n')             # a JSON file, not one this toolkit wrote
    code, _, err = run_cli("orion", "play", "--seed", "1", "--save", game)
    assert code == 2 and "game.json: exists and is not a JSON file written by ubongo-cp" in err
    assert game.read_text() == '{"settings": "mine"}\n'
    fresh = tmp_path / "fresh.json"
    for _ in range(2):                                    # run again: its own record is replaced
        code, _, err = run_cli("orion", "play", "--seed", "1", "--save", fresh)
        assert code == 0, err
    assert fresh.read_text().lstrip().startswith('{') and '"format": "ubongo-cp/orion-duel"' in fresh.read_text()
    table = tmp_path / "t.csv"
    for _ in range(2):
        code, _, err = run_cli("simulate", "domino", "--games", "3", "--out", table, "--no-progress")
        assert code == 0, err
    assert len(table.read_text().splitlines()) == 4       # the header and one row per game


def test_the_kind_of_an_output_is_what_the_command_writes_not_the_name(run_cli, tmp_path):
    # A booklet is a PDF, an export a BurrTools file, a record JSON, whatever the name given: a user's file
    # under an unexpected name is kept (exit 2, one line), and an earlier output under that name replaced.
    card = PUZZLES / "examples" / "classic_X1_easy.toml"
    notes = tmp_path / "notes.md"
    notes.write_text("my notes\n")
    svg = tmp_path / "mine.svg"
    svg.write_text('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>\n')
    record = tmp_path / "g2.md"
    record.write_text("a game of mine\n")
    for argv, path, kind in [(("booklet", card, "--out", notes), notes, "PDF file written by ubongo-cp"),
                             (("export", card, "--face", "1", "--out", notes), notes,
                              "BurrTools file written by ubongo-cp"),
                             (("export", card, "--face", "1", "--out", svg), svg, "BurrTools file written by ubongo-cp"),
                             (("simulate", "domino", "--games", "2", "--record", record), record,
                              "JSON file written by ubongo-cp"),
                             (("orion", "play", "--seed", "1", "--save", record), record,
                              "JSON file written by ubongo-cp")]:
        before = path.read_bytes()
        code, printed, err = run_cli(*argv)
        assert (code, printed, err.count("\n")) == (2, "", 1), (argv, err)
        assert f"{path.name}: exists and is not a {kind}; it is left as it is" in err
        assert path.read_bytes() == before
    # an existing file under a name whose kind cannot be told is kept too
    # (every command's output has a kind, or a fixed suffix checked before: a function's output may not)
    from ubongo_cp.io import check_output_file

    table = tmp_path / "games.tsv"
    table.write_text("mine\n")
    with pytest.raises(InputError, match="exists, and ubongo-cp replaces only files it can tell"):
        check_output_file(table)
    assert table.read_text() == "mine\n"
    # its own earlier output, under the same unexpected name, is replaced
    out = tmp_path / "puzzle.txt"
    for _ in range(2):
        code, _, err = run_cli("export", card, "--face", "1", "--out", out)
        assert code == 0, err
    assert out.read_bytes()[:2] == b"\x1f\x8b"                        # gzip: a BurrTools file


def test_a_picture_format_is_checked_before_the_game(run_cli, tmp_path):
    code, printed, err = run_cli("orion", "play", "--seed", "1", "--picture", tmp_path / "h.toml")
    assert (code, printed) == (2, "") and "h.toml: --picture must end in .svg, .png or .pdf, not .toml" in err
    code, _, err = run_cli("orion", "play", "--seed", "1", "--picture", tmp_path / "h.svg")
    assert code == 0, err
    assert b"<svg" in (tmp_path / "h.svg").read_bytes()[:4096]        # drawn as SVG, the name's format


def test_bench_writes_only_its_own_files_into_a_folder(run_cli, tmp_path):
    out = tmp_path / "bo"
    out.mkdir()
    (out / "summary.md").write_text("mine\n")
    argv = ("bench", "knuth", "--quick", "--solvers", "dlx", "--warmups", "0", "--no-progress", "--out", out)
    code, printed, err = run_cli(*argv)
    assert code == 2 and "summary.md: exists and was not written by `ubongo-cp bench`" in err
    assert (out / "summary.md").read_text() == "mine\n" and sorted(p.name for p in out.iterdir()) == ["summary.md"]
    (out / "summary.md").unlink()
    code, _, err = run_cli(*argv)
    assert code == 0, err
    assert "13 runs made, 0 found done" in err       # the 13 quick Knuth instances, each run once
    (out / "notes.md").write_text("mine\n")          # a file of another name: left alone, the report rebuilt
    code, _, err = run_cli("bench", "--report", out)
    assert code == 0, err
    assert (out / "notes.md").read_text() == "mine\n" and (out / "summary.md").read_text().startswith("# Benchmark")


def test_a_refused_census_leaves_no_record_claiming_the_users_files(run_cli, tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "manifest.json").write_text('{"format": "something else"}\n')
    (out / "regions").write_text("mine\n")
    code, _, err = run_cli("census", "--cells", "5", "--pieces", "classic", "--k", "2", "--out", out, "--no-progress")
    assert code == 2 and err.count("\n") == 1, err
    assert "manifest.json: exists and was not written by `ubongo-cp census`" in err
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json", "regions"]


def test_a_file_read_is_never_replaced_by_another_name(tmp_path):
    # The backstop under the checks of the options: a file read inside protect_inputs (by any name, here a
    # hard link) cannot be written over, even by an output of its own kind.
    from ubongo_cp.io import atomic_write_text, protect_inputs, read_text

    table = tmp_path / "t.csv"
    table.write_text("a,b\n1,2\n")
    os.link(table, tmp_path / "link.csv")
    with protect_inputs():
        assert read_text(table).startswith("a,b")
        with pytest.raises(InputError, match=r"link\.csv: is an input of this command \(.*t\.csv\) and would be"):
            atomic_write_text(tmp_path / "link.csv", "c,d\n")
    assert table.read_text() == "a,b\n1,2\n"
    atomic_write_text(tmp_path / "link.csv", "c,d\n")    # outside the block: an ordinary output


def _foreign_png(path):
    """A PNG of someone else's: matplotlib's own, without the toolkit's mark."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(1, 1))
    fig.add_subplot().plot([0, 1])
    fig.savefig(path, format=path.suffix[1:])


@pytest.mark.parametrize("name", ["photo.png", "logo.svg", "drawing.pdf"])
def test_a_picture_of_yours_is_kept_and_an_earlier_drawing_replaced(run_cli, tmp_path, name):
    # A picture of the same kind is not enough: only one carrying the toolkit's mark is replaced.
    argv = ("solve", "--pieces", "pentominoes", "--region", PUZZLES / "examples" / "rect_3x20.txt", "--count",
            "--max-solutions", "0", "--draw")
    mine = tmp_path / name
    _foreign_png(mine)
    before = mine.read_bytes()
    code, printed, err = run_cli(*argv, mine)
    kind = {".png": "a PNG image", ".svg": "an SVG picture", ".pdf": "a PDF file"}[mine.suffix]
    assert (code, printed, err.count("\n")) == (2, "", 1) and f"{name}: exists and is not {kind} " in err
    assert "written by ubongo-cp; it is left as it is" in err and mine.read_bytes() == before
    ours = tmp_path / f"ours{mine.suffix}"
    for _ in range(2):                       # its own drawing, drawn again, is replaced
        code, _, err = run_cli(*argv, ours)
        assert code == 0, err
    assert b"ubongo-cp" in ours.read_bytes()


def test_a_pdf_of_yours_is_kept_and_an_earlier_booklet_replaced(run_cli, tmp_path):
    card = PUZZLES / "examples" / "classic_X1_easy.toml"
    thesis = tmp_path / "thesis.pdf"
    thesis.write_bytes(b"%PDF-1.4\n% my thesis\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n")
    code, _, err = run_cli("booklet", card, "--out", thesis, "--no-progress")
    assert code == 2 and "thesis.pdf: exists and is not a PDF file written by ubongo-cp" in err
    assert thesis.read_bytes().startswith(b"%PDF-1.4\n% my thesis")
    deck, book = tmp_path / "deck", tmp_path / "book.pdf"
    deck.mkdir()
    shutil.copy(card, deck)
    for _ in range(2):                       # the bookmarks are added by pypdf: the mark survives it
        code, _, err = run_cli("booklet", deck, "--out", book, "--no-progress")
        assert code == 0, err


@pytest.mark.parametrize("name", ["x.csv", "x.parquet", "x.PQ", "x.png", "x.svg", "x.pdf", "x.jpg"])
def test_a_record_is_not_written_under_a_table_or_image_name(run_cli, tmp_path, name):
    # A game record is JSON: under a table's or a picture's name a reader would take it for one. Refused in
    # one line before the games, as a PDF under an image name is, with nothing written.
    for argv, option in [(("simulate", "domino", "--games", "2", "--no-progress", "--record"), "--record"),
                         (("orion", "play", "--seed", "1", "--save"), "--save")]:
        code, printed, err = run_cli(*argv, tmp_path / name)
        assert (code, printed, err.count("\n")) == (2, "", 1), (argv, err)
        assert err == f"ubongo-cp: error: {option} {tmp_path / name}: writes a JSON file; use a .json file name\n"
        assert list(tmp_path.iterdir()) == []
    code, _, err = run_cli("orion", "play", "--seed", "1", "--save", tmp_path / "g.json")
    assert code == 0 and (tmp_path / "g.json").read_bytes()[:1] == b"{", err


def test_a_table_of_yours_is_kept(run_cli, tmp_path):
    import pandas as pd

    # Parquet: the toolkit's tables carry its mark in their metadata; another Parquet file is refused.
    mine = tmp_path / "mydata.parquet"
    pd.DataFrame({"x": [1, 2]}).to_parquet(mine)
    before = mine.read_bytes()
    code, _, err = run_cli("simulate", "domino", "--games", "3", "--no-progress", "--out", mine)
    assert code == 2 and "mydata.parquet: exists and is not a Parquet table written by ubongo-cp" in err
    assert mine.read_bytes() == before
    ours = tmp_path / "games.parquet"
    for _ in range(2):
        code, _, err = run_cli("simulate", "domino", "--games", "3", "--no-progress", "--out", ours)
        assert code == 0, err
    assert len(pd.read_parquet(ours)) == 3
    # CSV has no place for a mark: a table of other columns is kept, the games written beside it.
    times = tmp_path / "times.csv"
    times.write_text("card,side,face,player,seconds\n01,easy,1,ana,44.7\n")
    code, printed, err = run_cli("simulate", "domino", "--games", "3", "--no-progress", "--out", times)
    assert code == 0, err
    assert times.read_text() == "card,side,face,player,seconds\n01,easy,1,ana,44.7\n"
    beside = tmp_path / "times-1.csv"
    assert f"ubongo-cp: {times}: exists and holds another table" in err and f"written to {beside}" in err
    assert f"wrote 3 rows to {beside}" in printed and len(pd.read_csv(beside)) == 3
    # A re-run replaces its own table there, not a new times-2.csv each time; a table of yours under
    # times-1.csv is kept in turn (the next name is taken).
    code, printed, err = run_cli("simulate", "domino", "--games", "4", "--no-progress", "--out", times)
    assert code == 0, err
    assert f"written to {beside}" in err and f"wrote 4 rows to {beside}" in printed and len(pd.read_csv(beside)) == 4
    assert sorted(p.name for p in tmp_path.glob("*.csv")) == ["times-1.csv", "times.csv"]
    beside.write_text("card,seconds\n02,31.0\n")
    code, printed, err = run_cli("simulate", "domino", "--games", "2", "--no-progress", "--out", times)
    assert code == 0, err
    assert beside.read_text() == "card,seconds\n02,31.0\n"
    assert f"wrote 2 rows to {tmp_path / 'times-2.csv'}" in printed and len(pd.read_csv(tmp_path / "times-2.csv")) == 2


def test_a_parquet_table_of_other_columns_is_kept_as_a_csv_one_is(run_cli, tmp_path):
    import pandas as pd

    # A batch folder's cards.parquet carries the toolkit's mark too; a simulation table named there is
    # written beside it (cards-1.parquet), as a CSV table of other columns is, and the batch still resumes.
    deck = _deck(tmp_path / "deck", "classic")
    out = tmp_path / "out"
    code, _, err = run_cli("batch", deck, "--out", out, "--no-progress")
    assert code == 0, err
    before = (out / "cards.parquet").read_bytes()
    code, printed, err = run_cli("simulate", "domino", "--games", "3", "--no-progress", "--out", out / "cards.parquet")
    assert code == 0, err
    assert (out / "cards.parquet").read_bytes() == before
    beside = out / "cards-1.parquet"
    assert f"ubongo-cp: {out / 'cards.parquet'}: exists and holds another table" in err
    assert f"wrote 3 rows to {beside}" in printed and len(pd.read_parquet(beside)) == 3
    code, printed, err = run_cli("batch", deck, "--out", out, "--no-progress")
    assert code == 0, err
    assert "0 task(s) computed, 1 resumed" in printed
    # The same command again replaces its own table beside cards.parquet, not a new cards-2.parquet.
    code, printed, err = run_cli("simulate", "domino", "--games", "2", "--no-progress", "--out", out / "cards.parquet")
    assert code == 0, err
    assert f"wrote 2 rows to {beside}" in printed and len(pd.read_parquet(beside)) == 2
    assert not (out / "cards-2.parquet").exists() and (out / "cards.parquet").read_bytes() == before
    # A table of the same columns replaces the earlier one, as before.
    code, printed, err = run_cli("simulate", "domino", "--games", "4", "--no-progress", "--out", beside)
    assert code == 0, err
    assert f"wrote 4 rows to {beside}" in printed and len(pd.read_parquet(beside)) == 4
    assert not (out / "cards-2.parquet").exists()


def test_a_record_named_as_the_journal_of_the_table_is_refused_before_the_games(run_cli, tmp_path):
    # --out g.csv keeps its games in g.jsonl: a record written there is refused at once, with the rest of the
    # command line, not after every game was played (when the journal it found there was taken for a stranger).
    table, record = tmp_path / "g.csv", tmp_path / "g.jsonl"
    code, printed, err = run_cli("simulate", "domino", "--games", "3", "--no-progress", "--out", table,
                                 "--record", record)
    assert code == 2 and printed == "" and len(err.strip().splitlines()) == 1, err
    assert err == (f"ubongo-cp: error: --record {record} is the journal of --out {table} (its games as they "
                   "finish); choose another name\n")
    assert not table.exists() and not record.exists()


def test_write_table_keeps_a_parquet_table_of_other_columns(tmp_path):
    import warnings

    import pandas as pd

    from ubongo_cp.errors import OutputWarning
    from ubongo_cp.io import write_table

    path = tmp_path / "t.parquet"
    assert write_table(pd.DataFrame({"a": [1, 2]}), path) == path
    assert write_table(pd.DataFrame({"a": [3, 4, 5]}), path) == path        # the same columns: replaced
    assert pd.read_parquet(path)["a"].tolist() == [3, 4, 5]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        written = write_table(pd.DataFrame({"b": [9]}), path)
    assert written == tmp_path / "t-1.parquet"
    assert pd.read_parquet(path)["a"].tolist() == [3, 4, 5]
    assert pd.read_parquet(written)["b"].tolist() == [9]
    assert [w.category for w in caught] == [OutputWarning] and "holds another table" in str(caught[0].message)


def test_the_report_writer_keeps_a_parquet_table_of_other_columns(run_cli, tmp_path):
    # ubongo_cp.report.write_table refused a task table over a batch's cards.csv but replaced its cards.parquet.
    from ubongo_cp.report import load_tasks
    from ubongo_cp.report import write_table as write_report_table

    deck = _deck(tmp_path / "deck", "classic")
    out = tmp_path / "out"
    code, _, err = run_cli("batch", deck, "--out", out, "--no-progress")
    assert code == 0, err
    tasks, before = load_tasks(out), (out / "cards.parquet").read_bytes()
    for name, why in (("cards.csv", "its first line differs"), ("cards.parquet", "its columns differ")):
        with pytest.raises(InputError) as caught:
            write_report_table(tasks, out / name)
        assert str(caught.value) == (f"{out / name}: exists and holds another table ({why}); it is left as it "
                                     "is: remove it or choose another output path")
    assert (out / "cards.parquet").read_bytes() == before
    write_report_table(tasks, out / "tasks.parquet")   # the same columns: replaced, as before
    assert load_tasks(out)["count"].tolist() == tasks["count"].tolist() == [2]


def test_a_burrtools_file_of_yours_is_kept(run_cli, tmp_path):
    card = PUZZLES / "examples" / "classic_X1_easy.toml"
    theirs = tmp_path / "design.xmpuzzle"
    shutil.copy(os.path.join(os.path.dirname(__file__), "data", "burrtools", "two_problems_gzip.xmpuzzle"), theirs)
    before = theirs.read_bytes()
    code, _, err = run_cli("export", card, "--face", "1", "--out", theirs)
    assert code == 2 and "design.xmpuzzle: exists and is not a BurrTools file written by ubongo-cp" in err
    assert theirs.read_bytes() == before


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes on this system")
def test_an_output_path_that_is_a_named_pipe_is_refused_at_once(tmp_path):
    # Opening a FIFO blocks until another process opens its other end: each output is refused before
    # anything opens it (exit 2, one line), in a process of its own so that a regression cannot hang the suite.
    import subprocess
    import sys

    region = tmp_path / "r.txt"
    region.write_text("#####\n#####\n#####\n")
    card = PUZZLES / "examples" / "classic_X1_easy.toml"
    runs = [("solve", "--pieces", "pentominoes", "--region", region, "--use", "L,P,Y", "--draw", "{}.png"),
            ("simulate", "domino", "--games", "2", "--no-progress", "--out", "{}.csv"),
            ("solve", "--pieces", "pentominoes", "--region", region, "--use", "L,P,Y", "--count",
             "--jobs", "2", "--journal", "{}.jsonl"),
            ("booklet", card, "--out", "{}.pdf"),
            ("orion", "play", "--seed", "1", "--save", "{}.json"),
            ("batch", card.parent, "--out", "{}")]
    for i, argv in enumerate(runs):
        pipe = tmp_path / f"pipe{i}{argv[-1][2:]}"
        os.mkfifo(pipe)
        argv = [*argv[:-1], pipe]
        done = subprocess.run([sys.executable, "-m", "ubongo_cp", *map(str, argv)], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, (argv, done.stderr)
        assert f"{pipe.name}: is a FIFO (named pipe), expected a" in done.stderr


def test_a_record_of_one_kind_is_not_replaced_by_another_kind(run_cli, tmp_path):
    # Every JSON record of the toolkit carries its mark, and its format says what it holds: a saved Domino
    # game is kept when an Orion game (or a difficulty model) is written under its name; a record of the
    # same kind is replaced (a re-run).
    record = tmp_path / "game.json"
    code, _, err = run_cli("simulate", "domino", "--games", "1", "--no-progress", "--record", record)
    assert code == 0, err
    before = record.read_bytes()
    code, printed, err = run_cli("orion", "play", "--seed", "1", "--save", record)
    assert (code, printed, err.count("\n")) == (2, "", 1), err
    assert "game.json: exists and holds another kind of ubongo-cp record than the ubongo-cp/orion-duel" in err
    assert record.read_bytes() == before
    code, _, err = run_cli("simulate", "domino", "--games", "1", "--no-progress", "--seed", "5", "--record", record)
    assert code == 0, err
    saved = tmp_path / "orion.json"
    for seed in ("1", "2"):
        code, _, err = run_cli("orion", "play", "--seed", seed, "--save", saved)
        assert code == 0, err
    assert b'"format": "ubongo-cp/orion-duel"' in saved.read_bytes()


def test_an_output_file_named_with_a_trailing_slash_is_refused(run_cli, tmp_path):
    # "dir.png/" names a folder: no file dir.png is written in its place.
    target = f"{tmp_path / 'dir.png'}/"
    code, printed, err = run_cli("solve", "--pieces", "tetrahexes", "--region", PUZZLES / "examples" / "hex_4x7.txt",
                                 "--draw", target)
    assert (code, printed, err.count("\n")) == (2, "", 1), err
    assert "dir.png/: ends with a slash, which names a folder; expected a file name to write" in err
    assert not (tmp_path / "dir.png").exists()


@pytest.mark.parametrize("command", ["cards", "booklet", "batch"])
def test_a_file_of_an_output_folder_changed_by_hand_is_kept(run_cli, tmp_path, command):
    # A playtest card retouched in an image editor, a booklet page, a summary annotated by hand: each was
    # replaced without a word on the next run, as the folder's record said the command had written it.
    deck = _deck(tmp_path / "deck", "classic")
    argv = {"cards": ["cards", deck, "--out", tmp_path / "c.pdf", "--png", tmp_path / "out", "--dpi", "30"],
            "booklet": ["booklet", deck, "--out", tmp_path / "b.pdf", "--png", tmp_path / "out"],
            "batch": ["batch", deck, "--out", tmp_path / "out"]}[command]
    assert run_cli(*argv, "--no-progress")[0] == 0
    name = "summary.md" if command == "batch" else sorted(p.name for p in (tmp_path / "out").glob("*.png"))[0]
    target = tmp_path / "out" / name
    assert run_cli(*argv, "--no-progress")[0] == 0          # unchanged: written again
    target.write_bytes(target.read_bytes() + b"my own touch")
    mine = target.read_bytes()
    code, _, err = run_cli(*argv, "--no-progress")
    assert code == 2 and err == (f"ubongo-cp: error: {target}: changed since `ubongo-cp {command}"
                                 f"{' --png' if command == 'cards' else ''}` wrote it; it is left as it is: move it "
                                 "away (or delete it) to have it written again, or choose another folder\n")
    assert target.read_bytes() == mine
    target.unlink()                                           # moved away: the command writes it again
    assert run_cli(*argv, "--no-progress")[0] == 0 and target.exists()


@pytest.mark.parametrize("command", ["generate", "batch"])
def test_an_output_folder_copied_without_its_record_is_the_users(run_cli, tmp_path, command):
    # `cp out/* copy/` leaves the hidden record behind: nothing then says which files the command wrote, nor
    # what they held, so a card edited by hand or a summary annotated in the copy was deleted or replaced by
    # the next run into the copy. Now every such file is the user's: the run stops before any work.
    deck = _deck(tmp_path / "deck", "classic")
    argv = {"generate": ["generate", "--game", "classic", "--seed", "1", "--cards", "2", "--out"],
            "batch": ["batch", deck, "--out"]}[command]
    assert run_cli(*argv, tmp_path / "out", "--no-progress")[0] == 0
    copy = tmp_path / "copy"
    copy.mkdir()
    for path in (tmp_path / "out").iterdir():
        if path.is_file() and path.name != ".ubongo-cp.json":
            shutil.copy2(path, copy / path.name)
    noted = copy / ("02_hard.toml" if command == "generate" else "summary.md")
    noted.write_text(noted.read_text() + "# my note\n")
    before = {p.name: p.read_bytes() for p in copy.iterdir()}
    again = ["generate", "--game", "classic", "--seed", "9", "--cards", "1", "--out"] if command == "generate" \
        else argv
    code, _, err = run_cli(*again, copy, "--no-progress")
    assert code == 2 and err.count("\n") == 1 and str(copy) in err, err
    assert {p.name: p.read_bytes() for p in copy.iterdir() if p.name != ".ubongo-cp.json"} == before


@pytest.mark.parametrize("first", ["cards", "booklet"])
def test_booklet_pages_and_playtest_cards_never_replace_each_other(run_cli, tmp_path, first):
    # Both name a card side's picture DECK_CARD_SIDE.png: the booklet took the playtest cards' PNGs for pages
    # of an earlier booklet (by their names) and replaced them, and the cards then replaced the pages.
    deck = _deck(tmp_path / "deck", "classic")
    argv = {"cards": ["cards", deck, "--out", tmp_path / "c.pdf", "--png", tmp_path / "png", "--dpi", "30"],
            "booklet": ["booklet", deck, "--out", tmp_path / "b.pdf", "--png", tmp_path / "png"]}
    second = "booklet" if first == "cards" else "cards"
    assert run_cli(*argv[first], "--no-progress")[0] == 0
    before = {p.name: p.read_bytes() for p in (tmp_path / "png").glob("*.png")}
    code, _, err = run_cli(*argv[second], "--no-progress")
    assert code == 2 and "exists and was not written by `ubongo-cp" in err, err
    assert {p.name: p.read_bytes() for p in (tmp_path / "png").glob("*.png")} == before


def test_an_output_with_the_same_bytes_keeps_its_time_and_a_changed_one_is_replaced(tmp_path, run_cli):
    # A resumed batch writes tables equal to the ones in place: they keep their modification times (make
    # compares times: a second `make run` draws the booklet again only when something changed). A file
    # whose bytes differ is replaced, and no temporary file is left beside it.
    from ubongo_cp.io import atomic_path

    target = tmp_path / "t.csv"
    target.write_text("a,b\n1,2\n")
    os.utime(target, (1_000_000_000, 1_000_000_000))
    with atomic_path(target) as tmp:
        tmp.write_text("a,b\n1,2\n")
    assert os.stat(target).st_mtime == 1_000_000_000 and target.read_text() == "a,b\n1,2\n"
    with atomic_path(target) as tmp:
        tmp.write_text("a,b\n1,3\n")
    assert os.stat(target).st_mtime > 1_000_000_000 and target.read_text() == "a,b\n1,3\n"
    assert listing(tmp_path) == ["t.csv"]
    # the batch itself: resumed, its tables keep their times
    out = tmp_path / "out"
    assert run_cli("batch", PUZZLES / "examples", "--out", out, "--no-progress")[0] == 0
    times = {p.name: os.stat(p).st_mtime_ns for p in out.iterdir() if p.suffix in (".csv", ".parquet")}
    assert run_cli("batch", PUZZLES / "examples", "--out", out, "--no-progress")[0] == 0
    assert {p.name: os.stat(p).st_mtime_ns for p in out.iterdir() if p.suffix in (".csv", ".parquet")} == times


def test_a_reader_that_stops_early_does_not_cost_the_files(tmp_path):
    """``ubongo-cp solve ... --draw FILE | head -1``: the reader closes the pipe after a line, while the command
    still has 180 kB of solutions to print; it goes on without them, draws the picture and exits 0 (it used
    to stop at the first write that failed, with status 0 and no picture)."""
    import subprocess
    import sys

    from conftest import ROOT

    picture = tmp_path / "tilings.png"
    proc = subprocess.Popen([sys.executable, "-m", "ubongo_cp.cli", "solve", "--pieces", "pentominoes", "--region",
                             str(PUZZLES / "examples" / "rect_6x10.txt"), "--count", "--max-solutions", "2000",
                             "--draw", str(picture)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith(b"9356 solutions")
    proc.stdout.close()            # more than the pipe holds is still to come: the next write fails
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 0 and err == b""
    assert picture.stat().st_size > 10_000


# ------------------------------------------------------------------ no room to write
def _no_room_below(size: int):
    """For a child process: writes past ``size`` bytes of a file fail with EFBIG (as a full disk fails them)."""
    import resource
    import signal

    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
    return limit


def test_a_file_that_finds_no_room_is_named_and_nothing_is_left(tmp_path):
    # The booklet's PDF on a full disk ended with exit 1 ("Error -2 while flushing: inconsistent stream state",
    # matplotlib's cleanup hiding the error of the write) or an error without the file's name.
    import subprocess
    import sys

    out = tmp_path / "b.pdf"
    done = subprocess.run([sys.executable, "-m", "ubongo_cp.cli", "booklet", PUZZLES / "examples", "--out", out,
                           "--no-progress"], preexec_fn=_no_room_below(30_000), capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"ubongo-cp: error: {out}: cannot write: File too large\n"
    assert listing(tmp_path) == []


def test_a_shipped_deck_copied_onto_a_full_disk_leaves_no_part_copy(run_cli, tmp_path):
    # `examples decks/classic --copy DIR` that ran out of room left DIR/classic with its card files and a
    # ratings table cut short at the limit (a table any command then read as the deck's), said so as a
    # Python list of tuples, and the same command run again refused the folder as a changed copy.
    import subprocess
    import sys

    from ubongo_cp.shipped import EXAMPLES, is_unchanged_copy

    dest = tmp_path / "ex"
    table = PUZZLES / "decks" / "classic" / "tasks.csv"
    assert table.stat().st_size > 100_000
    done = subprocess.run([sys.executable, "-m", "ubongo_cp.cli", "examples", "decks/classic", "--copy", dest],
                          preexec_fn=_no_room_below(50_000), capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"ubongo-cp: error: {dest / 'classic' / 'tasks.csv'}: cannot copy: File too large; " \
                          "nothing was copied\n"
    assert sorted(p.name for p in dest.iterdir()) == []           # no part copy, no temporary folder either
    assert run_cli("examples", "decks/classic", "--copy", dest)[0] == 0
    assert is_unchanged_copy(EXAMPLES["decks/classic"], dest)
    assert (dest / "classic" / "tasks.csv").read_bytes() == table.read_bytes()


def test_a_copy_killed_while_it_was_made_leaves_a_folder_the_next_copy_removes(run_cli, tmp_path):
    # SIGKILL during `examples decks/hexagons --copy DIR` left the hidden folder .hexagons.~ubongo-cp-XXXXXXXX
    # (with the card files copied so far) that nothing removed. The next copy removes those no copy holds
    # locked; a copy still being made holds its own, and the user's folders of names alike are left alone.
    import fcntl
    import os
    import subprocess
    import sys

    from ubongo_cp.io import stale_temporaries
    from ubongo_cp.shipped import EXAMPLES, is_unchanged_copy

    dest = tmp_path / "ex"
    killed = ("import os, shutil, signal, sys\nfrom ubongo_cp.shipped import EXAMPLES, copy_example\n"
              "real, made = shutil.copy2, []\n"
              "def copy2(*args, **kwargs):\n"
              "    made.append(real(*args, **kwargs))\n"
              "    if len(made) == 3:\n        os.kill(os.getpid(), signal.SIGKILL)\n"
              "shutil.copy2 = copy2\ncopy_example(EXAMPLES['decks/hexagons'], sys.argv[1])\n")
    assert subprocess.run([sys.executable, "-c", killed, dest]).returncode == -9
    left = stale_temporaries(dest, "hexagons")
    assert len(left) == 1 and left[0].is_dir() and len(list(left[0].iterdir())) == 3
    running = dest / ".hexagons.~ubongo-cp-7pogo80s"     # a copy being made now: it holds its folder locked
    running.mkdir()
    (running / "01_easy.toml").write_text("half")
    mine = [".hexagons.mine", ".hexagons.~ubongo-cp-", "hexagons.~ubongo-cp-abcdefgh"]   # names alike
    for name in mine:
        (dest / name).mkdir()
        (dest / name / "notes.txt").write_text("mine")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "kept.txt").write_text("kept")
    (dest / ".hexagons.~ubongo-cp-k3j2h_0a").symlink_to(elsewhere)       # a link of that name: not followed
    held = os.open(running, os.O_RDONLY)
    try:
        fcntl.flock(held, fcntl.LOCK_EX)
        code, printed, err = run_cli("examples", "decks/hexagons", "--copy", dest)
    finally:
        os.close(held)
    assert (code, printed, err) == (0, f"copied decks/hexagons to {dest / 'hexagons'}\n", "")
    assert is_unchanged_copy(EXAMPLES["decks/hexagons"], dest)
    assert not left[0].exists() and (running / "01_easy.toml").read_text() == "half"
    assert all((dest / name / "notes.txt").read_text() == "mine" for name in mine)
    assert (elsewhere / "kept.txt").read_text() == "kept"
    assert sorted(p.name for p in dest.iterdir()) == sorted(["hexagons", running.name, *mine, ".hexagons.~ubongo-cp-k3j2h_0a"])
    # the copy there already (unchanged): a killed copy's folder beside it goes too, once no copy holds it
    code, printed, _ = run_cli("examples", "decks/hexagons", "--copy", dest)
    assert code == 0 and "already there, unchanged" in printed and not running.exists()


def test_a_copy_being_made_holds_its_folder_against_another_copys_clean_up(tmp_path, monkeypatch):
    # While a copy fills its temporary folder, a second copy to the same place (its clean-up) leaves it alone.
    import shutil

    from ubongo_cp.io import remove_stale_temporaries, stale_temporaries
    from ubongo_cp.shipped import EXAMPLES, copy_example, is_unchanged_copy

    dest = tmp_path / "ex"
    dest.mkdir()
    real, seen = shutil.copy2, []

    def copy2(*args, **kwargs):
        seen.append(len(stale_temporaries(dest, "hexagons")))
        remove_stale_temporaries(dest / "hexagons", folders=True)    # what the other copy does first
        return real(*args, **kwargs)

    monkeypatch.setattr(shutil, "copy2", copy2)
    copy_example(EXAMPLES["decks/hexagons"], dest)
    assert seen and set(seen) == {1}
    assert is_unchanged_copy(EXAMPLES["decks/hexagons"], dest) and stale_temporaries(dest, "hexagons") == []


def test_a_copys_folder_removed_by_another_copys_clean_up_before_its_lock_is_made_again(tmp_path, monkeypatch):
    # Between the making of a copy's temporary folder and its lock, another copy's clean-up took it for a killed
    # copy's and removed it: the copy then filled a folder of that name made again unlocked, which the next
    # clean-up removed under it. Now another folder is made and locked, and the copy is made whole.
    import shutil
    import stat

    import ubongo_cp.io as io
    from ubongo_cp.shipped import EXAMPLES, copy_example, is_unchanged_copy

    dest = tmp_path / "ex"
    dest.mkdir()
    real_lock, real_copy, removed, seen = io._locked, shutil.copy2, [], []

    def lock(fd):
        if stat.S_ISDIR(os.fstat(fd).st_mode) and not removed:
            removed.extend(io.stale_temporaries(dest, "hexagons"))
            monkeypatch.setattr(io, "_locked", real_lock)   # the other copy's clean-up locks with the real one
            io.remove_stale_temporaries(dest / "hexagons", folders=True)
            monkeypatch.setattr(io, "_locked", lock)
        return real_lock(fd)

    def copy2(*args, **kwargs):
        seen.append(len(io.stale_temporaries(dest, "hexagons")))
        io.remove_stale_temporaries(dest / "hexagons", folders=True)    # a clean-up while the copy is filled
        return real_copy(*args, **kwargs)

    monkeypatch.setattr(io, "_locked", lock)
    monkeypatch.setattr(shutil, "copy2", copy2)
    copy_example(EXAMPLES["decks/hexagons"], dest)
    assert len(removed) == 1 and not removed[0].exists()         # the first folder was removed before its lock
    assert seen and set(seen) == {1}                              # the second one held through the copy
    assert is_unchanged_copy(EXAMPLES["decks/hexagons"], dest) and io.stale_temporaries(dest, "hexagons") == []


def test_files_written_together_name_the_one_that_found_no_room_and_replace_none(tmp_path):
    # A batch's five tables (written together, so that a stop leaves those of one run) on a disk with room for
    # tasks.parquet but not tasks.csv: the error named tasks.parquet, each temporary file's cleanup naming its
    # own file again for the error of the one before.
    import errno

    from ubongo_cp.io import replace_together

    def no_room(tmp):
        tmp.write_text("torn")
        raise OSError(errno.EFBIG, os.strerror(errno.EFBIG))

    (tmp_path / "a.csv").write_text("earlier")
    with pytest.raises(InputError) as raised:
        replace_together([(tmp_path / "a.csv", lambda tmp: tmp.write_text("new")), (tmp_path / "b.csv", no_room),
                          (tmp_path / "c.csv", lambda tmp: tmp.write_text("new"))])
    assert str(raised.value) == f"{tmp_path / 'b.csv'}: cannot write: File too large"
    assert listing(tmp_path) == ["a.csv"] and (tmp_path / "a.csv").read_text() == "earlier"


def test_a_write_failing_for_room_is_told_through_the_errors_raised_while_cleaning_up(tmp_path):
    import errno
    import zlib

    from ubongo_cp.io import append_durably, atomic_path, open_journal, write_failure

    target = tmp_path / "t.pdf"
    with pytest.raises(InputError, match="t.pdf: cannot write: No space left on device"):
        with atomic_path(target) as tmp:
            tmp.write_bytes(b"%PDF")
            try:
                raise OSError(errno.ENOSPC, "No space left on device")
            except OSError:
                raise zlib.error("Error -2 while flushing: inconsistent stream state") from None
    assert listing(tmp_path) == []
    # pyarrow says the number in its message only; any other error goes on as it is
    assert write_failure(OSError("Error writing bytes to file. Detail: [errno 28] No space left")) == errno.ENOSPC
    assert write_failure(OSError(errno.ENOENT, "gone")) is None and write_failure(ValueError("x")) is None
    with pytest.raises(FileNotFoundError):
        with atomic_path(target):
            raise FileNotFoundError(errno.ENOENT, "an input gone")

    class Full:
        name = str(tmp_path / "j.jsonl")

        closed = False

        def write(self, text):
            raise OSError(errno.EDQUOT, "Disk quota exceeded")

        def close(self):   # closed at once: a later close would try the failed write again
            self.closed = True

    full = Full()
    with pytest.raises(InputError, match="j.jsonl: cannot write: Disk quota exceeded"):
        append_durably(full, "{}\n")
    assert full.closed
    journal = open_journal(tmp_path / "k.jsonl")
    append_durably(journal, "{}\n")
    journal.close()
    assert (tmp_path / "k.jsonl").read_text() == "{}\n"


# ------------------------------------------------------------------ a folder's record made by someone else
def test_a_record_naming_files_outside_its_folder_is_refused(run_cli, tmp_path):
    # A folder someone sends you, its hidden record listing "../victim.png" as a page of the booklet: the
    # booklet's next run into it deleted that file (an earlier page the new booklet does not have).
    import json

    victim = tmp_path / "victim.png"
    victim.write_bytes(b"a user's picture")
    pages = tmp_path / "pages"
    pages.mkdir()
    for name in ("../victim.png", "/etc/hostname", "a/../../victim.png"):
        (pages / ".ubongo-cp.json").write_text(json.dumps(
            {"format": 1, "commands": {"booklet": {"source": None, "files": [name]}}}))
        code, _, err = run_cli("booklet", PUZZLES / "examples", "--out", tmp_path / "b.pdf", "--png", pages,
                               "--no-progress")
        assert code == 2 and "not a record of files written by ubongo-cp" in err, (name, err)
        assert victim.read_bytes() == b"a user's picture"
    # the same record naming a file inside: the booklet runs, and deletes that page of its own
    (pages / "old_page.png").write_bytes(b"an earlier page")
    (pages / ".ubongo-cp.json").write_text(json.dumps(
        {"format": 1, "commands": {"booklet": {"source": None, "files": ["old_page.png"]}}}))
    code, _, err = run_cli("booklet", PUZZLES / "examples", "--out", tmp_path / "b.pdf", "--png", pages,
                           "--no-progress")
    assert code == 0, err
    assert not (pages / "old_page.png").exists() and victim.exists()


def test_a_file_of_the_record_behind_a_link_to_elsewhere_is_not_deleted(tmp_path):
    from ubongo_cp.outputs import OutputFolder

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "p.png").write_bytes(b"kept")
    out = tmp_path / "out"
    with OutputFolder(out, "booklet", guarded=lambda name: False) as folder:
        folder.claim(["sub/p.png"])
    (out / "sub").symlink_to(elsewhere)
    with OutputFolder(out, "booklet", guarded=lambda name: False) as folder:
        assert folder.remove(["sub/p.png"]) == ["sub/p.png"]
    assert (elsewhere / "p.png").read_bytes() == b"kept"


def test_a_temporary_file_left_by_a_killed_run_is_removed_by_the_next(run_cli, tmp_path):
    # kill -9 while a table was written left ".tasks.parquet.XXXXXXXX.parquet" in the folder for good.
    deck = _deck(tmp_path / "deck", "classic")
    out = tmp_path / "out"
    assert run_cli("batch", deck, "--out", out, "--no-progress")[0] == 0
    (out / ".tasks.parquet.~ubongo-cp-k3j2h_0a.parquet").write_bytes(b"PAR1 torn")
    mine = [".tasks.parquet.notes", ".tasks.parquet.original.parquet", ".tasks.parquet.backup_1.parquet"]
    for name in mine:                                          # a user's names, however alike: left alone
        (out / name).write_text("mine")
    assert run_cli("batch", deck, "--out", out, "--no-progress")[0] == 0
    assert not (out / ".tasks.parquet.~ubongo-cp-k3j2h_0a.parquet").exists()
    assert all((out / name).read_text() == "mine" for name in mine)


def test_a_temporary_file_of_an_output_file_left_by_a_killed_run_is_removed_by_the_next(run_cli, tmp_path):
    # A run killed while it wrote an output file outside an output folder (simulate --out, booklet --out, a
    # plot, an export) left its temporary file beside it for good: three booklets stopped by SIGTERM or kill -9
    # left three hidden PDFs of 250-350 kB that no later run removed. The next run writing that file removes
    # those no run holds; one that a run still writes (it holds its lock) is left to that run.
    import fcntl
    import subprocess
    import sys

    from ubongo_cp.io import atomic_write_bytes, stale_temporaries

    sim, pdf = tmp_path / "sim", tmp_path / "pdf"   # a process lists a folder for them once: two folders
    table = sim / "games.csv"
    killed = ("import os, sys\nfrom ubongo_cp.io import atomic_path\nwith atomic_path(sys.argv[1]) as tmp:\n"
              "    tmp.write_text('game,seat\\n0,')\n    os._exit(9)\n")
    assert subprocess.run([sys.executable, "-c", killed, table]).returncode == 9
    assert len(stale_temporaries(sim, "games.csv")) == 1 and not table.exists()
    assert run_cli("simulate", "domino", "--games", "3", "--out", table, "--no-progress")[0] == 0
    assert listing(sim) == ["games.csv", "games.jsonl"]

    pdf.mkdir()
    running = pdf / ".b.pdf.~ubongo-cp-7pogo80s.pdf"
    running.write_bytes(b"%PDF half")
    (pdf / ".b.pdf.~ubongo-cp-k3j2h_0a.pdf").write_bytes(b"%PDF torn")
    (pdf / ".other.png.~ubongo-cp-a1b2c3d4.png").write_bytes(b"torn")   # another file's: as stale
    mine = [".b.pdf.notes", ".b.pdf.~ubongo-cp-.pdf", "b.pdf.~ubongo-cp-abcdefgh.pdf"]  # names alike: left alone
    for name in mine:
        (pdf / name).write_text("mine")
    with open(running, "rb") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        atomic_write_bytes(pdf / "b.pdf", b"%PDF whole")
    assert (pdf / "b.pdf").read_bytes() == b"%PDF whole" and running.read_bytes() == b"%PDF half"
    assert listing(pdf) == sorted(["b.pdf", running.name, *mine])


def test_a_booklets_pages_folder_left_by_a_killed_run_is_removed_by_the_next(tmp_path):
    from ubongo_cp.booklet import make_booklet
    from ubongo_cp.cards import load_deck

    example_deck_cards = load_deck(PUZZLES / "examples")[0]
    pages = tmp_path / "pages"
    make_booklet(example_deck_cards, tmp_path / "b.pdf", png_dir=pages, dpi=20)
    (pages / ".pages.~ubongo-cp-7pogo80s").mkdir()
    (pages / ".pages.~ubongo-cp-7pogo80s" / "half.png").write_bytes(b"torn")
    (pages / ".pages.mine").mkdir()
    make_booklet(example_deck_cards, tmp_path / "b.pdf", png_dir=pages, dpi=20)
    assert not (pages / ".pages.~ubongo-cp-7pogo80s").exists() and (pages / ".pages.mine").is_dir()


def test_a_benchmark_folder_keeps_its_edited_summary_and_a_copy_keeps_its_plots(run_cli, tmp_path):
    # The summary annotated by hand was replaced by the next run, as were the summary and plots of a folder
    # copied without its record; a copy still takes up its journal and tables (the runs are not made again).
    argv = ["bench", "knuth", "--quick", "--solvers", "dlx", "--time-limit", "10", "--no-progress", "--out"]
    out = tmp_path / "b"
    assert run_cli(*argv, out)[0] == 0
    copy = tmp_path / "copy"
    copy.mkdir()
    for path in out.iterdir():
        if path.is_file() and path.name != ".ubongo-cp.json":
            shutil.copy2(path, copy / path.name)
    (out / "summary.md").write_text((out / "summary.md").read_text() + "MY NOTES\n")
    code, _, err = run_cli(*argv, out)
    assert code == 2 and "summary.md: changed since `ubongo-cp bench` wrote it" in err
    assert run_cli("bench", "--report", out)[0] == 2 and "MY NOTES" in (out / "summary.md").read_text()
    before = {p.name: p.read_bytes() for p in copy.iterdir()}
    code, _, err = run_cli(*argv, copy)
    assert code == 2 and "exists and was not written by `ubongo-cp bench`" in err
    assert {p.name: p.read_bytes() for p in copy.iterdir() if p.name != ".ubongo-cp.json"} == before
    for name in ("summary.md", "summary.csv", "cactus.png"):   # moved away: the copy's runs go on, none made again
        (copy / name).unlink()
    code, _, err = run_cli(*argv, copy)
    assert code == 0 and "0 runs made" in err, err


def test_a_damaged_record_of_contents_is_refused_not_trusted(run_cli, tmp_path):
    # Its digests replaced (a list, a number, null): a retouched page was replaced, or the run crashed (null).
    import json

    deck = _deck(tmp_path / "deck", "classic")
    argv = ["booklet", deck, "--out", tmp_path / "b.pdf", "--png", tmp_path / "p", "--no-progress"]
    assert run_cli(*argv)[0] == 0
    record = tmp_path / "p" / ".ubongo-cp.json"
    good = json.loads(record.read_text())
    page = sorted((tmp_path / "p").glob("*.png"))[0]
    page.write_bytes(page.read_bytes() + b"retouched")
    retouched = page.read_bytes()
    for damaged in ([1], {page.name: 5}, None):
        record.write_text(json.dumps({**good, "commands": {"booklet": {**good["commands"]["booklet"],
                                                                       "digests": damaged}}}))
        code, _, err = run_cli(*argv)
        assert code == 2 and "its record of their contents is damaged" in err, (damaged, err)
        assert page.read_bytes() == retouched


def test_a_census_never_deletes_a_users_file_beside_its_shards(run_cli, tmp_path):
    # A hidden file named like a shard's start (".n06-00000-of-00001.parquet.bak") was deleted as a temporary
    # of a killed run, and through a shards folder linked to another place too.
    argv = ["census", "--pieces", "classic", "--k", "2", "--cells", "6", "--no-progress", "--jobs", "1", "--out"]
    out = tmp_path / "c"
    assert run_cli(*argv, out)[0] == 0
    shard = sorted(p.name for p in (out / "regions").iterdir())[0]
    (out / "regions" / f".{shard}.~ubongo-cp-abcd1234.parquet").write_bytes(b"torn")   # a killed run's
    assert run_cli(*argv, out)[0] == 0
    assert sorted(p.name for p in (out / "regions").iterdir()) == [shard]
    mine = out / "regions" / f".{shard}.bak"
    mine.write_text("mine")
    code, _, err = run_cli(*argv, out)
    assert code == 2 and "belongs to no shard of this census" in err and mine.read_text() == "mine"
    mine.unlink()
    elsewhere = tmp_path / "elsewhere"
    (out / "regions").rename(elsewhere)
    (out / "regions").symlink_to(elsewhere)
    (elsewhere / f".{shard}.~ubongo-cp-abcd1234.parquet").write_bytes(b"kept")
    code, _, err = run_cli(*argv, out)
    assert code == 2 and "regions is a link to another folder" in err
    assert (elsewhere / f".{shard}.~ubongo-cp-abcd1234.parquet").read_bytes() == b"kept"


def test_an_atomic_write_never_replaces_a_device_or_a_fifo(tmp_path):
    # Every command checks its output path first; the library's atomic write now does too, so that a caller
    # of the API that names /dev/null (or a FIFO) cannot have it replaced by a regular file.
    import stat

    from ubongo_cp.io import atomic_path

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="pipe: is a FIFO"):
        with atomic_path(fifo) as tmp:
            tmp.write_text("x")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and listing(tmp_path) == ["pipe"]


def test_a_journal_that_finds_no_room_is_named(tmp_path):
    # The journal's line failed for room, and closing the journal tried it again: "ubongo-cp: error: File too
    # large", no file named.
    import subprocess
    import sys

    out = tmp_path / "b"
    done = subprocess.run([sys.executable, "-m", "ubongo_cp.cli", "batch", PUZZLES / "examples", "--out", out,
                           "--no-progress"], preexec_fn=_no_room_below(3_000), capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (2, f"ubongo-cp: error: {out / 'tasks.jsonl'}: cannot write: "
                                                 "File too large\n")


def test_the_records_own_save_never_replaces_the_commands_outcome(tmp_path, monkeypatch):
    # On a full disk the record, saved last, raised its own error (naming the hidden file) in place of the
    # command's: its save is given up quietly, the files written stand.
    from ubongo_cp.outputs import OutputFolder

    def full(self):
        raise InputError("cannot write: No space left on device", path=self.path / ".ubongo-cp.json")

    with OutputFolder(tmp_path / "o", "batch", guarded=lambda name: True) as folder:
        folder.claim(["summary.md"])
        (tmp_path / "o" / "summary.md").write_text("done")
        monkeypatch.setattr(OutputFolder, "_save", full)
    assert (tmp_path / "o" / "summary.md").read_text() == "done"


def test_the_report_writer_of_the_python_api_keeps_a_summary_of_yours(tmp_path):
    # ubongo_cp.report.write_reports (public) replaced the five files of a folder whatever they were: a
    # summary.md of the user's was lost. Now it refuses as `batch` does, and writes its own folder again.
    from ubongo_cp.batch import run_batch
    from ubongo_cp.report import load_tasks, write_reports

    folder = tmp_path / "analysis"
    folder.mkdir()
    (folder / "summary.md").write_text("my notes\n")
    rows = load_tasks(PUZZLES / "decks" / "classic" / "tasks.csv").head(6).to_dict("records")
    with pytest.raises(InputError, match=r"summary\.md: exists and was not written by `ubongo-cp batch`"):
        write_reports(rows, [], folder)
    assert listing(folder) == ["summary.md"] and (folder / "summary.md").read_text() == "my notes\n"
    # Its own output, and a batch's, it replaces; a summary edited since is kept.
    tasks, _, summary = write_reports(rows, [], tmp_path / "fresh")
    assert len(tasks) == 6 and (tmp_path / "fresh" / "summary.md").read_text() == summary
    write_reports(rows[:3], [], tmp_path / "fresh")
    assert len(load_tasks(tmp_path / "fresh")) == 3
    deck = tmp_path / "deck"
    deck.mkdir()
    shutil.copy(PUZZLES / "decks" / "classic" / "01_easy.toml", deck)
    run_batch(deck, tmp_path / "batch", progress=False)
    write_reports(rows, [], tmp_path / "batch")
    assert len(load_tasks(tmp_path / "batch")) == 6
    (tmp_path / "batch" / "summary.md").write_text("annotated\n")
    with pytest.raises(InputError, match=r"summary\.md.*changed since"):
        write_reports(rows, [], tmp_path / "batch")
    assert (tmp_path / "batch" / "summary.md").read_text() == "annotated\n"


@pytest.mark.parametrize("writer", ["make_booklet", "make_playtest_cards"])
def test_the_pdf_writers_of_the_python_api_keep_the_cards_they_draw(writer, tmp_path):
    # make_booklet and make_playtest_cards (public) wrote their PDF over whatever the path held: given the
    # card's own file as out_pdf, the card was lost (a PDF in its place). Now they refuse, as `booklet` and
    # `cards` do, a file that is not a PDF of the toolkit's, before drawing; their own PDF they replace.
    from ubongo_cp.booklet import make_booklet
    from ubongo_cp.booklet.playtest import make_playtest_cards

    write = {"make_booklet": make_booklet, "make_playtest_cards": make_playtest_cards}[writer]
    shutil.copy(PUZZLES / "decks" / "classic" / "01_easy.toml", tmp_path)
    card_path = tmp_path / "01_easy.toml"
    before = card_path.read_bytes()
    card = load_card(card_path)
    with pytest.raises(InputError, match=r"01_easy\.toml: exists and is not a PDF file written by ubongo-cp"):
        write([card], card_path)
    assert card_path.read_bytes() == before and listing(tmp_path) == ["01_easy.toml"]
    (tmp_path / "thesis.pdf").write_bytes(b"%PDF-1.4 my thesis\n")
    with pytest.raises(InputError, match=r"thesis\.pdf: exists and is not a PDF file written by ubongo-cp"):
        write([card], tmp_path / "thesis.pdf")
    assert (tmp_path / "thesis.pdf").read_bytes() == b"%PDF-1.4 my thesis\n"
    write([card], tmp_path / "out.pdf")
    first = (tmp_path / "out.pdf").stat().st_size
    write([card], tmp_path / "out.pdf")   # its own earlier output: replaced
    assert first > 0 and (tmp_path / "out.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("command", ["batch", "bench"])
def test_a_journal_that_is_a_link_to_a_file_elsewhere_is_refused(run_cli, tmp_path, command):
    # The journal of a batch or bench folder replaced by a link to a file of the user's: the torn-line trim
    # cut the file's last line (no newline after it) and the run appended its rows to the file, through the link.
    from conftest import one_line_error

    out = tmp_path / "out"
    if command == "batch":
        argv = ("batch", _deck(tmp_path / "deck", "classic"), "--out", out, "--no-progress")
        journal = out / "tasks.jsonl"
    else:
        argv = ("bench", "knuth", "--quick", "--solvers", "dlx", "--warmups", "0", "--no-progress", "--out", out)
        journal = out / "runs.jsonl"
    assert run_cli(*argv)[0] == 0
    mine = tmp_path / "notes.txt"
    mine.write_bytes(b"line one\nmy last line, without a newline")
    journal.unlink()
    journal.symlink_to(mine)
    code, _, err = run_cli(*argv)
    one_line_error(code, err, f"{journal}: is a link", "left as it is")
    assert mine.read_bytes() == b"line one\nmy last line, without a newline"
    if command == "bench":
        code, _, err = run_cli("bench", "--report", out)
        one_line_error(code, err, f"{journal}: is a link")
        assert mine.read_bytes() == b"line one\nmy last line, without a newline"


def _single_file_writers():
    """name -> (write(path), a file name of its kind, a user's file of that kind it must not replace)."""
    import gzip

    import pandas as pd

    from ubongo_cp.burrtools import write_xmpuzzle
    from ubongo_cp.calibrate import DifficultyModel
    from ubongo_cp.cards import write_card
    from ubongo_cp.draw.figures import save_figure
    from ubongo_cp.games.base import save_record
    from ubongo_cp.games.domino.sim import plot_lengths
    from ubongo_cp.games.duel.sim import plot_handicap_sweep
    from ubongo_cp.games.orion.render import draw
    from ubongo_cp.games.orion.state import OrionState
    from ubongo_cp.io import write_table as write_any_table
    from ubongo_cp.pieces import Region
    from ubongo_cp.report import write_table as write_report_table

    card = load_card(PUZZLES / "decks" / "classic" / "01_easy.toml")
    model = DifficultyModel(features=("cells",), intercept=1.0, weights={"cells": 0.1}, intervals={}, players={},
                            r2=0.5, cv_r2=0.4, cv_rmse=0.3, sigma=0.2, rows=10, tasks=5, folds=5, dropped=(),
                            source={})
    table = pd.DataFrame({"card_id": ["01"], "side": ["easy"], "area": [12]})
    lengths = pd.DataFrame({"rounds": [3, 5], "end_reason": ["finish", "stalled"], "agents": ["random"] * 2})
    sweep = pd.DataFrame({"speed_ratio": [1.0, 2.0], "win_b_normal": [0.5, 0.3], "se_normal": [0.01, 0.01],
                          "win_b_handicap": [0.5, 0.4], "se_handicap": [0.01, 0.01]})
    png = b"\x89PNG\r\n\x1a\n" + b"my holiday" * 10
    theirs = b'{"format": "my notes", "text": "keep me"}\n'
    parquet = b"PAR1" + b"my data" * 10 + b"PAR1"
    burr = gzip.compress(b'<?xml version="1.0"?>\n<puzzle version="2"><comment>mine</comment></puzzle>\n')
    return {
        "save_figure": (lambda p: save_figure(Region.rectangle(2, 3).draw(), p), "region.png", png),
        "write_card": (lambda p: write_card(card, p), "card.toml", b'game = "mine"\n'),
        "DifficultyModel.save": (model.save, "model.json", theirs),
        "report.write_table": (lambda p: write_report_table(table, p), "cards.parquet", parquet),
        "report.write_table csv": (lambda p: write_report_table(table, p), "cards.csv", b"name,score\nann,3\n"),
        "io.write_table": (lambda p: write_any_table(table, p), "cards.parquet", parquet),
        "write_xmpuzzle": (lambda p: write_xmpuzzle(p, card.piece_set.select(["I2", "I2", "L4"]),
                                                    Region.rectangle(2, 4)), "puzzle.xmpuzzle", burr),
        "save_record": (lambda p: save_record(OrionState(seed=3), p), "game.json", theirs),
        "orion draw": (lambda p: draw(OrionState(seed=3), path=p), "board.png", png),
        "plot_lengths": (lambda p: plot_lengths(lengths, p), "lengths.png", png),
        "plot_handicap_sweep": (lambda p: plot_handicap_sweep(sweep, p), "sweep.png", png),
    }


@pytest.mark.parametrize("writer", ["save_figure", "write_card", "DifficultyModel.save", "report.write_table",
                                    "report.write_table csv", "io.write_table", "write_xmpuzzle", "save_record",
                                    "orion draw", "plot_lengths", "plot_handicap_sweep"])
def test_the_single_file_writers_of_the_python_api_keep_a_file_of_yours(writer, tmp_path):
    # The writers of one file each (pictures, a card, a model, tables, a BurrTools file, a game record, plots)
    # replaced whatever file the path named, as the commands do not: a user's file there is refused, naming
    # it, and left as it was; the writer's own earlier output is replaced.
    write, name, users = _single_file_writers()[writer]
    (tmp_path / "mine").mkdir()
    mine = tmp_path / "mine" / name
    mine.write_bytes(users)
    with pytest.raises(InputError, match=rf"^{mine}: exists,? and "):
        write(mine)
    assert mine.read_bytes() == users and listing(tmp_path / "mine") == [name]
    ours = tmp_path / "ours" / name
    write(ours)
    first = ours.read_bytes()
    assert first and first != users
    write(ours)   # its own earlier output (for a card: any card side) replaced
    assert ours.exists() and listing(tmp_path / "ours") == [name]


def test_a_dataset_folder_is_refused_to_another_command(run_cli, tmp_path):
    # `generate --out` into a batch's results folder and `batch --out` into a census folder both went on: the
    # deck's cards, the batch's tables and the census's shards ended up in one folder, each command's record
    # beside the other's. A folder holding one command's output is now refused to the others, naming both.
    deck = _deck(tmp_path / "deck", "classic")
    design = tmp_path / "design"
    design.mkdir()
    (design / "p.txt").write_text("M\n#\n\nD\n##\n")
    (design / "deck.toml").write_text('game = "bars"\npieces = "p.txt"\ncards = 1\n[[sides]]\nname = "s"\n'
                                      'pieces_per_task = 2\nfaces = 1\nmax_rows = 1\nmax_cols = 3\n'
                                      'max_solutions = 2\nattempts = 20\n')
    folders = {"generate": tmp_path / "g", "batch": tmp_path / "b", "census": tmp_path / "c"}
    argv = {"generate": ["generate", "--spec", design / "deck.toml", "--seed", "1", "--out"],
            "batch": ["batch", deck, "--out"],
            "census": ["census", "--pieces", "classic", "--k", "2", "--cells", "6", "--jobs", "1", "--out"]}
    for command, folder in folders.items():
        code, _, err = run_cli(*argv[command], folder, "--no-progress")
        assert code == 0, err

    for command, into in [("generate", "batch"), ("batch", "census"), ("census", "batch"), ("batch", "generate")]:
        _refused_unchanged(run_cli, argv[command], command, into, folders[into])
    for command, folder in folders.items():   # the same command goes on in its own folder
        code, _, err = run_cli(*argv[command], folder, "--no-progress")
        assert code == 0, err
    assert listing(folders["batch"]) == ["cards.csv", "cards.parquet", "summary.md", "tasks.csv", "tasks.jsonl",
                                         "tasks.parquet"]


def _refused_unchanged(run_cli, argv, command, into, folder):
    """``command`` (its ``argv`` before the folder) refused the output folder of ``into``, in one line, the folder's
    files (its record too) unchanged byte for byte."""
    def contents():
        return {p.relative_to(folder): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}

    before = contents()
    code, out, err = run_cli(*argv, folder, "--no-progress")
    assert (code, out) == (2, "") and err == (f"ubongo-cp: error: {folder}: holds the output of `ubongo-cp "
                                              f"{into}`; `ubongo-cp {command}` writes into a folder of its "
                                              "own: choose another (new or empty) folder\n"), (command, err)
    assert contents() == before


def test_a_dataset_folder_copied_without_its_record_is_refused_to_another_command(run_cli, tmp_path):
    # A census or batch folder copied without its record (or made before the record existed) was taken for a
    # free folder: `batch --out` into a copied census folder wrote a batch's tables beside the census. It is
    # recognised by its own files (the census's manifest, the batch's journal) and refused in the same line.
    from ubongo_cp.outputs import MARKER

    deck = _deck(tmp_path / "deck", "classic")
    argv = {"batch": ["batch", deck, "--out"],
            "census": ["census", "--pieces", "classic", "--k", "2", "--cells", "6", "--jobs", "1", "--out"]}
    copies = {}
    for command in argv:
        made = tmp_path / command
        code, _, err = run_cli(*argv[command], made, "--no-progress")
        assert code == 0, err
        copies[command] = shutil.copytree(made, tmp_path / f"{command}-copy",
                                          ignore=shutil.ignore_patterns(MARKER))
        assert not (copies[command] / MARKER).exists() and listing(copies[command])

    for command, into in [("batch", "census"), ("census", "batch")]:
        _refused_unchanged(run_cli, argv[command], command, into, copies[into])
    before = listing(copies["census"])   # the census itself carries on in its copied folder
    code, _, err = run_cli(*argv["census"], copies["census"], "--no-progress")
    assert code == 0, err
    assert listing(copies["census"]) == before


def test_a_temporary_file_removed_by_another_run_before_its_lock_is_made_again(tmp_path, monkeypatch):
    # Runs writing into one folder at once (a census's or a batch's workers) each tidy it the first time: one
    # could remove another's temporary file between its making and its lock (a killed run's, to it), and the
    # other then stopped on FileNotFoundError. The run whose file went makes another one.
    from ubongo_cp import io as io_module

    real, removed = io_module._locked, []

    def removed_first(fd: int) -> bool:
        path = os.readlink(f"/proc/self/fd/{fd}")
        if not removed:   # another run's tidying, in the moment before the lock
            os.unlink(path)
            removed.append(path)
        return real(fd)

    monkeypatch.setattr(io_module, "_locked", removed_first)
    io_module.atomic_write_bytes(tmp_path / "shard.json", b"{}")
    assert removed and (tmp_path / "shard.json").read_bytes() == b"{}"
    assert listing(tmp_path) == ["shard.json"]


#: A command line run with ``os.replace`` or ``os.unlink`` killing the process (as ``kill -9`` does: no handler,
#: no clean-up) at its ``n``-th call on a card file (``*.toml``): argv[1] the call, argv[2] n, the rest the command.
_KILLED_AT = """
import os, sys
call, n, seen = sys.argv[1], int(sys.argv[2]), [0]
real = getattr(os, call)
def killing(*args, **kwargs):
    if str(args[-1 if call == "replace" else 0]).endswith(".toml"):
        seen[0] += 1
        if seen[0] == n:
            os._exit(9)
    return real(*args, **kwargs)
setattr(os, call, killing)
from ubongo_cp.cli import main
sys.exit(main(sys.argv[3:]))
"""


@pytest.mark.parametrize("call, n", [("replace", 2), ("unlink", 1)])
def test_a_deck_killed_while_its_cards_go_into_place_is_refused_then_finished(run_cli, tmp_path, call, n):
    # A run killed (kill -9, a power cut: no signal handler runs) while it renamed its new cards into place, or
    # deleted the cards it does not make, left a folder holding the cards of two decks, which `batch` and
    # `booklet` then read as one. Now the folder's record of what goes where has readers refuse it, and the
    # command's next run on it finishes the job first: the cards are then all of the killed run's deck.
    import subprocess
    import sys

    from ubongo_cp.cards import load_deck
    from ubongo_cp.outputs import OutputFolder

    deck, straight = tmp_path / "deck", tmp_path / "straight"
    assert run_cli("generate", "--game", "classic", "--seed", "1", "--cards", "3", "--out", deck,
                   "--no-progress")[0] == 0
    again = ["generate", "--game", "classic", "--seed", "9", "--cards", "2", "--no-progress", "--out"]
    assert run_cli(*again, straight)[0] == 0
    first = {p.name: p.read_bytes() for p in deck.glob("*.toml")}
    killed = subprocess.run([sys.executable, "-c", _KILLED_AT, call, str(n), *again, str(deck)],
                            capture_output=True, text=True)
    assert killed.returncode == 9, killed.stderr
    now = {p.name: p.read_bytes() for p in deck.glob("*.toml")}
    want = {p.name: p.read_bytes() for p in straight.glob("*.toml")}
    assert now != first and now != want                       # a mix of the two decks
    with pytest.raises(InputError) as raised:
        load_deck(deck)
    assert str(raised.value) == (f"{deck}: this deck directory holds files of two runs: `ubongo-cp generate` was "
                                 "stopped while it put its new files in place; run it again on this folder to finish")
    code, _, err = run_cli("batch", deck, "--out", tmp_path / "b", "--no-progress")
    assert code == 2 and err == f"ubongo-cp: error: {raised.value}\n"
    with OutputFolder(deck, "generate"):                      # entering it finishes the job
        pass
    assert {p.name: p.read_bytes() for p in deck.glob("*.toml")} == want
    assert listing(deck) == listing(straight) and len(load_deck(deck)[0]) == 4
    assert run_cli(*again, deck)[0] == 0 and {p.name: p.read_bytes() for p in deck.glob("*.toml")} == want


def test_finishing_a_killed_replacement_leaves_a_file_changed_since_as_it_is(tmp_path):
    # The record names each file's state when the renames began: a file the user changed (or put there) after
    # the run was killed keeps the user's content, and the killed run's version of it is dropped.
    import json

    from ubongo_cp.io import REPLACING, file_state, interrupted_replace, temporary_prefix
    from ubongo_cp.outputs import OutputFolder
    from ubongo_cp.report.tables import table_file

    with OutputFolder(tmp_path, "batch") as folder:
        folder.claim(["tasks.csv", "summary.md"])
        (tmp_path / "tasks.csv").write_text("old tasks\n")
        (tmp_path / "summary.md").write_text("old summary\n")
    pairs = []
    for name in ("tasks.csv", "summary.md"):
        tmp = temporary_prefix(name) + "abcd1234" + os.path.splitext(name)[1]
        (tmp_path / tmp).write_text(f"new {name}\n")
        pairs.append([tmp, name, file_state(tmp_path / name)])
    (tmp_path / REPLACING).write_text(json.dumps({"format": 1, "command": "batch", "remove": [], "rename": pairs}))
    assert interrupted_replace(tmp_path)["rename"] == pairs
    with pytest.raises(InputError, match="holds files of two runs: `ubongo-cp batch` was stopped"):
        table_file(tmp_path, "tasks")
    (tmp_path / "summary.md").write_text("my own summary\n")        # the user's edit, after the kill
    with OutputFolder(tmp_path, "booklet"):                         # another command's entry leaves it
        pass
    assert interrupted_replace(tmp_path) is not None
    with OutputFolder(tmp_path, "batch"):
        pass
    assert sorted(os.listdir(tmp_path)) == [".ubongo-cp.json", "summary.md", "tasks.csv"]
    assert (tmp_path / "tasks.csv").read_text() == "new tasks.csv\n"
    assert (tmp_path / "summary.md").read_text() == "my own summary\n"
    (tmp_path / REPLACING).write_text(json.dumps({"format": 1, "command": "batch", "remove": [],
                                                  "rename": [["../x", "tasks.csv", None]]}))
    with pytest.raises(InputError, match="not a record of files being replaced by ubongo-cp; remove it"):
        OutputFolder(tmp_path, "batch").__enter__()


def test_a_read_only_output_is_kept_by_every_writer(run_cli, tmp_path):
    # A file its owner made read-only (chmod a-w) was replaced (and made writable again) by a later run whose
    # output differed, though the command had written it: the rename beside it needs no right to write the file.
    from conftest import one_line_error
    from ubongo_cp.io import atomic_write_text

    pieces = piece_set_path("pentominoes")
    out = tmp_path / "a.dlx"
    assert run_cli("export", "--pieces", pieces, "--region", "6x10", "--out", out)[0] == 0
    before = out.read_bytes()
    out.chmod(0o444)
    code, _, err = run_cli("export", "--pieces", pieces, "--region", "5x12", "--out", out)
    one_line_error(code, err, "a.dlx: is read-only", "make it writable (chmod u+w)")
    assert out.read_bytes() == before and oct(out.stat().st_mode & 0o777) == "0o444"
    with pytest.raises(InputError, match="is read-only"):     # the Python API's writers, through the same rule
        atomic_write_text(out, "x")
    assert out.read_bytes() == before
    deck = tmp_path / "deck"                                  # a deck's card it would delete (fewer cards now)
    assert run_cli("generate", "--game", "classic", "--cards", "2", "--out", deck, "--no-progress")[0] == 0
    kept = deck / "02_easy.toml"
    card = kept.read_bytes()
    kept.chmod(0o444)
    code, _, err = run_cli("generate", "--game", "classic", "--cards", "1", "--out", deck, "--no-progress")
    one_line_error(code, err, "02_easy.toml: is read-only")
    assert kept.read_bytes() == card and listing(deck) == ["01_easy.toml", "01_hard.toml", "02_easy.toml",
                                                           "02_hard.toml"]
    results = tmp_path / "results"                            # a batch's table: refused before any task is solved
    assert run_cli("batch", deck, "--out", results, "--no-progress")[0] == 0
    summary = results / "summary.md"
    text = summary.read_text()
    summary.chmod(0o444)
    code, out_text, err = run_cli("batch", deck, "--out", results, "--no-progress")
    one_line_error(code, err, "summary.md: is read-only")
    assert out_text == "" and summary.read_text() == text


def test_a_replaced_output_keeps_its_permissions(run_cli, tmp_path):
    # A file kept private (chmod 600) was replaced by a file anyone may read (0644 under the usual umask).
    pieces = piece_set_path("pentominoes")
    out = tmp_path / "a.dlx"
    assert run_cli("export", "--pieces", pieces, "--region", "6x10", "--out", out)[0] == 0
    umask = os.umask(0)
    os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~umask       # a new file: the usual permissions
    out.chmod(0o600)
    before = out.read_bytes()
    assert run_cli("export", "--pieces", pieces, "--region", "5x12", "--out", out)[0] == 0
    assert out.read_bytes() != before and out.stat().st_mode & 0o777 == 0o600


def test_a_simulation_table_may_go_into_the_batch_folder_it_reads(run_cli, tmp_path):
    # simulate --tasks OUT --out OUT/games.csv was refused: "would overwrite a file read from the tasks directory",
    # untrue of a new file there (booklet --results OUT --out OUT/b.pdf is taken); the rated table and the deck spec
    # it reads there are still never replaced.
    from conftest import one_line_error

    deck, out = tmp_path / "deck", tmp_path / "out"     # a designer's game: its spec is read beside the table
    assert run_cli("generate", "--spec", "designer", "--cards", "2", "--out", deck, "--no-progress")[0] == 0
    assert run_cli("batch", deck, "--out", out, "--no-progress")[0] == 0
    assert (out / "deck.toml").is_file()
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    game = ("simulate", "ubongo", "--tasks", out, "--games", "3", "--players", "2", "--all-cards", "--no-progress")
    code, _, err = run_cli(*game, "--out", out / "games.csv")
    assert code == 0, err
    assert len((out / "games.csv").read_text().splitlines()) == 1 + 3 * 2   # a row per game and seat
    for name in ("tasks.csv", "tasks.parquet", "deck.toml"):
        code, _, err = run_cli(*game, "--out", out / name)
        one_line_error(code, err, "would overwrite a file read from the tasks directory")
    assert all((out / name).read_bytes() == data for name, data in before.items())


def test_an_empty_path_is_no_folder_of_the_python_api(tmp_path, monkeypatch):
    # run_batch(deck, "") wrote its five tables, journal and record into the folder Python ran in (pathlib takes ""
    # for "."), beside the user's files there, and run_batch("", out) read that folder as the deck; load_card("")
    # said ": file not found". The command line refuses an empty path as it reads it; the library now too.
    from ubongo_cp.batch import run_batch
    from ubongo_cp.census.run import run_census
    from ubongo_cp.generate import generate_deck
    from ubongo_cp.report import load_tasks

    here = tmp_path / "here"
    here.mkdir()
    (here / "notes.txt").write_text("mine\n")
    monkeypatch.chdir(here)
    deck = PUZZLES / "decks" / "classic"
    for call, what in ((lambda: run_batch(deck, ""), "the output folder"),
                       (lambda: generate_deck("classic", "", cards=1), "the output folder"),
                       (lambda: run_census("classic", 2, 5, out_dir="", progress=False), "the output folder"),
                       (lambda: run_batch("", tmp_path / "out"), "a deck"),
                       (lambda: load_tasks(""), "a deck"),
                       (lambda: load_card(""), "a file"),
                       (lambda: load_pieces(""), None)):
        with pytest.raises(InputError) as exc:
            call()
        if what is not None:
            assert str(exc.value) == f"the path of {what} is empty; name it (the current folder is '.')"
    assert listing(here) == ["notes.txt"] and not (here / ".ubongo-cp.json").exists()
    assert not (tmp_path / "out").exists()
    assert len(run_batch(deck, here / "o", progress=False).tasks) == 432   # a folder named: the 432 tasks
