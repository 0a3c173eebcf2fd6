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

from ..base import RecordFormat, register_record_format
from ..tasks import timed_record, timed_replay
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
    return timed_record(RECORD_FORMAT, RECORD_VERSION, state, _build(state.deck, _settings(state), state.model,
                                                                     state.start),
                        _settings(state), "times", (h["times"] for h in state._history),
                        lambda s: s.phase == "roll", players)


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
        and the move number, or the result's field).
    IllegalActionError
        A recorded move the rules forbid (naming the move number and rule).
    """
    return timed_replay(record, path, on_move, _build, "times", lambda s: s.phase == "roll",
                        lambda s: s.num_players)


def _settings(state: UbongoState) -> dict:
    return {"num_players": state.num_players, "side": state.side, "skills": [float(x) for x in state.skills],
            "timer": state.timer, "move_time": state.move_time, "colour_counts": list(state.colour_counts)}


def _build(deck, st: dict, model, start: dict) -> UbongoState:
    return UbongoState(deck, st["num_players"], st["side"], skills=st["skills"], model=model, timer=st["timer"],
                       move_time=st["move_time"], colour_counts=st["colour_counts"], board=start["board"],
                       cards=start["cards"], pawns=start.get("pawns"), gems=start.get("gems"))


register_record_format(RecordFormat(RECORD_FORMAT, RECORD_VERSION, UbongoState, record_of, replay))
