"""Ctrl-C (SIGINT) ends every command with exit status 130 and one line.

OR-Tools' CP-SAT catches SIGINT while it searches and used to leave the
default handler behind, so a later Ctrl-C killed the process without
cleanup; a Ctrl-C during a long CP-SAT search was taken for a time limit.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from conftest import ROOT

_AFTER_SOLVE = """
import os, signal, time
from ubongo_cp.cover import build_instance
from ubongo_cp.pieces import Region, load_pieces
from ubongo_cp.solvers import solve
solve(build_instance(load_pieces("pentominoes").pieces[:1], Region.rectangle(1, 5)), backend="cpsat")
try:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(2)
    print("no interrupt")
except KeyboardInterrupt:
    print("KeyboardInterrupt")
"""


def test_ctrl_c_after_a_cpsat_solve_is_still_a_keyboard_interrupt():
    proc = subprocess.run([sys.executable, "-c", _AFTER_SOLVE], capture_output=True, text=True, cwd=ROOT)
    assert (proc.returncode, proc.stdout.strip()) == (0, "KeyboardInterrupt"), proc.stderr


@pytest.mark.parametrize("backend", ["cpsat", "cpsat-split"])
def test_ctrl_c_during_a_long_cpsat_search_exits_130(backend, tmp_path):
    # 32 dominoes on an 8x8 board: 12,988,816 tilings, far too many to count in seconds.
    region = tmp_path / "sq8.txt"
    region.write_text("########\n" * 8)
    # Every solution is printed as it is found: the first line says that the search runs.
    cmd = [sys.executable, "-m", "ubongo_cp.cli", "solve", "--pieces", "classic", "--region", str(region),
           "--use", ",".join(["I2"] * 32), "--count", "--max-solutions", "all", "--backend", backend]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline() == "solution 1:\n"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, (out, err)
    assert err.strip() == "ubongo-cp: interrupted"


_SWALLOWED = """
import os, signal, time
from ubongo_cp.cli import _watch_interrupts
with _watch_interrupts(last_resort=True):
    for _ in range(60):        # work that swallows Ctrl-C (as a library's event loop did), then waits on
        try:
            os.kill(os.getpid(), signal.SIGINT) if _ == 0 else None
            time.sleep(1)
        except KeyboardInterrupt:
            pass
print("still running")
"""


def test_a_swallowed_ctrl_c_still_ends_the_command():
    # A Dask count once went on searching for 25 minutes after Ctrl-C: the interrupt was taken inside the
    # library and the command kept waiting for its futures. The console script ends it a few seconds on.
    from ubongo_cp.cli import INTERRUPT_GRACE

    start = time.time()
    proc = subprocess.run([sys.executable, "-c", _SWALLOWED], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", "ubongo-cp: interrupted\n")
    assert INTERRUPT_GRACE <= time.time() - start < INTERRUPT_GRACE + 10


_STUCK_AFTER_A_NOTE = """
import os, signal, sys, time
from pathlib import Path
from ubongo_cp import cli
from ubongo_cp.cli.common import resumable
cli.INTERRUPT_GRACE = 0.5
with cli._watch_interrupts(last_resort=True):
    try:
        with resumable(Path(sys.argv[1])):   # a simulation's games, kept in their journal
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(60)
    except KeyboardInterrupt:
        time.sleep(60)   # then its pool of processes does not stop
print("still running")
"""


def test_the_last_resort_says_how_to_resume(tmp_path):
    # A simulation stopped by Ctrl-C notes where its finished games are kept; its pool of processes then ends.
    # When that took longer than the grace, the last resort ended the command with the bare "interrupted" line:
    # it says the notes not yet said, as the command would have.
    journal = tmp_path / "games.jsonl"
    journal.write_text("")
    proc = subprocess.run([sys.executable, "-c", _STUCK_AFTER_A_NOTE, str(journal)], capture_output=True,
                          text=True, cwd=ROOT, timeout=60)
    assert (proc.returncode, proc.stdout, proc.stderr.splitlines()) == (130, "", [
        "ubongo-cp: interrupted",
        f"ubongo-cp: note: the games finished are kept in {journal}: run the same command to resume"])


_IN_GC_CALLBACK = """
import gc, os, signal, time
from ubongo_cp.cli import _watch_interrupts
fired = []

def callback(phase, info):   # a library's garbage-collector callback (Dask's), where Ctrl-C may land
    if phase == "start" and not fired:
        fired.append(True)
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):   # the handler runs here; Python prints what it raises and goes on
            pass

with _watch_interrupts(last_resort=True):
    gc.callbacks.append(callback)
    gc.collect()
    gc.callbacks.remove(callback)
    assert fired
    time.sleep(60)
print("still running")
"""


def test_ctrl_c_in_a_garbage_collector_callback_is_the_one_line():
    # Ctrl-C during a Dask batch once landed in Dask's garbage-collector callback: Python printed the
    # KeyboardInterrupt as an "Exception ignored" traceback before the command ended with its line.
    proc = subprocess.run([sys.executable, "-c", _IN_GC_CALLBACK], capture_output=True, text=True, cwd=ROOT,
                          timeout=60)
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, "", "ubongo-cp: interrupted\n")


_HALF_MADE = """
import os, signal, sys
from ubongo_cp.cli import _watch_interrupts

class Future:   # as a Dask future: its __init__ stopped by Ctrl-C, its finaliser reads what was never set
    def __init__(self):
        os.kill(os.getpid(), signal.SIGINT)
        self._cleared = False

    def __del__(self):
        self._cleared

kept = []
try:
    with _watch_interrupts(last_resort=True):
        try:
            Future()
        except KeyboardInterrupt:
            pass
        kept.append(Future.__new__(Future))   # one more, finalised as the process ends
        raise KeyboardInterrupt
except KeyboardInterrupt:
    print("ubongo-cp: interrupted", file=sys.stderr)
"""


@pytest.mark.parametrize("debug", [False, True])
def test_a_finaliser_failing_after_ctrl_c_prints_nothing(debug):
    # Ctrl-C during a Dask batch once left a future half made: its finaliser's AttributeError ('Future' object
    # has no attribute '_cleared') was printed as an "Exception ignored" traceback after the one line.
    env = {**os.environ, "UBONGO_CP_DEBUG": "1"} if debug else {k: v for k, v in os.environ.items()
                                                              if k != "UBONGO_CP_DEBUG"}
    proc = subprocess.run([sys.executable, "-c", _HALF_MADE], capture_output=True, text=True, cwd=ROOT, timeout=60,
                          env=env)
    if debug:   # UBONGO_CP_DEBUG=1 shows them
        assert "AttributeError: 'Future' object has no attribute '_cleared'" in proc.stderr, proc.stderr
    else:
        assert proc.stderr == "ubongo-cp: interrupted\n"


def test_a_command_run_in_another_thread_leaves_the_ctrl_c_handler_alone(capsys):
    # Only the main thread may set a signal handler: elsewhere (a notebook's or a server's worker thread)
    # the command runs without watching Ctrl-C, and the handler stays Python's own.
    import signal
    import threading

    from ubongo_cp.cli import main

    status: list[int] = []
    worker = threading.Thread(target=lambda: status.append(main(["solve", "puzzles/examples/classic_X1_easy.toml",
                                                                  "--face", "1"])))
    worker.start()
    worker.join()
    assert status == [0] and "I2" in capsys.readouterr().out
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
