"""Domino, nezlob se! game records: the JSON record of a game and its checked replay.

Read and write them with the records API of :mod:`ubongo_cp.games.base`
(:func:`~ubongo_cp.games.base.record_of`, :func:`~ubongo_cp.games.base.save_record`,
:func:`~ubongo_cp.games.base.load_record`); this module registers the
format ``ubongo-cp/domino-record`` version 1 there.
"""

from __future__ import annotations

import os
from dataclasses import asdict, fields
from typing import Any, Callable, Sequence

from ...errors import InputError
from ..base import RecordFormat, check_result, is_int, malformed, register_record_format, replay_moves
from .actions import domino_name, is_swap
from .state import DominoSettings, DominoState

__all__ = ["RECORD_FORMAT", "RECORD_VERSION", "record_of", "replay"]

#: The ``format`` field of a domino game record.
RECORD_FORMAT = "ubongo-cp/domino-record"
#: The ``version`` field written and read.
RECORD_VERSION = 1


def record_of(state: DominoState, players: Sequence[str] | None = None) -> dict[str, Any]:
    """JSON-ready record of the game so far: settings, seed, deal, moves, result.

    Each move stores the move number (from 1), player, action id, its name,
    and for a swap the depth at which the returned domino went into the stock.
    ``players`` (optional) label the seats, e.g. with agent names.

    Examples
    --------
    >>> from ubongo_cp.games.domino.state import new_game
    >>> s = new_game(seed=3)
    >>> s.apply_action(s.legal_actions()[-1])
    >>> rec = record_of(s, ["random"] * 4)
    >>> rec["format"], rec["moves"], rec["players"][0]
    ('ubongo-cp/domino-record', [{'n': 1, 'player': 0, 'action': 105, 'text': 'end turn'}], 'random')
    """
    ds = state.settings.domino_set

    def names(ids: Sequence[int]) -> list[str]:
        return [domino_name(d, ds) for d in ids]

    replay_state = DominoState(state.settings, state.deal["start"], state.deal["hands"],
                               state.deal["stock"], state.seed)
    moves = []
    depths = iter(state.swap_depths)
    for i, a in enumerate(state._history, 1):
        move = {"n": i, "player": replay_state.cur, "action": a, "text": replay_state.action_to_string(a)}
        if is_swap(a):
            move["swap_depth"] = next(depths)
            replay_state._forced_depth = move["swap_depth"]
        replay_state._apply(a)
        moves.append(move)
    rec: dict[str, Any] = {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "settings": asdict(state.settings),
        "seed": state.seed,
        "deal": {"start": domino_name(state.deal["start"], ds),
                 "hands": [names(h) for h in state.deal["hands"]],
                 "stock_top_first": names(state.deal["stock"])},
        "moves": moves,
    }
    if players is not None:
        rec["players"] = list(players)
    if state.is_terminal():
        rec["result"] = result_of(state)
    return rec


def result_of(state: DominoState) -> dict[str, Any]:
    """The ``result`` of a finished game's record: returns, why it ended, rounds played, who was eliminated."""
    return {"returns": state.returns(), "end_reason": state.end_reason, "rounds": state.round,
            "eliminated": list(state.eliminated)}


def replay(record: dict[str, Any], path: str | os.PathLike | None = None,
           on_move: Callable[[int, DominoState, int], None] | None = None) -> DominoState:
    """Rebuild a game from a record, checking every move against the rules.

    Called by :func:`ubongo_cp.games.base.replay_record` (which checked the
    format and version).

    Parameters
    ----------
    record : dict
        A record from :func:`record_of` (a ``players`` or older ``agents``
        list of labels is ignored).
    path : path, optional
        File name used in error messages.
    on_move : callable, optional
        Called as ``on_move(n, state, action)`` before move ``n`` (from 1) is
        applied (and its legality checked).

    Returns
    -------
    DominoState
        The state after the last recorded move.

    Raises
    ------
    InputError
        Malformed record, bad deal, a move by the wrong player, or a move name
        that does not match its id (the message names the move number), or
        a stored result that differs from the replay's
        (:func:`~ubongo_cp.games.base.check_result`).
    IllegalActionError
        A recorded move the rules forbid; the message names the move number
        and the rule.
    """
    for field, kind, what in (("settings", dict, "an object"), ("deal", dict, "an object"),
                              ("moves", list, "a list"), ("result", (dict, type(None)), "an object")):
        if field in record and not isinstance(record[field], kind):
            raise InputError(f"'{field}' must be {what}, got {type(record[field]).__name__}", path=path)
    try:
        known = {f.name for f in fields(DominoSettings)}
        raw = dict(record["settings"])
        unknown = set(raw) - known
        if unknown:
            raise InputError(f"unknown settings {sorted(unknown)}", path=path)
        if "num_players" not in raw:   # the deal is dealt for it: never the default of a new game
            raise InputError("settings: 'num_players' is missing (2, 3 or 4, the number of hands dealt)", path=path)
        try:
            settings = DominoSettings(**raw)
        except InputError as exc:   # the setting named, as the record's key
            named = f"{exc.argument} " if exc.argument else ""
            raise InputError(f"settings: {named}{exc.message}", path=path) from None
        deal = record["deal"]
        if "seed" not in record:   # no default: another seed puts the swapped dominoes elsewhere in the stock
            raise InputError("the field 'seed' is missing (the game's seed: where each swapped domino goes back "
                             "into the stock, DN-10)", path=path)
        seed = record["seed"]
        if not is_int(seed) or seed < 0:
            raise InputError(f"'seed' must be a non-negative integer, got {seed!r}")
        state = DominoState.from_deal(settings, deal["start"], deal["hands"], deal["stock_top_first"], seed)
        moves = list(record["moves"])
    except InputError as exc:
        raise InputError(exc.message, path=path) from None
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        raise InputError(f"malformed record ({malformed(exc)})", path=path) from None

    misplaced: list[str] = []   # the name of a move that is no swap but carries a depth, as it was played

    def given_depth(i: int, state: DominoState, move: dict) -> None:
        """A recorded swap's depth (DN-10: where its domino went into the stock), for the state to replay."""
        a, depth = move["action"], move.get("swap_depth")
        if is_swap(a) and is_int(depth) and 0 <= depth < len(state.stock):
            state._forced_depth = depth
        elif not is_swap(a) and "swap_depth" in move:
            misplaced.append(state.action_to_string(a))

    def check_depth(i: int, state: DominoState, move: dict) -> None:
        """Once the move passed the rules: a swap's depth was the one given, and only a swap has one."""
        depth = move.get("swap_depth")
        if is_swap(move["action"]) and (not is_int(depth) or depth != state.swap_depths[-1]):
            raise InputError(f"move {i}: a swap needs 'swap_depth' in 0..{len(state.stock) - 1}", path=path)
        if misplaced:
            raise InputError(f"move {i}: 'swap_depth' belongs to a swap (DN-10), not to {misplaced[0]!r}", path=path)

    # each move checked against the rules once, where every game checks it (apply_action)
    replay_moves(state, moves, path=path, on_move=on_move, before=given_depth, after=check_depth)
    check_result(record.get("result"), result_of(state) if state.is_terminal() else None, path)
    return state



register_record_format(RecordFormat(RECORD_FORMAT, RECORD_VERSION, DominoState, record_of, replay))
