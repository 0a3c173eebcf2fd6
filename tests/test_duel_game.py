"""Tests of the Ubongo Duel engine (rules UD-1 ... UD-7), its simulator and CLI."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ubongo_cp.errors import IllegalActionError, InputError
from ubongo_cp.games.base import CHANCE, TERMINAL, play_game
from ubongo_cp.games.duel.sim import handicap_sweep, simulate_duel, summarise_duel
from ubongo_cp.games.duel.state import A_SCORES, B_SCORES, NEITHER, TIE, DuelState, finish_time, settle_duel
from ubongo_cp.games.tasks import ScriptedTimes, SolveTimeModel, TaskDeck, synthetic_tasks

INF = math.inf


def duel_frame(n_cards: int = 9) -> pd.DataFrame:
    """Hand-made Duel table: card k, face f has difficulty k + f / 100 (side A), twice that (side B)."""
    rows = []
    for k in range(1, n_cards + 1):
        for side, mult in (("A", 1.0), ("B", 2.0)):
            for f in range(1, 21):
                rows.append({"card_id": str(k), "side": side, "face": f, "pieces": "A B C D",
                             "area": 22, "count": 2, "count_reduced": 1, "status": "solved",
                             "difficulty": mult * (k + f / 100)})
    return pd.DataFrame(rows)


@pytest.fixture(scope="module")
def deck() -> TaskDeck:
    return TaskDeck(duel_frame(), "duel")


class Recorder(ScriptedTimes):
    def __init__(self, script):
        super().__init__(script)
        self.seen = []

    def sample(self, ratios, skills, rng):
        self.seen.append((np.asarray(ratios).tolist(), np.asarray(skills).tolist()))
        return super().sample(ratios, skills, rng)


def scripted(deck, script, **kw) -> DuelState:
    return DuelState(deck, kw.pop("side", "A"), model=Recorder(script), seed=0, **kw)


# ------------------------------------------------------------- rule tests
def test_ud1_side_and_card_order(deck):
    assert deck.cards["A"] == tuple(str(k) for k in range(1, 10))  # stacked 1..9 (numeric order)
    med = deck.median
    for side, mult in (("A", 1), ("B", 2)):
        s = scripted(deck, [[10.0, 20.0]], side=side)
        s.apply_action(6)  # face 7 of card 1
        assert np.allclose(s.model.seen[0][0], [mult * 1.07 / med] * 2)
    with pytest.raises(InputError, match="UD-1"):
        DuelState(deck, "C")


def test_ud1_card_order_is_numeric_not_text():
    d = TaskDeck(duel_frame(12), "duel")
    assert d.cards["B"][:3] == ("1", "2", "3") and d.cards["B"][-3:] == ("10", "11", "12")


def test_ud1_the_stack_a_match_holds_cannot_be_reordered_from_outside():
    # The card ids a deck hands out are shared by every match played from it: they are a tuple,
    # so reordering them in place is refused and a later match still plays the stack 1..9.
    d = TaskDeck(duel_frame(), "duel")
    first = DuelState(d, "A")
    with pytest.raises(AttributeError):
        d.cards["A"].reverse()  # type: ignore[attr-defined]
    assert first.card() == "1" and DuelState(d, "A").card() == "1"
    one_side = TaskDeck.from_side_json(d.side_to_json("B"))
    assert one_side.cards == {"B": tuple(str(k) for k in range(1, 10))}


def test_ud2_d20_picks_the_task_for_both(deck):
    s = scripted(deck, [[10.0, 20.0]])
    outcomes = s.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(20)) and math.isclose(sum(p for _, p in outcomes), 1.0)
    assert s.current_player() == CHANCE and s.legal_actions() == list(range(20))
    s.apply_action(19)  # face 20: both players get card 1, task 20
    ratios, skills = s.model.seen[0]
    assert ratios[0] == ratios[1] == pytest.approx(1.20 / deck.median)
    with pytest.raises(IllegalActionError, match="UD-2"):
        s.apply_action(20)


def test_ud3_first_solver_scores_and_next_card(deck):
    s = scripted(deck, [[31.0, 42.5], [50.0, 49.0]])
    s.apply_action(0)
    assert s.scores == [1, 0] and s.card() == "2"
    s.apply_action(0)
    assert s.scores == [1, 1] and s.card() == "3"
    assert s.model.seen[1][0][0] == pytest.approx(2.01 / deck.median)  # card 2, face 1


def test_ud4_match_to_five(deck):
    s = scripted(deck, [[10.0, 20.0]] * 4 + [[30.0, 20.0]] * 4 + [[10.0, 20.0]], scores=(0, 0))
    for _ in range(8):
        s.apply_action(0)
    assert s.scores == [4, 4] and not s.is_terminal() and s.returns() == [0.0, 0.0]
    s.apply_action(0)  # the ninth duel on card 9 decides
    assert s.scores == [5, 4] and s.is_terminal() and s.current_player() == TERMINAL
    assert s.returns() == [1.0, 0.0] and s.legal_actions() == []
    with pytest.raises(IllegalActionError, match="UD-4"):
        s.apply_action(0)


def test_ud5_neither_solves_roll_again_same_card(deck):
    s = scripted(deck, [[INF, 301.0], [12.0, 11.0]], give_up=300.0)
    s.apply_action(4)
    assert s.scores == [0, 0] and s.card() == "1" and s.rerolls == 1
    s.apply_action(8)  # a new roll on the same card
    assert s.scores == [0, 1] and s.card() == "2"
    assert s.model.seen[1][0][0] == pytest.approx(1.09 / deck.median)


def test_ud6_exact_tie_nobody_scores_same_card(deck):
    s = scripted(deck, [[40.02, 39.98], [40.0, 40.2]], tie_window=0.1)
    s.apply_action(0)
    assert s.scores == [0, 0] and s.ties == 1 and s.card() == "1"
    s.apply_action(0)
    assert s.scores == [1, 0]


@pytest.mark.parametrize("t_a, t_b, outcome", [
    (40.04, 40.06, TIE),    # 0.02 s apart: a tie (rounding to 0.1 s bins made it a win: 400 vs 401)
    (40.051, 40.149, TIE),  # 0.098 s apart: a tie (also in the same rounded bin)
    (40.0, 40.1, A_SCORES),  # 0.1 s apart is not less than 0.1 s: A was first
    (40.149, 40.0, B_SCORES),
])
def test_ud6_times_less_than_the_window_apart_tie(deck, t_a, t_b, outcome):
    assert settle_duel(t_a, t_b, tie_window=0.1) == outcome
    s = scripted(deck, [[t_a, t_b]])  # the default window is 0.1 s (UD-6, "exactly the same moment")
    s.apply_action(0)
    assert s.history[0]["outcome"] == outcome and s.ties == (outcome == TIE)


def test_settle_duel_cases():
    assert settle_duel(31.0, 42.5) == A_SCORES
    assert settle_duel(INF, 100.0) == B_SCORES  # A gave up (or cannot solve), B solved
    assert settle_duel(299.0, INF) == A_SCORES
    assert settle_duel(INF, INF) == NEITHER
    assert settle_duel(20.04, 19.96, tie_window=0.1) == TIE
    assert settle_duel(20.0, 23.0, tie_window=5.0) == TIE


def test_ud5_give_up_time_applies_per_task():
    assert finish_time([299.0]) == 299.0 and finish_time([301.0]) == INF  # UD-5, 300 s per task
    assert finish_time([250.0, 200.0]) == 450.0  # UD-7: each task of the leader within 300 s
    assert finish_time([250.0, 301.0]) == INF and finish_time([INF, 5.0]) == INF


def test_ud7_handicap_two_rolls_for_the_leader(deck):
    # A leads 3:1 (field 3 is orange). Roll 1 (face 5) for A only, roll 2 (face 12) for both.
    # A: 20 s on roll 1, then 25 s on roll 2 = 45 s; B: 40 s on roll 2 -> B scores.
    s = scripted(deck, [[20.0, 25.0, 40.0]], handicap=True, scores=(3, 1), card_index=4)
    assert s.handicap_active()
    s.apply_action(4)
    assert s.roll1 == 5 and s.current_player() == CHANCE and s.scores == [3, 1]  # roll 1 alone scores nothing
    assert "roll 2" in s.action_to_string(11)
    s.apply_action(11)
    ratios, skills = s.model.seen[0]
    assert np.allclose(ratios, [5.05 / deck.median, 5.12 / deck.median, 5.12 / deck.median])
    assert s.scores == [3, 2] and s.history[-1]["times"] == [45.0, 40.0] and s.history[-1]["handicap"]
    # Without the variant the same 25 s vs 40 s would have scored for A.
    n = scripted(deck, [[25.0, 40.0]], handicap=False, scores=(3, 1))
    n.apply_action(11)
    assert n.scores == [4, 1]


def test_ud7_leader_b_and_skills(deck):
    s = DuelState(deck, "A", skills=(0.5, 2.0), model=Recorder([[10.0, 10.0, 30.0]]), handicap=True,
                  scores=(2, 4), seed=0)
    s.apply_action(0)
    s.apply_action(1)
    assert s.model.seen[0][1] == [2.0, 2.0, 0.5]  # leader B twice, then trailing A
    assert s.scores == [2, 5] and s.is_terminal()  # B: 20 s < A: 30 s


def test_ud7_equal_scores_or_not_orange_play_normally(deck):
    for scores in ((3, 3), (2, 0), (0, 0)):
        s = scripted(deck, [[10.0, 20.0]], handicap=True, scores=scores)
        assert not s.handicap_active()
        s.apply_action(0)  # one roll settles the duel
        assert s.scores[0] == scores[0] + 1 and len(s.model.seen[0][0]) == 2


def test_ud7_configurable_orange_fields(deck):
    s = scripted(deck, [[1.0, 1.0, 5.0]], handicap=True, scores=(2, 0), orange_fields=(2,))
    assert s.handicap_active()
    t = scripted(deck, [[1.0, 1.0]], handicap=True, scores=(3, 0), orange_fields=(2,))
    assert not t.handicap_active()
    # UD-7: either pawn on an orange field while one player leads; here the trailing pawn (2).
    u = scripted(deck, [[1.0, 1.0, 5.0]], handicap=True, scores=(3, 2), orange_fields=(2,))
    assert u.handicap_active() and u.leader() == 0
    u.apply_action(0)
    u.apply_action(0)
    assert u.scores == [4, 2] and u.history[-1]["handicap"]  # leader A: 1 + 1 = 2 s < B's 5 s
    assert not scripted(deck, [[1.0, 1.0]], handicap=True, scores=(2, 2), orange_fields=(2,)).handicap_active()
    with pytest.raises(InputError, match="UD-7"):
        DuelState(deck, orange_fields=(5,), handicap=True)


def test_ud7_leader_who_cannot_solve_roll_1_cannot_score(deck):
    s = scripted(deck, [[INF, 5.0, 200.0], [INF, 5.0, 400.0]], handicap=True, scores=(4, 0), give_up=300)
    s.apply_action(0)
    s.apply_action(0)
    assert s.scores == [4, 1]  # B solved roll 2 in 200 s, A never got past roll 1
    s.apply_action(0)
    s.apply_action(0)
    assert s.scores == [4, 1] and s.rerolls == 1  # UD-5 in a handicap duel: roll twice again
    assert s.history[-1]["seconds"] == 300.0  # both gave up at 300 s (A on roll 1)


def test_ud7_a_finished_match_has_no_handicap_roll(deck):
    # UD-4 ends the match at 5, so no duel follows and no roll is the leader's alone (UD-7). The strings of a
    # finished handicap match said "roll 1 (leader only)" while B's pawn stood on orange field 3.
    s = scripted(deck, [[1.0, 1.0, 5.0]], handicap=True, scores=(4, 3))
    assert s.handicap_active() and s.action_to_string(6) == "roll 1 (leader only) face 7"
    s.apply_action(6)
    assert s.action_to_string(0) == "roll 2 face 1"
    s.apply_action(0)
    assert s.scores == [5, 3] and s.is_terminal()
    assert not s.handicap_active() and s.action_to_string(6) == "roll face 7"
    assert not scripted(deck, [], handicap=True, scores=(3, 5)).handicap_active()


def test_ud7_give_up_caps_each_of_the_leaders_tasks_not_their_sum(deck):
    # Seed 000: UD-5 speaks of one figure; the leader solves two, each within the 300 s give-up time.
    # A leads 3:0 and needs 250 s + 200 s = 450 s; B gives up after 300 s: A still scores.
    s = scripted(deck, [[250.0, 200.0, 400.0]], handicap=True, scores=(3, 0), give_up=300)
    s.apply_action(0)
    s.apply_action(0)
    assert s.scores == [4, 0] and s.history[-1]["times"] == [450.0, INF] and s.history[-1]["seconds"] == 450.0
    # B solving roll 2 in 299 s beats A's 450 s.
    s = scripted(deck, [[250.0, 200.0, 299.0]], handicap=True, scores=(3, 0), give_up=300)
    s.apply_action(0)
    s.apply_action(0)
    assert s.scores == [3, 1]
    # A solves roll 1 in 250 s, gives up on roll 2 at 250 + 300 s; B gave up at 300 s: nobody, re-roll.
    s = scripted(deck, [[250.0, 301.0, 400.0]], handicap=True, scores=(3, 0), give_up=300)
    s.apply_action(0)
    s.apply_action(0)
    assert s.scores == [3, 0] and s.rerolls == 1 and s.history[-1]["seconds"] == 550.0


def test_ud5_endless_rerolls_are_an_error(deck):
    s = DuelState(deck, skills=(0.01, 0.01), model=SolveTimeModel(sigma=0.0), max_rerolls=50, seed=1)
    with pytest.raises(InputError, match="no point scored on card 1 in 50 rolls"):
        play_game(s, ())
    # The 50th roll is played and recorded before the deck is refused: its action with its duel, as in a replay.
    assert len(s.actions) == len(s.history) == s.rerolls == 50
    tie = DuelState(deck, model=SolveTimeModel(sigma=0.0), max_rerolls=30, seed=1)
    with pytest.raises(InputError, match="UD-6"):  # equal players without noise tie for ever
        play_game(tie, ())
    with pytest.raises(InputError, match="UD-5"):
        simulate_duel(deck, 1, 0.01, 0.01, model=SolveTimeModel(sigma=0.0))


# ------------------------------------------------------- property tests
@settings(deadline=None, max_examples=40)
@given(seed=st.integers(0, 10**6), sa=st.floats(0.5, 5.0), sb=st.floats(0.5, 5.0), handicap=st.booleans(),
       side=st.sampled_from(["A", "B"]), orange=st.sets(st.integers(1, 4), max_size=4),
       sigma=st.floats(0.05, 1.5))
def test_properties_match_ends_with_one_at_five(deck, seed, sa, sb, handicap, side, orange, sigma):
    s = DuelState(deck, side, skills=(sa, sb), handicap=handicap, orange_fields=orange,
                  model=SolveTimeModel(sigma=sigma), seed=seed)
    prev = list(s.scores)
    steps = 0
    while not s.is_terminal():
        s.apply_action(s.sample_chance())
        assert s.scores[0] >= prev[0] and s.scores[1] >= prev[1]  # scores only grow ...
        assert sum(s.scores) - sum(prev) <= 1  # ... by one point per duel at most (UD-3)
        prev = list(s.scores)
        steps += 1
        assert steps < 10_000
    assert sorted(s.scores)[1] == 5 and sorted(s.scores)[0] < 5  # exactly one player at 5 (UD-4)
    assert s.card_index == sum(s.scores) <= 9


def test_seeded_matches_replay_the_saved_table():
    # Saved playthroughs: 40 handicap matches on the shipped Duel deck, written by the previous
    # implementation (its separate fast loop); the UD-6/UD-7 readings change none of them. The
    # deck's ratings of that time are kept beside them (issue 13 changed the rating formula).
    games = Path(__file__).parent / "data" / "games"
    want = pd.read_csv(games / "duel_seed7.csv")
    got = simulate_duel(games / "duel_tasks_2026.csv", 40, 1.0, 0.8, 7, handicap=True)
    pd.testing.assert_frame_equal(got[list(want.columns)], want, check_dtype=False)


def test_simulate_duel_table_and_summary(deck):
    t = simulate_duel(deck, 200, 1.0, 1.0, seed=1)
    assert len(t) == 200 and set(t["winner"]) <= {"A", "B"}
    assert ((t[["score_a", "score_b"]].max(axis=1)) == 5).all()
    assert (t["duels"] >= t["score_a"] + t["score_b"]).all()
    assert (t["handicap_duels"] == 0).all()
    s = summarise_duel(t)
    assert math.isclose(s["win_rate_a"].iloc[0] + s["win_rate_b"].iloc[0], 1.0)
    # equal players: the win rate is 1/2 within 4 standard errors (sd of a mean of 200 coin flips = 0.035)
    assert abs(s["win_rate_a"].iloc[0] - 0.5) < 0.15


def test_faster_player_wins_more_and_handicap_helps_the_slower(deck):
    sweep = handicap_sweep(deck, [0.6], games=400, seed=2)
    row = sweep.iloc[0]
    assert row["win_b_normal"] < 0.3  # B is much slower
    assert row["win_b_handicap"] > row["win_b_normal"]
    assert math.isclose(row["gain"], 100 * (row["win_b_handicap"] - row["win_b_normal"]))


def test_input_errors(deck):
    # Any deck runs (its spec gives the sides and the die), but only on one of its own sides.
    with pytest.raises(InputError, match="side 'A' is not one of easy, hard"):
        simulate_duel(TaskDeck(synthetic_tasks("classic"), "classic"), 3)
    assert len(simulate_duel(TaskDeck(synthetic_tasks("classic"), "classic"), 3, side="hard")) == 3
    with pytest.raises(InputError, match="skills"):
        DuelState(deck, skills=(1.0, 0.0))
    with pytest.raises(InputError, match="at most one at 5"):
        DuelState(deck, scores=(5, 5))


def test_a_model_without_sample_or_a_deck_that_is_no_deck_is_refused(deck):
    with pytest.raises(InputError, match=r"model must be a solve-time model with a sample\(ratios, skills, rng\) "
                                         r"method \(SolveTimeModel\), got object"):
        DuelState(deck, "A", model=object())
    with pytest.raises(InputError, match=r"model must be a solve-time model .*got str"):
        DuelState(deck, "A", model="lognormal")
    with pytest.raises(InputError, match=r"deck must be a TaskDeck \(as_deck of a rated tasks table.*got 'duel'"):
        DuelState("duel", "A")
    assert isinstance(DuelState(deck, "A").model, SolveTimeModel)


# ------------------------------------------------------------------ CLI
class _SimulateParser:
    """``ubongo-cp simulate ...`` arguments parsed by the real command-line parser."""

    def parse_args(self, argv):
        from ubongo_cp.cli import build_parser

        return build_parser().parse_args(["simulate", *argv])


def _parser():
    return _SimulateParser()


def test_cli_duel(tmp_path, capsys):
    duel_frame().to_parquet(tmp_path / "tasks.parquet", index=False)
    args = _parser().parse_args(["duel", "--games", "50", "--skill-a", "1.2", "--skill-b", "0.8", "--handicap",
                                 "--tasks", str(tmp_path / "tasks.parquet"), "--out", str(tmp_path / "m.csv"),
                                 "--seed", "7"])
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert "50 Duel matches, side A, seed 7, tasks: " in out
    assert "; rules: --handicap (UD-7); settings: --skill-a 1.2, --skill-b 0.8\n" in out
    table = pd.read_csv(tmp_path / "m.csv")
    expected = simulate_duel(duel_frame(), 50, 1.2, 0.8, 7, handicap=True)
    assert table["winner"].tolist() == expected["winner"].tolist() and table["handicap"].all()


def test_cli_duel_bad_out_and_missing_columns(tmp_path):
    from ubongo_cp.cli.common import check_common

    args = _parser().parse_args(["duel", "--games", "5", "--synthetic", "--out", str(tmp_path / "x.txt")])
    with pytest.raises(InputError, match="--out must end in .csv, .parquet or .pq, not .txt"):
        check_common(args)   # as the command does, before any game
    duel_frame().drop(columns=["face"]).to_csv(tmp_path / "t.csv", index=False)
    args = _parser().parse_args(["duel", "--games", "5", "--tasks", str(tmp_path / "t.csv")])
    with pytest.raises(InputError, match=r"t\.csv: tasks table lacks column\(s\) face"):
        args.func(args)


def test_cli_duel_through_main(capsys):
    from ubongo_cp.cli import main

    assert main(["simulate", "duel", "--games", "20", "--synthetic", "--skill-b", "0.5"]) == 0
    assert "20 Duel matches" in capsys.readouterr().out
    assert main(["simulate", "duel", "--games", "2", "--synthetic", "--orange", "7", "--handicap"]) == 2


def test_cli_duel_orange_fields_are_a_set(tmp_path, monkeypatch, capsys):
    # UD-7's orange fields are a set of scores, as DuelState takes them: "--orange 4 3 3" is the board of
    # "--orange 3 4", said so in the header, played alike, and its journal resumes the other's.
    from ubongo_cp.cli import main
    from ubongo_cp.games.duel.sim import simulate_duel
    from ubongo_cp.games.tasks import as_deck, synthetic_tasks

    monkeypatch.chdir(tmp_path)
    base = ["simulate", "duel", "--games", "40", "--synthetic", "--skill-b", "0.7", "--handicap", "--no-progress"]
    assert main([*base, "--orange", "3", "4"]) == 0
    want = capsys.readouterr().out
    # 3 4 is the default board: the header names only the settings that differ from the defaults.
    assert want.startswith("40 Duel matches, side A, seed 0, tasks: synthetic deck; rules: --handicap (UD-7); "
                           "settings: --skill-b 0.7\n")
    assert main([*base, "--orange", "4", "3", "3", "--out", "t.csv"]) == 0
    assert capsys.readouterr().out == want + "\nwrote t.csv (40 rows)\n"
    assert main([*base, "--orange", "3", "4", "--out", "t.csv"]) == 0
    out = capsys.readouterr()
    assert out.err == "ubongo-cp: resuming from t.jsonl: 40 game(s) already played are taken from it\n"
    assert out.out == want + "\nwrote t.csv (40 rows)\n"
    sweep = ["simulate", "duel", "--games", "4", "--synthetic", "--sweep", "1.5", "--orange", "4", "1", "4"]
    assert main(sweep) == 0
    assert "skill A 1, orange fields 1 4, sigma" in capsys.readouterr().out.splitlines()[0]
    deck = as_deck(synthetic_tasks("duel"), "duel")
    table = simulate_duel(deck, 30, 1.0, 0.7, handicap=True, orange_fields=[4, 3, 3], journal=tmp_path / "j.jsonl")
    pd.testing.assert_frame_equal(table, simulate_duel(deck, 30, 1.0, 0.7, handicap=True, orange_fields={3, 4},
                                                       journal=tmp_path / "j.jsonl"))


def test_a_sweep_is_of_the_slower_player_and_refuses_a_faster_b(capsys):
    # The sweep's table and plot are the slower player's (B): a speed gap below 1 (B the faster player) was
    # played and printed as "the slower player B" (B winning 100 %); it is refused, by the command line in its
    # words and by handicap_sweep for a slow skill above the fast one. A gap of 1 (equal speed) stays.
    from ubongo_cp.cli import main

    assert main(["simulate", "duel", "--games", "4", "--synthetic", "--sweep", "1.5", "0.8"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err == ("ubongo-cp: error: --sweep takes speed gaps of at least 1 (skill A / skill "
                                         "B: B is the slower player), got 0.8\n")
    deck = synthetic_tasks("duel")
    with pytest.raises(InputError) as info:
        handicap_sweep(deck, [0.5, 1.25], games=4, fast_skill=1.0)
    assert str(info.value) == "slow skill 1.25 is above the fast skill 1: player B of the sweep is the slower player"
    assert handicap_sweep(deck, [1.0], games=4)["speed_ratio"].tolist() == [1.0]
    assert main(["simulate", "duel", "--games", "4", "--synthetic", "--sweep", "1"]) == 0
    assert "win rate of the slower player B" in capsys.readouterr().out


def test_cli_duel_sweep_writes_table_and_plot(tmp_path, capsys):
    args = _parser().parse_args(["duel", "--synthetic", "--games", "60", "--sweep", "1", "1.5", "--out",
                                 str(tmp_path / "s.csv"), "--plot", str(tmp_path / "s.png")])
    assert args.func(args) == 0
    assert "B wins, handicap" in capsys.readouterr().out
    sweep = pd.read_csv(tmp_path / "s.csv")
    assert sweep["skill_b"].tolist() == pytest.approx([1.0, 1 / 1.5])
    expected = handicap_sweep(synthetic_tasks("duel"), [1.0, 1 / 1.5], games=60, seed=0)
    assert sweep["win_b_handicap"].tolist() == pytest.approx(expected["win_b_handicap"].tolist())
    assert (tmp_path / "s.png").stat().st_size > 1000


def test_cli_duel_sweep_plot_never_writes_its_png_over_a_table(tmp_path, monkeypatch, capsys):
    # --plot times.csv wrote a PNG image over the user's CSV table of times (any header passed the CSV rule).
    from ubongo_cp.cli import main

    monkeypatch.chdir(tmp_path)
    table = "card,side,face,player,seconds\n01,easy,1,ana,44.7\n"
    (tmp_path / "times.csv").write_text(table)
    assert main(["simulate", "duel", "--synthetic", "--games", "10", "--sweep", "1", "--plot", "times.csv",
                 "--no-progress"]) == 2
    assert "times.csv: --plot must end in .png, not .csv" in capsys.readouterr().err
    assert (tmp_path / "times.csv").read_text() == table


# ----------------------------------------------- CLI rough edges (issue 14)
@pytest.mark.parametrize("argv, message", [
    (["--skill-b", "inf"], "--skill-b must be a finite number > 0, got inf"),
    (["--skill-a", "-1"], "--skill-a must be a finite number > 0, got -1.0"),
    (["--sweep", "1", "0"], "--sweep must be a finite number > 0, got 0.0"),
    (["--sweep", "nan"], "--sweep must be a finite number > 0, got nan"),
    (["--sigma", "inf"], "--sigma must be a number from 0 to 30, got inf"),
    (["--sigma", "nan"], "--sigma must be a number from 0 to 30, got nan"),
    # 1e308 once ran with numpy overflow warnings and printed a meaningless table.
    (["--sigma", "1e308"], "--sigma must be a number from 0 to 30, got 1e+308"),
    (["--sigma", "30.5"], "--sigma must be a number from 0 to 30, got 30.5"),
])
def test_cli_duel_refuses_odd_numbers(argv, message, capsys):
    from ubongo_cp.cli import main

    assert main(["simulate", "duel", "--games", "2", "--synthetic", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


def test_cli_duel_and_sweep_show_progress_unless_told_not_to(capsys, monkeypatch):
    import ubongo_cp.cli.simulate
    from ubongo_cp.cli import main

    assert main(["simulate", "duel", "--games", "3", "--synthetic"]) == 0
    assert capsys.readouterr().err == ""  # standard error is no terminal here: no bar
    monkeypatch.setattr(ubongo_cp.cli.simulate, "show_bar", lambda args: not args.no_progress)  # as on a terminal

    assert main(["simulate", "duel", "--games", "3", "--synthetic"]) == 0
    assert "duel matches: 100%" in capsys.readouterr().err
    assert main(["simulate", "duel", "--games", "3", "--synthetic", "--sweep", "1.5"]) == 0
    assert capsys.readouterr().err.count("duel matches: 100%") == 1  # one bar: normal and handicap, 3 + 3 matches
    assert main(["simulate", "duel", "--games", "3", "--synthetic", "--sweep", "1.5", "--no-progress"]) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("field,value,message", [
    ("handicap", "yes", "handicap must be true or false"),
    ("skills", [True, 1], "must be 2 finite numbers > 0"),
    ("max_rerolls", -5, "max_rerolls must be a whole number >= 1"),
    ("card_index", -7, "card index -7 must be a whole number 0..8 (UD-1"),
    ("card_index", 1000000, "card index 1000000 must be"),
    ("scores", ["1", 0], "must be two whole numbers"),
])
def test_a_duel_record_with_malformed_settings_is_refused(deck, tmp_path, field, value, message):
    import json

    from ubongo_cp.games.base import load_record, save_record

    s = DuelState(deck, "A", handicap=True, skills=(1.0, 0.8), seed=3)
    while not s.is_terminal():
        s.apply_action(s.sample_chance())
    path = tmp_path / "duel.json"
    save_record(s, path)
    assert load_record(path).scores == s.scores
    record = json.loads(path.read_text())
    (record["start"] if field in ("card_index", "scores") else record["settings"])[field] = value
    path.write_text(json.dumps(record))
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace("[", r"\[")):
        load_record(path)


def test_a_duel_record_solving_a_task_without_solution_is_refused(deck, tmp_path):
    # UD-3: the first to cover the region scores; a task with no solution is covered by nobody.
    import json

    from ubongo_cp.games.base import load_record, save_record

    s = DuelState(deck, "A", seed=3)
    while not s.is_terminal():
        s.apply_action(s.sample_chance())
    path = tmp_path / "duel.json"
    save_record(s, path)
    record = json.loads(path.read_text())
    record["deck"]["ratios"] = [[None] * len(r) for r in record["deck"]["ratios"]]
    path.write_text(json.dumps(record))
    with pytest.raises(IllegalActionError, match=r"move 1: player 0 solves a task with no solution in .* \(UD-3\)"):
        load_record(path)


@pytest.mark.parametrize("fields, message", [
    ([math.nan], "orange fields [nan] must be whole numbers (UD-7)"),
    ([math.inf], "orange fields [inf] must be whole numbers (UD-7)"),
    (["x"], "orange fields ['x'] must be whole numbers (UD-7)"),
    (None, "orange fields null must be whole numbers (UD-7)"),
    (3, "orange fields 3 must be whole numbers (UD-7)"),
    ([5], "orange fields [5] must lie in 1..4 (UD-7)"),
])
def test_simulations_name_bad_orange_fields_as_the_state_does(deck, fields, message):
    # UD-7's orange fields are checked in one place, DuelState's: simulate_duel and handicap_sweep had a check
    # of their own (int(f)), so NaN, inf or "x" were a raw ValueError or OverflowError and None or 3 a TypeError.
    with pytest.raises(InputError) as state:
        DuelState(deck, handicap=True, orange_fields=fields)
    assert str(state.value) == message
    for run in (lambda: simulate_duel(deck, 2, handicap=True, orange_fields=fields),
                lambda: handicap_sweep(deck, [1.0], 2, orange_fields=fields)):
        with pytest.raises(InputError) as info:
            run()
        assert str(info.value) == message


@pytest.mark.parametrize("skill, shown", [("x", "['x', 1.0]"), (None, "[null, 1.0]"), ([1.0], "[[1.0], 1.0]"),
                                          (10**400, "[1" + "0" * 35 + "...")])   # cut as every message cuts
def test_simulations_name_bad_skills_as_the_state_does(deck, skill, shown):
    # simulate_duel and handicap_sweep checked skills with 0 < s < inf of their own: "x", None or [1.0] was a
    # raw TypeError; now the state's one line (SolveTimeModel skills: finite numbers > 0).
    message = f"skills {shown} must be 2 finite numbers > 0"
    with pytest.raises(InputError) as state:
        DuelState(deck, skills=[skill, 1.0])
    assert str(state.value) == message
    for run in (lambda: simulate_duel(deck, 2, skill, 1.0), lambda: handicap_sweep(deck, [1.0], 2, fast_skill=skill)):
        with pytest.raises(InputError) as info:
            run()
        assert str(info.value) == message


@pytest.mark.parametrize("slow, message", [
    ([1.0, "x"], "skills [1.0, 'x'] must be 2 finite numbers > 0"),
    ([0.8, 0], "skills [1.0, 0] must be 2 finite numbers > 0"),
    (0.8, "slow_skills must be a list of skills, got 0.8"),
])
def test_handicap_sweep_checks_every_slow_skill_before_any_match(deck, monkeypatch, slow, message):
    # A bad second slow skill was found only once the first one's matches (both variants) had been played.
    import ubongo_cp.games.duel.sim as sim

    played = []
    run = sim.simulate_duel
    monkeypatch.setattr(sim, "simulate_duel", lambda *args, **kwargs: played.append(args) or run(*args, **kwargs))
    with pytest.raises(InputError) as info:
        handicap_sweep(deck, slow, 2)
    assert str(info.value) == message and played == []


def test_cli_header_names_the_skills_and_noise_that_differ_from_the_defaults(capsys):
    # --skill-a, --skill-b and --sigma change the matches played (the solve times drawn), so saved output of a
    # run with them tells it from a default run: the header names each one given other than its default, as
    # given; they are no rule, so they follow the rules, without a rule id.
    from ubongo_cp.cli import main
    from ubongo_cp.games.duel.sim import simulate_duel
    from ubongo_cp.games.tasks import SolveTimeModel, synthetic_tasks

    base = ["simulate", "duel", "--games", "3", "--synthetic", "--no-progress"]
    assert main(base) == 0
    assert capsys.readouterr().out.splitlines()[0] == "3 Duel matches, side A, seed 0, tasks: synthetic deck"
    assert main([*base, "--skill-b", "0.5"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "3 Duel matches, side A, seed 0, tasks: synthetic deck; settings: --skill-b 0.5")
    assert main([*base, "--skill-a", "1", "--handicap", "--sigma", "0.1", "--skill-a", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "3 Duel matches, side A, seed 0, tasks: synthetic deck; rules: --handicap (UD-7); "
        "settings: --skill-a 2, --sigma 0.1")
    # What the header names does change the matches.
    deck = synthetic_tasks("duel")
    default = simulate_duel(deck, 3, 1.0, 1.0, 0)
    assert not simulate_duel(deck, 3, 1.0, 0.5, 0).equals(default)
    assert not simulate_duel(deck, 3, 1.0, 1.0, 0, model=SolveTimeModel(sigma=0.1)).equals(default)
