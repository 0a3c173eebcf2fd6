"""Orion Duel on bitmasks: the same rules as :mod:`ubongo_cp.games.orion.state`, fast enough for search.

:class:`BitOrionState` plays the game of :class:`.state.OrionState` (same
:class:`.state.OrionGame`, same action ids, same legal actions, same
positions and results; ``tests/test_orion_bitboard.py`` checks every state
and every legal-action list of thousands of random games against the
reference) with the board's hex sets as integer bitmasks:

* **hex sets** (a colour, a side, the tokens) are Python ints in two bit
  layouts: *index* bits (bit ``i`` = hex index ``i`` of :class:`.board.Board`,
  85 bits) and *grid* bits (``(r - r0) * W + (q - q0)`` on a grid one
  column wider than the board, so that each of the six neighbour steps of
  axial coordinates [1]_ is one shift: +-1, +-W, +-(W - 1), and a shift
  never wraps onto the board);
* **OD-2**: the placements each player may still make (free hexes, unused
  tile) are a boolean numpy array over the placement ids; a move clears the
  placements covering its hexes (precomputed per hex) and its tile's range
  of ids;
* **OD-3**: per layout, every token-covering placement's colour groups
  become *requirements* "this neighbour set (index bits, split in two
  64-bit words) holds a hex of this colour"; all are tested at once with
  numpy (``(lo & colour_lo) | (hi & colour_hi) != 0``);
* **OD-4/OD-5**: conditions only ever appear (colours are only added), so
  after a move only the one-colour chains through the new hexes are grown
  (flood fill by shifts within the colour's grid mask) and tested: a side
  pair touched (W1), 4 galaxies (W2), 3 black holes (W3, for the other
  player).

The reference engine (:mod:`ubongo_cp.games.orion.state`) stays the definition of the rules and
the analysis runs on it; :meth:`BitOrionState.to_reference` and
:meth:`BitOrionState.from_reference` convert a position either way. An
illegal action is explained by the reference engine, so the messages are
the same.

References
----------
.. [1] A. Patel, "Hexagonal Grids", Red Blob Games (2013, updated 2021),
   https://www.redblobgames.com/grids/hexagons/ , "Axial coordinates".
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from .graphs import tile_group
from .setup import Setup
from .state import OrionGame, OrionRules, OrionState
from .wins import W2_GALAXIES, W3_BLACK_HOLES

__all__ = ["BitTables", "BitOrionState", "CONDITION_BITS", "condition_names"]

_LO = (1 << 64) - 1

#: Bit of each win condition in the condition sets of :meth:`BitTables.new_conditions`.
CONDITION_BITS = {"W1": 1, "W2": 2, "W3": 4}


def condition_names(bits: int) -> set[str]:
    """The condition names (``"W1"``...) of a condition bit set (:data:`CONDITION_BITS`)."""
    return {name for name, b in CONDITION_BITS.items() if bits & b}


class BitTables:
    """The bitmask tables of one :class:`.state.OrionGame` (built once per game, :meth:`get`).

    Attributes
    ----------
    width : int
        Grid row length ``W`` (board width + 1 padding column).
    grid_bit : list of int
        Grid bit per hex index.
    board : int
        Grid mask of the board.
    sides : list of (int, int)
        Grid masks of the two sides of each opposite pair (W1).
    cells, own, opp : list of int
        Per placement: grid masks of its hexes, its own-colour hexes, its
        opponent-colour hexes.
    own_idx, opp_idx : list of int
        The same as index masks.
    killed_by : list of numpy.ndarray
        Per hex index, the ids of the placements covering it.
    groups : list of list of (int, bool)
        Per placement and cell, the index mask of the cell's OD-3 group's
        neighbours outside the tile, and whether the group is of the
        placer's colour.
    """

    def __init__(self, game: OrionGame) -> None:
        board = game.board
        self.game = game
        qs = [h[0] for h in board.hexes]
        rs = [h[1] for h in board.hexes]
        q0, r0 = min(qs), min(rs)
        w = self.width = max(qs) - q0 + 2
        self.grid_bit = [(r - r0) * w + (q - q0) for q, r in board.hexes]
        self._index_of: dict[int, int] | None = None   # grid bit -> hex index, made when first asked
        self._all_sides: int | None = None   # grid mask of every side's hexes, made when first asked
        # Per placement (id, own hexes, other hexes, hexes, tile bit, own hex count), index masks,
        # for the greedy cover of distance._cover_bits; made when first asked.
        self._cover_info: list[tuple[int, int, int, int, int, int]] | None = None
        self.board = sum(1 << b for b in self.grid_bit)
        gb = self.grid_bit
        self.sides = [(sum(1 << gb[h] for h in a), sum(1 << gb[h] for h in b)) for a, b in game.side_pairs]
        self.cells, self.own, self.opp, self.own_idx, self.opp_idx = [], [], [], [], []
        self.groups: list[list[tuple[int, bool]]] = []
        adj = game.adjacency
        for pl in game.placements:
            self.cells.append(sum(1 << gb[c] for c in pl.cells))
            self.own.append(sum(1 << gb[c] for c, o in zip(pl.cells, pl.own) if o))
            self.opp.append(sum(1 << gb[c] for c, o in zip(pl.cells, pl.own) if not o))
            self.own_idx.append(sum(1 << c for c, o in zip(pl.cells, pl.own) if o))
            self.opp_idx.append(sum(1 << c for c, o in zip(pl.cells, pl.own) if not o))
            cols = [0 if o else 1 for o in pl.own]   # 0: the placer's colour
            row = []
            for i in range(len(pl.cells)):
                group = tile_group(pl.cells, cols, i, adj)
                nbrs = {v for u in group for v in adj[u]} - set(pl.cells)
                row.append((sum(1 << v for v in nbrs), pl.own[i]))
            self.groups.append(row)
        self.killed_by = [np.array(sorted({t for t, _ in cover}), dtype=np.int64) for cover in game.covering]
        self.tile_range = game.tile_range
        # The placements' cell columns (padding index n for short placements), for all_cells.
        self._pl_cols = [np.ascontiguousarray(game.pl_cells[:, i]) for i in range(game.pl_cells.shape[1])]
        self._req_cache: dict = {}
        self._cell_table()

    @staticmethod
    @lru_cache(maxsize=16)
    def get(game: OrionGame) -> "BitTables":
        """The (cached) tables of ``game``."""
        return BitTables(game)

    def overlapping(self, action: int) -> np.ndarray:
        """The ids of the placements sharing a hex with placement ``action`` (itself included, ids may repeat).

        Made when asked, not stored: a table of them for every placement grows
        with the square of the tiles (2,000 one-hex tiles: 2.7 GB).
        """
        return np.concatenate([self.killed_by[h] for h in self.game.placements[action].cells])

    def new_conditions(self, grid, p: int, own: int, opp: int, galaxies: int, holes: int) -> list[int]:
        """OD-4 after player ``p``'s placement: the conditions its new hexes' chains fulfil, per player.

        ``grid``: the two colours' grid masks after the placement; ``own``,
        ``opp``: its hexes of ``p``'s and of the other colour (grid masks).
        Colours are only ever added, so a condition appears only through a
        chain that holds a new hex: those chains are grown and tested (W1 a
        side pair touched, W2 4 galaxies, W3 3 black holes, for the other
        player). Returns condition bits per player (:data:`CONDITION_BITS`).
        """
        out = [0, 0]
        for c, new in ((p, own), (1 - p, opp)):
            within = grid[c]
            while new:
                chain = self.grow(new & -new, within)
                new &= ~chain
                if any(chain & a and chain & b for a, b in self.sides):
                    out[c] |= 1
                if (chain & galaxies).bit_count() >= W2_GALAXIES:
                    out[c] |= 2
                if (chain & holes).bit_count() >= W3_BLACK_HOLES:
                    out[1 - c] |= 4
        return out

    def all_cells(self, flags: np.ndarray, lo: int = 0, hi: int | None = None, rows=None) -> np.ndarray:
        """Per placement id in ``lo:hi`` (default all) or in ``rows`` (an id array): does ``flags`` (over
        the hex indices and the padding index n) hold on each of its cells? One gather per cell
        column (a reduction along the rows of ``pl_cells`` costs ten times more)."""
        cols = self._pl_cols if rows is None else [col[rows] for col in self._pl_cols]
        out = flags[cols[0][lo:hi]]
        for col in cols[1:]:
            out &= flags[col[lo:hi]]
        return out

    def dilate(self, m: int) -> int:
        """The hexes of ``m`` and their neighbours (grid masks; the six steps of :meth:`grow`, off the board too)."""
        a, b = m | (m << 1), m | (m >> 1)
        return a | b | (a >> self.width) | (b << self.width)

    def components(self, within: int) -> list[int]:
        """Per grid bit, the component of ``within`` (six-neighbour chains) holding it; 0 off ``within``."""
        out = [0] * (self.board.bit_length() + 1)
        rest = within
        while rest:
            comp = self.grow(rest & -rest, within)
            rest &= ~comp
            m = comp
            while m:
                low = m & -m
                out[low.bit_length() - 1] = comp
                m ^= low
        return out

    def grow(self, m: int, within: int) -> int:
        """The hexes of ``within`` joined to ``m`` through hexes of ``within`` (flood fill by shifts)."""
        w = self.width
        while True:
            # The six steps +-1, -W and -W + 1 (the row above), +W and +W - 1 (the row below).
            a, b = m | (m << 1), m | (m >> 1)
            nxt = (a | b | (a >> w) | (b << w)) & within
            if nxt == m:
                return m
            m = nxt

    def layers(self, src: int, own: int, free: int, most: int | None = None,
               own_chains: list[int] | None = None) -> list[int]:
        """Layer k: the hexes reachable from ``src`` through exactly k hexes of ``free`` at the least (hexes of
        ``own`` cost nothing, so each layer is closed under own neighbours); every layer, or those up to
        ``most`` (the ones past a budget are never looked at).

        ``own_chains``: :meth:`components` of ``own``, when the caller keeps them for several
        sources. A layer is then the new free hexes and the chains of ``own`` next to them (chains
        of ``own`` touch one another only through other hexes), without a flood fill.
        """
        w, grow = self.width, self.grow
        if own_chains is None:
            reach = grow(src & own, own)
        else:
            reach = self.chains_at(src & own, own_chains)
        out = [reach]
        while most is None or len(out) <= most:
            a, b = reach << 1, reach >> 1
            new = (a | b | ((reach | a) >> w) | ((reach | b) << w) | src) & free & ~reach
            if not new:
                return out
            if own_chains is None:
                nxt = grow(reach | new, own | reach | new)
            else:
                nxt = reach | new | self.chains_at(self.dilate(new) & own & ~reach, own_chains)
            out.append(nxt & ~reach)
            reach = nxt
        return out

    @staticmethod
    def chains_at(m: int, chains: list[int]) -> int:
        """The union of the chains (per grid bit, :meth:`components`) holding the hexes of ``m``."""
        out = 0
        while m:
            chain = chains[(m & -m).bit_length() - 1]
            out |= chain
            m &= ~chain
        return out

    def requirements(self, galaxies: tuple, black_holes: tuple):
        """OD-3 requirements of a token layout, and the mask of the token-covering placements.

        One requirement per token-covering cell of a placement: its group's
        neighbour hexes must hold a hex of the group's colour. Returns
        ``((t, lo, hi) of the own-colour groups, (t, lo, hi) of the
        opponent-colour groups, token_pl)``: placement ids and neighbour
        index masks split in two 64-bit words.
        """
        key = (galaxies, black_holes)
        if key in self._req_cache:
            return self._req_cache[key]
        if len(self._req_cache) > 64:
            self._req_cache.clear()
        idx = self.game.board.index
        hexes = [idx[(h[0], h[1])] for h in (*galaxies, *black_holes)]
        sel = np.concatenate([self._pc_of_hex[h] for h in hexes] or [np.zeros(0, dtype=np.int64)])
        out = []
        for own in (True, False):
            k = sel[self._pc_own[sel] == own]
            out.append((self._pc_t[k], self._pc_lo[k], self._pc_hi[k]))
        token_pl = np.zeros(len(self.cells), dtype=bool)
        token_pl[self._pc_t[sel]] = True
        self._req_cache[key] = out[0], out[1], token_pl
        return self._req_cache[key]

    def _cell_table(self) -> None:
        """Flat arrays over every (placement, cell): hex, own flag, group neighbour mask words."""
        ts, hexes, owns, los, his = [], [], [], [], []
        for t, pl in enumerate(self.game.placements):
            for i, h in enumerate(pl.cells):
                nb, own = self.groups[t][i]
                ts.append(t)
                hexes.append(h)
                owns.append(own)
                los.append(nb & _LO)
                his.append(nb >> 64)
        self._pc_t, self._pc_hex = np.array(ts, dtype=np.int64), np.array(hexes, dtype=np.int64)
        self._pc_own = np.array(owns, dtype=bool)
        self._pc_lo, self._pc_hi = np.array(los, dtype=np.uint64), np.array(his, dtype=np.uint64)
        order = np.argsort(self._pc_hex, kind="stable")
        bounds = np.searchsorted(self._pc_hex[order], np.arange(self.game.n + 1))
        self._pc_of_hex = [order[bounds[h]:bounds[h + 1]] for h in range(self.game.n)]


class BitOrionState(OrionRules):
    """An Orion Duel position on bitmasks (module docstring); the API of :class:`.state.OrionState`'s game.

    The parameters (``setup``, ``game``, ``seed``) and errors are those of
    :class:`.state.OrionState`; the same seed draws the same layout.

    Examples
    --------
    >>> s = BitOrionState(seed=3)
    >>> s.legal_actions() == OrionState(seed=3).legal_actions()
    True
    """

    def __init__(self, setup: Setup | None = None, game: OrionGame | None = None,
                 seed: int | None = None) -> None:
        self._start(setup, game, seed)
        setup = self.setup
        tab = self.tables = BitTables.get(self.game)
        idx = self.game.board.index
        self.galaxies = sum(1 << tab.grid_bit[idx[(h[0], h[1])]] for h in setup.galaxies)
        self.holes = sum(1 << tab.grid_bit[idx[(h[0], h[1])]] for h in setup.black_holes)
        own_req, opp_req, self._token_pl = tab.requirements(tuple(map(tuple, setup.galaxies)),
                                                            tuple(map(tuple, setup.black_holes)))
        # OD-3 requirements not yet met, per player: (own-colour groups, opponent-colour groups).
        # A met requirement stays met (colours are only added) and a placement once
        # unavailable stays so: both leave the lists for good.
        self._open_req = [[own_req, opp_req], [own_req, opp_req]]
        self.colour_grid = [0, 0]     # grid masks per colour
        self.colour_idx = [0, 0]      # index masks per colour
        self.avail = np.ones((2, len(self.game.placements)), dtype=bool)   # OD-2 per player
        self.used = np.zeros((2, len(self.game.tiles.tiles)), dtype=bool)
        self.player = setup.first_player
        self._history: list[int] = []
        self.winner: int | None = None
        self.end_rule: str | None = None
        self._conds: tuple[set, set] = (set(), set())
        self._legal: dict[int, list[int]] = {}
        self._masks: dict[int, np.ndarray] = {}

    # -- contract ---------------------------------------------------------

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Sorted ids of the legal placements of ``player`` (default: the one to move); OD-2, OD-3."""
        p = self._player_of(player)
        if self.winner is not None:
            return []
        if p not in self._legal:
            self._legal[p] = np.flatnonzero(self._legal_mask(p)).tolist()
        return list(self._legal[p])

    def _legal_mask(self, p: int) -> np.ndarray:
        """Boolean mask over placement ids: legal for ``p`` now (cached until the next move)."""
        mask = self._masks.get(p)
        if mask is None:
            mask = self._masks[p] = self._compute_mask(p)
        return mask

    def _apply_action(self, action: int) -> None:
        """Play placement ``action`` (OD-2, OD-3), then OD-5, OD-7, OD-6, as :meth:`.state.OrionState.apply_action`."""
        p = self.player
        if self.winner is not None or not (0 <= action < self.avail.shape[1]) or \
                not self._legal_mask(p)[action]:
            self.to_reference().apply_action(action)   # raises the reference's IllegalActionError
            raise AssertionError("the reference engine accepted an action the bitmask engine refused")
        self._put(p, action)
        self._end_move(p)

    def _violation(self, p: int, action: int) -> str | None:
        """None for a legal placement (the bitmasks), else the rule the reference engine names."""
        if self._legal_mask(p)[action]:
            return None
        return self.to_reference()._violation(p, action)

    def clone(self) -> "BitOrionState":
        new = BitOrionState.__new__(BitOrionState)
        new.__dict__.update(self.__dict__)
        new.colour_grid = list(self.colour_grid)
        new.colour_idx = list(self.colour_idx)
        new.avail = self.avail.copy()
        new.used = self.used.copy()
        new._history = list(self._history)
        new._conds = (set(self._conds[0]), set(self._conds[1]))
        new._legal = dict(self._legal)
        new._masks = dict(self._masks)
        new._open_req = [list(r) for r in self._open_req]
        return new

    def __str__(self) -> str:
        return str(self.to_reference())

    def _reference(self) -> OrionState:
        return self.to_reference()

    # -- the position -----------------------------------------------------

    def conditions(self) -> tuple[frozenset, frozenset]:
        """The win conditions each player fulfils now (OD-4)."""
        return frozenset(self._conds[0]), frozenset(self._conds[1])

    def scores(self) -> tuple[int, int]:
        """OD-7 score per player: galaxies under its colour minus black holes under it."""
        s0, s1 = ((self.colour_grid[p] & self.galaxies).bit_count()
                  - (self.colour_grid[p] & self.holes).bit_count() for p in (0, 1))
        return s0, s1

    @property
    def colour(self) -> np.ndarray:
        """Colour per hex index (-1 free), shape (n + 1,) with a trailing sentinel, as the reference's."""
        n = self.game.n
        out = np.full(n + 1, -1, dtype=np.int64)
        for c in (0, 1):
            m = self.colour_idx[c]
            out[[h for h in range(n) if m >> h & 1]] = c
        return out

    def to_reference(self) -> OrionState:
        """This position in the reference engine (:class:`.state.OrionState`), for the analysis."""
        ref = OrionState(self.setup, self.game)
        ref.colour = self.colour
        ref.used = self.used.copy()
        ref.player = self.player
        ref._history = list(self._history)
        ref.winner, ref.end_rule = self.winner, self.end_rule
        ref._conds = self.conditions()
        ref._wins = None
        ref._legal = {}
        return ref

    @classmethod
    def from_reference(cls, state: OrionState) -> "BitOrionState":
        """A reference position (:class:`.state.OrionState`, any, e.g. from ``from_board``) on bitmasks."""
        s = cls(state.setup, state.game)
        tab = s.tables
        for c in (0, 1):
            hexes = np.flatnonzero(state.colour[:-1] == c).tolist()
            s.colour_idx[c] = sum(1 << h for h in hexes)
            s.colour_grid[c] = sum(1 << tab.grid_bit[h] for h in hexes)
            for h in hexes:
                s.avail[:, tab.killed_by[h]] = False
        s.used = state.used.copy()
        for p in (0, 1):
            for ti in np.flatnonzero(s.used[p]).tolist():
                s.avail[p, slice(*tab.tile_range[ti])] = False
        s.player = state.player
        s._history = list(state._history)
        s.winner, s.end_rule = state.winner, state.end_rule
        s._conds = (set(state.conditions()[0]), set(state.conditions()[1]))
        return s

    # -- rules ------------------------------------------------------------

    def _compute_mask(self, p: int) -> np.ndarray:
        """Legal for ``p`` now: OD-2 (free hexes, unused tile) and OD-3 (the open requirements met)."""
        avail = self.avail[p]
        ok = avail.copy()
        open_req = self._open_req[p]
        for k, c in ((0, p), (1, 1 - p)):
            t, lo, hi = open_req[k]
            if not len(t):
                continue
            m = self.colour_idx[c]
            unmet = (((lo & np.uint64(m & _LO)) | (hi & np.uint64(m >> 64))) == 0) & avail[t]
            t = t[unmet]
            open_req[k] = (t, lo[unmet], hi[unmet])
            ok[t] = False
        return ok

    def _has_legal(self, p: int) -> bool:
        """Does ``p`` have a legal placement? (Any free placement off the tokens answers at once.)"""
        if (self.avail[p] & ~self._token_pl).any():
            return True
        return bool(self._legal_mask(p).any())

    def _put(self, p: int, action: int) -> None:
        """Colour the placement's hexes, mark the tile used, update the conditions, apply OD-5."""
        tab = self.tables
        own, opp = tab.own[action], tab.opp[action]
        self.colour_grid[p] |= own
        self.colour_grid[1 - p] |= opp
        self.colour_idx[p] |= tab.own_idx[action]
        self.colour_idx[1 - p] |= tab.opp_idx[action]
        gone = tab.overlapping(action)
        self.avail[0, gone] = False
        self.avail[1, gone] = False
        tile = self.game.placements[action].tile
        self.used[p, tile] = True
        self.avail[p, slice(*tab.tile_range[tile])] = False
        self._history.append(action)
        self._legal = {}
        self._masks = {}
        # OD-4: only the chains through the new hexes can fulfil a new condition.
        for c, bits in enumerate(tab.new_conditions(self.colour_grid, p, own, opp, self.galaxies, self.holes)):
            if bits:
                self._conds[c].update(condition_names(bits))
        n0, n1 = len(self._conds[0]), len(self._conds[1])
        if n0 != n1:  # OD-5: more fulfilled conditions wins at once
            self.winner, self.end_rule = (0 if n0 > n1 else 1), "OD-5"
