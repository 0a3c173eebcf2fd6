"""Orion Duel game state: moves (OD-2/OD-3), end of game (OD-5/6/7).

Rules are those of RULES.md section 4 (seed 002); the setup (OD-1) is in
:mod:`.setup`, the win conditions (OD-4) in :mod:`.wins`. Glossary and
conventions:

* hexes are axial ``(q, r)`` (:mod:`.hexgrid`); the engine works on hex
  *indices* ``0 .. n-1`` of :class:`.board.Board` (sorted by ``(r, q)``);
* player ``p`` (0 or 1) owns colour ``p``; a tile hex marked ``OWN`` gets
  the placer's colour, a hex marked ``OPP`` the opponent's colour;
* a *placement* is (tile, fixed orientation, anchor hex) lying inside the
  board; the action id is the placement's index in
  ``OrionGame.placements`` (dense ints, the same table for both
  players, ids of one tile contiguous);
* OD-3 reads "one of your already lying hexes" as any earlier hex of the
  colour in question, whoever placed it (RULES.md decision): a hex of
  colour c that the opponent put down as its tile's opponent hex counts.

Game facts (:data:`FACTS`, OpenSpiel style): 2 players, no chance after
setup, deterministic, at most ``2 * len(tiles)`` moves (every move places
one of the mover's unused tiles, OD-2). Returns are 1 for a win, 0 for a
loss and 0.5 each for a draw (OD-7).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Iterable, Mapping

import numpy as np

from ...errors import IllegalActionError, InputError, seat_argument
from ..base import TERMINAL, GameFacts, GameState, action_id, action_type_reason, is_int, read_only
from .board import Board, default_board
from .graphs import tile_group
from .hexgrid import Hex
from .setup import Setup, SetupRules, random_setup, validate_setup
from .tiles import OWN, TileSet, default_tiles
from .wins import WinWitness, evaluate_wins, win_conditions

__all__ = ["FACTS", "Placement", "OrionGame", "OrionRules", "OrionState"]

#: The game's facts. Length bound with the default tiles: every move places
#: one of the mover's unused tiles (OD-2), 14 per player, so at most 28
#: moves; other tile sets: :meth:`OrionState.max_game_length`. No chance
#: after the setup (OD-1 is the state's constructor); a win 1 : 0 or an
#: OD-7 draw 0.5 : 0.5, so returns sum to 1.
FACTS = GameFacts(name="orion", min_players=2, max_players=2, chance_nodes=False, sampled_chance=False,
                  returns_sum=(1.0,), max_game_length=28, title="Orion Duel")


# ---------------------------------------------------------------------------
# Placements and the game (static data shared by every state)


@dataclass(frozen=True)
class Placement:
    """A tile in a fixed orientation at an anchor: the action of OD-2.

    ``cells`` are hex indices, ``own`` marks which of them take the
    placer's colour; ``rotation``/``flip``/``anchor`` are the canonical
    transform of the tile's base cells (see :func:`.hexgrid.transform`).
    """

    id: int
    tile: int
    rotation: int
    flip: bool
    anchor: Hex
    cells: tuple[int, ...]
    own: tuple[bool, ...]

    def colours(self, player: int) -> list[int]:
        """The colour each hex of ``cells`` takes when ``player`` places the tile.

        Own hexes get ``player``'s colour, the others the opponent's (the
        one place this rule of the tiles is written).
        """
        return [player if o else 1 - player for o in self.own]


class OrionGame:
    """Static data of one Orion Duel variant: board, tile set, OD-1 rules, placement table.

    Build with :meth:`get` (cached per board, tile set and rules).

    Attributes
    ----------
    placements : list of Placement
        Every placement of every tile inside the board (action ids).
    pl_cells : numpy.ndarray, shape (P, M), int
        Hex indices per placement, padded with the sentinel ``n`` (the
        number of hexes) up to ``M``, the largest tile size.
    pl_own : numpy.ndarray, shape (P, M), bool
        True where the placement puts the placer's colour.
    pl_tile : numpy.ndarray, shape (P,), int
        Tile index per placement.
    """

    def __init__(self, board: Board, tiles: TileSet, rules: SetupRules | None = None) -> None:
        _check_parts(board, tiles, rules)
        self.board = board
        self.tiles = tiles
        self.rules = rules or SetupRules()
        self.n = board.num_hexes
        idx = board.index
        pls: list[Placement] = []
        self.lookup: dict[tuple[int, frozenset], int] = {}
        self.tile_range: list[tuple[int, int]] = []
        for ti, tile in enumerate(tiles.tiles):
            start = len(pls)
            for ori in tile.orientations(tiles.flips):
                for anchor in board.hexes:
                    cells = [(h[0] + anchor[0], h[1] + anchor[1]) for h, _ in ori.cells]
                    if not all(c in idx for c in cells):
                        continue
                    ci = tuple(idx[c] for c in cells)
                    own = tuple(c == OWN for _, c in ori.cells)
                    key = (ti, frozenset(zip(ci, own)))
                    if key in self.lookup:
                        continue
                    self.lookup[key] = len(pls)
                    pls.append(Placement(len(pls), ti, ori.rotation, ori.flip, anchor, ci, own))
            self.tile_range.append((start, len(pls)))
        if not pls:  # no first move for anyone: not a game
            raise InputError(f"tile set {tiles.name}: no tile fits anywhere on the board "
                             f"({board.num_hexes} hexes), so no move can ever be made")
        self.placements = pls
        m = max(t.size for t in tiles.tiles)
        self.pl_cells = np.full((len(pls), m), self.n, dtype=np.int64)
        self.pl_own = np.zeros((len(pls), m), dtype=bool)
        for p in pls:
            self.pl_cells[p.id, :len(p.cells)] = p.cells
            self.pl_own[p.id, :len(p.own)] = p.own
        self.pl_tile = np.array([p.tile for p in pls], dtype=np.int64)
        self.adjacency = board.adjacency
        self.side_pairs = [(board.side_index[a], board.side_index[b]) for a, b in board.pairs]

    @staticmethod
    def get(board: Board | None = None, tiles: TileSet | None = None,
            rules: SetupRules | None = None) -> "OrionGame":
        """The (cached) game for ``board``, ``tiles`` and ``rules`` (defaults: RULES.md §4).

        Raises
        ------
        InputError
            For a part of another type, e.g. a tile set's name where a :class:`.tiles.TileSet` belongs
            (``load_tiles("seed")`` makes it).
        """
        _check_parts(board, tiles, rules)   # before the cache, which cannot hash a dict
        return _cached_game(board, tiles, rules)

    @cached_property
    def covering(self) -> tuple[tuple[tuple[int, bool], ...], ...]:
        """Per hex index, the ``(placement id, is_own)`` pairs of the placements covering it."""
        out: list[list[tuple[int, bool]]] = [[] for _ in range(self.n)]
        for p in self.placements:
            for c, o in zip(p.cells, p.own):
                out[c].append((p.id, o))
        return tuple(tuple(x) for x in out)

    @cached_property
    def neighbour_table(self) -> np.ndarray:
        """Neighbour indices per hex, shape (n + 1, 6), padded with the sentinel ``n``."""
        tab = np.full((self.n + 1, 6), self.n, dtype=np.int64)
        for h, ns in enumerate(self.adjacency):
            tab[h, :len(ns)] = ns
        return tab

    def paint(self, colour: np.ndarray, actions: Iterable[int], player: int) -> np.ndarray:
        """Lay the placements ``actions`` of ``player`` on ``colour`` (in place; no rule checked).

        Parameters
        ----------
        colour : numpy.ndarray, shape (n + 1,), int
            Colour per hex index (-1 free), as ``OrionState.colour``.
        actions : iterable of int
            Placement ids.
        player : int
            The placer (0 or 1).

        Returns
        -------
        numpy.ndarray
            ``colour`` itself.
        """
        for a in actions:
            pl = self.placements[a]
            for c, k in zip(pl.cells, pl.colours(player)):
                colour[c] = k   # a plain loop: 3 scalar writes beat numpy's fancy indexing
        return colour

    def placement_id(self, tile: int, cells_own: Iterable[tuple[int, bool]]) -> int | None:
        """Action id of ``tile`` covering the given ``(hex index, is_own)`` cells, or None."""
        return self.lookup.get((tile, frozenset(cells_own)))

    def max_moves(self) -> int:
        """Upper bound on game length: every move uses one of 2 x (tiles per player)."""
        return 2 * len(self.tiles.tiles)


@lru_cache(maxsize=16)
def _cached_game(board: Board | None, tiles: TileSet | None, rules: SetupRules | None) -> OrionGame:
    """:meth:`OrionGame.get` once its parts are checked."""
    return OrionGame(board or default_board(), tiles or default_tiles(), rules)


def _check_parts(board, tiles, rules) -> None:
    """An :class:`InputError` for a part of a game that is not of its type (None: the default part)."""
    for name, value, kind, example in (("board", board, Board, "default_board()"),
                                       ("tiles", tiles, TileSet, "load_tiles('seed')"),
                                       ("rules", rules, SetupRules, "SetupRules.literal()")):
        if value is not None and not isinstance(value, kind):
            raise InputError(f"{name} must be a {kind.__name__} (e.g. {example}) or None for the default, got "
                             f"{type(value).__name__}")


# ---------------------------------------------------------------------------
# The state


class OrionRules(GameState):
    """What both Orion engines share: facts, setup, the end of a move (OD-5, OD-7, OD-6), returns.

    :class:`OrionState` (the reference) and
    :class:`.bitboard.BitOrionState` (bitmasks) implement ``_put`` (lay the
    tile, update the conditions, OD-5), ``_has_legal`` and the rest of the
    state contract on their own data.
    """

    facts = FACTS
    num_players = 2
    game: "OrionGame"
    setup: Setup
    used: np.ndarray
    player: int
    winner: int | None
    end_rule: str | None
    _history: list[int]

    def scores(self) -> tuple[int, int]:
        """OD-7 score per player (engines implement it)."""
        raise NotImplementedError

    def _has_legal(self, player: int) -> bool:
        """Does ``player`` have a legal placement now (OD-6; engines implement it)?"""
        raise NotImplementedError

    def _start(self, setup: Setup | None, game: "OrionGame | None", seed: int | None) -> None:
        """Set ``game`` and ``setup`` (a random layout from ``seed`` when None), validated by OD-1."""
        self.game = game or OrionGame.get()
        if setup is None:
            setup = random_setup(seed, self.game.board, rules=self.game.rules)
        validate_setup(setup, self.game.board, self.game.rules)
        self.setup = setup

    def _end_move(self, p: int) -> None:
        """After player ``p``'s tile: OD-5 already applied by ``_put``; then the other player's turn (:meth:`_turn`)."""
        if self.winner is None:
            self._turn(1 - p)

    def _turn(self, q: int) -> None:
        """The turn of player ``q`` begins, the game not over by OD-5: OD-7 when every tile is placed; else the player
        to move is ``q``, or the other player when ``q`` has placed every tile of its own (only with unequal tile
        sets); a mover who cannot place any remaining tile loses (OD-6)."""
        if self.used.all():  # OD-7: every tile placed, counts equal
            s0, s1 = self.scores()
            self.winner = 0 if s0 > s1 else 1 if s1 > s0 else -1
            self.end_rule = "OD-7"
            return
        if self.used[q].all():
            q = 1 - q
        self.player = q
        if not self._has_legal(q):
            self.winner, self.end_rule = 1 - q, "OD-6"  # OD-6: the mover cannot place a tile

    def why_illegal(self, action: int) -> str | None:
        """Why the player to move may not play ``action`` (the reason :meth:`apply_action`'s error gives), or
        None when it is legal; the same in both engines (the reference's reasons, OD-2 and OD-3).

        Examples
        --------
        >>> s = OrionState(seed=3)
        >>> s.why_illegal(s.legal_actions()[0]) is None, s.why_illegal(2.5), s.why_illegal(-1)
        (True, 'an action is an integer id, not a float', 'no such action, the ids are 0..6354 (OD-2)')
        """
        if self.winner is not None:
            return self._over()
        wrong_type = action_type_reason(action)
        if wrong_type is not None:
            return wrong_type
        action = int(action)
        return self._no_such_action_reason(action) or self._violation(self.player, action)

    def remaining_tiles(self, player: int) -> list[int]:
        """Indices of the tiles ``player`` has not placed yet.

        Raises
        ------
        InputError
            If ``player`` is not 0 or 1.
        """
        used = self.used[seat_argument("player", player, 2)]
        return [i for i in range(self.used.shape[1]) if not used[i]]

    def _violation(self, p: int, action: int) -> str | None:
        """The rule placement ``action`` (one of the game's ids) of player ``p`` breaks now (OD-2, OD-3), or None
        (engines implement it)."""
        raise NotImplementedError

    def _reference(self) -> "OrionState":
        """This position in the reference engine, which the pictures draw (the state itself for an OrionState)."""
        raise NotImplementedError

    def picture(self):
        """The position as a matplotlib :class:`~matplotlib.figure.Figure` (:func:`.render.draw`)."""
        from .render import draw
        return draw(self._reference())

    def _repr_png_(self) -> bytes:
        """The position as a PNG picture (Jupyter); see :func:`.render.picture`."""
        from .render import picture
        return picture(self._reference(), "png")

    def _repr_svg_(self) -> str:
        """The position as an SVG picture (Jupyter); see :func:`.render.picture`."""
        from .render import picture
        return picture(self._reference(), "svg").decode()

    def _over(self) -> str:
        """Why no move is legal in a finished game: it is over, by the rule that ended it (OD-5, OD-6, OD-7)."""
        return f"the game is over ({self.end_rule})"

    def _player_of(self, player) -> int:
        """``player`` as 0 or 1, ``None`` as the player to move.

        Raises
        ------
        IllegalActionError
            For anything but 0 or 1 (a bool, a float, the chance or terminal id).
        """
        if player is None:
            return self.player
        if isinstance(player, (bool, np.bool_)) or not isinstance(player, (int, np.integer)) or player not in (0, 1):
            raise IllegalActionError(f"player must be 0 or 1, got {player!r}")
        return int(player)

    def current_player(self) -> int:
        return TERMINAL if self.winner is not None else self.player

    def is_terminal(self) -> bool:
        return self.winner is not None

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]
        if self.winner < 0:
            return [0.5, 0.5]
        return [1.0 if p == self.winner else 0.0 for p in (0, 1)]

    def __repr__(self) -> str:
        """The position in a line: tiles placed (the move number, also for a position set up by ``from_board``),
        the player to move or how the game ended, and the OD-7 scores.

        Examples
        --------
        >>> OrionState(seed=3)
        OrionState(tiles placed=0, to move=player 0, scores=(0, 0))
        """
        if self.winner is None:
            where = f"to move=player {self.player}"
        else:
            where = f"over: {'draw' if self.winner < 0 else f'player {self.winner} won'} ({self.end_rule})"
        return f"{type(self).__name__}(tiles placed={int(self.used.sum())}, {where}, scores={self.scores()})"

    def max_game_length(self) -> int:
        """Moves a game of these tiles can take at most: every tile once (:data:`FACTS`)."""
        return self.game.max_moves()

    action_ids_rule = "OD-2"

    def num_distinct_actions(self) -> int:
        """One id per placement of a tile (OD-2)."""
        return len(self.game.placements)

    def action_to_string(self, action: int) -> str:
        """``"I3a r2 f @(q,r)"``: tile, rotation, flip mark, anchor hex."""
        pl = self.game.placements[action]
        name = self.game.tiles.tiles[pl.tile].name
        return f"{name} r{pl.rotation}{' f' if pl.flip else ''} @({pl.anchor[0]},{pl.anchor[1]})"


class OrionState(OrionRules):
    """An Orion Duel position after setup (OpenSpiel-style state).

    Parameters
    ----------
    setup : Setup, optional
        Token layout and first player; default a random valid layout from
        ``seed`` (:func:`.setup.random_setup`). Validated by OD-1 against
        the game's :class:`.setup.SetupRules` (token counts and spacings).
    game : OrionGame, optional
        Board, tiles and OD-1 rules (default the RULES.md §4 game).
    seed : int, optional
        Seed of the random layout when ``setup`` is not given.

    Raises
    ------
    InputError
        If ``setup`` is not a :class:`~.setup.Setup` or breaks OD-1.

    Examples
    --------
    >>> s = OrionState(random_setup(3))
    >>> s.current_player() == s.setup.first_player, len(s.legal_actions()) > 1000
    (True, True)
    """

    def __init__(self, setup: Setup | None = None, game: OrionGame | None = None,
                 seed: int | None = None) -> None:
        self._start(setup, game, seed)
        setup = self.setup
        board = self.game.board
        n = self.game.n
        idx = board.index
        self.galaxy = np.zeros(n + 1, dtype=bool)
        self.hole = np.zeros(n + 1, dtype=bool)
        self.galaxy[[idx[(h[0], h[1])] for h in setup.galaxies]] = True
        self.hole[[idx[(h[0], h[1])] for h in setup.black_holes]] = True
        self.token = self.galaxy | self.hole
        self.pl_token = np.asarray(self.token[self.game.pl_cells].any(axis=1))
        for fixed in (self.galaxy, self.hole, self.token, self.pl_token):  # shared by the clones
            read_only(fixed)
        self.colour = np.full(n + 1, -1, dtype=np.int64)
        self.used = np.zeros((2, len(self.game.tiles.tiles)), dtype=bool)
        self.player = setup.first_player
        self._history: list[int] = []
        self.winner: int | None = None      # 0, 1, or -1 for a draw
        self.end_rule: str | None = None    # "OD-5", "OD-6" or "OD-7"
        self._conds: tuple[frozenset, frozenset] = (frozenset(), frozenset())
        self._wins: list[list[WinWitness]] | None = [[], []]
        self._legal: dict[int, list[int]] = {}

    @classmethod
    def from_board(cls, setup: Setup, colours: Mapping[Hex, int], used=((), ()),
                   to_move: int = 0, game: OrionGame | None = None) -> "OrionState":
        """A position given by its colours (analysis and tests; not checked to be reachable in play).

        Parameters
        ----------
        setup : Setup
            Token layout (validated by OD-1).
        colours : mapping (q, r) -> 0 or 1
            The coloured hexes.
        used : pair of iterables of str
            Names of the tiles each player has placed.
        to_move : int
            The player to move.
        game : OrionGame, optional

        Raises
        ------
        InputError
            For a key that is no hex (q, r) or a hex off the board, a colour other than 0/1, an unknown tile
            name or a bad player.

        Notes
        -----
        The position is judged as at the start of a turn after a real move:
        the win conditions are evaluated, and if one player fulfils more,
        the game is over (OD-5); a game with every tile placed is over
        (OD-7); a player to move who has placed every tile of its own
        passes the move to the other; and a player to move who cannot
        place any remaining tile loses (OD-6).
        """
        s = cls(setup, game)
        idx = s.game.board.index
        if not is_int(to_move) or to_move not in (0, 1):   # numpy integers too (a position built with numpy)
            raise InputError(f"player to move must be 0 or 1, got {to_move!r}")
        to_move = int(to_move)
        for h, c in colours.items():
            if not isinstance(h, (tuple, list, np.ndarray)):   # tuple() of a number is a TypeError
                raise InputError(f"hex {h!r} is not a cell (q, r) of the board")
            if tuple(h) not in idx:
                raise InputError(f"hex {tuple(h)} is off the board")
            if not is_int(c) or c not in (0, 1):
                raise InputError(f"hex {tuple(h)}: colour must be 0 or 1, got {c!r}")
            s.colour[idx[(h[0], h[1])]] = c
        for p in (0, 1):
            for name in used[p]:
                if name not in s.game.tiles.names:
                    raise InputError(f"unknown tile {name!r} (tile set '{s.game.tiles.name}')")
                s.used[p, s.game.tiles.names[name]] = True
        s.player = to_move
        s._after_colours()
        if s.winner is None:   # the game may be over already (OD-7, OD-6), or the turn the other player's
            s._turn(to_move)
        return s

    # -- contract ---------------------------------------------------------

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted ids of the legal placements of ``player`` (default: the one to move).

        OD-2: an unused tile of the player, inside the board, on free hexes;
        OD-3: a placement covering a token must join same-coloured hexes
        placed earlier. Empty when the game is over.
        """
        p = self._player_of(player)
        if self.winner is not None:
            return []
        if p not in self._legal:
            self._legal[p] = self._compute_legal(p)
        return list(self._legal[p])

    def _apply_action(self, action: int) -> None:
        """Play placement ``action`` for the player to move (OD-2, OD-3), then OD-5, OD-7, OD-6.

        :meth:`apply_action` (the shared one of :class:`..base.GameState`)
        refuses anything but an integer id first (:func:`..base.action_id`).

        Raises
        ------
        IllegalActionError
            If ``action`` breaks a rule (the message names it).
        """
        if self.winner is not None:
            raise self._illegal(action, self._over())
        why = self._violation(self.player, action)
        if why:
            raise self._illegal(action, why)
        p = self.player
        self._put(p, action)
        self._end_move(p)

    def _has_legal(self, player: int) -> bool:
        """Does ``player`` have a legal placement now (OD-6)?"""
        return bool(self.legal_actions(player))

    def place(self, action: int, player: int) -> None:
        """Analysis move: ``player`` places ``action`` while the other player passes.

        Not a move of the game (OD-2 has no pass): the "opponent passes"
        of the analysis questions (RULES.md §4). Same legality as
        :meth:`apply_action` (OD-2, OD-3) and the same immediate end
        (OD-5); the turn stays with ``player``; OD-6 and OD-7 are not
        looked at (the passing player is never asked to move).

        Raises
        ------
        IllegalActionError
            As :meth:`apply_action`, and for a ``player`` that is not 0 or 1.
        """
        action = action_id(action)
        if player is None:
            raise IllegalActionError("place needs the player who places the tile: 0 or 1")
        player = self._player_of(player)
        if self.winner is not None:
            raise self._illegal(action, self._over())
        why = self._violation(player, action)
        if why:
            raise self._illegal(action, why)
        self._put(player, action)
        self.player = player

    def clone(self) -> "OrionState":
        new = OrionState.__new__(OrionState)
        new.__dict__.update(self.__dict__)
        new.colour = self.colour.copy()
        new.used = self.used.copy()
        new._history = list(self._history)
        new._legal = dict(self._legal)
        new._wins = None if self._wins is None else [list(w) for w in self._wins]  # witnesses are frozen
        return new

    def __str__(self) -> str:
        from .render import ascii_board
        return ascii_board(self)

    def _reference(self) -> "OrionState":
        return self

    # -- rules helpers ----------------------------------------------------

    def scores(self) -> tuple[int, int]:
        """OD-7 score per player: galaxies under its colour minus black holes under it."""
        c = self.colour[:-1]
        g, h = self.galaxy[:-1], self.hole[:-1]
        mine, theirs = (int((g & (c == p)).sum() - (h & (c == p)).sum()) for p in (0, 1))
        return mine, theirs

    def hex_colour(self, h: Hex) -> int:
        """Colour on hex ``h`` (-1 when free).

        Raises
        ------
        InputError
            If ``h`` is not a cell ``(q, r)`` of the board.
        """
        try:
            i = self.game.board.index.get((h[0], h[1])) if len(h) == 2 else None
        except (TypeError, IndexError, KeyError):   # no pair of coordinates
            i = None
        if i is None:
            raise InputError(f"hex {h!r} is not a cell (q, r) of the board '{self.game.board.name}'")
        return int(self.colour[i])

    def conditions(self) -> tuple[frozenset, frozenset]:
        """The win conditions (``"W1"``, ``"W2"``, ``"W3"``) each player fulfils now (OD-4)."""
        return self._conds

    @property
    def wins(self) -> list[list[WinWitness]]:
        """The fulfilled win conditions with witness chains, per player (:func:`evaluate_wins`).

        Computed when first asked for after a move (witness paths cost more
        than the conditions themselves, which every move needs for OD-5).
        """
        if self._wins is None:
            self._wins = evaluate_wins(self.game, self.colour, self.galaxy, self.hole)
        return self._wins

    def _put(self, p: int, action: int) -> None:
        """Colour the placement's hexes, mark the tile used, apply OD-5."""
        self.game.paint(self.colour, (action,), p)
        self.used[p, self.game.placements[action].tile] = True
        self._history.append(action)
        self._after_colours()

    def _after_colours(self) -> None:
        self._legal = {}
        self._wins = None
        self._conds = win_conditions(self.game, self.colour, self.galaxy, self.hole)
        n0, n1 = len(self._conds[0]), len(self._conds[1])
        if n0 != n1:  # OD-5: more fulfilled conditions wins at once
            self.winner, self.end_rule = (0 if n0 > n1 else 1), "OD-5"

    def _compute_legal(self, p: int) -> list[int]:
        game = self.game
        ok = (self.colour[game.pl_cells] < 0).all(axis=1) & ~self.used[p][game.pl_tile]
        for t in np.flatnonzero(ok & self.pl_token):
            if self._od3_violation(p, int(t)):
                ok[t] = False
        return np.flatnonzero(ok).tolist()

    def _violation(self, p: int, action: int) -> str | None:
        """The rule placement ``action`` of player ``p`` breaks now (OD-2, OD-3), or None."""
        game = self.game
        if not 0 <= action < len(game.placements):
            return f"no such placement (ids are 0..{len(game.placements) - 1})"
        pl = game.placements[action]
        name = game.tiles.tiles[pl.tile].name
        if self.used[p, pl.tile]:
            return f"OD-2: player {p} has already placed tile {name}"
        busy = [game.board.hexes[c] for c in pl.cells if self.colour[c] >= 0]
        if busy:
            return f"OD-2: hexes {busy} are already covered"
        return self._od3_violation(p, action)

    def _od3_violation(self, p: int, action: int) -> str | None:
        """OD-3: each token-covering hex of colour c must reach an earlier c hex through c hexes.

        "Earlier c hex" is any hex of colour c on the board, whoever placed
        it (the RULES.md reading of "one of your already lying hexes").
        """
        game = self.game
        pl = game.placements[action]
        cols = pl.colours(p)
        adj = game.adjacency
        for i, h in enumerate(pl.cells):
            if not self.token[h]:
                continue
            c = cols[i]
            group = tile_group(pl.cells, cols, i, adj)
            if not any(self.colour[v] == c for u in group for v in adj[u]):
                kind = "galaxy" if self.galaxy[h] else "black hole"
                return (f"OD-3: the hex on the {kind} at {game.board.hexes[h]} (colour {c}) "
                        f"does not join a hex of colour {c} placed earlier")
        return None

