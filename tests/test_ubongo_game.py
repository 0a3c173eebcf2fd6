"""Tests of the Ubongo gem game engine (rules UG-1 ... UG-10), its models and simulator."""

from __future__ import annotations

import math
import re
from pathlib import Path
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ubongo_cp.errors import IllegalActionError, InputError
from ubongo_cp.games.base import CHANCE, TERMINAL, load_record, save_record
from ubongo_cp.games.tasks import (ScriptedTimes, SolveTimeModel, TaskDeck, default_tasks_path, load_tasks,
                                   synthetic_tasks)
from ubongo_cp.games.ubongo.agents import LeadingColour, LookAhead, MostGems, Stay
from ubongo_cp.games.ubongo.sim import simulate_ubongo, summarise_ubongo
from ubongo_cp.games.ubongo.state import EMPTY, NUM_GEMS, UbongoState, sorted_counts, take_gems, ug10_winners

INF = math.inf


def classic_frame(n_cards: int = 36) -> pd.DataFrame:
    """Hand-made classic table: difficulty = face (easy) or 10 x face (hard) on card k."""
    rows = []
    for k in range(1, n_cards + 1):
        for side, mult in (("easy", 1.0), ("hard", 10.0)):
            for f in range(1, 7):
                rows.append({"card_id": f"{k:02d}", "side": side, "face": f, "pieces": "I2 I3 L3",
                             "area": 8, "count": 3, "count_reduced": 3, "status": "solved",
                             "difficulty": mult * f})
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def deck() -> TaskDeck:
    return TaskDeck(classic_frame(), "classic")


class Recorder(ScriptedTimes):
    """Scripted times that also remember the difficulty ratios they were asked for."""

    def __init__(self, script):
        super().__init__(script)
        self.seen = []

    def sample(self, ratios, skills, rng):
        self.seen.append(np.asarray(ratios).tolist())
        return super().sample(ratios, skills, rng)


def board_of(lanes: dict[int, list[int]]) -> np.ndarray:
    """A 6 x 12 board, empty except the given lanes (front first; None = empty hole)."""
    b = np.full((6, 12), EMPTY)
    for lane, gems in lanes.items():
        for h, g in enumerate(gems):
            b[lane, h] = EMPTY if g is None else g
    return b


def state_with(deck, times, n=3, board=None, pawns=(0, 0, 0), cards=None, **kw) -> UbongoState:
    cards = cards or [f"{k:02d}" for k in range(1, 2 * n + 1)]  # two rounds
    return UbongoState(deck, n, "easy", model=Recorder(times), board=board if board is not None else board_of(
        {f: [f] * 12 for f in range(6)}), cards=cards, pawns=pawns, seed=0, **kw)


# ---------------------------------------------------------------- the deck
def test_deck_median_and_ratios(deck):
    # difficulties: easy 1..6, hard 10..60, each 36 times -> median of {1..6, 10..60} = (6 + 10) / 2 = 8
    assert deck.median == 8.0
    assert deck.ratios["easy"][0].tolist() == [f / 8 for f in range(1, 7)]
    assert deck.cards["hard"][:3] == ("01", "02", "03")


def test_deck_ratios_do_not_depend_on_the_scale_even_near_the_largest_float():
    # Difficulties have an arbitrary scale: the ratios are difficulty / median. With difficulties near 1e308 the
    # median's mean of the two middle values overflowed to infinity (numpy's "RuntimeWarning: overflow
    # encountered in reduce" on standard error), every ratio became 0 and every task was solved at once.
    base = classic_frame(1)
    base = base.assign(difficulty=np.where(base["side"] == "easy", 100, 150) + base["face"])  # 101..106, 151..156
    for scale in (1.0, 1e300, 1e306):   # 156e306 is still a float; the middle two, 106e306 + 151e306, are not
        frame = base.assign(difficulty=base["difficulty"] * scale)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            d = TaskDeck(frame, "classic")
        assert d.median == pytest.approx((106 + 151) / 2 * scale)
        assert d.ratios["easy"][0].tolist() == pytest.approx([(100 + f) / 128.5 for f in range(1, 7)])
        assert d.ratios["hard"][0].tolist() == pytest.approx([(150 + f) / 128.5 for f in range(1, 7)])


def test_deck_ratios_are_read_only():
    # side_ratios handed out the deck's own array: a caller's change reached the deck, and side_rows (cached)
    # then showed it, or not, depending on whether it had been asked for before.
    d = TaskDeck(classic_frame(1), "classic")
    for ratios in (d.side_ratios("easy"), d.ratios["easy"],
                   TaskDeck.from_side_json(d.side_to_json("easy")).side_ratios("easy")):
        with pytest.raises(ValueError, match="read-only"):
            ratios[0, 0] = 99.0
    assert d.side_rows("easy")[0][0] == 1 / d.median and d.side_ratios("easy")[0, 0] == 1 / d.median


def test_deck_rows_the_engines_share_cannot_be_changed_through_a_caller():
    # side_rows handed out its cached lists: a caller's rows[0][0] = 999 reached every later Duel match of the
    # deck and its game records (side_to_json), while ratios (read-only) still said otherwise.
    d = TaskDeck(classic_frame(1), "classic")
    rows = d.side_rows("easy")
    with pytest.raises(TypeError):
        rows[0][0] = 999.0   # type: ignore[index]
    with pytest.raises(AttributeError):
        rows[0].append(1.0)  # type: ignore[attr-defined]
    assert d.side_rows("easy") is rows and list(rows[0]) == (d.ratios["easy"][0]).tolist()
    assert d.side_to_json("easy")["ratios"][0][0] == 1 / d.median   # the scripted frame: difficulty 1 on face 1


def test_deck_no_solution_is_inf_and_unknown_keeps_difficulty():
    df = classic_frame(1)
    df.loc[0, "status"] = "no solution"
    df.loc[1, ["status", "difficulty"]] = ["unknown", np.nan]
    d = TaskDeck(df, "classic")
    assert d.ratios["easy"][0, 0] == INF
    assert d.ratios["easy"][0, 1] == 60 / d.median  # unknown without difficulty -> deck maximum


def test_deck_timeout_is_read_as_unknown():
    # A batch run with a time limit writes "timeout" and no difficulty for a cut search: the simulators
    # play it as an unknown task (the deck's largest difficulty), as they do "unknown".
    df = classic_frame(1)
    df.loc[2, ["status", "difficulty"]] = ["timeout", np.nan]
    df.loc[3, ["status", "difficulty"]] = ["timeout", 2.0]
    d = TaskDeck(df, "classic")
    assert d.ratios["easy"][0].tolist() == [x / d.median for x in (1, 2, 60, 2, 5, 6)]


def test_simulate_reads_a_batch_folder_with_timeouts_and_names_its_file(tmp_path, run_cli):
    from ubongo_cp.report import write_table

    df = classic_frame(2)
    df.loc[2, ["status", "difficulty"]] = ["timeout", np.nan]
    write_table(df, tmp_path / "tasks.csv")
    code, out, err = run_cli("simulate", "ubongo", "--tasks", tmp_path, "--games", "2", "--players", "2",
                             "--all-cards", "--no-progress")
    assert code == 0 and err == "" and out.startswith("2 gem games, 2 players, easy side")
    df.loc[4, "status"] = "error"
    write_table(df, tmp_path / "tasks.csv")
    code, _, err = run_cli("simulate", "ubongo", "--tasks", tmp_path, "--games", "2", "--players", "2",
                           "--all-cards", "--no-progress")
    assert code == 2 and err.splitlines() == [
        f"ubongo-cp: error: {tmp_path / 'tasks.csv'}:6: task card 01 side easy face 5 has status 'error': the "
        "batch could not rate it (run the batch again on the same output folder to retry it)"]


def test_a_deck_too_small_for_the_players_is_refused_before_the_journal_is_made(tmp_path, run_cli):
    # 2 cards, 4 players (36 needed, UG-3): refused as before, and no journal g.jsonl is left beside the table
    # the run never wrote (it was opened before the first game found the deck too small).
    from ubongo_cp.report import write_table

    write_table(classic_frame(2), tmp_path / "tasks.csv")
    code, out, err = run_cli("simulate", "ubongo", "--tasks", tmp_path / "tasks.csv", "--games", "2",
                             "--out", tmp_path / "g.csv", "--no-progress")
    assert code == 2 and out == "" and err == (
        f"ubongo-cp: error: {tmp_path / 'tasks.csv'}: side easy of the deck has 2 cards; 4 players need 36, "
        "9 each (UG-3)\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tasks.csv"]


def test_deck_rows_of_a_parquet_table_are_named_by_row(tmp_path):
    df = classic_frame(1).assign(status="done")
    with pytest.raises(InputError, match=re.escape("t.parquet: status 'done' (row 1) is not one of solved, no "
                                                   "solution, unknown, timeout")):
        TaskDeck(df, "classic", path=tmp_path / "t.parquet")


@pytest.mark.parametrize("change, message", [
    (lambda df: df.drop(columns=["difficulty"]), "lacks column(s) difficulty"),
    (lambda df: df.assign(face=[7] + [1] * (len(df) - 1)), "t.csv:2: face 7"),
    (lambda df: df.assign(side=["A"] * len(df)), "side 'A'"),
    (lambda df: df.iloc[1:], "lacks face(s) 1"),
    (lambda df: pd.concat([df, df.iloc[:1]]), "task card 01 side easy face 1 is given twice (also on line 2)"),
    (lambda df: df.assign(status=["done"] * len(df)), "status 'done'"),
])
def test_deck_bad_tables_name_the_problem(change, message):
    with pytest.raises(InputError, match=re.escape(message)):
        TaskDeck(change(classic_frame(1)).reset_index(drop=True), "classic", path="t.csv")


def test_deck_dataframe_rows_are_checked_as_a_files_are():
    # A DataFrame with a task's face NaN: once "face nan (row 3) is not an integer 1..6", not the message a file
    # gets; card "1" beside card "01" passed as two cards.
    df = classic_frame(1).astype({"face": "float64"})
    df.loc[2, "face"] = np.nan
    with pytest.raises(InputError, match="^" + re.escape("t.parquet: column face (row 3) is empty in a task's row "
                                                         "(each task's row names its card, side and die face)") + "$"):
        TaskDeck(df, "classic", path="t.parquet")
    again = pd.concat([classic_frame(1), classic_frame(1).iloc[[0]].assign(card_id="1")], ignore_index=True)
    with pytest.raises(InputError, match="^" + re.escape("t.csv:14: task card 1 side easy face 1 is given twice (also "
                                                         "on line 2, as card 01)") + "$"):
        TaskDeck(again, "classic", path="t.csv")
    # a row of empty fields is no task; a later row is named by its row in the table as given
    edited = classic_frame(1).reindex([0, 1, -1, *range(2, 12)]).reset_index(drop=True)   # row 3: every field NaN
    assert TaskDeck(edited, "classic").ratios["easy"].tolist() == TaskDeck(classic_frame(1), "classic").ratios[
        "easy"].tolist()
    edited.loc[5, "status"] = "done"
    with pytest.raises(InputError, match="^" + re.escape("status 'done' (row 6) is not one of solved, no solution, "
                                                         "unknown, timeout") + "$"):
        TaskDeck(edited, "classic")


def test_deck_rows_read_from_csv_are_named_by_their_line_of_the_file(tmp_path):
    # A tasks.csv edited by hand: a blank line and a spreadsheet's empty row before a bad row. The message named
    # the row's position counted from the header line (line 4 for the face on line 6), not the line an editor
    # shows.
    df = classic_frame(1)
    df.loc[2, "face"] = 7
    lines = df.to_csv(index=False).splitlines()
    width = len(df.columns)
    lines[2:2] = ["", "," * (width - 1)]       # rows of faces 1 and 2 stay on lines 2 and 5
    (tmp_path / "t.csv").write_text("\n".join(lines) + "\n")
    assert lines[5].startswith("01,easy,7,")
    with pytest.raises(InputError, match=re.escape(f"{tmp_path / 't.csv'}:6: face 7 is not an integer 1..6")):
        TaskDeck(load_tasks(tmp_path / "t.csv"), "classic", path=tmp_path / "t.csv")
    lines[5] = lines[5].replace("01,easy,7,", "01,easy,3,")
    lines.append(lines[1])                       # face 1 of the easy side again, on line 16
    (tmp_path / "t.csv").write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError, match=re.escape(f"{tmp_path / 't.csv'}:16: task card 01 side easy face 1 "
                                                   "is given twice (also on line 2)")):
        TaskDeck(load_tasks(tmp_path / "t.csv"), "classic", path=tmp_path / "t.csv")


def test_load_tasks_csv_parquet_and_missing(tmp_path):
    df = classic_frame(2)
    df.to_csv(tmp_path / "t.csv", index=False)
    df.to_parquet(tmp_path / "t.parquet", index=False)
    for name in ("t.csv", "t.parquet"):
        got = load_tasks(tmp_path / name)
        assert got["card_id"].iloc[0] == "01"  # not read as the number 1
        assert TaskDeck(got, "classic").cards["easy"] == ("01", "02")
    with pytest.raises(InputError, match="tasks table not found"):
        load_tasks(tmp_path / "nope.csv")
    df.drop(columns=["status"]).to_csv(tmp_path / "bad.csv", index=False)
    with pytest.raises(InputError, match=r"bad\.csv: tasks table lacks column\(s\) status"):
        simulate_ubongo(tmp_path / "bad.csv", 2, 1)


def test_solve_time_model_formula():
    m = SolveTimeModel(base=10, scale=30, sigma=0.5)
    z = np.array([0.0, 1.0])
    # (10 + 30 * 2) / 0.5 * exp(0.5 * z - 0.125)
    expected = [140 * math.exp(-0.125), 140 * math.exp(0.375)]
    assert np.allclose(m.times(np.array([2.0, 2.0]), np.array([0.5, 0.5]), z), expected)
    with pytest.raises(InputError):
        SolveTimeModel(sigma=-1)


def test_solve_time_model_sigma_is_bounded_where_the_noise_stays_a_float():
    from ubongo_cp.games.tasks import MAX_SIGMA

    for sigma in (math.inf, math.nan, 1e308, MAX_SIGMA * 1.01):
        with pytest.raises(InputError, match=re.escape(f"solve-time sigma must be a number from 0 to 30, got {sigma}")):
            SolveTimeModel(sigma=sigma)
    # At the bound, draws up to 8 standard deviations either way give finite, positive times.
    times = SolveTimeModel(sigma=MAX_SIGMA).times(np.ones(3), np.ones(3), np.array([-8.0, 0.0, 8.0]))
    assert np.all(np.isfinite(times)) and np.all(times > 0)


def test_cli_ubongo_refuses_a_sigma_out_of_bounds(run_cli):
    code, _, err = run_cli("simulate", "ubongo", "--games", "2", "--synthetic", "--sigma", "1e308", "--no-progress")
    assert code == 2 and err == "ubongo-cp: error: --sigma must be a number from 0 to 30, got 1e+308\n"


# ------------------------------------------------------------- rule tests
def test_ug1_side_decides_the_tasks(deck):
    for side, mult in (("easy", 1), ("hard", 10)):
        rec = Recorder([[30.0, INF]])
        s = UbongoState(deck, 2, side, model=rec, cards=["01", "02"], pawns=(0, 0), seed=1)
        s.apply_action(3)  # face 4
        assert rec.seen == [[4 * mult / 8, 4 * mult / 8]]  # UG-1: the chosen side's face-4 task, ratio d / 8
    with pytest.raises(InputError, match="UG-1"):
        UbongoState(deck, 2, "medium")


def test_ug2_setup_any_field_shared(deck):
    s = UbongoState(deck, 3, seed=5)
    assert s.current_player() == 0 and s.legal_actions() == [0, 1, 2, 3, 4, 5]
    s.apply_action(4)
    s.apply_action(4)  # UG-2: pawns may share a field
    with pytest.raises(IllegalActionError, match="UG-2"):
        s.apply_action(6)
    s.apply_action(0)
    assert s.pawns.tolist() == [4, 4, 0] and s.current_player() == CHANCE


def test_ug2_random_gem_layout(deck):
    s = UbongoState(deck, 4, seed=3)
    assert sorted(np.bincount(s.board.ravel()).tolist()) == [12] * 6  # 72 gems, 12 of each of 6 colours
    assert not np.array_equal(s.board, UbongoState(deck, 4, seed=4).board)


@pytest.mark.parametrize("n, all_cards, rounds", [(2, False, 9), (3, False, 9), (4, False, 9),
                                                  (2, True, 18), (3, True, 12), (4, True, 9)])
def test_ug3_cards_in_play(deck, n, all_cards, rounds):
    s = UbongoState(deck, n, seed=2, all_cards=all_cards)
    assert len(s.cards) == rounds * n and len(set(s.cards)) == len(s.cards)  # 18/27/36, or all 36
    assert s.num_rounds == rounds


def test_ug3_too_few_cards():
    # 9 cards per player: 27 for three; a deck of 20 says so, and that every card in play (UG-3's variant) needs
    # only one per player, which then plays 20 // 3 = 6 rounds
    with pytest.raises(InputError, match=re.escape("side easy of the deck has 20 cards; 3 players need 27, 9 each "
                                                   "(UG-3); with every card in play (--all-cards) they need 3")):
        UbongoState(TaskDeck(classic_frame(20), "classic"), 3)
    assert UbongoState(TaskDeck(classic_frame(20), "classic"), 3, all_cards=True).num_rounds == 6
    with pytest.raises(InputError, match=re.escape("side easy of the deck has 1 cards; 2 players need 2 (UG-3)")):
        UbongoState(TaskDeck(classic_frame(1), "classic"), 2, all_cards=True)  # every card, one per player


def test_ug4_each_player_solves_the_rolled_face_of_its_own_card(deck):
    s = state_with(deck, [[10.0, 20.0, 30.0]], cards=["01", "02", "03"])
    s.apply_action(5)  # face 6
    assert s.model.seen == [[6 / 8] * 3]
    assert s.history[0]["cards"] == ["01", "02", "03"] and s.history[0]["face"] == 6


def test_ug5_ranking_and_allowances(deck):
    # times: p0 50 s, p1 12 s, p2 30 s, p3 70 s -> order p1 (3 fields), p2 (2), p0 (1); p3 too late
    s = state_with(deck, [[50.0, 12.0, 30.0, 70.0]], n=4, pawns=(2, 0, 5, 3))
    s.apply_action(0)
    assert s.history[0]["finish_order"] == [1, 2, 0]
    assert s.current_player() == 1 and s.legal_actions() == [0, 1, 2, 3]  # from 0 up to 3 fields
    s.apply_action(3)
    assert s.current_player() == 2 and s.legal_actions() == [3, 4, 5]  # from 5, up to 2 (either way)
    with pytest.raises(IllegalActionError, match="UG-5"):
        s.apply_action(2)
    s.apply_action(5)
    assert s.current_player() == 0 and s.legal_actions() == [1, 2, 3]
    s.apply_action(1)
    assert s.pawns.tolist() == [1, 3, 5, 3] and s.current_player() == CHANCE


def test_ug5_equal_times_are_ranked_by_seat(deck):
    # Decision (RULES.md is silent; docs/games.md): equal finishing times rank the lower seat first.
    s = state_with(deck, [[30.0, 20.0, 20.0]], pawns=(0, 0, 0))
    s.apply_action(0)
    assert s.history[0]["finish_order"] == [1, 2, 0]
    assert s.mover() == (1, 0, 3)  # seat 1 is first: 3 fields (UG-5)
    s.apply_action(0)
    assert s.mover() == (2, 0, 2)


def test_ug5_fourth_does_not_move_and_two_players_first_moves_three(deck):
    s = state_with(deck, [[1.0, 2.0, 3.0, 4.0]], n=4, pawns=(0, 1, 2, 2))
    s.apply_action(0)
    for _ in range(3):
        s.apply_action(s.current_player())  # p0 -> 0, p1 -> 1, p2 -> 2 (all within reach)
    assert s.current_player() == 3 and s.legal_actions() == [2]  # UG-5: 4th may not move
    s2 = state_with(deck, [[5.0, 6.0]], n=2, pawns=(0, 0))
    s2.apply_action(0)
    assert s2.legal_actions() == [0, 1, 2, 3]  # with two players the first still moves up to 3


def test_ug6_gem_taking(deck):
    board = board_of({1: [None, 3, None, None, 4, 5], 2: [None] * 11 + [2]})
    s = state_with(deck, [[40.0, 10.0, 20.0]], board=board, pawns=(2, 1, 2))
    s.apply_action(0)
    s.apply_action(1)  # p1 (1st) stays on field 1: takes 3 and 4, skipping the empty holes
    s.apply_action(1)  # p2 (2nd) moves 2 -> 1: only gem 5 is left: takes it
    s.apply_action(2)  # p0 (3rd) stays on 2: one gem deep in the lane, takes it
    assert s.gems[1].tolist() == [0, 0, 0, 1, 1, 0]
    assert s.gems[2].tolist() == [0, 0, 0, 0, 0, 1]
    assert s.gems[0].tolist() == [0, 0, 1, 0, 0, 0]
    assert (s.board[1] == EMPTY).all() and (s.board[2] == EMPTY).all()
    assert s.history[0]["moves"] == [(1, 1, [3, 4]), (2, 1, [5]), (0, 2, [2])]


def test_ug6_take_gems_helper_one_gem_then_none():
    lane = [1]  # a lane holding one gem: take it; then nothing is left to take (UG-6)
    assert take_gems(lane) == [1] and take_gems(lane) == [] and lane == []
    lane = [4, 0, 2, 2, 5]
    assert take_gems(lane) == [4, 0] and lane == [2, 2, 5]  # only the two at the front


def test_ug7_moving_must_fit_in_the_timer(deck):
    # move time 5 s: p0 solves at 57 s (57 + 5 > 60, nothing), p1 at 50 s (moves), p2 never
    s = state_with(deck, [[57.0, 50.0, INF]], move_time=5.0)
    s.apply_action(0)
    assert s.current_player() == 1
    s.apply_action(0)
    assert s.current_player() == CHANCE and s.gems[0].sum() == 0 and s.gems[1].sum() == 2
    assert s.history[0]["finish_order"] == [1, 0]  # p0 did solve in time: no UG-8 re-turn


def test_ug8_timer_turned_once_more(deck):
    s = state_with(deck, [[90.0, 130.0, INF], [121.0, 200.0, INF]])
    s.apply_action(0)  # nobody within 60 s: re-turn, p0 finishes at 90 <= 120, p1 at 130 is too late
    assert s.history[0]["extended"] and s.history[0]["finish_order"] == [0]
    assert s.current_player() == 0 and s.legal_actions() == [0, 1, 2, 3]  # the only solver is 1st
    s.apply_action(0)
    s.apply_action(0)  # round 2: still nobody by 120 s: the round ends anyway
    assert s.history[1]["extended"] and s.history[1]["finish_order"] == []
    assert s.round == 2 and s.gems.sum() == 2


def test_ug9_cards_removed_and_die_passes_left(deck):
    cards = ["05", "06", "07", "08", "09", "10"]
    s = state_with(deck, [[INF] * 3, [INF] * 3], cards=cards)
    assert s.die_holder == 0 and [s.card_of(p) for p in range(3)] == ["05", "06", "07"]
    s.apply_action(0)
    assert s.round == 1 and s.die_holder == 1
    assert [s.card_of(p) for p in range(3)] == ["08", "09", "10"]  # new cards, none reused
    s.apply_action(0)
    assert s.is_terminal() and s.die_holder == 2


def test_ug10_worked_example_c_wins():
    a, b, c = [6, 4, 2, 2, 2, 2], [2, 2, 0, 1, 2, 3], [4, 3, 2, 6, 1, 0]
    assert ug10_winners([a, b, c]) == [2]  # seed 004: C wins although A holds 18 gems vs C's 16
    assert sum(a) > sum(c)
    assert sorted_counts(c) == (6, 4, 3, 2, 1, 0)


def test_ug10_returns_at_end_and_shared_win(deck):
    # the players hold these gems, so the board holds fewer (the game's 12 of each colour): an empty board
    s = state_with(deck, [[INF] * 3], n=3, cards=["01", "02", "03"], board=board_of({}),
                   gems=[[6, 4, 2, 2, 2, 2], [2, 2, 0, 1, 2, 3], [4, 3, 2, 6, 1, 0]])
    assert s.returns() == [0.0, 0.0, 0.0]  # not over yet
    s.apply_action(0)
    assert s.current_player() == TERMINAL and s.returns() == [0.0, 0.0, 1.0]
    t = state_with(deck, [[INF] * 3], n=3, cards=["01", "02", "03"], board=board_of({}),
                   gems=[[5, 0, 1, 0, 0, 0], [0, 1, 0, 0, 5, 0], [4, 4, 4, 0, 0, 0]])
    t.apply_action(0)
    assert t.returns() == [0.5, 0.5, 0.0]  # equal sorted sequences share the win
    with pytest.raises(IllegalActionError, match="UG-10"):
        t.apply_action(0)


# ------------------------------------------------------------ strategies
def test_strategies_on_a_hand_built_board():
    lanes = [[0, 0], [1, 2], [3], [], [4, 4, 4, 4], [5, 1, 1, 1]]
    counts = [0, 3, 0, 0, 0, 0]  # leads in colour 1
    assert Stay().move(lanes, 3, 3, counts) == 3
    assert MostGems().move(lanes, 3, 1, counts) == 4  # fields 2 (1 gem), 3 (0), 4 (2): nearest best
    assert MostGems().move(lanes, 1, 3, counts) == 1  # already 2 gems here: stay
    assert LeadingColour().move(lanes, 3, 2, counts) == 1  # one gem of colour 1 (field 5 ties, tried later)
    assert LeadingColour().move(lanes, 3, 3, [0] * 6) == 4  # nothing yet: a same-colour pair
    # Look-ahead from field 3 with reach 2: field 5 now gives [5, 1] -> counts 0,4,..,1; next round the
    # rest of lane 5 gives [1, 1] -> (6, 1, 0, ...), beating field 4 then 4 again (4, 3, 0, ...).
    assert LookAhead().move(lanes, 3, 3, counts) == 5


# ------------------------------------------------------- property tests
@settings(deadline=None, max_examples=25)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 4), side=st.sampled_from(["easy", "hard"]),
       all_cards=st.booleans())
def test_properties_conservation_pawns_monotone_scores(deck, seed, n, side, all_cards):
    rng = np.random.default_rng(seed)
    s = UbongoState(deck, n, side, seed=seed, all_cards=all_cards,
                    model=SolveTimeModel(sigma=float(rng.uniform(0, 1))))
    prev = s.gems.copy()
    while not s.is_terminal():
        acts = s.legal_actions()
        s.apply_action(acts[int(rng.integers(len(acts)))])
        on_board = int((s.board != EMPTY).sum())
        assert on_board + int(s.gems.sum()) == NUM_GEMS  # gem conservation: 72 = board + players
        placed = s.pawns[s.pawns >= 0]
        assert ((placed >= 0) & (placed <= 5)).all()  # pawns stay on the 6 red fields
        assert (s.gems >= prev).all()  # scores only grow
        prev = s.gems.copy()
    assert (s.pawns >= 0).all()


def test_seeded_games_replay_the_saved_table():
    # Saved playthroughs (OpenSpiel's regression layer): 12 games on the shipped classic deck, written
    # by the previous implementation (its separate fast loop) before the one-engine rework, with the
    # deck's ratings of that time (kept beside them: issue 13 changed the rating formula).
    games = Path(__file__).parent / "data" / "games"
    want = pd.read_csv(games / "gem_seed7.csv", dtype={"score": str})
    got = simulate_ubongo(games / "classic_tasks_2026.csv", 4, 12, 7, skills=[1.25, 1, 1, 0.8])
    pd.testing.assert_frame_equal(got[list(want.columns)], want, check_dtype=False)


def test_simulate_table_and_summary():
    table = simulate_ubongo(synthetic_tasks("classic"), 4, 30, seed=3, skills=[1.0, 2.0])
    assert len(table) == 120 and set(table["strategy"]) == {"stay", "most-gems", "leading", "lookahead"}
    per_game = table.groupby("game")
    assert np.allclose(per_game["win"].sum(), 1.0)  # one win shared per game
    assert (per_game["total"].sum() <= NUM_GEMS).all()
    gem_cols = [f"gems_{c}" for c in range(6)]
    assert (table[gem_cols].max(axis=1) == table["top"]).all()
    s = summarise_ubongo(table, ["skill"])
    assert s["seats"].tolist() == [60, 60]  # skills rotate over the seats
    again = simulate_ubongo(synthetic_tasks("classic"), 4, 30, seed=3, skills=[1.0, 2.0])
    pd.testing.assert_frame_equal(table, again)  # reproducible from the seed


# ------------------------------------------------------------------ CLI
class _SimulateParser:
    """``ubongo-cp simulate ...`` arguments parsed by the real command-line parser."""

    def parse_args(self, argv):
        from ubongo_cp.cli import build_parser

        return build_parser().parse_args(["simulate", *argv])


def _parser():
    return _SimulateParser()


def test_cli_ubongo_writes_table(tmp_path, capsys):
    frame = classic_frame()
    frame.to_csv(tmp_path / "tasks.csv", index=False)
    args = _parser().parse_args(["ubongo", "--players", "3", "--games", "12", "--seed", "1", "--tasks",
                                 str(tmp_path / "tasks.csv"), "--strategy", "lookahead", "stay",
                                 "--out", str(tmp_path / "g.parquet")])
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert "12 gem games, 3 players" in out and "win_rate" in out and "lookahead" in out
    table = pd.read_parquet(tmp_path / "g.parquet")
    assert len(table) == 36 and table["strategy"].tolist()[:3] == ["lookahead", "stay", "lookahead"]
    expected = simulate_ubongo(frame, 3, 12, 1, strategies=["lookahead", "stay"])
    assert table["win"].tolist() == expected["win"].tolist()


def test_cli_default_tasks_found_from_any_directory(tmp_path, monkeypatch):
    # The shipped rated deck is found beside the shipped piece sets, not
    # relative to the current directory (a user ran the simulator elsewhere).

    monkeypatch.chdir(tmp_path)
    path = default_tasks_path("classic")
    assert path.is_absolute() and path.parts[-3:] == ("decks", "classic", "tasks.csv") and path.exists()


def test_cli_missing_tasks_is_a_clear_error(tmp_path):
    args = _parser().parse_args(["ubongo", "--games", "2", "--tasks", str(tmp_path / "none.csv")])
    with pytest.raises(InputError, match=r"none\.csv: tasks table not found"):
        args.func(args)


def test_cli_through_main(tmp_path, capsys):
    from ubongo_cp.cli import main

    assert main(["simulate", "ubongo", "--games", "3", "--synthetic"]) == 0
    assert main(["simulate", "ubongo", "--games", "3", "--tasks", str(tmp_path / "none.csv")]) == 2
    err = capsys.readouterr().err
    assert "tasks table not found" in err and "give --tasks FILE or --synthetic" in err


def test_a_missing_tasks_table_is_said_in_the_librarys_words(tmp_path):
    # The library names no command-line option (only the command line does, above).
    from ubongo_cp.games.tasks import load_tasks

    with pytest.raises(InputError, match="tasks table not found") as caught:
        load_tasks(tmp_path / "none.csv")
    assert "--" not in caught.value.message and "a shipped deck" in caught.value.message



# ----------------------------------------------- CLI rough edges (issue 14)
@pytest.mark.parametrize("argv, message", [
    (["--skills", "inf"], "--skills must be a finite number > 0, got inf"),
    (["--skills", "1", "nan"], "--skills must be a finite number > 0, got nan"),
    (["--skills", "0"], "--skills must be a finite number > 0, got 0.0"),
    (["--sigma", "-0.1"], "--sigma must be a number from 0 to 30, got -0.1"),
    (["--move-time", "inf"], "--move-time must be a finite number >= 0, got inf"),
    (["--timer", "inf"], "--timer must be a positive, finite number of seconds, got inf"),
    (["--players", "2", "--strategy", "stay", "leading", "lookahead"], "--strategy lists 3 names for --players 2"),
    (["--players", "4", "--skills", "1", "2", "3", "4", "5"], "5 skills for 4 players (give at most one per player"),
    # UG-7: every game was played, each a shared win of nobody's gems.
    (["--move-time", "100"], "a move time of 100 s is not shorter than the 60 s timer: moving and taking must "
                             "also happen before the timer runs out (UG-7)"),
    (["--move-time", "40", "--timer", "40"], "a move time of 40 s is not shorter than the 40 s timer"),
])
def test_cli_refuses_odd_numbers_and_extra_strategies(argv, message, capsys):
    from ubongo_cp.cli import main

    assert main(["simulate", "ubongo", "--games", "2", "--synthetic", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_cli_one_game_says_n_a_for_the_standard_error(capsys):
    from ubongo_cp.cli import main

    assert main(["simulate", "ubongo", "--games", "1", "--synthetic", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "NaN" not in out and "nan" not in out
    # One seat per strategy: no standard error; 4 seats of skill 1: sd of (1, 0, 0, 0) / 2 = 0.25.
    rows = {line.split()[0]: line.split() for line in out.splitlines() if line.split()}
    assert rows["stay"][3] == "n/a" and rows["1.0"][3] == "0.25"


def test_cli_move_time_reaches_the_engine(tmp_path, capsys):
    from ubongo_cp.cli import main

    out = tmp_path / "g.csv"
    assert main(["simulate", "ubongo", "--games", "6", "--synthetic", "--move-time", "25", "--timer", "40",
                 "--no-progress", "--out", str(out)]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("; rules: --timer 40 (UG-4), --move-time 25 (UG-7)")
    expected = simulate_ubongo(synthetic_tasks("classic"), 4, 6, 0, move_time=25.0, timer=40.0)
    table = pd.read_csv(out)
    assert table["total"].tolist() == expected["total"].tolist()
    assert table["total"].tolist() != simulate_ubongo(synthetic_tasks("classic"), 4, 6, 0, timer=40.0)[
        "total"].tolist()  # UG-7: a 25 s move costs solvers their gems


def test_a_move_time_just_below_the_timer_still_lets_fast_solvers_score():
    # UG-7: a solver scores when its solve time plus the move time fits in the timer. Solve times drawn as
    # the game draws them: with a 59 s move and a 60 s timer only solves under 1 s take gems, which the
    # default model (10 s at least for skill 1) never draws; a skill of 100 solves in 0.1 s and more.
    table = simulate_ubongo(synthetic_tasks("classic"), 2, 2, 0, move_time=59.0, skills=[100.0])
    assert (table["total"] > 0).all()
    with pytest.raises(InputError, match=r"move time of 60 s is not shorter than the 60 s timer: .*\(UG-7\)"):
        simulate_ubongo(synthetic_tasks("classic"), 2, 2, 0, move_time=60.0, skills=[100.0])


@pytest.mark.parametrize("move_time, timer", [(60.0, 60.0), (100.0, 60.0), (30.0, 20.0)])
def test_a_game_state_refuses_a_move_time_not_shorter_than_the_timer(move_time, timer, deck):
    # UG-7 in the engine a researcher builds from Python, as in simulate: with such a move time nobody could
    # take a gem, every game a shared win
    with pytest.raises(InputError, match=rf"^a move time of {move_time:g} s is not shorter than the {timer:g} s "
                                         r"timer: .*\(UG-7\)"):
        UbongoState(deck, 2, move_time=move_time, timer=timer, seed=0)
    assert UbongoState(deck, 2, move_time=timer - 1, timer=timer, seed=0).move_time == timer - 1


def test_cli_shows_a_progress_bar_unless_told_not_to(capsys, monkeypatch):
    import ubongo_cp.cli.simulate
    from ubongo_cp.cli import main

    assert main(["simulate", "ubongo", "--games", "3", "--synthetic"]) == 0
    assert capsys.readouterr().err == ""  # standard error is no terminal here: no bar
    monkeypatch.setattr(ubongo_cp.cli.simulate, "show_bar", lambda args: not args.no_progress)  # as on a terminal

    assert main(["simulate", "ubongo", "--games", "3", "--synthetic"]) == 0
    assert "gem games: 100%" in capsys.readouterr().err
    assert main(["simulate", "ubongo", "--games", "3", "--synthetic", "--no-progress"]) == 0
    assert capsys.readouterr().err == ""


def test_skills_are_one_per_player_at_most_and_a_shorter_list_is_cycled():
    deck = synthetic_tasks("classic")
    with pytest.raises(InputError, match="3 skills for 2 players"):
        simulate_ubongo(deck, 2, 1, 0, skills=[1, 2, 3], progress=False)
    table = simulate_ubongo(deck, 4, 2, 0, skills=[1.5, 0.5], progress=False)
    # game g, seat p: skills[(p + g) % 2]
    assert table.sort_values(["game", "seat"])["skill"].tolist() == [1.5, 0.5, 1.5, 0.5, 0.5, 1.5, 0.5, 1.5]


@pytest.mark.parametrize("players, message", [
    (2.5, "num_players must be a whole number, got 2.5"), ("3", "num_players must be a whole number, got '3'"),
    (None, "num_players must be a whole number, got None"), (5, "the gem game takes 2 to 4 players, not 5")])
def test_simulate_refuses_a_player_count_that_is_no_whole_number_2_to_4(players, message):
    # Refused in one line, as UbongoState refuses it: once a TypeError from range() or from the comparison.
    with pytest.raises(InputError, match=f"^{re.escape(message)}$"):
        simulate_ubongo(synthetic_tasks("classic"), players, 1, 0, progress=False)


def test_a_start_that_breaks_the_deal_or_the_material_is_refused(deck):
    # UG-3: each card once, 9 per player at the start; the material: 12 gems of each colour, all on the
    # board at the start, never more of a colour on the board and in the hands together.
    with pytest.raises(InputError, match=r"dealt more than once \(UG-3"):
        UbongoState(deck, 2, cards=["01"] * 18, seed=1)
    with pytest.raises(InputError, match=r"3 cards dealt; a game of 3 players starts with 27 \(UG-3"):
        UbongoState(deck, 3, cards=["01", "02", "03"], seed=1)
    with pytest.raises(InputError, match="all on the board at the start"):
        UbongoState(deck, 2, board=np.zeros((6, 12), dtype=int), seed=1)
    with pytest.raises(InputError, match="the game's material"):
        state_with(deck, [], gems=[[1, 0, 0, 0, 0, 0]] * 3)          # a full board and gems in hand
    ids = [f"{i:02d}" for i in range(1, 19)]
    assert UbongoState(deck, 2, cards=ids, seed=1).cards == ids       # a whole deal is taken as given


def test_the_deck_model_and_player_count_are_checked(deck):
    with pytest.raises(InputError, match=r"deck must be a TaskDeck \(as_deck of a rated tasks table.*got 'classic'"):
        UbongoState("classic", 2)
    with pytest.raises(InputError, match=r"deck must be a TaskDeck .*got DataFrame"):
        UbongoState(classic_frame(), 2)
    with pytest.raises(InputError, match=r"model must be a solve-time model with a sample\(ratios, skills, rng\) "
                                         r"method \(SolveTimeModel\), got object"):
        UbongoState(deck, 2, model=object())
    for n in (2.5, "2", True):
        with pytest.raises(InputError, match=r"num_players must be a whole number, got"):
            UbongoState(deck, n)
    with pytest.raises(InputError, match=r"all_cards must be True or False, got 'no'"):   # read as true before
        UbongoState(deck, 2, all_cards="no")
    with pytest.raises(InputError, match=r"timer '60' must be a finite number > 0"):
        UbongoState(deck, 2, timer="60")


def test_players_that_do_not_exist_have_no_gems_and_no_card(deck):
    s = UbongoState(deck, 2, seed=1)
    assert s.card_of(np.int64(1)) == s.cards[1] and s.counts(1) == [0] * 6
    for p in (9, 2, -1, 1.0, True):   # 2 and 9 read the cards of the next rounds, -1 the last player's
        with pytest.raises(InputError, match=r"player must be 0 or 1, got"):
            s.card_of(p)
        with pytest.raises(InputError, match=r"player must be 0 or 1, got"):
            s.counts(p)
    rng = np.random.default_rng(1)
    while not s.is_terminal():
        s.apply_action(s.sample_chance() if s.current_player() < 0 else int(rng.choice(s.legal_actions())))
    with pytest.raises(IllegalActionError, match=r"the game is over after round 9: no card is dealt \(UG-10\)"):
        s.card_of(0)


@pytest.mark.parametrize("start, message", [
    (dict(colour_counts=(12.5, 12.5, 12, 12, 12, 11)), r"colour counts \(12\.5, 12\.5, .*\) must be whole numbers >= 0 "
                                                       r"summing to 72 \(the game's material\)"),
    (dict(colour_counts=(12.0,) * 6), r"colour counts \(12\.0, .*\) must be whole numbers"),
    (dict(colour_counts=5), r"colour counts 5 must be whole numbers"),
    (dict(colour_counts=(True,) * 72), r"colour counts \(True, .*\) must be whole numbers"),
    (dict(pawns=[1.5, 2]), r"pawns \[1\.5, 2\] must be 2 fields 0\.\.5 \(UG-2: red fields\)"),
    (dict(pawns="12"), r"pawns '12' must be 2 fields 0\.\.5 \(UG-2"),
    (dict(pawns=[True, 2]), r"pawns \[True, 2\] must be 2 fields"),
    (dict(pawns=["a", "b"]), r"pawns \['a', 'b'\] must be 2 fields 0\.\.5 \(UG-2"),   # once a raw ValueError
    (dict(pawns=[None, 1]), r"pawns \[None, 1\] must be 2 fields 0\.\.5 \(UG-2"),     # once a raw TypeError
    (dict(pawns=[1, 2], gems=[[1.5, 0, 0, 0, 0, 0], [0] * 6]), r"gems must be 2 x 6 counts >= 0"),
    (dict(board=np.full((6, 12), 0.5)), r"board must be 6 x 12 colours 0\.\.5 or -1"),
])
def test_counts_fields_and_colours_are_whole_numbers(deck, start, message):
    # 12.5 gems were read as 12 and a pawn on field 1.5 stood on field 1, "12" on fields 1 and 2.
    with pytest.raises(InputError, match=message):
        UbongoState(deck, 2, seed=1, **start)


def test_whole_numpy_values_are_taken(deck):
    s = UbongoState(deck, 2, seed=1, colour_counts=np.array([12] * 6), pawns=np.array([0, 5]),
                    gems=np.zeros((2, 6), dtype=np.int32))
    assert s.colour_counts == (12,) * 6 and s.pawns.tolist() == [0, 5] and s.counts(0) == [0] * 6
    assert all(type(c) is int for c in s.colour_counts)


def test_a_record_with_times_the_deck_forbids_is_refused(deck, tmp_path):
    # A recorded solve time must be one the game's model can draw: no time for a task with no solution
    # (UG-7: nobody solves it), none negative.
    import json

    s = UbongoState(deck, 2, seed=5)
    rng = np.random.default_rng(1)
    while not s.is_terminal():
        s.apply_action(s.sample_chance() if s.current_player() < 0 else int(rng.choice(s.legal_actions())))
    path = tmp_path / "gem.json"
    save_record(s, path)
    saved = path.read_text()
    record = json.loads(saved)
    record["deck"]["ratios"] = [[None] * len(r) for r in record["deck"]["ratios"]]
    path.write_text(json.dumps(record))
    with pytest.raises(IllegalActionError, match=r"solves a task with no solution in .* s \(UG-7\)"):
        load_record(path)
    record = json.loads(saved)
    first = next(m for m in record["moves"] if "times" in m)
    first["times"][0] = -3.0
    path.write_text(json.dumps(record))
    with pytest.raises(IllegalActionError, match=r"solve time -3.0 is not a time in seconds \(UG-7\)"):
        load_record(path)


@pytest.mark.parametrize("skills, shown", [
    (["x", 1.0], "['x', 1.0]"), (["1", 1.0], "['1', 1.0]"), ([True, 1.0], "[true, 1.0]"),
    ([10**400, 1.0], "[1" + "0" * 35 + "..."), ([[1.0], 1.0], "[[1.0], 1.0]"),   # cut as every message cuts
    ("ab", "'ab'"), (3, "3"),
])
def test_skills_that_are_no_numbers_are_named(deck, skills, shown):
    # A skill is a finite number > 0 (SolveTimeModel): the gem game read skills with float(), so "x" or
    # [1.0] was a raw ValueError, 10**400 an OverflowError, and "1" or True was taken as skill 1; the
    # simulation had a check of its own with the same holes. Both now say the state's one line.
    with pytest.raises(InputError) as state:
        UbongoState(deck, 2, skills=skills)
    assert str(state.value) == f"skills {shown} must be 2 finite numbers > 0"
    with pytest.raises(InputError) as sim:
        simulate_ubongo(deck, 2, 2, skills=skills)
    assert str(sim.value) == f"skills {shown} must be finite numbers > 0"


def test_cli_header_names_the_strategies_skills_and_noise_that_differ_from_the_defaults(capsys):
    # --strategy, --skills and --sigma change the games played, so saved output of a run with them tells it
    # from a default run: the header names each one given, as given, after the rules, without a rule id.
    from ubongo_cp.cli import main

    base = ["simulate", "ubongo", "--games", "2", "--players", "2", "--synthetic", "--no-progress"]
    head = "2 gem games, 2 players, easy side, seed 0, tasks: synthetic deck"
    assert main(base) == 0
    assert capsys.readouterr().out.splitlines()[0] == head
    assert main([*base, "--sigma", "0.1"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == head + "; settings: --sigma 0.1"
    assert main([*base, "--skills", "1.5", "0.5", "--timer", "40", "--strategy", "stay"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        head + "; rules: --timer 40 (UG-4); settings: --strategy stay, --skills 1.5 0.5")
    # Said as the games play them: the defaults given in full are no setting, a list given cycled is said once.
    assert main([*base, "--strategy", "stay", "most-gems", "--skills", "1", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == head
    assert main([*base, "--strategy", "leading", "leading", "--skills", "2", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == head + "; settings: --strategy leading, --skills 2"
    # What the header names does change the games.
    deck = synthetic_tasks("classic")
    default = simulate_ubongo(deck, 2, 2, 0)
    assert not simulate_ubongo(deck, 2, 2, 0, model=SolveTimeModel(sigma=0.1)).equals(default)


def test_a_shipped_deck_is_read_by_its_name_as_by_its_table_and_an_unknown_name_is_refused():
    # load_deck("classic") reads the shipped deck by name; its rated table was "not found (run the batch job
    # first)" under that name, and default_tasks_path("ubongo") gave a path that does not exist.
    from ubongo_cp.games.tasks import as_deck
    from ubongo_cp.report import load_tasks as report_tasks

    by_path = load_tasks(default_tasks_path("classic"))
    assert by_path.shape == (432, 23)   # 72 card sides x 6 faces (UG-4)
    pd.testing.assert_frame_equal(load_tasks("classic"), by_path)
    pd.testing.assert_frame_equal(report_tasks("classic"), by_path)
    assert as_deck("duel").source == "shipped duel" and as_deck("duel").cards["A"][:2] == ("1", "2")
    with pytest.raises(InputError, match=r"^no shipped deck is named 'ubongo' \(the shipped decks: classic, cubes, "
                                         r"duel, hexagons, triangles\)$"):
        default_tasks_path("ubongo")
    with pytest.raises(InputError, match=r"^a deck is a folder's path or a shipped deck's name \(classic, .*\), "
                                         r"got int 3$"):
        as_deck(3)   # os.fspath's TypeError before
    with pytest.raises(InputError, match=r"^a tasks table is a file's or a batch output folder's path, or a shipped "
                                         r"deck's name, got NoneType None$"):
        report_tasks(None)


def test_strategies_given_as_one_name_are_one_error_naming_them():
    # "leading" was read letter by letter: "7 strategies for 2 players"
    deck = TaskDeck(classic_frame(), "classic")
    with pytest.raises(InputError, match=r"^strategies is a list of names, e\.g\. \['leading', 'stay'\], got 'leading'$"):
        simulate_ubongo(deck, 2, 2, seed=1, strategies="leading")
    assert simulate_ubongo(deck, 2, 2, seed=1, strategies=("leading",))["strategy"].tolist() == ["leading"] * 4


def test_solved_counts_solves_in_time_not_moves(deck):
    # UG-7 with a 5 s move time: every round p0 solves at 57 s (in time, but 57 + 5 > 60: it takes nothing) and p1
    # at 50 s (moves, takes the two front gems of its lane: 12 gems, empty after 6 rounds; "stay" never leaves it).
    # Both solved their task in all 9 rounds; only p1 took gems, in 6 of them.
    from ubongo_cp.games.ubongo.sim import play_ubongo_game

    r = play_ubongo_game(deck, ["stay", "stay"], [1.0, 1.0], 0, model=ScriptedTimes([[57.0, 50.0]] * 9),
                         move_time=5.0)
    assert r["solved"] == [9, 9]
    assert [sum(g) for g in r["gems"]] == [0, 12]
