"""The four games registered with OpenSpiel, so that its algorithms run on them unchanged.

Optional: needs the ``open-spiel`` package (``pip install 'ubongo-cp[openspiel]'``).
:func:`register` adds, once, these games to ``pyspiel``'s registry [1]_, each
with its ``GameType`` and ``GameInfo`` taken from the engine's
:class:`~ubongo_cp.games.base.GameFacts`:

* ``ubongo_cp_orion_duel``: :class:`.orion.bitboard.BitOrionState`;
  parameters ``layout_seed`` (0), ``tiles`` ("published"), ``pie``
  (False: the swap rule, :mod:`.orion.pie`);
* ``ubongo_cp_gem_game``: :class:`.ubongo.state.UbongoState`; ``players``
  (2), ``side`` ("easy"), ``seed`` (0), ``deck`` ("": the shipped deck);
* ``ubongo_cp_duel``: :class:`.duel.state.DuelState`; ``side`` ("A"),
  ``handicap`` (False), ``orange_fields`` ("3,4": the orange fields of the
  handicap board, UD-7, scores separated by commas; "" for none),
  ``seed`` (0), ``deck`` ("": the shipped deck);
* ``ubongo_cp_domino``: :class:`.domino.state.DominoState`; ``players``
  (4), ``seed`` (0).

Then ``pyspiel.load_game("ubongo_cp_orion_duel", {"layout_seed": 7})``
works like any OpenSpiel game: ``random_sim_test``,
``open_spiel.python.algorithms.mcts`` and ``evaluate_bots`` run on it.

Game facts in OpenSpiel's terms: sequential, terminal rewards, perfect
information (the gem game and the Duel hide nothing: every player sees the
board, and the solve times are chance), Orion Duel deterministic after its
layout (a parameter), the others *sampled stochastic*: their transitions
draw from the state's own seeded generator (solve times, the stock depth of
a domino swap), which a clone copies. Orion Duel and both Ubongo games are
constant-sum (1 in all: a win, shared wins, an OD-7 draw 0.5 : 0.5), the
domino game general-sum (no winner after the round limit). An OpenSpiel
state wraps an engine state (``state.engine``); the engine's own ``clone``
copies it (:meth:`~ubongo_cp.games.base.GameState.__deepcopy__`). Games and
states pickle (for a process pool), as OpenSpiel's own Python games do: a
game by its name and parameters, a state by its game and history.

References
----------
.. [1] M. Lanctot et al., "OpenSpiel: A Framework for Reinforcement Learning
   in Games", arXiv:1908.09453 (2019); ``open_spiel/python/games`` (Python
   games registered with ``pyspiel.register_game``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..errors import InputError, as_written, seed_argument

__all__ = ["GAMES", "register", "load_game", "engine_state", "wrap_state"]

#: Short names of the registered games.
GAMES = ("ubongo_cp_orion_duel", "ubongo_cp_gem_game", "ubongo_cp_duel", "ubongo_cp_domino")


def _pyspiel():
    try:
        import pyspiel
    except ImportError:
        raise InputError("OpenSpiel is not installed: pip install 'ubongo-cp[openspiel]'") from None
    return pyspiel


def load_game(name: str, params: dict | None = None):
    """:func:`register`, then ``pyspiel.load_game(name, params)``.

    Raises
    ------
    InputError
        If OpenSpiel is not installed, or ``name`` is not one of :data:`GAMES`.
    """
    if name not in GAMES:
        raise InputError(f"unknown game {name!r} (known: {', '.join(GAMES)})")
    register()
    return _pyspiel().load_game(name, params or {})


def wrap_state(game, engine):
    """An OpenSpiel state of ``game`` (a registered game) at the engine state ``engine`` (not copied).

    For bots that search from a position reached outside OpenSpiel (its
    OpenSpiel history is empty; the engine holds the position).
    """
    register()
    state = _STATE[0](game, engine)
    state.wrapped = True   # pickled with its engine: no history leads to it
    return state


def _unpickle_state(name: str, params: dict, history: list, engine=None):
    """A pickled OpenSpiel state of these games: the game's initial state with ``history`` replayed, or
    ``engine`` wrapped (:func:`wrap_state`). A replay draws what the original drew: the transitions draw
    from the engine's generator, which the game's initial state seeds alike."""
    game = load_game(name, params)
    if engine is not None:
        return wrap_state(game, engine)
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def engine_state(state):
    """The engine state (:class:`~ubongo_cp.games.base.GameState`) inside an OpenSpiel state of these games."""
    return state.engine


_STATE: list = []
#: Orion games made outside OpenSpiel (a tile-set file, a variant board or rules), by the key a bot passes as
#: the ``variant`` parameter (:func:`orion_variant`).
_ORION_VARIANTS: dict[str, Any] = {}


def orion_variant(game) -> str:
    """The ``variant`` parameter of ``ubongo_cp_orion_duel`` that stands for ``game`` (an
    :class:`~ubongo_cp.games.orion.OrionGame`: its board, tile set and setup rules), for a bot searching a
    position of that game in this process (a tile set read from a file has no name OpenSpiel could load)."""
    key = f"{game.tiles.name}@{id(game):x}"
    _ORION_VARIANTS[key] = game
    return key


@lru_cache(maxsize=1)
def register() -> None:
    """Register the four games with ``pyspiel`` (once; later calls do nothing).

    Raises
    ------
    InputError
        If OpenSpiel is not installed.
    """
    import numpy as np

    pyspiel: Any = _pyspiel()

    class State(pyspiel.State):
        """An OpenSpiel state around an engine state (``engine``)."""

        def __init__(self, game, engine) -> None:
            super().__init__(game)
            self.engine = engine
            self.wrapped = False

        def __reduce__(self):
            # Pickle by game and history, as OpenSpiel's own Python games do; its default (the game and
            # the state serialised) needs the generator state a Python game cannot give ("GetRNGState
            # unimplemented"), and the class, made here, is no module attribute.
            game = self.get_game()
            return (_unpickle_state, (game.get_type().short_name, game.get_parameters(), self.history(),
                                      self.engine.clone() if self.wrapped else None))

        def current_player(self):
            return self.engine.current_player()

        def _legal_actions(self, player):
            return self.engine.legal_actions() if player == self.engine.current_player() else []

        def chance_outcomes(self):
            return self.engine.chance_outcomes()

        def _apply_action(self, action):
            self.engine.apply_action(action)

        def _action_to_string(self, player, action):
            return self.engine.action_to_string(action)

        def is_terminal(self):
            return self.engine.is_terminal()

        def returns(self):
            return self.engine.returns()

        def __str__(self):
            return str(self.engine)

    _STATE.append(State)

    class Observer:
        """OpenSpiel's observer: a player's view as a string (no tensor): in a game with hidden information the
        engine's own view of each player (its hand, the sizes of the others'), in the others the whole position,
        which every player sees."""

        def __init__(self) -> None:
            self.tensor = np.zeros(0, np.float32)
            self.dict: dict = {}

        def set_from(self, state, player) -> None:
            pass

        def string_from(self, state, player) -> str:
            engine = state.engine
            return engine.observation_string(player) if hasattr(engine, "observation_string") else str(engine)

    def game_class(short: str, long: str, facts, constant_sum: bool, spec: dict, make, outcomes):
        """Register one game: ``make(params)`` -> a fresh engine state."""
        sample = make(spec)
        players = sample.num_players
        gtype = pyspiel.GameType(
            short_name=short, long_name=long, dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=(pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC if facts.sampled_chance
                         else pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC if facts.chance_nodes
                         else pyspiel.GameType.ChanceMode.DETERMINISTIC),
            information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if facts.hidden_information
                         else pyspiel.GameType.Information.PERFECT_INFORMATION),
            utility=(pyspiel.GameType.Utility.CONSTANT_SUM if constant_sum
                     else pyspiel.GameType.Utility.GENERAL_SUM),
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=facts.max_players, min_num_players=facts.min_players,
            provides_information_state_string=False, provides_information_state_tensor=False,
            provides_observation_string=facts.hidden_information, provides_observation_tensor=False,
            parameter_specification=spec)

        class Game(pyspiel.Game):
            def __init__(self, params=None) -> None:
                params = {**spec, **(params or {})}
                first = make(params)
                info = pyspiel.GameInfo(
                    num_distinct_actions=first.num_distinct_actions(), max_chance_outcomes=outcomes,
                    num_players=first.num_players, min_utility=0.0, max_utility=1.0,
                    utility_sum=1.0 if constant_sum else None, max_game_length=first.max_game_length())
                super().__init__(gtype, info, params)
                self._first = first

            def new_initial_state(self):
                return State(self, self._first.clone())

            def __reduce__(self):
                return (load_game, (short, self.get_parameters()))

            def make_py_observer(self, iig_obs_type=None, params=None):
                """A player's view of a state (``observation_string``, :class:`Observer`). An information state
                (perfect recall: the view with the player's past, ``information_state_string``) is not given, as
                the game type says: the view alone would make positions of different pasts one information state."""
                if iig_obs_type is not None and iig_obs_type.perfect_recall:
                    raise InputError(f"{long} gives each player's observation (observation_string), not an "
                                     "information state with the player's past (information_state_string)")
                return Observer()

        Game.__name__ = Game.__qualname__ = f"{long.title().replace(' ', '')}Game"
        del sample, players
        pyspiel.register_game(gtype, Game)

    from .domino.state import FACTS as DOMINO, DominoSettings, new_game
    from .duel.state import DEFAULT_ORANGE_FIELDS, FACTS as DUEL, NUM_FACES as DUEL_FACES, DuelState
    from .orion import OrionGame, load_tiles
    from .orion.bitboard import BitOrionState
    from .orion.pie import PieOrionState
    from .orion.state import FACTS as ORION
    from .tasks import as_deck, default_tasks_path
    from .ubongo.state import FACTS as UBONGO, NUM_FACES as UBONGO_FACES, UbongoState

    def deck(path: str, game: str):
        return as_deck(path or default_tasks_path(game), game)

    def orion(p):
        variant = _ORION_VARIANTS.get(p["variant"]) if p["variant"] else None
        if p["variant"] and variant is None:
            raise InputError(f"unknown Orion variant {p['variant']!r} (made by orion_variant in this process)")
        game = variant if variant is not None else OrionGame.get(tiles=load_tiles(p["tiles"]))
        s = BitOrionState(game=game, seed=seed_argument("layout_seed", p["layout_seed"]))   # named as given
        return PieOrionState(s) if p["pie"] else s

    game_class("ubongo_cp_orion_duel", "Orion Duel", ORION, True,
               {"layout_seed": 0, "tiles": "published", "pie": False, "variant": ""}, orion, 0)
    game_class("ubongo_cp_gem_game", "Ubongo gem game", UBONGO, True,
               {"players": 2, "side": "easy", "seed": 0, "deck": ""},
               lambda p: UbongoState(deck(p["deck"], "classic"), p["players"], p["side"], seed=p["seed"]),
               UBONGO_FACES)
    game_class("ubongo_cp_duel", "Ubongo Duel", DUEL, True,
               {"side": "A", "handicap": False, "orange_fields": ",".join(map(str, DEFAULT_ORANGE_FIELDS)), "seed": 0,
                "deck": ""},
               lambda p: DuelState(deck(p["deck"], "duel"), p["side"], handicap=p["handicap"],
                                   orange_fields=_orange_fields(p["orange_fields"]), seed=p["seed"]),
               DUEL_FACES)
    game_class("ubongo_cp_domino", "Domino nezlob se", DOMINO, False, {"players": 4, "seed": 0},
               lambda p: new_game(DominoSettings(num_players=p["players"]), seed=p["seed"]), 0)


def _orange_fields(text: str) -> tuple[int, ...]:
    """The ``orange_fields`` parameter of ``ubongo_cp_duel`` (OpenSpiel's parameters hold no lists): scores
    separated by commas, ``"3,4"``, or ``""`` for none; :class:`~.duel.state.DuelState` checks the scores (UD-7).

    Examples
    --------
    >>> _orange_fields("3,4"), _orange_fields(" 1, 2 "), _orange_fields("")
    ((3, 4), (1, 2), ())
    """
    import re

    parts = [part.strip() for part in text.split(",")] if text.strip() else []
    if not all(re.fullmatch(r"[0-9]{1,9}", part) for part in parts):
        raise InputError(f"orange_fields {as_written(text)} must be scores separated by commas, e.g. '3,4' (UD-7)")
    return tuple(int(part) for part in parts)
