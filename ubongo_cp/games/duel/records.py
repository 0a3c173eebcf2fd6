"""Ubongo Duel records: the JSON record of a match and its checked replay.

Read and write them with the records API of :mod:`ubongo_cp.games.base`
(:func:`~ubongo_cp.games.base.record_of`, :func:`~ubongo_cp.games.base.save_record`,
:func:`~ubongo_cp.games.base.load_record`); this module registers the
format ``ubongo-cp/duel-record`` version 1 there. A record holds::

    {"format": "ubongo-cp/duel-record", "version": 1,
     "settings": {"side": "A", "skills": [1.0, 1.0], "handicap": false, "orange_fields": [3, 4],
                  "give_up": 300.0, "tie_window": 0.1, "max_rerolls": 1000},
     "model": {"base": 10.0, "scale": 30.0, "sigma": 0.4},   # null: not a SolveTimeModel
     "deck": {"game": "duel", "side": "A", "cards": [...], "ratios": [[...], ...]},
     "start": {"scores": [0, 0], "card_index": 0},
     "moves": [{"n": 1, "player": -1, "action": 7, "text": "roll face 8", "draws": [35.1, 52.0]}, ...],
     "generator": {...}, "players": [...], "result": {"returns": [1.0, 0.0]}}

Each roll that settles a duel stores the solve times it drew (``draws``:
2 values, 3 in a handicap duel, UD-7; ``null`` for never), so the replay
does not depend on how the generator was used; ``generator`` is the
generator's state when the record was written, so a replayed match goes
on exactly as the original.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Sequence

from ...errors import InputError
from ..base import (RecordFormat, floats_from_json, floats_to_json, generator_from_json, generator_to_json,
                    register_record_format, replay_moves)
from ..tasks import SolveTimeModel, TaskDeck
from .state import DuelState

__all__ = ["RECORD_FORMAT", "RECORD_VERSION", "record_of", "replay"]

#: The ``format`` field of a Duel record.
RECORD_FORMAT = "ubongo-cp/duel-record"
#: The ``version`` field written and read.
RECORD_VERSION = 1


def record_of(state: DuelState, players: Sequence[str] | None = None) -> dict[str, Any]:
    """JSON-ready record of the match so far: settings, deck side, start, rolls with their draws, result.

    Examples
    --------
    >>> from ubongo_cp.games.tasks import as_deck, synthetic_tasks
    >>> s = DuelState(as_deck(synthetic_tasks("duel"), "duel"), seed=1)
    >>> s.apply_action(7)
    >>> rec = record_of(s)
    >>> rec["format"], rec["moves"][0]["text"], len(rec["moves"][0]["draws"])
    ('ubongo-cp/duel-record', 'roll face 8', 2)
    """
    replay_state = _new_state(state.deck, _settings(state), state.model, state.start)
    duels = iter(state.history)
    moves = []
    for i, a in enumerate(state.actions, 1):
        move = {"n": i, "player": replay_state.current_player(), "action": a,
                "text": replay_state.action_to_string(a)}
        if _settles(replay_state):
            move["draws"] = floats_to_json(next(duels)["draws"])
            replay_state._forced_draws = floats_from_json(move["draws"], "draws")
        replay_state.apply_action(a)
        moves.append(move)
    rec: dict[str, Any] = {
        "format": RECORD_FORMAT, "version": RECORD_VERSION,
        "settings": _settings(state),
        "model": state.model.to_json() if isinstance(state.model, SolveTimeModel) else None,
        "deck": state.deck.side_to_json(state.side),
        "start": dict(state.start),
        "moves": moves,
        "generator": generator_to_json(state.rng),
    }
    if players is not None:
        rec["players"] = list(players)
    if state.is_terminal():
        rec["result"] = {"returns": state.returns()}
    return rec


def replay(record: dict[str, Any], path: str | os.PathLike | None = None,
           on_move: Callable[[int, DuelState, int], None] | None = None) -> DuelState:
    """Rebuild a match from a record, checking every roll against the rules (UD-1 ... UD-7).

    Called by :func:`ubongo_cp.games.base.replay_record` (which checked the
    format and version); ``on_move(n, state, action)`` runs before move ``n``.

    Raises
    ------
    InputError
        Malformed settings, deck, start or moves, missing draws, or a result
        that differs from the replay (naming ``path`` and the move number).
    IllegalActionError
        A recorded roll the rules forbid (naming the move number and rule).
    """
    try:
        model = record.get("model")
        state = _new_state(TaskDeck.from_side_json(record["deck"], path), dict(record["settings"]),
                           None if model is None else SolveTimeModel(**model), dict(record["start"]))
    except InputError as exc:
        raise InputError(exc.message, path=path) from None
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"malformed record ({type(exc).__name__}: {exc})", path=path) from None

    def before(i: int, s: DuelState, move: dict) -> None:
        if _settles(s):
            draws = floats_from_json(move.get("draws"), f"move {i}: 'draws'", path)
            if len(draws) != (3 if s.handicap_active() else 2):
                raise InputError(f"move {i}: 'draws' needs {3 if s.handicap_active() else 2} solve times "
                                 "(UD-7)", path=path)
            s._forced_draws = draws

    replay_moves(state, record.get("moves"), path=path, on_move=on_move, before=before)
    if "generator" in record:
        generator_from_json(state.rng, record["generator"], path)
    result = record.get("result")
    if result is not None and (not isinstance(result, dict) or result.get("returns") != state.returns()):
        raise InputError(f"result {result!r} does not match the replay (returns {state.returns()})", path=path)
    return state


def _settings(state: DuelState) -> dict:
    return {"side": state.side, "skills": [float(x) for x in state.skills], "handicap": state.handicap,
            "orange_fields": sorted(state.orange_fields), "give_up": state.give_up,
            "tie_window": state.tie_window, "max_rerolls": state.max_rerolls}


def _new_state(deck, settings: dict, model, start: dict) -> DuelState:
    return DuelState(deck, settings["side"], skills=settings["skills"], model=model,
                     handicap=settings["handicap"], orange_fields=settings["orange_fields"],
                     give_up=settings["give_up"], tie_window=settings["tie_window"],
                     max_rerolls=settings["max_rerolls"], scores=start["scores"],
                     card_index=start["card_index"])


def _settles(state: DuelState) -> bool:
    """Does the next roll settle a duel (every roll but a handicap duel's roll 1, UD-7)?"""
    return not state.is_terminal() and not (state.handicap_active() and state.roll1 is None)


register_record_format(RecordFormat(RECORD_FORMAT, RECORD_VERSION, DuelState, record_of, replay))
