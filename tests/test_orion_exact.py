"""Exactness of the Orion Duel analysis under the full rules (issue 15).

connect_distance, min_blocking_set and is_safe_connection against the
brute force of ubongo_cp.games.orion.brute (plain enumeration of tile
placements through the engine, nothing shared with the CP-SAT models): on
random small positions (100 % agreement required), on the constructed
positions of the audit, and on the positions of a real greedy game.
"""

import pytest

from ubongo_cp.games.orion.agents import make_agent
from ubongo_cp.games.orion.blocking import min_blocking_set
from ubongo_cp.games.orion.safety import is_safe_connection
from ubongo_cp.games.orion.brute import (all_plan_sets, brute_blocking, brute_distance,
                                         brute_safety, small_position)
from ubongo_cp.games.orion.distance import connect_distance, connect_within
from ubongo_cp.games.orion.plans import order_plan, solo, verify_plan
from ubongo_cp.games.orion.setup import Setup, SetupRules, random_setup
from ubongo_cp.games.orion.state import OrionGame, OrionState
from ubongo_cp.games.orion.tiles import load_tiles


def small_positions(count, free, tiles, seed0, goal_positions=None):
    out, seed = [], seed0
    while len(out) < count:
        seed += 1
        s = small_position(seed, free, tiles)
        if s is not None:
            out.append((seed, s))
    return out


def check_against_brute(s, player, goal):
    """Every answer of the three exact questions equals the brute force's; returns the answers."""
    bd = brute_distance(s, player, goal)
    bb = brute_blocking(s, player, goal)
    bs, refuting = brute_safety(s, player, goal)
    cd = connect_distance(s, player, goal, time_limit=60)
    mb = min_blocking_set(s, player, goal, time_limit=60)
    sf = is_safe_connection(s, player, goal, time_limit=60)
    assert cd.status in ("optimal", "already", "unreachable")
    assert (cd.tiles if cd.status != "unreachable" else None) == bd
    if cd.plan:
        assert verify_plan(s, player, cd.plan, goal) and len(cd.plan) == cd.tiles
    assert mb.status in ("optimal", "already")
    assert (None if mb.hexes is None else len(mb.hexes)) == bb
    assert sf.safe == bs
    if sf.status == "refuted":
        assert sf.refutation in refuting
    else:
        assert sf.refutation is None
    return bd, bb, bs


@pytest.mark.slow
def test_random_small_positions_agree_with_brute_force():
    seen = set()
    positions = small_positions(38, 10, 3, 0) + small_positions(12, 12, 2, 5000)
    for _seed, s in positions:
        for player in (0, 1):
            seen.add(check_against_brute(s, player, "sides"))
    assert len(positions) >= 50
    # the sample is not trivial: reachable and unreachable, blocking sets of several
    # sizes, safe and unsafe connections
    assert {d is None for d, _, _ in seen} == {True, False}
    assert {b for _, b, _ in seen} >= {0, 1, 2, None}
    assert {safe for _, _, safe in seen} == {True, False}


@pytest.mark.slow
def test_random_small_positions_agree_with_brute_force_w2():
    for _seed, s in small_positions(10, 10, 3, 9000):
        for player in (0, 1):
            check_against_brute(s, player, "galaxies")


def test_seed_tile_set_positions_agree_with_brute_force():
    game = OrionGame.get(tiles=load_tiles("seed"))
    done = 0
    for seed in range(1, 200):
        base = small_position(seed, 11, 2)
        if base is None:
            continue
        colours = {base.game.board.hexes[h]: int(c) for h, c in enumerate(base.colour[:-1]) if c >= 0}
        names = list(game.tiles.names)
        used = (names[3:], names[:1] + names[4:])
        s = OrionState.from_board(base.setup, colours, used, 0, game)
        if s.is_terminal():   # over already: OD-5, or OD-6 (player 0 cannot place a tile)
            continue
        for player in (0, 1):
            check_against_brute(s, player, "sides")
        done += 1
        if done == 6:
            break
    assert done == 6


# --- constructed positions ------------------------------------------------------

N_TO_S = [(1, -5), (1, -4), (1, -3), (1, -2), (1, -1), (1, 0), (1, 1), (1, 2), (1, 3), (0, 4), (-1, 5)]


def filled(free, keep0, keep1=("S1",), extra0=(), holes=()):
    """Colour 0 on the N-S line (and ``extra0``), colour 1 on every other hex but ``free``.

    Colour 1 then holds two regions (left and right of the line) touching no opposite
    pair of sides; player 0 keeps the tiles ``keep0``, player 1 ``keep1``.
    """
    game = OrionGame.get(rules=SetupRules(0, len(holes)))
    cols = {h: 0 if h in N_TO_S or h in extra0 else 1 for h in game.board.hexes if h not in free}
    names = list(game.tiles.names)
    used = ([t for t in names if t not in keep0], [t for t in names if t not in keep1])
    s = OrionState.from_board(Setup((), tuple(holes), 0), cols, used, 0, game)
    assert not s.is_terminal()
    return s


def test_s1_and_d1_can_never_fill_a_walled_two_hex_gap():
    # The audit's first case: player 0 holds S1 and D1 only; the gap of two hexes has no
    # other free neighbour, so D1 can put its single own hex there only with its
    # opponent hex on the other gap hex. True blocking set: 0 hexes; not safe.
    s = filled([(1, -1), (1, 0)], keep0=("S1", "D1a"))
    assert brute_distance(s, 0) is None and brute_blocking(s, 0) == 0
    assert connect_distance(s, 0).status == "unreachable"
    b = min_blocking_set(s, 0)
    assert b.hexes == [] and b.status == "optimal"
    safe = is_safe_connection(s, 0)
    assert safe.safe is False and safe.status == "unreachable"
    # relaxations (here: any free hex claimable) ask for more
    assert len(min_blocking_set(s, 0, relaxed=True).hexes) == 1


def test_opponent_hex_on_a_token_joined_by_the_players_own_earlier_tile():
    # The audit's third case: the only plan puts D1's opponent hex on the black hole (2, 0),
    # legal (OD-3) only after the player's first D1 laid the opponent's colour on (2, -1).
    s = filled([(1, -1), (1, 0), (2, -1), (2, 0)], keep0=("D1a", "D1b"), keep1=(),
               extra0=[(3, 0), (3, -1), (2, 1)], holes=[(2, 0)])
    r = connect_distance(s, 0)
    assert r.status == "optimal" and r.tiles == 2 == brute_distance(s, 0)
    assert connect_within(s, 0, 1)[0] == "infeasible" and connect_within(s, 0, 2)[0] == "feasible"
    assert verify_plan(s, 0, r.plan)
    hole = s.game.board.index[(2, 0)]
    first, second = r.plan
    assert hole in s.game.placements[second].cells                 # the cover comes second
    assert order_plan(s, 0, [second]) is None                      # ... and needs the first
    play = s.clone()                       # player 1 has no tile left: player 0 moves twice
    play.apply_action(first)
    play.apply_action(second)
    assert play.is_terminal() and play.winner == 0 and "W1" in play.conditions()[0]
    assert brute_blocking(s, 0) == len(min_blocking_set(s, 0).hexes) == 1


def ignoring_game_end(state, player):
    """Fewest tiles to W1 if the game did not end early (brute force), and such a plan."""
    frontier = [(solo(state, player), ())]
    for depth in range(1, len(state.remaining_tiles(player)) + 1):
        nxt = []
        for s, done in frontier:
            for a in s.legal_actions(player):
                t = s.clone()
                t.place(a, player)
                if "W1" in t.conditions()[player]:
                    return depth, [*done, a]
                t.winner = t.end_rule = None
                nxt.append((t, (*done, a)))
        frontier = nxt
    return None, []


def test_plans_that_end_the_game_earlier_do_not_count():
    # Found by scanning random small positions: player 1 joins two sides with 2 tiles
    # only through a position where the game is already over (OD-5); such plans are
    # excluded (docs/orion.md), so the distance is "unreachable", as for the brute force.
    s = small_position(454, 10, 3)
    depth, plan = ignoring_game_end(s, 1)
    assert depth == 2
    assert order_plan(s, 1, plan, game_end=False) is not None and order_plan(s, 1, plan) is None
    assert brute_distance(s, 1) is None and all_plan_sets(s, 1) == {}
    assert connect_distance(s, 1).status == "unreachable"
    assert min_blocking_set(s, 1).hexes == []


def test_a_move_that_gives_the_player_its_goal_does_not_refute_safety():
    # Found by the benchmark's brute-force comparison: player 1's D1 lays player 0's
    # colour on (2, -2), which completes player 0's W1 and a chain of player 0's colour
    # over 3 black holes (W3 for player 1): 1 : 1, the game goes on, player 0 connected.
    s = small_position(20075, 13, 4)
    safe, refuting = brute_safety(s, 0)
    assert safe and refuting == []
    r = is_safe_connection(s, 0)
    assert r.safe and r.status == "safe"
    y = s.game.placement_id(s.game.tiles.names["D1b"], [(s.game.board.index[(1, -2)], True),
                                                        (s.game.board.index[(2, -2)], False)])
    after = solo(s, 1)
    after.place(y, 1)
    assert not after.is_terminal() and after.conditions() == ({"W1"}, {"W3"})
    assert connect_distance(after, 0).status == "already"


def test_real_greedy_game_answers_are_consistent():
    # The audit's real-play case: greedy vs greedy from random_setup(8); at every
    # position, for both players, "unreachable" <=> empty blocking set <=> safety says
    # unreachable; a fulfilled W1 <=> no blocking set; every plan replays.
    s = OrionState(random_setup(8, first_player=0))
    agents = [make_agent("greedy", 17), make_agent("greedy", 18)]
    checked = 0
    while not s.is_terminal():
        if len(s.history) >= 16:
            for p in (0, 1):
                d = connect_distance(s, p, time_limit=60)
                b = min_blocking_set(s, p, time_limit=60)
                f = is_safe_connection(s, p, time_limit=60)
                assert d.status != "unknown" and b.status in ("optimal", "already")
                assert (d.status == "unreachable") == (b.hexes == []) == (f.status == "unreachable")
                assert (d.status == "already") == (b.hexes is None)
                if d.plan:
                    assert verify_plan(s, p, d.plan)
                checked += 1
        s.apply_action(agents[s.current_player()](s))
    assert checked >= 4
