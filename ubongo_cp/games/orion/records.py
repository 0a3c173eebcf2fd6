"""Orion Duel game records: save and load a game as JSON, replaying every move.

A record is a JSON object::

    {"format": "ubongo-cp/orion-duel", "version": 1, "flips": true,
     "players": ["random", "greedy"],                    # optional labels
     "setup": {"galaxies": [[q, r], ...], "black_holes": [[q, r], ...],
               "first_player": 0},
     "moves": [{"player": 0, "tile": "I3a", "rotation": 2, "flip": false,
                "anchor": [q, r]}, ...],
     "result": {"winner": 0, "rule": "OD-5", "moves": 17}}  # optional

A move puts the tile's base cells through :func:`.hexgrid.transform`
(reflect if ``flip``, rotate ``rotation`` sixth-turns, then move the first
base cell to ``anchor``). Loading validates the setup (OD-1) and replays
every move through :class:`.engine.OrionState`, so an illegal move is
reported with its number and the rule it breaks (OD-2, OD-3, or a move
after the end, OD-5/6/7). The board is the default one (RULES.md §4).
"""

from __future__ import annotations

import json
import os
from typing import Sequence

from ...errors import IllegalActionError, InputError
from .engine import OrionGame, OrionState, Setup
from .hexgrid import transform
from .tiles import default_tiles

__all__ = ["FORMAT", "record_of", "save_record", "load_record", "replay", "move_to_json"]

FORMAT = "ubongo-cp/orion-duel"


def move_to_json(state: OrionState, action: int, player: int) -> dict:
    """The JSON form of placement ``action`` played by ``player``."""
    pl = state.game.placements[action]
    return {"player": player, "tile": state.game.tiles.tiles[pl.tile].name,
            "rotation": pl.rotation, "flip": pl.flip, "anchor": list(pl.anchor)}


def record_of(state: OrionState, players: Sequence[str] | None = None) -> dict:
    """The record (a JSON-ready dict) of the game that led to ``state``."""
    replay_state = OrionState(state.setup, state.game)
    moves = []
    for a in state.history:
        moves.append(move_to_json(replay_state, a, replay_state.current_player()))
        replay_state.apply_action(a)
    rec = {"format": FORMAT, "version": 1, "flips": state.game.tiles.flips,
           "setup": state.setup.to_json(), "moves": moves}
    if players is not None:
        rec["players"] = list(players)
    if state.is_terminal():
        rec["result"] = {"winner": state.winner, "rule": state.end_rule, "moves": len(state.history)}
    return rec


def save_record(state: OrionState, path: str | os.PathLike,
                players: Sequence[str] | None = None) -> None:
    """Write the record of ``state``'s game to ``path`` (JSON, indented)."""
    from ...io import atomic_write_text

    atomic_write_text(path, json.dumps(record_of(state, players), indent=1) + "\n")


def load_record(path: str | os.PathLike) -> OrionState:
    """Read a record and replay it; returns the final state.

    Raises
    ------
    InputError
        Naming ``path`` and, for bad JSON, the line; for a bad move, the move
        number (1-based) and the rule broken.
    """
    from ...io import read_json_object

    return replay(read_json_object(path), path=path)


def replay(data: dict, path: str | os.PathLike | None = None) -> OrionState:
    """Replay a record dict move by move; returns the final state.

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
    if data.get("version", 1) != 1:
        raise InputError(f"record version {data.get('version')!r} is not supported (expected 1)", path=path)
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
        first = s.get("first_player", 0)
        if not _is_int(first) or first not in (0, 1):
            raise ValueError(f"first_player must be 0 or 1, got {first!r}")
        setup = Setup(tuple(_hex(h) for h in s["galaxies"]), tuple(_hex(h) for h in s["black_holes"]), first)
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"setup: missing or malformed field ({exc})", path=path) from None
    flips = data.get("flips", True)
    if not isinstance(flips, bool):
        raise InputError(f"'flips' must be true or false, got {flips!r}", path=path)
    game = OrionGame.get(None, default_tiles(flips))
    try:
        state = OrionState(setup, game)
    except InputError as exc:
        raise InputError(f"setup: {exc}", path=path) from None
    moves = data.get("moves")
    if not isinstance(moves, list):
        raise InputError("'moves' must be a list", path=path)
    for k, mv in enumerate(moves, start=1):
        action = _move_action(state, mv, k, path)
        try:
            state.apply_action(action)
        except IllegalActionError as exc:
            raise InputError(f"move {k} ({_describe(mv)}): {exc}", path=path) from None
    res = data.get("result")
    if isinstance(res, dict) and "winner" in res:
        if state.winner != res["winner"] or state.end_rule != res.get("rule", state.end_rule):
            raise InputError(f"result says winner {res['winner']} by {res.get('rule')}, the replay "
                             f"gives winner {state.winner} by {state.end_rule}", path=path)
    return state


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _hex(h) -> tuple[int, int]:
    if not (isinstance(h, (list, tuple)) and len(h) == 2 and all(isinstance(x, int) for x in h)):
        raise ValueError(f"a hex must be [q, r] with two integers, got {h!r}")
    return (h[0], h[1])


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
    try:
        ti = game.tiles.names[mv["tile"]]
        rot = mv.get("rotation", 0)
        flip = mv.get("flip", False)
        if not _is_int(rot) or not 0 <= rot < 6:
            raise ValueError(f"rotation must be an integer 0..5, got {rot!r}")
        if not isinstance(flip, bool):
            raise ValueError(f"flip must be true or false, got {flip!r}")
        anchor = _hex(mv["anchor"])
    except KeyError as exc:
        raise InputError(f"{where}: unknown tile or missing field {exc}", path=path) from None
    except (TypeError, ValueError) as exc:
        raise InputError(f"{where}: malformed field ({exc})", path=path) from None
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
