"""The four games under OpenSpiel (``ubongo_cp.games.openspiel``; the ``openspiel`` extra).

OpenSpiel's own random simulation test, its MCTS bot and its bot evaluator
run on the registered games unchanged; the registered facts are the
engines'; an OpenSpiel playout is the engine's game move for move. Skipped
when the extra is not installed (``make test`` installs it).
"""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from ubongo_cp.games.openspiel import GAMES, engine_state, load_game, wrap_state  # noqa: E402
from ubongo_cp.games.orion import OrionState  # noqa: E402
from ubongo_cp.games.orion.pie import swap_action  # noqa: E402

CASES = [(name, {}) for name in GAMES] + [
    ("ubongo_cp_orion_duel", {"pie": True, "layout_seed": 3}),
    ("ubongo_cp_orion_duel", {"tiles": "seed", "layout_seed": 5}),
    ("ubongo_cp_gem_game", {"players": 4, "side": "hard", "seed": 2}),
    ("ubongo_cp_duel", {"handicap": True, "seed": 1}),
    ("ubongo_cp_duel", {"handicap": True, "orange_fields": "1,2,3,4", "seed": 2}),
    ("ubongo_cp_domino", {"players": 2, "seed": 3}),
]


@pytest.mark.parametrize("name, params", CASES, ids=[f"{n}-{sorted(p.items())}" for n, p in CASES])
def test_openspiel_random_simulation_test(name, params):
    game = load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize("name, params", CASES, ids=[f"{n}-{sorted(p.items())}" for n, p in CASES])
def test_registered_facts_are_the_engines(name, params):
    game = load_game(name, params)
    engine = engine_state(game.new_initial_state())
    facts = type(engine).facts
    assert game.num_players() == engine.num_players
    assert game.max_game_length() == engine.max_game_length()
    assert (game.min_utility(), game.max_utility()) == (0.0, 1.0)
    chance = game.get_type().chance_mode
    assert (chance == pyspiel.GameType.ChanceMode.DETERMINISTIC) == (not facts.chance_nodes
                                                                       and not facts.sampled_chance)
    if name == "ubongo_cp_orion_duel":
        assert game.num_distinct_actions() == len(engine.game.placements) + bool(params.get("pie"))
        assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM and game.utility_sum() == 1.0


def test_the_duel_takes_its_orange_fields_as_a_parameter():
    # UD-7 makes the orange fields configurable; the OpenSpiel game had no parameter for them (always 3 and 4).
    from ubongo_cp.errors import InputError

    assert load_game("ubongo_cp_duel").get_type().parameter_specification["orange_fields"] == "3,4"
    for text, fields in (("3,4", {3, 4}), ("1, 2", {1, 2}), ("", set())):
        game = load_game("ubongo_cp_duel", {"handicap": True, "orange_fields": text})
        assert engine_state(game.new_initial_state()).orange_fields == fields
        assert game.get_parameters()["orange_fields"] == text
    with pytest.raises(InputError, match=r"^orange_fields '3;4' must be scores separated by commas, e.g. '3,4' "
                                         r"\(UD-7\)$"):
        load_game("ubongo_cp_duel", {"orange_fields": "3;4"})
    with pytest.raises(InputError, match=r"^orange fields \[5\] must lie in 1..4 \(UD-7\)$"):
        load_game("ubongo_cp_duel", {"orange_fields": "5"})


def test_a_bad_layout_seed_is_named_as_the_parameter_it_is():
    # The engine's own error said 'seed must be ...', a name the OpenSpiel game's parameters do not have.
    from ubongo_cp.errors import InputError

    with pytest.raises(InputError, match=r"^layout_seed must be a whole number >= 0 .*got -5$"):
        load_game("ubongo_cp_orion_duel", {"layout_seed": -5})
    assert load_game("ubongo_cp_orion_duel", {"layout_seed": 7}).get_parameters()["layout_seed"] == 7


def test_an_openspiel_game_is_the_engine_game():
    # Random play through OpenSpiel's API, then the same actions in the reference engine.
    game = load_game("ubongo_cp_orion_duel", {"layout_seed": 9})
    state, rng = game.new_initial_state(), np.random.default_rng(1)
    while not state.is_terminal():
        assert state.legal_actions() == engine_state(state).legal_actions()
        state.apply_action(int(rng.choice(state.legal_actions())))
    ref = OrionState(seed=9)
    for a in state.history():
        ref.apply_action(a)
    assert ref.is_terminal() and state.returns() == ref.returns()


def test_openspiel_mcts_and_evaluator_run_unchanged():
    from open_spiel.python.algorithms import evaluate_bots, mcts
    from open_spiel.python.bots import uniform_random

    rng = np.random.RandomState(0)
    game = load_game("ubongo_cp_orion_duel", {"layout_seed": 2, "pie": True})
    bot = mcts.MCTSBot(game, 1.4, 20, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    state.apply_action(bot.step(state))
    action = bot.step(state)  # the swap turn: a placement or the swap
    assert action in state.legal_actions() and swap_action(engine_state(state).inner) in state.legal_actions()
    for name, params in CASES:
        game = load_game(name, params)
        bots = [uniform_random.UniformRandomBot(p, rng) for p in range(game.num_players())]
        returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
        assert len(returns) == game.num_players() and all(0.0 <= r <= 1.0 for r in returns)
        if game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM:
            assert sum(returns) == pytest.approx(1.0)


def test_unknown_game_is_refused():
    from ubongo_cp.errors import InputError

    with pytest.raises(InputError, match="unknown game 'chess'"):
        load_game("chess")


def test_the_domino_game_is_registered_with_its_hidden_hands():
    # DN-1: each player draws into a hidden hand. It was registered as perfect information, so OpenSpiel's
    # algorithms were told every hand; its observation strings now show a player its own hand alone.
    import re

    for name in GAMES:
        expected = (pyspiel.GameType.Information.IMPERFECT_INFORMATION if name == "ubongo_cp_domino"
                    else pyspiel.GameType.Information.PERFECT_INFORMATION)
        assert load_game(name).get_type().information == expected
    game = load_game("ubongo_cp_domino", {"players": 3, "seed": 5})
    state = game.new_initial_state()
    engine = engine_state(state)
    for p in range(3):
        seen = state.observation_string(p)
        assert seen == engine.observation_string(p)
        hands = dict(re.findall(r"^player (\d): .*hand (.*)$", seen, re.M))
        own = hands.pop(str(p)).split()
        assert len(own) == 3 and "?" not in own     # its three dominoes (DN-1), by their symbols
        assert all(h.split() == ["?"] * 3 for h in hands.values()), seen


def test_a_players_view_is_its_observation_and_no_information_state_is_made_up():
    # OpenSpiel asks an observer for both. The domino game answered an information state (perfect recall: the
    # view with the player's past) with the view alone, so two positions of different pasts were one
    # information state; the other games raised "'OrionState' object has no attribute 'observation_string'".
    from ubongo_cp.errors import InputError

    domino = load_game("ubongo_cp_domino", {"players": 2, "seed": 3}).new_initial_state()
    with pytest.raises(InputError, match=r"gives each player's observation \(observation_string\), not an "
                                         r"information state"):
        domino.information_state_string(0)
    for name in GAMES:
        state = load_game(name).new_initial_state()
        engine = engine_state(state)
        for p in range(state.num_players()):
            # every player sees the whole position of a game without hidden information
            assert state.observation_string(p) == (engine.observation_string(p) if name == "ubongo_cp_domino"
                                                   else str(engine))
        with pytest.raises(InputError, match="not an information state"):
            state.information_state_string(0)


@pytest.mark.parametrize("name, params", CASES, ids=[f"{n}-{sorted(p.items())}" for n, p in CASES])
def test_games_and_states_pickle_as_openspiels_own_python_games_do(name, params):
    # multiprocessing hands games and states to workers by pickle. Once "Can't pickle local object
    # 'register.<locals>.State'" (Orion Duel) and "GetRNGState unimplemented" (the games whose transitions
    # draw from the state's generator); pyspiel.load_game("python_tic_tac_toe") pickles.
    import pickle
    import subprocess
    import sys

    game = load_game(name, params)
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    for _ in range(6):
        if state.is_terminal():
            break
        legal = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    again = pickle.loads(pickle.dumps(state))
    assert (str(again), again.history()) == (str(state), state.history())
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    # A fresh process, which has registered nothing yet, reads them too.
    code = ("import pickle, sys\n"
            "game, state = pickle.loads(sys.stdin.buffer.read())\n"
            "print(state.history(), str(game))\n")
    done = subprocess.run([sys.executable, "-c", code], input=pickle.dumps((game, state)), capture_output=True,
                          check=True)
    assert done.stdout.decode().strip() == f"{state.history()} {game}"
    # A state made around a position reached outside OpenSpiel (wrap_state) keeps that position.
    wrapped = wrap_state(game, engine_state(state).clone())
    assert str(pickle.loads(pickle.dumps(wrapped))) == str(state)
