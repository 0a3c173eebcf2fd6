"""Connection, blocking and safety in Orion Duel as CP-SAT reachability models.

Three questions of RULES.md §4 ("Analysis questions"), for a player ``P``
while the opponent passes:

* :func:`connect_distance` -- the fewest of P's remaining tiles that achieve
  W1 (``goal="sides"``) or W2 (``goal="galaxies"``), with a witness plan;
* :func:`min_blocking_set` -- the fewest free hexes the opponent must occupy
  so that P can no longer achieve W1;
* :func:`is_safe_connection` -- whether no single opponent move can stop
  P's W1 (two disjoint ways remain).

Encoding
--------
*Reachability* (``connect_distance``) uses one Boolean ``x_t`` per candidate
placement ``t`` (tiles of one shape share the variable, with a count bound,
which removes their permutation symmetry) and *cost layers* as acyclic
support: every existing own component is contracted to one node, and
``R[v][j]`` means "node v is on the chain with at most j claimed (free)
hexes on its support path". A reached free hex at layer j is a source or
has a reached neighbour at layer j - 1; a contracted component at layer j
is a source or has a reached free neighbour at layer j. Every support cycle
would pass a free hex and climb a layer, so none exists and a reached hex
always has a real path back to a source. Layers are the unary form of the
distance-label ("ranking") acyclicity encodings of Gebser, Janhunen and
Rintanen [1]_, bounded as in bounded model checking; an earlier version
with integer labels ``d_u < d_h`` was one to two orders of magnitude slower.
Non-reachability (``min_blocking_set``, ``is_safe_connection``) needs no
support: a set closed under "reached and passable neighbour is reached"
that contains every passable source hex and misses every target proves that
no path exists (a fixpoint over-approximation, the usual way to state
unreachability for monotone graph properties, cf. [2]_); by Menger's
theorem its minimum blocking set is a minimum vertex cut [3]_.

Speed (issue 7): a first naive model (minimise the tile count directly)
did not prove optimality in 30 s. So :func:`connect_distance` (1) computes
a graph lower bound: the fewest free hexes still to claim on a chain
(node-weighted shortest paths for W1; an exact node-weighted Steiner tree
over the best 4 galaxies for W2, :func:`steiner_costs`), turned into tiles
by the largest own-hex counts of the remaining tiles; (2) builds a greedy
plan along such a chain as an upper bound (checked by :func:`verify_plan`);
(3) asks decision questions "at most k tiles?" upward from the lower bound
and below the upper bound; (4) for each k keeps only hexes whose cheapest
chain fits into what k tiles can give, and only placements putting an own
hex on them, and adds the bound "own hexes placed >= hexes to claim" as a
constraint. ``benchmarks/bench_orion.py --ablation`` measures (2) and (4).

Modelling decisions (document the relaxations):

* OD-3 in ``connect_distance``: a placement whose *opponent-coloured* hex
  covers a token is allowed only if that cover is legal on the current
  board (OD-3 is monotone, so it stays legal). A placement whose own hex
  covers a token without being legal now must have that hex on the chain
  and no chain source among its hexes; ordering the plan's tiles by their
  smallest layer then makes every cover legal when placed (a
  tile's own hexes are connected in the default set; tiles whose own
  hexes are not connected get the "legal now" treatment). Every witness is
  checked by :func:`verify_plan`.
* Blocking and safety over-approximate P: a free hex is passable when some
  remaining tile of P fits on free, unblocked hexes with an own hex there
  (tile counts, overlaps between tiles and OD-3 are ignored). A blocking
  set is therefore sound (P really cannot connect), minimal for this
  relaxation; the opponent "occupies" a hex by any colour but P's.
* ``relaxed=True`` ignores tile shapes altogether: any free hex can be
  claimed, one by one (the graph versions cross-checked against networkx
  in the tests).

References
----------
.. [1] M. Gebser, T. Janhunen, J. Rintanen, "SAT modulo graphs:
   acyclicity", Logics in Artificial Intelligence (JELIA 2014), LNCS 8761.
.. [2] S. Bayless, N. Bayless, H. H. Hoos, A. J. Hu, "SAT modulo monotonic
   theories", AAAI 2015.
.. [3] K. Menger, "Zur allgemeinen Kurventheorie", Fundamenta Mathematicae
   10 (1927).
.. [4] S. E. Dreyfus, R. A. Wagner, "The Steiner problem in graphs",
   Networks 1 (1971).
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from dataclasses import dataclass, field

import numpy as np
from ortools.sat.python import cp_model

from ...errors import InputError
from ...cpsat_runtime import new_model, run_solver
from .engine import W2_GALAXIES, OrionState, evaluate_wins

__all__ = [
    "ConnectResult", "BlockResult", "SafetyResult",
    "connect_distance", "connect_within", "min_blocking_set", "is_safe_connection",
    "verify_plan", "graph_distance", "passable_hexes", "can_connect", "steiner_costs",
]

_INF = 10 ** 6


@dataclass
class ConnectResult:
    """Answer of :func:`connect_distance`.

    Attributes
    ----------
    tiles : int or None
        Fewest tiles (relaxed: hexes) needed; None when unreachable or
        unknown (see ``status``).
    status : str
        ``"optimal"``, ``"unreachable"``, ``"already"`` (fulfilled now) or
        ``"unknown"`` (time limit hit; ``tiles`` then is None and
        ``lower_bound`` holds).
    plan : list of int
        Witness placements (action ids; relaxed: hex indices claimed).
    chain : list of (q, r)
        The reached chain of the witness.
    lower_bound : int
        The graph lower bound the search started from.
    questions : list of (int, str, float)
        Decision questions asked: ``(k, "feasible"/"infeasible"/"unknown", seconds)``.
    seconds : float
        Wall time.
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


@dataclass
class BlockResult:
    """Answer of :func:`min_blocking_set`: the hexes (``None`` if P already fulfils W1)."""

    player: int
    hexes: list | None
    status: str
    seconds: float = 0.0


@dataclass
class SafetyResult:
    """Answer of :func:`is_safe_connection`; ``refutation`` is an opponent action that cuts."""

    player: int
    safe: bool
    refutation: int | None
    seconds: float = 0.0

    def __bool__(self) -> bool:
        return self.safe


# ---------------------------------------------------------------------------
# connect_distance


def connect_distance(state: OrionState, player: int, goal: str = "sides", *,
                     relaxed: bool = False, time_limit: float = 10.0,
                     num_workers: int = 1, prune: bool = True,
                     greedy: bool = True) -> ConnectResult:
    """Fewest remaining tiles for ``player`` to achieve W1 or W2 if the opponent passes.

    Parameters
    ----------
    state : OrionState
    player : int
        0 or 1.
    goal : {"sides", "galaxies"}
        W1 (a chain joining opposite sides) or W2 (a chain over 4 galaxies), OD-4.
    relaxed : bool
        Ignore tile shapes: any free hex can be claimed, the answer counts hexes.
    time_limit : float
        Seconds for all decision questions together.
    num_workers : int
        CP-SAT workers per question.
    prune, greedy : bool
        Restrict each question to hexes of cheap chains / start from a
        greedy plan as upper bound (both on by default; off only to measure
        what they bring, see ``benchmarks/bench_orion.py``).

    Returns
    -------
    ConnectResult

    Raises
    ------
    InputError
        For an unknown ``goal`` or player.

    Notes
    -----
    Decision questions ``k = LB, LB + 1, ...`` (see the module docstring);
    the first feasible ``k`` is optimal because every smaller one was
    proved infeasible (or is below the graph bound).
    """
    t0 = time.perf_counter()
    _check(player, goal)
    if _fulfilled(state, player, goal):
        return ConnectResult(player, goal, 0, "already", seconds=time.perf_counter() - t0)
    ctx = _Context(state, player, goal, relaxed)
    res = ConnectResult(player, goal, None, "unreachable", lower_bound=ctx.lb_tiles or 0)
    if ctx.lb_tiles is None:
        res.seconds = time.perf_counter() - t0
        return res
    # A greedy plan along shortest chains gives an upper bound (and the answer
    # when it meets the lower bound); decision questions run below it.
    upper = None if relaxed or not greedy else ctx.greedy_plan()
    top = ctx.max_tiles if upper is None else len(upper) - 1
    for k in range(ctx.lb_tiles, top + 1):
        left = time_limit - (time.perf_counter() - t0)
        if left <= 0:
            res.status = "unknown"
            break
        q0 = time.perf_counter()
        status, plan, chain = ctx.solve(k, left, num_workers, prune=prune)
        res.questions.append((k, status, time.perf_counter() - q0))
        if status == "feasible":
            res.tiles, res.status, res.plan, res.chain = k, "optimal", plan, chain
            break
        if status == "unknown":
            res.status = "unknown"
            break
    else:
        if upper is not None:
            res.tiles, res.status, res.plan = len(upper), "optimal", upper
            res.chain = _plan_chain(state, player, upper, goal)
            res.questions.append((len(upper), "greedy", 0.0))
    if res.status == "unknown" and upper is not None:
        res.tiles, res.plan = len(upper), upper  # best plan known, optimality open
        res.chain = _plan_chain(state, player, upper, goal)
    res.seconds = time.perf_counter() - t0
    res.seconds = time.perf_counter() - t0
    return res


def connect_within(state: OrionState, player: int, k: int, goal: str = "sides", *,
                   relaxed: bool = False, prune: bool = True, time_limit: float = 10.0,
                   num_workers: int = 1):
    """Decision question: can ``player`` achieve ``goal`` with at most ``k`` tiles (hexes)?

    Returns
    -------
    (str, list, list)
        ``("feasible", plan, chain)``, ``("infeasible", [], [])`` or
        ``("unknown", [], [])``. With ``prune=False`` the model keeps every
        hex and placement (no graph pruning), for cross-checks.
    """
    _check(player, goal)
    ctx = _Context(state, player, goal, relaxed)
    return ctx.solve(k, time_limit, num_workers, prune=prune)


def verify_plan(state: OrionState, player: int, plan: list[int], goal: str = "sides",
                relaxed: bool = False) -> bool:
    """Check a witness independently: play ``plan`` for ``player`` (opponent passing).

    Shaped plans are placed one legal placement at a time (OD-2, OD-3 via the
    engine, any order that works); relaxed plans colour the listed free hex
    indices. Returns True when the goal is fulfilled afterwards.
    """
    colour = state.colour.copy()
    if relaxed:
        for h in plan:
            if colour[h] >= 0:
                return False
            colour[h] = player
    else:
        sim = state.clone()
        sim.winner = None
        todo = list(plan)
        while todo:
            for a in todo:
                sim.player = player
                sim._legal = {}
                if a in sim._compute_legal(player):
                    pl = sim.game.placements[a]
                    for c, o in zip(pl.cells, pl.own):
                        sim.colour[c] = player if o else 1 - player
                    sim.used[player, pl.tile] = True
                    todo.remove(a)
                    break
            else:
                return False
        colour = sim.colour
    wins = evaluate_wins(state.game, colour, state.galaxy, state.hole)[player]
    want = "W1" if goal == "sides" else "W2"
    return any(w.condition == want for w in wins)


def _plan_chain(state, player, plan, goal) -> list:
    """The witness chain (hexes) after playing ``plan`` for ``player``."""
    colour = state.colour.copy()
    for a in plan:
        pl = state.game.placements[a]
        for c, o in zip(pl.cells, pl.own):
            colour[c] = player if o else 1 - player
    want = "W1" if goal == "sides" else "W2"
    wins = evaluate_wins(state.game, colour, state.galaxy, state.hole)[player]
    return next((list(w.hexes) for w in wins if w.condition == want), [])


def graph_distance(state: OrionState, player: int) -> int | None:
    """Fewest free hexes ``player`` must claim for W1 (node-weighted shortest path), or None.

    The plain graph answer of the relaxed ``connect_distance`` (0-1 BFS).
    """
    cost = _costs(state, player)
    best = _INF
    for a, b in state.game.side_pairs:
        d = _dist_from(state.game.adjacency, cost, a)
        best = min(best, min(d[h] for h in b))
    return None if best >= _INF else best


# ---------------------------------------------------------------------------
# min_blocking_set and is_safe_connection


def min_blocking_set(state: OrionState, player: int, *, relaxed: bool = False,
                     pairs: list[int] | None = None, time_limit: float = 10.0,
                     num_workers: int = 1) -> BlockResult:
    """Fewest free hexes the opponent must occupy so that ``player`` cannot achieve W1.

    Parameters
    ----------
    state : OrionState
    player : int
    relaxed : bool
        Any free hex is passable for ``player`` (else: a hex is passable when
        one of ``player``'s remaining tiles fits there with an own hex, on
        free unblocked hexes).
    pairs : list of int, optional
        Indices of the opposite-side pairs to block (default all three).
    time_limit : float
    num_workers : int

    Returns
    -------
    BlockResult
        ``hexes`` is the blocking set as ``(q, r)`` list (empty when
        ``player`` already cannot connect), ``None`` when ``player``
        already fulfils W1 (nothing can block it).

    Notes
    -----
    Model: Booleans ``b_h`` (blocked) on free hexes, ``pass_h`` (passable)
    forced true unless a blocked hex spoils every way to put an own hex on
    ``h``, and per pair a closed reach set containing the passable source
    side and missing the target side; minimise the blocked count. With
    ``relaxed=True`` and one pair this is the minimum vertex cut [3]_.
    """
    t0 = time.perf_counter()
    game = state.game
    pairs = list(range(len(game.side_pairs))) if pairs is None else list(pairs)
    if _fulfilled(state, player, "sides", pairs):
        return BlockResult(player, None, "already", time.perf_counter() - t0)
    model = new_model()
    free = [h for h in range(game.n) if state.colour[h] < 0]
    # Variables: blocked hexes.
    b = {h: model.new_bool_var(f"b_{h}") for h in free}
    # Constraints: passability of every free hex, lower-bounded by its tile conditions.
    passv = _passability(model, state, player, relaxed, lambda h: [b[h]])
    # Constraints: one closed reach set per pair; the target side is never reached.
    _closed_reach_sets(model, state, player, passv, pairs)
    model.minimize(sum(b.values()))
    status, solver = _solve(model, time_limit, num_workers)
    if status == "infeasible":  # cannot happen: blocking every free hex always works
        raise RuntimeError("blocking model infeasible")
    hexes = None if status == "unknown" else [game.board.hexes[h] for h in free
                                              if solver.value(b[h])]
    return BlockResult(player, hexes, "optimal" if status == "optimal" else status,
                       time.perf_counter() - t0)


def is_safe_connection(state: OrionState, player: int, *, method: str = "sat",
                       pairs: list[int] | None = None, time_limit: float = 10.0,
                       num_workers: int = 1) -> SafetyResult:
    """True when no single legal opponent move can stop ``player``'s W1.

    ``player`` must be able to connect now (in the passability relaxation of
    :func:`min_blocking_set`) and still after every legal opponent placement
    (OD-2, OD-3), i.e. two disjoint ways remain. A fulfilled W1 is safe.

    Parameters
    ----------
    method : {"sat", "enumerate"}
        ``"sat"``: one CP-SAT model, a Boolean per opponent placement
        (exactly one) and the closed-reach-set encoding of "``player`` is
        cut off"; ``"enumerate"``: try every opponent placement with a BFS
        (the independent check used by the tests).
    pairs : list of int, optional
        Opposite-side pairs that count (default all three: P is safe while
        any pair stays joinable).

    Returns
    -------
    SafetyResult
        ``refutation`` is an opponent action that cuts ``player`` off.
    """
    t0 = time.perf_counter()
    if method not in ("sat", "enumerate"):
        raise InputError(f"unknown method {method!r} (sat or enumerate)")
    game = state.game
    pairs = list(range(len(game.side_pairs))) if pairs is None else list(pairs)
    if _fulfilled(state, player, "sides", pairs):
        return SafetyResult(player, True, None, time.perf_counter() - t0)
    if not can_connect(state, player, pairs=pairs):
        return SafetyResult(player, False, None, time.perf_counter() - t0)
    opp = 1 - player
    moves = state.legal_actions(opp) if state.winner is None else []
    game = state.game
    if method == "enumerate":
        for a in moves:
            pl = game.placements[a]
            colour = state.colour.copy()
            for c, o in zip(pl.cells, pl.own):
                colour[c] = opp if o else player
            if not can_connect(state, player, colour, pairs=pairs):
                return SafetyResult(player, False, a, time.perf_counter() - t0)
        return SafetyResult(player, True, None, time.perf_counter() - t0)
    model = new_model()
    # Variables: which opponent placement is played (exactly one).
    y = {a: model.new_bool_var(f"y_{a}") for a in moves}
    model.add_exactly_one(y.values())
    cover: dict[int, list] = {}
    gift: dict[int, list] = {}
    for a, v in y.items():
        pl = game.placements[a]
        for c, o in zip(pl.cells, pl.own):
            cover.setdefault(c, []).append(v)
            if not o:
                gift.setdefault(c, []).append(v)
    # Constraints: a hex is blocked when the move covers it; P's colour on it is a gift.
    passv = _passability(model, state, player, False, lambda h: cover.get(h, []),
                         gifts=gift)
    _closed_reach_sets(model, state, player, passv, pairs)
    status, solver = _solve(model, time_limit, num_workers)
    if status == "unknown":
        raise TimeoutError(f"is_safe_connection: no answer in {time_limit} s")
    if status == "infeasible":
        return SafetyResult(player, True, None, time.perf_counter() - t0)
    cut = next(a for a, v in y.items() if solver.value(v))
    return SafetyResult(player, False, cut, time.perf_counter() - t0)


def passable_hexes(state: OrionState, player: int, colour: np.ndarray | None = None,
                   relaxed: bool = False) -> set[int]:
    """Hex indices ``player`` has or could colour (the relaxation of the blocking models)."""
    colour = state.colour if colour is None else colour
    game = state.game
    own = set(np.flatnonzero(colour[:-1] == player).tolist())
    if relaxed:
        return own | set(np.flatnonzero(colour[:-1] < 0).tolist())
    ok = (colour[game.pl_cells] < 0).all(axis=1) & ~state.used[player][game.pl_tile]
    cells = game.pl_cells[ok][game.pl_own[ok]]
    return own | set(cells.tolist())


def can_connect(state: OrionState, player: int, colour: np.ndarray | None = None,
                relaxed: bool = False, pairs: list[int] | None = None) -> bool:
    """BFS: some opposite pair is joined through passable hexes (:func:`passable_hexes`)."""
    return _joins_opposite_sides(state.game, passable_hexes(state, player, colour, relaxed), pairs)


# ---------------------------------------------------------------------------
# helpers


def _check(player: int, goal: str) -> None:
    if player not in (0, 1):
        raise InputError(f"player must be 0 or 1, got {player!r}")
    if goal not in ("sides", "galaxies"):
        raise InputError(f"unknown goal {goal!r} (sides = W1, galaxies = W2)")


def _fulfilled(state, player, goal, pairs=None) -> bool:
    if goal == "galaxies":
        wins = evaluate_wins(state.game, state.colour, state.galaxy, state.hole)[player]
        return any(w.condition == "W2" for w in wins)
    own = set(np.flatnonzero(state.colour[:-1] == player).tolist())
    return _joins_opposite_sides(state.game, own, pairs)


def _joins_opposite_sides(game, hexes, pairs=None) -> bool:
    """BFS: do ``hexes`` hold a chain from one side of an opposite pair to the other (W1)?"""
    adj = game.adjacency
    sp = game.side_pairs
    for k in (range(len(sp)) if pairs is None else pairs):
        a, bside = sp[k]
        seen = {h for h in a if h in hexes}
        todo = deque(seen)
        while todo:
            u = todo.popleft()
            if u in bside:
                return True
            for v in adj[u]:
                if v in hexes and v not in seen:
                    seen.add(v)
                    todo.append(v)
    return False


def _costs(state, player) -> list[int]:
    """Node cost: 0 own colour, 1 free, infinite opponent colour."""
    return [0 if c == player else 1 if c < 0 else _INF for c in state.colour[:-1].tolist()]


def _dist_from(adj, cost, sources) -> list[int]:
    """Node-weighted distances (costs of every hex on the path, source included), 0-1 BFS."""
    d = [_INF] * len(cost)
    dq = deque()
    for s in sources:
        if cost[s] < _INF and cost[s] < d[s]:
            d[s] = cost[s]
            if cost[s] == 0:
                dq.appendleft(s)
            else:
                dq.append(s)
    while dq:
        u = dq.popleft()
        for v in adj[u]:
            if cost[v] >= _INF:
                continue
            nd = d[u] + cost[v]
            if nd < d[v]:
                d[v] = nd
                if cost[v] == 0:
                    dq.appendleft(v)
                else:
                    dq.append(v)
    return d


class _Context:
    """Bounds, pruning data and the decision model of connect_distance."""

    def __init__(self, state: OrionState, player: int, goal: str, relaxed: bool) -> None:
        self.state, self.player, self.goal, self.relaxed = state, player, goal, relaxed
        game = state.game
        self.adj = game.adjacency
        self.cost = _costs(state, player)
        n = game.n
        self.free = [h for h in range(n) if self.cost[h] == 1]
        # Connected components of P's colour (contracted to one node each).
        self.comp_of: dict[int, int] = {}
        self.comps: list[list[int]] = []
        for s0 in range(n):
            if self.cost[s0] == 0 and s0 not in self.comp_of:
                cid = len(self.comps)
                members = [s0]
                self.comp_of[s0] = cid
                for u in members:
                    for v in self.adj[u]:
                        if self.cost[v] == 0 and v not in self.comp_of:
                            self.comp_of[v] = cid
                            members.append(v)
                self.comps.append(members)
        if relaxed:
            self.supply = [1] * len(self.free)
        else:
            rem = state.remaining_tiles(player)
            # Shape classes of the remaining tiles: representative -> its tiles.
            self.type_tiles: dict[int, list[int]] = {}
            first: dict[tuple, int] = {}
            for t in rem:
                key = game.tiles.tiles[t].cells
                rep = first.setdefault(key, t)
                self.type_tiles.setdefault(rep, []).append(t)
            self.type_count = {rep: len(ts) for rep, ts in self.type_tiles.items()}
            self.supply = sorted((game.tiles.tiles[t].own_count for t in rem), reverse=True)
        self.prefix = list(itertools.accumulate(self.supply))
        self.max_tiles = len(self.supply)
        if goal == "sides":
            self.pairs = []
            for a, b in game.side_pairs:
                da = _dist_from(self.adj, self.cost, a)
                db = _dist_from(self.adj, self.cost, b)
                through = [da[h] + db[h] - self.cost[h] if da[h] < _INF and db[h] < _INF else _INF
                           for h in range(n)]
                self.pairs.append((a, b, min(da[h] for h in b), through, da, db))
            self.lb_hexes = min(p[2] for p in self.pairs)
        else:
            gals = [h for h in range(n) if state.galaxy[h] and self.cost[h] < _INF]
            # Exact node-weighted Steiner trees over every 4 galaxies
            # (Dreyfus-Wagner): tree[h] = cheapest chain over 4 galaxies through h.
            self.tree = steiner_costs(self.adj, self.cost, gals, W2_GALAXIES)
            self.lb_hexes = int(self.tree.min()) if len(gals) >= W2_GALAXIES else _INF
            self.subsets = [tuple(gals)] if self.lb_hexes < _INF else []
        self.lb_tiles = next((k + 1 for k, v in enumerate(self.prefix) if v >= self.lb_hexes), None)
        if self.lb_hexes == 0:
            self.lb_tiles = 0
        if self.lb_hexes >= _INF:
            self.lb_tiles = None

    def useful(self, budget: int) -> tuple[set[int], list]:
        """Hexes that can lie on a chain of cost <= budget, and the viable pairs/subsets."""
        n = self.state.game.n
        if self.goal == "sides":
            viable = [p for p in self.pairs if p[2] <= budget]
            hexes = {h for p in viable for h in range(n) if p[3][h] <= budget}
            return hexes, viable
        if self.lb_hexes > budget:
            return set(), []
        return {h for h in range(n) if self.tree[h] <= budget}, self.subsets

    def solve(self, k: int, time_limit: float, num_workers: int, prune: bool):
        state, player, game = self.state, self.player, self.state.game
        budget = self.prefix[k - 1] if 0 < k <= len(self.prefix) else (0 if k <= 0 else self.prefix[-1] if self.prefix else 0)
        n = game.n
        if prune:
            U, viable = self.useful(budget)
        else:
            U = {h for h in range(n) if self.cost[h] < _INF}
            viable = self.pairs if self.goal == "sides" else self.subsets
        if not U or not viable:
            return "infeasible", [], []
        model = new_model()
        # Variables: candidate placements (relaxed: one claim per free hex).
        x: dict[int, cp_model.IntVar] = {}
        own_by_hex: dict[int, list] = {}
        cover_by_hex: dict[int, list] = {}
        needs: list[tuple[int, list[int], list[int]]] = []  # (t, token hexes to reach, own hexes)
        if self.relaxed:
            for h in self.free:
                if h in U:
                    x[h] = model.new_bool_var(f"claim_{h}")
                    own_by_hex[h] = [x[h]]
            units = {t: 1 for t in x}
        else:
            units = {}
            cand = self._candidates(U)
            for t, need in cand:
                pl = game.placements[t]
                x[t] = model.new_bool_var(f"x_{game.tiles.tiles[pl.tile].name}_{t}")
                units[t] = sum(pl.own)
                for c, o in zip(pl.cells, pl.own):
                    cover_by_hex.setdefault(c, []).append(x[t])
                    if o:
                        own_by_hex.setdefault(c, []).append(x[t])
                if need:
                    needs.append((t, need, [c for c, o in zip(pl.cells, pl.own) if o]))
            # Constraints: no overlap (OD-2), each tile at most once.
            for h, vs in cover_by_hex.items():
                if len(vs) > 1:
                    model.add_at_most_one(vs)
            # Tiles of one shape are interchangeable: one variable per shape
            # placement, at most (remaining tiles of that shape) of them.
            by_type: dict[int, list] = {}
            for t, v in x.items():
                by_type.setdefault(game.placements[t].tile, []).append(v)
            for rep, vs in by_type.items():
                cnt = self.type_count[rep]
                if len(vs) > cnt:
                    model.add(sum(vs) <= cnt) if cnt > 1 else model.add_at_most_one(vs)
        # Constraints: the decision question and the graph bound on own hexes placed.
        model.add(sum(x.values()) <= k)
        if prune and self.lb_hexes > 0:
            model.add(sum(units[t] * v for t, v in x.items()) >= self.lb_hexes)
        # Nodes of the reachability graph: free hexes of U (cost 1) and the
        # existing own components touching U, contracted to one node (cost 0).
        adj = self.adj
        comp_of = self.comp_of
        nodes: dict = {}
        for h in sorted(U):
            if self.cost[h] == 1:
                nodes[("h", h)] = [h]
            elif self.cost[h] == 0:
                nodes.setdefault(("c", comp_of[h]), self.comps[comp_of[h]])
        key_of = {}
        for v, hs in nodes.items():
            for h in hs:
                key_of[h] = v
        nbrs = {v: sorted({key_of[u] for h in hs for u in adj[h] if u in key_of} - {v})
                for v, hs in nodes.items()}
        cost = {v: (1 if v[0] == "h" else 0) for v in nodes}
        # Layer bounds: a node is reached with at most j claimed hexes, lo <= j <= hi.
        lo, hi = {}, {}
        for v, hs in nodes.items():
            h = hs[0]
            if not prune:
                lo[v], hi[v] = cost[v], budget
            elif self.goal == "sides":
                lo[v] = min(p[4][h] for p in viable)
                hi[v] = budget - min(p[5][h] - self.cost[h] for p in viable)
            else:
                lo[v], hi[v] = cost[v], budget
        nodes = {v: hs for v, hs in nodes.items() if lo[v] <= hi[v]}
        if not nodes:
            return "infeasible", [], []
        # Variables: R[v][j] = "v reached with at most j claimed hexes on its support path".
        R = {v: {j: model.new_bool_var(f"R_{v[0]}{v[1]}_{j}") for j in range(lo[v], hi[v] + 1)}
             for v in nodes}
        r = {v: R[v][hi[v]] for v in nodes}
        # Constraints: layers are monotone.
        for v in nodes:
            for j in range(lo[v], hi[v]):
                model.add_implication(R[v][j], R[v][j + 1])
        # Constraints: a reached free hex has P's colour (an own hex of a chosen placement).
        for v in nodes:
            if v[0] == "h":
                model.add(r[v] <= sum(own_by_hex.get(v[1], [])))
        # Variables and constraints: sources.
        src: dict = {}
        tok = self.state.token
        if self.goal == "sides":
            sel = []
            src_pairs: dict = {}
            for i, p in enumerate(viable):
                s_k = model.new_bool_var(f"pair_{i}")
                sel.append(s_k)
                # Constraints: the chosen pair's target side is reached.
                targets = [r[v] for v, hs in nodes.items() if any(h in p[1] for h in hs)]
                model.add_bool_or(targets or [model.new_constant(0)]).only_enforce_if(s_k)
                for v, hs in nodes.items():
                    if any(h in p[0] for h in hs):
                        if v not in src:
                            src[v] = model.new_bool_var(f"src_{v[0]}{v[1]}")
                        src_pairs.setdefault(v, []).append(s_k)
            model.add_exactly_one(sel)
            for v, s in src.items():
                model.add_bool_or(src_pairs[v]).only_enforce_if(s)
        else:
            for v, hs in nodes.items():
                if v[0] == "c" or not tok[v[1]]:
                    src[v] = model.new_bool_var(f"src_{v[0]}{v[1]}")
            model.add_exactly_one(src.values())
            # Constraints: the chain covers at least 4 galaxies (W2).
            gal = [(sum(int(self.state.galaxy[h]) for h in hs), r[v]) for v, hs in nodes.items()]
            model.add(sum(g * lit for g, lit in gal if g) >= W2_GALAXIES)
        # Constraints: support -- a node reached at layer j is a source or has a
        # neighbour reached at layer j - cost (free hexes climb one layer, so no cycle).
        for v in nodes:
            for j in range(lo[v], hi[v] + 1):
                lits = [src[v]] if v in src and j >= cost[v] else []
                jj = j - cost[v]
                lits += [R[u][jj] for u in nbrs[v] if u in R and lo[u] <= jj <= hi[u]]
                model.add_bool_or(lits + [R[v][j].negated()])
        # Constraints: OD-3 for own-colour token covers not legal now -- the
        # token hex is on the chain and the tile holds no source.
        for t, hs, owns in needs:
            for h in hs:
                v = ("h", h)
                if v in r:
                    model.add_implication(x[t], r[v])
                else:
                    model.add(x[t] == 0)
            for g in owns:
                if ("h", g) in src:
                    model.add_implication(x[t], src[("h", g)].negated())
        status, solver = _solve(model, time_limit, num_workers)
        if status in ("optimal", "feasible"):
            chosen = [t for t, v in x.items() if solver.value(v)]
            plan = sorted(chosen) if self.relaxed else self._assign_tiles(chosen)
            chain = sorted((game.board.hexes[h] for v, hs in nodes.items() if solver.value(r[v])
                            for h in hs), key=lambda h: (h[1], h[0]))
            return "feasible", plan, chain
        return status, [], []

    def greedy_plan(self) -> list[int] | None:
        """A plan covering the free hexes of a cheapest chain greedily; None if it fails.

        Targets: a shortest path per viable pair (W1) or a cheapest Steiner
        tree's free hexes (W2); each step takes the placement putting the most
        own hexes on uncovered targets and no opponent hex on a target. The
        plan is checked with :func:`verify_plan`; the shortest valid plan wins.
        """
        state, player, game = self.state, self.player, self.state.game
        n = game.n
        targets_list = []
        if self.goal == "sides":
            for a, b, dist, through, da, db in self.pairs:
                if dist >= _INF:
                    continue
                end = min(b, key=lambda h: da[h])
                path, seen = [end], {end}
                while not (path[-1] in a and da[path[-1]] == self.cost[path[-1]]):
                    u = path[-1]
                    prev = [v for v in self.adj[u]
                            if v not in seen and da[v] + self.cost[u] == da[u]]
                    if not prev:
                        break
                    prev.sort(key=lambda v: da[v])
                    path.append(prev[0])
                    seen.add(prev[0])
                targets_list.append([h for h in path if self.cost[h] == 1])
        else:
            if self.lb_hexes < _INF:
                on = [h for h in range(n) if self.tree[h] == self.lb_hexes]
                targets_list.append([h for h in on if self.cost[h] == 1])
        best = None
        for targets in targets_list:
            plan = self._cover(set(targets))
            if plan is not None and verify_plan(state, player, plan, self.goal) \
                    and (best is None or len(plan) < len(best)):
                best = plan
        return best

    def _cover(self, targets: set[int]) -> list[int] | None:
        state, player, game = self.state, self.player, self.state.game
        n = game.n
        colour = state.colour.copy()
        used = state.used[player].copy()
        tgt = np.zeros(n + 1, dtype=bool)
        tgt[list(targets)] = True
        real = game.pl_cells < n
        plan = []
        while tgt.any():
            ok = (colour[game.pl_cells] < 0).all(axis=1) & ~used[game.pl_tile]
            hit = tgt[game.pl_cells]
            gain = (hit & game.pl_own).sum(axis=1)
            bad = (hit & ~game.pl_own & real).any(axis=1)
            score = np.where(ok & ~bad, gain * 10 - game.pl_own.sum(axis=1), -1)
            t = int(score.argmax())
            if score[t] <= 0:
                return None
            pl = game.placements[t]
            for c, o in zip(pl.cells, pl.own):
                colour[c] = player if o else 1 - player
                tgt[c] = False
            used[pl.tile] = True
            plan.append(t)
        return sorted(plan)

    def _assign_tiles(self, chosen: list[int]) -> list[int]:
        """Map placements of shape representatives to distinct remaining tiles of that shape."""
        game = self.state.game
        pool = {rep: list(ts) for rep, ts in self.type_tiles.items()}
        plan = []
        for t in chosen:
            pl = game.placements[t]
            tile = pool[pl.tile].pop(0)
            plan.append(game.placement_id(tile, zip(pl.cells, pl.own)))
        return sorted(plan)

    def _candidates(self, U: set[int]) -> list[tuple[int, list[int]]]:
        """Placements of remaining tiles on free hexes with an own hex in U, OD-3-admissible.

        Returns ``(action, own token hexes that must be on the chain)`` pairs.
        """
        state, player, game = self.state, self.player, self.state.game
        colour, token = state.colour, state.token
        rep_mask = np.zeros(len(game.tiles.tiles), dtype=bool)
        rep_mask[list(self.type_tiles)] = True
        ok = (colour[game.pl_cells] < 0).all(axis=1) & rep_mask[game.pl_tile]
        inU = np.zeros(game.n + 1, dtype=bool)
        inU[list(U)] = True
        ok &= (inU[game.pl_cells] & game.pl_own).any(axis=1)
        out = []
        adj = self.adj
        for t in np.flatnonzero(ok).tolist():
            pl = game.placements[t]
            need = []
            good = True
            if state.pl_token[t]:
                cols = [player if o else 1 - player for o in pl.own]
                for i, h in enumerate(pl.cells):
                    if not token[h]:
                        continue
                    if _joined_now(pl.cells, cols, i, colour, adj):
                        continue
                    if cols[i] != player or h not in U or not _own_connected(pl, adj):
                        good = False
                        break
                    need.append(h)
            if good:
                out.append((t, need))
        return out


def steiner_costs(adj, cost, terminals, size: int) -> np.ndarray:
    """Per hex, the cheapest node-weighted tree holding ``size`` terminals and that hex.

    Dreyfus-Wagner dynamic programming (module reference [4]) over the subsets of ``terminals``
    of at most ``size`` elements, vectorised over hexes with numpy; the cost
    of a tree is the sum of its node costs (``cost``; ``>= _INF`` forbids a
    hex). Returns an array of shape (n,) (``_INF`` where no tree exists).
    """
    n = len(cost)
    c = np.minimum(np.array(cost, dtype=np.int64), _INF)
    nb = np.full((n, 6), n, dtype=np.int64)
    for h, ns in enumerate(adj):
        nb[h, :len(ns)] = ns
    t = len(terminals)
    best = np.full(n, _INF, dtype=np.int64)
    if t < size:
        return best
    dp: dict[int, np.ndarray] = {}

    def grow(a: np.ndarray) -> np.ndarray:
        a = np.minimum(a, _INF)
        while True:
            ext = np.append(a, _INF)
            b = np.minimum(a, ext[nb].min(axis=1) + c)
            b = np.minimum(b, _INF)
            if np.array_equal(a, b):
                return a
            a = b

    for i, g in enumerate(terminals):
        a = np.full(n, _INF, dtype=np.int64)
        a[g] = c[g]
        dp[1 << i] = grow(a)
    for m in range(2, size + 1):
        for combo in itertools.combinations(range(t), m):
            S = sum(1 << i for i in combo)
            a = np.full(n, _INF, dtype=np.int64)
            sub = (S - 1) & S
            while sub:
                if sub < S ^ sub:  # each split once
                    a = np.minimum(a, dp[sub] + dp[S ^ sub] - c)
                sub = (sub - 1) & S
            dp[S] = grow(a)
            if m == size:
                best = np.minimum(best, dp[S])
    return np.minimum(best, _INF)


def _joined_now(cells, cols, i, colour, adj) -> bool:
    """OD-3 for cell ``i`` of a placement against the current colours."""
    c = cols[i]
    group = {cells[i]}
    todo = [cells[i]]
    while todo:
        u = todo.pop()
        for j, v in enumerate(cells):
            if v not in group and cols[j] == c and v in adj[u]:
                group.add(v)
                todo.append(v)
    return any(colour[v] == c for u in group for v in adj[u])


def _own_connected(pl, adj) -> bool:
    own = [c for c, o in zip(pl.cells, pl.own) if o]
    seen, todo = {own[0]}, [own[0]]
    while todo:
        u = todo.pop()
        for v in own:
            if v not in seen and v in adj[u]:
                seen.add(v)
                todo.append(v)
    return len(seen) == len(own)


def _passability(model, state, player, relaxed, blockers, gifts=None) -> dict:
    """pass_h literals for free hexes: true unless every way to colour h is blocked.

    ``blockers(h)`` lists literals that mean "h is occupied by the opponent".
    """
    game = state.game
    free = [h for h in range(game.n) if state.colour[h] < 0]
    passv = {}
    if relaxed:
        conds = {h: [()] for h in free}
    else:
        ok = (state.colour[game.pl_cells] < 0).all(axis=1) & ~state.used[player][game.pl_tile]
        conds = {}
        for t in np.flatnonzero(ok).tolist():
            pl = game.placements[t]
            for c, o in zip(pl.cells, pl.own):
                if o:
                    conds.setdefault(c, set()).add(frozenset(pl.cells) - {c})
        for h, sets in conds.items():  # keep the inclusion-minimal condition sets
            mins = sorted(sets, key=len)
            keep = []
            for s in mins:
                if not any(k <= s for k in keep):
                    keep.append(s)
            conds[h] = keep
    for h in free:
        gl = (gifts or {}).get(h, [])
        if h not in conds and not gl:
            continue
        v = model.new_bool_var(f"pass_{h}")
        passv[h] = v
        for s in conds.get(h, []):
            # pass_h or some hex of this way is blocked
            lits = [v] + list(blockers(h)) + [lit for o in s for lit in blockers(o)]
            model.add_bool_or(lits)
        for g in gl:
            model.add_implication(g, v)
    return passv


def _closed_reach_sets(model, state, player, passv, pairs) -> None:
    """Per pair: a reach set closed under passable adjacency that misses the target side."""
    game = state.game
    own = set(np.flatnonzero(state.colour[:-1] == player).tolist())
    nodes = sorted(own | set(passv))
    for k in pairs:
        a, bside = game.side_pairs[k]
        reach = {h: model.new_bool_var(f"reach_{k}_{h}") for h in nodes}
        for h in nodes:
            ok = [] if h in own else [passv[h].negated()]
            if h in a:  # passable source hexes are reached
                model.add_bool_or([reach[h]] + ok)
            for u in game.adjacency[h]:
                if u in reach:  # closure: reached neighbour and passable h => h reached
                    model.add_bool_or([reach[u].negated(), reach[h]] + ok)
            if h in bside:
                model.add(reach[h] == 0)


def _solve(model, time_limit, num_workers):
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.01, float(time_limit))
    solver.parameters.num_workers = num_workers
    st = run_solver(solver, model)
    name = {cp_model.OPTIMAL: "optimal", cp_model.FEASIBLE: "feasible",
            cp_model.INFEASIBLE: "infeasible"}.get(st, "unknown")
    return name, solver
