"""``ubongo-cp orion play|analyze|tournament`` through the real CLI entry point."""

import json

import pandas as pd
import pytest

from conftest import listing, one_line_error

from ubongo_cp.cli import main


def test_play_save_picture_and_analyze(tmp_path, capsys):
    rec = tmp_path / "game.json"
    png = tmp_path / "pos.png"
    assert main(["orion", "play", "--p0", "greedy", "--p1", "random", "--seed", "3",
                 "--save", str(rec), "--picture", str(png), "--moves"]) == 0
    out = capsys.readouterr().out
    assert "game over" in out and " 1. player 0:" in out
    data = json.loads(rec.read_text())
    assert data["players"] == ["greedy", "random"] and data["moves"]
    assert png.stat().st_size > 10_000
    # a short limit: the table's layout is checked here, the answers in test_orion_exact.py
    assert main(["orion", "analyze", str(rec), "--every", "4", "--time-limit", "0.2"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("| move | to move | d0 W1 |")
    assert f"after {len(data['moves'])} moves" in out


def test_analyze_a_game_not_over(tmp_path, capsys):
    # The record of a game stopped after 3 moves said "result: player None wins (None) after 3 moves".
    from ubongo_cp.games.base import save_record
    from ubongo_cp.games.orion import OrionState

    state = OrionState(seed=4)
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    save_record(state, tmp_path / "part.json")
    assert main(["orion", "analyze", str(tmp_path / "part.json"), "--every", "3", "--time-limit", "0.2"]) == 0
    out = capsys.readouterr().out
    assert "None" not in out
    assert f"result: game not over after 3 moves, player {state.current_player()} to move" in out


@pytest.mark.parametrize("over", [False, True])
def test_analyze_a_pie_game_names_colours_and_seats_after_a_swap(tmp_path, capsys, over):
    # After a swap seat 1 plays colour 0: the analysis (of the colours' game) said "player 0 wins" of a game
    # that seat 1 won. The seat is taken from the pie state (its returns, its player to move), the colour from
    # the colours' game inside it.
    import numpy as np

    from ubongo_cp.games.base import save_record
    from ubongo_cp.games.orion.pie import PieOrionState, swap_action

    state = PieOrionState(seed=3)
    state.apply_action(state.legal_actions()[0])
    state.apply_action(swap_action(state.inner))
    rng = np.random.default_rng(1)
    while not state.is_terminal() and (over or len(state.history) < 5):
        actions = state.legal_actions()
        state.apply_action(actions[rng.integers(len(actions))])
    save_record(state, tmp_path / "pie.json")
    assert main(["orion", "analyze", str(tmp_path / "pie.json"), "--every", "50", "--time-limit", "0.1"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == ("pie rule: seat 1 swapped, so seat 1 plays colour 0 and seat 0 colour 1; the "
                                   "players below are the colours (0, 1), and the moves count tiles, the swap "
                                   "not among them")
    assert "player" not in out.split("\n", 1)[1].split("\nd = ")[0]
    moves = len(state.history) - 1   # the swap is no tile
    if over:
        seat = state.returns().index(1.0)
        colour = state.inner.winner
        assert colour != seat and f"result: colour {colour} (seat {seat}) wins ({state.inner.end_rule}) after " \
            f"{moves} moves" in out
    else:
        seat, colour = state.current_player(), state.inner.current_player()
        assert colour != seat and f"result: game not over after {moves} moves, colour {colour} (seat {seat}) " \
            "to move" in out


def test_tournament_writes_table(tmp_path, capsys):
    out_csv = tmp_path / "t.csv"
    assert main(["orion", "tournament", "--games", "2", "--agents", "random,greedy",
                 "--seed", "1", "--out", str(out_csv)]) == 0
    out = capsys.readouterr().out
    assert "First-mover points rate" in out and "ci_low" in out
    df = pd.read_csv(out_csv)
    assert set(df.columns) >= {"agent", "seat", "condition", "length", "result"}
    assert len(df) == 2 * 3 * 2      # 3 pairings (with self-play) x 2 games x 2 seats
    assert (df.groupby("game").points.sum() == 1).all()


@pytest.mark.parametrize("command", [["orion", "tournament"], ["simulate", "duel", "--synthetic"],
                                     ["simulate", "ubongo", "--synthetic"], ["simulate", "domino"]])
def test_table_outputs_refuse_other_names_alike_before_playing(tmp_path, capsys, command):
    # The tournament once wrote a CSV to x.txt while the simulations refused such a name.
    out = tmp_path / "x.txt"
    assert main([*command, "--games", "1", "--no-progress", "--out", str(out)]) == 2
    assert capsys.readouterr().err == f"ubongo-cp: error: {out}: --out must end in .csv, .parquet or .pq, not .txt\n"
    assert not out.exists()
    # A file there already: the name is still the problem (it once said only "exists, and ubongo-cp replaces
    # only files it can tell are its own"), and the file is kept.
    out = tmp_path / "x.jsonl"
    out.write_text("mine\n")
    assert main([*command, "--games", "1", "--no-progress", "--out", str(out)]) == 2
    assert capsys.readouterr().err == f"ubongo-cp: error: {out}: --out must end in .csv, .parquet or .pq, not .jsonl\n"
    assert out.read_text() == "mine\n"


@pytest.mark.parametrize("argv, option, suffixes", [
    (["simulate", "domino", "--games", "1", "--plot"], "--plot", ".png"),
    (["simulate", "duel", "--synthetic", "--games", "1", "--sweep", "1", "--plot"], "--plot", ".png"),
    (["orion", "play", "--picture"], "--picture", ".svg, .png or .pdf"),
    (["solve", "--pieces", "pentominoes", "--region", "6x10", "--draw"], "--draw", ".svg, .png or .pdf"),
    (["examples", "pieces/classic", "--draw"], "--draw", ".svg, .png or .pdf"),
])
def test_every_output_of_a_fixed_kind_names_its_suffixes_alike(tmp_path, capsys, argv, option, suffixes):
    # Each once said it its own way ("use a .png file name", "cannot draw to a .csv file"), after an existing
    # file there had been refused as not the command's own.
    for out in (tmp_path / "new.csv", tmp_path / "mine.csv"):
        if out.name == "mine.csv":
            out.write_text("mine\n")
        assert main([*argv, str(out), "--no-progress"] if argv[0] == "simulate" else [*argv, str(out)]) == 2
        assert capsys.readouterr().err == f"ubongo-cp: error: {out}: {option} must end in {suffixes}, not .csv\n"
        assert out.read_text() == "mine\n" if out.name == "mine.csv" else not out.exists()


@pytest.mark.parametrize("argv,msg", [
    (["orion", "tournament", "--agents", "random,alpha"], "unknown agent"),
    (["orion", "tournament", "--agents", "random,,greedy"], "--agents: no name between two commas in 'random,,greedy'"),
    (["orion", "play", "--p0", "alpha"], "unknown agent"),
    (["orion", "analyze", "/nonexistent/game.json"], "game.json"),
])
def test_bad_input_exit_2(argv, msg, capsys):
    assert main(argv) == 2
    assert msg in capsys.readouterr().err


def test_bad_record_names_the_move(tmp_path, capsys):
    rec = tmp_path / "g.json"
    assert main(["orion", "play", "--seed", "1", "--save", str(rec)]) == 0
    data = json.loads(rec.read_text())
    data["moves"][1] = dict(data["moves"][0], player=data["moves"][1]["player"])
    data.pop("result")
    rec.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["orion", "analyze", str(rec)]) == 2
    err = capsys.readouterr().err
    assert "move 2" in err and "OD-2" in err and err.count("\n") == 1


def test_play_with_the_seed_tiles_and_literal_spacing(tmp_path, capsys):
    rec = tmp_path / "seed.json"
    assert main(["orion", "play", "--seed", "2", "--tiles", "seed", "--spacing", "literal",
                 "--save", str(rec)]) == 0
    data = json.loads(rec.read_text())
    assert data["tiles"] == "seed" and data["setup_rules"]["hole_spacing"] == 2
    assert {m["tile"][:2] for m in data["moves"]} <= {"I3", "V3", "T3"}


def test_play_with_a_tile_file_and_a_bad_one(tmp_path, capsys):
    good = tmp_path / "t.txt"
    good.write_text("L3a L3b L3c L3d L3e L3f\nO O x\n")
    assert main(["orion", "play", "--seed", "1", "--tiles", str(good)]) == 0
    bad = tmp_path / "bad.txt"
    bad.write_text("A\nO  x\n")
    capsys.readouterr()
    assert main(["orion", "play", "--tiles", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}:2:" in err and "between two hex positions" in err


def test_analyze_pictures_and_safety_changes(tmp_path, capsys):
    rec = tmp_path / "g.json"
    assert main(["orion", "play", "--p0", "greedy", "--p1", "greedy", "--seed", "5",
                 "--save", str(rec)]) == 0
    capsys.readouterr()
    pics = tmp_path / "pics"
    assert main(["orion", "analyze", str(rec), "--every", "5", "--time-limit", "0.2",
                 "--pictures", str(pics)]) == 0
    out = capsys.readouterr().out.splitlines()
    table = [line for line in out if line.startswith("|")]
    assert table[0].split("|")[-4:] == [" safe0 W1 ", " safe1 W1 ", " safety changed ", ""]
    # aligned: every line of the table as long as the header, every row with every column
    assert {len(line) for line in table} == {len(table[0])} and {line.count("|") for line in table} == {12}
    rows = [[c.strip() for c in line[1:-1].split("|")] for line in table[2:]]
    n = len(json.loads(rec.read_text())["moves"])
    assert [int(r[0]) for r in rows] == sorted({*range(0, n + 1, 5), n})
    # the last column marks exactly the rows whose settled safety differs from the last
    # settled one before: yes/done safe, no/- (unreachable) not; "?" (time limit) and the
    # final "-" (game over) settle nothing
    last = [None, None]
    for r in rows:
        marks = []
        for p in (0, 1):
            now = {"yes": True, "done": True, "no": False, "-": False}.get(r[8 + p])
            if r[1] == "end" and r[8 + p] == "-":
                now = None
            if now is not None:
                if last[p] is not None and now != last[p]:
                    marks.append(f"{p}: {'now safe' if now else 'no longer safe'}")
                last[p] = now
        assert r[10] == "; ".join(marks)
    assert rows[-1][1] == "end" and "0" not in rows[-1][6:8]   # no blocking set once the game is over
    assert listing(pics) == [f"move_{int(r[0]):02d}.png" for r in rows]
    (tmp_path / "file").write_text("x")
    assert main(["orion", "analyze", str(rec), "--pictures", str(tmp_path / "file")]) == 2
    # A user's picture where one would go is refused before any work, and left alone.
    capsys.readouterr()
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "move_05.png").write_bytes(b"my picture")
    assert main(["orion", "analyze", str(rec), "--every", "5", "--pictures", str(mine)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{mine / 'move_05.png'}: exists and was not written by" in err
    assert listing(mine) == ["move_05.png"] and (mine / "move_05.png").read_bytes() == b"my picture"


def test_tournament_self_play_rows_show_no_interval(capsys):
    assert main(["orion", "tournament", "--games", "2", "--agents", "random", "--seed", "3",
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.lstrip().startswith("random   random"))
    assert line.split()[-2:] == ["-", "-"] and "0.500" in line


def test_play_help_names_every_agent(capsys):
    """The help of ``orion play`` lists the agents make_agent takes (written out there, so that help stays fast)."""
    from ubongo_cp.games.orion.agents import AGENTS

    with pytest.raises(SystemExit):
        main(["orion", "play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert f"agent of player 0: {', '.join(AGENTS[:-1])} or {AGENTS[-1]}" in text
    # The tile-set format is shown by the name `examples` lists for it.
    assert "(format: as `ubongo-cp examples orion/published` shows)" in text
    assert main(["examples"]) == 0
    assert "  orion/published " in capsys.readouterr().out


@pytest.mark.parametrize("agents", ["random,random", "random,greedy,random"])
def test_tournament_refuses_an_agent_named_twice(capsys, agents):
    # Once accepted: the pairings were taken with repetition over the list as given, so 'random,random'
    # played random against itself 3 x --games games (6 for --games 2) and 'random,greedy,random' played
    # random against greedy twice as often as asked, with no word of it.
    from ubongo_cp.errors import InputError
    from ubongo_cp.games.orion.sim import run_tournament

    with pytest.raises(InputError, match="agent 'random' is named twice"):
        run_tournament(agents.split(","), 2)
    code = main(["orion", "tournament", "--games", "2", "--agents", agents, "--no-progress"])
    out, err = capsys.readouterr()
    one_line_error(code, err, "ubongo-cp: error: ", "agent 'random' is named twice")
    assert out == ""
