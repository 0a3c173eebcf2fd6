"""SAT analysis of Orion Duel on real positions: relaxed versions against networkx, witnesses replayed.

The relaxed models (any free hex can be claimed) must agree with networkx
(node-weighted shortest paths, minimum vertex cuts via node splitting) and
with the Dreyfus-Wagner Steiner DP; the exact answers come with
certificates checked here through the engine (plans replayed, blocking sets
re-checked, refutations played). The brute-force agreement on small
positions is in test_orion_exact.py.
"""

import itertools

import networkx as nx
import pytest

from ubongo_cp.errors import InputError
from ubongo_cp.games.base import RandomAgent
from ubongo_cp.games.orion.blocking import min_blocking_set
from ubongo_cp.games.orion.safety import is_safe_connection
from ubongo_cp.games.orion.distance import connect_distance, connect_within, graph_distance
from ubongo_cp.games.orion.graphs import INF, steiner_costs
from ubongo_cp.games.orion.plans import plan_hexes, solo, verify_plan
from ubongo_cp.games.orion.reach import ReachModel
from ubongo_cp.games.orion.setup import Setup, SetupRules
from ubongo_cp.games.orion.state import OrionGame, OrionState

GAME = OrionGame.get()


def position(seed, moves):
    s = OrionState(seed=seed)
    agent = RandomAgent(seed + 100)
    for _ in range(moves):
        if s.is_terminal():
            break
        s.apply_action(agent(s))
    return s


def costs(state, player):
    return [0 if c == player else 1 if c < 0 else INF for c in state.colour[:-1].tolist()]


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
    assert res.tiles == want == graph_distance(pos, player)
    if want:
        assert verify_plan(pos, player, res.plan, "sides", relaxed=True)
        # the unpruned SAT model, without any graph information, agrees on both sides of it
        assert connect_within(pos, player, want - 1, relaxed=True, prune=False)[0] == "infeasible"
        st, plan = connect_within(pos, player, want, relaxed=True, prune=False)
        assert st == "feasible" and verify_plan(pos, player, plan, "sides", relaxed=True)


def test_relaxed_galaxies_sat_agrees_with_steiner_dp(pos):
    player = len(pos.history) % 2
    gals = [h for h in range(GAME.n) if pos.galaxy[h] and pos.colour[h] in (-1, player)]
    best = int(steiner_costs(GAME.adjacency, costs(pos, player), gals, 4).min())
    res = connect_distance(pos, player, "galaxies", relaxed=True)
    assert res.tiles == best and verify_plan(pos, player, res.plan, "galaxies", relaxed=True)
    assert connect_within(pos, player, best - 1, "galaxies", relaxed=True,
                          prune=False, time_limit=30)[0] == "infeasible"


def relaxed_blocked(state, player, hexes):
    """Is W1 cut when ``hexes`` are taken away and every other free hex is claimable?"""
    g = nx.Graph()
    ok = [h for h in range(GAME.n) if state.colour[h] in (-1, player)
          and GAME.board.hexes[h] not in hexes]
    g.add_nodes_from(ok)
    g.add_edges_from((u, v) for u in ok for v in GAME.adjacency[u] if v in g)
    return not any(nx.has_path(g, a, b) for a, b in itertools.chain.from_iterable(
        itertools.product([x for x in sa if x in g], [x for x in sb if x in g])
        for sa, sb in GAME.side_pairs))


@pytest.mark.parametrize("player", [0, 1])
def test_relaxed_blocking_matches_networkx_min_cut(pos, player):
    for k in range(3):
        want = nx_min_cut(pos, player, k)
        res = min_blocking_set(pos, player, relaxed=True, pairs=[k])
        if want >= 10 ** 6:   # already joined: nothing blocks it
            assert res.hexes is None
            continue
        assert len(res.hexes) == want and res.status == "optimal"
    res = min_blocking_set(pos, player, relaxed=True)
    cuts = [nx_min_cut(pos, player, k) for k in range(3)]
    if max(cuts) < 10 ** 6:
        assert max(cuts) <= len(res.hexes) <= sum(cuts)
        assert relaxed_blocked(pos, player, set(res.hexes))


def min_hitting_set_size(sets):
    universe = sorted(set().union(*sets))
    return next(k for k in range(len(universe) + 1) for cut in itertools.combinations(universe, k)
                if all(not set(cut).isdisjoint(s) for s in sets))


def mid_position(seed, moves):
    s = position(seed, moves)
    while s.is_terminal():
        seed += 1000
        s = position(seed, moves)
    return s


MID = [(3, 16), (4, 18), (5, 20), (8, 17)]


@pytest.fixture(scope="module", params=MID, ids=lambda p: f"seed{p[0]}-m{p[1]}")
def mid(request):
    return mid_position(*request.param)


@pytest.mark.parametrize("player", [0, 1])
def test_exact_blocking_certificate(mid, player):
    pos = mid
    res = min_blocking_set(pos, player, time_limit=60)
    rel = min_blocking_set(pos, player, relaxed=True)
    if res.hexes is None:
        assert res.status == "already" and rel.hexes is None
        return
    assert res.status == "optimal"
    assert len(res.hexes) <= len(rel.hexes)    # exact P is weaker than "any free hex" P
    blocked = [GAME.board.index[h] for h in res.hexes]
    # the set blocks: no plan avoids it (unpruned model too)
    for prune in (True, False):
        rm = ReachModel(pos, player, blocked=blocked)
        assert rm.decide(rm.max_tiles, 60, prune=prune).status == "infeasible"
    # and it is minimum: the certificate's plans are plans, and no smaller set hits them all
    sets = []
    for plan in res.plans:
        assert verify_plan(pos, player, plan)
        sets.append(plan_hexes(pos, plan))
        assert not sets[-1].isdisjoint(blocked)
    if sets:
        assert min_hitting_set_size(sets) == len(res.hexes) == res.lower_bound
    else:
        assert res.hexes == [] and connect_distance(pos, player).status == "unreachable"


@pytest.mark.parametrize("player", [0, 1])
def test_shaped_connect_distance_witness_replays(pos, player):
    res = connect_distance(pos, player, "sides", time_limit=20)
    assert res.status in ("optimal", "already", "unreachable")
    if res.status == "optimal":
        assert verify_plan(pos, player, res.plan, "sides") and len(res.plan) == res.tiles


@pytest.mark.parametrize("player", [0, 1])
def test_mid_game_distance_is_optimal_and_matches_blocking(mid, player):
    pos = mid
    res = connect_distance(pos, player, "sides", time_limit=20)
    assert res.status in ("optimal", "already", "unreachable")
    rel = connect_distance(pos, player, "sides", relaxed=True).tiles
    if res.status == "optimal":
        assert verify_plan(pos, player, res.plan, "sides")
        assert len(res.plan) == res.tiles
        # graph bound: the plan's own hexes cover at least the relaxed hex distance
        own = sum(sum(GAME.placements[a].own) for a in res.plan)
        assert own >= rel
        # optimality: one tile fewer is infeasible, for the unpruned model too
        for prune in (True, False):
            st = connect_within(pos, player, res.tiles - 1, time_limit=30, prune=prune)[0]
            assert st == "infeasible"
    # unreachable exactly when the exact blocking set is empty
    block = min_blocking_set(pos, player, time_limit=60)
    assert (res.status == "unreachable") == (block.hexes == [])


def test_safety_refutations_are_real_moves(mid):
    pos = mid
    for player in (0, 1):
        r = is_safe_connection(pos, player, time_limit=60)
        assert r.status in ("safe", "refuted", "unreachable", "already")
        if r.status == "refuted":
            assert r.refutation in pos.legal_actions(1 - player)
            after = solo(pos, 1 - player)
            after.place(r.refutation, 1 - player)
            assert after.winner == 1 - player or \
                connect_distance(after, player, time_limit=60).status == "unreachable"
        if r.status in ("safe", "refuted"):
            assert verify_plan(pos, player, r.plan)
        if r.status == "unreachable":
            assert connect_distance(pos, player).status == "unreachable"


# --- hand positions ---------------------------------------------------------

N_TO_S = [(1, -5), (1, -4), (1, -3), (1, -2), (1, -1), (1, 0), (1, 1), (1, 2), (1, 3), (0, 4), (-1, 5)]
NO_TOKENS = OrionGame.get(rules=SetupRules(0, 0))


def hand(colours, player_used=()):
    """A token-free position, player 0 to move."""
    cols = {h: c for hexes, c in colours for h in hexes}
    return OrionState.from_board(Setup((), (), 0), cols, (player_used, ()), 0, NO_TOKENS)


def test_hand_one_hex_gap():
    gap = N_TO_S[5]
    s = hand([(N_TO_S[:5] + N_TO_S[6:], 0)])
    r = connect_distance(s, 0, "sides")
    assert r.tiles == 1 and r.status == "optimal" and verify_plan(s, 0, r.plan)
    assert connect_distance(s, 0, "sides", relaxed=True).tiles == 1
    # blocking N-S around the gap: as many hexes as the minimum vertex cut
    b = min_blocking_set(s, 0, pairs=[0], relaxed=True)
    assert len(b.hexes) == nx_min_cut(s, 0, 0)
    # the rest of the board coloured 1 but for two hexes far from the gap: the gap is the
    # only way; one hex blocks it, and the opponent's single on the gap refutes safety
    spare = [(-3, 0), (-3, 1)]
    rest = [h for h in GAME.board.hexes if h not in N_TO_S and h not in spare]
    used = [t for t in GAME.tiles.names if t not in ("S1", "D2")]
    cols = {h: 0 for h in N_TO_S if h != gap} | dict.fromkeys(rest, 1)
    s = OrionState.from_board(Setup((), (), 0), cols, (used, used), 0, NO_TOKENS)
    assert not s.is_terminal() and connect_distance(s, 0).tiles == 1
    b = min_blocking_set(s, 0)
    assert b.hexes == [gap] and b.status == "optimal"
    safe = is_safe_connection(s, 0)
    assert safe.status == "refuted" and gap in [GAME.board.hexes[c] for c in
                                                 GAME.placements[safe.refutation].cells]
    # already joined
    done = hand([(N_TO_S, 0)])
    assert connect_distance(done, 0).status == "already"
    assert min_blocking_set(done, 0).hexes is None and is_safe_connection(done, 0).safe


def test_hand_walled_off_is_unreachable():
    # colour 1 across the middle row r = 0 separates every pair of opposite sides
    wall = [h for h in GAME.board.hexes if h[1] == 0]
    s = hand([(wall, 1)])
    r = connect_distance(s, 0, "sides")
    assert r.tiles is None and r.status == "unreachable"
    assert min_blocking_set(s, 0).hexes == []
    safe = is_safe_connection(s, 0)
    assert not safe and safe.status == "unreachable" and safe.refutation is None
    # one hole in the wall at (4, 0) reopens NE-SW only; a tile on it stops it again
    s = hand([([h for h in wall if h != (4, 0)], 1)])
    assert min_blocking_set(s, 0).hexes == [(4, 0)]
    r = connect_distance(s, 0, "sides")
    assert r.status == "optimal" and verify_plan(s, 0, r.plan)
    assert (4, 0) in r.chain


def test_bad_arguments():
    s = hand([])
    with pytest.raises(InputError, match=r"goal must be 'sides' \(W1\) or 'galaxies' \(W2\), .*OD-4, got 'moon'"):
        connect_distance(s, 0, "moon")
    with pytest.raises(InputError, match="player must be"):
        connect_distance(s, 3)
    with pytest.raises(InputError, match="pairs must be indices"):
        min_blocking_set(s, 0, pairs=[5])
    with pytest.raises(InputError, match="relaxed blocking is defined for W1"):
        min_blocking_set(s, 0, "galaxies", relaxed=True)


def test_pairs_are_whole_numbers_numpy_ones_too_and_never_bools():
    import numpy as np

    s = hand([(N_TO_S[:5] + N_TO_S[6:], 0)])      # one hex short of N-S (pair 0): 1 tile, by hand
    for pairs in (np.array([0, 2]), [np.int64(0)], (np.int32(2), 0)):
        assert connect_distance(s, 0, pairs=pairs).tiles == connect_distance(s, 0, pairs=[0]).tiles == 1
    assert connect_within(s, 0, 1, pairs=np.arange(1))[0] == "feasible"
    assert min_blocking_set(s, 0, pairs=np.array([0])).hexes == min_blocking_set(s, 0, pairs=[0]).hexes
    assert is_safe_connection(s, 0, pairs=[np.int64(0)]).status == is_safe_connection(s, 0, pairs=[0]).status
    for question in (connect_distance, min_blocking_set, is_safe_connection):
        with pytest.raises(InputError, match=r"pairs must be indices 0..2 of opposite side pairs, got \[True\]"):
            question(s, 0, pairs=[True])    # True is no index (it read as pair 1, NE-SW)
        with pytest.raises(InputError, match=r"pairs must be a list of indices 0..2 .*got 0"):
            question(s, 0, pairs=0)
        with pytest.raises(InputError, match="player must be 0 or 1, got np.True_"):
            question(s, np.True_)


def test_a_bitboard_position_is_analysed_as_its_reference_state():
    from ubongo_cp.games.orion.bitboard import BitOrionState

    s = hand([(N_TO_S[:5] + N_TO_S[6:], 0)])      # one hex short of N-S
    b = BitOrionState.from_reference(s)
    assert connect_distance(b, 0).tiles == connect_distance(s, 0).tiles == 1
    assert connect_within(b, 0, 1)[0] == "feasible" and graph_distance(b, 0) == graph_distance(s, 0) == 1
    assert min_blocking_set(b, 0, pairs=[0], relaxed=True).hexes == min_blocking_set(s, 0, pairs=[0], relaxed=True).hexes
    assert is_safe_connection(b, 0).status == is_safe_connection(s, 0).status


@pytest.mark.parametrize("question", [connect_distance, min_blocking_set, is_safe_connection,
                                      lambda s, p, **kw: connect_within(s, p, 2, **kw), graph_distance])
def test_analysis_refuses_what_is_no_position(question):
    with pytest.raises(InputError, match="state must be an Orion position .*, got str"):
        question("x", 0)
    with pytest.raises(InputError, match="state must be an Orion position .*, got NoneType"):
        question(None, 0)


@pytest.mark.parametrize("question", [connect_distance, min_blocking_set, is_safe_connection,
                                      lambda s, p, **kw: connect_within(s, p, 2, **kw)])
@pytest.mark.parametrize("limit", [-1, 0, float("nan"), "1", True, None])
def test_analysis_refuses_time_limits_that_are_not_numbers_above_0(question, limit):
    with pytest.raises(InputError, match=r"time_limit must be a number of seconds above 0, got"):
        question(hand([]), 0, time_limit=limit)


@pytest.mark.parametrize("question", [connect_distance, min_blocking_set, is_safe_connection,
                                      lambda s, p, **kw: connect_within(s, p, 2, **kw)])
@pytest.mark.parametrize("workers", [0, -1, 2.5, "2", None, True])
def test_analysis_refuses_worker_counts_that_are_not_whole_numbers_of_at_least_1(question, workers):
    # min_blocking_set(s, 0, num_workers=2.5) raised a TypeError from inside CP-SAT's parameters; 0 (every core
    # to CP-SAT) and '2' were taken by the other questions.
    with pytest.raises(InputError, match=r"num_workers must be a whole number of at least 1, got"):
        question(hand([]), 0, num_workers=workers, time_limit=1)


@pytest.mark.parametrize("question, flags", [
    (connect_distance, ("relaxed", "prune", "greedy", "deterministic")),
    (lambda s, p, **kw: connect_within(s, p, 2, **kw), ("relaxed", "prune")),
    (min_blocking_set, ("relaxed", "deterministic"))])
def test_analysis_flags_are_true_or_false_only(question, flags):
    # connect_distance(s, 0, relaxed="no") answered the relaxed question (free hexes, not tiles): a string read as
    # true.
    for flag in flags:
        for value in ("no", 0, None):
            with pytest.raises(InputError, match=rf"^{flag} must be True or False, got"):
                question(hand([]), 0, **{flag: value})


@pytest.mark.parametrize("k", [-1, 2.5, True, "2", None])
def test_connect_within_refuses_a_k_that_is_no_count_of_tiles(k):
    # 2.5 and True were answered as 2 and 1 tiles, '2' and None raised a TypeError from inside the model.
    with pytest.raises(InputError, match=r"^k must be a whole number of at least 0, got"):
        connect_within(hand([]), 0, k)


def test_graph_distance_and_review_check_their_arguments():
    from ubongo_cp.games.orion.review import review_game

    with pytest.raises(InputError, match="player must be 0 or 1, got 5"):    # answered for player 5 before
        graph_distance(hand([]), 5)
    with pytest.raises(InputError, match="final must be an Orion position .*, got str"):
        review_game("x")
    with pytest.raises(InputError, match="every must be a whole number of at least 1, got 1.5"):
        review_game(hand([]), every=1.5)
    # goals='sides' was read letter by letter: "goal must be 'sides' (W1) or 'galaxies' (W2) ..., got 's'"
    with pytest.raises(InputError, match=r"^goals is a list of names, e.g. \('sides', 'galaxies'\), got 'sides'"):
        review_game(hand([]), goals="sides")


@pytest.mark.parametrize("goal", ["sides", "galaxies"])
def test_blocking_set_out_of_time_is_still_a_blocking_set(goal):
    # No time at all: the answer is still a list of hexes that blocks every plan (checked
    # by the exact reachability question with those hexes out of play), never None.
    from ubongo_cp.games.orion.distance import shortest_plan

    s = position(3, 10)
    b = min_blocking_set(s, 0, goal, time_limit=1e-9)
    assert b.status == "feasible" and b.hexes is not None and len(b.hexes) >= b.lower_bound
    free = [GAME.board.hexes[h] for h in range(GAME.n) if s.colour[h] < 0]
    if goal == "galaxies":      # nothing searched: every free hex
        assert b.hexes == free
    assert set(b.hexes) <= set(free)
    blocked = frozenset(GAME.board.index[h] for h in b.hexes)
    assert shortest_plan(s, 0, goal, blocked=blocked, time_limit=60).status == "unreachable"
    assert shortest_plan(s, 0, goal, time_limit=60).status != "unreachable"


def test_finished_games_answer_over_in_every_question():
    # A game that is over (OD-5, OD-6 or OD-7) has no plans: every question says "over"
    # for a goal the player does not fulfil (and "already" for one it does), never a
    # blocking set. The brute force agrees that no plan exists there.
    from ubongo_cp.games.orion.brute import all_plan_sets
    from ubongo_cp.games.orion.plans import goal_fulfilled

    seen = set()
    for seed in (3, 6, 10, 12, 32):   # ended by OD-5 (twice with a goal fulfilled), OD-6, OD-7
        s = position(seed, 200)
        assert s.is_terminal()
        seen.add(s.end_rule)
        for p in (0, 1):
            for goal in ("sides", "galaxies"):
                want = "already" if goal_fulfilled(s, p, goal) else "over"
                d = connect_distance(s, p, goal)
                b = min_blocking_set(s, p, goal)
                assert (d.status, b.status, b.hexes) == (want, want, None)
                if want == "over":
                    assert d.tiles is None and all_plan_sets(s, p, goal) == {}
                if goal == "sides":
                    f = is_safe_connection(s, p, goal)
                    assert (f.status, f.safe) == (want, True if want == "already" else False)
                seen.add(want)
    assert seen == {"already", "over", "OD-5", "OD-6", "OD-7"}
