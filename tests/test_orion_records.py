"""Orion Duel game records: JSON round trip, replay validation, clear errors."""

import json

import pytest

from ubongo_cp.errors import InputError
from ubongo_cp.games.base import RandomAgent, play_game
from ubongo_cp.games.orion.records import load_record, record_of, replay, save_record
from ubongo_cp.games.orion.board import default_board
from ubongo_cp.games.orion.setup import SetupRules, random_setup
from ubongo_cp.games.orion.state import OrionGame, OrionState
from ubongo_cp.games.orion.tiles import load_tiles, parse_tiles


@pytest.fixture(scope="module")
def game():
    return play_game(OrionState(seed=11), [RandomAgent(1), RandomAgent(2)])


def test_round_trip(game, tmp_path):
    path = tmp_path / "g.json"
    save_record(game, path, players=["random", "random"])
    back = load_record(path)
    assert back.history == game.history
    assert back.winner == game.winner and back.end_rule == game.end_rule
    assert (back.colour == game.colour).all()
    data = json.loads(path.read_text())
    assert data["result"]["moves"] == len(game.history)
    assert data["moves"][0]["player"] == game.setup.first_player


def test_malformed_json_names_file_and_line(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"format": "ubongo-cp/orion-duel",\n "moves": [,]}\n')
    with pytest.raises(InputError, match=r"bad.json:2: malformed JSON"):
        load_record(path)


def test_wrong_format_and_setup(game):
    rec = record_of(game)
    with pytest.raises(InputError, match="not an Orion Duel record"):
        replay({**rec, "format": "chess"})
    bad = json.loads(json.dumps(rec))
    bad["setup"]["galaxies"][1] = bad["setup"]["galaxies"][0]
    with pytest.raises(InputError, match="setup: OD-1: two tokens"):
        replay(bad)
    bad["setup"]["galaxies"][1] = "x"
    with pytest.raises(InputError, match="setup: missing or malformed"):
        replay(bad)


def test_illegal_move_names_move_number_and_rule(game):
    rec = json.loads(json.dumps(record_of(game)))
    rec.pop("result")
    rec["moves"][2] = dict(rec["moves"][0], player=rec["moves"][2]["player"])  # same hexes again
    with pytest.raises(InputError, match=r"move 3 \(player \d, tile \w+\): .*OD-2"):
        replay(rec)


def test_wrong_turn_unknown_tile_off_board_and_after_end(game):
    rec = json.loads(json.dumps(record_of(game)))
    m = rec["moves"]
    r1 = {**rec, "moves": [dict(m[0], player=1 - m[0]["player"])]}
    with pytest.raises(InputError, match="move 1 .*turn"):
        replay(r1)
    r2 = {**rec, "moves": [dict(m[0], tile="Z9")]}
    with pytest.raises(InputError, match="move 1 .*unknown tile"):
        replay(r2)
    r3 = {**rec, "moves": [dict(m[0], anchor=[9, 9])]}
    with pytest.raises(InputError, match="move 1 .*OD-2: hex .* off the board"):
        replay(r3)
    extra = dict(m[1]) if len(m) > 1 else dict(m[0])
    r4 = {**rec, "moves": m + [extra]}
    r4.pop("result")
    with pytest.raises(InputError, match=f"move {len(m) + 1} .*already ended"):
        replay(r4)


def test_result_mismatch(game):
    rec = json.loads(json.dumps(record_of(game)))
    winner = rec["result"]["winner"]
    rec["result"]["winner"] = 1 - winner if winner >= 0 else 0
    with pytest.raises(InputError, match=f"result field 'winner' is {rec['result']['winner']} in the record, but "
                                         f"the replay gives {winner}"):
        replay(rec)


@pytest.mark.parametrize("field, value", [("moves", 3), ("rule", "no such rule"), ("moves", True)])
def test_every_stored_result_field_is_compared_with_the_replay(game, tmp_path, run_cli, field, value):
    rec = json.loads(json.dumps(record_of(game)))
    replayed = json.dumps(rec["result"][field])
    rec["result"][field] = value
    path = tmp_path / "og.json"
    path.write_text(json.dumps(rec))
    code, _, err = run_cli("orion", "analyze", path)
    assert code == 2 and err == (f"ubongo-cp: error: {path}: result field {field!r} is {json.dumps(value)} in "
                                 f"the record, but the replay gives {replayed}\n")


@pytest.mark.parametrize("change, message", [
    (lambda r: r.update(version=9), "record version 9 is not supported"),
    (lambda r: r["setup"].update(first_player="0"), "first_player must be 0 or 1"),
    (lambda r: r.update(result="x"), "'result' must be an object"),
    (lambda r: r.update(players=5), "'players' must be a list of two labels"),
    (lambda r: r["moves"][0].update(rotation=-1), "move 1 .*rotation must be an integer 0..5, got -1"),
    (lambda r: r["moves"][0].update(rotation="1"), "rotation must be an integer 0..5, got '1'"),
    (lambda r: r["moves"][0].update(rotation=9), "rotation must be an integer 0..5, got 9"),
    (lambda r: r["moves"][0].update(flip="no"), "flip must be true or false, got 'no'"),
    (lambda r: r["moves"][0].update(player="0"), "move 1 .*'player' must be 0 or 1, got '0'"),
    (lambda r: r["moves"][0].update(anchor=[True, 0]), r"a hex must be \[q, r\] with two integers, got \[True, 0\]"),
    (lambda r: r["setup"]["galaxies"].__setitem__(0, [True, 4]), r"a hex must be \[q, r\] with two integers"),
    (lambda r: r["setup"].update(extra=1), "setup: missing or malformed field .unknown field.s. 'extra'"),
    # said in the record's terms, not Python's ("'list' object has no attribute 'get'", "KeyError: ...")
    (lambda r: r.update(setup=[]), r"setup: missing or malformed field \(a field holds a list where another kind "),
    (lambda r: r["setup"].pop("galaxies"), r"setup: missing or malformed field \(the field 'galaxies' is missing\)"),
])
def test_out_of_range_fields_are_refused(game, change, message):
    # Found by a user's test: each of these used to be accepted (and e.g. a
    # rotation of 9 taken modulo 6).
    rec = json.loads(json.dumps(record_of(game)))
    change(rec)
    with pytest.raises(InputError, match=message):
        replay(rec)


# --- version 2: tile sets, OD-1 rules, custom boards, the galaxy player ---------

def test_version_1_records_are_still_read(game):
    rec = json.loads(json.dumps(record_of(game)))
    for key in ("tiles", "setup_rules", "board"):
        rec.pop(key, None)
    rec["setup"].pop("galaxy_player", None)
    rec["version"] = 1
    back = replay(rec)
    assert back.history == game.history and back.setup.galaxy_player is None
    assert back.game.tiles == game.game.tiles and back.game.tiles.name == "published"


def test_galaxy_player_is_recorded(game, tmp_path):
    rec = record_of(game)
    assert rec["version"] == 2 and rec["tiles"] == "published"
    assert rec["setup"]["galaxy_player"] == game.setup.galaxy_player in (0, 1)
    assert "setup_rules" not in rec and "board" not in rec          # defaults are not written
    rec["setup"]["galaxy_player"] = 7
    with pytest.raises(InputError, match="galaxy_player must be 0 or 1"):
        replay(rec)


@pytest.mark.parametrize("tiles", ["seed", "custom"])
def test_other_tile_sets_and_rules_round_trip(tiles, tmp_path):
    ts = load_tiles("seed") if tiles == "seed" else parse_tiles("A B\nO O x\n\nC D E\nO\n x", "mine")
    game = OrionGame.get(None, ts, SetupRules.literal())
    s = play_game(OrionState(game=game, seed=5), [RandomAgent(1), RandomAgent(2)])
    path = tmp_path / "g.json"
    save_record(s, path)
    data = json.loads(path.read_text())
    assert data["setup_rules"] == SetupRules.literal().to_json()
    assert data["tiles"] == "seed" if tiles == "seed" else data["tiles"]["name"] == "mine"
    back = load_record(path)
    assert back.game.tiles == ts and back.game.rules == SetupRules.literal()
    assert back.history == s.history and back.winner == s.winner


def test_bad_tile_set_or_rules_in_a_record(game):
    rec = json.loads(json.dumps(record_of(game)))
    with pytest.raises(InputError, match="'tiles' must be published or seed"):
        replay({**rec, "tiles": "moon"})
    with pytest.raises(InputError, match="'tiles' text: line 2: unknown character 'Q'"):
        replay({**rec, "tiles": {"name": "x", "text": "A\nQ\n"}})
    with pytest.raises(InputError, match="'setup_rules': OD-1: hole spacing must be"):
        replay({**rec, "setup_rules": {"hole_spacing": 0}})
    with pytest.raises(InputError, match="'setup_rules'"):
        replay({**rec, "setup_rules": {"holes": 3}})


@pytest.mark.parametrize("rules, message", [
    ({"holes": 3}, "'setup_rules': unknown field 'holes' (known: galaxies, black_holes, galaxy_spacing, "
                   "hole_spacing, hole_galaxy_spacing)"),
    ([8, 7], "'setup_rules': must be an object of OD-1 counts and spacings, got [8, 7]"),
    ("literal", "'setup_rules': must be an object of OD-1 counts and spacings, got 'literal'"),
    (3, "'setup_rules': must be an object of OD-1 counts and spacings, got 3"),
])
def test_setup_rules_of_another_shape_are_named_in_the_records_terms(game, tmp_path, run_cli, rules, message):
    # Once Python's own words: "SetupRules.__init__() got an unexpected keyword argument 'holes'",
    # "ubongo_cp.games.orion.setup.SetupRules() argument after ** must be a mapping, not list".
    rec = json.loads(json.dumps(record_of(game)))
    with pytest.raises(InputError) as caught:
        replay({**rec, "setup_rules": rules})
    assert str(caught.value) == message
    path = tmp_path / "g.json"
    path.write_text(json.dumps({**rec, "setup_rules": rules}))
    assert run_cli("orion", "analyze", path) == (2, "", f"ubongo-cp: error: {path}: {message}\n")


def _random_game(state, rng, swap_at=None):
    """Play ``state`` to its end at random; with ``swap_at`` (a pie game) the swap is played as move 2 or not."""
    from ubongo_cp.games.orion.pie import swap_action

    k = 0
    while not state.is_terminal():
        acts = state.legal_actions()
        if swap_at is not None and k == 1:
            a = swap_action(state.inner) if swap_at else acts[0]
        else:
            a = int(rng.choice(acts))
        state.apply_action(a)
        k += 1
    return state


@pytest.mark.parametrize("kind", ["bitboard", "pie, swapped", "pie, not swapped"])
def test_records_of_the_bitmask_engine_and_of_the_pie_rule(kind, tmp_path):
    # The games the OpenSpiel adapter and the MCTS agent play: once "BitOrionState keeps no game records".
    import numpy as np

    from ubongo_cp.games import base
    from ubongo_cp.games.orion.bitboard import BitOrionState
    from ubongo_cp.games.orion.pie import PieOrionState

    rng = np.random.default_rng(4)
    state = _random_game(BitOrionState(seed=11) if kind == "bitboard" else PieOrionState(seed=11), rng,
                         None if kind == "bitboard" else kind == "pie, swapped")
    base.save_record(state, tmp_path / "g.json", players=["ann", "bob"])
    data = json.loads((tmp_path / "g.json").read_text())
    back = load_record(tmp_path / "g.json")
    assert back.history == state.history and back.returns() == state.returns()
    if kind == "bitboard":
        assert "pie" not in data and isinstance(back, OrionState)
        assert data["result"] == {"winner": state.winner, "rule": state.end_rule, "moves": len(state.history)}
    else:
        swapped = kind == "pie, swapped"
        assert data["pie"] == {"swapped": swapped} and isinstance(back, PieOrionState) and back.swapped == swapped
        # The swap is a move of the pie game (its result counts it), not a tile of the colours' game.
        assert data["result"]["moves"] == len(state.history) == len(data["moves"]) + swapped
        assert back.inner.history == state.inner.history


@pytest.mark.parametrize("pie, message", [({"swapped": "yes"}, "'pie' must be an object"),
                                          ({"swapped": True, "by": 1}, "'pie' must be an object"),
                                          ([True], "'pie' must be an object")])
def test_a_malformed_pie_field_is_refused(pie, message, tmp_path):
    import numpy as np

    from ubongo_cp.games.orion.pie import PieOrionState

    state = _random_game(PieOrionState(seed=11), np.random.default_rng(4), True)
    data = record_of(state)
    data["pie"] = pie
    with pytest.raises(InputError, match=message):
        replay(data)


@pytest.mark.parametrize("player", [-1, 2, True, None, 0.0, "0"])
def test_an_analysis_move_of_no_player_is_refused_and_changes_nothing(player):
    # place(action, -1) once marked player 1's tile used, made the chance id the player to move, and broke on
    # the next move with an IndexError; legal_actions(-1) made up a list.
    from ubongo_cp.errors import IllegalActionError
    from ubongo_cp.games.orion.bitboard import BitOrionState

    s = OrionState(seed=3)
    a = s.legal_actions()[0]
    before = (s.used.copy(), list(s.history), s.current_player())
    with pytest.raises(IllegalActionError, match="0 or 1"):
        s.place(a, player)
    assert (s.used == before[0]).all() and s.history == before[1] and s.current_player() == before[2]
    if player is not None:
        for state in (s, BitOrionState(seed=3)):
            with pytest.raises(IllegalActionError, match="player must be 0 or 1"):
                state.legal_actions(player)


@pytest.mark.parametrize("pairs, shown", [([["N", "S", "NE"]], "['N', 'S', 'NE']"), ([["N"]], "['N']"),
                                          (["NS"], "'NS'"), (["NESW"], "'NESW'"), ([["N", 5]], "['N', 5]")])
def test_a_custom_boards_pair_of_sides_is_two_side_names(game, pairs, shown):
    # Once read by tuple unpacking: "NS" was taken for the pair ("N", "S") and the game replayed on a board
    # of that one pair, while ["N", "S", "NE"] or "NESW" gave Python's "too many values to unpack (expected 2)".
    from ubongo_cp.games.orion.board import default_board

    board = default_board()
    rec = json.loads(json.dumps(record_of(game)))
    rec["board"] = {"name": "mine", "hexes": [list(h) for h in board.hexes],
                    "sides": {name: [list(h) for h in side] for name, side in board.sides},
                    "pairs": [list(p) for p in board.pairs[1:]] + pairs}
    rec.pop("result", None)
    with pytest.raises(InputError) as caught:
        replay(rec)
    assert str(caught.value) == (f"'board': missing or malformed field (a pair of opposite sides must be "
                                 f"[side, side], two side names, got {shown})")


def test_a_position_its_moves_do_not_give_is_not_recorded_as_another_game():
    # A record is the setup and the moves in turn. A position given by its colours, or reached by analysis moves
    # (the opponent passes), was once written as the game its moves make when played in turn: the empty board,
    # or the second tile of player 1 recorded as player 0's; loading it gave another position, silently.
    import numpy as np

    from ubongo_cp.games.base import replay_record
    from ubongo_cp.games.orion.bitboard import BitOrionState

    s = OrionState(seed=2)
    coloured = OrionState.from_board(s.setup, {(0, 0): 0, (1, 0): 0, (2, 0): 1}, used=(["D2"], []), to_move=1)
    passed = s.clone()
    p = passed.current_player()
    passed.place(passed.legal_actions()[0], p)
    passed.place(passed.legal_actions(p)[5], p)   # the same player again: its opponent passed
    for position in (coloured, BitOrionState.from_reference(coloured), passed):
        with pytest.raises(InputError, match="not the end of a game played from its setup"):
            record_of(position)
    # A game played in turn is recorded, and so is its start (no move yet) given by no colours.
    played = s.clone()
    played.apply_action(played.legal_actions()[0])
    for state in (played, OrionState.from_board(s.setup, {}, to_move=s.current_player())):
        back = replay_record(json.loads(json.dumps(record_of(state))))
        assert back.history == state.history and np.array_equal(back.colour, state.colour)


def test_a_move_without_its_rotation_or_flip_is_refused_naming_the_field(game):
    # They were read as rotation 0 and no flip: a record whose move lost its rotation replayed another placement
    # of the tile, and often a legal one, so another game was replayed and analysed without a word.
    rec = json.loads(json.dumps(record_of(game)))
    k = next(i for i, m in enumerate(rec["moves"]) if m["rotation"] != 0)
    for field in ("rotation", "flip"):
        changed = json.loads(json.dumps(rec))
        del changed["moves"][k][field]
        with pytest.raises(InputError, match=rf"^move {k + 1} \(player \d, tile \w+\): missing field\(s\) '{field}'$"):
            replay(changed)
    del rec["moves"][0]["anchor"], rec["moves"][0]["tile"]
    with pytest.raises(InputError, match=r"^move 1 \(player \d, tile None\): missing field\(s\) 'tile', 'anchor'$"):
        replay(rec)


@pytest.mark.parametrize("first", [0, 1])
def test_a_record_without_its_first_player_is_refused(first, tmp_path):
    # OD-1: who places the first tile is part of the setup, and the record format gives it no default; a record
    # without it was read as player 0 (replaying another game, or failing at a move the other player made).
    setup = random_setup(4, default_board(), first_player=first)
    state = play_game(OrionState(setup), [RandomAgent(1), RandomAgent(2)])
    rec = json.loads(json.dumps(record_of(state)))
    assert rec["setup"]["first_player"] == first == rec["moves"][0]["player"]
    del rec["setup"]["first_player"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(rec))
    with pytest.raises(InputError) as err:
        load_record(path)
    assert str(err.value) == (f"{path}: setup: the field 'first_player' is missing (0 or 1: the player who places "
                              "the first tile, OD-1)")
