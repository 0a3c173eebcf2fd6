"""The counting kernel of :mod:`ubongo_cp.polyominoes`: Redelmeier's search compiled with numba.

Private: :func:`ubongo_cp.polyominoes.count_polyominoes` is the interface.
The loop is ``polyominoes._enumerate`` step for step (same tree, same order,
hence the same shards) and the leaf test is ``polyominoes._leaf``; instead of
yielding, each wanted leaf is tallied in ``hist[rows, cols, symmetry order,
holes]``. Tests compare the two on every shard of several enumerations.
Compiled on first use and cached by numba (``cache=True``).

References
----------
.. [1] D. H. Redelmeier, "Counting polyominoes: yet another attack",
   *Discrete Mathematics* 36 (1981), 191-203.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["count_leaves"]


@njit(cache=True)
def _insertion_sort(a, k):  # pragma: no cover - compiled
    """Sort ``a[:k]`` in place (k is small: no allocation, unlike np.sort)."""
    for i in range(1, k):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


@njit(cache=True)
def count_leaves(n, m, box_a, box_b, free, holes, pick, deal, cut, syms, hist):  # pragma: no cover - compiled
    """Run the search; tally the wanted leaves in ``hist``; return the number of leaves met.

    Parameters
    ----------
    n : int
        Cells.
    m : int
        Extent bound of the grid (``polyominoes._Grid.m``).
    box_a, box_b : int
        Box rows and columns (0, 0: no box).
    free : bool
        Canonical leaves only, box in either orientation.
    holes : bool
        Keep leaves with holes.
    pick, deal, cut : int
        Shard index, shard count, sharding depth (0: no sharding).
    syms : int64 array (8, 4)
        :data:`ubongo_cp.geometry.SYMMETRIES`.
    hist : int64 array (n + 2, n + 2, 9, n + 1)
        Tallies by rows, columns, symmetry order (0 when not ``free``) and holes.
    """
    W = 2 * m + 1
    seen = np.ones((m + 2) * W, np.uint8)
    for r in range(m):
        for q in range(-(m - 1), m):
            if r > 0 or q >= 0:
                seen[(r + 1) * W + q + m] = 0
    origin = W + m
    stack = np.zeros(4 * n + 4, np.int64)
    end = np.zeros(n + 1, np.int64)
    pos = np.zeros(n + 1, np.int64)
    cells = np.zeros(n, np.int64)
    maxr = np.zeros(n + 1, np.int64)
    minq = np.zeros(n + 1, np.int64)
    maxq = np.zeros(n + 1, np.int64)
    rows = np.zeros(n, np.int64)
    cols = np.zeros(n, np.int64)
    base = np.zeros(n, np.int64)
    image = np.zeros(n, np.int64)
    occ = np.zeros((n + 3) * (n + 3), np.uint8)
    corner = np.zeros((n + 3) * (n + 3), np.uint8)
    minq[0], maxq[0], maxr[0] = 1 << 30, -(1 << 30), -1
    dealt = 0
    stack[0] = origin
    seen[origin] = 1
    pos[0], end[0] = 0, 1
    level = 0
    leaves = 0
    while level >= 0:
        i = pos[level]
        if i >= end[level]:
            level -= 1
            if level >= 0:
                for j in range(end[level], end[level + 1]):
                    seen[stack[j]] = 0
            continue
        c = stack[i]
        pos[level] = i + 1
        r = c // W
        q = c % W
        hi_r = max(r, maxr[level])
        lo_q = min(q, minq[level])
        hi_q = max(q, maxq[level])
        h = hi_r
        w = hi_q - lo_q + 1
        if box_a > 0 and not ((h <= box_a and w <= box_b) or (free and h <= box_b and w <= box_a)):
            continue
        cells[level] = c
        if level + 1 == cut:
            dealt += 1
            if (dealt - 1) % deal != pick:
                continue
        if level + 1 == n:
            leaves += 1
            if free and h > w:
                continue
            for t in range(n):
                rows[t] = cells[t] // W - 1
                cols[t] = cells[t] % W - lo_q
                base[t] = rows[t] * n + cols[t]
            _insertion_sort(base, n)
            order = 0
            wanted = True
            if free:
                order = 1
                for s in range(1, 8):
                    a, b, cc, d = syms[s, 0], syms[s, 1], syms[s, 2], syms[s, 3]
                    if h < w and a == 0:
                        continue  # a transposing symmetry turns h x w into w x h: not a candidate
                    alpha = a * n + cc
                    beta = b * n + d
                    const = ((h - 1 if a < 0 else 0) + (w - 1 if b < 0 else 0)) * n \
                        + (h - 1 if cc < 0 else 0) + (w - 1 if d < 0 else 0)
                    for t in range(n):
                        image[t] = alpha * rows[t] + beta * cols[t] + const
                    _insertion_sort(image, n)
                    cmp = 0
                    for t in range(n):
                        if image[t] != base[t]:
                            cmp = -1 if image[t] < base[t] else 1
                            break
                    if cmp < 0:
                        wanted = False
                        break
                    if cmp == 0:
                        order += 1
            if not wanted:
                continue
            n_holes = 0
            if n >= 7:
                # Euler characteristic: holes = 1 - corners + 3 n - adjacent pairs
                S = n + 3
                for t in range(n):
                    occ[(rows[t] + 1) * S + cols[t] + 1] = 1
                pairs = 0
                corners = 0
                for t in range(n):
                    v = (rows[t] + 1) * S + cols[t] + 1
                    pairs += occ[v + 1] + occ[v + S]
                    for off in (0, 1, S, S + 1):
                        if corner[v + off] == 0:
                            corner[v + off] = 1
                            corners += 1
                for t in range(n):
                    v = (rows[t] + 1) * S + cols[t] + 1
                    occ[v] = 0
                    for off in (0, 1, S, S + 1):
                        corner[v + off] = 0
                n_holes = 1 - corners + 3 * n - pairs
                if n_holes > 0 and not holes:
                    continue
            hist[h, w, order, n_holes] += 1
            continue
        top = end[level]
        for nb in (c + 1, c + W, c - 1, c - W):
            if seen[nb] == 0:
                seen[nb] = 1
                stack[top] = nb
                top += 1
        maxr[level + 1] = hi_r
        minq[level + 1] = lo_q
        maxq[level + 1] = hi_q
        level += 1
        pos[level] = i + 1
        end[level] = top
    return leaves

