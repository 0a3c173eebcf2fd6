"""Benchmark: ``ubongo-cp analyze`` against the C++ analyzer of ubongo-utils and SSXCC, whole process, same answers.

Run: ``.venv/bin/python -m benchmarks.bench_cpp_analyze [--analyzer PATH | --source GITDIR] [--repeat N]``.

The peer is ``ubongo-analyze-duel`` of ubongo-utils 1.1 (M. Kasahara,
https://github.com/m-kasahr/ubongo-utils): for every K-subset of the 21
Duel pieces whose area equals the board's it runs its backtracking solver
to the last solution, and prints ``* A C P ; solutions=1`` per tiling
subset. Its "solutions" are the distinct tilings of the fixed board by the
labelled pieces (first empty cell in reading order, every orientation the
piece's own symmetry leaves distinct): no reduction by the board's
symmetry, the same count as ours (rule UP-5).

1. **The C++ analyzer**: ``--analyzer PATH`` to a built
   ``ubongo-analyze-duel``, or ``--source GITDIR`` (default: the mirror
   :data:`MIRROR` when it exists) cloned into ``benchmarks/out/ubongo-utils``
   and built there once (``./configure --disable-shared``, so that the
   program is the binary itself and not a libtool wrapper script; then
   ``make`` of the library and of that one program, with the package's own
   ``-g -O3``). Two stand-ins make it build on a current toolchain without
   Ruby, both written into the build folder only: the header
   ``pieceset_duel.h`` that the package generates with Ruby from
   ``data/duel/*.piece`` is written from the same files when ``ruby`` is
   missing, and the out-of-class definitions of ``Board::blank`` and
   ``Board::unavailable`` that GCC 12 needs at link time (they are used by
   reference, ``std::vector::resize``) are compiled from a two-line file.
2. **Same pieces**: each of our 21 Duel pieces (``ubongo_cp/data/pieces/
   duel.txt``) is drawn as a board and given to the C++ analyzer with
   K = 1: it must answer exactly the piece of the same name, in one way
   (so its symmetric orientations are not counted twice either). With the source tree at hand the
   ``data/duel/*.piece`` files are also compared cell for cell.
3. **Cases**, each region written for each tool in its own format (ours: a
   region file; C++: a board of ``#`` and ``.`` only, since any other
   character makes it read an empty board without an error): the shipped
   ``duel_board1`` (16 cells) K = 3, a 22-cell region K = 4, the 4x7
   rectangle (28 cells) K = 5, an irregular 28-cell region with no symmetry
   K = 5, and the 5x7 rectangle without its four corners (31 cells) K = 6.
   Both outputs are parsed; the tiling subsets and each one's count must be
   equal, or the run stops with the differences.
4. **SSXCC** (Knuth's, built by :func:`benchmarks.peers.build_knuth` where
   ``ctangle`` is found) on the *one-search instance*: every Duel piece an
   optional (secondary) item, the region's cells primary, so that it lists
   every tiling by any subset, of any size; its count must equal ours for
   the same instance (:func:`ubongo_cp.solvers.solve`). ``ubongo-cp
   analyze`` answers the K-subset question on that instance (its search
   cuts the covers of other sizes): the question the designer asks.
5. **Times**: whole-process CPU and wall seconds of ``ubongo-cp analyze
   --pieces duel --region R --k K`` (the console script), of
   ``ubongo-analyze-duel BOARD K`` and of SSXCC, one warm-up of each, then
   ``--repeat`` rounds in which every case runs every tool (interleaved: the
   order of the cases rotates and the tools' order rotates from round to
   round, so no figure always follows the same long run); medians.

Prints a markdown table (case, cells, K, subsets solvable, solutions,
ubongo-cp CPU/wall, C++ CPU/wall, SSXCC CPU/wall, ratios ours / C++ and ours
/ SSXCC in CPU) and the load average, and writes it to
``benchmarks/out/cpp_analyze.csv``. Every file goes under
``benchmarks/out/`` (untracked).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "out"
BIN = Path(sys.executable).parent
MIRROR = Path("/work/.mirror/m-kasahr+ubongo-utils/repo/.git")
BUILD = OUT / "ubongo-utils"
PROGRAM = "ubongo-analyze-duel"

#: (label, region file or ASCII rows, K).
CASES = [
    ("duel_board1", ROOT / "puzzles" / "examples" / "duel_board1.txt", 3),
    ("22-cell region", None, 4),  # bench_startup.REGION_22, the start-up benchmark's region
    ("4x7 rectangle", ROOT / "benchmarks" / "results" / "region_4x7.txt", 5),
    ("28-cell irregular region", "..#####\n.######\n#######\n######.\n####...\n", 5),
    ("5x7 without its corners", ".#####.\n#######\n#######\n#######\n.#####.\n", 6),
]

# Build stand-ins (see the module docstring, step 1): not code of ubongo-utils.
_ODR_DEFINITIONS = '#include "ubongo/board.h"\nconst char Ubongo::Board::blank;\nconst char Ubongo::Board::unavailable;\n'

_CPP_SUBSET = re.compile(r"^\*\s+([A-Za-z ]+?)\s*;\s*solutions=(\d+)\s*$")
_CPP_PUZZLES = re.compile(r"^;\s*puzzles=(\d+)\s*$")
_OURS_SUMMARY = re.compile(r"^(\d+) of (\d+) area-matching (\d+)-subsets tile the (\d+)-cell region "
                           r"\((\d+) solutions\)")


def parse_cpp(text: str) -> dict[tuple[str, ...], int]:
    """Tiling subsets of a ubongo-utils analyzer output: {sorted piece names: solutions}.

    Lines ``* A C P ; solutions=N`` are the subsets; the closing
    ``; puzzles=M`` must equal their number. The board dump and other
    ``;`` comments are skipped.

    Raises
    ------
    ValueError
        When the ``; puzzles=`` line is missing or disagrees with the subsets.
    """
    subsets: dict[tuple[str, ...], int] = {}
    declared = None
    for line in text.splitlines():
        if m := _CPP_SUBSET.match(line):
            subsets[tuple(sorted(m.group(1).split()))] = int(m.group(2))
        elif m := _CPP_PUZZLES.match(line):
            declared = int(m.group(1))
    if declared is None or declared != len(subsets):
        raise ValueError(f"C++ output declares puzzles={declared} but lists {len(subsets)} subsets")
    return subsets


def parse_ours(text: str) -> dict[tuple[str, ...], int]:
    """Tiling subsets of ``ubongo-cp analyze``'s table: {sorted piece names: count}.

    The rows between the ``pieces  count`` header and the summary line
    ``S of M area-matching K-subsets tile the N-cell region (T solutions)``;
    S and T must equal the number of rows and the sum of their counts.

    Raises
    ------
    ValueError
        When the summary is missing or disagrees with the rows.
    """
    subsets: dict[tuple[str, ...], int] = {}
    for line in text.splitlines():
        if m := _OURS_SUMMARY.match(line):
            if int(m.group(1)) != len(subsets) or int(m.group(5)) != sum(subsets.values()):
                raise ValueError(f"ubongo-cp summary {line!r} disagrees with its {len(subsets)} rows")
            return subsets
        words = line.split()
        if len(words) >= 2 and words[-1].isdigit():
            subsets[tuple(sorted(words[:-1]))] = int(words[-1])
    raise ValueError("no summary line in the ubongo-cp analyze output")


def differences(ours: dict, theirs: dict, limit: int = 5) -> list[str]:
    """What differs between two {subset: count} answers (at most ``limit`` lines each kind)."""
    out = []
    only_ours = sorted(set(ours) - set(theirs))
    only_theirs = sorted(set(theirs) - set(ours))
    counts = sorted(s for s in set(ours) & set(theirs) if ours[s] != theirs[s])
    if only_ours:
        out.append(f"{len(only_ours)} subsets only in ubongo-cp: {only_ours[:limit]}")
    if only_theirs:
        out.append(f"{len(only_theirs)} subsets only in C++: {only_theirs[:limit]}")
    if counts:
        out.append(f"{len(counts)} counts differ: " + ", ".join(f"{' '.join(s)} {ours[s]} vs {theirs[s]}"
                                                                  for s in counts[:limit]))
    return out


def _run(argv: list, cwd: Path = ROOT, stdin: str | None = None) -> tuple[float, str, float, str]:
    """(wall seconds, standard output, CPU seconds, standard error) of one whole process."""
    from benchmarks.peers import measure

    run = measure(argv, stdin=stdin, cwd=cwd)
    return run.wall, run.out, run.cpu, run.err


def _step(argv: list, cwd: Path, log: Path) -> None:
    with log.open("a") as fh:
        if subprocess.run(argv, cwd=cwd, stdout=fh, stderr=subprocess.STDOUT).returncode != 0:
            raise SystemExit(f"building ubongo-utils failed at `{' '.join(map(str, argv))}`: see {log}")


def _duel_header(data: Path) -> str:
    """``pieceset_duel.h`` from ``data/duel``, in the form the package's Ruby generator gives it."""
    files = sorted(data.glob("?.piece"))
    flip = (data / "piece-flip-flag").read_text().strip() != "false"
    rows = "".join('                Piece("%s"),\n' % f.read_text().replace("\n", "\\n") for f in files)
    return ("#ifndef UBONGO_PIECESET_DUEL_H\n#define UBONGO_PIECESET_DUEL_H\n\n#include \"ubongo/pieceset.h\"\n\n"
            "namespace Ubongo {\n    class PieceSet_Duel : public PieceSet {\n    public:\n"
            "        PieceSet_Duel()\n            : PieceSet() {\n            static const Piece pieces[] = {\n"
            f"{rows}            }};\n            set_components(pieces, {len(files)}, {str(flip).lower()});\n"
            "        }\n    };\n}\n\n#endif\n")


def build(source: Path) -> Path:
    """Clone ``source`` into :data:`BUILD` and build ``ubongo-analyze-duel`` once; its path."""
    program = BUILD / "utils" / PROGRAM
    if program.exists():
        return program
    missing = [tool for tool in ("git", "g++", "make") if shutil.which(tool) is None]
    if missing:
        raise SystemExit(f"cannot build ubongo-utils: {', '.join(missing)} not found (or give --analyzer PATH)")
    OUT.mkdir(parents=True, exist_ok=True)
    log = OUT / "ubongo-utils-build.log"
    log.write_text("")
    if not (BUILD / "configure").exists():
        _step(["git", "clone", "-q", str(source), str(BUILD)], OUT, log)
    if not (BUILD / "Makefile").exists():
        _step(["./configure", "-q", "--disable-shared"], BUILD, log)
    lib = BUILD / "lib" / "ubongo"
    if shutil.which("ruby") is None:
        (lib / "pieceset_duel.h").write_text(_duel_header(BUILD / "data" / "duel"))
    (BUILD / "odr_definitions.cpp").write_text(_ODR_DEFINITIONS)
    _step(["g++", "-O2", "-Ilib", "-c", "odr_definitions.cpp", "-o", "odr_definitions.o"], BUILD, log)
    _step(["make", "-C", str(lib), "libubongo.la"], BUILD, log)
    _step(["make", "-C", "utils", PROGRAM, f"LIBS={BUILD / 'odr_definitions.o'}"], BUILD, log)
    return program


def _analyzer(args) -> tuple[Path, Path | None]:
    """The C++ program and, when known, its ``data/duel`` folder."""
    if args.analyzer:
        path = Path(args.analyzer).resolve()
        if not os.access(path, os.X_OK):
            raise SystemExit(f"--analyzer {path}: not an executable file")
        return path, None
    source = Path(args.source) if args.source else MIRROR
    if not source.exists() and not (BUILD / "utils" / PROGRAM).exists():
        raise SystemExit(f"no C++ analyzer: give --analyzer PATH to a built {PROGRAM}, or --source GITDIR of "
                         f"m-kasahr/ubongo-utils ({source} does not exist)")
    program = build(source)
    return program, BUILD / "data" / "duel"


def _ssxcc():
    """Knuth's SSXCC (:func:`benchmarks.peers.build_knuth`): its path, or why it could not be built."""
    from benchmarks.peers import build_knuth

    return build_knuth()["ssxcc"]


def _one_search(region: Path) -> tuple[str, int]:
    """The one-search instance of the Duel pieces in ``region`` in Knuth's format, and its number of covers."""
    from benchmarks.peers import knuth_text
    from ubongo_cp.cover import build_instance
    from ubongo_cp.pieces import load_pieces, load_region
    from ubongo_cp.solvers import solve

    inst = build_instance(load_pieces("duel").pieces, load_region(region), optional_pieces=True)
    return knuth_text(inst, multiplicities=False), solve(inst, keep=0, reduce=False).count


def _check_ssxcc(label: str, report: str, expected: int) -> None:
    from benchmarks.peers import knuth_count

    if knuth_count(report) != expected:
        raise SystemExit(f"DISAGREEMENT on {label}: SSXCC counts {knuth_count(report)} covers, we {expected}")


def check_pieces(program: Path, data: Path | None, work: Path) -> str:
    """Verify that the C++ analyzer's Duel pieces are ours (see the module docstring, step 2)."""
    from ubongo_cp.geometry import format_grid, normalize
    from ubongo_cp.pieces import load_pieces

    ours = load_pieces("duel")
    for piece in ours:
        board = work / f"piece-{piece.name}.board"
        board.write_text(format_grid(piece.cells) + "\n")
        answer = parse_cpp(_run([program, board, 1])[1])
        expected = {(piece.name,): 1}
        if answer != expected:
            raise SystemExit(f"DIFFERENT PIECES: the C++ analyzer tiles our piece {piece.name} by {answer}, "
                             f"expected {expected}")
    note = f"each of our {len(ours)} Duel pieces, as a board, is tiled by its namesake alone, in one way"
    if data is not None and data.exists():
        theirs = {f.stem: normalize((r, c) for r, row in enumerate(f.read_text().splitlines())
                                    for c, ch in enumerate(row) if ch not in ". ")
                  for f in sorted(data.glob("?.piece"))}
        same = sum(theirs.get(p.name) == p.cells for p in ours)
        note += f"; {same} of {len(ours)} drawn cell for cell as its data/duel/{{A..U}}.piece ({len(theirs)} files)"
    return note


def cases(work: Path) -> list[tuple[str, int, int, Path, Path]]:
    """(label, cells, K, our region file, C++ board file) of each case."""
    from benchmarks.bench_startup import REGION_22
    from ubongo_cp.geometry import format_grid
    from ubongo_cp.pieces import load_region

    out = []
    for n, (label, region, k) in enumerate(CASES):
        if not isinstance(region, Path):
            text = region if region is not None else REGION_22
            region = work / f"case{n}.txt"
            region.write_text(text)
        parsed = load_region(region)
        board = work / f"case{n}.board"
        board.write_text(format_grid(parsed.cells) + "\n")
        out.append((label, parsed.area, k, region, board))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--analyzer", metavar="PATH", help=f"a built {PROGRAM}")
    which.add_argument("--source", metavar="GITDIR", help=f"ubongo-utils git repository to build (default {MIRROR})")
    parser.add_argument("--repeat", type=int, default=5, help="interleaved rounds (median; default 5)")
    args = parser.parse_args(argv)
    cli = BIN / "ubongo-cp"
    if not cli.exists():
        raise SystemExit(f"{cli} not found: run `make install` first")
    program, data = _analyzer(args)
    work = OUT / "cpp_analyze"
    work.mkdir(parents=True, exist_ok=True)
    load0 = os.getloadavg()
    print(f"C++ analyzer: {program}\nload average at the start: {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}")
    print("pieces:", check_pieces(program, data, work))

    todo = cases(work)
    ssxcc = _ssxcc()
    print(f"SSXCC: {ssxcc if isinstance(ssxcc, str) else 'built'}")
    commands, one_search = {}, {}
    for label, _, k, region, board in todo:
        commands[label] = [([cli, "analyze", "--pieces", "duel", "--region", region, "--k", k], None),
                           ([program, board, k], None)]
        if not isinstance(ssxcc, str):
            text, count = _one_search(region)
            commands[label].append(([ssxcc], text))
            one_search[label] = count
    answers = {}
    for label, cmds in commands.items():  # warm-up, and the agreement checks
        ours, theirs = parse_ours(_run(cmds[0][0])[1]), parse_cpp(_run(cmds[1][0])[1])
        if diff := differences(ours, theirs):
            raise SystemExit(f"DISAGREEMENT on {label}: " + "; ".join(diff))
        answers[label] = ours
        if len(cmds) > 2:
            _check_ssxcc(label, _run(cmds[2][0], stdin=cmds[2][1])[3], one_search[label])
    print(f"agreement: both analyzers list the same tiling subsets with the same counts in all {len(todo)} cases"
          + ("; SSXCC counts the one-search instance's covers as we do" if one_search else ""))

    times: dict = {label: [[] for _ in cmds] for label, cmds in commands.items()}
    labels = list(commands)
    for round_ in range(args.repeat):  # cases rotated, and the tools' order rotated, round by round
        for label in labels[round_ % len(labels):] + labels[:round_ % len(labels)]:
            sides = list(range(len(commands[label])))
            for side in sides[round_ % len(sides):] + sides[:round_ % len(sides)]:
                argv, stdin = commands[label][side]
                wall, _, cpu, err = _run(argv, stdin=stdin)
                if side == 2:
                    _check_ssxcc(label, err, one_search[label])
                times[label][side].append((cpu, wall))

    print("\n| case | cells | K | subsets solvable | solutions | ubongo-cp CPU / wall s | C++ CPU / wall s | "
          "ours / C++ (CPU) | SSXCC, one search: covers | SSXCC CPU / wall s | ours / SSXCC (CPU) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    lines = ["case,cells,k,subsets_solvable,solutions,ubongo_cp_cpu,ubongo_cp_wall,cpp_cpu,cpp_wall,ratio_cpp,"
             "ssxcc_covers,ssxcc_cpu,ssxcc_wall,ratio_ssxcc"]
    for label, cells, k, _, _ in todo:
        (oc, ow), (cc, cw), *rest = [(statistics.median(c for c, _ in s), statistics.median(w for _, w in s))
                                     for s in times[label]]
        n, total = len(answers[label]), sum(answers[label].values())
        sx = f"{one_search[label]} | {rest[0][0]:.3f} / {rest[0][1]:.3f} | {oc / rest[0][0]:.2f}" if rest else \
            "— | — | —"
        print(f"| {label} | {cells} | {k} | {n} | {total} | {oc:.3f} / {ow:.3f} | {cc:.3f} / {cw:.3f} | "
              f"{oc / cc:.2f} | {sx} |")
        lines.append(f'"{label}",{cells},{k},{n},{total},{oc:.4f},{ow:.4f},{cc:.4f},{cw:.4f},{oc / cc:.3f},'
                     + (f"{one_search[label]},{rest[0][0]:.4f},{rest[0][1]:.4f},{oc / rest[0][0]:.3f}" if rest else ",,,"))
    (OUT / "cpp_analyze.csv").write_text("\n".join(lines) + "\n")
    load1 = os.getloadavg()
    print(f"\nmedian of {args.repeat} interleaved whole-process runs; load average at the end: "
          f"{load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f} (2 cores, shared)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
