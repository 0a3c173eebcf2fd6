"""Graph searches on the Orion Duel board: every BFS, shortest path and tree of the package.

The board is the graph of its hexes (nodes: hex indices ``0 .. n-1`` of
:class:`.board.Board`; edges: hexes at distance 1). networkx [1]_ is used
where a search runs a few times per question (witness paths, side-to-side
tests, the greedy plan's path). Three searches run thousands of times per
turn or per question and keep a fast hand-written loop, because networkx
costs 3-5x as much there (``benchmarks/bench_orion.py --graphs``):
:func:`colour_components` (after every move), :func:`node_weighted_distances`
(the greedy agent scores ~120 moves per turn with it) and :func:`tile_group`
(OD-3, a BFS inside one tile). ``tests/test_orion_graphs.py`` checks each
fast copy against networkx on random positions.

Conventions: ``adj`` is :attr:`.board.Board.adjacency` (a tuple of neighbour
index tuples); ``colour`` an int array or list with ``-1`` for a free hex
(a trailing sentinel entry, as in :class:`.state.OrionState`, is ignored).

References
----------
.. [1] A. Hagberg, D. Schult, P. Swart, "Exploring network structure,
   dynamics, and function using NetworkX", SciPy 2008; networkx 3.x API.
.. [2] S. E. Dreyfus, R. A. Wagner, "The Steiner problem in graphs",
   Networks 1 (1971) 195-207.
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from functools import lru_cache
from typing import Iterable, Sequence

import networkx as nx
import numpy as np

__all__ = [
    "INF", "hex_graph", "colour_components", "node_weighted_distances", "node_weighted_path",
    "node_weighted_path_fast", "shortest_path_within", "joins_sides", "tile_group", "cells_connected", "steiner_costs",
]

#: Cost standing for "impassable" in the node-weighted searches.
INF = 10 ** 6


@lru_cache(maxsize=16)
def hex_graph(adj: tuple[tuple[int, ...], ...]) -> nx.Graph:
    """The board as an undirected networkx graph (nodes are hex indices).

    Examples
    --------
    >>> from ubongo_cp.games.orion.board import default_board
    >>> g = hex_graph(default_board().adjacency)
    >>> g.number_of_nodes(), g.number_of_edges()
    (85, 222)
    """
    g = nx.Graph()
    g.add_nodes_from(range(len(adj)))
    g.add_edges_from((u, v) for u, ns in enumerate(adj) for v in ns if u < v)
    return g


def colour_components(adj: Sequence[Sequence[int]], colour) -> tuple[list[int], list[list[int]]]:
    """Connected same-colour groups of coloured hexes (fast copy; networkx cross-check in the tests).

    Parameters
    ----------
    adj : sequence of sequences of int
        Neighbour indices per hex, ``n`` hexes.
    colour : sequence of int, length >= n
        Colour per hex, ``-1`` for free.

    Returns
    -------
    (list of int, list of list of int)
        ``label[h]`` (the component index, ``-1`` for free hexes) and the
        members of each component (the first member is the component's
        smallest hex index).

    Examples
    --------
    >>> colour_components([(1,), (0, 2), (1,)], [0, 0, 1])
    ([0, 0, 1], [[0, 1], [2]])
    """
    n = len(adj)
    col = colour.tolist() if isinstance(colour, np.ndarray) else list(colour)
    label = [-1] * n
    comps: list[list[int]] = []
    for s in range(n):
        c = col[s]
        if c < 0 or label[s] >= 0:
            continue
        cid = len(comps)
        label[s] = cid
        members = [s]
        k = 0
        while k < len(members):
            for v in adj[members[k]]:
                if label[v] < 0 and col[v] == c:
                    label[v] = cid
                    members.append(v)
            k += 1
        comps.append(members)
    return label, comps


def node_weighted_distances(adj: Sequence[Sequence[int]], cost: Sequence[int],
                            sources: Iterable[int]) -> list[int]:
    """Node-weighted distances from the nearest source by 0-1 BFS (fast copy).

    The length of a path is the sum of the costs of its hexes, the source's
    included; costs are 0 or 1, ``>= INF`` means impassable.

    Returns
    -------
    list of int, length n
        ``INF`` where no path exists.

    Examples
    --------
    >>> node_weighted_distances([(1,), (0, 2), (1,)], [1, 0, 1], [0])
    [1, 1, 2]
    """
    d = [INF] * len(cost)
    dq: deque[int] = deque()
    for s in sources:
        if cost[s] < INF and cost[s] < d[s]:
            d[s] = cost[s]
            if cost[s] == 0:
                dq.appendleft(s)
            else:
                dq.append(s)
    while dq:
        u = dq.popleft()
        du = d[u]
        for v in adj[u]:
            cv = cost[v]
            if cv >= INF:
                continue
            nd = du + cv
            if nd < d[v]:
                d[v] = nd
                if cv == 0:
                    dq.appendleft(v)
                else:
                    dq.append(v)
    return d


def node_weighted_path(adj, cost: Sequence[int], sources: Iterable[int],
                       targets: Iterable[int]) -> list[int]:
    """A cheapest node-weighted path from a source to a target (networkx Dijkstra); [] if none.

    Examples
    --------
    >>> node_weighted_path([(1, 3), (0, 2), (1, 3), (0, 2)], [1, 0, 1, 1], [0], [2])
    [0, 1, 2]
    """
    g = nx.DiGraph()
    ok = [h for h in range(len(adj)) if cost[h] < INF]
    g.add_weighted_edges_from((u, v, cost[v]) for u in ok for v in adj[u] if cost[v] < INF)
    g.add_weighted_edges_from(("s", h, cost[h]) for h in sources if cost[h] < INF)
    g.add_weighted_edges_from((h, "t", 0) for h in targets if cost[h] < INF)
    try:
        return nx.dijkstra_path(g, "s", "t")[1:-1]
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return []


def node_weighted_path_fast(adj, cost: Sequence[int], sources: Iterable[int],
                            targets: Iterable[int]) -> list[int]:
    """:func:`node_weighted_path` without building a graph: the same path, hex for hex (fast copy).

    networkx's Dijkstra (``_dijkstra_multisource``, networkx 3.x) replayed
    on the graph :func:`node_weighted_path` builds: a super-source ``s``
    (index n) with an edge to each source in the order given, an edge
    ``u -> v`` of weight ``cost[v]`` for each neighbour ``v`` of ``u`` in
    ``adj`` order, and an edge of weight 0 from each target to a super-sink
    ``t`` (index n + 1) after ``u``'s own edges. The heap holds ``(distance,
    push counter, node)`` as networkx's does, a node's predecessor is set
    when its tentative distance strictly drops, and the search stops when
    ``t`` is popped; so ties break exactly as there and the path is the
    same. ``tests/test_orion_graphs.py`` checks it against networkx.

    Examples
    --------
    >>> node_weighted_path_fast([(1, 3), (0, 2), (1, 3), (0, 2)], [1, 0, 1, 1], [0], [2])
    [0, 1, 2]
    """
    n = len(adj)
    s, t = n, n + 1
    is_target = [False] * n
    for h in targets:
        if cost[h] < INF:
            is_target[h] = True
    first = [h for h in dict.fromkeys(sources) if cost[h] < INF]
    if not first or not any(is_target):
        return []
    seen = [INF] * (n + 2)
    done = [False] * (n + 2)
    pred = [-1] * (n + 2)
    seen[s] = 0
    fringe = [(0, 0, s)]
    counter = 1
    push, pop = heapq.heappush, heapq.heappop
    while fringe:
        dv, _, v = pop(fringe)
        if done[v]:
            continue
        done[v] = True
        if v == t:
            path = []
            u = pred[t]
            while u != s:
                path.append(u)
                u = pred[u]
            return path[::-1]
        if v == s:
            succ = [(h, cost[h]) for h in first]
        else:
            succ = [(u, cost[u]) for u in adj[v] if cost[u] < INF]
            if is_target[v]:
                succ.append((t, 0))
        for u, w in succ:
            du = dv + w
            if not done[u] and du < seen[u]:
                seen[u] = du
                push(fringe, (du, counter, u))
                counter += 1
                pred[u] = v
    return []


def shortest_path_within(adj, allowed: Iterable[int], sources: Iterable[int],
                         targets: Iterable[int]) -> list[int]:
    """A shortest path inside ``allowed`` from any source to any target (networkx BFS); [] if none.

    Examples
    --------
    >>> shortest_path_within([(1,), (0, 2), (1,)], {0, 1, 2}, [0], [2])
    [0, 1, 2]
    """
    allowed = set(allowed)
    g = nx.Graph(hex_graph(tuple(map(tuple, adj))).subgraph(allowed))
    g.add_edges_from(("s", h) for h in sources if h in allowed)
    g.add_edges_from((h, "t") for h in targets if h in allowed)
    try:
        return nx.shortest_path(g, "s", "t")[1:-1]
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return []


def joins_sides(adj, hexes: Iterable[int], side_pairs, pairs: Iterable[int] | None = None) -> bool:
    """Do ``hexes`` hold a chain from one side of an opposite pair to the other (W1, OD-4)?

    ``side_pairs[k]`` is ``(side_a, side_b)`` (sets of hex indices);
    ``pairs`` restricts the pairs looked at (default all). networkx
    connected components of the subgraph induced by ``hexes``.
    """
    sub = hex_graph(tuple(map(tuple, adj))).subgraph(set(hexes))
    keys = range(len(side_pairs)) if pairs is None else pairs
    for comp in nx.connected_components(sub):
        for k in keys:
            a, b = side_pairs[k]
            if not comp.isdisjoint(a) and not comp.isdisjoint(b):
                return True
    return False


def tile_group(cells: Sequence[int], cols: Sequence[int], i: int, adj) -> list[int]:
    """The cells of one placed tile of colour ``cols[i]`` joined to ``cells[i]`` inside the tile.

    The group OD-3 looks at (a BFS over at most a tile's few cells; fast
    copy, checked against networkx in the tests).

    Examples
    --------
    >>> tile_group([0, 1, 2], [1, 0, 1], 0, [(1,), (0, 2), (1,)])
    [0]
    """
    c = cols[i]
    group = [cells[i]]
    k = 0
    while k < len(group):
        u = group[k]
        for j, v in enumerate(cells):
            if cols[j] == c and v not in group and v in adj[u]:
                group.append(v)
        k += 1
    return group


def cells_connected(cells: Iterable, neighbours) -> bool:
    """Whether ``cells`` form one connected set under ``neighbours(cell)`` (networkx).

    Examples
    --------
    >>> from ubongo_cp.games.orion.hexgrid import neighbours
    >>> cells_connected([(0, 0), (1, 0)], neighbours), cells_connected([(0, 0), (2, 0)], neighbours)
    (True, False)
    """
    cells = set(cells)
    if not cells:
        return False
    g = nx.Graph()
    g.add_nodes_from(cells)
    g.add_edges_from((c, d) for c in cells for d in neighbours(c) if d in cells)
    return nx.is_connected(g)


def steiner_costs(adj, cost: Sequence[int], terminals: Sequence[int], size: int) -> np.ndarray:
    """Per hex, the cheapest node-weighted tree holding ``size`` of ``terminals`` and that hex.

    Dreyfus-Wagner dynamic programming [2]_ over the subsets of
    ``terminals`` of at most ``size`` elements, vectorised over hexes with
    numpy; the cost of a tree is the sum of its node costs (``>= INF``
    forbids a hex). networkx offers only approximate Steiner trees.

    Returns
    -------
    numpy.ndarray, shape (n,), int
        ``INF`` where no tree exists.

    Notes
    -----
    O(3^t n) for t terminals, t <= 8 here (the galaxies).
    """
    n = len(cost)
    c = np.minimum(np.array(cost, dtype=np.int64), INF)
    nb = np.full((n, 6), n, dtype=np.int64)
    for h, ns in enumerate(adj):
        nb[h, :len(ns)] = ns
    t = len(terminals)
    best = np.full(n, INF, dtype=np.int64)
    if t < size:
        return best
    dp: dict[int, np.ndarray] = {}

    def grow(a: np.ndarray) -> np.ndarray:
        a = np.minimum(a, INF)
        while True:
            ext = np.append(a, INF)
            b = np.minimum(np.minimum(a, ext[nb].min(axis=1) + c), INF)
            if np.array_equal(a, b):
                return a
            a = b

    for i, g in enumerate(terminals):
        a = np.full(n, INF, dtype=np.int64)
        a[g] = c[g]
        dp[1 << i] = grow(a)
    for m in range(2, size + 1):
        for combo in itertools.combinations(range(t), m):
            s = sum(1 << i for i in combo)
            a = np.full(n, INF, dtype=np.int64)
            sub = (s - 1) & s
            while sub:
                if sub < s ^ sub:  # each split once
                    a = np.minimum(a, dp[sub] + dp[s ^ sub] - c)
                sub = (sub - 1) & s
            dp[s] = grow(a)
            if m == size:
                best = np.minimum(best, dp[s])
    return np.minimum(best, INF)
