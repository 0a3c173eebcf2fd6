"""Ubongo gem game records: the JSON record of a game and its checked replay.

Read and write them with the records API of :mod:`ubongo_cp.games.base`
(:func:`~ubongo_cp.games.base.record_of`, :func:`~ubongo_cp.games.base.save_record`,
:func:`~ubongo_cp.games.base.load_record`); this module registers the
format ``ubongo-cp/ubongo-record`` version 1 there. A record holds::

    {"format": "ubongo-cp/ubongo-record", "version": 1,
     "settings": {"num_players": 4, "side": "easy", "skills": [...], "timer": 60.0,
                  "move_time": 0.0, "colour_counts": [12, ...]},
     "model": {"base": 10.0, "scale": 30.0, "sigma": 0.4},   # null: not a SolveTimeModel
     "deck": {"game": "classic", "side": "easy", "cards": [...], "ratios": [[...], ...]},
     "start": {"board": [[...] x 12] x 6, "cards": [...], "pawns": null, "gems": null},
     "moves": [{"n": 1, "player": 0, "action": 3, "text": "start on field 3"},
               {"n": 5, "player": -1, "action": 2, "text": "roll face 3", "times": [41.2, null, ...]}],
     "generator": {...}, "players": [...], "result": {"returns": [...]}}

The deck's side is stored as difficulty ratios (``null``: no solution), so
a record replays without the rated deck it came from; ``times`` are the
solve times each die roll drew (UG-4, ``null``: not solved), so the replay
does not depend on how the generator was used, and ``generator`` is the
generator's state when the record was written, so a replayed game goes on
exactly as the original.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Sequence

from ...errors import InputError
from ..base import (RecordFormat, floats_from_json, floats_to_json, generator_from_json, generator_to_json,
                    register_record_format, replay_moves)
from ..tasks import SolveTimeModel, TaskDeck
from .state import UbongoState

__all__ = ["RECORD_FORMAT", "RECORD_VERSION", "record_of", "replay"]

#: The ``format`` field of a gem game record.
RECORD_FORMAT = "ubongo-cp/ubongo-record"
#: The ``version`` field written and read.
RECORD_VERSION = 1


def record_of(state: UbongoState, players: Sequence[str] | None = None) -> dict[str, Any]:
    """JSON-ready record of the game so far: settings, deck side, start, moves with solve times, result.

    Examples
    --------
    >>> from ubongo_cp.games.tasks import as_deck, synthetic_tasks
    >>> s = UbongoState(as_deck(synthetic_tasks("classic"), "classic"), 2, seed=1)
    >>> s.apply_action(4)
    >>> rec = record_of(s)
    >>> rec["format"], rec["moves"], len(rec["start"]["cards"])
    ('ubongo-cp/ubongo-record', [{'n': 1, 'player': 0, 'action': 4, 'text': 'start on field 4'}], 18)
    """
    replay_state = UbongoState(state.deck, state.num_players, state.side, skills=state.skills,
                               model=state.model, timer=state.timer, move_time=state.move_time,
                               colour_counts=state.colour_counts, **state.start)
    rolls = iter(state.history)
    moves = []
    for i, a in enumerate(state.actions, 1):
        move = {"n": i, "player": replay_state.current_player(), "action": a,
                "text": replay_state.action_to_string(a)}
        if replay_state.phase == "roll":
            move["times"] = floats_to_json(next(rolls)["times"])
            replay_state._forced_times = floats_from_json(move["times"], "times")
        replay_state.apply_action(a)
        moves.append(move)
    rec: dict[str, Any] = {
        "format": RECORD_FORMAT, "version": RECORD_VERSION,
        "settings": {"num_players": state.num_players, "side": state.side,
                     "skills": [float(x) for x in state.skills], "timer": state.timer,
                     "move_time": state.move_time, "colour_counts": list(state.colour_counts)},
        "model": state.model.to_json() if isinstance(state.model, SolveTimeModel) else None,
        "deck": state.deck.side_to_json(state.side),
        "start": state.start,
        "moves": moves,
        "generator": generator_to_json(state.rng),
    }
    if players is not None:
        rec["players"] = list(players)
    if state.is_terminal():
        rec["result"] = {"returns": state.returns()}
    return rec


def replay(record: dict[str, Any], path: str | os.PathLike | None = None,
           on_move: Callable[[int, UbongoState, int], None] | None = None) -> UbongoState:
    """Rebuild a game from a record, checking every move against the rules (UG-1 ... UG-10).

    Called by :func:`ubongo_cp.games.base.replay_record` (which checked the
    format and version); ``on_move(n, state, action)`` runs before move ``n``.

    Raises
    ------
    InputError
        Malformed settings, deck, start or moves, a move by the wrong
        player, or a result that differs from the replay (naming ``path``
        and the move number).
    IllegalActionError
        A recorded move the rules forbid (naming the move number and rule).
    """
    try:
        st, start = dict(record["settings"]), dict(record["start"])
        model = record.get("model")
        deck = TaskDeck.from_side_json(record["deck"], path)
        state = UbongoState(deck, st["num_players"], st["side"], skills=st["skills"],
                            model=None if model is None else SolveTimeModel(**model), timer=st["timer"],
                            move_time=st["move_time"], colour_counts=st["colour_counts"],
                            board=start["board"], cards=start["cards"], pawns=start.get("pawns"),
                            gems=start.get("gems"))
    except InputError as exc:
        raise InputError(exc.message, path=path) from None
    except (KeyError, TypeError, ValueError) as exc:
        raise InputError(f"malformed record ({type(exc).__name__}: {exc})", path=path) from None

    def before(i: int, s: UbongoState, move: dict) -> None:
        if s.phase == "roll":
            s._forced_times = floats_from_json(move.get("times"), f"move {i}: 'times'", path)
            if len(s._forced_times) != s.num_players:
                raise InputError(f"move {i}: 'times' needs {s.num_players} solve times", path=path)

    replay_moves(state, record.get("moves"), path=path, on_move=on_move, before=before)
    if "generator" in record:
        generator_from_json(state.rng, record["generator"], path)
    result = record.get("result")
    if result is not None and (not isinstance(result, dict) or result.get("returns") != state.returns()):
        raise InputError(f"result {result!r} does not match the replay (returns {state.returns()})", path=path)
    return state


register_record_format(RecordFormat(RECORD_FORMAT, RECORD_VERSION, UbongoState, record_of, replay))
