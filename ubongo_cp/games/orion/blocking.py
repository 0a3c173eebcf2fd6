"""Blocking in Orion Duel: the fewest hexes that stop a player, exact under OD-2...OD-5, with a certificate.

The question of RULES.md §4 ("Analysis questions"), for a player P and a
goal (``"sides"``: W1, ``"galaxies"``: W2), against the tiles P actually
holds. "P reaches the goal" means a plan of :mod:`.plans` (P's remaining
tiles, each legal when played, OD-3 included, the game not over before the
last tile, the other player passing).

:func:`min_blocking_set` answers it in *bare hexes*: the fewest free hexes
that, taken out of play, leave P no plan. The hexes are neutral: they take
no colour, so they neither help P's OD-3 nor complete anyone's chain; this
is the classic vertex-blocking question. A real opponent can only block
with its tiles, which also lay hexes of P's colour; any set of hexes the
opponent's tiles cover that stops P (without the opponent winning first) is
a blocking set, so the answer is a lower bound on the hexes the opponent
must cover. The question in real opponent tiles, for one tile, is
:func:`.safety.is_safe_connection`.

Method: the implicit hitting set loop (counterexample-guided) of Davies and
Bacchus [1]_ and Moreno-Centeno and Karp [2]_. A plan avoiding the current
candidate set is found with :func:`.distance.shortest_plan` (exact: a plan,
or a proof that none exists); it is shrunk to an inclusion-minimal plan and
its hexes become a set every blocking set must hit. The next candidate is a
greedy hitting set of the collected sets; when a greedy candidate blocks
every plan, a minimum hitting set (CP-SAT) gives the lower bound and the
next candidate ("non-optimal hitting sets", Davies and Bacchus [4]_). A
candidate that blocks and is as small as a minimum hitting set is a minimum
blocking set: every blocking set hits every collected plan, so none is
smaller. The collected plans are the certificate.

That is the reference path. The default path (``_blocking_search``)
takes a minimum hitting set as every candidate (branch and bound on
bitmasks, ``_exact_hitting_set``; CP-SAT past its node limit), so the
first candidate that blocks is a minimum blocking set; its plans come from
the greedy plan or :func:`.plansearch.search_plan` before the model.

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
from .distance import ConnectResult, shortest_plan
from .plans import minimal_plan, plan_hexes, query_start, use_reference
from .plansearch import complete_plan
from .reach import ReachModel, solve_model, spent
from .state import OrionState

__all__ = ["BlockResult", "min_blocking_set"]


class _Clock:
    """The time a blocking search has spent: wall seconds since ``t0``, or (``deterministic``) CP-SAT's
    deterministic seconds of its solves (:func:`min_blocking_set`)."""

    def __init__(self, t0: float, deterministic: bool) -> None:
        self.t0, self.deterministic, self.work = t0, deterministic, 0.0

    def spent(self) -> float:
        return spent(self.t0, self.work, self.deterministic)

    def solve(self, model, time_limit: float, num_workers: int):
        """:func:`.reach.solve_model` within ``time_limit`` of this clock's seconds, its work counted."""
        status, solver = solve_model(model, time_limit, num_workers, deterministic=self.deterministic)
        self.work += solver.deterministic_time
        return status, solver

    def plan(self, *args, **kwargs) -> ConnectResult:
        """:func:`.distance.shortest_plan` on this clock, its work counted."""
        ans = shortest_plan(*args, deterministic=self.deterministic, **kwargs)
        self.work += ans.work
        return ans


@dataclass
class BlockResult:
    """Answer of :func:`min_blocking_set`, with its certificate.

    Attributes
    ----------
    hexes : list of (q, r) or None
        The blocking set (empty when P cannot reach the goal now); None only
        when P already fulfils the goal (status ``"already"``: nothing can
        block it) or the game is over (status ``"over"``: no tile is played
        any more, so there is nothing to block). When the time limit comes
        before the search has verified a smaller set, every free hex (a
        blocking set by itself: P can place no tile), status ``"feasible"``.
    status : str
        ``"optimal"`` (proved minimum), ``"feasible"`` (blocking, minimality
        open at the time limit: ``lower_bound <= len(hexes)``), ``"already"``
        or ``"over"`` (the game is over: OD-5, OD-6 or OD-7; the status of
        :func:`.distance.connect_distance` and :func:`.safety.is_safe_connection`
        there too).
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


def min_blocking_set(state: OrionState, player: int, goal: str = "sides", *, pairs=None,
                     relaxed: bool = False, time_limit: float = 10.0,
                     num_workers: int = 1, deterministic: bool = False) -> BlockResult:
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
    deterministic : bool
        Count ``time_limit`` in CP-SAT's deterministic seconds of the
        search's solves instead of the wall clock (as
        :func:`.distance.connect_distance`): with one worker the answer is
        the same on every machine and under any load.

    Returns
    -------
    BlockResult
        Status ``"already"`` when ``player`` fulfils the goal now (checked
        first), else ``"over"`` when the game is over (no blocking set is
        asked for: the position has no plans), else the blocking set.

    Raises
    ------
    InputError
        For a ``state`` that is no Orion position (a
        :class:`.bitboard.BitOrionState` is analysed as its reference
        state), a bad player, goal or pair, a ``time_limit`` that is not a
        number above 0, ``num_workers`` not a whole number of at least 1,
        ``relaxed`` or ``deterministic`` other than True or False, or
        ``relaxed`` with W2.

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
    clock = _Clock(t0, deterministic)
    res = BlockResult(player, goal, None, "already")
    state, keys, done = query_start(state, player, goal, pairs, res, t0, time_limit, num_workers,
                                     relaxed=relaxed, deterministic=deterministic)
    if done:
        return res
    if relaxed and goal != "sides":
        raise InputError("relaxed blocking is defined for W1 (goal 'sides') only")
    if relaxed:
        return _or_every_free_hex(state, _relaxed_blocking(state, player, keys, time_limit, num_workers, clock), t0)
    if state.is_terminal():  # nothing more is played: nothing to block (as connect_distance says)
        res.status = "over"
        res.seconds = time.perf_counter() - t0
        return res
    hexes = state.game.board.hexes
    res.status = "unknown"
    if not use_reference():
        return _or_every_free_hex(state, _blocking_search(state, player, goal, keys, res, time_limit,
                                                          num_workers, clock), t0)
    sets: list[frozenset[int]] = []
    best: frozenset[int] | None = None      # smallest verified blocking set
    lb = 0
    cand: frozenset[int] = frozenset()
    relaxed_tried = goal != "sides"
    while True:
        if best is None and not relaxed_tried and clock.spent() > time_limit / 2:
            # Half the time gone and no blocking set verified: a blocking set of the
            # relaxation (any free hex claimable) blocks every real plan too.
            relaxed_tried = True
            rel = _relaxed_blocking(state, player, keys, time_limit / 4, num_workers, clock)
            if rel.hexes is not None:
                best = frozenset(state.game.board.index[h] for h in rel.hexes)
        left = time_limit - clock.spent()
        if left <= 0:
            break
        ans = clock.plan(state, player, goal, pairs=keys, blocked=cand, time_limit=left,
                         num_workers=num_workers, any_plan=True)
        res.rounds += 1
        if ans.status == "unknown" and not ans.plan:
            break
        if ans.status == "unreachable":  # cand blocks every plan; a greedy one: test a minimum hitting set next
            best, nxt, lb = _blocked(cand, best, lb, sets, time_limit - clock.spent(), num_workers, clock)
            if nxt is None or len(best) <= lb:
                break
            cand = nxt
            continue
        plan = minimal_plan(state, player, ans.plan, goal, keys)
        res.plans.append(plan)
        sets.append(plan_hexes(state, plan))
        cand = _greedy_hitting_set(sets)
    res.lower_bound = lb
    if best is not None:
        res.hexes = [hexes[h] for h in sorted(best)]
        res.status = "optimal" if len(best) <= lb else "feasible"
    return _or_every_free_hex(state, res, t0)


def _blocked(cand: frozenset[int], best: frozenset[int] | None, lb: int, sets: list[frozenset[int]],
             time_limit: float, num_workers: int, clock: _Clock) -> tuple[frozenset[int], frozenset[int] | None, int]:
    """A candidate ``cand`` blocks every plan: the smaller of it and ``best``, the next candidate and the lower bound.

    The next candidate is a minimum hitting set of the plans' hex sets ``sets`` (:func:`_min_hitting_set`,
    within ``time_limit`` seconds of ``clock``), ``None`` when ``best`` already meets the bound ``lb`` or none was found.
    """
    if best is None or len(cand) < len(best):
        best = cand
    if len(best) <= lb:
        return best, None, lb
    found = _min_hitting_set(sets, time_limit, num_workers, clock)
    if found is None:
        return best, None, lb
    return best, found[0], max(lb, found[1])


def _blocking_search(state: OrionState, player: int, goal: str, keys, res: BlockResult,
                     time_limit: float, num_workers: int, clock: _Clock) -> BlockResult:
    """The implicit hitting set loop of :func:`min_blocking_set` with minimum hitting sets as candidates.

    Each candidate is a minimum hitting set of the plans collected
    (:func:`_exact_hitting_set`, CP-SAT only past its node limit), so the
    first candidate that blocks every plan is a minimum blocking set, and
    one reachability question proves it; the others find a plan, mostly
    without a solver. For W1 each round asks :func:`.plansearch.complete_plan`
    (a plan or a proof, no model); :func:`.distance.shortest_plan` (the greedy
    plan, :func:`.plansearch.search_plan`, then the model) takes the rounds it
    leaves, and W2. The reachability model of the position is built when a
    round after the first needs it (a position P cannot reach is answered by
    the graph bounds alone).
    """
    sets: list[frozenset[int]] = []
    masks: list[int] = []
    best: frozenset[int] | None = None      # smallest verified blocking set
    lb = 0
    cand: frozenset[int] = frozenset()
    relaxed_tried = goal != "sides"
    shared = None
    while True:
        if best is None and not relaxed_tried and clock.spent() > time_limit / 2:
            relaxed_tried = True   # as in min_blocking_set's loop
            rel = _relaxed_blocking(state, player, keys, time_limit / 4, num_workers, clock)
            if rel.hexes is not None:
                best = frozenset(state.game.board.index[h] for h in rel.hexes)
        left = time_limit - clock.spent()
        if left <= 0 or (best is not None and len(best) <= lb):
            break
        got = None
        if goal == "sides":
            # W1: the complete search of :mod:`.plansearch` (a plan avoiding the candidate,
            # or a proof that none exists), without a model; None leaves the round to it.
            got = complete_plan(state, player, goal, keys, cand, len(state.remaining_tiles(player)))
        if got is not None:
            ans = ConnectResult(player, goal, len(got[1]) or None,
                                "unknown" if got[0] == "feasible" else "unreachable", plan=got[1])
        else:
            if res.rounds >= 1 and shared is None:
                # One reachability model of the position for every later round, the candidate
                # blocked as assumptions (:mod:`.reach`, "Blocked hexes as assumptions").
                shared = ReachModel(state, player, goal, pairs=keys)
            ans = clock.plan(state, player, goal, pairs=keys, blocked=cand, time_limit=left,
                             num_workers=num_workers, any_plan=True, shared=shared, complete=False)
        res.rounds += 1
        if ans.status == "unknown" and not ans.plan:
            break
        if ans.status == "unreachable":  # cand blocks every plan
            # A candidate that was not proved minimum blocked (CP-SAT hit its time limit
            # on the hitting sets): ask CP-SAT again, with the time left.
            best, nxt, lb = _blocked(cand, best, lb, sets, time_limit - clock.spent(), num_workers, clock)
            if nxt is None or len(best) <= lb:
                break
            cand = nxt
            continue
        plan = minimal_plan(state, player, ans.plan, goal, keys)
        res.plans.append(plan)
        sets.append(plan_hexes(state, plan))
        masks.append(sum(1 << h for h in sets[-1]))
        exact = _exact_hitting_set(masks)
        if exact is not None:
            cand = frozenset(h for h in range(state.game.n) if exact >> h & 1)
            lb = max(lb, len(cand))
        else:
            found = _min_hitting_set(sets, time_limit - clock.spent(), num_workers, clock)
            if found is None:
                break
            cand, bound = found
            lb = max(lb, bound)
    res.lower_bound = lb
    if best is not None:
        res.hexes = [state.game.board.hexes[h] for h in sorted(best)]
        res.status = "optimal" if len(best) <= lb else "feasible"
    return res


#: Search nodes of ``_exact_hitting_set`` before it leaves the question to CP-SAT.
HITTING_SET_NODES = 20_000


def _exact_hitting_set(sets: list[int], limit: int = HITTING_SET_NODES) -> int | None:
    """A minimum set of hexes (bitmask) meeting every set (bitmasks, non-empty), or None past ``limit`` nodes.

    Branch and bound: the unhit set with the fewest hexes is hit by one of
    its hexes, tried in order of how many unhit sets each meets; the branch
    of the i-th hex excludes the earlier ones (so no set is chosen twice).
    The bound is the hexes chosen plus a packing of pairwise disjoint unhit
    sets (each needs a hex of its own). Starts from the greedy hitting set.
    """
    if not sets:
        return 0
    greedy = _greedy_hitting_set([frozenset(_hexes_of(m)) for m in sets])
    best = [sum(1 << h for h in greedy), len(greedy)]
    nodes = [0]

    def packing(unhit: list[int]) -> int:
        used, n = 0, 0
        for m in sorted(unhit, key=int.bit_count):
            if not m & used:
                used |= m
                n += 1
        return n

    def rec(unhit: list[int], chosen: int, size: int) -> bool:
        nodes[0] += 1
        if nodes[0] > limit:
            return False
        if not unhit:
            if size < best[1]:
                best[0], best[1] = chosen, size
            return True
        if size + packing(unhit) >= best[1]:
            return True
        s = min(unhit, key=int.bit_count)
        elems = _hexes_of(s)
        elems.sort(key=lambda e: -sum(m >> e & 1 for m in unhit))
        banned = 0
        for e in elems:
            bit = 1 << e
            rest = [m & ~banned for m in unhit if not m & bit]
            if all(rest):   # a set whose every hex is excluded cannot be hit in this branch
                if not rec(rest, chosen | bit, size + 1):
                    return False
            banned |= bit
        return True

    return best[0] if rec(list(sets), 0, 0) else None


def _hexes_of(mask: int) -> list[int]:
    """The bit positions of ``mask`` (hex indices), lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _or_every_free_hex(state: OrionState, res: BlockResult, t0: float) -> BlockResult:
    """``res`` with its time taken, and every free hex as the blocking set when none was verified in time.

    Every free hex taken out of play leaves P no tile to place (OD-2): a
    blocking set of every goal, P not fulfilling it already.
    """
    if res.hexes is None and res.status != "already":
        game = state.game
        res.hexes = [game.board.hexes[h] for h in range(game.n) if state.colour[h] < 0]
        res.status = "optimal" if len(res.hexes) <= res.lower_bound else "feasible"
    res.seconds = time.perf_counter() - t0
    return res


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


def _min_hitting_set(sets: list[frozenset[int]], time_limit: float, num_workers: int, clock: _Clock):
    """A minimum set of hexes meeting every set (CP-SAT, on ``clock``); ``(set, lower bound)`` or None.

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
    status, solver = clock.solve(model, time_limit, num_workers)
    if status not in ("optimal", "feasible"):
        return None
    chosen = frozenset(h for h, v in b.items() if solver.value(v))
    return chosen, int(np.ceil(solver.best_objective_bound - 1e-9))


def _relaxed_blocking(state, player, pairs, time_limit, num_workers, clock: _Clock) -> BlockResult:
    """Any free hex claimable: fewest blocked hexes so that no pair is joined (closed reach sets).

    ``pairs``: pair indices, None for all; the solve on ``clock``.
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
            ok: list = [] if h in own else [b[h]]
            if h in a:  # unblocked source hexes are reached
                model.add_bool_or([reach[h]] + ok)
            for u in game.adjacency[h]:
                if u in reach:
                    model.add_bool_or([reach[u].negated(), reach[h]] + ok)
            if h in bside:  # Constraints: the target side is never reached.
                model.add(reach[h] == 0)
    model.minimize(sum(b.values()))
    status, solver = clock.solve(model, time_limit, num_workers)
    res = BlockResult(player, "sides", None, "unknown")
    if status in ("optimal", "feasible"):
        res.hexes = [game.board.hexes[h] for h in free if solver.value(b[h])]
        res.status = status
        res.lower_bound = int(np.ceil(solver.best_objective_bound - 1e-9))
    res.seconds = time.perf_counter() - clock.t0
    return res
