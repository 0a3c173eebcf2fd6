"""The command-line wing: entry points, shared option checks."""

from __future__ import annotations

import argparse
import subprocess
import sys

import pytest

from conftest import ROOT
from ubongo_cp import __version__
from ubongo_cp.cli.common import check_common
from ubongo_cp.errors import UbongoError
from ubongo_cp.executors import DaskExecutor, LocalExecutor, make_executor


@pytest.mark.parametrize("module", ["ubongo_cp", "ubongo_cp.cli"])
def test_version_from_python_dash_m(module):
    out = subprocess.run([sys.executable, "-m", module, "--version"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == f"ubongo-cp {__version__}"


def test_scheduler_address_implies_dask():
    assert isinstance(make_executor("local", scheduler="tcp://10.0.0.5:8786"), DaskExecutor)
    assert isinstance(make_executor("local", jobs=2), LocalExecutor)


def _args(**kw):
    return argparse.Namespace(**kw)


def test_output_may_be_rewritten_inside_a_results_directory(tmp_path):
    # make_run twice: `booklet --results OUT --out OUT/booklet.pdf` must pass the second time,
    # but a table the booklet reads from OUT is never overwritten.
    (tmp_path / "booklet.pdf").write_bytes(b"%PDF")
    (tmp_path / "tasks.parquet").write_bytes(b"x")
    check_common(_args(results=str(tmp_path), out=str(tmp_path / "booklet.pdf")))
    with pytest.raises(UbongoError, match="would overwrite a file read from the results directory"):
        check_common(_args(results=str(tmp_path), out=str(tmp_path / "tasks.parquet")))


@pytest.mark.parametrize("argv, fragment", [
    (["solve", "--jobs", "abc"], "argument --jobs: invalid int value: 'abc'"),
    (["solve", "--bogus"], "unrecognized arguments: --bogus"),
    (["frob"], "invalid choice: 'frob'"),
    (["orion", "tournament", "--games", "x"], "argument --games"),
])
def test_a_usage_error_is_one_line(argv, fragment):
    from conftest import one_line_error

    done = subprocess.run([sys.executable, "-m", "ubongo_cp.cli", *argv], cwd=ROOT, capture_output=True, text=True)
    one_line_error(done.returncode, done.stderr, fragment, "--help)")


@pytest.mark.parametrize("command", ["batch", "booklet", "cards"])
def test_deck_commands_list_every_shipped_deck_in_their_help(command, capsys):
    from ubongo_cp.cli import main

    shipped = sorted(p.name for p in (ROOT / "ubongo_cp" / "data" / "decks").iterdir() if p.is_dir())
    assert shipped == ["classic", "cubes", "duel", "hexagons", "triangles"]
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "or a shipped deck name (classic, cubes, duel, hexagons, triangles)" in text
    from ubongo_cp.shipped import resolve_deck

    for name in shipped:  # each name listed is one the command reads as the shipped deck
        assert resolve_deck(name) == ROOT / "ubongo_cp" / "data" / "decks" / name
