"""One count split into subtrees: many workers, a progress bar weighted by the subtrees' shares, a journal.

A native count (:meth:`.bitboard.BitboardBackend.search`) runs below a list
of branches: the whole instance, or the orbit decomposition's
(:func:`.orbits.symmetry_plan`). Each branch is cut here into *subtrees*:
the branch's prefix followed by one of the placements the kernel tries at
its first level (:meth:`.bitboard.BitSearch.children`), and so on, always
cutting the subtree of largest *share* next, the share of a subtree being
the product of ``1/branching`` along its path (the probability that one of
Knuth's random probes [1]_ enters it: his estimate of the subtree's part of
the tree). The subtrees, in the order the search meets them, partition the
solutions of their branch, so their counts, Burnside sums and tallies add
up to those of one search, and their solutions, merged in that order, are
the solutions of one search in its order: the answers do not depend on the
number of workers or on the executor.

The subtrees are grouped into *tasks* of about equal share (contiguous in
the search order), which any executor of :mod:`ubongo_cp.executors` runs:
the local one in threads of this process (the C kernel releases the GIL;
each thread has its own kernel), a Dask cluster in its worker processes
(the instance sent to each worker once); a progress bar advances by the share of
each task done; a *journal* (one JSON line per finished task, appended and
flushed to the disk as :func:`ubongo_cp.io.append_durably` does for the
batch journal) lets a count stopped by a kill go on where it stopped.

References
----------
.. [1] D. E. Knuth, "Estimating the efficiency of backtrack programs",
   *Math. Comp.* 29 (1975) 121-136.
"""

from __future__ import annotations

import heapq
import itertools
import os
import time
from collections.abc import Callable, Sequence

from ..errors import InputError
from ..structs import Struct
from ..structs import NamedTuple

TYPE_CHECKING = False

if TYPE_CHECKING:
    from typing import Any

    import threading

    from ..executors import Executor

__all__ = ["SplitSearch", "split_argument", "Subtree", "split_branches", "group_tasks", "instance_digest", "LEAVES", "BAR_LEAVES",
           "ONE_SEARCH_NODES"]

#: Subtrees a count is cut into (before grouping into tasks): enough for a smooth progress bar and
#: for balanced tasks on a few hundred workers, few enough that their Python cost is small.
LEAVES = 2048
#: Subtrees of a count cut for its progress bar alone (one process, no journal).
BAR_LEAVES = 256
#: Tasks per worker (several: tasks of equal share still differ in time).
TASKS_PER_JOB = 8
#: Subtrees per task on a few workers (their tasks then balance; cutting more costs time before any
#: worker starts): 256 subtrees on 2 workers, :data:`LEAVES` from 16.
LEAVES_PER_TASK = 16
#: Tasks of a count with a progress bar or a journal (each task done advances the bar, and is journaled).
FINE_TASKS = 256
#: The estimated nodes below which a count on workers runs as one search (:attr:`SplitSearch.least_nodes`,
#: :func:`.bitboard.probe_nodes`):
#: about 50 ms of the bitboard kernel, where cutting the count and starting the workers costs about as much
#: as the second worker saves (measured on the pentomino boards).
ONE_SEARCH_NODES = 2_000_000
#: The first line of a journal names what it is.
JOURNAL_KIND = "ubongo-cp subtree journal"


class Subtree(NamedTuple):
    """One subtree of a split count.

    Attributes
    ----------
    branch : ubongo_cp.solvers.orbits.Branch
        What the kernel searches (:class:`~ubongo_cp.solvers.orbits.Branch`): a prefix, the weight of its
        solutions, its symmetry test and transversals.
    share : float
        The product of 1/branching along the path from the root (the subtrees' shares sum to 1).
    path : tuple of int
        The branch's index in the plan, then the child taken at each cut: the search order.
    """

    branch: Any  # an orbits.Branch
    share: float
    path: tuple[int, ...]


def split_branches(search, instance, branches: Sequence, leaves: int = LEAVES, stats: dict | None = None) -> list[Subtree]:
    """Cut the branches of a plan into about ``leaves`` subtrees, largest share first (module docstring).

    Parameters
    ----------
    search : ubongo_cp.solvers.bitboard.BitSearch
        The kernel of the instance (:class:`~ubongo_cp.solvers.bitboard.BitSearch`).
    instance : ExactCoverInstance or ExactCoverMatrix
        Its instance.
    branches : sequence of ubongo_cp.solvers.orbits.Branch
        The plan (at least one branch).
    leaves : int
        Subtrees wanted (fewer when the tree ends first).
    stats : dict, optional
        Receives ``cut_nodes``: the placements tried by the cut itself (the nodes above and at the cut,
        which the subtrees' searches do not count again).

    Returns
    -------
    list of Subtree
        In the search order; a subtree holding no solution may be left out.
    """
    from .bitboard import branch_restriction
    from .orbits import Branch

    option_type = list(instance.table.option_type) if hasattr(instance, "region") else None
    heap: list = []
    done: list[Subtree] = []
    share = 1.0 / max(len(branches), 1)
    for i, b in enumerate(branches):
        heapq.heappush(heap, (-share, (i,), b))
    weights_of: dict[int, object] = {}
    cut_nodes = 0
    while heap and len(heap) + len(done) < leaves:
        neg, path, b = heapq.heappop(heap)
        restrict = branch_restriction(search, b, weights_of)
        if not search.start(b.prefix, limit=None, restrict=restrict, residual=b.free_weight):
            continue  # nothing below
        item, options = search.children()
        if item == -2:
            continue
        cut_nodes += len(options)
        if item == -1 or not options:
            done.append(Subtree(b, -neg, path))
            continue
        kids = []
        for o in options:
            if restrict is not None and option_type is not None and option_type[o] == restrict[0]:
                w = restrict[1][o]
                if w <= 0:
                    continue  # not a representative: the kernel skips it too
                # The restricted piece placed: its weight moves into the branch (one copy per plan level).
                trans = None if b.transversals is None else b.transversals + (b.restrict[1][o],)
                kids.append(Branch(b.prefix + (o,), b.weight * w, () if w == b.free_weight else b.test, trans))
            else:
                kids.append(Branch(b.prefix + (o,), b.weight, b.test, b.transversals, b.restrict, b.residual))
        for j, kid in enumerate(kids):
            heapq.heappush(heap, (neg / len(kids), path + (j,), kid))
    done.extend(Subtree(b, -neg, path) for neg, path, b in heap)
    done.sort(key=lambda s: s.path)
    if stats is not None:
        stats["cut_nodes"] = cut_nodes
    return done


def group_tasks(shares: Sequence[float], n_tasks: int) -> list[tuple[int, int]]:
    """Contiguous ranges ``[a, b)`` of ``shares`` of about equal sums, at most ``n_tasks`` of them.

    Examples
    --------
    >>> group_tasks([0.5, 0.25, 0.125, 0.125], 2)
    [(0, 1), (1, 4)]
    """
    total = float(sum(shares))
    out: list[tuple[int, int]] = []
    start, acc = 0, 0.0
    for i, s in enumerate(shares):
        acc += s
        if acc >= total * (len(out) + 1) / n_tasks - 1e-12 and i + 1 < len(shares):
            out.append((start, i + 1))
            start = i + 1
    if start < len(shares):
        out.append((start, len(shares)))
    return out


def instance_digest(instance, backend) -> str:
    """A hash of what a count depends on: the instance's options and bounds, and the solver's settings."""
    import hashlib  # only for a journal: the module costs milliseconds to import

    h = hashlib.sha256()
    table = instance.table
    for a in (table.indptr, table.indices):
        h.update(bytes(memoryview(a).cast("B")))
    h.update(repr((instance.n_items, getattr(instance, "n_secondary", None), getattr(instance, "type_bounds", None),
                   getattr(backend, "name", ""), getattr(backend, "rule", ""), getattr(backend, "prune", ""),
                   getattr(backend, "cardinality", None), getattr(backend, "scan", 0))).encode())
    return h.hexdigest()[:32]


# --------------------------------------------------------------------- the workers' side
_KERNEL: dict = {}


def _kernel(backend, instance, digest: str):
    """The worker's kernel of this instance, built once per worker process and thread.

    Keyed by the thread: a kernel runs one search at a time, and the workers may be threads of one process
    (the C kernel releases the GIL). A thread of the driver's process clones the driver's kernel
    (:meth:`~ubongo_cp.solvers.bitboard.BitSearch.clone`: the tables shared, nothing built again); a pool
    worker forked from the thread that built it finds it here.
    """
    import threading

    key = threading.get_ident()
    held = _KERNEL.get(key)
    if held is None or held[0] != digest:
        # another thread's kernel of this count (the driver's): cloned, its tables shared, not built again
        twin = next((k for d, k in list(_KERNEL.values()) if d == digest), None)
        held = _KERNEL[key] = (digest, backend._search(instance) if twin is None else twin.clone())
    return held[1]


#: The stop signs of the split counts running in this process, by key (:func:`run_task`'s ``stop``).
_STOPS: dict[str, threading.Event] = {}
_STOP_KEYS = itertools.count()


class _stopping:
    """Within the block, the tasks of a count run; after it (the count done, or stopped: Ctrl-C, an error),
    its stop sign is set, so that the tasks still searching in threads of this process stop. (A class: the
    count's modules do not import :mod:`contextlib`, see :class:`~ubongo_cp.reading.protect_inputs`.)"""

    def __init__(self, key: str) -> None:
        self._key = key

    def __enter__(self) -> None:
        import threading

        _STOPS[self._key] = threading.Event()

    def __exit__(self, *exc) -> None:
        _STOPS.pop(self._key).set()


def run_task(digest: str, first: int, branches: list, keep: int, tally: bool, deadline: float | None,
             stop: str | None = None, *, backend, instance) -> dict:
    """Search the subtrees ``first, first + 1, ...`` (their ``branches``); what the journal records of them.

    ``deadline``: a time (``time.time()``, s) at which the search stops (the row is then not complete).
    ``stop``: the key of the count's stop sign in this process (:data:`_STOPS`): a task running in a thread
    of the driver's process stops at its next heartbeat once the driver has stopped (Ctrl-C reaches only
    the main thread); a worker process is ended by its executor instead. ``backend`` and ``instance`` are
    the same for every task of a count: executors send them to each worker once (keyword arguments of
    :meth:`~ubongo_cp.executors.Executor.map_unordered`).
    """
    sign = _STOPS.get(stop) if stop is not None else None
    if (deadline is not None and time.time() >= deadline) or (sign is not None and sign.is_set()):
        return {"first": first, "last": first + len(branches), "count": "0", "fixed": "0", "complete": False,
                "nodes": 0, "solutions_seen": 0, "tally": [], "found": []}
    run = backend.search(instance, branches, keep=keep, tally=tally, kernel=_kernel(backend, instance, digest),
                         time_limit=None if deadline is None else max(0.0, deadline - time.time()),
                         stop=None if sign is None else sign.is_set)
    return {"first": first, "last": first + len(branches), "count": str(run.count), "fixed": str(run.fixed),
            "complete": bool(run.exhausted), "nodes": int(run.stats.get("nodes", 0)),
            "solutions_seen": int(run.stats.get("solutions_seen", 0)),
            "tally": [[int(m), int(n)] for m, n in run.tally.items()],
            "found": [[first + i, list(map(int, row))] for i, row in run.found]}


# --------------------------------------------------------------------- the driver's side
class SplitSearch(Struct, frozen=False):
    """How a native count runs split into subtrees (see the module docstring).

    Attributes
    ----------
    executor : Executor, optional
        Where the tasks run (:mod:`ubongo_cp.executors`; open, the caller closes it); None: in this
        process.
    journal : path, optional
        A journal of the finished tasks: created, or resumed when it holds tasks of the same count.
    progress : bool
        A progress bar on stderr (tqdm), shown once the count has run ``delay`` seconds.
    delay : float
        Seconds before the bar shows (a short count shows none).
    leaves : int, optional
        Subtrees to cut the count into (default: :data:`LEAVES` with a journal;
        :data:`LEAVES_PER_TASK` per task with workers, from :data:`BAR_LEAVES` up to :data:`LEAVES`;
        else :data:`BAR_LEAVES`: a progress bar alone needs fewer).
    tasks_per_job : int
        Tasks per worker (of about equal share; the workers take them in the search order).
    notify : callable, optional
        Called with one line when a journal is resumed.
    least_nodes : int
        A count without a journal whose search Knuth's estimate puts below this many nodes runs as
        one search in this process (cutting it and starting workers would cost more than they save;
        the answers are the same): see :data:`ONE_SEARCH_NODES`. 0 (the default): always cut.
    """

    executor: Executor | None
    journal: str | os.PathLike | None
    progress: bool
    delay: float
    leaves: int | None
    tasks_per_job: int
    notify: Callable[[str], Any] | None
    least_nodes: int
    stats: dict

    def __init__(self, executor: Executor | None = None, journal: str | os.PathLike | None = None,
                 progress: bool = False, delay: float = 2.0, leaves: int | None = None,
                 tasks_per_job: int = TASKS_PER_JOB, notify: Callable[[str], Any] | None = None,
                 least_nodes: int = 0, stats: dict | None = None) -> None:
        self._set(executor=executor, journal=journal, progress=progress, delay=delay, leaves=leaves,
                  tasks_per_job=tasks_per_job, notify=notify, least_nodes=least_nodes,
                  stats={} if stats is None else stats)

    def search(self, backend, instance, branches: Sequence, *, keep: int, time_limit: float | None,
               tally: bool, kernel=None):
        """Count below ``branches`` split into subtrees: (the subtrees' branches, a NativeRun over them).

        The run's ``found`` indexes into the returned branches, as :meth:`BitboardBackend.search`'s into
        its own. ``kernel``: the driver's kernel of ``backend`` and ``instance`` when one is at hand.

        Raises
        ------
        InputError
            For a journal of another count, or one that cannot be read or written.
        """
        from ..executors import using
        from ..io import append_durably, open_journal, row_check
        from .bitboard import NativeRun

        start = time.perf_counter()
        # The key of the workers' kernels, and with a journal what it is the journal of: a hash of the
        # count; without one, a random token names this count (nothing outlives it).
        digest = instance_digest(instance, backend) if self.journal is not None else "run-" + os.urandom(16).hex()
        _KERNEL.clear()
        if kernel is not None:  # the driver's kernel of this backend (the threads clone it)
            import threading

            _KERNEL[threading.get_ident()] = (digest, kernel)
        search = _kernel(backend, instance, digest)
        if self.least_nodes and self.journal is None:
            from .bitboard import probe_nodes

            estimated = probe_nodes(search, branches)
            if estimated < self.least_nodes:  # a small count: one search here, no cut, no worker
                self.stats.update(one_search=True, estimated_nodes=round(estimated))
                run = backend.search(instance, branches, keep=keep, time_limit=time_limit, tally=tally,
                                     kernel=search)
                run.stats.update(self.stats)
                return list(branches), run
        jobs = getattr(self.executor, "jobs", 1) or 1
        leaves = self.leaves or (LEAVES if self.journal is not None else BAR_LEAVES if jobs == 1 else
                                 min(LEAVES, max(BAR_LEAVES, LEAVES_PER_TASK * self.tasks_per_job * jobs)))
        cut: dict = {}
        subtrees = split_branches(search, instance, branches, leaves, cut)
        journal, salt = None, ""
        if self.journal is not None:  # locked before it is read: one run at a time resumes and writes it
            import hashlib
            import json

            split_digest = hashlib.sha256(repr([(s.branch.prefix, str(s.branch.weight), s.branch.test, tally)
                                                for s in subtrees]).encode()).hexdigest()[:32]
            header = {"journal": JOURNAL_KIND, "instance": digest, "subtrees": len(subtrees), "split": split_digest,
                      "leaves": leaves, "keep": min(int(keep), 1 << 62), "row_check": ROW_CHECK}
            salt = _row_salt(header)
            from pathlib import Path

            path = Path(self.journal)
            try:
                journal = open_journal(path)
            except OSError as exc:
                raise InputError(f"cannot write the journal: {exc.strerror or exc}", path=path) from None
            try:
                rows = self._resume(header, subtrees, tally)
                if path.stat().st_size == 0:  # a new journal, or one stopped before its header was whole
                    append_durably(journal, json.dumps(header) + "\n")
            except BaseException:
                journal.close()
                raise
        else:
            rows = []
        resumed = list(rows)
        finished = [False] * len(subtrees)
        for row in rows:
            finished[row["first"]:row["last"]] = [True] * (row["last"] - row["first"])
        todo: list[tuple[int, int]] = []
        # several tasks per worker; many small ones for a smooth bar and a journal that loses little
        n_tasks = max(self.tasks_per_job * jobs if jobs > 1 else 1, FINE_TASKS if self.progress or self.journal else 1)
        i = 0
        while i < len(subtrees):  # the runs of unfinished subtrees, cut into tasks of about equal share
            if finished[i]:
                i += 1
                continue
            j = i
            while j < len(subtrees) and not finished[j]:
                j += 1
            part = [s.share for s in subtrees[i:j]]
            want = max(1, round(n_tasks * sum(part)))
            todo.extend((i + a, i + b) for a, b in group_tasks(part, want))
            i = j
        self.stats.update(subtrees=len(subtrees), tasks=len(todo), resumed_tasks=len(rows),
                          split_seconds=round(time.perf_counter() - start, 3))
        deadline = None if time_limit is None else time.time() + float(time_limit)
        bar = None
        done_share = sum(s.share for s, f in zip(subtrees, finished) if f)
        stop = f"{digest}:{next(_STOP_KEYS)}"
        items = [(digest, a, [s.branch for s in subtrees[a:b]], keep, tally, deadline, stop) for a, b in todo]
        try:
            with using(self.executor) as pool, _stopping(stop):
                pool.warm(["ubongo_cp.solvers.bitboard", "ubongo_cp.solvers.subtrees"])
                for row in pool.map_unordered(run_task, items, nogil=True, backend=backend, instance=instance):
                    if journal is not None and row["complete"]:
                        import json

                        try:
                            append_durably(journal, json.dumps({**row, "check": row_check(row, salt)}) + "\n")
                        except OSError as exc:
                            raise InputError(f"cannot write the journal: {exc.strerror or exc}",
                                             path=self.journal) from None
                    rows.append(row)
                    if self.progress and row["complete"]:
                        done_share += sum(s.share for s in subtrees[row["first"]:row["last"]])
                        if bar is None and time.perf_counter() - start >= self.delay:
                            bar = _bar(done_share)  # tqdm imported only for a count that lasts
                        elif bar is not None:
                            bar.update(min(100.0 * done_share, 100.0) - bar.n)
        finally:
            if bar is not None:
                if all(r["complete"] for r in rows) and len(rows) == len(todo) + len(resumed):
                    bar.update(100.0 - bar.n)  # subtrees found empty hold the rest of the shares
                bar.close()
            if journal is not None:
                journal.close()
        rows.sort(key=lambda r: r["first"])
        count = sum((_number(r["count"]) for r in rows), 0)
        fixed = sum((_number(r["fixed"]) for r in rows), 0)
        counts: dict[int, int] = {}
        for r in rows:
            for m, n in r["tally"]:
                counts[m] = counts.get(m, 0) + n
        found = [(i, row) for r in rows for i, row in r["found"]][:keep] if keep else []
        exhausted = all(r["complete"] for r in rows) and sum(r["last"] - r["first"] for r in rows) == len(subtrees)
        self.stats.update(tasks_done=sum(r["complete"] for r in rows) - len(resumed),
                          share_done=round(sum(s.share for r in rows if r["complete"]
                                               for s in subtrees[r["first"]:r["last"]]), 6))
        stats = {"nodes": cut["cut_nodes"] + sum(r["nodes"] for r in rows),
                 "solutions_seen": sum(r["solutions_seen"] for r in rows), **self.stats}
        if not exhausted and deadline is not None and time.time() >= deadline:
            stats["timed_out"] = True
        return [s.branch for s in subtrees], NativeRun(count, fixed, exhausted, found, counts, stats)

    def _resume(self, header: dict, subtrees: Sequence[Subtree], tally: bool) -> list[dict]:
        """The rows of an existing journal of this count (none for a new journal), cut into ``subtrees``."""
        import json

        from ..io import read_journal, row_check, trim_journal

        from pathlib import Path

        assert self.journal is not None
        path = Path(self.journal)
        if not path.exists():
            return []
        # nothing is changed in the file before it is known to be a journal of this count
        numbered: list[Any] = list(read_journal(path, "the count's journal (a file)", numbered=True, trim=False))
        if not numbered:
            data = path.read_bytes()
            if data and b"\n" not in data and (json.dumps(header) + "\n").encode().startswith(data):
                trim_journal(path, data)  # this count's header, torn by a stop before it was whole
            elif data:
                raise InputError("is not a journal of a count (no line of it can be read)", path=path)
            return []
        head = numbered[0][1]
        if not isinstance(head, dict) or head.get("journal") != JOURNAL_KIND:
            raise InputError("is not a journal of a count (its first line is not a journal header)", path=path)
        if head.get("instance") != header["instance"]:
            raise InputError("is the journal of another count (another instance or solver); give another "
                             "journal file", path=path)
        if head.get("split") != header["split"] or head.get("subtrees") != header["subtrees"]:
            raise InputError("is the journal of the same puzzle counted another way (with or without the "
                             "symmetry reduction or the per-subset tally, or by another version); give another "
                             "journal file", path=path)
        if head.get("keep") != header["keep"]:
            raise InputError(f"kept {head.get('keep')} solutions per part of the count, this run keeps "
                             f"{header['keep']}; give the same number of solutions to show, or another journal "
                             "file", path=path)
        trim_journal(path)  # a journal of this count: a row torn by a stop is cut off before new rows follow
        rows = []
        taken = [False] * header["subtrees"]
        salt = _row_salt(header)
        for number, row in numbered[1:]:
            if isinstance(row, dict) and row.get("check") != row_check(row, salt):
                if row.get("check") != row_check(row, header["instance"]):   # not checked by the count alone
                    raise InputError("was changed after this program wrote it: the check of the row on this line "
                                     "does not match its content and this journal's count (a row changed by hand, "
                                     "or copied from another journal of this count, one that kept another number "
                                     "of solutions); give another journal file", path=path, line=number)
                if head.get("row_check") == ROW_CHECK:   # else a journal begun by an earlier version: its work kept
                    raise InputError("holds on this line a row of a journal begun by an earlier version of the "
                                     "toolkit, not one of this journal; give another journal file", path=path,
                                     line=number)
            if not _is_row(row, header["subtrees"]) or any(taken[row["first"]:row["last"]]):
                continue  # damaged, or a task journaled twice: its subtrees run again or are counted once
            if head.get("row_check") != ROW_CHECK:   # its check names the count alone: is it a row of this cut?
                misfit = _misfit(row, subtrees, header["keep"], tally)
                if misfit is not None:
                    raise InputError(f"holds on this line a row of another journal of this count ({misfit}); "
                                     "give another journal file", path=path, line=number)
            taken[row["first"]:row["last"]] = [True] * (row["last"] - row["first"])
            rows.append(row)
        if rows and self.notify is not None:
            done = sum(r["last"] - r["first"] for r in rows)
            self.notify(f"resuming {path}: {done} of {header['subtrees']} subtrees already counted")
        return rows


#: The header's mark of a journal whose rows are checked under :func:`_row_salt` (a journal without it, begun by an
#: earlier version, has rows checked by the count's instance alone, and resumes with them).
ROW_CHECK = 2


def _row_salt(header: dict) -> str:
    """What a journal row's check is made under (:func:`~ubongo_cp.io.row_check`): the count, its cut and the
    solutions kept, as the header names them, so that a row of another journal of the same count (another
    number of solutions kept, another cut) is told from one of this journal."""
    return f"{header['instance']}:{header['split']}:{header['keep']}"


def split_argument(split) -> "SplitSearch | None":
    """``split`` when it is None or a :class:`SplitSearch` (the ``split`` of :func:`~ubongo_cp.solvers.solve` and
    :func:`~ubongo_cp.analyze.analyze`); else an :class:`InputError` naming what it is (not an AttributeError
    from inside the search)."""
    if split is not None and not isinstance(split, SplitSearch):
        raise InputError(f"split must be a SplitSearch (ubongo_cp.solvers.subtrees) or None, got "
                         f"{type(split).__name__}")
    return split


def _bar(share: float):
    """A tqdm bar in per cent of the tree, at ``share`` done (its time left measured from now on)."""
    from tqdm import tqdm

    return tqdm(total=100.0, initial=min(100.0 * share, 100.0), unit="%", dynamic_ncols=True, desc="search",
                bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining}")


def _is_row(row, n: int) -> bool:
    try:
        return (isinstance(row, dict) and row.get("complete") is True and 0 <= row["first"] < row["last"] <= n
                and isinstance(row["count"], str) and isinstance(row["fixed"], str)
                and isinstance(row["tally"], list) and isinstance(row["found"], list)
                and isinstance(row["nodes"], int) and isinstance(row["solutions_seen"], int))
    except (KeyError, TypeError):
        return False


def _misfit(row: dict, subtrees: Sequence[Subtree], keep: int, tally: bool) -> str | None:
    """How a journal row (:func:`_is_row`) disagrees with the count it is resumed in, or None.

    What a row of a journal begun by an earlier version (its check made under the count alone) can be held to:
    a finished task keeps the first ``keep`` solutions it meets, each below the subtree it names (holding
    that subtree's prefix), and has a per-subset tally exactly when the count makes one. A row of another cut
    or another number of solutions kept fails one of these unless its subtrees hold no solution.
    """
    found, seen = row["found"], row["solutions_seen"]
    if len(found) != min(keep, seen):
        return f"its task kept {len(found)} of the solutions it met ({seen}); this count keeps up to {keep} per task"
    for entry in found:
        index, options = entry if isinstance(entry, list) and len(entry) == 2 else (None, None)
        if (not isinstance(index, int) or not row["first"] <= index < row["last"] or not isinstance(options, list)
                or not all(isinstance(o, int) for o in options)):
            return f"a solution it lists, {entry!r:.40}, is not one of its subtrees {row['first']}-{row['last'] - 1}"
        if not set(subtrees[index].branch.prefix) <= set(options):
            return f"the solution it lists below subtree {index} lacks the placements of that subtree in this count's cut"
    if bool(row["tally"]) != (tally and seen > 0):
        return ("it holds a per-subset tally, which this count does not make" if row["tally"] else
                "it holds no per-subset tally, which this count makes")
    return None


def _number(text: str):
    """A count written by :func:`run_task` (an int, or a Fraction of a plan with a copies level)."""
    if "/" not in text:
        return int(text)
    from fractions import Fraction  # only here: the module costs milliseconds to import

    value = Fraction(text)
    return int(value) if value.denominator == 1 else value
