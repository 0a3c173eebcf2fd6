"""SAT reachability analysis of Orion Duel, cross-checked against plain graph algorithms.

The relaxed models (any free hex can be claimed) must agree with networkx
(node-weighted shortest paths, minimum vertex cuts via node splitting) and
with the Dreyfus-Wagner Steiner DP; shaped witnesses are replayed by the
engine (verify_plan); safety by SAT agrees with enumerating every move.
"""

import networkx as nx
import pytest

from ubongo_cp.errors import InputError
from ubongo_cp.games.base import RandomAgent
from ubongo_cp.games.orion.engine import OrionGame, OrionState, Setup
from ubongo_cp.games.orion.sat import (_costs, can_connect, connect_distance, connect_within,
                                       is_safe_connection, min_blocking_set, steiner_costs,
                                       verify_plan)

GAME = OrionGame.get()


def position(seed, moves):
    s = OrionState(seed=seed)
    agent = RandomAgent(seed + 100)
    for _ in range(moves):
        if s.is_terminal():
            break
        s.apply_action(agent(s))
    return s


POSITIONS = [(1, 6), (3, 10), (4, 12), (5, 14), (6, 10)]


@pytest.fixture(scope="module", params=POSITIONS, ids=lambda p: f"seed{p[0]}-m{p[1]}")
def pos(request):
    return position(*request.param)


def nx_hex_distance(state, player, pair):
    """Fewest free hexes for ``player`` to join the pair's sides (networkx Dijkstra)."""
    a, b = GAME.side_pairs[pair]
    g = nx.DiGraph()
    cost = {h: 0 if c == player else 1 for h, c in enumerate(state.colour[:-1]) if c in (-1, player)}
    for u in cost:
        for v in GAME.adjacency[u]:
            if v in cost:
                g.add_edge(u, v, weight=cost[v])
        if u in a:
            g.add_edge("s", u, weight=cost[u])
        if u in b:
            g.add_edge(u, "t", weight=0)
    try:
        return nx.dijkstra_path_length(g, "s", "t")
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return None


def nx_min_cut(state, player, pair):
    """Minimum number of free hexes separating the pair's sides (node-split max flow)."""
    a, b = GAME.side_pairs[pair]
    g = nx.DiGraph()
    inf = 10 ** 6
    for h, c in enumerate(state.colour[:-1]):
        if c not in (-1, player):
            continue
        g.add_edge(("in", h), ("out", h), capacity=1 if c < 0 else inf)
        for v in GAME.adjacency[h]:
            if state.colour[v] in (-1, player):
                g.add_edge(("out", h), ("in", v), capacity=inf)
        if h in a:
            g.add_edge("s", ("in", h), capacity=inf)
        if h in b:
            g.add_edge(("out", h), "t", capacity=inf)
    if "s" not in g or "t" not in g:
        return 0
    value, _ = nx.minimum_cut(g, "s", "t")
    return value


@pytest.mark.parametrize("player", [0, 1])
def test_relaxed_connect_distance_matches_networkx(pos, player):
    want = min((d for d in (nx_hex_distance(pos, player, k) for k in range(3)) if d is not None),
               default=None)
    res = connect_distance(pos, player, "sides", relaxed=True)
    got = res.tiles
    assert got == want
    if want:
        assert verify_plan(pos, player, res.plan, "sides", relaxed=True)
        # the unpruned SAT model, without any graph information, agrees on both sides of it
        assert connect_within(pos, player, want - 1, relaxed=True, prune=False)[0] == "infeasible"
        st, plan, _ = connect_within(pos, player, want, relaxed=True, prune=False)
        assert st == "feasible" and verify_plan(pos, player, plan, "sides", relaxed=True)


def test_relaxed_galaxies_sat_agrees_with_steiner_dp(pos):
    player = len(pos.history) % 2
    gals = [h for h in range(GAME.n) if pos.galaxy[h] and pos.colour[h] in (-1, player)]
    best = int(steiner_costs(GAME.adjacency, _costs(pos, player), gals, 4).min())
    res = connect_distance(pos, player, "galaxies", relaxed=True)
    assert res.tiles == best and verify_plan(pos, player, res.plan, "galaxies", relaxed=True)
    assert connect_within(pos, player, best - 1, "galaxies", relaxed=True,
                          prune=False, time_limit=30)[0] == "infeasible"


def test_steiner_dp_hand_case():
    # a path graph 0-1-2-3-4 with unit costs: a tree over terminals {0, 2, 4} costs 5
    adj = [(1,), (0, 2), (1, 3), (2, 4), (3,)]
    t = steiner_costs(adj, [1, 1, 1, 1, 1], [0, 2, 4], 3)
    assert t.tolist() == [5, 5, 5, 5, 5]
    t = steiner_costs(adj, [1, 0, 1, 0, 1], [0, 4], 2)   # free middle hexes cost 0
    assert t.tolist() == [3, 3, 3, 3, 3]


@pytest.mark.parametrize("player", [0, 1])
def test_relaxed_blocking_matches_networkx_min_cut(pos, player):
    for k in range(3):
        want = nx_min_cut(pos, player, k)
        res = min_blocking_set(pos, player, relaxed=True, pairs=[k])
        if want >= 10 ** 6:   # already joined: nothing blocks it
            assert res.hexes is None
            continue
        assert len(res.hexes) == want
    res = min_blocking_set(pos, player, relaxed=True)
    cuts = [nx_min_cut(pos, player, k) for k in range(3)]
    if max(cuts) < 10 ** 6:
        assert max(cuts) <= len(res.hexes) <= sum(cuts)
        blocked = pos.colour.copy()
        for h in res.hexes:
            blocked[GAME.board.index[h]] = 1 - player
        assert not can_connect(pos, player, blocked, relaxed=True)


@pytest.mark.parametrize("player", [0, 1])
def test_shaped_blocking_is_sound_and_below_relaxed(pos, player):
    res = min_blocking_set(pos, player)
    rel = min_blocking_set(pos, player, relaxed=True)
    if res.hexes is None:
        return
    assert len(res.hexes) <= len(rel.hexes)
    blocked = pos.colour.copy()
    for h in res.hexes:
        blocked[GAME.board.index[h]] = 1 - player
    assert not can_connect(pos, player, blocked)
    if res.hexes:   # minimal: giving back any one hex reopens a way
        h0 = GAME.board.index[res.hexes[0]]
        blocked[h0] = -1
        assert can_connect(pos, player, blocked)


@pytest.mark.parametrize("player", [0, 1])
def test_shaped_connect_distance_witness_replays(pos, player):
    res = connect_distance(pos, player, "sides", time_limit=20)
    assert res.status in ("optimal", "already", "unreachable")
    rel = connect_distance(pos, player, "sides", relaxed=True).tiles
    if res.status == "optimal":
        assert verify_plan(pos, player, res.plan, "sides")
        assert len(res.plan) == res.tiles
        # graph bound: the plan's own hexes cover at least the relaxed hex distance
        own = sum(sum(GAME.placements[a].own) for a in res.plan)
        assert own >= rel
        # optimality: one tile fewer is infeasible (mid-game positions; early ones are slow)
        if len(pos.history) >= 10:
                assert connect_within(pos, player, res.tiles - 1, time_limit=20)[0] == "infeasible"


def test_safety_sat_agrees_with_enumeration(pos):
    for player in (0, 1):
        a = is_safe_connection(pos, player)
        b = is_safe_connection(pos, player, method="enumerate")
        assert a.safe == b.safe
        for r in (a, b):
            if r.refutation is not None:
                pl = GAME.placements[r.refutation]
                colour = pos.colour.copy()
                for c, o in zip(pl.cells, pl.own):
                    colour[c] = 1 - player if o else player
                assert not can_connect(pos, player, colour)


# --- hand positions ---------------------------------------------------------

GAL = ((0, 0), (3, 0), (-3, 0), (0, -3), (-3, 3), (3, -3), (1, 3), (-2, 5))
HOLES = ((2, -1), (-2, 1), (1, -5), (4, -5), (-2, -3), (5, -3), (-5, 1))
N_TO_S = [(1, -5), (1, -4), (1, -3), (1, -2), (1, -1), (1, 0), (1, 1), (1, 2), (1, 3), (0, 4), (-1, 5)]


def hand(colours, player_used=()):
    s = OrionState(Setup(GAL, HOLES, 0))
    s.galaxy[:] = False
    s.hole[:] = False
    s.token = s.galaxy | s.hole
    s.pl_token = s.token[GAME.pl_cells].any(axis=1)
    for hexes, c in colours:
        for h in hexes:
            s.colour[GAME.board.index[h]] = c
    for t in player_used:
        s.used[0, GAME.tiles.names[t]] = True
    s._legal = {}
    return s


def test_hand_one_hex_gap():
    gap = N_TO_S[5]
    s = hand([(N_TO_S[:5] + N_TO_S[6:], 0)])
    r = connect_distance(s, 0, "sides")
    assert r.tiles == 1 and r.status == "optimal" and verify_plan(s, 0, r.plan)
    assert connect_distance(s, 0, "sides", relaxed=True).tiles == 1
    # the opponent blocks the gap with one hex; safety fails, and the SAT refutation covers it
    # blocking N-S around the gap: as many hexes as the minimum vertex cut
    b = min_blocking_set(s, 0, pairs=[0], relaxed=True)
    assert len(b.hexes) == nx_min_cut(s, 0, 0)
    # walled in by colour 1 on both sides, the gap is the only way: one hex blocks it
    left = [(0, 0), (0, -1)]
    right = [(2, -1), (2, 0)]
    s = hand([(N_TO_S[:5] + N_TO_S[6:], 0), (left + right, 1)])
    assert nx_min_cut(s, 0, 0) < 10 ** 6
    b = min_blocking_set(s, 0, pairs=[0], relaxed=True)
    assert len(b.hexes) == nx_min_cut(s, 0, 0)
    safe = is_safe_connection(s, 0, pairs=[0])
    assert safe.safe == is_safe_connection(s, 0, pairs=[0], method="enumerate").safe
    # already joined
    done = hand([(N_TO_S, 0)])
    assert connect_distance(done, 0).status == "already"
    assert min_blocking_set(done, 0).hexes is None and is_safe_connection(done, 0).safe


def test_hand_walled_off_is_unreachable():
    # colour 1 across the middle row r = 0 separates every pair of opposite sides
    wall = [h for h in GAME.board.hexes if h[1] == 0]
    s = hand([(wall, 1)])
    assert not any(can_connect(s, 0, pairs=[k]) for k in range(3))
    r = connect_distance(s, 0, "sides")
    assert r.tiles is None and r.status == "unreachable"
    assert min_blocking_set(s, 0).hexes == []
    assert not is_safe_connection(s, 0)
    # one hole in the wall at (4, 0) reopens NE-SW only; a tile on it stops it again
    s = hand([([h for h in wall if h != (4, 0)], 1)])
    assert [can_connect(s, 0, pairs=[k]) for k in range(3)] == [True, True, True]
    assert min_blocking_set(s, 0).hexes == [(4, 0)]
    r = connect_distance(s, 0, "sides")
    assert r.status == "optimal" and verify_plan(s, 0, r.plan)
    assert (4, 0) in r.chain


def test_bad_arguments():
    s = hand([])
    with pytest.raises(InputError, match="unknown goal"):
        connect_distance(s, 0, "moon")
    with pytest.raises(InputError, match="player must be"):
        connect_distance(s, 3)
