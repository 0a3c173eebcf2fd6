"""Orion Duel agents and the tournament statistics."""

import numpy as np
import pandas as pd
import pytest

from ubongo_cp.errors import InputError
from ubongo_cp.games.base import RandomAgent
from ubongo_cp.games.orion.agents import (AnalysisAgent, GreedyAgent, MctsAgent, PieAgent, SatAgent, make_agent,
                                          w1_graph_distance)
from ubongo_cp.games.orion.setup import Setup, SetupRules
from ubongo_cp.games.orion.state import OrionGame, OrionState
from ubongo_cp.games.orion.sim import end_conditions, first_player_advantage, win_rates
from ubongo_cp.games.stats import wilson_interval

GAME = OrionGame.get()
GAL = ((0, 0), (3, 0), (-3, 0), (0, -3), (-3, 3), (3, -3), (1, 3), (-2, 5))
HOLES = ((2, -1), (-2, 1), (1, -5), (4, -5), (-2, -3), (5, -3), (-5, 1))
N_TO_S = [(1, -5), (1, -4), (1, -3), (1, -2), (1, -1), (1, 0), (1, 1), (1, 2), (1, 3), (0, 4), (-1, 5)]


def gap_position():
    """Player 0 to move; its colour joins N and S except (1, 0) (no tokens)."""
    game = OrionGame.get(rules=SetupRules(0, 0))
    return OrionState.from_board(Setup((), (), 0), {h: 0 for h in N_TO_S if h != (1, 0)}, game=game)


def test_w1_graph_distance_hand_case():
    s = gap_position()
    assert w1_graph_distance(s, s.colour, 0) == 1
    # player 1 owns nothing: its cheapest chain is the shortest side-to-side path
    # avoiding colour 0 -- 10 hexes (N-S rows r = -5 .. 4 plus one, or NE-SW / NW-SE)
    from ubongo_cp.games.orion.distance import graph_distance
    assert w1_graph_distance(s, s.colour, 1) == graph_distance(s, 1)
    empty = OrionState(Setup(GAL, HOLES, 0))
    assert w1_graph_distance(empty, empty.colour, 0) == 11   # rows r = -5 .. 5 (N to S)


@pytest.mark.parametrize("agent", [GreedyAgent(0), SatAgent(0, top=3, time_limit=0.3),
                                   AnalysisAgent(0, top=2, time_limit=0.3)])
def test_agents_take_an_immediate_win(agent):
    s = gap_position()
    a = agent(s)
    s.apply_action(a)
    assert s.is_terminal() and s.winner == 0 and s.end_rule == "OD-5"


def test_agents_return_legal_moves_midgame():
    s = OrionState(seed=4)
    r = RandomAgent(4)
    for _ in range(10):
        s.apply_action(r(s))
    for agent in (GreedyAgent(1), SatAgent(1, top=2, time_limit=0.3), AnalysisAgent(1, top=2, time_limit=0.3)):
        assert agent(s) in s.legal_actions()


def test_analysis_agent_blocks_a_one_tile_threat():
    # Player 1 to move; player 0's colour joins N and S but for (1, 0) and it holds only S1:
    # its one plan is S1 on (1, 0), its minimum blocking set [(1, 0)], so the analysis agent
    # covers (1, 0). Each question here is answered in well under a second (generous limits:
    # an answer cut short by the time limit on a loaded machine would change the move).
    game = OrionGame.get(rules=SetupRules(0, 0))
    used = [t for t in game.tiles.names if t != "S1"]
    s = OrionState.from_board(Setup((), (), 1), {h: 0 for h in N_TO_S if h != (1, 0)}, (used, ()), 1, game)
    a = AnalysisAgent(2, top=1, time_limit=10.0)(s)
    assert game.board.index[(1, 0)] in game.placements[a].cells


def test_mcts_and_pie_agents_play_the_pie_variant():
    pytest.importorskip("pyspiel")
    from ubongo_cp.games.orion.pie import PieOrionState, swap_action

    s = PieOrionState(OrionState(seed=5))
    pie = PieAgent(GreedyAgent(3), seed=3)
    s.apply_action(pie(s))
    assert s.swap_turn()
    a = MctsAgent(4, simulations=10)(s)
    assert a in s.legal_actions()
    took = pie(s)
    assert took in s.legal_actions() and (took == swap_action(s.inner)) == (
        w1_graph_distance(s.inner, s.inner.colour, s.first) < w1_graph_distance(s.inner, s.inner.colour, 1 - s.first))


def test_tournament_in_the_pie_variant_records_swaps():
    from ubongo_cp.games.orion.sim import run_tournament

    df = run_tournament(["greedy"], 4, seed=3, pie=True)
    assert len(df) == 8 and df["swapped"].dtype == bool
    assert set(df.groupby("game").points.sum()) == {1.0}


def test_make_agent():
    assert isinstance(make_agent("greedy", 1), GreedyAgent)
    with pytest.raises(InputError, match="unknown agent 'alpha'"):
        make_agent("alpha")


def test_self_play_rows_have_no_interval():
    rows = []
    for g in range(6):
        for seat, agent in enumerate(("a", "a") if g < 4 else ("a", "b")):
            won = seat == 0
            rows.append({"game": g, "agent": agent, "opponent": "ab"[seat == 0 and g >= 4] if g >= 4
                         else "a", "seat": seat, "result": "win" if won else "loss",
                         "points": 1.0 * won, "end_rule": "OD-5", "condition": "W1", "length": 9})
    wr = win_rates(pd.DataFrame(rows)).set_index(["agent", "opponent"])
    assert wr.loc[("a", "a"), "rate"] == 0.5 and np.isnan(wr.loc[("a", "a"), "ci_low"])
    lo, hi = wilson_interval(2, 2)
    assert (wr.loc[("a", "b"), "ci_low"], wr.loc[("a", "b"), "ci_high"]) == (lo, hi)


def test_first_player_advantage_and_end_conditions_tables():
    rows = []
    for g in range(10):
        first_wins = g < 7
        for seat in (0, 1):
            won = first_wins == (seat == 0)
            rows.append({"game": g, "agent": "a", "opponent": "a", "seat": seat,
                         "result": "win" if won else "loss", "points": 1.0 * won,
                         "end_rule": "OD-5", "condition": "W1" if g < 6 else "W3", "length": 12})
    df = pd.DataFrame(rows)
    fpa = first_player_advantage(df).set_index("pairing")
    assert fpa.loc["all", "first_mover_rate"] == 0.7 and fpa.loc["all", "games"] == 10
    assert round(fpa.loc["all", "ci_low"], 4) == 0.3968
    ec = end_conditions(df).set_index("condition")
    assert ec.loc["W1", "games"] == 6 and ec.loc["W3", "share"] == 0.4


def test_mcts_searches_the_game_of_a_tile_set_read_from_a_file(tmp_path):
    # A tile set from a file has no name OpenSpiel could load: the bot searches the engine's own game, also
    # when the file is named like a shipped set but holds other tiles (two of them here).
    pytest.importorskip("pyspiel")
    from pathlib import Path

    from ubongo_cp.games.orion import load_tiles
    from ubongo_cp.games.orion.tiles import format_tiles

    shipped = Path(__file__).resolve().parent.parent / "puzzles" / "orion" / "published.txt"
    mine = tmp_path / "mytiles.txt"
    mine.write_text(shipped.read_text())
    two = tmp_path / "published.txt"
    tiles = load_tiles(mine)
    two.write_text("\n\n".join(format_tiles(tiles).split("\n\n")[:2]) + "\n")
    for path in (mine, two):
        game = OrionGame.get(tiles=load_tiles(path))
        s = OrionState(game=game, seed=2)
        a = MctsAgent(1, simulations=8)(s)
        assert a in s.legal_actions()


@pytest.mark.parametrize("agent, starts, refused", [
    # mcts: about 5.6 CPU-s a game with mcts on both seats (200 simulations a move, measured on the published
    # game): 10,000 self-play games are about 16 CPU-hours and start, 20,000 (31 hours) are refused (counted at
    # the 1 s of an unlisted agent, they were estimated at 5.6 hours and played)
    ("mcts", 10_000, 20_000),
    # sat: about 3 CPU-s (2.2-3.6 s a game measured): 20,000 games (17 hours) start, 40,000 (33 hours) are
    # refused (at the 10 s it was counted at, the 20,000 were estimated at 56 hours and refused)
    ("sat", 20_000, 40_000),
    # analysis: about 66 CPU-s (62 and 73 s a game measured): 1,000 games (18 hours) start, 2,000 (37 hours) are
    # refused (at the 8 s it was counted at, the 2,000 were estimated at 4.4 hours and played)
    ("analysis", 1_000, 2_000),
])
def test_tournament_cost_bound_counts_each_agent_at_its_measured_cost(monkeypatch, agent, starts, refused):
    # Self-play tournaments below the 24 CPU-hours a tournament runs without --yes start; those above are
    # refused before any game.
    from ubongo_cp.errors import MAX_JOB_CPU_SECONDS, JobTooLargeError
    from ubongo_cp.games.orion import agents, sim

    assert set(sim.AGENT_SECONDS) == set(agents.AGENTS)   # every agent has a measured cost
    assert MAX_JOB_CPU_SECONDS == 24 * 3600

    class Started(Exception):
        pass

    def started(*args, **kwargs):
        raise Started

    monkeypatch.setattr(sim, "map_chunks", started)
    with pytest.raises(Started):
        sim.run_tournament([agent], starts, max_cpu_seconds=MAX_JOB_CPU_SECONDS)
    with pytest.raises(JobTooLargeError, match="this tournament"):
        sim.run_tournament([agent], refused, max_cpu_seconds=MAX_JOB_CPU_SECONDS)


@pytest.mark.parametrize("seed", [-1, 1.5, "x", True])
def test_make_agent_refuses_a_seed_numpy_cannot_take(seed):
    # -1 raised numpy's 'ValueError: expected non-negative integer', 1.5 and 'x' a TypeError of SeedSequence,
    # True seeded as 1.
    for name in ("random", "greedy", "sat", "analysis"):
        with pytest.raises(InputError, match=r"^seed must be a whole number >= 0"):
            make_agent(name, seed)
    state = OrionState(seed=3)
    for seed in (7, np.int64(7), [7, 1], np.random.default_rng(7), None):
        assert make_agent("greedy", seed)(state) in state.legal_actions()


def test_tournament_flags_are_true_or_false_only():
    # self_play="no" played the self-play pairings and pie="no" the pie variant (a 'swapped' column): a string read
    # as true.
    from ubongo_cp.games.orion.sim import run_tournament

    plain = run_tournament(["random", "greedy"], 1, seed=2, self_play=False)
    assert sorted(set(zip(plain.agent, plain.opponent))) == [("greedy", "random"), ("random", "greedy")]
    assert "swapped" not in plain.columns
    pd.testing.assert_frame_equal(run_tournament(["random", "greedy"], 1, seed=2, self_play=np.False_, pie=np.False_),
                                  plain)
    for option in ("self_play", "pie"):
        for value in ("no", 0, None):
            with pytest.raises(InputError, match=rf"^{option} must be True or False, got"):
                run_tournament(["random", "greedy"], 1, seed=2, **{option: value})


@pytest.mark.parametrize("first_game", [-1, 2.5, True, "1", 4])
def test_a_tournament_refuses_a_first_game_that_is_no_game_of_it(first_game):
    # -1 raised numpy's 'ValueError: expected non-negative integer', 2.5 and '1' TypeErrors, True was game 1 and 4
    # (past the 3 games) an empty table.
    from ubongo_cp.games.orion.sim import run_tournament

    with pytest.raises(InputError, match="^first_game must be"):
        run_tournament(["random"], 3, seed=1, first_game=first_game)


def test_a_tournament_from_a_later_game_plays_the_same_games_as_a_whole_run():
    """``first_game`` plays the rows of the whole tournament (same agents, games and seed) from that game of each
    pairing on, with the same game numbers; a run with fewer ``games`` plays the first rounds of a longer one (game
    ``g`` of pairing ``p`` is tournament game ``g * P + p``, seeded by the seed, ``g`` and ``p``: module docstring)."""
    from ubongo_cp.games.orion.sim import run_tournament

    whole = run_tournament(["random", "greedy"], games=3, seed=5)   # 3 pairings: random-random, random-greedy, ...
    assert whole[whole.seat == 0][["agent", "opponent"]].values.tolist()[:4] == [
        ["random", "random"], ["random", "greedy"], ["greedy", "greedy"], ["random", "random"]]
    later = run_tournament(["random", "greedy"], games=3, seed=5, first_game=1)
    expected = whole[whole["game"] // 3 >= 1].reset_index(drop=True)
    pd.testing.assert_frame_equal(later.reset_index(drop=True), expected)
    assert sorted(set(later["game"])) == [3, 4, 5, 6, 7, 8]
    shorter = run_tournament(["random", "greedy"], games=2, seed=5)
    pd.testing.assert_frame_equal(shorter, whole[whole["game"] < 6].reset_index(drop=True))


@pytest.mark.parametrize("pie", [False, True])
def test_a_tournament_from_its_last_game_on_is_an_empty_table_of_the_usual_columns(pie):
    # first_game == games (nothing left to play, as a resumed study asks) gave a table of no columns, which
    # concatenates with the earlier games into a table of NaN rows and breaks a column selection.
    from ubongo_cp.games.orion.sim import run_tournament

    whole = run_tournament(["random"], 2, seed=3, pie=pie)
    empty = run_tournament(["random"], 2, seed=3, pie=pie, first_game=2)
    assert len(empty) == 0 and list(empty.columns) == list(whole.columns)
    assert ("swapped" in empty.columns) == pie
    assert empty.dtypes.to_dict() == whole.dtypes.to_dict()
    pd.testing.assert_frame_equal(pd.concat([whole, empty], ignore_index=True), whole)


def test_tournament_agents_given_as_one_name_are_one_error_naming_them():
    from ubongo_cp.games.orion.sim import run_tournament

    # "random" was read letter by letter: "unknown agent 'r'"
    with pytest.raises(InputError, match=r"^agents is a list of names, e\.g\. \['random', 'greedy'\], got 'random'$"):
        run_tournament("random", 2, seed=1)
    table = run_tournament(iter(["random"]), 2, seed=1)   # any iterable of names
    assert set(table["agent"]) == {"random"} and table["game"].nunique() == 2



@pytest.mark.parametrize("make, seed, random_moves, most", [
    (lambda: SatAgent(8, top=5, time_limit=0.5), 8, 6, 99),
    (lambda: AnalysisAgent(2, top=3, block=3, time_limit=0.5), 2, 8, 6),
])
def test_the_thinking_agents_play_the_same_moves_on_a_slow_machine(monkeypatch, make, seed, random_moves, most):
    # The SAT and analysis agents' questions have a time budget; counted on the wall clock, a slower or busier
    # machine ran out of it on other questions and played other moves (a tournament table did not reproduce).
    # Here the clock of the analysis runs 1000 times fast (a machine 1000 times slower): every move of the
    # agent against greedy, after a few random moves, must be the same as with the real clock.
    import time
    import types

    from ubongo_cp.games.orion import blocking, distance, reach

    def moves():
        s = OrionState(seed=seed)
        r = RandomAgent(seed)
        for _ in range(random_moves):
            s.apply_action(r(s))
        agent, greedy, out = make(), GreedyAgent(seed), []
        while not s.is_terminal() and len(out) < most:
            out.append(agent(s))
            s.apply_action(out[-1])
            if not s.is_terminal():
                s.apply_action(greedy(s))
        return out

    real = moves()
    slow = types.SimpleNamespace(perf_counter=lambda: 1000 * time.perf_counter())
    for module in (distance, reach, blocking):
        monkeypatch.setattr(module, "time", slow)
    assert moves() == real
