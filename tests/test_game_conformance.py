"""OpenSpiel-style conformance of every game engine (the first test layer of ``STYLE.md``).

One body, parametrised over every state class (gem game, Duel, domino, Orion
Duel): seeded random playouts check that legal actions are sorted, unique
integer ids and non-empty until the end, chance nodes list their outcomes
with probabilities summing to 1, the game ends within the length bound the
game declares (:class:`~ubongo_cp.games.base.GameFacts`), returns sum as the
game declares; mid-game clones are independent and pickled (and, for games
that keep records, recorded and replayed) states continue exactly like the
original; anything but an integer action id raises ``IllegalActionError``
(``action_id``, the one check in ``games/base.py``), and so does an integer
that is none of the game's ids, with one message from ``action_to_string``
and ``apply_action``; ``state.history`` is a copy; a game replays from its
seed and its actions alone (the contract of ``GameState.sample_chance``);
every engine takes ``seed=None`` for a fresh game.
"""

from __future__ import annotations

import json
import math
import pickle
import subprocess
import sys

import numpy as np
import pytest

from ubongo_cp.errors import IllegalActionError, InputError
from ubongo_cp.games.base import (CHANCE, TERMINAL, GameFacts, play_game, record_format_of, record_of,
                                  replay_record, load_record, RandomAgent, save_record)
from ubongo_cp.games.domino.sim import simulate as simulate_domino
from ubongo_cp.games.domino.state import DominoSettings, DominoState, new_game
from ubongo_cp.games.duel.sim import simulate_duel
from ubongo_cp.games.duel.state import DuelState
from ubongo_cp.games.orion import OrionState
from ubongo_cp.games.orion.sim import run_tournament
from ubongo_cp.games.tasks import as_deck, default_tasks_path
from ubongo_cp.games.ubongo.sim import simulate_ubongo
from ubongo_cp.games.ubongo.state import UbongoState

CLASSIC = as_deck(default_tasks_path("classic"), "classic")
DUEL = as_deck(default_tasks_path("duel"), "duel")

#: Per game: a factory ``seed -> initial state`` over varied settings, and the seeds played.
GAMES = {
    "ubongo": (lambda seed: UbongoState(CLASSIC, 2 + seed % 3, ("easy", "hard")[seed % 2], seed=seed,
                                        all_cards=seed % 4 == 3, move_time=4.0 * (seed % 2)), range(8)),
    "duel": (lambda seed: DuelState(DUEL, ("A", "B")[seed % 2], skills=(1.0, 0.5 + 0.2 * seed), seed=seed,
                                    handicap=seed % 3 != 0), range(8)),
    "domino": (lambda seed: new_game(DominoSettings(num_players=2 + seed % 3, may_decline=seed % 4 != 1,
                                                    eliminated_field_free=seed % 5 != 2), seed=seed), range(12)),
    "orion": (lambda seed: OrionState(seed=seed), range(6)),
}
STATE_CLASSES = {"ubongo": UbongoState, "duel": DuelState, "domino": DominoState, "orion": OrionState}


def facts_of(state) -> GameFacts:
    """The facts the game declares."""
    facts = type(state).facts
    assert isinstance(facts, GameFacts), f"{type(state).__name__} declares no GameFacts"
    return facts


def length_bound(state) -> int:
    return state.max_game_length()


def random_playout(state, rng: np.random.Generator, record_at: int | None = None):
    """Play uniformly random legal actions to the end, checking every state; returns (state, actions, snapshot)."""
    facts = facts_of(state)
    bound = length_bound(state)
    actions, snapshot = [], None
    while not state.is_terminal():
        legal = state.legal_actions()
        assert legal and legal == sorted(set(legal)), legal
        assert all(type(a) is int for a in legal)
        player = state.current_player()
        assert player != TERMINAL  # current_player() is TERMINAL exactly when the game is over
        if player == CHANCE:
            assert facts.chance_nodes
            outcomes = state.chance_outcomes()
            assert [a for a, _ in outcomes] == legal and math.isclose(sum(p for _, p in outcomes), 1.0)
        else:
            assert 0 <= player < state.num_players
        if record_at is not None and len(actions) == record_at:
            snapshot = state.clone()
        action = legal[int(rng.integers(len(legal)))]
        state.apply_action(action)
        actions.append(action)
        assert len(actions) <= bound, f"game longer than its declared bound {bound}"
    assert state.legal_actions() == [] and state.current_player() == TERMINAL
    returns = state.returns()
    assert len(returns) == state.num_players and all(r >= 0 for r in returns)
    assert any(math.isclose(sum(returns), s) for s in facts.returns_sum), returns
    return state, actions, snapshot


def cases():
    for name, (_factory, seeds) in GAMES.items():
        for seed in seeds:
            yield pytest.param(name, seed, id=f"{name}-{seed}")


def _scramble(value) -> None:
    """Change every list and dict inside ``value`` in place (tuples are gone through)."""
    if isinstance(value, list):
        for i, v in enumerate(value):
            if isinstance(v, (list, dict, tuple)):
                _scramble(v)
            else:
                value[i] = "scrambled"
        value.append("scrambled")
    elif isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, (list, dict, tuple)):
                _scramble(v)
            else:
                value[k] = "scrambled"
        value["scrambled"] = True
    elif isinstance(value, tuple):
        for v in value:
            _scramble(v)


@pytest.mark.parametrize("name, seed", list(cases()))
def test_random_playout_clone_pickle_and_record(name, seed):
    factory, _ = GAMES[name]
    rng = np.random.default_rng(seed)
    final, actions, _ = random_playout(factory(seed), rng)
    # Replay the same actions from a fresh state: clone, pickle and record a mid-game position.
    k = len(actions) // 2
    state = factory(seed)
    for a in actions[:k]:
        state.apply_action(a)
    before = (str(state), state.legal_actions(), state.current_player(), state.returns())
    clone = state.clone()
    # A clone is a deep copy: changing what its history holds (solve times, draws, the moves of a round) in
    # place leaves the original's alone (the Duel's and the gem game's clones once shared those lists).
    history = pickle.dumps(state.history)
    _scramble(state.clone().history)
    assert pickle.dumps(state.history) == history
    copies = [pickle.loads(pickle.dumps(state))]
    # Every game keeps records (games/base): one round trip through JSON.
    fmt = record_format_of(type(state))
    assert fmt is not None, f"{name} registers no record format"
    record = json.loads(json.dumps(record_of(state, [f"p{q}" for q in range(state.num_players)]),
                                   allow_nan=False))
    assert record["format"] == fmt.name and record["version"] == fmt.version
    copies.append(replay_record(record))
    # The clone played to its end with other actions leaves the original untouched.
    random_playout(clone, np.random.default_rng(seed + 1000))
    assert (str(state), state.legal_actions(), state.current_player(), state.returns()) == before
    # Every copy continues exactly like the original.
    for copy in copies:
        assert str(copy) == before[0] and copy.legal_actions() == before[1]
    for a in actions[k:]:
        for s in (state, *copies):
            s.apply_action(a)
        assert all(str(c) == str(state) for c in copies)
    assert state.is_terminal() and str(state) == str(final) and state.returns() == final.returns()
    assert all(c.returns() == final.returns() for c in copies)
    with pytest.raises(IllegalActionError):
        state.apply_action(actions[-1])  # nothing is legal once the game is over


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("bad", [2.9, "5", True, False, None, np.float64(1.0), np.bool_(True), [1]],
                         ids=["float", "str", "True", "False", "None", "np.float64", "np.bool_", "list"])
def test_only_integer_action_ids_are_accepted(name, bad):
    state = GAMES[name][0](1)
    text, legal = str(state), state.legal_actions()
    with pytest.raises(IllegalActionError, match="an action is an integer id"):
        state.apply_action(bad)
    # an action's name is asked of an integer id too (the duel and domino engines raised a TypeError from inside)
    with pytest.raises(IllegalActionError, match="an action is an integer id"):
        state.action_to_string(bad)
    assert str(state) == text and state.legal_actions() == legal  # nothing happened
    assert state.action_to_string(np.int64(legal[0])) == state.action_to_string(legal[0])
    state.apply_action(np.int64(legal[0]))  # NumPy integers are integer ids


@pytest.mark.parametrize("state, bound", [
    (UbongoState(CLASSIC, seed=0), 4 + 9 * (1 + 4)),             # UG-2 setup, 9 rounds of a roll and 4 moves
    (DuelState(DUEL, seed=0), 9 * 1000 * 2),                       # 9 cards x 1000 duels x 2 rolls
    (new_game(DominoSettings(), seed=0), 2 * 4 * 500),             # 2 actions a turn, 4 turns, 500 rounds
    (OrionState(seed=0), 2 * 14),                                  # OD-2: each of the 2 x 14 tiles once
], ids=["ubongo", "duel", "domino", "orion"])
def test_declared_length_bound_is_the_default_settings_bound(state, bound):
    facts = type(state).facts
    assert facts.max_game_length == state.max_game_length() == bound
    assert facts.min_players <= state.num_players <= facts.max_players


def test_every_game_declares_its_facts():
    # Orion: 2 players, no chance at all (the layout is the constructor's, OD-1), a win or a draw.
    facts = {name: STATE_CLASSES[name].facts for name in GAMES}
    assert facts["orion"] == GameFacts("orion", 2, 2, chance_nodes=False, sampled_chance=False,
                                       returns_sum=(1.0,), max_game_length=28, title="Orion Duel")
    assert (facts["ubongo"].chance_nodes, facts["duel"].chance_nodes, facts["domino"].chance_nodes) == \
        (True, True, False)
    assert all(f.name == name for name, f in facts.items())


@pytest.mark.parametrize("name", list(GAMES))
def test_records_round_trip_through_the_one_api(name, tmp_path):
    # save_record / load_record of games/base for every game: a finished game comes back equal.
    from ubongo_cp.games.base import load_record, save_record

    state = GAMES[name][0](5)
    random_playout(state, np.random.default_rng(5))
    path = tmp_path / f"{name}.json"
    save_record(state, path, ["a"] * state.num_players)
    back = load_record(path, game=STATE_CLASSES[name])
    assert str(back) == str(state) and back.returns() == state.returns() and back.is_terminal()
    other = next(cls for n, cls in STATE_CLASSES.items() if n != name)
    titles = {"ubongo": "an Ubongo", "duel": "an Ubongo Duel", "domino": "a Domino", "orion": "an Orion Duel"}
    wanted = next(n for n, cls in STATE_CLASSES.items() if cls is other)
    with pytest.raises(InputError) as caught:
        load_record(path, game=other)
    assert caught.value.message == (f"{titles[name]} record (format '{record_format_of(type(state)).name}') "
                                    f"is not {titles[wanted]} record")


def _pie(seed):
    from ubongo_cp.games.orion.pie import PieOrionState
    return PieOrionState(OrionState(seed=seed))


@pytest.mark.parametrize("factory, count, rule", [
    (GAMES["ubongo"][0], 6, " (UG-2, UG-4, UG-5)"),    # a field of the 6 lanes (UG-2, UG-5) or a face of the die
    (GAMES["duel"][0], 20, " (UD-2)"),                 # the d20's faces
    (GAMES["domino"][0], 106, " (DN-3, DN-4, DN-10)"),  # attachments, swaps and the end of a turn
    (GAMES["orion"][0], 6355, " (OD-2)"),              # the placements of the published tiles
    (_pie, 6356, " (OD-2 and the pie rule)"),          # and the swap
], ids=["ubongo", "duel", "domino", "orion", "orion-pie"])
def test_an_id_the_game_does_not_have_is_one_error_naming_the_ids(factory, count, rule):
    # action_to_string named such an id as if it were one (the Duel 'roll face 0' for -1, Orion '#-1', the gem
    # game 'start on field -1'), and apply_action's errors said it in each engine's words: now both give the one
    # error of games.base, naming the id and the game's ids.
    state = factory(1)
    assert state.num_distinct_actions() == count
    for bad in (-1, count, 10 ** 6):
        for method in (state.action_to_string, state.apply_action):
            with pytest.raises(IllegalActionError) as info:
                method(bad)
            assert str(info.value) == f"illegal action {bad}: no such action, the ids are 0..{count - 1}{rule}"
    assert state.history == [] and state.action_to_string(count - 1)   # the last id has a name


@pytest.mark.parametrize("name, seed", list(cases()))
def test_a_game_replays_from_its_seed_and_actions_alone(name, seed):
    # The contract of sample_chance (games.base): a chance node makes one draw from the state's generator when
    # its action is applied, whichever it is, and sample_chance() only says what that draw gives. Once
    # sample_chance drew the roll itself, so the gem game's and the Duel's solve times came from another place
    # of the stream when the same actions were applied without it: the replay of a game's actions went
    # elsewhere (another winner, or an illegal move).
    factory = GAMES[name][0]
    state, rng, actions, seen = factory(seed), np.random.default_rng(seed), [], []
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            action = state.sample_chance()
            assert state.sample_chance() == action   # asking leaves the state as it was
        else:
            legal = state.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
        state.apply_action(action)
        actions.append(action)
        seen.append((str(state), state.history))
    from_actions, from_seed = factory(seed), factory(seed)
    for action, (text, history) in zip(actions, seen):
        if from_seed.current_player() == CHANCE:
            assert from_seed.sample_chance() == action
        for replay in (from_actions, from_seed):
            replay.apply_action(action)
            assert (str(replay), replay.history) == (text, history)
    assert from_actions.returns() == from_seed.returns() == state.returns()


@pytest.mark.parametrize("name", list(GAMES))
def test_sample_chance_is_refused_where_chance_is_not_to_act(name):
    # Once the gem game and the Duel answered sample_chance() at the end of a game (a die face no rule lets
    # anyone apply), and the domino and Orion engines, which have no chance nodes, failed inside NumPy
    # ("a must be a positive integer"): now every engine refuses it, naming who is to act.
    factory = GAMES[name][0]
    state, rng = factory(3), np.random.default_rng(3)
    while not state.is_terminal():
        player = state.current_player()
        if player != CHANCE:
            for asked in (lambda: state.sample_chance(), lambda: state.sample_chance(np.random.default_rng(0))):
                with pytest.raises(IllegalActionError, match=rf"no chance node \(player {player} is to act\)"):
                    asked()
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
        else:
            state.apply_action(state.sample_chance())
    with pytest.raises(IllegalActionError, match=r"^sample_chance: this state is no chance node \(the game is over\): "
                                                 r"no chance action is legal here$"):
        state.sample_chance()


@pytest.mark.parametrize("name", list(GAMES))
def test_play_game_is_the_one_loop(name):
    # The one game loop plays every engine to the end with random agents (chance from the state's own stream).
    from ubongo_cp.games.base import RandomAgent

    state = GAMES[name][0](2)
    play_game(state, [RandomAgent(q) for q in range(state.num_players)])
    assert state.is_terminal()
    with pytest.raises(RuntimeError, match="not over after 3 actions"):
        play_game(GAMES[name][0](2), [RandomAgent(q) for q in range(state.num_players)], max_steps=3)


def test_play_game_refuses_agents_that_do_not_match_the_players():
    # A 4-player gem game given 2 agents: refused before any action (it raised IndexError at player 2's first
    # setup move, after players 0 and 1 had placed their pawns); no agents where a player is to act: refused at
    # that player's turn, naming it. The Duel (chance nodes only) is played without agents.
    from ubongo_cp.games.base import RandomAgent

    state = UbongoState(CLASSIC, 4, seed=1)
    with pytest.raises(InputError, match=r"^play_game: 2 agent\(s\) for the 4 players of Ubongo \(one per player, "):
        play_game(state, [RandomAgent(0), RandomAgent(1)])
    assert state.actions == [] and state.pawns.tolist() == [-1, -1, -1, -1]
    with pytest.raises(InputError, match=r"^play_game: no agents, but player 0 of Ubongo is to act"):
        play_game(state, [])
    assert state.actions == []
    assert play_game(DuelState(DUEL, "A", seed=1), ()).is_terminal()


@pytest.mark.parametrize("name", ["ubongo", "duel", "domino"])
def test_states_show_as_pictures_in_jupyter(name):
    from IPython.core.formatters import DisplayFormatter

    state = GAMES[name][0](3)
    for a in state.legal_actions()[:1]:
        state.apply_action(a)
    data, _ = DisplayFormatter().format(state)
    png = data["image/png"]
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and 2_000 < len(png) < 200_000
    assert data["text/plain"]  # the text form stays


def test_engines_load_without_matplotlib():
    # Pictures import matplotlib lazily: loading, playing and printing a state does not.
    code = ("import sys\n"
            "from ubongo_cp.games.ubongo.sim import simulate_ubongo\n"
            "from ubongo_cp.games.duel.sim import simulate_duel\n"
            "from ubongo_cp.games.domino.sim import play_one\n"
            "from ubongo_cp.games.tasks import synthetic_tasks\n"
            "simulate_ubongo(synthetic_tasks('classic'), 4, 2); simulate_duel(synthetic_tasks('duel'), 2)\n"
            "print(play_one(['random'] * 3, 1)[1])\n"
            "assert 'matplotlib' not in sys.modules, 'matplotlib imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)


@pytest.mark.parametrize("name, change", [
    ("duel", lambda r: r["generator"]["state"].update(inc=-1)),
    ("duel", lambda r: r["generator"].update(uinteger=2 ** 70)),
    ("ubongo", lambda r: r["generator"]["state"].update(inc=-1)),
    ("ubongo", lambda r: r["start"]["board"][0].__setitem__(0, 2 ** 70)),
], ids=["duel generator -1", "duel uinteger 2**70", "gem generator -1", "gem board 2**70"])
def test_a_number_out_of_range_in_a_record_is_bad_input(name, change):
    # Once a raw OverflowError from numpy instead of the InputError a malformed record gets.
    state = GAMES[name][0](1)
    state.apply_action(state.legal_actions()[0])
    record = json.loads(json.dumps(record_of(state), allow_nan=False))
    change(record)
    with pytest.raises(InputError):
        replay_record(record)


def _set(record: dict, where: tuple, value) -> None:
    """Put ``value`` at the path ``where`` (keys and list indices) of ``record``."""
    for key in where[:-1]:
        record = record[key]
    record[where[-1]] = value


@pytest.mark.parametrize("name, where, value, message", [
    ("ubongo", ("model", "base"), 10 ** 400, "malformed record (a number out of range: too large or infinite)"),
    ("ubongo", ("deck", "ratios", 0, 0), 10 ** 400, "malformed record (a number out of range"),
    # The value cut as every message cuts one (as_written): these repeated all 400 digits.
    ("ubongo", ("settings", "timer"), 10 ** 400, "timer 1000000000000000000000000000000000000... must be a finite "
                                                 "number > 0 and move time 4.0 >= 0"),
    ("duel", ("settings", "give_up"), 10 ** 400, "give-up time 1000000000000000000000000000000000000... and tie "
                                                 "window 0.1 must be numbers"),
    ("duel", ("start", "scores", 0), 10 ** 400, "scores [100000000000000000000000000000000000... must be two whole "
                                                "numbers 0..5"),
    ("duel", ("settings", "max_rerolls"), 10 ** 400, "max_rerolls must be a whole number"),
    ("duel", ("moves", 0, "draws", 0), 10 ** 400, "move 1: 'draws' must be a list of numbers"),
    ("domino", ("deal", "start"), math.inf, "deal has unknown domino ids [inf]"),
    ("domino", ("deal", "hands", 0, 0), 2.7, "deal has unknown domino ids [2.7]"),
], ids=["gem model 10**400", "gem ratio 10**400", "gem timer 10**400", "duel give-up 10**400",
        "duel score 10**400", "duel rerolls 10**400", "duel draw 10**400", "domino start Infinity",
        "domino id 2.7"])
def test_a_record_number_no_float_or_id_holds_is_one_line_naming_the_file(name, where, value, message, tmp_path):
    # A whole number beyond a float's range (JSON allows any), an Infinity where a domino id belongs: once a
    # raw OverflowError from float()/int() (the CLI: "OverflowError: cannot convert float infinity to
    # integer"); a domino id 2.7 was read as domino 2.
    state = GAMES[name][0](1)
    play_game(state, [RandomAgent(s) for s in range(4)])
    record = record_of(state)
    _set(record, where, value)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    with pytest.raises(InputError) as info:
        load_record(path)
    assert str(info.value).startswith(f"{path}: {message}"), info.value


@pytest.mark.parametrize("name, field, text", [
    ("duel", "draws", "roll 1 (leader only) face 5"),   # UD-7: the leader's roll 1 settles nothing
    ("ubongo", "times", "start on field 0"),            # UG-2: a pawn's start field draws no solve time
])
def test_solve_times_on_a_move_that_draws_none_are_refused(name, field, text, tmp_path):
    # A record edited by hand: solve times on a move whose transition draws none were ignored and the record
    # replayed as if they were not there (as a swap depth on a move that is no swap is refused, DN-10).
    if name == "duel":
        state = DuelState(DUEL, "A", handicap=True, scores=(3, 1), seed=2)   # A leads, on orange field 3 (UD-7)
        for action in (4, 7):   # roll 1 for the leader, then roll 2 settles the duel with 3 solve times
            state.apply_action(action)
    else:
        state = UbongoState(CLASSIC, 2, "easy", seed=1)
        for action in (0, 1, 0):   # the two start fields (UG-2), then the roll, which draws 2 solve times
            state.apply_action(action)
    record = record_of(state)
    assert record["moves"][0]["text"] == text and field not in record["moves"][0] and field in record["moves"][-1]
    replay_record(json.loads(json.dumps(record)))   # as written: replays
    record["moves"][0][field] = [1.0, 2.0, 3.0][:len(record["moves"][-1][field])]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    with pytest.raises(InputError) as info:
        load_record(path)
    assert str(info.value) == (f"{path}: move 1: '{field}' belongs to a move that draws solve times, not to "
                               f"'{text}'")


def test_a_recorded_action_of_400_digits_is_cut_in_the_message():
    # The action 10**400 was repeated in full, twice (the action and its text, "roll face 1000...1").
    state = DuelState(DUEL, "A", seed=1)
    state.apply_action(7)
    record = json.loads(json.dumps(record_of(state)))
    record["moves"][0]["action"] = 10 ** 400
    for text in (True, False):   # with its text or without: an id the game does not have
        if not text:
            del record["moves"][0]["text"]
        with pytest.raises(IllegalActionError) as info:
            replay_record(record)
        assert str(info.value) == ("record: move 1: illegal action 1000000000000000000000000000000000000...: no such "
                                   "action, the ids are 0..19 (UD-2)")


def test_a_domino_deal_refuses_ids_that_are_no_whole_numbers():
    # DN-1: a deal holds the 21 dominoes by id or name; 2.7 is neither (it was read as domino 2).
    state = new_game(DominoSettings(num_players=2), seed=4)
    deal = state.deal
    hands = [list(h) for h in deal["hands"]]
    hands[0][0] = hands[0][0] + 0.7
    with pytest.raises(InputError, match=r"deal has unknown domino ids \[\d+\.7\]"):
        DominoState.from_deal(state.settings, deal["start"], hands, deal["stock"])
    with pytest.raises(InputError, match=r"deal has unknown domino ids \[True\]"):
        DominoState(state.settings, True, deal["hands"], deal["stock"])


#: Per game: a state made with a given seed.
SEEDED = {
    "ubongo": lambda seed: UbongoState(CLASSIC, 2, "easy", seed=seed),
    "duel": lambda seed: DuelState(DUEL, "A", seed=seed),
    "domino": lambda seed: new_game(DominoSettings(num_players=2), seed=seed),
    "orion": lambda seed: OrionState(seed=seed),
}


@pytest.mark.parametrize("name", list(SEEDED))
@pytest.mark.parametrize("seed", [-1, 1.5, "7", True], ids=["-1", "1.5", "'7'", "True"])
def test_a_seed_numpy_cannot_take_is_bad_input_naming_the_seed(name, seed):
    # Once numpy's "expected non-negative integer" (a ValueError) or a TypeError naming no argument; a bool
    # seeded as 0 or 1. Also through OpenSpiel: pyspiel.load_game("ubongo_cp_duel", {"seed": -1}).
    with pytest.raises(InputError, match=r"^seed must be a whole number"):
        SEEDED[name](seed)


@pytest.mark.parametrize("name", list(SEEDED))
def test_every_engine_takes_no_seed_for_a_fresh_game_that_replays(name):
    # The domino engine refused seed=None ("seed must be a whole number of at least 0, got None"), which the
    # others take for fresh entropy; it now draws a fresh seed and keeps it (state.seed, the record).
    for _ in range(2):
        state = SEEDED[name](None)
        play_game(state, [RandomAgent(q) for q in range(state.num_players)])
        back = replay_record(json.loads(json.dumps(record_of(state))))
        assert str(back) == str(state) and back.returns() == state.returns() and back.is_terminal()
    if name == "domino":
        seeds = {new_game(DominoSettings(num_players=2), seed=None).seed for _ in range(4)}
        assert len(seeds) == 4 and all(type(s) is int and 0 <= s < 2 ** 63 - 1 for s in seeds)
        deal = state.deal
        again = DominoState(state.settings, deal["start"], deal["hands"], deal["stock"], seed=None)
        assert type(again.seed) is int and again.seed >= 0


def test_a_domino_game_with_a_negative_seed_is_refused_before_it_starts():
    # DN-10 swaps draw from default_rng((seed, k)): a state made with seed -1 used to start, list swaps as
    # legal, and fail at the first one with numpy's ValueError.
    state = new_game(DominoSettings(num_players=2), seed=3)
    deal = state.deal
    with pytest.raises(InputError, match=r"^seed must be a whole number of at least 0, got -1$"):
        DominoState(state.settings, deal["start"], deal["hands"], deal["stock"], seed=-1)
    with pytest.raises(InputError, match=r"^seed must be a whole number of at least 0, got 2\.9$"):
        DominoState(state.settings, deal["start"], deal["hands"], deal["stock"], seed=2.9)  # once read as 2


@pytest.mark.parametrize("run", [
    lambda **kw: simulate_duel(DUEL, **kw),
    lambda **kw: simulate_ubongo(CLASSIC, 2, **kw),
    lambda **kw: simulate_domino(["random"] * 2, **kw),
    lambda **kw: run_tournament(["random"], **kw),
], ids=["duel", "ubongo", "domino", "orion"])
def test_a_simulation_refuses_a_bad_game_count_or_seed_before_it_plays(run):
    # Once TypeErrors ("'float' object cannot be interpreted as an integer") or numpy's ValueError, for the
    # Orion tournament raised in the workers.
    with pytest.raises(InputError, match=r"^games must be a whole number of at least 1, got 2\.5$"):
        run(games=2.5, seed=0)
    with pytest.raises(InputError, match=r"^games must be a whole number of at least 1, got 0$"):
        run(games=0, seed=0)
    with pytest.raises(InputError, match=r"^seed must be a whole number >= 0 .*, got -1$"):
        run(games=2, seed=-1)


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("players", ["random", ["random"], ["random", 3, "x", "y"][:2], ["a"] * 5],
                         ids=["a string", "one label", "a number", "five labels"])
def test_a_record_is_written_only_with_one_text_label_per_seat(name, players, tmp_path):
    # The Orion Duel reader refuses 'players' that are not one label per seat, so a record written with them
    # could not be read back; a string was split into its letters ("random" -> 6 labels "r", "a", ...).
    state = GAMES[name][0](1)
    seats = state.num_players
    if isinstance(players, list) and len(players) == seats and all(isinstance(p, str) for p in players):
        pytest.skip("labels that fit this game")
    with pytest.raises(InputError, match=rf"^players must be {seats} labels \(text\), one per seat, got "):
        save_record(state, tmp_path / "game.json", players)
    assert not (tmp_path / "game.json").exists()
    good = [f"p{s}" for s in range(seats)]
    save_record(state, tmp_path / "game.json", tuple(good))
    assert json.loads((tmp_path / "game.json").read_text())["players"] == good
    load_record(tmp_path / "game.json")


@pytest.mark.parametrize("name", ["ubongo", "duel", "domino"])
@pytest.mark.parametrize("field, value, message", [
    ("n", True, "move 1: numbered true"),           # JSON's true is no move number, though Python's True == 1
    ("n", 1.0, "move 1: numbered 1.0"),
    ("player", False, "move 1: recorded for player false but player {player} is to act"),
], ids=["n true", "n 1.0", "player false"])
def test_a_move_number_or_player_of_another_type_is_refused(name, field, value, message):
    # A hand-edited record: "n": true or "player": false compared equal to 1 and 0 and the record replayed
    # (Orion's records already refuse a player that is no whole number).
    state = GAMES[name][0](1)
    state.apply_action(state.legal_actions()[0])
    record = json.loads(json.dumps(record_of(state), allow_nan=False))
    record["moves"][0][field] = value
    first = record["moves"][0]["player"] if field != "player" else GAMES[name][0](1).current_player()
    with pytest.raises(InputError) as caught:
        replay_record(record)
    assert caught.value.message == message.format(player=first)


#: What a state shares with its clones on purpose: the game's fixed tables (deck, board, placements) and
#: caches of legal moves that a move replaces whole and nothing changes in place.
SHARED_ON_PURPOSE = {"deck", "model", "game", "tables", "_legal", "_masks", "_open_req"}


def _mutables(value, out: dict, seen: set) -> None:
    """Every list, dict, set and array reachable from ``value`` (through containers and object attributes)."""
    if id(value) in seen or isinstance(value, (str, bytes, int, float, type)) or callable(value):
        return
    seen.add(id(value))
    if isinstance(value, (list, dict, set, np.ndarray)):
        out[id(value)] = value
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple, set, frozenset)):
        for v in value:
            _mutables(v, out, seen)
    elif isinstance(value, np.ndarray):
        if value.dtype == object:
            for v in value.flat:
                _mutables(v, out, seen)
    else:
        for v in _attributes(value).values():
            _mutables(v, out, seen)


def _attributes(obj) -> dict:
    names = list(getattr(obj, "__dict__", ())) + [k for c in type(obj).__mro__ for k in getattr(c, "__slots__", ())]
    return {k: getattr(obj, k) for k in names if hasattr(obj, k)}


def _clone_cases():
    from ubongo_cp.games.orion.bitboard import BitOrionState
    from ubongo_cp.games.orion.pie import PieOrionState
    for name, (factory, _) in GAMES.items():
        yield pytest.param(lambda seed, f=factory: f(seed), id=name)
    yield pytest.param(lambda seed: BitOrionState(seed=seed), id="orion-bitboard")
    yield pytest.param(lambda seed: PieOrionState(OrionState(seed=seed)), id="orion-pie")


@pytest.mark.parametrize("factory", list(_clone_cases()))
@pytest.mark.parametrize("seed", [1, 2])
def test_a_clone_shares_nothing_that_changes(factory, seed):
    # A clone is independent: no list, dict, set or writable array of a state (its history, record start,
    # cached win witnesses, ...) is one object with the clone's, except the game's fixed tables.
    state, rng = factory(seed), np.random.default_rng(seed)
    for _ in range(6):
        if not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    state.legal_actions()
    inner = getattr(state, "inner", state)
    if hasattr(inner, "wins"):
        inner.wins  # noqa: B018  the cached witnesses (OD-4) are part of the state
    clone = state.clone()
    ours, theirs, fixed = {}, {}, {}
    for key, value in _attributes(state).items():
        (_mutables(value, fixed, set()) if key in SHARED_ON_PURPOSE else _mutables(value, ours, set()))
    for key, value in _attributes(inner).items():
        if key in SHARED_ON_PURPOSE:
            _mutables(value, fixed, set())
    _mutables(clone, theirs, set())
    shared = [v for i, v in ours.items() if i in theirs and i not in fixed
              and not (isinstance(v, np.ndarray) and not v.flags.writeable)]
    assert shared == []


@pytest.mark.parametrize("factory", list(_clone_cases()))
def test_history_is_a_copy_a_caller_may_change(factory):
    # state.history was the state's own list: a caller appending to it (or changing a round's log in it) changed
    # the game; now it is a copy, and the game goes on as an untouched copy of it does.
    state, rng = factory(4), np.random.default_rng(4)
    for _ in range(6):
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    untouched = state.clone()
    before = pickle.dumps(state.history)
    assert state.history == untouched.history and state.history is not state.history
    _scramble(state.history)      # appends to it and changes what it holds in place
    assert pickle.dumps(state.history) == before
    if hasattr(state, "actions"):   # the gem game and the Duel keep their actions beside their round logs
        actions = state.actions
        state.actions.append(0)
        assert state.actions == actions == untouched.actions and len(actions) == 6
    while not state.is_terminal():
        legal = state.legal_actions()
        assert untouched.legal_actions() == legal
        action = legal[int(rng.integers(len(legal)))]
        state.apply_action(action)
        untouched.apply_action(action)
    assert str(state) == str(untouched) and state.history == untouched.history and state.returns() == untouched.returns()


def test_an_orion_clone_has_its_own_win_witnesses():
    # OD-4 witnesses of a finished game: adding to the clone's list leaves the original's as it was.
    state, rng = OrionState(seed=3), np.random.default_rng(3)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    before = [list(w) for w in state.wins]
    clone = state.clone()
    clone.wins[0].append("not a witness")
    clone.wins[1].clear()
    assert state.wins == before
