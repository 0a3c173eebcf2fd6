"""Start-up (issue 18): small commands load only what they use.

Speed itself is measured in ``benchmarks/bench_startup.py``; these tests pin
the import hygiene that the measured gain rests on: which heavy packages a
command path loads, checked in a fresh interpreter.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("numpy", "pandas", "pyarrow", "matplotlib", "ortools", "numba", "dask", "scipy", "concurrent.futures.process")

PROBE = """
import sys
from ubongo_cp.cli import main
try:
    status = main({argv!r})
except SystemExit as exc:
    status = exc.code
loaded = [m for m in {heavy!r} if m in sys.modules]
import json
print(json.dumps({{"status": status, "loaded": loaded}}), file=sys.stderr)
"""


def _loaded(argv: list[str], heavy: tuple[str, ...] = HEAVY) -> tuple[int, list[str]]:
    """Run ``ubongo-cp ARGV`` in a fresh interpreter; its exit status and which of ``heavy`` it imported."""
    proc = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv, heavy=heavy)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    report = json.loads(proc.stderr.strip().splitlines()[-1])
    return report["status"], report["loaded"]


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["solve", "--help"], ["booklet", "--help"],
                                  ["cards", "--help"], ["census", "--help"], ["orion", "analyze", "--help"]])
def test_parser_loads_no_heavy_package(argv):
    status, loaded = _loaded(argv)
    assert status == 0
    assert loaded == []


@pytest.mark.parametrize("argv", [["solve", "no-such-card.toml"],
                                  ["solve", "--pieces", "classic", "--region", "no-such-region.txt"],
                                  ["analyze", "--pieces", "duel", "--region", "no-such-region.txt", "--k", "3"]])
def test_bad_input_fails_before_numpy(argv):
    status, loaded = _loaded(argv)
    assert status == 2
    assert loaded == []


def test_default_paths_load_no_library(tmp_path):
    # A card task, a count with the whole symmetry reduction, a subset analysis and an exact-cover file
    # on the default solvers: no numpy, CP-SAT, pandas, matplotlib, numba or Dask (the bitboard
    # kernel reads plain arrays).
    status, loaded = _loaded(["solve", "puzzles/examples/classic_X1_easy.toml", "--face", "1"])
    assert status == 0 and loaded == []
    region = tmp_path / "3x20.txt"
    region.write_text("#" * 20 + "\n" + "#" * 20 + "\n" + "#" * 20 + "\n")
    status, loaded = _loaded(["solve", "--pieces", "pentominoes", "--region", str(region), "--count"])
    assert status == 0 and loaded == []
    status, loaded = _loaded(["analyze", "--pieces", "duel", "--region", "puzzles/examples/duel_board1.txt",
                              "--k", "3"])
    assert status == 0 and loaded == []
    matrix = tmp_path / "knuth.dlx"
    matrix.write_text("a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n")
    status, loaded = _loaded(["exact-cover", str(matrix), "--count"])
    assert status == 0 and loaded == []


def test_generated_card_notes_need_no_near_miss_check():
    # A generated card keeps its generator table as a note: not a near miss of a field, so its task is
    # solved without loading difflib (the near-miss check, which a misspelt field still gets).
    assert "[generator]" in (ROOT / "puzzles/decks/classic/01_easy.toml").read_text()
    status, loaded = _loaded(["solve", "puzzles/decks/classic/01_easy.toml", "--face", "1"], heavy=("difflib",))
    assert status == 0 and loaded == []


def test_exact_cover_file_of_a_large_search_loads_no_library(tmp_path):
    # A search large enough that the bitboard kernel chooses its items' order from the file's item graph
    # (the pentominoes in 3x20, exported in Knuth's format): the order is read from the matrix's plain arrays,
    # no numpy (whose import, with its BLAS threads, took most of this command's time).
    region = tmp_path / "3x20.txt"
    region.write_text(("#" * 20 + "\n") * 3)
    matrix = tmp_path / "3x20.dlx"
    done = subprocess.run([sys.executable, "-m", "ubongo_cp.cli", "export", "--pieces", "pentominoes", "--region",
                           str(region), "--out", str(matrix)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    status, loaded = _loaded(["exact-cover", str(matrix), "--count", "--max-solutions", "0", "--no-progress"])
    assert status == 0 and loaded == []


#: Standard-library modules whose import (or use) costs a command's start-up several milliseconds: dataclasses
#: (with inspect, ast and dis; and it compiles each class's methods from source), json and pathlib (with
#: urllib.parse and ipaddress: a shipped piece set is named by a string path).
#: signal makes its enumerations when imported (about 1 ms): the commands set their Ctrl-C handler without it.
COSTLY_STDLIB = ("dataclasses", "inspect", "json", "pathlib", "threading", "signal", "ubongo_cp.executors.base",
                 "ubongo_cp.executors.local", "ubongo_cp.executors.factory")


def _file_paths(tmp_path) -> list[list[str]]:
    """The common commands on files (a count and a subset analysis from a piece set and a region file, an
    exact-cover file), their inputs written under ``tmp_path``."""
    region = tmp_path / "3x20.txt"
    region.write_text(("#" * 20 + "\n") * 3)
    matrix = tmp_path / "knuth.dlx"
    matrix.write_text("a b c d e f g\nc e\na d g\nb c f\na d f\nb g\nd e g\n")
    return [["solve", "--pieces", "pentominoes", "--region", str(region), "--count"],
            # copies: the default count asks Knuth's estimate whether the decision diagram pays
            ["solve", "--pieces", "tetrominoes", "--region", str(region), "--use", "L:15", "--count"],
            ["analyze", "--pieces", "duel", "--region", "puzzles/examples/duel_board1.txt", "--k", "3"],
            ["exact-cover", str(matrix), "--count"]]


def test_default_paths_make_no_dataclass(tmp_path):
    # The records on these paths are Structs and named tuples (ubongo_cp.structs); JSON is loaded for --json only;
    # no executor module is loaded where the options only name their kinds.
    for argv in [["solve", "puzzles/examples/classic_X1_easy.toml", "--face", "1"], *_file_paths(tmp_path)]:
        assert _loaded(argv, COSTLY_STDLIB) == (0, []), argv
    assert _loaded(["solve", "puzzles/examples/classic_X1_easy.toml", "--face", "1", "--json"],
                   COSTLY_STDLIB) == (0, ["json"])


def test_file_paths_import_no_contextlib(tmp_path):
    # The context managers every command enters (Ctrl-C, warnings, protected inputs, allowed piece files, the split
    # of a count) are classes: a count, an analysis and an exact-cover file do not import contextlib (about 0.5 ms
    # of their start-up). A card task still does: reading TOML imports typing, which imports it.
    for argv in _file_paths(tmp_path):
        assert _loaded(argv, ("contextlib",)) == (0, []), argv


def test_commands_that_write_nothing_load_no_output_module(tmp_path):
    # A card task, a count, an analysis and an exact-cover file read their files through ubongo_cp.reading: the
    # output module (writers, journals, locks, tables) is not loaded; a command with an output file loads it to
    # check that output before any work.
    for argv in [["solve", "puzzles/examples/classic_X1_easy.toml", "--face", "1"], *_file_paths(tmp_path)]:
        assert _loaded(argv, ("ubongo_cp.io",)) == (0, []), argv
    mine = tmp_path / "mine.png"
    mine.write_text("not a picture of this toolkit")   # refused as the --draw output, before the search
    assert _loaded(["solve", "puzzles/examples/classic_X1_easy.toml", "--face", "1", "--draw", str(mine)],
                   ("ubongo_cp.io",)) == (2, ["ubongo_cp.io"])
    assert mine.read_text() == "not a picture of this toolkit"


def test_the_output_module_exports_the_readers():
    import ubongo_cp.io as io
    import ubongo_cp.reading as reading

    for name in reading.__all__:
        assert getattr(io, name) is getattr(reading, name), name
        assert name in io.__all__ or name in ("text_head", "wide_codec"), name


def test_search_without_symmetry_loads_no_orbit_decomposition(tmp_path):
    # A card task (its region has no symmetry) and a subset analysis search the whole tree: the orbit
    # decomposition's module is loaded only by a search that uses it (a count on a symmetric region).
    plan = ("ubongo_cp.solvers.orbits",)
    assert _loaded(["solve", "puzzles/examples/classic_X1_easy.toml", "--face", "1"], plan) == (0, [])
    assert _loaded(["analyze", "--pieces", "duel", "--region", "puzzles/examples/duel_board1.txt", "--k", "3"],
                   plan) == (0, [])
    region = tmp_path / "6x10.txt"
    region.write_text(("#" * 10 + "\n") * 6)
    assert _loaded(["solve", "--pieces", "pentominoes", "--region", str(region), "--count"], plan) == (0, list(plan))
    # without copies no count from Burnside's fixed points is looked at (it needs a piece type with copies): neither
    # its module nor the exact-cover matrices it makes are loaded
    fixed = ("ubongo_cp.solvers.fixed", "ubongo_cp.exactcover")
    assert _loaded(["solve", "--pieces", "pentominoes", "--region", str(region), "--count"], fixed) == (0, [])


def test_counts_open_no_math_and_load_no_numbers(tmp_path):
    # math is a shared library (opening it is a few hundred microseconds) and numbers makes its abstract classes:
    # a count imports neither, nor does one with copies, whose fixed points (Burnside) are exact-cover matrices of
    # ubongo_cp.exactcover (which uses them to check and to format a matrix, not to make one).
    shared = ("math", "numbers")
    for argv in _file_paths(tmp_path)[:2]:
        assert _loaded(argv, shared) == (0, []), argv
    region = tmp_path / "10x10.txt"
    region.write_text(("#" * 10 + "\n") * 10)
    copies = ["solve", "--pieces", "classic", "--region", str(region), "--use", "L5:20", "--count"]
    assert _loaded(copies, ("ubongo_cp.solvers.fixed", "ubongo_cp.exactcover", *shared)) == \
        (0, ["ubongo_cp.solvers.fixed", "ubongo_cp.exactcover"])


NAMED_TUPLES_PROBE = """
import collections, json, sys
made, used = [], set()
real = collections.namedtuple
def spy(name, fields, **kwargs):
    cls = real(name, fields, **kwargs)
    if (kwargs.get("module") or "").startswith("ubongo_cp"):
        made.append(name)
        new, make = cls.__new__, cls._make.__func__
        cls.__new__ = lambda c, *a, **k: used.add(name) or new(c, *a, **k)
        cls._make = classmethod(lambda c, it: used.add(name) or make(c, it))
    return cls
collections.namedtuple = spy
from ubongo_cp.cli import main
status = main({argv!r})
print(json.dumps([status, sorted(set(made) - used)]), file=sys.stderr)
"""


def test_counts_and_analyses_make_no_named_tuple_they_do_not_use(tmp_path):
    # Each named tuple's class is compiled from source as its module is imported (collections.namedtuple): the
    # records that only a drawing (Plane) or numpy's placements and plan (ubongo_cp.cover's runs, SymmetryPlan)
    # make are not named tuples, so a count and an analysis compile only the ones they use.
    region = tmp_path / "5x12.txt"
    region.write_text(("#" * 12 + "\n") * 5)
    for argv in [["solve", "--pieces", "pentominoes", "--region", str(region), "--count"],
                 ["analyze", "--pieces", "duel", "--region", "puzzles/examples/duel_board1.txt", "--k", "3"]]:
        proc = subprocess.run([sys.executable, "-c", NAMED_TUPLES_PROBE.format(argv=argv)], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)
        assert json.loads(proc.stderr.strip().splitlines()[-1]) == [0, []], argv


def test_files_are_read_without_the_byte_order_mark_codec(tmp_path):
    # A leading byte-order mark is dropped after UTF-8 decoding: the codec module "utf-8-sig" is not loaded
    # (about 0.2 ms of every command that reads a file); a file that starts with one still reads (test_bad_input).
    for argv in [["solve", "puzzles/examples/classic_X1_easy.toml", "--face", "1"], *_file_paths(tmp_path)]:
        assert _loaded(argv, ("encodings.utf_8_sig",)) == (0, []), argv


def test_default_paths_import_no_typing_and_no_other_grid(tmp_path):
    # The modules of these paths import typing for the type checker only (ubongo_cp.structs: its import takes
    # about 2 ms, and each typing.NamedTuple class compiles its annotations). A card task reads TOML, and the
    # standard library's tomllib imports typing itself. A puzzle on squares imports no other grid's module.
    for argv in _file_paths(tmp_path):
        assert _loaded(argv, ("typing", "ubongo_cp.grids.hex", "ubongo_cp.grids.triangle",
                              "ubongo_cp.grids.cube")) == (0, []), argv


def test_card_tasks_and_subset_analyses_load_no_binary_search_and_no_contextvars(tmp_path):
    # Only the orbit decomposition of a count asks for each piece type's first option (ExactCoverInstance.
    # _type_starts, a binary search): a card task and a subset analysis load neither bisect nor its C module.
    # The context variables (of the cell limit's option, of the allowed piece files) are made from the C module
    # itself, without the module contextvars that re-exports it.
    region = tmp_path / "region22.txt"
    region.write_text("#####\n#####\n#####\n#####\n.##\n")
    for argv in [["solve", "puzzles/examples/classic_X1_easy.toml", "--face", "1"],
                 ["analyze", "--pieces", "duel", "--region", "puzzles/examples/duel_board1.txt", "--k", "3"],
                 ["analyze", "--pieces", "duel", "--region", str(region), "--k", "4"]]:
        assert _loaded(argv, ("bisect", "_bisect", "contextvars")) == (0, []), argv


def test_a_card_task_compiles_nothing():
    # The first compile() of a process builds the classes of the interpreter's syntax trees (about 2 ms): tomllib's
    # parser declares a typing.NamedTuple, whose string annotations typing would compile; the card task imports it
    # without (ubongo_cp.reading._tomllib), and the annotations still resolve to tomllib's own types.
    probe = ("import builtins, json, sys\ncalls = []\nreal = builtins.compile\n"
             "def spy(source, *args, **kwargs):\n"
             "    if isinstance(source, str):   # not a module's source (bytes), compiled where its bytecode is stale\n"
             "        calls.append(source)\n"
             "    return real(source, *args, **kwargs)\n"
             "builtins.compile = spy\nfrom ubongo_cp.cli import main\n"
             "status = main(['solve', 'puzzles/examples/classic_X1_easy.toml', '--face', '1'])\n"
             "import typing, tomllib._parser as p\n"
             "hints = {k: v.__qualname__ for k, v in typing.get_type_hints(p.Output).items()}\n"
             "print(json.dumps([status, calls, 'compile' in vars(typing), hints,\n"
             "                  [r.__forward_arg__ for r in p.Output.__annotations__.values()]]), file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    status, calls, shimmed, hints, names = json.loads(proc.stderr.strip().splitlines()[-1])
    assert (status, calls, shimmed) == (0, [], False)
    assert "legend: I=I2 L=L4 Y=Y5" in proc.stdout
    assert hints == {"data": "NestedDict", "flags": "Flags"} and names == ["NestedDict", "Flags"]


def test_tomllib_import_keeps_compile_for_other_texts():
    # While tomllib is imported, typing compiles any reference that is not a plain name as before: a keyword or a
    # text that is no expression still fails as a syntax error; after, typing's own compile is back.
    import typing

    from ubongo_cp.reading import _name_kept, loads_toml

    assert _name_kept("Flags", "<string>", "eval") == "Flags"
    assert eval(_name_kept("x.real", "<string>", "eval"), {"x": 3}) == 3   # compiled: a code object
    for text in ("class", "not a name", "("):
        with pytest.raises(SyntaxError):
            _name_kept(text, "<string>", "eval")
    assert _name_kept("x", "<string>", "exec").co_names == ("x",)
    assert loads_toml('a = "b"') == {"a": "b"}
    assert "compile" not in vars(typing)
    with pytest.raises(SyntaxError):
        typing.ForwardRef("not a name")


def test_light_named_tuples_are_named_tuples():
    from ubongo_cp.cover import PlacementTable
    from ubongo_cp.structs import NamedTuple, replace

    class Step(NamedTuple):
        """A step."""

        cell: int
        piece: str = "I2"

        def twice(self) -> int:
            return 2 * self.cell

    step = Step(3)
    assert step == (3, "I2") and step.twice() == 6 and Step.__doc__ == "A step."
    assert Step._fields == ("cell", "piece") and Step._field_defaults == {"piece": "I2"}
    assert replace(step, piece="L4") == Step(3, "L4") and Step.__annotations__ == {"cell": "int", "piece": "str"}
    assert PlacementTable._fields[0] == "indptr" and isinstance(PlacementTable.__doc__, str)
    with pytest.raises(TypeError, match="without a default"):
        class Bad(NamedTuple):
            a: int = 0
            b: int
    with pytest.raises(AttributeError, match="_replace"):
        class Worse(NamedTuple):
            a: int

            def _replace(self):
                return self


def test_dlx_paths_load_numpy_only():
    # The dancing-cells solver reads numpy arrays: a card task on it loads numpy, nothing else.
    status, loaded = _loaded(["solve", "puzzles/examples/classic_X1_easy.toml", "--face", "1", "--backend", "dlx"])
    assert status == 0 and loaded == ["numpy"]


def test_max_cells_raises_the_region_limit(tmp_path, capsys):
    from ubongo_cp.cli import main

    big = tmp_path / "band.txt"
    big.write_text(("#" * 21 + "\n") * 20)           # 420 cells: over the default limit of 400
    assert main(["solve", "--pieces", "tetrominoes", "--region", str(big), "--use", "I"]) == 2
    assert "over the limit of 400" in capsys.readouterr().err
    # Raised, the region is read and settled by the area check (4 cells of pieces, 420 of region).
    assert main(["solve", "--pieces", "tetrominoes", "--region", str(big), "--use", "I", "--max-cells", "420",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["status"] == "no solution"


def _declared(parser) -> dict[str, object]:
    """Sub-command name -> its parser, as declared on ``parser``."""
    import argparse

    (action,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def test_commands_table_matches_the_full_parser():
    # COMMANDS maps each sub-command to the group that declares it; a command line naming one
    # builds only that group (issue 18), so the table must name every sub-command, in order,
    # and each group built alone must declare exactly the commands the table gives it.
    # A group module that lists its commands in DECLARES builds the named one alone.
    import importlib

    from ubongo_cp.cli import COMMANDS, build_parser

    full = _declared(build_parser())
    assert list(full) == list(COMMANDS)
    for name in COMMANDS:
        alone = _declared(build_parser(name))
        assert name in alone
        group = sorted(n for n, g in COMMANDS.items() if g == COMMANDS[name])
        declares = getattr(importlib.import_module(f"ubongo_cp.cli.{COMMANDS[name][0]}"), "DECLARES", ())
        if declares:
            assert sorted(declares) == group
        assert sorted(alone) == ([name] if declares else group)
        # The group built alone declares the same options as in the full parser.
        assert alone[name].format_help() == full[name].format_help()


def test_a_named_command_imports_only_its_group():
    # `solve --help` builds the puzzle group alone: the modules of the other groups stay unloaded, and so does the
    # export module, which only a BurrTools file's task needs.
    proc = subprocess.run([sys.executable, "-c", "import sys\nfrom ubongo_cp.cli import main\n"
                           "main(['solve', '--pieces', 'classic', '--region', 'none.txt'])\n"
                           "print(sorted(m for m in sys.modules if m.startswith('ubongo_cp.cli.')))"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip() == "['ubongo_cp.cli.common', 'ubongo_cp.cli.plainargs', 'ubongo_cp.cli.puzzle']"
    assert "none.txt: file not found" in proc.stderr


def test_version_answers_before_any_parser(capsys):
    import ubongo_cp
    from ubongo_cp.cli import main

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"ubongo-cp {ubongo_cp.__version__}\n"
    # Anywhere else on the line, argparse's own --version action answers the same.
    with pytest.raises(SystemExit) as exc:
        main(["--version", "solve"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == f"ubongo-cp {ubongo_cp.__version__}\n"


def test_the_collector_is_set_before_the_command_line_is_imported():
    # The command-line module imports argparse (with re, enum and gettext) only when it builds a parser,
    # which the console script's run does after raising the collector's young threshold (cli.GC_YOUNG): the
    # collections among those imports' objects would otherwise cost about a millisecond of every command.
    probe = ("import gc, sys\nimport ubongo_cp.cli as cli\nprint('argparse' in sys.modules, file=sys.stderr)\n"
             "make = cli._parser_class\n"
             "def spy():\n    print(gc.get_threshold()[0], file=sys.stderr)\n"
             "    return make()\n"
             "cli._parser_class = spy\nsys.argv = ['ubongo-cp', 'solve', '--help']\ncli.run()\n")
    proc = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    from ubongo_cp.cli import GC_YOUNG

    assert proc.returncode == 0 and "usage: ubongo-cp solve" in proc.stdout
    assert proc.stderr.splitlines() == ["False", str(GC_YOUNG)]


def _catalogue(path: Path, messages: dict[str, str]) -> None:
    """Write a GNU gettext catalogue (.mo) of ``messages`` (ASCII) to ``path``."""
    import struct

    keys = sorted(messages)
    ids = b"".join(k.encode() + b"\0" for k in keys)
    strs = b"".join(messages[k].encode() + b"\0" for k in keys)
    start = 7 * 4 + 16 * len(keys)          # header, then the two tables of (length, offset)
    table, offset = [], start
    for k in keys:
        table += [len(k.encode()), offset]
        offset += len(k.encode()) + 1
    for k in keys:
        table += [len(messages[k].encode()), offset]
        offset += len(messages[k].encode()) + 1
    path.parent.mkdir(parents=True)
    path.write_bytes(struct.pack("<7I", 0x950412DE, 0, len(keys), 28, 28 + 8 * len(keys), 0, 0)
                     + struct.pack(f"<{len(table)}I", *table) + ids + strs)


def test_a_command_line_looks_argparse_messages_up_once():
    # argparse translates each message by gettext.gettext, which imports locale and looks for the catalogue every
    # time: a card task, a count and an analysis look it up once, and none is looked for where the catalogues'
    # folder does not exist (Python's, here)
    import gettext

    assert not Path(gettext.bindtextdomain(gettext.textdomain())).is_dir()
    for argv in [["solve", "puzzles/examples/classic_X1_easy.toml", "--face", "1"],
                 ["solve", "--pieces", "pentominoes", "--region", "3x20", "--count"],
                 ["analyze", "--pieces", "duel", "--region", "puzzles/examples/duel_board1.txt", "--k", "3"],
                 ["solve", "--bogus"]]:
        assert _loaded(argv, ("locale",)) == (0 if argv[1] != "--bogus" else 2, []), argv


def test_argparse_messages_are_translated_by_the_catalogue_found(tmp_path):
    # A catalogue of the "messages" domain for the language of $LANGUAGE: the help and the usage errors say its
    # words, as with Python's own lookup; after the command line argparse translates by gettext again.
    _catalogue(tmp_path / "xx" / "LC_MESSAGES" / "messages.mo",
               {"show this help message and exit": "XX help", "usage: ": "XX usage: ",
                "invalid %(type)s value: %(value)r": "XX bad %(type)s: %(value)r"})
    probe = ("import argparse, gettext, sys\n"
             f"gettext.bindtextdomain('messages', {str(tmp_path)!r})\n"
             "from ubongo_cp.cli import main\n"
             "for argv in (['solve', '--help'], ['solve', '--face', 'one']):\n"
             "    try:\n        main(argv)\n    except SystemExit:\n        pass\n"
             "print(argparse._ is gettext.gettext, argparse._('usage: '))\n")
    import os

    env = {**os.environ, "LANGUAGE": "xx"}
    proc = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env=env)
    assert proc.stdout.startswith("XX usage: ubongo-cp solve")
    assert "-h, --help            XX help" in proc.stdout
    assert "ubongo-cp solve: error: argument --face: XX bad int: 'one'" in proc.stderr
    assert proc.stdout.splitlines()[-1] == "True XX usage: "


def test_commands_reading_a_shipped_file_make_no_catalogue_of_examples():
    # The catalogue of the shipped items (ubongo_cp.examples: a named tuple class and its table) is made for
    # `ubongo-cp examples` and its users, not by a command that reads a shipped piece set; its names are still
    # exported by ubongo_cp.shipped, the same objects.
    probe = ("import sys\nfrom ubongo_cp.cli import main\n"
             "status = main(['solve', 'puzzles/examples/classic_X1_easy.toml', '--face', '1'])\n"
             "status += main(['analyze', '--pieces', 'duel', '--region', 'puzzles/examples/duel_board1.txt', '--k', '3'])\n"
             "shipped = sys.modules['ubongo_cp.shipped']\n"
             "print(status, 'ubongo_cp.examples' in sys.modules, [n for n in ('Example', 'EXAMPLES') if n in vars(shipped)],"
             " file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.stderr.splitlines()[-1] == "0 False []"
    import ubongo_cp.examples as examples
    import ubongo_cp.shipped as shipped

    for name in ("Example", "EXAMPLES", "find_example", "is_unchanged_copy", "copy_example", "copy_examples"):
        assert getattr(shipped, name) is getattr(examples, name), name
    assert shipped.find_example("rect_6x10").path.name == "rect_6x10.txt"
    with pytest.raises(AttributeError, match="no attribute 'Exampel'"):
        shipped.Exampel  # noqa: B018


def test_an_unreadable_catalogue_leaves_argparse_messages_as_they_are(tmp_path):
    # A catalogue that is no catalogue: gettext.gettext gives the message itself, and so does the command line.
    (tmp_path / "xx" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "xx" / "LC_MESSAGES" / "messages.mo").write_bytes(b"not a catalogue")
    probe = ("import gettext\n"
             f"gettext.bindtextdomain('messages', {str(tmp_path)!r})\n"
             "from ubongo_cp.cli import main\n"
             "try:\n    main(['solve', '--help'])\nexcept SystemExit as exc:\n    print('status', exc.code)\n")
    import os

    proc = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "LANGUAGE": "xx"})
    # (the words, whatever the width argparse wraps them to: it follows COLUMNS)
    assert proc.stdout.startswith("usage: ubongo-cp solve") and "show this help message and exit" in " ".join(
        proc.stdout.split())
    assert proc.stdout.splitlines()[-1] == "status 0"



def test_searches_load_no_solution_checker(tmp_path):
    # ubongo_cp.cover exports verify_solution (ubongo_cp.verify), which a card task, a count and an analysis do not
    # call: its module is imported when the name is first asked for.
    for argv in [["solve", "puzzles/examples/classic_X1_easy.toml", "--face", "1"], *_file_paths(tmp_path)[:3]]:
        assert _loaded(argv, ("ubongo_cp.verify",)) == (0, []), argv
    import ubongo_cp.cover as cover
    import ubongo_cp.verify as verify
    from ubongo_cp.cover import verify_solution

    assert verify_solution is cover.verify_solution is verify.verify_solution
    with pytest.raises(AttributeError, match="no attribute 'verify_solutions'"):
        cover.verify_solutions  # noqa: B018


@pytest.mark.parametrize("module", ["ubongo_cp.shipped", "ubongo_cp.cover", "ubongo_cp.solvers", "ubongo_cp.grids",
                                    "ubongo_cp.executors", "ubongo_cp.booklet", "ubongo_cp.bench"])
def test_modules_that_load_names_on_first_use_list_them(module):
    # Names given out by a module's __getattr__ (loaded on first use) are listed by dir() as the others are
    # (PEP 562's __dir__), so completion in an interactive session and help() find them before their first use.
    import importlib

    m = importlib.import_module(module)
    listed = dir(m)
    assert set(m.__all__) <= set(listed), sorted(set(m.__all__) - set(listed))
    for name in m.__all__:
        assert getattr(m, name) is not None, name


def test_an_in_process_count_imports_nothing_once_its_modules_are_loaded():
    # The in-process count the benchmarks time (benchmarks/peers.py, INPROCESS): the instance built, the kernel
    # warmed and the driver's modules loaded, the count of the pentominoes in 6x10 imports no further module.
    probe = ("import sys\nfrom ubongo_cp.cover import build_instance\nfrom ubongo_cp.pieces import load_pieces, Region\n"
             "from ubongo_cp.solvers import solve, warm\n"
             "inst = build_instance(load_pieces('pentominoes'), Region.rectangle(6, 10), mode='free')\n"
             "warm(['bitboard-symmetry'])\nimport ubongo_cp.colouring, ubongo_cp.solvers.base, ubongo_cp.solvers.orbits\n"
             "before = set(sys.modules)\nr = solve(inst, keep=0)\n"
             "print(r.count, sorted(set(sys.modules) - before))")
    proc = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.stdout.split() == ["9356", "[]"], proc.stderr
