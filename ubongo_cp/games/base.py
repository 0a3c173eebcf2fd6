"""The contract every game engine shares: facts, states, action ids, play, records, pictures.

Engines: the Ubongo gem game (:mod:`.ubongo`), Ubongo Duel (:mod:`.duel`),
Domino, nezlob se! (:mod:`~ubongo_cp.games.domino`) and Orion Duel (:mod:`~ubongo_cp.games.orion`). Each is a
package with the same files: ``state.py`` (the rules, a :class:`GameState`
subclass and its :class:`GameFacts`), ``agents.py`` (agents or player
models), ``sim.py`` (the simulation study), ``records.py`` (game records)
and ``render.py`` (pictures).

The state contract follows OpenSpiel's Python games [1]_: a state is mutated
by :meth:`GameState.apply_action` and copied by :meth:`GameState.clone`;
actions are dense integer ids, ``legal_actions()`` returns them sorted;
``returns()`` gives one number per player. Players are ``0 .. n-1``;
:data:`CHANCE` and :data:`TERMINAL` are OpenSpiel's special player ids.
Chance is either explicit (``current_player() == CHANCE``, with
``chance_outcomes()`` and :meth:`GameState.sample_chance`) or sampled inside
a transition from the state's own seeded :class:`numpy.random.Generator`;
either way a game is reproducible from its seed: replayed from the same
seed with the same actions (a chance node draws once from the state's
generator whatever outcome is applied), it passes through the same states
(:meth:`GameState.sample_chance` states the contract).

Game records are JSON objects ``{"format": ..., "version": ..., ...}``; one
API reads and writes them for every game (:func:`record_of`,
:func:`save_record`, :func:`load_record`, :func:`replay_record`); a game
joins it with :func:`register_record_format` in its ``records`` module,
which its package imports.

References
----------
.. [1] M. Lanctot et al., "OpenSpiel: A Framework for Reinforcement Learning
   in Games", arXiv:1908.09453 (2019), and ``open_spiel/python/games``.
"""

from __future__ import annotations

import abc
import copy
import functools
import importlib
import json
import os
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Sequence

import numpy as np

from ..errors import IllegalActionError, InputError, as_written, cut

__all__ = [
    "CHANCE",
    "is_int",
    "malformed",
    "is_number",
    "TERMINAL",
    "GameFacts",
    "game_seeds",
    "GameState",
    "action_id",
    "Agent",
    "RandomAgent",
    "play_game",
    "picture_axes",
    "copy_history",
    "RecordFormat",
    "register_record_format",
    "record_format_of",
    "record_of",
    "save_record",
    "load_record",
    "replay_record",
    "check_result",
    "replay_moves",
    "move_label_problem",
    "generator_to_json",
    "generator_from_json",
    "floats_to_json",
    "floats_from_json",
]

#: Player id of chance nodes (OpenSpiel's ``pyspiel.PlayerId.CHANCE``).
CHANCE = -1
#: Player id reported by terminal states (OpenSpiel's ``PlayerId.TERMINAL``).
TERMINAL = -4
#: Bound on the actions of a game whose engine declares no facts (OpenSpiel
#: engines always declare one; this only guards :func:`play_game`).
_UNDECLARED_LENGTH = 1_000_000


@dataclass(frozen=True)
class GameFacts:
    """What a game declares about itself, as data (OpenSpiel's ``GameType`` and ``GameInfo``).

    Each engine's ``state.py`` defines one at the top, with a comment
    justifying its length bound, and sets it as ``facts`` of its state class.

    Parameters
    ----------
    name : str
        Short name of the game.
    min_players, max_players : int
        Player counts the engine accepts.
    chance_nodes : bool
        The game has explicit chance nodes (``current_player() == CHANCE``).
    sampled_chance : bool
        Some transitions draw chance events inside themselves from the
        state's seeded generator (OpenSpiel's "sampled stochastic").
    returns_sum : tuple of float
        The values ``sum(returns())`` may take at a terminal state.
    max_game_length : int
        Most actions a game with the default settings can take;
        :meth:`GameState.max_game_length` gives the bound of one state's
        settings.
    title : str
        The game's name as messages give it to a user (``"Orion Duel"``);
        default ``name``.
    hidden_information : bool
        A player holds what the others cannot see (a domino hand, DN-1): the
        state gives each player's view (``observation_string(player)``), and
        OpenSpiel registers the game with imperfect information.
    """

    name: str
    min_players: int
    max_players: int
    chance_nodes: bool
    sampled_chance: bool
    returns_sum: tuple[float, ...]
    max_game_length: int
    title: str = ""
    hidden_information: bool = False

    @property
    def display_name(self) -> str:
        """``title``, or ``name`` when the game gives no title."""
        return self.title or self.name


def action_id(action: Any) -> int:
    """``action`` as a Python ``int``, or :class:`IllegalActionError` if it is not an integer id.

    Python and NumPy integers pass; ``bool`` (``True`` is not action 1),
    floats (``2.9`` is not action 2), strings (``'5'``) and ``None`` are
    refused. This is the one place every engine checks the type of an action
    (:meth:`GameState.apply_action` calls it before the rules see the action).

    Raises
    ------
    IllegalActionError
        For anything but an integer.

    Examples
    --------
    >>> action_id(3), action_id(np.int64(4))
    (3, 4)
    >>> action_id(2.9)
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.IllegalActionError: illegal action 2.9: an action is an integer id, not a float
    """
    if type(action) is int:
        return action
    reason = action_type_reason(action)
    if reason is not None:
        raise IllegalActionError(f"illegal action {action!r}: {reason}")
    return int(action)


def action_type_reason(action: Any) -> str | None:
    """Why ``action`` is no action id at all (the reason :func:`action_id`'s error gives), or None for a Python
    or NumPy integer: what an engine's ``why_illegal`` says of a float, a string, ``True`` or ``None``.

    Examples
    --------
    >>> action_type_reason(3) is None, action_type_reason(True), action_type_reason("3")
    (True, 'an action is an integer id, not a bool', 'an action is an integer id, not a str')
    """
    if type(action) is int or isinstance(action, np.integer):
        return None
    return f"an action is an integer id, not a {type(action).__name__}"


class GameState(abc.ABC):
    """Abstract state of a sequential game with optional chance.

    Engines implement :meth:`current_player`, :meth:`legal_actions`,
    :meth:`_apply_action`, :meth:`is_terminal` and :meth:`returns`, and set
    the class attribute ``facts`` (a :class:`GameFacts`). ``clone`` defaults
    to a deep copy (the generator is copied too, so a clone replays the same
    chance events). An engine that overrides :meth:`apply_action` itself gets
    the :func:`action_id` check wrapped around its method, so the check holds
    for every engine.
    """

    #: The game's facts (set by every engine).
    facts: ClassVar[GameFacts | None] = None
    num_players: int
    #: The rules that make the game's action ids, named when an id is none of them (:meth:`_no_such_action`).
    action_ids_rule: ClassVar[str] = ""
    #: What the game has done so far, each engine's own entries (an action id, a round's or a duel's log); the
    #: engine appends to it, callers read :attr:`history` (the games' own readers, records and simulators, read
    #: it here, without the copy: a simulator's copy of each game's logs cost as much as playing it).
    _history: list

    @property
    def history(self) -> list:
        """A copy of what the game has done so far (the lists and dicts inside copied too): changing it leaves
        the state alone, as OpenSpiel's ``State.history()`` returns a new list."""
        return copy_history(self._history)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # an engine's own apply_action and action_to_string take the action as action_id makes it (a non-integer
        # is an IllegalActionError, not an error from deep inside the engine); action_to_string names only the
        # game's ids, and refuses any other as apply_action does (_no_such_action)
        for name, in_range in (("apply_action", False), ("action_to_string", True)):
            own = cls.__dict__.get(name)
            if own is not None and not getattr(own, "_checks_action_id", False):
                @functools.wraps(own)
                def checked(self, action, _own=own, _in_range=in_range):
                    action = action_id(action)
                    return _own(self, self._action_in_range(action) if _in_range else action)

                setattr(checked, "_checks_action_id", True)  # noqa: B010 - a function attribute mypy cannot see
                setattr(cls, name, checked)

    @abc.abstractmethod
    def current_player(self) -> int:
        """Player to act: ``0..n-1``, :data:`CHANCE`, or :data:`TERMINAL`."""

    @abc.abstractmethod
    def legal_actions(self) -> list[int]:
        """Sorted list of the integer ids of the legal actions (empty if terminal)."""

    def apply_action(self, action: int) -> None:
        """Play ``action`` for the current player (or chance).

        Raises
        ------
        IllegalActionError
            If ``action`` is not an integer (:func:`action_id`) or not legal
            here; the message names the action and the rule that forbids it.
        """
        self._apply_action(action if type(action) is int else action_id(action))

    def _apply_action(self, action: int) -> None:
        """Engine part of :meth:`apply_action`: ``action`` is a Python ``int``."""
        raise NotImplementedError(f"{type(self).__name__} implements neither _apply_action nor apply_action")

    @abc.abstractmethod
    def is_terminal(self) -> bool:
        """True when the game is over."""

    @abc.abstractmethod
    def returns(self) -> list[float]:
        """Per-player outcome (1 win, 0 loss, shared values for shared wins)."""

    def num_distinct_actions(self) -> int:
        """How many action ids the game has: every action is one of ``0 .. num_distinct_actions() - 1``
        (OpenSpiel's ``Game.num_distinct_actions``); engines override it."""
        raise NotImplementedError(f"{type(self).__name__} does not say how many action ids it has")

    def action_to_string(self, action: int) -> str:
        """Human-readable name of ``action`` (default: the integer).

        Raises
        ------
        IllegalActionError
            If ``action`` is not an integer (:func:`action_id`) or not one of the game's ids
            (:meth:`num_distinct_actions`): the error :meth:`apply_action` gives for it, in every engine.
        """
        return str(self._action_in_range(action_id(action)))

    def _action_in_range(self, action: int) -> int:
        """``action`` when it is one of the game's ids, else the :class:`IllegalActionError` naming it and the
        ids (:meth:`_no_such_action`)."""
        error = self._no_such_action(action)
        if error is not None:
            raise error
        return action

    def _no_such_action(self, action: int) -> IllegalActionError | None:
        """The error for an integer that is none of the game's ids (``0 .. num_distinct_actions() - 1``), or
        None: one message for such an id in :meth:`action_to_string` and :meth:`apply_action` of every engine."""
        reason = self._no_such_action_reason(action)
        return None if reason is None else IllegalActionError(f"illegal action {as_written(action)}: {reason}")

    def _no_such_action_reason(self, action: int) -> str | None:
        """Why an integer is none of the game's ids ("no such action, the ids are 0..N", with the rule that
        numbers them), or None for one of them: the reason of :meth:`_no_such_action`, also an engine's own
        reasons' (a ``why_illegal``)."""
        count = self.num_distinct_actions()
        if 0 <= action < count:
            return None
        rule = f" ({self.action_ids_rule})" if self.action_ids_rule else ""
        return f"no such action, the ids are 0..{count - 1}{rule}"

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(action, probability)`` pairs at a chance node (probabilities sum to 1)."""
        return []

    def sample_chance(self, rng: np.random.Generator | None = None) -> int:
        """Draw a chance action at a chance node, from ``rng`` (default: the state's own outcome, or a fresh
        generator for a state that has none).

        A state that carries its own generator (:meth:`_chance_stream`) makes one draw from it at each chance
        node, in :meth:`apply_action`, whatever outcome is applied; ``sample_chance()`` returns the outcome
        that draw gives and leaves the state as it was (asked twice, it says the same). So a game is one
        function of how it was made (its seed) and its actions: replayed from the same seed with its actions
        given to :meth:`apply_action` alone, or with the same ``sample_chance`` calls, it passes
        through the same states, chance drawn inside transitions (solve times) included; a clone draws as the
        original does, from its own copy of the generator.

        Raises
        ------
        IllegalActionError
            Where chance is not to act (a player's turn, or the game is over): no chance action is legal
            there, as OpenSpiel refuses ``chance_outcomes()`` at a state that is no chance node.
        """
        player = self.current_player()
        if player != CHANCE:
            raise IllegalActionError("sample_chance: this state is no chance node ("
                                     + ("the game is over" if player == TERMINAL else f"player {player} is to act")
                                     + "): no chance action is legal here")
        stream = self._chance_stream()
        if stream is not None:
            own, count = stream
            if rng is not None:
                return int(rng.integers(count))
            saved = own.bit_generator.state
            try:
                return int(own.integers(count))
            finally:
                own.bit_generator.state = saved
        outcomes = self.chance_outcomes()
        probs = np.array([p for _, p in outcomes], dtype=float)
        rng = rng if rng is not None else np.random.default_rng()
        return int(outcomes[rng.choice(len(outcomes), p=probs / probs.sum())][0])

    def _chance_stream(self) -> tuple[np.random.Generator, int] | None:
        """The state's own generator and the number of equally likely outcomes of its chance nodes, each drawn
        by one ``integers(count)`` call (:meth:`sample_chance`); None (the default) for a state without one."""
        return None

    def _draw_chance(self) -> None:
        """Make the one draw of a chance node from the state's own generator (:meth:`sample_chance`): engines
        call it when a chance action is applied, whether ``sample_chance`` chose it or not."""
        if self._chance_drawn:
            return
        stream = self._chance_stream()
        if stream is not None:
            stream[0].integers(stream[1])

    #: True while :meth:`_apply_own_chance` applies the outcome it drew (the draw is made).
    _chance_drawn: bool = False

    def _apply_own_chance(self) -> None:
        """At a chance node, apply the outcome ``sample_chance()`` gives, drawing it once (:func:`play_game`:
        the generator goes where ``apply_action(sample_chance())`` takes it, without putting it back)."""
        stream = self._chance_stream()
        if stream is None:
            self.apply_action(self.sample_chance())
            return
        self._chance_drawn = True
        try:
            self.apply_action(int(stream[0].integers(stream[1])))
        finally:
            del self._chance_drawn   # back to the class's False: nothing of it stays in the state

    def max_game_length(self) -> int:
        """Most actions a game from the initial state of these settings can take.

        Default: ``facts.max_game_length``; engines whose bound depends on
        their settings override it.
        """
        facts = type(self).facts
        return _UNDECLARED_LENGTH if facts is None else facts.max_game_length

    def clone(self) -> "GameState":
        """An independent deep copy of this state."""
        return copy.deepcopy(self)

    def __deepcopy__(self, memo: dict) -> "GameState":
        """``copy.deepcopy`` is :meth:`clone` where an engine overrides it (static tables stay shared).

        Frameworks copy states with :func:`copy.deepcopy` (OpenSpiel clones
        Python states so); an engine's ``clone`` copies only what changes.
        """
        if type(self).clone is not GameState.clone:
            return self.clone()
        new = type(self).__new__(type(self))
        memo[id(self)] = new
        for key, value in self.__dict__.items():
            setattr(new, key, copy.deepcopy(value, memo))
        return new

    def picture(self):
        """A :class:`matplotlib.figure.Figure` of the state, or None (default: no picture)."""
        return None

    def _repr_png_(self) -> bytes | None:
        """PNG of :meth:`picture`, which Jupyter shows for a state left at the end of a cell."""
        fig = self.picture()
        if fig is None:
            return None
        import io

        buf = io.BytesIO()
        fig.savefig(buf, format="png")
        return buf.getvalue()

    def _illegal(self, action: int, why: str) -> IllegalActionError:
        """Build the error raised for an illegal ``action`` (helper for engines); the action and its text are
        cut as every message cuts a value (a record's action may be 10**400). An id the game does not have
        gets the error :meth:`action_to_string` gives for it (:meth:`_no_such_action`), whatever ``why``."""
        return self._no_such_action(action) or IllegalActionError(
            f"illegal action {as_written(action)} ({cut(self.action_to_string(action))}): {why}")


def read_only(array: np.ndarray) -> np.ndarray:
    """``array``, made read-only: a state's fixed arrays (skills, token masks) are shared by its clones
    (:meth:`GameState.clone`), so none may change one clone's in place and with it the others'."""
    array.setflags(write=False)
    return array


def copy_history(history: list) -> list:
    """A copy of a state's history for :meth:`GameState.clone`: its lists, dicts and tuples copied all the way
    down (the entries hold lists: solve times, draws, the moves of a round), the rest (numbers, strings) shared.

    Examples
    --------
    >>> h = [{"times": [40.0, 31.5], "moves": [(0, 3, [2, 5])]}]
    >>> c = copy_history(h)
    >>> c[0]["times"][0] = -1.0; c[0]["moves"][0][2].append(1)
    >>> h
    [{'times': [40.0, 31.5], 'moves': [(0, 3, [2, 5])]}]
    """
    def copied(v):
        if isinstance(v, list):
            return [copied(x) for x in v]
        if isinstance(v, dict):
            return {k: copied(x) for k, x in v.items()}
        if isinstance(v, tuple):
            return tuple(copied(x) for x in v)
        return v

    return copied(history)


def picture_axes(width: float, height: float, dpi: int = 80):
    """A blank figure for a state picture: ``(figure, axes)``, equal aspect, no axis lines.

    Uses :class:`matplotlib.figure.Figure` directly (no pyplot, no global
    backend), imported here so that the engines load without matplotlib.

    Parameters
    ----------
    width, height : float
        Figure size in inches.
    dpi : int
        Resolution of the PNG Jupyter shows (dots per inch).
    """
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=dpi)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_aspect("equal")
    ax.set_axis_off()
    return fig, ax


Agent = Callable[[GameState], int]
"""An agent maps a state (its player to act) to one of ``state.legal_actions()``."""


class RandomAgent:
    """Uniformly random legal action, from its own seeded generator."""

    def __init__(self, seed: int | np.random.Generator | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, state: GameState) -> int:
        actions = state.legal_actions()
        return actions[int(self.rng.integers(len(actions)))]


def game_seeds(seed, start: int, stop: int) -> list[np.random.SeedSequence]:
    """The seeds of games ``start .. stop - 1`` of a run seeded ``seed``: game ``g`` gets child ``g`` of
    ``numpy.random.SeedSequence(seed)``, the same as ``SeedSequence(seed).spawn(stop)[g]``, made for these games
    alone (a run's chunk, in the worker that plays it) rather than for every game of the run up front.

    >>> [s.generate_state(1)[0] for s in game_seeds(7, 2, 4)] == [
    ...     s.generate_state(1)[0] for s in np.random.SeedSequence(7).spawn(4)[2:]]
    True
    """
    return [np.random.SeedSequence(seed, spawn_key=(g,)) for g in range(start, stop)]


def play_game(state: GameState, agents: Sequence[Agent], rng: np.random.Generator | None = None,
              max_steps: int | None = None) -> GameState:
    """Play ``state`` to the end with one agent per seat: the one game loop of every engine.

    Parameters
    ----------
    state : GameState
        Start state; it is mutated and returned.
    agents : sequence of Agent
        ``agents[p]`` chooses for player ``p`` (may be empty for a game of
        chance nodes only, such as Ubongo Duel).
    rng : numpy.random.Generator, optional
        Passed to :meth:`GameState.sample_chance` at chance nodes (default:
        the state's own outcome, drawn once from its generator where it has
        one).
    max_steps : int, optional
        Bound on the number of actions (default
        :meth:`GameState.max_game_length`).

    Returns
    -------
    GameState
        ``state``, now terminal.

    Raises
    ------
    InputError
        If ``agents`` is not empty but has fewer than one per player, before
        any action; if it is empty and a player is to act, before that action.
    RuntimeError
        If the game is not over after ``max_steps`` actions (an engine whose
        declared bound is wrong).
    """
    seats = len(agents)
    if 0 < seats < state.num_players:   # a seat without an agent
        raise InputError(f"play_game: {seats} agent(s) for the {state.num_players} players of "
                         f"{_game_title(type(state))} (one per player, or none for a game of chance nodes only)")
    limit = state.max_game_length() if max_steps is None else max_steps
    steps = 0
    player = state.current_player()
    while player != TERMINAL:  # the contract: current_player() is TERMINAL exactly when is_terminal()
        if steps >= limit:
            raise RuntimeError(f"game not over after {limit} actions")
        if player != CHANCE:
            if not seats:
                raise InputError(f"play_game: no agents, but player {player} of {_game_title(type(state))} is to act "
                                 "(give one agent per player)")
            state.apply_action(agents[player](state))
        elif rng is None:
            state._apply_own_chance()
        else:
            state.apply_action(state.sample_chance(rng))
        steps += 1
        player = state.current_player()
    return state


# ---------------------------------------------------------------------------
# Game records


@dataclass(frozen=True)
class RecordFormat:
    """How one game writes and replays its JSON records.

    Parameters
    ----------
    name : str
        The record's ``"format"`` value, e.g. ``"ubongo-cp/domino-record"``.
    version : int
        The record's ``"version"`` value this code writes and reads.
    state_type : type
        The engine's :class:`GameState` subclass.
    write : callable
        ``write(state, players)`` -> the record (a JSON-ready dict holding
        ``format`` and ``version``); ``players`` are optional labels, one per
        seat.
    read : callable
        ``read(record, path, on_move)`` -> the final state, replayed move by
        move through the rules (``path`` names the file in errors,
        ``on_move(n, state, action)`` is called before move ``n``, from 1, is
        applied). Raises :class:`~ubongo_cp.errors.InputError` for a
        malformed record or a stored result that differs from the replay's
        (:func:`check_result`), and an error naming the move number and the
        rule for an illegal move.
    older : tuple of int
        Earlier versions ``read`` still accepts.
    writers : tuple of type
        Other state classes whose games ``write`` records in this format
        (another engine of the game, a variant wrapping it); ``read``
        replays through ``state_type``'s rules.
    """

    name: str
    version: int
    state_type: type
    write: Callable[..., dict]
    read: Callable[..., GameState]
    older: tuple[int, ...] = ()
    writers: tuple[type, ...] = ()


_FORMATS: dict[str, RecordFormat] = {}
#: Packages that register record formats, imported when a record names a
#: format not registered yet.
_RECORD_PACKAGES = ("ubongo_cp.games.ubongo", "ubongo_cp.games.duel", "ubongo_cp.games.domino",
                    "ubongo_cp.games.orion")


def register_record_format(fmt: RecordFormat) -> None:
    """Make :func:`record_of`, :func:`save_record` and :func:`load_record` know a game's records."""
    _FORMATS[fmt.name] = fmt


def record_format_of(state_type: type) -> RecordFormat | None:
    """The record format registered for ``state_type`` (or a base class of it), or None."""
    for fmt in _FORMATS.values():
        if issubclass(state_type, (fmt.state_type, *fmt.writers)):
            return fmt
    return None


def record_of(state: GameState, players: Sequence[str] | None = None) -> dict:
    """The JSON-ready record of the game that led to ``state``.

    Parameters
    ----------
    state : GameState
        Any state of a game that keeps records (a terminal one gets a
        ``result``).
    players : sequence of str, optional
        Labels of who played each seat (agent names), one per seat.

    Raises
    ------
    TypeError
        If ``state`` is of no registered game.
    InputError
        If ``players`` is not one text label per seat (a reader refuses
        such a record; a string would be split into its letters).
    """
    fmt = record_format_of(type(state))
    if fmt is None:
        for package in _RECORD_PACKAGES:
            importlib.import_module(package)
        fmt = record_format_of(type(state))
    if fmt is None:
        raise TypeError(f"{type(state).__name__} keeps no game records")
    if players is not None:
        seats = state.num_players
        labels = [] if isinstance(players, (str, bytes)) or not hasattr(players, "__iter__") else list(players)
        if len(labels) != seats or not all(isinstance(p, str) for p in labels):
            raise InputError(f"players must be {seats} labels (text), one per seat, got {players!r}")
        players = labels
    return fmt.write(state, players)


def save_record(state: GameState, path: str | os.PathLike, players: Sequence[str] | None = None) -> None:
    """Write :func:`record_of` ``(state, players)`` to ``path`` as indented JSON (atomically).

    An existing file at ``path`` is replaced only when it is a record of the same game the toolkit wrote.

    Raises
    ------
    InputError
        When ``path`` holds any other file, or cannot be written (:func:`~ubongo_cp.io.check_output_file`);
        as :func:`record_of`.
    """
    from ..io import atomic_write_text, check_output_file

    record = record_of(state, players)
    check_output_file(path, ".json", record["format"])
    atomic_write_text(path, json.dumps(record, indent=1) + "\n")


def load_record(path: str | os.PathLike, *, game: type | None = None,
                on_move: Callable[[int, GameState, int], None] | None = None) -> GameState:
    """Read a JSON game record and replay it through the rules; returns the final state.

    Parameters
    ----------
    path : str or os.PathLike
        The JSON file.
    game : type, optional
        The state class the record must be of (default: any registered
        game, found from the record's ``format``).
    on_move : callable, optional
        ``on_move(n, state, action)``, called before move ``n`` (from 1) is
        applied.

    Raises
    ------
    InputError
        If the file is missing, not UTF-8, not a JSON object, of an unknown
        format or version, of another game than ``game``, or malformed (the
        message names the file, and the move number where there is one).
    IllegalActionError
        For a recorded move the rules forbid (naming the file, the move
        number and the rule).
    """
    from ..io import read_json_object

    return replay_record(read_json_object(path), path=path, game=game, on_move=on_move)


def replay_record(record: dict, *, path: str | os.PathLike | None = None, game: type | None = None,
                  on_move: Callable[[int, GameState, int], None] | None = None) -> GameState:
    """Replay a record dict (see :func:`load_record`); ``path`` names the file in errors."""
    if not isinstance(record, dict):
        raise InputError("a game record must be a JSON object", path=path)
    name = record.get("format")
    fmt = _FORMATS.get(name) if isinstance(name, str) else None
    if fmt is None:
        for package in _RECORD_PACKAGES:
            importlib.import_module(package)
        fmt = _FORMATS.get(name) if isinstance(name, str) else None
    if fmt is None:
        raise InputError(f"not a game record this version reads: format {name!r} "
                         f"(known: {', '.join(sorted(_FORMATS))})", path=path)
    if game is not None and not issubclass(fmt.state_type, game):
        found, wanted = _game_title(fmt.state_type), _game_title(game)
        raise InputError(f"{_article(found)} {found} record (format {fmt.name!r}) is not {_article(wanted)} {wanted} "
                         "record", path=path)
    version = record.get("version")
    if isinstance(version, bool) or version not in (fmt.version, *fmt.older):
        expected = " or ".join(str(v) for v in sorted((fmt.version, *fmt.older)))
        raise InputError(f"{fmt.name} record version {version!r} is not supported "
                         f"(expected {expected})", path=path)
    return fmt.read(record, path, on_move)


def check_result(stored: Any, replayed: dict | None, path: str | os.PathLike | None = None) -> None:
    """Refuse a record's ``stored`` result unless each of its fields equals the replay's.

    Every game's record reader calls it last. ``replayed`` is the result
    the replay gives, as the record's writer stores it (None: the replayed
    game is not over). A field the record leaves out is not checked (older records
    store fewer); a field the game does not record is refused.

    Raises
    ------
    InputError
        Naming ``path`` and the first field that differs, with both values
        as JSON writes them.

    Examples
    --------
    >>> check_result({"winner": 0, "moves": 3}, {"winner": 0, "rule": "OD-5", "moves": 15}, "g.json")
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: g.json: result field 'moves' is 3 in the record, but the replay gives 15
    """
    if stored is None:
        return
    if not isinstance(stored, dict):
        raise InputError(f"'result' must be an object, got {json.dumps(stored)[:40]}", path=path)
    if replayed is None:
        raise InputError("the record stores a result, but its moves do not end the game", path=path)
    for key, value in stored.items():
        if key not in replayed:
            raise InputError(f"result field {key!r} is not one this game records ({', '.join(replayed)})",
                             path=path)
        if not _same_json(value, replayed[key]):
            raise InputError(f"result field {key!r} is {json.dumps(value)[:60]} in the record, but the replay "
                             f"gives {json.dumps(replayed[key])}", path=path)


def _same_json(a: Any, b: Any) -> bool:
    """Equal as JSON values: ``true`` is not ``1``, ``1`` is ``1.0``, lists element by element."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(map(_same_json, a, b))
    return bool(a == b)


def _game_title(state_type: type) -> str:
    """The display name of a game's state class (:attr:`GameFacts.title`), else its class name."""
    facts = getattr(state_type, "facts", None)
    return facts.display_name if isinstance(facts, GameFacts) else state_type.__name__


def _article(word: str) -> str:
    """``"an"`` before a vowel, else ``"a"``: "an Orion Duel record", "a Domino record"."""
    return "an" if word[:1].upper() in "AEIOU" else "a"


def replay_moves(state: GameState, moves, *, path=None, on_move=None, before=None, after=None) -> GameState:
    """Apply a record's moves ``[{"action": int, "player": ..., "text": ...}, ...]`` through the rules.

    The move loop of records that store actions: each move must be an
    object with an integer ``action``; optional ``n`` (its number, from 1),
    ``player`` (who acts, :data:`CHANCE` for a chance node) and ``text``
    (:meth:`GameState.action_to_string`) are checked against the state.
    ``before(n, state, move)`` runs first (a game restores what its
    transition drew, e.g. solve times), then ``on_move(n, state, action)``;
    ``after(n, state, move)`` runs once the move is applied (a game checks
    what its transition drew against the record).

    Raises
    ------
    InputError
        For a malformed move, a move after the end, a wrong number, player
        or text (naming the move number and ``path``).
    IllegalActionError
        For a move the rules forbid (naming ``path``, the move number and
        the rule).
    """
    if not isinstance(moves, list):
        raise InputError("'moves' must be a list", path=path)
    where = "record" if path is None else os.fspath(path)
    for i, move in enumerate(moves, 1):
        a = move.get("action") if isinstance(move, dict) else None
        if type(a) is not int:
            raise InputError(f"move {i}: needs an integer 'action'", path=path)
        if state.is_terminal():
            raise InputError(f"move {i}: the game is already over", path=path)
        try:
            text = state.action_to_string(a)   # an id the game does not have is refused here, as apply_action would
        except IllegalActionError as exc:
            raise IllegalActionError(f"{where}: move {i}: {exc}") from None
        problem = move_label_problem(i, move, state.current_player(), text)
        if problem:
            raise InputError(problem, path=path)
        if before is not None:
            before(i, state, move)
        if on_move is not None:
            on_move(i, state, a)
        try:
            state.apply_action(a)
        except IllegalActionError as exc:
            raise IllegalActionError(f"{where}: move {i}: {exc}") from None
        if after is not None:
            after(i, state, move)
    return state


def move_label_problem(i: int, move: dict, player: int, text: str | None) -> str | None:
    """What is wrong with the labels of a record's move ``i`` (from 1), or None.

    The optional ``n`` must be ``i``, ``player`` the player to act (``player``), both whole numbers (JSON's
    ``true`` is no move number, nor player 1); ``text`` the name of the move's action (not checked when
    ``text`` is None: an action id the game does not know).
    """
    if "n" in move and not (is_int(move["n"]) and move["n"] == i):
        return f"move {i}: numbered {as_written(move['n'])}"
    if "player" in move and not (is_int(move["player"]) and move["player"] == player):
        return f"move {i}: recorded for player {as_written(move['player'])} but player {player} is to act"
    if "text" in move and text is not None and move["text"] != text:
        return (f"move {i}: text {as_written(move['text'])} does not match action {as_written(move['action'])} "
                f"({as_written(text)})")
    return None


def generator_to_json(rng: np.random.Generator) -> dict:
    """The state of ``rng``'s bit generator (JSON-ready: a record continues exactly where it stopped)."""
    return dict(rng.bit_generator.state)


def generator_from_json(rng: np.random.Generator, state, path=None) -> None:
    """Restore :func:`generator_to_json`'s ``state`` into ``rng``; InputError naming ``path`` if malformed."""
    try:
        rng.bit_generator.state = state
    except (TypeError, ValueError, KeyError, OverflowError) as exc:
        raise InputError(f"'generator': not a state of the {type(rng.bit_generator).__name__} "
                         f"generator ({exc})", path=path) from None


def floats_to_json(values) -> list:
    """Floats for JSON: ``inf`` (a task never solved) becomes ``null``."""
    return [None if v == float("inf") else float(v) for v in values]


def is_int(value) -> bool:
    """A whole number (numpy integers too), not a bool (JSON's ``true`` is Python's ``True``, an ``int``)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def is_number(value) -> bool:
    """A real number (numpy's too) that a float holds, not a bool: a whole number beyond a float's range
    (``10**400``, which a JSON record may hold) is none, as ``float()`` of it fails.

    Examples
    --------
    >>> is_number(3), is_number(2.5), is_number(np.int64(7)), is_number(True), is_number(10**400)
    (True, True, True, False, False)
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        return False
    try:
        float(value)
    except OverflowError:
        return False
    return True


def floats_from_json(values, what: str, path=None) -> list[float]:
    """The inverse of :func:`floats_to_json`; InputError naming ``what`` and ``path`` if malformed."""
    if not isinstance(values, list) or not all(v is None or is_number(v) for v in values):
        raise InputError(f"{what} must be a list of numbers (null for never), got {as_written(values)}", path=path)
    return [float("inf") if v is None else float(v) for v in values]


#: JSON's names of the kinds of value, by the Python type a record's value is read as.
_JSON_KINDS = {"list": "a list", "dict": "an object", "str": "text", "int": "a number", "float": "a number",
               "bool": "true or false", "NoneType": "null"}


def malformed(exc: Exception) -> str:
    """What a record's reader met, in the record's own terms (JSON's): a field missing (a KeyError), a value of
    another kind than the field holds (Python's ``'list' object has no attribute 'get'``), a number out of range
    (an OverflowError: ``10**400`` where a float belongs, ``Infinity`` where a whole number does); else the
    message."""
    import re

    if isinstance(exc, KeyError) and exc.args:
        return f"the field {exc.args[0]!r} is missing"
    if isinstance(exc, OverflowError):  # float() of an int beyond a float's range, int() of an infinity
        return "a number out of range: too large or infinite"
    if isinstance(exc, (TypeError, AttributeError)):
        found = re.search(r"'(\w+)' object", str(exc))
        kind = _JSON_KINDS.get(found.group(1)) if found else None
        return f"a field holds {kind} where another kind of value belongs" if kind else \
            "a field holds another kind of value than it should"
    return str(exc)
