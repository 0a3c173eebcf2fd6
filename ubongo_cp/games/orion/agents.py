"""Orion Duel agents: random, greedy (graph heuristic), SAT-informed, analysis-pruned and MCTS.

An agent is a callable ``agent(state) -> action`` (see
:data:`ubongo_cp.games.base.Agent`). The greedy heuristic, the SAT agent and
the analysis agent look one move ahead; all take an immediate OD-5 win and
avoid a move that loses at once. The analysis agent prunes with the exact
blocking set and evaluates with the exact distances; the MCTS agent is
OpenSpiel's MCTS bot on the bitmask engine (the ``openspiel`` extra). Every
agent also plays the pie variant (:mod:`.pie`): :class:`PieAgent` gives it a
fair first tile and a swap decision.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..base import RandomAgent
from .graphs import INF, node_weighted_distances
from .state import OrionState
from .wins import win_conditions

__all__ = ["RandomAgent", "GreedyAgent", "SatAgent", "AnalysisAgent", "MctsAgent", "PieAgent", "make_agent",
           "AGENTS", "w1_graph_distance"]

_FAR = 99


def w1_graph_distance(state: OrionState, colour: np.ndarray, player: int) -> int:
    """Fewest free hexes ``player`` must still claim for W1 on ``colour`` (0-1 BFS; 99 if cut).

    Any free hex counts as claimable (tile shapes ignored): the relaxed W1
    distance of :func:`.distance.graph_distance`, on a hypothetical colouring.
    """
    game = state.game
    cost = [0 if c == player else 1 if c < 0 else INF for c in colour[:-1].tolist()]
    best = _FAR
    for a, b in game.side_pairs:
        d = node_weighted_distances(game.adjacency, cost, a)
        best = min(best, min(d[h] for h in b))
    return best


def _w1_bits(tab, own: int, free: int) -> int:
    """:func:`w1_graph_distance` on grid bitmasks: layer k holds the hexes reachable through at most k free hexes."""
    w, w1 = tab.width, tab.width - 1
    best = _FAR
    for a, b in tab.sides:
        reach = tab.grow(a & own, own)
        k = 0
        while k < best:
            if reach & b:
                best = k
                break
            m = reach
            new = ((m << 1) | (m >> 1) | (m << w) | (m >> w) | (m << w1) | (m >> w1) | a) & free & ~reach
            if not new:
                break
            reach |= new
            reach = tab.grow(reach, own | reach)
            k += 1
    return best


def greedy_scores(state: OrionState, actions: list[int]) -> np.ndarray:
    """The scores of :class:`GreedyAgent` on bitmasks (:mod:`ubongo_cp.games.orion.bitboard` tables); the same numbers.

    OD-4 after a move is grown from its new hexes only (conditions only
    appear); the relaxed W1 distances are layered flood fills by shifts
    (layer k: the hexes reachable through at most k free hexes).
    """
    from .bitboard import BitTables, condition_names
    from .plans import position_bits

    from .bitboard import BitOrionState

    p = state.current_player()
    tab = BitTables.get(state.game)
    if isinstance(state, BitOrionState):
        cg, galaxies, holes = state.colour_grid, state.galaxies, state.holes
    else:
        pos = position_bits(state)
        cg, galaxies, holes = pos.colour_grid, pos.galaxies, pos.holes
    base = state.conditions()
    out = np.empty(len(actions))
    for i, a in enumerate(actions):
        own_g, opp_g = tab.own[a], tab.opp[a]
        grid = [0, 0]
        grid[p], grid[1 - p] = cg[p] | own_g, cg[1 - p] | opp_g
        got = tab.new_conditions(grid, p, own_g, opp_g, galaxies, holes)
        conds = [base[c] | condition_names(got[c]) for c in (0, 1)]
        diff = len(conds[p]) - len(conds[1 - p])
        if diff:
            out[i] = 1000 * np.sign(diff)
            continue
        free = tab.board & ~(grid[0] | grid[1])
        s = _w1_bits(tab, grid[1 - p], free) - _w1_bits(tab, grid[p], free)
        out[i] = s + 0.5 * (own_g & galaxies).bit_count() - 0.5 * (own_g & holes).bit_count()
    return out


def _reference(state):
    """The position in the reference engine (the analysis questions run on it)."""
    from .plans import analysed_state

    return analysed_state(state)


class GreedyAgent:
    """One-ply greedy: maximise (opponent's W1 graph distance - own), with win/loss checks.

    Parameters
    ----------
    seed : int, optional
        Seeds the candidate sample and tie-breaking.
    max_candidates : int
        Legal moves scored per turn (a uniform sample when there are more).

    Notes
    -----
    Score of a move: +1000 for an immediate OD-5 win, -1000 for an
    immediate OD-5 loss, else ``d_opp - d_own`` (relaxed W1 distances,
    :func:`w1_graph_distance`) plus 0.5 per galaxy and -0.5 per black hole
    newly under the mover's colour (OD-7 and W2/W3 pressure).
    """

    def __init__(self, seed=None, max_candidates: int = 120) -> None:
        self.rng = np.random.default_rng(seed)
        self.max_candidates = max_candidates

    def scores(self, state: OrionState, actions: list[int]) -> np.ndarray:
        """Heuristic score of each action (higher is better), on bitmasks (:func:`greedy_scores`)."""
        from .plans import use_reference

        if use_reference():
            return self.scores_reference(state, actions)
        return greedy_scores(state, actions)

    def scores_reference(self, state: OrionState, actions: list[int]) -> np.ndarray:
        """The scores of :meth:`scores` through the reference engine (colouring, OD-4, 0-1 BFS)."""
        p = state.current_player()
        game = state.game
        out = np.empty(len(actions))
        for i, a in enumerate(actions):
            pl = game.placements[a]
            colour = game.paint(state.colour.copy(), (a,), p)
            wins = win_conditions(game, colour, state.galaxy, state.hole)
            diff = len(wins[p]) - len(wins[1 - p])
            if diff:
                out[i] = 1000 * np.sign(diff)
                continue
            s = w1_graph_distance(state, colour, 1 - p) - w1_graph_distance(state, colour, p)
            for c, o in zip(pl.cells, pl.own):
                if o:
                    s += 0.5 * state.galaxy[c] - 0.5 * state.hole[c]
            out[i] = s
        return out

    def candidates(self, state: OrionState) -> list[int]:
        actions = state.legal_actions()
        if len(actions) > self.max_candidates:
            idx = self.rng.choice(len(actions), self.max_candidates, replace=False)
            actions = [actions[i] for i in sorted(idx)]
        return actions

    def __call__(self, state: OrionState) -> int:
        actions = self.candidates(state)
        sc = self.scores(state, actions) + self.rng.random(len(actions)) * 1e-3
        return actions[int(sc.argmax())]


class SatAgent:
    """SAT-informed: minimise own ``connect_distance`` minus the opponent's (W1).

    The greedy heuristic short-lists ``top`` moves; each is scored with
    :func:`.distance.connect_distance` for both players on the position after the
    move (``time_limit`` seconds each, counted in CP-SAT's deterministic
    time, so that a game plays the same on any machine and under any load;
    unreachable counts as 15 tiles);
    ties are broken by blocking (the opponent's W1 graph distance, larger
    is better), then by the greedy score.
    """

    def __init__(self, seed=None, top: int = 5, time_limit: float = 0.5,
                 max_candidates: int = 120) -> None:
        self.greedy = GreedyAgent(seed, max_candidates)
        self.top = top
        self.time_limit = time_limit

    def __call__(self, state: OrionState) -> int:
        state = _reference(state)
        actions = self.greedy.candidates(state)
        sc = self.greedy.scores(state, actions)
        order = np.argsort(-sc, kind="stable")[: self.top]
        if sc[order[0]] >= 1000:
            return actions[int(order[0])]
        return self.best_of(state, [actions[int(i)] for i in order], dict(zip(actions, sc)))

    def best_of(self, state: OrionState, short: list[int], greedy: dict) -> int:
        """The move of ``short`` with the best (own - opponent) distance after it; ``greedy`` scores break ties."""
        from .distance import connect_distance

        p = state.current_player()
        best, best_key = short[0], None
        for a in short:
            nxt = state.clone()
            nxt.apply_action(a)
            if nxt.is_terminal():
                key = (-100.0 if nxt.winner == p else 100.0, 0, 0)
            else:
                mine = connect_distance(nxt, p, time_limit=self.time_limit, deterministic=True).tiles
                theirs = connect_distance(nxt, 1 - p, time_limit=self.time_limit, deterministic=True).tiles
                mine = 15 if mine is None else mine
                theirs = 15 if theirs is None else theirs
                block = w1_graph_distance(nxt, nxt.colour, 1 - p)
                key = (mine - theirs, -block, -greedy[a])
            if best_key is None or key < best_key:
                best, best_key = a, key
        return best


class AnalysisAgent:
    """Prunes with the opponent's exact blocking set, evaluates with exact distances (W1).

    Each turn: an immediate OD-5 win is taken (greedy scores). When the
    opponent is at least as close to W1 as the mover (``connect_distance``
    of both, the opponent moving next), the candidates are the moves that
    cover a hex of the opponent's minimum blocking set
    (:func:`.blocking.min_blocking_set`: every opponent plan runs through
    it) and the greedy top ``top``; otherwise the greedy top ``top``. Each
    candidate is scored as :class:`SatAgent` does: own minus opponent
    ``connect_distance`` after the move, ties by the opponent's graph
    distance and the greedy score.

    Parameters
    ----------
    seed : int, optional
    top : int
        Greedy short list.
    block : int
        Blocking moves added at most.
    time_limit : float
        Seconds per analysis question, counted in CP-SAT's deterministic
        time (as :class:`SatAgent`'s): a game plays the same on any machine
        and under any load.
    """

    def __init__(self, seed=None, top: int = 4, block: int = 4, time_limit: float = 0.5) -> None:
        self.sat = SatAgent(seed, top=top, time_limit=time_limit)
        self.block = block

    def __call__(self, state: OrionState) -> int:
        from .blocking import min_blocking_set
        from .distance import connect_distance

        state = _reference(state)
        p, greedy = state.current_player(), self.sat.greedy
        actions = greedy.candidates(state)
        sc = greedy.scores(state, actions)
        order = [int(i) for i in np.argsort(-sc, kind="stable")]
        if sc[order[0]] >= 1000:
            return actions[order[0]]
        short = [actions[i] for i in order[: self.sat.top]]
        t = self.sat.time_limit
        mine = connect_distance(state, p, time_limit=t, deterministic=True).tiles
        theirs = connect_distance(state, 1 - p, time_limit=t, deterministic=True).tiles
        if theirs is not None and (mine is None or theirs <= mine):
            idx = state.game.board.index
            cut = {idx[h] for h in min_blocking_set(state, 1 - p, time_limit=2 * t, deterministic=True).hexes or []}
            hits = [actions[i] for i in order if sc[i] > -1000 and cut & set(state.game.placements[actions[i]].cells)]
            short += [a for a in hits[: self.block] if a not in short]
        return self.sat.best_of(state, short, dict(zip(actions, sc)))


class MctsAgent:
    """OpenSpiel's MCTS bot (``open_spiel.python.algorithms.mcts``) on the bitmask engine.

    The position is wrapped as a state of the registered game
    ``ubongo_cp_orion_duel`` (:mod:`ubongo_cp.games.openspiel`), with the pie
    variant when the state is a :class:`.pie.PieOrionState`; random
    rollouts, UCT, solved subtrees (OpenSpiel's MCTS-Solver).

    Parameters
    ----------
    seed : int, optional
    simulations : int
        MCTS simulations per move.
    uct_c : float
        UCT exploration constant.

    Raises
    ------
    InputError
        If OpenSpiel is not installed (the ``openspiel`` extra).
    """

    def __init__(self, seed=None, simulations: int = 200, uct_c: float = 1.4) -> None:
        from open_spiel.python.algorithms import mcts  # noqa: F401  (fails early without the extra)

        from ..openspiel import register

        register()
        self.rng = np.random.RandomState(None if seed is None else
                                         int(np.random.default_rng(seed).integers(2 ** 31)))
        self.simulations, self.uct_c = simulations, uct_c

    def __call__(self, state) -> int:
        from open_spiel.python.algorithms import mcts

        from ..openspiel import load_game, orion_variant, wrap_state
        from .bitboard import BitOrionState
        from .pie import PieOrionState

        engine: Any
        if isinstance(state, PieOrionState):
            engine = state.clone()
            if not isinstance(engine.inner, BitOrionState):
                engine.inner = BitOrionState.from_reference(engine.inner)
        else:
            engine = state.clone() if isinstance(state, BitOrionState) else BitOrionState.from_reference(state)
        # the engine's own game (its tile set may come from a file, its board and rules be a variant's)
        game = load_game("ubongo_cp_orion_duel", {"pie": isinstance(state, PieOrionState),
                                                  "variant": orion_variant(engine.game)})
        bot = mcts.MCTSBot(game, self.uct_c, self.simulations, mcts.RandomRolloutEvaluator(1, self.rng),
                           random_state=self.rng, solve=True)
        return int(bot.step(wrap_state(game, engine)))


class PieAgent:
    """An agent for the pie variant (:mod:`.pie`): a fair first tile, a swap decision, then ``agent``.

    The first tile is the candidate whose greedy score (for the first
    colour) is nearest 0 (a move the opponent has no reason to take over);
    in the swap turn the agent swaps when the first colour is ahead
    (relaxed W1 distances, :func:`w1_graph_distance`: the first colour's is
    smaller); afterwards ``agent`` plays the colour the seat holds, on the
    inner game.
    """

    def __init__(self, agent, seed=None) -> None:
        self.agent = agent
        self.greedy = GreedyAgent(seed)

    def __call__(self, state) -> int:
        from .pie import swap_action

        inner = state.inner
        if not state._history:
            actions = self.greedy.candidates(inner)
            sc = np.abs(self.greedy.scores(inner, actions))
            return actions[int(sc.argmin())]
        if state.swap_turn():
            first = 1 - inner.current_player()
            ahead = w1_graph_distance(inner, inner.colour, first) < w1_graph_distance(inner, inner.colour, 1 - first)
            if ahead:
                return swap_action(inner)
        return self.agent(inner)


#: Agent names accepted by the CLI and :func:`make_agent`.
AGENTS = ("random", "greedy", "sat", "analysis", "mcts")


def make_agent(name: str, seed=None):
    """Build an agent by name (``random``, ``greedy``, ``sat``, ``analysis``, ``mcts``).

    Raises
    ------
    InputError
        For an unknown name, ``mcts`` without OpenSpiel installed, or a
        ``seed`` numpy seeds no generator from (:func:`~ubongo_cp.errors.seed_argument`).
    """
    from ...errors import InputError, seed_argument
    seed = seed_argument("seed", seed)   # numpy's own error names nothing, and True would seed as 1
    if name == "random":
        return RandomAgent(seed)
    if name == "greedy":
        return GreedyAgent(seed)
    if name == "sat":
        return SatAgent(seed)
    if name == "analysis":
        return AnalysisAgent(seed)
    if name == "mcts":
        try:
            return MctsAgent(seed)
        except ImportError:
            raise InputError("the mcts agent needs OpenSpiel: pip install 'ubongo-cp[openspiel]'") from None
    raise InputError(f"unknown agent {name!r} (choose from {', '.join(AGENTS)})")
