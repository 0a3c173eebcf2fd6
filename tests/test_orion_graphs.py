"""The graph searches of Orion Duel: each fast hand-written copy against networkx on random positions."""

import itertools

import networkx as nx
import numpy as np
import pytest

from ubongo_cp.games.base import RandomAgent
from ubongo_cp.games.orion.graphs import (INF, colour_components, hex_graph, joins_sides,
                                          node_weighted_distances, node_weighted_path,
                                          node_weighted_path_fast, shortest_path_within, steiner_costs, tile_group)
from ubongo_cp.games.orion.state import OrionGame, OrionState

GAME = OrionGame.get()
ADJ = GAME.adjacency


def positions():
    out = []
    for seed in range(8):
        s = OrionState(seed=seed)
        agent = RandomAgent(seed)
        for _ in range(4 + 3 * seed):
            if s.is_terminal():
                break
            s.apply_action(agent(s))
        out.append(s)
    return out


POSITIONS = positions()


@pytest.mark.parametrize("s", POSITIONS)
def test_colour_components_match_networkx(s):
    label, comps = colour_components(ADJ, s.colour)
    g = hex_graph(ADJ)
    want = []
    for c in (0, 1):
        sub = g.subgraph([h for h in range(GAME.n) if s.colour[h] == c])
        want += [frozenset(x) for x in nx.connected_components(sub)]
    assert sorted(map(sorted, want)) == sorted(map(sorted, comps))
    for cid, members in enumerate(comps):
        assert all(label[h] == cid for h in members) and members[0] == min(members)
    assert all(label[h] == -1 for h in range(GAME.n) if s.colour[h] < 0)


def nx_node_weighted(cost, sources):
    g = nx.DiGraph()
    g.add_weighted_edges_from((u, v, cost[v]) for u in range(len(cost)) for v in ADJ[u]
                              if cost[u] < INF and cost[v] < INF)
    g.add_weighted_edges_from(("s", h, cost[h]) for h in sources if cost[h] < INF)
    d = nx.single_source_dijkstra_path_length(g, "s") if "s" in g else {}
    return [d.get(h, INF) for h in range(len(cost))]


@pytest.mark.parametrize("s", POSITIONS)
@pytest.mark.parametrize("player", [0, 1])
def test_node_weighted_distances_match_networkx_dijkstra(s, player):
    cost = [0 if c == player else 1 if c < 0 else INF for c in s.colour[:-1].tolist()]
    for a, b in GAME.side_pairs:
        d = node_weighted_distances(ADJ, cost, a)
        assert d == nx_node_weighted(cost, a)
        best = min(d[h] for h in b)
        path = node_weighted_path(ADJ, cost, a, b)
        if best >= INF:
            assert path == []
        else:
            assert path[0] in a and path[-1] in b and sum(cost[h] for h in path) == best
            assert all(v in ADJ[u] for u, v in zip(path, path[1:]))


def test_node_weighted_path_fast_is_networkx_path_hex_for_hex():
    # Random costs (many ties of equal cost) and random blocked hexes, every side pair
    # in both directions, sources and targets as sets and as shuffled lists.
    rng = np.random.default_rng(11)
    checked = 0
    for _ in range(150):
        cost = [int(x) for x in rng.choice([0, 1, 1, INF], size=GAME.n)]
        for a, b in GAME.side_pairs:
            for src, dst in ((a, b), (b, a), (list(rng.permutation(sorted(a))), list(rng.permutation(sorted(b))))):
                src = [int(h) for h in src]
                dst = [int(h) for h in dst]
                want = node_weighted_path(ADJ, cost, src, dst)
                assert node_weighted_path_fast(ADJ, cost, src, dst) == want
                checked += bool(want)
    assert checked > 100   # most cases have a path


def test_tile_group_matches_networkx():
    rng = np.random.default_rng(3)
    g = hex_graph(ADJ)
    for p in rng.choice(len(GAME.placements), 300, replace=False):
        pl = GAME.placements[int(p)]
        cols = [int(x) for x in rng.integers(2, size=len(pl.cells))]
        for i, h in enumerate(pl.cells):
            same = [c for c, col in zip(pl.cells, cols) if col == cols[i]]
            want = nx.node_connected_component(g.subgraph(same), h)
            assert set(tile_group(pl.cells, cols, i, ADJ)) == want


@pytest.mark.parametrize("s", POSITIONS)
def test_joins_sides_and_witness_paths_agree_with_the_engine(s):
    for p in (0, 1):
        own = [h for h in range(GAME.n) if s.colour[h] == p]
        assert joins_sides(ADJ, own, GAME.side_pairs) == ("W1" in s.conditions()[p])
        for w in s.wins[p]:
            if w.condition == "W1":
                idx = [GAME.board.index[h] for h in w.hexes]
                assert all(s.colour[h] == p for h in idx)
                assert all(v in ADJ[u] for u, v in zip(idx, idx[1:]))
    assert shortest_path_within([(1,), (0, 2), (1,)], {0, 1}, [0], [2]) == []


def test_steiner_dp_hand_cases_and_three_terminal_formula():
    # a path graph 0-1-2-3-4 with unit costs: a tree over terminals {0, 2, 4} costs 5
    adj = [(1,), (0, 2), (1, 3), (2, 4), (3,)]
    assert steiner_costs(adj, [1, 1, 1, 1, 1], [0, 2, 4], 3).tolist() == [5] * 5
    assert steiner_costs(adj, [1, 0, 1, 0, 1], [0, 4], 2).tolist() == [3] * 5
    # On the board, with 0/1 hex costs: the cheapest tree holding 2 of the terminals and
    # hex h is a 3-terminal Steiner tree {a, b, h}, whose cost is min over a median hex m
    # of d(m, a) + d(m, b) + d(m, h) - 2 cost(m) (node-weighted networkx distances).
    rng = np.random.default_rng(5)
    cost = [int(x) for x in rng.integers(2, size=GAME.n)]
    terms = [GAME.board.index[h] for h in ((0, 0), (3, -2), (-2, 3), (1, 3))]
    dp = steiner_costs(ADJ, cost, terms, 2)
    dist = {t: nx_node_weighted(cost, [t]) for t in range(GAME.n)}
    for h in range(0, GAME.n, 7):
        want = min(dist[m][a] + dist[m][b] + dist[m][h] - 2 * cost[m]
                   for a, b in itertools.combinations(terms, 2) for m in range(GAME.n))
        assert dp[h] == want
