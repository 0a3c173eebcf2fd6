"""Shared fixtures and paths for the test suite."""

from __future__ import annotations

from pathlib import Path

import pytest

# Files under tests/data are inputs (stand-in solver scripts among them), not test modules:
# --doctest-modules must not import them.
collect_ignore_glob = ["data/*"]

ROOT = Path(__file__).resolve().parent.parent
# The project's shared material (rules, piece sets, published analysis) sits
# beside the checkout in CI; a copy of the files the tests read is kept in
# tests/data/shared for checkouts elsewhere.
SHARED = next(p for p in (ROOT.parent / "shared", ROOT / "tests" / "data" / "shared")
              if (p / "RULES.md").exists())
PUZZLES = ROOT / "puzzles"


def listing(folder: Path) -> list[str]:
    """The names in ``folder``, sorted, without the toolkit's record of its own files (``.ubongo-cp.json``)."""
    return sorted(p.name for p in folder.iterdir() if p.name != ".ubongo-cp.json")


def built_wheel(tmp_path: Path, **env: str) -> Path:
    """``pip wheel --no-deps .`` (with the environment variables ``env``) of a clean copy of the checkout,
    unpacked into ``tmp_path/site``; that folder.

    A copy, because an in-tree build reuses ``build/`` (two test workers building at once, each in its own
    process, would write into the same one) and the editable install's compiled module lies beside the source.
    """
    import os
    import shutil
    import subprocess
    import sys
    import zipfile

    src = tmp_path / "src"
    shutil.copytree(ROOT, src, symlinks=True, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "*.so", "*.egg-info", "__pycache__", "out", ".hypothesis", "notebooks"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "dist"),
                    str(src)], check=True, capture_output=True, env={**os.environ, **env}, timeout=600)
    (wheel,) = (tmp_path / "dist").glob("ubongo_cp-*.whl")
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(site)
    return site


_HELD = """
import importlib, sys, time
from ubongo_cp.cli import main

module, name, at = sys.argv[1], sys.argv[2], int(sys.argv[3])
owner = importlib.import_module(module)
real, calls = getattr(owner, name), []

def held(*args, **kwargs):
    calls.append(1)
    if len(calls) == at:
        time.sleep(600)
    return real(*args, **kwargs)

setattr(owner, name, held)
sys.exit(main(sys.argv[4:]))
"""


def held_command(function: str, at: int, *argv) -> list[str]:
    """The command line of ``ubongo-cp ARGV`` in a new Python process where call number ``at`` (1 for the first)
    of ``function`` (``"module.name"``, which the command calls through that module) takes for ever (600 s).

    For a test that kills or interrupts a command in the middle of its work: the signal then always finds the
    command in that call, however loaded the machine, where a command left to run may have ended before it came.
    The calls must be made in that process (``--jobs 1``, or work that runs in the process without ``--jobs``).
    """
    import sys

    module, name = function.rsplit(".", 1)
    return [sys.executable, "-c", _HELD, module, name, str(at), *map(str, argv)]


@pytest.fixture
def run_cli(capsys):
    """Run ``ubongo-cp`` in-process: returns (exit status, stdout, stderr)."""
    from ubongo_cp.cli import main

    def run(*argv: str):
        code = main([str(a) for a in argv])
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


def one_line_error(code: int, err: str, *fragments: str) -> None:
    """Assert a command's bad-input ending: exit status 2, one line on standard error, each fragment in it."""
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    for fragment in fragments:
        assert fragment in err, err


def write(path: Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path``; return the path."""
    path.write_text(text, encoding="utf-8")
    return path
