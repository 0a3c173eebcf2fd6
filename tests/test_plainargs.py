"""The plain command lines read without argparse (ubongo_cp.cli.plainargs) give argparse's namespace."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ubongo_cp.cli import build_parser
from ubongo_cp.cli.plainargs import FAST_COMMANDS, read
from ubongo_cp.errors import UbongoError

ROOT = Path(__file__).resolve().parent.parent


def _same(value):
    """A value with each function (the only_with rules' lambdas are made anew by each parser) as its code, each
    number as its repr (nan is a value of --time-limit too)."""
    if isinstance(value, float):
        return ("float", repr(value))
    if callable(value) and hasattr(value, "__code__"):
        return ("function", value.__code__)
    if isinstance(value, (tuple, list)):
        return type(value)(_same(v) for v in value)
    if isinstance(value, dict):
        return {k: _same(v) for k, v in value.items()}
    return value


def _argparse(argv: list[str]):
    """argparse's namespace of ``argv`` as attribute (name, value) pairs in order, or the error it ends with."""
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            parsed = build_parser(argv[0]).parse_args(argv)
    except SystemExit as exc:
        return ("exit", exc.code)
    except UbongoError as exc:
        return ("error", str(exc))
    return [(k, _same(v)) for k, v in vars(parsed).items()]


def _actions(command: str) -> list:
    """argparse's actions of ``command`` (its options and positional arguments)."""
    parser = build_parser(command)
    (sub,) = [a for a in parser._actions if a.dest == "command"]
    return sub.choices[command]._actions


VALUES = ["3", "0", "-1", "2.5", "x", "", "6x10", "pentominoes", "duel", "classic", "L5:20", "I2,L4", "L3", "T4",
          "a.toml", "puzzles/examples/classic_X1_easy.toml", "puzzles/examples/duel_board1.txt", "all", "dask",
          "local", "free", "-", "1e3", "nan", "b.dlx"]
#: Words argparse reads in its own ways: help, abbreviations, --opt=value, the end of the options, short options.
ODD = ["--", "-h", "--help", "--version", "--pie", "--count=1", "--k=3", "-x", "--bogus", "-1"]


def _values(action):
    """Values for ``action``: mostly of its type or among its choices, now and then not."""
    if action.choices is not None:
        return st.sampled_from([*action.choices, *action.choices, "bogus"])
    if action.type is int:
        return st.sampled_from(["3", "0", "1", "12", "-1", "x", "2.5"])
    if action.type is float:
        return st.sampled_from(["2.5", "1", "1e3", "nan", "-0.5", "x"])
    return st.sampled_from(VALUES)


@st.composite
def command_lines(draw):
    """A sub-command of FAST_COMMANDS, maybe a file first, then options (its required ones mostly among them) each
    with as many values as argparse expects (sometimes one more or one less), now and then an odd word anywhere."""
    command = draw(st.sampled_from(FAST_COMMANDS))
    actions = [a for a in _actions(command) if a.dest != "help"]
    words = []
    if draw(st.booleans()):
        words.append(draw(st.sampled_from(VALUES)))
    required = [a for a in actions if a.required and a.option_strings and draw(st.integers(0, 9))]
    for action in draw(st.permutations(required + draw(st.lists(st.sampled_from(actions), max_size=6)))):
        if not action.option_strings:
            words.append(draw(st.sampled_from(VALUES)))
            continue
        words.append(action.option_strings[0])
        wanted = {None: 1, "+": draw(st.integers(1, 3)), "?": draw(st.integers(0, 1)), 0: 0}.get(action.nargs, 1)
        wanted = max(0, wanted + draw(st.sampled_from([0, 0, 0, 0, 0, 0, 0, 1, -1])))
        words += draw(st.lists(_values(action), min_size=wanted, max_size=wanted))
    for _ in range(draw(st.sampled_from([0, 0, 0, 1]))):
        words.insert(draw(st.integers(0, len(words))), draw(st.sampled_from(ODD + VALUES)))
    return [command, *words]


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(command_lines())
def test_a_plain_command_line_reads_as_argparse_reads_it(argv):
    fast = read(argv)
    if fast is not None:
        assert _argparse(argv) == [(k, _same(v)) for k, v in vars(fast).items()], argv


COMMON = [["solve", "puzzles/examples/classic_X1_easy.toml", "--face", "1"],
          ["solve", "--pieces", "pentominoes", "--region", "5x12", "--count"],
          ["solve", "--pieces", "classic", "--region", "10x10", "--use", "L5:20", "--count", "--json"],
          ["solve", "--pieces", "tetrominoes", "--region", "3x20", "--use", "L", "T", "--count", "--jobs", "2"],
          ["analyze", "--pieces", "duel", "--region", "puzzles/examples/duel_board1.txt", "--k", "3"],
          ["analyze", "--k", "4", "--pieces", "duel", "--region", "4x7", "--max-empty", "1", "--executor", "dask"],
          ["exact-cover", "knuth.dlx", "--count", "--max-solutions", "all", "--time-limit", "2.5"]]


@pytest.mark.parametrize("argv", COMMON)
def test_the_common_command_lines_are_plain(argv):
    fast = read(argv)
    assert fast is not None
    assert _argparse(argv) == [(k, _same(v)) for k, v in vars(fast).items()]


@pytest.mark.parametrize("argv", [["solve", "--help"], ["solve", "--pieces=classic", "--region", "6x10"],
                                  ["solve", "--pie", "classic", "--region", "6x10"], ["solve", "--count", "a.toml"],
                                  ["analyze", "--pieces", "duel", "--region", "r.txt"],   # --k is required
                                  ["analyze", "--pieces", "duel", "--region", "r.txt", "--k", "three"],
                                  ["analyze", "--pieces", "duel", "--region", "r.txt", "--k", "-3"],
                                  ["solve", "--region", ""], ["solve", "--use", "a.toml", "--count"],
                                  ["exact-cover", "--count", "knuth.dlx"], ["solve", "--", "a.toml"],
                                  ["solve", "--executor", "mpi"], ["solve", "--estimate"], ["solve", "--fix", "X@1,1"],
                                  ["cards", "--help"], [], ["--version"]])
def test_other_command_lines_are_left_to_argparse(argv):
    assert read(argv) is None


def test_a_plain_command_line_loads_no_argparse(tmp_path):
    region = tmp_path / "3x20.txt"
    region.write_text(("#" * 20 + "\n") * 3)
    probe = ("import sys, json\nfrom ubongo_cp.cli import main\n"
             f"status = main(['solve', '--pieces', 'pentominoes', '--region', {str(region)!r}, '--count'])\n"
             "print(json.dumps([status, 'argparse' in sys.modules, 'gettext' in sys.modules]), file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert json.loads(proc.stderr.strip().splitlines()[-1]) == [0, False, False]
    assert proc.stdout.startswith("8 solutions, 2 up to the region's symmetry")   # 2 tilings, each in 4 images
