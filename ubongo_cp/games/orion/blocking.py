"""Blocking and safety in Orion Duel: exact answers under OD-2...OD-5, with certificates.

Two questions of RULES.md §4 ("Analysis questions"), for a player P and a
goal (``"sides"``: W1, ``"galaxies"``: W2), against the tiles each player
actually holds. "P reaches the goal" always means a plan of :mod:`.plans`
(P's remaining tiles, each legal when played, OD-3 included, the game not
over before the last tile, the other player passing).

:func:`min_blocking_set` -- *bare hexes*
    The fewest free hexes that, taken out of play, leave P no plan. The
    hexes are neutral: they take no colour, so they neither help P's OD-3
    nor complete anyone's chain; this is the classic vertex-blocking
    question. A real opponent can only block with its tiles, which also
    lay hexes of P's colour; any set of hexes the opponent's tiles cover
    that stops P (without the opponent winning first) is a blocking set,
    so the answer is a lower bound on the hexes the opponent must cover.
:func:`is_safe_connection` -- *one real opponent tile*
    P reaches the goal now, and still does after every legal placement of
    the opponent (OD-2, OD-3 for the opponent, with its real colours, so
    the hexes of P's colour it lays count for P). A move after which the
    opponent has won (OD-5) refutes safety; a move after which P has won
    does not.

Method of :func:`min_blocking_set`: the implicit hitting set loop
(counterexample-guided) of Davies and Bacchus [1]_ and Moreno-Centeno and
Karp [2]_. A plan avoiding the current candidate set is found with
:func:`.distance.shortest_plan` (exact); it is shrunk to an inclusion-minimal
plan and its hexes become a set every blocking set must hit; a minimum
hitting set of all collected sets (CP-SAT) is the next candidate; when no
plan avoids the candidate, it is a minimum blocking set: every blocking
set hits every collected plan, so none is smaller.

Method of :func:`is_safe_connection`: every legal opponent move is checked
against a cache of P's plans. A move disjoint from a cached *quiet* plan
(one whose tiles complete no condition but the goal) that touches none of
the plan's colours keeps that plan valid (OD-3 and the goal are monotone
in the colours laid, and no condition appears, so OD-5 cannot end the game
early); other moves are decided exactly (conditions after the move, then a
reachability question), and the plans found join the cache.

References
----------
.. [1] J. Davies, F. Bacchus, "Solving MAXSAT by solving a sequence of
   simpler SAT instances", CP 2011, LNCS 6876, 225-239.
.. [2] E. Moreno-Centeno, R. M. Karp, "The implicit hitting set approach
   to solve combinatorial optimization problems with an application to
   multigenome alignment", Operations Research 61(2) (2013) 453-468.
.. [3] K. Menger, "Zur allgemeinen Kurventheorie", Fund. Math. 10 (1927)
   (the relaxed blocking set for one pair is a minimum vertex cut).
.. [4] J. Davies, F. Bacchus, "Exploiting the power of MIP solvers in
   MaxSAT", SAT 2013, LNCS 7962, 166-181.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ...cpsat_runtime import new_model
from ...errors import InputError
from .graphs import tile_group
from .plans import check_query, goal_fulfilled, minimal_plan, order_plan, plan_hexes, solo
from .distance import shortest_plan
from .reach import solve_model
from .state import W2_GALAXIES, W3_BLACK_HOLES, OrionState, win_conditions

__all__ = ["BlockResult", "SafetyResult", "min_blocking_set", "is_safe_connection", "SPARE_PLANS"]

#: Plans with disjoint hexes that :func:`is_safe_connection` looks for after
#: the first one, before it checks the opponent's moves.
SPARE_PLANS = 2


@dataclass
class BlockResult:
    """Answer of :func:`min_blocking_set`, with its certificate.

    Attributes
    ----------
    hexes : list of (q, r) or None
        The blocking set (empty when P cannot reach the goal now); None when
        P already fulfils the goal (nothing can block it) or no blocking set
        was verified in time.
    status : str
        ``"optimal"`` (proved minimum), ``"feasible"`` (verified blocking,
        minimality open at the time limit), ``"unknown"`` (nothing verified)
        or ``"already"``.
    lower_bound : int
        No blocking set is smaller (the minimum hitting set of ``plans``).
    plans : list of list of int
        The certificate: plans of P (action ids, playing order) collected by
        the search; every blocking set must hit each plan's hexes.
    rounds : int
        Reachability questions asked.
    """

    player: int
    goal: str
    hexes: list | None
    status: str
    lower_bound: int = 0
    plans: list = field(default_factory=list)
    rounds: int = 0
    seconds: float = 0.0


@dataclass
class SafetyResult:
    """Answer of :func:`is_safe_connection`; truthy when safe.

    Attributes
    ----------
    safe : bool or None
        None when the time limit came first.
    status : str
        ``"safe"``, ``"refuted"`` (``refutation`` stops P), ``"unreachable"``
        (P cannot reach the goal even unopposed), ``"already"``, ``"over"``
        (the game is over) or ``"unknown"``.
    refutation : int or None
        An opponent action (legal now) after which P cannot reach the goal
        or the opponent has won.
    plan : list of int
        A plan of P in the current position (the reachability certificate).
    moves : int
        Opponent moves checked.
    exact : int
        Moves decided by a reachability question (the rest by a cached plan).
    """

    player: int
    goal: str
    safe: bool | None
    status: str
    refutation: int | None = None
    plan: list = field(default_factory=list)
    moves: int = 0
    exact: int = 0
    seconds: float = 0.0

    def __bool__(self) -> bool:
        return bool(self.safe)


# ---------------------------------------------------------------------------
# min_blocking_set


def min_blocking_set(state: OrionState, player: int, goal: str = "sides", *, pairs=None,
                     relaxed: bool = False, time_limit: float = 10.0,
                     num_workers: int = 1) -> BlockResult:
    """Fewest free hexes that, taken out of play, leave ``player`` no plan for ``goal``.

    Parameters
    ----------
    state : OrionState
    player : int
        0 or 1 (either player).
    goal : {"sides", "galaxies"}
        W1 or W2 (OD-4).
    pairs : list of int, optional
        Opposite pairs that count for W1 (default all three: P is blocked
        only when every pair is cut).
    relaxed : bool
        W1 only: any free hex counts as claimable (no tile shapes, counts,
        OD-3 or OD-5); the answer is then a minimum vertex cut [3]_ (for
        one pair), an upper bound of the exact one.
    time_limit : float
        Seconds in all.
    num_workers : int
        CP-SAT workers.

    Returns
    -------
    BlockResult

    Raises
    ------
    InputError
        For a bad player, goal or pair, or ``relaxed`` with W2.

    Notes
    -----
    Implicit hitting sets (module docstring). Each round costs one
    reachability question; the rounds are few in mid-game positions,
    where plans are short (``benchmarks/bench_orion.py``).

    Examples
    --------
    Player 0's colour joins N and S but for (1, 0), and it holds only S1:

    >>> from ubongo_cp.games.orion import OrionGame, OrionState, Setup, SetupRules
    >>> game = OrionGame.get(rules=SetupRules(0, 0))            # no tokens
    >>> line = [(1, r) for r in range(-5, 4)] + [(0, 4), (-1, 5)]
    >>> used = [t for t in game.tiles.names if t != "S1"]
    >>> s = OrionState.from_board(Setup((), ()), {h: 0 for h in line if h != (1, 0)},
    ...                           (used, ()), 0, game)
    >>> r = min_blocking_set(s, 0)
    >>> r.hexes, r.status, r.plans        # plans: the certificate (S1 on the gap is action 43)
    ([(1, 0)], 'optimal', [[43]])
    """
    t0 = time.perf_counter()
    res = BlockResult(player, goal, None, "already")
    keys, done = _start(state, player, goal, pairs, res, t0)
    if done:
        return res
    if relaxed:
        if goal != "sides":
            raise InputError("relaxed blocking is defined for W1 (goal 'sides') only")
        return _relaxed_blocking(state, player, keys, time_limit, num_workers, t0)
    hexes = state.game.board.hexes
    res.status = "unknown"
    if state.is_terminal():  # nothing more is played: no plan at all
        res.hexes, res.status = [], "optimal"
        res.seconds = time.perf_counter() - t0
        return res
    sets: list[frozenset[int]] = []
    best: frozenset[int] | None = None      # smallest verified blocking set
    lb = 0
    cand: frozenset[int] = frozenset()
    relaxed_tried = goal != "sides"
    while True:
        if best is None and not relaxed_tried and time.perf_counter() - t0 > time_limit / 2:
            # Half the time gone and no blocking set verified: a blocking set of the
            # relaxation (any free hex claimable) blocks every real plan too.
            relaxed_tried = True
            rel = _relaxed_blocking(state, player, keys, time_limit / 4, num_workers, t0)
            if rel.hexes is not None:
                best = frozenset(state.game.board.index[h] for h in rel.hexes)
        left = time_limit - (time.perf_counter() - t0)
        if left <= 0:
            break
        ans = shortest_plan(state, player, goal, pairs=keys, blocked=cand, time_limit=left,
                            num_workers=num_workers, any_plan=True)
        res.rounds += 1
        if ans.status == "unknown" and not ans.plan:
            break
        if ans.status == "unreachable":  # cand blocks every plan
            if best is None or len(cand) < len(best):
                best = cand
            if len(best) <= lb:
                break
            # A greedy candidate blocked: test a minimum hitting set next.
            found = _min_hitting_set(sets, time_limit - (time.perf_counter() - t0), num_workers)
            if found is None:
                break
            cand, bound = found
            lb = max(lb, bound)
            if len(best) <= lb:
                break
            continue
        plan = minimal_plan(state, player, ans.plan, goal, keys)
        res.plans.append(plan)
        sets.append(plan_hexes(state, plan))
        cand = _greedy_hitting_set(sets)
    if best is not None:
        res.hexes = [hexes[h] for h in sorted(best)]
        res.status = "optimal" if len(best) <= lb else "feasible"
    res.lower_bound = lb
    res.seconds = time.perf_counter() - t0
    return res


def _start(state, player, goal, pairs, res, t0):
    """Check the arguments; ``(pairs to use, done)``, done (``res`` timed) when the goal is met now."""
    keys = check_query(state, player, goal, pairs)
    done = goal_fulfilled(state, player, goal, keys)
    if done:
        res.seconds = time.perf_counter() - t0
    return keys, done


def _greedy_hitting_set(sets: list[frozenset[int]]) -> frozenset[int]:
    """A hitting set by the greedy rule: take the hex in most sets not yet hit (ties: lowest)."""
    todo = list(sets)
    out: set[int] = set()
    while todo:
        count: dict[int, int] = {}
        for s in todo:
            for h in s:
                count[h] = count.get(h, 0) + 1
        h = min(count, key=lambda x: (-count[x], x))
        out.add(h)
        todo = [s for s in todo if h not in s]
    return frozenset(out)


def _min_hitting_set(sets: list[frozenset[int]], time_limit: float, num_workers: int):
    """A minimum set of hexes meeting every set (CP-SAT); ``(set, lower bound)`` or None.

    The bound is CP-SAT's proved objective bound (the set's size when optimal).
    """
    if time_limit <= 0:
        return None
    model = new_model()
    # Variables: a hex is in the hitting set.
    b = {h: model.new_bool_var(f"b_{h}") for h in sorted(set().union(*sets))}
    # Constraints: every collected plan loses a hex.
    for s in sets:
        model.add_bool_or([b[h] for h in s])
    model.minimize(sum(b.values()))
    status, solver = solve_model(model, time_limit, num_workers)
    if status not in ("optimal", "feasible"):
        return None
    chosen = frozenset(h for h, v in b.items() if solver.value(v))
    return chosen, int(np.ceil(solver.best_objective_bound - 1e-9))


def _relaxed_blocking(state, player, pairs, time_limit, num_workers, t0) -> BlockResult:
    """Any free hex claimable: fewest blocked hexes so that no pair is joined (closed reach sets).

    ``pairs``: pair indices, None for all.
    """
    game = state.game
    pairs = range(len(game.side_pairs)) if pairs is None else pairs
    model = new_model()
    col = state.colour[:-1].tolist()
    free = [h for h in range(game.n) if col[h] < 0]
    own = {h for h in range(game.n) if col[h] == player}
    # Variables: blocked free hexes.
    b = {h: model.new_bool_var(f"b_{h}") for h in free}
    nodes = sorted(own | set(free))
    for k in pairs:
        a, bside = game.side_pairs[k]
        # Variables: a reach set closed under "reached neighbour and not blocked".
        reach = {h: model.new_bool_var(f"reach_{k}_{h}") for h in nodes}
        for h in nodes:
            ok = [] if h in own else [b[h]]
            if h in a:  # unblocked source hexes are reached
                model.add_bool_or([reach[h]] + ok)
            for u in game.adjacency[h]:
                if u in reach:
                    model.add_bool_or([reach[u].negated(), reach[h]] + ok)
            if h in bside:  # Constraints: the target side is never reached.
                model.add(reach[h] == 0)
    model.minimize(sum(b.values()))
    status, solver = solve_model(model, time_limit, num_workers)
    res = BlockResult(player, "sides", None, "unknown")
    if status in ("optimal", "feasible"):
        res.hexes = [game.board.hexes[h] for h in free if solver.value(b[h])]
        res.status = status
        res.lower_bound = int(np.ceil(solver.best_objective_bound - 1e-9))
    res.seconds = time.perf_counter() - t0
    return res


# ---------------------------------------------------------------------------
# is_safe_connection


def is_safe_connection(state: OrionState, player: int, goal: str = "sides", *, pairs=None,
                       time_limit: float = 10.0, num_workers: int = 1) -> SafetyResult:
    """Can no single opponent move stop ``player`` from reaching ``goal``?

    Parameters
    ----------
    state : OrionState
    player : int
        0 or 1; the opponent is ``1 - player`` (its move is asked for even
        when ``player`` is to move).
    goal : {"sides", "galaxies"}
    pairs : list of int, optional
        Opposite pairs that count for W1 (default all three).
    time_limit : float
        Seconds in all.
    num_workers : int

    Returns
    -------
    SafetyResult
        Safe when P reaches the goal now (certificate ``plan``) and after
        every legal opponent placement; otherwise ``refutation`` is such a
        placement (None when P cannot reach the goal at all).

    Raises
    ------
    InputError
        For a bad player, goal or pair.

    Examples
    --------
    The position of :func:`min_blocking_set`'s example: any opponent tile on
    (1, 0) stops player 0.

    >>> from ubongo_cp.games.orion import OrionGame, OrionState, Setup, SetupRules
    >>> game = OrionGame.get(rules=SetupRules(0, 0))
    >>> line = [(1, r) for r in range(-5, 4)] + [(0, 4), (-1, 5)]
    >>> used = [t for t in game.tiles.names if t != "S1"]
    >>> s = OrionState.from_board(Setup((), ()), {h: 0 for h in line if h != (1, 0)},
    ...                           (used, ()), 0, game)
    >>> r = is_safe_connection(s, 0)
    >>> r.status, (1, 0) in [game.board.hexes[c] for c in game.placements[r.refutation].cells]
    ('refuted', True)
    """
    t0 = time.perf_counter()
    res = SafetyResult(player, goal, True, "already")
    keys, done = _start(state, player, goal, pairs, res, t0)
    if done:
        return res
    if state.is_terminal():
        res.safe, res.status = False, "over"
        res.seconds = time.perf_counter() - t0
        return res
    ans = shortest_plan(state, player, goal, pairs=keys, time_limit=time_limit,
                        num_workers=num_workers)
    if not ans.plan:
        res.safe, res.status = (False, "unreachable") if ans.status == "unreachable" else (None, "unknown")
        res.seconds = time.perf_counter() - t0
        return res
    res.plan = ans.plan
    game, opp = state.game, 1 - player
    moves = np.array(solo(state, opp).legal_actions(opp), dtype=np.int64)
    res.moves = len(moves)
    base = state.conditions()
    alone = _alone_conditions(state, moves, opp)
    cache = [_Cached(state, player, goal, keys, ans.plan, base)]
    todo = ~cache[0].covers(state, moves, opp, alone)
    # A few more plans avoiding the hexes of the first ones: a move meeting one plan
    # then usually leaves another intact (fewer exact questions below).
    avoid = set(cache[0].hexes.nonzero()[0].tolist())
    for _ in range(SPARE_PLANS):
        left = time_limit - (time.perf_counter() - t0)
        if left <= 0 or not todo.any():
            break
        more = shortest_plan(state, player, goal, pairs=keys, blocked=avoid, time_limit=left,
                             num_workers=num_workers, any_plan=True)
        if not more.plan:
            break
        cache.append(_Cached(state, player, goal, keys, more.plan, base))
        todo &= ~cache[-1].covers(state, moves, opp, alone)
        avoid |= plan_hexes(state, more.plan)
    res.status = "safe"
    while True:
        rest = np.flatnonzero(todo)
        if not len(rest):
            break
        i = int(rest[0])
        todo[i] = False
        y = int(moves[i])
        if time.perf_counter() - t0 > time_limit:
            res.safe, res.status = None, "unknown"
            break
        after = solo(state, opp)
        after._put(opp, y)
        if after.winner is not None:  # OD-5 after the move
            if after.winner == opp:
                res.safe, res.status, res.refutation = False, "refuted", y
                break
            continue  # P has won: not stopped
        if any(c.valid_after(after, y) for c in cache):
            continue
        res.exact += 1
        left = time_limit - (time.perf_counter() - t0)
        ans = shortest_plan(solo(after, player), player, goal, pairs=keys,
                            time_limit=max(left, 0.01), num_workers=num_workers)
        if ans.status == "unreachable":
            res.safe, res.status, res.refutation = False, "refuted", y
            break
        if not ans.plan:
            res.safe, res.status = None, "unknown"
            break
        if order_plan(state, player, ans.plan, goal, keys) is not None:
            cache.append(_Cached(state, player, goal, keys, ans.plan, base))
            todo &= ~cache[-1].covers(state, moves, opp, alone)
    res.seconds = time.perf_counter() - t0
    return res


class _Cached:
    """A plan of P valid in the position, with what is needed to reuse it after an opponent move."""

    def __init__(self, state, player, goal, keys, plan, base) -> None:
        self.player, self.goal, self.keys, self.plan = player, goal, keys, list(plan)
        game = state.game
        colour = state.colour.copy()
        for a in plan:
            pl = game.placements[a]
            for c, o in zip(pl.cells, pl.own):
                colour[c] = player if o else 1 - player
        self.colour = colour
        self.hexes = np.zeros(game.n + 1, dtype=bool)
        self.hexes[list(plan_hexes(state, plan))] = True
        final = win_conditions(game, colour, state.galaxy, state.hole)
        want = "W1" if goal == "sides" else "W2"
        # Quiet: the plan's tiles complete no condition but the goal.
        self.quiet = final[1 - player] <= base[1 - player] and final[player] <= base[player] | {want}

    def covers(self, state, moves, placer, alone) -> np.ndarray:
        """Moves that leave this plan valid, by a cheap sufficient test (vectorised)."""
        game = state.game
        if not self.quiet or not len(moves):
            return np.zeros(len(moves), dtype=bool)
        cells = game.pl_cells[moves]
        disjoint = ~self.hexes[cells].any(axis=1)
        # Colour of each cell of the move; it must touch no hex of its colour.
        cols = np.where(game.pl_own[moves], placer, 1 - placer)
        nb = game.neighbour_table[cells]                          # (moves, M, 6)
        touch = (self.colour[nb] == cols[:, :, None]) & (cells[:, :, None] < game.n)
        return disjoint & ~touch.any(axis=(1, 2)) & ~alone

    def valid_after(self, after, y) -> bool:
        """Exact: is the plan still a plan after opponent move ``y`` (position ``after``)?"""
        pl = after.game.placements[y]
        if self.hexes[list(pl.cells)].any():
            return False
        return order_plan(after, self.player, self.plan, self.goal, self.keys) is not None


def _alone_conditions(state, moves, placer) -> np.ndarray:
    """Per move: would its tile alone (a group of one colour) fulfil a condition (OD-4)?

    Never with the shipped tiles and spacings (3 hexes cover at most one
    galaxy and two black holes, and join no opposite sides); a vectorised
    filter finds the moves that might, and only those are looked at.
    """
    game = state.game
    cells = game.pl_cells[moves]
    maybe = (state.galaxy[cells].sum(axis=1) >= W2_GALAXIES) | \
        (state.hole[cells].sum(axis=1) >= W3_BLACK_HOLES)
    for a, b in game.side_pairs:
        ina = np.zeros(game.n + 1, dtype=bool)
        inb = np.zeros(game.n + 1, dtype=bool)
        ina[list(a)] = True
        inb[list(b)] = True
        maybe |= ina[cells].any(axis=1) & inb[cells].any(axis=1)
    out = np.zeros(len(moves), dtype=bool)
    for i in np.flatnonzero(maybe).tolist():
        pl = game.placements[int(moves[i])]
        cols = [placer if o else 1 - placer for o in pl.own]
        for j in range(len(pl.cells)):
            g = set(tile_group(pl.cells, cols, j, game.adjacency))
            if (sum(state.galaxy[h] for h in g) >= W2_GALAXIES
                    or sum(state.hole[h] for h in g) >= W3_BLACK_HOLES
                    or any(g & a and g & b for a, b in game.side_pairs)):
                out[i] = True
    return out
