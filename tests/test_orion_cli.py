"""``ubongo-cp orion play|analyze|tournament`` through the real CLI entry point."""

import json

import pandas as pd
import pytest

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
    assert main(["orion", "analyze", str(rec), "--every", "4", "--time-limit", "1"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("move | to move | d0 W1")
    assert f"after {len(data['moves'])} moves" in out


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


@pytest.mark.parametrize("argv,msg", [
    (["orion", "tournament", "--agents", "random,alpha"], "unknown agent"),
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
