"""The command-line wing: entry points, shared option checks."""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT
from ubongo_cp import __version__
from ubongo_cp.cli.common import check_common
from ubongo_cp.errors import UbongoError
from ubongo_cp.games.tasks import default_tasks_path
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


@pytest.mark.parametrize("argv, extras, prog", [
    (["solve", "--pieces", "classic", "--region", "3x4", "--k", "3"], "--k", "ubongo-cp solve"),  # 3: a card
    (["orion", "play", "--bogus"], "--bogus", "ubongo-cp orion play"),
    (["simulate", "domino", "--bogus", "x"], "--bogus x", "ubongo-cp simulate domino"),
])
def test_an_unknown_option_names_the_help_of_its_command(argv, extras, prog, capsys):
    # It said "(see ubongo-cp --help)", whose page does not list the command's options.
    from ubongo_cp.cli import main

    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert (stop.value.code, capsys.readouterr().err) == (
        2, f"{prog}: error: unrecognized arguments: {extras} (see {prog} --help)\n")


@pytest.mark.parametrize("argv, message", [
    (["exact-cover", "-x.dlx"], "the following arguments are required: FILE"),
    (["solve", "--pieces", "-x.dlx", "--region", "1x2"], "argument --pieces: expected one argument"),
])
def test_a_file_named_like_an_option_is_pointed_out(argv, message, tmp_path, monkeypatch, capsys):
    # A file whose name begins with '-' is read as an option: the error said only that FILE was missing.
    from ubongo_cp.cli import main

    monkeypatch.chdir(tmp_path)
    (tmp_path / "-x.dlx").write_text("a\na\n", encoding="utf-8")
    prog = "ubongo-cp " + argv[0]
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert (stop.value.code, capsys.readouterr().err) == (
        2, f"{prog}: error: {message}; '-x.dlx' is a file, read as an option here: write ./-x.dlx to name it "
           f"(see {prog} --help)\n")
    with pytest.raises(SystemExit):   # an option's own name is no file to point out, even where one exists
        main(["exact-cover", "--count", "--limit", "x", "./-x.dlx"])
    (tmp_path / "--limit").write_text("", encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["exact-cover", "--count", "--limit", "x", "./-x.dlx"])
    assert "is a file" not in capsys.readouterr().err
    main(["exact-cover", "./-x.dlx"])   # written as a path, it is the file
    assert "a  (line 2)" in capsys.readouterr().out


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


EXAMPLES = ROOT / "puzzles" / "examples"
KNUTH = ROOT / "tests" / "data" / "exact_cover" / "knuth_7_2_2_1_5.dlx"


@pytest.mark.parametrize("argv, message", [
    (["solve", "--pieces", "pentominoes", "--region", "6x10", "--max-solutions", "3"],
     "--max-solutions goes with --count: it bounds the solutions a count shows (--limit N finds N solutions)"),
    (["exact-cover", KNUTH, "--max-solutions", "all"],
     "--max-solutions goes with --count: it bounds the covers a count shows (--limit N finds N covers)"),
    (["solve", "--pieces", "pentominoes", "--region", "6x10", "--journal", "{tmp}/j.jsonl"],
     "--journal goes with --count: it records the parts of a count"),
    (["solve", "--pieces", "pentominoes", "--region", "6x10", "--count", "--seed", "3"], "--seed goes with --sample"),
    (["solve", EXAMPLES / "classic_X1_easy.toml", "--problem", "2"], "--problem goes with a BurrTools .xmpuzzle file"),
    (["batch", "classic", "--out", "{tmp}/o", "--dask-dashboard"],
     "--dask-dashboard goes with --executor dask (the dashboard of the local Dask cluster it starts)"),
    (["census", "--pieces", "classic", "--k", "3", "--cells", "6", "--out", "{tmp}/o", "--dask-dashboard"],
     "--dask-dashboard goes with --executor dask (the dashboard of the local Dask cluster it starts)"),
    (["batch", "classic", "--out", "{tmp}/o", "--max-solutions", "2"], "--max-solutions goes with --strict"),
    (["booklet", "classic", "--out", "{tmp}/b.pdf", "--most", "3"], "--most goes with --all-solutions"),
    (["simulate", "domino", "--games", "2", "--show-moves"], "--show-moves goes with --replay"),
    (["simulate", "duel", "--games", "2", "--plot", "{tmp}/p.png"], "--plot goes with --sweep"),
    (["simulate", "duel", "--games", "2", "--orange", "2"],
     "--orange goes with --handicap or --sweep (the handicap board's fields)"),
    (["simulate", "duel", "--games", "2", "--sweep", "2", "--skill-b", "0.5"],
     "--skill-b does not go with --sweep, which gives B the skill skill-a / RATIO"),
    (["census", "--pieces", "classic", "--k", "3", "--cells", "6", "--out", "{tmp}/o", "--count-only",
      "--per-subset"], "--per-subset does not go with --count-only, which analyses no region"),
])
def test_an_option_without_what_it_needs_is_refused_before_any_work(run_cli, tmp_path, argv, message):
    code, out, err = run_cli(*[str(a).replace("{tmp}", str(tmp_path)) for a in argv])
    assert (code, out, err) == (2, "", f"ubongo-cp: error: {message}\n")
    assert not any(tmp_path.iterdir())   # no output folder, journal or picture made


def test_memory_limit_is_noted_where_no_decision_diagram_is_built(run_cli):
    import json

    def note(why: str) -> str:
        return f"ubongo-cp: note: --memory-limit bounds a decision diagram, which {why} does not build; ignored\n"

    pentominoes = ["solve", "--pieces", "pentominoes", "--region", "6x10", "--memory-limit", "1G", "--json"]
    code, out, err = run_cli(*pentominoes, "--count")
    assert code == 0 and json.loads(out)["count"] == 9356    # the count runs all the same
    assert err == ("ubongo-cp: note: --memory-limit bounds a decision diagram, which the count of these pieces does "
                   "not build (it is built for many identical pieces, --sample, --fix and --frequencies); ignored\n")
    assert run_cli(*pentominoes)[::2] == (0, note("a search for one solution"))
    assert run_cli(*pentominoes, "--count", "--limit", "5")[::2] == (0, note("a search with --limit"))
    assert run_cli(*pentominoes, "--count", "--backend", "dlx")[::2] == (0, note("--backend dlx"))
    assert run_cli(*pentominoes, "--count", "--jobs", "2")[::2] == (0, note("a count over workers or with a journal"))
    # where a diagram is built (or may be), no note: a sample, and the 10x10 dominoes the default counts on one
    assert run_cli(*pentominoes, "--sample", "1", "--seed", "1")[::2] == (0, "")
    code, out, err = run_cli("solve", "--pieces", "classic", "--use", "I2:50-50", "--region", "10x10", "--count",
                             "--memory-limit", "1G", "--max-solutions", "0", "--json")
    assert (code, err, json.loads(out)["count"]) == (0, "", 258584046368)


def test_options_with_no_effect_where_the_run_still_does_what_was_asked_are_noted(run_cli, tmp_path, capsys):
    from ubongo_cp.cli import build_parser
    from ubongo_cp.cli.common import check_common, say_notes

    code, out, err = run_cli("solve", "--pieces", "pentominoes", "--region", "6x10", "--count", "--sample", "2",
                             "--seed", "1", "--max-solutions", "1")
    assert code == 0 and out.count("sample ") == 2
    assert err == ("ubongo-cp: note: --max-solutions has no effect with --sample, which shows every solution it draws; "
                   "ignored\n")
    code, out, err = run_cli("cards", EXAMPLES, "--svg", tmp_path / "svg", "--dpi", "600", "--no-pieces")
    assert code == 0 and "SVG image(s)" in out
    assert err == ("ubongo-cp: note: --dpi sets the resolution of the --png images, and none are written; ignored\n"
                   "ubongo-cp: note: --no-pieces leaves the piece sheets out of the PDF (--out), and none is written; "
                   "ignored\n")
    code, out, err = run_cli("simulate", "duel", "--games", "2", "--sweep", "2", "--handicap", "--synthetic")
    assert code == 0 and "B wins, handicap" in out
    assert err == ("ubongo-cp: note: --handicap has no effect with --sweep, which plays every setting with and without "
                   "the handicap; ignored\n")
    # a scheduler's cluster has its own dashboard and workers; --report makes no run (checked without running)
    cases = [(["solve", "--pieces", "pentominoes", "--region", "6x10", "--count", "--scheduler", "tcp://h:8786",
               "--dask-dashboard", "--jobs", "3"],
              "--dask-dashboard has no effect with --scheduler: the scheduler serves its own dashboard; ignored\n"
              "ubongo-cp: note: --jobs has no effect with --scheduler: the scheduler's workers run the work; ignored\n"),
             (["bench", "--report", str(tmp_path), "--quick", "--repeats", "3"],
              "--repeats has no effect with --report, which only rebuilds the tables and plots of the runs made; "
              "ignored\nubongo-cp: note: --quick has no effect with --report, which only rebuilds the tables and "
              "plots of the runs made; ignored\n")]
    for argv, said in cases:
        check_common(build_parser(argv[0]).parse_args(argv))
        assert capsys.readouterr().err == ""   # said once the command has run, not before its own checks
        say_notes()
        assert capsys.readouterr().err == "ubongo-cp: note: " + said
    # a command line refused after a note says its one line of error alone
    code, out, err = run_cli("cards", EXAMPLES, "--png", tmp_path / "png", "--no-pieces", "--dpi", "1")
    assert (code, err) == (2, "ubongo-cp: error: --dpi must be from 20 to 1200 dots per inch, got 1\n")


@pytest.mark.parametrize("argv, option, prog", [
    (["examples", "--copy", ""], "--copy", "examples"),   # listed the examples
    (["export", "--pieces", "classic", "--region", "2x2", "--use", "I2,I2", "--out", ""], "--out", "export"),
    (["solve", "--pieces", "", "--region", "2x2"], "--pieces", "solve"),
    (["solve", "--pieces", "classic", "--region", "2x2", "--use", "I2,I2", "--allow-pieces", ""],
     "--allow-pieces", "solve"),
    (["batch", "", "--out", "o"], "deck", "batch"),
    (["cards", "classic", "--svg", ""], "--svg", "cards"),
    (["orion", "play", "--tiles", ""], "--tiles", "orion play"),
    (["bench", "", "--solvers", "dlx", "--out", "b"], "SUITE", "bench"),   # ran the suites of the current folder
])
def test_an_empty_path_is_refused_naming_its_option(argv, option, prog, capsys, tmp_path, monkeypatch):
    # An empty path names no file: refused as the command line is read, in every command alike.
    from ubongo_cp.cli import main

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert (stop.value.code, capsys.readouterr().err) == (
        2, f"ubongo-cp {prog}: error: argument {option}: empty path (see ubongo-cp {prog} --help)\n")
    assert list(tmp_path.iterdir()) == []



@pytest.mark.parametrize("argv, written", [
    (("export", "--pieces", "classic", "--region", "2x2", "--use", "I2,I2", "--out", "{d}/e.json"), "wrote {d}/e.json:"),
    (("simulate", "domino", "--games", "1", "--record", "{d}/r.json"),
     "wrote the record of game 0 ({n} moves) to {d}/r.json"),
    (("examples", "designer", "--copy", "{d}"), "copied designer to {d}/designer"),
    (("simulate", "duel", "--games", "2", "--no-progress", "--tasks", "{d}/tasks.csv"), "tasks: {d}/tasks.csv"),
])
def test_a_line_naming_a_file_stays_one_line_when_its_path_holds_a_line_break(argv, written, tmp_path,
                                                                                     run_cli):
    folder = tmp_path / "o\nut"
    folder.mkdir()
    shutil.copy(default_tasks_path("duel"), folder / "tasks.csv")   # a table read (simulate names it)
    code, out, err = run_cli(*(a.format(d=folder) for a in argv))
    assert code == 0, err
    said = [line for line in out.splitlines() if "ut" in line and str(tmp_path) in line]
    assert len(said) == 1, out
    assert "\n" not in said[0] and f"{tmp_path}{os.sep}o\\nut" in said[0], out
    assert re.search(re.escape(written.format(d=f"{tmp_path}{os.sep}o\\nut", n="@")).replace("@", r"\d+"), said[0]), out
    assert not any(line.startswith("ut") for line in out.splitlines()), out


def test_examples_tells_the_names_the_other_commands_take(run_cli, tmp_path, monkeypatch):
    # `examples` listed `pieces/tetrahexes` under "piece sets (--pieces NAME)", `decks/cubes` under "decks (batch,
    # booklet, cards NAME)", `grids/cubes` under "deck specs (generate --spec NAME)"; a user who typed those got
    # "pieces/tetrahexes: file not found", "decks/cubes: deck directory not found", "grids/cubes: file not found".
    # The list's headings and each item shown now give the name those commands take.
    from ubongo_cp.examples import EXAMPLES

    monkeypatch.chdir(tmp_path)   # no file or folder of a shipped name here
    code, out, _ = run_cli("examples")
    assert code == 0
    headings = re.findall(r"^(\S.*):$", out, re.M)
    assert headings[:3] == ["piece sets (--pieces NAME, NAME without pieces/)",
                            "decks (batch, booklet, cards NAME, NAME without decks/)",
                            "deck specs (generate --spec NAME, NAME without grids/ or specs/)"]
    named = {}
    for key in ("pieces/tetrahexes", "decks/cubes", "grids/cubes", "orion/seed"):
        code, out, _ = run_cli("examples", key)
        found = re.search(r"use it by name: `ubongo-cp (.*?)`", out)
        assert code == 0 and found, out
        named[key] = found.group(1).split()
    assert named["pieces/tetrahexes"][:3] == ["solve", "--pieces", "tetrahexes"]
    assert named["orion/seed"] == ["orion", "play", "--tiles", "seed"]
    # The names given work: the 7 tetrahexes tile the 4x7 parallelogram in 18 ways, 9 up to its symmetry (Polyform
    # Puzzler's Tetrahexes4x7: 9; docs/grids.md); the cube deck's 16 sides; the cube spec's game.
    code, out, _ = run_cli("solve", "--pieces", named["pieces/tetrahexes"][2], "--region", "4x7", "--count")
    assert code == 0 and out.startswith("18 solutions, 9 up to the region's symmetry"), out
    assert named["decks/cubes"][:2] == ["batch", "cubes"]
    from ubongo_cp.cards import load_deck
    from ubongo_cp.shipped import resolve_deck
    from ubongo_cp.specs import load_spec

    assert len(load_deck(resolve_deck(named["decks/cubes"][1]))[0]) == 16
    assert named["grids/cubes"][:3] == ["generate", "--spec", "cubes"]
    assert load_spec(named["grids/cubes"][2]).path == str(EXAMPLES["grids/cubes"].path)


@pytest.mark.parametrize("argv, key", [
    (("solve", "--pieces", "pieces/tetrahexes", "--region", "4x7", "--count"), "pieces/tetrahexes"),
    (("batch", "decks/cubes", "--out", "out"), "decks/cubes"),
    (("generate", "--spec", "grids/cubes", "--out", "out"), "grids/cubes"),
    (("solve", "classic_X1_easy.toml"), "classic_X1_easy.toml"),
    (("solve", "--pieces", "pentominoes", "--region", "rect_3x20.txt", "--count"), "rect_3x20.txt"),
])
def test_a_missing_file_named_as_a_shipped_item_says_how_to_use_that_item(argv, key, run_cli, tmp_path,
                                                                            monkeypatch):
    # A name `ubongo-cp examples` lists (`pieces/tetrahexes`, `classic_X1_easy.toml`) typed where a command reads a
    # file got "file not found" alone. The error now says how to use the shipped item: its short name, or a copy.
    monkeypatch.chdir(tmp_path)   # no file or folder of a shipped name here
    code, _, err = run_cli(*argv)
    assert code == 2
    hint = re.fullmatch(r"ubongo-cp: error: (\S+): (?:file|deck directory) not found; a shipped item has that name: "
                        r"(?:give it as (\S+) \(`ubongo-cp (.*?)`.*\)|`ubongo-cp (examples .* --copy \.)` copies it here)",
                        err.strip())
    assert hint and hint.group(1) == key, err
    if hint.group(2):   # the short name, in the command the item's kind is for
        assert hint.group(2) == key.rsplit("/", 1)[-1] and hint.group(3).split()[0] == argv[0], err
        again = [hint.group(2) if a == key else a for a in argv]
    else:               # a card side or a region: copied here, then the same command reads it
        code, _, err = run_cli(*hint.group(4).split())
        assert code == 0 and (tmp_path / key).is_file(), err
        again = list(argv)
    if argv[0] == "solve":   # followed, the hint works: the 7 tetrahexes tile 4x7 in 18 ways (Polyform Puzzler:
        code, out, err = run_cli(*again)   # 9 up to symmetry); the 12 pentominoes 3x20 in 2 (8 with its 4 symmetries)
        assert code == 0, err
        assert out.splitlines()[0].split(",")[0] in {"18 solutions", "8 solutions", "card X1 side easy"}, out
    code, _, err = run_cli("solve", "--pieces", "classic", "--region", "no_such_region.txt")
    assert code == 2 and err.strip() == "ubongo-cp: error: no_such_region.txt: file not found", err


def test_examples_given_a_piece_set_of_yours_says_a_command_that_reads_it(run_cli, tmp_path, monkeypatch):
    # `examples mine.txt --draw p.svg` on a piece-set file said "as a region, `ubongo-cp solve --pieces SET --region
    # mine.txt --draw p.svg` solves and draws it": followed, that read the piece names as region cells and failed
    # ("mine.txt:3: unknown character 'H' in a hex grid"). It now names the file as the piece set it is.
    import shlex

    from conftest import one_line_error

    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.txt").write_text("grid: hex\n\nH2\n# #\n\nH3\n# # #\n")
    (tmp_path / "row5.txt").write_text("grid: hex\n# # # # #\n")
    code, _, err = run_cli("examples", "mine.txt", "--draw", "p.svg")
    one_line_error(code, err, "mine.txt is a file of yours, not a shipped item")
    suggested = shlex.split(re.search(r"`ubongo-cp (.*?)`", err).group(1))
    argv = [{"SET": "mine.txt", "REGION": "row5.txt"}.get(word, word) for word in suggested]
    code, out, err = run_cli(*argv, "--count")
    # H2 and H3 fill a row of 5 hexagons in 2 ways (H2 at either end), 1 up to the row's symmetry
    assert code == 0 and out.startswith("2 solutions, 1 up to the region's symmetry"), (argv, err)
    assert (tmp_path / "p.svg").stat().st_size > 0
