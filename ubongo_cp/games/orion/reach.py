"""Can a player reach W1 or W2 with at most k of its tiles? One CP-SAT model, exact under OD-2...OD-5.

The question is the plan question of :mod:`.plans` (the other player
passes; a set of free hexes may be *blocked*, i.e. taken out of play). It
is decided by a CP-SAT model of a relaxation, refined lazily until every
answer is exact (counterexample-guided abstraction refinement [3]_):

* the model chooses a set of placements (OD-2: free unblocked hexes, no
  overlap, each remaining tile at most once, at most k of them) whose
  final colouring holds a chain of the player's colour for the goal, and
  in which every token-covering hex joins a hex of its colour *in the
  final colouring* (OD-3 without the order; cut 2 below);
* a solution is ordered by :func:`.plans.order_plan` through the engine;
  if no order works, a no-good clause (cuts 4 and 5 below) removes it and
  the model is solved again.

"Feasible" always comes with a plan the engine accepted. "Infeasible" is a
proof because every cut below keeps at least one plan whenever a plan of at
most k tiles exists.

Cuts
----
Let a *plan set* be a set of placements some order of which is a plan
(:mod:`.plans`), and an *exact plan set* one with an order in which the goal
first holds after the last tile. Every plan set contains an exact plan set
(the tiles up to the one where the goal first holds), so a cut is sound when
it removes no exact plan set. Facts used: colours are only ever added, so
the conditions of OD-4 after a set A of placements (in any order) are a
function cond(A) that grows with A, and so is the goal; OD-3 for a
placement depends only on the hexes of its colour next to its token groups
when it is played.

1. *Graph bounds.* A plan claims every free hex of the goal's chain with an
   own hex, so it needs at least ``lb_hexes`` own hexes (node-weighted
   shortest paths, W1; an exact Steiner tree, W2), at least ``lb_tiles``
   tiles, and own hexes placed >= ``lb_hexes``. Blocked and opponent hexes
   cannot be on the chain. On a W1 chain of at most B claimed hexes, a hex
   reached from the source side through j claimed hexes still needs its
   distance to the target side, so its layers (Encoding) run from its
   distance to the source side up to B minus that distance.
2. *Relaxation.* An exact plan set satisfies the model: OD-2 (free hexes,
   no overlap, each tile once), the chain in the final colouring, and OD-3
   in the final colouring -- a group not joined now was joined when it was
   played by a hex of its colour laid by an earlier placement of the set.
   Tiles of one shape are interchangeable (same hexes, same colours), so one
   variable per shape placement with a count bound loses no plan.
3. *Pruning* (``prune=True``). Let Q be an exact plan set of at most k
   tiles and Q' the placements of Q that put an own hex on the chain, with
   their OD-3 supporters in Q, transitively. Q' satisfies the pruned model
   (the chain's hexes cost at most the budget, so they are useful hexes;
   supporters are in the closure) and has a legal order (Q's, restricted).
   So no cut 4 removes Q' (see its proof), and cut 5 removes Q' only after
   proposing it, when the pruning is dropped for good (every game-end
   failure drops it). The pruned model is therefore infeasible only when no
   plan set exists.
4. *OD-3 failure*: the proposed set S has no order in which every placement
   is legal, even ignoring the end of the game (its final colouring fulfils
   the goal, so any legal order of all of S would reach it). The clause
   forbids S together with any set of placements none of which *supports* a
   token group of S not joined now (puts that group's colour on a free
   neighbour hex of it). Proof: let S' = S + U be a plan set with no
   supporter in U, in a legal order. Restricted to S the order is still
   legal: OD-2 holds with fewer hexes covered, and each group of S was
   joined by a hex from the position or from an earlier placement, which
   cannot be in U. So S would have a legal order -- a contradiction.
5. *Game-end failure*: S has a legal order but in every one the game ends
   (OD-5) before the last tile. A larger set may still be a plan (a tile
   added first balances the conditions, or it changes OD-3 so that another
   order works), so the clause forbids exactly S: S plus any placement of
   the model is still allowed. This removes one non-plan set only.

Blocked hexes as assumptions
----------------------------
A search that asks about many sets B of blocked hexes in one position
(:mod:`.blocking`) reuses one model of the position without blocked hexes
(``decide(..., avoid=B)``): one literal per free hex joins that hex's
overlap constraint, and the hexes of B are assumed blocked, so no chosen
placement covers them. This model holds every plan set that avoids B: the
cuts above do not depend on B (a plan avoiding B is a plan of the
position: blocked hexes take no colour, so OD-3, OD-4 and OD-5 are as for
free hexes, and order_plan does not see B), and the graph bounds of the
position without B are weaker than those with B (blocking only raises
distances, so useful hexes, layer ranges and ``lb_hexes`` of the position
contain or are at most those with B), so cut 3 holds with the position's
pruning. Once a game-end failure drops the pruning (cut 3) it stays
dropped for every later question of the same :class:`ReachModel`: a cut 5
no-good is kept by every model of it, pruned or not.

Encoding
--------
One Boolean ``x_t`` per candidate placement ``t`` (tiles of one shape share
the variable, with a count bound, which removes their permutation
symmetry). Connection uses *cost layers* as acyclic support: every existing
own component is contracted to one node, and ``R[v][j]`` means "node v is
on the chain with at most j claimed (free) hexes on its support path"; a
reached free hex at layer j is a source or has a reached neighbour at layer
j - 1, a contracted component at layer j is a source or has a reached free
neighbour at layer j. Every support cycle would climb a layer, so none
exists and a reached hex always has a real path back to a source. Layers
are the unary form of the ranking acyclicity encodings of Gebser, Janhunen
and Rintanen [1]_. OD-3 is one clause per token-covering candidate:
``x_t -> OR(x_u : u puts colour c next to t's colour-c group)``.

Pruning (``prune=True``): with ``B`` the own hexes k tiles can give at most,
only hexes on a chain of graph cost <= B (node-weighted shortest paths for
W1, an exact Steiner tree over 4 galaxies for W2 [2]_) are chain nodes, and
the candidates are the placements with an own hex there, closed under OD-3
support (a placement that gives a candidate's group its colour is a
candidate). The implied constraint "own hexes placed >= hexes to claim"
is added.

References
----------
.. [1] M. Gebser, T. Janhunen, J. Rintanen, "SAT modulo graphs:
   acyclicity", JELIA 2014, LNCS 8761.
.. [2] S. E. Dreyfus, R. A. Wagner, "The Steiner problem in graphs",
   Networks 1 (1971).
.. [3] E. Clarke, O. Grumberg, S. Jha, Y. Lu, H. Veith,
   "Counterexample-guided abstraction refinement", CAV 2000, LNCS 1855.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field

import numpy as np
from ortools.sat.python import cp_model

from ...cpsat_runtime import new_model, run_solver
from .graphs import INF, colour_components, node_weighted_distances, steiner_costs, tile_group
from .plans import final_reaches, goal_fulfilled, order_plan, position_bits, use_reference
from .state import OrionState
from .wins import W2_GALAXIES

__all__ = ["ReachAnswer", "ReachModel", "solve_model", "DECISION_PARAMETERS"]

#: CP-SAT parameters of the decision models (:func:`solve_model`). On 12 mid-game
#: questions and one hard "3 tiles?" question (950 variables), 1 worker: defaults
#: 4.7 s and 8.7 s; no presolve/symmetry/linearisation 1.3 s and 47 s; these 0.16 s
#: and 0.12 s (inprocessing and probing do not pay on small models; the LP of the
#: tile budget proves the hard ones).
DECISION_PARAMETERS = {"cp_model_presolve": False, "use_sat_inprocessing": False,
                       "symmetry_level": 0, "cp_model_probing_level": 0}


@dataclass
class ReachAnswer:
    """Answer of :meth:`ReachModel.decide`.

    ``status`` is ``"feasible"`` (``plan``: action ids in playing order the
    engine accepted; relaxed: free hex indices), ``"infeasible"`` (proved: no
    plan of at most k tiles) or ``"unknown"`` (time limit); ``rounds`` counts
    CP-SAT solves (1 + no-goods added); ``work`` is their deterministic
    time (CP-SAT's ``deterministic_time``, in its deterministic seconds).
    """

    status: str
    plan: list[int] = field(default_factory=list)
    rounds: int = 0
    work: float = 0.0


class ReachModel:
    """Bounds, pruning data and the CP-SAT decision model of "reach the goal in <= k tiles".

    Parameters
    ----------
    state : OrionState
    player : int
    goal : {"sides", "galaxies"}
    pairs : list of int, optional
        Opposite pairs that count for W1 (default all).
    blocked : iterable of int
        Free hex indices taken out of play (neither player may use them).
    relaxed : bool
        Ignore tile shapes, tile counts and OD-3/OD-5: any free hex can be
        claimed one by one; the answer counts hexes.

    Attributes
    ----------
    lb_hexes : int
        Fewest free hexes on a chain for the goal (``INF`` if none).
    lb_tiles : int or None
        Fewest tiles whose own hexes reach ``lb_hexes`` (None: unreachable).
    max_tiles : int
        Remaining tiles (relaxed: free hexes).
    """

    def __init__(self, state: OrionState, player: int, goal: str = "sides", *, pairs=None,
                 blocked=(), relaxed: bool = False) -> None:
        self.state, self.player, self.goal, self.relaxed = state, player, goal, relaxed
        self._models: dict[tuple[int, bool, bool], tuple | None] = {}
        self._blk: dict[tuple[int, bool, bool], dict] = {}   # per blockable model: hex -> "blocked" literal
        self._full = False   # a game-end failure dropped the pruning for good (cut 3)
        self._nogoods: list[tuple[list[int], frozenset[int] | None]] = []
        self._bits = None
        self._layers_fn = None
        self._own_chains: list[int] = []   # the player's chains per grid bit (BitTables.components), with _layers
        game = state.game
        n = game.n
        self.adj = game.adjacency
        self.blocked = frozenset(blocked)
        col = state.colour[:-1].tolist()
        cost = self.cost = [0 if c == player else 1 if c < 0 else INF for c in col]
        for h in self.blocked:
            cost[h] = INF
        self.free = [h for h in range(n) if cost[h] == 1]
        self._col = col
        self._open: np.ndarray | None = None   # open_flags
        self._rep: np.ndarray | None = None    # rep_flags
        self._components = None
        self._pairs: list | None = None   # W1 bounds per pair (:attr:`pairs`), made on first use
        self._sides: list[tuple] = []
        if relaxed:
            self.supply = [1] * len(self.free)
        else:
            # Shape classes of the remaining tiles: representative -> its tiles.
            self.type_tiles: dict[int, list[int]] = {}
            first: dict[tuple, int] = {}
            tiles, remaining = game.tiles.tiles, state.remaining_tiles(player)
            for t in remaining:
                rep = first.setdefault(tiles[t].cells, t)
                self.type_tiles.setdefault(rep, []).append(t)
            self.supply = sorted((tiles[t].own_count for t in remaining), reverse=True)
        self.prefix = list(itertools.accumulate(self.supply))
        self.max_tiles = len(self.supply)
        self.pair_keys = None if pairs is None or goal != "sides" else list(pairs)
        self.lb_hexes = self._graph_bounds(pairs)
        if self.lb_hexes >= INF:
            self.lb_tiles = None
        elif self.lb_hexes == 0:
            self.lb_tiles = 0
        else:
            self.lb_tiles = next((k + 1 for k, v in enumerate(self.prefix) if v >= self.lb_hexes), None)

    def _layers(self):
        """Node-weighted distances on bitmasks: a function ``sources (grid mask) -> list of n ints``.

        The distances of :func:`.graphs.node_weighted_distances` for costs 0
        (the player's hexes), 1 (free, unblocked) and ``INF``: layer k of a
        flood fill by shifts holds the hexes reachable through at most k
        free hexes (own hexes cost nothing, so each layer is closed under
        own neighbours).
        """
        if self._layers_fn is not None:
            return self._layers_fn
        from .bitboard import BitTables

        tab = BitTables.get(self.state.game)
        index_of = getattr(tab, "_index_of", None)
        if index_of is None:
            index_of = tab._index_of = {g: i for i, g in enumerate(tab.grid_bit)}
        gb = tab.grid_bit
        grid = position_bits(self.state).colour_grid
        off = sum(1 << gb[h] for h in self.blocked)
        own = grid[self.player] & ~off                  # cost 0
        free = tab.board & ~(grid[0] | grid[1] | off)   # cost 1
        n, layers = len(self.cost), tab.layers
        chains = self._own_chains = tab.components(own)

        kept: dict[int, list[int]] = {}

        def layers_of(src: int) -> list[int]:
            got = kept.get(src)
            if got is None:
                got = kept[src] = layers(src, own, free, own_chains=chains)
            return got

        def distances(src: int) -> list[int]:
            d = [INF] * n
            for k, layer in enumerate(layers_of(src)):
                while layer:
                    low = layer & -layer
                    d[index_of[low.bit_length() - 1]] = k
                    layer ^= low
            return d

        # The tables, the costs as masks and the layers per source (made once each), for
        # _graph_bounds and _free_on_chains.
        distances.tab, distances.own, distances.free = tab, own, free
        distances.layers_of = layers_of
        self._layers_fn = distances
        return distances

    def open_flags(self) -> np.ndarray:
        """Per hex index and the padding index n of the placement tables: free and not blocked
        (cost 1; the padding always), as a boolean array (made once; not to be written)."""
        got = self._open
        if got is None:
            got = self.state.colour < 0   # the padding entry stays -1 (OrionState)
            if self.blocked:
                got[list(self.blocked)] = False
            self._open = got
        return got

    def rep_flags(self) -> np.ndarray:
        """Per tile: is it the representative of its shape class among the remaining tiles (made once)."""
        got = self._rep
        if got is None:
            got = self._rep = np.zeros(len(self.state.game.tiles.tiles), dtype=bool)
            got[list(self.type_tiles)] = True
        return got

    @property
    def comp_of(self) -> list[int]:
        """Component label per hex of the player's colour (:func:`.graphs.colour_components`; built when a model is)."""
        return self._own_components()[0]

    @property
    def comps(self) -> list[list[int]]:
        """The player's colour components (hex lists), indexed by :attr:`comp_of`."""
        return self._own_components()[1]

    def _own_components(self):
        if self._components is None:
            player = self.player
            self._components = colour_components(self.adj, [c if c == player else -1 for c in self._col])
        return self._components

    def _graph_bounds(self, pairs) -> int:
        """Fewest free hexes on a chain for the goal; fills ``pairs`` (W1) or ``tree`` (W2).

        W1: per pair, node-weighted distances from both sides and the cost of
        the cheapest chain through each hex; W2: per hex, the cheapest Steiner
        tree over 4 galaxies through it.
        """
        game, n = self.state.game, self.state.game.n
        if self.goal == "sides":
            keys = range(len(game.side_pairs)) if pairs is None else pairs
            fast = None if use_reference() else self._layers()
            # (a, b, cheapest chain cost, distances from a, pair index); on the default paths the
            # distances are made when first asked (:meth:`dist_from_a`), the cost is the first
            # layer from side a that reaches side b.
            self._sides = []
            for k in keys:
                a, b = game.side_pairs[k]
                if fast is None:
                    da = node_weighted_distances(self.adj, self.cost, a)
                    self._sides.append((a, b, min(da[h] for h in b), da, k))
                else:
                    sa, sb = fast.tab.sides[k]
                    dist = next((j for j, layer in enumerate(fast.layers_of(sa)) if layer & sb), INF)
                    self._sides.append((a, b, dist, None, k))
            if fast is None:
                self.pairs   # noqa: B018 -- the reference computes every bound at once
            return min(p[2] for p in self._sides)
        gals = [h for h in range(n) if self.state.galaxy[h] and self.cost[h] < INF]
        self.tree = steiner_costs(self.adj, self.cost, gals, W2_GALAXIES)
        return int(self.tree.min()) if len(gals) >= W2_GALAXIES else INF

    @property
    def pairs(self) -> list:
        """Per pair of sides (W1): ``(side a, side b, cheapest chain cost, cost of the cheapest chain
        through each hex, distances from a, distances from b)``; the distances from b are made on
        first use (the greedy plan and the bounds need only those from a)."""
        if self._pairs is None:
            self._pairs = [None] * len(self._sides)
        got = self._pairs
        for i in range(len(got)):
            if got[i] is None:
                got[i] = self._pair(i)
        return got

    def dist_from_a(self, i: int) -> list[int]:
        """W1: the node-weighted distances (free hexes to claim) from side a of the ``i``-th pair of
        ``_sides`` to every hex (``INF``: unreachable); made once, from the layers of :meth:`_layers`."""
        a, b, dist, da, k = self._sides[i]
        if da is None:
            fast = self._layers()
            da = fast(fast.tab.sides[k][0])
            self._sides[i] = (a, b, dist, da, k)
        return da

    def _pair(self, i: int) -> tuple:
        """The entry ``i`` of :attr:`pairs` (computed once)."""
        if self._pairs is None:
            self._pairs = [None] * len(self._sides)
        got = self._pairs[i]
        if got is None:
            da = self.dist_from_a(i)
            a, b, dist, _, k = self._sides[i]
            if use_reference():
                db = node_weighted_distances(self.adj, self.cost, b)
            else:
                fast = self._layers()
                db = fast(fast.tab.sides[k][1])
            through = [da[h] + db[h] - self.cost[h] if da[h] < INF and db[h] < INF else INF
                       for h in range(self.state.game.n)]
            got = self._pairs[i] = (a, b, dist, through, da, db)
        return got

    def budget(self, k: int) -> int:
        """Own hexes that ``k`` remaining tiles give at most (relaxed: ``k`` hexes)."""
        if k <= 0 or not self.prefix:
            return 0
        return self.prefix[min(k, len(self.prefix)) - 1]

    def useful(self, budget: int) -> tuple[set[int], list]:
        """Hexes that can lie on a chain of cost <= budget, and the viable pairs (W1)."""
        n = self.state.game.n
        if self.goal == "sides":
            viable = [self._pair(i) for i, p in enumerate(self._sides) if p[2] <= budget]
            return {h for p in viable for h in range(n) if p[3][h] <= budget}, viable
        if self.lb_hexes > budget:
            return set(), []
        return {h for h in range(n) if self.tree[h] <= budget}, [None]

    def decide(self, k: int, time_limit: float = 10.0, num_workers: int = 1,
               prune: bool = True, avoid=None, deterministic: bool = False) -> ReachAnswer:
        """Is there a plan of at most ``k`` tiles (relaxed: hexes)? Exact (module docstring).

        ``time_limit`` (seconds) covers all rounds, each solved by CP-SAT with
        ``num_workers``; ``prune`` restricts the model to useful hexes and
        placements (exact either way; off only to cross-check).
        ``avoid``: free hexes taken out of play for this question only (a
        model of this position and no blocked hexes, built once and reused
        with these hexes as assumptions; "Blocked hexes as assumptions" in
        the module docstring). Not with ``relaxed``.
        ``deterministic``: ``time_limit`` counts CP-SAT's deterministic time
        of the rounds instead of the wall clock, so the answer does not depend
        on the machine's speed or load (with one worker).
        """
        t0 = time.perf_counter()
        ans = ReachAnswer("infeasible")
        if self.lb_tiles is None or k < self.lb_tiles:
            return ans
        if k == 1 and not self.relaxed and self.lb_hexes > 0 and not use_reference() and avoid is None:
            return self._decide_one()
        if k == 2 and self.lb_tiles == 2 and prune and not self._full and not self.relaxed \
                and not use_reference() and avoid is None:
            two = self._decide_two()
            if two is not None:
                return two
        if prune and not self.relaxed and self.goal == "sides" and not use_reference():
            # W1: the complete search on bitmasks first (no model to build); it leaves the
            # question to the model past its node limit or on a set OD-5 spoils.
            from .plansearch import complete_plan

            got = complete_plan(self.state, self.player, self.goal, self.pair_keys,
                                self.blocked | frozenset(avoid or ()), k)
            if got is not None:
                return ReachAnswer(got[0], got[1])
        blockable = avoid is not None
        if not prune:
            self._full = True
        while True:
            built = self._model(k, prune=not self._full, blockable=blockable)
            if built is None:
                return ans
            left = time_limit - spent(t0, ans.work, deterministic)
            if left <= 0:
                ans.status = "unknown"
                return ans
            model, x = built
            if blockable:
                blk = self._blk[k, not self._full, True]
                model.clear_assumptions()
                model.add_assumptions([blk[h] for h in sorted(avoid) if h in blk])
            status, solver = solve_model(model, left, num_workers, decision=True, deterministic=deterministic)
            ans.rounds += 1
            ans.work += solver.deterministic_time
            if status not in ("optimal", "feasible"):
                ans.status = status
                return ans
            chosen = [t for t, v in x.items() if solver.value(v)]
            if self.relaxed:
                ans.status, ans.plan = "feasible", sorted(chosen)
                return ans
            plan = self._assign_tiles(chosen)
            order = order_plan(self.state, self.player, plan, self.goal, self.pair_keys)
            if order is not None:
                ans.status, ans.plan = "feasible", order
                return ans
            # Refine (module docstring, "Cuts"): an OD-3 failure forbids the set and
            # every superset without a new OD-3 supporter (cut 4); a game-end failure
            # forbids exactly this set (cut 5) and drops the pruning (cut 3).
            if order_plan(self.state, self.player, plan, self.goal, self.pair_keys,
                          game_end=False) is None and self._reaches_goal(plan):
                self._add_nogood(chosen, self._supporters(chosen))
            else:
                self._add_nogood(chosen, None)
                self._full = True

    def _decide_one(self) -> ReachAnswer:
        """"At most one tile?" by enumeration: every one-tile plan's placement puts an own hex on a useful hex.

        A one-tile plan {t} claims every free hex of the goal's chain with
        own hexes of t, so the chain costs at most ``budget(1)`` and t puts
        an own hex on it (``lb_hexes >= 1``): t has an own hex in
        ``useful(budget(1))`` (cut 3). Each such placement on free unblocked
        hexes, of a remaining tile (one per shape), whose colours fulfil the
        goal (:func:`.plans.final_reaches`; the goal needs them) is checked by
        :func:`.plans.order_plan` (OD-2, OD-3, OD-5, the goal).
        """
        game = self.state.game
        if self.goal == "sides":
            u_free = self._free_on_chains(self.budget(1))
        else:
            U, viable = self.useful(self.budget(1))
            u_free = [h for h in U if self.cost[h] == 1] if viable else []
        if not u_free:
            return ReachAnswer("infeasible")
        rep_mask, open_ = self.rep_flags(), self.open_flags()   # free, unblocked; sentinel pads
        from .bitboard import BitTables

        rows = usable_covering(game, u_free, open_, rep_mask)   # an own hex on a free useful hex
        # t claims every free hex of the chain (at least lb_hexes, all useful) with its own hexes.
        u_idx, own_idx, need = sum(1 << h for h in u_free), BitTables.get(game).own_idx, self.lb_hexes
        cands = [t for t in rows.tolist() if (own_idx[t] & u_idx).bit_count() >= need]
        if not cands:
            return ReachAnswer("infeasible")
        # W1: only a pair whose chain one tile can pay for can be joined by one tile.
        keys = self.pair_keys if self.goal != "sides" else \
            [k for a, b, dist, da, k in self._sides if dist <= self.budget(1)]
        reaches = final_reaches(self.state, self.player, self.goal, keys)
        touches = self._touches_pair(keys) if self.goal == "sides" else None
        for t in cands:
            # A placement whose colours miss the goal is no plan (order_plan would say so, slower).
            if (touches is None or touches(t)) and reaches((t,)) and \
                    order_plan(self.state, self.player, [t], self.goal, self.pair_keys):
                return ReachAnswer("feasible", [t])
        return ReachAnswer("infeasible")

    def _free_on_chains(self, budget: int) -> list[int]:
        """W1: the free hexes of :meth:`useful` for ``budget`` (a chain through them costs at most ``budget``).

        On the layers of :meth:`_layers`: a free hex with distance j from a
        pair's side a (layer j from a) and at most ``budget + 1 - j`` from
        side b lies on such a chain (``da + db - 1 <= budget``).
        """
        fast = self._layers()
        tab = fast.tab
        out = 0
        for _, _, dist, _, k in self._sides:
            if dist > budget:
                continue
            sa, sb = tab.sides[k]
            la = fast.layers_of(sa)
            upto, acc = [], 0
            for lay in tab.layers(sb, fast.own, fast.free, budget, self._own_chains):
                acc |= lay
                upto.append(acc)
            for j in range(1, min(len(la), budget + 2)):
                out |= la[j] & fast.free & upto[min(budget + 1 - j, len(upto) - 1)]
        index_of = tab._index_of
        hexes = []
        while out:
            low = out & -out
            hexes.append(index_of[low.bit_length() - 1])
            out ^= low
        return hexes

    def _touches_pair(self, keys):
        """W1, the goal not fulfilled now: a test ``placement -> bool`` that a one-tile plan passes.

        After one placement, a chain of the player joining a pair's sides holds
        one of its own hexes (none joins them now), so it lies in the union of
        those hexes and the player's chains next to them (from the chains of
        :meth:`_layers`): that union touches both sides of a pair of ``keys``
        (None: every pair).
        """
        self._layers()
        tab = self._layers_fn.tab
        own0 = position_bits(self.state).colour_grid[self.player]
        chains = self._own_chains
        sides = tab.sides if keys is None else [tab.sides[k] for k in keys]
        own, dilate, chains_at = tab.own, tab.dilate, tab.chains_at

        def touches(t: int) -> bool:
            m = own[t] | chains_at(dilate(own[t]) & own0, chains)
            return any(m & sa and m & sb for sa, sb in sides)

        return touches

    def _decide_two(self, most: int = 60) -> ReachAnswer | None:
        """"At most two tiles?" by enumeration when one tile cannot pay for the chain (``lb_tiles == 2``).

        Let Q be a plan of at most two tiles and Q' its placements that put
        an own hex on the goal's chain, with their OD-3 supporters in Q
        (cut 3): Q' is a set of at most two candidates of the pruned model
        for k = 2, its colours fulfil the goal and it has a legal order. No
        single tile claims the chain's free hexes (at least ``lb_hexes``,
        more than ``budget(1)``), so Q' is a pair, and its own hexes on
        useful hexes number at least ``lb_hexes``. Every such pair of
        candidates (distinct tiles, no overlap) whose colours fulfil the goal
        is ordered by :func:`.plans.order_plan`: a success is a plan; a pair
        with a legal order that the game's end (OD-5) spoils leaves the
        question to the model (None, as cut 5 would); else no plan exists.
        None as well when there are more than ``most`` candidates.
        """
        from .bitboard import BitTables

        budget = self.budget(2)
        U, viable = self.useful(budget)
        if not U or not viable:
            return ReachAnswer("infeasible")
        cands, _ = self._candidates(U, True)
        if len(cands) > most:
            return None
        game, tab = self.state.game, BitTables.get(self.state.game)
        u_idx = sum(1 << h for h in U)
        info = [(t, tab.own_idx[t] | tab.opp_idx[t], (tab.own_idx[t] & u_idx).bit_count(), game.placements[t].tile)
                for t in cands]
        keys = self.pair_keys if self.goal != "sides" else \
            [k for a, b, dist, da, k in self._sides if dist <= budget]
        reaches = final_reaches(self.state, self.player, self.goal, keys)
        need, spoilt = self.lb_hexes, False
        for i, (a, cells_a, n_a, tile_a) in enumerate(info):
            for b, cells_b, n_b, tile_b in info[i + 1:]:
                if n_a + n_b < need or cells_a & cells_b or (tile_a == tile_b and len(self.type_tiles[tile_a]) < 2):
                    continue
                if not reaches((a, b)):
                    continue
                plan = self._assign_tiles([a, b])
                order = order_plan(self.state, self.player, plan, self.goal, self.pair_keys)
                if order is not None:
                    return ReachAnswer("feasible", order)
                if not spoilt and order_plan(self.state, self.player, plan, self.goal, self.pair_keys,
                                             game_end=False) is not None:
                    spoilt = True
        return None if spoilt else ReachAnswer("infeasible")

    def _model(self, k: int, prune: bool, blockable: bool = False):
        """The model for ``(k, prune, blockable)``, built once, with the no-goods found so far."""
        key = (k, prune, blockable)
        if key not in self._models:
            built = self._build(k, prune, self._blk.setdefault(key, {}) if blockable else None)
            if built is not None:
                for chosen, escape in self._nogoods:
                    self._post_nogood(built, chosen, escape)
            self._models[key] = built
        return self._models[key]

    def _add_nogood(self, chosen: list[int], escape: frozenset[int] | None) -> None:
        """Forbid the placement set ``chosen`` in every model, built or to come.

        ``escape`` None forbids exactly ``chosen`` (cut 5 of the module
        docstring); a set of placements forbids ``chosen`` together with any
        placements outside ``escape`` (cut 4).
        """
        self._nogoods.append((list(chosen), escape))
        for built in self._models.values():
            if built is not None:
                self._post_nogood(built, chosen, escape)

    @staticmethod
    def _post_nogood(built, chosen: list[int], escape: frozenset[int] | None) -> None:
        """Add one no-good clause to a built model: ``not all(chosen) or any(escape - chosen)``."""
        model, x = built
        if not all(t in x for t in chosen):
            return  # the model cannot choose the set at all
        inside = set(chosen)
        others = [v for u, v in x.items() if u not in inside and (escape is None or u in escape)]
        model.add_bool_or([x[t].negated() for t in chosen] + others)

    def _supporters(self, chosen: list[int]) -> frozenset[int]:
        """Placements that could join an OD-3 group of ``chosen`` not joined now (cut 4).

        Every placement putting colour c on a free neighbour hex of a
        token-covering colour-c group of a chosen placement, that group not
        touching colour c now (:meth:`_unjoined`).
        """
        game, player = self.state.game, self.player
        out: set[int] = set()
        for t in chosen:
            if not self.state.pl_token[t]:
                continue
            for nbrs, c in self._unjoined(t):
                for h in nbrs:
                    out.update(u for u, o in game.covering[h] if (player if o else 1 - player) == c)
        return frozenset(out)

    def _reaches_goal(self, plan: list[int]) -> bool:
        """Does the final colouring of ``plan`` (all laid, no order) fulfil the goal?"""
        colour = self.state.game.paint(self.state.colour.copy(), plan, self.player)
        return goal_fulfilled(self.state, self.player, self.goal, self.pair_keys, colour)

    def _build(self, k: int, prune: bool, blk: dict | None = None):
        """The CP-SAT model of "a plan set of <= k tiles" (None when trivially infeasible).

        ``blk`` (a dict, filled here): one "hex blocked" literal per free hex a
        candidate covers, which no chosen placement may then cover.
        """
        game = self.state.game
        budget = self.budget(k)
        if prune:
            U, viable = self.useful(budget)
        else:
            U = {h for h in range(game.n) if self.cost[h] < INF}
            viable = self.pairs if self.goal == "sides" else [None]
        if not U or not viable:
            return None
        model = new_model()
        x, own_by_hex = self._placements(model, U, prune, blk)
        # Constraints: the tile budget and the graph bound on own hexes placed.
        model.add(sum(x.values()) <= k)
        if prune and self.lb_hexes > 0:
            units = [(1 if self.relaxed else sum(game.placements[t].own), v) for t, v in x.items()]
            model.add(sum(u * v for u, v in units) >= self.lb_hexes)
        self._connect(model, U, viable, budget, prune, own_by_hex)
        return model, x

    def _placements(self, model, U, prune, blk: dict | None = None):
        """Placement variables and their constraints (OD-2 overlap, tile counts, OD-3).

        Returns ``x`` (action -> Boolean; relaxed: hex -> claim) and, per hex,
        the Booleans that give it the player's colour. With ``blk`` (not
        relaxed), a literal per covered hex joins its overlap constraint: a
        blocked hex is covered by no placement.
        """
        game, player = self.state.game, self.player
        # Variables: candidate placements (relaxed: one claim per free hex).
        x: dict[int, cp_model.IntVar] = {}
        own_by_hex: dict[int, list] = {}
        opp_by_hex: dict[int, list] = {}
        if self.relaxed:
            for h in self.free:
                if h in U:
                    x[h] = model.new_bool_var(f"claim_{h}")
                    own_by_hex[h] = [x[h]]
            return x, own_by_hex
        cands, od3 = self._candidates(U, prune)
        for t in cands:
            pl = game.placements[t]
            x[t] = model.new_bool_var(f"x_{game.tiles.tiles[pl.tile].name}_{t}")
            for c, o in zip(pl.cells, pl.own):
                (own_by_hex if o else opp_by_hex).setdefault(c, []).append(x[t])
        # Constraints: no overlap (OD-2); a blocked hex is covered by none.
        for h in set(own_by_hex) | set(opp_by_hex):
            vs = own_by_hex.get(h, []) + opp_by_hex.get(h, [])
            if blk is not None:
                blk[h] = model.new_bool_var(f"blocked_{h}")
                vs = vs + [blk[h]]
            if len(vs) > 1:
                model.add_at_most_one(vs)
        # Constraints: tiles of one shape are interchangeable -- one variable per
        # shape placement, at most (remaining tiles of that shape) of them.
        by_type: dict[int, list] = {}
        for t, v in x.items():
            by_type.setdefault(game.placements[t].tile, []).append(v)
        for rep, vs in by_type.items():
            if len(vs) > len(self.type_tiles[rep]):
                model.add(sum(vs) <= len(self.type_tiles[rep]))
        # Constraints: OD-3 in the final colouring -- a token-covering group of
        # colour c touches a hex of colour c of another chosen placement.
        for t, groups in od3.items():
            for nbrs, c in groups:
                by_hex = own_by_hex if c == player else opp_by_hex
                model.add_bool_or([x[t].negated()] + [v for h in nbrs for v in by_hex.get(h, ())])
        return x, own_by_hex

    def _connect(self, model, U, viable, budget, prune, own_by_hex) -> None:
        """Cost-layer reachability: the goal's chain exists in the final colouring."""
        nodes, nbrs, lo, hi = self._nodes(U, viable, budget, prune)
        if not nodes:
            model.add_bool_or([])  # no node can be on a chain: infeasible
            return
        cost = {v: (1 if v[0] == "h" else 0) for v in nodes}
        # Variables: R[v][j] = "v reached with at most j claimed hexes on its support path".
        R = {v: {j: model.new_bool_var(f"R_{v[0]}{v[1]}_{j}") for j in range(lo[v], hi[v] + 1)}
             for v in nodes}
        r = {v: R[v][hi[v]] for v in nodes}
        # Constraints: layers are monotone.
        for v in nodes:
            for j in range(lo[v], hi[v]):
                model.add_implication(R[v][j], R[v][j + 1])
        # Constraints: a reached free hex has the player's colour.
        for v in nodes:
            if v[0] == "h":
                model.add(r[v] <= sum(own_by_hex.get(v[1], [])))
        src = self._goal(model, nodes, r, viable)
        # Constraints: support -- a node reached at layer j is a source or has a
        # neighbour reached at layer j - cost (free hexes climb one layer: no cycle).
        for v in nodes:
            for j in range(lo[v], hi[v] + 1):
                lits = [src[v]] if v in src and j >= cost[v] else []
                jj = j - cost[v]
                lits += [R[u][jj] for u in nbrs[v] if u in R and lo[u] <= jj <= hi[u]]
                model.add_bool_or(lits + [R[v][j].negated()])

    def _nodes(self, U, viable, budget, prune):
        """Chain nodes (free hexes of ``U``; own components touching it, contracted), their
        neighbours, and layer bounds ``lo[v] <= j <= hi[v]`` (nodes with none dropped)."""
        nodes: dict = {}
        for h in sorted(U):
            if self.cost[h] == 1:
                nodes[("h", h)] = [h]
            elif self.cost[h] == 0:
                nodes.setdefault(("c", self.comp_of[h]), self.comps[self.comp_of[h]])
        key_of = {h: v for v, hs in nodes.items() for h in hs}
        nbrs = {v: sorted({key_of[u] for h in hs for u in self.adj[h] if u in key_of} - {v})
                for v, hs in nodes.items()}
        lo, hi = {}, {}
        for v, hs in nodes.items():
            h = hs[0]
            if prune and self.goal == "sides":
                lo[v] = min(p[4][h] for p in viable)
                hi[v] = budget - min(p[5][h] - self.cost[h] for p in viable)
            else:
                lo[v], hi[v] = (1 if v[0] == "h" else 0), budget
        nodes = {v: hs for v, hs in nodes.items() if lo[v] <= hi[v]}
        return nodes, nbrs, lo, hi

    def _goal(self, model, nodes, r, viable) -> dict:
        """Sources and the goal (W1: one viable pair, its target side reached; W2: 4 galaxies)."""
        src: dict = {}
        if self.goal == "galaxies":
            for v in nodes:
                src[v] = model.new_bool_var(f"src_{v[0]}{v[1]}")
            model.add_exactly_one(src.values())
            # Constraints: the chain covers at least 4 galaxies (W2).
            gal = [(sum(int(self.state.galaxy[h]) for h in hs), r[v]) for v, hs in nodes.items()]
            model.add(sum(g * lit for g, lit in gal if g) >= W2_GALAXIES)
            return src
        sel = []
        src_pairs: dict = {}
        for i, p in enumerate(viable):
            s_k = model.new_bool_var(f"pair_{i}")
            sel.append(s_k)
            # Constraints: the chosen pair's target side is reached.
            model.add_bool_or([r[v] for v, hs in nodes.items() if any(h in p[1] for h in hs)]
                              ).only_enforce_if(s_k)
            for v, hs in nodes.items():
                if any(h in p[0] for h in hs):
                    if v not in src:
                        src[v] = model.new_bool_var(f"src_{v[0]}{v[1]}")
                    src_pairs.setdefault(v, []).append(s_k)
        model.add_exactly_one(sel)
        for v, s in src.items():
            model.add_bool_or(src_pairs[v]).only_enforce_if(s)
        return src

    def _candidates(self, U: set[int], prune: bool):
        """Candidate placements and their OD-3 clauses.

        Returns ``(candidates, od3)``: sorted action ids of representative
        tiles on free unblocked hexes (with ``prune``: an own hex in ``U``,
        closed under OD-3 support), and per token-covering candidate whose
        cover is not joined now the list of ``(neighbour hexes, colour)``
        groups that must touch their colour in the final colouring.
        """
        state, player, game = self.state, self.player, self.state.game
        n = game.n
        rep_mask, open_ = self.rep_flags(), self.open_flags()   # free, unblocked; sentinel pads
        ok: np.ndarray | list
        if prune and not use_reference():
            # The same sets from the placements with an own hex on a free useful hex,
            # the supporters tested one by one.
            chosen = set(usable_covering(game, [h for h in U if self.cost[h] == 1], open_, rep_mask).tolist())
            # Every placement's test at once (a fraction of a millisecond; one by one, the
            # supporters of a large model cost several).
            from .bitboard import BitTables

            ok = (BitTables.get(game).all_cells(open_) & rep_mask[game.pl_tile]).tolist()
        elif prune:
            ok = open_[game.pl_cells].all(axis=1) & rep_mask[game.pl_tile]
            in_u = np.zeros(n + 1, dtype=bool)
            in_u[list(U)] = True
            chosen = set(np.flatnonzero(ok & (in_u[game.pl_cells] & game.pl_own).any(axis=1)).tolist())
        else:
            ok = open_[game.pl_cells].all(axis=1) & rep_mask[game.pl_tile]
            chosen = set(np.flatnonzero(ok).tolist())
        od3: dict[int, list] = {}
        todo = [t for t in chosen if state.pl_token[t]]
        seen: set[tuple[int, int]] = set()
        while todo:
            t = todo.pop()
            groups = self._unjoined(t)
            if not groups:
                continue
            od3[t] = groups
            for nbrs, c in groups:
                for h in nbrs:
                    if (h, c) in seen:
                        continue
                    seen.add((h, c))
                    for u, o in game.covering[h]:
                        if ok[u] and (player if o else 1 - player) == c and u not in chosen:
                            chosen.add(u)
                            if state.pl_token[u]:
                                todo.append(u)
        return sorted(chosen), od3

    def _unjoined(self, t: int) -> list[tuple[list[int], int]]:
        """OD-3 groups of placement ``t`` not joined now: ``(free neighbour hexes, colour)``.

        On the bitmask tables of :mod:`ubongo_cp.games.orion.bitboard` (a group's neighbour mask
        and colour per cell); :meth:`_unjoined_reference` is the same on the
        reference engine's lists.
        """
        if use_reference():
            return self._unjoined_reference(t)
        bits = self._bits
        if bits is None:
            from .bitboard import BitTables

            pos = position_bits(self.state)
            free = sum(1 << h for h in self.free)
            bits = self._bits = (BitTables.get(self.state.game), pos.colour_idx, pos.token_idx, free)
        tab, cidx, token, free = bits
        player = self.player
        out = []
        for h, (nb, own) in zip(self.state.game.placements[t].cells, tab.groups[t]):
            if not token >> h & 1:
                continue
            c = player if own else 1 - player
            if nb & cidx[c]:
                continue  # joined now (OD-3 is monotone: it stays legal)
            m, hexes = nb & free, []
            while m:
                low = m & -m
                hexes.append(low.bit_length() - 1)
                m ^= low
            out.append((hexes, c))
        return out

    def _unjoined_reference(self, t: int) -> list[tuple[list[int], int]]:
        """:meth:`_unjoined` on the reference engine's lists."""
        state, player = self.state, self.player
        pl = state.game.placements[t]
        cols = pl.colours(player)
        adj, colour = self.adj, state.colour
        out = []
        for i, h in enumerate(pl.cells):
            if not state.token[h]:
                continue
            group = tile_group(pl.cells, cols, i, adj)
            if any(colour[v] == cols[i] for u in group for v in adj[u]):
                continue  # joined now (OD-3 is monotone: it stays legal)
            nb = sorted({v for u in group for v in adj[u]} - set(pl.cells))
            out.append(([v for v in nb if self.cost[v] == 1], cols[i]))
        return out

    def _assign_tiles(self, chosen: list[int]) -> list[int]:
        """Map placements of shape representatives to distinct remaining tiles of that shape."""
        game = self.state.game
        pool = {rep: list(ts) for rep, ts in self.type_tiles.items()}
        plan = []
        for t in chosen:
            pl = game.placements[t]
            tile = pool[pl.tile].pop(0)
            plan.append(game.placement_id(tile, zip(pl.cells, pl.own)))
        return sorted(plan)


def own_covering_table(game) -> list[np.ndarray]:
    """Per hex index, the sorted ids of the placements with an own hex on it (made once per game)."""
    table = getattr(game, "_own_covering", None)
    if table is None:
        table = [np.array([u for u, o in cov if o], dtype=np.int64) for cov in game.covering]
        game._own_covering = table
    return table


def own_covering_lists(game) -> list[list[int]]:
    """Per hex index, the sorted distinct ids of the placements with an own hex on it, as lists (made once per
    game; :func:`own_covering` of each hex alone)."""
    lists = getattr(game, "_own_covering_lists", None)
    if lists is None:
        lists = game._own_covering_lists = [own_covering(game, [h]).tolist() for h in range(game.n)]
    return lists


def own_covering(game, hexes) -> np.ndarray:
    """Sorted ids of the placements with an own hex on one of ``hexes`` (:func:`own_covering_table`)."""
    table = own_covering_table(game)
    mask = np.zeros(len(game.placements), dtype=bool)
    for h in hexes:
        mask[table[h]] = True
    return np.flatnonzero(mask)


def usable_covering(game, hexes, open_: np.ndarray, tile_ok: np.ndarray) -> np.ndarray:
    """Sorted distinct ids of the placements with an own hex on one of ``hexes`` (:func:`own_covering`) whose
    cells are all ``open_`` (per hex index and the padding index n) and whose tile is ``tile_ok`` (per tile)."""
    from .bitboard import BitTables

    rows = own_covering(game, hexes)
    return rows[BitTables.get(game).all_cells(open_, rows=rows) & tile_ok[game.pl_tile[rows]]]


def spent(t0: float, work: float, deterministic: bool) -> float:
    """The seconds a question has spent of its time limit: CP-SAT's deterministic seconds of its solves
    (``work``) when ``deterministic``, else the wall clock's since ``t0`` (:func:`time.perf_counter`)."""
    return work if deterministic else time.perf_counter() - t0


def solve_model(model, time_limit: float, num_workers: int = 1, decision: bool = False,
                deterministic: bool = False):
    """Solve through :func:`ubongo_cp.cpsat_runtime.run_solver`; ``(status name, solver)``.

    The name is ``"optimal"``, ``"feasible"`` (a solution whose optimality
    is not proved), ``"infeasible"`` or ``"unknown"`` (time limit).
    ``decision=True`` uses :data:`DECISION_PARAMETERS`. ``deterministic=True``
    limits CP-SAT's deterministic time to ``time_limit`` instead of its wall
    time (the same answer on any machine, with one worker).
    """
    solver = cp_model.CpSolver()
    if deterministic:
        solver.parameters.max_deterministic_time = max(0.01, float(time_limit))
    else:
        solver.parameters.max_time_in_seconds = max(0.01, float(time_limit))
    solver.parameters.num_workers = num_workers
    if decision:
        for name, value in DECISION_PARAMETERS.items():
            setattr(solver.parameters, name, value)
    st = run_solver(solver, model)
    name = {cp_model.OPTIMAL: "optimal", cp_model.FEASIBLE: "feasible",
            cp_model.INFEASIBLE: "infeasible"}.get(st, "unknown")
    return name, solver
