"""Long game studies keep their finished games: a journal beside the table, resumed by the same command.

A tournament or simulation stopped by Ctrl-C, a crash or a kill resumes where it stopped: the games on
record are not played again, and the table is that of an uninterrupted run with the same seed, with one
process or a pool of them.
"""

from __future__ import annotations

import json
import re

import pandas as pd
import pytest

from ubongo_cp.cli import main
from ubongo_cp.errors import InputError
from ubongo_cp.executors import LocalExecutor, chunks
from ubongo_cp.games.orion import sim as orion_sim
from ubongo_cp.games.journal import GameJournal
from ubongo_cp.games.tasks import default_tasks_path

AGENTS = ["random", "greedy"]


def _stopping(monkeypatch, module, name: str, after: int) -> list[int]:
    """Count the games ``module.name`` (a chunk function, its first two arguments a chunk's bounds) plays in this
    process (the list's sum); with ``after``, the call after that many chunks is cut by Ctrl-C."""
    real, played = getattr(module, name), []

    def chunk(start, stop, *args):
        if after is not None and len(played) == after:
            raise KeyboardInterrupt
        played.append(stop - start)
        return real(start, stop, *args)

    monkeypatch.setattr(module, name, chunk)
    return played


def _whole_then_again(tmp_path, monkeypatch, capsys, argv: list[str]) -> str:
    """Run ``argv`` uninterrupted in a new folder ``tmp_path/whole`` and return what it printed; then go into a
    new folder ``tmp_path/again`` (for the run compared with it)."""
    (tmp_path / "whole").mkdir()
    monkeypatch.chdir(tmp_path / "whole")
    assert main(argv) == 0
    want = capsys.readouterr().out
    (tmp_path / "again").mkdir()
    monkeypatch.chdir(tmp_path / "again")
    return want


def _lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def tournament():
    """An uninterrupted tournament of 3 pairings x 8 games, no journal."""
    return orion_sim.run_tournament(AGENTS, 8, seed=3)


def test_a_tournament_stopped_by_ctrl_c_resumes_with_the_table_of_an_uninterrupted_one(tournament, tmp_path,
                                                                                      monkeypatch):
    journal = tmp_path / "t.jsonl"
    monkeypatch.setattr(orion_sim, "JOURNAL_SECONDS", 2.0)   # 4 greedy games a line: 6 lines of 24 games
    with monkeypatch.context() as m:
        played = _stopping(m, orion_sim, "_tournament_rows", after=2)
        with pytest.raises(KeyboardInterrupt):
            orion_sim.run_tournament(AGENTS, 8, seed=3, journal=journal)
    assert played == [4, 4]
    head, *lines = _lines(journal)
    assert head["study"] == "orion tournament" and head["options"]["seed"] == 3
    assert [(line["first"], line["last"]) for line in lines] == [(0, 4), (4, 8)]
    assert [r["game"] for r in lines[1]["rows"]] == [g for g in range(4, 8) for _ in (0, 1)]
    played = _stopping(monkeypatch, orion_sim, "_tournament_rows", after=None)
    said = []
    resumed = orion_sim.run_tournament(AGENTS, 8, seed=3, journal=journal, notify=said.append)
    pd.testing.assert_frame_equal(resumed, tournament)
    assert sum(played) == 16                                         # the 8 games on record not played again
    assert said == [f"resuming from {journal}: 8 game(s) already played are taken from it"]
    assert len(_lines(journal)) == 1 + 2 + 4                         # no game written twice
    # run again once finished: nothing is played, the same table
    played.clear()
    pd.testing.assert_frame_equal(orion_sim.run_tournament(AGENTS, 8, seed=3, journal=journal), tournament)
    assert played == []


def test_a_tournament_on_a_process_pool_resumes_with_the_same_table(tournament, tmp_path, monkeypatch):
    # Ctrl-C in this process while the workers play; the resumed run on the pool gives the in-process table.
    journal = tmp_path / "t.jsonl"
    real = GameJournal.append

    def append(self, first, last, rows):
        if len(_lines(self.path)) == 3:
            raise KeyboardInterrupt
        return real(self, first, last, rows)

    with monkeypatch.context() as m:
        m.setattr(GameJournal, "append", append)
        with pytest.raises(KeyboardInterrupt):
            orion_sim.run_tournament(AGENTS, 8, seed=3, journal=journal, executor=LocalExecutor(2))
    kept = sum(line["last"] - line["first"] for line in _lines(journal)[1:])
    assert len(_lines(journal)) == 3 and 0 < kept < 24
    resumed = orion_sim.run_tournament(AGENTS, 8, seed=3, journal=journal, executor=LocalExecutor(2))
    pd.testing.assert_frame_equal(resumed, tournament)
    assert sum(line["last"] - line["first"] for line in _lines(journal)[1:]) == 24


def test_a_torn_or_damaged_line_is_dropped_and_its_games_played_again(tournament, tmp_path, monkeypatch):
    journal = tmp_path / "t.jsonl"
    monkeypatch.setattr(orion_sim, "JOURNAL_SECONDS", 2.0)
    orion_sim.run_tournament(AGENTS, 8, seed=3, journal=journal)
    text = journal.read_text().splitlines(keepends=True)
    assert len(text) == 7
    changed = json.loads(text[2])
    changed["rows"][0]["length"] += 1                             # edited by hand: its check no longer matches
    journal.write_text("".join([*text[:2], json.dumps(changed) + "\n", *text[3:-1], text[-1][:40]]))  # last torn
    played = _stopping(monkeypatch, orion_sim, "_tournament_rows", after=None)
    pd.testing.assert_frame_equal(orion_sim.run_tournament(AGENTS, 8, seed=3, journal=journal), tournament)
    assert played == [4, 4]                                        # the changed line's games and the torn one's
    assert journal.read_text().endswith("\n") and len(_lines(journal)) == 7 + 1


def test_a_journal_of_other_options_or_no_journal_is_refused_and_left_alone(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    argv = ["orion", "tournament", "--games", "2", "--agents", "random", "--seed", "1", "--no-progress",
            "--out", "t.csv"]
    assert main(argv) == 0
    before = (tmp_path / "t.jsonl").read_bytes()
    capsys.readouterr()
    assert main([*argv[:-2], "--out", "t.parquet", "--seed", "2", "--games", "3"]) == 2
    err = capsys.readouterr().err
    assert err == ("ubongo-cp: error: t.jsonl: is the journal of games played with other options (seed 1, now 2); it "
                   "is left as it is: run with the same options to resume it, or remove it (or choose another output) "
                   "to start afresh (removing it loses the 2 finished game(s) it holds)\n")
    assert (tmp_path / "t.jsonl").read_bytes() == before and not (tmp_path / "t.parquet").exists()
    (tmp_path / "notes.jsonl").write_text('{"mine": 1}\n')
    assert main([*argv[:-2], "--out", "notes.csv"]) == 2
    assert capsys.readouterr().err == ("ubongo-cp: error: notes.jsonl: exists and is not a journal of games written "
                                       "by ubongo-cp; it is left as it is: remove it, or choose another output\n")
    assert (tmp_path / "notes.jsonl").read_text() == '{"mine": 1}\n' and not (tmp_path / "notes.csv").exists()


def test_a_tournament_journal_of_another_variant_names_what_differs(tmp_path, monkeypatch, capsys):
    # The tile set and the OD-1 spacings were journaled as one digest: "other options (variant 74c4417b90832fce,
    # now 195f23c72a355b48)" said nothing of what the user had changed.
    monkeypatch.chdir(tmp_path)
    argv = ["orion", "tournament", "--games", "1", "--agents", "random", "--no-progress", "--out", "t.csv"]
    assert main([*argv, "--tiles", "seed"]) == 0
    capsys.readouterr()
    for other, change in ((["--tiles", "published"], r"variant tiles seed \([0-9a-f]{12}\), now published \([0-9a-f]{12}\)"),
                          (["--tiles", "seed", "--spacing", "literal"],
                           r"variant setup rules hole spacing 3, now 2; variant setup rules hole galaxy spacing 2, now 1")):
        assert main([*argv, *other]) == 2
        assert re.fullmatch(rf"ubongo-cp: error: t.jsonl: is the journal of games played with other options \({change}\); "
                            r"it is left as it is: .*\n", capsys.readouterr().err)
    assert main([*argv, "--tiles", "seed"]) == 0   # the same variant resumes
    assert "resuming from t.jsonl: 1 game(s)" in capsys.readouterr().err
    # another command's journal: removing it would lose its game (the tournament's one game, on record)
    with pytest.raises(InputError, match=r"journal of `ubongo-cp orion tournament`, not of `ubongo-cp demo`; it is "
                                         r"left as it is: choose another output, or remove it \(removing it loses "
                                         r"the 1 finished game\(s\) it holds\)$"):
        with GameJournal(tmp_path / "t.jsonl", "demo", {}):
            pass
    # fresh entropy would play other games on resuming: refused before any game, and no journal is begun
    with pytest.raises(InputError, match="needs a seed that plays them again: a whole number .*, got NoneType"):
        orion_sim.run_tournament(["random"], 1, seed=None, journal=tmp_path / "fresh.jsonl")
    assert not (tmp_path / "fresh.jsonl").exists()


def test_ctrl_c_during_the_tournament_command_keeps_the_games_and_the_same_command_resumes(tmp_path, monkeypatch,
                                                                                          capsys):
    argv = ["orion", "tournament", "--games", "8", "--agents", ",".join(AGENTS), "--seed", "3", "--no-progress",
            "--out", "t.csv"]
    want = _whole_then_again(tmp_path, monkeypatch, capsys, argv)
    whole, again = tmp_path / "whole", tmp_path / "again"
    with monkeypatch.context() as m:
        played = _stopping(m, orion_sim, "_tournament_rows", after=1)
        assert main(argv) == 130
    assert played == [8]
    assert capsys.readouterr().err.splitlines()[-2:] == [
        "ubongo-cp: interrupted",
        "ubongo-cp: note: the games finished are kept in t.jsonl: run the same command to resume"]
    assert not (again / "t.csv").exists()
    assert main(argv) == 0
    out = capsys.readouterr()
    assert out.out == want and "resuming from t.jsonl: 8 game(s)" in out.err
    assert (again / "t.csv").read_bytes() == (whole / "t.csv").read_bytes()


# ------------------------------------------------------------------------------------------ the simulators
def _simulators():
    """``run(**kw) -> table`` of each simulator: 60 games (2 journal lines), ``kw`` the journal, the executor."""
    from ubongo_cp.games.domino import sim as domino_sim
    from ubongo_cp.games.duel import sim as duel_sim
    from ubongo_cp.games.tasks import as_deck, synthetic_tasks
    from ubongo_cp.games.ubongo import sim as ubongo_sim

    classic, duel = as_deck(synthetic_tasks("classic"), "classic"), as_deck(synthetic_tasks("duel"), "duel")
    return {
        "ubongo": lambda **kw: ubongo_sim.simulate_ubongo(classic, 3, 60, seed=5, strategies=["stay", "lookahead"],
                                                          skills=[1.0, 1.5], **kw),
        "duel": lambda **kw: duel_sim.simulate_duel(duel, 60, 1.0, 0.8, seed=3, handicap=True, **kw),
        "domino": lambda **kw: domino_sim.simulate(["random", "greedy"], 60, seed=4, rotate_seats=True, **kw),
        # 30 matches of each of 2 settings (a gap without and with the handicap): 60 in one journal
        "duel --sweep": lambda **kw: duel_sim.handicap_sweep(duel, [0.7], 30, seed=3, **kw),
    }


@pytest.mark.parametrize("game", ["ubongo", "duel", "domino", "duel --sweep"])
def test_a_simulation_stopped_by_ctrl_c_resumes_with_the_table_of_an_uninterrupted_one(game, tmp_path, monkeypatch):
    run = _simulators()[game]
    whole = run()
    journal = tmp_path / "s.jsonl"
    with monkeypatch.context() as m:
        played = _stopping(m, chunks, "_run_chunk", after=1)
        with pytest.raises(KeyboardInterrupt):
            run(journal=journal)
    assert played == [30]
    head, line = _lines(journal)
    assert head["study"] == f"simulate {game}" and (line["first"], line["last"]) == (0, 30)
    with monkeypatch.context() as m:
        played = _stopping(m, chunks, "_run_chunk", after=None)
        pd.testing.assert_frame_equal(run(journal=journal), whole)
    assert played == [30]                                          # the games on record are not played again
    # a journal torn in its last line, resumed on a process pool: that line's games alone are played again
    journal.write_bytes(journal.read_bytes()[:-20])
    pd.testing.assert_frame_equal(run(journal=journal, executor=LocalExecutor(2)), whole)
    ranges = sorted((line["first"], line["last"]) for line in _lines(journal)[1:])
    assert ranges[0] == (0, 30) and [a for a, _ in ranges[1:]] == [b for _, b in ranges[:-1]] and ranges[-1][1] == 60


@pytest.mark.parametrize("argv", [
    ["simulate", "ubongo", "--synthetic", "--games", "60", "--players", "2"],
    ["simulate", "duel", "--synthetic", "--games", "60"],
    ["simulate", "domino", "--games", "60", "--players", "2"],
    ["simulate", "duel", "--synthetic", "--games", "30", "--sweep", "1.5"],   # 30 matches x 2 settings
])
def test_ctrl_c_during_a_simulate_command_keeps_the_games_and_the_same_command_resumes(argv, tmp_path, monkeypatch,
                                                                                        capsys):
    argv = [*argv, "--seed", "7", "--no-progress", "--out", "s.parquet"]
    want = _whole_then_again(tmp_path, monkeypatch, capsys, argv)
    with monkeypatch.context() as m:
        _stopping(m, chunks, "_run_chunk", after=1)
        assert main(argv) == 130
    assert capsys.readouterr().err.splitlines()[-1] == ("ubongo-cp: note: the games finished are kept in s.jsonl: "
                                                        "run the same command to resume")
    assert main(argv) == 0
    out = capsys.readouterr()
    assert out.out == want and out.err == "ubongo-cp: resuming from s.jsonl: 30 game(s) already played are taken from it\n"
    pd.testing.assert_frame_equal(pd.read_parquet("s.parquet"), pd.read_parquet(tmp_path / "whole" / "s.parquet"))
    assert main([*argv, "--sigma", "0.2"] if argv[1] != "domino" else [*argv, "--max-rounds", "400"]) == 2
    change = "model sigma 0.4, now 0.2" if argv[1] != "domino" else "settings max rounds 500, now 400"
    assert capsys.readouterr().err == (f"ubongo-cp: error: s.jsonl: is the journal of games played with other options "
                                       f"({change}); it is left as it is: run with the same options to resume it, or "
                                       "remove it (or choose another output) to start afresh (removing it loses the "
                                       "60 finished game(s) it holds)\n")           # --games 60, all played


def test_the_same_skills_given_in_full_or_cycled_resume_the_journal(tmp_path, monkeypatch, capsys):
    """``--skills 1 2`` and ``--skills 1 2 1 2`` (cycled over 4 players) play the same games: the journal resumes."""
    monkeypatch.chdir(tmp_path)
    argv = ["simulate", "ubongo", "--synthetic", "--games", "4", "--players", "4", "--no-progress", "--out", "s.csv"]
    assert main([*argv, "--skills", "1", "2"]) == 0
    want = capsys.readouterr().out
    assert main([*argv, "--skills", "1", "2", "1", "2"]) == 0
    out = capsys.readouterr()
    assert out.out == want and "resuming from s.jsonl: 4 game(s)" in out.err
    assert main([*argv, "--skills", "1", "1"]) == 2     # other skills: refused, naming them
    assert "(skills 1.0,2.0, now 1.0)" in capsys.readouterr().err


def test_a_second_run_on_a_journal_in_use_is_refused_naming_the_option_to_change(tmp_path, monkeypatch, capsys):
    """The commands keeping a games journal have no journal option: the refusal names ``--out``."""
    monkeypatch.chdir(tmp_path)
    argv = ["simulate", "domino", "--games", "4", "--players", "2", "--no-progress", "--out", "s.csv"]
    with GameJournal("s.jsonl", "simulate domino", {"seed": 0}):   # a run still going on
        assert main(argv) == 2
    assert capsys.readouterr().err == ("ubongo-cp: error: s.jsonl: is the journal of a run still going on (another "
                                       "process holds it); wait for that run to end, or choose another --out\n")


def test_a_journal_stopped_before_its_first_game_is_begun_afresh_under_other_options(tmp_path, monkeypatch, capsys):
    # A run stopped (or failed) after writing its journal's header but before any game left a file that refused
    # every run of other options until the user removed it, though it held nothing to keep.
    argv = ["orion", "tournament", "--agents", ",".join(AGENTS), "--no-progress", "--out", "t.csv"]
    other = [*argv, "--games", "3", "--seed", "2"]
    want = _whole_then_again(tmp_path, monkeypatch, capsys, other)
    whole, again = tmp_path / "whole", tmp_path / "again"
    with monkeypatch.context() as m:
        played = _stopping(m, orion_sim, "_tournament_rows", after=0)
        assert main([*argv, "--games", "2", "--seed", "1"]) == 130
    assert played == [] and [line["options"]["games"] for line in _lines(again / "t.jsonl")] == [2]   # a header
    capsys.readouterr()
    assert main(other) == 0
    assert capsys.readouterr().out == want
    assert (again / "t.csv").read_bytes() == (whole / "t.csv").read_bytes()
    assert _lines(again / "t.jsonl")[0]["options"]["seed"] == 2


def _simulators_of(games: int):
    """``run(**kw) -> table`` of each simulator, ``games`` games (matches) of the settings of :func:`_simulators`."""
    from ubongo_cp.games.domino import sim as domino_sim
    from ubongo_cp.games.duel import sim as duel_sim
    from ubongo_cp.games.tasks import as_deck, synthetic_tasks
    from ubongo_cp.games.ubongo import sim as ubongo_sim

    classic, duel = as_deck(synthetic_tasks("classic"), "classic"), as_deck(synthetic_tasks("duel"), "duel")
    return {
        "ubongo": lambda **kw: ubongo_sim.simulate_ubongo(classic, 3, games, seed=5, strategies=["stay", "lookahead"],
                                                          skills=[1.0, 1.5], **kw),
        "duel": lambda **kw: duel_sim.simulate_duel(duel, games, 1.0, 0.8, seed=3, handicap=True, **kw),
        "domino": lambda **kw: domino_sim.simulate(["random", "greedy"], games, seed=4, rotate_seats=True, **kw),
    }


@pytest.mark.parametrize("game", ["ubongo", "duel", "domino"])
def test_a_simulation_with_more_games_extends_its_journal_and_one_with_fewer_takes_them_from_it(game, tmp_path,
                                                                                               monkeypatch):
    # Game g depends only on the seed and g: a run of 40 games on the journal of 25 plays the 15 missing ones and
    # gives the table of a straight run of 40 (it was refused: "other options (games 25, now 40)"); a run of 10
    # then plays nothing and gives the table of a straight run of 10.
    journal = tmp_path / "s.jsonl"
    _simulators_of(25)[game](journal=journal)
    with monkeypatch.context() as m:
        played = _stopping(m, chunks, "_run_chunk", after=None)
        longer = _simulators_of(40)[game](journal=journal)
    assert sum(played) == 15
    pd.testing.assert_frame_equal(longer, _simulators_of(40)[game]())
    said = []
    with monkeypatch.context() as m:
        played = _stopping(m, chunks, "_run_chunk", after=None)
        shorter = _simulators_of(10)[game](journal=journal, notify=said.append)
    assert played == [] and said == [f"resuming from {journal}: 10 game(s) already played are taken from it"]
    pd.testing.assert_frame_equal(shorter, _simulators_of(10)[game]())


def test_a_tournament_run_again_with_more_games_plays_only_the_missing_ones(tmp_path, monkeypatch, capsys):
    # A tournament's game g of pairing p depends on the seed, p and g, not on --games: the same command with more
    # --games resumes the journal, plays only the games it lacks, and writes the table of a straight run of that
    # many, byte for byte (a journal of other games per pairing was refused: game i played pairing i // games
    # and was seeded by i); one with fewer games takes them all from the journal.
    monkeypatch.chdir(tmp_path)
    argv = ["orion", "tournament", "--agents", ",".join(AGENTS), "--seed", "4", "--no-progress"]
    for games in ("3", "5"):
        assert main([*argv, "--games", games, "--out", f"straight{games}.csv"]) == 0
    assert main([*argv, "--games", "2", "--out", "grown.csv"]) == 0
    for games, new, kept in (("5", 9, 6), ("3", 0, 9)):   # 3 pairings x 3 more games; then none
        capsys.readouterr()
        with monkeypatch.context() as m:
            played = _stopping(m, orion_sim, "_tournament_rows", after=None)
            assert main([*argv, "--games", games, "--out", "grown.csv"]) == 0
        assert sum(played) == new, games
        assert f"resuming from grown.jsonl: {kept} game(s) already played" in capsys.readouterr().err
        assert (tmp_path / "grown.csv").read_bytes() == (tmp_path / f"straight{games}.csv").read_bytes(), games


@pytest.mark.parametrize("game", ["ubongo", "duel"])
def test_a_journal_of_another_deck_names_both_decks_in_words(game, tmp_path, monkeypatch, capsys):
    # The deck was journaled as a digest alone: "other options (deck af62..., now a76d...)". Now it is named
    # (its file, or synthetic) beside its digest; the same deck from another file is the same deck and resumes.
    import shutil

    monkeypatch.chdir(tmp_path)
    argv = ["simulate", game, "--games", "3", "--seed", "1", "--no-progress", "--out", "s.csv"]
    if game == "ubongo":
        argv += ["--players", "2"]
    assert main([*argv, "--synthetic"]) == 0
    shutil.copy(default_tasks_path("classic" if game == "ubongo" else "duel"), tmp_path / "mine.csv")
    capsys.readouterr()
    assert main([*argv, "--tasks", "mine.csv"]) == 2
    err = capsys.readouterr().err
    assert re.fullmatch(r"ubongo-cp: error: s\.jsonl: is the journal of games played with other options \(deck "
                        r"synthetic \([0-9a-f]{16}\), now mine\.csv \([0-9a-f]{16}\)\); it is left as it is: .*\n", err)
    (tmp_path / "s.jsonl").unlink()
    assert main([*argv, "--tasks", "mine.csv"]) == 0
    shutil.copy(tmp_path / "mine.csv", tmp_path / "copy.csv")
    capsys.readouterr()
    assert main([*argv, "--tasks", "copy.csv"]) == 0
    assert "resuming from s.jsonl: 3 game(s)" in capsys.readouterr().err


@pytest.mark.parametrize("game", ["ubongo", "duel"])
def test_a_shipped_deck_is_named_by_its_short_name_wherever_the_command_runs(game, tmp_path, monkeypatch, capsys):
    # Run outside the project, the shipped deck was named by its full path inside the installed package, in the
    # run's header and in a journal's refusal; the commands name it by the short name they take.
    from ubongo_cp.games.journal import deck_option
    from ubongo_cp.games.tasks import as_deck
    from ubongo_cp.shipped import deck_tasks_path

    name = "classic" if game == "ubongo" else "duel"
    monkeypatch.chdir(tmp_path)
    argv = ["simulate", game, "--games", "2", "--no-progress", "--out", "s.csv"]
    if game == "ubongo":
        argv += ["--players", "2"]
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith(f", tasks: shipped {name}")
    digest = deck_option(as_deck(deck_tasks_path(name), name))["digest"]   # the shipped table, read on its own
    assert main([*argv, "--synthetic"]) == 2
    err = capsys.readouterr().err
    assert f"(deck shipped {name} ({digest}), now synthetic (" in err and str(deck_tasks_path(name)) not in err


def test_a_tile_set_file_of_the_seed_sets_tiles_is_the_seed_variant(tmp_path, monkeypatch, capsys):
    # --tiles mine.txt holding the shipped seed set's text is --tiles seed: its journal resumes (it was refused as
    # "variant tiles seed (...), now mine (...)", the same tiles under two names), and its record names "seed".
    from ubongo_cp.games.orion.tiles import format_tiles, load_tiles

    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.txt").write_text(format_tiles(load_tiles("seed")))
    argv = ["orion", "tournament", "--games", "1", "--agents", "random", "--no-progress", "--out", "t.csv"]
    assert main([*argv, "--tiles", "seed"]) == 0
    want = capsys.readouterr().out
    assert main([*argv, "--tiles", "mine.txt"]) == 0
    out = capsys.readouterr()
    assert out.out == want and "resuming from t.jsonl: 1 game(s)" in out.err
    mine = load_tiles("mine.txt", flips=False)
    assert mine.name == "seed" and mine == load_tiles("seed", flips=False) and not mine.flips
    (tmp_path / "other.txt").write_text(format_tiles(load_tiles("seed")).replace("O", "x", 1))
    assert load_tiles("other.txt").name == "other"   # other tiles keep the file's name


def test_a_journal_refused_for_other_options_says_how_many_games_removing_it_loses(tmp_path):
    # 60 duel matches on record in 2 lines of 30; a line changed by hand fails its check and is not counted
    # (a resume would play it again): 30 games are lost by removing the journal, not 60.
    from ubongo_cp.games.duel import sim as duel_sim
    from ubongo_cp.games.tasks import as_deck, synthetic_tasks

    journal = tmp_path / "s.jsonl"
    _simulators()["duel"](journal=journal)
    head, *lines = _lines(journal)
    assert sorted((line["first"], line["last"]) for line in lines) == [(0, 30), (30, 60)]
    deck = as_deck(synthetic_tasks("duel"), "duel")

    def refusal() -> str:
        with pytest.raises(InputError) as err:
            duel_sim.simulate_duel(deck, 60, 1.0, 0.8, seed=4, handicap=True, journal=journal)
        return str(err.value)

    assert refusal().endswith("to start afresh (removing it loses the 60 finished game(s) it holds)")
    lines[1]["first"] = 29                              # edited after it was written: its check fails
    journal.write_text("".join(json.dumps(x) + "\n" for x in (head, *lines)))
    assert refusal().endswith("to start afresh (removing it loses the 30 finished game(s) it holds)")


def test_a_handicap_sweep_journals_its_settings_round_by_round_and_a_longer_one_extends_it(tmp_path, monkeypatch):
    # A sweep played every setting (speed gap, handicap off and on) without a journal: a stopped 64,000-match
    # sweep lost every finished match. Its matches are kept in one journal (study "simulate duel --sweep"), match
    # g of setting s at index 4g + s here (2 gaps x 2 variants), so that more matches extend it.
    from ubongo_cp.games.duel import sim as duel_sim
    from ubongo_cp.games.tasks import as_deck, synthetic_tasks

    deck = as_deck(synthetic_tasks("duel"), "duel")

    def sweep(games: int, **kw):
        return duel_sim.handicap_sweep(deck, [1.0, 0.7], games, seed=6, **kw)

    journal = tmp_path / "s.jsonl"
    pd.testing.assert_frame_equal(sweep(30, journal=journal), sweep(30))
    head, line, *_ = _lines(journal)
    assert head["study"] == "simulate duel --sweep" and head["options"]["skills_b"] == [1.0, 0.7]
    assert [(r["match"], r["skill_b"], r["handicap"]) for r in line["rows"][:5]] == [
        (0, 1.0, False), (0, 1.0, True), (0, 0.7, False), (0, 0.7, True), (1, 1.0, False)]
    longer = sweep(45)
    with monkeypatch.context() as m:
        played = _stopping(m, chunks, "_run_chunk", after=None)
        pd.testing.assert_frame_equal(sweep(45, journal=journal), longer)
    assert sum(played) == 60                                       # 4 settings x 15 more matches
    with pytest.raises(InputError) as err:                         # other slow skills: refused, naming them
        duel_sim.handicap_sweep(deck, [1.0, 0.5], 30, seed=6, journal=journal)
    assert "other options (skills b 1.0,0.7, now 1.0,0.5)" in str(err.value)


def test_a_resumed_duel_sweep_writes_the_csv_of_a_straight_one_and_refuses_another_sweeps_journal(
        tmp_path, monkeypatch, capsys):
    argv = ["simulate", "duel", "--synthetic", "--games", "40", "--sweep", "1", "1.5", "--seed", "7",
            "--no-progress", "--out", "s.csv"]
    want = _whole_then_again(tmp_path, monkeypatch, capsys, argv)
    journal = tmp_path / "whole" / "s.jsonl"
    head, *lines = journal.read_text().splitlines(keepends=True)
    assert len(lines) == 4                                         # 160 matches, 40 a line
    (tmp_path / "again" / "s.jsonl").write_text(head + lines[2] + lines[0])   # 2 lines kept of a stopped run
    with monkeypatch.context() as m:
        played = _stopping(m, chunks, "_run_chunk", after=None)
        assert main(argv) == 0
    assert sorted(played) == [40, 40] and capsys.readouterr().out == want
    assert (tmp_path / "again" / "s.csv").read_bytes() == (tmp_path / "whole" / "s.csv").read_bytes()
    assert main([*argv, "--sweep", "1", "2"]) == 2                 # other gaps: refused in one line
    assert capsys.readouterr().err == ("ubongo-cp: error: s.jsonl: is the journal of games played with other "
                                       "options (skills b 1.0,0.6666666666666666, now 1.0,0.5); it is left as it "
                                       "is: run with the same options to resume it, or remove it (or choose another "
                                       "output) to start afresh (removing it loses the 160 finished game(s) it "
                                       "holds)\n")
    assert main([a for a in argv if a not in ("--sweep", "1", "1.5")]) == 2   # the plain command: another study
    assert capsys.readouterr().err == ("ubongo-cp: error: s.jsonl: is the journal of `ubongo-cp simulate duel "
                                       "--sweep`, not of `ubongo-cp simulate duel`; it is left as it is: choose "
                                       "another output, or remove it (removing it loses the 160 finished game(s) it "
                                       "holds)\n")
