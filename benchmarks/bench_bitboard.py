"""Benchmark: pentomino counts on the default solver against the bitboard solver and Knuth's programs.

Run: ``.venv/bin/python -m benchmarks.bench_bitboard [--repeat N] [--cases A,B] [--source-* GITDIR]``.

Cases (counts checked at every run, every program): the pentomino
rectangles 6x10, 5x12, 4x15, 3x20 and the 8x8 board without its central
2x2 (the five boards sugyan/pentomino knows), an irregular 60-cell region
with no symmetry (8x8 without four cells of its top row: 9,864 tilings),
the 12 pentominoes and the square tetromino in 8x8 (129,168) and the 18
one-sided pentominoes in 3x30 (184). For each case, in interleaved rounds
(every command once per round, the order rotated):

- ``ubongo-cp solve --pieces ... --region ... --count`` (the default solver,
  the whole process: interpreter, imports, instance, plan, search, output);
- the same search timed inside a process (instance built, engine and the
  driver's modules loaded before the clock: ``solve(instance, keep=0)``, the
  instance's checks, option permutations and symmetry plan inside it);
- the peers of :mod:`benchmarks.peers` that could be built: sugyan/pentomino's
  ``OptimizedSolver`` with its small and its large tables (X in one quadrant,
  then each solution's images; its ``DefaultSolver``, with no reduction and
  the first empty cell in reading order, needs minutes for 6x10 and is not
  run) on its five boards; Knuth's DLX1
  and SSXCC and miniexact (Algorithm X) on the instance in their formats
  (no reduction: they count every tiling);
- ``ubongo-cp exact-cover FILE --count`` on the file Knuth's programs read
  (its cells row by row, then the pieces; written to
  ``benchmarks/out/cases/CASE.dlx``): a last table gives its CPU over the
  faster of DLX1 and SSXCC on that file.

Prints, per case, the median CPU and wall seconds of each command and the
ratios of ours to every peer, the best first (CPU; wall), with the load average; writes
``benchmarks/out/bench_bitboard.csv``. With ``--compare-with DIR`` (a
checkout of an earlier revision, its C extensions built in place), our two
commands run on it too, in the same rounds, and a last table gives this
version's CPU over the earlier one's.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from benchmarks import peers
from benchmarks.peers import PEERS, Case

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "out"
SUGYAN_BOARDS = {"6x10": "6x10", "5x12": "5x12", "4x15": "4x15", "3x20": "3x20", "8x8-2x2": "8x8-2x2"}


def cases() -> list[Case]:
    """The cases of the module docstring, with their published or independently checked counts."""
    from ubongo_cp.geometry import transform
    from ubongo_cp.pieces import Piece, Region, load_pieces

    pents = list(load_pieces("pentominoes").pieces)
    o4 = load_pieces("classic")["O4"]
    one_sided = []
    for p in pents:
        one_sided.append(p)
        mirror = Piece(p.name + "m", transform(p.cells, (1, 0, 0, -1)))
        if min(mirror.orientations("one-sided")) != min(p.orientations("one-sided")):
            one_sided.append(mirror)
    square = [(r, c) for r in range(8) for c in range(8)]
    return [
        Case("6x10", pents, Region.rectangle(6, 10), 9356),
        Case("5x12", pents, Region.rectangle(5, 12), 4040),
        Case("4x15", pents, Region.rectangle(4, 15), 1472),
        Case("3x20", pents, Region.rectangle(3, 20), 8),
        Case("8x8-2x2", pents, Region(tuple(c for c in square if not (3 <= c[0] <= 4 and 3 <= c[1] <= 4))), 520),
        Case("8x8-notch", pents, Region(tuple(c for c in square if c[0] or c[1] >= 4)), 9864),
        Case("8x8+O4", [*pents, o4], Region.rectangle(8, 8), 129168),
        Case("one-sided-3x30", one_sided, Region.rectangle(3, 30), 184, mode="one-sided"),
    ]


def commands(case: Case, built: dict, before: Path | None = None) -> dict:
    """name -> (argv, stdin, ok exit codes[, environment]) of every program on ``case``; with ``before``, our
    commands on that checkout of an earlier revision too (:func:`benchmarks.peers.previous`)."""
    out = peers.exact_cover_peers(case, built, multiplicities=False)
    if before is not None:
        out.update(peers.previous(case, before))
    if case.label in SUGYAN_BOARDS and isinstance(built["sugyan"], Path):
        for solver in ("optimized-small", "optimized-large"):
            out[f"sugyan {solver}"] = ([built["sugyan"], SUGYAN_BOARDS[case.label], solver], None, (0,))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="interleaved rounds (medians; default 5)")
    parser.add_argument("--cases", help="comma-separated case labels (default: all)")
    parser.add_argument("--skip", default="", help="comma-separated program names not to run (e.g. miniexact -x)")
    parser.add_argument("--compare-with", metavar="DIR", type=Path,
                        help="also run our two commands on this checkout of an earlier revision (its C extensions "
                             "built in place: python setup.py build_ext --inplace)")
    for name in peers.MIRRORS:
        parser.add_argument(f"--source-{name}", type=Path, help=f"git repository of {name} (default: the mirror)")
    args = parser.parse_args(argv)
    built = {"sugyan": peers.build_sugyan(args.source_sugyan), "miniexact": peers.build_miniexact(args.source_miniexact),
             **peers.build_knuth(args.source_knuth, args.source_cweb)}
    print(f"peers in {PEERS}:")
    for name, what in built.items():
        print(f"  {name}: {'built' if isinstance(what, Path) else 'not built: ' + what}")
    todo = [c for c in cases() if not args.cases or c.label in args.cases.split(",")]
    before = args.compare_with.resolve() if args.compare_with else None
    return peers.compare(todo, lambda case: commands(case, built, before), peers.counted, repeat=args.repeat,
                         skip=set(args.skip.split(",")) - {""}, csv=OUT / "bench_bitboard.csv", warm_up=True)


if __name__ == "__main__":
    raise SystemExit(main())
