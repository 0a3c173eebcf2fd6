"""Orion Duel game engine: setup (OD-1), moves (OD-2/OD-3), end of game (OD-5/6/7).

Rules are those of RULES.md section 4 (seed 002). Glossary and conventions:

* hexes are axial ``(q, r)`` (:mod:`.hexgrid`); the engine works on hex
  *indices* ``0 .. n-1`` of :class:`.board.Board` (sorted by ``(r, q)``);
* player ``p`` (0 or 1) owns colour ``p``; a tile hex marked ``OWN`` gets
  the placer's colour, a hex marked ``OPP`` the opponent's colour;
* a *placement* is (tile, fixed orientation, anchor hex) lying inside the
  board; the action id is the placement's index in
  :attr:`OrionGame.placements` (dense ints, the same table for both
  players, ids of one tile contiguous);
* the setup (token layout and first player) is an input of the game
  (:class:`Setup`), validated by :func:`validate_setup` (OD-1).

Game facts (OpenSpiel style): 2 players, no chance after setup,
deterministic, at most ``2 * 14 = 28`` moves (every move places one of the
14 tiles of the mover, OD-2). Returns are 1 for a win, 0 for a loss and
0.5 each for a draw (OD-7).
"""

from __future__ import annotations

import itertools
from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

import numpy as np

from ...errors import InputError
from ..base import TERMINAL, GameState
from .board import Board, default_board
from .hexgrid import Hex, distance
from .tiles import OWN, TileSet, default_tiles

__all__ = [
    "Setup", "Placement", "OrionGame", "OrionState", "WinWitness",
    "validate_setup", "random_setup", "evaluate_wins", "NUM_GALAXIES", "NUM_BLACK_HOLES",
]

#: Token counts (RULES.md §4: "8 galaxy and 7 black hole tokens").
NUM_GALAXIES = 8
NUM_BLACK_HOLES = 7
#: OD-1 spacing: galaxies and black holes at least 3 apart among themselves,
#: a black hole not on or next to a galaxy (distance >= 2).
MIN_SAME_TOKEN_DISTANCE = 3
MIN_HOLE_GALAXY_DISTANCE = 2
#: OD-4 thresholds: W2 needs 4 galaxies, W3 needs 3 black holes on one chain.
W2_GALAXIES = 4
W3_BLACK_HOLES = 3


# ---------------------------------------------------------------------------
# Setup (OD-1)


@dataclass(frozen=True)
class Setup:
    """A token layout and the starting player (OD-1).

    Parameters
    ----------
    galaxies : tuple of (q, r)
        Galaxy token hexes.
    black_holes : tuple of (q, r)
        Black hole token hexes.
    first_player : int
        Who moves first (0 or 1); the galaxy player chooses (OD-1).
    """

    galaxies: tuple[Hex, ...]
    black_holes: tuple[Hex, ...]
    first_player: int = 0

    def to_json(self) -> dict:
        """Plain-JSON form (lists of ``[q, r]``)."""
        return {"galaxies": [list(h) for h in self.galaxies],
                "black_holes": [list(h) for h in self.black_holes],
                "first_player": self.first_player}


def validate_setup(setup: Setup, board: Board | None = None, *,
                   num_galaxies: int = NUM_GALAXIES,
                   num_black_holes: int = NUM_BLACK_HOLES) -> None:
    """Check a token layout against OD-1; raise on the first problem.

    Parameters
    ----------
    setup : Setup
        The layout to check.
    board : Board, optional
        The board (default :func:`.board.default_board`).
    num_galaxies, num_black_holes : int
        Required token counts (defaults 8 and 7, RULES.md §4).

    Raises
    ------
    InputError
        Naming the rule (OD-1) and the offending hexes: wrong counts, a
        token off the board or repeated, two galaxies (or two black holes)
        closer than 3, a black hole on or next to a galaxy, a first player
        other than 0 or 1.

    Examples
    --------
    >>> validate_setup(Setup(((0, 0),), (), 0), num_galaxies=1, num_black_holes=0)
    >>> validate_setup(Setup(((0, 0), (1, 1)), (), 0), num_galaxies=2, num_black_holes=0)
    Traceback (most recent call last):
    ...
    ubongo_cp.errors.InputError: OD-1: galaxies (0, 0) and (1, 1) are 2 apart; they must be at least 3 apart
    """
    board = board or default_board()
    cells = set(board.hexes)
    gal = [tuple(h) for h in setup.galaxies]
    hol = [tuple(h) for h in setup.black_holes]
    if setup.first_player not in (0, 1):
        raise InputError(f"OD-1: first player must be 0 or 1, got {setup.first_player!r}")
    if len(gal) != num_galaxies:
        raise InputError(f"OD-1: {len(gal)} galaxies placed, {num_galaxies} required")
    if len(hol) != num_black_holes:
        raise InputError(f"OD-1: {len(hol)} black holes placed, {num_black_holes} required")
    for kind, hs in (("galaxy", gal), ("black hole", hol)):
        for h in hs:
            if h not in cells:
                raise InputError(f"OD-1: {kind} at {h} is off the board")
    seen: dict[Hex, str] = {}
    for kind, hs in (("galaxy", gal), ("black hole", hol)):
        for h in hs:
            if h in seen:
                raise InputError(f"OD-1: two tokens on {h} ({seen[h]} and {kind})")
            seen[h] = kind
    for kind, hs in (("galaxies", gal), ("black holes", hol)):
        for a, b in itertools.combinations(hs, 2):
            if distance(a, b) < MIN_SAME_TOKEN_DISTANCE:
                raise InputError(f"OD-1: {kind} {a} and {b} are {distance(a, b)} apart; "
                                 f"they must be at least {MIN_SAME_TOKEN_DISTANCE} apart")
    for h in hol:
        for g in gal:
            if distance(h, g) < MIN_HOLE_GALAXY_DISTANCE:
                raise InputError(f"OD-1: black hole {h} is next to galaxy {g}; "
                                 f"it must be at least {MIN_HOLE_GALAXY_DISTANCE} away")


def random_setup(seed: int | np.random.Generator | None = None, board: Board | None = None, *,
                 first_player: int | None = None, num_galaxies: int = NUM_GALAXIES,
                 num_black_holes: int = NUM_BLACK_HOLES, max_tries: int = 10_000) -> Setup:
    """A uniformly shuffled, greedily built valid OD-1 layout (seeded).

    Hexes are visited in random order and a token is put on each hex that
    keeps the layout valid; a dead end restarts. ``first_player`` defaults
    to a fair coin.

    Raises
    ------
    InputError
        If no valid layout was found in ``max_tries`` attempts (a board too
        small for the token counts).

    Examples
    --------
    >>> s = random_setup(7)
    >>> validate_setup(s); len(s.galaxies), len(s.black_holes)
    (8, 7)
    """
    board = board or default_board()
    rng = np.random.default_rng(seed)
    hexes = list(board.hexes)
    for _ in range(max_tries):
        order = [hexes[i] for i in rng.permutation(len(hexes))]
        gal: list[Hex] = []
        for h in order:
            if len(gal) == num_galaxies:
                break
            if all(distance(h, g) >= MIN_SAME_TOKEN_DISTANCE for g in gal):
                gal.append(h)
        if len(gal) < num_galaxies:
            continue
        hol: list[Hex] = []
        for h in order[::-1]:
            if len(hol) == num_black_holes:
                break
            if (all(distance(h, b) >= MIN_SAME_TOKEN_DISTANCE for b in hol)
                    and all(distance(h, g) >= MIN_HOLE_GALAXY_DISTANCE for g in gal)):
                hol.append(h)
        if len(hol) < num_black_holes:
            continue
        fp = int(rng.integers(2)) if first_player is None else first_player
        return Setup(tuple(gal), tuple(hol), fp)
    raise InputError(f"OD-1: no valid layout of {num_galaxies} galaxies and {num_black_holes} "
                     f"black holes found on board '{board.name}' in {max_tries} tries")


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


class OrionGame:
    """Static data of one Orion Duel variant: board, tile set, placement table.

    Build with :meth:`get` (cached per board and tile set).

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

    def __init__(self, board: Board, tiles: TileSet) -> None:
        self.board = board
        self.tiles = tiles
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
    @lru_cache(maxsize=8)
    def get(board: Board | None = None, tiles: TileSet | None = None) -> "OrionGame":
        """The (cached) game for ``board`` and ``tiles`` (defaults: the public-fact set)."""
        return OrionGame(board or default_board(), tiles or default_tiles())

    def placement_id(self, tile: int, cells_own: Iterable[tuple[int, bool]]) -> int | None:
        """Action id of ``tile`` covering the given ``(hex index, is_own)`` cells, or None."""
        return self.lookup.get((tile, frozenset(cells_own)))

    def max_moves(self) -> int:
        """Upper bound on game length: every move uses one of 2 x (tiles per player)."""
        return 2 * len(self.tiles.tiles)


# ---------------------------------------------------------------------------
# Win conditions (OD-4)


@dataclass(frozen=True)
class WinWitness:
    """A chain witnessing a fulfilled win condition (OD-4).

    ``condition`` is ``"W1"``, ``"W2"`` or ``"W3"``; ``player`` who fulfils
    it; ``colour`` the colour of the chain (the opponent's for W3);
    ``hexes`` the chain (for W1 a shortest path between the two sides
    ``sides``, for W2/W3 the connected chain); ``tokens`` the galaxies or
    black holes it covers.
    """

    condition: str
    player: int
    colour: int
    hexes: tuple[Hex, ...]
    tokens: tuple[Hex, ...] = ()
    sides: tuple[str, str] | None = None


def evaluate_wins(game: OrionGame, colour: np.ndarray, galaxy: np.ndarray,
                  hole: np.ndarray) -> list[list[WinWitness]]:
    """The fulfilled win conditions W1-W3 of both players, with witness chains (OD-4).

    Parameters
    ----------
    game : OrionGame
    colour : numpy.ndarray, shape (n + 1,), int
        Colour per hex (-1 free), with a trailing sentinel.
    galaxy, hole : numpy.ndarray, shape (n + 1,), bool
        Token masks.

    Returns
    -------
    list of two lists of WinWitness
        ``result[p]`` lists the conditions player ``p`` fulfils (at most one
        witness per condition).
    """
    adj = game.adjacency
    col = colour.tolist()
    comp = [-1] * game.n
    comps: list[list[int]] = []
    for s in range(game.n):
        if col[s] < 0 or comp[s] >= 0:
            continue
        c = col[s]
        cid = len(comps)
        comp[s] = cid
        members = [s]
        k = 0
        while k < len(members):
            for v in adj[members[k]]:
                if comp[v] < 0 and col[v] == c:
                    comp[v] = cid
                    members.append(v)
            k += 1
        comps.append(members)
    hexes = game.board.hexes
    names = game.board.pairs
    out: list[list[WinWitness]] = [[], []]
    gal = galaxy.tolist()
    hol = hole.tolist()
    for cid, members in enumerate(comps):
        c = col[members[0]]
        ms = set(members)
        # W1: the chain touches both sides of an opposite pair.
        if not any(w.condition == "W1" for w in out[c]):
            for (a, b), nm in zip(game.side_pairs, names):
                if ms & a and ms & b:
                    path = _bfs_path(adj, ms, a, b)
                    out[c].append(WinWitness("W1", c, c, tuple(hexes[i] for i in path), (), nm))
                    break
        # W2: the chain covers 4 galaxies; W3: the chain covers 3 black holes,
        # which fulfils W3 for the *other* player.
        g = [i for i in members if gal[i]]
        if len(g) >= W2_GALAXIES and not any(w.condition == "W2" for w in out[c]):
            out[c].append(WinWitness("W2", c, c, tuple(hexes[i] for i in sorted(members)),
                                     tuple(hexes[i] for i in g)))
        h = [i for i in members if hol[i]]
        if len(h) >= W3_BLACK_HOLES and not any(w.condition == "W3" for w in out[1 - c]):
            out[1 - c].append(WinWitness("W3", 1 - c, c, tuple(hexes[i] for i in sorted(members)),
                                         tuple(hexes[i] for i in h)))
    for lst in out:
        lst.sort(key=lambda w: w.condition)
    return out


def _bfs_path(adj, allowed: set[int], sources: Iterable[int], targets: set[int]) -> list[int]:
    """Shortest path inside ``allowed`` from any source to any target (hex indices)."""
    prev = {s: -1 for s in sources if s in allowed}
    todo = deque(prev)
    while todo:
        u = todo.popleft()
        if u in targets:
            path = [u]
            while prev[path[-1]] >= 0:
                path.append(prev[path[-1]])
            return path[::-1]
        for v in adj[u]:
            if v in allowed and v not in prev:
                prev[v] = u
                todo.append(v)
    return []


# ---------------------------------------------------------------------------
# The state


class OrionState(GameState):
    """An Orion Duel position after setup (OpenSpiel-style state).

    Parameters
    ----------
    setup : Setup, optional
        Token layout and first player; default a random valid layout from
        ``seed`` (:func:`random_setup`). Validated by OD-1.
    game : OrionGame, optional
        Board and tiles (default the public-fact game).
    seed : int, optional
        Seed of the random layout when ``setup`` is not given.

    Raises
    ------
    InputError
        If ``setup`` breaks OD-1.

    Examples
    --------
    >>> s = OrionState(random_setup(3))
    >>> s.current_player() == s.setup.first_player, len(s.legal_actions()) > 1000
    (True, True)
    """

    num_players = 2

    def __init__(self, setup: Setup | None = None, game: OrionGame | None = None,
                 seed: int | None = None) -> None:
        self.game = game or OrionGame.get()
        board = self.game.board
        if setup is None:
            setup = random_setup(seed, board)
        validate_setup(setup, board)
        self.setup = setup
        n = self.game.n
        idx = board.index
        self.galaxy = np.zeros(n + 1, dtype=bool)
        self.hole = np.zeros(n + 1, dtype=bool)
        self.galaxy[[idx[tuple(h)] for h in setup.galaxies]] = True
        self.hole[[idx[tuple(h)] for h in setup.black_holes]] = True
        self.token = self.galaxy | self.hole
        self.pl_token = self.token[self.game.pl_cells].any(axis=1)
        self.colour = np.full(n + 1, -1, dtype=np.int64)
        self.used = np.zeros((2, len(self.game.tiles.tiles)), dtype=bool)
        self.player = setup.first_player
        self.history: list[int] = []
        self.winner: int | None = None      # 0, 1, or -1 for a draw
        self.end_rule: str | None = None    # "OD-5", "OD-6" or "OD-7"
        self.wins: list[list[WinWitness]] = [[], []]
        self._legal: dict[int, list[int]] = {}

    # -- contract ---------------------------------------------------------

    def current_player(self) -> int:
        return TERMINAL if self.winner is not None else self.player

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted ids of the legal placements of ``player`` (default: the one to move).

        OD-2: an unused tile of the player, inside the board, on free hexes;
        OD-3: a placement covering a token must join same-coloured hexes
        placed earlier. Empty when the game is over.
        """
        if self.winner is not None:
            return []
        p = self.player if player is None else player
        if p not in self._legal:
            self._legal[p] = self._compute_legal(p)
        return list(self._legal[p])

    def apply_action(self, action: int) -> None:
        if self.winner is not None:
            raise self._illegal(action, "the game is over")
        action = int(action)
        if action not in self.legal_actions():
            raise self._illegal(action, self.why_illegal(action))
        p = self.player
        pl = self.game.placements[action]
        for c, o in zip(pl.cells, pl.own):
            self.colour[c] = p if o else 1 - p
        self.used[p, pl.tile] = True
        self.history.append(action)
        self._legal = {}
        self.wins = evaluate_wins(self.game, self.colour, self.galaxy, self.hole)
        n0, n1 = len(self.wins[0]), len(self.wins[1])
        if n0 != n1:  # OD-5: more fulfilled conditions wins at once
            self.winner, self.end_rule = (0 if n0 > n1 else 1), "OD-5"
            return
        if self.used.all():  # OD-7: every tile placed, counts equal
            s0, s1 = self.scores()
            self.winner = 0 if s0 > s1 else 1 if s1 > s0 else -1
            self.end_rule = "OD-7"
            return
        self.player = 1 - p
        if not self.used[self.player].all() and not self.legal_actions():
            self.winner, self.end_rule = p, "OD-6"  # OD-6: the mover cannot place a tile
        elif self.used[self.player].all():
            self.player = p  # the other player has tiles left (only with unequal tile sets)

    def is_terminal(self) -> bool:
        return self.winner is not None

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]
        if self.winner < 0:
            return [0.5, 0.5]
        return [1.0 if p == self.winner else 0.0 for p in (0, 1)]

    def clone(self) -> "OrionState":
        new = OrionState.__new__(OrionState)
        new.__dict__.update(self.__dict__)
        new.colour = self.colour.copy()
        new.used = self.used.copy()
        new.history = list(self.history)
        new.wins = [list(w) for w in self.wins]
        new._legal = dict(self._legal)
        return new

    def action_to_string(self, action: int) -> str:
        """``"I3a r2 f @(q,r)"``: tile, rotation, flip mark, anchor hex."""
        try:
            pl = self.game.placements[int(action)]
        except (IndexError, ValueError):
            return f"#{action}"
        name = self.game.tiles.tiles[pl.tile].name
        return f"{name} r{pl.rotation}{' f' if pl.flip else ''} @({pl.anchor[0]},{pl.anchor[1]})"

    def __str__(self) -> str:
        from .render import ascii_board
        return ascii_board(self)

    # -- rules helpers ----------------------------------------------------

    def why_illegal(self, action: int) -> str:
        """The rule an illegal ``action`` breaks (message for IllegalActionError)."""
        game = self.game
        if not 0 <= action < len(game.placements):
            return f"no such placement (ids are 0..{len(game.placements) - 1})"
        pl = game.placements[action]
        name = game.tiles.tiles[pl.tile].name
        if self.used[self.player, pl.tile]:
            return f"OD-2: player {self.player} has already placed tile {name}"
        busy = [game.board.hexes[c] for c in pl.cells if self.colour[c] >= 0]
        if busy:
            return f"OD-2: hexes {busy} are already covered"
        reason = self._od3_violation(self.player, action)
        if reason:
            return reason
        return "not legal"

    def scores(self) -> tuple[int, int]:
        """OD-7 score per player: galaxies under its colour minus black holes under it."""
        c = self.colour[:-1]
        g, h = self.galaxy[:-1], self.hole[:-1]
        return tuple(int((g & (c == p)).sum() - (h & (c == p)).sum()) for p in (0, 1))

    def remaining_tiles(self, player: int) -> list[int]:
        """Indices of the tiles ``player`` has not placed yet."""
        return [i for i in range(self.used.shape[1]) if not self.used[player, i]]

    def hex_colour(self, h: Hex) -> int:
        """Colour on hex ``h`` (-1 when free)."""
        return int(self.colour[self.game.board.index[tuple(h)]])

    def _compute_legal(self, p: int) -> list[int]:
        game = self.game
        ok = (self.colour[game.pl_cells] < 0).all(axis=1) & ~self.used[p][game.pl_tile]
        tok = np.flatnonzero(ok & self.pl_token)
        for t in tok:
            if self._od3_violation(p, int(t)):
                ok[t] = False
        return np.flatnonzero(ok).tolist()

    def _od3_violation(self, p: int, action: int) -> str | None:
        """OD-3: each token-covering hex of colour c must reach an earlier c hex through c hexes."""
        game = self.game
        pl = game.placements[action]
        cols = [p if o else 1 - p for o in pl.own]
        cells = pl.cells
        adj = game.adjacency
        for i, h in enumerate(cells):
            if not self.token[h]:
                continue
            c = cols[i]
            group = {h}
            todo = [h]
            while todo:  # the tile's own hexes of colour c joined to h
                u = todo.pop()
                for j, v in enumerate(cells):
                    if v not in group and cols[j] == c and v in adj[u]:
                        group.add(v)
                        todo.append(v)
            if not any(self.colour[v] == c for u in group for v in adj[u]):
                kind = "galaxy" if self.galaxy[h] else "black hole"
                return (f"OD-3: the hex on the {kind} at {game.board.hexes[h]} (colour {c}) "
                        f"does not join a hex of colour {c} placed earlier")
        return None
