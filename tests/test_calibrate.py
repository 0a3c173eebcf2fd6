"""Difficulty fitted to playtest times (ubongo-cp calibrate): a known model is recovered, the fitted model
rates a deck, and bad times files get one clear line.

The synthetic times are drawn here from a model whose weights we choose, on the features of the shipped
classic deck's 432 rated tasks (ubongo_cp.calibrate.task_features, checked by hand on one task below):
ln(seconds) = b0 + b . x + u_player + N(0, 0.25^2).
"""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd
import pytest

from ubongo_cp.calibrate import FEATURES, fit_difficulty, load_model, task_features
from ubongo_cp.errors import InputError
from ubongo_cp.report import load_tasks
from ubongo_cp.shipped import deck_tasks_path

# (No region of the shipped classic deck is symmetric, nor has a task two solutions: symmetry and
# solutions are the same in every row there, and are left out of the fit.)
TRUE = {"search": 0.30, "placements": 0.45, "pieces": 0.20, "cells": 0.05}
B0, SIGMA = 1.2, 0.25
PLAYERS = {"ana": 0.0, "ben": 0.4, "cy": -0.3}


@pytest.fixture(scope="module")
def tasks() -> pd.DataFrame:
    return load_tasks(deck_tasks_path("classic"))


def synthetic_times(tasks: pd.DataFrame, seed: int = 3, per_task: int = 2) -> pd.DataFrame:
    """Every task timed by ``per_task`` of the three players (picked at random), from the TRUE model."""
    rng = np.random.default_rng(seed)
    x = task_features(tasks)
    mean = B0 + sum(TRUE[f] * x[f].to_numpy() for f in TRUE)
    names = list(PLAYERS)
    picks = np.array([rng.choice(len(names), size=per_task, replace=False) for _ in range(len(tasks))])
    rows = np.repeat(np.arange(len(tasks)), per_task)
    who = picks.ravel()
    log_s = mean[rows] + np.array([PLAYERS[names[w]] for w in who]) + SIGMA * rng.standard_normal(len(rows))
    return pd.DataFrame({"card": tasks["card_id"].to_numpy()[rows], "side": tasks["side"].to_numpy()[rows],
                         "face": tasks["face"].to_numpy(dtype=int)[rows], "seconds": np.round(np.exp(log_s), 3),
                         "player": [names[w] for w in who]})


def test_features_by_hand(tasks):
    # Card 01 easy face 1: I3 S4 P5 on 12 cells, 10 DLX nodes for its 1 solution, difficulty 7.474...
    row = tasks[(tasks["card_id"] == "01") & (tasks["side"] == "easy") & (tasks["face"] == 1)]
    x = task_features(row).iloc[0]
    assert x["search"] == pytest.approx(math.log2(1 + 10 / 1))
    assert x["search"] + x["placements"] == pytest.approx(7.474381960103269)   # the built-in rating
    assert (x["pieces"], x["cells"], x["solutions"]) == (3, 12, 0)
    # Its region (rows .###. / ##### / ###.. of the solution) has no symmetry: log2(1) = 0.
    assert x["symmetry"] == 0


def test_a_known_model_is_recovered_within_its_intervals(tasks, tmp_path, run_cli):
    times = synthetic_times(tasks)
    times.to_csv(tmp_path / "times.csv", index=False)
    model = fit_difficulty(tmp_path / "times.csv", deck_tasks_path("classic"))
    assert model.dropped == ("symmetry", "solutions") and model.features == tuple(TRUE)
    for f, w in TRUE.items():
        lo, hi = model.intervals[f]
        se = (hi - lo) / 2 / 1.96
        assert abs((lo + hi) / 2 - w) < 3 * se, (f, w, lo, hi)   # the estimate within 3 standard errors
        assert hi - lo < 0.5       # informative intervals, not a pass by width
    assert model.players["ana"] == 0.0
    assert model.players["ben"] == pytest.approx(0.4, abs=0.06) and model.players["cy"] == pytest.approx(-0.3, abs=0.06)
    assert model.sigma == pytest.approx(SIGMA, rel=0.1)
    # Most of the variance is the model's (the features, the players): R^2 high, cross-validation close to it.
    assert 0.6 < model.r2 < 1 and model.r2 - 0.05 < model.cv_r2 <= model.r2 + 0.01
    # The same through the command line; the model file holds the fit.
    code, out, err = run_cli("calibrate", tmp_path / "times.csv", "--results", deck_tasks_path("classic"),
                             "--out", tmp_path / "model.json")
    assert code == 0, err
    assert "cross-validated R\u00b2" in out and "left out (the same in every row): symmetry, solutions" in out
    # The printed intercept is the reference player's, and says so; the file's (an average player's) is printed too.
    mean_effect = sum(model.players.values()) / 3
    assert f"{'intercept':<12}{model.intercept - mean_effect:>10.4f}" in out
    assert "(player ana, the reference)" in out
    assert f"an average player of the playtest, as the model rates: intercept {model.intercept:.4f}" in out
    saved = json.loads((tmp_path / "model.json").read_text())
    assert saved["weights"] == pytest.approx(model.weights) and saved["rows"] == len(times) == 864
    assert load_model(tmp_path / "model.json").weights == pytest.approx(model.weights)


def test_the_95_percent_intervals_cover_the_true_weights_95_percent_of_the_time(tasks):
    # 20 independent playtests x 4 weights: each interval holds its weight with probability 0.95, so the
    # number of hits is Binomial(80, 0.95) (mean 76); P(fewer than 70) < 0.01.
    hits = 0
    for seed in range(100, 120):
        model = fit_difficulty(synthetic_times(tasks, seed=seed, per_task=1), tasks)
        hits += sum(model.intervals[f][0] <= w <= model.intervals[f][1] for f, w in TRUE.items())
    assert 70 <= hits <= 80, hits


def test_noise_alone_gives_no_cross_validated_fit(tasks, tmp_path):
    rng = np.random.default_rng(1)
    times = pd.DataFrame({"card": tasks["card_id"], "side": tasks["side"], "face": tasks["face"],
                          "seconds": np.exp(3 + 0.5 * rng.standard_normal(len(tasks)))})
    model = fit_difficulty(times, tasks)
    assert model.cv_r2 < 0.02 and model.r2 < 0.05
    for f in model.features:
        lo, hi = model.intervals[f]
        assert lo <= 0 <= hi or f == "pieces", f      # no feature matters (up to the 5 % a 95 % interval misses)


def test_a_player_with_one_timed_solve_is_cross_validated_as_the_average_player(tasks):
    # Every solve of "dan" falls in one fold: the fits on the other folds have no column for dan. They were
    # rank-deficient (statsmodels warned, on the command line too, and the pooled R^2 moved); dan's one row
    # is now predicted as the average player of that fit, and the rest as before.
    import warnings

    times = synthetic_times(tasks, per_task=1)
    base = fit_difficulty(times, tasks)
    dan = pd.concat([times, times.iloc[[0]].assign(player="dan")], ignore_index=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        model = fit_difficulty(dan, tasks)
    assert set(model.players) == {"ana", "ben", "cy", "dan"} and model.rows == len(times) + 1
    # One row more among 433 moves the pooled out-of-sample fit by little.
    assert model.cv_r2 == pytest.approx(base.cv_r2, abs=0.01) and model.cv_r2 > 0.5


def test_batch_rates_with_the_fitted_model(tasks, tmp_path, run_cli):
    from ubongo_cp.booklet import task_views
    from ubongo_cp.booklet.views import results_index
    from ubongo_cp.cards import load_deck

    synthetic_times(tasks).to_csv(tmp_path / "times.csv", index=False)
    assert run_cli("calibrate", tmp_path / "times.csv", "--results", deck_tasks_path("classic"), "--out",
                   tmp_path / "m.json")[0] == 0
    deck = tmp_path / "deck"
    deck.mkdir()
    for name in ("01_easy.toml", "01_hard.toml"):
        (deck / name).write_text((deck_tasks_path("classic").parent / name).read_text())
    code, out, err = run_cli("batch", deck, "--out", tmp_path / "res", "--difficulty-model", tmp_path / "m.json",
                             "--no-progress")
    assert code == 0, err
    rated = load_tasks(tmp_path / "res")
    model = load_model(tmp_path / "m.json")
    # The difficulty is the model's prediction for an average player, in seconds, computed here by hand.
    x = task_features(rated)
    by_hand = np.exp(model.intercept + sum(model.weights[f] * x[f] for f in model.features))
    assert np.allclose(rated["difficulty"], by_hand) and (rated["difficulty_model"] == "m.json").all()
    assert "predicted seconds to solve, for an average playtester (m.json" in (tmp_path / "res" / "summary.md").read_text()
    # The booklet says so under its numbers.
    cards, _ = load_deck(deck)
    views = task_views(cards[0], results_index(rated))
    assert views[0].legend.startswith("difficulty: predicted seconds") and views[0].difficulty == pytest.approx(
        float(rated["difficulty"].iloc[0]))


@pytest.mark.parametrize("content, message", [
    ("card,side,face,seconds\n01,easy,1,30\n", "too few timed solves: 1 rows"),
    ("card,side,face,seconds\n01,easy,1,30\n99,easy,1,20\n", "t.csv:3: card 99 side easy face 1 is not in the batch"),
    ("card,side,face,seconds\n01,easy,7,30\n", "t.csv:2: card 01 side easy face 7 is not in the batch"),
    # a card id the batch writes otherwise: the message names the batch's
    ("card,side,face,seconds\n01,easy,1,30\nX1,easy,2,20\n", "t.csv:3: card X1 side easy face 2 is not in the "
                                                               f"batch results ({deck_tasks_path('classic')})"),
    ("card,side,face,seconds\n01,easy,1,-3\n", "t.csv:2: seconds '-3' is not a number > 0"),
    ("card,side,face,seconds\n01,easy,x,3\n", "t.csv:2: face 'x' is not a whole number"),
    ("card,side,seconds\n01,easy,3\n", "lacks column(s) face"),
    ("card;side;face;seconds\n01;easy;1;30\n", "t.csv:1: not a CSV table: its fields are separated by ';', not "
                                                "commas: save it with commas"),
    # The same with decimal commas, which split the rows: said of the header line (once of line 2, as a row of
    # 2 fields where the header line has 1).
    ("card;side;face;seconds\n01;easy;1;30,5\n", "t.csv:1: not a CSV table: its fields are separated by ';', not "
                                                 "commas: save it with commas"),
    ("card\tside\tface\tseconds\n01\teasy\t1\t30\n", "t.csv:1: not a CSV table: its fields are separated by "
                                                      "'\\t', not commas: save it with commas"),
    # An empty name was one more player, taken as the reference of every player effect.
    ("card,side,face,seconds,player\n01,easy,1,30,ana\n01,easy,2,20,\n",
     "t.csv:3: no player is named on this line, but line 2 names one"),
    # Once pandas' own words ("Error tokenizing data. C error: ..."), the line not in front.
    ("card,side,face,seconds\n01,easy,1,30\n01,easy,2,20,9\n", "t.csv:3: not a CSV table: 5 fields where the header "
                                                                 "line has 4"),
    # A first row with a field more was read as having an index column: every field shifted by one.
    ("card,side,face,player,seconds\n01,easy,1,ana,17.83,extra\n01,easy,2,ana,12\n",
     "t.csv:2: not a CSV table: 6 fields where the header line has 5"),
    # A blank line (no row to pandas) and a quoted player name over two lines: once named lines 3 and 4, the
    # rows counted from the header line, not the lines of the file.
    ("card,side,face,player,seconds\n01,easy,1,ana,30\n\n01,easy,2,ana,abc\n",
     "t.csv:4: seconds 'abc' is not a number > 0"),
    ('card,side,face,player,seconds\n01,easy,1,"ana\nb",30\n01,easy,2,ana,-1\n',
     "t.csv:4: seconds '-1' is not a number > 0"),
    ("card,side,face,seconds\n01,easy,1,30\n\n\n99,easy,1,20\n", "t.csv:5: card 99 side easy face 1 is not in"),
    ("card,side,face,seconds\n\n01,easy,1,30,\n", "t.csv:3: not a CSV table: 5 fields where the header line has 4"),
    # A column named twice: pandas named the second 'seconds.1' and the fit took the first, the other unread.
    ("card,side,face,seconds,seconds\n01,easy,1,30,ana\n01,easy,2,20,ben\n01,easy,3,25,ana\n",
     "t.csv:1: the header line names column 'seconds' twice"),
    ("\ncard,side,face, player,seconds,player\n01,easy,1,ana,30,ben\n01,easy,2,ana,20,ben\n",
     "t.csv:2: the header line names column 'player' twice"),
    # A quote never closed: once pandas' "EOF inside string starting at row 3", no line (and its row 3 is line 5
    # here, after a blank line and a quoted name over two lines).
    ('card,side,face,player,seconds\n01,easy,1,"ana\nb",30\n\n01,easy,2,"ana,20\n01,easy,3,ana,20\n',
     "t.csv:5: not a CSV table: a quoted field is never closed: its quote opens on this line"),
])
def test_bad_times_get_one_clear_line(tmp_path, run_cli, content, message):
    (tmp_path / "t.csv").write_text(content)
    code, out, err = run_cli("calibrate", tmp_path / "t.csv", "--results", deck_tasks_path("classic"),
                             "--out", tmp_path / "m.json")
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "m.json").exists()


def test_a_card_number_without_its_leading_zero_is_the_batchs_card(tasks):
    # A spreadsheet saves card "08" as 8: once refused ("the batch has card 08"); the same fit now.
    times = synthetic_times(tasks, per_task=1)
    stripped = times.assign(card=[str(int(c)) for c in times["card"]])
    assert (stripped["card"] != times["card"]).any()
    a, b = fit_difficulty(times, tasks), fit_difficulty(stripped, tasks)
    assert a.weights == b.weights and a.intercept == b.intercept and a.cv_r2 == b.cv_r2


def test_a_results_table_with_a_spreadsheets_empty_row_gives_the_same_fit(tasks, tmp_path, run_cli):
    # A spreadsheet re-saving tasks.csv writes a row of empty fields (",,,,"): once "TypeError: int() argument
    # must be ... not 'NAType'" (exit 1) from its missing face; that row is the key of no task.
    times = synthetic_times(tasks, per_task=1)
    times.to_csv(tmp_path / "times.csv", index=False)
    raw = pd.read_csv(deck_tasks_path("classic"), dtype=str, keep_default_na=False)
    blank = pd.DataFrame([[""] * raw.shape[1]], columns=raw.columns)
    pd.concat([raw.iloc[:5], blank, raw.iloc[5:]]).to_csv(tmp_path / "tasks.csv", index=False)
    assert ",,,,,," in (tmp_path / "tasks.csv").read_text().splitlines()[6]
    for name in ("plain", "edited"):
        results = deck_tasks_path("classic") if name == "plain" else tmp_path / "tasks.csv"
        code, out, err = run_cli("calibrate", tmp_path / "times.csv", "--results", results,
                                 "--out", tmp_path / f"{name}.json")
        assert code == 0, err
    assert load_model(tmp_path / "plain.json").weights == load_model(tmp_path / "edited.json").weights
    # A task's row that lost its face is refused, on one line naming the results file and line (it was the key of
    # no task, and the times of that task "not in the batch results").
    raw.loc[0, "face"] = ""
    raw.to_csv(tmp_path / "tasks.csv", index=False)
    code, out, err = run_cli("calibrate", tmp_path / "times.csv", "--results", tmp_path / "tasks.csv",
                             "--out", tmp_path / "m.json")
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert f"{tmp_path / 'tasks.csv'}:2: column face is empty in a task's row" in err


def test_a_times_table_with_a_spreadsheets_empty_rows_gives_the_same_fit(tasks, tmp_path, run_cli):
    # Rows emptied in a spreadsheet are saved as rows of empty fields (",,,,"): once refused ("face '' is not a
    # whole number >= 1"), where a tasks table skips them; they are no timed solve.
    times = synthetic_times(tasks, per_task=1)
    times.to_csv(tmp_path / "times.csv", index=False)
    lines = (tmp_path / "times.csv").read_text().splitlines()
    edited = lines[:4] + [",,,,", " , ,,,"] + lines[4:] + [",,,,"]
    (tmp_path / "edited.csv").write_text("\n".join(edited) + "\n")
    for name in ("times", "edited"):
        code, out, err = run_cli("calibrate", tmp_path / f"{name}.csv", "--results", deck_tasks_path("classic"),
                                 "--out", tmp_path / f"{name}.json")
        assert code == 0, err
        assert f"fitted on {len(times)} timed solves of {len(times)} tasks" in out
    plain, edit = load_model(tmp_path / "times.json"), load_model(tmp_path / "edited.json")
    assert plain.weights == edit.weights and plain.intercept == edit.intercept and plain.cv_r2 == edit.cv_r2
    # A bad row after them is named by its line of the file.
    edited[7] = edited[7].rsplit(",", 2)[0] + ",x," + edited[7].rsplit(",", 1)[1]
    (tmp_path / "edited.csv").write_text("\n".join(edited) + "\n")
    code, out, err = run_cli("calibrate", tmp_path / "edited.csv", "--results", deck_tasks_path("classic"),
                             "--out", tmp_path / "m.json")
    assert code == 2 and f"{tmp_path / 'edited.csv'}:8: seconds 'x' is not a number > 0" in err, err


def test_a_times_header_in_capitals_names_the_same_columns(tasks, tmp_path, run_cli):
    # A spreadsheet's header "Card,Side,Face,Player,Seconds": once "times table lacks column(s) card, side,
    # face, seconds", which the file seemed to have.
    times = synthetic_times(tasks, per_task=1)
    times.to_csv(tmp_path / "times.csv", index=False)
    times.rename(columns=str.title).to_csv(tmp_path / "title.csv", index=False)
    times.rename(columns={"seconds": " SECONDS"}).to_csv(tmp_path / "upper.csv", index=False)
    assert (tmp_path / "title.csv").read_text().startswith("Card,Side,Face,Seconds,Player\n")
    for name in ("times", "title", "upper"):
        code, out, err = run_cli("calibrate", tmp_path / f"{name}.csv", "--results", deck_tasks_path("classic"),
                                 "--out", tmp_path / f"{name}.json")
        assert code == 0 and f"by {len(PLAYERS)} players" in out, err
    models = [load_model(tmp_path / f"{name}.json") for name in ("times", "title", "upper")]
    assert all(m.weights == models[0].weights and m.players == models[0].players for m in models)
    # Two columns of one name but for capitals are two columns: neither is taken for the other.
    times.assign(Card="X9").to_csv(tmp_path / "both.csv", index=False)
    code, out, err = run_cli("calibrate", tmp_path / "both.csv", "--results", deck_tasks_path("classic"),
                             "--out", tmp_path / "both.json")
    assert code == 0 and load_model(tmp_path / "both.json").weights == models[0].weights, err


def test_a_results_table_saved_with_semicolons_says_so(tasks, tmp_path, run_cli):
    # A tasks.csv re-saved by a spreadsheet with ';' between fields: once only "24 fields where the header line
    # has 1" (its fields hold commas: pieces' solutions), not what to do about it.
    from conftest import one_line_error

    synthetic_times(tasks).to_csv(tmp_path / "times.csv", index=False)
    raw = pd.read_csv(deck_tasks_path("classic"), dtype=str, keep_default_na=False)
    raw.to_csv(tmp_path / "tasks.csv", index=False, sep=";")
    code, out, err = run_cli("calibrate", tmp_path / "times.csv", "--results", tmp_path / "tasks.csv",
                             "--out", tmp_path / "m.json")
    one_line_error(code, err, f"ubongo-cp: error: {tmp_path / 'tasks.csv'}:1: not a batch result table: not a CSV "
                              "table: its fields are separated by ';', not commas: save it with commas\n")


def test_bad_model_file_is_bad_input(tmp_path, run_cli):
    (tmp_path / "m.json").write_text('{"format": "something else"}')
    code, _, err = run_cli("batch", "classic", "--out", tmp_path / "o", "--difficulty-model", tmp_path / "m.json")
    assert code == 2 and "not a difficulty model" in err
    assert set(FEATURES) >= {"search", "placements"}


@pytest.mark.parametrize("change, message", [
    # Once a KeyError (exit 1) for the columns the features come from; card_id and status were checked.
    ({"drop": ["search_nodes"]}, "tasks table lacks column(s) search_nodes, which calibrate reads"),
    ({"drop": ["count"]}, "tasks table lacks column(s) count, which calibrate reads"),
    ({"drop": ["card_id", "status", "n_pieces"]}, "tasks table lacks column(s) card_id, status, n_pieces, which "
                                                  "calibrate reads"),
    ({"drop": ["difficulty"]}, "tasks table lacks column(s) placements_per_cell (or difficulty), which calibrate reads"),
    # A table whose search column has another name: the column the fit reads is named.
    ({"rename": {"search_nodes": "nodes"}}, "tasks table lacks column(s) search_nodes, which calibrate reads"),
])
def test_a_results_table_without_a_column_the_fit_reads_gets_one_clear_line(tasks, tmp_path, run_cli, change,
                                                                             message):
    from conftest import one_line_error

    synthetic_times(tasks).to_csv(tmp_path / "times.csv", index=False)
    raw = pd.read_csv(deck_tasks_path("classic"), dtype=str, keep_default_na=False)
    # (The shipped classic table has no placements_per_cell column: the difficulty stands in for it.)
    assert "placements_per_cell" not in raw.columns
    raw = raw.drop(columns=change.get("drop", [])).rename(columns=change.get("rename", {}))
    raw.to_csv(tmp_path / "tasks.csv", index=False)
    code, out, err = run_cli("calibrate", tmp_path / "times.csv", "--results", tmp_path / "tasks.csv",
                             "--out", tmp_path / "m.json")
    one_line_error(code, err, f"ubongo-cp: error: {tmp_path / 'tasks.csv'}: {message}\n")
    assert not (tmp_path / "m.json").exists()
    # A batch output directory holding that table: the message names the table file.
    (tmp_path / "res").mkdir()
    (tmp_path / "tasks.csv").rename(tmp_path / "res" / "tasks.csv")
    code, out, err = run_cli("calibrate", tmp_path / "times.csv", "--results", tmp_path / "res",
                             "--out", tmp_path / "m.json")
    one_line_error(code, err, f"ubongo-cp: error: {tmp_path / 'res' / 'tasks.csv'}: {message}\n")


def test_a_feature_named_twice_is_refused(tasks, tmp_path, run_cli):
    # Once "ValueError: The truth value of a Series is ambiguous" (exit 1): two columns of one name.
    from conftest import one_line_error

    synthetic_times(tasks).to_csv(tmp_path / "times.csv", index=False)
    code, out, err = run_cli("calibrate", tmp_path / "times.csv", "--results", deck_tasks_path("classic"),
                             "--out", tmp_path / "m.json", "--features", "cells", "search", "cells", "search")
    one_line_error(code, err, "ubongo-cp: error: feature(s) named more than once: search, cells (name each feature "
                              "to fit once)\n")
    assert not (tmp_path / "m.json").exists()
    with pytest.raises(InputError, match=r"named more than once: pieces \("):
        fit_difficulty(synthetic_times(tasks), tasks, features=("pieces", "pieces"))


def test_a_directory_given_as_the_times_is_refused_as_one_whatever_the_output(tasks, tmp_path, run_cli):
    # The output was compared with the folder first: "--out t/m.json would overwrite a file read from the times
    # directory", or "--out t would overwrite the times input", where the times are no directory to read.
    from conftest import one_line_error

    times = tmp_path / "t"
    times.mkdir()
    synthetic_times(tasks).to_csv(times / "times.csv", index=False)
    for out in (times / "m.json", times, tmp_path / "m.json"):
        code, _, err = run_cli("calibrate", times, "--results", deck_tasks_path("classic"), "--out", out)
        one_line_error(code, err)
        assert err == f"ubongo-cp: error: {times}: is a directory, expected a file\n"
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["t", "times.csv"]
    # The same for the other inputs that are files: a model, a game record.
    for argv in (["batch", "classic", "--difficulty-model", times, "--out", times],
                 ["simulate", "domino", "--replay", times, "--record", times / "g.json"]):
        code, _, err = run_cli(*argv)
        assert (code, err) == (2, f"ubongo-cp: error: {times}: is a directory, expected a file\n")


@pytest.mark.parametrize("change, message", [
    # Once raw Python errors (exit 1): "OverflowError: int too large to convert to float", and "ValueError:
    # Exceeds the limit (4300 digits) for integer string conversion", naming no file.
    (lambda m: m.update(intercept=10 ** 400), "m.json: malformed difficulty model: 'intercept' must be a finite "
                                              "number, got 1000000000000000000000000000000000000..."),
    (lambda m: m["intervals"]["intercept"].__setitem__(0, 10 ** 400), "the interval of 'intercept' must be a finite"),
    (lambda m: m["weights"].update(search=float("nan")), "the weight of 'search' must be a finite number, got nan"),
    # Once taken: every difficulty infinite.
    (lambda m: m.update(intercept=float("inf")), "'intercept' must be a finite number, got inf"),
    (lambda m: m.update(rows=2.5), "'rows' must be a whole number, got 2.5"),
    (lambda m: m.update(intercept="9" * 5000), "'intercept' must be a finite number"),
    (None, "m.json:1: a number of 5000 digits (at most 4300 are read)"),
    # Once taken: numpy's "RuntimeWarning: overflow encountered in exp", and every difficulty infinite.
    (lambda m: m.update(intercept=1e300), "m.json: implausible difficulty model: 'intercept' is 1e+300, beyond "
                                          "+-100 ln seconds (a fit of solve times stays far within)"),
    (lambda m: m["weights"].update(search=-150.5), "m.json: implausible difficulty model: the weight of 'search' is "
                                                   "-150.5, beyond +-100 ln seconds"),
    # Once "AttributeError: 'list' object has no attribute 'items'" (exit 1).
    (lambda m: m.update(players=[1, 2]), "m.json: malformed difficulty model: 'players' must be an object"),
    (lambda m: m.update(intervals=[]), "m.json: malformed difficulty model: 'intervals' must be an object"),
    # Once taken: the weight of search added twice to every task's prediction.
    (lambda m: m.update(features=[*m["features"], "search"]),
     "m.json: malformed difficulty model: feature(s) named more than once: search"),
    # Once "malformed difficulty model: KeyError 'search'".
    (lambda m: m["weights"].pop("search"), "m.json: malformed difficulty model: 'weights' has no 'search'"),
    # Once read letter by letter: "unknown feature(s) s, e, a, r, c, h".
    (lambda m: m.update(features="search"), "m.json: malformed difficulty model: 'features' must be a non-empty list "
                                            "of feature names, got 'search'"),
    # Once "malformed difficulty model: TypeError sequence item 0: expected str instance, int found".
    (lambda m: m.update(features=[1]), "'features' must be a non-empty list of feature names, got [1]"),
    # Once taken: every task rated alike, e**intercept seconds.
    (lambda m: m.update(features=[]), "'features' must be a non-empty list of feature names, got []"),
    # Once taken: the weight of a feature the model does not name left out of every prediction.
    (lambda m: m.update(features=[f for f in m["features"] if f != "cells"]),
     "m.json: malformed difficulty model: 'weights' gives 'cells', which its 'features' do not name"),
    # Once taken: a later layout read as this one.
    (lambda m: m.update(version=2), "m.json: difficulty model version 2; this toolkit reads version 1"),
    # Once taken: true, which Python compares equal to 1, read as version 1.
    (lambda m: m.update(version=True), "m.json: difficulty model version true; this toolkit reads version 1"),
    # Once taken: a residual standard deviation below zero, shown as such in the model's summary.
    (lambda m: m.update(sigma=-0.5), "m.json: malformed difficulty model: 'sigma' is a spread of solve times and "
                                     "cannot be negative, got -0.5"),
    (lambda m: m.update(cv_rmse=-1), "m.json: malformed difficulty model: 'cv_rmse' is a spread of solve times and "
                                     "cannot be negative, got -1"),
], ids=["10**400", "interval 10**400", "NaN weight", "Infinity", "rows 2.5", "a string", "5000 digits", "1e300",
        "weight -150.5", "players list", "intervals list", "feature twice", "weight missing", "features a string",
        "features numbers", "no feature", "weight of no feature", "version 2", "version true", "sigma -0.5",
        "cv_rmse -1"])
def test_a_model_file_with_a_number_out_of_range_is_one_clear_line(tasks, tmp_path, run_cli, change, message):
    synthetic_times(tasks).to_csv(tmp_path / "times.csv", index=False)
    assert run_cli("calibrate", tmp_path / "times.csv", "--results", deck_tasks_path("classic"), "--out",
                   tmp_path / "good.json")[0] == 0
    model = json.loads((tmp_path / "good.json").read_text())
    if change is None:
        text = json.dumps(model).replace('"rows": ', '"rows": ' + "9" * 5000 + ", \"x\": ", 1)
    else:
        change(model)
        text = json.dumps(model)
    (tmp_path / "m.json").write_text(text)
    with pytest.raises(InputError) as info:
        load_model(tmp_path / "m.json")
    assert str(info.value).startswith(str(tmp_path / "m.json")) and message in str(info.value), info.value
    code, _, err = run_cli("batch", "classic", "--out", tmp_path / "o", "--difficulty-model", tmp_path / "m.json",
                           "--no-progress")
    assert code == 2 and len(err.strip().splitlines()) == 1 and message in err, err


def test_terms_within_the_bound_that_add_up_beyond_it_are_refused_and_the_batch_is_kept(tasks, tmp_path, run_cli):
    # Every term within +-100, but 100 ln seconds per cell: a task of 11 cells is predicted e**(1100 + ...) seconds.
    # Once numpy's "RuntimeWarning: overflow encountered in exp" and every difficulty infinite.
    from conftest import one_line_error

    synthetic_times(tasks).to_csv(tmp_path / "times.csv", index=False)
    assert run_cli("calibrate", tmp_path / "times.csv", "--results", deck_tasks_path("classic"), "--out",
                   tmp_path / "good.json")[0] == 0
    model = json.loads((tmp_path / "good.json").read_text())
    model["weights"]["cells"] = 100.0
    (tmp_path / "m.json").write_text(json.dumps(model))
    bad = load_model(tmp_path / "m.json")   # each term is within the bound
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "01_easy.toml").write_text((deck_tasks_path("classic").parent / "01_easy.toml").read_text())
    code, _, err = run_cli("batch", deck, "--out", tmp_path / "o", "--difficulty-model", tmp_path / "m.json",
                           "--no-progress")
    x = task_features(load_tasks(deck_tasks_path("classic")).query("card_id == '01' and side == 'easy'"))
    first = x.iloc[0]   # face 1, computed here by hand
    by_hand = bad.intercept + sum(bad.weights[f] * first[f] for f in bad.features)
    assert by_hand > 1000
    one_line_error(code, err, "m.json: implausible difficulty model: it predicts "
                   f"e**{by_hand:.6g} seconds for card 01 side easy face 1 (6 of 6 tasks beyond e**+-100")
    # The tasks solved are kept: the batch resumes them all with a model that fits.
    code, out, err = run_cli("batch", deck, "--out", tmp_path / "o", "--difficulty-model", tmp_path / "good.json",
                             "--no-progress")
    assert code == 0 and "0 task(s) computed, 6 resumed" in out, err
    assert np.isfinite(load_tasks(tmp_path / "o")["difficulty"]).all()


def test_a_fit_beyond_the_bound_of_a_term_is_refused_not_written(tasks, tmp_path, run_cli):
    # Times that are no seconds (here 1e250 times too large): the fitted intercept, about ln(1e250) = 576 ln seconds
    # more, is what load_model refuses, so calibrate writes no model that batch could not read.
    from conftest import one_line_error

    times = synthetic_times(tasks)
    times["seconds"] *= 1e250
    times.to_csv(tmp_path / "times.csv", index=False)
    code, out, err = run_cli("calibrate", tmp_path / "times.csv", "--results", deck_tasks_path("classic"),
                             "--out", tmp_path / "m.json")
    one_line_error(code, err)
    assert err.startswith(f"ubongo-cp: error: {tmp_path / 'times.csv'}: the fit is no model of solve times: "
                          "'intercept' is 5") and err.endswith(
        ", beyond +-100 ln seconds (a fit of solve times stays far within); check that the times are seconds, or "
        "fit fewer features (--features): some are nearly collinear in these rows\n"), err
    assert not (tmp_path / "m.json").exists()


def test_a_results_table_giving_a_task_twice_is_refused(tasks, tmp_path, run_cli):
    # A task on two rows (a table pasted together from two runs, a row copied in a spreadsheet): once the last of
    # them was fitted silently, whichever difficulty it had.
    from conftest import one_line_error

    synthetic_times(tasks).to_csv(tmp_path / "times.csv", index=False)
    raw = pd.read_csv(deck_tasks_path("classic"), dtype=str, keep_default_na=False)
    assert tuple(raw.loc[7, ["card_id", "side", "face"]]) == ("01", "hard", "2")
    again = raw.iloc[[7]].assign(difficulty="99.5")
    pd.concat([raw, again]).to_csv(tmp_path / "tasks.csv", index=False)
    code, out, err = run_cli("calibrate", tmp_path / "times.csv", "--results", tmp_path / "tasks.csv",
                             "--out", tmp_path / "m.json")
    one_line_error(code, err, f"{tmp_path / 'tasks.csv'}:{len(raw) + 2}: task card 01 side hard face 2 is given "
                              "twice (also on line 9)")
    assert out == "" and not (tmp_path / "m.json").exists()
    # a table given as a DataFrame: its rows named
    with pytest.raises(InputError, match=r"^task card 01 side hard face 2 \(row 433\) is given twice \(also on "
                                         r"row 8\)$"):
        fit_difficulty(tmp_path / "times.csv", pd.concat([tasks, tasks.iloc[[7]]], ignore_index=True))


def test_a_results_dataframe_is_checked_as_a_file_is(tasks, tmp_path):
    # A task's row with its face NaN in a DataFrame: once "card 01 side easy face 1 is not in the batch results"
    # (the row was the key of no task); card "1" beside card "01" (which calibrate matches to it) passed as two.
    synthetic_times(tasks).to_csv(tmp_path / "times.csv", index=False)
    no_face = tasks.astype({"face": "float64"})
    no_face.loc[0, "face"] = np.nan
    with pytest.raises(InputError, match="^" + re.escape("column face (row 1) is empty in a task's row (each task's "
                                                         "row names its card, side and die face)") + "$"):
        fit_difficulty(tmp_path / "times.csv", no_face)
    with pytest.raises(InputError, match="^" + re.escape("task card 1 side hard face 2 (row 433) is given twice (also "
                                                         "on row 8, as card 01)") + "$"):
        fit_difficulty(tmp_path / "times.csv", pd.concat([tasks, tasks.iloc[[7]].assign(card_id="1")],
                                                         ignore_index=True))
    # a row of empty fields is no task: the same fit
    edited = tasks.reindex([*range(5), -1, *range(5, len(tasks))]).reset_index(drop=True)   # row 6: every field NaN
    assert fit_difficulty(tmp_path / "times.csv", edited).weights == fit_difficulty(tmp_path / "times.csv",
                                                                                      tasks).weights


def test_a_deck_folder_given_as_the_results_says_a_batch_output_folder_is_expected(tasks, tmp_path, run_cli):
    # --results names the batch's output folder; a deck's folder (its card files, as generate writes them) or
    # a folder without the table was refused as "<folder>/tasks.parquet: tasks table not found".
    import shutil

    from conftest import one_line_error
    from ubongo_cp.shipped import resolve_deck

    synthetic_times(tasks).to_csv(tmp_path / "times.csv", index=False)
    deck = tmp_path / "deck"
    deck.mkdir()
    for card in sorted(resolve_deck("classic").glob("0[12]_*.toml")):
        shutil.copy(card, deck)
    (tmp_path / "empty").mkdir()
    said = "no tasks table (tasks.parquet or tasks.csv) in this folder: a batch output folder is expected"
    code, out, err = run_cli("calibrate", tmp_path / "times.csv", "--results", deck, "--out", tmp_path / "m.json")
    one_line_error(code, err)
    assert err == (f"ubongo-cp: error: {deck}: {said}; this folder looks like a deck (it holds *.toml card files): "
                   "run `ubongo-cp batch` on it and give its output folder\n")
    code, out, err = run_cli("calibrate", tmp_path / "times.csv", "--results", tmp_path / "empty", "--out",
                             tmp_path / "m.json")
    one_line_error(code, err)
    assert err == f"ubongo-cp: error: {tmp_path / 'empty'}: {said}\n"
    assert not (tmp_path / "m.json").exists()


@pytest.mark.parametrize("change, message", [
    # A face of 1.5 was cut to face 1 (int()), so the time went to another task than written, and the fit ran.
    (lambda t: t.assign(face=[1.5, *t["face"].iloc[1:]]), "times: row 1: face '1.5' is not a whole number >= 1"),
    # Seconds of -1 made a NaN fit ('the fit is no model of solve times: 'intercept' is nan ...').
    (lambda t: t.assign(seconds=[*t["seconds"].iloc[:2], -1.0, *t["seconds"].iloc[3:]]),
     "times: row 3: seconds '-1' is not a number > 0"),
    # Once a raw ValueError ("could not convert string to float: 'x'") and KeyError ('seconds').
    (lambda t: t.assign(seconds="x"), "times: row 1: seconds 'x' is not a number > 0"),
    (lambda t: t.drop(columns="seconds"), "times: times table lacks column(s) seconds"),
    # A second seconds column: numpy's "shapes (N,2) and (N,2) not aligned".
    (lambda t: pd.concat([t, t[["seconds"]]], axis=1), "the times table names column 'seconds' twice"),
    # A player left out of one row was one more player, taken as the reference of every player effect.
    (lambda t: t.assign(player=[*t["player"].iloc[:4], None, *t["player"].iloc[5:]]),
     "times: row 5: no player is named on this row, but row 1 names one"),
], ids=["face 1.5", "seconds -1", "seconds text", "no seconds", "seconds twice", "player missing"])
def test_times_given_as_a_dataframe_are_checked_as_a_file_is(tasks, change, message):
    times = synthetic_times(tasks, per_task=1)
    with pytest.raises(InputError) as info:
        fit_difficulty(change(times), tasks)
    assert str(info.value).startswith(message), info.value


def test_times_given_as_a_dataframe_fit_as_the_file(tasks, tmp_path):
    # The same times from a DataFrame (faces as floats, as a column holding a missing value reads) and from the
    # CSV file they were written to: the same fit.
    times = synthetic_times(tasks, per_task=1)
    times.to_csv(tmp_path / "times.csv", index=False)
    a = fit_difficulty(tmp_path / "times.csv", tasks)
    b = fit_difficulty(times.assign(face=times["face"].astype(float)), tasks)
    assert a.weights == b.weights and a.intercept == b.intercept and a.cv_r2 == b.cv_r2
