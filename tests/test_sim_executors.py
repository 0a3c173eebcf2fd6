"""The game simulators give the same table whatever the executor, jobs and chunking."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ubongo_cp.cli import main
from ubongo_cp.errors import InputError
from ubongo_cp.games.domino.sim import simulate
from ubongo_cp.games.orion.sim import run_tournament
from ubongo_cp.executors import CHUNKS_PER_JOB, LocalExecutor, make_executor, map_chunks
from ubongo_cp.games.duel.sim import handicap_sweep, simulate_duel
from ubongo_cp.games.tasks import as_deck, synthetic_tasks
from ubongo_cp.games.ubongo.sim import simulate_ubongo


@pytest.fixture(scope="module")
def classic():
    return as_deck(synthetic_tasks("classic"), "classic")


@pytest.fixture(scope="module")
def duel():
    return as_deck(synthetic_tasks("duel"), "duel")


def _rows(a, b):
    return (list(range(a, b)),)


def _identity(rows):
    return rows


def test_chunks_come_back_in_game_order():
    # 4 * jobs chunks over 2 processes finish in any order; rows are still in game order.
    assert map_chunks(_identity, 11, _rows, executor=LocalExecutor(2)) == list(range(11))
    assert CHUNKS_PER_JOB * 2 < 11  # several games per chunk as well as several chunks


def test_ubongo_jobs_do_not_change_table(classic):
    kw = dict(strategies=["stay", "lookahead"], skills=[1.0, 1.5])
    one = simulate_ubongo(classic, 3, 10, seed=5, **kw)
    two = simulate_ubongo(classic, 3, 10, seed=5, executor=LocalExecutor(2), **kw)
    pd.testing.assert_frame_equal(one, two)
    assert list(one["game"]) == [g for g in range(10) for _ in range(3)]
    # the first games do not depend on how many games the run has
    pd.testing.assert_frame_equal(simulate_ubongo(classic, 3, 4, seed=5, **kw), one.iloc[:12])


def test_duel_and_sweep_jobs_do_not_change_table(duel):
    one = simulate_duel(duel, 12, 1.0, 0.8, seed=3, handicap=True)
    two = simulate_duel(duel, 12, 1.0, 0.8, seed=3, handicap=True, executor=LocalExecutor(2))
    pd.testing.assert_frame_equal(one, two)
    assert list(one["match"]) == list(range(12))
    s1 = handicap_sweep(duel, [0.8], games=8, seed=1)
    s2 = handicap_sweep(duel, [0.8], games=8, seed=1, executor=LocalExecutor(2))
    pd.testing.assert_frame_equal(s1, s2)


def test_domino_jobs_do_not_change_table():
    one = simulate(["random", "greedy", "careful"], 9, seed=4, rotate_seats=True)
    two = simulate(["random", "greedy", "careful"], 9, seed=4, rotate_seats=True, executor=LocalExecutor(2))
    pd.testing.assert_frame_equal(one, two)
    assert list(one["game"]) == list(range(9))


def test_orion_jobs_do_not_change_table():
    one = run_tournament(["random", "greedy"], 2, seed=2)
    two = run_tournament(["random", "greedy"], 2, seed=2, executor=LocalExecutor(2))
    pd.testing.assert_frame_equal(one, two)
    assert list(one["game"]) == [g for g in range(6) for _ in range(2)]


@pytest.mark.timeout(300)
def test_dask_gives_same_table(duel):
    pytest.importorskip("dask.distributed")
    one = simulate_duel(duel, 10, 1.0, 0.7, seed=8)
    with make_executor("dask", jobs=2) as cluster:
        two = simulate_duel(duel, 10, 1.0, 0.7, seed=8, executor=cluster)
    pd.testing.assert_frame_equal(one, two)


@pytest.mark.parametrize("argv", [
    ["simulate", "ubongo", "--synthetic", "--games", "6", "--players", "2"],
    ["simulate", "duel", "--synthetic", "--games", "6"],
    ["simulate", "domino", "--games", "6", "--players", "2"],
    ["orion", "tournament", "--games", "2", "--agents", "random"],
])
def test_cli_jobs_same_out_file(argv, tmp_path, capsys):
    for jobs in ("1", "2"):
        assert main(argv + ["--jobs", jobs, "--out", str(tmp_path / f"t{jobs}.csv")]) == 0
    capsys.readouterr()
    assert (tmp_path / "t1.csv").read_bytes() == (tmp_path / "t2.csv").read_bytes()
    # written atomically: only the two tables (and the journals of their games), no temporary files left behind
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix != ".jsonl") == ["t1.csv", "t2.csv"]


@pytest.mark.parametrize("argv, msg", [
    (["simulate", "duel", "--synthetic", "--games", "2", "--jobs", "0"], "--jobs must be at least 1"),
    # Malformed Dask addresses are bad input too (found by a new user's test).
    (["simulate", "domino", "--games", "2", "--executor", "dask", "--scheduler", "foo"],
     "cannot reach dask scheduler foo: missing port number"),
    (["simulate", "domino", "--games", "2", "--executor", "dask", "--scheduler", "http://127.0.0.1:1"],
     "cannot reach dask scheduler http://127.0.0.1:1: unknown address scheme 'http'"),
    (["simulate", "domino", "--games", "2", "--executor", "dask", "--scheduler", ""],
     "--scheduler needs an address"),
    (["simulate", "domino", "--games", "2", "--executor", "dask", "--jobs", "100000"], "--jobs 100000 is more than"),
])
def test_cli_bad_executor_options_exit_2(argv, msg, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert msg in err and "Traceback" not in err


@pytest.mark.parametrize("kind", ["local", "dask"])
@pytest.mark.parametrize("jobs", [0, -1, 1.5, "2", True])
def test_an_executor_asked_for_a_number_of_workers_that_is_not_one_says_so(kind, jobs):
    # A worker count is a whole number of at least 1: "2" and 1.5 are refused at once with one message naming
    # the argument, not a TypeError from a comparison, nor a pool of 1.5 processes failing at the first map.
    with pytest.raises(InputError, match=f"^jobs must be a whole number of at least 1, got {jobs!r}$"):
        make_executor(kind, jobs=jobs)


def test_an_executor_takes_a_numpy_whole_number_of_workers():
    with make_executor("local", jobs=np.int64(2)) as executor:
        assert executor.jobs == 2 and type(executor.jobs) is int
        assert executor.map_ordered(_identity, [(1,), (2,), (3,)]) == [1, 2, 3]


_PRELOAD_PROBE = """
import gc, sys
from ubongo_cp.executors.base import _preload
{setup}
_preload(["ubongo_cp.rate", "fractions"])
print(gc.isenabled(), gc.get_freeze_count() > 0, all(m in sys.modules for m in ["ubongo_cp.rate", "fractions"]))
"""


@pytest.mark.parametrize("setup, enabled", [("", "True"), ("gc.disable()", "False")])
def test_preload_loads_modules_freezes_them_and_restores_gc_state(setup, enabled):
    # gc.freeze recipe (Python docs): the preloaded modules end in the permanent
    # generation, and the collector is left as the caller had it.
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _PRELOAD_PROBE.format(setup=setup)], capture_output=True,
                         text=True, check=True).stdout.split()
    assert out == [enabled, "True", "True"]


@pytest.mark.parametrize("argv, status", [(["solve", "--pieces", "classic", "--region", "missing.txt"], 2),
                                          (["solve", "puzzles/examples/classic_X1_easy.toml"], 0)])
def test_console_entry_exits_with_the_status_of_main(argv, status, capsys):
    # ``run`` (the console script) must pass main's status on to the shell.
    from conftest import ROOT
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-m", "ubongo_cp.cli", *argv], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == status, proc.stderr


def test_silent_server_at_scheduler_address_is_an_error_not_a_hang(monkeypatch, capsys):
    # A server that accepts the connection and never answers (as a web server
    # does for Dask's handshake) used to block the command for ever.
    import socket
    import time

    from ubongo_cp import executors

    monkeypatch.setattr(executors.dask_cluster, "CONNECT_TIMEOUT", 1.0)
    with socket.create_server(("127.0.0.1", 0)) as server:
        port = server.getsockname()[1]
        t0 = time.perf_counter()
        status = main(["simulate", "domino", "--games", "2", "--executor", "dask",
                       "--scheduler", f"tcp://127.0.0.1:{port}"])
        took = time.perf_counter() - t0
    err = capsys.readouterr().err
    assert status == 2 and f"no answer from a Dask scheduler at tcp://127.0.0.1:{port} within 6 s" in err
    assert took < 30  # CONNECT_TIMEOUT + 5 s, not for ever


@pytest.mark.timeout(300)
@pytest.mark.parametrize("kwargs", [{}, {"factor": 10}])
def test_dask_run_without_workers_stops_with_a_message(kwargs):
    # Dask itself waits for ever for a worker; the executor gives up after
    # worker_timeout seconds without one and says what to do. With keyword arguments
    # (sent to the workers first, as a batch's are) Dask's own "No valid workers found"
    # came after 2 s instead.
    import time

    from ubongo_cp.errors import UbongoError
    from ubongo_cp.executors import DaskExecutor

    ex = DaskExecutor(jobs=1, worker_timeout=2.0)
    try:
        _ = ex.client  # starts the cluster
        ex.cluster.scale(0)
        deadline = time.time() + 30
        while ex.client.scheduler_info().get("workers") and time.time() < deadline:
            time.sleep(0.1)
        with pytest.raises(UbongoError, match="no Dask worker in the local cluster for 2 s"):
            list(ex.map_unordered(_scaled if kwargs else abs, [(1,), (2,)], **kwargs))
    finally:
        ex.close()


def _after_the_chunks_before(a, b, journal, wait):
    """Rows of games ``a .. b - 1``, each saying whether every chunk finished before this one began was in
    ``journal`` by then (waiting up to ``wait`` seconds for them). The chunks finished so far are those listed in
    ``journal + ".done"``, which each chunk appends to as it ends (on the worker, before its rows travel back).
    Once one chunk has waited in vain (``journal + ".late"``), the others look once and do not wait: a run that
    fails does not wait ``wait`` seconds per chunk."""
    import json
    import time
    from pathlib import Path

    done_file, late = Path(journal + ".done"), Path(journal + ".late")
    finished = {int(x) for x in done_file.read_text().split()} if done_file.exists() else set()
    deadline = time.monotonic() + (0.0 if late.exists() else wait)
    while True:
        lines = [json.loads(line) for line in Path(journal).read_text().splitlines()[1:]]
        seen = finished <= {line["first"] for line in lines}
        if seen or time.monotonic() >= deadline:
            break
        time.sleep(0.01)
    if not seen:
        late.touch()
    with done_file.open("a") as fh:
        fh.write(f"{a}\n")
    return [{"game": g, "seen": seen} for g in range(a, b)]


@pytest.mark.timeout(300)
def test_a_dask_run_journals_each_chunk_as_it_finishes(tmp_path):
    # The Dask executor sends many small items in batches (a few per worker); the chunks of a journaled run went
    # the same way, so a chunk's games reached the journal only when its whole batch was played (a simulation's
    # journal empty for seconds, and a Ctrl-C lost every finished chunk of the batches in flight). Each chunk of
    # a journaled run is now a task of its own: on one worker, every chunk finds the chunks finished before it in
    # the journal when it begins, in whatever order Dask runs them (8 chunks of one game: before, 4 batches of 2,
    # the second of each never saw the first). A chunk's wait for the rows before it normally ends within 0.04 s,
    # but in a whole suite on a loaded machine one chunk's 10 s once ran out: a minute is allowed.
    pytest.importorskip("dask.distributed")
    from ubongo_cp.executors import DaskExecutor
    from ubongo_cp.games.journal import GameJournal

    path = tmp_path / "games.jsonl"
    journal = GameJournal(path, "demo", {"seed": 0}, games_per_line=1)
    with DaskExecutor(jobs=1) as cluster:
        rows = map_chunks(_after_the_chunks_before, 8, lambda a, b: (a, b, str(path), 60.0), executor=cluster,
                          journal=journal)
    ended = [int(a) for a in (tmp_path / "games.jsonl.done").read_text().split()]   # the order the chunks ended in
    assert rows == [{"game": g, "seen": True} for g in range(8)], ended
    assert sorted(ended) == list(range(8))


def _scaled(x, *, factor):
    import os
    import threading

    if x < 0:
        raise ValueError(f"negative {x}")
    return x * factor, os.getpid(), threading.get_ident()


@pytest.mark.parametrize("nogil", [False, True])
def test_keyword_arguments_and_errors_reach_every_worker(nogil):
    # kwargs are shared with the workers once (inherited by forked processes, or seen by threads);
    # on_error still gets the caller's own item.
    import os
    import threading

    items = [(x,) for x in (3, -1, 5, 7, -2, 11)]
    errors = []
    with LocalExecutor(2) as pool:
        out = list(pool.map_unordered(_scaled, items, nogil=nogil, factor=10,
                                      on_error=lambda item, exc: errors.append((item, str(exc)))))
    got = sorted(r[0] for r in out if r is not None)
    assert got == [30, 50, 70, 110]
    assert sorted(errors) == [((-2,), "negative -2"), ((-1,), "negative -1")]
    pids = {r[1] for r in out if r is not None}
    threads = {r[2] for r in out if r is not None}
    if nogil:  # threads of this process, not its own thread
        assert pids == {os.getpid()} and threading.get_ident() not in threads
    else:      # other processes
        assert os.getpid() not in pids


def test_a_thread_worker_error_without_handler_reaches_the_caller():
    with LocalExecutor(2) as pool, pytest.raises(ValueError, match="negative -4"):
        list(pool.map_unordered(_scaled, [(1,), (-4,), (2,)], nogil=True, factor=1))


def test_map_ordered_passes_keyword_arguments():
    with LocalExecutor(2) as pool:
        assert [r[0] for r in pool.map_ordered(_scaled, [(1,), (2,), (3,)], factor=7)] == [7, 14, 21]


@pytest.mark.parametrize("argv", [
    ["batch", "classic", "--no-progress"],
    ["census", "--pieces", "classic", "--k", "3", "--cells", "9", "--box", "4x4", "--no-progress"],
    ["generate", "--spec", "{designer}", "--cards", "1", "--no-progress"],
], ids=["batch", "census", "generate"])
def test_a_scheduler_that_cannot_be_reached_stops_a_run_before_its_output_folder_is_made(argv, tmp_path, capsys,
                                                                                          monkeypatch):
    # The scheduler was first reached at the first map, after the folder, its record of what it holds and an
    # empty journal (or the deck's copied spec and pieces, or the census manifest) had been written and were
    # left behind. Nothing listens on port 1: the connection is refused until the (shortened) timeout.
    from ubongo_cp import executors

    monkeypatch.setattr(executors.dask_cluster, "CONNECT_TIMEOUT", 1.0)
    assert main(["examples", "designer", "--copy", str(tmp_path)]) == 0   # a designer's own spec and pieces
    capsys.readouterr()
    out = tmp_path / "out" / "run"
    argv = [a.format(designer=tmp_path / "designer" / "deck.toml") for a in argv]
    assert main([*argv, "--out", str(out), "--scheduler", "tcp://127.0.0.1:1"]) == 2
    err = capsys.readouterr().err
    # refused at once, or (on a loaded machine, Dask's retries outlasting the wait) no answer in time: one line
    # naming the address either way
    assert ("cannot reach dask scheduler tcp://127.0.0.1:1" in err
            or "no answer from a Dask scheduler at tcp://127.0.0.1:1" in err), err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "out").exists()


def test_a_scheduler_address_where_another_server_answers_is_one_line(capsys):
    # An SSH server's banner, read as the length of a Dask message, was a MemoryError of exabytes (exit 1).
    import socket
    import threading

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    held = []   # each connection kept open, as an SSH server keeps it while it waits for the client's banner

    def banner() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:   # closed at the end of the test
                return
            held.append(conn)
            conn.sendall(b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n" * 4)

    threading.Thread(target=banner, daemon=True).start()
    address = "tcp://127.0.0.1:%d" % server.getsockname()[1]
    try:
        assert main(["simulate", "domino", "--games", "2", "--scheduler", address]) == 2
    finally:
        server.close()
        for conn in held:
            conn.close()
    # Dask's client reads the banner as a message's frame count: most often that length fails at once (the server
    # does not answer as a scheduler does); in a long test process it may wait for frames that never come until the
    # connection's time limit. Either way one line naming the address, no traceback.
    err = capsys.readouterr().err
    assert err in (f"ubongo-cp: error: the server at {address} does not answer as a Dask scheduler does (is this "
                   "the scheduler's address, e.g. tcp://10.0.0.5:8786?)\n",
                   f"ubongo-cp: error: no answer from a Dask scheduler at {address} within 15 s (is this the "
                   "scheduler's address, e.g. tcp://10.0.0.5:8786?)\n"), err


_TRANSFER_SCRIPT = '''
import sys, threading
from ubongo_cp.executors import LocalExecutor

class Unreadable:
    """Pickles, but cannot be rebuilt from its pickle."""
    def __reduce__(self):
        return (_refuse, ())

def _refuse():
    raise ValueError("cannot be rebuilt")

def echo(x):
    return x

def lock(x):
    return threading.Lock() if x == 2 else x

def unreadable(x):
    return Unreadable() if x == 2 else x

if __name__ == "__main__":
    func, items = {"argument": (echo, [(1,), (threading.Lock(),), (3,)]),
                   "unreadable argument": (echo, [(1,), (Unreadable(),), (3,)]),
                   "result": (lock, [(1,), (2,), (3,)]),
                   "unreadable result": (unreadable, [(1,), (2,), (3,)])}[sys.argv[1]]
    with LocalExecutor(2) as pool:
        errors = []
        done = sorted(r for r in pool.map_unordered(func, items, on_error=lambda item, exc: errors.append(exc))
                      if r is not None)
        print(done, [f"{type(e).__name__}: {e}" for e in errors])
        try:
            list(pool.map_unordered(func, items))
        except Exception as exc:
            print(f"{type(exc).__name__}: {exc}")
'''


@pytest.mark.parametrize("what, says", [
    ("argument", "a task's arguments cannot be sent to a worker process (TypeError: cannot pickle "
                 "'_thread.lock' object)"),
    ("unreadable argument", "a task's arguments cannot be read in a worker process (ValueError: cannot be rebuilt)"),
    ("result", "a task's result cannot be sent back from a worker process (TypeError: cannot pickle "
               "'_thread.lock' object)"),
    ("unreadable result", "a task's result cannot be read back from a worker process (ValueError: cannot be "
                          "rebuilt)"),
], ids=["argument", "unreadable-argument", "result", "unreadable-result"])
def test_a_task_that_cannot_travel_to_or_from_a_worker_is_one_error_and_no_traceback(what, says, tmp_path):
    # A task's argument or result that does not survive pickling went through the pool's own threads and
    # workers: an argument that could not be rebuilt in the worker killed it with a traceback on standard error
    # (twice: the unit was run again alone) and the caller got 'A process in the process pool was terminated
    # abruptly'; a result that could not be rebuilt said the same, and on Python 3.13 an argument that could not
    # be pickled printed 'Exception ignored ... BufferError' from the feeder thread. Now each is one error naming
    # what failed, handed to on_error like any failed unit; the other units are done.
    import subprocess
    import sys

    script = tmp_path / "transfer.py"
    script.write_text(_TRANSFER_SCRIPT)
    done = subprocess.run([sys.executable, str(script), what], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout == f"[1, 3] {[f'UbongoError: {says}']}\nUbongoError: {says}\n"


@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_a_worker_says_the_toolkits_warnings_as_one_line_as_the_command_line_does(method, tmp_path, capfd,
                                                                                     monkeypatch):
    # A worker started afresh (spawn: the default on macOS) showed an InputWarning as Python shows a warning
    # (file, line, the source line of warnings.warn) while the command line says it in one line: each worker
    # now says it as its parent does (errors.say_warnings, set by base._worker_start). Where a fork server
    # starts workers (Python 3.14's default on Linux) they were its children, took it for a dead parent and
    # ended at once: the pool broke on every unit.
    import multiprocessing

    from ubongo_cp.cli import _said_warnings
    from ubongo_cp.pieces import load_region

    monkeypatch.setattr(multiprocessing, "get_start_method", lambda allow_none=False: method)
    monkeypatch.setattr(multiprocessing.context._default_context, "_actual_context",
                        multiprocessing.get_context(method))
    region = tmp_path / "region.txt"
    region.write_text("grid: cube\n##\n\n##\n")
    with _said_warnings(), LocalExecutor(2) as pool:
        regions = list(pool.map_unordered(load_region, [(region,), (region,)]))
    assert len(regions) == 2
    # said once by each worker that read the file (Python shows a warning once per place in a process; one
    # worker may read it twice), each time in one line
    err = capfd.readouterr().err.splitlines()
    assert 1 <= len(err) <= 2 and set(err) == {f"ubongo-cp: {region}:3: a blank line inside a cube shape is an "
                                               "empty row of its one layer; layers are separated by a line of '-'"}
