"""A plan for W1 by depth-first search on bitmasks, along cheapest chains: fast, sound, not complete.

The blocking and safety questions (:mod:`.blocking`, :mod:`.safety`) need
*a* plan of player P (:mod:`.plans`: P's remaining tiles, each legal when
played, OD-3 included, the game not over before the last tile, OD-5) in a
position with some free hexes taken out of play, or a proof that there is
none. :func:`search_plan` looks for one without a solver: it plays P's
tiles one by one on the bitmask tables of :mod:`ubongo_cp.games.orion.bitboard`, each step
putting an own hex on a free hex of a cheapest chain of the position
reached so far (node-weighted distances from both sides of each opposite
pair by layered flood fills, as the reach model computes its bounds), the
hex taken from the narrowest layer of that chain. A branch ends when its
cheapest chain costs more own hexes than the tiles left can give.

Every placement is checked when it is made (OD-2: free, not blocked, the
tile unused; OD-3 on the colours laid so far; OD-4/OD-5: the conditions
grown from the new hexes, the game going on unless the goal is reached),
so a plan found is a plan, and :func:`.plans.order_plan` checks it once
more. The search gives up after ``node_limit`` placements: "no plan found"
proves nothing, and the callers then ask the exact model
(:class:`.reach.ReachModel`).
"""

from __future__ import annotations

import numpy as np

from .plans import order_plan, position_bits, used_bits
from .state import OrionState

__all__ = ["search_plan", "NODE_LIMIT"]

#: Placements :func:`search_plan` tries before giving up (a CP-SAT question costs
#: about as much as a few hundred of them).
NODE_LIMIT = 50

#: Per game (by id, the game kept to check it): per hex, the placements with an own hex there.
_COVER: dict[int, tuple] = {}


def search_plan(state: OrionState, player: int, goal: str = "sides", pairs=None, blocked=(),
                node_limit: int = NODE_LIMIT) -> list[int] | None:
    """A plan of ``player`` for ``goal`` avoiding the hex indices ``blocked``, or None if none was found.

    Parameters
    ----------
    state : OrionState
        The game must not be over, and ``player`` must not fulfil the goal now.
    player : int
    goal : {"sides", "galaxies"}
        Only W1 (``"sides"``) is searched; None for W2.
    pairs : list of int, optional
        Opposite pairs that count for W1 (default all).
    blocked : iterable of int
        Free hexes taken out of play.
    node_limit : int
        Placements tried at most.

    Returns
    -------
    list of int or None
        Action ids in playing order (a plan, :func:`.plans.order_plan`
        accepts it), or None: none found within the limit (not a proof).
    """
    if goal != "sides" or state.winner is not None:
        return None
    from .bitboard import CONDITION_BITS as bit, BitTables
    from .reach import own_covering

    game = state.game
    tab = BitTables.get(game)
    index_of = tab._index_of
    if index_of is None:
        index_of = tab._index_of = {g: i for i, g in enumerate(tab.grid_bit)}
    pos = position_bits(state)
    opp = 1 - player
    blocked = list(blocked)
    blk_idx = sum(1 << h for h in blocked)
    blk_grid = sum(1 << tab.grid_bit[h] for h in blocked)
    keys = range(len(tab.sides)) if pairs is None else sorted(set(pairs))
    sides = [tab.sides[k] for k in keys]
    whole = len(sides) == len(tab.sides)
    galaxies, holes, token = pos.galaxies, pos.holes, pos.token_idx
    w, w1, grow, board = tab.width, tab.width - 1, tab.grow, tab.board
    tiles = game.tiles.tiles
    pl_tile = game.pl_tile
    now = state.conditions()
    conds0 = [sum(bit[c] for c in now[0]), sum(bit[c] for c in now[1])]
    count = (0, 1, 1, 2, 1, 2, 2, 3)   # conditions in a 3-bit set
    cover = _COVER.get(id(game))
    if cover is None or cover[0] is not game:
        cover = _COVER[id(game)] = (game, [own_covering(game, [h]).tolist() for h in range(game.n)])
    cover = cover[1]
    nodes = [0]

    def layers(src: int, own: int, free: int) -> list[int]:
        # Layer k: the hexes reachable from src through exactly k free hexes at the least (own hexes cost 0).
        reach = grow(src & own, own)
        out = [reach]
        while True:
            m = reach
            new = ((m << 1) | (m >> 1) | (m << w) | (m >> w) | (m << w1) | (m >> w1) | src) & free & ~reach
            if not new:
                return out
            nxt = grow(reach | new, own | reach | new)
            out.append(nxt & ~reach)
            reach = nxt

    def chain(own: int, free: int):
        """(cost, narrowest layer's free hexes, every free hex on a cheapest chain) over the pairs."""
        best = None
        for sa, sb in sides:
            la = layers(sa, own, free)
            d = next((k for k, lay in enumerate(la) if lay & sb), None)
            if d is None or (best is not None and d > best[0]):
                continue
            lb = layers(sb, own, free)
            on = [la[i] & lb[d + 1 - i] & free for i in range(1, d + 1) if d + 1 - i < len(lb)]
            on = [m for m in on if m]
            if not on:
                continue
            narrow = min(on, key=lambda m: m.bit_count())
            every = 0
            for m in on:
                every |= m
            if best is None or (d, narrow.bit_count()) < (best[0], best[1].bit_count()):
                best = (d, narrow, every)
        return best

    def dfs(ci, cg, conds, used, plan, supply):
        busy_grid = cg[0] | cg[1] | blk_grid
        got = chain(cg[player], board & ~busy_grid)
        if got is None:
            return None
        d, narrow, every = got
        # The tiles left must give the chain's free hexes own hexes (the largest own counts first).
        total, k = 0, 0
        for c in supply:
            if total >= d:
                break
            total += c
            k += 1
        if total < d:
            return None
        low = narrow & -narrow
        h = index_of[low.bit_length() - 1]
        busy = ci[0] | ci[1] | blk_idx
        cands, seen = [], set()
        for t in cover[h]:
            tile = int(pl_tile[t])
            if used >> tile & 1:
                continue
            own_i, opp_i = tab.own_idx[t], tab.opp_idx[t]
            if (own_i | opp_i) & busy:
                continue
            key = (own_i, opp_i)
            if key in seen:   # the same hexes in the same colours (a tile of the same shape)
                continue
            seen.add(key)
            cells = game.placements[t].cells
            if any(token >> c & 1 and not nb & ci[player if o else opp] for c, (nb, o) in zip(cells, tab.groups[t])):
                continue   # OD-3 fails now
            gain = (tab.own[t] & every).bit_count()
            bad = (tab.opp[t] & every).bit_count()
            cands.append((-gain, bad, t, tile))
        cands.sort()
        for _, _, t, tile in cands:
            nodes[0] += 1
            if nodes[0] > node_limit:
                return None
            own_g, opp_g = tab.own[t], tab.opp[t]
            ci2 = [ci[0], ci[1]]
            cg2 = [cg[0], cg[1]]
            ci2[player] |= tab.own_idx[t]
            ci2[opp] |= tab.opp_idx[t]
            cg2[player] |= own_g
            cg2[opp] |= opp_g
            new = tab.new_conditions(cg2, player, own_g, opp_g, galaxies, holes)
            conds2 = [conds[0] | new[0], conds[1] | new[1]]
            grid = cg2[player]
            if conds2[player] & 1 if whole else any(grow(grid & sa, grid) & sb for sa, sb in sides):
                return [*plan, t]
            if count[conds2[0]] != count[conds2[1]]:
                continue   # OD-5: the game would be over before the goal
            rest = list(supply)
            rest.remove(tiles[tile].own_count)
            if rest:
                found = dfs(ci2, cg2, conds2, used | 1 << tile, [*plan, t], rest)
                if found is not None:
                    return found
            if nodes[0] > node_limit:
                return None
        return None

    supply = sorted((tiles[t].own_count for t in state.remaining_tiles(player)), reverse=True)
    if not supply:
        return None
    # Free hexes that no placement of a remaining tile on free unblocked hexes colours with
    # P's colour are never on a plan's chain (the set only shrinks as tiles are laid).
    open_ = state.colour < 0
    open_[blocked] = False
    open_[game.n] = True   # the padding of short placements
    ok = open_[game.pl_cells].all(axis=1) & ~state.used[player][pl_tile]
    cells, own = game.pl_cells[ok], game.pl_own[ok]
    colourable = np.zeros(game.n + 1, dtype=bool)
    colourable[cells[own]] = True
    usable = pos.colour_grid[player] | sum(1 << tab.grid_bit[h] for h in np.flatnonzero(colourable[:game.n]).tolist())
    board = board & usable
    plan = dfs(list(pos.colour_idx), list(pos.colour_grid), conds0, used_bits(state, player), [], supply)
    if plan is None:
        return None
    # The search checked every step; the engine's order search confirms it.
    return order_plan(state, player, plan, goal, pairs)
