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

__all__ = ["search_plan", "complete_plan", "NODE_LIMIT", "COMPLETE_NODE_LIMIT"]

#: Placements :func:`search_plan` tries before giving up (a CP-SAT question costs
#: about as much as a few hundred of them).
NODE_LIMIT = 50

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
    from .reach import own_covering_lists

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
    grow, board = tab.grow, tab.board
    tiles = game.tiles.tiles
    pl_tile = game.pl_tile
    now = state.conditions()
    conds0 = [sum(bit[c] for c in now[0]), sum(bit[c] for c in now[1])]
    count = (0, 1, 1, 2, 1, 2, 2, 3)   # conditions in a 3-bit set
    cover = own_covering_lists(game)
    nodes = [0]

    def chain(own: int, free: int):
        """(cost, narrowest layer's free hexes, every free hex on a cheapest chain) over the pairs."""
        best = None
        for sa, sb in sides:
            la = tab.layers(sa, own, free)
            d = next((k for k, lay in enumerate(la) if lay & sb), None)
            if d is None or (best is not None and d > best[0]):
                continue
            lb = tab.layers(sb, own, free)
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
    ok = tab.all_cells(open_) & ~state.used[player][pl_tile]
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


class _Root:
    """What :func:`complete_plan` needs of a position and player, whatever the blocked hexes (cached)."""

    def __init__(self, state: OrionState, player: int) -> None:
        from .bitboard import CONDITION_BITS as bit, BitTables
        from .reach import own_covering_lists

        game = state.game
        tab = self.tab = BitTables.get(game)
        pos = self.pos = position_bits(state)
        now = state.conditions()
        self.conds0 = [sum(bit[c] for c in now[0]), sum(bit[c] for c in now[1])]
        self.used0 = used_bits(state, player)
        index_of = tab._index_of
        if index_of is None:
            index_of = tab._index_of = {g: i for i, g in enumerate(tab.grid_bit)}
        self.index_of = index_of
        tiles = game.tiles.tiles
        # Shape classes of the remaining tiles: representative tile -> the tiles of that shape.
        self.shape_tiles: dict[int, list[int]] = {}
        first: dict[tuple, int] = {}
        for t in state.remaining_tiles(player):
            self.shape_tiles.setdefault(first.setdefault(tiles[t].cells, t), []).append(t)
        self.reps = sorted(self.shape_tiles)
        # Placements of a representative tile on free hexes (blocked ones are tested in the search).
        # Hexes some such placement colours with P's colour (a superset of those avoiding any
        # blocked hexes, so leaving out the others stays sound). A tile's placements are a
        # range of ids (OrionGame.tile_range): only the representatives' ranges are looked at.
        open_ = state.colour < 0
        open_[game.n] = True   # the padding of short placements
        ok = np.zeros(len(game.placements), dtype=bool)
        colourable = np.zeros(game.n + 1, dtype=bool)
        for rep in self.reps:
            a, b = game.tile_range[rep]
            cells = game.pl_cells[a:b]
            part = tab.all_cells(open_, a, b)
            ok[a:b] = part
            colourable[cells[part][game.pl_own[a:b][part]]] = True
        self.usable = pos.colour_grid[player] | sum(1 << tab.grid_bit[h]
                                                    for h in np.flatnonzero(colourable[:game.n]).tolist())
        self.ok_list = ok.tolist()
        self.own_cover = own_covering_lists(game)
        self.by_hex: dict[int, list[tuple]] = {}            # filled by the search, per hex
        self.unjoined_of: dict[int, list[tuple[int, int]]] = {}   # filled by the search, per placement


_ROOTS: dict = {}


def _root(state: OrionState, player: int) -> _Root | None:
    """The :class:`_Root` of ``state`` and ``player`` (None: no tile left), cached by the position."""
    key = (id(state.game), player, state.colour.tobytes(), state.galaxy.tobytes(), state.hole.tobytes(),
           state.used[player].tobytes())
    got = _ROOTS.get(key)
    if got is None or got[0] is not state.game:
        if len(_ROOTS) > 256:
            _ROOTS.clear()
        root = _Root(state, player)
        got = _ROOTS[key] = (state.game, root if root.shape_tiles else None)
    return got[1]


#: Search nodes :func:`complete_plan` visits before it leaves the question to the
#: exact model (a CP-SAT question, built and solved, costs about as much as a few
#: hundred nodes).
COMPLETE_NODE_LIMIT = 400


def complete_plan(state: OrionState, player: int, goal: str, pairs, blocked, k: int,
                  node_limit: int = COMPLETE_NODE_LIMIT) -> tuple[str, list[int]] | None:
    """Is there a plan of at most ``k`` tiles avoiding ``blocked``? A complete search on bitmasks, or None.

    The decision question of :meth:`.reach.ReachModel.decide` (a plan of
    :mod:`.plans`: P's remaining tiles, each legal when played -- OD-2 and
    OD-3 --, the game not over before the last one -- OD-5 --, P fulfilling
    W1 after it, OD-4) for W1, without a solver.

    Parameters
    ----------
    state : OrionState
        Not over; ``player`` does not fulfil the goal now.
    player : int
    goal : str
        Only ``"sides"`` (W1) is searched; None for W2.
    pairs : list of int or None
        Opposite pairs that count (None: all).
    blocked : iterable of int
        Free hex indices taken out of play.
    k : int
        Tiles at most.
    node_limit : int
        Search nodes at most.

    Returns
    -------
    (str, list of int) or None
        ``("feasible", plan)`` (action ids in playing order, checked by
        :func:`.plans.order_on_bits`), ``("infeasible", [])`` (a proof: no
        plan of at most ``k`` tiles), or None: the node limit came first, or
        a set was found whose every legal order ends the game early (OD-5),
        which this search does not settle (the caller then asks the model).

    Notes
    -----
    The search builds *plan sets* S (placements of distinct remaining tiles
    on free unblocked hexes, no overlap) and keeps hexes X that P's colour
    must not take and placements Y that must not be chosen. Let Q be a plan
    of at most ``k`` tiles, C a chain of P's colour joining a pair after it,
    and Q' the placements of Q with an own hex on C together with their
    OD-3 supporters in Q, transitively (cut 3 of :mod:`.reach`): Q' has a
    legal order (Q's, restricted; OD-2 and OD-3 hold with fewer tiles, the
    supporters being kept) and fulfils W1 in its final colouring (C is
    coloured by Q' and the position). Every step below keeps one child with
    S inside Q', X free of Q''s own hexes and Y outside Q', so the search
    meets Q' or a subset of it that decides the question:

    1. *Bound* (sound): colours are only added, so the free hexes of C not
       covered by S are coloured by own hexes of the tiles of Q' \\ S: C
       avoids X, blocked hexes, hexes of the opponent's colour and S's
       opponent hexes, and its free hexes number at most the own hexes of
       the ``k - |S|`` largest remaining tiles (B). A node whose cheapest
       chain (node-weighted layers on bitmasks) for a pair costs more than
       B has no Q' of that pair below it. Free hexes that no placement of
       a remaining tile on free hexes colours with P's colour are never on
       C (decided once per position, blocked hexes or not: the placements
       avoiding them colour fewer hexes still).
    2. *Chain branching* (a partition): with ``da``/``db`` the distances
       from the pair's two sides, C holds, for every j from 1 to the
       cheapest cost d, a free hex with ``da == j`` (its ``da`` grows by at
       most one per free hex, from at most 1 to at least d, and only at
       free hexes) whose cheapest chain ``da + db - 1`` is at most B. For
       the narrowest such layer h_1..h_m: the first h_i that Q' colours
       with P's colour is coloured by exactly one placement of Q' (no
       overlap), and h_1..h_{i-1} join X. Each pair (those whose chain
       fits B at the root) is searched in turn.
    3. *Goal reached*: S fulfils W1 in its final colouring. If S has a legal
       order ignoring the game's end (:func:`.plans.order_on_bits` with
       ``game_end=False``), it is ordered with OD-5: a plan, or every order
       ends the game early -- then None (a larger set may still be a plan,
       cut 5 of :mod:`.reach`). Otherwise S is not Q', and some placement
       of Q' \\ S puts colour c on a free neighbour hex of an OD-3 group of
       S (colour c, covering a token) not joined now (cut 4 of
       :mod:`.reach`): each such supporter is a child, the earlier ones
       joining Y.

    Tiles of one shape are interchangeable (same hexes, same colours): one
    placement per shape and cells is tried, with the next unused tile of
    that shape. ``tests/test_orion_plansearch.py`` compares the answers
    with the brute force of :mod:`.brute`.
    """
    if goal != "sides" or state.winner is not None or k <= 0:
        return None
    from .plans import order_on_bits

    game = state.game
    root = _root(state, player)
    if root is None:
        return ("infeasible", [])   # no tile left
    tab, pos, conds0, used0, index_of = root.tab, root.pos, root.conds0, root.used0, root.index_of
    shape_tiles, reps, ok_list, usable = root.shape_tiles, root.reps, root.ok_list, root.usable
    own_cover, by_hex, unjoined_of = root.own_cover, root.by_hex, root.unjoined_of
    opp = 1 - player
    blocked = list(blocked)
    blk_grid = sum(1 << tab.grid_bit[h] for h in blocked)
    keys = range(len(tab.sides)) if pairs is None else sorted(set(pairs))
    sides = [tab.sides[kk] for kk in keys]
    grow, board = tab.grow, tab.board
    tiles = game.tiles.tiles

    def cands_at(h: int) -> list[tuple]:
        # (own grid, opp grid, cells grid, placement, shape) of the representatives' placements
        # with an own hex on hex index h, one per (own, opp) hexes.
        got = by_hex.get(h)
        if got is None:
            got, seen = [], set()
            for t in own_cover[h]:
                if ok_list[t]:
                    key = (tab.own[t], tab.opp[t])
                    if key not in seen:
                        seen.add(key)
                        got.append((tab.own[t], tab.opp[t], tab.cells[t], t, int(game.pl_tile[t])))
            by_hex[h] = got
        return got

    pl_cov = game.covering
    colour_of = (player, opp)

    def supporters(chosen, busy, xg, yset, counts):
        # Placements putting colour c on a free neighbour hex of an OD-3 group (colour c, on a
        # token) of a chosen placement that no hex of colour c joins now (cut 4 of .reach).
        out, seen = [], set()
        for t in chosen:
            for cell, (nb, own) in zip(game.placements[t].cells, tab.groups[t]):
                if not pos.token_idx >> cell & 1:
                    continue
                c = player if own else opp
                if nb & pos.colour_idx[c]:
                    continue
                m = nb
                while m:
                    low = m & -m
                    m ^= low
                    h = low.bit_length() - 1
                    for u, o in pl_cov[h]:
                        if colour_of[0 if o else 1] != c or not ok_list[u]:
                            continue
                        key = (tab.own[u], tab.opp[u])
                        if key in seen or key in yset:
                            continue
                        seen.add(key)
                        if tab.cells[u] & busy or tab.own[u] & xg or not counts[int(game.pl_tile[u])]:
                            continue
                        out.append((tab.own[u], tab.opp[u], tab.cells[u], u, int(game.pl_tile[u])))
        return out

    def joins(new_own: int, own: int) -> bool:
        # Does a chain of own hexes through the new ones join a pair? (The goal was not
        # fulfilled before them, and only chains holding a new hex are new.)
        while new_own:
            comp = grow(new_own & -new_own, own)
            if any(comp & sa and comp & sb for sa, sb in sides):
                return True
            new_own &= ~comp
        return False

    own_of = {rep: tiles[rep].own_count for rep in reps}
    by_own = sorted(reps, key=lambda r: -own_of[r])

    def supply_of(counts, left: int) -> int:
        # Own hexes of the ``left`` remaining tiles that have the most.
        total = 0
        for rep in by_own:
            n = min(counts[rep], left)
            total += n * own_of[rep]
            left -= n
            if not left:
                break
        return total

    nodes = [0]

    class _Undecided(Exception):
        pass

    def place(chosen, counts, u, shape):
        # The placement u of a representative tile as a placement of the next unused tile of its shape.
        ts = shape_tiles[shape]
        tile = ts[len(ts) - counts[shape]]
        pl = game.placements[u]
        a = u if tile == shape else game.placement_id(tile, zip(pl.cells, pl.own))
        c2 = dict(counts)
        c2[shape] -= 1
        return [*chosen, a], c2

    def unjoined(t: int) -> list[tuple[int, int]]:
        # OD-3 groups of t (on a token) that no hex of their colour joins now: (neighbours, colour).
        got = unjoined_of.get(t)
        if got is None:
            got = unjoined_of[t] = [(nb, player if own else opp)
                                    for cell, (nb, own) in zip(game.placements[t].cells, tab.groups[t])
                                    if pos.token_idx >> cell & 1 and not nb & pos.colour_idx[player if own else opp]]
        return got

    def settle(chosen):
        # Step 3: an order with OD-5, None when no legal order exists at all; _Undecided when
        # every legal order ends the game early. A group that no hex of its colour joins even in
        # the final colouring is never joined (colours are only added): no legal order.
        ci = list(pos.colour_idx)
        for t in chosen:
            ci[player] |= tab.own_idx[t]
            ci[opp] |= tab.opp_idx[t]
        if any(not nb & ci[c] for t in chosen for nb, c in unjoined(t)):
            return None
        got = order_on_bits(game, player, chosen, goal, pairs, True, pos, conds0, used0)
        if got is not None:
            return got
        if order_on_bits(game, player, chosen, goal, pairs, False, pos, conds0, used0) is None:
            return None
        raise _Undecided

    failed: dict[tuple[int, frozenset], list[tuple[int, frozenset]]] = {}

    def dfs(sa, sb, chosen, own, busy, xg, yset, counts, reached):
        # A set that failed for this pair with fewer exclusions fails again (its children there
        # were a superset of these).
        key = (sa, frozenset(chosen))
        seen = failed.get(key)
        if seen is not None and any(x & ~xg == 0 and y <= yset for x, y in seen):
            return None
        found = _dfs(sa, sb, chosen, own, busy, xg, yset, counts, reached)
        if found is None:
            failed.setdefault(key, []).append((xg, yset))
        return found

    def _dfs(sa, sb, chosen, own, busy, xg, yset, counts, reached):
        nodes[0] += 1
        if nodes[0] > node_limit:
            raise _Undecided
        if reached:
            got = settle(chosen)
            if got is not None:
                return got
            if len(chosen) >= k:
                return None
            ys = set(yset)
            for own_u, opp_u, cells_u, u, shape in supporters(chosen, busy, xg, yset, counts):
                c2_chosen, c2 = place(chosen, counts, u, shape)
                found = dfs(sa, sb, c2_chosen, own | own_u, busy | cells_u, xg, frozenset(ys), c2, True)
                if found is not None:
                    return found
                ys.add((own_u, opp_u))
            return None
        left = k - len(chosen)
        if left <= 0:
            return None
        budget = supply_of(counts, left)
        free = board & usable & ~busy & ~xg
        la = tab.layers(sa, own, free, budget)
        d = next((j for j, lay in enumerate(la) if lay & sb), None)
        if d is None or d > budget:
            return None   # step 1
        lb = tab.layers(sb, own, free, budget)
        # Hexes whose cheapest chain costs at most the budget: db <= budget + 1 - da.
        upto, acc = [], 0
        for lay in lb:
            acc |= lay
            upto.append(acc)
        best = None
        for j in range(1, d + 1):
            i = min(budget + 1 - j, len(upto) - 1)
            lay = la[j] & free & upto[i] if i >= 0 else 0
            if best is None or lay.bit_count() < best.bit_count():
                best = lay
        if not best:
            return None
        # Branch order (any order is a partition): the hexes of the cheapest chains first, and the
        # placements putting the most own hexes on them.
        cheap = 0
        for j in range(1, d + 1):
            if d + 1 - j < len(lb):
                cheap |= la[j] & lb[d + 1 - j] & free
        hexes, m = [], best
        while m:
            low = m & -m
            m ^= low
            hexes.append(low)
        hexes.sort(key=lambda g: not g & cheap)
        excluded = xg
        for low in hexes:
            h = index_of[low.bit_length() - 1]
            cs = [c for c in cands_at(h) if not c[2] & busy and not c[0] & excluded and counts[c[4]]]
            cs.sort(key=lambda c: (-(c[0] & cheap).bit_count(), bool(unjoined(c[3])), (c[1] & cheap).bit_count()))
            for own_u, _opp_u, cells_u, u, shape in cs:
                c2_chosen, c2 = place(chosen, counts, u, shape)
                own2 = own | own_u
                found = dfs(sa, sb, c2_chosen, own2, busy | cells_u, excluded, yset, c2, joins(own_u, own2))
                if found is not None:
                    return found
            excluded |= low   # step 2: h is not coloured by P in the branches that follow
        return None

    counts0 = {rep: len(ts) for rep, ts in shape_tiles.items()}
    own0 = pos.colour_grid[player]
    busy0 = pos.colour_grid[0] | pos.colour_grid[1] | blk_grid
    root_budget = supply_of(counts0, k)
    free0 = board & usable & ~busy0
    order = []
    for sa, sb in sides:
        la = tab.layers(sa, own0, free0, root_budget)
        d = next((j for j, lay in enumerate(la) if lay & sb), None)
        if d is not None and d <= root_budget:
            order.append((d, sa, sb))
    order.sort(key=lambda x: x[0])
    try:
        for _, sa, sb in order:
            found = dfs(sa, sb, [], own0, busy0, 0, frozenset(), counts0, False)
            if found is not None:
                return ("feasible", found)
    except _Undecided:
        return None
    return ("infeasible", [])

