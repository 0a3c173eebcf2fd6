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
    (tmp_path / "booklet.pdf").write_bytes(b"%PDF-1.4\n...\n<< /Creator (ubongo-cp 0.1.0) >>\n%%EOF\n")   # an earlier booklet
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


def _commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()):
    """``(command words, parser)`` of ``parser`` and of every sub-command below it."""
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _commands(sub, (*path, name))


def test_every_command_help_has_a_description_and_shows_percent_signs_single():
    from ubongo_cp.cli import build_parser

    commands = list(_commands(build_parser()))
    assert len(commands) > 20
    for path, parser in commands:
        assert parser.description, f"`ubongo-cp {' '.join(path)} --help` says nothing of what the command does"
        text = parser.format_help()
        # argparse halves %% only in the help of options and sub-commands, not in a description.
        assert "%%" not in text, (path, text)
    helps = {path: parser.format_help() for path, parser in commands}
    assert "95% interval" in " ".join(helps[("calibrate",)].split())
    assert "(100 %)" in " ".join(helps[("cards",)].split())


def test_help_names_only_options_the_command_has():
    from ubongo_cp.cli import build_parser

    helps = {path: " ".join(parser.format_help().split()) for path, parser in _commands(build_parser())}
    # analyze always counts: no --count, --limit or --draw to name.
    assert "with --count" not in helps[("analyze",)]
    assert "the options of a search (--backend, --jobs, --journal, ...) are refused" in helps[("analyze",)]
    assert "--journal FILE record each finished part of the count" in helps[("analyze",)]
    assert "(--count, --limit, --backend, --draw, --jobs, --journal, ...) are refused" in helps[("solve",)]
    assert "--journal FILE with --count: record" in helps[("solve",)]
    assert "(--count, --limit, --backend, --jobs, --journal, ...) are refused" in helps[("exact-cover",)]
    assert "--seed SEED master seed of the layouts and the agents" in helps[("orion", "tournament")]


def test_region_given_as_a_box_size(run_cli, tmp_path, monkeypatch):
    """``--region ROWSxCOLS`` is a box of the pieces' grid when no file has that name: the 6x10 rectangle's 9,356
    pentomino tilings and the Soma cube's 11,520 (240 up to its 48 symmetries) are the published counts; the
    subset analysis of a 4x7 box is that of the same rectangle drawn in a region file; a file of that name wins;
    a box with too few sizes for its grid is one line."""
    import json

    from conftest import one_line_error, write

    monkeypatch.chdir(tmp_path)
    code, out, _ = run_cli("solve", "--pieces", "pentominoes", "--region", "6x10", "--count", "--json")
    assert code == 0 and json.loads(out)["count"] == 9356
    code, out, _ = run_cli("solve", "--pieces", "soma", "--region", "3x3x3", "--count", "--json")
    assert code == 0 and (json.loads(out)["count"], json.loads(out)["count_reduced"]) == (11520, 240)
    write(tmp_path / "rect.txt", "#######\n" * 4)
    by_box = run_cli("analyze", "--pieces", "duel", "--region", "4x7", "--k", "5", "--json")
    by_file = run_cli("analyze", "--pieces", "duel", "--region", "rect.txt", "--k", "5", "--json")
    assert by_box[0] == 0 and json.loads(by_box[1]) == json.loads(by_file[1]) and json.loads(by_box[1])
    write(tmp_path / "2x5", "#####\n")                       # a file named like a box: the file
    code, out, _ = run_cli("solve", "--pieces", "pentominoes", "--use", "I", "--region", "2x5", "--count", "--json")
    assert code == 0 and json.loads(out)["count"] == 1      # I fills the file's row of 5 cells; a 2x5 box: none
    one_line_error(*run_cli("solve", "--pieces", "soma", "--region", "3x3", "--count")[::2], "LAYERSxROWSxCOLS")
    one_line_error(*run_cli("solve", "--pieces", "pentominoes", "--region", "0x10", "--count")[::2],
                   "--region 0x10", "at least 1")


def test_a_shipped_set_name_reads_the_shipped_set_and_says_so_beside_a_file_of_that_name(tmp_path, monkeypatch,
                                                                                          capsys):
    # --pieces NAME: a shipped set's name is the shipped set (the 12 pentominoes do not fit 1x2: area refused);
    # with a file of that name in the current folder, a note says how to read the file, and ./NAME reads it.
    from ubongo_cp.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "pentominoes").write_text("I2\n##\n")
    assert main(["solve", "--pieces", "pentominoes", "--region", "1x2"]) == 0
    out, err = capsys.readouterr()
    assert "pieces cover 60 cells" in out and "give ./pentominoes to read the file" in err
    assert main(["solve", "--pieces", "./pentominoes", "--region", "1x2", "--count"]) == 0
    out, err = capsys.readouterr()
    assert "1 solution" in out and err == ""
