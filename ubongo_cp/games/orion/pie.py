"""Orion Duel with the pie (swap) rule: after the first placement the second player may take it over.

A variant, not a rule of RULES.md §4: the usual remedy for a first-player
advantage in connection games (the swap rule of Hex [1]_). After the first
player's first tile, the second player either moves as usual or plays the
extra swap action (:func:`swap_action`, id ``len(placements)``): it takes over the first
player's colour with the tile already placed, and the first player, now
holding the other colour, is to move. The colours' game goes on unchanged
(the :class:`.state.OrionState` or :class:`.bitboard.BitOrionState`
inside); only which seat plays which colour changes. So a first tile too
good gets taken, and the first player is pushed to open with a fair one.

Seats are the players of this state (``current_player``, ``returns``);
colours are the players of the inner game (``inner``). Before a swap seat
``p`` plays colour ``p``, after it colour ``1 - p``.

References
----------
.. [1] C. Browne, "Hex Strategy: Making the Right Connections", A K Peters
   (2000), chapter 1 ("the swap option").
"""

from __future__ import annotations

from dataclasses import replace

from ...errors import InputError
from ..base import TERMINAL, GameState
from .bitboard import BitOrionState
from .state import FACTS, OrionRules

__all__ = ["PIE_FACTS", "PieOrionState", "swap_action"]

#: The variant's facts: one action more than the game (the swap decision).
PIE_FACTS = replace(FACTS, name="orion-pie", max_game_length=FACTS.max_game_length + 1)


def swap_action(state) -> int:
    """The id of the swap action of an Orion state's game: one past its placements."""
    return len(state.game.placements)


class PieOrionState(GameState):
    """Orion Duel with the pie rule (module docstring); wraps a state of either engine.

    Parameters
    ----------
    inner : OrionRules, optional
        The game before its first move (default ``BitOrionState(seed=seed)``).
    seed : int, optional
        Seed of the random layout when ``inner`` is not given.

    Raises
    ------
    InputError
        For an ``inner`` that is no Orion Duel game, or one with moves played: the swap takes over the game's
        first tile.

    Examples
    --------
    >>> s = PieOrionState(seed=3)
    >>> s.apply_action(s.legal_actions()[0])                   # seat 0's first tile
    >>> s.current_player(), s.legal_actions()[-1] == swap_action(s.inner)
    (1, True)
    >>> s.apply_action(swap_action(s.inner))                   # seat 1 takes it over
    >>> s.current_player(), s.colour_of(1), s.inner.current_player()
    (0, 0, 1)
    """

    facts = PIE_FACTS
    num_players = 2

    def __init__(self, inner: OrionRules | None = None, seed: int | None = None) -> None:
        if inner is not None and not isinstance(inner, OrionRules):   # a Domino game was wrapped, a string failed
            raise InputError(f"the pie rule wraps an Orion Duel game (OrionState or BitOrionState), got "
                             f"{type(inner).__name__}")
        if inner is not None and inner._history:   # the swap takes over the first tile: the game's, not a later one
            raise InputError(f"the pie rule wraps a game before its first move; this one has {len(inner._history)} "
                             "move(s)")
        self.inner = inner if inner is not None else BitOrionState(seed=seed)
        self.swapped = False
        self.first = self.inner.current_player()   # the colour that moves first
        self._history: list[int] = []

    @property
    def game(self):
        """The inner game's :class:`.state.OrionGame` (board, tiles, placements)."""
        return self.inner.game

    def colour_of(self, seat: int) -> int:
        """The colour (inner player) ``seat`` plays."""
        return 1 - seat if self.swapped else seat

    def swap_turn(self) -> bool:
        """Is this the second player's first turn, where the swap is legal?"""
        return len(self._history) == 1 and not self.inner.is_terminal()

    def current_player(self) -> int:
        c = self.inner.current_player()
        return TERMINAL if c == TERMINAL else self.colour_of(c)

    def legal_actions(self) -> list[int]:
        """The inner game's legal placements, and :func:`swap_action` in the swap turn."""
        out = self.inner.legal_actions()
        return out + [swap_action(self.inner)] if self.swap_turn() else out

    def _apply_action(self, action: int) -> None:
        if action == swap_action(self.inner) and self.swap_turn():
            self.swapped = True
        elif action == swap_action(self.inner):
            raise self._illegal(action, "the swap is legal only in the second player's first turn")
        else:
            self.inner.apply_action(self._action_in_range(action))   # -1 is refused naming the ids with the swap
        self._history.append(action)

    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        r = self.inner.returns()
        return r[::-1] if self.swapped else r

    def max_game_length(self) -> int:
        """The inner game's bound plus the swap decision."""
        return self.inner.max_game_length() + 1

    def clone(self) -> "PieOrionState":
        new = PieOrionState.__new__(PieOrionState)
        new.__dict__.update(self.__dict__)
        inner = self.inner.clone()
        assert isinstance(inner, OrionRules)
        new.inner = inner
        new._history = list(self._history)
        return new

    action_ids_rule = "OD-2 and the pie rule"

    def num_distinct_actions(self) -> int:
        """The inner game's placements and the swap (:func:`swap_action`, the last id)."""
        return self.inner.num_distinct_actions() + 1

    def action_to_string(self, action: int) -> str:
        return "swap" if action == swap_action(self.inner) else self.inner.action_to_string(action)

    def picture(self):
        """The inner game's position (colours, not seats) as a matplotlib figure (:func:`.render.draw`)."""
        return self.inner.picture()

    def _repr_png_(self) -> bytes:
        return self.inner._repr_png_()

    def _repr_svg_(self) -> str:
        return self.inner._repr_svg_()

    def __str__(self) -> str:
        seats = "seat 0 = colour 1, seat 1 = colour 0 (swapped)" if self.swapped else "seat p = colour p"
        return f"{self.inner}\n{seats}"
