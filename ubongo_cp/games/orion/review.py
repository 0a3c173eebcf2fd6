"""Review a played Orion Duel game: the exact analysis of every position, and where safety changed.

For each reviewed position (before move 1, after every ``every``-th move,
and the final one): both players' distances to W1 and W2
(:func:`.distance.connect_distance`), their W1 blocking sets
(:func:`.blocking.min_blocking_set`) and W1 safety
(:func:`.safety.is_safe_connection`). A position *changes* a player's
safety when the answer differs from the previous reviewed position's
(answers still open at the time limit change nothing).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .blocking import min_blocking_set
from .safety import is_safe_connection
from .distance import connect_distance
from .state import OrionState

__all__ = ["PositionReview", "review_game"]


@dataclass
class PositionReview:
    """The analysis of one position of a game.

    Attributes
    ----------
    move : int
        Moves played before the position (0: the start).
    state : OrionState
        The position (a copy).
    distance : dict
        ``(player, goal) -> ConnectResult`` for goal ``"sides"`` and ``"galaxies"``.
    blocking : list of BlockResult
        Per player, the W1 blocking set.
    safety : list of SafetyResult
        Per player, W1 safety (status ``"over"`` once the game is over).
    changed : list of bool
        Per player: did W1 safety change since the previous reviewed position?
    """

    move: int
    state: OrionState
    distance: dict = field(default_factory=dict)
    blocking: list = field(default_factory=list)
    safety: list = field(default_factory=list)
    changed: list = field(default_factory=lambda: [False, False])


def review_game(final: OrionState, *, every: int = 1, time_limit: float = 2.0,
                goals=("sides", "galaxies"), progress=None) -> list[PositionReview]:
    """Replay ``final``'s game from its setup and analyse the positions.

    Parameters
    ----------
    final : OrionState
        A game (its history is replayed from ``final.setup``).
    every : int
        Review every ``every``-th position (the last one always).
    time_limit : float
        Seconds per question.
    goals : sequence of str
        Goals of the distance columns.
    progress : callable, optional
        Called with each review as it is done.

    Returns
    -------
    list of PositionReview

    Raises
    ------
    InputError
        For a ``final`` that is no Orion position (a
        :class:`.bitboard.BitOrionState` is replayed as its reference
        state), ``every`` not a whole number of at least 1, ``goals`` given
        as one string, or a bad ``time_limit`` or goal
        (:func:`.distance.connect_distance`).
    """
    from ...errors import names_argument, whole_argument
    from .plans import analysed_state

    final = analysed_state(final, "final")
    every = whole_argument("every", every, 1)
    goals = names_argument("goals", goals, "('sides', 'galaxies')")   # 'sides' alone was read letter by letter
    state = OrionState(final.setup, final.game)
    out: list[PositionReview] = []
    last_safe: list[bool | None] = [None, None]
    n = len(final._history)
    for k in range(n + 1):
        if k % every == 0 or k == n:
            rev = PositionReview(k, state.clone())
            for p in (0, 1):
                for goal in goals:
                    rev.distance[(p, goal)] = connect_distance(state, p, goal, time_limit=time_limit)
            rev.blocking = [min_blocking_set(state, p, time_limit=time_limit) for p in (0, 1)]
            rev.safety = [is_safe_connection(state, p, time_limit=time_limit) for p in (0, 1)]
            for p in (0, 1):
                now = rev.safety[p].safe
                if now is not None and rev.safety[p].status != "over":
                    rev.changed[p] = last_safe[p] is not None and now != last_safe[p]
                    last_safe[p] = now
            out.append(rev)
            if progress is not None:
                progress(rev)
        if k < n:
            state.apply_action(final._history[k])
    return out

