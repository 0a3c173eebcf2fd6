"""Plans of one player while the other passes: the exact meaning of every analysis answer.

RULES.md §4 asks the analysis questions "if the opponent passes". A *plan*
of player P for goal G (``"sides"``: W1, ``"galaxies"``: W2, OD-4) is a
sequence of P's placements, played one after another by
:meth:`.state.OrionState.place` (the other player passing), such that

1. each placement is legal when it is played: an unused tile of P on free
   hexes (OD-2) whose token-covering hexes join earlier hexes of their
   colour (OD-3) -- earlier hexes include those of P's own earlier
   placements in the plan, of either colour;
2. the game is not over before the last placement: after every earlier
   one, both players fulfil equally many conditions (OD-5). A plan in
   which a tile completes a condition first -- the opponent's chain of P's
   opponent-coloured hexes, a W3 of P's colour over 3 black holes, or P's
   own other condition -- ends the game there and does not count;
3. after the last placement P fulfils G (for W1 on one of ``pairs``, default
   any opposite pair). Whether that wins depends on the opponent's count at
   that moment (OD-5); the analysis asks whether P *reaches* G.

A *plan set* is the unordered set of placements; :func:`order_plan` finds an
order that makes it a plan (depth-first over orders, failed subsets
remembered). Every plan the CP-SAT models return is checked here, through
the engine only, so the engine's rules are the single source of truth.
"""

from __future__ import annotations

import contextlib
from typing import Iterable, Sequence

import numpy as np

from ...errors import InputError, flag_argument, seconds_argument, whole_argument
from ..base import is_int
from .graphs import joins_sides
from .state import OrionState
from .wins import W2_GALAXIES, W3_BLACK_HOLES, win_conditions

#: Whether the analysis runs on the reference paths (:func:`reference_analysis`).
_REFERENCE = [False]


@contextlib.contextmanager
def reference_analysis():
    """Run the analysis questions on their reference paths (the engine of :mod:`ubongo_cp.games.orion.state` only).

    The default paths use the bitmask tables of :mod:`ubongo_cp.games.orion.bitboard` and
    answer every question identically (``tests/test_orion_fast_analysis.py``);
    inside this context manager the reference paths run, for cross-checks
    and side-by-side benchmarks.
    """
    old = _REFERENCE[0]
    _REFERENCE[0] = True
    try:
        yield
    finally:
        _REFERENCE[0] = old


def use_reference() -> bool:
    """Whether :func:`reference_analysis` is in force."""
    return _REFERENCE[0]

__all__ = ["GOALS", "reference_analysis", "use_reference", "position_bits", "put_fast", "analysed_state", "check_query",
           "query_start", "goal_fulfilled", "order_plan", "order_on_bits", "move_bits", "used_bits",
           "final_reaches", "verify_plan", "minimal_plan", "plan_hexes", "plan_info", "solo"]

#: Goal names of the analysis and the win condition each stands for (OD-4).
GOALS = {"sides": "W1", "galaxies": "W2"}


def analysed_state(state, name: str = "state") -> OrionState:
    """The position an analysis question is asked about, in the reference engine.

    An :class:`.state.OrionState` is returned as it is, a
    :class:`.bitboard.BitOrionState` as its
    :meth:`~.bitboard.BitOrionState.to_reference` copy.

    Raises
    ------
    InputError
        For anything else (the message names the argument ``name``).
    """
    from .bitboard import BitOrionState

    if isinstance(state, BitOrionState):
        return state.to_reference()
    if not isinstance(state, OrionState):
        raise InputError(f"{name} must be an Orion position (OrionState or BitOrionState), "
                         f"got {type(state).__name__}")
    return state


def check_query(state, player: int, goal: str, pairs=None, time_limit: float = float("inf"),
                num_workers: int = 1, **flags) -> tuple[OrionState, list[int] | None]:
    """Validate the arguments every analysis question takes; the position and the pairs to use.

    Returns the position as :func:`analysed_state` gives it, and None when
    ``pairs`` names every opposite pair (or is None), else the list of pair
    indices (the ``pairs`` argument of the plan functions). ``time_limit``:
    the question's (seconds; the default, none, for a question without one);
    ``num_workers``: its CP-SAT workers (a whole number of at least 1);
    ``flags``: its switches by name (``relaxed=...``), each True or False.

    Raises
    ------
    InputError
        For a state that is no Orion position, a player other than 0 or 1,
        an unknown goal, ``pairs`` that is no list of whole numbers indexing
        the board's opposite pairs (numpy integers are taken, bools are
        not), a time limit that is not a number above 0, a number of
        workers that is not a whole number of at least 1, or a flag other
        than True or False ("no" would read as true).
    """
    state = analysed_state(state)
    if not is_int(player) or player not in (0, 1):
        raise InputError(f"player must be 0 or 1, got {player!r}")
    if not isinstance(goal, str) or goal not in GOALS:
        raise InputError(f"goal must be {' or '.join(f'{g!r} ({w})' for g, w in GOALS.items())}, "
                         f"the win conditions of OD-4, got {goal!r}")
    time_limit = seconds_argument("time_limit", time_limit)
    whole_argument("num_workers", num_workers, 1)   # CP-SAT reads 0 as every core, and a float fails inside it
    for name, value in flags.items():   # relaxed="no" answered the relaxed question
        flag_argument(name, value)
    n = len(state.game.side_pairs)
    try:
        pairs = list(range(n)) if pairs is None else list(pairs)
    except TypeError:   # one number or None-like value in place of the list
        raise InputError(f"pairs must be a list of indices 0..{n - 1} of opposite side pairs, e.g. [0], "
                         f"got {pairs!r}") from None
    bad = [k for k in pairs if not (is_int(k) and 0 <= k < n)]   # numpy integers are indices, True is none
    if bad or not pairs:
        raise InputError(f"pairs must be indices 0..{n - 1} of opposite side pairs, got {pairs!r}")
    keys = sorted({int(k) for k in pairs})
    return state, None if len(keys) == n else keys


def query_start(state, player: int, goal: str, pairs, res, t0: float, time_limit: float = float("inf"),
                num_workers: int = 1, **flags):
    """The start of every analysis question: ``(position, pairs to use, done)``.

    Checks the arguments (:func:`check_query`); ``done`` when ``player``
    fulfils the goal now, then ``res.seconds`` is set from ``t0``
    (:func:`time.perf_counter`).
    """
    import time

    state, keys = check_query(state, player, goal, pairs, time_limit, num_workers, **flags)
    done = goal_fulfilled(state, player, goal, keys)
    if done:
        res.seconds = time.perf_counter() - t0
    return state, keys, done


def goal_fulfilled(state: OrionState, player: int, goal: str, pairs=None, colour=None) -> bool:
    """Does ``player`` fulfil ``goal`` (W1 on one of ``pairs``, or W2) on ``colour`` (default now)?"""
    game = state.game
    whole = pairs is None or len(set(pairs)) == len(game.side_pairs)
    if colour is None and (goal == "galaxies" or whole):
        return GOALS[goal] in state.conditions()[player]   # computed by every move (OD-5)
    colour = state.colour if colour is None else colour
    if goal == "galaxies":
        return "W2" in win_conditions(game, colour, state.galaxy, state.hole)[player]
    own = [h for h in range(game.n) if colour[h] == player]
    return joins_sides(game.adjacency, own, game.side_pairs, pairs)


def solo(state: OrionState, player: int) -> OrionState:
    """A copy of ``state`` in which ``player`` is to move (the start of a plan).

    A game that is over stays over; :meth:`.state.OrionState.place` then refuses.
    """
    s = state.clone()
    if s.winner is None:
        s.player = player
        s._legal = {}
    return s


def order_plan(state: OrionState, player: int, plan: Iterable[int], goal: str = "sides",
               pairs=None, *, game_end: bool = True) -> list[int] | None:
    """An order in which the placements ``plan`` form a plan (module docstring), or None.

    Parameters
    ----------
    state : OrionState
    player : int
    plan : iterable of int
        Action ids (placements) of ``player``.
    goal : {"sides", "galaxies"}
    pairs : list of int, optional
        Opposite pairs that count for W1 (default all).
    game_end : bool
        Apply rule 2 (no end before the last placement); False drops it, to
        tell an OD-3 failure from a game-end failure.

    Returns
    -------
    list of int or None
        The placements in a working order; a proper prefix when it already
        reaches the goal; None when no order works (or ``state`` is over).

    Notes
    -----
    Depth-first search over orders; a set of placed tiles that failed once
    is not tried again, so at most 2^k states for k placements.
    """
    plan = list(dict.fromkeys(plan))
    if state.winner is not None:
        return None
    if goal_fulfilled(state, player, goal, pairs):
        return []   # the goal needs no tile
    if _REFERENCE[0] or any(not 0 <= a < len(state.game.placements) for a in plan):
        return _order_reference(state, player, plan, goal, pairs, game_end)
    return _order_bits(state, player, plan, goal, pairs, game_end)


def _order_reference(state: OrionState, player: int, plan: list[int], goal: str, pairs,
                     game_end: bool) -> list[int] | None:
    """:func:`order_plan` through the reference engine (:meth:`.state.OrionState.place` rules)."""
    start = solo(state, player)
    failed: set[frozenset] = set()

    def dfs(s: OrionState, done: tuple[int, ...]) -> list[int] | None:
        key = frozenset(done)
        if key in failed:
            return None
        for a in plan:
            if a in done or s._violation(player, a):
                continue
            nxt = s.clone()
            nxt._put(player, a)
            nxt.player = player
            if goal_fulfilled(nxt, player, goal, pairs):
                return [*done, a]
            if nxt.winner is not None:
                if game_end:
                    continue
                nxt.winner = nxt.end_rule = None
            if len(done) + 1 < len(plan):
                found = dfs(nxt, (*done, a))
                if found:
                    return found
        failed.add(key)
        return None

    return dfs(start, ())


def _order_bits(state: OrionState, player: int, plan: list[int], goal: str, pairs,
                game_end: bool) -> list[int] | None:
    """:func:`order_plan` on bitmasks (:mod:`ubongo_cp.games.orion.bitboard`): the same search, the same answer.

    The same depth-first search over orders as :func:`_order_reference`, in
    the same order, on the bitmask rules of
    :class:`.bitboard.BitOrionState`: OD-2 (the tile unused, the hexes
    free), OD-3 (each token-covering group's neighbour mask holds its
    colour) and OD-4 grown incrementally from the new hexes (conditions only
    appear), OD-5 by the counts.
    """
    from .bitboard import CONDITION_BITS as bit

    conds = state.conditions()
    return order_on_bits(state.game, player, plan, goal, pairs, game_end, position_bits(state),
                         [sum(bit[w] for w in conds[0]), sum(bit[w] for w in conds[1])],
                         _index_mask(state.used[player]))


def order_on_bits(game, player: int, plan: list[int], goal: str, pairs, game_end: bool, pos: PositionBits,
                  conds: list[int], used: int, info: list | None = None) -> list[int] | None:
    """The search of :func:`_order_bits` on a position given as bitmasks.

    ``pos``: the colours and tokens (:class:`PositionBits`); ``conds``: the
    condition bits per player (:data:`.bitboard.CONDITION_BITS`); ``used``:
    the player's used tiles (bit per tile). The game must not be over and
    the goal not fulfilled (:func:`order_plan` checks both first).
    ``info``: :func:`plan_info` of the plan on ``pos``'s tokens, when the
    caller keeps it.
    """
    from .bitboard import CONDITION_BITS as bit, BitTables

    tab = BitTables.get(game)
    galaxies, holes = pos.galaxies, pos.holes
    opp = 1 - player
    if info is None:
        info = plan_info(game, player, plan, pos.token_idx)
    whole = pairs is None or len(set(pairs)) == len(game.side_pairs)
    sides = [tab.sides[k] for k in (range(len(tab.sides)) if whole else sorted(set(pairs)))]
    want = bit[GOALS[goal]]
    all_sides = tab.sides
    grow, new_conditions = tab.grow, tab.new_conditions
    count = (0, 1, 1, 2, 1, 2, 2, 3)   # conditions in a 3-bit set
    last = len(plan) - 1
    failed: set[int] = set()

    def dfs(ci, cg, conds, tiles, done, order):
        # ci/cg: index/grid masks per colour; conds: condition bits per player; done: bits of plan indices.
        if done in failed:
            return None
        busy = ci[0] | ci[1]
        for i, (a, tile, cells, req, own_i, opp_i, own_g, opp_g) in enumerate(info):
            if done >> i & 1 or tile & tiles or cells & busy:
                continue
            if any(not nb & ci[c] for nb, c in req):
                continue
            ci2, cg2, conds2 = list(ci), list(cg), list(conds)
            ci2[player] |= own_i
            ci2[opp] |= opp_i
            cg2[player] |= own_g
            cg2[opp] |= opp_g
            # The unions of the chains through the new hexes, per colour: a condition or the
            # goal that appears holds for one of those chains, hence for the union (see
            # safety._union_news); the per-chain tests run only when the union passes.
            grid = cg2[player]
            up, uo = grow(own_g, grid), grow(opp_g, cg2[opp])
            if ((up and (not conds[player] & 1 and any(up & sa and up & sb for sa, sb in all_sides)
                         or not conds[player] & 2 and (up & galaxies).bit_count() >= W2_GALAXIES
                         or not conds[opp] & 4 and (up & holes).bit_count() >= W3_BLACK_HOLES))
                    or (uo and (not conds[opp] & 1 and any(uo & sa and uo & sb for sa, sb in all_sides)
                                or not conds[opp] & 2 and (uo & galaxies).bit_count() >= W2_GALAXIES
                                or not conds[player] & 4 and (uo & holes).bit_count() >= W3_BLACK_HOLES))):
                got = new_conditions(cg2, player, own_g, opp_g, galaxies, holes)
                conds2[0] |= got[0]
                conds2[1] |= got[1]
            if conds2[player] & want if (goal == "galaxies" or whole) else \
                    (any(up & sa and up & sb for sa, sb in sides)
                     and any(grow(grid & sa, grid) & sb for sa, sb in sides)):
                return [*order, a]
            if game_end and count[conds2[0]] != count[conds2[1]]:
                continue   # OD-5: the game is over before the plan is
            if len(order) < last:
                found = dfs(ci2, cg2, conds2, tiles | tile, done | 1 << i, [*order, a])
                if found:
                    return found
        failed.add(done)
        return None

    return dfs(pos.colour_idx, pos.colour_grid, conds, used, 0, [])


def plan_info(game, player: int, plan: list[int], token: int) -> list[tuple]:
    """Per placement of ``plan``, what :func:`order_on_bits` tests it by (``token``: index bits).

    ``(id, tile bit, hexes, OD-3 requirements (neighbour mask, colour), own
    and other colour's hexes as index then grid masks)``; it depends on the
    plan and the tokens only (not on the colours).
    """
    from .bitboard import BitTables

    tab = BitTables.get(game)
    opp = 1 - player
    info = []
    for a in plan:
        pl = game.placements[a]
        req = tuple((nb, player if own else opp) for c, (nb, own) in zip(pl.cells, tab.groups[a])
                    if token >> c & 1)
        info.append((a, 1 << pl.tile, tab.own_idx[a] | tab.opp_idx[a], req, tab.own_idx[a], tab.opp_idx[a],
                     tab.own[a], tab.opp[a]))
    return info


class PositionBits:
    """A reference position's hex sets as bitmasks of :class:`.bitboard.BitTables` (index and grid bits)."""

    __slots__ = ("colour_idx", "colour_grid", "galaxies", "holes", "token_idx")

    def __init__(self, colour_idx, colour_grid, galaxies, holes, token_idx) -> None:
        self.colour_idx, self.colour_grid = colour_idx, colour_grid
        self.galaxies, self.holes, self.token_idx = galaxies, holes, token_idx


def _index_mask(flags: np.ndarray) -> int:
    """Index bits of a boolean array over the hexes (bit i = hex i)."""
    return int.from_bytes(np.packbits(flags, bitorder="little").tobytes(), "little")


def _grid_mask(tab, idx_mask: int) -> int:
    """Grid bits (:class:`.bitboard.BitTables`) of an index mask, a byte at a time (tables built once)."""
    lut = getattr(tab, "_grid_lut", None)
    if lut is None:
        gb = tab.grid_bit
        lut = tab._grid_lut = [[sum(1 << gb[8 * j + i] for i in range(8) if v >> i & 1 and 8 * j + i < len(gb))
                                for v in range(256)] for j in range((len(gb) + 7) // 8)]
    out, j = 0, 0
    while idx_mask:
        out |= lut[j][idx_mask & 255]
        idx_mask >>= 8
        j += 1
    return out


_BITS_CACHE: dict = {}


def position_bits(state: OrionState) -> PositionBits:
    """The colours and tokens of ``state`` as bitmasks (index and grid bits of :class:`.bitboard.BitTables`).

    Cached by the colouring and the tokens (a question asks about the same
    position many times).
    """
    key = (id(state.game), state.colour.tobytes(), state.galaxy.tobytes(), state.hole.tobytes())
    got = _BITS_CACHE.get(key)
    if got is None:
        if len(_BITS_CACHE) > 4096:
            _BITS_CACHE.clear()
        got = _BITS_CACHE[key] = _position_bits(state)
    return got


def put_fast(state: OrionState, p: int, action: int) -> None:
    """The reference engine's move (``OrionState._put``) with OD-4 grown from the new hexes on bitmasks (the same position).

    Conditions only appear (colours are only added), so the chains through
    the placement's hexes are the only ones to test (as
    :class:`.bitboard.BitOrionState` does); the colouring, the used tile,
    the history and OD-5 are set as the reference does.
    """
    from .bitboard import BitTables, condition_names

    tab = BitTables.get(state.game)
    pos = position_bits(state)
    grid = list(pos.colour_grid)
    grid[p] |= tab.own[action]
    grid[1 - p] |= tab.opp[action]
    got = tab.new_conditions(grid, p, tab.own[action], tab.opp[action], pos.galaxies, pos.holes)
    conds = [set(state.conditions()[c]) | condition_names(got[c]) for c in (0, 1)]
    state.game.paint(state.colour, (action,), p)
    state.used[p, state.game.placements[action].tile] = True
    state._history.append(action)
    state._legal = {}
    state._wins = None
    state._conds = (frozenset(conds[0]), frozenset(conds[1]))
    n0, n1 = len(conds[0]), len(conds[1])
    if n0 != n1:  # OD-5
        state.winner, state.end_rule = (0 if n0 > n1 else 1), "OD-5"


def move_bits(state: OrionState, p: int, action: int) -> tuple[PositionBits, list[int], int | None]:
    """:func:`put_fast` without a new state: the position after ``p``'s placement ``action`` as bitmasks.

    Returns the colours and tokens (:class:`PositionBits`), the condition
    bits per player (:data:`.bitboard.CONDITION_BITS`) and the winner under
    OD-5 (None: the game goes on), as :func:`put_fast` sets them.
    """
    from .bitboard import CONDITION_BITS as bit, BitTables

    tab = BitTables.get(state.game)
    pos = position_bits(state)
    ci, cg = list(pos.colour_idx), list(pos.colour_grid)
    ci[p] |= tab.own_idx[action]
    ci[1 - p] |= tab.opp_idx[action]
    cg[p] |= tab.own[action]
    cg[1 - p] |= tab.opp[action]
    got = tab.new_conditions(cg, p, tab.own[action], tab.opp[action], pos.galaxies, pos.holes)
    now = state.conditions()
    conds = [sum(bit[w] for w in now[c]) | got[c] for c in (0, 1)]
    n0, n1 = conds[0].bit_count(), conds[1].bit_count()
    winner = None if n0 == n1 else 0 if n0 > n1 else 1   # OD-5
    return PositionBits(ci, cg, pos.galaxies, pos.holes, pos.token_idx), conds, winner


def used_bits(state: OrionState, player: int) -> int:
    """``player``'s used tiles as a bitmask (bit per tile), as :func:`order_on_bits` takes them."""
    return _index_mask(state.used[player])


def _position_bits(state: OrionState) -> PositionBits:
    from .bitboard import BitTables

    tab = BitTables.get(state.game)
    col = state.colour[:-1]
    ci = [_index_mask(col == 0), _index_mask(col == 1)]
    n = state.game.n
    return PositionBits(ci, [_grid_mask(tab, m) for m in ci], _grid_mask(tab, _index_mask(state.galaxy[:n])),
                        _grid_mask(tab, _index_mask(state.hole[:n])), _index_mask(state.token[:n]))


def verify_plan(state: OrionState, player: int, plan: Sequence[int], goal: str = "sides",
                relaxed: bool = False, pairs=None) -> bool:
    """Check a witness independently of the model that produced it.

    Shaped plans: :func:`order_plan` finds an order (any that works).
    Relaxed plans are free hex indices coloured with ``player``'s colour one
    by one (tile shapes, OD-3 and OD-5 ignored).
    """
    if relaxed:
        colour = state.colour.copy()
        for h in plan:
            if colour[h] >= 0:
                return False
            colour[h] = player
        return goal_fulfilled(state, player, goal, pairs, colour)
    plan = list(dict.fromkeys(plan))
    if state.winner is not None:
        return False
    if goal_fulfilled(state, player, goal, pairs):
        return True
    return _order_reference(state, player, plan, goal, pairs, True) is not None


def minimal_plan(state: OrionState, player: int, plan: Sequence[int], goal: str = "sides",
                 pairs=None) -> list[int]:
    """An inclusion-minimal sub-plan: tiles dropped one by one while the rest stays a plan.

    ``plan`` must be a plan (:func:`verify_plan`); the result is ordered
    (:func:`order_plan`). Used to make the sets the blocking search must
    hit as small as possible.
    """
    best = order_plan(state, player, plan, goal, pairs)
    if best is None:
        raise ValueError("not a plan")
    # A set whose final colouring misses the goal has no order (colours are only
    # added and the goal grows with them): skipped without the search over orders.
    reaches = None if _REFERENCE[0] or any(not 0 <= a < len(state.game.placements) for a in best) \
        else final_reaches(state, player, goal, pairs)
    k = 0
    while k < len(best):
        trial = best[:k] + best[k + 1:]
        if reaches is not None and trial and not reaches(trial):
            found = None
        else:
            found = order_plan(state, player, trial, goal, pairs) if trial else None
        if found is not None:
            best = found
            k = 0
        else:
            k += 1
    return best


def final_reaches(state: OrionState, player: int, goal: str, pairs):
    """A test ``plan -> bool``: does the colouring with every placement of ``plan`` laid fulfil the goal?

    On bitmasks (:class:`.bitboard.BitTables`): ``player``'s colour grid with
    the own hexes of the placements, W1 by a flood fill from each side of a
    pair, W2 by the galaxies of each component. Overlaps are not checked
    (the union of the colours is only more).
    """
    from .bitboard import BitTables

    tab = BitTables.get(state.game)
    pos = position_bits(state)
    base, own, grow, galaxies = pos.colour_grid[player], tab.own, tab.grow, pos.galaxies
    whole = pairs is None or len(set(pairs)) == len(state.game.side_pairs)
    sides = [tab.sides[k] for k in (range(len(tab.sides)) if whole else sorted(set(pairs)))]

    def reaches(plan) -> bool:
        grid = base
        for a in plan:
            grid |= own[a]
        if goal == "sides":
            return any(grow(grid & sa, grid) & sb for sa, sb in sides)
        rest = grid & galaxies
        while rest:
            comp = grow(rest & -rest, grid)
            if (comp & galaxies).bit_count() >= W2_GALAXIES:
                return True
            rest &= ~comp
        return False

    return reaches


def plan_hexes(state: OrionState, plan: Iterable[int]) -> frozenset[int]:
    """The hex indices the placements of ``plan`` cover (both colours)."""
    pls = state.game.placements
    return frozenset(c for a in plan for c in pls[a].cells)
