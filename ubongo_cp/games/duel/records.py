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

from ..base import RecordFormat, register_record_format
from ..tasks import timed_record, timed_replay
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
    return timed_record(RECORD_FORMAT, RECORD_VERSION, state, _new_state(state.deck, _settings(state), state.model,
                                                                         state.start),
                        _settings(state), "draws", (h["draws"] for h in state._history), _settles, players)


def replay(record: dict[str, Any], path: str | os.PathLike | None = None,
           on_move: Callable[[int, DuelState, int], None] | None = None) -> DuelState:
    """Rebuild a match from a record, checking every roll against the rules (UD-1 ... UD-7).

    Called by :func:`ubongo_cp.games.base.replay_record` (which checked the
    format and version); ``on_move(n, state, action)`` runs before move ``n``.

    Raises
    ------
    InputError
        Malformed settings, deck, start or moves, missing draws, or a result
        that differs from the replay (naming ``path`` and the move number,
        or the result's field).
    IllegalActionError
        A recorded roll the rules forbid (naming the move number and rule).
    """
    return timed_replay(record, path, on_move, _new_state, "draws", _settles,
                        lambda s: 3 if s.handicap_active() else 2)


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
