"""The wheel carries the shipped data; the repository's puzzles/ is that same data."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, built_wheel

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def unpacked_wheel(tmp_path_factory) -> Path:
    """``pip wheel --no-deps .`` of a copy of the checkout, unpacked into a directory outside it."""
    return built_wheel(tmp_path_factory.mktemp("wheel"))


def test_installed_wheel_loads_the_shipped_data(unpacked_wheel):
    script = """
import ubongo_cp, sys
assert ubongo_cp.__file__.startswith(sys.argv[1]), ubongo_cp.__file__
from ubongo_cp.pieces import load_pieces
from ubongo_cp.cards import load_deck
from ubongo_cp.shipped import resolve_deck
sizes = [len(load_pieces(n)) for n in ("classic", "duel", "pentominoes", "tetrominoes")]
cards, problems = load_deck(resolve_deck("classic"))
duel, _ = load_deck(resolve_deck("duel"))
from ubongo_cp.games.orion.tiles import load_tiles
orion = [sum(t.size for t in load_tiles(n).tiles) for n in ("published", "seed")]
print(sizes, len(cards), len(problems), len(duel), sum(len(c.tasks) for c in duel), orion)
"""
    out = subprocess.run([sys.executable, "-c", script, str(unpacked_wheel)], cwd=unpacked_wheel.parent,
                         env={"PYTHONPATH": str(unpacked_wheel), "PATH": "/usr/bin:/bin"},
                         check=True, capture_output=True, text=True).stdout
    # RULES.md section 1: 12 classic pieces, 21 Duel pieces, 12 pentominoes; 5 tetrominoes;
    # the shipped decks: 36 cards x 2 sides (classic), 9 x 2 sides x 20 faces (Duel);
    # RULES.md section 4: the Orion tile sets hold 36 (published) and 42 (seed) hexes.
    assert out.split() == ["[12,", "21,", "12,", "5]", "72", "0", "18", "360", "[36,", "42]"]


def test_puzzles_is_the_package_data():
    """The human-facing puzzles/ is a link to the package data, not a copy that could drift."""
    link = ROOT / "puzzles"
    if not link.exists():  # an sdist or an installed tree has no puzzles/
        pytest.skip("no puzzles/ beside the package")
    assert link.resolve() == (ROOT / "ubongo_cp" / "data").resolve()


def test_shipped_data_points_only_to_what_users_get(run_cli):
    # The orion tile sets and the classic spec once cited the project's rules file, which is not shipped.
    data = ROOT / "ubongo_cp" / "data"
    citing = [str(p.relative_to(data)) for p in sorted(data.rglob("*")) if p.is_file()
              and p.suffix in (".txt", ".toml", ".csv", ".json", ".md") and "RULES.md" in p.read_text("utf-8")]
    assert citing == []
    code, out, _ = run_cli("examples", "orion/published")
    assert code == 0 and "% Sources: an open implementation of the game and published reviews of it." in out
    assert 'docs/orion.md "Rule readings"' in out


def test_examples_command_lists_and_copies_what_the_tutorials_use(tmp_path, run_cli):
    import re

    from test_docs import DOCS, _pages

    code, out, _ = run_cli("examples")
    assert code == 0
    listed = set(re.findall(r"^  (\S+)", out, re.M))
    assert {"pieces/classic", "decks/duel", "specs/classic", "designer", "rect_6x10.txt", "orion/published"} <= listed
    # Every file a tutorial or the getting-started page names is one `examples --copy` brings, or one it writes.
    code, out, _ = run_cli("examples", "--copy", tmp_path / "ex")
    copied = {p.name for p in (tmp_path / "ex").iterdir()} | {f"designer/{p.name}" for p in
                                                                (tmp_path / "ex" / "designer").iterdir()}
    assert {"designer/deck.toml", "designer/pieces.txt", "classic_X1_easy.toml", "duel_X2_A.toml"} <= copied
    for page in _pages():
        text = page.read_text(encoding="utf-8")
        assert "puzzles/" not in text, f"{page.relative_to(DOCS)} names the checkout's puzzles/ folder"
    # A second copy to the same place has nothing to do while the first is unchanged (a page that copies one
    # example after another copied them all works), and refuses to replace it once it was edited.
    code, out, _ = run_cli("examples", "designer", "--copy", tmp_path / "ex")
    assert code == 0 and out == f"{tmp_path / 'ex' / 'designer'} is already there, unchanged\n"
    code, out, _ = run_cli("examples", "--copy", tmp_path / "ex")
    assert code == 0 and out.startswith(f"copied 0 example(s) to {tmp_path / 'ex'}; already there, unchanged: designer, ")
    deck = tmp_path / "ex" / "designer" / "deck.toml"
    deck.write_text(deck.read_text() + "# my own note\n")
    for argv in (("examples", "designer", "--copy", tmp_path / "ex"), ("examples", "--copy", tmp_path / "ex")):
        code, _, err = run_cli(*argv)
        assert code == 2 and "designer exists already and is not an unchanged copy" in err
    assert deck.read_text().endswith("# my own note\n")


def test_every_listed_example_shows_on_its_own_grid(run_cli):
    """Each example prints, on every grid: a cube piece set layer by layer, a hexagon region in offset rows."""
    import re

    code, out, _ = run_cli("examples")
    names = re.findall(r"^  (\S+)", out, re.M)
    assert code == 0 and len(names) > 20
    for name in names:
        code, shown, err = run_cli("examples", name)
        assert code == 0 and not err, (name, err)
    code, shown, _ = run_cli("examples", "pieces/soma")
    assert "7 pieces" in shown and "##  ###  ###  ##." in shown and "--" in shown   # two layers of A, B, P
    code, shown, _ = run_cli("examples", "hex_4x7.txt")
    assert "# # # # # # # .\n # # # # # # # .\n. # # # # # # #\n . # # # # # # #" in shown
    code, shown, _ = run_cli("examples", "soma_cube.txt")
    assert "27 cells, 3 layers x 3 rows x 3 columns" in shown


def test_tutorials_run_from_an_empty_directory_against_the_installed_wheel(unpacked_wheel, tmp_path):
    # Every page the docs test runs from the checkout runs again here with the package imported from the
    # wheel (and no checkout in sight: an empty working directory, the files from `ubongo-cp examples`).
    script = """
import os, sys
sys.path.append(sys.argv[2])
import ubongo_cp
assert ubongo_cp.__file__.startswith(sys.argv[1]), ubongo_cp.__file__
from pathlib import Path
import test_docs
failed = []
for page in test_docs._pages():
    work = Path(sys.argv[3]) / page.stem
    work.mkdir()
    os.chdir(work)
    if test_docs.run_page(page):
        failed.append(page.name)
print("failed:", failed)
sys.exit(1 if failed else 0)
"""
    env = {"PYTHONPATH": str(unpacked_wheel), "PATH": "/usr/bin:/bin", "MPLBACKEND": "Agg", "HOME": str(tmp_path)}
    run = subprocess.run([sys.executable, "-c", script, str(unpacked_wheel), str(ROOT / "tests"), str(tmp_path)],
                         cwd=tmp_path, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]


def test_examples_copy_without_a_name_copies_every_listed_card_side_and_region(tmp_path, run_cli):
    import re

    code, out, _ = run_cli("examples")
    sections = dict(re.findall(r"^(\S[^\n]*):\n((?:  [^\n]*\n)+)", out, re.M))
    listed = {title.split(" (")[0]: re.findall(r"^  (\S+)", block, re.M) for title, block in sections.items()}
    assert listed["card sides"] == ["classic_X1_easy.toml", "classic_X1_hard.toml", "duel_X2_A.toml"]
    assert listed["regions"] == ["duel_board1.txt", "rect_3x20.txt", "rect_6x10.txt", "hex_4x7.txt",
                                 "triangle_4x9.txt", "soma_cube.txt"]
    code, out, err = run_cli("examples", "--copy", tmp_path / "ex")
    assert code == 0, err
    assert out == (f"copied 10 example(s) to {tmp_path / 'ex'}: designer, classic_X1_easy.toml, classic_X1_hard.toml, "
                   "duel_X2_A.toml, duel_board1.txt, rect_3x20.txt, rect_6x10.txt, hex_4x7.txt, triangle_4x9.txt, "
                   "soma_cube.txt\n")
    assert sorted(p.name for p in (tmp_path / "ex").iterdir()) == sorted(
        ["designer", *listed["card sides"], *listed["regions"]])
    # The folder stays a deck of the three card sides (no deck spec beside them is read as a card).
    code, out, err = run_cli("batch", tmp_path / "ex", "--out", tmp_path / "out", "--no-progress")
    assert code == 0 and "- card sides: 3 (0 card file(s) skipped)" in out, err
    # A copied region of another grid works where it lies: the Soma cube's 240 solutions up to symmetry, 11520 in all.
    code, out, err = run_cli("solve", "--pieces", "soma", "--region", tmp_path / "ex" / "soma_cube.txt", "--count")
    assert code == 0 and out.startswith("11520 solutions, 240 up to the region's symmetry"), (out, err)
    # A second copy replaces nothing and copies nothing.
    (tmp_path / "again").mkdir()
    (tmp_path / "again" / "soma_cube.txt").write_text("mine")
    code, out, err = run_cli("examples", "--copy", tmp_path / "again")
    assert code == 2 and err == (f"ubongo-cp: error: {tmp_path / 'again' / 'soma_cube.txt'} exists already and is "
                                 "not an unchanged copy; copy somewhere else or remove it\n")
    assert [p.name for p in (tmp_path / "again").iterdir()] == ["soma_cube.txt"]
    assert (tmp_path / "again" / "soma_cube.txt").read_text() == "mine"


def test_every_shipped_piece_set_is_listed_by_examples_and_named_in_a_card(tmp_path, run_cli):
    # docs/formats.md sends a card's `pieces` line to the piece sets `ubongo-cp examples` lists.
    import re

    from ubongo_cp.pieces import resolve_pieces_path
    from ubongo_cp.shipped import SHIPPED_PIECE_SETS

    files = sorted(p.stem for p in (ROOT / "ubongo_cp" / "data" / "pieces").glob("*.txt"))
    assert sorted(SHIPPED_PIECE_SETS) == files and len(files) == 10
    code, out, _ = run_cli("examples")
    assert re.findall(r"^  pieces/(\S+)", out, re.M) == list(SHIPPED_PIECE_SETS)
    for name in files:  # each is a name a card's `pieces` line takes, wherever the card lies
        path = resolve_pieces_path(name, relative_to=tmp_path / "card.toml", named_in_file=True)
        assert path == ROOT / "ubongo_cp" / "data" / "pieces" / f"{name}.txt"


def test_the_readme_install_section_names_this_version_and_command():
    from ubongo_cp import __version__

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    install = text[text.index("## Install"):text.index("## Python API")]
    assert f"dist/ubongo_cp-{__version__}-*.whl" in install and "pip install dist/ubongo_cp-*.whl" in install
    assert f"ubongo-cp --version             # ubongo-cp {__version__}" in install
    assert 'ubongo-cp = "ubongo_cp.cli:run"' in (ROOT / "pyproject.toml").read_text()


def test_examples_copy_never_writes_through_a_link(tmp_path, run_cli):
    # A dangling link under the copy's name was followed: the copy landed outside DIR, in the file it named.
    (tmp_path / "dest").mkdir()
    (tmp_path / "dest" / "rect_6x10.txt").symlink_to(tmp_path / "outside.txt")
    (tmp_path / "dest" / "designer").symlink_to(tmp_path / "nowhere")
    for argv in (("examples", "rect_6x10.txt", "--copy", tmp_path / "dest"),
                 ("examples", "designer", "--copy", tmp_path / "dest"), ("examples", "--copy", tmp_path / "dest")):
        code, _, err = run_cli(*argv)
        assert code == 2 and "exists already and is not an unchanged copy" in err, err
    assert not (tmp_path / "outside.txt").exists() and not (tmp_path / "nowhere").exists()
