"""Deck generation: determinism, rules UP-2/UP-4, card-size limits, and the shipped decks."""

from __future__ import annotations

import filecmp

import pytest

from conftest import PUZZLES
from ubongo_cp.cards import load_deck
from ubongo_cp.cover import task_instance
from ubongo_cp.generate import _has_hole, generate_deck, random_region
from ubongo_cp.specs import load_spec
from ubongo_cp.geometry import is_connected
from ubongo_cp.solvers import solve

import numpy as np


def test_random_regions_are_connected_hole_free_and_fit():
    rng = np.random.default_rng(7)
    for area in (10, 17, 28):
        for _ in range(20):
            region = random_region(rng, area, 7, 7)
            assert region.area == area and region.height <= 7 and region.width <= 7
            assert is_connected(region.cells) and not _has_hole(set(region.cells))


def test_hole_detection_by_hand():
    ring = {(r, c) for r in range(3) for c in range(3)} - {(1, 1)}
    assert _has_hole(ring)
    assert not _has_hole(ring - {(0, 1)})


@pytest.mark.parametrize("game", ["classic", "duel"])
def test_generated_sides_follow_the_rules(game):
    deck = generate_deck(game, None, seed=11, cards=2)
    again = generate_deck(game, None, seed=11, cards=2)
    assert [(c.region.cells, c.tasks) for c in deck] == [(c.region.cells, c.tasks) for c in again]
    spec = load_spec(game)
    assert [(c.card_id, c.side) for c in deck] == [(c.card_id, s) for c in deck[::2] for s in spec.side_names]
    for card in deck:
        side = spec.side(card.side)
        assert sorted(card.tasks) == list(range(1, side.faces + 1))
        assert card.region.height <= side.max_rows and card.region.width <= side.max_cols
        assert side.cells[0] <= card.region.area <= side.cells[1]
        assert len({frozenset(t) for t in card.tasks.values()}) == side.faces  # no repeated piece set
        recorded = card.meta["generator"]["solutions"]
        for face, names in card.tasks.items():
            assert len(names) == side.pieces_per_task
            # UP-2/UP-4, checked by the CP-SAT backend (the generator used DLX).
            result = solve(task_instance(card, face), backend="cpsat")
            assert result.complete and result.count == recorded[face - 1] >= 1


def test_shipped_decks_are_complete_and_reproducible(tmp_path):
    for game, sides, tasks in (("classic", 72, 6), ("duel", 18, 20)):
        cards, problems = load_deck(PUZZLES / "decks" / game)
        assert not problems and len(cards) == sides
        assert all(len(c.tasks) == tasks for c in cards)
        # The recorded command and seed regenerate the shipped files byte for byte.
        seed = cards[0].meta["generator"]["seed"]
        generate_deck(game, tmp_path / game, seed=seed)
        names = sorted(p.name for p in (PUZZLES / "decks" / game).glob("*.toml"))
        match, mismatch, errors = filecmp.cmpfiles(PUZZLES / "decks" / game, tmp_path / game, names, shallow=False)
        assert mismatch == [] and errors == [] and len(match) == sides


def test_piece_usage_is_spread():
    deck = generate_deck("duel", None, seed=3, cards=3)
    usage = {}
    for c in deck:
        for names in c.tasks.values():
            for n in names:
                usage[n] = usage.get(n, 0) + 1
    assert len(usage) == 21  # every Duel piece is used somewhere


def test_a_smaller_deck_replaces_its_own_larger_one_and_never_a_card_of_yours(tmp_path, capsys):
    # A smaller deck written over a larger one once kept the old cards in the deck; then it was refused
    # although the generator had written them all. Its own unchanged cards go; an edited one, or a card
    # file of the user's, stops the command with everything left as it was.
    from ubongo_cp.cli import main

    out = tmp_path / "deck"
    assert main(["generate", "--game", "classic", "--out", str(out), "--cards", "2", "--no-progress"]) == 0
    two = sorted(p.name for p in out.glob("*.toml"))
    assert two == ["01_easy.toml", "01_hard.toml", "02_easy.toml", "02_hard.toml"]
    edited = (out / "02_hard.toml").read_text() + "# my own note\n"
    (out / "02_hard.toml").write_text(edited)
    assert main(["generate", "--game", "classic", "--out", str(out), "--cards", "1", "--no-progress"]) == 2
    assert "02_hard.toml: changed since `ubongo-cp generate` wrote it" in capsys.readouterr().err
    assert sorted(p.name for p in out.glob("*.toml")) == two and (out / "02_hard.toml").read_text() == edited
    (out / "02_hard.toml").unlink()
    (out / "mine.toml").write_text("# a card side of my own\n")
    assert main(["generate", "--game", "classic", "--out", str(out), "--cards", "1", "--no-progress"]) == 2
    assert "holds 1 card file(s) this deck would not replace (e.g. mine.toml)" in capsys.readouterr().err
    (out / "mine.toml").unlink()
    assert main(["generate", "--game", "classic", "--out", str(out), "--cards", "1", "--no-progress"]) == 0
    assert sorted(p.name for p in out.glob("*.toml")) == ["01_easy.toml", "01_hard.toml"]
    # The same command again replaces every file: allowed.
    assert main(["generate", "--game", "classic", "--out", str(out), "--cards", "1", "--no-progress"]) == 0


def test_an_interrupted_generate_leaves_the_earlier_deck_whole_not_a_mix_of_two(tmp_path, monkeypatch, capsys):
    # A generate stopped while it picked the tasks of its card sides had written its first cards over the earlier
    # deck's: the folder held cards of two seeds and looked complete. Now the cards are written together at the end.
    import ubongo_cp.generate as generate
    from ubongo_cp.cli import main

    out = tmp_path / "deck"
    argv = ["generate", "--game", "classic", "--out", str(out), "--cards", "3", "--no-progress"]
    assert main([*argv, "--seed", "1"]) == 0
    before = _snapshot(out)
    assert len([name for name in before if name.endswith(("_easy.toml", "_hard.toml"))]) == 6
    picked, pick = [], generate._pick_tasks

    def stopped(*args):   # Ctrl-C while the fourth card side's tasks are picked
        picked.append(1)
        if len(picked) == 4:
            raise KeyboardInterrupt
        return pick(*args)

    monkeypatch.setattr(generate, "_pick_tasks", stopped)
    assert main([*argv, "--seed", "2"]) == 130
    assert {name: data for name, (data, _) in _snapshot(out).items()} == \
        {name: data for name, (data, _) in before.items()}   # no temporary file left either
    monkeypatch.setattr(generate, "_pick_tasks", pick)
    assert main([*argv, "--seed", "2"]) == 0   # the same command again makes the other deck, whole
    after = _snapshot(out)
    assert after.keys() == before.keys() and all("--seed 2" in after[n][0].decode() for n in after
                                                 if n.endswith(("_easy.toml", "_hard.toml")))
    assert sum(after[n][0] != before[n][0] for n in after) >= 4
    capsys.readouterr()


def test_a_generate_stopped_while_its_cards_go_into_place_leaves_one_deck_whole(tmp_path, monkeypatch, capsys):
    # Ctrl-C while the card files were renamed into place (each with an fsync of the file and one of the folder:
    # seconds for a deck of 200 cards) left some card sides of each seed: 21 to 175 of the 400 of the new deck
    # among the earlier deck's. The renames now finish first; then the command ends as interrupted.
    import signal

    import ubongo_cp.io as io
    from ubongo_cp.cli import main

    out = tmp_path / "deck"
    argv = ["generate", "--game", "classic", "--out", str(out), "--cards", "3", "--no-progress"]
    assert main([*argv, "--seed", "1"]) == 0
    renamed, replace = [], io.replace_durably

    def interrupted(source, target):   # Ctrl-C once the second card side is in place
        replace(source, target)
        if str(target).endswith(".toml"):
            renamed.append(target)
            if len(renamed) == 2:
                signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(io, "replace_durably", interrupted)
    assert main([*argv, "--seed", "2"]) == 130
    assert capsys.readouterr().err == "ubongo-cp: interrupted\n" and len(renamed) == 6
    after = _snapshot(out)
    cards = [name for name in after if name.endswith(("_easy.toml", "_hard.toml"))]
    assert len(cards) == 6 and all("--seed 2" in after[name][0].decode() for name in cards), \
        [name for name in cards if "--seed 2" not in after[name][0].decode()]


def test_an_interrupted_generate_leaves_the_earlier_decks_spec_copy_with_its_cards(tmp_path, monkeypatch, capsys):
    # The folder's copy of a custom spec and its piece set (deck.toml, pieces.txt) was written before any work:
    # a run of the edited spec stopped while it picked tasks left the earlier cards naming the new pieces.txt,
    # whose S4 is another shape than the one their tasks were solved with.
    import ubongo_cp.generate as generate
    from ubongo_cp.cli import main

    spec, out = _designer(tmp_path / "d"), tmp_path / "deck"
    argv = ["generate", "--spec", str(spec), "--out", str(out), "--cards", "2", "--no-progress"]
    assert main(argv) == 0
    before = _snapshot(out)
    pieces = spec.parent / "pieces.txt"
    pieces.write_text(pieces.read_text().replace("S4\n.##\n##.", "S4\n##.\n.##"))

    def stopped(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(generate, "_pick_tasks", stopped)
    assert main(argv) == 130
    assert {name: data for name, (data, _) in _snapshot(out).items()} == \
        {name: data for name, (data, _) in before.items()}
    monkeypatch.undo()
    assert main(argv) == 0   # the same command again writes the new spec's copy with its cards
    assert (out / "pieces.txt").read_text() == pieces.read_text()
    capsys.readouterr()


@pytest.mark.parametrize("stop", [KeyboardInterrupt, RuntimeError])
def test_a_generate_that_fails_before_writing_leaves_the_folder_as_it_was(tmp_path, monkeypatch, capsys, stop):
    # A generate stopped (or failing) before it wrote any card left the folder's record naming the deck's files
    # (deck.toml, the cards) as its own: the folder, holding only the user's notes, then looked like a deck of
    # that spec (generate of another spec there was refused as 'holds the output of ubongo-cp generate for ...'),
    # and a card of the user's put there later under such a name would have been replaced. Now nothing is left.
    import ubongo_cp.generate as generate
    from ubongo_cp.cli import main

    spec, out = _designer(tmp_path / "d"), tmp_path / "deck"
    out.mkdir()
    (out / "notes.txt").write_text("mine\n")

    def failing(*args):
        raise stop("stopped")

    monkeypatch.setattr(generate, "_pick_tasks", failing)
    argv = ["generate", "--out", str(out), "--cards", "1", "--no-progress"]
    assert main([*argv, "--spec", str(spec)]) == (130 if stop is KeyboardInterrupt else 1)
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]   # no record either (the folder had none)
    monkeypatch.undo()
    assert main([*argv, "--game", "classic"]) == 0   # another spec is not refused: the folder holds no deck
    assert sorted(p.name for p in out.iterdir()) == [".ubongo-cp.json", "01_easy.toml", "01_hard.toml", "notes.txt"]
    capsys.readouterr()


def test_a_failed_run_drops_only_the_files_it_did_not_write_from_the_record(tmp_path):
    # The output folder's own rule, for every command: a failed run keeps its finished files on record (a
    # long batch loses none), forgets those it claimed but never wrote, and leaves an older record as it was.
    import json

    from ubongo_cp.outputs import MARKER, OutputFolder

    with OutputFolder(tmp_path, "batch", source="deck-a") as folder:
        folder.claim(["old.csv"])
        (tmp_path / "old.csv").write_text("a,b\n")
    before = (tmp_path / MARKER).read_text()
    with pytest.raises(RuntimeError):
        with OutputFolder(tmp_path, "booklet") as folder:   # a command that may write beside a batch's tables
            folder.claim(["page.png"])
            raise RuntimeError("stopped")
    assert json.loads((tmp_path / MARKER).read_text()) == json.loads(before)
    with pytest.raises(RuntimeError):
        with OutputFolder(tmp_path, "batch", source="deck-a") as folder:
            folder.claim(["done.csv", "never.csv"])
            (tmp_path / "done.csv").write_text("c,d\n")
            raise RuntimeError("stopped")
    with OutputFolder(tmp_path, "batch", source="deck-a") as folder:
        assert folder.files == ["done.csv", "old.csv"]
        assert not folder.owns("never.csv")


def test_a_failed_run_that_wrote_nothing_takes_back_the_source_it_filled_in(tmp_path):
    # A record without a source (tables written by report.write_reports) had it filled in by a batch of a deck;
    # that batch failing before it wrote a file left the deck on record: a batch of another deck was then
    # refused as 'holds the output of ubongo-cp batch for deck-a', though the folder held none of it.
    import json

    from ubongo_cp.errors import InputError
    from ubongo_cp.outputs import MARKER, OutputFolder

    with OutputFolder(tmp_path, "batch") as folder:
        folder.claim(["tasks.csv"])
        (tmp_path / "tasks.csv").write_text("a,b\n")
    before = json.loads((tmp_path / MARKER).read_text())
    for claimed in (["tasks.csv"], ["tasks.csv", "tasks.jsonl"]):
        with pytest.raises(RuntimeError):
            with OutputFolder(tmp_path, "batch", source="deck-a") as folder:
                folder.claim(claimed)
                raise RuntimeError("stopped")
        assert json.loads((tmp_path / MARKER).read_text()) == before
    with OutputFolder(tmp_path, "batch", source="deck-b") as folder:   # not refused
        assert folder.files == ["tasks.csv"]
    with pytest.raises(RuntimeError):   # a run that wrote a file keeps its source on record
        with OutputFolder(tmp_path, "batch", source="deck-b") as folder:
            folder.claim(["tasks.jsonl"])
            (tmp_path / "tasks.jsonl").write_text("{}\n")
            raise RuntimeError("stopped")
    with pytest.raises(InputError, match="for deck-b"):
        with OutputFolder(tmp_path, "batch", source="deck-c"):
            pass


def _snapshot(folder):
    """Every file under ``folder``: relative path -> (bytes, inode)."""
    return {str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_ino) for p in sorted(folder.rglob("*"))
            if p.is_file() and p.name != ".ubongo-cp.json"}


def _designer(folder, *, pieces="pieces.txt", comment=""):
    """A designer's folder: the example spec naming ``pieces``, and the example piece set saved under that name."""
    folder.mkdir(parents=True)
    text = (PUZZLES / "examples" / "designer" / "deck.toml").read_text()
    (folder / "deck.toml").write_text(text.replace('pieces = "pieces.txt"', f'pieces = "{pieces}"{comment}'))
    (folder / pieces).write_bytes((PUZZLES / "examples" / "designer" / "pieces.txt").read_bytes())
    return folder / "deck.toml"


# The spec named by its file (DIR/deck.toml) or by its folder (DIR): the same deck, the same refusals. The folder
# form was refused as a whole ("--out DIR would overwrite the spec input"), where the file form wrote the deck.
SPEC_FORMS = pytest.mark.parametrize("form", [lambda spec: spec, lambda spec: spec.parent], ids=["file", "folder"])


@SPEC_FORMS
def test_generate_into_the_specs_own_folder_never_overwrites_an_input(tmp_path, run_cli, form):
    # The spec and a user's own pieces.txt in DIR, the spec naming another piece file: the deck's copies
    # would overwrite both inputs' folder-mates; refused before any work, one line naming the file.
    spec = _designer(tmp_path / "d", pieces="mine.txt")
    (tmp_path / "d" / "pieces.txt").write_text("my other pieces\n#\n")
    before = _snapshot(tmp_path / "d")
    code, out, err = run_cli("generate", "--spec", form(spec), "--out", tmp_path / "d", "--cards", "1",
                             "--no-progress")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"{tmp_path / 'd' / 'deck.toml'}: is the deck spec this command reads and would be overwritten" in err
    assert _snapshot(tmp_path / "d") == before
    # The same with the spec elsewhere: only the user's pieces.txt is in the way.
    other = _designer(tmp_path / "e", pieces="mine.txt")
    code, out, err = run_cli("generate", "--spec", other, "--out", tmp_path / "d", "--cards", "1", "--no-progress")
    assert code == 2 and err.count("\n") == 1
    assert f"{tmp_path / 'd' / 'pieces.txt'}: exists and was not written by `ubongo-cp generate`" in err
    assert _snapshot(tmp_path / "d") == before


@SPEC_FORMS
def test_generate_beside_a_self_contained_spec_leaves_the_spec_alone(tmp_path, run_cli, form):
    # deck.toml naming pieces.txt beside it (what generate itself writes): the copies would be the files
    # themselves, so they are left alone (same bytes, same inode) and only the cards are written, twice.
    spec = _designer(tmp_path / "d", comment="   # my own set")
    before = _snapshot(tmp_path / "d")
    for _ in range(2):
        code, out, err = run_cli("generate", "--spec", form(spec), "--out", tmp_path / "d", "--cards", "1", "--seed",
                                 "3", "--no-progress")
        assert code == 0, err
        assert out.startswith(f"wrote 2 card sides (12 tasks, 12 uniquely solvable) to {tmp_path / 'd'} in ")
        after = _snapshot(tmp_path / "d")
        assert {k: after[k] for k in before} == before
        assert sorted(after) == ["01_easy.toml", "01_hard.toml", "deck.toml", "pieces.txt"]
    cards, problems = load_deck(tmp_path / "d")
    assert not problems and [c.side for c in cards] == ["easy", "hard"]
    # A folder inside the spec's folder is another folder: nothing read is there.
    code, out, err = run_cli("generate", "--spec", form(spec), "--out", tmp_path / "d" / "sub", "--cards", "1",
                             "--no-progress")
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "d" / "sub").iterdir() if p.name != ".ubongo-cp.json") == [
        "01_easy.toml", "01_hard.toml", "deck.toml", "pieces.txt"]
    assert {k: v for k, v in _snapshot(tmp_path / "d").items() if k in before} == before
    # The spec's own file, named as the output folder, is still refused.
    code, _, err = run_cli("generate", "--spec", form(spec), "--out", spec, "--cards", "1", "--no-progress")
    assert code == 2 and err.count("\n") == 1 and f"--out {spec} would overwrite " in err


def test_generate_beside_a_spec_saved_with_crlf_and_a_byte_order_mark_leaves_it_alone(tmp_path, run_cli):
    # A spec and piece set saved by a Windows editor (a BOM, CRLF line ends) were refused as their own copies
    # ("pieces.txt: is the spec's piece set this command reads and would be overwritten by the deck's copy"):
    # the copy, read as text, was compared with the file's bytes.
    spec = _designer(tmp_path / "d")
    for name in ("deck.toml", "pieces.txt"):
        f = tmp_path / "d" / name
        f.write_bytes(b"\xef\xbb\xbf" + f.read_bytes().replace(b"\n", b"\r\n"))
    before = _snapshot(tmp_path / "d")
    code, out, err = run_cli("generate", "--spec", spec, "--out", tmp_path / "d", "--cards", "1", "--seed", "3",
                             "--no-progress")
    assert code == 0, err
    assert out.startswith(f"wrote 2 card sides (12 tasks, 12 uniquely solvable) to {tmp_path / 'd'} in ")
    after = _snapshot(tmp_path / "d")
    assert {k: after[k] for k in before} == before
    assert sorted(after) == ["01_easy.toml", "01_hard.toml", "deck.toml", "pieces.txt"]


def test_generate_refuses_another_spec_in_a_deck_folder(tmp_path, run_cli):
    spec = _designer(tmp_path / "d")
    out = tmp_path / "deck"
    assert run_cli("generate", "--spec", spec, "--out", out, "--cards", "1", "--no-progress")[0] == 0
    before = _snapshot(out)
    code, _, err = run_cli("generate", "--game", "classic", "--out", out, "--cards", "1", "--no-progress")
    assert code == 2 and err.count("\n") == 1
    assert f"{out}: holds the output of `ubongo-cp generate` for {spec}, not classic" in err
    assert _snapshot(out) == before


# ---------------------------------------------------------------- every card side its own board

def _shapes(deck) -> list:
    """Each card side's region up to turning and mirroring, computed here from the 8 images (not region_key)."""
    from ubongo_cp.geometry import SYMMETRIES, transform

    return [min(tuple(sorted(transform(c.region.cells, s))) for s in SYMMETRIES) for c in deck]


def test_shipped_decks_have_distinct_regions():
    for game in ("classic", "duel"):
        cards, _ = load_deck(game)
        shapes = _shapes(cards)
        assert len(set(shapes)) == len(shapes), game


def test_from_census_deck_has_distinct_regions_spread_over_the_census(tmp_path):
    # The designer's example: a census of 9-10 cells in a 4x4 box, then three cards drawn from it.
    from ubongo_cp.census import census_regions, run_census

    designer = PUZZLES / "examples" / "designer"
    run_census(designer / "pieces.txt", 3, [9, 10], out_dir=tmp_path / "census", box=(4, 4), progress=False)
    good = census_regions(tmp_path / "census")
    assert len(good) > 6
    deck = generate_deck(designer / "deck.toml", None, seed=1, cards=3, candidates=good)
    easy = [c for c in deck if c.side == "easy"]
    assert len(easy) == 3 and len(set(_shapes(easy))) == 3
    # Spread: card i starts i/3 of the way down the census's list (best first), not at its top; each
    # start is a good region (6 unique tasks), so each card keeps the region it starts at.
    rank = {tuple(sorted(r.cells)): i for i, r in enumerate(good)}
    from ubongo_cp.polyominoes import canonical_form

    ranks = [rank[tuple(sorted(canonical_form(c.region.cells)))] for c in easy]
    assert ranks == [i * len(good) // 3 for i in range(3)]


def test_candidate_regions_of_another_grid_are_refused_before_any_work(tmp_path):
    # A census of hexagon regions given to the classic game (square pieces): every region was left out
    # without a word on why ("the candidate regions hold none of 10-13 cells"), then exit 1.
    from ubongo_cp.errors import InputError
    from ubongo_cp.pieces import Region

    hexes = [Region.box(3, 4, grid="hex"), Region.box(2, 6, grid="hex")]
    with pytest.raises(InputError, match="the candidate regions lie on the hex grid, the pieces of game 'classic' "
                                         "on the square grid"):
        generate_deck("classic", tmp_path / "out", seed=1, cards=1, candidates=hexes)
    assert not (tmp_path / "out").exists()


def test_a_census_without_a_region_for_a_card_side_is_refused(run_cli, tmp_path):
    # Every side was "left out" with a line of its own, then exit 1: a census of 6 cells has no region with
    # the six uniquely tiling subsets a card side needs.
    assert run_cli("census", "--pieces", "classic", "--k", "2", "--cells", "6", "--out", tmp_path / "c",
                   "--no-progress", "--jobs", "1")[0] == 0
    code, out, err = run_cli("generate", "--game", "classic", "--from-census", tmp_path / "c", "--out",
                             tmp_path / "g", "--no-progress")
    assert (code, out) == (2, "") and err == (f"ubongo-cp: error: {tmp_path / 'c'}: holds no region a card side "
                                              "can take (none has 6 uniquely tiling subsets or more): choose another "
                                              "census\n")
    assert not (tmp_path / "g").exists()


def test_a_side_that_runs_out_of_distinct_boards_is_left_out(tmp_path):
    # A monomino and a domino in a 1x3 box: the only board of 3 cells is the 1x3 bar (tiled in 2 ways,
    # the monomino at either end); two cards of one side cannot both have a board of their own.
    (tmp_path / "p.txt").write_text("M\n#\n\nD\n##\n")
    spec = tmp_path / "deck.toml"
    spec.write_text('game = "bars"\npieces = "p.txt"\ncards = 2\n[[sides]]\nname = "s"\npieces_per_task = 2\n'
                    'faces = 1\nmax_rows = 1\nmax_cols = 3\nmax_solutions = 2\nattempts = 20\n')
    said = []
    deck = generate_deck(spec, None, seed=0, progress=said.append)
    assert [c.region.area for c in deck] == [3]
    assert "card 02 side s: no region in" in said[-1] and "differs from the deck's other regions" in said[-1]


from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(k=st.integers(2, 3), faces=st.integers(1, 3), rows=st.integers(3, 4), cols=st.integers(3, 5),
       cards=st.integers(2, 5), limit=st.integers(1, 3), seed=st.integers(0, 1000), two_sides=st.booleans())
def test_every_generated_deck_has_distinct_regions(tmp_path_factory, k, faces, rows, cols, cards, limit, seed,
                                                   two_sides):
    # Random specs on the designer's piece set (a domino, two trominoes, five tetrominoes).
    tmp = tmp_path_factory.mktemp("spec")
    policy = "unique = true" if limit == 1 else f"max_solutions = {limit}"
    side = (f'[[sides]]\nname = "{{name}}"\npieces_per_task = {k}\nfaces = {faces}\nmax_rows = {rows}\n'
            f'max_cols = {cols}\n{policy}\nattempts = 60\n')
    (tmp / "pieces.txt").write_bytes((PUZZLES / "examples" / "designer" / "pieces.txt").read_bytes())
    text = (f'game = "prop"\npieces = "pieces.txt"\ncards = {cards}\n'
            + side.format(name="a") + (side.format(name="b") if two_sides else ""))
    (tmp / "deck.toml").write_text(text)
    deck = generate_deck(tmp / "deck.toml", None, seed=seed)
    shapes = _shapes(deck)
    assert len(set(shapes)) == len(shapes)


def test_a_card_side_left_out_is_said_even_without_progress_lines(tmp_path, run_cli):
    # With --no-progress the reason went unsaid, while the error pointed at "the lines above".
    spec = tmp_path / "spec.toml"
    spec.write_text('game = "tight"\npieces = "classic"\ncards = 1\n[[sides]]\nname = "a"\npieces_per_task = 3\n'
                    'faces = 6\nmax_rows = 3\nmax_cols = 5\ncells = [15, 15]\nunique = true\n')
    code, out, err = run_cli("generate", "--spec", spec, "--out", tmp_path / "deck", "--seed", "1", "--no-progress")
    lines = err.strip().splitlines()
    assert code == 1 and len(lines) == 2, err
    assert lines[0].startswith("card 01 side a: no region in ") and lines[0].endswith("; left out")
    assert lines[1] == "ubongo-cp: error: no card side could be generated (0 of 1); see the lines above"


@pytest.mark.parametrize("arguments, message", [
    # numpy's own words before: "SeedSequence expects int or sequence of ints for entropy not x" (TypeError),
    # "expected non-negative integer" (ValueError), naming no argument
    ({"seed": "x"}, "seed must be a whole number of at least 0, got 'x'"),
    ({"seed": -1}, "seed must be a whole number of at least 0, got -1"),
    ({"seed": 1.5}, "seed must be a whole number of at least 0, got 1.5"),
    # a comparison's TypeError before; a number of cards beyond what a spec may say ran on
    ({"cards": "2"}, "cards must be a whole number of at least 1, got '2'"),
    ({"cards": 0}, "cards must be a whole number of at least 1, got 0"),
    ({"cards": 10_001}, "cards must be at most 10000, got 10001"),
    # os.fspath's TypeError before
    ({"spec": 3}, "a deck spec is a shipped game's name, a spec file's path or a DeckSpec, got int 3"),
    # AttributeError: 'str' object has no attribute 'warm', before
    ({"executor": "local"}, "executor must be an Executor (ubongo_cp.executors.make_executor) or None, got str 'local'"),
])
def test_wrong_arguments_of_generate_deck_are_one_error_naming_them_before_any_work(arguments, message, tmp_path):
    from ubongo_cp.errors import InputError

    arguments = {"spec": "classic", "seed": 1, "cards": 1, **arguments}
    with pytest.raises(InputError) as info:
        generate_deck(arguments.pop("spec"), tmp_path / "out", **arguments)
    assert str(info.value) == message
    assert not (tmp_path / "out").exists()


def test_from_census_takes_the_regions_random_growth_would_grow_on_triangles(tmp_path, run_cli):
    # max_rows x max_cols on triangles is a parallelogram of rhombi (random growth: 2 rows of 4 triangles for
    # 2x2); --from-census kept only regions whose text picture was at most 2 triangles wide, so of the three
    # uniquely tiled 6-triangle regions (each 4 or 5 triangles wide) none, and the side was left out.
    (tmp_path / "pieces.txt").write_text("grid: triangle\nD2\n^v\n\nI4\n^v^v\n")
    (tmp_path / "spec.toml").write_text('game = "strip"\npieces = "pieces.txt"\ncards = 1\n\n[[sides]]\n'
                                        'name = "one"\npieces_per_task = 2\nfaces = 1\nmax_rows = 2\nmax_cols = 2\n'
                                        'max_solutions = 5\nunique = false\n')
    code, _, err = run_cli("census", "--pieces", tmp_path / "pieces.txt", "--k", "2", "--cells", "6", "--out",
                           tmp_path / "cen", "--jobs", "1")
    assert code == 0, err
    code, out, err = run_cli("generate", "--spec", tmp_path / "spec.toml", "--from-census", tmp_path / "cen",
                             "--out", tmp_path / "deck", "--seed", "1")
    assert code == 0 and "wrote 1 card sides" in out, (out, err)
    region = load_deck(tmp_path / "deck")[0][0].region
    assert region.area == 6 and region.width > 2
    # the region lies, turned or mirrored, in the box random growth uses
    box = set(region.grid.box(2, 2))
    assert any(any(all((c[0] + dr, c[1] + dc) in box for c in image) and (dr + dc) % 2 == 0
                   for dr in range(-3, 4) for dc in range(-6, 7))
               for image in region.grid.orientations(region.cells, "free"))
    for seed in range(40):   # and every region random growth makes there is one --from-census takes
        from ubongo_cp.generate import fits_card

        grown = random_region(np.random.default_rng(seed), 2 + seed % 7, 2, 2, grid=region.grid)
        assert fits_card(grown, 2, 2), grown.to_ascii()
