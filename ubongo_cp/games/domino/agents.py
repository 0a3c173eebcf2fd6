"""Agents for Domino, nezlob se!: random, greedy, careful and one-turn look-ahead.

Every agent is a callable ``agent(state) -> action`` (the
:data:`~ubongo_cp.games.base.Agent` contract) with its own seeded
generator for tie-breaks. Agents read only what the player to act may know
(the public table and its own hand, DN-1: hands are hidden); to see the
effect of its own turn an agent plays it out on clones of the state, and
reads from the clone only public facts (pawns, path, end of game), never the
domino the clone drew from the stock.

* ``random``: a uniformly random legal action.
* ``greedy``: the longest move, i.e. the turn with the most attachments
  (DN-8 moves 4 > 2 > 1), blind to overshooting (DN-11); never swaps.
* ``careful``: never overshoots (DN-11) when it can help it, and keeps matching symbols: takes a
  winning turn when there is one, else the safe turn with the most
  attachments that leaves the most dominoes in hand matching an open end;
  with nothing to attach it swaps (DN-10) a domino that matches no open end.
* ``lookahead``: plays out every own turn plan and scores the position
  after it (own distance to Domina, opponents who can win next turn,
  matching dominoes left in hand); swaps like ``careful``.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from ...errors import InputError, seed_argument
from ..base import RandomAgent
from .actions import END_TURN, OUT, SWAP_BASE, is_attach, is_swap
from .state import DominoState

__all__ = [
    "AGENT_NAMES",
    "make_agent",
    "GreedyAgent",
    "CarefulAgent",
    "LookaheadAgent",
    "turn_plans",
    "open_ends",
]


def make_agent(name: str, seed: int | np.random.Generator | None = None) -> Callable[[DominoState], int]:
    """A fresh agent by name (one of :data:`AGENT_NAMES`), seeded for tie-breaks.

    Raises
    ------
    InputError
        If ``name`` is unknown, or ``seed`` is none numpy seeds a generator
        from (:func:`~ubongo_cp.errors.seed_argument`).

    Examples
    --------
    >>> from ubongo_cp.games.domino.state import new_game
    >>> s = new_game(seed=3)
    >>> make_agent("careful", seed=0)(s) in s.legal_actions()
    True
    """
    try:
        cls = _AGENTS[name]
    except KeyError:
        raise InputError(f"unknown agent {name!r} (choose from {', '.join(AGENT_NAMES)})") from None
    return cls(seed_argument("seed", seed))   # numpy's own error names nothing, and True would seed as 1


def turn_plans(state: DominoState) -> list[tuple[tuple[int, ...], DominoState]]:
    """Every way to finish the current player's turn without a swap.

    Returns
    -------
    list of (actions, state)
        The attach/end-turn action sequence from the current decision node
        to the end of the turn (DN-4, DN-6) and a clone of the state after
        it. Swaps (DN-10) are left out: their effect is hidden.

    Notes
    -----
    At most ``1 + h + h (h - 1)`` plans for a hand of ``h`` dominoes
    (two sides double the attach choices once DN-7 applies).
    """
    out: list[tuple[tuple[int, ...], DominoState]] = []
    _extend(state, (), state.turns, out)
    return out


def open_ends(state: DominoState) -> set[int]:
    """Symbols a domino can attach to next: the end of the path, and the start once DN-7 allows."""
    if not state.direction_set:
        return {state.path[0], state.path[1]}
    ends = {state.path[-1]}
    if state.all_entered:
        ends.add(state.path[0])
    return ends


class _SeededAgent:
    """Base of the planning agents: a seeded generator, and no thought for a forced move."""

    name = ""

    def __init__(self, seed: int | np.random.Generator | None = None) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, state: DominoState) -> int:
        legal = state.legal_actions()
        return legal[0] if len(legal) == 1 else self.choose(state, legal)

    def choose(self, state: DominoState, legal: list[int]) -> int:
        """The action when there is a real choice among ``legal``."""
        raise NotImplementedError


class GreedyAgent(_SeededAgent):
    """The longest move (most attachments, DN-8), ties at random; ignores DN-11."""

    name = "greedy"

    def choose(self, state: DominoState, legal: list[int]) -> int:
        plans = turn_plans(state)
        best = max(_n_attached(acts) for acts, _ in plans)
        pick = [acts for acts, _ in plans if _n_attached(acts) == best]
        return pick[int(self.rng.integers(len(pick)))][0]


class CarefulAgent(_SeededAgent):
    """Never overshoots (DN-11), keeps dominoes that match an open end, swaps dead ones (DN-10)."""

    name = "careful"

    def choose(self, state: DominoState, legal: list[int]) -> int:
        p = state.cur
        plans = turn_plans(state)
        # DN-11: never overshoot, unless every plan does (a must-attach game, may_decline False).
        safe = [(acts, after) for acts, after in plans if after.pawns[p] != OUT] or plans
        scored = []
        for acts, after in safe:
            if after.is_terminal() and after.returns()[p] > 0:
                key = (1, 0, 0)
            else:
                key = (0, _n_attached(acts), _matching(state, acts, after))
            scored.append((key, acts))
        best = max(k for k, _ in scored)
        pick = [acts for k, acts in scored if k == best]
        first = pick[int(self.rng.integers(len(pick)))][0]
        if first == END_TURN:
            return _swap_choice(state, legal) or first
        return first


class LookaheadAgent(_SeededAgent):
    """One-turn look-ahead: plays out each own turn plan on a clone and scores the result.

    The score (higher is better) of the position after the turn:

    * a win is +1000, falling off or every pawn out is -1000;
    * minus the own free fields to Domina, plus those of the nearest
      opponent still in the game (a pawn off the path counts as two fields
      behind the start), plus 8 when exactly one field remains (a pass wins
      next turn, DN-11);
    * minus 50 per opponent one free field from Domina (it wins by passing)
      and minus 10 per opponent 2 or 4 fields away once DN-7 lets it attach
      before the start without moving Domina;
    * plus 0.5 per domino left in hand that matches an open end.

    Ties go to the first plan in a random order. When the best plan attaches
    nothing, swaps like :class:`CarefulAgent`.
    """

    name = "lookahead"

    def choose(self, state: DominoState, legal: list[int]) -> int:
        p = state.cur
        plans = turn_plans(state)
        order = self.rng.permutation(len(plans))
        best_acts, best = None, -np.inf
        for i in order:
            acts, after = plans[i]
            s = _score(state, p, acts, after)
            if s > best:
                best_acts, best = acts, s
        first = best_acts[0]
        if first == END_TURN:
            return _swap_choice(state, legal) or first
        return first


class _Random(RandomAgent):
    name = "random"


_AGENTS = {"random": _Random, "greedy": GreedyAgent, "careful": CarefulAgent,
           "lookahead": LookaheadAgent}
#: Agent names accepted by :func:`make_agent` and the CLI.
AGENT_NAMES = tuple(_AGENTS)


# ---------------------------------------------------------------------------
# helpers


def _extend(state: DominoState, prefix: tuple[int, ...], turn: int,
            out: list[tuple[tuple[int, ...], DominoState]]) -> None:
    for a in state.legal_actions():
        if is_swap(a):
            continue
        c = state.clone()
        c._apply(a)
        acts = prefix + (a,)
        if c.is_terminal() or c.turns != turn:
            out.append((acts, c))
        else:
            _extend(c, acts, turn, out)


def _n_attached(acts: tuple[int, ...]) -> int:
    return sum(1 for a in acts if is_attach(a))


def _hand_left(state: DominoState, acts: tuple[int, ...]) -> list[int]:
    """The player's hand after the plan, before any draw (the draw is hidden)."""
    used = {a >> 2 for a in acts if is_attach(a)}
    return [d for d in state.hands[state.cur] if d not in used]


def _matching(state: DominoState, acts: tuple[int, ...], after: DominoState) -> int:
    ends = open_ends(after)
    doms = state.dominoes
    return sum(1 for d in _hand_left(state, acts) if doms[d][0] in ends or doms[d][1] in ends)


def _swap_choice(state: DominoState, legal: list[int]) -> int | None:
    """DN-10: swap the domino matching no open end and sharing the fewest symbols with the hand."""
    swaps = [a for a in legal if is_swap(a)]
    if not swaps:
        return None
    ends = open_ends(state)
    doms = state.dominoes
    hand = state.hands[state.cur]
    dead = []
    for a in swaps:
        lo, hi = doms[a - SWAP_BASE]
        if lo in ends or hi in ends:
            continue
        shared = sum(1 for e in hand if e != a - SWAP_BASE and (lo in doms[e] or hi in doms[e]))
        dead.append((shared, a))
    return min(dead)[1] if dead else None


def _score(state: DominoState, p: int, acts: tuple[int, ...], after: DominoState) -> float:
    if after.is_terminal():
        r = after.returns()[p]
        return 1000.0 * r if r > 0 else -1000.0
    if after.pawns[p] == OUT:
        return -1000.0
    waiting = after.domina - after.start + 2          # a pawn off the path enters at the start
    mine = after.free_fields_to_domina(p)
    score = -float(waiting if mine is None else mine) + (8.0 if mine == 1 else 0.0)
    lead = None
    for q in range(after.num_players):
        if q == p or after.pawns[q] == OUT:
            continue
        d = after.free_fields_to_domina(q)
        if d == 1:
            score -= 50.0
        elif d in (2, 4) and after.all_entered:
            score -= 10.0
        d = waiting if d is None else d
        lead = d if lead is None else min(lead, d)
    if lead is not None:
        score += lead
    return score + 0.5 * _matching(state, acts, after)
