"""Geometry and piece catalogues, checked against RULES.md §1 (public facts)."""

from __future__ import annotations

import re

import pytest

from conftest import PUZZLES, SHARED
from ubongo_cp.errors import InputError
from ubongo_cp.geometry import normalize, orientations, symmetry_group
from ubongo_cp.pieces import load_pieces, load_region, parse_pieces, parse_region, Region


def test_pentomino_orientation_counts():
    # RULES.md §1: 63 fixed orientations, F8 I2 L8 N8 P8 T4 U4 V4 W4 X1 Y8 Z4.
    expected = dict(F=8, I=2, L=8, N=8, P=8, T=4, U=4, V=4, W=4, X=1, Y=8, Z=4)
    got = {p.name: len(p.orientations()) for p in load_pieces("pentominoes")}
    assert got == expected
    assert sum(got.values()) == 63


def test_one_sided_and_fixed_modes():
    # Rotations only, by hand: F4 I2 L4 N4 P4 T4 U4 V4 W4 X1 Y4 Z2 = 41
    # (I and Z have 180-degree symmetry, X has all); fixed mode keeps the 12 shapes.
    pents = load_pieces("pentominoes")
    assert sum(len(p.orientations("one-sided")) for p in pents) == 41
    assert sum(len(p.orientations("fixed")) for p in pents) == 12
    with pytest.raises(ValueError):
        orientations(pents["F"].cells, "mirror")


def test_symmetry_groups_by_hand():
    assert len(symmetry_group(Region.rectangle(4, 4).cells)) == 8
    assert len(symmetry_group(Region.rectangle(3, 5).cells)) == 4
    assert len(symmetry_group([(0, 0), (1, 0), (1, 1)])) == 2  # L-tromino: one diagonal mirror
    assert len(symmetry_group([(0, 0), (0, 1), (1, 1), (1, 2)])) == 2  # S-tetromino: 180 rotation


def _rules_blocks():
    """Parse the two piece drawings of RULES.md §1 by column (an independent source)."""
    text = (SHARED / "RULES.md").read_text()
    blocks = [sub for b in re.findall(r"```\n(.*?)```", text, re.S)[:2] for sub in b.split("\n\n")]
    shapes = {}
    for block in blocks:
        lines = block.rstrip("\n").split("\n")
        header = lines[0]
        starts = [m.start() for m in re.finditer(r"(?:^|(?<=\s\s))\S", header)]
        for i, st in enumerate(starts):
            end = starts[i + 1] if i + 1 < len(starts) else None
            label = header[st:end].split()
            name = label[0]
            rows = [ln[st:end].rstrip() if len(ln) > st else "" for ln in lines[1:]]
            cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"]
            shapes[(len(starts), name)] = normalize(cells)
    return shapes


@pytest.mark.parametrize("set_name,count,area", [("classic", 12, 48), ("duel", 21, 116)])
def test_shipped_sets_match_rules(set_name, count, area):
    ps = load_pieces(set_name)
    assert len(ps) == count and ps.total_area == area
    drawn = {name: cells for (n, name), cells in _rules_blocks().items() if n in (12, 11, 10)}
    for piece in ps:
        assert piece.name in drawn, piece.name
        # Same free polyomino: the drawing is one of the piece's orientations.
        assert normalize(drawn[piece.name]) in piece.orientations("free"), piece.name


def test_duel_set_is_ten_pentominoes_and_eleven_hexominoes():
    sizes = sorted(p.size for p in load_pieces("duel"))
    assert sizes == [5] * 10 + [6] * 11


def test_shared_and_shipped_sets_identical():
    for name in ("classic", "duel", "pentominoes"):
        shared = parse_pieces((SHARED / "pieces" / f"{name}.txt").read_text())
        assert [(p.name, p.cells) for p in shared] == [(p.name, p.cells) for p in load_pieces(name)]


@pytest.mark.parametrize("text,line,fragment", [
    ("A\n#.\n.#\n", 1, "disconnected"),
    ("A\n#\n\nA\n##\n", 4, "appears twice"),
    ("A\n#x\n", 2, "unknown character 'x'"),
    ("A\n..\n", 2, "empty shape"),
    ("A\n", 1, "no rows"),
    ("##\n##\n", 1, "no piece name"),
    ("% only a comment\n", None, "no pieces"),
])
def test_bad_piece_files(tmp_path, text, line, fragment):
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(InputError) as err:
        load_pieces(path)
    assert fragment in str(err.value)
    assert str(path) in str(err.value)
    assert err.value.line == line


def test_ragged_rows_and_comments_are_fine():
    ps = parse_pieces("% set\nL\n#\n##\n\n% between\nI\n#\n#\n")
    assert ps["L"].cells == ((0, 0), (1, 0), (1, 1))
    region = parse_region("\n##\n#\n\n")
    assert region.area == 3


def test_region_limits(tmp_path):
    big = tmp_path / "big.txt"
    big.write_text(("#" * 30 + "\n") * 30)
    with pytest.raises(InputError, match="over the limit"):
        load_region(big)
    with pytest.raises(InputError, match="file not found"):
        load_region(tmp_path / "missing.txt")
    assert load_region(PUZZLES / "examples" / "duel_board1.txt").area == 16
