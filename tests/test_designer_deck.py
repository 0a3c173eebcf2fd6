"""A designer's own deck through the toolkit: printing order, exit codes and strict checks, honest summaries,
piece balance.

The deck below is written by hand: a game whose spec lists its sides "zeta" before "alpha" (so that
printing order and alphabetical order differ), plain card ids 1, 2, 10 (so that text order and numeric
order differ), and tasks whose solution counts were worked out by hand on a 2 x 3 region:

- I3 + I3: the two rows, 1 tiling (the copies are not told apart, UP-5);
- I3 + L3: no tiling (an L tromino does not fit the row the I3 leaves);
- I2 + O4: the square left or right, 2 tilings;
- I2 + L4: 4 tilings (the domino upright at either end, the L in its two turnings there).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import one_line_error
from ubongo_cp.batch import run_batch, strict_failures
from ubongo_cp.cards import load_deck
from ubongo_cp.cover import task_instance
from ubongo_cp.errors import InputError
from ubongo_cp.report import load_cards, load_tasks, piece_balance
from ubongo_cp.solvers import solve

SPEC = """game = "orderly"
pieces = "classic"
cards = 10
card_ids = "plain"

[[sides]]
name = "zeta"
pieces_per_task = 2
faces = 4
max_rows = 3
max_cols = 3

[[sides]]
name = "alpha"
pieces_per_task = 2
faces = 4
max_rows = 3
max_cols = 3
max_solutions = 4
"""

#: face -> (pieces, tilings worked out by hand; see the module docstring).
TASKS = {1: (["I3", "I3"], 1), 2: (["I3", "L3"], 0), 3: (["I2", "O4"], 2), 4: (["I2", "L4"], 4)}


def _card(card: str, side: str, faces=(1, 2, 3, 4)) -> str:
    tasks = "\n".join(f"{f} = [{', '.join(repr(n).replace(chr(39), chr(34)) for n in TASKS[f][0])}]" for f in faces)
    return (f'game = "orderly"\ncard = "{card}"\nside = "{side}"\npieces = "classic"\n'
            f'region = """\n###\n###\n"""\n\n[tasks]\n{tasks}\n')


def write_deck(root: Path, cards=(("1", "zeta"), ("1", "alpha"), ("2", "zeta"), ("10", "alpha")),
               faces=(1, 2, 3, 4), die: int = 4) -> Path:
    deck = root / "orderly"
    deck.mkdir()
    (deck / "deck.toml").write_text(SPEC.replace("faces = 4", f"faces = {die}"))
    for card, side in cards:
        (deck / f"{card}_{side}.toml").write_text(_card(card, side, faces))
    return deck


@pytest.fixture
def deck(tmp_path) -> Path:
    return write_deck(tmp_path)


def test_the_hand_counts_hold(deck):
    # The counts of the module docstring, by CP-SAT (the batch rates with DLX).
    from ubongo_cp.cards import load_card

    card = load_card(deck / "1_zeta.toml")
    assert {f: solve(task_instance(card, f), backend="cpsat").count for f in TASKS} == \
        {f: n for f, (_, n) in TASKS.items()}


# ---------------------------------------------------------------- printing order

def test_decks_load_in_printing_order(deck):
    cards, problems = load_deck(deck)
    assert not problems
    # Card ids by number (2 before 10), sides as the spec lists them (zeta before alpha).
    assert [c.key for c in cards] == [("1", "zeta"), ("1", "alpha"), ("2", "zeta"), ("10", "alpha")]


def test_booklet_and_tables_follow_printing_order(deck, tmp_path, run_cli):
    from pypdf import PdfReader

    out = run_batch(deck, tmp_path / "res", progress=False)
    keys = list(dict.fromkeys(zip(out.tasks["card_id"], out.tasks["side"])))
    assert keys == [("1", "zeta"), ("1", "alpha"), ("2", "zeta"), ("10", "alpha")]
    assert list(zip(load_cards(tmp_path / "res")["card_id"], load_cards(tmp_path / "res")["side"])) == keys
    code, _, err = run_cli("booklet", deck, "--results", tmp_path / "res", "--out", tmp_path / "b.pdf",
                           "--no-progress")
    assert code == 0, err
    titles = [item.title for item in PdfReader(tmp_path / "b.pdf").outline]
    assert titles == ["card 1 \u00b7 zeta side", "card 1 \u00b7 alpha side", "card 2 \u00b7 zeta side",
                      "card 10 \u00b7 alpha side"]


def test_playtest_cards_follow_printing_order(deck):
    from ubongo_cp.booklet.playtest import card_sheets

    cards, _ = load_deck(deck)
    (page,) = card_sheets(cards, cell_mm=10.0)
    gids = [a.get_gid() for a in page.axes[0].collections if (a.get_gid() or "").startswith("region/")]
    assert gids == ["region/1/zeta", "region/1/alpha", "region/2/zeta", "region/10/alpha"]


# ---------------------------------------------------------------- summaries count every task

def test_summary_counts_every_task_it_was_given(deck, tmp_path):
    out = run_batch(deck, tmp_path / "res", progress=False)
    summary = (tmp_path / "res" / "summary.md").read_text()
    # 4 card sides x 4 tasks; one unique task per side (face 1); the unsolvable one counts too.
    assert "- tasks: 16; solved 12, no solution 4" in summary
    assert "- uniquely solvable tasks: 4 of 16;" in summary
    cards = out.cards.set_index(["card_id", "side"])
    assert cards.loc[("1", "zeta"), ["tasks", "solved", "unique", "unsolvable"]].tolist() == [4, 3, 1, 1]


def test_piece_balance_in_the_summary_and_the_card_table(deck, tmp_path):
    out = run_batch(deck, tmp_path / "res", progress=False)
    # Per card side, most used first: I3 (twice on face 1, once on face 2), I2 (faces 3, 4), then L3, L4, O4.
    row = out.cards.iloc[0]
    assert row["piece_use"] == "I3:3 I2:2 L3:1 L4:1 O4:1" and row["distinct_pieces"] == 5
    long = piece_balance(out.tasks)
    zeta_i3 = long[(long["piece"] == "I3") & (long["side"] == "zeta")]
    # Two zeta card sides: face 1 names I3 twice (4 uses, all in unique tasks), face 2 once (2 uses).
    assert zeta_i3[["face", "tasks", "unique"]].values.tolist() == [[1, 4, 4], [2, 2, 0]]
    summary = (tmp_path / "res" / "summary.md").read_text()
    section = summary.split("## Piece balance", 1)[1]
    i3 = next(line for line in section.splitlines() if line.startswith("| I3"))
    # zeta: 6 uses, 4 in unique tasks, per face "4 2 0 0"; alpha the same; 12 in all.
    assert [c.strip() for c in i3.strip("|").split("|")] == ["I3", "6", "4", "4 2 0 0", "6", "4", "4 2 0 0", "12"]


# ---------------------------------------------------------------- exit codes and --strict

def test_batch_of_a_deck_with_no_readable_card_exits_2(tmp_path, run_cli):
    deck = tmp_path / "bad"
    deck.mkdir()
    (deck / "01_easy.toml").write_text('game = "classic"\ncard = "01"\nside = "easy"\npieces = "classic"\n'
                                       'region = "##"\n[tasks]\n1 = ["Q7"]\n')
    code, out, err = run_cli("batch", deck, "--out", tmp_path / "o", "--no-progress")
    assert code == 2 and "no card side of the deck could be read (1 card file(s) skipped" in err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "o" / "tasks.csv").exists()
    # booklet and cards agree on the same deck, in the same one line (they listed each skipped file, then an error)
    for command in ("booklet", "cards"):
        assert run_cli(command, deck, "--out", tmp_path / "c.pdf", "--no-progress")[::2] == (2, err)


def test_generate_that_produces_nothing_exits_1(tmp_path, run_cli):
    spec = tmp_path / "deck.toml"
    (tmp_path / "mono.txt").write_text("M\n#\n")
    spec.write_text('game = "tiny"\npieces = "mono.txt"\ncards = 1\n[[sides]]\nname = "s"\npieces_per_task = 1\n'
                    'faces = 1\nmax_rows = 1\nmax_cols = 1\nattempts = 3\n')
    # The monomino tiles the 1 x 1 region, uniquely: that spec makes its one card side.
    ok = run_cli("generate", "--spec", spec, "--out", tmp_path / "d1", "--no-progress")
    assert ok[0] == 0 and "wrote 1 card sides (1 tasks" in ok[1]
    # Its task rates 1.0 (one node, one placement per cell: ubongo_cp.rate); a band of 50..60 leaves nothing.
    spec.write_text(spec.read_text() + 'difficulty = [50.0, 60.0]\n')
    code, out, err = run_cli("generate", "--spec", spec, "--out", tmp_path / "d2", "--no-progress")
    assert code == 1 and "no card side could be generated (0 of 1)" in err


def test_strict_batch_fails_on_unsolvable_and_ambiguous_tasks(deck, tmp_path, run_cli):
    code, out, err = run_cli("batch", deck, "--out", tmp_path / "res", "--no-progress", "--strict")
    assert code == 1
    lines = [ln for ln in err.splitlines() if ln.startswith("ubongo-cp: strict: ")]
    # zeta sides: unique tasks (deck spec default): faces 2 (no solution), 3 (2), 4 (4) fail;
    # alpha sides allow 4 solutions: only face 2 fails. 2 x 3 + 2 x 1 = 8 problems.
    assert len(lines) == 8
    assert "card 1 side zeta face 3 (I2 O4): 2 solutions, not unique" in err
    assert "card 1 side zeta face 2 (I3 L3): no solution" in err
    assert "card 10 side alpha face 2 (I3 L3): no solution" in err
    assert "strict check failed: 8 problem(s) in 16 task(s)" in err
    # Without --strict the same run exits 0; with a deck of only good tasks, --strict exits 0 too.
    assert run_cli("batch", deck, "--out", tmp_path / "res", "--no-progress")[0] == 0
    (tmp_path / "g").mkdir()
    good = write_deck(tmp_path / "g", faces=(1,), die=1)
    assert run_cli("batch", good, "--out", tmp_path / "good", "--no-progress", "--strict")[0] == 0
    # --max-solutions overrides the spec for every side: 2 lets face 3 pass but not face 4.
    code, _, err = run_cli("batch", deck, "--out", tmp_path / "res", "--no-progress", "--strict",
                           "--max-solutions", "2")
    assert code == 1 and "face 3" not in err and "card 1 side zeta face 4 (I2 L4): 4 solutions, more than 2" in err


def test_strict_fails_a_card_side_without_a_task_for_every_face_of_its_die(tmp_path, run_cli):
    # The generator may write a side with fewer tasks than its die has faces (its search budget spent);
    # --strict passed such a deck.
    short = write_deck(tmp_path, cards=(("1", "zeta"),), faces=(1,), die=3)
    code, _, err = run_cli("batch", short, "--out", tmp_path / "res", "--no-progress", "--strict")
    assert code == 1 and "ubongo-cp: strict: card 1 side zeta: no task for die faces 2, 3" in err
    assert "strict check failed: 1 problem(s) in 1 task(s)" in err


def test_strict_counts_skipped_card_files(deck, tmp_path):
    (deck / "3_zeta.toml").write_text(_card("3", "zeta").replace('"L4"', '"Q9"'))
    out = run_batch(deck, tmp_path / "res", progress=False)
    problems = strict_failures(out, max_solutions=4)
    assert len(problems) == 5 and problems[0].startswith("skipped card file: ") and "Q9" in problems[0]


# ---------------------------------------------------------------- the game simulators on a designer's deck

def test_simulators_run_a_designers_deck(deck, tmp_path, run_cli):
    import shutil

    from ubongo_cp.games.duel.state import DuelState
    from ubongo_cp.games.tasks import as_deck
    from ubongo_cp.games.ubongo.state import UbongoState

    assert run_cli("batch", deck, "--out", tmp_path / "res", "--no-progress")[0] == 0
    assert (tmp_path / "res" / "deck.toml").is_file()     # the batch keeps the game's spec beside its tables
    code, out, err = run_cli("simulate", "ubongo", "--tasks", tmp_path / "res" / "tasks.csv", "--players", "2",
                             "--all-cards", "--games", "20", "--side", "alpha", "--no-progress")
    assert code == 0, err
    assert "20 gem games, 2 players, alpha side" in out
    code, out, err = run_cli("simulate", "duel", "--tasks", tmp_path / "res", "--games", "20", "--no-progress")
    assert code == 0, err
    assert "20 Duel matches, side zeta" in out           # the spec's first side by default
    # The die has the spec's 4 faces, not the shipped games' 6 or 20.
    rated = as_deck(tmp_path / "res")
    assert rated.game == "orderly" and rated.cards == {"zeta": ("1", "2"), "alpha": ("1", "10")}
    assert len(DuelState(rated, "zeta").chance_outcomes()) == 4
    gem = UbongoState(rated, 2, "alpha", all_cards=True, pawns=(0, 1))
    assert [a for a, _ in gem.chance_outcomes()] == [0, 1, 2, 3]
    # A side the spec does not have, and a table whose game nobody describes: one clear line each.
    code, _, err = run_cli("simulate", "duel", "--tasks", tmp_path / "res", "--side", "bloom", "--games", "2")
    assert code == 2 and "side 'bloom' is not one of zeta, alpha" in err
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(tmp_path / "res" / "tasks.csv", alone)
    code, _, err = run_cli("simulate", "duel", "--tasks", alone / "tasks.csv", "--games", "2")
    assert code == 2 and "game 'orderly' is not a shipped game" in err and "--spec DECK.toml" in err
    # ... which --spec settles.
    code, _, err = run_cli("simulate", "duel", "--tasks", alone / "tasks.csv", "--games", "2", "--spec",
                           deck / "deck.toml", "--no-progress")
    assert code == 0, err


def test_a_spec_of_another_game_than_the_tables_is_refused(deck, tmp_path, run_cli):
    # The spec given with --spec was taken for the table's without a look at the table's game column: the
    # designer's tinyblocks spec ran the shipped classic table (same side names and die) as if it were its own.
    from conftest import PUZZLES
    from ubongo_cp.games.tasks import as_deck, default_tasks_path

    spec = PUZZLES / "examples" / "designer" / "deck.toml"
    classic = default_tasks_path("classic")
    code, out, err = run_cli("simulate", "ubongo", "--spec", spec, "--games", "2", "--no-progress")
    one_line_error(code, err)
    assert out == "" and err == (f"ubongo-cp: error: {classic}: the tasks table is of game 'classic' but the deck "
                                 f"spec ({spec}) is of game 'tinyblocks': give the spec of the table's game\n")
    # A shipped game's spec is named by its game; the Duel's table with the classic spec was refused on its sides.
    code, _, err = run_cli("simulate", "duel", "--spec", "classic", "--games", "2", "--no-progress")
    assert (code, err) == (2, f"ubongo-cp: error: {default_tasks_path('duel')}: the tasks table is of game 'duel' but "
                              "the deck spec (the classic deck's) is of game 'classic': give the spec of the "
                              "table's game\n")
    # The table's own spec, and a table without a game column, are taken with the spec given.
    assert run_cli("simulate", "ubongo", "--spec", "classic", "--games", "2", "--no-progress")[0] == 0
    assert run_cli("batch", deck, "--out", tmp_path / "res", "--no-progress")[0] == 0
    assert as_deck(tmp_path / "res", spec=deck / "deck.toml").game == "orderly"
    with pytest.raises(InputError, match="is of game 'orderly' but the deck spec"):
        as_deck(tmp_path / "res", spec="duel")
    table = load_tasks(tmp_path / "res").drop(columns=["game"])
    assert as_deck(table, spec=deck / "deck.toml").game == "orderly"


# ---------------------------------------------------------------- one image per card side, at true scale

def test_cards_png_and_svg_are_one_image_per_card_side_at_true_scale(deck, tmp_path, run_cli):
    import re

    from matplotlib.image import imread
    from PIL import Image

    from ubongo_cp.draw.card import CardFace

    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "keep.txt").write_text("mine")
    code, out, err = run_cli("cards", deck, "--png", tmp_path / "img", "--svg", tmp_path / "svg", "--cell-mm", "15",
                             "--dpi", "200", "--no-progress")
    assert code == 0, err
    assert "wrote 4 PNG image(s) at 15 mm per cell" in out and "wrote 4 SVG image(s)" in out
    # The folder also records the files this command wrote (a hidden .ubongo-cp.json).
    assert sorted(p.name for p in (tmp_path / "img").iterdir() if not p.name.startswith(".")) == [
        "keep.txt", "orderly_10_alpha.png", "orderly_1_alpha.png", "orderly_1_zeta.png", "orderly_2_zeta.png"]
    cards, _ = load_deck(deck)
    face = CardFace(cards[0], 15.0)
    png = tmp_path / "img" / "orderly_1_zeta.png"
    # Pixels: the card's size in mm at 200 dots per inch (matplotlib drops the fraction of a pixel); the file
    # says 200 dpi, so it prints at that size.
    height, width = imread(png).shape[:2]
    assert abs(width - face.width / 25.4 * 200) < 1 and abs(height - face.height / 25.4 * 200) < 1
    assert [round(v) for v in Image.open(png).info["dpi"]] == [200, 200]
    # SVG: sized in points (1/72 inch) to the card's mm.
    svg = (tmp_path / "svg" / "orderly_1_zeta.svg").read_text()
    w_pt, h_pt = (float(v) for v in re.search(r'<svg[^>]*width="([\d.]+)pt" height="([\d.]+)pt"', svg).groups())
    assert abs(w_pt - face.width * 72 / 25.4) < 0.01 and abs(h_pt - face.height * 72 / 25.4) < 0.01
    assert (tmp_path / "img" / "keep.txt").read_text() == "mine"
    # Nothing asked for: one clear line.
    code, _, err = run_cli("cards", deck)
    assert code == 2 and "give --out FILE.pdf, --png DIR or --svg DIR" in err


@pytest.mark.parametrize("dpi", ["0", "1201", "100000"])
def test_cards_dpi_out_of_range_is_refused_before_any_drawing(deck, tmp_path, run_cli, dpi):
    # 100000 dpi once ran out of memory (exit 1, "MemoryError: std::bad_alloc").
    code, out, err = run_cli("cards", deck, "--png", tmp_path / "img", "--dpi", dpi, "--no-progress")
    one_line_error(code, err, f"--dpi must be from 20 to 1200 dots per inch, got {dpi}")
    assert not (tmp_path / "img").exists()


@pytest.mark.parametrize("cell_mm", ["0", "60.5", "100000", "nan"])
def test_cards_cell_size_out_of_range_is_refused_before_any_drawing(deck, tmp_path, run_cli, cell_mm):
    # 100000 mm per cell once ran out of memory (exit 1, "MemoryError: std::bad_alloc").
    code, out, err = run_cli("cards", deck, "--png", tmp_path / "img", "--cell-mm", cell_mm, "--no-progress")
    one_line_error(code, err, "--cell-mm must be a number of millimetres above 0 and at most 60")
    assert not (tmp_path / "img").exists()


def test_booklet_and_card_images_share_the_dpi_limit(deck, tmp_path):
    from ubongo_cp.booklet import make_booklet
    from ubongo_cp.booklet.layout import MAX_DPI, MIN_DPI
    from ubongo_cp.booklet.playtest import write_card_images

    cards, _ = load_deck(deck)
    with pytest.raises(InputError, match=f"dpi must be from {MIN_DPI} to {MAX_DPI} dots per inch, got {MAX_DPI + 1}"):
        make_booklet(cards, tmp_path / "b.pdf", png_dir=tmp_path / "png", dpi=MAX_DPI + 1)
    with pytest.raises(InputError, match=f"got {MAX_DPI + 1}"):
        write_card_images(cards, tmp_path / "img", dpi=MAX_DPI + 1)
    assert not (tmp_path / "b.pdf").exists() and not (tmp_path / "img").exists()
