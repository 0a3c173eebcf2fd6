"""Exact brute force for small Orion Duel positions: enumeration of tile placements through the engine.

The reference the CP-SAT analysis (:mod:`.distance`, :mod:`.blocking`) is
checked against in ``tests/test_orion_exact.py`` and
``benchmarks/bench_orion.py --exact``. It shares nothing with the models:
it only asks the engine (:class:`.state.OrionState`) for legal moves
(``legal_actions``), plays them (``place`` for the player whose plan it is,
the other passing; ``apply_action``'s rules) and reads the win conditions
the engine computes after every move. The questions are those of
:mod:`.plans`.

Cost grows like (legal placements) ** (tiles): use it on positions with few
free hexes and few remaining tiles.
"""

from __future__ import annotations

import itertools

from .plans import GOALS, solo
from .state import OrionState

__all__ = ["all_plan_sets", "brute_distance", "brute_blocking", "brute_safety", "small_position",
           "contested_position"]


def all_plan_sets(state: OrionState, player: int, goal: str = "sides",
                  max_tiles: int | None = None) -> dict[frozenset, int]:
    """Every position ``player`` can reach its goal in, by breadth-first enumeration.

    Returns
    -------
    dict
        The hex set a plan covers (hex indices, both colours) -> the fewest
        tiles of a plan covering exactly that set. Empty when the goal
        cannot be reached; ``{frozenset(): 0}`` when it is fulfilled now.
    """
    want = GOALS[goal]
    if want in state.conditions()[player]:
        return {frozenset(): 0}
    out: dict[frozenset, int] = {}
    if state.is_terminal():
        return out
    start = solo(state, player)
    frontier = {(): start}
    seen: set[bytes] = set()
    limit = len(state.remaining_tiles(player)) if max_tiles is None else max_tiles
    for depth in range(1, limit + 1):
        nxt: dict = {}
        for done, s in frontier.items():
            for a in s.legal_actions(player):
                t = s.clone()
                t.place(a, player)
                key = t.colour.tobytes() + t.used.tobytes()
                if key in seen:
                    continue
                seen.add(key)
                if want in t.conditions()[player]:
                    cells = frozenset(c for b in (*done, a) for c in t.game.placements[b].cells)
                    out.setdefault(cells, depth)
                elif not t.is_terminal():
                    nxt[(*done, a)] = t
        frontier = nxt
    return out


def brute_distance(state: OrionState, player: int, goal: str = "sides") -> int | None:
    """Fewest tiles of a plan for ``goal`` (None: unreachable), by enumeration."""
    sets = all_plan_sets(state, player, goal)
    return min(sets.values()) if sets else None


def brute_blocking(state: OrionState, player: int, goal: str = "sides") -> int | None:
    """Size of a minimum set of free hexes meeting every plan (None: the goal is fulfilled now).

    A set of hexes taken out of play stops ``player`` exactly when it meets
    the hexes of every plan; the smallest such set is found by trying all
    subsets of the plans' hexes, smallest first.
    """
    sets = all_plan_sets(state, player, goal)
    if frozenset() in sets:
        return None
    family = [s for s in sets if not any(o < s for o in sets)]
    universe = sorted(set().union(*family)) if family else []
    for size in range(len(universe) + 1):
        for cut in itertools.combinations(universe, size):
            c = set(cut)
            if all(not c.isdisjoint(s) for s in family):
                return size
    return len(universe)


def brute_safety(state: OrionState, player: int, goal: str = "sides") -> tuple[bool, list[int]]:
    """Whether no single opponent move stops ``player``; and every move that does.

    Returns
    -------
    (bool, list of int)
        ``safe`` and the refuting opponent actions (all of them; empty when
        safe or when ``player`` cannot reach the goal even unopposed).
    """
    if GOALS[goal] in state.conditions()[player]:
        return True, []
    if state.is_terminal() or brute_distance(state, player, goal) is None:
        return False, []
    opp = 1 - player
    refuting = []
    for y in solo(state, opp).legal_actions(opp):
        after = solo(state, opp)
        after.place(y, opp)
        if after.is_terminal():
            if after.winner == opp:
                refuting.append(y)
            continue
        if brute_distance(after, player, goal) is None:
            refuting.append(y)
    return not refuting, refuting


def small_position(seed: int, free: int = 12, tiles: int = 3, moves: int = 12) -> OrionState | None:
    """A random small position for cross-checks (None when the draw ended the game).

    A random game of ``moves`` moves (random layout, random agents), then
    random free hexes coloured at random until ``free`` remain, and random
    unused tiles of each player marked used until at most ``tiles`` remain.
    Such positions need not be reachable in play; they are valid inputs of
    the analysis, small enough for this module.
    """
    import numpy as np

    from ..base import RandomAgent

    rng = np.random.default_rng(seed)
    s = OrionState(seed=int(rng.integers(2 ** 31)))
    agent = RandomAgent(rng)
    for _ in range(moves):
        if s.is_terminal():
            return None
        s.apply_action(agent(s))
    board = s.game.board
    colours = {board.hexes[h]: int(c) for h, c in enumerate(s.colour[:-1]) if c >= 0}
    open_ = [h for h in board.hexes if h not in colours]
    rng.shuffle(open_)
    for h in open_[:max(0, len(open_) - free)]:
        colours[h] = int(rng.integers(2))
    names = list(s.game.tiles.names)
    used = []
    for p in (0, 1):
        left = [names[t] for t in s.remaining_tiles(p)]
        rng.shuffle(left)
        used.append([names[t] for t in range(len(names)) if s.used[p, t]] + left[tiles:])
    out = OrionState.from_board(s.setup, colours, used, int(rng.integers(2)), s.game)
    return None if out.is_terminal() else out


def contested_position(seed: int, free: int = 11, tiles: int = 3) -> tuple[OrionState, int] | None:
    """A random small position where a player's chain is close and an early end is likely.

    The positions the analysis finds hardest (the third rule of a plan,
    :mod:`.plans`): on a random OD-1 layout, player P (drawn) owns a random
    path joining a random opposite pair but for three to five gap hexes; the
    tokens get P's colour more often than not, so P's chain may give the
    opponent W3 (3 black holes under P's colour) or P itself W2 before it
    joins the sides; every other hex is coloured at random (P's colour with odds 0.35) until ``free``
    hexes stay free. P keeps ``tiles`` random tiles, the opponent 1 to 3.
    Such positions need not be reachable in play.

    Returns
    -------
    (OrionState, int) or None
        The position and P; None when the draw is already over (OD-5).
    """
    import numpy as np

    from .graphs import node_weighted_path
    from .setup import random_setup

    rng = np.random.default_rng(seed)
    setup = random_setup(int(rng.integers(2 ** 31)))
    s = OrionState(setup)
    game, board = s.game, s.game.board
    p = int(rng.integers(2))
    a, b = game.side_pairs[int(rng.integers(len(game.side_pairs)))]
    # A random chain: the cheapest path under random hex costs (tokens cheaper).
    cost = np.where(s.token[:-1], 1, rng.integers(2, 6, size=game.n)).tolist()
    path = node_weighted_path(game.adjacency, cost, sorted(a), sorted(b))
    colour = dict.fromkeys(path, p)
    for h in range(game.n):
        if s.token[h] and h not in colour:
            colour[h] = p if rng.random() < 0.6 else 1 - p
    open_ = [h for h in path if not s.token[h]]
    gaps = {int(h) for h in rng.choice(open_, size=min(len(open_), int(rng.integers(3, 6))), replace=False)}
    rest = [h for h in range(game.n) if h not in colour and h not in gaps]
    rng.shuffle(rest)
    keep = set(rest[:max(0, free - len(gaps))]) | gaps
    for h in range(game.n):
        if h in keep:
            colour.pop(h, None)
        elif h not in colour:
            colour[h] = p if rng.random() < 0.35 else 1 - p
    names = list(game.tiles.names)
    order = [names[i] for i in rng.permutation(len(names))]
    held = (order[:tiles], order[tiles:tiles + int(rng.integers(1, 4))])
    if p == 1:
        held = held[::-1]
    used = [[t for t in names if t not in held[q]] for q in (0, 1)]
    out = OrionState.from_board(setup, {board.hexes[h]: c for h, c in colour.items()}, used,
                                int(rng.integers(2)), game)
    return None if out.is_terminal() else (out, p)
