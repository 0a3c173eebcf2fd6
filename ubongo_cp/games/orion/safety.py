"""Safety in Orion Duel: can one opponent tile stop a player? Exact under OD-2...OD-5, with a refutation.

The question of RULES.md §4 ("Is P's connection already safe?"), for a
player P and a goal (``"sides"``: W1, ``"galaxies"``: W2), answered in
*real opponent tiles*: P reaches the goal now (a plan of :mod:`.plans`),
and still does after every legal placement of the opponent (OD-2, OD-3 for
the opponent, with its real colours, so the hexes of P's colour it lays
count for P). A move after which the opponent has won (OD-5) refutes
safety; a move after which P has won does not. The question in bare hexes
is :func:`.blocking.min_blocking_set`.

Method: every legal opponent move is checked against a cache of P's plans.
A move disjoint from a cached *quiet* plan (one whose tiles complete no
condition but the goal) that touches none of the plan's colours keeps that
plan valid (OD-3 and the goal are monotone in the colours laid, and no
condition appears, so OD-5 cannot end the game early); this test runs on
all moves at once (numpy). Other moves are decided exactly: the conditions
after the move, a cached plan replayed through the engine, then a
reachability question (:func:`.distance.shortest_plan`); the plans found
join the cache. On the default paths the conditions and the cached plans
are tested on bitmasks (as :func:`.plans.move_bits` gives them), and of the moves that
lay the same hexes in the same colours (identical tiles) only the first is
checked: P's plans depend on the colours only, not on which of the
opponent's tiles laid them. The spare plans looked for before the moves
(:data:`SPARE_PLANS`, avoiding the hexes of the plans found) only spare
exact questions later, so on the default paths they are found without a
solver (the greedy plan, else :func:`.plansearch.search_plan`) and none
found proves nothing.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from .bitboard import CONDITION_BITS
from .distance import shortest_plan
from .plans import (GOALS, PositionBits, goal_fulfilled, order_on_bits, order_plan, plan_hexes, plan_info,
                    position_bits, put_fast, query_start, solo, use_reference, used_bits)
from .state import OrionState
from .wins import W2_GALAXIES, W3_BLACK_HOLES, win_conditions

__all__ = ["SafetyResult", "is_safe_connection", "SPARE_PLANS"]

#: Plans with disjoint hexes that :func:`is_safe_connection` looks for after
#: the first one, before it checks the opponent's moves.
SPARE_PLANS = 2

#: Search nodes of :func:`.plansearch.complete_plan` for one spare plan (W1).
SPARE_NODES = 60


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
        For a ``state`` that is no Orion position (a
        :class:`.bitboard.BitOrionState` is analysed as its reference
        state), a bad player, goal or pair, a ``time_limit`` that is not
        a number above 0, or ``num_workers`` not a whole number of at
        least 1.

    Examples
    --------
    The position of :func:`.blocking.min_blocking_set`'s example: any opponent tile on
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
    state, keys, done = query_start(state, player, goal, pairs, res, t0, time_limit, num_workers)
    if done:
        return res
    if state.is_terminal():
        res.safe, res.status = False, "over"
        res.seconds = time.perf_counter() - t0
        return res
    # Any plan certifies reachability (the fewest tiles are not asked for).
    ans = shortest_plan(state, player, goal, pairs=keys, time_limit=time_limit,
                        num_workers=num_workers, any_plan=not use_reference())
    if not ans.plan:
        res.safe, res.status = (False, "unreachable") if ans.status == "unreachable" else (None, "unknown")
        res.seconds = time.perf_counter() - t0
        return res
    res.plan = ans.plan
    opp = 1 - player
    moves = (np.array(solo(state, opp).legal_actions(opp), dtype=np.int64) if use_reference()
             else _legal_on_bits(state, opp))
    res.moves = len(moves)
    base = state.conditions()
    alone = _alone_conditions(state, moves, opp)
    cache = [_Cached(state, player, goal, keys, ans.plan, base)]
    todo = ~cache[0].covers(state, moves, opp, alone)
    if not use_reference() and len(moves):
        # Moves of identical tiles (the same hexes, the same colours) leave the same position
        # for P (P's plans do not depend on the opponent's tiles): the first of them stands for all.
        first = np.zeros(len(moves), dtype=bool)
        first[np.unique(_same_colours(state.game)[moves], return_index=True)[1]] = True
        todo &= first
    # A few more plans avoiding the hexes of the first ones: a move meeting one plan
    # then usually leaves another intact (fewer exact questions below).
    avoid = set(cache[0].hexes.nonzero()[0].tolist())
    for _ in range(SPARE_PLANS):
        left = time_limit - (time.perf_counter() - t0)
        if left <= 0 or not todo.any():
            break
        spare: list[int] | None
        if use_reference():
            spare = shortest_plan(state, player, goal, pairs=keys, blocked=avoid, time_limit=left,
                                  num_workers=num_workers, any_plan=True).plan
        else:
            spare = _spare_plan(state, player, goal, keys, avoid)
        if not spare:
            break
        cache.append(_Cached(state, player, goal, keys, spare, base))
        todo &= ~cache[-1].covers(state, moves, opp, alone)
        avoid |= plan_hexes(state, spare)
    res.status = "safe"
    fast = not use_reference()
    if fast:
        from .bitboard import BitTables

        tab = BitTables.get(state.game)
        used = used_bits(state, player)
        reached = _goal_test(state, player, goal, keys)
        pos0 = position_bits(state)
        now = state.conditions()
        conds_now = [sum(CONDITION_BITS[c] for c in now[0]), sum(CONDITION_BITS[c] for c in now[1])]
        # Per colour and grid bit, the chain of that colour now holding it (the chains through
        # a move's hexes are those hexes and the chains next to them).
        comp_at = [tab.components(g) for g in pos0.colour_grid]

        def chains_through(new: int, c: int) -> int:
            return new | tab.chains_at(tab.dilate(new) & pos0.colour_grid[c], comp_at[c])
    # The moves left to check, lowest index first (todo only loses moves on the way).
    for i in np.flatnonzero(todo).tolist():
        if not todo[i]:
            continue
        todo[i] = False
        y = int(moves[i])
        if time.perf_counter() - t0 > time_limit:
            res.safe, res.status = None, "unknown"
            break
        if fast:
            # The same tests on bitmasks, without a new state: the position after the move
            # as plans.move_bits gives it (OD-4 grown from the new hexes, OD-5 by the counts).
            cg = list(pos0.colour_grid)
            cg[opp] |= tab.own[y]
            cg[player] |= tab.opp[y]
            # Per colour, the union of the chains through the move's hexes of that colour.
            reach = [0, 0]
            reach[opp] = chains_through(tab.own[y], opp)
            reach[player] = chains_through(tab.opp[y], player)
            if _union_news(tab, reach, conds_now, pos0.galaxies, pos0.holes):
                got = tab.new_conditions(cg, opp, tab.own[y], tab.opp[y], pos0.galaxies, pos0.holes)
                conds_y = [conds_now[0] | got[0], conds_now[1] | got[1]]
            else:
                conds_y = conds_now
            n0, n1 = conds_y[0].bit_count(), conds_y[1].bit_count()
            winner = None if n0 == n1 else 0 if n0 > n1 else 1
            ci = list(pos0.colour_idx)
            ci[opp] |= tab.own_idx[y]
            ci[player] |= tab.opp_idx[y]
            pos_y = PositionBits(ci, cg, pos0.galaxies, pos0.holes, pos0.token_idx)
            if winner is not None:  # OD-5 after the move
                if winner == opp:
                    res.safe, res.status, res.refutation = False, "refuted", y
                    break
                continue  # P has won: not stopped
            if reached(pos_y, conds_y, reach[player]):
                continue  # the move gave P the goal (the game goes on)
            # Only plans the move does not cover can survive it (the chains through the
            # move's hexes are grown for those only).
            cells_y = tab.own_idx[y] | tab.opp_idx[y]
            alive = [c for c in cache if not cells_y & c.hex_mask]
            if alive:
                if any(c.valid_on_bits(state.game, y, pos_y, conds_y, used, reach) for c in alive):
                    continue  # a plan survives
        after = solo(state, opp)
        if use_reference():
            after._put(opp, y)
        else:
            put_fast(after, opp, y)
        if not fast:
            if after.winner is not None:  # OD-5 after the move
                if after.winner == opp:
                    res.safe, res.status, res.refutation = False, "refuted", y
                    break
                continue  # P has won: not stopped
            if goal_fulfilled(after, player, goal, keys) or any(c.valid_after(after, y) for c in cache):
                continue  # the move gave P the goal (the game goes on), or a plan survives
        res.exact += 1
        left = time_limit - (time.perf_counter() - t0)
        ans = shortest_plan(solo(after, player), player, goal, pairs=keys,
                            time_limit=max(left, 0.01), num_workers=num_workers,
                            any_plan=not use_reference())
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
        self.info: list | None = None   # plans.plan_info, made when first needed (the tokens never change)
        game = state.game
        self.colour = game.paint(state.colour.copy(), plan, player)
        self.hexes = np.zeros(game.n + 1, dtype=bool)
        self.hexes[list(plan_hexes(state, plan))] = True
        from .bitboard import BitTables

        tab = BitTables.get(game)
        # Quiet: the plan's tiles complete no condition but the goal.
        if use_reference():
            final = win_conditions(game, self.colour, state.galaxy, state.hole)
            self.quiet = (final[1 - player] <= base[1 - player]
                          and final[player] <= base[player] | {GOALS[goal]})
        else:
            # On bitmasks: colours are only added, so the conditions of the final colouring are
            # those now (base) and those of the chains through the plan's hexes (OD-4).
            pos = position_bits(state)
            own = opp = 0
            for a in plan:
                own |= tab.own[a]
                opp |= tab.opp[a]
            cg = list(pos.colour_grid)
            cg[player] |= own
            cg[1 - player] |= opp
            got = tab.new_conditions(cg, player, own, opp, pos.galaxies, pos.holes)
            have = [sum(CONDITION_BITS[c] for c in base[q]) for q in (0, 1)]
            self.quiet = (not got[1 - player] & ~have[1 - player]
                          and not got[player] & ~(have[player] | CONDITION_BITS[GOALS[goal]]))
        # Per colour, the grid mask of the plan's hexes of that colour and their neighbours.
        self.own_idx, self.opp_idx = tab.own_idx, tab.opp_idx
        self.hex_mask = sum(1 << h for h in plan_hexes(state, plan))   # index bits
        self.grid = [0, 0]   # the plan's hexes per colour (grid mask)
        for a in plan:
            self.grid[player] |= tab.own[a]
            self.grid[1 - player] |= tab.opp[a]
        self.touch = [tab.dilate(m) for m in self.grid]
        # The goal's condition bit when reaching the goal is that condition (W1 on any pair, or W2).
        self.goal_bit = CONDITION_BITS[GOALS[goal]] if goal == "galaxies" or keys is None else 0

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

    def valid_on_bits(self, game, y, pos, conds, used, reach) -> bool:
        """:meth:`valid_after` on the position after ``y`` as bitmasks (:func:`.plans.move_bits`),
        the game going on and the goal not fulfilled there.

        ``reach``: per colour, the chains (grid mask) after the move that hold
        its hexes of that colour. A quiet plan none of whose hexes lies on or
        next to such a chain of its colour stays a plan in its order: its
        chains and the move's stay apart, so the conditions along it are
        those after the move (balanced, the game going on) until the goal,
        and OD-3 and the goal only gain colours. Otherwise its orders are
        searched (:func:`.plans.order_on_bits`).
        """
        if (self.own_idx[y] | self.opp_idx[y]) & self.hex_mask:
            return False
        if self.quiet and not (reach[0] & self.touch[0] or reach[1] & self.touch[1]):
            return True
        if self.info is None:
            self.info = plan_info(game, self.player, self.plan, pos.token_idx)
        if self._keeps_order(game, pos, conds):
            return True
        return order_on_bits(game, self.player, self.plan, self.goal, self.keys, True, pos, conds, used,
                             self.info) is not None

    def _keeps_order(self, game, pos, conds) -> bool:
        """Is the plan's own order still a plan on ``pos`` (the position after a move disjoint from it)?
        A sufficient test, no search over orders.

        OD-2: the plan's hexes and tiles are still free and unused. OD-3 is
        tested step by step along the order. The goal holds after the last
        tile (it did on fewer colours, and the goal only gains colours). The
        conditions (OD-4) only grow along the plan, and those that appear hold
        for the chains through the plan's hexes in the final colouring, so
        for their union per colour (:func:`_union_news`): when that shows no
        condition but the goal that ``conds`` lacks, every position along
        the order has the conditions of ``pos`` (balanced: the game goes on,
        OD-5) until the goal is reached.
        """
        p, o = self.player, 1 - self.player
        ci = list(pos.colour_idx)
        for _, _, _, req, own_i, opp_i, _, _ in self.info or ():
            if any(not nb & ci[c] for nb, c in req):
                return False
            ci[p] |= own_i
            ci[o] |= opp_i
        from .bitboard import BitTables

        tab = BitTables.get(game)
        reach = [0, 0]
        for c in (p, o):
            reach[c] = tab.grow(self.grid[c], pos.colour_grid[c] | self.grid[c])
        have = list(conds)
        have[p] |= self.goal_bit
        return not _union_news(tab, reach, have, pos.galaxies, pos.holes)

    def valid_after(self, after, y) -> bool:
        """Exact: is the plan still a plan after opponent move ``y`` (position ``after``)?"""
        pl = after.game.placements[y]
        if self.hexes[list(pl.cells)].any():
            return False
        return order_plan(after, self.player, self.plan, self.goal, self.keys) is not None


def _spare_plan(state, player: int, goal: str, keys, avoid) -> list[int] | None:
    """A plan avoiding the hexes ``avoid``, without a solver: for W1 the complete search of
    :mod:`.plansearch` within :data:`SPARE_NODES` nodes, else the greedy plan or the bitmask search.

    Spare plans only spare exact questions later, so none found (even where
    one exists) changes no answer; no proof is asked for.
    """
    from .distance import greedy_plan
    from .plansearch import complete_plan, search_plan
    from .reach import ReachModel

    if goal == "sides":
        got = complete_plan(state, player, goal, keys, avoid, len(state.remaining_tiles(player)),
                            node_limit=SPARE_NODES)
        return got[1] if got is not None and got[0] == "feasible" else None
    ctx = ReachModel(state, player, goal, pairs=keys, blocked=avoid)
    if ctx.lb_tiles is None:
        return None
    return greedy_plan(ctx) or search_plan(state, player, goal, keys, avoid)


def _legal_on_bits(state, p: int) -> np.ndarray:
    """``p``'s legal placements now (:meth:`.state.OrionState.legal_actions`), OD-3 on bitmasks.

    OD-2 as the engine tests it (free hexes, an unused tile); OD-3: each
    token-covering hex's one-colour group of the tile has a neighbour of
    its colour (the requirements of :meth:`.bitboard.BitTables.requirements`,
    neighbour masks split in two 64-bit words, all tested at once).
    """
    from .bitboard import BitTables
    from .plans import position_bits

    game = state.game
    tab = BitTables.get(game)
    ci = position_bits(state).colour_idx
    ok = tab.all_cells(state.colour < 0) & ~state.used[p][game.pl_tile]
    hexes = game.board.hexes
    own_req, opp_req, _ = tab.requirements(tuple(hexes[h] for h in np.flatnonzero(state.galaxy[:game.n]).tolist()),
                                           tuple(hexes[h] for h in np.flatnonzero(state.hole[:game.n]).tolist()))
    for (t, lo, hi), c in ((own_req, p), (opp_req, 1 - p)):
        lo_c, hi_c = np.uint64(ci[c] & ((1 << 64) - 1)), np.uint64(ci[c] >> 64)
        ok[t[((lo & lo_c) | (hi & hi_c)) == 0]] = False
    return np.flatnonzero(ok).astype(np.int64)


def _goal_test(state, player: int, goal: str, keys):
    """A test ``(position bits, condition bits, new chains) -> bool``: does ``player`` fulfil the
    goal after an opponent move, P not fulfilling it before?

    As :func:`.plans.goal_fulfilled`: the goal's condition bit for W2 or
    every pair, else a flood fill from each listed pair's first side.
    ``new``: the union of P's chains (grid mask) through the move's hexes
    of P's colour. P did not fulfil the goal before the move (the question
    starts with :func:`.plans.query_start`), and colours are only added
    (OD-2), so a chain of P joining a pair's sides after the move holds one
    of those hexes, and lies in ``new``: when ``new`` touches no listed
    pair's two sides, the goal is not fulfilled (the flood fill is run
    otherwise, the union possibly joining separate chains).
    """
    from .bitboard import CONDITION_BITS, BitTables

    want = CONDITION_BITS[GOALS[goal]]
    if keys is None or goal == "galaxies":
        return lambda pos, conds, new: bool(conds[player] & want)
    tab = BitTables.get(state.game)
    sides = [tab.sides[k] for k in keys]

    def reached(pos, conds, new) -> bool:
        if not any(new & a and new & b for a, b in sides):
            return False
        return any(tab.grow(pos.colour_grid[player] & a, pos.colour_grid[player]) & b for a, b in sides)

    return reached


def _union_news(tab, reach, conds_now, galaxies: int, holes: int) -> bool:
    """Might an opponent move add a condition (OD-4) to ``conds_now``? False only when it cannot.

    ``reach``: per colour, the union of the chains (grid mask) through the
    move's hexes of that colour. The conditions that appear are those of
    those chains (:meth:`.bitboard.BitTables.new_conditions`), and each of
    W1 (both sides of a pair touched), W2 (4 galaxies) and W3 (3 black
    holes) holding for a chain holds for any superset of it, so for the
    union: when the union's conditions are all held already, the move adds
    none (then the per-chain test is not needed).
    """
    for c in (0, 1):
        u = reach[c]
        if not u:
            continue
        if not conds_now[c] & 1 and any(u & a and u & b for a, b in tab.sides):
            return True
        if not conds_now[c] & 2 and (u & galaxies).bit_count() >= W2_GALAXIES:
            return True
        if not conds_now[1 - c] & 4 and (u & holes).bit_count() >= W3_BLACK_HOLES:
            return True
    return False


@lru_cache(maxsize=16)
def _same_colours(game) -> np.ndarray:
    """Per placement id, the lowest id laying the same hexes in the same colours (index bits)."""
    from .bitboard import BitTables

    tab = BitTables.get(game)
    first: dict[tuple[int, int], int] = {}
    return np.array([first.setdefault((o, x), y) for y, (o, x) in enumerate(zip(tab.own_idx, tab.opp_idx))],
                    dtype=np.int64)


@lru_cache(maxsize=16)
def _joins_pair(game) -> np.ndarray:
    """Per placement id: does it hold a hex of both sides of an opposite pair?"""
    cells = game.pl_cells
    out = np.zeros(len(cells), dtype=bool)
    for a, b in game.side_pairs:
        ina = np.zeros(game.n + 1, dtype=bool)
        inb = np.zeros(game.n + 1, dtype=bool)
        ina[list(a)] = True
        inb[list(b)] = True
        out |= ina[cells].any(axis=1) & inb[cells].any(axis=1)
    return out


def _alone_conditions(state, moves, placer) -> np.ndarray:
    """Per move: would its tile alone (a group of one colour) fulfil a condition (OD-4)?

    Never with the shipped tiles and spacings (3 hexes cover at most one
    galaxy and two black holes, and join no opposite sides); a vectorised
    filter finds the moves that might, and only those are looked at.
    """
    game = state.game
    cells = game.pl_cells[moves]
    maybe = (state.galaxy[cells].sum(axis=1) >= W2_GALAXIES) | \
        (state.hole[cells].sum(axis=1) >= W3_BLACK_HOLES) | _joins_pair(game)[moves]
    out = np.zeros(len(moves), dtype=bool)
    blank = np.full(game.n + 1, -1, dtype=np.int64)
    for i in np.flatnonzero(maybe).tolist():
        # The tile on an empty board: its one-colour groups are the only chains (OD-4).
        alone = win_conditions(game, game.paint(blank.copy(), (int(moves[i]),), placer),
                               state.galaxy, state.hole)
        out[i] = bool(alone[0] or alone[1])
    return out
