"""Orion Duel game records: save and load a game as JSON, replaying every move.

A record is a JSON object::

    {"format": "ubongo-cp/orion-duel", "version": 2, "flips": true,
     "tiles": "published",                               # optional, see below
     "setup_rules": {"galaxies": 8, ...},                # optional, OD-1 options
     "board": {...},                                     # optional, custom boards
     "players": ["random", "greedy"],                    # optional labels
     "setup": {"galaxies": [[q, r], ...], "black_holes": [[q, r], ...],
               "first_player": 0, "galaxy_player": 1},
     "moves": [{"player": 0, "tile": "I3a", "rotation": 2, "flip": false,
                "anchor": [q, r]}, ...],
     "result": {"winner": 0, "rule": "OD-5", "moves": 17}}  # optional

``tiles`` is the name of a shipped tile set (``published``, ``seed``) or
``{"name": ..., "text": ...}`` with the tile-set file's text
(:mod:`.tiles`); ``galaxy_player`` is who placed the galaxies (and chose
who starts, OD-1); ``setup_rules`` the OD-1 counts and spacings
(:class:`.setup.SetupRules`) and ``board`` a custom board (hexes, sides,
pairs), each written only when it differs from the default. Version 1
records (without these fields: published tiles, default rules and board,
galaxy player unknown) are still read.

A move puts the tile's base cells through :func:`.hexgrid.transform`
(reflect if ``flip``, rotate ``rotation`` sixth-turns, then move the first
base cell to ``anchor``). Loading validates the setup (OD-1) and replays
every move through :class:`.state.OrionState`, so an illegal move is
reported with its number and the rule it breaks (OD-2, OD-3, or a move
after the end, OD-5/6/7).

Records are read and written through the records API of
:mod:`ubongo_cp.games.base` (:func:`~ubongo_cp.games.base.record_of`,
:func:`~ubongo_cp.games.base.save_record`,
:func:`~ubongo_cp.games.base.load_record`); this module registers the
format there. :func:`save_record` and :func:`load_record` here are the
same calls, the latter accepting Orion Duel records only.
"""

from __future__ import annotations

import os
from typing import Sequence

from ...errors import IllegalActionError, InputError
from ..base import RecordFormat, check_result, is_int, malformed, register_record_format
from .bitboard import BitOrionState
from .board import Board, default_board
from .hexgrid import transform
from .setup import Setup, SetupRules
from .pie import PieOrionState, swap_action
from .state import OrionGame, OrionRules, OrionState
from .tiles import SHIPPED_TILE_SETS, format_tiles, load_tiles, parse_tiles

__all__ = ["FORMAT", "VERSION", "record_of", "save_record", "load_record", "replay", "move_to_json"]

#: The ``format`` field of an Orion Duel game record.
FORMAT = "ubongo-cp/orion-duel"
#: Version written; versions 1 and 2 are read.
VERSION = 2


def move_to_json(state: OrionState, action: int, player: int) -> dict:
    """The JSON form of placement ``action`` played by ``player``."""
    pl = state.game.placements[action]
    return {"player": player, "tile": state.game.tiles.tiles[pl.tile].name,
            "rotation": pl.rotation, "flip": pl.flip, "anchor": list(pl.anchor)}


def record_of(state: OrionRules | PieOrionState, players: Sequence[str] | None = None) -> dict:
    """The record (a JSON-ready dict) of the game that led to ``state``: of either engine (a record replays
    through the reference engine's rules), or of a game under the pie rule (``"pie": {"swapped": ...}``: whether
    the second seat took over the first tile; the moves' ``player`` is the colour, ``players`` name the seats).

    Raises
    ------
    InputError
        For a position that its moves, played in turn from its setup, do not give: one given by its colours
        (:meth:`.state.OrionState.from_board`) or reached by analysis moves (:meth:`.state.OrionState.place`).
    """
    if isinstance(state, PieOrionState):
        inner = state.inner
        rec = record_of(inner, players)
        rec["pie"] = {"swapped": state.swapped}
        if "result" in rec:     # the move count of the pie game, its swap counted, as its replay gives it
            rec["result"] = result_of(state)
        return rec
    game = state.game
    replay_state = OrionState(state.setup, game)
    moves = []
    try:
        for a in state._history:
            moves.append(move_to_json(replay_state, a, replay_state.current_player()))
            replay_state.apply_action(a)
    except IllegalActionError:
        raise _no_game_record() from None
    # A record is the setup and the moves in turn: a position given by its colours (OrionState.from_board,
    # BitOrionState.from_reference) or reached by analysis moves (place: the opponent passes) is no such game.
    position = state.to_reference() if isinstance(state, BitOrionState) else state
    assert isinstance(position, OrionState)   # the two engines
    if not (replay_state.current_player() == position.current_player()
            and (replay_state.used == position.used).all() and (replay_state.colour == position.colour).all()):
        raise _no_game_record()
    rec = {"format": FORMAT, "version": VERSION, "flips": game.tiles.flips}
    tiles = game.tiles
    if tiles.name in SHIPPED_TILE_SETS and load_tiles(tiles.name, flips=tiles.flips) == tiles:
        rec["tiles"] = tiles.name
    else:
        rec["tiles"] = {"name": tiles.name, "text": format_tiles(tiles)}
    if game.rules != SetupRules():
        rec["setup_rules"] = game.rules.to_json()
    if game.board != default_board():
        b = game.board
        rec["board"] = {"name": b.name, "hexes": [list(h) for h in b.hexes],
                        "sides": {name: [list(h) for h in side] for name, side in b.sides},
                        "pairs": [list(p) for p in b.pairs]}
    rec.update({"setup": state.setup.to_json(), "moves": moves})
    if players is not None:
        rec["players"] = list(players)
    if state.is_terminal():
        rec["result"] = result_of(state)
    return rec


def _no_game_record() -> InputError:
    return InputError("this position is not the end of a game played from its setup (it was given by its colours, "
                      "or reached by analysis moves where the opponent passes): a record holds a game's moves in "
                      "turn, so it cannot hold this position")


def result_of(state: OrionRules | PieOrionState) -> dict:
    """The ``result`` of a finished game's record: the winner (-1 a draw), the rule that ended it, the moves.

    The winner is a colour (player of the inner game); under the pie rule the moves count the swap.
    """
    inner = state.inner if isinstance(state, PieOrionState) else state
    return {"winner": inner.winner, "rule": inner.end_rule, "moves": len(state._history)}


def save_record(state: OrionState, path: str | os.PathLike,
                players: Sequence[str] | None = None) -> None:
    """Write the record of ``state``'s game to ``path`` (:func:`ubongo_cp.games.base.save_record`)."""
    from .. import base

    base.save_record(state, path, players)


def load_record(path: str | os.PathLike) -> OrionState | PieOrionState:
    """Read an Orion Duel record and replay it (:func:`ubongo_cp.games.base.load_record`): the reference
    engine's final state, inside a :class:`.pie.PieOrionState` for a game under the pie rule.

    Raises
    ------
    InputError
        Naming ``path`` and, for bad JSON, the line; for a bad move, the move
        number (1-based) and the rule broken; for a record of another game.
    """
    from .. import base

    state = base.load_record(path, game=OrionState)
    assert isinstance(state, (OrionState, PieOrionState))   # load_record checked the record's game
    return state


def replay(data: dict, path: str | os.PathLike | None = None, on_move=None) -> OrionState | PieOrionState:
    """Replay a record dict move by move; returns the final state (in a :class:`.pie.PieOrionState` when the
    record has a ``pie`` field).

    ``on_move(n, state, action)`` is called before move ``n`` (from 1) is
    applied.

    Raises
    ------
    InputError
        A missing or malformed field, an OD-1 setup error, or an illegal
        move ("move 7 (player 0, tile I3a): OD-3: ...").
    """
    if not isinstance(data, dict):
        raise InputError("a record must be a JSON object", path=path)
    if data.get("format") != FORMAT:
        raise InputError(f"not an Orion Duel record (format {data.get('format')!r}, "
                         f"expected {FORMAT!r})", path=path)
    if data.get("version", 1) not in (1, 2) or isinstance(data.get("version"), bool):
        raise InputError(f"record version {data.get('version')!r} is not supported (expected 1 or 2)",
                         path=path)
    players = data.get("players")
    if players is not None and (not isinstance(players, list) or len(players) != 2
                                or not all(isinstance(p, str) for p in players)):
        raise InputError(f"'players' must be a list of two labels, got {players!r}", path=path)
    res = data.get("result")
    if res is not None and not (isinstance(res, dict) and res.get("winner") in (0, 1, -1, None)
                                and not isinstance(res.get("winner"), bool)):
        raise InputError(f"'result' must be an object with winner 0, 1, -1 (draw) or null, got {res!r}", path=path)
    try:
        s = data["setup"]
        unknown = sorted(set(s) - {"galaxies", "black_holes", "first_player", "galaxy_player"})
        if unknown:
            raise ValueError(f"unknown field(s) {', '.join(map(repr, unknown))}")
        if isinstance(s, dict) and "first_player" not in s:   # no default: another starter is another game
            raise InputError("setup: the field 'first_player' is missing (0 or 1: the player who places the first "
                             "tile, OD-1)", path=path)
        first = s.get("first_player")
        if not is_int(first) or first not in (0, 1):
            raise ValueError(f"first_player must be 0 or 1, got {first!r}")
        gp = s.get("galaxy_player")
        if gp is not None and (not is_int(gp) or gp not in (0, 1)):
            raise ValueError(f"galaxy_player must be 0 or 1, got {gp!r}")
        setup = Setup(tuple(_hex(h) for h in s["galaxies"]), tuple(_hex(h) for h in s["black_holes"]),
                      first, gp)
    except InputError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InputError(f"setup: missing or malformed field ({malformed(exc)})", path=path) from None
    game = _game(data, path)
    try:
        state = OrionState(setup, game)
    except InputError as exc:
        raise InputError(f"setup: {exc}", path=path) from None
    moves = data.get("moves")
    if not isinstance(moves, list):
        raise InputError("'moves' must be a list", path=path)
    pie = _pie(data, moves, path)
    played: OrionState | PieOrionState = state if pie is None else PieOrionState(state)
    for k, mv in enumerate(moves, start=1):
        action = _move_action(state, mv, k, path)
        if on_move is not None:
            on_move(k, state, action)
        try:
            played.apply_action(action)
        except IllegalActionError as exc:
            raise InputError(f"move {k} ({_describe(mv)}): {exc}", path=path) from None
        if k == 1 and pie:    # the second seat took over the first tile
            try:
                played.apply_action(swap_action(state))
            except IllegalActionError as exc:
                raise InputError(f"'pie': the swap after move 1: {exc}", path=path) from None
    check_result(res, result_of(played) if state.is_terminal() else None, path)
    return played


def _pie(data: dict, moves: list, path) -> bool | None:
    """The record's pie rule: None without one, else whether the seats swapped after the first move."""
    pie = data.get("pie")
    if pie is None:
        return None
    if not isinstance(pie, dict) or set(pie) != {"swapped"} or not isinstance(pie["swapped"], bool):
        raise InputError(f"'pie' must be an object {{\"swapped\": true or false}}, got {pie!r}", path=path)
    if pie["swapped"] and not moves:
        raise InputError("'pie': a swap takes over the first move, and the record has none", path=path)
    return pie["swapped"]


def _game(data: dict, path) -> OrionGame:
    """The game variant of a record: tile set, flips, OD-1 rules and board."""
    flips = data.get("flips", True)
    if not isinstance(flips, bool):
        raise InputError(f"'flips' must be true or false, got {flips!r}", path=path)
    spec = data.get("tiles", "published")
    if isinstance(spec, str) and spec in SHIPPED_TILE_SETS:
        tiles = load_tiles(spec, flips=flips)
    elif isinstance(spec, dict) and isinstance(spec.get("text"), str):
        try:
            tiles = parse_tiles(spec["text"], str(spec.get("name", "custom")), flips=flips)
        except InputError as exc:
            raise InputError(f"'tiles' text: {exc}", path=path) from None
    else:
        raise InputError(f"'tiles' must be {' or '.join(SHIPPED_TILE_SETS)} or an object with "
                         f"the tile-set text, got {spec!r}", path=path)
    rules = data.get("setup_rules")
    try:
        rules = SetupRules.from_json(rules) if rules is not None else SetupRules()
    except InputError as exc:
        raise InputError(f"'setup_rules': {exc.message}", path=path) from None
    board = data.get("board")
    if board is None:
        return OrionGame.get(None, tiles, rules)
    try:
        board = Board(tuple(_hex(h) for h in board["hexes"]),
                      tuple((str(k), tuple(_hex(h) for h in v)) for k, v in board["sides"].items()),
                      tuple(_pair(p) for p in board["pairs"]), str(board.get("name", "custom")))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise InputError(f"'board': missing or malformed field ({malformed(exc)})", path=path) from None
    except InputError as exc:
        raise InputError(f"'board': {exc}", path=path) from None
    return OrionGame.get(board, tiles, rules)


def _hex(h) -> tuple[int, int]:
    if not (isinstance(h, (list, tuple)) and len(h) == 2 and all(is_int(x) for x in h)):
        raise ValueError(f"a hex must be [q, r] with two integers, got {h!r}")
    return (h[0], h[1])


def _pair(p) -> tuple[str, str]:
    if not (isinstance(p, (list, tuple)) and len(p) == 2 and all(isinstance(x, str) for x in p)):
        raise ValueError(f"a pair of opposite sides must be [side, side], two side names, got {p!r}")
    return (p[0], p[1])


def _describe(mv) -> str:
    if isinstance(mv, dict):
        return f"player {mv.get('player')}, tile {mv.get('tile')}"
    return repr(mv)


def _move_action(state: OrionState, mv, k: int, path) -> int:
    """Action id of record move ``mv`` (number ``k``); raises InputError naming the move."""
    where = f"move {k} ({_describe(mv)})"
    if state.is_terminal():
        raise InputError(f"{where}: the game already ended by {state.end_rule} after move {k - 1}",
                         path=path)
    if not isinstance(mv, dict):
        raise InputError(f"{where}: a move must be an object", path=path)
    game = state.game
    missing = [name for name in ("tile", "rotation", "flip", "anchor") if name not in mv]
    if missing:   # each is needed: a default would replay another placement of the tile without a word
        raise InputError(f"{where}: missing field(s) {', '.join(map(repr, missing))}", path=path)
    try:
        ti = game.tiles.names[mv["tile"]]
        rot = mv["rotation"]
        flip = mv["flip"]
        if not is_int(rot) or not 0 <= rot < 6:
            raise ValueError(f"rotation must be an integer 0..5, got {rot!r}")
        if not isinstance(flip, bool):
            raise ValueError(f"flip must be true or false, got {flip!r}")
        anchor = _hex(mv["anchor"])
    except KeyError as exc:
        raise InputError(f"{where}: unknown tile {exc} (tile set {game.tiles.name!r})", path=path) from None
    except (TypeError, ValueError) as exc:
        raise InputError(f"{where}: malformed field ({exc})", path=path) from None
    if "player" in mv and not (is_int(mv["player"]) and mv["player"] in (0, 1)):
        raise InputError(f"{where}: 'player' must be 0 or 1, got {mv['player']!r}", path=path)
    if "player" in mv and mv["player"] != state.current_player():
        raise InputError(f"{where}: it is player {state.current_player()}'s turn", path=path)
    if flip and not game.tiles.flips:
        raise InputError(f"{where}: tiles may not be turned over in this record (flips false)",
                         path=path)
    idx = game.board.index
    cells = []
    for h, c in game.tiles.tiles[ti].cells:
        q, r = transform(h, rot, flip, anchor)
        if (q, r) not in idx:
            raise InputError(f"{where}: OD-2: hex {(q, r)} is off the board", path=path)
        cells.append((idx[(q, r)], c == 1))
    action = game.placement_id(ti, cells)
    if action is None:  # cannot happen for on-board cells; kept as a guard
        raise InputError(f"{where}: no such placement", path=path)
    return action


register_record_format(RecordFormat(FORMAT, VERSION, OrionState, record_of, replay, older=(1,),
                                    writers=(OrionRules, PieOrionState)))
