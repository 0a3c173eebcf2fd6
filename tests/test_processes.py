"""Processes and sockets: workers die with their runner, Ctrl-C is one line, a lost scheduler is one line,
and a toolkit-started Dask cluster listens on 127.0.0.1 only.

The runner is a real ``ubongo-cp`` process; a terminal's Ctrl-C is SIGINT to the whole process group.
"""

from __future__ import annotations

import ipaddress
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest

from conftest import PUZZLES, ROOT
from ubongo_cp.batch import JOURNAL
from ubongo_cp.errors import UbongoError
from ubongo_cp.executors import DaskExecutor

COPIES = 10                                # the duel deck's 360 tasks this many times: long enough to be caught


def _long_deck(tmp_path) -> str:
    """The shipped duel deck's card sides, :data:`COPIES` times under other card names (a batch of several
    seconds on 2 workers: the shipped deck alone now takes about two)."""
    deck = tmp_path / "deck"
    deck.mkdir(exist_ok=True)
    for k in range(COPIES):
        for card in (PUZZLES / "decks" / "duel").glob("*.toml"):
            text = card.read_text().replace('\ncard = "', f'\ncard = "{k}-', 1)
            (deck / f"{k}-{card.name}").write_text(text)
    return str(deck)


def _runner(argv, **kw) -> subprocess.Popen:
    """``ubongo-cp ARGV`` in a process group of its own (as a shell runs a command)."""
    return subprocess.Popen([sys.executable, "-m", "ubongo_cp.cli", *map(str, argv)], cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, **kw)


def _workers(proc: subprocess.Popen, n: int = 2, timeout: float = 120) -> list[psutil.Process]:
    """The runner's worker processes, once ``n`` of them are up (and a little work has started)."""
    runner = psutil.Process(proc.pid)
    deadline = time.time() + timeout
    while time.time() < deadline:
        children = runner.children(recursive=True)
        if len(children) >= n:
            time.sleep(1.0)
            return runner.children(recursive=True)
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.1)
    raise AssertionError(f"no {n} workers within {timeout} s")


def _alive(processes: list[psutil.Process]) -> list[int]:
    alive = []
    for p in processes:
        try:
            if p.status() != psutil.STATUS_ZOMBIE:
                alive.append(p.pid)
        except psutil.NoSuchProcess:
            pass
    return alive


def _gone_within(processes: list[psutil.Process], seconds: float) -> list[int]:
    deadline = time.time() + seconds
    while _alive(processes) and time.time() < deadline:
        time.sleep(0.1)
    left = _alive(processes)
    for pid in left:                       # do not leave them behind, whatever the test says
        os.kill(pid, signal.SIGKILL)
    return left


def _command(command: str, tmp_path) -> list:
    """``batch-local``, ``batch-dask``, ``census-local``: a long command with two workers."""
    kind, executor = command.split("-")
    if kind == "batch":
        return ["batch", _long_deck(tmp_path), "--out", tmp_path / "out", "--jobs", "2", "--executor", executor,
                "--no-progress"]
    return ["census", "--pieces", "duel", "--k", "4", "--cells", "20", "--box", "6x6", "--out", tmp_path / "c",
            "--jobs", "2", "--executor", executor, "--no-progress"]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("command", ["batch-local", "batch-dask", "census-local"])
def test_workers_die_with_their_runner(command, tmp_path):
    # kill -9 of the runner alone: its pool workers (or LocalCluster workers) follow it.
    proc = _runner(_command(command, tmp_path))
    workers = _workers(proc)
    assert len(workers) >= 2
    proc.kill()
    proc.communicate()
    assert _gone_within(workers, 20) == []


@pytest.mark.timeout(300)
@pytest.mark.parametrize("command", ["batch-dask", "batch-local", "census-local"])
def test_ctrl_c_is_one_line_with_any_executor(command, tmp_path):
    proc = _runner(_command(command, tmp_path))
    workers = _workers(proc)
    os.killpg(proc.pid, signal.SIGINT)     # what Ctrl-C in a terminal does
    out, err = proc.communicate(timeout=120)
    assert (proc.returncode, err) == (130, "ubongo-cp: interrupted\n"), err[-3000:]
    assert _gone_within(workers, 20) == []


def _scheduler_address(scheduler: subprocess.Popen, file: Path, timeout: float = 120) -> str:
    """The address a ``dask scheduler --scheduler-file FILE`` started on (it writes FILE once it listens)."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            return json.loads(file.read_text())["address"]
        except (OSError, ValueError, KeyError):   # not there yet, or still being written
            assert scheduler.poll() is None, "the Dask scheduler ended before it listened"
            time.sleep(0.1)
    raise AssertionError(f"the Dask scheduler wrote no {file.name} within {timeout} s")


@pytest.mark.timeout(400)
def test_losing_the_scheduler_mid_batch_is_one_line_and_keeps_finished_rows(tmp_path):
    dask = os.path.join(os.path.dirname(sys.executable), "dask")
    started = []
    try:
        # The scheduler takes a free port itself and says which (a port found free beforehand could be taken by
        # another process, another test worker's cluster among them, while the scheduler starts).
        started.append(subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--scheduler-file",
                                         tmp_path / "scheduler.json", "--dashboard-address", "127.0.0.1:0"],
                                        cwd=tmp_path, start_new_session=True, stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL))
        address = _scheduler_address(started[0], tmp_path / "scheduler.json")
        started.append(subprocess.Popen([dask, "worker", address, "--nworkers", "2", "--nthreads", "1",
                                         "--host", "127.0.0.1", "--dashboard-address", "127.0.0.1:0"], cwd=tmp_path,
                                        start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        out = tmp_path / "out"
        deck = _long_deck(tmp_path)
        proc = _runner(["batch", deck, "--out", out, "--scheduler", address, "--no-progress"])
        journal = out / JOURNAL
        deadline = time.time() + 240
        while time.time() < deadline and proc.poll() is None:
            if journal.exists() and journal.read_text().count("\n") >= 20:
                break
            time.sleep(0.1)
        assert proc.poll() is None, proc.communicate()
        os.killpg(started[0].pid, signal.SIGKILL)        # the scheduler goes away
        printed, err = proc.communicate(timeout=180)
        assert proc.returncode == 2 and err.count("\n") == 1, err[-3000:]
        assert err.startswith(f"ubongo-cp: error: lost the connection to the Dask scheduler at {address}")
        assert "the work finished so far is kept" in err
        rows = journal.read_text().splitlines()
        assert len(rows) >= 20 and all(line.endswith("}") for line in rows)
    finally:
        for p in started:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
    # The same command resumes on the process pool: the finished rows are kept, the rest computed.
    proc = _runner(["batch", deck, "--out", out, "--jobs", "2", "--no-progress"])
    printed, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    assert f"{360 * COPIES - len(rows)} task(s) computed, {len(rows)} resumed" in printed


def _listening(processes) -> list[str]:
    return [conn.laddr.ip for p in processes for conn in p.net_connections(kind="inet")
            if conn.status == psutil.CONN_LISTEN]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("dashboard", [False, True])
def test_a_toolkit_started_cluster_listens_on_localhost_only(dashboard, capfd):
    with DaskExecutor(2, dashboard=dashboard) as ex:
        assert ex.client.submit(sum, [1, 2]).result() == 3
        me = psutil.Process()
        ips = _listening([me, *me.children(recursive=True)])
        assert len(ips) >= 3           # the scheduler, its HTTP endpoint, the nannies and workers
        assert all(ipaddress.ip_address(ip).is_loopback for ip in ips), ips
        info = ex.client.scheduler_info()
        assert all(w.startswith("tcp://127.0.0.1:") for w in info["workers"])
    err = capfd.readouterr().err
    if dashboard:
        assert "Dask dashboard: http://127.0.0.1:" in err
    else:
        assert "dashboard" not in err


@pytest.mark.timeout(120)
def test_a_cluster_that_does_not_start_stops_the_run(monkeypatch):
    # A worker that hangs while the cluster starts: the start is given START_TIMEOUT seconds, then the run stops
    # in one message and the worker started so far is killed.
    # The start is made twice, each given half of START_TIMEOUT; both workers are killed.
    import multiprocessing

    import dask.distributed

    from ubongo_cp.executors import dask_cluster

    hung, release = [], threading.Event()

    def hanging_cluster(*args, **kwargs):
        worker = multiprocessing.get_context("fork").Process(target=time.sleep, args=(600,), daemon=True)
        worker.start()
        hung.append(worker)
        release.wait(600)
        # released by the test's end: the abandoned start fails (it must not go on in a later test)
        raise RuntimeError("released")

    monkeypatch.setattr(dask.distributed, "LocalCluster", hanging_cluster)
    monkeypatch.setattr(dask_cluster, "START_TIMEOUT", 2.0)
    start = time.time()
    try:
        with pytest.raises(UbongoError, match="the local Dask cluster did not start within 2 s .stopped while "
                                              "creating the cluster;"):
            with DaskExecutor(2) as ex:
                ex.map_ordered(abs, [(-1,)])
    finally:
        release.set()
    assert time.time() - start < 30
    assert len(hung) == 2          # a hung start is made once more, then given up
    for worker in hung:
        worker.join(10)
        assert not worker.is_alive()


@pytest.mark.timeout(120)
def test_a_start_that_hangs_once_is_made_again(monkeypatch):
    # A fork from a threaded process can leave a worker waiting for ever; the second start then brings the
    # cluster up within START_TIMEOUT, and the run gives the right answer.
    import dask.distributed

    from ubongo_cp.executors import dask_cluster

    real, calls, release = dask.distributed.LocalCluster, [], threading.Event()

    def first_hangs(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            release.wait(600)
            # released by the test's end: the abandoned start fails (it must not start a cluster in a later test)
            raise RuntimeError("released")
        return real(*args, **kwargs)

    monkeypatch.setattr(dask.distributed, "LocalCluster", first_hangs)
    monkeypatch.setattr(dask_cluster, "START_TIMEOUT", 40.0)
    try:
        with DaskExecutor(2) as ex:
            assert ex.map_ordered(abs, [(-1,), (-5,)]) == [1, 5]
    finally:
        release.set()
    assert len(calls) == 2


@pytest.mark.timeout(120)
@pytest.mark.parametrize("how", [["--backend", "bitboard"], ["--backend", "dlx"], ["--jobs", "2"],
                                 ["--jobs", "2", "--executor", "dask"]])
def test_ctrl_c_stops_a_count_running_in_c(how, tmp_path):
    # The kernels search without the GIL: one search hands back control every heartbeat, and the
    # split's threads leave the main thread waiting where a signal reaches it; a LocalCluster's workers
    # are killed rather than left to finish their tasks. Two pentomino sets in 12 x 10 is a search of
    # hours: it must stop at once on Ctrl-C, in one line.
    region = tmp_path / "r.txt"
    region.write_text("##########\n" * 12)
    use = ",".join(f"{p}:2" for p in "FILNPTUVWXYZ")
    proc = _runner(["solve", "--pieces", "pentominoes", "--region", region, "--use", use, "--count",
                    "--no-progress", *how])
    # past the start-up, deep in the search: 3 s, and on a loaded machine until the count has used 2 s of
    # CPU (its searching threads are the process's own; a LocalCluster's start could outlast a fixed wait)
    time.sleep(3)
    runner, waited = psutil.Process(proc.pid), time.time()
    while proc.poll() is None and time.time() - waited < 60:
        times = runner.cpu_times()
        if times.user + times.system >= 2.0:
            break
        time.sleep(0.2)
    assert proc.poll() is None, proc.communicate()
    sent = time.time()
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert (proc.returncode, err) == (130, "ubongo-cp: interrupted\n"), err[-3000:]
    assert time.time() - sent < 10


def test_dask_sends_journaled_work_one_item_per_task():
    # A batch journals each task as it is done; on Dask, items sent in batches (about four per worker)
    # reached the journal only when their whole batch had: an interrupt lost the finished ones of it.
    from ubongo_cp.executors.dask_cluster import DaskExecutor

    class Client:   # what _map asks of a distributed.Client, answered at once
        status = "running"

        def __init__(self):
            self.tasks = []

        def scheduler_info(self):
            return {"workers": {"a": {}, "b": {}}}

        def submit(self, func, *args, pure=True, **kwargs):
            self.tasks.append(args)
            value = func(*args, **kwargs)
            return type("Done", (), {"result": lambda self: value})()

    items = [(i,) for i in range(40)]
    for one_by_one, tasks in ((False, 8), (True, 40)):   # 8: CHUNKS_PER_JOB (4) x 2 workers
        ex = DaskExecutor(2)
        ex._client = Client()
        ex._as_completed = lambda futures: iter(list(futures))   # type: ignore[method-assign]
        got = sorted(ex.map_unordered(lambda i: i * i, items, one_by_one=one_by_one))
        assert got == [i * i for i in range(40)] and len(ex._client.tasks) == tasks
