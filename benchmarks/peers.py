"""The peers of the search benchmarks: built from their public sources into ``benchmarks/out/peers/``, run whole.

Nothing of a peer is kept in this repository: each function below clones a
source tree the user gives (a git repository; by default the mirror of the
project's machine when it exists) into the untracked ``benchmarks/out/peers/``
and builds it there with the toolchain at hand, or says why it could not
(a benchmark then lists the peers it could build). The few stand-ins
written into a copy are this project's own lines, named where they are made.

- **sugyan/pentomino** (Rust, https://github.com/sugyan/pentomino): a
  bitboard pentomino solver (placements as 64-bit masks, the first empty
  cell, per-cell tables); its ``DefaultSolver`` counts without any symmetry
  reduction, its ``OptimizedSolver`` keeps X in one quadrant and adds each
  solution's images. Built with ``cargo --offline``: the crate
  ``num-derive`` (used only to turn an index into a piece for printing) is
  replaced by a six-line ``from_usize``, its unused ``derive_more``
  dependency dropped, and a ``main`` of our own (board name, solver) prints
  the count and the solver's own time instead of its command line, which
  needs ``clap`` (no crate registry is reachable here).
- **Knuth's DLX1, DLX3, SSXCC, SSMCC** (his CWEB programs for TAOCP
  7.2.2.1, from a repository holding them, e.g. ascherer/cwebtest):
  ``ctangle`` then ``gcc -O3``, with ``gb_flip`` of the Stanford GraphBase.
  DLX1: Algorithm X; DLX3: Algorithm M (multiplicities); SSXCC and SSMCC:
  the same on dancing cells (sparse sets). ``ctangle`` is the one on the
  ``PATH`` (e.g. Debian's ``texlive-binaries``), else it is built by
  :func:`build_ctangle` from the CWEB system of Knuth and Levy (a repository
  holding its release, e.g. ascherer/cweb): the distribution ships
  ``ctangle.c`` and ``common.c`` already tangled, for bootstrapping, so
  ``gcc`` alone makes it.
- **miniexact** (https://github.com/miniexact/miniexact): CMake, Release.
- the C++ analyzer of **ubongo-utils**: :mod:`benchmarks.bench_cpp_analyze`.

:func:`knuth_text` and :func:`miniexact_text` write an instance in their
input formats (one item per cell, one per piece type; a type with ``k``
copies as one item ``k|name`` for the multiplicity programs, as ``k``
copies of the piece expanded for the others; optional pieces as secondary items).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PEERS = ROOT / "benchmarks" / "out" / "peers"
#: Exit codes of a successful miniexact run.
MINIEXACT_OK = (0, 10, 20)
#: Where the project's machine keeps its mirrors of the peers' repositories (``fetch``); any git
#: repository with the same content will do (the benchmarks' ``--source-*`` options).
MIRRORS = {
    "sugyan": Path("/work/.mirror/sugyan+pentomino/repo"),
    "knuth": Path("/work/.mirror/ascherer+cwebtest/repo"),
    "cweb": Path("/work/.mirror/ascherer+cweb/repo"),
    "miniexact": Path("/work/.mirror/miniexact+miniexact/repo"),
}
KNUTH_PROGRAMS = ("dlx1", "dlx3", "ssxcc", "ssmcc")


@dataclass
class Run:
    """One whole process: wall and CPU seconds (user + system, its children included), its output."""

    wall: float
    cpu: float
    out: str
    err: str


def measure(argv, *, stdin: str | None = None, cwd: Path = ROOT, env: dict | None = None,
            ok: tuple[int, ...] = (0,)) -> Run:
    """Run ``argv`` to the end; its wall time and its CPU time (the growth of this process's children's usage).

    ``ok``: the exit codes of a successful run (miniexact ends with 10 or 20, a SAT solver's codes).
    """
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([str(a) for a in argv], cwd=cwd, env=None if env is None else {**os.environ, **env},
                          input=stdin, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in ok:
        raise SystemExit(f"{' '.join(map(str, argv))} failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(wall, cpu, done.stdout, done.stderr)


def _sh(argv, cwd: Path, log: Path) -> bool:
    with log.open("a") as fh:
        return subprocess.run([str(a) for a in argv], cwd=cwd, stdout=fh, stderr=subprocess.STDOUT).returncode == 0


def _clone(source: Path, dest: Path, log: Path) -> str | None:
    if dest.exists():
        return None
    if not source.exists():
        return f"no source at {source}"
    if shutil.which("git") is None:
        return "git not found"
    return None if _sh(["git", "clone", "-q", source, dest], PEERS, log) else f"git clone failed (see {log})"


# ----------------------------------------------------------------------------------- sugyan/pentomino
_SUGYAN_MAIN = """\
use pentomino_solver::solvers::{DefaultSolver, OptimizedSolver, OptimizedSolverType};
use pentomino_solver::Solver;
use std::time::Instant;

// The benchmark's entry point (ubongo-cp): board name and solver in, count and seconds out.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (rows, cols, initial): (usize, usize, u64) = match args[1].as_str() {
        "3x20" => (3, 20, 0),
        "4x15" => (4, 15, 0),
        "5x12" => (5, 12, 0),
        "6x10" => (6, 10, 0),
        "8x8-2x2" => (8, 8, [27u64, 28, 35, 36].iter().map(|&p| 1u64 << p).sum()),
        other => panic!("unknown board {other}"),
    };
    let solver: Box<dyn Solver> = match args.get(2).map(|s| s.as_str()).unwrap_or("default") {
        "default" => Box::new(DefaultSolver::new(rows, cols)),
        "optimized-small" => Box::new(OptimizedSolver::new(rows, cols, OptimizedSolverType::SmallTable)),
        _ => Box::new(OptimizedSolver::new(rows, cols, OptimizedSolverType::LargeTable)),
    };
    let t = Instant::now();
    let n = solver.solve(initial, false).len();
    println!("{} {:.6}", n, t.elapsed().as_secs_f64());
}
"""

_FROM_USIZE = """
// ubongo-cp's stand-in for num-derive's FromPrimitive (no crate registry is reachable).
impl crate::FromPrimitive for Piece {
    fn from_usize(n: usize) -> Option<Self> {
        use Piece::*;
        [O, P, Q, R, S, T, U, V, W, X, Y, Z].get(n).copied()
    }
}
"""


def build_sugyan(source: Path | None = None) -> Path | str:
    """sugyan/pentomino's solvers behind our ``main``: the program's path, or why it could not be built."""
    program = PEERS / "pentomino" / "target" / "release" / "peer-main"
    if program.exists():
        return program
    if shutil.which("cargo") is None:
        return "cargo not found"
    PEERS.mkdir(parents=True, exist_ok=True)
    log = PEERS / "pentomino-build.log"
    log.write_text("")
    dest = PEERS / "pentomino"
    if (why := _clone(source or MIRRORS["sugyan"], dest, log)) is not None:
        return why
    (dest / "Cargo.toml").write_text('[workspace]\nresolver = "2"\nmembers = ["pentomino-solver", "peer-main"]\n')
    lib = dest / "pentomino-solver"
    toml = (lib / "Cargo.toml").read_text()
    (lib / "Cargo.toml").write_text(re.sub(r"\[dependencies\].*", "[dependencies]\n", toml, flags=re.S))
    pieces = lib / "src" / "pieces.rs"
    text = pieces.read_text().replace("use num_derive::FromPrimitive;\n", "").replace(", FromPrimitive)]", ")]")
    pieces.write_text(text + _FROM_USIZE)
    for f in (lib / "src").rglob("*.rs"):
        f.write_text(f.read_text().replace("use num_traits::FromPrimitive;", "use crate::FromPrimitive;"))
    librs = lib / "src" / "lib.rs"
    librs.write_text(librs.read_text() + "\npub trait FromPrimitive: Sized {\n    fn from_usize(n: usize) -> Option<Self>;\n}\n")
    (dest / "peer-main" / "src").mkdir(parents=True, exist_ok=True)
    (dest / "peer-main" / "Cargo.toml").write_text('[package]\nname = "peer-main"\nversion = "0.1.0"\nedition = "2021"\n\n'
                                                  '[dependencies]\npentomino-solver = { path = "../pentomino-solver" }\n')
    (dest / "peer-main" / "src" / "main.rs").write_text(_SUGYAN_MAIN)
    if not _sh(["cargo", "build", "--release", "--offline", "-q"], dest, log):
        return f"cargo build failed (see {log})"
    return program


# ----------------------------------------------------------------------------------- Knuth's programs
def _show(source: Path, name: str, dest: Path) -> bool:
    """Write the file ``name`` of ``source``'s ``HEAD`` (a git repository, bare or not) to ``dest``; False if absent."""
    done = subprocess.run(["git", "-C", str(source), "show", f"HEAD:{name}"], capture_output=True)
    if done.returncode == 0:
        dest.write_bytes(done.stdout)
    return done.returncode == 0


def build_ctangle(source: Path | None = None) -> Path | str:
    """CWEB's ``ctangle``: the one on the ``PATH``, else built into ``benchmarks/out/peers/cweb``; or why not.

    ``source``: a git repository of the CWEB system (D. E. Knuth and S. Levy; default the mirror
    ``MIRRORS["cweb"]``, ascherer/cweb). Its release ships ``ctangle.c``, ``common.c`` and ``common.h``
    pre-tangled so that CWEB can be built without itself; ``gcc -O2`` compiles the two files.
    """
    if (found := shutil.which("ctangle")) is not None:
        return Path(found)
    folder = PEERS / "cweb"
    program = folder / "ctangle"
    if program.exists():
        return program
    missing = [tool for tool in ("gcc", "git") if shutil.which(tool) is None]
    if missing:
        return f"{', '.join(missing)} not found"
    source = source or MIRRORS["cweb"]
    if not source.exists():
        return f"no source at {source}"
    folder.mkdir(parents=True, exist_ok=True)
    log = PEERS / "cweb-build.log"
    log.write_text("")
    for name in ("common.h", "common.c", "ctangle.c"):
        if not _show(source, name, folder / name):
            return f"{name} not in {source}"
    if not _sh(["gcc", "-O2", "-w", "-o", "ctangle", "ctangle.c", "common.c"], folder, log):
        return f"gcc ctangle.c failed (see {log})"
    return program


def build_knuth(source: Path | None = None, cweb: Path | None = None) -> dict[str, Path | str]:
    """DLX1, DLX3, SSXCC and SSMCC: {name: program path, or why it could not be built}.

    ``source``: a git repository holding their ``.w`` files and ``gb_flip.w`` (default the mirror
    ``MIRRORS["knuth"]``); ``cweb``: the CWEB source :func:`build_ctangle` builds ``ctangle`` from
    when none is on the ``PATH``.
    """
    folder = PEERS / "knuth"
    programs = {name: folder / name for name in KNUTH_PROGRAMS}
    if all(p.exists() for p in programs.values()):
        return dict(programs)
    missing = [tool for tool in ("gcc", "git") if shutil.which(tool) is None]
    if missing:
        return {name: f"{', '.join(missing)} not found" for name in programs}
    ctangle = build_ctangle(cweb)
    if isinstance(ctangle, str):
        return dict.fromkeys(programs, f"no ctangle on the PATH, and it could not be built: {ctangle}")
    source = source or MIRRORS["knuth"]
    if not source.exists():
        return dict.fromkeys(programs, f"no source at {source}")
    folder.mkdir(parents=True, exist_ok=True)
    log = PEERS / "knuth-build.log"
    log.write_text("")
    out: dict[str, Path | str] = {}
    for name in ("gb_flip", *KNUTH_PROGRAMS):
        if not _show(source, f"{name}.w", folder / f"{name}.w"):
            out[name] = f"{name}.w not in {source}"
            continue
        _sh([ctangle, f"./{name}.w"], folder, log)  # ./: ctangle would look the file up in TeX's paths
    if not (folder / "gb_flip.c").exists():
        return dict.fromkeys(programs, "gb_flip.w could not be tangled")
    for name, program in programs.items():
        if name in out:
            continue
        if not (folder / f"{name}.c").exists():
            out[name] = f"ctangle {name}.w failed (see {log})"
        elif _sh(["gcc", "-O3", "-w", "-o", name, f"{name}.c", "gb_flip.c"], folder, log):
            out[name] = program
        else:
            out[name] = f"gcc {name}.c failed (see {log})"
    return out


def _count_in(text: str, pattern: str) -> int:
    """The count a program's report gives by ``pattern`` (one group: the digits); ValueError if none."""
    m = re.search(pattern, text)
    if m is None:
        raise ValueError(f"no count in {text[-300:]!r}")
    return int(m.group(1))


def knuth_count(text: str) -> int:
    """The count in a Knuth program's report (``Altogether N solutions``)."""
    return _count_in(text, r"Altogether (\d+) solution")


# ----------------------------------------------------------------------------------- miniexact
def build_miniexact(source: Path | None = None) -> Path | str:
    """miniexact's command-line program, or why it could not be built."""
    program = PEERS / "miniexact" / "build" / "miniexact"
    if program.exists():
        return program
    missing = [tool for tool in ("cmake", "gcc", "git") if shutil.which(tool) is None]
    if missing:
        return f"{', '.join(missing)} not found"
    PEERS.mkdir(parents=True, exist_ok=True)
    log = PEERS / "miniexact-build.log"
    log.write_text("")
    dest = PEERS / "miniexact"
    if (why := _clone(source or MIRRORS["miniexact"], dest, log)) is not None:
        return why
    if not (_sh(["cmake", "-S", ".", "-B", "build", "-DCMAKE_BUILD_TYPE=Release"], dest, log)
            and _sh(["cmake", "--build", "build", "-j", "2"], dest, log)):
        return f"cmake build failed (see {log})"
    return program


def miniexact_count(text: str) -> int:
    """The count in miniexact's report (``Found N solutions!``)."""
    return _count_in(text, r"Found (\d+) solutions")


# ----------------------------------------------------------------------------------- instances in their formats
def _names(instance) -> tuple[list[str], list[str]]:
    cells = [f"r{r}c{c}" for r, c in instance.cells]
    types = [f"p{t}" for t in range(instance.n_types)]
    return cells, types


def _options(instance, expand: bool) -> tuple[list[list[str]], list[str], list[str]]:
    """(options as item names, primary items, secondary items) of ``instance``."""
    cells, types = _names(instance)
    table = instance.table
    rows = []
    copies = instance.copies
    for o in range(instance.n_options):
        items = [cells[i] for i in table.indices[table.indptr[o]:table.indptr[o + 1]] if i < instance.n_cells]
        t = table.option_type[o]
        if expand and copies[t] > 1:
            rows.extend(items + [f"{types[t]}_{k}"] for k in range(copies[t]))
        else:
            rows.append(items + [types[t]])
    piece_items = [f"{types[t]}_{k}" for t in range(len(types)) for k in range(copies[t])] if expand and \
        max(copies, default=1) > 1 else types
    if instance.optional_pieces:
        return rows, cells, piece_items
    return rows, cells + piece_items, []


def knuth_text(instance, *, multiplicities: bool) -> str:
    """The instance in Knuth's format: DLX3/SSMCC (``multiplicities``: ``k|name``) or DLX1/SSXCC (copies expanded).

    Expanded copies are told apart, so a program without multiplicities meets each solution once per
    ordering of a type's copies (its count is the number of tilings times the product of ``k!``).
    """
    rows, primary, secondary = _options(instance, expand=not multiplicities)
    if multiplicities:
        copies = instance.copies
        primary = [f"{copies[int(n[1:])]}|{n}" if n.startswith("p") and copies[int(n[1:])] > 1 else n
                   for n in primary]
        secondary = [f"0:{copies[int(n[1:])]}|{n}" if copies[int(n[1:])] > 1 else n for n in secondary]
        if secondary:  # DLX3's bounds are for primary items: optional copies become primary [0..k]
            primary, secondary = primary + secondary, []
    head = " ".join(primary) + (" | " + " ".join(secondary) if secondary else "")
    return head + "\n" + "\n".join(" ".join(r) for r in rows) + "\n"


def miniexact_text(instance) -> str:
    """The instance in miniexact's Knuth-like format (multiplicities as ``name:k;k``)."""
    rows, primary, secondary = _options(instance, expand=False)
    copies = instance.copies
    prim = [f"{n}:{copies[int(n[1:])]};{copies[int(n[1:])]}" if n.startswith("p") and copies[int(n[1:])] > 1 else n
            for n in primary]
    head = "< " + " ".join(prim) + " >" + (" [ " + " ".join(secondary) + " ]" if secondary else "")
    return head + "\n" + "\n".join(" ".join(r) + ";" for r in rows) + "\n"


# ----------------------------------------------------------------------------------- cases and interleaved rounds
@dataclass
class Case:
    """One counting task: pieces (copies repeated) in a region, with its known count."""

    label: str
    pieces: list
    region: object
    count: int
    mode: str = "free"

    def files(self) -> tuple[Path, Path, str]:
        """(piece-set file, region file, ``--use`` names) for ``ubongo-cp solve``, written under benchmarks/out/cases."""
        from ubongo_cp.geometry import format_grid

        folder = ROOT / "benchmarks" / "out" / "cases"
        folder.mkdir(parents=True, exist_ok=True)
        kinds = {p.name: p for p in self.pieces}
        pieces = folder / f"{self.label}.pieces.txt"
        pieces.write_text("\n\n".join(f"{name}\n{format_grid(p.cells)}" for name, p in kinds.items()) + "\n")
        region = folder / f"{self.label}.region.txt"
        region.write_text(format_grid(self.region.cells) + "\n")
        return pieces, region, ",".join(p.name for p in self.pieces)

    def instance(self):
        from ubongo_cp.cover import build_instance

        return build_instance(self.pieces, self.region, mode=self.mode)


INPROCESS = """
import sys, time
from ubongo_cp.cover import build_instance
from ubongo_cp.pieces import load_pieces, load_region
from ubongo_cp.solvers import solve, warm
pieces = load_pieces(sys.argv[1]).select(sys.argv[3].split(","))
inst = build_instance(pieces, load_region(sys.argv[2]), mode=sys.argv[4])
warm(["bitboard-symmetry"])
import ubongo_cp.colouring, ubongo_cp.solvers.base, ubongo_cp.solvers.orbits  # the driver's modules: loaded first
w, c = time.perf_counter(), time.process_time()
r = solve(inst, keep=0)
print(r.count, time.perf_counter() - w, time.process_time() - c, r.backend)
"""


def ours(case: Case, python: Path, cli: Path) -> dict[str, list]:
    """Our two commands for a case: the whole ``solve --count`` process, and the search timed inside a process."""
    pieces, region, use = case.files()
    return {"ubongo-cp solve --count": [cli, "solve", "--pieces", pieces, "--region", region, "--use", use,
                                        "--orientations", case.mode, "--count", "--max-solutions", "0"],
            "in-process search": [python, "-c", INPROCESS, pieces, region, use, case.mode]}


#: The name prefix of the commands run on an earlier revision (:func:`previous`).
PREVIOUS = "previous: "


def previous(case: Case, tree: Path) -> dict[str, tuple]:
    """:func:`ours` on an earlier revision: ``tree`` is a checkout of it with its C extensions built in place
    (``python setup.py build_ext --inplace``), put first on the path of each process (``PYTHONPATH``)."""
    env = {"PYTHONPATH": str(tree)}
    cmds = ours(case, Path(sys.executable), Path(sys.executable).parent / "ubongo-cp")
    # The whole process is the same console script as ours (its start-up compared, not that of python -m, which
    # imports runpy): PYTHONPATH comes before this checkout on its path. The search inside a process with -P: the
    # working directory (this checkout) not put before PYTHONPATH.
    search = cmds["in-process search"]
    cmds["in-process search"] = [search[0], "-P", *search[1:]]
    return {PREVIOUS + name: (argv, None, (0,), env) for name, argv in cmds.items()}


#: Our command on the exact-cover file the peers read (:func:`exact_cover_peers`).
FILE_COMMAND = "ubongo-cp exact-cover FILE --count"


def our_count(name: str, run: Run) -> int:
    """The count a run of :func:`ours`' commands (or of :data:`FILE_COMMAND`) printed."""
    name = name.removeprefix(PREVIOUS)
    if name == "in-process search":
        return int(run.out.split()[0])
    m = re.search(r"^(\d+) (?:solutions?|exact covers?)|^no (?:solution|exact cover)", run.out, re.M)
    if m is None:
        raise ValueError(f"no count in {run.out[-300:]!r}")
    return int(m.group(1) or 0)


def rounds(commands: dict[str, tuple], repeat: int, check) -> dict[str, list[Run]]:
    """Interleaved rounds: every command once per round, the order rotated each round; each run's count checked.

    ``commands``: name -> (argv, stdin, ok exit codes[, environment variables to set]); ``check(name, run)``
    raises on a wrong count.
    """
    names = list(commands)
    runs: dict[str, list[Run]] = {n: [] for n in names}
    for r in range(repeat):
        for name in names[r % len(names):] + names[:r % len(names)]:
            argv, stdin, ok, *env = commands[name]
            run = measure(argv, stdin=stdin, ok=ok, env=env[0] if env else None)
            check(name, run)
            runs[name].append(run)
    return runs


def median(runs: list[Run], attr: str) -> float:
    import statistics

    return statistics.median(getattr(r, attr) for r in runs)


def load() -> str:
    a, b, c = os.getloadavg()
    return f"{a:.2f} {b:.2f} {c:.2f}"


def _in_process(runs: list[Run], field: int) -> float:
    """Median of the in-process search's own clock (``field`` 1: wall, 2: CPU)."""
    import statistics

    return statistics.median(float(r.out.split()[field]) for r in runs)


def compare(cases: list[Case], commands, counted, *, repeat: int, skip: set[str], csv: Path,
            warm_up: bool = False) -> int:
    """Run every case's commands in interleaved rounds and print the tables; the rows go to ``csv``.

    ``commands(case)``: name -> (argv, stdin, ok exit codes), ours first (:func:`ours`);
    ``counted(name, run)``: the count a run printed, checked against ``case.count`` at every run.
    Prints per case the median CPU and wall seconds of each command (the in-process search by its
    own clocks), then per case the ratios of ours to every peer, the best by CPU first: the whole
    process (CPU / wall) and the in-process search against the peer's whole process (CPU).
    """
    print(f"load average at the start: {load()}\n")
    print("| case | tilings | program | CPU s | wall s |")
    print("|---|---:|---|---:|---:|")
    lines = ["case,count,program,cpu_s,wall_s"]
    summary: list[str] = []
    versions: list[str] = []
    files: list[str] = []
    for case in cases:
        cmds = {k: v for k, v in commands(case).items() if k not in skip}

        def check(name, run, case=case):
            got = counted(name, run)
            if got != case.count:
                raise SystemExit(f"WRONG COUNT: {name} on {case.label}: {got}, expected {case.count}")

        if warm_up:
            rounds({k: cmds[k] for k in list(cmds)[:1]}, 1, check)  # a warm-up of ours (disk caches)
        runs = rounds(cmds, repeat, check)
        for name, rs in runs.items():
            cpu, wall = median(rs, "cpu"), median(rs, "wall")
            if name.removeprefix(PREVIOUS) == "in-process search":  # timed inside: its own clocks
                cpu, wall = _in_process(rs, 2), _in_process(rs, 1)
            print(f"| {case.label} | {case.count} | {name} | {cpu:.4f} | {wall:.4f} |")
            lines.append(f"{case.label},{case.count},{name},{cpu:.5f},{wall:.5f}")
        if PREVIOUS + "in-process search" in runs:
            was = (median(runs[PREVIOUS + "ubongo-cp solve --count"], "cpu"),
                   _in_process(runs[PREVIOUS + "in-process search"], 2))
            now = (median(runs["ubongo-cp solve --count"], "cpu"), _in_process(runs["in-process search"], 2))
            versions.append(f"| {case.label} | {now[0] / was[0]:.3f} | {now[1] / was[1]:.3f} |")
        peer_names = [n for n in runs if n not in ("ubongo-cp solve --count", "in-process search", FILE_COMMAND)
                      and not n.startswith(PREVIOUS)]
        if peer_names:
            whole = runs["ubongo-cp solve --count"]
            for peer in sorted(peer_names, key=lambda n: median(runs[n], "cpu")):  # the best (by CPU) first
                pcpu, pwall = median(runs[peer], "cpu"), median(runs[peer], "wall")
                summary.append(f"| {case.label} | {peer} | {median(whole, 'cpu') / pcpu:.2f} / "
                               f"{median(whole, 'wall') / pwall:.2f} | {_in_process(runs['in-process search'], 2) / pcpu:.2f} |")
            knuth = [n for n in peer_names if n in ("DLX1", "SSXCC", "DLX3", "SSMCC")]
            if FILE_COMMAND in runs and knuth:   # the same file for both
                kbest = min(knuth, key=lambda n: median(runs[n], "cpu"))
                mine = runs[FILE_COMMAND]
                files.append(f"| {case.label} | {kbest} | {median(mine, 'cpu') / median(runs[kbest], 'cpu'):.2f} / "
                             f"{median(mine, 'wall') / median(runs[kbest], 'wall'):.2f} |")
    print("\n| case | peer (the best by CPU first) | whole process, ours / peer (CPU / wall) | search in-process / "
          "peer's whole process (CPU) |\n|---|---|---:|---:|")
    print("\n".join(summary))
    if files:
        print("\n| case | Knuth's best program on the file (CPU) | `exact-cover FILE --count` / it (CPU / wall) |\n"
              "|---|---|---:|")
        print("\n".join(files))
    if versions:
        print("\n| case | whole process, this version / the previous (CPU) | search in-process (CPU) |\n"
              "|---|---:|---:|")
        print("\n".join(versions))
    csv.write_text("\n".join(lines) + "\n")
    print(f"\nmedians of {repeat} interleaved rounds; load average at the end: {load()} (2 cores, shared)")
    return 0


def exact_cover_peers(case: Case, built: dict, *, multiplicities: bool) -> dict:
    """Our commands and the exact-cover peers built on ``case``: name -> (argv, stdin, ok exit codes).

    With ``multiplicities``: DLX3 and SSMCC (a type's copies one item ``[k..k]``); else DLX1, SSXCC
    and ``miniexact -x`` (copies expanded). ``miniexact -m`` is not run: on two tetromino sets in 8x5
    (3,106 tilings) it had not finished after 5 minutes, printing rows of 10 option numbers at about
    7 MB/s.
    """
    out = {name: (argv, None, (0,)) for name, argv in ours(case, Path(sys.executable),
                                                           Path(sys.executable).parent / "ubongo-cp").items()}
    inst = case.instance()
    text = knuth_text(inst, multiplicities=multiplicities)
    for name in ("dlx3", "ssmcc") if multiplicities else ("dlx1", "ssxcc"):
        if isinstance(built.get(name), Path):
            out[name.upper()] = ([built[name]], text, (0,))
    if not multiplicities:  # the peers' own file, its cells row by row, read by `ubongo-cp exact-cover`
        path = ROOT / "benchmarks" / "out" / "cases" / f"{case.label}.dlx"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        out[FILE_COMMAND] = ([Path(sys.executable).parent / "ubongo-cp", "exact-cover", path, "--count",
                              "--max-solutions", "0", "--no-progress"], None, (0,))
    if not multiplicities and isinstance(built.get("miniexact"), Path):
        path = ROOT / "benchmarks" / "out" / "cases" / f"{case.label}.mx"
        path.write_text(miniexact_text(inst))
        out["miniexact -x"] = ([built["miniexact"], "-x", "-e", path], None, MINIEXACT_OK)
    return out


def counted(name: str, run: Run) -> int:
    """The count any program of the benchmarks printed (ours, sugyan's, Knuth's, miniexact)."""
    if name.startswith("sugyan"):
        return int(run.out.split()[0])
    if name in ("DLX1", "DLX3", "SSXCC", "SSMCC"):
        return knuth_count(run.err)
    if name.startswith("miniexact"):
        return miniexact_count(run.out)
    return our_count(name, run)
