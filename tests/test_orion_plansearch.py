"""The solver-free parts of the Orion blocking search against brute force.

``plansearch.search_plan`` (a plan along cheapest chains, found on bitmasks)
must return only real plans: each is checked on the reference engine
(``verify_plan``), must avoid the blocked hexes, and must not exist where the
brute force (``brute.all_plan_sets``, plain enumeration through the engine)
finds no plan. ``plansearch.complete_plan`` (complete) must answer every
question it answers as the brute force does. ``blocking._exact_hitting_set`` must return a minimum hitting
set, checked against enumeration of every smaller set.
"""

import itertools
import random

from ubongo_cp.games.base import RandomAgent
from ubongo_cp.games.orion import OrionState
from ubongo_cp.games.orion.blocking import _exact_hitting_set
from ubongo_cp.games.orion.brute import all_plan_sets, contested_position, small_position
from ubongo_cp.games.orion.plans import plan_hexes, reference_analysis, verify_plan
from ubongo_cp.games.orion.plansearch import complete_plan, search_plan


def brute_minimum(sets, n):
    return next(r for r in range(n + 1) for c in itertools.combinations(range(n), r)
                if all(any(m >> e & 1 for e in c) for m in sets))


def test_exact_hitting_set_is_minimum_on_random_families():
    rng = random.Random(7)
    sizes = set()
    for _ in range(400):
        n = rng.randint(3, 11)
        sets = [sum(1 << e for e in rng.sample(range(n), rng.randint(1, min(5, n))))
                for _ in range(rng.randint(1, 9))]
        got = _exact_hitting_set(sets)
        assert all(m & got for m in sets)
        assert got.bit_count() == brute_minimum(sets, n)
        sizes.add(got.bit_count())
    assert _exact_hitting_set([]) == 0
    assert {1, 2, 3, 4} <= sizes
    # past the node limit the question is left to the caller (None), never answered wrongly
    assert _exact_hitting_set([0b011, 0b110, 0b101], limit=1) is None   # a triangle: 2, bound 1


def test_search_plan_returns_only_plans_the_brute_force_confirms():
    found = absent = 0
    rng = random.Random(3)
    for seed in range(1, 40):
        s = small_position(seed, 13, 3)
        if s is None:
            continue
        for p in (0, 1):
            sets = all_plan_sets(s, p, "sides")
            if frozenset() in sets:
                continue   # fulfilled now
            free = [h for h in range(s.game.n) if s.colour[h] < 0]
            for blocked in ((), tuple(rng.sample(free, 2))):
                plan = search_plan(s, p, "sides", blocked=blocked)
                # a plan avoiding the blocked hexes exists iff some plan set misses them
                exists = any(not cells & set(blocked) for cells in sets)
                if plan is None:
                    absent += 1
                    continue
                assert exists and verify_plan(s, p, plan, "sides")
                assert not plan_hexes(s, plan) & set(blocked)
                found += 1
    assert found >= 10 and absent >= 5


def test_search_plan_on_played_positions_gives_verified_plans():
    found = 0
    for seed in range(6):
        s = OrionState(seed=seed)
        agents = [RandomAgent(seed), RandomAgent(seed + 1)]
        while not s.is_terminal() and len(s.history) < 14:
            s.apply_action(agents[s.current_player()](s))
        if s.is_terminal():
            continue
        for p in (0, 1):
            plan = search_plan(s, p, "sides", node_limit=400)
            if plan is not None:
                with reference_analysis():
                    assert verify_plan(s, p, plan, "sides")
                found += 1
    assert found >= 4


def _complete_plan_cases():
    for seed in range(1, 13):
        s = small_position(seed, 13, 3 + seed % 2)
        if s is not None:
            yield s, (0, 1)
    for seed in range(1, 30):
        got = contested_position(seed, 11, 3)
        if got is not None:
            yield got[0], (got[1],)


def test_complete_plan_answers_as_the_brute_force():
    # Every k from 1 to the tiles left, with and without blocked hexes: "feasible" iff some
    # plan set of at most k tiles misses the blocked hexes (brute force through the engine);
    # each plan is verified on the reference engine. None (left to the model) must stay rare.
    rng = random.Random(5)
    answered = {"feasible": 0, "infeasible": 0}
    undecided = 0
    for s, players in _complete_plan_cases():
        for p in players:
            sets = all_plan_sets(s, p, "sides")
            if frozenset() in sets:
                continue
            free = [h for h in range(s.game.n) if s.colour[h] < 0]
            for blocked in ((), tuple(rng.sample(free, 1)), tuple(rng.sample(free, 2))):
                for k in range(1, len(s.remaining_tiles(p)) + 1):
                    got = complete_plan(s, p, "sides", None, blocked, k)
                    if got is None:
                        undecided += 1
                        continue
                    want = any(n <= k and not cells & set(blocked) for cells, n in sets.items())
                    assert (got[0] == "feasible") == want, (p, blocked, k)
                    if want:
                        plan = got[1]
                        assert len(plan) <= k and not plan_hexes(s, plan) & set(blocked)
                        with reference_analysis():
                            assert verify_plan(s, p, plan, "sides")
                    answered[got[0]] += 1
    assert answered["feasible"] >= 20 and answered["infeasible"] >= 20
    assert undecided <= (answered["feasible"] + answered["infeasible"]) // 10
