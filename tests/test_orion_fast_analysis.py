"""The analysis questions' bitmask paths against their reference paths (the engine of ``state.py`` only).

The default paths (plans ordered on bitmasks, one-tile questions by
enumeration, any-plan questions for blocking and safety, the greedy agent's
scores on bitmasks) must give the answers of the reference paths
(``reference_analysis()``): the same distances, blocking-set sizes and
safety verdicts on positions built to end early (OD-5), on small random
positions and on positions of played games; the same plan orders; the same
greedy scores. The brute-force comparisons of ``test_orion_soundness.py``
and ``test_orion_exact.py`` run on the default paths.
"""

import itertools

import numpy as np
import pytest

from ubongo_cp.games.base import RandomAgent
from ubongo_cp.games.orion import OrionState
from ubongo_cp.games.orion.agents import GreedyAgent, greedy_scores
from ubongo_cp.games.orion.bitboard import BitOrionState
from ubongo_cp.games.orion.blocking import min_blocking_set
from ubongo_cp.games.orion.brute import contested_position, small_position
from ubongo_cp.games.orion.distance import connect_distance
from ubongo_cp.games.orion.plans import order_plan, put_fast, reference_analysis, solo
from ubongo_cp.games.orion.safety import is_safe_connection


def answers(s, p, goal):
    d = connect_distance(s, p, goal, time_limit=60)
    b = min_blocking_set(s, p, goal, time_limit=60)
    out = [(d.status, d.tiles), (b.status, None if b.hexes is None else len(b.hexes))]
    if goal == "sides":
        f = is_safe_connection(s, p, goal, time_limit=60)
        out.append((f.status, f.safe))
    return out


def both(s, p, goal):
    fast = answers(s, p, goal)
    with reference_analysis():
        ref = answers(s, p, goal)
    assert fast == ref, (p, goal)
    return fast


def played(seed, moves):
    """A position after ``moves`` random moves (None if the game ended)."""
    s = OrionState(seed=seed)
    agents = [RandomAgent(seed), RandomAgent(seed + 1)]
    while not s.is_terminal() and len(s.history) < moves:
        s.apply_action(agents[s.current_player()](s))
    return None if s.is_terminal() else s


def test_questions_agree_on_positions_that_can_end_early():
    done = 0
    for seed in range(200):
        built = contested_position(seed)
        if built is None:
            continue
        s, p = built
        both(s, p, "sides")
        done += 1
        if done == 4:
            break
    assert done == 4


def test_questions_agree_on_small_and_played_positions():
    seen = set()
    for seed in range(16):
        s = small_position(seed, 12, 3)
        if s is not None:
            for p in (0, 1):
                for goal in ("sides", "galaxies"):
                    seen.add(both(s, p, goal)[0][0])
    for seed, moves in ((1, 18), (2, 22), (3, 16)):
        s = played(seed, moves)
        if s is not None:
            for p in (0, 1):
                seen.add(both(s, p, "sides")[0][0])
    assert {"optimal", "unreachable"} <= seen     # both kinds of answer were compared


def test_plan_orders_agree_with_the_reference_engine():
    # Every subset (up to 3) of a few legal placements, with and without rule 2 (OD-5).
    rng = np.random.default_rng(5)
    compared = found = 0
    for seed in range(8):
        s = played(seed, 14 + seed)
        if s is None:
            continue
        for p in (0, 1):
            legal = solo(s, p).legal_actions(p)
            pick = [legal[i] for i in rng.choice(len(legal), min(6, len(legal)), replace=False)]
            for k in (1, 2, 3):
                for plan in itertools.combinations(pick, k):
                    for goal, game_end in (("sides", True), ("galaxies", True), ("sides", False)):
                        fast = order_plan(s, p, plan, goal, game_end=game_end)
                        with reference_analysis():
                            ref = order_plan(s, p, plan, goal, game_end=game_end)
                        assert fast == ref, (seed, p, plan, goal, game_end)
                        compared += 1
                        found += fast is not None
    assert compared > 500 and found < compared


def test_fast_move_and_greedy_scores_agree_with_the_reference():
    agent = GreedyAgent(0)
    for seed in range(6):
        s = played(seed, 10 + 2 * seed)
        if s is None:
            continue
        actions = s.legal_actions()
        assert np.array_equal(greedy_scores(s, actions), agent.scores_reference(s, actions))
        assert np.array_equal(greedy_scores(BitOrionState.from_reference(s), actions),
                              agent.scores_reference(s, actions))
        for a in actions[:: max(1, len(actions) // 15)]:
            ref, fast = solo(s, s.current_player()), solo(s, s.current_player())
            ref._put(s.current_player(), a)
            put_fast(fast, s.current_player(), a)
            assert (ref.colour == fast.colour).all() and ref.conditions() == fast.conditions()
            assert (ref.winner, ref.end_rule, ref.history) == (fast.winner, fast.end_rule, fast.history)


def test_graph_bounds_agree_with_the_reference():
    from ubongo_cp.games.orion.reach import ReachModel

    for seed in (4, 9, 12):
        s = played(seed, 18)
        if s is None:
            continue
        for p in (0, 1):
            for blocked in ((), range(0, s.game.n, 9), range(3, s.game.n, 5)):
                fast = ReachModel(s, p, blocked=blocked)
                with reference_analysis():
                    ref = ReachModel(s, p, blocked=blocked)
                assert (fast.pairs, fast.lb_hexes, fast.lb_tiles) == (ref.pairs, ref.lb_hexes, ref.lb_tiles)


def test_unjoined_groups_agree_with_the_reference():
    from ubongo_cp.games.orion.reach import ReachModel

    compared = 0
    for seed in (4, 9):
        s = played(seed, 16)
        if s is None:
            continue
        for p in (0, 1):
            m = ReachModel(s, p, blocked=range(0, s.game.n, 7))
            for t in np.flatnonzero(s.pl_token).tolist():
                if all(m.cost[c] == 1 for c in s.game.placements[t].cells):   # the model's candidates
                    fast = m._unjoined(t)
                    with reference_analysis():
                        assert fast == m._unjoined(t)
                    compared += 1
    assert compared > 100


@pytest.mark.parametrize("seed", [3])
def test_distance_example_unchanged(seed):
    r = connect_distance(OrionState(seed=seed), 0)
    assert (r.status, r.tiles) == ("optimal", 6)
