"""Benchmark: counts with identical pieces on the default solver against Knuth's DLX3 and SSMCC.

Run: ``.venv/bin/python -m benchmarks.bench_copies [--repeat N] [--cases A,B] [--source-* GITDIR]``.

Cases (a piece type with ``k`` copies is one item with multiplicity ``k``
in every program: Knuth's Algorithm M): two sets of the five tetrominoes in
8x5 (3,106 tilings), 20 L pentominoes and 20 P pentominoes in 10x10 (3,952
and 378,268), 20 P in 5x20 (59,646), 52 T tetrominoes in 16x13 (none: the
band's sides are not both multiples of 4), and 32 dominoes in 8x8
(12,988,816, the default solver only: the peers would run for minutes).
Counts are checked at every run. In interleaved rounds: ``ubongo-cp solve
--count`` (whole process), the same search timed inside a process, DLX3
and SSMCC where they could be built (:mod:`benchmarks.peers`;
``miniexact -m`` is not run, see :func:`benchmarks.peers.exact_cover_peers`).
Prints median CPU and wall seconds and the ratios of ours to every peer;
writes ``benchmarks/out/bench_copies.csv``. With ``--compare-with DIR`` (a
checkout of an earlier revision, its C extensions built in place), our two
commands also run on it in the same rounds (:func:`benchmarks.peers.previous`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from benchmarks import peers
from benchmarks.peers import PEERS, Case

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "benchmarks" / "out"
SLOW_FOR_PEERS = {"I2x32-8x8"}


def cases() -> list[Case]:
    from ubongo_cp.pieces import Region, load_pieces

    classic = load_pieces("classic")
    tet = load_pieces("tetrominoes")
    two_sets = classic.select("I4,I4,O4,O4,T4,T4,S4,S4,L4,L4".split(","))
    return [
        Case("tet2-8x5", two_sets, Region.rectangle(8, 5), 3106),
        Case("L20-10x10", [classic["L5"]] * 20, Region.rectangle(10, 10), 3952),
        Case("P20-10x10", [classic["P5"]] * 20, Region.rectangle(10, 10), 378268),
        Case("P20-5x20", [classic["P5"]] * 20, Region.rectangle(5, 20), 59646),
        Case("T52-16x13", [tet["T"]] * 52, Region.rectangle(16, 13), 0),
        Case("I2x32-8x8", [classic["I2"]] * 32, Region.rectangle(8, 8), 12988816),
    ]


def commands(case: Case, built: dict, before: Path | None = None) -> dict:
    """name -> (argv, stdin, ok exit codes[, environment]) of every program on ``case`` (ours alone on the slow
    ones); with ``before``, our commands on that checkout of an earlier revision too."""
    out = peers.exact_cover_peers(case, built if case.label not in SLOW_FOR_PEERS else {}, multiplicities=True)
    if before is not None:
        out.update(peers.previous(case, before))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="interleaved rounds (medians; default 5)")
    parser.add_argument("--cases", help="comma-separated case labels (default: all)")
    parser.add_argument("--skip", default="", help="comma-separated program names not to run")
    parser.add_argument("--compare-with", metavar="DIR", type=Path,
                        help="also run our two commands on this checkout of an earlier revision (its C extensions "
                             "built in place: python setup.py build_ext --inplace)")
    parser.add_argument("--source-knuth", type=Path, help="git repository of Knuth's programs (default: the mirror)")
    parser.add_argument("--source-cweb", type=Path,
                        help="git repository of CWEB, to build ctangle when none is on the PATH (default: the mirror)")
    args = parser.parse_args(argv)
    built = peers.build_knuth(args.source_knuth, args.source_cweb)
    print(f"peers in {PEERS}:")
    for name, what in built.items():
        if name in ("dlx3", "ssmcc"):
            print(f"  {name}: {'built' if isinstance(what, Path) else 'not built: ' + what}")
    todo = [c for c in cases() if not args.cases or c.label in args.cases.split(",")]
    before = args.compare_with.resolve() if args.compare_with else None
    return peers.compare(todo, lambda case: commands(case, built, before), peers.counted, repeat=args.repeat,
                         skip=set(args.skip.split(",")) - {""}, csv=OUT / "bench_copies.csv")


if __name__ == "__main__":
    raise SystemExit(main())
