"""The game-state contract shared by every engine (Ubongo, Duel, Orion Duel, domino).

The contract follows OpenSpiel's Python games [1]_: a state is mutated by
``apply_action`` and copied by ``clone``; actions are dense integer ids,
``legal_actions()`` returns them sorted; ``returns()`` gives one number per
player. Chance (die rolls, shuffles, solve times) is drawn from the state's
seeded :class:`numpy.random.Generator`, so a game is reproducible from its
seed. Engines that model chance as an explicit player report
``current_player() == CHANCE`` and list ``chance_outcomes()``.

Conventions: players are ``0 .. num_players-1``; :data:`CHANCE` and
:data:`TERMINAL` are the special player ids used by OpenSpiel.

References
----------
.. [1] M. Lanctot et al., "OpenSpiel: A Framework for Reinforcement Learning
   in Games", arXiv:1908.09453 (2019), and ``open_spiel/python/games``.
"""

from __future__ import annotations

import abc
import copy
from typing import Callable, Sequence

import numpy as np

from ..errors import IllegalActionError

__all__ = ["CHANCE", "TERMINAL", "GameState", "Agent", "RandomAgent", "play_game"]

#: Player id of chance nodes (OpenSpiel's ``pyspiel.PlayerId.CHANCE``).
CHANCE = -1
#: Player id reported by terminal states (OpenSpiel's ``PlayerId.TERMINAL``).
TERMINAL = -4


class GameState(abc.ABC):
    """Abstract state of a sequential game with optional chance nodes.

    Subclasses must implement the abstract methods; ``clone`` defaults to a
    deep copy (the generator is copied too, so a clone replays the same
    chance events).
    """

    num_players: int

    @abc.abstractmethod
    def current_player(self) -> int:
        """Player to act: ``0..n-1``, :data:`CHANCE`, or :data:`TERMINAL`."""

    @abc.abstractmethod
    def legal_actions(self) -> list[int]:
        """Sorted list of the integer ids of the legal actions (empty if terminal)."""

    @abc.abstractmethod
    def apply_action(self, action: int) -> None:
        """Play ``action`` for the current player.

        Raises
        ------
        IllegalActionError
            If ``action`` is not legal here; the message names the action and
            the rule that forbids it.
        """

    @abc.abstractmethod
    def is_terminal(self) -> bool:
        """True when the game is over."""

    @abc.abstractmethod
    def returns(self) -> list[float]:
        """Per-player outcome (1 win, 0 loss, shared values for shared wins)."""

    def action_to_string(self, action: int) -> str:
        """Human-readable name of ``action`` (default: the integer)."""
        return str(action)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(action, probability)`` pairs at a chance node (probabilities sum to 1)."""
        return []

    def clone(self) -> "GameState":
        """An independent deep copy of this state."""
        return copy.deepcopy(self)

    def _illegal(self, action: int, why: str) -> IllegalActionError:
        """Build the error raised for an illegal ``action`` (helper for engines)."""
        return IllegalActionError(f"illegal action {action} ({self.action_to_string(action)}): {why}")


Agent = Callable[[GameState], int]
"""An agent maps a state (its player to act) to one of ``state.legal_actions()``."""


class RandomAgent:
    """Uniformly random legal action, from its own seeded generator."""

    def __init__(self, seed: int | np.random.Generator | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, state: GameState) -> int:
        actions = state.legal_actions()
        return actions[int(self.rng.integers(len(actions)))]


def play_game(state: GameState, agents: Sequence[Agent],
              rng: np.random.Generator | None = None, max_steps: int = 1_000_000) -> GameState:
    """Play ``state`` to the end with one agent per seat; chance sampled from ``rng``.

    Parameters
    ----------
    state : GameState
        Start state; it is mutated and returned.
    agents : sequence of Agent
        ``agents[p]`` chooses for player ``p``.
    rng : numpy.random.Generator, optional
        Samples explicit chance nodes (default: a fresh unseeded generator).
    max_steps : int
        Safety bound on the number of actions.

    Raises
    ------
    RuntimeError
        If the game is not over after ``max_steps`` actions.
    """
    rng = rng or np.random.default_rng()
    for _ in range(max_steps):
        if state.is_terminal():
            return state
        player = state.current_player()
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            probs = np.array([p for _, p in outcomes], dtype=float)
            state.apply_action(int(actions[rng.choice(len(actions), p=probs / probs.sum())]))
        else:
            state.apply_action(agents[player](state))
    raise RuntimeError(f"game not over after {max_steps} actions")
