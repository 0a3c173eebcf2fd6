"""Batch runner: results, resume after a crash, skipped bad cards, time-outs, parallel = serial."""

from __future__ import annotations

import json
import shutil

import pandas as pd
import pytest

from conftest import PUZZLES
from ubongo_cp.batch import JOURNAL, run_batch
from ubongo_cp.io import row_check
from ubongo_cp.cards import load_card
from ubongo_cp.cover import task_instance
from ubongo_cp.executors import LocalExecutor
from ubongo_cp.solvers import solve
from ubongo_cp.status import Status

STABLE = ["card_id", "side", "face", "pieces", "area", "count", "count_reduced", "status", "placements",
          "min_piece_placements", "cpsat_count", "task_hash"]


@pytest.fixture
def deck(tmp_path):
    d = tmp_path / "deck"
    d.mkdir()
    for name in ("01_easy.toml", "01_hard.toml", "02_easy.toml"):
        shutil.copy(PUZZLES / "decks" / "classic" / name, d / name)
    return d


def test_batch_counts_match_an_independent_solver(deck, tmp_path):
    out = run_batch(deck, tmp_path / "out", progress=False)
    df = out.tasks
    assert len(df) == 18 and out.ran == 18 and out.skipped == 0
    for row in df.itertuples():
        card = load_card(deck / f"{row.card_id}_{row.side}.toml")
        assert row.count == solve(task_instance(card, row.face), backend="cpsat").count
        assert row.count == row.cpsat_count and row.status == Status.SOLVED
        assert row.search_nodes is not pd.NA and row.difficulty == row.difficulty  # not NaN
    for name in ("tasks.parquet", "tasks.csv", "cards.csv", "summary.md", JOURNAL):
        assert (tmp_path / "out" / name).exists()
    cards = pd.read_csv(tmp_path / "out" / "cards.csv", dtype={"card_id": str})
    assert list(cards["tasks"]) == [6, 6, 6]
    assert pd.read_parquet(tmp_path / "out" / "tasks.parquet")["count"].tolist() == df["count"].tolist()


def test_resume_after_runner_crash_loses_and_duplicates_nothing(deck, tmp_path):
    full = run_batch(deck, tmp_path / "full", progress=False).tasks
    # Simulate a runner killed half-way: half the journal written, the last line torn, no tables.
    out = tmp_path / "crashed"
    out.mkdir()
    lines = (tmp_path / "full" / JOURNAL).read_text().splitlines(keepends=True)
    (out / JOURNAL).write_text("".join(lines[:9]) + lines[9][: len(lines[9]) // 2])
    again = run_batch(deck, out, progress=False)
    assert (again.skipped, again.ran) == (9, 9)
    pd.testing.assert_frame_equal(again.tasks[STABLE], full[STABLE])
    # A third run computes nothing and keeps the same table.
    third = run_batch(deck, out, progress=False)
    assert (third.ran, third.skipped) == (0, 18)
    pd.testing.assert_frame_equal(third.tasks[STABLE], full[STABLE])


def test_parallel_equals_serial(deck, tmp_path):
    one = run_batch(deck, tmp_path / "one", progress=False).tasks
    two = run_batch(deck, tmp_path / "two", executor=LocalExecutor(2), progress=False).tasks
    pd.testing.assert_frame_equal(one[STABLE], two[STABLE])


def test_bad_card_is_skipped_and_unsolvable_task_reported(deck, tmp_path):
    (deck / "zz_bad.toml").write_text('game = "classic"\ncard = "Z"\nside = "easy"\npieces = "classic"\n'
                                      'region = "##"\n[tasks]\n1 = ["Q7"]\n')
    (deck / "zz_unsolvable.toml").write_text('game = "classic"\ncard = "U"\nside = "easy"\npieces = "classic"\n'
                                             'region = """\n###\n#..\n"""\n[tasks]\n1 = ["O4"]\n')
    out = run_batch(deck, tmp_path / "out", progress=False)
    assert len(out.problems) == 1 and "Q7" in out.problems[0].message
    row = out.tasks[out.tasks["card_id"] == "U"].iloc[0]
    assert row["status"] == Status.NO_SOLUTION and row["count"] == 0
    summary = (tmp_path / "out" / "summary.md").read_text()
    assert "zz_bad.toml" in summary and "Unsolvable or failed tasks" in summary and "O4" in summary


def test_time_limit_is_recorded_not_dropped(tmp_path):
    deck = tmp_path / "deck"
    deck.mkdir()
    region = "\n".join(["##########"] * 6)
    names = ", ".join(f'"{n}"' for n in "FILNPTUVWXYZ")
    (deck / "p.toml").write_text(f'game = "classic"\ncard = "P"\nside = "hard"\npieces = "pentominoes"\n'
                                 f'region = """\n{region}\n"""\n[tasks]\n1 = [{names}]\n')
    out = run_batch(deck, tmp_path / "out", progress=False, time_limit=0.2)
    row = out.tasks.iloc[0]
    assert row["status"] == Status.TIMEOUT and 0 < row["count"] < 9356
    # No task solved: the summary says so, and prints no median of nothing.
    summary = (tmp_path / "out" / "summary.md").read_text()
    assert "- uniquely solvable tasks: 0 of 1; none solved\n" in summary and "nan" not in summary


@pytest.mark.parametrize("arguments, message", [
    # a comparison's TypeError before ("'>' not supported between instances of 'str' and 'int'")
    ({"time_limit": "5"}, "time_limit must be a number of seconds above 0, got '5'"),
    ({"time_limit": float("nan")}, "time_limit must be a number of seconds above 0, got nan"),
    ({"time_limit": 0}, "time_limit must be a number of seconds above 0, got 0"),
    # AttributeError: 'str' object has no attribute 'warm', once the output folder was made
    ({"executor": "local"}, "executor must be an Executor (ubongo_cp.executors.make_executor) or None, got str 'local'"),
])
def test_wrong_arguments_of_run_batch_are_one_error_naming_them_before_any_work(arguments, message, deck, tmp_path):
    from ubongo_cp.errors import InputError

    with pytest.raises(InputError) as info:
        run_batch(deck, tmp_path / "out", progress=False, **arguments)
    assert str(info.value) == message
    assert not (tmp_path / "out").exists()


def test_a_deck_that_is_no_path_is_one_error_naming_it(tmp_path):
    from ubongo_cp.errors import InputError

    with pytest.raises(InputError) as info:   # Path's TypeError before
        run_batch(3, tmp_path / "out", progress=False)
    assert str(info.value) == ("a deck is a folder's path or a shipped deck's name (classic, cubes, duel, hexagons, "
                               "triangles), got int 3")
    assert not (tmp_path / "out").exists()


def test_cli_batch_and_generate(run_cli, tmp_path):
    code, out, err = run_cli("generate", "--game", "classic", "--out", tmp_path / "d", "--seed", "4",
                             "--cards", "1", "--quiet")
    assert code == 0 and "wrote 2 card sides (12 tasks" in out
    code, out, err = run_cli("batch", tmp_path / "d", "--out", tmp_path / "o", "--jobs", "1", "--no-progress")
    assert code == 0 and "tasks: 12; solved 12" in out
    code, out, err = run_cli("batch", tmp_path / "missing", "--out", tmp_path / "o")
    assert code == 2 and "deck directory not found" in err


# ---------------------------------------------------------------- the tables' file forms (ubongo_cp.report)

def test_tables_keep_structure_in_parquet_and_text_in_csv(deck, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from ubongo_cp.report import load_cards, load_tasks

    out = run_batch(deck, tmp_path / "out", progress=False)
    schema = pq.read_schema(tmp_path / "out" / "tasks.parquet")
    assert schema.field("pieces").type == pa.list_(pa.string())
    assert schema.field("solution").type == pa.list_(
        pa.struct([("piece", pa.string()), ("cells", pa.list_(pa.list_(pa.int16())))]))
    raw = pq.read_table(tmp_path / "out" / "tasks.parquet").to_pylist()[0]
    card = load_card(deck / "01_easy.toml")
    assert raw["card_id"] == "01" and raw["pieces"] == list(card.tasks[1])
    assert raw["error"] is None                                  # missing, not ""
    # The stored solution is a tiling of the card's region by the task's pieces.
    stored = {e["piece"]: [tuple(c) for c in e["cells"]] for e in raw["solution"]}
    assert sorted(stored) == sorted(card.tasks[1])
    assert sorted(c for cells in stored.values() for c in cells) == sorted(card.region.cells)
    # CSV: the text forms, read back as text ("01" stays "01"), the error field empty.
    plain = pd.read_csv(tmp_path / "out" / "tasks.csv", dtype=str, keep_default_na=False)
    assert plain.loc[0, "card_id"] == "01" and plain.loc[0, "pieces"] == " ".join(card.tasks[1])
    assert plain.loc[0, "error"] == "" and json.loads(plain.loc[0, "solution"]) == {
        k: [list(c) for c in v] for k, v in stored.items()}
    # Both files read back to the same table, equal to the one the run returned.
    from_csv, from_parquet = load_tasks(tmp_path / "out" / "tasks.csv"), load_tasks(tmp_path / "out")
    pd.testing.assert_frame_equal(from_csv, from_parquet)
    pd.testing.assert_frame_equal(from_parquet, out.tasks)
    assert from_csv["card_id"].tolist()[:6] == ["01"] * 6 and from_csv["error"].isna().all()
    assert from_csv["status"].dtype == "category" and set(from_csv["status"].cat.categories) >= {"solved"}
    # cards.parquet beside cards.csv: the same table.
    pd.testing.assert_frame_equal(load_cards(tmp_path / "out" / "cards.csv"), load_cards(tmp_path / "out"),
                                  check_exact=False, atol=1e-4)
    assert load_cards(tmp_path / "out")["card_id"].tolist() == ["01", "01", "02"]


def test_error_rows_keep_their_message(deck, tmp_path):
    from ubongo_cp.report import load_tasks, tasks_frame, write_table

    rows = run_batch(deck, tmp_path / "out", progress=False).tasks.to_dict("records")
    rows[0].update(status="error", error="worker failed: boom", solution=None, count=None)
    table = tasks_frame(rows)
    for name in ("t.csv", "t.parquet"):
        write_table(table, tmp_path / name)
        back = load_tasks(tmp_path / name)
        assert back.loc[0, "error"] == "worker failed: boom" and back["error"].isna().sum() == len(rows) - 1
        assert back.loc[0, "status"] == "error" and pd.isna(back.loc[0, "count"]) and back.loc[0, "solution"] is None


def test_bad_table_values_name_file_and_line(tmp_path):
    from ubongo_cp.errors import InputError
    from ubongo_cp.report import load_tasks

    good = (PUZZLES / "decks" / "classic" / "tasks.csv").read_text().splitlines()
    header = good[0].split(",")
    for column, value, message in [("face", "six", "column face: 'six' is not a number"),
                                   ("status", "solveed", "column status: 'solveed' is not a status"),
                                   ("count", "1.5", "column count: '1.5' is not a whole number")]:
        cells = good[3].split(",")
        cells[header.index(column)] = value
        path = tmp_path / f"bad_{column}.csv"
        path.write_text("\n".join(good[:3] + [",".join(cells)] + good[4:]) + "\n")
        with pytest.raises(InputError, match=rf"bad_{column}\.csv:4: {message}"):
            load_tasks(path)
    with pytest.raises(InputError, match="tasks table lacks column\\(s\\) status"):
        pd.DataFrame({"card_id": ["01"], "side": ["easy"], "face": [1]}).to_csv(tmp_path / "k.csv", index=False)
        load_tasks(tmp_path / "k.csv")
    with pytest.raises(InputError, match="tasks table not found"):
        load_tasks(tmp_path / "nowhere")
    with pytest.raises(InputError, match="/dev/null: is a device, expected a tasks table"):   # was "not found"
        load_tasks("/dev/null")
    # one field too many in the first row: pandas took the first column for an index and shifted every field
    # by one ("column face: 'classic' is not a number", a column away from the problem)
    (tmp_path / "extra.csv").write_text("\n".join([good[0], good[1] + ",extra"] + good[2:]) + "\n")
    with pytest.raises(InputError, match=rf"extra\.csv:2: not a batch result table: not a CSV table: "
                                         rf"{len(header) + 1} fields where the "
                                         rf"header line has {len(header)}"):
        load_tasks(tmp_path / "extra.csv")


def test_a_table_naming_a_column_twice_is_refused(deck, tmp_path, run_cli):
    # A header edited to name `count` where `difficulty` was: pandas named the second 'count.1', and load_tasks
    # (so booklet --results) read the first as the count and the table as one without difficulties.
    from ubongo_cp.errors import InputError
    from ubongo_cp.report import load_tasks

    run_batch(deck, tmp_path / "out", progress=False)
    lines = (tmp_path / "out" / "tasks.csv").read_text().splitlines(keepends=True)
    header = lines[0].split(",")
    header[header.index("difficulty")] = "count"
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "tasks.csv").write_text(",".join(header) + "".join(lines[1:]))
    with pytest.raises(InputError) as info:
        load_tasks(tmp_path / "bad" / "tasks.csv")
    assert str(info.value) == (f"{tmp_path / 'bad' / 'tasks.csv'}:1: not a batch result table: the header line names "
                               "column 'count' twice")
    code, out, err = run_cli("booklet", deck, "--results", tmp_path / "bad", "--out", tmp_path / "b.pdf")
    assert (code, err) == (2, f"ubongo-cp: error: {info.value}\n")
    assert not (tmp_path / "b.pdf").exists()


def test_a_parquet_table_naming_a_column_twice_is_refused(deck, tmp_path, run_cli):
    # pyarrow writes a table of two columns named `count` (pandas does not): once refused in pyarrow's words,
    # "not a batch result table: Multiple matches for FieldRef.Name(count) in card_id: string ...".
    import pyarrow as pa
    import pyarrow.parquet as pq
    from ubongo_cp.errors import InputError
    from ubongo_cp.report import load_cards, load_tasks

    run_batch(deck, tmp_path / "out", progress=False)
    (tmp_path / "bad").mkdir()
    for name, load in [("tasks", load_tasks), ("cards", load_cards)]:
        table = pq.read_table(tmp_path / "out" / f"{name}.parquet")
        twice = pa.Table.from_arrays([*table.columns, table.column("side")], names=[*table.column_names, "side"])
        pq.write_table(twice, tmp_path / "bad" / f"{name}.parquet")
        with pytest.raises(InputError) as info:
            load(tmp_path / "bad" / f"{name}.parquet")
        assert str(info.value) == (f"{tmp_path / 'bad' / f'{name}.parquet'}: not a batch result table: the table names "
                                   "column 'side' twice")
    code, out, err = run_cli("booklet", deck, "--results", tmp_path / "bad" / "tasks.parquet", "--out",
                             tmp_path / "b.pdf")
    assert (code, err) == (2, f"ubongo-cp: error: {tmp_path / 'bad' / 'tasks.parquet'}: not a batch result table: "
                              "the table names column 'side' twice\n")
    assert not (tmp_path / "b.pdf").exists()


def test_a_dataframe_naming_a_column_twice_is_refused(tmp_path):
    # A results DataFrame with a second `count` (pd.concat of two tables) raised raw errors in each reader of the
    # Python API: make_booklet "AttributeError: 'DataFrame' object has no attribute 'tolist'", fit_difficulty the
    # same, TaskDeck "TypeError: arg must be a list, tuple, 1-d array, or Series".
    from ubongo_cp.booklet import make_booklet
    from ubongo_cp.calibrate import fit_difficulty
    from ubongo_cp.cards import load_deck
    from ubongo_cp.errors import InputError
    from ubongo_cp.games.tasks import TaskDeck
    from ubongo_cp.report import load_tasks

    tasks = load_tasks(PUZZLES / "decks" / "classic" / "tasks.csv")
    cards, _ = load_deck(PUZZLES / "decks" / "classic")
    times = pd.DataFrame({"card": "01", "side": "easy", "face": range(1, 7), "seconds": 10.0})
    for column in ("count", "game", "face"):
        twice = pd.concat([tasks, tasks[[column]]], axis=1)
        for call, args, kwargs in ((make_booklet, (cards[:1], tmp_path / "b.pdf"), {"results": twice}),
                                   (fit_difficulty, (times, twice), {}), (TaskDeck, (twice,), {})):
            with pytest.raises(InputError) as info:
                call(*args, **kwargs)
            assert str(info.value) == f"the table names column '{column}' twice"
    assert not (tmp_path / "b.pdf").exists()


def test_a_table_cut_short_in_its_last_line_is_refused(deck, tmp_path, run_cli):
    # A results CSV cut mid-way through its last line (its grid "sq", or its last fields gone) was read without
    # complaint, by load_tasks and so by booklet --results.
    from ubongo_cp.errors import InputError
    from ubongo_cp.report import load_tasks

    run_batch(deck, tmp_path / "out", progress=False)
    text = (tmp_path / "out" / "tasks.csv").read_text()
    header, last = text.splitlines()[0], text.splitlines()[-1]
    n = len(text.splitlines())
    assert header.endswith(",grid") and last.endswith(",square")
    for name, cut, message in [
        ("grid", text.rstrip("\n")[:-4], "column grid: 'sq' is not a grid (square, hex, triangle, cube)"),
        ("fields", text.rstrip("\n").rsplit(",", 2)[0],
         f"not a batch result table: not a CSV table: {header.count(',') - 1} fields where the header line has "
         f"{header.count(',') + 1}"),
    ]:
        (tmp_path / name).mkdir()
        (tmp_path / name / "tasks.csv").write_text(cut)
        with pytest.raises(InputError) as info:
            load_tasks(tmp_path / name / "tasks.csv")
        assert str(info.value) == f"{tmp_path / name / 'tasks.csv'}:{n}: {message}"
        code, out, err = run_cli("booklet", deck, "--results", tmp_path / name, "--out", tmp_path / f"{name}.pdf")
        assert (code, err) == (2, f"ubongo-cp: error: {info.value}\n")
        assert not (tmp_path / f"{name}.pdf").exists()


def test_the_deck_folder_is_refused_as_the_output_by_the_library_too(deck, tmp_path):
    # run_batch(deck, deck) wrote its tables among the card files: only the command line refused it, with a
    # check of its own.
    from ubongo_cp.errors import InputError

    before = sorted(p.name for p in deck.iterdir())
    (tmp_path / "link").symlink_to(deck)
    for out in (deck, tmp_path / "link"):
        with pytest.raises(InputError) as info:
            run_batch(deck, out, progress=False)
        assert str(info.value) == (f"{out}: is the deck's own folder, which the batch would fill with its tables "
                                   "beside the card files; choose another output folder")
    assert sorted(p.name for p in deck.iterdir()) == before


def test_tables_of_the_old_form_are_still_read(deck, tmp_path):
    # Before list columns: pieces as text and solution as JSON text inside Parquet, "" for no error.
    from ubongo_cp.report import load_tasks

    new = run_batch(deck, tmp_path / "out", progress=False).tasks
    old = pd.read_csv(tmp_path / "out" / "tasks.csv", dtype={"card_id": str}).fillna({"error": ""})
    old.to_parquet(tmp_path / "old.parquet", index=False)
    pd.testing.assert_frame_equal(load_tasks(tmp_path / "old.parquet"), new)
@pytest.mark.slow
@pytest.mark.parametrize("game", ["classic", "duel", "hexagons", "triangles", "cubes"])
def test_shipped_deck_tables_rebuild_identically(game, tmp_path):
    # The shipped ratings (puzzles/decks/*/tasks.csv, read by the game simulators) are what
    # `ubongo-cp batch` computes today: same counts, search nodes and difficulty (the decks on hexagons,
    # triangles and cubes had kept an earlier rating: 52 of 96, 18 of 96 and 30 of 48 difficulties off).
    shipped = pd.read_csv(PUZZLES / "decks" / game / "tasks.csv", dtype={"card_id": str})
    rebuilt = run_batch(PUZZLES / "decks" / game, tmp_path / "out", progress=False).tasks
    keys = ["card_id", "side", "face"]
    columns = ["status", "count", "count_reduced", "placements", "search_nodes", "cpsat_count", "task_hash"]
    merged = shipped.merge(rebuilt, on=keys, suffixes=("_shipped", "_now"), validate="one_to_one")
    assert len(merged) == len(shipped) == len(rebuilt) > 0
    for col in columns:
        assert (merged[f"{col}_shipped"] == merged[f"{col}_now"]).all(), col
    assert (merged["difficulty_shipped"] - merged["difficulty_now"]).abs().max() < 1e-9


def test_every_registered_solver_rates_alike(deck, tmp_path):
    # Whatever solver reports the count, the rating takes the DLX search nodes and the
    # CP-SAT cross-check from the registry's answers: the same table for every name
    # (`--backend xcover` used to write difficulty = NaN for every task).
    from ubongo_cp.solvers import solver_names

    one = tmp_path / "one"
    one.mkdir()
    shutil.copy(deck / "01_hard.toml", one / "01_hard.toml")
    stable = ["face", "status", "count", "count_reduced", "search_nodes", "cpsat_count", "difficulty"]
    reference = run_batch(one, tmp_path / "dlx", progress=False).tasks[stable]
    assert reference["difficulty"].notna().all() and (reference["status"] == Status.SOLVED).all()
    for name in solver_names():
        got = run_batch(one, tmp_path / name, backend=name, progress=False).tasks
        pd.testing.assert_frame_equal(got[stable], reference, check_dtype=False, obj=name)
        assert got["cpsat_branches"].notna().all(), name


def test_cli_batch_with_xcover_rates_every_task(run_cli, deck, tmp_path):
    code, out, err = run_cli("batch", deck, "--out", tmp_path / "o", "--backend", "xcover", "--jobs", "1",
                             "--no-progress")
    assert code == 0, err
    table = pd.read_csv(tmp_path / "o" / "tasks.csv")
    assert len(table) == 18 and table["difficulty"].notna().all() and (table["search_nodes"] > 0).all()


def test_a_backend_that_cannot_take_a_task_of_the_deck_is_refused_before_any_work(run_cli, tmp_path):
    from conftest import one_line_error, write
    from ubongo_cp.report import load_tasks

    # A task leaving cells empty needs multiplicities, which xcover has not: each such task was journaled as an
    # `error` row (its message the solver's refusal), run again on every resume, and the batch ended with exit 0.
    deck = tmp_path / "deck"
    deck.mkdir()
    write(deck / "01_easy.toml", 'game = "classic"\ncard = "01"\nside = "easy"\npieces = "classic"\n'
          'region = """\n####\n####\n"""\n[tasks]\n1 = ["I2", "I2", "I2", "I2"]\n'
          '2 = {pieces = ["I4"], max_empty = 4}\n')
    for backend in ("xcover", "xcover-symmetry"):
        code, out, err = run_cli("batch", deck, "--out", tmp_path / backend, "--backend", backend, "--no-progress")
        one_line_error(code, err, f"{deck / '01_easy.toml'}: card 01 side easy face 2: backend {backend!r} has no "
                                  "multiplicities")
        assert not (tmp_path / backend).exists()
    # The tasks every backend takes: the same counts with xcover as with the rating's own search, and by hand on
    # the 2x4 box: four dominoes in 5 ways (columns of 1 or 2 summing to 4: 1111, 112, 121, 211, 22), and two I4
    # in 1 (a row each; the copies are not told apart, UP-5).
    write(deck / "01_easy.toml", (deck / "01_easy.toml").read_text().replace(
        '2 = {pieces = ["I4"], max_empty = 4}', '2 = ["I4", "I4"]'))
    counts = {}
    for backend in ("xcover", "bitboard-mrv"):
        code, out, err = run_cli("batch", deck, "--out", tmp_path / backend, "--backend", backend, "--no-progress")
        assert code == 0, err
        counts[backend] = load_tasks(tmp_path / backend)["count"].tolist()
    assert counts["xcover"] == counts["bitboard-mrv"] == [5, 1]


# ---------------------------------------------------------------- resumed rows, output folders

def _tables(out):
    return {name: (out / name).read_bytes() for name in ("tasks.jsonl", "tasks.csv", "tasks.parquet", "cards.csv",
                                                         "summary.md")}


def test_rows_made_with_another_time_limit_are_computed_again(run_cli, deck, tmp_path):
    out = tmp_path / "out"
    code, printed, err = run_cli("batch", deck, "--out", out, "--time-limit", "0.0001", "--no-progress")
    assert code == 0, err
    rows = [json.loads(line) for line in (out / JOURNAL).read_text().splitlines()]
    assert len(rows) == 18 and all(r["settings"]["time_limit"] == 0.0001 for r in rows)
    code, printed, err = run_cli("batch", deck, "--out", out, "--no-progress")
    assert code == 0, err
    assert (f"computing 18 task(s) of {out / JOURNAL} again: they were made with other settings "
            "(time limit 0.0001 s (now none))") in err
    assert "18 task(s) computed (18 of them again: their rows in the journal were made with other settings or " \
           "changed since), 0 resumed" in printed
    tasks = pd.read_parquet(out / "tasks.parquet")
    assert (tasks["status"] == "solved").all() and len(tasks) == 18
    # The counts are those of an undisturbed run with the default settings.
    fresh = run_batch(deck, tmp_path / "fresh", progress=False).tasks
    assert tasks["count"].tolist() == fresh["count"].tolist()
    # Now everything matches: a third run resumes all of it.
    code, printed, err = run_cli("batch", deck, "--out", out, "--no-progress")
    assert code == 0 and "0 task(s) computed, 18 resumed" in printed and "again" not in err


def test_rows_of_another_backend_or_without_settings_are_computed_again(deck, tmp_path):
    out = tmp_path / "out"
    run_batch(deck, out, progress=False, backend="cpsat")
    said = []
    again = run_batch(deck, out, progress=False, notify=said.append)
    assert (again.ran, again.recomputed, again.skipped) == (18, 18, 0)
    assert any("(backend cpsat (now bitboard-mrv))" in s for s in said), said
    # A journal whose rows record no settings (written before rows recorded them): computed again too.
    lines = (out / JOURNAL).read_text().splitlines()
    old = [{k: v for k, v in json.loads(line).items() if k not in ("settings", "check")} for line in lines[-18:]]
    old = [json.dumps({**row, "check": row_check(row, JOURNAL)}) for row in old]
    legacy = tmp_path / "legacy"
    legacy.mkdir()
    (legacy / JOURNAL).write_text("\n".join(old) + "\n")
    said.clear()
    again = run_batch(deck, legacy, progress=False, notify=said.append)
    assert (again.ran, again.recomputed) == (18, 18)
    assert any("made with other settings (no record of their settings)" in s for s in said), said


def test_a_row_changed_after_it_was_written_is_computed_again(deck, tmp_path):
    # Each journal row carries a check of its content: an edited count is not taken for a result.
    out = tmp_path / "out"
    first = run_batch(deck, out, progress=False)
    lines = (out / JOURNAL).read_text().splitlines()
    row = json.loads(lines[0])
    true_count = row["count"]
    row["count"] = true_count + 6
    (out / JOURNAL).write_text("\n".join([json.dumps(row), *lines[1:]]) + "\n")
    said = []
    again = run_batch(deck, out, progress=False, notify=said.append)
    assert (again.ran, again.recomputed, again.skipped) == (1, 1, first.ran - 1)
    assert any("computing 1 task(s) of" in s and "the check of their rows does not match" in s for s in said), said
    tasks = again.tasks.set_index(["card_id", "side", "face"])
    assert tasks.loc[(row["card_id"], row["side"], row["face"]), "count"] == true_count


def test_an_edited_piece_file_recomputes_the_tasks_using_that_piece(tmp_path):
    from ubongo_cp.generate import generate_deck

    shutil.copytree(PUZZLES / "examples" / "designer", tmp_path / "design")
    generate_deck(tmp_path / "design" / "deck.toml", tmp_path / "deck", seed=3, cards=1)
    first = run_batch(tmp_path / "deck", tmp_path / "out", progress=False)
    # Give one piece another shape of the same size (so every card stays valid).
    pieces = (tmp_path / "deck" / "pieces.txt").read_text()
    blocks = pieces.strip().split("\n\n")
    name, *rows = blocks[-1].splitlines()
    cells = sum(r.count("#") for r in rows)
    blocks[-1] = "\n".join([name] + ["#"] * cells)           # the straight polyomino of that size
    assert blocks[-1] != "\n".join([name, *rows])
    (tmp_path / "deck" / "pieces.txt").write_text("\n\n".join(blocks) + "\n")
    using = int(first.tasks["pieces"].map(lambda p: name in p).sum())
    assert 0 < using < len(first.tasks)
    again = run_batch(tmp_path / "deck", tmp_path / "out", progress=False)
    assert (again.ran, again.skipped) == (using, len(first.tasks) - using)


def test_a_second_deck_into_the_same_folder_is_refused(run_cli, deck, tmp_path):
    out = tmp_path / "out"
    assert run_cli("batch", deck, "--out", out, "--no-progress")[0] == 0
    before = _tables(out)
    other = tmp_path / "other"
    shutil.copytree(deck, other)
    (other / "02_easy.toml").unlink()   # another deck: two of its three card sides
    code, printed, err = run_cli("batch", other, "--out", out, "--no-progress")
    assert code == 2 and printed == "" and err.count("\n") == 1
    assert f"{out}: holds the output of `ubongo-cp batch` for {deck} (which holds other content), not {other}" in err
    # the folder holds finished work: it is never advised away without saying so
    assert "removing this one would lose the output it holds" in err
    assert _tables(out) == before


def test_a_deck_moved_after_its_batch_began_resumes_from_its_new_place(run_cli, deck, tmp_path):
    # A run stopped after 7 of the 18 tasks, then the deck's folder renamed: the same tasks, so the run resumes.
    out = tmp_path / "out"
    run_batch(deck, tmp_path / "full", progress=False)
    full = pd.read_parquet(tmp_path / "full" / "tasks.parquet")
    assert run_cli("batch", deck, "--out", out, "--no-progress")[0] == 0
    lines = (out / JOURNAL).read_text().splitlines(keepends=True)
    (out / JOURNAL).write_text("".join(lines[:7]))
    moved = tmp_path / "elsewhere" / "renamed"
    moved.parent.mkdir()
    deck.rename(moved)
    code, printed, err = run_cli("batch", moved, "--out", out, "--no-progress")
    assert code == 0, err
    assert err == f"{out}: the deck it rated, {deck}, is now {moved} (the same tasks): resuming from there\n"
    assert "11 task(s) computed, 7 resumed" in printed
    pd.testing.assert_frame_equal(pd.read_parquet(out / "tasks.parquet")[STABLE], full[STABLE])
    assert json.loads((out / ".ubongo-cp.json").read_text())["commands"]["batch"]["source"] == str(moved)
    # the folder now belongs to the deck where it is: a run of it says nothing more and computes nothing
    again = run_batch(moved, out, progress=False)
    assert (again.ran, again.skipped) == (0, 18)
    # moved back and one card redrawn: another deck, refused (the folder's tables are left as they are)
    moved.rename(deck)
    card = deck / "01_easy.toml"
    text = card.read_text()
    assert "[tasks]" in text
    card.write_text(text.replace("[tasks]", "[tasks]\n# the same tasks, a comment\n"))
    same = run_batch(deck, out, progress=False)   # a comment changes no task: the same deck, resumed
    assert (same.ran, same.skipped) == (0, 18)
    shutil.copytree(deck, tmp_path / "copy")
    (tmp_path / "copy" / "01_hard.toml").unlink()
    code, printed, err = run_cli("batch", tmp_path / "copy", "--out", out, "--no-progress")
    assert code == 2 and "(which holds other content)" in err and "would lose the output it holds" in err
    # a record that names no content (written before records did): where the deck was is the one way on
    record = json.loads((out / ".ubongo-cp.json").read_text())
    del record["commands"]["batch"]["content"]
    (out / ".ubongo-cp.json").write_text(json.dumps(record))
    deck.rename(moved)
    code, printed, err = run_cli("batch", moved, "--out", out, "--no-progress")
    assert code == 2 and err.count("\n") == 1 and f"for {deck} (the record does not say what that held: to carry " \
        f"on with it, run from there), not {moved}; choose another folder (removing this one would lose" in err


def test_batch_never_replaces_a_file_it_did_not_write(run_cli, deck, tmp_path):
    out = tmp_path / "notes"
    out.mkdir()
    (out / "summary.md").write_text("my own summary")
    (out / "ideas.txt").write_text("ideas")
    code, printed, err = run_cli("batch", deck, "--out", out, "--no-progress")
    assert code == 2 and err.count("\n") == 1
    assert f"{out / 'summary.md'}: exists and was not written by `ubongo-cp batch`" in err
    assert sorted(p.name for p in out.iterdir()) == ["ideas.txt", "summary.md"]
    assert (out / "summary.md").read_text() == "my own summary"


@pytest.mark.parametrize("journal", ["my notes\nsecond line, no newline", "my notes\n"])
def test_a_file_of_the_users_named_like_the_journal_is_no_licence(run_cli, deck, tmp_path, journal):
    # A tasks.jsonl that is not a batch journal neither is taken over (cut, appended to) nor lets the
    # files beside it be replaced: the first of the outputs met is refused, nothing is written.
    out = tmp_path / "notes"
    out.mkdir()
    (out / "tasks.jsonl").write_text(journal)
    (out / "summary.md").write_text("my own summary")
    code, printed, err = run_cli("batch", deck, "--out", out, "--no-progress")
    assert code == 2 and err.count("\n") == 1 and "was not written by `ubongo-cp batch`" in err
    assert sorted(p.name for p in out.iterdir()) == ["summary.md", "tasks.jsonl"]
    assert (out / "tasks.jsonl").read_text() == journal
    assert (out / "summary.md").read_text() == "my own summary"


def test_a_second_run_into_a_locked_folder_is_refused(run_cli, deck, tmp_path):
    import subprocess
    import sys

    out = tmp_path / "out"
    assert run_cli("batch", deck, "--out", out, "--no-progress")[0] == 0
    before = _tables(out)
    # Another process holds the folder (as a running batch does) until told to stop.
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys; from ubongo_cp.outputs import OutputFolder\n"
         f"with OutputFolder({str(out)!r}, 'batch'):\n    print('locked', flush=True); sys.stdin.read()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        code, printed, err = run_cli("batch", deck, "--out", out, "--no-progress")
        assert code == 2 and err.count("\n") == 1
        assert f"{out}: another ubongo-cp run is writing into this folder" in err
        assert _tables(out) == before
    finally:
        holder.communicate("", timeout=60)
    assert run_cli("batch", deck, "--out", out, "--no-progress")[0] == 0     # free again


def test_a_deck_spec_folder_given_as_a_deck_says_what_to_do(tmp_path, run_cli):
    # "no *.toml card files" beside a deck.toml left a new designer guessing.
    assert run_cli("examples", "designer", "--copy", tmp_path)[0] == 0
    code, _, err = run_cli("batch", tmp_path / "designer", "--out", tmp_path / "out", "--no-progress")
    assert code == 2 and err == (f"ubongo-cp: error: {tmp_path / 'designer'}: no *.toml card files in deck directory "
                                 "(it holds a deck spec, deck.toml: generate a deck from it first)\n")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("column, value, message", [
    ("count", "inf", "column count: 'inf' is not a whole number below 2**63 (the column's range)"),
    ("count", str(2 ** 70), f"column count: '{2 ** 70}' is not a whole number below 2**63 (the column's range)"),
    ("face", "1e300", "column face: '1e300' is not a whole number below 2**63 (the column's range)"),
    ("solution", '{"I3": [[1e999, 0]]}', "column solution: '{\"I3\": [[1e999, 0]]}' is not a solution (piece -> "
                                         "[[row, col], ...])"),
    # A count below zero was read and drawn in the booklet ('-2 solutions'); a face 0 matched no task of the deck.
    ("count", "-2", "column count: '-2' is not a count (a whole number >= 0)"),
    ("search_nodes", "-1", "column search_nodes: '-1' is not a count (a whole number >= 0)"),
    ("face", "0", "column face: '0' is not a die face (a whole number >= 1)"),
    # A count of 1e5 was read as 100000: a whole number is written in digits.
    ("count", "1e5", "column count: '1e5' is not a whole number written in digits (no exponent)"),
    ("search_nodes", "2E3", "column search_nodes: '2E3' is not a whole number written in digits (no exponent)"),
    # Once "RecursionError: maximum recursion depth exceeded while decoding a JSON array" (exit 1).
    ("solution", "[" * 5000, f"column solution: '{'[' * 60}' is not a solution (piece -> [[row, col], ...])"),
], ids=["count inf", "count 2**70", "face 1e300", "solution 1e999", "count -2", "nodes -1", "face 0",
        "count 1e5", "nodes 2E3", "solution nested 5000 deep"])
def test_a_table_number_beyond_its_column_is_one_clear_line(tmp_path, run_cli, column, value, message):
    # Once raw errors: "OverflowError: cannot convert float infinity to integer" (an infinite count, a cell
    # at 1e999 in a solution) and "TypeError: cannot safely cast non-equivalent float64 to int64" (2**70).
    import csv
    import io

    from ubongo_cp.errors import InputError
    from ubongo_cp.report import load_tasks

    rows = list(csv.reader(io.StringIO((PUZZLES / "decks" / "classic" / "tasks.csv").read_text())))
    rows[3][rows[0].index(column)] = value
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path = tmp_path / "tasks.csv"
    path.write_text(out.getvalue())
    with pytest.raises(InputError) as info:
        load_tasks(path)
    assert str(info.value) == f"{path}:4: {message}", info.value
    code, _, err = run_cli("booklet", PUZZLES / "decks" / "classic", "--results", path, "--out", tmp_path / "b.pdf")
    assert code == 2 and err == f"ubongo-cp: error: {path}:4: {message}\n", err


def test_a_count_in_digits_is_read_as_written(tmp_path):
    import csv
    import io

    from ubongo_cp.report import load_tasks

    rows = list(csv.reader(io.StringIO((PUZZLES / "decks" / "classic" / "tasks.csv").read_text())))
    rows[3][rows[0].index("count")] = "100000"
    rows[4][rows[0].index("count")] = "+7"
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    path = tmp_path / "tasks.csv"
    path.write_text(out.getvalue())
    assert load_tasks(path)["count"].tolist()[2:4] == [100000, 7]
    kept = load_tasks(PUZZLES / "decks" / "classic" / "tasks.csv")   # 2**63 - 1 still fits
    assert kept["count"].max() < 2 ** 63


def test_a_spreadsheets_empty_rows_in_a_tasks_csv_are_no_tasks(tmp_path):
    # A tasks.csv re-saved by a spreadsheet with rows of empty fields (",,,,"): load_tasks kept each as a task of
    # no card, side or face, so the summary counted it among the tasks and its piece balance raised IndexError.
    import csv

    from ubongo_cp.errors import InputError
    from ubongo_cp.report import cards_frame, load_tasks, summary_markdown
    from ubongo_cp.shipped import deck_tasks_path

    rows = list(csv.reader(deck_tasks_path("classic").open()))
    width = len(rows[0])
    edited = rows[:4] + [[""] * width] + rows[4:] + [[""] * width]
    with (tmp_path / "tasks.csv").open("w", newline="") as f:
        csv.writer(f).writerows(edited)
    tasks = load_tasks(tmp_path / "tasks.csv")
    assert len(tasks) == len(rows) - 1 == 432
    assert tasks["card_id"].notna().all() and list(tasks["face"][:4]) == [int(r[2]) for r in rows[1:5]]
    summary = summary_markdown(tasks, cards_frame(tasks), [])
    solved = sum(r[rows[0].index("status")] == "solved" for r in rows[1:])
    assert f"- tasks: 432; solved {solved}," in summary
    # A value that does not fit its column is still named by its line in the file (the empty row counted).
    edited[6][2] = "x"
    with (tmp_path / "tasks.csv").open("w", newline="") as f:
        csv.writer(f).writerows(edited)
    with pytest.raises(InputError, match=r"tasks\.csv:7: column face: 'x' is not a number"):
        load_tasks(tmp_path / "tasks.csv")
    # A blank line (no row to pandas) counts too: once the row's position from the header line was named (6).
    text = (tmp_path / "tasks.csv").read_text().splitlines()
    (tmp_path / "tasks.csv").write_text("\n".join(text[:2] + [""] + text[2:]) + "\n")
    with pytest.raises(InputError, match=r"tasks\.csv:8: column face: 'x' is not a number"):
        load_tasks(tmp_path / "tasks.csv")
    # So does a line of spaces only, which pandas skips as blank too (once refused as a row of 1 field).
    (tmp_path / "tasks.csv").write_text("\n".join(text[:2] + ["   "] + text[2:]) + "\n")
    with pytest.raises(InputError, match=r"tasks\.csv:8: column face: 'x' is not a number"):
        load_tasks(tmp_path / "tasks.csv")


@pytest.mark.parametrize("value, form, message", [
    ("NaN", "csv", "column face: 'NaN' is not a die face (a whole number)"),
    ("nan", "csv", "column face: 'nan' is not a die face (a whole number)"),
    ("", "csv", "column face is empty in a task's row (each task's row names its card, side and die face)"),
    (None, "parquet", "column face (row 3) is empty in a task's row"),
])
def test_a_task_row_with_its_face_written_nan_or_left_empty_is_refused(tmp_path, run_cli, value, form, message):
    # A face written NaN (a spreadsheet's re-save) or left empty was read as missing: the row was the key of no
    # task, the booklet solved that task again ("no matching result") and calibrate missed its times.
    from conftest import one_line_error
    from ubongo_cp.errors import InputError
    from ubongo_cp.report import load_tasks
    from ubongo_cp.shipped import deck_dir, deck_tasks_path

    raw = pd.read_csv(deck_tasks_path("classic"), dtype=str, keep_default_na=False)
    raw.loc[2, "face"] = value
    path = tmp_path / f"tasks.{form}"
    if form == "csv":
        raw.to_csv(path, index=False)
    else:
        raw.assign(face=pd.to_numeric(raw["face"])).to_parquet(path)   # a float column, NaN for the face
    with pytest.raises(InputError) as err:
        load_tasks(path)
    assert (err.value.path, err.value.line) == (str(path), 4 if form == "csv" else None)
    assert err.value.message.startswith(message)
    deck = tmp_path / "deck"
    deck.mkdir()
    (deck / "01_easy.toml").write_text((deck_dir("classic") / "01_easy.toml").read_text())
    code, out, err_text = run_cli("booklet", deck, "--results", path, "--out", tmp_path / "b.pdf", "--no-progress")
    one_line_error(code, err_text, f"ubongo-cp: error: {path}{':4' if form == 'csv' else ''}: {message}")
    assert not (tmp_path / "b.pdf").exists()



def test_the_summary_names_an_orientation_mode_set_for_every_card_side(deck, tmp_path):
    """The tables hold no column for the run's orientation mode, and the mode changes the answers: the summary
    says so, rather than listing the tasks with no one-sided solution with no word of why."""
    from ubongo_cp.cover import build_instance

    one_sided = run_batch(deck, tmp_path / "out", progress=False, orientations="one-sided")
    unsolvable = 0
    for path in sorted(deck.glob("*.toml")):
        card = load_card(path)
        for face in card.tasks:
            inst = build_instance(card.task_pieces(face), card.region, mode="one-sided")
            unsolvable += solve(inst, backend="cpsat").count == 0
    assert 0 < unsolvable < 18
    summary = (tmp_path / "out" / "summary.md").read_text(encoding="utf-8")
    assert f"no solution {unsolvable}," in summary
    assert "- settings: orientations one-sided on every card side (not each card's own)\n" in summary
    assert one_sided.summary == summary
    free = run_batch(deck, tmp_path / "out", progress=False)   # the cards' own mode again: no such line
    assert "- settings:" not in free.summary and "no solution 0," in free.summary
    timed = run_batch(deck, tmp_path / "out", progress=False, backend="dlx", time_limit=60)
    assert "- settings: counting solver dlx; time limit 60 s per task and solver\n" in timed.summary


def test_a_tasks_table_is_not_read_as_a_cards_table_nor_the_other_way(deck, tmp_path):
    """Both tables have the key columns card_id and side: a tasks table given to load_cards read as one card side
    per task (18 'card sides' of 3), with no word."""
    from ubongo_cp.errors import InputError
    from ubongo_cp.report import load_cards, load_tasks

    run_batch(deck, tmp_path / "out", progress=False)
    assert len(load_cards(tmp_path / "out")) == 3 and len(load_tasks(tmp_path / "out")) == 18
    for suffix in ("csv", "parquet"):
        with pytest.raises(InputError, match="is a tasks table .*read it with load_tasks"):
            load_cards(tmp_path / "out" / f"tasks.{suffix}")
        with pytest.raises(InputError, match="lacks column.*face.*it is a cards table .*read it with load_cards"):
            load_tasks(tmp_path / "out" / f"cards.{suffix}")


@pytest.mark.parametrize("faces, message", [
    ([7], "card 01 side easy has no face 7 (faces 1..6)"),   # was KeyError: 7
    ([1, "2"], "face must be a whole number"),                 # was KeyError: '2'
    (1, "faces is a list of die faces, e.g. [1, 2], got 1"),   # was TypeError: 'int' object is not iterable
    ("12", "faces is a list of die faces"),                    # was KeyError: '1'
    ([True], "face must be a whole number, got True"),         # was rated as face 1 (True == 1)
    ([2.0], "face must be a whole number, got 2.0"),           # was rated as face 2
])
def test_rate_card_side_names_a_face_the_card_side_lacks(deck, faces, message):
    from ubongo_cp.batch import rate_card_side
    from ubongo_cp.errors import InputError

    card = load_card(deck / "01_easy.toml")
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)").replace("[", r"\[")):
        rate_card_side(card, faces)
    rows = rate_card_side(card, (face for face in [2, 1]))   # any iterable, in the order given
    assert [row["face"] for row in rows] == [2, 1]
    assert [row["count"] for row in rows] == [solve(task_instance(card, f), backend="dlx").count for f in (2, 1)]
