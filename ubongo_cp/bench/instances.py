"""Exact-cover instances from the literature, as Knuth-format matrices: Langford pairs, n queens, random.

The generators of the shipped ``knuth`` benchmark suite
(``ubongo_cp/data/bench/knuth/``); each returns an
:class:`~ubongo_cp.exactcover.ExactCoverMatrix`, written to a file with
:func:`~ubongo_cp.exactcover.knuth_text`. Their solution counts are
published (Langford pairs, n queens) or, for the random matrices, counted
when the suite was made and checked by the tests with an independent
search.

References
----------
.. [1] D. E. Knuth, *The Art of Computer Programming*, Vol. 4B, 7.2.2.1
   (2022): Langford pairs as exact cover (its (8)-(9)); the n queens
   problem with the diagonals as secondary items (its (23)).
.. [2] OEIS A014552 (Langford pairings, counted up to reversal) and A000170
   (n queens).
"""

from __future__ import annotations

import random

from ..exactcover import ExactCoverMatrix, exact_cover_matrix

__all__ = ["langford_pairs", "n_queens", "random_matrix", "LANGFORD_COUNTS", "QUEENS_COUNTS", "shipped_instances",
           "write_shipped"]

#: Langford pairings of 1..n counted up to reversal (OEIS A014552); an exact
#: cover of :func:`langford_pairs` counts each pairing and its reversal, so twice this.
LANGFORD_COUNTS = {1: 0, 2: 0, 3: 1, 4: 1, 5: 0, 6: 0, 7: 26, 8: 150, 9: 0, 10: 0, 11: 17792, 12: 108144}
#: Placements of n non-attacking queens on an n x n board (OEIS A000170).
QUEENS_COUNTS = {1: 1, 2: 0, 3: 0, 4: 2, 5: 10, 6: 4, 7: 40, 8: 92, 9: 352, 10: 724, 11: 2680, 12: 14200,
                 13: 73712}


def langford_pairs(n: int) -> ExactCoverMatrix:
    """Langford pairs of 1..n: place two copies of each k so that k numbers lie between them.

    Items ``1..n`` (the values) and ``s1..s2n`` (the slots), all primary;
    option ``k sj sl`` for ``l = j + k + 1`` (Knuth 7.2.2.1 (8)). Every
    pairing and its reversal are distinct covers: ``2 * LANGFORD_COUNTS[n]``.

    Examples
    --------
    >>> m = langford_pairs(3)
    >>> m.n_items, m.n_options, m.item_names[:4]
    (9, 9, ('1', '2', '3', 's1'))
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    values = [str(k) for k in range(1, n + 1)]
    slots = [f"s{j}" for j in range(1, 2 * n + 1)]
    options = [[str(k), f"s{j}", f"s{j + k + 1}"] for k in range(1, n + 1) for j in range(1, 2 * n - k)]
    return exact_cover_matrix(values + slots, [], options)


def n_queens(n: int) -> ExactCoverMatrix:
    """The n queens problem: rows and columns primary, the diagonals secondary.

    Items ``r1..rn`` and ``c1..cn`` (each covered once) and the secondary
    ``a2..a2n`` (``i + j``) and ``b<d>`` (``i - j``), each at most once
    (Knuth 7.2.2.1 (23)); option ``ri cj a(i+j) b(i-j)`` is a queen on
    row i, column j. ``QUEENS_COUNTS[n]`` covers.

    Examples
    --------
    >>> m = n_queens(4)
    >>> m.n_primary, m.n_secondary, m.n_options
    (8, 14, 16)
    """
    if n < 1:
        raise ValueError(f"n must be at least 1, got {n}")
    rows = [f"r{i}" for i in range(1, n + 1)]
    cols = [f"c{j}" for j in range(1, n + 1)]
    sums = [f"a{s}" for s in range(2, 2 * n + 1)]
    diffs = [f"b{d}" for d in range(1 - n, n)]
    options = [[f"r{i}", f"c{j}", f"a{i + j}", f"b{i - j}"] for i in range(1, n + 1) for j in range(1, n + 1)]
    return exact_cover_matrix(rows + cols, sums + diffs, options)


def random_matrix(n_items: int, planted: int, noise: int, *, seed: int, secondary: int = 0,
                  sizes: tuple[int, int] = (2, 5)) -> ExactCoverMatrix:
    """A random exact-cover matrix with ``planted`` covers hidden among ``noise`` random options.

    Each planted cover splits the primary items, shuffled, into options of
    ``sizes[0]..sizes[1]`` items; each noise option is a random set of as
    many items (secondary ones included). Options repeated are dropped.

    Parameters
    ----------
    n_items : int
        Primary items, named ``i1, i2, ...``.
    planted, noise : int
        Planted covers and random options.
    seed : int
        Seed of :class:`random.Random`: the same arguments give the same matrix.
    secondary : int
        Secondary items, named ``x1, x2, ...`` (only noise options use them).
    sizes : (int, int)
        Smallest and largest option size.

    Returns
    -------
    ExactCoverMatrix
        At least ``planted`` covers (distinct planted covers, plus any the
        noise makes); the count is found by search.

    Examples
    --------
    >>> m = random_matrix(12, 2, 10, seed=1)
    >>> m.n_primary, m.n_options <= 2 * 12 // 2 + 10
    (12, True)
    """
    rng = random.Random(seed)
    primary = [f"i{k}" for k in range(1, n_items + 1)]
    extra = [f"x{k}" for k in range(1, secondary + 1)]
    options: list[tuple[str, ...]] = []
    seen: set[frozenset[str]] = set()

    def add(option) -> None:
        key = frozenset(option)
        if key not in seen:
            seen.add(key)
            options.append(tuple(option))

    for _ in range(planted):
        items = primary[:]
        rng.shuffle(items)
        while items:
            size = min(len(items), rng.randint(*sizes))
            if 0 < len(items) - size < sizes[0]:
                size = len(items)  # no leftover smaller than the smallest option
            add(sorted(items[:size], key=_natural))
            items = items[size:]
    for _ in range(noise):
        size = rng.randint(*sizes)
        chosen = rng.sample(primary, max(1, size - (1 if extra and rng.random() < 0.5 else 0)))
        if extra and len(chosen) < size:
            chosen.append(rng.choice(extra))
        add(sorted(chosen, key=_natural))
    order = list(range(len(options)))
    rng.shuffle(order)  # planted covers are not listed first
    return exact_cover_matrix(primary, extra, [options[k] for k in order])


def _natural(name: str) -> tuple[str, int]:
    return name[0], int(name[1:])


def shipped_instances() -> dict[str, tuple[str, ExactCoverMatrix]]:
    """The files of the shipped ``knuth`` suite: file name -> (title, matrix).

    ``python -m ubongo_cp.bench.instances DIR`` writes them (:func:`write_shipped`).
    """
    out = {f"langford{n}.dlx": (f"Langford pairs, n = {n} (Knuth 7.2.2.1 (8))", langford_pairs(n))
           for n in (3, 4, 5, 7, 8, 11)}
    out.update({f"queens{n}.dlx": (f"{n} queens, diagonals secondary (Knuth 7.2.2.1 (23))", n_queens(n))
                for n in (4, 5, 6, 8, 10, 12)})
    for n, planted, noise, seed, secondary in ((24, 3, 40, 1, 0), (30, 4, 60, 2, 4), (40, 5, 120, 3, 4)):
        title = (f"random_matrix({n}, {planted}, {noise}, seed={seed}, secondary={secondary}): {planted} planted "
                 f"covers among {noise} random options")
        out[f"random{n}.dlx"] = (title, random_matrix(n, planted, noise, seed=seed, secondary=secondary))
    return out


def write_shipped(directory) -> list:
    """Write :func:`shipped_instances` into ``directory``; returns the paths."""
    from pathlib import Path

    from ..exactcover import knuth_text
    from ..io import atomic_write_text

    paths = []
    for name, (title, matrix) in shipped_instances().items():
        path = Path(directory) / name
        atomic_write_text(path, knuth_text(matrix, comments=[title, "generated by ubongo_cp.bench.instances"]).text)
        paths.append(path)
    return paths


if __name__ == "__main__":
    import sys

    for written in write_shipped(sys.argv[1] if len(sys.argv) > 1 else "."):
        print(written)
