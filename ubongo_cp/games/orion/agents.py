"""Orion Duel agents: random, greedy (graph heuristic) and SAT-informed.

An agent is a callable ``agent(state) -> action`` (see
:data:`ubongo_cp.games.base.Agent`). The greedy heuristic and the SAT agent
look one move ahead; both take an immediate OD-5 win and avoid a move that
loses at once.
"""

from __future__ import annotations

import numpy as np

from ..base import RandomAgent
from .graphs import INF, node_weighted_distances
from .state import OrionState
from .wins import win_conditions

__all__ = ["RandomAgent", "GreedyAgent", "SatAgent", "make_agent", "AGENTS", "w1_graph_distance"]

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
        """Heuristic score of each action (higher is better)."""
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
    move (``time_limit`` seconds each; unreachable counts as 15 tiles);
    ties are broken by blocking (the opponent's W1 graph distance, larger
    is better), then by the greedy score.
    """

    def __init__(self, seed=None, top: int = 5, time_limit: float = 0.5,
                 max_candidates: int = 120) -> None:
        self.greedy = GreedyAgent(seed, max_candidates)
        self.top = top
        self.time_limit = time_limit

    def __call__(self, state: OrionState) -> int:
        from .distance import connect_distance
        p = state.current_player()
        actions = self.greedy.candidates(state)
        sc = self.greedy.scores(state, actions)
        order = np.argsort(-sc, kind="stable")[: self.top]
        if sc[order[0]] >= 1000:
            return actions[int(order[0])]
        best, best_key = actions[int(order[0])], None
        for i in order:
            a = actions[int(i)]
            nxt = state.clone()
            nxt.apply_action(a)
            if nxt.is_terminal():
                key = (-100.0 if nxt.winner == p else 100.0, 0, 0)
            else:
                mine = connect_distance(nxt, p, time_limit=self.time_limit).tiles
                theirs = connect_distance(nxt, 1 - p, time_limit=self.time_limit).tiles
                mine = 15 if mine is None else mine
                theirs = 15 if theirs is None else theirs
                block = w1_graph_distance(nxt, nxt.colour, 1 - p)
                key = (mine - theirs, -block, -sc[i])
            if best_key is None or key < best_key:
                best, best_key = a, key
        return best


#: Agent names accepted by the CLI and :func:`make_agent`.
AGENTS = ("random", "greedy", "sat")


def make_agent(name: str, seed=None):
    """Build an agent by name (``random``, ``greedy``, ``sat``).

    Raises
    ------
    InputError
        For an unknown name.
    """
    from ...errors import InputError
    if name == "random":
        return RandomAgent(seed)
    if name == "greedy":
        return GreedyAgent(seed)
    if name == "sat":
        return SatAgent(seed)
    raise InputError(f"unknown agent {name!r} (choose from {', '.join(AGENTS)})")
