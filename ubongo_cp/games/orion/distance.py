"""How many tiles from W1 or W2? ``connect_distance`` with a witness plan, exact under OD-2...OD-5.

The question (RULES.md §4 "Analysis questions"): the fewest of player P's
remaining tiles that form a plan for the goal while the opponent passes
(:mod:`.plans`: each tile legal when played, OD-3 included; the game not
over before the last tile, so plans in which a tile first completes a
chain of the opponent -- or any other condition -- do not count; P fulfils
the goal after the last tile).

Method: (1) a graph lower bound, the fewest free hexes
still to claim on a chain (node-weighted shortest paths for W1, an exact
Steiner tree over 4 galaxies for W2), turned into tiles by the largest
own-hex counts of the remaining tiles; (2) a greedy plan along such a chain
as an upper bound (checked by :func:`.plans.order_plan`); (3) decision
questions "at most k tiles?" (:class:`.reach.ReachModel`) upward from the
lower bound and below the upper bound. The first feasible k is optimal,
because every smaller one was proved infeasible.
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from dataclasses import dataclass, field

import numpy as np

from ...errors import whole_argument
from .graphs import INF, node_weighted_distances, node_weighted_path, node_weighted_path_fast
from .plans import GOALS, check_query, goal_fulfilled, order_plan, use_reference
from .plansearch import complete_plan, search_plan
from .reach import ReachModel, spent, usable_covering
from .state import OrionState
from .wins import evaluate_wins

__all__ = ["ConnectResult", "connect_distance", "connect_within", "graph_distance", "shortest_plan"]


@dataclass
class ConnectResult:
    """Answer of :func:`connect_distance`.

    Attributes
    ----------
    tiles : int or None
        Fewest tiles (relaxed: hexes) needed; None when unreachable or unknown.
    status : str
        ``"optimal"``, ``"unreachable"``, ``"already"`` (fulfilled now),
        ``"over"`` (the game is over, nothing more is played) or ``"unknown"``
        (time limit; ``tiles`` then is the best plan known, or None).
    plan : list of int
        Witness placements in playing order (relaxed: hex indices claimed).
    chain : list of (q, r)
        The goal's chain after the witness plan.
    lower_bound : int
        The graph lower bound the search started from.
    questions : list of (int, str, float)
        Decision questions asked: ``(k, "feasible"/"infeasible"/"unknown"/"greedy", seconds)``.
    seconds : float
        Wall time.
    work : float
        CP-SAT's deterministic time of the questions' solves (its seconds of
        work, which ``deterministic`` counts).
    """

    player: int
    goal: str
    tiles: int | None
    status: str
    plan: list[int] = field(default_factory=list)
    chain: list = field(default_factory=list)
    lower_bound: int = 0
    questions: list = field(default_factory=list)
    seconds: float = 0.0
    work: float = 0.0


def connect_distance(state: OrionState, player: int, goal: str = "sides", *,
                     relaxed: bool = False, pairs=None, time_limit: float = 10.0,
                     num_workers: int = 1, prune: bool = True,
                     greedy: bool = True, deterministic: bool = False) -> ConnectResult:
    """Fewest remaining tiles for ``player`` to reach W1 or W2 if the opponent passes.

    Parameters
    ----------
    state : OrionState
    player : int
        0 or 1 (either player, whoever is to move).
    goal : {"sides", "galaxies"}
        W1 (a chain joining opposite sides) or W2 (a chain over 4 galaxies), OD-4.
    relaxed : bool
        Ignore tile shapes, counts, OD-3 and OD-5: any free hex can be
        claimed; the answer counts hexes (the graph distance).
    pairs : list of int, optional
        Opposite pairs that count for W1 (default all three).
    time_limit : float
        Seconds for all decision questions together.
    num_workers : int
        CP-SAT workers per question.
    prune, greedy : bool
        Restrict each question to useful hexes / start from a greedy plan
        as upper bound (both on by default; off only to measure them,
        ``benchmarks/bench_orion.py --ablation``).
    deterministic : bool
        Count ``time_limit`` in CP-SAT's deterministic seconds (its measure
        of the work done, not of the time elapsed) instead of the wall
        clock: with one worker the answer, ``"unknown"`` included, is then
        the same on every machine and under any load.

    Returns
    -------
    ConnectResult

    Raises
    ------
    InputError
        For a ``state`` that is no Orion position (a
        :class:`.bitboard.BitOrionState` is analysed as its reference
        state), an unknown ``goal``, player or pair, a ``time_limit``
        that is not a number above 0, ``num_workers`` not a whole
        number of at least 1, or ``relaxed``, ``prune``, ``greedy`` or
        ``deterministic`` other than True or False.

    Examples
    --------
    >>> from ubongo_cp.games.orion import OrionState, random_setup
    >>> r = connect_distance(OrionState(random_setup(3)), 0)
    >>> r.status, r.tiles, len(r.plan)
    ('optimal', 6, 6)
    """
    t0 = time.perf_counter()
    state, keys = check_query(state, player, goal, pairs, time_limit, num_workers, relaxed=relaxed, prune=prune,
                              greedy=greedy, deterministic=deterministic)
    if goal_fulfilled(state, player, goal, keys):
        return ConnectResult(player, goal, 0, "already", seconds=time.perf_counter() - t0)
    if state.is_terminal() and not relaxed:
        return ConnectResult(player, goal, None, "over", seconds=time.perf_counter() - t0)
    res = shortest_plan(state, player, goal, pairs=keys, relaxed=relaxed, time_limit=time_limit,
                        num_workers=num_workers, prune=prune, greedy=greedy, deterministic=deterministic)
    res.seconds = time.perf_counter() - t0
    return res


def shortest_plan(state: OrionState, player: int, goal: str = "sides", *, pairs=None,
                  blocked=(), relaxed: bool = False, time_limit: float = 10.0,
                  num_workers: int = 1, prune: bool = True, greedy: bool = True,
                  any_plan: bool = False, shared: ReachModel | None = None,
                  complete: bool = True, deterministic: bool = False) -> ConnectResult:
    """The search of :func:`connect_distance`, with hexes taken out of play (``blocked``).

    ``pairs`` is None (every pair) or a list of pair indices; no argument
    check. ``any_plan=True`` returns the greedy plan at once when there is
    one (status ``"unknown"``: a plan, its length not proved fewest); the
    answer "unreachable" stays a proof. Used by :mod:`.blocking`.
    ``shared``: a :class:`.reach.ReachModel` of the same position, player,
    goal and pairs without blocked hexes; its CP-SAT models answer the
    questions of more than one tile, ``blocked`` as assumptions (built once
    for a whole blocking search). Not with ``relaxed``. ``complete=False``
    skips the complete search of an ``any_plan`` question (the caller has
    just asked it). ``deterministic``: as :func:`connect_distance`.
    """
    t0 = time.perf_counter()
    if goal_fulfilled(state, player, goal, pairs):
        return ConnectResult(player, goal, 0, "already", seconds=time.perf_counter() - t0)
    if any_plan and complete and greedy and not relaxed and goal == "sides" and not use_reference():
        # Any plan will do: the complete search of :mod:`.plansearch` over every remaining
        # tile answers without a model (a plan, or a proof that none exists), unless it
        # leaves the question to the model (node limit, or a set OD-5 spoils).
        got = complete_plan(state, player, goal, pairs, blocked, len(state.remaining_tiles(player)))
        if got is not None:
            res = ConnectResult(player, goal, None, "unreachable")
            if got[0] == "feasible":
                res.plan, res.tiles, res.status = got[1], len(got[1]), "unknown"
            res.seconds = time.perf_counter() - t0
            return res
    ctx = ReachModel(state, player, goal, pairs=pairs, blocked=blocked, relaxed=relaxed)
    res = ConnectResult(player, goal, None, "unreachable", lower_bound=ctx.lb_tiles or 0)
    if ctx.lb_tiles is None:
        res.seconds = time.perf_counter() - t0
        return res
    lb = ctx.lb_tiles
    if lb == 1 and not relaxed and greedy and not use_reference():
        # "At most one tile?" first, by enumeration (ReachModel.decide): the
        # answer, or a lower bound of two at which the greedy plan can stop.
        q0 = time.perf_counter()
        one = ctx.decide(1, time_limit, num_workers, prune=prune, deterministic=deterministic)
        res.work += one.work
        res.questions.append((1, one.status, time.perf_counter() - q0))
        if one.status == "feasible":
            res.tiles, res.status, res.plan = 1, "optimal", one.plan
            if not any_plan:
                res.chain = _chain_fast(ctx, res.plan)
            res.seconds = time.perf_counter() - t0
            return res
        if one.status == "unknown":
            res.status = "unknown"
            res.seconds = time.perf_counter() - t0
            return res
        lb = 2
    # A greedy plan along cheapest chains gives an upper bound (and the answer
    # when it meets the lower bound); decision questions run below it.
    upper = None if relaxed or not greedy else greedy_plan(ctx, lb, more=any_plan)
    if upper is None and any_plan and greedy and not relaxed and not use_reference():
        # No greedy plan: a depth-first search along cheapest chains (:mod:`.plansearch`)
        # finds one far faster than the model does, when it finds one.
        upper = search_plan(state, player, goal, pairs, ctx.blocked)
    if any_plan and upper is not None and len(upper) > lb:
        res.plan, res.tiles, res.status = upper, len(upper), "unknown"
        res.seconds = time.perf_counter() - t0
        return res
    top = ctx.max_tiles if upper is None else len(upper) - 1
    ks: range | list[int] = range(lb, top + 1)
    if any_plan and upper is None and top > lb and not use_reference():
        # Any plan will do: "at most top tiles?" settles it in one question
        # (infeasible there is infeasible for every smaller k).
        ks = [top]
    for k in ks:
        left = time_limit - spent(t0, res.work, deterministic)
        if left <= 0:
            res.status = "unknown"
            break
        q0 = time.perf_counter()
        if shared is not None and k > 1 and not relaxed and not use_reference():
            ans = shared.decide(k, left, num_workers, prune=prune, avoid=ctx.blocked, deterministic=deterministic)
        else:
            ans = ctx.decide(k, left, num_workers, prune=prune, deterministic=deterministic)
        res.work += ans.work
        res.questions.append((k, ans.status, time.perf_counter() - q0))
        if ans.status == "feasible":
            res.tiles, res.status, res.plan = len(ans.plan), "optimal", ans.plan
            if len(ks) == 1 and k > lb:
                res.status = "unknown"   # a plan; not proved fewest
            break
        if ans.status == "unknown":
            res.status = "unknown"
            break
    else:
        if upper is not None:
            res.tiles, res.status, res.plan = len(upper), "optimal", upper
            res.questions.append((len(upper), "greedy", 0.0))
    if res.status == "unknown" and upper is not None:
        res.tiles, res.plan = len(upper), upper  # best plan known, optimality open
    if res.plan and (not any_plan or use_reference()):   # the witness chain (not asked for by any_plan)
        res.chain = _chain(ctx, res.plan) if use_reference() else _chain_fast(ctx, res.plan)
    res.seconds = time.perf_counter() - t0
    return res


def connect_within(state: OrionState, player: int, k: int, goal: str = "sides", *,
                   relaxed: bool = False, prune: bool = True, pairs=None,
                   time_limit: float = 10.0, num_workers: int = 1):
    """Decision question: can ``player`` reach ``goal`` with at most ``k`` tiles (hexes)?

    Returns
    -------
    (str, list)
        ``("feasible", plan)``, ``("infeasible", [])`` or ``("unknown", [])``.
        With ``prune=False`` the model keeps every hex and placement (no
        graph pruning), for cross-checks.

    Raises
    ------
    InputError
        As :func:`connect_distance`, and for a ``k`` that is no whole
        number of at least 0.
    """
    state, keys = check_query(state, player, goal, pairs, time_limit, num_workers, relaxed=relaxed, prune=prune)
    k = whole_argument("k", k, 0)   # 2.5 or True answered as 2 or 1 tiles, '2' failed inside the model
    ans = ReachModel(state, player, goal, pairs=keys, relaxed=relaxed).decide(
        k, time_limit, num_workers, prune=prune)
    return ans.status, ans.plan


def graph_distance(state: OrionState, player: int) -> int | None:
    """Fewest free hexes ``player`` must claim for W1 (node-weighted shortest path), or None.

    The answer of the relaxed :func:`connect_distance` (0-1 BFS, :mod:`.graphs`).

    Raises
    ------
    InputError
        For a ``state`` that is no Orion position or a player other than 0 or 1.
    """
    state, _ = check_query(state, player, "sides")
    cost = [0 if c == player else 1 if c < 0 else INF for c in state.colour[:-1].tolist()]
    best = min(min(node_weighted_distances(state.game.adjacency, cost, a)[h] for h in b)
               for a, b in state.game.side_pairs)
    return None if best >= INF else best


def greedy_plan(ctx: ReachModel, floor: int | None = None, more: bool = False) -> list[int] | None:
    """A plan covering the free hexes of a cheapest chain greedily; None if it fails.

    Targets: a cheapest path per viable pair (W1, networkx Dijkstra; on the
    default paths the path walked back along the flood-fill distances, and
    with ``more``, while no plan meets the floor, then Dijkstra's where it
    differs: the blocking and safety searches, where the alternative is the
    model) or a cheapest Steiner tree's free hexes (W2); each
    step takes the placement putting the most own hexes on uncovered targets
    and no opponent hex on a target. The plan is ordered by :func:`.plans.order_plan`; the shortest
    valid plan wins; on the default paths the search stops at a plan of
    ``floor`` tiles (default ``ctx.lb_tiles``), a lower bound.
    """
    state, player = ctx.state, ctx.player
    fast = not use_reference()

    def targets_list():
        if ctx.goal == "sides":
            for i, (a, b, dist, _, _) in enumerate(ctx._sides):
                if dist < INF:
                    if fast:
                        yield cheapest_free_hexes(ctx.adj, ctx.cost, ctx.dist_from_a(i), a, b)
                    else:
                        yield [h for h in node_weighted_path(ctx.adj, ctx.cost, a, b) if ctx.cost[h] == 1]
        elif ctx.lb_hexes < INF:
            on = [h for h in range(state.game.n) if ctx.tree[h] == ctx.lb_hexes]
            yield [h for h in on if ctx.cost[h] == 1]

    def dijkstra_paths():
        # The reference's paths (often others of the same cost), where they differ.
        if fast and more and ctx.goal == "sides":
            for i, (a, b, dist, _, _) in enumerate(ctx._sides):
                if dist < INF:
                    # The same path as node_weighted_path (networkx), without building a graph.
                    other = [h for h in node_weighted_path_fast(ctx.adj, ctx.cost, a, b) if ctx.cost[h] == 1]
                    if set(other) != set(cheapest_free_hexes(ctx.adj, ctx.cost, ctx.dist_from_a(i), a, b)):
                        yield other

    best = None
    stop = (ctx.lb_tiles or 0) if floor is None else floor
    for targets in itertools.chain(targets_list(), dijkstra_paths()):
        if fast and best is not None and len(best) <= stop:
            break   # no plan is shorter than the lower bound: the later paths cannot win
        plan = _cover(ctx, set(targets), fast)
        if plan is not None and (best is None or len(plan) < len(best)):
            plan = order_plan(state, player, plan, ctx.goal, ctx.pair_keys)
            if plan is not None:
                best = plan
    return best


def _cover(ctx: ReachModel, targets: set[int], fast: bool = True) -> list[int] | None:
    """Greedy cover of ``targets`` by own hexes of remaining tiles (see :func:`greedy_plan`).

    Each step takes the placement of the best score (own hexes on uncovered
    targets, times 10, less its own hexes; none of the other colour on a
    target; free hexes and an unused tile), the first of the best. With
    ``fast``, only the placements that can ever be chosen are scored, on
    index bitmasks (:func:`_cover_bits`: the same choices, fewer rows); else
    every placement (the reference).
    """
    if fast:
        return _cover_bits(ctx, targets)
    state, player, game = ctx.state, ctx.player, ctx.state.game
    n = game.n
    colour = state.colour.copy()
    colour[list(ctx.blocked)] = 2   # neither player's: never covered
    used = state.used[player].copy()
    tgt = np.zeros(n + 1, dtype=bool)
    tgt[list(targets)] = True
    rows = np.arange(len(game.pl_cells))
    cells, own, tiles = game.pl_cells[rows], game.pl_own[rows], game.pl_tile[rows]
    real = cells < n
    size = own.sum(axis=1)

    def scores() -> np.ndarray:
        ok = (colour[cells] < 0).all(axis=1) & ~used[tiles]
        hit = tgt[cells]
        gain = (hit & own).sum(axis=1)
        bad = (hit & ~own & real).any(axis=1)
        return np.where(ok & ~bad, gain * 10 - size, -1)

    plan = []
    while tgt.any():
        score = scores()
        i = int(score.argmax()) if len(score) else 0
        if not len(score) or score[i] <= 0:
            return None
        t = int(rows[i])
        pl = game.placements[t]
        game.paint(colour, (t,), player)
        tgt[list(pl.cells)] = False
        used[pl.tile] = True
        plan.append(t)
    return sorted(plan)


def _cover_bits(ctx: ReachModel, targets: set[int]) -> list[int] | None:
    """:func:`_cover`'s fast path: the same choices, on index bitmasks (:class:`.bitboard.BitTables`).

    Only the rows that can ever be chosen are scored: a positive score
    needs free hexes, an unused tile and an own hex on a target now, and
    all three only shrink, so the placements with an own hex on a target
    (:func:`.reach.usable_covering`), on free unblocked hexes, of an unused
    tile are picked once (one gather per cell column); each step then scores
    them in increasing id order with integer masks, the first of the best
    score winning as ``argmax`` does.
    """
    from .bitboard import BitTables

    state, player, game = ctx.state, ctx.player, ctx.state.game
    tab = BitTables.get(game)
    used = state.used[player]
    free = ctx.open_flags()   # blocked hexes are neither player's: never covered
    info = tab._cover_info
    if info is None:   # per placement: (id, own hexes, other hexes, hexes, tile bit, own hex count), made once
        info = tab._cover_info = [
            (t, own, opp, own | opp, 1 << tile, own.bit_count())
            for t, (own, opp, tile) in enumerate(zip(tab.own_idx, tab.opp_idx, game.pl_tile.tolist()))]
    cands = [info[t] for t in usable_covering(game, targets, free, ~used).tolist()]
    busy = used_bits = 0   # hexes covered and tiles used since the rows were picked
    tgt = 0
    for h in targets:
        tgt |= 1 << h
    plan = []
    while tgt:
        best, pick = 0, None
        for row in cands:
            t, own, opp, cells, tile, size = row
            if cells & busy or tile & used_bits or opp & tgt:
                continue
            score = (own & tgt).bit_count() * 10 - size
            if score > best:
                best, pick = score, row
        if pick is None:
            return None
        t, own, opp, cells, tile, size = pick
        busy |= cells
        tgt &= ~cells
        used_bits |= tile
        plan.append(t)
    return sorted(plan)


def cheapest_free_hexes(adj, cost, dist, sources, targets) -> list[int]:
    """The free hexes (cost 1) of a cheapest node-weighted path from ``sources`` to ``targets``; [] if none.

    Walks back from the target of least distance (ties: lowest index) along
    ``dist``, the distances from ``sources`` (:meth:`.reach.ReachModel.pairs`):
    a free hex at distance d has a neighbour at d - 1 or is a source; an own
    hex (cost 0) at distance d lies in a component of own hexes at d that
    holds a source (d = 0) or touches a free hex at d, through which the
    path came. No search over the board.
    """
    ends = [h for h in targets if dist[h] < INF]
    if not ends:
        return []
    v = min(ends, key=lambda x: (dist[x], x))
    out = []
    while True:
        d = dist[v]
        if cost[v] == 1:
            out.append(v)
            if d == 1 and v in sources:
                return out
            v = next(u for u in adj[v] if dist[u] == d - 1)
            continue
        # An own hex: the way into its component.
        seen, stack, entry = {v}, [v], None
        while stack and entry is None:
            x = stack.pop()
            if d == 0 and x in sources:
                return out
            for u in adj[x]:
                if dist[u] != d or u in seen:
                    continue
                if cost[u] == 0:
                    seen.add(u)
                    stack.append(u)
                elif d > 0:
                    entry = u
                    break
        if entry is None:
            raise ValueError("distances do not match the costs")
        v = entry


def cheapest_path(adj, cost, sources, targets) -> list[int]:
    """A cheapest node-weighted path from ``sources`` to ``targets`` (0-1 BFS with parents); [] if none.

    The same cost as :func:`.graphs.node_weighted_path` (possibly another
    path of that cost).
    """
    d = [INF] * len(cost)
    parent = [-1] * len(cost)
    dq: deque[int] = deque()
    for s in sources:
        if cost[s] < d[s]:
            d[s] = cost[s]
            dq.appendleft(s) if cost[s] == 0 else dq.append(s)
    while dq:
        u = dq.popleft()
        du = d[u]
        for v in adj[u]:
            cv = cost[v]
            if cv < INF and du + cv < d[v]:
                d[v], parent[v] = du + cv, u
                dq.appendleft(v) if cv == 0 else dq.append(v)
    ends = [h for h in targets if d[h] < INF]
    if not ends:
        return []
    h = min(ends, key=lambda x: (d[x], x))
    path = [h]
    while parent[h] >= 0:
        h = parent[h]
        path.append(h)
    return path[::-1]


def _chain_fast(ctx: ReachModel, plan: list[int]) -> list:
    """:func:`_chain` on bitmasks: the player's components after ``plan``, in the order of their
    smallest hex index; the first that fulfils the goal gives the witness, as
    :func:`.wins.evaluate_wins` gives it. The board's hexes are sorted by ``(r, q)``
    (:class:`.board.Board`), so grid bits grow with the hex index and a component's smallest
    hex is its lowest grid bit."""
    from .bitboard import BitTables
    from .plans import position_bits
    from .wins import W2_GALAXIES

    state, player, game = ctx.state, ctx.player, ctx.state.game
    tab = BitTables.get(game)
    pos = position_bits(state)
    index_of = tab._index_of
    if index_of is None:
        index_of = tab._index_of = {g: i for i, g in enumerate(tab.grid_bit)}
    grid = pos.colour_grid[player]
    new = 0
    for t in plan:
        new |= (1 << tab.grid_bit[t]) if ctx.relaxed else tab.own[t]
    grid |= new
    # The components that fulfil the goal (those holding a side's hex or a galaxy
    # are the only candidates); the one of the lowest grid bit wins.
    sides, grow, galaxies = tab.sides, tab.grow, pos.galaxies
    w1 = ctx.goal == "sides"
    if ctx.pair_keys is None:
        # No component fulfilled the goal before the plan (shortest_plan asks first; W1 on
        # any pair), so each one that does now holds a hex of the plan.
        seeds = new
    elif w1:
        if tab._all_sides is None:
            tab._all_sides = sum(sa | sb for sa, sb in sides)
        seeds = grid & tab._all_sides
    else:
        seeds = grid & galaxies
    best = 0
    while seeds:
        comp = grow(seeds & -seeds, grid)
        seeds &= ~comp
        if any(comp & sa and comp & sb for sa, sb in sides) if w1 else \
                (comp & galaxies).bit_count() >= W2_GALAXIES:
            if not best or comp & -comp < best & -best:
                best = comp
    if not best:
        return []
    hexes = game.board.hexes
    if w1:
        sa, sb = next((sa, sb) for sa, sb in sides if best & sa and best & sb)
        return [hexes[index_of[g]] for g in _path_within(tab, best, sa, sb)]
    members, m = [], best
    while m:
        low = m & -m
        members.append(index_of[low.bit_length() - 1])
        m ^= low
    return [hexes[i] for i in sorted(members)]


def _path_within(tab, comp: int, src: int, dst: int) -> list[int]:
    """A shortest path (grid bits) inside ``comp`` from a hex of ``src`` to one of ``dst``; [] if none.

    Breadth-first layers by shifts (the neighbours of :meth:`.bitboard.BitTables.grow`),
    then back from the lowest target bit of the last layer, through the
    lowest neighbour bit of each earlier layer.
    """
    w, w1 = tab.width, tab.width - 1

    def nbrs(m: int) -> int:
        return (m << 1) | (m >> 1) | (m << w) | (m >> w) | (m << w1) | (m >> w1)

    frontier = seen = comp & src
    layers = []
    while frontier and not frontier & dst:
        layers.append(frontier)
        frontier = nbrs(frontier) & comp & ~seen
        seen |= frontier
    if not frontier:
        return []
    cur = (frontier & dst) & -(frontier & dst)
    path = [cur]
    for layer in reversed(layers):
        m = nbrs(cur) & layer
        cur = m & -m
        path.append(cur)
    return [g.bit_length() - 1 for g in reversed(path)]


def _chain(ctx: ReachModel, plan: list[int]) -> list:
    """The goal's witness chain (hexes) after ``plan`` (relaxed: claimed hexes)."""
    state, player = ctx.state, ctx.player
    colour = state.colour.copy()
    if ctx.relaxed:
        colour[plan] = player
    else:
        state.game.paint(colour, plan, player)
    wins = evaluate_wins(state.game, colour, state.galaxy, state.hole)[player]
    return next((list(w.hexes) for w in wins if w.condition == GOALS[ctx.goal]), [])
