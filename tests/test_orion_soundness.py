"""Soundness of the Orion Duel analysis when the game can end early (OD-5).

A plan (``ubongo_cp.games.orion.plans``) must not end the game before its
last tile. A set of tiles that fails only for that reason can become a plan
when a tile is added (the added tile balances the conditions), so the
refinement loop of ``reach.py`` may forbid exactly that set, never its
supersets. The position below is one where a smaller set fails this way;
the randomized test builds many like it (a few free hexes, both players'
conditions one tile away, an early end possible) and compares every
question with the brute force of ``brute.py`` (plain enumeration through
the engine).
"""

import numpy as np
import pytest

from ubongo_cp.games.orion import OrionState, Setup
from ubongo_cp.games.orion.blocking import min_blocking_set
from ubongo_cp.games.orion.brute import (all_plan_sets, brute_blocking, brute_distance, brute_safety,
                                         contested_position)
from ubongo_cp.games.orion.distance import connect_distance, connect_within
from ubongo_cp.games.orion.hexgrid import transform
from ubongo_cp.games.orion.plans import order_plan, solo, verify_plan
from ubongo_cp.games.orion.safety import is_safe_connection
from ubongo_cp.games.orion.state import OrionGame

GALAXIES = ((1, -1), (-2, 2), (-3, -2), (-5, 2), (-2, 5), (4, 0), (1, 2), (2, -4))
BLACK_HOLES = ((-4, 0), (0, 1), (0, -2), (5, -2), (4, -5), (-5, 4), (1, -5))
P0 = [(-5, 1), (-5, 2), (-4, 0), (-4, 1), (-3, -2), (-3, -1), (-3, 0), (-2, 2), (-1, 0), (-1, 1), (0, -2),
      (0, -1), (0, 0), (0, 1), (1, 0), (4, 0), (4, 1), (5, -2), (5, -1)]
P1 = [(-5, 3), (-4, -1), (-4, 2), (-3, 1), (-3, 2), (-3, 3), (-2, -3), (-2, -2), (-2, -1), (-2, 1), (-2, 3),
      (-1, -2), (-1, -1), (-1, 2), (0, -3), (0, 2), (1, -3), (1, 1), (2, -3), (2, -2), (2, -1), (2, 1),
      (3, -1), (3, 1), (3, 2), (4, -2), (4, -1), (5, -3)]
#: The hexes of the only 3-tile plan: D1a on (1, -1)/(1, -2), S1 on (-2, 0), D2 on (2, 0)/(3, 0).
PLAN = [(1, -1), (1, -2), (-2, 0), (2, 0), (3, 0)]


def counter_position(rot=0, flip=False, swap=False, free=None, seed=0):
    """The position of the audit (player 0 to move, holding S1, D2, D1a; player 1 I3a).

    ``rot``/``flip`` map it by a symmetry of the board (sides to sides, pairs to
    pairs), ``swap`` exchanges the players; ``free`` colours random hexes off the
    plan until that many stay free. Returns ``(state, player)`` or None when the
    random colouring ended the game.
    """
    game = OrionGame.get()
    f = lambda h: transform(h, rot, flip)     # noqa: E731
    p = 1 if swap else 0
    cols = {f(h): p for h in P0}
    cols.update({f(h): 1 - p for h in P1})
    setup = Setup(tuple(f(h) for h in GALAXIES), tuple(f(h) for h in BLACK_HOLES))
    names = list(game.tiles.names)
    held = [["S1", "D2", "D1a"], ["I3a"]]
    if free is not None:
        rng = np.random.default_rng(seed)
        keep = {f(h) for h in PLAN}
        open_ = [h for h in game.board.hexes if h not in cols and h not in keep]
        rng.shuffle(open_)
        for h in open_[:max(0, len(open_) - (free - len(keep)))]:
            cols[h] = int(rng.integers(2))
        extra = [t for t in names if t not in held[0] + held[1]]
        rng.shuffle(extra)
        held[0].append(extra[0])
    if swap:
        held = held[::-1]
    used = [[t for t in names if t not in held[q]] for q in (0, 1)]
    s = OrionState.from_board(setup, cols, used, p, game)
    return None if s.is_terminal() else (s, p)


def test_the_counter_position_reaches_w1_with_three_tiles():
    s, p = counter_position()
    idx, pid = s.game.board.index, s.game.placement_id
    names = s.game.tiles.names
    d1a = pid(names["D1a"], [(idx[(1, -1)], True), (idx[(1, -2)], False)])
    s1 = pid(names["S1"], [(idx[(-2, 0)], True)])
    d2 = pid(names["D2"], [(idx[(2, 0)], True), (idx[(3, 0)], True)])
    # The plan, played through the engine: W1 and W2 after the third tile (and the
    # opponent's W3 after the second, balanced by player 0's W2: the game goes on).
    play = solo(s, 0)
    play.place(d1a, 0)
    play.place(s1, 0)
    assert play.conditions() == ({"W2"}, {"W3"}) and not play.is_terminal()
    play.place(d2, 0)
    assert play.conditions()[0] == {"W1", "W2"}
    # S1 and D2 alone end the game after the first of them (the opponent's W3).
    assert order_plan(s, 0, [s1, d2]) is None and order_plan(s, 0, [s1, d2], game_end=False) is not None
    # No plan of two tiles: the brute force enumerates every pair of placements.
    assert all_plan_sets(s, 0, max_tiles=2) == {}
    r = connect_distance(s, 0, "sides")
    assert (r.status, r.tiles) == ("optimal", 3) and verify_plan(s, 0, r.plan)
    assert connect_within(s, 0, 2)[0] == "infeasible" and connect_within(s, 0, 3)[0] == "feasible"
    # Blocking: a plan exists, so at least one hex; one hex (certified optimal) stops it.
    b = min_blocking_set(s, 0, "sides")
    assert b.status == "optimal" and len(b.hexes) == 1 == b.lower_bound
    assert connect_distance(s, 0, "sides").plan  # unchanged by the question
    safe = is_safe_connection(s, 0, "sides")
    assert safe.safe is True and safe.status == "safe" and verify_plan(s, 0, safe.plan)


def check_every_question(s, p, goal):
    """connect_distance, connect_within (every k), min_blocking_set and is_safe_connection vs brute force."""
    bd = brute_distance(s, p, goal)
    cd = connect_distance(s, p, goal, time_limit=60)
    assert cd.status in ("optimal", "already", "unreachable")
    assert (None if cd.status == "unreachable" else cd.tiles) == bd
    if cd.plan:
        assert verify_plan(s, p, cd.plan, goal) and len(cd.plan) == cd.tiles
    if bd != 0:
        for k in range(len(s.remaining_tiles(p)) + 1):
            status, plan = connect_within(s, p, k, goal, time_limit=60)
            assert status == ("feasible" if bd is not None and k >= bd else "infeasible"), (k, bd)
            assert status != "feasible" or verify_plan(s, p, plan, goal)
    mb = min_blocking_set(s, p, goal, time_limit=60)
    assert mb.status in ("optimal", "already")
    assert (None if mb.hexes is None else len(mb.hexes)) == brute_blocking(s, p, goal)
    safe, refuting = brute_safety(s, p, goal)
    sf = is_safe_connection(s, p, goal, time_limit=60)
    assert sf.safe == safe
    assert sf.refutation is None if sf.status != "refuted" else sf.refutation in refuting
    return bd


@pytest.mark.slow
def test_variants_of_the_counter_position_agree_with_brute_force():
    # The counter-position under the 12 symmetries of the board and with the players
    # exchanged, most free hexes coloured at random (12 stay free: the plan's 5 and 7
    # more), player 0 holding a random fourth tile.
    done, lengths = 0, set()
    for seed in range(40):
        rng = np.random.default_rng(seed)
        built = counter_position(int(rng.integers(6)), bool(rng.integers(2)), bool(rng.integers(2)),
                                 free=12, seed=seed)
        if built is None:
            continue
        s, p = built
        lengths.add(check_every_question(s, p, "sides"))
        done += 1
        if done == 12:
            break
    assert done == 12 and 3 in lengths


@pytest.mark.slow
def test_contested_positions_agree_with_brute_force():
    # Random positions with a chain of one player close, tokens under its colour (an
    # early end by W3 or W2 likely), few free hexes and few tiles; both goals.
    seen = set()
    done = 0
    for seed in range(400):
        built = contested_position(seed, free=10, tiles=3)
        if built is None:
            continue
        s, p = built
        for goal in ("sides", "galaxies"):
            seen.add((goal, check_every_question(s, p, goal)))
        done += 1
        if done == 20:
            break
    assert done == 20
    assert {d for g, d in seen if g == "sides"} >= {None, 1, 2}
